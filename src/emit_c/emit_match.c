/*
 * emit_match.c — `match` → C (LANGUAGE.md §4.5): each arm's pattern test
 * over the scrutinee (pat_test) and its bindings (bind_pat), the arms as
 * `if (test) { … goto m; }` in order, and runs of literal arms over an
 * integer, char or bool scrutinee as one C `switch` (emit_switch).  The
 * result goes through emit_expr.c's emitc_result_var/emitc_store_result, as
 * an `if`'s does.  Split from emit_expr.c (rev35); the generated C is the
 * same.
 */
#include "emit_int.h"

#include <inttypes.h>
#include <string.h>


/* The C test of pattern p (resolved, hir.h) over s of type t. */
static bool
pat_test(Emit *E, Buf *out, const HirPattern *p, TypeId t, const char *s)
{
	switch (p->kind) {
	case HIR_PAT_WILD: case HIR_PAT_BIND: case HIR_PAT_RECORD:
		buf_puts(out, "1");
		return true;
	case HIR_PAT_LIT:
		if (p->lit.kind == HIR_BOOL)
			buf_printf(out, "%s == %s", s, p->lit.b ? "true" : "false");
		else if (p->lit.kind == HIR_CHAR)
			buf_printf(out, "%s == UINT32_C(%" PRIu32 ")", s, p->lit.ch);
		else if (p->lit.kind == HIR_INT && emitc_is_int(E, t))
			buf_printf(out, "%s == %s", s, emitc_int_lit(E, t, p->lit.i, p->lit.negative));
		else
			return false;
		return true;
	case HIR_PAT_OR:
		buf_putc(out, '(');
		for (int i = 0; i < p->nalts; i++) {
			if (i)
				buf_puts(out, " || ");
			buf_putc(out, '(');
			if (!pat_test(E, out, p->alts[i], t, s))
				return false;
			buf_putc(out, ')');
		}
		buf_putc(out, ')');
		return true;
	case HIR_PAT_CASE: {
		Sym *sym = emitc_nominal_sym(E, t);
		if (!sym || sym->kind != SK_VARIANT || p->case_index < 0)
			return false;
		buf_printf(out, "%s.tag == %d", s, p->case_index);
		return true;
	}
	}
	return false;
}

/* Binding state: the places bound (to zero them when the match owns the scrutinee). */
typedef struct Binder {
	VEC(Temp) taken;
} Binder;

/* Binds the slots of p over v of type t (field types: the pattern's, in the instance). */
static bool
bind_pat(Emit *E, const HirPattern *p, TypeId t, const char *v, Binder *B)
{
	switch (p->kind) {
	case HIR_PAT_BIND: {
		HirSlot s = p->slot;
		emitc_line(E, "%s = %s;", emitc_slot_name(E, s), v);
		if (E->slot_own[s]) {
			Temp tp = { v, t };
			VEC_PUSH(B->taken, tp);
		}
		return true;
	}
	case HIR_PAT_CASE: case HIR_PAT_RECORD:
		break;
	default:
		return true;
	}
	Sym *sym = emitc_nominal_sym(E, t);
	int ci = p->kind == HIR_PAT_CASE ? p->case_index : -1;
	if (!sym || (p->kind == HIR_PAT_CASE && ci < 0))
		return false;
	for (int i = 0; i < p->nfields; i++) {
		int fi = p->fields[i];
		const char *access;
		if (ci >= 0)
			access = arena_printf(&E->a, "%s.u.c_%s.f_%s", v, sym->nom->cases[ci].name, sym->nom->cases[ci].fields[fi].name);
		else
			access = arena_printf(&E->a, "%s.f_%s", v, sym->nom->fields[fi].name);
		emitc_types_grow(E);
		if (!bind_pat(E, p->subs[i], emitc_sty(E, p->subs[i]->type), access, B))
			return false;
	}
	return true;
}

/* Emits arm a: `if (test) { … goto m; }`, or, a switch's case (sw: its
 * labels are written), `{ … goto m; }`. */
static void
emit_arm(Emit *E, const HirArm *a, TypeId st, const char *s, bool own, const char *m, const char *r, TypeId rt, bool lend,
	 bool sw)
{
	Buf test = {0};
	if (sw) {
		emitc_line(E, "{");
	} else if (!pat_test(E, &test, a->pat, st, s)) {
		buf_free(&test);
		emitc_refuse(E, a->pat->span, "the native lane does not support this pattern yet");
		return;
	} else {
		emitc_line(E, "if (%s) {", test.data);
	}
	buf_free(&test);
	E->indent++;
	Binder B = { {0} };
	if (!bind_pat(E, a->pat, st, s, &B)) {
		VEC_FREE(B.taken);
		emitc_refuse(E, a->pat->span, "the native lane does not support this pattern yet");
		return;
	}
	const char *g = NULL;
	if (a->guard) {
		int mark = emitc_temps_mark(E);
		Val gv = emitc_ev(E, a->guard);
		emitc_temps_release(E, mark);
		if (!gv.c) {
			VEC_FREE(B.taken);
			return;
		}
		g = gv.c;
		emitc_line(E, "if (%s) {", g);
		E->indent++;
	}
	/* the match owns the scrutinee: the bound parts move into their slots */
	for (int i = 0; own && i < B.taken.len; i++)
		emitc_line(E, "%s = (%s)%s;", B.taken.items[i].name, emit_tyname(E, B.taken.items[i].t),
		     emitc_zero_init(E, B.taken.items[i].t));
	VEC_FREE(B.taken);
	emitc_store_result(E, emitc_ev(E, a->value), r, rt, lend);
	for (int i = a->nbinds - 1; i >= 0; i--)
		if (E->slot_own[a->binds[i]])
			emitc_release_place(E, emitc_slot_type(E, a->binds[i]), emitc_slot_name(E, a->binds[i]));
	emitc_line(E, "goto %s;", m);
	if (g) {
		E->indent--;
		emitc_line(E, "}");
	}
	E->indent--;
	emitc_line(E, "}");
}

/* ---- literal arms as a C switch ----
 *
 * A run of arms whose patterns are integer or char literals (or
 * or-patterns of them), without a guard, over an integer or char scrutinee
 * is one C `switch`, each arm a case ending `goto m`: gcc turned the `if`s
 * into a switch itself, in time super-linear in the arms (32,000 arms:
 * 4.7 s; DECISIONS, native lane).  A value seen earlier in the run ends it
 * (C forbids a duplicate case; the later arm's test is an `if` again, after
 * the switch, which keeps the arms' order).  A bool scrutinee keeps its
 * `if`s (two values; a switch on a bool is a gcc warning). */
typedef struct LitSet {
	uint64_t *key;
	int *arm;       /* the arm a key came from, -1: free */
	size_t *used;   /* the slots taken by the run being read */
	size_t cap, nused;
} LitSet;

/* The C value of literal pattern q over type t as a key, or false when q
 * is not an integer or char literal of a switchable scrutinee. */
static bool
lit_key(Emit *E, const HirPattern *q, TypeId t, uint64_t *key)
{
	if (q->kind != HIR_PAT_LIT)
		return false;
	TyKind k = emitc_tinfo(E, t)->kind;
	if (q->lit.kind == HIR_CHAR && k == TY_CHAR) {
		*key = q->lit.ch;
		return true;
	}
	if (q->lit.kind != HIR_INT || !emitc_is_int(E, t))
		return false;
	uint64_t v = q->lit.negative ? (uint64_t)0 - q->lit.i : q->lit.i;
	*key = k == TY_U8 ? v & 0xffu : k == TY_I32 ? v & 0xffffffffu : v;
	return true;
}

/* The literal patterns of arm a (one, or an or-pattern's), in *q; 0 when
 * a is no switch case. */
static int
arm_lits(Emit *E, const HirArm *a, TypeId t, const HirPattern *const **q)
{
	const HirPattern *p = a->pat;
	if (a->guard || a->nbinds > 0)
		return 0;
	int n = p->kind == HIR_PAT_OR ? p->nalts : 1;
	*q = p->kind == HIR_PAT_OR ? (const HirPattern *const *)p->alts : (const HirPattern *const *)&a->pat;
	uint64_t k;
	for (int i = 0; i < n; i++)
		if (!lit_key(E, (*q)[i], t, &k))
			return 0;
	return n;
}

/* The slot of key in S (free, or holding key). */
static size_t
lit_slot(const LitSet *S, uint64_t key)
{
	size_t h = (size_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> 17) & (S->cap - 1);
	while (S->arm[h] >= 0 && S->key[h] != key)
		h = (h + 1) & (S->cap - 1);
	return h;
}

/* The end of the switch run of e's arms from arm i (i itself: no run of
 * two), its keys in S. */
static int
switch_run(Emit *E, const HirExpr *e, int i, TypeId t, LitSet *S)
{
	int narms = e->u.match.narms, j = i;
	for (; j < narms; j++) {
		const HirPattern *const *q;
		int n = arm_lits(E, &e->u.match.arms[j], t, &q);
		if (n == 0)
			break;
		bool fresh = true;
		for (int k = 0; k < n && fresh; k++) {
			uint64_t key;
			lit_key(E, q[k], t, &key);
			size_t h = lit_slot(S, key);
			fresh = S->arm[h] < 0 || S->arm[h] == j;
			if (fresh && S->arm[h] < 0) {
				S->key[h] = key;
				S->arm[h] = j;
				S->used[S->nused++] = h;
			}
		}
		if (!fresh)
			break;
	}
	for (size_t u = 0; u < S->nused; u++)
		S->arm[S->used[u]] = -1;
	S->nused = 0;
	return j - i >= 2 ? j : i;
}

/* Arms i .. j-1 as one switch over s. */
static void
emit_switch(Emit *E, const HirExpr *e, int i, int j, TypeId st, const char *s, bool own, const char *m, const char *r,
	    TypeId rt)
{
	/* a literal scrutinee (`match 126 { … }`) goes through a temporary:
	 * clang warns on a switch over a constant that no case matches */
	const char *v = s;
	if (s[0] != 't' || strspn(s + 1, "0123456789") != strlen(s + 1) || !s[1]) {
		v = emitc_new_tmp(E);
		emitc_line(E, "%s %s = %s;", emit_tyname(E, st), v, s);
	}
	emitc_line(E, "switch (%s) {", v);
	for (int a = i; a < j && !E->failed; a++) {
		const HirArm *arm = &e->u.match.arms[a];
		const HirPattern *const *q;
		int n = arm_lits(E, arm, st, &q);
		/* an or-pattern's repeated value is one label */
		for (int k = 0; k < n; k++) {
			uint64_t key, other;
			lit_key(E, q[k], st, &key);
			bool again = false;
			for (int l = 0; l < k && !again; l++)
				again = lit_key(E, q[l], st, &other) && other == key;
			if (again)
				continue;
			if (q[k]->lit.kind == HIR_CHAR)
				emitc_line(E, "case UINT32_C(%" PRIu32 "):", q[k]->lit.ch);
			else
				emitc_line(E, "case %s:", emitc_int_lit(E, st, q[k]->lit.i, q[k]->lit.negative));
		}
		emit_arm(E, arm, st, s, own, m, r, rt, e->lends, true);
	}
	emitc_line(E, "}");
}

Val
emitc_match(Emit *E, const HirExpr *e)
{
	const HirExpr *sc = e->u.match.scrutinee;
	Val s = emitc_ev(E, sc);
	if (!s.c)
		return emitc_val(NULL, 0, false);
	bool own = e->u.match.mode == MATCH_OWN && !emitc_is_copy(E, s.t);
	if (own)
		s = emitc_own_val(E, s);
	if (own && !s.c)
		return emitc_val(NULL, 0, false);
	s = emitc_borrow_val(E, s);   /* an owned scrutinee lives in a temporary until the scope ends */
	TypeId rt = emitc_sty(E, e->type);
	const char *r = emitc_result_var(E, rt, e->span);
	if (E->failed)
		return emitc_val(NULL, 0, false);
	/* arms that neither test nor bind (`Pt { x: _, y: _ }`) leave a copied
	 * scrutinee unread: mark it used (a plain name only, never re-evaluated) */
	if (strspn(s.c, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == strlen(s.c))
		emitc_line(E, "(void)%s;", s.c);
	/* The arm taken jumps past the others, to a label defined before the
	 * arms (`if (0) { m:; } else { arms }`): no `bool taken` flag tested by
	 * every arm (gcc's branch prediction over it was quadratic in the arms),
	 * and no forward goto (gcc's parser tracks each pending one at every
	 * scope's end, also quadratic).  DECISIONS, native lane. */
	const char *m = arena_printf(&E->a, "spx_m%d", E->tmp++);
	int narms = e->u.match.narms;
	if (narms > 0) {
		emitc_line(E, "if (0) {");
		emitc_line(E, "%s:;", m);
		emitc_line(E, "} else {");
		E->indent++;
	}
	LitSet S = { NULL, NULL, NULL, 16, 0 };
	for (int i = 0; i < narms && !E->failed; i++) {
		const HirPattern *const *q;
		if (arm_lits(E, &e->u.match.arms[i], s.t, &q) > 0 && !S.key) {
			/* a run's keys (or-patterns hold several), the table at most half full */
			size_t lits = 0;
			for (int a = 0; a < narms; a++)
				lits += (size_t)arm_lits(E, &e->u.match.arms[a], s.t, &q);
			while (S.cap < 2 * lits)
				S.cap *= 2;
			S.key = ARENA_ARRAY(&E->a, uint64_t, S.cap);
			S.arm = ARENA_ARRAY(&E->a, int, S.cap);
			S.used = ARENA_ARRAY(&E->a, size_t, S.cap);
			for (size_t h = 0; h < S.cap; h++)
				S.arm[h] = -1;
		}
		int j = S.key ? switch_run(E, e, i, s.t, &S) : i;
		if (j > i) {
			emit_switch(E, e, i, j, s.t, s.c, own, m, r, rt);
			i = j - 1;
		} else {
			emit_arm(E, &e->u.match.arms[i], s.t, s.c, own, m, r, rt, e->lends, false);
		}
	}
	if (E->failed)
		return emitc_val(NULL, 0, false);
	if (narms > 0) {
		E->indent--;
		emitc_line(E, "}");
	}
	return r ? emitc_val(r, rt, !e->lends) : emitc_val("0", T_I64, false);
}
