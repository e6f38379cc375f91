/*
 * lower.c — typed AST + Sema → HIR (hir.h).
 *
 * One walk per function: names become slots (scopes mirror the checker's),
 * expression types come from Sema.expr_type, callees from Sema.expr_sym /
 * call_builtin, and consuming reads of owned slots become HIR_MOVE (the
 * same consume rules as the ownership pass, own.c).  Closures are lifted to
 * functions of their own with their captures listed.
 */
#include "hir.h"

#include <string.h>

typedef struct Binding {
	const char *name;
	HirSlot slot;
	int prev;                 /* the binding of the same name this one hides, or -1 */
} Binding;

typedef VEC(HirSlot) SlotVec;

typedef struct Lower {
	HirModule *H;
	Sema *S;
	int func;                 /* index of the function being lowered */
	VEC(HirLocal) locals;
	VEC(Binding) scope;
	StrMap index;             /* name → index in scope of its innermost binding (-1: none) */
	StrMap captured;          /* closures: name → the slot of a captured parent binding */
	VEC(int) marks;
	SlotVec *owned;           /* the innermost block's owned list */
	uint32_t nexprs;
	struct Lower *parent;     /* closures: the enclosing function's lowering */
	SlotVec captures;         /* closures: parent slots captured, in first-use order */
	VEC(uint8_t) copied;      /* per slot: an owned copy of a value the checker binds as lent
	                             (`let mut w = a;` of a `borrow` a: check_let lends it, so a read
	                             after any use is admitted): never moved out by lowering */
} Lower;

static HirExpr *lower_expr(Lower *L, const Expr *e, bool move);

/* The symbol whose type parameters a type written in L's function may name:
 * a closure's is its enclosing named function's. */
static SymId
scope_sym(const Lower *L)
{
	while (L->parent && L->H->funcs[L->func].sym < 0)
		L = L->parent;
	return L->H->funcs[L->func].sym;
}
static HirBlock *lower_block(Lower *L, const Block *b, bool move_tail);

static Arena *
ar(Lower *L)
{
	return &L->H->arena;
}

/*
 * The bytes of a node of kind k: the header and its own union member only
 * (a slot read is 40 bytes instead of 88; a large program has hundreds of
 * thousands).  A node's kind never changes and nothing copies whole nodes;
 * under ASan each arena allocation is its own block, so the sanitized
 * suite checks that no reader reaches past a node (docs/DECISIONS.md).
 */
#define HIR_BYTES(member) (offsetof(HirExpr, u) + sizeof(((HirExpr *)0)->u.member))
static size_t
node_size(HirKind k)
{
	switch (k) {
	case HIR_INT: case HIR_FLOAT: case HIR_BOOL: case HIR_CHAR: case HIR_STRING:
		return HIR_BYTES(lit);
	case HIR_LOCAL: case HIR_MOVE: return HIR_BYTES(slot);
	case HIR_FUNC: case HIR_CALL: return HIR_BYTES(call);
	case HIR_UNARY: return HIR_BYTES(un);
	case HIR_BINARY: return HIR_BYTES(bin);
	case HIR_FIELD: return HIR_BYTES(field);
	case HIR_TRY: return HIR_BYTES(try_);
	case HIR_WITH: case HIR_RECORD: case HIR_VARIANT: return HIR_BYTES(agg);
	case HIR_BLOCK: return HIR_BYTES(block);
	case HIR_IF: return HIR_BYTES(if_);
	case HIR_MATCH: return HIR_BYTES(match);
	case HIR_CLOSURE: return HIR_BYTES(closure);
	case HIR_ARRAY: return HIR_BYTES(array);
	}
	return sizeof(HirExpr);
}

static HirExpr *
node(Lower *L, HirKind k, const Expr *e)
{
	HirExpr *h = arena_alloc(ar(L), node_size(k));
	h->kind = k;
	h->index = L->nexprs++;
	h->span = e ? e->span : (Span){ 0, 0 };
	h->type = e ? sema_expr_type(L->S, e->id) : T_ERR;
	return h;
}

static bool
owned_type(Lower *L, TypeId t)
{
	return t != T_ERR && !sema_is_copy(L->S, t);
}

static void
bind_name(Lower *L, const char *name, HirSlot s)
{
	Binding b = { name, s, sema_strmap_get(&L->index, name) };
	sema_strmap_set(&L->index, name, L->scope.len);
	VEC_PUSH(L->scope, b);
}

/* Ends the innermost scope: its bindings are dropped and the ones they hid restored. */
static void
pop_scope(Lower *L)
{
	int to = L->marks.items[--L->marks.len];
	while (L->scope.len > to) {
		const Binding *b = &L->scope.items[--L->scope.len];
		sema_strmap_set(&L->index, b->name, b->prev);
	}
}

static HirSlot
new_slot(Lower *L, const char *name, TypeId type, bool param, Span span, bool is_owned)
{
	HirLocal l = { name, type, is_owned, false, param, span, false };
	VEC_PUSH(L->locals, l);
	VEC_PUSH(L->copied, 0);
	HirSlot s = (HirSlot)(L->locals.len - 1);
	bind_name(L, name, s);
	if (is_owned && L->owned)
		VEC_PUSH(*L->owned, s);
	return s;
}

/* The slot a name denotes (one probe per level), or HIR_NO_SLOT. */
static HirSlot
lookup(Lower *L, const char *name)
{
	int i = sema_strmap_get(&L->index, name);
	if (i >= 0)
		return L->scope.items[i].slot;
	/* captures rank below every binding of the closure itself */
	i = sema_strmap_get(&L->captured, name);
	if (i >= 0)
		return (HirSlot)i;
	if (!L->parent)
		return HIR_NO_SLOT;
	/* A closure's free variable: capture the parent's slot (by value; Copy). */
	HirSlot ps = lookup(L->parent, name);
	if (ps == HIR_NO_SLOT)
		return HIR_NO_SLOT;
	VEC_PUSH(L->captures, ps);
	HirLocal pl = L->parent->locals.items[ps];
	HirLocal l = { pl.name, pl.type, false, false, true, pl.span, false };
	VEC_PUSH(L->locals, l);
	VEC_PUSH(L->copied, 0);
	HirSlot s = (HirSlot)(L->locals.len - 1);
	sema_strmap_set(&L->captured, pl.name, (int32_t)s);
	return s;
}

static HirExpr **
lower_list(Lower *L, Expr *const *xs, int n, const uint8_t *cons, int offset)
{
	HirExpr **out = ARENA_ARRAY(ar(L), HirExpr *, n ? n : 1);
	for (int i = 0; i < n; i++)
		out[i] = lower_expr(L, xs[i], cons ? cons[i + offset] != 0 : true);
	return out;
}

static HirExpr *
lower_name(Lower *L, const Expr *e, bool move)
{
	HirSlot s = lookup(L, e->u.name.s);
	if (s == HIR_NO_SLOT) {
		HirExpr *h = node(L, HIR_FUNC, e);
		h->u.call.kind = CALL_FN;
		h->u.call.fn = sema_expr_sym(L->S, e->id);
		return h;
	}
	bool take = move && L->locals.items[s].owned && !L->copied.items[s];
	HirExpr *h = node(L, take ? HIR_MOVE : HIR_LOCAL, e);
	h->u.slot = s;
	return h;
}

static HirStmt *stmt(Lower *L, HirStmtKind k, Span span);

/* Reads field `field` of the record in `slot`. */
static HirExpr *
slot_field(Lower *L, HirSlot slot, int field, TypeId type)
{
	HirExpr *base = node(L, HIR_LOCAL, NULL);
	base->u.slot = slot;
	base->type = L->locals.items[slot].type;
	HirExpr *h = node(L, HIR_FIELD, NULL);
	h->type = type;
	h->u.field.base = base;
	h->u.field.field = field;
	return h;
}

/* `mut fn(arg: i64) -> i64 { update(state, arg) }`: the carrier record
 * { update, state } with the state copied now (sema closure_mut.c). */
static HirExpr *
lower_mut_closure(Lower *L, const Expr *e)
{
	Sema *S = L->S;
	const Sym *carrier = sema_sym(S, S->sym_fn_mut);
	HirExpr *h = node(L, HIR_RECORD, e);
	h->u.agg.type_sym = S->sym_fn_mut;
	h->u.agg.case_index = -1;
	h->u.agg.n = 2;
	h->u.agg.fields = ARENA_ARRAY(ar(L), int, 2);
	h->u.agg.values = ARENA_ARRAY(ar(L), HirExpr *, 2);
	HirExpr *f = node(L, HIR_FUNC, NULL);
	f->type = carrier->nom->fields[0].type;
	f->u.call.kind = CALL_FN;
	f->u.call.fn = sema_expr_sym(S, e->id);
	h->u.agg.fields[0] = 0;
	h->u.agg.values[0] = f;
	h->u.agg.fields[1] = 1;
	h->u.agg.values[1] = lower_expr(L, e->u.closure.body->tail->u.call.args[0], false);
	return h;
}

/* `r(x)` of a mutable closure in slot r:
 *   { let mut_update = r.update; r.state = mut_update(r.state, x); r.state } */
static HirExpr *
lower_mut_call(Lower *L, const Expr *e, HirExpr *h, HirSlot r)
{
	Sema *S = L->S;
	const Sym *carrier = sema_sym(S, S->sym_fn_mut);
	TypeId ft = carrier->nom->fields[0].type;
	HirExpr *arg = lower_expr(L, e->u.call.args[0], false);
	VEC_PUSH(L->marks, L->scope.len);
	HirSlot tmp = new_slot(L, "mut_update", ft, false, e->span, false);
	HirStmt *let = stmt(L, HS_LET, e->span);
	let->slot = tmp;
	let->value = slot_field(L, r, 0, ft);
	h->u.call.kind = CALL_SLOT;
	h->u.call.callee = tmp;
	h->u.call.nargs = 2;
	h->u.call.args = ARENA_ARRAY(ar(L), HirExpr *, 2);
	h->u.call.args[0] = slot_field(L, r, 1, T_I64);
	h->u.call.args[1] = arg;
	h->u.call.targs = ARENA_ARRAY(ar(L), TypeId, 1);
	HirStmt *set = stmt(L, HS_SET_FIELD, e->span);
	set->slot = r;
	set->field = 1;
	set->value = h;
	pop_scope(L);
	HirExpr *b = node(L, HIR_BLOCK, e);
	HirBlock *blk = ARENA_NEW(ar(L), HirBlock);
	blk->nstmts = 2;
	blk->stmts = ARENA_ARRAY(ar(L), HirStmt *, 2);
	blk->stmts[0] = let;
	blk->stmts[1] = set;
	blk->tail = slot_field(L, r, 1, T_I64);
	blk->owned = ARENA_ARRAY(ar(L), HirSlot, 1);
	blk->nowned = 0;
	b->u.block = blk;
	return b;
}

static HirExpr *
lower_call(Lower *L, const Expr *e)
{
	Sema *S = L->S;
	HirExpr *h = node(L, HIR_CALL, e);
	const uint8_t *cons = S->call_consumes[ast_call_index(e)];
	HirSlot slot = lookup(L, e->u.call.callee.s);
	if (sema_closure_profile(S, e->id) == 3 && slot != HIR_NO_SLOT)
		return lower_mut_call(L, e, h, slot);
	if (sema_closure_profile(S, e->id) == 1 && slot != HIR_NO_SLOT) {
		/* `c()` of an owning closure: the target consuming the captured `Bytes` */
		h->u.call.kind = CALL_FN;
		h->u.call.fn = sema_expr_sym(S, e->id);
		h->u.call.targs = ARENA_ARRAY(ar(L), TypeId, 1);
		h->u.call.args = ARENA_ARRAY(ar(L), HirExpr *, 1);
		HirExpr *m = node(L, HIR_MOVE, NULL);
		m->type = T_BYTES;
		m->u.slot = slot;
		h->u.call.args[0] = m;
		h->u.call.nargs = 1;
		return h;
	}
	if (slot != HIR_NO_SLOT) {
		h->u.call.kind = CALL_SLOT;
		h->u.call.callee = slot;
	} else if (S->call_builtin[ast_call_index(e)]) {
		h->u.call.kind = CALL_BUILTIN;
		h->u.call.builtin = S->call_builtin[ast_call_index(e)];
	} else {
		h->u.call.kind = CALL_FN;
		h->u.call.fn = sema_expr_sym(S, e->id);
	}
	h->u.call.ntargs = e->u.call.ntargs;
	h->u.call.targs = ARENA_ARRAY(ar(L), TypeId, e->u.call.ntargs ? e->u.call.ntargs : 1);
	for (int i = 0; i < e->u.call.ntargs; i++)
		h->u.call.targs[i] = sema_decls_resolve_type(S, e->u.call.targs[i], scope_sym(L));
	h->u.call.args = lower_list(L, e->u.call.args, e->u.call.nargs, cons, 0);
	h->u.call.nargs = e->u.call.nargs;
	return h;
}

static HirExpr *
lower_method(Lower *L, const Expr *e, const Expr *recv, Expr *const *args, int nargs)
{
	Sema *S = L->S;
	HirExpr *h = node(L, HIR_CALL, e);
	const uint8_t *cons = S->call_consumes[ast_call_index(e)];
	h->u.call.kind = CALL_FN;
	h->u.call.fn = sema_expr_sym(S, e->id);
	h->u.call.ntargs = 0;
	const Sym *ms = sema_sym(S, h->u.call.fn);
	if (ms->ntparams > 0 && recv) {
		/* a method of a generic class takes the receiver's type arguments (check_method) */
		const TypeInfo *ti = sema_type_info(&S->types, sema_expr_type(S, recv->id));
		h->u.call.ntargs = ti->nargs;
		h->u.call.targs = ARENA_ARRAY(ar(L), TypeId, ti->nargs ? ti->nargs : 1);
		for (int i = 0; i < ti->nargs; i++)
			h->u.call.targs[i] = ti->args[i];
	}
	h->u.call.nargs = nargs + 1;
	h->u.call.args = ARENA_ARRAY(ar(L), HirExpr *, nargs + 1);
	if (recv) {
		h->u.call.args[0] = lower_expr(L, recv, cons ? cons[0] != 0 : true);
	} else {
		/* super.m(…): the receiver is `self`, parameter 0 */
		HirExpr *self = node(L, HIR_LOCAL, NULL);
		self->u.slot = 0;
		self->type = L->locals.items[0].type;
		h->u.call.args[0] = self;
	}
	for (int i = 0; i < nargs; i++)
		h->u.call.args[i + 1] = lower_expr(L, args[i], cons ? cons[i + 1] != 0 : true);
	return h;
}

static HirExpr *
lower_agg(Lower *L, HirKind k, const Expr *e, SymId sym, int ci, const FieldInit *inits, int n)
{
	Sema *S = L->S;
	HirExpr *h = node(L, k, e);
	h->u.agg.type_sym = sym;
	h->u.agg.case_index = ci;
	h->u.agg.n = n;
	h->u.agg.fields = ARENA_ARRAY(ar(L), int, n ? n : 1);
	h->u.agg.values = ARENA_ARRAY(ar(L), HirExpr *, n ? n : 1);
	Sym *s = sym >= 0 ? sema_sym(S, sym) : NULL;
	for (int i = 0; i < n; i++) {
		int idx = -1;
		if (s && ci >= 0)
			for (int j = 0; j < s->nom->cases[ci].nfields; j++)
				if (strcmp(s->nom->cases[ci].fields[j].name, inits[i].name.s) == 0)
					idx = j;
		if (s && ci < 0)
			idx = sema_field_index(S, sym, inits[i].name.s);
		h->u.agg.fields[i] = idx;
		h->u.agg.values[i] = lower_expr(L, inits[i].value, true);
	}
	return h;
}

/* Binds the slots a pattern introduces (types from the scrutinee). */
typedef struct BindCtx {
	Lower *L;
	bool borrowed;
	SlotVec *binds;
} BindCtx;

static void
bind_slot(void *ctx, const char *name, TypeId type, Span span)
{
	BindCtx *b = ctx;
	HirSlot s = new_slot(b->L, name, type, false, span, !b->borrowed && owned_type(b->L, type));
	b->L->locals.items[s].lent = b->borrowed;
	VEC_PUSH(*b->binds, s);
}

/*
 * The resolved pattern p over a value of type t.  Binding slots are made in
 * the order sema_pattern_binds reports them (pattern order); a field that
 * does not resolve (only in a module with errors) is left out.
 */
static HirPattern *lower_pattern(BindCtx *b, const Pattern *p, TypeId t);

static HirPattern *
pat_new(Lower *L, HirPatKind k, TypeId t, Span span)
{
	HirPattern *hp = ARENA_NEW(ar(L), HirPattern);
	hp->kind = k;
	hp->type = t;
	hp->span = span;
	hp->case_index = -1;
	return hp;
}

static HirPattern *
bind_pattern(BindCtx *b, const char *name, TypeId t, Span span)
{
	HirPattern *hp = pat_new(b->L, HIR_PAT_BIND, t, span);
	bind_slot(b, name, t, span);
	hp->slot = b->binds->items[b->binds->len - 1];
	return hp;
}

static void
lower_field_pats(BindCtx *b, HirPattern *hp, const FieldPat *fs, int n, TypeId t, int ci)
{
	Sema *S = b->L->S;
	SymId owner = (SymId)sema_type_info(&S->types, t)->decl;
	hp->fields = ARENA_ARRAY(ar(b->L), int, n ? n : 1);
	hp->subs = ARENA_ARRAY(ar(b->L), HirPattern *, n ? n : 1);
	for (int i = 0; i < n; i++) {
		const FieldPat *f = &fs[i];
		int fi = ci >= 0 ? sema_field_find(S, owner, ci, f->name.s, true) : sema_field_index(S, owner, f->name.s);
		if (fi < 0)
			continue;
		TypeId ft = ci >= 0 ? sema_case_field_type(S, t, ci, fi) : sema_field_type(S, t, fi);
		hp->fields[hp->nfields] = fi;
		hp->subs[hp->nfields++] = f->sub ? lower_pattern(b, f->sub, ft) : bind_pattern(b, f->name.s, ft, f->span);
	}
}

static HirPattern *
lower_pattern(BindCtx *b, const Pattern *p, TypeId t)
{
	Lower *L = b->L;
	Sema *S = L->S;
	const TypeInfo *ti = sema_type_info(&S->types, t);
	bool nominal = t != T_ERR && ti->kind == TY_NOMINAL;
	switch (p->kind) {
	case PAT_WILD:
		break;
	case PAT_BIND:
		if (t == T_ERR)
			break;
		return bind_pattern(b, p->u.bind.s, t, p->span);
	case PAT_LIT: {
		HirPattern *hp = pat_new(L, HIR_PAT_LIT, t, p->span);
		const Expr *x = p->u.lit.value;
		hp->lit.kind = x->kind == EXPR_BOOL ? HIR_BOOL : x->kind == EXPR_CHAR ? HIR_CHAR : x->kind == EXPR_INT ? HIR_INT : HIR_STRING;
		if (x->kind == EXPR_BOOL)
			hp->lit.b = x->u.bool_lit.value;
		else if (x->kind == EXPR_CHAR)
			hp->lit.ch = x->u.char_lit.value;
		else if (x->kind == EXPR_INT) {
			hp->lit.i = x->u.int_lit.value;
			hp->lit.negative = p->u.lit.negative || x->lit_negative;
		}
		return hp;
	}
	case PAT_OR: {
		HirPattern *hp = pat_new(L, HIR_PAT_OR, t, p->span);
		hp->nalts = p->u.or.nalts;
		hp->alts = ARENA_ARRAY(ar(L), HirPattern *, hp->nalts ? hp->nalts : 1);
		for (int i = 0; i < hp->nalts; i++)
			hp->alts[i] = lower_pattern(b, p->u.or.alts[i], t);
		return hp;
	}
	case PAT_CASE: {
		HirPattern *hp = pat_new(L, HIR_PAT_CASE, t, p->span);
		if (nominal)
			hp->case_index = sema_case_index(S, (SymId)ti->decl, p->u.case_.case_name.s);
		if (hp->case_index >= 0)
			lower_field_pats(b, hp, p->u.case_.fields, p->u.case_.nfields, t, hp->case_index);
		return hp;
	}
	case PAT_RECORD: {
		HirPattern *hp = pat_new(L, HIR_PAT_RECORD, t, p->span);
		if (nominal)
			lower_field_pats(b, hp, p->u.record.fields, p->u.record.nfields, t, -1);
		return hp;
	}
	}
	return pat_new(L, HIR_PAT_WILD, t, p->span);
}

static HirExpr *
lower_match(Lower *L, const Expr *e, bool move)
{
	Sema *S = L->S;
	HirExpr *h = node(L, HIR_MATCH, e);
	h->u.match.mode = e->u.match.mode;
	h->u.match.scrutinee = lower_expr(L, e->u.match.scrutinee, e->u.match.mode == MATCH_OWN);
	TypeId st = sema_expr_type(S, e->u.match.scrutinee->id);
	h->u.match.narms = e->u.match.narms;
	h->u.match.arms = ARENA_ARRAY(ar(L), HirArm, e->u.match.narms ? e->u.match.narms : 1);
	for (int i = 0; i < e->u.match.narms; i++) {
		const MatchArm *a = &e->u.match.arms[i];
		HirArm *ha = &h->u.match.arms[i];
		VEC_PUSH(L->marks, L->scope.len);
		SlotVec *outer = L->owned;
		SlotVec arm_owned = {0};
		L->owned = &arm_owned;
		SlotVec binds = {0};
		BindCtx bc = { L, e->u.match.mode != MATCH_OWN, &binds };
		ha->pat = lower_pattern(&bc, a->pat, st);
		ha->src = a->pat;
		ha->case_index = ha->pat->kind == HIR_PAT_CASE ? ha->pat->case_index : -1;
		ha->binds = ARENA_COPY_VEC(ar(L), HirSlot, binds);
		ha->nbinds = binds.len;
		VEC_FREE(binds);
		ha->guard = a->guard ? lower_expr(L, a->guard, false) : NULL;
		ha->value = lower_expr(L, a->value, move);
		ha->scope = ARENA_NEW(ar(L), HirBlock);
		ha->scope->owned = ARENA_COPY_VEC(ar(L), HirSlot, arm_owned);
		ha->scope->nowned = arm_owned.len;
		VEC_FREE(arm_owned);
		L->owned = outer;
		pop_scope(L);
	}
	return h;
}

static int add_func(HirModule *H);
static void finish_func(Lower *L, HirFunc *f);

static HirExpr *
lower_closure(Lower *L, const Expr *e)
{
	HirExpr *h = node(L, HIR_CLOSURE, e);
	int fi = add_func(L->H);
	Lower C;
	memset(&C, 0, sizeof C);
	C.H = L->H;
	C.S = L->S;
	C.func = fi;
	C.parent = L;
	HirFunc *f = &L->H->funcs[fi];
	f->sym = -1;
	f->kind = HIR_FUNC_CLOSURE;
	f->name = "closure";
	f->id = arena_printf(ar(L), "%s:closure:%u", L->H->funcs[L->func].id, h->index);
	f->report_id = f->id;
	SlotVec owned = {0};
	C.owned = &owned;
	const TypeInfo *ti = sema_type_info(&L->S->types, h->type);
	for (int i = 0; i < e->u.closure.nparams; i++) {
		TypeId pt = ti->kind == TY_FN && i < ti->nargs - 1 ? ti->args[i] : T_ERR;
		new_slot(&C, e->u.closure.params[i].name.s, pt, true, e->u.closure.params[i].name.span, false);
	}
	L->H->funcs[fi].nparams = e->u.closure.nparams;
	L->H->funcs[fi].result = ti->kind == TY_FN ? ti->args[ti->nargs - 1] : T_ERR;
	HirBlock *body = lower_block(&C, e->u.closure.body, true);
	f = &L->H->funcs[fi];
	f->body = body;
	finish_func(&C, f);
	h->u.closure.func = fi;
	h->u.closure.ncaptures = C.captures.len;
	h->u.closure.captures = ARENA_COPY_VEC(ar(L), HirSlot, C.captures);
	VEC_FREE(C.captures);
	VEC_FREE(owned);
	return h;
}

/* Does h always produce a fresh owned value (never a read of a slot or a lent place)? */
static bool
fresh(void *ctx, const HirExpr *h)
{
	Lower *L = ctx;
	if (!h || !owned_type(L, h->type) || sema_type_info(&L->S->types, h->type)->kind == TY_PARAM)
		return false;
	switch (h->kind) {
	case HIR_STRING: case HIR_CALL: case HIR_RECORD: case HIR_VARIANT: case HIR_WITH: case HIR_TRY:
		return true;
	default:
		return hir_branch_results_all(h, fresh, L);
	}
}

static HirExpr *lower_expr_node(Lower *L, const Expr *e, bool move);

/* Is h read in place from a lent parameter: a pinned slot (a `borrow` or
 * `shared` parameter, or an alias of a path of one), a (non-take) field
 * path of it, or a branch value that lends? A lent parameter is neither
 * moved nor replaced while the function runs, so such a read outlives every
 * scope of the function — unlike a `match borrow` or `for` binding, or an
 * alias of one, whose owner may change once its loan ends. */
static bool
reads_lent_param(void *ctx, const HirExpr *h)
{
	Lower *L = ctx;
	if (!h)
		return false;
	if (h->kind == HIR_BLOCK || h->kind == HIR_IF || h->kind == HIR_MATCH)
		return h->lends;
	while (h->kind == HIR_FIELD && !h->u.field.take)
		h = h->u.field.base;
	return h->kind == HIR_LOCAL && L->locals.items[h->u.slot].pinned;
}

/* Sets h->lends for a block, an `if` with `else` or a match (HirExpr.lends). */
static void
lends(Lower *L, HirExpr *h)
{
	if (!owned_type(L, h->type) || sema_type_info(&L->S->types, h->type)->kind == TY_PARAM)
		return;
	h->lends = hir_branch_results_all(h, reads_lent_param, L);
}

/* Lowers e; a fresh owned value in a lending position (move false) is marked a temporary. */
static HirExpr *
lower_expr(Lower *L, const Expr *e, bool move)
{
	HirExpr *h = lower_expr_node(L, e, move);
	if (!move && fresh(L, h))
		h->temp = true;
	return h;
}

static HirExpr *
lower_expr_node(Lower *L, const Expr *e, bool move)
{
	Sema *S = L->S;
	HirExpr *h;
	switch (e->kind) {
	case EXPR_INT:
		h = node(L, HIR_INT, e);
		h->u.lit.i = e->u.int_lit.value;
		h->u.lit.negative = e->lit_negative;
		return h;
	case EXPR_FLOAT:
		h = node(L, HIR_FLOAT, e);
		h->u.lit.f = e->u.float_lit.value;
		return h;
	case EXPR_CHAR:
		h = node(L, HIR_CHAR, e);
		h->u.lit.ch = e->u.char_lit.value;
		return h;
	case EXPR_STRING:
		h = node(L, HIR_STRING, e);
		h->u.lit.s = e->u.str.s;
		h->u.lit.n = e->u.str.len;
		return h;
	case EXPR_BOOL:
		h = node(L, HIR_BOOL, e);
		h->u.lit.b = e->u.bool_lit.value;
		return h;
	case EXPR_NAME:
		return lower_name(L, e, move);
	case EXPR_UNARY:
		h = node(L, HIR_UNARY, e);
		h->u.un.op = e->un_op;
		h->u.un.x = lower_expr(L, e->u.unary.operand, false);
		return h;
	case EXPR_BINARY:
		h = node(L, HIR_BINARY, e);
		h->u.bin.op = e->bin_op;
		h->u.bin.l = lower_expr(L, e->u.binary.lhs, false);
		h->u.bin.r = lower_expr(L, e->u.binary.rhs, false);
		return h;
	case EXPR_CALL:
		return lower_call(L, e);
	case EXPR_METHOD:
		return lower_method(L, e, e->u.method.recv, e->u.method.args, e->u.method.nargs);
	case EXPR_SUPER:
		return lower_method(L, e, NULL, e->u.super_.args, e->u.super_.nargs);
	case EXPR_FIELD: {
		h = node(L, HIR_FIELD, e);
		(void)move;
		TypeId bt = sema_expr_type(S, e->u.field.base->id);
		h->u.field.base = lower_expr(L, e->u.field.base, false);
		const TypeInfo *ti = sema_type_info(&S->types, bt);
		h->u.field.field = ti->kind == TY_NOMINAL ? sema_field_index(S, (SymId)ti->decl, e->u.field.name.s) : -1;
		/* never out of a lent slot's path (`let w = if c { r.m } else { … }` of a
		 * `borrow` r): the value there is copied, as every lent value in a consuming
		 * position (the Wasm lane zeroed its flat copy of r and freed the caller's Map) */
		const HirExpr *root = h->u.field.base;
		while (root->kind == HIR_FIELD)
			root = root->u.field.base;
		h->u.field.take = move && owned_type(L, h->type) &&
				  !(root->kind == HIR_LOCAL && (L->locals.items[root->u.slot].lent || L->copied.items[root->u.slot]));
		return h;
	}
	case EXPR_TRY: {
		h = node(L, HIR_TRY, e);
		TypeId ot = sema_expr_type(S, e->u.try_.operand->id);
		h->u.try_.x = lower_expr(L, e->u.try_.operand, true);
		const TypeInfo *ti = sema_type_info(&S->types, ot);
		h->u.try_.option = ti->kind == TY_NOMINAL && (SymId)ti->decl == S->sym_option;
		return h;
	}
	case EXPR_WITH: {
		TypeId bt = sema_expr_type(S, e->u.with.base->id);
		const TypeInfo *ti = sema_type_info(&S->types, bt);
		HirExpr *base = lower_expr(L, e->u.with.base, true);
		h = lower_agg(L, HIR_WITH, e, ti->kind == TY_NOMINAL ? (SymId)ti->decl : -1, -1, e->u.with.inits, e->u.with.ninits);
		h->u.agg.base = base;
		return h;
	}
	case EXPR_RECORD:
		return lower_agg(L, HIR_RECORD, e, sema_expr_sym(S, e->id), -1, e->u.record.inits, e->u.record.ninits);
	case EXPR_VARIANT: {
		SymId v = sema_expr_sym(S, e->id);
		int ci = v >= 0 ? sema_case_index(S, v, e->u.variant.case_name.s) : -1;
		return lower_agg(L, HIR_VARIANT, e, v, ci, e->u.variant.inits, e->u.variant.ninits);
	}
	case EXPR_BLOCK:
		h = node(L, HIR_BLOCK, e);
		h->u.block = lower_block(L, e->u.block, move);
		lends(L, h);
		return h;
	case EXPR_IF:
		h = node(L, HIR_IF, e);
		h->u.if_.cond = lower_expr(L, e->u.if_.cond, false);
		h->u.if_.then_ = e->u.if_.then_block ? lower_block(L, e->u.if_.then_block, move) : NULL;
		h->u.if_.else_ = e->u.if_.else_block ? lower_block(L, e->u.if_.else_block, move) : NULL;
		lends(L, h);
		return h;
	case EXPR_MATCH:
		h = lower_match(L, e, move);
		lends(L, h);
		return h;
	case EXPR_CLOSURE:
		if (e->u.closure.mut)
			return lower_mut_closure(L, e);
		if (e->u.closure.own)  /* an owning closure is its captured `Bytes`, moved (closure_own.c) */
			return lower_expr(L, sema_own_capture(e), true);
		return lower_closure(L, e);
	case EXPR_ARRAY:
		h = node(L, HIR_ARRAY, e);
		h->u.array.n = e->u.array.nelems;
		h->u.array.elems = lower_list(L, e->u.array.elems, e->u.array.nelems, NULL, 0);
		return h;
	}
	UNREACHABLE();
	return NULL;
}

/* A non-Copy value read in place from a lent binding: the binding or a field path of it. */
static bool
lent_place(Lower *L, const Expr *e)
{
	if (!sema_lent_value(L->S, e))
		return false;
	while (e->kind == EXPR_FIELD)
		e = e->u.field.base;
	if (e->kind != EXPR_NAME)
		return false;
	HirSlot i = lookup(L, e->u.name.s);
	return i != HIR_NO_SLOT && L->locals.items[i].lent;
}

static HirStmt *
stmt(Lower *L, HirStmtKind k, Span span)
{
	HirStmt *s = ARENA_NEW(ar(L), HirStmt);
	s->kind = k;
	s->span = span;
	s->slot = HIR_NO_SLOT;
	s->field = -1;
	return s;
}

static HirStmt *
lower_stmt(Lower *L, const Stmt *s)
{
	Sema *S = L->S;
	HirStmt *h;
	switch (s->kind) {
	case STMT_LET: {
		h = stmt(L, HS_LET, s->span);
		const Expr *v = s->u.let.value;
		bool named = strcmp(s->u.let.name.s, "_") != 0;
		/* an immutable alias of a lent place reads it in place (check_let); any other
		 * lent value is copied into the new owner, as in every consuming position */
		bool alias = named && !s->u.let.mut && lent_place(L, v);
		h->value = lower_expr(L, v, !alias);
		/* so is a branch value lending a lent parameter's path (HirExpr.lends), which the
		 * checker binds as an alias too (check_let): read in place, no copy.  Its
		 * results are lent reads, lowered alike in either position (no move, no take) */
		alias |= named && !s->u.let.mut && h->value->lends && sema_lent_value(S, v);
		TypeId t = s->u.let.type ? sema_decls_resolve_type(S, s->u.let.type, scope_sym(L)) : h->value->type;
		if (named) {
			bool pinned = alias && reads_lent_param(L, h->value);
			h->slot = new_slot(L, s->u.let.name.s, t, false, s->u.let.name.span, !alias && owned_type(L, t));
			L->locals.items[h->slot].lent = alias;
			L->locals.items[h->slot].pinned = pinned;
			L->copied.items[h->slot] = !alias && v && sema_lent_value(S, v);
		}
		return h;
	}
	case STMT_ASSIGN: {
		HirSlot i = lookup(L, s->u.assign.target.s);
		h = stmt(L, s->u.assign.has_field ? HS_SET_FIELD : HS_ASSIGN, s->span);
		h->value = lower_expr(L, s->u.assign.value, true);
		h->slot = i;
		if (s->u.assign.has_field && i != HIR_NO_SLOT) {
			const TypeInfo *ti = sema_type_info(&S->types, L->locals.items[h->slot].type);
			h->field = ti->kind == TY_NOMINAL ? sema_field_index(S, (SymId)ti->decl, s->u.assign.field.s) : -1;
		}
		return h;
	}
	case STMT_WHILE:
		h = stmt(L, HS_WHILE, s->span);
		h->value = lower_expr(L, s->u.while_.cond, false);
		h->body = lower_block(L, s->u.while_.body, false);
		return h;
	case STMT_FOR: {
		h = stmt(L, HS_FOR, s->span);
		h->own = s->u.for_.own;
		h->value = lower_expr(L, s->u.for_.iter, s->u.for_.own);
		TypeId it = h->value->type;
		const TypeInfo *ti = sema_type_info(&S->types, it);
		TypeId item = ti->nargs ? ti->args[0] : T_ERR;
		VEC_PUSH(L->marks, L->scope.len);
		h->slot = new_slot(L, s->u.for_.item.s, item, false, s->u.for_.item.span, false);
		/* a borrowing loop lends each element; a consuming one (`for own`, an Iter) hands each
		 * element to the body, whose scope releases it at the end of every iteration */
		bool consume = s->u.for_.own || ti->kind == TY_ITER;
		L->locals.items[h->slot].lent = !consume;
		h->body = lower_block(L, s->u.for_.body, false);
		if (consume && owned_type(L, item) && sema_type_info(&S->types, item)->kind != TY_PARAM) {
			/* first in the body's owned list: initialised before its locals, released after them */
			L->locals.items[h->slot].owned = true;
			HirBlock *b = h->body;
			HirSlot *owned = ARENA_ARRAY(ar(L), HirSlot, b->nowned + 1);
			owned[0] = h->slot;
			if (b->nowned)
				memcpy(owned + 1, b->owned, sizeof(HirSlot) * (size_t)b->nowned);
			b->owned = owned;
			b->nowned++;
		}
		pop_scope(L);
		return h;
	}
	case STMT_IF:
		h = stmt(L, HS_EXPR, s->span);
		h->value = lower_expr(L, s->u.if_, false);
		return h;
	case STMT_UNSAFE:
		h = stmt(L, HS_UNSAFE, s->span);
		h->body = s->u.unsafe.body ? lower_block(L, s->u.unsafe.body, false) : NULL;
		return h;
	}
	UNREACHABLE();
	return NULL;
}

static HirBlock *
lower_block(Lower *L, const Block *b, bool move_tail)
{
	HirBlock *h = ARENA_NEW(ar(L), HirBlock);
	SlotVec owned = {0};
	SlotVec *outer = L->owned;
	L->owned = &owned;
	VEC_PUSH(L->marks, L->scope.len);
	h->nstmts = b->nstmts;
	h->stmts = ARENA_ARRAY(ar(L), HirStmt *, b->nstmts ? b->nstmts : 1);
	for (int i = 0; i < b->nstmts; i++)
		h->stmts[i] = lower_stmt(L, b->stmts[i]);
	h->tail = b->tail ? lower_expr(L, b->tail, move_tail) : NULL;
	pop_scope(L);
	h->owned = ARENA_COPY_VEC(ar(L), HirSlot, owned);
	h->nowned = owned.len;
	VEC_FREE(owned);
	L->owned = outer;
	return h;
}

static int
add_func(HirModule *H)
{
	if (H->nfuncs == H->capfuncs) {
		H->capfuncs = H->capfuncs ? H->capfuncs * 2 : 16;
		H->funcs = spx_xrealloc(H->funcs, sizeof(HirFunc) * (size_t)H->capfuncs);
	}
	memset(&H->funcs[H->nfuncs], 0, sizeof(HirFunc));
	H->funcs[H->nfuncs].result_slot = HIR_NO_SLOT;
	return H->nfuncs++;
}

static void
finish_func(Lower *L, HirFunc *f)
{
	f->locals = ARENA_COPY_VEC(ar(L), HirLocal, L->locals);
	f->nlocals = L->locals.len;
	f->nexprs = L->nexprs;
	VEC_FREE(L->locals);
	VEC_FREE(L->copied);
	VEC_FREE(L->scope);
	sema_strmap_free(&L->index);
	sema_strmap_free(&L->captured);
	VEC_FREE(L->marks);
}

static void
lower_function(HirModule *H, SymId id)
{
	Sema *S = H->S;
	Sym *sym = sema_sym(S, id);
	int fi = add_func(H);
	Lower L;
	memset(&L, 0, sizeof L);
	L.H = H;
	L.S = S;
	L.func = fi;
	HirFunc *f = &H->funcs[fi];
	f->sym = id;
	f->kind = HIR_FUNC_DECL;
	f->name = sym->name;
	f->id = sym->id;
	f->report_id = sym->id;
	f->result = sym->result;
	f->nparams = sym->nparams;
	SlotVec params_owned = {0};
	L.owned = &params_owned;
	for (int i = 0; i < sym->nparams; i++) {
		const ParamSym *p = &sym->params[i];
		HirSlot ps = new_slot(&L, p->name, p->type, true, p->span, p->mode != MODE_BORROW && p->mode != MODE_SHARED && owned_type(&L, p->type));
		L.locals.items[ps].lent = L.locals.items[ps].pinned = p->mode == MODE_BORROW || p->mode == MODE_SHARED;
	}
	const FnDecl *fn = sym->fn;
	VEC(HirExpr *) req = {0};
	VEC(HirExpr *) ens = {0};
	for (int i = 0; i < fn->nclauses; i++)
		if (fn->clauses[i].kind == CLAUSE_REQUIRES)
			VEC_PUSH(req, lower_expr(&L, fn->clauses[i].cond, false));
	HirBlock *body = lower_block(&L, fn->body, true);
	/* `result` in ensures is a slot of its own, bound to the returned value. */
	HirSlot rs = HIR_NO_SLOT;
	bool any_ensures = false;
	for (int i = 0; i < fn->nclauses; i++)
		any_ensures |= fn->clauses[i].kind == CLAUSE_ENSURES;
	if (any_ensures) {
		VEC_PUSH(L.marks, L.scope.len);
		rs = new_slot(&L, "result", sym->result, false, fn->name.span, false);
		L.locals.items[rs].lent = true;
		for (int i = 0; i < fn->nclauses; i++)
			if (fn->clauses[i].kind == CLAUSE_ENSURES)
				VEC_PUSH(ens, lower_expr(&L, fn->clauses[i].cond, false));
		pop_scope(&L);
	}
	f = &H->funcs[fi];
	f->result_slot = rs;
	/* Owned parameters are released with the body's scope, after its locals. */
	HirSlot *owned = ARENA_ARRAY(&H->arena, HirSlot, params_owned.len + body->nowned + 1);
	if (params_owned.len)
		memcpy(owned, params_owned.items, sizeof(HirSlot) * (size_t)params_owned.len);
	if (body->nowned)
		memcpy(owned + params_owned.len, body->owned, sizeof(HirSlot) * (size_t)body->nowned);
	body->owned = owned;
	body->nowned += params_owned.len;
	f->body = body;
	f->requires = ARENA_COPY_VEC(&H->arena, HirExpr *, req);
	f->nrequires = req.len;
	f->ensures = ARENA_COPY_VEC(&H->arena, HirExpr *, ens);
	f->nensures = ens.len;
	f->clauses = fn->clauses;
	VEC_FREE(req);
	VEC_FREE(ens);
	VEC_FREE(params_owned);
	finish_func(&L, f);
}

/* A record's invariants as a function of its fields (see HirModule.invariants). */
static void
lower_invariants(HirModule *H, SymId id)
{
	Sema *S = H->S;
	Sym *r = sema_sym(S, id);
	const Decl *d = r->decl;
	int fi = add_func(H);
	H->invariants[id] = fi;
	Lower L;
	memset(&L, 0, sizeof L);
	L.H = H;
	L.S = S;
	L.func = fi;
	HirFunc *f = &H->funcs[fi];
	f->sym = -1;
	f->kind = HIR_FUNC_INVARIANT;
	f->name = r->name;
	f->id = arena_printf(&H->arena, "%s:invariants", r->id);
	f->report_id = r->id;
	f->result = T_BOOL;
	f->nparams = r->nom->nfields;
	/* the fields are lent: the check reads the record being produced */
	for (int i = 0; i < r->nom->nfields; i++) {
		HirSlot ps = new_slot(&L, r->nom->fields[i].name, r->nom->fields[i].type, true, r->nom->fields[i].span, false);
		L.locals.items[ps].lent = true;
	}
	HirExpr **req = ARENA_ARRAY(&H->arena, HirExpr *, d->u.record.ninvariants);
	for (int i = 0; i < d->u.record.ninvariants; i++)
		req[i] = lower_expr(&L, d->u.record.invariants[i].cond, false);
	HirBlock *body = ARENA_NEW(&H->arena, HirBlock);
	body->tail = node(&L, HIR_BOOL, NULL);
	body->tail->type = T_BOOL;
	body->tail->u.lit.b = true;
	f = &H->funcs[fi];
	f->requires = req;
	f->nrequires = d->u.record.ninvariants;
	f->clauses = d->u.record.invariants;
	f->body = body;
	finish_func(&L, f);
}

HirModule *
hir_lower(Sema *S)
{
	HirModule *H = spx_xcalloc(1, sizeof *H);
	H->S = S;
	arena_init(&H->arena);
	arena_take_tail(&H->arena, &S->arena);   /* hir_free runs before sema_free */
	H->invariants = spx_xmalloc(sizeof(int32_t) * (size_t)(S->syms.len ? S->syms.len : 1));
	for (SymId id = 0; id < S->syms.len; id++)
		H->invariants[id] = -1;
	for (SymId id = 0; id < S->syms.len; id++) {
		Sym *s = sema_sym(S, id);
		if ((s->kind == SK_FN || s->kind == SK_METHOD) && s->fn && s->fn->body)
			lower_function(H, id);
	}
	for (SymId id = 0; id < S->syms.len; id++) {
		Sym *s = sema_sym(S, id);
		if (s->kind == SK_RECORD && s->decl && s->decl->u.record.ninvariants && !s->ntparams)
			lower_invariants(H, id);
	}
	hir_last_use(H);
	return H;
}

void
hir_free(HirModule *H)
{
	if (!H)
		return;
	free(H->funcs);
	free(H->invariants);
	arena_free(&H->arena);
	free(H);
}
