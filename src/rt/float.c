/*
 * float.c — the canonical text of a float (LANGUAGE.md §0.11): the
 * formatter and revision hash (src/fmt), the interpreter's contract details,
 * the native contract report and the Wasm lane's contract report all print
 * floats through rt_float_text.  Freestanding (exact integer arithmetic,
 * memcpy/memmove/memset only), so the one source is also part of the wasm32
 * runtime (tools/build_rt_wasm.sh).
 */
#ifndef RT_API
#include "rt.h"
#endif
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * Float text prints like Rust's `{}` (which the reference uses): the
 * shortest decimal digits that round-trip — to a double, or to a float for
 * f32 — written positionally (never with an exponent), `.0` appended when
 * integral.  For increasing precision p the digits are v correctly rounded
 * to p significant digits (half to even, as C's `%.*e`); they are taken when
 * they lie in v's rounding interval, else a one-unit neighbour that does
 * (just above a power of two the interval is lopsided, and the nearest
 * decimal of a length may miss it while another one hits).  All of it is
 * exact arithmetic on unsigned big integers (at most ~1,200 bits: 10^340
 * times a 64-bit value), so no libc float conversion is involved and the
 * hosted test (tests/unit/float_test.c) checks it against snprintf/strtod.
 */

enum { RT_BIG_WORDS = 48 };

typedef struct {
	uint32_t w[RT_BIG_WORDS]; /* little-endian 32-bit words */
	int n;                    /* words in use; w[n-1] != 0 unless n == 0 */
} RtBig;

static void
rt_big_set(RtBig *a, uint64_t v)
{
	a->n = 0;
	while (v) {
		a->w[a->n++] = (uint32_t)v;
		v >>= 32;
	}
}

static void
rt_big_mul_small(RtBig *a, uint32_t m)
{
	uint64_t carry = 0;
	for (int i = 0; i < a->n; i++) {
		uint64_t t = (uint64_t)a->w[i] * m + carry;
		a->w[i] = (uint32_t)t;
		carry = t >> 32;
	}
	if (carry && a->n < RT_BIG_WORDS)
		a->w[a->n++] = (uint32_t)carry;
}

static void
rt_big_mul_pow10(RtBig *a, int k)
{
	for (; k >= 9; k -= 9)
		rt_big_mul_small(a, 1000000000u);
	static const uint32_t p10[9] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
	if (k > 0)
		rt_big_mul_small(a, p10[k]);
}

static void
rt_big_shl(RtBig *a, int k)
{
	if (a->n == 0 || k <= 0)
		return;
	int words = k / 32, bits = k % 32;
	int n = a->n + words + 1;
	if (n > RT_BIG_WORDS)
		n = RT_BIG_WORDS;
	for (int i = n - 1; i >= 0; i--) {
		int s = i - words;
		uint32_t hi = s >= 0 && s < a->n ? a->w[s] : 0;
		uint32_t lo = s - 1 >= 0 && s - 1 < a->n ? a->w[s - 1] : 0;
		a->w[i] = bits ? (hi << bits) | (lo >> (32 - bits)) : hi;
	}
	a->n = n;
	while (a->n > 0 && a->w[a->n - 1] == 0)
		a->n--;
}

static int
rt_big_cmp(const RtBig *a, const RtBig *b)
{
	if (a->n != b->n)
		return a->n < b->n ? -1 : 1;
	for (int i = a->n - 1; i >= 0; i--)
		if (a->w[i] != b->w[i])
			return a->w[i] < b->w[i] ? -1 : 1;
	return 0;
}

/* a -= b, where a >= b. */
static void
rt_big_sub(RtBig *a, const RtBig *b)
{
	int64_t borrow = 0;
	for (int i = 0; i < a->n; i++) {
		int64_t t = (int64_t)a->w[i] - (i < b->n ? b->w[i] : 0) - borrow;
		borrow = t < 0;
		a->w[i] = (uint32_t)(t + (borrow ? ((int64_t)1 << 32) : 0));
	}
	while (a->n > 0 && a->w[a->n - 1] == 0)
		a->n--;
}

/* The sign of c * 10^a - m * 2^b. */
static int
rt_float_cmp_scaled(uint64_t c, int a, uint64_t m, int b)
{
	RtBig x, y;
	rt_big_set(&x, c);
	rt_big_set(&y, m);
	rt_big_mul_pow10(a >= 0 ? &x : &y, a >= 0 ? a : -a);
	rt_big_shl(b >= 0 ? &y : &x, b >= 0 ? b : -b);
	return rt_big_cmp(&x, &y);
}

/* v = f * 2^e, and its rounding interval [lo, hi] * 2^(e-2) (closed when f is even). */
typedef struct {
	uint64_t f, lo, hi;
	int e;
} RtFloatParts;

/* Is d[0].d[1..n) * 10^exp in v's rounding interval (strtod/strtof would give v back)? */
static bool
rt_float_in_interval(const char *d, int n, int exp, const RtFloatParts *p)
{
	uint64_t c = 0;
	for (int i = 0; i < n; i++)
		c = c * 10 + (uint64_t)(d[i] - '0');
	int a = exp - n + 1;
	int lo = rt_float_cmp_scaled(c, a, p->lo, p->e - 2);
	int hi = rt_float_cmp_scaled(c, a, p->hi, p->e - 2);
	if (p->f % 2 == 0)
		return lo >= 0 && hi <= 0;
	return lo > 0 && hi < 0;
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
rt_float_neighbour(const RtFloatParts *p, char *d, int *n, int *exp)
{
	for (int delta = 1; delta >= -1; delta -= 2) {
		char c[32];
		int e = *exp;
		memcpy(c, d, (size_t)*n);
		int m = rt_float_bump_digits(c, *n, &e, delta);
		if (m == 0)
			continue;
		if (rt_float_in_interval(c, m, e, p)) {
			memcpy(d, c, (size_t)m);
			*n = m;
			*exp = e;
			return true;
		}
	}
	return false;
}

/*
 * The p significant digits of v = f * 2^e (f > 0) correctly rounded, half
 * to even, into d[0..p) with *exp the decimal exponent of d[0] (as `%.*e`).
 * r/s starts as v / 10^*exp in [1, 10).
 */
static void
rt_float_round_digits(const RtBig *r0, const RtBig *s, int p, char *d, int *exp)
{
	RtBig r = *r0, t;
	for (int i = 0; i < p; i++) {
		int digit = 0;
		while (rt_big_cmp(&r, s) >= 0) {
			rt_big_sub(&r, s);
			digit++;
		}
		d[i] = (char)('0' + digit);
		if (i < p - 1)
			rt_big_mul_small(&r, 10);
	}
	t = r;
	rt_big_shl(&t, 1);
	int c = rt_big_cmp(&t, s);
	if (c > 0 || (c == 0 && (d[p - 1] - '0') % 2 == 1))
		rt_float_bump_digits(d, p, exp, 1);
}

/* The shortest round-trip digits of v = f * 2^e (f > 0): d[0..return), *exp. */
static int
rt_float_shortest(const RtFloatParts *p, int maxp, char *d, int *exp)
{
	/* r/s = v / 10^E, with E first estimated from the bit length
	 * (log10(2) ~ 78913 / 2^18) and then corrected into [1, 10). */
	int bits = 0;
	for (uint64_t f = p->f; f; f >>= 1)
		bits++;
	int l2 = bits - 1 + p->e;
	int E = l2 >= 0 ? (l2 * 78913) >> 18 : -((-l2 * 78913 + (1 << 18) - 1) >> 18);
	RtBig r, s;
	rt_big_set(&r, p->f);
	rt_big_set(&s, 1);
	rt_big_shl(p->e >= 0 ? &r : &s, p->e >= 0 ? p->e : -p->e);
	rt_big_mul_pow10(E >= 0 ? &s : &r, E >= 0 ? E : -E);
	for (;;) {
		RtBig s10 = s;
		rt_big_mul_small(&s10, 10);
		if (rt_big_cmp(&r, &s10) >= 0) {
			s = s10;
			E++;
		} else if (rt_big_cmp(&r, &s) < 0) {
			rt_big_mul_small(&r, 10);
			E--;
		} else {
			break;
		}
	}
	int n = 0;
	for (int prec = 1; prec <= maxp; prec++) {
		*exp = E;
		rt_float_round_digits(&r, &s, prec, d, exp);
		n = prec;
		if (rt_float_in_interval(d, n, *exp, p) || (prec < maxp && rt_float_neighbour(p, d, &n, exp)))
			break;
	}
	return n;
}

RT_API size_t
rt_float_text(char out[352], double v, bool f32)
{
	size_t k = 0;
	RtFloatParts p;
	bool neg, special;
	uint64_t frac;
	int be;
	if (f32) {
		float fv = (float)v;
		uint32_t b;
		memcpy(&b, &fv, sizeof b);
		neg = b >> 31;
		be = (int)((b >> 23) & 0xff);
		frac = b & 0x7fffff;
		special = be == 0xff;
		p.f = be ? frac | 0x800000 : frac;
		p.e = be ? be - 150 : -149;
	} else {
		uint64_t b;
		memcpy(&b, &v, sizeof b);
		neg = b >> 63;
		be = (int)((b >> 52) & 0x7ff);
		frac = b & 0xfffffffffffffull;
		special = be == 0x7ff;
		p.f = be ? frac | 0x10000000000000ull : frac;
		p.e = be ? be - 1075 : -1074;
	}
	if (special) {
		const char *s = frac ? "NaN" : neg ? "-inf" : "inf";
		k = frac ? 3 : neg ? 4 : 3;
		memcpy(out, s, k);
	} else {
		if (neg)
			out[k++] = '-';
		char d[32];
		int exp = 0, n = 1;
		memset(d, '0', sizeof d);
		if (p.f != 0) {
			p.hi = 4 * p.f + 2;
			p.lo = frac == 0 && be > 1 ? 4 * p.f - 1 : 4 * p.f - 2;
			n = rt_float_shortest(&p, f32 ? 9 : 17, d, &exp);
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
	if (f32 && !special) {   /* no literal spells inf or NaN: no suffix either */
		memcpy(out + k, "f32", 3);
		k += 3;
	}
	out[k] = '\0';
	return k;
}
