/*
 * parse_stmt.c — blocks, statements and the statement-level habit hints
 * (LANGUAGE.md §2.1 block/statement, §0.3, §1.2).
 *
 * A block is `{ statement* tail }`.  An `if` is parsed once; if it closes the
 * block, has an `else` and every branch ends in a value, it is the tail,
 * otherwise a statement whose branch values are discarded.  Habits from
 * other languages (`return`, `break`, `x += 1`, `f(x);` …) get the
 * reference's codes, a help line, and a fix where one is mechanical.
 */
#include "parse_int.h"

#include <stdio.h>
#include <string.h>

#define STMT_BYTES(member) (offsetof(Stmt, u) + sizeof(((Stmt *)0)->u.member))

static Stmt *
new_stmt(Parser *p, StmtKind k, Span s)
{
	/* at the size of its kind, as expressions are (parse_expr.c): a `while`
	 * is 32 bytes, a `let` 64, only an assignment the whole 80 */
	size_t size = sizeof(Stmt);
	switch (k) {
	case STMT_LET: size = STMT_BYTES(let); break;
	case STMT_ASSIGN: size = STMT_BYTES(assign); break;
	case STMT_WHILE: size = STMT_BYTES(while_); break;
	case STMT_FOR: size = STMT_BYTES(for_); break;
	case STMT_IF: size = STMT_BYTES(if_); break;
	case STMT_UNSAFE: size = STMT_BYTES(unsafe); break;
	}
	Stmt *st = arena_alloc(p->arena, size);
	st->kind = k;
	st->span = s;
	return st;
}

static bool
parse_if_has_value(const Expr *e)
{
	return e->kind == EXPR_IF && e->u.if_.else_block && e->u.if_.then_block &&
	    e->u.if_.then_block->tail && e->u.if_.else_block->tail;
}

static const char *
p203_help(BlockCtx ctx, bool after_if, bool arm)
{
	if (arm && !after_if)
		return "`match` is an expression: end the arm's block with the arm's value, for example the binding the block assigned (`{ x = 1; x }`)";
	if (after_if)
		return "a statement `if` yields no value, so the enclosing block still ends with a final expression after it; to make the `if` the value, end every branch with a value and add an `else` branch";
	switch (ctx) {
	case BLK_FN: return "a function's value is its final expression; there is no `return`";
	case BLK_WHILE: return "end the `while` body with a final expression, such as the loop condition repeated or `0` (`semaprax fix` writes `0`); its value is discarded because the condition controls repetition";
	case BLK_FOR: return "end the `for` body with a final expression, such as `0`; its value is discarded";
	case BLK_IF_VALUE: return "`if` is an expression: end each branch with its value, for example the binding the branch assigned";
	case BLK_UNSAFE: return "end the `unsafe` block with a final Copy value, such as `0`; it is discarded";
	default: return "a block's value is its final expression; end the block with one";
	}
}

/* P203's fix in a `while`/`for` body: a line `0` before a `}` that stands
 * first on its line, indented one level past it (a tab in a tab-indented
 * line) and ended as the line before it (CRLF or LF); else `0 ` before it. */
static void
loop_tail_fix(Parser *p, Diag *d, const Token *close)
{
	uint32_t at = close->span.start;
	SpxLine l = spx_line_at(p->src, at);
	if (l.start + l.indent != at) {   /* not first on its line */
		diag_add_fix(d, at, at, "0 ");
		return;
	}
	Buf b = {0};
	buf_printf(&b, "%.*s%s0%s", (int)l.indent, p->src + l.start, l.level, l.eol);
	diag_add_fix(d, l.start, l.start, b.data);
	buf_free(&b);
}

/*
 * A misspelt `else` after an `if` body (`} els {`, `} esle if`): a word one
 * edit from `else` followed by `{` or `if`, or another language's `elif`,
 * `elsif`, `elseif`, reported with its fix (P104); otherwise the word would
 * read as a record construction or a statement.
 */
static bool
else_typo(Parser *p)
{
	Token *t = parse_peek(p), *n = parse_peek_at(p, 1);
	size_t len = t->span.end - t->span.start;
	/* a condition follows (`elif x > 1 {`), which cannot continue an expression after a name */
	bool operand = n->kind == TOK_IDENT || n->kind == TOK_INT || n->kind == TOK_FLOAT || n->kind == TOK_CHAR ||
	    n->kind == TOK_STRING || n->kind == TOK_BANG;
	if (operand && (parse_at_word(p, "elif") || parse_at_word(p, "elsif") || parse_at_word(p, "elseif"))) {
		Diag *d = parse_error_at(p, t, DIAG_P104, "`%.*s` is not a keyword; did you mean `else if`?", (int)len, p->src + t->span.start);
		diag_set_help(d, "write `else if`: an `if` continues with `else { … }` or `else if`");
		diag_add_fix(d, t->span.start, t->span.end, "else if");
		return true;
	}
	if (t->kind != TOK_IDENT || len < 2 || len > 6 || parse_at_word(p, "else") ||
	    !(n->kind == TOK_LBRACE || parse_tok_is_word(p, n, "if")))
		return false;
	char w[7];
	memcpy(w, p->src + t->span.start, len);
	w[len] = '\0';
	/* one edit from `else`, its prefix `el` (agent40), or `elif`/`elsif`/
	 * `elseif` before a block, which then mean `else` */
	if (spx_edit_distance(w, "else", true) != 1 && strcmp(w, "el") != 0 &&
	    (n->kind != TOK_LBRACE || (strcmp(w, "elif") != 0 && strcmp(w, "elsif") != 0 && strcmp(w, "elseif") != 0)))
		return false;
	/* `w {}`, `w { x: …`, `w { x, …` and `w { x }` may construct a record
	 * named w (lowercase names are admitted): valid code after an `if`
	 * statement, so not a misspelt `else` */
	if (n->kind == TOK_LBRACE) {
		Token *a = parse_peek_at(p, 2), *b = a->kind == TOK_IDENT ? parse_peek_at(p, 3) : NULL;
		if (a->kind == TOK_RBRACE || (b && (b->kind == TOK_COLON || b->kind == TOK_COMMA || b->kind == TOK_RBRACE)))
			return false;
	}
	Diag *d = parse_error_at(p, t, DIAG_P104, "`%s` is not a keyword; did you mean `else`?", w);
	diag_set_help(d, "write `else`: an `if` continues with `else { … }` or `else if`");
	diag_add_fix(d, t->span.start, t->span.end, "else");
	return true;
}

/* if_expr = "if" , cond_expr , block , [ "else" , ( block | if_expr ) ] ;  (at `if`) */
Expr *
parse_if(Parser *p, bool value)
{
	Token *t = parse_advance(p);  /* if */
	bool tail = p->tail_if;
	p->tail_if = false;
	Expr *e = parse_new_expr(p, EXPR_IF, t->span);
	if (!parse_enter(p, t))
		return e;
	bool if_let = parse_at_word(p, "let");   /* Rust's `if let Pat = e {` */
	e->u.if_.cond = parse_cond(p);
	if (!p->panic && !parse_at(p, TOK_LBRACE)) {
		Diag *d = parse_error_at(p, parse_peek(p), DIAG_P106, "expected `{` before `if` body");
		if (if_let)
			diag_set_help(d, "there is no `if let`: match the value, `match value { Option::Some { value: v } => …, _ => …, }` (`match borrow value` for an owned one)");
		else if (parse_at(p, TOK_ASSIGN))
			diag_set_help(d, "comparison is `==`; a single `=` is assignment, which is a statement and never a condition");
		else if (parse_at_word(p, "then") || parse_at(p, TOK_COLON))
			/* `if c then a else b` (ML, Lua, shells), `if c:` (Python) */
			diag_set_help(d, "the branches are blocks: `if <condition> { a } else { b }`, with no `then` or `:`");
		else
			parse_decorate_expected(p, d);
	}
	BlockCtx bctx = value ? BLK_IF_VALUE : BLK_IF_STMT;
	if (!p->panic) {
		p->tail_branch = tail;
		e->u.if_.then_block = parse_block_ctx(p, bctx, "`{` before `if` body");
	}
	if (!p->panic)
		else_typo(p);   /* reports `els {`: p->panic then skips the rest */
	if (!p->panic && parse_at_word(p, "else")) {
		Token *else_tok = parse_advance(p);
		if (parse_at_word(p, "if")) {
			/* `else if` is sugar for `else { if … }` */
			Block *b = ARENA_NEW(p->arena, Block);
			p->tail_if = tail;
			Expr *inner = parse_if(p, value);
			b->span = inner->span;
			/* only a valueless chain needs to remember its `else if` */
			e->u.if_.else_if = !value && !(parse_if_has_value(inner) && e->u.if_.then_block && e->u.if_.then_block->tail);
			if (parse_if_has_value(inner) || value) {
				b->tail = inner;
			} else {
				Stmt *st = new_stmt(p, STMT_IF, inner->span);
				st->u.if_ = inner;
				b->stmts = ARENA_NEW(p->arena, Stmt *);
				b->stmts[0] = st;
				b->nstmts = 1;
			}
			e->u.if_.else_block = b;
		} else {
			(void)else_tok;
			p->tail_branch = tail;
			e->u.if_.else_block = parse_block_ctx(p, bctx, "`{` after `else`");
		}
	} else if (!p->panic && value) {
		Diag *d = parse_error_at(p, parse_peek(p), DIAG_P104, "expected `else`");
		diag_set_help(d, "an `if` used as a value needs an `else` branch giving the value when the condition is false (a statement `if` does not)");
	}
	parse_leave(p);
	e->span = parse_span_from(p, t->span);
	return e;
}

/* The last `-` at bracket depth 0 that starts a line among the tokens
 * [from, to) after the first: where a binding missing its `;` before a
 * `-…` tail was read on as a subtraction; 0 when there is none. */
static int
minus_split(const Parser *p, int from, int to)
{
	int depth = 0, at = 0;
	for (int i = from; i < to; i++) {
		TokKind k = p->toks[i].kind;
		if (k == TOK_LPAREN || k == TOK_LBRACKET || k == TOK_LBRACE)
			depth++;
		else if (k == TOK_RPAREN || k == TOK_RBRACKET || k == TOK_RBRACE)
			depth--;
		else if (k == TOK_MINUS && depth == 0 && i > from && p->toks[i].line_first)
			at = i;
	}
	return at;
}

/* let_stmt = "let" , [ "mut" ] , ( IDENT | "_" ) , [ ":" , type ] , "=" , expr , ";" ;
 * tail: the block needs a final value (the `let x = a` / `-x` split). */
static Stmt *
parse_let(Parser *p, bool tail)
{
	Token *t = parse_advance(p);  /* let */
	Stmt *st = new_stmt(p, STMT_LET, t->span);
	/* `mut` is the modifier only when a name follows it. */
	if (parse_at_word(p, "mut") && parse_peek_at(p, 1)->kind == TOK_IDENT) {
		parse_advance(p);
		st->u.let.mut = true;
		if (parse_at_word(p, "mut") && parse_peek_at(p, 1)->kind == TOK_IDENT) {
			Diag *d = parse_error_at(p, parse_peek(p), DIAG_U104, "duplicate `mut` modifier; write `let mut` exactly once");
			diag_add_fix(d, parse_peek(p)->span.start, parse_space_end(p, parse_peek(p)->span.end, parse_peek_at(p, 1)->span.start), "");
			return st;
		}
	}
	st->u.let.name = parse_name(p, "local binding name");
	if (!p->panic && parse_accept(p, TOK_COLON))
		st->u.let.type = parse_type(p);
	if (!p->panic && !parse_at(p, TOK_ASSIGN)) {
		Diag *d = parse_error_at(p, parse_peek(p), DIAG_P106, "expected `=` in local binding");
		if (parse_at(p, TOK_SEMI))
			diag_set_help(d, "every `let` binds a value at its declaration; there is no uninitialised binding");
		else
			parse_decorate_expected(p, d);
		return st;
	}
	parse_advance(p);
	int from = p->pos;
	if (!p->panic)
		st->u.let.value = parse_expr(p);
	int split = !p->panic && tail && parse_at(p, TOK_RBRACE) ? minus_split(p, from, p->pos) : 0;
	if (split > 0) {
		/* `let d = a` then a `-x` tail on the next line: one subtraction to
		 * the parser, and the block has no value; the `;` belongs before
		 * the `-` line (at the line end), which keeps `-x` as the tail. */
		uint32_t at = p->toks[split - 1].span.end;
		Diag *d = parse_error_span(p, (Span){ at, at }, DIAG_P106, "expected `;` after local binding");
		diag_add_fix(d, at, at, ";");
		diag_set_help(d, "a line starting with `-` continues the value before it (`a` then `-b` reads as `a - b`); end the binding with `;` so `-…` is the block's final value");
		return st;
	}
	parse_expect(p, TOK_SEMI, "`;` after local binding");
	st->span = parse_span_from(p, t->span);
	return st;
}

/* while_stmt = "while" , cond_expr , block ; */
static Stmt *
parse_while(Parser *p)
{
	Token *t = parse_advance(p);
	Stmt *st = new_stmt(p, STMT_WHILE, t->span);
	st->u.while_.cond = parse_cond(p);
	if (!p->panic && !parse_at(p, TOK_LBRACE)) {
		Diag *d = parse_error_at(p, parse_peek(p), DIAG_P106, "expected `{` before `while` body");
		if (parse_at(p, TOK_ASSIGN))
			diag_set_help(d, "comparison is `==`; a single `=` is assignment, which is a statement and never a condition");
		else if (parse_at_word(p, "do") || parse_at(p, TOK_COLON))
			/* `while c do … end` (Lua, shells), `while c:` (Python) */
			diag_set_help(d, "the body is a block: `while <condition> { …; <value> }`, with no `do` or `:`");
		else
			parse_decorate_expected(p, d);
		return st;
	}
	st->u.while_.body = parse_block_ctx(p, BLK_WHILE, "`{` before `while` body");
	st->span = parse_span_from(p, t->span);
	return st;
}

/* for_stmt = "for" , [ "own" ] , IDENT , "in" , cond_expr , block ; */
static Stmt *
parse_for(Parser *p)
{
	Token *t = parse_advance(p);
	Stmt *st = new_stmt(p, STMT_FOR, t->span);
	if (parse_at_word(p, "own") && parse_peek_at(p, 1)->kind == TOK_IDENT && !parse_word_at(p, 1, "in")) {
		parse_advance(p);
		st->u.for_.own = true;
	}
	st->u.for_.item = parse_name(p, "loop item name");
	parse_expect_word(p, "in");
	if (!p->panic) {
		p->in_for_iter = true;
		st->u.for_.iter = parse_cond(p);
		p->in_for_iter = false;
	}
	if (!p->panic)
		st->u.for_.body = parse_block_ctx(p, BLK_FOR, "`{` before `for` body");
	st->span = parse_span_from(p, t->span);
	return st;
}

/* unsafe_stmt = "@" , "audit" , "(" , STRING , ")" , "unsafe" , block ; */
static Stmt *
parse_unsafe(Parser *p)
{
	Token *t = parse_peek(p);
	Stmt *st = new_stmt(p, STMT_UNSAFE, t->span);
	if (!parse_word_at(p, 1, "audit")) {
		parse_attr(p, true);
		if (!p->panic)
			parse_error_at(p, t, DIAG_P102, "`@id` does not stand before statements; only `@audit` does");
		return st;
	}
	parse_advance(p);
	parse_advance(p);
	parse_expect(p, TOK_LPAREN, "`(` after @audit");
	if (!p->panic && !parse_at(p, TOK_STRING)) {
		Diag *d = parse_error_span(p, p->toks[p->pos - 1].span, DIAG_P103, "@audit expects a string literal");
		diag_set_help(d, "summarise the audit in quotes: `@audit(\"bounded copy\")`");
		return st;
	}
	if (!p->panic) {
		st->u.unsafe.audit = parse_strlit(p, "audit summary");
		st->u.unsafe.has_audit = true;
	}
	parse_expect(p, TOK_RPAREN, "`)` after audit summary");
	parse_expect_word(p, "unsafe");
	if (!p->panic)
		st->u.unsafe.body = parse_block_ctx(p, BLK_UNSAFE, "`{` after `unsafe`");
	st->span = parse_span_from(p, t->span);
	return st;
}

/* assign_stmt = IDENT , [ "." , IDENT ] , "=" , expr , ";" ;  (`a.b.c = …` is U111) */
static Stmt *
parse_assign(Parser *p)
{
	Token *t = parse_advance(p);
	Stmt *st = new_stmt(p, STMT_ASSIGN, t->span);
	st->u.assign.target = parse_name_of(p, t);
	if (parse_accept(p, TOK_DOT)) {
		st->u.assign.has_field = true;
		p->field_assigns = true;
		st->u.assign.field = parse_name(p, "field name after `.`");
		if (!p->panic && parse_at(p, TOK_DOT)) {
			Diag *d = parse_error_at(p, t, DIAG_U111, "nested place chains like `a.b.c = ...` are outside field mutation v1");
			diag_set_help(d, "rebuild the inner value with `with` and assign it one level at a time: `a.b = a.b with { c: … };`");
			return st;
		}
	}
	parse_expect(p, TOK_ASSIGN, "`=` in assignment");
	if (!p->panic)
		st->u.assign.value = parse_expr(p);
	parse_expect(p, TOK_SEMI, "`;` after assignment");
	st->span = parse_span_from(p, t->span);
	return st;
}

/* Is this `IDENT (. IDENT)* =` (an assignment)? */
static bool
assign_ahead(Parser *p)
{
	int k = 1;
	while (parse_peek_at(p, k)->kind == TOK_DOT && parse_peek_at(p, k + 1)->kind == TOK_IDENT)
		k += 2;
	return parse_peek_at(p, k)->kind == TOK_ASSIGN;
}

/* Is k a binary operator (parse_expr.c's binop_of)? */
static bool
binary_token(TokKind k)
{
	switch (k) {
	case TOK_OROR: case TOK_ANDAND: case TOK_EQ: case TOK_NE: case TOK_LT: case TOK_LE: case TOK_GT: case TOK_GE:
	case TOK_PLUS: case TOK_MINUS: case TOK_STAR: case TOK_SLASH: case TOK_PERCENT:
		return true;
	default:
		return false;
	}
}

/* `x += e;` (and -= *= /= %=): P201 with a fix to `x = x + e;` (`x = x + (e);` when e has a binary operator). */
static bool
compound_habit(Parser *p)
{
	int k = 1;
	while (parse_peek_at(p, k)->kind == TOK_DOT && parse_peek_at(p, k + 1)->kind == TOK_IDENT)
		k += 2;
	Token *op = parse_peek_at(p, k), *eq = parse_peek_at(p, k + 1);
	if (eq->kind != TOK_ASSIGN || eq->span.start != op->span.end)
		return false;
	const char *sym;
	switch (op->kind) {
	case TOK_PLUS: sym = "+"; break;
	case TOK_MINUS: sym = "-"; break;
	case TOK_STAR: sym = "*"; break;
	case TOK_SLASH: sym = "/"; break;
	case TOK_PERCENT: sym = "%"; break;
	default: return false;
	}
	Token *first = parse_peek(p);
	uint32_t ps = first->span.start, pe = parse_peek_at(p, k - 1)->span.end;
	int plen = (int)(pe - ps);
	Span s = op->span;
	s.end = eq->span.end;
	Diag *d = parse_error_span(p, s, DIAG_P201, "compound assignment is not admitted");
	diag_set_help(d, "write `%.*s = %.*s %s …;`; assignment is a statement with a plain `=`", plen, p->src + ps, plen,
	    p->src + ps, sym);
	/* Mechanical only when the statement ends in `;` (a tail `x += 1` has no value to keep).
	 * A binary operator outside brackets in `e` parenthesizes it: `x -= a - b;` is
	 * `x = x - (a - b);`, not `x = x - a - b;`. */
	bool has_semi = false, operator = false;
	Token *semi = NULL;
	for (int j = k + 2, depth = 0; p->pos + j < p->ntoks; j++) {
		TokKind tk = (TokKind)parse_peek_at(p, j)->kind;
		if (tk == TOK_EOF || tk == TOK_ERROR)
			break;
		if (tk == TOK_LPAREN || tk == TOK_LBRACE || tk == TOK_LBRACKET)
			depth++;
		else if (tk == TOK_RPAREN || tk == TOK_RBRACKET || tk == TOK_RBRACE) {
			if (depth-- == 0)
				break;
		} else if (tk == TOK_SEMI && depth == 0) {
			has_semi = true;
			semi = parse_peek_at(p, j);
			break;
		} else if (depth == 0 && j > k + 2 && binary_token(tk)) {
			operator = true;
		}
	}
	if (d && has_semi && plen < 200) {
		char buf[512];
		snprintf(buf, sizeof buf, "= %.*s %s%s", plen, p->src + ps, sym, operator ? " (" : "");
		diag_add_fix(d, op->span.start, operator ? parse_peek_at(p, k + 2)->span.start : eq->span.end, buf);
		if (operator)
			diag_add_fix(d, semi->span.start, semi->span.start, ")");
	}
	return true;
}

/* Can token t start an operand (the reference's test after `return`)? */
static bool
starts_operand(Parser *p, const Token *t)
{
	(void)p;
	switch (t->kind) {
	case TOK_IDENT: case TOK_INT: case TOK_FLOAT: case TOK_CHAR: case TOK_STRING:
	case TOK_LBRACKET: case TOK_LBRACE: case TOK_BANG:
		return true;
	default:
		return false;
	}
}

/* `return e;` — P106; when it is the block's last thing, a fix drops `return` and `;`.
 * word: the word written, `return` or a misspelling of it (`retrun e;`). */
static void
return_habit(Parser *p, const char *word)
{
	Token *t = parse_peek(p);
	Diag *d = strcmp(word, "return") == 0 ? parse_error_at(p, t, DIAG_P106, "`return` is not admitted; a block's value is its final expression")
	    : parse_error_at(p, t, DIAG_P106, "`%s` looks like `return`, which is not admitted; a block's value is its final expression", word);
	if (!d)
		return;
	/* Find the `;` (or `}`) that ends the returned expression at bracket
	 * depth 0.  Dropping `return` keeps the meaning only where it is the
	 * last statement of a block whose value is the function's result
	 * (`let y = if c { return 1; } else { 2 };` would keep going, and so
	 * would `return 1;` followed by more statements). */
	Token *semi = NULL;
	bool last = false;
	int depth = 0;
	for (int k = 1; p->tail_block && p->pos + k < p->ntoks; k++) {
		Token *u = parse_peek_at(p, k);
		if (u->kind == TOK_EOF || u->kind == TOK_ERROR)
			break;
		if (u->kind == TOK_LPAREN || u->kind == TOK_LBRACE || u->kind == TOK_LBRACKET)
			depth++;
		else if (u->kind == TOK_RPAREN || u->kind == TOK_RBRACKET)
			depth--;
		else if (u->kind == TOK_RBRACE) {
			if (depth == 0) {
				last = true;
				break;
			}
			depth--;
		} else if (u->kind == TOK_SEMI && depth == 0) {
			semi = u;
			last = parse_peek_at(p, k + 1)->kind == TOK_RBRACE;
			break;
		}
	}
	if (!last) {
		diag_set_help(d, "there is no early return: a function's value is its body's final expression; "
		    "choose between results with `if <condition> { a } else { b }` as that final expression");
		return;
	}
	diag_set_help(d, "delete `%s` and the trailing `;` so the value is the block's last expression", word);
	diag_add_fix(d, t->span.start, parse_space_end(p, t->span.end, parse_peek_at(p, 1)->span.start), "");
	if (semi)
		diag_add_fix(d, semi->span.start, semi->span.end, "");
}

/*
 * A misspelt statement keyword (`retrun y;`, `whlie i < n {`, `lte x = 1;`, `fro x in xs {`,
 * `fi c {`, `mathc v {`): the keyword a word at a statement's start means,
 * or NULL.  Only where the statement cannot be an expression: the word is
 * followed by another word (not the infix `with`, nor `as`, `and`, `or`), a literal or `!`, none
 * of which continues an expression after a name (a name `retrun` in
 * `retrun + 1` or `retrun(x)` stays a name).  The keyword is the one
 * nearest word one edit (a transposition counts one) away, if unique.
 */
static const char *
keyword_typo(Parser *p, const Token *t, const Token *n)
{
	static const char *const keywords[] = { "return", "let", "while", "for", "if", "match" };
	/* words the statement grammar (or its habits) already reads here */
	static const char *const known[] = { "loop", "break", "continue", "unsafe", "mut", "own", "fn",
		"true", "false", "super", "else", "with" };
	if (t->kind != TOK_IDENT)
		return NULL;
	/* `with` continues an expression; `as`, `and`, `or` continue one in another
	 * language (parse_decorate_expected's habits, reported there) */
	bool ends = (n->kind == TOK_IDENT && !parse_tok_is_word(p, n, "with") && !parse_tok_is_word(p, n, "as") &&
	                !parse_tok_is_word(p, n, "and") && !parse_tok_is_word(p, n, "or")) || n->kind == TOK_INT || n->kind == TOK_FLOAT ||
	    n->kind == TOK_CHAR || n->kind == TOK_STRING || n->kind == TOK_BANG;
	size_t len = t->span.end - t->span.start;
	if (!ends || len > 8)
		return NULL;
	char w[9];
	memcpy(w, p->src + t->span.start, len);
	w[len] = '\0';
	/* the keyword itself (every `let x = …;`): no edit distance to compute */
	for (size_t i = 0; i < countof(keywords); i++)
		if (w[0] == keywords[i][0] && strcmp(w, keywords[i]) == 0)
			return NULL;
	if (spx_word_index(known, countof(known), w) >= 0)
		return NULL;
	const char *best = NULL;
	int nbest = 0;
	for (size_t i = 0; i < countof(keywords); i++) {
		size_t klen = strlen(keywords[i]);
		if (len > klen + 1 || klen > len + 1)   /* two edits at least */
			continue;
		int d = spx_edit_distance(w, keywords[i], true);
		if (d == 1) {
			best = keywords[i];
			nbest++;
		}
	}
	return nbest == 1 ? best : NULL;
}

/* Does the statement at the cursor end with `;` (at bracket depth 0)
 * rather than with its block's `}`? */
static bool
ends_with_semi(Parser *p)
{
	int depth = 0;
	for (int k = 1; p->pos + k < p->ntoks; k++) {
		const Token *u = parse_peek_at(p, k);
		if (u->kind == TOK_EOF)
			return false;
		if (u->kind == TOK_LPAREN || u->kind == TOK_LBRACE || u->kind == TOK_LBRACKET)
			depth++;
		else if (u->kind == TOK_RPAREN || u->kind == TOK_RBRACKET || u->kind == TOK_RBRACE) {
			if (depth-- == 0)
				return false;
		} else if (u->kind == TOK_SEMI && depth == 0)
			return true;
	}
	return false;
}

/* Statement-position words that are habits; true when one was reported. */
static bool
statement_habit(Parser *p)
{
	Token *t = parse_peek(p), *n = parse_peek_at(p, 1);
	/* `return -1;` and `return (a + b);` too (qa39): followed by `;`,
	 * never valid code; ending the block (no `;`) they are a valid value
	 * when a binding or function is named `return` (keywords are
	 * contextual: rev39), so the checker decides there */
	if (parse_tok_is_word(p, t, "return") && (starts_operand(p, n) || ((n->kind == TOK_MINUS || n->kind == TOK_LPAREN) && ends_with_semi(p)))) {
		return_habit(p, "return");
		return true;
	}
	const char *kw = keyword_typo(p, t, n);
	if (kw) {
		char word[9];
		snprintf(word, sizeof word, "%.*s", (int)(t->span.end - t->span.start), p->src + t->span.start);
		if (strcmp(kw, "return") == 0) {
			return_habit(p, word);
			return true;
		}
		Diag *d = parse_error_at(p, t, DIAG_P104, "`%s` is not a keyword; did you mean `%s`?", word, kw);
		diag_set_help(d, "write `%s`: a statement starts with `let`, `while`, `for`, `if`, `match` or an expression", kw);
		if (d)
			diag_add_fix(d, t->span.start, t->span.end, kw);
		return true;
	}
	if ((parse_tok_is_word(p, t, "break") || parse_tok_is_word(p, t, "continue")) &&
	    (n->kind == TOK_SEMI || n->kind == TOK_RBRACE)) {
		Diag *d = parse_error_at(p, t, DIAG_P106, "`%s` is not admitted", parse_tok_is_word(p, t, "break") ? "break" : "continue");
		diag_set_help(d, "there is no `break` or `continue`; put the exit test in the `while` condition, for example with a `let mut done = false;` flag");
		return true;
	}
	if (parse_tok_is_word(p, t, "loop") && (n->kind == TOK_LBRACE || starts_operand(p, n))) {
		Diag *d = parse_error_at(p, t, DIAG_P106, "only `while` loops are admitted");
		diag_set_help(d, "write `while <condition> { <statements>; <tail> }`; the condition decides whether to loop again, and the required body tail is discarded");
		return true;
	}
	if (t->kind == TOK_IDENT && compound_habit(p))
		return true;
	return false;
}

/* An integer literal's type by its suffix. */
static const char *const int_types[] = { [SUF_NONE] = "i64", [SUF_I32] = "i32", [SUF_U8] = "u8", [SUF_USIZE] = "usize" };

/* The type of a literal token, or NULL. */
static const char *
literal_type(const Parser *p, const Token *t)
{
	switch (t->kind) {
	case TOK_INT:
		return t->suffix < countof(int_types) ? int_types[t->suffix] : NULL;
	case TOK_FLOAT:
		return t->suffix == SUF_F32 ? "f32" : t->suffix == SUF_NONE || t->suffix == SUF_F64 ? "f64" : NULL;
	case TOK_CHAR:
		return "char";
	case TOK_STRING:
		return "string";
	default:
		return parse_tok_is_word(p, t, "true") || parse_tok_is_word(p, t, "false") ? "bool" : NULL;
	}
}

/*
 * The type of the binding `name` the body's statements (tokens open+1 ..
 * tail-1) give it last at their own level: `let [mut] name: T = …;` with T
 * a scalar or `string`, or `let [mut] name = <literal>;`; NULL otherwise (no
 * such `let`, a parameter, or a value whose type is not known here).
 */
static const char *
let_type(Parser *p, int open, int tail, const Token *name)
{
	static const char *const named[] = { "i64", "i32", "u8", "usize", "f64", "f32", "bool", "char", "string" };
	const char *ty = NULL;
	int depth = 0;
	size_t n = name->span.end - name->span.start;
	for (int j = open + 1; j < tail; j++) {
		Token *t = parse_peek_at(p, j);
		if (t->kind == TOK_LPAREN || t->kind == TOK_LBRACKET || t->kind == TOK_LBRACE)
			depth++;
		else if (t->kind == TOK_RPAREN || t->kind == TOK_RBRACKET || t->kind == TOK_RBRACE)
			depth--;
		if (depth != 0 || !parse_tok_is_word(p, t, "let"))
			continue;
		int k = j + 1;
		if (parse_tok_is_word(p, parse_peek_at(p, k), "mut"))
			k++;
		Token *b = parse_peek_at(p, k);
		if (b->kind != TOK_IDENT || b->span.end - b->span.start != n || memcmp(p->src + b->span.start, p->src + name->span.start, n) != 0)
			continue;
		ty = NULL;   /* this `let` shadows any before it */
		Token *a = parse_peek_at(p, k + 1), *v = parse_peek_at(p, k + 2);
		if (a->kind == TOK_COLON && v->kind == TOK_IDENT && parse_peek_at(p, k + 3)->kind == TOK_ASSIGN) {
			for (size_t i = 0; i < countof(named); i++)
				if (parse_tok_is_word(p, v, named[i]))
					ty = named[i];
		} else if (a->kind == TOK_ASSIGN) {
			int m = k + 2;
			if (v->kind == TOK_MINUS && (parse_peek_at(p, m + 1)->kind == TOK_INT || parse_peek_at(p, m + 1)->kind == TOK_FLOAT))
				m++;
			if (parse_peek_at(p, m + 1)->kind == TOK_SEMI)
				ty = literal_type(p, parse_peek_at(p, m));
		}
	}
	return ty;
}

/*
 * The result type a body without `->` gives, read from its tokens (the body
 * is not parsed after the error): k is the offset of the token after `)`.
 * Known only for a tail after the body's last `;` (or its `{`) that is one
 * literal (`-` before a number), or that holds no brackets and a comparison
 * or logical operator at its top, or starts with `!` (bool: those are the
 * lowest-precedence operators).  NULL when the tail's type cannot be known
 * here, or there is no tail.
 */
const char *
parse_body_tail_type(Parser *p, int k)
{
	int depth = 0;
	if ((k = parse_body_open(p, k)) < 0)
		return NULL;
	/* the tail: after the last `;` or `}` at the body's own level */
	int open = k, tail = k + 1, end = -1;
	for (k++, depth = 0; p->pos + k < p->ntoks; k++) {
		Token *t = parse_peek_at(p, k);
		if (t->kind == TOK_EOF || t->kind == TOK_ERROR)
			return NULL;
		if (t->kind == TOK_LPAREN || t->kind == TOK_LBRACKET || t->kind == TOK_LBRACE) {
			depth++;
		} else if (t->kind == TOK_RPAREN || t->kind == TOK_RBRACKET || t->kind == TOK_RBRACE) {
			if (depth-- == 0) {
				end = k;
				break;
			}
		} else if (t->kind == TOK_SEMI && depth == 0) {
			tail = k + 1;
		}
	}
	if (end < 0 || end == tail)
		return NULL;
	Token *first = parse_peek_at(p, tail);
	if (end == tail + 1 && first->kind == TOK_IDENT && !literal_type(p, first))
		return let_type(p, open, tail, first);
	if (end == tail + 1)
		return literal_type(p, first);
	if (end == tail + 2 && first->kind == TOK_MINUS && (parse_peek_at(p, tail + 1)->kind == TOK_INT ||
	    parse_peek_at(p, tail + 1)->kind == TOK_FLOAT))
		return literal_type(p, parse_peek_at(p, tail + 1));
	bool logic = false, cast = false;
	for (int j = tail; j < end; j++) {
		TokKind tk = (TokKind)parse_peek_at(p, j)->kind;
		if (tk == TOK_LPAREN || tk == TOK_LBRACKET || tk == TOK_LBRACE || tk == TOK_RPAREN || tk == TOK_RBRACKET ||
		    tk == TOK_RBRACE || tk == TOK_FATARROW)
			return NULL;
		logic |= tk == TOK_OROR || tk == TOK_ANDAND || tk == TOK_EQ || tk == TOK_NE || tk == TOK_LE || tk == TOK_GE;
		cast |= parse_tok_is_word(p, parse_peek_at(p, j), "as");
	}
	/* `!x as i64` would not be a bool; `a == b as i64` is */
	return logic || (first->kind == TOK_BANG && !cast) ? "bool" : NULL;
}

/*
 * The type e's own shape gives (shared by the two AST readers: the last-`;`
 * fix and parse_fix.c): a literal's; bool for `!…`, a comparison or a
 * logical operator.  Otherwise NULL, with sub[] the operands whose known
 * type is e's (`-x`: x; arithmetic: lhs then rhs), NULL-filled.
 */
const char *
parse_expr_shape_type(const Expr *e, const Expr *sub[2])
{
	sub[0] = sub[1] = NULL;
	switch (e->kind) {
	case EXPR_INT:
		return e->lit_suffix < countof(int_types) ? int_types[e->lit_suffix] : NULL;
	case EXPR_FLOAT:
		return e->lit_suffix == SUF_F32 ? "f32" : "f64";
	case EXPR_CHAR:
		return "char";
	case EXPR_STRING:
		return "string";
	case EXPR_BOOL:
		return "bool";
	case EXPR_UNARY:
		if (e->un_op == UN_NOT)
			return "bool";
		sub[0] = e->u.unary.operand;
		return NULL;
	case EXPR_BINARY:
		if (e->bin_op <= BIN_GE)
			return "bool";
		sub[0] = e->u.binary.lhs;
		sub[1] = e->u.binary.rhs;
		return NULL;
	default:
		return NULL;
	}
}

/*
 * The type an expression is known to have from the syntax, or NULL: a
 * literal's; a comparison's or a logical operator's (bool); arithmetic's, the
 * type of an operand known so (both operands have one type when it checks); a
 * name's, by the block's last `let` of it among stmts[0..nstmts).
 */
static const char *
known_type(const Expr *e, Stmt *const *stmts, int nstmts, int depth)
{
	if (depth > 2 * PARSE_MAX_DEPTH)
		return NULL;   /* a long `let b = a;` chain: unknown, within the stack */
	switch (e->kind) {
	case EXPR_NAME:
		/* the block's last `let` of the name before e: its annotation (one
		 * name, no arguments) or its value's known type */
		for (int i = nstmts - 1; i >= 0; i--) {
			const Stmt *st = stmts[i];
			if (st->kind != STMT_LET || !st->u.let.name.s || strcmp(st->u.let.name.s, e->u.name.s) != 0)
				continue;
			const Type *t = st->u.let.type;
			if (t)
				return t->kind == TYPE_NAME && ast_type_nparts(t) == 1 && !ast_type_nargs(t) ? t->u.name.s : NULL;
			return st->u.let.value ? known_type(st->u.let.value, stmts, i, depth + 1) : NULL;
		}
		return NULL;
	default: {
		const Expr *sub[2];
		const char *t = parse_expr_shape_type(e, sub);
		for (int i = 0; !t && i < 2 && sub[i]; i++)
			t = known_type(sub[i], stmts, nstmts, depth + 1);
		return t;
	}
	}
}

/*
 * Does deleting the `;` after e, the last thing in a block of kind ctx
 * (tail: its value is the function's result), keep the meaning?  Where the
 * value is discarded (a loop body, a statement `if`'s branch), always; where
 * it is the function's or closure's result, when e's type is known to be the
 * declared one.  Elsewhere (`g(x);` in a function of unknown result type…)
 * the value may not have the type the block needs: no fix.
 */
static bool
tail_fits(const Parser *p, const Expr *e, BlockCtx ctx, bool tail, Stmt *const *stmts, int nstmts)
{
	if (ctx == BLK_WHILE || ctx == BLK_FOR || (ctx == BLK_IF_STMT && !tail))
		return true;
	if (!tail || !p->result || p->result->kind != TYPE_NAME || ast_type_nparts(p->result) != 1 || ast_type_nargs(p->result))
		return false;
	const char *t = known_type(e, stmts, nstmts, 0);
	return t && p->result->u.name.s && strcmp(t, p->result->u.name.s) == 0;
}

/*
 * An expression statement that changes a collection (qa31): the
 * compiler-owned functions take the owner and return it changed, so the
 * statement is an assignment; methods (`v.push(x)`) do not exist.  Sets d's
 * help; false for any other expression.
 */
static bool
owner_call_help(const Parser *p, Diag *d, const Expr *e)
{
	static const char *const owners[] = {
		"vec_push", "vec_set", "vec_clear", "vec_reserve_exact", "vec_sort", "map_set", "map_add",
		"map_remove", "set_insert", "set_remove", "bytes_set",
	};
	static const char *const methods[] = { "push", "push_back", "append", "insert", "add", "remove", "set", "clear", "sort" };
	if (!d)
		return false;
	if (e->kind == EXPR_CALL && e->u.call.nargs >= 1 && e->u.call.args[0]->kind == EXPR_NAME) {
		int i = spx_word_index(owners, countof(owners), e->u.call.callee.s);
		if (i < 0)
			return false;
		const char *v = e->u.call.args[0]->u.name.s;
		int n = (int)(e->span.end - e->span.start);
		bool quote = n <= 80 && !memchr(p->src + e->span.start, '\n', (size_t)n);
		diag_set_help(d, "`%s` takes `%s` and returns it changed; assign the result back: `%s = %.*s%s;` (with `%s` declared `let mut`)",
		    owners[i], v, v, quote ? n : (int)strlen(owners[i]), quote ? p->src + e->span.start : owners[i],
		    quote ? "" : "<…>(…)", v);
		return true;
	}
	if (e->kind != EXPR_METHOD || spx_word_index(methods, countof(methods), e->u.method.name.s) < 0)
		return false;
	diag_set_help(d, "collections have no methods; a compiler-owned function takes the collection and returns it changed, assigned back: `v = vec_push<i64>(v, x);` (also `vec_set`, `map_set`, `map_remove`, `set_insert`, …; `semaprax help library` lists them)");
	return true;
}

/*
 * An expression followed by `;` (the `;` already consumed): the
 * expression-statement habit, also when the block ends right after it
 * (`{ 42; }`, as the reference).  A bare name is reported at the name; another
 * expression ending the block at its `;` (the help and the fix are there).
 */
static void
expression_statement(Parser *p, Expr *e, const Token *semi, BlockCtx ctx, bool tail, Stmt *const *stmts, int nstmts)
{
	bool last = parse_at(p, TOK_RBRACE);
	const Token *at_tok = parse_peek(p);
	if (e->kind == EXPR_NAME && semi > p->toks && semi[-1].span.start == e->span.start)
		at_tok = &semi[-1];
	else if (last)
		at_tok = semi;   /* `f(x);` ending a block: at its `;`, not the `}` after it */
	Diag *d = parse_error_at(p, at_tok, DIAG_P106, "expected `}` after block");
	if (!last) {
		/* the caret stands on what follows; say which statement it is */
		uint32_t line, col;
		diag_locate(p->diags, e->span.start, &line, &col);
		if (e->kind == EXPR_CALL)
			diag_set_note(d, "the value followed by `;` is the call `%s(…)` at line %u", e->u.call.callee.s, line);
		else
			diag_set_note(d, "the value followed by `;` starts at line %u, column %u", line, col);
	}
	static const char *const prints[] = { "print", "println", "printf", "puts", "console_log", "echo" };
	if (e->kind == EXPR_CALL && spx_word_index(prints, countof(prints), e->u.call.callee.s) >= 0) {
		diag_set_help(d, "there is no print routine; bind the text, then `let view = string_as_str(text); let written = stdout_write(str_as_bytes(view));` under `permit { process.stdout.write }` and `uses { process.stdout.write }`");
		return;
	}
	if (last) {
		diag_set_help(d, "delete the `;` after the last expression: a block ends with its final value expression, written without `;`");
		if (tail_fits(p, e, ctx, tail, stmts, nstmts))
			diag_add_fix(d, semi->span.start, semi->span.end, "");  /* the value ends the block */
	} else if (e->kind == EXPR_MATCH) {
		/* `match x { … };` then more statements: the match is the value
		 * statement, though the caret stands after it */
		diag_set_help(d, "the `match` ending just before this is a value followed by `;`, and only a block's last expression may stand alone: discard its value with `let _ = match …;`, or make it the block's final expression");
		/* the scrutinee's mode is written (`match own s`), so `let _ =`
		 * moves nothing the statement did not */
		diag_add_fix(d, e->span.start, e->span.start, "let _ = ");
	} else if (parse_if_semicolon_help(d, e, semi)) {
		/* `if c { 1 } else { 2 };` then more (qa33) */
	} else if (owner_call_help(p, d, e)) {
		/* `vec_push<T>(v, x);`, `v.push(x);` (qa31): discarding the result
		 * would lose the owner the call took */
	} else {
		diag_set_help(d, "a block is statements followed by exactly one final value expression; discard an intermediate call with `let _ = …;` or move it to the end of the block");
		/* `let _ = e;` keeps the meaning of a computed value (a call's, an
		 * operator's, a literal); for a name, a field or a value holding them
		 * (a block, a record, …) it would move an owner (`s;` became `let _ = s;`,
		 * then a later use of `s` was H006): no fix there. */
		const Expr *v = e->kind == EXPR_TRY ? e->u.try_.operand : e;   /* `f()?;` too, not `o?;` */
		switch (v->kind) {
		case EXPR_CALL: case EXPR_METHOD: case EXPR_SUPER: case EXPR_INT: case EXPR_FLOAT: case EXPR_CHAR:
		case EXPR_STRING: case EXPR_BOOL: case EXPR_UNARY: case EXPR_BINARY:
			diag_add_fix(d, e->span.start, e->span.start, "let _ = ");
			break;
		default:
			break;
		}
	}
}

/*
 * Is e an `if` (or `else if` chain) whose every branch ends in a value but
 * whose last `else` is missing?  At a block's end that is the value
 * grammar's missing `else` (P104, LANGUAGE.md §0.3).
 */
static bool
valued_without_else(const Expr *e)
{
	while (e && e->kind == EXPR_IF) {
		const Block *t = e->u.if_.then_block, *el = e->u.if_.else_block;
		if (!t || !t->tail)
			return false;
		if (!el)
			return true;
		/* `else if …` is a block holding only that `if` */
		if (el->tail && el->nstmts == 0)
			e = el->tail;
		else if (!el->tail && el->nstmts == 1 && el->stmts[0]->kind == STMT_IF)
			e = el->stmts[0]->u.if_;
		else
			return false;
	}
	return false;
}

/* ==== the reference's value-discard names (LANGUAGE.md §0.3) ==================== */

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Every `_if<n>` identifier the file spells (n canonical decimal, no leading 0).
 * Run before the parse (parse_module): the tokens of finished items are
 * released while it goes on (lex_release_before). */
void
parse_gather_if_names(Parser *p)
{
	VEC(uint64_t) taken = {0};
	for (int i = 0; p->if_names && i < p->ntoks; i++) {
		const Token *t = &p->toks[i];
		size_t n = t->span.end - t->span.start;
		const char *s = p->src + t->span.start;
		if (t->kind != TOK_IDENT || n < 4 || n > 3 + 19 || memcmp(s, "_if", 3) != 0 || s[3] == '0')
			continue;
		uint64_t v = 0;
		size_t k = 3;
		while (k < n && s[k] >= '0' && s[k] <= '9')
			v = v * 10 + (uint64_t)(s[k++] - '0');
		if (k == n)
			VEC_PUSH(taken, v);
	}
	if (taken.len)
		qsort(taken.items, (size_t)taken.len, sizeof(uint64_t), cmp_u64);
	p->if_taken = ARENA_COPY(p, uint64_t, taken);
	p->nif_taken = taken.len;
	p->if_gathered = true;
	VEC_FREE(taken);
}

/* The next `_if<n>` that no identifier of the file spells. */
static int
discard_name(Parser *p)
{
	ASSERT(p->if_gathered, "discard_name before parse_gather_if_names");
	for (;;) {
		uint64_t n = ++p->if_next;
		if (p->nif_taken == 0 || !bsearch(&n, p->if_taken, (size_t)p->nif_taken, sizeof(uint64_t), cmp_u64))
			return (int)n;
	}
}

/* A branch of a valueless chain: an i64 literal tail stays, another value is discarded. */
static void
number_branch(Parser *p, Block *b)
{
	const Expr *t = b ? b->tail : NULL;
	if (t && !(t->kind == EXPR_INT && t->lit_suffix == SUF_NONE))
		b->tail_discard = discard_name(p);
}

/*
 * Name the discards of a statement `if` in the reference's order: for a
 * chain without a value everywhere, the final `else` branch's value, then
 * each arm's from the last to the first; then the statement itself.
 * Statement ifs inside the branches were named while they were parsed.
 */
static void
number_statement_if(Parser *p, Stmt *st)
{
	Expr *e = st->u.if_;
	if (!parse_if_has_value(e)) {
		VEC(Block *) arms = {0};
		Block *otherwise = NULL;
		for (Expr *c = e; c;) {
			VEC_PUSH(arms, c->u.if_.then_block);
			Block *el = c->u.if_.else_block;
			Expr *next = NULL;
			if (el && c->u.if_.else_if && el->tail && el->tail->kind == EXPR_IF) {
				/* a valued `else if` tail of a valueless chain is one more
				 * arm whose values are discarded: keep it as a statement */
				Stmt *inner = new_stmt(p, STMT_IF, el->tail->span);
				inner->u.if_ = el->tail;
				el->stmts = ARENA_NEW(p->arena, Stmt *);
				el->stmts[0] = inner;
				el->nstmts = 1;
				el->tail = NULL;
			}
			if (el && c->u.if_.else_if && !el->tail && el->nstmts == 1 && el->stmts[0]->kind == STMT_IF)
				next = el->stmts[0]->u.if_;
			if (el && !next)
				otherwise = el;
			c = next && next->kind == EXPR_IF ? next : NULL;
		}
		number_branch(p, otherwise);
		for (int i = arms.len - 1; i >= 0; i--)
			number_branch(p, arms.items[i]);
		VEC_FREE(arms);
	}
	st->discard = discard_name(p);
}

static void
push_stmt(Parser *p, void *vec, Stmt *st)
{
	VEC(Stmt *) *v = vec;
	(void)p;
	VEC_PUSH(*v, st);
}

/*
 * The partner of every bracket token, counting kinds alike as
 * final_if_ahead's depth does (any closer closes the latest opener; -1: none),
 * or NULL when the file has an error token (the scan stops at one, so it
 * may not be jumped over).  One pass over the tokens, built the first time a
 * scan runs long: an `if` nested in a tail `if`'s branch would otherwise scan
 * the rest of its chain again, quadratic in the nesting.
 */
static int *
bracket_partners(Parser *p)
{
	int *closer = ARENA_ARRAY(p->arena, int, p->ntoks);
	int *open = spx_xmalloc(sizeof *open * (size_t)p->ntoks);
	int nopen = 0;
	for (int i = 0; i < p->ntoks; i++) {
		TokKind tk = (TokKind)p->toks[i].kind;
		closer[i] = -1;
		if (tk == TOK_ERROR) {
			free(open);
			return NULL;
		}
		if (tk == TOK_LPAREN || tk == TOK_LBRACE || tk == TOK_LBRACKET) {
			open[nopen++] = i;
		} else if ((tk == TOK_RPAREN || tk == TOK_RBRACKET || tk == TOK_RBRACE) && nopen > 0) {
			int o = open[--nopen];
			closer[o] = i;
			closer[i] = o;
		}
	}
	free(open);
	return closer;
}

/*
 * At a statement `if` of a block in tail position: is the `if … else …` chain
 * the block's last thing (its branches then give the function's result)?
 * Token scan: after each `}` closing a group, `else` continues the chain and
 * the block's `}` ends it; anything else (`;`, another statement, an operator,
 * braces in the condition) says no.  Past 256 tokens a group is jumped over
 * by its partner (bracket_partners), so the scan reads only the chain's own
 * level.
 */
static bool
final_if_ahead(Parser *p)
{
	const Token *t = p->toks + p->pos;   /* the scan's tokens: t[1 .. n-1] */
	int n = p->ntoks - p->pos;
	int depth = 0;
	bool jump = p->closer != NULL;
	int budget = jump || p->no_closer ? n : 256;
	for (int k = 1; k < n; k++) {
		if (k > budget) {
			budget = n;
			p->closer = bracket_partners(p);
			p->no_closer = p->closer == NULL;
			if (p->closer) {   /* read again, a group at a time */
				jump = true;
				depth = 0;
				k = 0;
				continue;
			}
		}
		TokKind tk = (TokKind)t[k].kind;
		if (tk == TOK_EOF || tk == TOK_ERROR || (tk == TOK_SEMI && depth == 0))
			return false;
		if (tk == TOK_LPAREN || tk == TOK_LBRACE || tk == TOK_LBRACKET) {
			depth++;
			if (!jump || depth > 1)
				continue;
			int c = p->closer[p->pos + k];
			if (c < 0)
				return false;   /* never closed: the scan would meet the end */
			k = c - p->pos;     /* its partner, read as the scan would reach it */
			tk = (TokKind)t[k].kind;
		}
		if (tk == TOK_RPAREN || tk == TOK_RBRACKET) {
			depth--;
		} else if (tk == TOK_RBRACE) {
			if (--depth < 0)
				return false;
			if (depth == 0) {
				const Token *next = parse_peek_at(p, k + 1);
				if (next->kind == TOK_RBRACE)
					return true;
				if (!parse_tok_is_word(p, next, "else"))
					return false;
			}
		}
	}
	return false;
}

/* block = "{" , { statement } , expr , [ ";" ] , "}" ; */
Block *
parse_block_ctx(Parser *p, BlockCtx ctx, const char *open_desc)
{
	bool outer_tail = p->tail_block;
	bool tail = ctx == BLK_FN || ctx == BLK_CLOSURE || ((ctx == BLK_IF_VALUE || ctx == BLK_IF_STMT) && p->tail_branch);
	p->tail_branch = false;
	Block *b = ARENA_NEW(p->arena, Block);
	Token *open = parse_peek(p);
	b->span = open->span;
	if (!parse_expect(p, TOK_LBRACE, open_desc))
		return b;
	if (!parse_enter(p, open))
		return b;
	p->tail_block = tail;
	VEC(Stmt *) stmts = {0};
	bool last_was_if = false;
	while (!p->panic && !parse_at(p, TOK_RBRACE)) {
		Token *t = parse_peek(p);
		last_was_if = false;
		if (t->kind == TOK_EOF) {
			parse_expect(p, TOK_RBRACE, "`}` after block");
			break;
		}
		if (statement_habit(p))
			break;
		if (parse_tok_is_word(p, t, "let") && parse_peek_at(p, 1)->kind == TOK_IDENT) {
			push_stmt(p, &stmts, parse_let(p, ctx != BLK_IF_STMT));
		} else if (parse_tok_is_word(p, t, "while") && parse_peek_at(p, 1)->kind != TOK_ASSIGN) {
			push_stmt(p, &stmts, parse_while(p));
		} else if (parse_tok_is_word(p, t, "for") && parse_peek_at(p, 1)->kind == TOK_IDENT) {
			push_stmt(p, &stmts, parse_for(p));
		} else if (t->kind == TOK_AT) {
			push_stmt(p, &stmts, parse_unsafe(p));
		} else if (parse_tok_is_word(p, t, "unsafe") && parse_peek_at(p, 1)->kind == TOK_LBRACE) {
			/* `unsafe { … }` without `@audit`: parsed, rejected by the checker (N102) */
			Stmt *st = new_stmt(p, STMT_UNSAFE, t->span);
			parse_advance(p);
			st->u.unsafe.audit.span = t->span;
			st->u.unsafe.body = parse_block_ctx(p, BLK_UNSAFE, "`{` after `unsafe`");
			st->span = parse_span_from(p, t->span);
			push_stmt(p, &stmts, st);
		} else if (parse_tok_is_word(p, t, "if") && parse_peek_at(p, 1)->kind != TOK_ASSIGN) {
			p->tail_if = tail && final_if_ahead(p);
			Expr *e = parse_if(p, false);
			p->tail_block = tail;
			if (!p->panic && parse_at(p, TOK_RBRACE) && parse_if_has_value(e)) {
				b->tail = e;
				break;
			}
			if (!p->panic && parse_at(p, TOK_SEMI)) {
				/* §0.3: `;` may follow a statement `if`; after a valued
				 * `if … else …` it is an expression statement (P106). */
				Token *semi = parse_advance(p);
				if (parse_if_has_value(e)) {
					expression_statement(p, e, semi, ctx, tail, stmts.items, stmts.len);
					break;
				}
			}
			if (!p->panic && parse_at(p, TOK_RBRACE) && ctx != BLK_IF_STMT && valued_without_else(e)) {
				/* A valued `if` without `else` ends a block that needs a
				 * value: the value grammar's missing `else` (P104). */
				Diag *d = parse_error_at(p, parse_peek(p), DIAG_P104, "expected `else`");
				diag_set_help(d, "an `if` used as a value needs an `else` branch giving the value when the condition is false (a statement `if` does not)");
				break;
			}
			Stmt *st = new_stmt(p, STMT_IF, e->span);
			st->u.if_ = e;
			if (!p->panic)
				number_statement_if(p, st);
			push_stmt(p, &stmts, st);
			last_was_if = true;
		} else if (t->kind == TOK_IDENT && assign_ahead(p)) {
			push_stmt(p, &stmts, parse_assign(p));
		} else {
			Expr *e = parse_expr(p);
			if (p->panic)
				break;
			if (parse_at(p, TOK_RBRACE)) {
				b->tail = e;
				break;
			}
			if (parse_at(p, TOK_SEMI)) {
				expression_statement(p, e, parse_advance(p), ctx, tail, stmts.items, stmts.len);
				break;
			}
			Diag *d = parse_error_at(p, parse_peek(p), DIAG_P106, "expected `}` after block");
			const Token *colon = parse_peek(p), *eq = parse_peek_at(p, 1);
			if (e->kind == EXPR_NAME && colon->kind == TOK_COLON && eq->kind == TOK_ASSIGN && eq->span.start == colon->span.end) {
				/* Go's `x := 1` (qa37): a binding is `let` */
				diag_set_help(d, "there is no `:=`; bind a value with `let %s = …;` (`let mut %s = …;` to assign it again later)", e->u.name.s, e->u.name.s);
				diag_add_fix(d, e->span.start, e->span.start, "let ");
				diag_add_fix(d, colon->span.start, eq->span.end, "=");
			} else if (e->kind == EXPR_NAME && colon->kind == TOK_IDENT &&
			    (!strcmp(e->u.name.s, "var") || !strcmp(e->u.name.s, "val") || !strcmp(e->u.name.s, "auto"))) {
				/* `var x = 1;` (qa37): Go's, JavaScript's, Kotlin's binding words (`const` has its own help) */
				bool var = !strcmp(e->u.name.s, "var");
				diag_set_help(d, "a binding is `let %.*s = …;`%s (a type, when written, follows a colon: `let %.*s: i64 = 0;`)",
				    (int)(colon->span.end - colon->span.start), p->src + colon->span.start, var ? ", `let mut` when it is assigned again" : "",
				    (int)(colon->span.end - colon->span.start), p->src + colon->span.start);
				if (eq->kind == TOK_ASSIGN || eq->kind == TOK_COLON)
					diag_add_fix(d, e->span.start, e->span.end, var ? "let mut" : "let");
			} else if (e->kind == EXPR_MATCH)
				/* a statement `match` (other languages' habit): it is a value */
				diag_set_help(d, "a `match` is an expression, not a statement: discard its value with `let _ = match …;` (each arm ending in a value, such as `0`), or make it the block's final expression");
			else if (!parse_tuple_help(d, e))
				parse_decorate_expected(p, d);
			if (d && e->kind != EXPR_MATCH && parse_peek(p)->line_first) {
				/* `x == 3` then `0` on the next line: the caret stands on
				 * the next statement; say which value lacks its `;` */
				uint32_t line, col;
				diag_locate(p->diags, e->span.start, &line, &col);
				diag_set_note(d, "the value starting at line %u, column %u ends its line without `;` and more code follows: only a block's last expression stands alone; discard this one with `let _ = …;`", line, col);
			}
			break;
		}
	}
	Token *close = parse_peek(p);
	if (!p->panic && parse_at(p, TOK_RBRACE)) {
		if (!b->tail && ctx != BLK_IF_STMT) {
			Diag *d = parse_error_at(p, close, DIAG_P203, "block requires a final value expression");
			/* a block right after `=>` is a match arm's value */
			bool arm = ctx == BLK_EXPR && open > p->toks && open[-1].kind == TOK_FATARROW;
			diag_set_help(d, "%s", p203_help(ctx, last_was_if, arm));
			if (d && (ctx == BLK_WHILE || ctx == BLK_FOR))
				/* a loop body's discarded value: the fix writes `0` (qa35) */
				loop_tail_fix(p, d, close);
		}
		parse_advance(p);
	}
	parse_leave(p);
	p->tail_block = outer_tail;
	b->stmts = ARENA_COPY(p, Stmt *, stmts);
	b->nstmts = stmts.len;
	VEC_FREE(stmts);
	b->span = parse_span_from(p, open->span);
	return b;
}
