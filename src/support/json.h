/*
 * json.h — the compact JSON writer helpers (keys are written by callers in
 * their fixed order; this only escapes).
 */
#ifndef SPX_JSON_H
#define SPX_JSON_H

#include "buf.h"

/* Writes s[0..n) as a JSON string: \" \\ \n \r \t, other controls \u00XX;
 * a byte starting no well-formed UTF-8 sequence becomes U+FFFD (one per byte),
 * so every JSON text the toolchain writes is valid UTF-8. */
void json_str(Buf *b, const char *s, size_t n);
void json_cstr(Buf *b, const char *s);  /* NULL writes null */

/* Where the text s[0..n) stops being JSON (RFC 8259, UTF-8; with allow_nul
 * false a `\u0000` escape is refused too): the offending token's span
 * [*start, *end) — a mistyped word whole, a string's bad escape or byte, the
 * token where a `,`, `:` or close was due, the opening quote of an
 * unterminated string, [n, n) for a premature end.  False when it is JSON
 * (nesting past 4096 is not judged). */
bool json_syntax_error(const char *s, size_t n, bool allow_nul, size_t *start, size_t *end);

/* The span for a caret at jansson's error (its position and text) on
 * s[0..n): json_syntax_error's when it starts at or before position; else
 * (jansson stopped first: a duplicate key, its depth bound, a number out of
 * range) the token jansson names (`near '…'`), which ends at position; else
 * the byte before position. */
void json_error_span(const char *s, size_t n, bool allow_nul, int position, const char *text, size_t *start, size_t *end);

#endif
