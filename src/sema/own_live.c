/*
 * own_live.c — T265's liveness of a view at its owner's change: may the
 * view variable be read, on some path from here, before it is given a new
 * value?  A backward question answered by a forward look at the syntax
 * after the change (own_view.c asks it only where an edge of a changed
 * owner is alive):
 *
 *   each construct after the change is PASS (does not touch the view on
 *   some path), KILL (assigns it whole, with a value not naming it, before
 *   any read on every path) or LIVE (reads it first on some path); a
 *   sequence takes its first non-PASS part; a branch (if/else, the arms
 *   of a match) is LIVE when one branch is, KILL when all are; a loop is
 *   LIVE when its condition or body reads first, else PASS (it may run no
 *   time, and its next iteration is the same code).
 *
 * From the change, the walk goes outwards through the blocks being walked
 * (Own.blocks): the rest of the statement holding the change (an `if` or
 * `match` taken apart: after its condition or scrutinee, the branches or
 * arms; after an arm's value, none of its siblings; after a guard, that
 * arm's value or the later arms), then the
 * block's later statements and tail, then the enclosing block, until a
 * decision, or until the view's own block ends (dead).  Out of a loop body
 * (or condition) the next iteration is looked at before what follows the
 * loop.  Only syntax counts, and every shortcut is the safe side: any read
 * inside a construct this file does not take apart (a call's arguments, a
 * closure) is LIVE (an operator's operands are taken in order; the right
 * one of `&&`/`||` may not run); a `let`, `match` binding or `for` item of
 * the same name hides the view (its reads and assignments are another
 * variable's); a branch under a literal `true`/`false` condition that
 * cannot run is skipped (the only unreached code the language can write:
 * it has no `return`, `break` or `continue`, and `?` leaves on one path
 * only).  Conditions are correlated only through a fact (own_fact.c): the
 * innermost `if` or `match` the change lies in directly may give one,
 * which decides later `if`/`while` conditions and rules out later match
 * arms for the rest of the walk.  Otherwise `if c { w = … }` then `if c {
 * read w }` is LIVE.
 *
 * Cost: the function's reads, whole assignments and `let`s of each name
 * are indexed once (sorted by name, offset); a block's statements that do
 * not touch the name are skipped by binary search, and the answer for the
 * rest of a block from a statement is remembered per (block, statement,
 * name) when finding it took more than one statement, so a stretch of
 * statements is walked once per view name however many changes ask (no
 * look-ahead cap).
 */
#include "own_int.h"

#include <stdlib.h>
#include <string.h>

enum { LV_PASS, LV_KILL, LV_LIVE, LV_SHADOW };

typedef struct Live {
	Own *O;
	const char *name;
	uint32_t hash;
	const struct OwnOcc *reads, *kills;   /* the name's entries of Own.occ and Own.kills, by offset */
	int nreads, nkills;
	/* a condition known on every path from the change (0: none; own_fact.c):
	 * the change lies in the then (else) branch of `if c`, so c is true
	 * (false) until the block declaring c ends */
	int fact;
	uint32_t fact_let;    /* the offset of c's one `let` */
	uint32_t fact_reach;  /* past it no condition the fact decides is read */
} Live;

static int
lv_join(int a, int b)
{
	if (a == LV_LIVE || b == LV_LIVE)
		return LV_LIVE;
	return a == LV_KILL && b == LV_KILL ? LV_KILL : LV_PASS;
}

/* ---- the occurrence index ---- */

static void
read_visit(void *ctx, const Expr *e)
{
	Own *O = ctx;
	if (e->kind == EXPR_NAME) {
		struct OwnOcc u = { e->u.name.s, e->span.start, false, false };
		VEC_PUSH(O->occ, u);
	}
}

/* The whole assignments and `let`s directly in a block, and in the loop and unsafe
 * bodies under its statements (blocks inside expressions: kill_visit). */
static void
kill_stmts(Own *O, const Block *b)
{
	if (!b)
		return;
	for (int i = 0; i < b->nstmts; i++) {
		const Stmt *s = b->stmts[i];
		if (s->kind == STMT_ASSIGN && !s->u.assign.has_field && s->u.assign.target.s) {
			struct OwnOcc u = { s->u.assign.target.s, s->u.assign.target.span.start, false, false };
			VEC_PUSH(O->kills, u);
		} else if (s->kind == STMT_LET && s->u.let.name.s) {   /* hides the name: looked at too */
			struct OwnOcc u = { s->u.let.name.s, s->u.let.name.span.start, true, s->u.let.mut };
			VEC_PUSH(O->kills, u);
			if (s->u.let.value) {
				struct OwnLetDef d = { s->u.let.name.s, s->u.let.value };
				VEC_PUSH(O->letdefs, d);
			}
		} else if (s->kind == STMT_WHILE) {
			kill_stmts(O, s->u.while_.body);
		} else if (s->kind == STMT_FOR) {
			if (s->u.for_.item.s) {
				struct OwnOcc u = { s->u.for_.item.s, s->u.for_.item.span.start, false, false };
				VEC_PUSH(O->binds, u);
			}
			kill_stmts(O, s->u.for_.body);
		} else if (s->kind == STMT_UNSAFE) {
			kill_stmts(O, s->u.unsafe.body);
		}
	}
}

/* The names pattern p binds, into Own.binds. */
static void
pat_names(Own *O, const Pattern *p)
{
	if (!p)
		return;
	const FieldPat *f = NULL;
	int n = 0;
	switch (p->kind) {
	case PAT_BIND:
		if (p->u.bind.s) {
			struct OwnOcc u = { p->u.bind.s, p->u.bind.span.start, false, false };
			VEC_PUSH(O->binds, u);
		}
		return;
	case PAT_OR:
		for (int i = 0; i < p->u.or.nalts; i++)
			pat_names(O, p->u.or.alts[i]);
		return;
	case PAT_CASE: f = p->u.case_.fields, n = p->u.case_.nfields; break;
	case PAT_RECORD: f = p->u.record.fields, n = p->u.record.nfields; break;
	default: return;
	}
	for (int i = 0; i < n; i++) {
		if (f[i].sub) {
			pat_names(O, f[i].sub);
		} else if (f[i].name.s) {
			struct OwnOcc u = { f[i].name.s, f[i].name.span.start, false, false };
			VEC_PUSH(O->binds, u);
		}
	}
}

static void
kill_visit(void *ctx, const Expr *e)
{
	Own *O = ctx;
	if (e->kind == EXPR_MATCH) {
		for (int i = 0; i < e->u.match.narms; i++)
			pat_names(O, e->u.match.arms[i].pat);
	} else if (e->kind == EXPR_BLOCK) {
		kill_stmts(O, e->u.block);
	} else if (e->kind == EXPR_IF) {
		kill_stmts(O, e->u.if_.then_block);
		kill_stmts(O, e->u.if_.else_block);
	} else if (e->kind == EXPR_CLOSURE) {
		kill_stmts(O, e->u.closure.body);
		/* a parameter may reuse an outer name (no T209): another binding of it */
		for (int i = 0; i < e->u.closure.nparams; i++)
			if (e->u.closure.params[i].name.s) {
				struct OwnOcc u = { e->u.closure.params[i].name.s, e->u.closure.params[i].name.span.start, false, false };
				VEC_PUSH(O->kills, u);
			}
	}
}

static int
occ_cmp(const void *a, const void *b)
{
	const struct OwnOcc *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : (x->at > y->at) - (x->at < y->at);
}

static int
letdef_cmp(const void *a, const void *b)
{
	const struct OwnLetDef *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : (x->value->span.start > y->value->span.start) - (x->value->span.start < y->value->span.start);
}

static void
occ_build(Own *O)
{
	if (O->occ_built)
		return;
	O->occ_built = true;   /* once per function, and only where a T265 is in question */
	sema_walk_block(O->body, read_visit, O);
	kill_stmts(O, O->body);
	sema_walk_block(O->body, kill_visit, O);
	if (O->occ.len > 1)
		qsort(O->occ.items, (size_t)O->occ.len, sizeof O->occ.items[0], occ_cmp);
	if (O->kills.len > 1)
		qsort(O->kills.items, (size_t)O->kills.len, sizeof O->kills.items[0], occ_cmp);
	if (O->binds.len > 1)
		qsort(O->binds.items, (size_t)O->binds.len, sizeof O->binds.items[0], occ_cmp);
	if (O->letdefs.len > 1)
		qsort(O->letdefs.items, (size_t)O->letdefs.len, sizeof O->letdefs.items[0], letdef_cmp);
	O->fact_budget = OWN_FACT_WORK + (int64_t)OWN_FACT_WORK_PER * (O->occ.len + O->kills.len);
}

/* The entries of name in a sorted index: *n of them from the result. */
const struct OwnOcc *
sema_own_occ_range(const struct OwnOcc *items, int len, const char *name, int *n)
{
	if (len == 0) {   /* an empty index may be NULL: NULL + 0 is undefined */
		*n = 0;
		return items;
	}
	int lo = 0, hi = len;
	while (lo < hi) {   /* the first entry not below name */
		int mid = lo + (hi - lo) / 2;
		if (strcmp(items[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	int first = lo;
	hi = len;
	while (lo < hi) {   /* … and past its last */
		int mid = lo + (hi - lo) / 2;
		if (strcmp(items[mid].name, name) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*n = lo - first;
	return items + first;
}

/* The first offset at or after from among n entries of one name, or UINT32_MAX. */
static uint32_t
at_next(const struct OwnOcc *items, int n, uint32_t from)
{
	int lo = 0, hi = n;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (items[mid].at < from)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n ? items[lo].at : UINT32_MAX;
}

/* The first offset of name at or after from in a sorted index, or UINT32_MAX. */
static uint32_t
index_next(const struct OwnOcc *items, int len, const char *name, uint32_t from)
{
	int n;
	const struct OwnOcc *r = sema_own_occ_range(items, len, name, &n);
	return at_next(r, n, from);
}

static bool
reads_in(Live *L, uint32_t from, uint32_t to)
{
	return from < to && at_next(L->reads, L->nreads, from) < to;
}

/* Reads, whole assignments or `let`s of the name in [from, to). */
static bool
touches(Live *L, uint32_t from, uint32_t to)
{
	return reads_in(L, from, to) || (from < to && at_next(L->kills, L->nkills, from) < to);
}

/* ---- the answers for the rest of a block, remembered ---- */

static uint32_t
memo_hash(const Block *b, int j, uint32_t h, int fact)
{
	return ((uint32_t)(uintptr_t)b * 2654435761u) ^ ((uint32_t)j * 2246822519u) ^ (h * 3266489917u) ^
	       ((uint32_t)fact * 668265263u);
}

static struct OwnMemo *
memo_slot(Own *O, const Block *b, int j, const char *name, uint32_t h, int fact)
{
	uint32_t k = memo_hash(b, j, h, fact) & (uint32_t)(O->memo_cap - 1);
	for (;;) {
		struct OwnMemo *m = &O->memo[k];
		if (!m->b || (m->b == b && m->j == j && m->fact == fact && strcmp(m->name, name) == 0))
			return m;
		k = (k + 1) & (uint32_t)(O->memo_cap - 1);
	}
}

static int
memo_get(Live *L, const Block *b, int j)
{
	Own *O = L->O;
	if (!O->memo_len)
		return -1;
	struct OwnMemo *m = memo_slot(O, b, j, L->name, L->hash, L->fact);
	return m->b ? m->r : -1;
}

static void
memo_put(Live *L, const Block *b, int j, int r)
{
	Own *O = L->O;
	if ((O->memo_len + 1) * 2 > O->memo_cap) {
		struct OwnMemo *old = O->memo;
		int cap = O->memo_cap;
		O->memo_cap = cap ? cap * 2 : 256;
		O->memo = spx_xcalloc((size_t)O->memo_cap, sizeof *O->memo);
		for (int k = 0; k < cap; k++)
			if (old[k].b)
				*memo_slot(O, old[k].b, old[k].j, old[k].name, old[k].h, old[k].fact) = old[k];
		free(old);
	}
	struct OwnMemo *m = memo_slot(O, b, j, L->name, L->hash, L->fact);
	if (!m->b) {
		O->memo_len++;
		*m = (struct OwnMemo){ b, j, L->name, L->hash, L->fact, r };
	}
}

/* ---- the syntax ---- */

static int r_block_from(Live *L, const Block *b, int j);

static int
r_block(Live *L, const Block *b)
{
	return b ? r_block_from(L, b, 0) : LV_PASS;
}

static bool
lit_bool(const Expr *e, bool v)
{
	return e && e->kind == EXPR_BOOL && e->u.bool_lit.value == v;
}

static bool
fields_bind(const FieldPat *f, int n, const char *name);

/* Pattern p binds name (the arm's name is then another variable). */
static bool
pat_binds(const Pattern *p, const char *name)
{
	if (!p)
		return false;
	switch (p->kind) {
	case PAT_BIND: return p->u.bind.s && strcmp(p->u.bind.s, name) == 0;
	case PAT_OR:
		for (int i = 0; i < p->u.or.nalts; i++)
			if (pat_binds(p->u.or.alts[i], name))
				return true;
		return false;
	case PAT_CASE: return fields_bind(p->u.case_.fields, p->u.case_.nfields, name);
	case PAT_RECORD: return fields_bind(p->u.record.fields, p->u.record.nfields, name);
	default: return false;
	}
}

static bool
fields_bind(const FieldPat *f, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (f[i].sub ? pat_binds(f[i].sub, name) : (f[i].name.s && strcmp(f[i].name.s, name) == 0))
			return true;
	return false;
}

static int r_expr(Live *L, const Expr *e);

/* The arms of match e from arm i on, one of which runs, joined into acc
 * (KILL joins as nothing).  Remembered per (match, arm, name) like a block's
 * rest, keyed by the match itself: every change in a scrutinee asks for its
 * arms, and many changes times many arms would be quadratic. */
static int
r_arms(Live *L, const Expr *e, int i, int acc)
{
	const Block *key = (const Block *)(const void *)e;
	int r = memo_get(L, key, -1 - i);
	if (r < 0) {
		r = LV_KILL;
		const Pattern *const *fa, *f1;
		int nf = sema_own_fact_alts(L->O, L->fact, e->u.match.scrutinee, &fa, &f1);
		uint32_t left = nf == 32 ? UINT32_MAX : (1u << nf) - 1, covers;
		for (int k = i; k < e->u.match.narms && r != LV_LIVE; k++) {
			const MatchArm *a = &e->u.match.arms[k];
			L->O->fact_work += L->fact != 0;
			if (nf) {
				/* an arm matching none of the values the fact leaves does not run */
				if (!sema_own_fact_arm_meets(fa, nf, left, a->pat, &covers))
					continue;
				if (!a->guard)
					left &= ~covers;
			}
			if (pat_binds(a->pat, L->name))
				r = lv_join(r, LV_PASS);   /* the arm's name is its binding */
			else if (r_expr(L, a->guard) == LV_LIVE)   /* a guard assigns nothing (T254) */
				r = LV_LIVE;
			else
				r = lv_join(r, r_expr(L, a->value));
		}
		memo_put(L, key, -1 - i, r);   /* (the fact is part of the key) */
	}
	return lv_join(acc, r);
}

/* The branches of if e, one of which runs (a literal condition, or one the
 * fact decides: that one). */
static int
r_branches(Live *L, const Expr *e)
{
	int fv = sema_own_fact_value(L->O, L->fact, e->u.if_.cond);
	if (lit_bool(e->u.if_.cond, true) || fv == 1)
		return r_block(L, e->u.if_.then_block);
	if (lit_bool(e->u.if_.cond, false) || fv == 0)
		return r_block(L, e->u.if_.else_block);
	return lv_join(r_block(L, e->u.if_.then_block), r_block(L, e->u.if_.else_block));
}

static int
r_expr(Live *L, const Expr *e)
{
	if (!e || !touches(L, e->span.start, e->span.end))
		return LV_PASS;
	switch (e->kind) {
	case EXPR_BLOCK: return r_block(L, e->u.block);
	case EXPR_IF: {
		int r = r_expr(L, e->u.if_.cond);
		if (r != LV_PASS)
			return r;
		return r_branches(L, e);
	}
	case EXPR_MATCH: {
		int r = r_expr(L, e->u.match.scrutinee);
		if (r != LV_PASS || !e->u.match.narms)
			return r;
		return r_arms(L, e, 0, LV_KILL);
	}
	case EXPR_UNARY: return r_expr(L, e->u.unary.operand);
	case EXPR_BINARY: {
		/* the operands in order; `&&`/`||` may skip the right one */
		int r = r_expr(L, e->u.binary.lhs);
		if (r != LV_PASS)
			return r;
		r = r_expr(L, e->u.binary.rhs);
		return (e->bin_op == BIN_AND || e->bin_op == BIN_OR) && r == LV_KILL ? LV_PASS : r;
	}
	default:
		return reads_in(L, e->span.start, e->span.end) ? LV_LIVE : LV_PASS;
	}
}

static int
r_stmt(Live *L, const Stmt *s)
{
	if (!touches(L, s->span.start, s->span.end))
		return LV_PASS;
	switch (s->kind) {
	case STMT_LET: {
		int r = r_expr(L, s->u.let.value);
		if (r != LV_PASS)
			return r;
		return s->u.let.name.s && strcmp(s->u.let.name.s, L->name) == 0 ? LV_SHADOW : LV_PASS;
	}
	case STMT_ASSIGN: {
		int r = r_expr(L, s->u.assign.value);
		if (r != LV_PASS)
			return r;
		return !s->u.assign.has_field && s->u.assign.target.s && strcmp(s->u.assign.target.s, L->name) == 0 ? LV_KILL : LV_PASS;
	}
	case STMT_WHILE: {
		int r = r_expr(L, s->u.while_.cond);
		if (r != LV_PASS || lit_bool(s->u.while_.cond, false) || sema_own_fact_value(L->O, L->fact, s->u.while_.cond) == 0)
			return r;   /* (a condition the fact makes false: the body does not run) */
		return r_block(L, s->u.while_.body) == LV_LIVE ? LV_LIVE : LV_PASS;
	}
	case STMT_FOR: {
		int r = r_expr(L, s->u.for_.iter);
		if (r != LV_PASS || (s->u.for_.item.s && strcmp(s->u.for_.item.s, L->name) == 0))
			return r;
		return r_block(L, s->u.for_.body) == LV_LIVE ? LV_LIVE : LV_PASS;
	}
	case STMT_IF: return r_expr(L, s->u.if_);
	case STMT_UNSAFE: return r_block(L, s->u.unsafe.body);
	}
	return LV_LIVE;
}

/* The first statement of b from j on whose span ends after offset q (nstmts: none). */
static int
stmt_at(const Block *b, int j, uint32_t q)
{
	int lo = j, hi = b->nstmts;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (b->stmts[mid]->span.end <= q)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The statements of b from j on, then its tail: a `let` of the name hides
 * the view for the rest of the block (PASS). */
static int
r_block_from(Live *L, const Block *b, int j)
{
	Own *O = L->O;
	int mark = O->visited.len, r = LV_PASS;
	for (;;) {
		uint32_t from = j < b->nstmts ? b->stmts[j]->span.start : b->tail ? b->tail->span.start : b->span.end;
		uint32_t q = at_next(L->reads, L->nreads, from), k2 = at_next(L->kills, L->nkills, from);
		if (k2 < q)
			q = k2;
		int k = q >= b->span.end ? b->nstmts : stmt_at(b, j, q);
		if (k == b->nstmts) {
			r = r_expr(L, b->tail);
			break;
		}
		if (L->fact && b->stmts[k]->span.start > L->fact_reach) {
			/* no condition the fact decides is read from here on: the
			 * answer is the uncorrelated one (its memo is shared) */
			int fact = L->fact;
			L->fact = 0;
			r = r_block_from(L, b, k);
			L->fact = fact;
			break;
		}
		int m = memo_get(L, b, k);
		if (m >= 0) {
			r = m;
			break;
		}
		O->fact_work += L->fact != 0;
		VEC_PUSH(O->visited, k);
		r = r_stmt(L, b->stmts[k]);
		if (r == LV_SHADOW) {
			r = LV_PASS;
			break;
		}
		if (r != LV_PASS)
			break;
		j = k + 1;
	}
	if (O->visited.len - mark > 1)   /* one statement decided: asking it again costs no more than a memo */
		for (int t = mark; t < O->visited.len; t++)
			memo_put(L, b, O->visited.items[t], r);
	O->visited.len = mark;
	return r;
}

/* ---- from the change outwards ---- */

/* The expression of statement s (or a block's tail, s NULL) that may hold
 * the walked block directly: an `if` statement, a `let`'s or an
 * assignment's value. */
static const Expr *
stmt_value(const Stmt *s, const Expr *tail)
{
	if (!s)
		return tail;
	switch (s->kind) {
	case STMT_IF: return s->u.if_;
	case STMT_LET: return s->u.let.value;
	case STMT_ASSIGN: return s->u.assign.value;
	default: return NULL;
	}
}

/* The arm of match e whose span holds offset q (arms are in source order), or -1. */
int
sema_own_arm_at(const Expr *e, uint32_t q)
{
	int lo = 0, hi = e->u.match.narms;
	while (lo < hi) {   /* the first arm ending at or after q */
		int mid = lo + (hi - lo) / 2;
		if (e->u.match.arms[mid].span.end < q)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < e->u.match.narms && e->u.match.arms[lo].span.start <= q ? lo : -1;
}

/* e is inner itself, or if/else or match whose branch (arm value) is inner:
 * nothing of e runs after inner.  (An arm is found by its span: a scan of
 * the arms per change made many changes in a many-armed match quadratic.) */
static bool
direct_branch(const Expr *e, const Block *inner)
{
	if (!e || !inner)
		return false;
	if (e->kind == EXPR_BLOCK)
		return e->u.block == inner;
	if (e->kind == EXPR_IF)
		return e->u.if_.then_block == inner || e->u.if_.else_block == inner;
	if (e->kind == EXPR_MATCH) {
		int i = sema_own_arm_at(e, inner->span.start);
		return i >= 0 && e->u.match.arms[i].value->kind == EXPR_BLOCK && e->u.match.arms[i].value->u.block == inner;
	}
	return false;
}

/*
 * The rest of expression e after the change at pos (inside inner, when not
 * NULL).  An `if` or a `match` is taken apart: after a change in the
 * condition or scrutinee, one branch or arm runs (as r_expr); after one in
 * a guard, that arm's value or a later arm; after one in an arm's value,
 * the rest of that value only — a sibling arm's reads are on no path from
 * it.  Anything else: any later read in e is LIVE.
 */
static int
rest_of_expr(Live *L, const Expr *e, const Block *inner, uint32_t pos)
{
	if (!e || direct_branch(e, inner))
		return LV_PASS;
	if (!reads_in(L, pos, e->span.end))
		return LV_PASS;
	if (e->kind == EXPR_IF && sema_own_holds_pos(e->u.if_.cond, pos)) {
		int r = rest_of_expr(L, e->u.if_.cond, inner, pos);
		return r != LV_PASS ? r : r_branches(L, e);
	}
	if (e->kind == EXPR_MATCH) {
		if (sema_own_holds_pos(e->u.match.scrutinee, pos)) {
			int r = rest_of_expr(L, e->u.match.scrutinee, inner, pos);
				return r != LV_PASS || !e->u.match.narms ? r : r_arms(L, e, 0, LV_KILL);
		}
		int i = sema_own_arm_at(e, pos);
		if (i >= 0) {
			const MatchArm *a = &e->u.match.arms[i];
			bool hidden = pat_binds(a->pat, L->name);   /* the arm's name is its binding */
			if (sema_own_holds_pos(a->guard, pos)) {
				/* the guard's rest; true: this arm's value; false: the later arms */
				int r = hidden ? LV_PASS : rest_of_expr(L, a->guard, inner, pos);
				if (r != LV_PASS)
					return r;
				int acc = hidden ? LV_PASS : r_expr(L, a->value);
				if (acc == LV_LIVE)
					return LV_LIVE;
				return r_arms(L, e, i + 1, i + 1 < e->u.match.narms ? acc : LV_PASS);
			}
			if (sema_own_holds_pos(a->value, pos))
				return hidden ? LV_PASS : a->value->kind == EXPR_BLOCK ? LV_LIVE : rest_of_expr(L, a->value, inner, pos);
		}
	}
	return LV_LIVE;
}

/* The rest of statement s after the change at pos (inside inner, when not NULL). */
static int
rest_of_stmt(Live *L, const Stmt *s, const Block *inner, uint32_t pos)
{
	switch (s->kind) {
	case STMT_WHILE: {
		const Expr *c = s->u.while_.cond;
		const Block *body = s->u.while_.body;
		if (inner && inner == body) {
			/* the body ends: the condition runs again, then the body or what follows */
			int r = r_expr(L, c);
			if (r != LV_PASS)
				return r;
			return r_block(L, body) == LV_LIVE ? LV_LIVE : LV_PASS;
		}
		/* in the condition: its rest, then the body and the next condition, or what follows */
		int rc = rest_of_expr(L, c, inner, pos);
		if (rc != LV_PASS)
			return rc;
		int rb = r_block(L, body);
		if (rb == LV_LIVE || (rb == LV_PASS && r_expr(L, c) == LV_LIVE))
			return LV_LIVE;
		return LV_PASS;
	}
	case STMT_FOR: {
		const Block *body = s->u.for_.body;
		/* the traversal reads what the iterable holds on every iteration */
		if (reads_in(L, s->u.for_.iter->span.start, s->u.for_.iter->span.end))
			return LV_LIVE;
		if (!(inner && inner == body)) {
			int ri = rest_of_expr(L, s->u.for_.iter, inner, pos);
			if (ri != LV_PASS)
				return ri;
			if (s->u.for_.item.s && strcmp(s->u.for_.item.s, L->name) == 0)
				return LV_PASS;
		}
		return r_block(L, body) == LV_LIVE ? LV_LIVE : LV_PASS;
	}
	case STMT_LET: {
		int r = rest_of_expr(L, s->u.let.value, inner, pos);
		if (r != LV_PASS)
			return r;
		return s->u.let.name.s && strcmp(s->u.let.name.s, L->name) == 0 ? LV_SHADOW : LV_PASS;
	}
	case STMT_ASSIGN: {
		int r = rest_of_expr(L, s->u.assign.value, inner, pos);
		if (r != LV_PASS)
			return r;
		/* the change inside the value of the view's own assignment: re-pointed */
		return !s->u.assign.has_field && s->u.assign.target.s && strcmp(s->u.assign.target.s, L->name) == 0 ? LV_KILL : LV_PASS;
	}
	case STMT_IF: return rest_of_expr(L, s->u.if_, inner, pos);
	case STMT_UNSAFE: return inner && inner == s->u.unsafe.body ? LV_PASS : reads_in(L, pos, s->span.end) ? LV_LIVE : LV_PASS;
	}
	return LV_LIVE;
}

/*
 * T265: view variable v, whose owner changes at offset end, may be read
 * before it is given a new value (see the head of this file).  Outside any
 * block being walked (a contract), or where v's name is hidden by another
 * variable at the change, it is live: the safe side.
 */
bool
sema_own_view_live_after(Own *O, int v, uint32_t end)
{
	const char *name = O->vars.items[v].name;
	if (!O->blocks.len || sema_own_find(O, name) != v)
		return true;
	uint32_t h = 2166136261u;
	for (const char *c = name; *c; c++)
		h = (h ^ (uint8_t)*c) * 16777619u;
	occ_build(O);
	Live L = { O, name, h, NULL, NULL, 0, 0, 0, 0, 0 };
	L.reads = sema_own_occ_range(O->occ.items, O->occ.len, name, &L.nreads);
	L.kills = sema_own_occ_range(O->kills.items, O->kills.len, name, &L.nkills);
	uint32_t pos = end;
	const Block *inner = NULL;
	for (int l = O->blocks.len - 1; l >= 0; l--) {
		const struct OwnAt *at = &O->blocks.items[l];
		const Block *b = at->b;
		int r;
		if (!L.fact)
			L.fact = sema_own_fact_enter(O, stmt_value(at->i < b->nstmts ? b->stmts[at->i] : NULL, b->tail), inner, pos, &L.fact_let, &L.fact_reach);
		if (at->i < b->nstmts) {
			r = rest_of_stmt(&L, b->stmts[at->i], inner, pos);
			if (r == LV_SHADOW)
				r = LV_PASS;   /* the rest of the block names another variable */
			else if (r == LV_PASS)
				r = r_block_from(&L, b, at->i + 1);
		} else {
			r = rest_of_expr(&L, b->tail, inner, pos);
		}
		if (r == LV_LIVE)
			return true;
		if (r == LV_KILL)
			return false;
		if (v >= at->mark)
			return false;   /* v is released with this block */
		pos = b->span.end;
		inner = b;
		if (L.fact && b->span.start <= L.fact_let && L.fact_let < b->span.end)
			L.fact = 0;   /* c's block ends: a later `c` is another binding */
	}
	return false;
}

/* ---- loop widening ---- */

/* The loop's value flow by name: an edge from every name read in a value to
 * the name it is stored in (an assignment's target, whole or a field, a
 * `let`, a `for` item, a match arm's bindings).  By name, so two variables
 * of one name are one node (more flow: the safe side). */
typedef struct FlowEdge { int from, to; } FlowEdge;

/* The steps the flow searches of one widening may take (views × nodes). */
#define OWN_FLOW_WORK 1000000

typedef struct Flow {
	StrMap ids;                      /* name → node */
	VEC(const char *) names;         /* node → name */
	VEC(FlowEdge) edges;
	VEC(const char *) scratch;       /* the names read in one value */
} Flow;

static int
flow_node(Flow *F, const char *name)
{
	int i = sema_strmap_get(&F->ids, name);
	if (i < 0) {
		i = F->names.len;
		VEC_PUSH(F->names, name);
		sema_strmap_put(&F->ids, name, i);
	}
	return i;
}

static void
names_visit(void *ctx, const Expr *e)
{
	Flow *F = ctx;
	if (e->kind == EXPR_NAME)
		VEC_PUSH(F->scratch, e->u.name.s);
}

/* Edges from every name read in e to target. */
static void
flow_into(Flow *F, const Expr *e, const char *target)
{
	if (!e || !target)
		return;
	F->scratch.len = 0;
	sema_walk_expr(e, names_visit, F);
	int t = flow_node(F, target);
	for (int i = 0; i < F->scratch.len; i++) {
		int f = flow_node(F, F->scratch.items[i]);
		if (f != t) {
			FlowEdge fe = { f, t };
			VEC_PUSH(F->edges, fe);
		}
	}
}

static void
flow_pat(Flow *F, const Pattern *p, const Expr *from)
{
	if (!p)
		return;
	switch (p->kind) {
	case PAT_BIND: flow_into(F, from, p->u.bind.s); break;
	case PAT_OR:
		for (int i = 0; i < p->u.or.nalts; i++)
			flow_pat(F, p->u.or.alts[i], from);
		break;
	case PAT_CASE: case PAT_RECORD: {
		const FieldPat *f = p->kind == PAT_CASE ? p->u.case_.fields : p->u.record.fields;
		int n = p->kind == PAT_CASE ? p->u.case_.nfields : p->u.record.nfields;
		for (int i = 0; i < n; i++) {
			if (f[i].sub)
				flow_pat(F, f[i].sub, from);
			else
				flow_into(F, from, f[i].name.s);
		}
		break;
	}
	default:
		break;
	}
}

/* The statements of b (and of the loop and unsafe bodies under them; blocks
 * inside expressions: flow_visit). */
static void
flow_stmts(Flow *F, const Block *b)
{
	if (!b)
		return;
	for (int i = 0; i < b->nstmts; i++) {
		const Stmt *s = b->stmts[i];
		switch (s->kind) {
		case STMT_ASSIGN: flow_into(F, s->u.assign.value, s->u.assign.target.s); break;
		case STMT_LET: flow_into(F, s->u.let.value, s->u.let.name.s); break;
		case STMT_WHILE: flow_stmts(F, s->u.while_.body); break;
		case STMT_FOR:
			flow_into(F, s->u.for_.iter, s->u.for_.item.s);
			flow_stmts(F, s->u.for_.body);
			break;
		case STMT_UNSAFE: flow_stmts(F, s->u.unsafe.body); break;
		default: break;
		}
	}
}

static void
flow_visit(void *ctx, const Expr *e)
{
	Flow *F = ctx;
	if (e->kind == EXPR_BLOCK) {
		flow_stmts(F, e->u.block);
	} else if (e->kind == EXPR_IF) {
		flow_stmts(F, e->u.if_.then_block);
		flow_stmts(F, e->u.if_.else_block);
	} else if (e->kind == EXPR_CLOSURE) {
		flow_stmts(F, e->u.closure.body);
	} else if (e->kind == EXPR_MATCH) {
		for (int i = 0; i < e->u.match.narms; i++)
			flow_pat(F, e->u.match.arms[i].pat, e->u.match.scrutinee);
	}
}

/*
 * A loop whose entry state has not settled after a few passes (own_loop):
 * views passed through one another in reverse order gain one owner per
 * pass, one link of the chain at a time.  Widening: every view variable
 * from before the loop (the first n) that the loop assigns borrows from
 * every owner that any variable from before the loop whose value may flow
 * into it in the loop (through its assignments, `let`s, `for` items and
 * match bindings, by name: Flow) borrows from at the loop's entry.  prec19:
 * it was every owner of every such view, so a view never holding an owner
 * (a chain of views of s beside a view re-pointed away from t before t's
 * renewal) was T265 at t's renewal.  Any widening is sound — own_loop
 * still runs passes until the entry state settles, and widening only adds
 * edges — so this only decides how soon it settles: a pass after the
 * widening copies along the flow what each view already holds, and every
 * owner enters in the first pass (a view made in the body, an escape).
 */
void
sema_own_loop_widen(Own *O, int n, Span loop, const Expr *cond, const Block *body)
{
	occ_build(O);
	Flow F;
	memset(&F, 0, sizeof F);
	flow_into(&F, cond, NULL);
	sema_walk_expr(cond, flow_visit, &F);
	flow_stmts(&F, body);
	sema_walk_block(body, flow_visit, &F);
	/* reverse adjacency: node → the nodes flowing into it */
	int nn = F.names.len;
	int *head = spx_xcalloc((size_t)(nn ? nn : 1), sizeof *head), *next = spx_xcalloc((size_t)(F.edges.len ? F.edges.len : 1), sizeof *next);
	for (int i = 0; i < nn; i++)
		head[i] = -1;
	for (int k = 0; k < F.edges.len; k++) {
		next[k] = head[F.edges.items[k].to];
		head[F.edges.items[k].to] = k;
	}
	int *mark = spx_xcalloc((size_t)(nn ? nn : 1), sizeof *mark);
	bool *seen = spx_xcalloc((size_t)(O->vars.len ? O->vars.len : 1), 1);
	VEC(int) stack = {0}, owners = {0};
	int epoch = 0, nviews = 0;
	for (int x = 0; x < n && x < O->vars.len; x++)
		nviews += sema_type_view(O->S, O->vars.items[x].type) &&
			  index_next(O->kills.items, O->kills.len, O->vars.items[x].name, loop.start) < loop.end;
	/* one search of the flow per view: past OWN_FLOW_WORK steps (a chain of
	 * thousands of views) every view takes every owner of them all, the
	 * coarse widening of flow16 (a node of the flow then counts as read by
	 * every view: `coarse`) */
	bool coarse = (int64_t)nviews * (int64_t)(nn + F.edges.len + 1) > OWN_FLOW_WORK;
	for (int x = 0; x < n && x < O->vars.len; x++) {
		const OwnVar *v = &O->vars.items[x];
		if (!sema_type_view(O->S, v->type) || index_next(O->kills.items, O->kills.len, v->name, loop.start) >= loop.end)
			continue;
		if (coarse) {
			if (!owners.len)   /* every owner of every view the loop assigns, once */
				for (int y = 0; y < n && y < O->vars.len; y++) {
					if (!sema_type_view(O->S, O->vars.items[y].type) ||
					    index_next(O->kills.items, O->kills.len, O->vars.items[y].name, loop.start) >= loop.end)
						continue;
					for (int k = O->vars.items[y].view_edges; k >= 0; k = O->edges.items[k].next_by_view)
						if (sema_own_edge_live(O, k) && !seen[O->edges.items[k].owner]) {
							seen[O->edges.items[k].owner] = true;
							VEC_PUSH(owners, O->edges.items[k].owner);
						}
				}
			for (int j = 0; j < owners.len; j++)
				sema_own_add_edge(O, x, owners.items[j]);
			continue;   /* seen stays set: the same owners for every view */
		}
		/* the variables from before the loop that may flow into x, x included */
		epoch++;
		owners.len = 0;
		stack.len = 0;
		int start = sema_strmap_get(&F.ids, v->name);
		if (start >= 0) {
			mark[start] = epoch;
			VEC_PUSH(stack, start);
		}
		bool self = start < 0;
		while (stack.len || self) {
			int y;
			if (self) {
				y = x;   /* x itself, assigned in the loop though not by a flow edge */
				self = false;
			} else {
				int node = stack.items[--stack.len];
				for (int k = head[node]; k >= 0; k = next[k])
					if (mark[F.edges.items[k].from] != epoch) {
						mark[F.edges.items[k].from] = epoch;
						VEC_PUSH(stack, F.edges.items[k].from);
					}
				y = sema_own_find(O, F.names.items[node]);
			}
			if (y < 0 || y >= n)
				continue;
			for (int k = O->vars.items[y].view_edges; k >= 0; k = O->edges.items[k].next_by_view)
				if (sema_own_edge_live(O, k) && !seen[O->edges.items[k].owner]) {
					seen[O->edges.items[k].owner] = true;
					VEC_PUSH(owners, O->edges.items[k].owner);
				}
		}
		for (int j = 0; j < owners.len; j++) {
			seen[owners.items[j]] = false;
			sema_own_add_edge(O, x, owners.items[j]);
		}
	}
	free(head);
	free(next);
	free(mark);
	free(seen);
	VEC_FREE(stack);
	VEC_FREE(owners);
	VEC_FREE(F.names);
	VEC_FREE(F.edges);
	VEC_FREE(F.scratch);
	sema_strmap_free(&F.ids);
}
