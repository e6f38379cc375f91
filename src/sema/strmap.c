/*
 * strmap.c — string → int32 map, open addressing.  Keys are borrowed
 * (arena strings).  Only probed; never iterated (determinism).
 */
#include "sema_int.h"

#include <string.h>

static uint32_t
hash_str(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

void
strmap_free(StrMap *m)
{
	free(m->slots);
	memset(m, 0, sizeof *m);
}

/* The slot holding key (hash h), or the empty slot where it would go. */
static StrMapSlot *
probe(const StrMap *m, const char *key, uint32_t h)
{
	for (uint32_t i = h & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		StrMapSlot *sl = &m->slots[i];
		if (!sl->key || (sl->hash == h && (sl->key == key || strcmp(sl->key, key) == 0)))
			return sl;
	}
}

int32_t
strmap_get(const StrMap *m, const char *key)
{
	if (!m->cap)
		return -1;
	const StrMapSlot *sl = probe(m, key, hash_str(key));
	return sl->key ? sl->val : -1;
}

static void
grow(StrMap *m)
{
	StrMap old = *m;
	m->cap = old.cap ? old.cap * 2 : 16;
	m->slots = xcalloc(m->cap, sizeof *m->slots);
	for (uint32_t i = 0; i < old.cap; i++) {
		const StrMapSlot *o = &old.slots[i];
		if (!o->key)
			continue;
		uint32_t j = o->hash & (m->cap - 1);
		while (m->slots[j].key)  /* keys are distinct: the first empty slot */
			j = (j + 1) & (m->cap - 1);
		m->slots[j] = *o;
	}
	free(old.slots);
}

/* The slot for key, inserting it (with val) when absent; *added says which. */
static StrMapSlot *
find_or_add(StrMap *m, const char *key, int32_t val, bool *added)
{
	if ((m->len + 1) * 2 > m->cap)
		grow(m);
	uint32_t h = hash_str(key);
	StrMapSlot *sl = probe(m, key, h);
	*added = !sl->key;
	if (*added) {
		sl->key = key;
		sl->hash = h;
		sl->val = val;
		m->len++;
	}
	return sl;
}

bool
strmap_put(StrMap *m, const char *key, int32_t val)
{
	bool added;
	find_or_add(m, key, val, &added);
	return added;
}

void
strmap_set(StrMap *m, const char *key, int32_t val)
{
	bool added;
	find_or_add(m, key, val, &added)->val = val;
}
