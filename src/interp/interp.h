/*
 * interp.h — the interpreter lane: executes a verified, validated HIR
 * module's `main` (LANGUAGE.md §4, TOOLCHAIN.md §1.3).
 *
 * Design: the HIR tree is executed directly — it is already resolved
 * (slots, callees, explicit moves).  Per function, a small side table
 * caches each call node's builtin dispatch index (filled on first use), and
 * locals live in one preallocated value stack indexed by slot, so the hot
 * path does no name lookups and no allocation for scalar code.
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

/* Failure domains (§5.2), indices into interp_domains. */
typedef enum Domain {
	DOM_ARITH, DOM_CONTRACT, DOM_VEC, DOM_BOX, DOM_BYTEBUF, DOM_TEXT, DOM_CONVERT,
	DOM_FORMAT, DOM_MAP, DOM_FS, DOM_OUTPUT,
} Domain;

typedef struct InterpOptions {
	uint64_t max_steps;       /* default 1,000,000 */
	bool transcript;          /* stdout transcript route: stdout_write allowed */
} InterpOptions;

typedef struct InterpResult {
	StopKind stop;            /* STOP_NONE: returned */
	int64_t value;            /* main's result */
	Domain domain;
	uint32_t code;
	char message[256];        /* STOP_LIMIT */
	Buf out;                  /* captured stdout (transcript route); caller frees */
	uint64_t steps;
} InterpResult;

/* Runs main; returns false when the module has no `main`. */
bool interp_run(HirModule *H, const InterpOptions *o, InterpResult *r);

/* "semaprax.arithmetic.v1", its class, and the meaning of (domain, code). */
const char *interp_domain_id(Domain d);
const char *interp_domain_class(Domain d);
const char *interp_meaning(Domain d, uint32_t code);

/* ---- shared between eval.c and builtins_rt.c ---- */

#define INTERP_MAX_DEPTH 256
#define INTERP_OUTPUT_CAP 65536u

typedef struct FnInfo {
	int32_t *bcache;          /* per expression index: builtin dispatch + 1 (0 = unresolved) */
	HirSlot *caps;            /* closures: the slots their captures occupy */
	int ncaps;
	bool ready;
} FnInfo;

typedef struct Interp {
	HirModule *H;
	Sema *S;
	const InterpOptions *opt;
	InterpResult *res;
	int32_t *symfunc;         /* SymId → HIR function index (-1) */
	FnInfo *fns;
	Value *stack;             /* value stack: frames' slots */
	size_t stack_cap, sp;
	int depth;
	uint64_t steps, budget;
	StopKind stop;
	Value ret;                /* STOP_RETURN: the residual being returned */
	VEC(Value) temps;         /* temporaries borrowed by views, released at block end */
} Interp;

void interp_fail(Interp *I, Domain d, uint32_t code);
void interp_limit(Interp *I, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* builtins_rt.c: resolves a builtin to a dispatch index (-1: not implemented). */
int rt_builtin_index(const Builtin *b);
const char *rt_builtin_name(int index);
/* Whether parameter i of the builtin is borrowed (the call does not consume it). */
bool rt_builtin_borrows(int index, int param);
/* Whether the result is a view borrowing from the arguments. */
bool rt_builtin_view(int index);
/*
 * Executes builtin `index` on args (owned unless borrowed); consumed
 * arguments are released or stored by the builtin; the caller releases
 * borrowed-parameter arguments.  On failure returns V_EMPTY with I->stop set.
 */
Value rt_builtin_call(Interp *I, int index, const HirExpr *call, Value *args, int nargs);

#endif
