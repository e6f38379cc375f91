/*
 * closure_borrow.c — closures capturing a borrowed text view (`str`): the
 * reference's synchronous parameter-rooted profile (tests/language/
 * function_values/borrowed_closures.rs; see docs/DECISIONS.md).  §0.1 lifts
 * T288 for Copy captures in general, but a captured `str` borrows storage
 * owned elsewhere, so such a closure keeps the reference's exact shape:
 *
 *     let callback = fn(value: i64) -> i64 { target(view, value) };
 *
 * `view` a `borrow str` parameter of a pure, monomorphic enclosing function,
 * `target` a pure declared `(borrow str, i64) -> i64` function, the literal
 * initializing an immutable `let` outside contracts, and the binding only
 * ever invoked directly.  Everything else is T288.
 */
#include "sema_int.h"

#include <string.h>

static void
outside_profile(FnCtx *C, Span span, const char *help)
{
	Diag *d = sema_error(C->S, DIAG_T288, span, "borrowed closure is outside the synchronous parameter-rooted profile");
	diag_set_help(d, "%s", help);
}

static bool
is_i64(FnCtx *C, const Type *t)
{
	return t && sema_ctx_resolve_type(C, t) == T_I64;
}

void
sema_borrowed_closure(FnCtx *C, const Expr *e)
{
	Sema *S = C->S;
	if (C->in_contract || C->sym->ntparams || C->sym->neffects) {
		outside_profile(C, e->span, "build a closure over a `str` view only in the body of a pure function without type parameters");
		return;
	}
	const Local *view = &C->locals.items[C->cap_view];
	int index = C->cap_view;
	if (C->cap_views != 1 || C->cap_other) {
		outside_profile(C, e->span, "a closure over a `str` view captures that one view and nothing else");
		return;
	}
	if (index >= C->sym->nparams || view->mode != MODE_BORROW || view->type != T_STR) {
		outside_profile(C, e->span, "capture a `borrow str` parameter of the enclosing function, not a local view");
		return;
	}
	const Block *b = e->u.closure.body;
	const char *shape = "write `fn(value: i64) -> i64 { target(view, value) }` with `target` a pure `(borrow str, i64) -> i64` function";
	if (e->u.closure.nparams != 1 || !is_i64(C, e->u.closure.params[0].type) || !is_i64(C, e->u.closure.result) ||
	    !b || b->nstmts || !b->tail || b->tail->kind != EXPR_CALL) {
		outside_profile(C, e->span, shape);
		return;
	}
	const Expr *call = b->tail;
	const char *param = e->u.closure.params[0].name.s;
	SymId f = sema_strmap_get(&S->fn_names, call->u.call.callee.s);
	if (call->u.call.has_targs || call->u.call.nargs != 2 || f < 0 || sema_local_find(C, call->u.call.callee.s) ||
	    call->u.call.args[0]->kind != EXPR_NAME || strcmp(call->u.call.args[0]->u.name.s, view->name) != 0 ||
	    call->u.call.args[1]->kind != EXPR_NAME || strcmp(call->u.call.args[1]->u.name.s, param) != 0) {
		outside_profile(C, e->span, shape);
		return;
	}
	const Sym *fs = sema_sym(S, f);
	if (fs->ntparams || fs->neffects || fs->nparams != 2 || fs->result != T_I64 || fs->params[0].type != T_STR ||
	    fs->params[0].mode != MODE_BORROW || fs->params[1].type != T_I64 || fs->params[1].mode != MODE_NONE) {
		outside_profile(C, e->span, shape);
		return;
	}
	if (e != C->own_let || C->own_let_mut) {
		Diag *d = sema_error(S, DIAG_T288, e->span, "borrowed closure must remain in its parameter-rooted synchronous local scope");
		diag_set_help(d, "bind the literal directly with an immutable `let callback = …;` and call `callback(x)`");
		return;
	}
	sema_closure_profile_set(S, e->id, 4);
}

TypeId
sema_borrowed_closure_read(FnCtx *C, const Expr *e, const Local *l)
{
	Diag *d = sema_error(C->S, DIAG_T288, e->span, "borrowed closure must remain in its parameter-rooted synchronous local scope");
	diag_set_help(d, "`%s` borrows a `str` parameter: call it directly as `%s(x)` in this function; it cannot be copied, returned, stored, passed or captured",
	    l->name, l->name);
	return T_ERR;
}
