/*
 * plan_v4.c — the v4 operations of a semantic patch (docs/PATCH.md):
 * replace a function body, replace one expression selected by its
 * structural identity, add or remove a `requires`/`ensures` clause, add a
 * function after a declaration, delete a function nobody calls, change a
 * parameter's type.
 *
 * Like v1-v3 every operation is resolved against the one checked program
 * and becomes byte-range edits of its source; the command re-parses and
 * fully re-verifies the result before anything is written.  Fragments are
 * re-indented to their place (their common leading blanks removed, the
 * place's indentation added), so a patch need not know the file's layout.
 * An expression fragment is parenthesised where an operator, a projection
 * or `?` holds the replaced expression and the fragment is not a primary.
 */
#include "plan_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lex/lex.h"

/* ---- text helpers ---- */

/* The blanks at the start of the line holding off. */
uint32_t
patch_indent_len(const char *src, uint32_t off)
{
	uint32_t s = spx_line_start(src, off), i = s;
	while (src[i] == ' ' || src[i] == '\t')
		i++;
	return i - s;
}

/* The fragment with its common leading blanks removed and every line but
 * the first (unless first) prefixed by indent[0..n). */
char *
patch_reindent(const char *text, const char *indent, uint32_t n, bool first)
{
	size_t common = (size_t)-1;
	for (const char *l = text; *l;) {
		const char *e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l) : strlen(l);
		size_t k = 0;
		while (k < len && (l[k] == ' ' || l[k] == '\t'))
			k++;
		if (k < len && !(l == text && !first) && k < common)
			common = k;
		l = e ? e + 1 : l + len;
	}
	if (common == (size_t)-1)
		common = 0;
	Buf b = {0};
	bool at_first = true;
	for (const char *l = text; *l || at_first;) {
		const char *e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l) : strlen(l);
		size_t k = 0;
		while (k < len && (l[k] == ' ' || l[k] == '\t'))
			k++;
		bool empty = k == len;
		if (!(at_first && !first)) {
			if (!empty) {
				buf_put(&b, indent, n);
				buf_put(&b, l + (common < k ? common : k), len - (common < k ? common : k));
			}
		} else {
			buf_put(&b, l + k, len - k);
		}
		at_first = false;
		if (!e)
			break;
		buf_putc(&b, '\n');
		l = e + 1;
	}
	if (!b.data)
		buf_puts(&b, "");
	return buf_take(&b);
}

/* Equal but for blanks? */
static bool
same_text(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t i = 0, j = 0;
	for (;;) {
		while (i < alen && (a[i] == ' ' || a[i] == '\t' || a[i] == '\n' || a[i] == '\r'))
			i++;
		while (j < blen && (b[j] == ' ' || b[j] == '\t' || b[j] == '\n' || b[j] == '\r'))
			j++;
		if (i == alen || j == blen)
			return i == alen && j == blen;
		if (a[i++] != b[j++])
			return false;
	}
}

static char *
slice(const char *src, Span s)
{
	return spx_xstrndup(src + s.start, s.end - s.start);
}

/* ---- selectors ---- */

/* A canonical decimal index (no sign, no leading zero, at most 9 digits). */
static bool
canonical_index(const char *s)
{
	if (!*s || (s[0] == '0' && s[1]) || strlen(s) > 9)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* The function or method with stable id w (G404/G107 otherwise). */
SymId
patch_select_fn(Planner *P, const PatchWord *w, bool methods, const char *op)
{
	Sema *S = P->S;
	SymId owner;
	const char *mk;
	SymId f = patch_lookup_id(P, w, &mk, &owner);
	if (f < 0) {
		if (mk) {
			Diag *g = diag_report(P->d, DIAG_G107, &w->span, "`%s` is a %s of `%s`; `%s` takes a function", w->s, mk, sema_sym(S, owner)->name, op);
			diag_set_help(g, "select a function by the stable id `semaprax query <file> --kind function` lists");
		}
		return -1;
	}
	Sym *y = sema_sym(S, f);
	if (y->prelude || !y->fn || (y->kind != SK_FN && !(methods && y->kind == SK_METHOD)) || y->origin) {
		Diag *g = diag_report(P->d, DIAG_G107, &w->span, "`%s` is %s %s `%s`; `%s` takes a function%s", w->s,
		    y->prelude ? "the compiler-owned" : y->origin ? "the imported" : "a", patch_kind_name(y->kind), y->name, op,
		    methods ? " or a method" : " declared in this module");
		diag_set_help(g, "select a function by the stable id `semaprax query <file> --kind function` lists");
		return -1;
	}
	return f;
}

bool
patch_stale_help(Planner *P, const PatchWord *w, const char *why, const char *help)
{
	Diag *g = diag_report(P->d, DIAG_G112, &w->span, "structural selector `%s` is stale or invalid: %s", w->s, why);
	diag_set_help(g, "%s", help ? help : "regenerate the selector from the current program (`semaprax graph <file>` numbers each function's expressions, clauses and parameters)");
	return false;
}

static bool
stale(Planner *P, const PatchWord *w, const char *fmt, const char *arg)
{
	Buf why = {0};
	buf_printf(&why, fmt, arg);   /* as long as the name or id it quotes */
	patch_stale_help(P, w, why.data, NULL);
	buf_free(&why);
	return false;
}

/* G112 for an index past the end: what to write instead ("what" numbered from 0). */
bool
patch_stale_index(Planner *P, const PatchWord *w, const char *why, const char *what, unsigned long n)
{
	char help[256];
	if (n == 0)
		snprintf(help, sizeof help, "there is no %s to select", what);
	else if (n == 1)
		snprintf(help, sizeof help, "%ss are numbered from 0: write `0`", what);
	else
		snprintf(help, sizeof help, "%ss are numbered from 0: write `0` to `%lu`", what, n - 1);
	return patch_stale_help(P, w, why, help);
}

static bool
no_op(Planner *P, const char *what)
{
	Diag *g = diag_report(P->d, DIAG_G106, &P->o->line, "the operation changes nothing: %s", what);
	diag_set_help(g, "remove the operation, or change what it writes");
	return false;
}

PatchChange *
patch_v4_change(Planner *P, const char *kind, const Sym *fn, const char *detail, int index)
{
	PatchChange c;
	memset(&c, 0, sizeof c);
	c.op = P->op;
	c.v4kind = kind;
	c.function = fn ? fn->id : NULL;
	c.containing = fn ? fn->id : NULL;
	c.containing_kind = fn && fn->ntparams ? "function_template" : "function";
	c.detail = detail;
	c.index = index;
	c.ops[0] = P->op;
	c.nops = 1;
	VEC_PUSH(P->out->changes, c);
	return &P->out->changes.items[P->out->changes.len - 1];
}

/* ---- replace-body ---- */

static bool
plan_body(Planner *P)
{
	SymId f = patch_select_fn(P, &P->o->w[0], true, "replace-body");
	if (f < 0)
		return false;
	Sym *y = sema_sym(P->S, f);
	const Block *body = y->fn->body;
	if (!body)
		return stale(P, &P->o->w[0], "`%s` has no body", y->name);
	Span inner = { body->span.start + 1, body->span.end - 1 };
	bool nl = P->src[inner.start] == '\n';
	if (same_text(P->src + inner.start, inner.end - inner.start, P->o->text, strlen(P->o->text)))
		return no_op(P, "the body is already this text");
	/* the closing brace's indentation, plus four spaces */
	uint32_t n = patch_indent_len(P->src, body->span.end - 1);
	char *ind = spx_xmalloc((size_t)n + 9);   /* the place's indentation, however deep */
	memcpy(ind, P->src + spx_line_start(P->src, body->span.end - 1), n);
	memcpy(ind + n, "    ", 4);
	char *t = patch_reindent(P->o->text, ind, n + 4, true);
	Buf b = {0};
	buf_printf(&b, "%s%s\n%.*s", nl ? "" : "\n", t, (int)n, ind);
	free(t);
	free(ind);
	PatchChange *c = patch_v4_change(P, "function_body", y, NULL, -1);
	/* the old body as a fragment: blank lines at the ends and the indentation dropped */
	Span old = inner;
	while (old.start < old.end && (P->src[old.start] == '\n' || P->src[old.start] == '\r'))
		old.start++;
	while (old.end > old.start && (P->src[old.end - 1] == ' ' || P->src[old.end - 1] == '\t' || P->src[old.end - 1] == '\n' ||
	    P->src[old.end - 1] == '\r'))
		old.end--;
	char *raw = slice(P->src, old);
	c->before_text = patch_reindent(raw, "", 0, true);
	free(raw);
	inner.start += nl;   /* the diff then leaves the `{` line alone */
	patch_add_edit(P, inner, b.data);
	c->after_text = spx_xstrdup(P->o->text);
	buf_free(&b);
	return true;
}

/* ---- replace-expression ---- */

static void
find_span(Planner *P, const Expr *e)
{
	if (!P->found && e->span.start == P->want_start && e->span.end == P->want_end) {
		P->found = e;
		P->found_parent = P->parent;
	}
}

/* Does text need parentheses where a tight operator holds it? */
static bool
primary(const char *t)
{
	size_t n = strlen(t);
	while (n > 0 && (t[n - 1] == ' ' || t[n - 1] == '\n'))
		n--;
	while (*t == ' ' || *t == '\n')
		t++, n--;
	if (n == 0)
		return true;
	bool word = true;
	for (size_t i = 0; i < n && word; i++)
		word = (t[i] >= 'a' && t[i] <= 'z') || (t[i] >= 'A' && t[i] <= 'Z') || (t[i] >= '0' && t[i] <= '9') || t[i] == '_' || t[i] == '.';
	if (word)
		return true;
	/* `( … )` or `name( … )` with the parentheses balanced around the end */
	size_t k = 0;
	while (k < n && ((t[k] >= 'a' && t[k] <= 'z') || (t[k] >= 'A' && t[k] <= 'Z') || (t[k] >= '0' && t[k] <= '9') || t[k] == '_'))
		k++;
	if (k >= n || t[k] != '(' || t[n - 1] != ')')
		return false;
	int depth = 0;
	for (size_t i = k; i < n; i++) {
		depth += t[i] == '(' ? 1 : t[i] == ')' ? -1 : 0;
		if (depth == 0 && i + 1 < n)
			return false;
	}
	return true;
}

static bool
tight_parent(const Expr *parent, const Expr *e)
{
	if (!parent)
		return false;
	switch (parent->kind) {
	case EXPR_UNARY:
	case EXPR_BINARY:
	case EXPR_FIELD:
	case EXPR_TRY: return true;
	case EXPR_METHOD: return parent->u.method.recv == e;
	default: return false;
	}
}

/* The reference's region suffix of an expression identity (`:body`,
 * `:requires:<k>`, `:ensures:<k>` after the index), split off sel into
 * base: 0 none, 1 body, 2 requires, 3 ensures; -1 malformed. */
static int
region_of(const char *sel, char *base, size_t size, unsigned long *k)
{
	snprintf(base, size, "%s", sel);
	char *e = strstr(base, ":expression:");
	if (!e)
		return 0;
	for (char *n; (n = strstr(e + 1, ":expression:")) != NULL;)
		e = n;
	char *d = e + 12;
	while (*d >= '0' && *d <= '9')
		d++;
	if (*d != ':')
		return 0;
	char *r = d + 1;
	*d = '\0';
	if (strcmp(r, "body") == 0)
		return 1;
	int kind = strncmp(r, "requires:", 9) == 0 ? 2 : strncmp(r, "ensures:", 8) == 0 ? 3 : -1;
	if (kind < 0)
		return -1;
	const char *num = r + (kind == 2 ? 9 : 8);
	if (!canonical_index(num))
		return -1;
	*k = strtoul(num, NULL, 10);
	return kind;
}

/* Does the function with id fid hold span s in the region (body, or the k-th
 * requires/ensures clause)?  A closure's expressions are its body's. */
static bool
in_region(Planner *P, const char *fid, int region, unsigned long k, Span s)
{
	SymId f = sema_strmap_get(&P->S->ids, fid);
	if (f < 0 || !sema_sym(P->S, f)->fn)
		return region == 1;
	const FnDecl *fn = sema_sym(P->S, f)->fn;
	if (region == 1)
		return fn->body && fn->body->span.start <= s.start && s.end <= fn->body->span.end;
	unsigned long seen = 0;
	for (int i = 0; i < fn->nclauses; i++) {
		const Clause *c = &fn->clauses[i];
		if ((c->kind == CLAUSE_REQUIRES) != (region == 2))
			continue;
		if (seen++ == k)
			return c->span.start <= s.start && s.end <= c->span.end;
	}
	return false;
}

/* plan_expr with fid and base sized from the selector (a function id of any
 * length: fixed buffers refused one of 400 bytes as no expression id). */
static bool
plan_expr_in(Planner *P, char *fid, char *base, size_t size)
{
	const PatchWord *w = &P->o->w[0];
	uint32_t index;
	unsigned long rk = 0;
	int region = region_of(w->s, base, size, &rk);
	if (region < 0 || !patch_parse_expression_id(base, fid, size, &index)) {
		/* a miscounted <len>: the count to write */
		const char *id = strncmp(w->s, "declaration:", 12) == 0 ? strchr(w->s + 12, ':') : NULL;
		const char *ex = id ? strstr(id + 1, ":expression:") : NULL;
		if (ex && ex - id - 1 > 0 && (size_t)strtoul(w->s + 12, NULL, 10) != (size_t)(ex - id - 1)) {
			Buf help = {0};
			buf_printf(&help, "<len> is the function id's byte length: write `declaration:%d:%.*s:expression:…`",
			    (int)(ex - id - 1), (int)(ex - id - 1), id + 1);
			patch_stale_help(P, w, "not an expression identity `declaration:<len>:<function-id>:expression:<index>[:body|:requires:<k>|:ensures:<k>]`", help.data);
			buf_free(&help);
			return false;
		}
		return stale(P, w, "%s", "not an expression identity `declaration:<len>:<function-id>:expression:<index>[:body|:requires:<k>|:ensures:<k>]`");
	}
	const HirFunc *hf = patch_hir_fn(P->H, fid);
	if (!hf) {
		SymId s = sema_strmap_get(&P->S->ids, fid);
		if (s >= 0 && !sema_sym(P->S, s)->fn) {
			Diag *g = diag_report(P->d, DIAG_G107, &w->span, "`%s` is a %s; an expression selector names a function's expression", fid,
			    patch_kind_name(sema_sym(P->S, s)->kind));
			diag_set_help(g, "select an expression of a function as `semaprax graph <file>` numbers it");
			return false;
		}
		return stale(P, w, "no function has the identity `%s`", fid);
	}
	const HirExpr *x = patch_hir_expr(hf, index);
	if (!x) {
		/* a closure's expressions are printed inside its function's body */
		const char *cl = strstr(fid, ":closure:");
		Buf help = {0};
		buf_printf(&help, "`%s` numbers its expressions 0 to %u: `semaprax context <file> %.*s` prints %s, each "
		    "expression's index first", fid, hf->nexprs ? hf->nexprs - 1 : 0, cl ? (int)(cl - fid) : (int)strlen(fid), fid,
		    cl ? "the closure in its body" : "its body");
		/* a project's module: `context` of its file is refused (T105) and
		 * the project's context has no bodies; its graph has them (rev38) */
		buf_puts(&help, " (in a project's module: `semaprax graph <project>`, under module `");
		for (int i = 0; i < P->m->name.nparts; i++)
			buf_printf(&help, "%s%s", i ? "." : "", P->m->name.parts[i].s);
		buf_puts(&help, "`)");
		patch_stale_help(P, w, "the function has no expression with this index", help.data);
		buf_free(&help);
		return false;
	}
	P->want_start = x->span.start;
	P->want_end = x->span.end;
	P->on_expr = find_span;
	patch_walk_module(P);
	P->on_expr = NULL;
	const Expr *e = P->found;
	if (!e || e->span.end <= e->span.start)
		return stale(P, w, "%s", "the expression is not written in the source (the checker made it)");
	if (region > 0 && !in_region(P, fid, region, rk, e->span))
		return stale(P, w, "%s", region == 1 ? "the expression is not in the function's body" : "the expression is not in that contract clause");
	if (same_text(P->src + e->span.start, e->span.end - e->span.start, P->o->text, strlen(P->o->text)))
		return no_op(P, "the expression is already this text");
	uint32_t n = patch_indent_len(P->src, e->span.start);
	char *ind = spx_xmalloc((size_t)n + 9);   /* the place's indentation, however deep */
	memcpy(ind, P->src + spx_line_start(P->src, e->span.start), n);
	char *t = patch_reindent(P->o->text, ind, n, false);
	free(ind);
	Buf b = {0};
	bool paren = tight_parent(P->found_parent, e) && !primary(t);
	buf_printf(&b, paren ? "(%s)" : "%s", t);
	free(t);
	patch_add_edit(P, e->span, b.data);
	buf_free(&b);
	/* the function holding it (a closure's: the function that holds the closure) */
	const Sym *holder = NULL;
	for (SymId i = 0; i < P->S->syms.len && !holder; i++) {
		Sym *y = sema_sym(P->S, i);
		size_t len = strlen(y->id);
		if (y->fn && strncmp(fid, y->id, len) == 0 && (fid[len] == '\0' || fid[len] == ':'))
			holder = y;
	}
	/* a contract clause's expression changes the contract */
	const char *clause = NULL;
	for (int i = 0; holder && holder->fn && i < holder->fn->nclauses && !clause; i++) {
		const Clause *cl = &holder->fn->clauses[i];
		if (cl->span.start <= e->span.start && e->span.end <= cl->span.end)
			clause = cl->kind == CLAUSE_REQUIRES ? "requires" : "ensures";
	}
	PatchChange *c = patch_v4_change(P, "expression", holder, clause, (int)index);
	c->expression = w->s;
	c->before_text = slice(P->src, e->span);
	c->after_text = spx_xstrdup(P->o->text);
	return true;
}

static bool
plan_expr(Planner *P)
{
	size_t size = strlen(P->o->w[0].s) + 1;
	char *fid = spx_xmalloc(size), *base = spx_xmalloc(size);
	bool ok = plan_expr_in(P, fid, base, size);
	free(fid);
	free(base);
	return ok;
}

/* ---- add-clause / remove-clause ---- */

static bool
plan_add_clause(Planner *P)
{
	SymId f = patch_select_fn(P, &P->o->w[0], true, "add-clause");
	if (f < 0)
		return false;
	Sym *y = sema_sym(P->S, f);
	const FnDecl *fn = y->fn;
	ClauseKind k = strcmp(P->o->w[1].s, "requires") == 0 ? CLAUSE_REQUIRES : CLAUSE_ENSURES;
	const Clause *last_same = NULL, *first_ensures = NULL;
	for (int i = 0; i < fn->nclauses; i++) {
		const Clause *c = &fn->clauses[i];
		if (c->kind == k) {
			last_same = c;
			const Span *cs = &c->cond->span;
			if (same_text(P->src + cs->start, cs->end - cs->start, P->o->text, strlen(P->o->text)))
				return no_op(P, "the function already has this clause");
		}
		if (c->kind == CLAUSE_ENSURES && !first_ensures)
			first_ensures = c;
	}
	/* contract lines are indented four spaces past the declaration */
	uint32_t n = patch_indent_len(P->src, y->name_span.start);
	char *ind = spx_xmalloc((size_t)n + 9);   /* the place's indentation, however deep */
	memcpy(ind, P->src + spx_line_start(P->src, y->name_span.start), n);
	memcpy(ind + n, "        ", 8);
	char *t = patch_reindent(P->o->text, ind, n + 8, false);
	Buf b = {0};
	Span at;
	/* A clause line is inserted at a line's end, before its terminator
	 * (`requires`), or at the next line's start (`ensures`), never inside a
	 * `//` comment's line before the comment (agent40: the comment went onto
	 * the new clause).  So a `requires` and an `ensures` added at the same
	 * place do not overlap, nor does a clause added in place of one that
	 * `remove-clause` removes (its edit ends before that terminator): a
	 * contract is changed in one patch (both were G106). */
	bool before_ensures = !last_same && k == CLAUSE_REQUIRES && first_ensures;
	uint32_t pos = before_ensures ? spx_line_start(P->src, first_ensures->span.start) : last_same ? last_same->span.end : fn->header.end;
	uint32_t eol = pos;
	if (before_ensures) {
		/* the first `requires` goes before the first `ensures`: at the end
		 * of the line above it */
		eol = pos - 1;
		if (eol > 0 && P->src[eol - 1] == '\r')
			eol--;
	} else {
		while (P->src[eol] == ' ' || P->src[eol] == '\t')
			eol++;
		if (P->src[eol] == '/' && P->src[eol + 1] == '/')
			while (P->src[eol] && P->src[eol] != '\n' && !(P->src[eol] == '\r' && P->src[eol + 1] == '\n'))
				eol++;
	}
	const char *nl = P->src[eol] == '\r' && P->src[eol + 1] == '\n' ? "\r\n" : P->src[eol] == '\n' ? "\n" : NULL;
	if (!nl) {
		at.start = at.end = pos;   /* no line end after it: the new line starts here */
		buf_printf(&b, "\n%.*s%s %s", (int)n + 4, ind, P->o->w[1].s, t);
	} else if (k == CLAUSE_REQUIRES) {
		at.start = at.end = eol;
		buf_printf(&b, "%s%.*srequires %s", nl, (int)n + 4, ind, t);
	} else {
		at.start = at.end = eol + (uint32_t)strlen(nl);
		buf_printf(&b, "%.*sensures %s%s", (int)n + 4, ind, t, nl);
	}
	free(t);
	free(ind);
	patch_add_edit(P, at, b.data);
	buf_free(&b);
	int index = 0;
	for (int i = 0; i < fn->nclauses; i++)
		index += fn->clauses[i].kind == k;
	PatchChange *c = patch_v4_change(P, "contract_clause", y, P->o->w[1].s, index);
	c->after_text = spx_xstrdup(P->o->text);
	return true;
}

static bool
plan_remove_clause(Planner *P)
{
	SymId f = patch_select_fn(P, &P->o->w[0], true, "remove-clause");
	if (f < 0)
		return false;
	Sym *y = sema_sym(P->S, f);
	const FnDecl *fn = y->fn;
	ClauseKind k = strcmp(P->o->w[1].s, "requires") == 0 ? CLAUSE_REQUIRES : CLAUSE_ENSURES;
	unsigned long want = strtoul(P->o->w[2].s, NULL, 10), seen = 0;
	const Clause *c = NULL;
	for (int i = 0; i < fn->nclauses && !c; i++)
		if (fn->clauses[i].kind == k && seen++ == want)
			c = &fn->clauses[i];
	if (!c) {
		Buf why = {0};   /* as long as the name */
		buf_printf(&why, "`%s` has %lu `%s` clause%s", y->name, seen, P->o->w[1].s, seen == 1 ? "" : "s");
		char what[32];
		snprintf(what, sizeof what, "`%s` clause", P->o->w[1].s);   /* requires|ensures */
		patch_stale_index(P, &P->o->w[2], why.data, what, seen);
		buf_free(&why);
		return false;
	}
	/* the clause's line when it is alone on it, else the clause and the blanks before it */
	uint32_t s = c->span.start, e = c->span.end;
	uint32_t ls = spx_line_start(P->src, s);
	bool alone_before = true;
	for (uint32_t i = ls; i < s; i++)
		alone_before &= P->src[i] == ' ' || P->src[i] == '\t';
	uint32_t le = e;
	while (P->src[le] == ' ' || P->src[le] == '\t' || P->src[le] == '\r')
		le++;
	/* a `//` comment ending the clause's line is the clause's: it goes
	 * with it (agent40: it stayed, indented by the blank before it) */
	if (alone_before && P->src[le] == '/' && P->src[le + 1] == '/')
		while (P->src[le] && P->src[le] != '\n')
			le++;
	Span at;
	if (alone_before && P->src[le] == '\n' && ls > 0) {
		/* the line with the terminator before it (not after it): a clause
		 * `add-clause` puts at this line's end does not overlap (agent40) */
		at.start = ls - 1 - (ls > 1 && P->src[ls - 2] == '\r');
		at.end = le - (P->src[le - 1] == '\r');
	} else if (alone_before && P->src[le] == '\n') {
		at.start = ls;
		at.end = le + 1;
	} else {
		while (s > 0 && (P->src[s - 1] == ' ' || P->src[s - 1] == '\t'))
			s--;
		at.start = s;
		at.end = e;
	}
	patch_add_edit(P, at, "");
	PatchChange *ch = patch_v4_change(P, "contract_clause", y, P->o->w[1].s, (int)want);
	ch->before_text = slice(P->src, c->cond->span);
	return true;
}

/* ---- add-function / delete-function ---- */

static bool
plan_add_function(Planner *P)
{
	Sema *S = P->S;
	const PatchWord *w = &P->o->w[0];
	SymId owner;
	const char *mk;
	SymId a = patch_lookup_id(P, w, &mk, &owner);
	if (a < 0 && !mk)
		return false;
	if (mk || sema_sym(S, a)->prelude || !sema_sym(S, a)->decl || sema_sym(S, a)->origin) {
		Diag *g = diag_report(P->d, DIAG_G107, &w->span, "`%s` is %s%s; `add-function after` takes a declaration of this module", w->s,
		    mk ? "a " : "", mk ? mk : sema_sym(S, a)->prelude ? "compiler-owned" : sema_sym(S, a)->origin ? "imported" : "a member");
		diag_set_help(g, "name a top-level declaration (function, record, variant, class, resource) of this module");
		return false;
	}
	const Decl *d = sema_sym(S, a)->decl;
	/* after the line where the declaration ends */
	uint32_t e = d->span.end;
	while (P->src[e] && P->src[e] != '\n')
		e++;
	Span at = { e, e };
	char *t = patch_reindent(P->o->text, "", 0, true);
	Buf b = {0};
	buf_printf(&b, "\n\n%s", t);
	free(t);
	patch_add_edit(P, at, b.data);
	buf_free(&b);
	PatchChange *c = patch_v4_change(P, "function_added", NULL, NULL, -1);
	c->detail = sema_sym(S, a)->id;   /* the anchor */
	c->after_text = spx_xstrdup(P->o->text);
	return true;
}

static bool
is_comment_line(const char *src, uint32_t ls, uint32_t le)
{
	while (ls < le && (src[ls] == ' ' || src[ls] == '\t'))
		ls++;
	return le - ls >= 2 && src[ls] == '/' && src[ls + 1] == '/';
}

/* A use of the deleted function outside it that no other operation's edit
 * replaces (the callers may change in the same patch). */
static void
count_uses(Planner *P, const Expr *e)
{
	if (sema_expr_sym(P->S, e->id) != P->sym || (e->kind != EXPR_CALL && e->kind != EXPR_NAME))
		return;
	const Span *own = &sema_sym(P->S, P->sym)->decl->span;
	if (own->start <= e->span.start && e->span.end <= own->end)
		return;
	for (int i = 0; i < P->out->edits.len; i++) {
		const PatchEdit *x = &P->out->edits.items[i];
		if (x->op != P->op && x->start <= e->span.start && e->span.end <= x->end)
			return;
	}
	if (P->ci++ == 0)
		P->found = e;
}

bool
patch_v4_check_deletes(Planner *P, const SPatch *p)
{
	bool ok = true;
	for (int i = 0; i < p->nops; i++) {
		if (p->ops[i].kind != POP_DELETE_FUNCTION)
			continue;
		SymId f = sema_strmap_get(&P->S->ids, p->ops[i].w[0].s);
		if (f < 0)
			continue;
		patch_walk_op(P, p, i, f, count_uses);
		if (P->ci == 0)
			continue;
		/* the declaration holding the first use */
		const char *first = "a record invariant";
		for (SymId k = 0; k < P->S->syms.len; k++) {
			Sym *y = sema_sym(P->S, k);
			if (k != f && y->fn && y->span.start <= P->found->span.start && P->found->span.end <= y->span.end)
				first = y->id;
		}
		Diag *g = diag_report(P->d, DIAG_G111, &p->ops[i].w[0].span, "`%s` still has %d caller%s (first: `%s`)", p->ops[i].w[0].s, P->ci,
		    P->ci == 1 ? "" : "s", first);
		diag_set_help(g, "change the callers first, or in the same patch (`semaprax query <file> --calls %s` lists them)", p->ops[i].w[0].s);
		ok = false;
	}
	return ok;
}

static bool
plan_delete(Planner *P)
{
	Sema *S = P->S;
	SymId f = patch_select_fn(P, &P->o->w[0], false, "delete-function");
	if (f < 0)
		return false;
	Sym *y = sema_sym(S, f);
	/* the declaration's lines, the comment lines directly above it, and one blank line */
	uint32_t s = spx_line_start(P->src, y->decl->span.start);
	while (s > 0) {
		uint32_t ps = spx_line_start(P->src, s - 1);
		if (!is_comment_line(P->src, ps, s - 1))
			break;
		s = ps;
	}
	uint32_t e = y->decl->span.end;
	while (P->src[e] && P->src[e] != '\n')
		e++;
	if (P->src[e] == '\n')
		e++;
	if (P->src[e] == '\n')
		e++;
	else if (s >= 2 && P->src[s - 1] == '\n' && P->src[s - 2] == '\n')
		s--;
	Span at = { s, e };
	patch_add_edit(P, at, "");
	PatchChange *c = patch_v4_change(P, "function_deleted", NULL, NULL, -1);
	c->function = y->id;
	c->before_text = slice(P->src, y->decl->span);
	return true;
}

/* ---- change-parameter-type ---- */

static bool
plan_param(Planner *P)
{
	SymId f = patch_select_fn(P, &P->o->w[0], true, "change-parameter-type");
	if (f < 0)
		return false;
	Sym *y = sema_sym(P->S, f);
	unsigned long ix = strtoul(P->o->w[1].s, NULL, 10);
	if (ix >= (unsigned long)y->fn->nparams) {
		Buf why = {0};   /* as long as the name */
		buf_printf(&why, "`%s` has %d parameter%s", y->name, y->fn->nparams, y->fn->nparams == 1 ? "" : "s");
		patch_stale_index(P, &P->o->w[1], why.data, "parameter", (unsigned long)y->fn->nparams);
		buf_free(&why);
		return false;
	}
	const Param *p = &y->fn->params[ix];
	Span ts = p->type->span;
	size_t n = ts.end - ts.start;
	if (strlen(P->o->w[2].s) != n || memcmp(P->src + ts.start, P->o->w[2].s, n) != 0) {
		/* the whole type: the help is text to copy */
		Buf why = {0}, help = {0};
		buf_printf(&why, "parameter `%s` has type `%.*s`", p->name.s, (int)n, P->src + ts.start);
		buf_printf(&help, "write the type as the source does: `from %.*s`", (int)n, P->src + ts.start);
		patch_stale_help(P, &P->o->w[2], why.data, help.data);
		buf_free(&why);
		buf_free(&help);
		return false;
	}
	if (strcmp(P->o->w[2].s, P->o->to.s) == 0)
		return no_op(P, "the parameter already has this type");
	patch_add_edit(P, ts, P->o->to.s);
	PatchChange *c = patch_v4_change(P, "parameter_type", y, p->name.s, (int)ix);
	c->before_text = spx_xstrdup(P->o->w[2].s);
	c->after_text = spx_xstrdup(P->o->to.s);
	return true;
}

bool
patch_plan_v4(Planner *P)
{
	switch (P->o->kind) {
	case POP_REPLACE_BODY: return plan_body(P);
	case POP_REPLACE_EXPR: return plan_expr(P);
	case POP_ADD_CLAUSE: return plan_add_clause(P);
	case POP_REMOVE_CLAUSE: return plan_remove_clause(P);
	case POP_ADD_FUNCTION: return plan_add_function(P);
	case POP_DELETE_FUNCTION: return plan_delete(P);
	case POP_PARAM_TYPE: return plan_param(P);
	case POP_ADD_PARAM: return patch_plan_add_param(P);
	case POP_ADD_CASE: return patch_plan_add_case(P);
	case POP_REMOVE_PARAM: return patch_plan_remove_param(P);
	case POP_REMOVE_CASE: return patch_plan_remove_case(P);
	default: return false;
	}
}

/* ---- fragments stay in their place ---- */

/*
 * A fragment is spliced as text, so without these checks it could reach
 * past its place: close the function it belongs to and write the next
 * header anew, hide the rest of a line behind `//`, leave a string or
 * comment open, or attach an attribute to the next declaration.  Two
 * checks keep it in place.  Before the re-check (patch_edits_in_place):
 * every fragment lexes alone, its brackets never close what they did not
 * open, and the candidate's tokens are exactly the original's outside the
 * edits plus each edit's own tokens (nothing swallowed or merged).  After
 * it (patch_fragments_whole): an expression or clause fragment is exactly
 * one expression of the candidate, an added function exactly one
 * declaration.  Both are G108.
 */

static Diag *
misplaced(DiagSink *d, const SPatch *p, int op, const char *what)
{
	Diag *g = diag_report(d, DIAG_G108, &p->ops[op].line,
	    "semantic patch changed meaning outside its admitted delta: the fragment of the operation on line %u %s", p->ops[op].lineno, what);
	diag_set_help(g, "a fragment is one expression, one body or one function: its brackets balance, and it leaves no string or comment open "
	    "and no `//` comment before text that follows it on its line");
	return g;
}

/* The operations whose text comes from the patch: change-parameter-type's
 * `to` too, one word spliced as the type (`i64)->i64//` closed the list and
 * hid the rest of its line, a `requires` there with it; qa40). */
static bool
fragment_op(PatchOpKind k)
{
	return k == POP_REPLACE_BODY || k == POP_REPLACE_EXPR || k == POP_ADD_CLAUSE || k == POP_ADD_FUNCTION || k == POP_ADD_PARAM || k == POP_ADD_CASE ||
	    k == POP_PARAM_TYPE;
}

/* Lex text; false if it has a lexical error.  The tokens (EOF excluded) in *lx. */
static bool
lex_alone(LexResult *lx, const char *text, size_t len, Arena *a)
{
	DiagSink q;
	diag_init(&q, "fragment", text, len);
	lex_source(lx, text, len, a, &q);
	bool ok = !lx->had_error && !lx->fatal && q.errors == 0;
	diag_free(&q);
	if (ok && lx->ntoks > 0 && lx->toks[lx->ntoks - 1].kind == TOK_EOF)
		lx->ntoks--;
	return ok;
}

bool
patch_edits_in_place(const SPatch *p, const PatchPlan *pl, const char *src, size_t len, DiagSink *d)
{
	bool any = false;
	for (int i = 0; i < pl->edits.len && !any; i++)
		any = fragment_op(p->ops[pl->edits.items[i].op].kind);
	if (!any)
		return true;
	Arena a;
	arena_init(&a);
	bool ok = true;
	/* every edit's text lexed alone, once: each fragment must lex and its
	 * brackets never go below zero; the token comparison below reads them
	 * all (an edit that does not lex: lexed[i] false) */
	LexResult *lx = spx_xcalloc((size_t)pl->edits.len, sizeof *lx);
	bool *lexed = spx_xcalloc((size_t)pl->edits.len, sizeof *lexed);
	for (int i = 0; i < pl->edits.len && ok; i++) {
		const PatchEdit *e = &pl->edits.items[i];
		lexed[i] = lex_alone(&lx[i], e->text, strlen(e->text), &a);
		if (!fragment_op(p->ops[e->op].kind))
			continue;
		if (!lexed[i]) {
			misplaced(d, p, e->op, "leaves a string or comment open or holds a lexical error");
			ok = false;
		}
		int depth = 0;
		for (int t = 0; t < lx[i].ntoks && ok; t++) {
			uint8_t k = lx[i].toks[t].kind;
			depth += (k == TOK_LPAREN || k == TOK_LBRACE || k == TOK_LBRACKET) - (k == TOK_RPAREN || k == TOK_RBRACE || k == TOK_RBRACKET);
			if (depth < 0) {
				misplaced(d, p, e->op, "closes a bracket it did not open");
				ok = false;
			}
		}
		if (ok && depth != 0) {
			misplaced(d, p, e->op, "leaves a bracket open");
			ok = false;
		}
	}
	/* the candidate's tokens: the original's outside the edits, shifted,
	 * and each edit's own tokens at its place */
	size_t clen;
	char *cand = ok ? patch_apply(src, len, pl, &clen) : NULL;
	LexResult lo = {0}, lc = {0};
	if (ok && lex_alone(&lo, src, len, &a) && lex_alone(&lc, cand, clen, &a)) {
		int t = 0, c = 0;
		int64_t shift = 0;
		int bad = -1;
		for (int i = 0; i <= pl->edits.len && bad < 0; i++) {
			const PatchEdit *e = i < pl->edits.len ? &pl->edits.items[i] : NULL;
			uint32_t upto = e ? e->start : (uint32_t)len;
			for (; t < lo.ntoks && lo.toks[t].span.start < upto && bad < 0; t++, c++)
				if (c >= lc.ntoks || lc.toks[c].kind != lo.toks[t].kind || (int64_t)lc.toks[c].span.start != lo.toks[t].span.start + shift ||
				    (int64_t)lc.toks[c].span.end != lo.toks[t].span.end + shift)
					bad = e ? e->op : pl->edits.items[pl->edits.len - 1].op;
			if (!e || bad >= 0)
				break;
			while (t < lo.ntoks && lo.toks[t].span.start < e->end)
				t++;
			const LexResult *le = &lx[i];
			size_t tl = strlen(e->text);
			if (lexed[i]) {
				for (int k = 0; k < le->ntoks && bad < 0; k++, c++)
					if (c >= lc.ntoks || lc.toks[c].kind != le->toks[k].kind ||
					    (int64_t)lc.toks[c].span.start != (int64_t)le->toks[k].span.start + e->start + shift)
						bad = e->op;
			} else {
				bad = e->op;
			}
			shift += (int64_t)tl - (int64_t)(e->end - e->start);
		}
		if (bad < 0 && c != lc.ntoks)
			bad = pl->edits.items[pl->edits.len - 1].op;
		if (bad >= 0) {
			misplaced(d, p, bad, "joins with or hides the source around it");
			ok = false;
		}
	}
	/* a candidate that does not lex is left to the re-check's diagnostics */
	lex_free(&lo);
	lex_free(&lc);
	for (int i = 0; i < pl->edits.len; i++)
		lex_free(&lx[i]);
	free(lx);
	free(lexed);
	free(cand);
	arena_free(&a);
	return ok;
}

/* find_span, but the fragment may hold parentheses around the node: a
 * parenthesised operand's node stops inside its parentheses, so `(a) || (b)`
 * is the node `a) || (b` with `(` before it and `)` after it */
static void
find_span_parens(Planner *P, const Expr *e)
{
	if (P->found || e->span.start < P->want_start || e->span.end > P->want_end)
		return;
	const char *src = P->S->src;
	for (uint32_t i = P->want_start; i < e->span.start; i++)
		if (src[i] != '(' && src[i] != ' ' && src[i] != '\t' && src[i] != '\n' && src[i] != '\r')
			return;
	for (uint32_t i = e->span.end; i < P->want_end; i++)
		if (src[i] != ')' && src[i] != ' ' && src[i] != '\t' && src[i] != '\n' && src[i] != '\r')
			return;
	P->found = e;
	P->found_parent = P->parent;
}

static void
find_decl_span(Planner *P, const Module *m)
{
	for (int i = 0; i < m->ndecls && !P->found_decl; i++)
		if (m->decls[i].span.start == P->want_start && m->decls[i].span.end == P->want_end)
			P->found_decl = &m->decls[i];
}

bool
patch_fragments_whole(const SPatch *p, const PatchPlan *pl, Sema *after, DiagSink *d)
{
	int64_t shift = 0;
	for (int i = 0; i < pl->edits.len; i++) {
		const PatchEdit *e = &pl->edits.items[i];
		PatchOpKind k = p->ops[e->op].kind;
		size_t tl = strlen(e->text);
		int64_t at = (int64_t)e->start + shift;
		shift += (int64_t)tl - (int64_t)(e->end - e->start);
		if (k != POP_REPLACE_EXPR && k != POP_ADD_CLAUSE && k != POP_ADD_FUNCTION)
			continue;
		/* the fragment's bytes in the edit's text, blanks trimmed */
		size_t s = 0, n = tl;
		if (k == POP_ADD_CLAUSE) {
			const char *kw = strstr(e->text, p->ops[e->op].w[1].s);
			s = kw ? (size_t)(kw - e->text) + strlen(p->ops[e->op].w[1].s) : 0;
		}
		while (s < n && (e->text[s] == ' ' || e->text[s] == '\t' || e->text[s] == '\n' || e->text[s] == '\r'))
			s++;
		while (n > s && (e->text[n - 1] == ' ' || e->text[n - 1] == '\t' || e->text[n - 1] == '\n' || e->text[n - 1] == '\r'))
			n--;
		Planner P;
		patch_planner_init(&P, after);
		P.m = after->m;
		P.want_start = (uint32_t)(at + (int64_t)s);
		P.want_end = (uint32_t)(at + (int64_t)n);
		bool found;
		if (k == POP_ADD_FUNCTION) {
			find_decl_span(&P, after->m);
			found = P.found_decl != NULL;
		} else {
			P.on_expr = find_span;
			patch_walk_module(&P);
			found = P.found != NULL;
			/* parentheses hold no node of their own: around the fragment
			 * (`(a + b)`) or around an operand at its edge (`(a) || b`) */
			if (!found) {
				P.on_expr = find_span_parens;
				patch_walk_module(&P);
				found = P.found != NULL;
			}
		}
		if (!found) {
			misplaced(d, p, e->op, k == POP_ADD_FUNCTION ? "is not exactly one declaration" : "is not exactly one expression");
			return false;
		}
	}
	return true;
}
