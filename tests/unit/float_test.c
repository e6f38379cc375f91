/*
 * float_test.c — rt_float_text (src/rt/float.c, freestanding exact
 * arithmetic, also built for wasm32) checked against an oracle kept here: the
 * earlier hosted formulation of the same rule over snprintf("%.*e") and
 * strtod/strtof (shortest correctly rounded digits that round-trip, else a
 * one-unit neighbour).  Values: ±0, NaN and inf, every power of two and ten
 * in range with their one-ulp neighbours, subnormals, the f32 counterparts,
 * and pseudo-random bit patterns (a fixed xorshift seed: deterministic).
 * The formatter's fast path (fmt_float_short) is checked against
 * rt_float_text over the same values and random short decimals.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/fmt/fmt.h"
#include "../../src/rt/rt.h"
#include "unit.h"

static bool
ref_round_trips(const char *text, double v, bool f32)
{
	if (f32)
		return strtof(text, NULL) == (float)v;
	return strtod(text, NULL) == v;
}

static int
ref_sci_digits(const char *text, char *d, int *exp)
{
	int n = 0;
	const char *s = text;
	for (; *s && *s != 'e'; s++)
		if (*s >= '0' && *s <= '9')
			d[n++] = *s;
	*exp = *s ? atoi(s + 1) : 0;
	return n;
}

static int
ref_bump_digits(char *d, int n, int *exp, int delta)
{
	int i = n - 1;
	if (delta > 0) {
		while (i >= 0 && d[i] == '9')
			d[i--] = '0';
		if (i < 0) {
			d[0] = '1';
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

static bool
ref_neighbour(double v, bool f32, char *d, int *n, int *exp)
{
	for (int delta = 1; delta >= -1; delta -= 2) {
		char c[32], text[64];
		int e = *exp;
		memcpy(c, d, (size_t)*n);
		int m = ref_bump_digits(c, *n, &e, delta);
		if (m == 0)
			continue;
		snprintf(text, sizeof text, "%c%s%.*se%d", c[0], m > 1 ? "." : "", m - 1, c + 1, e);
		if (ref_round_trips(text, v, f32)) {
			memcpy(d, c, (size_t)m);
			*n = m;
			*exp = e;
			return true;
		}
	}
	return false;
}

/* The oracle: the same text through libc's correctly rounded conversions. */
static size_t
ref_float_text(char out[352], double v, bool f32)
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
			n = ref_sci_digits(text, d, &exp);
			if (ref_round_trips(text, v, f32) || (p < maxp && ref_neighbour(v, f32, d, &n, &exp)))
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
	if (f32 && !isnan(v) && !isinf(v)) {   /* no literal spells inf or NaN: no suffix */
		memcpy(out + k, "f32", 3);
		k += 3;
	}
	out[k] = '\0';
	return k;
}

static long checked, differed;
static long short_checked, short_taken, short_differed;

/* fmt_float_short (the formatter's fast path) is rt_float_text's text
 * whenever it answers. */
static void
same_short(double v)
{
	char a[352], b[352];
	size_t na = fmt_float_short(a, v);
	short_checked++;
	if (na == 0)
		return;
	short_taken++;
	size_t nb = rt_float_text(b, v, false);
	if (na != nb || strcmp(a, b) != 0) {
		if (short_differed++ < 5)
			printf("FAIL unit: fmt_float_short of %a: %s, rt_float_text %s\n", v, a, b);
	}
}

/* rt_float_text and the oracle agree on v (as f32 when f32). */
static void
same(double v, bool f32)
{
	char a[352], b[352];
	size_t na = rt_float_text(a, v, f32), nb = ref_float_text(b, v, f32);
	checked++;
	if (!f32)
		same_short(v);
	if (na != nb || strcmp(a, b) != 0) {
		if (differed++ < 5)
			printf("FAIL unit: float text of %a%s: %s, oracle %s\n", v, f32 ? " (f32)" : "", a, b);
	}
}

static void same_around(double v, bool f32);

/* Decimals of 1 to 17 digits with 0 to 17 places (the fast path's domain
 * and its edges), each with its one-ulp neighbours: against rt_float_text. */
static void
short_decimals(void)
{
	uint64_t x = 0x2545f4914f6cdd1dull;
	char t[64];
	for (int i = 0; i < 60000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		int nd = 1 + (int)(x % 17), k = (int)((x >> 8) % 18);
		uint64_t d = (x >> 16) % 100000000000000000ull, lim = 1;
		for (int j = 0; j < nd; j++)
			lim *= 10;
		d %= lim;
		snprintf(t, sizeof t, "%llue-%d", (unsigned long long)d, k);
		double v = strtod(t, NULL);
		same_short(v);
		same_short(nextafter(v, INFINITY));
		same_short(nextafter(v, 0.0));
		same_short(-v);
	}
	static const double edge[] = { 999999999999999.0, 999999999999999.9, 1e15, 1e-15, 1.5e-15, 0.1, 0.2, 0.3,
		123456789012345.0, 0.123456789012345, 1.23456789012345, 9007199254740991.0, 4503599627370495.5 };
	for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++)
		same_around(edge[i], false);
}

static double
from_bits(uint64_t b)
{
	double d;
	memcpy(&d, &b, sizeof d);
	return d;
}

static float
from_bits32(uint32_t b)
{
	float f;
	memcpy(&f, &b, sizeof f);
	return f;
}

/* v and its one-ulp neighbours on both sides, both signs. */
static void
same_around(double v, bool f32)
{
	if (f32) {
		float f = (float)v;
		same(f, true);
		same(nextafterf(f, INFINITY), true);
		same(nextafterf(f, 0.0f), true);
		same(-f, true);
	} else {
		same(v, false);
		same(nextafter(v, INFINITY), false);
		same(nextafter(v, 0.0), false);
		same(-v, false);
	}
}

void
unit_float_checks(void)
{
	static const double special[] = {0.0, -0.0, 1.0, 0.1, 0.3, 5e-324, 1.7976931348623157e308,
	                                 2.2250738585072014e-308, 2.225073858507201e-308, 9007199254740993.0, 1e23, 123.456};
	for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
		for (int f32 = 0; f32 <= 1; f32++)
			same_around(special[i], f32);
	same(NAN, false);
	same(-NAN, false);
	same(INFINITY, false);
	same(-INFINITY, false);
	same(NAN, true);
	same(INFINITY, true);
	same(-INFINITY, true);
	same(from_bits(0x7ff0000000000001ull), false);
	for (int e = -1074; e <= 1023; e++)
		same_around(ldexp(1.0, e), false);
	for (int e = -149; e <= 127; e++)
		same_around(ldexp(1.0, e), true);
	char t[32];
	for (int e = -323; e <= 308; e++) {
		snprintf(t, sizeof t, "1e%d", e);
		same_around(strtod(t, NULL), false);
	}
	for (int e = -45; e <= 38; e++) {
		snprintf(t, sizeof t, "1e%d", e);
		same_around(strtof(t, NULL), true);
	}
	for (uint64_t b = 0; b < 2000; b++) {
		same(from_bits(b), false);
		same(from_bits(0x000fffffffffffffull - b), false);
		same(from_bits32((uint32_t)b), true);
		same(from_bits32(0x007fffffu - (uint32_t)b), true);
	}
	uint64_t x = 0x9e3779b97f4a7c15ull;
	for (int i = 0; i < 12000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		same(from_bits(x), false);
		same(from_bits32((uint32_t)(x >> 32)), true);
		same((double)(x % 100000) / 1000.0, false); /* short decimals */
	}
	short_decimals();
	char what[160];
	snprintf(what, sizeof what, "fmt_float_short is rt_float_text's text (%ld of %ld taken, %ld differ)",
	    short_taken, short_checked, short_differed);
	unit_check(short_differed == 0 && short_taken > 50000, what);
	snprintf(what, sizeof what, "rt float text agrees with the snprintf/strtod oracle (%ld of %ld differ)", differed, checked);
	unit_check(differed == 0 && checked > 50000, what);
}
