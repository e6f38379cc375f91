/*
 * progen_feat3.c — the third set of feature templates of the random program
 * generator (tools/progen.c; progen_feat.c and progen_feat2.c hold the
 * others): closures of every scalar type over random captures (called in
 * loops, through generic higher-order functions, from record fields and as
 * returned function values), generic user variants and generic records with
 * owned fields, nested Copy records with nested patterns and `with`, Vecs of
 * records and variants, `vec_clear`/`vec_reserve_exact`, `?` through nested
 * Result/Option calls inside loops with `ensures` clauses that may fail, and
 * deep owned aggregates (records holding records, Vec, Box and Map; variants
 * holding boxed recursion) released on a failure halfway.  Same rules as the
 * other template files: well-typed, terminating, deterministic per seed; a
 * run-time failure is allowed (the lanes must agree on it).
 */
#include "progen.h"

#include <stdio.h>
#include <string.h>

/* a fresh name for a binding */
static void fresh(char *buf, size_t cap, const char *prefix)
{
	pg_fresh(prefix, buf, cap);
}

/* the i64 view of `e` of scalar type t, appended to b */
static void to_i64(Buf *b, int t, const char *e)
{
	Buf v = { 0 };
	pg_to_i64(&v, t, e);
	pg_bp(b, "%s", v.p);
	pg_bfree(&v);
}

/* a random expression of type t as its own string (caller frees) */
static Buf expr_buf(int t, int depth)
{
	Buf e = { 0 };
	pg_expr(&e, t, depth);
	return e;
}

/* closures of random scalar types over random captures */
void pg_feat_lambda(void)
{
	char fn[24], ho[24], mk[24], fbox[24], cl[24], st[24];
	fresh(fn, sizeof fn, "lmf");
	fresh(ho, sizeof ho, "lmho");
	fresh(mk, sizeof mk, "lmmk");
	fresh(fbox, sizeof fbox, "LmBox");
	fresh(cl, sizeof cl, "cl");
	fresh(st, sizeof st, "st");
	int ct = pg_rand_ty(); /* the captured parameter's type */
	int np = 1 + pg_rnd(3), pty[3];
	for (int i = 0; i < np; i++)
		pty[i] = pg_rand_ty();
	int rt = pg_rand_ty(); /* the closure's result */
	int ut = pg_rand_ty(); /* the unary closure's type, fn(ut) -> ut */
	/* a record carrying a function value */
	char fnt[40];
	snprintf(fnt, sizeof fnt, "fn(%s) -> %s", pg_ty_name[ut], pg_ty_name[ut]);
	const PgField fboxf[] = { { "f", fnt, NULL }, { "k", "i64", NULL } };
	pg_record_decl(&pg_decls, fbox, "", fboxf, 2, NULL);
	/* a generic higher-order function (no loop: a template body) */
	pg_id_line(&pg_funcs, 0, ho);
	pg_bp(&pg_funcs, "fn %s<T>(f: fn(T) -> T, x: T, twice: bool) -> T\n{\n    if twice { f(f(x)) } else { f(x) }\n}\n\n", ho);
	/* a function returning a closure over its parameter */
	pg_id_line(&pg_funcs, 0, mk);
	pg_bp(&pg_funcs, "fn %s(k: %s) -> fn(%s) -> %s\n{\n    fn(v: %s) -> %s { ", mk, pg_ty_name[ut], pg_ty_name[ut], pg_ty_name[ut],
	      pg_ty_name[ut], pg_ty_name[ut]);
	pg_nvars = 0;
	pg_push_var("k", ut, 0);
	pg_push_var("v", ut, 0);
	pg_expr(&pg_funcs, ut, 2);
	pg_bp(&pg_funcs, " }\n}\n\n");

	Buf b = { 0 };
	pg_id_line(&b, 0, fn);
	pg_bp(&b, "fn %s(a: i64, c: %s) -> i64\n{\n", fn, pg_ty_name[ct]);
	pg_nvars = 0;
	pg_push_var("a", T_I64, 0);
	pg_push_var("c", ct, 0);
	for (int i = pg_rnd(3); i > 0; i--)
		pg_stmt(&b, 1, 2, 3);
	int outer = pg_nvars;
	/* the closure: its parameters, maybe a local, a result over captures */
	pg_bp(&b, "    let %s = fn(", cl);
	char pn[3][24];
	for (int i = 0; i < np; i++) {
		fresh(pn[i], sizeof pn[i], "q");
		pg_bp(&b, "%s%s: %s", i ? ", " : "", pn[i], pg_ty_name[pty[i]]);
	}
	pg_bp(&b, ") -> %s {", pg_ty_name[rt]);
	for (int i = 0; i < np; i++)
		pg_push_var(pn[i], pty[i], 0);
	if (pg_chance(40)) {
		char w[24];
		int wt = pg_rand_ty();
		fresh(w, sizeof w, "w");
		pg_bp(&b, " let %s = ", w);
		pg_expr(&b, wt, 2);
		pg_bp(&b, ";");
		pg_push_var(w, wt, 0);
	}
	pg_bp(&b, " ");
	pg_expr(&b, rt, 3);
	pg_bp(&b, " };\n");
	pg_nvars = outer;
	/* the unary closure for the generic function and the record */
	char uv[24];
	fresh(uv, sizeof uv, "u");
	pg_bp(&b, "    let %s = fn(%s: %s) -> %s { ", st, uv, pg_ty_name[ut], pg_ty_name[ut]);
	pg_push_var(uv, ut, 0);
	pg_expr(&b, ut, 2);
	pg_nvars = outer;
	pg_bp(&b, " };\n");
	/* a later store to a captured `let mut`: the closures keep their copy */
	for (int i = pg_rnd(3); i > 0; i--)
		pg_stmt(&b, 1, 2, 0);
	pg_nvars = outer;
	/* called in a loop with the counter in its arguments */
	int trips = 1 + pg_rnd(4);
	pg_bp(&b, "    let mut acc = 0;\n    let mut i = 0;\n    while i < %d {\n        let r = %s(", trips, cl);
	pg_push_var("i", T_I64, 0);
	for (int i = 0; i < np; i++) {
		if (i)
			pg_bp(&b, ", ");
		pg_expr(&b, pty[i], 2);
	}
	pg_bp(&b, ");\n        acc = (acc + ");
	to_i64(&b, rt, "r");
	pg_bp(&b, ") %% 1000003;\n        i = i + 1;\n        0\n    }\n");
	pg_nvars = outer;
	/* the generic function, the record field, the made closure */
	pg_bp(&b, "    let fb = %s { k: a %% 10, f: %s };\n    let g = fb.f;\n", fbox, st);
	Buf e1 = expr_buf(ut, 1), e2 = expr_buf(ut, 1), e3 = expr_buf(ut, 1);
	pg_bp(&b, "    let h1 = %s<%s>(%s, %s, a > %d);\n", ho, pg_ty_name[ut], st, e1.p, pg_rnd(10));
	pg_bp(&b, "    let h2 = g(%s);\n", e2.p);
	pg_bp(&b, "    let made = %s(%s);\n", mk, e3.p);
	pg_bp(&b, "    let h3 = %s<%s>(made, h1, %s);\n", ho, pg_ty_name[ut], pg_chance(50) ? "true" : "false");
	pg_bfree(&e1);
	pg_bfree(&e2);
	pg_bfree(&e3);
	pg_bp(&b, "    acc + fb.k + ");
	to_i64(&b, ut, "h1");
	pg_bp(&b, " %% 1000 + ");
	to_i64(&b, ut, "h2");
	pg_bp(&b, " %% 1000 + ");
	to_i64(&b, ut, "h3");
	pg_bp(&b, " %% 1000\n}\n\n");
	pg_bcat(&pg_funcs, &b);
	pg_bfree(&b);
	pg_nvars = 0;
	Buf c = { 0 }, l = { 0 };
	pg_lit(&l, ct);
	pg_bp(&c, "%s(%d, %s)", fn, pg_rnd(30) - 5, l.p);
	pg_add_call(&c);
	pg_bfree(&c);
	pg_bfree(&l);
}

/* a generic user variant at a random scalar type and at `string`, a
 * generic record with an owned field, nested generic instances */
void pg_feat_gvariant(void)
{
	char gv[24], gr[24], first[24], kind[24], slen[24], gtake[24], fn[24];
	fresh(gv, sizeof gv, "GVar");
	fresh(gr, sizeof gr, "GRec");
	fresh(first, sizeof first, "gvfirst");
	fresh(kind, sizeof kind, "gvkind");
	fresh(slen, sizeof slen, "gvslen");
	fresh(gtake, sizeof gtake, "grtake");
	fresh(fn, sizeof fn, "gvf");
	static const PgField onef[] = { { "v", "T", NULL } }, twof[] = { { "a", "T", NULL }, { "b", "T", NULL } };
	static const PgCase gvc[] = { { "Zero", NULL, 0 }, { "One", onef, 1 }, { "Two", twof, 2 } };
	static const PgField grf[] = { { "item", "T", NULL }, { "name", "string", NULL } };
	pg_variant_decl(&pg_decls, gv, "<T>", gvc, 3);
	pg_record_decl(&pg_decls, gr, "<T>", grf, 2, NULL);
	int takeb = pg_chance(50);
	pg_id_line(&pg_funcs, 0, first);
	pg_bp(&pg_funcs, "fn %s<T>(g: %s<T>, d: T) -> T\n{\n    match g { %s::Zero {} => d, %s::One { v } => v, %s::Two { a%s, b%s } => %s, }\n}\n\n",
	      first, gv, gv, gv, gv, takeb ? ": _" : "", takeb ? "" : ": _", takeb ? "b" : "a");
	int k2 = 2 + pg_rnd(5), k0 = pg_rnd(3);
	int k1 = 7 + pg_rnd(3);
	pg_id_line(&pg_funcs, 0, kind);
	pg_bp(&pg_funcs, "fn %s<T>(g: %s<T>) -> i64\n{\n    match g { %s::Two { a: _, b: _ } => %d, %s::Zero {} => %d, _ => %d, }\n}\n\n",
	      kind, gv, gv, k2, gv, k0, k1);
	pg_id_line(&pg_funcs, 0, slen);
	pg_bp(&pg_funcs, "fn %s(g: own %s<string>) -> i64\n{\n    match own g { %s::Zero {} => -1, %s::One { v } => string_len(v), %s::Two { a, b } => string_len(a) * 10 + string_len_chars(b), }\n}\n\n",
	      slen, gv, gv, gv, gv);
	pg_id_line(&pg_funcs, 0, gtake);
	pg_bp(&pg_funcs, "fn %s<T>(r: own %s<T>, d: T) -> T\n{\n    match own r { %s { item, name } => if string_len(name) > %d { item } else { d }, }\n}\n\n",
	      gtake, gr, gr, pg_rnd(4));
	int t = pg_rand_ty();
	const char *tn = pg_ty_name[t];
	pg_id_line(&pg_funcs, 0, fn);
	pg_bp(&pg_funcs, "fn %s(n: i64) -> i64\n{\n", fn);
	pg_nvars = 0;
	pg_push_var("n", T_I64, 0);
	Buf e1 = expr_buf(t, 2), e2 = expr_buf(t, 2), e3 = expr_buf(t, 2);
	pg_bp(&pg_funcs, "    let x = if n %% 3 == 0 { %s<%s>::Zero {} } else if n %% 3 == 1 { %s<%s>::One { v: %s } } else { %s<%s>::Two { a: %s, b: %s } };\n",
	      gv, tn, gv, tn, e1.p, gv, tn, e2.p, e3.p);
	pg_bfree(&e1);
	pg_bfree(&e2);
	pg_bfree(&e3);
	/* a guarded arm on the payload: a simple guard (T254 rules) */
	char pv[24];
	fresh(pv, sizeof pv, "pv");
	pg_bp(&pg_funcs, "    let gm = match x { %s::One { v: %s } if ", gv, pv);
	int saved = pg_nvars;
	pg_push_var(pv, t, 0);
	pg_simple = 1;
	pg_expr(&pg_funcs, T_BOOL, 2);
	pg_simple = 0;
	pg_bp(&pg_funcs, " => ");
	to_i64(&pg_funcs, t, pv);
	pg_nvars = saved;
	pg_bp(&pg_funcs, " %% 1000, %s::Two { a: _, b } => ", gv);
	to_i64(&pg_funcs, t, "b");
	pg_bp(&pg_funcs, " %% 1000 + 1, _ => %d, };\n", pg_rnd(50));
	/* nested generic instances: Option of the variant, the variant of Option */
	Buf l = { 0 };
	pg_lit(&l, t);
	pg_bp(&pg_funcs, "    let ox = if n > %d { Option<%s<%s>>::Some { value: x } } else { Option<%s<%s>>::None {} };\n", pg_rnd(10), gv, tn, gv, tn);
	pg_bp(&pg_funcs, "    let inner = match ox { Option::Some { value } => %s<%s>(value), Option::None {} => -3, };\n", kind, tn);
	pg_bp(&pg_funcs, "    let vo = %s<Option<i64>>::One { v: if n > %d { Option<i64>::Some { value: n } } else { Option<i64>::None {} } };\n", gv, pg_rnd(12));
	pg_bp(&pg_funcs, "    let vi = match %s<Option<i64>>(vo, Option<i64>::Some { value: 5 }) { Option::Some { value } => value, Option::None {} => 77, };\n", first);
	pg_bp(&pg_funcs, "    let fx = %s<%s>(x, %s);\n", first, tn, l.p);
	pg_bfree(&l);
	/* the owned instances */
	static const char *const sv[] = { "string_from_i64(n)", "\"ab\"", "\"h\\u{e9}llo\"", "string_from_i64(n * n)", "\"\"" };
	switch (pg_rnd(3)) {
	case 0:
		pg_bp(&pg_funcs, "    let s = %s<string>::Zero {};\n", gv);
		break;
	case 1:
		pg_bp(&pg_funcs, "    let s = %s<string>::One { v: %s };\n", gv, sv[pg_rnd(5)]);
		break;
	default: {
		int s0 = pg_rnd(5), s1 = pg_rnd(5);
		pg_bp(&pg_funcs, "    let s = %s<string>::Two { a: %s, b: %s };\n", gv, sv[s0], sv[s1]);
	}
	}
	Buf e4 = expr_buf(t, 1), e5 = expr_buf(t, 1);
	int nm = pg_rnd(5);
	pg_bp(&pg_funcs, "    let r = %s<%s> { name: %s, item: %s };\n", gr, tn, sv[nm], e4.p);
	pg_bp(&pg_funcs, "    let ri = %s<%s>(r, %s);\n", gtake, tn, e5.p);
	pg_bfree(&e4);
	pg_bfree(&e5);
	pg_bp(&pg_funcs, "    let rs = %s<string>(%s<string> { item: string_from_i64(n + 1), name: \"nm\" }, \"dflt\");\n", gtake, gr);
	pg_bp(&pg_funcs, "    gm + inner * 10 + vi %% 1000 + %s(s) * 7 + string_len(rs) + ", slen);
	to_i64(&pg_funcs, t, "fx");
	pg_bp(&pg_funcs, " %% 1000 + ");
	to_i64(&pg_funcs, t, "ri");
	pg_bp(&pg_funcs, " %% 1000\n}\n\n");
	pg_add_call_int(fn, pg_rnd(20));
}

/* nested Copy records, nested patterns and `with`, a variant carrying a
 * record, Vecs of records and of variants, vec_clear and vec_reserve_exact */
void pg_feat_nestrec(void)
{
	char in[24], out[24], sh[24], fn[24];
	fresh(in, sizeof in, "NIn");
	fresh(out, sizeof out, "NOut");
	fresh(sh, sizeof sh, "NSh");
	fresh(fn, sizeof fn, "nrf");
	int xt = pg_rand_ty(), kt = pg_rand_ty();
	const PgField inf[] = { { "x", pg_ty_name[xt], NULL }, { "y", "i64", NULL } };
	const PgField outf[] = { { "i", in, NULL }, { "k", pg_ty_name[kt], NULL }, { "j", in, NULL } };
	pg_record_decl(&pg_decls, in, "", inf, 2, NULL);
	int inv = pg_chance(30);
	char req[40];
	if (inv)
		snprintf(req, sizeof req, "i.y <= j.y + %d", pg_rnd(40));
	pg_record_decl(&pg_decls, out, "", outf, 3, inv ? req : NULL);
	const PgField heldf[] = { { "o", out, NULL } }, labf[] = { { "i", in, NULL }, { "c", "char", NULL } };
	const PgCase shc[] = { { "Dot", NULL, 0 }, { "Held", heldf, 1 }, { "Lab", labf, 2 } };
	pg_variant_decl(&pg_decls, sh, "", shc, 3);

	pg_id_line(&pg_funcs, 0, fn);
	pg_bp(&pg_funcs, "fn %s(a: i64) -> i64\n{\n", fn);
	pg_nvars = 0;
	pg_push_var("a", T_I64, 0);
	Buf x0 = expr_buf(xt, 1), x1 = expr_buf(xt, 1), k0 = expr_buf(kt, 1), k1 = expr_buf(kt, 1);
	int y0 = pg_rnd(20), y1 = pg_rnd(60);
	pg_bp(&pg_funcs, "    let o = %s { i: %s { x: %s, y: a + %d }, k: %s, j: %s { y: a * 2 + %d, x: %s } };\n", out, in, x0.p, y0, k0.p, in, y1, x1.p);
	/* nested `with` (the inner base is a projection) and a field store */
	pg_bp(&pg_funcs, "    let o2 = o with { j: o.i with { y: a * %d }, k: %s };\n", 1 + pg_rnd(3), k1.p);
	pg_bfree(&x0);
	pg_bfree(&x1);
	pg_bfree(&k0);
	pg_bfree(&k1);
	pg_bp(&pg_funcs, "    let mut o3 = o2;\n    o3.k = o.k;\n");
	/* a nested record pattern: a sub-record bound whole, one destructured */
	pg_bp(&pg_funcs, "    let z = match o3 { %s { i: %s { x: _, y }, k: _, j: jj } => y + jj.y, };\n", out, in);
	/* a Vec of records; maybe one push past the capacity (vec.v1/1) */
	int cap = 2 + pg_rnd(3);
	int n = pg_chance(96) ? cap - pg_rnd(2) : cap + 1;
	pg_bp(&pg_funcs, "    let mut v = vec_with_capacity<%s>(%dusize);\n", out, cap);
	for (int i = 0; i < n; i++)
		pg_bp(&pg_funcs, "    v = vec_push<%s>(v, %s);\n", out, i % 3 == 0 ? "o" : i % 3 == 1 ? "o2" : "o3");
	pg_bp(&pg_funcs, "    v = vec_set<%s>(v, %dusize, o3 with { k: o.k });\n", out, pg_chance(97) ? pg_rnd(n) : n);
	pg_bp(&pg_funcs, "    let fv = v;\n    let mut acc = z;\n    for it in fv {\n        acc = (acc * 3 + it.i.y + it.j.y %% 100 + ");
	to_i64(&pg_funcs, kt, "it.k");
	pg_bp(&pg_funcs, " %% 10) %% 1000003;\n        0\n    }\n");
	pg_bp(&pg_funcs, "    let got = vec_get<%s>(fv, %dusize);\n", out, pg_rnd(n));
	/* a Vec of variants matched in a loop */
	pg_bp(&pg_funcs, "    let mut sv = vec_with_capacity<%s>(3usize);\n", sh);
	pg_bp(&pg_funcs, "    sv = vec_push<%s>(sv, %s::Held { o: got });\n", sh, sh);
	pg_bp(&pg_funcs, "    sv = vec_push<%s>(sv, %s::Lab { c: ", sh, sh);
	pg_lit(&pg_funcs, T_CHAR);
	pg_bp(&pg_funcs, ", i: got.j });\n");
	if (pg_chance(60))
		pg_bp(&pg_funcs, "    sv = vec_push<%s>(sv, %s::Dot {});\n", sh, sh);
	pg_bp(&pg_funcs, "    let fs = sv;\n    for s in fs {\n        acc = acc + match s { %s::Held { o: %s { i: ii, k: _, j: _ } } => ii.y %% 50, %s::Lab { i, c } => if c > 'm' { i.y %% 7 } else { 3 }, %s::Dot {} => 1, };\n        0\n    }\n",
	      sh, out, sh, sh);
	/* clear and reserve: maybe past the 8192 limit (vec.v1/3) */
	pg_bp(&pg_funcs, "    let mut w = vec_with_capacity<i64>(2usize);\n    w = vec_push<i64>(w, a);\n    w = vec_clear<i64>(w);\n");
	pg_bp(&pg_funcs, "    w = vec_reserve_exact<i64>(w, %dusize);\n", pg_chance(95) ? 1 + pg_rnd(5) : 8190 + pg_rnd(5));
	pg_bp(&pg_funcs, "    w = vec_push<i64>(w, a + 1);\n");
	pg_bp(&pg_funcs, "    acc + i64_from_usize(vec_len<i64>(w) * 10usize + vec_capacity<i64>(w)) + vec_get<i64>(w, 0usize)\n}\n\n");
	pg_add_call_int(fn, pg_rnd(30) - 5);
}

/* `?` through nested Result/Option calls, inside loops, with owned
 * payloads live, and `ensures` clauses over the carrier that may fail */
void pg_feat_qchain(void)
{
	char rec[24], q0[24], q1[24], q2[24], q3[24], fn[24];
	fresh(rec, sizeof rec, "QRec");
	fresh(q0, sizeof q0, "qz");
	fresh(q1, sizeof q1, "qa");
	fresh(q2, sizeof q2, "qb");
	fresh(q3, sizeof q3, "qo");
	fresh(fn, sizeof fn, "qf");
	static const PgField recf[] = { { "s", "string", NULL }, { "n", "i64", NULL } };
	pg_record_decl(&pg_decls, rec, "", recf, 2, NULL);
	int m = 3 + pg_rnd(5);
	int qr = pg_rnd(m);
	pg_id_line(&pg_funcs, 0, q0);
	pg_bp(&pg_funcs, "fn %s(k: i64) -> Result<%s, string>\n{\n    if k %% %d == %d { Result<%s, string>::Err { error: string_from_i64(k) } } else { Result<%s, string>::Ok { value: %s { s: string_from_i64(k * 7), n: k } } }\n}\n\n",
	      q0, rec, m, qr, rec, rec, rec);
	/* an ensures over the Result, borrowed; maybe false */
	int lim = 40 + pg_rnd(400);
	pg_id_line(&pg_funcs, 0, q1);
	pg_bp(&pg_funcs, "fn %s(k: i64, len: i64) -> Result<i64, string>\n", q1);
	if (pg_chance(50))
		pg_bp(&pg_funcs, "    requires len >= 0\n");
	if (pg_chance(60))
		pg_bp(&pg_funcs, "    ensures match borrow result { Result::Ok { value } => value < %d, Result::Err { error } => string_len(error) < %d, }\n",
		      lim, 2 + pg_rnd(3));
	pg_bp(&pg_funcs, "{\n    let a = %s(k)?;\n    let held = string_from_i64(len);\n", q0);
	pg_bp(&pg_funcs, "    let mut v = vec_with_capacity<i64>(4usize);\n    let mut i = 0;\n    while i < len %% 4 {\n        v = vec_push<i64>(v, a.n + i);\n        i = i + 1;\n        0\n    }\n");
	pg_bp(&pg_funcs, "    let fv = v;\n    let mut t = 0;\n    for x in fv {\n        let c = %s(x + %d)?;\n        t = t + string_len(c.s) + c.n %% 10;\n        0\n    }\n", q0, pg_rnd(3));
	pg_bp(&pg_funcs, "    let b = %s(a.n + %d)?;\n", q0, 1 + pg_rnd(3));
	pg_bp(&pg_funcs, "    Result<i64, string>::Ok { value: t + string_len(a.s) + string_len(held) + b.n }\n}\n\n");
	/* Option `?` over a converted Result, and an ensures over an Option */
	pg_id_line(&pg_funcs, 0, q3);
	pg_bp(&pg_funcs, "fn %s(k: i64) -> Option<i64>\n", q3);
	if (pg_chance(40))
		pg_bp(&pg_funcs, "    ensures match result { Option::Some { value } => value != %d, Option::None {} => true, }\n", pg_rnd(30));
	pg_bp(&pg_funcs, "{\n    let r = %s(k, k %% 5);\n", q1);
	pg_bp(&pg_funcs, "    let o = match own r { Result::Ok { value } => Option<i64>::Some { value: value }, Result::Err { error } => if string_len(error) > 1 { Option<i64>::None {} } else { Option<i64>::Some { value: %d } }, };\n",
	      pg_rnd(9));
	pg_bp(&pg_funcs, "    let w = o?;\n    let p = if w > %d { Option<i64>::Some { value: w - 1 } } else { Option<i64>::None {} };\n", pg_rnd(20));
	pg_bp(&pg_funcs, "    Option<i64>::Some { value: p? + 1 }\n}\n\n");
	/* the outer Result chain: a nested call's `?` and a match own */
	pg_id_line(&pg_funcs, 0, q2);
	pg_bp(&pg_funcs, "fn %s(k: i64) -> Result<%s, string>\n{\n    let keep = %s { s: \"k\", n: k };\n", q2, rec, rec);
	pg_bp(&pg_funcs, "    let kn = keep.n;\n    let x = %s(%s(k, %d)?, 2)?;\n", q1, q1, pg_rnd(6));
	pg_bp(&pg_funcs, "    Result<%s, string>::Ok { value: keep with { n: x + kn } }\n}\n\n", rec);
	pg_id_line(&pg_funcs, 0, fn);
	pg_bp(&pg_funcs, "fn %s(a: i64) -> i64\n{\n    let mut t = 0;\n    let mut i = 0;\n    while i < %d {\n", fn, 2 + pg_rnd(4));
	pg_bp(&pg_funcs, "        t = t + match %s(a + i) { Option::Some { value } => value %% 1000, Option::None {} => -1, };\n", q3);
	pg_bp(&pg_funcs, "        t = t + match own %s(a * 3 + i) { Result::Ok { value } => value.n %% 1000 + string_len(value.s), Result::Err { error } => string_len(error) * 3, };\n", q2);
	pg_bp(&pg_funcs, "        i = i + 1;\n        0\n    }\n    t\n}\n\n");
	pg_add_call_int(fn, pg_rnd(40));
}

/* deep owned aggregates: a record of a record, a Vec, a Box and a Map; a
 * recursive variant through Box with owned payloads; failures halfway */
void pg_feat_owndeep(void)
{
	char nm[24], hold[24], tr[24], walk[24], fn[24];
	fresh(nm, sizeof nm, "ONm");
	fresh(hold, sizeof hold, "OHold");
	fresh(tr, sizeof tr, "OTr");
	fresh(walk, sizeof walk, "otw");
	fresh(fn, sizeof fn, "odf");
	char boxnm[32], boxtr[32];
	snprintf(boxnm, sizeof boxnm, "Box<%s>", nm);
	snprintf(boxtr, sizeof boxtr, "Box<%s>", tr);
	static const PgField nmf[] = { { "s", "string", NULL }, { "n", "i64", NULL } };
	const PgField holdf[] = { { "a", nm, NULL }, { "tags", "Vec<string>", NULL }, { "b", boxnm, NULL }, { "m", "Map<string, i64>", NULL } };
	const PgField leaff[] = { { "v", nm, NULL } }, pairf[] = { { "l", boxtr, NULL }, { "r", boxtr, NULL } };
	static const PgField manyf[] = { { "items", "Vec<i64>", NULL }, { "tag", "Option<string>", NULL } };
	const PgCase trc[] = { { "Leaf", leaff, 1 }, { "Pair", pairf, 2 }, { "Many", manyf, 2 } };
	pg_record_decl(&pg_decls, nm, "", nmf, 2, NULL);
	pg_record_decl(&pg_decls, hold, "", holdf, 4, NULL);
	pg_variant_decl(&pg_decls, tr, "", trc, 3);
	/* a walk that may divide by zero deep in the tree (owned halves live) */
	int dv = pg_chance(25);
	pg_id_line(&pg_funcs, 0, walk);
	pg_bp(&pg_funcs, "fn %s(t: own %s, d: i64) -> i64\n{\n    match own t {\n", walk, tr);
	pg_bp(&pg_funcs, "        %s::Leaf { v } => string_len(v.s) + v.n %s d,\n", tr, dv ? "/" : "*");
	int pm = 1 + pg_rnd(3);
	const char *pd = pg_chance(50) ? "-" : "+";
	pg_bp(&pg_funcs, "        %s::Pair { l, r } => %s(box_into_inner<%s>(l), d - 1) * %d + %s(box_into_inner<%s>(r), d %s 1),\n", tr, walk, tr,
	      pm, walk, tr, pd);
	pg_bp(&pg_funcs, "        %s::Many { items, tag } => i64_from_usize(vec_len<i64>(items)) + match own tag { Option::Some { value } => string_len(value), Option::None {} => 0, },\n    }\n}\n\n", tr);
	pg_id_line(&pg_funcs, 0, fn);
	pg_bp(&pg_funcs, "fn %s(k: i64) -> i64\n{\n", fn);
	pg_bp(&pg_funcs, "    let mut tags = vec_with_capacity<string>(3usize);\n    tags = vec_push<string>(tags, string_from_i64(k));\n");
	if (pg_chance(50))
		pg_bp(&pg_funcs, "    tags = vec_push<string>(tags, \"%s\");\n", pg_words[pg_rnd(PG_NWORDS)]);
	pg_bp(&pg_funcs, "    let mut m = map_new<string, i64>(2usize);\n    m = map_set<string, i64>(m, \"k\", k);\n");
	pg_bp(&pg_funcs, "    let h = %s { a: %s { s: \"%s\", n: k }, tags: tags, b: box_new<%s>(%s { s: string_from_i64(k * 100), n: 1 }), m: m };\n",
	      hold, nm, pg_words[pg_rnd(PG_NWORDS)], nm, nm);
	int wd = 1 + pg_rnd(4);
	const char *hn = pg_chance(20) ? "100 / (k % 4 - 1)" : "k + 1";
	const char *hm = pg_chance(40) ? ", m: map_new<string, i64>(1usize)" : "";
	pg_bp(&pg_funcs, "    let h2 = h with { a: %s { s: \"q\", n: %s }%s };\n", nm, hn, hm);
	pg_bp(&pg_funcs, "    let hv = match own h2 { %s { a, tags: tg, b, m: mm } => a.n + i64_from_usize(vec_len<string>(tg) + map_len<string, i64>(mm)) + string_len(box_into_inner<%s>(b).s), };\n",
	      hold, nm);
	/* a random tree of owned leaves */
	pg_bp(&pg_funcs, "    let mut it = vec_with_capacity<i64>(2usize);\n    it = vec_push<i64>(it, k);\n");
	const char *tw = pg_words[pg_rnd(4)];
	const char *tt = pg_chance(50) ? "Option<string>::Some { value: string_from_i64(k * 3) }" : "Option<string>::None {}";
	int tn = pg_rnd(9);
	pg_bp(&pg_funcs, "    let t = %s::Pair { l: box_new<%s>(%s::Leaf { v: %s { s: \"%s\", n: k } }), r: box_new<%s>(%s::Pair { l: box_new<%s>(%s::Many { items: it, tag: %s }), r: box_new<%s>(%s::Leaf { v: %s { s: string_from_i64(k), n: %d } }) }) };\n",
	      tr, tr, tr, nm, tw, tr, tr, tr, tr, tt, tr, tr, nm, tn);
	pg_bp(&pg_funcs, "    hv + %s(t, k %% %d + %d)\n}\n\n", walk, wd + 2, dv ? 1 : 0);
	pg_add_call_int(fn, pg_rnd(20));
}

/* a key of type kt (0 string, 1 i64, 2 bool) over the i64 `a` */
static void map_key(Buf *b, int kt)
{
	static const char *const ks[] = { "\"k\"", "\"\"", "\"h\\u{e9}\"", "\"ab\"", "string_from_i64(a)", "string_from_i64(a % 3)" };
	static const char *const ki[] = { "a", "0 - a", "a % 3", "7", "-9223372036854775808", "9223372036854775807", "a * 2" };
	if (kt == 0)
		pg_bp(b, "%s", ks[pg_rnd(6)]);
	else if (kt == 1)
		pg_bp(b, "%s", ki[pg_rnd(7)]);
	else
		pg_bp(b, "%s", pg_chance(50) ? "a > 3" : (pg_chance(50) ? "true" : "false"));
}

/* Map<K, V> and Set<K> over every key kind and value type: set, add,
 * remove, lookups, walks by index; capacity and index failures, map_add
 * overflow */
void pg_feat_mapx(void)
{
	static const char *const kn[] = { "string", "i64", "bool" };
	char fn[24];
	fresh(fn, sizeof fn, "mxf");
	int kt = pg_rnd(3);
	int vt = pg_chance(25) ? -1 : pg_rand_ty(); /* -1: string values */
	const char *k = kn[kt];
	const char *v = vt < 0 ? "string" : pg_ty_name[vt];
	int cap = 1 + pg_rnd(4);
	pg_id_line(&pg_funcs, 0, fn);
	pg_bp(&pg_funcs, "fn %s(a: i64) -> i64\n{\n    let mut m = map_new<%s, %s>(%dusize);\n", fn, k, v, cap);
	pg_nvars = 0;
	pg_push_var("a", T_I64, 0);
	int ops = 2 + pg_rnd(5);
	for (int i = 0; i < ops; i++) {
		int op = pg_rnd(10);
		/* the first update adds unless --empty-remove (progen.c) */
		if (i == 0 && op >= 8 && !pg_opt_empty_remove)
			op = 0;
		if (op < 6 || (op < 8 && vt != T_I64)) {
			pg_bp(&pg_funcs, "    m = map_set<%s, %s>(m, ", k, v);
			map_key(&pg_funcs, kt);
			pg_bp(&pg_funcs, ", ");
			if (vt < 0)
				pg_str_lit(&pg_funcs);
			else
				pg_expr(&pg_funcs, vt, 1);
			pg_bp(&pg_funcs, ");\n");
		} else if (op < 8) {
			pg_bp(&pg_funcs, "    m = map_add<%s, i64>(m, ", k);
			map_key(&pg_funcs, kt);
			pg_bp(&pg_funcs, ", %s);\n", pg_chance(10) ? "9223372036854775807" : "a + 1");
		} else {
			pg_bp(&pg_funcs, "    m = map_remove<%s, %s>(m, ", k, v);
			map_key(&pg_funcs, kt);
			pg_bp(&pg_funcs, ");\n");
		}
	}
	pg_bp(&pg_funcs, "    let mut s = set_new<%s>(%dusize);\n", k, cap);
	for (int i = 1 + pg_rnd(3), first = 1; i > 0; i--, first = 0) {
		int ins = pg_chance(75) || (first && !pg_opt_empty_remove);
		pg_bp(&pg_funcs, "    s = set_%s<%s>(s, ", ins ? "insert" : "remove", k);
		map_key(&pg_funcs, kt);
		pg_bp(&pg_funcs, ");\n");
	}
	pg_bp(&pg_funcs, "    let mut acc = i64_from_usize(map_len<%s, %s>(m)) * 100 + i64_from_usize(set_len<%s>(s));\n", k, v, k);
	pg_bp(&pg_funcs, "    let mut i = 0usize;\n    while i < map_len<%s, %s>(m) {\n", k, v);
	pg_bp(&pg_funcs, "        let vv = map_value_at<%s, %s>(m, i);\n        acc = (acc * 7 + ", k, v);
	if (vt < 0)
		pg_bp(&pg_funcs, "string_len(vv)");
	else
		to_i64(&pg_funcs, vt, "vv");
	pg_bp(&pg_funcs, " %% 1000) %% 1000003;\n");
	if (kt == 0)
		pg_bp(&pg_funcs, "        acc = acc + string_len(map_key_at<%s, %s>(m, i));\n", k, v);
	else if (kt == 1)
		pg_bp(&pg_funcs, "        acc = acc + map_key_at<%s, %s>(m, i) %% 100;\n", k, v);
	else
		pg_bp(&pg_funcs, "        acc = acc + if map_key_at<%s, %s>(m, i) { 1 } else { 2 };\n", k, v);
	pg_bp(&pg_funcs, "        i = i + 1usize;\n        0\n    }\n");
	pg_bp(&pg_funcs, "    let h = if map_has<%s, %s>(m, ", k, v);
	map_key(&pg_funcs, kt);
	pg_bp(&pg_funcs, ") { 1 } else { 0 } + if set_has<%s>(s, ", k);
	map_key(&pg_funcs, kt);
	pg_bp(&pg_funcs, ") { 2 } else { 0 };\n");
	if (vt < 0) {
		pg_bp(&pg_funcs, "    let g = string_len(map_get_or<%s, string>(m, ", k);
		map_key(&pg_funcs, kt);
		pg_bp(&pg_funcs, ", \"dflt\"));\n");
	} else {
		pg_bp(&pg_funcs, "    let gv = map_get_or<%s, %s>(m, ", k, v);
		map_key(&pg_funcs, kt);
		pg_bp(&pg_funcs, ", ");
		pg_lit(&pg_funcs, vt);
		pg_bp(&pg_funcs, ");\n    let g = ");
		to_i64(&pg_funcs, vt, "gv");
		pg_bp(&pg_funcs, " %% 1000;\n");
	}
	/* an index past the end now and then (map.v2/2) */
	int past = pg_chance(5);
	if (kt == 0)
		pg_bp(&pg_funcs, "    let ka = if set_len<string>(s) > 0usize || %s { string_len(set_key_at<string>(s, 0usize)) } else { 0 };\n", past ? "true" : "false");
	else if (kt == 1)
		pg_bp(&pg_funcs, "    let ka = if set_len<i64>(s) > 0usize || %s { set_key_at<i64>(s, 0usize) %% 10 } else { 0 };\n", past ? "true" : "false");
	else
		pg_bp(&pg_funcs, "    let ka = if set_len<bool>(s) > 0usize || %s { if set_key_at<bool>(s, 0usize) { 3 } else { 4 } } else { 0 };\n", past ? "true" : "false");
	pg_bp(&pg_funcs, "    acc + h * 10 + g + ka\n}\n\n");
	pg_add_call_int(fn, pg_rnd(12) - 3);
}

/* Copy classes: a three-level hierarchy with overrides, `super`, methods
 * with contracts that may fail, method chains on call results, field
 * stores, inherited methods through typed upcasts, classes in a Vec, in an
 * Option and through a generic function */
void pg_feat_class2(void)
{
	char a[24], b[24], c[24], idf[24], fn[24];
	fresh(a, sizeof a, "CA");
	fresh(b, sizeof b, "CB");
	fresh(c, sizeof c, "CC");
	fresh(idf, sizeof idf, "cid");
	fresh(fn, sizeof fn, "c2f");
	int ft = pg_rand_ty(); /* CB's extra field */
	pg_id_line(&pg_decls, 0, a);
	pg_bp(&pg_decls, "class %s {\n", a);
	pg_id_linef(&pg_decls, 1, "%s.x", a);
	pg_bp(&pg_decls, "    x: i64,\n");
	pg_id_linef(&pg_decls, 1, "%s.y", a);
	pg_bp(&pg_decls, "    y: u8,\n\n");
	pg_id_linef(&pg_decls, 1, "%s.step", a);
	int lim = 50 + pg_rnd(200);
	pg_bp(&pg_decls, "    fn step(self: %s, d: i64) -> %s\n        requires d < %d\n    {\n        self with { x: self.x + d }\n    }\n\n", a, a, lim);
	pg_id_linef(&pg_decls, 1, "%s.val", a);
	int ens = pg_chance(30);
	pg_bp(&pg_decls, "    fn val(self: %s) -> i64\n%s    {\n        self.x * %d + i64_from_u8(self.y)\n    }\n}\n\n", a,
	      ens ? "        ensures result > -1000\n" : "", 1 + pg_rnd(3));
	pg_id_line(&pg_decls, 0, b);
	pg_bp(&pg_decls, "class %s : %s {\n", b, a);
	pg_id_linef(&pg_decls, 1, "%s.w", b);
	pg_bp(&pg_decls, "    w: %s,\n\n", pg_ty_name[ft]);
	pg_id_linef(&pg_decls, 1, "%s.val", b);
	pg_bp(&pg_decls, "    fn val(self: %s) -> i64\n    {\n        super.val() + ", b);
	to_i64(&pg_decls, ft, "self.w");
	pg_bp(&pg_decls, " %% 100\n    }\n}\n\n");
	pg_id_line(&pg_decls, 0, c);
	pg_bp(&pg_decls, "class %s : %s {\n", c, b);
	pg_id_linef(&pg_decls, 1, "%s.z", c);
	pg_bp(&pg_decls, "    z: char,\n\n");
	pg_id_linef(&pg_decls, 1, "%s.val", c);
	pg_bp(&pg_decls, "    fn val(self: %s) -> i64\n    {\n        super.val() * 2 + if self.z > 'm' { 1 } else { 0 }\n    }\n\n", c);
	pg_id_linef(&pg_decls, 1, "%s.bump", c);
	pg_bp(&pg_decls, "    fn bump(self: %s, k: u8) -> %s\n    {\n        self with { y: self.y + k }\n    }\n}\n\n", c, c);
	pg_id_line(&pg_funcs, 0, idf);
	pg_bp(&pg_funcs, "fn %s<T>(x: T, y: T, first: bool) -> T\n{\n    if first { x } else { y }\n}\n\n", idf);
	pg_id_line(&pg_funcs, 0, fn);
	pg_bp(&pg_funcs, "fn %s(n: i64) -> i64\n{\n", fn);
	pg_nvars = 0;
	pg_push_var("n", T_I64, 0);
	Buf w0 = expr_buf(ft, 1), w1 = expr_buf(ft, 1);
	int y0 = pg_rnd(256), y1 = pg_rnd(60);
	pg_bp(&pg_funcs, "    let c0 = %s { x: n, y: %du8, w: %s, z: ", c, y0, w0.p);
	pg_lit(&pg_funcs, T_CHAR);
	pg_bp(&pg_funcs, " };\n    let mut c1 = %s { z: 'q', w: %s, y: %du8, x: n * 2 };\n", c, w1.p, y1);
	pg_bfree(&w0);
	pg_bfree(&w1);
	pg_bp(&pg_funcs, "    c1.x = c1.x + %d;\n", pg_rnd(20));
	if (pg_chance(50))
		pg_bp(&pg_funcs, "    c1.y = %du8;\n", pg_rnd(256));
	/* a chain on a call result: bump may overflow u8 */
	int bk = pg_chance(80) ? pg_rnd(40) : 200 + pg_rnd(56);
	int sd = pg_chance(90) ? pg_rnd(40) : lim;
	pg_bp(&pg_funcs, "    let ch = %s<%s>(c0, c1, n %% 2 == 0).bump(%du8).val();\n", idf, c, bk);
	/* inherited methods upcast the receiver: step returns the root class */
	pg_bp(&pg_funcs, "    let st = c1.step(%d).step(n).val();\n", sd);
	pg_bp(&pg_funcs, "    let up: %s = c0;\n    let mid: %s = c1;\n", a, b);
	pg_bp(&pg_funcs, "    let mut v = vec_with_capacity<%s>(3usize);\n    v = vec_push<%s>(v, up);\n    v = vec_push<%s>(v, mid.step(1));\n", a, a, a);
	pg_bp(&pg_funcs, "    let fv = v;\n    let mut t = 0;\n    for e in fv {\n        t = t + e.val() %% 1000;\n        0\n    }\n");
	pg_bp(&pg_funcs, "    let o = if n > %d { Option<%s>::Some { value: mid } } else { Option<%s>::None {} };\n", pg_rnd(10), b, b);
	pg_bp(&pg_funcs, "    let ov = match o { Option::Some { value } => value.val(), Option::None {} => -1, };\n");
	pg_bp(&pg_funcs, "    ch %% 100000 + st %% 100000 + t + ov %% 1000 + mid.x\n}\n\n");
	pg_add_call_int(fn, pg_rnd(20) - 5);
}
