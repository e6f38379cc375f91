/*
 * heap.c — the owned values' allocator of the Wasm lane's runtime module
 * (tools/build_rt_wasm.sh) and the string operations that allocate: plain
 * freestanding C, so the wasm32 build needs no libc (memcpy from
 * src/rt/wasm32).  The native lane allocates with malloc (its generated
 * prelude) and the interpreter with its own values; this file is what the
 * third lane would otherwise have written in Wasm instructions.
 *
 * The heap is [base, end) of one arena: blocks of 2^k bytes (k >= 4) with
 * an 8-byte header holding k, bumped from the top and recycled through one
 * free list per size.  On wasm32 the arena is the linear memory above the
 * program's data and argument pages and grows with memory.grow; elsewhere
 * it is the caller's buffer (the unit tests).  Addresses outside the heap
 * (static data, the argument pages, 0 for a moved value) are never freed,
 * so releasing a string literal or a moved-from slot does nothing.
 * Allocation failure returns NULL: the program reports the native lane's
 * `SEMAPRAX runtime failure: out of memory` (status 73).
 */
#ifndef RT_API
#include "rt.h"
#endif
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define HEAP_HDR 8u
#define HEAP_CLASSES 31

static uintptr_t heap_base, heap_top, heap_end;
static size_t heap_live;
static uint8_t *heap_free[HEAP_CLASSES + 1];

RT_API void
rt_heap_init(void *base, size_t size)
{
	heap_base = ((uintptr_t)base + 7u) & ~(uintptr_t)7u;
	heap_top = heap_base;
	heap_end = (uintptr_t)base + size;
#if defined(__wasm__)
	heap_end = (uintptr_t)__builtin_wasm_memory_size(0) * 65536u;
#endif
	if (heap_end < heap_base)
		heap_end = heap_base;
	heap_live = 0;
	for (int k = 0; k <= HEAP_CLASSES; k++)
		heap_free[k] = NULL;
}

/* Makes [heap_top, heap_top + n) available. */
static int
heap_grow(size_t n)
{
	if (heap_end - heap_top >= n)
		return 1;
#if defined(__wasm__)
	size_t need = n - (heap_end - heap_top);
	size_t pages = (need + 65535u) / 65536u;
	/* at least an eighth of the memory at a time (each memory.grow costs the
	 * host a resize, so growing by the block alone is quadratic in a run that
	 * allocates many blocks); the exact need when that much is refused */
	size_t have = __builtin_wasm_memory_size(0), more = have / 8u > pages ? have / 8u : pages;
	if (__builtin_wasm_memory_grow(0, more) != (size_t)-1)
		pages = more;
	else if (__builtin_wasm_memory_grow(0, pages) == (size_t)-1)
		return 0;
	heap_end += pages * 65536u;
	return 1;
#else
	return 0;
#endif
}

RT_API void *
rt_alloc(size_t n)
{
	if (n > ((size_t)1 << 30))
		return NULL;
	int k = 4;
	while (((size_t)1 << k) < n + HEAP_HDR)
		k++;
	uint8_t *b = heap_free[k];
	if (b) {
		memcpy(&heap_free[k], b + HEAP_HDR, sizeof b);
	} else {
		if (!heap_grow((size_t)1 << k))
			return NULL;
		b = (uint8_t *)heap_top;
		heap_top += (size_t)1 << k;
	}
	uint32_t kk = (uint32_t)k;
	memcpy(b, &kk, sizeof kk);
	heap_live++;
	return b + HEAP_HDR;
}

/* The payload bytes block p can hold. */
static size_t
heap_capacity(const uint8_t *p)
{
	uint32_t k;
	memcpy(&k, p - HEAP_HDR, sizeof k);
	return ((size_t)1 << k) - HEAP_HDR;
}

static int
heap_owns(const void *p)
{
	return (uintptr_t)p >= heap_base + HEAP_HDR && (uintptr_t)p < heap_top;
}

RT_API void *
rt_zalloc(size_t n)
{
	void *p = rt_alloc(n);
	if (p)
		memset(p, 0, n);
	return p;
}

RT_API void
rt_free(void *p)
{
	if (!heap_owns(p))
		return;
	uint8_t *b = (uint8_t *)p - HEAP_HDR;
	uint32_t k;
	memcpy(&k, b, sizeof k);
	memcpy(b + HEAP_HDR, &heap_free[k], sizeof b);
	heap_free[k] = b;
	heap_live--;
}

RT_API size_t
rt_heap_live(void)
{
	return heap_live;
}

RT_API void *
rt_str_copy(const void *p, size_t n)
{
	uint8_t *q = rt_alloc(n);
	if (q && n)
		memcpy(q, p, n);
	return q;
}

RT_API void *
rt_str_own(const void *p, size_t n)
{
	return heap_owns(p) ? rt_str_copy(p, n) : (void *)(uintptr_t)p;
}

RT_API void *
rt_str_append(void *p, size_t n, const void *q, size_t m)
{
	if (m > ((size_t)1 << 30) || n > ((size_t)1 << 30))
		return NULL;
	if (heap_owns(p) && heap_capacity(p) >= n + m) {
		if (m)
			memmove((uint8_t *)p + n, q, m);
		return p;
	}
	size_t want = n + m < 16 ? 16 : n + m;
	if (heap_owns(p) && want < 2 * n)
		want = 2 * n;   /* amortised growth when a string is built piece by piece */
	uint8_t *r = rt_alloc(want);
	if (!r)
		return NULL;
	if (n)
		memcpy(r, p, n);
	if (m)
		memcpy(r + n, q, m);
	rt_free(p);
	return r;
}

RT_API void *
rt_str_concat(void *a, size_t an, void *b, size_t bn)
{
	void *r = rt_str_append(a, an, b, bn);
	if (r)
		rt_free(b);
	return r;
}

RT_API void *
rt_block_clone(const void *p, size_t cap, size_t used)
{
	uint8_t *q = rt_alloc(cap);
	if (q && used)
		memcpy(q, p, used);
	return q;
}

RT_API void *
rt_block_grow(void *p, size_t used, size_t cap)
{
	uint8_t *q = rt_block_clone(p, cap, used);
	if (q)
		rt_free(p);
	return q;
}

#if defined(__GNUC__)
#define HEAP_INLINE static inline __attribute__((always_inline))
#else
#define HEAP_INLINE static inline
#endif

/* Element i's order key against element j's (the Wasm lane's 8-byte slots). */
static int
heap_slot_cmp(const uint8_t *a, const uint8_t *b, int kind)
{
	if (kind == RT_SORT_STRING) {
		uint32_t ap, an, bp, bn;
		memcpy(&ap, a, 4);
		memcpy(&an, a + 8, 4);
		memcpy(&bp, b, 4);
		memcpy(&bn, b + 8, 4);
		return rt_bytes_cmp((const uint8_t *)(uintptr_t)ap, an, (const uint8_t *)(uintptr_t)bp, bn);
	}
	if (kind == RT_SORT_F64 || kind == RT_SORT_F32) {
		/* IEEE total order (src/rt/num.c), as the other lanes' vec_sort */
		int64_t x, y;
		if (kind == RT_SORT_F64) {
			double da, db;
			memcpy(&da, a, 8);
			memcpy(&db, b, 8);
			x = rt_total_key64(da);
			y = rt_total_key64(db);
		} else {
			float fa, fb;
			memcpy(&fa, a, 4);
			memcpy(&fb, b, 4);
			x = rt_total_key32(fa);
			y = rt_total_key32(fb);
		}
		return x < y ? -1 : x > y;
	}
	uint64_t x, y;
	memcpy(&x, a, 8);
	memcpy(&y, b, 8);
	if (kind == RT_SORT_SIGNED)
		return (int64_t)x < (int64_t)y ? -1 : (int64_t)x > (int64_t)y;
	return x < y ? -1 : x > y;
}

/* Insertion sort of v[0, n) (stable), one element at a time through a 16-byte buffer. */
HEAP_INLINE void
heap_insertion_sort(uint8_t *v, size_t n, size_t esz, int kind)
{
	uint8_t tmp[16];
	for (size_t i = 1; i < n; i++) {
		memcpy(tmp, v + i * esz, esz);
		size_t j = i;
		while (j > 0 && heap_slot_cmp(v + (j - 1) * esz, tmp, kind) > 0) {
			memcpy(v + j * esz, v + (j - 1) * esz, esz);
			j--;
		}
		memcpy(v + j * esz, tmp, esz);
	}
}

#define HEAP_SORT_RUN 16u   /* elements sorted by insertion before the merges */

/*
 * Stable bottom-up merge sort of v[0, n) through scratch (n * esz bytes):
 * runs of HEAP_SORT_RUN by insertion, then merges between v and scratch,
 * ending in v.  Always inlined, so rt_sort_slots' calls with a constant
 * esz and kind get loops of their own (an 8-byte slot is one load and one
 * store, not a call of memcpy).
 */
HEAP_INLINE void
heap_merge_sort(uint8_t *v, uint8_t *scratch, size_t n, size_t esz, int kind)
{
	for (size_t i = 0; i < n; i += HEAP_SORT_RUN)
		heap_insertion_sort(v + i * esz, n - i < HEAP_SORT_RUN ? n - i : HEAP_SORT_RUN, esz, kind);
	uint8_t *from = v, *to = scratch;
	for (size_t w = HEAP_SORT_RUN; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t i = lo, j = mid, k = lo;
			while (i < mid && j < hi) {
				/* the left element on ties: stable */
				if (heap_slot_cmp(from + j * esz, from + i * esz, kind) < 0)
					memcpy(to + k++ * esz, from + j++ * esz, esz);
				else
					memcpy(to + k++ * esz, from + i++ * esz, esz);
			}
			if (i < mid)
				memcpy(to + k * esz, from + i * esz, (mid - i) * esz);
			else if (j < hi)
				memcpy(to + k * esz, from + j * esz, (hi - j) * esz);
		}
		uint8_t *t = from;
		from = to;
		to = t;
	}
	if (from != v)
		memcpy(v, from, n * esz);
}

RT_API void
rt_sort_slots(void *p, size_t n, size_t esz, int kind)
{
	/*
	 * n <= RT_LIMIT_VEC_CAPACITY, so n * esz cannot overflow.  When the
	 * scratch block cannot be allocated the whole vector is sorted by
	 * insertion: the same order, more slowly.  Equal keys are equal
	 * values in every kind (the float kinds order by total-order key,
	 * i.e. bits), so stability is not observable; it is kept anyway.
	 */
	uint8_t *v = p;
	if (esz > 16 || n < 2)
		return;
	uint8_t *scratch = n > HEAP_SORT_RUN ? rt_alloc(n * esz) : NULL;
	if (!scratch)
		heap_insertion_sort(v, n, esz, kind);
	else if (esz == 8 && kind == RT_SORT_SIGNED)
		heap_merge_sort(v, scratch, n, 8, RT_SORT_SIGNED);
	else if (esz == 8 && kind == RT_SORT_UNSIGNED)
		heap_merge_sort(v, scratch, n, 8, RT_SORT_UNSIGNED);
	else
		heap_merge_sort(v, scratch, n, esz, kind);
	rt_free(scratch);
}

static int
heap_probe(const void *elem, const void *key, void *kind)
{
	return heap_slot_cmp(elem, key, *(const int *)kind);
}

RT_API int32_t
rt_slot_find(const void *keys, size_t n, size_t esz, const void *key, int kind)
{
	return (int32_t)rt_sorted_find(keys, n, esz, key, heap_probe, &kind);
}

RT_API void
rt_slots_open(void *p, size_t len, size_t esz, size_t pos)
{
	uint8_t *v = p;
	if (pos < len)
		memmove(v + (pos + 1) * esz, v + pos * esz, (len - pos) * esz);
}

RT_API void
rt_slots_close(void *p, size_t len, size_t esz, size_t pos)
{
	uint8_t *v = p;
	if (pos + 1 < len)
		memmove(v + pos * esz, v + (pos + 1) * esz, (len - pos - 1) * esz);
}

RT_API void *
rt_cell_alloc(size_t n)
{
	void *p = rt_alloc(n);
	if (p)
		heap_live--;   /* kept for the run, not counted (the leak check's business is owned values) */
	return p;
}
