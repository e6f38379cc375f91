/*
 * num.c — numbers as every consumer must see them: the IEEE total order
 * `vec_sort` uses for floats (LANGUAGE.md §3.7), the canonical decimal text
 * of integers (`string_from_i64`, `string_format`, §5.1), `string_to_i64`
 * and the checked conversions (`i64_from_f64`, `usize_from_i64`,
 * `i64_from_usize`, `u8_from_i64`; `char_from_i64` is rt_utf8_scalar).
 * Freestanding: it is part of the wasm32 runtime; float text is in float.c.
 */
#ifndef RT_API
#include "rt.h"
#include "domains.h"
#endif
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Total order keys: flip the sign-magnitude bits into a two's complement order. */
RT_API int64_t
rt_total_key64(double d)
{
	int64_t k;
	memcpy(&k, &d, sizeof k);
	return k < 0 ? (int64_t)((uint64_t)k ^ INT64_MAX) : k;
}

RT_API int32_t
rt_total_key32(float f)
{
	int32_t k;
	memcpy(&k, &f, sizeof k);
	return k < 0 ? (int32_t)((uint32_t)k ^ INT32_MAX) : k;
}

RT_API char *
rt_decimal(char buf[32], uint64_t magnitude, bool negative)
{
	char *p = buf + 32;
	do {
		*--p = (char)('0' + magnitude % 10);
		magnitude /= 10;
	} while (magnitude);
	if (negative)
		*--p = '-';
	return p;
}

RT_API bool
rt_parse_i64(const uint8_t *p, size_t n, int64_t *out)
{
	size_t i = 0;
	bool neg = false;
	if (i < n && p[i] == '-') {
		neg = true;
		i++;
	}
	if (i == n)
		return false;
	uint64_t mag = 0;
	for (; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return false;
		uint64_t d = (uint64_t)(p[i] - '0');
		if (mag > (UINT64_MAX - d) / 10)
			return false;
		mag = mag * 10 + d;
		if (mag > (uint64_t)INT64_MAX + 1)
			return false;
	}
	if (!neg && mag > (uint64_t)INT64_MAX)
		return false;
	*out = neg ? (mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag) : (int64_t)mag;
	return true;
}

/* Without math.h (wasm32): NaN is the value unequal to itself; truncation
 * keeps d within [-2^63, 2^63) exactly when d itself is (no double lies
 * strictly between -2^63 - 1 and -2^63), and the cast truncates. */
RT_API uint32_t
rt_i64_from_f64(double d, int64_t *out)
{
	if (d != d)
		return RT_CONVERT_FROM_NAN;
	if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0))
		return RT_CONVERT_RANGE;
	*out = (int64_t)d;
	return 0;
}

RT_API uint32_t
rt_usize_from_i64(int64_t v)
{
	return v < 0 ? RT_CONVERT_RANGE : 0;
}

RT_API uint32_t
rt_i64_from_usize(uint64_t v)
{
	return v > (uint64_t)INT64_MAX ? RT_CONVERT_RANGE : 0;
}

RT_API uint32_t
rt_u8_from_i64(int64_t v)
{
	return v < 0 || v > 255 ? RT_CONVERT_RANGE : 0;
}
