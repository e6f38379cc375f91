/*
 * parse_type.c — types (LANGUAGE.md §2.1, §3): names with type arguments, arrays
 * `[T; N]`, function types `fn(T) -> R`; the `<`-lookahead that tells a
 * generic argument list from a comparison (parse_generic_list_end, which the
 * formatter uses too).  Split from parse_expr.c (rev35); a type node is
 * allocated at its kind's size, as an expression node is.
 */
#include "parse_int.h"

#include <stddef.h>
#include <string.h>

/* A type node at its kind's size (a TYPE_NAME here is the short form: no
 * name, or set by parse_type's name path at its form's size). */
static Type *
new_type_sized(Parser *p, TypeKind k, Span s, size_t size)
{
	Type *t = arena_alloc(p->arena, size);
	t->kind = k;
	t->span = s;
	return t;
}

#define TYPE_SIZE(member) (offsetof(Type, u) + sizeof(((Type *)0)->u.member))

static Type *
new_type(Parser *p, TypeKind k, Span s)
{
	size_t size = k == TYPE_ARRAY ? TYPE_SIZE(array) : k == TYPE_FN ? TYPE_SIZE(fn)
	    : offsetof(Type, u) + sizeof(const char *);
	return new_type_sized(p, k, s, size);
}

/* ==== types =================================================================== */

/* A `>=` where a type list closes: split it into `>` and `=`. */
static bool
accept_type_close(Parser *p)
{
	if (parse_accept(p, TOK_GT))
		return true;
	Token *t = parse_peek(p);
	if (t->kind == TOK_GE) {
		t->kind = TOK_ASSIGN;
		t->span.start++;
		return true;
	}
	return false;
}

/* type_args = "<" , type , { "," , type } , ">" ;  (at `<`) */
Type **
parse_type_args(Parser *p, int *n)
{
	*n = 0;
	parse_advance(p);  /* < */
	if (parse_at(p, TOK_GT)) {
		parse_error_at(p, parse_peek(p), DIAG_P106, "generic argument list cannot be empty");
		return NULL;
	}
	VEC(Type *) args = {0};
	while (!p->panic) {
		if (parse_at(p, TOK_COMMA)) {
			/* `<, T>` or `<T,, U>`: the reference's own P106, not "expected type" */
			Diag *d = parse_error_at(p, parse_peek(p), DIAG_P106, "expected generic type argument");
			diag_set_help(d, "type arguments are types separated by single commas: `id<i64>(0)`, `Pair<i64, bool>`");
			break;
		}
		VEC_PUSH(args, parse_type(p));
		if (!parse_accept(p, TOK_COMMA))
			break;
		if (parse_at(p, TOK_GT) || parse_at(p, TOK_GE)) {
			parse_error_at(p, parse_peek(p), DIAG_P106, "generic type arguments require comma-separated types without a trailing comma");
			break;
		}
	}
	if (!p->panic && !accept_type_close(p))
		parse_expect(p, TOK_GT, "`>` after generic type arguments");
	Type **out = ARENA_COPY(p, Type *, args);
	*n = args.len;
	VEC_FREE(args);
	return out;
}

static bool
is_primitive(const char *name)
{
	static const char *const prims[] = {
		"i64", "i32", "u8", "usize", "f32", "f64", "bool", "char", "string", "str", "Bytes",
	};
	return spx_word_index(prims, countof(prims), name) >= 0;
}

/* Is t the type `i64`? */
static bool
is_i64_type(const Type *t)
{
	return t && t->kind == TYPE_NAME && ast_type_nparts(t) == 1 && ast_type_nargs(t) == 0 &&
	    strcmp(t->u.name.s, "i64") == 0;
}

/*
 * type = scalar | "string" | "str" | "Bytes" | "[" , "u8" , ";" , INT , "]"
 *      | ( "fn" | "FnMutI64" ) , "(" , [ type , { "," , type } ] , ")" , "->" , type
 *      | qname , [ type_args ] ;
 */
Type *
parse_type(Parser *p)
{
	Token *t = parse_peek(p);
	Span start = t->span;
	if (t->kind == TOK_LPAREN) {
		Diag *d = parse_error_at(p, t, DIAG_P105, "expected type");
		if (parse_peek_at(p, 1)->kind == TOK_RPAREN)
			diag_set_help(d, "there is no unit type; return `i64` (conventionally `0`) or `bool` instead of `()`");
		else
			diag_set_help(d, "tuples are not admitted; declare a `record` with named fields");
		return new_type(p, TYPE_NAME, start);
	}
	if (t->kind == TOK_LBRACKET) {
		if (!parse_enter(p, t))
			return new_type(p, TYPE_NAME, start);
		parse_advance(p);
		Type *ty = new_type(p, TYPE_ARRAY, start);
		ty->u.array.elem = parse_type(p);
		parse_expect(p, TOK_SEMI, "`;` in array type");
		if (parse_at(p, TOK_INT)) {
			Token *n = parse_advance(p);
			ty->u.array.len = lex_int(p->toks, n);
			ty->u.array.len_span = n->span;
		} else {
			parse_error_at(p, parse_peek(p), DIAG_P105, "expected array length");
		}
		parse_expect(p, TOK_RBRACKET, "`]` after array type");
		parse_leave(p);
		ty->span = parse_span_from(p, start);
		return ty;
	}
	bool mut_i64 = parse_tok_is_word(p, t, "FnMutI64") && parse_peek_at(p, 1)->kind == TOK_LPAREN;
	if ((parse_tok_is_word(p, t, "fn") || mut_i64) && parse_peek_at(p, 1)->kind == TOK_LPAREN) {
		if (!parse_enter(p, t))
			return new_type(p, TYPE_NAME, start);
		parse_advance(p);
		parse_advance(p);
		Type *ty = new_type(p, TYPE_FN, start);
		ty->u.fn.mut_i64 = mut_i64;
		VEC(Type *) params = {0};
		if (!parse_at(p, TOK_RPAREN)) {
			do {
				VEC_PUSH(params, parse_type(p));
			} while (!p->panic && parse_accept(p, TOK_COMMA) && !parse_at(p, TOK_RPAREN));
		}
		parse_expect(p, TOK_RPAREN, "`)` after function type parameters");
		parse_expect(p, TOK_ARROW, "`->` in function type");
		if (!p->panic)
			ty->u.fn.result = parse_type(p);
		ty->u.fn.params = ARENA_COPY(p, Type *, params);
		ty->u.fn.nparams = params.len;
		VEC_FREE(params);
		parse_leave(p);
		ty->span = parse_span_from(p, start);
		if (mut_i64 && !p->panic) {
			/* the reference's mutable callable profile admits exactly one signature */
			p->uses_fn_mut = true;
			if (ty->u.fn.nparams != 1 || !is_i64_type(ty->u.fn.params[0]) || !is_i64_type(ty->u.fn.result))
				parse_error_span(p, ty->span, DIAG_T308, "the mutable callable profile requires `FnMutI64(i64) -> i64`");
		}
		return ty;
	}
	if (t->kind != TOK_IDENT) {
		parse_error_at(p, t, DIAG_P105, "expected type");
		return new_type(p, TYPE_NAME, start);
	}
	Name one;
	QName q = parse_qname_buf(p, "type", &one);
	Type **args = NULL;
	int nargs = 0;
	bool early = false;   /* the primitive's `<` or too deep: the span stays the first token's */
	if (!p->panic && parse_at(p, TOK_LT) && q.nparts == 1 && is_primitive(q.parts[0].s)) {
		parse_error_at(p, parse_peek(p), DIAG_P106, "primitive type `%s` does not accept generic arguments", q.parts[0].s);
		early = true;
	} else if (!p->panic && parse_at(p, TOK_LT)) {
		if (parse_enter(p, parse_peek(p))) {
			args = parse_type_args(p, &nargs);
			parse_leave(p);
		} else {
			early = true;
		}
	}
	/* a one-part name keeps its spelling only (no parts array) */
	bool is_long = q.nparts > 1 || args;
	size_t size = offsetof(Type, u) + (!is_long ? sizeof(const char *)
	    : q.nparts > 1 ? sizeof(((Type *)0)->u.name) : offsetof(struct Type, u.name.parts) - offsetof(Type, u));
	Type *ty = new_type_sized(p, TYPE_NAME, early ? start : parse_span_from(p, start), size);
	ty->name_long = is_long;
	ty->name_end = q.span.end;
	if (q.nparts > 1) {
		ty->u.name.parts = q.parts;
	} else {
		ty->u.name.s = q.parts[0].s;
	}
	if (is_long) {
		ty->u.name.args = args;
		ty->u.name.nargs = nargs;
		ty->u.name.nparts = q.nparts;
	}
	return ty;
}

/*
 * At toks[k] == `<`: the index of the token after a balanced `<…>` made
 * only of identifiers, dots, commas and nested `<…>` (the reference's
 * lookahead), or of the two types that cannot be expressions: a function
 * type `fn(…) -> R` (an identifier, a balanced `(…)` of the same tokens,
 * then `->`) and an array type `[u8; N]`; else 0 (parse.h; the formatter
 * uses it too).  So `g(x < x) > (6)` and `f(x < 2, 3 > (0))` stay
 * comparisons: `->` and `[T; N]` occur in no expression, and a closure's
 * `fn(x: T) -> R { … }` holds a `:` and a `{`, which end the scan.
 */
int
parse_generic_list_end(const Token *toks, int ntoks, int k)
{
	int depth = 0;
	int open[PARSE_MAX_DEPTH + 1], nopen = 0;   /* the `<` depth at each open `(` of a function type (deeper ones unchecked: P207 follows) */
	for (int i = k; i < ntoks && i - k < 4096; i++) {
		switch ((TokKind)toks[i].kind) {
		case TOK_LT: depth++; break;
		case TOK_GT:
			if (--depth == 0)
				return nopen ? 0 : i + 1;
			break;
		case TOK_IDENT:
			if (i + 1 < ntoks && toks[i + 1].kind == TOK_LPAREN) {
				if (nopen < (int)countof(open))
					open[nopen] = depth;
				nopen++;
				i++;
			}
			break;
		case TOK_RPAREN:
			if (nopen == 0 || (--nopen < (int)countof(open) && open[nopen] != depth) || i + 1 >= ntoks ||
			    toks[i + 1].kind != TOK_ARROW)
				return 0;
			i++;   /* the `->`: the result type follows */
			break;
		case TOK_LBRACKET:
			if (i + 4 >= ntoks || toks[i + 1].kind != TOK_IDENT || toks[i + 2].kind != TOK_SEMI ||
			    toks[i + 3].kind != TOK_INT || toks[i + 4].kind != TOK_RBRACKET)
				return 0;
			i += 4;
			break;
		case TOK_COMMA: case TOK_DOT:
			break;
		default:
			return 0;
		}
	}
	return 0;
}

int
parse_generic_list_at(Parser *p)
{
	int end = parse_generic_list_end(p->toks, p->ntoks, p->pos);
	return end ? end - p->pos : 0;
}

bool
parse_generic_args_ahead(Parser *p)
{
	int k = parse_generic_list_at(p);
	if (k == 0)
		return false;
	TokKind n = (TokKind)parse_peek_at(p, k)->kind;
	return n == TOK_LPAREN || n == TOK_COLONCOLON || (n == TOK_LBRACE && !p->no_record);
}

