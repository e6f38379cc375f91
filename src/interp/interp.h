/*
 * interp.h — the interpreter lane: executes a verified, validated HIR
 * module's `main` (LANGUAGE.md §4, TOOLCHAIN.md §1.3).
 *
 * Design: before `main` runs, every HIR function is lowered once into an
 * executable tree of typed nodes (node.h, compile.c): each node holds the
 * C function evaluating it, specialised by static type and operand shape,
 * with slots, constants, callees and builtin dispatch pre-resolved.
 * Locals live in a value stack indexed by slot, so the hot path does no
 * name lookups and no allocation for scalar code; the stack grows on
 * demand in segments (exec.c, stack_room).
 *
 * Failures are sticky (§4.11): the first failing operation records a
 * status in Interp.stop and every evaluation returns at once, each frame
 * and block releasing what it owns on the way out.
 */
#ifndef SPX_INTERP_H
#define SPX_INTERP_H

#include "../hir/hir.h"
#include "value.h"

typedef enum StopKind {
	STOP_NONE,
	STOP_STATUS,      /* a language status (domain, code) */
	STOP_FUEL,        /* step budget exhausted */
	STOP_DEPTH,       /* more than 256 frames */
	STOP_LIMIT,       /* an internal limit of this interpreter (message) */
	STOP_RETURN,      /* internal: `?` returning a residual (not a failure) */
} StopKind;

/* Failure domains (§5.2): RT_DOM_<NAME>, codes RT_<NAME>_<CODE> (rt/domains.def). */
typedef enum rt_domain Domain;

typedef struct InterpOptions {
	uint64_t max_steps;       /* default 1,000,000 */
	/* the route and the host capabilities it grants (host.c; chosen by
	 * src/driver/route.c), and the arguments after `--` */
	HirGrants host;
	char **args;
	int nargs;
	/* the entry's arguments (`interpret --arg`): scalars, one per parameter,
	 * at most INTERP_MAX_ENTRY_ARGS */
	const Value *entry_args;
	int nentry_args;
} InterpOptions;

/* One parameter of a contract failure's frame (LANGUAGE.md §4.7). */
typedef struct InterpArg {
	const char *name;         /* the HIR's parameter name */
	char *type;               /* type text; heap */
	char *value;              /* rendered value (`-7`, `3i32`, `<string 3 bytes>`); heap */
} InterpArg;

/* Which clause failed, and the frame's arguments (detail.c). */
typedef struct InterpFailure {
	bool present;             /* recorded at the failing clause */
	char *function;           /* stable id of the function (of the record, for invariants); heap */
	const char *phase;        /* "requires" or "ensures" */
	char *clause;             /* clause source text, or its expression id; heap */
	InterpArg *args;          /* parameters in declaration order; heap */
	int nargs;
	const Sema *where;        /* the checked module declaring the clause, … */
	uint32_t at;              /* … and the clause's first byte in its source */
} InterpFailure;

typedef struct InterpResult {
	StopKind stop;            /* STOP_NONE: returned */
	int64_t value;            /* main's result */
	Value scalar;             /* STOP_NONE: the result when a scalar (V_I64…V_CHAR), else V_EMPTY */
	Domain domain;
	uint32_t code;
	char message[256];        /* STOP_LIMIT */
	Buf out;                  /* staged stdout (transcript and command routes) */
	Buf err;                  /* staged stderr (command route) */
	uint64_t steps;
	InterpFailure failure;    /* STOP_STATUS in RT_DOM_CONTRACT */
} InterpResult;

/* Runs main; returns false when the module has no `main`. */
bool interp_run(HirModule *H, const InterpOptions *o, InterpResult *r);
/*
 * Runs `main` of mods[entry] in one image of several modules (a project):
 * a call of a symbol imported by `use function` (Sym.origin) runs the
 * function of that stable id in the module of that name, and a record
 * imported by `use type` checks its declaring module's invariants.  Each
 * function is compiled against its own module's checked program.
 */
bool interp_run_image(HirModule *const *mods, int nmods, int entry, const InterpOptions *o, InterpResult *r);
/* The same for the parameterless function mods[entry_mod]->funcs[func]
 * (a `test_*` case of `semaprax test`): a fresh interpreter each call. */
void interp_run_image_func(HirModule *const *mods, int nmods, int entry_mod, int func, const InterpOptions *o, InterpResult *r);
/* Frees what a result owns (staged output, failure detail). */
void interp_result_free(InterpResult *r);

/* "semaprax.arithmetic.v1", its class, and the meaning of (domain, code). */
const char *interp_domain_id(Domain d);
const char *interp_domain_class(Domain d);
const char *interp_meaning(Domain d, uint32_t code);

/* ---- shared between eval.c and builtins_rt.c ---- */

#define INTERP_MAX_DEPTH 256
#define INTERP_MAX_ENTRY_ARGS 64
#define INTERP_OUTPUT_CAP ((unsigned)RT_LIMIT_OUTPUT)

typedef struct Interp {
	HirModule *H;             /* the entry module */
	Sema *S;
	const InterpOptions *opt;
	InterpResult *res;
	HirModule *const *mods;   /* the image: every module (one for a single file) */
	int nmods;
	int *base;                /* per module: the index of its first function in cf */
	int32_t **symfuncs;       /* per module: SymId → its HIR function index (-1) */
	StrMap modnames;          /* module name → its index in mods (compile.c's imports) */
	int ncf;
	struct CFunc *cf;         /* per HIR function of every module: its executable form (node.h) */
	Arena code;               /* the nodes */
	Value *stack;             /* value stack: frames' slots (the current segment) */
	size_t stack_cap, sp;     /* the current segment's slots; its top */
	struct StackSeg {         /* segments: [0] first, [seg] current, above it kept for reuse */
		Value *base;
		size_t cap;
		size_t below;     /* the segment below's sp when this one was entered */
	} *segs;
	int nsegs, seg;
	int depth;
	ValueHeap heap;           /* counted values, the step meter (value.h) */
	uint64_t fuel;            /* the step budget (the heap limit ends it early: heap_lower) */
	StopKind stop;
	Value ret;                /* STOP_RETURN: the residual being returned */
	VEC(Value) temps;         /* temporaries borrowed by views, released at block end */
	uint64_t fs_reserved;     /* fs.c: bytes reserved of the run's 1 MiB file budget */
	uint64_t fs_written;      /* fs.c: bytes written of the run's 1 MiB write budget */
	bool stdin_done;          /* host.c: stdin_read has consumed stdin */
	uint32_t env_status;      /* host.c: 0 unbuilt, 1 built, else the snapshot's failure code + 1 */
	size_t env_count;
	const char *env_order[RT_LIMIT_ENV_ENTRIES];   /* the snapshot, sorted by name */
} Interp;

void interp_fail(Interp *I, Domain d, uint32_t code);
/* A charge crossed I->budget: fuel exhaustion, or the heap limit's stop. */
void interp_charge_stop(Interp *I) __attribute__((noinline, cold));
/* detail.c: records which clause of f failed (index i of its requires,
 * code 1, or ensures, code 2) with the frame's parameters in slots. */
void interp_contract_detail(Interp *I, const Sema *S, const HirFunc *f, const Value *slots, int i, uint32_t code);
void interp_limit(Interp *I, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* interp.c: moves the value stack to a segment of at least need free
 * slots (a fresh one, or the one kept above); interp_stack_back returns to
 * the segment below, whose top is where it was. */
void interp_stack_next(Interp *I, size_t need) __attribute__((noinline, cold));
void interp_stack_back(Interp *I);

/* The compiler-owned functions this interpreter runs are dispatched by
 * their BuiltinId (BI_<name>, src/sema/builtins.def); interp_rt_builtin_index
 * returns -1 for the host operations it does not run. */

/* collections.c: Map and Set (LANGUAGE.md §5.1); host.c: the host
 * operations, checked against the route's grants; fs.c: file_read_text
 * (`path` a borrowed str), called by interp_rt_host_call. */
Value interp_rt_collection_call(Interp *I, int index, const HirExpr *call, Value *args);
Value interp_rt_host_call(Interp *I, int index, Value *args);
Value interp_rt_file_read_text(Interp *I, const Value *path);
/* fs.c: file_write_new / file_write_atomic (args: path, length, data, data_length). */
Value interp_rt_file_write(Interp *I, const Value *args, bool atomic);

/* exec.c: a binary operator on two evaluated operands (consumed). */
Value interp_binary(Interp *I, BinaryOp op, Value l, Value r);
/* builtins_rt.c: resolves a builtin to its dispatch index, its BuiltinId
 * (-1: not implemented). */
int interp_rt_builtin_index(BuiltinId bid);
/* Whether parameter i of the builtin is borrowed (the call does not consume it). */
bool interp_rt_builtin_borrows(int index, int param);
/* Whether the result is a view borrowing from the arguments. */
bool interp_rt_builtin_view(int index);
/*
 * Executes builtin `index` on args (owned unless borrowed); consumed
 * arguments are released or stored by the builtin; the caller releases
 * borrowed-parameter arguments.  On failure returns V_EMPTY with I->stop set.
 */
Value interp_rt_builtin_call(Interp *I, int index, const HirExpr *call, Value *args, int nargs);

#endif
