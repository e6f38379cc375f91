/*
 * fmt_lit.c — canonical literal text (LANGUAGE.md §0.11), shared by the
 * formatter and the revision hash.  Integer digits, float text and char
 * literals come from the shared runtime (rt_decimal, rt_float_text in
 * src/rt/num.c, rt_char_literal in src/rt/text.c), the one copy the lanes
 * print with too.
 */
#include "fmt.h"

#include "../rt/rt.h"

static const char *
int_suffix(NumSuffix s)
{
	switch (s) {
	case SUF_I32: return "i32";
	case SUF_U8: return "u8";
	case SUF_USIZE: return "usize";
	default: return "";
	}
}

void
fmt_int(Buf *out, uint64_t value, NumSuffix suffix, bool negative)
{
	char digits[32];
	char *p = rt_decimal(digits, value, negative);
	buf_put(out, p, (size_t)(digits + sizeof digits - p));
	buf_puts(out, int_suffix(suffix));
}

void
fmt_float(Buf *out, double v, NumSuffix suffix)
{
	char text[352];
	buf_put(out, text, rt_float_text(text, v, suffix == SUF_F32));
}

void
fmt_char(Buf *out, uint32_t cp)
{
	char text[16];
	buf_put(out, text, rt_char_literal(text, cp));
}

void
fmt_string(Buf *out, const char *s, size_t n)
{
	buf_putc(out, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		switch (c) {
		case '\n': buf_puts(out, "\\n"); break;
		case '\r': buf_puts(out, "\\r"); break;
		case '\t': buf_puts(out, "\\t"); break;
		case '"': buf_puts(out, "\\\""); break;
		case '\\': buf_puts(out, "\\\\"); break;
		default:
			if (c < 0x20 || c == 0x7F)
				buf_printf(out, "\\u{%x}", c);
			else
				buf_putc(out, (char)c);
			break;
		}
	}
	buf_putc(out, '"');
}
