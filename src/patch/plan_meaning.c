/*
 * plan_meaning.c — after the re-check: does the patched program mean what
 * the patch says and no more (patch_same_meaning)?  A v1-v3 patch keeps
 * every declaration and every expression the plan did not touch (G108 on a
 * difference; G105 for a new effect under `require no-new-effects`); a v4
 * patch keeps the declarations less the deleted functions plus the added
 * ones, and its fragments stay whole expressions in place (plan_v4.c's
 * patch_fragments_whole).  Split from plan.c (rev35).
 */
#include "plan_int.h"

#include <string.h>

static bool
has_effect(Sema *S, const char *e)
{
	for (SymId i = 0; i < S->syms.len; i++) {
		Sym *y = sema_sym(S, i);
		for (int k = 0; k < y->neffects; k++)
			if (strcmp(y->effects[k], e) == 0)
				return true;
	}
	return false;
}

bool
patch_has_v4_edit(const SPatch *p)
{
	for (int i = 0; i < p->nops; i++)
		if (p->ops[i].kind >= POP_REPLACE_BODY)
			return true;
	return false;
}

/* v4: the declarations are those of the original, less the deleted
 * functions, plus one function for each add-function, each keeping its
 * kind; the expressions may change. */
static bool
same_declarations(const SPatch *p, Sema *before, Sema *after, DiagSink *d)
{
	int added = 0, deleted = 0, want_added = 0;
	for (int o = 0; o < p->nops; o++)
		want_added += p->ops[o].kind == POP_ADD_FUNCTION;
	for (SymId i = 0; i < before->syms.len; i++) {
		Sym *x = sema_sym(before, i);
		if (x->prelude || x->origin)
			continue;
		SymId j = sema_strmap_get(&after->ids, x->id);
		int gone = -1;
		for (int o = 0; o < p->nops; o++)
			if (p->ops[o].kind == POP_DELETE_FUNCTION && strcmp(p->ops[o].w[0].s, x->id) == 0)
				gone = o;
		if (gone >= 0 && j < 0) {
			deleted++;
			continue;
		}
		if (gone >= 0) {
			/* deleted, and declared again by a fragment: no way to change a signature */
			Diag *g = diag_report(d, DIAG_G108, &p->ops[gone].line, "semantic patch changed meaning outside its admitted delta: `%s` is "
			    "deleted by this patch and declared again by a fragment", x->id);
			diag_set_help(g, "a function keeps its stable id only when edited in place (`replace-body`, `add-clause`, "
			    "`change-parameter-type`); to replace it, give the new function another `@id` and replace its callers' calls");
			return false;
		}
		if (j < 0 || sema_sym(after, j)->kind != x->kind) {
			Diag *g = diag_report(d, DIAG_G108, NULL, "semantic patch changed meaning outside its admitted delta: `%s` %s", x->id,
			    j < 0 ? "no longer exists" : "changed kind");
			diag_set_help(g, "a fragment may change the selected function only; declare other changes as their own operations");
			return false;
		}
	}
	for (SymId j = 0; j < after->syms.len; j++) {
		Sym *y = sema_sym(after, j);
		if (y->prelude || y->origin || sema_strmap_get(&before->ids, y->id) >= 0)
			continue;
		const Span *at = NULL;
		for (int o = 0; o < p->nops && !at; o++)
			if (p->ops[o].kind == POP_ADD_FUNCTION)
				at = &p->ops[o].line;
		if (y->kind != SK_FN || ++added > want_added) {
			Diag *g = diag_report(d, DIAG_G108, at, "semantic patch changed meaning outside its admitted delta: it declares `%s`", y->id);
			diag_set_help(g, "`add-function` adds exactly one function; other fragments add no declaration");
			return false;
		}
	}
	if (added != want_added) {
		const Span *at = NULL;
		for (int o = 0; o < p->nops && !at; o++)
			if (p->ops[o].kind == POP_ADD_FUNCTION)
				at = &p->ops[o].line;
		Diag *g = diag_report(d, DIAG_G108, at, "semantic patch changed meaning outside its admitted delta: %d function%s added, %d expected",
		    added, added == 1 ? "" : "s", want_added);
		diag_set_help(g, "an `add-function` fragment declares exactly one function with a new stable id");
		return false;
	}
	(void)deleted;
	return true;
}

typedef VEC(const char *) IdSeq;

/* remove-parameter and remove-case: their edits take only what they
 * select (arguments, arms), so they do not make a function edited. */
static bool
removes(PatchOpKind k)
{
	return k == POP_REMOVE_PARAM || k == POP_REMOVE_CASE;
}

/* An id sequence, less the expressions inside the skipped ranges (the
 * arguments add-parameter inserted, in the patched source). */
typedef struct SeqWalk {
	IdSeq *seq;
	const Span *skip;
	int nskip;
} SeqWalk;

/* The stable id each expression of a function resolves to ("" for none), in walk order. */
static void
seq_expr(Planner *P, const Expr *e)
{
	SeqWalk *w = P->user;
	for (int i = 0; i < w->nskip; i++)
		if (w->skip[i].start <= e->span.start && e->span.end <= w->skip[i].end)
			return;
	SymId y = sema_expr_sym(P->S, e->id);
	const char *id = y >= 0 ? sema_sym(P->S, y)->id : "";
	VEC_PUSH(*w->seq, id);
}

static void
id_seq(Sema *S, const FnDecl *f, IdSeq *out, const Span *skip, int nskip)
{
	Planner P;
	SeqWalk w = { out, skip, nskip };
	patch_planner_init(&P, S);
	P.user = &w;
	P.on_expr = seq_expr;
	patch_walk_fn(&P, f);
}

/* v4: every function no v4 edit touches has the same expressions, each
 * resolving to the declaration with the same stable id (G108).  The
 * edits of add-parameter do not count as touching: a function that gains
 * the parameter or an argument is compared without the arguments added. */
static bool
same_untouched(const SPatch *p, const PatchPlan *pl, Sema *before, Sema *after, DiagSink *d)
{
	VEC(Span) added = {0}, removed = {0};
	int64_t shift = 0;
	for (int k = 0; pl && k < pl->edits.len; k++) {
		const PatchEdit *e = &pl->edits.items[k];
		size_t tl = strlen(e->text);
		if (p->ops[e->op].kind == POP_ADD_PARAM) {
			Span s = { (uint32_t)((int64_t)e->start + shift), (uint32_t)((int64_t)e->start + shift + (int64_t)tl) };
			VEC_PUSH(added, s);
		} else if (removes(p->ops[e->op].kind)) {
			Span s = { e->start, e->end };   /* in the base source */
			VEC_PUSH(removed, s);
		}
		shift += (int64_t)tl - (int64_t)(e->end - e->start);
	}
	bool ok = true;
	for (SymId i = 0; i < before->syms.len && ok; i++) {
		Sym *x = sema_sym(before, i);
		if (x->prelude || x->origin || !x->fn)
			continue;
		SymId j = sema_strmap_get(&after->ids, x->id);
		if (j < 0 || !sema_sym(after, j)->fn)
			continue;   /* deleted (same_declarations checked) */
		bool touched = false, gains = false;
		for (int k = 0; pl && k < pl->edits.len && !touched; k++) {
			const PatchEdit *e = &pl->edits.items[k];
			bool in = x->span.start <= e->start && e->end <= x->span.end;
			touched = in && p->ops[e->op].kind >= POP_REPLACE_BODY && p->ops[e->op].kind != POP_ADD_PARAM && !removes(p->ops[e->op].kind);
			gains |= in && (p->ops[e->op].kind == POP_ADD_PARAM || removes(p->ops[e->op].kind));
		}
		if (touched)
			continue;
		IdSeq u = {0}, v = {0};
		id_seq(before, x->fn, &u, removed.items, removed.len);
		id_seq(after, sema_sym(after, j)->fn, &v, added.items, added.len);
		bool same = u.len == v.len;
		for (int k = 0; same && k < u.len; k++)
			same = strcmp(u.items[k], v.items[k]) == 0;
		VEC_FREE(u);
		VEC_FREE(v);
		if (!same && gains) {
			const Span *at = NULL;
			bool adds = false;
			for (int o = 0; o < p->nops && !at; o++)
				if ((p->ops[o].kind == POP_ADD_PARAM || removes(p->ops[o].kind)) && strcmp(p->ops[o].w[0].s, x->id) == 0) {
					at = &p->ops[o].line;
					adds = p->ops[o].kind == POP_ADD_PARAM;
				}
			Diag *g = diag_report(d, DIAG_G108, at, "semantic patch changed meaning outside its admitted delta: a reference in `%s`, "
			    "which %s, now resolves to another declaration", x->id, adds || !at ? "gains a parameter or an argument"
			    : "loses a parameter, an argument or a match arm");
			diag_set_help(g, "the new parameter's name hides a declaration the function uses; choose another name");
			ok = false;
		} else if (!same) {
			Diag *g = diag_report(d, DIAG_G108, NULL,
			    "semantic patch changed meaning outside its admitted delta: a reference in `%s`, which no operation edits, now resolves to another declaration",
			    x->id);
			diag_set_help(g, "a new name shadows or is shadowed by another declaration; choose another name");
			ok = false;
		}
	}
	VEC_FREE(added);
	VEC_FREE(removed);
	return ok;
}

bool
patch_same_meaning(const SPatch *p, PatchPlan *pl, Sema *before, Sema *after, DiagSink *d)
{
	const Module *a = before->m, *b = after->m;
	if (patch_has_v4_edit(p)) {
		if (!same_declarations(p, before, after, d) || !patch_fragments_whole(p, pl, after, d) || !patch_added_whole(p, pl, before, after, d) ||
		    !patch_removed_whole(p, before, after, d) || !same_untouched(p, pl, before, after, d))
			return false;
	} else if (a->nexprs != b->nexprs) {
		diag_report(d, DIAG_G108, NULL, "semantic patch changed meaning outside its admitted identity-scoped delta");
		return false;
	}
	for (uint32_t i = 0; i < a->nexprs && !patch_has_v4_edit(p); i++) {
		SymId x = sema_expr_sym(before, i), y = sema_expr_sym(after, i);
		if ((x < 0) != (y < 0) || (x >= 0 && strcmp(sema_sym(before, x)->id, sema_sym(after, y)->id) != 0 &&
		    !(p->version == 3 && strcmp(sema_sym(before, x)->id, p->ops[0].w[2].s) == 0 &&
		    strcmp(sema_sym(after, y)->id, p->ops[0].to.s) == 0))) {
			Diag *g = diag_report(d, DIAG_G108, NULL, "semantic patch changed meaning outside its admitted identity-scoped delta: a reference now resolves to another declaration");
			diag_set_help(g, "a new name shadows or is shadowed by another declaration; choose another name");
			return false;
		}
	}
	if (p->no_new_effects) {
		for (SymId i = 0; i < after->syms.len; i++) {
			Sym *y = sema_sym(after, i);
			for (int k = 0; k < y->neffects; k++)
				if (!has_effect(before, y->effects[k])) {
					const Span *s = NULL;
					for (int o = 0; o < p->nops; o++)
						if (p->ops[o].kind == POP_NO_NEW_EFFECTS)
							s = &p->ops[o].line;
					diag_report(d, DIAG_G105, s, "semantic patch violates requirement `no-new-effects` (`%s` is new)", y->effects[k]);
					return false;
				}
		}
	}
	return true;
}
