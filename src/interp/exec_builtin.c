/*
 * exec_builtin.c — the hottest compiler-owned functions as their own nodes
 * (node.h): Vec and byte reads through a slot, and the scalar conversions.
 * Each behaves exactly as the generic dispatch in builtins_rt.c (same
 * statuses, same steps); compile.c picks one only when the static types
 * and argument shapes fit.
 */
#include "node.h"

#include "../rt/rt.h"

/* vec_get<T> / vec_clone_at<T>(slot, i) with a Copy-scalar T: the call and
 * the slot read charge together (nothing observable between them). */
static Value
xb_vec_get_slot(Interp *I, Value *S, const Node *n)
{
	CHARGE(I, 2);
	Value i = node_eval(I, S, n->kids[1]);
	if (STOPPED)
		return v_empty();
	const VecObj *v = S[n->a].p;
	if (i.u >= v->len) {
		interp_fail(I, RT_DOM_VEC, RT_VEC_INDEX);
		return v_empty();
	}
	return v->items[i.u];
}

static Value
xb_vec_len_slot(Interp *I, Value *S, const Node *n)
{
	CHARGE(I, 2);
	const VecObj *v = S[n->a].p;
	Value r = v_int(V_USIZE, 0);
	r.u = v->len;
	return r;
}

static Value
xb_byte_len_slot(Interp *I, Value *S, const Node *n)
{
	CHARGE(I, 2);
	size_t len;
	interp_value_bytes(&S[n->a], &len);
	Value r = v_int(V_USIZE, 0);
	r.u = len;
	return r;
}

/* byte_get(slot, i) -> Option<u8>: Some is case 1 with the byte, None case 0. */
static Value
xb_byte_get_slot(Interp *I, Value *S, const Node *n)
{
	CHARGE(I, 2);
	Value i = node_eval(I, S, n->kids[1]);
	if (STOPPED)
		return v_empty();
	size_t len;
	const uint8_t *p = interp_value_bytes(&S[n->a], &len);
	if (i.u >= len)
		return v_ptr(V_VARIANT, NULL, 0);
	Obj *o = interp_obj_new(&I->heap, 1);
	o->f[0] = v_int(V_U8, p[i.u]);
	return v_ptr(V_VARIANT, o, 1);
}

bool
interp_builtin_is_byte_get_slot(const Node *n)
{
	return n->fn == xb_byte_get_slot;
}

/* The k operands of an update call, in order, into a: false when the run
 * stopped, the buffer a[0] released if a later operand stopped it (a middle
 * one is an index, which holds nothing). */
static inline bool
update_operands(Interp *I, Value *S, const Node *n, Value *a, int k)
{
	for (int j = 0; j < k; j++) {
		a[j] = node_eval(I, S, n->kids[j]);
		if (STOPPED) {
			if (j > 0)
				value_release(&I->heap, a[0]);
			return false;
		}
	}
	return true;
}

/* bytes_set(b, i, v): the generic call without the dispatch. */
static Value
xb_bytes_set(Interp *I, Value *S, const Node *n)
{
	CHARGE(I, 1);
	Value a[3];
	if (!update_operands(I, S, n, a, 3))
		return v_empty();
	Value b = value_own(&I->heap, a[0]), i = a[1], x = a[2];
	Bytes *bb = b.p;
	if (i.u >= bb->len) {
		value_release(&I->heap, b);
		interp_fail(I, RT_DOM_BYTEBUF, RT_BYTEBUF_INDEX);
		return v_empty();
	}
	bb->data[i.u] = (uint8_t)x.u;
	return b;
}

/* vec_push<T>(v, x) and vec_set<T>(v, i, x): the generic calls without
 * the dispatch (builtins_rt.c run_vec). */
static Value
xb_vec_push(Interp *I, Value *S, const Node *n)
{
	CHARGE(I, 1);
	Value a[2];
	if (!update_operands(I, S, n, a, 2))
		return v_empty();
	Value v = value_own(&I->heap, a[0]), x = a[1];
	VecObj *vo = v.p;
	if (vo->len >= vo->cap) {
		value_release(&I->heap, x);
		value_release(&I->heap, v);
		interp_fail(I, RT_DOM_VEC, RT_VEC_FULL);
		return v_empty();
	}
	vo->items[vo->len++] = value_own(&I->heap, x);
	return v;
}

static Value
xb_vec_set(Interp *I, Value *S, const Node *n)
{
	CHARGE(I, 1);
	Value a[3];
	if (!update_operands(I, S, n, a, 3))
		return v_empty();
	Value v = value_own(&I->heap, a[0]), i = a[1], x = a[2];
	VecObj *vo = v.p;
	if (i.u >= vo->len) {
		value_release(&I->heap, x);
		value_release(&I->heap, v);
		interp_fail(I, RT_DOM_VEC, RT_VEC_INDEX);
		return v_empty();
	}
	value_release(&I->heap, vo->items[i.u]);
	vo->items[i.u] = value_own(&I->heap, x);
	return v;
}

/* bytes_as_slice / string_as_str of a slot holding a Bytes or string: a
 * view of the slot's storage.  The generic call reads the slot as a
 * borrowed alias, which it never keeps as a temporary, so the view lives
 * as long as the slot does either way (compile.c does not count it as a
 * view temporary of its block). */
static Value
xb_view_slot(Interp *I, Value *S, const Node *n)
{
	CHARGE(I, 2);
	size_t len;
	const uint8_t *p = interp_value_bytes(&S[n->a], &len);
	Value v = v_ptr(V_VIEW, NULL, (uint32_t)len);
	v.bytes = p;
	return v;
}

bool
interp_builtin_is_view_slot(NodeFn f)
{
	return f == xb_view_slot;
}

/*
 * In-place updates (superinstructions): the statement `x = bytes_set(x, i, v)`,
 * `x = vec_set<T>(x, i, v)` or `x = vec_push<T>(x, v)` with x a local moved
 * into the call and T a Copy scalar (compile.c).  The buffer stays in x's
 * slot instead of being moved out, updated and stored back; the steps are
 * the call's and the move's (together: nothing happens between them), then
 * the other arguments'.  On a failure the buffer stays in the slot, whose
 * release (scope or frame end) is not observable for bytes and scalars.
 */
#define INPLACE_ARGS(k) \
	CHARGE(I, 2); \
	Value *sl = &S[n->a]; \
	Value args_[2]; \
	for (int i_ = 0; i_ < (k); i_++) { \
		args_[i_] = node_eval(I, S, n->kids[i_ + 1]); \
		if (STOPPED) \
			return v_empty(); \
	} \
	if (sl->borrowed) \
		*sl = interp_value_clone(&I->heap, *sl);

/* Stores a scalar field by field (a whole-Value copy of a value just
 * returned in two registers stalls on store forwarding). */
static inline void
store_scalar(Value *d, Value x)
{
	d->u = x.u;
	d->n = x.n;
	d->tag = x.tag;
	d->borrowed = 0;
}

static Value
xs_bytes_set_inplace(Interp *I, Value *S, const Node *n)
{
	INPLACE_ARGS(2)
	Bytes *bb = sl->p;
	if (args_[0].u >= bb->len) {
		interp_fail(I, RT_DOM_BYTEBUF, RT_BYTEBUF_INDEX);
		return v_empty();
	}
	bb->data[args_[0].u] = (uint8_t)args_[1].u;
	return v_empty();
}

static Value
xs_vec_set_inplace(Interp *I, Value *S, const Node *n)
{
	INPLACE_ARGS(2)
	VecObj *vo = sl->p;
	if (args_[0].u >= vo->len) {
		interp_fail(I, RT_DOM_VEC, RT_VEC_INDEX);
		return v_empty();
	}
	store_scalar(&vo->items[args_[0].u], args_[1]);
	return v_empty();
}

static Value
xs_vec_push_inplace(Interp *I, Value *S, const Node *n)
{
	INPLACE_ARGS(1)
	VecObj *vo = sl->p;
	if (vo->len >= vo->cap) {
		interp_fail(I, RT_DOM_VEC, RT_VEC_FULL);
		return v_empty();
	}
	store_scalar(&vo->items[vo->len++], args_[0]);
	return v_empty();
}

/* The in-place statements whose other arguments are all scalar slots or
 * literals: every step charged at once (nothing happens between them). */
static inline Value
leaf(const Value *S, const Node *k)
{
	return k->fn == interp_x_int ? k->k : S[k->a];
}

static Value
xs_bytes_set_inplace_leaf(Interp *I, Value *S, const Node *n)
{
	CHARGE(I, 4);
	Value *sl = &S[n->a];
	size_t i = leaf(S, n->kids[1]).u;
	uint8_t x = (uint8_t)leaf(S, n->kids[2]).u;
	if (sl->borrowed)
		*sl = interp_value_clone(&I->heap, *sl);
	Bytes *bb = sl->p;
	if (i >= bb->len) {
		interp_fail(I, RT_DOM_BYTEBUF, RT_BYTEBUF_INDEX);
		return v_empty();
	}
	bb->data[i] = x;
	return v_empty();
}

static Value
xs_vec_set_inplace_leaf(Interp *I, Value *S, const Node *n)
{
	CHARGE(I, 4);
	Value *sl = &S[n->a];
	size_t i = leaf(S, n->kids[1]).u;
	Value x = leaf(S, n->kids[2]);
	if (sl->borrowed)
		*sl = interp_value_clone(&I->heap, *sl);
	VecObj *vo = sl->p;
	if (i >= vo->len) {
		interp_fail(I, RT_DOM_VEC, RT_VEC_INDEX);
		return v_empty();
	}
	store_scalar(&vo->items[i], x);
	return v_empty();
}

static Value
xs_vec_push_inplace_leaf(Interp *I, Value *S, const Node *n)
{
	CHARGE(I, 3);
	Value *sl = &S[n->a];
	Value x = leaf(S, n->kids[1]);
	if (sl->borrowed)
		*sl = interp_value_clone(&I->heap, *sl);
	VecObj *vo = sl->p;
	if (vo->len >= vo->cap) {
		interp_fail(I, RT_DOM_VEC, RT_VEC_FULL);
		return v_empty();
	}
	store_scalar(&vo->items[vo->len++], x);
	return v_empty();
}

NodeFn
interp_builtin_inplace_fn(int index, bool leaves)
{
	switch (index) {
	case BI_bytes_set: return leaves ? xs_bytes_set_inplace_leaf : xs_bytes_set_inplace;
	case BI_vec_set: return leaves ? xs_vec_set_inplace_leaf : xs_vec_set_inplace;
	case BI_vec_push: return leaves ? xs_vec_push_inplace_leaf : xs_vec_push_inplace;
	default: return NULL;
	}
}

/* One-argument scalar conversions (§5.1), one function each. */
#define CONVERT(name, BODY) \
static Value \
xb_##name(Interp *I, Value *S, const Node *n) \
{ \
	CHARGE(I, 1); \
	Value x = node_eval(I, S, n->kids[0]); \
	if (STOPPED) \
		return v_empty(); \
	BODY \
}
#define CONVERT_FAIL { interp_fail(I, RT_DOM_CONVERT, RT_CONVERT_RANGE); return v_empty(); }

CONVERT(f64_from_i64, { Value r = v_int(V_F64, 0); r.f = (double)x.i; return r; })
CONVERT(i64_from_u8, { return v_int(V_I64, x.i); })
CONVERT(usize_from_u8, { return v_int(V_USIZE, x.i); })
CONVERT(usize_from_i64, { if (rt_usize_from_i64(x.i)) CONVERT_FAIL return v_int(V_USIZE, x.i); })
CONVERT(i64_from_usize, { if (rt_i64_from_usize(x.u)) CONVERT_FAIL return v_int(V_I64, x.i); })
CONVERT(u8_from_i64, { if (rt_u8_from_i64(x.i)) CONVERT_FAIL return v_int(V_U8, x.i); })

NodeFn
interp_builtin_fn(int index, const HirExpr *call)
{
	HirExpr *const *args = call->u.call.args;
	bool slot0 = call->u.call.nargs > 0 && args[0]->kind == HIR_LOCAL;
	bool scalar = call->type >= TYPE_FIRST_SCALAR && call->type <= TYPE_LAST_SCALAR;
	switch (index) {
	case BI_vec_get: case BI_vec_clone_at:
		return slot0 && scalar ? xb_vec_get_slot : NULL;
	case BI_vec_len:
		return slot0 ? xb_vec_len_slot : NULL;
	case BI_byte_len:
		return slot0 ? xb_byte_len_slot : NULL;
	case BI_byte_get:
		return slot0 ? xb_byte_get_slot : NULL;
	case BI_bytes_as_slice:
		return slot0 && args[0]->type == TY_BYTES ? xb_view_slot : NULL;
	case BI_string_as_str:
		return slot0 && args[0]->type == TY_STRING ? xb_view_slot : NULL;
	case BI_bytes_set:
		return xb_bytes_set;
	case BI_vec_push:
		return xb_vec_push;
	case BI_vec_set:
		return xb_vec_set;
	case BI_f64_from_i64: return xb_f64_from_i64;
	case BI_i64_from_u8: case BI_i64_from_i32: return xb_i64_from_u8;
	case BI_usize_from_u8: return xb_usize_from_u8;
	case BI_usize_from_i64: return xb_usize_from_i64;
	case BI_i64_from_usize: return xb_i64_from_usize;
	case BI_u8_from_i64: return xb_u8_from_i64;
	default:
		return NULL;
	}
}
