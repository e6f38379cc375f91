/*
 * eval.c — the evaluator: expressions, statements, blocks, calls,
 * contracts, matches (LANGUAGE.md §4), over the HIR of hir.h.
 *
 * Every evaluation first charges one step (§0.4).  When I->stop is set the
 * evaluation returns V_EMPTY at once; callers release what they hold and
 * return too, so failures unwind through every block's cleanup list and
 * every frame's slot sweep (§0.12).  Value ownership: see value.h.
 */
#include "interp.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct Frame {
	const HirFunc *f;
	Value *slots;
} Frame;

static Value ev(Interp *I, Frame *F, const HirExpr *e);
static Value run_block(Interp *I, Frame *F, const HirBlock *b);
static Value call_func(Interp *I, int fi, Value *args, int nargs, const Obj *caps);

#define STOPPED (I->stop != STOP_NONE)

void
interp_fail(Interp *I, Domain d, uint32_t code)
{
	if (STOPPED)
		return;
	I->stop = STOP_STATUS;
	I->res->domain = d;
	I->res->code = code;
}

void
interp_limit(Interp *I, const char *fmt, ...)
{
	if (STOPPED)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(I->res->message, sizeof I->res->message, fmt, ap);
	va_end(ap);
	I->stop = STOP_LIMIT;
}

static inline void
slot_set(Value *s, Value v)
{
	value_release(*s);
	*s = v;
}

static inline void
slot_clear(Value *s)
{
	value_release(*s);
	*s = v_empty();
}

/* ---- arithmetic (§3.7) ---- */

enum { AR_ADD = 1, AR_SUB, AR_MUL, AR_DIV0, AR_DIVOV, AR_REM0, AR_REMOV, AR_NEG };

static __attribute__((noinline)) Value
arith_int(Interp *I, BinaryOp op, Value a, Value b)
{
	Value r = a;
	switch ((VTag)a.tag) {
	case V_I64: {
		int64_t x = a.i, y = b.i, z = 0;
		switch (op) {
		case BIN_ADD: if (__builtin_add_overflow(x, y, &z)) goto add; break;
		case BIN_SUB: if (__builtin_sub_overflow(x, y, &z)) goto sub; break;
		case BIN_MUL: if (__builtin_mul_overflow(x, y, &z)) goto mul; break;
		case BIN_DIV:
			if (y == 0) goto div0;
			if (x == INT64_MIN && y == -1) goto divov;
			z = x / y;
			break;
		case BIN_REM:
			if (y == 0) goto rem0;
			if (x == INT64_MIN && y == -1) goto remov;
			z = x % y;
			break;
		default: break;
		}
		r.i = z;
		return r;
	}
	case V_I32: case V_U8: {
		int64_t x = a.i, y = b.i, z = 0;
		int64_t lo = a.tag == V_I32 ? INT32_MIN : 0, hi = a.tag == V_I32 ? INT32_MAX : 255;
		switch (op) {
		case BIN_ADD: z = x + y; if (z < lo || z > hi) goto add; break;
		case BIN_SUB: z = x - y; if (z < lo || z > hi) goto sub; break;
		case BIN_MUL: z = x * y; if (z < lo || z > hi) goto mul; break;
		case BIN_DIV:
			if (y == 0) goto div0;
			z = x / y;
			if (z > hi) goto divov;
			break;
		case BIN_REM:
			if (y == 0) goto rem0;
			if (x == lo && y == -1 && lo < 0) goto remov;
			z = x % y;
			break;
		default: break;
		}
		r.i = z;
		return r;
	}
	case V_USIZE: {
		uint64_t x = a.u, y = b.u, z = 0;
		switch (op) {
		case BIN_ADD: if (__builtin_add_overflow(x, y, &z)) goto add; break;
		case BIN_SUB: if (__builtin_sub_overflow(x, y, &z)) goto sub; break;
		case BIN_MUL: if (__builtin_mul_overflow(x, y, &z)) goto mul; break;
		case BIN_DIV: if (y == 0) goto div0; z = x / y; break;
		case BIN_REM: if (y == 0) goto rem0; z = x % y; break;
		default: break;
		}
		r.u = z;
		return r;
	}
	case V_F64:
		switch (op) {
		case BIN_ADD: r.f = a.f + b.f; break;
		case BIN_SUB: r.f = a.f - b.f; break;
		case BIN_MUL: r.f = a.f * b.f; break;
		case BIN_DIV: r.f = a.f / b.f; break;
		default: break;
		}
		return r;
	case V_F32:
		switch (op) {
		case BIN_ADD: r.f32 = a.f32 + b.f32; break;
		case BIN_SUB: r.f32 = a.f32 - b.f32; break;
		case BIN_MUL: r.f32 = a.f32 * b.f32; break;
		case BIN_DIV: r.f32 = a.f32 / b.f32; break;
		default: break;
		}
		return r;
	default:
		interp_limit(I, "arithmetic on an unsupported value");
		return v_empty();
	}
add: interp_fail(I, DOM_ARITH, AR_ADD); return v_empty();
sub: interp_fail(I, DOM_ARITH, AR_SUB); return v_empty();
mul: interp_fail(I, DOM_ARITH, AR_MUL); return v_empty();
div0: interp_fail(I, DOM_ARITH, AR_DIV0); return v_empty();
divov: interp_fail(I, DOM_ARITH, AR_DIVOV); return v_empty();
rem0: interp_fail(I, DOM_ARITH, AR_REM0); return v_empty();
remov: interp_fail(I, DOM_ARITH, AR_REMOV); return v_empty();
}

static inline VTag
scalar_tag(TypeId t)
{
	switch (t) {
	case TY_I32: return V_I32;
	case TY_U8: return V_U8;
	case TY_USIZE: return V_USIZE;
	case TY_F32: return V_F32;
	case TY_F64: return V_F64;
	default: return V_I64;
	}
}

/* ev with the commonest leaves (a local read, an integer literal) evaluated
 * in place: same step charge, same result, no call. */
static inline Value
ev_fast(Interp *I, Frame *F, const HirExpr *e)
{
	if (e->kind == HIR_LOCAL) {
		const Value *s = &F->slots[e->u.slot];
		if (s->tag < V_STRING) {
			if (++I->steps > I->budget) {
				I->stop = STOP_FUEL;
				return v_empty();
			}
			return *s;
		}
	} else if (e->kind == HIR_INT) {
		if (++I->steps > I->budget) {
			I->stop = STOP_FUEL;
			return v_empty();
		}
		Value v = v_int(scalar_tag(e->type), 0);
		v.u = e->u.lit.negative ? (uint64_t)0 - e->u.lit.i : e->u.lit.i;
		return v;
	} else if (e->kind == HIR_FLOAT && e->type == TY_F64) {
		if (++I->steps > I->budget) {
			I->stop = STOP_FUEL;
			return v_empty();
		}
		Value v = v_int(V_F64, 0);
		v.f = e->u.lit.f;
		return v;
	}
	return ev(I, F, e);
}

static __attribute__((noinline)) Value
eval_unary(Interp *I, Frame *F, const HirExpr *e)
{
	Value x = ev(I, F, e->u.un.x);
	if (STOPPED)
		return v_empty();
	if (e->u.un.op == UN_NOT) {
		x.b = !x.b;
		return x;
	}
	switch ((VTag)x.tag) {
	case V_I64:
		if (x.i == INT64_MIN)
			goto neg;
		x.i = -x.i;
		return x;
	case V_I32:
		if (x.i == INT32_MIN)
			goto neg;
		x.i = -x.i;
		return x;
	case V_F64:
		x.f = -x.f;
		return x;
	case V_F32:
		x.f32 = -x.f32;
		return x;
	default:
		interp_limit(I, "negation of an unsupported value");
		return v_empty();
	}
neg:
	interp_fail(I, DOM_ARITH, AR_NEG);
	return v_empty();
}

static Value
eval_binary(Interp *I, Frame *F, const HirExpr *e)
{
	BinaryOp op = e->u.bin.op;
	Value l = ev_fast(I, F, e->u.bin.l);
	if (STOPPED)
		return v_empty();
	if (op == BIN_AND || op == BIN_OR) {
		if (l.b == (op == BIN_OR))
			return l;
		return ev(I, F, e->u.bin.r);
	}
	Value r = ev_fast(I, F, e->u.bin.r);
	if (STOPPED) {
		value_release(l);
		return v_empty();
	}
	if (l.tag == V_I64) {
		int64_t x = l.i, y = r.i, z;
		switch (op) {
		case BIN_EQ: return v_bool(x == y);
		case BIN_NE: return v_bool(x != y);
		case BIN_LT: return v_bool(x < y);
		case BIN_LE: return v_bool(x <= y);
		case BIN_GT: return v_bool(x > y);
		case BIN_GE: return v_bool(x >= y);
		case BIN_ADD: if (__builtin_add_overflow(x, y, &z)) break; l.i = z; return l;
		case BIN_SUB: if (__builtin_sub_overflow(x, y, &z)) break; l.i = z; return l;
		case BIN_MUL: if (__builtin_mul_overflow(x, y, &z)) break; l.i = z; return l;
		case BIN_DIV: if (y == 0 || (x == INT64_MIN && y == -1)) break; l.i = x / y; return l;
		case BIN_REM: if (y == 0 || (x == INT64_MIN && y == -1)) break; l.i = x % y; return l;
		default: break;
		}
	} else if (l.tag == V_USIZE || l.tag == V_U8 || l.tag == V_CHAR) {
		uint64_t x = l.u, y = r.u, z;
		switch (op) {
		case BIN_EQ: return v_bool(x == y);
		case BIN_NE: return v_bool(x != y);
		case BIN_LT: return v_bool(x < y);
		case BIN_LE: return v_bool(x <= y);
		case BIN_GT: return v_bool(x > y);
		case BIN_GE: return v_bool(x >= y);
		case BIN_ADD:
			if (l.tag != V_USIZE || __builtin_add_overflow(x, y, &z)) break;
			l.u = z;
			return l;
		case BIN_SUB:
			if (l.tag != V_USIZE || __builtin_sub_overflow(x, y, &z)) break;
			l.u = z;
			return l;
		default: break;
		}
	} else if (l.tag == V_F64) {
		double x = l.f, y = r.f;
		switch (op) {
		case BIN_EQ: return v_bool(x == y);
		case BIN_NE: return v_bool(!(x == y));
		case BIN_LT: return v_bool(x < y);
		case BIN_LE: return v_bool(x <= y);
		case BIN_GT: return v_bool(x > y);
		case BIN_GE: return v_bool(x >= y);
		case BIN_ADD: l.f = x + y; return l;
		case BIN_SUB: l.f = x - y; return l;
		case BIN_MUL: l.f = x * y; return l;
		case BIN_DIV: l.f = x / y; return l;
		default: break;
		}
	}
	return interp_binary(I, op, l, r);
}

Value
interp_binary(Interp *I, BinaryOp op, Value l, Value r)
{
	Value out;
	switch (op) {
	case BIN_EQ: out = v_bool(value_equal(&l, &r)); break;
	case BIN_NE: out = v_bool(!value_equal(&l, &r)); break;
	case BIN_LT: out = v_bool(value_compare(&l, &r) == -1); break;
	case BIN_LE: { int c = value_compare(&l, &r); out = v_bool(c == -1 || c == 0); break; }
	case BIN_GT: out = v_bool(value_compare(&l, &r) == 1); break;
	case BIN_GE: { int c = value_compare(&l, &r); out = v_bool(c == 1 || c == 0); break; }
	default:
		return arith_int(I, op, l, r);
	}
	value_release(l);
	value_release(r);
	return out;
}

/* ---- calls ---- */

static __attribute__((noinline)) FnInfo *
fn_info_init(Interp *I, int fi)
{
	FnInfo *info = &I->fns[fi];
	{
		const HirFunc *f = &I->H->funcs[fi];
		info->bcache = xcalloc(f->nexprs ? f->nexprs : 1, sizeof(int32_t));
		info->caps = xmalloc(sizeof(HirSlot) * (size_t)(f->nlocals ? f->nlocals : 1));
		for (int i = f->nparams; i < f->nlocals; i++)
			if (f->locals[i].param)
				info->caps[info->ncaps++] = (HirSlot)i;
		info->ready = true;
	}
	return info;
}

static inline FnInfo *
fn_info(Interp *I, int fi)
{
	FnInfo *info = &I->fns[fi];
	return info->ready ? info : fn_info_init(I, fi);
}

/* Evaluates n arguments into out; on a stop releases those evaluated. */
static bool
eval_args(Interp *I, Frame *F, HirExpr *const *xs, int n, Value *out)
{
	for (int i = 0; i < n; i++) {
		out[i] = ev(I, F, xs[i]);
		if (STOPPED) {
			for (int j = 0; j < i; j++)
				value_release(out[j]);
			return false;
		}
	}
	return true;
}

static __attribute__((noinline)) Value
eval_builtin(Interp *I, Frame *F, const HirExpr *e, FnInfo *info)
{
	/* cache: dispatch index + 1 in bits 0..11, the view flag in bit 12,
	 * the borrowed-parameter mask of parameters 0..15 in bits 13..28 */
	int32_t *cache = &info->bcache[e->index];
	if (*cache == 0) {
		int idx = rt_builtin_index(e->u.call.builtin);
		int32_t c = idx + 1;
		if (idx >= 0) {
			if (rt_builtin_view(idx))
				c |= 1 << 12;
			for (int i = 0; i < e->u.call.nargs && i < 16; i++)
				if (rt_builtin_borrows(idx, i))
					c |= (int32_t)1 << (13 + i);
		}
		*cache = c;
	}
	int bi = (*cache & 0xfff) - 1;
	bool view = (*cache >> 12) & 1;
	uint32_t borrows = (uint32_t)*cache >> 13;
	if (bi < 0) {
		interp_limit(I, "the builtin `%s` is not implemented by the interpreter yet", e->u.call.builtin->name);
		return v_empty();
	}
	int n = e->u.call.nargs;
	Value buf[8], *args = n <= 8 ? buf : xmalloc(sizeof(Value) * (size_t)n);
	Value r = v_empty();
	if (eval_args(I, F, e->u.call.args, n, args)) {
		r = rt_builtin_call(I, bi, e, args, n);
		for (int i = 0; i < n; i++) {
			if (i < 16 ? !((borrows >> i) & 1) : !rt_builtin_borrows(bi, i))
				continue;
			if (view && !STOPPED && !args[i].borrowed && args[i].tag >= V_STRING)
				VEC_PUSH(I->temps, args[i]);
			else
				value_release(args[i]);
		}
	}
	if (args != buf)
		free(args);
	return r;
}

static __attribute__((noinline)) Value
eval_call(Interp *I, Frame *F, const HirExpr *e)
{
	int fi;
	const Obj *caps = NULL;
	switch (e->u.call.kind) {
	case CALL_BUILTIN:
		return eval_builtin(I, F, e, fn_info(I, (int)(F->f - I->H->funcs)));
	case CALL_FN:
		fi = I->symfunc[e->u.call.fn];
		break;
	case CALL_SLOT: {
		const Value *c = &F->slots[e->u.call.callee];
		fi = (int)c->n;
		if (c->tag == V_CLOSURE)
			caps = c->p;
		break;
	}
	default:
		UNREACHABLE();
		return v_empty();
	}
	if (fi < 0) {
		interp_limit(I, "call of a function without a body");
		return v_empty();
	}
	int n = e->u.call.nargs;
	Value buf[8], *args = n <= 8 ? buf : xmalloc(sizeof(Value) * (size_t)n);
	Value r = v_empty();
	if (eval_args(I, F, e->u.call.args, n, args))
		r = call_func(I, fi, args, n, caps);
	if (args != buf)
		free(args);
	return r;
}

static bool
check_clauses(Interp *I, Frame *F, HirExpr *const *cs, int n, uint32_t code)
{
	for (int i = 0; i < n; i++) {
		if (++I->steps > I->budget) {
			I->stop = STOP_FUEL;
			return false;
		}
		Value c = ev(I, F, cs[i]);
		if (STOPPED)
			return false;
		if (!c.b) {
			interp_contract_detail(I, F->f, F->slots, i, code);
			interp_fail(I, DOM_CONTRACT, code);
			return false;
		}
	}
	return true;
}

static Value
call_func(Interp *I, int fi, Value *args, int nargs, const Obj *caps)
{
	const HirFunc *f = &I->H->funcs[fi];
	if (I->depth >= INTERP_MAX_DEPTH) {
		I->stop = STOP_DEPTH;
		for (int i = 0; i < nargs; i++)
			value_release(args[i]);
		return v_empty();
	}
	Frame fr = { f, I->stack + I->sp };
	I->sp += (size_t)f->nlocals;
	ASSERT(I->sp <= I->stack_cap, "eval.c: value stack overflow");
	int na = nargs < f->nlocals ? nargs : f->nlocals;
	for (int i = 0; i < na; i++)
		fr.slots[i] = args[i];
	for (int i = na; i < f->nlocals; i++)
		fr.slots[i] = v_empty();
	if (caps) {
		FnInfo *info = fn_info(I, fi);
		for (int i = 0; i < info->ncaps && (uint32_t)i < caps->n; i++)
			fr.slots[info->caps[i]] = value_clone(caps->f[i]);
	}
	I->depth++;
	Value result = v_empty();
	if (f->nrequires && !check_clauses(I, &fr, f->requires, f->nrequires, 1))
		goto out;
	result = run_block(I, &fr, f->body);
	if (I->stop == STOP_RETURN) {
		I->stop = STOP_NONE;
		result = I->ret;
		I->ret = v_empty();
	}
	if (STOPPED)
		goto out;
	result = value_own(result);
	if (f->nensures && f->result_slot != HIR_NO_SLOT) {
		Value alias = result;
		alias.borrowed = 1;
		fr.slots[f->result_slot] = alias;
		check_clauses(I, &fr, f->ensures, f->nensures, 2);
	}
out:
	for (int i = 0; i < f->nlocals; i++)
		value_release(fr.slots[i]);
	I->sp -= (size_t)f->nlocals;
	I->depth--;
	if (STOPPED) {
		value_release(result);
		return v_empty();
	}
	return result;
}

Value
interp_call(Interp *I, int fi, Value *args, int nargs)
{
	return call_func(I, fi, args, nargs, NULL);
}

/*
 * Record invariants (§4.6, §0.7): the HIR lowers them as a function of the
 * record's fields whose `requires` clauses are the invariants, so a false
 * one fails with contract code 1 like a precondition.
 */
bool
interp_check_invariants(Interp *I, SymId sym, Obj *o)
{
	if (STOPPED)
		return false;
	int fi = I->H->invariants[sym];
	if (fi < 0)
		return true;
	int n = I->H->funcs[fi].nparams;
	Value local[16];
	Value *args = n <= 16 ? local : xmalloc(sizeof(Value) * (size_t)n);
	for (int i = 0; i < n; i++)
		args[i] = (uint32_t)i < o->n ? value_clone(o->f[i]) : v_empty();
	Value r = call_func(I, fi, args, n, NULL);
	value_release(r);
	if (args != local)
		free(args);
	return !STOPPED;
}

/* ---- aggregates ---- */

static uint32_t
agg_size(Interp *I, const HirExpr *e)
{
	Sym *s = sema_sym(I->S, e->u.agg.type_sym);
	if (e->kind == HIR_VARIANT)
		return (uint32_t)s->cases[e->u.agg.case_index].nfields;
	return (uint32_t)s->nfields;
}

static __attribute__((noinline)) Value
eval_agg(Interp *I, Frame *F, const HirExpr *e)
{
	Value base = v_empty();
	if (e->kind == HIR_WITH) {
		base = ev(I, F, e->u.agg.base);
		if (STOPPED)
			return v_empty();
		base = value_own(base);
	}
	uint32_t n = e->kind == HIR_WITH ? ((Obj *)base.p)->n : agg_size(I, e);
	if (e->kind == HIR_VARIANT && n == 0)
		return v_ptr(V_VARIANT, NULL, (uint32_t)e->u.agg.case_index);
	Obj *o = obj_new(n);
	for (int i = 0; i < e->u.agg.n; i++) {
		Value v = ev(I, F, e->u.agg.values[i]);
		if (STOPPED) {
			value_release(v_ptr(V_RECORD, o, 0));
			value_release(base);
			return v_empty();
		}
		int fi = e->u.agg.fields[i];
		if (fi >= 0 && (uint32_t)fi < n)
			slot_set(&o->f[fi], value_own(v));
		else
			value_release(v);
	}
	if (e->kind == HIR_WITH) {
		/* replacements complete: release the replaced fields, keep the rest */
		Obj *b = base.p;
		for (uint32_t i = 0; i < n; i++)
			if (o->f[i].tag == V_EMPTY) {
				o->f[i] = b->f[i];
				b->f[i] = v_empty();
			}
		value_release(base);
	}
	obj_update_copy(o);
	if (e->kind == HIR_VARIANT)
		return v_ptr(V_VARIANT, o, (uint32_t)e->u.agg.case_index);
	if (!interp_check_invariants(I, e->u.agg.type_sym, o)) {
		value_release(v_ptr(V_RECORD, o, 0));
		return v_empty();
	}
	return v_ptr(V_RECORD, o, 0);
}

/* local.f.g…: reads the field in place (no copy of the enclosing records);
 * the same steps and result as evaluating the chain; false: not applicable. */
static bool
field_in_place(Interp *I, Frame *F, const HirExpr *e, Value *out)
{
	int path[8], depth = 0;
	const HirExpr *x = e;
	while (x->kind == HIR_FIELD) {
		if (depth == 8)
			return false;
		path[depth++] = x->u.field.field;
		x = x->u.field.base;
	}
	/* e itself is charged already: depth - 1 fields below it, plus the local */
	if (x->kind != HIR_LOCAL || I->steps + (uint64_t)depth > I->budget)
		return false;
	const Value *v = &F->slots[x->u.slot];
	for (int d = depth - 1; d >= 0; d--) {
		const Obj *o = v->p;
		if ((v->tag != V_RECORD && v->tag != V_VARIANT) || !o || path[d] < 0 || (uint32_t)path[d] >= o->n)
			return false;
		v = &o->f[path[d]];
	}
	I->steps += (uint64_t)depth;
	*out = value_read(v);
	return true;
}

static __attribute__((noinline)) Value
eval_field(Interp *I, Frame *F, const HirExpr *e)
{
	Value fast;
	if (field_in_place(I, F, e, &fast))
		return fast;
	Value b = ev(I, F, e->u.field.base);
	if (STOPPED)
		return v_empty();
	Obj *o = b.p;
	int fi = e->u.field.field;
	if ((b.tag != V_RECORD && b.tag != V_VARIANT) || !o || fi < 0 || (uint32_t)fi >= o->n) {
		value_release(b);
		interp_limit(I, "field access on an unsupported value");
		return v_empty();
	}
	if (b.borrowed)
		return value_read(&o->f[fi]);
	Value v = o->f[fi];
	o->f[fi] = v_empty();
	value_release(b);
	return v;
}

static __attribute__((noinline)) Value
eval_try(Interp *I, Frame *F, const HirExpr *e)
{
	Value x = ev(I, F, e->u.try_.x);
	if (STOPPED)
		return v_empty();
	x = value_own(x);
	/* Option: Some is case 1; Result: Ok is case 0. */
	bool success = e->u.try_.option ? x.n == 1 : x.n == 0;
	if (!success) {
		I->ret = x;
		I->stop = STOP_RETURN;
		return v_empty();
	}
	Obj *o = x.p;
	Value v = o->f[0];
	o->f[0] = v_empty();
	value_release(x);
	return v;
}

/* ---- match (§4.5) ---- */

static bool
lit_matches(const Pattern *p, const Value *v)
{
	const Expr *x = p->u.lit.value;
	switch (x->kind) {
	case EXPR_BOOL:
		return v->b == x->u.bool_lit.value;
	case EXPR_CHAR:
		return v->u == x->u.char_lit.value;
	case EXPR_INT: {
		bool neg = p->u.lit.negative || x->u.int_lit.negative;
		uint64_t mag = x->u.int_lit.value;
		if (v->tag == V_U8 || v->tag == V_USIZE)
			return !neg && v->u == mag;
		return neg ? (uint64_t)0 - (uint64_t)v->i == mag && v->i <= 0 : v->i >= 0 && (uint64_t)v->i == mag;
	}
	default:
		return false;
	}
}

static SymId
type_sym(Interp *I, TypeId t)
{
	const TypeInfo *ti = type_info(&I->S->types, t);
	return ti->kind == TY_NOMINAL ? (SymId)ti->decl : -1;
}

static bool
pat_matches(Interp *I, const Pattern *p, int case_index, TypeId t, const Value *v)
{
	switch (p->kind) {
	case PAT_WILD: case PAT_BIND: case PAT_RECORD:
		return true;
	case PAT_LIT:
		return lit_matches(p, v);
	case PAT_OR:
		for (int i = 0; i < p->u.or.nalts; i++)
			if (pat_matches(I, p->u.or.alts[i], -1, t, v))
				return true;
		return false;
	case PAT_CASE: {
		if (case_index < 0) {
			SymId s = type_sym(I, t);
			case_index = s >= 0 ? sema_case_index(I->S, s, p->u.case_.case_name.s) : -1;
		}
		return v->tag == V_VARIANT && (int)v->n == case_index;
	}
	}
	return false;
}

/* The cached index for pattern address key; false when not cached yet. */
static inline bool
pc_get(Interp *I, const void *key, int *out)
{
	if (!I->pc_cap)
		return false;
	size_t m = I->pc_cap - 1, h = ((uintptr_t)key >> 3) * 0x9E3779B97F4A7C15u;
	for (size_t i = (h >> 20) & m;; i = (i + 1) & m) {
		if (I->pc_keys[i] == key) {
			*out = I->pc_vals[i];
			return true;
		}
		if (!I->pc_keys[i])
			return false;
	}
}

static void
pc_put(Interp *I, const void *key, int val)
{
	if (2 * (I->pc_len + 1) > I->pc_cap) {
		size_t oc = I->pc_cap, nc = oc ? 2 * oc : 64;
		const void **ok = I->pc_keys;
		int32_t *ov = I->pc_vals;
		I->pc_keys = xcalloc(nc, sizeof *I->pc_keys);
		I->pc_vals = xcalloc(nc, sizeof *I->pc_vals);
		I->pc_cap = nc;
		I->pc_len = 0;
		for (size_t i = 0; i < oc; i++)
			if (ok[i])
				pc_put(I, ok[i], ov[i]);
		free(ok);
		free(ov);
	}
	size_t m = I->pc_cap - 1, h = ((uintptr_t)key >> 3) * 0x9E3779B97F4A7C15u;
	size_t i = (h >> 20) & m;
	while (I->pc_keys[i] && I->pc_keys[i] != key)
		i = (i + 1) & m;
	if (!I->pc_keys[i])
		I->pc_len++;
	I->pc_keys[i] = key;
	I->pc_vals[i] = val;
}

static Value
take_or_read(Value *v, bool take)
{
	if (!take)
		return value_read(v);
	Value r = *v;
	*v = v_empty();
	return r;
}

static void bind_fields(Interp *I, Frame *F, const FieldPat *fs, int n, Obj *o, TypeId t, int ci,
			const HirSlot *binds, int *k, bool take);

static void
bind_pat(Interp *I, Frame *F, const Pattern *p, TypeId t, Value *v, const HirSlot *binds, int *k, bool take)
{
	switch (p->kind) {
	case PAT_BIND:
		slot_set(&F->slots[binds[(*k)++]], take_or_read(v, take));
		break;
	case PAT_CASE: {
		int ci;
		if (!pc_get(I, p, &ci)) {
			SymId s = type_sym(I, t);
			ci = s >= 0 ? sema_case_index(I->S, s, p->u.case_.case_name.s) : -1;
			pc_put(I, p, ci);
		}
		if (ci >= 0 && v->p)
			bind_fields(I, F, p->u.case_.fields, p->u.case_.nfields, v->p, t, ci, binds, k, take);
		break;
	}
	case PAT_RECORD:
		if (v->p)
			bind_fields(I, F, p->u.record.fields, p->u.record.nfields, v->p, t, -1, binds, k, take);
		break;
	default:
		break;
	}
}

static void
bind_fields(Interp *I, Frame *F, const FieldPat *fs, int n, Obj *o, TypeId t, int ci,
	    const HirSlot *binds, int *k, bool take)
{
	SymId s = type_sym(I, t);
	if (s < 0)
		return;
	Sym *sym = sema_sym(I->S, s);
	for (int i = 0; i < n; i++) {
		int fi = -1;
		if (pc_get(I, &fs[i], &fi)) {
			/* resolved before */
		} else if (ci >= 0) {
			for (int j = 0; j < sym->cases[ci].nfields; j++)
				if (strcmp(sym->cases[ci].fields[j].name, fs[i].name.s) == 0)
					fi = j;
			pc_put(I, &fs[i], fi);
		} else {
			fi = sema_field_index(I->S, s, fs[i].name.s);
			pc_put(I, &fs[i], fi);
		}
		if (fi < 0 || (uint32_t)fi >= o->n)
			continue;
		if (!fs[i].sub) {
			slot_set(&F->slots[binds[(*k)++]], take_or_read(&o->f[fi], take));
		} else {
			TypeId ft = ci >= 0 ? sema_case_field_type(I->S, t, ci, fi) : sema_field_type(I->S, t, fi);
			bind_pat(I, F, fs[i].sub, ft, &o->f[fi], binds, k, take);
		}
	}
}

static __attribute__((noinline)) Value
eval_match(Interp *I, Frame *F, const HirExpr *e)
{
	Value s = ev(I, F, e->u.match.scrutinee);
	if (STOPPED)
		return v_empty();
	bool own = e->u.match.mode == MATCH_OWN && !s.borrowed;
	TypeId t = e->u.match.scrutinee->type;
	for (int i = 0; i < e->u.match.narms; i++) {
		const HirArm *a = &e->u.match.arms[i];
		if (!pat_matches(I, a->pat, a->case_index, t, &s))
			continue;
		int k = 0;
		bind_pat(I, F, a->pat, t, &s, a->binds, &k, false);
		if (a->guard) {
			Value g = ev(I, F, a->guard);
			if (STOPPED || !g.b) {
				for (int j = 0; j < a->nbinds; j++)
					slot_clear(&F->slots[a->binds[j]]);
				if (STOPPED)
					break;
				continue;
			}
		}
		if (own) {
			k = 0;
			bind_pat(I, F, a->pat, t, &s, a->binds, &k, true);
		}
		Value v = ev(I, F, a->value);
		if (!STOPPED)
			v = value_own(v);
		for (int j = a->scope->nowned - 1; j >= 0; j--)
			slot_clear(&F->slots[a->scope->owned[j]]);
		for (int j = 0; j < a->nbinds; j++)
			slot_clear(&F->slots[a->binds[j]]);
		value_release(s);
		return v;
	}
	value_release(s);
	if (!STOPPED)
		interp_limit(I, "no match arm matched (an internal error)");
	return v_empty();
}

/* ---- expressions ---- */


static Value
ev(Interp *I, Frame *F, const HirExpr *e)
{
	if (++I->steps > I->budget) {
		I->stop = STOP_FUEL;
		return v_empty();
	}
	switch (e->kind) {
	case HIR_INT: {
		Value v = v_int(scalar_tag(e->type), 0);
		v.u = e->u.lit.negative ? (uint64_t)0 - e->u.lit.i : e->u.lit.i;
		return v;
	}
	case HIR_FLOAT: {
		Value v = v_int(scalar_tag(e->type), 0);
		if (v.tag == V_F32)
			v.f32 = (float)e->u.lit.f;
		else
			v.f = e->u.lit.f;
		return v;
	}
	case HIR_BOOL:
		return v_bool(e->u.lit.b);
	case HIR_CHAR: {
		Value v = v_int(V_CHAR, 0);
		v.u = e->u.lit.ch;
		return v;
	}
	case HIR_STRING:
		return string_value(e->u.lit.s, e->u.lit.n);
	case HIR_LOCAL:
		return value_read(&F->slots[e->u.slot]);
	case HIR_MOVE: {
		Value v = F->slots[e->u.slot];
		F->slots[e->u.slot] = v_empty();
		return v;
	}
	case HIR_FUNC:
		return v_ptr(V_FN, NULL, (uint32_t)I->symfunc[e->u.call.fn]);
	case HIR_UNARY:
		return eval_unary(I, F, e);
	case HIR_BINARY:
		return eval_binary(I, F, e);
	case HIR_CALL:
		return eval_call(I, F, e);
	case HIR_FIELD:
		return eval_field(I, F, e);
	case HIR_TRY:
		return eval_try(I, F, e);
	case HIR_WITH: case HIR_RECORD: case HIR_VARIANT:
		return eval_agg(I, F, e);
	case HIR_BLOCK:
		return run_block(I, F, e->u.block);
	case HIR_IF: {
		Value c = ev_fast(I, F, e->u.if_.cond);
		if (STOPPED)
			return v_empty();
		const HirBlock *b = c.b ? e->u.if_.then_ : e->u.if_.else_;
		return b ? run_block(I, F, b) : v_empty();
	}
	case HIR_MATCH:
		return eval_match(I, F, e);
	case HIR_CLOSURE: {
		Obj *o = obj_new((uint32_t)e->u.closure.ncaptures);
		for (int i = 0; i < e->u.closure.ncaptures; i++)
			o->f[i] = value_read(&F->slots[e->u.closure.captures[i]]);
		obj_update_copy(o);
		return v_ptr(V_CLOSURE, o, (uint32_t)e->u.closure.func);
	}
	case HIR_ARRAY: {
		Bytes *b = bytes_new(NULL, 0);
		for (int i = 0; i < e->u.array.n; i++) {
			Value x = ev(I, F, e->u.array.elems[i]);
			if (STOPPED) {
				value_release(v_ptr(V_ARRAY, b, 0));
				return v_empty();
			}
			if (b->len == b->cap) {
				b->cap *= 2;
				b->data = xrealloc(b->data, b->cap);
			}
			b->data[b->len++] = (uint8_t)x.u;
		}
		return v_ptr(V_ARRAY, b, 0);
	}
	}
	UNREACHABLE();
	return v_empty();
}

/* ---- statements and blocks ---- */

static __attribute__((noinline)) void
run_for(Interp *I, Frame *F, const HirStmt *s)
{
	Value it = ev(I, F, s->value);
	if (STOPPED)
		return;
	Value *item = &F->slots[s->slot];
	if (it.tag == V_ITER || (s->own && it.tag == V_VEC)) {
		/* for own: consume the iterator one element at a time */
		it = value_own(it);
		VecObj *v = it.tag == V_ITER ? ((IterObj *)it.p)->v : it.p;
		size_t *pos = it.tag == V_ITER ? &((IterObj *)it.p)->pos : NULL;
		size_t i = pos ? *pos : 0;
		while (i < v->len && !STOPPED) {
			slot_set(item, v->items[i]);
			v->items[i++] = v_empty();
			if (pos)
				*pos = i;
			value_release(run_block(I, F, s->body));
		}
	} else if (it.tag == V_VEC) {
		VecObj *v = it.p;
		size_t len = v->len;
		for (size_t i = 0; i < len && !STOPPED; i++) {
			slot_set(item, value_read(&v->items[i]));
			value_release(run_block(I, F, s->body));
		}
	} else {
		interp_limit(I, "`for` over an unsupported value");
	}
	slot_clear(item);
	value_release(it);
}

static void
exec_stmt(Interp *I, Frame *F, const HirStmt *s)
{
	switch (s->kind) {
	case HS_LET:
	case HS_ASSIGN: {
		Value v = ev_fast(I, F, s->value);
		if (STOPPED)
			return;
		if (s->slot == HIR_NO_SLOT)
			value_release(v);
		else
			slot_set(&F->slots[s->slot], value_own(v));
		return;
	}
	case HS_SET_FIELD: {
		Value v = ev(I, F, s->value);
		if (STOPPED)
			return;
		Value *r = &F->slots[s->slot];
		if ((r->tag != V_RECORD) || s->field < 0 || (uint32_t)s->field >= ((Obj *)r->p)->n) {
			value_release(v);
			interp_limit(I, "field assignment to an unsupported value");
			return;
		}
		Obj *o = r->p;
		slot_set(&o->f[s->field], value_own(v));
		obj_update_copy(o);
		SymId rs = type_sym(I, F->f->locals[s->slot].type);
		if (rs >= 0)
			interp_check_invariants(I, rs, o);
		return;
	}
	case HS_WHILE:
		while (!STOPPED) {
			Value c = ev_fast(I, F, s->value);
			if (STOPPED || !c.b)
				return;
			value_release(run_block(I, F, s->body));
		}
		return;
	case HS_FOR:
		run_for(I, F, s);
		return;
	case HS_EXPR:
		value_release(ev_fast(I, F, s->value));
		return;
	case HS_UNSAFE:
		if (s->body)
			value_release(run_block(I, F, s->body));
		return;
	}
}

static Value
run_block(Interp *I, Frame *F, const HirBlock *b)
{
	int mark = I->temps.len;
	for (int i = 0; i < b->nstmts && !STOPPED; i++)
		exec_stmt(I, F, b->stmts[i]);
	Value v = v_empty();
	if (!STOPPED && b->tail) {
		v = ev_fast(I, F, b->tail);
		if (v.borrowed && (b->nowned || I->temps.len > mark))
			v = value_clone(v);
	}
	for (int i = b->nowned - 1; i >= 0; i--)
		slot_clear(&F->slots[b->owned[i]]);
	while (I->temps.len > mark)
		value_release(I->temps.items[--I->temps.len]);
	return v;
}

/* ---- entry ---- */

static const struct {
	const char *id, *cls;
	const char *meanings[8];
} domains[] = {
	[DOM_ARITH] = { "semaprax.arithmetic.v1", "arithmetic", { "addition overflow", "subtraction overflow",
		"multiplication overflow", "division by zero", "division overflow", "remainder by zero",
		"remainder overflow", "negation overflow" } },
	[DOM_CONTRACT] = { "semaprax.contract.v1", "contract", { "a `requires` precondition was false",
		"an `ensures` postcondition was false" } },
	[DOM_VEC] = { "semaprax.vec.v1", "adapter", { "vec_push beyond capacity; reserve more",
		"vector index out of bounds", "vector allocation failure" } },
	[DOM_BOX] = { "semaprax.box.v1", "adapter", { "box allocation failure" } },
	[DOM_BYTEBUF] = { "semaprax.byte-buffer.v1", "adapter", { "byte buffer index out of range" } },
	[DOM_TEXT] = { "semaprax.text.v1", "adapter", { "text offset or index out of range",
		"text slice bound splits a UTF-8 character", "file text is not valid UTF-8" } },
	[DOM_CONVERT] = { "semaprax.convert.v1", "adapter", { "conversion out of range", "conversion of NaN" } },
	[DOM_FORMAT] = { "semaprax.string-format.v1", "adapter", { "checked literal formatting failed" } },
	[DOM_MAP] = { "semaprax.map.v1", "adapter", { "map capacity exceeded", "map index out of range",
		"map capacity too large", "map count overflow" } },
	[DOM_MAP2] = { "semaprax.map.v2", "adapter", { "map capacity exceeded", "map index out of range",
		"map capacity too large", "map count overflow" } },
	[DOM_FS] = { "semaprax.filesystem.v1", "adapter", { "invalid relative file path", "file not found", "file already exists",
		"file exceeds the 65536-byte limit", "file I/O failure", "file access denied", "not a regular file" } },
	[DOM_OUTPUT] = { "semaprax.output.v1", "adapter", { "output capacity exceeded" } },
	[DOM_CMDIN] = { "semaprax.command-input.v1", "adapter", { "argument index out of range",
		"argument is not valid UTF-8", "stdin read failed", "command input capacity exceeded" } },
};

const char *
interp_domain_id(Domain d)
{
	return domains[d].id;
}

const char *
interp_domain_class(Domain d)
{
	return domains[d].cls;
}

const char *
interp_meaning(Domain d, uint32_t code)
{
	const char *m = code >= 1 && code <= 8 ? domains[d].meanings[code - 1] : NULL;
	return m ? m : "operation failed";
}

static int
find_main(HirModule *H)
{
	for (int i = 0; i < H->nfuncs; i++)
		if (H->funcs[i].sym >= 0 && sema_sym(H->S, H->funcs[i].sym)->kind == SK_FN &&
		    strcmp(H->funcs[i].name, "main") == 0)
			return i;
	for (int i = 0; i < H->nfuncs; i++)
		if (H->funcs[i].sym >= 0 && strcmp(H->funcs[i].id, "app.main") == 0)
			return i;
	return -1;
}

bool
interp_run(HirModule *H, const InterpOptions *o, InterpResult *r)
{
	int entry = find_main(H);
	if (entry < 0)
		return false;
	Interp I;
	memset(&I, 0, sizeof I);
	I.H = H;
	I.S = H->S;
	I.opt = o;
	I.res = r;
	I.budget = o->max_steps;
	I.symfunc = xmalloc(sizeof(int32_t) * (size_t)(H->S->syms.len ? H->S->syms.len : 1));
	for (int i = 0; i < H->S->syms.len; i++)
		I.symfunc[i] = -1;
	size_t maxlocals = 1;
	for (int i = 0; i < H->nfuncs; i++) {
		if (H->funcs[i].sym >= 0)
			I.symfunc[H->funcs[i].sym] = i;
		if ((size_t)H->funcs[i].nlocals > maxlocals)
			maxlocals = (size_t)H->funcs[i].nlocals;
	}
	I.fns = xcalloc((size_t)H->nfuncs, sizeof(FnInfo));
	I.stack_cap = (INTERP_MAX_DEPTH + 2) * maxlocals;
	I.stack = xmalloc(sizeof(Value) * I.stack_cap);
	Value v = call_func(&I, entry, NULL, 0, NULL);
	r->stop = I.stop;
	r->steps = I.steps > I.budget ? I.budget : I.steps;
	if (I.stop == STOP_NONE)
		r->value = v.i;
	value_release(v);
	value_release(I.ret);
	for (int i = 0; i < H->nfuncs; i++) {
		free(I.fns[i].bcache);
		free(I.fns[i].caps);
	}
	VEC_FREE(I.temps);
	free(I.pc_keys);
	free(I.pc_vals);
	free(I.fns);
	free(I.stack);
	free(I.symfunc);
	return true;
}
