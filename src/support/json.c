/*
 * json.c — JSON string escaping (TOOLCHAIN.md §3.1).
 */
#include "json.h"
#include "utf8.h"

#include <string.h>

void
json_str(Buf *b, const char *s, size_t n)
{
	buf_putc(b, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		switch (c) {
		case '"': buf_put(b, "\\\"", 2); break;
		case '\\': buf_put(b, "\\\\", 2); break;
		case '\n': buf_put(b, "\\n", 2); break;
		case '\r': buf_put(b, "\\r", 2); break;
		case '\t': buf_put(b, "\\t", 2); break;
		default:
			if (c < 0x20 || c == 0x7F) {
				buf_printf(b, "\\u%04x", c);
			} else if (c < 0x80) {
				buf_putc(b, (char)c);
			} else {
				/* JSON texts are UTF-8 (RFC 8259 §8.1): a byte that starts
				 * no well-formed sequence (a path's raw bytes, a name cut
				 * mid-scalar) is written as U+FFFD, one per byte. */
				uint32_t cp;
				int k = utf8_decode((const unsigned char *)s + i, n - i, &cp);
				if (k > 0) {
					buf_put(b, s + i, (size_t)k);
					i += (size_t)k - 1;
				} else {
					buf_puts(b, "\xEF\xBF\xBD");
				}
			}
		}
	}
	buf_putc(b, '"');
}

void
json_cstr(Buf *b, const char *s)
{
	if (!s)
		buf_puts(b, "null");
	else
		json_str(b, s, strlen(s));
}
