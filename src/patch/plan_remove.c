/*
 * plan_remove.c — the v4 operations that take from a declaration
 * (docs/PATCH.md), the inverses of plan_add.c's: `remove-parameter` (the
 * n-th parameter of a module function, and the argument at that position
 * of every call that no other operation of the patch replaces) and
 * `remove-case` (a case of a variant, and the match arms that handle only
 * that case).
 *
 * Nothing that means something may vanish with them.  A parameter goes only
 * when the function's body, contracts and closures no longer read it; an
 * argument only when it is a name, a literal, a field projection of one, or
 * `!` of one, or a negated number literal (no call, no effect, nothing that
 * may trap); a case only when nothing outside the arms it takes along
 * constructs it or names it in a pattern.  Each refusal is G111 with the
 * structural id of the use, so the agent can replace that use in the same
 * patch (uses inside another operation's edit are that operation's).
 *
 * Items are removed by runs: a run written on lines of its own goes with
 * its lines; otherwise an item goes with the separator after it (before
 * it, when it is the last), and a list's only item leaves `()`.
 */
#include "plan_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../sema/types.h"

/* ---- removing a run of items ---- */

static bool
line_first(const char *src, uint32_t off)
{
	for (uint32_t i = spx_line_start(src, off); i < off; i++)
		if (src[i] != ' ' && src[i] != '\t')
			return false;
	return true;
}

/* After end: blanks, an optional separator (`,` or `|`), blanks, an
 * optional `//` comment, then the line's end: its offset; 0 otherwise. */
static uint32_t
line_rest(const char *src, uint32_t end)
{
	uint32_t i = end;
	while (src[i] == ' ' || src[i] == '\t')
		i++;
	if (src[i] == ',')
		i++;
	while (src[i] == ' ' || src[i] == '\t' || src[i] == '\r')
		i++;
	if (src[i] == '/' && src[i + 1] == '/')
		while (src[i] && src[i] != '\n')
			i++;
	return src[i] == '\n' ? i : 0;
}

/* The source range removing the run of items that starts at st and ends
 * (its last token) at en; next_st is the next item's start (unless last),
 * prev_en the previous item's end (unless first); [open, close] are the
 * list's brackets (a run that is the whole list leaves them empty). */
static Span
run_span(const char *src, uint32_t st, uint32_t en, uint32_t next_st, uint32_t prev_en, bool first, bool last, uint32_t open,
    uint32_t close, bool lines)
{
	Span at;
	uint32_t nl;
	if (lines && line_first(src, st) && (nl = line_rest(src, en)) != 0 && (!last || line_first(src, close))) {
		/* its lines, and the `//` lines directly above it (as delete-function's) */
		at.start = spx_line_start(src, st);
		while (at.start > 0 && open < at.start - 1) {
			uint32_t ps = spx_line_start(src, at.start - 1), k = ps;
			while (src[k] == ' ' || src[k] == '\t')
				k++;
			if (src[k] != '/' || src[k + 1] != '/')
				break;
			at.start = ps;
		}
		at.end = nl + 1;
	} else if (!last) {
		at.start = st;
		at.end = next_st;
	} else if (!first) {
		at.start = prev_en;
		at.end = en;
	} else {
		at.start = open + 1;
		at.end = close;
	}
	return at;
}

/* Is [s, e) inside an edit of another operation than P->op? */
static bool
replaced(const Planner *P, uint32_t s, uint32_t e)
{
	for (int i = 0; i < P->out->edits.len; i++) {
		const PatchEdit *x = &P->out->edits.items[i];
		if (x->op != P->op && x->start <= s && e <= x->end && x->end > x->start)
			return true;
	}
	return false;
}

/* Is [s, e) inside any edit (this operation's dropped arguments too)? */
static bool
edited(const Planner *P, uint32_t s, uint32_t e)
{
	for (int i = 0; i < P->out->edits.len; i++) {
		const PatchEdit *x = &P->out->edits.items[i];
		if (x->start <= s && e <= x->end && x->end > x->start)
			return true;
	}
	return false;
}

/* The function declaring span s (a stable id), or what. */
static const char *
holder_of(Sema *S, Span s, const char *what)
{
	const char *h = what;
	for (SymId k = 0; k < S->syms.len; k++) {
		Sym *y = sema_sym(S, k);
		if (y->fn && y->decl && y->span.start <= s.start && s.end <= y->span.end)
			h = y->id;
	}
	return h;
}

static char *
slice(const char *src, Span s)
{
	return spx_xstrndup(src + s.start, s.end - s.start);
}

/* ---- remove-parameter ---- */

bool
patch_plan_remove_param(Planner *P)
{
	const PatchOp *o = P->o;
	uint32_t at;
	SymId f = patch_param_target(P, false, &at);
	if (f < 0)
		return false;
	int ix = (int)strtoul(o->w[1].s, NULL, 10);
	SymId *fam;
	int nf = patch_family_selected_first(P->S, f, &fam);
	bool ok = true;
	for (int m = 0; m < nf && ok; m++) {
		Sym *y = sema_sym(P->S, fam[m]);
		const FnDecl *fn = y->fn;
		if (y->origin || !fn)
			continue;   /* another module's: its own patch's */
		List L = patch_list_in(P->src, y->name_span.end, fn->body ? fn->body->span.start : fn->header.end, false, at);
		if (!L.ok || (int)at >= fn->nparams) {
			ok = patch_stale_help(P, &o->w[0], "its parameter list could not be read", NULL);
			break;
		}
		/* the parameters' own spans: a type's `<K, V>` holds a comma the list's tokens would split at */
		const Param *pa = fn->params;
		int n = fn->nparams, k = (int)at;
		Span sp = run_span(P->src, pa[k].span.start, pa[k].span.end, k + 1 < n ? pa[k + 1].span.start : 0, k > 0 ? pa[k - 1].span.end : 0,
		    k == 0, k == n - 1, L.open, L.close, true);
		patch_add_edit(P, sp, "");
		P->out->edits.items[P->out->edits.len - 1].change = P->out->changes.len + 1;
		PatchChange *c = patch_v4_change(P, "parameter_removed", y, pa[k].name.s, ix);
		c->before_text = slice(P->src, pa[k].span);
	}
	free(fam);
	return ok;
}

/* What the walk over a removed parameter's function and calls found. */
typedef struct ParamScan {
	FamilyWalk fw;                      /* the function or the method's override family; per member the calls that drop the argument */
	const Expr *impure, *impure_call;   /* the first argument that may not vanish, and its call */
	int nimpure;
	const Expr *value;                  /* the first use of the function as a value */
	int nvalues;
	const Expr *unread;                 /* a call whose argument list could not be read */
} ParamScan;

static void
rm_call(Planner *P, const Expr *e)
{
	ParamScan *ps = P->user;
	if (replaced(P, e->span.start, e->span.end))
		return;
	if (e->kind == EXPR_NAME) {
		/* a function taken as a value (a method cannot be one: `v.m` without a call is no expression) */
		if (sema_expr_sym(P->S, e->id) == P->sym && ps->nvalues++ == 0)
			ps->value = e;
		return;
	}
	Expr *const *args;
	int nargs;
	int m = patch_family_call(P->S, e, ps->fw.fam, ps->fw.nf, &args, &nargs);
	if (m < 0)
		return;
	uint32_t ix = (uint32_t)strtoul(P->o->w[1].s, NULL, 10);
	if (ix >= (uint32_t)nargs) {
		ps->unread = ps->unread ? ps->unread : e;
		return;
	}
	const Expr *arg = args[ix];
	if (!ast_expr_plain(arg)) {
		if (ps->nimpure++ == 0) {
			ps->impure = arg;
			ps->impure_call = e;
		}
		return;
	}
	List L = patch_list_in(P->src, e->span.start, e->span.end, true, ix);
	if (!L.ok || L.nitems != nargs) {
		ps->unread = ps->unread ? ps->unread : e;
		return;
	}
	int n = L.nitems;
	Span at = run_span(P->src, L.want_at, L.want_end, L.next_at, L.prev_end, ix == 0, ix == (uint32_t)n - 1, L.open, L.close, true);
	patch_add_edit(P, at, "");
	P->out->edits.items[P->out->edits.len - 1].change = ps->fw.change[m];
	P->ci++;
	ps->fw.sites[m]++;
}

typedef struct UseScan {
	const Planner *P;
	HirSlot slot;
	const HirExpr *first;
	int n;
} UseScan;

static void
use_of(void *ctx, const HirExpr *e)
{
	UseScan *u = ctx;
	/* a read, a move, a call through the slot (rev37) or a closure's capture */
	if (!hir_expr_mentions(e, u->slot) || edited(u->P, e->span.start, e->span.end))
		return;
	if (u->n++ == 0)
		u->first = e;
}

/* Member y of the family (sites: its calls that drop the argument): G111
 * when its body, contracts or closures still read the parameter at slot
 * at, or when the calls hand it a resource. */
static bool
member_unused(Planner *P, const PatchOp *o, const Sym *y, uint32_t at, const PatchChange *c, int sites)
{
	const HirFunc *hf = patch_hir_fn(P->H, y->id);
	if (!hf || at >= (uint32_t)hf->nparams)
		return true;
	/* the body, contracts and closures must no longer read it (an argument
	 * this operation drops, as a recursive call's, is no use) */
	UseScan u = { P, at, NULL, 0 };
	HirVisitor v = { use_of, NULL, NULL, &u };
	hir_visit(hf, &v);
	if (u.n > 0) {
		Diag *g = diag_report(P->d, DIAG_G111, &o->w[1].span, "parameter `%s` of `%s` is still used (%d use%s, first "
		    "`declaration:%zu:%s:expression:%u`)", c->detail, y->id, u.n, u.n == 1 ? "" : "s", strlen(hf->id), hf->id, u.first->index);
		diag_set_help(g, "a parameter goes only when nothing reads it: replace its uses in the same patch (`replace-body function %s "
		    "with …`, or `replace-expression` of each use; `remove-clause` for a contract that names it)%s", y->id,
		    strcmp(y->id, o->w[0].s) != 0 ? "; the methods of an override family lose it together" : "");
		return false;
	}
	/* a resource the calls hand over would be released by each caller
	 * instead, so its finalizer's effects would move: a use of its own */
	if (sites > 0 && hf->locals[at].owned && !hf->locals[at].lent && sema_type_holds(P->S, hf->locals[at].type, false)) {
		Diag *g = diag_report(P->d, DIAG_G111, &o->w[1].span, "parameter `%s` of `%s` takes a resource (`%s`) from %d call%s: without it "
		    "each caller would release the resource itself, later, and its finalizer would run at another point", c->detail, y->id,
		    sema_type_name(P->S, hf->locals[at].type), sites, sites == 1 ? "" : "s");
		diag_set_help(g, "keep the parameter, or replace each call of `%s` in the same patch (`replace-expression`) with one that hands "
		    "the resource on where it should be released", y->id);
		return false;
	}
	return true;
}

static bool
remove_param_sites(Planner *P, const SPatch *p, int i)
{
	const PatchOp *o = &p->ops[i];
	SymId f = sema_strmap_get(&P->S->ids, o->w[0].s);
	uint32_t ix = (uint32_t)strtoul(o->w[1].s, NULL, 10);
	ParamScan ps;
	memset(&ps, 0, sizeof ps);
	patch_family_walk(P, p, i, f, &ps.fw, &ps, rm_call);
	bool ok = true;
	for (int m = 0; m < ps.fw.nf && ok; m++) {
		const Sym *y = sema_sym(P->S, ps.fw.fam[m]);
		if (ps.fw.change[m] == 0 || y->origin)
			continue;
		PatchChange *c = &P->out->changes.items[ps.fw.change[m] - 1];
		ok = member_unused(P, o, y, ix + (y->kind == SK_METHOD), c, c->sites);
	}
	patch_family_walk_free(&ps.fw);
	if (!ok)
		return false;
	if (ps.nvalues > 0) {
		Buf id = {0};
		if (!patch_expr_id_of(P->H, ps.value->span, &id))
			buf_puts(&id, "?");
		Diag *g = diag_report(P->d, DIAG_G111, &o->w[0].span, "`%s` is taken as a value %d time%s (first `%s` in `%s`); its type would lose "
		    "the parameter", o->w[0].s, ps.nvalues, ps.nvalues == 1 ? "" : "s", id.data, holder_of(P->S, ps.value->span, "a declaration"));
		diag_set_help(g, "replace each such use in the same patch (`replace-expression expression %s with …`) with a function of the new type", id.data);
		buf_free(&id);
		return false;
	}
	if (ps.nimpure > 0) {
		Buf a = {0}, call = {0};
		if (!patch_expr_id_of(P->H, ps.impure->span, &a))
			buf_puts(&a, "?");
		if (!patch_expr_id_of(P->H, ps.impure_call->span, &call))
			buf_puts(&call, "?");
		Diag *g = diag_report(P->d, DIAG_G111, &o->w[1].span, "the argument at position %u of %d call%s of `%s` may call, perform an effect or "
		    "fail, and would vanish with the parameter (first: argument `%s` of call `%s` in `%s`)", ix, ps.nimpure, ps.nimpure == 1 ? "" : "s",
		    o->w[0].s, a.data, call.data, holder_of(P->S, ps.impure_call->span, "a declaration"));
		diag_set_help(g, "only a name, a literal or a field projection is dropped: replace that call in the same patch, keeping what the "
		    "argument did (`replace-expression expression %s with …`, its arguments written without position %u)", call.data, ix);
		buf_free(&a);
		buf_free(&call);
		return false;
	}
	if (ps.unread) {
		Diag *g = diag_report(P->d, DIAG_G112, &o->w[0].span, "the argument list of a call of `%s` (source byte %u) could not be read",
		    o->w[0].s, ps.unread->span.start);
		diag_set_help(g, "replace that call in the same patch (`replace-expression`), which then writes its arguments");
		return false;
	}
	return true;
}

/* ---- remove-case ---- */

/* The case of variant y named by w (its stable id, else its name), or -1. */
static int
case_of(const Sym *y, const char *w)
{
	for (int c = 0; c < y->nom->ncases; c++)
		if (strcmp(y->nom->cases[c].id, w) == 0)
			return c;
	for (int c = 0; c < y->nom->ncases; c++)
		if (strcmp(y->nom->cases[c].name, w) == 0)
			return c;
	return -1;
}

bool
patch_plan_remove_case(Planner *P)
{
	Sema *S = P->S;
	const PatchOp *o = P->o;
	SymId owner;
	const char *mk;
	SymId v = patch_lookup_id(P, &o->w[0], &mk, &owner);
	if (v < 0 && !mk)
		return false;
	Sym *y = v >= 0 ? sema_sym(S, v) : NULL;
	if (!y || y->kind != SK_VARIANT || y->prelude || y->origin || !y->decl || y->decl->kind != DECL_VARIANT || !y->nom) {
		Diag *g = diag_report(P->d, DIAG_G107, &o->w[0].span, "`%s` is %s%s; `remove-case` takes a variant declared in this module", o->w[0].s,
		    !y ? "a " : y->prelude ? "the compiler-owned " : y->origin ? "the imported " : "a ", !y ? mk : patch_kind_name(y->kind));
		diag_set_help(g, "select a variant by the stable id `semaprax query <file> --kind variant` lists");
		return false;
	}
	int ci = case_of(y, o->w[1].s);
	int nc = y->decl->u.variant.ncases;
	if (ci < 0 || nc != y->nom->ncases) {
		Buf why = {0}, help = {0};
		buf_printf(&why, "`%s` has no case `%s`", y->name, o->w[1].s);
		buf_puts(&help, "write one of its cases' stable ids or names: ");
		for (int c = 0; c < y->nom->ncases; c++)
			buf_printf(&help, "%s`%s` (`%s`)", c ? ", " : "", y->nom->cases[c].id, y->nom->cases[c].name);
		bool r = patch_stale_help(P, &o->w[1], why.data, help.data);
		buf_free(&why);
		buf_free(&help);
		return r;
	}
	if (nc == 1) {
		Buf why = {0};
		buf_printf(&why, "`%s` is the only case of `%s`, and a variant keeps at least one", y->nom->cases[ci].name, y->name);
		bool r = patch_stale_help(P, &o->w[1], why.data, "add the case that replaces it in the same patch (`add-case`), or keep the case");
		buf_free(&why);
		return r;
	}
	const CaseDecl *cs = y->decl->u.variant.cases;
	Span at = run_span(P->src, cs[ci].span.start, cs[ci].span.end, ci + 1 < nc ? cs[ci + 1].span.start : 0, ci > 0 ? cs[ci - 1].span.end : 0,
	    ci == 0, ci == nc - 1, 0, y->decl->span.end - 1, true);
	patch_add_edit(P, at, "");
	PatchChange *c = patch_v4_change(P, "case_removed", NULL, y->id, -1);
	c->before_text = slice(P->src, cs[ci].span);
	c->added_id = spx_xstrdup(y->nom->cases[ci].id);
	return true;
}

typedef struct CaseRm {
	const char *name;       /* the case's name */
	VEC(Span) gone;         /* the source the operation removes */
	const Expr *first;      /* the first use left: a construction, or the match holding a pattern */
	Span first_at;
	bool first_pat;
	int n;
} CaseRm;

static bool
names_case(Planner *P, const Pattern *pt)
{
	CaseRm *r = P->user;
	return pt && pt->kind == PAT_CASE && patch_type_sym(P, pt->u.case_.type.s) == P->sym && strcmp(pt->u.case_.case_name.s, r->name) == 0;
}

static void
rm_edit(Planner *P, Span at)
{
	CaseRm *r = P->user;
	patch_add_edit(P, at, "");
	VEC_PUSH(r->gone, at);
}

/* A match over the variant: the arms whose pattern is only the case go,
 * and the case's alternatives of an or-pattern that keeps others. */
static void
rm_match(Planner *P, const Expr *e)
{
	if (e->kind != EXPR_MATCH || replaced(P, e->span.start, e->span.end))
		return;
	TypeId t = sema_expr_type(P->S, e->u.match.scrutinee->id);
	if (t == T_ERR)
		return;
	const TypeInfo *ti = sema_type_info(&P->S->types, t);
	if (ti->kind != TY_NOMINAL || (SymId)ti->decl != P->sym)
		return;
	int na = e->u.match.narms;
	const MatchArm *arms = e->u.match.arms;
	bool *whole = spx_xcalloc((size_t)na + 1, sizeof *whole);
	int nwhole = 0;
	for (int k = 0; k < na; k++) {
		const Pattern *pt = arms[k].pat;
		if (names_case(P, pt)) {
			whole[k] = true;
		} else if (pt && pt->kind == PAT_OR) {
			int hit = 0;
			for (int a = 0; a < pt->u.or.nalts; a++)
				hit += names_case(P, pt->u.or.alts[a]);
			whole[k] = hit == pt->u.or.nalts;
			/* runs of the case's alternatives (`A | Tri | B` keeps `A | B`) */
			for (int a = 0; !whole[k] && hit && a < pt->u.or.nalts;) {
				if (!names_case(P, pt->u.or.alts[a])) {
					a++;
					continue;
				}
				int b = a;
				while (b + 1 < pt->u.or.nalts && names_case(P, pt->u.or.alts[b + 1]))
					b++;
				Pattern *const *al = pt->u.or.alts;
				int m = pt->u.or.nalts;
				rm_edit(P, run_span(P->src, al[a]->span.start, al[b]->span.end, b + 1 < m ? al[b + 1]->span.start : 0,
				    a > 0 ? al[a - 1]->span.end : 0, a == 0, b == m - 1, 0, 0, false));
				P->ci++;
				a = b + 1;
			}
		}
		nwhole += whole[k];
	}
	/* whole arms by runs; a match left without arms is the re-check's (it cannot verify) */
	for (int k = 0; k < na && nwhole < na;) {
		if (!whole[k]) {
			k++;
			continue;
		}
		int j = k;
		while (j + 1 < na && whole[j + 1])
			j++;
		rm_edit(P, run_span(P->src, arms[k].span.start, arms[j].span.end, j + 1 < na ? arms[j + 1].span.start : 0,
		    k > 0 ? arms[k - 1].span.end : 0, k == 0, j == na - 1, 0, e->u.match.close.start, true));
		P->ci += j - k + 1;
		k = j + 1;
	}
	free(whole);
}

static bool
in_gone(const CaseRm *r, Span s)
{
	for (int i = 0; i < r->gone.len; i++)
		if (r->gone.items[i].start <= s.start && s.end <= r->gone.items[i].end)
			return true;
	return false;
}

static void
use_left(Planner *P, const Expr *at, Span s, bool pat)
{
	CaseRm *r = P->user;
	if (in_gone(r, s) || replaced(P, s.start, s.end))
		return;
	if (r->n++ == 0) {
		r->first = at;
		r->first_at = s;
		r->first_pat = pat;
	}
}

static void
case_built(Planner *P, const Expr *e)
{
	CaseRm *r = P->user;
	if (e->kind == EXPR_VARIANT && sema_expr_sym(P->S, e->id) == P->sym && strcmp(e->u.variant.case_name.s, r->name) == 0)
		use_left(P, e, e->span, false);
}

static void
case_named(Planner *P, const Pattern *pt)
{
	if (names_case(P, pt))
		use_left(P, P->parent, pt->span, true);
}

static bool
remove_case_sites(Planner *P, const SPatch *p, int i, PatchChange *c)
{
	const PatchOp *o = &p->ops[i];
	SymId v = sema_strmap_get(&P->S->ids, o->w[0].s);
	Sym *y = sema_sym(P->S, v);
	int ci = case_of(y, o->w[1].s);
	CaseRm r;
	memset(&r, 0, sizeof r);
	r.name = y->nom->cases[ci].name;
	P->user = &r;
	patch_walk_op(P, p, i, v, rm_match);
	c->sites = P->ci;
	P->on_expr = case_built;
	P->on_pat = case_named;
	patch_walk_module(P);
	P->on_expr = NULL;
	P->on_pat = NULL;
	P->user = NULL;
	VEC_FREE(r.gone);
	if (r.n == 0)
		return true;
	Buf id = {0};
	if (!r.first || !patch_expr_id_of(P->H, r.first->span, &id))
		buf_puts(&id, "?");
	Diag *g = diag_report(P->d, DIAG_G111, &o->w[1].span, "case `%s` of `%s` is still used: %d site%s build%s or name%s it (first %s `%s` in `%s`)",
	    r.name, o->w[0].s, r.n, r.n == 1 ? "" : "s", r.n == 1 ? "s" : "", r.n == 1 ? "s" : "", r.first_pat ? "a pattern of the match" : "the construction", id.data,
	    holder_of(P->S, r.first_at, "a declaration"));
	if (r.n == 1 && r.first_pat)
		diag_set_help(g, "only an arm whose pattern is the case (or one of its `|` alternatives) goes with it; replace that match in the same "
		    "patch (`replace-expression expression %s with …`) without the case", id.data);
	else
		diag_set_help(g, "nothing may build or name the case outside the arms that go with it: replace each such expression in the same patch "
		    "(`replace-expression expression %s with …`)", id.data);
	buf_free(&id);
	return false;
}

bool
patch_v4_remove_sites(Planner *P, const SPatch *p)
{
	bool ok = true;
	for (int i = 0; i < p->nops; i++) {
		if (p->ops[i].kind != POP_REMOVE_PARAM && p->ops[i].kind != POP_REMOVE_CASE)
			continue;
		PatchChange *c = patch_v4_change_of(P, i);
		if (!c || sema_strmap_get(&P->S->ids, p->ops[i].w[0].s) < 0)
			continue;
		ok &= p->ops[i].kind == POP_REMOVE_PARAM ? remove_param_sites(P, p, i) : remove_case_sites(P, p, i, c);
	}
	return ok;
}

/* ---- after the re-check ---- */

bool
patch_removed_whole(const SPatch *p, Sema *before, Sema *after, DiagSink *d)
{
	for (int i = 0; i < p->nops; i++) {
		const PatchOp *o = &p->ops[i];
		if (o->kind != POP_REMOVE_PARAM && o->kind != POP_REMOVE_CASE)
			continue;
		SymId x = sema_strmap_get(&before->ids, o->w[0].s), y = sema_strmap_get(&after->ids, o->w[0].s);
		if (x < 0 || y < 0)
			continue;   /* same_declarations reported it */
		const Sym *u = sema_sym(before, x), *v = sema_sym(after, y);
		bool same = true;
		if (o->kind == POP_REMOVE_PARAM) {
			if (!u->fn || !v->fn)
				continue;
			/* every member of the family: its parameters less the one at the index */
			SymId *fam;
			int nf = patch_override_family(before, x, &fam);
			for (int m = 0; m < nf && same; m++) {
				const Sym *um = sema_sym(before, fam[m]);
				SymId ym = sema_strmap_get(&after->ids, um->id);
				if (um->origin || !um->fn || ym < 0 || !sema_sym(after, ym)->fn)
					continue;   /* another module's: the project check's */
				const FnDecl *fu = um->fn, *fv = sema_sym(after, ym)->fn;
				int ix = (int)strtoul(o->w[1].s, NULL, 10) + (um->kind == SK_METHOD);
				same = fv->nparams == fu->nparams - 1;
				for (int k = 0; same && k < fv->nparams; k++) {
					const char *a = fu->params[k < ix ? k : k + 1].name.s, *b = fv->params[k].name.s;
					same = a && b && strcmp(a, b) == 0;
				}
			}
			free(fam);
		} else {
			if (!u->nom || !v->nom)
				continue;
			int ci = case_of(u, o->w[1].s);
			same = ci >= 0 && v->nom->ncases == u->nom->ncases - 1;
			for (int k = 0; same && k < v->nom->ncases; k++)
				same = strcmp(u->nom->cases[k < ci ? k : k + 1].id, v->nom->cases[k].id) == 0;
		}
		if (!same) {
			Diag *g = diag_report(d, DIAG_G108, &o->line, "semantic patch changed meaning outside its admitted delta: after the operation on "
			    "line %u, `%s` does not have exactly its %s less the one removed", o->lineno, o->w[0].s,
			    o->kind == POP_REMOVE_PARAM ? "parameters" : "cases, each keeping its stable id,");
			diag_set_help(g, "another operation of the patch changes the same list; remove and add in separate patches");
			return false;
		}
	}
	return true;
}
