/*
 * float.c — the canonical text of a float (LANGUAGE.md §0.11): the
 * formatter and revision hash (src/fmt), the interpreter's contract details
 * and the native contract report all print floats through rt_float_text.
 * It needs the hosted C library (snprintf, strtod, math.h), so it is not
 * part of the freestanding wasm32 runtime (tools/build_rt_wasm.sh).
 */
#ifndef RT_API
#include "rt.h"
#endif
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Float text prints like Rust's `{}` (which the reference uses): the
 * shortest decimal digits that round-trip — to a double, or to a float for
 * f32 — written positionally (never with an exponent), `.0` appended when
 * integral.  The digits come from correctly rounded `%.*e` for increasing
 * precision, plus the one-unit neighbours at each precision, which catches
 * the lopsided rounding interval just above a power of two where the
 * nearest decimal of a length does not round-trip but another one does.
 */

/* Does the decimal text round-trip to v (as a float when f32)? */
static bool
rt_float_round_trips(const char *text, double v, bool f32)
{
	if (f32)
		return strtof(text, NULL) == (float)v;
	return strtod(text, NULL) == v;
}

/* "%e" text to its digits and decimal exponent; returns the digit count. */
static int
rt_float_sci_digits(const char *text, char *d, int *exp)
{
	int n = 0;
	const char *s = text;
	for (; *s && *s != 'e'; s++)
		if (*s >= '0' && *s <= '9')
			d[n++] = *s;
	*exp = *s ? atoi(s + 1) : 0;
	return n;
}

/*
 * Adds delta (+1 or -1) to the last of the n digits of d (value d[0].d[1..]
 * times 10^*exp), renormalizing so d[0] != '0'.  Returns the new length, or
 * 0 when the result would be zero.
 */
static int
rt_float_bump_digits(char *d, int n, int *exp, int delta)
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

/* Tries the decimals one unit above and below d[0..*n); true when one round-trips. */
static bool
rt_float_neighbour(double v, bool f32, char *d, int *n, int *exp)
{
	for (int delta = 1; delta >= -1; delta -= 2) {
		char c[32], text[64];
		int e = *exp;
		memcpy(c, d, (size_t)*n);
		int m = rt_float_bump_digits(c, *n, &e, delta);
		if (m == 0)
			continue;
		snprintf(text, sizeof text, "%c%s%.*se%d", c[0], m > 1 ? "." : "", m - 1, c + 1, e);
		if (rt_float_round_trips(text, v, f32)) {
			memcpy(d, c, (size_t)m);
			*n = m;
			*exp = e;
			return true;
		}
	}
	return false;
}

RT_API size_t
rt_float_text(char out[352], double v, bool f32)
{
	size_t k = 0;
	if (isnan(v) || isinf(v)) {
		const char *s = isnan(v) ? "NaN" : v < 0 ? "-inf" : "inf";
		k = strlen(s);
		memcpy(out, s, k);
	} else {
		if (signbit(v)) {
			out[k++] = '-';
			v = -v;
		}
		char d[32];
		int exp = 0, n = 0, maxp = f32 ? 9 : 17;
		memset(d, 0, sizeof d);
		for (int p = 1; p <= maxp; p++) {
			char text[64];
			snprintf(text, sizeof text, "%.*e", p - 1, v);
			n = rt_float_sci_digits(text, d, &exp);
			if (rt_float_round_trips(text, v, f32) || (p < maxp && rt_float_neighbour(v, f32, d, &n, &exp)))
				break;
		}
		while (n > 1 && d[n - 1] == '0')
			n--;
		if (exp < 0) {
			out[k++] = '0';
			out[k++] = '.';
			for (int i = 0; i < -exp - 1; i++)
				out[k++] = '0';
			memcpy(out + k, d, (size_t)n);
			k += (size_t)n;
		} else if (n <= exp + 1) {
			memcpy(out + k, d, (size_t)n);
			k += (size_t)n;
			for (int i = n; i < exp + 1; i++)
				out[k++] = '0';
			out[k++] = '.';
			out[k++] = '0';
		} else {
			memcpy(out + k, d, (size_t)exp + 1);
			k += (size_t)exp + 1;
			out[k++] = '.';
			memcpy(out + k, d + exp + 1, (size_t)(n - exp - 1));
			k += (size_t)(n - exp - 1);
		}
	}
	if (f32) {
		memcpy(out + k, "f32", 3);
		k += 3;
	}
	out[k] = '\0';
	return k;
}
