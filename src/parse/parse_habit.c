/*
 * parse_habit.c — help lines (and fixes) for habits from other languages met
 * where a declaration or a token was expected: misspelt or foreign
 * declaration keywords (`func`, `struct`, `invariant`, …) and C-style block
 * comments.  The codes are the reference's for these inputs; the help lines
 * are ours (LANGUAGE.md §0.2).  Split from parse.c (qa29) for its size.
 */
#include "parse_int.h"

#include "../support/buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * A C-style block comment (slash-star … star-slash) where a token was expected (qa29): there are no block comments
 * (LANGUAGE.md §1.1), so the lexer reads `/` and `*` and the error is
 * whatever those tokens break (P104 at an item, P201 in an expression, P106
 * elsewhere; the reference's codes).  t is the offending token: a `/` with
 * an adjacent `*` after it, or a `*` with an adjacent `/` before it.  Sets
 * the help and, when the comment closes on its own line with nothing after
 * it, the fix that rewrites it as a `//` comment.  True when t opens one.
 */
bool
parse_block_comment_help(Parser *p, Diag *d, const Token *t)
{
	const Token *prev = p->pos > 0 && t == &p->toks[p->pos] ? &p->toks[p->pos - 1] : NULL;
	uint32_t open;
	if (t->kind == TOK_SLASH && t[1].kind == TOK_STAR && t[1].span.start == t->span.end)
		open = t->span.start;
	else if (t->kind == TOK_STAR && prev && prev->kind == TOK_SLASH && prev->span.end == t->span.start)
		open = prev->span.start;
	else
		return false;
	if (!d)
		return true;
	diag_set_help(d, "there are no block comments (`/* … */`); start each comment line with `//`");
	size_t i = (size_t)open + 2;
	while (i + 1 < p->len && p->src[i] != '\n' && !(p->src[i] == '*' && p->src[i + 1] == '/'))
		i++;
	if (i + 1 >= p->len || p->src[i] != '*')
		return true;   /* it does not close on its line: no mechanical fix */
	size_t close = i + 2, e = close;
	while (e < p->len && (p->src[e] == ' ' || p->src[e] == '\t' || p->src[e] == '\r'))
		e++;
	if (e < p->len && p->src[e] != '\n' && !(e + 1 < p->len && p->src[e] == '/' && p->src[e + 1] == '/'))
		return true;   /* code follows it on the line: `//` would swallow it (a `//` comment may) */
	size_t a = (size_t)open + 2, b = i;
	while (a < b && (p->src[a] == ' ' || p->src[a] == '\t'))
		a++;
	while (b > a && (p->src[b - 1] == ' ' || p->src[b - 1] == '\t'))
		b--;
	Buf text = {0};
	buf_printf(&text, b > a ? "// %.*s" : "//", (int)(b - a), p->src + a);
	diag_add_fix(d, open, (uint32_t)close, text.data);
	buf_free(&text);
	return true;
}

/*
 * A misspelt declaration keyword (`recrod Point {`, `fnn main(`): the
 * keyword one edit away (a transposition counts one), if unique, when a
 * name follows the word; or NULL.
 */
static const char *
item_keyword_typo(Parser *p, const Token *t)
{
	static const char *const keywords[] = { "fn", "record", "variant", "class", "resource", "interface" };
	size_t len = t->span.end - t->span.start;
	if (t->kind != TOK_IDENT || parse_peek_at(p, 1)->kind != TOK_IDENT || len < 2 || len > 10)
		return NULL;
	char w[11];
	memcpy(w, p->src + t->span.start, len);
	w[len] = '\0';
	SpxNear nr = { .want = w };
	for (size_t i = 0; i < countof(keywords); i++)
		spx_near_offer(&nr, keywords[i]);
	return spx_near_best(&nr);
}

/* Habit words at item position: struct/enum/pub/const/… (P104 with fixes). */
void
parse_item_habit(Parser *p, Token *t)
{
	uint32_t s = t->span.start, e = t->span.end;
	const char *kw = item_keyword_typo(p, t);
	if (kw) {
		Diag *d = parse_error_at(p, t, DIAG_P104, "`%.*s` is not a keyword; did you mean `%s`?", (int)(e - s), p->src + s, kw);
		diag_set_help(d, "write `%s`: a declaration starts with `fn`, `record`, `variant`, `class`, `resource` or `interface`, optionally after `@id(\"…\")`", kw);
		diag_add_fix(d, s, e, kw);
		return;
	}
	Diag *d = parse_error_at(p, t, DIAG_P104, "expected `fn`");
	if (parse_block_comment_help(p, d, t)) {
		/* the help and fix are set */
	} else if (parse_tok_is_word(p, t, "fun") || parse_tok_is_word(p, t, "func") || parse_tok_is_word(p, t, "function") ||
	    parse_tok_is_word(p, t, "def")) {
		diag_set_help(d, "a function is `fn name(param: Type) -> Type { … }`");
		diag_add_fix(d, s, e, "fn");
	} else if (parse_tok_is_word(p, t, "struct")) {
		diag_set_help(d, "a product type is `record Name { @id(\"…\") field: Type, }`");
		diag_add_fix(d, s, e, "record");
	} else if (parse_tok_is_word(p, t, "enum")) {
		diag_set_help(d, "a sum type is `variant Name { @id(\"…\") Case, @id(\"…\") Case { @id(\"…\") field: Type, }, }`");
		diag_add_fix(d, s, e, "variant");
	} else if (parse_tok_is_word(p, t, "pub") || parse_tok_is_word(p, t, "public") || parse_tok_is_word(p, t, "export")) {
		diag_set_help(d, "declarations are reachable through their `@id`; there is no visibility keyword");
		diag_add_fix(d, s, parse_space_end(p, e, parse_peek_at(p, 1)->span.start), "");
	} else if (parse_tok_is_word(p, t, "const") || parse_tok_is_word(p, t, "static") || parse_tok_is_word(p, t, "let") ||
	    parse_tok_is_word(p, t, "var")) {
		diag_set_help(d, "there are no module-level values; declare `fn name() -> i64 { value }` and call it");
	} else if (parse_tok_is_word(p, t, "trait")) {
		diag_set_help(d, "`class Child : Parent` inherits methods and `protocol` declares method requirements");
	} else if (parse_tok_is_word(p, t, "type") || parse_tok_is_word(p, t, "typedef")) {
		diag_set_help(d, "type aliases are not admitted; write the type at each use");
	} else if (parse_tok_is_word(p, t, "test")) {
		diag_set_help(d, "a test is a function, `@id(\"…\") fn test_name() -> i64 { … }` (0 passes), in a project's tests module: `semaprax test <dir>` runs them");
	} else if (parse_tok_is_word(p, t, "import") && parse_tok_is_word(p, parse_peek_at(p, 1), "fn")) {
		diag_set_help(d, "an `import fn` declaration belongs inside an `interface … permits { … } { … }`; a project's module takes another's function with `use function @id(\"…\") from module.name as name;`");
	} else if (parse_tok_is_word(p, t, "import") || parse_tok_is_word(p, t, "include") || parse_tok_is_word(p, t, "require") ||
	    parse_tok_is_word(p, t, "using") || parse_tok_is_word(p, t, "from") || parse_tok_is_word(p, t, "package")) {
		/* `import std.io;` (qa31) */
		diag_set_help(d, "there are no imports of libraries: the compiler-owned functions (`string_concat`, `vec_push<T>`, `stdout_write`, …) need none; a project's module takes another's declaration with `use function @id(\"…\") from module.name as name;` right after its `module` line");
	} else if (parse_tok_is_word(p, t, "impl")) {
		diag_set_help(d, "methods are declared inside a `class Name { … }`, each taking `self` explicitly");
	} else if (parse_tok_is_word(p, t, "invariant")) {
		diag_set_help(d, "an invariant is written `requires <condition>` right after a record's `}` (records only); a class states contracts on its methods");
	} else if (parse_tok_is_word(p, t, "requires") || parse_tok_is_word(p, t, "ensures")) {
		diag_set_help(d, "an invariant (`requires` after the `}`) belongs to a record only; a class states contracts on its methods, and a function's come after its signature, before `{`");
	} else if (t->kind == TOK_AT && parse_tok_is_word(p, parse_peek_at(p, 1), "id")) {
		/* `@id("a") @id("b") fn f` (session 20): the second `@id` */
		diag_set_help(d, "a declaration carries exactly one `@id(\"…\")`; keep the identity you mean and delete the other");
	} else {
		diag_set_help(d, "a declaration starts with `fn`, `record`, `variant`, `class`, `resource` or `interface`, optionally after `@id(\"…\")`");
	}
}


/*
 * `name!(…)` (qa30): there are no macros.  The help says what to write for
 * the macro meant: `vec!` builds a vector, `format!` text, `assert!` a
 * contract; others (`println!`, …) print.  name is the token before the `!`.
 */
void
parse_macro_help(Parser *p, Diag *d, const Token *name)
{
	if (parse_tok_is_word(p, name, "vec"))
		diag_set_help(d, "there are no macros; build a vector with `let mut v = vec_with_capacity<i64>(4usize);` then `v = vec_push<i64>(v, x);` for each element");
	else if (parse_tok_is_word(p, name, "format"))
		diag_set_help(d, "there are no macros; build text with `string_format(\"{}: {}\", name, n)` (each `{}` takes the next argument)");
	else if (parse_tok_is_word(p, name, "assert") || parse_tok_is_word(p, name, "assert_eq"))
		diag_set_help(d, "there are no macros; state a condition as a contract, `requires <bool>` or `ensures <bool>` after the function's signature, checked at run time");
	else
		diag_set_help(d, "there are no macros; build text with `string_concat(a, b)` and `string_from_i64(n)`, and print with `stdout_write` (`semaprax help language strings`)");
}

/*
 * `let (a, b) = …` and `for (i, x) in v` (qa30): there are no tuples, and
 * the parser read `let(a, b)` / `for(i, x)` as a call; e is that call, the
 * error at the token after it.  False for any other expression.
 */
bool
parse_tuple_help(Diag *d, const Expr *e)
{
	if (!d || e->kind != EXPR_CALL || !e->u.call.callee.s)
		return false;
	if (strcmp(e->u.call.callee.s, "let") == 0)
		diag_set_help(d, "there are no tuples or destructuring `let`; bind each value with its own `let`, or declare a `record` and read its fields");
	else if (strcmp(e->u.call.callee.s, "for") == 0)
		diag_set_help(d, "`for` binds one element, `for x in v { … }`; there are no tuples: count the index beside it in a `let mut i = 0usize;`");
	else
		return false;
	return true;
}

/*
 * P106 "expected `{` before function body" (qa31): what a signature met
 * instead of its body, from other languages or out of order.  d is that
 * diagnostic (the help is replaced), t the token met; clauses tells whether
 * the signature already had a `requires`/`ensures` clause.
 */
void
parse_fn_body_help(Parser *p, Diag *d, const Token *t, bool clauses)
{
	if (!d)
		return;
	if (parse_tok_is_word(p, t, "uses"))
		diag_set_help(d, "%s", clauses ? "`uses { … }` comes before the contract clauses: `fn f(…) -> T uses { … } requires … ensures … { … }`"
						: "a function has one `uses { … }` set, right after its result type");
	else if (parse_tok_is_word(p, t, "effects") || parse_tok_is_word(p, t, "effect") || parse_tok_is_word(p, t, "with") ||
		 parse_tok_is_word(p, t, "performs"))
		diag_set_help(d, "a function declares its effects with `uses { … }` after its result type, such as `fn main() -> i64 uses { process.stdout.write } { … }`, and the module permits each one on its `permit { … }` line");
	else if (parse_tok_is_word(p, t, "throws") || parse_tok_is_word(p, t, "raises"))
		diag_set_help(d, "there are no exceptions: return a `Result<T, E>` (or an `Option<T>`) and leave early with `?`");
	else if (parse_tok_is_word(p, t, "where"))
		diag_set_help(d, "there are no `where` clauses: type parameters take no bounds (`fn swap<T>(p: Pair<T>) -> Pair<T>`); contracts are `requires <condition>` and `ensures <condition>`");
	else if (parse_tok_is_word(p, t, "pre") || parse_tok_is_word(p, t, "post") || parse_tok_is_word(p, t, "precondition") ||
		 parse_tok_is_word(p, t, "postcondition") || parse_tok_is_word(p, t, "assert") || parse_tok_is_word(p, t, "invariant"))
		diag_set_help(d, "a precondition is `requires <condition>` and a postcondition `ensures <condition>` (`result` names the returned value), one clause a line before the body's `{`");
	else if (t->kind == TOK_SEMI && clauses) {
		diag_set_help(d, "a contract clause ends where the next clause or the body's `{` begins; remove the `;`");
		diag_add_fix(d, t->span.start, t->span.end, "");
	} else if (t->kind == TOK_ASSIGN || t->kind == TOK_FATARROW)
		diag_set_help(d, "a function's body is a block: `fn f(x: i64) -> i64 { x + 1 }`, whose last expression is the result");
}

/*
 * P106 "expected `{` before effects" (qa31): `uses process.stdout.write`,
 * `uses [a, b]` or `uses (a)`; the set is written in braces, after the
 * keyword just read (`uses`, `permit` or `effects`).
 */
void
parse_effect_set_help(Parser *p, Diag *d, const Token *t)
{
	const Token *kw = p->pos > 0 ? &p->toks[p->pos - 1] : t;
	if (d && t->kind != TOK_EOF)
		diag_set_help(d, "write the effects in braces, separated by commas: `%.*s { process.stdout.write }`",
		    (int)(kw->span.end - kw->span.start), p->src + kw->span.start);
}

/*
 * After an operand where a binary operator or the expression's end may come
 * (qa33, LANGUAGE.md §1.3, §6): a lone `|` is P002 "did you mean `||`?",
 * the reference lexer's text for it (our `|` token only separates or-pattern
 * alternatives).  Before, it fell through to the enclosing construct's P106
 * ("expected `;` after local binding"), whose help did not name `||`.
 */
void
parse_operand_habit(Parser *p)
{
	Token *t = parse_peek(p);
	if (p->panic || t->kind != TOK_PIPE)
		return;
	Diag *d = parse_error_at(p, t, DIAG_P002, "unexpected `|`; did you mean `||`?");
	diag_set_help(d, "logical or is `||`; there are no bitwise operators (`|` only separates or-pattern alternatives)");
}

/*
 * Help for a P106 "expected …" at t (prev the token before it) that other
 * languages' habits explain (qa33).  The code and first line stay the
 * reference's (§0.2); only the help changes.  True when one applied.
 *  - `x => x + 1` (`=>` right after a name or `)`, outside a match guard):
 *    the JS arrow function (LANGUAGE.md §1.2; syntax/habits/js_arrow_closure);
 *  - `if P { x: 1 }.x == 1 { … }`: a record literal in a condition, where
 *    record literals are off, so `{` opened the body and `x:` broke it
 *    (LANGUAGE.md §1.5: wrap the literal in parentheses).
 */
bool
parse_expected_habit(Parser *p, Diag *d, const Token *t, const Token *prev)
{
	if (t->kind == TOK_FATARROW && !p->in_guard && (prev->kind == TOK_IDENT || prev->kind == TOK_RPAREN)) {
		diag_set_help(d, "there are no arrow functions; an anonymous function is `fn(x: i64) -> i64 { x + 1 }`, with parameter and result types");
		return true;
	}
	/* `Name {` `field` `:` with `Name` capitalized and not a type annotation or result type */
	if (t->kind == TOK_COLON && prev->kind == TOK_IDENT && prev >= p->toks + 3 && prev[-1].kind == TOK_LBRACE &&
	    prev[-2].kind == TOK_IDENT && p->src[prev[-2].span.start] >= 'A' && p->src[prev[-2].span.start] <= 'Z' &&
	    prev[-3].kind != TOK_ARROW && prev[-3].kind != TOK_COLON) {
		diag_set_help(d, "a condition (`if`, `while`, `match`, a contract) takes no bare record literal, so this `{` opened the body: wrap the literal in parentheses, `(%.*s { %.*s: … })`",
		    (int)(prev[-2].span.end - prev[-2].span.start), p->src + prev[-2].span.start,
		    (int)(prev->span.end - prev->span.start), p->src + prev->span.start);
		return true;
	}
	return false;
}

/*
 * `if c { 1 } else { 2 };` followed by more statements (qa33): a valued
 * `if … else …` then `;` is an expression statement (P106, as the
 * reference), but the same `if` without the `;` is a statement `if` whose
 * branch values are discarded (LANGUAGE.md §0.3).  So the help and the fix
 * delete the `;`, which the generic help ("discard an intermediate call with
 * `let _ = …;`") did not say.  True when e is such an `if`.
 */
bool
parse_if_semicolon_help(Diag *d, const Expr *e, const Token *semi)
{
	if (e->kind != EXPR_IF)
		return false;
	diag_set_help(d, "delete the `;` after the `if`: followed by more statements, an `if … else …` is a statement and its branch values are discarded; to keep the value, bind it: `let name = if … else …;`");
	diag_add_fix(d, semi->span.start, semi->span.end, "");
	return true;
}
