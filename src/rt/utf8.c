/*
 * utf8.c — strict UTF-8 (RFC 3629: no overlongs, no surrogates, nothing
 * above U+10FFFF), the one copy the lexer (through support/utf8.c), the
 * interpreter and the generated programs (embedded text) all use: text
 * validation of file contents and command-line arguments, and `char`
 * encoding (`string_from_char`, LANGUAGE.md §5.1).
 */
#include <string.h>   /* memcpy: also when embedded into generated C */

#ifndef RT_API
#include "rt.h"
#endif
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

RT_API int
rt_utf8_decode(const uint8_t *s, size_t n, uint32_t *cp)
{
	if (n == 0)
		return 0;
	uint32_t c = s[0];
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	int len;
	uint32_t v, min;
	if (c >= 0xC2 && c <= 0xDF) {
		len = 2; v = c & 0x1F; min = 0x80;
	} else if (c >= 0xE0 && c <= 0xEF) {
		len = 3; v = c & 0x0F; min = 0x800;
	} else if (c >= 0xF0 && c <= 0xF4) {
		len = 4; v = c & 0x07; min = 0x10000;
	} else {
		return 0;
	}
	if ((size_t)len > n)
		return 0;
	for (int i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		v = (v << 6) | (s[i] & 0x3Fu);
	}
	if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
		return 0;
	*cp = v;
	return len;
}

RT_API size_t
rt_utf8_validate(const uint8_t *s, size_t n)
{
	size_t i = 0;
	while (i < n) {
		uint64_t w;   /* eight ASCII bytes at a time */
		while (i + 8 <= n && (memcpy(&w, s + i, 8), (w & 0x8080808080808080ull) == 0))
			i += 8;
		if (i >= n)
			break;
		if (s[i] < 0x80) {
			i++;
			continue;
		}
		uint32_t cp;
		int len = rt_utf8_decode(s + i, n - i, &cp);
		if (len == 0)
			return i;
		i += (size_t)len;
	}
	return n;
}

RT_API bool
rt_utf8_scalar(int64_t v)
{
	return v >= 0 && v <= 0x10FFFF && !(v >= 0xD800 && v <= 0xDFFF);
}

RT_API size_t
rt_utf8_encode(uint32_t c, uint8_t out[4])
{
	if (c < 0x80) {
		out[0] = (uint8_t)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (uint8_t)(0xC0 | c >> 6);
		out[1] = (uint8_t)(0x80 | (c & 0x3F));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (uint8_t)(0xE0 | c >> 12);
		out[1] = (uint8_t)(0x80 | (c >> 6 & 0x3F));
		out[2] = (uint8_t)(0x80 | (c & 0x3F));
		return 3;
	}
	out[0] = (uint8_t)(0xF0 | c >> 18);
	out[1] = (uint8_t)(0x80 | (c >> 12 & 0x3F));
	out[2] = (uint8_t)(0x80 | (c >> 6 & 0x3F));
	out[3] = (uint8_t)(0x80 | (c & 0x3F));
	return 4;
}

RT_API int64_t
rt_utf8_count(const uint8_t *s, size_t n)
{
	int64_t count = 0;
	for (size_t i = 0; i < n; i++)
		count += (s[i] & 0xC0) != 0x80;
	return count;
}
