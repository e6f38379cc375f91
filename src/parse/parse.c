/*
 * parse.c — recursive-descent parser: token access, error recovery, the
 * module header and every declaration form (LANGUAGE.md §2.1).
 *
 * Each parse function has its EBNF production above it.  Expressions and
 * types live in parse_expr.c, blocks and statements in parse_stmt.c, the
 * host boundary's declarations (resource, interface, session protocol) in
 * parse_boundary.c.
 * Keywords are contextual: they are IDENT tokens matched by spelling.
 */
#include "parse_int.h"

#include "../support/mapfile.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support/buf.h"

/* ==== token access ======================================================== */

/* parse_peek … parse_accept are inline (parse_int.h): they run for every
 * token and every keyword test. */

bool
parse_accept_word(Parser *p, const char *w)
{
	if (!parse_at_word(p, w))
		return false;
	parse_advance(p);
	return true;
}

Span
parse_tok_span(const Token *t)
{
	return t->span;
}

Span
parse_span_from(Parser *p, Span start)
{
	Span s = start;
	uint32_t end = p->pos > 0 ? p->toks[p->pos - 1].span.end : start.end;
	s.end = end > start.start ? end : start.end;
	return s;
}

const char *
parse_tok_desc(Parser *p, const Token *t, char *buf, size_t size)
{
	switch (t->kind) {
	case TOK_EOF:
		return "end of file";
	case TOK_IDENT:
	case TOK_INT:
	case TOK_FLOAT: {
		uint32_t n = t->span.end - t->span.start;
		if (n > 40)
			n = 40;
		snprintf(buf, size, "`%.*s`", (int)n, p->src + t->span.start);
		return buf;
	}
	case TOK_STRING:
		return "a string literal";
	case TOK_CHAR:
		return "a char literal";
	default:
		snprintf(buf, size, "`%s`", lex_tok_spelling[t->kind]);
		return buf;
	}
}

/* ==== errors ================================================================ */

static Diag *
verror(Parser *p, Span s, DiagCode code, const char *fmt, va_list ap)
{
	if (p->panic)
		return NULL;
	p->panic = true;
	p->had_error = true;
	if (p->in_use)
		code = DIAG_G170;  /* every malformed `use` is G170, as the reference */
	return diag_vreport(p->diags, code, &s, fmt, ap);   /* whole: it may quote a name of any length */
}

Diag *
parse_error_at(Parser *p, const Token *t, DiagCode code, const char *fmt, ...)
{
	if (t->kind == TOK_ERROR) {
		/* Already reported by the lexer: just recover. */
		p->panic = true;
		p->had_error = true;
		return NULL;
	}
	va_list ap;
	va_start(ap, fmt);
	Diag *d = verror(p, t->span, code, fmt, ap);
	va_end(ap);
	return d;
}

Diag *
parse_error_span(Parser *p, Span s, DiagCode code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	Diag *d = verror(p, s, code, fmt, ap);
	va_end(ap);
	return d;
}

/*
 * Help the reference attaches to "expected …" errors, chosen by the
 * offending token: the indexing, ternary, cast, word-operator and macro
 * habits (reference `parse_decorate_expected`).
 */
void
parse_decorate_expected(Parser *p, Diag *d)
{
	if (!d)
		return;
	Token *t = parse_peek(p);
	Token *prev = p->pos > 0 ? &p->toks[p->pos - 1] : t;
	if (parse_block_comment_help(p, d, t) || parse_expected_habit(p, d, t, prev))
		return;
	bool c_for = false;   /* `for (let i = 0; …)`, `for (i = 0; …)` read as a call of `for` (qa37) */
	for (int k = p->pos >= 4 ? p->pos - 4 : 0; k + 1 < p->pos && !c_for; k++)
		c_for = parse_tok_is_word(p, &p->toks[k], "for") && p->toks[k + 1].kind == TOK_LPAREN;
	if (c_for)
		diag_set_help(d, "there is no C-style `for`; count with `while`: `let mut i = 0; while i < n { …; i = i + 1; 0 }` (the body's final value is discarded), and walk a `Vec` with `for x in v { … }`");
	else if (t->kind == TOK_LBRACKET)
		diag_set_help(d, "there is no indexing syntax; read a `Vec` element with `vec_get<T>(v, i)` (`i` a `usize`, such as `0usize`), a string's byte with `string_byte_at(s, i)` (`i` an `i64`), or a byte with `byte_get(view, index)`, which returns `Option<u8>`, after `array_as_slice(array)` or `bytes_as_slice(bytes)`");
	else if (prev->kind == TOK_QUESTION && t->kind != TOK_RBRACE)
		diag_set_help(d, "there is no `? :` operator; `if` is an expression: `if <condition> { a } else { b }`");
	else if (parse_tok_is_word(p, t, "as"))
		diag_set_help(d, "there are no casts; convert with the compiler-owned functions, such as `i64_from_f64(x)`, `f64_from_i64(n)` or `usize_from_i64(n)`, or suffix literals to match the type, such as `5i32` or `5usize`");
	else if (parse_tok_is_word(p, t, "and") || parse_tok_is_word(p, t, "or")) {
		bool and = parse_tok_is_word(p, t, "and");
		diag_set_help(d, and ? "logical and is `&&`" : "logical or is `||`");
		diag_drop_fixes(d);   /* `let b = a` ⏎ `and c;`: not the `;` parse_expect offers */
		diag_add_fix(d, t->span.start, t->span.end, and ? "&&" : "||");   /* qa35 */
	} else if (parse_tok_is_word(p, prev, "not") && p->pos > 1 && p->toks[p->pos - 2].span.end < prev->span.start &&
	    (t->kind == TOK_IDENT || t->kind == TOK_INT || t->kind == TOK_FLOAT || t->kind == TOK_CHAR || t->kind == TOK_STRING ||
	     t->kind == TOK_BANG)) {
		/* `if not done {` (Python): the word was read as a name (qa35); an
		 * operand follows it (not `{ not }`, a field named `not`) */
		diag_set_help(d, "logical not is `!`: write `!%.*s`", (int)(t->span.end - t->span.start), p->src + t->span.start);
		diag_drop_fixes(d);
		diag_add_fix(d, prev->span.start, t->span.start, "!");
	} else if ((parse_tok_is_word(p, prev, "const") || parse_tok_is_word(p, prev, "static")) && t->kind == TOK_IDENT)
		/* `const N: i64 = 5;` inside a block (qa35) */
		diag_set_help(d, "there are no constants: bind the value with `let` (`let %.*s = …;`), or declare a function that returns it (`fn %.*s() -> i64 { … }`) at module level",
		    (int)(t->span.end - t->span.start), p->src + t->span.start, (int)(t->span.end - t->span.start), p->src + t->span.start);
	else if (p->pos > 1 && p->toks[p->pos - 2].kind == TOK_ARROW &&
		 (parse_tok_is_word(p, prev, "borrow") || parse_tok_is_word(p, prev, "own") || parse_tok_is_word(p, prev, "shared")))
		/* `-> borrow T`: the mode word was read as the result type */
	{
		diag_set_help(d, "a function's result takes no ownership mode: its caller owns what it returns; write the type alone after `->` and return a value (a copy, or a clone such as `vec_clone_at<T>(values, i)`)");
		/* `-> borrow Slice<u8>` / `-> borrow str`, as `help library` spells
		 * the compiler-owned view functions (byte_range, arg_utf8) */
		if (parse_tok_is_word(p, prev, "borrow") && (parse_tok_is_word(p, t, "Slice") || parse_tok_is_word(p, t, "str")))
			diag_set_note(d, "`borrow %s` is how `help library` spells a view that a compiler-owned function returns; your own functions cannot return one (SPX-%s): return %s, or take the owner as a parameter and build the view where it is read",
			    parse_tok_is_word(p, t, "str") ? "str" : "Slice<u8>", parse_tok_is_word(p, t, "str") ? "O116" : "T264",
			    parse_tok_is_word(p, t, "str") ? "an owned `string`, `string_from_str(view)`" : "owned `Bytes`, `bytes_copy(view)`");
	} else if (t->kind == TOK_BANG)
		parse_macro_help(p, d, prev);
}

/* parse_expect(tok, desc): P106 "expected <desc>", e.g. "expected `(` after function name". */
Token *
parse_expect(Parser *p, TokKind k, const char *desc)
{
	if (parse_at(p, k))
		return parse_advance(p);
	Token *t = parse_peek(p);
	Diag *d;
	if (k == TOK_SEMI && t->line_first && p->pos > 0 && t->kind != TOK_ERROR) {
		/* a `;` missing at a line end: the point just after the previous
		 * token, where it belongs, not the next line's token */
		uint32_t at = p->toks[p->pos - 1].span.end;
		d = parse_error_span(p, (Span){ at, at }, DIAG_P106, "expected %s", desc);
		diag_add_fix(d, at, at, ";");   /* machine-applicable: `fix` inserts it */
	} else {
		d = parse_error_at(p, t, DIAG_P106, "expected %s", desc);
	}
	diag_set_help(d, "the grammar needs %s here", desc);
	parse_decorate_expected(p, d);
	return NULL;
}

/* keyword(k): P104 "expected `k`". */
bool
parse_expect_word(Parser *p, const char *w)
{
	if (parse_accept_word(p, w))
		return true;
	Diag *d = parse_error_at(p, parse_peek(p), DIAG_P104, "expected `%s`", w);
	diag_set_help(d, "write `%s` here", w);
	parse_decorate_expected(p, d);
	return false;
}

bool
parse_enter(Parser *p, const Token *t)
{
	if (p->depth >= PARSE_MAX_DEPTH) {
		Diag *d = parse_error_at(p, t, DIAG_P207, "source nesting depth exceeds the admitted maximum (%d)", PARSE_MAX_DEPTH);
		diag_set_help(d, "split the expression or block into named helper functions");
		p->panic = true;
		return false;
	}
	p->depth++;
	return true;
}

void
parse_leave(Parser *p)
{
	p->depth--;
}

void *
parse_arena_copy_vec(Arena *a, const void *items, size_t size, int n)
{
	if (n == 0)
		return NULL;
	void *dst = arena_alloc(a, size * (size_t)n);
	memcpy(dst, items, size * (size_t)n);
	return dst;
}

/* ==== names ==================================================================== */

/* b[0..n) (n < 8) as one word: two overlapping loads or three bytes, never
 * a byte outside; equal words are equal spellings. */
static inline uint64_t
name_word(const char *b, uint32_t n)
{
	if (n >= 4) {
		uint32_t x, y;
		memcpy(&x, b, 4);
		memcpy(&y, b + n - 4, 4);
		return (uint64_t)x << 32 | y;
	}
	return n ? (uint64_t)(unsigned char)b[0] << 16 | (uint64_t)(unsigned char)b[n / 2] << 8 | (unsigned char)b[n - 1] : 0;
}

/* a[0..n) == b[0..n): below 8 bytes name_word covers every byte */
static inline bool
name_same(const char *a, const char *b, uint32_t n)
{
	return n < 8 ? name_word(a, n) == name_word(b, n) : memcmp(a, b, n) == 0;
}

/* The PRELUDE_N_* bits of a spelling (revision.c's prelude choice; each
 * family taken whole where that is simpler: a superset only loosens the
 * bound). */
static unsigned
prelude_name(const char *b, uint32_t len)
{
#define IS(w) (len == sizeof(w) - 1 && memcmp(b, w, sizeof(w) - 1) == 0)
	if (len >= 4 && memcmp(b, "vec_", 4) == 0)
		return PRELUDE_N_VEC | (IS("vec_into_iter") ? PRELUDE_N_ITER : 0) |
		    (IS("vec_reserve_exact") || IS("vec_set") || IS("vec_clear") ? PRELUDE_N_VEC3 : 0);
	if (len >= 4 && memcmp(b, "box_", 4) == 0)
		return PRELUDE_N_BOX;
	if (len >= 5 && memcmp(b, "iter_", 5) == 0)
		return PRELUDE_N_ITER;
	return IS("Vec") ? PRELUDE_N_VEC : IS("Box") ? PRELUDE_N_BOXT : IS("Bytes") ? PRELUDE_N_BYTES
	    : IS("Iter") || IS("IterStep") ? PRELUDE_N_ITER : 0;
#undef IS
}

/* The one arena copy of the spelling b[0..len): a large file names the same
 * few thousand identifiers hundreds of thousands of times. */
static const char *
intern_name(Parser *p, const char *b, uint32_t len)
{
	/* (arena_name_hash: the parser's hottest loop after the lexer; sema's
	 * string maps read it back from the copy) */
	uint32_t h = arena_name_hash(b, len);
	if ((p->names_len + 1) * 2 > p->names_cap) {
		uint32_t cap = p->names_cap ? p->names_cap * 2 : 256;
		/* probed all over: every page is written soon (one call for them) */
		ParseName *slots = spx_xmalloc(sizeof *slots * cap);
		spx_prefault(slots, sizeof *slots * cap);
		memset(slots, 0, sizeof *slots * cap);
		for (uint32_t i = 0; i < p->names_cap; i++) {
			if (!p->names[i].s)
				continue;
			uint32_t j = p->names[i].hash & (cap - 1);
			while (slots[j].s)
				j = (j + 1) & (cap - 1);
			slots[j] = p->names[i];
		}
		free(p->names);
		p->names = slots;
		p->names_cap = cap;
	}
	for (uint32_t i = h & (p->names_cap - 1);; i = (i + 1) & (p->names_cap - 1)) {
		ParseName *sl = &p->names[i];
		if (!sl->s) {
			sl->s = arena_name_copy(p->arena, b, len, h);
			p->prelude_names |= (uint8_t)prelude_name(b, len);
			sl->len = len;
			sl->hash = h;
			p->names_len++;
			return sl->s;
		}
		if (sl->hash == h && sl->len == len && name_same(sl->s, b, len))
			return sl->s;
	}
}

Name
parse_name_of(Parser *p, const Token *t)
{
	Name n;
	n.s = intern_name(p, p->src + t->span.start, t->span.end - t->span.start);
	n.span = t->span;
	return n;
}

/* ident(desc): P105 "expected <desc>". */
Name
parse_name(Parser *p, const char *what)
{
	if (parse_at(p, TOK_IDENT))
		return parse_name_of(p, parse_advance(p));
	Diag *d = parse_error_at(p, parse_peek(p), DIAG_P105, "expected %s", what);
	diag_set_help(d, "write the %s here: an identifier of ASCII letters, digits and `_`", what);
	parse_decorate_expected(p, d);
	Name n = { "", parse_peek(p)->span };
	return n;
}

/* qname = IDENT , { "." , IDENT } ; */
QName
parse_qname(Parser *p, const char *what)
{
	return parse_qname_buf(p, what, NULL);
}

/* parse_qname; a one-part name's part goes to *one (if given), not the arena. */
QName
parse_qname_buf(Parser *p, const char *what, Name *one)
{
	QName q;
	Span start = parse_peek(p)->span;
	Name first = parse_name(p, what);
	/* `. ident` pairs ahead: the parts array is sized before it is filled
	 * (every type annotation is a qname; no heap vector per name) */
	int n = 1;
	while (!p->panic && parse_peek_at(p, 2 * (n - 1))->kind == TOK_DOT &&
	    parse_peek_at(p, 2 * (n - 1) + 1)->kind == TOK_IDENT)
		n++;
	q.parts = n == 1 && one ? one : ARENA_ARRAY(p->arena, Name, n);
	q.parts[0] = first;
	for (int i = 1; i < n; i++) {
		parse_advance(p);
		q.parts[i] = parse_name_of(p, parse_advance(p));
	}
	q.nparts = n;
	q.span = parse_span_from(p, start);
	return q;
}

StrLit
parse_strlit(Parser *p, const char *what)
{
	StrLit s = { "", 0, parse_peek(p)->span };
	if (parse_at(p, TOK_STRING)) {
		Token *t = parse_advance(p);
		s.s = lex_str(p->toks, t);
		s.len = lex_str_len(p->toks, t);
		s.span = t->span;
		return s;
	}
	Diag *d = parse_error_at(p, parse_peek(p), DIAG_P105, "expected %s", what);
	diag_set_help(d, "write the %s as a string literal in double quotes", what);
	return s;
}

/*
 * id_attr = "@" , "id" , "(" , STRING , ")" ;  (at `@`)
 * in_stmt: the attribute stands where `@audit` would also be admitted.
 */
IdAttr
parse_attr(Parser *p, bool in_stmt)
{
	IdAttr a;
	memset(&a, 0, sizeof a);
	Span start = parse_peek(p)->span;
	parse_advance(p);  /* @ */
	Token *nt = parse_peek(p);
	if (!parse_tok_is_word(p, nt, "id")) {
		if (nt->kind != TOK_IDENT) {
			parse_error_at(p, nt, DIAG_P105, "expected attribute name");
			return a;
		}
		Name n = parse_name_of(p, parse_advance(p));
		Diag *d = parse_error_at(p, parse_peek(p), DIAG_P102, "unknown attribute `@%s`; only `@id`%s supported", n.s,
		    in_stmt ? " and `@audit` are" : " is");
		if (in_stmt)
			diag_set_help(d, "write `@audit(\"summary\")` before `unsafe`, or `@id(\"stable.name\")` before a declaration");
		else if (strcmp(n.s, "audit") == 0)
			diag_set_help(d, "`@audit(\"summary\")` marks an `unsafe` block inside a body; a declaration takes only `@id(\"stable.name\")`: move the summary into a `//` comment");
		else
			diag_set_help(d, "identify declarations with `@id(\"stable.name\")`; there are no other attributes: delete `@%s%s`", n.s,
			    parse_at(p, TOK_LPAREN) ? "(…)" : "");
		return a;
	}
	parse_advance(p);
	if (!parse_expect(p, TOK_LPAREN, "`(` after @id"))
		return a;
	if (!parse_at(p, TOK_STRING)) {
		if (parse_at(p, TOK_ERROR)) {
			parse_error_at(p, parse_peek(p), DIAG_P103, "@id expects a string literal");  /* silent: lexer reported */
			return a;
		}
		Diag *d = parse_error_span(p, p->toks[p->pos - 1].span, DIAG_P103, "@id expects a string literal");
		diag_set_help(d, "write the stable id in quotes: `@id(\"app.main\")`");
		return a;
	}
	a.value = parse_strlit(p, "stable id");
	parse_expect(p, TOK_RPAREN, "`)` after stable id");
	a.present = true;
	a.span = parse_span_from(p, start);
	return a;
}

IdAttr
parse_id_attr(Parser *p)
{
	return parse_attr(p, false);
}

/* effect_set = "{" , [ qname , { "," , qname } ] , "}" ; */
EffectSet
parse_effect_set(Parser *p)
{
	EffectSet e;
	memset(&e, 0, sizeof e);
	Span start = parse_peek(p)->span;
	if (!parse_at(p, TOK_LBRACE)) {
		int n0 = p->diags->items.len;
		Token *t = parse_peek(p);
		parse_expect(p, TOK_LBRACE, "`{` before effects");
		if (p->diags->items.len > n0)
			parse_effect_set_help(p, &p->diags->items.items[p->diags->items.len - 1], t);
		return e;
	}
	parse_advance(p);
	VEC(QName) names = {0};
	if (!parse_at(p, TOK_RBRACE)) {
		do {
			if (parse_at(p, TOK_RBRACE))
				break;  /* trailing comma tolerated */
			VEC_PUSH(names, parse_qname(p, "effect name"));
		} while (!p->panic && parse_accept(p, TOK_COMMA));
	}
	parse_expect(p, TOK_RBRACE, "`}` after effects");
	e.present = true;
	e.names = ARENA_COPY(p, QName, names);
	e.nnames = names.len;
	e.span = parse_span_from(p, start);
	VEC_FREE(names);
	return e;
}

/* ==== declarations ============================================================ */

/* type_params = "<" , IDENT , { "," , IDENT } , ">" ; */
Name *
parse_type_params(Parser *p, int *n)
{
	*n = 0;
	if (!parse_at(p, TOK_LT))
		return NULL;
	parse_advance(p);
	if (parse_at(p, TOK_GT)) {
		parse_error_at(p, parse_peek(p), DIAG_P106, "generic parameter list cannot be empty");
		return NULL;
	}
	VEC(Name) names = {0};
	while (!p->panic) {
		if (!parse_at(p, TOK_IDENT)) {
			parse_error_at(p, parse_peek(p), DIAG_P106, "expected generic type parameter");
			break;
		}
		VEC_PUSH(names, parse_name_of(p, parse_advance(p)));
		if (!parse_accept(p, TOK_COMMA))
			break;
		if (parse_at(p, TOK_GT)) {
			parse_error_at(p, parse_peek(p), DIAG_P106, "generic type parameters require comma-separated names without a trailing comma");
			break;
		}
	}
	parse_expect(p, TOK_GT, "`>` after generic type parameters");
	Name *out = ARENA_COPY(p, Name, names);
	*n = names.len;
	VEC_FREE(names);
	return out;
}

/*
 * From token offset k (after a parameter list): the offset of the function
 * body's `{`, the first one outside brackets not after `uses`, or -1 when a
 * `;` or `}` at that level, the end or a lexical error comes first.
 */
int
parse_body_open(Parser *p, int k)
{
	for (int depth = 0; p->pos + k < p->ntoks; k++) {
		Token *t = parse_peek_at(p, k);
		if (t->kind == TOK_EOF || t->kind == TOK_ERROR || (depth == 0 && (t->kind == TOK_SEMI || t->kind == TOK_RBRACE)))
			return -1;
		if (t->kind == TOK_LBRACE && depth == 0 && !parse_tok_is_word(p, parse_peek_at(p, k - 1), "uses"))
			return k;
		if (t->kind == TOK_LPAREN || t->kind == TOK_LBRACKET || t->kind == TOK_LBRACE)
			depth++;
		else if (t->kind == TOK_RPAREN || t->kind == TOK_RBRACKET || t->kind == TOK_RBRACE)
			depth--;
	}
	return -1;
}

/*
 * Inside a parameter list: does a body follow it (after `)`, the result type,
 * `uses { … }` and contract clauses) in which the parameter `name` is never
 * followed by `=`, `.`, `[` or a compound assignment, nor after `mut` —
 * nothing that could change it?  A token scan for U103's fix.
 */
static bool
body_leaves(Parser *p, const Token *name)
{
	int k = 0, depth = 0;
	for (;; k++) {
		TokKind tk = (TokKind)parse_peek_at(p, k)->kind;
		if (tk == TOK_EOF || tk == TOK_ERROR)
			return false;
		if (tk == TOK_LPAREN || tk == TOK_LBRACKET || tk == TOK_LBRACE)
			depth++;
		else if ((tk == TOK_RBRACKET || tk == TOK_RBRACE) && depth-- == 0)
			return false;
		else if (tk == TOK_RPAREN && depth-- == 0)
			break;
	}
	if ((k = parse_body_open(p, k + 1)) < 0)
		return false;
	uint32_t n = name->span.end - name->span.start;
	for (depth = 0; p->pos + k < p->ntoks; k++) {
		Token *t = parse_peek_at(p, k), *next = parse_peek_at(p, k + 1);
		if (t->kind == TOK_EOF || t->kind == TOK_ERROR)
			return false;
		if (t->kind == TOK_LBRACE)
			depth++;
		else if (t->kind == TOK_RBRACE && --depth == 0)
			return true;
		else if (t->kind == TOK_IDENT && t->span.end - t->span.start == n &&
		    memcmp(p->src + t->span.start, p->src + name->span.start, n) == 0 &&
		    (next->kind == TOK_ASSIGN || next->kind == TOK_DOT || next->kind == TOK_LBRACKET ||
			parse_tok_is_word(p, parse_peek_at(p, k - 1), "mut") ||
			(parse_peek_at(p, k + 2)->kind == TOK_ASSIGN && parse_peek_at(p, k + 2)->span.start == next->span.end)))
			return false;
	}
	return false;
}

/* param = IDENT , ":" , [ "own" | "borrow" | "shared" ] , type ; */
static Param
parse_param(Parser *p)
{
	Param pr;
	memset(&pr, 0, sizeof pr);
	Span start = parse_peek(p)->span;
	if (parse_at_word(p, "mut")) {
		/* `mut value: T` (or a parameter named `mut`): the reference's U103 */
		Diag *d = parse_error_at(p, parse_peek(p), DIAG_U103, "`mut` is only allowed on local `let` bindings; parameters are immutable");
		diag_set_help(d, "drop `mut`; to change the value, copy it into a local of another name: `let mut next = name;`");
		/* Dropping `mut` is the fix only when the body never changes the parameter
		 * (it left `x = x + 1;` U101, and a `let mut x = x;` copy is T209). */
		Token *name = parse_peek_at(p, 1);
		if (d && name->kind == TOK_IDENT && body_leaves(p, name))
			diag_add_fix(d, parse_peek(p)->span.start, parse_space_end(p, parse_peek(p)->span.end, name->span.start), "");
		return pr;
	}
	Token *name_tok = parse_peek(p);
	pr.name = parse_name(p, "parameter name");
	if (!p->panic && !parse_at(p, TOK_COLON) && parse_tok_is_word(p, name_tok, "self")) {
		/* `fn get(self)`: the receiver's type is written like any parameter's (qa29) */
		Diag *d = parse_error_at(p, parse_peek(p), DIAG_P106, "expected `:` after parameter name");
		if (p->class_name && p->class_tparams == 0) {
			diag_set_help(d, "`self` is an ordinary parameter with a written type: `self: %s`, or `self: borrow %s` to read the instance without consuming it",
			    p->class_name->s, p->class_name->s);
			/* the class's name whole: a cut one was a wrong fix (qa31) */
			Buf fix = {0};
			buf_printf(&fix, ": %s", p->class_name->s);
			diag_add_fix(d, name_tok->span.end, name_tok->span.end, fix.data);
			buf_free(&fix);
		} else if (p->class_name) {
			diag_set_help(d, "`self` is an ordinary parameter with a written type: `self: %s<…>` with the class's type parameters, or `self: borrow %s<…>`",
			    p->class_name->s, p->class_name->s);
		} else {
			diag_set_help(d, "`self` is an ordinary parameter with a written type, and only a class's methods take one: declare the method inside `class Name { … }` with `self: Name`");
		}
		return pr;
	}
	if (!p->panic && !parse_at(p, TOK_COLON)) {
		/* `fn f(x)`, `fn f(x i64)`, `fn f(int x)` (qa31) */
		Diag *d = parse_error_at(p, parse_peek(p), DIAG_P106, "expected `:` after parameter name");
		Token *next = parse_peek(p);
		if (d && next->kind == TOK_IDENT) {
			/* `int x` names the type first when the first word is a type's */
			static const char *const types[] = { "int", "long", "float", "double", "i64", "i32", "u8", "usize", "f64", "f32",
				"bool", "char", "string", "str", "String", "unsigned", "uint64_t", "int64_t" };
			bool c_style = false;
			for (size_t i = 0; i < countof(types); i++)
				c_style |= parse_tok_is_word(p, name_tok, types[i]);
			const Token *n = c_style ? next : name_tok, *ty = c_style ? name_tok : next;
			diag_set_help(d, "a parameter is its name, `:`, then its type: `%.*s: %.*s`", (int)(n->span.end - n->span.start), p->src + n->span.start,
			    (int)(ty->span.end - ty->span.start), p->src + ty->span.start);
		} else if (d)
			diag_set_help(d, "every parameter declares its type after `:`, such as `%s: i64`; types are not inferred", pr.name.s ? pr.name.s : "x");
		return pr;
	}
	parse_expect(p, TOK_COLON, "`:` after parameter name");
	/* A mode word is a mode only when a type follows it. */
	if (parse_peek_at(p, 1)->kind == TOK_IDENT || parse_peek_at(p, 1)->kind == TOK_LBRACKET) {
		if (parse_accept_word(p, "own"))
			pr.mode = MODE_OWN;
		else if (parse_accept_word(p, "borrow"))
			pr.mode = MODE_BORROW;
		else if (parse_accept_word(p, "shared"))
			pr.mode = MODE_SHARED;
	}
	pr.type = parse_type(p);
	pr.span = parse_span_from(p, start);
	return pr;
}

Param *
parse_params(Parser *p, int *n)
{
	VEC(Param) params = {0};
	parse_expect(p, TOK_LPAREN, "`(` after function name");
	if (!p->panic && !parse_at(p, TOK_RPAREN)) {
		do {
			if (parse_at(p, TOK_RPAREN))
				break;
			VEC_PUSH(params, parse_param(p));
		} while (!p->panic && parse_accept(p, TOK_COMMA));
	}
	parse_expect(p, TOK_RPAREN, "`)` after parameters");
	Param *out = ARENA_COPY(p, Param, params);
	*n = params.len;
	VEC_FREE(params);
	return out;
}

/* The result type: `-> type`, with the `fn f()` habit (`-> ()` is parse_type's). */
static Type *
parse_result_type(Parser *p, const FnDecl *fn)
{
	if (!parse_at(p, TOK_ARROW)) {
		Diag *d = parse_error_at(p, parse_peek(p), DIAG_P106, "expected `->` before return type");
		diag_set_help(d, "every function declares its result type after `->`; there is no unit or implicit result, so return `i64` or `bool`");
		/* `fn f() {` gains `-> T` for the type its tail is known to have
		 * (parse_fix.c; `main`: i64, the one result it may have); `fn f()
		 * bool {` only its `->`, `fn f(): bool {` its `->` for the `:`. */
		Token *t = parse_peek(p);
		uint32_t at = p->toks[p->pos - 1].span.end;
		if (!d)
			;
		else if (t->kind == TOK_LBRACE || parse_tok_is_word(p, t, "uses") || parse_tok_is_word(p, t, "requires") ||
		    parse_tok_is_word(p, t, "ensures")) {
			if (t->kind == TOK_LBRACE || !parse_arrow_late(p, d, at))
				parse_arrow_defer(p, d, at, fn, fn->name.s && strcmp(fn->name.s, "main") == 0);
		} else if (t->kind == TOK_IDENT)
			diag_add_fix(d, at, at, " ->");
		else if (t->kind == TOK_COLON && parse_peek_at(p, 1)->kind == TOK_IDENT)
			diag_add_fix(d, t->span.start, t->span.end, " ->");
		return NULL;
	}
	parse_advance(p);
	return parse_type(p);
}

/*
 * function = "fn" , IDENT , [ type_params ] , "(" , [ param , { "," , param } ] , ")" ,
 *            "->" , type , [ "uses" , effect_set ] ,
 *            { ( "requires" | "ensures" ) , cond_expr } , block ;
 */
static void
parse_function(Parser *p, FnDecl *fn)
{
	Span start = parse_peek(p)->span;
	parse_expect_word(p, "fn");
	fn->name = parse_name(p, "function name");
	fn->tparams = parse_type_params(p, &fn->ntparams);
	fn->params = parse_params(p, &fn->nparams);
	fn->result = parse_result_type(p, fn);
	if (!p->panic && parse_at_word(p, "uses")) {
		parse_advance(p);
		fn->uses = parse_effect_set(p);
	}
	VEC(Clause) clauses = {0};
	while (!p->panic && (parse_at_word(p, "requires") || parse_at_word(p, "ensures"))) {
		Clause c;
		c.span = parse_peek(p)->span;
		c.kind = parse_at_word(p, "requires") ? CLAUSE_REQUIRES : CLAUSE_ENSURES;
		parse_advance(p);
		c.cond = parse_cond(p);
		c.span = parse_span_from(p, c.span);
		VEC_PUSH(clauses, c);
	}
	fn->clauses = ARENA_COPY(p, Clause, clauses);
	fn->nclauses = clauses.len;
	VEC_FREE(clauses);
	fn->header = parse_span_from(p, start);
	if (!p->panic) {
		const Type *outer = p->result;
		p->result = fn->result;
		int n0 = p->diags->items.len;
		Token *met = parse_peek(p);
		fn->body = parse_block_ctx(p, BLK_FN, "`{` before function body");
		if (met->kind != TOK_LBRACE && p->diags->items.len > n0)
			parse_fn_body_help(p, &p->diags->items.items[n0], met, fn->nclauses > 0);
		p->result = outer;
	}
}

/* field_decl = [ id_attr ] , IDENT , ":" , type ; */
static FieldDecl
parse_field_decl(Parser *p, bool payload)
{
	FieldDecl f;
	memset(&f, 0, sizeof f);
	Span start = parse_peek(p)->span;
	if (parse_at(p, TOK_AT))
		f.id = parse_id_attr(p);
	Token *name_tok = parse_peek(p);
	f.name = parse_name(p, payload ? "variant payload field name" : "record field name");
	if (!payload && !p->panic && !parse_at(p, TOK_COLON) &&
	    (parse_tok_is_word(p, name_tok, "invariant") || parse_tok_is_word(p, name_tok, "requires"))) {
		/* `invariant x > 0,` inside the braces: the habit of languages
		 * whose invariants are members */
		Diag *d = parse_error_at(p, parse_peek(p), DIAG_P106, "expected `:` after record field name");
		diag_set_help(d, "a record's invariant is no field: write it after the record's closing `}` as `requires <condition>` (checked at every construction, `with` and field assignment)");
	} else {
		parse_expect(p, TOK_COLON, payload ? "`:` after variant payload field name" : "`:` after record field name");
	}
	f.type = parse_type(p);
	f.span = parse_span_from(p, start);
	return f;
}

/*
 * The `,` after a field, case, class field or match arm.  noun names it in
 * the message ("record field", "variant case", …).  The last one before `}`
 * needs it too: the reference's P106 "expected `,` after record field"
 * (fmt always writes it).
 */
bool
parse_member_comma(Parser *p, const char *noun)
{
	if (parse_accept(p, TOK_COMMA))
		return true;
	Token *prev = &p->toks[p->pos - 1];
	Diag *d = parse_error_at(p, parse_peek(p), DIAG_P106, "expected `,` after %s", noun);
	if (parse_at(p, TOK_RBRACE))
		diag_set_help(d, "every %s ends with `,`, including the last one before `}`", noun);
	else
		diag_set_help(d, "every %s ends with `,`", noun);
	parse_decorate_expected(p, d);
	if (parse_at(p, TOK_LPAREN) && strcmp(noun, "variant case") == 0) {
		diag_set_help(d, "variant cases name their fields: `Circle { @id(\"shape.circle.radius\") radius: i64, },`; a case without data is `Empty {},`");
		return false;
	}
	/* Only a comma between two members is a mechanical fix. */
	if (parse_at(p, TOK_RBRACE) || parse_at(p, TOK_IDENT) || parse_at(p, TOK_AT) || parse_at(p, TOK_INT) || parse_at(p, TOK_CHAR) ||
	    parse_at(p, TOK_MINUS) || parse_at(p, TOK_LBRACE))
		diag_add_fix(d, prev->span.end, prev->span.end, ",");
	return false;
}

/* fields = { field_decl , "," } ;  (inside braces; every field ends with ",") */
static FieldDecl *
parse_fields(Parser *p, int *n, const char *noun)
{
	VEC(FieldDecl) fields = {0};
	while (!p->panic && !parse_at(p, TOK_RBRACE) && !parse_at(p, TOK_EOF)) {
		VEC_PUSH(fields, parse_field_decl(p, strcmp(noun, "record field") != 0));
		if (!parse_member_comma(p, noun))
			break;
	}
	FieldDecl *out = ARENA_COPY(p, FieldDecl, fields);
	*n = fields.len;
	VEC_FREE(fields);
	return out;
}

/*
 * record = "record" , IDENT , [ type_params ] , "{" , fields , "}" ,
 *          { "requires" , cond_expr } ;
 */
static void
parse_record(Parser *p, Decl *d)
{
	parse_advance(p);
	d->u.record.name = parse_name(p, "record name");
	d->u.record.tparams = parse_type_params(p, &d->u.record.ntparams);
	parse_expect(p, TOK_LBRACE, "`{` before record fields");
	d->u.record.fields = parse_fields(p, &d->u.record.nfields, "record field");
	parse_expect(p, TOK_RBRACE, "`}` after record fields");
	VEC(Clause) inv = {0};
	while (!p->panic && parse_at_word(p, "requires")) {
		Clause c;
		c.span = parse_advance(p)->span;
		c.kind = CLAUSE_REQUIRES;
		c.cond = parse_cond(p);
		c.span = parse_span_from(p, c.span);
		VEC_PUSH(inv, c);
	}
	if (!p->panic && parse_at_word(p, "invariant")) {
		/* `} invariant lo <= hi`: the word other languages use */
		Token *t = parse_peek(p);
		Diag *dg = parse_error_at(p, t, DIAG_P104, "`invariant` is not a keyword; a record invariant is written `requires`");
		diag_set_help(dg, "write `requires <condition>` after the record's `}`: it is checked at every construction, `with` and field assignment");
		diag_add_fix(dg, t->span.start, t->span.end, "requires");
	}
	d->u.record.invariants = ARENA_COPY(p, Clause, inv);
	d->u.record.ninvariants = inv.len;
	VEC_FREE(inv);
}

/* case_decl = [ id_attr ] , IDENT , [ "{" , fields , "}" ] ; */
static CaseDecl
parse_case_decl(Parser *p)
{
	CaseDecl c;
	memset(&c, 0, sizeof c);
	Span start = parse_peek(p)->span;
	if (parse_at(p, TOK_AT))
		c.id = parse_id_attr(p);
	c.name = parse_name(p, "variant case name");
	if (!p->panic && parse_at(p, TOK_LBRACE)) {
		parse_advance(p);
		c.has_payload = true;
		c.fields = parse_fields(p, &c.nfields, "variant payload field");
		parse_expect(p, TOK_RBRACE, "`}` after variant payload fields");
	}
	c.span = parse_span_from(p, start);
	return c;
}

/* variant = "variant" , IDENT , [ type_params ] , "{" , { case_decl , "," } , "}" ; */
static void
parse_variant(Parser *p, Decl *d)
{
	parse_advance(p);
	d->u.variant.name = parse_name(p, "variant name");
	d->u.variant.tparams = parse_type_params(p, &d->u.variant.ntparams);
	parse_expect(p, TOK_LBRACE, "`{` before variant cases");
	VEC(CaseDecl) cases = {0};
	while (!p->panic && !parse_at(p, TOK_RBRACE) && !parse_at(p, TOK_EOF)) {
		VEC_PUSH(cases, parse_case_decl(p));
		if (!parse_member_comma(p, "variant case"))
			break;
	}
	parse_expect(p, TOK_RBRACE, "`}` after variant cases");
	d->u.variant.cases = ARENA_COPY(p, CaseDecl, cases);
	d->u.variant.ncases = cases.len;
	VEC_FREE(cases);
}

/*
 * class = "class" , IDENT , [ type_params ] , [ ":" , IDENT , [ type_args ] ] ,
 *         "{" , { field_decl , "," | method } , "}" ;
 * A generic parent parses (the checker refuses it, T227, as the reference).
 */
static void
parse_class(Parser *p, Decl *d)
{
	parse_advance(p);
	d->u.class_.name = parse_name(p, "class name");
	d->u.class_.tparams = parse_type_params(p, &d->u.class_.ntparams);
	if (!p->panic && parse_accept(p, TOK_COLON)) {
		d->u.class_.has_parent = true;
		d->u.class_.parent = parse_name(p, "parent class name");
		if (!p->panic && parse_at(p, TOK_LT))
			d->u.class_.parent_targs = parse_type_args(p, &d->u.class_.nparent_targs);
	}
	parse_expect(p, TOK_LBRACE, "`{` before class members");
	const Name *outer_class = p->class_name;
	int outer_tparams = p->class_tparams;
	p->class_name = &d->u.class_.name;
	p->class_tparams = d->u.class_.ntparams;
	VEC(ClassMember) members = {0};
	while (!p->panic && !parse_at(p, TOK_RBRACE) && !parse_at(p, TOK_EOF)) {
		ClassMember m;
		memset(&m, 0, sizeof m);
		Span start = parse_peek(p)->span;
		if (parse_at(p, TOK_AT))
			m.id = parse_id_attr(p);
		if (parse_at_word(p, "fn") && parse_peek_at(p, 1)->kind == TOK_IDENT) {
			m.is_method = true;
			parse_function(p, &m.method);
		} else {
			m.field.name = parse_name(p, "class field name");
			parse_expect(p, TOK_COLON, "`:` after record field name");
			m.field.type = parse_type(p);
			m.field.id = m.id;
			m.field.span = parse_span_from(p, start);
			if (!p->panic)
				parse_member_comma(p, "class field");
		}
		m.span = parse_span_from(p, start);
		VEC_PUSH(members, m);
	}
	p->class_name = outer_class;
	p->class_tparams = outer_tparams;
	parse_expect(p, TOK_RBRACE, "`}` after class members");
	d->u.class_.members = ARENA_COPY(p, ClassMember, members);
	d->u.class_.nmembers = members.len;
	VEC_FREE(members);
}

/* item = [ id_attr ] , ( function | record | variant | class | resource | interface | session_protocol ) ; */
static bool
parse_item(Parser *p, Decl *d)
{
	memset(d, 0, sizeof *d);
	Span start = parse_peek(p)->span;
	if (parse_at(p, TOK_AT))
		d->id = parse_id_attr(p);
	if (p->panic)
		return false;
	Token *t = parse_peek(p);
	if (parse_tok_is_word(p, t, "fn")) {
		d->kind = DECL_FN;
		parse_function(p, &d->u.fn);
	} else if (parse_tok_is_word(p, t, "record")) {
		d->kind = DECL_RECORD;
		parse_record(p, d);
	} else if (parse_tok_is_word(p, t, "variant")) {
		d->kind = DECL_VARIANT;
		parse_variant(p, d);
	} else if (parse_tok_is_word(p, t, "class")) {
		d->kind = DECL_CLASS;
		parse_class(p, d);
	} else if (parse_tok_is_word(p, t, "resource")) {
		d->kind = DECL_RESOURCE;
		parse_resource(p, d);
	} else if (parse_tok_is_word(p, t, "interface")) {
		d->kind = DECL_INTERFACE;
		parse_interface(p, d);
	} else if (parse_tok_is_word(p, t, "session")) {
		d->kind = DECL_SESSION;
		parse_session(p, d);
	} else {
		parse_item_habit(p, t);
		return false;
	}
	d->span = parse_span_from(p, start);
	return !p->panic;
}

bool
parse_item_at(Parser *p, Decl *d)
{
	return parse_item(p, d);
}

static bool
is_item_start(Parser *p, const Token *t)
{
	static const char *const words[] = {
		"fn", "record", "variant", "class", "resource", "interface", "session",
		"struct", "enum", "pub", "public", "export", "const", "static", "var", "trait",
		"typedef",
	};
	if (t->kind == TOK_AT)
		return true;
	for (size_t i = 0; i < countof(words); i++)
		if (parse_tok_is_word(p, t, words[i]))
			return true;
	return false;
}

/* After an error: skip to the next declaration start at column 1. */
static void
resync(Parser *p)
{
	if (p->pos < p->ntoks - 1)
		parse_advance(p);
	while (!parse_at(p, TOK_EOF)) {
		Token *t = parse_peek(p);
		if (t->line_first && (t->span.start == 0 || p->src[t->span.start - 1] == '\n') && is_item_start(p, t))
			break;
		parse_advance(p);
	}
	p->panic = false;
	p->depth = 0;
	p->no_record = false;
	p->in_guard = false;
}

/*
 * use_decl = "use" , ( "function" | "type" ) , "@" , "id" , "(" , STRING , ")" , "from" , qname , "as" , IDENT , ";" ;
 * Every error inside is G170 with the reference's wording (p->in_use).
 */
static bool
parse_use(Parser *p, UseDecl *u)
{
	memset(u, 0, sizeof *u);
	Span start = parse_advance(p)->span;  /* use */
	p->in_use = true;
	if (parse_accept_word(p, "function"))
		u->is_type = false;
	else if (parse_accept_word(p, "type"))
		u->is_type = true;
	else {
		Diag *d = parse_error_at(p, parse_peek(p), DIAG_G170, "workspace module use expects `function`, `type`, or `protocol`");
		diag_set_help(d, "`use` imports one declaration of a project module: `use function @id(\"stable.id\") from other.module as name;`; compiler-owned functions such as `string_concat` need no import");
		goto out;
	}
	if (!parse_accept(p, TOK_AT)) {
		Diag *d = parse_error_at(p, parse_peek(p), DIAG_G170, "workspace module use requires `@id(\"<persistent-id>\")`");
		const Token *nt = parse_peek(p);
		if (d && nt->kind == TOK_IDENT && parse_tok_is_word(p, parse_peek_at(p, 1), "from")) {
			/* `use function total from shop.price;` (qa37): imports name a stable id, not a name */
			Buf mod = {0};
			for (int k = 2; parse_peek_at(p, k)->kind == TOK_IDENT || (k > 2 && parse_peek_at(p, k)->kind == TOK_DOT); k++)
				buf_printf(&mod, "%.*s", (int)(parse_peek_at(p, k)->span.end - parse_peek_at(p, k)->span.start), p->src + parse_peek_at(p, k)->span.start);
			int nl = (int)(nt->span.end - nt->span.start);
			const char *mt = mod.data ? mod.data : "other.module";
			diag_set_help(d, "an import names the declaration's stable id, not its name: copy the `@id(\"…\")` written above `%.*s` in module `%s`, `use %s @id(\"…\") from %s as %.*s;`",
			    nl, p->src + nt->span.start, mt, u->is_type ? "type" : "function", mt, nl, p->src + nt->span.start);
			buf_free(&mod);
		}
		goto out;
	}
	if (!parse_at(p, TOK_IDENT)) {
		parse_error_at(p, parse_peek(p), DIAG_G170, "expected workspace module use attribute");
		goto out;
	}
	if (!parse_tok_is_word(p, parse_advance(p), "id")) {
		parse_error_at(p, parse_peek(p), DIAG_G170, "workspace module use requires the `@id` attribute");
		goto out;
	}
	if (!parse_expect(p, TOK_LPAREN, "`(` after workspace module use @id"))
		goto out;
	if (!parse_at(p, TOK_STRING)) {
		parse_error_at(p, parse_peek(p), DIAG_G170, "workspace module use @id expects a string literal");
		goto out;
	}
	u->id = parse_strlit(p, "stable id");
	parse_expect(p, TOK_RPAREN, "`)` after workspace module use @id");
	if (!p->panic)
		parse_expect_word(p, "from");
	if (!p->panic)
		u->from = parse_qname(p, "workspace module use target");
	if (!p->panic)
		parse_expect_word(p, "as");
	if (!p->panic)
		u->alias = parse_name(p, "workspace module use alias");
	parse_expect(p, TOK_SEMI, "`;` after workspace module use");
	u->span = parse_span_from(p, start);
out:
	p->in_use = false;
	return !p->panic;
}

/*
 * The token pass the reference makes before parsing: bracket depth and runs
 * of unary operators beyond PARSE_MAX_DEPTH are P207 at the first token that
 * exceeds the bound, and nothing else is parsed (so no recursion can run
 * deep).  The lexer makes the pass as it pushes the tokens (LexResult's
 * nest_over and items_hint: no second walk over a large token array); its
 * P207 comes after every lexical diagnostic, as the pass's did.  Tree depth
 * is checked again while parsing (enter/leave).
 */
_Static_assert(PARSE_MAX_DEPTH == LEX_NEST_MAX, "the lexer's nesting pass and the parser share the bound");

static bool
nesting_prepass(Parser *p, const LexResult *lx)
{
	p->items_hint = lx->items_hint;
	if (lx->nest_over < 0)
		return false;
	Diag *d = diag_report(p->diags, DIAG_P207, &p->toks[lx->nest_over].span,
	    "source nesting depth exceeds the admitted maximum (%d)", PARSE_MAX_DEPTH);
	diag_set_help(d, "split the expression or block into named helper functions");
	p->had_error = true;
	return true;
}

/* file = module_decl , { use_decl } , [ permit_decl ] , item , { item } , EOF ; */
static Module *parse_file(const char *src, size_t len, Arena *arena, DiagSink *diags, bool mapped, ParseBuiltinResult br);

Module *
parse_module(const char *src, size_t len, Arena *arena, DiagSink *diags)
{
	return parse_file(src, len, arena, diags, false, NULL);
}

Module *
parse_module_mapped(const char *src, size_t len, Arena *arena, DiagSink *diags)
{
	return parse_file(src, len, arena, diags, true, NULL);
}

Module *
parse_module_ex(const char *src, size_t len, Arena *arena, DiagSink *diags, bool mapped, ParseBuiltinResult br)
{
	return parse_file(src, len, arena, diags, mapped, br);
}

static Module *
parse_file(const char *src, size_t len, Arena *arena, DiagSink *diags, bool mapped, ParseBuiltinResult br)
{
	Module *m = ARENA_NEW(arena, Module);
	m->arena = arena;
	LexResult lx;
	/* room for the declaration array (below), behind arena_adopt's 64 bytes */
	lex_source_spare(&lx, src, len, arena, diags, 64, sizeof(Decl));
	m->comments = lx.comments;
	m->ncomments = lx.ncomments;

	Parser p;
	memset(&p, 0, sizeof p);
	p.src = src;
	p.len = len;
	p.toks = lx.toks;
	p.ntoks = lx.ntoks;
	p.arena = arena;
	p.diags = diags;
	p.had_error = lx.had_error;
	p.if_names = lx.if_names;
	p.builtin_result = br;

	if (lx.fatal || nesting_prepass(&p, &lx)) {
		if (lx.spare)
			spx_big_free(lx.spare, lx.spare_len, true);
		lex_free(&lx);
		free(p.names);
		return m;
	}
	parse_gather_if_names(&p);   /* reads every token: before any is released */
	/* A mapped source: the lexer has read it all, the parser reads only
	 * spellings at its tokens (faulted in again as it goes), so its pages
	 * go back now and, behind the parser, with the tokens. */
	size_t src_dropped = 0;
	if (mapped)
		mapfile_drop_range(src, 0, len + 1);
	/* The tree's size is about proportional to the tokens: the arena gives
	 * huge pages only to the units this estimate fills (arena_expect). */
	size_t used0 = arena_used(arena);
	arena_expect(arena, (size_t)p.ntoks * 24);

	/* module_decl = "module" , qname , [ ";" ] ;  (the reference takes the `;` as optional) */
	Span ms = parse_peek(&p)->span;
	if (parse_at_word(&p, "module")) {
		parse_advance(&p);
		m->name = parse_qname(&p, "module name");
		parse_accept(&p, TOK_SEMI);
	} else {
		Diag *d = parse_error_at(&p, parse_peek(&p), DIAG_P104, "expected `module`");
		diag_set_help(d, "a file starts with `module dotted.name;`, then its `@id`-annotated declarations");
	}
	m->module_span = parse_span_from(&p, ms);
	if (p.panic)
		resync(&p);

	VEC(UseDecl) uses = {0};
	while (parse_at_word(&p, "use")) {
		UseDecl u;
		if (parse_use(&p, &u))
			VEC_PUSH(uses, u);
		else
			resync(&p);
	}
	if (parse_at_word(&p, "permit")) {
		parse_advance(&p);
		m->permit = parse_effect_set(&p);
		if (p.panic)
			resync(&p);
	}
	VEC(Decl) decls = {0};
	/* Sized once by the prepass's count of declaration keywords outside
	 * brackets (a hint: the vector still grows past it), so no copy of a
	 * large file's biggest array is left behind in the heap. */
	bool decls_spare = false;   /* decls.items is the lexer's spare room, the arena's (not a heap block) */
	if (p.items_hint > 8) {
		decls.cap = p.items_hint;
		if (lx.spare) {
			/* resident already (the tokens' last huge page): no page to fault */
			decls.items = arena_adopt(arena, lx.spare, lx.spare_len);
			decls_spare = true;
		} else {
			decls.items = spx_xmalloc(sizeof(Decl) * (size_t)decls.cap);
			spx_prefault(decls.items, sizeof(Decl) * (size_t)decls.cap);   /* filled whole */
		}
	} else if (lx.spare) {
		spx_big_free(lx.spare, lx.spare_len, true);
	}
	while (!parse_at(&p, TOK_EOF)) {
		if (parse_at_word(&p, "use")) {
			Diag *d = parse_error_at(&p, parse_peek(&p), DIAG_G170, "workspace module uses must appear immediately after the module declaration");
			diag_set_help(d, "move the `use` line up, right after `module`");
			resync(&p);
			continue;
		}
		Decl d;
		if (parse_item(&p, &d)) {
			if (decls_spare && decls.len == decls.cap) {
				/* past the hint: on in a heap block (the room stays the arena's) */
				Decl *heap = spx_xmalloc(sizeof(Decl) * (size_t)decls.cap * 2);
				memcpy(heap, decls.items, sizeof(Decl) * (size_t)decls.len);
				decls.items = heap;
				decls.cap *= 2;
				decls_spare = false;
			}
			VEC_PUSH(decls, d);
		} else {
			resync(&p);
		}
		/* Finished items' tokens are never read again (only toks[pos - 1]
		 * is looked back at): return them while the tree grows. */
		if (p.pos > 64) {
			lex_release_before(&lx, p.pos - 64, arena);
			size_t at = p.toks[p.pos - 64].span.start;
			if (mapped && at - src_dropped >= ((size_t)256 << 10)) {
				mapfile_drop_range(src, src_dropped, at);
				src_dropped = at;
			}
		}
		if (p.pos > 0)
			arena_expect(arena, (size_t)((double)(arena_used(arena) - used0) / p.pos * (p.ntoks - p.pos)));
	}
	parse_arrow_finish(&p, decls.items, decls.len);
	m->uses = ARENA_COPY(&p, UseDecl, uses);
	m->nuses = uses.len;
	/* The declaration array (a large file's biggest) is handed over, not copied. */
	m->decls = decls.len ? decls.items : NULL;
	m->ndecls = decls.len;
	m->nexprs = p.nexprs;
	m->ncalls = p.ncalls;
	m->groups = parse_groups_finish(&p, NULL, 0, &m->ngroups);
	m->field_assigns = p.field_assigns;
	m->uses_fn_mut = p.uses_fn_mut;
	m->prelude_names = p.prelude_names;
	m->prelude_known = true;
	if (!decls_spare) {   /* (the room is the arena's already) */
		if (decls.len)
			arena_own(arena, decls.items);
		else
			VEC_FREE(decls);
	}
	VEC_FREE(uses);

	bool has_fn = false;
	for (int i = 0; i < m->ndecls; i++)
		has_fn |= m->decls[i].kind == DECL_FN;
	if (!has_fn && !p.had_error) {
		Token *eof = &p.toks[p.ntoks - 1];
		Diag *d = diag_report(diags, DIAG_P101, &eof->span, "a module must declare at least one function");
		diag_set_help(d, "add a function, e.g. `fn main() -> i64 { 0 }`");
	}
	arena_expect_end(arena);
	lex_free(&lx);  /* the tree holds no token; sema reuses the memory */
	free(p.names);  /* the spellings stay in the arena */
	return m;
}
