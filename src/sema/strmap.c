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
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof *m);
}

int32_t
strmap_get(const StrMap *m, const char *key)
{
	if (!m->cap)
		return -1;
	for (uint32_t h = hash_str(key) & (m->cap - 1);; h = (h + 1) & (m->cap - 1)) {
		if (!m->keys[h])
			return -1;
		if (strcmp(m->keys[h], key) == 0)
			return m->vals[h];
	}
}

static void
grow(StrMap *m)
{
	StrMap old = *m;
	m->cap = old.cap ? old.cap * 2 : 64;
	m->keys = xcalloc(m->cap, sizeof(char *));
	m->vals = xcalloc(m->cap, sizeof(int32_t));
	m->len = 0;
	for (uint32_t i = 0; i < old.cap; i++)
		if (old.keys[i])
			strmap_put(m, old.keys[i], old.vals[i]);
	free(old.keys);
	free(old.vals);
}

bool
strmap_put(StrMap *m, const char *key, int32_t val)
{
	if ((m->len + 1) * 2 > m->cap)
		grow(m);
	uint32_t h = hash_str(key) & (m->cap - 1);
	while (m->keys[h]) {
		if (strcmp(m->keys[h], key) == 0)
			return false;
		h = (h + 1) & (m->cap - 1);
	}
	m->keys[h] = key;
	m->vals[h] = val;
	m->len++;
	return true;
}

void
strmap_set(StrMap *m, const char *key, int32_t val)
{
	if (strmap_put(m, key, val))
		return;
	for (uint32_t h = hash_str(key) & (m->cap - 1);; h = (h + 1) & (m->cap - 1)) {
		if (strcmp(m->keys[h], key) == 0) {
			m->vals[h] = val;
			return;
		}
	}
}
