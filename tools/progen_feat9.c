/*
 * progen_feat9.c — owned state in classes and collections, and the wide
 * builtins the other templates never call.  One function runs 2..5 random
 * steps on an accumulator:
 *   - a class holding a string and a Vec<i64> (its subclass adds a u8):
 *     `own self` methods with `requires` and an `ensures` that reads the
 *     consumed receiver's fields, a `borrow self` method overridden with
 *     `super`, chains of them (the Vec's capacity may run out: vec.v1 1);
 *   - a Vec of records with owned fields: pushes past a random capacity,
 *     `vec_set` replacing an owned element, `vec_clone_at`, a borrowing
 *     `for`, and `?` inside a loop while owned locals are live;
 *   - a Map<i64, string> and a Set<string>: replaced values, removals,
 *     reads by position;
 *   - a Vec of function values (closures capturing Copy locals) and an
 *     Option of one;
 *   - `string_format` with 3..14 fields of every admitted type and the
 *     `{{`/`}}` escapes;
 *   - `bytes_set5` and the selector writes (`bytes_set1_or5_from_slice`,
 *     `bytes_set1_or6_or48_from_slice`) at computed offsets, at times past
 *     the buffer's end (byte-buffer.v1 1).
 * Deterministic per seed: progen.c calls it on a PRNG stream of its own.
 */
#include "progen.h"

#include <stdio.h>
#include <string.h>

static int uniq9;
static char ca[24], cb[24], rec[24], fq[24], fsum[24];

static void step_class(Buf *b)
{
	int id = uniq9++;
	int cap = 1 + pg_rnd(4);
	int m = 10 + pg_rnd(100000);
	int k = pg_rnd(256);
	pg_bp(b, "    let c%d = %s { name: string_from_i64(acc %% %d), hist: vec_with_capacity<i64>(%dusize), bal: acc %% 50, tag: %du8 };\n",
	      id, cb, m, cap, k);
	pg_bp(b, "    acc = acc %% 1000003 + c%d.score();\n", id);
	int n = 1 + pg_rnd(3);
	pg_bp(b, "    let d%d = c%d", id, id);
	for (int i = 0; i < n; i++) {
		if (pg_chance(10))
			pg_bp(b, ".put(0 - acc %% %d)", 5 + pg_rnd(300));
		else
			pg_bp(b, ".put(%d)", pg_rnd(60) - 10);
	}
	pg_bp(b, ";\n    acc = acc + d%d.score() + d%d.total();\n", id, id);
	if (pg_chance(50))
		pg_bp(b, "    acc = acc + string_len(d%d.name) + i64_from_usize(vec_len<i64>(d%d.hist));\n", id, id);
}

static void step_vecrec(Buf *b)
{
	int id = uniq9++;
	int cap = 2 + pg_rnd(4);
	int n = 1 + pg_rnd(cap + (pg_chance(15) ? 1 : 0));
	pg_bp(b, "    let mut v%d = vec_with_capacity<%s>(%dusize);\n", id, rec, cap);
	for (int i = 0; i < n; i++) {
		const char *w = pg_words[pg_rnd(PG_NWORDS)];
		pg_bp(b, "    v%d = vec_push<%s>(v%d, %s { s: string_concat(\"%s\", string_from_i64(acc %% %d)), v: vec_push<i64>(vec_with_capacity<i64>(1usize), acc %% %d), k: %d });\n",
		      id, rec, id, rec, w, 7 + pg_rnd(500), 3 + pg_rnd(90), pg_rnd(40) - 5);
	}
	if (pg_chance(60)) {
		int at = pg_chance(90) ? pg_rnd(n) : n;
		pg_bp(b, "    v%d = vec_set<%s>(v%d, %dusize, %s { s: string_from_i64(acc), v: vec_with_capacity<i64>(2usize), k: %d });\n",
		      id, rec, id, at, rec, pg_rnd(9));
	}
	int ci = pg_chance(90) ? pg_rnd(n) : n + pg_rnd(2);
	pg_bp(b, "    let e%d = vec_clone_at<%s>(v%d, %dusize);\n", id, rec, id, ci);
	pg_bp(b, "    acc = acc + string_len(e%d.s) * 3 + e%d.k;\n", id, id);
	int lim = pg_rnd(n + 2);
	pg_bp(b, "    acc = acc + match %s(v%d, %dusize) { Option::Some { value } => value, Option::None {} => -7, };\n", fq, id, lim);
	pg_bp(b, "    let f%d = v%d;\n    for r in f%d {\n        acc = acc %% 1000003 + string_len(r.s) + r.k + i64_from_usize(vec_len<i64>(r.v));\n        0\n    }\n",
	      id, id, id);
}

static void step_map(Buf *b)
{
	int id = uniq9++;
	int n = 1 + pg_rnd(4);
	pg_bp(b, "    let mut m%d = map_new<i64, string>(%dusize);\n", id, n + pg_rnd(3));
	for (int i = 0; i < n; i++) {
		int key = pg_rnd(6);
		if (i > 0 && pg_chance(25))
			pg_bp(b, "    m%d = map_remove<i64, string>(m%d, %d);\n", id, id, key);
		else
			pg_bp(b, "    m%d = map_set<i64, string>(m%d, acc %% 3 + %d, string_from_i64(acc %% %d));\n", id, id, key,
			      11 + pg_rnd(9000));
	}
	pg_bp(b, "    let mut i%d = 0usize;\n    while i%d < map_len<i64, string>(m%d) {\n", id, id, id);
	pg_bp(b, "        acc = acc %% 1000003 + map_key_at<i64, string>(m%d, i%d) * 5 + string_len(map_value_at<i64, string>(m%d, i%d));\n",
	      id, id, id, id);
	pg_bp(b, "        i%d = i%d + 1usize;\n        0\n    }\n", id, id);
	pg_bp(b, "    acc = acc + if map_has<i64, string>(m%d, %d) { 13 } else { 0 };\n", id, pg_rnd(6));
	pg_bp(b, "    let mut s%d = set_new<string>(3usize);\n", id);
	int ns = 1 + pg_rnd(4);
	for (int i = 0; i < ns; i++) {
		const char *w = pg_words[pg_rnd(PG_NWORDS)];
		if (i > 0 && pg_chance(30))
			pg_bp(b, "    s%d = set_remove<string>(s%d, \"%s\");\n", id, id, w);
		else
			pg_bp(b, "    s%d = set_insert<string>(s%d, \"%s\");\n", id, id, w);
	}
	pg_bp(b, "    acc = acc + i64_from_usize(set_len<string>(s%d)) * 17;\n", id);
	if (pg_chance(70))
		pg_bp(b, "    acc = acc + string_len(set_key_at<string>(s%d, %dusize));\n", id, pg_chance(85) ? 0 : ns);
}

static void step_fnvec(Buf *b)
{
	int id = uniq9++;
	int n = 1 + pg_rnd(3);
	pg_bp(b, "    let k%d = acc %% %d;\n", id, 3 + pg_rnd(50));
	pg_bp(b, "    let mut g%d = vec_with_capacity<fn(i64) -> i64>(%dusize);\n", id, n);
	for (int i = 0; i < n; i++) {
		switch (pg_rnd(3)) {
		case 0:
			pg_bp(b, "    g%d = vec_push<fn(i64) -> i64>(g%d, fn(z: i64) -> i64 { z * %d + k%d });\n", id, id, pg_rnd(7) - 3, id);
			break;
		case 1:
			pg_bp(b, "    g%d = vec_push<fn(i64) -> i64>(g%d, fn(z: i64) -> i64 { if z > k%d { z - k%d } else { k%d %% 7 } });\n", id,
			      id, id, id, id);
			break;
		default:
			pg_bp(b, "    g%d = vec_push<fn(i64) -> i64>(g%d, %s);\n", id, id, fsum);
		}
	}
	pg_bp(b, "    let h%d = g%d;\n    for f in h%d {\n        acc = acc %% 1000003 + f(acc %% %d);\n        0\n    }\n", id, id, id,
	      100 + pg_rnd(1000));
	pg_bp(b, "    let o%d = if acc %% 2 == 0 { Option<fn(i64) -> i64>::Some { value: fn(z: i64) -> i64 { z + k%d } } } else { Option<fn(i64) -> i64>::None {} };\n",
	      id, id);
	pg_bp(b, "    acc = acc + match o%d { Option::Some { value } => value(%d), Option::None {} => 1, };\n", id, pg_rnd(20));
}

static void step_format(Buf *b)
{
	int id = uniq9++;
	int n = 3 + pg_rnd(12);
	Buf t = { 0 }, a = { 0 };
	for (int i = 0; i < n; i++) {
		int r = pg_rnd(8);
		pg_bp(&t, "%s{}", r == 0 ? "{{" : r == 1 ? "}}" : r == 2 ? "-" : r == 3 ? ", " : "");
		switch (pg_rnd(6)) {
		case 0:
			pg_bp(&a, ", acc %% %d", 2 + pg_rnd(100000));
			break;
		case 1:
			pg_bp(&a, ", %du8", pg_rnd(256));
			break;
		case 2:
			pg_bp(&a, ", usize_from_i64(acc %% %d + %d)", 1 + pg_rnd(50), 50);
			break;
		case 3:
			pg_bp(&a, ", acc %% %d == 0", 2 + pg_rnd(5));
			break;
		case 4:
			pg_bp(&a, ", string_from_i64(acc %% %d)", 3 + pg_rnd(1000));
			break;
		default:
			pg_bp(&a, ", \"%s\"", pg_words[pg_rnd(PG_NWORDS)]);
		}
	}
	pg_bp(b, "    let t%d = string_format(\"%s%s\"%s);\n", id, t.p, pg_chance(30) ? "}}" : "", a.p);
	pg_bfree(&t);
	pg_bfree(&a);
	int at = pg_rnd(20);
	pg_bp(b, "    acc = acc %% 1000003 + string_len(t%d) * 7 + if string_len(t%d) > %d { string_byte_at(t%d, %d) } else { 0 };\n",
	      id, id, at, id, at);
}

static void step_bytes(Buf *b)
{
	int id = uniq9++;
	int cap = 5 + pg_rnd(60);
	int room = cap + (pg_chance(15) ? 3 : -4);
	pg_bp(b, "    let mut b%d = bytes_zeroed(%dusize);\n", id, cap);
	pg_bp(b, "    let a%d = [%du8, %du8, %du8, %du8, %du8, %du8, %du8];\n", id, pg_rnd(256), pg_rnd(256), pg_rnd(256),
	      pg_rnd(256), pg_rnd(256), pg_rnd(256), pg_rnd(256));
	pg_bp(b, "    let w%d = usize_from_i64((acc %% %d + %d) %% %d);\n", id, room > 1 ? room : 1, room > 1 ? room : 1,
	      room > 1 ? room : 1);
	int n = 1 + pg_rnd(3);
	for (int i = 0; i < n; i++) {
		switch (pg_rnd(3)) {
		case 0:
			pg_bp(b, "    b%d = bytes_set5(b%d, w%d, %du8, %du8, %du8, u8_from_i64(acc %% 200 + 50), %du8);\n", id, id, id,
			      pg_rnd(256), pg_rnd(256), pg_rnd(256), pg_rnd(256));
			break;
		case 1:
			/* high bit set: copy 5 source bytes from the offset (past
			 * the source's end reads 0); clear: store one byte */
			pg_bp(b, "    b%d = bytes_set1_or5_from_slice(b%d, w%d, %du8, array_as_slice(a%d), %s);\n", id, id, id,
			      pg_rnd(256), id, pg_chance(60) ? (pg_chance(50) ? "9223372036854775810usize" : "9223372036854775813usize")
			      : "3usize");
			break;
		default: {
			int r = pg_rnd(10);
			char at[24];
			snprintf(at, sizeof at, "w%d", id);
			pg_bp(b, "    b%d = bytes_set1_or6_or48_from_slice(b%d, %s, %du8, array_as_slice(a%d), %s);\n", id, id,
			      r == 0 ? "0usize" : at, pg_rnd(256), id,
			      r < 2 ? "13835058055282163713usize" : r < 6 ? "9223372036854775809usize" : "5usize");
			break;
		}
		}
	}
	pg_bp(b, "    let y%d = bytes_as_slice(b%d);\n    let mut j%d = 0usize;\n", id, id, id);
	pg_bp(b, "    while j%d < byte_len(y%d) {\n        acc = (acc * 3 + match byte_get(y%d, j%d) { Option::Some { value } => i64_from_u8(value), Option::None {} => -1, }) %% 1000003;\n        j%d = j%d + 1usize;\n        0\n    }\n",
	      id, id, id, id, id, id);
}

void pg_feat_ownclass(char *call, size_t cap)
{
	pg_fresh("Oc", ca, sizeof ca);
	pg_fresh("Od", cb, sizeof cb);
	pg_fresh("Or", rec, sizeof rec);
	pg_fresh("orq", fq, sizeof fq);
	pg_fresh("ofs", fsum, sizeof fsum);
	int lim = 5 + pg_rnd(400);
	pg_id_line(&pg_decls, 0, ca);
	pg_bp(&pg_decls, "class %s {\n", ca);
	pg_id_linef(&pg_decls, 1, "%s.name", ca);
	pg_bp(&pg_decls, "    name: string,\n");
	pg_id_linef(&pg_decls, 1, "%s.hist", ca);
	pg_bp(&pg_decls, "    hist: Vec<i64>,\n");
	pg_id_linef(&pg_decls, 1, "%s.bal", ca);
	pg_bp(&pg_decls, "    bal: i64,\n\n");
	pg_id_linef(&pg_decls, 1, "%s.put", ca);
	pg_bp(&pg_decls, "    fn put(self: own %s, d: i64) -> %s\n        requires d > -%d\n        ensures result.bal %s self.bal + d\n    {\n",
	      ca, ca, lim, pg_chance(90) ? "==" : ">");
	pg_bp(&pg_decls, "        let h = vec_push<i64>(self.hist, d);\n        %s { name: self.name, hist: h, bal: self.bal + d }\n    }\n\n", ca);
	pg_id_linef(&pg_decls, 1, "%s.score", ca);
	pg_bp(&pg_decls, "    fn score(self: borrow %s) -> i64\n%s    {\n        string_len(self.name) * %d + i64_from_usize(vec_len<i64>(self.hist)) + self.bal %% 97\n    }\n\n",
	      ca, pg_chance(20) ? "        ensures result > 3\n" : "", 1 + pg_rnd(9));
	pg_id_linef(&pg_decls, 1, "%s.total", ca);
	pg_bp(&pg_decls, "    fn total(self: borrow %s) -> i64\n    {\n        let mut i = 0usize;\n        let mut t = 0;\n"
	      "        while i < vec_len<i64>(self.hist) {\n            t = t + vec_get<i64>(self.hist, i);\n            i = i + 1usize;\n            0\n        }\n        t\n    }\n}\n\n", ca);
	pg_id_line(&pg_decls, 0, cb);
	pg_bp(&pg_decls, "class %s : %s {\n", cb, ca);
	pg_id_linef(&pg_decls, 1, "%s.tag", cb);
	pg_bp(&pg_decls, "    tag: u8,\n\n");
	pg_id_linef(&pg_decls, 1, "%s.score", cb);
	pg_bp(&pg_decls, "    fn score(self: borrow %s) -> i64\n    {\n        super.score() * 2 + i64_from_u8(self.tag)\n    }\n}\n\n", cb);
	PgField fr[] = { { "s", "string", NULL }, { "v", "Vec<i64>", NULL }, { "k", "i64", NULL } };
	pg_record_decl(&pg_decls, rec, "", fr, 3, NULL);
	pg_id_line(&pg_funcs, 0, fq);
	pg_bp(&pg_funcs, "fn %s(vs: borrow Vec<%s>, lim: usize) -> Option<i64>\n{\n    let keep = string_from_usize(lim);\n    let mut i = 0usize;\n    let mut t = 0;\n"
	      "    while i < lim {\n        let held = string_from_usize(i);\n"
	      "        let g = (if i < vec_len<%s>(vs) { Option<%s>::Some { value: vec_clone_at<%s>(vs, i) } } else { Option<%s>::None {} })?;\n"
	      "        t = t + string_len(g.s) + g.k + string_len(held);\n        i = i + 1usize;\n        0\n    }\n"
	      "    Option<i64>::Some { value: t + string_len(keep) }\n}\n\n", fq, rec, rec, rec, rec, rec);
	pg_id_line(&pg_funcs, 0, fsum);
	pg_bp(&pg_funcs, "fn %s(z: i64) -> i64\n{\n    z %% %d - %d\n}\n\n", fsum, 3 + pg_rnd(40), pg_rnd(10));

	char fn[24];
	pg_fresh("ocf", fn, sizeof fn);
	Buf body = { 0 };
	int n = 2 + pg_rnd(4);
	for (int i = 0; i < n; i++) {
		switch (pg_rnd(6)) {
		case 0: step_class(&body); break;
		case 1: step_vecrec(&body); break;
		case 2: step_map(&body); break;
		case 3: step_fnvec(&body); break;
		case 4: step_format(&body); break;
		default: step_bytes(&body); break;
		}
	}
	pg_id_line(&pg_funcs, 0, fn);
	pg_bp(&pg_funcs, "fn %s(x0: i64) -> i64\n{\n    let mut acc = x0;\n%s    acc\n}\n\n", fn, body.p);
	pg_bfree(&body);
	snprintf(call, cap, "%s(%d)", fn, pg_rnd(4000) - 1000);
}
