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
 * only).  Conditions are correlated only through a fact (fact_enter): a
 * change in a branch of `if c` makes c true (false) for the rest of the
 * walk while c's places are fixed — c a name, a field path or a
 * comparison of them and literals, or a name a fixed `let` binds to one
 * (cond_resolve) — so a later `if`/`while` on c or its negation takes one
 * branch; a change in an arm of `match x` rules out later arms of a `match
 * x` that cannot match, or follow one that surely matches, what that arm
 * did.  Otherwise `if c { w = … }` then `if c { read w }` is LIVE.
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
	/* a condition known on every path from the change (0: none): the change
	 * lies in the then (else) branch of `if c`, so c is true (false) until
	 * the block declaring c ends; fact = 2 * (index in Own.facts) + 1 + value */
	int fact;
	uint32_t fact_let;    /* the offset of c's one `let` */
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
}

/* The entries of name in a sorted index: *n of them from the result. */
static const struct OwnOcc *
occ_range(const struct OwnOcc *items, int len, const char *name, int *n)
{
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
	const struct OwnOcc *r = occ_range(items, len, name, &n);
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

/* ---- correlated conditions ---- */

/* e without its leading `!`s (*neg: an odd number of them). */
static const Expr *
strip_not(const Expr *e, bool *neg)
{
	*neg = false;
	while (e && e->kind == EXPR_UNARY && e->un_op == UN_NOT) {
		*neg = !*neg;
		e = e->u.unary.operand;
	}
	return e;
}

/* e is a place: a name, or a field of a place (`s`, `s.flag`, `s.cfg.on`). */
static bool
is_place(const Expr *e)
{
	while (e && e->kind == EXPR_FIELD)
		e = e->u.field.base;
	return e && e->kind == EXPR_NAME;
}

static bool
same_atom(const Expr *a, const Expr *b)
{
	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case EXPR_NAME: return strcmp(a->u.name.s, b->u.name.s) == 0;
	case EXPR_FIELD: return strcmp(a->u.field.name.s, b->u.field.name.s) == 0 && same_atom(a->u.field.base, b->u.field.base);
	case EXPR_INT: return a->u.int_lit.value == b->u.int_lit.value && a->lit_suffix == b->lit_suffix && a->lit_negative == b->lit_negative;
	case EXPR_BOOL: return a->u.bool_lit.value == b->u.bool_lit.value;
	case EXPR_CHAR: return a->u.char_lit.value == b->u.char_lit.value;
	default: return false;
	}
}

static bool
is_atom(const Expr *e)
{
	return e && (is_place(e) || e->kind == EXPR_INT || e->kind == EXPR_BOOL || e->kind == EXPR_CHAR);
}

static bool
is_cmp(const Expr *e)
{
	return e && e->kind == EXPR_BINARY && e->bin_op >= BIN_EQ && e->bin_op <= BIN_GE &&
	       is_atom(e->u.binary.lhs) && is_atom(e->u.binary.rhs);
}

/* `a op b` is `b swap(op) a`; complement(op) is its negation (for an ordering: over a total order only) */
static BinaryOp
cmp_swap(BinaryOp op)
{
	switch (op) {
	case BIN_LT: return BIN_GT;
	case BIN_GT: return BIN_LT;
	case BIN_LE: return BIN_GE;
	case BIN_GE: return BIN_LE;
	default: return op;
	}
}

static BinaryOp
cmp_complement(BinaryOp op)
{
	switch (op) {
	case BIN_EQ: return BIN_NE;
	case BIN_NE: return BIN_EQ;
	case BIN_LT: return BIN_GE;
	case BIN_GE: return BIN_LT;
	case BIN_LE: return BIN_GT;
	default: return BIN_LE;   /* BIN_GT */
	}
}

/*
 * How condition b (no leading `!`) relates to a (the same): 0 the same
 * value, 1 the negation, -1 unknown.  A place is itself; a comparison of
 * the same atoms (either way round) is the same or the complement — an
 * ordering's complement only over integers, `bool` and `char` (a NaN
 * makes `x < y` and `x >= y` both false).
 */
static int
cond_rel(const Own *O, const Expr *a, const Expr *b)
{
	if (is_place(a))
		return is_place(b) && same_atom(a, b) ? 0 : -1;
	if (!is_cmp(b))
		return -1;
	BinaryOp op = b->bin_op;
	if (!same_atom(a->u.binary.lhs, b->u.binary.lhs) || !same_atom(a->u.binary.rhs, b->u.binary.rhs)) {
		if (!same_atom(a->u.binary.lhs, b->u.binary.rhs) || !same_atom(a->u.binary.rhs, b->u.binary.lhs))
			return -1;
		op = cmp_swap(op);
	}
	if (op == a->bin_op)
		return 0;
	if (op != cmp_complement(a->bin_op))
		return -1;
	if (op == BIN_EQ || op == BIN_NE)
		return 1;
	TypeId t = sema_expr_type(O->S, a->u.binary.lhs->id);
	return sema_type_is_integer(&O->S->types, t) || t == TY_BOOL || t == TY_CHAR ? 1 : -1;
}

/*
 * Place x of a condition or scrutinee at e is fixed from e to the end of
 * its root's block: its root c is bound by the function's only binding of
 * that name, a `let` before e or a parameter (the first Own.nparams
 * variables; no `let` or assignment of it, and no other binding of the name
 * can exist besides a closure's parameter, indexed as a kill), and c is
 * read elsewhere too (else no later condition can name it).  A field of c
 * needs c immutable besides (a `let mut` record's field may be assigned;
 * a parameter's may not, U107).  The language having no shadowing (T209; a
 * closure parameter of the name counts as another binding), every `c` read
 * until the block declaring it ends is that binding, with the value it had
 * at e — including in later iterations of a loop around e that the block
 * is in.  *let_at: the latest such `let` (its block ends first).
 */
static bool
place_fixed(Own *O, const Expr *x, const Expr *e, uint32_t *let_at)
{
	bool field = x->kind == EXPR_FIELD;
	while (x->kind == EXPR_FIELD)
		x = x->u.field.base;
	const char *c = x->u.name.s;
	int n, nreads, nbinds;
	occ_range(O->binds.items, O->binds.len, c, &nbinds);
	if (nbinds)
		return false;   /* a `for` item or a pattern binding of the name: another variable */
	const struct OwnOcc *k = occ_range(O->kills.items, O->kills.len, c, &n);
	if (n == 1 && k->let && k->at < e->span.start && !(field && k->mut)) {
		if (*let_at == UINT32_MAX || k->at > *let_at)
			*let_at = k->at;
	} else if (!(n == 0 && sema_own_find(O, c) >= 0 && sema_own_find(O, c) < O->nparams)) {
		return false;   /* (a parameter never assigned is in scope throughout) */
	}
	occ_range(O->occ.items, O->occ.len, c, &nreads);
	return nreads >= 2;
}

/* The places of condition or scrutinee x (a place, or a comparison of
 * places and literals) are fixed (place_fixed). */
static bool
cond_fixed(Own *O, const Expr *x, const Expr *e, uint32_t *let_at)
{
	if (is_place(x))
		return place_fixed(O, x, e, let_at);
	if (!is_cmp(x))
		return false;
	const Expr *l = x->u.binary.lhs, *r = x->u.binary.rhs;
	return (!is_place(l) || place_fixed(O, l, e, let_at)) && (!is_place(r) || place_fixed(O, r, e, let_at)) &&
	       (is_place(l) || is_place(r));
}

/* A letdef of name (the first; NULL: none). */
static const struct OwnLetDef *
letdef_find(const Own *O, const char *name)
{
	int lo = 0, hi = O->letdefs.len;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (strcmp(O->letdefs.items[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < O->letdefs.len && strcmp(O->letdefs.items[lo].name, name) == 0 ? &O->letdefs.items[lo] : NULL;
}

/*
 * Condition e without its leading `!`s (*neg toggled for each), looked
 * through a name bound by the function's only binding of it, a `let` (not
 * assigned) of a place or a comparison whose places are fixed
 * (cond_fixed): `let big = n > 100;` makes `big` the same condition as
 * `n > 100` wherever it is read (its value is that comparison's at the
 * `let`, and n, never assigned, still has it).  At most 4 such steps.
 */
static const Expr *
cond_resolve(Own *O, const Expr *e, bool *neg)
{
	for (int d = 0;; d++) {
		bool n1;
		e = strip_not(e, &n1);
		*neg ^= n1;
		if (d == 4 || !e || e->kind != EXPR_NAME)
			return e;
		int n, nbinds;
		occ_range(O->binds.items, O->binds.len, e->u.name.s, &nbinds);
		const struct OwnOcc *k = occ_range(O->kills.items, O->kills.len, e->u.name.s, &n);
		const struct OwnLetDef *def = n == 1 && k->let && !nbinds ? letdef_find(O, e->u.name.s) : NULL;
		if (!def)
			return e;
		bool n2;
		const Expr *v = strip_not(def->value, &n2);
		uint32_t let_at = UINT32_MAX;
		if (!v || !(is_place(v) || is_cmp(v)) || !cond_fixed(O, v, def->value, &let_at))
			return e;
		e = def->value;
	}
}

/* The value the fact gives condition e, or -1 (none): e or its negation,
 * or an `&&` / `||` of conditions whose values decide it (the operators
 * are lazy, but the value is the same). */
static int
fact_value(const Live *L, const Expr *e)
{
	if (!L->fact)
		return -1;
	const struct OwnFact *f = &L->O->facts[(L->fact - 1) / 2];
	bool neg = false;
	e = cond_resolve(L->O, e, &neg);
	if (f->pat || !e)
		return -1;
	int v;
	if (e->kind == EXPR_BINARY && (e->bin_op == BIN_AND || e->bin_op == BIN_OR)) {
		int a = fact_value(L, e->u.binary.lhs), b = fact_value(L, e->u.binary.rhs);
		int zero = e->bin_op == BIN_OR;   /* the value that decides: false for `&&`, true for `||` */
		if (a == zero || b == zero)
			v = zero;
		else if (a == !zero && b == !zero)
			v = !zero;
		else
			return -1;
	} else {
		int rel = cond_rel(L->O, f->cond, e);
		if (rel < 0)
			return -1;
		v = ((L->fact - 1) % 2) ^ rel;
	}
	return v ^ neg;
}

/* Literal or case pattern alternatives a and b may match one value. */
static bool
pat_alt_meets(const Pattern *a, const Pattern *b)
{
	if (a->kind != b->kind)
		return true;
	if (a->kind == PAT_CASE)
		return strcmp(a->u.case_.case_name.s, b->u.case_.case_name.s) == 0;
	if (a->kind != PAT_LIT)
		return true;
	const Expr *x = a->u.lit.value, *y = b->u.lit.value;
	if (x->kind != y->kind || x->lit_negative || y->lit_negative)
		return true;
	if (x->kind == EXPR_INT)   /* `-0` is `0` */
		return x->u.int_lit.value == y->u.int_lit.value && (x->u.int_lit.value == 0 || a->u.lit.negative == b->u.lit.negative);
	return same_atom(x, y);
}

/* The alternatives of a literal or case pattern (an or-pattern's, or itself), or 0. */
static int
pat_alts(const Pattern *p, const Pattern *const **alts, const Pattern **one)
{
	if (p->kind == PAT_OR) {
		*alts = (const Pattern *const *)p->u.or.alts;
		for (int i = 0; i < p->u.or.nalts; i++)
			if (p->u.or.alts[i]->kind != PAT_CASE && p->u.or.alts[i]->kind != PAT_LIT)
				return 0;
		return p->u.or.nalts;
	}
	*one = p;
	*alts = one;
	return p->kind == PAT_CASE || p->kind == PAT_LIT ? 1 : 0;
}

/* Literal or case pattern alternative p surely matches a value alternative
 * a matched (the same case — its field patterns are irrefutable — or the
 * same literal). */
static bool
pat_alt_same(const Pattern *a, const Pattern *p)
{
	if (a->kind != p->kind)
		return false;
	if (a->kind == PAT_CASE)
		return strcmp(a->u.case_.case_name.s, p->u.case_.case_name.s) == 0;
	const Expr *x = a->u.lit.value, *y = p->u.lit.value;
	return a->kind == PAT_LIT && !x->lit_negative && !y->lit_negative && a->u.lit.negative == p->u.lit.negative && same_atom(x, y);
}

/* The fact on match scrutinee scrut: the alternatives of the pattern an
 * earlier match's arm on the same place matched (*fa, count returned; at
 * most 32), or 0. */
static int
fact_alts(const Live *L, const Expr *scrut, const Pattern *const **fa, const Pattern **one)
{
	if (!L->fact)
		return 0;
	const struct OwnFact *f = &L->O->facts[(L->fact - 1) / 2];
	if (!f->pat || !is_place(scrut) || !same_atom(f->cond, scrut))
		return 0;
	int nf = pat_alts(f->pat, fa, one);
	return nf <= 32 ? nf : 0;
}

/*
 * Of the fact's alternatives left (a bit each: those no earlier unguarded
 * arm surely matches), the ones arm pattern p may match; *covers: those it
 * surely matches (a `_`, a binding or a record pattern: every one; another
 * shape: none).
 */
static uint32_t
arm_meets(const Pattern *const *fa, int nf, uint32_t left, const Pattern *p, uint32_t *covers)
{
	const Pattern *const *pa, *p1;
	int np = pat_alts(p, &pa, &p1);
	*covers = 0;
	if (!np) {   /* may match anything; surely does when irrefutable */
		if (p->kind == PAT_WILD || p->kind == PAT_BIND || p->kind == PAT_RECORD)
			*covers = left;
		return left;
	}
	uint32_t meets = 0;
	for (int i = 0; i < nf; i++)
		if (left & (1u << i))
			for (int j = 0; j < np; j++) {
				if (pat_alt_meets(fa[i], pa[j]))
					meets |= 1u << i;
				if (pat_alt_same(fa[i], pa[j]))
					*covers |= 1u << i;
			}
	return meets;
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
		int nf = fact_alts(L, e->u.match.scrutinee, &fa, &f1);
		uint32_t left = nf == 32 ? UINT32_MAX : (1u << nf) - 1, covers;
		for (int k = i; k < e->u.match.narms && r != LV_LIVE; k++) {
			const MatchArm *a = &e->u.match.arms[k];
			if (nf) {
				/* an arm matching none of the values the fact leaves does not run */
				if (!arm_meets(fa, nf, left, a->pat, &covers))
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
	int fv = fact_value(L, e->u.if_.cond);
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
		if (r != LV_PASS || lit_bool(s->u.while_.cond, false) || fact_value(L, s->u.while_.cond) == 0)
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
		int m = memo_get(L, b, k);
		if (m >= 0) {
			r = m;
			break;
		}
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
static int
arm_at(const Expr *e, uint32_t q)
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
		int i = arm_at(e, inner->span.start);
		return i >= 0 && e->u.match.arms[i].value->kind == EXPR_BLOCK && e->u.match.arms[i].value->u.block == inner;
	}
	return false;
}

/* The change at pos lies in x (its end included: a change ending x). */
static bool
holds_pos(const Expr *x, uint32_t pos)
{
	return x && pos > x->span.start && pos <= x->span.end;
}

/* The condition to hold as a fact when condition c (resolved) has *value:
 * c itself, or, for `a && b` true (`a || b` false), the first operand (at
 * any depth) that is fixed — each operand has that value too. */
static const Expr *
fact_pick(Own *O, const Expr *c, const Expr *e, bool *value)
{
	if (!c || c->kind != EXPR_BINARY || !((c->bin_op == BIN_AND && *value) || (c->bin_op == BIN_OR && !*value)))
		return c;
	const Expr *side[2] = { c->u.binary.lhs, c->u.binary.rhs };
	for (int k = 0; k < 2; k++) {
		bool neg = false, v;
		const Expr *x = cond_resolve(O, side[k], &neg);
		v = *value != neg;
		x = fact_pick(O, x, e, &v);
		uint32_t let_at = UINT32_MAX;
		if (x && cond_fixed(O, x, e, &let_at)) {
			*value = v;
			return x;
		}
	}
	return c;
}

/*
 * The fact a change in a branch of `if c` (`if !c`) gives, c a name, a
 * field path or a comparison of them and literals (e holds inner, the
 * branch's block, directly), or a change in the value of arm i of `match
 * x`, x a place (e holds inner or the change at pos in that value): c is
 * true (false), x matches arm i's pattern, until the block of the latest
 * root of c or x ends, when every place in it is fixed (place_fixed).
 * Taken only when no fact is held (the innermost qualifying `if` or
 * match), and only for OWN_FACTS distinct conditions per function.
 */
static void
fact_enter(Live *L, const Expr *e, const Block *inner, uint32_t pos)
{
	if (L->fact || !e)
		return;
	Own *O = L->O;
	struct OwnFact f = { NULL, NULL };
	bool value = true;
	if (e->kind == EXPR_IF && inner) {
		bool then_ = e->u.if_.then_block == inner, neg;
		if (!then_ && e->u.if_.else_block != inner)
			return;
		neg = false;
		f.cond = cond_resolve(O, e->u.if_.cond, &neg);
		value = then_ != neg;
	} else if (e->kind == EXPR_MATCH && is_place(e->u.match.scrutinee)) {
		int i = arm_at(e, pos);
		const Pattern *const *alts, *one;
		if (i < 0 || !holds_pos(e->u.match.arms[i].value, pos) || !pat_alts(e->u.match.arms[i].pat, &alts, &one))
			return;
		f.cond = e->u.match.scrutinee;
		f.pat = e->u.match.arms[i].pat;
	} else {
		return;
	}
	uint32_t let_at = UINT32_MAX;
	if (!f.pat)
		f.cond = fact_pick(O, f.cond, e, &value);
	if (!f.cond || !cond_fixed(O, f.cond, e, &let_at))
		return;
	int i = 0;
	while (i < O->nfacts && (O->facts[i].pat != f.pat || (f.pat ? !same_atom(O->facts[i].cond, f.cond) : cond_rel(O, O->facts[i].cond, f.cond) != 0)))
		i++;
	if (i == O->nfacts) {
		if (O->nfacts == OWN_FACTS)
			return;
		O->facts[O->nfacts++] = f;
	}
	L->fact = 2 * i + 1 + value;
	L->fact_let = let_at;
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
	if (e->kind == EXPR_IF && holds_pos(e->u.if_.cond, pos)) {
		int r = rest_of_expr(L, e->u.if_.cond, inner, pos);
		return r != LV_PASS ? r : r_branches(L, e);
	}
	if (e->kind == EXPR_MATCH) {
		if (holds_pos(e->u.match.scrutinee, pos)) {
			int r = rest_of_expr(L, e->u.match.scrutinee, inner, pos);
				return r != LV_PASS || !e->u.match.narms ? r : r_arms(L, e, 0, LV_KILL);
		}
		int i = arm_at(e, pos);
		if (i >= 0) {
			const MatchArm *a = &e->u.match.arms[i];
			bool hidden = pat_binds(a->pat, L->name);   /* the arm's name is its binding */
			if (holds_pos(a->guard, pos)) {
				/* the guard's rest; true: this arm's value; false: the later arms */
				int r = hidden ? LV_PASS : rest_of_expr(L, a->guard, inner, pos);
				if (r != LV_PASS)
					return r;
				int acc = hidden ? LV_PASS : r_expr(L, a->value);
				if (acc == LV_LIVE)
					return LV_LIVE;
				return r_arms(L, e, i + 1, i + 1 < e->u.match.narms ? acc : LV_PASS);
			}
			if (holds_pos(a->value, pos))
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
	Live L = { O, name, h, NULL, NULL, 0, 0, 0, 0 };
	L.reads = occ_range(O->occ.items, O->occ.len, name, &L.nreads);
	L.kills = occ_range(O->kills.items, O->kills.len, name, &L.nkills);
	uint32_t pos = end;
	const Block *inner = NULL;
	for (int l = O->blocks.len - 1; l >= 0; l--) {
		const struct OwnAt *at = &O->blocks.items[l];
		const Block *b = at->b;
		int r;
		fact_enter(&L, stmt_value(at->i < b->nstmts ? b->stmts[at->i] : NULL, b->tail), inner, pos);
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
