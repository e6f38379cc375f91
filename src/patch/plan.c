/*
 * plan.c — a semantic patch's selectors resolved against one checked
 * program, and the source edits they make (patch.h).
 *
 * Every reference site comes from what the checker recorded: calls and
 * function values (Sema.expr_sym), constructions (expr_sym: the record or
 * variant), projections and `with` updates (the record type of the base,
 * Sema.expr_type), field assignments (Sema.assign_owner).  Patterns and type
 * annotations name their type, which the checker resolves through
 * Sema.type_names (no scopes but a generic declaration's own parameters);
 * the planner asks the same table.  Renamed record-pattern shorthand `{ old }`
 * becomes `{ new: old }` so the binding keeps its name.
 */
#include "plan_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../sema/types.h"
#include "../support/sha256.h"

static void walk_block(Planner *P, const Block *b);

static void
walk_type(Planner *P, const Type *t)
{
	if (!t)
		return;
	if (P->on_type)
		P->on_type(P, t);
	switch (t->kind) {
	case TYPE_NAME:
		for (int i = 0; i < ast_type_nargs(t); i++)
			walk_type(P, ast_type_args(t)[i]);
		break;
	case TYPE_ARRAY: walk_type(P, t->u.array.elem); break;
	case TYPE_FN:
		for (int i = 0; i < t->u.fn.nparams; i++)
			walk_type(P, t->u.fn.params[i]);
		walk_type(P, t->u.fn.result);
		break;
	}
}

static void
walk_pat(Planner *P, const Pattern *p)
{
	if (!p)
		return;
	if (P->on_pat)
		P->on_pat(P, p);
	switch (p->kind) {
	case PAT_OR:
		for (int i = 0; i < p->u.or.nalts; i++)
			walk_pat(P, p->u.or.alts[i]);
		break;
	case PAT_CASE:
		for (int i = 0; i < p->u.case_.nfields; i++)
			walk_pat(P, p->u.case_.fields[i].sub);
		break;
	case PAT_RECORD:
		for (int i = 0; i < p->u.record.nfields; i++)
			walk_pat(P, p->u.record.fields[i].sub);
		break;
	case PAT_LIT: patch_walk_expr(P, p->u.lit.value); break;
	default: break;
	}
}

static void
walk_exprs(Planner *P, Expr *const *v, int n)
{
	for (int i = 0; i < n; i++)
		patch_walk_expr(P, v[i]);
}

static void
walk_types(Planner *P, Type *const *v, int n)
{
	for (int i = 0; i < n; i++)
		walk_type(P, v[i]);
}

static void
walk_inits(Planner *P, const FieldInit *v, int n)
{
	for (int i = 0; i < n; i++)
		patch_walk_expr(P, v[i].value);
}

void
patch_walk_expr(Planner *P, const Expr *e)
{
	if (!e)
		return;
	if (P->on_expr)
		P->on_expr(P, e);
	const Expr *saved = P->parent;
	P->parent = e;
	switch (e->kind) {
	case EXPR_UNARY: patch_walk_expr(P, e->u.unary.operand); break;
	case EXPR_BINARY:
		patch_walk_expr(P, e->u.binary.lhs);
		patch_walk_expr(P, e->u.binary.rhs);
		break;
	case EXPR_CALL:
		walk_types(P, e->u.call.targs, e->u.call.ntargs);
		walk_exprs(P, e->u.call.args, e->u.call.nargs);
		break;
	case EXPR_METHOD:
		patch_walk_expr(P, e->u.method.recv);
		walk_exprs(P, e->u.method.args, e->u.method.nargs);
		break;
	case EXPR_FIELD: patch_walk_expr(P, e->u.field.base); break;
	case EXPR_TRY: patch_walk_expr(P, e->u.try_.operand); break;
	case EXPR_WITH:
		patch_walk_expr(P, e->u.with.base);
		walk_inits(P, e->u.with.inits, e->u.with.ninits);
		break;
	case EXPR_RECORD:
		walk_types(P, e->u.record.targs, e->u.record.ntargs);
		walk_inits(P, e->u.record.inits, e->u.record.ninits);
		break;
	case EXPR_VARIANT:
		walk_types(P, e->u.variant.targs, e->u.variant.ntargs);
		walk_inits(P, e->u.variant.inits, e->u.variant.ninits);
		break;
	case EXPR_SUPER: walk_exprs(P, e->u.super_.args, e->u.super_.nargs); break;
	case EXPR_BLOCK: walk_block(P, e->u.block); break;
	case EXPR_IF:
		patch_walk_expr(P, e->u.if_.cond);
		walk_block(P, e->u.if_.then_block);
		walk_block(P, e->u.if_.else_block);
		break;
	case EXPR_MATCH:
		patch_walk_expr(P, e->u.match.scrutinee);
		for (int i = 0; i < e->u.match.narms; i++) {
			walk_pat(P, e->u.match.arms[i].pat);
			patch_walk_expr(P, e->u.match.arms[i].guard);
			patch_walk_expr(P, e->u.match.arms[i].value);
		}
		break;
	case EXPR_CLOSURE:
		for (int i = 0; i < e->u.closure.nparams; i++)
			walk_type(P, e->u.closure.params[i].type);
		walk_type(P, e->u.closure.result);
		walk_block(P, e->u.closure.body);
		break;
	case EXPR_ARRAY: walk_exprs(P, e->u.array.elems, e->u.array.nelems); break;
	default: break;
	}
	P->parent = saved;
}

static void
walk_block(Planner *P, const Block *b)
{
	if (!b)
		return;
	for (int i = 0; i < b->nstmts; i++) {
		const Stmt *s = b->stmts[i];
		if (P->on_stmt)
			P->on_stmt(P, s);
		switch (s->kind) {
		case STMT_LET:
			walk_type(P, s->u.let.type);
			patch_walk_expr(P, s->u.let.value);
			break;
		case STMT_ASSIGN: patch_walk_expr(P, s->u.assign.value); break;
		case STMT_WHILE:
			patch_walk_expr(P, s->u.while_.cond);
			walk_block(P, s->u.while_.body);
			break;
		case STMT_FOR:
			patch_walk_expr(P, s->u.for_.iter);
			walk_block(P, s->u.for_.body);
			break;
		case STMT_IF: patch_walk_expr(P, s->u.if_); break;
		case STMT_UNSAFE: walk_block(P, s->u.unsafe.body); break;
		}
	}
	patch_walk_expr(P, b->tail);
}

void
patch_walk_fn(Planner *P, const FnDecl *f)
{
	P->tp2 = f->tparams;
	P->ntp2 = f->ntparams;
	for (int i = 0; i < f->nparams; i++)
		walk_type(P, f->params[i].type);
	walk_type(P, f->result);
	for (int i = 0; i < f->nclauses; i++)
		patch_walk_expr(P, f->clauses[i].cond);
	walk_block(P, f->body);
	P->tp2 = NULL;
	P->ntp2 = 0;
}

static void
walk_fields(Planner *P, const FieldDecl *v, int n)
{
	for (int i = 0; i < n; i++)
		walk_type(P, v[i].type);
}

/* Every expression, pattern and type annotation of the module, in source order. */
void
patch_walk_module(Planner *P)
{
	for (int i = 0; i < P->m->ndecls; i++) {
		const Decl *d = &P->m->decls[i];
		P->tp = NULL;
		P->ntp = 0;
		switch (d->kind) {
		case DECL_FN: patch_walk_fn(P, &d->u.fn); break;
		case DECL_RECORD:
			P->tp = d->u.record.tparams;
			P->ntp = d->u.record.ntparams;
			walk_fields(P, d->u.record.fields, d->u.record.nfields);
			P->invariants_of = sema_strmap_get(&P->S->type_names, d->u.record.name.s);
			for (int k = 0; k < d->u.record.ninvariants; k++)
				patch_walk_expr(P, d->u.record.invariants[k].cond);
			P->invariants_of = -1;
			break;
		case DECL_VARIANT:
			P->tp = d->u.variant.tparams;
			P->ntp = d->u.variant.ntparams;
			for (int c = 0; c < d->u.variant.ncases; c++)
				walk_fields(P, d->u.variant.cases[c].fields, d->u.variant.cases[c].nfields);
			break;
		case DECL_CLASS:
			P->tp = d->u.class_.tparams;
			P->ntp = d->u.class_.ntparams;
			walk_types(P, d->u.class_.parent_targs, d->u.class_.nparent_targs);
			for (int k = 0; k < d->u.class_.nmembers; k++) {
				const ClassMember *cm = &d->u.class_.members[k];
				if (cm->is_method)
					patch_walk_fn(P, &cm->method);
				else
					walk_type(P, cm->field.type);
			}
			break;
		case DECL_INTERFACE:
			for (int k = 0; k < d->u.interface.nimports; k++)
				for (int j = 0; j < d->u.interface.imports[k].nparams; j++)
					walk_type(P, d->u.interface.imports[k].params[j].type);
			break;
		default: break;
		}
	}
}

void
patch_walk_op(Planner *P, const SPatch *p, int i, SymId sym, void (*cb)(Planner *, const Expr *))
{
	P->op = i;
	P->o = &p->ops[i];
	P->sym = sym;
	P->ci = 0;
	P->found = NULL;
	P->on_expr = cb;
	patch_walk_module(P);
	P->on_expr = NULL;
}

/* ---- edits ---- */

void
patch_add_edit(Planner *P, Span at, const char *text)
{
	PatchEdit e = { at.start, at.end, spx_xstrdup(text), P->op, 0 };
	VEC_PUSH(P->out->edits, e);
}

static void
add_change(Planner *P, const char *target, const char *kind, const char *before)
{
	PatchChange c;
	memset(&c, 0, sizeof c);
	c.op = P->op;
	c.target = target;
	c.target_kind = kind;
	c.before = before;
	c.after = P->o->to.s;
	c.ops[0] = P->op;
	c.nops = 1;
	VEC_PUSH(P->out->changes, c);
}

static void
rename_at(Planner *P, Span at)
{
	patch_add_edit(P, at, P->o->to.s);
}

/* Is name a type parameter in scope (which shadows a module type)? */
static bool
type_param(const Planner *P, const char *name)
{
	for (int i = 0; i < P->ntp; i++)
		if (strcmp(P->tp[i].s, name) == 0)
			return true;
	for (int i = 0; i < P->ntp2; i++)
		if (strcmp(P->tp2[i].s, name) == 0)
			return true;
	return false;
}

/* The declaration a written type name denotes (the checker's lookup), or -1. */
SymId
patch_type_sym(const Planner *P, const char *name)
{
	if (type_param(P, name))
		return -1;
	return sema_strmap_get(&P->S->type_names, name);
}

/* The record/class/variant declaration of a checked type, or -1. */
static SymId
nominal_of(Sema *S, TypeId t)
{
	if (t == T_ERR)
		return -1;
	const TypeInfo *ti = sema_type_info(&S->types, t);
	return ti->kind == TY_NOMINAL ? (SymId)ti->decl : -1;
}

/* rename of a function: its calls and function values */
static void
fn_expr(Planner *P, const Expr *e)
{
	if (sema_expr_sym(P->S, e->id) != P->sym)
		return;
	if (e->kind == EXPR_CALL)
		rename_at(P, ast_call_callee(e).span);
	else if (e->kind == EXPR_NAME)
		rename_at(P, e->span);
}

/* rename of a resource: every type annotation naming it */
static void
resource_type(Planner *P, const Type *t)
{
	if (t->kind == TYPE_NAME && ast_type_nparts(t) == 1 && patch_type_sym(P, t->u.name.s) == P->sym)
		rename_at(P, ast_type_name_span(t));
}

static void
member_inits(Planner *P, const FieldInit *v, int n)
{
	for (int i = 0; i < n; i++)
		if (strcmp(v[i].name.s, P->old) == 0)
			rename_at(P, v[i].name.span);
}

static void
member_fields(Planner *P, const FieldPat *v, int n)
{
	for (int i = 0; i < n; i++) {
		if (strcmp(v[i].name.s, P->old) != 0)
			continue;
		if (v[i].sub) {
			rename_at(P, v[i].name.span);
		} else {
			/* shorthand `{ old }` binds `old`: keep the binding */
			char *t = spx_xmalloc(strlen(P->o->to.s) + strlen(P->old) + 3);
			sprintf(t, "%s: %s", P->o->to.s, P->old);
			patch_add_edit(P, v[i].name.span, t);
			free(t);
		}
	}
}

/* rename-member: a record field (ci < 0) or a case's field */
static void
member_expr(Planner *P, const Expr *e)
{
	Sema *S = P->S;
	if (P->ci < 0) {
		if (e->kind == EXPR_RECORD && sema_expr_sym(S, e->id) == P->sym)
			member_inits(P, e->u.record.inits, e->u.record.ninits);
		else if (e->kind == EXPR_WITH && nominal_of(S, sema_expr_type(S, e->id)) == P->sym)
			member_inits(P, e->u.with.inits, e->u.with.ninits);
		else if (e->kind == EXPR_FIELD && strcmp(e->u.field.name.s, P->old) == 0 &&
		    nominal_of(S, sema_expr_type(S, e->u.field.base->id)) == P->sym)
			rename_at(P, ast_field_name(e).span);
		else if (e->kind == EXPR_NAME && P->invariants_of == P->sym && sema_expr_sym(S, e->id) < 0 &&
		    strcmp(e->u.name.s, P->old) == 0)
			rename_at(P, e->span);   /* an invariant names its record's fields */
	} else if (e->kind == EXPR_VARIANT && sema_expr_sym(S, e->id) == P->sym &&
	    strcmp(e->u.variant.case_name.s, sema_sym(S, P->sym)->nom->cases[P->ci].name) == 0) {
		member_inits(P, e->u.variant.inits, e->u.variant.ninits);
	}
}

static void
member_pat(Planner *P, const Pattern *p)
{
	if (P->ci < 0 && p->kind == PAT_RECORD && patch_type_sym(P, p->u.record.type.s) == P->sym)
		member_fields(P, p->u.record.fields, p->u.record.nfields);
	else if (P->ci >= 0 && p->kind == PAT_CASE && patch_type_sym(P, p->u.case_.type.s) == P->sym &&
	    strcmp(p->u.case_.case_name.s, sema_sym(P->S, P->sym)->nom->cases[P->ci].name) == 0)
		member_fields(P, p->u.case_.fields, p->u.case_.nfields);
}

/* A field assignment `x.f = v;` (Sema.assign_owner of v: x's record). */
static void
member_stmt(Planner *P, const Stmt *s)
{
	if (s->kind == STMT_ASSIGN && s->u.assign.has_field && P->S->assign_owner[s->u.assign.value->id] == P->sym &&
	    strcmp(s->u.assign.field.s, P->old) == 0)
		rename_at(P, s->u.assign.field.span);
}

/* rename-case */
static void
case_expr(Planner *P, const Expr *e)
{
	if (e->kind == EXPR_VARIANT && sema_expr_sym(P->S, e->id) == P->sym && strcmp(e->u.variant.case_name.s, P->old) == 0)
		rename_at(P, e->u.variant.case_name.span);
}

static void
case_pat(Planner *P, const Pattern *p)
{
	if (p->kind == PAT_CASE && patch_type_sym(P, p->u.case_.type.s) == P->sym && strcmp(p->u.case_.case_name.s, P->old) == 0)
		rename_at(P, p->u.case_.case_name.span);
}

/* ---- selectors ---- */

static bool
identifier(const char *s)
{
	if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
		return false;
	for (s++; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return true;
}

static bool
new_name_ok(Planner *P)
{
	if (identifier(P->o->to.s))
		return true;
	diag_report(P->d, DIAG_G103, &P->o->to.span, "`%s` is not a valid symbol name", P->o->to.s);
	return false;
}

/* A new name that is a word of the language (the checker's
 * sema_source_identifier list, as the reference's source_identifier): the
 * would-be file is refused, S104 for a function, S106 for a resource, S110
 * for a field or a case (qa33 made the last two as the reference), and a
 * function named `match` is read as a match expression before `(`.  So the
 * patch is refused on its own line, G103.  what: "function", "resource",
 * "field" or "case". */
static bool
new_word_ok(Planner *P, const char *what)
{
	const char *to = P->o->to.s;
	if (sema_source_identifier(to) && !(strcmp(to, "match") == 0 && strcmp(what, "function") == 0))
		return true;
	Diag *g = diag_report(P->d, DIAG_G103, &P->o->to.span, "`%s` is a word of the language, not a %s name", P->o->to.s, what);
	diag_set_help(g, "`%s` has a meaning of its own in SEMAPRAX; choose another %s name", P->o->to.s, what);
	return false;
}

static bool
no_op(Planner *P, const char *old)
{
	if (strcmp(old, P->o->to.s) != 0)
		return false;
	Diag *g = diag_report(P->d, DIAG_G106, &P->o->to.span, "`%s` is already named `%s`: the rename changes nothing", P->o->w[P->o->kind == POP_RENAME ? 0 : 1].s, old);
	diag_set_help(g, "remove the operation, or choose another name");
	return true;
}

const char *
patch_kind_name(SymKind k)
{
	switch (k) {
	case SK_FN: return "function";
	case SK_METHOD: return "method";
	case SK_RECORD: return "record";
	case SK_VARIANT: return "variant";
	case SK_CLASS: return "class";
	case SK_RESOURCE: return "resource";
	case SK_INTERFACE: return "interface";
	case SK_IMPORT: return "import";
	case SK_SESSION: return "session";
	}
	return "declaration";
}

/* A member (field, case, case field) with this stable id: its owner and kind. */
const char *
patch_member_kind(Sema *S, const char *id, SymId *owner)
{
	for (SymId i = 0; i < S->syms.len; i++) {
		Sym *y = sema_sym(S, i);
		for (int f = 0; f < y->nom->nfields; f++)
			if (strcmp(y->nom->fields[f].id, id) == 0)
				return *owner = i, "field";
		for (int c = 0; c < y->nom->ncases; c++) {
			if (strcmp(y->nom->cases[c].id, id) == 0)
				return *owner = i, "case";
			for (int f = 0; f < y->nom->cases[c].nfields; f++)
				if (strcmp(y->nom->cases[c].fields[f].id, id) == 0)
					return *owner = i, "case field";
		}
	}
	return NULL;
}

/* One candidate for G404's help: kept when within the distance bound, among
 * the three nearest (by distance, then stable id). */
static void
near_id(const char *want, const char *id, const char *name, int limit, const char *best[3], int bestd[3])
{
	if (!id)
		return;
	/* the declaration's name written for its id: the nearest of all */
	int d = name && strcmp(name, want) == 0 ? 0 : spx_edit_distance(want, id, true);
	if (d > limit)
		return;
	for (int j = 0; j < 3; j++)
		if (!best[j] || d < bestd[j] || (d == bestd[j] && strcmp(id, best[j]) < 0)) {
			if (best[j] && strcmp(id, best[j]) == 0)
				return;
			for (int m = 2; m > j; m--) {
				best[m] = best[m - 1];
				bestd[m] = bestd[m - 1];
			}
			best[j] = id;
			bestd[j] = d;
			return;
		}
}

/* Whether an imported declaration or one of its members has this stable id. */
static bool
imported_id(const Sym *y, const char *want)
{
	if (y->id && strcmp(y->id, want) == 0)
		return true;
	for (int f = 0; f < y->nom->nfields; f++)
		if (y->nom->fields[f].id && strcmp(y->nom->fields[f].id, want) == 0)
			return true;
	for (int c = 0; c < y->nom->ncases; c++) {
		if (y->nom->cases[c].id && strcmp(y->nom->cases[c].id, want) == 0)
			return true;
		for (int f = 0; f < y->nom->cases[c].nfields; f++)
			if (y->nom->cases[c].fields[f].id && strcmp(y->nom->cases[c].fields[f].id, want) == 0)
				return true;
	}
	return false;
}

/* G404's help names the nearest stable ids (declarations and members) as the
 * context's G001 does, so a misspelt selector, or a name written where the
 * stable id goes, is one edit from applying. */
static void
g404_help(Planner *P, Diag *g, const char *want)
{
	if (!g)
		return;
	const char *best[3] = { NULL, NULL, NULL };
	int bestd[3] = { 0, 0, 0 };
	/* tighter than G001's: ids share their module prefix, so a looser bound
	 * offers every short sibling (`geo.absent`: `geo.area`, `geo.point`) */
	int limit = strlen(want) <= 4 ? 1 : 1 + (int)strlen(want) / 6;
	for (SymId i = 0; i < P->S->syms.len; i++) {
		Sym *y = sema_sym(P->S, i);
		if (y->origin && imported_id(y, want)) {
			/* a project module's import: declared in its provider, which a
			 * patch of that module's file selects (not "did you mean" itself) */
			diag_set_help(g, "`%.200s` is declared in module `%.200s` and imported here: patch that module's file", want,
			    y->origin);
			return;
		}
		if (y->prelude || y->origin)
			continue;   /* compiler-owned or imported: no patch of this module selects them */
		near_id(want, y->id, y->name, limit, best, bestd);
		for (int f = 0; f < y->nom->nfields; f++)
			near_id(want, y->nom->fields[f].id, y->nom->fields[f].name, limit, best, bestd);
		for (int c = 0; c < y->nom->ncases; c++) {
			near_id(want, y->nom->cases[c].id, y->nom->cases[c].name, limit, best, bestd);
			for (int f = 0; f < y->nom->cases[c].nfields; f++)
				near_id(want, y->nom->cases[c].fields[f].id, y->nom->cases[c].fields[f].name, limit, best, bestd);
		}
	}
	if (!best[0])
		return;
	/* the suggestions whole: they are ids to copy (cut at 200 bytes before) */
	Buf list = {0};
	for (int j = 0; j < 3 && best[j]; j++)
		buf_printf(&list, "%s `%s`", j ? "," : "", best[j]);
	diag_set_help(g, "did you mean%s? `semaprax query <file>` lists every stable id", list.data);
	buf_free(&list);
}

SymId
patch_lookup_id(Planner *P, const PatchWord *w, const char **mk, SymId *owner)
{
	SymId id = sema_strmap_get(&P->S->ids, w->s);
	*mk = NULL;
	if (id >= 0)
		return id;
	*mk = patch_member_kind(P->S, w->s, owner);
	if (!*mk)
		g404_help(P, diag_report(P->d, DIAG_G404, &w->span, "stable id `%s` does not exist", w->s), w->s);
	return -1;
}

/* The symbol a rename's first word (o->w[0]) names, once the new name is
 * acceptable: -1 when either is refused, with *mk the member kind the word
 * names instead (NULL: refused and reported).  rename, rename-member and
 * rename-case begin here. */
static SymId
rename_target(Planner *P, const char **mk, SymId *owner)
{
	*mk = NULL;
	if (!new_name_ok(P))
		return -1;
	return patch_lookup_id(P, &P->o->w[0], mk, owner);
}

static bool
plan_rename(Planner *P)
{
	Sema *S = P->S;
	const PatchOp *o = P->o;
	SymId owner;
	const char *mk;
	SymId id = rename_target(P, &mk, &owner);
	if (id < 0) {
		if (mk) {
			Diag *g = diag_report(P->d, DIAG_G107, &o->w[0].span, "`%s` is a %s of `%s`; `rename` takes a function or a resource",
			    o->w[0].s, mk, sema_sym(S, owner)->name);
			diag_set_help(g, "%s", strcmp(mk, "case") == 0 ? "use `rename-case owner <variant-id> case <case-id> to <name>` (schema v2)"
			    : "use `rename-member owner <record-or-case-id> member <field-id> to <name>` (schema v2)");
		}
		return false;
	}
	Sym *y = sema_sym(S, id);
	if (y->prelude || (y->kind != SK_FN && y->kind != SK_RESOURCE)) {
		Diag *g = diag_report(P->d, DIAG_G107, &o->w[0].span, "`%s` is %s %s `%s`; `rename` takes a function or a resource",
		    o->w[0].s, y->prelude ? "the compiler-owned" : "a", patch_kind_name(y->kind), y->name);
		diag_set_help(g, y->kind == SK_RECORD || y->kind == SK_VARIANT || y->kind == SK_CLASS
		    ? "type renames are not semantic patch operations; rename its members with `rename-member` or `rename-case`"
		    : "select a function or resource by its stable id");
		return false;
	}
	if (!new_word_ok(P, y->kind == SK_FN ? "function" : "resource"))
		return false;
	if (!y->explicit_id) {
		Diag *g = diag_report(P->d, DIAG_G104, &o->w[0].span, "`%s` needs an explicit @id before it can be renamed", y->name);
		if (y->kind == SK_FN)
			diag_set_help(g, "give it an explicit `@id(\"…\")` first: `semaprax repairs <file> assign-function-id %s` lists the repair, "
			    "`semaprax repair` previews its v3 patch (for `patch`); then rename the new id", y->id);
		else
			diag_set_help(g, "write an explicit `@id(\"…\")` before `resource %s` first, then rename that id", y->name);
		return false;
	}
	if (no_op(P, y->name))
		return false;
	P->sym = id;
	add_change(P, y->id, y->kind == SK_RESOURCE ? "resource" : y->ntparams ? "function_template" : "function", y->name);
	rename_at(P, y->name_span);
	if (y->kind == SK_FN) {
		P->on_expr = fn_expr;
	} else {
		P->old = y->name;
		P->on_type = resource_type;
	}
	patch_walk_module(P);
	return true;
}

/* The field of a record (ci < 0) or case with stable id member. */
static int
field_of(Sym *y, int ci, const char *member)
{
	const FieldSym *f = ci < 0 ? y->nom->fields : y->nom->cases[ci].fields;
	int n = ci < 0 ? y->nom->nfields : y->nom->cases[ci].nfields;
	for (int i = 0; i < n; i++)
		if (strcmp(f[i].id, member) == 0)
			return i;
	return -1;
}

/* G107's help for a member or case rename whose owner or member has an
 * automatic identity: which of them needs an `@id` (an automatic identity
 * is derived from the name, so a rename cannot keep it). */
static void
id_help(Diag *g, const char *kind, const char *owner, bool owner_explicit, const char *what, const char *member, bool member_explicit)
{
	Buf which = {0};
	if (!owner_explicit)
		buf_printf(&which, "`%s %s`", kind, owner);
	if (!owner_explicit && !member_explicit)
		buf_puts(&which, " and before ");
	if (!member_explicit)
		buf_printf(&which, "its %s `%s`", what, member);
	diag_set_help(g, "write an `@id(\"…\")` line before %s in the source, then select by that id (an automatic identity is made "
	    "from the name, so a rename cannot keep it; `semaprax repairs` assigns ids to functions only)", which.data);
	buf_free(&which);
}

static bool
plan_member(Planner *P)
{
	Sema *S = P->S;
	const PatchOp *o = P->o;
	/* the owner: a record by its id, or a case by its id */
	SymId v;
	const char *mk;
	SymId owner = rename_target(P, &mk, &v);
	int ci = -1;
	if (owner < 0) {
		if (!mk)
			return false;
		if (strcmp(mk, "case") != 0) {
			diag_report(P->d, DIAG_G107, &o->w[0].span, "owner `%s` is a %s; `rename-member` takes a record or a variant case", o->w[0].s, mk);
			return false;
		}
		owner = v;
		for (int c = 0; c < sema_sym(S, v)->nom->ncases; c++)
			if (strcmp(sema_sym(S, v)->nom->cases[c].id, o->w[0].s) == 0)
				ci = c;
	}
	Sym *y = sema_sym(S, owner);
	if (ci < 0 && y->kind != SK_RECORD) {
		Diag *g = diag_report(P->d, DIAG_G107, &o->w[0].span, "owner `%s` is a %s; `rename-member` takes a record or a variant case", o->w[0].s, patch_kind_name(y->kind));
		diag_set_help(g, "a variant's fields belong to its cases: name the case's stable id as the owner");
		return false;
	}
	int fi = field_of(y, ci, o->w[1].s);
	if (fi < 0) {
		diag_report(P->d, DIAG_G107, &o->w[1].span, "member `%s` does not belong to stable owner `%s`", o->w[1].s, o->w[0].s);
		return false;
	}
	if (!new_word_ok(P, "field"))
		return false;
	const FieldSym *f = ci < 0 ? &y->nom->fields[fi] : &y->nom->cases[ci].fields[fi];
	bool owner_explicit = ci < 0 ? y->explicit_id : y->nom->cases[ci].explicit_id;
	if (y->prelude || !owner_explicit || !f->explicit_id) {
		Diag *g = diag_report(P->d, DIAG_G107, &o->w[1].span, y->prelude ? "member `%s` of `%s` is compiler-owned"
		    : "member `%s` and owner `%s` need explicit @id identities", o->w[1].s, o->w[0].s);
		/* agent40: the agent had selected them by the ids `query` lists (the
		 * default help's advice); what is missing is an explicit id */
		if (g && !y->prelude)
			id_help(g, ci < 0 ? "record" : "case", ci < 0 ? y->name : y->nom->cases[ci].name, owner_explicit, ci < 0 ? "field" : "case field", f->name, f->explicit_id);
		return false;
	}
	if (no_op(P, f->name))
		return false;
	P->sym = owner;
	P->ci = ci;
	P->old = f->name;
	add_change(P, f->id, ci < 0 ? "field" : "case_field", f->name);
	/* the declaration */
	const Decl *d = y->decl;
	if (d && ci < 0 && d->kind == DECL_RECORD)
		rename_at(P, d->u.record.fields[fi].name.span);
	else if (d && ci >= 0 && d->kind == DECL_VARIANT)
		rename_at(P, d->u.variant.cases[ci].fields[fi].name.span);
	P->on_expr = member_expr;
	P->on_pat = member_pat;
	if (ci < 0)
		P->on_stmt = member_stmt;
	patch_walk_module(P);
	return true;
}

static bool
plan_case(Planner *P)
{
	Sema *S = P->S;
	const PatchOp *o = P->o;
	SymId owner;
	const char *mk;
	SymId v = rename_target(P, &mk, &owner);
	if (v < 0) {
		if (mk)
			diag_report(P->d, DIAG_G107, &o->w[0].span, "owner `%s` is a %s; `rename-case` takes a variant", o->w[0].s, mk);
		return false;
	}
	Sym *y = sema_sym(S, v);
	if (y->kind != SK_VARIANT) {
		diag_report(P->d, DIAG_G107, &o->w[0].span, "owner `%s` is a %s; `rename-case` takes a variant", o->w[0].s, patch_kind_name(y->kind));
		return false;
	}
	int ci = -1;
	for (int c = 0; c < y->nom->ncases; c++)
		if (strcmp(y->nom->cases[c].id, o->w[1].s) == 0)
			ci = c;
	if (ci < 0) {
		diag_report(P->d, DIAG_G107, &o->w[1].span, "case `%s` does not belong to stable variant `%s`", o->w[1].s, o->w[0].s);
		return false;
	}
	if (y->prelude || !y->explicit_id || !y->nom->cases[ci].explicit_id) {
		Diag *g = diag_report(P->d, DIAG_G107, &o->w[1].span, y->prelude ? "case `%s` of `%s` is compiler-owned"
		    : "case `%s` and variant `%s` need explicit @id identities", o->w[1].s, o->w[0].s);
		if (g && !y->prelude)
			id_help(g, "variant", y->name, y->explicit_id, "case", y->nom->cases[ci].name, y->nom->cases[ci].explicit_id);
		return false;
	}
	if (!new_word_ok(P, "case"))
		return false;
	if (no_op(P, y->nom->cases[ci].name))
		return false;
	P->sym = v;
	P->ci = ci;
	P->old = y->nom->cases[ci].name;
	add_change(P, y->nom->cases[ci].id, "variant_case", y->nom->cases[ci].name);
	if (y->decl && y->decl->kind == DECL_VARIANT)
		rename_at(P, y->decl->u.variant.cases[ci].name.span);
	P->on_expr = case_expr;
	P->on_pat = case_pat;
	patch_walk_module(P);
	return true;
}

/* v3: insert `@id("<persistent>")` before the selected automatic function. */
static bool
plan_assign_id(Planner *P, const char *revision)
{
	Sema *S = P->S;
	const PatchOp *o = P->o;
	SymId f = patch_repair_target(S, o->w[2].s);
	char rid[72];
	patch_repair_id(revision, o->w[2].s, rid);
	if (f < 0 || strcmp(rid, o->w[0].s) != 0 || strcmp(sema_sym(S, f)->name, o->w[3].s) != 0) {
		Diag *g = diag_report(P->d, DIAG_R101, &o->line, f < 0 ? "`%s` is not an automatic function identity reported by SPX-S103"
		    : strcmp(rid, o->w[0].s) != 0 ? "repair id `%s` was not issued for this revision and target" : "target `%s` is not named as the patch says",
		    f < 0 ? o->w[2].s : strcmp(rid, o->w[0].s) != 0 ? o->w[0].s : o->w[2].s);
		diag_set_help(g, "list the repair again with `semaprax repairs <file> assign-function-id <automatic-id>`");
		return false;
	}
	const char *why = patch_persistent_id_problem(S, o->to.s);
	if (why) {
		diag_report(P->d, DIAG_R102, &o->to.span, "invalid persistent id `%s`: %s", o->to.s, why);
		return false;
	}
	Sym *y = sema_sym(S, f);
	Span at = y->decl ? y->decl->span : y->span;
	/* keep the declaration's indentation on the line after the attribute */
	uint32_t ls = at.start;
	while (ls > 0 && (P->src[ls - 1] == ' ' || P->src[ls - 1] == '\t'))
		ls--;
	Buf b = {0};
	buf_printf(&b, "@id(\"%s\")\n%.*s", o->to.s, (int)(at.start - ls), P->src + ls);
	Span ins = { at.start, at.start };
	patch_add_edit(P, ins, b.data);
	buf_free(&b);
	return true;
}

/* ---- replace-call-type-argument ---- */

char *
patch_instance_id(const char *template_id, const char *const *args, int nargs)
{
	Buf b = {0};
	buf_printf(&b, "semaprax.function-instance.v1:%zu:%s:%d:", strlen(template_id), template_id, nargs);
	for (int i = 0; i < nargs; i++)
		buf_printf(&b, "%zu:%s", strlen(args[i]), args[i]);
	return b.data;
}

/* `declaration:<len>:<id>:expression:<index>` → id (in buf) and index. */
bool
patch_parse_expression_id(const char *s, char *id, size_t size, uint32_t *index)
{
	if (strncmp(s, "declaration:", 12) != 0)
		return false;
	s += 12;
	char *end;
	unsigned long len = strtoul(s, &end, 10);
	if (end == s || *end != ':' || (s[0] == '0' && end - s > 1) || len == 0 || len >= size || strlen(end + 1) < len)
		return false;
	memcpy(id, end + 1, len);
	id[len] = '\0';
	s = end + 1 + len;
	if (strncmp(s, ":expression:", 12) != 0)
		return false;
	s += 12;
	if (!*s || (s[0] == '0' && s[1]) || strlen(s) > 9)
		return false;
	for (const char *c = s; *c; c++)
		if (*c < '0' || *c > '9')
			return false;
	*index = (uint32_t)strtoul(s, NULL, 10);
	return true;
}

const HirFunc *
patch_hir_fn(const HirModule *H, const char *fid)
{
	for (int i = 0; H && i < H->nfuncs; i++)
		if (H->funcs[i].id && strcmp(H->funcs[i].id, fid) == 0)
			return &H->funcs[i];
	return NULL;
}

typedef struct FindHir {
	uint32_t index;
	const HirExpr *found;
} FindHir;

static void
find_hir(void *ctx, const HirExpr *e)
{
	FindHir *f = ctx;
	if (e->index == f->index && !f->found)
		f->found = e;
}

const HirExpr *
patch_hir_expr(const HirFunc *f, uint32_t index)
{
	FindHir fh = { index, NULL };
	HirVisitor v = { find_hir, NULL, NULL, &fh };
	hir_visit(f, &v);
	return fh.found;
}

static void
find_call(Planner *P, const Expr *e)
{
	if (e->kind == EXPR_CALL && e->span.start == P->call_span.start && e->span.end == P->call_span.end)
		P->call = e;
}

static const char *
targ_text(Sema *S, TypeId t)
{
	return t == T_I64 ? "i64" : t == T_BOOL ? "bool" : sema_type_name(S, t);
}

static bool
targ_error(Planner *P, const char *why)
{
	Diag *g = diag_report(P->d, DIAG_G108, &P->o->w[0].span, "generic call selector for expression `%s` is stale or invalid: %s", P->o->w[0].s, why);
	diag_set_help(g, "regenerate the patch from the current semantic graph (`semaprax graph <file>` numbers each function's expressions)");
	return false;
}

/* plan_targ with fid sized from the selector (a function id of any length). */
static bool
plan_targ_in(Planner *P, char *fid, size_t size)
{
	Sema *S = P->S;
	const PatchOp *o = P->o;
	uint32_t index;
	if (!P->H)
		return targ_error(P, "the program has no HIR");
	if (!patch_parse_expression_id(o->w[0].s, fid, size, &index))
		return targ_error(P, "not an expression identity `declaration:<len>:<function-id>:expression:<index>`");
	const HirFunc *f = patch_hir_fn(P->H, fid);
	if (!f)
		return targ_error(P, "no function has this identity");
	const HirExpr *e = patch_hir_expr(f, index);
	if (!e || e->kind != HIR_CALL || e->u.call.kind != CALL_FN || e->u.call.ntargs == 0)
		return targ_error(P, "expression does not identify a generic call");
	Sym *tmpl = sema_sym(S, e->u.call.fn);
	if (strcmp(tmpl->id, o->w[1].s) != 0)
		return targ_error(P, "the call's template is another");
	int nargs = e->u.call.ntargs < 8 ? e->u.call.ntargs : 8;
	const char *args[8];
	for (int i = 0; i < nargs; i++)
		args[i] = targ_text(S, e->u.call.targs[i]);
	char *inst = patch_instance_id(tmpl->id, args, nargs);
	bool same = strcmp(inst, o->w[2].s) == 0;
	free(inst);
	if (!same)
		return targ_error(P, "old-instance is not the call's instance");
	uint32_t ix = (uint32_t)strtoul(o->w[3].s, NULL, 10);
	if (ix >= (uint32_t)nargs || strcmp(args[ix], o->w[4].s) != 0)
		return targ_error(P, "the index or `from` type does not match the call");
	if (strcmp(o->w[4].s, o->to.s) == 0) {
		Diag *g = diag_report(P->d, DIAG_G106, &o->to.span, "call type argument %u is already `%s`", ix, o->to.s);
		diag_set_help(g, "remove the operation, or choose the other type");
		return false;
	}
	/* the written type argument */
	P->call_span = e->span;
	P->on_expr = find_call;
	patch_walk_module(P);
	const Expr *c = P->call;
	if (!c || (uint32_t)c->u.call.ntargs <= ix || c->u.call.targs[ix]->span.end - c->u.call.targs[ix]->span.start != strlen(o->w[4].s) ||
	    memcmp(P->src + c->u.call.targs[ix]->span.start, o->w[4].s, strlen(o->w[4].s)) != 0)
		return targ_error(P, "the type argument is not written at the call");
	patch_add_edit(P, c->u.call.targs[ix]->span, o->to.s);
	/* the change: one per call expression */
	PatchChange *ch = NULL;
	for (int i = 0; i < P->out->changes.len; i++)
		if (P->out->changes.items[i].expression && strcmp(P->out->changes.items[i].expression, o->w[0].s) == 0)
			ch = &P->out->changes.items[i];
	if (!ch) {
		PatchChange z;
		memset(&z, 0, sizeof z);
		z.op = P->op;
		z.expression = o->w[0].s;
		/* a closure's calls belong to the function that holds it */
		Sym *holder = NULL;
		for (SymId i = 0; i < S->syms.len && !holder; i++) {
			Sym *y = sema_sym(S, i);
			size_t n = strlen(y->id);
			if ((y->kind == SK_FN || y->kind == SK_METHOD) && strncmp(fid, y->id, n) == 0 && (fid[n] == '\0' || fid[n] == ':'))
				holder = y;
		}
		z.containing = holder ? holder->id : f->id;
		z.containing_kind = holder && holder->ntparams ? "function_template" : "function";
		z.template_id = tmpl->id;
		z.nargs = nargs;
		for (int i = 0; i < nargs; i++)
			z.before_args[i] = z.after_args[i] = args[i];
		z.before_instance = patch_instance_id(z.template_id, z.before_args, nargs);
		VEC_PUSH(P->out->changes, z);
		ch = &P->out->changes.items[P->out->changes.len - 1];
	}
	ch->after_args[ix] = o->to.s;
	free(ch->after_instance);
	ch->after_instance = patch_instance_id(ch->template_id, ch->after_args, ch->nargs);
	if (ch->nops < 8)
		ch->ops[ch->nops++] = P->op;
	return true;
}

static bool
plan_targ(Planner *P)
{
	size_t size = strlen(P->o->w[0].s) + 1;
	char *fid = spx_xmalloc(size);
	bool ok = plan_targ_in(P, fid, size);
	free(fid);
	return ok;
}

int
patch_edit_cmp(const void *a, const void *b)
{
	const PatchEdit *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return x->op - y->op;
}

bool
patch_plan(const SPatch *p, const Module *m, Sema *S, const HirModule *H, const char *src, size_t len,
    const char *revision, DiagSink *d, PatchPlan *out)
{
	memset(out, 0, sizeof *out);
	if (strcmp(p->base.s, revision) != 0) {
		Diag *g = diag_report(d, DIAG_G409, &p->base.span, "stale semantic patch: expected graph %s, current graph %s", p->base.s, revision);
		(void)g;
		return false;
	}
	int errors = d->errors;
	for (int i = 0; i < p->nops; i++) {
		Planner P;
		patch_planner_init(&P, S);
		P.m = m;
		P.H = H;
		P.src = src;
		P.d = d;
		P.out = out;
		P.op = i;
		P.o = &p->ops[i];
		switch (p->ops[i].kind) {
		case POP_RENAME: plan_rename(&P); break;
		case POP_RENAME_MEMBER: plan_member(&P); break;
		case POP_RENAME_CASE: plan_case(&P); break;
		case POP_ASSIGN_ID: plan_assign_id(&P, revision); break;
		case POP_NO_NEW_EFFECTS: break;
		case POP_REPLACE_TARG: plan_targ(&P); break;
		default: patch_plan_v4(&P); break;
		}
	}
	if (d->errors == errors && patch_has_v4_edit(p)) {
		Planner P;
		patch_planner_init(&P, S);
		P.m = m;
		P.H = H;
		P.src = src;
		P.d = d;
		P.out = out;
		if (patch_v4_add_arguments(&P, p) && patch_v4_check_cases(&P, p) && patch_v4_remove_sites(&P, p))
			patch_v4_check_deletes(&P, p);
	}
	if (d->errors != errors)
		return false;
	/* sort; identical edits of several operations are one; overlaps conflict */
	if (out->edits.len > 1)
		qsort(out->edits.items, (size_t)out->edits.len, sizeof(PatchEdit), patch_edit_cmp);
	int n = 0;
	for (int i = 0; i < out->edits.len; i++) {
		PatchEdit *e = &out->edits.items[i];
		if (n > 0) {
			PatchEdit *q = &out->edits.items[n - 1];
			if (e->start == q->start && e->end == q->end && strcmp(e->text, q->text) == 0) {
				free(e->text);
				continue;
			}
			if (e->start < q->end || (e->start == q->start && e->end == q->end)) {
				Diag *g = diag_report(d, DIAG_G106, &p->ops[e->op].line, "semantic patch edits overlap at source byte %u (with the operation on line %u)",
				    e->start, p->ops[q->op].lineno);
				diag_set_help(g, "two operations change the same source; keep one of them");
				for (int k = i; k < out->edits.len; k++)
					free(out->edits.items[k].text);
				out->edits.len = n;
				return false;
			}
		}
		out->edits.items[n++] = *e;
	}
	out->edits.len = n;
	if (n == 0 && p->nops > 0) {
		bool any = false;
		for (int i = 0; i < p->nops; i++)
			any |= p->ops[i].kind != POP_NO_NEW_EFFECTS;
		if (any) {
			Diag *g = diag_report(d, DIAG_G106, NULL, "semantic patch changes nothing");
			(void)g;
			return false;
		}
	}
	return patch_edits_in_place(p, out, src, len, d);
}

void
patch_plan_free(PatchPlan *pl)
{
	for (int i = 0; i < pl->edits.len; i++)
		free(pl->edits.items[i].text);
	VEC_FREE(pl->edits);
	for (int i = 0; i < pl->changes.len; i++) {
		free(pl->changes.items[i].before_text);
		free(pl->changes.items[i].after_text);
		free(pl->changes.items[i].before_instance);
		free(pl->changes.items[i].after_instance);
		free(pl->changes.items[i].added_id);
	}
	VEC_FREE(pl->changes);
}

char *
patch_apply(const char *src, size_t len, const PatchPlan *pl, size_t *out_len)
{
	Buf b = {0};
	size_t at = 0;
	for (int i = 0; i < pl->edits.len; i++) {
		const PatchEdit *e = &pl->edits.items[i];
		buf_put(&b, src + at, e->start - at);
		buf_puts(&b, e->text);
		at = e->end;
	}
	buf_put(&b, src + at, len - at);
	*out_len = b.len;
	return buf_take(&b);
}

/* ---- repairs ---- */

void
patch_repair_id(const char *revision, const char *target, char out[72])
{
	static const char domain[] = "semaprax.diagnostic-repair-id.v1";
	Sha256 h;
	sha256_init(&h);
	sha256_update(&h, domain, sizeof domain);   /* with its NUL */
	sha256_field(&h, revision, strlen(revision));
	sha256_field(&h, "SPX-S103", 8);
	sha256_field(&h, "function", 8);
	sha256_field(&h, target, strlen(target));
	unsigned char dg[32];
	sha256_final(&h, dg);
	char hex[65];
	sha256_hex(dg, hex);
	snprintf(out, 72, "sha256:%s", hex);
}

const char *
patch_persistent_id_problem(Sema *S, const char *id)
{
	static const char *const prefixes[] = { "auto:", "core.", "semaprax.", "declaration:", "function-execution:", "parameter:", "nominal:" };
	size_t n = strlen(id);
	if (n < 1 || n > 255)
		return "a persistent id is 1 to 255 bytes";
	if (!((id[0] >= 'a' && id[0] <= 'z') || (id[0] >= 'A' && id[0] <= 'Z') || (id[0] >= '0' && id[0] <= '9')))
		return "a persistent id starts with an ASCII letter or digit";
	for (const char *c = id; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '.' || *c == '_' || *c == ':' || *c == '-'))
			return "a persistent id has only ASCII letters, digits, `.`, `_`, `:` and `-`";
	for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
		if (strncmp(id, prefixes[i], strlen(prefixes[i])) == 0)
			return "the prefix is reserved";
	if (strcmp(id, "bool") == 0 || strcmp(id, "i64") == 0)
		return "the id is reserved";
	SymId owner;
	if (sema_strmap_get(&S->ids, id) >= 0 || patch_member_kind(S, id, &owner))
		return "another declaration already uses it";
	return NULL;
}

SymId
patch_repair_target(Sema *S, const char *target)
{
	SymId f = sema_strmap_get(&S->ids, target);
	if (f < 0)
		return -1;
	Sym *y = sema_sym(S, f);
	if (y->kind != SK_FN || y->explicit_id || y->prelude || strcmp(y->name, "main") == 0)
		return -1;
	return f;
}

static void
count_expr(Planner *P, const Expr *e)
{
	if (sema_expr_sym(P->S, e->id) == P->sym && (e->kind == EXPR_CALL || e->kind == EXPR_NAME || e->kind == EXPR_METHOD || e->kind == EXPR_SUPER))
		P->ci++;
}

void
patch_planner_init(Planner *P, Sema *S)
{
	memset(P, 0, sizeof *P);
	P->S = S;
	P->sym = -1;
	P->ci = -1;
	P->invariants_of = -1;
}

int
patch_uses_in(Sema *S, const FnDecl *f, SymId fn)
{
	Planner P;
	patch_planner_init(&P, S);
	P.sym = fn;
	P.ci = 0;   /* the count */
	P.on_expr = count_expr;
	patch_walk_fn(&P, f);
	return P.ci;
}

/* ---- add-parameter and remove-parameter: the target (duplicates D1) ---- */

/* Is class c at or below the class below[] marks 1 (the root)?  below[]
 * per symbol: 0 not yet known, 1 yes, 2 no, 3 on the chain being walked
 * (met again: a cycle, which sema reports; no).  Each class's answer is
 * settled once, so a pass over the table is linear. */
static bool
class_below(Sema *S, SymId c, unsigned char *below)
{
	SymId a = c;
	while (a >= 0 && below[a] == 0) {
		below[a] = 3;
		a = sema_sym(S, a)->nom->parent;
	}
	unsigned char v = a >= 0 && below[a] == 1 ? 1 : 2;
	for (SymId b = c; b >= 0 && below[b] == 3; b = sema_sym(S, b)->nom->parent)
		below[b] = v;
	return v == 1;
}

int
patch_override_family(Sema *S, SymId m, SymId **out)
{
	const Sym *y = sema_sym(S, m);
	if (y->kind != SK_METHOD || y->owner < 0) {
		*out = spx_xmalloc(sizeof(SymId));
		(*out)[0] = m;
		return 1;
	}
	/* the topmost class declaring the name: every override of its method, at any depth, is the family */
	SymId root = y->owner;
	for (SymId c = sema_sym(S, y->owner)->nom->parent; c >= 0; c = sema_sym(S, c)->nom->parent)
		if (sema_own_method(S, c, y->name) >= 0)
			root = c;
	/* one pass marks the classes below root and counts their methods of the name */
	unsigned char *below = spx_xcalloc((size_t)S->syms.len + 1, 1);
	below[root] = 1;
	int n = 0;
	for (SymId c = 0; c < S->syms.len; c++)
		if (sema_sym(S, c)->kind == SK_CLASS && class_below(S, c, below) && sema_own_method(S, c, y->name) >= 0)
			n++;
	*out = spx_xmalloc(sizeof(SymId) * (size_t)(n ? n : 1));
	int k = 0;
	for (SymId c = 0; c < S->syms.len && k < n; c++)
		if (sema_sym(S, c)->kind == SK_CLASS && below[c] == 1) {
			SymId x = sema_own_method(S, c, y->name);
			if (x >= 0)
				(*out)[k++] = x;
		}
	free(below);
	if (k == 0)
		(*out)[k++] = m;
	return k;
}

void
patch_family_walk(Planner *P, const SPatch *p, int op, SymId f, FamilyWalk *fw, void *user, void (*cb)(Planner *, const Expr *))
{
	fw->nf = patch_override_family(P->S, f, &fw->fam);
	fw->sites = spx_xcalloc((size_t)fw->nf, sizeof(int));
	fw->change = patch_family_changes(P, op, fw->fam, fw->nf);
	P->user = user;
	patch_walk_op(P, p, op, f, cb);
	P->user = NULL;
	for (int m = 0; m < fw->nf; m++)
		if (fw->change[m] > 0)
			P->out->changes.items[fw->change[m] - 1].sites += fw->sites[m];
}

void
patch_family_walk_free(FamilyWalk *fw)
{
	free(fw->fam);
	free(fw->sites);
	free(fw->change);
}

/* patch_override_family with the selected member m first (its refusals and
 * texts come before the rest of the family's) */
int
patch_family_selected_first(Sema *S, SymId m, SymId **out)
{
	int nf = patch_override_family(S, m, out);
	for (int i = 1; i < nf; i++)
		if ((*out)[i] == m) {
			(*out)[i] = (*out)[0];
			(*out)[0] = m;
		}
	return nf;
}

SymId
patch_param_target(Planner *P, bool add, uint32_t *at)
{
	const PatchOp *o = P->o;
	const char *op = add ? "add-parameter" : "remove-parameter";
	SymId f = patch_select_fn(P, &o->w[0], true, op);
	if (f < 0)
		return -1;
	Sema *S = P->S;
	Sym *y = sema_sym(S, f);
	int first = y->kind == SK_METHOD, n = y->fn->nparams - first;
	unsigned long ix = strtoul(o->w[1].s, NULL, 10);
	if (n < 0 || (add ? ix > (unsigned long)n : ix >= (unsigned long)n)) {
		Buf why = {0}, help = {0};   /* as long as the name */
		int k = n < 0 ? 0 : n;
		buf_printf(&why, "`%s` has %d parameter%s%s", y->name, k, k == 1 ? "" : "s", first ? " after `self`" : "");
		if (add)
			buf_printf(&why, ", so a new one goes at 0 to %d", k);
		if (!first) {
			patch_stale_index(P, &o->w[1], why.data, add ? "parameter position" : "parameter", (unsigned long)n + add);
		} else {
			/* a method's index counts the parameters after its receiver, which stays */
			if (add || k > 0) {
				buf_puts(&help, "a method's index counts the parameters written after `self` (which no operation moves or removes): write `0`");
				if ((add ? k : k - 1) > 0)
					buf_printf(&help, " to `%d`", add ? k : k - 1);
			}
			else
				buf_printf(&help, "`self` is the receiver of `%s` and stays: a method's index counts the parameters written after it, "
				    "and `%s` has none", y->name, y->name);
			patch_stale_help(P, &o->w[1], why.data, help.data);
		}
		buf_free(&why);
		buf_free(&help);
		return -1;
	}
	SymId *fam;
	int nf = patch_override_family(S, f, &fam);
	bool ok = true;
	for (int i = 0; i < nf && ok; i++) {
		/* two parameter operations in one family would edit the same lists
		 * (o is operation P->op of the patch's array: q the earlier ones) */
		for (int j = 0; j < P->op && ok; j++) {
			const PatchOp *q = o - P->op + j;
			if (q->kind != POP_ADD_PARAM && q->kind != POP_REMOVE_PARAM)
				continue;
			if (sema_strmap_get(&S->ids, q->w[0].s) == fam[i] && fam[i] != f) {
				Diag *g = diag_report(P->d, DIAG_G106, &o->w[0].span, "`%s` and `%s` (the operation on line %u) are methods of one override "
				    "family, whose parameters change together", o->w[0].s, q->w[0].s, q->lineno);
				diag_set_help(g, "one `add-parameter` or `remove-parameter` per override family a patch: keep one of the two operations");
				ok = false;
			}
		}
	}
	free(fam);
	if (!ok)
		return -1;
	*at = (uint32_t)ix + (uint32_t)first;
	return f;
}

int
patch_family_call(Sema *S, const Expr *e, const SymId *fam, int n, Expr *const **args, int *nargs)
{
	if (e->kind == EXPR_CALL) {
		*args = e->u.call.args;
		*nargs = e->u.call.nargs;
	} else if (e->kind == EXPR_METHOD) {
		*args = e->u.method.args;
		*nargs = e->u.method.nargs;
	} else if (e->kind == EXPR_SUPER) {
		*args = e->u.super_.args;
		*nargs = e->u.super_.nargs;
	} else {
		return -1;
	}
	SymId s = sema_expr_sym(S, e->id);
	for (int i = 0; s >= 0 && i < n; i++)
		if (fam[i] == s)
			return i;
	return -1;
}

int *
patch_family_changes(Planner *P, int op, const SymId *fam, int n)
{
	int *v = spx_xcalloc((size_t)n + 1, sizeof(int));
	int first = 0;
	/* a change's member found through its id's symbol (pos[]: its index + 1),
	 * not by comparing every change with every member, which a family of
	 * thousands of overrides paid squared (qa40); when a member's id does
	 * not lead back to it, the comparison as before */
	int *pos = spx_xcalloc((size_t)P->S->syms.len + 1, sizeof(int));
	bool direct = true;
	for (int m = 0; m < n && direct; m++) {
		direct = sema_strmap_get(&P->S->ids, sema_sym(P->S, fam[m])->id) == fam[m];
		if (direct)
			pos[fam[m]] = m + 1;
	}
	for (int k = 0; k < P->out->changes.len; k++) {
		const PatchChange *c = &P->out->changes.items[k];
		if (c->op == op && c->v4kind && !first)
			first = k + 1;
		if (c->op != op || !c->v4kind || !c->function)
			continue;
		if (direct) {
			SymId y = sema_strmap_get(&P->S->ids, c->function);
			if (y >= 0 && pos[y])
				v[pos[y] - 1] = k + 1;
			continue;
		}
		for (int m = 0; m < n; m++)
			if (strcmp(c->function, sema_sym(P->S, fam[m])->id) == 0)
				v[m] = k + 1;
	}
	free(pos);
	/* another module's member has no change here: its calls here are the selected one's */
	for (int m = 0; m < n; m++)
		if (v[m] == 0)
			v[m] = first;
	return v;
}
