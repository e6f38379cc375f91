/*
 * compile.c — lowers every HIR function into the interpreter's executable
 * form (node.h) before the run: chooses each node's function by static
 * type and operand shape, resolves callees, builtin dispatch indices,
 * field paths, case and field indices of patterns, and record invariant
 * functions.  Linear in the size of the module; nodes live in I->code.
 */
#include "node.h"

#include <string.h>

typedef struct Comp {
	Interp *I;
	const HirFunc *f;
	int mod;          /* the module being compiled (index in I->mods) */
	HirModule *H;
	Sema *S;
	int views;        /* view builtins compiled in the current block (outside nested blocks) */
} Comp;

static Node *compile_expr(Comp *C, const HirExpr *e);
static Node *fuse_cond(Node *n, int use);
static CBlock *compile_block(Comp *C, const HirBlock *b);

static inline bool
emitc_is_scalar(TypeId t)
{
	return t >= TYPE_FIRST_SCALAR && t <= TYPE_LAST_SCALAR;
}

/* Whether a slot of type t never owns heap storage: a scalar, or a str or
 * Slice<u8> view (V_VIEW, which borrows; value.h), so its frame need not
 * sweep it. */
static inline bool
never_owns(TypeId t)
{
	return emitc_is_scalar(t) || t == TY_STR || t == TY_SLICE;
}

static Node *
node_new(Comp *C, NodeFn fn, const HirExpr *e)
{
	Node *n = ARENA_NEW(&C->I->code, Node);
	n->fn = fn;
	n->steps = 1;
	n->e = e;
	n->op = -1;
	return n;
}

static VTag
scalar_tag(TypeId t)
{
	switch (t) {
	case TY_I32: return V_I32;
	case TY_U8: return V_U8;
	case TY_USIZE: return V_USIZE;
	case TY_F32: return V_F32;
	case TY_F64: return V_F64;
	case TY_BOOL: return V_BOOL;
	case TY_CHAR: return V_CHAR;
	default: return V_I64;
	}
}

/* The value of a scalar literal expression. */
static Value
literal(const HirExpr *e)
{
	Value v;
	switch (e->kind) {
	case HIR_INT:
		v = v_int(scalar_tag(e->type), 0);
		v.u = e->u.lit.negative ? (uint64_t)0 - e->u.lit.i : e->u.lit.i;
		return v;
	case HIR_FLOAT:
		v = v_int(e->type == TY_F32 ? V_F32 : V_F64, 0);
		if (v.tag == V_F32)
			v.f32 = (float)e->u.lit.f;
		else
			v.f = e->u.lit.f;
		return v;
	case HIR_BOOL:
		return v_bool(e->u.lit.b);
	case HIR_CHAR:
		v = v_int(V_CHAR, 0);
		v.u = e->u.lit.ch;
		return v;
	default:
		UNREACHABLE();
		return v_empty();
	}
}

static bool
is_literal(const HirExpr *e)
{
	return e->kind == HIR_INT || e->kind == HIR_FLOAT || e->kind == HIR_BOOL || e->kind == HIR_CHAR;
}

static bool
is_scalar_slot(const HirExpr *e)
{
	return e->kind == HIR_LOCAL && emitc_is_scalar(e->type);
}

static Node **
compile_exprs(Comp *C, HirExpr *const *xs, int n)
{
	Node **out = ARENA_ARRAY(&C->I->code, Node *, n ? n : 1);
	for (int i = 0; i < n; i++)
		out[i] = compile_expr(C, xs[i]);
	return out;
}

/* The module and symbol that declare sym of the module being compiled:
 * itself, or for an import (Sym.origin) the symbol of that stable id in the
 * module of that name; false when the image has no such module. */
static bool
declaring(Comp *C, SymId sym, int *mod, SymId *out)
{
	*mod = C->mod;
	*out = sym;
	const Sym *y = sym >= 0 && sym < C->S->syms.len ? &C->S->syms.items[sym] : NULL;
	if (!y || !y->origin)
		return sym >= 0;
	int m = sema_strmap_get(&C->I->modnames, y->origin);
	if (m < 0)
		return false;
	*mod = m;
	*out = sema_strmap_get(&C->I->mods[m]->S->ids, y->id);
	return *out >= 0;
}

/* The global cf index of the function sym names, or -1. */
static int
func_index(Comp *C, SymId sym)
{
	int m;
	SymId s;
	if (!declaring(C, sym, &m, &s))
		return -1;
	int fi = C->I->symfuncs[m][s];
	return fi < 0 ? -1 : C->I->base[m] + fi;
}

static CFunc *
func_of_sym(Comp *C, SymId sym)
{
	int fi = func_index(C, sym);
	return fi < 0 ? NULL : &C->I->cf[fi];
}

static CFunc *
invariant_of(Comp *C, SymId sym)
{
	int m;
	SymId s;
	if (!declaring(C, sym, &m, &s))
		return NULL;
	int fi = C->I->mods[m]->invariants[s];
	return fi < 0 ? NULL : &C->I->cf[C->I->base[m] + fi];
}

static SymId
type_sym(Comp *C, TypeId t)
{
	const TypeInfo *ti = sema_type_info(&C->S->types, t);
	return ti->kind == TY_NOMINAL ? (SymId)ti->decl : -1;
}

static Node *
binary(Comp *C, const HirExpr *e)
{
	const HirExpr *l = e->u.bin.l, *r = e->u.bin.r;
	BinaryOp op = e->u.bin.op;
	if (op == BIN_AND || op == BIN_OR) {
		Node *n = node_new(C, op == BIN_AND ? interp_x_and : interp_x_or, e);
		n->x = compile_expr(C, l);
		n->y = compile_expr(C, r);
		return n;
	}
	bool ls = is_scalar_slot(l), rs = is_scalar_slot(r), rk = is_literal(r);
	bool lk = !ls && !rk && is_literal(l);   /* a literal left operand (KS, KN) */
	int shape = ls ? (rs ? SHAPE_SS : rk ? SHAPE_SK : SHAPE_SN)
		  : lk ? (rs ? SHAPE_KS : SHAPE_KN)
		       : (rs ? SHAPE_NS : rk ? SHAPE_NK : SHAPE_NN);
	Value kv = rk ? literal(r) : v_empty();
	NodeFn fn = interp_scalar_binary_fn(op, l->type, shape, rk ? &kv : NULL);
	Node *n;
	if (!fn) {
		n = node_new(C, interp_x_binary, e);
		n->op = (int32_t)op;
		n->x = compile_expr(C, l);
		n->y = compile_expr(C, r);
		return n;
	}
	n = node_new(C, fn, e);
	n->op = (int32_t)op;
	if (ls)
		n->a = l->u.slot;
	else if (lk)
		n->k = literal(l);
	else
		n->x = compile_expr(C, l);
	if (rs)
		n->b = r->u.slot;
	else if (rk)
		n->k = literal(r);
	else
		n->y = compile_expr(C, r);
	return n;
}

static Node *
call(Comp *C, const HirExpr *e)
{
	Node *n;
	switch (e->u.call.kind) {
	case CALL_FN:
		n = node_new(C, interp_x_call, e);
		n->callee = func_of_sym(C, e->u.call.fn);
		break;
	case CALL_SLOT:
		n = node_new(C, interp_x_call_slot, e);
		n->a = e->u.call.callee;
		break;
	case CALL_BUILTIN: {
		n = node_new(C, interp_x_builtin, e);
		int bi = interp_rt_builtin_index(e->u.call.builtin->bid);
		n->op = bi;
		if (bi >= 0) {
			if (interp_rt_builtin_view(bi)) {
				n->flags |= 1;
				C->views++;
			}
			for (int i = 0; i < e->u.call.nargs && i < 31; i++)
				if (interp_rt_builtin_borrows(bi, i))
					n->flags |= (uint32_t)1 << (i + 1);
		}
		break;
	}
	default:
		UNREACHABLE();
		return NULL;
	}
	n->kids = compile_exprs(C, e->u.call.args, e->u.call.nargs);
	n->nkids = e->u.call.nargs;
	NodeFn fast = n->op >= 0 && e->u.call.kind == CALL_BUILTIN ? interp_builtin_fn(n->op, e) : NULL;
	if (fast) {
		if (interp_builtin_is_view_slot(fast))
			C->views--;   /* a view of the slot itself: no temporary to release */
		n->fn = fast;
		if (e->u.call.args[0]->kind == HIR_LOCAL)
			n->a = e->u.call.args[0]->u.slot;
	}
	return n;
}

static Node *
field(Comp *C, const HirExpr *e)
{
	int depth = 0;
	const HirExpr *x = e;
	while (x->kind == HIR_FIELD) {
		depth++;
		x = x->u.field.base;
	}
	if (x->kind == HIR_LOCAL) {
		/* local.f.g…: read in place, one charge for the whole chain */
		Node *n = node_new(C, e->u.field.take ? interp_x_field_take_path : interp_x_field_path, e);
		n->a = x->u.slot;
		n->steps = (uint32_t)depth + 1;
		n->nkids = depth;
		n->ints = ARENA_ARRAY(&C->I->code, int32_t, depth);
		x = e;
		for (int d = depth - 1; d >= 0; d--) {
			n->ints[d] = x->u.field.field;
			x = x->u.field.base;
		}
		return n;
	}
	Node *n = node_new(C, interp_x_field, e);
	n->x = compile_expr(C, e->u.field.base);
	n->op = e->u.field.field;
	return n;
}

static Node *
aggregate(Comp *C, const HirExpr *e)
{
	Node *n = node_new(C, interp_x_agg, e);
	Sym *s = sema_sym(C->S, e->u.agg.type_sym);
	if (e->kind == HIR_WITH)
		n->x = compile_expr(C, e->u.agg.base);
	else if (e->kind == HIR_VARIANT)
		n->op = s->nom->cases[e->u.agg.case_index].nfields;
	else
		n->op = s->nom->nfields;
	n->kids = compile_exprs(C, e->u.agg.values, e->u.agg.n);
	n->nkids = e->u.agg.n;
	n->ints = ARENA_ARRAY(&C->I->code, int32_t, e->u.agg.n ? e->u.agg.n : 1);
	for (int i = 0; i < e->u.agg.n; i++)
		n->ints[i] = e->u.agg.fields[i];
	if (e->kind != HIR_VARIANT)
		n->callee = invariant_of(C, e->u.agg.type_sym);
	return n;
}

static Node *
match(Comp *C, const HirExpr *e)
{
	Node *n = node_new(C, interp_x_match, e);
	n->x = compile_expr(C, e->u.match.scrutinee);
	n->op = (int32_t)e->u.match.mode;
	n->narms = e->u.match.narms;
	n->arms = ARENA_ARRAY(&C->I->code, CArm, n->narms ? n->narms : 1);
	for (int i = 0; i < n->narms; i++) {
		const HirArm *a = &e->u.match.arms[i];
		CArm *ca = &n->arms[i];
		ca->pat = a->pat;
		ca->guard = a->guard ? compile_expr(C, a->guard) : NULL;
		ca->value = compile_expr(C, a->value);
		ca->binds = a->binds;
		ca->nbinds = a->nbinds;
		ca->owned = a->scope ? a->scope->owned : NULL;
		ca->nowned = a->scope ? a->scope->nowned : 0;
	}
	if (interp_builtin_is_byte_get_slot(n->x) && interp_match_byte_opt_flags(n) >= 0) {
		n->fn = interp_x_match_byte_opt;
		n->flags = (uint32_t)interp_match_byte_opt_flags(n);
	} else if (interp_builtin_is_byte_get_slot(n->x) && interp_match_stack_ok(n)) {
		n->fn = interp_x_match_byte_get;
	}
	return n;
}

/* ---- expressions, statements, blocks ---- */

static Node *
compile_expr(Comp *C, const HirExpr *e)
{
	Node *n;
	switch (e->kind) {
	case HIR_INT: case HIR_FLOAT: case HIR_BOOL: case HIR_CHAR:
		n = node_new(C, interp_x_int, e);
		n->k = literal(e);
		return n;
	case HIR_STRING:
		return node_new(C, interp_x_string, e);
	case HIR_LOCAL:
		n = node_new(C, emitc_is_scalar(e->type) ? interp_x_local_scalar : interp_x_local, e);
		n->a = e->u.slot;
		return n;
	case HIR_MOVE:
		n = node_new(C, interp_x_move, e);
		n->a = e->u.slot;
		return n;
	case HIR_FUNC:
		n = node_new(C, interp_x_func, e);
		n->k = v_ptr(V_FN, NULL, (uint32_t)func_index(C, e->u.call.fn));
		return n;
	case HIR_UNARY:
		n = node_new(C, interp_x_unary, e);
		n->op = (int32_t)e->u.un.op;
		n->x = compile_expr(C, e->u.un.x);
		return n;
	case HIR_BINARY:
		return binary(C, e);
	case HIR_CALL:
		return call(C, e);
	case HIR_FIELD:
		return field(C, e);
	case HIR_TRY:
		n = node_new(C, interp_x_try, e);
		n->x = compile_expr(C, e->u.try_.x);
		n->op = e->u.try_.option;
		return n;
	case HIR_WITH: case HIR_RECORD: case HIR_VARIANT:
		return aggregate(C, e);
	case HIR_BLOCK:
		n = node_new(C, interp_x_block, e);
		n->b1 = compile_block(C, e->u.block);
		n->b1->lends = e->lends;
		return n;
	case HIR_IF:
		n = node_new(C, interp_x_if, e);
		n->x = compile_expr(C, e->u.if_.cond);
		n->b1 = compile_block(C, e->u.if_.then_);
		n->b2 = e->u.if_.else_ ? compile_block(C, e->u.if_.else_) : NULL;
		n->b1->lends = e->lends;
		if (n->b2)
			n->b2->lends = e->lends;
		return fuse_cond(n, SCALAR_XIF);
	case HIR_MATCH:
		return match(C, e);
	case HIR_CLOSURE:
		/* the lifted function's global index (a project: its module's base) */
		n = node_new(C, interp_x_closure, e);
		n->op = C->I->base[C->mod] + e->u.closure.func;
		return n;
	case HIR_ARRAY:
		n = node_new(C, interp_x_array, e);
		n->kids = compile_exprs(C, e->u.array.elems, e->u.array.n);
		n->nkids = e->u.array.n;
		return n;
	}
	UNREACHABLE();
	return NULL;
}

/*
 * Superinstructions (exec_scalar.c): a branch node whose condition is a
 * specialised comparison takes over the comparison's operands and
 * evaluates it itself; a scalar assignment of a specialised operation
 * stores the result itself.
 */
static Node *
fuse_cond(Node *n, int use)
{
	NodeFn f = interp_scalar_use_fn(n->x->fn, use);
	if (!f)
		return n;
	const Node *c = n->x;
	n->fn = f;
	n->a = c->a;
	n->b = c->b;
	n->k = c->k;
	n->op = c->op;
	n->x = c->x;
	n->y = c->y;
	return n;
}

static Node *
fuse_set(Node *n)
{
	if (n->x->fn == interp_x_local_scalar || n->x->fn == interp_x_int) {
		Node *c = n->x;
		c->fn = c->fn == interp_x_int ? interp_s_set_const : interp_s_copy_slot;
		c->d = n->a;
		c->s = n->s;
		return c;
	}
	NodeFn f = interp_scalar_use_fn(n->x->fn, SCALAR_SET);
	if (!f)
		return n;
	Node *c = n->x;
	c->fn = f;
	c->d = n->a;
	c->s = n->s;
	return c;
}

/* `x = bytes_set(x, i, v)`, `x = vec_set<T>(x, i, v)`, `x = vec_push<T>(x, v)`
 * with x moved into the call and T a Copy scalar: the in-place statement
 * (exec_builtin.c), or NULL. */
static Node *
inplace(Comp *C, const HirStmt *s)
{
	const HirExpr *e = s->value;
	if (s->kind != HS_ASSIGN || s->slot == HIR_NO_SLOT || e->kind != HIR_CALL ||
	    e->u.call.kind != CALL_BUILTIN)
		return NULL;
	int bi = interp_rt_builtin_index(e->u.call.builtin->bid);
	int nargs = e->u.call.nargs;
	bool leaves = true;
	for (int i = 1; i < nargs; i++)
		leaves = leaves && (is_scalar_slot(e->u.call.args[i]) || is_literal(e->u.call.args[i]));
	NodeFn fn = bi >= 0 ? interp_builtin_inplace_fn(bi, leaves) : NULL;
	if (!fn || nargs != (bi == BI_vec_push ? 2 : 3))
		return NULL;
	const HirExpr *x = e->u.call.args[0];
	if (x->kind != HIR_MOVE || x->u.slot != s->slot || !emitc_is_scalar(e->u.call.args[nargs - 1]->type))
		return NULL;
	Node *n = node_new(C, fn, e);
	n->a = s->slot;
	n->op = bi;
	n->kids = compile_exprs(C, e->u.call.args, nargs);
	n->nkids = nargs;
	n->s = s;
	n->steps = 0;
	return n;
}

/* A statement node, or NULL when the statement does nothing. */
static Node *
stmt(Comp *C, const HirStmt *s)
{
	Node *n;
	switch (s->kind) {
	case HS_LET:
	case HS_ASSIGN: {
		if ((n = inplace(C, s)) != NULL)
			return n;
		bool scalar = s->slot != HIR_NO_SLOT && emitc_is_scalar(C->f->locals[s->slot].type);
		bool alias = s->kind == HS_LET && s->slot != HIR_NO_SLOT && C->f->locals[s->slot].lent;
		n = node_new(C, scalar || alias ? interp_s_let_scalar : interp_s_let, NULL);
		n->a = s->slot;
		n->x = compile_expr(C, s->value);
		if (scalar && s->slot != HIR_NO_SLOT) {
			n->s = s;
			return fuse_set(n);
		}
		break;
	}
	case HS_SET_FIELD:
		n = node_new(C, interp_s_set_field, NULL);
		n->a = s->slot;
		n->op = s->field;
		n->x = compile_expr(C, s->value);
		n->callee = invariant_of(C, type_sym(C, C->f->locals[s->slot].type));
		break;
	case HS_WHILE:
		n = node_new(C, interp_s_while, NULL);
		n->x = compile_expr(C, s->value);
		n->b1 = compile_block(C, s->body);
		n->s = s;
		n->steps = 0;
		if (n->x->fn == interp_x_and)
			n->fn = interp_s_while_and;
		return fuse_cond(n, SCALAR_WHILE);
	case HS_FOR:
		n = node_new(C, interp_s_for, NULL);
		n->a = s->slot;
		n->x = compile_expr(C, s->value);
		n->b1 = compile_block(C, s->body);
		break;
	case HS_EXPR:
		/* a statement `if`, the only expression statement (hir_validate) */
		ASSERT(s->value->kind == HIR_IF, "compile.c: an expression statement that is not an `if`");
		/* the if's own step is charged by interp_s_if */
		n = node_new(C, interp_s_if, s->value);
		n->x = compile_expr(C, s->value->u.if_.cond);
		n->b1 = compile_block(C, s->value->u.if_.then_);
		n->b2 = s->value->u.if_.else_ ? compile_block(C, s->value->u.if_.else_) : NULL;
		n->s = s;
		if (n->x->fn == interp_x_unary && n->x->op == UN_NOT) {
			n->fn = interp_s_if_not;
			n->x = n->x->x;
			return n;
		}
		return fuse_cond(n, SCALAR_IF);
	case HS_UNSAFE:
		if (!s->body)
			return NULL;
		n = node_new(C, interp_s_block, NULL);
		n->b1 = compile_block(C, s->body);
		break;
	default:
		UNREACHABLE();
		return NULL;
	}
	n->s = s;
	n->steps = 0;
	return n;
}

static CBlock *
compile_block(Comp *C, const HirBlock *b)
{
	CBlock *cb = ARENA_NEW(&C->I->code, CBlock);
	int outer = C->views;
	C->views = 0;
	cb->stmts = ARENA_ARRAY(&C->I->code, Node *, b->nstmts ? b->nstmts : 1);
	for (int i = 0; i < b->nstmts; i++) {
		Node *s = stmt(C, b->stmts[i]);
		if (s)
			cb->stmts[cb->nstmts++] = s;
	}
	cb->tail = b->tail ? compile_expr(C, b->tail) : NULL;
	cb->owned = b->owned;
	cb->nowned = b->nowned;
	cb->simple = b->nowned == 0 && C->views == 0;
	cb->only = cb->simple && cb->nstmts == 0 ? cb->tail : NULL;
	C->views = outer;
	return cb;
}

static void
function(Comp *C, CFunc *cf, int index)
{
	const HirFunc *f = &C->H->funcs[index];
	Arena *a = &C->I->code;
	C->f = f;
	cf->f = f;
	cf->S = C->S;
	cf->index = index;
	int nl = f->nlocals ? f->nlocals : 1;
	cf->sweep = ARENA_ARRAY(a, HirSlot, nl);
	cf->caps = ARENA_ARRAY(a, HirSlot, nl);
	for (int i = 0; i < f->nlocals; i++) {
		if (!never_owns(f->locals[i].type))
			cf->sweep[cf->nsweep++] = (HirSlot)i;
		if (i >= f->nparams && f->locals[i].param)
			cf->caps[cf->ncaps++] = (HirSlot)i;
	}
	cf->nreq = f->nrequires;
	cf->req = compile_exprs(C, f->requires, f->nrequires);
	cf->nens = f->nensures;
	cf->ens = compile_exprs(C, f->ensures, f->nensures);
	cf->body = compile_block(C, f->body);
	cf->simple = cf->nreq == 0 && cf->nens == 0 && cf->ncaps == 0 && cf->body->simple;
	cf->scalar = cf->simple && cf->nsweep == 0 && emitc_is_scalar(f->result);
}

/* Calls of simple functions whose arguments are scalar slots or literals
 * become interp_x_call_simple (after every function is compiled: a callee's
 * simplicity is known only then). */
static void
simple_calls(Comp *C, Node *n);

static void
simple_calls_block(Comp *C, CBlock *b)
{
	if (!b)
		return;
	for (int i = 0; i < b->nstmts; i++)
		simple_calls(C, b->stmts[i]);
	if (b->tail)
		simple_calls(C, b->tail);
}

static void
simple_calls(Comp *C, Node *n)
{
	if (!n)
		return;
	simple_calls(C, n->x);
	simple_calls(C, n->y);
	for (int i = 0; n->kids && i < n->nkids; i++)   /* interp_x_field_path: nkids without kids */
		simple_calls(C, n->kids[i]);
	simple_calls_block(C, n->b1);
	simple_calls_block(C, n->b2);
	for (int i = 0; i < n->narms; i++) {
		simple_calls(C, n->arms[i].guard);
		simple_calls(C, n->arms[i].value);
	}
	if (n->fn != interp_x_call || !n->callee || !n->callee->simple)
		return;
	n->fn = n->callee->nsweep ? interp_x_call_lean : interp_x_call_simple;
	for (int i = 0; i < n->nkids; i++)
		if (n->kids[i]->fn != interp_x_local_scalar && n->kids[i]->fn != interp_x_int)
			n->fn = interp_x_call_lean;
	if (n->callee->scalar && n->nkids <= n->callee->f->nlocals) {
		n->fn = interp_x_call_scalar;
		n->op = n->callee->f->nlocals;
	}
}

void
interp_compile_module(Interp *I)
{
	I->cf = ARENA_ARRAY(&I->code, CFunc, I->ncf ? I->ncf : 1);
	Comp C;
	memset(&C, 0, sizeof C);
	C.I = I;
	for (int m = 0; m < I->nmods; m++) {
		C.mod = m;
		C.H = I->mods[m];
		C.S = C.H->S;
		for (int i = 0; i < C.H->nfuncs; i++)
			function(&C, &I->cf[I->base[m] + i], i);
	}
	for (int i = 0; i < I->ncf; i++) {
		CFunc *cf = &I->cf[i];
		for (int k = 0; k < cf->nreq; k++)
			simple_calls(&C, cf->req[k]);
		for (int k = 0; k < cf->nens; k++)
			simple_calls(&C, cf->ens[k]);
		simple_calls_block(&C, cf->body);
	}
}
