/*
 * lsp_walk.c — the occurrences of declared names in a checked module: the
 * table hover, go to definition, find references and semantic tokens read
 * (docs/editors.md).
 *
 * Each occurrence names its declaration by identity (symbol, case, field),
 * resolved by the checker where it resolved one: calls, function values and
 * method calls by Sema.expr_sym, record and variant literals by their type
 * symbol, field accesses by the nominal type of the base, patterns and
 * type annotations by the module's type names.  A local binding is no
 * declaration: it has no occurrence.
 */
#include "lsp_int.h"

#include <stdlib.h>
#include <string.h>

#include "../sema/types.h"

typedef struct Walk {
	Sema *S;
	LspOccs *out;
	const Name *tp;      /* the type parameters in scope (they shadow type names) */
	int ntp;
	const Name *tp2;
	int ntp2;
	SymId inv;           /* in a record's invariant: the record (its fields are read by bare name) */
} Walk;

static void
add(Walk *w, Span at, SymId sym, int ci, int field, bool decl)
{
	if (sym < 0 || at.end <= at.start)
		return;
	LspOccs *o = w->out;
	if (o->len == o->cap) {
		o->cap = o->cap ? o->cap * 2 : 64;
		o->items = spx_xrealloc(o->items, sizeof *o->items * (size_t)o->cap);
	}
	LspOcc x = { at.start, at.end, sym, ci, field, decl, T_ERR, MODE_NONE };
	o->items[o->len++] = x;
}

/* A local: a parameter or binding (decl) or a use of one, with its type. */
static void
add_local(Walk *w, Span at, TypeId type, int mode, bool decl)
{
	if (at.end <= at.start || (at.end - at.start == 1 && w->S->src[at.start] == '_'))
		return;
	add(w, at, 0, -1, -1, decl);
	LspOcc *x = &w->out->items[w->out->len - 1];
	x->sym = -1;
	x->type = type;
	x->mode = mode;
}

static bool
is_tparam(const Walk *w, const char *name)
{
	for (int i = 0; i < w->ntp; i++)
		if (strcmp(w->tp[i].s, name) == 0)
			return true;
	for (int i = 0; i < w->ntp2; i++)
		if (strcmp(w->tp2[i].s, name) == 0)
			return true;
	return false;
}

static SymId
type_named(const Walk *w, const char *name)
{
	return is_tparam(w, name) ? -1 : sema_strmap_get(&w->S->type_names, name);
}

static SymId
nominal(Sema *S, TypeId t)
{
	if (t == (TypeId)-1 || t == T_ERR)
		return -1;
	const TypeInfo *ti = sema_type_info(&S->types, t);
	return ti->kind == TY_NOMINAL ? (SymId)ti->decl : -1;
}

static void
field_use(Walk *w, SymId owner, int ci, const Name *n)
{
	if (owner < 0)
		return;
	int f = sema_field_find(w->S, owner, ci, n->s, false);
	if (f >= 0)
		add(w, n->span, owner, ci, f, false);
}

static void walk_expr(Walk *w, const Expr *e);
static void walk_block(Walk *w, const Block *b);

static void
walk_type(Walk *w, const Type *t)
{
	if (!t)
		return;
	switch (t->kind) {
	case TYPE_NAME:
		if (ast_type_nparts(t) == 1)
			add(w, ast_type_name_span(t), type_named(w, t->u.name.s), -1, -1, false);
		for (int i = 0; i < ast_type_nargs(t); i++)
			walk_type(w, ast_type_args(t)[i]);
		break;
	case TYPE_ARRAY: walk_type(w, t->u.array.elem); break;
	case TYPE_FN:
		for (int i = 0; i < t->u.fn.nparams; i++)
			walk_type(w, t->u.fn.params[i]);
		walk_type(w, t->u.fn.result);
		break;
	default: break;
	}
}

static void
walk_fieldpats(Walk *w, SymId owner, int ci, const FieldPat *v, int n);

static void
walk_pat(Walk *w, const Pattern *p)
{
	if (!p)
		return;
	switch (p->kind) {
	case PAT_OR:
		for (int i = 0; i < p->u.or.nalts; i++)
			walk_pat(w, p->u.or.alts[i]);
		break;
	case PAT_CASE: {
		SymId v = type_named(w, p->u.case_.type.s);
		add(w, p->u.case_.type.span, v, -1, -1, false);
		int ci = v >= 0 ? sema_case_index(w->S, v, p->u.case_.case_name.s) : -1;
		if (ci >= 0)
			add(w, p->u.case_.case_name.span, v, ci, -1, false);
		walk_fieldpats(w, ci >= 0 ? v : -1, ci, p->u.case_.fields, p->u.case_.nfields);
		break;
	}
	case PAT_RECORD: {
		SymId r = type_named(w, p->u.record.type.s);
		add(w, p->u.record.type.span, r, -1, -1, false);
		walk_fieldpats(w, r, -1, p->u.record.fields, p->u.record.nfields);
		break;
	}
	case PAT_LIT: walk_expr(w, p->u.lit.value); break;
	default: break;
	}
}

static void
walk_fieldpats(Walk *w, SymId owner, int ci, const FieldPat *v, int n)
{
	for (int i = 0; i < n; i++) {
		field_use(w, owner, ci, &v[i].name);
		walk_pat(w, v[i].sub);
	}
}

static void
walk_exprs(Walk *w, Expr *const *v, int n)
{
	for (int i = 0; i < n; i++)
		walk_expr(w, v[i]);
}

static void
walk_types(Walk *w, Type *const *v, int n)
{
	for (int i = 0; i < n; i++)
		walk_type(w, v[i]);
}

static void
walk_inits(Walk *w, SymId owner, int ci, const FieldInit *v, int n)
{
	for (int i = 0; i < n; i++) {
		field_use(w, owner, ci, &v[i].name);
		walk_expr(w, v[i].value);
	}
}

static void
walk_expr(Walk *w, const Expr *e)
{
	if (!e)
		return;
	Sema *S = w->S;
	SymId sym = sema_expr_sym(S, e->id);
	switch (e->kind) {
	case EXPR_NAME:
		if (sym >= 0 && (sema_sym(S, sym)->kind == SK_FN))
			add(w, e->span, sym, -1, -1, false);
		else if (w->inv >= 0 && sema_field_find(S, w->inv, -1, e->u.name.s, false) >= 0)
		{
			Name n = ast_expr_name(e);   /* `requires count >= 0`: the field */
			field_use(w, w->inv, -1, &n);
		}
		else
			add_local(w, e->span, sema_expr_type(S, e->id), S->expr_mode ? sema_expr_mode(S, e->id) : MODE_NONE, false);
		break;
	case EXPR_UNARY: walk_expr(w, e->u.unary.operand); break;
	case EXPR_BINARY:
		walk_expr(w, e->u.binary.lhs);
		walk_expr(w, e->u.binary.rhs);
		break;
	case EXPR_CALL:
		if (sym >= 0 && sema_sym(S, sym)->kind == SK_FN && strcmp(sema_sym(S, sym)->name, e->u.call.callee.s) == 0)
			add(w, ast_call_callee(e).span, sym, -1, -1, false);
		walk_types(w, e->u.call.targs, e->u.call.ntargs);
		walk_exprs(w, e->u.call.args, e->u.call.nargs);
		break;
	case EXPR_METHOD:
		walk_expr(w, e->u.method.recv);
		if (sym >= 0 && strcmp(sema_sym(S, sym)->name, e->u.method.name.s) == 0)
			add(w, e->u.method.name.span, sym, -1, -1, false);
		walk_exprs(w, e->u.method.args, e->u.method.nargs);
		break;
	case EXPR_FIELD:
		walk_expr(w, e->u.field.base);
		{
			Name fname = ast_field_name(e);
			field_use(w, nominal(S, sema_expr_type(S, e->u.field.base->id)), -1, &fname);
		}
		break;
	case EXPR_TRY: walk_expr(w, e->u.try_.operand); break;
	case EXPR_WITH:
		walk_expr(w, e->u.with.base);
		walk_inits(w, nominal(S, sema_expr_type(S, e->u.with.base->id)), -1, e->u.with.inits, e->u.with.ninits);
		break;
	case EXPR_RECORD: {
		const QName *q = &e->u.record.type;
		if (q->nparts > 0)
			add(w, q->parts[q->nparts - 1].span, sym, -1, -1, false);
		walk_types(w, e->u.record.targs, e->u.record.ntargs);
		walk_inits(w, sym, -1, e->u.record.inits, e->u.record.ninits);
		break;
	}
	case EXPR_VARIANT: {
		add(w, e->u.variant.type.span, sym, -1, -1, false);
		int ci = sym >= 0 ? sema_case_index(S, sym, e->u.variant.case_name.s) : -1;
		if (ci >= 0)
			add(w, e->u.variant.case_name.span, sym, ci, -1, false);
		walk_types(w, e->u.variant.targs, e->u.variant.ntargs);
		walk_inits(w, ci >= 0 ? sym : -1, ci, e->u.variant.inits, e->u.variant.ninits);
		break;
	}
	case EXPR_SUPER: walk_exprs(w, e->u.super_.args, e->u.super_.nargs); break;
	case EXPR_BLOCK: walk_block(w, e->u.block); break;
	case EXPR_IF:
		walk_expr(w, e->u.if_.cond);
		walk_block(w, e->u.if_.then_block);
		walk_block(w, e->u.if_.else_block);
		break;
	case EXPR_MATCH:
		walk_expr(w, e->u.match.scrutinee);
		for (int i = 0; i < e->u.match.narms; i++) {
			walk_pat(w, e->u.match.arms[i].pat);
			walk_expr(w, e->u.match.arms[i].guard);
			walk_expr(w, e->u.match.arms[i].value);
		}
		break;
	case EXPR_CLOSURE: {
		/* a closure's parameters and bindings may shadow the fields */
		SymId inv = w->inv;
		w->inv = -1;
		for (int i = 0; i < e->u.closure.nparams; i++)
			walk_type(w, e->u.closure.params[i].type);
		walk_type(w, e->u.closure.result);
		walk_block(w, e->u.closure.body);
		w->inv = inv;
		break;
	}
	case EXPR_ARRAY: walk_exprs(w, e->u.array.elems, e->u.array.nelems); break;
	default: break;
	}
}

static void
walk_block(Walk *w, const Block *b)
{
	if (!b)
		return;
	for (int i = 0; i < b->nstmts; i++) {
		const Stmt *s = b->stmts[i];
		switch (s->kind) {
		case STMT_LET:
			walk_type(w, s->u.let.type);
			walk_expr(w, s->u.let.value);
			if (s->u.let.value)
				add_local(w, s->u.let.name.span, sema_expr_type(w->S, s->u.let.value->id),
				    w->S->expr_mode ? sema_expr_mode(w->S, s->u.let.value->id) : MODE_NONE, true);
			break;
		case STMT_ASSIGN: walk_expr(w, s->u.assign.value); break;
		case STMT_WHILE:
			walk_expr(w, s->u.while_.cond);
			walk_block(w, s->u.while_.body);
			break;
		case STMT_FOR:
			walk_expr(w, s->u.for_.iter);
			walk_block(w, s->u.for_.body);
			break;
		case STMT_IF: walk_expr(w, s->u.if_); break;
		case STMT_UNSAFE: walk_block(w, s->u.unsafe.body); break;
		default: break;
		}
	}
	walk_expr(w, b->tail);
}

static void
walk_fn(Walk *w, const FnDecl *f, SymId sym)
{
	add(w, f->name.span, sym, -1, -1, true);
	w->tp2 = f->tparams;
	w->ntp2 = f->ntparams;
	Sym *fs = sym >= 0 ? sema_sym(w->S, sym) : NULL;
	for (int i = 0; i < f->nparams; i++) {
		if (fs && i < fs->nparams)
			add_local(w, f->params[i].name.span, fs->params[i].type, fs->params[i].mode, true);
		walk_type(w, f->params[i].type);
	}
	walk_type(w, f->result);
	for (int i = 0; i < f->nclauses; i++)
		walk_expr(w, f->clauses[i].cond);
	walk_block(w, f->body);
	w->tp2 = NULL;
	w->ntp2 = 0;
}

static int
cmp_occ(const void *a, const void *b)
{
	const LspOcc *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->end < y->end ? -1 : x->end > y->end;
}

void
lsp_occurrences(Sema *S, const Module *m, LspOccs *out)
{
	Walk w;
	memset(&w, 0, sizeof w);
	w.S = S;
	w.out = out;
	w.inv = -1;
	out->len = 0;
	/* a project module's `use … as alias`: the alias is a use of the
	 * provider's declaration (identity: origin module and stable id) */
	for (int i = 0; i < m->nuses; i++) {
		const UseDecl *u = &m->uses[i];
		SymId y = sema_strmap_get(u->is_type ? &S->type_names : &S->fn_names, u->alias.s);
		if (y >= 0 && sema_sym(S, y)->origin)
			add(&w, u->alias.span, y, -1, -1, false);
	}
	for (int i = 0; i < m->ndecls; i++) {
		const Decl *d = &m->decls[i];
		w.tp = NULL;
		w.ntp = 0;
		switch (d->kind) {
		case DECL_FN:
			walk_fn(&w, &d->u.fn, sema_strmap_get(&S->fn_names, d->u.fn.name.s));
			break;
		case DECL_RECORD: {
			SymId r = sema_strmap_get(&S->type_names, d->u.record.name.s);
			add(&w, d->u.record.name.span, r, -1, -1, true);
			w.tp = d->u.record.tparams;
			w.ntp = d->u.record.ntparams;
			for (int k = 0; k < d->u.record.nfields; k++) {
				if (r >= 0 && k < sema_sym(S, r)->nom->nfields)
					add(&w, d->u.record.fields[k].name.span, r, -1, k, true);
				walk_type(&w, d->u.record.fields[k].type);
			}
			w.inv = r;
			for (int k = 0; k < d->u.record.ninvariants; k++)
				walk_expr(&w, d->u.record.invariants[k].cond);
			w.inv = -1;
			break;
		}
		case DECL_VARIANT: {
			SymId v = sema_strmap_get(&S->type_names, d->u.variant.name.s);
			add(&w, d->u.variant.name.span, v, -1, -1, true);
			w.tp = d->u.variant.tparams;
			w.ntp = d->u.variant.ntparams;
			for (int c = 0; c < d->u.variant.ncases; c++) {
				const CaseDecl *cd = &d->u.variant.cases[c];
				bool ok = v >= 0 && c < sema_sym(S, v)->nom->ncases;
				if (ok)
					add(&w, cd->name.span, v, c, -1, true);
				for (int k = 0; k < cd->nfields; k++) {
					if (ok && k < sema_sym(S, v)->nom->cases[c].nfields)
						add(&w, cd->fields[k].name.span, v, c, k, true);
					walk_type(&w, cd->fields[k].type);
				}
			}
			break;
		}
		case DECL_CLASS: {
			SymId c = sema_strmap_get(&S->type_names, d->u.class_.name.s);
			add(&w, d->u.class_.name.span, c, -1, -1, true);
			if (d->u.class_.has_parent)
				add(&w, d->u.class_.parent.span, type_named(&w, d->u.class_.parent.s), -1, -1, false);
			w.tp = d->u.class_.tparams;
			w.ntp = d->u.class_.ntparams;
			walk_types(&w, d->u.class_.parent_targs, d->u.class_.nparent_targs);
			for (int k = 0; k < d->u.class_.nmembers; k++) {
				const ClassMember *cm = &d->u.class_.members[k];
				if (cm->is_method) {
					walk_fn(&w, &cm->method, c >= 0 ? sema_own_method(S, c, cm->method.name.s) : -1);
				} else {
					if (c >= 0)
						field_use(&w, c, -1, &cm->field.name);
					walk_type(&w, cm->field.type);
				}
			}
			break;
		}
		case DECL_RESOURCE:
			add(&w, d->u.resource.name.span, sema_strmap_get(&S->type_names, d->u.resource.name.s), -1, -1, true);
			break;
		case DECL_INTERFACE:
			add(&w, d->u.interface.name.span, sema_strmap_get(&S->type_names, d->u.interface.name.s), -1, -1, true);
			for (int k = 0; k < d->u.interface.nimports; k++)
				for (int j = 0; j < d->u.interface.imports[k].nparams; j++)
					walk_type(&w, d->u.interface.imports[k].params[j].type);
			break;
		default: break;
		}
	}
	/* class fields are written as uses above; mark them declarations */
	for (int i = 0; i < out->len; i++) {
		LspOcc *o = &out->items[i];
		if (o->sym >= 0 && o->field >= 0 && o->ci < 0 && !o->decl) {
			Sym *y = sema_sym(S, o->sym);
			if (y->kind == SK_CLASS && o->field < y->nom->nfields && y->nom->fields[o->field].span.start <= o->start &&
			    o->end <= y->nom->fields[o->field].span.end)
				o->decl = true;
		}
	}
	if (out->len > 1)
		qsort(out->items, (size_t)out->len, sizeof *out->items, cmp_occ);
}

void
lsp_occs_free(LspOccs *o)
{
	free(o->items);
	memset(o, 0, sizeof *o);
}

const LspOcc *
lsp_occ_at(const LspOccs *o, uint32_t off)
{
	for (int i = 0; i < o->len; i++)
		if (o->items[i].start <= off && off <= o->items[i].end)
			return &o->items[i];
	return NULL;
}

/* The declaring occurrence of what o names, or NULL. */
const LspOcc *
lsp_occ_decl(const LspOccs *os, const LspOcc *o)
{
	for (int i = 0; i < os->len; i++)
		if (os->items[i].decl && lsp_occ_same(&os->items[i], o))
			return &os->items[i];
	return NULL;
}

bool
lsp_occ_same(const LspOcc *a, const LspOcc *b)
{
	return a->sym >= 0 && a->sym == b->sym && a->ci == b->ci && a->field == b->field;
}

const char *
lsp_occ_id(Sema *S, const LspOcc *o)
{
	if (o->sym < 0)
		return NULL;
	Sym *y = sema_sym(S, o->sym);
	if (o->ci >= 0 && o->ci < y->nom->ncases) {
		const CaseSym *c = &y->nom->cases[o->ci];
		return o->field >= 0 && o->field < c->nfields ? c->fields[o->field].id : c->id;
	}
	if (o->field >= 0 && o->field < y->nom->nfields)
		return y->nom->fields[o->field].id;
	return y->id;
}
