/*
 * rt_test.c — the shared runtime (src/rt/) both lanes call: the path check
 * of file_read_text, strict UTF-8, float total order, integer decimal text,
 * substring search with its work count, and the domain table.
 */
#include <math.h>
#include <string.h>

#include "../../src/rt/domains.h"
#include "../../src/rt/rt.h"
#include "unit.h"

static bool
path_ok(const char *p)
{
	return rt_fs_path_valid((const uint8_t *)p, strlen(p));
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

void
unit_rt_checks(void)
{
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

	size_t work = 0;
	const uint8_t *h = (const uint8_t *)"abcabd";
	unit_check(rt_find(h, 6, (const uint8_t *)"abd", 3, 0, &work) == 3 && work == 4 + 3 + 3, "rt find: match and its work");
	unit_check(rt_find(h, 6, (const uint8_t *)"abd", 3, 4, NULL) == -1 && rt_find(h, 6, (const uint8_t *)"", 0, 6, NULL) == 6,
	    "rt find: from past the match; empty needle");
	unit_check(rt_find(h, 2, (const uint8_t *)"abc", 3, 0, NULL) == -1, "rt find: needle longer than haystack");

	unit_check(RT_DOM_COUNT == 13 && RT_LIMIT_VEC_CAPACITY == 8192 && RT_LIMIT_OUTPUT == 65536, "rt domains: table and limits");
}
