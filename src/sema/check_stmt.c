/*
 * check_stmt.c — blocks and statements: bindings (T209, T232, S109),
 * assignment and field assignment (U codes), loops (T251, T253), statement
 * `if`, and audited unsafe blocks (N codes).
 */
#include "sema_int.h"

#include <stdio.h>
#include <string.h>

static void sema_check_stmt(FnCtx *C, const Stmt *s);

TypeId
sema_check_block(FnCtx *C, const Block *b)
{
	sema_scope_push(C);
	for (int i = 0; i < b->nstmts; i++)
		sema_check_stmt(C, b->stmts[i]);
	TypeId t = b->tail ? sema_check_expr(C, b->tail) : T_ERR;
	sema_scope_pop(C);
	return t;
}

/* Would upcasting class `from` to its ancestor `to` drop fields that need
 * cleanup (T233: a typed binding, and an argument a parameter consumes)? */
bool
sema_upcast_drops_owned(Sema *S, TypeId from, TypeId to)
{
	Sym *child = sema_sym(S, (SymId)sema_type_info(&S->types, from)->decl);
	Sym *parent = sema_sym(S, (SymId)sema_type_info(&S->types, to)->decl);
	for (int i = parent->nom->nfields; i < child->nom->nfields; i++)
		if (!sema_is_copy(S, child->nom->fields[i].type))
			return true;
	return false;
}

/*
 * `let c: char = "a";` and `let s: string = 'a';` (qa39): one printable
 * ASCII character in the other quotes; the help and fix swap them.
 */
static bool
quote_swap_help(Sema *S, Diag *d, const Expr *v, TypeId declared)
{
	const char *src = S->src + v->span.start;
	bool to_char = declared == T_CHAR && v->kind == EXPR_STRING;
	if (!(to_char || (declared == T_STRING && v->kind == EXPR_CHAR)) || v->span.end - v->span.start != 3)
		return false;
	char c = src[1];
	if (c < 0x20 || c > 0x7e || c == '\\' || c == '\'' || c == '"')
		return false;
	char lit[4] = { to_char ? '\'' : '"', c, to_char ? '\'' : '"', 0 };
	if (to_char)
		diag_set_help(d, "a `char` literal takes single quotes: `%s` (double quotes make a `string`)", lit);
	else
		diag_set_help(d, "a `string` literal takes double quotes: `%s` (single quotes make a `char`)", lit);
	diag_add_fix(d, v->span.start, v->span.end, lit);
	return true;
}

static void
check_let(FnCtx *C, const Stmt *s)
{
	Sema *S = C->S;
	const Expr *saved_own_let = C->own_let;
	bool saved_own_let_mut = C->own_let_mut;
	C->own_let = s->u.let.type ? NULL : s->u.let.value;
	C->own_let_mut = s->u.let.mut;
	TypeId vt = s->u.let.value ? sema_check_expr(C, s->u.let.value) : T_ERR;
	C->own_let = saved_own_let;
	C->own_let_mut = saved_own_let_mut;
	TypeId bt = vt;
	const Type *lt = s->u.let.type;
	if (lt && lt->kind == TYPE_NAME && ast_type_nparts(lt) == 1 && ast_type_nargs(lt) == 0 &&
	    strcmp(lt->u.name.s, "String") == 0 && sema_strmap_get(&S->type_names, "String") < 0) {
		/* the reference's verifier hint for a Rust habit: T232, not an unknown type */
		Diag *d = sema_error(S, DIAG_T232, lt->span, "declared binding type `String` is not a SEMAPRAX type");
		diag_set_help(d, "owned text is `string`: `let %s: string = …;`", s->u.let.name.s);
		diag_add_fix(d, lt->span.start, lt->span.end, "string");   /* qa37 */
	} else if (lt) {
		TypeId declared = sema_ctx_resolve_type(C, s->u.let.type);
		if (declared != T_ERR && vt != T_ERR && !sema_type_accepts(S, declared, vt)) {
			Diag *d = sema_error(S, DIAG_T232, s->u.let.value->span, "declared binding type `%s` does not accept value type `%s`",
			    sema_type_name(S, declared), sema_type_name(S, vt));
			const Expr *v = s->u.let.value;
			const char *conv;
			bool checked = false;
			const char *suffix = declared == T_I32 ? "i32" : declared == T_U8 ? "u8" : declared == T_USIZE ? "usize" : NULL;
			/* a literal of another number type gets the fix rewriting its suffix */
			bool fixed = sema_literal_retype_fix(S, d, v, declared);
			if (fixed && suffix && v->kind == EXPR_INT && v->lit_suffix == SUF_NONE)
				diag_set_help(d, "integer literals are `i64` unless suffixed; write `%.*s%s`", (int)(v->span.end - v->span.start),
				    S->src + v->span.start, suffix);
			else if (fixed)
				diag_set_help(d, "a literal's suffix gives its type; write a `%s` literal: `%s`", sema_type_name(S, declared),
				    d->fixes.items[d->fixes.len - 1].text);
			else if (suffix && sema_is_int_literal(v))
				diag_set_help(d, "the literal is outside `%s`'s range (%s); bind a value within it, or declare the binding with another type", suffix,
				    declared == T_U8 ? "0 to 255" : declared == T_USIZE ? "0 and up" : "-2147483648 to 2147483647");
			else if (quote_swap_help(S, d, v, declared))
				;
			else if (sema_carrier_value_help(S, d, vt, declared))
				;
			else if ((conv = sema_conversion_builtin(declared, vt, &checked)) != NULL)   /* `let n: usize = string_len(s);` */
				diag_set_help(d, "convert the `%s` value with the compiler-owned `%s(value)`%s, or declare the binding `%s`", sema_type_name(S, vt), conv,
				    checked ? " (a value out of range stops the program)" : "", sema_type_name(S, vt));
			else
				diag_set_help(d, "bind a value of type `%s`; there are no implicit conversions", sema_type_name(S, declared));
		}
		if (declared != vt && declared != T_ERR && vt != T_ERR && sema_class_upcast(S, vt, declared) && sema_upcast_drops_owned(S, vt, declared)) {
			Diag *d = sema_error(S, DIAG_T233, s->u.let.value->span, "upcast from `%s` to `%s` would discard owned fields",
			    sema_type_name(S, vt), sema_type_name(S, declared));
			diag_set_help(d, "upcast only classes whose own fields are Copy, or keep the `%s` value", sema_type_name(S, vt));
		}
		bt = declared;
	}
	/*
	 * A non-Copy value that is lent (a `borrow`/`shared` parameter, a
	 * `match borrow` or `for` binding, a field of one, or an alias of one)
	 * binds an alias that lends it too: nothing moves, nothing is released
	 * (the reference's binding takes its initializer's mode).
	 */
	bool alias = s->u.let.value && sema_lent_value(S, s->u.let.value);
	bool declared = sema_local_declare(C, s->u.let.name.s, bt, s->u.let.mut, s->u.let.name.span);
	if (declared && alias)
		sema_local_lend(C, s->u.let.name.s, sema_expr_mode(S, s->u.let.value->id));
	if (declared && strcmp(s->u.let.name.s, "_") != 0)
		C->locals.items[C->locals.len - 1].let_stmt = true;
	const Expr *v = s->u.let.value;
	if (declared && v && v->kind == EXPR_CLOSURE && sema_closure_profile(S, v->id) == 1 && strcmp(s->u.let.name.s, "_") != 0)
		C->locals.items[C->locals.len - 1].own_target = sema_expr_sym(S, v->u.closure.body->tail->id) + 1;
	else if (declared && v && v->kind == EXPR_CLOSURE && sema_closure_profile(S, v->id) == 4 && strcmp(s->u.let.name.s, "_") != 0)
		C->locals.items[C->locals.len - 1].own_target = -1;
}

static bool
names(const Expr *e, const char *name)
{
	return e->kind == EXPR_NAME && strcmp(e->u.name.s, name) == 0;
}

/*
 * A same-owner reopen (§4.3): `x = op(x, …)` where op is one of the
 * compiler-owned updates that consume the old owner and return the new
 * one.  Only these: the reference admits no other non-Copy assignment
 * (a module function consuming `x`, a method or `x with {…}` is U105).
 */
/*
 * A record owner renewal (the reference's while_loops corpus:
 * `cursor = renew(cursor, n)`, admitted in a loop body only — outside one
 * the reference wants a fresh binding, U105): an effect-free, non-generic module
 * function returning the binding's record type R, with exactly one `own`
 * parameter, of type R, which receives the binding itself.  Collections
 * renew only through the compiler-owned updates below.
 */
static bool
record_renewal(Sema *S, const char *name, TypeId type, const Expr *v)
{
	const TypeInfo *ti = sema_type_info(&S->types, type);
	if (ti->kind != TY_NOMINAL || sema_sym(S, (SymId)ti->decl)->kind != SK_RECORD)
		return false;
	SymId f = sema_expr_sym(S, v->id);
	if (f < 0 || sema_sym(S, f)->kind != SK_FN)
		return false;
	const Sym *fs = sema_sym(S, f);
	if (fs->result != type || fs->neffects || fs->ntparams || fs->nparams != v->u.call.nargs)
		return false;
	int owners = 0;
	for (int i = 0; i < fs->nparams; i++) {
		if (fs->params[i].mode != MODE_OWN)
			continue;
		if (fs->params[i].type != type || !names(v->u.call.args[i], name))
			return false;
		owners++;
	}
	return owners == 1;
}

/*
 * A stdin reader forwarding helper (the reference's Bounded Standard Input
 * Streaming v1): `reader = advance(reader)` where `advance` is a
 * non-generic module function whose one parameter is `own StdinReader` and
 * whose result is `StdinReader` reopens the reader like stdin_stream_next.
 */
static bool
reader_forward(Sema *S, const char *name, TypeId type, const Expr *v)
{
	if (sema_type_info(&S->types, type)->kind != TY_READER)
		return false;
	SymId f = sema_expr_sym(S, v->id);
	if (f < 0 || sema_sym(S, f)->kind != SK_FN)
		return false;
	const Sym *fs = sema_sym(S, f);
	return fs->result == type && !fs->ntparams && fs->nparams == 1 && v->u.call.nargs == 1 &&
	       fs->params[0].mode == MODE_OWN && fs->params[0].type == type && names(v->u.call.args[0], name);
}

/* The compiler-owned update `v`'s call makes, or NULL (any first argument). */
static const char *
reopener_name(Sema *S, const Expr *v)
{
	static const char *const reopeners[] = {
		"vec_push", "vec_set", "vec_clear", "vec_reserve_exact", "vec_sort",
		"bytes_set", "bytes_set5", "bytes_set1_or5_from_slice", "bytes_set1_or6_or48_from_slice", "map_add", "map_set", "map_remove", "set_insert", "set_remove",
		"stdin_stream_next",
	};
	if (v->kind != EXPR_CALL || v->u.call.nargs < 1)
		return NULL;
	const Builtin *b = S->call_builtin[ast_call_index(v)];
	for (size_t i = 0; b && i < countof(reopeners); i++)
		if (strcmp(b->name, reopeners[i]) == 0)
			return reopeners[i];
	return NULL;
}

static bool
same_owner_reopen(Sema *S, const char *name, TypeId type, const Expr *v, bool in_loop)
{
	if (v->kind != EXPR_CALL || sema_expr_type(S, v->id) != type || v->u.call.nargs < 1)
		return false;
	if (!S->call_builtin[ast_call_index(v)])
		return sema_std_reopen(S, name, v) || reader_forward(S, name, type, v) || (in_loop && record_renewal(S, name, type, v));
	return names(v->u.call.args[0], name) && reopener_name(S, v);
}

/* A compiler-owned in-place update of an owner of `kind`, for a help line:
 * `fn(name, rest)` (qa39: a Map was shown `vec_set`/`vec_push`). */
static void
update_example(int kind, const char **fn, const char **rest, const char **others)
{
	*fn = kind == TY_MAP ? "map_set<K, V>" : kind == TY_SET ? "set_insert<K>" : kind == TY_BYTES ? "bytes_set" : "vec_push<T>";
	*rest = kind == TY_MAP ? "k, x" : kind == TY_SET ? "k" : kind == TY_BYTES ? "i, x" : "x";
	*others = kind == TY_MAP ? "`map_add`, `map_remove`" : kind == TY_SET ? "`set_remove`" : kind == TY_BYTES ? "`bytes_set5`" : "`map_set`, `bytes_set`";
}

/*
 * U105's help inside a loop, where a fresh `let` ends with the iteration:
 * what keeps the value across iterations.  A record assigned from a module
 * function: why that call is no renewal (record_renewal's conditions, one
 * at a time); any other owner: hold it in a record and renew that.
 */
static void
loop_renewal_help(Sema *S, Diag *d, const char *name, TypeId type, const Expr *v)
{
	const TypeInfo *ti = sema_type_info(&S->types, type);
	bool record = ti->kind == TY_NOMINAL && sema_sym(S, (SymId)ti->decl)->kind == SK_RECORD;
	SymId f = v->kind == EXPR_CALL && !S->call_builtin[ast_call_index(v)] ? sema_expr_sym(S, v->id) : -1;
	if (record && f >= 0 && sema_sym(S, f)->kind == SK_FN) {
		const Sym *fs = sema_sym(S, f);
		const char *why = NULL;
		Buf wrap = {0};   /* the generic case's text, whole (no fixed buffer) */
		int owners = 0, other = -1;
		for (int i = 0; i < fs->nparams; i++) {
			if (fs->params[i].mode != MODE_OWN)
				continue;
			if (fs->params[i].type == type && i < v->u.call.nargs && names(v->u.call.args[i], name))
				owners++;
			else if (other < 0)
				other = i;
		}
		if (fs->neffects)
			why = "it has effects (`uses`): a renewal is effect-free, so keep what it would write in a field (a `string` log) and write it after the loop";
		else if (fs->ntparams) {
			/* the wrapper to write: the call as spelled, `heap_push<bool>` */
			const char *src = S->src + v->span.start;
			int n = 0;
			while (v->span.start + (uint32_t)n < v->span.end && src[n] != '(' && n < 80)
				n++;
			const char *t = sema_type_name(S, type);
			buf_printf(&wrap, "it is generic: a renewal is a non-generic function, so wrap the instance you use in one, "
			    "`fn step(%s: own %s, …) -> %s { %.*s(%s, …) }`, and renew with `%s = step(%s, …);`", name, t, t, n, src, name, name, name);
			why = wrap.data;
		}
		else if (fs->result != type)
			why = "its result is not the record's type";
		else if (other >= 0)
			why = "it takes another `own` parameter: the record must be its only one (take the others by value or `borrow`)";
		else if (owners != 1)
			why = "the record itself must be its `own` parameter";
		if (why) {
			diag_set_help(d, "in a loop, `%s = %s(%s, …)` renews the record only through an effect-free, non-generic function whose one `own` parameter receives it; `%s` is not one: %s (`semaprax explain SPX-U105`)",
			    name, fs->name, name, fs->name, why);
			buf_free(&wrap);
			return;
		}
		buf_free(&wrap);
	}
	if (record) {
		/* a literal, `with` or another expression: the renewal is a call */
		diag_set_help(d, "a fresh `let` ends with the loop's iteration, and a record is renewed in a loop only by a call, `%s = step(%s, …)`, of an effect-free, non-generic function whose one `own` parameter receives it: move this expression into such a function (`semaprax explain SPX-U105`)",
		    name, name);
		return;
	}
	if (ti->kind == TY_ITER) {
		diag_set_help(d, "a fresh `let` ends with the loop's iteration, and an `Iter` is walked by `for own item in %s { … }` (each step calls `iter_next` for you), or by a recursive helper that takes the `rest` it yields `own`",
		    name);
		return;
	}
	if (ti->kind == TY_VEC || ti->kind == TY_MAP || ti->kind == TY_SET || ti->kind == TY_BYTES) {
		/* the update named is one of this owner's kind (qa39: a Map was shown `vec_set`) */
		const char *fn, *rest, *others;
		update_example(ti->kind, &fn, &rest, &others);
		if (ti->kind == TY_VEC) {   /* `vec_push` follows in the list */
			fn = "vec_set<T>";
			rest = "i, x";
		}
		diag_set_help(d, "a fresh `let` ends with the loop's iteration: hold `%s` in a record field and renew the record, `st = step(st, …)`, with an effect-free, non-generic function whose one `own` parameter is the record (`semaprax explain SPX-U105`), or update it in place with compiler-owned updates (`%s = %s(%s, %s)`, `vec_push`, `map_set`, …)",
		    name, name, fn, name, rest);
	}
	else
		diag_set_help(d, "a fresh `let` ends with the loop's iteration: hold `%s` in a record field and renew the record, `st = step(st, …)`, with an effect-free, non-generic function whose one `own` parameter is the record (`semaprax explain SPX-U105`), or carry it through a recursive helper that takes it `own` instead of the loop",
		    name);
}

static void
check_assign(FnCtx *C, const Stmt *s)
{
	Sema *S = C->S;
	const Expr *v = s->u.assign.value;
	const char *name = s->u.assign.target.s;
	const Expr *outer = C->reopen;
	C->reopen = !s->u.assign.has_field && v->kind == EXPR_CALL && v->u.call.nargs > 0 && names(v->u.call.args[0], name) ? v : NULL;
	TypeId vt = sema_check_expr(C, v);
	C->reopen = outer;
	if (C->in_contract) {
		Diag *d = sema_error(S, DIAG_U106, s->u.assign.value->span, "assignment statements are not allowed in contract expressions");
		diag_set_help(d, "contracts are pure; move the assignment out");
		return;
	}
	const Local *l = sema_local_find(C, name);
	if (!l) {
		Diag *d = sema_error(S, DIAG_T202, s->u.assign.target.span, "unknown value `%s` in `%s`", name, C->sym->name);
		const char *near = sema_near_local(C, name);
		if (near) {
			diag_set_help(d, "did you mean `%s`?", near);
			if (s->u.assign.target.span.end - s->u.assign.target.span.start == strlen(name))
				diag_add_fix(d, s->u.assign.target.span.start, s->u.assign.target.span.end, near);
		} else {
			diag_set_help(d, "declare it first: `let mut %s = …;`", name);
		}
		return;
	}
	if (sema_closure_assign(C, l, s->u.assign.target.span))
		return;
	if (!s->u.assign.has_field) {
		if (!l->mut) {
			Diag *d = sema_error(S, DIAG_U101, s->u.assign.target.span, "cannot assign to immutable binding `%s`; declare it with `let mut`", name);
			if (l->param) {
				/* the reference's help, kept (LANGUAGE.md §0.2); its `let`
				 * would shadow the parameter (T209, §3.6), so a note names
				 * a fresh local */
				char fresh[64];
				sema_fresh_name(C, name, fresh);
				diag_set_help(d, "parameters are immutable; copy it into a mutable local first: `let mut %s = %s;`", name, name);
				diag_set_note(d, "a `let` cannot reuse the parameter's name (SPX-T209): write `let mut %s = %s;` and use `%s` from there on", fresh, name, fresh);
			} else
				diag_set_help(d, "write `let mut %s = …;` where it is declared", name);
			if (l->let_stmt)
				diag_add_fix(d, l->span.start, l->span.start, "mut ");
			return;
		}
		if (vt != T_ERR && l->type != T_ERR && vt != l->type) {
			Diag *d = sema_error(S, DIAG_U102, s->u.assign.value->span, "assigned value type `%s` does not exactly match binding type `%s`",
			    sema_type_name(S, vt), sema_type_name(S, l->type));
			diag_set_help(d, "assign a `%s` value; there are no implicit conversions", sema_type_name(S, l->type));
		} else if (vt != T_ERR && sema_type_info(&S->types, vt)->kind == TY_FN) {
			/* a closure is Copy, but the reference keeps function
			 * reassignment outside explicit mutation (its
			 * function_values/wasm_closures.rs): U105, no lift */
			Diag *d = sema_error(S, DIAG_U105, s->u.assign.value->span, "explicit mutation v1 supports only scalar Copy values");
			char fresh[64];
			sema_fresh_name(C, name, fresh);
			if (C->loop_depth > 0)
				diag_set_help(d, "a function value is not reassigned: keep a Copy scalar (a flag or a tag) that says which function applies and choose with `if` at the call (`if use_first { first(x) } else { second(x) }`)");
			else
				diag_set_help(d, "a function value is not reassigned: bind the new function with a fresh `let` (`let %s = …;`) and call that, or choose once with `let %s = if c { f } else { g };`",
				    fresh, name);
		} else if (vt != T_ERR && vt != T_STRING && !sema_is_copy(S, vt) && !same_owner_reopen(S, name, vt, s->u.assign.value, C->loop_depth > 0) &&
		    !sema_bytes_write(v)) {   /* another owner's buffer: T271 at the call */
			/* §4.3: Copy values, string replacement, and same-owner reopens only */
			Diag *d = sema_error(S, DIAG_U105, s->u.assign.value->span, "explicit mutation v1 supports only scalar Copy values");
			if (!S->assign_owner)
				sema_assign_owner_init(S);
			S->assign_owner[v->id] = SEMA_ASSIGN_REFUSED;   /* no reinitialisation (own pass) */
			const char *upd = reopener_name(S, v);
			if (upd)   /* an update whose first argument is another expression (qa39: nested updates) */
				diag_set_help(d, "`%s` reopens `%s` in place only when its first argument is `%s` itself: one update per statement, `%s = %s%s(%s, …);`, then the next",
				    upd, name, name, name, upd, sema_builtin_find(upd) && sema_builtin_find(upd)->ntparams ? "<…>" : "", name);   /* `bytes_set` takes none (rev39) */
			else if (C->loop_depth > 0)
				loop_renewal_help(S, d, name, vt, v);
			else {
				char fresh[64];
				sema_fresh_name(C, name, fresh);
				const char *fn, *rest, *others;
				update_example(sema_type_info(&S->types, vt)->kind, &fn, &rest, &others);
				diag_set_help(d, "bind the new value with a fresh `let` (`let %s = …;`): only a compiler-owned update (`%s = %s(%s, %s)`, %s, …) reopens `%s` in place (and, in a loop, a record's renewal: `semaprax explain SPX-U105`)",
				    fresh, name, fn, name, rest, others, name);
			}
		}
		return;
	}
	const char *f = s->u.assign.field.s;
	if (!l->mut) {
		Diag *d = sema_error(S, DIAG_U107, s->u.assign.target.span, "cannot assign to field of immutable binding `%s`; declare it with `let mut`", name);
		if (l->param) {
			/* the copy needs a name of its own: `let mut self = self;` is T209 (§3.6, qa30) */
			char fresh[64];
			sema_fresh_name(C, name, fresh);
			diag_set_help(d, "parameters are immutable; copy it into a mutable local with a name of its own (there is no shadowing): `let mut %s = %s;`, then assign `%s.%s` and use `%s`",
			    fresh, name, fresh, s->u.assign.field.s, fresh);
		} else
			diag_set_help(d, "write `let mut %s = …;` where it is declared", name);
		if (l->let_stmt)   /* as U101's (qa37) */
			diag_add_fix(d, l->span.start, l->span.start, "mut ");
		return;
	}
	if (l->type == T_ERR)
		return;
	const TypeInfo *ti = sema_type_info(&S->types, l->type);
	if (ti->kind != TY_NOMINAL || (sema_sym(S, (SymId)ti->decl)->kind != SK_RECORD && sema_sym(S, (SymId)ti->decl)->kind != SK_CLASS)) {
		Diag *d = sema_error(S, DIAG_U112, s->u.assign.field.span, "cannot mutate a field of non-record value `%s`", sema_type_name(S, l->type));
		diag_set_help(d, "only record and class bindings have fields");
		return;
	}
	int idx = sema_field_index(S, (SymId)ti->decl, f);
	if (idx < 0) {
		Diag *d = sema_error(S, DIAG_U108, s->u.assign.field.span, "record `%s` has no field `%s`", sema_type_name(S, l->type), f);
		diag_set_help(d, "assign one of the declared fields");
		return;
	}
	if (!S->assign_owner)
		sema_assign_owner_init(S);
	S->assign_owner[v->id] = (SymId)ti->decl;
	TypeId ft = sema_field_type(S, l->type, idx);
	if (!sema_type_is_scalar(&S->types, ft)) {
		Diag *d = sema_error(S, DIAG_U109, s->u.assign.field.span, "field mutation v1 supports only direct scalar Copy record fields");
		diag_set_help(d, "replace the whole value instead: `%s = %s with { %s: … };`", name, name, f);
		return;
	}
	if (vt != T_ERR && vt != ft) {
		Diag *d = sema_error(S, DIAG_U110, s->u.assign.value->span, "assigned value type `%s` does not exactly match field type `%s`",
		    sema_type_name(S, vt), sema_type_name(S, ft));
		diag_set_help(d, "assign a `%s` value", sema_type_name(S, ft));
	}
}

static void
check_while(FnCtx *C, const Stmt *s)
{
	Sema *S = C->S;
	if (C->in_contract) {
		sema_error(S, DIAG_T253, s->span, "`while` is not allowed in contract expressions");
		return;
	}
	TypeId ct = sema_check_expr(C, s->u.while_.cond);
	if (ct != T_BOOL && ct != T_ERR) {
		Diag *d = sema_error(S, DIAG_T251, s->u.while_.cond->span, "`while` condition must be bool");
		diag_set_help(d, "compare explicitly, e.g. `i < n`");
	}
	C->loop_depth++;
	if (s->u.while_.body)
		sema_check_block(C, s->u.while_.body);
	C->loop_depth--;
}

static void
check_for(FnCtx *C, const Stmt *s)
{
	Sema *S = C->S;
	TypeId it = sema_check_expr(C, s->u.for_.iter);
	TypeId item = T_ERR;
	const TypeInfo *ti = sema_type_info(&S->types, it);
	const Expr *src = s->u.for_.iter;
	if (!s->u.for_.own && src->kind != EXPR_NAME && ti->kind == TY_VEC) {
		/* §4.4: no computed iterables (the reference's T284) */
		Diag *d = sema_error(S, DIAG_T284, src->span, "for traversal source must be a named immutable `Vec<T>` binding");
		diag_set_help(d, "bind the vector first: `let values = …;`, then `for item in values { … }`");
	} else if (!s->u.for_.own && src->kind == EXPR_NAME && ti->kind == TY_VEC) {
		/* the reference's vec_for_traversal corpus: `let mut values` is T284 */
		const Local *l = sema_local_find(C, src->u.name.s);
		if (l && l->mut) {
			Diag *d = sema_error(S, DIAG_T284, src->span, "for traversal source `%s` must be an immutable binding", src->u.name.s);
			diag_set_help(d, "bind the vector immutably before the loop: `let %s_view = %s;`, and traverse that", src->u.name.s, src->u.name.s);
		}
	}
	if (it != T_ERR) {
		if (s->u.for_.own && ti->kind == TY_ITER) {
			item = ti->args[0];
		} else if (!s->u.for_.own && ti->kind == TY_VEC) {
			item = ti->args[0];
		} else {
			Diag *d = sema_error(S, DIAG_T205, s->u.for_.iter->span, "`for%s` iterates %s, received %s", s->u.for_.own ? " own" : "",
			    s->u.for_.own ? "an `Iter<T>`" : "a `Vec<T>` binding", sema_type_name(S, it));
			const char *nm = src->kind == EXPR_NAME ? src->u.name.s : it == T_STRING ? "text" : "view";
			if (it == T_STRING)
				diag_set_help(d, "text is not iterable: walk its bytes by index, `let mut i = 0; while i < string_len(%s) { let b = string_byte_at(%s, i); …; i = i + 1; 0 }`",
				    nm, nm);
			else if (it == T_STR)
				diag_set_help(d, "text is not iterable: copy the view, `let text = string_from_str(%s);`, and walk its bytes by index, `while i < string_len(text) { let b = string_byte_at(text, i); … }`",
				    nm);
			else if (ti->kind == TY_MAP || ti->kind == TY_SET)
				diag_set_help(d, "walk a %s by position: for `i` below `%s_len`, read `%s` (entries are in key order)",
				    ti->kind == TY_MAP ? "map" : "set", ti->kind == TY_MAP ? "map" : "set",
				    ti->kind == TY_MAP ? "map_key_at<K, V>(m, i)` and `map_value_at<K, V>(m, i)" : "set_key_at<K>(s, i)");
			else if (ti->kind == TY_BYTES || ti->kind == TY_SLICE)
				diag_set_help(d, "walk the bytes by index: `byte_get(view, i)` returns `Option<u8>` for `i` below `byte_len(view)`");
			else if (!s->u.for_.own && ti->kind == TY_ITER)
				diag_set_help(d, "an `Iter<T>` is consumed: `for own item in vec_into_iter<T>(values) { … }`; `for item in values` borrows a `Vec<T>` binding instead");
			else if (s->u.for_.own && ti->kind == TY_VEC)
				diag_set_help(d, "`for own` consumes an iterator: `for own item in vec_into_iter<T>(values) { … }`; `for item in values` borrows each element instead");
			else
				diag_set_help(d, s->u.for_.own ? "produce an iterator with `vec_into_iter<T>(values)`" : "iterate a `Vec<T>` binding: `for item in values { … }`");
		}
	}
	sema_scope_push(C);
	const char *iname = s->u.for_.item.s;
	bool declared;
	if (strcmp(iname, "_") != 0 && strcmp(iname, "result") != 0 && sema_local_find(C, iname)) {
		/* sema_local_declare's first line; a loop item is renamed, not `let mut` */
		Diag *d = sema_error(S, DIAG_T209, s->u.for_.item.span, "local binding `%s` shadows an existing value", iname);
		diag_set_help(d, "there is no shadowing: name the loop item differently, `for %s2 in …`", iname);
		declared = false;
	} else {
		declared = sema_local_declare(C, iname, item, false, s->u.for_.item.span);
	}
	if (declared && !s->u.for_.own)
		sema_local_lend(C, iname, MODE_BORROW);
	C->loop_depth++;
	if (s->u.for_.body)
		sema_check_block(C, s->u.for_.body);
	C->loop_depth--;
	sema_scope_pop(C);
}

static void
check_unsafe(FnCtx *C, const Stmt *s)
{
	Sema *S = C->S;
	if (C->in_contract) {
		sema_error(S, DIAG_N105, s->span, "unsafe boundary statements are not allowed in contract expressions");
		return;
	}
	bool permitted = false;
	for (int i = 0; i < S->npermits; i++)
		permitted |= strcmp(S->permits[i], "unsafe") == 0;
	if (!permitted) {
		Diag *d = sema_error(S, DIAG_N101, s->span, "unsafe block requires the module capability declaration `permit { unsafe }`");
		diag_set_help(d, "add `permit { unsafe }` at module level, below the `module` line");
	}
	if (!s->u.unsafe.has_audit) {
		Diag *d = sema_error(S, DIAG_N102, s->span, "unsafe block requires an `@audit(\"…\")` summary");
		/* no machine-applicable fix: an audit states why the block is safe,
		 * which only its author can say (a placeholder would verify) */
		diag_set_help(d, "write `@audit(\"why this is safe\")` on the `unsafe` line");
		goto body;
	}
	bool blank = true;
	for (uint32_t i = 0; i < s->u.unsafe.audit.len; i++)
		blank &= s->u.unsafe.audit.s[i] == ' ' || s->u.unsafe.audit.s[i] == '\t';
	if (blank) {
		Diag *d = sema_error(S, DIAG_N103, s->u.unsafe.audit.span, "the `@audit` summary is empty");
		diag_set_help(d, "say why the block is safe: `@audit(\"bounded copy of a checked length\")`");
	}
body:
	if (!s->u.unsafe.body)
		return;
	TypeId t = sema_check_block(C, s->u.unsafe.body);
	if (t != T_ERR && !sema_type_is_scalar(&S->types, t)) {
		Diag *d = sema_error(S, DIAG_N104, s->u.unsafe.body->span, "unsafe boundary bodies must produce a scalar Copy value");
		diag_set_help(d, "end the block with a scalar such as `0`");
	}
}

static void
sema_check_stmt(FnCtx *C, const Stmt *s)
{
	switch (s->kind) {
	case STMT_LET: check_let(C, s); break;
	case STMT_ASSIGN: check_assign(C, s); break;
	case STMT_WHILE: check_while(C, s); break;
	case STMT_FOR: check_for(C, s); break;
	case STMT_IF: sema_check_expr(C, s->u.if_); break;
	case STMT_UNSAFE: check_unsafe(C, s); break;
	}
}
