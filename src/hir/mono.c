/*
 * mono.c — monomorphisation over the HIR (see hir.h, HirMono): the function
 * instances reachable from `main`, each with its concrete slot types, the
 * final ownership of every slot, and the instance each call site reaches.
 *
 * A worklist, in the order a lane emits: instance 0 is `main`; an instance
 * is walked in evaluation order (hir_visit) and each instance it reaches for
 * the first time is appended — a called function (before the call's
 * arguments), a function value, a closure (with its enclosing instance's
 * type arguments), and a record's invariant check (after the record's
 * values, or after a field store).  Deterministic: the order depends on the
 * HIR alone.  Instances are identified by (function, type arguments); a
 * monomorphic function has one (func_inst), the instances of a generic one
 * are chained.  Instances of generic declarations are bounded by
 * HIR_MONO_MAX_GENERIC (B110 past it), so polymorphic recursion cannot run
 * away here.
 *
 * Types are substituted into the checker's type table (sema_type_subst),
 * which the checker already filled for every instance it checked.  Each
 * open type of an instance's function a lane reads (expression types, call
 * type arguments, pattern node types, slots, the result) is substituted
 * here, in walk order, and kept in HirMono.types for hir_mono_type: the
 * lanes read instance types and never substitute.  The walk substitutes
 * expression types in the order the C lane once did, so TypeIds (and the C
 * spellings named after them) stayed as they were.
 */
#include "hir.h"

#include <string.h>

/* ---- the walker ---- */

static void visit_expr(const HirVisitor *v, const HirExpr *e);

static void
visit_block(const HirVisitor *v, const HirBlock *b)
{
	if (!b)
		return;
	for (int i = 0; i < b->nstmts; i++) {
		const HirStmt *s = b->stmts[i];
		visit_expr(v, s->value);
		visit_block(v, s->body);
		if (v->stmt)
			v->stmt(v->ctx, s);
	}
	visit_expr(v, b->tail);
}

static void
visit_expr(const HirVisitor *v, const HirExpr *e)
{
	if (!e)
		return;
	if (v->pre)
		v->pre(v->ctx, e);
	switch (e->kind) {
	case HIR_INT: case HIR_FLOAT: case HIR_BOOL: case HIR_CHAR: case HIR_STRING:
	case HIR_LOCAL: case HIR_MOVE: case HIR_FUNC: case HIR_CLOSURE:
		break;
	case HIR_UNARY:
		visit_expr(v, e->u.un.x);
		break;
	case HIR_BINARY:
		visit_expr(v, e->u.bin.l);
		visit_expr(v, e->u.bin.r);
		break;
	case HIR_CALL:
		for (int i = 0; i < e->u.call.nargs; i++)
			visit_expr(v, e->u.call.args[i]);
		break;
	case HIR_FIELD:
		visit_expr(v, e->u.field.base);
		break;
	case HIR_TRY:
		visit_expr(v, e->u.try_.x);
		break;
	case HIR_WITH: case HIR_RECORD: case HIR_VARIANT:
		visit_expr(v, e->u.agg.base);
		for (int i = 0; i < e->u.agg.n; i++)
			visit_expr(v, e->u.agg.values[i]);
		break;
	case HIR_BLOCK:
		visit_block(v, e->u.block);
		break;
	case HIR_IF:
		visit_expr(v, e->u.if_.cond);
		visit_block(v, e->u.if_.then_);
		visit_block(v, e->u.if_.else_);
		break;
	case HIR_MATCH:
		visit_expr(v, e->u.match.scrutinee);
		for (int i = 0; i < e->u.match.narms; i++) {
			visit_expr(v, e->u.match.arms[i].guard);
			visit_expr(v, e->u.match.arms[i].value);
		}
		break;
	case HIR_ARRAY:
		for (int i = 0; i < e->u.array.n; i++)
			visit_expr(v, e->u.array.elems[i]);
		break;
	}
	if (v->post)
		v->post(v->ctx, e);
}

void
hir_visit(const HirFunc *f, const HirVisitor *v)
{
	for (int i = 0; i < f->nrequires; i++)
		visit_expr(v, f->requires[i]);
	visit_block(v, f->body);
	for (int i = 0; i < f->nensures; i++)
		visit_expr(v, f->ensures[i]);
}

/* ---- the worklist ---- */

typedef struct Mono {
	HirModule *H;
	Sema *S;
	DiagSink *diags;
	VEC(HirInst) insts;
	VEC(int32_t) next_same;  /* per instance: the next instance of the same function, or -1 */
	int32_t *first;          /* per function: its first instance, or -1 */
	int32_t *sym_func;       /* per symbol: its HirModule.funcs index, or -1 */
	int nsyms;
	int ngeneric;
	int cur;                 /* the instance being walked */
	bool failed;
	VEC(HirMonoType) subs;   /* every substitution made (repeats included) */
} Mono;

/* The type of t in instance ii, noted for HirMono.types. */
static TypeId
subst(Mono *M, int ii, TypeId t)
{
	const HirInst *in = &M->insts.items[ii];
	if (in->ntargs == 0 || !sema_type_info(&M->S->types, t)->open)
		return t;
	TypeId r = sema_type_subst(&M->S->types, t, (uint32_t)in->owner, in->targs, in->ntargs);
	HirMonoType mt = { ii, t, r };
	VEC_PUSH(M->subs, mt);
	return r;
}

static uint32_t
type_hash(int32_t inst, TypeId t)
{
	uint32_t h = ((uint32_t)inst * 2654435761u) ^ (t * 2246822519u);
	return h ^ (h >> 15);
}

/* HirMono.types from M->subs (each pair once). */
static void
build_types(Mono *M, HirMono *m)
{
	uint32_t cap = 16;
	while (cap < (uint32_t)M->subs.len * 2)
		cap *= 2;
	m->types = ARENA_ARRAY(&M->H->arena, HirMonoType, cap);
	m->types_cap = cap;
	for (uint32_t i = 0; i < cap; i++)
		m->types[i].inst = -1;
	for (int i = 0; i < M->subs.len; i++) {
		const HirMonoType *mt = &M->subs.items[i];
		uint32_t h = type_hash(mt->inst, mt->from) & (cap - 1);
		while (m->types[h].inst >= 0 && !(m->types[h].inst == mt->inst && m->types[h].from == mt->from))
			h = (h + 1) & (cap - 1);
		m->types[h] = *mt;
	}
}

bool
hir_mono_type_entry(const HirMono *m, int inst, TypeId from, TypeId *to)
{
	for (uint32_t k = type_hash(inst, from) & (m->types_cap - 1); m->types[k].inst >= 0; k = (k + 1) & (m->types_cap - 1))
		if (m->types[k].inst == inst && m->types[k].from == from) {
			*to = m->types[k].to;
			return true;
		}
	return false;
}

TypeId
hir_mono_type(const HirModule *h, int inst, TypeId t)
{
	const HirMono *m = h->mono;
	const HirInst *in = &m->insts[inst];
	TypeId r;
	if (in->ntargs == 0 || !sema_type_info(&h->S->types, t)->open)
		return t;
	if (hir_mono_type_entry(m, inst, t, &r))
		return r;
	/* not a type of the instance's function (hir_validate_mono checks that
	 * every one has its entry): substituted as the walk would */
	return sema_type_subst(&h->S->types, t, (uint32_t)in->owner, in->targs, in->ntargs);
}

/* Notes the types of pattern p and its sub-patterns, in preorder. */
static void
note_pattern(Mono *M, const HirPattern *p)
{
	if (!p)
		return;
	(void)subst(M, M->cur, p->type);
	for (int i = 0; i < p->nfields; i++)
		note_pattern(M, p->subs[i]);
	for (int i = 0; i < p->nalts; i++)
		note_pattern(M, p->alts[i]);
}

static bool
same_targs(const HirInst *in, const TypeId *targs, int n)
{
	return in->ntargs == n && (n == 0 || memcmp(in->targs, targs, sizeof *targs * (size_t)n) == 0);
}

/* The instance of funcs[fi] for targs (owner: the symbol they bind when fi
 * is a closure), appended on first use; -1 past the bound (reported). */
static int
inst_get(Mono *M, int fi, const TypeId *targs, int ntargs, SymId owner, Span at)
{
	HirModule *H = M->H;
	const HirFunc *f = &H->funcs[fi];
	if (f->sym >= 0 && sema_sym(M->S, f->sym)->ntparams == 0)
		ntargs = 0;   /* a monomorphic function; closures keep their owner's arguments */
	int last = -1;
	for (int i = M->first[fi]; i >= 0; i = M->next_same.items[i]) {
		if (same_targs(&M->insts.items[i], targs, ntargs))
			return i;
		last = i;
	}
	bool generic = f->sym >= 0 && ntargs > 0;
	if (generic && M->ngeneric == HIR_MONO_MAX_GENERIC) {
		if (!M->failed) {
			Buf b = {0};
			for (int i = 0; i < ntargs; i++)
				buf_printf(&b, "%s%s", i ? ", " : "", sema_type_name(M->S, targs[i]));
			Diag *d = diag_report(M->diags, DIAG_B110, at.end > 0 ? &at : NULL,
			    "the program needs more than %d generic function instances: `%s<%s>` here would be one more",
			    HIR_MONO_MAX_GENERIC, f->name, b.data ? b.data : "");
			if (d)
				diag_set_help(d, "call generic functions with fewer distinct type arguments, or run this program in the interpreter (`semaprax run` without `--native`)");
			buf_free(&b);
		}
		M->failed = true;
		return -1;
	}
	M->ngeneric += generic;
	HirInst in;
	memset(&in, 0, sizeof in);
	in.func = fi;
	in.owner = f->sym >= 0 ? f->sym : owner;
	in.ntargs = ntargs;
	in.targs = ARENA_ARRAY(&H->arena, TypeId, ntargs ? ntargs : 1);
	if (ntargs)
		memcpy(in.targs, targs, sizeof *targs * (size_t)ntargs);
	in.slot_type = ARENA_ARRAY(&H->arena, TypeId, f->nlocals ? f->nlocals : 1);
	in.slot_owned = ARENA_ARRAY(&H->arena, bool, f->nlocals ? f->nlocals : 1);
	in.target = ARENA_ARRAY(&H->arena, int32_t, f->nexprs ? f->nexprs : 1);
	for (uint32_t k = 0; k < f->nexprs; k++)
		in.target[k] = -1;
	VEC_PUSH(M->insts, in);
	VEC_PUSH(M->next_same, -1);
	int id = M->insts.len - 1;
	if (last >= 0)
		M->next_same.items[last] = id;
	else
		M->first[fi] = id;
	return id;
}

static int
sym_func(Mono *M, SymId s)
{
	return s >= 0 && s < M->nsyms ? M->sym_func[s] : -1;
}

/* After a record value is built or a field stored: its invariant check. */
static void
note_invariants(Mono *M, TypeId t, Span at)
{
	const TypeInfo *ti = sema_type_info(&M->S->types, t);
	if (ti->kind != TY_NOMINAL || sema_sym(M->S, (SymId)ti->decl)->kind != SK_RECORD)
		return;
	int fi = M->H->invariants[ti->decl];
	if (fi >= 0)
		inst_get(M, fi, NULL, 0, -1, at);
}

static void
pre(void *ctx, const HirExpr *e)
{
	Mono *M = ctx;
	if (M->failed)
		return;
	(void)subst(M, M->cur, e->type);
	int target = -1;
	if (e->kind == HIR_CALL && e->u.call.kind == CALL_BUILTIN) {
		for (int i = 0; i < e->u.call.ntargs; i++)
			(void)subst(M, M->cur, e->u.call.targs[i]);
	} else if (e->kind == HIR_MATCH) {
		for (int i = 0; i < e->u.match.narms; i++)
			note_pattern(M, e->u.match.arms[i].pat);
	} else if (e->kind == HIR_CALL && e->u.call.kind == CALL_FN) {
		int fi = sym_func(M, e->u.call.fn);
		int n = e->u.call.ntargs;
		TypeId local[8];
		TypeId *targs = n <= 8 ? local : spx_xmalloc(sizeof *targs * (size_t)n);
		for (int i = 0; i < n; i++)
			targs[i] = subst(M, M->cur, e->u.call.targs[i]);
		target = fi >= 0 ? inst_get(M, fi, targs, n, -1, e->span) : -1;
		if (targs != local)
			free(targs);
		/* the parameter types the call converts its arguments to */
		for (int i = 0; target >= 0 && i < e->u.call.nargs && i < M->H->funcs[fi].nlocals; i++)
			(void)subst(M, target, M->H->funcs[fi].locals[i].type);
	} else if (e->kind == HIR_FUNC) {
		int fi = sym_func(M, e->u.call.fn);
		if (fi >= 0)
			target = inst_get(M, fi, NULL, 0, -1, e->span);
	} else if (e->kind == HIR_CLOSURE) {
		const HirInst *in = &M->insts.items[M->cur];
		target = inst_get(M, e->u.closure.func, in->targs, in->ntargs, in->owner, e->span);
	}
	M->insts.items[M->cur].target[e->index] = target;
}

static void
post(void *ctx, const HirExpr *e)
{
	Mono *M = ctx;
	if (!M->failed && (e->kind == HIR_RECORD || e->kind == HIR_WITH))
		note_invariants(M, subst(M, M->cur, e->type), e->span);
}

static void
stmt(void *ctx, const HirStmt *s)
{
	Mono *M = ctx;
	if (!M->failed && s->kind == HS_SET_FIELD && s->slot != HIR_NO_SLOT)
		note_invariants(M, M->insts.items[M->cur].slot_type[s->slot], s->span);
}

/* Concrete slot types and ownership, then the walk of instance ii. */
static void
walk(Mono *M, int ii)
{
	HirInst *in = &M->insts.items[ii];
	const HirFunc *f = &M->H->funcs[in->func];
	for (int s = 0; s < f->nlocals; s++) {
		TypeId t = subst(M, ii, f->locals[s].type);
		in = &M->insts.items[ii];
		in->slot_type[s] = t;
		in->slot_owned[s] = !f->locals[s].lent && !sema_is_copy(M->S, t);
	}
	TypeId r = subst(M, ii, f->result);
	M->insts.items[ii].result = r;
	M->cur = ii;
	HirVisitor v = { pre, post, stmt, M };
	hir_visit(f, &v);
}

static bool mono_from(HirModule *H, const int *roots, int nroots, DiagSink *diags);

bool
hir_mono(HirModule *H, DiagSink *diags)
{
	if (H->mono)
		return true;
	int entry = hir_find_main(H);
	return mono_from(H, &entry, entry >= 0 ? 1 : 0, diags);
}

bool
hir_mono_roots(HirModule *H, const int *roots, int nroots, DiagSink *diags)
{
	if (H->mono)
		return true;
	return mono_from(H, roots, nroots, diags);
}

static bool
mono_from(HirModule *H, const int *roots, int nroots, DiagSink *diags)
{
	Mono M;
	memset(&M, 0, sizeof M);
	M.H = H;
	M.S = H->S;
	M.diags = diags;
	M.nsyms = M.S->syms.len;
	M.sym_func = spx_xmalloc(sizeof *M.sym_func * ((size_t)M.nsyms + 1));
	for (int i = 0; i < M.nsyms; i++)
		M.sym_func[i] = -1;
	for (int i = 0; i < H->nfuncs; i++)
		if (H->funcs[i].sym >= 0 && H->funcs[i].sym < M.nsyms)
			M.sym_func[H->funcs[i].sym] = i;
	M.first = spx_xmalloc(sizeof *M.first * ((size_t)H->nfuncs + 1));
	for (int i = 0; i < H->nfuncs; i++)
		M.first[i] = -1;
	for (int r = 0; r < nroots; r++)
		inst_get(&M, roots[r], NULL, 0, -1, (Span){0});
	for (int i = 0; i < M.insts.len && !M.failed; i++)
		walk(&M, i);
	if (!M.failed) {
		HirMono *m = ARENA_NEW(&H->arena, HirMono);
		m->ninsts = M.insts.len;
		m->insts = ARENA_ARRAY(&H->arena, HirInst, M.insts.len ? M.insts.len : 1);
		if (M.insts.len)
			memcpy(m->insts, M.insts.items, sizeof *m->insts * (size_t)M.insts.len);
		m->ngeneric = M.ngeneric;
		build_types(&M, m);
		m->func_inst = ARENA_ARRAY(&H->arena, int32_t, H->nfuncs ? H->nfuncs : 1);
		for (int i = 0; i < H->nfuncs; i++)
			m->func_inst[i] = M.first[i] >= 0 && M.insts.items[M.first[i]].ntargs == 0 ? M.first[i] : -1;
		H->mono = m;
	}
	VEC_FREE(M.insts);
	VEC_FREE(M.subs);
	VEC_FREE(M.next_same);
	free(M.first);
	free(M.sym_func);
	return !M.failed;
}

/* ---- a project's instances (hir_mono_project) ---- */

typedef struct Reach {
	HirModule *const *mods;
	StrMap names;         /* module name → index */
	int32_t **symfunc;    /* per module: SymId → HIR function index (-1) */
	const Sema *S;        /* the module being scanned */
	bool **root;          /* per module, per HIR function */
} Reach;

static void
reach_sym(Reach *R, SymId sym, bool invariant)
{
	const Sym *y = sym >= 0 && sym < R->S->syms.len ? &R->S->syms.items[sym] : NULL;
	if (!y || !y->origin)
		return;
	int k = sema_strmap_get(&R->names, y->origin);
	if (k < 0)
		return;
	SymId ps = sema_strmap_get(&R->mods[k]->S->ids, y->id);
	if (ps < 0 || ps >= R->mods[k]->S->syms.len)
		return;
	int fi = invariant ? (R->mods[k]->invariants ? R->mods[k]->invariants[ps] : -1) : R->symfunc[k][ps];
	if (fi >= 0)
		R->root[k][fi] = true;
}

static void
reach_expr(void *ctx, const HirExpr *e)
{
	Reach *R = ctx;
	if ((e->kind == HIR_CALL && e->u.call.kind == CALL_FN) || e->kind == HIR_FUNC)
		reach_sym(R, e->u.call.fn, false);
	const TypeInfo *ti = e->type < (TypeId)R->S->types.len ? sema_type_info(&R->S->types, e->type) : NULL;
	if (ti && ti->kind == TY_NOMINAL)
		reach_sym(R, (SymId)ti->decl, true);
}

bool
hir_mono_project(HirModule *const *mods, int nmods, const int *order, int entry, const int *funcs, int nfuncs, DiagSink *const *diags)
{
	return hir_mono_project_roots(mods, nmods, order, entry, funcs, nfuncs, NULL, NULL, 0, diags);
}

bool
hir_mono_project_roots(HirModule *const *mods, int nmods, const int *order, int entry, const int *funcs, int nfuncs,
    const int *xmods, const int *xfuncs, int nx, DiagSink *const *diags)
{
	Reach R;
	memset(&R, 0, sizeof R);
	R.mods = mods;
	R.symfunc = spx_xcalloc((size_t)nmods + 1, sizeof *R.symfunc);
	R.root = spx_xcalloc((size_t)nmods + 1, sizeof *R.root);
	for (int k = 0; k < nmods; k++) {
		HirModule *H = mods[k];
		sema_strmap_put(&R.names, H->S->module_name, k);
		R.symfunc[k] = hir_symfunc(H);
		R.root[k] = spx_xcalloc((size_t)H->nfuncs + 1, 1);
	}
	bool ok = true;
	for (int j = nmods - 1; j >= 0; j--) {
		int k = order[j];
		HirModule *H = mods[k];
		int *roots = spx_xmalloc(sizeof *roots * (size_t)(H->nfuncs + nfuncs + nx + 1));
		int nr = 0;
		if (k == entry)
			for (int i = 0; i < nfuncs; i++)
				roots[nr++] = funcs[i];
		for (int i = 0; i < nx; i++)
			if (xmods[i] == k)
				roots[nr++] = xfuncs[i];
		for (int i = 0; i < H->nfuncs; i++)
			if (R.root[k][i])
				roots[nr++] = i;
		ok = hir_mono_roots(H, roots, nr, diags[k]) && ok;
		free(roots);
		if (!H->mono)
			continue;
		R.S = H->S;
		HirVisitor v = { reach_expr, NULL, NULL, &R };
		for (int i = 0; i < H->mono->ninsts; i++)
			hir_visit(&H->funcs[H->mono->insts[i].func], &v);
	}
	for (int k = 0; k < nmods; k++) {
		free(R.root[k]);
		free(R.symfunc[k]);
	}
	free(R.root);
	free(R.symfunc);
	sema_strmap_free(&R.names);
	return ok;
}
