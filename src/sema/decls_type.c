/*
 * decls_type.c — a written type to its TypeId (sema_decls_resolve_type):
 * scalars and the compiler-owned generic types with their arity (T221,
 * T274), declared records, variants, classes and resources in scope, type
 * parameters (T220), fixed byte arrays (T262) and function types; an unknown
 * name is T001, with the help other languages' spellings want (`String`,
 * `int`, `list`, `void`, …).  Also the nominal type constructors
 * (sema_nominal, sema_option, sema_result) and ARENA_COPY_VEC's copy.  Split from decls.c (rev35),
 * which resolves the declarations' types through it.
 */
#include "sema_int.h"

#include <stdlib.h>
#include <string.h>

void *
sema_copy_vec(Arena *a, const void *items, size_t size, int n)
{
	if (n == 0)
		return NULL;
	void *p = arena_alloc(a, size * (size_t)n);
	memcpy(p, items, size * (size_t)n);
	return p;
}

TypeId
sema_nominal(Sema *S, SymId sym, const TypeId *args, int nargs)
{
	return sema_type_intern(&S->types, TY_NOMINAL, (uint32_t)sym, 0, args, nargs);
}

TypeId
sema_option(Sema *S, TypeId t)
{
	return sema_nominal(S, S->sym_option, &t, 1);
}

TypeId
sema_result(Sema *S, TypeId t, TypeId e)
{
	TypeId a[2] = { t, e };
	return sema_nominal(S, S->sym_result, a, 2);
}

static const char *
unknown_type_help(const char *n)
{
	static const char *const text[] = { "String", "str", "Str", "text", "Text", NULL };
	static const char *const ints[] = { "int", "Int", "i8", "i16", "u16", "u32", "u64", "i128", "u128", "isize",
		"long", "short", "byte", "integer", "Integer", "number", "Number", NULL };
	static const char *const floats[] = { "float", "Float", "double", "Double", "f16", "decimal", NULL };
	static const char *const bools[] = { "boolean", "Boolean", "Bool", NULL };
	static const char *const lists[] = { "vec", "Array", "array", "list", "slice", NULL };
	static const char *const units[] = { "unit", "void", "Unit", "Void", "never", NULL };
	static const char *const chars[] = { "char8", "Char", "character", "rune", NULL };
	static const struct { const char *const *names; const char *help; } groups[] = {
		{ text, "owned text is `string`; a borrowed view is `borrow str` in a parameter position" },
		{ ints, "the integer types are `i64` (the literal default), `i32`, `u8`, and `usize`; there is no other width" },
		{ floats, "the floating-point types are `f64` and `f32`" },
		{ bools, "the boolean type is spelled `bool`" },
		{ lists, "a list is `Vec<T>` with an explicit element type: `vec_with_capacity<i64>(4usize)`, `vec_push<i64>(v, x)`; bytes are `[u8; N]`, `Bytes`, and `Slice<u8>`" },
		{ units, "there is no unit type; functions return `i64` or `bool`" },
		{ chars, "a Unicode scalar is `char`" },
	};
	for (size_t g = 0; g < countof(groups); g++)
		for (const char *const *p = groups[g].names; *p; p++)
			if (strcmp(*p, n) == 0)
				return groups[g].help;
	return NULL;
}

/* The one type a habit's name stands for (qa37), for T001's fix: `int` is
 * `i64` (the literal default), `String` is `string`, …; NULL where the
 * intended width or meaning is open (`u64`, `short`, `void`, `list`). */
static const char *
habit_type(const char *n)
{
	static const char *const pairs[][2] = {
		{ "String", "string" }, { "Str", "string" }, { "Text", "string" }, { "text", "string" },
		{ "int", "i64" }, { "Int", "i64" }, { "integer", "i64" }, { "Integer", "i64" }, { "long", "i64" },
		{ "float", "f64" }, { "Float", "f64" }, { "double", "f64" }, { "Double", "f64" },
		{ "boolean", "bool" }, { "Boolean", "bool" }, { "Bool", "bool" },
		{ "Char", "char" }, { "character", "char" }, { "rune", "char" },
	};
	for (size_t i = 0; i < countof(pairs); i++)
		if (strcmp(pairs[i][0], n) == 0)
			return pairs[i][1];
	return NULL;
}

typedef struct BuiltinType {
	const char *name;
	TyKind kind;
	int nargs;   /* 0 = simple */
} BuiltinType;

static const BuiltinType builtin_types[] = {
	{ "i64", TY_I64, 0 }, { "i32", TY_I32, 0 }, { "u8", TY_U8, 0 }, { "usize", TY_USIZE, 0 },
	{ "f32", TY_F32, 0 }, { "f64", TY_F64, 0 }, { "bool", TY_BOOL, 0 }, { "char", TY_CHAR, 0 },
	{ "string", TY_STRING, 0 }, { "str", TY_STR, 0 }, { "Bytes", TY_BYTES, 0 },
	{ "Slice", TY_SLICE, 1 }, { "Box", TY_BOX, 1 }, { "Vec", TY_VEC, 1 }, { "Iter", TY_ITER, 1 },
	{ "Map", TY_MAP, 2 }, { "Set", TY_SET, 1 },
};

/* Whether cand has too few letters in common with the counted name (cnt,
 * wlen bytes) to be within 2 edits of it: an edit adds or drops at most
 * two letters of the multiset difference (a transposition none).  The
 * pair test the search makes for every declaration before the edit
 * distance (rev40: 3,000 unknown names against 3,000 records took 5 s). */
static bool
letters_far(int *cnt, size_t wlen, const char *cand)
{
	size_t clen = 0, common = 0;
	for (const unsigned char *c = (const unsigned char *)cand; *c; c++, clen++)
		if (cnt[*c]-- > 0)
			common++;
	for (const unsigned char *c = (const unsigned char *)cand; *c; c++)
		cnt[*c]++;
	return (wlen - common) + (clen - common) > 4;
}

int
sema_near_types(Sema *S, const char *name, unsigned kinds, const char **out, int max, bool *declared)
{
	static const char *const more[] = { "Option", "Result" };
	*declared = false;
	size_t wlen = strlen(name);
	if (wlen < 3)
		return 0;
	const char *built[countof(builtin_types) + countof(more)];
	int nb = 0;
	for (size_t i = 0; (kinds & SEMA_NEAR_BUILTIN) && i < countof(builtin_types); i++)
		built[nb++] = builtin_types[i].name;
	for (size_t i = 0; (kinds & SEMA_NEAR_VARIANT) && i < countof(more); i++)
		built[nb++] = more[i];
	int cnt[256] = {0};
	for (const unsigned char *c = (const unsigned char *)name; *c; c++)
		cnt[*c]++;
	/* the names within the rule with their distances, in the order
	 * offered: the built-in ones, then the declarations in declaration
	 * order (each distance computed once) */
	typedef struct {
		const char *name;
		int d;
		bool decl;
	} Hit;
	VEC(Hit) hits = {0};
	SemaNear nr = sema_near_start(name);
	int best_d = 3;
	for (int i = 0; i < nb + S->syms.len; i++) {
		const char *cand;
		if (i < nb) {
			cand = built[i];
		} else {
			const Sym *y = sema_sym(S, i - nb);
			bool kind = ((kinds & SEMA_NEAR_RECORD) && (y->kind == SK_RECORD || y->kind == SK_CLASS)) ||
			            ((kinds & SEMA_NEAR_VARIANT) && y->kind == SK_VARIANT) || ((kinds & SEMA_NEAR_RESOURCE) && y->kind == SK_RESOURCE);
			if (!kind)
				continue;
			cand = y->name;
		}
		int d;
		if (letters_far(cnt, wlen, cand) || !sema_near_within(&nr, cand, &d))
			continue;
		bool again = false;   /* the prelude's Option and Result, an authored `Box` */
		for (int k = 0; i >= nb && k < nb && !again; k++)
			again = strcmp(built[k], cand) == 0;
		if (again)
			continue;
		Hit h = { cand, d, i >= nb };
		VEC_PUSH(hits, h);
		if (d < best_d)
			best_d = d;
	}
	int n = 0;
	for (int i = 0; i < hits.len; i++) {
		if (hits.items[i].d != best_d)
			continue;
		if (n == 0)
			*declared = hits.items[i].decl;
		if (n < max)
			out[n] = hits.items[i].name;
		n++;
	}
	VEC_FREE(hits);
	return n;
}

static bool
ident_byte(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Whether the word name stands in the source more than once.  The words
 * are counted in one pass over the source, on the first question: a scan
 * per question cost 0.3 s for 3,000 misspelt names in a 200 KB file
 * (rev40). */
static bool
word_repeated(Sema *S, const char *name)
{
	for (const char *c = name; *c; c++)
		if (!ident_byte(*c))
			return false;   /* not a word */
	if (!S->words_text) {
		/* each word and its NUL: at most len + (len + 1) / 2 bytes */
		char *w = S->words_text = spx_xmalloc(S->len + S->len / 2 + 2);
		for (size_t i = 0; i < S->len;) {
			if (!ident_byte(S->src[i])) {
				i++;
				continue;
			}
			size_t j = i;
			while (j < S->len && ident_byte(S->src[j]))
				j++;
			memcpy(w, S->src + i, j - i);
			w[j - i] = '\0';
			int32_t k = sema_strmap_get(&S->words, w);
			if (k < 0)
				sema_strmap_put(&S->words, w, 1);
			else if (k == 1)
				sema_strmap_set(&S->words, w, 2);
			if (k < 0)
				w += j - i + 1;   /* a new key stays; a repeat's bytes are reused */
			i = j;
		}
	}
	return *name && sema_strmap_get(&S->words, name) >= 2;
}

static TypeId
arity_error(Sema *S, Span span, const char *name, int want, int got)
{
	Diag *d = sema_error(S, DIAG_T221, span, "type `%s` expects %d type arguments, received %d", name, want, got);
	if (got == 0 && strcmp(name, "Option") == 0)
		diag_set_help(d, "spell the type argument at every use: `Option<i64>` in a signature and `Option<i64>::Some { value: … }` when constructing; patterns stay `Option::Some { value: v }`");
	else if (got == 0 && strcmp(name, "Result") == 0)
		diag_set_help(d, "spell both type arguments at every use: `Result<i64, bool>` in a signature and `Result<i64, bool>::Ok { value: … }` when constructing; patterns stay `Result::Ok { value: v }`");
	else
		diag_set_help(d, "spell the type arguments at every use, including constructors: `%s<…>`", name);
	return T_ERR;
}

static TypeId
resolve_named(Sema *S, const Type *t, SymId scope)
{
	Name one;
	QName qn = ast_type_qname(t, &one);
	const QName *q = &qn;
	const char *name = q->parts[q->nparts - 1].s;
	int nargs = ast_type_nargs(t);
	TypeId local[8];
	TypeId *args = nargs <= 8 ? local : spx_xmalloc(sizeof(TypeId) * (size_t)nargs);
	for (int i = 0; i < nargs; i++)
		args[i] = sema_decls_resolve_type(S, ast_type_args(t)[i], scope);
	TypeId out = T_ERR;
	if (q->nparts > 1) {
		Diag *d = sema_error(S, DIAG_T001, t->span, "unknown type `%s`; declare it with `resource %s;`", name, name);
		diag_set_help(d, "a qualified type name needs a project import: `use type @id(\"…\") from %.*s as %s;`",
		    (int)(q->parts[q->nparts - 2].span.end - q->parts[0].span.start), S->src + q->parts[0].span.start, name);
		goto done;
	}
	if (scope >= 0) {
		Sym *owner = sema_sym(S, scope);
		for (int i = 0; i < owner->ntparams; i++) {
			if (strcmp(owner->tparams[i], name) == 0) {
				if (nargs) {
					sema_error(S, DIAG_T220, t->span, "type parameter `%s` cannot take type arguments", name);
					goto done;
				}
				out = sema_type_intern(&S->types, TY_PARAM, (uint32_t)scope, (uint64_t)i, NULL, 0);
				goto done;
			}
		}
	}
	if (name[0] == 'L' && (strcmp(name, "List") == 0 || strcmp(name, "ListStep") == 0) && sema_strmap_get(&S->type_names, name) < 0
	    && !sema_failed_import(S, name, true)) {
		/* the reference's immutable list carrier: known names, refused (DECISIONS "Remaining differences") */
		if (nargs != 1)
			arity_error(S, t->span, name, 1, nargs);
		Diag *d = sema_error(S, DIAG_T291, t->span, "the immutable list type `%s` is not admitted", name);
		diag_set_help(d, "a list is `Vec<T>` with an explicit element type: `vec_with_capacity<i64>(4usize)`, `vec_push<i64>(v, x)`, traversed with `for item in values`");
		goto done;
	}
	if (name[0] == 'S' && strcmp(name, "StdinReader") == 0 && sema_strmap_get(&S->type_names, name) < 0 && !sema_failed_import(S, name, true)) {
		/* the stdin stream's reader (stdin_stream_open; DECISIONS "stdin stream") */
		out = nargs ? (sema_error(S, DIAG_T221, t->span, "type `%s` expects 0 type arguments, received %d", name, nargs), T_ERR)
			    : sema_type_reader(&S->types);
		goto done;
	}
	for (size_t i = 0; i < countof(builtin_types); i++) {
		const BuiltinType *b = &builtin_types[i];
		if (b->name[0] != name[0] || strcmp(b->name, name) != 0)
			continue;
		if (b->kind == TY_BOX && sema_strmap_get(&S->type_names, name) >= 0)
			break;   /* an authored `Box` (§3.3) */
		if (b->nargs != nargs && (b->kind == TY_MAP || b->kind == TY_SET)) {
			/* the compiler-owned collections keep the reference's shape code */
			Diag *d = sema_error(S, DIAG_T274, t->span, "type `%s` expects %d type arguments, received %d", name, b->nargs, nargs);
			diag_set_help(d, "%s", b->kind == TY_MAP ? "spell the key and value types: `Map<string, i64>`" : "spell the element type: `Set<i64>`");
			goto done;
		}
		if (b->nargs != nargs) {
			out = b->nargs == 0 ? (sema_error(S, DIAG_T221, t->span, "type `%s` expects 0 type arguments, received %d", name, nargs), T_ERR)
			    : arity_error(S, t->span, name, b->nargs, nargs);
			goto done;
		}
		if (b->kind == TY_SLICE) {
			if (args[0] != T_U8 && args[0] != T_ERR) {
				sema_error(S, DIAG_T001, t->span, "unknown type `Slice<%s>`; byte views are `Slice<u8>`", sema_type_name(S, args[0]));
				goto done;
			}
			out = T_SLICE;
		} else {
			out = nargs ? sema_type_intern(&S->types, b->kind, 0, 0, args, nargs) : (TypeId)b->kind;
		}
		goto done;
	}
	SymId sym = sema_strmap_get(&S->type_names, name);
	if (sym < 0 && scope >= 0 && sema_sym(S, scope)->ntparams) {
		Diag *d = sema_error(S, DIAG_T220, t->span, "`%s` is not an in-scope type parameter", name);
		diag_set_help(d, "declare it in the type parameter list, e.g. `<%s>`, or use a declared type", name);
		goto done;
	}
	if (sym < 0 && sema_failed_import(S, name, true))
		goto done;
	if (sym < 0) {
		Diag *d = sema_error(S, DIAG_T001, t->span, "unknown type `%s`; declare it with `resource %s;`", name, name);
		const char *help = unknown_type_help(name);
		bool declared = false;
		const char *nearby[3];
		int nnear = help ? 0 : sema_near_types(S, name, SEMA_NEAR_ALL, nearby, 3, &declared);
		const char *near = nnear == 1 ? nearby[0] : NULL;
		const char *habit = help ? habit_type(name) : NULL;
		size_t n = strlen(name);
		if (habit) {
			/* `x: int`, `s: String` (qa37): the help names the family, the fix the type */
			diag_set_help(d, "%s; write `%s` here", help, habit);
			if (t->span.end - t->span.start == n && memcmp(S->src + t->span.start, name, n) == 0)
				diag_add_fix(d, t->span.start, t->span.end, habit);
		} else if (help) {
			diag_set_help(d, "%s", help);
		} else if (near && declared && word_repeated(S, name)) {
			/* `record Sape` declared, `Shape` written at every use: the
			 * declaration may be the misspelt one, so no fix picks a side */
			diag_set_help(d, "did you mean `%s`? `%s` is written more than once, so the declaration of `%s` may be the misspelt one: correct whichever is wrong",
			    near, name, near);
		} else if (near) {
			/* a misspelt type: the fix writes the one it is near */
			diag_set_help(d, "did you mean `%s`?", near);
			if (t->span.end - t->span.start >= n && memcmp(S->src + t->span.start, name, n) == 0)
				diag_add_fix(d, t->span.start, t->span.start + (uint32_t)n, near);
		} else if (nnear > 1) {
			/* as near to several: each named, no fix picks one (mend40) */
			int shown = nnear < 3 ? nnear : 3;
			Buf h = {0};
			buf_puts(&h, "did you mean ");
			for (int k = 0; k < shown; k++)
				buf_printf(&h, "%s`%s`", k == 0 ? "" : k == shown - 1 && nnear == shown ? " or " : ", ", nearby[k]);
			buf_puts(&h, nnear > shown ? ", …?" : "?");
			diag_set_help(d, "%s", h.data);
			buf_free(&h);
		} else
			diag_set_help(d, "declare `record %s { … }`, `variant %s { … }` or `class %s { … }` in this module", name, name, name);
		goto done;
	}
	Sym *s = sema_sym(S, sym);
	if (s->kind == SK_INTERFACE) {
		sema_error(S, DIAG_T001, t->span, "unknown type `%s`; interfaces are not types", name);
		goto done;
	}
	if (s->ntparams != nargs) {
		out = arity_error(S, t->span, name, s->ntparams, nargs);
		goto done;
	}
	out = sema_nominal(S, sym, args, nargs);
done:
	if (args != local)
		free(args);
	return out;
}

TypeId
sema_decls_resolve_type(Sema *S, const Type *t, SymId scope)
{
	if (!t)
		return T_ERR;
	switch (t->kind) {
	case TYPE_ARRAY: {
		TypeId elem = sema_decls_resolve_type(S, t->u.array.elem, scope);
		if (elem != T_U8 && elem != T_ERR) {
			Diag *d = sema_error(S, DIAG_T262, t->span, "fixed arrays hold bytes: `[u8; N]`, not `[%s; N]`", sema_type_name(S, elem));
			diag_set_help(d, "a list of other values is a `Vec`: `Vec<%s>`", sema_type_name(S, elem));
			return T_ERR;
		}
		return sema_type_intern(&S->types, TY_ARRAY, 0, t->u.array.len, NULL, 0);
	}
	case TYPE_FN: {
		if (t->u.fn.mut_i64)  /* the parser admitted only `FnMutI64(i64) -> i64` */
			return S->sym_fn_mut >= 0 ? sema_type_intern(&S->types, TY_NOMINAL, (uint32_t)S->sym_fn_mut, 0, NULL, 0) : T_ERR;
		int n = t->u.fn.nparams;
		TypeId *args = spx_xmalloc(sizeof(TypeId) * (size_t)(n + 1));
		for (int i = 0; i < n; i++)
			args[i] = sema_decls_resolve_type(S, t->u.fn.params[i], scope);
		args[n] = sema_decls_resolve_type(S, t->u.fn.result, scope);
		TypeId out = sema_type_intern(&S->types, TY_FN, 0, 0, args, n + 1);
		free(args);
		return out;
	}
	case TYPE_NAME:
		return resolve_named(S, t, scope);
	}
	return T_ERR;
}
