/*
 * num.c — numbers as both lanes must see them: the IEEE total order
 * `vec_sort` uses for floats (LANGUAGE.md §3.7) and the canonical decimal
 * text of integers (`string_from_i64`, `string_format`, §5.1).
 */
#ifndef RT_API
#include "rt.h"
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
