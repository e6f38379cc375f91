/*
 * vec.c — Vec<T>, Iter<T> and `for` in the Wasm lane (LANGUAGE.md §5.1).
 *
 * A Vec is flat (address, length, capacity) and an Iter the same plus its
 * position; the storage is one heap block (src/rt/heap.c) of capacity
 * elements, each flat value of an element in an 8-byte slot.  The checks
 * and their failures are the C lane's (src/emit_c/rt/coll.h): capacity
 * past RT_LIMIT_VEC_CAPACITY and a failed reservation are
 * semaprax.vec.v1/3, a push beyond capacity /1, an index past the length
 * /2.  A Box<T> is the address of one block holding the value.
 * Ownership follows own.c: the consumed Vec is owned (a borrowed one
 * is cloned first), elements taken out (iter_next, `for own`) are zeroed
 * in the storage, so releasing the rest releases each element once.
 */
#include "emitw_int.h"

#include "../rt/domains.h"
#include "../rt/rt.h"

static const uint8_t VT_I32[1] = { WT_I32 }, VT_I64[1] = { WT_I64 };

/* Fails with vec.v1/2 unless the usize in local i is below the length in local len. */
static void
index_check(Emitw *W, uint32_t i, uint32_t len)
{
	emitw_op_u32(W, OP_LOCAL_GET, i);
	emitw_op_u32(W, OP_LOCAL_GET, len);
	emitw_op(W, OP_I64_EXTEND_I32_U);
	emitw_op(W, OP_I64_GE_U);
	emitw_fail_if(W, RT_DOM_VEC, RT_VEC_INDEX);
}

/* The element type's sort key kind (rt_sort_slots), or -1. */
static int
sort_kind(Emitw *W, TypeId t)
{
	switch (sema_type_info(&W->S->types, t)->kind) {
	case TY_I64: return RT_SORT_SIGNED;
	case TY_USIZE: case TY_U8: case TY_CHAR: case TY_BOOL: return RT_SORT_UNSIGNED;
	case TY_STRING: return RT_SORT_STRING;
	case TY_F64: return RT_SORT_F64;
	case TY_F32: return RT_SORT_F32;
	default: return -1;
	}
}

static bool
usize_arg(Emitw *W, const HirExpr *e, uint32_t *x)
{
	if (!emitw_lend(W, e))
		return false;
	*x = emitw_locals(W, VT_I64, 1);
	emitw_op_u32(W, OP_LOCAL_SET, *x);
	return true;
}

/* Box<T>: one heap block holding the value; box_get copies it out, box_into_inner moves it out. */
static bool
box_builtin(Emitw *W, const HirExpr *e, int id)
{
	const HirExpr *a0 = e->u.call.args[0];
	TypeId bt = emitw_ty(W, id == BI_box_new ? e->type : a0->type);
	if (emitw_flat_or_refuse(W, bt, e->span, NULL) < 0)
		return false;
	TypeId inner = emitw_elem_ty(W, bt);
	int esz = emitw_elem_size(W, inner);
	uint32_t p = emitw_locals(W, VT_I32, 1);
	if (id == BI_box_new) {
		uint8_t ty[FLAT_MAX];
		int n = emitw_flat(W, inner, ty);
		uint32_t v = emitw_locals(W, ty, n);
		if (!emitw_own(W, a0, inner))
			return false;
		emitw_store(W, v, n);
		emitw_i32c(W, 0);
		emitw_i32c(W, esz);
		emitw_i32c(W, 0);
		emitw_op_u32(W, OP_CALL, W->imp_block_clone);
		emitw_oom_check(W);
		emitw_op_u32(W, OP_LOCAL_SET, p);
		emitw_load(W, v, n);
		emitw_elem_store(W, p, inner);
		emitw_op_u32(W, OP_LOCAL_GET, p);
		return true;
	}
	if (!(id == BI_box_get ? emitw_lend(W, a0) : emitw_own(W, a0, bt)))
		return false;
	emitw_op_u32(W, OP_LOCAL_SET, p);
	emitw_elem_load(W, p, inner);
	if (id == BI_box_get) {
		if (emitw_has_heap(W, inner))
			emitw_clone(W, inner);
	} else {
		emitw_op_u32(W, OP_LOCAL_GET, p);
		emitw_op_u32(W, OP_CALL, W->imp_free);   /* the value moved out: only the block goes */
	}
	return true;
}

/* The i32 at address a, sign-extended in place to the i64 its 8-byte slot sorts as. */
static void
sign_extend_i32(Emitw *W, uint32_t a, TypeId t)
{
	(void)t;
	emitw_op_u32(W, OP_LOCAL_GET, a);
	emitw_mem_load(W, a, WT_I32, 0);
	emitw_op(W, OP_I64_EXTEND_I32_S);
	emitw_op(W, OP_I64_STORE);
	wasm_u32(W->c, 3);
	wasm_u32(W->c, 0);
}

bool
emitw_vec_builtin(Emitw *W, const HirExpr *e)
{
	int id = e->u.call.builtin->bid;
	if (id == BI_box_new || id == BI_box_get || id == BI_box_into_inner)
		return box_builtin(W, e, id);
	if (id == BI_vec_with_capacity) {
		TypeId vt = emitw_ty(W, e->type);
		if (emitw_flat_or_refuse(W, vt, e->span, NULL) < 0)
			return false;
		int esz = emitw_elem_size(W, emitw_elem_ty(W, vt));
		uint32_t cap;
		if (!usize_arg(W, e->u.call.args[0], &cap))
			return false;
		emitw_op_u32(W, OP_LOCAL_GET, cap);
		emitw_i64c(W, RT_LIMIT_VEC_CAPACITY);
		emitw_op(W, OP_I64_GT_U);
		emitw_fail_if(W, RT_DOM_VEC, RT_VEC_ALLOC);
		emitw_i32c(W, 0);
		emitw_op_u32(W, OP_LOCAL_GET, cap);
		emitw_op(W, OP_I32_WRAP_I64);
		emitw_i32c(W, esz);
		emitw_op(W, OP_I32_MUL);
		emitw_i32c(W, 0);
		emitw_op_u32(W, OP_CALL, W->imp_block_clone);
		emitw_oom_check(W);
		emitw_i32c(W, 0);
		emitw_op_u32(W, OP_LOCAL_GET, cap);
		emitw_op(W, OP_I32_WRAP_I64);
		return true;
	}
	const HirExpr *a0 = e->u.call.args[0];
	TypeId vt = emitw_ty(W, a0->type);
	if (emitw_flat_or_refuse(W, vt, a0->span, NULL) < 0)
		return false;
	TypeId el = emitw_elem_ty(W, vt);
	int esz = emitw_elem_size(W, el);
	uint8_t ety[FLAT_MAX];
	int en = emitw_flat(W, el, ety);
	bool borrow = id == BI_vec_len || id == BI_vec_capacity || id == BI_vec_get || id == BI_vec_clone_at;
	int n = sema_type_info(&W->S->types, vt)->kind == TY_ITER ? 4 : 3;
	uint32_t v = emitw_locals(W, (const uint8_t[]){ WT_I32, WT_I32, WT_I32, WT_I32 }, n);
	if (!(borrow ? emitw_lend(W, a0) : emitw_own(W, a0, vt)))
		return false;
	emitw_store(W, v, n);
	uint32_t p = v, len = v + 1, cap = v + 2;
	switch (id) {
	case BI_vec_len: case BI_vec_capacity:
		emitw_op_u32(W, OP_LOCAL_GET, id == BI_vec_len ? len : cap);
		emitw_op(W, OP_I64_EXTEND_I32_U);
		return true;
	case BI_vec_get: case BI_vec_clone_at: {
		uint32_t i, a = emitw_locals(W, VT_I32, 1), i32 = emitw_locals(W, VT_I32, 1);
		if (!usize_arg(W, e->u.call.args[1], &i))
			return false;
		index_check(W, i, len);
		emitw_op_u32(W, OP_LOCAL_GET, i);
		emitw_op(W, OP_I32_WRAP_I64);
		emitw_op_u32(W, OP_LOCAL_SET, i32);
		emitw_elem_addr(W, p, i32, esz, a);
		emitw_elem_load(W, a, el);
		if (emitw_has_heap(W, el) && emitw_fresh(W, a0))
			emitw_elem_zero(W, a, el);   /* an owned Vec, released after the statement: taken */
		else if (emitw_has_heap(W, el))
			emitw_clone(W, el);   /* a call's value is fresh: the element stays in the Vec */
		return true;
	}
	case BI_vec_push: {
		uint32_t x = emitw_locals(W, ety, en), a = emitw_locals(W, VT_I32, 1);
		if (!emitw_own(W, e->u.call.args[1], el))
			return false;
		emitw_store(W, x, en);
		emitw_op_u32(W, OP_LOCAL_GET, len);
		emitw_op_u32(W, OP_LOCAL_GET, cap);
		emitw_op(W, OP_I32_GE_U);
		emitw_fail_if(W, RT_DOM_VEC, RT_VEC_FULL);
		emitw_elem_addr(W, p, len, esz, a);
		emitw_load(W, x, en);
		emitw_elem_store(W, a, el);
		emitw_op_u32(W, OP_LOCAL_GET, len);
		emitw_i32c(W, 1);
		emitw_op(W, OP_I32_ADD);
		emitw_op_u32(W, OP_LOCAL_SET, len);
		break;
	}
	case BI_vec_set: {
		uint32_t i, x = emitw_locals(W, ety, en), a = emitw_locals(W, VT_I32, 1), i32 = emitw_locals(W, VT_I32, 1);
		if (!usize_arg(W, e->u.call.args[1], &i) || !emitw_own(W, e->u.call.args[2], el))
			return false;
		emitw_store(W, x, en);
		index_check(W, i, len);
		emitw_op_u32(W, OP_LOCAL_GET, i);
		emitw_op(W, OP_I32_WRAP_I64);
		emitw_op_u32(W, OP_LOCAL_SET, i32);
		emitw_elem_addr(W, p, i32, esz, a);
		if (emitw_has_heap(W, el)) {
			/* the old element: released through a one-element view */
			uint32_t one = emitw_locals(W, VT_I32, 1);
			emitw_i32c(W, 1);
			emitw_op_u32(W, OP_LOCAL_SET, one);
			emitw_release_elems(W, a, one, el);
		}
		emitw_load(W, x, en);
		emitw_elem_store(W, a, el);
		break;
	}
	case BI_vec_clear:
		emitw_release_elems(W, p, len, el);
		emitw_i32c(W, 0);
		emitw_op_u32(W, OP_LOCAL_SET, len);
		break;
	case BI_vec_reserve_exact: {
		uint32_t add;
		if (!usize_arg(W, e->u.call.args[1], &add))
			return false;
		/* rt_vec_reserve_target (src/rt/coll.c): the wanted capacity in the scratch buffer */
		emitw_op_u32(W, OP_LOCAL_GET, len);
		emitw_op(W, OP_I64_EXTEND_I32_U);
		emitw_op_u32(W, OP_LOCAL_GET, add);
		emitw_i32c(W, (int32_t)WASM_SCRATCH);
		emitw_op_u32(W, OP_CALL, W->imp_reserve);
		emitw_fail_if(W, RT_DOM_VEC, RT_VEC_ALLOC);
		uint32_t want = emitw_locals(W, VT_I32, 1);
		emitw_i32c(W, (int32_t)WASM_SCRATCH);
		emitw_op(W, OP_I32_LOAD);
		wasm_u32(W->c, 2);
		wasm_u32(W->c, 0);
		emitw_op_u32(W, OP_LOCAL_TEE, want);
		emitw_op_u32(W, OP_LOCAL_GET, cap);
		emitw_op(W, OP_I32_GT_U);
		emitw_open(W, OP_IF, NULL, 0);
		emitw_block_call(W, W->imp_block_grow, p, len, want, esz);
		emitw_op_u32(W, OP_LOCAL_GET, want);
		emitw_op_u32(W, OP_LOCAL_SET, cap);
		emitw_end(W);
		break;
	}
	case BI_vec_sort: {
		int k = sort_kind(W, el);
		if (sema_type_info(&W->S->types, el)->kind == TY_I32) {
			/* an i32 lies zero-extended in its 8-byte slot: sign-extended first, it sorts as an i64 */
			emitw_each_elem(W, p, len, el, sign_extend_i32);
			k = RT_SORT_SIGNED;
		}
		if (k < 0) {
			emitw_refuse(W, e->span, "the Wasm lane does not sort `%s` yet", sema_type_name(W->S, el));
			return false;
		}
		emitw_op_u32(W, OP_LOCAL_GET, p);
		emitw_op_u32(W, OP_LOCAL_GET, len);
		emitw_i32c(W, esz);
		emitw_i32c(W, k);
		emitw_op_u32(W, OP_CALL, W->imp_sort);
		break;
	}
	case BI_vec_into_iter:
		emitw_load(W, v, 3);
		emitw_i32c(W, 0);
		return true;
	case BI_iter_next: {
		/* IterStep<T>: Done (case 0), or case 1 (the item, the rest); exhausted, the Iter is released */
		TypeId st = emitw_ty(W, e->type);
		uint8_t sty[FLAT_MAX];
		int sn = emitw_flat_or_refuse(W, st, e->span, sty);
		if (sn < 0)
			return false;
		uint32_t r = emitw_locals(W, sty, sn), a = emitw_locals(W, VT_I32, 1), pos = v + 3;
		for (int k = 0; k < sn; k++) {
			switch (sty[k]) {
			case WT_I64: emitw_i64c(W, 0); break;
			case WT_F64: emitw_op(W, OP_F64_CONST); wasm_f64(W->c, 0); break;
			case WT_F32: emitw_op(W, OP_F32_CONST); wasm_f32(W->c, 0); break;
			default: emitw_i32c(W, 0); break;
			}
			emitw_op_u32(W, OP_LOCAL_SET, r + (uint32_t)k);
		}
		emitw_op_u32(W, OP_LOCAL_GET, pos);
		emitw_op_u32(W, OP_LOCAL_GET, len);
		emitw_op(W, OP_I32_GE_U);
		emitw_open(W, OP_IF, NULL, 0);
		emitw_release(W, v, vt);
		emitw_op(W, OP_ELSE);
		emitw_i32c(W, 1);
		emitw_op_u32(W, OP_LOCAL_SET, r);
		emitw_elem_addr(W, p, pos, esz, a);
		emitw_elem_load(W, a, el);
		emitw_store(W, r + (uint32_t)emitw_case_off(W, st, 1, 0), en);
		if (emitw_has_heap(W, el))
			emitw_elem_zero(W, a, el);   /* moved out */
		emitw_op_u32(W, OP_LOCAL_GET, pos);
		emitw_i32c(W, 1);
		emitw_op(W, OP_I32_ADD);
		emitw_op_u32(W, OP_LOCAL_SET, pos);
		emitw_load(W, v, 4);
		emitw_store(W, r + (uint32_t)emitw_case_off(W, st, 1, 1), 4);
		emitw_end(W);
		emitw_load(W, r, sn);
		return true;
	}
	default:
		emitw_refuse(W, e->span, "the Wasm lane does not support `%s` yet", e->u.call.builtin->name);
		return false;
	}
	emitw_load(W, v, n);
	return true;
}

/*
 * for item in v: a Vec lent (items are lent) or, for `for own` and an Iter,
 * consumed: the iterable is an owned temporary, each item moves out of it
 * (its slots zeroed in the storage) into the body's scope, which releases
 * what the body did not move; the temporary goes after the statement.
 */
bool
emitw_for(Emitw *W, const HirStmt *s)
{
	TypeId it = emitw_ty(W, s->value->type);
	const TypeInfo *ti = sema_type_info(&W->S->types, it);
	if (ti->kind != TY_VEC && ti->kind != TY_ITER) {
		emitw_refuse(W, s->span, "the Wasm lane supports `for` over Vec and Iter only");
		return false;
	}
	int n = emitw_flat_or_refuse(W, it, s->value->span, NULL);
	if (n < 0)
		return false;
	TypeId el = emitw_elem_ty(W, it);
	int esz = emitw_elem_size(W, el), en = emitw_flat(W, el, NULL);
	bool consume = s->own || ti->kind == TY_ITER;
	uint32_t v;
	if (consume) {
		if (!emitw_own(W, s->value, it))
			return false;
		v = emitw_hold_base(W, it);
	} else {
		if (!emitw_lend(W, s->value))
			return false;
		uint8_t ty[4] = { WT_I32, WT_I32, WT_I32, WT_I32 };
		v = emitw_locals(W, ty, n);
		emitw_store(W, v, n);
	}
	uint32_t i = emitw_locals(W, VT_I32, 1), a = emitw_locals(W, VT_I32, 1);
	if (ti->kind == TY_ITER)
		emitw_op_u32(W, OP_LOCAL_GET, v + 3);
	else
		emitw_i32c(W, 0);
	emitw_op_u32(W, OP_LOCAL_SET, i);
	emitw_open(W, OP_BLOCK, NULL, 0);
	emitw_open(W, OP_LOOP, NULL, 0);
	emitw_op_u32(W, OP_LOCAL_GET, i);
	emitw_op_u32(W, OP_LOCAL_GET, v + 1);
	emitw_op(W, OP_I32_GE_U);
	emitw_op_u32(W, OP_BR_IF, 1);
	emitw_elem_addr(W, v, i, esz, a);
	emitw_elem_load(W, a, el);
	emitw_store(W, W->slot_base[s->slot], en);
	if (consume && emitw_has_heap(W, el))
		emitw_elem_zero(W, a, el);
	if (ti->kind == TY_ITER) {
		/* the position advances with the loop (the Iter is released after the statement) */
		emitw_op_u32(W, OP_LOCAL_GET, i);
		emitw_i32c(W, 1);
		emitw_op(W, OP_I32_ADD);
		emitw_op_u32(W, OP_LOCAL_SET, v + 3);
	}
	emitw_op_u32(W, OP_LOCAL_GET, i);
	emitw_i32c(W, 1);
	emitw_op(W, OP_I32_ADD);
	emitw_op_u32(W, OP_LOCAL_SET, i);
	if (!emitw_block(W, s->body, WASM_DISCARD))
		return false;
	const HirInst *in = &W->M->insts[W->inst];
	if (in->slot_owned[s->slot] && !W->f->locals[s->slot].owned && emitw_has_heap(W, el))
		emitw_release(W, W->slot_base[s->slot], el);   /* a T-typed item of a generic instance */
	emitw_op_u32(W, OP_BR, 0);
	emitw_end(W);
	emitw_end(W);
	return true;
}
