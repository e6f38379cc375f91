/*
 * exec_match.c — `match` (LANGUAGE.md §4.5) over compiled patterns
 * (node.h: case and field indices resolved before the run).
 *
 * An arm's pattern is first tested, then its bindings are made as
 * borrows so the guard can read them; when the guard passes and the match
 * consumes an owned scrutinee (`match own`), the bindings are made again,
 * this time taking the parts out of the scrutinee.  The rest of the
 * scrutinee is released when the arm's value is complete.
 */
#include "node.h"

#define MATCH_WORK_SHIFT 6   /* one step per 64 patterns tested */

static bool
lit_matches(const HirPattern *p, const Value *v)
{
	switch (p->lit.kind) {
	case HIR_BOOL:
		return v->b == p->lit.b;
	case HIR_CHAR:
		return v->u == p->lit.ch;
	case HIR_INT: {
		bool neg = p->lit.negative;
		uint64_t mag = p->lit.i;
		if (v->tag == V_U8 || v->tag == V_USIZE)
			return !neg && v->u == mag;
		return neg ? (uint64_t)0 - (uint64_t)v->i == mag && v->i <= 0 : v->i >= 0 && (uint64_t)v->i == mag;
	}
	default:
		return false;
	}
}

/* Does p match v?  *tests counts the patterns tested (match_arms charges them). */
static bool
pat_matches(const HirPattern *p, const Value *v, size_t *tests)
{
	++*tests;
	switch (p->kind) {
	case HIR_PAT_WILD: case HIR_PAT_BIND: case HIR_PAT_RECORD:
		return true;
	case HIR_PAT_LIT:
		return lit_matches(p, v);
	case HIR_PAT_OR:
		for (int i = 0; i < p->nalts; i++)
			if (pat_matches(p->alts[i], v, tests))
				return true;
		return false;
	case HIR_PAT_CASE:
		return v->tag == V_VARIANT && (int)v->n == p->case_index;
	}
	return false;
}

static Value
take_or_read(Interp *I, Value *v, bool take)
{
	if (!take)
		return value_read(&I->heap, v);
	Value r = *v;
	*v = v_empty();
	return r;
}

/* Binds the slots of p (HIR_PAT_BIND) to v or its parts. */
static void
match_bind(Interp *I, Value *S, const HirPattern *p, Value *v, bool take)
{
	switch (p->kind) {
	case HIR_PAT_BIND: {
		Value *s = &S[p->slot];
		value_release(&I->heap, *s);
		*s = take_or_read(I, v, take);
		return;
	}
	case HIR_PAT_CASE:
		if (p->case_index < 0)
			return;
		break;
	case HIR_PAT_RECORD:
		break;
	default:
		return;
	}
	Obj *o = v->p;
	if (!o)
		return;
	if (o->rc > 1)
		take = false;   /* shared (value.h): its parts are read, never taken out */
	for (int i = 0; i < p->nfields; i++) {
		int fi = p->fields[i];
		if (fi >= 0 && (uint32_t)fi < o->n)
			match_bind(I, S, p->subs[i], &o->f[fi], take);
	}
}

static void
unbind(Interp *I, Value *S, const CArm *a)
{
	for (int j = 0; j < a->nbinds; j++)
		slot_clear(&I->heap, &S[a->binds[j]]);
}

/* The arms of match n over the evaluated scrutinee s (released at the end
 * unless it lives on the caller's stack: heap false). */
static inline Value
match_arms(Interp *I, Value *S, const Node *n, Value s, bool heap)
{
	/* a shared record or variant (value.h) is read, never taken apart */
	bool own = n->op == MATCH_OWN && !s.borrowed &&
		   !((s.tag == V_RECORD || s.tag == V_VARIANT) && s.p && ((Obj *)s.p)->rc > 1);
	/*
	 * Arms are tested one after another: a match of 100,000 literal arms
	 * is one node, so its tests are paid like copies (value.h): one step
	 * per 64 patterns tested (a test costs about four bytes' copy; below
	 * 64 nothing, so small matches keep their exact step counts).
	 */
	size_t tests = 0;
	for (int i = 0; i < n->narms; i++) {
		const CArm *a = &n->arms[i];
		if (!pat_matches(a->pat, &s, &tests))
			continue;
		I->heap.left -= (int64_t)(tests >> MATCH_WORK_SHIFT);
		tests = 0;
		if (a->nbinds)
			match_bind(I, S, a->pat, &s, false);
		if (a->guard) {
			Value g = node_eval(I, S, a->guard);
			if (STOPPED || !g.b) {
				unbind(I, S, a);
				if (STOPPED)
					break;
				continue;
			}
		}
		if (own && a->nbinds)
			match_bind(I, S, a->pat, &s, true);
		Value v = node_eval(I, S, a->value);
		if (!STOPPED && !(n->e && n->e->lends))   /* a lending match's value is read in place (HirExpr.lends) */
			v = value_own(&I->heap, v);
		for (int j = a->nowned - 1; j >= 0; j--)
			slot_clear(&I->heap, &S[a->owned[j]]);
		unbind(I, S, a);
		if (heap)
			value_release(&I->heap, s);
		return v;
	}
	I->heap.left -= (int64_t)(tests >> MATCH_WORK_SHIFT);
	if (heap)
		value_release(&I->heap, s);
	if (!STOPPED)
		interp_limit(I, "no match arm matched (an internal error)");
	return v_empty();
}

Value
interp_x_match(Interp *I, Value *S, const Node *n)
{
	CHARGE(I, 1);
	Value s = node_eval(I, S, n->x);
	if (STOPPED)
		return v_empty();
	return match_arms(I, S, n, s, true);
}

/*
 * The operands of `match byte_get(slot, i)` (g is the byte_get call): the
 * match's step, then the call's and the slot read's, then the index i; the
 * slot's bytes p[0..len).  False on a stop.
 */
static inline bool
byte_get_operands(Interp *I, Value *S, const Node *g, const uint8_t **p, size_t *len, Value *i)
{
	if ((I->heap.left -= 3) < 0) {
		interp_charge_stop(I);
		return false;
	}
	*i = node_eval(I, S, g->kids[1]);
	if (STOPPED)
		return false;
	*p = interp_value_bytes(&S[g->a], len);
	return true;
}

/*
 * `match byte_get(slot, i) { … }` (compile.c picks it when no arm binds the
 * whole Option): the Option<u8> lives on this frame's C stack instead of
 * the heap.  Charges as interp_x_match over xb_byte_get_slot: the match's step,
 * then the call's and the slot read's, then the index.
 */
Value
interp_x_match_byte_get(Interp *I, Value *S, const Node *n)
{
	size_t len;
	const uint8_t *p;
	Value i;
	if (!byte_get_operands(I, S, n->x, &p, &len, &i))
		return v_empty();
	_Alignas(Value) unsigned char room[sizeof(Obj) + sizeof(Value)];
	Obj *o = (Obj *)(void *)room;
	Value s = v_ptr(V_VARIANT, NULL, 0);
	if (i.u < len) {
		o->n = 1;
		o->rc = 1;
		o->copy = true;
		o->f[0] = v_int(V_U8, p[i.u]);
		s = v_ptr(V_VARIANT, o, 1);
	}
	return match_arms(I, S, n, s, false);
}

/*
 * The commonest shape of all: `match byte_get(slot, i) { Option::Some {
 * value } => a, Option::None {} => b }` (either order, no guards; the
 * binding optional).  n->flags: the Some arm's index (bits 0-7), the None
 * arm's (bits 8-15).  Steps, order and releases are interp_x_match's.
 */
Value
interp_x_match_byte_opt(Interp *I, Value *S, const Node *n)
{
	size_t len;
	const uint8_t *p;
	Value i;
	if (!byte_get_operands(I, S, n->x, &p, &len, &i))
		return v_empty();
	const CArm *a = &n->arms[i.u < len ? (n->flags & 0xFF) : (n->flags >> 8 & 0xFF)];
	if (a->nbinds)
		S[a->binds[0]] = v_int(V_U8, p[i.u]);
	Value v = node_eval(I, S, a->value);
	if (!STOPPED && !(n->e && n->e->lends))
		v = value_own(&I->heap, v);
	for (int j = a->nowned - 1; j >= 0; j--)
		slot_clear(&I->heap, &S[a->owned[j]]);
	if (a->nbinds)
		S[a->binds[0]] = v_empty();
	return v;
}

/* The flags of interp_x_match_byte_opt for match n, or -1 when it does not fit. */
int
interp_match_byte_opt_flags(const Node *n)
{
	int some = -1, none = -1;
	if (n->narms != 2)
		return -1;
	for (int i = 0; i < 2; i++) {
		const CArm *a = &n->arms[i];
		const HirPattern *p = a->pat;
		if (a->guard || p->kind != HIR_PAT_CASE)
			return -1;
		if (p->case_index == 1 && some < 0) {
			if (p->nfields > 1 || a->nbinds != p->nfields || (p->nfields == 1 && (p->subs[0]->kind != HIR_PAT_BIND || p->fields[0] != 0)))
				return -1;
			some = i;
		} else if (p->case_index == 0 && none < 0 && a->nbinds == 0) {
			none = i;
		} else {
			return -1;
		}
	}
	return some | none << 8;
}

/* May match n run over a scrutinee on the C stack (no arm keeps it)? */
bool
interp_match_stack_ok(const Node *n)
{
	for (int i = 0; i < n->narms; i++) {
		HirPatKind k = n->arms[i].pat->kind;
		if (k != HIR_PAT_CASE && k != HIR_PAT_WILD)
			return false;
	}
	return true;
}
