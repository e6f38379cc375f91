/*
 * rt_test.c — the shared runtime (src/rt/) both lanes call: the path check
 * of file_read_text, strict UTF-8, float total order, integer decimal text,
 * float text, substring search with its work count, byte order, the
 * sorted key search of Map/Set, and the domain table.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../src/rt/domains.h"
#include "../../src/rt/rt.h"
#include "unit.h"

static bool
path_ok(const char *p)
{
	return rt_fs_path_valid((const uint8_t *)p, strlen(p));
}

/* rt_float_text(v, f32) is exactly want, and its length is returned. */
static bool
float_is(double v, bool f32, const char *want)
{
	char t[352];
	size_t n = rt_float_text(t, v, f32);
	return n == strlen(want) && strcmp(t, want) == 0;
}

/* "0." then zeros zeros then digits: the text of a tiny float. */
static bool
tiny_is(double v, bool f32, int zeros, const char *digits)
{
	char want[352] = "0.";
	memset(want + 2, '0', (size_t)zeros);
	strcpy(want + 2 + zeros, digits);
	if (f32)
		strcat(want, "f32");
	return float_is(v, f32, want);
}

static bool
char_is(uint32_t cp, const char *want)
{
	char t[16];
	size_t n = rt_char_literal(t, cp);
	return n == strlen(want) && strcmp(t, want) == 0;
}

static bool
parses(const char *s, int64_t want)
{
	int64_t v = 0;
	return rt_parse_i64((const uint8_t *)s, strlen(s), &v) && v == want;
}

static bool
refuses(const char *s)
{
	int64_t v = 7;
	return !rt_parse_i64((const uint8_t *)s, strlen(s), &v) && v == 7;
}

static int
i64_cmp(const void *elem, const void *key, void *ctx)
{
	int64_t a = *(const int64_t *)elem, b = *(const int64_t *)key;
	(*(int *)ctx)++;
	return a < b ? -1 : a > b;
}

static long
find_i64(const int64_t *keys, size_t n, int64_t key, int *probes)
{
	*probes = 0;
	return rt_sorted_find(keys, n, sizeof *keys, &key, i64_cmp, probes);
}

static size_t
valid_prefix(const char *s, size_t n)
{
	return rt_utf8_validate((const uint8_t *)s, n);
}

static int
cmp(const char *a, const char *b)
{
	return rt_bytes_cmp((const uint8_t *)a, strlen(a), (const uint8_t *)b, strlen(b));
}

/* src/rt/heap.c over a caller's arena (the Wasm lane's allocator). */
static void
heap_checks(void)
{
	static _Alignas(8) unsigned char arena[4096];
	rt_heap_init(arena, sizeof arena);
	char *a = rt_alloc(5), *b = rt_alloc(100);
	unit_check(a && b && rt_heap_live() == 2, "rt heap: two blocks live");
	rt_free(a);
	char *c = rt_alloc(3);
	unit_check(c == a && rt_heap_live() == 2, "rt heap: a freed block of the same size is reused");
	rt_free((void *)"static");
	rt_free(NULL);
	unit_check(rt_heap_live() == 2, "rt heap: addresses outside the heap are never freed");
	static const char lit[] = "lit";
	unit_check(rt_str_own(lit, 3) == (void *)(uintptr_t)lit, "rt heap: static text stays shared");
	char *d = rt_str_copy("abc", 3);
	char *e = rt_str_concat(d, 3, rt_str_copy("de", 2), 2);
	unit_check(e && memcmp(e, "abcde", 5) == 0 && rt_heap_live() == 3, "rt heap: concat consumes both operands");
	unit_check(rt_alloc(8192) == NULL, "rt heap: an arena that cannot grow gives NULL");
	rt_free(b);
	rt_free(c);
	rt_free(e);
	unit_check(rt_heap_live() == 0, "rt heap: every block released");
}

/* The rest of src/rt/heap.c as the Wasm lane calls it: zeroed blocks,
 * appends in place and by growth, Vec block clone and growth, Map/Set key
 * search and slot gaps, f32 slots in total order, closure cells. */
static void
heap_ops_checks(void)
{
	static _Alignas(8) unsigned char arena[1 << 14];
	rt_heap_init(arena, sizeof arena);
	unsigned char *z = rt_zalloc(24);
	bool zero = z != NULL;
	for (int i = 0; zero && i < 24; i++)
		zero = z[i] == 0;
	unit_check(zero && rt_heap_live() == 1, "rt heap: rt_zalloc gives a zeroed block");
	rt_free(z);
	char *s = rt_str_append((void *)"static", 6, "ab", 2);   /* static text: a new block */
	unit_check(s && memcmp(s, "staticab", 8) == 0 && rt_heap_live() == 1, "rt heap: appending to static text copies it");
	char *t = rt_str_append(s, 8, "cd", 2);   /* room in s's 16-byte block: in place */
	unit_check(t == s && memcmp(t, "staticabcd", 10) == 0, "rt heap: an append with room stays in place");
	char *u = rt_str_append(t, 10, "0123456789", 10);   /* grows, t released */
	unit_check(u && memcmp(u, "staticabcd0123456789", 20) == 0 && rt_heap_live() == 1, "rt heap: an append past the block grows it");
	unit_check(rt_str_append(u, 20, "x", (size_t)1 << 31) == NULL, "rt heap: an append past 1 GiB is refused");
	int64_t *v = rt_zalloc(4 * sizeof *v);
	v[0] = -5;
	v[1] = 3;
	int64_t *w = rt_block_clone(v, 8 * sizeof *v, 2 * sizeof *v);
	unit_check(w && w[0] == -5 && w[1] == 3 && rt_heap_live() == 3, "rt heap: a block clone copies the used part");
	int64_t *g = rt_block_grow(w, 2 * sizeof *w, 16 * sizeof *w);
	unit_check(g && g[0] == -5 && g[1] == 3 && rt_heap_live() == 3, "rt heap: a block grown keeps its elements, the old block released");
	/* keys -5, 3 sorted; insert 1 at its point: gap opened, then closed again */
	int64_t key = 1;
	int32_t at = rt_slot_find(g, 2, 8, &key, RT_SORT_SIGNED);
	unit_check(at == -2, "rt slot_find: a missing key gives -(insertion point) - 1");
	rt_slots_open(g, 2, 8, 1);
	g[1] = key;
	key = 3;
	unit_check(g[2] == 3 && rt_slot_find(g, 3, 8, &key, RT_SORT_SIGNED) == 2, "rt slots: a gap opened keeps the later keys in order");
	rt_slots_close(g, 3, 8, 1);
	unit_check(g[0] == -5 && g[1] == 3, "rt slots: the gap closed again");
	uint64_t uk[3] = { 1, 7, UINT64_MAX }, ukey = UINT64_MAX;
	unit_check(rt_slot_find(uk, 3, 8, &ukey, RT_SORT_UNSIGNED) == 2, "rt slot_find: unsigned keys, the largest last");
	float f[20];
	for (int i = 0; i < 20; i++)
		f[i] = (float)((i * 7) % 20 - 10);
	f[4] = -0.0f;
	f[5] = 0.0f;
	uint64_t fs[20];
	memset(fs, 0, sizeof fs);
	for (int i = 0; i < 20; i++)
		memcpy(&fs[i], &f[i], sizeof f[i]);
	rt_sort_slots(fs, 20, 8, RT_SORT_F32);
	bool ok = true;
	float prev = 0, cur;
	for (int i = 0; i < 20; i++, prev = cur) {
		memcpy(&cur, &fs[i], sizeof cur);
		ok = ok && (i == 0 || prev < cur || (prev == cur && (signbit(prev) || !signbit(cur))));
	}
	float fk = -0.0f;
	uint64_t fkey = 0;
	memcpy(&fkey, &fk, sizeof fk);
	int32_t fi = rt_slot_find(fs, 20, 8, &fkey, RT_SORT_F32);
	float found = 0;
	if (fi >= 0)
		memcpy(&found, &fs[fi], sizeof found);
	unit_check(ok && fi >= 0 && found == 0.0f && signbit(found), "rt sort: f32 slots in total order, -0.0 found as itself");
	void *cell = rt_cell_alloc(16);
	unit_check(cell && rt_heap_live() == 3, "rt heap: a closure cell is not counted as live");
	rt_free(v);
	rt_free(g);
	rt_free(u);
	unit_check(rt_heap_live() == 0 && rt_zalloc((size_t)1 << 20) == NULL, "rt heap: every block released; an arena that cannot grow gives NULL");
}

/* rt_fs_root_line (src/rt/text.c): the one text of a refused
 * `--allow-write=DIR` for `run`, a built program and the Wasm host. */
static void
root_line_checks(void)
{
	static const char rule[] = "` must name a directory below the working directory: ";
	char out[512], want[512];
	size_t n = rt_fs_root_line((const uint8_t *)"out", 3, 1, out, sizeof out);
	snprintf(want, sizeof want, "`--allow-write=out%s`out` does not exist; create it first (`mkdir -p out`)", rule);
	unit_check(n == strlen(want) && strcmp(out, want) == 0, "rt root line: a missing directory (why 1)");
	n = rt_fs_root_line((const uint8_t *)"f.txt", 5, 2, out, sizeof out);
	snprintf(want, sizeof want, "`--allow-write=f.txt%s`f.txt` is a file", rule);
	unit_check(n == strlen(want) && strcmp(out, want) == 0, "rt root line: a file (why 2)");
	n = rt_fs_root_line((const uint8_t *)"../up", 5, 0, out, sizeof out);
	snprintf(want, sizeof want, "`--allow-write=../up%sa relative path without `.`, `..` or symbolic links", rule);
	unit_check(n == strlen(want) && strcmp(out, want) == 0, "rt root line: the rule (why 0)");
	/* a tab, DEL, U+0085 (C1), a byte that is not UTF-8, then é kept as it is */
	static const uint8_t odd[] = { 'a', '\t', 0x7f, 0xc2, 0x85, 0xff, 0xc3, 0xa9 };
	n = rt_fs_root_line(odd, sizeof odd, 0, out, sizeof out);
	snprintf(want, sizeof want, "`--allow-write=a\\x09\\x7f\\u{85}\\xff\xc3\xa9%sa relative path without `.`, `..` or symbolic links", rule);
	unit_check(n == strlen(want) && strcmp(out, want) == 0, "rt root line: control bytes, C1 and bad UTF-8 escaped, UTF-8 kept");
	char small[8];
	size_t whole = rt_fs_root_line((const uint8_t *)"out", 3, 1, NULL, 0);
	n = rt_fs_root_line((const uint8_t *)"out", 3, 1, small, sizeof small);
	unit_check(whole == n && n > sizeof small && strcmp(small, "`--allo") == 0,
		   "rt root line: the whole length returned, the text cut to the room and NUL-terminated");
}

/* rt_sort_slots (vec_sort in the Wasm lane): the merge sort past 16 elements, and with no room
 * for its scratch block the insertion sort, give the same ascending permutation. */
static void
sort_checks(void)
{
	static _Alignas(8) unsigned char arena[1 << 16];
	enum { N = 1000 };
	static int64_t v[N], w[N];
	uint64_t seed = 7;
	int64_t sum = 0;
	for (int i = 0; i < N; i++) {
		seed = seed * 6364136223846793005u + 1442695040888963407u;
		v[i] = (int64_t)(seed >> 40) % 301 - 150;   /* duplicates and negatives */
		w[i] = v[i];
		sum += v[i];
	}
	rt_heap_init(arena, sizeof arena);
	rt_sort_slots(v, N, 8, RT_SORT_SIGNED);
	bool ok = rt_heap_live() == 0;
	int64_t got = 0;
	for (int i = 0; i < N; i++) {
		got += v[i];
		ok = ok && (i == 0 || v[i - 1] <= v[i]);
	}
	unit_check(ok && got == sum, "rt sort: 1000 signed slots merge-sorted, scratch released");
	rt_heap_init(arena, 64);   /* no room for the scratch: insertion */
	rt_sort_slots(w, N, 8, RT_SORT_SIGNED);
	unit_check(memcmp(v, w, sizeof v) == 0, "rt sort: the insertion fallback gives the same order");
	double f[40];
	for (int i = 0; i < 40; i++)
		f[i] = (double)((i * 17) % 40 - 20) * 0.5;
	f[3] = 0.0;
	f[30] = -0.0;
	rt_heap_init(arena, sizeof arena);
	rt_sort_slots(f, 40, 8, RT_SORT_F64);
	ok = true;
	for (int i = 1; i < 40; i++)
		ok = ok && f[i - 1] <= f[i] && !(f[i - 1] == 0.0 && f[i] == 0.0 && signbit(f[i]) && !signbit(f[i - 1]));
	unit_check(ok, "rt sort: f64 slots in total order (-0.0 before 0.0)");
}

void
unit_rt_checks(void)
{
	heap_checks();
	heap_ops_checks();
	root_line_checks();
	sort_checks();
	unit_check(cmp("", "") == 0 && cmp("ab", "ab") == 0, "rt bytes_cmp: equal");
	int64_t v = 0;
	unit_check(rt_parse_i64((const uint8_t *)"-9223372036854775808", 20, &v) && v == INT64_MIN, "rt parse_i64: INT64_MIN");
	unit_check(rt_parse_i64((const uint8_t *)"9223372036854775807", 19, &v) && v == INT64_MAX, "rt parse_i64: INT64_MAX");
	unit_check(!rt_parse_i64((const uint8_t *)"9223372036854775808", 19, &v) && !rt_parse_i64((const uint8_t *)"-", 1, &v) &&
		   !rt_parse_i64((const uint8_t *)"", 0, &v) && !rt_parse_i64((const uint8_t *)"+1", 2, &v) &&
		   !rt_parse_i64((const uint8_t *)"1 ", 2, &v), "rt parse_i64: out of range, sign alone, empty, `+`, trailing space refused");
	unit_check(rt_utf8_count((const uint8_t *)"a\xc3\xa9\xf0\x9f\x98\x80", 7) == 3, "rt utf8_count: scalars, not bytes");
	unit_check(cmp("ab", "abc") == -1 && cmp("abc", "ab") == 1 && cmp("", "a") == -1, "rt bytes_cmp: a proper prefix first");
	unit_check(cmp("b", "abc") == 1 && cmp("a\xff", "a\x01") == 1, "rt bytes_cmp: bytes unsigned");
	unit_check(path_ok("a") && path_ok("dir/file.txt") && path_ok("a/.b/c.."), "rt path: relative paths pass");
	unit_check(!path_ok("") && !path_ok("/etc/passwd") && !path_ok("a//b") && !path_ok("a/"), "rt path: empty component or absolute refused");
	unit_check(!path_ok(".") && !path_ok("..") && !path_ok("a/../b") && !path_ok("./a"), "rt path: . and .. refused");
	unit_check(!path_ok("a\\b") && !path_ok("c:x") && !rt_fs_path_valid((const uint8_t *)"a\0b", 3), "rt path: \\, : and NUL refused");
	static uint8_t long_path[4097];
	memset(long_path, 'a', sizeof long_path);
	unit_check(rt_fs_path_valid(long_path, 4096) && !rt_fs_path_valid(long_path, 4097), "rt path: 4,096 bytes at most");
	{   /* the environment snapshot (src/rt/host.c) */
		const char *order[RT_LIMIT_ENV_ENTRIES];
		size_t n = 99;
		char *env[] = { "ZED=1", "A=x=y", "AB=", "A_=2", NULL };
		unit_check(rt_env_snapshot(env, order, &n) == 0 && n == 4 && strcmp(order[0], "A=x=y") == 0
			   && strcmp(order[1], "AB=") == 0 && strcmp(order[2], "A_=2") == 0 && strcmp(order[3], "ZED=1") == 0
			   && rt_env_name_len(order[0]) == 1, "rt env: sorted by name bytes, values may hold `=` or be empty");
		char *dup[] = { "A=1", "B=2", "A=3", NULL }, *noeq[] = { "A", NULL }, *noname[] = { "=1", NULL };
		char *bad[] = { "A=\xff", NULL }, *none[] = { NULL };
		unit_check(rt_env_snapshot(dup, order, &n) == RT_ENV_INVALID && rt_env_snapshot(noeq, order, &n) == RT_ENV_INVALID
			   && rt_env_snapshot(noname, order, &n) == RT_ENV_INVALID && rt_env_snapshot(bad, order, &n) == RT_ENV_INVALID,
			   "rt env: a repeated name, no `=`, an empty name or non-UTF-8 text is code 2");
		unit_check(rt_env_snapshot(none, order, &n) == 0 && n == 0, "rt env: an empty environment");
		char *many[RT_LIMIT_ENV_ENTRIES + 2], names[RT_LIMIT_ENV_ENTRIES + 1][16];
		for (int i = 0; i <= RT_LIMIT_ENV_ENTRIES; i++) {
			snprintf(names[i], sizeof names[i], "V%03d=", i);
			many[i] = names[i];
		}
		many[RT_LIMIT_ENV_ENTRIES + 1] = NULL;
		unit_check(rt_env_snapshot(many, order, &n) == RT_ENV_FULL, "rt env: 257 entries is code 3");
		many[RT_LIMIT_ENV_ENTRIES] = NULL;
		unit_check(rt_env_snapshot(many, order, &n) == 0 && n == RT_LIMIT_ENV_ENTRIES, "rt env: 256 entries fit");
	}

	unit_check(valid_prefix("h\xc3\xa9!", 4) == 4 && valid_prefix("\xf0\x9f\x98\x80", 4) == 4, "rt utf8: valid text");
	unit_check(valid_prefix("a\xc0\x80", 3) == 1 && valid_prefix("\xed\xa0\x80", 3) == 0, "rt utf8: overlong and surrogate refused");
	unit_check(valid_prefix("ab\xf4\x90\x80\x80", 6) == 2 && valid_prefix("\xe2\x82", 2) == 0, "rt utf8: above U+10FFFF and truncated refused");
	unit_check(rt_utf8_scalar(0) && rt_utf8_scalar(0xD7FF) && rt_utf8_scalar(0xE000) && rt_utf8_scalar(0x10FFFF)
	    && !rt_utf8_scalar(-1) && !rt_utf8_scalar(0xD800) && !rt_utf8_scalar(0xDFFF) && !rt_utf8_scalar(0x110000), "rt utf8: scalar range");
	uint8_t o[4];
	unit_check(rt_utf8_encode(0x20AC, o) == 3 && memcmp(o, "\xe2\x82\xac", 3) == 0, "rt utf8: encode U+20AC");
	unit_check(rt_utf8_encode(0x1F600, o) == 4 && memcmp(o, "\xf0\x9f\x98\x80", 4) == 0, "rt utf8: encode U+1F600");

	unit_check(rt_total_key64(-0.0) < rt_total_key64(0.0) && rt_total_key64(-INFINITY) < rt_total_key64(-1.0)
	    && rt_total_key64(INFINITY) < rt_total_key64(NAN) && rt_total_key64(-NAN) < rt_total_key64(-INFINITY),
	    "rt total order: -NaN < -inf < -1 < -0 < 0 < inf < NaN");
	unit_check(rt_total_key32(-0.0f) < rt_total_key32(0.0f) && rt_total_key32(1.0f) < rt_total_key32(2.0f), "rt total order: f32");
	char buf[32];
	char *p = rt_decimal(buf, (uint64_t)INT64_MAX + 1, true);
	unit_check((size_t)(buf + 32 - p) == 20 && memcmp(p, "-9223372036854775808", 20) == 0, "rt decimal: i64 minimum");
	p = rt_decimal(buf, UINT64_MAX, false);
	unit_check((size_t)(buf + 32 - p) == 20 && memcmp(p, "18446744073709551615", 20) == 0, "rt decimal: u64 maximum");
	p = rt_decimal(buf, 0, false);
	unit_check(buf + 32 - p == 1 && *p == '0', "rt decimal: zero");

	unit_check(float_is(0.1, false, "0.1") && float_is(1.0, false, "1.0") && float_is(123.456, false, "123.456")
	    && float_is(0.3, false, "0.3") && float_is(0.1 + 0.2, false, "0.30000000000000004"), "rt float text: shortest round trip");
	unit_check(float_is(0.0, false, "0.0") && float_is(-0.0, false, "-0.0") && float_is(-2.5, false, "-2.5")
	    && float_is(-0.0, true, "-0.0f32"), "rt float text: signed zero and negatives");
	unit_check(float_is(NAN, false, "NaN") && float_is(-NAN, false, "NaN") && float_is(NAN, true, "NaN")
	    && float_is(INFINITY, false, "inf") && float_is(-INFINITY, false, "-inf") && float_is(-INFINITY, true, "-inf"),
	    "rt float text: NaN (any sign), inf, -inf");
	unit_check(float_is(1e21, false, "1000000000000000000000.0") && float_is(1e23, false, "100000000000000000000000.0")
	    && float_is(ldexp(1.0, 89), false, "618970019642690200000000000.0"), "rt float text: positional, never an exponent");
	unit_check(tiny_is(ldexp(1.0, -24), false, 7, "5960464477539063"), "rt float text: lopsided interval above a power of two");
	unit_check(tiny_is(ldexp(1.0, -1074), false, 323, "5") && tiny_is(ldexp(1.0, -1022), false, 307, "22250738585072014"),
	    "rt float text: smallest subnormal and smallest normal double");
	char big[352];
	size_t bn = rt_float_text(big, -1.7976931348623157e308, false);
	unit_check(bn == 312 && memcmp(big, "-17976931348623157", 18) == 0
	    && strspn(big + 18, "0") == 292 && strcmp(big + 310, ".0") == 0, "rt float text: -f64 maximum (312 bytes)");
	unit_check(float_is(0.1f, true, "0.1f32") && float_is(16777216.0f, true, "16777216.0f32")
	    && float_is(3.4028234663852886e38, true, "340282350000000000000000000000000000000.0f32"), "rt float text: f32 digits");
	unit_check(tiny_is(ldexp(1.0, -149), true, 44, "1") && tiny_is(ldexp(1.0, -126), true, 37, "11754944"),
	    "rt float text: f32 smallest subnormal and normal");

	size_t work = 0;
	const uint8_t *h = (const uint8_t *)"abcabd";
	unit_check(rt_find(h, 6, (const uint8_t *)"abd", 3, 0, &work) == 3 && work == 4 + 3 + 3, "rt find: match and its work");
	unit_check(rt_find(h, 6, (const uint8_t *)"abd", 3, 4, NULL) == -1 && rt_find(h, 6, (const uint8_t *)"", 0, 6, NULL) == 6,
	    "rt find: from past the match; empty needle");
	unit_check(rt_find(h, 2, (const uint8_t *)"abc", 3, 0, NULL) == -1, "rt find: needle longer than haystack");
	unit_check(rt_bytes_cmp((const uint8_t *)"ab", 2, (const uint8_t *)"abc", 3) == -1
	    && rt_bytes_cmp((const uint8_t *)"b", 1, (const uint8_t *)"abc", 3) == 1
	    && rt_bytes_cmp((const uint8_t *)"\xff", 1, (const uint8_t *)"a", 1) == 1
	    && rt_bytes_cmp(NULL, 0, NULL, 0) == 0, "rt bytes order: unsigned bytes, then length");

	unit_check(char_is('a', "'a'") && char_is(' ', "' '") && char_is('~', "'~'") && char_is('"', "'\"'"),
	    "rt char literal: printable ASCII as itself");
	unit_check(char_is(0, "'\\0'") && char_is('\t', "'\\t'") && char_is('\n', "'\\n'") && char_is('\r', "'\\r'")
	    && char_is('\'', "'\\''") && char_is('\\', "'\\\\'"), "rt char literal: escapes");
	unit_check(char_is(0x7F, "'\\u{7f}'") && char_is(0x1, "'\\u{1}'") && char_is(0xE9, "'\\u{e9}'")
	    && char_is(0x1F600, "'\\u{1f600}'") && char_is(0x10FFFF, "'\\u{10ffff}'"), "rt char literal: \\u{hex} otherwise");

	unit_check(parses("0", 0) && parses("-0", 0) && parses("007", 7) && parses("-42", -42)
	    && parses("9223372036854775807", INT64_MAX) && parses("-9223372036854775808", INT64_MIN), "rt parse i64: accepted");
	unit_check(refuses("") && refuses("-") && refuses("+5") && refuses(" 5") && refuses("5 ") && refuses("1a")
	    && refuses("9223372036854775808") && refuses("-9223372036854775809") && refuses("99999999999999999999999"),
	    "rt parse i64: refused (sign, spaces, overflow)");
	int64_t iv = 0;
	unit_check(rt_i64_from_f64(-2.9, &iv) == 0 && iv == -2 && rt_i64_from_f64(-9223372036854775808.0, &iv) == 0 && iv == INT64_MIN
	    && rt_i64_from_f64(9223372036854775808.0, &iv) == RT_CONVERT_RANGE && rt_i64_from_f64(NAN, &iv) == RT_CONVERT_FROM_NAN
	    && rt_i64_from_f64(-INFINITY, &iv) == RT_CONVERT_RANGE, "rt i64_from_f64: truncation, range, NaN");
	unit_check(rt_i64_from_f64(9223372036854774784.0, &iv) == 0 && iv == 9223372036854774784LL
	    && rt_i64_from_f64(-9223372036854777856.0, &iv) == RT_CONVERT_RANGE && rt_i64_from_f64(-0.9, &iv) == 0 && iv == 0
	    && rt_i64_from_f64(INFINITY, &iv) == RT_CONVERT_RANGE && rt_i64_from_f64(-NAN, &iv) == RT_CONVERT_FROM_NAN,
	    "rt i64_from_f64 without math.h: the doubles next to +-2^63, -0.9, inf, -NaN");
	unit_check(rt_usize_from_i64(0) == 0 && rt_usize_from_i64(-1) == RT_CONVERT_RANGE && rt_i64_from_usize((uint64_t)INT64_MAX) == 0
	    && rt_i64_from_usize((uint64_t)INT64_MAX + 1) == RT_CONVERT_RANGE && rt_u8_from_i64(255) == 0 && rt_u8_from_i64(256) == RT_CONVERT_RANGE
	    && rt_u8_from_i64(-1) == RT_CONVERT_RANGE, "rt checked conversions: bounds");
	const uint8_t *hx = (const uint8_t *)"h\xc3\xa9!";   /* h é ! : 4 bytes, 3 scalars */
	unit_check(rt_utf8_count(hx, 4) == 3 && rt_slice_check(hx, 4, 0, 4) == 0 && rt_slice_check(hx, 4, 1, 3) == 0
	    && rt_slice_check(hx, 4, 2, 3) == RT_TEXT_SPLIT && rt_slice_check(hx, 4, 1, 2) == RT_TEXT_SPLIT
	    && rt_slice_check(hx, 4, -1, 2) == RT_TEXT_RANGE && rt_slice_check(hx, 4, 3, 2) == RT_TEXT_RANGE
	    && rt_slice_check(hx, 4, 4, 5) == RT_TEXT_RANGE && rt_slice_check(hx, 4, 4, 4) == 0, "rt slice check: range before split");
	size_t ta = 0, tn = rt_trim((const uint8_t *)" \t\v\f\r\na b\n", 10, &ta);
	unit_check(ta == 6 && tn == 3, "rt trim: ASCII space, \\t, \\n, \\v, \\f, \\r at both ends");
	tn = rt_trim((const uint8_t *)"  ", 2, &ta);
	unit_check(tn == 0, "rt trim: all space");
	uint64_t w, fr;
	rt_bytes_selector(7, false, &w, &fr);
	bool sel_ok = w == 1 && fr == 0;
	rt_bytes_selector((uint64_t)1 << 63 | 9, false, &w, &fr);
	sel_ok &= w == 5 && fr == 9;
	rt_bytes_selector((uint64_t)1 << 63 | (uint64_t)1 << 62 | 3, false, &w, &fr);
	sel_ok &= w == 5 && fr == ((uint64_t)1 << 62 | 3);
	rt_bytes_selector((uint64_t)1 << 63 | (uint64_t)1 << 62 | 3, true, &w, &fr);
	sel_ok &= w == 48 && fr == 3;
	rt_bytes_selector((uint64_t)1 << 63 | 3, true, &w, &fr);
	sel_ok &= w == 6 && fr == 3;
	unit_check(sel_ok, "rt bytes selector: one byte, 5, 6 or 48 from the offset");

	/* "a{}b{{c}}{}" : a, hole, b, brace {, c, brace }, hole, end */
	const uint8_t *ft = (const uint8_t *)"a{}b{{c}}{}";
	size_t fat = 0, fn = 11;
	int fk;
	bool scan_ok = rt_format_scan(ft, fn, &fat, &fk) == 1 && fk == RT_FORMAT_HOLE && fat == 3;
	scan_ok &= rt_format_scan(ft, fn, &fat, &fk) == 4 && fk == RT_FORMAT_BRACE && fat == 6;
	scan_ok &= rt_format_scan(ft, fn, &fat, &fk) == 7 && fk == RT_FORMAT_BRACE && fat == 9;
	scan_ok &= rt_format_scan(ft, fn, &fat, &fk) == 9 && fk == RT_FORMAT_HOLE && fat == 11;
	scan_ok &= rt_format_scan(ft, fn, &fat, &fk) == 11 && fk == RT_FORMAT_END;
	fat = 0;
	scan_ok &= rt_format_scan((const uint8_t *)"{}}", 3, &fat, &fk) == 0 && fk == RT_FORMAT_HOLE
	    && rt_format_scan((const uint8_t *)"{}}", 3, &fat, &fk) == 3 && fk == RT_FORMAT_END;
	unit_check(scan_ok, "rt format scan: holes, escaped braces, a lone brace is text");

	static const int64_t keys[] = { -5, 0, 3, 9, 12, 40, 41 };
	int probes;
	unit_check(find_i64(keys, 7, 9, &probes) == 3 && probes == 1 && find_i64(keys, 7, -5, &probes) == 0
	    && find_i64(keys, 7, 41, &probes) == 6 && probes == 3, "rt sorted find: hits and their probes");
	unit_check(find_i64(keys, 7, -9, &probes) == -1 && find_i64(keys, 7, 10, &probes) == -5
	    && find_i64(keys, 7, 99, &probes) == -8 && find_i64(keys, 0, 1, &probes) == -1 && probes == 0,
	    "rt sorted find: -(insertion point) - 1 on a miss");

	char why[160];
	char *few[] = { "a", "b\xc3\xa9" }, *badarg[] = { "ok", "x\xff" }, *many[17];
	for (int k = 0; k < 17; k++)
		many[k] = "m";
	unit_check(rt_args_check(0, few, why) == 0 && rt_args_check(2, few, why) == 0 && rt_args_check(16, many, why) == 0,
	    "rt args: up to 16 valid arguments pass");
	size_t wl = rt_args_check(17, many, why);
	bool args_ok = wl == strlen(why) && strcmp(why, "a command-line program takes at most 16 arguments after `--` (got 17)") == 0;
	rt_args_check(2, badarg, why);
	args_ok &= strcmp(why, "argument 1 after `--` is not valid UTF-8") == 0;
	static char huge[40000];
	memset(huge, 'x', sizeof huge - 1);
	char *big2[] = { huge, huge };
	rt_args_check(2, big2, why);
	args_ok &= strcmp(why, "arguments after `--` exceed 65536 bytes together") == 0;
	unit_check(args_ok, "rt args: count, UTF-8 and total size refusals, in that order");

	uint64_t want;
	unit_check(rt_vec_reserve_target(3, 5, &want) == 0 && want == 8 && rt_vec_reserve_target(8000, 192, &want) == 0
	    && rt_vec_reserve_target(8000, 193, &want) == RT_VEC_ALLOC && rt_vec_reserve_target(1, UINT64_MAX, &want) == RT_VEC_ALLOC,
	    "rt vec reserve: len + add up to 8,192, no wrap-around");

	unit_check(RT_DOM_COUNT == 14 && RT_LIMIT_STDIN == 65536 && RT_LIMIT_ENV_ENTRIES == 256 && RT_LIMIT_VEC_CAPACITY == 8192 && RT_LIMIT_OUTPUT == 65536, "rt domains: table and limits");
}
