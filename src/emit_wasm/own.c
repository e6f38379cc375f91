/*
 * own.c — owned heap values in the Wasm lane (emitw_int.h has the model):
 * an owned string is an (address, length) pair whose address lies in the
 * heap of the shared runtime (src/rt/heap.c, imported as rt_free,
 * rt_str_own…); a string in static data or the argument pages is owned
 * too, and releasing it does nothing (rt_free ignores addresses outside
 * the heap), nor does releasing a moved-from place (address 0).  Release
 * follows the HIR's cleanup plan as the C lane does: a block's owned slots
 * at its end in reverse order, a statement's temporaries after it, and in
 * the function's epilogue (after `ensures`) every owned slot and every
 * temporary, so an exit through `?` releases what its blocks did not.
 * Release zeroes the address, so a second release is none.
 */
#include "emitw_int.h"

#include "../rt/domains.h"

bool
emitw_has_heap(Emitw *W, TypeId t)
{
	uint8_t mask[FLAT_MAX];
	int n = emitw_heap_mask(W, t, mask);
	for (int i = 0; i < n; i++)
		if (mask[i])
			return true;
	return false;
}

bool
emitw_fresh(Emitw *W, const HirExpr *e)
{
	(void)W;
	switch (e->kind) {
	case HIR_LOCAL:
		return false;
	case HIR_FIELD:
		return e->u.field.take;
	default:
		return true;   /* a move, a call, an aggregate, a branch value, `?`, a literal */
	}
}

void
emitw_oom_check(Emitw *W)
{
	static const uint8_t i32t[1] = { WT_I32 };
	uint32_t t = emitw_locals(W, i32t, 1);
	emitw_op_u32(W, OP_LOCAL_TEE, t);
	emitw_op(W, OP_I32_EQZ);
	emitw_open(W, OP_IF, NULL, 0);
	emitw_text(W, "SEMAPRAX runtime failure: out of memory");
	emitw_fail(W, RT_EXIT_DOMAIN);
	emitw_end(W);
	emitw_op_u32(W, OP_LOCAL_GET, t);
}

void
emitw_release(Emitw *W, uint32_t base, TypeId t)
{
	uint8_t mask[FLAT_MAX];
	int n = emitw_heap_mask(W, t, mask);
	for (int i = 0; i < n; i++) {
		if (!mask[i])
			continue;
		emitw_op_u32(W, OP_LOCAL_GET, base + (uint32_t)i);
		emitw_op_u32(W, OP_CALL, W->imp_free);
		emitw_i32c(W, 0);
		emitw_op_u32(W, OP_LOCAL_SET, base + (uint32_t)i);
	}
}

void
emitw_zero_heap(Emitw *W, uint32_t base, TypeId t)
{
	uint8_t mask[FLAT_MAX];
	int n = emitw_heap_mask(W, t, mask);
	for (int i = 0; i < n; i++) {
		if (!mask[i])
			continue;
		emitw_i32c(W, 0);
		emitw_op_u32(W, OP_LOCAL_SET, base + (uint32_t)i);
	}
}

void
emitw_clone(Emitw *W, TypeId t)
{
	uint8_t mask[FLAT_MAX], ty[FLAT_MAX];
	int n = emitw_heap_mask(W, t, mask);
	emitw_flat(W, t, ty);
	uint32_t base = emitw_locals(W, ty, n);   /* n >= 2: fresh locals */
	emitw_store(W, base, n);
	static const uint8_t i32t[1] = { WT_I32 };
	for (int i = 0; i < n; i++) {
		if (!mask[i])
			continue;
		/* an inactive variant case's string is (0, 0): it stays */
		emitw_op_u32(W, OP_LOCAL_GET, base + (uint32_t)i);
		emitw_open(W, OP_IF, i32t, 1);
		emitw_op_u32(W, OP_LOCAL_GET, base + (uint32_t)i);
		emitw_op_u32(W, OP_LOCAL_GET, base + (uint32_t)i + 1);
		emitw_op_u32(W, OP_CALL, W->imp_str_own);
		emitw_oom_check(W);
		emitw_op(W, OP_ELSE);
		emitw_i32c(W, 0);
		emitw_end(W);
		emitw_op_u32(W, OP_LOCAL_SET, base + (uint32_t)i);
	}
	emitw_load(W, base, n);
}

bool
emitw_own(Emitw *W, const HirExpr *e, TypeId as)
{
	if (!emitw_expr_as(W, e, as))
		return false;
	if (!emitw_fresh(W, e) && emitw_has_heap(W, as))
		emitw_clone(W, as);
	return true;
}

uint32_t
emitw_hold_base(Emitw *W, TypeId t)
{
	uint8_t ty[FLAT_MAX];
	int n = emitw_flat(W, t, ty);
	uint32_t base = emitw_locals(W, ty, n);   /* n >= 2: fresh locals, never reused */
	emitw_store(W, base, n);
	if (W->notemps == W->capotemps) {
		W->capotemps = W->capotemps ? W->capotemps * 2 : 16;
		W->otemps = spx_xrealloc(W->otemps, sizeof *W->otemps * (size_t)W->capotemps);
	}
	W->otemps[W->notemps].base = base;
	W->otemps[W->notemps].t = t;
	VEC_PUSH(W->olive, W->notemps);
	W->notemps++;
	return base;
}

void
emitw_hold(Emitw *W, TypeId t)
{
	uint32_t base = emitw_hold_base(W, t);
	emitw_load(W, base, emitw_flat(W, t, NULL));
}

bool
emitw_lend(Emitw *W, const HirExpr *e)
{
	if (!emitw_expr(W, e))
		return false;
	TypeId t = emitw_ty(W, e->type);
	if (e->kind != HIR_STRING && emitw_fresh(W, e) && emitw_has_heap(W, t))
		emitw_hold(W, t);
	return true;
}

int
emitw_otemps_mark(Emitw *W)
{
	return W->olive.len;
}

void
emitw_otemps_release(Emitw *W, int mark)
{
	while (W->olive.len > mark) {
		int k = W->olive.items[--W->olive.len];
		emitw_release(W, W->otemps[k].base, W->otemps[k].t);
	}
}

void
emitw_epilogue(Emitw *W)
{
	const HirInst *in = &W->M->insts[W->inst];
	for (int i = W->f->nlocals - 1; i >= 0; i--)
		if (in->slot_owned[i] && emitw_has_heap(W, in->slot_type[i]))
			emitw_release(W, W->slot_base[i], in->slot_type[i]);
	for (int k = W->notemps - 1; k >= 0; k--)
		emitw_release(W, W->otemps[k].base, W->otemps[k].t);
}
