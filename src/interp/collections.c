/*
 * collections.c — Map<K, V> and Set<K> at run time (LANGUAGE.md §5.1).
 *
 * A map is a MapObj (value.h): keys kept sorted (strings by unsigned
 * bytes, i64 signed, false < true), so `map_key_at`/`set_key_at` index key
 * order directly and lookups are the shared binary search (rt/coll.c).  Keys are copied on
 * insertion.  Failures: `semaprax.map.v1` for the monomorphic
 * Map<string, i64> forms written without type arguments, `semaprax.map.v2`
 * for the typed forms (`map_new<i64, string>`, every Set):
 * 1 new key beyond capacity, 2 index >= len, 3 capacity > 65,536,
 * 4 `map_add` overflow.
 *
 * Consumed arguments (the map of add/set/remove/insert) are released or
 * stored here; borrowed ones (keys, map_set's value, map_get_or's default,
 * read-only maps) by the caller, so a kept value is a copy (take_lent) —
 * unless it is fresh or moved (an owned local at its last use,
 * src/hir/lastuse.c): that one is taken.
 */
#include "interp.h"

#include <string.h>

#include "../rt/rt.h"

/* Keeps a borrowed argument: a copy of a lent value, or the fresh value
 * itself, taken from the caller (which releases borrowed arguments after
 * the call, so the slot is emptied). */
static Value
take_lent(ValueHeap *h, Value *arg)
{
	if (arg->borrowed)
		return interp_value_clone(h, *arg);
	Value v = *arg;
	*arg = v_empty();
	return v;
}

static Value
map_fail(Interp *I, const HirExpr *call, uint32_t code)
{
	interp_fail(I, call->u.call.ntargs > 0 ? RT_DOM_MAP2 : RT_DOM_MAP, code);
	return v_empty();
}

/* One probe of map_find: charges the key's bytes, then compares. */
struct map_probe {
	Interp *I;
	size_t klen;
};

static int
map_probe_cmp(const void *elem, const void *key, void *ctx)
{
	struct map_probe *pr = ctx;
	heap_work(&pr->I->heap, pr->klen);
	return interp_value_compare(elem, key);
}

/* Index of key in m, or -(insertion point) - 1 (rt_sorted_find).  Each
 * probe compares at most the key's bytes: that work is charged. */
static long
map_find(Interp *I, const MapObj *m, const Value *key)
{
	struct map_probe pr = { I, 0 };
	if (key->tag == V_STRING || key->tag == V_VIEW)
		interp_value_bytes(key, &pr.klen);
	return rt_sorted_find(m->keys, m->len, sizeof(Value), key, map_probe_cmp, &pr);
}

/* Inserts key (kept: take_lent; a view is copied) with val (owned; ignored
 * for sets) at position pos; the entries shifted are charged. */
static void
map_insert_at(Interp *I, MapObj *m, size_t pos, Value *key, Value val)
{
	heap_work(&I->heap, sizeof(Value) * (m->len - pos) * (m->vals ? 2 : 1));
	memmove(&m->keys[pos + 1], &m->keys[pos], sizeof(Value) * (m->len - pos));
	m->keys[pos] = key->tag == V_STRING ? take_lent(&I->heap, key) : interp_value_clone(&I->heap, *key);
	if (m->vals) {
		memmove(&m->vals[pos + 1], &m->vals[pos], sizeof(Value) * (m->len - pos));
		m->vals[pos] = val;
	}
	m->len++;
}

static void
map_remove_at(Interp *I, MapObj *m, size_t pos)
{
	heap_work(&I->heap, sizeof(Value) * (m->len - pos) * (m->vals ? 2 : 1));
	value_release(&I->heap, m->keys[pos]);
	memmove(&m->keys[pos], &m->keys[pos + 1], sizeof(Value) * (m->len - pos - 1));
	if (m->vals) {
		value_release(&I->heap, m->vals[pos]);
		memmove(&m->vals[pos], &m->vals[pos + 1], sizeof(Value) * (m->len - pos - 1));
	}
	m->len--;
}

Value
interp_rt_collection_call(Interp *I, int index, const HirExpr *call, Value *args)
{
	switch (index) {
	case BI_map_new:
	case BI_set_new:
		if (args[0].u > MAP_MAX_CAPACITY)
			return map_fail(I, call, RT_MAP_CAPACITY);
		return v_ptr(V_MAP, interp_mapobj_new(&I->heap, (size_t)args[0].u, index == BI_set_new), 0);
	case BI_map_len:
	case BI_set_len:
		return v_int(V_USIZE, (int64_t)((MapObj *)args[0].p)->len);
	case BI_map_has:
	case BI_set_has:
		return v_bool(map_find(I, args[0].p, &args[1]) >= 0);
	case BI_map_key_at:
	case BI_set_key_at:
	case BI_map_value_at: {
		MapObj *m = args[0].p;
		if (args[1].u >= m->len)
			return map_fail(I, call, RT_MAP_INDEX);
		Value *at = index == BI_map_value_at ? &m->vals[args[1].u] : &m->keys[args[1].u];
		if (!args[0].borrowed && at->tag >= V_STRING) {
			/* an owned map (fresh, or a local at its last use:
			 * src/hir/lastuse.c), released after the call: the entry's
			 * key or value is taken, not copied */
			Value r = *at;
			*at = v_empty();
			return r;
		}
		return interp_value_clone(&I->heap, *at);
	}
	case BI_map_get_or: {
		MapObj *m = args[0].p;
		long at = map_find(I, m, &args[1]);
		if (at < 0)
			return take_lent(&I->heap, &args[2]);
		if (!args[0].borrowed && m->vals[at].tag >= V_STRING) {
			/* an owned map, released after the call: the value is taken */
			Value r = m->vals[at];
			m->vals[at] = v_empty();
			return r;
		}
		return interp_value_clone(&I->heap, m->vals[at]);
	}
	case BI_map_set:
	case BI_map_add:
	case BI_set_insert: {
		Value mv = value_own(&I->heap, args[0]);
		MapObj *m = mv.p;
		Value val = index == BI_set_insert ? v_empty()
			  : index == BI_map_set    ? take_lent(&I->heap, &args[2])
						  : value_own(&I->heap, args[2]);
		long at = map_find(I, m, &args[1]);
		if (at >= 0) {
			if (index == BI_map_set) {
				value_release(&I->heap, m->vals[at]);
				m->vals[at] = val;
			} else if (index == BI_map_add) {
				int64_t sum;
				if (__builtin_add_overflow(m->vals[at].i, val.i, &sum)) {
					value_release(&I->heap, mv);
					return map_fail(I, call, RT_MAP_OVERFLOW);
				}
				m->vals[at].i = sum;
			}
			return mv;
		}
		if (m->len >= m->cap) {
			value_release(&I->heap, val);
			value_release(&I->heap, mv);
			return map_fail(I, call, RT_MAP_FULL);
		}
		map_insert_at(I, m, (size_t)(-at - 1), &args[1], val);
		return mv;
	}
	case BI_map_remove:
	case BI_set_remove: {
		Value mv = value_own(&I->heap, args[0]);
		long at = map_find(I, mv.p, &args[1]);
		if (at >= 0)
			map_remove_at(I, mv.p, (size_t)at);
		return mv;
	}
	default:
		UNREACHABLE();
		return v_empty();
	}
}
