/* ---- SEMAPRAX native runtime: Vec, Iter, Map, Set (LANGUAGE.md §5.1) ---- */
/*
 * The generated code knows the element types; these helpers move bytes.
 * Element release and cloning are generated per type (spx_rel_* /
 * spx_clone_*).  Map keys are i64 (kind 0), bool (1) or string (2).
 */

SPX_RT spx_vec
spx_vec_new(uint64_t cap, size_t esz)
{
	if (cap > RT_LIMIT_VEC_CAPACITY)
		spx_fail(rt_domain_ids[RT_DOM_VEC], RT_VEC_ALLOC);
	spx_vec v = { NULL, 0, (size_t)cap };
	if (cap)
		v.p = spx_alloc((size_t)cap * esz);
	return v;
}

SPX_RT void
spx_vec_reserve(spx_vec *v, uint64_t add, size_t esz)
{
	uint64_t want;
	if (rt_vec_reserve_target(v->len, add, &want))
		spx_fail(rt_domain_ids[RT_DOM_VEC], RT_VEC_ALLOC);
	if (want > v->cap) {
		v->p = spx_realloc(v->p, (size_t)want * esz);
		v->cap = (size_t)want;
	}
}

SPX_RT void
spx_vec_free(spx_vec *v)
{
	spx_free(v->p);
	v->p = NULL;
	v->len = v->cap = 0;
}

/* A shallow copy of the storage (the caller clones owned elements in place). */
SPX_RT spx_vec
spx_vec_copy(const spx_vec *v, size_t esz)
{
	spx_vec c = { NULL, v->len, v->cap };
	if (v->p) {
		c.p = spx_alloc(v->cap * esz);
		if (v->len)
			memcpy(c.p, v->p, v->len * esz);
	}
	return c;
}

SPX_RT size_t
spx_vec_index(const spx_vec *v, uint64_t i)
{
	if (i >= v->len)
		spx_fail(rt_domain_ids[RT_DOM_VEC], RT_VEC_INDEX);
	return (size_t)i;
}

SPX_RT size_t
spx_key_size(int kk)
{
	return kk == 0 ? sizeof(int64_t) : kk == 1 ? sizeof(bool) : sizeof(spx_str);
}

SPX_RT int
spx_key_cmp(int kk, const void *a, const void *b)
{
	if (kk == 0) {
		int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
		return x < y ? -1 : x > y;
	}
	if (kk == 1)
		return (int)*(const bool *)a - (int)*(const bool *)b;
	return spx_str_cmp(a, b);
}

SPX_RT spx_map
spx_map_new(uint64_t cap, int kk, size_t vsz, const char *domain)
{
	if (cap > RT_LIMIT_MAP_CAPACITY)
		spx_fail(domain, RT_MAP_CAPACITY);
	spx_map m = { NULL, NULL, 0, (size_t)cap };
	if (cap) {
		m.k = spx_alloc((size_t)cap * spx_key_size(kk));
		if (vsz)
			m.v = spx_alloc((size_t)cap * vsz);
	}
	return m;
}

SPX_RT int
spx_key_probe(const void *elem, const void *key, void *kk)
{
	return spx_key_cmp(*(const int *)kk, elem, key);
}

/* Index of key, or -(insertion point) - 1 (the shared rt_sorted_find). */
SPX_RT long
spx_map_find(const spx_map *m, int kk, const void *key)
{
	return rt_sorted_find(m->k, m->len, spx_key_size(kk), key, spx_key_probe, &kk);
}

/* Inserts a copy of key at pos, or key itself when take (a moved string)
 * (capacity checked by the caller); returns the value place. */
SPX_RT void *
spx_map_insert(spx_map *m, size_t pos, int kk, const void *key, size_t vsz, int take)
{
	size_t ks = spx_key_size(kk);
	char *k = m->k;
	memmove(k + (pos + 1) * ks, k + pos * ks, (m->len - pos) * ks);
	if (kk == 2 && !take) {
		spx_str c = spx_str_clone(key);
		memcpy(k + pos * ks, &c, ks);
	} else {
		memcpy(k + pos * ks, key, ks);
	}
	void *place = NULL;
	if (vsz) {
		char *v = m->v;
		memmove(v + (pos + 1) * vsz, v + pos * vsz, (m->len - pos) * vsz);
		place = v + pos * vsz;
	}
	m->len++;
	return place;
}

/* Removes entry pos; its value has been released by the caller. */
SPX_RT void
spx_map_remove_at(spx_map *m, size_t pos, int kk, size_t vsz)
{
	size_t ks = spx_key_size(kk);
	char *k = m->k;
	/* callers pass a found position; the test also tells the C compiler
	 * that `rest` cannot wrap (gcc's -Wstringop-overflow on an empty map) */
	if (pos >= m->len)
		return;
	size_t rest = m->len - pos - 1;
	if (kk == 2)
		spx_str_free((spx_str *)(void *)(k + pos * ks));
	memmove(k + pos * ks, k + (pos + 1) * ks, rest * ks);
	if (vsz) {
		char *v = m->v;
		memmove(v + pos * vsz, v + (pos + 1) * vsz, rest * vsz);
	}
	m->len--;
}

/* Frees keys and storage; values have been released by the caller. */
SPX_RT void
spx_map_free(spx_map *m, int kk)
{
	if (kk == 2)
		for (size_t i = 0; i < m->len; i++)
			spx_str_free((spx_str *)m->k + i);
	spx_free(m->k);
	spx_free(m->v);
	memset(m, 0, sizeof *m);
}

/* A copy of keys and value bytes (the caller clones owned values in place). */
SPX_RT spx_map
spx_map_copy(const spx_map *m, int kk, size_t vsz)
{
	spx_map c = { NULL, NULL, m->len, m->cap };
	size_t ks = spx_key_size(kk);
	if (m->cap) {
		c.k = spx_alloc(m->cap * ks);
		if (vsz)
			c.v = spx_alloc(m->cap * vsz);
	}
	for (size_t i = 0; i < m->len; i++) {
		if (kk == 2)
			((spx_str *)c.k)[i] = spx_str_clone((const spx_str *)m->k + i);
		else
			memcpy((char *)c.k + i * ks, (const char *)m->k + i * ks, ks);
	}
	if (vsz && m->len)
		memcpy(c.v, m->v, m->len * vsz);
	return c;
}

SPX_RT size_t
spx_map_index(const spx_map *m, uint64_t i, const char *domain)
{
	if (i >= m->len)
		spx_fail(domain, RT_MAP_INDEX);
	return (size_t)i;
}
