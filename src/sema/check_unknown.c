/*
 * check_unknown.c — help for unknown names: foreign constructors (`Some`,
 * `null`), print/assert/to_string habits, and the nearest declared function
 * by edit distance over declared and compiler-owned functions (T203's help
 * line); the conversion builtin for a mismatched argument (T205's help); the
 * payload `match` for T207 and the literal suffix for T208.  Split from
 * check_expr.c.
 */
#include "sema_int.h"
#include "std_names.h"

#include <stdio.h>
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
	/* `let f = string_len;` (qa33): a compiler-owned function named as a value */
	if (sema_builtin_find(name))
		return "compiler-owned functions are not values (only your own `fn` names are): wrap the call in a closure, such as `fn(s: string) -> i64 { string_len(s) }`";
	return NULL;
}

/* One candidate for nearest_function: keeps the best distance and counts
 * distinct names at it (a tie suggests nothing). */
static void
consider(const char *name, const char *cand, int *best, int *count, const char **out, bool *out_builtin, bool builtin)
{
	if (strlen(cand) > SPX_EDIT_MAX || strcmp(cand, name) == 0)
		return;
	int dist = spx_edit_distance(name, cand, false);
	if (dist < *best) {
		*best = dist;
		*out = cand;
		*out_builtin = builtin;
		*count = 1;
	} else if (dist == *best && *out && strcmp(*out, cand) != 0) {
		(*count)++;
	}
}

/* The one bundled standard-library package defining `name`, or NULL (none,
 * or several: `count` is in std.bytes, std.collections and std.text). */
static const SemaStdName *
std_package(const char *name)
{
	const SemaStdName *hit = NULL;
	for (size_t i = 0; i < sema_std_nnames; i++) {
		if (strcmp(sema_std_names[i].name, name) != 0)
			continue;
		if (hit)
			return NULL;
		hit = &sema_std_names[i];
	}
	return hit;
}

static const char *
nearest_function(Sema *S, const char *name, bool *is_builtin)
{
	/* Levenshtein over the declared functions, then the compiler-owned ones
	 * (builtins.def order); unique best within 1 + len/5. */
	size_t n = strlen(name);
	*is_builtin = false;
	if (n > SPX_EDIT_MAX)
		return NULL;
	int limit = 1 + (int)n / 5, best = limit + 1, count = 0;
	const char *cand = NULL;
	for (SymId id = 0; id < S->syms.len; id++) {
		Sym *s = sema_sym(S, id);
		if (s->kind == SK_FN)
			consider(name, s->name, &best, &count, &cand, is_builtin, false);
	}
	for (int bi = 0; bi < BI_COUNT; bi++)
		consider(name, sema_builtin_by_id((BuiltinId)bi)->name, &best, &count, &cand, is_builtin, true);
	return best <= limit && count == 1 ? cand : NULL;
}

/* The number of parameters of the function nearest_function named, or -1
 * (variadic, or not found). */
static int
near_arity(Sema *S, const char *near, bool builtin)
{
	if (builtin) {
		const Builtin *b = sema_builtin_find(near);
		return b ? b->nparams : -1;
	}
	for (SymId id = 0; id < S->syms.len; id++) {
		Sym *s = sema_sym(S, id);
		if (s->kind == SK_FN && strcmp(s->name, near) == 0)
			return s->nparams;
	}
	return -1;
}

/* The first class (in declaration order) with its own method called name,
 * or -1: `get(c)` for `c.get()` (qa36). */
static SymId
method_owner(Sema *S, const char *name)
{
	for (SymId id = 0; id < S->syms.len; id++)
		if (sema_sym(S, id)->kind == SK_CLASS && sema_own_method(S, id, name) >= 0)
			return id;
	return -1;
}

/* The interface declaring an import named name in this module, or NULL. */
static const Decl *
import_owner(const Sema *S, const char *name, const ImportFn **out)
{
	for (int i = 0; i < S->m->ndecls; i++) {
		const Decl *x = &S->m->decls[i];
		if (x->kind != DECL_INTERFACE)
			continue;
		for (int j = 0; j < x->u.interface.nimports; j++)
			if (strcmp(x->u.interface.imports[j].name.s, name) == 0) {
				*out = &x->u.interface.imports[j];
				return x;
			}
	}
	return NULL;
}

/* `vec_pop`, `map_keys`, `string_reverse`: a name in a compiler-owned
 * family that has no such member lists the family (builtins.def order). */
static bool
family_help(Diag *d, const char *name)
{
	static const char *const families[] = { "vec_", "map_", "set_", "string_", "str_", "bytes_", "box_", NULL };
	const char *fam = NULL;
	for (int i = 0; families[i] && !fam; i++)
		if (strncmp(name, families[i], strlen(families[i])) == 0)
			fam = families[i];
	if (!fam)
		return false;
	char list[1024];
	size_t used = 0;
	int n = 0;
	for (int bi = 0; bi < BI_COUNT; bi++) {
		const char *b = sema_builtin_by_id((BuiltinId)bi)->name;
		if (strncmp(b, fam, strlen(fam)) != 0)
			continue;
		int w = snprintf(list + used, sizeof list - used, "%s`%s`", n ? ", " : "", b);
		if (w < 0 || (size_t)w >= sizeof list - used)
			break;
		used += (size_t)w;
		n++;
	}
	if (n == 0)
		return false;
	diag_set_help(d, "there is no `%s`; the compiler-owned `%s…` functions are %s: build it from those in a function of your own (`semaprax help language builtins`)",
	    name, fam, list);
	return true;
}

/* `i64_from_char`, `char_to_i64`, `f32_from_i64`: a conversion between two
 * scalar (or text) type names that is not a compiler-owned one. */
static bool
conversion_like(const char *name)
{
	static const char *const types[] = { "i64", "i32", "u8", "usize", "f64", "f32", "char", "bool", "string", "str", NULL };
	const char *sep = strstr(name, "_from_");
	size_t skip = 6;
	if (!sep) {
		sep = strstr(name, "_to_");
		skip = 4;
	}
	if (!sep)
		return false;
	bool left = false, right = false;
	for (int i = 0; types[i]; i++) {
		size_t n = strlen(types[i]);
		left |= (size_t)(sep - name) == n && strncmp(name, types[i], n) == 0;
		right |= strcmp(sep + skip, types[i]) == 0;
	}
	return left && right;
}

/* A conversion name's target and source types: `X_from_Y` is (X, Y) and
 * `Y_to_X` is (X, Y); false when the name has neither form. */
static bool
conversion_types(const char *name, char *target, char *source, size_t size)
{
	const char *sep = strstr(name, "_from_");
	bool from = sep != NULL;
	if (!sep)
		sep = strstr(name, "_to_");
	if (!sep || (size_t)(sep - name) >= size)
		return false;
	const char *rest = sep + (from ? 6 : 4);
	if (strlen(rest) >= size)
		return false;
	snprintf(from ? target : source, size, "%.*s", (int)(sep - name), name);
	snprintf(from ? source : target, size, "%s", rest);
	return true;
}

/* Does conversion near go the other way than the conversion name asks
 * (`char_from_i64` for `char_to_i64`)?  Suggesting it would convert the
 * wrong way. */
static bool
reverse_conversion(const char *name, const char *near)
{
	char nt[32], ns[32], mt[32], ms[32];
	return conversion_types(name, nt, ns, sizeof nt) && conversion_types(near, mt, ms, sizeof mt) &&
	    strcmp(nt, ms) == 0 && strcmp(ns, mt) == 0;
}

/*
 * T203's help for a conversion-like name whose meaning we know: one from
 * `char` to a number (there is none; the reverse `char_from_…` exist) or one
 * spelled `_to_` or backwards whose `<target>_from_<source>` is
 * compiler-owned.  False when neither applies.
 */
static bool
conversion_help(Diag *d, const char *name, Span callee)
{
	static const char *const numbers[] = { "i64", "i32", "u8", "usize", "f64", "f32", NULL };
	char target[32], source[32], want[80];
	if (!conversion_types(name, target, source, sizeof target))
		return false;
	if (strcmp(source, "char") == 0 && in_list(numbers, target)) {
		diag_set_help(d, "there is no conversion from `char` to a number (`char_from_i64` and `char_from_u8` go the other way); "
		    "an ASCII char's code, as an `i64`, is `string_byte_at(string_from_char(c), 0)`");
		return true;
	}
	snprintf(want, sizeof want, "%s_from_%s", target, source);
	if (strcmp(want, name) == 0 || !sema_builtin_find(want))
		return false;
	diag_set_help(d, "did you mean `%s`? conversions are named `<target>_from_<source>`", want);
	diag_add_fix(d, callee.start, callee.end, want);   /* qa37: the name alone; the arguments stay */
	return true;
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
	/* the call is refused, so it takes none of its arguments (qa37): a
	 * misspelt `string_lenn(s)` is no move, and no H006 follows at the
	 * next use of `s` (refused method calls keep their receiver too) */
	S->call_consumes[ast_call_index(e)] = arena_alloc(&S->arena, (size_t)(e->u.call.nargs ? e->u.call.nargs : 1));
	const char *help = sema_constructor_help(name);
	const char *near = NULL;
	const SemaStdName *std = NULL;
	bool near_builtin = false;
	static const char *const vec_new[] = { "vec_new", "vec_empty", "vec_create", "vec_make", "new_vec", NULL };
	static const char *const to_string[] = { "to_string", "toString", "str", "itoa", "string", "String", NULL };
	static const char *const map_get[] = { "map_get", "map_lookup", "map_find", "map_at", NULL };
	static const char *const lengths[] = { "len", "length", "size", "strlen", "sizeof", NULL };
	static const char *const asserts[] = { "assert", "assert_eq", "assertEqual", "expect", "panic", NULL };
	static const char *const from_bytes[] = { "str_from_bytes", "string_from_bytes", "str_from_utf8", "string_from_utf8", "from_utf8",
		"bytes_to_string", "bytes_to_str", "string_from_slice", "str_from_slice", "utf8_decode", "decode_utf8", NULL };
	const ImportFn *imp = NULL;
	const Decl *iface = import_owner(S, name, &imp);
	SymId owner = -1;
	SymId type = sema_strmap_get(&S->type_names, name);
	const Sym *ts = type >= 0 ? sema_sym(S, type) : NULL;
	if (ts && (ts->kind == SK_RECORD || ts->kind == SK_CLASS) && ts->nom->nfields > 0)
		/* `P(1)`: a record or class built like a call (qa29) */
		diag_set_help(d, "`%s` is a %s, not a function: build it with braces, naming every field: `%s%s { %s: … }`", name,
		    ts->kind == SK_CLASS ? "class" : "record", name, ts->ntparams ? "<…>" : "", ts->nom->fields[0].name);
	else if (ts && (ts->kind == SK_RECORD || ts->kind == SK_CLASS))
		diag_set_help(d, "`%s` is a %s, not a function: build it with braces, `%s%s {}`", name, ts->kind == SK_CLASS ? "class" : "record",
		    name, ts->ntparams ? "<…>" : "");
	else if (ts && ts->kind == SK_VARIANT && ts->nom->ncases > 0)
		diag_set_help(d, "`%s` is a variant, not a function: build one of its cases with braces, such as `%s%s::%s %s`", name, name,
		    ts->ntparams ? "<…>" : "", ts->nom->cases[0].name, ts->nom->cases[0].nfields > 0 ? "{ … }" : "{}");
	else if (iface)
		/* the reference calls only `import rust fn` imports, which are out of scope */
		diag_set_help(d, "`%s` is an import of interface `%s`, and source cannot call an interface import: a resource names it as its finalizer (`drop import \"%.*s\";`); compute the value with a function of this module instead",
		    name, iface->u.interface.name.s, imp->id.present ? (int)imp->id.value.len : 11, imp->id.present ? imp->id.value.s : "<import id>");
	else if ((owner = method_owner(S, name)) >= 0 && e->u.call.nargs > 0 && e->u.call.args[0]->kind == EXPR_NAME)
		diag_set_help(d, "`%s` is a method of class `%s`, not a function: call it on the instance, `%s.%s(%s)`, which passes it as `self`", name,
		    sema_sym(S, owner)->name, e->u.call.args[0]->u.name.s, name, e->u.call.nargs > 1 ? "…" : "");
	else if (owner >= 0)
		diag_set_help(d, "`%s` is a method of class `%s`, not a function: call it on an instance, `value.%s(…)`, which passes it as `self`", name,
		    sema_sym(S, owner)->name, name);
	else if (in_list(print_names, name))
		diag_set_help(d, "there is no print routine; write bytes with `let view = string_as_str(text); let written = stdout_write(str_as_bytes(view));` under `permit { process.stdout.write }` and `uses { process.stdout.write }`");
	else if (help)
		diag_set_help(d, "%s", help);
	else if (in_list(to_string, name))
		diag_set_help(d, "render an integer with the compiler-owned `string_from_i64(value)` or `string_from_usize(value)`");
	else if (in_list(lengths, name))
		diag_set_help(d, "each type has its own length function: `string_len(s)` (bytes; `string_len_chars(s)` for characters), `str_len_bytes(view)`, `vec_len<T>(v)`, `map_len<K, V>(m)`, `set_len<K>(s)` and `byte_len(bytes)`; the collections' give a `usize`");
	else if (C->in_contract && (strcmp(name, "old") == 0 || strcmp(name, "before") == 0) && e->u.call.nargs == 1) {
		/* `ensures result == old(x) + 1` (qa39): parameters never change,
		 * so the fix keeps the argument alone */
		const Expr *a = e->u.call.args[0];
		if (C->in_ensures)
			diag_set_help(d, "there is no `%s(…)`: parameters are immutable, so an `ensures` clause reads each one at its entry value; write the argument itself", name);
		else if (C->sym->kind == SK_RECORD)   /* a record's invariant */
			diag_set_help(d, "there is no `%s(…)`, and other contract languages admit it only in a postcondition: a record's `requires` invariant reads each field as it is; write the argument itself", name);
		else
			diag_set_help(d, "there is no `%s(…)`, and other contract languages admit it only in a postcondition: a `requires` clause is checked at entry, where each parameter holds its entry value; write the argument itself", name);
		/* the fix deletes `old(` and `)` with the blanks beside them, not
		 * a comment written inside (rev39: `old(x // …\n)` lost it) */
		uint32_t o = e->span.start + (uint32_t)strlen(name), c = e->span.end;
		while (o < a->span.start && (S->src[o] == ' ' || S->src[o] == '\t'))
			o++;
		if (a->kind == EXPR_NAME && !e->u.call.has_targs && S->src[o] == '(' && c > a->span.end && S->src[c - 1] == ')') {
			for (o++; o < a->span.start && S->src[o] && strchr(" \t\r\n", S->src[o]); o++)
				;
			for (c--; c > a->span.end && S->src[c - 1] && strchr(" \t\r\n", S->src[c - 1]); c--)
				;
			diag_add_fix(d, e->span.start, o, "");
			diag_add_fix(d, c, e->span.end, "");
		}
	}
	else if (strcmp(name, "return") == 0)   /* `return (a + b)` ending a block (rev39) */
		diag_set_help(d, "`return` is not admitted: a block's value is its final expression; write the value alone");
	else if (in_list(asserts, name))
		diag_set_help(d, "there is no assert or panic; a test returns `0` on success, as in `if <condition> { 0 } else { 1 }`, and a checked condition is a `requires` or `ensures` line");
	else if (in_list(from_bytes, name))
		diag_set_help(d, "there is no bytes-to-text conversion: work on the bytes (`byte_get(view, i)`, `byte_range(view, start, end)`, `byte_len(view)`), append an ASCII byte `b` to text with `string_concat(text, string_from_char(char_from_u8(b)))`, or read a text file whole with `file_read_text(path)`");
	else if (in_list(vec_new, name))
		diag_set_help(d, "a list is `vec_with_capacity<T>(n)` with its element type and capacity spelled (a push past the capacity stops the program), e.g. `let mut v = vec_with_capacity<i64>(16usize);`, filled with `v = vec_push<i64>(v, x);`");
	else if (in_list(map_get, name))
		diag_set_help(d, "read a map with `map_get_or<K, V>(m, key, fallback)`, which gives `fallback` for a missing key (`map_has<K, V>(m, key)` tells whether it is there)");
	else if ((std = std_package(name)) != NULL)
		/* the reference's dependency route for a bundled library function */
		diag_set_help(d, "`%s` is in the bundled standard library's `%s`: in a project, require it with `[dependencies] %s = \"^0.1.0\"` in semaprax.toml and import it with `use function @id(\"%s\") from %s as %s;` (`semaprax help library %s` lists the package)",
		    name, std->module, std->module, std->id, std->module, name, std->module);
	else if (conversion_like(name) && conversion_help(d, name, ast_call_callee(e).span))
		;
	else if ((near = nearest_function(S, name, &near_builtin)) != NULL && !reverse_conversion(name, near)) {
		/* the reference's exact help line (§0.2); the fix (qa37) rewrites the
		 * callee's name only, so type arguments and arguments stay: only for
		 * a function taking as many arguments as the call passes (rev37) */
		diag_set_help(d, "did you mean `%s`?", near);
		Span cs = ast_call_callee(e).span;
		if (near_arity(S, near, near_builtin) == e->u.call.nargs)
			diag_add_fix(d, cs.start, cs.end, near);
	}
	else if (conversion_like(name))
		diag_set_help(d, "there is no `%s`; the conversions are `i64_from_usize`, `i64_from_i32`, `i64_from_u8`, `i64_from_f64`, `usize_from_i64`, `usize_from_u8`, "
		    "`u8_from_i64`, `f64_from_i64`, `char_from_i64` and `char_from_u8` (text: `string_from_i64`, `string_from_usize`, `string_from_char`)", name);
	else if (family_help(d, name))
		;
	else
		diag_set_help(d, "declare `%s` in this module, or in a project import it directly after the `module` line: `use function @id(\"stable.id\") from other.module as %s;`", name, name);
	for (int i = 0; i < e->u.call.nargs; i++)
		sema_check_expr(C, e->u.call.args[i]);
	return T_ERR;
}

/* An integer literal (possibly negated): its type comes from its suffix. */
bool
sema_is_int_literal(const Expr *e)
{
	while (e->kind == EXPR_UNARY && e->un_op == UN_NEG)
		e = e->u.unary.operand;
	return e->kind == EXPR_INT;
}

bool
sema_int_literal_fits(const Expr *e, bool negative, TypeId want)
{
	bool neg = negative;
	while (e->kind == EXPR_UNARY && e->un_op == UN_NEG) {
		neg = !neg;
		e = e->u.unary.operand;
	}
	if (e->kind != EXPR_INT)
		return true;
	uint64_t v = e->u.int_lit.value;
	neg ^= e->lit_negative;
	switch (want) {
	case T_I64: return v <= (neg ? 9223372036854775808ull : 9223372036854775807ull);
	case T_I32: return v <= (neg ? 2147483648ull : 2147483647ull);
	case T_U8: return v == 0 || (!neg && v <= 255);
	case T_USIZE: return v == 0 || !neg;
	default: return true;
	}
}

const char *
sema_int_range_text(TypeId t)
{
	return t == T_U8 ? "0 to 255" : t == T_USIZE ? "0 and up" : t == T_I32 ? "-2147483648 to 2147483647" : "";
}

/* The compiler-owned conversion (builtins.def) from got to want, or NULL;
 * *checked: a value out of range stops the program. */
const char *
sema_conversion_builtin(TypeId want, TypeId got, bool *checked)
{
	static const struct {
		TypeId want, got;
		const char *name;
		bool checked;
	} table[] = {
		{ T_USIZE, T_I64, "usize_from_i64", true }, { T_USIZE, T_U8, "usize_from_u8", false },
		{ T_U8, T_I64, "u8_from_i64", true }, { T_I64, T_USIZE, "i64_from_usize", true },
		{ T_I64, T_U8, "i64_from_u8", false }, { T_I64, T_I32, "i64_from_i32", false },
		{ T_I64, T_F64, "i64_from_f64", true }, { T_F64, T_I64, "f64_from_i64", false },
		{ T_CHAR, T_I64, "char_from_i64", true }, { T_CHAR, T_U8, "char_from_u8", false },
		{ T_STRING, T_STR, "string_from_str", false },   /* a view's owned copy (qa39) */
	};
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
		if (table[i].want == want && table[i].got == got) {
			*checked = table[i].checked;
			return table[i].name;
		}
	return NULL;
}

/* The compiler-owned operation a method habit on a collection means
 * (`v.push(x)` → vec_push), or NULL. */
static const Builtin *
method_builtin(const char *prefix, const char *mname)
{
	static const char *const aliases[][2] = {
		{ "append", "push" }, { "add", "push" }, { "length", "len" }, { "size", "len" }, { "count", "len" },
		{ "contains", "has" }, { "contains_key", "has" }, { "put", "set" }, { "insert", "set" },
		{ "delete", "remove" }, { "sorted", "sort" },
	};
	char buf[64];
	const Builtin *b;
	if (snprintf(buf, sizeof buf, "%s_%s", prefix, mname) < (int)sizeof buf && (b = sema_builtin_find(buf)) != NULL)
		return b;
	for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++) {
		if (strcmp(aliases[i][0], mname) != 0)
			continue;
		const char *to = aliases[i][1];
		if (strcmp(prefix, "set") == 0 && strcmp(to, "set") == 0)
			to = "insert";
		if (strcmp(prefix, "set") == 0 && strcmp(to, "push") == 0)
			to = "insert";
		if (strcmp(prefix, "map") == 0 && strcmp(to, "push") == 0)
			to = "set";
		if (snprintf(buf, sizeof buf, "%s_%s", prefix, to) < (int)sizeof buf && (b = sema_builtin_find(buf)) != NULL)
			return b;
	}
	return NULL;
}

bool
sema_method_help(Sema *S, Diag *d, const Expr *e, TypeId rt)
{
	const TypeInfo *ti = sema_type_info(&S->types, rt);
	const char *prefix = ti->kind == TY_VEC ? "vec" : ti->kind == TY_MAP ? "map" : ti->kind == TY_SET ? "set" : NULL;
	const Builtin *b = prefix ? method_builtin(prefix, e->u.method.name.s) : NULL;
	if (!b)
		return false;
	const Expr *recv = e->u.method.recv;
	const char *rname = recv->kind == EXPR_NAME ? recv->u.name.s : prefix[0] == 'v' ? "v" : prefix[0] == 'm' ? "m" : "s";
	Buf call = {0};
	buf_printf(&call, "%s<", b->name);
	for (int i = 0; i < b->ntparams && i < ti->nargs; i++)
		buf_printf(&call, "%s%s", i ? ", " : "", sema_type_name(S, ti->args[i]));
	buf_printf(&call, ">(%s", rname);
	for (int i = 1; i < b->nparams; i++) {
		BuiltinParam p;
		if (sema_builtin_param(b->bid, i, &p))
			buf_printf(&call, ", %.*s", p.name_len, p.name);
	}
	buf_puts(&call, ")");
	BuiltinParam first;
	bool update = sema_builtin_param(b->bid, 0, &first) && first.mode == MODE_OWN &&
	    (strstr(b->sig, ") -> Vec<") || strstr(b->sig, ") -> Map<") || strstr(b->sig, ") -> Set<"));
	if (update)
		diag_set_help(d, "`%s` has no methods; call the compiler-owned `%s`, which returns the updated collection: `%s = %s;` after `let mut %s`",
		    sema_type_name(S, rt), b->name, rname, call.data, rname);
	else
		diag_set_help(d, "`%s` has no methods; call the compiler-owned function with the collection as its first argument: `%s`",
		    sema_type_name(S, rt), call.data);
	int na = e->u.method.nargs;
	if (!update && recv->kind == EXPR_NAME && na + 1 == b->nparams) {
		/* `v.len()`, `m.has(k)` (qa37): the call with the receiver first and
		 * the written arguments after it, as the help spells it */
		Buf fix = {0};
		buf_printf(&fix, "%s<", b->name);
		for (int i = 0; i < b->ntparams && i < ti->nargs; i++)
			buf_printf(&fix, "%s%s", i ? ", " : "", sema_type_name(S, ti->args[i]));
		buf_printf(&fix, ">(%s", rname);
		/* extents, not spans (rev37): `(v).len()` spans `v).len()`, and a
		 * grouped argument's span leaves out its parentheses */
		uint32_t es, ee, as = 0, ae = 0, skip;
		bool ok = sema_expr_extent(S, e, &es, &ee) && (na == 0 || (sema_expr_extent(S, e->u.method.args[0], &as, &skip) &&
		    sema_expr_extent(S, e->u.method.args[na - 1], &skip, &ae) && as < ae));
		if (na > 0)
			buf_printf(&fix, ", %.*s", (int)(ae - as), S->src + as);
		buf_puts(&fix, ")");
		if (ok)
			diag_add_fix(d, es, ee, fix.data);
		buf_free(&fix);
	}
	buf_free(&call);
	return true;
}

/*
 * T203's help for `s.apply(x)` where `apply` is a record's or class's field
 * of function type, not a method: only a name is called (P202 for
 * `(s.apply)(x)`), so bind the field first.  False when there is no such
 * field.
 */
bool
sema_field_call_help(Sema *S, Diag *d, const Expr *e, TypeId rt)
{
	const TypeInfo *ti = sema_type_info(&S->types, rt);
	if (ti->kind != TY_NOMINAL)
		return false;
	const char *mname = e->u.method.name.s;
	int fi = sema_field_index(S, (SymId)ti->decl, mname);
	if (fi < 0)
		return false;
	TypeId ft = sema_field_type(S, rt, fi);
	if (sema_type_info(&S->types, ft)->kind != TY_FN)
		return false;
	const Expr *recv = e->u.method.recv;
	int n = (int)(recv->span.end - recv->span.start);
	bool shown = n > 0 && n <= 40 && !memchr(S->src + recv->span.start, '\n', (size_t)n);
	diag_set_help(d, "`%s` is a field holding a function (`%s`), not a method; bind it to a name, then call the name: `let %s = %.*s.%s;` then `%s(…)`",
	    mname, sema_type_name(S, ft), mname, shown ? n : 1, shown ? S->src + recv->span.start : "r", mname, mname);
	return true;
}

/*
 * T205/T232's help when the value is an `Option<T>` or `Result<T, E>` where
 * a `T` is wanted (`is_digit(str_byte_at(s, i))`, `let b: u8 = byte_get(…)`):
 * the payload is taken out with `match` or `?`; a `Box<T>` is opened with
 * box_get/box_into_inner.  False for other types.
 */
bool
sema_carrier_value_help(Sema *S, Diag *d, TypeId got, TypeId want)
{
	const TypeInfo *ti = sema_type_info(&S->types, got);
	if (ti->kind == TY_BOX && ti->nargs == 1 && ti->args[0] == want) {
		/* `sum(tail)` with `tail: Box<List>`: a box is not its value */
		const char *w = sema_type_name(S, want);
		if (sema_is_copy(S, want))
			diag_set_help(d, "the value is a `%s`, not its `%s`: read it with `box_get<%s>(b)`", sema_type_name(S, got), w, w);
		else
			diag_set_help(d, "the value is a `%s`, not its `%s`: open it with `box_into_inner<%s>(b)`, which consumes the box (hold it `own`, from a `match own`)",
			    sema_type_name(S, got), w, w);
		return true;
	}
	if (ti->kind != TY_NOMINAL || ti->nargs < 1 || ti->args[0] != want)
		return false;
	if ((SymId)ti->decl == S->sym_option)
		diag_set_help(d, "the value is an `%s`, which may be `None`: take the `%s` out first, `match x { Option::Some { value } => value, Option::None {} => fallback, }`, or `x?` inside a function returning an `Option`",
		    sema_type_name(S, got), sema_type_name(S, want));
	else if ((SymId)ti->decl == S->sym_result)
		diag_set_help(d, "the value is a `%s`, which may be `Err`: take the `%s` out first, `match x { Result::Ok { value } => value, Result::Err { error } => fallback, }`, or `x?` inside a function returning a `Result` with that error type",
		    sema_type_name(S, got), sema_type_name(S, want));
	else
		return false;
	return true;
}

/*
 * T203's help for a method called on an `Option` or a `Result`
 * (`x.unwrap()`, `x.is_some()`, `r.map(f)`; qa31): there are none; the
 * payload is taken out with `match` or `?`.  False for other types.
 */
bool
sema_carrier_method_help(Sema *S, Diag *d, TypeId rt)
{
	const TypeInfo *ti = sema_type_info(&S->types, rt);
	if (ti->kind != TY_NOMINAL)
		return false;
	if ((SymId)ti->decl == S->sym_option)
		diag_set_help(d, "an `Option` has no methods: take the payload out with `match x { Option::Some { value } => value, Option::None {} => fallback, }`, or with `x?` inside a function returning an `Option`");
	else if ((SymId)ti->decl == S->sym_result)
		diag_set_help(d, "a `Result` has no methods: take the payload out with `match x { Result::Ok { value } => value, Result::Err { error } => fallback, }`, or with `x?` inside a function returning a `Result` with that error type");
	else
		return false;
	return true;
}

/*
 * T207's help for `x == Type::Case { field: v }` (a payload case): the
 * `match` that binds the payload and compares it, with the operand and the
 * literal written (`byte_get(b, i) == Option<u8>::Some { value: 10u8 }`).
 */
void
sema_payload_equality_help(Sema *S, Diag *d, const Expr *k, const Expr *other, bool eq, const Expr *bin, const char *bind)
{
	const char *x = bind ? bind : "x";
	int olen = other ? (int)(other->span.end - other->span.start) : 0;
	bool oneline = olen > 0 && olen <= 48 && !memchr(S->src + other->span.start, '\n', (size_t)olen);
	const char *otext = oneline ? S->src + other->span.start : "value";
	if (!oneline)
		olen = 5;
	const FieldInit *fi = &k->u.variant.inits[0];
	int vlen = (int)(fi->value->span.end - fi->value->span.start);
	bool vshort = vlen > 0 && vlen <= 48;
	diag_set_help(d, "test the case with `match` and compare the payload: `match %.*s { %s::%s { %s: %s } => %s %s %.*s, _ => %s, }`",
	    olen, otext, k->u.variant.type.s, k->u.variant.case_name.s, fi->name.s, x, x, eq ? "==" : "!=", vshort ? vlen : 3,
	    vshort ? S->src + fi->value->span.start : "…", eq ? "false" : "true");
	if (oneline && vshort && bind && sema_is_copy(S, sema_expr_type(S, other->id)) && ast_expr_plain(fi->value)) {
		/* qa37: the `match` the help writes replaces the comparison (a
		 * Copy operand, so the plain `match` takes it; bind names no
		 * binding in scope, so the pattern shadows nothing) */
		Buf fix = {0};
		buf_printf(&fix, "match %.*s { %s::%s { %s: %s } => %s %s %.*s, _ => %s, }", olen, otext, k->u.variant.type.s, k->u.variant.case_name.s,
		    fi->name.s, x, x, eq ? "==" : "!=", vlen, S->src + fi->value->span.start, eq ? "false" : "true");
		uint32_t bs, be;
		if (sema_expr_extent(S, bin, &bs, &be))
			diag_add_fix(d, bs, be, fix.data);
		buf_free(&fix);
	}
}

/*
 * The help for an unsuffixed literal compared with (or an operand beside) a
 * narrower integer type it does not fit (`x == 300` for a u8 x): suffixing
 * it would not compile, so compare in `i64`, converting the other operand.
 */
void
sema_literal_range_help(Sema *S, Diag *d, const Expr *lit, TypeId t)
{
	bool checked;
	const char *conv = sema_conversion_builtin(T_I64, t, &checked);
	diag_set_help(d, "`%.*s` is outside `%s`'s range (%s), so no `%s` literal can hold it; compute in `i64` instead, converting the `%s` operand with `%s(…)`",
	    (int)(lit->span.end - lit->span.start), S->src + lit->span.start, sema_type_name(S, t), sema_int_range_text(t),
	    sema_type_name(S, t), sema_type_name(S, t), conv ? conv : "i64_from_…");
}

/*
 * T208's help for integer operands of two types: an unsuffixed literal
 * takes the other operand's suffix; a literal suffixed for another type
 * (`string_len(s) > 0usize`) is written with the operand's suffix, or none
 * for i64.
 */
void
sema_literal_suffix_help(Sema *S, Diag *d, const Expr *l, const Expr *r, TypeId expected)
{
	const char *suffix = expected == T_I32 ? "i32" : expected == T_U8 ? "u8" : expected == T_USIZE ? "usize" : NULL;
	bool lbare = l->kind == EXPR_INT && l->lit_suffix == SUF_NONE, rbare = r->kind == EXPR_INT && r->lit_suffix == SUF_NONE;
	const Expr *lit = lbare ? l : rbare ? r : NULL;
	const Expr *wrong = l->kind == EXPR_INT && l->lit_suffix != SUF_NONE ? l : r->kind == EXPR_INT && r->lit_suffix != SUF_NONE ? r : NULL;
	if (d && !lit && wrong && (suffix || expected == T_I64) && (wrong == l ? r : l)->kind != EXPR_INT &&
	    sema_expr_type(S, wrong->id) != expected && !sema_int_literal_fits(wrong, false, expected)) {
		diag_set_help(d, "the other operand is `%s`, whose range (%s) does not hold `%llu`; convert that operand to the literal's type instead",
		    sema_type_name(S, expected), sema_int_range_text(expected), (unsigned long long)wrong->u.int_lit.value);
		return;
	}
	if (d && !lit && wrong && (suffix || expected == T_I64) && (wrong == l ? r : l)->kind != EXPR_INT &&
	    sema_expr_type(S, wrong->id) != expected) {
		diag_set_help(d, "the other operand is `%s`: write the literal as `%llu%s`; there are no implicit conversions", sema_type_name(S, expected),
		    (unsigned long long)wrong->u.int_lit.value, suffix ? suffix : "");
		char text[40];   /* qa37: the literal as the help writes it */
		snprintf(text, sizeof text, "%llu%s", (unsigned long long)wrong->u.int_lit.value, suffix ? suffix : "");
		diag_add_fix(d, wrong->span.start, wrong->span.end, text);
		return;
	}
	if (!d || !suffix || !lit)
		return;
	if (!sema_int_literal_fits(lit, false, expected)) {
		sema_literal_range_help(S, d, lit, expected);
		return;
	}
	diag_set_help(d, "integer literals are `i64` unless suffixed; write `%.*s%s` to match the `%s` operand",
	    (int)(lit->span.end - lit->span.start), S->src + lit->span.start, suffix, suffix);
}
