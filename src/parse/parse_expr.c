/*
 * parse_expr.c — expressions (precedence climbing, LANGUAGE.md §1.5);
 * types are parse_type.c's, match patterns parse_pattern.c's.
 *
 * Record literals are disabled inside conditions (p->no_record), so
 * `if x == y { … }` reads the brace as the body.  Parentheses produce no
 * node.  The signed minimum (`-9223372036854775808`, `-2147483648i32`) is
 * folded into one literal here, since only the parser sees the minus.
 */
#include "parse_int.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define I64_MIN_MAG ((uint64_t)1 << 63)
#define I32_MIN_MAG ((uint64_t)1 << 31)

/*
 * The bytes of an Expr of kind k: the header and its own union member only
 * (the largest member is 104 bytes, a name 32, a binary 24; a large file
 * has hundreds of thousands of nodes).  A node's kind never changes, and
 * nothing copies whole nodes or reads another kind's member.
 */
#define EXPR_BYTES(member) (offsetof(Expr, u) + sizeof(((Expr *)0)->u.member))
static size_t
expr_size(ExprKind k)
{
	switch (k) {
	case EXPR_INT: return EXPR_BYTES(int_lit);
	case EXPR_FLOAT: return EXPR_BYTES(float_lit);
	case EXPR_CHAR: return EXPR_BYTES(char_lit);
	case EXPR_STRING: return EXPR_BYTES(str);
	case EXPR_BOOL: return EXPR_BYTES(bool_lit);
	case EXPR_NAME: return EXPR_BYTES(name);
	case EXPR_UNARY: return EXPR_BYTES(unary);
	case EXPR_BINARY: return EXPR_BYTES(binary);
	case EXPR_CALL: return EXPR_BYTES(call);
	case EXPR_METHOD: return EXPR_BYTES(method);
	case EXPR_FIELD: return EXPR_BYTES(field);
	case EXPR_TRY: return EXPR_BYTES(try_);
	case EXPR_WITH: return EXPR_BYTES(with);
	case EXPR_RECORD: return EXPR_BYTES(record);
	case EXPR_VARIANT: return EXPR_BYTES(variant);
	case EXPR_SUPER: return EXPR_BYTES(super_);
	case EXPR_BLOCK: return EXPR_BYTES(block);
	case EXPR_IF: return EXPR_BYTES(if_);
	case EXPR_MATCH: return EXPR_BYTES(match);
	case EXPR_CLOSURE: return EXPR_BYTES(closure);
	case EXPR_ARRAY: return EXPR_BYTES(array);
	}
	return sizeof(Expr);
}

Expr *
parse_new_expr(Parser *p, ExprKind k, Span s)
{
	Expr *e = arena_alloc(p->arena, expr_size(k));
	e->kind = k;
	e->id = p->nexprs++;
	e->span = s;
	if (k == EXPR_CALL)
		e->u.call.ix = p->ncalls++;
	else if (k == EXPR_METHOD)
		e->u.method.ix = p->ncalls++;
	else if (k == EXPR_SUPER)
		e->u.super_.ix = p->ncalls++;
	return e;
}

/* ==== grouping parentheses ========================================================== */

/* e was written inside `(` at open … `)` ending at close: its group, the
 * outermost (`((x))` meets x's inner pair first: the same id, just before). */
static void
record_group(Parser *p, const Expr *e, uint32_t open, uint32_t close)
{
	if (open > e->span.start || close < e->span.end)
		return;   /* (a placeholder's span) */
	ExprGroup g = { e->id, e->span.start - open, close - e->span.end };
	if (p->groups.len && p->groups.items[p->groups.len - 1].id == e->id)
		p->groups.items[p->groups.len - 1] = g;
	else
		VEC_PUSH(p->groups, g);
}

static int
cmp_group(const void *a, const void *b)
{
	const ExprGroup *x = a, *y = b;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->lead < y->lead ? -1 : x->lead > y->lead;
}

const ExprGroup *
parse_groups_finish(Parser *p, const ExprGroup *old, uint32_t nold, uint32_t *n)
{
	*n = nold;
	if (!p->groups.len) {
		VEC_FREE(p->groups);
		return old;
	}
	/* a `)` meets its expression after every node inside it: mostly sorted
	 * already, but a call's node is numbered before its arguments */
	qsort(p->groups.items, (size_t)p->groups.len, sizeof *p->groups.items, cmp_group);
	ExprGroup *all = ARENA_ARRAY(p->arena, ExprGroup, (size_t)nold + (size_t)p->groups.len);
	if (nold)
		memcpy(all, old, sizeof *all * nold);
	uint32_t k = nold;
	for (int i = 0; i < p->groups.len; i++) {
		ExprGroup g = p->groups.items[i];
		if (k > nold && all[k - 1].id == g.id)
			k--;   /* the same expression twice: the wider (later in the order) */
		ASSERT(k == 0 || all[k - 1].id < g.id, "expression groups out of order");
		all[k++] = g;
	}
	VEC_FREE(p->groups);
	*n = k;
	return all;
}

/* ==== expressions ================================================================= */

static Expr *parse_unary(Parser *p);
static Expr *parse_unary_postfix(Parser *p);
static Expr *parse_postfix_of(Parser *p, Expr *e, bool callable);

static Expr *
error_expr(Parser *p, Span s)
{
	Expr *e = parse_new_expr(p, EXPR_NAME, s);
	e->u.name.s = "";
	return e;
}

static int
binop_of(TokKind k, BinaryOp *op)
{
	switch (k) {
	case TOK_OROR: *op = BIN_OR; return 1;
	case TOK_ANDAND: *op = BIN_AND; return 2;
	case TOK_EQ: *op = BIN_EQ; return 3;
	case TOK_NE: *op = BIN_NE; return 3;
	case TOK_LT: *op = BIN_LT; return 4;
	case TOK_LE: *op = BIN_LE; return 4;
	case TOK_GT: *op = BIN_GT; return 4;
	case TOK_GE: *op = BIN_GE; return 4;
	case TOK_PLUS: *op = BIN_ADD; return 5;
	case TOK_MINUS: *op = BIN_SUB; return 5;
	case TOK_STAR: *op = BIN_MUL; return 6;
	case TOK_SLASH: *op = BIN_DIV; return 6;
	case TOK_PERCENT: *op = BIN_REM; return 6;
	default: return 0;
	}
}

/* binary = unary , { binop , unary }  — left-associative, prec+1 on the right. */
static Expr *
parse_binary(Parser *p, int minprec)
{
	Expr *lhs = parse_unary(p);
	int added = 0;
	for (;;) {
		BinaryOp op;
		int prec = binop_of((TokKind)parse_peek(p)->kind, &op);
		if (!prec || prec < minprec || p->panic)
			break;
		/* `x += 1` at expression level (e.g. a tail) is the compound habit. */
		if (parse_peek_at(p, 1)->kind == TOK_ASSIGN && parse_peek_at(p, 1)->span.start == parse_peek(p)->span.end &&
		    (op == BIN_ADD || op == BIN_SUB || op == BIN_MUL || op == BIN_DIV || op == BIN_REM))
			break;
		if (!parse_enter(p, parse_peek(p)))
			break;
		added++;
		parse_advance(p);
		Expr *rhs = parse_binary(p, prec + 1);
		Span s = lhs->span;
		s.end = rhs->span.end;
		Expr *e = parse_new_expr(p, EXPR_BINARY, s);
		e->bin_op = op;
		e->u.binary.lhs = lhs;
		e->u.binary.rhs = rhs;
		lhs = e;
	}
	if (minprec == 1)
		parse_operand_habit(p);
	p->depth -= added;
	return lhs;
}

Expr *
parse_expr(Parser *p)
{
	bool saved = p->no_record;
	p->no_record = false;
	Expr *e = parse_binary(p, 1);
	p->no_record = saved;
	return e;
}

/* cond_expr = expr ;  parsed with record literals disabled */
Expr *
parse_cond(Parser *p)
{
	bool saved = p->no_record;
	p->no_record = true;
	Expr *e = parse_binary(p, 1);
	p->no_record = saved;
	return e;
}

void
parse_check_int_range(Parser *p, const Token *t, bool negative)
{
	uint64_t v = lex_int(p->toks, t);
	switch ((NumSuffix)t->suffix) {
	case SUF_NONE:
		if (t->overflow || v > (negative ? I64_MIN_MAG : I64_MIN_MAG - 1)) {
			Diag *d = parse_error_at(p, t, DIAG_P003, "integer literal is outside the i64 range");
			if (!t->overflow && v == I64_MIN_MAG)
				diag_set_help(d, "the signed minimum is written as a directly negated literal, such as `-9223372036854775808`");
			else
				diag_set_help(d, "i64 literals lie between -9223372036854775808 and 9223372036854775807");
		}
		break;
	case SUF_I32:
		if (t->overflow || v > (negative ? I32_MIN_MAG : I32_MIN_MAG - 1)) {
			Diag *d = parse_error_at(p, t, DIAG_P003, "integer literal is outside the i32 range");
			if (!t->overflow && v == I32_MIN_MAG)
				diag_set_help(d, "the signed minimum is written as a directly negated literal, such as `-2147483648i32`");
			else
				diag_set_help(d, "i32 literals lie between -2147483648i32 and 2147483647i32");
		}
		break;
	case SUF_U8:
		if (t->overflow || v > 255) {
			Diag *d = parse_error_at(p, t, DIAG_P003, "u8 literal is outside the u8 range");
			diag_set_help(d, "u8 literals lie between 0u8 and 255u8");
		}
		break;
	case SUF_USIZE:
		if (t->overflow) {
			Diag *d = parse_error_at(p, t, DIAG_T260, "usize literal is outside the target-independent u64 range");
			diag_set_help(d, "usize literals lie between 0usize and 18446744073709551615usize");
		}
		break;
	default:
		break;
	}
}

static Expr *
int_literal(Parser *p, Token *t, bool negative, Span s)
{
	parse_check_int_range(p, t, negative);
	Expr *e = parse_new_expr(p, EXPR_INT, s);
	e->u.int_lit.value = lex_int(p->toks, t);
	e->lit_suffix = (NumSuffix)t->suffix;
	e->lit_negative = negative;
	return e;
}

/* unary = ( "-" | "!" ) , unary | postfix ; */
static Expr *
parse_unary(Parser *p)
{
	Token *t = parse_peek(p);
	if (t->kind != TOK_MINUS && t->kind != TOK_BANG)
		return parse_unary_postfix(p);
	/* The signed minimum: `-` directly before the magnitude 2^63 (or 2^31 i32). */
	Token *n = parse_peek_at(p, 1);
	if (t->kind == TOK_MINUS && n->kind == TOK_INT && !n->overflow &&
	    ((n->suffix == SUF_NONE && lex_int(p->toks, n) == I64_MIN_MAG) || (n->suffix == SUF_I32 && lex_int(p->toks, n) == I32_MIN_MAG))) {
		parse_advance(p);
		parse_advance(p);
		Span s = t->span;
		s.end = n->span.end;
		return parse_postfix_of(p, int_literal(p, n, true, s), false);
	}
	if (!parse_enter(p, t))
		return error_expr(p, t->span);
	parse_advance(p);
	Expr *operand = parse_unary(p);
	parse_leave(p);
	Span s = t->span;
	s.end = operand->span.end;
	Expr *e = parse_new_expr(p, EXPR_UNARY, s);
	e->un_op = t->kind == TOK_MINUS ? UN_NEG : UN_NOT;
	e->u.unary.operand = operand;
	return e;
}

/* call_args = "(" , [ expr , { "," , expr } ] , ")" ;  (at `(`) */
static Expr **
parse_args(Parser *p, int *n, const char *close_desc)
{
	*n = 0;
	if (!parse_enter(p, parse_peek(p)))
		return NULL;
	parse_advance(p);
	VEC(Expr *) args = {0};
	while (!p->panic && !parse_at(p, TOK_RPAREN)) {
		VEC_PUSH(args, parse_expr(p));
		if (!parse_accept(p, TOK_COMMA))
			break;
	}
	parse_expect(p, TOK_RPAREN, close_desc);
	parse_leave(p);
	Expr **out = ARENA_COPY(p, Expr *, args);
	*n = args.len;
	VEC_FREE(args);
	return out;
}

/* inits = [ IDENT , ":" , expr , { "," , IDENT , ":" , expr } , [ "," ] ] ;  (at `{`) */
/*
 * Words the expression grammar reads as something else than a name: a
 * shorthand `{ match }` would print as `match: match`, which does not parse.
 */
static bool
word_in_expr_grammar(Name n)
{
	static const char *const words[] = { "if", "match", "fn", "true", "false", "unsafe", "while", "for", "let", "super" };
	for (size_t i = 0; i < countof(words); i++)
		if (strlen(words[i]) == ast_name_len(n) && memcmp(words[i], n.s, ast_name_len(n)) == 0)
			return true;
	return false;
}

FieldInit *
parse_inits_desc(Parser *p, int *n, const char *close_desc, bool shorthand)
{
	*n = 0;
	if (!parse_enter(p, parse_peek(p)))
		return NULL;
	parse_advance(p);
	VEC(FieldInit) inits = {0};
	while (!p->panic && !parse_at(p, TOK_RBRACE)) {
		FieldInit f;
		f.span = parse_peek(p)->span;
		f.name = parse_name(p, "field name");
		if (shorthand && !parse_at(p, TOK_COLON) && !word_in_expr_grammar(f.name)) {
			/* a record literal's `{ f }` means `{ f: f }` (the reference);
			 * case payloads and `with` updates need the `:` */
			f.value = parse_new_expr(p, EXPR_NAME, f.name.span);
			f.value->u.name.s = f.name.s;
		} else if (!shorthand && f.name.s && (parse_at(p, TOK_COMMA) || parse_at(p, TOK_RBRACE))) {
			/* `Case { item }`, `r with { item }`: the shorthand is a record
			 * literal's only; the reference's first line, our help and fix */
			Diag *d = parse_error_at(p, parse_peek(p), DIAG_P106, "expected `:` after field name");
			diag_set_help(d, "only a record literal takes the shorthand `{ %.*s }`; a case payload or a `with` update names each field's value: `%.*s: %.*s`",
			    (int)ast_name_len(f.name), f.name.s, (int)ast_name_len(f.name), f.name.s, (int)ast_name_len(f.name), f.name.s);
			diag_add_fix(d, f.name.span.end, f.name.span.end, arena_printf(p->arena, ": %.*s", (int)ast_name_len(f.name), f.name.s));
			parse_decorate_expected(p, d);
			f.value = parse_new_expr(p, EXPR_NAME, f.name.span);
			f.value->u.name.s = f.name.s;
		} else if (parse_expect(p, TOK_COLON, "`:` after field name")) {
			f.value = parse_expr(p);
		} else {
			f.value = parse_new_expr(p, EXPR_NAME, f.name.span);  /* placeholder (panic mode) */
			f.value->u.name.s = f.name.s;
		}
		f.span = parse_span_from(p, f.span);
		VEC_PUSH(inits, f);
		if (!parse_accept(p, TOK_COMMA))
			break;
	}
	parse_expect(p, TOK_RBRACE, close_desc);
	parse_leave(p);
	FieldInit *out = ARENA_COPY(p, FieldInit, inits);
	*n = inits.len;
	VEC_FREE(inits);
	return out;
}

FieldInit *
parse_inits(Parser *p, int *n)
{
	return parse_inits_desc(p, n, "`}` after record initializer", false);
}

/* postfix = primary , { call_args | "." , IDENT , [ call_args ] | "?" | "with" , "{" , inits , "}" } ; */
static Expr *
parse_postfix_of(Parser *p, Expr *e, bool callable)
{
	int added = 0;  /* levels this chain holds (restored when it ends) */
	while (!p->panic) {
		Token *t = parse_peek(p);
		/* Each postfix operation nests its operand one level deeper (P207),
		 * like a binary operator chain; its own brackets share that level. */
		bool is_op = t->kind == TOK_DOT || t->kind == TOK_QUESTION ||
		    (parse_tok_is_word(p, t, "with") && parse_peek_at(p, 1)->kind == TOK_LBRACE);
		if (is_op) {
			if (!parse_enter(p, t))
				break;
			added++;
		}
		if (t->kind == TOK_LPAREN) {
			Diag *d = parse_error_span(p, p->toks[p->pos - 1].span, DIAG_P202, "only named functions can be called");
			diag_set_help(d, "bind the callable to a name first, then call the name");
			break;
		}
		if (t->kind == TOK_DOT) {
			parse_advance(p);
			Token *nt = parse_peek(p);
			if (nt->kind != TOK_IDENT) {
				if (nt->kind == TOK_DOT && p->in_for_iter) {
					Diag *d = parse_error_at(p, nt, DIAG_P105, "range `for` loops are not admitted; use `while`");
					/* the loop variable, from `for NAME in` before the range (qa30) */
					const Token *var = NULL;
					for (int k = p->pos - 1; k >= 2 && k >= p->pos - 64 && !var; k--)
						if (parse_tok_is_word(p, &p->toks[k], "in") && p->toks[k - 1].kind == TOK_IDENT && parse_tok_is_word(p, &p->toks[k - 2], "for"))
							var = &p->toks[k - 1];
					if (var)
						diag_set_help(d, "count with a `let mut` index in a `while` loop, whose condition decides whether to loop again: `let mut %.*s = start; while %.*s < end { …; %.*s = %.*s + 1; 0 }` (the body's final value is discarded)",
						    (int)(var->span.end - var->span.start), p->src + var->span.start, (int)(var->span.end - var->span.start), p->src + var->span.start,
						    (int)(var->span.end - var->span.start), p->src + var->span.start, (int)(var->span.end - var->span.start), p->src + var->span.start);
					else
						diag_set_help(d, "write `while <condition> { <statements>; <tail> }`; the condition decides whether to loop again, and the required body tail is discarded");
				} else {
					Diag *d = parse_error_at(p, nt, DIAG_P105, "expected field name after `.`");
					if (nt->kind == TOK_INT)
						diag_set_help(d, "tuples are not admitted; declare a `record` with named fields");
					else if (nt->kind == TOK_DOT)
						diag_set_help(d, "there are no ranges; count with a `let mut` index in a `while` loop");
				}
				break;
			}
			Name name = parse_name_of(p, parse_advance(p));
			if (parse_at(p, TOK_LT) && parse_generic_list_at(p) > 0 && parse_peek_at(p, parse_generic_list_at(p))->kind != TOK_LPAREN) {
				Diag *d = parse_error_at(p, parse_peek(p), DIAG_P202, "generic arguments require a call; use `.method::<T>(...)`");
				diag_set_help(d, "methods are called with arguments: `value.method(args)`");
				break;
			}
			if (parse_at(p, TOK_LPAREN)) {
				Expr *m = parse_new_expr(p, EXPR_METHOD, e->span);
				m->u.method.recv = e;
				m->u.method.name = name;
				p->depth--;
				m->u.method.args = parse_args(p, &m->u.method.nargs, "`)` after method arguments");
				p->depth++;
				m->span = parse_span_from(p, e->span);
				e = m;
			} else {
				Expr *f = parse_new_expr(p, EXPR_FIELD, e->span);
				f->u.field.base = e;
				f->u.field.name.s = name.s;
				f->span = parse_span_from(p, e->span);
				e = f;
			}
			callable = false;
			continue;
		}
		if (t->kind == TOK_QUESTION) {
			parse_advance(p);
			Expr *q = parse_new_expr(p, EXPR_TRY, parse_span_from(p, e->span));
			q->u.try_.operand = e;
			e = q;
			callable = false;
			continue;
		}
		if (parse_tok_is_word(p, t, "with") && parse_peek_at(p, 1)->kind == TOK_LBRACE) {
			parse_advance(p);
			Expr *w = parse_new_expr(p, EXPR_WITH, e->span);
			w->u.with.base = e;
			p->depth--;
			w->u.with.inits = parse_inits_desc(p, &w->u.with.ninits, "`}` after record replacements", false);
			p->depth++;
			w->span = parse_span_from(p, e->span);
			e = w;
			callable = false;
			continue;
		}
		if (t->kind == TOK_COLONCOLON) {
			Diag *d = parse_error_span(p, p->toks[p->pos - 1].span, DIAG_P204, "variant construction requires a named variant qualifier");
			diag_set_help(d, "write `Type::Case { … }` with the variant's name before `::`");
			break;
		}
		break;
	}
	(void)callable;
	p->depth -= added;
	return e;
}

/* Fix for `Some(x)` / `Ok(x)` / `Err(e)` written Rust-style (expression or pattern;
 * qualified: after `tname<…>::`, which must be Option or Result). */
static void
rust_case_fix(Parser *p, Diag *d, const Token *name, const Token *tname, bool qualified)
{
	/* name ( IDENT ) */
	Token *lp = parse_peek(p), *arg = parse_peek_at(p, 1), *rp = parse_peek_at(p, 2);
	if (!d || lp->kind != TOK_LPAREN || rp->kind != TOK_RPAREN)
		return;
	if (arg->kind != TOK_IDENT && arg->kind != TOK_INT)
		return;
	const char *field = NULL, *type = NULL;
	if (parse_tok_is_word(p, name, "Some")) {
		field = "value"; type = "Option";
	} else if (parse_tok_is_word(p, name, "Ok")) {
		field = "value"; type = "Result";
	} else if (parse_tok_is_word(p, name, "Err")) {
		field = "error"; type = "Result";
	} else {
		return;
	}
	/* `Maybe<i64>::Some(3)`: another type's `Some` need not hold a `value` */
	if (qualified && !parse_tok_is_word(p, tname, type))
		return;
	char buf[256];
	int alen = (int)(arg->span.end - arg->span.start);
	if (alen > 100)
		return;
	int nlen = (int)(name->span.end - name->span.start);
	snprintf(buf, sizeof buf, "%s::%.*s { %s: %.*s }", type, nlen, p->src + name->span.start, field, alen,
	    p->src + arg->span.start);
	if (qualified) {
		char buf2[256];
		snprintf(buf2, sizeof buf2, " { %s: %.*s }", field, alen, p->src + arg->span.start);
		diag_add_fix(d, lp->span.start, rp->span.end, buf2);
	} else {
		diag_add_fix(d, name->span.start, rp->span.end, buf);
	}
}

/*
 * With `Some(x)` fixed in a match: its `None =>` arms (a binding pattern
 * named None, which matches everything: T254) become `Option::None {} =>`,
 * so the fixed match means what the Rust-style one did.  arms_open is the
 * index of the arms' `{`.
 */
static void
none_arms_fix(Parser *p, Diag *d, int arms_open)
{
	int depth = 0;
	for (int i = arms_open + 1; i + 1 < p->ntoks; i++) {
		Token *t = &p->toks[i];
		if (t->kind == TOK_EOF || t->kind == TOK_ERROR)
			return;
		if (t->kind == TOK_LBRACE || t->kind == TOK_LPAREN || t->kind == TOK_LBRACKET)
			depth++;
		else if ((t->kind == TOK_RBRACE || t->kind == TOK_RPAREN || t->kind == TOK_RBRACKET) && depth-- == 0)
			return;
		else if (depth == 0 && parse_tok_is_word(p, t, "None") && p->toks[i + 1].kind == TOK_FATARROW &&
		    (i == arms_open + 1 || p->toks[i - 1].kind == TOK_COMMA))
			diag_add_fix(d, t->span.start, t->span.end, "Option::None {}");
	}
}

/*
 * Where record literals are off (conditions, contracts, a match scrutinee),
 * is the `{` after `Type::Case` its payload?  The reference always reads it
 * as one; we do when its contents look like field initializers (`{}` or
 * `{ name`, then `:`, `,` or `}`) and what follows the matching `}` can only
 * continue the expression or open the body (`{`, a binary operator, `.`, `?`,
 * `requires`, `ensures`).  So `if c == Color::Red {} { … }` and
 * `match Choice::Number { value: 42 } { … }` parse as there, while
 * `if c == Color::Red { 1 } else { 2 }` keeps its braceless literal.
 */
static bool
payload_braces_ahead(Parser *p)
{
	int k = 1;
	if (parse_peek_at(p, 1)->kind != TOK_RBRACE) {
		TokKind n = (TokKind)parse_peek_at(p, 2)->kind;
		if (parse_peek_at(p, 1)->kind != TOK_IDENT || (n != TOK_COLON && n != TOK_COMMA && n != TOK_RBRACE))
			return false;
	}
	for (int depth = 0; p->pos + k < p->ntoks; k++) {
		TokKind t = (TokKind)parse_peek_at(p, k)->kind;
		if (t == TOK_EOF)
			return false;
		if (t == TOK_LBRACE || t == TOK_LPAREN || t == TOK_LBRACKET)
			depth++;
		else if (t == TOK_RPAREN || t == TOK_RBRACKET)
			depth--;
		else if (t == TOK_RBRACE && depth-- == 0)
			break;
	}
	Token *after = parse_peek_at(p, k + 1);
	BinaryOp op;
	return after->kind == TOK_LBRACE || binop_of((TokKind)after->kind, &op) || after->kind == TOK_DOT ||
	    after->kind == TOK_QUESTION || parse_tok_is_word(p, after, "requires") || parse_tok_is_word(p, after, "ensures");
}

/* The help for `T::f(…)` when T is a compiler-owned type (qa31): its
 * values come from functions, not from a constructor; NULL otherwise. */
static const char *
compiler_type_ctor(const char *type)
{
	static const char *const helps[][2] = {
		{ "Vec", "a `Vec` comes from `vec_with_capacity<T>(capacity)`, such as `vec_with_capacity<i64>(8usize)`, and grows with `vec_push<T>(v, x)` up to that capacity" },
		{ "Map", "a `Map` comes from `map_new<K, V>(capacity)`, such as `map_new<string, i64>(16usize)`" },
		{ "Set", "a `Set` comes from `set_new<K>(capacity)`, such as `set_new<i64>(16usize)`" },
		{ "Box", "a `Box` comes from `box_new<T>(value)`, such as `box_new<i64>(5)`" },
		{ "String", "owned text is `string`, and a string literal already is one: `let s = \"text\";`; `string_from_str(view)` copies a `str`" },
		{ "string", "a string literal already is a `string`: `let s = \"text\";`; `string_from_str(view)` copies a `str`" },
	};
	return spx_word_text(helps, countof(helps), type);
}

/* IDENT [ type_args ] "::" IDENT [ "{" inits "}" ]  (at `::` or `<`) */
static Expr *
parse_variant_lit(Parser *p, Token *tname, Type **targs, int ntargs)
{
	Expr *e = parse_new_expr(p, EXPR_VARIANT, tname->span);
	e->u.variant.type = parse_name_of(p, tname);
	e->u.variant.targs = targs;
	e->u.variant.ntargs = ntargs;
	parse_advance(p);  /* :: */
	if (!parse_at(p, TOK_IDENT)) {
		parse_error_at(p, parse_peek(p), DIAG_P105, "expected variant case name after `::`");
		return e;
	}
	Token *ct = parse_advance(p);
	e->u.variant.case_name = parse_name_of(p, ct);
	if (parse_at(p, TOK_LPAREN)) {
		Diag *d = parse_error_at(p, parse_peek(p), DIAG_P106, "expected `{` after variant case name");
		static const char *const ctors[] = { "new", "create", "make", "from", "default", "init" };
		bool ctor = false;
		for (size_t i = 0; i < countof(ctors); i++)
			ctor |= parse_tok_is_word(p, ct, ctors[i]);
		const char *owned = compiler_type_ctor(e->u.variant.type.s);
		if (owned)   /* `Vec::new()`, `String::from(…)` (qa31): a compiler-owned type */
			diag_set_help(d, "%s", owned);
		else if (ctor)   /* `Point::new(1, 2)` (qa30): a record or class, most likely */
			diag_set_help(d, "there are no constructor functions; build a record or class with braces, naming every field: `%s { field: value, … }` (a variant's case: `%s::Case { field: value }`)",
			    e->u.variant.type.s, e->u.variant.type.s);
		else
			diag_set_help(d, "a variant is constructed with its type arguments and named fields: `Option<i64>::Some { value: v }`, not `Some(v)`");
		/* Only with the type arguments spelled: `Option::Some { value: 1 }` is T221. */
		if (ntargs > 0)
			rust_case_fix(p, d, ct, tname, true);
		return e;
	}
	if (parse_at(p, TOK_LBRACE) && (!p->no_record || payload_braces_ahead(p))) {
		e->u.variant.has_braces = true;
		e->u.variant.inits = parse_inits(p, &e->u.variant.ninits);
	}
	e->span = parse_span_from(p, tname->span);
	return e;
}

/* Does IDENT ( "." IDENT )* "{" start here (a qualified record literal)? */
static int
qualified_record_ahead(Parser *p)
{
	int k = 1;
	while (parse_peek_at(p, k)->kind == TOK_DOT && parse_peek_at(p, k + 1)->kind == TOK_IDENT)
		k += 2;
	return k > 1 && parse_peek_at(p, k)->kind == TOK_LBRACE ? k : 0;
}

static Expr *
parse_record_lit(Parser *p, Span start, QName q, Type **targs, int ntargs)
{
	Expr *e = parse_new_expr(p, EXPR_RECORD, start);
	e->u.record.type = q;
	e->u.record.targs = targs;
	e->u.record.ntargs = ntargs;
	e->u.record.inits = parse_inits_desc(p, &e->u.record.ninits, "`}` after record initializer", true);
	e->span = parse_span_from(p, start);
	return e;
}

/* An identifier in expression position: name, call, variant, record literal. */
static Expr *
parse_name_expr(Parser *p, bool *callable)
{
	Token *t = parse_peek(p);
	if (!p->no_record && qualified_record_ahead(p)) {
		QName q = parse_qname(p, "type name");
		return parse_record_lit(p, t->span, q, NULL, 0);
	}
	parse_advance(p);
	Type **targs = NULL;
	int ntargs = 0;
	bool has_targs = false;
	if (parse_at(p, TOK_LT) && parse_generic_args_ahead(p)) {
		if (!parse_enter(p, parse_peek(p)))
			return error_expr(p, t->span);
		targs = parse_type_args(p, &ntargs);
		parse_leave(p);
		has_targs = true;
	}
	if (parse_at(p, TOK_COLONCOLON))
		return parse_variant_lit(p, t, targs, ntargs);
	if (parse_at(p, TOK_LPAREN)) {
		Expr *e = parse_new_expr(p, EXPR_CALL, t->span);
		e->u.call.callee.s = parse_name_of(p, t).s;
		e->u.call.targs = targs;
		e->u.call.ntargs = ntargs;
		e->u.call.has_targs = has_targs;
		e->u.call.args = parse_args(p, &e->u.call.nargs, "`)` after call arguments");
		e->span = parse_span_from(p, t->span);
		return e;
	}
	if (parse_at(p, TOK_LBRACE) && (!p->no_record || has_targs)) {
		QName q;
		q.parts = ARENA_NEW(p->arena, Name);
		q.parts[0] = parse_name_of(p, t);
		q.nparts = 1;
		q.span = t->span;
		return parse_record_lit(p, t->span, q, targs, ntargs);
	}
	if (has_targs) {
		parse_error_at(p, parse_peek(p), DIAG_P106, "expected `(` after generic type arguments");
		return error_expr(p, t->span);
	}
	Expr *e = parse_new_expr(p, EXPR_NAME, t->span);
	e->u.name.s = parse_name_of(p, t).s;
	*callable = true;
	return e;
}

/* closure = "fn" , "(" , [ IDENT , ":" , type , { "," , IDENT , ":" , type } ] , ")" , "->" , type , block ; */
static Expr *
parse_closure(Parser *p)
{
	Span start = parse_peek(p)->span;
	bool own = parse_accept_word(p, "own");
	bool mut = !own && parse_accept_word(p, "mut");
	parse_advance(p);  /* fn */
	Expr *e = parse_new_expr(p, EXPR_CLOSURE, start);
	e->u.closure.own = own;
	e->u.closure.mut = mut;
	if (mut)
		p->uses_fn_mut = true;
	if (!parse_expect(p, TOK_LPAREN, "`(` after anonymous `fn`"))
		return e;
	if (own && !parse_at(p, TOK_RPAREN)) {
		/* the SPX-AI-021 owning profile takes no explicit parameters */
		parse_error_at(p, parse_peek(p), DIAG_P130, "owning-capture closures admit no explicit parameters in this bounded profile");
		return e;
	}
	VEC(ClosureParam) params = {0};
	while (!p->panic && !parse_at(p, TOK_RPAREN)) {
		ClosureParam cp;
		cp.name = parse_name(p, "closure parameter name");
		if (!p->panic && cp.name.s && !parse_at(p, TOK_COLON)) {
			/* `fn(x) -> …`: the reference's line, our help */
			Diag *d = parse_error_at(p, parse_peek(p), DIAG_P106, "expected `:` after closure parameter name");
			diag_set_help(d, "a closure types each parameter, as a function does: `fn(%.*s: i64) -> i64 { … }`", (int)ast_name_len(cp.name), cp.name.s);
			parse_decorate_expected(p, d);
		} else {
			parse_expect(p, TOK_COLON, "`:` after closure parameter name");
		}
		cp.type = p->panic ? NULL : parse_type(p);
		VEC_PUSH(params, cp);
		if (!parse_accept(p, TOK_COMMA))
			break;
		if (parse_at(p, TOK_RPAREN))
			parse_error_at(p, parse_peek(p), DIAG_P106, "closure parameters do not accept a trailing comma");
	}
	parse_expect(p, TOK_RPAREN, "`)` after closure parameters");
	e->u.closure.params = ARENA_COPY(p, ClosureParam, params);
	e->u.closure.nparams = params.len;
	VEC_FREE(params);
	if (!p->panic && !parse_at(p, TOK_ARROW)) {
		/* `fn(x: i64) { … }`: the reference's line, our help */
		Diag *d = parse_error_at(p, parse_peek(p), DIAG_P106, "expected `->` after closure parameters");
		diag_set_help(d, "a closure states its result type, as a function does: `fn(x: i64) -> i64 { … }` (there is no unit result)");
		parse_decorate_expected(p, d);
	} else {
		parse_expect(p, TOK_ARROW, "`->` after closure parameters");
	}
	if (!p->panic)
		e->u.closure.result = parse_type(p);
	if (!p->panic) {
		const Type *outer = p->result;
		p->result = e->u.closure.result;
		e->u.closure.body = parse_block_ctx(p, BLK_CLOSURE, "`{` before closure body");
		p->result = outer;
	}
	e->span = parse_span_from(p, start);
	return e;
}

/* match_expr = "match" , [ "own" | "borrow" ] , cond_expr , "{" , { arm } , "}" ; */
static Expr *
parse_match(Parser *p)
{
	Span start = parse_advance(p)->span;  /* match */
	Expr *e = parse_new_expr(p, EXPR_MATCH, start);
	/*
	 * `own`/`borrow` is the mode only when the next token starts a distinct
	 * scrutinee and cannot continue an expression named `own`: a name other
	 * than `with`, a literal, `[`, `-` or `!` (the reference's rule).  So
	 * `match own(x)` calls a function `own`, `match own with { … } { … }`
	 * updates a binding `own`.
	 */
	Token *after = parse_peek_at(p, 1);
	TokKind ak = after->kind;
	bool mode_follows = (ak == TOK_IDENT && !parse_tok_is_word(p, after, "with")) || ak == TOK_INT ||
	    ak == TOK_FLOAT || ak == TOK_CHAR || ak == TOK_STRING || ak == TOK_LBRACKET ||
	    ak == TOK_MINUS || ak == TOK_BANG;
	if (mode_follows && parse_accept_word(p, "own"))
		e->u.match.mode = MATCH_OWN;
	else if (mode_follows && parse_accept_word(p, "borrow"))
		e->u.match.mode = MATCH_BORROW;
	if (e->u.match.mode != MATCH_PLAIN && (parse_at_word(p, "own") || parse_at_word(p, "borrow"))) {
		parse_error_at(p, parse_peek(p), DIAG_P207, "a match expression accepts exactly one ownership mode: `own` or `borrow`");
		return e;
	}
	e->u.match.scrutinee = parse_cond(p);
	if (!parse_expect(p, TOK_LBRACE, "`{` before match arms"))
		return e;
	int arms_open = p->pos - 1;
	if (!parse_enter(p, &p->toks[p->pos - 1]))
		return e;
	VEC(MatchArm) arms = {0};
	while (!p->panic && !parse_at(p, TOK_RBRACE)) {
		if (parse_at(p, TOK_EOF)) {
			Diag *d = parse_error_at(p, parse_peek(p), DIAG_P205, "expected `}` after match arms");
			diag_set_help(d, "end every arm with `,` and close the match with `}`");
			break;
		}
		MatchArm arm;
		memset(&arm, 0, sizeof arm);
		arm.span = parse_peek(p)->span;
		Token *pat_start = parse_peek(p);
		arm.pat = parse_pattern(p);
		if (!p->panic && parse_at_word(p, "if")) {
			parse_advance(p);
			bool g = p->in_guard;
			p->in_guard = true;
			arm.guard = parse_expr(p);
			p->in_guard = g;
		}
		if (!p->panic && !parse_at(p, TOK_FATARROW)) {
			Diag *d = parse_error_at(p, parse_peek(p), DIAG_P106, "expected `=>` after match pattern");
			if (parse_at(p, TOK_LPAREN)) {
				diag_set_help(d, "variant patterns name the case and its fields: `Option::Some { value: v }`, not `Some(v)`");
				int had = d ? d->fixes.len : 0;
				rust_case_fix(p, d, pat_start, NULL, false);
				if (d && d->fixes.len > had && parse_tok_is_word(p, pat_start, "Some"))
					none_arms_fix(p, d, arms_open);
			} else if (parse_at(p, TOK_DOT)) {
				diag_set_help(d, "range patterns are not admitted; bind the value and guard the arm: `n if n >= 0 && n <= 5 => …,`");
			} else if (parse_at(p, TOK_ARROW) || parse_at(p, TOK_ASSIGN)) {
				/* `->` (a function's return arrow) or `=` where the arm's `=>`
				 * goes (qa36): the fix writes it */
				Token *t = parse_peek(p);
				diag_set_help(d, "a match arm separates its pattern from its value with `=>`, not `%s`: `pattern => value,`",
				    parse_at(p, TOK_ARROW) ? "->" : "=");
				if (d)
					diag_add_fix(d, t->span.start, t->span.end, "=>");
			} else {
				parse_decorate_expected(p, d);
			}
			break;
		}
		parse_advance(p);
		arm.value = parse_expr(p);
		arm.span = parse_span_from(p, arm.span);
		VEC_PUSH(arms, arm);
		if (!p->panic && !parse_member_comma(p, "match arm"))
			break;
	}
	Token *close = parse_peek(p);
	if (!p->panic && parse_at(p, TOK_RBRACE))
		parse_advance(p);
	parse_leave(p);
	e->u.match.close = close->span;
	e->u.match.arms = ARENA_COPY(p, MatchArm, arms);
	e->u.match.narms = arms.len;
	VEC_FREE(arms);
	e->span = parse_span_from(p, start);
	return e;
}

/* array_lit = "[" , [ expr , { "," , expr } ] , "]" ; */
static Expr *
parse_array(Parser *p)
{
	Token *t = parse_peek(p);
	Expr *e = parse_new_expr(p, EXPR_ARRAY, t->span);
	if (!parse_enter(p, t))
		return e;
	parse_advance(p);
	VEC(Expr *) elems = {0};
	while (!p->panic && !parse_at(p, TOK_RBRACKET)) {
		VEC_PUSH(elems, parse_expr(p));
		if (!parse_accept(p, TOK_COMMA))
			break;
	}
	parse_expect(p, TOK_RBRACKET, "`]` after array elements");
	parse_leave(p);
	e->u.array.elems = ARENA_COPY(p, Expr *, elems);
	e->u.array.nelems = elems.len;
	VEC_FREE(elems);
	e->span = parse_span_from(p, t->span);
	return e;
}

static Expr *
expected_expression(Parser *p)
{
	Token *t = parse_peek(p);
	Diag *d = parse_error_at(p, t, DIAG_P201, "expected an expression");
	if (parse_block_comment_help(p, d, t)) {
		/* a block comment after an operator: help and fix set */
	} else if (t->kind == TOK_PIPE || t->kind == TOK_OROR)
		diag_set_help(d, "an anonymous function is `fn(x: i64) -> i64 { x + 1 }`; parameter and result types are required");
	else if (t->kind == TOK_PLUS || t->kind == TOK_MINUS)
		diag_set_help(d, "there is no `++` or `--`; write `i = i + 1;` with `i` declared `let mut`");
	else if (t->kind == TOK_GT && p->pos > 0 && p->toks[p->pos - 1].kind == TOK_LT && p->toks[p->pos - 1].span.end == t->span.start)
		diag_set_help(d, "there is no `<>`; not-equal is `!=`");
	else if ((t->kind == TOK_LT || t->kind == TOK_LE || t->kind == TOK_GT || t->kind == TOK_GE || t->kind == TOK_EQ || t->kind == TOK_NE) &&
		 p->pos > 0 && (p->toks[p->pos - 1].kind == TOK_ANDAND || p->toks[p->pos - 1].kind == TOK_OROR))
		/* `x > 5 && < 20` (qa31) */
		diag_set_help(d, "each comparison names both of its operands: repeat the left one, as in `x > 5 && x < 20`");
	else
		diag_set_help(d, "an expression is a literal, a name, a call, a block, an `if`, a `match`, or an operator applied to expressions");
	return error_expr(p, t->span);
}

/* primary = literal | IDENT | "(" expr ")" | block | if_expr | match_expr | closure | array_lit
 *         | record literal | variant | "super" "." IDENT call_args ; */
Expr *
parse_primary(Parser *p, bool *callable)
{
	Token *t = parse_peek(p);
	*callable = false;
	switch (t->kind) {
	case TOK_INT:
		parse_advance(p);
		return int_literal(p, t, false, t->span);
	case TOK_FLOAT: {
		parse_advance(p);
		Expr *e = parse_new_expr(p, EXPR_FLOAT, t->span);
		e->u.float_lit.value = lex_float(p->toks, t);
		e->lit_suffix = (NumSuffix)t->suffix;
		return e;
	}
	case TOK_CHAR: {
		parse_advance(p);
		Expr *e = parse_new_expr(p, EXPR_CHAR, t->span);
		e->u.char_lit.value = t->v;
		return e;
	}
	case TOK_STRING: {
		parse_advance(p);
		Expr *e = parse_new_expr(p, EXPR_STRING, t->span);
		e->u.str.s = lex_str(p->toks, t);
		e->u.str.len = lex_str_len(p->toks, t);
		e->u.str.span = t->span;
		return e;
	}
	case TOK_LPAREN: {
		if (!parse_enter(p, t))
			return error_expr(p, t->span);
		parse_advance(p);
		Expr *e = parse_expr(p);
		if (!p->panic && parse_at(p, TOK_COMMA)) {
			Diag *d = parse_error_at(p, parse_peek(p), DIAG_P106, "expected `)` after expression");
			diag_set_help(d, "tuples are not admitted; declare a `record` with named fields");
		} else if (parse_expect(p, TOK_RPAREN, "`)` after expression") && !p->panic) {
			record_group(p, e, t->span.start, p->toks[p->pos - 1].span.end);
		}
		parse_leave(p);
		return e;
	}
	case TOK_LBRACE: {
		Expr *e = parse_new_expr(p, EXPR_BLOCK, t->span);
		e->u.block = parse_block_ctx(p, BLK_EXPR, "`{` before block");
		e->span = parse_span_from(p, t->span);
		return e;
	}
	case TOK_LBRACKET:
		return parse_array(p);
	case TOK_IDENT:
		break;
	default:
		return expected_expression(p);
	}
	if (parse_tok_is_word(p, t, "true") || parse_tok_is_word(p, t, "false")) {
		parse_advance(p);
		Expr *e = parse_new_expr(p, EXPR_BOOL, t->span);
		e->u.bool_lit.value = parse_tok_is_word(p, t, "true");
		return e;
	}
	if (parse_tok_is_word(p, t, "if"))
		return parse_if(p, true);
	if (parse_tok_is_word(p, t, "match"))
		return parse_match(p);
	if (parse_tok_is_word(p, t, "fn") && parse_peek_at(p, 1)->kind == TOK_LPAREN)
		return parse_closure(p);
	if ((parse_tok_is_word(p, t, "own") || parse_tok_is_word(p, t, "mut")) && parse_word_at(p, 1, "fn") && parse_peek_at(p, 2)->kind == TOK_LPAREN)
		return parse_closure(p);
	if (parse_tok_is_word(p, t, "super") && parse_peek_at(p, 1)->kind == TOK_DOT) {
		parse_advance(p);
		parse_advance(p);
		Expr *e = parse_new_expr(p, EXPR_SUPER, t->span);
		e->u.super_.name = parse_name(p, "method name after `super.`");
		if (!p->panic && !parse_at(p, TOK_LPAREN))
			parse_expect(p, TOK_LPAREN, "`(` after `super` method name");
		else if (!p->panic)
			e->u.super_.args = parse_args(p, &e->u.super_.nargs, "`)` after method arguments");
		e->span = parse_span_from(p, t->span);
		return e;
	}
	return parse_name_expr(p, callable);
}

static Expr *
parse_unary_postfix(Parser *p)
{
	bool callable;
	Expr *e = parse_primary(p, &callable);
	return parse_postfix_of(p, e, callable);
}
