/*
 * program.h — the checked program as later layers read it (the HIR, the
 * lanes, the tools): symbols, the Sema with its per-expression facts, the
 * interned types, the compiler-owned operations and the queries the
 * lowering and the lanes ask.  The checker's own machinery (function
 * contexts, passes, diagnostics helpers) stays in sema_int.h.
 *
 * Symbols are dense indices (SymId) into Sema.syms, in a fixed order: the
 * prelude's compiler-owned variants first, then declarations in source
 * order.  Lookups go through StrMap (hash, probe-only; never iterated).
 */
#ifndef SPX_SEMA_PROGRAM_H
#define SPX_SEMA_PROGRAM_H

#include "sema.h"

#include "../support/arena.h"
#include "../support/diag.h"

typedef int32_t SymId;   /* -1 = none */
#define SEMA_ASSIGN_REFUSED ((SymId)-2)   /* Sema.assign_owner: a whole assignment refused (U105) */
typedef struct TypeQ TypeQ;   /* memoised type queries (typeq.c) */

/* ---- a string → int map (probe-only) ---- */
typedef struct StrMapSlot {
	const char *key;       /* NULL: empty */
	uint32_t hash;
	int32_t val;
} StrMapSlot;

typedef struct StrMap {
	StrMapSlot *slots;     /* key, hash and value side by side: one cache line per probe */
	uint32_t cap;
	uint32_t len;
} StrMap;

void sema_strmap_free(StrMap *m);
void sema_strmap_clear(StrMap *m);   /* empty; a small table keeps its slots */
int32_t sema_strmap_get(const StrMap *m, const char *key);      /* -1 when absent */
bool sema_strmap_put(StrMap *m, const char *key, int32_t val);  /* false if present (unchanged) */
void sema_strmap_set(StrMap *m, const char *key, int32_t val);  /* insert or replace */
void sema_strmap_reserve(StrMap *m, size_t n);  /* room for n keys without growing (a hint) */
int32_t sema_strmap_swap(StrMap *m, const char *key, int32_t val);  /* set; the old value, -1 when absent */
void sema_strmap_raise(StrMap *m, const char *key, int32_t val);     /* set when absent or val is larger */

/* ---- symbols ---- */

typedef enum SymKind {
	SK_FN,         /* a module function */
	SK_METHOD,     /* a class method: owner = the class */
	SK_RECORD,
	SK_VARIANT,    /* user variants and the prelude's Option/Result/IterStep */
	SK_CLASS,
	SK_RESOURCE,
	SK_INTERFACE,
	SK_IMPORT,     /* an interface import fn: owner = the interface */
	SK_SESSION,
} SymKind;

typedef struct FieldSym {
	const char *name;
	TypeId type;          /* may mention TY_PARAM of the owner */
	const char *id;       /* stable id (explicit or automatic) */
	bool explicit_id;
	Span span;
	SymId declared_in;    /* class fields: the class that declared it */
} FieldSym;

typedef struct CaseSym {
	const char *name;
	const char *id;
	bool explicit_id;
	bool has_payload;
	FieldSym *fields;
	int nfields;
	Span span;
	StrMap *field_map;    /* many fields: name → first index (lazy, sema_field_find) */
	bool field_dups;      /* … and some name is repeated (S111) */
} CaseSym;

typedef struct ParamSym {
	const char *name;
	TypeId type;
	ParamMode mode;
	Span span;
} ParamSym;

/*
 * What only types have (records, variants, classes, resources, interfaces):
 * Sym.nom.  Functions, methods and imports all point at one shared,
 * read-only block (sema_sym_nominal_none: no fields, cases or methods,
 * parent -1), so a reader that asks any symbol (the free loop, generic
 * walks) sees what a zeroed member said, and a function's symbol is 112
 * bytes instead of 184.
 */
typedef struct SymNominal {
	/* records and classes (classes: effective fields, ancestors first) */
	FieldSym *fields;
	/* variants */
	CaseSym *cases;
	/* classes */
	SymId *methods;        /* own methods in source order */
	StrMap *method_map;    /* many methods: name → first index in methods (lazy, sema_own_method) */
	StrMap *case_map;      /* variants: name → index */
	StrMap *field_map;     /* records/classes with many fields: name → first index (lazy) */
	int nfields;
	int ncases;
	SymId parent;          /* classes */
	int nmethods;
	bool field_dups;       /* … and some field name is repeated (S111, T229) */
	bool copy;             /* nominal: every field/payload is Copy (computed) */
} SymNominal;
extern const SymNominal sema_sym_nominal_none;

typedef struct Sym {
	/* (members ordered by size: 8-byte, then 4-byte, then the kind and flags; 112 bytes) */
	const char *name;
	const char *id;        /* stable id */
	const Decl *decl;      /* NULL for prelude and members */
	union {                /* by kind (no SK_IMPORT symbol is made yet: interface imports resolve through the import index) */
		const FnDecl *fn;      /* SK_FN, SK_METHOD */
		const ImportFn *import;/* SK_IMPORT */
	};
	const char **tparams;
	/* functions, methods, imports */
	ParamSym *params;
	const char **effects;  /* `uses` in source order (dotted names) */
	/* imported by `use function`/`use type` (link.c): no declaration here;
	 * the identity is (origin module, id) */
	const char *origin;    /* the module that declares it, or NULL */
	SymNominal *nom;       /* types: their own; others: &sema_sym_nominal_none (never written) */
	Span name_span;
	Span span;             /* the whole declaration */
	SymId owner;           /* SK_METHOD, SK_IMPORT */
	int ntparams;
	int nparams;
	TypeId result;
	int neffects;
	SymKind kind : 8;
	bool explicit_id;
	bool prelude;          /* compiler-owned (Option, Result, IterStep) */
	bool resolved;         /* signature resolved */
} Sym;

/* ---- the checker state ---- */

struct Sema {
	const Module *m;
	const char *src;
	size_t len;
	DiagSink *diags;
	Arena arena;           /* names, ids, arrays of symbols */
	void *empty_array;     /* the one zeroed block every empty symbol array points at (decls.c) */
	TypeTable types;
	VEC(Sym) syms;
	StrMap type_names;     /* record/variant/class/resource/interface name → SymId */
	StrMap fn_names;       /* module function name → SymId */
	StrMap ids;            /* stable id → SymId (S102) */
	StrMap words;          /* each word of the source → its count, at most 2 (decls_type.c word_repeated; built on first use) */
	char *words_text;      /* its keys (NULL: not counted; a recheck of new source drops both) */
	void *own_spare;       /* own.c's per-function vectors and maps, reused (sema_own_spare_free) */
	struct SigMemo *sig_memo;  /* builtins.c's instantiated signatures (arena; sema_builtin_signature) */
	void *fn_spare;        /* check_function's binding vectors and index, reused (sema.c) */
	const char *module_name;
	const char **permits;  /* module permit set, source order */
	int npermits;
	SymId sym_option, sym_result, sym_iterstep;
	SymId sym_fn_mut;      /* the `FnMutI64(i64) -> i64` carrier record (closure_mut.c), or -1 */
	/* generic instances used with non-scalar arguments (checked after all
	 * bodies), at most SEMA_MAX_INSTANCES (T235 past it) */
#define SEMA_MAX_INSTANCES 65536
/* and checking them all visits at most SEMA_INSTANCE_WORK_FACTOR expressions
 * per expression of the module, or SEMA_INSTANCE_WORK_FLOOR if that is more
 * (T235 past it): instance checking costs at most a constant times the
 * module, so `check` stays linear in its input. */
#define SEMA_INSTANCE_WORK_FACTOR 16
#define SEMA_INSTANCE_WORK_FLOOR (1u << 20)
	/* skip: noted while checking an instance that failed (its T225 says
	 * enough; checking what it reaches would only cascade) */
	struct Instance { SymId fn; TypeId targs[8]; int ntargs; Span call; bool skip; } *instances;
	int ninstances, capinstances;
	uint32_t *instance_index;   /* open addressing over instances by (fn, targs); UINT32_MAX = empty */
	uint32_t instance_cap;
	/* The first instance the bounds refused (SEMA_MAX_INSTANCES, and
	 * SEMA_TYPE_MAX_DEPTH/NODES on its type arguments): reported once as
	 * T235 at that call when the closure stops. */
	struct { int why; SymId fn; Span call; } instance_over;   /* why: 0 none, 1 depth, 2 nodes, 3 count, 4 work */
	uint64_t expr_checks;       /* sema_check_expr calls so far (the instances' work bound) */
	uint64_t instance_budget;   /* the work bound check_instances applied */
	const bool *select;         /* sema_check_select: per declaration index, whose bodies to check (NULL = all) */
	bool instances_closed;      /* check_instances is done: later notes are not checked */
	/* per-expression facts, indexed by Expr.id */
	/* Types, by Expr id: 16 bits each while every type id fits
	 * (expr_type16, 2 bytes an expression), 32 bits from the first that
	 * does not (expr_type; the narrow table is widened and freed).  Read
	 * with sema_expr_type. */
	uint16_t *expr_type16;
	TypeId *expr_type;
	uint32_t expr_type_len;   /* entries of whichever table is in use */
	/* calls: callee; names: function values; records and variants: type.
	 * Few expressions have one, so it is a map by Expr id (sema_expr_sym),
	 * not a table of every expression. */
	struct ExprSymMap { struct ExprSymSlot { uint32_t key; SymId sym; } *slots; uint32_t cap, len; } expr_sym;   /* key: id + 1, 0 empty */
	/*
	 * Calls and method calls: per argument, whether the callee consumes it
	 * (1) or borrows it (0); methods add the receiver as argument 0.  NULL
	 * when the call was not resolved.  Arena arrays.  This and call_builtin
	 * are indexed by the call's number (ast_call_index), not its Expr id.
	 */
	uint8_t **call_consumes;
	/* Field assignments `x.f = v;`: per Expr id of v, the record or class
	 * whose field f is assigned (-1 otherwise) — what a rename of f reads.
	 * SEMA_ASSIGN_REFUSED marks a whole assignment `x = v;` refused with
	 * U105: the ownership pass does not count it as reinitialising x.
	 * NULL when neither occurs (Module.field_assigns; allocated on the
	 * first U105 otherwise). */
	SymId *assign_owner;
	uint8_t *own_reported; /* ownership pass: expressions already reported (per Expr id) */
	/*
	 * The ownership mode of the value each expression produces (ParamMode):
	 * MODE_BORROW/MODE_SHARED for a borrowed or shared binding, a projection
	 * of one, or a block/branch yielding one; MODE_NONE (owned) otherwise.
	 * Two bits an expression, four to a byte: read with sema_expr_mode.
	 */
	uint8_t *expr_mode;
	/* Builtin calls: the compiler-owned function (NULL otherwise). */
	const struct Builtin **call_builtin;
	/* Per Expr id, the closure profiles beyond LANGUAGE.md: 1 an admitted owning closure
	 * literal or a call `c()` of one (closure_own.c); 2 an admitted mutable closure literal,
	 * 3 a call `r(x)` of one (closure_mut.c); 4 an admitted borrowed text closure
	 * literal (closure_borrow.c); 0 otherwise.  NULL until a closure sets one
	 * (read with sema_closure_profile). */
	uint8_t *closure_profile;
	TypeQ *typeq;          /* per-type answers of sema_is_copy / sema_type_holds (typeq.c) */
	struct ImportIndex *import_index;   /* interface imports by stable id (sema.c, lazy) */
};

/* The checked type of Expr id (T_ERR = 0 before it is checked). */
static inline TypeId
sema_expr_type(const Sema *S, uint32_t id)
{
	return S->expr_type16 ? S->expr_type16[id] : S->expr_type[id];
}
void sema_expr_type_widen(Sema *S, uint32_t id, TypeId t);   /* past 16 bits (sema.c) */
static inline void
sema_expr_type_set(Sema *S, uint32_t id, TypeId t)
{
	if (S->expr_type16 && t < UINT16_MAX)
		S->expr_type16[id] = (uint16_t)t;
	else
		sema_expr_type_widen(S, id, t);
}
/* Sema.expr_sym of Expr id, -1 when none was noted. */
SymId sema_expr_sym(const Sema *S, uint32_t id);
void sema_expr_sym_set(Sema *S, uint32_t id, SymId sym);
/* Sema.closure_profile of Expr id (0 while no closure set one). */
static inline uint8_t
sema_closure_profile(const Sema *S, uint32_t id)
{
	return S->closure_profile ? S->closure_profile[id] : 0;
}
void sema_closure_profile_set(Sema *S, uint32_t id, uint8_t profile);
/* Sema.expr_mode of Expr id. */
static inline ParamMode
sema_expr_mode(const Sema *S, uint32_t id)
{
	return (ParamMode)((S->expr_mode[id >> 2] >> ((id & 3) * 2)) & 3);
}
#define SEMA_EXPR_MODE_BYTES(n) (((size_t)(n) + 3) / 4)

/* A Vec's items copied into an arena (the HIR's arrays too). */
#define ARENA_COPY_VEC(a, T, vec) ((T *)sema_copy_vec((a), (vec).items, sizeof(T), (vec).len))
void *sema_copy_vec(Arena *a, const void *items, size_t size, int n);

/* Interned common types. */
#define T_ERR ((TypeId)TY_ERROR)
#define T_I64 ((TypeId)TY_I64)
#define T_I32 ((TypeId)TY_I32)
#define T_U8 ((TypeId)TY_U8)
#define T_USIZE ((TypeId)TY_USIZE)
#define T_F32 ((TypeId)TY_F32)
#define T_F64 ((TypeId)TY_F64)
#define T_BOOL ((TypeId)TY_BOOL)
#define T_CHAR ((TypeId)TY_CHAR)
#define T_STRING ((TypeId)TY_STRING)
#define T_STR ((TypeId)TY_STR)
#define T_BYTES ((TypeId)TY_BYTES)
#define T_SLICE ((TypeId)TY_SLICE)
#define T_UNIT ((TypeId)TY_UNIT)

/* Spells a type for messages (arena string). */
const char *sema_type_name(Sema *S, TypeId t);
Sym *sema_sym(Sema *S, SymId id);
/* SPX-S103 into d at span, worded as the checker words it: function `name`
 * (owner NULL) or method `owner.name` has an automatic identity.  The
 * repair commands make it again when the checker's sink did not keep it. */
Diag *sema_report_s103(DiagSink *d, const Span *span, const char *owner, const char *name);

TypeId sema_decls_resolve_type(Sema *S, const Type *t, SymId scope);  /* scope: generic owner or -1 */

TypeId sema_nominal(Sema *S, SymId sym, const TypeId *args, int nargs);
TypeId sema_option(Sema *S, TypeId t);
TypeId sema_result(Sema *S, TypeId t, TypeId e);
bool sema_is_copy(Sema *S, TypeId t);
/* Does e (checked) produce a lent non-Copy value: a `borrow`/`shared` binding, a field
 * path of one, or an `if`/`match`/block yielding one (Sema.expr_mode)? */
bool sema_lent_value(Sema *S, const Expr *e);
/* Does a value of type t hold a resource (bytes: or `Bytes`) anywhere? */
bool sema_type_holds(Sema *S, TypeId t, bool bytes);
/* The borrowed view a value of type t holds, itself or as a type argument
 * (`Box<str>`, `R<Slice<u8>>`): "str", "Slice<u8>", or NULL.  Fields of
 * declared types cannot be views (O116/T264), so arguments are enough. */
const char *sema_type_view(Sema *S, TypeId t);

/* Field of a record/class type (substituted); -1 when absent. */
int sema_field_index(Sema *S, SymId owner, const char *name);
/* The field `name` of owner's record/class fields (case_index < 0) or of a
 * case's payload: the first or the last of a repeated name; -1 when absent.
 * Indexed by name for long field lists. */
int sema_field_find(Sema *S, SymId owner, int case_index, const char *name, bool last);
TypeId sema_field_type(Sema *S, TypeId owner_type, int index);
int sema_case_index(Sema *S, SymId variant, const char *name);
/* The one case of variant whose name is a misspelling of name (one edit, a
 * transposition too, or two for names of 5 bytes or more); -1 when none or
 * two are that near. */
int sema_near_case(Sema *S, SymId variant, const char *name);
TypeId sema_case_field_type(Sema *S, TypeId variant_type, int case_index, int field_index);
/* The first of class cls's own methods called name, or -1 (indexed for many methods). */
SymId sema_own_method(Sema *S, SymId cls, const char *name);
/* Is `from` the same class as `to` or a descendant (implicit upcast)? */
bool sema_class_upcast(Sema *S, TypeId from, TypeId to);

/* builtins.c: compiler-owned functions (§5), one row each in builtins.def;
 * BuiltinId is the operation's index there (and in the checker's table). */
typedef enum BuiltinId {
#define BUILTIN(n, id, ntp, np, sig, eff) BI_##n,
#include "builtins.def"
	BI_COUNT
} BuiltinId;
typedef struct Builtin {
	const char *name;        /* `string_len` */
	const char *id;          /* reserved stable id, e.g. `core.string.len` */
	int ntparams;            /* explicit type arguments required */
	int nparams;
	const char *sig;         /* signature in a small notation, see builtins.c */
	const char *effect;      /* required effect or NULL */
	BuiltinId bid;           /* BI_<name> */
} Builtin;
const Builtin *sema_builtin_find(const char *name);
/* Not a word of the language (`fn`, `let`, `result`, …; decls.c): what a
 * function, parameter, type, field, case or local may be named (S104–S110);
 * patch's G103 refuses a rename to one by the same list. */
bool sema_source_identifier(const char *name);
const Builtin *sema_builtin_find_id(const char *id);   /* by stable id, e.g. `core.vec.push` */
const Builtin *sema_builtin_by_id(BuiltinId bi);
bool sema_builtin_is_map_op(BuiltinId bi);   /* map_* as opposed to set_* */
bool sema_builtin_is_set_op(BuiltinId bi);   /* set_* */
/* Parameter i of bi as builtins.def declares it: its name (`capacity`; not
 * NUL-terminated, print with "%.*s"), declared mode (before a type argument
 * makes a `borrow K` a Copy value) and type text (`Vec<T>`).  False when i
 * is not a parameter (string_format has none declared). */
typedef struct BuiltinParam {
	const char *name;
	int name_len;
	ParamMode mode;
	const char *type;
	int type_len;
} BuiltinParam;
bool sema_builtin_param(BuiltinId bi, int i, BuiltinParam *out);
/* Whether bi's result is a view (`-> borrow str`, `-> borrow Slice<u8>`). */
bool sema_builtin_result_view(BuiltinId bi);

typedef struct BuiltinSig {
	int nparams;          /* -1: variadic (string_format) */
	TypeId params[8];
	ParamMode modes[8];   /* MODE_NONE (value/Copy or consumed owned value), MODE_OWN, MODE_BORROW */
	TypeId result;
	bool result_borrowed; /* result is a view (str, Slice<u8>) borrowing from an argument */
	const char *effect;   /* required effect or NULL */
} BuiltinSig;
/*
 * Instantiates b's signature for explicit type arguments.  False when the
 * count is wrong (T225) or an argument is not admitted (T274), with a reason.
 * A T_ERR parameter accepts any `[u8; N]` (array_as_slice).
 */
bool sema_builtin_signature(Sema *S, const Builtin *b, const TypeId *targs, int ntargs, BuiltinSig *out, const char **why);

/*
 * Calls fn for each binding a pattern introduces, in pattern order, with
 * the binding's type derived from the scrutinee type t (match.c).
 */
typedef void (*PatternBindFn)(void *ctx, const char *name, TypeId type, Span span);
void sema_pattern_binds(Sema *S, const Pattern *p, TypeId t, PatternBindFn fn, void *ctx);

/* The capture `x` of an owning closure literal (NULL if the literal is malformed). */
const Expr *sema_own_capture(const Expr *e);

/* Calls fn for e and every expression inside it, pre-order in source order
 * (statements' expressions, match guards and closure bodies included);
 * with sema_expr_sym, what a reader (the service's references) resolves. */
typedef void (*ExprVisit)(void *ctx, const Expr *e);
void sema_walk_expr(const Expr *e, ExprVisit fn, void *ctx);
void sema_walk_block(const Block *b, ExprVisit fn, void *ctx);

#endif
