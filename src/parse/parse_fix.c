/*
 * parse_fix.c — the missing-`->` fix's result type (P106 on `fn f() { … }`).
 *
 * After the P106 the body is not parsed for the tree (the declaration is in
 * panic), so it is parsed aside here, into the arena with its diagnostics
 * muted and the parser's state put back afterwards (parse_arrow_defer).  The
 * type its tail is certain to have is read from that tree once the whole
 * module is parsed (parse_arrow_finish), so a call of a function declared
 * further down is typed too:
 *
 *   - a literal, `!…`, a comparison or logical operator (bool), arithmetic
 *     or `-…` (an operand's type, when one is known);
 *   - a name: its last `let` in the enclosing blocks (its annotation, or its
 *     value's type), else an unmoded parameter's declared type;
 *   - a call of the module's one non-generic function of that name whose
 *     result is declared, the callee never bound otherwise in the function
 *     (every spelling of it in the parameters and the body is a call);
 *   - a block's tail; an `if`/`else` or a `match` whose branches all have one
 *     type (a match arm whose pattern binds names reads no outer name).
 *
 * Anything else (a method, a field, a builtin: the parser does not see the
 * builtin table, a generic call, type text holding a comment or a line
 * break) is unknown: no fix.  When the body does not parse, the token-level
 * reading (parse_body_tail_type) is kept.
 */
#include "parse_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The source text of a type, or NULL when it is not one clean line. */
static const char *
type_text(Parser *p, const Type *t)
{
	if (!t || t->span.end <= t->span.start || t->span.end - t->span.start > 200)
		return NULL;
	const char *s = p->src + t->span.start;
	size_t n = t->span.end - t->span.start;
	for (size_t i = 0; i < n; i++)
		if (s[i] == '/' || s[i] == '\n' || s[i] == '\r')
			return NULL;
	char *out = arena_alloc(p->arena, n + 1);
	memcpy(out, s, n);
	out[n] = '\0';
	return out;
}

static bool
is_word_byte(unsigned char c)
{
	return c == '_' || c >= 0x80 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Does text spell the identifier w as a whole word? */
static bool
has_word(const char *text, const char *w)
{
	size_t n = strlen(w);
	for (const char *s = text; (s = strstr(s, w)) != NULL; s++)
		if ((s == text || !is_word_byte((unsigned char)s[-1])) && !is_word_byte((unsigned char)s[n]))
			return true;
	return false;
}

/* Spellings are interned (one pointer per spelling): sorted by address. */
static int
cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(const char *const *)a, y = (uintptr_t)*(const char *const *)b;
	return x < y ? -1 : x > y;
}

static int
cmp_fn(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)(*(const FnDecl *const *)a)->name.s, y = (uintptr_t)(*(const FnDecl *const *)b)->name.s;
	return x < y ? -1 : x > y;
}

/* ---- the body parsed aside ---------------------------------------------------- */

void
parse_arrow_defer(Parser *p, Diag *d, uint32_t at, const FnDecl *fn, bool main)
{
	if (!d)
		return;
	ArrowFix a;
	memset(&a, 0, sizeof a);
	a.diag = (int)(d - p->diags->items.items);
	a.at = at;
	a.main = main;
	a.params = fn->params;
	a.nparams = fn->nparams;
	a.tparams = fn->tparams;
	a.ntparams = fn->ntparams;
	a.tok_type = parse_body_tail_type(p, 0);
	int k = parse_body_open(p, 0);
	if (k < 0) {
		VEC_PUSH(p->arrow_fixes, a);
		return;
	}
	Parser saved = *p;
	DiagSink quiet;
	diag_init(&quiet, NULL, p->src, p->len);
	p->diags = &quiet;
	p->panic = false;
	p->result = NULL;
	p->tail_block = p->tail_if = p->tail_branch = false;
	p->no_record = p->in_guard = p->in_for_iter = false;
	p->pos += k;
	int open = p->pos;
	Block *b = parse_block_ctx(p, BLK_FN, "`{` before function body");
	if (!p->panic && quiet.errors == 0) {
		a.body = b;
		/* every identifier of the body not followed by `(`: the names it
		 * binds (a `let`, a pattern, a closure parameter) or reads */
		VEC(const char *) bound = {0};
		for (int i = 0; i < fn->nparams; i++)
			VEC_PUSH(bound, fn->params[i].name.s);
		for (int i = open; i < p->pos; i++)
			if (p->toks[i].kind == TOK_IDENT && p->toks[i + 1].kind != TOK_LPAREN)
				VEC_PUSH(bound, parse_name_of(p, &p->toks[i]).s);
		if (bound.len > 1)
			qsort(bound.items, (size_t)bound.len, sizeof *bound.items, cmp_ptr);
		a.bound = ARENA_COPY(p, const char *, bound);
		a.nbound = bound.len;
		VEC_FREE(bound);
	}
	diag_free(&quiet);
	/* the name table and the gathered `_if` names may have grown: keep them */
	saved.names = p->names;
	saved.names_cap = p->names_cap;
	saved.names_len = p->names_len;
	saved.if_taken = p->if_taken;
	saved.nif_taken = p->nif_taken;
	saved.if_gathered = p->if_gathered;
	saved.arrow_fixes = p->arrow_fixes;
	saved.closer = p->closer;
	saved.no_closer = p->no_closer;
	/* the body is parsed again (the same ids): its groups are met again */
	saved.groups.items = p->groups.items;
	saved.groups.cap = p->groups.cap;
	*p = saved;
	VEC_PUSH(p->arrow_fixes, a);
}

/* ---- the tail's type ---------------------------------------------------------- */

/* The statements before a point of one block, and the blocks around it;
 * sealed: names above are out of reach (a match arm that binds names). */
typedef struct Scope {
	Stmt *const *stmts;
	int n;
	const struct Scope *up;
	bool sealed;
} Scope;

typedef struct TailCtx {
	Parser *p;
	const ArrowFix *a;
	const FnDecl **fns;   /* the module's functions, by name address */
	int nfns;
	int depth;   /* nested readings (a `let` chain `let b = a; let c = b; …` too): bounded */
} TailCtx;

static const char *tail_type(TailCtx *c, const Expr *e, const Scope *sc);

static const char *
name_type(TailCtx *c, const char *name, const Scope *sc)
{
	for (; sc; sc = sc->up) {
		for (int i = sc->n - 1; i >= 0; i--) {
			const Stmt *st = sc->stmts[i];
			if (st->kind != STMT_LET || st->u.let.name.s != name)
				continue;
			if (st->u.let.type)
				return type_text(c->p, st->u.let.type);
			Scope at = { sc->stmts, i, sc->up, sc->sealed };
			return st->u.let.value ? tail_type(c, st->u.let.value, &at) : NULL;
		}
		if (sc->sealed)
			return NULL;
		if (!sc->up)
			break;
	}
	for (int i = 0; i < c->a->nparams; i++) {
		const Param *pa = &c->a->params[i];
		if (pa->name.s == name)
			return pa->mode == MODE_NONE ? type_text(c->p, pa->type) : NULL;
	}
	return NULL;
}

/* A call's result, the name never bound in the function: a compiler-owned
 * function's when the driver says it is certain (ParseBuiltinResult), else
 * the module's one function of that name, not generic, its result declared. */
static const char *
call_type(TailCtx *c, const Expr *e)
{
	const char *name = e->u.call.callee.s;
	if (e->u.call.has_targs || !name)
		return NULL;
	if (c->a->nbound && bsearch(&name, c->a->bound, (size_t)c->a->nbound, sizeof *c->a->bound, cmp_ptr))
		return NULL;
	const char *t = c->p->builtin_result ? c->p->builtin_result(name) : NULL;
	if (!t) {
		FnDecl key;
		key.name.s = name;
		const FnDecl *kp = &key;
		const FnDecl **at = c->nfns ? bsearch(&kp, c->fns, (size_t)c->nfns, sizeof *c->fns, cmp_fn) : NULL;
		if (!at)
			return NULL;
		if ((at > c->fns && at[-1]->name.s == name) || (at + 1 < c->fns + c->nfns && at[1]->name.s == name))
			return NULL;   /* two of them: not certain */
		if ((*at)->ntparams || !(*at)->result)
			return NULL;
		t = type_text(c->p, (*at)->result);
	}
	/* the caller's own type parameters would hide a type of that name */
	for (int i = 0; t && i < c->a->ntparams; i++)
		if (c->a->tparams[i].s && has_word(t, c->a->tparams[i].s))
			return NULL;
	return t;
}

static bool
pattern_binds(const Pattern *pat)
{
	switch (pat->kind) {
	case PAT_WILD: case PAT_LIT:
		return false;
	case PAT_OR:
		for (int i = 0; i < pat->u.or.nalts; i++)
			if (pattern_binds(pat->u.or.alts[i]))
				return true;
		return false;
	case PAT_CASE:
		return pat->u.case_.nfields > 0;
	default:
		return true;
	}
}

static const char *
block_type(TailCtx *c, const Block *b, const Scope *sc, bool sealed)
{
	if (!b || !b->tail)
		return NULL;
	Scope in = { b->stmts, b->nstmts, sc, sealed };
	return tail_type(c, b->tail, &in);
}

static const char *
same(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0 ? a : NULL;
}

static const char *tail_type_of(TailCtx *c, const Expr *e, const Scope *sc);

/* Past 2 × PARSE_MAX_DEPTH readings the type is unknown (the recursion
 * stays within the stack whatever the body's length). */
static const char *
tail_type(TailCtx *c, const Expr *e, const Scope *sc)
{
	if (c->depth >= 2 * PARSE_MAX_DEPTH)
		return NULL;
	c->depth++;
	const char *t = tail_type_of(c, e, sc);
	c->depth--;
	return t;
}

static const char *
tail_type_of(TailCtx *c, const Expr *e, const Scope *sc)
{
	switch (e->kind) {
	case EXPR_NAME:
		return name_type(c, e->u.name.s, sc);
	case EXPR_CALL:
		return call_type(c, e);
	case EXPR_BLOCK:
		return block_type(c, e->u.block, sc, false);
	case EXPR_IF:
		if (!e->u.if_.else_block)
			return NULL;
		return same(block_type(c, e->u.if_.then_block, sc, false), block_type(c, e->u.if_.else_block, sc, false));
	case EXPR_MATCH: {
		const char *t = NULL;
		for (int i = 0; i < e->u.match.narms; i++) {
			const MatchArm *arm = &e->u.match.arms[i];
			Scope in = { NULL, 0, sc, pattern_binds(arm->pat) };
			const char *at = tail_type(c, arm->value, &in);
			if (!at || (t && strcmp(t, at) != 0))
				return NULL;
			t = at;
		}
		return t;
	}
	default: {
		const Expr *sub[2];
		const char *t = parse_expr_shape_type(e, sub);
		for (int i = 0; !t && i < 2 && sub[i]; i++)
			t = tail_type(c, sub[i], sc);
		return t;
	}
	}
}

/* The waiting fixes, now that every function's result is known. */
void
parse_arrow_finish(Parser *p, const Decl *decls, int ndecls)
{
	VEC(const FnDecl *) fns = {0};
	for (int i = 0; p->arrow_fixes.len && i < ndecls; i++)
		if (decls[i].kind == DECL_FN && decls[i].u.fn.name.s)
			VEC_PUSH(fns, &decls[i].u.fn);
	if (fns.len)
		qsort(fns.items, (size_t)fns.len, sizeof *fns.items, cmp_fn);
	for (int i = 0; i < p->arrow_fixes.len; i++) {
		const ArrowFix *a = &p->arrow_fixes.items[i];
		if (a->diag < 0 || a->diag >= p->diags->items.len || p->diags->items.items[a->diag].code != DIAG_P106)
			continue;
		Diag *d = &p->diags->items.items[a->diag];
		const char *ty = a->tok_type;
		if (a->body) {
			TailCtx c = { p, a, fns.items, fns.len, 0 };
			Scope top = { a->body->stmts, a->body->nstmts, NULL, false };
			ty = a->body->tail ? tail_type(&c, a->body->tail, &top) : NULL;
		}
		if (a->main && (!ty || strcmp(ty, "i64") == 0)) {
			diag_add_fix(d, a->at, a->at, " -> i64");
		} else if (ty && !a->main) {
			size_t n = strlen(ty) + 5;
			char *buf = malloc(n);
			if (!buf)
				continue;
			snprintf(buf, n, " -> %s", ty);
			diag_add_fix(d, a->at, a->at, buf);
			free(buf);
		}
	}
	VEC_FREE(fns);
	VEC_FREE(p->arrow_fixes);
}

/*
 * `fn f(n: i64) requires n > 0 -> i64 {`: the result type written after
 * the `uses`/`requires`/`ensures` clauses (p is at the first of them, d is
 * the P106).  A `->` at bracket depth 0 before the body's `{` (not a
 * closure's: after `|`), followed by a type of one clean line (no comment,
 * no line break) that ends at that `{` or at a clause word, is moved to
 * the signature: it is deleted with the space before it and inserted at
 * `at`.  False (no fix) when there is no such arrow.
 */
bool
parse_arrow_late(Parser *p, Diag *d, uint32_t at)
{
	int depth = 0;
	for (int i = p->pos; i < p->ntoks - 1; i++) {
		const Token *t = &p->toks[i];
		switch (t->kind) {
		case TOK_LPAREN: case TOK_LBRACKET:
			depth++;
			continue;
		case TOK_RPAREN: case TOK_RBRACKET: case TOK_RBRACE:
			if (--depth < 0)
				return false;
			continue;
		case TOK_LBRACE:
			if (depth == 0 && !parse_tok_is_word(p, &p->toks[i - 1], "requires") &&
			    !parse_tok_is_word(p, &p->toks[i - 1], "ensures") && !parse_tok_is_word(p, &p->toks[i - 1], "uses"))
				return false;   /* the body: no late arrow */
			depth++;
			continue;
		case TOK_ARROW:
			break;
		default:
			if (t->kind == TOK_SEMI && depth == 0)
				return false;
			continue;
		}
		if (depth != 0 || p->toks[i - 1].kind == TOK_PIPE)
			continue;
		/* the type: up to the body's `{` or a clause word at depth 0 */
		int k = i + 1, td = 0;
		for (; k < p->ntoks - 1; k++) {
			const Token *u = &p->toks[k];
			if (td == 0 && (u->kind == TOK_LBRACE || parse_tok_is_word(p, u, "uses") ||
			    parse_tok_is_word(p, u, "requires") || parse_tok_is_word(p, u, "ensures")))
				break;
			if (u->kind == TOK_LPAREN || u->kind == TOK_LBRACKET || u->kind == TOK_LT)
				td++;
			else if (u->kind == TOK_RPAREN || u->kind == TOK_RBRACKET || u->kind == TOK_GT)
				td--;
			else if (u->kind == TOK_SEMI || u->kind == TOK_RBRACE)
				return false;
		}
		if (k == i + 1 || k >= p->ntoks - 1 || td != 0)
			return false;
		uint32_t from = p->toks[i - 1].span.end, ts = t->span.start, te = p->toks[k - 1].span.end;
		for (uint32_t j = ts; j < te; j++)
			if (p->src[j] == '\n' || p->src[j] == '\r' || p->src[j] == '/')
				return false;
		size_t n = te - ts;
		char *text = malloc(n + 2);
		if (!text)
			return false;
		text[0] = ' ';
		memcpy(text + 1, p->src + ts, n);
		text[n + 1] = '\0';
		diag_add_fix(d, at, at, text);
		diag_add_fix(d, from, te, "");
		diag_set_help(d, "the result type comes right after the parameters, before `uses`, `requires` and `ensures`: move `%s` there", text + 1);
		free(text);
		return true;
	}
	return false;
}
