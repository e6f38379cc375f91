/*
 * progen_feat7.c — record patterns: `match` arms that destructure a record
 * (the one irrefutable arm a record scrutinee takes, LANGUAGE.md §4.5) and
 * variant payloads whose fields are destructured by nested record patterns
 * (`Case { at: In { a, b: _ }, w }`), which no other feature file writes.
 * One function runs 2..5 random steps on an accumulator:
 *   - a plain `match` of a Copy record holding a Copy record: each field
 *     bound by shorthand, renamed, ignored with `_`, or (the nested field)
 *     destructured by a nested record pattern or bound whole, in either
 *     field order;
 *   - `match borrow` of an owned record (a string field, a Copy record
 *     field), the record read again afterwards, then `match own` of it;
 *   - `match own` of an owned variant whose cases carry a record payload
 *     destructured in the arm, in a bounded `while` (each iteration builds
 *     and consumes its own value);
 *   - a record pattern whose arm yields a record (a `with` of the bound
 *     sub-record) that a second record pattern reads.
 * i32 fields and products may overflow: the lanes must agree on the
 * failure.  Deterministic per seed: progen.c calls it on a PRNG stream of
 * its own.
 */
#include "progen.h"

#include <stdio.h>
#include <string.h>

static char rin[24], rout[24], rown[24], rvar[24];
static int uniq7;

/* the pattern of field `f` (an i64 or i32 field `a`/`b` of the inner
 * record): writes the pattern into p and the i64 expression for the bound
 * value into e ("0" when ignored) */
static void scalar_field(Buf *p, Buf *e, const char *f, int is32)
{
	int id = uniq7++;
	switch (pg_rnd(3)) {
	case 0:
		pg_bp(p, "%s", f);
		pg_bp(e, is32 ? "i64_from_i32(%s)" : "%s", f);
		break;
	case 1:
		pg_bp(p, "%s: v%d", f, id);
		if (is32)
			pg_bp(e, "i64_from_i32(v%d)", id);
		else
			pg_bp(e, "v%d", id);
		break;
	default:
		pg_bp(p, "%s: _", f);
		pg_bp(e, "0");
		break;
	}
}

/* a pattern for a whole inner record (fields a: i64, b: i32) under field
 * name `f`: nested pattern, whole binding or `_`; e gets its i64 measure */
static void inner_field(Buf *p, Buf *e, const char *f)
{
	int id = uniq7++;
	int r = pg_rnd(4);
	if (r < 2) {
		Buf pa = { 0 }, ea = { 0 }, pb = { 0 }, eb = { 0 };
		scalar_field(&pa, &ea, "a", 0);
		scalar_field(&pb, &eb, "b", 1);
		if (pg_chance(50))
			pg_bp(p, "%s: %s { %s, %s }", f, rin, pa.p, pb.p);
		else
			pg_bp(p, "%s: %s { %s, %s }", f, rin, pb.p, pa.p);
		pg_bp(e, "(%s + %s * 3)", ea.p, eb.p);
		pg_bfree(&pa), pg_bfree(&ea), pg_bfree(&pb), pg_bfree(&eb);
	} else if (r == 2) {
		pg_bp(p, "%s: w%d", f, id);
		pg_bp(e, "(w%d.a - i64_from_i32(w%d.b))", id, id);
	} else {
		pg_bp(p, "%s: _", f);
		pg_bp(e, "1");
	}
}

/* an inner record literal from the accumulator */
static void inner_lit(Buf *b, const char *base)
{
	int k = pg_rnd(90);
	if (pg_chance(15)) /* i32 overflow when k > 47 */
		pg_bp(b, "%s { a: %s, b: 2147483600i32 + %di32 }", rin, base, k);
	else
		pg_bp(b, "%s { b: %di32 - 40i32, a: %s * %d }", rin, k, base, 1 + pg_rnd(5));
}

static void step_copy(Buf *b)
{
	int id = uniq7++;
	Buf lit = { 0 }, p = { 0 }, e1 = { 0 }, pk = { 0 }, ek = { 0 };
	inner_lit(&lit, "acc");
	pg_bp(b, "    let c%d = %s { p: %s, k: acc %% %d, f: acc %% 2 == 0 };\n", id, rout, lit.p, 7 + pg_rnd(90));
	inner_field(&p, &e1, "p");
	int kid = uniq7++;
	switch (pg_rnd(3)) {
	case 0: pg_bp(&pk, "k: k%d", kid); pg_bp(&ek, "k%d", kid); break;
	case 1: pg_bp(&pk, "k: _"); pg_bp(&ek, "5"); break;
	default: pg_bp(&pk, "k"); pg_bp(&ek, "k"); break;
	}
	int fmode = pg_rnd(3);
	const char *fp = fmode == 0 ? "f" : fmode == 1 ? "f: _" : "f: g";
	const char *fv = fmode == 0 ? "f" : fmode == 1 ? "true" : "g";
	if (pg_chance(50))
		pg_bp(b, "    acc = acc %% 1000003 + match c%d {\n        %s { %s, %s, %s } => if %s { %s + %s } else { %s - %s },\n    };\n",
		      id, rout, p.p, pk.p, fp, fv, e1.p, ek.p, e1.p, ek.p);
	else
		pg_bp(b, "    acc = acc %% 1000003 + match c%d {\n        %s { %s, %s, %s } => if %s { %s + %s } else { %s - %s },\n    };\n",
		      id, rout, fp, pk.p, p.p, fv, ek.p, e1.p, ek.p, e1.p);
	pg_bfree(&lit), pg_bfree(&p), pg_bfree(&e1), pg_bfree(&pk), pg_bfree(&ek);
}

static void step_owned(Buf *b)
{
	int id = uniq7++;
	Buf lit = { 0 }, p = { 0 }, e = { 0 }, p2 = { 0 }, e2 = { 0 };
	inner_lit(&lit, "acc");
	/* one draw a statement (argument order is unspecified in C: gcc and
	 * clang would differ), in the order gcc evaluated them first */
	int nmod = 3 + pg_rnd(50);
	int smod = 50 + pg_rnd(900);
	const char *w = pg_words[pg_rnd(PG_NWORDS)];
	pg_bp(b, "    let o%d = %s { s: string_concat(\"%s\", string_from_i64(acc %% %d)), q: %s, n: acc %% %d };\n",
	      id, rown, w, smod, lit.p, nmod);
	if (pg_chance(70)) {
		inner_field(&p, &e, "q");
		int sid = uniq7++;
		if (pg_chance(50))
			pg_bp(b, "    acc = acc + match borrow o%d {\n        %s { s: t%d, %s, n: _ } => string_len(t%d) + %s,\n    };\n",
			      id, rown, sid, p.p, sid, e.p);
		else
			pg_bp(b, "    acc = acc + match borrow o%d {\n        %s { n, %s, s: _ } => n * 2 + %s,\n    };\n",
			      id, rown, p.p, e.p);
		pg_bp(b, "    acc = acc + string_len(o%d.s) + o%d.q.a %% 11;\n", id, id);
	}
	inner_field(&p2, &e2, "q");
	pg_bp(b, "    acc = acc %% 1000003 + match own o%d {\n        %s { %s, s, n } => string_len(string_concat(s, \"!\")) + n - %s,\n    };\n",
	      id, rown, p2.p, e2.p);
	pg_bfree(&lit), pg_bfree(&p), pg_bfree(&e), pg_bfree(&p2), pg_bfree(&e2);
}

static void step_variant(Buf *b, int ind)
{
	int id = uniq7++;
	Buf lit = { 0 }, p = { 0 }, e = { 0 }, p2 = { 0 }, e2 = { 0 };
	char base[32];
	snprintf(base, sizeof base, "(acc + j%d)", id);
	inner_lit(&lit, base);
	int n = 1 + pg_rnd(3);
	pg_indent(b, ind);
	pg_bp(b, "let mut j%d = 0;\n", id);
	pg_indent(b, ind);
	pg_bp(b, "while j%d < %d {\n", id, n);
	int bval = pg_rnd(100);
	int sbase = pg_rnd(1000);
	pg_indent(b, ind + 1);
	pg_bp(b, "let u%d = if (acc + j%d) %% 3 == 0 { %s::Pt { at: %s, w: j%d } } else { if (acc + j%d) %% 3 == 1 { %s::Name { s: string_from_i64(j%d + %d), q: %s { a: j%d, b: %di32 } } } else { %s::Nil {} } };\n",
	      id, id, rvar, lit.p, id, id, rvar, id, sbase, rin, id, bval, rvar);
	inner_field(&p, &e, "at");
	inner_field(&p2, &e2, "q");
	pg_indent(b, ind + 1);
	pg_bp(b, "acc = acc %% 1000003 + match own u%d {\n", id);
	pg_indent(b, ind + 2);
	pg_bp(b, "%s::Pt { %s, w } => w + %s,\n", rvar, p.p, e.p);
	pg_indent(b, ind + 2);
	if (pg_chance(50))
		pg_bp(b, "%s::Name { s: _, %s } => %s,\n", rvar, p2.p, e2.p);
	else
		pg_bp(b, "%s::Name { %s, s } => string_len(s) * %s,\n", rvar, p2.p, e2.p);
	pg_indent(b, ind + 2);
	pg_bp(b, "%s::Nil {} => %d,\n", rvar, pg_rnd(9));
	pg_indent(b, ind + 1);
	pg_bp(b, "};\n");
	pg_indent(b, ind + 1);
	pg_bp(b, "j%d = j%d + 1;\n", id, id);
	pg_indent(b, ind + 1);
	pg_bp(b, "0\n");
	pg_indent(b, ind);
	pg_bp(b, "}\n");
	pg_bfree(&lit), pg_bfree(&p), pg_bfree(&e), pg_bfree(&p2), pg_bfree(&e2);
}

static void step_yield(Buf *b)
{
	int id = uniq7++;
	Buf lit = { 0 };
	inner_lit(&lit, "acc");
	int fcut = pg_rnd(300);
	int kmod = 5 + pg_rnd(50);
	pg_bp(b, "    let y%d = %s { p: %s, k: acc %% %d, f: acc > %d };\n", id, rout, lit.p, kmod, fcut);
	pg_bp(b, "    let z%d = match y%d {\n        %s { p: pp%d, k, f: _ } => pp%d with { a: k + pp%d.a %% %d },\n    };\n",
	      id, id, rout, id, id, id, 2 + pg_rnd(30));
	/* the yielded record read back by a pattern of its own */
	Buf pa = { 0 }, ea = { 0 }, pb = { 0 }, eb = { 0 };
	scalar_field(&pa, &ea, "a", 0);
	scalar_field(&pb, &eb, "b", 1);
	pg_bp(b, "    acc = acc %% 1000003 + match z%d {\n        %s { %s, %s } => %s - %s,\n    };\n", id, rin, pb.p, pa.p, ea.p, eb.p);
	pg_bfree(&lit), pg_bfree(&pa), pg_bfree(&ea), pg_bfree(&pb), pg_bfree(&eb);
}

void pg_feat_recpat(char *call, size_t cap)
{
	pg_fresh("RpIn", rin, sizeof rin);
	pg_fresh("RpOut", rout, sizeof rout);
	pg_fresh("RpOwn", rown, sizeof rown);
	pg_fresh("RpV", rvar, sizeof rvar);
	static const PgField fin[] = { { "a", "i64", NULL }, { "b", "i32", NULL } };
	pg_record_decl(&pg_decls, rin, "", fin, 2, NULL);
	PgField fout[] = { { "p", rin, NULL }, { "k", "i64", NULL }, { "f", "bool", NULL } };
	pg_record_decl(&pg_decls, rout, "", fout, 3, NULL);
	PgField fown[] = { { "s", "string", NULL }, { "q", rin, NULL }, { "n", "i64", NULL } };
	pg_record_decl(&pg_decls, rown, "", fown, 3, NULL);
	PgField fpt[] = { { "at", rin, NULL }, { "w", "i64", NULL } };
	PgField fname[] = { { "s", "string", NULL }, { "q", rin, NULL } };
	PgCase cases[] = { { "Pt", fpt, 2 }, { "Name", fname, 2 }, { "Nil", NULL, 0 } };
	pg_variant_decl(&pg_decls, rvar, "", cases, 3);

	char fn[24];
	pg_fresh("rpf", fn, sizeof fn);
	Buf body = { 0 };
	int n = 2 + pg_rnd(4);
	for (int i = 0; i < n; i++) {
		switch (pg_rnd(4)) {
		case 0: step_copy(&body); break;
		case 1: step_owned(&body); break;
		case 2: step_variant(&body, 1); break;
		default: step_yield(&body); break;
		}
	}
	pg_id_line(&pg_funcs, 0, fn);
	pg_bp(&pg_funcs, "fn %s(x0: i64) -> i64\n{\n    let mut acc = x0;\n%s    acc\n}\n\n", fn, body.p);
	pg_bfree(&body);
	snprintf(call, cap, "%s(%d)", fn, pg_rnd(400) - 100);
}
