/*
 * json.c — JSON string escaping (TOOLCHAIN.md §3.1).
 */
#include "json.h"

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
			if (c < 0x20 || c == 0x7F)
				buf_printf(b, "\\u%04x", c);
			else
				buf_putc(b, (char)c);
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
