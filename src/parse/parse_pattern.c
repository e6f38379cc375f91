/*
 * parse_pattern.c — match patterns (LANGUAGE.md §2.1, §4.5): `_`, bindings,
 * integer/char/bool literals (a negative one folded here), case patterns
 * `Type::Case { … }`, record patterns and or-patterns `a | b`; the help for
 * the forms other languages allow there (literals in field patterns, float
 * and string patterns, a case nested in a field).  Split from parse_expr.c
 * (rev35).
 */
#include "parse_int.h"

#include <string.h>

static Pattern *
new_pat(Parser *p, PatternKind k, Span s)
{
	Pattern *pt = ARENA_NEW(p->arena, Pattern);
	pt->kind = k;
	pt->span = s;
	return pt;
}

static Pattern *parse_record_pat(Parser *p, Token *tname);

#define TOKLEN(t) ((int)((t)->span.end - (t)->span.start))

/* field_pat = IDENT , [ ":" , ( IDENT | "_" | record_pat ) ] ;  list at `{` */
static FieldPat *
parse_field_pats(Parser *p, int *n)
{
	*n = 0;
	if (!parse_enter(p, parse_peek(p)))
		return NULL;
	parse_advance(p);
	VEC(FieldPat) fields = {0};
	while (!p->panic && !parse_at(p, TOK_RBRACE)) {
		FieldPat f;
		f.span = parse_peek(p)->span;
		f.name = parse_name(p, "field name in pattern");
		f.sub = NULL;
		if (!p->panic && parse_accept(p, TOK_COLON)) {
			Token *t = parse_peek(p);
			if (parse_tok_is_word(p, t, "_")) {
				parse_advance(p);
				f.sub = new_pat(p, PAT_WILD, t->span);
			} else if (t->kind == TOK_IDENT && parse_peek_at(p, 1)->kind == TOK_LBRACE) {
				parse_advance(p);
				f.sub = parse_record_pat(p, t);
			} else if (t->kind == TOK_IDENT) {
				parse_advance(p);
				f.sub = new_pat(p, PAT_BIND, t->span);
				f.sub->u.bind = parse_name_of(p, t);
			} else {
				/* the first line stays the pattern message (LANGUAGE.md §0.2:
				 * the reference's text); the help tells a literal apart */
				bool lit = t->kind == TOK_INT || t->kind == TOK_CHAR || t->kind == TOK_FLOAT || t->kind == TOK_STRING ||
					   t->kind == TOK_MINUS || parse_tok_is_word(p, t, "true") || parse_tok_is_word(p, t, "false");
				Diag *d = parse_error_at(p, t, DIAG_P206, "match patterns admit `_`, bindings, aggregate patterns, and integer/char/bool literals");
				if (lit)
					diag_set_help(d, "a field pattern takes no literal: bind the field and compare it: `Case { field: x } if x == … => …,` (a guard, over a Copy scrutinee) or `Case { field: x } => if x == … { … } else { … },`");
				else
					diag_set_help(d, "a field pattern is `field`, `field: name`, `field: _` or `field: Record { … }`");
			}
		}
		f.span = parse_span_from(p, f.span);
		VEC_PUSH(fields, f);
		if (!parse_accept(p, TOK_COMMA))
			break;
	}
	if (!p->panic && parse_at(p, TOK_COLONCOLON) && p->pos > 0 && p->toks[p->pos - 1].kind == TOK_IDENT) {
		/* `value: Token::Plus {}`: a case pattern nested in a field, which
		 * the grammar has not (field_pat takes a binding, `_` or a record
		 * pattern); the first line stays parse_expect's */
		const Token *type = &p->toks[p->pos - 1], *kase = parse_peek_at(p, 1);
		const Token *field = p->pos > 2 && p->toks[p->pos - 2].kind == TOK_COLON ? &p->toks[p->pos - 3] : type;
		/* the case's own fields stay in the example (`Short { at }`, not `Short {}`) */
		bool bare = parse_peek_at(p, 2)->kind == TOK_LBRACE && parse_peek_at(p, 3)->kind == TOK_RBRACE;
		Diag *d = parse_error_at(p, parse_peek(p), DIAG_P106, "expected `}` after pattern fields");
		diag_set_help(d, "a field pattern cannot name a variant case: bind the field, `%.*s: inner`, and match the binding in the arm: `… { %.*s: inner } => match inner { %.*s::%.*s %s => …, _ => …, },`",
		    TOKLEN(field), p->src + field->span.start, TOKLEN(field), p->src + field->span.start, TOKLEN(type), p->src + type->span.start,
		    kase->kind == TOK_IDENT ? TOKLEN(kase) : (int)strlen("…"), kase->kind == TOK_IDENT ? p->src + kase->span.start : "…",
		    bare ? "{}" : "{ … }");
	} else {
		parse_expect(p, TOK_RBRACE, "`}` after pattern fields");
	}
	parse_leave(p);
	FieldPat *out = ARENA_COPY(p, FieldPat, fields);
	*n = fields.len;
	VEC_FREE(fields);
	return out;
}

/* record_pat = IDENT , "{" , field_pat , { "," , field_pat } , [","] , "}" ;  (name consumed) */
static Pattern *
parse_record_pat(Parser *p, Token *tname)
{
	Pattern *pt = new_pat(p, PAT_RECORD, tname->span);
	pt->u.record.type = parse_name_of(p, tname);
	pt->u.record.fields = parse_field_pats(p, &pt->u.record.nfields);
	pt->span = parse_span_from(p, tname->span);
	return pt;
}

/* One alternative: `_`, binding, literal, case pattern or record pattern. */
static Pattern *
parse_pattern_alt(Parser *p)
{
	Token *t = parse_peek(p);
	if (t->kind == TOK_MINUS) {
		Token *n = parse_peek_at(p, 1);
		if (n->kind != TOK_INT) {
			Diag *d = parse_error_at(p, t, DIAG_P206, "`-` must precede an integer literal in a match pattern");
			diag_set_help(d, "write a negative literal such as `-1`, or bind the value and compare it in a guard");
			return new_pat(p, PAT_WILD, t->span);
		}
		parse_advance(p);
		parse_advance(p);
		if (n->suffix == SUF_U8 || n->suffix == SUF_USIZE) {
			Diag *d = parse_error_span(p, parse_span_from(p, t->span), DIAG_P206, "negative literal pattern is outside its integer range");
			diag_set_help(d, "`u8` and `usize` values are never negative; negative patterns exist for i64 and i32");
		} else {
			parse_check_int_range(p, n, true);
		}
		Span s = parse_span_from(p, t->span);
		Pattern *pt = new_pat(p, PAT_LIT, s);
		Expr *e = parse_new_expr(p, EXPR_INT, s);
		e->u.int_lit.value = lex_int(p->toks, n);
		e->lit_suffix = (NumSuffix)n->suffix;
		e->lit_negative = false;
		pt->u.lit.value = e;
		pt->u.lit.negative = true;
		return pt;
	}
	if (t->kind == TOK_INT || t->kind == TOK_CHAR || parse_tok_is_word(p, t, "true") || parse_tok_is_word(p, t, "false")) {
		bool callable;
		Expr *e = parse_primary(p, &callable);
		Pattern *pt = new_pat(p, PAT_LIT, t->span);
		pt->u.lit.value = e;
		return pt;
	}
	if (t->kind != TOK_IDENT) {
		Diag *d = parse_error_at(p, t, DIAG_P206, "match patterns admit `_`, bindings, aggregate patterns, and integer/char/bool literals");
		if (t->kind == TOK_FLOAT || t->kind == TOK_STRING)
			diag_set_help(d, "there are no float or string patterns; bind the value and compare it in a guard: `s if s == x => …,`");
		else
			diag_set_help(d, "a pattern is `_`, a name, a literal, `Type::Case { … }` or `Record { … }`");
		return new_pat(p, PAT_WILD, t->span);
	}
	parse_advance(p);
	if (parse_tok_is_word(p, t, "_"))
		return new_pat(p, PAT_WILD, t->span);
	if (parse_at(p, TOK_COLONCOLON)) {
		parse_advance(p);
		Pattern *pt = new_pat(p, PAT_CASE, t->span);
		pt->u.case_.type = parse_name_of(p, t);
		if (!parse_at(p, TOK_IDENT)) {
			parse_error_at(p, parse_peek(p), DIAG_P105, "expected variant case name after `::`");
			return pt;
		}
		pt->u.case_.case_name = parse_name_of(p, parse_advance(p));
		if (parse_at(p, TOK_LBRACE)) {
			pt->u.case_.has_braces = true;
			pt->u.case_.fields = parse_field_pats(p, &pt->u.case_.nfields);
		}
		pt->span = parse_span_from(p, t->span);
		return pt;
	}
	if (parse_at(p, TOK_LBRACE))
		return parse_record_pat(p, t);
	Pattern *pt = new_pat(p, PAT_BIND, t->span);
	pt->u.bind = parse_name_of(p, t);
	return pt;
}

/* pattern = alt , { "|" , alt } ; */
Pattern *
parse_pattern(Parser *p)
{
	Span start = parse_peek(p)->span;
	Pattern *first = parse_pattern_alt(p);
	if (p->panic || !parse_at(p, TOK_PIPE))
		return first;
	VEC(Pattern *) alts = {0};
	VEC_PUSH(alts, first);
	while (!p->panic && parse_accept(p, TOK_PIPE))
		VEC_PUSH(alts, parse_pattern_alt(p));
	Pattern *pt = new_pat(p, PAT_OR, parse_span_from(p, start));
	pt->u.or.alts = ARENA_COPY(p, Pattern *, alts);
	pt->u.or.nalts = alts.len;
	VEC_FREE(alts);
	return pt;
}

