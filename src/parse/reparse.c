/*
 * reparse.c — one declaration re-parsed in place (the semantic service's
 * incremental parse, issue 17; docs/service.md, "Products").
 *
 * parse_splice_decl re-lexes and re-parses the text of one top-level
 * declaration of an edited source and splices the result into the module
 * the last parse built, shifting the spans of every later declaration and
 * comment by the edit's length delta (lazily, when the caller keeps a
 * lag table: parse_settle_decl).  It refuses (and changes nothing)
 * whenever the result could differ from parsing the whole edited text:
 * any diagnostic, a comment inside the old or the new declaration, text
 * that does not parse as exactly one declaration of the same kind,
 * anything that could renumber the module's statement-if discards
 * (`if`, `_if<n>`), or a module using `FnMutI64`/`mut fn`.  The caller
 * then parses the whole text.
 *
 * Expression and call numbers of the new declaration continue the
 * module's (Module.nexprs, ncalls): the old declaration's numbers are left
 * unused, and its nodes stay in the arena until the next whole parse.
 */
#include "parse_int.h"

#include <stdlib.h>
#include <string.h>

/* ---- the span walk ------------------------------------------------------------ */

/* Shifts every span of a tree by delta (out NULL), or collects them. */
typedef struct SpanWalk {
	int64_t delta;
	ParseSpans *out;
} SpanWalk;

static void
sp(SpanWalk *w, Span *s)
{
	if (w->out) {
		VEC_PUSH(*w->out, *s);
		return;
	}
	if (s->end == 0)
		return;   /* an absent piece (zeroed): no place to move */
	s->start = (uint32_t)((int64_t)s->start + w->delta);
	s->end = (uint32_t)((int64_t)s->end + w->delta);
}

static void walk_expr(SpanWalk *w, Expr *e);
static void walk_block(SpanWalk *w, Block *b);
static void walk_type(SpanWalk *w, Type *t);

static void
walk_name(SpanWalk *w, Name *n)
{
	sp(w, &n->span);
}

static void
walk_names(SpanWalk *w, Name *n, int k)
{
	for (int i = 0; i < k; i++)
		sp(w, &n[i].span);
}

static void
walk_qname(SpanWalk *w, QName *q)
{
	walk_names(w, q->parts, q->nparts);
	sp(w, &q->span);
}

/* A TYPE_NAME's name: a dotted name's parts, and its end (a one-part
 * name's span is the type's start and that end; see ast.h). */
static void
walk_type_name(SpanWalk *w, Type *t)
{
	if (ast_type_nparts(t) > 1)
		walk_names(w, t->u.name.parts, t->u.name.nparts);
	Span s = ast_type_name_span(t);
	sp(w, &s);
	t->name_end = s.end;
}

static void
walk_types(SpanWalk *w, Type **t, int n)
{
	for (int i = 0; i < n; i++)
		walk_type(w, t[i]);
}

static void
walk_type(SpanWalk *w, Type *t)
{
	if (!t)
		return;
	sp(w, &t->span);
	switch (t->kind) {
	case TYPE_NAME:
		walk_type_name(w, t);
		walk_types(w, ast_type_args(t), ast_type_nargs(t));
		break;
	case TYPE_ARRAY:
		walk_type(w, t->u.array.elem);
		sp(w, &t->u.array.len_span);
		break;
	case TYPE_FN:
		walk_types(w, t->u.fn.params, t->u.fn.nparams);
		walk_type(w, t->u.fn.result);
		break;
	}
}

static void
walk_exprs(SpanWalk *w, Expr **e, int n)
{
	for (int i = 0; i < n; i++)
		walk_expr(w, e[i]);
}

static void
walk_inits(SpanWalk *w, FieldInit *f, int n)
{
	for (int i = 0; i < n; i++) {
		walk_name(w, &f[i].name);
		walk_expr(w, f[i].value);
		sp(w, &f[i].span);
	}
}

static void walk_pattern(SpanWalk *w, Pattern *p);

static void
walk_fieldpats(SpanWalk *w, FieldPat *f, int n)
{
	for (int i = 0; i < n; i++) {
		walk_name(w, &f[i].name);
		walk_pattern(w, f[i].sub);
		sp(w, &f[i].span);
	}
}

static void
walk_pattern(SpanWalk *w, Pattern *p)
{
	if (!p)
		return;
	sp(w, &p->span);
	switch (p->kind) {
	case PAT_WILD:
		break;
	case PAT_BIND:
		walk_name(w, &p->u.bind);
		break;
	case PAT_LIT:
		walk_expr(w, p->u.lit.value);
		break;
	case PAT_OR:
		for (int i = 0; i < p->u.or.nalts; i++)
			walk_pattern(w, p->u.or.alts[i]);
		break;
	case PAT_CASE:
		walk_name(w, &p->u.case_.type);
		walk_name(w, &p->u.case_.case_name);
		walk_fieldpats(w, p->u.case_.fields, p->u.case_.nfields);
		break;
	case PAT_RECORD:
		walk_name(w, &p->u.record.type);
		walk_fieldpats(w, p->u.record.fields, p->u.record.nfields);
		break;
	}
}

static void
walk_expr(SpanWalk *w, Expr *e)
{
	if (!e)
		return;
	sp(w, &e->span);
	switch (e->kind) {
	case EXPR_INT: case EXPR_FLOAT: case EXPR_CHAR: case EXPR_BOOL:
		break;
	case EXPR_STRING:
		sp(w, &e->u.str.span);
		break;
	case EXPR_NAME:   /* (its span is the node's) */
		break;
	case EXPR_UNARY:
		walk_expr(w, e->u.unary.operand);
		break;
	case EXPR_BINARY:
		walk_expr(w, e->u.binary.lhs);
		walk_expr(w, e->u.binary.rhs);
		break;
	case EXPR_CALL:   /* (the callee's span is derived from the node's) */
		walk_types(w, e->u.call.targs, e->u.call.ntargs);
		walk_exprs(w, e->u.call.args, e->u.call.nargs);
		break;
	case EXPR_METHOD:
		walk_expr(w, e->u.method.recv);
		walk_name(w, &e->u.method.name);
		walk_exprs(w, e->u.method.args, e->u.method.nargs);
		break;
	case EXPR_FIELD:   /* (the name's span is derived from the node's) */
		walk_expr(w, e->u.field.base);
		break;
	case EXPR_TRY:
		walk_expr(w, e->u.try_.operand);
		break;
	case EXPR_WITH:
		walk_expr(w, e->u.with.base);
		walk_inits(w, e->u.with.inits, e->u.with.ninits);
		break;
	case EXPR_RECORD:
		walk_qname(w, &e->u.record.type);
		walk_types(w, e->u.record.targs, e->u.record.ntargs);
		walk_inits(w, e->u.record.inits, e->u.record.ninits);
		break;
	case EXPR_VARIANT:
		walk_name(w, &e->u.variant.type);
		walk_name(w, &e->u.variant.case_name);
		walk_types(w, e->u.variant.targs, e->u.variant.ntargs);
		walk_inits(w, e->u.variant.inits, e->u.variant.ninits);
		break;
	case EXPR_SUPER:
		walk_name(w, &e->u.super_.name);
		walk_exprs(w, e->u.super_.args, e->u.super_.nargs);
		break;
	case EXPR_BLOCK:
		walk_block(w, e->u.block);
		break;
	case EXPR_IF:
		walk_expr(w, e->u.if_.cond);
		walk_block(w, e->u.if_.then_block);
		walk_block(w, e->u.if_.else_block);
		break;
	case EXPR_MATCH:
		walk_expr(w, e->u.match.scrutinee);
		for (int i = 0; i < e->u.match.narms; i++) {
			MatchArm *a = &e->u.match.arms[i];
			walk_pattern(w, a->pat);
			walk_expr(w, a->guard);
			walk_expr(w, a->value);
			sp(w, &a->span);
		}
		sp(w, &e->u.match.close);
		break;
	case EXPR_CLOSURE:
		for (int i = 0; i < e->u.closure.nparams; i++) {
			walk_name(w, &e->u.closure.params[i].name);
			walk_type(w, e->u.closure.params[i].type);
		}
		walk_type(w, e->u.closure.result);
		walk_block(w, e->u.closure.body);
		break;
	case EXPR_ARRAY:
		walk_exprs(w, e->u.array.elems, e->u.array.nelems);
		break;
	}
}

static void
walk_stmt(SpanWalk *w, Stmt *s)
{
	sp(w, &s->span);
	switch (s->kind) {
	case STMT_LET:
		walk_name(w, &s->u.let.name);
		walk_type(w, s->u.let.type);
		walk_expr(w, s->u.let.value);
		break;
	case STMT_ASSIGN:
		walk_name(w, &s->u.assign.target);
		walk_name(w, &s->u.assign.field);
		walk_expr(w, s->u.assign.value);
		break;
	case STMT_WHILE:
		walk_expr(w, s->u.while_.cond);
		walk_block(w, s->u.while_.body);
		break;
	case STMT_FOR:
		walk_name(w, &s->u.for_.item);
		walk_expr(w, s->u.for_.iter);
		walk_block(w, s->u.for_.body);
		break;
	case STMT_IF:
		walk_expr(w, s->u.if_);
		break;
	case STMT_UNSAFE:
		sp(w, &s->u.unsafe.audit.span);
		walk_block(w, s->u.unsafe.body);
		break;
	}
}

static void
walk_block(SpanWalk *w, Block *b)
{
	if (!b)
		return;
	for (int i = 0; i < b->nstmts; i++)
		walk_stmt(w, b->stmts[i]);
	walk_expr(w, b->tail);
	sp(w, &b->span);
}

static void
walk_id(SpanWalk *w, IdAttr *a)
{
	sp(w, &a->value.span);
	sp(w, &a->span);
}

static void
walk_effects(SpanWalk *w, EffectSet *e)
{
	for (int i = 0; i < e->nnames; i++)
		walk_qname(w, &e->names[i]);
	sp(w, &e->span);
}

static void
walk_params(SpanWalk *w, Param *p, int n)
{
	for (int i = 0; i < n; i++) {
		walk_name(w, &p[i].name);
		walk_type(w, p[i].type);
		sp(w, &p[i].span);
	}
}

static void
walk_clauses(SpanWalk *w, Clause *c, int n)
{
	for (int i = 0; i < n; i++) {
		walk_expr(w, c[i].cond);
		sp(w, &c[i].span);
	}
}

static void
walk_fn(SpanWalk *w, FnDecl *f)
{
	walk_name(w, &f->name);
	walk_names(w, f->tparams, f->ntparams);
	walk_params(w, f->params, f->nparams);
	walk_type(w, f->result);
	walk_effects(w, &f->uses);
	walk_clauses(w, f->clauses, f->nclauses);
	walk_block(w, f->body);
	sp(w, &f->header);
}

static void
walk_field(SpanWalk *w, FieldDecl *f)
{
	walk_id(w, &f->id);
	walk_name(w, &f->name);
	walk_type(w, f->type);
	sp(w, &f->span);
}

static void
walk_decl(SpanWalk *w, Decl *d)
{
	walk_id(w, &d->id);
	sp(w, &d->span);
	switch (d->kind) {
	case DECL_FN:
		walk_fn(w, &d->u.fn);
		break;
	case DECL_RECORD:
		walk_name(w, &d->u.record.name);
		walk_names(w, d->u.record.tparams, d->u.record.ntparams);
		for (int i = 0; i < d->u.record.nfields; i++)
			walk_field(w, &d->u.record.fields[i]);
		walk_clauses(w, d->u.record.invariants, d->u.record.ninvariants);
		break;
	case DECL_VARIANT:
		walk_name(w, &d->u.variant.name);
		walk_names(w, d->u.variant.tparams, d->u.variant.ntparams);
		for (int i = 0; i < d->u.variant.ncases; i++) {
			CaseDecl *c = &d->u.variant.cases[i];
			walk_id(w, &c->id);
			walk_name(w, &c->name);
			for (int k = 0; k < c->nfields; k++)
				walk_field(w, &c->fields[k]);
			sp(w, &c->span);
		}
		break;
	case DECL_CLASS:
		walk_name(w, &d->u.class_.name);
		walk_names(w, d->u.class_.tparams, d->u.class_.ntparams);
		walk_name(w, &d->u.class_.parent);
		walk_types(w, d->u.class_.parent_targs, d->u.class_.nparent_targs);
		for (int i = 0; i < d->u.class_.nmembers; i++) {
			ClassMember *c = &d->u.class_.members[i];
			walk_id(w, &c->id);
			if (c->is_method)
				walk_fn(w, &c->method);
			else
				walk_field(w, &c->field);
			sp(w, &c->span);
		}
		break;
	case DECL_RESOURCE:
		walk_name(w, &d->u.resource.name);
		walk_names(w, d->u.resource.tparams, d->u.resource.ntparams);
		for (int i = 0; i < d->u.resource.ndrops; i++) {
			ResourceDrop *r = &d->u.resource.drops[i];
			walk_id(w, &r->id);
			sp(w, &r->import.span);
			sp(w, &r->span);
		}
		break;
	case DECL_INTERFACE:
		walk_name(w, &d->u.interface.name);
		walk_effects(w, &d->u.interface.permits);
		for (int i = 0; i < d->u.interface.nimports; i++) {
			ImportFn *f = &d->u.interface.imports[i];
			walk_id(w, &f->id);
			walk_name(w, &f->name);
			walk_params(w, f->params, f->nparams);
			walk_name(w, &f->result);
			walk_effects(w, &f->effects);
			sp(w, &f->status.span);
			walk_name(w, &f->consumes);
			sp(w, &f->span);
		}
		break;
	case DECL_SESSION:
		sp(w, &d->u.session.name.span);
		walk_names(w, d->u.session.states, d->u.session.nstates);
		walk_name(w, &d->u.session.initial);
		for (int i = 0; i < d->u.session.nterminals; i++) {
			Terminal *t = &d->u.session.terminals[i];
			walk_name(w, &t->state);
			walk_names(w, t->cleanup, t->ncleanup);
			sp(w, &t->span);
		}
		for (int i = 0; i < d->u.session.ntransitions; i++) {
			Transition *t = &d->u.session.transitions[i];
			walk_name(w, &t->from);
			walk_name(w, &t->label);
			walk_name(w, &t->message);
			walk_qname(w, &t->capability);
			sp(w, &t->via.span);
			walk_name(w, &t->to);
			for (int k = 0; k < t->nchoices; k++) {
				walk_name(w, &t->choices[k].label);
				walk_name(w, &t->choices[k].state);
			}
			sp(w, &t->span);
		}
		break;
	}
}

void
parse_shift_decl(Decl *d, int64_t delta)
{
	SpanWalk w = { delta, NULL };
	walk_decl(&w, d);
}

void
parse_settle_decl(Decl *d, int64_t lag)
{
	if (!lag)
		return;
	Span own = d->span;   /* moved already, by the splice */
	parse_shift_decl(d, lag);
	d->span = own;
}

void
parse_decl_spans(const Decl *d, ParseSpans *out)
{
	SpanWalk w = { 0, out };
	walk_decl(&w, (Decl *)d);   /* collecting only reads */
}

/* ---- the splice ---------------------------------------------------------------- */

/* Whether src[a..b) could name or make a statement-if discard: it spells
 * `if` anywhere (the keyword, `_if<n>`, or inside a longer word — the test
 * only has to be safe). */
static bool
spells_if(const char *src, uint32_t a, uint32_t b)
{
	for (uint32_t i = a; i + 1 < b; i++)
		if (src[i] == 'i' && src[i + 1] == 'f')
			return true;
	return false;
}

/* Whether a comment of m lies in [a, b). */
static bool
comment_in(const Module *m, uint32_t a, uint32_t b)
{
	int lo = 0, hi = m->ncomments;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (m->comments[mid].span.start < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->ncomments && m->comments[lo].span.start < b;
}

bool
parse_splice_decl(Module *m, int k, const char *old_src, const char *src, size_t len, uint32_t new_end, Arena *arena,
    int64_t *lag)
{
	if (k < 0 || k >= m->ndecls || m->uses_fn_mut)
		return false;
	Decl *old = &m->decls[k];
	uint32_t start = old->span.start, old_end = old->span.end;
	if (new_end < start || new_end > len || (start > 0 && src[start - 1] != '\n'))
		return false;
	if (comment_in(m, start, old_end) || spells_if(old_src, start, old_end) || spells_if(src, start, new_end))
		return false;
	DiagSink quiet;
	diag_init(&quiet, NULL, NULL, 0);
	LexResult lx;
	lex_source(&lx, src + start, new_end - start, arena, &quiet);
	bool ok = !lx.fatal && !lx.had_error && quiet.items.len == 0 && lx.ncomments == 0;
	Decl d;
	Parser p;
	memset(&p, 0, sizeof p);
	if (ok) {
		for (int i = 0; i < lx.ntoks; i++) {
			lx.toks[i].span.start += start;
			lx.toks[i].span.end += start;
		}
		p.src = src;
		p.len = len;
		p.toks = lx.toks;
		p.ntoks = lx.ntoks;
		p.arena = arena;
		p.diags = &quiet;
		p.nexprs = m->nexprs;
		p.ncalls = m->ncalls;
		p.if_gathered = true;   /* no `if` in the text: no discard is named */
		ok = parse_item_at(&p, &d) && !p.panic && !p.had_error && quiet.items.len == 0 && parse_at(&p, TOK_EOF) &&
		    d.kind == old->kind && d.span.start == start && d.span.end == new_end && !p.uses_fn_mut && p.if_next == 0;
	}
	lex_free(&lx);
	free(p.names);
	VEC_FREE(p.arrow_fixes);   /* a P106's missing-`->` fix: the splice is refused */
	diag_free(&quiet);
	if (!ok) {
		VEC_FREE(p.groups);
		return false;
	}
	/* the new declaration's groups follow (its ids do); the old one's stay, unused */
	m->groups = parse_groups_finish(&p, m->groups, m->ngroups, &m->ngroups);
	int64_t delta = (int64_t)new_end - (int64_t)old_end;
	*old = d;
	if (lag)
		lag[k] = 0;   /* a fresh tree, at its place */
	if (delta) {
		if (lag) {
			/* lazy: each later declaration's own span now, its inner ones owed */
			for (int i = k + 1; i < m->ndecls; i++) {
				Span *sp_ = &m->decls[i].span;
				sp_->start = (uint32_t)((int64_t)sp_->start + delta);
				sp_->end = (uint32_t)((int64_t)sp_->end + delta);
				lag[i] += delta;
			}
		} else {
			for (int i = k + 1; i < m->ndecls; i++)
				parse_shift_decl(&m->decls[i], delta);
		}
		Comment *c = (Comment *)m->comments;   /* the lexer's array, in m's arena */
		for (int i = 0; i < m->ncomments; i++)
			if (c[i].span.start >= old_end) {
				c[i].span.start = (uint32_t)((int64_t)c[i].span.start + delta);
				c[i].span.end = (uint32_t)((int64_t)c[i].span.end + delta);
			}
	}
	m->nexprs = p.nexprs;
	m->ncalls = p.ncalls;
	m->field_assigns = m->field_assigns || p.field_assigns;
	m->prelude_names |= p.prelude_names;   /* the replaced text's names stay counted: a bound only */
	return true;
}
