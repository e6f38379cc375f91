/*
 * utf8.c — strict UTF-8 (RFC 3629: no overlongs, no surrogates, ≤ U+10FFFF);
 * decoding, validation and encoding are the shared runtime's (src/rt/utf8.c).
 */
#include "utf8.h"

#include <string.h>

#include "../rt/rt.h"

int
utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	return rt_utf8_decode(s, n, cp);
}

/* The length of the valid prefix (rt_utf8_validate skips ASCII eight bytes
 * at a time: the lexer validates every source file whole before lexing it). */
size_t
utf8_validate(const unsigned char *s, size_t n)
{
	return rt_utf8_validate(s, n);
}

int
utf8_put(uint32_t cp, char out[4])
{
	return (int)rt_utf8_encode(cp, (uint8_t *)out);
}

bool
utf8_is_space(uint32_t cp)
{
	switch (cp) {
	case 0x09: case 0x0A: case 0x0B: case 0x0C: case 0x0D: case 0x20:
	case 0x85: case 0xA0: case 0x1680: case 0x2028: case 0x2029:
	case 0x202F: case 0x205F: case 0x3000:
		return true;
	default:
		return cp >= 0x2000 && cp <= 0x200A;
	}
}
