/*
 * lsp_local.c — local bindings by scope: the map rename of a local reads
 * (docs/editors.md, "Rename").
 *
 * A local (a parameter, `let`, `for` item, closure parameter or pattern
 * binding) has no stable identity, so the semantic patch engine cannot name
 * it.  This walk resolves every name the way the checker does — the
 * innermost binding in scope first, a binding's scope the rest of its block
 * (its own initializer excluded), the loop body, the closure body, the match
 * arm — and records, in walk order, each binding and each name that could
 * read one (a name expression, a callee, an assignment's target) with the
 * binding it resolves to (-1: none, a function or `result`).  A rename edits
 * one binding and exactly the names resolved to it; the candidate must verify
 * and resolve every name to the same binding again (lsp_locals_same), so a
 * new name that a same-named binding, a function or another scope would
 * capture is refused instead of changing meaning.
 */
#include "lsp_int.h"

#include <stdlib.h>
#include <string.h>

/* A scope entry: a name bound, its binding, and the entry of the same name
 * it hides (-1 none) — `top` maps each name to its innermost entry, so a
 * lookup is one map probe however many bindings are in scope. */
typedef struct Scope {
	const char *name;
	int binding;
	int32_t hidden;
} Scope;

typedef struct LWalk {
	Sema *S;
	LspLocals *out;
	Scope *sc;
	int nsc, capsc;
	int nbind;
	StrMap top;          /* name -> its innermost scope entry (-1: none) */
} LWalk;

static void
occ(LWalk *w, uint32_t start, uint32_t end, int binding, bool decl, bool shorthand)
{
	LspLocals *o = w->out;
	if (o->len == o->cap) {
		o->cap = o->cap ? o->cap * 2 : 64;
		o->items = spx_xrealloc(o->items, sizeof *o->items * (size_t)o->cap);
	}
	LspLocalOcc x = { start, end, binding, decl, shorthand };
	o->items[o->len++] = x;
}

static int
lookup(const LWalk *w, const char *name)
{
	int32_t i = sema_strmap_get(&w->top, name);
	return i >= 0 ? w->sc[i].binding : -1;
}

/* Leaves the scopes entered since mark: each name's hidden entry is its
 * innermost again. */
static void
pop_to(LWalk *w, int mark)
{
	while (w->nsc > mark) {
		w->nsc--;
		sema_strmap_set(&w->top, w->sc[w->nsc].name, w->sc[w->nsc].hidden);
	}
}

/* A binding of name at span (`_` binds nothing).  In a pattern (arm >= 0)
 * a name an earlier alternative of the same arm bound is that binding. */
static void
bind(LWalk *w, const char *name, Span at, bool shorthand, int arm)
{
	if (!name || (name[0] == '_' && name[1] == '\0') || at.end <= at.start)
		return;
	int32_t in = sema_strmap_get(&w->top, name);
	int b;
	if (arm >= 0 && in >= arm) {
		b = w->sc[in].binding;
	} else {
		b = w->nbind++;
		if (w->nsc == w->capsc) {
			w->capsc = w->capsc ? w->capsc * 2 : 32;
			w->sc = spx_xrealloc(w->sc, sizeof *w->sc * (size_t)w->capsc);
		}
		w->sc[w->nsc].name = name;
		w->sc[w->nsc].binding = b;
		w->sc[w->nsc].hidden = sema_strmap_swap(&w->top, name, w->nsc);
		w->nsc++;
	}
	occ(w, at.start, at.end, b, true, shorthand);
}

static void
use(LWalk *w, const char *name, Span at, bool shorthand)
{
	if (at.end > at.start)
		occ(w, at.start, at.end, lookup(w, name), false, shorthand);
}

static void lexpr(LWalk *w, const Expr *e);
static void lblock(LWalk *w, const Block *b);

static void
lpat(LWalk *w, const Pattern *p, int arm)
{
	if (!p)
		return;
	const FieldPat *f = NULL;
	int nf = 0;
	switch (p->kind) {
	case PAT_BIND: bind(w, p->u.bind.s, p->u.bind.span, false, arm); return;
	case PAT_LIT: lexpr(w, p->u.lit.value); return;
	case PAT_OR:
		for (int i = 0; i < p->u.or.nalts; i++)
			lpat(w, p->u.or.alts[i], arm);
		return;
	case PAT_CASE: f = p->u.case_.fields, nf = p->u.case_.nfields; break;
	case PAT_RECORD: f = p->u.record.fields, nf = p->u.record.nfields; break;
	default: return;
	}
	for (int i = 0; i < nf; i++) {
		if (f[i].sub)
			lpat(w, f[i].sub, arm);
		else   /* `{ f }` binds f */
			bind(w, f[i].name.s, f[i].name.span, true, arm);
	}
}

static void
linits(LWalk *w, const FieldInit *v, int n)
{
	for (int i = 0; i < n; i++) {
		const Expr *x = v[i].value;
		/* a record literal's `{ f }` is `{ f: f }`: the name is a use */
		if (x && x->kind == EXPR_NAME && x->span.start == v[i].name.span.start && x->span.end == v[i].name.span.end)
			use(w, x->u.name.s, x->span, true);
		else
			lexpr(w, x);
	}
}

static void
lexprs(LWalk *w, Expr *const *v, int n)
{
	for (int i = 0; i < n; i++)
		lexpr(w, v[i]);
}

static void
lexpr(LWalk *w, const Expr *e)
{
	if (!e)
		return;
	int mark = w->nsc;
	switch (e->kind) {
	case EXPR_NAME: use(w, e->u.name.s, e->span, false); break;
	case EXPR_UNARY: lexpr(w, e->u.unary.operand); break;
	case EXPR_BINARY:
		lexpr(w, e->u.binary.lhs);
		lexpr(w, e->u.binary.rhs);
		break;
	case EXPR_CALL: {
		Name c = ast_call_callee(e);
		use(w, c.s, c.span, false);
		lexprs(w, e->u.call.args, e->u.call.nargs);
		break;
	}
	case EXPR_METHOD:
		lexpr(w, e->u.method.recv);
		lexprs(w, e->u.method.args, e->u.method.nargs);
		break;
	case EXPR_FIELD: lexpr(w, e->u.field.base); break;
	case EXPR_TRY: lexpr(w, e->u.try_.operand); break;
	case EXPR_WITH:
		lexpr(w, e->u.with.base);
		linits(w, e->u.with.inits, e->u.with.ninits);
		break;
	case EXPR_RECORD: linits(w, e->u.record.inits, e->u.record.ninits); break;
	case EXPR_VARIANT: linits(w, e->u.variant.inits, e->u.variant.ninits); break;
	case EXPR_SUPER: lexprs(w, e->u.super_.args, e->u.super_.nargs); break;
	case EXPR_BLOCK: lblock(w, e->u.block); break;
	case EXPR_IF:
		lexpr(w, e->u.if_.cond);
		lblock(w, e->u.if_.then_block);
		lblock(w, e->u.if_.else_block);
		break;
	case EXPR_MATCH:
		lexpr(w, e->u.match.scrutinee);
		for (int i = 0; i < e->u.match.narms; i++) {
			const MatchArm *a = &e->u.match.arms[i];
			int arm = w->nsc;
			lpat(w, a->pat, arm);
			lexpr(w, a->guard);
			lexpr(w, a->value);
			pop_to(w, arm);
		}
		break;
	case EXPR_CLOSURE:
		for (int i = 0; i < e->u.closure.nparams; i++)
			bind(w, e->u.closure.params[i].name.s, e->u.closure.params[i].name.span, false, -1);
		lblock(w, e->u.closure.body);
		break;
	case EXPR_ARRAY: lexprs(w, e->u.array.elems, e->u.array.nelems); break;
	default: break;
	}
	pop_to(w, mark);
}

static void
lblock(LWalk *w, const Block *b)
{
	if (!b)
		return;
	int mark = w->nsc;
	for (int i = 0; i < b->nstmts; i++) {
		const Stmt *s = b->stmts[i];
		switch (s->kind) {
		case STMT_LET:
			lexpr(w, s->u.let.value);
			bind(w, s->u.let.name.s, s->u.let.name.span, false, -1);
			break;
		case STMT_ASSIGN:
			use(w, s->u.assign.target.s, s->u.assign.target.span, false);
			lexpr(w, s->u.assign.value);
			break;
		case STMT_WHILE:
			lexpr(w, s->u.while_.cond);
			lblock(w, s->u.while_.body);
			break;
		case STMT_FOR: {
			lexpr(w, s->u.for_.iter);
			int m = w->nsc;
			bind(w, s->u.for_.item.s, s->u.for_.item.span, false, -1);
			lblock(w, s->u.for_.body);
			pop_to(w, m);
			break;
		}
		case STMT_IF: lexpr(w, s->u.if_); break;
		case STMT_UNSAFE: lblock(w, s->u.unsafe.body); break;
		default: break;
		}
	}
	lexpr(w, b->tail);
	pop_to(w, mark);
}

static void
lfn(LWalk *w, const FnDecl *f)
{
	for (int i = 0; i < f->nparams; i++)
		bind(w, f->params[i].name.s, f->params[i].name.span, false, -1);
	for (int i = 0; i < f->nclauses; i++)
		lexpr(w, f->clauses[i].cond);
	lblock(w, f->body);
	pop_to(w, 0);
}

void
lsp_locals(Sema *S, const Module *m, LspLocals *out)
{
	LWalk w;
	memset(&w, 0, sizeof w);
	w.S = S;
	w.out = out;
	out->len = 0;
	for (int i = 0; i < m->ndecls; i++) {
		const Decl *d = &m->decls[i];
		if (d->kind == DECL_FN) {
			lfn(&w, &d->u.fn);
		} else if (d->kind == DECL_CLASS) {
			for (int k = 0; k < d->u.class_.nmembers; k++)
				if (d->u.class_.members[k].is_method)
					lfn(&w, &d->u.class_.members[k].method);
		} else if (d->kind == DECL_RECORD) {
			/* an invariant reads the record's fields by name: no locals */
			for (int k = 0; k < d->u.record.ninvariants; k++)
				lexpr(&w, d->u.record.invariants[k].cond);
		}
	}
	free(w.sc);
	sema_strmap_free(&w.top);
}

void
lsp_locals_free(LspLocals *o)
{
	free(o->items);
	memset(o, 0, sizeof *o);
}

int
lsp_local_at(const LspLocals *o, uint32_t off)
{
	for (int i = 0; i < o->len; i++)
		if (o->items[i].binding >= 0 && o->items[i].start <= off && off <= o->items[i].end)
			return o->items[i].binding;
	return -1;
}

int
lsp_local_binding(Sema *S, const Module *m, uint32_t off, LspLocals *out)
{
	memset(out, 0, sizeof *out);
	lsp_locals(S, m, out);
	int b = lsp_local_at(out, off);
	if (b < 0)
		lsp_locals_free(out);
	return b;
}

bool
lsp_locals_same(const LspLocals *a, const LspLocals *b)
{
	if (a->len != b->len)
		return false;
	for (int i = 0; i < a->len; i++)
		if (a->items[i].binding != b->items[i].binding || a->items[i].decl != b->items[i].decl)
			return false;
	return true;
}

/* An identifier a local can take: ASCII letters, digits and `_`, not
 * starting with a digit, not `_` (a discard) and not `result`. */
static bool
local_name_ok(const char *s)
{
	if (!*s || (*s >= '0' && *s <= '9') || strcmp(s, "_") == 0 || strcmp(s, "result") == 0)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return true;
}

bool
lsp_local_edits(LspReq *r, const LspLocals *L, int binding, const char *src, const char *name, PatchPlan *plan)
{
	memset(plan, 0, sizeof *plan);
	if (!local_name_ok(name))
		return lsp_fail(r, LSP_E_REQUEST_FAILED, "`%.100s` cannot name a local binding: an identifier (letters, digits, `_`), "
		    "not `_` or `result`", name);
	for (int i = 0; i < L->len; i++) {
		const LspLocalOcc *x = &L->items[i];
		if (x->binding != binding)
			continue;
		Buf t = {0};
		if (x->shorthand)   /* `{ f }` keeps the field: `{ f: name }` */
			buf_printf(&t, "%.*s: ", (int)(x->end - x->start), src + x->start);
		buf_puts(&t, name);
		PatchEdit e = { x->start, x->end, buf_take(&t), 0, 0 };
		VEC_PUSH(plan->edits, e);
	}
	if (plan->edits.len > 1)
		qsort(plan->edits.items, (size_t)plan->edits.len, sizeof *plan->edits.items, patch_edit_cmp);
	return true;
}
