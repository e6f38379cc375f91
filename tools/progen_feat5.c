/*
 * progen_feat5.c — generics at owned types (tools/progen.c's generic
 * templates instantiate at scalars and `string`; this one at every owned
 * shape).  A generic record `GoT<T> { item: T, tag: string }`, a
 * recursive generic variant `GoC<T>` (a list through `Box`), and generic
 * functions that keep, drop, wrap, count, push and apply — each instantiated
 * at `string`, `Vec<string>`, a record with a string field, `Option<string>`,
 * `i64` and `GoT<string>` (a generic record inside its own instance); the
 * record sometimes under an invariant its generated text may break.  A
 * body of random steps moves fresh values through them: into a `GoT`
 * literal and out of it (`match own`, `with`), a value dropped by the branch
 * not taken, a conditional move into an `Option` (released by the other
 * branch), a `Vec<T>` built by a generic push and read by `vec_clone_at`
 * (sometimes past its end), a closure over an owned parameter handed to a
 * generic apply, closures returned by a function and kept in a `Vec`, an
 * `Option` and a `Result`, a list built and counted by recursion near the
 * 256-frame bound, a generic body reading its owned T parameter twice (the
 * lanes copy T-typed slots).  Every lane must release each value exactly once
 * and agree on any failure.  Deterministic per seed: progen.c calls it on a
 * PRNG stream of its own.
 */
#include "progen.h"

#include <stdio.h>
#include <string.h>

enum { G_STR, G_VEC, G_REC, G_OPT, G_I64, G_TAG, NG };

static char grec[24], gtag[24], gcell[24];
static char fdup[24], fdeep[24], fkeep[24], fretag[24], fpick[24], fwrap[24], fcount[24], ffirst[24], fpush[24], flen[24], fapply[24], fmk[24];
static char meas[NG][24];

/* the spelling of type t */
static void ty(Buf *b, int t)
{
	switch (t) {
	case G_STR: pg_bp(b, "string"); break;
	case G_VEC: pg_bp(b, "Vec<string>"); break;
	case G_REC: pg_bp(b, "%s", grec); break;
	case G_OPT: pg_bp(b, "Option<string>"); break;
	case G_I64: pg_bp(b, "i64"); break;
	default: pg_bp(b, "%s<string>", gtag); break;
	}
}

/* a fresh string (short: tags stay under most invariants) */
static void pstr(Buf *b)
{
	int k = 1 + pg_rnd(40);
	switch (pg_rnd(4)) {
	case 0: pg_bp(b, "string_from_i64(a * %d)", k); break;
	case 1: pg_bp(b, "\"%s\"", pg_words[pg_rnd(PG_NWORDS)]); break;
	case 2: pg_bp(b, "string_concat(\"g\", string_from_i64(a + %d))", k); break;
	default: pg_bp(b, "string_from_i64(%d)", k); break;
	}
}

/* a fresh value of type t */
static void pval(Buf *b, int t)
{
	int k = 1 + pg_rnd(30);
	switch (t) {
	case G_STR:
		pstr(b);
		break;
	case G_VEC:
		if (pg_chance(20)) {
			pg_bp(b, "vec_with_capacity<string>(%dusize)", pg_rnd(3));
		} else {
			pg_bp(b, "vec_push<string>(vec_with_capacity<string>(2usize), ");
			pstr(b);
			pg_bp(b, ")");
		}
		break;
	case G_REC:
		pg_bp(b, "%s { s: ", grec);
		pstr(b);
		pg_bp(b, ", n: a %% %d }", k + 1);
		break;
	case G_OPT:
		if (pg_chance(30)) {
			pg_bp(b, "Option<string>::None {}");
		} else {
			pg_bp(b, "Option<string>::Some { value: ");
			pstr(b);
			pg_bp(b, " }");
		}
		break;
	case G_I64:
		pg_bp(b, "a * %d %% 1000", k);
		break;
	default:
		pg_bp(b, "%s<string> { item: ", gtag);
		pstr(b);
		pg_bp(b, ", tag: ");
		pstr(b);
		pg_bp(b, " }");
		break;
	}
}

/* a condition over a and acc */
static void cond(Buf *b)
{
	int k = 2 + pg_rnd(5);
	if (pg_chance(50))
		pg_bp(b, "a %% %d == %d", k, pg_rnd(k));
	else
		pg_bp(b, "acc %% %d < %d", k, pg_rnd(k + 1));
}

/* one step of the body, appended to b */
static void step(Buf *b, int t)
{
	char n1[24], n2[24];
	Buf T = { 0 };
	ty(&T, t);
	const char *M = meas[t];
	int r = pg_rnd(11);
	switch (r) {
	case 10: /* a generic body reading its T parameter twice: at an owned T
		  * every lane copies (T-typed slots are never moved) */
		pg_fresh("gd", n1, sizeof n1);
		pg_bp(b, "    let %s = %s<%s>(", n1, fdup, T.p);
		pval(b, t);
		pg_bp(b, ");\n    acc = acc + %s<%s>(%s) + %s(vec_clone_at<%s>(%s, 1usize));\n", flen, T.p, n1, M, T.p, n1);
		break;
	case 9: /* a list built and counted by recursion near the 256-frame bound */
		pg_bp(b, "    acc = acc + %s<string>(%s(a, %d)) %% 1000;\n", fcount, fdeep, 200 + pg_rnd(58));
		break;
	case 0: /* into a GoT literal and out again, or the alternative */
		pg_bp(b, "    acc = acc + %s(%s<%s>(%s<%s> { item: ", M, fkeep, T.p, gtag, T.p);
		pval(b, t);
		pg_bp(b, ", tag: ");
		pstr(b);
		pg_bp(b, " }, ");
		pval(b, t);
		pg_bp(b, ", ");
		cond(b);
		pg_bp(b, "));\n");
		break;
	case 1: /* one of two kept, the other dropped */
		pg_bp(b, "    acc = acc + %s(%s<%s>(", M, fpick, T.p);
		pval(b, t);
		pg_bp(b, ", ");
		pval(b, t);
		pg_bp(b, ", ");
		cond(b);
		pg_bp(b, "));\n");
		break;
	case 2: /* wrapped in a GoC list, then counted or taken apart */
		pg_fresh("gc", n1, sizeof n1);
		pg_bp(b, "    let %s = %s<%s>(", n1, fwrap, T.p);
		pval(b, t);
		pg_bp(b, ", a %% %d);\n", 2 + pg_rnd(3));
		pg_bp(b, "    acc = acc + if ");
		cond(b);
		pg_bp(b, " { %s<%s>(%s) } else { %s(%s<%s>(%s, ", fcount, T.p, n1, M, ffirst, T.p, n1);
		pval(b, t);
		pg_bp(b, ")) };\n");
		break;
	case 3: { /* a Vec<T> through the generic push, read by a deep copy */
		int idx = pg_chance(6) ? 2 : pg_rnd(2);
		pg_fresh("gv", n1, sizeof n1);
		pg_bp(b, "    let %s = %s<%s>(%s<%s>(vec_with_capacity<%s>(%dusize), ", n1, fpush, T.p, fpush, T.p, T.p, 2 + pg_rnd(2));
		pval(b, t);
		pg_bp(b, "), ");
		pval(b, t);
		pg_bp(b, ");\n");
		pg_bp(b, "    acc = acc + %s<%s>(%s) + %s(vec_clone_at<%s>(%s, %dusize));\n", flen, T.p, n1, M, T.p, n1, idx);
		break;
	}
	case 4: /* a conditional move into an Option: the other branch releases */
		pg_fresh("gx", n1, sizeof n1);
		pg_fresh("go", n2, sizeof n2);
		pg_bp(b, "    let %s = ", n1);
		pval(b, t);
		pg_bp(b, ";\n    let %s = if ", n2);
		cond(b);
		pg_bp(b, " { Option<%s>::Some { value: %s } } else { Option<%s>::None {} };\n", T.p, n1, T.p);
		pg_bp(b, "    acc = acc + match %s%s { Option::Some { value } => %s(value), Option::None {} => 1, };\n",
		      t == G_I64 ? "" : "own ", n2, M);
		break;
	case 5: /* a retag through `with` */
		pg_fresh("gt", n1, sizeof n1);
		pg_bp(b, "    let %s = %s<%s>(%s<%s> { item: ", n1, fretag, T.p, gtag, T.p);
		pval(b, t);
		pg_bp(b, ", tag: \"t\" }, a * %d);\n", 1 + pg_rnd(9000));
		pg_bp(b, "    acc = acc + string_len(%s.tag) + %s(%s<%s>(%s, ", n1, M, fkeep, T.p, n1);
		pval(b, t);
		pg_bp(b, ", true));\n");
		break;
	case 6: /* a closure over an owned parameter, applied generically */
		pg_fresh("gq", n1, sizeof n1);
		pg_bp(b, "    acc = acc + %s<%s>(fn(%s: %s) -> i64 { %s(%s) + %d }, ", fapply, T.p, n1, T.p, M, n1, pg_rnd(9));
		pval(b, t);
		pg_bp(b, ");\n");
		break;
	case 7: { /* closures returned by a function, kept in a Vec, an Option, a Result */
		int idx = pg_chance(5) ? 2 : pg_rnd(2);
		pg_fresh("gf", n1, sizeof n1);
		pg_fresh("gr", n2, sizeof n2);
		/* one draw per statement: C leaves argument order unspecified */
		int m1 = 2 + pg_rnd(7);
		int m2 = pg_rnd(9);
		pg_bp(b, "    let %s = vec_push<fn(i64) -> i64>(vec_push<fn(i64) -> i64>(vec_with_capacity<fn(i64) -> i64>(2usize), %s(a %% %d)), %s(%d));\n",
		      n1, fmk, m1, fmk, m2);
		pg_bp(b, "    let %s = if ", n2);
		cond(b);
		pg_bp(b, " { Result<fn(i64) -> i64, string>::Ok { value: vec_get<fn(i64) -> i64>(%s, %dusize) } } else { Result<fn(i64) -> i64, string>::Err { error: ", n1, idx);
		pstr(b);
		pg_bp(b, " } };\n");
		pg_bp(b, "    acc = acc + match own %s { Result::Ok { value } => value(acc %% 100), Result::Err { error } => string_len(error), } %% 1000;\n", n2);
		break;
	}
	default: { /* an Option<T> through the generic keep: nested owned payloads */
		pg_fresh("gn", n1, sizeof n1);
		pg_bp(b, "    let %s = %s<Option<%s>>(%s<Option<%s>> { item: Option<%s>::Some { value: ", n1, fkeep, T.p, gtag, T.p, T.p);
		pval(b, t);
		pg_bp(b, " }, tag: ");
		pstr(b);
		pg_bp(b, " }, Option<%s>::None {}, ", T.p);
		cond(b);
		pg_bp(b, ");\n");
		pg_bp(b, "    acc = acc + match %s%s { Option::Some { value } => %s(value), Option::None {} => 2, };\n",
		      t == G_I64 ? "" : "own ", n1, M);
		break;
	}
	}
	pg_bp(b, "    acc = acc %% 1000003;\n");
	pg_bfree(&T);
}

void pg_feat_gowned(char *call, size_t cap)
{
	pg_fresh("GoR", grec, sizeof grec);
	pg_fresh("GoT", gtag, sizeof gtag);
	pg_fresh("GoC", gcell, sizeof gcell);
	pg_fresh("gokeep", fkeep, sizeof fkeep);
	pg_fresh("goretag", fretag, sizeof fretag);
	pg_fresh("gopick", fpick, sizeof fpick);
	pg_fresh("gowrap", fwrap, sizeof fwrap);
	pg_fresh("gocount", fcount, sizeof fcount);
	pg_fresh("gofirst", ffirst, sizeof ffirst);
	pg_fresh("godeep", fdeep, sizeof fdeep);
	pg_fresh("godup", fdup, sizeof fdup);
	pg_fresh("gopush", fpush, sizeof fpush);
	pg_fresh("golen", flen, sizeof flen);
	pg_fresh("goapply", fapply, sizeof fapply);
	pg_fresh("gomk", fmk, sizeof fmk);
	static const char *const mp[NG] = { "goms", "gomv", "gomr", "gomo", "gomi", "gomt" };
	for (int i = 0; i < NG; i++)
		pg_fresh(mp[i], meas[i], sizeof meas[i]);

	/* a generic record cannot declare an invariant (C103): the plain one
	 * does, on the text a generated value may make too long */
	static const PgField recf[] = { { "s", "string", NULL }, { "n", "i64", NULL } };
	char req[48];
	int cap_s = pg_chance(30) ? 6 + pg_rnd(4) : 0;
	snprintf(req, sizeof req, "string_len(s) < %d", cap_s);
	pg_record_decl(&pg_decls, grec, "", recf, 2, cap_s ? req : NULL);
	static const PgField tagf[] = { { "item", "T", NULL }, { "tag", "string", NULL } };
	pg_record_decl(&pg_decls, gtag, "<T>", tagf, 2, NULL);
	char boxed[64];
	snprintf(boxed, sizeof boxed, "Box<%s<T>>", gcell);
	const PgField onef[] = { { "v", "T", NULL } };
	const PgField twof[] = { { "a", "T", NULL }, { "b", boxed, NULL } };
	const PgCase cases[] = { { "Nil", NULL, 0 }, { "One", onef, 1 }, { "Two", twof, 2 } };
	pg_variant_decl(&pg_decls, gcell, "<T>", cases, 3);

	int klen = pg_rnd(4);
	pg_id_line(&pg_funcs, 0, fkeep);
	pg_bp(&pg_funcs, "fn %s<T>(t: own %s<T>, alt: T, flag: bool) -> T\n{\n    match own t { %s { item, tag } => if flag && string_len(tag) > %d { item } else { alt }, }\n}\n\n",
	      fkeep, gtag, gtag, klen);
	pg_id_line(&pg_funcs, 0, fretag);
	pg_bp(&pg_funcs, "fn %s<T>(t: own %s<T>, n: i64) -> %s<T>\n{\n    t with { tag: string_from_i64(n) }\n}\n\n", fretag, gtag, gtag);
	pg_id_line(&pg_funcs, 0, fpick);
	pg_bp(&pg_funcs, "fn %s<T>(x: T, y: T, first: bool) -> T\n{\n    if first { x } else { y }\n}\n\n", fpick);
	pg_id_line(&pg_funcs, 0, fwrap);
	pg_bp(&pg_funcs, "fn %s<T>(x: T, n: i64) -> %s<T>\n{\n    if n > 1 { %s<T>::Two { a: x, b: box_new<%s<T>>(%s<T>::Nil {}) } } else { if n > 0 { %s<T>::One { v: x } } else { %s<T>::Nil {} } }\n}\n\n",
	      fwrap, gcell, gcell, gcell, gcell, gcell, gcell);
	pg_id_line(&pg_funcs, 0, fcount);
	pg_bp(&pg_funcs, "fn %s<T>(c: own %s<T>) -> i64\n{\n    match own c { %s::Nil {} => 0, %s::One { v: _ } => 1, %s::Two { a: _, b } => 1 + %s<T>(box_into_inner<%s<T>>(b)), }\n}\n\n",
	      fcount, gcell, gcell, gcell, gcell, fcount, gcell);
	pg_id_line(&pg_funcs, 0, fdup);
	pg_bp(&pg_funcs, "fn %s<T>(x: T) -> Vec<T>\n{\n    let y = x;\n    vec_push<T>(vec_push<T>(vec_with_capacity<T>(2usize), x), y)\n}\n\n", fdup);
	pg_id_line(&pg_funcs, 0, fdeep);
	pg_bp(&pg_funcs, "fn %s(a: i64, n: i64) -> %s<string>\n{\n    if n <= 0 { %s<string>::Nil {} } else { %s<string>::Two { a: string_from_i64(a + n), b: box_new<%s<string>>(%s(a, n - 1)) } }\n}\n\n",
	      fdeep, gcell, gcell, gcell, gcell, fdeep);
	pg_id_line(&pg_funcs, 0, ffirst);
	pg_bp(&pg_funcs, "fn %s<T>(c: own %s<T>, d: T) -> T\n{\n    match own c { %s::Nil {} => d, %s::One { v } => v, %s::Two { a, b: _ } => a, }\n}\n\n",
	      ffirst, gcell, gcell, gcell, gcell);
	pg_id_line(&pg_funcs, 0, fpush);
	pg_bp(&pg_funcs, "fn %s<T>(v: own Vec<T>, x: T) -> Vec<T>\n{\n    vec_push<T>(v, x)\n}\n\n", fpush);
	pg_id_line(&pg_funcs, 0, flen);
	pg_bp(&pg_funcs, "fn %s<T>(v: borrow Vec<T>) -> i64\n{\n    i64_from_usize(vec_len<T>(v))\n}\n\n", flen);
	pg_id_line(&pg_funcs, 0, fapply);
	pg_bp(&pg_funcs, "fn %s<T>(f: fn(T) -> i64, x: T) -> i64\n{\n    f(x)\n}\n\n", fapply);
	pg_id_line(&pg_funcs, 0, fmk);
	pg_bp(&pg_funcs, "fn %s(k: i64) -> fn(i64) -> i64\n{\n    if k %% 2 == 0 { fn(x: i64) -> i64 { x * k + 1 } } else { fn(x: i64) -> i64 { x - k } }\n}\n\n", fmk);
	/* the measures: each consumes its value */
	pg_id_line(&pg_funcs, 0, meas[G_STR]);
	pg_bp(&pg_funcs, "fn %s(x: string) -> i64\n{\n    string_len(x) * 3 + 1\n}\n\n", meas[G_STR]);
	pg_id_line(&pg_funcs, 0, meas[G_VEC]);
	pg_bp(&pg_funcs, "fn %s(x: own Vec<string>) -> i64\n{\n    if vec_len<string>(x) > 0usize { string_len(vec_clone_at<string>(x, 0usize)) + 5 } else { 4 }\n}\n\n", meas[G_VEC]);
	pg_id_line(&pg_funcs, 0, meas[G_REC]);
	pg_bp(&pg_funcs, "fn %s(x: %s) -> i64\n{\n    match own x { %s { s, n } => %s(s) + n %% 100, }\n}\n\n", meas[G_REC], grec, grec, meas[G_STR]);
	pg_id_line(&pg_funcs, 0, meas[G_OPT]);
	pg_bp(&pg_funcs, "fn %s(x: Option<string>) -> i64\n{\n    match own x { Option::Some { value } => %s(value) + 2, Option::None {} => 3, }\n}\n\n", meas[G_OPT], meas[G_STR]);
	pg_id_line(&pg_funcs, 0, meas[G_I64]);
	pg_bp(&pg_funcs, "fn %s(x: i64) -> i64\n{\n    x %% 1000\n}\n\n", meas[G_I64]);
	pg_id_line(&pg_funcs, 0, meas[G_TAG]);
	pg_bp(&pg_funcs, "fn %s(x: own %s<string>) -> i64\n{\n    %s(%s<string>(x, \"d\", true)) + 7\n}\n\n", meas[G_TAG], gtag, meas[G_STR], fkeep);

	char fn[24];
	pg_fresh("gof", fn, sizeof fn);
	Buf body = { 0 };
	/* two types a program (each adds an instance of every generic it
	 * meets: the C and Wasm lanes compile them all) */
	int t0 = pg_rnd(NG);
	int t1 = pg_rnd(NG);
	int n = 2 + pg_rnd(5);
	for (int i = 0; i < n; i++)
		step(&body, pg_chance(50) ? t0 : t1);
	pg_id_line(&pg_funcs, 0, fn);
	pg_bp(&pg_funcs, "fn %s(a: i64) -> i64\n{\n    let mut acc = a;\n%s    acc\n}\n\n", fn, body.p);
	pg_bfree(&body);
	snprintf(call, cap, "%s(%d)", fn, pg_rnd(40));
}
