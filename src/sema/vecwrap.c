/*
 * The exact `std.collections` Vec wrappers (LANGUAGE.md T283; the
 * reference's std_collections_vec_wrappers corpus): in module
 * `std.collections`, a generic function `name<T>` with the stable id
 * `std.collections.vec.<op>`, no effects or contracts, exactly the
 * parameters below and a body that is only `vec_<op><T>(params…)`, is a
 * transparent wrapper of the intrinsic.  Through one, `values =
 * push<T>(values, x)` renews `values` like `vec_push` (check_stmt.c).
 * A near miss in that module (a wrapper's id or name on anything else)
 * and a wrapper id in any other module are T283.
 */
#include "sema_int.h"

#include <string.h>

typedef struct VecWrap {
	const char *id;
	const char *name;
	const char *intrinsic;
	bool renews;                 /* consumes `values` and returns it */
	int nparams;
	const char *pname[3];
	ParamMode pmode[3];
	const char *ptype[3];        /* "T", "usize" or "Vec<T>" */
	const char *result;
} VecWrap;

static const VecWrap wraps[] = {
	{ "std.collections.vec.with-capacity", "with_capacity", "vec_with_capacity", false, 1,
	  { "capacity" }, { MODE_NONE }, { "usize" }, "Vec<T>" },
	{ "std.collections.vec.push", "push", "vec_push", true, 2,
	  { "values", "value" }, { MODE_OWN, MODE_NONE }, { "Vec<T>", "T" }, "Vec<T>" },
	{ "std.collections.vec.len", "len", "vec_len", false, 1,
	  { "values" }, { MODE_BORROW }, { "Vec<T>" }, "usize" },
	{ "std.collections.vec.capacity", "capacity", "vec_capacity", false, 1,
	  { "values" }, { MODE_BORROW }, { "Vec<T>" }, "usize" },
	{ "std.collections.vec.get", "get", "vec_get", false, 2,
	  { "values", "index" }, { MODE_BORROW, MODE_NONE }, { "Vec<T>", "usize" }, "T" },
	{ "std.collections.vec.reserve-exact", "reserve_exact", "vec_reserve_exact", true, 2,
	  { "values", "additional" }, { MODE_OWN, MODE_NONE }, { "Vec<T>", "usize" }, "Vec<T>" },
	{ "std.collections.vec.set", "set", "vec_set", true, 3,
	  { "values", "index", "value" }, { MODE_OWN, MODE_NONE, MODE_NONE }, { "Vec<T>", "usize", "T" }, "Vec<T>" },
	{ "std.collections.vec.clear", "clear", "vec_clear", true, 1,
	  { "values" }, { MODE_OWN }, { "Vec<T>" }, "Vec<T>" },
};

static bool
simple_name(const Type *t, const char *name)
{
	return t && t->kind == TYPE_NAME && t->u.name.name.nparts == 1 && t->u.name.nargs == 0 &&
	       strcmp(t->u.name.name.parts[0].s, name) == 0;
}

static bool
type_is(const Type *t, const char *spec)
{
	if (strcmp(spec, "Vec<T>") != 0)
		return simple_name(t, spec);
	return t && t->kind == TYPE_NAME && t->u.name.name.nparts == 1 && t->u.name.nargs == 1 &&
	       strcmp(t->u.name.name.parts[0].s, "Vec") == 0 && simple_name(t->u.name.args[0], "T");
}

static bool
in_std_collections(const Sema *S)
{
	return S->module_name && strcmp(S->module_name, "std.collections") == 0;
}

static const VecWrap *
by_id(const char *id)
{
	for (size_t i = 0; id && i < countof(wraps); i++)
		if (strcmp(wraps[i].id, id) == 0)
			return &wraps[i];
	return NULL;
}

static bool
exact(const Sym *f, const VecWrap *w)
{
	const FnDecl *fn = f->fn;
	if (!fn || !f->explicit_id || strcmp(f->name, w->name) != 0 || fn->ntparams != 1 || strcmp(fn->tparams[0].s, "T") != 0 ||
	    fn->uses.nnames || fn->nclauses || fn->nparams != w->nparams || !type_is(fn->result, w->result))
		return false;
	for (int i = 0; i < fn->nparams; i++)
		if (strcmp(fn->params[i].name.s, w->pname[i]) != 0 || fn->params[i].mode != w->pmode[i] || !type_is(fn->params[i].type, w->ptype[i]))
			return false;
	const Block *b = fn->body;
	if (!b || b->nstmts || !b->tail || b->tail->kind != EXPR_CALL)
		return false;
	const Expr *c = b->tail;
	if (strcmp(c->u.call.callee.s, w->intrinsic) != 0 || !c->u.call.has_targs || c->u.call.ntargs != 1 ||
	    !simple_name(c->u.call.targs[0], "T") || c->u.call.nargs != w->nparams)
		return false;
	for (int i = 0; i < c->u.call.nargs; i++)
		if (c->u.call.args[i]->kind != EXPR_NAME || strcmp(c->u.call.args[i]->u.name.s, w->pname[i]) != 0)
			return false;
	return true;
}

bool
sema_vec_wrapper_renews(Sema *S, SymId f)
{
	if (f < 0 || !in_std_collections(S))
		return false;
	const Sym *s = sema_sym(S, f);
	if (s->kind != SK_FN)
		return false;
	const VecWrap *w = by_id(s->id);
	return w && w->renews && exact(s, w);
}

void
sema_check_vec_wrappers(Sema *S)
{
	bool home = in_std_collections(S);
	for (SymId id = 0; id < S->syms.len; id++) {
		const Sym *f = sema_sym(S, id);
		if (f->kind != SK_FN || f->prelude)
			continue;
		const VecWrap *w = f->explicit_id ? by_id(f->id) : NULL;
		if (!home) {
			if (w) {
				Diag *d = sema_error(S, DIAG_T283, f->span, "vector wrapper identity `%s` is reserved for module `std.collections`", f->id);
				diag_set_help(d, "give the function a stable id of your own, or call the exact `std.collections.vec.*` wrapper / `vec_*` intrinsic");
			}
			continue;
		}
		bool candidate = w != NULL;
		for (size_t i = 0; !candidate && i < countof(wraps); i++)
			candidate = strcmp(f->name, wraps[i].name) == 0;
		if (!candidate || (w && exact(f, w)))
			continue;
		Diag *d = sema_error(S, DIAG_T283, f->span, "`%s` in `std.collections` is not the exact Vec wrapper its name or id claims", f->name);
		diag_set_help(d, "a wrapper is `fn <op><T>(…)` with its exact @id(\"std.collections.vec.<op>\"), parameters and a body that only calls `vec_<op><T>(…)`");
	}
}
