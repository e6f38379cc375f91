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

static bool
pat_matches(const CPat *p, const Value *v)
{
	switch (p->kind) {
	case PAT_WILD: case PAT_BIND: case PAT_RECORD:
		return true;
	case PAT_LIT:
		return lit_matches(p->src, v);
	case PAT_OR:
		for (int i = 0; i < p->nalts; i++)
			if (pat_matches(p->alts[i], v))
				return true;
		return false;
	case PAT_CASE:
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

static void
bind(Interp *I, Value *S, const CPat *p, Value *v, const HirSlot *binds, int *k, bool take)
{
	switch (p->kind) {
	case PAT_BIND: {
		Value *s = &S[binds[(*k)++]];
		value_release(&I->heap, *s);
		*s = take_or_read(I, v, take);
		return;
	}
	case PAT_CASE:
		if (p->case_index < 0)
			return;
		break;
	case PAT_RECORD:
		break;
	default:
		return;
	}
	Obj *o = v->p;
	if (!o)
		return;
	for (int i = 0; i < p->nfields; i++) {
		int fi = p->fields[i];
		if (fi < 0 || (uint32_t)fi >= o->n)
			continue;
		if (p->subs[i]) {
			bind(I, S, p->subs[i], &o->f[fi], binds, k, take);
		} else {
			Value *s = &S[binds[(*k)++]];
			value_release(&I->heap, *s);
			*s = take_or_read(I, &o->f[fi], take);
		}
	}
}

static void
unbind(Interp *I, Value *S, const CArm *a)
{
	for (int j = 0; j < a->nbinds; j++)
		slot_clear(&I->heap, &S[a->binds[j]]);
}

Value
x_match(Interp *I, Value *S, const Node *n)
{
	CHARGE(I, 1);
	Value s = node_eval(I, S, n->x);
	if (STOPPED)
		return v_empty();
	bool own = n->op == MATCH_OWN && !s.borrowed;
	for (int i = 0; i < n->narms; i++) {
		const CArm *a = &n->arms[i];
		if (!pat_matches(a->pat, &s))
			continue;
		int k = 0;
		if (a->nbinds)
			bind(I, S, a->pat, &s, a->binds, &k, false);
		if (a->guard) {
			Value g = node_eval(I, S, a->guard);
			if (STOPPED || !g.b) {
				unbind(I, S, a);
				if (STOPPED)
					break;
				continue;
			}
		}
		if (own && a->nbinds) {
			k = 0;
			bind(I, S, a->pat, &s, a->binds, &k, true);
		}
		Value v = node_eval(I, S, a->value);
		if (!STOPPED)
			v = value_own(&I->heap, v);
		for (int j = a->nowned - 1; j >= 0; j--)
			slot_clear(&I->heap, &S[a->owned[j]]);
		unbind(I, S, a);
		value_release(&I->heap, s);
		return v;
	}
	value_release(&I->heap, s);
	if (!STOPPED)
		interp_limit(I, "no match arm matched (an internal error)");
	return v_empty();
}
