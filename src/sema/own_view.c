/*
 * own_view.c — T265 for views (LANGUAGE.md §4.9, §0.1): a value holding a
 * view (`str`, `Slice<u8>`, or a Box/Vec/Option/… of them) borrows from the
 * owners it was made from; moving, replacing or releasing such an owner
 * while the view may still be read is T265.
 *
 * The (view, owner) edges are flow state like the ownership states (own.c
 * forks and joins them): a view variable given a value that does not name
 * it loses its old edges on that path; a join keeps an edge alive on any
 * path; a loop runs until its entry state settles.  A view is live at an
 * owner's change when some path from there reads it before re-pointing it
 * (own_live.c; named later in the source, or in a loop it was bound before
 * anywhere in the loop, is the quick test before it); an operand already
 * evaluated whose call or operator has not run yet is live too
 * (sema_own_operand_borrows).
 */
#include "own_int.h"

#include <stdlib.h>
#include <string.h>

static int call_owner(Own *O, const Expr *e);

/* Edge k, if both its variables are still the ones it was made for. */
bool
sema_own_edge_scoped(Own *O, int k)
{
	const OwnEdge *g = &O->edges.items[k];
	return g->view < O->vars.len && O->vars.items[g->view].serial == g->view_serial &&
	    g->owner < O->vars.len && O->vars.items[g->owner].serial == g->owner_serial;
}

/* Edge k, if in scope and alive on this path: the view may hold the owner's storage here. */
bool
sema_own_edge_live(Own *O, int k)
{
	return O->edges.items[k].alive && sema_own_edge_scoped(O, k);
}

/* Sets edge k's flow state, logging the old one while a fork is open. */
void
sema_own_set_edge(Own *O, int k, OwnSt alive)
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
void
sema_own_add_edge(Own *O, int view, int owner)
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
		sema_own_set_edge(O, *slot - 1, 1);
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
	sema_own_set_edge(O, O->edges.len - 1, 1);   /* in a fork: dead on the other paths */
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

/* T265: a view binding of variable i (string_as_str, bytes_as_slice, …) used
 * after offset end (view_horizon), or -1. */
int
sema_own_live_view(Own *O, int i, uint32_t end)
{
	/* the owner's views in scope (its list, latest first; the earliest live one
	 * is reported): a scan of every variable made a chain of moves quadratic */
	int found = -1;
	for (int k = O->vars.items[i].owner_edges; k >= 0; k = O->edges.items[k].next_by_owner) {
		int v = O->edges.items[k].view;
		if (sema_own_edge_live(O, k) && sema_strmap_get(&O->last_use, O->vars.items[v].name) > (int32_t)view_horizon(O, v, end) &&
		    sema_own_view_live_after(O, v, end))
			found = v;
	}
	return found;
}

/* The variable an owned place names (`x`, `x.f`, `x.f.g`), or -1. */
static int
place_var(Own *O, const Expr *e)
{
	while (e->kind == EXPR_FIELD)
		e = e->u.field.base;
	return e->kind == EXPR_NAME ? sema_own_find(O, e->u.name.s) : -1;
}

/* Whether owned operand e is a place rooted at variable v (v < 0: at any
 * live variable): `x`, `x.f`, or such a place as a block's tail or as the
 * value of an arm of an `if` or a `match` (the operand then borrows it). */
static bool
place_has(Own *O, const Expr *e, int v)
{
	if (!e)
		return false;
	switch (e->kind) {
	case EXPR_FIELD:
	case EXPR_NAME: {
		int i = place_var(O, e);
		return i >= 0 && (v < 0 ? ST(O->st.items[i]) == ST_LIVE : i == v);
	}
	case EXPR_BLOCK:
		return place_has(O, e->u.block->tail, v);
	case EXPR_IF:
		return place_has(O, e->u.if_.then_block->tail, v) ||
		       (e->u.if_.else_block && place_has(O, e->u.if_.else_block->tail, v));
	case EXPR_MATCH:
		for (int k = 0; k < e->u.match.narms; k++)
			if (place_has(O, e->u.match.arms[k].value, v))
				return true;
		return false;
	default:
		return false;
	}
}

/* Operand e was evaluated and its consumer (the call, the operator, the
 * record) runs after the operands to its right: a view it holds, or an owned
 * place it borrows, is read then (T265, operand_borrows). */
void
sema_own_operand_done(Own *O, const Expr *e)
{
	if (!e)
		return;
	TypeId t = sema_expr_type(O->S, e->id);
	if (sema_type_view(O->S, t)) {
		VEC_PUSH(O->operands, e);
		return;
	}
	/* an owned place the consumer borrows (not moved by this operand) is
	 * read when the consumer runs, like a view */
	if (sema_own_owned(O, t) && place_has(O, e, -1))
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
	int i = e->kind == EXPR_NAME ? sema_own_find(O, e->u.name.s) : e->kind == EXPR_CALL ? call_owner(O, e) : -1;
	if (i < 0)
		return;
	if (e->kind == EXPR_CALL && i == h->owner)
		h->hit = true;
	for (int k = O->vars.items[i].view_edges; k >= 0; k = O->edges.items[k].next_by_view)
		if (sema_own_edge_live(O, k) && O->edges.items[k].owner == h->owner)
			h->hit = true;
}

/* T265: an evaluated operand whose consumer has not run yet borrows owner
 * (`both(w, take(s))`: `both` reads `w` after `take` consumed `s`). */
bool
sema_own_operand_borrows(Own *O, int owner)
{
	OperandHit h = { O, owner, false };
	for (int k = 0; k < O->operands.len && !h.hit; k++) {
		const Expr *e = O->operands.items[k];
		if (sema_type_view(O->S, sema_expr_type(O->S, e->id)))
			sema_walk_expr(e, operand_visit, &h);
		else if (place_has(O, e, owner))
			h.hit = true;
	}
	return h.hit;
}

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
		return sema_own_find(O, a->u.field.base->u.name.s);   /* a projected view borrows the whole owner */
	if (a->kind != EXPR_NAME)
		return -1;
	if (bi == BI_string_as_str || bi == BI_bytes_as_slice || bi == BI_array_as_slice || bi == BI_stdin_stream_chunk)
		return sema_own_find(O, a->u.name.s);
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
		int i = sema_own_find(O, e->u.name.s);
		if (i < 0 || i == c->view)
			return;
		for (int k = O->vars.items[i].view_edges; k >= 0; k = O->edges.items[k].next_by_view)
			if (sema_own_edge_live(O, k))
				sema_own_add_edge(O, c->view, O->edges.items[k].owner);
	} else if (e->kind == EXPR_CALL) {
		int o = call_owner(O, e);
		sema_own_add_edge(O, c->view, o);
		if (o >= 0)   /* a view of a lent binding borrows what it borrows */
			for (int k = O->vars.items[o].view_edges; k >= 0; k = O->edges.items[k].next_by_view)
				if (sema_own_edge_live(O, k))
					sema_own_add_edge(O, c->view, O->edges.items[k].owner);
	}
}

/* After a value was checked (escaped entries from mark on): variable view,
 * if its type holds a view, borrows from the owners of the views that went
 * out of scope inside the value (`{ let v = string_as_str(s); v }`, an arm's
 * view of a `match borrow` binding); the entries are then dropped. */
void
sema_own_view_escapes(Own *O, int view, TypeId t, int mark)
{
	if (view >= 0 && sema_type_view(O->S, t))
		for (int k = mark; k < O->escaped.len; k++) {
			const struct OwnRef *r = &O->escaped.items[k];
			if (r->var < O->vars.len && O->vars.items[r->var].serial == r->serial)
				sema_own_add_edge(O, view, r->var);
		}
	O->escaped.len = mark;
}

/* Variable view (of type t) was given the value of e: when t holds a view,
 * it borrows from every owner a view made or named anywhere in e borrows
 * from (an over-approximation: `if`, `match`, blocks, Box/Vec/Option
 * carriers and aliases all pass views through). */
void
sema_own_view_collect(Own *O, int view, TypeId t, const Expr *e)
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
	if (e->kind == EXPR_NAME && sema_own_find(h->O, e->u.name.s) == h->var)
		h->hit = true;
}

/* Variable view is given the value of e: its edges die on this path unless
 * e names it (then it may keep its old view).  A name inside e that a
 * scope of e hid counts as naming it: the safe side. */
void
sema_own_view_kill(Own *O, int view, const Expr *e)
{
	if (O->vars.items[view].view_edges < 0)
		return;
	NameHit h = { O, view, false };
	sema_walk_expr(e, name_hit, &h);
	if (h.hit)
		return;
	for (int k = O->vars.items[view].view_edges; k >= 0; k = O->edges.items[k].next_by_view)
		if (O->edges.items[k].alive && O->edges.items[k].view_serial == O->vars.items[view].serial)
			sema_own_set_edge(O, k, 0);
}

/* T265: replacing `owner` while a view of it is used later (the earliest such view is named).
 * Only the owner's own views are visited (its view list). */
void
sema_own_check_live_views(Own *O, int owner, const Stmt *s)
{
	int found = -1;
	for (int k = O->vars.items[owner].owner_edges; k >= 0; k = O->edges.items[k].next_by_owner) {
		int v = O->edges.items[k].view;
		if (sema_own_edge_live(O, k) && sema_strmap_get(&O->last_use, O->vars.items[v].name) > (int32_t)view_horizon(O, v, s->span.end) &&
		    sema_own_view_live_after(O, v, s->span.end))
			found = v;
	}
	if (found >= 0 && sema_own_first_report(O, s->u.assign.value)) {
		Diag *d = sema_error(O->S, DIAG_T265, s->u.assign.target.span, "assignment would replace storage held by a lexical byte view");
		diag_set_help(d, "`%s` still borrows `%s` after this assignment; finish using the view first, or take a new view after it",
		    O->vars.items[found].name, O->vars.items[owner].name);
	} else if (found < 0 && sema_own_operand_borrows(O, owner) && sema_own_first_report(O, s->u.assign.value)) {
		Diag *d = sema_error(O->S, DIAG_T265, s->u.assign.target.span, "assignment would replace storage held by a lexical byte view");
		diag_set_help(d, "an earlier operand of the enclosing call or operator borrows `%s` and is read when it runs, after this assignment; assign `%s` before it, or give that operand its own copy (of a view: `string_from_str`, `bytes_copy`)",
		    O->vars.items[owner].name, O->vars.items[owner].name);
	}
}

/* T265: the owned variables of the innermost scope are released at its end
 * (at); a view from outside the scope that still borrows one of them and is
 * used later (view_horizon) would read freed storage. */
void
sema_own_scope_end(Own *O, Span at)
{
	int m = O->marks.items[O->marks.len - 1];
	for (int i = m; i < O->vars.len; i++) {
		const OwnVar *o = &O->vars.items[i];
		if (o->borrowed || o->owner_edges < 0 || ST(O->st.items[i]) == ST_MOVED || !sema_own_owned(O, o->type))
			continue;
		int found = -1;
		for (int k = o->owner_edges; k >= 0; k = O->edges.items[k].next_by_owner) {
			int v = O->edges.items[k].view;
			if (v < m && sema_own_edge_live(O, k) && sema_strmap_get(&O->last_use, O->vars.items[v].name) > (int32_t)view_horizon(O, v, at.end) &&
			    sema_own_view_live_after(O, v, at.end))
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
	if (o >= t->mark && t->owner < 0 && !t->O->vars.items[o].borrowed && sema_own_owned(t->O, t->O->vars.items[o].type))
		t->owner = o;
}

static void
tail_visit(void *ctx, const Expr *e)
{
	TailEscape *t = ctx;
	Own *O = t->O;
	if (e->kind == EXPR_NAME) {
		int i = sema_own_find(O, e->u.name.s);
		if (i >= 0)
			for (int k = O->vars.items[i].view_edges; k >= 0; k = O->edges.items[k].next_by_view)
				if (sema_own_edge_live(O, k))
					tail_owner(t, O->edges.items[k].owner);
	} else if (e->kind == EXPR_CALL) {
		int o = call_owner(O, e);
		if (o >= 0)
			tail_owner(t, o);
	}
}

/* T265: the value of a scope (a block's tail, a match arm's value) holding a
 * view of an owner the scope releases at its end. */
void
sema_own_tail_escape(Own *O, const Expr *value)
{
	if (!value || !sema_type_view(O->S, sema_expr_type(O->S, value->id)))
		return;
	TailEscape t = { O, O->marks.items[O->marks.len - 1], -1 };
	sema_walk_expr(value, tail_visit, &t);
	if (t.owner >= 0 && sema_own_first_report(O, value)) {
		Diag *d = sema_error(O->S, DIAG_T265, value->span, "this value borrows `%s`, which is released at the end of its block", O->vars.items[t.owner].name);
		diag_set_help(d, "declare `%s` outside the block so it outlives the value, or yield an owned copy (`string_from_str`, `bytes_copy`)",
		    O->vars.items[t.owner].name);
	}
}
