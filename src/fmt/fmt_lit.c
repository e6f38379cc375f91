/*
 * fmt_lit.c — canonical literal text (LANGUAGE.md §0.11), shared by the
 * formatter and the revision hash.  Integer digits, float text and char
 * literals come from the shared runtime (rt_decimal, rt_float_text in
 * src/rt/num.c, rt_char_literal in src/rt/text.c), the one copy the lanes
 * print with too.
 */
#include "fmt.h"

#include <float.h>
#include <string.h>

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

/*
 * The canonical text of an f64 v that is a decimal D / 10^k with D < 10^15
 * and k <= 15 (nearly every literal a program writes: `1.5`, `0.25`), or 0
 * to leave it to rt_float_text.  Its exact integer arithmetic costs a few
 * thousand instructions a value; this finds D by one multiply and checks it
 * exactly: D and 10^k are exact doubles, so D / 10^k is the correctly
 * rounded decimal D·10^-k, the double a literal of those digits reads as.
 * Two decimals of at most 15 significant digits never read as the same
 * double (DBL_DIG), so D, its trailing zeros dropped, is the shortest text
 * that round-trips: rt_float_text's digits (no rounding boundary of a double
 * below 10^15 has 15 or fewer significant digits, so its interval test
 * agrees).  tests/unit/float_test.c compares the two.
 */
size_t
fmt_float_short(char out[352], double v)
{
#if FLT_EVAL_METHOD == 0   /* (excess precision would make the check inexact) */
	static const double p10[16] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13,
		1e14, 1e15 };
	size_t n = 0;
	if (v < 0) {
		out[n++] = '-';
		v = -v;
	}
	if (!(v > 0 && v < 1e15))   /* (zero, NaN, inf, large: the general path) */
		return 0;
	for (int k = 0; k <= 15; k++) {
		double t = v * p10[k];
		if (t >= 1e15)
			return 0;
		uint64_t d = (uint64_t)(t + 0.5);
		if ((double)d / p10[k] != v)
			continue;
		while (k > 0 && d % 10 == 0) {
			d /= 10;
			k--;
		}
		char digits[24];
		int nd = 0;
		do
			digits[sizeof digits - 1 - nd++] = (char)('0' + d % 10);
		while (d /= 10);
		const char *ds = digits + sizeof digits - nd;
		if (k == 0) {   /* integral: `150.0` */
			memcpy(out + n, ds, (size_t)nd);
			n += (size_t)nd;
			memcpy(out + n, ".0", 2);
			n += 2;
		} else if (nd > k) {   /* `12.5` */
			memcpy(out + n, ds, (size_t)(nd - k));
			n += (size_t)(nd - k);
			out[n++] = '.';
			memcpy(out + n, ds + nd - k, (size_t)k);
			n += (size_t)k;
		} else {   /* `0.025` */
			out[n++] = '0';
			out[n++] = '.';
			for (int i = 0; i < k - nd; i++)
				out[n++] = '0';
			memcpy(out + n, ds, (size_t)nd);
			n += (size_t)nd;
		}
		out[n] = '\0';
		return n;
	}
#else
	(void)out, (void)v;
#endif
	return 0;
}

void
fmt_float(Buf *out, double v, NumSuffix suffix)
{
	char text[352];
	size_t n = suffix == SUF_F32 ? 0 : fmt_float_short(text, v);
	if (n == 0)
		n = rt_float_text(text, v, suffix == SUF_F32);
	buf_put(out, text, n);
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
