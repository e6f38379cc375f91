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
 * maybe moved); a loop body runs again from the joined state until that
 * state settles, so a move in one iteration is seen by the next.  The
 * (view, owner) edges of own_view.c are forked and joined with the states.
 * A diagnostic is reported once per expression.
 *
 * Forks cost what the branches change, not the number of variables: while a
 * fork is open every state change is logged on a trail (variable, old
 * state), so restoring the entry state undoes the trail back to the fork's
 * mark, and a join visits only the variables the trail names.  The join of
 * two states is the flat one: equal states stay, different ones are "maybe
 * moved".
 */
#include "own_int.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void own_expr(Own *O, const Expr *e, bool move);
static void own_block(Own *O, const Block *b, bool move_tail);

bool
sema_own_owned(Own *O, TypeId t)
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
			if (sema_own_edge_live(O, k) && O->edges.items[k].owner < m) {
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
	OwnVar v = { name, type, ++O->serials, -1, 0, 0, sema_strmap_swap(&O->index, name, O->vars.len), -1, -1, borrowed, false, false, 0, false, NULL, NULL, NULL, 0 };
	VEC_PUSH(O->vars, v);
	OwnSt s = ST_LIVE;
	VEC_PUSH(O->st, s);
}

/* The innermost variable called name (one probe of the index), or -1. */
int
sema_own_find(Own *O, const char *name)
{
	return sema_strmap_get(&O->index, name);
}

bool
sema_own_first_report(Own *O, const Expr *e)
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

/* O109's help: which owned fields left the record, and how to go on
 * without the whole (the reference has no help line here). */
static void
partial_help(Own *O, Diag *d, const OwnVar *v, OwnSt st)
{
	char list[160] = "";
	size_t used = 0;
	int named = 0;
	if (v->moved_fields >= 0) {
		const char *const *f = O->fields.items[v->moved_fields].name;
		for (int k = 0; k < FIELD_BITS && f[k]; k++) {
			if (!(st & DEF(k)))
				continue;
			int w = snprintf(list + used, sizeof list - used, "%s`%s.%s`", named ? ", " : "", v->name, f[k]);
			if (w < 0 || (size_t)w >= sizeof list - used) {
				list[used] = '\0';
				break;
			}
			used += (size_t)w;
			named++;
		}
	}
	const char *rec = sema_type_name(O->S, v->type);
	if (named)
		diag_set_help(d, "%s %s moved out of `%s` earlier, so `%s` is no longer whole (a `with` update needs it whole too): read the remaining fields one by one, or build a new `%s { … }` from them; to keep `%s` whole, lend the moved field to a `borrow` parameter (or copy it) instead",
		    list, named > 1 ? "were" : "was", v->name, v->name, rec, v->name);
	else
		diag_set_help(d, "an owned field was moved out of `%s` earlier, so `%s` is no longer whole: read the remaining fields one by one, or build a new `%s { … }` from them", v->name, v->name, rec);
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
	} else if (k == TY_NOMINAL && sema_sym(S, (SymId)sema_type_info(&S->types, t)->decl)->kind == SK_CLASS)
		/* a method's `self` is a value parameter: a call consumes an owned receiver */
		diag_set_help(d, "`%s` holds owned fields, so a method call `%s.m(…)` consumes it (`self` is a value parameter), as passing it on or an upcast `let base: P = %s;` does: read the fields you need into `let`s before that, or have the method return the instance with its result",
		    name, name, name);
	else
		diag_set_help(d, "use `%s` before the move, pass it to a `borrow` parameter, or rebuild it", name);
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
	int view = O->vars.items[i].loans == 0 && !O->quiet_views ? sema_own_live_view(O, i, e->span.end) : -1;
	if (view < 0 && O->vars.items[i].loans == 0 && !O->quiet_views && sema_own_operand_borrows(O, i)) {
		if (sema_own_first_report(O, e)) {
			Diag *d = sema_error(O->S, DIAG_T265, e->span, "%s", msg);
			diag_set_help(d, "an earlier operand of the same call or operator borrows `%s` and is read when it runs, after this move; move `%s` after it, or give that operand its own copy (of a view: `string_from_str`, `bytes_copy`)",
			    O->vars.items[i].name, O->vars.items[i].name);
		}
		return true;
	}
	if (view >= 0) {
		if (sema_own_first_report(O, e)) {
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
		if (sema_own_first_report(O, e)) {
			Diag *d = sema_error(O->S, DIAG_T284, e->span, "for traversal source `%s` cannot be moved in the loop body", O->vars.items[i].name);
			diag_set_help(d, "move `%s` after the loop; inside it, read the borrowed item", O->vars.items[i].name);
		}
		return true;
	}
	if (sema_own_first_report(O, e)) {
		Diag *d = sema_error(O->S, DIAG_T265, e->span, "%s", msg);
		diag_set_help(d, "a `match borrow` arm borrows from `%s` until it ends; move `%s` after it, or use `match own`",
		    O->vars.items[i].name, O->vars.items[i].name);
	}
	return true;
}

/* H006/O110 after a refused reassignment (U105) left v moved. */
static void
refused_help(Own *O, Diag *d, const OwnVar *v, const char *left)
{
	if (v->refused == 2) {
		/* declared outside the loop: a fresh `let` would end with the iteration */
		const TypeInfo *ti = sema_type_info(&O->S->types, v->type);
		bool rec = ti->kind == TY_NOMINAL && sema_sym(O->S, (SymId)ti->decl)->kind == SK_RECORD;
		if (ti->kind == TY_ITER)
			diag_set_help(d, "`%s` %s left moved by its refused reassignment (the U105 above), and a fresh `let` ends with the loop's iteration: walk `%s` with `for own item in %s { … }`, or with a recursive helper that takes the `rest` it yields `own`",
			    v->name, left, v->name, v->name);
		else if (rec)
			diag_set_help(d, "`%s` %s left moved by its refused reassignment (the U105 above), and a fresh `let` ends with the loop's iteration: renew `%s` each iteration through an effect-free, non-generic function whose one `own` parameter receives it (`%s = step(%s, …)`), or carry it through a recursive helper that takes it `own` instead of the loop",
			    v->name, left, v->name, v->name, v->name);
		else
			diag_set_help(d, "`%s` %s left moved by its refused reassignment (the U105 above), and a fresh `let` ends with the loop's iteration: hold `%s` in a record field renewed each iteration (`st = step(st, …)`, an effect-free, non-generic function whose one `own` parameter is the record), or carry it through a recursive helper that takes it `own` instead of the loop",
			    v->name, left, v->name);
		return;
	}
	/* a name not already in scope */
	char fresh[64];
	for (int n = 2;; n++) {
		snprintf(fresh, sizeof fresh, "%.40s%d", v->name, n);
		if (sema_own_find(O, fresh) < 0)
			break;
	}
	diag_set_help(d, "`%s` %s left moved by its refused reassignment (the U105 above): bind its new value with a fresh `let` (`let %s = …;`) and use that instead",
	    v->name, left, fresh);
}

/* H006: v was moved by an earlier argument of a call whose later argument
 * reads it (arguments run left to right); true when it said so. */
static bool
call_order_help(Own *O, Diag *d, const OwnVar *v)
{
	for (int f = O->calls.len - 1; f >= 0; f--) {
		const struct OwnCallAt *c = &O->calls.items[f];
		for (int j = 0; j < c->cur; j++) {
			const Expr *a = c->args[j];
			if (a->kind != EXPR_NAME || strcmp(a->u.name.s, v->name) != 0 || (c->cons && !c->cons[j + c->offset]))
				continue;
			if (O->S->own_reported && O->S->own_reported[a->id])
				continue;   /* already moved before the call: that argument was reported */
			const Expr *fe = O->use_field;
			if (fe && fe->u.field.base->kind == EXPR_NAME && strcmp(fe->u.field.base->u.name.s, v->name) == 0)
				diag_set_help(d, "an earlier argument of the same call moves `%s`, and arguments are evaluated left to right: read `%s.%s` into a `let` before the call (`let %s = %s.%s;`) and pass `%s`",
				    v->name, v->name, fe->u.field.name.s, fe->u.field.name.s, v->name, fe->u.field.name.s, fe->u.field.name.s);
			else {
				/* name the later argument's call, if it is one */
				const Expr *later = c->args[c->cur];
				const char *callee = NULL;
				if (later->kind == EXPR_CALL && O->S->call_builtin[ast_call_index(later)])
					callee = O->S->call_builtin[ast_call_index(later)]->name;
				else if (later->kind == EXPR_CALL && sema_expr_sym(O->S, later->id) >= 0)
					callee = sema_sym(O->S, sema_expr_sym(O->S, later->id))->name;
				if (callee)
					diag_set_help(d, "an earlier argument of the same call moves `%s`, and arguments are evaluated left to right: take the other reads of `%s` into `let`s before the call (`let x = …;` for the `%s` call) and pass those",
					    v->name, v->name, callee);
				else
					diag_set_help(d, "an earlier argument of the same call moves `%s`, and arguments are evaluated left to right: take the other reads of `%s` into `let`s before the call (`let x = …;`) and pass those",
					    v->name, v->name);
			}
			return true;
		}
	}
	return false;
}

/* `b with { f: b.f + 1 }`: the update consumed `b` (the base is evaluated
 * first, LANGUAGE.md §4.1) before its replacements read it */
/* Is variable i declared before the innermost loop (the next iteration
 * finds it as this one left it)?  moved_in: and moved inside that loop. */
static bool
before_loop(const Own *O, int i, bool moved_in)
{
	if (!O->loops.len || i >= O->loops.items[O->loops.len - 1].mark)
		return false;
	return !moved_in || O->vars.items[i].moved_at >= O->loops.items[O->loops.len - 1].start;
}

static void
with_base_note(Own *O, Diag *d, const OwnVar *v)
{
	const Expr *base = O->with_of ? O->with_of->u.with.base : NULL;
	if (!base || base->kind != EXPR_NAME || strcmp(base->u.name.s, v->name) != 0)
		return;
	const Expr *fe = O->use_field;   /* `b.f`, whose base b is this use; NULL for a whole `b` */
	if (fe) {
		const char *f = fe->u.field.name.s;
		diag_set_note(d, "`%s with { … }` consumes `%s` first, then evaluates the new field values: read what they need before the update, `let %s2 = %s.%s;`, and use `%s2` inside it",
		    v->name, v->name, f, v->name, f, f);
	} else   /* the whole value (`count(b)`): no field to name */
		diag_set_note(d, "`%s with { … }` consumes `%s` first, then evaluates the new field values: compute what they need from `%s` into a `let` before the update, and use that binding inside it",
		    v->name, v->name, v->name);
}

/*
 * H006's help when one of the program's own functions took the value
 * (qa37): `f(v)` with `f(v: own Vec<i64>)`, then `v` again.  The generic
 * help spoke of `vec_push`, which the program never called.  Strings,
 * Bytes, resources and method receivers keep their own helps.
 */
static bool
passed_help(Own *O, Diag *d, const OwnVar *v)
{
	Sema *S = O->S;
	if (!v->moved_by || !v->moved_param || sema_builtin_find(v->moved_by) || strcmp(v->moved_param, "self") == 0 ||
	    v->type == T_STRING || v->type == T_BYTES || is_resource(O, v->type))
		return false;
	const char *t = sema_type_name(S, v->type);
	diag_set_help(d, "`%s` was passed to `%s`, whose parameter `%s` takes it, so `%s` has no value after that call: if `%s` only reads it, declare `%s: borrow %s` (the caller keeps `%s`); otherwise use `%s` before the call, or have `%s` return what you need",
	    v->name, v->moved_by, v->moved_param, v->name, v->moved_by, v->moved_param, t, v->name, v->name, v->moved_by);
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
	if (st == ST_MOVED && sema_own_first_report(O, e)) {
		Diag *d = res ? sema_error(S, DIAG_O101, e->span, "use of resource `%s` after ownership was moved", v->name)
		    : sema_error(S, DIAG_H006, e->span, "use of `%s` after ownership was moved", v->name);
		if (v->own_closure && e->kind == EXPR_CALL)
			diag_set_help(d, "an owning-capture closure may be invoked at most once");
		else if (v->refused)
			/* no line number: the service shifts an unchanged body's
			 * diagnostics by their spans, not their text */
			refused_help(O, d, v, "was");
		else if (v->moved_into)
			/* no line number: the service shifts an unchanged body's
			 * diagnostics by their spans, not their text */
			if (v->type == T_STRING)
				diag_set_help(d, "`let %s = %s;` moved the string into `%s`, and `%s` has no value from there on: use `%s` instead, or keep both with a copy, `let %s = string_slice(%s, 0, string_len(%s));`",
				    v->moved_into, v->name, v->moved_into, v->name, v->moved_into, v->moved_into, v->name, v->name);
			else
				diag_set_help(d, "`let %s = %s;` moved the value into `%s`, and `%s` has no value from there on: use `%s` instead (a binding of an owned value moves it; only Copy values are copied)",
				    v->moved_into, v->name, v->moved_into, v->name, v->moved_into);
		else if (v->moved_by && strcmp(v->moved_by, "vec_into_iter") == 0)
			/* `for own x in vec_into_iter<T>(v)` consumed it (qa35): not an update */
			diag_set_help(d, "`vec_into_iter` consumed `%s` (a `for own … in vec_into_iter<T>(%s)` loop takes the vector): read what you need from `%s` before the loop, or walk it borrowed with `for x in %s` and keep it",
			    v->name, v->name, v->name, v->name);
		else if (!call_order_help(O, d, v) && !passed_help(O, d, v))
			moved_help(O, d, v->type, v->name);
		with_base_note(O, d, v);
	} else if (st == ST_MAYBE && sema_own_first_report(O, e)) {
		Diag *d = res ? sema_error(S, DIAG_O107, e->span, "resource `%s` may have been moved on another control-flow path", v->name)
		    : sema_error(S, DIAG_O110, e->span, "place `%s` may have been moved on another control-flow path", v->name);
		if (v->refused)   /* a loop's next iteration, or a branch, after the refused reassignment */
			refused_help(O, d, v, "may be");
		else if (!res && (v->type == T_STRING || v->type == T_BYTES) && before_loop(O, i, false))
			/* moved in the loop's body: the next iteration finds it moved */
			diag_set_help(d, v->type == T_STRING
			    ? "`%s`, declared before the loop, may be moved here by an earlier iteration or a branch: move a copy instead (`string_slice(%s, 0, string_len(%s))`), or pass `string_as_str(%s)` where a `borrow str` is taken"
			    : "`%s`, declared before the loop, may be moved here by an earlier iteration or a branch: move a copy instead (`bytes_copy(bytes_as_slice(%s))`), or pass `bytes_as_slice(%s)` where a `borrow Slice<u8>` is taken%.0s",
			    v->name, v->name, v->name, v->name);
		else if (!res && before_loop(O, i, true)) {
			/* any other owned value declared before the loop (qa35): the
			 * next iteration finds it moved, and only a renewal keeps it */
			const TypeInfo *ti = sema_type_info(&S->types, v->type);
			if (ti->kind == TY_NOMINAL && sema_sym(S, (SymId)ti->decl)->kind == SK_RECORD)
				diag_set_help(d, "`%s`, declared before the loop, may be moved here by an earlier iteration or a branch: lend it to a `borrow` parameter, or renew it each iteration, `%s = step(%s, …);`, through an effect-free, non-generic function whose one `own` parameter receives it",
				    v->name, v->name, v->name);
			else
				diag_set_help(d, "`%s`, declared before the loop, may be moved here by an earlier iteration or a branch: lend it to a `borrow` parameter, or hold it in a record renewed each iteration, `st = step(st, …);` (an effect-free, non-generic function whose one `own` parameter is the record)",
				    v->name);
		} else
			diag_set_help(d, res ? "move the resource on every path or keep it borrowed" : "move it on every path, or keep it borrowed and move it once after the branches");
	} else if (ST(st) == ST_PARTIAL && !(st & ALL_PATHS) && sema_own_first_report(O, e)) {
		Diag *d = sema_error(S, DIAG_O110, e->span, "place `%s` may have been moved on another control-flow path", v->name);
		diag_set_help(d, "move its fields on every path, or keep it borrowed and move them once after the branches");
	} else if (ST(st) == ST_PARTIAL && sema_own_first_report(O, e)) {
		Diag *d = sema_error(S, DIAG_O109, e->span, "use of partially moved place `%s`", v->name);
		partial_help(O, d, v, st);
	}
	if (!move || !sema_own_owned(O, v->type))
		return;
	if (O->in_contract) {
		if (sema_own_first_report(O, e)) {
			Diag *d = sema_error(S, DIAG_O105, e->span, "contract expression cannot transfer an owned value");
			diag_set_help(d, "contracts only read: pass `%s` to a `borrow` parameter, or check the property in the body", v->name);
		}
		return;
	}
	/* at a call boundary a lent binding (parameter, alias, `match borrow` or `for`
	 * binding) is O102, as the reference's argument check reports it */
	if ((v->borrowed == 1 || (v->borrowed == 2 && O->arg_callee)) && sema_own_first_report(O, e)) {
		if (O->arg_callee) {
			Diag *d = sema_error(S, DIAG_O102, e->span, "argument to `%s.%s` is %s, so `%s` cannot transfer it to `%s`",
			    O->fn_name, O->arg_param, v->shared ? "shared" : "borrow", O->fn_name, O->arg_callee);
			if (is_resource(O, v->type))
				diag_set_help(d, "provide an owned `%s` value at this ownership boundary", sema_type_name(S, v->type));
			else if (v->type == T_STRING)
				/* the reference checks resources only: this help is ours */
				diag_set_help(d, "`%s` is lent here (a `borrow` parameter, a `for` item or a `match borrow` binding): pass an owned copy, `string_slice(%s, 0, string_len(%s))`",
				    v->name, v->name, v->name);
			else if (v->type == T_BYTES)
				diag_set_help(d, "`%s` is lent here (a `borrow` parameter, a `for` item or a `match borrow` binding): pass an owned copy, `bytes_copy(bytes_as_slice(%s))`",
				    v->name, v->name);
			else if (v->borrowed == 1 && !v->shared && i < O->nparams)
				/* ours too (qa39): a `borrow` parameter handed to an `own` one (not a `let` alias of one: rev39) */
				diag_set_help(d, "`%s` is a `borrow` parameter of `%s`, which only reads it: to pass it on, take it `own` (`%s: own %s`; its callers then give it up), or return what you build from it instead",
				    v->name, O->fn_name, v->name, sema_type_name(S, v->type));
			else
				diag_set_help(d, "provide an owned `%s` value at this ownership boundary", sema_type_name(S, v->type));
		} else {
			Diag *d = sema_error(S, DIAG_O102, e->span, "borrowed `%s` cannot transfer ownership", v->name);
			diag_set_help(d, "take the parameter as `own`, or pass a copy");
		}
		return;
	}
	if (v->borrowed == 2 && sema_own_first_report(O, e)) {
		Diag *d = sema_error(S, DIAG_O108, e->span, "cannot move `%s` out of a borrowed value", v->name);
		if (O->method && O->method->u.method.recv == e)
			/* `for a in all { a.speak() }`: the receiver is a value parameter */
			diag_set_help(d, "`%s` is lent here (%s), and calling `%s.%s(…)` would consume it (`self` is a value parameter): declare the method `fn %s(self: borrow %s, …)` to read the receiver%s",
			    v->name, v->for_item ? "a `for` item" : "a `match borrow` or `match` binding", v->name, O->method->u.method.name.s,
			    O->method->u.method.name.s, sema_type_name(S, v->type), v->for_item ? ", or walk with `for own … in vec_into_iter<T>(…)` to own each item" : "");
		else if (v->for_item)   /* `match own` on it is what was refused */
			diag_set_help(d, "`%s` is a `for` item, borrowed from what the loop walks: read it with `match borrow %s`, or walk with `for own %s in …` to own each item", v->name, v->name, v->name);
		else
			diag_set_help(d, "use `match own` to take the payload, or read it without moving");
		return;
	}
	if (loaned_move(O, i, e))
		return;
	set_state(O, i, ST_MOVED);
	v->moved_into = NULL;   /* a plain `let` sets it after this move (own_stmt) */
	v->moved_by = O->arg_callee;
	v->moved_param = O->arg_param;
	v->moved_at = e->span.start;
}

static void
own_name(Own *O, const Expr *e, bool move)
{
	int i = sema_own_find(O, e->u.name.s);
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
		int i = sema_own_find(O, base->u.name.s);
		if (i < 0)
			return;
		OwnSt st = O->st.items[i];
		if (st == ST_MOVED || st == ST_MAYBE) {
			O->use_field = e;
			use_var(O, i, base, false);
			O->use_field = NULL;
		}
		OwnVar *ov = &O->vars.items[i];
		if (ST(st) == ST_PARTIAL) {
			int k = field_slot(O, ov, e->u.field.name.s, false);
			bool definite = k >= FIELD_BITS || (k >= 0 && (st & DEF(k)));
			if (k >= 0 && k < FIELD_BITS && (st & MAY(k)) && sema_own_first_report(O, e)) {
				Diag *d = sema_error(O->S, DIAG_O110, e->span, "place `%s.%s` may have been moved on another control-flow path", ov->name, e->u.field.name.s);
				if (ov->refused)   /* the field left moved by a refused renewal of its record */
					refused_help(O, d, ov, "may be");
				else if (before_loop(O, i, true))
					diag_set_help(d, "`%s`, declared before the loop, may have `%s` moved out by an earlier iteration or a branch: renew `%s` each iteration, `%s = step(%s, …);`, through an effect-free, non-generic function whose one `own` parameter receives it",
					    ov->name, e->u.field.name.s, ov->name, ov->name, ov->name);
				else
					diag_set_help(d, "move it on every path, or keep it borrowed and move it once after the branches");
				return;
			}
			if (definite) {
				if (sema_own_first_report(O, e)) {
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
		if (move && sema_own_owned(O, ft) && O->in_contract) {
			if (sema_own_first_report(O, e)) {
				Diag *d = sema_error(O->S, DIAG_O105, e->span, "contract expression cannot transfer an owned value");
				diag_set_help(d, "contracts only read; check the property in the body");
			}
			return;
		}
		if (move && sema_own_owned(O, ft)) {
			OwnVar *v = &O->vars.items[i];
			if (v->borrowed && sema_own_first_report(O, e)) {
				Diag *d = sema_error(O->S, DIAG_O108, e->span, "cannot move an owned field through a borrowed or shared record");
				if (v->for_item && ft == T_STRING)
					diag_set_help(d, "`%s` is a `for` item, borrowed from what the loop walks: pass a copy (`string_slice(%s.%s, 0, string_len(%s.%s))`), or walk with `for own %s in …` to own each item",
					    v->name, v->name, e->u.field.name.s, v->name, e->u.field.name.s, v->name);
				else if (v->for_item && ft == T_BYTES)
					diag_set_help(d, "`%s` is a `for` item, borrowed from what the loop walks: pass a copy (`bytes_copy(bytes_as_slice(%s.%s))`), or walk with `for own %s in …` to own each item",
					    v->name, v->name, e->u.field.name.s, v->name);
				else if (v->for_item)
					diag_set_help(d, "`%s` is a `for` item, borrowed from what the loop walks: read Copy fields only, or walk with `for own %s in …` to own each item", v->name, v->name);
				else if (ft == T_STRING)
					diag_set_help(d, "`%s` is lent here: pass a copy of the field, `string_slice(%s.%s, 0, string_len(%s.%s))`, or take `%s` as `own`",
					    v->name, v->name, e->u.field.name.s, v->name, e->u.field.name.s, v->name);
				else if (ft == T_BYTES)
					diag_set_help(d, "`%s` is lent here: pass a copy of the field, `bytes_copy(bytes_as_slice(%s.%s))`, or take `%s` as `own`",
					    v->name, v->name, e->u.field.name.s, v->name);
				else
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
				v->moved_at = e->span.start;
			}
		}
		return;
	}
	own_expr(O, base, move && sema_own_owned(O, ft));
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
		if (S->call_builtin[ast_call_index(call)]->bid == BI_string_concat && i < 2) {
			O->arg_buf[0] = i == 0 ? 'a' : 'b';
			O->arg_buf[1] = '\0';
		} else {
			/* `arg<i>` (i >= 0), without a printf per operand */
			char digits[12];
			int nd = 0;
			unsigned v = (unsigned)i;
			do
				digits[nd++] = (char)('0' + v % 10);
			while ((v /= 10) != 0);
			memcpy(O->arg_buf, "arg", 3);
			for (int k = 0; k < nd; k++)
				O->arg_buf[3 + k] = digits[nd - 1 - k];
			O->arg_buf[3 + nd] = '\0';
		}
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
	struct OwnCallAt at = { call, args, 0, cons, offset };
	VEC_PUSH(O->calls, at);
	int frame = O->calls.len - 1;
	for (int i = 0; i < nargs; i++) {
		O->calls.items[frame].cur = i;
		bool consume = cons ? cons[i + offset] != 0 : true;
		if (args[i]->kind == EXPR_NAME)
			arg_context(O, call, i + offset);
		O->arg_place = args[i]->kind == EXPR_NAME || args[i]->kind == EXPR_FIELD ? args[i] : NULL;
		own_expr(O, args[i], consume);
		O->arg_callee = O->arg_param = NULL;
		O->arg_place = NULL;
		sema_own_operand_done(O, args[i]);
	}
	O->calls.len = frame;
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
		sema_own_set_edge(O, -1 - var, v);
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
		if (u.var >= f->n || *stamp_of(O, u.var) == O->epoch || (u.var < 0 && !sema_own_edge_scoped(O, -1 - u.var)))
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
	b->any_owned |= sema_own_owned(b->O, type);
	declare(b->O, name, type, b->borrowed);
	sema_own_view_collect(b->O, b->O->vars.len - 1, type, b->src);
	if (b->borrowed == 2 && sema_own_owned(b->O, type))   /* a lent owned part (a Copy one is a copy) */
		sema_own_add_edge(b->O, b->O->vars.len - 1, b->root);
}

/* The variable a `match borrow` scrutinee or `for` iterable names (a binding or a field of one); -1 otherwise. */
static int
place_root(Own *O, const Expr *e)
{
	while (e->kind == EXPR_FIELD)
		e = e->u.field.base;
	return e->kind == EXPR_NAME ? sema_own_find(O, e->u.name.s) : -1;
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
	/* A plain match on a non-Copy scrutinee is O111 already (match.c): its
	 * bindings are taken as owned, so moving one is not a second error (O108). */
	bool lent_binds = e->u.match.mode == MATCH_BORROW ||
	    (e->u.match.mode == MATCH_PLAIN && sema_is_copy(O->S, sema_expr_type(O->S, e->u.match.scrutinee->id)));
	Fork f = fork_begin(O);
	int entry = f.mark;   /* the state at this trail mark is the arms' entry state */
	ArmJoin acc = {0};
	Changes d = {0};
	for (int i = 0; i < e->u.match.narms; i++) {
		const MatchArm *arm = &e->u.match.arms[i];
		undo_to(O, &f, entry);
		push_scope(O);
		BindCtx bc = { O, e->u.match.scrutinee, e->u.match.mode == MATCH_BORROW ? place_root(O, e->u.match.scrutinee) : -1, (uint8_t)(lent_binds ? 2 : 0), false };
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
		sema_own_tail_escape(O, arm->value);
		sema_own_scope_end(O, arm->value->span);
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
		if (sema_own_first_report(O, e)) {
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
		sema_own_operand_done(O, e->u.binary.lhs);
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
			int i = sema_own_find(O, e->u.call.callee.s);
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
			int i = sema_own_find(O, x->u.name.s);
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
		const Expr *outer = O->method;
		O->method = e;
		own_expr(O, e->u.method.recv, cons && cons[0] != 0);
		O->method = outer;
		sema_own_operand_done(O, e->u.method.recv);
		own_args(O, e, e->u.method.args, e->u.method.nargs, 1);
		O->operands.len = mark;
		break;
	}
	case EXPR_SUPER: own_args(O, e, e->u.super_.args, e->u.super_.nargs, 1); break;
	case EXPR_TRY: own_expr(O, e->u.try_.operand, true); break;
	case EXPR_WITH: {
		int mark = O->operands.len;
		own_stored(O, e->u.with.base, "cannot update an owned record through a borrowed or shared base");
		sema_own_operand_done(O, e->u.with.base);
		const Expr *outer = O->with_of;
		O->with_of = e;
		for (int i = 0; i < e->u.with.ninits; i++) {
			own_stored(O, e->u.with.inits[i].value, "cannot move an owned field through a borrowed or shared record");
			sema_own_operand_done(O, e->u.with.inits[i].value);
		}
		O->with_of = outer;
		O->operands.len = mark;
		break;
	}
	case EXPR_RECORD: {
		int mark = O->operands.len;
		for (int i = 0; i < e->u.record.ninits; i++) {
			own_stored(O, e->u.record.inits[i].value, "cannot move an owned field through a borrowed or shared record");
			sema_own_operand_done(O, e->u.record.inits[i].value);
		}
		O->operands.len = mark;
		break;
	}
	case EXPR_VARIANT: {
		int mark = O->operands.len;
		for (int i = 0; i < e->u.variant.ninits; i++) {
			own_stored(O, e->u.variant.inits[i].value, "cannot move an owned variant payload through a borrowed or shared value");
			sema_own_operand_done(O, e->u.variant.inits[i].value);
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

/* The passes a loop body may take before its states settle: each pass but
 * the last adds a move or a live view to the loop's entry state, so a
 * real program settles in two or three.  From pass OWN_LOOP_WIDEN on, the
 * views the loop assigns are widened (sema_own_loop_widen) so that a chain
 * of views copied into one another settles too; the variables' states
 * settle within two changes each.  The cap is a safety net no known
 * program reaches: past it the function is refused (T265,
 * sema_own_check_function), the sound side. */
#define OWN_LOOP_PASSES 32
#define OWN_LOOP_WIDEN 4

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
own_loop(Own *O, const Expr *cond, const Block *body, int item, Span span)
{
	Fork f = fork_begin(O);
	Changes d = {0}, head = {0}, next = {0};   /* the loop's entry state where it differs from the entry, by var */
	for (int pass = 0;; pass++) {
		if (pass == OWN_LOOP_PASSES) {
			O->loops_unstable = true;
			break;
		}
		if (pass >= OWN_LOOP_WIDEN)
			sema_own_loop_widen(O, f.n, span, cond, body);
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
		if (v && !alias && v->kind == EXPR_NAME) {
			/* a plain move `let t = s;`: H006 on a later `s` names it */
			int from = sema_own_find(O, v->u.name.s);
			if (from >= 0 && ST(O->st.items[from]) == ST_MOVED && strcmp(s->u.let.name.s, "_") != 0)
				O->vars.items[from].moved_into = s->u.let.name.s;
		}
		/* an alias of a lent value lends as its source does (check_let) */
		int root = alias ? place_root(O, v) : -1;
		declare(O, s->u.let.name.s, t, alias ? (root >= 0 && O->vars.items[root].borrowed ? O->vars.items[root].borrowed : 1) : 0);
		OwnVar *nv = &O->vars.items[O->vars.len - 1];
		nv->shared = alias && (sema_expr_mode(O->S, v->id) == MODE_SHARED || (root >= 0 && O->vars.items[root].shared));
		sema_own_view_collect(O, O->vars.len - 1, t, v);
		sema_own_view_escapes(O, O->vars.len - 1, t, escaped);
		break;
	}
	case STMT_ASSIGN: {
		int i = sema_own_find(O, s->u.assign.target.s);
		if (i >= 0 && O->vars.items[i].traversals > 0) {
			/* one T284 for the statement (as the reference); the value's
			 * own use of the source is then an ordinary move */
			OwnVar *v = &O->vars.items[i];
			int loans = v->loans, traversals = v->traversals;
			if (sema_own_first_report(O, s->u.assign.value)) {
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
		if (i >= 0 && s->u.assign.has_field && (O->st.items[i] == ST_MOVED || O->st.items[i] == ST_MAYBE) &&
		    sema_own_first_report(O, s->u.assign.value)) {
			/* a field store needs the record it writes into (the value,
			 * evaluated first, may have moved it: `r.n = eat(r);`) */
			OwnVar *v = &O->vars.items[i];
			Diag *d = O->st.items[i] == ST_MOVED
			    ? sema_error(O->S, DIAG_H006, s->u.assign.target.span, "use of `%s` after ownership was moved", v->name)
			    : sema_error(O->S, DIAG_O110, s->u.assign.target.span, "place `%s` may have been moved on another control-flow path", v->name);
			diag_set_help(d, "store into `%s` before it moves, or build a new record with `with`", v->name);
		}
		if (i >= 0 && O->vars.items[i].loans > 0 && sema_own_first_report(O, s->u.assign.value)) {
			Diag *d = sema_error(O->S, DIAG_T265, s->u.assign.target.span, "assignment would replace storage held by a lexical byte view");
			diag_set_help(d, "a `match borrow` arm borrows from `%s` until it ends; assign after it", O->vars.items[i].name);
		} else if (i >= 0 && !s->u.assign.has_field) {
			sema_own_check_live_views(O, i, s);
		}
		/* a refused reassignment (U105) leaves the target as the value
		 * left it: a later use of a moved target is still reported */
		if (i >= 0 && !s->u.assign.has_field && (!O->S->assign_owner || O->S->assign_owner[s->u.assign.value->id] != SEMA_ASSIGN_REFUSED)) {
			set_state(O, i, ST_LIVE);   /* reinitialised */
			O->vars.items[i].refused = 0;
		} else if (i >= 0 && !s->u.assign.has_field && O->st.items[i] == ST_MOVED) {
			/* a later use's help says so, and whether a fresh `let` would do */
			O->vars.items[i].refused = before_loop(O, i, false) ? 2 : 1;
		}
		/* a view variable given a new view borrows from its owners, and on
		 * this path no longer from its old ones unless the value names it
		 * (`w = if c { w } else { … }`) */
		if (i >= 0 && !s->u.assign.has_field)
			sema_own_view_kill(O, i, s->u.assign.value);
		if (i >= 0)
			sema_own_view_collect(O, i, O->vars.items[i].type, s->u.assign.value);
		sema_own_view_escapes(O, i, i >= 0 ? O->vars.items[i].type : T_ERR, escaped);
		break;
	}
	case STMT_WHILE: {
		struct OwnLoop l = { O->vars.len, s->span.start };
		VEC_PUSH(O->loops, l);
		own_loop(O, s->u.while_.cond, s->u.while_.body, -1, s->span);
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
			O->vars.items[O->vars.len - 1].for_item = !s->u.for_.own;
			int item = O->vars.len - 1, from = s->u.for_.own ? -1 : place_root(O, s->u.for_.iter);
			sema_own_view_collect(O, item, O->vars.items[item].type, s->u.for_.iter);
			if (from >= 0 && sema_own_owned(O, O->vars.items[item].type))   /* a lent element borrows the vector's owner */
				sema_own_add_edge(O, item, from);
		}
		{
			/* the body borrows from the iterated owner */
			int lender = s->u.for_.own ? -1 : place_root(O, s->u.for_.iter);
			if (lender >= 0) {
				O->vars.items[lender].loans++;
				O->vars.items[lender].traversals++;
			}
			own_loop(O, NULL, s->u.for_.body, O->vars.len - 1, s->span);
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
	struct OwnAt at = { b, 0, O->vars.len };
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
		sema_own_tail_escape(O, b->tail);
	sema_own_scope_end(O, b->span);
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
		VEC_ADOPT(O->calls, k->calls);
		VEC_ADOPT(O->edges, k->edges);
		VEC_ADOPT(O->escaped, k->escaped);
		VEC_ADOPT(O->trail, k->trail);
		VEC_ADOPT(O->blocks, k->blocks);
		VEC_ADOPT(O->occ, k->occ);
		VEC_ADOPT(O->kills, k->kills);
		VEC_ADOPT(O->letdefs, k->letdefs);
		VEC_ADOPT(O->binds, k->binds);
		VEC_ADOPT(O->visited, k->visited);
		O->memo = k->memo, O->memo_cap = k->memo_cap;
		VEC_ADOPT(O->facts, k->facts);
		O->fact_slots = k->fact_slots, O->fact_slots_cap = k->fact_slots_cap;
		O->reach = k->reach, O->reach_cap = k->reach_cap;
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
	VEC_FREE(O->calls);
	VEC_FREE(O->edges);
	VEC_FREE(O->escaped);
	VEC_FREE(O->trail);
	VEC_FREE(O->blocks);
	VEC_FREE(O->occ);
	VEC_FREE(O->kills);
	VEC_FREE(O->letdefs);
	VEC_FREE(O->binds);
	VEC_FREE(O->visited);
	free(O->memo);
	VEC_FREE(O->facts);
	free(O->fact_slots);
	free(O->reach);
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
	O->vars.len = O->fields.len = O->st.len = O->marks.len = O->loops.len = O->calls.len = O->edges.len = O->escaped.len = O->trail.len = 0;
	O->blocks.len = O->occ.len = O->kills.len = O->letdefs.len = O->binds.len = O->visited.len = O->operands.len = 0;
	if (O->memo_len)
		memset(O->memo, 0, sizeof *O->memo * (size_t)O->memo_cap);
	O->memo_len = 0;
	if (O->facts.len)
		memset(O->fact_slots, 0, sizeof *O->fact_slots * (size_t)O->fact_slots_cap);
	O->facts.len = 0;
	if (O->reach_len)
		memset(O->reach, 0, sizeof *O->reach * (size_t)O->reach_cap);
	O->reach_len = 0;
	O->reach_built = false;
	O->fact_work = 0;
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
	O.nparams = f->nparams;
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
