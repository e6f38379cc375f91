/*
 * progen_feat2.c — more feature templates of the random program generator
 * (tools/progen.c; the first set is in progen_feat.c): char and f32
 * scalars, integer values at the edges of every width, contract failures
 * whose detail lines render float and char corner values, sets and maps
 * walked in key order, nested Option/Result with `?` inside loops, nested and
 * owning closures, owned class upcasts, long `with` chains and
 * `string_format` templates.  Same rules as progen_feat.c: well-typed,
 * terminating, deterministic per seed; a run-time failure is allowed (the
 * lanes must agree on it).
 */
#include "progen.h"

#include <stdio.h>
#include <string.h>

/* a char literal: ASCII letters mostly, then escapes and non-ASCII scalars */
static void char_lit(Buf *b)
{
	static const char *const cs[] = { "'a'", "'m'", "'z'", "'A'", "'0'", "' '", "'\\n'", "'\\0'", "'\\''",
					  "'\\\\'", "'\\u{e9}'", "'\\u{7f}'", "'\\u{3000}'", "'\\u{1f600}'", "'\\u{10ffff}'", "'~'" };
	pg_bp(b, "%s", cs[pg_rnd(16)]);
}

/* an f32 literal (finite; the corner values come from arithmetic) */
static void f32_lit(Buf *b)
{
	static const char *const fs[] = { "0.0f32", "1.5f32", "0.1f32", "16777216.0f32", "3.0e38f32", "1.0e-45f32",
					  "2.75f32", "0.333f32" };
	if (pg_chance(25))
		pg_bp(b, "(-%s)", fs[pg_rnd(8)]);
	else
		pg_bp(b, "%s", fs[pg_rnd(8)]);
}

/* char and f32: matches on char literals, ordering, conversions, Vec/Box/generics */
void pg_feat_charf32(void)
{
	char fn[24], pk[24];
	pg_fresh("chf", fn, sizeof fn);
	pg_fresh("chpick", pk, sizeof pk);
	pg_id_line(&pg_funcs, 0, pk);
	pg_bp(&pg_funcs, "fn %s<T>(a: T, b: T, first: bool) -> T\n{\n    if first { a } else { b }\n}\n\n", pk);
	pg_id_line(&pg_funcs, 0, fn);
	pg_bp(&pg_funcs, "fn %s(c: char, x: f32, n: i64) -> i64\n{\n", fn);
	/* char_from_i64 may meet a surrogate or a too-large value: convert.v1/1 */
	static const char *const cps[] = { "n % 200 + 32", "n % 1000 + 55000", "n * 17 % 1114112", "n + 57343", "n % 5 + 1114110" };
	pg_bp(&pg_funcs, "    let d = char_from_i64(");
	pg_bp(&pg_funcs, "%s", cps[pg_chance(85) ? 0 : 1 + pg_rnd(4)]);
	pg_bp(&pg_funcs, ");\n    let e = char_from_u8(%du8);\n", pg_rnd(256));
	pg_bp(&pg_funcs, "    let ord = if c < d { 1 } else { if c == d { 2 } else { 3 } } + if e >= ");
	char_lit(&pg_funcs);
	pg_bp(&pg_funcs, " { 10 } else { 20 };\n    let g = match c { ");
	char_lit(&pg_funcs);
	pg_bp(&pg_funcs, " => %d, ", pg_rnd(9));
	if (pg_chance(50)) {
		char_lit(&pg_funcs);
		pg_bp(&pg_funcs, " | ");
		char_lit(&pg_funcs);
		pg_bp(&pg_funcs, " => %d, ", pg_rnd(9));
	}
	pg_bp(&pg_funcs, "k if k > ");
	char_lit(&pg_funcs);
	pg_bp(&pg_funcs, " => 100, _ => 200, };\n");
	pg_bp(&pg_funcs, "    let s = string_concat(string_from_char(d), string_from_char(c));\n");
	pg_bp(&pg_funcs, "    let sl = string_len(s) * 10 + string_len_chars(s);\n");
	/* f32 arithmetic, total: inf, -0.0 and NaN arise */
	pg_bp(&pg_funcs, "    let y = x * ");
	f32_lit(&pg_funcs);
	pg_bp(&pg_funcs, " - ");
	f32_lit(&pg_funcs);
	pg_bp(&pg_funcs, ";\n    let z = -y / ");
	f32_lit(&pg_funcs);
	pg_bp(&pg_funcs, ";\n    let fz = if z != z { 1 } else { if z > 1000000.0f32 { 2 } else { if z < -1000000.0f32 { 3 } else { if z == 0.0f32 { 4 } else { 5 } } } };\n");
	int nc = 2 + pg_rnd(3);
	pg_bp(&pg_funcs, "    let mut vc = vec_with_capacity<char>(%dusize);\n    vc = vec_push<char>(vc, c);\n    vc = vec_push<char>(vc, d);\n", nc);
	for (int i = 2; i < nc; i++) {
		pg_bp(&pg_funcs, "    vc = vec_push<char>(vc, ");
		char_lit(&pg_funcs);
		pg_bp(&pg_funcs, ");\n");
	}
	pg_bp(&pg_funcs, "    vc = vec_sort<char>(vc);\n    let fc = vc;\n    let mut acc = 0;\n");
	pg_bp(&pg_funcs, "    for q in fc {\n        acc = acc * 3 + string_len(string_from_char(q)) + if q > 'm' { 1 } else { 0 };\n        0\n    }\n");
	pg_bp(&pg_funcs, "    let mut vf = vec_with_capacity<f32>(4usize);\n    vf = vec_push<f32>(vf, y);\n    vf = vec_push<f32>(vf, if z != z { 0.0f32 } else { z });\n    vf = vec_push<f32>(vf, ");
	f32_lit(&pg_funcs);
	pg_bp(&pg_funcs, ");\n    vf = vec_sort<f32>(vf);\n    let ff = vf;\n    let mut code = 0;\n");
	/* z may be NaN (-0.0 / -0.0) and is kept out of the sort: the total
	 * order sees its sign, which §3.7 leaves to the backend (clang folds
	 * the division to +NaN, x86 divides to -NaN; found by seed 600123) */
	pg_bp(&pg_funcs, "    for w in ff {\n        code = code * 4 + if w != w { 0 } else { if w < 0.0f32 { 1 } else { if w > 0.0f32 { 2 } else { 3 } } };\n        0\n    }\n");
	pg_bp(&pg_funcs, "    let bx = box_new<f32>(x);\n    let bc = box_new<char>(%s<char>(c, d, c > d));\n", pk);
	pg_bp(&pg_funcs, "    let bi = if box_get<f32>(bx) < %s<f32>(x, 1.0f32, x > 1.0f32) { 1 } else { 0 } + if box_into_inner<char>(bc) == d { 2 } else { 0 };\n", pk);
	pg_bp(&pg_funcs, "    let near = fn(q: char) -> bool { q == c || q < e };\n    let half = fn(v: f32) -> f32 { v * 0.5f32 + x };\n");
	pg_bp(&pg_funcs, "    let hb = if near(d) { 1 } else { 0 } + if half(x) > x { 2 } else { 0 };\n");
	pg_bp(&pg_funcs, "    ord + g + sl + fz * 7 + acc %% 1000 + code %% 997 + bi * 3 + hb\n}\n\n");
	Buf c = { 0 };
	pg_bp(&c, "%s(", fn);
	char_lit(&c);
	pg_bp(&c, ", ");
	f32_lit(&c);
	pg_bp(&c, ", %d)", pg_rnd(3000));
	pg_add_call(&c);
	pg_bfree(&c);
}

/* integers at the edges of i64/i32/u8/usize: the lanes agree on overflow */
void pg_feat_edges(void)
{
	char fn[24], nar[24];
	pg_fresh("edf", fn, sizeof fn);
	pg_fresh("ednar", nar, sizeof nar);
	pg_id_line(&pg_funcs, 0, nar);
	pg_bp(&pg_funcs, "fn %s(k: i64) -> i32\n{\n    if k > 3 { 4i32 } else { if k < -3 { -4i32 } else { 1i32 } }\n}\n\n", nar);
	pg_id_line(&pg_funcs, 0, fn);
	pg_bp(&pg_funcs, "fn %s(k: i64) -> i64\n{\n", fn);
	/* each line keeps to its range unless k is large (about 1 in 10 calls) */
	static const char *const lines[] = {
		"    let e%d = 9223372036854775807 - k %% 8 - 1;\n",
		"    let e%d = -9223372036854775808 + k %% 8 + 8;\n",
		"    let e%d = (9223372036854775807 / (k %% 3 + 2)) * 2 / 3;\n",
		"    let e%d = (-9223372036854775807 - 1) / (k %% 5 - 7);\n",
		"    let e%d = (-9223372036854775807 - 1) %% (k %% 4 + 3);\n",
		"    let e%d = i64_from_i32(2147483647i32 - %s(k)) + i64_from_i32(-2147483648i32 + %s(k) * %s(k));\n",
		"    let e%d = i64_from_i32((2147483647i32 / %s(k)) * 2i32 %% 1000i32);\n",
		"    let e%d = i64_from_u8(255u8 - u8_from_i64(k %% 200 + 50)) + i64_from_u8(u8_from_i64(k %% 100 + 100) + 55u8);\n",
		"    let e%d = i64_from_usize((18446744073709551615usize - usize_from_i64(k %% 1000 + 1000)) %% 1000000usize);\n",
		"    let e%d = i64_from_usize(9223372036854775807usize - usize_from_i64(k %% 10 + 10) + 1usize);\n",
		"    let e%d = i64_from_f64(9223372036854774784.0 - f64_from_i64(k %% 4) * 1024.0);\n",
		"    let e%d = 3037000499 * (3037000499 - k %% 2);\n",
	};
	int n = 2 + pg_rnd(4);
	for (int i = 0; i < n; i++) {
		int w = pg_rnd(12);
		if (w == 5)
			pg_bp(&pg_funcs, lines[5], i, nar, nar, nar);
		else if (w == 6)
			pg_bp(&pg_funcs, lines[6], i, nar);
		else
			pg_bp(&pg_funcs, lines[w], i);
	}
	pg_bp(&pg_funcs, "    let mut t = 0;\n");
	for (int i = 0; i < n; i++)
		pg_bp(&pg_funcs, "    t = t %% 1000003 + e%d %% 1000003;\n", i);
	pg_bp(&pg_funcs, "    t\n}\n\n");
	pg_add_call_int(fn, pg_chance(90) ? pg_rnd(20) : 100000 + pg_rnd(1000));
}

/* a precondition that may fail with float/char/narrow arguments: the
 * native and Wasm detail lines render -0.0, inf, NaN, subnormals, escapes */
void pg_feat_fcontract(void)
{
	char fn[24], wr[24];
	pg_fresh("fcf", fn, sizeof fn);
	pg_fresh("fcw", wr, sizeof wr);
	pg_id_line(&pg_funcs, 0, fn);
	pg_bp(&pg_funcs, "fn %s(a: f64, b: f32, c: char, d: u8, e: usize, g: i32, h: bool) -> i64\n", fn);
	pg_bp(&pg_funcs, "    requires a < %s || h\n", pg_chance(50) ? "1.0e300" : "0.5");
	if (pg_chance(50))
		pg_bp(&pg_funcs, "    ensures result > %d\n", -pg_rnd(3));
	pg_bp(&pg_funcs, "{\n    i64_from_u8(d) + i64_from_usize(e %% 7usize) + i64_from_i32(g %% 5i32) - 1\n}\n\n");
	static const char *const fv[] = { "z", "-z", "1.0 / z", "-1.0 / z", "5.0e-324", "-2.2250738585072014e-308",
					  "1.0e300 * 1.0e10", "0.1 + 0.2", "100000000000000000000000.0", "1.0e-7", "123456789.125",
					  "f64_from_i64(k) / 3.0", "z / z" };
	static const char *const gv[] = { "0.0f32", "-0.0f32", "1.0e-45f32", "3.4028235e38f32 * 2.0f32", "16777217.0f32",
					  "0.1f32", "-1.5f32", "1.0f32 / 3.0f32" };
	pg_id_line(&pg_funcs, 0, wr);
	pg_bp(&pg_funcs, "fn %s(k: i64) -> i64\n{\n    let z = f64_from_i64(k - k);\n", wr);
	int calls = 1 + pg_rnd(2);
	pg_bp(&pg_funcs, "    let mut t = 0;\n");
	for (int i = 0; i < calls; i++) {
		int fi = pg_rnd(13);
		/* one draw per statement (argument order is unspecified in C) */
		const char *av = fv[fi == 12 && pg_chance(70) ? 0 : fi];
		pg_bp(&pg_funcs, "    t = t + %s(%s, %s, ", fn, av, gv[pg_rnd(8)]);
		char_lit(&pg_funcs);
		int du = pg_rnd(256);
		const char *eu = pg_chance(90) ? "3" : "18446744073709551615";
		const char *gs = pg_chance(20) ? "-" : "";
		int gi = pg_rnd(2147483647);
		pg_bp(&pg_funcs, ", %du8, %susize, %s%di32, %s);\n", du, eu, gs, gi, pg_chance(70) ? "true" : "k > 1000");
	}
	pg_bp(&pg_funcs, "    t\n}\n\n");
	pg_add_call_int(wr, pg_rnd(40));
}

/* Set<string>/Set<i64>/Set<bool>, Map<string, i64>/Map<bool, string> walked
 * by index in key order (unsigned UTF-8 bytes, signed i64, false < true) */
void pg_feat_keyed(void)
{
	char fn[24];
	pg_fresh("kyf", fn, sizeof fn);
	int cap = 4 + pg_rnd(4);
	pg_id_line(&pg_funcs, 0, fn);
	pg_bp(&pg_funcs, "fn %s(a: i64) -> i64\n{\n    let mut s = set_new<string>(%dusize);\n", fn, cap);
	int n = 2 + pg_rnd(cap - 1);
	for (int i = 0; i < n; i++) {
		if (pg_chance(30))
			pg_bp(&pg_funcs, "    s = set_insert<string>(s, string_from_i64(a * %d));\n", pg_rnd(30) - 15);
		else {
			pg_bp(&pg_funcs, "    s = set_insert<string>(s, ");
			pg_str_lit(&pg_funcs);
			pg_bp(&pg_funcs, ");\n");
		}
	}
	pg_bp(&pg_funcs, "    s = set_remove<string>(s, ");
	pg_str_lit(&pg_funcs);
	pg_bp(&pg_funcs, ");\n    let mut m = map_new<string, i64>(%dusize);\n", cap);
	for (int i = 0; i < n; i++) {
		pg_bp(&pg_funcs, "    m = map_%s<string, i64>(m, ", pg_chance(50) ? "add" : "set");
		pg_str_lit(&pg_funcs);
		pg_bp(&pg_funcs, ", a + %d);\n", pg_rnd(20));
	}
	pg_bp(&pg_funcs, "    let mut ns = set_new<i64>(4usize);\n");
	for (int i = 0; i < 3; i++)
		pg_bp(&pg_funcs, "    ns = set_insert<i64>(ns, %s);\n",
		      pg_chance(20) ? (pg_chance(50) ? "-9223372036854775808" : "9223372036854775807") : (pg_chance(50) ? "a - 3" : "0 - a"));
	pg_bp(&pg_funcs, "    let mut bs = set_new<bool>(2usize);\n    bs = set_insert<bool>(bs, a %% 2 == 0);\n");
	if (pg_chance(60))
		pg_bp(&pg_funcs, "    bs = set_insert<bool>(bs, a > 3);\n");
	pg_bp(&pg_funcs, "    let mut bm = map_new<bool, string>(2usize);\n    bm = map_set<bool, string>(bm, true, \"t\");\n    bm = map_set<bool, string>(bm, a > 5, string_from_i64(a));\n");
	pg_bp(&pg_funcs, "    let mut acc = 0;\n    let mut i = 0usize;\n");
	pg_bp(&pg_funcs, "    while i < set_len<string>(s) {\n        let key = set_key_at<string>(s, i);\n        acc = (acc * 7 + string_len(key) + if string_is_empty(key) { 0 } else { string_byte_at(key, 0) }) %% 1000003;\n        i = i + 1usize;\n        0\n    }\n");
	pg_bp(&pg_funcs, "    let mut j = 0usize;\n    while j < map_len<string, i64>(m) {\n        acc = (acc * 5 + string_len_chars(map_key_at<string, i64>(m, j)) + map_value_at<string, i64>(m, j)) %% 1000003;\n        j = j + 1usize;\n        0\n    }\n");
	pg_bp(&pg_funcs, "    let lo = set_key_at<i64>(ns, 0usize) %% 1000;\n    let hi = set_key_at<i64>(ns, set_len<i64>(ns) - 1usize) %% 1000;\n");
	pg_bp(&pg_funcs, "    let b0 = if set_key_at<bool>(bs, 0usize) { 1 } else { 0 } + i64_from_usize(set_len<bool>(bs)) * 2;\n");
	pg_bp(&pg_funcs, "    let bk = string_len(map_value_at<bool, string>(bm, 0usize)) + if map_key_at<bool, string>(bm, %dusize) { 10 } else { 0 };\n",
	      pg_chance(95) ? 0 : 2);
	pg_bp(&pg_funcs, "    acc + lo * 3 + hi + b0 * 100 + bk * 1000\n}\n\n");
	pg_add_call_int(fn, pg_rnd(12) - 2);
}

/* nested Option/Result, `?` inside loops with owned locals live, match own */
void pg_feat_nested(void)
{
	char nest[24], step[24], lq[24], fn[24];
	pg_fresh("nno", nest, sizeof nest);
	pg_fresh("nst", step, sizeof step);
	pg_fresh("nlq", lq, sizeof lq);
	pg_fresh("nnf", fn, sizeof fn);
	int m = 2 + pg_rnd(3);
	pg_id_line(&pg_funcs, 0, nest);
	pg_bp(&pg_funcs, "fn %s(n: i64) -> Option<Option<i64>>\n{\n    if n %% %d == 0 { Option<Option<i64>>::None {} } else { if n %% %d == 1 { Option<Option<i64>>::Some { value: Option<i64>::None {} } } else { Option<Option<i64>>::Some { value: Option<i64>::Some { value: n * %d } } } }\n}\n\n",
	      nest, m + 1, m + 1, 1 + pg_rnd(5));
	int lim = 2 + pg_rnd(6);
	pg_id_line(&pg_funcs, 0, step);
	pg_bp(&pg_funcs, "fn %s(i: i64) -> Result<Option<i64>, string>\n{\n    if i > %d { Result<Option<i64>, string>::Err { error: string_from_i64(i * 11) } } else { if i %% 3 == 2 { Result<Option<i64>, string>::Ok { value: Option<i64>::None {} } } else { Result<Option<i64>, string>::Ok { value: Option<i64>::Some { value: i * 2 } } } }\n}\n\n",
	      step, lim);
	pg_id_line(&pg_funcs, 0, lq);
	pg_bp(&pg_funcs, "fn %s(n: i64) -> Result<i64, string>\n{\n    let label = string_from_i64(n);\n    let mut i = 0;\n    let mut t = 0;\n    while i < n {\n", lq);
	pg_bp(&pg_funcs, "        let held = string_from_i64(i);\n        let v = %s(i)?;\n", step);
	/* sometimes a division by zero while `held` and `label` are live */
	if (pg_chance(30))
		pg_bp(&pg_funcs, "        t = t + 100 / (%d - i);\n", 2 + pg_rnd(8));
	pg_bp(&pg_funcs, "        t = t + string_len(held) + match v { Option::Some { value } => value, Option::None {} => -1, };\n        i = i + 1;\n        0\n    }\n");
	pg_bp(&pg_funcs, "    Result<i64, string>::Ok { value: t + string_len(label) }\n}\n\n");
	pg_id_line(&pg_funcs, 0, fn);
	pg_bp(&pg_funcs, "fn %s(a: i64) -> i64\n{\n", fn);
	pg_bp(&pg_funcs, "    let o = %s(a);\n    let nv = match o { Option::Some { value: inner } => match inner { Option::Some { value } => value, Option::None {} => 1, }, Option::None {} => 2, };\n", nest);
	int rm = 4 + pg_rnd(6);
	pg_bp(&pg_funcs, "    let r = %s(a %% %d + %d);\n", lq, rm, pg_rnd(3));
	pg_bp(&pg_funcs, "    let lv = match own r { Result::Ok { value } => value, Result::Err { error } => string_len(error) * 100, };\n");
	pg_bp(&pg_funcs, "    let os = if a %% 2 == 0 { Option<string>::Some { value: string_from_i64(a * 3) } } else { Option<string>::None {} };\n");
	pg_bp(&pg_funcs, "    let ol = match borrow os { Option::Some { value } => string_len(value), Option::None {} => 0, };\n");
	pg_bp(&pg_funcs, "    let ow = match own os { Option::Some { value } => string_len_chars(value), Option::None {} => 5, };\n");
	pg_bp(&pg_funcs, "    nv + lv * 3 + ol * 7 + ow\n}\n\n");
	pg_add_call_int(fn, pg_rnd(30));
}

/* nested closures, owning closures over Bytes, owned class upcasts,
 * inherited methods, a long `with` chain on an owned record */
void pg_feat_deep(void)
{
	char weigh[24], base[24], mid[24], leaf[24], rec[24], fn[24];
	pg_fresh("dw", weigh, sizeof weigh);
	pg_fresh("DBase", base, sizeof base);
	pg_fresh("DMid", mid, sizeof mid);
	pg_fresh("DLeaf", leaf, sizeof leaf);
	pg_fresh("DRec", rec, sizeof rec);
	pg_fresh("df", fn, sizeof fn);
	pg_id_line(&pg_decls, 0, base);
	pg_bp(&pg_decls, "class %s {\n", base);
	pg_id_linef(&pg_decls, 1, "%s.name", base);
	pg_bp(&pg_decls, "    name: string,\n\n");
	pg_id_linef(&pg_decls, 1, "%s.width", base);
	pg_bp(&pg_decls, "    fn width(self: %s) -> i64\n{\n        string_len(self.name)\n    }\n}\n\n", base);
	pg_id_line(&pg_decls, 0, mid);
	pg_bp(&pg_decls, "class %s : %s {\n", mid, base);
	pg_id_linef(&pg_decls, 1, "%s.tag", mid);
	pg_bp(&pg_decls, "    tag: string,\n\n");
	pg_id_linef(&pg_decls, 1, "%s.label", mid);
	pg_bp(&pg_decls, "    fn label(self: %s) -> i64\n{\n        string_len(self.tag) * 10 + string_len(self.name)\n    }\n}\n\n", mid);
	pg_id_line(&pg_decls, 0, leaf);
	pg_bp(&pg_decls, "class %s : %s {\n", leaf, mid);
	pg_id_linef(&pg_decls, 1, "%s.extra", leaf);
	pg_bp(&pg_decls, "    extra: Vec<i64>,\n");
	pg_id_linef(&pg_decls, 1, "%s.n", leaf);
	pg_bp(&pg_decls, "    n: i64,\n}\n\n");
	int nf = 3 + pg_rnd(3);
	char vname[5][16];
	PgField recf[6] = { { "s", "string", NULL } };
	for (int i = 0; i < nf; i++) {
		snprintf(vname[i], sizeof vname[i], "v%d", i);
		recf[1 + i] = (PgField){ vname[i], "i64", NULL };
	}
	pg_record_decl(&pg_decls, rec, "", recf, 1 + nf, NULL);
	pg_id_line(&pg_funcs, 0, weigh);
	pg_bp(&pg_funcs, "fn %s(data: own Bytes) -> i64\n{\n    i64_from_usize(byte_len(bytes_as_slice(data))) * 10 + %d\n}\n\n", weigh, pg_rnd(10));
	pg_id_line(&pg_funcs, 0, fn);
	pg_bp(&pg_funcs, "fn %s(a: i64, flag: bool) -> i64\n{\n", fn);
	/* closures within closures (each captures Copy values at construction) */
	pg_bp(&pg_funcs, "    let k = a %% 7;\n    let outer = fn(x: i64) -> i64 { let inner = fn(y: i64) -> i64 { y * %d + x + k }; inner(x + 1) + inner(k) };\n", 1 + pg_rnd(3));
	pg_bp(&pg_funcs, "    let data = bytes_zeroed(%dusize);\n    let run = own fn() -> i64 { %s(data) };\n", 1 + pg_rnd(4), weigh);
	pg_bp(&pg_funcs, "    let spare = bytes_zeroed(%dusize);\n    let idle = own fn() -> i64 { %s(spare) };\n", 1 + pg_rnd(4), weigh);
	pg_bp(&pg_funcs, "    let oc = if flag { run() } else { %s };\n", pg_chance(50) ? "idle()" : "0");
	/* owned classes: inherited methods upcast (consume) the receiver */
	pg_bp(&pg_funcs, "    let kept = %s { name: string_from_i64(a), tag: \"%s\", extra: vec_push<i64>(vec_with_capacity<i64>(1usize), a), n: a };\n",
	      leaf, pg_words[pg_rnd(PG_NWORDS)]);
	pg_bp(&pg_funcs, "    let w1 = %s { name: \"%s\", tag: string_from_i64(a * 11), extra: vec_with_capacity<i64>(0usize), n: 1 }.width();\n",
	      leaf, pg_words[pg_rnd(PG_NWORDS)]);
	pg_bp(&pg_funcs, "    let up = %s { name: string_from_i64(a + 1), tag: \"t\" };\n", mid);
	pg_bp(&pg_funcs, "    let cl = kept.label() + up.width() * 3 + w1;\n");
	/* a long `with` chain on an owned record */
	pg_bp(&pg_funcs, "    let r0 = %s { s: string_from_i64(a)", rec);
	for (int i = 0; i < nf; i++)
		pg_bp(&pg_funcs, ", v%d: %d", i, pg_rnd(10));
	pg_bp(&pg_funcs, " };\n    let r1 = r0");
	int chain = 3 + pg_rnd(6);
	for (int i = 0; i < chain; i++) {
		int f = pg_rnd(nf + 1);
		if (f == nf)
			pg_bp(&pg_funcs, " with { s: string_from_i64(a * %d) }", i + 2);
		else if (pg_chance(90))
			pg_bp(&pg_funcs, " with { v%d: a + %d }", f, i);
		else /* a failure halfway: the owned base was consumed */
		{
			int wm = 2 + pg_rnd(5);
			pg_bp(&pg_funcs, " with { v%d: 1000 / (a %% %d - %d) }", f, wm, pg_rnd(2));
		}
	}
	pg_bp(&pg_funcs, ";\n    let rs = match own r1 { %s { s, v0, v1", rec);
	for (int i = 2; i < nf; i++)
		pg_bp(&pg_funcs, ", v%d: _", i);
	pg_bp(&pg_funcs, " } => string_len(s) + v0 * 3 + v1, };\n");
	pg_bp(&pg_funcs, "    outer(a) %% 10000 + oc + cl * 7 + rs\n}\n\n");
	Buf c = { 0 };
	int ca = pg_rnd(100);
	pg_bp(&c, "%s(%d, %s)", fn, ca, pg_chance(60) ? "true" : "false");
	pg_add_call(&c);
	pg_bfree(&c);
}

/* string_format templates: escaped braces, many holes, every field kind */
void pg_feat_format(void)
{
	char fn[24], sum[24];
	pg_fresh("fmf", fn, sizeof fn);
	pg_fresh("fms", sum, sizeof sum);
	pg_id_line(&pg_funcs, 0, sum);
	pg_bp(&pg_funcs, "fn %s(s: borrow str) -> i64\n{\n    let mut i = 0usize;\n    let mut h = 0;\n    while i < byte_len(str_as_bytes(s)) {\n        h = (h * 31 + match str_byte_at(s, i) { Option::Some { value } => i64_from_u8(value), Option::None {} => 0, }) %% 1000003;\n        i = i + 1usize;\n        0\n    }\n    h * 1000 + str_len_bytes(s)\n}\n\n", sum);
	pg_id_line(&pg_funcs, 0, fn);
	pg_bp(&pg_funcs, "fn %s(a: i64, b: u8, w: string) -> i64\n{\n", fn);
	static const char *const pieces[] = { "{}", "{{", "}}", "x", " ", "-", "=", "\\n", "\\\"", "\\\\", "\\u{e9}", "{{}}" };
	static const char *const fields[] = { "a", "b", "a * -3", "usize_from_u8(b)", "a > 2", "18446744073709551615usize",
					      "-9223372036854775808", "255u8", "string_from_i64(a)", "\"\"" };
	int holes = 0;
	Buf t = { 0 }, f = { 0 };
	int np = 2 + pg_rnd(10);
	int used_w = 0;
	for (int i = 0; i < np; i++) {
		int p = pg_rnd(12);
		pg_bp(&t, "%s", pieces[p]);
		if (p == 0) {
			holes++;
			if (!used_w && pg_chance(30)) {
				pg_bp(&f, ", w");
				used_w = 1;
			} else {
				pg_bp(&f, ", %s", fields[pg_rnd(10)]);
			}
		}
	}
	pg_bp(&pg_funcs, "    let line = string_format(\"%s\"%s);\n", t.p, f.p ? f.p : "");
	(void)holes;
	if (!used_w)
		pg_bp(&pg_funcs, "    let wl = string_len(w);\n");
	else
		pg_bp(&pg_funcs, "    let wl = 0;\n");
	pg_bp(&pg_funcs, "    %s(string_as_str(line)) + wl\n}\n\n", sum);
	pg_bfree(&t);
	pg_bfree(&f);
	Buf c = { 0 };
	int ca = pg_rnd(20) - 5;
	pg_bp(&c, "%s(%d, %du8, ", fn, ca, pg_rnd(256));
	pg_str_lit(&c);
	pg_bp(&c, ")");
	pg_add_call(&c);
	pg_bfree(&c);
}
