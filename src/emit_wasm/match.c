/*
 * match.c — `match` and `?` in the Wasm lane (emitw_int.h).
 *
 * The scrutinee is evaluated once into locals; each arm is a test (an i32:
 * the case tag and literal comparisons of the resolved pattern, combined
 * with i32.and / i32.or — they only read locals, so no short circuit is
 * needed), then the bindings are copied from the scrutinee's locals into
 * their slots, the guard is evaluated, and a Wasm `if` takes the arm or
 * tries the next one.  The checker has proven the arms exhaustive, so
 * falling past the last one is `unreachable`.
 *
 * `?` on Option<T> / Result<T, E> (None = case 0, Ok = case 0): the
 * failure builds the function's own result (None, or Err with the same
 * payload) and branches out of the body's block, so `ensures` still runs.
 */
#include "emitw_int.h"

#include <string.h>

static const uint8_t VT_I32[1] = { WT_I32 };

static bool
has_binds(const HirPattern *p)
{
	switch (p->kind) {
	case HIR_PAT_BIND: return true;
	case HIR_PAT_CASE: case HIR_PAT_RECORD:
		for (int i = 0; i < p->nfields; i++)
			if (has_binds(p->subs[i]))
				return true;
		return false;
	case HIR_PAT_OR:
		for (int i = 0; i < p->nalts; i++)
			if (has_binds(p->alts[i]))
				return true;
		return false;
	default:
		return false;
	}
}

/* Pushes whether the value in locals base… matches p (an i32). */
static bool
test(Emitw *W, const HirPattern *p, uint32_t base)
{
	switch (p->kind) {
	case HIR_PAT_WILD: case HIR_PAT_BIND:
		emitw_i32c(W, 1);
		return true;
	case HIR_PAT_LIT: {
		uint8_t t;
		if (emitw_flat(W, emitw_ty(W, p->type), &t) != 1 || (t != WT_I32 && t != WT_I64))
			break;
		emitw_op_u32(W, OP_LOCAL_GET, base);
		int64_t v = p->lit.kind == HIR_BOOL ? p->lit.b : p->lit.kind == HIR_CHAR ? (int64_t)p->lit.ch
			  : p->lit.negative ? (int64_t)(0 - p->lit.i) : (int64_t)p->lit.i;
		if (t == WT_I64) {
			emitw_i64c(W, v);
			emitw_op(W, OP_I64_EQ);
		} else {
			emitw_i32c(W, (int32_t)v);
			emitw_op(W, OP_I32_EQ);
		}
		if (p->lit.kind != HIR_BOOL && p->lit.kind != HIR_CHAR && p->lit.kind != HIR_INT) {
			emitw_op(W, OP_DROP);
			emitw_i32c(W, 0);   /* any other literal kind never matches (hir.h) */
		}
		return true;
	}
	case HIR_PAT_CASE: case HIR_PAT_RECORD:
		if (p->kind == HIR_PAT_CASE) {
			emitw_op_u32(W, OP_LOCAL_GET, base);
			emitw_i32c(W, p->case_index);
			emitw_op(W, OP_I32_EQ);
		} else {
			emitw_i32c(W, 1);
		}
		for (int i = 0; i < p->nfields; i++) {
			int off = p->kind == HIR_PAT_CASE ? emitw_case_off(W, emitw_ty(W, p->type), p->case_index, p->fields[i])
							  : emitw_field_off(W, emitw_ty(W, p->type), p->fields[i]);
			if (!test(W, p->subs[i], base + (uint32_t)off))
				return false;
			emitw_op(W, OP_I32_AND);
		}
		return true;
	case HIR_PAT_OR:
		if (has_binds(p))
			break;
		emitw_i32c(W, 0);
		for (int i = 0; i < p->nalts; i++) {
			if (!test(W, p->alts[i], base))
				return false;
			emitw_op(W, OP_I32_OR);
		}
		return true;
	}
	emitw_refuse(W, p->span, "the Wasm lane does not support this pattern yet");
	return false;
}

/* Copies the bindings of p from locals base… into their slots; `take`
 * (match own): the bound owned parts move out of the scrutinee. */
static void
bind(Emitw *W, const HirPattern *p, uint32_t base, bool take)
{
	switch (p->kind) {
	case HIR_PAT_BIND: {
		int n = emitw_flat(W, emitw_ty(W, p->type), NULL);
		emitw_load(W, base, n);
		emitw_store(W, W->slot_base[p->slot], n);
		if (take)
			emitw_zero_heap(W, base, emitw_ty(W, p->type));
		return;
	}
	case HIR_PAT_CASE: case HIR_PAT_RECORD:
		for (int i = 0; i < p->nfields; i++) {
			int off = p->kind == HIR_PAT_CASE ? emitw_case_off(W, emitw_ty(W, p->type), p->case_index, p->fields[i])
							  : emitw_field_off(W, emitw_ty(W, p->type), p->fields[i]);
			bind(W, p->subs[i], base + (uint32_t)off, take);
		}
		return;
	default:
		return;   /* OR patterns with bindings are refused by test() */
	}
}

/* The arms as one chain `if (arm 0 matches) value 0 else if … else
 * unreachable end … end`, emitted by a loop (a match of 100,000 arms used
 * to recurse once per arm and overflow the stack). */
static bool
arms(Emitw *W, const HirExpr *e, uint32_t base, const uint8_t *ty, int n, TypeId as, bool own)
{
	for (int k = 0; k < e->u.match.narms; k++) {
		const HirArm *a = &e->u.match.arms[k];
		if (!test(W, a->pat, base))
			return false;
		if (a->guard) {
			/* guards only in a plain match (T254): the guard's bindings copy,
			 * the scrutinee keeps what they name */
			ASSERT(!own, "match.c: a guard under `match own`");
			emitw_open(W, OP_IF, VT_I32, 1);
			bind(W, a->pat, base, false);
			int gm = emitw_otemps_mark(W);
			if (!emitw_lend(W, a->guard))
				return false;
			emitw_otemps_release(W, gm);
			emitw_op(W, OP_ELSE);
			emitw_i32c(W, 0);
			emitw_end(W);
		}
		emitw_open(W, OP_IF, ty, n);
		bind(W, a->pat, base, own);
		if (!(as != WASM_DISCARD ? emitw_value(W, a->value, as, e->lends) : emitw_discard(W, a->value)))
			return false;
		/* the arm's owned bindings, at its end */
		const HirInst *in = &W->M->insts[W->inst];
		for (int i = a->nbinds - 1; i >= 0; i--)
			if (in->slot_owned[a->binds[i]] && emitw_has_heap(W, in->slot_type[a->binds[i]]))
				emitw_release(W, W->slot_base[a->binds[i]], in->slot_type[a->binds[i]]);
		emitw_op(W, OP_ELSE);
	}
	emitw_op(W, OP_UNREACHABLE);
	for (int k = 0; k < e->u.match.narms; k++)
		emitw_end(W);
	return true;
}

bool
emitw_match(Emitw *W, const HirExpr *e, TypeId as)
{
	uint8_t sty[FLAT_MAX], ty[FLAT_MAX];
	const HirExpr *s = e->u.match.scrutinee;
	int sn = emitw_flat_or_refuse(W, emitw_ty(W, s->type), s->span, sty);
	int n = 0;
	if (sn >= 0 && as != WASM_DISCARD)
		n = emitw_flat_or_refuse(W, as, e->span, ty);
	if (sn < 0 || n < 0)
		return false;
	TypeId st = emitw_ty(W, s->type);
	/* match own consumes the scrutinee: it lives in an owned temporary, the
	 * bound parts move out, the rest is released after the statement */
	bool own = e->u.match.mode == MATCH_OWN && emitw_has_heap(W, st);
	uint32_t base;
	if (own) {
		if (!emitw_own(W, s, st))
			return false;
		base = emitw_hold_base(W, st);
	} else {
		if (!emitw_lend(W, s))
			return false;
		base = emitw_locals(W, sty, sn);
		emitw_store(W, base, sn);
	}
	return arms(W, e, base, ty, n, as, own);
}

bool
emitw_try(Emitw *W, const HirExpr *e)
{
	const HirExpr *x = e->u.try_.x;
	uint8_t xty[FLAT_MAX], rty[FLAT_MAX];
	int xn = emitw_flat_or_refuse(W, emitw_ty(W, x->type), x->span, xty);
	int rn = xn < 0 ? -1 : emitw_flat_or_refuse(W, emitw_ty(W, W->f->result), e->span, rty);
	int vn = rn < 0 ? -1 : emitw_flat_or_refuse(W, emitw_ty(W, e->type), e->span, NULL);
	if (vn < 0 || !emitw_own(W, x, emitw_ty(W, x->type)))
		return false;
	uint32_t xb = emitw_locals(W, xty, xn);
	emitw_store(W, xb, xn);
	/* failure: tag != 0 for Result (Err = 1), tag == 0 for Option (None = 0) */
	emitw_op_u32(W, OP_LOCAL_GET, xb);
	if (e->u.try_.option)
		emitw_op(W, OP_I32_EQZ);
	emitw_open(W, OP_IF, NULL, 0);
	uint32_t rb = emitw_locals(W, rty, rn);
	for (int i = 0; i < rn; i++) {
		switch (rty[i]) {
		case WT_I32: emitw_i32c(W, 0); break;
		case WT_I64: emitw_i64c(W, 0); break;
		case WT_F32: emitw_op(W, OP_F32_CONST); wasm_f32(W->c, 0); break;
		default: emitw_op(W, OP_F64_CONST); wasm_f64(W->c, 0); break;
		}
		emitw_op_u32(W, OP_LOCAL_SET, rb + (uint32_t)i);
	}
	if (!e->u.try_.option) {
		/* Err(e): tag 1, the error payload copied (the same type E) */
		int from = emitw_case_off(W, emitw_ty(W, x->type), 1, 0), to = emitw_case_off(W, emitw_ty(W, W->f->result), 1, 0);
		int en = emitw_flat(W, sema_case_field_type(W->S, emitw_ty(W, x->type), 1, 0), NULL);
		emitw_load(W, xb + (uint32_t)from, en);
		emitw_store(W, rb + (uint32_t)to, en);
		emitw_i32c(W, 1);
		emitw_op_u32(W, OP_LOCAL_SET, rb);
	}
	emitw_load(W, rb, rn);
	emitw_op_u32(W, OP_BR, (uint32_t)(W->depth - W->body_depth));
	emitw_end(W);
	/* success: Some(v) = case 1 field 0, Ok(v) = case 0 field 0 */
	emitw_load(W, xb + (uint32_t)emitw_case_off(W, emitw_ty(W, x->type), e->u.try_.option ? 1 : 0, 0), vn);
	return true;
}
