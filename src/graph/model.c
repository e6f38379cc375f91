/*
 * model.c — the semantic model of a verified program (graph.h): every
 * declaration with its stable identity, kind, name, signature (parameters
 * with effective ownership modes, result), effects, contract texts, and the
 * call edges both ways.
 *
 * Declarations are listed in symbol order (the prelude's compiler-owned
 * variants skipped), each followed by its members: a record's fields, a
 * variant's cases each followed by its case fields, a class's own fields,
 * an interface's imports.  Methods are symbols of their own (kind method,
 * owner = the class).  Forward edges (`calls`) are read from the validated
 * HIR — requires, body (lifted closures included), ensures — deduplicated
 * in first-occurrence order; a function value taken (`HIR_FUNC`) counts as
 * an edge, since the function may be called through it.  Reverse edges
 * (`called_by`) are sorted by stable id.
 */
#include "graph.h"

#include <stdlib.h>
#include <string.h>

const char *const graph_kind_names[GK__COUNT] = {
	"function", "method", "record", "field", "variant", "case", "case_field",
	"class", "resource", "interface", "import",
};

typedef struct Builder {
	GraphModel *g;
	VEC(GraphDecl) decls;
	/* the walk of one declaration's HIR */
	VEC(int) calls;
	VEC(const char *) builtins;
	int *stamp;           /* per decl: the walk that last added it */
	int walk;
	const char *origin;   /* the symbol being collected: its declaring module when imported */
} Builder;

static Arena *
ar(GraphModel *g)
{
	return &g->arena;
}

static GraphDecl *
add_decl(Builder *b, GraphKind kind, const char *id, bool explicit_id, const char *name, int owner, Span span)
{
	GraphDecl d;
	memset(&d, 0, sizeof d);
	d.kind = kind;
	d.id = id;
	d.explicit_id = explicit_id;
	d.name = name;
	d.owner = owner;
	d.sym = -1;
	d.func = -1;
	d.type = -1;
	d.span = span;
	d.origin = b->origin;
	VEC_PUSH(b->decls, d);
	return &b->decls.items[b->decls.len - 1];
}

static const char *
mode_name(Sema *S, const ParamSym *p)
{
	switch (p->mode) {
	case MODE_OWN: return "own";
	case MODE_BORROW: return "borrow";
	case MODE_SHARED: return "shared";
	case MODE_NONE: break;
	}
	return sema_is_copy(S, p->type) ? "value" : "own";
}

static void
add_fields(Builder *b, const FieldSym *fs, int n, GraphKind kind, int owner, SymId only_declared_in)
{
	for (int i = 0; i < n; i++) {
		if (only_declared_in >= 0 && fs[i].declared_in >= 0 && fs[i].declared_in != only_declared_in)
			continue;
		GraphDecl *d = add_decl(b, kind, fs[i].id, fs[i].explicit_id, fs[i].name, owner, fs[i].span);
		d->type = fs[i].type;
	}
}

/* Trimmed source text of a clause whose owner was not lowered (generic records). */
static char *
source_clause(GraphModel *g, const Clause *c)
{
	const char *s;
	size_t n;
	hir_clause_bounds(g->S->src, c, &s, &n);
	return arena_strndup(ar(g), s, n);
}

static char *
own_text(GraphModel *g, char *heap)
{
	char *s = arena_strndup(ar(g), heap, strlen(heap));
	free(heap);
	return s;
}

/* A function's or method's signature, effects and contract texts. */
static void
fill_function(GraphModel *g, GraphDecl *d, Sym *s, int func)
{
	Sema *S = g->S;
	d->sym = (SymId)(s - S->syms.items);
	d->func = func;
	d->type = s->result;
	d->nparams = s->nparams;
	d->params = ARENA_ARRAY(ar(g), GraphParam, s->nparams + 1);
	for (int i = 0; i < s->nparams; i++) {
		d->params[i].name = s->params[i].name;
		d->params[i].type = s->params[i].type;
		d->params[i].mode = mode_name(S, &s->params[i]);
	}
	d->tparams = s->tparams;
	d->ntparams = s->ntparams;
	d->effects = s->effects;
	d->neffects = s->neffects;
	if (func < 0)
		return;
	const HirFunc *f = &g->H->funcs[func];
	d->nrequires = f->nrequires;
	d->requires = ARENA_ARRAY(ar(g), char *, f->nrequires + 1);
	for (int i = 0; i < f->nrequires; i++)
		d->requires[i] = own_text(g, hir_clause_text(S, f, i, false));
	d->nensures = f->nensures;
	d->ensures = ARENA_ARRAY(ar(g), char *, f->nensures + 1);
	for (int i = 0; i < f->nensures; i++)
		d->ensures[i] = own_text(g, hir_clause_text(S, f, i, true));
}

static void
fill_invariants(GraphModel *g, GraphDecl *d, Sym *s)
{
	const Decl *decl = s->decl;
	SymId id = (SymId)(s - g->S->syms.items);
	int fi = g->H->invariants[id];
	int n = decl ? decl->u.record.ninvariants : 0;
	d->func = fi;
	d->nrequires = n;
	d->requires = ARENA_ARRAY(ar(g), char *, n + 1);
	for (int i = 0; i < n; i++)
		d->requires[i] = fi >= 0 ? own_text(g, hir_clause_text(g->S, &g->H->funcs[fi], i, false))
		    : source_clause(g, &decl->u.record.invariants[i]);
}

static void
collect_decls(Builder *b)
{
	GraphModel *g = b->g;
	Sema *S = g->S;
	int *fn_of_sym = spx_xmalloc(sizeof(int) * (size_t)(S->syms.len + 1));
	for (SymId i = 0; i < S->syms.len; i++)
		fn_of_sym[i] = -1;
	for (int i = 0; i < g->H->nfuncs; i++)
		if (g->H->funcs[i].sym >= 0)
			fn_of_sym[g->H->funcs[i].sym] = i;
	for (SymId id = 0; id < S->syms.len; id++) {
		Sym *s = sema_sym(S, id);
		if (s->prelude || s->kind == SK_SESSION || s->kind == SK_IMPORT)
			continue;
		/* a class's methods are listed right after its fields (SK_CLASS below) */
		if (s->kind == SK_METHOD && s->owner >= 0 && sema_sym(S, s->owner)->kind == SK_CLASS)
			continue;
		int self = b->decls.len;
		g->of_sym[id] = self;
		b->origin = s->origin;
		GraphDecl *d;
		switch (s->kind) {
		case SK_FN:
			d = add_decl(b, GK_FUNCTION, s->id, s->explicit_id, s->name, -1, s->span);
			fill_function(g, d, s, fn_of_sym[id]);
			break;
		case SK_METHOD:
			d = add_decl(b, GK_METHOD, s->id, s->explicit_id, s->name, -1, s->span);
			fill_function(g, d, s, fn_of_sym[id]);
			break;
		case SK_RECORD:
			d = add_decl(b, GK_RECORD, s->id, s->explicit_id, s->name, -1, s->span);
			d->sym = id;
			d->tparams = s->tparams;
			d->ntparams = s->ntparams;
			fill_invariants(g, d, s);
			add_fields(b, s->nom->fields, s->nom->nfields, GK_FIELD, self, -1);
			break;
		case SK_VARIANT:
			d = add_decl(b, GK_VARIANT, s->id, s->explicit_id, s->name, -1, s->span);
			d->sym = id;
			d->tparams = s->tparams;
			d->ntparams = s->ntparams;
			for (int c = 0; c < s->nom->ncases; c++) {
				int ci = b->decls.len;
				add_decl(b, GK_CASE, s->nom->cases[c].id, s->nom->cases[c].explicit_id, s->nom->cases[c].name, self, s->nom->cases[c].span);
				add_fields(b, s->nom->cases[c].fields, s->nom->cases[c].nfields, GK_CASE_FIELD, ci, -1);
			}
			break;
		case SK_CLASS:
			d = add_decl(b, GK_CLASS, s->id, s->explicit_id, s->name, -1, s->span);
			d->sym = id;
			d->tparams = s->tparams;
			d->ntparams = s->ntparams;
			add_fields(b, s->nom->fields, s->nom->nfields, GK_FIELD, self, id);
			for (int k = 0; k < s->nom->nmethods; k++) {
				SymId mid = s->nom->methods[k];
				Sym *ms = sema_sym(S, mid);
				g->of_sym[mid] = b->decls.len;
				GraphDecl *md = add_decl(b, GK_METHOD, ms->id, ms->explicit_id, ms->name, self, ms->span);
				fill_function(g, md, ms, fn_of_sym[mid]);
			}
			break;
		case SK_RESOURCE:
			d = add_decl(b, GK_RESOURCE, s->id, s->explicit_id, s->name, -1, s->span);
			d->sym = id;
			break;
		case SK_INTERFACE: {
			d = add_decl(b, GK_INTERFACE, s->id, s->explicit_id, s->name, -1, s->span);
			d->sym = id;
			const Decl *decl = s->decl;
			if (!decl)
				break;
			int np = decl->u.interface.permits.nnames;
			const char **eff = ARENA_ARRAY(ar(g), const char *, np + 1);
			for (int i = 0; i < np; i++) {
				const QName *q = &decl->u.interface.permits.names[i];
				Buf t = {0};
				for (int k = 0; k < q->nparts; k++) {
					if (k)
						buf_putc(&t, '.');
					buf_puts(&t, q->parts[k].s);
				}
				eff[i] = own_text(g, buf_take(&t));
			}
			d->effects = eff;
			d->neffects = np;
			for (int i = 0; i < decl->u.interface.nimports; i++) {
				const ImportFn *im = &decl->u.interface.imports[i];
				const char *iid = im->id.present ? arena_strndup(ar(g), im->id.value.s, im->id.value.len) : "";
				add_decl(b, GK_IMPORT, iid, im->id.present, im->name.s, self, im->span);
			}
			break;
		}
		default:
			break;
		}
	}
	free(fn_of_sym);
}

/* ---- call edges -------------------------------------------------------------- */

static void walk_expr(Builder *b, const HirExpr *e);

static void
add_call(Builder *b, SymId fn)
{
	if (fn < 0 || fn >= b->g->S->syms.len)
		return;
	int d = b->g->of_sym[fn];
	if (d < 0 || b->stamp[d] == b->walk)
		return;
	b->stamp[d] = b->walk;
	VEC_PUSH(b->calls, d);
}

static void
add_builtin(Builder *b, const Builtin *bi)
{
	if (!bi)
		return;
	for (int i = 0; i < b->builtins.len; i++)
		if (b->builtins.items[i] == bi->id)
			return;
	VEC_PUSH(b->builtins, bi->id);
}

static void
walk_block(Builder *b, const HirBlock *blk)
{
	if (!blk)
		return;
	for (int i = 0; i < blk->nstmts; i++) {
		walk_expr(b, blk->stmts[i]->value);
		walk_block(b, blk->stmts[i]->body);
	}
	walk_expr(b, blk->tail);
}

static void
walk_func(Builder *b, const HirFunc *f)
{
	for (int i = 0; i < f->nrequires; i++)
		walk_expr(b, f->requires[i]);
	walk_block(b, f->body);
	for (int i = 0; i < f->nensures; i++)
		walk_expr(b, f->ensures[i]);
}

static void
walk_expr(Builder *b, const HirExpr *e)
{
	if (!e)
		return;
	switch (e->kind) {
	case HIR_FUNC:
		add_call(b, e->u.call.fn);
		break;
	case HIR_CALL:
		if (e->u.call.kind == CALL_FN)
			add_call(b, e->u.call.fn);
		else if (e->u.call.kind == CALL_BUILTIN)
			add_builtin(b, e->u.call.builtin);
		for (int i = 0; i < e->u.call.nargs; i++)
			walk_expr(b, e->u.call.args[i]);
		break;
	case HIR_UNARY: walk_expr(b, e->u.un.x); break;
	case HIR_BINARY: walk_expr(b, e->u.bin.l); walk_expr(b, e->u.bin.r); break;
	case HIR_FIELD: walk_expr(b, e->u.field.base); break;
	case HIR_TRY: walk_expr(b, e->u.try_.x); break;
	case HIR_WITH: case HIR_RECORD: case HIR_VARIANT:
		walk_expr(b, e->u.agg.base);
		for (int i = 0; i < e->u.agg.n; i++)
			walk_expr(b, e->u.agg.values[i]);
		break;
	case HIR_BLOCK: walk_block(b, e->u.block); break;
	case HIR_IF:
		walk_expr(b, e->u.if_.cond);
		walk_block(b, e->u.if_.then_);
		walk_block(b, e->u.if_.else_);
		break;
	case HIR_MATCH:
		walk_expr(b, e->u.match.scrutinee);
		for (int i = 0; i < e->u.match.narms; i++) {
			walk_expr(b, e->u.match.arms[i].guard);
			walk_expr(b, e->u.match.arms[i].value);
		}
		break;
	case HIR_CLOSURE:
		walk_func(b, &b->g->H->funcs[e->u.closure.func]);
		break;
	case HIR_ARRAY:
		for (int i = 0; i < e->u.array.n; i++)
			walk_expr(b, e->u.array.elems[i]);
		break;
	default:
		break;
	}
}

/* Sorts decl indices by stable id: a merge sort (stable, no global state). */
static void
sort_by_id(const GraphModel *g, int *items, int n)
{
	if (n < 2)
		return;
	int *tmp = spx_xmalloc(sizeof(int) * (size_t)n);
	for (int width = 1; width < n; width *= 2) {
		for (int lo = 0; lo < n; lo += 2 * width) {
			int mid = lo + width < n ? lo + width : n;
			int hi = lo + 2 * width < n ? lo + 2 * width : n;
			int i = lo, j = mid, k = lo;
			while (i < mid && j < hi)
				tmp[k++] = graph_cmp_id(g, items[j], items[i]) < 0 ? items[j++] : items[i++];
			while (i < mid)
				tmp[k++] = items[i++];
			while (j < hi)
				tmp[k++] = items[j++];
		}
		memcpy(items, tmp, sizeof(int) * (size_t)n);
	}
	free(tmp);
}

void
graph_sort_by_id(const GraphModel *g, int *items, int n)
{
	sort_by_id(g, items, n);
}

static void
link_calls(Builder *b)
{
	GraphModel *g = b->g;
	b->stamp = spx_xcalloc((size_t)g->ndecls + 1, sizeof(int));
	int *nrev = spx_xcalloc((size_t)g->ndecls + 1, sizeof(int));
	for (int i = 0; i < g->ndecls; i++) {
		GraphDecl *d = &g->decls[i];
		if (d->func < 0)
			continue;
		b->walk = i + 1;
		b->calls.len = 0;
		b->builtins.len = 0;
		walk_func(b, &g->H->funcs[d->func]);
		d->ncalls = b->calls.len;
		d->calls = ARENA_ARRAY(ar(g), int, b->calls.len + 1);
		if (b->calls.len)
			memcpy(d->calls, b->calls.items, sizeof(int) * (size_t)b->calls.len);
		d->nbuiltins = b->builtins.len;
		d->builtins = ARENA_ARRAY(ar(g), const char *, b->builtins.len + 1);
		if (b->builtins.len)
			memcpy(d->builtins, b->builtins.items, sizeof(char *) * (size_t)b->builtins.len);
		for (int k = 0; k < d->ncalls; k++)
			nrev[d->calls[k]]++;
	}
	for (int i = 0; i < g->ndecls; i++) {
		g->decls[i].called_by = ARENA_ARRAY(ar(g), int, nrev[i] + 1);
		g->decls[i].ncalled_by = 0;
	}
	for (int i = 0; i < g->ndecls; i++)
		for (int k = 0; k < g->decls[i].ncalls; k++) {
			GraphDecl *t = &g->decls[g->decls[i].calls[k]];
			t->called_by[t->ncalled_by++] = i;
		}
	for (int i = 0; i < g->ndecls; i++)
		if (g->decls[i].ncalled_by > 1)
			sort_by_id(g, g->decls[i].called_by, g->decls[i].ncalled_by);
	free(nrev);
	free(b->stamp);
	VEC_FREE(b->calls);
	VEC_FREE(b->builtins);
}

/* ---- the model ------------------------------------------------------------------ */

GraphModel *
graph_model_build(Sema *S, HirModule *H)
{
	GraphModel *g = spx_xcalloc(1, sizeof *g);
	g->S = S;
	g->H = H;
	g->m = S->m;
	arena_init(&g->arena);
	if (H)
		arena_take_tail(&g->arena, &H->arena);   /* the model is freed before the HIR */
	g->of_sym = ARENA_ARRAY(&g->arena, int, S->syms.len + 1);
	for (SymId i = 0; i < S->syms.len; i++)
		g->of_sym[i] = -1;
	Builder b;
	memset(&b, 0, sizeof b);
	b.g = g;
	collect_decls(&b);
	g->ndecls = b.decls.len;
	if (!b.decls.items)
		VEC_PUSH(b.decls, (GraphDecl){ 0 });   /* never NULL */
	g->decls = b.decls.items;                    /* the arena frees it */
	arena_own(&g->arena, b.decls.items);
	g->by_id = ARENA_ARRAY(&g->arena, int, g->ndecls + 1);
	for (int i = 0; i < g->ndecls; i++)
		g->by_id[i] = i;
	sort_by_id(g, g->by_id, g->ndecls);
	link_calls(&b);
	return g;
}

void
graph_model_free(GraphModel *g)
{
	if (!g)
		return;
	arena_free(&g->arena);
	free(g);
}

int
graph_cmp_id(const GraphModel *g, int a, int b)
{
	int c = strcmp(g->decls[a].id, g->decls[b].id);
	return c ? c : (a > b) - (a < b);
}

int
graph_find_id(const GraphModel *g, const char *id)
{
	int lo = 0, hi = g->ndecls;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (strcmp(g->decls[g->by_id[mid]].id, id) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < g->ndecls && strcmp(g->decls[g->by_id[lo]].id, id) == 0 ? g->by_id[lo] : -1;
}

const char *
graph_qualified_name(GraphModel *g, int d)
{
	const GraphDecl *x = &g->decls[d];
	if (x->owner < 0)
		return x->name;
	return arena_printf(&g->arena, "%s.%s", graph_qualified_name(g, x->owner), x->name);
}
