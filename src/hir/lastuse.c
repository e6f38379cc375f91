/*
 * lastuse.c — moving a borrowed owned local at its last use (hir.h).
 *
 * A compiler-owned operation that keeps a borrowed argument — map_set's key
 * and value, map_add's and set_insert's key, map_get_or's default (returned
 * when the key is absent) — copies it, since the caller keeps its value
 * (LANGUAGE.md §5.1).  When the argument is an owned local that nothing
 * reads again, the copy is only work: building a nesting through a variable
 * (`let n = make(…); m = map_set(m, k, n);`) copied the whole nesting per
 * level.  This pass rewrites such an argument from HIR_LOCAL to HIR_MOVE:
 * every lane already takes a moved (fresh) value there instead of copying
 * it, and a moved slot is emptied, so the scope's release skips it.  So is
 * the collection an element is copied out of (vec_clone_at's Vec,
 * map_value_at's, map_key_at's and map_get_or's Map, set_key_at's Set):
 * a lane that receives it owned (moved or fresh) releases it after the
 * call, and takes the element out (zeroing its place) instead of copying it.
 *
 * The argument may also be a path of record or class fields of the local
 * (`n.kids`, `h.node.kids`; the last field owned, no generic type on the
 * way): it becomes a take (HIR_FIELD take), which every lane already does
 * in place (the field is zeroed in the record), so the rest of the record is
 * still released once, field by field, by the local's scope.
 *
 * The rule is conservative; a slot s read by candidate c is moved only when
 *   - s is owned (not lent, not Copy, not a T-typed slot of a generic body),
 *     and a parameter only of a declared function without `ensures` (an
 *     `ensures` reads the parameters at exit, and a failing contract's
 *     report prints them);
 *   - c lies in the body, not in a `requires`/`ensures` clause (a failing
 *     clause's report prints the parameters: a moved one would read
 *     `<moved>`);
 *   - c is the last mention of s in evaluation order (requires, body,
 *     ensures): no later read, field read, assignment, field store or
 *     closure capture, on any path — a use in a later `match` arm or `else`
 *     branch counts too;
 *   - c lies in no loop (a `while` with its condition, a `for` body) that
 *     does not also enclose the binding of s: the next iteration would read
 *     s again;
 *   - nothing may still see s's storage: s is mentioned nowhere under an
 *     expression whose type holds a view (`string_as_str(s)`), in the value
 *     of a `let`/assignment of a lent or view-holding slot (an alias), or in
 *     a closure's captures;
 *   - a borrowing region that lends s has ended before c: s mentioned in
 *     the iterable of a borrowing `for` or the scrutinee of a non-`own`
 *     match of a non-Copy value is lent to the item or the bindings until
 *     the loop or match ends (c must come after it), and for good when a
 *     binding escapes (is itself seen by a view, an alias or a capture) or
 *     the match yields a non-Copy value (it may be a binding).
 * Or, instead of the last two conditions on mentions and loops: s's next
 * mention after c assigns it whole (`s = e`, e not naming s), no construct
 * that may not run (a branch, an arm, a guard's arm value, a loop's
 * condition or body, `&&`'s right operand) began between c and it, and it
 * is in c's loops or c is in no loop s's binding is not in (kill): every
 * path from c reaches the assignment before any read, and every lane
 * evaluates e, then releases what s holds (an emptied slot: nothing), then
 * stores.  The checker admits such an assignment for a string only (U105:
 * other owned values are reopened by an update that consumes them), so this
 * is the string renewed in a loop after a map_set/set_insert.
 * Observable behaviour is unchanged (output, status, contract reports, the
 * leak check); only copies go.  A collection lent by the caller (a borrowed
 * parameter's map_get_or) is copied out of: the caller keeps it.
 */
#include "hir.h"

#include <stdlib.h>
#include <string.h>

typedef struct Cand {
	HirExpr *e;           /* HIR_LOCAL, or a HIR_FIELD path of one (moved by a take) */
	HirSlot slot;
	uint32_t order;
	int depth;
	bool killed;          /* the slot's next mention reassigns it whole on every path */
} Cand;

typedef struct LastUse {
	Sema *S;
	const HirFunc *f;
	uint32_t order;      /* evaluation order of mentions */
	int depth;           /* enclosing loops */
	int view;            /* > 0: mentions here may be seen by a view or alias */
	uint32_t *last;      /* per slot: order of its last mention */
	int32_t *def_depth;  /* per slot: loops enclosing its binding; -1 unknown */
	bool *seen;          /* per slot: a view, alias or capture may see it */
	uint32_t *lent_to;   /* per slot: order at which the last borrowing region lending it ends */
	int collect;         /* > 0: mentions are inside a borrowing region's iterable or scrutinee */
	bool contract;       /* in a requires/ensures clause: no candidates (a failing clause's
	                        report prints the parameters, a moved one as `<moved>`) */
	VEC(HirSlot) lending;/* slots mentioned there, per open region (from its start index) */
	VEC(Cand) cands;
	uint32_t *pend;      /* per slot: 1 + the index of its latest candidate, or 0 */
	uint32_t cond;       /* evaluation order at which the innermost construct that may
	                        not run (a branch, an arm, a loop's body, `&&`'s right) began */
} LastUse;

static void lu_expr(LastUse *L, HirExpr *e);
static void lu_block(LastUse *L, HirBlock *b);

static void
mention(LastUse *L, HirSlot s)
{
	if (s >= (HirSlot)L->f->nlocals)
		return;
	L->last[s] = ++L->order;
	if (L->view > 0)
		L->seen[s] = true;
	else if (L->collect > 0)
		VEC_PUSH(L->lending, s);
}

/*
 * A borrowing region: a borrowing `for` (its item lent from the iterable) or
 * a plain match of a non-Copy scrutinee (its bindings lent from it).  The
 * slots its iterable/scrutinee mentions are lent until the region ends —
 * unless a binding escapes (is itself seen by a view, an alias or a
 * capture), or the match yields a value that may be a binding (a non-Copy
 * result): then they stay seen for good, as before.
 */
static size_t
region_open(LastUse *L)
{
	L->collect++;
	return (size_t)L->lending.len;
}

static void
region_lent(LastUse *L)
{
	L->collect--;
}

/* Is one of a region's bindings seen by a view, an alias or a capture? */
static bool
region_escapes(LastUse *L, const HirSlot *binds, int nbinds)
{
	for (int i = 0; i < nbinds; i++)
		if (binds[i] < (HirSlot)L->f->nlocals && L->seen[binds[i]])
			return true;
	return false;
}

static void
region_close(LastUse *L, size_t start, bool escapes)
{
	for (size_t i = start; i < (size_t)L->lending.len; i++) {
		HirSlot s = L->lending.items[i];
		if (escapes)
			L->seen[s] = true;
		else if (L->lent_to[s] < L->order)
			L->lent_to[s] = L->order;
	}
	if (L->collect == 0)
		L->lending.len = (int)start;
}

static void
bind(LastUse *L, HirSlot s, int depth)
{
	if (s < (HirSlot)L->f->nlocals)
		L->def_depth[s] = depth;
}

/*
 * Code that may not run once control reaches its construct — a branch of an
 * `if`, an arm of a `match` (its guard too), a loop's condition and body, the
 * right operand of `&&`/`||` — opens a conditional region; L->cond is the
 * order at which the innermost open one began.  A mention made while
 * L->cond < c.order lies in no region that began after mention c: every path
 * from c reaches it (the language has no `return`, `break` or `continue`;
 * `?` leaves the function, whose release skips an emptied slot).
 */
static uint32_t
cond_open(LastUse *L)
{
	uint32_t saved = L->cond;
	L->cond = L->order;
	return saved;
}

static void
cond_close(LastUse *L, uint32_t saved)
{
	L->cond = saved;
}

/*
 * Slot s is assigned whole (its value, already walked, does not mention it,
 * or that mention came between): when its previous mention was candidate c,
 * c's value dies here on every path — the assignment is unconditional after
 * c, and either in the same loops as c or c is in no loop its binding is not
 * in (the next iteration reads the new value).  Every lane evaluates the new
 * value, then releases what the slot holds (an emptied slot: nothing), then
 * stores, so c may move.
 */
static void
kill(LastUse *L, HirSlot s)
{
	if (s >= (HirSlot)L->f->nlocals || !L->pend[s])
		return;
	Cand *c = &L->cands.items[L->pend[s] - 1];
	if (L->last[s] == c->order && L->cond < c->order &&
	    (L->depth == c->depth || L->def_depth[s] == c->depth))
		c->killed = true;
}

static bool
holds_view(LastUse *L, TypeId t)
{
	return t != T_ERR && sema_type_view(L->S, t) != NULL;
}

/* Is argument i of builtin bi a borrowed value the operation keeps, or the
 * collection an element is copied out of (taken when it arrives owned)? */
static bool
kept_borrow(BuiltinId bi, int i)
{
	switch (bi) {
	case BI_map_set: return i == 1 || i == 2;
	case BI_map_add: case BI_set_insert: return i == 1;
	case BI_map_get_or: return i == 0 || i == 2;
	case BI_vec_clone_at: case BI_map_value_at: case BI_map_key_at: case BI_set_key_at: return i == 0;
	default: return false;
	}
}

/*
 * The slot an argument reads whole (HIR_LOCAL) or through a path of record
 * or class fields (`n.kids`, `n.a.b`) whose last field is owned: a path is
 * moved by a take (the lanes zero the field in place, so the rest of the
 * record is released once, field by field).  Generic types are left alone
 * (a T-typed field may be Copy in an instance).
 */
static bool
movable_arg(LastUse *L, const HirExpr *a, HirSlot *slot)
{
	if (a->kind == HIR_LOCAL) {
		*slot = a->u.slot;
		return true;
	}
	if (a->kind != HIR_FIELD || a->u.field.take || a->type == T_ERR || sema_is_copy(L->S, a->type) ||
	    sema_type_info(&L->S->types, a->type)->open)
		return false;
	for (const HirExpr *x = a; x->kind == HIR_FIELD; x = x->u.field.base) {
		const HirExpr *b = x->u.field.base;
		if (x->u.field.take || x->u.field.field < 0 || b->type == T_ERR)
			return false;
		const TypeInfo *ti = sema_type_info(&L->S->types, b->type);
		if (ti->kind != TY_NOMINAL || ti->open)
			return false;
		const Sym *sym = sema_sym(L->S, (SymId)ti->decl);
		if (!sym || (sym->kind != SK_RECORD && sym->kind != SK_CLASS))
			return false;
		if (b->kind == HIR_LOCAL) {
			*slot = b->u.slot;
			return true;
		}
	}
	return false;
}

static void
lu_call(LastUse *L, HirExpr *e)
{
	bool builtin = e->u.call.kind == CALL_BUILTIN && e->u.call.builtin;
	if (e->u.call.kind == CALL_SLOT)
		mention(L, e->u.call.callee);
	for (int i = 0; i < e->u.call.nargs; i++) {
		HirExpr *a = e->u.call.args[i];
		lu_expr(L, a);
		HirSlot slot;
		if (builtin && !L->contract && kept_borrow(e->u.call.builtin->bid, i) && movable_arg(L, a, &slot)) {
			Cand c = { a, slot, L->order, L->depth, false };
			VEC_PUSH(L->cands, c);
			if (slot < (HirSlot)L->f->nlocals)
				L->pend[slot] = (uint32_t)L->cands.len;
		}
	}
	/* a lane may read the callee after the arguments */
	if (e->u.call.kind == CALL_SLOT)
		mention(L, e->u.call.callee);
}

static void
lu_expr(LastUse *L, HirExpr *e)
{
	if (!e)
		return;
	bool view = holds_view(L, e->type);
	L->view += view;
	switch (e->kind) {
	case HIR_INT: case HIR_FLOAT: case HIR_BOOL: case HIR_CHAR: case HIR_STRING: case HIR_FUNC:
		break;
	case HIR_LOCAL: case HIR_MOVE:
		mention(L, e->u.slot);
		break;
	case HIR_CLOSURE:
		L->view++;
		for (int i = 0; i < e->u.closure.ncaptures; i++)
			mention(L, e->u.closure.captures[i]);
		L->view--;
		break;
	case HIR_UNARY:
		lu_expr(L, e->u.un.x);
		break;
	case HIR_BINARY: {
		lu_expr(L, e->u.bin.l);
		bool lazy = e->u.bin.op == BIN_AND || e->u.bin.op == BIN_OR;
		uint32_t saved = lazy ? cond_open(L) : 0;
		lu_expr(L, e->u.bin.r);
		if (lazy)
			cond_close(L, saved);
		break;
	}
	case HIR_CALL:
		lu_call(L, e);
		break;
	case HIR_FIELD:
		lu_expr(L, e->u.field.base);
		break;
	case HIR_TRY:
		lu_expr(L, e->u.try_.x);
		break;
	case HIR_WITH: case HIR_RECORD: case HIR_VARIANT:
		lu_expr(L, e->u.agg.base);
		for (int i = 0; i < e->u.agg.n; i++)
			lu_expr(L, e->u.agg.values[i]);
		break;
	case HIR_BLOCK:
		lu_block(L, e->u.block);
		break;
	case HIR_IF: {
		lu_expr(L, e->u.if_.cond);
		uint32_t saved = cond_open(L);
		lu_block(L, e->u.if_.then_);
		cond_close(L, saved);
		saved = cond_open(L);
		lu_block(L, e->u.if_.else_);
		cond_close(L, saved);
		break;
	}
	case HIR_MATCH: {
		HirExpr *x = e->u.match.scrutinee;
		bool lends = e->u.match.mode != MATCH_OWN && x->type != T_ERR && !sema_is_copy(L->S, x->type);
		size_t start = lends ? region_open(L) : 0;
		lu_expr(L, x);
		if (lends)
			region_lent(L);
		bool escapes = e->type == T_ERR || !sema_is_copy(L->S, e->type) || holds_view(L, e->type);
		for (int i = 0; i < e->u.match.narms; i++) {
			HirArm *a = &e->u.match.arms[i];
			for (int k = 0; k < a->nbinds; k++)
				bind(L, a->binds[k], L->depth);
			uint32_t saved = cond_open(L);
			lu_expr(L, a->guard);
			uint32_t guarded = cond_open(L);   /* the value runs only when the guard holds */
			lu_expr(L, a->value);
			cond_close(L, guarded);
			cond_close(L, saved);
		}
		if (lends) {
			for (int i = 0; i < e->u.match.narms && !escapes; i++)
				escapes = region_escapes(L, e->u.match.arms[i].binds, e->u.match.arms[i].nbinds);
			region_close(L, start, escapes);
		}
		break;
	}
	case HIR_ARRAY:
		for (int i = 0; i < e->u.array.n; i++)
			lu_expr(L, e->u.array.elems[i]);
		break;
	}
	L->view -= view;
}

/* Does storing into slot s keep a view or alias of what its value mentions? */
static bool
keeps_view(LastUse *L, HirSlot s)
{
	if (s >= (HirSlot)L->f->nlocals)
		return false;
	const HirLocal *l = &L->f->locals[s];
	return l->lent || holds_view(L, l->type);
}

static void
lu_block(LastUse *L, HirBlock *b)
{
	if (!b)
		return;
	for (int i = 0; i < b->nstmts; i++) {
		HirStmt *s = b->stmts[i];
		bool lends;
		switch (s->kind) {
		case HS_LET:
		case HS_ASSIGN:
			lends = keeps_view(L, s->slot);
			L->view += lends;
			lu_expr(L, s->value);
			L->view -= lends;
			if (s->kind == HS_LET) {
				bind(L, s->slot, L->depth);
			} else {
				kill(L, s->slot);
				mention(L, s->slot);
			}
			break;
		case HS_SET_FIELD:
			lu_expr(L, s->value);
			mention(L, s->slot);
			break;
		case HS_WHILE: {
			L->depth++;
			uint32_t saved = cond_open(L);
			lu_expr(L, s->value);
			uint32_t body = cond_open(L);   /* the body runs only when the condition holds */
			lu_block(L, s->body);
			cond_close(L, body);
			cond_close(L, saved);
			L->depth--;
			break;
		}
		case HS_FOR: {
			lends = !s->own;
			size_t start = lends ? region_open(L) : 0;
			lu_expr(L, s->value);
			if (lends)
				region_lent(L);
			L->depth++;
			uint32_t saved = cond_open(L);
			bind(L, s->slot, L->depth);
			lu_block(L, s->body);
			cond_close(L, saved);
			L->depth--;
			if (lends)
				region_close(L, start, region_escapes(L, &s->slot, 1));
			break;
		}
		case HS_EXPR:
			lu_expr(L, s->value);
			break;
		case HS_UNSAFE:
			lu_block(L, s->body);
			break;
		}
	}
	lu_expr(L, b->tail);
}

static void
last_use_func(Sema *S, HirFunc *f)
{
	if (f->nlocals == 0)
		return;
	LastUse L;
	memset(&L, 0, sizeof L);
	L.S = S;
	L.f = f;
	size_t n = (size_t)f->nlocals;
	L.last = spx_xcalloc(n, sizeof *L.last);
	L.def_depth = spx_xmalloc(n * sizeof *L.def_depth);
	L.seen = spx_xcalloc(n, sizeof *L.seen);
	L.lent_to = spx_xcalloc(n, sizeof *L.lent_to);
	L.pend = spx_xcalloc(n, sizeof *L.pend);
	for (int i = 0; i < f->nlocals; i++)
		L.def_depth[i] = i < f->nparams ? 0 : -1;
	L.contract = true;
	for (int i = 0; i < f->nrequires; i++)
		lu_expr(&L, f->requires[i]);
	L.contract = false;
	lu_block(&L, f->body);
	L.contract = true;
	for (int i = 0; i < f->nensures; i++)
		lu_expr(&L, f->ensures[i]);
	for (int i = 0; i < L.cands.len; i++) {
		Cand c = L.cands.items[i];
		HirSlot s = c.slot;
		if (s >= (HirSlot)f->nlocals)
			continue;
		const HirLocal *l = &f->locals[s];
		if (!l->owned || l->lent || L.seen[s] || L.lent_to[s] >= c.order ||
		    (!c.killed && (L.last[s] != c.order || L.def_depth[s] != c.depth)))
			continue;
		if (l->param && (f->kind != HIR_FUNC_DECL || f->nensures > 0))
			continue;
		if (c.e->kind == HIR_LOCAL)
			c.e->kind = HIR_MOVE;
		else
			c.e->u.field.take = true;
	}
	VEC_FREE(L.cands);
	VEC_FREE(L.lending);
	free(L.lent_to);
	free(L.pend);
	free(L.last);
	free(L.def_depth);
	free(L.seen);
}

void
hir_last_use(HirModule *h)
{
	for (int i = 0; i < h->nfuncs; i++)
		last_use_func(h->S, &h->funcs[i]);
}

bool
hir_expr_mentions(const HirExpr *e, HirSlot s)
{
	switch (e->kind) {
	case HIR_LOCAL: case HIR_MOVE:
		return e->u.slot == s;
	case HIR_CALL:
		return e->u.call.kind == CALL_SLOT && e->u.call.callee == s;
	case HIR_CLOSURE:
		for (int i = 0; i < e->u.closure.ncaptures; i++)
			if (e->u.closure.captures[i] == s)
				return true;
		return false;
	default:
		return false;
	}
}
