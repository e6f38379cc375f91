/*
 * own.c — the ownership pass (LANGUAGE.md §4.9, §0.5): moves through every
 * control-flow form, use after move (O101 resources, H006 other owned
 * values), maybe-moved (O107 resources, O110 other places), partially moved
 * places (O109), moves out of borrows (O102/O108), and moves or
 * replacements of an owner while a `match borrow` arm or a `for` loop
 * borrows from it (T265).
 *
 * It runs per function after typing, over the typed AST: each owned
 * (non-Copy) binding has a state — live, moved, maybe moved, partially
 * moved.  Branches fork the state vector and join it (moved on some path =
 * maybe moved); a loop body runs twice from the joined state so a move in
 * one iteration is seen by the next.  A diagnostic is reported once per
 * expression.
 *
 * Forks cost what the branches change, not the number of variables: while a
 * fork is open every state change is logged on a trail (variable, old
 * state), so restoring the entry state undoes the trail back to the fork's
 * mark, and a join visits only the variables the trail names.  The join of
 * two states is the flat one: equal states stay, different ones are "maybe
 * moved".
 */
#include "sema_int.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ST_LIVE, ST_MOVED, ST_MAYBE, ST_PARTIAL };

/*
 * A state is one of the four above in its low two bits; ST_PARTIAL carries
 * per-field facts for the first FIELD_BITS moved fields (OwnVar.moved_fields
 * order): bit DEF(k) the field is moved on every path here, MAY(k) on some
 * path only; ALL_PATHS says the record is partially moved on every path.
 * Joins combine them, so a field moved in one branch only is "maybe moved"
 * (O110) and a sibling the branches did not touch stays usable.
 */
typedef uint16_t OwnSt;
#define ST(x) ((x) & 3)
#define FIELD_BITS 6
#define DEF(k) ((OwnSt)(1u << (2 + 2 * (k))))
#define MAY(k) ((OwnSt)(1u << (3 + 2 * (k))))
#define ALL_PATHS ((OwnSt)(1u << 14))

/* The owned fields moved out of a partially moved variable (the first six;
 * FIELD_BITS), kept beside the variables: few bindings ever need one. */
typedef struct OwnFields {
	const char *name[6];
} OwnFields;

typedef struct OwnVar {
	const char *name;
	TypeId type;
	uint32_t serial;   /* unique in the function: tells a reused index from the variable an edge names */
	int moved_fields;  /* ST_PARTIAL: index of its OwnFields in Own.fields; -1: none yet */
	int loans;         /* open `match borrow` arms and `for` bodies borrowing from this owner (T265) */
	int traversals;    /* … of which `for` bodies: the traversal source is frozen (T284) */
	int prev;          /* the variable of the same name this one hides, or -1 */
	int owner_edges;   /* as an owner: its latest view edge (Own.edges), or -1 … */
	int view_edges;    /* … as a value holding views: its latest edge, or -1 */
	uint8_t borrowed;  /* 1: a `borrow` parameter; 2: a binding into a borrowed value */
	bool shared;       /* borrowed == 1 through a `shared` parameter */
	bool own_closure;  /* captured by, or bound to, an owning closure: a move reads as O101 */
} OwnVar;

/* A value holding a view (`str`, `Slice<u8>`, or a Box/Vec/Option/… of
 * them) borrows from an owner: one edge per (view, owner) pair (Own.pairs),
 * listed from both ends.  Never removed: an edge whose variable went out of
 * scope fails the serial check (its index may hold another variable by
 * then).  Whether the view holds the owner's storage at this point is the
 * edge's flow state, alive, forked and joined like a variable's (the trail
 * names edge k as variable -1 - k): made or renewed by a binding or an
 * assignment of the view, killed when the view variable is given a value
 * that does not name it; the join of two paths is alive when either is. */
typedef struct OwnEdge {
	int view, owner;
	uint32_t view_serial, owner_serial;
	int next_by_owner, next_by_view;
	OwnSt alive;
} OwnEdge;

typedef struct Own {
	Sema *S;
	VEC(OwnVar) vars;
	VEC(OwnFields) fields;  /* OwnVar.moved_fields */
	VEC(OwnSt) st;       /* state per var (parallel to vars) */
	VEC(int) marks;
	VEC(struct OwnLoop { int mark; uint32_t start; }) loops;   /* enclosing loops, outermost first (T265) */
	VEC(OwnEdge) edges;    /* view → owner borrows (T265); stale ones fail the serial check */
	VEC(struct OwnRef { int var; uint32_t serial; }) escaped;  /* owners of views that left a scope (view_escapes) */
	uint32_t serials;
	const Block *body;     /* the function's body: its value is the result (O116/T264 there) */
	bool quiet_views;      /* the value of a T284 rebinding: its moves are ordinary (no T265 besides) */
	VEC(struct OwnUndo { int var; OwnSt old; }) trail;   /* state changes while a fork is open (var < 0: edge -1 - var) */
	int forks;             /* open forks */
	int *stamp;            /* per var: the epoch that last collected it (diff) */
	int stamp_cap, epoch;
	int *estamp;           /* … per edge */
	int estamp_cap;
	int *pairs;            /* open addressing: (view serial, owner serial) → edge + 1 (0: empty) */
	int pairs_cap;
	bool loops_unstable;   /* a loop's states did not settle within OWN_LOOP_PASSES: refused (T265) */
	VEC(struct OwnAt { const Block *b; int i; }) blocks;  /* blocks being walked, innermost last, and the statement (nstmts: the tail) */
	VEC(struct OwnOcc { const char *name; uint32_t at; }) occ;  /* the function's name uses by (name, offset), built on demand (next_use) */
	bool occ_built;
	VEC(const Expr *) operands;  /* evaluated operands holding views whose consumer has not run yet (operand_done) */
	StrMap index;          /* name → index of its innermost variable (-1: none) */
	StrMap last_use;       /* name → end offset of its last use in the function (T265) */
	bool in_contract;      /* contracts may not transfer ownership (O105) */
	bool edges_full;       /* OWN_EDGE_CAP reached: the function is refused (T265) */
	const char *fn_name;   /* the function being checked (O102 text) */
	const char *arg_callee; /* while a call argument that is a bare name is checked: the callee … */
	const char *arg_param;  /* … and its parameter's name (builtins: `argN`); NULL otherwise */
	const Expr *arg_place;  /* the call argument being checked when it is a name or a field (T265's wording) */
	char arg_buf[24];       /* storage for a builtin's `argN` */
} Own;

static void own_expr(Own *O, const Expr *e, bool move);
static void own_block(Own *O, const Block *b, bool move_tail);
static void view_collect(Own *O, int view, TypeId t, const Expr *e);
static bool edge_live(Own *O, int k);
static void own_scope_end(Own *O, Span at);
static void own_tail_escape(Own *O, const Expr *value);
static int call_owner(Own *O, const Expr *e);

static bool
owned(Own *O, TypeId t)
{
	return t != T_ERR && !sema_is_copy(O->S, t);
}

static bool
is_resource(Own *O, TypeId t)
{
	const TypeInfo *ti = sema_type_info(&O->S->types, t);
	return ti->kind == TY_NOMINAL && sema_sym(O->S, (SymId)ti->decl)->kind == SK_RESOURCE;
}

static void
push_scope(Own *O)
{
	VEC_PUSH(O->marks, O->vars.len);
}

static void
own_pop_scope(Own *O)
{
	int m = O->marks.items[--O->marks.len];
	while (O->vars.len > m) {
		/* a view leaving scope may live on in the block's value: note its outer owners */
		for (int k = O->vars.items[O->vars.len - 1].view_edges; k >= 0; k = O->edges.items[k].next_by_view)
			if (edge_live(O, k) && O->edges.items[k].owner < m) {
				struct OwnRef r = { O->edges.items[k].owner, O->edges.items[k].owner_serial };
				VEC_PUSH(O->escaped, r);
			}
		const OwnVar *v = &O->vars.items[--O->vars.len];
		sema_strmap_set(&O->index, v->name, v->prev);
	}
	O->st.len = m;
}

static void
declare(Own *O, const char *name, TypeId type, uint8_t borrowed)
{
	OwnVar v = { name, type, ++O->serials, -1, 0, 0, sema_strmap_swap(&O->index, name, O->vars.len), -1, -1, borrowed, false, false };
	VEC_PUSH(O->vars, v);
	OwnSt s = ST_LIVE;
	VEC_PUSH(O->st, s);
}

/* The innermost variable called name (one probe of the index), or -1. */
static int
find(Own *O, const char *name)
{
	return sema_strmap_get(&O->index, name);
}

/* Edge k, if both its variables are still the ones it was made for. */
static bool
edge_scoped(Own *O, int k)
{
	const OwnEdge *g = &O->edges.items[k];
	return g->view < O->vars.len && O->vars.items[g->view].serial == g->view_serial &&
	    g->owner < O->vars.len && O->vars.items[g->owner].serial == g->owner_serial;
}

/* Edge k, if in scope and alive on this path: the view may hold the owner's storage here. */
static bool
edge_live(Own *O, int k)
{
	return O->edges.items[k].alive && edge_scoped(O, k);
}

/* The view/owner links one function may make: a chain of views passed
 * through one another (`let v2 = if c { v1 } else { string_as_str(o2) };`)
 * borrows from every owner before it, n²/2 links for n views; past the cap
 * the function is refused (T265, sema_own_check_function) rather than the
 * checker growing without bound (3,200 such views took 137 MB). */
#define OWN_EDGE_CAP (1 << 18)

/* Sets edge k's flow state, logging the old one while a fork is open. */
static void
set_edge(Own *O, int k, OwnSt alive)
{
	if (O->edges.items[k].alive == alive)
		return;
	if (O->forks) {
		struct OwnUndo u = { -1 - k, O->edges.items[k].alive };
		VEC_PUSH(O->trail, u);
	}
	O->edges.items[k].alive = alive;
}

/* The slot of pair (view serial a, owner serial b) in Own.pairs. */
static int *
pair_slot(Own *O, uint32_t a, uint32_t b)
{
	uint32_t h = (a * 2654435761u ^ b * 2246822519u) & (uint32_t)(O->pairs_cap - 1);
	for (;;) {
		int *s = &O->pairs[h];
		if (!*s || (O->edges.items[*s - 1].view_serial == a && O->edges.items[*s - 1].owner_serial == b))
			return s;
		h = (h + 1) & (uint32_t)(O->pairs_cap - 1);
	}
}

/* Records that variable view borrows from variable owner on this path: its
 * pair's edge made alive, or a new edge (one per pair: a loop's passes find
 * the same edges, so its states settle). */
static void
add_edge(Own *O, int view, int owner)
{
	if (view < 0 || owner < 0 || view == owner)
		return;
	uint32_t a = O->vars.items[view].serial, b = O->vars.items[owner].serial;
	if ((O->edges.len + 1) * 2 > O->pairs_cap) {
		free(O->pairs);
		O->pairs_cap = O->pairs_cap ? O->pairs_cap * 2 : 256;
		O->pairs = spx_xcalloc((size_t)O->pairs_cap, sizeof(int));
		for (int k = 0; k < O->edges.len; k++)
			*pair_slot(O, O->edges.items[k].view_serial, O->edges.items[k].owner_serial) = k + 1;
	}
	int *slot = pair_slot(O, a, b);
	if (*slot) {
		set_edge(O, *slot - 1, 1);
		return;
	}
	if (O->edges.len >= OWN_EDGE_CAP) {
		O->edges_full = true;
		return;
	}
	OwnEdge g = { view, owner, a, b, O->vars.items[owner].owner_edges, O->vars.items[view].view_edges, 0 };
	VEC_PUSH(O->edges, g);
	*slot = O->edges.len;
	O->vars.items[owner].owner_edges = O->vars.items[view].view_edges = O->edges.len - 1;
	set_edge(O, O->edges.len - 1, 1);   /* in a fork: dead on the other paths */
}

static bool
first_report(Own *O, const Expr *e)
{
	Sema *S = O->S;
	if (!S->own_reported)   /* on the first report: a clean module never needs it */
		S->own_reported = spx_xcalloc(S->m->nexprs ? S->m->nexprs : 1, 1);
	if (S->own_reported[e->id])
		return false;
	S->own_reported[e->id] = 1;
	return true;
}

/* Sets variable i's state, logging the old one while a fork is open. */
static void
set_state(Own *O, int i, OwnSt v)
{
	if (O->st.items[i] == v)
		return;
	if (O->forks) {
		struct OwnUndo u = { i, O->st.items[i] };
		VEC_PUSH(O->trail, u);
	}
	O->st.items[i] = v;
}

static void
moved_help(Own *O, Diag *d, TypeId t, const char *name)
{
	Sema *S = O->S;
	TyKind k;
	if (t == T_STRING)
		diag_set_help(d, "`string_concat` and `own` parameters consume a `string`; pass `string_as_str(%s)` to a `borrow str` parameter instead, or build a second string before the first use", name);
	else if (t == T_BYTES)
		diag_set_help(d, "`own` parameters consume `Bytes`; pass `bytes_as_slice(%s)` to a `borrow Slice<u8>` parameter instead, or copy first with `bytes_copy(bytes_as_slice(%s))`", name, name);
	else if (is_resource(O, t))
		diag_set_help(d, "borrow the resource if the callee does not need ownership");
	else if ((k = sema_type_info(&S->types, t)->kind) == TY_VEC || k == TY_MAP || k == TY_SET) {
		/* the update builtins consume the collection and return the new one */
		const TypeInfo *ti = sema_type_info(&S->types, t);
		const char *a0 = sema_type_name(S, ti->args[0]);
		if (k == TY_VEC)
			diag_set_help(d, "an update such as `vec_push<%s>` consumes `%s` and returns the new vector: declare `let mut %s` and rebind `%s = vec_push<%s>(%s, x);`; a function that only reads takes `borrow %s`",
			    a0, name, name, name, a0, name, sema_type_name(S, t));
		else if (k == TY_MAP)
			diag_set_help(d, "an update such as `map_set<%s, %s>` consumes `%s` and returns the new map: declare `let mut %s` and rebind `%s = map_set<%s, %s>(%s, key, value);`; a function that only reads takes `borrow %s`",
			    a0, sema_type_name(S, ti->args[1]), name, name, name, a0, sema_type_name(S, ti->args[1]), name, sema_type_name(S, t));
		else
			diag_set_help(d, "an update such as `set_insert<%s>` consumes `%s` and returns the new set: declare `let mut %s` and rebind `%s = set_insert<%s>(%s, key);`; a function that only reads takes `borrow %s`",
			    a0, name, name, name, a0, name, sema_type_name(S, t));
	} else
		diag_set_help(d, "use `%s` before the move, pass it to a `borrow` parameter, or rebuild it", name);
}

/* T265: a view v is live after a change at offset end when it is used after
 * end, or, inside a loop v was bound before, anywhere from that loop's start:
 * the next iteration reads v again.  Returns the offset uses must not pass. */
static uint32_t
view_horizon(Own *O, int v, uint32_t end)
{
	for (int k = 0; k < O->loops.len; k++)
		if (v < O->loops.items[k].mark)
			return O->loops.items[k].start < end ? O->loops.items[k].start : end;
	return end;
}

static void
occ_visit(void *ctx, const Expr *e)
{
	Own *O = ctx;
	if (e->kind == EXPR_NAME) {
		struct OwnOcc u = { e->u.name.s, e->span.start };
		VEC_PUSH(O->occ, u);
	}
}

static int
occ_cmp(const void *a, const void *b)
{
	const struct OwnOcc *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : (x->at > y->at) - (x->at < y->at);
}

/* The offset of the first use of name at or after from, or UINT32_MAX. */
static uint32_t
next_use(Own *O, const char *name, uint32_t from)
{
	if (!O->occ_built) {   /* once per function, and only where a T265 is in question */
		O->occ_built = true;
		sema_walk_block(O->body, occ_visit, O);
		if (O->occ.len > 1)
			qsort(O->occ.items, (size_t)O->occ.len, sizeof O->occ.items[0], occ_cmp);
	}
	int lo = 0, hi = O->occ.len;
	struct OwnOcc key = { name, from };
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (occ_cmp(&O->occ.items[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < O->occ.len && strcmp(O->occ.items[lo].name, name) == 0 ? O->occ.items[lo].at : UINT32_MAX;
}

static bool
assigns_whole(const Stmt *s, const char *name)
{
	return s->kind == STMT_ASSIGN && !s->u.assign.has_field && s->u.assign.target.s && strcmp(s->u.assign.target.s, name) == 0;
}

/* The statements repointed_before_read looks ahead (past them: live, the safe side). */
#define OWN_REPOINT_SCAN 256

/*
 * T265: view variable v, whose owner changes at offset end, is given a new
 * value before anything reads it, on every path from here: the rest of the
 * statement being walked in the innermost block does not name it, and a
 * later statement of that same block assigns it whole, with a value that
 * does not name it, before any statement names it or declares its name
 * again (the statements run in order: no path leaves a block early but by
 * leaving the function).  A change inside the value of v's own assignment
 * counts too.  A `while` statement's condition runs again: not looked at.
 */
static bool
repointed_before_read(Own *O, int v, uint32_t end)
{
	const char *name = O->vars.items[v].name;
	if (!O->blocks.len || find(O, name) != v)
		return false;
	const struct OwnAt *at = &O->blocks.items[O->blocks.len - 1];
	const Block *b = at->b;
	if (at->i >= b->nstmts || b->stmts[at->i]->kind == STMT_WHILE)
		return false;
	const Stmt *s = b->stmts[at->i];
	uint32_t p = next_use(O, name, end);
	if (p < s->span.end)
		return false;
	if (assigns_whole(s, name))
		return true;
	for (int j = at->i + 1; j < b->nstmts && j <= at->i + OWN_REPOINT_SCAN; j++) {
		const Stmt *t = b->stmts[j];
		if (p < t->span.end || (t->kind == STMT_LET && (!t->u.let.name.s || strcmp(t->u.let.name.s, name) == 0)))
			return false;
		if (assigns_whole(t, name))
			return true;
	}
	return false;
}

/* T265: a view binding of variable i (string_as_str, bytes_as_slice, …) used
 * after offset end (view_horizon), or -1. */
static int
live_view(Own *O, int i, uint32_t end)
{
	/* the owner's views in scope (its list, latest first; the earliest live one
	 * is reported): a scan of every variable made a chain of moves quadratic */
	int found = -1;
	for (int k = O->vars.items[i].owner_edges; k >= 0; k = O->edges.items[k].next_by_owner) {
		int v = O->edges.items[k].view;
		if (edge_live(O, k) && sema_strmap_get(&O->last_use, O->vars.items[v].name) > (int32_t)view_horizon(O, v, end) &&
		    !repointed_before_read(O, v, end))
			found = v;
	}
	return found;
}

/* Operand e was evaluated and its consumer (the call, the operator, the
 * record) runs after the operands to its right: a view it holds is read
 * then (T265, operand_borrows). */
static void
operand_done(Own *O, const Expr *e)
{
	if (e && sema_type_view(O->S, sema_expr_type(O->S, e->id)))
		VEC_PUSH(O->operands, e);
}

typedef struct OperandHit {
	Own *O;
	int owner;
	bool hit;
} OperandHit;

static void
operand_visit(void *ctx, const Expr *e)
{
	OperandHit *h = ctx;
	Own *O = h->O;
	int i = e->kind == EXPR_NAME ? find(O, e->u.name.s) : e->kind == EXPR_CALL ? call_owner(O, e) : -1;
	if (i < 0)
		return;
	if (e->kind == EXPR_CALL && i == h->owner)
		h->hit = true;
	for (int k = O->vars.items[i].view_edges; k >= 0; k = O->edges.items[k].next_by_view)
		if (edge_live(O, k) && O->edges.items[k].owner == h->owner)
			h->hit = true;
}

/* T265: an evaluated operand whose consumer has not run yet borrows owner
 * (`both(w, take(s))`: `both` reads `w` after `take` consumed `s`). */
static bool
operand_borrows(Own *O, int owner)
{
	OperandHit h = { O, owner, false };
	for (int k = 0; k < O->operands.len && !h.hit; k++)
		sema_walk_expr(O->operands.items[k], operand_visit, &h);
	return h.hit;
}

/* T265: moving variable i (or an owned part of it) while something borrows from it. */
static bool
loaned_move(Own *O, int i, const Expr *e)
{
	/* the reference's wording: a call argument naming the place (its argument
	 * check) or any other move of a value source (mark_value_sources_moved:
	 * a `let` value, a `match own` scrutinee, a field value, a block tail) */
	const char *msg = e == O->arg_place ? "move or call transfer would invalidate a lexical byte view"
					    : "move or transfer would invalidate an active shared loan";
	int view = O->vars.items[i].loans == 0 && !O->quiet_views ? live_view(O, i, e->span.end) : -1;
	if (view < 0 && O->vars.items[i].loans == 0 && !O->quiet_views && operand_borrows(O, i)) {
		if (first_report(O, e)) {
			Diag *d = sema_error(O->S, DIAG_T265, e->span, "%s", msg);
			diag_set_help(d, "an earlier operand of the same call or operator borrows `%s` and is read when it runs, after this move; move `%s` after it, or pass an owned copy (`string_from_str`, `bytes_copy`)",
			    O->vars.items[i].name, O->vars.items[i].name);
		}
		return true;
	}
	if (view >= 0) {
		if (first_report(O, e)) {
			Diag *d = sema_error(O->S, DIAG_T265, e->span, "%s", msg);
			diag_set_help(d, "`%s` still borrows `%s` after this move; finish using the view first, or take the view from the new owner",
			    O->vars.items[view].name, O->vars.items[i].name);
		}
		return true;
	}
	if (O->vars.items[i].loans == 0)
		return false;
	if (O->vars.items[i].traversals > 0) {
		/* §4.4: the vector a `for` traverses is frozen in the body (the reference's T284) */
		if (first_report(O, e)) {
			Diag *d = sema_error(O->S, DIAG_T284, e->span, "for traversal source `%s` cannot be moved in the loop body", O->vars.items[i].name);
			diag_set_help(d, "move `%s` after the loop; inside it, read the borrowed item", O->vars.items[i].name);
		}
		return true;
	}
	if (first_report(O, e)) {
		Diag *d = sema_error(O->S, DIAG_T265, e->span, "%s", msg);
		diag_set_help(d, "a `match borrow` arm borrows from `%s` until it ends; move `%s` after it, or use `match own`",
		    O->vars.items[i].name, O->vars.items[i].name);
	}
	return true;
}

/* A use of variable i at expression e (the whole value). */
static void
use_var(Own *O, int i, const Expr *e, bool move)
{
	Sema *S = O->S;
	OwnVar *v = &O->vars.items[i];
	OwnSt st = O->st.items[i];
	bool res = is_resource(O, v->type) || v->own_closure;
	if (st == ST_MOVED && first_report(O, e)) {
		Diag *d = res ? sema_error(S, DIAG_O101, e->span, "use of resource `%s` after ownership was moved", v->name)
		    : sema_error(S, DIAG_H006, e->span, "use of `%s` after ownership was moved", v->name);
		if (v->own_closure && e->kind == EXPR_CALL)
			diag_set_help(d, "an owning-capture closure may be invoked at most once");
		else
			moved_help(O, d, v->type, v->name);
	} else if (st == ST_MAYBE && first_report(O, e)) {
		Diag *d = res ? sema_error(S, DIAG_O107, e->span, "resource `%s` may have been moved on another control-flow path", v->name)
		    : sema_error(S, DIAG_O110, e->span, "place `%s` may have been moved on another control-flow path", v->name);
		diag_set_help(d, res ? "move the resource on every path or keep it borrowed" : "move it on every path, or keep it borrowed and move it once after the branches");
	} else if (ST(st) == ST_PARTIAL && !(st & ALL_PATHS) && first_report(O, e)) {
		Diag *d = sema_error(S, DIAG_O110, e->span, "place `%s` may have been moved on another control-flow path", v->name);
		diag_set_help(d, "move its fields on every path, or keep it borrowed and move them once after the branches");
	} else if (ST(st) == ST_PARTIAL && first_report(O, e)) {
		Diag *d = sema_error(S, DIAG_O109, e->span, "use of partially moved place `%s`", v->name);
		diag_set_help(d, "use an available sibling field or avoid moving this place earlier");
	}
	if (!move || !owned(O, v->type))
		return;
	if (O->in_contract) {
		if (first_report(O, e)) {
			Diag *d = sema_error(S, DIAG_O105, e->span, "contract expression cannot transfer an owned value");
			diag_set_help(d, "contracts only read: pass `%s` to a `borrow` parameter, or check the property in the body", v->name);
		}
		return;
	}
	/* at a call boundary a lent binding (parameter, alias, `match borrow` or `for`
	 * binding) is O102, as the reference's argument check reports it */
	if ((v->borrowed == 1 || (v->borrowed == 2 && O->arg_callee)) && first_report(O, e)) {
		if (O->arg_callee) {
			Diag *d = sema_error(S, DIAG_O102, e->span, "argument to `%s.%s` is %s, so `%s` cannot transfer it to `%s`",
			    O->fn_name, O->arg_param, v->shared ? "shared" : "borrow", O->fn_name, O->arg_callee);
			diag_set_help(d, "provide an owned `%s` value at this ownership boundary", sema_type_name(S, v->type));
		} else {
			Diag *d = sema_error(S, DIAG_O102, e->span, "borrowed `%s` cannot transfer ownership", v->name);
			diag_set_help(d, "take the parameter as `own`, or pass a copy");
		}
		return;
	}
	if (v->borrowed == 2 && first_report(O, e)) {
		Diag *d = sema_error(S, DIAG_O108, e->span, "cannot move `%s` out of a borrowed value", v->name);
		diag_set_help(d, "use `match own` to take the payload, or read it without moving");
		return;
	}
	if (loaned_move(O, i, e))
		return;
	set_state(O, i, ST_MOVED);
}

static void
own_name(Own *O, const Expr *e, bool move)
{
	int i = find(O, e->u.name.s);
	if (i >= 0)
		use_var(O, i, e, move);
}

/* The index of field name among v's moved fields (added when add); -1: not
 * there (or no room: fields past the table are not tracked). */
static int
field_slot(Own *O, OwnVar *v, const char *name, bool add)
{
	if (v->moved_fields < 0) {
		if (!add)
			return -1;
		OwnFields none = { { NULL } };
		v->moved_fields = O->fields.len;
		VEC_PUSH(O->fields, none);
	}
	const char **f = O->fields.items[v->moved_fields].name;
	int n = (int)(sizeof O->fields.items[0].name / sizeof f[0]);
	for (int k = 0; k < n; k++) {
		if (!f[k]) {
			if (!add)
				return -1;
			f[k] = name;
			return k;
		}
		if (strcmp(f[k], name) == 0)
			return k;
	}
	return -1;
}

static void
own_field(Own *O, const Expr *e, bool move)
{
	const Expr *base = e->u.field.base;
	TypeId ft = sema_expr_type(O->S, e->id);
	if (base->kind == EXPR_NAME) {
		int i = find(O, base->u.name.s);
		if (i < 0)
			return;
		OwnSt st = O->st.items[i];
		if (st == ST_MOVED || st == ST_MAYBE)
			use_var(O, i, base, false);
		OwnVar *ov = &O->vars.items[i];
		if (ST(st) == ST_PARTIAL) {
			int k = field_slot(O, ov, e->u.field.name.s, false);
			bool definite = k >= FIELD_BITS || (k >= 0 && (st & DEF(k)));
			if (k >= 0 && k < FIELD_BITS && (st & MAY(k)) && first_report(O, e)) {
				Diag *d = sema_error(O->S, DIAG_O110, e->span, "place `%s.%s` may have been moved on another control-flow path", ov->name, e->u.field.name.s);
				diag_set_help(d, "move it on every path, or keep it borrowed and move it once after the branches");
				return;
			}
			if (definite) {
				if (first_report(O, e)) {
					if (is_resource(O, ft)) {
						/* the reference's record_partial_moves corpus: a moved resource
						 * field used again is a partially moved place */
						Diag *d = sema_error(O->S, DIAG_O109, e->span, "use of partially moved place `%s.%s`", ov->name, e->u.field.name.s);
						diag_set_help(d, "use an available sibling field or avoid moving this place earlier");
						return;
					}
					Diag *d = sema_error(O->S, DIAG_H006, e->span, "use of `%s.%s` after ownership was moved", ov->name, e->u.field.name.s);
					moved_help(O, d, ft, e->u.field.name.s);
				}
				return;
			}
		}
		if (move && owned(O, ft) && O->in_contract) {
			if (first_report(O, e)) {
				Diag *d = sema_error(O->S, DIAG_O105, e->span, "contract expression cannot transfer an owned value");
				diag_set_help(d, "contracts only read; check the property in the body");
			}
			return;
		}
		if (move && owned(O, ft)) {
			OwnVar *v = &O->vars.items[i];
			if (v->borrowed && first_report(O, e)) {
				Diag *d = sema_error(O->S, DIAG_O108, e->span, "cannot move an owned field through a borrowed or shared record");
				diag_set_help(d, "read Copy fields only, or take `%s` as `own`", v->name);
				return;
			}
			if (loaned_move(O, i, e))
				return;
			OwnSt cur = O->st.items[i];
			if (ST(cur) == ST_LIVE || ST(cur) == ST_PARTIAL) {
				int k = field_slot(O, v, e->u.field.name.s, true);
				OwnSt next = ST(cur) == ST_PARTIAL ? cur : (OwnSt)(ST_PARTIAL | ALL_PATHS);
				if (k >= 0 && k < FIELD_BITS)
					next = (OwnSt)((next & ~MAY(k)) | DEF(k));
				set_state(O, i, next);
			}
		}
		return;
	}
	own_expr(O, base, move && owned(O, ft));
}

/*
 * Names argument i of call for O102's text: the callee as the reference
 * names it and its parameter (a compiler-owned function's parameters are
 * `arg0`, `arg1`, …; a method's receiver is argument 0, `self`).
 */
static void
arg_context(Own *O, const Expr *call, int i)
{
	Sema *S = O->S;
	if (call->kind == EXPR_CALL && S->call_builtin[ast_call_index(call)]) {
		O->arg_callee = S->call_builtin[ast_call_index(call)]->name;
		/* the reference's string operations name their operands; the others are `argN` */
		if (S->call_builtin[ast_call_index(call)]->bid == BI_string_concat && i < 2)
			snprintf(O->arg_buf, sizeof O->arg_buf, "%s", i == 0 ? "a" : "b");
		else
			snprintf(O->arg_buf, sizeof O->arg_buf, "arg%d", i);
		O->arg_param = O->arg_buf;
		return;
	}
	SymId callee = sema_expr_sym(S, call->id);
	if (callee < 0)
		return;
	Sym *f = sema_sym(S, callee);
	int p = call->kind == EXPR_CALL ? i : i - 1;
	if (p >= f->nparams)
		return;
	O->arg_callee = f->name;
	O->arg_param = p < 0 ? "self" : f->params[p].name;
}

static void
own_args(Own *O, const Expr *call, Expr *const *args, int nargs, int offset)
{
	const uint8_t *cons = O->S->call_consumes[ast_call_index(call)];
	int mark = O->operands.len;
	for (int i = 0; i < nargs; i++) {
		bool consume = cons ? cons[i + offset] != 0 : true;
		if (args[i]->kind == EXPR_NAME)
			arg_context(O, call, i + offset);
		O->arg_place = args[i]->kind == EXPR_NAME || args[i]->kind == EXPR_FIELD ? args[i] : NULL;
		own_expr(O, args[i], consume);
		O->arg_callee = O->arg_param = NULL;
		O->arg_place = NULL;
		operand_done(O, args[i]);
	}
	O->operands.len = mark;
}

/* ---- forks ---- */

typedef struct Fork {
	int mark;   /* trail length at the fork: undoing back to it restores the entry state */
	int n;      /* variables at the fork (later ones are scoped inside a branch) */
} Fork;

/* A variable (or an edge, var < 0: edge -1 - var) a branch changed: its
 * state at the fork (base) and now (cur). */
typedef struct Change {
	int var;
	OwnSt base, cur;
} Change;

typedef VEC(Change) Changes;

static OwnSt
join(OwnSt a, OwnSt b)
{
	if (a == b)
		return a;
	if ((ST(a) == ST_PARTIAL || ST(a) == ST_LIVE) && (ST(b) == ST_PARTIAL || ST(b) == ST_LIVE)) {
		/* per field: moved on both paths stays moved; on one only is maybe moved */
		OwnSt r = ST_PARTIAL;
		if ((a & ALL_PATHS) && (b & ALL_PATHS))
			r |= ALL_PATHS;
		for (int k = 0; k < FIELD_BITS; k++) {
			bool da = (a & DEF(k)) != 0, db = (b & DEF(k)) != 0;
			if (da && db)
				r |= DEF(k);
			else if (da || db || (a & MAY(k)) || (b & MAY(k)))
				r |= MAY(k);
		}
		return r;
	}
	return ST_MAYBE;
}

/* The join at variable or edge var: an edge is alive after the join when it is alive on either path. */
static OwnSt
joinv(int var, OwnSt a, OwnSt b)
{
	return var < 0 ? (OwnSt)(a | b) : join(a, b);
}

static OwnSt
get_state(Own *O, int var)
{
	return var < 0 ? O->edges.items[-1 - var].alive : O->st.items[var];
}

static void
put_state(Own *O, int var, OwnSt v)
{
	if (var < 0)
		set_edge(O, -1 - var, v);
	else
		set_state(O, var, v);
}

static Fork
fork_begin(Own *O)
{
	O->forks++;
	return (Fork){ O->trail.len, O->st.len };
}

static void
fork_end(Own *O)
{
	if (--O->forks == 0)
		O->trail.len = 0;
}

/* Undoes the changes logged since mark to the fork's variables; variables
 * declared inside the branch keep their state (a guard's moves of its arm's
 * bindings), and no open fork needs their old states. */
static void
undo_to(Own *O, const Fork *f, int mark)
{
	while (O->trail.len > mark) {
		struct OwnUndo u = O->trail.items[--O->trail.len];
		if (u.var < 0)
			O->edges.items[-1 - u.var].alive = u.old;
		else if (u.var < f->n)
			O->st.items[u.var] = u.old;
	}
}

static void
next_epoch(Own *O)
{
	if (O->stamp_cap < O->st.len) {
		int cap = O->stamp_cap ? O->stamp_cap : 64;
		while (cap < O->st.len)
			cap *= 2;
		O->stamp = spx_xrealloc(O->stamp, sizeof(int) * (size_t)cap);
		memset(O->stamp + O->stamp_cap, 0, sizeof(int) * (size_t)(cap - O->stamp_cap));
		O->stamp_cap = cap;
	}
	if (O->estamp_cap < O->edges.len) {
		int cap = O->estamp_cap ? O->estamp_cap : 64;
		while (cap < O->edges.len)
			cap *= 2;
		O->estamp = spx_xrealloc(O->estamp, sizeof(int) * (size_t)cap);
		memset(O->estamp + O->estamp_cap, 0, sizeof(int) * (size_t)(cap - O->estamp_cap));
		O->estamp_cap = cap;
	}
	if (O->epoch == INT_MAX) {   /* the epochs run on from function to function (own_take) */
		memset(O->stamp, 0, sizeof(int) * (size_t)O->stamp_cap);
		memset(O->estamp, 0, sizeof(int) * (size_t)O->estamp_cap);
		O->epoch = 0;
	}
	O->epoch++;
}

/* The epoch stamp of variable or edge var. */
static int *
stamp_of(Own *O, int var)
{
	return var < 0 ? &O->estamp[-1 - var] : &O->stamp[var];
}

/* The variables below f.n and the edges still in scope that changed since
 * mark, once each, in first-change order. */
static void
diff_since(Own *O, const Fork *f, int mark, Changes *out)
{
	out->len = 0;
	next_epoch(O);
	for (int k = mark; k < O->trail.len; k++) {
		struct OwnUndo u = O->trail.items[k];
		if (u.var >= f->n || *stamp_of(O, u.var) == O->epoch || (u.var < 0 && !edge_scoped(O, -1 - u.var)))
			continue;
		*stamp_of(O, u.var) = O->epoch;
		Change c = { u.var, u.old, get_state(O, u.var) };
		VEC_PUSH(*out, c);
	}
}

static void
own_if(Own *O, const Expr *e, bool move)
{
	own_expr(O, e->u.if_.cond, false);
	Fork f = fork_begin(O);
	if (e->u.if_.then_block)
		own_block(O, e->u.if_.then_block, move);
	Changes then = {0}, other = {0};
	diff_since(O, &f, f.mark, &then);
	undo_to(O, &f, f.mark);
	if (e->u.if_.else_block)
		own_block(O, e->u.if_.else_block, move);
	diff_since(O, &f, f.mark, &other);
	/* join: a variable only the else branch changed was at its base on the then path */
	next_epoch(O);
	for (int i = 0; i < then.len; i++)
		*stamp_of(O, then.items[i].var) = O->epoch;
	for (int i = 0; i < other.len; i++)
		if (*stamp_of(O, other.items[i].var) != O->epoch)
			put_state(O, other.items[i].var, joinv(other.items[i].var, other.items[i].base, other.items[i].cur));
	for (int i = 0; i < then.len; i++)
		put_state(O, then.items[i].var, joinv(then.items[i].var, then.items[i].cur, get_state(O, then.items[i].var)));
	VEC_FREE(then);
	VEC_FREE(other);
	fork_end(O);
}

typedef struct BindCtx {
	Own *O;
	const Expr *src;   /* the scrutinee: bindings holding views borrow what it borrows … */
	int root;          /* … and, in `match borrow`, bindings borrow from its owner (-1: none) */
	uint8_t borrowed;
	bool any_owned;    /* set when a binding has a non-Copy type */
} BindCtx;

static void
bind_one(void *ctx, const char *name, TypeId type, Span span)
{
	BindCtx *b = ctx;
	(void)span;
	b->any_owned |= owned(b->O, type);
	declare(b->O, name, type, b->borrowed);
	view_collect(b->O, b->O->vars.len - 1, type, b->src);
	if (b->borrowed == 2 && owned(b->O, type))   /* a lent owned part (a Copy one is a copy) */
		add_edge(b->O, b->O->vars.len - 1, b->root);
}

/* The variable a `match borrow` scrutinee or `for` iterable names (a binding or a field of one); -1 otherwise. */
static int
place_root(Own *O, const Expr *e)
{
	while (e->kind == EXPR_FIELD)
		e = e->u.field.base;
	return e->kind == EXPR_NAME ? find(O, e->u.name.s) : -1;
}

/* The join of the arms' end states, per variable any arm changed (own_match). */
typedef struct ArmJoin {
	Changes vars;          /* cur: the join so far */
	int *count;            /* per entry: arms that changed it */
	int *slots;            /* open addressing: var → entry + 1 (0: empty) */
	int cap;
} ArmJoin;

static int *
armjoin_slot(ArmJoin *a, int var)
{
	uint32_t h = ((uint32_t)var * 2654435761u) & (uint32_t)(a->cap - 1);
	while (a->slots[h] && a->vars.items[a->slots[h] - 1].var != var)
		h = (h + 1) & (uint32_t)(a->cap - 1);
	return &a->slots[h];
}

/* Folds arm number k's changes into the join. */
static void
armjoin_add(ArmJoin *a, const Changes *d, int k)
{
	for (int i = 0; i < d->len; i++) {
		const Change *c = &d->items[i];
		if ((a->vars.len + 1) * 2 > a->cap) {
			free(a->slots);
			a->cap = a->cap ? a->cap * 2 : 64;
			a->slots = spx_xcalloc((size_t)a->cap, sizeof(int));
			for (int j = 0; j < a->vars.len; j++)
				*armjoin_slot(a, a->vars.items[j].var) = j + 1;
		}
		int *slot = armjoin_slot(a, c->var);
		if (*slot) {
			Change *x = &a->vars.items[*slot - 1];
			x->cur = joinv(c->var, x->cur, c->cur);
			a->count[*slot - 1]++;
			continue;
		}
		/* the earlier arms left it at its base */
		Change x = { c->var, c->base, k ? joinv(c->var, c->base, c->cur) : c->cur };
		VEC_PUSH(a->vars, x);
		a->count = spx_xrealloc(a->count, sizeof(int) * (size_t)a->vars.cap);
		a->count[a->vars.len - 1] = 1;
		*slot = a->vars.len;
	}
}

/*
 * The reference's variant guards (general loop match): a guard cannot
 * leave an owner from outside the match consumed or change its availability (T254) — once per guard, and not
 * again where the checker already refused the guard's shape.
 */
static void
guard_keeps_owners(Own *O, const Expr *guard, const Changes *d)
{
	int k = 0;
	while (k < d->len && (d->items[k].var < 0 || d->items[k].cur == d->items[k].base))
		k++;
	if (k == d->len)
		return;
	for (int i = 0; i < O->S->diags->items.len; i++) {
		const Diag *x = &O->S->diags->items.items[i];
		if (x->code == DIAG_T254 && x->has_span && x->span.start >= guard->span.start && x->span.start < guard->span.end)
			return;
	}
	Diag *dg = sema_error(O->S, DIAG_T254, guard->span, "match guard consumes `%s`, an owner from outside the match", O->vars.items[d->items[k].var].name);
	diag_set_help(dg, "a guard may read outer values but not move them; borrow it (`borrow` parameter) or compute the test before the `match`");
}

static void
own_match(Own *O, const Expr *e, bool move)
{
	own_expr(O, e->u.match.scrutinee, e->u.match.mode == MATCH_OWN);
	Fork f = fork_begin(O);
	int entry = f.mark;   /* the state at this trail mark is the arms' entry state */
	ArmJoin acc = {0};
	Changes d = {0};
	for (int i = 0; i < e->u.match.narms; i++) {
		const MatchArm *arm = &e->u.match.arms[i];
		undo_to(O, &f, entry);
		push_scope(O);
		BindCtx bc = { O, e->u.match.scrutinee, e->u.match.mode == MATCH_BORROW ? place_root(O, e->u.match.scrutinee) : -1, (uint8_t)(e->u.match.mode != MATCH_OWN ? 2 : 0), false };
		sema_pattern_binds(O->S, arm->pat, sema_expr_type(O->S, e->u.match.scrutinee->id), bind_one, &bc);
		/* an arm of `match borrow` that binds owned parts borrows from the scrutinee's owner */
		int lender = e->u.match.mode == MATCH_BORROW && bc.any_owned ? place_root(O, e->u.match.scrutinee) : -1;
		if (lender >= 0)
			O->vars.items[lender].loans++;
		if (arm->guard) {
			own_expr(O, arm->guard, false);
			/* a false guard falls through to the later arms with the guard's moves:
			 * the entry state becomes its join with this one, and the arm goes on from here */
			diff_since(O, &f, entry, &d);
			if (!sema_type_is_scalar(&O->S->types, sema_expr_type(O->S, e->u.match.scrutinee->id)))
				guard_keeps_owners(O, arm->guard, &d);
			undo_to(O, &f, entry);
			for (int k = 0; k < d.len; k++)
				put_state(O, d.items[k].var, joinv(d.items[k].var, d.items[k].base, d.items[k].cur));
			entry = O->trail.len;
			for (int k = 0; k < d.len; k++)
				put_state(O, d.items[k].var, d.items[k].cur);
		}
		own_expr(O, arm->value, move);
		if (lender >= 0)
			O->vars.items[lender].loans--;
		own_tail_escape(O, arm->value);
		own_scope_end(O, arm->value->span);
		own_pop_scope(O);
		diff_since(O, &f, f.mark, &d);
		armjoin_add(&acc, &d, i);
	}
	if (e->u.match.narms) {
		undo_to(O, &f, f.mark);
		for (int k = 0; k < acc.vars.len; k++) {
			const Change *x = &acc.vars.items[k];
			/* an arm that did not change it left it at its base */
			put_state(O, x->var, acc.count[k] < e->u.match.narms ? joinv(x->var, x->cur, x->base) : x->cur);
		}
	}
	VEC_FREE(d);
	VEC_FREE(acc.vars);
	free(acc.count);
	free(acc.slots);
	fork_end(O);
}

/*
 * A value stored into a record field, a variant payload or a `with` base:
 * owned, it moves; lent (a borrowed binding, a projection of one), it is
 * O108 with the reference's wording for the construction.
 */
static void
own_stored(Own *O, const Expr *e, const char *lent_message)
{
	if (sema_lent_value(O->S, e) && !O->in_contract) {
		own_expr(O, e, false);
		if (first_report(O, e)) {
			Diag *d = sema_error(O->S, DIAG_O108, e->span, "%s", lent_message);
			diag_set_help(d, "store an owned value: build a new one, or take the source as `own`");
		}
		return;
	}
	own_expr(O, e, true);
}

static void
own_expr(Own *O, const Expr *e, bool move)
{
	switch (e->kind) {
	case EXPR_NAME: own_name(O, e, move); break;
	case EXPR_FIELD: own_field(O, e, move); break;
	case EXPR_UNARY: own_expr(O, e->u.unary.operand, false); break;
	case EXPR_BINARY: {
		int mark = O->operands.len;
		own_expr(O, e->u.binary.lhs, false);
		operand_done(O, e->u.binary.lhs);
		if (e->bin_op == BIN_AND || e->bin_op == BIN_OR) {
			/* the right operand runs on some paths only */
			Fork f = fork_begin(O);
			own_expr(O, e->u.binary.rhs, false);
			Changes d = {0};
			diff_since(O, &f, f.mark, &d);
			for (int k = 0; k < d.len; k++)
				put_state(O, d.items[k].var, joinv(d.items[k].var, d.items[k].base, d.items[k].cur));
			VEC_FREE(d);
			fork_end(O);
		} else {
			own_expr(O, e->u.binary.rhs, false);
		}
		O->operands.len = mark;
		break;
	}
	case EXPR_CALL:
		if (sema_closure_profile(O->S, e->id) == 1) {
			/* `c()` of an owning closure: consumes the binding (at most once) */
			int i = find(O, e->u.call.callee.s);
			if (i >= 0) {
				O->vars.items[i].own_closure = true;
				use_var(O, i, e, true);
			}
			break;
		}
		own_args(O, e, e->u.call.args, e->u.call.nargs, 0);
		break;
	case EXPR_CLOSURE:
		if (sema_closure_profile(O->S, e->id) == 1) {
			/* `own fn() -> R { t(x) }` moves its capture x */
			const Expr *x = sema_own_capture(e);
			int i = find(O, x->u.name.s);
			if (i >= 0) {
				O->vars.items[i].own_closure = true;
				O->arg_place = x;   /* the capture is the target call's argument */
				use_var(O, i, x, true);
				O->arg_place = NULL;
			}
		}
		break;
	case EXPR_METHOD: {
		/* no modes recorded: the call was refused (unknown method, wrong
		 * arity, type arguments): its receiver stays where it is, so no
		 * H006/O102 follows the error at a later use */
		const uint8_t *cons = O->S->call_consumes[ast_call_index(e)];
		int mark = O->operands.len;
		own_expr(O, e->u.method.recv, cons && cons[0] != 0);
		operand_done(O, e->u.method.recv);
		own_args(O, e, e->u.method.args, e->u.method.nargs, 1);
		O->operands.len = mark;
		break;
	}
	case EXPR_SUPER: own_args(O, e, e->u.super_.args, e->u.super_.nargs, 1); break;
	case EXPR_TRY: own_expr(O, e->u.try_.operand, true); break;
	case EXPR_WITH: {
		int mark = O->operands.len;
		own_stored(O, e->u.with.base, "cannot update an owned record through a borrowed or shared base");
		operand_done(O, e->u.with.base);
		for (int i = 0; i < e->u.with.ninits; i++) {
			own_stored(O, e->u.with.inits[i].value, "cannot move an owned field through a borrowed or shared record");
			operand_done(O, e->u.with.inits[i].value);
		}
		O->operands.len = mark;
		break;
	}
	case EXPR_RECORD: {
		int mark = O->operands.len;
		for (int i = 0; i < e->u.record.ninits; i++) {
			own_stored(O, e->u.record.inits[i].value, "cannot move an owned field through a borrowed or shared record");
			operand_done(O, e->u.record.inits[i].value);
		}
		O->operands.len = mark;
		break;
	}
	case EXPR_VARIANT: {
		int mark = O->operands.len;
		for (int i = 0; i < e->u.variant.ninits; i++) {
			own_stored(O, e->u.variant.inits[i].value, "cannot move an owned variant payload through a borrowed or shared value");
			operand_done(O, e->u.variant.inits[i].value);
		}
		O->operands.len = mark;
		break;
	}
	case EXPR_BLOCK: own_block(O, e->u.block, move); break;
	case EXPR_IF: own_if(O, e, move); break;
	case EXPR_MATCH: own_match(O, e, move); break;
	case EXPR_ARRAY:
		for (int i = 0; i < e->u.array.nelems; i++)
			own_expr(O, e->u.array.elems[i], false);
		break;
	default:
		break;   /* literals; closures capture Copy values only */
	}
}

static void own_stmt(Own *O, const Stmt *s);

/* The owner a view-making call borrows from directly: `string_as_str(x)`,
 * `bytes_as_slice(x)` (or of a field of x: the whole owner),
 * `array_as_slice(x)`, a stdin chunk; -1 otherwise.  Views of views
 * (`str_as_bytes(v)`, `byte_range(v, …)`) borrow what `v` borrows, which
 * view_collect finds through the name. */
static int
call_owner(Own *O, const Expr *e)
{
	if (e->kind != EXPR_CALL || !O->S->call_builtin[ast_call_index(e)] || e->u.call.nargs < 1)
		return -1;
	BuiltinId bi = O->S->call_builtin[ast_call_index(e)]->bid;
	const Expr *a = e->u.call.args[0];
	if (a->kind == EXPR_FIELD && a->u.field.base->kind == EXPR_NAME && bi == BI_bytes_as_slice)
		return find(O, a->u.field.base->u.name.s);   /* a projected view borrows the whole owner */
	if (a->kind != EXPR_NAME)
		return -1;
	if (bi == BI_string_as_str || bi == BI_bytes_as_slice || bi == BI_array_as_slice || bi == BI_stdin_stream_chunk)
		return find(O, a->u.name.s);
	return -1;
}

typedef struct ViewCollect {
	Own *O;
	int view;
} ViewCollect;

static void
view_visit(void *ctx, const Expr *e)
{
	ViewCollect *c = ctx;
	Own *O = c->O;
	if (e->kind == EXPR_NAME) {   /* whatever a named view borrows, this value may too */
		int i = find(O, e->u.name.s);
		if (i < 0 || i == c->view)
			return;
		for (int k = O->vars.items[i].view_edges; k >= 0; k = O->edges.items[k].next_by_view)
			if (edge_live(O, k))
				add_edge(O, c->view, O->edges.items[k].owner);
	} else if (e->kind == EXPR_CALL) {
		int o = call_owner(O, e);
		add_edge(O, c->view, o);
		if (o >= 0)   /* a view of a lent binding borrows what it borrows */
			for (int k = O->vars.items[o].view_edges; k >= 0; k = O->edges.items[k].next_by_view)
				if (edge_live(O, k))
					add_edge(O, c->view, O->edges.items[k].owner);
	}
}

/* After a value was checked (escaped entries from mark on): variable view,
 * if its type holds a view, borrows from the owners of the views that went
 * out of scope inside the value (`{ let v = string_as_str(s); v }`, an arm's
 * view of a `match borrow` binding); the entries are then dropped. */
static void
view_escapes(Own *O, int view, TypeId t, int mark)
{
	if (view >= 0 && sema_type_view(O->S, t))
		for (int k = mark; k < O->escaped.len; k++) {
			const struct OwnRef *r = &O->escaped.items[k];
			if (r->var < O->vars.len && O->vars.items[r->var].serial == r->serial)
				add_edge(O, view, r->var);
		}
	O->escaped.len = mark;
}

/* Variable view (of type t) was given the value of e: when t holds a view,
 * it borrows from every owner a view made or named anywhere in e borrows
 * from (an over-approximation: `if`, `match`, blocks, Box/Vec/Option
 * carriers and aliases all pass views through). */
static void
view_collect(Own *O, int view, TypeId t, const Expr *e)
{
	if (!e || view < 0 || !sema_type_view(O->S, t))
		return;
	ViewCollect c = { O, view };
	sema_walk_expr(e, view_visit, &c);
}

typedef struct NameHit {
	Own *O;
	int var;
	bool hit;
} NameHit;

static void
name_hit(void *ctx, const Expr *e)
{
	NameHit *h = ctx;
	if (e->kind == EXPR_NAME && find(h->O, e->u.name.s) == h->var)
		h->hit = true;
}

/* Variable view is given the value of e: its edges die on this path unless
 * e names it (then it may keep its old view).  A name inside e that a
 * scope of e hid counts as naming it: the safe side. */
static void
view_kill(Own *O, int view, const Expr *e)
{
	if (O->vars.items[view].view_edges < 0)
		return;
	NameHit h = { O, view, false };
	sema_walk_expr(e, name_hit, &h);
	if (h.hit)
		return;
	for (int k = O->vars.items[view].view_edges; k >= 0; k = O->edges.items[k].next_by_view)
		if (O->edges.items[k].alive && O->edges.items[k].view_serial == O->vars.items[view].serial)
			set_edge(O, k, 0);
}

/* T265: replacing `owner` while a view of it is used later (the earliest such view is named).
 * Only the owner's own views are visited (its view list). */
static void
check_live_views(Own *O, int owner, const Stmt *s)
{
	int found = -1;
	for (int k = O->vars.items[owner].owner_edges; k >= 0; k = O->edges.items[k].next_by_owner) {
		int v = O->edges.items[k].view;
		if (edge_live(O, k) && sema_strmap_get(&O->last_use, O->vars.items[v].name) > (int32_t)view_horizon(O, v, s->span.end) &&
		    !repointed_before_read(O, v, s->span.end))
			found = v;
	}
	if (found >= 0 && first_report(O, s->u.assign.value)) {
		Diag *d = sema_error(O->S, DIAG_T265, s->u.assign.target.span, "assignment would replace storage held by a lexical byte view");
		diag_set_help(d, "`%s` still borrows `%s` after this assignment; finish using the view first, or take a new view after it",
		    O->vars.items[found].name, O->vars.items[owner].name);
	} else if (found < 0 && operand_borrows(O, owner) && first_report(O, s->u.assign.value)) {
		Diag *d = sema_error(O->S, DIAG_T265, s->u.assign.target.span, "assignment would replace storage held by a lexical byte view");
		diag_set_help(d, "an earlier operand of the enclosing call or operator borrows `%s` and is read when it runs, after this assignment; assign `%s` before it, or pass an owned copy (`string_from_str`, `bytes_copy`)",
		    O->vars.items[owner].name, O->vars.items[owner].name);
	}
}

/* T265: the owned variables of the innermost scope are released at its end
 * (at); a view from outside the scope that still borrows one of them and is
 * used later (view_horizon) would read freed storage. */
static void
own_scope_end(Own *O, Span at)
{
	int m = O->marks.items[O->marks.len - 1];
	for (int i = m; i < O->vars.len; i++) {
		const OwnVar *o = &O->vars.items[i];
		if (o->borrowed || o->owner_edges < 0 || ST(O->st.items[i]) == ST_MOVED || !owned(O, o->type))
			continue;
		int found = -1;
		for (int k = o->owner_edges; k >= 0; k = O->edges.items[k].next_by_owner) {
			int v = O->edges.items[k].view;
			if (v < m && edge_live(O, k) && sema_strmap_get(&O->last_use, O->vars.items[v].name) > (int32_t)view_horizon(O, v, at.end))
				found = v;
		}
		if (found >= 0) {
			Span close = { at.end > at.start ? at.end - 1 : at.start, at.end };
			Diag *d = sema_error(O->S, DIAG_T265, close, "`%s` is released at the end of its block while `%s` still borrows it", o->name, O->vars.items[found].name);
			diag_set_help(d, "declare `%s` where `%s` is declared so it lives as long, or keep an owned copy (`string_from_str`, `bytes_copy`)",
			    o->name, O->vars.items[found].name);
		}
	}
}

typedef struct TailEscape {
	Own *O;
	int mark;        /* the scope's first variable */
	int owner;       /* the first owner of the scope the value borrows, or -1 */
} TailEscape;

static void
tail_owner(TailEscape *t, int o)
{
	if (o >= t->mark && t->owner < 0 && !t->O->vars.items[o].borrowed && owned(t->O, t->O->vars.items[o].type))
		t->owner = o;
}

static void
tail_visit(void *ctx, const Expr *e)
{
	TailEscape *t = ctx;
	Own *O = t->O;
	if (e->kind == EXPR_NAME) {
		int i = find(O, e->u.name.s);
		if (i >= 0)
			for (int k = O->vars.items[i].view_edges; k >= 0; k = O->edges.items[k].next_by_view)
				if (edge_live(O, k))
					tail_owner(t, O->edges.items[k].owner);
	} else if (e->kind == EXPR_CALL) {
		int o = call_owner(O, e);
		if (o >= 0)
			tail_owner(t, o);
	}
}

/* T265: the value of a scope (a block's tail, a match arm's value) holding a
 * view of an owner the scope releases at its end. */
static void
own_tail_escape(Own *O, const Expr *value)
{
	if (!value || !sema_type_view(O->S, sema_expr_type(O->S, value->id)))
		return;
	TailEscape t = { O, O->marks.items[O->marks.len - 1], -1 };
	sema_walk_expr(value, tail_visit, &t);
	if (t.owner >= 0 && first_report(O, value)) {
		Diag *d = sema_error(O->S, DIAG_T265, value->span, "this value borrows `%s`, which is released at the end of its block", O->vars.items[t.owner].name);
		diag_set_help(d, "declare `%s` outside the block so it outlives the value, or yield an owned copy (`string_from_str`, `bytes_copy`)",
		    O->vars.items[t.owner].name);
	}
}

/* The passes a loop body may take before its states settle: each pass but
 * the last adds a move or a live view to the loop's entry state, so a
 * real program settles in two or three; past the cap the function is
 * refused (T265, sema_own_check_function), the sound side. */
#define OWN_LOOP_PASSES 32

/* A loop body runs from the joined entry/exit state so moves carry to the
 * next iteration, and views made at the end of the body are seen at its
 * start; until the joined state no longer changes. */
static int
change_cmp(const void *a, const void *b)
{
	int x = ((const Change *)a)->var, y = ((const Change *)b)->var;
	return (x > y) - (x < y);
}

static void
own_loop(Own *O, const Expr *cond, const Block *body, int item)
{
	Fork f = fork_begin(O);
	Changes d = {0}, head = {0}, next = {0};   /* the loop's entry state where it differs from the entry, by var */
	for (int pass = 0;; pass++) {
		if (pass == OWN_LOOP_PASSES) {
			O->loops_unstable = true;
			break;
		}
		if (item >= 0)
			set_state(O, item, ST_LIVE);   /* a `for` item is bound afresh every iteration */
		if (cond)
			own_expr(O, cond, false);
		if (body)
			own_block(O, body, false);
		/* the state after the loop (and before the next pass): entry joined with this end */
		diff_since(O, &f, f.mark, &d);
		undo_to(O, &f, f.mark);
		next.len = 0;
		for (int k = 0; k < d.len; k++) {
			Change c = d.items[k];
			c.cur = joinv(c.var, c.base, c.cur);
			put_state(O, c.var, c.cur);
			if (c.cur != c.base)
				VEC_PUSH(next, c);
		}
		/* settled when this pass started from the same state */
		if (next.len > 1)
			qsort(next.items, (size_t)next.len, sizeof next.items[0], change_cmp);
		bool same = next.len == head.len;
		for (int k = 0; same && k < next.len; k++)
			same = next.items[k].var == head.items[k].var && next.items[k].cur == head.items[k].cur;
		Changes t = head;
		head = next;
		next = t;
		if (same)
			break;
	}
	VEC_FREE(d);
	VEC_FREE(head);
	VEC_FREE(next);
	fork_end(O);
}

static void
own_stmt(Own *O, const Stmt *s)
{
	switch (s->kind) {
	case STMT_LET: {
		const Expr *v = s->u.let.value;
		TypeId t = v ? sema_expr_type(O->S, v->id) : T_ERR;
		bool alias = v && sema_lent_value(O->S, v);
		int escaped = O->escaped.len;
		if (v)
			own_expr(O, v, !alias);
		/* an alias of a lent value lends as its source does (check_let) */
		int root = alias ? place_root(O, v) : -1;
		declare(O, s->u.let.name.s, t, alias ? (root >= 0 && O->vars.items[root].borrowed ? O->vars.items[root].borrowed : 1) : 0);
		OwnVar *nv = &O->vars.items[O->vars.len - 1];
		nv->shared = alias && (sema_expr_mode(O->S, v->id) == MODE_SHARED || (root >= 0 && O->vars.items[root].shared));
		view_collect(O, O->vars.len - 1, t, v);
		view_escapes(O, O->vars.len - 1, t, escaped);
		break;
	}
	case STMT_ASSIGN: {
		int i = find(O, s->u.assign.target.s);
		if (i >= 0 && O->vars.items[i].traversals > 0) {
			/* one T284 for the statement (as the reference); the value's
			 * own use of the source is then an ordinary move */
			OwnVar *v = &O->vars.items[i];
			int loans = v->loans, traversals = v->traversals;
			if (first_report(O, s->u.assign.value)) {
				Diag *d = sema_error(O->S, DIAG_T284, s->u.assign.target.span, "for traversal source `%s` cannot be rebound or mutated in the loop body", v->name);
				diag_set_help(d, "assign `%s` after the loop", v->name);
			}
			v->loans = v->traversals = 0;
			O->quiet_views = true;
			own_expr(O, s->u.assign.value, true);
			O->quiet_views = false;
			O->vars.items[i].loans = loans;
			O->vars.items[i].traversals = traversals;
			if (!s->u.assign.has_field)
				set_state(O, i, ST_LIVE);
			break;
		}
		int escaped = O->escaped.len;
		own_expr(O, s->u.assign.value, true);
		if (i >= 0 && O->vars.items[i].loans > 0 && first_report(O, s->u.assign.value)) {
			Diag *d = sema_error(O->S, DIAG_T265, s->u.assign.target.span, "assignment would replace storage held by a lexical byte view");
			diag_set_help(d, "a `match borrow` arm borrows from `%s` until it ends; assign after it", O->vars.items[i].name);
		} else if (i >= 0 && !s->u.assign.has_field) {
			check_live_views(O, i, s);
		}
		/* a refused reassignment (U105) leaves the target as the value
		 * left it: a later use of a moved target is still reported */
		if (i >= 0 && !s->u.assign.has_field && (!O->S->assign_owner || O->S->assign_owner[s->u.assign.value->id] != SEMA_ASSIGN_REFUSED))
			set_state(O, i, ST_LIVE);   /* reinitialised */
		/* a view variable given a new view borrows from its owners, and on
		 * this path no longer from its old ones unless the value names it
		 * (`w = if c { w } else { … }`) */
		if (i >= 0 && !s->u.assign.has_field)
			view_kill(O, i, s->u.assign.value);
		if (i >= 0)
			view_collect(O, i, O->vars.items[i].type, s->u.assign.value);
		view_escapes(O, i, i >= 0 ? O->vars.items[i].type : T_ERR, escaped);
		break;
	}
	case STMT_WHILE: {
		struct OwnLoop l = { O->vars.len, s->span.start };
		VEC_PUSH(O->loops, l);
		own_loop(O, s->u.while_.cond, s->u.while_.body, -1);
		O->loops.len--;
		break;
	}
	case STMT_FOR:
		own_expr(O, s->u.for_.iter, s->u.for_.own);
		{
			struct OwnLoop l = { O->vars.len, s->span.start };
			VEC_PUSH(O->loops, l);
		}
		push_scope(O);
		{
			const TypeInfo *ti = sema_type_info(&O->S->types, sema_expr_type(O->S, s->u.for_.iter->id));
			declare(O, s->u.for_.item.s, ti->nargs ? ti->args[0] : T_ERR, s->u.for_.own ? 0 : 2);
			int item = O->vars.len - 1, from = s->u.for_.own ? -1 : place_root(O, s->u.for_.iter);
			view_collect(O, item, O->vars.items[item].type, s->u.for_.iter);
			if (from >= 0 && owned(O, O->vars.items[item].type))   /* a lent element borrows the vector's owner */
				add_edge(O, item, from);
		}
		{
			/* the body borrows from the iterated owner */
			int lender = s->u.for_.own ? -1 : place_root(O, s->u.for_.iter);
			if (lender >= 0) {
				O->vars.items[lender].loans++;
				O->vars.items[lender].traversals++;
			}
			own_loop(O, NULL, s->u.for_.body, O->vars.len - 1);
			if (lender >= 0) {
				O->vars.items[lender].loans--;
				O->vars.items[lender].traversals--;
			}
		}
		own_pop_scope(O);
		O->loops.len--;
		break;
	case STMT_IF:
		own_expr(O, s->u.if_, false);
		break;
	case STMT_UNSAFE:
		if (s->u.unsafe.body)
			own_block(O, s->u.unsafe.body, false);
		break;
	}
}

static void
own_block(Own *O, const Block *b, bool move_tail)
{
	push_scope(O);
	struct OwnAt at = { b, 0 };
	VEC_PUSH(O->blocks, at);
	int self = O->blocks.len - 1;
	for (int i = 0; i < b->nstmts; i++) {
		O->blocks.items[self].i = i;
		own_stmt(O, b->stmts[i]);
	}
	O->blocks.items[self].i = b->nstmts;
	if (b->tail)
		own_expr(O, b->tail, move_tail);
	if (b != O->body)
		own_tail_escape(O, b->tail);
	own_scope_end(O, b->span);
	own_pop_scope(O);
	O->blocks.len = self;
}

/* Records the end offset of the last use of each name (T265). */
static void
note_use(void *ctx, const Expr *e)
{
	StrMap *m = ctx;
	if (e->kind != EXPR_NAME)
		return;
	sema_strmap_raise(m, e->u.name.s, (int32_t)e->span.end);
}

/*
 * The pass's vectors, maps and stamps are kept in Sema.own_spare from one
 * function to the next (a module of small functions paid a dozen mallocs
 * and frees a function): taken with their contents emptied, given back into
 * the same block.  A nested use (none today) would find no spare and start
 * fresh.
 */
static Own *
own_take(Sema *S, Own *O)
{
	Own *k = sema_spare_take(&S->own_spare, O, sizeof *O);
	if (k) {
		VEC_ADOPT(O->vars, k->vars);
		VEC_ADOPT(O->fields, k->fields);
		VEC_ADOPT(O->st, k->st);
		VEC_ADOPT(O->marks, k->marks);
		VEC_ADOPT(O->loops, k->loops);
		VEC_ADOPT(O->edges, k->edges);
		VEC_ADOPT(O->escaped, k->escaped);
		VEC_ADOPT(O->trail, k->trail);
		VEC_ADOPT(O->blocks, k->blocks);
		VEC_ADOPT(O->occ, k->occ);
		VEC_ADOPT(O->operands, k->operands);
		O->stamp = k->stamp, O->stamp_cap = k->stamp_cap, O->epoch = k->epoch;
		O->estamp = k->estamp, O->estamp_cap = k->estamp_cap;
		O->pairs = k->pairs, O->pairs_cap = k->pairs_cap;
		O->index = k->index;
		O->last_use = k->last_use;
	}
	return k;
}

static void
own_release(void *p)
{
	Own *O = p;
	VEC_FREE(O->vars);
	VEC_FREE(O->fields);
	VEC_FREE(O->st);
	VEC_FREE(O->marks);
	VEC_FREE(O->loops);
	VEC_FREE(O->edges);
	VEC_FREE(O->escaped);
	VEC_FREE(O->trail);
	VEC_FREE(O->blocks);
	VEC_FREE(O->occ);
	VEC_FREE(O->operands);
	free(O->stamp);
	free(O->estamp);
	free(O->pairs);
	sema_strmap_free(&O->index);
	sema_strmap_free(&O->last_use);
}

/* k: the block own_take returned (NULL: none). */
static void
own_give_back(Sema *S, Own *O, Own *k)
{
	sema_strmap_clear(&O->index);
	sema_strmap_clear(&O->last_use);
	if (O->edges.len)
		memset(O->pairs, 0, sizeof(int) * (size_t)O->pairs_cap);
	O->vars.len = O->fields.len = O->st.len = O->marks.len = O->loops.len = O->edges.len = O->escaped.len = O->trail.len = 0;
	O->blocks.len = O->occ.len = O->operands.len = 0;
	O->occ_built = false;
	O->serials = 0;
	sema_spare_keep(&S->own_spare, k, O, sizeof *O, own_release);
}

void
sema_own_spare_free(Sema *S)
{
	sema_spare_free(&S->own_spare, own_release);
}

void
sema_own_check_function(Sema *S, SymId fn)
{
	Sym *f = sema_sym(S, fn);
	if (!f->fn || !f->fn->body)
		return;
	Own O;
	Own *spare = own_take(S, &O);
	O.S = S;
	O.edges_full = false;
	O.loops_unstable = false;
	O.fn_name = f->name;
	O.body = f->fn->body;
	sema_walk_block(f->fn->body, note_use, &O.last_use);
	for (int i = 0; i < f->nparams; i++)
	{
		declare(&O, f->params[i].name, f->params[i].type, f->params[i].mode == MODE_BORROW || f->params[i].mode == MODE_SHARED ? 1 : 0);
		O.vars.items[O.vars.len - 1].shared = f->params[i].mode == MODE_SHARED;
	}
	const FnDecl *fd = f->fn;
	O.in_contract = true;
	for (int i = 0; i < fd->nclauses; i++)
		if (fd->clauses[i].kind == CLAUSE_REQUIRES)
			own_expr(&O, fd->clauses[i].cond, false);
	O.in_contract = false;
	/* A lent result (a borrowed parameter or binding) is O104 (sema.c), not a transfer. */
	const Expr *tail = f->fn->body->tail;
	own_block(&O, f->fn->body, !tail || sema_expr_mode(S, tail->id) == MODE_NONE || sema_expr_mode(S, tail->id) == MODE_OWN);
	/* Postconditions run after the body: they see its moves.  `result` is
	 * the provisional result, owned by the epilogue: moving it is O105 too. */
	O.in_contract = true;
	declare(&O, "result", f->result, 0);
	for (int i = 0; i < fd->nclauses; i++)
		if (fd->clauses[i].kind == CLAUSE_ENSURES)
			own_expr(&O, fd->clauses[i].cond, false);
	if (O.edges_full) {
		Diag *d = sema_error(S, DIAG_T265, f->name_span, "the views in `%s` borrow through more than %d view/owner links, more than the checker follows",
		    f->name, OWN_EDGE_CAP);
		diag_set_help(d, "split the function, or take a fresh view of its owner (`let w = string_as_str(s);`) instead of passing one view through another");
	}
	if (O.loops_unstable) {
		Diag *d = sema_error(S, DIAG_T265, f->name_span, "the views in a loop of `%s` pass through one another more than %d times, more than the checker follows",
		    f->name, OWN_LOOP_PASSES);
		diag_set_help(d, "split the loop body into functions, or take a fresh view of its owner (`let w = string_as_str(s);`) instead of passing one view through another");
	}
	own_give_back(S, &O, spare);
}
