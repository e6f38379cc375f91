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

/* A reference of a function: the stable id it resolves to ("" for none: a
 * local binding, a literal) and its expression. */
typedef struct SeqRef {
	const char *id;
	const Expr *e;
} SeqRef;
typedef VEC(SeqRef) IdSeq;

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
	/* the spans are the edits' (sorted, disjoint): only the last one
	 * starting at or before e can hold it (a scan of all of them made a
	 * family of thousands of methods cost expressions × edits; qa40) */
	int lo = 0, hi = w->nskip;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (w->skip[mid].start <= e->span.start)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0 && e->span.end <= w->skip[lo - 1].end)
		return;
	SymId y = sema_expr_sym(P->S, e->id);
	SeqRef r = { y >= 0 ? sema_sym(P->S, y)->id : "", e };
	VEC_PUSH(*w->seq, r);
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

/* A reference's spelling: a name's, a called function's (NULL otherwise). */
static const char *
ref_name(const SeqRef *r)
{
	if (!r)
		return NULL;
	if (r->e->kind == EXPR_NAME)
		return r->e->u.name.s;
	return r->e->kind == EXPR_CALL ? r->e->u.call.callee.s : NULL;
}

/*
 * G108 for a function no operation edits (mend38: the help says what the
 * add and remove operations did to it, ops[] the first of each kind, -1
 * none).  Their own edits are compared aside, so the one change they can
 * make is add-parameter's name hiding a declaration the body uses (its
 * reference now reaches the new parameter, a local binding).  Any other
 * change comes from a name another operation writes, a rename's new name
 * captured here by a local binding; removing a parameter, an argument or
 * an arm changes no reference of its own (a read parameter is G111).
 */
static void
report_changed(const SPatch *p, const char *fid, const SeqRef *was, const SeqRef *now, int gains_param, int gains_arg, int loses_param,
    int loses_arg, int loses_arm, DiagSink *d)
{
	int op = gains_param >= 0 ? gains_param : loses_param >= 0 ? loses_param : gains_arg >= 0 ? gains_arg : loses_arg >= 0 ? loses_arg : loses_arm;
	const char *what = op < 0 ? "no operation edits" : op == gains_param ? "gains a parameter" : op == loses_param ? "loses a parameter" :
	    op == gains_arg ? "gains an argument" : op == loses_arg ? "loses an argument" : "loses a match arm";
	/* an operation on x's own parameter list: the report points at its line */
	const Span *at = op >= 0 && (op == gains_param || op == loses_param) ? &p->ops[op].line : NULL;
	Diag *g = diag_report(d, DIAG_G108, at, "semantic patch changed meaning outside its admitted delta: a reference in `%s`, which %s, "
	    "now resolves to another declaration", fid, what);
	const char *name = ref_name(now);
	if (gains_param >= 0 && was && now && !*now->id && name && strcmp(name, p->ops[gains_param].w[2].s) == 0) {
		diag_set_help(g, "the new parameter `%s` hides `%s`, which `%s` uses; choose another name", name, was->id, fid);
		return;
	}
	if (op < 0) {
		diag_set_help(g, "a new name shadows or is shadowed by another declaration; choose another name");
		return;
	}
	const char *gone = op == gains_arg ? "the arguments it gains" : op == gains_param ? "the parameter and arguments it gains" :
	    op == loses_param ? "the parameter and arguments it loses" : op == loses_arg ? "the arguments it loses" : "the arms it loses";
	if (name && was && now && !*now->id)
		diag_set_help(g, "%s are compared aside; the change is `%s` here, which reached %s%s%s and now reaches a local binding of that "
		    "name: another operation's new name (a rename's) is captured here; choose another name", gone, name, *was->id ? "`" : "",
		    *was->id ? was->id : "a local binding", *was->id ? "`" : "");
	/* (not reached by any patch we found: a local binding shadows a
	 * declaration, never the reverse, and a rename's new name that hides
	 * another declaration is the check's T102; kept for the report) */
	else if (name && was && now)
		diag_set_help(g, "%s are compared aside; the change is `%s` here, which reached %s%s%s and now reaches `%s`: another operation's "
		    "new name hides what it reached; choose another name", gone, name, *was->id ? "`" : "", *was->id ? was->id : "a local binding",
		    *was->id ? "`" : "", now->id);
	else
		diag_set_help(g, "%s are compared aside; another operation's new name (a rename's) is captured here by a local binding or hides "
		    "a declaration; choose another name", gone);
}

/* v4: every function no v4 edit touches has the same expressions, each
 * resolving to the declaration with the same stable id (G108).  The
 * edits of add-parameter, remove-parameter and remove-case do not count as
 * touching: a function that gains or loses the parameter, an argument or
 * an arm is compared without them (report_changed says which). */
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
		/* what the add and remove operations do to x (the first of each):
		 * their edits are compared aside, so they do not make x edited */
		int gains_param = -1, gains_arg = -1, loses_param = -1, loses_arg = -1, loses_arm = -1;
		bool touched = false;
		/* the edits inside x: sorted by start, so from the first starting
		 * at or after x's start (not every edit per function; qa40) */
		int k0 = 0, hi = pl ? pl->edits.len : 0;
		while (k0 < hi) {
			int mid = k0 + (hi - k0) / 2;
			if (pl->edits.items[mid].start < x->span.start)
				k0 = mid + 1;
			else
				hi = mid;
		}
		for (int k = k0; pl && k < pl->edits.len && pl->edits.items[k].start <= x->span.end && !touched; k++) {
			const PatchEdit *e = &pl->edits.items[k];
			const PatchOp *o = &p->ops[e->op];
			bool in = x->span.start <= e->start && e->end <= x->span.end;
			touched = in && o->kind >= POP_REPLACE_BODY && o->kind != POP_ADD_PARAM && !removes(o->kind);
			bool own = in && strcmp(o->w[0].s, x->id) == 0;   /* x's own list, not a call or a match in it */
			int *slot = !in ? NULL : o->kind == POP_ADD_PARAM ? (own ? &gains_param : &gains_arg) :
			    o->kind == POP_REMOVE_PARAM ? (own ? &loses_param : &loses_arg) : o->kind == POP_REMOVE_CASE ? &loses_arm : NULL;
			if (slot && *slot < 0)
				*slot = e->op;
		}
		if (touched)
			continue;
		IdSeq u = {0}, v = {0};
		id_seq(before, x->fn, &u, removed.items, removed.len);
		id_seq(after, sema_sym(after, j)->fn, &v, added.items, added.len);
		int diff = -1;   /* the first reference that differs (u.len: one list ends first) */
		for (int k = 0; diff < 0 && k < u.len && k < v.len; k++)
			if (strcmp(u.items[k].id, v.items[k].id) != 0)
				diff = k;
		if (diff < 0 && u.len != v.len)
			diff = u.len < v.len ? u.len : v.len;
		if (diff >= 0) {
			report_changed(p, x->id, diff < u.len ? &u.items[diff] : NULL, diff < v.len ? &v.items[diff] : NULL, gains_param, gains_arg,
			    loses_param, loses_arg, loses_arm, d);
			ok = false;
		}
		VEC_FREE(u);
		VEC_FREE(v);
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
