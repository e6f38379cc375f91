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

#endif
