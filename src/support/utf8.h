/*
 * utf8.h — strict UTF-8 decoding and the Unicode facts the lexer needs.
 */
#ifndef SPX_UTF8_H
#define SPX_UTF8_H

#include "common.h"

/*
 * Decodes one scalar at s[0..n).  Returns its byte length (1-4) and stores
 * the scalar in *cp, or returns 0 for an ill-formed sequence (overlong,
 * surrogate, > U+10FFFF, truncated).
 */
int utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);

/* Offset of the first ill-formed byte in s[0..n), or n when valid. */
size_t utf8_validate(const unsigned char *s, size_t n);

/* Encodes cp (a scalar) into out; returns the length 1-4. */
int utf8_put(uint32_t cp, char out[4]);

/* Unicode White_Space property. */
bool utf8_is_space(uint32_t cp);

#endif
