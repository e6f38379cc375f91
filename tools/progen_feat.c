/*
 * progen_feat.c — the feature templates of the random program generator
 * (tools/progen.c): each pg_feat_* appends type declarations to pg_decls,
 * functions to pg_funcs and the i64 calls `main` folds into its checksum
 * (pg_add_call).  Shapes and constants are random; every template keeps to
 * what `semaprax check` accepts (parameter modes, T218 for `?`, Copy rules).
 */
#include "progen.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ==== features ============================================================ */

void pg_id_line(Buf *b, int ind, const char *id)
{
	pg_indent(b, ind);
	pg_bp(b, "@id(\"pg.%s\")\n", id);
}

/* pg_id_line of a formatted id (cut at 95 bytes, as the callers' buffers were) */
void pg_id_linef(Buf *b, int ind, const char *fmt, ...)
{
	char id[96];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(id, sizeof id, fmt, ap);
	va_end(ap);
	pg_id_line(b, ind, id);
}

/* the fields of a record (ind 1) or a variant case (ind 2), each after its
 * @id line, the ids below `owner` */
static void decl_fields(Buf *b, int ind, const char *owner, const PgField *f, int nf)
{
	for (int i = 0; i < nf; i++) {
		pg_id_linef(b, ind, "%s.%s", owner, f[i].id ? f[i].id : f[i].name);
		pg_indent(b, ind);
		pg_bp(b, "%s: %s,\n", f[i].name, f[i].ty);
	}
}

void pg_record_decl(Buf *b, const char *name, const char *tparams, const PgField *f, int nf, const char *req)
{
	pg_id_line(b, 0, name);
	pg_bp(b, "record %s%s {\n", name, tparams);
	decl_fields(b, 1, name, f, nf);
	pg_bp(b, "}\n");
	if (req)
		pg_bp(b, "    requires %s\n", req);
	pg_bp(b, "\n");
}

void pg_variant_decl(Buf *b, const char *name, const char *tparams, const PgCase *c, int nc)
{
	pg_id_line(b, 0, name);
	pg_bp(b, "variant %s%s {\n", name, tparams);
	for (int i = 0; i < nc; i++) {
		char id[96];
		size_t n = 0;
		n += (size_t)snprintf(id, sizeof id, "%s.", name);
		for (const char *s = c[i].name; *s && n + 1 < sizeof id; s++)
			id[n++] = (char)(*s >= 'A' && *s <= 'Z' ? *s - 'A' + 'a' : *s);
		id[n] = 0;
		pg_id_line(b, 1, id);
		if (!c[i].nf) {
			pg_bp(b, "    %s,\n", c[i].name);
			continue;
		}
		pg_bp(b, "    %s {\n", c[i].name);
		decl_fields(b, 2, id, c[i].f, c[i].nf);
		pg_bp(b, "    },\n");
	}
	pg_bp(b, "}\n\n");
}

/* a typed scalar function with random parameters, body and contracts */
void pg_feat_scalar(void)
{
	if (pg_nfns >= MAX_FNS)
		return;
	Fn *f = &pg_fns[pg_nfns];
	pg_fresh("f", f->name, sizeof f->name);
	f->np = pg_rnd(4);
	for (int i = 0; i < f->np; i++)
		f->pty[i] = pg_rand_ty();
	f->ret = pg_rand_ty();
	Buf b = { 0 };
	pg_id_line(&b, 0, f->name);
	pg_bp(&b, "fn %s(", f->name);
	pg_nvars = 0;
	for (int i = 0; i < f->np; i++) {
		char pn[24];
		snprintf(pn, sizeof pn, "p%d", i);
		pg_bp(&b, "%s%s: %s", i ? ", " : "", pn, pg_ty_name[f->pty[i]]);
		pg_push_var(pn, f->pty[i], 0);
	}
	pg_bp(&b, ") -> %s\n", pg_ty_name[f->ret]);
	if (f->np && pg_chance(30)) {
		/* a precondition, usually true: p >= small negative bound */
		int i = pg_rnd(f->np);
		pg_bp(&b, "    requires ");
		if (pg_chance(90) && f->pty[i] != T_BOOL) {
			pg_bp(&b, "p%d >= ", i);
			if (f->pty[i] == T_I64 || f->pty[i] == T_I32)
				pg_int_pattern(&b, f->pty[i], -1000);
			else if (f->pty[i] == T_F64)
				pg_bp(&b, "(-1000000.0)");
			else if (f->pty[i] == T_F32)
				pg_bp(&b, "(-1000000.0f32)");
			else if (f->pty[i] == T_CHAR)
				pg_bp(&b, "'\\0'");
			else
				pg_bp(&b, "0%s", f->pty[i] == T_U8 ? "u8" : "usize");
		} else {
			pg_expr(&b, T_BOOL, 2);
		}
		pg_bp(&b, "\n");
	}
	if (pg_chance(25)) {
		pg_bp(&b, "    ensures ");
		if (pg_chance(85) && f->ret != T_F64 && f->ret != T_F32)
			pg_bp(&b, "result == result");
		else {
			pg_bp(&b, "result %s ", (pg_chance(50) || f->ret == T_BOOL) ? "!=" : "<=");
			pg_lit(&b, f->ret);
		}
		pg_bp(&b, "\n");
	}
	pg_bp(&b, "{\n");
	int n = pg_rnd(5);
	for (int i = 0; i < n; i++)
		pg_stmt(&b, 1, 3, 6);
	pg_indent(&b, 1);
	pg_expr(&b, f->ret, 3);
	pg_bp(&b, "\n}\n\n");
	pg_bcat(&pg_funcs, &b);
	pg_bfree(&b);
	/* the call main folds in */
	Buf c = { 0 }, e = { 0 };
	pg_nvars = 0;
	pg_bp(&e, "%s(", f->name);
	for (int i = 0; i < f->np; i++) {
		if (i)
			pg_bp(&e, ", ");
		pg_expr(&e, f->pty[i], 1);
	}
	pg_bp(&e, ")");
	pg_to_i64(&c, f->ret, e.p);
	pg_add_call(&c);
	pg_bfree(&c);
	pg_bfree(&e);
	pg_nfns++;
}

/* a Copy record, `with` updates, field stores, maybe an invariant */
void pg_feat_record(void)
{
	char r[24], fn[24];
	pg_fresh("Rec", r, sizeof r);
	pg_fresh("rf", fn, sizeof fn);
	int nf = 2 + pg_rnd(3);
	int fty[5];
	fty[0] = T_I64;
	fty[1] = T_I64;
	for (int i = 2; i < nf; i++)
		fty[i] = pg_rand_ty();
	int inv = pg_chance(40);
	char fname[5][16];
	PgField fs[5];
	for (int i = 0; i < nf; i++) {
		snprintf(fname[i], sizeof fname[i], "a%d", i);
		fs[i] = (PgField){ fname[i], pg_ty_name[fty[i]], NULL };
	}
	pg_record_decl(&pg_decls, r, "", fs, nf, inv ? "a0 <= a1" : NULL);
	pg_id_line(&pg_funcs, 0, fn);
	pg_bp(&pg_funcs, "fn %s(p: %s, d: i64) -> i64\n{\n", fn, r);
	pg_nvars = 0;
	pg_push_var("d", T_I64, 0);
	pg_push_var("p.a0", T_I64, 0);
	pg_push_var("p.a1", T_I64, 0);
	pg_bp(&pg_funcs, "    let q = p with { a1: p.a1 + (");
	pg_expr(&pg_funcs, T_I64, 2);
	pg_bp(&pg_funcs, ") %% 10 + 10 };\n    let mut w = q;\n    w.a0 = ");
	if (inv && pg_chance(70))
		pg_bp(&pg_funcs, "w.a0 - 1");
	else
		pg_expr(&pg_funcs, T_I64, 2);
	pg_bp(&pg_funcs, ";\n");
	for (int i = 2; i < nf; i++) {
		char fld[24];
		snprintf(fld, sizeof fld, "q.a%d", i);
		pg_push_var(fld, fty[i], 0);
	}
	/* a record pattern: each field bound, renamed or ignored (maybe all ignored) */
	pg_bp(&pg_funcs, "    let z = match w { %s {", r);
	int bound = -1;
	for (int i = 0; i < nf; i++) {
		int how = pg_rnd(3);
		if (how == 0 && fty[i] == T_I64 && bound < 0) {
			pg_bp(&pg_funcs, "%s a%d", i ? "," : "", i);
			bound = i;
		} else {
			pg_bp(&pg_funcs, "%s a%d: _", i ? "," : "", i);
		}
	}
	if (bound >= 0)
		pg_bp(&pg_funcs, " } => a%d, };\n", bound);
	else
		pg_bp(&pg_funcs, " } => %d, };\n", pg_rnd(9));
	pg_bp(&pg_funcs, "    let zb = match d > %d { true => z, _ => 0, };\n", pg_rnd(20));
	pg_bp(&pg_funcs, "    zb + w.a0 * 3 + w.a1 + ");
	Buf t = { 0 }, e = { 0 };
	int ft = fty[pg_rnd(nf)];
	pg_expr(&e, ft, 2);
	pg_to_i64(&t, ft, e.p);
	pg_bp(&pg_funcs, "%s\n}\n\n", t.p);
	pg_bfree(&t);
	pg_bfree(&e);
	pg_nvars = 0;
	Buf c = { 0 };
	pg_bp(&c, "%s(%s { ", fn, r);
	int order[5];
	for (int i = 0; i < nf; i++)
		order[i] = i;
	for (int i = nf - 1; i > 0; i--) {
		int j = pg_rnd(i + 1), tmp = order[i];
		order[i] = order[j];
		order[j] = tmp;
	}
	for (int k = 0; k < nf; k++) {
		int i = order[k];
		pg_bp(&c, "%sa%d: ", k ? ", " : "", i);
		if (i == 1 && inv && pg_chance(85))
			pg_bp(&c, "%d", 50 + pg_rnd(50));
		else
			pg_lit(&c, fty[i]);
	}
	pg_bp(&c, " }, ");
	pg_lit(&c, T_I64);
	pg_bp(&c, ")");
	pg_add_call(&c);
	pg_bfree(&c);
}

/* a Copy variant and an exhaustive match over it */
void pg_feat_variant(void)
{
	char v[24], fn[24];
	pg_fresh("Var", v, sizeof v);
	pg_fresh("vf", fn, sizeof fn);
	int nc = 2 + pg_rnd(4);
	int npay[6]; /* payload fields per case (0..2): i64, bool, char, f32, u8 */
	int pty[6][2];
	for (int i = 0; i < nc; i++) {
		npay[i] = pg_rnd(3);
		for (int j = 0; j < npay[i]; j++)
		{
			static const int pt[] = { T_I64, T_I64, T_I64, T_I64, T_I64, T_I64, T_BOOL, T_BOOL, T_CHAR, T_F32, T_U8, T_I64 };
			pty[i][j] = pt[pg_rnd(12)];
		}
	}
	static const char *const fld[2][2] = { { "fld0", "f0" }, { "fld1", "f1" } }; /* name, @id */
	static const char *const cname[6] = { "C0", "C1", "C2", "C3", "C4", "C5" };
	PgField cf[6][2];
	PgCase cs[6] = { { NULL, NULL, 0 } };
	for (int i = 0; i < nc; i++) {
		for (int j = 0; j < npay[i]; j++)
			cf[i][j] = (PgField){ fld[j][0], pg_ty_name[pty[i][j]], fld[j][1] };
		cs[i] = (PgCase){ cname[i], cf[i], npay[i] };
	}
	pg_variant_decl(&pg_decls, v, "", cs, nc);

	pg_id_line(&pg_funcs, 0, fn);
	pg_bp(&pg_funcs, "fn %s(v: %s, k: i64) -> i64\n{\n    match v { ", fn, v);
	pg_nvars = 0;
	pg_push_var("k", T_I64, 0);
	int wild_from = pg_chance(30) ? 1 + pg_rnd(nc - 1) : nc; /* cases >= wild_from go to `_` */
	for (int i = 0; i < wild_from; i++) {
		/* or-pattern of consecutive payload-free cases */
		if (!npay[i] && i + 1 < wild_from && !npay[i + 1] && pg_chance(60)) {
			pg_bp(&pg_funcs, "%s::C%d {} | %s::C%d {} => ", v, i, v, i + 1);
			pg_expr(&pg_funcs, T_I64, 2);
			pg_bp(&pg_funcs, ", ");
			i++;
			continue;
		}
		for (int guarded = pg_chance(35); guarded >= 0; guarded--) {
			int saved = pg_nvars;
			pg_bp(&pg_funcs, "%s::C%d {", v, i);
			char names[2][24];
			for (int j = 0; j < npay[i]; j++) {
				int how = pg_rnd(3); /* 0 shorthand, 1 rename, 2 ignore */
				if (how == 0) {
					snprintf(names[j], sizeof names[j], "fld%d", j);
					pg_bp(&pg_funcs, "%s fld%d", j ? "," : "", j);
				} else if (how == 1) {
					pg_fresh("b", names[j], sizeof names[j]);
					pg_bp(&pg_funcs, "%s fld%d: %s", j ? "," : "", j, names[j]);
				} else {
					names[j][0] = 0;
					pg_bp(&pg_funcs, "%s fld%d: _", j ? "," : "", j);
				}
				if (names[j][0])
					pg_push_var(names[j], pty[i][j], 0);
			}
			pg_bp(&pg_funcs, npay[i] ? " }" : "}");
			if (guarded) {
				pg_bp(&pg_funcs, " if ");
				pg_simple = 1;
				pg_expr(&pg_funcs, T_BOOL, 2);
				pg_simple = 0;
			}
			pg_bp(&pg_funcs, " => ");
			pg_expr(&pg_funcs, T_I64, 2);
			pg_bp(&pg_funcs, ", ");
			pg_nvars = saved;
		}
	}
	if (wild_from < nc) {
		pg_bp(&pg_funcs, "_ => ");
		pg_expr(&pg_funcs, T_I64, 2);
		pg_bp(&pg_funcs, ", ");
	}
	pg_bp(&pg_funcs, "}\n}\n\n");
	pg_nvars = 0;
	for (int calls_n = 1 + pg_rnd(2); calls_n > 0; calls_n--) {
		Buf c = { 0 };
		int i = pg_rnd(nc);
		pg_bp(&c, "%s(%s::C%d {", fn, v, i);
		for (int j = 0; j < npay[i]; j++) {
			pg_bp(&c, "%s fld%d: ", j ? "," : "", j);
			pg_lit(&c, pty[i][j]);
		}
		pg_bp(&c, npay[i] ? " }, " : "}, ");
		pg_lit(&c, T_I64);
		pg_bp(&c, ")");
		pg_add_call(&c);
		pg_bfree(&c);
	}
}

/* a payload-free variant compared with == (B103 lifted) */
void pg_feat_enum_eq(void)
{
	char v[24], fn[24];
	pg_fresh("Col", v, sizeof v);
	pg_fresh("ef", fn, sizeof fn);
	static const PgCase ks[] = { { "K0", NULL, 0 }, { "K1", NULL, 0 }, { "K2", NULL, 0 } };
	pg_variant_decl(&pg_decls, v, "", ks, 3);
	pg_id_line(&pg_funcs, 0, fn);
	pg_bp(&pg_funcs, "fn %s(n: i64) -> i64\n{\n"
	       "    let a = if n %% 3 == 0 { %s::K0 {} } else { if n %% 3 == 1 { %s::K1 {} } else { %s::K2 {} } };\n"
	       "    let b = %s::K%d {};\n"
	       "    let z = %s::K0 {};\n"
	       "    if a == b { 10 } else { if a != z { 20 } else { 30 } }\n}\n\n",
	   fn, v, v, v, v, pg_rnd(3), v);
	pg_add_call_int(fn, pg_rnd(10));
}

/* Option/Result producers and `?` chains */
void pg_feat_option(void)
{
	char half[24], q[24], get[24], res[24], sum[24], gr[24];
	pg_fresh("oh", half, sizeof half);
	pg_fresh("oq", q, sizeof q);
	pg_fresh("og", get, sizeof get);
	pg_fresh("rp", res, sizeof res);
	pg_fresh("rs", sum, sizeof sum);
	pg_fresh("rg", gr, sizeof gr);
	int m = 2 + pg_rnd(3);
	pg_id_line(&pg_funcs, 0, half);
	pg_bp(&pg_funcs, "fn %s(n: i64) -> Option<i64>\n{\n    if n %% %d == 0 { Option<i64>::Some { value: n / %d + %d } } else { Option<i64>::None {} }\n}\n\n",
	   half, m, m, pg_rnd(5));
	pg_id_line(&pg_funcs, 0, q);
	pg_bp(&pg_funcs, "fn %s(n: i64) -> Option<i64>\n%s{\n    let a = %s(n)?;\n    let b = %s(a)?;\n    Option<i64>::Some { value: a * 10 + b }\n}\n\n",
	   q, pg_chance(30) ? "    ensures true\n" : "", half, half);
	pg_id_line(&pg_funcs, 0, get);
	if (pg_chance(70))
		pg_bp(&pg_funcs, "fn %s(o: Option<i64>) -> i64\n{\n    match o { Option::Some { value } => value, Option::None {} => %d, }\n}\n\n",
		   get, -pg_rnd(9));
	else {
		int sv = pg_rnd(9);
		pg_bp(&pg_funcs, "fn %s(o: Option<i64>) -> i64\n{\n    match o { Option::Some { value: _ } => %d, Option::None {} => %d, }\n}\n\n",
		   get, sv, -pg_rnd(9));
	}
	int owned_err = pg_chance(50);
	const char *et = owned_err ? "string" : "i64";
	pg_id_line(&pg_funcs, 0, res);
	if (owned_err)
		pg_bp(&pg_funcs, "fn %s(n: i64) -> Result<i64, string>\n{\n    if n < %d { Result<i64, string>::Err { error: string_from_i64(n) } } else { Result<i64, string>::Ok { value: n * 2 } }\n}\n\n",
		   res, pg_rnd(10));
	else
		pg_bp(&pg_funcs, "fn %s(n: i64) -> Result<i64, i64>\n{\n    if n < %d { Result<i64, i64>::Err { error: n } } else { Result<i64, i64>::Ok { value: n * 2 } }\n}\n\n",
		   res, pg_rnd(10));
	pg_id_line(&pg_funcs, 0, sum);
	pg_bp(&pg_funcs, "fn %s(a: i64, b: i64) -> Result<i64, %s>\n{\n", sum, et);
	/* `?` before any owned binding (T218, the reference's needs_drop rule) */
	pg_bp(&pg_funcs, "    let x = %s(a)?;\n    let y = %s(b)?;\n", res, res);
	if (owned_err)
		pg_bp(&pg_funcs, "    let keep = string_from_i64(a + b);\n");
	pg_bp(&pg_funcs, "    Result<i64, %s>::Ok { value: x + y%s }\n}\n\n", et, owned_err ? " + string_len(keep)" : "");
	pg_id_line(&pg_funcs, 0, gr);
	if (owned_err)
		pg_bp(&pg_funcs, "fn %s(r: own Result<i64, string>) -> i64\n{\n    match own r { Result::Ok { value } => value, Result::Err { error } => string_len(error) * 1000, }\n}\n\n", gr);
	else
		pg_bp(&pg_funcs, "fn %s(r: Result<i64, i64>) -> i64\n{\n    match r { Result::Ok { value } => value, Result::Err { error } => error * 1000, }\n}\n\n", gr);
	Buf c = { 0 };
	int ca = pg_rnd(40), cb = pg_rnd(20) - 3, cc = pg_rnd(20) - 3;
	pg_bp(&c, "%s(%s(%d)) + %s(%s(%d, %d))", get, q, ca, gr, sum, cb, cc);
	pg_add_call(&c);
	pg_bfree(&c);
}

/* generic functions and a generic record, instantiated at several types */
void pg_feat_generic(void)
{
	char pick[24], same[24], pair[24], swap[24], use[24];
	pg_fresh("gpick", pick, sizeof pick);
	pg_fresh("gsame", same, sizeof same);
	pg_fresh("GPair", pair, sizeof pair);
	pg_fresh("gswap", swap, sizeof swap);
	pg_fresh("guse", use, sizeof use);
	static const PgField pairf[] = { { "left", "A", NULL }, { "right", "B", NULL } };
	pg_record_decl(&pg_decls, pair, "<A, B>", pairf, 2, NULL);
	pg_id_line(&pg_funcs, 0, pick);
	pg_bp(&pg_funcs, "fn %s<T>(a: T, b: T, first: bool) -> T\n{\n    if first { a } else { b }\n}\n\n", pick);
	pg_id_line(&pg_funcs, 0, same);
	pg_bp(&pg_funcs, "fn %s<T>(a: T, b: T) -> bool\n{\n    a == b\n}\n\n", same);
	pg_id_line(&pg_funcs, 0, swap);
	pg_bp(&pg_funcs, "fn %s<A, B>(p: %s<A, B>) -> %s<B, A>\n{\n    %s<B, A> { left: p.right, right: p.left }\n}\n\n",
	   swap, pair, pair, pair);
	/* Option<T> wrappers instantiated at a Copy record and a scalar */
	char wrap[24], orl[24], gpt[24];
	pg_fresh("gwrap", wrap, sizeof wrap);
	pg_fresh("gor", orl, sizeof orl);
	pg_fresh("GPt", gpt, sizeof gpt);
	static const PgField gptf[] = { { "x", "i64", NULL }, { "y", "u8", NULL } };
	pg_record_decl(&pg_decls, gpt, "", gptf, 2, NULL);
	pg_id_line(&pg_funcs, 0, wrap);
	pg_bp(&pg_funcs, "fn %s<T>(x: T, some: bool) -> Option<T>\n{\n    if some { Option<T>::Some { value: x } } else { Option<T>::None {} }\n}\n\n", wrap);
	pg_id_line(&pg_funcs, 0, orl);
	pg_bp(&pg_funcs, "fn %s<T>(o: Option<T>, d: T) -> T\n{\n    match o { Option::Some { value } => value, Option::None {} => d, }\n}\n\n", orl);
	int t1 = pg_rand_ty(), t2 = pg_rand_ty();
	pg_id_line(&pg_funcs, 0, use);
	pg_bp(&pg_funcs, "fn %s(n: i64) -> i64\n{\n", use);
	pg_nvars = 0;
	pg_push_var("n", T_I64, 0);
	Buf e1 = { 0 }, e2 = { 0 }, e3 = { 0 }, e4 = { 0 };
	pg_bp(&e1, "%s<%s>(", pick, pg_ty_name[t1]);
	pg_expr(&e1, t1, 1);
	pg_bp(&e1, ", ");
	pg_expr(&e1, t1, 1);
	pg_bp(&e1, ", n > %d)", pg_rnd(10));
	pg_bp(&pg_funcs, "    let a = %s;\n", e1.p);
	pg_bp(&e2, "%s<%s>(", same, pg_ty_name[t2]);
	pg_expr(&e2, t2, 1);
	pg_bp(&e2, ", ");
	pg_expr(&e2, t2, 1);
	pg_bp(&e2, ")");
	pg_bp(&pg_funcs, "    let b = %s;\n", e2.p);
	pg_bp(&pg_funcs, "    let s = %s<string>(string_from_i64(n), string_from_i64(n + 1), n %% 2 == 0);\n", pick);
	pg_bp(&pg_funcs, "    let p = %s<string, %s>(%s<string, %s> { left: s, right: ", swap, pg_ty_name[t1], pair, pg_ty_name[t1]);
	pg_bp(&pg_funcs, "a });\n");
	pg_bp(&pg_funcs, "    let l = match own p { %s { left, right } => ", pair);
	pg_to_i64(&e3, t1, "left");
	pg_bp(&pg_funcs, "%s + string_len(right), };\n", e3.p);
	pg_to_i64(&e4, T_BOOL, "b");
	int gy0 = pg_rnd(256), gy1 = pg_rnd(256), gx1 = pg_rnd(50);
	pg_bp(&pg_funcs, "    let g = %s<%s>(%s<%s>(%s { x: n, y: %du8 }, n %% 3 != 0), %s { y: %du8, x: %d });\n", orl, gpt, wrap, gpt, gpt,
	      gy0, gpt, gy1, gx1);
	pg_bp(&pg_funcs, "    let h = %s<%s>(%s<%s>(%s { x: g.x + 1, y: g.y }, n %% 2 == 0), g);\n", orl, gpt, wrap, gpt, gpt);
	{
		Buf e5 = { 0 }, e6 = { 0 };
		pg_nvars = 0;
		pg_push_var("n", T_I64, 0);
		pg_expr(&e5, t2, 1);
		pg_bp(&pg_funcs, "    let sc = %s<%s>(%s<%s>(%s, n > 5), ", orl, pg_ty_name[t2], wrap, pg_ty_name[t2], e5.p);
		pg_bfree(&e5);
		pg_expr(&e5, t2, 1);
		pg_bp(&pg_funcs, "%s);\n", e5.p);
		pg_to_i64(&e6, t2, "sc");
		pg_bp(&pg_funcs, "    let sci = %s;\n", e6.p);
		pg_bfree(&e5);
		pg_bfree(&e6);
	}
	pg_bp(&pg_funcs, "    l + %s + h.x + i64_from_u8(h.y) + sci %% 1000\n}\n\n", e4.p);
	pg_bfree(&e1);
	pg_bfree(&e2);
	pg_bfree(&e3);
	pg_bfree(&e4);
	pg_add_call_int(use, pg_rnd(20));
}

/* ASCII first (some templates index the first ones), then non-ASCII text:
 * multi-byte scalars, Unicode white space for string_trim */
const char *const pg_words[PG_NWORDS] = { "ab", "pear", "x", "hello world", "  pad  ", "42", "-7", "banana", "", "a,b",
					 "h\\u{e9}llo", "\\u{a0}w\\u{3000}", "\\u{1c5}\\u{1f600}", "+12" };

void pg_str_lit(Buf *b)
{
	pg_bp(b, "\"%s\"", pg_words[pg_rnd(PG_NWORDS)]);
}

/* strings: a pool of owned strings built and measured at random */
void pg_feat_string(void)
{
	char fn[24];
	pg_fresh("sf", fn, sizeof fn);
	pg_id_line(&pg_funcs, 0, fn);
	pg_bp(&pg_funcs, "fn %s(a: i64, t: string, u: borrow str) -> i64\n{\n", fn);
	/* live string variables: t, plus new ones */
	char live[16][24];
	int nlive = 0;
	snprintf(live[nlive++], 24, "t");
	pg_bp(&pg_funcs, "    let mut n = str_len_bytes(u);\n");
	int steps = 3 + pg_rnd(6);
	for (int s = 0; s < steps; s++) {
		char nm[24];
		int r = pg_rnd(12);
		const char *x = nlive ? live[pg_rnd(nlive)] : NULL;
		if (r < 4 || !x) {
			pg_fresh("s", nm, sizeof nm);
			switch (pg_rnd(6)) {
			case 0:
				pg_bp(&pg_funcs, "    let %s = string_from_i64(a * %d);\n", nm, pg_rnd(100) - 50);
				break;
			case 1:
				pg_bp(&pg_funcs, "    let %s = ", nm);
				pg_str_lit(&pg_funcs);
				pg_bp(&pg_funcs, ";\n");
				break;
			case 2:
				pg_bp(&pg_funcs, "    let %s = string_from_str(u);\n", nm);
				break;
			case 3:
				pg_bp(&pg_funcs, "    let %s = string_from_char(char_from_u8(%du8));\n", nm, 97 + pg_rnd(26));
				break;
			case 4:
				if (x) {
					pg_bp(&pg_funcs, "    let %s = string_trim(%s);\n", nm, x);
					break;
				}
				/* fallthrough */
			default:
				pg_bp(&pg_funcs, "    let %s = string_from_usize(%dusize);\n", nm, pg_rnd(1000));
			}
			if (nlive < 16)
				pg_copy_name(live[nlive++], nm, 24);
		} else if (r < 9) {
			/* a measurement (borrows) */
			const char *y = live[pg_rnd(nlive)];
			switch (pg_rnd(9)) {
			case 0: pg_bp(&pg_funcs, "    n = n + string_len(%s);\n", x); break;
			case 1: pg_bp(&pg_funcs, "    n = n + string_len_chars(%s);\n", x); break;
			case 2: pg_bp(&pg_funcs, "    n = n + string_find(%s, %s, %d);\n", x, y, pg_rnd(3)); break;
			case 3: pg_bp(&pg_funcs, "    n = n + string_compare(%s, %s);\n", x, y); break;
			case 4: pg_bp(&pg_funcs, "    if string_contains(%s, %s) { n = n + 3; }\n", x, y); break;
			case 5: pg_bp(&pg_funcs, "    if string_starts_with(%s, %s) && !string_is_empty(%s) { n = n + 5; }\n", x, y, y); break;
			case 6: pg_bp(&pg_funcs, "    if %s == %s || %s < %s { n = n + 7; }\n", x, y, x, y); break;
			case 7:
				pg_bp(&pg_funcs, "    n = n + match string_to_i64(%s) { Option::Some { value } => value %% 1000, Option::None {} => -1, };\n", x);
				break;
			default:
				pg_bp(&pg_funcs, "    if !string_is_empty(%s) { n = n + string_byte_at(%s, 0); }\n", x, x);
			}
		} else if (r < 10 && nlive >= 1) {
			/* a slice (borrows; may fail when out of range) */
			pg_fresh("s", nm, sizeof nm);
			if (pg_chance(92))
				pg_bp(&pg_funcs, "    let %s = string_slice(%s, 0, string_len(%s));\n", nm, x, x);
			else
			{
				int lo = pg_rnd(2), hi = 1 + pg_rnd(4);
				pg_bp(&pg_funcs, "    let %s = string_slice(%s, %d, %d);\n", nm, x, lo, hi);
			}
			if (nlive < 16)
				pg_copy_name(live[nlive++], nm, 24);
		} else {
			/* a consuming step: concat or format of one live string */
			int i = pg_rnd(nlive);
			char used[24];
			pg_copy_name(used, live[i], sizeof used);
			live[i][0] = 0;
			memmove(live[i], live[nlive - 1], 24);
			nlive--;
			pg_fresh("s", nm, sizeof nm);
			if (pg_chance(50)) {
				pg_bp(&pg_funcs, "    let %s = string_concat(%s, ", nm, used);
				if (pg_chance(50) && nlive) {
					int j = pg_rnd(nlive);
					pg_bp(&pg_funcs, "%s);\n", live[j]);
					memmove(live[j], live[nlive - 1], 24);
					nlive--;
				} else {
					pg_str_lit(&pg_funcs);
					pg_bp(&pg_funcs, ");\n");
				}
			} else {
				const char *fb = pg_chance(50) ? "true" : "false";
				pg_bp(&pg_funcs, "    let %s = string_format(\"{}<{}>{}|{}\", %s, a, %s, %dusize);\n", nm, used, fb, pg_rnd(100));
			}
			if (nlive < 16)
				pg_copy_name(live[nlive++], nm, 24);
		}
	}
	pg_bp(&pg_funcs, "    n\n}\n\n");
	Buf c = { 0 };
	/* main passes a literal string and a view of a named main string */
	pg_bp(&c, "%s(%d, ", fn, pg_rnd(30) - 10);
	pg_str_lit(&c);
	pg_bp(&c, ", string_as_str(mtext))");
	pg_add_call(&c);
	pg_bfree(&c);
}

/* bytes: zeroed buffers, stores, slices and views */
void pg_feat_bytes(void)
{
	char fn[24];
	pg_fresh("bf", fn, sizeof fn);
	int len = 2 + pg_rnd(5);
	/* byte parameters state their mode (T263): borrow Slice<u8>, borrow Bytes, own Bytes */
	char bsum[24], blen[24], bown[24];
	pg_fresh("bsum", bsum, sizeof bsum);
	pg_fresh("blen", blen, sizeof blen);
	pg_fresh("bown", bown, sizeof bown);
	pg_id_line(&pg_funcs, 0, bsum);
	pg_bp(&pg_funcs, "fn %s(s: borrow Slice<u8>, i: usize) -> i64\n{\n    match byte_get(s, i) { Option::Some { value } => i64_from_u8(value) + i64_from_usize(byte_len(s)), Option::None {} => -7, }\n}\n\n", bsum);
	pg_id_line(&pg_funcs, 0, blen);
	pg_bp(&pg_funcs, "fn %s(b: borrow Bytes) -> i64\n{\n    i64_from_usize(byte_len(bytes_as_slice(b)))\n}\n\n", blen);
	pg_id_line(&pg_funcs, 0, bown);
	/* a named buffer reopens only as `w = bytes_set(w, …)` on a `let mut` (T271) */
	pg_bp(&pg_funcs, "fn %s(b: own Bytes, k: u8) -> Bytes\n{\n    let mut w = b;\n    w = bytes_set(w, 0usize, k);\n    w\n}\n\n", bown);
	pg_id_line(&pg_funcs, 0, fn);
	pg_bp(&pg_funcs, "fn %s(k: u8) -> i64\n{\n", fn);
	pg_bp(&pg_funcs, "    let mut buf = bytes_zeroed(%dusize);\n", len);
	int stores = 1 + pg_rnd(3);
	for (int i = 0; i < stores; i++) {
		int at = pg_chance(97) ? pg_rnd(len) : len;
		pg_bp(&pg_funcs, "    buf = bytes_set(buf, %dusize, k + %du8);\n", at, pg_rnd(10));
	}
	pg_bp(&pg_funcs, "    let view = bytes_as_slice(buf);\n");
	pg_bp(&pg_funcs, "    let got = match byte_get(view, %dusize) { Option::Some { value } => i64_from_u8(value), Option::None {} => -1, };\n",
	   pg_rnd(len + 2));
	int ar0 = pg_rnd(256), ar1 = pg_rnd(256), ar2 = pg_rnd(256);
	pg_bp(&pg_funcs, "    let arr = [%du8, %du8, %du8];\n", ar0, ar1, ar2);
	pg_bp(&pg_funcs, "    let av = array_as_slice(arr);\n");
	int mlo = pg_rnd(2), mhi = 2 + pg_rnd(pg_chance(96) ? 2 : 3);
	pg_bp(&pg_funcs, "    let mid = byte_range(av, %dusize, %dusize);\n", mlo, mhi);
	pg_bp(&pg_funcs, "    let text = \"%s\";\n", pg_words[pg_rnd(4)]);
	pg_bp(&pg_funcs, "    let tv = string_as_str(text);\n");
	pg_bp(&pg_funcs, "    let first = match str_byte_at(tv, 0usize) { Option::Some { value } => i64_from_u8(value), Option::None {} => 0, };\n");
	pg_bp(&pg_funcs, "    let copy = bytes_copy(str_as_bytes(tv));\n");
	pg_bp(&pg_funcs, "    let owned = %s(bytes_zeroed(%dusize), k);\n", bown, 1 + pg_rnd(3));
	pg_bp(&pg_funcs, "    let extra = %s(mid, %dusize) + %s(copy) * 10 + %s(owned) * 100;\n", bsum, pg_rnd(3), blen, blen);
	pg_bp(&pg_funcs, "    extra + got + i64_from_usize(byte_len(mid) + byte_len(bytes_as_slice(copy))) * 100 + first * 1000\n}\n\n");
	Buf c = { 0 };
	pg_bp(&c, "%s(%du8)", fn, pg_rnd(200));
	pg_add_call(&c);
	pg_bfree(&c);
}

int pg_have_row;

/* f64 corner values (±inf, -0.0) through vec_sort, NaN through comparisons */
void pg_feat_floats(void)
{
	char fn[24];
	pg_fresh("ff", fn, sizeof fn);
	/* no NaN in the sorted vector: its sign bit is not guaranteed across
	 * lanes (LANGUAGE.md §3.7; gcc folds 0/0 to +NaN, x86 divides to -NaN)
	 * and the total order sees it */
	static const char *const vals[] = { "ninf", "inf", "ninf", "z", "nz", "f64_from_i64(a) * 0.5", "2.5", "(-1.25)", "big * big" };
	int n = 2 + pg_rnd(5);
	pg_id_line(&pg_funcs, 0, fn);
	pg_bp(&pg_funcs, "fn %s(a: i64) -> i64\n{\n", fn);
	pg_bp(&pg_funcs, "    let z = f64_from_i64(a - a);\n    let nz = -z;\n    let nan = z / z;\n    let inf = 1.0 / z;\n    let ninf = -1.0 / z;\n    let big = 1000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000.0;\n");
	pg_bp(&pg_funcs, "    let mut v = vec_with_capacity<f64>(%dusize);\n", n);
	for (int i = 0; i < n; i++)
		pg_bp(&pg_funcs, "    v = vec_push<f64>(v, %s);\n", vals[pg_rnd(9)]);
	/* a traversal source is an immutable binding (T284) */
	pg_bp(&pg_funcs, "    v = vec_sort<f64>(v);\n    let fv = v;\n    let mut code = 0;\n");
	pg_bp(&pg_funcs, "    for x in fv {\n        code = code * 10 + if x != x { 9 } else { if x > 1000000.0 { 8 } else { if x < -1000000.0 { 7 } else { if x == 0.0 { if 1.0 / x < 0.0 { 2 } else { 3 } } else { if x < 0.0 { 1 } else { 5 } } } } };\n        0\n    }\n");
	pg_bp(&pg_funcs, "    let m = vec_get<f64>(fv, 0usize);\n");
	pg_bp(&pg_funcs, "    let cmp = if m < nan || m == nan || nan >= m { 1 } else { 0 };\n");
	pg_bp(&pg_funcs, "    code * 10 + cmp + i64_from_f64(%s)\n}\n\n", pg_chance(90) ? "f64_from_i64(a) / 3.0" : "m");
	pg_add_call_int(fn, pg_rnd(40) - 20);
}

/* Vec<i64>, Vec<string>, Vec of owned records, iteration */
void pg_feat_vec(void)
{
	char fn[24];
	const char *row = "Row";
	pg_fresh("vf", fn, sizeof fn);
	if (pg_have_row)
		goto declared;
	pg_have_row = 1;
	static const PgField rowf[] = { { "key", "string", NULL }, { "val", "i64", NULL } };
	pg_record_decl(&pg_decls, row, "", rowf, 2, NULL);
declared:;
	int cap = 2 + pg_rnd(5);
	int n = pg_chance(97) ? cap - pg_rnd(2) : cap + 1;
	char drain[24];
	pg_fresh("drain", drain, sizeof drain);
	pg_id_line(&pg_funcs, 0, drain);
	pg_bp(&pg_funcs, "fn %s(it: own Iter<string>) -> i64\n{\n    match own iter_next<string>(it) { IterStep::Done {} => 0, IterStep::Yield { item, rest } => string_len(item) + %d * %s(rest), }\n}\n\n",
	      drain, 1 + pg_rnd(3), drain);
	pg_id_line(&pg_funcs, 0, fn);
	pg_bp(&pg_funcs, "fn %s(a: i64, rows: borrow Vec<%s>) -> i64\n{\n", fn, row);
	pg_bp(&pg_funcs, "    let mut v = vec_with_capacity<i64>(%dusize);\n    let mut i = 0;\n", cap);
	pg_bp(&pg_funcs, "    while i < %d {\n        v = vec_push<i64>(v, a * i - %d);\n        i = i + 1;\n        0\n    }\n", n, pg_rnd(50));
	if (n > 1)
		pg_bp(&pg_funcs, "    v = vec_set<i64>(v, 1usize, a + %d);\n", pg_rnd(9));
	if (pg_chance(60))
		pg_bp(&pg_funcs, "    v = vec_sort<i64>(v);\n");
	pg_bp(&pg_funcs, "    let fv = v;\n    let mut s = 0;\n    for x in fv {\n        s = s + x %% 1000;\n        0\n    }\n");
	pg_bp(&pg_funcs, "    let got = vec_get<i64>(fv, %dusize);\n", pg_chance(97) ? pg_rnd(n) : n + 1);
	pg_bp(&pg_funcs, "    let mut w = vec_with_capacity<string>(3usize);\n");
	pg_bp(&pg_funcs, "    w = vec_push<string>(w, string_from_i64(a));\n    w = vec_push<string>(w, \"%s\");\n", pg_words[pg_rnd(4)]);
	if (pg_chance(50))
		pg_bp(&pg_funcs, "    w = vec_sort<string>(w);\n");
	pg_bp(&pg_funcs, "    let c0 = vec_clone_at<string>(w, %dusize);\n", pg_chance(97) ? pg_rnd(2) : 2);
	pg_bp(&pg_funcs, "    let mut w2 = vec_with_capacity<string>(2usize);\n    w2 = vec_push<string>(w2, string_from_i64(a * 7));\n    w2 = vec_push<string>(w2, \"%s\");\n", pg_words[pg_rnd(PG_NWORDS)]);
	pg_bp(&pg_funcs, "    let dr = %s(vec_into_iter<string>(w2));\n", drain);
	pg_bp(&pg_funcs, "    let mut total = dr;\n    for own item in vec_into_iter<string>(w) {\n        total = total + string_len(item);\n        0\n    }\n");
	pg_bp(&pg_funcs, "    for r in rows {\n        total = total + r.val + string_len(r.key);\n        0\n    }\n");
	pg_bp(&pg_funcs, "    s + got + string_len(c0) + total + i64_from_usize(vec_len<i64>(fv) + vec_capacity<i64>(fv))\n}\n\n");
	/* main builds the rows */
	Buf c = { 0 };
	pg_bp(&c, "%s(%d, mrows)", fn, pg_rnd(20) - 5);
	pg_add_call(&c);
	pg_bfree(&c);
}

/* Map and Set */
void pg_feat_map(void)
{
	char fn[24];
	pg_fresh("mf", fn, sizeof fn);
	int cap = 3 + pg_rnd(4);
	int n = pg_chance(97) ? cap - pg_rnd(2) : cap + 2;
	pg_id_line(&pg_funcs, 0, fn);
	pg_bp(&pg_funcs, "fn %s(a: i64) -> i64\n{\n", fn);
	pg_bp(&pg_funcs, "    let mut m = map_new<i64, string>(%dusize);\n    let mut i = 0;\n", cap);
	pg_bp(&pg_funcs, "    while i < %d {\n        m = map_set<i64, string>(m, i * %d - a, string_from_i64(i));\n        i = i + 1;\n        0\n    }\n",
	   n, 1 + pg_rnd(3));
	pg_bp(&pg_funcs, "    m = map_remove<i64, string>(m, %d);\n", pg_rnd(6) - 3);
	pg_bp(&pg_funcs, "    let g = map_get_or<i64, string>(m, %d, \"none\");\n", pg_rnd(6) - 3);
	pg_bp(&pg_funcs, "    let mut c = map_new<string, i64>(4usize);\n");
	pg_bp(&pg_funcs, "    c = map_add<string, i64>(c, \"k\", a);\n    c = map_add<string, i64>(c, \"k\", %d);\n    c = map_set<string, i64>(c, \"z\", 1);\n", pg_rnd(9));
	pg_bp(&pg_funcs, "    let mut ids = set_new<i64>(%dusize);\n", cap);
	for (int i = 0; i < 3; i++)
		pg_bp(&pg_funcs, "    ids = set_insert<i64>(ids, a %% %d + 10);\n", 2 + pg_rnd(4));
	pg_bp(&pg_funcs, "    ids = set_remove<i64>(ids, %d);\n", pg_rnd(3));
	pg_bp(&pg_funcs, "    let has = if map_has<i64, string>(m, 0) && set_has<i64>(ids, 1) { 1 } else { 0 };\n");
	pg_bp(&pg_funcs, "    let k0 = %s;\n", pg_chance(97) ? "map_key_at<i64, string>(m, 0usize)" : "map_key_at<i64, string>(m, 99usize)");
	pg_bp(&pg_funcs, "    let v0 = map_value_at<i64, string>(m, 0usize);\n");
	pg_bp(&pg_funcs, "    string_len(g) + has * 10 + k0 + string_len(v0) + map_get_or<string, i64>(c, \"k\", 0) * 100 + i64_from_usize(map_len<i64, string>(m) + set_len<i64>(ids)) + set_key_at<i64>(ids, 0usize)\n}\n\n");
	pg_add_call_int(fn, pg_rnd(10));
}

/* a random tree literal of the given depth */
static void emit_tree(Buf *b, const char *tree, int depth)
{
	if (depth <= 0 || pg_chance(30)) {
		pg_bp(b, "%s::Leaf { value: %d }", tree, pg_rnd(20) - 5);
		return;
	}
	pg_bp(b, "%s::Node { left: box_new<%s>(", tree, tree);
	emit_tree(b, tree, depth - 1);
	pg_bp(b, "), right: box_new<%s>(", tree);
	emit_tree(b, tree, depth - 1);
	pg_bp(b, ") }");
}

/* Box: scalars, strings and a boxed tree walked by recursion */
void pg_feat_box(void)
{
	char tree[24], sum[24], fn[24];
	pg_fresh("Tree", tree, sizeof tree);
	pg_fresh("tsum", sum, sizeof sum);
	pg_fresh("xf", fn, sizeof fn);
	char boxt[32];
	snprintf(boxt, sizeof boxt, "Box<%s>", tree);
	const PgField leaff[] = { { "value", "i64", NULL } }, nodef[] = { { "left", boxt, NULL }, { "right", boxt, NULL } };
	const PgCase treec[] = { { "Leaf", leaff, 1 }, { "Node", nodef, 2 } };
	pg_variant_decl(&pg_decls, tree, "", treec, 2);
	pg_id_line(&pg_funcs, 0, sum);
	pg_bp(&pg_funcs, "fn %s(t: own %s) -> i64\n{\n    match own t { %s::Leaf { value } => value, %s::Node { left, right } => %s(box_into_inner<%s>(left)) * %d + %s(box_into_inner<%s>(right)), }\n}\n\n",
	   sum, tree, tree, tree, sum, tree, 1 + pg_rnd(3), sum, tree);
	pg_id_line(&pg_funcs, 0, fn);
	pg_bp(&pg_funcs, "fn %s(a: i64) -> i64\n{\n", fn);
	int bv = pg_rnd(9);
	pg_bp(&pg_funcs, "    let b = box_new<i64>(a + %d);\n    let s = box_new<string>(\"%s\");\n", bv, pg_words[pg_rnd(4)]);
	/* a random tree of depth <= 3 */
	pg_bp(&pg_funcs, "    let t = ");
	emit_tree(&pg_funcs, tree, 1 + pg_rnd(3));
	pg_bp(&pg_funcs, ";\n");
	pg_bp(&pg_funcs, "    box_get<i64>(b) + string_len(box_into_inner<string>(s)) + %s(t)\n}\n\n", sum);
	pg_add_call_int(fn, pg_rnd(20));
}


/* closures, capture-less closures, function values, composition */
void pg_feat_closure(void)
{
	char apply[24], compose[24], fn[24];
	pg_fresh("apply", apply, sizeof apply);
	pg_fresh("compose", compose, sizeof compose);
	pg_fresh("cf", fn, sizeof fn);
	pg_id_line(&pg_funcs, 0, apply);
	pg_bp(&pg_funcs, "fn %s(f: fn(i64) -> i64, x: i64) -> i64\n{\n    f(x)\n}\n\n", apply);
	int with_compose = pg_chance(50);
	char twice[24], gbox[24];
	pg_fresh("twice", twice, sizeof twice);
	/* a function value is not reassigned (U105, as the reference): the
	 * loop renews a Copy record holding it */
	pg_fresh("Gbox", gbox, sizeof gbox);
	PgField gf[1] = { { "f", "fn(i64) -> i64", NULL } };
	pg_record_decl(&pg_decls, gbox, "", gf, 1, NULL);
	pg_id_line(&pg_funcs, 0, twice);
	pg_bp(&pg_funcs, "fn %s<T>(f: fn(T) -> T, x: T) -> T\n{\n    f(f(x))\n}\n\n", twice);
	if (with_compose) {
		pg_id_line(&pg_funcs, 0, compose);
		pg_bp(&pg_funcs, "fn %s(f: fn(i64) -> i64, g: fn(i64) -> i64) -> fn(i64) -> i64\n{\n    fn(x: i64) -> i64 { g(f(x)) }\n}\n\n", compose);
	}
	/* an earlier scalar fn(i64) -> i64 as a function value */
	int fv = -1;
	for (int i = 0; i < pg_nfns; i++)
		if (pg_fns[i].np == 1 && pg_fns[i].pty[0] == T_I64 && pg_fns[i].ret == T_I64)
			fv = i;
	pg_id_line(&pg_funcs, 0, fn);
	pg_bp(&pg_funcs, "fn %s(a: i64, flag: bool) -> i64\n{\n", fn);
	pg_nvars = 0;
	pg_push_var("a", T_I64, 0);
	pg_bp(&pg_funcs, "    let k = ");
	pg_expr(&pg_funcs, T_I64, 2);
	pg_bp(&pg_funcs, ";\n    let scale = %s;\n", pg_chance(50) ? "2.5" : "0.5");
	pg_bp(&pg_funcs, "    let add = fn(x: i64) -> i64 { if flag { x + k } else { x - k } };\n");
	pg_bp(&pg_funcs, "    let pure = fn(x: i64) -> i64 { x * %d };\n", 1 + pg_rnd(4));
	pg_bp(&pg_funcs, "    let fl = fn(x: f64) -> f64 { x * scale };\n");
	pg_bp(&pg_funcs, "    let noarg = fn(b: bool) -> bool { !b };\n");
	if (fv >= 0)
		pg_bp(&pg_funcs, "    let named = %s;\n", pg_fns[fv].name);
	else
		pg_bp(&pg_funcs, "    let named = pure;\n");
	pg_bp(&pg_funcs, "    let h = %s;\n", with_compose ? "" : "add");
	if (with_compose) {
		pg_funcs.n -= 2;
		pg_bp(&pg_funcs, "%s(add, pure);\n", compose);
	}
	pg_bp(&pg_funcs, "    let mut gb = %s { f: h };\n    let mut i = 0;\n    while i < %d {\n", gbox, pg_rnd(4));
	if (with_compose)
		pg_bp(&pg_funcs, "        gb = %s { f: %s(gb.f, pure) };\n", gbox, compose);
	else
		pg_bp(&pg_funcs, "        gb = %s { f: add };\n", gbox);
	pg_bp(&pg_funcs, "        i = i + 1;\n        0\n    }\n    let g = gb.f;\n");
	if (pg_chance(40)) /* a function value made and never called */
		pg_bp(&pg_funcs, "    let idle = fn(x: u8) -> u8 { x };\n    let idle2 = %s;\n", apply);
	pg_bp(&pg_funcs, "    let o = %s;\n", pg_chance(70) ? "Option<i64>::Some { value: k % 100 }" : "Option<i64>::None {}");
	pg_bp(&pg_funcs, "    let addo = fn(v: i64) -> i64 { match o { Option::Some { value } => v + value, Option::None {} => v - 1, } };\n");
	pg_bp(&pg_funcs, "    let tw = %s<i64>(addo, %d) + i64_from_f64(%s<f64>(fl, 1.0) * 4.0);\n", twice, pg_rnd(9), twice);
	pg_bp(&pg_funcs, "    let fx = fl(%s);\n", pg_chance(50) ? "4.0" : "1.5");
	pg_bp(&pg_funcs, "    let fi = if fx > 3.0 { 1 } else { 0 };\n");
	pg_bp(&pg_funcs, "    let bi = if noarg(flag) { 2 } else { 0 };\n");
	int ta = pg_rnd(10), tb = pg_rnd(5);
	pg_bp(&pg_funcs, "    tw + %s(add, a) + %s(pure, %d) + g(1) %% 1000 + named(%d) %% 1000 + fi + bi\n}\n\n",
	   apply, apply, ta, tb);
	Buf c = { 0 };
	int ca = pg_rnd(10);
	pg_bp(&c, "%s(%d, %s)", fn, ca, pg_chance(50) ? "true" : "false");
	pg_add_call(&c);
	pg_bfree(&c);
}

/* classes with overriding methods and `super` */
void pg_feat_class(void)
{
	char base[24], sub[24], fn[24];
	pg_fresh("Cls", base, sizeof base);
	pg_fresh("Sub", sub, sizeof sub);
	pg_fresh("kf", fn, sizeof fn);
	pg_id_line(&pg_decls, 0, base);
	pg_bp(&pg_decls, "class %s {\n", base);
	pg_id_linef(&pg_decls, 1, "%s.legs", base);
	pg_bp(&pg_decls, "    legs: i64,\n");
	pg_id_linef(&pg_decls, 1, "%s.w", base);
	const char *wl = pg_chance(50) ? "u8" : "";
	pg_bp(&pg_decls, "    w: %s,\n", wl[0] ? "u8" : "i64");
	/* a string field makes the class owned: methods take `self: borrow C` (O001) */
	int named = pg_chance(40);
	const char *sm = named ? "borrow " : "";
	if (named) {
		pg_id_linef(&pg_decls, 1, "%s.name", base);
		pg_bp(&pg_decls, "    name: string,\n");
	}
	pg_bp(&pg_decls, "\n");
	pg_id_linef(&pg_decls, 1, "%s.speak", base);
	pg_bp(&pg_decls, "    fn speak(self: %s%s, times: i64) -> i64\n%s{\n        self.legs * times + %s\n    }\n\n", sm, base,
	   pg_chance(30) ? "        requires times >= 0\n" : "", named ? "string_len(self.name)" : "1");
	pg_id_linef(&pg_decls, 1, "%s.feet", base);
	pg_bp(&pg_decls, "    fn feet(self: %s%s) -> i64\n{\n        self.legs\n    }\n}\n\n", sm, base);
	pg_id_line(&pg_decls, 0, sub);
	pg_bp(&pg_decls, "class %s : %s {\n", sub, base);
	pg_id_linef(&pg_decls, 1, "%s.tricks", sub);
	pg_bp(&pg_decls, "    tricks: i64,\n\n");
	pg_id_linef(&pg_decls, 1, "%s.speak", sub);
	pg_bp(&pg_decls, "    fn speak(self: %s%s, times: i64) -> i64\n{\n        super.speak(times) * %d + self.tricks\n    }\n}\n\n", sm, sub,
	   1 + pg_rnd(3));
	pg_id_line(&pg_funcs, 0, fn);
	pg_bp(&pg_funcs, "fn %s(n: i64) -> i64\n{\n", fn);
	char nf[48] = "";
	if (named)
		snprintf(nf, sizeof nf, ", name: \"%s\"", pg_words[pg_rnd(PG_NWORDS)]);
	int dl = pg_rnd(6), dw = pg_rnd(9);
	pg_bp(&pg_funcs, "    let d = %s { legs: %d, w: %d%s%s, tricks: n };\n", sub, dl, dw, wl, nf);
	pg_bp(&pg_funcs, "    let a = %s { legs: %d%s, w: 1%s };\n", base, pg_rnd(6), nf, wl);
	pg_bp(&pg_funcs, "    let up: %s = %s { legs: n, w: 2%s, tricks: %d%s };\n", base, sub, wl, pg_rnd(9), nf);
	int s0 = pg_rnd(5);
	s0 -= pg_chance(10) ? 3 : 0;
	int s1 = pg_rnd(5), s2 = pg_rnd(5);
	pg_bp(&pg_funcs, "    d.speak(%d) * 100 + a.speak(%d) * 10 + d.feet() + up.speak(%d)\n}\n\n", s0, s1, s2);
	pg_add_call_int(fn, pg_rnd(10));
}

/* an owned record and a text-owning variant: own/borrow parameters */
void pg_feat_owned(void)
{
	char rec[24], tag[24], f1[24], f2[24], f3[24];
	pg_fresh("Person", rec, sizeof rec);
	pg_fresh("Tag", tag, sizeof tag);
	pg_fresh("ob", f1, sizeof f1);
	pg_fresh("oo", f2, sizeof f2);
	pg_fresh("ot", f3, sizeof f3);
	static const PgField recf[] = { { "name", "string", NULL }, { "age", "i64", NULL } };
	static const PgField labelf[] = { { "text", "string", NULL } }, countf[] = { { "n", "i64", NULL } };
	static const PgCase tagc[] = { { "Label", labelf, 1 }, { "Count", countf, 1 }, { "Empty", NULL, 0 } };
	pg_record_decl(&pg_decls, rec, "", recf, 2, NULL);
	pg_variant_decl(&pg_decls, tag, "", tagc, 3);
	pg_id_line(&pg_funcs, 0, f1);
	pg_bp(&pg_funcs, "fn %s(p: borrow %s) -> i64\n{\n    string_len(p.name) * 100 + p.age\n}\n\n", f1, rec);
	pg_id_line(&pg_funcs, 0, f2);
	pg_bp(&pg_funcs, "fn %s(p: own %s, extra: i64) -> i64\n{\n    let q = p with { age: extra };\n    match own q { %s { name, age } => string_len(name) + age, }\n}\n\n",
	   f2, rec, rec);
	pg_id_line(&pg_funcs, 0, f3);
	if (pg_chance(50))
		pg_bp(&pg_funcs, "fn %s(t: borrow %s) -> i64\n{\n    match borrow t { %s::Label { text } => string_len(text), %s::Count { n } => if n > %d { n } else { 0 }, %s::Empty {} => -1, }\n}\n\n",
		   f3, tag, tag, tag, pg_rnd(5), tag);
	else /* arms binding nothing, on an owned value */
		pg_bp(&pg_funcs, "fn %s(t: own %s) -> i64\n{\n    match own t { %s::Label { text: _ } => %d, %s::Count { n: _ } => 0, _ => -1, }\n}\n\n",
		   f3, tag, tag, pg_rnd(9), tag);
	Buf c = { 0 };
	int which = pg_rnd(3);
	const char *pw = pg_words[pg_rnd(4)];
	int pa = pg_rnd(90), pn = pg_rnd(1000), pe = pg_rnd(50);
	pg_bp(&c, "%s(%s { name: \"%s\", age: %d }) + %s(%s { age: 1, name: string_from_i64(%d) }, %d) + %s(", f1, rec, pw,
	   pa, f2, rec, pn, pe, f3);
	if (which == 0)
		pg_bp(&c, "%s::Label { text: \"%s\" })", tag, pg_words[pg_rnd(4)]);
	else if (which == 1)
		pg_bp(&c, "%s::Count { n: %d })", tag, pg_rnd(10));
	else
		pg_bp(&c, "%s::Empty {})", tag);
	pg_add_call(&c);
	pg_bfree(&c);
}

/* bounded recursion near the 256-frame call-depth limit (main is a frame) */
void pg_feat_depth(void)
{
	char fn[24];
	pg_fresh("rec", fn, sizeof fn);
	pg_id_line(&pg_funcs, 0, fn);
	pg_bp(&pg_funcs, "fn %s(n: i64, acc: i64) -> i64\n{\n    if n <= 0 { acc } else { %s(n - 1, acc + n %% %d) }\n}\n\n", fn, fn, 2 + pg_rnd(5));
	Buf c = { 0 };
	pg_bp(&c, "%s(%d, 0)", fn, pg_chance(70) ? pg_rnd(100) : 250 + pg_rnd(8));
	pg_add_call(&c);
	pg_bfree(&c);
}
