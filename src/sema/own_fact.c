/*
 * own_fact.c — T265's correlated conditions: the facts own_live.c's walk
 * holds about the conditions and scrutinees around a change.
 *
 * A change in a branch of `if c` makes c true (false) for the rest of the
 * walk while c's places are fixed (place_fixed) — c a name, a field path,
 * a reading builtin's or an effect-free user function's call on them and
 * literals (is_pure_call) or a comparison of these and literals, or a name
 * a fixed `let` binds to one (cond_resolve), or for `a && b` (`a || b`)
 * the first fixed operand (fact_pick) — so a later `if`/`while` on c or
 * its negation takes one branch (sema_own_fact_value).  A change in an arm of `match x`, x a
 * place, rules out later arms of a `match x` that cannot match, or follow
 * one that surely matches, what that arm did (sema_own_fact_alts,
 * sema_own_fact_arm_meets).
 *
 * A fact is 0 (none) or 2 * (its index in Own.facts) + 1 + the value: the
 * distinct conditions are numbered per function (interned by a hash of
 * their atoms, fact_intern), so a fact is part of own_live.c's memo key.
 * Each carries its reach (fact_reach): the last offset where a condition
 * it may decide is read; past it own_live.c's walk drops the fact and
 * shares the uncorrelated memo.  Only syntax and the function's occurrence
 * index (Own.occ, kills, binds, letdefs, last_use) are read.
 */
#include "own_int.h"

#include <stdlib.h>
#include <string.h>

/* ---- conditions ---- */

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

/* A builtin that only reads its arguments and has no effect. */
static bool
is_reading_builtin(BuiltinId bid)
{
	switch (bid) {
	case BI_str_is_empty: case BI_str_len_bytes: case BI_str_starts_with: case BI_str_contains:
	case BI_string_len: case BI_string_len_chars: case BI_string_is_empty: case BI_string_starts_with:
	case BI_string_contains: case BI_string_compare: case BI_map_has: case BI_map_len: case BI_map_get_or:
	case BI_set_has: case BI_set_len: case BI_vec_len:
		return true;
	default:
		return false;
	}
}

/*
 * A call of a module function (or one `use function` imports) that declares
 * no effect, is not generic, and consumes none of its owned arguments: without
 * effects nothing but its arguments reaches its body (no clock, file,
 * stdin, argument or environment read), so the same arguments give the
 * same result — a failure would have stopped the program at the first
 * call.  A call through a callable binding or a closure profile (a
 * mutable closure carries state) is none.
 */
static bool
is_pure_user_call(const Own *O, const Expr *e)
{
	Sema *S = O->S;
	SymId f = sema_expr_sym(S, e->id);
	if (f < 0 || e->u.call.has_targs || sema_closure_profile(S, e->id))
		return false;
	const Sym *fs = &S->syms.items[f];
	if (fs->kind != SK_FN || fs->neffects || fs->ntparams || fs->nparams != e->u.call.nargs)
		return false;
	const uint8_t *consumes = S->call_consumes ? S->call_consumes[ast_call_index(e)] : NULL;
	if (!consumes)
		return false;
	for (int i = 0; i < e->u.call.nargs; i++)
		if (consumes[i] && !sema_is_copy(S, sema_expr_type(S, e->u.call.args[i]->id)))
			return false;
	return true;
}

/*
 * e is a call of a builtin that only reads its arguments and has no effect
 * (a length, an emptiness or membership test, a comparison of texts), or of
 * an effect-free user function (is_pure_user_call), on places and integer,
 * `bool` or `char` literals: with its places fixed, it has one value
 * wherever it is read, like a place (the arguments are the same bindings,
 * never assigned nor moved — a moved one is not read again).
 */
static bool
is_pure_call(const Own *O, const Expr *e)
{
	if (!e || e->kind != EXPR_CALL || !e->u.call.nargs)
		return false;
	const struct Builtin *b = O->S->call_builtin[ast_call_index(e)];
	if (b ? !is_reading_builtin(b->bid) : !is_pure_user_call(O, e))
		return false;
	for (int i = 0; i < e->u.call.nargs; i++) {
		const Expr *a = e->u.call.args[i];
		if (!(is_place(a) || a->kind == EXPR_INT || a->kind == EXPR_BOOL || a->kind == EXPR_CHAR))
			return false;
	}
	return true;
}

/* A condition that is itself a value: a place or a pure call (is_pure_call). */
static bool
is_var(const Own *O, const Expr *e)
{
	return is_place(e) || is_pure_call(O, e);
}

static bool
same_atom(const Expr *a, const Expr *b)
{
	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case EXPR_CALL:   /* (pure calls: the same builtin on the same atoms; type arguments follow them) */
		if (strcmp(a->u.call.callee.s, b->u.call.callee.s) != 0 || a->u.call.nargs != b->u.call.nargs)
			return false;
		for (int i = 0; i < a->u.call.nargs; i++)
			if (!same_atom(a->u.call.args[i], b->u.call.args[i]))
				return false;
		return true;
	case EXPR_NAME: return strcmp(a->u.name.s, b->u.name.s) == 0;
	case EXPR_FIELD: return strcmp(a->u.field.name.s, b->u.field.name.s) == 0 && same_atom(a->u.field.base, b->u.field.base);
	case EXPR_INT: return a->u.int_lit.value == b->u.int_lit.value && a->lit_suffix == b->lit_suffix && a->lit_negative == b->lit_negative;
	case EXPR_BOOL: return a->u.bool_lit.value == b->u.bool_lit.value;
	case EXPR_CHAR: return a->u.char_lit.value == b->u.char_lit.value;
	default: return false;
	}
}

static bool
is_atom(const Own *O, const Expr *e)
{
	return e && (is_var(O, e) || e->kind == EXPR_INT || e->kind == EXPR_BOOL || e->kind == EXPR_CHAR);
}

static bool
is_cmp(const Own *O, const Expr *e)
{
	return e && e->kind == EXPR_BINARY && e->bin_op >= BIN_EQ && e->bin_op <= BIN_GE &&
	       is_atom(O, e->u.binary.lhs) && is_atom(O, e->u.binary.rhs);
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
	if (is_var(O, a))
		return is_var(O, b) && same_atom(a, b) ? 0 : -1;
	if (!is_cmp(O, b))
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
	sema_own_occ_range(O->binds.items, O->binds.len, c, &nbinds);
	if (nbinds)
		return false;   /* a `for` item or a pattern binding of the name: another variable */
	const struct OwnOcc *k = sema_own_occ_range(O->kills.items, O->kills.len, c, &n);
	if (n == 1 && k->let && k->at < e->span.start && !(field && k->mut)) {
		if (*let_at == UINT32_MAX || k->at > *let_at)
			*let_at = k->at;
	} else if (!(n == 0 && sema_own_find(O, c) >= 0 && sema_own_find(O, c) < O->nparams)) {
		return false;   /* (a parameter never assigned is in scope throughout) */
	}
	sema_own_occ_range(O->occ.items, O->occ.len, c, &nreads);
	return nreads >= 2;
}

/* The places of condition or scrutinee x (a place, or a comparison of
 * places and literals) are fixed (place_fixed). */
static bool
var_fixed(Own *O, const Expr *x, const Expr *e, uint32_t *let_at)
{
	if (is_place(x))
		return place_fixed(O, x, e, let_at);
	bool any = false;   /* a pure call: its places */
	for (int i = 0; i < x->u.call.nargs; i++)
		if (is_place(x->u.call.args[i])) {
			if (!place_fixed(O, x->u.call.args[i], e, let_at))
				return false;
			any = true;
		}
	return any;
}

static bool
cond_fixed(Own *O, const Expr *x, const Expr *e, uint32_t *let_at)
{
	if (is_var(O, x))
		return var_fixed(O, x, e, let_at);
	if (!is_cmp(O, x))
		return false;
	const Expr *l = x->u.binary.lhs, *r = x->u.binary.rhs;
	return (!is_var(O, l) || var_fixed(O, l, e, let_at)) && (!is_var(O, r) || var_fixed(O, r, e, let_at)) &&
	       (is_var(O, l) || is_var(O, r));
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
		sema_own_occ_range(O->binds.items, O->binds.len, e->u.name.s, &nbinds);
		const struct OwnOcc *k = sema_own_occ_range(O->kills.items, O->kills.len, e->u.name.s, &n);
		const struct OwnLetDef *def = n == 1 && k->let && !nbinds ? letdef_find(O, e->u.name.s) : NULL;
		if (!def)
			return e;
		bool n2;
		const Expr *v = strip_not(def->value, &n2);
		uint32_t let_at = UINT32_MAX;
		if (!v || !(is_var(O, v) || is_cmp(O, v)) || !cond_fixed(O, v, def->value, &let_at))
			return e;
		e = def->value;
	}
}

/* The value the fact gives condition e, or -1 (none): e or its negation,
 * or an `&&` / `||` of conditions whose values decide it (the operators
 * are lazy, but the value is the same). */
int
sema_own_fact_value(Own *O, int fact, const Expr *e)
{
	if (!fact)
		return -1;
	const struct OwnFact *f = &O->facts.items[(fact - 1) / 2];
	bool neg = false;
	e = cond_resolve(O, e, &neg);
	if (f->pat || !e)
		return -1;
	int v;
	if (e->kind == EXPR_BINARY && (e->bin_op == BIN_AND || e->bin_op == BIN_OR)) {
		int a = sema_own_fact_value(O, fact, e->u.binary.lhs), b = sema_own_fact_value(O, fact, e->u.binary.rhs);
		int zero = e->bin_op == BIN_OR;   /* the value that decides: false for `&&`, true for `||` */
		if (a == zero || b == zero)
			v = zero;
		else if (a == !zero && b == !zero)
			v = !zero;
		else
			return -1;
	} else {
		int rel = cond_rel(O, f->cond, e);
		if (rel < 0)
			return -1;
		v = ((fact - 1) % 2) ^ rel;
	}
	return v ^ neg;
}

/* ---- match patterns ---- */

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
int
sema_own_fact_alts(const Own *O, int fact, const Expr *scrut, const Pattern *const **fa, const Pattern **one)
{
	if (!fact)
		return 0;
	const struct OwnFact *f = &O->facts.items[(fact - 1) / 2];
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
uint32_t
sema_own_fact_arm_meets(const Pattern *const *fa, int nf, uint32_t left, const Pattern *p, uint32_t *covers)
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

/* ---- interning ---- */

static uint32_t
name_hash(const char *c)
{
	uint32_t h = 2166136261u;
	for (; *c; c++)
		h = (h ^ (uint8_t)*c) * 16777619u;
	return h;
}

/* A hash of atom a: equal for atoms same_atom takes for one. */
static uint32_t
atom_hash(const Expr *a)
{
	switch (a->kind) {
	case EXPR_NAME: return name_hash(a->u.name.s);
	case EXPR_FIELD: return name_hash(a->u.field.name.s) * 31u + atom_hash(a->u.field.base);
	case EXPR_INT: return (uint32_t)a->u.int_lit.value * 2654435761u + (uint32_t)(a->u.int_lit.value >> 32) + (uint32_t)a->lit_suffix * 97u + a->lit_negative;
	case EXPR_BOOL: return 7u + a->u.bool_lit.value;
	case EXPR_CHAR: return (uint32_t)a->u.char_lit.value * 40503u + 11u;
	case EXPR_CALL: {
		uint32_t h = name_hash(a->u.call.callee.s);
		for (int i = 0; i < a->u.call.nargs; i++)
			h = h * 1000003u + atom_hash(a->u.call.args[i]);
		return h;
	}
	default: return 0;
	}
}

/* A hash of fact f's condition: equal for the conditions fact_intern takes
 * for one (a comparison either way round: its atoms' hashes summed, its
 * operator's class with its swap). */
static uint32_t
fact_hash(const Own *O, const struct OwnFact *f)
{
	const Expr *c = f->cond;
	if (f->pat)
		return atom_hash(c) * 2246822519u ^ (uint32_t)(uintptr_t)f->pat * 3266489917u;
	if (is_var(O, c))
		return atom_hash(c);
	uint32_t cls;
	switch (c->bin_op) {
	case BIN_EQ: cls = 1; break;
	case BIN_NE: cls = 2; break;
	case BIN_LT: case BIN_GT: cls = 3; break;
	default: cls = 4; break;   /* BIN_LE, BIN_GE */
	}
	return (atom_hash(c->u.binary.lhs) + atom_hash(c->u.binary.rhs)) * 668265263u ^ cls;
}

static bool
fact_same(const Own *O, const struct OwnFact *a, const struct OwnFact *b)
{
	if (a->pat != b->pat)
		return false;
	return a->pat ? same_atom(a->cond, b->cond) : cond_rel(O, a->cond, b->cond) == 0;
}

static int *
fact_slot(Own *O, const struct OwnFact *f)
{
	uint32_t mask = (uint32_t)O->fact_slots_cap - 1, k = f->hash & mask;
	for (;; k = (k + 1) & mask) {
		int *slot = &O->fact_slots[k];
		if (!*slot || fact_same(O, &O->facts.items[*slot - 1], f))
			return slot;
	}
}

/* The index of fact f's condition in Own.facts, added when new. */
static int
fact_intern(Own *O, struct OwnFact *f)
{
	f->hash = fact_hash(O, f);
	if ((O->facts.len + 1) * 2 > O->fact_slots_cap) {
		int cap = O->fact_slots_cap ? O->fact_slots_cap * 2 : 64;
		free(O->fact_slots);
		O->fact_slots = spx_xcalloc((size_t)cap, sizeof *O->fact_slots);
		O->fact_slots_cap = cap;
		for (int i = 0; i < O->facts.len; i++)
			*fact_slot(O, &O->facts.items[i]) = i + 1;
	}
	int *slot = fact_slot(O, f);
	if (!*slot) {
		VEC_PUSH(O->facts, *f);
		*slot = O->facts.len;
	}
	return *slot - 1;
}

/* ---- reach ---- */

/* The key of a condition (a place, or a comparison): equal for conditions
 * cond_rel relates (the same atoms either way round, an operator of the
 * same family: `==`/`!=` or an ordering).  Never 0. */
static uint32_t
cond_key(const Own *O, const Expr *c)
{
	uint32_t k;
	if (is_var(O, c))
		k = atom_hash(c) * 2654435761u ^ 0x9e3779b9u;
	else
		k = (atom_hash(c->u.binary.lhs) + atom_hash(c->u.binary.rhs)) * 668265263u ^
		    (c->bin_op == BIN_EQ || c->bin_op == BIN_NE ? 0x51ed27u : 0x2545f491u);
	return k ? k : 1;
}

static struct OwnReach *
reach_slot(const Own *O, uint32_t key)
{
	uint32_t mask = (uint32_t)O->reach_cap - 1, k = key * 2246822519u & mask;
	while (O->reach[k].key && O->reach[k].key != key)
		k = (k + 1) & mask;
	return &O->reach[k];
}

/* Raise the reach of key to at (a slot per key; keys are hashes, so two
 * conditions may share one: a later reach, only less dropping). */
static void
reach_raise(Own *O, uint32_t key, uint32_t at)
{
	if ((O->reach_len + 1) * 2 > O->reach_cap) {
		struct OwnReach *old = O->reach;
		int cap = O->reach_cap;
		O->reach_cap = cap ? cap * 2 : 256;
		O->reach = spx_xcalloc((size_t)O->reach_cap, sizeof *O->reach);
		for (int i = 0; i < cap; i++)
			if (old[i].key)
				*reach_slot(O, old[i].key) = old[i];
		free(old);
	}
	struct OwnReach *r = reach_slot(O, key);
	if (!r->key) {
		r->key = key;
		O->reach_len++;
	}
	if (at > r->at)
		r->at = at;
}

static void
reach_visit(void *ctx, const Expr *e)
{
	Own *O = ctx;
	if (is_var(O, e)) {
		reach_raise(O, cond_key(O, e), e->span.end);
		if (e->kind == EXPR_NAME && letdef_find(O, e->u.name.s)) {
			bool neg = false;
			const Expr *c = cond_resolve(O, e, &neg);
			if (c != e && (is_var(O, c) || is_cmp(O, c)))
				reach_raise(O, cond_key(O, c), e->span.end);
		}
	} else if (is_cmp(O, e)) {
		reach_raise(O, cond_key(O, e), e->span.end);
	}
}

static void
reach_build(Own *O)
{
	O->reach_built = true;
	sema_walk_block(O->body, reach_visit, O);
}

/*
 * The end of the last read of a condition fact f (condition c) may decide:
 * a place or comparison related to c (cond_key), or a name a `let` binds to
 * one (cond_resolve; an `&&`/`||` is decided through its operands, read
 * there).  sema_own_fact_value and sema_own_fact_alts decide nothing past
 * it, so own_live.c's walk drops the fact there (dropping one early would
 * be more T265, never less: the reach only saves work).
 */
static uint32_t
fact_reach(Own *O, const Expr *c)
{
	if (!O->reach_built)
		reach_build(O);
	const struct OwnReach *r = O->reach_cap ? reach_slot(O, cond_key(O, c)) : NULL;
	return r && r->key ? r->at : UINT32_MAX;
}

/* ---- entering a fact ---- */

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
 * Asked only while no fact is held (the innermost qualifying `if` or
 * match), and taken only while the function's walks holding one are within
 * their budget (Own.fact_budget).  The fact, or 0 (none); *fact_let: the
 * offset of the latest `let` of a root of c or x (UINT32_MAX: parameters
 * only), *fact_reach: the fact's reach (fact_reach), set with a fact only.
 */
int
sema_own_fact_enter(Own *O, const Expr *e, const Block *inner, uint32_t pos, uint32_t *fact_let, uint32_t *fact_reach_at)
{
	if (!e || O->fact_work > O->fact_budget)
		return 0;
	struct OwnFact f = { NULL, NULL, 0, 0 };
	bool value = true;
	if (e->kind == EXPR_IF && inner) {
		bool then_ = e->u.if_.then_block == inner, neg;
		if (!then_ && e->u.if_.else_block != inner)
			return 0;
		neg = false;
		f.cond = cond_resolve(O, e->u.if_.cond, &neg);
		value = then_ != neg;
	} else if (e->kind == EXPR_MATCH && is_place(e->u.match.scrutinee)) {
		int i = sema_own_arm_at(e, pos);
		const Pattern *const *alts, *one;
		if (i < 0 || !sema_own_holds_pos(e->u.match.arms[i].value, pos) || !pat_alts(e->u.match.arms[i].pat, &alts, &one))
			return 0;
		f.cond = e->u.match.scrutinee;
		f.pat = e->u.match.arms[i].pat;
	} else {
		return 0;
	}
	uint32_t let_at = UINT32_MAX;
	if (!f.pat)
		f.cond = fact_pick(O, f.cond, e, &value);
	if (!f.cond || !cond_fixed(O, f.cond, e, &let_at))
		return 0;
	int n = O->facts.len, i = fact_intern(O, &f);
	if (i == n)
		O->facts.items[i].reach = fact_reach(O, f.cond);
	*fact_let = let_at;
	*fact_reach_at = O->facts.items[i].reach;
	return 2 * i + 1 + value;
}
