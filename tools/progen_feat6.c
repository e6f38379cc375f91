/*
 * progen_feat6.c — early exits from nested places, consuming loops, views
 * and audited blocks (the surface the other feature files leave out).
 * One function returning `Option<i64>` (or `Result<i64, string>`, whose
 * `Err` carries an owned string out) runs 2..6 random steps:
 *   - `?` in a block expression nested one to three deep, each level with an
 *     owned local live (a string, a `Vec<string>`, `Bytes`);
 *   - `?` in a `match` arm (or-patterns, guards, a block arm holding an
 *     owned local) and in one branch of an `if` expression;
 *   - `for own` over `vec_into_iter` of strings or integers with `?` or a
 *     division that may fail in the body (the iterator's rest, the item and
 *     the body's locals are live), sometimes inside a `while`;
 *   - `[u8; N]` array literals viewed by `array_as_slice`, cut by
 *     `byte_range` (now and then past the end), copied by `bytes_copy`,
 *     read by `byte_get` past the end;
 *   - `str` views of owned strings: `str_contains`, `str_starts_with`,
 *     `str_is_empty`, `str_len_bytes`, `str_byte_at`;
 *   - `?` after owned operands were evaluated: a call's later argument, a
 *     record literal's later field, a `with` replacement (its base already
 *     consumed), a `string_format` hole, a reassignment moving its target;
 *   - `@audit("…") unsafe { … }` statement blocks mutating an outer
 *     `let mut` (the program then permits `unsafe`; never in a program
 *     that prints: TOOLCHAIN.md §1.3 then leaves the transcript route).
 * The helper `?` meets returns the empty carrier for some inputs, so each
 * exit is taken in some programs and not in others.  Deterministic per seed:
 * progen.c calls it on a PRNG stream of its own.
 */
#include "progen.h"

#include <stdio.h>
#include <string.h>

static char fopt[24], fres[24], fstr[24], prec[24], fmeas[24];
static int use_result; /* the body returns Result<i64, string> */
static int uniq6;      /* local-name counter of this feature */

/* a call of the carrier helper on an i64 expression, ended by `?` */
static void q(Buf *b, const char *arg)
{
	if (use_result)
		pg_bp(b, "%s(%s)?", fres, arg);
	else
		pg_bp(b, "%s(%s)?", fopt, arg);
}

/* an owned local at indentation ind: returns its i64 measure in `m` */
static void owned_local(Buf *b, int ind, char *m, size_t cap)
{
	int id = uniq6++;
	int k = 1 + pg_rnd(30);
	pg_indent(b, ind);
	switch (pg_rnd(4)) {
	case 0:
		pg_bp(b, "let o%d = string_from_i64(acc %% %d);\n", id, k + 50);
		snprintf(m, cap, "string_len(o%d)", id);
		break;
	case 1:
		pg_bp(b, "let o%d = vec_push<string>(vec_with_capacity<string>(2usize), string_concat(\"%s\", string_from_i64(%d)));\n",
		      id, pg_words[pg_rnd(PG_NWORDS)], k);
		snprintf(m, cap, "i64_from_usize(vec_len<string>(o%d))", id);
		break;
	case 2:
		pg_bp(b, "let r%d = [%du8, %du8];\n", id, k, k * 7);
		pg_indent(b, ind);
		pg_bp(b, "let o%d = bytes_copy(array_as_slice(r%d));\n", id, id);
		snprintf(m, cap, "i64_from_usize(byte_len(bytes_as_slice(o%d)))", id);
		break;
	default:
		pg_bp(b, "let o%d = %s(string_from_i64(acc), %d);\n", id, fstr, k);
		snprintf(m, cap, "match borrow o%d { Option::Some { value } => string_len(value), Option::None {} => 0, }", id);
		break;
	}
}

/* a block expression nested `depth` deep with an owned local at each level
 * and a `?` at a random level */
static void nested_block(Buf *b, int ind, int depth, int qlevel)
{
	char m[160];
	pg_bp(b, "{\n");
	owned_local(b, ind + 1, m, sizeof m);
	int id = uniq6++;
	if (depth > 1) {
		pg_indent(b, ind + 1);
		pg_bp(b, "let n%d = ", id);
		nested_block(b, ind + 1, depth - 1, qlevel - 1);
		pg_bp(b, ";\n");
	} else {
		pg_indent(b, ind + 1);
		pg_bp(b, "let n%d = %d;\n", id, pg_rnd(9));
	}
	pg_indent(b, ind + 1);
	if (qlevel == 0) {
		char arg[48];
		snprintf(arg, sizeof arg, "acc + n%d", id);
		pg_bp(b, "n%d + %s + ", id, m);
		q(b, arg);
		pg_bp(b, "\n");
	} else {
		pg_bp(b, "n%d * 2 + %s\n", id, m);
	}
	pg_indent(b, ind);
	pg_bp(b, "}");
}

static void step_nested(Buf *b)
{
	int id = uniq6++;
	int depth = 1 + pg_rnd(3);
	pg_bp(b, "    let b%d = ", id);
	nested_block(b, 1, depth, pg_rnd(depth + 1));
	pg_bp(b, ";\n    acc = acc %% 1000003 + b%d;\n", id);
}

static void step_match(Buf *b)
{
	int id = uniq6++;
	int m = 3 + pg_rnd(5);
	int g = pg_rnd(m);
	char arg[48];
	pg_bp(b, "    let m%d = match acc %% %d {\n        0 | %d => ", id, m, 1 + pg_rnd(m - 1));
	snprintf(arg, sizeof arg, "acc + %d", pg_rnd(20));
	q(b, arg);
	pg_bp(b, ",\n        k if k > %d => {\n", g);
	char mm[160];
	owned_local(b, 3, mm, sizeof mm);
	pg_bp(b, "            k + %s + ", mm);
	q(b, "k * 3");
	pg_bp(b, "\n        },\n        k => k - 1,\n    };\n    acc = acc %% 1000003 + m%d;\n", id);
}

static void step_if(Buf *b)
{
	int id = uniq6++;
	char mm[160];
	int md = 2 + pg_rnd(3);
	pg_bp(b, "    let i%d = if acc %% %d == %d {\n", id, md, pg_rnd(2));
	owned_local(b, 2, mm, sizeof mm);
	pg_bp(b, "        %s + ", mm);
	q(b, "acc - 1");
	pg_bp(b, "\n    } else {\n        %d\n    };\n    acc = acc %% 1000003 + i%d;\n", pg_rnd(50), id);
}

/* `for own` over an Iter, with an early exit or a failing division in the
 * body; sometimes inside a `while` */
static void step_forown(Buf *b)
{
	int id = uniq6++;
	int n = pg_rnd(5);
	int strs = pg_chance(50);
	int outer = pg_chance(30);
	int ind = outer ? 2 : 1;
	if (outer)
		pg_bp(b, "    let mut w%d = 0;\n    while w%d < %d {\n", id, id, 1 + pg_rnd(3));
	const char *et = strs ? "string" : "i64";
	pg_indent(b, ind);
	pg_bp(b, "let mut v%d = vec_with_capacity<%s>(%dusize);\n", id, et, n + pg_rnd(2));
	for (int i = 0; i < n; i++) {
		pg_indent(b, ind);
		if (strs)
			pg_bp(b, "v%d = vec_push<string>(v%d, string_from_i64(acc %% %d + %d));\n", id, id, 7 + i, i);
		else
			pg_bp(b, "v%d = vec_push<i64>(v%d, acc %% %d - %d);\n", id, id, 9 + i, i);
	}
	pg_indent(b, ind);
	pg_bp(b, "for own it%d in vec_into_iter<%s>(v%d) {\n", id, et, id);
	char mm[160] = "0";
	if (pg_chance(50))
		owned_local(b, ind + 1, mm, sizeof mm);
	const char *item = strs ? "string_len(it" : "(it";
	pg_indent(b, ind + 1);
	pg_bp(b, "let x%d = %s%d) + %s;\n", id, item, id, mm);
	pg_indent(b, ind + 1);
	switch (pg_rnd(3)) {
	case 0: {
		char arg[48];
		snprintf(arg, sizeof arg, "acc + x%d", id);
		pg_bp(b, "acc = acc %% 1000003 + ");
		q(b, arg);
		pg_bp(b, ";\n");
		break;
	}
	case 1:
		pg_bp(b, "acc = acc %% 1000003 + 1000 / (x%d - %d);\n", id, pg_rnd(6));
		break;
	default: {
		char arg[24];
		snprintf(arg, sizeof arg, "x%d", id);
		pg_bp(b, "if x%d > %d { acc = acc + ", id, pg_rnd(8));
		q(b, arg);
		pg_bp(b, "; }\n");
		break;
	}
	}
	pg_indent(b, ind + 1);
	pg_bp(b, "0\n");
	pg_indent(b, ind);
	pg_bp(b, "}\n");
	if (outer)
		pg_bp(b, "        w%d = w%d + 1;\n        0\n    }\n", id, id);
}

static void step_array(Buf *b)
{
	int id = uniq6++;
	int n = 1 + pg_rnd(6);
	pg_bp(b, "    let a%d = [", id);
	for (int i = 0; i < n; i++)
		pg_bp(b, "%s%du8", i ? ", " : "", pg_rnd(256));
	pg_bp(b, "];\n    let s%d = array_as_slice(a%d);\n", id, id);
	int lo = pg_rnd(n + 1);
	int hi = lo + pg_rnd(n - lo + 1);
	if (pg_chance(10))
		hi = n + 1; /* past the end */
	else if (pg_chance(5))
		lo = hi + 1; /* start after end */
	pg_bp(b, "    let c%d = bytes_copy(byte_range(s%d, %dusize, %dusize));\n", id, id, lo, hi);
	pg_bp(b, "    acc = acc %% 1000003 + i64_from_usize(byte_len(bytes_as_slice(c%d))) * 5 + match byte_get(s%d, %dusize) { Option::Some { value } => i64_from_u8(value), Option::None {} => -3, };\n",
	      id, id, pg_rnd(n + 2));
}

static void step_view(Buf *b)
{
	int id = uniq6++;
	const char *w0 = pg_words[pg_rnd(PG_NWORDS)];
	pg_bp(b, "    let t%d = string_concat(\"%s\", string_from_i64(acc %% %d));\n", id, w0, 10 + pg_rnd(1000));
	int w = pg_rnd(PG_NWORDS);
	if (pg_chance(20))
		pg_bp(b, "    let u%d = \"\";\n", id);
	else if (pg_chance(40))
		pg_bp(b, "    let u%d = string_slice(\"%s\", 0, %d);\n", id, pg_words[w], pg_rnd(3));
	else
		pg_bp(b, "    let u%d = string_from_i64(%d);\n", id, pg_rnd(20));
	pg_bp(b, "    let tv%d = string_as_str(t%d);\n    let uv%d = string_as_str(u%d);\n", id, id, id, id);
	pg_bp(b, "    acc = acc %% 1000003 + (if str_contains(tv%d, uv%d) { 3 } else { 5 }) + (if str_starts_with(tv%d, uv%d) { 7 } else { 11 }) + (if str_is_empty(uv%d) { 13 } else { 17 }) + str_len_bytes(tv%d);\n",
	      id, id, id, id, id, id);
	pg_bp(b, "    acc = acc + match str_byte_at(tv%d, %dusize) { Option::Some { value } => i64_from_u8(value), Option::None {} => -7, };\n",
	      id, pg_rnd(12));
}

int pg_exits_unsafe, pg_exits_allow_unsafe;

static void step_unsafe(Buf *b)
{
	int id = uniq6++;
	pg_exits_unsafe = 1;
	pg_bp(b, "    @audit(\"reviewed: progen step %d\") unsafe {\n", id);
	char mm[160];
	owned_local(b, 2, mm, sizeof mm);
	pg_bp(b, "        acc = acc %% 1000003 + %s * %d;\n", mm, 1 + pg_rnd(9));
	if (pg_chance(30))
		pg_bp(b, "        acc = acc + 100 / (acc %% %d);\n", 2 + pg_rnd(5));
	pg_bp(b, "        acc\n    }\n");
}

/* an exit taken after owned operands were evaluated: in a call's later
 * argument, a record literal's later field, a `with` replacement (the base
 * already consumed), a reassignment moving its target, a `string_format`
 * hole */
static void step_partial(Buf *b)
{
	int id = uniq6++;
	char qa[64];
	Buf qq = { 0 };
	snprintf(qa, sizeof qa, "acc + %d", pg_rnd(30));
	q(&qq, qa);
	switch (pg_rnd(5)) {
	case 0:
		pg_bp(b, "    let p%d = string_concat(string_from_i64(acc), string_from_i64(%s));\n", id, qq.p);
		pg_bp(b, "    acc = acc %% 1000003 + string_len(p%d);\n", id);
		break;
	case 1: {
		const char *w = pg_words[pg_rnd(PG_NWORDS)];
		pg_bp(b, "    let p%d = %s { s: string_from_i64(acc), v: vec_push<string>(vec_with_capacity<string>(1usize), \"%s\"), n: %s };\n",
		      id, prec, w, qq.p);
		pg_bp(b, "    acc = acc %% 1000003 + %s(p%d);\n", fmeas, id);
		break;
	}
	case 2:
		pg_bp(b, "    let mut p%d = vec_push<string>(vec_with_capacity<string>(3usize), string_from_i64(acc));\n", id);
		pg_bp(b, "    p%d = vec_push<string>(p%d, string_from_i64(%s));\n", id, id, qq.p);
		pg_bp(b, "    acc = acc %% 1000003 + i64_from_usize(vec_len<string>(p%d));\n", id);
		break;
	case 3: {
		const char *w = pg_words[pg_rnd(PG_NWORDS)];
		pg_bp(b, "    let p%d = %s { s: \"%s\", v: vec_with_capacity<string>(%dusize), n: acc %% 10 };\n",
		      id, prec, w, pg_rnd(3));
		pg_bp(b, "    let r%d = p%d with { s: string_from_i64(acc), n: %s };\n", id, id, qq.p);
		pg_bp(b, "    acc = acc %% 1000003 + %s(r%d);\n", fmeas, id);
		break;
	}
	default:
		pg_bp(b, "    let p%d = string_format(\"{}<{}>{}\", string_from_i64(acc), %s, string_from_i64(%d));\n", id, qq.p, pg_rnd(9));
		pg_bp(b, "    acc = acc %% 1000003 + string_len(p%d);\n", id);
		break;
	}
	pg_bfree(&qq);
}

static void step(Buf *b)
{
	switch (pg_rnd(8)) {
	case 0: step_nested(b); break;
	case 1: step_match(b); break;
	case 2: step_if(b); break;
	case 3: step_forown(b); break;
	case 4: step_array(b); break;
	case 5: step_view(b); break;
	case 6: step_partial(b); break;
	default:
		if (pg_exits_allow_unsafe)
			step_unsafe(b);
		else
			step_nested(b);
		break;
	}
}

void pg_feat_exits(char *call, size_t cap)
{
	pg_fresh("exo", fopt, sizeof fopt);
	pg_fresh("exr", fres, sizeof fres);
	pg_fresh("exs", fstr, sizeof fstr);
	use_result = pg_chance(40);
	pg_exits_unsafe = 0;
	int md = 5 + pg_rnd(20), rm = pg_rnd(md);
	pg_id_line(&pg_funcs, 0, fopt);
	pg_bp(&pg_funcs, "fn %s(x: i64) -> Option<i64>\n{\n    if x %% %d == %d || x %% %d == -%d { Option<i64>::None {} } else { Option<i64>::Some { value: x %% 1000 + 1 } }\n}\n\n",
	      fopt, md, rm, md, rm);
	pg_id_line(&pg_funcs, 0, fres);
	pg_bp(&pg_funcs, "fn %s(x: i64) -> Result<i64, string>\n{\n    if x %% %d == %d || x %% %d == -%d { Result<i64, string>::Err { error: string_concat(\"bad \", string_from_i64(x)) } } else { Result<i64, string>::Ok { value: x %% 1000 + 2 } }\n}\n\n",
	      fres, md, rm, md, rm);
	pg_id_line(&pg_funcs, 0, fstr);
	pg_bp(&pg_funcs, "fn %s(s: string, k: i64) -> Option<string>\n{\n    if string_len(s) > k %% 4 { Option<string>::Some { value: string_concat(s, \"!\") } } else { Option<string>::None {} }\n}\n\n",
	      fstr);

	pg_fresh("ExP", prec, sizeof prec);
	pg_fresh("exm", fmeas, sizeof fmeas);
	static const PgField pf[] = { { "s", "string", NULL }, { "v", "Vec<string>", NULL }, { "n", "i64", NULL } };
	pg_record_decl(&pg_decls, prec, "", pf, 3, NULL);
	pg_id_line(&pg_funcs, 0, fmeas);
	pg_bp(&pg_funcs, "fn %s(p: borrow %s) -> i64\n{\n    string_len(p.s) * 7 + i64_from_usize(vec_len<string>(p.v)) + p.n %% 100\n}\n\n", fmeas, prec);

	char fn[24], body_fn[24];
	pg_fresh("exf", fn, sizeof fn);
	pg_fresh("exb", body_fn, sizeof body_fn);
	Buf body = { 0 };
	int n = 2 + pg_rnd(5);
	for (int i = 0; i < n; i++)
		step(&body);
	pg_id_line(&pg_funcs, 0, body_fn);
	if (use_result)
		pg_bp(&pg_funcs, "fn %s(a: i64) -> Result<i64, string>\n{\n    let mut acc = a;\n%s    Result<i64, string>::Ok { value: acc }\n}\n\n", body_fn, body.p);
	else
		pg_bp(&pg_funcs, "fn %s(a: i64) -> Option<i64>\n{\n    let mut acc = a;\n%s    Option<i64>::Some { value: acc }\n}\n\n", body_fn, body.p);
	pg_bfree(&body);
	pg_id_line(&pg_funcs, 0, fn);
	if (use_result)
		pg_bp(&pg_funcs, "fn %s(a: i64) -> i64\n{\n    match own %s(a) { Result::Ok { value } => value %% 1000003, Result::Err { error } => string_len(error) - 100, }\n}\n\n", fn, body_fn);
	else
		pg_bp(&pg_funcs, "fn %s(a: i64) -> i64\n{\n    match %s(a) { Option::Some { value } => value %% 1000003, Option::None {} => -100, }\n}\n\n", fn, body_fn);
	snprintf(call, cap, "%s(%d)", fn, pg_rnd(200) - 50);
}
