/*
 * validate.c — the HIR validator: re-derives, independently of the
 * checker's bookkeeping, that every expression has a type, every slot
 * reference and callee resolves, operator operands agree, conditions are
 * bool, structural ids are unique, and the cleanup plan is balanced (each
 * owned slot is released by exactly one scope; only owned slots move).
 * A failure is an internal H006 diagnostic: a compiler bug, not user error.
 */
#include "hir.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct V {
	HirModule *H;
	Sema *S;
	HirFunc *f;
	DiagSink *diags;
	uint8_t *seen_ids;     /* per structural id */
	uint8_t *released;     /* per slot: number of scopes releasing it */
	bool ok;
} V;

static void
bad(V *v, Span span, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = spx_vformat(fmt, ap);
	va_end(ap);
	Diag *d = diag_report(v->diags, DIAG_H006, &span, "HIR validation failed in `%s`: %s", v->f->id, msg);
	free(msg);
	diag_set_help(d, "this is a compiler bug; please report it with the source file");
	v->ok = false;
}

static void v_expr(V *v, const HirExpr *e);
static void v_block(V *v, const HirBlock *b);

static void
v_slot(V *v, const HirExpr *e, HirSlot s)
{
	if (s >= (HirSlot)v->f->nlocals)
		bad(v, e->span, "slot %u out of range", s);
	else if (v->f->locals[s].pinned && (!v->f->locals[s].lent || v->f->locals[s].owned))
		bad(v, e->span, "pinned slot `%s` is not lent", v->f->locals[s].name);
}

/*
 * Pattern p over a value of type t: its type is t (an OR's alternatives
 * too), case and field indices are in range of the variant or record, each
 * binding slot is declared and bound once, in the arm's `binds` order (*k).
 */
static void
v_pattern(V *v, const HirExpr *e, const HirArm *a, const HirPattern *p, TypeId t, int *k)
{
	if (p->type != t)
		bad(v, p->span, "pattern has type %s, the value %s", sema_type_name(v->S, p->type), sema_type_name(v->S, t));
	const TypeInfo *ti = sema_type_info(&v->S->types, t);
	Sym *sym = ti->kind == TY_NOMINAL ? sema_sym(v->S, (SymId)ti->decl) : NULL;
	int nfs = 0;
	switch (p->kind) {
	case HIR_PAT_WILD: case HIR_PAT_LIT:
		return;
	case HIR_PAT_BIND:
		v_slot(v, e, p->slot);
		if (*k >= a->nbinds || a->binds[*k] != p->slot)
			bad(v, p->span, "binding slot %u is not the arm's binding %d", p->slot, *k);
		++*k;
		return;
	case HIR_PAT_OR:
		for (int i = 0; i < p->nalts; i++)
			v_pattern(v, e, a, p->alts[i], t, k);
		return;
	case HIR_PAT_CASE:
		if (!sym || sym->kind != SK_VARIANT || p->case_index < 0 || p->case_index >= sym->nom->ncases) {
			bad(v, p->span, "case index %d out of range for %s", p->case_index, sema_type_name(v->S, t));
			return;
		}
		nfs = sym->nom->cases[p->case_index].nfields;
		break;
	case HIR_PAT_RECORD:
		if (!sym) {
			bad(v, p->span, "record pattern over %s", sema_type_name(v->S, t));
			return;
		}
		nfs = sym->nom->nfields;
		break;
	}
	for (int i = 0; i < p->nfields; i++) {
		int fi = p->fields[i];
		if (fi < 0 || fi >= nfs) {
			bad(v, p->span, "field index %d out of range for %s", fi, sema_type_name(v->S, t));
			continue;
		}
		TypeId ft = p->kind == HIR_PAT_CASE ? sema_case_field_type(v->S, t, p->case_index, fi) : sema_field_type(v->S, t, fi);
		v_pattern(v, e, a, p->subs[i], ft, k);
	}
}

static void
v_cond(V *v, const HirExpr *c, const char *what)
{
	v_expr(v, c);
	if (c->type != T_BOOL && c->type != T_ERR)
		bad(v, c->span, "%s has type %s, not bool", what, sema_type_name(v->S, c->type));
}

static void
v_scope(V *v, const HirBlock *b)
{
	for (int i = 0; i < b->nowned; i++) {
		HirSlot s = b->owned[i];
		if (s >= (HirSlot)v->f->nlocals) {
			bad(v, (Span){ 0, 0 }, "released slot %u out of range", s);
			continue;
		}
		if (!v->f->locals[s].owned || v->f->locals[s].lent)
			bad(v, v->f->locals[s].span, "slot `%s` is released but not owned", v->f->locals[s].name);
		v->released[s]++;
	}
}

/* A result of a lending branch value (HirExpr.lends): a read in place of a
 * lent parameter's path, or a nested branch value marked lending (checked
 * on its own visit). */
static bool
lent_param_read(void *ctx, const HirExpr *e)
{
	V *v = ctx;
	if (!e)
		return false;
	if (e->kind == HIR_BLOCK || e->kind == HIR_IF || e->kind == HIR_MATCH)
		return e->lends;
	while (e->kind == HIR_FIELD && !e->u.field.take)
		e = e->u.field.base;
	return e->kind == HIR_LOCAL && e->u.slot < (HirSlot)v->f->nlocals && v->f->locals[e->u.slot].pinned;
}

static void
v_expr(V *v, const HirExpr *e)
{
	if (!e)
		return;
	if (e->index >= v->f->nexprs || v->seen_ids[e->index]++)
		bad(v, e->span, "structural id %u is out of range or repeated", e->index);
	if (e->temp && (e->type == T_ERR || sema_is_copy(v->S, e->type) || e->kind == HIR_LOCAL || e->kind == HIR_MOVE || e->kind == HIR_FIELD))
		bad(v, e->span, "temporary #%u is not a fresh owned value", e->index);
	if (e->lends && !hir_branch_results_all(e, lent_param_read, v))
		bad(v, e->span, "branch value #%u is marked lending but a result is not read in place from a lent parameter", e->index);
	switch (e->kind) {
	case HIR_LOCAL:
		v_slot(v, e, e->u.slot);
		break;
	case HIR_MOVE:
		v_slot(v, e, e->u.slot);
		if (e->u.slot < (HirSlot)v->f->nlocals && !v->f->locals[e->u.slot].owned)
			bad(v, e->span, "move of a slot that is not owned");
		break;
	case HIR_UNARY:
		v_expr(v, e->u.un.x);
		break;
	case HIR_BINARY:
		v_expr(v, e->u.bin.l);
		v_expr(v, e->u.bin.r);
		if (e->u.bin.l->type != e->u.bin.r->type && e->u.bin.l->type != T_ERR && e->u.bin.r->type != T_ERR)
			bad(v, e->span, "operands of `%s` have types %s and %s", ast_binary_spelling(e->u.bin.op),
			    sema_type_name(v->S, e->u.bin.l->type), sema_type_name(v->S, e->u.bin.r->type));
		break;
	case HIR_CALL:
		if (e->u.call.kind == CALL_FN && e->u.call.fn < 0)
			bad(v, e->span, "call is not resolved");
		if (e->u.call.kind == CALL_BUILTIN && (!e->u.call.builtin || sema_builtin_by_id(e->u.call.builtin->bid) != e->u.call.builtin))
			bad(v, e->span, "builtin call is not resolved");
		for (int i = 0; i < e->u.call.nargs; i++)
			v_expr(v, e->u.call.args[i]);
		break;
	case HIR_FIELD:
		v_expr(v, e->u.field.base);
		if (e->u.field.field < 0)
			bad(v, e->span, "field is not resolved");
		if (e->u.field.take && sema_is_copy(v->S, e->type))
			bad(v, e->span, "a Copy field is taken out of its record");
		break;
	case HIR_TRY:
		v_expr(v, e->u.try_.x);
		break;
	case HIR_WITH:
	case HIR_RECORD:
	case HIR_VARIANT:
		v_expr(v, e->u.agg.base);
		for (int i = 0; i < e->u.agg.n; i++) {
			if (e->u.agg.fields[i] < 0)
				bad(v, e->span, "constructed field %d is not resolved", i);
			v_expr(v, e->u.agg.values[i]);
		}
		break;
	case HIR_BLOCK:
		v_block(v, e->u.block);
		break;
	case HIR_IF:
		v_cond(v, e->u.if_.cond, "`if` condition");
		if (e->u.if_.then_)
			v_block(v, e->u.if_.then_);
		if (e->u.if_.else_)
			v_block(v, e->u.if_.else_);
		break;
	case HIR_MATCH:
		v_expr(v, e->u.match.scrutinee);
		for (int i = 0; i < e->u.match.narms; i++) {
			const HirArm *a = &e->u.match.arms[i];
			for (int j = 0; j < a->nbinds; j++)
				v_slot(v, e, a->binds[j]);
			int k = 0;
			v_pattern(v, e, a, a->pat, e->u.match.scrutinee->type, &k);
			if (k != a->nbinds)
				bad(v, a->pat->span, "the pattern binds %d slots, the arm %d", k, a->nbinds);
			if (a->case_index != (a->pat->kind == HIR_PAT_CASE ? a->pat->case_index : -1))
				bad(v, a->pat->span, "arm case %d disagrees with its pattern", a->case_index);
			if (a->guard)
				v_cond(v, a->guard, "match guard");
			v_expr(v, a->value);
			v_scope(v, a->scope);
		}
		break;
	case HIR_ARRAY:
		for (int i = 0; i < e->u.array.n; i++)
			v_expr(v, e->u.array.elems[i]);
		break;
	default:
		break;
	}
}

/* A read in place (no take) of a lent slot or a field path of one. */
static bool
lent_place(V *v, const HirExpr *e)
{
	while (e->kind == HIR_FIELD && !e->u.field.take)
		e = e->u.field.base;
	return e->kind == HIR_LOCAL && e->u.slot < (HirSlot)v->f->nlocals && v->f->locals[e->u.slot].lent;
}

static void
v_stmt(V *v, const HirStmt *s)
{
	switch (s->kind) {
	case HS_LET:
	case HS_ASSIGN:
	case HS_SET_FIELD:
		v_expr(v, s->value);
		if (s->kind != HS_LET && s->slot == HIR_NO_SLOT)
			bad(v, s->span, "assignment target is not resolved");
		if (s->kind == HS_LET && s->slot < (HirSlot)v->f->nlocals && v->f->locals[s->slot].pinned && !lent_param_read(v, s->value))
			bad(v, s->span, "pinned alias `%s` is not bound to a lent parameter's path", v->f->locals[s->slot].name);
		if (s->kind == HS_LET && s->slot < (HirSlot)v->f->nlocals && v->f->locals[s->slot].lent && !lent_place(v, s->value) &&
		    !s->value->lends)
			bad(v, s->span, "alias `%s` is not bound to a place of a lent slot", v->f->locals[s->slot].name);
		if (s->kind == HS_ASSIGN && s->slot < (HirSlot)v->f->nlocals && v->f->locals[s->slot].lent)
			bad(v, s->span, "assignment to lent slot `%s`", v->f->locals[s->slot].name);
		break;
	case HS_WHILE:
		v_cond(v, s->value, "`while` condition");
		v_block(v, s->body);
		break;
	case HS_FOR:
		v_expr(v, s->value);
		v_block(v, s->body);
		break;
	case HS_EXPR:
		/* only a statement `if` (lower.c): the lanes discard no other value */
		if (s->value->kind != HIR_IF)
			bad(v, s->span, "an expression statement that is not an `if`");
		v_expr(v, s->value);
		break;
	case HS_UNSAFE:
		if (s->body)
			v_block(v, s->body);
		break;
	}
}

static void
v_block(V *v, const HirBlock *b)
{
	if (!b)
		return;
	for (int i = 0; i < b->nstmts; i++)
		v_stmt(v, b->stmts[i]);
	v_expr(v, b->tail);
	v_scope(v, b);
}

bool
hir_validate(HirModule *H, DiagSink *diags)
{
	V v;
	memset(&v, 0, sizeof v);
	v.H = H;
	v.S = H->S;
	v.diags = diags;
	v.ok = true;
	for (int i = 0; i < H->nfuncs; i++) {
		HirFunc *f = &H->funcs[i];
		v.f = f;
		v.seen_ids = spx_xcalloc(f->nexprs ? f->nexprs : 1, 1);
		v.released = spx_xcalloc((size_t)(f->nlocals ? f->nlocals : 1), 1);
		if ((f->sym >= 0) != (f->kind == HIR_FUNC_DECL) || !f->report_id)
			bad(&v, (Span){ 0, 0 }, "function `%s`: its kind disagrees with its symbol", f->id);
		for (int j = 0; j < f->nrequires; j++)
			v_cond(&v, f->requires[j], "precondition");
		v_block(&v, f->body);
		for (int j = 0; j < f->nensures; j++)
			v_cond(&v, f->ensures[j], "postcondition");
		for (int s = 0; s < f->nlocals; s++) {
			if (f->locals[s].owned && v.released[s] != 1)
				bad(&v, f->locals[s].span, "owned slot `%s` is released by %d scopes, not exactly one", f->locals[s].name, v.released[s]);
		}
		free(v.seen_ids);
		free(v.released);
	}
	return v.ok;
}

/* ---- the instance list (hir_mono) ---- */

typedef struct MV {
	V *v;
	const HirMono *m;
	const HirInst *in;
	int32_t *sym_func;
	int nsyms;
	bool *reached;
	int ii;                 /* the index of in */
} MV;

static TypeId
mv_subst(MV *mv, TypeId t)
{
	const HirInst *in = mv->in;
	if (in->ntargs == 0 || !sema_type_info(&mv->v->S->types, t)->open)
		return t;
	return sema_type_subst(&mv->v->S->types, t, (uint32_t)in->owner, in->targs, in->ntargs);
}

/* t, a type of the current instance's function, has its entry in the
 * instance's substitution table (hir_mono_type), and the entry is right. */
static void
mv_type(MV *mv, TypeId t, Span at, const char *what)
{
	if (mv->in->ntargs == 0 || !sema_type_info(&mv->v->S->types, t)->open)
		return;
	TypeId r;
	if (!hir_mono_type_entry(mv->m, mv->ii, t, &r))
		bad(mv->v, at, "instance %d has no concrete type for %s %s", mv->ii, what, sema_type_name(mv->v->S, t));
	else if (r != mv_subst(mv, t))
		bad(mv->v, at, "instance %d gives %s %s the type %s", mv->ii, what, sema_type_name(mv->v->S, t), sema_type_name(mv->v->S, r));
}

static void
mv_pattern(MV *mv, const HirPattern *p)
{
	if (!p)
		return;
	mv_type(mv, p->type, p->span, "pattern type");
	for (int i = 0; i < p->nfields; i++)
		mv_pattern(mv, p->subs[i]);
	for (int i = 0; i < p->nalts; i++)
		mv_pattern(mv, p->alts[i]);
}

/* Call site e of the current instance reaches an instance of funcs[fi] with targs. */
static void
mv_target(MV *mv, const HirExpr *e, int fi, const TypeId *targs, int ntargs)
{
	int32_t t = mv->in->target[e->index];
	if (fi < 0) {
		if (t != -1)
			bad(mv->v, e->span, "call site #%u without a HIR callee targets instance %d", e->index, t);
		return;
	}
	if (t < 0 || t >= mv->m->ninsts) {
		bad(mv->v, e->span, "call site #%u targets no instance (%d)", e->index, t);
		return;
	}
	const HirInst *to = &mv->m->insts[t];
	const HirFunc *f = &mv->v->H->funcs[fi];
	if (f->sym >= 0 && sema_sym(mv->v->S, f->sym)->ntparams == 0)
		ntargs = 0;
	if (to->func != fi)
		bad(mv->v, e->span, "call site #%u targets instance %d of `%s`, not of `%s`", e->index, t,
		    mv->v->H->funcs[to->func].id, f->id);
	else if (to->ntargs != ntargs || (ntargs && memcmp(to->targs, targs, sizeof *targs * (size_t)ntargs) != 0))
		bad(mv->v, e->span, "call site #%u targets instance %d with other type arguments", e->index, t);
	mv->reached[t] = true;
}

static void
mv_pre(void *ctx, const HirExpr *e)
{
	MV *mv = ctx;
	if (e->index >= mv->v->f->nexprs)
		return;   /* reported by hir_validate */
	mv_type(mv, e->type, e->span, "expression type");
	for (int i = 0; e->kind == HIR_CALL && e->u.call.kind != CALL_SLOT && i < e->u.call.ntargs; i++)
		mv_type(mv, e->u.call.targs[i], e->span, "type argument");
	for (int i = 0; e->kind == HIR_MATCH && i < e->u.match.narms; i++)
		mv_pattern(mv, e->u.match.arms[i].pat);
	if (e->kind == HIR_CALL && e->u.call.kind == CALL_FN) {
		SymId s = e->u.call.fn;
		int n = e->u.call.ntargs;
		TypeId *targs = spx_xmalloc(sizeof *targs * (size_t)(n + 1));
		for (int i = 0; i < n; i++)
			targs[i] = mv_subst(mv, e->u.call.targs[i]);
		mv_target(mv, e, s >= 0 && s < mv->nsyms ? mv->sym_func[s] : -1, targs, n);
		free(targs);
	} else if (e->kind == HIR_FUNC) {
		SymId s = e->u.call.fn;
		mv_target(mv, e, s >= 0 && s < mv->nsyms ? mv->sym_func[s] : -1, NULL, 0);
	} else if (e->kind == HIR_CLOSURE) {
		mv_target(mv, e, e->u.closure.func, mv->in->targs, mv->in->ntargs);
	} else if (mv->in->target[e->index] != -1) {
		bad(mv->v, e->span, "expression #%u is no call site but targets instance %d", e->index, mv->in->target[e->index]);
	}
}

/* One instance: its slot types are the generic ones substituted, a slot is
 * owned exactly when it is neither lent nor Copy at that type (and an owned
 * slot of the generic body stays owned), and each call site reaches an
 * instance of its callee with its (substituted) type arguments. */
static void
mv_inst(MV *mv, int ii)
{
	V *v = mv->v;
	const HirInst *in = &mv->m->insts[ii];
	mv->in = in;
	mv->ii = ii;
	if (in->func < 0 || in->func >= v->H->nfuncs) {
		v->f = &v->H->funcs[0];
		bad(v, (Span){0}, "instance %d names function %d of %d", ii, in->func, v->H->nfuncs);
		return;
	}
	const HirFunc *f = &v->H->funcs[in->func];
	v->f = (HirFunc *)f;
	if (f->sym >= 0 && sema_sym(v->S, f->sym)->ntparams == 0 && in->ntargs != 0)
		bad(v, (Span){0}, "instance %d of a monomorphic function has %d type arguments", ii, in->ntargs);
	if (in->result != mv_subst(mv, f->result))
		bad(v, (Span){0}, "instance %d has result type %s", ii, sema_type_name(v->S, in->result));
	mv_type(mv, f->result, (Span){0}, "the result type");
	for (int s = 0; s < f->nlocals; s++) {
		const HirLocal *l = &f->locals[s];
		mv_type(mv, l->type, l->span, "slot type");
		if (in->slot_type[s] != mv_subst(mv, l->type))
			bad(v, l->span, "instance %d gives slot `%s` type %s", ii, l->name, sema_type_name(v->S, in->slot_type[s]));
		else if (in->slot_owned[s] != (!l->lent && !sema_is_copy(v->S, in->slot_type[s])))
			bad(v, l->span, "instance %d marks slot `%s` %s at type %s", ii, l->name, in->slot_owned[s] ? "owned" : "not owned",
			    sema_type_name(v->S, in->slot_type[s]));
		else if (l->owned && !in->slot_owned[s])
			bad(v, l->span, "instance %d drops the ownership of owned slot `%s`", ii, l->name);
	}
	HirVisitor vis = { mv_pre, NULL, NULL, mv };
	hir_visit(f, &vis);
}

bool
hir_validate_mono(HirModule *H, DiagSink *diags)
{
	const HirMono *m = H->mono;
	V v;
	memset(&v, 0, sizeof v);
	v.H = H;
	v.S = H->S;
	v.diags = diags;
	v.ok = true;
	if (!m || H->nfuncs == 0)
		return true;
	MV mv = { &v, m, NULL, NULL, H->S->syms.len, NULL, 0 };
	mv.sym_func = hir_symfunc(H);
	mv.reached = spx_xcalloc((size_t)m->ninsts + 1, 1);
	int entry = hir_find_main(H);
	v.f = &H->funcs[entry >= 0 ? entry : 0];
	if ((entry < 0) != (m->ninsts == 0) || (entry >= 0 && (m->insts[0].func != entry || m->insts[0].ntargs != 0)))
		bad(&v, (Span){0}, "instance 0 is not `main`");
	else if (m->ninsts)
		mv.reached[0] = true;
	for (int i = 0; i < mv.nsyms; i++) {
		/* a record's invariant check is reached through record values and field stores */
		int fi = H->invariants[i], k = fi >= 0 && fi < H->nfuncs ? m->func_inst[fi] : -1;
		if (k >= 0 && k < m->ninsts)
			mv.reached[k] = true;
	}
	for (int i = 0; i < m->ninsts && v.ok; i++)
		mv_inst(&mv, i);
	for (int i = 0; i < H->nfuncs && v.ok; i++) {
		int k = m->func_inst[i];
		v.f = &H->funcs[i];
		if (k != -1 && (k < 0 || k >= m->ninsts || m->insts[k].func != i || m->insts[k].ntargs != 0))
			bad(&v, (Span){0}, "func_inst names instance %d", k);
	}
	for (int i = 0; i < m->ninsts && v.ok; i++)
		if (!mv.reached[i]) {
			v.f = &H->funcs[m->insts[i].func];
			bad(&v, (Span){0}, "instance %d is reached by no call site", i);
		}
	free(mv.reached);
	free(mv.sym_func);
	return v.ok;
}

int32_t *
hir_symfunc(const HirModule *h)
{
	int32_t *sf = spx_xmalloc(sizeof *sf * ((size_t)h->S->syms.len + 1));
	for (int i = 0; i < h->S->syms.len; i++)
		sf[i] = -1;
	for (int i = 0; i < h->nfuncs; i++)
		if (h->funcs[i].sym >= 0 && h->funcs[i].sym < h->S->syms.len)
			sf[h->funcs[i].sym] = i;
	return sf;
}

int
hir_find_main(const HirModule *h)
{
	for (int i = 0; i < h->nfuncs; i++)
		if (h->funcs[i].sym >= 0 && sema_sym(h->S, h->funcs[i].sym)->kind == SK_FN &&
		    strcmp(h->funcs[i].name, "main") == 0)
			return i;
	for (int i = 0; i < h->nfuncs; i++)
		if (h->funcs[i].sym >= 0 && strcmp(h->funcs[i].id, "app.main") == 0)
			return i;
	return -1;
}
