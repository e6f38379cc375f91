/*
 * map.c — Map<K, V> and Set<K> in the Wasm lane (LANGUAGE.md §5.1).
 *
 * A Map is flat (keys, values, length, capacity), a Set the same without
 * values (0): two heap blocks of capacity entries, keys kept sorted in the
 * shared order (i64 signed, false < true, strings by unsigned bytes) and
 * searched by the shared rt_sorted_find (src/rt/coll.c, through
 * rt_slot_find in src/rt/heap.c), every flat value in an 8-byte slot as in
 * a Vec.  The checks, failures and copies are the C lane's
 * (src/emit_c/emit_builtin.c emit_map): map.v1 for the untyped legacy
 * calls, map.v2 for the typed ones and every Set; keys and map_set's value
 * are borrowed and copied when kept; a value read out is a copy.
 */
#include "emitw_int.h"

#include "../rt/domains.h"
#include "../rt/rt.h"

static const uint8_t VT_I32[1] = { WT_I32 }, VT_I64[1] = { WT_I64 };

static int
key_kind(Emitw *W, TypeId k)
{
	switch (sema_type_info(&W->S->types, k)->kind) {
	case TY_I64: return RT_SORT_SIGNED;
	case TY_BOOL: return RT_SORT_UNSIGNED;
	case TY_STRING: return RT_SORT_STRING;
	default: return -1;
	}
}

/* local a = the address of entry i (i32 local) of the block in local p. */
static uint32_t
entry(Emitw *W, uint32_t p, uint32_t i, TypeId t)
{
	uint32_t a = emitw_locals(W, VT_I32, 1);
	emitw_elem_addr(W, p, i, emitw_elem_size(W, t), a);
	return a;
}

/* Stores the value of type t in locals v… at the address in local a. */
static void
store_at(Emitw *W, uint32_t a, uint32_t v, TypeId t)
{
	emitw_load(W, v, emitw_flat(W, t, NULL));
	emitw_elem_store(W, a, t);
}

/* The value of type t in locals v…, cloned when it owns heap parts (a copy kept). */
static void
load_copy(Emitw *W, uint32_t v, TypeId t)
{
	emitw_load(W, v, emitw_flat(W, t, NULL));
	if (emitw_has_heap(W, t))
		emitw_clone(W, t);
}

bool
emitw_map_builtin(Emitw *W, const HirExpr *e)
{
	int id = e->u.call.builtin->bid;
	bool set = !sema_builtin_is_map_op(id);
	int dom = set || e->u.call.ntargs > 0 ? RT_DOM_MAP2 : RT_DOM_MAP;
	HirExpr *const *args = e->u.call.args;
	TypeId mt = emitw_ty(W, id == BI_map_new || id == BI_set_new ? e->type : args[0]->type);
	const TypeInfo *mi = sema_type_info(&W->S->types, mt);
	if (emitw_flat_or_refuse(W, mt, e->span, NULL) < 0)
		return false;
	TypeId K = mi->args[0], V = set ? 0 : mi->args[1];
	int kind = key_kind(W, K);
	if (kind < 0) {
		emitw_refuse(W, e->span, "the Wasm lane does not support keys of type `%s` yet", sema_type_name(W->S, K));
		return false;
	}
	if (id == BI_map_new || id == BI_set_new) {
		uint32_t cap = emitw_locals(W, VT_I64, 1);
		if (!emitw_lend(W, args[0]))
			return false;
		emitw_op_u32(W, OP_LOCAL_TEE, cap);
		emitw_i64c(W, RT_LIMIT_MAP_CAPACITY);
		emitw_op(W, OP_I64_GT_U);
		emitw_fail_if(W, dom, RT_MAP_CAPACITY);
		for (int b = 0; b < (set ? 1 : 2); b++) {
			emitw_i32c(W, 0);
			emitw_op_u32(W, OP_LOCAL_GET, cap);
			emitw_op(W, OP_I32_WRAP_I64);
			emitw_i32c(W, emitw_elem_size(W, b ? V : K));
			emitw_op(W, OP_I32_MUL);
			emitw_i32c(W, 0);
			emitw_op_u32(W, OP_CALL, W->imp_block_clone);
			emitw_oom_check(W);
		}
		if (set)
			emitw_i32c(W, 0);
		emitw_i32c(W, 0);
		emitw_op_u32(W, OP_LOCAL_GET, cap);
		emitw_op(W, OP_I32_WRAP_I64);
		return true;
	}
	bool borrow = id == BI_map_len || id == BI_set_len || id == BI_map_key_at || id == BI_set_key_at ||
		      id == BI_map_value_at || id == BI_map_has || id == BI_set_has || id == BI_map_get_or;
	uint32_t m = emitw_locals(W, (const uint8_t[]){ WT_I32, WT_I32, WT_I32, WT_I32 }, 4);
	if (!(borrow ? emitw_lend(W, args[0]) : emitw_own(W, args[0], mt)))
		return false;
	emitw_store(W, m, 4);
	uint32_t len = m + 2, cap = m + 3;
	if (id == BI_map_len || id == BI_set_len) {
		emitw_op_u32(W, OP_LOCAL_GET, len);
		emitw_op(W, OP_I64_EXTEND_I32_U);
		return true;
	}
	if (id == BI_map_key_at || id == BI_set_key_at || id == BI_map_value_at) {
		bool key = id != BI_map_value_at;
		TypeId t = key ? K : V;
		uint32_t i = emitw_locals(W, VT_I64, 1), i32 = emitw_locals(W, VT_I32, 1);
		if (!emitw_lend(W, args[1]))
			return false;
		emitw_op_u32(W, OP_LOCAL_TEE, i);
		emitw_op_u32(W, OP_LOCAL_GET, len);
		emitw_op(W, OP_I64_EXTEND_I32_U);
		emitw_op(W, OP_I64_GE_U);
		emitw_fail_if(W, dom, RT_MAP_INDEX);
		emitw_op_u32(W, OP_LOCAL_GET, i);
		emitw_op(W, OP_I32_WRAP_I64);
		emitw_op_u32(W, OP_LOCAL_SET, i32);
		uint32_t a = entry(W, key ? m : m + 1, i32, t);
		emitw_elem_load(W, a, t);
		if (emitw_has_heap(W, t) && emitw_fresh(W, args[0]))
			emitw_elem_zero(W, a, t);   /* an owned map, released after the statement: the entry's part is taken */
		else if (emitw_has_heap(W, t))
			emitw_clone(W, t);
		return true;
	}
	/* the key (borrowed), then the value or default (borrowed, copied when kept) */
	uint8_t kty[FLAT_MAX], vty[FLAT_MAX];
	int kn = emitw_flat(W, K, kty), vn = set ? 0 : emitw_flat(W, V, vty);
	uint32_t k = emitw_locals(W, kty, kn), v = 0;
	bool took = false;
	/* a fresh string key of an insertion is moved in too (released when
	 * present); an owned local at its last use arrives moved
	 * (src/hir/lastuse.c) */
	bool took_key = (id == BI_map_set || id == BI_map_add || id == BI_set_insert) &&
			sema_type_info(&W->S->types, K)->kind == TY_STRING && emitw_fresh(W, args[1]);
	if (!(took_key ? emitw_own(W, args[1], K) : emitw_lend(W, args[1])))
		return false;
	emitw_store(W, k, kn);
	if (e->u.call.nargs > 2) {
		if (id == BI_map_add && sema_type_info(&W->S->types, V)->kind != TY_I64) {
			emitw_refuse(W, e->span, "the Wasm lane supports `map_add` on i64 values only yet");
			return false;
		}
		v = emitw_locals(W, vty, vn);
		/* map_set keeps its value whatever happens: a fresh one is moved in
		 * (the interpreter's take_lent), not held and copied; so is
		 * map_get_or's default (released when the key is present) */
		took = (id == BI_map_set || id == BI_map_get_or) && emitw_fresh(W, args[2]);
		if (!(took ? emitw_own(W, args[2], V) : emitw_lend(W, args[2])))
			return false;
		emitw_store(W, v, vn);
	}
	/* the key into the scratch buffer; its index or -(insertion point) - 1 */
	uint32_t at = emitw_locals(W, VT_I32, 1), scratch = emitw_locals(W, VT_I32, 1);
	emitw_i32c(W, (int32_t)WASM_SCRATCH);
	emitw_op_u32(W, OP_LOCAL_SET, scratch);
	emitw_load(W, k, kn);
	emitw_elem_store(W, scratch, K);
	emitw_op_u32(W, OP_LOCAL_GET, m);
	emitw_op_u32(W, OP_LOCAL_GET, len);
	emitw_i32c(W, emitw_elem_size(W, K));
	emitw_op_u32(W, OP_LOCAL_GET, scratch);
	emitw_i32c(W, kind);
	emitw_op_u32(W, OP_CALL, W->imp_slot_find);
	emitw_op_u32(W, OP_LOCAL_SET, at);
	if (id == BI_map_has || id == BI_set_has) {
		emitw_op_u32(W, OP_LOCAL_GET, at);
		emitw_i32c(W, 0);
		emitw_op(W, OP_I32_GE_S);
		return true;
	}
	if (id == BI_map_get_or) {
		emitw_op_u32(W, OP_LOCAL_GET, at);
		emitw_i32c(W, 0);
		emitw_op(W, OP_I32_GE_S);
		emitw_open(W, OP_IF, vty, vn);
		uint32_t ea = entry(W, m + 1, at, V);
		emitw_elem_load(W, ea, V);
		if (emitw_has_heap(W, V) && emitw_fresh(W, args[0]))
			emitw_elem_zero(W, ea, V);   /* an owned map, released after the statement: taken */
		else if (emitw_has_heap(W, V))
			emitw_clone(W, V);
		if (took && emitw_has_heap(W, V))
			emitw_release(W, v, V);
		emitw_op(W, OP_ELSE);
		if (took)
			emitw_load(W, v, vn);
		else
			load_copy(W, v, V);
		emitw_end(W);
		return true;
	}
	if (id == BI_map_remove || id == BI_set_remove) {
		emitw_op_u32(W, OP_LOCAL_GET, at);
		emitw_i32c(W, 0);
		emitw_op(W, OP_I32_GE_S);
		emitw_open(W, OP_IF, NULL, 0);
		uint32_t one = emitw_locals(W, VT_I32, 1);
		emitw_i32c(W, 1);
		emitw_op_u32(W, OP_LOCAL_SET, one);
		for (int b = 0; b < (set ? 1 : 2); b++) {
			TypeId t = b ? V : K;
			emitw_release_elems(W, entry(W, m + (uint32_t)b, at, t), one, t);
			emitw_op_u32(W, OP_LOCAL_GET, m + (uint32_t)b);
			emitw_op_u32(W, OP_LOCAL_GET, len);
			emitw_i32c(W, emitw_elem_size(W, t));
			emitw_op_u32(W, OP_LOCAL_GET, at);
			emitw_op_u32(W, OP_CALL, W->imp_slots_close);
		}
		emitw_op_u32(W, OP_LOCAL_GET, len);
		emitw_i32c(W, 1);
		emitw_op(W, OP_I32_SUB);
		emitw_op_u32(W, OP_LOCAL_SET, len);
		emitw_end(W);
		emitw_load(W, m, 4);
		return true;
	}
	/* map_set, map_add, set_insert: present … */
	emitw_op_u32(W, OP_LOCAL_GET, at);
	emitw_i32c(W, 0);
	emitw_op(W, OP_I32_GE_S);
	emitw_open(W, OP_IF, NULL, 0);
	if (took_key)
		emitw_release(W, k, K);
	if (id == BI_map_set) {
		uint32_t a = entry(W, m + 1, at, V), one = emitw_locals(W, VT_I32, 1);
		emitw_i32c(W, 1);
		emitw_op_u32(W, OP_LOCAL_SET, one);
		emitw_release_elems(W, a, one, V);
		if (took)
			emitw_load(W, v, vn);
		else
			load_copy(W, v, V);
		emitw_elem_store(W, a, V);
	} else if (id == BI_map_add) {
		/* checked i64 addition (expr.c's test), failing in the map's domain */
		uint32_t a = entry(W, m + 1, at, V), x = emitw_locals(W, VT_I64, 1), r = emitw_locals(W, VT_I64, 1);
		emitw_elem_load(W, a, V);
		emitw_op_u32(W, OP_LOCAL_TEE, x);
		emitw_op_u32(W, OP_LOCAL_GET, v);
		emitw_op(W, OP_I64_ADD);
		emitw_op_u32(W, OP_LOCAL_SET, r);
		emitw_add_overflows(W, x, v, r);
		emitw_fail_if(W, dom, RT_MAP_OVERFLOW);
		emitw_op_u32(W, OP_LOCAL_GET, r);
		emitw_elem_store(W, a, V);
	}
	/* … or inserted at -at - 1 (capacity first) */
	emitw_op(W, OP_ELSE);
	emitw_op_u32(W, OP_LOCAL_GET, len);
	emitw_op_u32(W, OP_LOCAL_GET, cap);
	emitw_op(W, OP_I32_GE_U);
	emitw_fail_if(W, dom, RT_MAP_FULL);
	uint32_t pos = emitw_locals(W, VT_I32, 1);
	emitw_i32c(W, -1);
	emitw_op_u32(W, OP_LOCAL_GET, at);
	emitw_op(W, OP_I32_SUB);
	emitw_op_u32(W, OP_LOCAL_SET, pos);
	for (int b = 0; b < (set ? 1 : 2); b++) {
		TypeId t = b ? V : K;
		emitw_op_u32(W, OP_LOCAL_GET, m + (uint32_t)b);
		emitw_op_u32(W, OP_LOCAL_GET, len);
		emitw_i32c(W, emitw_elem_size(W, t));
		emitw_op_u32(W, OP_LOCAL_GET, pos);
		emitw_op_u32(W, OP_CALL, W->imp_slots_open);
		uint32_t a = entry(W, m + (uint32_t)b, pos, t);
		if ((b == 1 && took) || (b == 0 && took_key)) {
			store_at(W, a, b ? v : k, t);   /* the fresh value or key, moved in */
		} else if (b == 0 || id == BI_map_set) {
			load_copy(W, b ? v : k, t);
			emitw_elem_store(W, a, t);
		} else {
			store_at(W, a, v, t);   /* map_add's number */
		}
	}
	emitw_op_u32(W, OP_LOCAL_GET, len);
	emitw_i32c(W, 1);
	emitw_op(W, OP_I32_ADD);
	emitw_op_u32(W, OP_LOCAL_SET, len);
	emitw_end(W);
	emitw_load(W, m, 4);
	return true;
}
