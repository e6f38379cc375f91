/*
 * closure.c — ordinary closures `fn(x: T, …) -> R { body }` (§4.13): their
 * captures (Copy values, check_name), their type, and the rule that their
 * bodies are effect-free.  The bounded shapes live beside this file:
 * closure_borrow.c (a captured `str`), closure_own.c (`own fn`),
 * closure_mut.c (`mut fn`).
 */
#include "sema_int.h"

#include <stdlib.h>
#include <string.h>

/* A closure is a Copy `fn(…)` value: whoever calls it, its type carries no
 * effects, so its body may not perform any (§4.13: "effects are not allowed
 * in callable targets").  Without this a closure (or a function value, see
 * check_name) would carry an effect into an effect-free function or a
 * contract, past E102/C102. */
bool
sema_closure_effect(FnCtx *C, SymId callee, const char *name, const char *effect, Span span)
{
	if (!C->closure_depth)
		return false;
	const char *need = effect;
	if (!need && callee >= 0 && sema_sym(C->S, callee)->neffects)
		need = sema_sym(C->S, callee)->effects[0];
	if (!need)
		return false;
	Diag *d = sema_error(C->S, DIAG_E102, span, "call to `%s` requires effect `%s`, but a closure cannot declare effects", name, need);
	diag_set_help(d, "closures and function values are effect-free: call `%s` outside the closure and pass its result in", name);
	return true;
}

/* `e?` inside a closure body (qa33): §4.13 "`?` and effects are not allowed
 * in callable targets".  Unrefused, the `?` was checked against the enclosing
 * function's result, so in `fn(x: i64) -> i64 { parse(s)? }` inside a function
 * returning Option the lanes disagreed (the interpreter and Wasm returned 0
 * from the closure, the C projection failed to compile).  True when reported. */
bool
sema_closure_try(FnCtx *C, const Expr *e)
{
	if (!C->closure_depth)
		return false;
	Diag *d = sema_error(C->S, DIAG_T218, e->span, "`?` is not allowed in a closure body");
	diag_set_help(d, "a closure cannot return early: `match` the value inside it, or move the code into a named function returning `Option<…>` or `Result<…>`");
	return true;
}

/* `super.m(…)` inside a closure body (qa33): `super` stands for the method's
 * `self` upcast, which a closure would have to capture implicitly; §4.6 allows
 * it "only inside an overriding method" (T231).  Unrefused, the lanes
 * disagreed: the interpreter stopped at "field access on an unsupported
 * value", the C projection failed to compile and Wasm returned a wrong value.
 * True when reported (the arguments are checked too). */
bool
sema_closure_super(FnCtx *C, const Expr *e)
{
	if (!C->closure_depth)
		return false;
	const char *name = e->u.super_.name.s;
	Diag *d = sema_error(C->S, DIAG_T231, e->u.super_.name.span, "`super` is not allowed in a closure body");
	diag_set_help(d, "call `super.%s(…)` in the method body, bind its result with `let`, and use that binding in the closure", name);
	for (int i = 0; i < e->u.super_.nargs; i++)
		sema_check_expr(C, e->u.super_.args[i]);
	return true;
}

/* An assignment `c = …;` or `c.f = …;` inside a closure body whose target is
 * a capture (qa33): §4.13 captures by value at construction and lets a body
 * mutate "its own locals" only.  Unrefused, the store changed the call's
 * private copy, so `c = c + k` in a counter closure left the outer `c`, and
 * the next call's start, unchanged in every lane: a silent no-op.  U101, as
 * for the other immutable bindings (parameters, pattern bindings); true when
 * reported. */
bool
sema_closure_assign(FnCtx *C, const Local *l, Span target)
{
	if (!C->closure_depth || !C->closure_floor || l >= C->locals.items + C->closure_floor)
		return false;
	Diag *d = sema_error(C->S, DIAG_U101, target, "cannot assign to `%s` in a closure: it is a capture, a copy taken when the closure was built", l->name);
	diag_set_help(d, "a closure cannot change its captures or the outer `%s`: return the new value and assign it outside (`%s = f(…);`), or copy it into a local of the closure (`let mut %s_here = %s;`)",
	    l->name, l->name, l->name, l->name);
	return true;
}

TypeId
sema_check_closure(FnCtx *C, const Expr *e)
{
	Sema *S = C->S;
	int n = e->u.closure.nparams;
	TypeId *args = spx_xmalloc(sizeof(TypeId) * (size_t)(n + 1));
	int saved_floor = C->closure_floor;
	int saved_views = C->cap_views, saved_other = C->cap_other, saved_view = C->cap_view;
	C->cap_views = C->cap_other = 0;
	C->closure_floor = C->locals.len ? C->locals.len : saved_floor;
	sema_scope_push(C);
	for (int i = 0; i < n; i++) {
		const ClosureParam *p = &e->u.closure.params[i];
		args[i] = sema_ctx_resolve_type(C, p->type);
		/* a closure parameter may reuse the name of an enclosing binding, which
		 * it hides inside the body (reference closures.rs snapshot/shadow test) */
		const Local *outer = sema_local_find(C, p->name.s);
		if (outer && outer < C->locals.items + C->closure_floor && strcmp(p->name.s, "result") != 0) {
			Local l = { p->name.s, args[i], false, p->name.span, MODE_NONE, -1, 0, true, false };
			sema_local_push(C, l);
		} else if (sema_local_declare(C, p->name.s, args[i], false, p->name.span)) {
			/* a parameter, as a function's: U101 and T209 name the `let mut` copy */
			C->locals.items[C->locals.len - 1].param = true;
		}
	}
	args[n] = sema_ctx_resolve_type(C, e->u.closure.result);
	const char *view = args[n] == T_ERR ? NULL : sema_type_view(S, args[n]);
	if (view) {
		/* a closure's result outlives its body's locals, as a function's does (sema.c) */
		Diag *d = args[n] == T_STR || args[n] == T_SLICE
		    ? sema_error(S, view[0] == 's' ? DIAG_O116 : DIAG_T264, e->span, "closure cannot return borrowed `%s`; views cannot escape their invocation", view)
		    : sema_error(S, view[0] == 's' ? DIAG_O116 : DIAG_T264, e->span, "closure cannot return %s, which holds a borrowed `%s`; views cannot escape their invocation",
			sema_type_name(S, args[n]), view);
		diag_set_help(d, "%s", view[0] == 's' ? "return an owned `string`, e.g. `string_from_str(view)`" : "return owned `Bytes`, e.g. `bytes_copy(view)`");
	}
	C->closure_depth++;
	TypeId bt = e->u.closure.body ? sema_check_block(C, e->u.closure.body) : T_ERR;
	C->closure_depth--;
	sema_scope_pop(C);
	C->closure_floor = saved_floor;
	if (C->cap_views)
		sema_borrowed_closure(C, e);
	/* an enclosing closure captures what this one does (over-approximated) */
	C->cap_other += saved_other;
	if (saved_views) {
		C->cap_views += saved_views;
		if (C->cap_views == saved_views)
			C->cap_view = saved_view;
	}
	if (bt != T_ERR && args[n] != T_ERR && !sema_type_accepts(S, args[n], bt)) {
		Diag *d = sema_error(S, DIAG_T103, e->u.closure.body->span, "closure returns %s, but its signature declares %s",
		    sema_type_name(S, bt), sema_type_name(S, args[n]));
		diag_set_help(d, "make the closure body end in a %s", sema_type_name(S, args[n]));
	}
	TypeId t = sema_type_intern(&S->types, TY_FN, 0, 0, args, n + 1);
	free(args);
	return t;
}
