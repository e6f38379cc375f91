/*
 * text.c — substring search (`string_contains`, `str_contains`,
 * `string_find`; LANGUAGE.md §5.1) and the byte order of text and bytes
 * (comparisons, Map/Set keys), the one copy both lanes use.
 */
#ifndef RT_API
#include "rt.h"
#endif
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
	int c = n ? memcmp(a, b, n & (size_t)PTRDIFF_MAX) : 0;
	if (c != 0)
		return c < 0 ? -1 : 1;
	return la < lb ? -1 : la > lb ? 1 : 0;
}
