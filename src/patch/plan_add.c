/*
 * plan_add.c — the v4 operations that add to a declaration (docs/PATCH.md):
 * `add-parameter` (a parameter at a position of a module function, and
 * optionally its argument at every call that no other operation of the
 * patch replaces) and `add-case` (a case at the end of a variant).
 *
 * A list is found by its tokens, not by the syntax nodes: a parenthesised
 * argument's node stops inside its parentheses, and a comment may sit
 * anywhere.  A parameter list is the first `(` after the function's name,
 * matched forward; a call's argument list is the `)` that ends the call,
 * matched backward.  An item is inserted before the item at its position
 * (`x, `), or after the last one (`, x`), or alone.
 */
#include "plan_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lex/lex.h"
#include "../sema/types.h"

/* The list in src[from, to): the first `(` matched forward, or (backward)
 * the last token, a `)`, matched backward.  Item `want` (the place of the
 * new item) is remembered whatever the list's length. */
List
patch_list_in(const char *src, uint32_t from, uint32_t to, bool backward, uint32_t want)
{
	List L;
	memset(&L, 0, sizeof L);
	char *text = spx_xstrndup(src + from, to - from);
	Arena a;
	arena_init(&a);
	DiagSink q;
	diag_init(&q, "list", text, to - from);
	LexResult lx = {0};
	lex_source(&lx, text, to - from, &a, &q);
	int n = lx.ntoks;
	if (n > 0 && lx.toks[n - 1].kind == TOK_EOF)
		n--;
	int o = -1, c = -1;
	if (!lx.had_error && !lx.fatal && q.errors == 0 && n > 0) {
		if (backward && lx.toks[n - 1].kind == TOK_RPAREN) {
			c = n - 1;
			for (int i = c, depth = 0; i >= 0 && o < 0; i--) {
				uint8_t k = lx.toks[i].kind;
				depth += (k == TOK_RPAREN || k == TOK_RBRACE || k == TOK_RBRACKET) - (k == TOK_LPAREN || k == TOK_LBRACE || k == TOK_LBRACKET);
				if (depth == 0)
					o = i;
			}
		} else if (!backward) {
			for (int i = 0; i < n && o < 0; i++)
				if (lx.toks[i].kind == TOK_LPAREN)
					o = i;
			for (int i = o, depth = 0; o >= 0 && i < n && c < 0; i++) {
				uint8_t k = lx.toks[i].kind;
				depth += (k == TOK_LPAREN || k == TOK_LBRACE || k == TOK_LBRACKET) - (k == TOK_RPAREN || k == TOK_RBRACE || k == TOK_RBRACKET);
				if (depth == 0)
					c = i;
			}
		}
	}
	if (o >= 0 && c > o && lx.toks[o].kind == TOK_LPAREN) {
		L.ok = true;
		L.open = from + lx.toks[o].span.start;
		L.close = from + lx.toks[c].span.start;
		int depth = 0;
		bool start = true;
		for (int i = o + 1; i < c; i++) {
			uint8_t k = lx.toks[i].kind;
			if (depth == 0 && k == TOK_COMMA) {
				start = true;
				continue;
			}
			if (start) {
				if ((uint32_t)L.nitems == want)
					L.want_at = from + lx.toks[i].span.start;
				if ((uint32_t)L.nitems == want + 1)
					L.next_at = from + lx.toks[i].span.start;
				L.last_at = from + lx.toks[i].span.start;
				L.nitems++;
				start = false;
			}
			depth += (k == TOK_LPAREN || k == TOK_LBRACE || k == TOK_LBRACKET) - (k == TOK_RPAREN || k == TOK_RBRACE || k == TOK_RBRACKET);
			L.last_end = from + lx.toks[i].span.end;
			if ((uint32_t)L.nitems == want)   /* item want - 1 */
				L.prev_end = L.last_end;
			else if ((uint32_t)L.nitems == want + 1)
				L.want_end = L.last_end;
		}
	}
	lex_free(&lx);
	diag_free(&q);
	arena_free(&a);
	free(text);
	return L;
}

/* Does the item at off start its line (only blanks before it)? */
static bool
line_first(const char *src, uint32_t off)
{
	for (uint32_t i = spx_line_start(src, off); i < off; i++)
		if (src[i] != ' ' && src[i] != '\t')
			return false;
	return true;
}

/* The edit inserting text as item ix of L (ix <= L->nitems, L read with
 * want = ix).  A list written one item a line gets the new item on a line
 * of its own. */
static void
insert_item(Planner *P, const List *L, uint32_t ix, const char *text)
{
	const char *src = P->src;
	Buf b = {0};
	Span at;
	uint32_t ref = L->nitems == 0 ? 0 : ix < (uint32_t)L->nitems ? L->want_at : L->last_at;
	bool lines = L->nitems > 0 && line_first(src, ref) && line_first(src, L->close);
	uint32_t n = lines ? patch_indent_len(src, ref) : 0;
	if (L->nitems == 0) {
		at.start = at.end = L->close;
		buf_puts(&b, text);
	} else if (ix < (uint32_t)L->nitems) {
		at.start = at.end = L->want_at;
		if (lines)
			buf_printf(&b, "%s,\n%.*s", text, (int)n, src + spx_line_start(src, ref));
		else
			buf_printf(&b, "%s, ", text);
	} else {
		at.start = at.end = L->last_end;
		uint32_t c = L->last_end;
		while (src[c] == ' ' || src[c] == '\t')
			c++;
		if (lines && src[c] == ',') {
			/* after the last item's comma, at the end of its line (a `//` comment stays there) */
			uint32_t e = c + 1;
			while (src[e] && src[e] != '\n')
				e++;
			at.start = at.end = e;
			buf_printf(&b, "\n%.*s%s,", (int)n, src + spx_line_start(src, ref), text);
		} else {
			buf_printf(&b, ", %s", text);
		}
	}
	patch_add_edit(P, at, b.data);
	buf_free(&b);
}

PatchChange *
patch_v4_change_of(Planner *P, int op)
{
	for (int i = 0; i < P->out->changes.len; i++)
		if (P->out->changes.items[i].op == op && P->out->changes.items[i].v4kind)
			return &P->out->changes.items[i];
	return NULL;
}

/* ---- add-parameter ---- */

bool
patch_plan_add_param(Planner *P)
{
	const PatchOp *o = P->o;
	uint32_t at;
	SymId f = patch_param_target(P, true, &at);
	if (f < 0)
		return false;
	unsigned long ix = strtoul(o->w[1].s, NULL, 10);
	const char *name = o->w[2].s;
	bool ident = (name[0] >= 'a' && name[0] <= 'z') || (name[0] >= 'A' && name[0] <= 'Z') || name[0] == '_';
	for (const char *ch = name; ident && *ch; ch++)
		ident = (*ch >= 'a' && *ch <= 'z') || (*ch >= 'A' && *ch <= 'Z') || (*ch >= '0' && *ch <= '9') || *ch == '_';
	if (!ident) {
		Diag *g = diag_report(P->d, DIAG_G103, &o->w[2].span, "`%s` is not a valid parameter name", name);
		diag_set_help(g, "a parameter name is an identifier: ASCII letters, digits and `_`, not starting with a digit");
		return false;
	}
	if (!sema_source_identifier(name)) {
		Diag *g = diag_report(P->d, DIAG_G103, &o->w[2].span, "`%s` is a word of the language, not a parameter name", name);
		diag_set_help(g, "`%s` has a meaning of its own in SEMAPRAX; choose another parameter name", name);
		return false;
	}
	SymId *fam;
	int nf = patch_family_selected_first(P->S, f, &fam);
	bool ok = true;
	for (int m = 0; m < nf && ok; m++) {
		const Sym *y = sema_sym(P->S, fam[m]);
		const FnDecl *fn = y->fn;
		for (int i = 0; !y->origin && fn && i < fn->nparams && ok; i++)
			if (fn->params[i].name.s && strcmp(fn->params[i].name.s, name) == 0) {
				bool method = y->kind == SK_METHOD;   /* numbered after `self`, named by its id: the family shares the name */
				Diag *g = diag_report(P->d, DIAG_T102, &o->w[2].span, "duplicate parameter `%s`: parameter %d of `%s` has this name", name,
				    i - method, method ? y->id : y->name);
				Buf names = {0};
				for (int k = 0; k < fn->nparams; k++)
					buf_printf(&names, "%s`%s`", k ? ", " : "", fn->params[k].name.s ? fn->params[k].name.s : "_");
				diag_set_help(g, "choose a name that is not one of %s", names.data);
				buf_free(&names);
				ok = false;
			}
	}
	for (int m = 0; m < nf && ok; m++) {
		const Sym *y = sema_sym(P->S, fam[m]);
		const FnDecl *fn = y->fn;
		if (y->origin || !fn)
			continue;   /* another module's: its own patch's */
		List L = patch_list_in(P->src, y->name_span.end, fn->body ? fn->body->span.start : fn->header.end, false, at);
		if (!L.ok || L.nitems != fn->nparams) {
			ok = patch_stale_help(P, &o->w[0], "its parameter list could not be read", NULL);
			break;
		}
		/* the parameter, where it goes */
		char *t = patch_reindent(o->text, "", 0, true);
		uint32_t pos = L.nitems == 0 ? L.close : at < (uint32_t)L.nitems ? L.want_at : L.last_end;
		insert_item(P, &L, at, t);
		free(t);
		P->out->edits.items[P->out->edits.len - 1].change = P->out->changes.len + 1;
		PatchChange *c = patch_v4_change(P, "parameter_added", y, name, (int)ix);
		c->after_text = spx_xstrdup(o->text);
		c->param_at = pos;
	}
	free(fam);
	return ok;
}

/* A call of the function (or of a method of the family) gaining an
 * argument that no other operation replaces. */
static void
arg_call(Planner *P, const Expr *e)
{
	FamilyWalk *as = P->user;   /* the family, per member its calls and change */
	Expr *const *args;
	int nargs;
	int m = patch_family_call(P->S, e, as->fam, as->nf, &args, &nargs);
	if (m < 0)
		return;
	for (int i = 0; i < P->out->edits.len; i++) {
		const PatchEdit *x = &P->out->edits.items[i];
		if (x->op != P->op && x->start <= e->span.start && e->span.end <= x->end && x->end > x->start)
			return;
	}
	uint32_t ix = (uint32_t)strtoul(P->o->w[1].s, NULL, 10);
	List L = patch_list_in(P->src, e->span.start, e->span.end, true, ix);
	if (!L.ok || ix > (uint32_t)L.nitems || L.nitems != nargs) {
		P->found = e;   /* not read: refused below */
		return;
	}
	uint32_t n = patch_indent_len(P->src, e->span.start);
	char *ind = spx_xmalloc((size_t)n + 9);   /* the place's indentation, however deep */
	memcpy(ind, P->src + spx_line_start(P->src, e->span.start), n);
	char *t = patch_reindent(P->o->arg, ind, n, false);
	free(ind);
	insert_item(P, &L, ix, t);
	free(t);
	P->out->edits.items[P->out->edits.len - 1].change = as->change[m];
	P->ci++;
	as->sites[m]++;
}

bool
patch_v4_add_arguments(Planner *P, const SPatch *p)
{
	bool ok = true;
	for (int i = 0; i < p->nops; i++) {
		if (p->ops[i].kind != POP_ADD_PARAM || !p->ops[i].arg)
			continue;
		SymId f = sema_strmap_get(&P->S->ids, p->ops[i].w[0].s);
		if (f < 0 || !patch_v4_change_of(P, i))
			continue;
		FamilyWalk fw;
		patch_family_walk(P, p, i, f, &fw, &fw, arg_call);
		patch_family_walk_free(&fw);
		if (P->found) {
			Diag *g = diag_report(P->d, DIAG_G112, &p->ops[i].w[0].span, "the argument list of a call of `%s` (source byte %u) could not be read",
			    p->ops[i].w[0].s, P->found->span.start);
			diag_set_help(g, "replace that call in the same patch (`replace-expression`), which then writes its arguments");
			ok = false;
		}
	}
	return ok;
}

/* ---- add-case ---- */

bool
patch_plan_add_case(Planner *P)
{
	Sema *S = P->S;
	const PatchOp *o = P->o;
	SymId owner;
	const char *mk;
	SymId v = patch_lookup_id(P, &o->w[0], &mk, &owner);
	if (v < 0 && !mk)
		return false;
	Sym *y = v >= 0 ? sema_sym(S, v) : NULL;
	if (!y || y->kind != SK_VARIANT || y->prelude || y->origin || !y->decl || y->decl->kind != DECL_VARIANT) {
		Diag *g = diag_report(P->d, DIAG_G107, &o->w[0].span, "`%s` is %s%s%s; `add-case` takes a variant declared in this module", o->w[0].s,
		    !y ? "a " : y->prelude ? "the compiler-owned " : y->origin ? "the imported " : "a ", !y ? mk : patch_kind_name(y->kind),
		    !y ? "" : "");
		diag_set_help(g, "select a variant by the stable id `semaprax query <file> --kind variant` lists");
		return false;
	}
	const Decl *dd = y->decl;
	int nc = dd->u.variant.ncases;
	const char *src = P->src;
	/* the fragment with its comma */
	char *t0 = patch_reindent(o->text, "", 0, true);
	size_t tl = strlen(t0);
	while (tl > 0 && (t0[tl - 1] == ' ' || t0[tl - 1] == '\t' || t0[tl - 1] == '\n' || t0[tl - 1] == '\r'))
		tl--;
	t0[tl] = '\0';
	bool comma = tl > 0 && t0[tl - 1] == ',';
	Buf b = {0};
	Span at;
	uint32_t ref = nc > 0 ? dd->u.variant.cases[nc - 1].span.start : dd->span.end - 1;
	uint32_t n = patch_indent_len(src, ref);
	char *ind = spx_xmalloc((size_t)n + 9);   /* the place's indentation, however deep */
	memcpy(ind, src + spx_line_start(src, ref), n);
	if (nc == 0) {
		memcpy(ind + n, "    ", 4);
		n += 4;
	}
	char *t = patch_reindent(t0, ind, n, true);
	free(ind);
	if (nc > 0) {
		/* after the last case's comma: on a line of its own when nothing else follows on that line */
		uint32_t e = dd->u.variant.cases[nc - 1].span.end;
		while (src[e] == ' ' || src[e] == '\t')
			e++;
		if (src[e] == ',')
			e++;
		uint32_t k = e;
		while (src[k] == ' ' || src[k] == '\t' || src[k] == '\r')
			k++;
		bool alone = src[k] == '\n' || src[k] == '\0';
		at.start = at.end = alone ? k : e;
		if (alone)
			buf_printf(&b, "\n%s%s", t, comma ? "" : ",");
		else
			buf_printf(&b, " %s%s", t0, comma ? "" : ",");
	} else {
		/* before the `}`, on its own line when the `}` is */
		uint32_t close = dd->span.end - 1;
		uint32_t ls = spx_line_start(src, close);
		bool own_line = true;
		for (uint32_t i = ls; i < close; i++)
			own_line &= src[i] == ' ' || src[i] == '\t';
		at.start = at.end = own_line ? ls : close;
		if (own_line)
			buf_printf(&b, "%s%s\n", t, comma ? "" : ",");
		else
			buf_printf(&b, " %s%s ", t0, comma ? "" : ",");
	}
	free(t);
	free(t0);
	patch_add_edit(P, at, b.data);
	buf_free(&b);
	PatchChange *c = patch_v4_change(P, "case_added", NULL, y->id, -1);
	c->after_text = spx_xstrdup(o->text);
	return true;
}

typedef struct FindSpan {
	Span s;
	const HirExpr *found;
} FindSpan;

static void
find_at(void *ctx, const HirExpr *e)
{
	FindSpan *f = ctx;
	if (!f->found && e->span.start == f->s.start && e->span.end == f->s.end)
		f->found = e;
}

/* Append the structural identity of the expression written at span s
 * (none: false), whatever the function id's length. */
bool
patch_expr_id_of(const HirModule *H, Span s, Buf *out)
{
	for (int i = 0; H && i < H->nfuncs; i++) {
		const HirFunc *f = &H->funcs[i];
		if (!f->id)
			continue;
		FindSpan fs = { s, NULL };
		HirVisitor v = { find_at, NULL, NULL, &fs };
		hir_visit(f, &v);
		if (fs.found) {
			buf_printf(out, "declaration:%zu:%s:expression:%u", strlen(f->id), f->id, fs.found->index);
			return true;
		}
	}
	return false;
}

typedef struct CaseScan {
	Buf ids;         /* the first matches' selectors */
	int n;
	int replaced;    /* matches another operation replaces */
	const Expr *first;
} CaseScan;

/* A match over the variant gaining a case, with no unguarded catch-all arm,
 * that no other operation replaces. */
static void
case_match(Planner *P, const Expr *e)
{
	if (e->kind != EXPR_MATCH)
		return;
	TypeId t = sema_expr_type(P->S, e->u.match.scrutinee->id);
	if (t == T_ERR)
		return;
	const TypeInfo *ti = sema_type_info(&P->S->types, t);
	if (ti->kind != TY_NOMINAL || (SymId)ti->decl != P->sym)
		return;
	for (int i = 0; i < e->u.match.narms; i++) {
		const MatchArm *a = &e->u.match.arms[i];
		if (!a->guard && (a->pat->kind == PAT_WILD || a->pat->kind == PAT_BIND))
			return;
	}
	CaseScan *cs = P->user;
	for (int i = 0; i < P->out->edits.len; i++) {
		const PatchEdit *x = &P->out->edits.items[i];
		if (x->op != P->op && x->start <= e->span.start && e->span.end <= x->end && x->end > x->start) {
			cs->replaced++;
			return;
		}
	}
	if (cs->n++ < 4) {
		buf_printf(&cs->ids, "%s`", cs->n > 1 ? ", " : "");
		if (!patch_expr_id_of(P->H, e->span, &cs->ids))
			buf_puts(&cs->ids, "?");
		buf_puts(&cs->ids, "`");
	}
	if (!cs->first)
		cs->first = e;
}

/* The case's name and fields, as the fragment writes them (tokens: an
 * attribute, the name, `{`, each field's name before its `:`), as the arm
 * that matches it: `V::C { a, b }`. */
static void
arm_of(const char *variant, const char *text, Buf *out)
{
	Arena a;
	arena_init(&a);
	size_t len = strlen(text);
	DiagSink q;
	diag_init(&q, "case", text, len);
	LexResult lx = {0};
	lex_source(&lx, text, len, &a, &q);
	int depth = 0, nf = 0;
	bool named = false;
	for (int i = 0; i < lx.ntoks && lx.toks[i].kind != TOK_EOF; i++) {
		const Token *k = &lx.toks[i];
		if (k->kind == TOK_AT) {
			/* `@id("…")`: skip to its `)` */
			while (i + 1 < lx.ntoks && lx.toks[i].kind != TOK_RPAREN)
				i++;
			continue;
		}
		if (k->kind == TOK_LBRACE || k->kind == TOK_LPAREN || k->kind == TOK_LBRACKET)
			depth++;
		else if (k->kind == TOK_RBRACE || k->kind == TOK_RPAREN || k->kind == TOK_RBRACKET)
			depth--;
		else if (k->kind == TOK_IDENT && !named && depth == 0) {
			buf_printf(out, "%s::%.*s {", variant, (int)(k->span.end - k->span.start), text + k->span.start);
			named = true;
		} else if (k->kind == TOK_IDENT && named && depth == 1 && i + 1 < lx.ntoks && lx.toks[i + 1].kind == TOK_COLON) {
			buf_printf(out, "%s %.*s", nf++ ? "," : "", (int)(k->span.end - k->span.start), text + k->span.start);
		}
	}
	if (named)
		buf_puts(out, nf ? " }" : "}");
	else
		buf_printf(out, "%s::<case> { … }", variant);
	lex_free(&lx);
	diag_free(&q);
	arena_free(&a);
}

bool
patch_v4_check_cases(Planner *P, const SPatch *p)
{
	bool ok = true;
	for (int i = 0; i < p->nops; i++) {
		if (p->ops[i].kind != POP_ADD_CASE)
			continue;
		SymId v = sema_strmap_get(&P->S->ids, p->ops[i].w[0].s);
		PatchChange *c = patch_v4_change_of(P, i);
		if (v < 0 || !c)
			continue;
		CaseScan cs = { {0}, 0, 0, NULL };
		P->user = &cs;
		patch_walk_op(P, p, i, v, case_match);
		P->user = NULL;
		c->sites = cs.replaced;
		if (cs.n > 0) {
			Buf arm = {0};
			arm_of(sema_sym(P->S, v)->name, p->ops[i].text, &arm);
			const char *holder = "a declaration";
			for (SymId k = 0; k < P->S->syms.len; k++) {
				Sym *y = sema_sym(P->S, k);
				if (y->fn && y->decl && y->span.start <= cs.first->span.start && cs.first->span.end <= y->span.end)
					holder = y->id;
			}
			Diag *g = diag_report(P->d, DIAG_M101, &p->ops[i].line, "non-exhaustive match; the new case of `%s` is missing in %d match%s "
			    "(first in `%s`)", p->ops[i].w[0].s, cs.n, cs.n == 1 ? "" : "es", holder);
			diag_set_help(g, "add the arm `%s => …,` to each match in the same patch (`replace-expression expression <id> with` the match "
			    "with the arm, or `replace-body` of its function): %s%s", arm.data, cs.ids.data, cs.n > 4 ? ", …" : "");
			buf_free(&arm);
			ok = false;
		}
		buf_free(&cs.ids);
	}
	return ok;
}

/* The case of after's variant v whose id before's variant u lacks, or -1
 * when after's cases are not before's plus exactly one. */
static int
new_case(const Sym *u, const Sym *v)
{
	if (!u->nom || !v->nom || v->nom->ncases != u->nom->ncases + 1)
		return -1;
	int added = -1;
	for (int c = 0; c < v->nom->ncases; c++) {
		bool old = false;
		for (int k = 0; k < u->nom->ncases && !old; k++)
			old = strcmp(u->nom->cases[k].id, v->nom->cases[c].id) == 0;
		if (!old) {
			if (added >= 0)
				return -1;
			added = c;
		}
	}
	return added;
}

/* ---- after the re-check ---- */

bool
patch_added_whole(const SPatch *p, PatchPlan *pl, Sema *before, Sema *after, DiagSink *d)
{
	for (int i = 0; i < p->nops; i++) {
		const PatchOp *o = &p->ops[i];
		if (o->kind != POP_ADD_PARAM)
			continue;
		SymId x0 = sema_strmap_get(&before->ids, o->w[0].s);
		if (x0 < 0 || !sema_sym(before, x0)->fn)
			continue;   /* same_declarations reported it */
		/* every member of the family: one parameter more, as written, where written */
		SymId *fam;
		int nf = patch_override_family(before, x0, &fam);
		bool whole = true;
		for (int m = 0; m < nf && whole; m++) {
			const Sym *u = sema_sym(before, fam[m]);
			SymId y = sema_strmap_get(&after->ids, u->id);
			if (u->origin || !u->fn || y < 0 || !sema_sym(after, y)->fn)
				continue;   /* another module's: the project check's */
			const FnDecl *fa = sema_sym(after, y)->fn;
			unsigned long ix = strtoul(o->w[1].s, NULL, 10) + (u->kind == SK_METHOD);
			whole = fa->nparams == u->fn->nparams + 1 && ix < (unsigned long)fa->nparams && fa->params[ix].name.s &&
			    strcmp(fa->params[ix].name.s, o->w[2].s) == 0;
		}
		free(fam);
		if (!whole) {
			Diag *g = diag_report(d, DIAG_G108, &o->line, "semantic patch changed meaning outside its admitted delta: the fragment of the "
			    "operation on line %u is not exactly one parameter", o->lineno);
			diag_set_help(g, "write one parameter after `with`, `<name>: <type>`; add another parameter with another patch");
			return false;
		}
	}
	/* change-parameter-type: the same parameters, the one changed typed
	 * exactly `to` (a word such as `i64,extra:i64` balances and hides
	 * nothing, but is a parameter list: one parameter more) */
	for (int i = 0; i < p->nops; i++) {
		const PatchOp *o = &p->ops[i];
		if (o->kind != POP_PARAM_TYPE)
			continue;
		SymId x = sema_strmap_get(&before->ids, o->w[0].s), y = sema_strmap_get(&after->ids, o->w[0].s);
		if (x < 0 || y < 0 || !sema_sym(before, x)->fn || !sema_sym(after, y)->fn)
			continue;   /* same_declarations reported it */
		const FnDecl *fb = sema_sym(before, x)->fn, *fa = sema_sym(after, y)->fn;
		unsigned long ix = strtoul(o->w[1].s, NULL, 10);
		const Type *t = fa->nparams == fb->nparams && ix < (unsigned long)fa->nparams ? fa->params[ix].type : NULL;
		size_t n = strlen(o->to.s);
		if (!t || t->span.end - t->span.start != n || memcmp(after->src + t->span.start, o->to.s, n) != 0) {
			Diag *g = diag_report(d, DIAG_G108, &o->line, "semantic patch changed meaning outside its admitted delta: the type of the "
			    "operation on line %u is not exactly one type", o->lineno);
			diag_set_help(g, "write one type after `to`, as the parameter would (`Option<bool>`); add a parameter with `add-parameter`");
			return false;
		}
	}
	for (int i = 0; i < p->nops; i++) {
		const PatchOp *o = &p->ops[i];
		if (o->kind != POP_ADD_CASE)
			continue;
		SymId x = sema_strmap_get(&before->ids, o->w[0].s), y = sema_strmap_get(&after->ids, o->w[0].s);
		int c = x >= 0 && y >= 0 ? new_case(sema_sym(before, x), sema_sym(after, y)) : -1;
		if (c < 0) {
			Diag *g = diag_report(d, DIAG_G108, &o->line, "semantic patch changed meaning outside its admitted delta: the fragment of the "
			    "operation on line %u is not exactly one new case of `%s`", o->lineno, o->w[0].s);
			diag_set_help(g, "write one case after `with`, as the variant would (`@id(\"…\") Name { field: type, }`), and keep the other cases' ids");
			return false;
		}
		for (int k = 0; k < pl->changes.len; k++)
			if (pl->changes.items[k].op == i && pl->changes.items[k].v4kind) {
				free(pl->changes.items[k].added_id);
				pl->changes.items[k].added_id = spx_xstrdup(sema_sym(after, y)->nom->cases[c].id);
			}
	}
	return true;
}
