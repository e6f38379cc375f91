/*
 * coll.c — the capacity vec_reserve_exact asks for, and the key order of
 * Map<K, V> and Set<K> (LANGUAGE.md §5.1): keys are kept sorted (i64
 * signed, false < true, strings by unsigned bytes), so `map_key_at` and
 * `set_key_at` index key order and every lookup is this one binary search,
 * which both lanes call with their own key representation.
 */
#ifndef RT_API
#include "rt.h"
#endif
#include <stddef.h>
#include <stdint.h>

RT_API uint32_t
rt_vec_reserve_target(uint64_t len, uint64_t add, uint64_t *want)
{
	*want = add > RT_LIMIT_VEC_CAPACITY ? UINT64_MAX : len + add;
	return *want > RT_LIMIT_VEC_CAPACITY ? RT_VEC_ALLOC : 0;
}

RT_API long
rt_sorted_find(const void *keys, size_t n, size_t size, const void *key,
	       int (*cmp)(const void *elem, const void *key, void *ctx), void *ctx)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp((const char *)keys + mid * size, key, ctx);
		if (c == 0)
			return (long)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -(long)lo - 1;
}
