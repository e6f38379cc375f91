/*
 * fmt_lit.c — canonical literal text (LANGUAGE.md §0.11), shared by the
 * formatter and the revision hash.  Integer digits, float text and char
 * literals come from the shared runtime (rt_decimal, rt_float_text in
 * src/rt/num.c, rt_char_literal in src/rt/text.c), the one copy the lanes
 * print with too.
 */
#include "fmt.h"

#include "../rt/rt.h"
#include "../support/diag.h"
#include "../support/utf8.h"

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

/* Bytes a string literal writes as they are without a closer look:
 * printable ASCII but `"` and `\`. */
static const unsigned char plain_ascii[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

/* A string's value as its canonical literal.  Control characters (C0, DEL,
 * C1) are escapes, never raw: a raw carriage return is lost to line-ending
 * conversion and an escape sequence acts on a terminal showing the file;
 * so are the bidi and line-separator format controls (diag_invisible_format,
 * "Trojan Source"), which reorder or break a line unseen.  The value is the
 * same (`\u{202e}` is the escape of U+202E), so the rewrite is idempotent. */

void
fmt_string(Buf *out, const char *s, size_t n)
{
	buf_putc(out, '"');
	size_t run = 0;   /* the start of the bytes not yet written */
	for (size_t i = 0; i < n; i++) {
		/* printable ASCII but `"` and `\` (nearly every byte of an
		 * `@id`): skipped by one table lookup a byte */
		while (i < n && plain_ascii[(unsigned char)s[i]])
			i++;
		if (i == n)
			break;
		unsigned char c = (unsigned char)s[i];
		uint32_t cp = c;
		int k = c >= 0x80 ? utf8_decode((const unsigned char *)s + i, n - i, &cp) : 1;
		if (k == 0) {   /* not UTF-8 (no source holds it): the byte kept as it is */
			k = 1;
			cp = 0xFFFD;
		}
		bool control = cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0) || diag_invisible_format(cp);
		if (!control && cp != '"' && cp != '\\') {
			i += (size_t)k - 1;
			continue;
		}
		buf_put(out, s + run, i - run);
		switch (cp) {
		case '\n': buf_puts(out, "\\n"); break;
		case '\r': buf_puts(out, "\\r"); break;
		case '\t': buf_puts(out, "\\t"); break;
		case '"': buf_puts(out, "\\\""); break;
		case '\\': buf_puts(out, "\\\\"); break;
		default: buf_printf(out, "\\u{%x}", (unsigned)cp); break;
		}
		i += (size_t)k - 1;
		run = i + 1;
	}
	if (n > run)
		buf_put(out, s + run, n - run);
	buf_putc(out, '"');
}
