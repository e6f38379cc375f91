/*
 * closure_own.c — owning closures `own fn() -> R { target(capture) }`
 * (the reference's SPX-AI-021 profile; beyond LANGUAGE.md, see
 * docs/DECISIONS.md).  The literal moves one owned local `Bytes` value
 * into the closure; the binding is then that `Bytes` value under another
 * name, invoked at most once as `c()` (a call of the target consuming it)
 * or dropped uncalled.  Moves, maybe-moves and live views are the
 * ownership pass's ordinary checks (own.c); this file checks the profile.
 */
#include "sema_int.h"

#include <string.h>

const Expr *
sema_own_capture(const Expr *e)
{
	const Block *b = e->u.closure.body;
	if (!b || b->nstmts || !b->tail || b->tail->kind != EXPR_CALL)
		return NULL;
	const Expr *call = b->tail;
	if (call->u.call.ntargs || call->u.call.has_targs || call->u.call.nargs != 1 || call->u.call.args[0]->kind != EXPR_NAME)
		return NULL;
	return call->u.call.args[0];
}

/* An ordinary closure may run many times: it captures Copy values only (T288),
 * so it neither builds an owning closure over an outer `Bytes` nor calls an
 * outer owning closure. */
static bool
captured_from_closure(FnCtx *C, const Local *l, const Expr *at)
{
	if (!C->closure_floor || l >= C->locals.items + C->closure_floor)
		return false;
	Diag *d = sema_error(C->S, DIAG_T288, at->span, "closure captures `%s` of non-Copy type %s", l->name, sema_type_name(C->S, l->type));
	diag_set_help(d, "closures capture Copy values by value; build and call the owning closure outside the closure");
	return true;
}

TypeId
sema_own_closure(FnCtx *C, const Expr *e)
{
	Sema *S = C->S;
	if (C->sym->ntparams) {
		Diag *d = sema_error(S, DIAG_T291, e->span, "owning-capture closures are not admitted inside a generic function");
		diag_set_help(d, "build the owning closure in a function without type parameters");
		return T_ERR;
	}
	if (C->in_contract) {
		Diag *d = sema_error(S, DIAG_O119, e->span, "owning-capture closures cannot be constructed in a contract expression");
		diag_set_help(d, "contracts only read; check the property in the body instead");
		return T_ERR;
	}
	TypeId result = sema_ctx_resolve_type(C, e->u.closure.result);
	const Block *b = e->u.closure.body;
	if (!b)
		return T_ERR;
	const Expr *call = !b->nstmts && b->tail ? b->tail : NULL;
	if (!call || call->kind != EXPR_CALL) {
		Diag *d = sema_error(S, DIAG_T292, call ? call->span : b->span,
		    "an owning-capture closure body must be exactly one call transferring its captured `Bytes` payload");
		diag_set_help(d, "write `own fn() -> R { target(payload) }`");
		return T_ERR;
	}
	if (call->u.call.has_targs || call->u.call.nargs != 1) {
		Diag *d = sema_error(S, DIAG_T292, b->span,
		    "an owning-capture closure body must call its target with exactly one argument: the captured `Bytes` payload");
		diag_set_help(d, "write `own fn() -> R { target(payload) }`");
		return T_ERR;
	}
	const Expr *arg = call->u.call.args[0];
	if (arg->kind != EXPR_NAME) {
		Diag *d = sema_error(S, DIAG_T292, arg->span,
		    "an owning-capture closure body's one argument must be a direct lexical capture, not a computed expression");
		diag_set_help(d, "bind the `Bytes` value with `let` first and capture that binding");
		return T_ERR;
	}
	const char *tname = call->u.call.callee.s;
	SymId f = sema_strmap_get(&S->fn_names, tname);
	if (f < 0) {
		Diag *d = sema_error(S, DIAG_T293, b->span, "owning-capture closure target `%s` is not declared", tname);
		diag_set_help(d, "declare `fn %s(payload: own Bytes) -> %s`", tname, sema_type_name(S, result));
		return T_ERR;
	}
	Sym *fs = sema_sym(S, f);
	if (fs->ntparams || fs->nparams != 1 || fs->params[0].mode != MODE_OWN || fs->params[0].type != T_BYTES ||
	    result == T_ERR || fs->result != result) {
		Diag *d = sema_error(S, DIAG_T293, b->span,
		    "owning-capture closure target `%s` must be an ordinary monomorphic function taking exactly one `own Bytes` parameter and returning the closure's declared result type",
		    tname);
		diag_set_help(d, "declare `fn %s(payload: own Bytes) -> %s`", tname, sema_type_name(S, result));
		return T_ERR;
	}
	const Local *l = sema_local_find(C, arg->u.name.s);
	if (!l) {
		Diag *d = sema_error(S, DIAG_T202, arg->span, "unknown value `%s` in `%s`", arg->u.name.s, C->sym->name);
		diag_set_help(d, "declare `%s` with `let` before this use", arg->u.name.s);
		return T_ERR;
	}
	if (captured_from_closure(C, l, arg))
		return T_ERR;
	if (l->type != T_BYTES || l->mode != MODE_NONE || l->own_target > 0) {
		Diag *d = sema_error(S, DIAG_T294, arg->span, "an owning-capture closure captures exactly one lexical owned `Bytes` value");
		diag_set_help(d, "`%s` is %s%s; capture an owned `Bytes` binding", arg->u.name.s,
		    l->mode != MODE_NONE ? "borrowed " : "", sema_type_name(S, l->type));
		return T_ERR;
	}
	sema_expr_set(C, arg, T_BYTES);
	sema_expr_sym_set(S, call->id, f);
	sema_closure_profile_set(S, e->id, 1);
	return T_BYTES;
}

TypeId
sema_own_closure_call(FnCtx *C, const Expr *e, const Local *l)
{
	Sema *S = C->S;
	Sym *fs = sema_sym(S, l->own_target - 1);
	if (captured_from_closure(C, l, e))
		return T_ERR;
	if (e->u.call.has_targs || e->u.call.nargs) {
		Diag *d = sema_error(S, DIAG_T295, e->span, "owning-capture closure `%s` takes no explicit arguments in this bounded profile", l->name);
		diag_set_help(d, "call it as `%s()`", l->name);
		return T_ERR;
	}
	sema_expr_sym_set(S, e->id, l->own_target - 1);
	sema_closure_profile_set(S, e->id, 1);
	/* the target's effects are the call's (E codes at `c()`) */
	CallSite cs = { l->own_target - 1, fs->name, NULL, e->span };
	VEC_PUSH(C->calls, cs);
	return fs->result;
}
