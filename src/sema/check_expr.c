/*
 * check_expr.c — expression typing (LANGUAGE.md §3.6, §4).
 *
 * Every expression's type is synthesised bottom-up (there is no inference:
 * literals carry their type, generic calls and constructions spell their
 * type arguments).  An operand of type T_ERR (an error already reported)
 * silences the diagnostics that would follow from it, as in the reference.
 * Methods, `super`, fields, constructions and `with` are in check_nominal.c.
 */
#include "sema_int.h"

#include "../rt/domains.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static void borrowed_bytes_argument(FnCtx *C, const Expr *a, bool generic_callee);

TypeId
sema_expr_set(FnCtx *C, const Expr *e, TypeId t)
{
	sema_expr_type_set(C->S, e->id, t);
	return t;
}

TypeId
sema_fn_type(FnCtx *C, TypeId t)
{
	if (!C->ntargs)
		return t;
	return sema_type_subst(&C->S->types, t, (uint32_t)C->fn, C->targs, C->ntargs);
}

TypeId
sema_ctx_resolve_type(FnCtx *C, const Type *t)
{
	return sema_fn_type(C, sema_decls_resolve_type(C->S, t, C->sym->ntparams ? C->fn : -1));
}

bool
sema_type_accepts(Sema *S, TypeId expected, TypeId actual)
{
	return expected == actual || expected == T_ERR || actual == T_ERR || sema_class_upcast(S, actual, expected);
}

/* ==== scopes ================================================================ */

/*
 * Bindings are indexed by name (local_index: the innermost binding; each
 * binding keeps the one it hides), so a lookup is one probe and a scope
 * pop costs the bindings it drops.  The bindings whose value needs release
 * are listed too, for `?` (T218).
 */
void
sema_scope_push(FnCtx *C)
{
	VEC_PUSH(C->marks, C->locals.len);
}

void
sema_scope_pop(FnCtx *C)
{
	int to = C->marks.items[--C->marks.len];
	while (C->locals.len > to) {
		const Local *l = &C->locals.items[--C->locals.len];
		sema_strmap_set(&C->local_index, l->name, l->prev);
	}
	while (C->owned_locals.len && C->owned_locals.items[C->owned_locals.len - 1] >= to)
		C->owned_locals.len--;
}

/* Does a binding of type t (as declared) hold a value that needs release? */
static bool
needs_release(FnCtx *C, TypeId t)
{
	t = t != T_ERR ? sema_fn_type(C, t) : T_ERR;
	return t != T_ERR && !sema_is_copy(C->S, t) && sema_type_info(&C->S->types, t)->kind != TY_PARAM;
}

void
sema_local_push(FnCtx *C, Local l)
{
	int i = C->locals.len;
	l.prev = sema_strmap_swap(&C->local_index, l.name, i);
	VEC_PUSH(C->locals, l);
	if (needs_release(C, l.type))
		VEC_PUSH(C->owned_locals, i);
}

void
sema_local_free(FnCtx *C)
{
	VEC_FREE(C->locals);
	VEC_FREE(C->marks);
	VEC_FREE(C->owned_locals);
	sema_strmap_free(&C->local_index);
}

const Local *
sema_local_find(FnCtx *C, const char *name)
{
	int i = sema_strmap_get(&C->local_index, name);
	return i >= 0 ? &C->locals.items[i] : NULL;
}

/* A binding name not in scope for the helps that suggest a fresh `let`
 * (U101, U105, T209): `x2`, or `x3` when `x2` is taken, and so on. */
void
sema_fresh_name(FnCtx *C, const char *name, char out[64])
{
	for (int n = 2; n < 1000; n++) {
		snprintf(out, 64, "%.40s%d", name, n);
		if (!sema_local_find(C, out))
			break;
	}
}

bool
sema_local_declare(FnCtx *C, const char *name, TypeId type, bool mut, Span span)
{
	if (name[0] == '_' && name[1] == '\0')
		return true;
	if (!sema_source_identifier(name)) {   /* `result`, and `let if = …` as the reference (qa33) */
		Diag *d = sema_error(C->S, DIAG_S109, span, "`%s` is reserved and cannot name a local binding", name);
		diag_set_help(d, "rename the binding, e.g. `%s`", strcmp(name, "result") == 0 ? "outcome" : "value");
		if (strcmp(name, "result") == 0)
			C->result_refused = true;   /* its later uses stay quiet (qa34) */
		return false;
	}
	const Local *old = sema_local_find(C, name);
	if (old) {
		Diag *d = sema_error(C->S, DIAG_T209, span, "local binding `%s` shadows an existing value", name);
		if (old->param) {
			/* `let mut value = value;`: a parameter cannot be made `mut` */
			char fresh[64];
			sema_fresh_name(C, name, fresh);
			diag_set_help(d, "there is no shadowing, and `%s` is a parameter: name the local differently, such as `%s`, and use that name from there on", name, fresh);
		} else {
			diag_set_help(d, "there is no shadowing; pick a new name, or declare the first binding with `let mut` and assign to it");
		}
		return false;
	}
	Local l = { name, type, mut, span, MODE_NONE, -1, 0, false, false };
	sema_local_push(C, l);
	return true;
}

void
sema_local_lend(FnCtx *C, const char *name, ParamMode mode)
{
	int i = sema_strmap_get(&C->local_index, name);
	if (i >= 0)
		C->locals.items[i].mode = mode;
}

/* ==== literals and names ======================================================= */

static TypeId
int_type(NumSuffix s)
{
	switch (s) {
	case SUF_I32: return T_I32;
	case SUF_U8: return T_U8;
	case SUF_USIZE: return T_USIZE;
	default: return T_I64;
	}
}


static TypeId
fn_value_type(Sema *S, Sym *f)
{
	int n = f->nparams;
	TypeId local[9];
	TypeId *args = n < 9 ? local : spx_xmalloc(sizeof(TypeId) * (size_t)(n + 1));
	for (int i = 0; i < n; i++)
		args[i] = f->params[i].type;
	args[n] = f->result;
	TypeId t = sema_type_intern(&S->types, TY_FN, 0, 0, args, n + 1);
	if (args != local)
		free(args);
	return t;
}

/* The one binding in scope whose name is one edit (a transposition too)
 * from name, both at least 3 bytes; NULL when there is none, two (of any
 * length), or a function of the module is that near too (the name may
 * mean it), or the edit is a byte added or dropped at the end (`names`
 * for `name`, `step` for `steps` is as often another thing, a field left
 * out of a pattern, a binding never declared, as a typo).  The name found
 * is the help's and the fix's. */
const char *
sema_near_local(FnCtx *C, const char *name)
{
	if (strlen(name) < 3)
		return NULL;
	SpxNear nr = { .want = name };
	for (int i = 0; i < C->locals.len; i++)
		if (sema_local_find(C, C->locals.items[i].name) == &C->locals.items[i])   /* not shadowed */
			spx_near_offer(&nr, C->locals.items[i].name);
	const char *best = spx_near_best(&nr);
	if (best && strlen(best) < 3)
		return NULL;
	for (SymId i = 0; best && i < C->S->syms.len; i++) {
		const Sym *y = sema_sym(C->S, i);
		if (y->kind == SK_FN && y->name && spx_edit_distance(name, y->name, true) <= 1)
			return NULL;
	}
	if (best) {
		size_t a = strlen(name), b = strlen(best);
		if ((a + 1 == b && strncmp(name, best, a) == 0) || (b + 1 == a && strncmp(name, best, b) == 0))
			return NULL;
	}
	return best;
}

static TypeId
check_name(FnCtx *C, const Expr *e)
{
	Sema *S = C->S;
	const char *name = e->u.name.s;
	C->name_expr = NULL;
	if (name[0] == '\0')
		return T_ERR;
	if (name[0] == 'r' && strcmp(name, "result") == 0) {
		if (C->in_ensures)
			return sema_fn_type(C, C->sym->result);
		if (!sema_local_find(C, name)) {
			if (C->result_refused)
				return T_ERR;
			Diag *d = sema_error(S, DIAG_T201, e->span, "`result` is only available in postconditions");
			diag_set_help(d, "name the return value `result` only inside `ensures` clauses");
			return T_ERR;
		}
	}
	const Local *l = sema_local_find(C, name);
	if (l && l->own_target < 0)
		return sema_borrowed_closure_read(C, e, l);
	if (l && l->own_target > 0) {
		Diag *d = sema_error(S, DIAG_T296, e->span,
		    "owning-capture closure `%s` may only be invoked directly as `%s()`; it cannot be passed, returned, stored, or otherwise read as a value",
		    name, name);
		diag_set_help(d, "call it directly, e.g. `let result = %s();`, or drop it uncalled", name);
		return T_ERR;
	}
	if (l && sema_is_fn_mut(S, l->type)) {
		Diag *d = sema_error(S, DIAG_T308, e->span, "mutable receiver `%s` may only be invoked directly as `%s(x)`; it cannot be copied, passed, or returned by name", name, name);
		diag_set_help(d, "call it directly, or build a new receiver with its own `mut fn` literal");
		return T_ERR;
	}
	if (l) {
		if (C->closure_floor && l < C->locals.items + C->closure_floor && sema_is_copy(S, l->type)) {
			if (l->type == T_STR) {
				C->cap_views++;
				C->cap_view = (int)(l - C->locals.items);
			} else
				C->cap_other++;
		}
		if (C->closure_floor && l < C->locals.items + C->closure_floor && !sema_is_copy(S, l->type)) {
			Diag *d = sema_error(S, DIAG_T288, e->span, "closure captures `%s` of non-Copy type %s", name, sema_type_name(S, l->type));
			diag_set_help(d, "closures capture Copy values by value: read what the closure needs from `%s` before it (a length, a count, an element: `let n = …;`) and capture that, or pass `%s` as a parameter instead",
			    name, name);
			return T_ERR;
		}
		C->name_expr = e;   /* value_mode's lookup, answered */
		C->name_local = (int)(l - C->locals.items);
		return l->type;
	}
	C->name_expr = e;
	C->name_local = -1;
	SymId f = sema_strmap_get(&S->fn_names, name);
	if (f >= 0) {
		Sym *fs = sema_sym(S, f);
		sema_expr_sym_set(S, e->id, f);
		if (fs->ntparams) {
			Diag *d = sema_error(S, DIAG_T225, e->span, "generic function `%s` cannot be used as a value without type arguments", name);
			diag_set_help(d, "wrap the instance in a closure: `fn(x: i64) -> i64 { %s<i64>(x) }`", name);
			return T_ERR;
		}
		if (fs->neffects) {
			/* a function value's type carries no effects (closure_effect) */
			Diag *d = sema_error(S, DIAG_E102, e->span, "function `%s` uses effect `%s`, so it cannot be used as a value", name, fs->effects[0]);
			diag_set_help(d, "function values and closures are effect-free: call `%s` directly from a function that declares `uses { %s }`",
			    name, fs->effects[0]);
			return T_ERR;
		}
		return fn_value_type(S, fs);
	}
	Diag *d = sema_error(S, DIAG_T202, e->span, "unknown value `%s` in `%s`", name, C->sym->name);
	const char *help = sema_constructor_help(name);
	if (C->sym->kind == SK_RECORD) {
		/* a record invariant (sema.c check_record_invariants) */
		Buf fb = {0};
		for (int i = 0; i < C->sym->nom->nfields; i++)
			buf_printf(&fb, "%s`%s`", i ? ", " : "", C->sym->nom->fields[i].name);
		diag_set_help(d, "an invariant names the fields of `%s` by bare name: %s", C->sym->name, fb.data ? fb.data : "");
		buf_free(&fb);
	} else if (help) {
		diag_set_help(d, "%s", help);
	} else if (sema_strmap_get(&S->type_names, name) >= 0) {
		/* `A.bump(a)`, `let p = Point;` (qa30): a type's name where a value is wanted */
		SymKind k = sema_sym(S, sema_strmap_get(&S->type_names, name))->kind;
		if (k == SK_CLASS)
			diag_set_help(d, "`%s` is a class, not a value: call a method on a value of it, `value.method(…)`, after building one with `%s { field: value, … }`", name, name);
		else if (k == SK_VARIANT)
			diag_set_help(d, "`%s` is a variant type, not a value: build one of its cases, `%s::Case { field: value }` (`%s::Case {}` without a payload)", name, name, name);
		else
			diag_set_help(d, "`%s` is a type, not a value: build one with braces, `%s { field: value, … }`", name, name);
	} else if (strcmp(name, "return") == 0) {
		/* `return -n` ending a block: a name there (a binding may be named
		 * `return`), so the parser left it to us (rev39) */
		diag_set_help(d, "`return` is not admitted: a block's value is its final expression; write the value alone");
	} else if ((help = sema_near_local(C, name)) != NULL) {
		/* a misspelled binding: the fix writes the one name in scope it is near */
		diag_set_help(d, "did you mean `%s`?", help);
		if (e->span.end - e->span.start == strlen(name))
			diag_add_fix(d, e->span.start, e->span.end, help);
	} else {
		diag_set_help(d, "declare `%s` with `let` before this use, or pass it as a parameter", name);
	}
	return T_ERR;
}

/* ==== operators ================================================================== */

static bool
is_unsuffixed_int(const Expr *e)
{
	return e->kind == EXPR_INT && e->lit_suffix == SUF_NONE;
}


static bool
equatable(Sema *S, TypeId t)
{
	const TypeInfo *ti = sema_type_info(&S->types, t);
	if (sema_type_is_scalar(&S->types, t) || t == T_STRING || t == T_STR || t == T_ERR)
		return true;
	if (ti->kind != TY_NOMINAL || ti->nargs)
		return false;
	Sym *s = sema_sym(S, (SymId)ti->decl);
	if (s->kind != SK_VARIANT)
		return false;
	for (int i = 0; i < s->nom->ncases; i++)
		if (s->nom->cases[i].nfields)
			return false;
	return true;
}

/*
 * T208's help when an operand is a carrier of the value meant (the reference
 * gives T208 no help): a `Box` is opened, an `Option`/`Result` matched.
 */
static void
carrier_operand_help(Sema *S, Diag *d, TypeId t)
{
	const TypeInfo *ti = sema_type_info(&S->types, t);
	if (ti->kind == TY_BOX && ti->nargs && sema_is_copy(S, ti->args[0]))
		diag_set_help(d, "a `%s` is not its value: read it with `box_get<%s>(b)` and compute with that", sema_type_name(S, t), sema_type_name(S, ti->args[0]));
	else if (ti->kind == TY_NOMINAL && ((SymId)ti->decl == S->sym_option || (SymId)ti->decl == S->sym_result))
		diag_set_help(d, "%s `%s` is not its value: take the value out with `match` (or `?` inside a function returning `%s`) and compute with that",
		    (SymId)ti->decl == S->sym_option ? "an" : "a", sema_type_name(S, t), (SymId)ti->decl == S->sym_option ? "Option" : "Result");
}

/* T208 between two numeric types: name the compiler-owned conversion that
 * makes the odd operand the expected type, and the one converting the other
 * way; a bare integer literal beside a float is written as a float. */
static void
conversion_operand_help(Sema *S, Diag *d, const Expr *l, const Expr *r, TypeId lt, TypeId rt, TypeId expected)
{
	if (lt == T_ERR || rt == T_ERR || lt == rt)
		return;
	const Expr *odd = lt != expected ? l : r, *other = odd == l ? r : l;
	TypeId ot = odd == l ? lt : rt;
	int olen = (int)(odd->span.end - odd->span.start), xlen = (int)(other->span.end - other->span.start);
	if ((expected == T_F64 || expected == T_F32) && odd->kind == EXPR_INT && odd->lit_suffix == SUF_NONE) {
		diag_set_help(d, "the other operand is `%s`: write the literal as a float, `%.*s.0%s`; there are no implicit conversions",
		    sema_type_name(S, expected), olen, S->src + odd->span.start, expected == T_F32 ? "f32" : "");
		return;
	}
	if (ot == T_STR || expected == T_STR)   /* text: the comparison's own help stays */
		return;
	bool to_checked = false, back_checked = false;
	const char *to = sema_conversion_builtin(expected, ot, &to_checked);
	const char *back = other->kind == EXPR_INT || other->kind == EXPR_FLOAT ? NULL   /* not a literal's conversion */
	    : sema_conversion_builtin(ot, expected, &back_checked);
	if (!to && !back)
		return;
	if (olen > 40 || xlen > 40) {   /* long operands: name the functions only */
		if (to && back)
			diag_set_help(d, "there are no implicit conversions: convert the `%s` operand with `%s(…)`, or the `%s` one with `%s(…)`",
			    sema_type_name(S, ot), to, sema_type_name(S, expected), back);
		else
			diag_set_help(d, "there are no implicit conversions: convert the `%s` operand with `%s(…)`",
			    sema_type_name(S, to ? ot : expected), to ? to : back);
		return;
	}
	if (to && back)
		diag_set_help(d, "there are no implicit conversions: write `%s(%.*s)` to compute in `%s`%s, or `%s(%.*s)` to compute in `%s`%s",
		    to, olen, S->src + odd->span.start, sema_type_name(S, expected), to_checked ? " (it stops the program when the value does not fit)" : "",
		    back, xlen, S->src + other->span.start, sema_type_name(S, ot), back_checked ? " (it stops the program when the value does not fit)" : "");
	else if (to)
		diag_set_help(d, "there are no implicit conversions: write `%s(%.*s)` to compute in `%s`%s", to, olen, S->src + odd->span.start,
		    sema_type_name(S, expected), to_checked ? " (it stops the program when the value does not fit)" : "");
	else
		diag_set_help(d, "there are no implicit conversions: write `%s(%.*s)` to compute in `%s`%s", back, xlen, S->src + other->span.start,
		    sema_type_name(S, ot), back_checked ? " (it stops the program when the value does not fit)" : "");
}

/* An operand `a + 5usize` whose own T208 offered to re-suffix its literal for
 * `a` (`5u8`) while this operator's other side has the literal's type (`< n`,
 * n: usize): the literal agreed with the context and `a` is the odd one, so
 * that fix would move the error here, not remove it (agent40, found by
 * test-fixsweep): its help stays, its fix goes. */
static void
drop_moving_fix(Sema *S, const Expr *operand, TypeId other)
{
	if (operand->kind != EXPR_BINARY || other == T_ERR)
		return;
	const Expr *a = operand->u.binary.lhs, *b = operand->u.binary.rhs;
	const Expr *lit = a->kind == EXPR_INT && a->lit_suffix != SUF_NONE ? a : b->kind == EXPR_INT && b->lit_suffix != SUF_NONE ? b : NULL;
	if (!lit || sema_expr_type(S, lit->id) != other)
		return;
	DiagSink *sink = S->diags;
	for (int i = sink->items.len - 1; i >= 0; i--) {
		Diag *g = &sink->items.items[i];
		if (g->code == DIAG_T208 && g->has_span && g->span.start == operand->span.start && g->span.end == operand->span.end) {
			for (int k = 0; k < g->fixes.len; k++)
				if (g->fixes.items[k].start == lit->span.start && g->fixes.items[k].end == lit->span.end) {
					diag_drop_fixes(g);
					const Expr *odd = lit == a ? b : a;
					diag_set_help(g, "the literal is `%s`, as the expression around this one takes it: the `%s` operand is the odd one; "
					    "convert it, or give it the type `%s` where it is declared", sema_type_name(S, other),
					    sema_type_name(S, sema_expr_type(S, odd->id)), sema_type_name(S, other));
					return;
				}
			return;
		}
	}
}

static TypeId
check_binary(FnCtx *C, const Expr *e)
{
	Sema *S = C->S;
	BinaryOp op = e->bin_op;
	const Expr *l = e->u.binary.lhs, *r = e->u.binary.rhs;
	TypeId lt = sema_check_expr(C, l), rt = sema_check_expr(C, r);
	const char *sp = ast_binary_spelling(op);
	if (op == BIN_EQ || op == BIN_NE) {
		if (lt == T_ERR || rt == T_ERR)
			return T_BOOL;
		if (!equatable(S, lt) || !equatable(S, rt)) {
			TypeId bad = equatable(S, lt) ? rt : lt;
			const TypeInfo *bi = sema_type_info(&S->types, bad);
			if (bi->kind == TY_NOMINAL && sema_sym(S, (SymId)bi->decl)->kind == SK_VARIANT) {
				/* the reference's text; its example is the case a payload-free
				 * constructor operand names */
				Diag *d = sema_error(S, DIAG_T207, e->span, "equality on variant `%s` requires a non-generic variant whose cases all carry no payload",
				    sema_type_name(S, bad));
				const Expr *k = r->kind == EXPR_VARIANT ? r : l->kind == EXPR_VARIANT ? l : NULL;
				if (k && k->u.variant.ninits == 0)
					diag_set_help(d, "test the case with `match` instead, e.g. `match value { %s::%s {} => true, _ => false, }`",
					    k->u.variant.type.s, k->u.variant.case_name.s);
				else if (k && k->u.variant.ninits == 1) {
					/* the payload's binding: a name no binding in scope has (qa37) */
					static const char *const binds[] = { "x", "y", "got", "payload" };
					const char *bind = NULL;
					for (size_t b = 0; !bind && b < countof(binds); b++)
						if (!sema_local_find(C, binds[b]))
							bind = binds[b];
					sema_payload_equality_help(S, d, k, k == r ? l : r, op == BIN_EQ, e, bind);
				}
				else
					diag_set_help(d, "test the case with `match` instead");
				return T_BOOL;
			}
			TyKind bk = sema_type_info(&S->types, bad)->kind;
			/* both of one type: the operands agree, the type has no equality */
			/* the first line is the reference's (LANGUAGE.md §0.2); the help
			 * says what the type lacks and how to compare instead */
			Diag *d = sema_error(S, DIAG_T207, e->span, "equality operands must have the same type");
			diag_set_help(d, "values of `%s` cannot be compared with `%s`; %s", sema_type_name(S, bad), sp,
			    bk == TY_FN ? "function values have no equality: compare what they return"
			    : bk == TY_SLICE || bk == TY_BYTES ? "compare their bytes with `byte_get(view, i)`, or text as `str` views (`==` compares text)"
			    : "compare them field by field, or inspect them with `match`");
			return T_BOOL;
		}
		if (lt != rt) {
			Diag *d = sema_error(S, DIAG_T207, e->span, "equality operands must have the same type");
			TypeId typed = is_unsuffixed_int(l) ? rt : lt;
			const char *suffix = typed == T_I32 ? "i32" : typed == T_U8 ? "u8" : typed == T_USIZE ? "usize" : NULL;
			const Expr *lit = is_unsuffixed_int(l) ? l : is_unsuffixed_int(r) ? r : NULL;
			if (suffix && lit && !sema_int_literal_fits(lit, false, typed))
				sema_literal_range_help(S, d, lit, typed);
			else if (suffix && lit)
				diag_set_help(d, "comparing `%s` with `%s`: integer literals are `i64` unless suffixed; write `%.*s%s` to match the `%s` operand",
				    sema_type_name(S, lt), sema_type_name(S, rt), (int)(lit->span.end - lit->span.start), S->src + lit->span.start, suffix, suffix);
			else {
				diag_set_help(d, "comparing `%s` with `%s`; there are no implicit conversions, so compare two values of one type%s",
				    sema_type_name(S, lt), sema_type_name(S, rt), lt == T_STR || rt == T_STR ? " (copy the `str` view into a `string` with `string_from_str(view)`)" : "");
				/* two numbers (`byte_len(v) == str_len_bytes(s)`, qa35): the conversion to write */
				conversion_operand_help(S, d, l, r, lt, rt, lt);
			}
		}
		return T_BOOL;
	}
	if (op == BIN_REM && (lt == T_F32 || lt == T_F64)) {
		Diag *d = sema_error(S, DIAG_T208, e->span, "operator `%%` expects i64 operands");
		diag_set_help(d, "`%%` is defined on integers only; floats have no remainder operator");
		return T_ERR;
	}
	bool ordering = op >= BIN_LT && op <= BIN_GE;
	if (ordering && (lt == T_STRING || rt == T_STRING) && lt != rt && lt != T_ERR && rt != T_ERR) {
		/* the reference's string_ordering corpus: `"a" < 1` is an operand mismatch */
		Diag *d = sema_error(S, DIAG_T208, e->span, "operator `%s` expects %s operands", sp, sema_type_name(S, lt));
		diag_set_help(d, "both operands have one type (%s here, with %s and %s); there are no implicit conversions",
		    sema_type_name(S, lt), sema_type_name(S, lt), sema_type_name(S, rt));
		return T_BOOL;
	}
	if ((lt == T_STRING || rt == T_STRING) && !(ordering && lt == rt)) {
		Diag *d = sema_error(S, DIAG_T250, e->span, "operator `%s` does not support string operands", sp);
		diag_set_help(d, "join strings with `string_concat(a, b)`, which consumes both; strings compare with `==`, `!=`, `<`, `<=`, `>` and `>=`");
		return ordering ? T_BOOL : T_ERR;
	}
	if (ordering && lt == rt && lt != T_ERR && lt != T_STRING && lt != T_CHAR && !sema_type_is_numeric(&S->types, lt)) {
		/* both operands of one type that has no order: the reference's first
		 * line (§0.2), a help naming what the type lacks, not "no implicit
		 * conversions" (there is none to make) */
		Diag *d = sema_error(S, DIAG_T208, e->span, "operator `%s` expects i64 operands", sp);
		TyKind k = sema_type_info(&S->types, lt)->kind;
		if (lt == T_STR)
			diag_set_help(d, "`str` views have no order; copy each into a `string` with `string_from_str(view)` and compare those (strings order byte by byte)");
		else if (lt == T_BOOL)
			diag_set_help(d, "`bool` has no order; compare with `==` or `!=`, or order the numbers `if b { 1 } else { 0 }`");
		else if (k == TY_SLICE || k == TY_BYTES)
			diag_set_help(d, "byte views and buffers have no order; compare their bytes with `byte_get(view, i)`");
		else
			diag_set_help(d, "`<`, `<=`, `>` and `>=` order numbers, `char` and `string`; compare `%s` values by a field, or test them with `match`", sema_type_name(S, lt));
		return T_BOOL;
	}
	if ((lt == T_ERR) != (rt == T_ERR) && op != BIN_AND && op != BIN_OR) {
		/* one operand already failed (qa37: `x / 2.0` with `x: double`, an
		 * unknown type): its error was reported; a T208 against the other
		 * operand's type, and a T103 for the i64 it assumed, would be noise */
		return op >= BIN_LT && op <= BIN_GE ? T_BOOL : T_ERR;
	}
	TypeId expected, result;
	if (op == BIN_AND || op == BIN_OR) {
		expected = T_BOOL;
		result = T_BOOL;
	} else if (op >= BIN_LT && op <= BIN_GE) {
		expected = sema_type_is_numeric(&S->types, lt) || lt == T_CHAR || lt == T_STRING ? lt : T_I64;
		result = T_BOOL;
	} else {
		expected = sema_type_is_numeric(&S->types, lt) ? lt : T_I64;
		result = expected;
	}
	if ((lt != T_ERR && lt != expected) || (rt != T_ERR && rt != expected)) {
		Diag *d = sema_error(S, DIAG_T208, e->span, "operator `%s` expects %s operands", sp, sema_type_name(S, expected));
		diag_set_help(d, "both operands have one type (%s here, with %s and %s); there are no implicit conversions",
		    sema_type_name(S, expected), sema_type_name(S, lt), sema_type_name(S, rt));
		if (sema_type_is_numeric(&S->types, lt) && sema_type_is_numeric(&S->types, rt))
			conversion_operand_help(S, d, l, r, lt, rt, expected);
		sema_literal_suffix_help(S, d, l, r, expected);
		carrier_operand_help(S, d, lt != expected ? lt : rt);
		drop_moving_fix(S, l, rt);
		drop_moving_fix(S, r, lt);
		if (op != BIN_AND && op != BIN_OR && !(op >= BIN_LT && op <= BIN_GE) && (lt == T_CHAR || rt == T_CHAR))
			/* `c - 'a'` (qa37): the help said "i64 here, with char and char" */
			diag_set_help(d, "there is no arithmetic on `char`; an ASCII char's code, as an `i64`, is `string_byte_at(string_from_char(c), 0)`, and `char_from_i64(n)` turns a code back into a `char` (chars compare with `==`, `<`, … as they are)");
		else if (op != BIN_AND && op != BIN_OR && !(op >= BIN_LT && op <= BIN_GE) && (lt == T_BOOL || rt == T_BOOL))
			diag_set_help(d, "there is no arithmetic on `bool`; count a condition as a number with `if b { 1 } else { 0 }`");
	}
	return result;
}

static TypeId
check_unary(FnCtx *C, const Expr *e)
{
	Sema *S = C->S;
	TypeId t = sema_check_expr(C, e->u.unary.operand);
	if (t == T_ERR)
		return T_ERR;
	if (e->un_op == UN_NOT) {
		if (t != T_BOOL) {
			Diag *d = sema_error(S, DIAG_T206, e->span, "unary operator expects bool, received %s", sema_type_name(S, t));
			diag_set_help(d, "`!` negates a bool; compare first, e.g. `x == 0`");
		}
		return T_BOOL;
	}
	if (t == T_I64 || t == T_I32 || t == T_F32 || t == T_F64)
		return t;
	Diag *d = sema_error(S, DIAG_T206, e->span, "unary operator expects i64, received %s", sema_type_name(S, t));
	diag_set_help(d, t == T_BOOL ? "`-` negates signed integers and floats; a bool is negated with `!`, as in `!done`" : "`-` negates signed integers and floats; `u8` and `usize` have no negation");
	return T_ERR;   /* reported: no follow-on error from a guessed type (qa33) */
}

/* ==== calls ========================================================================== */

void
sema_record_call(FnCtx *C, SymId callee, const char *name, const char *effect, Span span)
{
	if (sema_closure_effect(C, callee, name, effect, span))
		return;
	CallSite cs = { callee, name, effect, span };
	VEC_PUSH(C->calls, cs);
}

TypeId *
sema_resolve_targs(FnCtx *C, Type *const *targs, int n, TypeId *local)
{
	TypeId *out = n <= 8 ? local : spx_xmalloc(sizeof(TypeId) * (size_t)n);
	for (int i = 0; i < n; i++)
		out[i] = sema_ctx_resolve_type(C, targs[i]);
	return out;
}

/*
 * The fix rewriting a numeric literal e (under any `-`) to the type want it
 * is expected to have: `5` as i32 → `5i32`, `300i32` as usize → `300usize`,
 * `7u8` as i64 → `7`, `2` as f64 → `2.0`, `1.5` as f32 → `1.5f32`.  None
 * when the value does not fit want (a negative u8 or usize too), the
 * literal is not plain decimal, or want is not a number type (false).
 */
bool
sema_literal_retype_fix(Sema *S, Diag *d, const Expr *e, TypeId want)
{
	bool neg = false;
	while (e->kind == EXPR_UNARY && e->un_op == UN_NEG) {
		neg = !neg;
		e = e->u.unary.operand;
	}
	if (!d || !S->src || (e->kind != EXPR_INT && e->kind != EXPR_FLOAT) || e->span.end <= e->span.start)
		return false;
	const char *t = S->src + e->span.start;
	size_t n = e->span.end - e->span.start, k = 0;
	if (t[0] == '-') {
		neg = !neg;
		k = 1;
	}
	size_t digits = k;
	while (digits < n && ((t[digits] >= '0' && t[digits] <= '9') || t[digits] == '_' ||
	    (e->kind == EXPR_FLOAT && (t[digits] == '.' || t[digits] == 'e' || t[digits] == 'E' ||
	    ((t[digits] == '+' || t[digits] == '-') && (t[digits - 1] == 'e' || t[digits - 1] == 'E'))))))
		digits++;
	const char *rest = t + digits;
	size_t nrest = n - digits;
	static const char *const sufs[] = { "", "i32", "u8", "usize", "i64", "f32", "f64" };
	bool known = false;
	for (size_t i = 0; i < sizeof sufs / sizeof *sufs; i++)
		known |= strlen(sufs[i]) == nrest && memcmp(rest, sufs[i], nrest) == 0;
	if (digits == k || !known)
		return false;
	const char *suffix = NULL, *point = "";
	if (e->kind == EXPR_INT) {
		uint64_t v = e->u.int_lit.value;
		switch (want) {
		case T_I64: suffix = v <= (neg ? 9223372036854775808ull : 9223372036854775807ull) ? "" : NULL; break;
		case T_I32: suffix = v <= (neg ? 2147483648ull : 2147483647ull) ? "i32" : NULL; break;
		case T_U8: suffix = !neg && v <= 255 ? "u8" : NULL; break;
		case T_USIZE: suffix = !neg ? "usize" : NULL; break;
		case T_F64: suffix = ""; point = ".0"; break;
		case T_F32: suffix = "f32"; point = ".0"; break;
		default: break;
		}
	} else if (want == T_F64 || want == T_F32) {
		suffix = want == T_F32 ? "f32" : "";
	}
	if (!suffix)
		return false;
	char text[128];
	int len = snprintf(text, sizeof text, "%.*s%s%s", (int)(digits - k), t + k, point, suffix);
	if (len <= 0 || (size_t)len >= sizeof text || ((size_t)len == n - k && memcmp(text, t + k, n - k) == 0))
		return false;
	diag_add_fix(d, e->span.start + (uint32_t)k, e->span.end, text);
	return true;
}

/* The fix wrapping an argument in conversion calls: `open` before it (one
 * or more `name(`), as many `)` after it. */
static void
wrap_fix(Sema *S, Diag *d, const Expr *arg, const char *open)
{
	char close[8];
	int n = 0;
	for (const char *c = open; *c && n < 7; c++)
		if (*c == '(')
			close[n++] = ')';
	close[n] = '\0';
	uint32_t start, end;
	if (!d || !sema_expr_extent(S, arg, &start, &end))
		return;
	diag_add_fix(d, start, start, open);
	diag_add_fix(d, end, end, close);
}

/*
 * The source range an expression's text covers, parentheses included (qa37):
 * a node's span leaves out the parentheses that only group, so a fix
 * wrapping the span split them.  The parser records each parenthesised
 * expression's extent (mend38: no rescan of the text, which had to skip
 * strings, chars and comments again); false without the source text.
 */
bool
sema_expr_extent(const Sema *S, const Expr *e, uint32_t *start, uint32_t *end)
{
	Span s = ast_expr_extent(S->m, e);
	if (!S->src || s.end <= s.start || s.end > S->len)
		return false;
	*start = s.start;
	*end = s.end;
	return true;
}

/* Does t spell the error type inside (`Vec<{error}>` after an unknown element
 * type)?  Its mismatches were reported where the type was written. */
static bool
mentions_err(const Sema *S, TypeId t)
{
	if (t == T_ERR)
		return true;
	const TypeInfo *ti = sema_type_info(&S->types, t);
	for (int i = 0; i < ti->nargs; i++)
		if (mentions_err(S, ti->args[i]))
			return true;
	return false;
}

/* fname is a compiler-owned scalar conversion whose result type is a's
 * (`i64_from_usize` for an `i64`; not `string_from_str` for a `string`,
 * which lending copies, qa35's help). */
static bool
converts_to(Sema *S, const char *fname, TypeId a)
{
	const char *tn = sema_type_name(S, a);
	size_t n = strlen(tn);
	return a != T_STRING && strncmp(fname, tn, n) == 0 && strncmp(fname + n, "_from_", 6) == 0 && sema_builtin_find(fname);
}

/*
 * Checks arguments left to right against params (T205), after arity (T204);
 * ps (NULL for builtins and callable bindings) gives the callee's parameter
 * modes: a `shared` parameter needs a shared value (O103).
 */
void
sema_check_args_at(FnCtx *C, const char *fname, Expr *const *args, int nargs, const TypeId *params, const char *const *pnames, int nparams,
    const ParamSym *ps, int base, int total)
{
	Sema *S = C->S;
	for (int i = 0; i < nargs; i++) {
		TypeId a = sema_check_expr(C, args[i]);
		if (i >= nparams || params[i] == T_ERR || a == T_ERR)
			continue;
		bool accepts = sema_type_accepts(S, params[i], a);
		if (!accepts && (mentions_err(S, params[i]) || mentions_err(S, a)))
			continue;
		if (accepts) {
			bool lent = ps && (ps[i].mode == MODE_BORROW || ps[i].mode == MODE_SHARED);
			if (a != params[i] && !lent && sema_class_upcast(S, a, params[i]) && sema_upcast_drops_owned(S, a, params[i])) {
				/* a consumed argument upcasts as a typed binding does */
				Diag *d = sema_error(S, DIAG_T233, args[i]->span, "upcast from `%s` to `%s` would discard owned fields",
				    sema_type_name(S, a), sema_type_name(S, params[i]));
				if (!ps && sema_builtin_find(fname))   /* `vec_push<Base>(v, Child { … })`: the builtin's type is spelled */
					diag_set_help(d, "`%s` stores a `%s` here, and `%s`'s own owned fields would be lost: build a `%s { … }` from the fields to keep, or make `%s`'s own fields Copy",
					    fname, sema_type_name(S, params[i]), sema_type_name(S, a), sema_type_name(S, params[i]), sema_type_name(S, a));
				else
					diag_set_help(d, "upcast only classes whose own fields are Copy, or give `%s` a parameter of type `%s`", fname, sema_type_name(S, a));
			}
			if (ps && ps[i].mode == MODE_SHARED && !sema_is_copy(S, a) && sema_expr_mode(S, args[i]->id) != MODE_SHARED) {
				Diag *d = sema_error(S, DIAG_O103, args[i]->span, "`%s` requires shared resource ownership", fname);
				diag_set_help(d, "create or receive an explicitly shared resource before this call");
			}
			continue;
		}
		/* array_as_slice-style parameters accept any [u8; N] */
		const char *conv;
		bool checked = false;
		Diag *d = sema_error(S, DIAG_T205, args[i]->span, "argument `%s` to `%s` expects %s, received %s", pnames ? pnames[i] : "value",
		    fname, sema_type_name(S, params[i]), sema_type_name(S, a));
		if (params[i] == T_STR && a == T_STRING && args[i]->kind == EXPR_STRING && strcmp(fname, "string_from_str") == 0)
			diag_set_help(d, "a literal already is an owned `string`: write `%.*s` itself, without `string_from_str`",
			    (int)(args[i]->span.end - args[i]->span.start), C->S->src + args[i]->span.start);
		else if (!ps && converts_to(S, fname, a) && args[i]->kind != EXPR_INT && args[i]->kind != EXPR_FLOAT)
			/* `i64_from_usize(str_len_bytes(v))` (qa36): the value already
			 * has the conversion's result type (a literal's suffix fix below) */
			diag_set_help(d, "the argument already is `%s`: use it without `%s(…)`", sema_type_name(S, a), fname);
		else if (sema_carrier_value_help(S, d, a, params[i]))
			;
		else if (params[i] == T_STR && a == T_STRING && args[i]->kind == EXPR_STRING)
			/* the argument's place in the example call: `f(…, string_as_str(text))` */
			diag_set_help(d, "`%s` takes a `str` view, and a literal is an owned `string`: bind it, `let text = %.*s;`, then lend it: `%s(%sstring_as_str(text)%s)`", fname,
			    (int)(args[i]->span.end - args[i]->span.start), C->S->src + args[i]->span.start, fname, base + i ? "…, " : "", base + i + 1 < total ? ", …" : "");
		else if (params[i] == T_STR && a == T_STRING && args[i]->kind == EXPR_NAME) {
			/* a named string (qa35): the fix lends it */
			diag_set_help(d, "`%s` takes a `str` view; lend the owned string: `string_as_str(%s)` (the caller keeps it)", fname, args[i]->u.name.s);
			wrap_fix(S, d, args[i], "string_as_str(");
		} else if (params[i] == T_STR && a == T_STRING)
			diag_set_help(d, "`%s` takes a `str` view; borrow the owned string first: `%s(%sstring_as_str(binding)%s)`, binding a literal with `let` before that", fname, fname,
			    base + i ? "…, " : "", base + i + 1 < total ? ", …" : "");
		else if (params[i] == T_SLICE && a == T_STRING && args[i]->kind == EXPR_NAME) {
			diag_set_help(d, "`%s` takes `borrow Slice<u8>`; take both views of the string: `str_as_bytes(string_as_str(%s))`", fname, args[i]->u.name.s);
			wrap_fix(S, d, args[i], "str_as_bytes(string_as_str(");
		} else if (params[i] == T_SLICE && a == T_STRING)
			diag_set_help(d, "`%s` takes `borrow Slice<u8>`; bind the text to a name first (`let text = …;`), then take both views: `let view = string_as_str(text); let bytes = str_as_bytes(view); %s(bytes)`", fname, fname);
		else if (params[i] == T_SLICE && (a == T_STR || a == T_BYTES) && args[i]->kind == EXPR_NAME) {
			diag_set_help(d, "`%s` takes `borrow Slice<u8>`; view the %s as bytes: `%s(%s)`", fname, a == T_STR ? "text" : "buffer",
			    a == T_STR ? "str_as_bytes" : "bytes_as_slice", args[i]->u.name.s);
			wrap_fix(S, d, args[i], a == T_STR ? "str_as_bytes(" : "bytes_as_slice(");
		} else if (params[i] == T_SLICE && (a == T_STR || a == T_BYTES || sema_type_info(&S->types, a)->kind == TY_ARRAY))
			diag_set_help(d, "`%s` takes `borrow Slice<u8>`; produce one with `str_as_bytes(view)`, `array_as_slice(array)`, or `bytes_as_slice(bytes)`", fname);
		else if (params[i] == T_STRING && a == T_STR) {
			diag_set_help(d, "`%s` takes a `string`; a `str` view has its own functions (`str_len_bytes`, `str_byte_at`, …), or copy it into one with `string_from_str(view)`", fname);
			wrap_fix(S, d, args[i], "string_from_str(");
		} else if (params[i] == T_STRING && a == T_I64) {
			diag_set_help(d, "`%s` takes a `string`; render the integer first with `string_from_i64(value)`", fname);
			wrap_fix(S, d, args[i], "string_from_i64(");
		} else if (params[i] == T_STRING && a == T_USIZE) {
			diag_set_help(d, "`%s` takes a `string`; render the integer first with `string_from_usize(value)`", fname);
			wrap_fix(S, d, args[i], "string_from_usize(");
		}
		else if ((params[i] == T_I32 || params[i] == T_U8 || params[i] == T_USIZE) && a == T_I64 && sema_is_int_literal(args[i]) &&
		    !sema_int_literal_fits(args[i], false, params[i]))
			diag_set_help(d, "the literal is outside `%s`'s range (%s); pass a value within it", sema_type_name(S, params[i]),
			    sema_int_range_text(params[i]));
		else if ((params[i] == T_I32 || params[i] == T_U8 || params[i] == T_USIZE) && a == T_I64 && sema_is_int_literal(args[i])) {
			diag_set_help(d, "integer literals are `i64` unless suffixed; write a `%s` literal such as `1%s`",
			    sema_type_name(S, params[i]), sema_type_name(S, params[i]));
			sema_literal_retype_fix(S, d, args[i], params[i]);
		}
		else if (sema_literal_retype_fix(S, d, args[i], params[i]))
			diag_set_help(d, "a literal's suffix gives its type; write a `%s` literal: `%s`", sema_type_name(S, params[i]),
			    d->fixes.items[d->fixes.len - 1].text);
		else if ((conv = sema_conversion_builtin(params[i], a, &checked)) != NULL) {
			diag_set_help(d, "convert the `%s` value with the compiler-owned `%s(value)`%s, or keep the computation in `%s`", sema_type_name(S, a), conv,
			    checked ? " (a value out of range stops the program)" : "", sema_type_name(S, params[i]));
			/* qa37: the conversion the help names first, around the argument */
			char open[40];
			if (snprintf(open, sizeof open, "%s(", conv) < (int)sizeof open)
				wrap_fix(S, d, args[i], open);
		}
		else
			diag_set_help(d, "pass a value of type %s; there are no implicit conversions", sema_type_name(S, params[i]));
	}
}

static void
check_args(FnCtx *C, const char *fname, Expr *const *args, int nargs, const TypeId *params, const char *const *pnames, int nparams,
    const ParamSym *ps)
{
	sema_check_args_at(C, fname, args, nargs, params, pnames, nparams, ps, 0, nparams);
}

static uint32_t
instance_hash(SymId f, const TypeId *targs, int n)
{
	uint32_t h = 2166136261u ^ (uint32_t)f;
	for (int i = 0; i < n; i++)
		h = (h ^ targs[i]) * 16777619u;
	return h ^ (h >> 15);
}

/* Remembers a generic instance with a non-scalar argument for instance checking. */
void
sema_note_instance(Sema *S, SymId f, const TypeId *targs, int n, Span call)
{
	bool scalar = true;
	for (int i = 0; i < n; i++)
		scalar &= sema_type_is_scalar(&S->types, targs[i]) || targs[i] == T_ERR;
	if (scalar || S->instances_closed || S->instance_over.why)
		return;
	/* the bounds (SEMA_MAX_INSTANCES, sema_type_bounded): the first refusal
	 * stops the closure and is reported by check_instances */
	int why = 0;
	for (int i = 0; i < n && !why; i++) {
		const TypeInfo *ti = sema_type_info(&S->types, targs[i]);
		why = ti->depth > SEMA_TYPE_MAX_DEPTH ? 1 : ti->nodes > SEMA_TYPE_MAX_NODES ? 2 : 0;
	}
	/* one probe of the instance index (grown at half full) */
	if ((uint32_t)(S->ninstances + 1) * 2 > S->instance_cap) {
		free(S->instance_index);
		S->instance_cap = S->instance_cap ? S->instance_cap * 2 : 64;
		S->instance_index = spx_xmalloc(sizeof(uint32_t) * S->instance_cap);
		memset(S->instance_index, 0xFF, sizeof(uint32_t) * S->instance_cap);
		for (int i = 0; i < S->ninstances; i++) {
			uint32_t h = instance_hash(S->instances[i].fn, S->instances[i].targs, S->instances[i].ntargs) & (S->instance_cap - 1);
			while (S->instance_index[h] != UINT32_MAX)
				h = (h + 1) & (S->instance_cap - 1);
			S->instance_index[h] = (uint32_t)i;
		}
	}
	uint32_t h = instance_hash(f, targs, n) & (S->instance_cap - 1);
	for (; S->instance_index[h] != UINT32_MAX; h = (h + 1) & (S->instance_cap - 1)) {
		const struct Instance *in = &S->instances[S->instance_index[h]];
		if (in->fn == f && in->ntargs == n && memcmp(in->targs, targs, sizeof(TypeId) * (size_t)n) == 0)
			return;
	}
	if (!why && S->ninstances == SEMA_MAX_INSTANCES)
		why = 3;
	if (why) {
		S->instance_over.why = why;
		S->instance_over.fn = f;
		S->instance_over.call = call;
		return;
	}
	S->instance_index[h] = (uint32_t)S->ninstances;
	if (S->ninstances == S->capinstances) {
		S->capinstances = S->capinstances ? S->capinstances * 2 : 8;
		S->instances = spx_xrealloc(S->instances, sizeof(*S->instances) * (size_t)S->capinstances);
	}
	struct Instance *in = &S->instances[S->ninstances++];
	in->fn = f;
	memcpy(in->targs, targs, sizeof(TypeId) * (size_t)n);
	in->ntargs = n;
	in->call = call;
	in->skip = false;
}

static TypeId
check_call(FnCtx *C, const Expr *e)
{
	Sema *S = C->S;
	const char *name = e->u.call.callee.s;
	const Local *l = sema_local_find(C, name);
	if (l && l->own_target > 0)
		return sema_own_closure_call(C, e, l);
	if (l && l->own_target < 0 && C->closure_floor && l < C->locals.items + C->closure_floor) {
		sema_borrowed_closure_read(C, e, l);
		for (int i = 0; i < e->u.call.nargs; i++)
			sema_check_expr(C, e->u.call.args[i]);
		return T_ERR;
	}
	if (l && sema_is_fn_mut(S, l->type))
		return sema_mut_closure_call(C, e, l);
	if (l) {
		/* a callable binding */
		const TypeInfo *ti = sema_type_info(&S->types, l->type);
		if (l->type == T_ERR) {
			for (int i = 0; i < e->u.call.nargs; i++)
				sema_check_expr(C, e->u.call.args[i]);
			return T_ERR;
		}
		if (ti->kind != TY_FN) {
			Diag *d = sema_error(S, DIAG_P202, e->span, "only named functions can be called");
			diag_set_help(d, "`%s` is a %s, not a function value", name, sema_type_name(S, l->type));
			return T_ERR;
		}
		int np = ti->nargs - 1;
		/* every parameter (a copy: checking the arguments may grow the type table);
		 * only the first eight were checked, so a ninth argument of any type was
		 * admitted (`f(1, …, 8, f)`: the interpreter read a function value as an
		 * i64 and the C lane failed to build) */
		TypeId local[8] = { 0 }, result = ti->args[np];
		TypeId *params = np > 8 ? spx_xcalloc((size_t)np, sizeof *params) : local;
		for (int i = 0; i < np; i++)
			params[i] = sema_type_info(&S->types, l->type)->args[i];
		if (e->u.call.nargs != np) {
			Diag *d = sema_error(S, DIAG_T204, e->span, "`%s` expects %d arguments, received %d", name, np, e->u.call.nargs);
			diag_set_help(d, "pass exactly %d argument%s", np, np == 1 ? "" : "s");
		}
		check_args(C, name, e->u.call.args, e->u.call.nargs, params, NULL, np, NULL);
		if (params != local)
			free(params);
		return result;
	}
	SymId f = sema_strmap_get(&S->fn_names, name);
	if (f < 0) {
		const Builtin *b = sema_builtin_find(name);
		if (b)
			return sema_check_builtin_call(C, e, b);
		return sema_unknown_function(C, e);
	}
	Sym *fs = sema_sym(S, f);
	sema_expr_sym_set(S, e->id, f);
	sema_record_call(C, f, name, NULL, e->span);
	if (e->u.call.nargs != fs->nparams) {
		Diag *d = sema_error(S, DIAG_T204, e->span, "`%s` expects %d arguments, received %d", name, fs->nparams, e->u.call.nargs);
		diag_set_help(d, "pass exactly %d argument%s", fs->nparams, fs->nparams == 1 ? "" : "s");
	}
	int ntargs = e->u.call.ntargs;
	TypeId local[8];
	TypeId *targs = sema_resolve_targs(C, e->u.call.targs, ntargs, local);
	bool targs_ok = true;
	if (fs->ntparams == 0 && e->u.call.has_targs) {
		Diag *d = sema_error(S, DIAG_T225, e->span, "monomorphic function `%s` does not accept type arguments", name);
		diag_set_help(d, "call it as `%s(…)`", name);
		targs_ok = false;
	} else if (fs->ntparams != ntargs) {
		Diag *d = sema_error(S, DIAG_T225, e->span, "generic function `%s` expects %d explicit type arguments, received %d", name, fs->ntparams, ntargs);
		diag_set_help(d, "call it as `%s<i64>(…)`: generic calls spell their type arguments", name);
		targs_ok = false;
	}
	if (targs_ok && ntargs > 0 && ntargs <= 8)
		sema_note_instance(S, f, targs, ntargs, e->span);
	int np = fs->nparams;
	TypeId *params = spx_xmalloc(sizeof(TypeId) * (size_t)(np ? np : 1));
	const char **pnames = spx_xmalloc(sizeof(char *) * (size_t)(np ? np : 1));
	for (int i = 0; i < np; i++) {
		params[i] = targs_ok ? sema_type_subst(&S->types, fs->params[i].type, (uint32_t)f, targs, ntargs) : (fs->ntparams ? T_ERR : fs->params[i].type);
		pnames[i] = fs->params[i].name;
	}
	TypeId result = targs_ok ? sema_type_subst(&S->types, fs->result, (uint32_t)f, targs, ntargs) : (fs->ntparams ? T_ERR : fs->result);
	if (e->u.call.nargs == np) {
		uint8_t *cons = arena_alloc(&S->arena, (size_t)(np ? np : 1));
		for (int i = 0; i < np; i++)
			cons[i] = fs->params[i].mode != MODE_BORROW && fs->params[i].mode != MODE_SHARED;
		S->call_consumes[ast_call_index(e)] = cons;
	}
	if (e->u.call.nargs == np)
		check_args(C, name, e->u.call.args, e->u.call.nargs, params, pnames, np, fs->params);
	else
		for (int i = 0; i < e->u.call.nargs; i++)
			sema_check_expr(C, e->u.call.args[i]);
	for (int i = 0; i < np && i < e->u.call.nargs; i++)
		if (fs->params[i].mode == MODE_BORROW && fs->params[i].type == T_BYTES)
			borrowed_bytes_argument(C, e->u.call.args[i], fs->ntparams > 0);
	free(params);
	free(pnames);
	if (targs != local)
		free(targs);
	return result;
}

/*
 * A `borrow Bytes` argument of a module function (the reference's borrowed
 * Bytes call loans): a named Bytes binding, or one Bytes field of a named
 * owned record, passed to a monomorphic callee; anything else (a temporary,
 * a field through a lent binding, any generic callee) is T266.
 */
static void
borrowed_bytes_argument(FnCtx *C, const Expr *a, bool generic_callee)
{
	Sema *S = C->S;
	bool admitted = false;
	if (!generic_callee && a->kind == EXPR_NAME) {
		const Local *l = sema_local_find(C, a->u.name.s);
		admitted = l && l->type == T_BYTES;
	} else if (!generic_callee && a->kind == EXPR_FIELD && a->u.field.base->kind == EXPR_NAME) {
		const Local *l = sema_local_find(C, a->u.field.base->u.name.s);
		admitted = l && l->mode != MODE_BORROW && l->mode != MODE_SHARED && sema_expr_type(S, a->id) == T_BYTES;
	}
	if (admitted || sema_expr_type(S, a->id) == T_ERR)
		return;
	Diag *d = sema_error(S, DIAG_T266, a->span, "borrowed Bytes call requires an exact admitted storage place");
	diag_set_help(d, "use an owned Bytes local or one direct Bytes field of a flat owned record");
}

/* ==== `?`, if, closures, arrays ========================================================= */

/* The first binding in scope (parameters included, moved or not) whose value needs release, or NULL. */
/* The first binding in scope whose value holds a resource (T218; §0.1 lifts
 * the rule for every other owned value: each lane releases it on the exit). */
static const Local *
first_resource_binding(FnCtx *C)
{
	for (int i = 0; i < C->owned_locals.len; i++) {
		const Local *l = &C->locals.items[C->owned_locals.items[i]];
		if (sema_type_holds(C->S, sema_fn_type(C, l->type), false))
			return l;
	}
	return NULL;
}

static TypeId
check_try(FnCtx *C, const Expr *e)
{
	Sema *S = C->S;
	TypeId t = sema_check_expr(C, e->u.try_.operand);
	if (t == T_ERR)
		return T_ERR;
	if (C->in_contract) {
		Diag *d = sema_error(S, DIAG_T218, e->span, "`?` is only valid in an executable function body");
		diag_set_help(d, "contracts are pure; test the value with `match` in a helper instead");
	}
	/* The reference refuses `?` while a binding whose value needs release is
	 * in scope (its `needs_drop` test); §0.1 keeps that only for resources
	 * (docs/DECISIONS.md). */
	const Local *live = first_resource_binding(C);
	if (live) {
		Diag *d = sema_error(S, DIAG_T218, e->span, "`?` with a live resource binding is not supported yet");
		diag_set_help(d, "`%s` holds a resource and is in scope here; match the value instead of using `?`", live->name);
	}
	if (C->in_contract || sema_closure_try(C, e))
		return T_ERR;
	const TypeInfo *ti = sema_type_info(&S->types, t);
	bool is_result = ti->kind == TY_NOMINAL && (SymId)ti->decl == S->sym_result;
	bool is_option = ti->kind == TY_NOMINAL && (SymId)ti->decl == S->sym_option;
	if (!is_result && !is_option) {
		Diag *d = sema_error(S, DIAG_T218, e->span, "`?` applies to `Result` or `Option` values, received %s", sema_type_name(S, t));
		diag_set_help(d, "only `Result<T, E>` and `Option<T>` carry a residual to propagate");
		return T_ERR;
	}
	TypeId payload = ti->args[0];
	TypeId err = is_result ? ti->args[1] : T_ERR;
	TypeId fres = sema_fn_type(C, C->sym->result);
	const TypeInfo *ri = sema_type_info(&S->types, fres);
	SymId want = is_result ? S->sym_result : S->sym_option;
	bool is_main = C->sym->kind == SK_FN && strcmp(C->sym->name, "main") == 0;
	if (is_main || ri->kind != TY_NOMINAL || (SymId)ri->decl != want) {
		Diag *d = sema_error(S, DIAG_T218, e->span, "function `%s` must return the ordinary compiler-owned %s to propagate a%s %s with `?`",
		    C->sym->name, is_result ? "Result" : "Option", is_result ? "" : "n", is_result ? "Result" : "Option");
		/* the example matches this operand, `match own` when its value is owned (O111) */
		const Expr *op = e->u.try_.operand;
		int n = (int)(op->span.end - op->span.start);
		const char *src = S->src + op->span.start;
		if (n <= 0 || n > 60 || memchr(src, '\n', (size_t)n)) {
			src = "f()";
			n = 3;
		}
		const char *mode = sema_is_copy(S, t) ? "" : "own ";
		if (is_result)
			diag_set_help(d, "`?` returns the error from the enclosing function, so that function must return `Result<…>`; otherwise match it: `match %s%.*s { Result::Ok { value: v } => v, Result::Err { error: e } => 1, }`",
			    mode, n, src);
		else
			diag_set_help(d, "`?` on an Option returns `None` from the enclosing function, so that function must return `Option<…>`; otherwise match it: `match %s%.*s { Option::Some { value: v } => v, Option::None {} => 0, }`",
			    mode, n, src);
		return payload;
	}
	if (is_result && ri->args[1] != err && fres != T_ERR) {
		Diag *d = sema_error(S, DIAG_T219, e->span, "`?` cannot propagate error type %s into Result error type %s", sema_type_name(S, err),
		    sema_type_name(S, sema_type_info(&S->types, fres)->args[1]));
		/* the types spelt out, so the helper can be written as read */
		TypeId want_err = sema_type_info(&S->types, fres)->args[1];
		char from[160], to[160];
		snprintf(from, sizeof from, "Result<%s, %s>", sema_type_name(S, payload), sema_type_name(S, err));
		snprintf(to, sizeof to, "Result<%s, %s>", sema_type_name(S, payload), sema_type_name(S, want_err));
		diag_set_help(d, "`?` passes the error on unchanged: convert it first, `convert(…)?`, with a helper `fn convert(r: own %s) -> %s` that matches `Result::Ok { value }` and `Result::Err { error }` and rebuilds each as a `%s`",
		    from, to, to);
	}
	return payload;
}

/*
 * T210's help (the reference gives none): the explicit test for the
 * condition's type; numeric as before (`i64 != 0`).
 */
static void
condition_help(Sema *S, Diag *d, TypeId ct)
{
	const TypeInfo *ti = sema_type_info(&S->types, ct);
	if (ct == T_STRING)
		diag_set_help(d, "values are never truthy: test a string explicitly, e.g. `!string_is_empty(text)` or `text == \"yes\"`");
	else if (ti->kind == TY_STR)
		diag_set_help(d, "values are never truthy: test a view explicitly, e.g. `!str_is_empty(view)`");
	else if (ti->kind == TY_NOMINAL && sema_sym(S, (SymId)ti->decl)->kind == SK_VARIANT)
		diag_set_help(d, "values are never truthy: take a `%s` apart with `match` (or compare a payload-free case with `==`)", sema_type_name(S, ct));
	else if (ti->kind == TY_VEC || ti->kind == TY_MAP || ti->kind == TY_SET)
		diag_set_help(d, "values are never truthy: test the size explicitly, e.g. `%s_len<…>(values) > 0usize`",
		    ti->kind == TY_VEC ? "vec" : ti->kind == TY_MAP ? "map" : "set");
	else
		diag_set_help(d, "compare explicitly, e.g. `%s != 0`; values are never truthy", sema_type_name(S, ct));
}

static TypeId
check_if(FnCtx *C, const Expr *e)
{
	Sema *S = C->S;
	TypeId ct = sema_check_expr(C, e->u.if_.cond);
	if (ct != T_BOOL && ct != T_ERR) {
		Diag *d = sema_error(S, DIAG_T210, e->u.if_.cond->span, "`if` condition must be bool");
		condition_help(S, d, ct);
	}
	TypeId tt = e->u.if_.then_block ? sema_check_block(C, e->u.if_.then_block) : T_ERR;
	if (!e->u.if_.else_block)
		return T_ERR;
	TypeId et = sema_check_block(C, e->u.if_.else_block);
	if (!e->u.if_.then_block || !e->u.if_.then_block->tail || !e->u.if_.else_block->tail)
		return T_ERR;
	/* a branch value a statement `if` discards (§0.3, Block.tail_discard) gives the `if` no type */
	if (e->u.if_.then_block->tail_discard || e->u.if_.else_block->tail_discard)
		return T_ERR;
	if (tt == T_ERR || et == T_ERR)
		return tt == T_ERR ? et : tt;
	if (tt != et) {
		Diag *d = sema_error(S, DIAG_T211, e->span, "`if` branches return different types: %s and %s", sema_type_name(S, tt), sema_type_name(S, et));
		diag_set_help(d, "make both branches produce one type; there are no implicit conversions");
	}
	/* O106: one branch lends a borrowed (or shared) value, the other owns its value. */
	ParamMode tm = sema_expr_mode(S, e->u.if_.then_block->tail->id);
	ParamMode em = sema_expr_mode(S, e->u.if_.else_block->tail->id);
	if (!sema_is_copy(S, tt) && tm != em) {
		static const char *const words[] = { "owned", "owned", "borrowed", "shared" };
		Diag *d = sema_error(S, DIAG_O106, e->span, "`if` branches must produce the same resource ownership mode");
		diag_set_help(d, "the then branch yields a %s value and the else branch a %s one; borrow in both branches, or own in both",
		    words[tm], words[em]);
	}
	return tt == et ? tt : T_ERR;
}

static TypeId
check_array(FnCtx *C, const Expr *e)
{
	Sema *S = C->S;
	bool bad = false;
	for (int i = 0; i < e->u.array.nelems; i++) {
		TypeId t = sema_check_expr(C, e->u.array.elems[i]);
		if (t != T_U8 && t != T_ERR && !bad) {
			bad = true;
			Diag *d = sema_error(S, DIAG_T262, e->span, "array literals hold bytes; element %d is %s", i, sema_type_name(S, t));
			diag_set_help(d, "array literals hold bytes: `[1u8, 2u8]`; a list of other values is a `Vec`: `vec_push<i64>(vec_with_capacity<i64>(3usize), 1)`");
		}
	}
	if (bad)
		return T_ERR;
	return sema_type_intern(&S->types, TY_ARRAY, 0, (uint64_t)e->u.array.nelems, NULL, 0);
}

/* ==== dispatch ============================================================================= */

/* The ownership mode of the value e produces (Sema.expr_mode), from its checked parts. */
static ParamMode
value_mode(FnCtx *C, const Expr *e)
{
	const Sema *S = C->S;
	switch (e->kind) {
	case EXPR_NAME: {
		/* check_name has just looked the name up (most names) */
		const Local *l = C->name_expr != e ? sema_local_find(C, e->u.name.s)
		    : C->name_local >= 0 ? &C->locals.items[C->name_local] : NULL;
		C->name_expr = NULL;
		return l ? l->mode : MODE_NONE;
	}
	case EXPR_FIELD: return sema_expr_mode(S, e->u.field.base->id);
	case EXPR_BLOCK: return e->u.block->tail ? sema_expr_mode(S, e->u.block->tail->id) : MODE_NONE;
	case EXPR_IF:
		return e->u.if_.then_block && e->u.if_.then_block->tail ? sema_expr_mode(S, e->u.if_.then_block->tail->id) : MODE_NONE;
	case EXPR_MATCH: return e->u.match.narms ? sema_expr_mode(S, e->u.match.arms[0].value->id) : MODE_NONE;
	default: return MODE_NONE;
	}
}

TypeId
sema_check_expr(FnCtx *C, const Expr *e)
{
	TypeId t = T_ERR;
	C->S->expr_checks++;
	switch (e->kind) {
	case EXPR_INT: t = int_type(e->lit_suffix); break;
	case EXPR_FLOAT: t = e->lit_suffix == SUF_F32 ? T_F32 : T_F64; break;
	case EXPR_CHAR: t = T_CHAR; break;
	case EXPR_STRING: t = T_STRING; break;
	case EXPR_BOOL: t = T_BOOL; break;
	case EXPR_NAME: t = check_name(C, e); break;
	case EXPR_UNARY: t = check_unary(C, e); break;
	case EXPR_BINARY: t = check_binary(C, e); break;
	case EXPR_CALL: t = check_call(C, e); break;
	case EXPR_METHOD: t = sema_check_method(C, e); break;
	case EXPR_FIELD: t = sema_check_field(C, e); break;
	case EXPR_TRY: t = check_try(C, e); break;
	case EXPR_WITH: t = sema_check_with(C, e); break;
	case EXPR_RECORD: t = sema_check_record_lit(C, e); break;
	case EXPR_VARIANT: t = sema_check_variant_lit(C, e); break;
	case EXPR_SUPER: t = sema_check_super(C, e); break;
	case EXPR_BLOCK: t = sema_check_block(C, e->u.block); break;
	case EXPR_IF: t = check_if(C, e); break;
	case EXPR_MATCH: t = sema_check_match(C, e); break;
	case EXPR_CLOSURE:
		if (e->u.closure.mut)
			t = sema_mut_closure(C, e);
		else if (!e->u.closure.own)
			t = sema_check_closure(C, e);
		else if (e == C->own_let)
			t = sema_own_closure(C, e);
		else {
			Diag *d = sema_error(C->S, DIAG_T296, e->span, "an owning-capture closure may only initialize a `let` binding");
			diag_set_help(d, "bind it first, `let clo = own fn() -> R { target(payload) };`, then call `clo()`");
			t = T_ERR;
		}
		break;
	case EXPR_ARRAY: t = check_array(C, e); break;
	}
	uint8_t *mb = &C->S->expr_mode[e->id >> 2];
	unsigned sh = (e->id & 3) * 2;
	*mb = (uint8_t)((*mb & ~(3u << sh)) | ((unsigned)value_mode(C, e) << sh));
	return sema_expr_set(C, e, t);
}
