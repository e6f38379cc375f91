/*
 * emit_builtin.c — the compiler-owned functions (LANGUAGE.md §5.1) in C,
 * with the failure domains of §5.2 (`SEMAPRAX operation failure:
 * <domain>/<code>`, exit 73).  Behaviour follows the interpreter's
 * src/interp/builtins_rt.c, collections.c and host.c.
 *
 * Arguments are evaluated left to right and converted by the builtin's
 * instantiated signature (sema_builtin_signature): a `borrow` parameter takes a
 * borrowed value (an owned argument becomes a temporary), every other
 * non-Copy parameter consumes its argument.  Views (str, Slice<u8>) are
 * `spx_view`s into the bytes of their source.  Host operations are emitted
 * only when the route grants them (emit.c).
 */
#include "emit_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../rt/rt.h"

typedef struct Call {
	const HirExpr *e;
	BuiltinId bid;        /* which operation (src/sema/builtins.def) */
	const char *a[40];    /* converted arguments */
	TypeId at[40];
	int n;
	TypeId targs[2];
	int ntargs;
	TypeId rt;            /* result type */
	const char *rct;      /* its C spelling */
	bool took;            /* map_set's value or map_get_or's default is fresh: moved in, not held and copied */
	bool took_key;        /* the string key of map_set/map_add/set_insert is fresh: moved in */
	bool owned0;          /* the borrowed first argument arrived owned (fresh or moved): a
	                         temporary released after the statement */
} Call;


static Val
mk(const char *c, TypeId t, bool own)
{
	Val v = { c, t, own };
	return v;
}

/* `T tN = place;` and the place zeroed: an element taken out of a Vec or
 * Map that is released after the statement (it arrived owned: fresh, or
 * a local at its last use, src/hir/lastuse.c), where a copy cloned it. */
static Val
take_place(Emit *E, Call *c, TypeId t, const char *place)
{
	const char *tn = emitc_new_tmp(E);
	emitc_line(E, "%s %s = %s;", c->rct, tn, place);
	emitc_line(E, "%s = (%s)%s;", place, c->rct, emitc_zero_init(E, t));
	return mk(tn, c->rt, true);
}

/* `T tN = expr;` */
static Val
simple(Emit *E, Call *c, bool own, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static Val
simple(Emit *E, Call *c, bool own, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	const char *t = emitc_new_tmp(E);
	emitc_line(E, "%s %s = %s;", c->rct, t, buf);
	return mk(t, c->rt, own);
}

static const char *
view(Emit *E, Call *c, int i)
{
	TyKind k = emitc_tinfo(E, c->at[i])->kind;
	return k == TY_STRING || k == TY_BYTES ? arena_printf(&E->a, "spx_view_of(%s)", c->a[i]) : c->a[i];
}

static const char *
tname(Emit *E, TypeId t)
{
	return emitc_ctype(E, t, (Span){0});
}

/* An Option<scalar> result: Some(value) when cond holds. */
static Val
option_some_if(Emit *E, Call *c, const char *cond, const char *value)
{
	Sym *s = emitc_nominal_sym(E, c->rt);
	const char *t = emitc_new_tmp(E);
	emitc_line(E, "%s %s = {0};", c->rct, t);
	emitc_line(E, "if (%s) {", cond);
	emitc_line(E, "\t%s.tag = 1;", t);
	emitc_line(E, "\t%s.u.c_%s.f_%s = %s;", t, s->nom->cases[1].name, s->nom->cases[1].fields[0].name, value);
	emitc_line(E, "}");
	return mk(t, c->rt, false);
}

/* ---- text ---- */

static Val
emit_format(Emit *E, Call *c)
{
	const HirExpr *lit = c->e->u.call.args[0];
	if (lit->kind != HIR_STRING) {
		emitc_refuse(E, c->e->span, "string_format needs a literal template");
		return mk(NULL, 0, false);
	}
	const char *b = emitc_new_tmp(E);
	emitc_line(E, "spx_buf %s = {0};", b);
	int field = 1, kind = RT_FORMAT_BRACE;
	bool bad = false;
	size_t n = lit->u.lit.n;
	const char *s = lit->u.lit.s;
	for (size_t at = 0; kind != RT_FORMAT_END;) {
		/* the template's pieces (rt_format_scan): `{{` and `}}` keep one brace */
		size_t start = at, upto = rt_format_scan((const uint8_t *)s, n, &at, &kind);
		upto += kind == RT_FORMAT_BRACE;
		if (upto > start)
			emitc_line(E, "spx_buf_put(&%s, \"%s\", %zu);", b, emitc_c_literal(E, s + start, upto - start), upto - start);
		if (kind != RT_FORMAT_HOLE)
			continue;
		if (field >= c->n) {
			bad = true;
			break;
		}
		TyKind k = emitc_tinfo(E, c->at[field])->kind;
		const char *a = c->a[field++];
		if (k == TY_I64)
			emitc_line(E, "spx_fmt_i64(&%s, %s);", b, a);
		else if (k == TY_U8 || k == TY_USIZE)
			emitc_line(E, "spx_fmt_u64(&%s, %s);", b, a);
		else if (k == TY_BOOL)
			emitc_line(E, "spx_buf_put(&%s, %s ? \"true\" : \"false\", %s ? 4 : 5);", b, a, a);
		else if (k == TY_STRING || k == TY_STR)
			emitc_line(E, "spx_buf_put(&%s, %s.p, %s.n);", b, a, a);
		else
			bad = true;
	}
	if (bad || field != c->n)
		emitc_line(E, "spx_fail(rt_domain_ids[RT_DOM_FORMAT], RT_FORMAT_FAILED);");
	return simple(E, c, true, "spx_fmt_done(&%s)", b);
}

static Val
emit_text(Emit *E, Call *c)
{
	BuiltinId bi = c->bid;
	if (bi == BI_string_len || bi == BI_str_len_bytes)
		return simple(E, c, false, "(int64_t)%s.n", c->a[0]);
	if (bi == BI_string_len_chars)
		return simple(E, c, false, "spx_len_chars(%s)", view(E, c, 0));
	if (bi == BI_string_is_empty || bi == BI_str_is_empty)
		return simple(E, c, false, "%s.n == 0", c->a[0]);
	if (bi == BI_string_concat)
		return simple(E, c, true, "spx_concat(%s, %s)", c->a[0], c->a[1]);
	if (bi == BI_string_starts_with || bi == BI_str_starts_with)
		return simple(E, c, false, "spx_starts_with(%s, %s)", view(E, c, 0), view(E, c, 1));
	if (bi == BI_string_contains || bi == BI_str_contains)
		return simple(E, c, false, "spx_find(%s, %s, 0) >= 0", view(E, c, 0), view(E, c, 1));
	if (bi == BI_string_from_char)
		return simple(E, c, true, "spx_from_char(%s)", c->a[0]);
	if (bi == BI_string_from_i64)
		return simple(E, c, true, "spx_from_i64(%s)", c->a[0]);
	if (bi == BI_string_from_usize)
		return simple(E, c, true, "spx_from_u64(%s)", c->a[0]);
	if (bi == BI_string_slice)
		return simple(E, c, true, "spx_slice(%s, %s, %s)", view(E, c, 0), c->a[1], c->a[2]);
	if (bi == BI_string_find)
		return simple(E, c, false, "spx_string_find(%s, %s, %s)", view(E, c, 0), view(E, c, 1), c->a[2]);
	if (bi == BI_string_to_i64) {
		const char *v = emitc_new_tmp(E);
		emitc_line(E, "int64_t %s = 0;", v);
		return option_some_if(E, c, arena_printf(&E->a, "spx_parse_i64(%s, &%s)", view(E, c, 0), v), v);
	}
	if (bi == BI_string_trim)
		return simple(E, c, true, "spx_trim(%s)", view(E, c, 0));
	if (bi == BI_string_byte_at)
		return simple(E, c, false, "spx_string_byte_at(%s, %s)", view(E, c, 0), c->a[1]);
	if (bi == BI_string_compare)
		return simple(E, c, false, "(int64_t)spx_str_cmp(&%s, &%s)", c->a[0], c->a[1]);
	if (bi == BI_string_format)
		return emit_format(E, c);
	if (bi == BI_string_from_str || bi == BI_bytes_copy)
		return simple(E, c, true, "spx_str_new(%s.p, %s.n)", c->a[0], c->a[0]);
	if (bi == BI_string_as_str || bi == BI_bytes_as_slice || bi == BI_str_as_bytes)
		return simple(E, c, false, "%s", view(E, c, 0));
	if (bi == BI_array_as_slice)
		return simple(E, c, false, "(spx_view){ %s.a, %llu }", c->a[0], (unsigned long long)emitc_tinfo(E, c->at[0])->n);
	if (bi == BI_str_byte_at || bi == BI_byte_get)
		return option_some_if(E, c, arena_printf(&E->a, "%s < %s.n", c->a[1], c->a[0]),
				      arena_printf(&E->a, "%s.p[%s]", c->a[0], c->a[1]));
	if (bi == BI_byte_len)
		return simple(E, c, false, "(uint64_t)%s.n", c->a[0]);
	if (bi == BI_byte_range)
		return simple(E, c, false, "spx_byte_range(%s, %s, %s)", c->a[0], c->a[1], c->a[2]);
	if (bi == BI_bytes_zeroed)
		return simple(E, c, true, "spx_bytes_zeroed(%s)", c->a[0]);
	if (bi == BI_bytes_set)
		return simple(E, c, true, "spx_bytes_set(%s, %s, %s)", c->a[0], c->a[1], c->a[2]);
	if (bi == BI_bytes_set5)
		return simple(E, c, true, "spx_bytes_set5(%s, %s, %s, %s, %s, %s, %s)", c->a[0], c->a[1], c->a[2], c->a[3], c->a[4],
			      c->a[5], c->a[6]);
	if (bi == BI_bytes_set1_or5_from_slice || bi == BI_bytes_set1_or6_or48_from_slice)
		return simple(E, c, true, "spx_bytes_set1_or%s(%s, %s, %s, %s, %s)", bi == BI_bytes_set1_or5_from_slice ? "5" : "6_or48", c->a[0], c->a[1],
			      c->a[2], view(E, c, 3), c->a[4]);
	return mk(NULL, 0, false);
}

static Val
emit_convert(Emit *E, Call *c)
{
	static const struct { BuiltinId bid; const char *fmt; } conv[] = {
		{ BI_f64_from_i64, "(double)%s" }, { BI_i64_from_f64, "spx_i64_from_f64(%s)" },
		{ BI_i64_from_i32, "(int64_t)%s" }, { BI_i64_from_u8, "(int64_t)%s" }, { BI_usize_from_u8, "(uint64_t)%s" },
		{ BI_usize_from_i64, "spx_usize_from_i64(%s)" }, { BI_i64_from_usize, "spx_i64_from_usize(%s)" },
		{ BI_u8_from_i64, "spx_u8_from_i64(%s)" }, { BI_char_from_u8, "(uint32_t)%s" },
		{ BI_char_from_i64, "spx_char_from_i64(%s)" },
	};
	for (size_t i = 0; i < sizeof conv / sizeof *conv; i++)
		if (c->bid == conv[i].bid) {
			const char *t = emitc_new_tmp(E);
			Buf x = {0};
			buf_printf(&x, conv[i].fmt, c->a[0]);
			emitc_line(E, "%s %s = %s;", c->rct, t, x.data);
			buf_free(&x);
			return mk(t, c->rt, false);
		}
	return mk(NULL, 0, false);
}

/* ---- Box, Vec, Iter ---- */

static Val
emit_box(Emit *E, Call *c)
{
	BuiltinId bi = c->bid;
	TypeId T = c->targs[0];
	const char *tn = tname(E, T);
	if (bi == BI_box_new) {
		const char *t = emitc_new_tmp(E);
		emitc_line(E, "%s %s = spx_alloc(sizeof(%s));", c->rct, t, tn);
		emitc_line(E, "*%s = %s;", t, c->a[0]);
		return mk(t, c->rt, true);
	}
	if (bi == BI_box_get)
		return simple(E, c, false, "*%s", c->a[0]);
	if (bi == BI_box_into_inner) {
		Val v = simple(E, c, true, "*%s", c->a[0]);
		emitc_line(E, "spx_free(%s);", c->a[0]);
		return v;
	}
	return mk(NULL, 0, false);
}

static Val
emit_vec(Emit *E, Call *c)
{
	BuiltinId bi = c->bid;
	TypeId T = c->targs[0];
	const char *tn = tname(E, T);
	const char *v = c->a[0];
	if (!tn)
		return mk(NULL, 0, false);
	if (bi == BI_vec_with_capacity)
		return simple(E, c, true, "spx_vec_new(%s, sizeof(%s))", c->a[0], tn);
	if (bi == BI_vec_len)
		return simple(E, c, false, "(uint64_t)%s.len", v);
	if (bi == BI_vec_capacity)
		return simple(E, c, false, "(uint64_t)%s.cap", v);
	const char *elem = arena_printf(&E->a, "((%s *)%s.p)", tn, v);
	if (bi == BI_vec_get || bi == BI_vec_clone_at) {
		const char *at = arena_printf(&E->a, "%s[spx_vec_index(&%s, %s)]", elem, v, c->a[1]);
		if (emitc_is_copy(E, T))
			return simple(E, c, false, "%s", at);
		if (c->owned0) {
			const char *k = emitc_new_tmp(E);
			emitc_line(E, "size_t %s = spx_vec_index(&%s, %s);", k, v, c->a[1]);
			return take_place(E, c, T, arena_printf(&E->a, "%s[%s]", elem, k));
		}
		return simple(E, c, true, "%s(&%s)", emitc_clone_fn(E, T), at);
	}
	if (bi == BI_vec_push) {
		emitc_line(E, "if (%s.len >= %s.cap)", v, v);
		emitc_line(E, "\tspx_fail(rt_domain_ids[RT_DOM_VEC], RT_VEC_FULL);");
		emitc_line(E, "%s[%s.len++] = %s;", elem, v, c->a[1]);
	} else if (bi == BI_vec_set) {
		const char *k = emitc_new_tmp(E);
		emitc_line(E, "size_t %s = spx_vec_index(&%s, %s);", k, v, c->a[1]);
		emitc_release_place(E, T, arena_printf(&E->a, "%s[%s]", elem, k));
		emitc_line(E, "%s[%s] = %s;", elem, k, c->a[2]);
	} else if (bi == BI_vec_clear) {
		if (!emitc_is_copy(E, T))
			emitc_line(E, "for (size_t i = 0; i < %s.len; i++)\n\t%s(&%s[i]);", v, emitc_rel_fn(E, T), elem);
		emitc_line(E, "%s.len = 0;", v);
	} else if (bi == BI_vec_reserve_exact) {
		emitc_line(E, "spx_vec_reserve(&%s, %s, sizeof(%s));", v, c->a[1], tn);
	} else if (bi == BI_vec_sort) {
		emitc_line(E, "if (%s.len > 1)", v);
		emitc_line(E, "\tqsort(%s.p, %s.len, sizeof(%s), %s);", v, v, tn, emitc_sortcmp_fn(E, T));
	} else if (bi == BI_vec_into_iter) {
		return simple(E, c, true, "(spx_iter){ %s, 0 }", v);
	} else if (bi == BI_iter_next) {
		Sym *s = emitc_nominal_sym(E, c->rt);
		const char *t = emitc_new_tmp(E);
		const char *ie = arena_printf(&E->a, "((%s *)%s.v.p)", tn, v);
		emitc_line(E, "%s %s = {0};", c->rct, t);
		emitc_line(E, "if (%s.pos >= %s.v.len) {", v, v);
		emitc_line(E, "\t%s(&%s);", emitc_rel_fn(E, c->at[0]), v);
		emitc_line(E, "} else {");
		emitc_line(E, "\t%s.tag = 1;", t);
		emitc_line(E, "\t%s.u.c_%s.f_%s = %s[%s.pos];", t, s->nom->cases[1].name, s->nom->cases[1].fields[0].name, ie, v);
		if (!emitc_is_copy(E, T))
			emitc_line(E, "\t%s[%s.pos] = (%s)%s;", ie, v, tn, emitc_zero_init(E, T));
		emitc_line(E, "\t%s.pos++;", v);
		emitc_line(E, "\t%s.u.c_%s.f_%s = %s;", t, s->nom->cases[1].name, s->nom->cases[1].fields[1].name, v);
		emitc_line(E, "}");
		return mk(t, c->rt, true);
	} else {
		return mk(NULL, 0, false);
	}
	return simple(E, c, true, "%s", v);
}

/* ---- Map, Set ---- */


static Val
emit_map(Emit *E, Call *c)
{
	BuiltinId bi = c->bid;
	bool set = !sema_builtin_is_map_op(bi);
	TypeId K = c->targs[0], V = set ? 0 : c->targs[1];
	const char *kn = tname(E, K), *vn = set ? "char" : tname(E, V);
	if (!kn || !vn)
		return mk(NULL, 0, false);
	int kk = emitc_map_key_kind(E, K);
	const char *dom = set || c->e->u.call.ntargs > 0 ? "rt_domain_ids[RT_DOM_MAP2]" : "rt_domain_ids[RT_DOM_MAP]";
	const char *vsz = set ? "0" : arena_printf(&E->a, "sizeof(%s)", vn);
	const char *m = c->a[0];
	if (bi == BI_map_new || bi == BI_set_new)
		return simple(E, c, true, "spx_map_new(%s, %d, %s, %s)", c->a[0], kk, vsz, dom);
	if (bi == BI_map_len || bi == BI_set_len)
		return simple(E, c, false, "(uint64_t)%s.len", m);
	const char *vals = arena_printf(&E->a, "((%s *)%s.v)", vn, m);
	if (bi == BI_map_key_at || bi == BI_set_key_at || bi == BI_map_value_at) {
		bool key = bi != BI_map_value_at;
		TypeId t = key ? K : V;
		const char *at = arena_printf(&E->a, "((%s *)%s.%s)[spx_map_index(&%s, %s, %s)]", key ? kn : vn, m,
					      key ? "k" : "v", m, c->a[1], dom);
		if (emitc_is_copy(E, t))
			return simple(E, c, false, "%s", at);
		if (c->owned0) {
			const char *k = emitc_new_tmp(E);
			emitc_line(E, "size_t %s = spx_map_index(&%s, %s, %s);", k, m, c->a[1], dom);
			return take_place(E, c, t, arena_printf(&E->a, "((%s *)%s.%s)[%s]", key ? kn : vn, m, key ? "k" : "v", k));
		}
		return simple(E, c, true, "%s(&%s)", emitc_clone_fn(E, t), at);
	}
	/* the key, in a variable for its address */
	const char *key = emitc_new_tmp(E);
	emitc_line(E, "%s %s = %s;", kn, key, c->a[1]);
	const char *at = emitc_new_tmp(E);
	emitc_line(E, "long %s = spx_map_find(&%s, %d, &%s);", at, m, kk, key);
	if (bi == BI_map_has || bi == BI_set_has)
		return simple(E, c, false, "%s >= 0", at);
	/* the value (map_set) and map_get_or's default are borrowed: copied when kept */
	const char *val = NULL;
	if (!set && c->n > 2 && bi != BI_map_add) {
		val = c->a[2];
		if (!emitc_is_copy(E, V) && !c->took) {
			const char *lent = emitc_new_tmp(E);
			emitc_line(E, "%s %s = %s;", vn, lent, c->a[2]);
			val = arena_printf(&E->a, "%s(&%s)", emitc_clone_fn(E, V), lent);
		}
	}
	if (bi == BI_map_get_or) {
		const char *r = emitc_new_tmp(E);
		emitc_line(E, "%s %s;", vn, r);
		emitc_line(E, "if (%s >= 0) {", at);
		if (emitc_is_copy(E, V)) {
			emitc_line(E, "\t%s = %s[%s];", r, vals, at);
		} else if (c->owned0) {   /* an owned map, released after the statement: taken */
			emitc_line(E, "\t%s = %s[%s];", r, vals, at);
			emitc_line(E, "\t%s[%s] = (%s)%s;", vals, at, vn, emitc_zero_init(E, V));
		} else {
			emitc_line(E, "\t%s = %s(&%s[%s]);", r, emitc_clone_fn(E, V), vals, at);
		}
		if (c->took) {   /* the default moved in and not returned */
			E->indent++;
			emitc_release_place(E, V, c->a[2]);
			E->indent--;
		}
		emitc_line(E, "} else");
		emitc_line(E, "\t%s = %s;", r, val);
		return mk(r, V, true);
	}
	if (bi == BI_map_remove || bi == BI_set_remove) {
		emitc_line(E, "if (%s >= 0) {", at);
		E->indent++;
		if (!set)
			emitc_release_place(E, V, arena_printf(&E->a, "%s[%s]", vals, at));
		emitc_line(E, "spx_map_remove_at(&%s, (size_t)%s, %d, %s);", m, at, kk, vsz);
		E->indent--;
		emitc_line(E, "}");
		return simple(E, c, true, "%s", m);
	}
	/* map_set, map_add, set_insert */
	emitc_line(E, "if (%s >= 0) {", at);
	E->indent++;
	if (c->took_key)   /* the key moved in and not kept */
		emitc_release_place(E, K, key);
	if (bi == BI_map_set) {
		emitc_release_place(E, V, arena_printf(&E->a, "%s[%s]", vals, at));
		emitc_line(E, "%s[%s] = %s;", vals, at, val);
	} else if (bi == BI_map_add) {
		emitc_line(E, "if (__builtin_add_overflow(%s[%s], %s, &%s[%s]))", vals, at, c->a[2], vals, at);
		emitc_line(E, "\tspx_fail(%s, RT_MAP_OVERFLOW);", dom);
	}
	E->indent--;
	emitc_line(E, "} else {");
	E->indent++;
	emitc_line(E, "if (%s.len >= %s.cap)", m, m);
	emitc_line(E, "\tspx_fail(%s, RT_MAP_FULL);", dom);
	if (set)
		emitc_line(E, "spx_map_insert(&%s, (size_t)(-%s - 1), %d, &%s, 0, %d);", m, at, kk, key, c->took_key);
	else
		emitc_line(E, "*(%s *)spx_map_insert(&%s, (size_t)(-%s - 1), %d, &%s, %s, %d) = %s;", vn, m, at, kk, key, vsz,
		     c->took_key, val ? val : c->a[2]);
	E->indent--;
	emitc_line(E, "}");
	return simple(E, c, true, "%s", m);
}

/* ---- host ---- */

static Val
emit_host(Emit *E, Call *c)
{
	const Builtin *b = c->e->u.call.builtin;
	BuiltinId bi = c->bid;
	if (!b->effect || !emit_route_grants(E, b->effect)) {
		emitc_refuse(E, c->e->span, "`%s` is not granted on this route", b->name);
		return mk(NULL, 0, false);
	}
	if (bi == BI_stdout_write || bi == BI_stderr_write)
		return simple(E, c, false, "spx_write(%d, %s)", bi == BI_stderr_write, c->a[0]);
	if (bi == BI_args_len)
		return simple(E, c, false, "(uint64_t)spx_argc");
	if (bi == BI_arg_utf8)
		return simple(E, c, false, "spx_arg(%s)", c->a[0]);
	if (bi == BI_file_read_text) {
		E->use_fs = true;
		return simple(E, c, true, "spx_file_read_text(%s)", c->a[0]);
	}
	if (bi == BI_file_write_new || bi == BI_file_write_atomic) {
		E->use_fs = true;
		return simple(E, c, false, "spx_file_write(%s, %s, %s, %s, %s)", view(E, c, 0), c->a[1], view(E, c, 2), c->a[3],
			      bi == BI_file_write_atomic ? "true" : "false");
	}
	if (bi == BI_stdin_read) {
		E->use_host = true;
		return simple(E, c, true, "spx_stdin_read()");
	}
	if (bi == BI_stdin_stream_open || bi == BI_stdin_stream_next) {
		E->use_host = true;
		if (bi == BI_stdin_stream_open)
			return simple(E, c, true, "spx_stream_open()");
		return simple(E, c, true, "spx_stream_next(%s)", c->a[0]);
	}
	if (bi == BI_env_len) {
		E->use_host = true;
		return simple(E, c, false, "spx_env_len()");
	}
	if (bi == BI_env_name_utf8 || bi == BI_env_value_utf8) {
		E->use_host = true;
		return simple(E, c, false, "spx_env_text(%s, %s)", c->a[0], bi == BI_env_name_utf8 ? "true" : "false");
	}
	if (bi == BI_clock_now_ms) {
		E->use_host = true;
		return simple(E, c, false, "rt_clock_now_ms()");
	}
	return mk(NULL, 0, false);
}

/* ---- dispatch ---- */

Val
emit_builtin(Emit *E, const HirExpr *e)
{
	Call c;
	memset(&c, 0, sizeof c);
	c.e = e;
	const Builtin *b = e->u.call.builtin;
	c.bid = e->u.call.builtin->bid;
	c.ntargs = e->u.call.ntargs < 2 ? e->u.call.ntargs : 2;
	for (int i = 0; i < c.ntargs; i++)
		c.targs[i] = emitc_sty(E, e->u.call.targs[i]);
	if (c.ntargs == 0 && sema_builtin_is_map_op(c.bid)) {
		/* the legacy untyped map calls mean Map<string, i64> */
		c.targs[0] = T_STRING;
		c.targs[1] = T_I64;
	}
	BuiltinSig sig;
	const char *why = NULL;
	int ntargs = b->ntparams && c.ntargs == 0 ? b->ntparams : c.ntargs;
	if (!sema_builtin_signature(E->S, b, c.targs, ntargs, &sig, &why)) {
		emitc_refuse(E, e->span, "the native lane cannot instantiate `%s`", b->name);
		return mk(NULL, 0, false);
	}
	emitc_types_grow(E);
	if (e->u.call.nargs > 40) {
		emitc_refuse(E, e->span, "too many arguments for the native lane");
		return mk(NULL, 0, false);
	}
	c.n = e->u.call.nargs;
	Flight F;   /* owned arguments before a later one's `?` (emit_expr.c) */
	emitc_flight_begin(E, &F, e->u.call.args, c.n);
	for (int i = 0; i < c.n; i++) {
		Val v = emitc_ev(E, e->u.call.args[i]);
		if (sig.nparams >= 0 && i < sig.nparams && i < 8)
			v = emitc_coerce(E, v, sig.params[i]);   /* `vec_push<Animal>(zoo, Dog { … })` */
		bool borrow = sig.nparams < 0 ? i == 0 : i < 8 && sig.modes[i] == MODE_BORROW;
		/* map_set keeps its value whatever happens: a fresh one is moved in
		 * (the interpreter's take_lent), not held and copied — a copy per
		 * step made building a nesting through a Map quadratic.  So is
		 * map_get_or's default (returned when the key is absent, released
		 * when not) and a fresh string key of an insertion (released when
		 * present).  An owned local at its last use arrives here moved
		 * (src/hir/lastuse.c). */
		if (borrow && v.own && i == 2 && (c.bid == BI_map_set || c.bid == BI_map_get_or)) {
			borrow = false;
			c.took = true;
		}
		if (borrow && v.own && i == 0 && !emitc_is_copy(E, v.t))
			c.owned0 = true;
		if (borrow && v.own && i == 1 && (c.bid == BI_map_set || c.bid == BI_map_add || c.bid == BI_set_insert) &&
		    emitc_map_key_kind(E, c.targs[0]) == 2) {
			borrow = false;
			c.took_key = true;
		}
		v = borrow ? emitc_borrow_val(E, v) : emitc_own_val(E, v);
		if (!v.c)
			return mk(NULL, 0, false);
		if (sig.nparams < 0 && i > 0)
			v = emitc_borrow_val(E, v);   /* string_format reads its fields; owned ones are released after */
		c.a[i] = v.c;
		c.at[i] = v.t;
		emitc_flight_hold(E, &F, i, v);
	}
	emitc_flight_land(E, &F);
	c.rt = emitc_sty(E, e->type);
	c.rct = emitc_valueful(E, c.rt) ? emitc_ctype(E, c.rt, e->span) : "int";
	if (!c.rct)
		return mk(NULL, 0, false);
	Val r = mk(NULL, 0, false);
	switch (c.bid) {
	case BI_array_as_slice: case BI_byte_get: case BI_byte_len: case BI_byte_range:
	case BI_bytes_as_slice: case BI_bytes_copy: case BI_bytes_set: case BI_bytes_set1_or5_from_slice:
	case BI_bytes_set1_or6_or48_from_slice: case BI_bytes_set5: case BI_bytes_zeroed:
	case BI_str_as_bytes: case BI_str_byte_at: case BI_str_contains: case BI_str_is_empty:
	case BI_str_len_bytes: case BI_str_starts_with:
	case BI_string_as_str: case BI_string_byte_at: case BI_string_compare: case BI_string_concat:
	case BI_string_contains: case BI_string_find: case BI_string_format: case BI_string_from_char:
	case BI_string_from_i64: case BI_string_from_str: case BI_string_from_usize: case BI_string_is_empty:
	case BI_string_len: case BI_string_len_chars: case BI_string_slice: case BI_string_starts_with:
	case BI_string_to_i64: case BI_string_trim:
		r = emit_text(E, &c);
		break;
	case BI_char_from_i64: case BI_char_from_u8: case BI_f64_from_i64: case BI_i64_from_f64:
	case BI_i64_from_i32: case BI_i64_from_u8: case BI_i64_from_usize: case BI_u8_from_i64:
	case BI_usize_from_i64: case BI_usize_from_u8:
		r = emit_convert(E, &c);
		break;
	case BI_box_get: case BI_box_into_inner: case BI_box_new:
		r = emit_box(E, &c);
		break;
	case BI_vec_capacity: case BI_vec_clear: case BI_vec_clone_at: case BI_vec_get: case BI_vec_into_iter:
	case BI_vec_len: case BI_vec_push: case BI_vec_reserve_exact: case BI_vec_set: case BI_vec_sort:
	case BI_vec_with_capacity: case BI_iter_next:
		r = emit_vec(E, &c);
		break;
	case BI_map_add: case BI_map_get_or: case BI_map_has: case BI_map_key_at: case BI_map_len:
	case BI_map_new: case BI_map_remove: case BI_map_set: case BI_map_value_at:
	case BI_set_has: case BI_set_insert: case BI_set_key_at: case BI_set_len: case BI_set_new:
	case BI_set_remove:
		r = emit_map(E, &c);
		break;
	case BI_stdin_stream_eof:
		r = simple(E, &c, false, "%s.n == 0", c.a[0]);
		break;
	case BI_stdin_stream_chunk:
		r = simple(E, &c, false, "spx_view_of(%s)", c.a[0]);
		break;
	default:
		if (b->effect)
			r = emit_host(E, &c);
		break;
	}
	if (!r.c && !E->failed)
		emitc_refuse(E, e->span, "the native lane does not support `%s` yet", b->name);
	return r;
}
