/*
 * shim.c — the four libc functions src/rt needs on wasm32, freestanding
 * (compiled with -fno-builtin, so these loops are not turned back into
 * calls of themselves).
 */
#include "string.h"

#undef memcpy
#undef memmove
#undef memset

#include <stdint.h>

/* Eight bytes at a time while they last (Wasm loads and stores need no alignment). */
void *
memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	for (; n >= 8; n -= 8, d += 8, s += 8) {
		uint64_t w;
		__builtin_memcpy(&w, s, 8);
		__builtin_memcpy(d, &w, 8);
	}
	while (n--)
		*d++ = *s++;
	return dst;
}

void *
memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	uint64_t w;
	if (d < s) {
		/* forward: a chunk is read whole before its store, which ends below the next read */
		for (; n >= 8; n -= 8, d += 8, s += 8) {
			__builtin_memcpy(&w, s, 8);
			__builtin_memcpy(d, &w, 8);
		}
		while (n--)
			*d++ = *s++;
	} else {
		for (; n >= 8; n -= 8) {
			__builtin_memcpy(&w, s + n - 8, 8);
			__builtin_memcpy(d + n - 8, &w, 8);
		}
		while (n--)
			d[n] = s[n];
	}
	return dst;
}

void *
memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;
	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

int
memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;
	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x < *y ? -1 : 1;
	return 0;
}
