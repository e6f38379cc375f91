/*
 * text.c — substring search (`string_contains`, `str_contains`,
 * `string_find`; LANGUAGE.md §5.1), the one copy both lanes use; the
 * bytewise order of text and byte views (the native lane's spx_bytes_cmp
 * and the Wasm lane's comparisons call it); `string_trim`'s span.
 */
#ifndef RT_API
#include "rt.h"
#endif
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

RT_API int64_t
rt_find(const uint8_t *h, size_t hl, const uint8_t *n, size_t nl, size_t from, size_t *work)
{
	if (nl == 0)
		return (int64_t)from;
	size_t w = 0;
	int64_t at = -1;
	/* nl <= hl first: the loop bound cannot wrap */
	for (size_t i = from; nl <= hl && i <= hl - nl; i++) {
		w++;
		if (h[i] == n[0]) {
			w += nl;
			/* the mask is a no-op for live objects; without it gcc -O2 cannot
			 * bound the length and warns (-Wstringop-overread) */
			if (memcmp(h + i, n, nl & (size_t)PTRDIFF_MAX) == 0) {
				at = (int64_t)i;
				break;
			}
		}
	}
	if (work)
		*work += w;
	return at;
}

RT_API int
rt_bytes_cmp(const uint8_t *a, size_t la, const uint8_t *b, size_t lb)
{
	size_t n = la < lb ? la : lb;
	/* the mask: see rt_find; a zero length never reads the pointers */
	int c = n ? memcmp(a, b, n & (size_t)PTRDIFF_MAX) : 0;
	if (c != 0)
		return c < 0 ? -1 : 1;
	return la < lb ? -1 : la > lb ? 1 : 0;
}

static bool
trim_space(uint8_t c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

RT_API size_t
rt_trim(const uint8_t *p, size_t n, size_t *start)
{
	size_t a = 0, e = n;
	while (a < e && trim_space(p[a]))
		a++;
	while (e > a && trim_space(p[e - 1]))
		e--;
	*start = a;
	return e - a;
}
