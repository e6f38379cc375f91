/*
 * check_format.c — `string_format(template, fields…)`: the template is a
 * string literal whose `{}` holes (and `{{`/`}}` escapes) match the fields
 * (T204), each field an i64, u8, usize, bool or owned string (T205).
 * Split from check_expr.c.
 */
#include "sema_int.h"

#include <string.h>

/*
 * string_format(template, fields…): a string-literal template whose `{}`
 * holes match the ≤ 32 fields, each an i64, u8, usize, bool or owned string.
 */
void
sema_check_format(FnCtx *C, const Expr *e)
{
	Sema *S = C->S;
	Expr *const *args = e->u.call.args;
	int n = e->u.call.nargs;
	for (int i = 0; i < n; i++) {
		TypeId t = sema_check_expr(C, args[i]);
		if (i > 0 && t != T_ERR && t != T_I64 && t != T_U8 && t != T_USIZE && t != T_BOOL && t != T_STRING) {
			Diag *d = sema_error(S, DIAG_T205, args[i]->span, "`string_format` field %d has type %s; it must be i64, u8, usize, bool or an owned string", i, sema_type_name(S, t));
			/* the conversion for the type at hand (builtins.def) */
			int len = (int)(args[i]->span.end - args[i]->span.start);
			bool short_text = len > 0 && len <= 40 && !memchr(S->src + args[i]->span.start, '\n', (size_t)len);
			const char *text = short_text ? S->src + args[i]->span.start : "value";
			if (!short_text)
				len = 5;
			const char *conv = t == T_CHAR ? "string_from_char" : t == T_STR ? "string_from_str" : t == T_I32 ? "i64_from_i32" : NULL;
			if (conv)
				diag_set_help(d, "format fields are i64, u8, usize, bool or owned strings; convert it first: `%s(%.*s)`", conv, len, text);
			else if (t == T_F64)
				diag_set_help(d, "format fields are i64, u8, usize, bool or owned strings, and no builtin renders an f64: format a scaled integer, such as `i64_from_f64(%s%.*s%s * 100.0)` for hundredths (it truncates toward zero)",
				    args[i]->kind == EXPR_BINARY ? "(" : "", len, text, args[i]->kind == EXPR_BINARY ? ")" : "");
			else
				diag_set_help(d, "format fields are i64, u8, usize, bool or owned strings; convert others first");
		}
	}
	if (n == 0 || args[0]->kind != EXPR_STRING) {
		Diag *d = sema_error(S, DIAG_T204, n ? args[0]->span : e->span, "`string_format` takes a compile-time string literal template first");
		diag_set_help(d, "write the template inline: `string_format(\"{} items\", count)`");
		return;
	}
	/* `{}` is a hole, `{{` and `}}` escape a brace; any other brace is T204. */
	int holes = 0;
	const char *t = args[0]->u.str.s;
	uint32_t len = args[0]->u.str.len;
	for (uint32_t i = 0; i < len; i++) {
		if (t[i] != '{' && t[i] != '}')
			continue;
		if (i + 1 < len && (t[i + 1] == t[i] || (t[i] == '{' && t[i + 1] == '}'))) {
			holes += t[i + 1] != t[i];
			i++;
			continue;
		}
		Diag *d = sema_error(S, DIAG_T204, args[0]->span, "`string_format` template permits only `{}` holes and the `{{` and `}}` escapes");
		diag_set_help(d, "write a literal brace as `{{` or `}}`; each `{}` takes the next field");
		return;
	}
	if (holes == n - 1 && n - 1 > 32) {
		/* the counts agree: name the bound, not the counts (qa33) */
		Diag *d = sema_error(S, DIAG_T204, e->span, "`string_format` takes at most 32 fields, received %d", n - 1);
		diag_set_help(d, "format at most 32 fields per call and join the pieces with `string_concat(a, b)`");
	} else if (holes != n - 1) {
		Diag *d = sema_error(S, DIAG_T204, e->span, "`string_format` template has %d holes, received %d fields", holes, n - 1);
		diag_set_help(d, "give one field per `{}` hole, at most 32");
	}
}
