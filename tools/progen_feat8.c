/*
 * progen_feat8.c — scalar `match` at the types other than i64 near their
 * bounds, and owned values lent to `borrow` parameters again and again.
 * One function runs 2..5 random steps on an accumulator:
 *   - a value of type usize, u8, i32 or char chosen from values at or next
 *     to the type's bounds (a `match` on the accumulator picks one, or a
 *     checked conversion of it), then matched by literal arms with the
 *     type's suffix or char literals (`-2147483648i32`,
 *     `18446744073709551615usize`, `'\u{10ffff}'`), or-patterns of
 *     literals, a guarded binding, and the mandatory catch-all (`_` or a
 *     binding read in its arm); arms sometimes step past the bound
 *     (`n + 1i32`), where the lanes must agree on the failure;
 *   - a string lent as `borrow str` (string_as_str of its binding) to
 *     helpers several times, twice in one call; a Vec<i64> lent as
 *     `borrow Vec<i64>` with element reads (one helper reads without a
 *     bound check: vec.v1 code 2 at times); a record holding a string and
 *     a Vec lent as `borrow` several times (also twice in one call and in a
 *     bounded `while`), its fields read by the caller afterwards.
 * Deterministic per seed: progen.c calls it on a PRNG stream of its own.
 */
#include "progen.h"

#include <stdio.h>
#include <string.h>

static int uniq8;
static char rbw[24], fbs[24], fbs2[24], fbv[24], fbvx[24], fbr[24], fbr2[24];

enum { M_USIZE, M_U8, M_I32, M_CHAR, NM };

static const char *const pool_usize[] = { "0usize", "1usize", "2usize", "9223372036854775807usize",
					   "9223372036854775808usize", "18446744073709551614usize",
					   "18446744073709551615usize" };
static const char *const pool_u8[] = { "0u8", "1u8", "127u8", "128u8", "254u8", "255u8" };
static const char *const pool_i32[] = { "-2147483648i32", "-2147483647i32", "-1i32", "0i32", "1i32",
					 "2147483646i32", "2147483647i32" };
static const char *const pool_char[] = { "'\\0'", "'\\u{7f}'", "'\\u{80}'", "'\\u{ff}'", "'\\u{d7ff}'",
					  "'\\u{e000}'", "'\\u{fffd}'", "'\\u{10fffe}'", "'\\u{10ffff}'" };

static const char *const *pool(int t, int *n)
{
	switch (t) {
	case M_USIZE: *n = 7; return pool_usize;
	case M_U8: *n = 6; return pool_u8;
	case M_I32: *n = 7; return pool_i32;
	default: *n = 9; return pool_char;
	}
}

/* the i64 measure of a bound value `w` of type t */
static void measure(Buf *b, int t, const char *w)
{
	switch (t) {
	case M_USIZE:
		if (pg_chance(80))
			pg_bp(b, "i64_from_usize(%s %% 1000003usize)", w);
		else /* > i64::MAX fails convert.v1/1 */
			pg_bp(b, "i64_from_usize(%s)", w);
		break;
	case M_U8: pg_bp(b, "i64_from_u8(%s)", w); break;
	case M_I32: pg_bp(b, "i64_from_i32(%s)", w); break;
	default: pg_bp(b, "string_len(string_from_char(%s)) * 1000 + string_byte_at(string_from_char(%s), 0)", w, w); break;
	}
}

/* a step past the bound in an arm: overflow fails in every lane */
static void edge(Buf *b, int t, const char *w)
{
	switch (t) {
	case M_USIZE: pg_bp(b, "i64_from_usize((%s + 1usize) %% 1000usize)", w); break;
	case M_U8: pg_bp(b, "i64_from_u8(%s + 1u8)", w); break;
	case M_I32: pg_bp(b, "i64_from_i32(%s %s 1i32)", w, pg_chance(50) ? "+" : "-"); break;
	default: pg_bp(b, "string_len(string_from_char(%s))", w); break;
	}
}

static void step_match(Buf *b)
{
	int id = uniq8++;
	int t = pg_rnd(NM);
	int np;
	const char *const *p = pool(t, &np);
	int picked[8], npicked = 0; /* the pool values the scrutinee may take */
	static const char *const tyn[] = { "usize", "u8", "i32", "char" };
	/* the scrutinee: a pick among the pool, or a checked conversion */
	if (t != M_I32 && pg_chance(30)) {
		int m = 2 + pg_rnd(4);
		if (t == M_USIZE)
			pg_bp(b, "    let v%d = 18446744073709551615usize - usize_from_i64((acc %% %d + %d) %% %d);\n", id, m, m, m);
		else if (t == M_U8)
			pg_bp(b, "    let v%d = u8_from_i64((acc %% %d + %d) %% %d + %d);\n", id, m, m, m, pg_chance(50) ? 0 : 252);
		else
			pg_bp(b, "    let v%d = char_from_i64(%s - (acc %% %d + %d) %% %d);\n", id,
			      pg_chance(50) ? "1114111" : pg_chance(50) ? "57344" : "55295", m, m, m);
	} else {
		int m = 2 + pg_rnd(5);
		pg_bp(b, "    let v%d: %s = match (acc %% %d + %d) %% %d { ", id, tyn[t], m, m, m);
		for (int i = 0; i < m; i++) {
			int k = pg_rnd(np);
			picked[npicked++] = k;
			if (i < m - 1)
				pg_bp(b, "%d => %s, ", i, p[k]);
			else
				pg_bp(b, "_ => %s, };\n", p[k]);
		}
	}
	/* the arms: distinct pool literals, or-patterns, a guard */
	int used[16] = { 0 };
	pg_bp(b, "    acc = acc %% 1000003 + match v%d {\n", id);
	int arms = 1 + pg_rnd(4);
	for (int a = 0; a < arms; a++) {
		/* mostly a value the scrutinee may take */
		int k = npicked && pg_chance(60) ? picked[pg_rnd(npicked)] : pg_rnd(np);
		if (used[k])
			continue;
		used[k] = 1;
		pg_bp(b, "        %s", p[k]);
		if (pg_chance(35)) {
			int k2 = pg_rnd(np);
			if (!used[k2]) {
				used[k2] = 1;
				pg_bp(b, " | %s", p[k2]);
			}
		}
		pg_bp(b, " => %d,\n", pg_rnd(1000) - 300);
	}
	int gid = uniq8++;
	if (pg_chance(40)) {
		char w[16];
		snprintf(w, sizeof w, "g%d", gid);
		Buf e = { 0 };
		if (pg_chance(25))
			edge(&e, t, w);
		else
			measure(&e, t, w);
		/* one draw a statement: C leaves the order of arguments open */
		const char *op = pg_chance(50) ? ">" : "<=";
		const char *lim = p[pg_rnd(np)];
		pg_bp(b, "        g%d if g%d %s %s => %s,\n", gid, gid, op, lim, e.p);
		pg_bfree(&e);
	}
	if (pg_chance(50)) {
		pg_bp(b, "        _ => %d,\n", pg_rnd(50));
	} else {
		char w[16];
		snprintf(w, sizeof w, "h%d", gid);
		Buf e = { 0 };
		if (pg_chance(15))
			edge(&e, t, w);
		else
			measure(&e, t, w);
		pg_bp(b, "        h%d => %s,\n", gid, e.p);
		pg_bfree(&e);
	}
	pg_bp(b, "    };\n");
}

static void step_borrow(Buf *b)
{
	int id = uniq8++;
	const char *w = pg_words[pg_rnd(PG_NWORDS)];
	int smod = 2 + pg_rnd(5000);
	pg_bp(b, "    let s%d = string_concat(\"%s\", string_from_i64(acc %% %d));\n", id, w, smod);
	pg_bp(b, "    let t%d = string_as_str(s%d);\n", id, id);
	pg_bp(b, "    acc = acc %% 1000003 + %s(t%d) + %s(t%d, t%d) - %s(t%d);\n", fbs, id, fbs2, id, id, fbs, id);
	int cap = 2 + pg_rnd(3);
	int vmod = 50 + pg_rnd(100);
	int v1 = pg_rnd(30) - 10;
	pg_bp(b, "    let v%d = vec_push<i64>(vec_push<i64>(vec_with_capacity<i64>(%dusize), acc %% %d), %d);\n",
	      id, cap, vmod, v1);
	int i1 = pg_rnd(3), i2 = pg_rnd(4);
	pg_bp(b, "    acc = acc + %s(v%d, %dusize) * 2 + %s(v%d, %dusize) - %s(v%d, 0usize);\n", fbv, id, i1,
	      pg_chance(20) ? fbvx : fbv, id, i2, fbv, id);
	int q = pg_rnd(4);
	int rmod = 100 + pg_rnd(900);
	const char *rw = pg_words[pg_rnd(PG_NWORDS)];
	int nmod = 3 + pg_rnd(40);
	pg_bp(b, "    let r%d = %s { s: string_concat(string_from_i64(acc %% %d), \"%s\"), v: v%d, n: acc %% %d };\n", id, rbw,
	      rmod, rw, id, nmod);
	pg_bp(b, "    acc = acc + %s(r%d) + %s(r%d, r%d);\n", fbr, id, fbr2, id, id);
	if (q == 0) {
		int n = 1 + pg_rnd(3);
		pg_bp(b, "    let mut j%d = 0;\n    while j%d < %d {\n        acc = acc %% 1000003 + %s(r%d) * j%d;\n        j%d = j%d + 1;\n        0\n    }\n",
		      id, id, n, fbr, id, id, id, id);
	}
	pg_bp(b, "    acc = acc + string_len(r%d.s) + r%d.n + %s(r%d.v, 1usize) + %s(r%d);\n", id, id, fbv, id, fbr, id);
	if (q == 1)
		pg_bp(b, "    acc = acc + string_len(s%d) + %s(t%d);\n", id, fbs, id);
}

void pg_feat_borrowscalar(char *call, size_t cap)
{
	pg_fresh("Bw", rbw, sizeof rbw);
	pg_fresh("bws", fbs, sizeof fbs);
	pg_fresh("bws2", fbs2, sizeof fbs2);
	pg_fresh("bwv", fbv, sizeof fbv);
	pg_fresh("bwvx", fbvx, sizeof fbvx);
	pg_fresh("bwr", fbr, sizeof fbr);
	pg_fresh("bwr2", fbr2, sizeof fbr2);
	PgField fr[] = { { "s", "string", NULL }, { "v", "Vec<i64>", NULL }, { "n", "i64", NULL } };
	pg_record_decl(&pg_decls, rbw, "", fr, 3, NULL);
	pg_id_line(&pg_funcs, 0, fbs);
	pg_bp(&pg_funcs, "fn %s(s: borrow str) -> i64\n{\n    str_len_bytes(s) * 7 + match str_byte_at(s, 0usize) { Option::Some { value } => i64_from_u8(value), Option::None {} => -1, }\n}\n\n", fbs);
	pg_id_line(&pg_funcs, 0, fbs2);
	pg_bp(&pg_funcs, "fn %s(a: borrow str, b: borrow str) -> i64\n{\n    str_len_bytes(a) * 3 - str_len_bytes(b) + if str_starts_with(a, b) { 11 } else { 0 }\n}\n\n", fbs2);
	pg_id_line(&pg_funcs, 0, fbv);
	pg_bp(&pg_funcs, "fn %s(v: borrow Vec<i64>, i: usize) -> i64\n{\n    if i < vec_len<i64>(v) { vec_get<i64>(v, i) } else { 0 - i64_from_usize(vec_len<i64>(v)) }\n}\n\n", fbv);
	pg_id_line(&pg_funcs, 0, fbvx);
	pg_bp(&pg_funcs, "fn %s(v: borrow Vec<i64>, i: usize) -> i64\n{\n    vec_get<i64>(v, i) + i64_from_usize(vec_capacity<i64>(v))\n}\n\n", fbvx);
	pg_id_line(&pg_funcs, 0, fbr);
	pg_bp(&pg_funcs, "fn %s(r: borrow %s) -> i64\n{\n    string_len(r.s) + r.n * 2 + i64_from_usize(vec_len<i64>(r.v)) + %s(r.v, 0usize)\n}\n\n", fbr, rbw, fbv);
	pg_id_line(&pg_funcs, 0, fbr2);
	pg_bp(&pg_funcs, "fn %s(a: borrow %s, b: borrow %s) -> i64\n{\n    %s(a) - %s(b) + a.n * b.n %% 1000 + string_len(string_concat(string_slice(a.s, 0, string_len(a.s)), \"-\"))\n}\n\n", fbr2, rbw, rbw, fbr, fbr);

	char fn[24];
	pg_fresh("bsf", fn, sizeof fn);
	Buf body = { 0 };
	int n = 2 + pg_rnd(4);
	for (int i = 0; i < n; i++) {
		if (pg_rnd(3) == 0)
			step_borrow(&body);
		else
			step_match(&body);
	}
	pg_id_line(&pg_funcs, 0, fn);
	pg_bp(&pg_funcs, "fn %s(x0: i64) -> i64\n{\n    let mut acc = x0;\n%s    acc\n}\n\n", fn, body.p);
	pg_bfree(&body);
	snprintf(call, cap, "%s(%d)", fn, pg_rnd(4000) - 1000);
}
