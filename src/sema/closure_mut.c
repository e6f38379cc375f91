/*
 * closure_mut.c — mutable closures `mut fn(arg: i64) -> i64 { update(state, arg) }`
 * of type `FnMutI64(i64) -> i64` (the reference's transactional scalar
 * callback profile; beyond LANGUAGE.md, see docs/DECISIONS.md).  The value
 * is a compiler-owned record { update: fn(i64, i64) -> i64, state: i64 }
 * (decls.c): construction copies the captured state; each call `r(x)` stores
 * `update(state, x)` as the new state and yields it (lowered in hir/lower.c).
 * The receiver is a `let mut` local invoked directly: it is never read as a
 * value (copied, passed, returned by name), so each construction's state is
 * private to one binding.
 */
#include "sema_int.h"

#include <string.h>

bool
sema_is_fn_mut(Sema *S, TypeId t)
{
	if (S->sym_fn_mut < 0 || t == T_ERR)
		return false;
	const TypeInfo *ti = sema_type_info(&S->types, t);
	return ti->kind == TY_NOMINAL && (SymId)ti->decl == S->sym_fn_mut;
}

static TypeId
reject(FnCtx *C, const Expr *e, const char *msg)
{
	Diag *d = sema_error(C->S, DIAG_T308, e->span, "%s", msg);
	diag_set_help(d, "write `mut fn(arg: i64) -> i64 { update(state, arg) }` with `update` a pure `(i64, i64) -> i64` function and `state` a local i64");
	return T_ERR;
}

TypeId
sema_mut_closure(FnCtx *C, const Expr *e)
{
	Sema *S = C->S;
	const Type *rt = e->u.closure.result;
	if (!rt || rt->kind != TYPE_NAME || ast_type_nparts(rt) != 1 || ast_type_nargs(rt) ||
	    strcmp(rt->u.name.s, "i64") != 0)
		return reject(C, e, "mutable closure requires the transactional i64 signature");
	if (C->sym->ntparams || e->u.closure.nparams != 1 || sema_ctx_resolve_type(C, e->u.closure.params[0].type) != T_I64)
		return reject(C, e, "mutable closure requires one i64 argument in a monomorphic function");
	const char *param = e->u.closure.params[0].name.s;
	const Block *b = e->u.closure.body;
	if (!b)
		return T_ERR;
	if (b->nstmts || !b->tail || b->tail->kind != EXPR_CALL)
		return reject(C, e, "mutable closure requires a direct transition call");
	const Expr *call = b->tail;
	if (call->u.call.nargs != 2)
		return reject(C, e, "mutable transition requires state and argument");
	const Expr *st = call->u.call.args[0], *arg = call->u.call.args[1];
	if (st->kind != EXPR_NAME)
		return reject(C, e, "mutable state must be a direct available i64 binding");
	const char *target = call->u.call.callee.s;
	if (call->u.call.has_targs || strcmp(st->u.name.s, param) == 0 || sema_local_find(C, target) || strcmp(target, param) == 0 ||
	    arg->kind != EXPR_NAME || strcmp(arg->u.name.s, param) != 0)
		return reject(C, e, "mutable transition must pass state then invocation argument");
	const Local *l = sema_local_find(C, st->u.name.s);
	if (!l)
		return reject(C, e, "mutable closure state must be a lexical i64 capture");
	if (l->type != T_I64 || l->mode != MODE_NONE)
		return reject(C, e, "mutable closure state must be an available value i64");
	SymId f = sema_strmap_get(&S->fn_names, target);
	if (f < 0)
		return reject(C, e, "mutable update target must be an ordinary local function");
	Sym *fs = sema_sym(S, f);
	if (fs->ntparams || fs->neffects || fs->result != T_I64 || fs->nparams != 2 || fs->params[0].type != T_I64 ||
	    fs->params[1].type != T_I64 || fs->params[0].mode != MODE_NONE || fs->params[1].mode != MODE_NONE)
		return reject(C, e, "mutable update target requires pure (i64, i64) -> i64");
	if (S->sym_fn_mut < 0)
		return T_ERR;
	sema_expr_set(C, st, T_I64);
	sema_expr_sym_set(S, e->id, f);
	sema_closure_profile_set(S, e->id, 2);
	return sema_type_intern(&S->types, TY_NOMINAL, (uint32_t)S->sym_fn_mut, 0, NULL, 0);
}

typedef struct Reentry {
	FnCtx *C;
	const char *name;
} Reentry;

static void
find_reentry(void *ctx, const Expr *e)
{
	Reentry *r = ctx;
	if (e->kind == EXPR_CALL && strcmp(e->u.call.callee.s, r->name) == 0) {
		Diag *d = sema_error(r->C->S, DIAG_T308, e->span, "mutable receiver cannot be entered while staging its invocation argument");
		diag_set_help(d, "bind the inner call's result first: `let x = %s(…); %s(x)`", r->name, r->name);
	}
}

TypeId
sema_mut_closure_call(FnCtx *C, const Expr *e, const Local *l)
{
	Sema *S = C->S;
	bool ok = true;
	if (!l->mut || l->mode != MODE_NONE || C->in_contract || (C->closure_floor && l < C->locals.items + C->closure_floor)) {
		Diag *d = sema_error(S, DIAG_T308, e->span, "mutable invocation requires an available mutable local outside contracts");
		diag_set_help(d, "bind the receiver with `let mut %s = …;` in the function body that calls it (not a parameter, a contract or another closure)", l->name);
		ok = false;
	}
	Reentry r = { C, l->name };
	for (int i = 0; i < e->u.call.nargs; i++)
		sema_walk_expr(e->u.call.args[i], find_reentry, &r);
	if (e->u.call.has_targs || e->u.call.nargs != 1) {
		Diag *d = sema_error(S, DIAG_T204, e->span, "`%s` expects 1 argument, received %d", l->name, e->u.call.nargs);
		diag_set_help(d, "pass exactly one i64 argument");
		ok = false;
	}
	for (int i = 0; i < e->u.call.nargs; i++) {
		TypeId t = sema_check_expr(C, e->u.call.args[i]);
		if (t != T_ERR && t != T_I64) {
			Diag *d = sema_error(S, DIAG_T205, e->u.call.args[i]->span, "argument to `%s` expects i64, received %s", l->name, sema_type_name(S, t));
			diag_set_help(d, "pass an i64");
			ok = false;
		}
	}
	if (ok)
		sema_closure_profile_set(S, e->id, 3);
	return T_I64;
}
