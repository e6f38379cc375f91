/*
 * fmt_lit.c — canonical literal text (LANGUAGE.md §0.11), shared by the
 * formatter and the revision hash.
 *
 * Floats print like Rust's `{}` (which the reference uses): the shortest
 * decimal digits that round-trip — to a double, or to a float for `f32`
 * literals — written positionally (never with an exponent) and with `.0`
 * appended when integral.  The digits come from correctly rounded `%.*e`
 * for increasing precision, plus the one-unit neighbours at each precision,
 * which catches the lopsided rounding interval just above a power of two
 * where the nearest decimal of a length does not round-trip but another
 * one does.
 */
#include "fmt.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	char digits[24];
	size_t n = sizeof digits;
	do
		digits[--n] = (char)('0' + value % 10);
	while ((value /= 10) != 0);
	if (negative)
		digits[--n] = '-';
	buf_put(out, digits + n, sizeof digits - n);
	buf_puts(out, int_suffix(suffix));
}

/* Does the decimal text round-trip to v (as a float when f32)? */
static bool
round_trips(const char *text, double v, bool f32)
{
	if (f32)
		return strtof(text, NULL) == (float)v;
	return strtod(text, NULL) == v;
}

/* Writes digits d[0..n) times 10^exp (d[0] before the point) as "D.DDDe<exp>". */
static void
sci_text(char *out, size_t size, const char *d, int n, int exp)
{
	snprintf(out, size, "%c%s%.*se%d", d[0], n > 1 ? "." : "", n - 1, d + 1, exp);
}

/*
 * Adds delta (+1 or -1) to the last of the n digits of d (value d[0].d[1..]
 * times 10^*exp), renormalizing so d[0] != '0'.  Returns the new length, or
 * 0 when the result would be zero.
 */
static int
bump_digits(char *d, int n, int *exp, int delta)
{
	int i = n - 1;
	if (delta > 0) {
		while (i >= 0 && d[i] == '9')
			d[i--] = '0';
		if (i < 0) {
			d[0] = '1';  /* 99…9 + 1 = 10…0: one more power of ten */
			(*exp)++;
			return n;
		}
		d[i]++;
		return n;
	}
	while (i >= 0 && d[i] == '0')
		d[i--] = '9';
	if (i < 0)
		return 0;
	d[i]--;
	if (d[0] == '0') {
		if (n == 1)
			return 0;
		memmove(d, d + 1, (size_t)n - 1);
		(*exp)--;
		return n - 1;
	}
	return n;
}

/* Parses "%e" output into its digits and decimal exponent; returns the digit count. */
static int
sci_digits(const char *text, char *d, int *exp)
{
	int n = 0;
	const char *s = text;
	for (; *s && *s != 'e'; s++)
		if (*s >= '0' && *s <= '9')
			d[n++] = *s;
	*exp = *s ? atoi(s + 1) : 0;
	return n;
}

/* Tries the decimals one unit above and below d[0..*n); true when one round-trips. */
static bool
neighbour(double v, bool f32, char *d, int *n, int *exp)
{
	for (int delta = 1; delta >= -1; delta -= 2) {
		char c[32], text[64];
		int e = *exp;
		memcpy(c, d, (size_t)*n);
		int m = bump_digits(c, *n, &e, delta);
		if (m == 0)
			continue;
		sci_text(text, sizeof text, c, m, e);
		if (round_trips(text, v, f32)) {
			memcpy(d, c, (size_t)m);
			*n = m;
			*exp = e;
			return true;
		}
	}
	return false;
}

/*
 * Shortest digits that round-trip (like Rust's `{}`): the nearest p-digit
 * decimal for increasing p, or its neighbour one unit away when v sits on a
 * power-of-two boundary whose rounding interval is lopsided.  d gets the
 * digits without trailing zeros (NUL-terminated); returns the count.
 */
static int
shortest_digits(double v, bool f32, char d[32], int *exp)
{
	int maxp = f32 ? 9 : 17;
	int n = 0;
	for (int p = 1; p <= maxp; p++) {
		char text[64];
		snprintf(text, sizeof text, "%.*e", p - 1, v);
		n = sci_digits(text, d, exp);
		if (round_trips(text, v, f32) || (p < maxp && neighbour(v, f32, d, &n, exp)))
			break;
	}
	while (n > 1 && d[n - 1] == '0')
		n--;
	d[n] = '\0';
	return n;
}

void
fmt_float(Buf *out, double v, NumSuffix suffix)
{
	bool f32 = suffix == SUF_F32;
	if (isnan(v) || isinf(v)) {
		buf_puts(out, isnan(v) ? "NaN" : v < 0 ? "-inf" : "inf");
	} else {
		if (signbit(v)) {
			buf_putc(out, '-');
			v = -v;
		}
		char d[32];
		int exp;
		memset(d, 0, sizeof d);
		int n = shortest_digits(v, f32, d, &exp);
		if (exp < 0) {
			buf_puts(out, "0.");
			for (int i = 0; i < -exp - 1; i++)
				buf_putc(out, '0');
			buf_put(out, d, (size_t)n);
		} else if (n <= exp + 1) {
			buf_put(out, d, (size_t)n);
			for (int i = n; i < exp + 1; i++)
				buf_putc(out, '0');
			buf_puts(out, ".0");
		} else {
			buf_put(out, d, (size_t)exp + 1);
			buf_putc(out, '.');
			buf_put(out, d + exp + 1, (size_t)(n - exp - 1));
		}
	}
	if (f32)
		buf_puts(out, "f32");
}

void
fmt_char(Buf *out, uint32_t cp)
{
	buf_putc(out, '\'');
	switch (cp) {
	case 0: buf_puts(out, "\\0"); break;
	case '\t': buf_puts(out, "\\t"); break;
	case '\n': buf_puts(out, "\\n"); break;
	case '\r': buf_puts(out, "\\r"); break;
	case '\'': buf_puts(out, "\\'"); break;
	case '\\': buf_puts(out, "\\\\"); break;
	default:
		if (cp >= 0x20 && cp <= 0x7E)
			buf_putc(out, (char)cp);
		else
			buf_printf(out, "\\u{%" PRIx32 "}", cp);
		break;
	}
	buf_putc(out, '\'');
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
