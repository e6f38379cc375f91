/*
 * hir.h — the typed, resolved intermediate representation every execution
 * lane and agent tool consumes (issue: "typed stable-ID HIR").
 *
 * Produced by hir_lower from a verified Module and its Sema:
 *   - every declaration carries its stable identity (HirFunc.id);
 *   - every expression has a type (TypeId in Sema.types) and a
 *     revision-scoped structural identity: its preorder index within its
 *     function (`declaration:<len>:<fn-id>:expression:<index>`);
 *   - names are resolved to slots (parameters, lets, pattern and loop
 *     bindings), calls to a function (with type arguments for a generic
 *     instance), a compiler-owned operation, or a callable slot;
 *   - match patterns are resolved (HirPattern): cases and fields are
 *     indices, bindings are slots, literals are values; a lane needs no
 *     name lookup and no checker helper to test or bind one;
 *   - ownership is explicit: reading an owned slot that gives ownership away
 *     is HIR_MOVE (the slot's liveness ends there; also an owned local at its
 *     last use lent to an operation that keeps it, lastuse.c); every owned slot is
 *     listed in the `owned` set of the block that declares it, and is
 *     released at the block's end, on every exit path, in reverse order of
 *     initialisation, if still live (the cleanup plan of RFC 0003 / §0.12).
 * hir_validate re-derives types, resolution and cleanup balance.
 *
 * Ownership of every slot is stated (HirLocal): `owned` slots are released
 * by exactly one scope, `lent` slots hold a value owned elsewhere and are
 * never released, Copy slots need nothing.  A consuming `for` (`for own`, an
 * Iter) owns its item in the body's scope, so each iteration releases what
 * the body did not move.  An immutable `let` of a lent place is a lent slot
 * (an alias); any other lent value in a consuming position is copied.
 *
 * Rules a lane adds, which follow from types and modes rather than from
 * extra nodes:
 *   - Generic templates keep type parameters (TY_PARAM) in slot and
 *     expression types and never mark T-typed slots owned: one template
 *     serves every instance.  In an instance where T is not Copy, a slot
 *     that is not lent owns its value (HirInst.slot_owned, from hir_mono)
 *     and the lane releases it when it is overwritten and at function exit
 *     (a T-typed consumed `for` item at the end of each iteration).
 *   - `match own` consumes the scrutinee: parts of it that the arm's pattern
 *     does not bind are released with it, by the end of the arm.
 *   - A temporary (HirExpr.temp) is released after its use and no later
 *     than the end of the enclosing statement, or of the block when a view
 *     derived from it is bound (§0.12).  An `if`/`match`/block in a lending
 *     position is marked only when every branch yields a temporary; one
 *     mixing fresh and lent branches holds whichever it yields, and the lane
 *     releases it only when it was fresh.
 *   - A partially moved record is released field by field, skipping the
 *     fields taken out (HIR_FIELD take).
 *   - Record invariants are lowered as functions (HirModule.invariants); a
 *     lane calls them after building or updating a record value.
 */
#ifndef SPX_HIR_H
#define SPX_HIR_H

#include "../sema/program.h"

typedef uint32_t HirSlot;

typedef struct HirLocal {
	const char *name;
	TypeId type;
	bool owned;        /* not Copy: released at scope end unless moved */
	bool lent;         /* holds a value owned elsewhere, never released here: a `borrow`/`shared`
	                      parameter, a `match borrow`/plain-match binding, a `for` item over a Vec,
	                      an alias `let y = <lent place>`, `result` in ensures */
	bool param;
	Span span;
	bool pinned;       /* lent, and its value never changes while the function runs: a `borrow`/
	                      `shared` parameter, or a `let` alias of a path of one or of a branch value
	                      that lends (HirExpr.lends) — unlike a binding whose owner may change */
} HirLocal;

typedef struct HirExpr HirExpr;
typedef struct HirStmt HirStmt;
typedef struct HirBlock HirBlock;

typedef enum HirKind {
	HIR_INT, HIR_FLOAT, HIR_BOOL, HIR_CHAR, HIR_STRING,  /* u.lit */
	HIR_LOCAL,        /* u.slot: read (Copy, or a borrow of an owned slot) */
	HIR_MOVE,         /* u.slot: ownership leaves the slot */
	HIR_FUNC,         /* u.call.fn: a function value */
	HIR_UNARY,        /* u.un */
	HIR_BINARY,       /* u.bin */
	HIR_CALL,         /* u.call: fn (+ targs) / builtin / callee slot; methods have the receiver as args[0] */
	HIR_FIELD,        /* u.field */
	HIR_TRY,          /* u.try_ */
	HIR_WITH,         /* u.agg (base set) */
	HIR_RECORD,       /* u.agg */
	HIR_VARIANT,      /* u.agg (case_index) */
	HIR_BLOCK,        /* u.block */
	HIR_IF,           /* u.if_ (else may be NULL for statement ifs) */
	HIR_MATCH,        /* u.match */
	HIR_CLOSURE,      /* u.closure */
	HIR_ARRAY,        /* u.array */
} HirKind;

typedef enum HirCallKind { CALL_FN, CALL_BUILTIN, CALL_SLOT } HirCallKind;

/*
 * A resolved pattern.  Every node carries the type of the value it is
 * matched against; names are gone: a case is its index in the variant, a
 * field its index in the record or case payload, a binding its slot.  A
 * field written without a sub-pattern (`{ x }`) binds the field: its
 * sub-pattern is a HIR_PAT_BIND.  Only CASE and LIT test; BIND, WILD and
 * RECORD always match (an OR matches when one alternative does).
 */
typedef enum HirPatKind {
	HIR_PAT_WILD,     /* `_` */
	HIR_PAT_BIND,     /* slot */
	HIR_PAT_LIT,      /* lit: a bool, char or integer value */
	HIR_PAT_CASE,     /* case_index, then fields/subs of the case payload */
	HIR_PAT_RECORD,   /* fields/subs */
	HIR_PAT_OR,       /* alts */
} HirPatKind;

typedef struct HirPattern HirPattern;
struct HirPattern {
	HirPatKind kind;
	TypeId type;          /* the type of the value matched */
	Span span;
	HirSlot slot;         /* BIND */
	/* LIT: kind HIR_BOOL (b), HIR_CHAR (ch) or HIR_INT (magnitude i and
	 * sign); any other kind never matches */
	struct { int kind; uint64_t i; bool negative; uint32_t ch; bool b; } lit;
	int case_index;       /* CASE */
	int *fields;          /* CASE/RECORD: field index per field pattern */
	HirPattern **subs;    /* CASE/RECORD: its sub-pattern */
	int nfields;
	HirPattern **alts;    /* OR */
	int nalts;
};

typedef struct HirArm {
	HirPattern *pat;      /* the resolved pattern */
	const Pattern *src;   /* the arm's pattern as written (the graph prints it canonically) */
	int case_index;       /* variant scrutinee: the case, -1 for a catch-all */
	HirSlot *binds;       /* slots bound by the pattern, in pattern order */
	int nbinds;
	HirExpr *guard;
	HirExpr *value;
	HirBlock *scope;      /* owned bindings of the arm (released at arm end) */
} HirArm;

struct HirExpr {
	HirKind kind;
	TypeId type;
	uint32_t index;       /* structural id: preorder within the function */
	bool temp;            /* a fresh owned value in a lending position (an argument to a borrowing
	                         parameter, an operand, a field base, a non-`own` scrutinee, a
	                         discarded value): released after its use (see above) */
	bool lends;           /* a BLOCK, IF (with else) or MATCH every result of which is read in
	                         place from a path of a lent parameter (`if c { a } else { r.m }` of
	                         `borrow` a, r), directly or through such a branch value: the value
	                         is a borrow, as a read of that path is, never a fresh copy; a
	                         consuming position copies it once (lower.c lends) */
	Span span;
	union {
		struct { uint64_t i; bool negative; double f; uint32_t ch; bool b; const char *s; uint32_t n; } lit;
		HirSlot slot;
		struct { UnaryOp op; HirExpr *x; } un;
		struct { BinaryOp op; HirExpr *l, *r; } bin;
		struct {
			HirCallKind kind;
			SymId fn;             /* CALL_FN: function or method symbol */
			TypeId *targs;        /* generic instance arguments */
			int ntargs;
			const Builtin *builtin;  /* CALL_BUILTIN: its row of src/sema/builtins.def */
			HirSlot callee;       /* CALL_SLOT */
			HirExpr **args;
			int nargs;
		} call;
		/* take: the (owned) field moves out of its base, which becomes
		 * partially moved (the checker forbids later whole uses, O109) */
		struct { HirExpr *base; int field; bool take; } field;
		struct { HirExpr *x; bool option; } try_;
		struct {
			SymId type_sym;       /* record/class/variant symbol */
			int case_index;       /* HIR_VARIANT */
			HirExpr *base;        /* HIR_WITH */
			int *fields;          /* field index of each value, in written (evaluation) order */
			HirExpr **values;
			int n;
		} agg;
		HirBlock *block;
		struct { HirExpr *cond; HirBlock *then_, *else_; } if_;
		struct { HirExpr *scrutinee; MatchMode mode; HirArm *arms; int narms; } match;
		struct { int func; HirSlot *captures; int ncaptures; } closure;  /* func: index in HirModule.funcs */
		struct { HirExpr **elems; int n; } array;
	} u;
};

typedef enum HirStmtKind {
	HS_LET,      /* slot = value (slot NONE for `let _`) */
	HS_ASSIGN,   /* slot = value (the old owned value is released after the value is complete) */
	HS_SET_FIELD,/* slot.field = value */
	HS_WHILE,    /* cond, body */
	HS_FOR,      /* item slot, iter, body, own */
	HS_EXPR,     /* a statement if */
	HS_UNSAFE,   /* body */
} HirStmtKind;

#define HIR_NO_SLOT UINT32_MAX

struct HirStmt {
	HirStmtKind kind;
	Span span;
	HirSlot slot;
	int field;
	bool own;
	HirExpr *value;       /* LET/ASSIGN/SET_FIELD value; WHILE cond; FOR iter; EXPR */
	HirBlock *body;
};

struct HirBlock {
	HirStmt **stmts;
	int nstmts;
	HirExpr *tail;        /* NULL: no value */
	HirSlot *owned;       /* owned slots declared in this block, in initialisation order */
	int nowned;
};

typedef enum HirFuncKind {
	HIR_FUNC_DECL,        /* a declared function or method (sym >= 0) */
	HIR_FUNC_CLOSURE,     /* a lifted closure (sym -1, name "closure") */
	HIR_FUNC_INVARIANT,   /* a record's invariants (sym -1, the record's name) */
} HirFuncKind;

typedef struct HirFunc {
	SymId sym;            /* -1 for a closure or a record's invariants */
	HirFuncKind kind;
	const char *name;
	const char *id;       /* stable identity */
	const char *report_id;/* the identity a contract failure names: id, or the record's for its invariants */
	HirLocal *locals;     /* params first */
	int nlocals;
	int nparams;
	TypeId result;
	const Clause *clauses;/* requires/ensures (source); lowered below */
	HirExpr **requires;
	int nrequires;
	HirExpr **ensures;
	int nensures;
	HirSlot result_slot;  /* `result` in ensures */
	HirBlock *body;
	uint32_t nexprs;      /* structural ids are 0..nexprs-1 */
} HirFunc;

typedef struct HirModule {
	Sema *S;
	Arena arena;
	HirFunc *funcs;       /* functions and methods in symbol order, lifted closures, record invariants */
	int nfuncs;
	int capfuncs;
	/*
	 * Per record symbol (indexed by SymId): the function checking its
	 * invariants, or -1.  Its parameters are the record's fields in
	 * declaration order, its `requires` clauses the invariants (a false one
	 * is contract code 1, §0.7), its body `true`.  Called at every literal,
	 * `with` update and field store of that record.
	 */
	int32_t *invariants;
	struct HirMono *mono; /* hir_mono's instance list (NULL until a lane asked for it) */
} HirModule;

HirModule *hir_lower(Sema *S);
void hir_free(HirModule *h);
/* Re-derives the invariants; reports H006 (internal) diagnostics; true when valid. */
bool hir_validate(HirModule *h, DiagSink *diags);
/* lastuse.c: rewrites, in every function, a borrowed argument an operation
 * keeps (map_set's key and value, map_add's and set_insert's key,
 * map_get_or's default) or copies an element out of (vec_clone_at's Vec,
 * map_value_at's, map_key_at's and map_get_or's Map, set_key_at's Set) from HIR_LOCAL to HIR_MOVE, or a field path of a
 * local to a take, when it is an owned local nothing reads again (the rule
 * is in lastuse.c); hir_lower runs it. */
void hir_last_use(HirModule *h);
/* Does expression e itself mention slot s, as the last-use pass counts a
 * mention: a read or move of it, a call through it (CALL_SLOT), a closure
 * capturing it?  (Not its subexpressions: a visitor asks each.) */
bool hir_expr_mentions(const HirExpr *e, HirSlot s);
/* A deterministic text dump (for tests and `check --dump-hir`). */
void hir_dump(Buf *out, HirModule *h);
/* The HIR function a run starts at: the free function `main`, else the
 * function whose stable id is `app.main`; -1 when there is none. */
int hir_find_main(const HirModule *h);

/* A project lane's table of module h: SymId → its HIR function's index, -1
 * for a symbol with none (malloc'd, one entry per symbol). */
int32_t *hir_symfunc(const HirModule *h);

/*
 * mono.c — monomorphisation: the function instances a lane emits, each a
 * HIR function with concrete type arguments, discovered from `main`
 * (through calls, function values, closures and record invariant checks)
 * in a deterministic worklist order.  This list is the contract between the
 * HIR and every lane that compiles generics away (the C lane, the Wasm lane):
 * a lane needs no type substitution (slot types here, every other instance
 * type through hir_mono_type), no ownership re-derivation and no instance
 * search of its own.
 */
typedef struct HirInst {
	int func;             /* HirModule.funcs index */
	SymId owner;          /* the symbol whose type parameters targs bind; -1: none */
	TypeId *targs;        /* concrete type arguments (a closure: its enclosing instance's) */
	int ntargs;
	TypeId result;        /* the concrete result type */
	TypeId *slot_type;    /* per slot of funcs[func]: its concrete type */
	/* per slot: holds an owned value this instance releases when overwritten
	 * and at function exit — not lent and not Copy at its concrete type.  A
	 * T-typed slot of a generic body (HirLocal.owned false) is owned in an
	 * instance where T is not Copy. */
	bool *slot_owned;
	/* per structural id of funcs[func]: the instance an HIR_CALL (CALL_FN),
	 * HIR_FUNC or HIR_CLOSURE node reaches; -1 for every other node and for
	 * a callee without a HIR body */
	int32_t *target;
} HirInst;

/* One entry of an instance's substitution table: the template type `from`
 * (it mentions a type parameter) is `to` in instance `inst`. */
typedef struct HirMonoType {
	int32_t inst;         /* -1: an empty slot */
	TypeId from, to;
} HirMonoType;

typedef struct HirMono {
	HirInst *insts;       /* discovery order: insts[0] is `main` (empty without one) */
	int ninsts;
	int ngeneric;         /* instances with type arguments */
	/* per HirModule.funcs index: its instance without type arguments (a
	 * monomorphic function, a record's invariant check), or -1 */
	int32_t *func_inst;
	/* hir_mono_type's table, open addressing by (inst, from): every open
	 * type of an instance's HIR function a lane reads — each expression's
	 * type, each call's type arguments, each pattern node's type, each slot
	 * and the result — substituted once, in the walk's order.  Entries are
	 * the distinct (instance, type) pairs: at most the instances' HIR size. */
	HirMonoType *types;
	uint32_t types_cap;   /* a power of two */
} HirMono;

/* The concrete type of t in instance inst of h->mono: t itself when the
 * instance has no type arguments or t mentions no type parameter, else its
 * entry in HirMono.types.  t is a type of the instance's HIR function (an
 * expression's, a pattern node's, a call's type argument, a slot's);
 * hir_validate_mono checks that every one has its entry, so a lane never
 * substitutes types itself. */
TypeId hir_mono_type(const HirModule *h, int inst, TypeId t);
/* The entry of (inst, from) in m->types: true and *to, or false. */
bool hir_mono_type_entry(const HirMono *m, int inst, TypeId from, TypeId *to);

/* The bound on instances with type arguments: one more is refused (B110). */
#define HIR_MONO_MAX_GENERIC 256

/* Builds h->mono (once; later calls return the first answer): true, or
 * false after reporting B110 when the program needs more than
 * HIR_MONO_MAX_GENERIC generic instances. */
bool hir_mono(HirModule *h, DiagSink *diags);
/* The same from the monomorphic functions roots[0..n) (in that order; a
 * project module in the native lane: every function another module may
 * call, not only `main`), instead of `main`. */
bool hir_mono_roots(HirModule *h, const int *roots, int nroots, DiagSink *diags);
/* A project's instances for the compiled lanes: modules visited importers
 * first (order[] lists providers first), each from what its importers'
 * instances reach in it (an imported function, method or function value, an
 * imported record's invariant check) and, for mods[entry], from the entry
 * functions funcs[0..nfuncs) first.  Diagnostics into diags[k]. */
bool hir_mono_project(HirModule *const *mods, int nmods, const int *order, int entry, const int *funcs, int nfuncs, DiagSink *const *diags);
/* The same, with more roots: function xfuncs[i] of mods[xmods[i]] (a project
 * web package's exports). */
bool hir_mono_project_roots(HirModule *const *mods, int nmods, const int *order, int entry, const int *funcs, int nfuncs,
    const int *xmods, const int *xfuncs, int nx, DiagSink *const *diags);
/* Checks h->mono against the HIR (H006 into diags); true when valid. */
bool hir_validate_mono(HirModule *h, DiagSink *diags);

/* Visits f's expressions in evaluation order (requires, body, ensures):
 * pre before an expression's operands, post after them, stmt after a
 * statement's value and body.  Any callback may be NULL. */
typedef struct HirVisitor {
	void (*pre)(void *ctx, const HirExpr *e);
	void (*post)(void *ctx, const HirExpr *e);
	void (*stmt)(void *ctx, const HirStmt *s);
	void *ctx;
} HirVisitor;
void hir_visit(const HirFunc *f, const HirVisitor *v);

/*
 * lanes.c — what every lane shares about a run, so no lane includes
 * another: the route a module runs on and the host capabilities it grants
 * (TOOLCHAIN.md §1.3; chosen and admitted by src/driver/route.c), the
 * text a contract failure reports for a clause, the compiled lanes' head
 * of that report, and which types can hold themselves.
 */
typedef enum Route { ROUTE_PURE, ROUTE_TRANSCRIPT, ROUTE_COMMAND } Route;

typedef struct HirGrants {
	Route route;
	/* the transcript stdout; a command-line program those of fs.read,
	 * fs.write, process.args.read, process.stdin.read,
	 * process.environment.read, clock.read, process.stderr.write and
	 * process.stdout.write its module permits; the pure route none.
	 * fs_write is the permit: `run` refuses the module unless the command
	 * line grants writes too (--allow-write[=DIR], SPX-F120), and a built
	 * executable asks for the same flag at run time. */
	bool fs_read, args_read, stdout_write, stderr_write;
	bool fs_write, stdin_read, env_read, clock_read;
	const char *write_root;   /* --allow-write=DIR: writes stay below DIR (NULL: anywhere) */
} HirGrants;

/* Does g grant the host capability `effect`? */
bool hir_grants(const HirGrants *g, const char *effect);
/* Is bi an operation `semaprax run` can perform: every builtin without an
 * effect, and of the host operations args_len, arg_utf8, file_read_text,
 * file_write_new, file_write_atomic, stdin_read, stdin_stream_open,
 * stdin_stream_next, env_len, env_name_utf8,
 * env_value_utf8, clock_now_ms, stdout_write and stderr_write (the route's
 * admission and the interpreter's dispatch both ask this). */
bool hir_run_op(BuiltinId bi);
/* The source text of clause i of f's `requires` (or `ensures`) list, trimmed;
 * its expression id when that spans lines or exceeds 4,096 bytes.  Heap. */
char *hir_clause_text(const Sema *S, const HirFunc *f, int i, bool ensures);
void hir_clause_bounds(const char *src, const Clause *c, const char **s, size_t *n);   /* a clause condition's text, its parentheses whole (qa31) */
/* The head the compiled lanes print when clause i of f's `requires` (or
 * `ensures`) list fails (TOOLCHAIN.md §1.3's line, then `  contract: <phase>
 * <clause> in <id>` with control bytes of the id as \xNN, then
 * `  arguments: `); the parameters follow it.  Heap. */
char *hir_contract_head(const Sema *S, const HirFunc *f, int i, bool ensures);
/* Can a value of type t hold another value of type t (through fields, case
 * fields and heap parts: a Box, a Vec's, Iter's or Map's storage)?  The
 * compiled lanes release and copy such a type's heap blocks as jobs, not
 * nested calls (src/emit_c/emit_type.c).  May intern field types in S. */
bool hir_type_cyclic(Sema *S, TypeId t);
/* The index of the last of operands xs[0..n) that holds a `?` (a closure's
 * body is its own function), or -1: the compiled lanes keep the owned
 * operands before it releasable, as a `?` there leaves the function while
 * they are evaluated and not yet consumed (LANGUAGE.md §0.1). */
int hir_last_try(HirExpr *const *xs, int n);
/* Is h a branch value — a block, an `if` with `else`, a match with arms —
 * every result of which (a block's tail, each branch's tail, each arm's
 * value; NULL when there is none) satisfies pred?  False for any other
 * node.  Lowering's freshness and lending marks and the validator's check
 * of the latter read results this one way. */
bool hir_branch_results_all(const HirExpr *h, bool (*pred)(void *ctx, const HirExpr *r), void *ctx);

#endif
