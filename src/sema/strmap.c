/*
 * strmap.c — string → int32 map, open addressing.  Keys are borrowed
 * (arena strings).  Only probed; never iterated (determinism).
 *
 * A slot keeps its key's hash: a probe compares hashes, and a key's bytes
 * only when the hash matches and the pointer differs (most lookups of a
 * binding come with the very string it was declared with).
 */
#include "sema_int.h"

#include <string.h>

/*
 * The hash only places keys (a map is never iterated, so the order the hash
 * gives never reaches output).  It is arena_name_hash (word-at-a-time, each
 * word mixed by a multiply and a shift: nonlinear, so no family of long
 * names collides, which made a rotate-xor hash take seconds over a function
 * of 20,000 such locals); a parser's interned name carries it in front of
 * its bytes, so most keys (the tree's names) cost neither strlen nor the
 * hash (arena_str_hash).
 */
static inline __attribute__((always_inline)) uint32_t
hash_str(const char *s)
{
	return arena_str_hash(s);
}

void
sema_strmap_free(StrMap *m)
{
	free(m->slots);
	memset(m, 0, sizeof *m);
}

void
sema_strmap_clear(StrMap *m)
{
	/* a small table is kept for the next function's bindings; a large one
	 * would cost its clearing on every later (mostly small) function */
	if (m->cap > 64) {
		sema_strmap_free(m);
		return;
	}
	if (m->len)
		spx_zero(m->slots, sizeof(StrMapSlot) * m->cap);
	m->len = 0;
}

/* The slot holding key, or the empty slot where it would go (cap > 0).
 * Inline in its two callers: as a call its frame cost half its probes. */
static inline __attribute__((always_inline)) StrMapSlot *
find(const StrMap *m, const char *key, uint32_t h)
{
	for (uint32_t i = h & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		StrMapSlot *s = &m->slots[i];
		if (!s->key || (s->hash == h && (s->key == key || strcmp(s->key, key) == 0)))
			return s;
	}
}

int32_t
sema_strmap_get(const StrMap *m, const char *key)
{
	if (!m->cap)
		return -1;
	const StrMapSlot *s = find(m, key, hash_str(key));
	return s->key ? s->val : -1;
}

static void
rehash(StrMap *m, uint32_t cap)
{
	StrMap old = *m;
	m->cap = cap;
	/* A small table (a function's bindings: made and freed per function)
	 * comes from malloc's per-size cache, which calloc bypasses. */
	if (cap <= 256) {
		m->slots = spx_xmalloc(sizeof(StrMapSlot) * cap);
		spx_zero(m->slots, sizeof(StrMapSlot) * cap);
	} else {
		m->slots = spx_xcalloc(m->cap, sizeof(StrMapSlot));
	}
	for (uint32_t i = 0; i < old.cap; i++)
		if (old.slots[i].key)
			*find(m, old.slots[i].key, old.slots[i].hash) = old.slots[i];
	free(old.slots);
}

static void
grow(StrMap *m)
{
	rehash(m, m->cap ? m->cap * 2 : 16);
}

void
sema_strmap_reserve(StrMap *m, size_t n)
{
	/* the load stays at most three quarters (slot_for); a reserved map
	 * starts as small as its hint allows (a variant's few cases) */
	uint32_t cap = m->cap ? m->cap : 8;
	while ((size_t)cap * 3 < 4 * (n + 1) && cap < (1u << 30))
		cap *= 2;
	if (cap > m->cap)
		rehash(m, cap);
}

/* The slot for key, inserted (with *added set) when absent. */
static inline __attribute__((always_inline)) StrMapSlot *
slot_for(StrMap *m, const char *key, bool *added)
{
	if ((uint64_t)(m->len + 1) * 4 > (uint64_t)m->cap * 3)
		grow(m);
	uint32_t h = hash_str(key);
	StrMapSlot *s = find(m, key, h);
	*added = !s->key;
	if (*added) {
		s->key = key;
		s->hash = h;
		m->len++;
	}
	return s;
}

bool
sema_strmap_put(StrMap *m, const char *key, int32_t val)
{
	bool added;
	StrMapSlot *s = slot_for(m, key, &added);
	if (added)
		s->val = val;
	return added;
}

void
sema_strmap_set(StrMap *m, const char *key, int32_t val)
{
	bool added;
	slot_for(m, key, &added)->val = val;
}

int32_t
sema_strmap_swap(StrMap *m, const char *key, int32_t val)
{
	bool added;
	StrMapSlot *s = slot_for(m, key, &added);
	int32_t old = added ? -1 : s->val;
	s->val = val;
	return old;
}

void
sema_strmap_raise(StrMap *m, const char *key, int32_t val)
{
	bool added;
	StrMapSlot *s = slot_for(m, key, &added);
	if (added || val > s->val)
		s->val = val;
}
