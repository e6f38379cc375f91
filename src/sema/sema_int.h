/*
 * sema_int.h — internals shared by the checker's files:
 *   sema.c        driver, pass order, T104/T105, revision
 *   decls.c       symbol table: declarations, stable identities (S codes),
 *                 records/variants/classes
 *   decls_type.c  a written type to its TypeId (T001, T220, T221)
 *   builtins.c    the compiler-owned functions (LANGUAGE.md §5)
 *   check_expr.c  expression typing
 *   check_nominal.c  methods, `super`, fields, constructions, `with`
 *   check_stmt.c  blocks, statements, mutation (U codes)
 *   match.c       patterns and exhaustiveness (M codes, T254–T257)
 *   effects.c     permits and uses (E codes)
 *
 * What later layers read of the checked program (symbols, the Sema, the
 * type and builtin queries) is public in program.h.
 */
#ifndef SPX_SEMA_INT_H
#define SPX_SEMA_INT_H

#include "program.h"

/* diagnostics helpers (sema.c) */
Diag *sema_error(Sema *S, DiagCode code, Span span, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* revision.c: does the module call box_new/box_get/box_into_inner (or
 * name a `std.mem` Box wrapper)?  An authored type `Box` then collides (S113). */
bool sema_uses_box_ops(const Module *m);

void sema_assign_owner_init(Sema *S);   /* allocates Sema.assign_owner (all -1) */

/* decls.c */
/* A dotted name's text as written (an arena string): joined from its
 * interned parts when they account for every byte of its span, so a large
 * mapped source is not read back; else copied from the source. */
const char *sema_qname_text(Sema *S, const QName *q);
bool sema_std_reopen(Sema *S, const char *name, const Expr *v);  /* `x = push<T>(x, …)` via an exact std wrapper */
void sema_decls_collect(Sema *S);              /* prelude + every declaration, S codes */
void sema_sym_nominal_init(Sema *S, Sym *s);  /* Sym.nom for s->kind (new_sym, imported_sym) */
void sema_decls_resolve(Sema *S);              /* types of fields, params, results; T001 …; classes */
void sema_resolve_hierarchy(Sema *S, int n);   /* T228 cycles, T227 bounds, effective class fields (hierarchy.c) */
/* link.c: the imported symbols of a project module (after collect, before
 * resolve); G172 for a target outside what may be imported. */
void sema_link_imports(Sema *S, const SemaLink *links, int nlinks);
/* True when name is the alias of one of the module's `use` imports of that
 * kind: reached from a name lookup, that import failed (its G172 is
 * reported), so the use site reports nothing more. */
bool sema_failed_import(const Sema *S, const char *name, bool is_type);
void sema_typeq_free(TypeQ *q);

/* builtins.c */
bool sema_builtin_reserved(const char *name);

/* ---- function bodies (check_expr.c, check_stmt.c, match.c) ---- */

typedef struct Local {
	const char *name;
	TypeId type;
	bool mut;
	Span span;
	ParamMode mode;          /* MODE_BORROW/MODE_SHARED: the binding lends its value (parameters,
	                            `match borrow` bindings, `for` items); otherwise it owns it */
	int prev;                /* the binding of the same name this one hides (sema_local_push), or -1 */
	SymId own_target;        /* an owning closure `let c = own fn() -> R { t(x) };`: t + 1; a borrowed
	                            closure `let c = fn(v: i64) -> i64 { t(view, v) };` (closure_borrow.c): -1; else 0 */
	bool param;              /* a function's parameter (U101/U107 name the `let mut` copy) */
	bool let_stmt;           /* a `let` statement's binding: U101's fix writes `mut ` before its name */
} Local;

typedef struct CallSite {
	SymId callee;            /* user function/method; -1 for builtins */
	const char *name;        /* callee display name */
	const char *effect;      /* builtin effect, or NULL */
	Span span;
} CallSite;

typedef struct FnCtx {
	Sema *S;
	SymId fn;                /* the function being checked */
	Sym *sym;
	VEC(Local) locals;       /* innermost last; no shadowing, so lookup is by name */
	VEC(int) marks;          /* scope starts (indices into locals) */
	StrMap local_index;      /* name → index of its innermost binding in locals (-1: none) */
	VEC(int) owned_locals;   /* indices of the bindings whose value needs release, ascending */
	VEC(CallSite) calls;     /* for E102, in visit order */
	const TypeId *targs;     /* generic functions: the substitution being checked */
	int ntargs;
	bool in_contract;        /* requires/ensures/invariant: pure */
	bool in_ensures;         /* `result` is bound */
	bool result_refused;     /* a `let result` drew S109: its uses stay quiet (no T201) */
	int loop_depth;
	int closure_floor;       /* inside a closure: locals below this index are captures (0 = none) */
	int closure_depth;       /* closure bodies being checked (their calls must be effect-free) */
	ParamMode bind_mode;     /* pattern bindings of the match being checked lend (MODE_BORROW) or own */
	const Expr *reopen;      /* the call being checked as `x = op(x, …)` (a same-owner reopen), else NULL */
	const Expr *own_let;     /* the initializer of the `let` being checked (owning closures bind only there) … */
	bool own_let_mut;        /* … and whether that `let` is `let mut` */
	int cap_views;           /* the closure being checked: captures of `str` views (closure_borrow.c) … */
	int cap_other;           /* … and of anything else */
	int cap_view;            /* … the local index of the last `str` capture */
	const Expr *name_expr;   /* the name check_name has just resolved (for value_mode) … */
	int name_local;          /* … to this index in locals (-1: not a local) */
} FnCtx;

TypeId sema_check_expr(FnCtx *C, const Expr *e);
/* check_expr.c, shared with check_builtin.c: a call's effect and callee
 * recorded; explicit type arguments resolved (into local when they fit);
 * arguments base.. of a total checked against params (T204/T205/O103). */
void sema_record_call(FnCtx *C, SymId callee, const char *name, const char *effect, Span span);
TypeId *sema_resolve_targs(FnCtx *C, Type *const *targs, int n, TypeId *local);
void sema_check_args_at(FnCtx *C, const char *fname, Expr *const *args, int nargs, const TypeId *params,
    const char *const *pnames, int nparams, const ParamSym *ps, int base, int total);
/* check_expr.c: remembers a generic instance with a non-scalar argument for instance checking. */
void sema_note_instance(Sema *S, SymId f, const TypeId *targs, int n, Span call);
/* check_nominal.c: the expression forms over declared types, from sema_check_expr's dispatch. */
TypeId sema_check_method(FnCtx *C, const Expr *e);
TypeId sema_check_super(FnCtx *C, const Expr *e);
TypeId sema_check_field(FnCtx *C, const Expr *e);
TypeId sema_check_record_lit(FnCtx *C, const Expr *e);
TypeId sema_check_variant_lit(FnCtx *C, const Expr *e);
TypeId sema_check_with(FnCtx *C, const Expr *e);
/* The declared fields of owner (a record's or class's; case ci's of a variant
 * when ci >= 0) into *fields and *nfields; the type's declaration. */
SymId sema_owner_fields(Sema *S, TypeId owner, int ci, FieldSym **fields, int *nfields);
TypeId sema_check_builtin_call(FnCtx *C, const Expr *e, const Builtin *b);   /* check_builtin.c */
/* Is e a call of bytes_set/bytes_set5/bytes_set1_or…_from_slice on a named buffer (T271 applies)? */
bool sema_bytes_write(const Expr *e);
/* Types seen from inside the function: type parameters substituted. */
TypeId sema_fn_type(FnCtx *C, TypeId t);
TypeId sema_ctx_resolve_type(FnCtx *C, const Type *t);
bool sema_upcast_drops_owned(Sema *S, TypeId from, TypeId to);   /* check_stmt.c */
TypeId sema_check_block(FnCtx *C, const Block *b);          /* new scope; type of the tail (T_UNIT-free: T_ERR if none) */
TypeId sema_check_match(FnCtx *C, const Expr *e);
void sema_scope_push(FnCtx *C);
void sema_scope_pop(FnCtx *C);
const Local *sema_local_find(FnCtx *C, const char *name);
/* A name not in scope to suggest for a copy of name: `x2`, `x3`, … */
void sema_fresh_name(FnCtx *C, const char *name, char out[64]);
/* Appends a binding (no checks) and indexes it; sema_local_free releases the index. */
void sema_local_push(FnCtx *C, Local l);
void sema_local_free(FnCtx *C);
/* Declares a binding (T209 on shadowing, S109 on `result`); false if rejected. */
bool sema_local_declare(FnCtx *C, const char *name, TypeId type, bool mut, Span span);
/* Marks the innermost binding `name` (just declared) as lending its value (MODE_BORROW/MODE_SHARED). */
void sema_local_lend(FnCtx *C, const char *name, ParamMode mode);
/* Records the type of e and returns it. */
TypeId sema_expr_set(FnCtx *C, const Expr *e, TypeId t);

/* sema_walk_expr / sema_walk_block: program.h */

/* ---- ordinary closures (closure.c) ---- */
/* A closure literal `fn(x: T, …) -> R { body }`: its `fn(…)` type. */
TypeId sema_check_closure(FnCtx *C, const Expr *e);
/* Inside a closure body, a call needing an effect is E102 (closures are
 * effect-free); true when reported, and the call is then not recorded. */
bool sema_closure_effect(FnCtx *C, SymId callee, const char *name, const char *effect, Span span);
/* `e?` inside a closure body is T218 (§4.13); true when reported. */
bool sema_closure_try(FnCtx *C, const Expr *e);
/* `super.m(…)` inside a closure body is T231 (§4.6); true when reported. */
bool sema_closure_super(FnCtx *C, const Expr *e);
/* `c = …;` / `c.f = …;` on a capture inside a closure body is U101 (§4.13); true when reported. */
bool sema_closure_assign(FnCtx *C, const Local *l, Span target);

/* ---- owning closures `own fn() -> R { target(capture) }` (closure_own.c) ---- */
/* The literal: profile checks (T291–T294, O119); its type is the captured `Bytes`. */
TypeId sema_own_closure(FnCtx *C, const Expr *e);
/* `c(…)` where c is an owning closure binding (T295); the target's result type. */
TypeId sema_own_closure_call(FnCtx *C, const Expr *e, const Local *l);

/* ---- mutable closures `mut fn(arg: i64) -> i64 { update(state, arg) }` (closure_mut.c) ---- */
bool sema_is_fn_mut(Sema *S, TypeId t);
TypeId sema_mut_closure(FnCtx *C, const Expr *e);
/* `r(x)` where r is a local of type `FnMutI64(i64) -> i64` (T308 rules). */
TypeId sema_mut_closure_call(FnCtx *C, const Expr *e, const Local *l);

/* ---- borrowed text closures `fn(v: i64) -> i64 { t(view, v) }` (closure_borrow.c) ---- */
/* After a closure literal's body is checked: the profile checks when it captures a `str` view. */
void sema_borrowed_closure(FnCtx *C, const Expr *e);
/* A borrowed closure binding read other than by a direct call (T288). */
TypeId sema_borrowed_closure_read(FnCtx *C, const Expr *e, const Local *l);

/* ---- resources and interfaces (resource.c) ---- */
/* ---- string_format's template and fields (check_format.c) ---- */
void sema_check_format(FnCtx *C, const Expr *e);

/* ---- help for unknown names (check_unknown.c) ---- */
const char *sema_constructor_help(const char *name);   /* a foreign constructor's help, or NULL */
TypeId sema_unknown_function(FnCtx *C, const Expr *e);  /* T203 with the best help */
bool sema_is_int_literal(const Expr *e);                 /* `4`, `-4` (typed by its suffix) */
/* Does integer literal e (under any `-`; negative: one more `-`) fit want?
 * True for a non-literal or a type that is not i64/i32/u8/usize. */
bool sema_int_literal_fits(const Expr *e, bool negative, TypeId want);
const char *sema_int_range_text(TypeId t);               /* `0 to 255` for u8, "" for others */
const char *sema_near_local(FnCtx *C, const char *name);  /* the one binding in scope a typo away (check_expr.c) */
/* The nearest of candidates offered one at a time (sema_near_try, each with
 * an index of the caller's): a distance of at most 2 (a transposition
 * counts one), and 2 only between names of 5 bytes or more; a tie for the
 * best is no one answer (check_nominal.c: field, case and type names). */
typedef struct SemaNear {
	const char *want;
	size_t len;
	int best, best_d;   /* the nearest index (-1: none within the rule) and its distance */
	bool tie;           /* another index was as near */
} SemaNear;
SemaNear sema_near_start(const char *want);
void sema_near_try(SemaNear *n, int i, const char *cand);
/* Whether cand is within the rule of n's name, *d its distance if so. */
bool sema_near_within(const SemaNear *n, const char *cand, int *d);
/* The type names nearest a misspelt one by that rule, of the kinds asked:
 * the built-in ones (Option and Result count as variants), then the
 * declared ones in declaration order.  Returns how many are as near (0:
 * none, or name is short), the first max of them in out[]; *declared:
 * whether out[0] is a declaration's (decls_type.c; T001, T215). */
enum {
	SEMA_NEAR_BUILTIN = 1,    /* scalars and the compiler-owned generic types */
	SEMA_NEAR_VARIANT = 2,    /* Option, Result, declared variants */
	SEMA_NEAR_RECORD = 4,     /* declared records and classes */
	SEMA_NEAR_RESOURCE = 8,
	SEMA_NEAR_ALL = 15,
};
int sema_near_types(Sema *S, const char *name, unsigned kinds, const char **out, int max, bool *declared);
bool sema_literal_retype_fix(Sema *S, Diag *d, const Expr *e, TypeId want); /* `5` → `5i32` for want (check_expr.c) */
/* The conversion builtin from got to want (`usize_from_i64`), or NULL;
 * *checked: an out-of-range value stops the program. */
const char *sema_conversion_builtin(TypeId want, TypeId got, bool *checked);
bool sema_expr_extent(const Sema *S, const Expr *e, uint32_t *start, uint32_t *end);   /* its text, grouping parentheses included (check_expr.c) */
void sema_payload_equality_help(Sema *S, Diag *d, const Expr *k, const Expr *other, bool eq, const Expr *bin, const char *bind);
void sema_literal_suffix_help(Sema *S, Diag *d, const Expr *l, const Expr *r, TypeId expected);
void sema_literal_range_help(Sema *S, Diag *d, const Expr *lit, TypeId t);  /* `300` beside a u8 operand */
/* T203's help for a method habit on a Vec, Map or Set receiver of type rt
 * (`v.push(x)` → `vec_push<T>(v, x)`); false when none fits. */
bool sema_method_help(Sema *S, Diag *d, const Expr *e, TypeId rt);
bool sema_field_call_help(Sema *S, Diag *d, const Expr *e, TypeId rt);
bool sema_carrier_value_help(Sema *S, Diag *d, TypeId got, TypeId want);
bool sema_carrier_method_help(Sema *S, Diag *d, TypeId rt);

void sema_check_resource(Sema *S, SymId id);   /* its lifecycle: O112/O113 */
void sema_check_interfaces(Sema *S);           /* I403/I404, finalizer imports O113 */

/* own.c: the ownership pass over a typed function body. */
void sema_own_check_function(Sema *S, SymId fn);
void sema_own_spare_free(Sema *S);

/*
 * Per-function storage kept in a Sema slot for the next function
 * (check_function's FnCtx, the ownership pass's Own): take empties ctx and
 * returns the kept block (NULL: none, e.g. in a nested use), whose
 * containers the caller adopts; keep stores ctx (its containers emptied)
 * into that block k for the next take, or, when a nested use kept one
 * first, releases ctx's storage and frees k; free releases what is kept.
 */
void *sema_spare_take(void **slot, void *ctx, size_t size);
void sema_spare_keep(void **slot, void *k, void *ctx, size_t size, void (*release)(void *));
void sema_spare_free(void **slot, void (*release)(void *));

/* Is `actual` acceptable where `expected` is required (exact, error, or class upcast)? */
bool sema_type_accepts(Sema *S, TypeId expected, TypeId actual);

#endif
