/*
 * check_unknown.c — help for unknown names: foreign constructors (`Some`,
 * `null`), print/assert/to_string habits, and the nearest declared function
 * by edit distance (T203's help line).  Split from check_expr.c.
 */
#include "sema_int.h"

#include <string.h>

static const char *const print_names[] = { "print", "println", "printf", "puts", "echo", "console_log", "log", "write", NULL };

static bool
in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (strcmp(*list, s) == 0)
			return true;
	return false;
}

/* Help for an unknown value or function named like a foreign constructor. */
const char *
sema_constructor_help(const char *name)
{
	if (strcmp(name, "Some") == 0 || strcmp(name, "None") == 0)
		return "variant constructors spell the type and fields: `Option<i64>::Some { value: 1 }` and `Option<i64>::None {}`";
	if (strcmp(name, "Ok") == 0 || strcmp(name, "Err") == 0)
		return "variant constructors spell the type and fields: `Result<i64, bool>::Ok { value: 1 }` and `Result<i64, bool>::Err { error: false }`";
	if (strcmp(name, "null") == 0 || strcmp(name, "nil") == 0 || strcmp(name, "undefined") == 0 || strcmp(name, "nullptr") == 0)
		return "there is no null; an absent value is `Option<T>::None {}` and a present one `Option<T>::Some { value: … }`";
	return NULL;
}

static const char *
nearest_function(Sema *S, const char *name)
{
	/* Levenshtein over the declared functions; unique best within 1 + len/5. */
	size_t n = strlen(name);
	if (n > SPX_EDIT_MAX)
		return NULL;
	int limit = 1 + (int)n / 5, best = limit + 1, count = 0;
	const char *cand = NULL;
	for (SymId id = 0; id < S->syms.len; id++) {
		Sym *s = sema_sym(S, id);
		if (s->kind != SK_FN)
			continue;
		if (strlen(s->name) > SPX_EDIT_MAX || strcmp(s->name, name) == 0)
			continue;
		int dist = spx_edit_distance(name, s->name, false);
		if (dist < best) {
			best = dist;
			cand = s->name;
			count = 1;
		} else if (dist == best && cand && strcmp(cand, s->name) != 0) {
			count++;
		}
	}
	return best <= limit && count == 1 ? cand : NULL;
}

TypeId
sema_unknown_function(FnCtx *C, const Expr *e)
{
	Sema *S = C->S;
	const char *name = e->u.call.callee.s;
	if (sema_failed_import(S, name, false)) {
		for (int i = 0; i < e->u.call.nargs; i++)
			sema_check_expr(C, e->u.call.args[i]);
		return T_ERR;
	}
	Diag *d = sema_error(S, DIAG_T203, e->span, "unknown function `%s`", name);
	const char *help = sema_constructor_help(name);
	const char *near = NULL;
	static const char *const to_string[] = { "to_string", "toString", "str", "itoa", "string", "String", NULL };
	static const char *const asserts[] = { "assert", "assert_eq", "assertEqual", "expect", "panic", NULL };
	if (in_list(print_names, name))
		diag_set_help(d, "there is no print routine; write bytes with `let view = string_as_str(text); let written = stdout_write(str_as_bytes(view));` under `permit { process.stdout.write }` and `uses { process.stdout.write }`");
	else if (help)
		diag_set_help(d, "%s", help);
	else if (in_list(to_string, name))
		diag_set_help(d, "render an integer with the compiler-owned `string_from_i64(value)` or `string_from_usize(value)`");
	else if (in_list(asserts, name))
		diag_set_help(d, "there is no assert or panic; a test returns `0` on success, as in `if <condition> { 0 } else { 1 }`, and a checked condition is a `requires` or `ensures` line");
	else if ((near = nearest_function(S, name)) != NULL)
		diag_set_help(d, "did you mean `%s`?", near);
	else
		diag_set_help(d, "declare `%s` in this module, or in a project import it directly after the `module` line: `use function @id(\"stable.id\") from other.module as %s;`", name, name);
	for (int i = 0; i < e->u.call.nargs; i++)
		sema_check_expr(C, e->u.call.args[i]);
	return T_ERR;
}
