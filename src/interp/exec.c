/*
 * exec.c — the generic node functions of the executable form (node.h):
 * literals, slots, operators on values of any kind, calls, aggregates,
 * fields, `?`, blocks, statements (LANGUAGE.md §4).
 *
 * Every expression node first charges its steps (§0.4).  When I->stop is
 * set a node returns V_EMPTY at once; callers release what they hold and
 * return too, so failures unwind through every block's cleanup list and
 * every frame's slot sweep (§0.12).  Value ownership: see value.h.
 */
#include "node.h"

#include <string.h>

static inline void
slot_set(ValueHeap *h, Value *s, Value v)
{
	value_release(h, *s);
	*s = v;
}

static Value block_value(Interp *I, Value *S, const CBlock *b, int mark);
static void block_cleanup(Interp *I, Value *S, const CBlock *b, int mark);

/* ---- leaves ---- */

Value
interp_x_int(Interp *I, Value *S, const Node *n)
{
	(void)S;
	CHARGE(I, 1);
	return n->k;
}

Value
interp_x_string(Interp *I, Value *S, const Node *n)
{
	(void)S;
	CHARGE(I, 1);
	return interp_string_value(&I->heap, n->e->u.lit.s, n->e->u.lit.n);
}

Value
interp_x_local(Interp *I, Value *S, const Node *n)
{
	CHARGE(I, 1);
	return value_read(&I->heap, &S[n->a]);
}

Value
interp_x_local_scalar(Interp *I, Value *S, const Node *n)
{
	CHARGE(I, 1);
	return S[n->a];
}

Value
interp_x_move(Interp *I, Value *S, const Node *n)
{
	CHARGE(I, 1);
	Value v = S[n->a];
	S[n->a] = v_empty();
	return v;
}

Value
interp_x_func(Interp *I, Value *S, const Node *n)
{
	(void)S;
	CHARGE(I, 1);
	return n->k;
}

/* ---- operators ---- */

Value
interp_x_unary(Interp *I, Value *S, const Node *n)
{
	CHARGE(I, 1);
	Value x = node_eval(I, S, n->x);
	if (STOPPED)
		return v_empty();
	if (n->op == UN_NOT) {
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
	interp_fail(I, RT_DOM_ARITH, RT_ARITH_NEG);
	return v_empty();
}

/* The arithmetic of interp_x_binary: i32, u8 and f32 operands.  i64, usize
 * and f64 arithmetic never comes here: compile.c's binary() takes a node of
 * exec_scalar.c for each of their operators (interp_scalar_binary_fn has a
 * row for every one, `%` of floats aside, which the checker refuses), and
 * an operand's value tag is its static type's (no arithmetic on a type
 * parameter, T208). */
static __attribute__((noinline)) Value
arith(Interp *I, BinaryOp op, Value a, Value b)
{
	Value r = a;
	switch ((VTag)a.tag) {
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
		interp_limit(I, "arithmetic on an unsupported value (an internal error)");
		return v_empty();
	}
add: interp_fail(I, RT_DOM_ARITH, RT_ARITH_ADD); return v_empty();
sub: interp_fail(I, RT_DOM_ARITH, RT_ARITH_SUB); return v_empty();
mul: interp_fail(I, RT_DOM_ARITH, RT_ARITH_MUL); return v_empty();
div0: interp_fail(I, RT_DOM_ARITH, RT_ARITH_DIV_ZERO); return v_empty();
divov: interp_fail(I, RT_DOM_ARITH, RT_ARITH_DIV_OVERFLOW); return v_empty();
rem0: interp_fail(I, RT_DOM_ARITH, RT_ARITH_REM_ZERO); return v_empty();
remov: interp_fail(I, RT_DOM_ARITH, RT_ARITH_REM_OVERFLOW); return v_empty();
}

Value
interp_binary(Interp *I, BinaryOp op, Value l, Value r)
{
	Value out;
	if (l.tag >= V_VIEW && l.tag <= V_ARRAY) {
		/* comparing text or bytes: the bytes compared are charged */
		size_t la, lb;
		interp_value_bytes(&l, &la);
		interp_value_bytes(&r, &lb);
		heap_work(&I->heap, la < lb ? la : lb);
	}
	switch (op) {
	case BIN_EQ: out = v_bool(interp_value_equal(&l, &r)); break;
	case BIN_NE: out = v_bool(!interp_value_equal(&l, &r)); break;
	case BIN_LT: out = v_bool(interp_value_compare(&l, &r) == -1); break;
	case BIN_LE: { int c = interp_value_compare(&l, &r); out = v_bool(c == -1 || c == 0); break; }
	case BIN_GT: out = v_bool(interp_value_compare(&l, &r) == 1); break;
	case BIN_GE: { int c = interp_value_compare(&l, &r); out = v_bool(c == 1 || c == 0); break; }
	default:
		return arith(I, op, l, r);
	}
	value_release(&I->heap, l);
	value_release(&I->heap, r);
	return out;
}

/* An operator on operands of any kind (generic code, i32, u8, char, bool,
 * strings, aggregates): dispatches on the values' tags. */
Value
interp_x_binary(Interp *I, Value *S, const Node *n)
{
	CHARGE(I, 1);
	Value l = node_eval(I, S, n->x);
	if (STOPPED)
		return v_empty();
	Value r = node_eval(I, S, n->y);
	if (STOPPED) {
		value_release(&I->heap, l);
		return v_empty();
	}
	return interp_binary(I, (BinaryOp)n->op, l, r);
}

Value
interp_x_and(Interp *I, Value *S, const Node *n)
{
	CHARGE(I, 1);
	Value l = node_eval(I, S, n->x);
	if (STOPPED || !l.b)
		return l;
	return node_eval(I, S, n->y);
}

Value
interp_x_or(Interp *I, Value *S, const Node *n)
{
	CHARGE(I, 1);
	Value l = node_eval(I, S, n->x);
	if (STOPPED || l.b)
		return l;
	return node_eval(I, S, n->y);
}

/* ---- calls ---- */

static bool
check_clauses(Interp *I, const CFunc *cf, Value *S, Node *const *cs, int n, uint32_t code)
{
	for (int i = 0; i < n; i++) {
		if ((I->heap.left -= 1) < 0) {
			interp_charge_stop(I);
			return false;
		}
		Value c = node_eval(I, S, cs[i]);
		if (STOPPED)
			return false;
		if (!c.b) {
			interp_contract_detail(I, cf->S, cf->f, S, i, code);
			interp_fail(I, RT_DOM_CONTRACT, code);
			return false;
		}
	}
	return true;
}

/*
 * The body of a simple function (CFunc.simple: no contracts, captures or
 * body cleanup) in its frame S of nl slots, already pushed; pops it.
 */
static inline void
lean_pop(Interp *I, const CFunc *cf, Value *S, int nl)
{
	for (int i = 0; i < cf->nsweep; i++)
		value_release(&I->heap, S[cf->sweep[i]]);
	I->sp -= (size_t)nl;
	heap_frame(&I->heap, -nl);
	I->depth--;
}

/* lean_body after a stop: a `return`'s value, or nothing. */
static __attribute__((noinline, cold)) Value
lean_stopped(Interp *I, const CFunc *cf, Value *S, int nl, Value r)
{
	if (I->stop == STOP_RETURN) {
		I->stop = STOP_NONE;
		r = value_own(&I->heap, I->ret);
		I->ret = v_empty();
	} else {
		value_release(&I->heap, r);
		r = v_empty();
	}
	lean_pop(I, cf, S, nl);
	return r;
}

static inline Value
lean_body(Interp *I, const CFunc *cf, Value *S, int nl)
{
	Value r = exec_branch(I, S, cf->body);
	if (__builtin_expect(I->stop != STOP_NONE, 0))
		return lean_stopped(I, cf, S, nl, r);
	if (r.borrowed)
		r = interp_value_clone(&I->heap, r);
	lean_pop(I, cf, S, nl);
	return r;
}

/*
 * Whether the top of the value stack has room for a call of cf with nargs
 * arguments (its frame and, before it, the arguments being evaluated).  A
 * call that does not fit runs in the next segment (in_next_segment): a
 * frame never straddles two, so the frames below keep their slots'
 * addresses.
 */
static inline size_t
call_need(const CFunc *cf, int nargs)
{
	int nl = cf->f->nlocals;
	return (size_t)(nl > nargs ? nl : nargs);
}

static inline bool
stack_fits(const Interp *I, const CFunc *cf, int nargs)
{
	return __builtin_expect(I->sp + call_need(cf, nargs) <= I->stack_cap, 1);
}

typedef Value CallBody(Interp *I, Value *S, const Node *n);

static __attribute__((noinline, cold)) Value
in_next_segment(Interp *I, Value *S, const Node *n, size_t need, CallBody *body)
{
	interp_stack_next(I, need);
	Value r = body(I, S, n);
	interp_stack_back(I);
	return r;
}

/*
 * Pushes cf's frame S (the top of the value stack, whose first nargs slots
 * hold the owned arguments): the depth bound, then empty locals.  False,
 * with the arguments released, past 256 frames.
 */
static inline bool
frame_push(Interp *I, const CFunc *cf, Value *S, int nargs)
{
	if (I->depth >= INTERP_MAX_DEPTH) {
		I->stop = STOP_DEPTH;
		for (int i = 0; i < nargs; i++)
			value_release(&I->heap, S[i]);
		return false;
	}
	int nl = cf->f->nlocals;
	for (int i = nl; i < nargs; i++)
		value_release(&I->heap, S[i]);
	for (int i = nargs; i < nl; i++)
		S[i] = v_empty();
	I->sp += (size_t)nl;
	ASSERT(I->sp <= I->stack_cap, "exec.c: value stack overflow");
	heap_frame(&I->heap, nl);   /* past the limit, the body's first charge stops the run */
	I->depth++;
	return true;
}

/*
 * Runs cf in the frame at the top of the value stack, whose first nargs
 * slots hold the (owned) arguments.
 */
static Value
exec_frame(Interp *I, const CFunc *cf, int nargs, const Obj *caps)
{
	const HirFunc *f = cf->f;
	Value *S = I->stack + I->sp;
	if (!frame_push(I, cf, S, nargs))
		return v_empty();
	int nl = f->nlocals;
	if (cf->simple)
		return lean_body(I, cf, S, nl);
	if (caps)
		for (int i = 0; i < cf->ncaps && (uint32_t)i < caps->n; i++)
			S[cf->caps[i]] = interp_value_clone(&I->heap, caps->f[i]);
	/*
	 * §0.12: the body completes, `ensures` runs, then the body's owned
	 * slots (owned parameters last) are released; on failure the
	 * provisional result goes first.
	 */
	int mark = I->temps.len;
	Value result = v_empty();
	if (cf->nreq && !check_clauses(I, cf, S, cf->req, cf->nreq, RT_CONTRACT_REQUIRES))
		goto out;
	result = block_value(I, S, cf->body, mark);
	if (I->stop == STOP_RETURN) {
		I->stop = STOP_NONE;
		result = I->ret;
		I->ret = v_empty();
	}
	if (STOPPED)
		goto out;
	result = value_own(&I->heap, result);
	if (cf->nens && f->result_slot != HIR_NO_SLOT) {
		Value alias = result;
		alias.borrowed = 1;
		S[f->result_slot] = alias;
		check_clauses(I, cf, S, cf->ens, cf->nens, RT_CONTRACT_ENSURES);
	}
out:
	if (STOPPED) {
		value_release(&I->heap, result);
		result = v_empty();
	}
	block_cleanup(I, S, cf->body, mark);
	for (int i = 0; i < cf->nsweep; i++)
		value_release(&I->heap, S[cf->sweep[i]]);
	I->sp -= (size_t)nl;
	heap_frame(&I->heap, -nl);
	I->depth--;
	return result;
}

Value
interp_exec_call(Interp *I, const CFunc *cf, Value *args, int nargs, const Obj *caps)
{
	bool moved = !stack_fits(I, cf, nargs);
	if (moved)
		interp_stack_next(I, call_need(cf, nargs));
	Value *S = I->stack + I->sp;
	for (int i = 0; i < nargs; i++)
		S[i] = args[i];
	Value r = exec_frame(I, cf, nargs, caps);
	if (moved)
		interp_stack_back(I);
	return r;
}

/* Evaluates the arguments of call node n straight into the callee's frame
 * at the top of the stack (calls inside an argument run above the
 * arguments evaluated so far); false with them released on a stop. */
static inline bool
args_in_place(Interp *I, Value *S, const Node *n)
{
	size_t sp0 = I->sp;
	Value *base = I->stack + sp0;
	for (int i = 0; i < n->nkids; i++) {
		I->sp = sp0 + (size_t)i;
		Value v = node_eval(I, S, n->kids[i]);
		if (STOPPED) {
			I->sp = sp0;
			for (int j = 0; j < i; j++)
				value_release(&I->heap, base[j]);
			return false;
		}
		base[i] = v;
	}
	I->sp = sp0;
	return true;
}

static inline Value
call_body(Interp *I, Value *S, const Node *n)
{
	if (!args_in_place(I, S, n))
		return v_empty();
	return exec_frame(I, n->callee, n->nkids, NULL);
}

Value
interp_x_call(Interp *I, Value *S, const Node *n)
{
	CHARGE(I, 1);
	if (!n->callee) {
		interp_limit(I, "call of a function without a body");
		return v_empty();
	}
	if (!stack_fits(I, n->callee, n->nkids))
		return in_next_segment(I, S, n, call_need(n->callee, n->nkids), call_body);
	return call_body(I, S, n);
}

/* interp_x_call of a simple callee (CFunc.simple) whose arguments are all
 * scalar slots or literals: exec_frame's simple path (frame_push, then
 * lean_body), inline. */
static inline Value
call_simple_body(Interp *I, Value *S, const Node *n)
{
	const CFunc *cf = n->callee;
	int nargs = n->nkids, nl = cf->f->nlocals;
	Value *F = I->stack + I->sp;
	for (int i = 0; i < nargs; i++) {
		const Node *k = n->kids[i];
		if ((I->heap.left -= 1) < 0) {
			interp_charge_stop(I);
			return v_empty();
		}
		F[i] = k->fn == interp_x_int ? k->k : S[k->a];
	}
	if (!frame_push(I, cf, F, nargs))
		return v_empty();
	return lean_body(I, cf, F, nl);
}

Value
interp_x_call_simple(Interp *I, Value *S, const Node *n)
{
	CHARGE(I, 1);
	if (!stack_fits(I, n->callee, n->nkids))
		return in_next_segment(I, S, n, call_need(n->callee, n->nkids), call_simple_body);
	return call_simple_body(I, S, n);
}

static Value
call_lean_body(Interp *I, Value *S, const Node *n)
{
	const CFunc *cf = n->callee;
	if (!args_in_place(I, S, n))
		return v_empty();
	Value *F = I->stack + I->sp;
	if (!frame_push(I, cf, F, n->nkids))
		return v_empty();
	return lean_body(I, cf, F, cf->f->nlocals);
}

/* interp_x_call of a simple callee with arguments of any shape. */
Value
interp_x_call_lean(Interp *I, Value *S, const Node *n)
{
	CHARGE(I, 1);
	const CFunc *cf = n->callee;
	if (!stack_fits(I, cf, n->nkids))
		return in_next_segment(I, S, n, call_need(cf, n->nkids), call_lean_body);
	return call_lean_body(I, S, n);
}

/*
 * interp_x_call of a scalar callee (CFunc.scalar: simple, every local a
 * Copy scalar, a scalar result, no more arguments than locals): the
 * arguments are scalars, so nothing is released on a stop, no slot is
 * swept at exit and the result is returned as it is.  The checks are
 * exec_frame's: the charge, the depth bound, the frame's slots against
 * the heap limit, the stack segment.
 */
static __attribute__((noinline, cold)) Value
call_scalar_stopped(Interp *I, size_t sp0, int nl)
{
	Value r = v_empty();
	if (I->stop == STOP_RETURN) {
		I->stop = STOP_NONE;
		r = I->ret;
		I->ret = v_empty();
	}
	I->sp = sp0;
	heap_frame(&I->heap, -nl);
	I->depth--;
	return r;
}

static Value
call_scalar_body(Interp *I, Value *S, const Node *n)
{
	const CFunc *cf = n->callee;
	int nargs = n->nkids, nl = n->op;
	size_t sp0 = I->sp;
	Value *F = I->stack + sp0;
	for (int i = 0; i < nargs; i++) {
		I->sp = sp0 + (size_t)i;
		Value v = node_eval(I, S, n->kids[i]);
		if (STOPPED) {
			I->sp = sp0;
			return v_empty();
		}
		F[i] = v;
	}
	if (__builtin_expect(I->depth >= INTERP_MAX_DEPTH, 0)) {
		I->sp = sp0;
		I->stop = STOP_DEPTH;
		return v_empty();
	}
	for (int i = nargs; i < nl; i++)
		F[i] = v_empty();
	I->sp = sp0 + (size_t)nl;
	heap_frame(&I->heap, nl);   /* past the limit, the body's first charge stops the run */
	I->depth++;
	Value r = exec_branch(I, F, cf->body);
	if (__builtin_expect(I->stop != STOP_NONE, 0))
		return call_scalar_stopped(I, sp0, nl);
	I->sp = sp0;
	heap_frame(&I->heap, -nl);
	I->depth--;
	return r;
}

Value
interp_x_call_scalar(Interp *I, Value *S, const Node *n)
{
	CHARGE(I, 1);
	if (!stack_fits(I, n->callee, n->nkids))
		return in_next_segment(I, S, n, call_need(n->callee, n->nkids), call_scalar_body);
	return call_scalar_body(I, S, n);
}

Value
interp_x_call_slot(Interp *I, Value *S, const Node *n)
{
	CHARGE(I, 1);
	const Value *c = &S[n->a];
	int fi = (int)c->n;
	const Obj *caps = c->tag == V_CLOSURE ? c->p : NULL;
	if (fi < 0 || fi >= I->ncf) {
		interp_limit(I, "call of a function without a body");
		return v_empty();
	}
	bool moved = !stack_fits(I, &I->cf[fi], n->nkids);
	if (moved)
		interp_stack_next(I, call_need(&I->cf[fi], n->nkids));
	Value r = args_in_place(I, S, n) ? exec_frame(I, &I->cf[fi], n->nkids, caps) : v_empty();
	if (moved)
		interp_stack_back(I);
	return r;
}

Value
interp_x_builtin(Interp *I, Value *S, const Node *n)
{
	CHARGE(I, 1);
	int bi = n->op, nargs = n->nkids;
	if (bi < 0) {
		interp_limit(I, "the builtin `%s` is not implemented by the interpreter yet",
			     n->e->u.call.builtin->name);
		return v_empty();
	}
	Value buf[8], *args = nargs <= 8 ? buf : spx_xmalloc(sizeof(Value) * (size_t)nargs);
	Value r = v_empty();
	int i = 0;
	for (; i < nargs; i++) {
		args[i] = node_eval(I, S, n->kids[i]);
		if (STOPPED)
			break;
	}
	if (i == nargs) {
		bool view = n->flags & 1;
		r = interp_rt_builtin_call(I, bi, n->e, args, nargs);
		for (int j = 0; j < nargs; j++) {
			if (j < 31 ? !((n->flags >> (j + 1)) & 1) : !interp_rt_builtin_borrows(bi, j))
				continue;
			if (view && !STOPPED && !args[j].borrowed && args[j].tag >= V_STRING)
				VEC_PUSH(I->temps, args[j]);
			else
				value_release(&I->heap, args[j]);
		}
	} else {
		for (int j = 0; j < i; j++)
			value_release(&I->heap, args[j]);
	}
	if (args != buf)
		free(args);
	return r;
}

/*
 * Record invariants (§4.6, §0.7): the HIR lowers them as a function of the
 * record's fields whose `requires` clauses are the invariants, so a false
 * one fails with contract code 1 like a precondition.
 */
static bool
run_invariants(Interp *I, const CFunc *inv, Obj *o)
{
	if (!inv)
		return true;
	if (STOPPED)
		return false;
	int n = inv->f->nparams;
	bool moved = !stack_fits(I, inv, n);
	if (moved)
		interp_stack_next(I, call_need(inv, n));
	Value *S = I->stack + I->sp;
	for (int i = 0; i < n; i++)
		S[i] = (uint32_t)i < o->n ? interp_value_clone(&I->heap, o->f[i]) : v_empty();
	value_release(&I->heap, exec_frame(I, inv, n, NULL));
	if (moved)
		interp_stack_back(I);
	return !STOPPED;
}

/* ---- aggregates, fields, `?` ---- */

Value
interp_x_agg(Interp *I, Value *S, const Node *n)
{
	CHARGE(I, 1);
	const HirExpr *e = n->e;
	Value base = v_empty();
	if (n->x) {
		base = node_eval(I, S, n->x);
		if (STOPPED)
			return v_empty();
		base = value_own(&I->heap, base);
	}
	uint32_t size = n->x ? ((Obj *)base.p)->n : (uint32_t)n->op;
	if (e->kind == HIR_VARIANT && size == 0)
		return v_ptr(V_VARIANT, NULL, (uint32_t)e->u.agg.case_index);
	Obj *o = interp_obj_new(&I->heap, size);
	for (int i = 0; i < n->nkids; i++) {
		Value v = node_eval(I, S, n->kids[i]);
		if (STOPPED) {
			value_release(&I->heap, v_ptr(V_RECORD, o, 0));
			value_release(&I->heap, base);
			return v_empty();
		}
		int fi = n->ints[i];
		if (fi >= 0 && (uint32_t)fi < size)
			slot_set(&I->heap, &o->f[fi], value_own(&I->heap, v));
		else
			value_release(&I->heap, v);
	}
	if (n->x) {
		/* replacements complete: release the replaced fields, keep the rest */
		interp_obj_unique(&I->heap, &base);
		Obj *b = base.p;
		for (uint32_t i = 0; i < size; i++)
			if (o->f[i].tag == V_EMPTY) {
				o->f[i] = b->f[i];
				b->f[i] = v_empty();
			}
		value_release(&I->heap, base);
	}
	interp_obj_update_copy(o);
	if (e->kind == HIR_VARIANT)
		return v_ptr(V_VARIANT, o, (uint32_t)e->u.agg.case_index);
	if (!run_invariants(I, n->callee, o)) {
		value_release(&I->heap, v_ptr(V_RECORD, o, 0));
		return v_empty();
	}
	return v_ptr(V_RECORD, o, 0);
}

/* slot.f.g…: reads the field in place (no copy of the enclosing records). */
Value
interp_x_field_path(Interp *I, Value *S, const Node *n)
{
	CHARGE(I, n->steps);
	const Value *v = &S[n->a];
	for (int d = 0; d < n->nkids; d++) {
		const Obj *o = v->p;
		int f = n->ints[d];
		if ((v->tag != V_RECORD && v->tag != V_VARIANT) || !o || f < 0 || (uint32_t)f >= o->n) {
			interp_limit(I, "field access on an unsupported value");
			return v_empty();
		}
		v = &o->f[f];
	}
	return value_read(&I->heap, v);
}

/*
 * A take out of an owned local's field path (`l.next` moved on): each object
 * on the path is made the slot's own (copied only when shared) and the field
 * moved out, left empty, as interp_x_field takes from an owned temporary —
 * not read and cloned while the local keeps the original until its release
 * (quadratic steps for a record renewed in a loop).  A borrowed slot is read
 * as interp_x_field_path reads it.
 */
Value
interp_x_field_take_path(Interp *I, Value *S, const Node *n)
{
	if (S[n->a].borrowed)
		return interp_x_field_path(I, S, n);
	CHARGE(I, n->steps);
	Value *v = &S[n->a];
	for (int d = 0; d < n->nkids; d++) {
		int f = n->ints[d];
		if ((v->tag != V_RECORD && v->tag != V_VARIANT) || !v->p || f < 0 || (uint32_t)f >= ((const Obj *)v->p)->n) {
			interp_limit(I, "field access on an unsupported value");
			return v_empty();
		}
		interp_obj_unique(&I->heap, v);
		v = &((Obj *)v->p)->f[f];
	}
	Value t = *v;
	*v = v_empty();
	return t;
}

Value
interp_x_field(Interp *I, Value *S, const Node *n)
{
	CHARGE(I, 1);
	Value b = node_eval(I, S, n->x);
	if (STOPPED)
		return v_empty();
	Obj *o = b.p;
	int fi = n->op;
	if ((b.tag != V_RECORD && b.tag != V_VARIANT) || !o || fi < 0 || (uint32_t)fi >= o->n) {
		value_release(&I->heap, b);
		interp_limit(I, "field access on an unsupported value");
		return v_empty();
	}
	if (b.borrowed)
		return value_read(&I->heap, &o->f[fi]);
	if (o->rc > 1) {
		/* shared (value.h): copy the field, drop this reference */
		Value c = value_read(&I->heap, &o->f[fi]);
		value_release(&I->heap, b);
		return c;
	}
	Value v = o->f[fi];
	o->f[fi] = v_empty();
	value_release(&I->heap, b);
	return v;
}

Value
interp_x_try(Interp *I, Value *S, const Node *n)
{
	CHARGE(I, 1);
	Value x = node_eval(I, S, n->x);
	if (STOPPED)
		return v_empty();
	x = value_own(&I->heap, x);
	/* Option: Some is case 1; Result: Ok is case 0. */
	bool success = n->op ? x.n == 1 : x.n == 0;
	if (!success) {
		I->ret = x;
		I->stop = STOP_RETURN;
		return v_empty();
	}
	interp_obj_unique(&I->heap, &x);
	Obj *o = x.p;
	Value v = o->f[0];
	o->f[0] = v_empty();
	value_release(&I->heap, x);
	return v;
}

Value
interp_x_closure(Interp *I, Value *S, const Node *n)
{
	CHARGE(I, 1);
	const HirExpr *e = n->e;
	Obj *o = interp_obj_new(&I->heap, (uint32_t)e->u.closure.ncaptures);
	for (int i = 0; i < e->u.closure.ncaptures; i++)
		o->f[i] = value_read(&I->heap, &S[e->u.closure.captures[i]]);
	interp_obj_update_copy(o);
	return v_ptr(V_CLOSURE, o, (uint32_t)n->op);
}

Value
interp_x_array(Interp *I, Value *S, const Node *n)
{
	CHARGE(I, 1);
	Bytes *b = interp_bytes_new(&I->heap, NULL, 0);
	for (int i = 0; i < n->nkids; i++) {
		Value x = node_eval(I, S, n->kids[i]);
		if (STOPPED) {
			value_release(&I->heap, v_ptr(V_ARRAY, b, 0));
			return v_empty();
		}
		if (b->len == b->cap)
			interp_bytes_reserve(&I->heap, b, b->cap * 2, false);
		b->data[b->len++] = (uint8_t)x.u;
	}
	return v_ptr(V_ARRAY, b, 0);
}

/* ---- blocks and branches ---- */

/* Runs b's statements and tail; the cleanup at its end is block_cleanup. */
static Value
block_value(Interp *I, Value *S, const CBlock *b, int mark)
{
	for (int i = 0; i < b->nstmts; i++) {
		const Node *s = b->stmts[i];
		s->fn(I, S, s);
		if (STOPPED)
			return v_empty();
	}
	Value v = v_empty();
	if (b->tail) {
		v = node_eval(I, S, b->tail);
		if (!STOPPED && v.borrowed && !b->lends && (b->nowned || I->temps.len > mark))
			v = interp_value_clone(&I->heap, v);
	}
	return v;
}

/* Releases b's owned slots in reverse order of initialisation, then the
 * temporaries made since mark. */
static void
block_cleanup(Interp *I, Value *S, const CBlock *b, int mark)
{
	for (int i = b->nowned - 1; i >= 0; i--)
		slot_clear(&I->heap, &S[b->owned[i]]);
	while (I->temps.len > mark)
		value_release(&I->heap, I->temps.items[--I->temps.len]);
}

Value
interp_exec_block(Interp *I, Value *S, const CBlock *b)
{
	return exec_block(I, S, b);
}

/* A block with cleanup (exec_block runs simple ones inline, node.h). */
Value
interp_exec_block_full(Interp *I, Value *S, const CBlock *b)
{
	int mark = I->temps.len;
	Value v = block_value(I, S, b, mark);
	block_cleanup(I, S, b, mark);
	return v;
}

Value
interp_x_block(Interp *I, Value *S, const Node *n)
{
	CHARGE(I, 1);
	return exec_block(I, S, n->b1);
}

Value
interp_x_if(Interp *I, Value *S, const Node *n)
{
	CHARGE(I, 1);
	Value c = node_eval(I, S, n->x);
	if (STOPPED)
		return v_empty();
	if (c.b)
		return n->b1 ? exec_branch(I, S, n->b1) : v_empty();
	return n->b2 ? exec_branch(I, S, n->b2) : v_empty();
}

/* ---- statements ---- */

Value
interp_s_let(Interp *I, Value *S, const Node *n)
{
	Value v = node_eval(I, S, n->x);
	if (STOPPED)
		return v_empty();
	if (n->a == HIR_NO_SLOT)
		value_release(&I->heap, v);
	else
		slot_set(&I->heap, &S[n->a], value_own(&I->heap, v));
	return v_empty();
}

/* A let or assignment of a Copy scalar, or a let of an alias of a lent place
 * (HirLocal.lent: the borrowed value is kept as read): nothing to release or copy. */
Value
interp_s_let_scalar(Interp *I, Value *S, const Node *n)
{
	Value v = node_eval(I, S, n->x);
	if (!STOPPED)
		S[n->a] = v;
	return v_empty();
}

/* interp_s_let_scalar of a scalar slot's value (slot d = slot a) and of a literal
 * (slot d = k): the statement and its one-step operand in one node. */
Value
interp_s_copy_slot(Interp *I, Value *S, const Node *n)
{
	CHARGE(I, 1);
	S[n->d] = S[n->a];
	return v_empty();
}

Value
interp_s_set_const(Interp *I, Value *S, const Node *n)
{
	CHARGE(I, 1);
	S[n->d] = n->k;
	return v_empty();
}

/* A statement `if`: interp_x_if with its value discarded, without the extra
 * node; `neg` is interp_s_if_not's `if !c`, whose negation step is charged
 * with the if's (nothing happens between them) and whose branches are taken
 * the other way round. */
static inline Value
statement_if(Interp *I, Value *S, const Node *n, bool neg)
{
	CHARGE(I, 1 + neg);
	Value c = node_eval(I, S, n->x);
	if (STOPPED)
		return v_empty();
	/* a branch per arm, not a select: each arm's calls get a call site
	 * of their own, which predicts them (node.h, exec_scalar.c USE_IF) */
	if (c.b != neg) {
		if (n->b1)
			value_release(&I->heap, exec_block(I, S, n->b1));
	} else if (n->b2) {
		value_release(&I->heap, exec_block(I, S, n->b2));
	}
	return v_empty();
}

Value
interp_s_if(Interp *I, Value *S, const Node *n)
{
	return statement_if(I, S, n, false);
}

Value
interp_s_if_not(Interp *I, Value *S, const Node *n)
{
	return statement_if(I, S, n, true);
}

Value
interp_s_set_field(Interp *I, Value *S, const Node *n)
{
	Value v = node_eval(I, S, n->x);
	if (STOPPED)
		return v_empty();
	Value *r = &S[n->a];
	if (r->tag != V_RECORD || n->op < 0 || (uint32_t)n->op >= ((Obj *)r->p)->n) {
		value_release(&I->heap, v);
		interp_limit(I, "field assignment to an unsupported value");
		return v_empty();
	}
	interp_obj_unique(&I->heap, r);
	Obj *o = r->p;
	slot_set(&I->heap, &o->f[n->op], value_own(&I->heap, v));
	interp_obj_update_copy(o);
	run_invariants(I, n->callee, o);
	return v_empty();
}

Value
interp_s_while(Interp *I, Value *S, const Node *n)
{
	while (!STOPPED) {
		Value c = node_eval(I, S, n->x);
		if (STOPPED || !c.b)
			break;
		exec_block_void(I, S, n->b1);
	}
	return v_empty();
}

/* `while l && r { … }`: interp_s_while with the condition's interp_x_and in the loop
 * (n->x is the interp_x_and node; the same steps at the same points). */
Value
interp_s_while_and(Interp *I, Value *S, const Node *n)
{
	const Node *c = n->x;
	while (!STOPPED) {
		CHARGE(I, 1);
		Value l = node_eval(I, S, c->x);
		if (STOPPED || !l.b)
			break;
		Value r = node_eval(I, S, c->y);
		if (STOPPED || !r.b)
			break;
		exec_block_void(I, S, n->b1);
	}
	return v_empty();
}

Value
interp_s_for(Interp *I, Value *S, const Node *n)
{
	Value it = node_eval(I, S, n->x);
	if (STOPPED)
		return v_empty();
	Value *item = &S[n->a];
	if (it.tag == V_ITER || (n->s->own && it.tag == V_VEC)) {
		/* for own: consume the iterator one element at a time */
		it = value_own(&I->heap, it);
		VecObj *v = it.tag == V_ITER ? ((IterObj *)it.p)->v : it.p;
		size_t *pos = it.tag == V_ITER ? &((IterObj *)it.p)->pos : NULL;
		size_t i = pos ? *pos : 0;
		while (i < v->len && !STOPPED) {
			slot_set(&I->heap, item, v->items[i]);
			v->items[i++] = v_empty();
			if (pos)
				*pos = i;
			exec_block_void(I, S, n->b1);
		}
	} else if (it.tag == V_VEC) {
		VecObj *v = it.p;
		size_t len = v->len;
		for (size_t i = 0; i < len && !STOPPED; i++) {
			slot_set(&I->heap, item, value_read(&I->heap, &v->items[i]));
			exec_block_void(I, S, n->b1);
		}
	} else {
		interp_limit(I, "`for` over an unsupported value");
	}
	slot_clear(&I->heap, item);
	value_release(&I->heap, it);
	return v_empty();
}

Value
interp_s_block(Interp *I, Value *S, const Node *n)
{
	exec_block_void(I, S, n->b1);
	return v_empty();
}
