/*
 * review_v4.c — what a review states about the v4 operations (patch.h,
 * docs/PATCH.md): the facts observed on the two verified programs, and
 * each operation's finding in each of the seven sections.
 *
 * The effects a function performs are its own builtin calls' effects and
 * the declared effects of the functions it calls, over its body, its
 * contracts and the closures it holds (lifted closures carry ids under
 * the function's); they are compared before and after the operation.
 * `unsafe` blocks are counted in its syntax.  Callers are the calls and
 * function values naming it in other declarations of the base program.
 */
#include "plan_int.h"
#include "review_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- facts ---- */

typedef struct Effects {
	const char **v;    /* heap; as many as the function performs */
	int n, cap;
} Effects;

typedef struct Collect {
	Sema *S;
	Effects *e;
} Collect;

static bool
has_effect(const Effects *e, const char *s)
{
	for (int i = 0; i < e->n; i++)
		if (strcmp(e->v[i], s) == 0)
			return true;
	return false;
}

/* Append s, known not to be in e. */
static void
add_effect_new(Effects *e, const char *s)
{
	if (e->n == e->cap) {
		e->cap = e->cap ? 2 * e->cap : 16;
		e->v = spx_xrealloc(e->v, (size_t)e->cap * sizeof *e->v);
	}
	e->v[e->n++] = s;
}

static void
add_effect(Effects *e, const char *s)
{
	if (!s || has_effect(e, s))
		return;
	if (e->n == e->cap) {
		e->cap = e->cap ? 2 * e->cap : 16;
		e->v = spx_xrealloc(e->v, (size_t)e->cap * sizeof *e->v);
	}
	e->v[e->n++] = s;
}

/* add_effect for a function id: by its symbol's mark in seen[] when the
 * id names one (constant time), else by the scan. */
static void
add_once(Effects *e, Sema *S, unsigned char *seen, const char *id)
{
	SymId y = id ? sema_strmap_get(&S->ids, id) : -1;
	if (y < 0) {
		add_effect(e, id);
		return;
	}
	if (seen[y])
		return;
	seen[y] = 1;
	add_effect_new(e, id);
}

static void
collect(void *ctx, const HirExpr *x)
{
	Collect *c = ctx;
	if (x->kind != HIR_CALL)
		return;
	if (x->u.call.kind == CALL_BUILTIN && x->u.call.builtin)
		add_effect(c->e, x->u.call.builtin->effect);
	else if (x->u.call.kind == CALL_FN && x->u.call.fn >= 0) {
		Sym *y = sema_sym(c->S, x->u.call.fn);
		for (int k = 0; k < y->neffects; k++)
			add_effect(c->e, y->effects[k]);
	}
}

/* H's functions ordered by stable id (malloc'd): effects_in_index finds a
 * function's entries by binary search (a scan of them all per function was
 * paid once per member of a family of thousands of methods; qa40). */
typedef struct FuncRef {
	const char *id;
	const HirFunc *f;
} FuncRef;

static int
by_func_id(const void *a, const void *b)
{
	return strcmp(((const FuncRef *)a)->id, ((const FuncRef *)b)->id);
}

static FuncRef *
func_index(const HirModule *H, int *n)
{
	FuncRef *v = spx_xmalloc(sizeof *v * (size_t)(H && H->nfuncs ? H->nfuncs : 1));
	int k = 0;
	for (int i = 0; H && i < H->nfuncs; i++)
		if (H->funcs[i].id) {
			v[k].id = H->funcs[i].id;
			v[k++].f = &H->funcs[i];
		}
	qsort(v, (size_t)k, sizeof *v, by_func_id);
	*n = k;
	return v;
}

/* The first entry of the index whose id is not below key. */
static int
index_lower(const FuncRef *v, int n, const char *key)
{
	int lo = 0, hi = n;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (strcmp(v[mid].id, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The effects the function with stable id fid performs: its own and its
 * lifted closures' (`fid:…`), found through the index v[0..nv). */
static void
effects_in_index(Sema *S, const FuncRef *v, int nv, const char *fid, Effects *e)
{
	e->n = 0;
	if (!fid)
		return;
	Collect c = { S, e };
	HirVisitor vis = { collect, NULL, NULL, &c };
	for (int k = index_lower(v, nv, fid); k < nv && strcmp(v[k].id, fid) == 0; k++)
		hir_visit(v[k].f, &vis);
	Buf pre = {0};
	buf_printf(&pre, "%s:", fid);
	for (int k = index_lower(v, nv, pre.data); k < nv && strncmp(v[k].id, pre.data, pre.len) == 0; k++)
		hir_visit(v[k].f, &vis);
	buf_free(&pre);
}

/* The sorted effects of a not in b, comma-separated: a heap string ("" when
 * none), as long as the list is. */
static char *
difference(const Effects *a, const Effects *b)
{
	const char **v = spx_xcalloc((size_t)a->n + 1, sizeof *v);
	int n = 0;
	for (int i = 0; i < a->n; i++)
		if (!has_effect(b, a->v[i]))
			v[n++] = a->v[i];
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && strcmp(v[j - 1], v[j]) > 0; j--) {
			const char *t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	Buf out = {0};
	buf_puts(&out, "");
	for (int i = 0; i < n; i++)
		buf_printf(&out, "%s`%s`", i ? ", " : "", v[i]);
	free(v);
	return out.data;
}

static void
count_unsafe(Planner *P, const Stmt *s)
{
	P->ci += s->kind == STMT_UNSAFE;
}

static int
unsafe_in(Sema *S, const char *fid)
{
	SymId f = fid ? sema_strmap_get(&S->ids, fid) : -1;
	if (f < 0 || !sema_sym(S, f)->fn)
		return 0;
	Planner P;
	patch_planner_init(&P, S);
	P.ci = 0;   /* the count */
	P.on_stmt = count_unsafe;
	patch_walk_fn(&P, sema_sym(S, f)->fn);
	return P.ci;
}

static int
callers_of(Sema *S, const char *fid)
{
	SymId f = fid ? sema_strmap_get(&S->ids, fid) : -1;
	if (f < 0)
		return 0;
	int n = 0;
	for (SymId i = 0; i < S->syms.len; i++)
		if (i != f && sema_sym(S, i)->fn)
			n += patch_uses_in(S, sema_sym(S, i)->fn, f);
	return n;
}

/* The walk of family_callers: fam[] marks the family's symbols, cur is the
 * function walked (its own uses are no callers, as in callers_of). */
typedef struct FamilyUses {
	const unsigned char *fam;
	SymId cur;
	int n;
} FamilyUses;

static void
count_family_expr(Planner *P, const Expr *e)
{
	FamilyUses *u = P->user;
	if (e->kind != EXPR_CALL && e->kind != EXPR_NAME && e->kind != EXPR_METHOD && e->kind != EXPR_SUPER)
		return;
	SymId y = sema_expr_sym(P->S, e->id);
	u->n += y >= 0 && y != u->cur && u->fam[y];
}

/* callers_of summed over the family's functions ids[0..n), in one walk of
 * the program: callers_of each was a walk of every function per member, so
 * a family of thousands of overrides cost members × functions (qa40: 8,000
 * classes, `review` 38 s). */
static int
family_callers(Sema *S, const char *const *ids, int n)
{
	unsigned char *fam = spx_xcalloc((size_t)S->syms.len + 1, 1);
	for (int k = 0; k < n; k++) {
		SymId f = ids[k] ? sema_strmap_get(&S->ids, ids[k]) : -1;
		if (f >= 0)
			fam[f] = 1;
	}
	FamilyUses u = { fam, -1, 0 };
	Planner P;
	patch_planner_init(&P, S);
	P.on_expr = count_family_expr;
	P.user = &u;
	for (SymId i = 0; i < S->syms.len; i++)
		if (sema_sym(S, i)->fn) {
			u.cur = i;
			patch_walk_fn(&P, sema_sym(S, i)->fn);
		}
	free(fam);
	return u.n;
}

/* add-/remove-parameter: a method's whole override family changes (one
 * change each, the selected one first): the methods named together, and
 * their calls and callers summed. */
static void
param_family(const SPatch *p, const PatchPlan *pl, Sema *before, int i, const PatchChange *c, ReviewFact *f)
{
	SymId x = sema_strmap_get(&before->ids, p->ops[i].w[0].s);
	f->method = x >= 0 && sema_sym(before, x)->kind == SK_METHOD;
	int n = 0;
	for (int k = 0; k < pl->changes.len; k++)
		n += pl->changes.items[k].op == i && pl->changes.items[k].v4kind != NULL;
	if (n < 2)
		return;
	Buf b = {0};
	int j = 0;
	const char **ids = spx_xmalloc(sizeof *ids * (size_t)n);
	f->sites = 0;
	for (int k = 0; k < pl->changes.len; k++) {
		const PatchChange *d = &pl->changes.items[k];
		if (d->op != i || !d->v4kind || !d->function)
			continue;
		buf_printf(&b, "%s%s", j == 0 ? "" : j == n - 1 ? "` and `" : "`, `", d->function);
		ids[j++] = d->function;
		f->sites += d->sites;
	}
	f->callers = family_callers(before, ids, j);
	free(ids);
	(void)c;
	f->family = b.data;
}

static int
by_span(const void *a, const void *b)
{
	const Sym *x = *(const Sym *const *)a, *y = *(const Sym *const *)b;
	if (x->span.start != y->span.start)
		return x->span.start < y->span.start ? -1 : 1;
	if (x->span.end != y->span.end)
		return x->span.end > y->span.end ? -1 : 1;   /* the wider first */
	return x->id && y->id ? strcmp(x->id, y->id) : 0;
}

/* The module's declared functions no other holds (a closure lifted from a
 * function lies inside it), sorted by where they start; declarations never
 * overlap otherwise, so the spans are disjoint (malloc'd; *n the count). */
static const Sym **
outer_functions(Sema *S, int *n)
{
	const Sym **v = spx_xmalloc(sizeof *v * (size_t)(S->syms.len ? S->syms.len : 1));
	int k = 0;
	for (SymId y = 0; y < S->syms.len; y++) {
		const Sym *s = sema_sym(S, y);
		if (s->fn && s->decl && !s->prelude)
			v[k++] = s;
	}
	qsort(v, (size_t)k, sizeof *v, by_span);
	int m = 0;
	for (int j = 0; j < k; j++)
		if (m == 0 || v[j]->span.start >= v[m - 1]->span.end)
			v[m++] = v[j];
	*n = m;
	return v;
}

/* add-/remove-parameter: every function the operation edits is compared,
 * not the selected one alone — each member of the family (one change each)
 * and each function holding a call the operation rewrote (an argument the
 * calls now pass may perform an effect: in a caller, or in a member whose
 * body calls the family, `super.m(…)`): the effects any of them gains or
 * loses, sorted, and (more than one function) the ones whose effects
 * changed. */
static void
param_effects(const PatchPlan *pl, Sema *before, const FuncRef *ib, int nib, Sema *after, const FuncRef *ia, int nia, int i, ReviewFact *f)
{
	Effects gained = { NULL, 0, 0 }, lost = { NULL, 0, 0 }, none = { NULL, 0, 0 }, eb = { NULL, 0, 0 }, ea = { NULL, 0, 0 };
	Effects fns = { NULL, 0, 0 };   /* the ids compared, in order: the changes', then the calls' holders */
	/* each once: a function's id marks its symbol (add_effect's scan of
	 * fns per id was members × members; qa40) */
	unsigned char *seen = spx_xcalloc((size_t)before->syms.len + 1, 1);
	for (int k = 0; k < pl->changes.len; k++) {
		const PatchChange *d = &pl->changes.items[k];
		if (d->op == i && d->v4kind && d->function)
			add_once(&fns, before, seen, d->function);
	}
	int nout;
	const Sym **out = outer_functions(before, &nout);
	for (int k = 0; k < pl->edits.len; k++) {
		const PatchEdit *x = &pl->edits.items[k];
		if (x->op != i)
			continue;
		/* the widest function holding the edit (a declared function, not a
		 * closure lifted from it): the last outer one starting at or before it */
		int lo = 0, hi = nout;
		while (lo < hi) {
			int mid = lo + (hi - lo) / 2;
			if (out[mid]->span.start <= x->start)
				lo = mid + 1;
			else
				hi = mid;
		}
		const Sym *holder = lo > 0 && x->end <= out[lo - 1]->span.end ? out[lo - 1] : NULL;
		add_once(&fns, before, seen, holder ? holder->id : NULL);
	}
	free(out);
	free(seen);
	Buf in = {0};
	int changed = 0;
	for (int k = 0; k < fns.n; k++) {
		effects_in_index(before, ib, nib, fns.v[k], &eb);
		effects_in_index(after, ia, nia, fns.v[k], &ea);
		bool diff = false;
		for (int j = 0; j < ea.n; j++)
			if (!has_effect(&eb, ea.v[j])) {
				add_effect(&gained, ea.v[j]);
				diff = true;
			}
		for (int j = 0; j < eb.n; j++)
			if (!has_effect(&ea, eb.v[j])) {
				add_effect(&lost, eb.v[j]);
				diff = true;
			}
		if (diff)
			buf_printf(&in, "%s`%s`", changed++ ? ", " : "", fns.v[k]);
	}
	f->added_effects = difference(&gained, &none);
	f->removed_effects = difference(&lost, &none);
	f->effects_in = fns.n > 1 && changed ? in.data : NULL;
	if (!f->effects_in)
		buf_free(&in);
	free(fns.v);
	free(gained.v);
	free(lost.v);
	free(eb.v);
	free(ea.v);
}

void
patch_review_facts(const SPatch *p, const PatchPlan *pl, Sema *before, const HirModule *hb, Sema *after, const HirModule *ha,
    ReviewFact *facts)
{
	int nib, nia;
	FuncRef *ib = func_index(hb, &nib), *ia = func_index(ha, &nia);
	for (int i = 0; i < p->nops; i++) {
		ReviewFact *f = &facts[i];
		memset(f, 0, sizeof *f);
		const PatchChange *c = NULL;
		for (int k = 0; k < pl->changes.len && !c; k++)
			if (pl->changes.items[k].v4kind && pl->changes.items[k].op == i)
				c = &pl->changes.items[k];
		if (!c)
			continue;
		f->has_fact = true;
		const char *fid = c->function;
		if (strcmp(c->v4kind, "function_added") == 0)
			fid = c->added_id && c->added_id[0] ? c->added_id : NULL;
		Effects eb = { NULL, 0, 0 }, ea = { NULL, 0, 0 };
		bool added = strcmp(c->v4kind, "function_added") == 0, deleted = strcmp(c->v4kind, "function_deleted") == 0;
		if (p->ops[i].kind == POP_ADD_PARAM || p->ops[i].kind == POP_REMOVE_PARAM) {
			param_effects(pl, before, ib, nib, after, ia, nia, i, f);
		} else {
			effects_in_index(before, ib, nib, added ? NULL : fid, &eb);
			effects_in_index(after, ia, nia, deleted ? NULL : fid, &ea);
			f->added_effects = difference(&ea, &eb);
			f->removed_effects = difference(&eb, &ea);
		}
		free(eb.v);
		free(ea.v);
		f->unsafe_before = added ? 0 : unsafe_in(before, fid);
		f->unsafe_after = deleted ? 0 : unsafe_in(after, fid);
		f->callers = added ? callers_of(after, fid) : callers_of(before, fid);   /* added: the calls other operations write */
		f->clause = strcmp(c->v4kind, "expression") == 0 ? c->detail : NULL;
		f->sites = c->sites;
		if (p->ops[i].kind == POP_ADD_PARAM || p->ops[i].kind == POP_REMOVE_PARAM)
			param_family(p, pl, before, i, c, f);
	}
	free(ib);
	free(ia);
}

void
patch_review_facts_free(ReviewFact *facts, int n)
{
	for (int i = 0; facts && i < n; i++) {
		free(facts[i].added_effects);
		free(facts[i].removed_effects);
		free(facts[i].family);
		free(facts[i].effects_in);
	}
	free(facts);
}

/* ---- findings ---- */

/* Operation o's finding in section s: code, disposition and statement. */
void
patch_review_v4_row(const PatchOp *o, int i, const ReviewFact *f, int s, const char **code, int *disposition, char *st, size_t size)
{
	static const char *const codes[][S_COUNT] = {
		{ "SRV-B105", "SRV-A105", "SRV-S105", "SRV-M105", "SRV-T105", "SRV-G105", "SRV-U105" },
		{ "SRV-B106", "SRV-A106", "SRV-S106", "SRV-M106", "SRV-T106", "SRV-G106", "SRV-U106" },
		{ "SRV-B107", "SRV-A107", "SRV-S107", "SRV-M107", "SRV-T107", "SRV-G107", "SRV-U107" },
		{ "SRV-B108", "SRV-A108", "SRV-S108", "SRV-M108", "SRV-T108", "SRV-G108", "SRV-U108" },
		{ "SRV-B109", "SRV-A109", "SRV-S109", "SRV-M109", "SRV-T109", "SRV-G109", "SRV-U109" },
		{ "SRV-B110", "SRV-A110", "SRV-S110", "SRV-M110", "SRV-T110", "SRV-G110", "SRV-U110" },
		{ "SRV-B111", "SRV-A111", "SRV-S111", "SRV-M111", "SRV-T111", "SRV-G111", "SRV-U111" },
		{ "SRV-B112", "SRV-A112", "SRV-S112", "SRV-M112", "SRV-T112", "SRV-G112", "SRV-U112" },
		{ "SRV-B113", "SRV-A113", "SRV-S113", "SRV-M113", "SRV-T113", "SRV-G113", "SRV-U113" },
		{ "SRV-B114", "SRV-A114", "SRV-S114", "SRV-M114", "SRV-T114", "SRV-G114", "SRV-U114" },
		{ "SRV-B115", "SRV-A115", "SRV-S115", "SRV-M115", "SRV-T115", "SRV-G115", "SRV-U115" },
	};
	int k = (int)o->kind - (int)POP_REPLACE_BODY;
	*code = codes[k][s];
	const char *id = f->family ? f->family : o->w[0].s;   /* a method's family: every changed method */
	bool many = f->family != NULL;
	const char *self = f->method ? " (counted after `self`)" : "";
	bool req = o->kind == POP_ADD_CLAUSE || o->kind == POP_REMOVE_CLAUSE ? strcmp(o->w[1].s, "requires") == 0 : false;
	const char *added = f->added_effects ? f->added_effects : "", *removed = f->removed_effects ? f->removed_effects : "";
	bool fx = added[0] || removed[0];
	int d = D_UNKNOWN;
	switch (s) {
	case S_BEHAVIOR:
		d = D_CHANGE;
		switch (o->kind) {
		case POP_REPLACE_BODY:
			snprintf(st, size, "Operation %d replaces the body of `%s`; the patched program re-verified%s%s.", i, id,
			    added[0] ? ", and the function now performs " : "", added);
			break;
		case POP_REPLACE_EXPR:
			snprintf(st, size, "Operation %d replaces expression `%s`%s%s%s; the patched program re-verified%s%s.", i, id,
			    f->clause ? " in a contract clause (`" : "", f->clause ? f->clause : "", f->clause ? "`)" : "",
			    added[0] ? ", and its function now performs " : "", added);
			break;
		case POP_ADD_CLAUSE:
			snprintf(st, size, req ? "Operation %d adds a precondition to `%s`: a call whose arguments violate it now fails with a contract status."
			    : "Operation %d adds a postcondition to `%s`, checked after every call: a result violating it now fails with a contract status.", i, id);
			break;
		case POP_REMOVE_CLAUSE:
			snprintf(st, size, req ? "Operation %d removes precondition %s of `%s`: calls it refused now run the body."
			    : "Operation %d removes postcondition %s of `%s`: a result it refused is now returned.", i, o->w[2].s, id);
			break;
		case POP_ADD_FUNCTION:
			d = D_NO_CHANGE;
			if (f->callers)
				snprintf(st, size, "Operation %d adds a function after `%s`; adding it changes no existing function: the patched "
				    "program calls it at %d site%s, all written by other operations of this patch, which review them.", i, id,
				    f->callers, f->callers == 1 ? "" : "s");
			else
				snprintf(st, size, "Operation %d adds a function after `%s` that nothing calls; every existing function keeps its behaviour.", i, id);
			break;
		case POP_DELETE_FUNCTION:
			d = D_NO_CHANGE;
			if (f->callers)
				snprintf(st, size, "Operation %d deletes `%s`; deleting it changes no remaining function: the program called it "
				    "at %d site%s, all replaced by other operations of this patch, which review them.", i, id,
				    f->callers, f->callers == 1 ? "" : "s");
			else
				snprintf(st, size, "Operation %d deletes `%s`, which nothing called; every remaining function keeps its behaviour.", i, id);
			break;
		case POP_ADD_PARAM:
			if (o->arg)
				snprintf(st, size, "Operation %d adds parameter `%s` to `%s` at position %s%s; %d call site%s here now pass%s `%s`%s; the patched "
				    "program re-verified.", i, o->text, id, o->w[1].s, self, f->sites, f->sites == 1 ? "" : "s", f->sites == 1 ? "es" : "", o->arg,
				    f->callers > f->sites ? " (the others are rewritten by other operations of this patch, which review them)" : "");
			else
				snprintf(st, size, "Operation %d adds parameter `%s` to `%s` at position %s%s; %s %d call site%s here are rewritten by other "
				    "operations of this patch, which review them; the patched program re-verified.", i, o->text, id, o->w[1].s, self,
				    many ? "their" : "its", f->callers, f->callers == 1 ? "" : "s");
			break;
		case POP_ADD_CASE:
			d = D_NO_CHANGE;
			if (f->sites)
				snprintf(st, size, "Operation %d adds a case to `%s`, which no existing value holds; %d match%s over it without a catch-all "
				    "arm %s rewritten by other operations of this patch, which review them.", i, id, f->sites, f->sites == 1 ? "" : "es",
				    f->sites == 1 ? "is" : "are");
			else
				snprintf(st, size, "Operation %d adds a case to `%s`, which no existing value holds; every match over it has a catch-all arm, "
				    "so every existing function keeps its behaviour.", i, id);
			break;
		case POP_REMOVE_PARAM:
			d = D_NO_CHANGE;
			if (f->sites)
				snprintf(st, size, "Operation %d removes parameter %s%s of `%s`, which %s no longer read; the argument%s "
				    "dropped at %d call site%s here %s a name, literal or projection (no call, effect or failure)%s.", i, o->w[1].s, self, id,
				    many ? "their bodies and contracts" : "its body and contracts", f->sites == 1 ? "" : "s", f->sites, f->sites == 1 ? "" : "s",
				    f->sites == 1 ? "was" : "were each",
				    f->callers > f->sites ? "; the other calls are rewritten by other operations of this patch, which review them" : "");
			else
				snprintf(st, size, "Operation %d removes parameter %s%s of `%s`, which %s no longer read; no call here drops "
				    "an argument: %s.", i, o->w[1].s, self, id, many ? "their bodies and contracts" : "its body and contracts",
				    f->callers ? "other operations of this patch rewrite the calls, and review them" : many ? "nothing here calls them"
				    : "nothing here calls it");
			break;
		case POP_REMOVE_CASE:
			d = D_NO_CHANGE;
			snprintf(st, size, "Operation %d removes case `%s` of `%s`, which nothing in this file builds; the %d match arm%s or alternative%s "
			    "removed with it matched no value built here.", i, o->w[1].s, id, f->sites, f->sites == 1 ? "" : "s", f->sites == 1 ? "" : "s");
			break;
		default:
			snprintf(st, size, "Operation %d changes the type of parameter %s of `%s` from `%s` to `%s`; the body re-verified with the new type.", i,
			    o->w[1].s, id, o->w[2].s, o->to.s);
			break;
		}
		break;
	case S_API:
		d = D_CHANGE;
		if (o->kind == POP_REPLACE_EXPR && f->clause) {
			snprintf(st, size, "Operation %d changes a contract clause (`%s`), which is part of its function's interface; identity and signature stay.", i,
			    f->clause);
		} else if (o->kind == POP_REPLACE_BODY || o->kind == POP_REPLACE_EXPR) {
			d = D_NO_CHANGE;
			snprintf(st, size, "Operation %d keeps the stable identity, signature and contract of the function it changes.", i);
		} else if (o->kind == POP_ADD_CLAUSE || o->kind == POP_REMOVE_CLAUSE) {
			snprintf(st, size, "Operation %d changes the contract of `%s`, which is part of its interface; its identity and signature stay.", i, id);
		} else if (o->kind == POP_ADD_FUNCTION) {
			snprintf(st, size, "Operation %d declares a new function identity.", i);
		} else if (o->kind == POP_DELETE_FUNCTION) {
			snprintf(st, size, "Operation %d removes the identity `%s` from the module.", i, id);
		} else if (o->kind == POP_ADD_CASE) {
			snprintf(st, size, "Operation %d adds a case identity to the variant `%s`; the variant and its other cases keep theirs.", i, id);
		} else if (o->kind == POP_ADD_PARAM) {
			snprintf(st, size, "Operation %d changes the signature of `%s` (a parameter added); %s.", i, id,
			    many ? "their stable identities stay" : "its stable identity stays");
		} else if (o->kind == POP_REMOVE_PARAM) {
			snprintf(st, size, "Operation %d changes the signature of `%s` (parameter %s%s removed); %s.", i, id, o->w[1].s,
			    f->method ? ", counted after `self`," : "",
			    many ? "their stable identities stay" : "its stable identity stays");
		} else if (o->kind == POP_REMOVE_CASE) {
			snprintf(st, size, "Operation %d removes the case `%s` and its identity from the variant `%s`; the variant and its other cases keep theirs.",
			    i, o->w[1].s, id);
		} else {
			snprintf(st, size, "Operation %d changes the signature of `%s`; its stable identity stays.", i, id);
		}
		break;
	case S_SECURITY:
		d = fx ? D_CHANGE : D_NO_CHANGE;
		/* a family: the members whose effects changed, named */
		if (added[0] && removed[0])
			snprintf(st, size, "Operation %d: the changed code%s%s now performs %s and no longer %s (each within the declared `uses`).", i,
			    f->effects_in ? " of " : "", f->effects_in ? f->effects_in : "", added, removed);
		else if (added[0])
			snprintf(st, size, "Operation %d: the changed code%s%s now performs %s, which it did not before (within the declared `uses`).", i,
			    f->effects_in ? " of " : "", f->effects_in ? f->effects_in : "", added);
		else if (removed[0])
			snprintf(st, size, "Operation %d: the changed code%s%s no longer performs %s.", i, f->effects_in ? " of " : "",
			    f->effects_in ? f->effects_in : "", removed);
		else
			snprintf(st, size, "Operation %d leaves the effects the changed code performs unchanged, as checked on the patched program.", i);
		break;
	case S_MEMORY:
		d = o->kind == POP_REPLACE_BODY || o->kind == POP_REPLACE_EXPR || o->kind == POP_PARAM_TYPE || o->kind == POP_ADD_PARAM ||
		    o->kind == POP_ADD_CASE || o->kind == POP_REMOVE_PARAM || o->kind == POP_REMOVE_CASE ? D_UNKNOWN : D_NO_CHANGE;
		if (o->kind == POP_ADD_CASE || o->kind == POP_REMOVE_CASE)
			snprintf(st, size, "Operation %d %s a case whose payload the re-verification checked; the variant's cleanup plans are not compared.", i,
			    o->kind == POP_ADD_CASE ? "adds" : "removes");
		else if (o->kind == POP_REMOVE_PARAM)
			snprintf(st, size, "Operation %d removes a parameter: a value a call passed is now released by the caller, as the re-verification "
			    "checked; the cleanup plans are not compared.", i);
		else
			snprintf(st, size, d == D_UNKNOWN ? "Operation %d changes code whose ownership and cleanup the re-verification checked; the cleanup plans are not compared."
			    : "Operation %d leaves the checked ownership and cleanup of every remaining function's values unchanged.", i);
		break;
	case S_TARGET:
		d = D_CHANGE;
		snprintf(st, size, "Operation %d changes the compiled program, and so its artifacts.", i);
		break;
	case S_MIGRATION:
		if (o->kind == POP_ADD_CLAUSE && req) {
			d = D_MIGRATION;
			snprintf(st, size, "Operation %d requires every caller of `%s` (%d call site%s here) to establish the new precondition, or fail.", i, id,
			    f->callers, f->callers == 1 ? "" : "s");
		} else if (o->kind == POP_REMOVE_CLAUSE && !req) {
			d = D_MIGRATION;
			snprintf(st, size, "Operation %d weakens what `%s` guarantees: callers relying on the removed postcondition (%d call site%s here) must stop.",
			    i, id, f->callers, f->callers == 1 ? "" : "s");
		} else if (o->kind == POP_REPLACE_EXPR && f->clause) {
			d = D_MIGRATION;
			bool pre = strcmp(f->clause, "requires") == 0;
			snprintf(st, size, pre ? "Operation %d changes a precondition, which may now be stronger: callers (%d call site%s here) may now fail it."
			    : "Operation %d changes a postcondition, which may now be weaker: callers relying on it (%d call site%s here) must be reviewed.", i,
			    f->callers, f->callers == 1 ? "" : "s");
		} else if (o->kind == POP_PARAM_TYPE) {
			d = D_MIGRATION;
			snprintf(st, size, "Operation %d requires every caller of `%s` to pass the new parameter type (%d call site%s here re-verified).", i, id,
			    f->callers, f->callers == 1 ? "" : "s");
		} else if (o->kind == POP_ADD_PARAM) {
			d = D_MIGRATION;
			snprintf(st, size, "Operation %d requires every caller of `%s` to pass the new argument: the %d call site%s here re-verified, "
			    "callers outside this file are not reviewed.", i, id, f->callers, f->callers == 1 ? "" : "s");
		} else if (o->kind == POP_ADD_CASE) {
			d = D_MIGRATION;
			snprintf(st, size, "Operation %d requires every match over `%s` outside this file without a catch-all arm to handle the new case; "
			    "those matches are not reviewed.", i, id);
		} else if (o->kind == POP_DELETE_FUNCTION) {
			d = D_MIGRATION;
			snprintf(st, size, "Operation %d requires consumers of `%s` outside this file, which are not reviewed, to stop using it.", i, id);
		} else if (o->kind == POP_REMOVE_PARAM) {
			d = D_MIGRATION;
			snprintf(st, size, "Operation %d requires every caller of `%s` to drop argument %s%s: the %d call site%s here re-verified, callers "
			    "outside this file are not reviewed.", i, id, o->w[1].s, self, f->callers, f->callers == 1 ? "" : "s");
		} else if (o->kind == POP_REMOVE_CASE) {
			d = D_MIGRATION;
			snprintf(st, size, "Operation %d requires code outside this file that builds or matches case `%s` of `%s` to stop; it is not reviewed.",
			    i, o->w[1].s, id);
		} else if (o->kind == POP_ADD_CLAUSE || o->kind == POP_REMOVE_CLAUSE || o->kind == POP_ADD_FUNCTION) {
			d = D_NO_CHANGE;
			snprintf(st, size, "Operation %d %s; no caller needs to change.", i, o->kind == POP_ADD_FUNCTION ? "only adds a declaration"
			    : req ? "weakens a precondition" : "strengthens a guarantee");
		} else {
			d = D_UNKNOWN;
			snprintf(st, size, "Operation %d changes behaviour callers outside this file may depend on; they are not reviewed.", i);
		}
		break;
	default:
		if (f->unsafe_after > f->unsafe_before) {
			d = D_CHANGE;
			snprintf(st, size, "Operation %d adds %d `unsafe` block%s.", i, f->unsafe_after - f->unsafe_before,
			    f->unsafe_after - f->unsafe_before == 1 ? "" : "s");
		} else {
			d = D_UNKNOWN;
			snprintf(st, size, "Operation %d adds no unsafe source construct; generated, native and external code is not analyzed.", i);
		}
		break;
	}
	*disposition = d;
}
