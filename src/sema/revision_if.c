/*
 * revision_if.c — statement `if` in the revision (LANGUAGE.md §0.3).
 *
 * The reference parses a statement `if` as sugar for a value discard, so
 * its canonical text — which the revision hashes — spells
 *
 *     if c { s; }                 as  let _ifN = if c { s; 0 } else { 0 };
 *     if c { s; x }               as  let _ifN = if c { s; let _ifK = x; 0 } else { 0 };
 *     if c { 7 } else { 8 }       as  let _ifN = if c { 7 } else { 8 };
 *     if a { s; } else if b { t; } as let _ifN = if a { s; 0 } else { if b { t; 0 } else { 0 } };
 *
 * Numbers run through the module in source order, innermost first (a branch's
 * own statement ifs and its value discard before the `if` around them), and
 * skip every `_if<N>` the source already binds (the reference's
 * statement_if corpus).  Our `fmt` keeps the statement form; for the hash,
 * revision.c rewrites the tree in place through this file and restores it
 * afterwards (sema_if_discards / sema_if_restore), so nothing else sees it.
 */
#include "sema_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct BlockSave {
	Block *b;
	Stmt **stmts;
	int nstmts;
	Expr *tail;
} BlockSave;

typedef struct ElseSave {
	Expr *e;
	Block *else_block;
} ElseSave;

struct IfDiscards {
	Arena arena;
	VEC(BlockSave) blocks;
	VEC(ElseSave) elses;
	VEC(uint32_t) used;   /* N of every `_if<N>` the source binds */
	uint32_t next;
};

/* ---- names the source binds -------------------------------------------------- */

static void
note_name(IfDiscards *D, const char *s)
{
	if (!s || strncmp(s, "_if", 3) != 0 || !s[3])
		return;
	uint32_t n = 0;
	for (const char *p = s + 3; *p; p++) {
		if (*p < '0' || *p > '9' || n > 100000000u)
			return;
		n = n * 10 + (uint32_t)(*p - '0');
	}
	VEC_PUSH(D->used, n);
}

static void
note_pattern(IfDiscards *D, const Pattern *p)
{
	if (!p)
		return;
	switch (p->kind) {
	case PAT_BIND:
		note_name(D, p->u.bind.s);
		break;
	case PAT_OR:
		for (int i = 0; i < p->u.or.nalts; i++)
			note_pattern(D, p->u.or.alts[i]);
		break;
	case PAT_CASE:
	case PAT_RECORD: {
		const FieldPat *fs = p->kind == PAT_CASE ? p->u.case_.fields : p->u.record.fields;
		int n = p->kind == PAT_CASE ? p->u.case_.nfields : p->u.record.nfields;
		for (int i = 0; i < n; i++) {
			if (fs[i].sub)
				note_pattern(D, fs[i].sub);
			else
				note_name(D, fs[i].name.s);
		}
		break;
	}
	default:
		break;
	}
}

static void
note_visit(void *ctx, const Expr *e)
{
	IfDiscards *D = ctx;
	if (e->kind == EXPR_MATCH)
		for (int i = 0; i < e->u.match.narms; i++)
			note_pattern(D, e->u.match.arms[i].pat);
	else if (e->kind == EXPR_CLOSURE)
		for (int i = 0; i < e->u.closure.nparams; i++)
			note_name(D, e->u.closure.params[i].name.s);
	if (e->kind == EXPR_BLOCK || e->kind == EXPR_IF || e->kind == EXPR_CLOSURE) {
		const Block *bs[2] = { NULL, NULL };
		if (e->kind == EXPR_BLOCK)
			bs[0] = e->u.block;
		else if (e->kind == EXPR_CLOSURE)
			bs[0] = e->u.closure.body;
		else {
			bs[0] = e->u.if_.then_block;
			bs[1] = e->u.if_.else_block;
		}
		for (int k = 0; k < 2; k++) {
			const Block *b = bs[k];
			for (int i = 0; b && i < b->nstmts; i++) {
				if (b->stmts[i]->kind == STMT_LET)
					note_name(D, b->stmts[i]->u.let.name.s);
				else if (b->stmts[i]->kind == STMT_FOR)
					note_name(D, b->stmts[i]->u.for_.item.s);
			}
		}
	}
}

/* Lets and `for` items directly in a body block (nested blocks come through note_visit). */
static void
note_block_lets(IfDiscards *D, const Block *b)
{
	for (int i = 0; b && i < b->nstmts; i++) {
		const Stmt *s = b->stmts[i];
		if (s->kind == STMT_LET)
			note_name(D, s->u.let.name.s);
		else if (s->kind == STMT_FOR)
			note_name(D, s->u.for_.item.s);
		if (s->kind == STMT_WHILE)
			note_block_lets(D, s->u.while_.body);
		else if (s->kind == STMT_FOR)
			note_block_lets(D, s->u.for_.body);
		else if (s->kind == STMT_UNSAFE)
			note_block_lets(D, s->u.unsafe.body);
	}
}

static void
note_fn(IfDiscards *D, const FnDecl *fn)
{
	for (int i = 0; i < fn->nparams; i++)
		note_name(D, fn->params[i].name.s);
	for (int i = 0; i < fn->nclauses; i++)
		sema_walk_expr(fn->clauses[i].cond, note_visit, D);
	note_block_lets(D, fn->body);
	sema_walk_block(fn->body, note_visit, D);
}

/* ---- the rewrite -------------------------------------------------------------- */

static uint32_t
next_number(IfDiscards *D)
{
	for (;;) {
		uint32_t n = D->next++;
		bool taken = false;
		for (int i = 0; i < D->used.len && !taken; i++)
			taken = D->used.items[i] == n;
		if (!taken)
			return n;
	}
}

static Name
discard_name(IfDiscards *D)
{
	Name n;
	memset(&n, 0, sizeof n);
	n.s = arena_printf(&D->arena, "_if%u", (unsigned)next_number(D));
	n.len = (uint32_t)strlen(n.s);
	return n;
}

static Expr *
zero(IfDiscards *D)
{
	Expr *e = ARENA_NEW(&D->arena, Expr);
	memset(e, 0, sizeof *e);
	e->kind = EXPR_INT;
	e->u.int_lit.suffix = SUF_NONE;
	return e;
}

static Stmt *
discard_let(IfDiscards *D, Expr *value)
{
	Stmt *s = ARENA_NEW(&D->arena, Stmt);
	memset(s, 0, sizeof *s);
	s->kind = STMT_LET;
	s->u.let.name = discard_name(D);
	s->u.let.value = value;
	return s;
}

static void
save_block(IfDiscards *D, Block *b)
{
	BlockSave v = { b, b->stmts, b->nstmts, b->tail };
	VEC_PUSH(D->blocks, v);
}

static void rw_block(IfDiscards *D, Block *b);

static void
rw_exprs(IfDiscards *D, Expr **es, int n)
{
	for (int i = 0; i < n; i++) {
		Expr *e = es[i];
		if (!e)
			continue;
		switch (e->kind) {
		case EXPR_UNARY: rw_exprs(D, &e->u.unary.operand, 1); break;
		case EXPR_BINARY: rw_exprs(D, &e->u.binary.lhs, 1); rw_exprs(D, &e->u.binary.rhs, 1); break;
		case EXPR_CALL: rw_exprs(D, e->u.call.args, e->u.call.nargs); break;
		case EXPR_METHOD: rw_exprs(D, &e->u.method.recv, 1); rw_exprs(D, e->u.method.args, e->u.method.nargs); break;
		case EXPR_SUPER: rw_exprs(D, e->u.super_.args, e->u.super_.nargs); break;
		case EXPR_FIELD: rw_exprs(D, &e->u.field.base, 1); break;
		case EXPR_TRY: rw_exprs(D, &e->u.try_.operand, 1); break;
		case EXPR_WITH:
			rw_exprs(D, &e->u.with.base, 1);
			for (int k = 0; k < e->u.with.ninits; k++)
				rw_exprs(D, &e->u.with.inits[k].value, 1);
			break;
		case EXPR_RECORD:
			for (int k = 0; k < e->u.record.ninits; k++)
				rw_exprs(D, &e->u.record.inits[k].value, 1);
			break;
		case EXPR_VARIANT:
			for (int k = 0; k < e->u.variant.ninits; k++)
				rw_exprs(D, &e->u.variant.inits[k].value, 1);
			break;
		case EXPR_BLOCK: rw_block(D, e->u.block); break;
		case EXPR_IF:
			rw_exprs(D, &e->u.if_.cond, 1);
			rw_block(D, e->u.if_.then_block);
			if (e->u.if_.else_block)
				rw_block(D, e->u.if_.else_block);
			break;
		case EXPR_MATCH:
			rw_exprs(D, &e->u.match.scrutinee, 1);
			for (int k = 0; k < e->u.match.narms; k++) {
				rw_exprs(D, &e->u.match.arms[k].guard, 1);
				rw_exprs(D, &e->u.match.arms[k].value, 1);
			}
			break;
		case EXPR_CLOSURE: rw_block(D, e->u.closure.body); break;
		case EXPR_ARRAY: rw_exprs(D, e->u.array.elems, e->u.array.nelems); break;
		default: break;
		}
	}
}

/* The `if`s of a statement chain: e, then each `else if` (an else block
 * holding only an `if`, as its single statement or as its tail). */
static Expr *
else_if(const Expr *e)
{
	const Block *b = e->u.if_.else_block;
	if (!b)
		return NULL;
	if (b->nstmts == 0 && b->tail && b->tail->kind == EXPR_IF)
		return b->tail;
	if (b->nstmts == 1 && !b->tail && b->stmts[0]->kind == STMT_IF)
		return b->stmts[0]->u.if_;
	return NULL;
}

/* Do all branches of the chain end in a value (and is there a final else)? */
static bool
all_valued(const Expr *e)
{
	for (const Expr *x = e; x; x = else_if(x)) {
		if (!x->u.if_.then_block->tail)
			return false;
		if (!else_if(x) && (!x->u.if_.else_block || !x->u.if_.else_block->tail))
			return false;
	}
	return true;
}

/* A branch's discard form: `{ s…; [let _ifK = v;] 0 }`. */
static void
discard_branch(IfDiscards *D, Block *b)
{
	save_block(D, b);
	Stmt **ss = ARENA_ARRAY(&D->arena, Stmt *, b->nstmts + 1);
	if (b->nstmts)
		memcpy(ss, b->stmts, sizeof(Stmt *) * (size_t)b->nstmts);
	int n = b->nstmts;
	if (b->tail)
		ss[n++] = discard_let(D, b->tail);
	b->stmts = ss;
	b->nstmts = n;
	b->tail = zero(D);
}

/* Rewrites the chain headed by e (its branches already rewritten). */
static void
discard_chain(IfDiscards *D, Expr *e, bool valued)
{
	for (Expr *x = e; x; ) {
		Expr *next = else_if(x);
		if (!valued)
			discard_branch(D, x->u.if_.then_block);
		if (next) {
			Block *eb = x->u.if_.else_block;
			if (eb->nstmts == 1) {   /* `else if` as a statement: make it the tail */
				save_block(D, eb);
				eb->stmts = NULL;
				eb->nstmts = 0;
				eb->tail = next;
			}
		} else if (!x->u.if_.else_block) {
			ElseSave v = { x, NULL };
			VEC_PUSH(D->elses, v);
			Block *eb = ARENA_NEW(&D->arena, Block);
			memset(eb, 0, sizeof *eb);
			eb->tail = zero(D);
			x->u.if_.else_block = eb;
		} else if (!valued) {
			discard_branch(D, x->u.if_.else_block);
		}
		x = next;
	}
}

static void
rw_block(IfDiscards *D, Block *b)
{
	if (!b)
		return;
	bool any = false;
	for (int i = 0; i < b->nstmts && !any; i++)
		any = b->stmts[i]->kind == STMT_IF;
	if (any) {   /* the statements are replaced in a copy of the array */
		save_block(D, b);
		Stmt **ss = ARENA_ARRAY(&D->arena, Stmt *, b->nstmts);
		memcpy(ss, b->stmts, sizeof(Stmt *) * (size_t)b->nstmts);
		b->stmts = ss;
	}
	for (int i = 0; i < b->nstmts; i++) {
		Stmt *s = b->stmts[i];
		switch (s->kind) {
		case STMT_LET: rw_exprs(D, &s->u.let.value, 1); break;
		case STMT_ASSIGN: rw_exprs(D, &s->u.assign.value, 1); break;
		case STMT_WHILE: rw_exprs(D, &s->u.while_.cond, 1); rw_block(D, s->u.while_.body); break;
		case STMT_FOR: rw_exprs(D, &s->u.for_.iter, 1); rw_block(D, s->u.for_.body); break;
		case STMT_UNSAFE: rw_block(D, s->u.unsafe.body); break;
		case STMT_IF: break;
		}
		if (s->kind != STMT_IF)
			continue;
		/* the chain's conditions and branches, then its discards, then its own number */
		Expr *e = s->u.if_;
		for (Expr *x = e; x; x = else_if(x)) {
			rw_exprs(D, &x->u.if_.cond, 1);
			rw_block(D, x->u.if_.then_block);
			if (!else_if(x) && x->u.if_.else_block)
				rw_block(D, x->u.if_.else_block);
		}
		discard_chain(D, e, all_valued(e));
		b->stmts[i] = discard_let(D, e);
	}
	rw_exprs(D, &b->tail, 1);
}

static void
rw_fn(IfDiscards *D, FnDecl *fn)
{
	for (int i = 0; i < fn->nclauses; i++)
		rw_exprs(D, &fn->clauses[i].cond, 1);
	rw_block(D, fn->body);
}

IfDiscards *
sema_if_discards(Module *m)
{
	IfDiscards *D = xcalloc(1, sizeof *D);
	D->next = 1;
	for (int i = 0; i < m->ndecls; i++) {
		Decl *d = &m->decls[i];
		if (d->kind == DECL_FN)
			note_fn(D, &d->u.fn);
		for (int j = 0; d->kind == DECL_CLASS && j < d->u.class_.nmembers; j++)
			if (d->u.class_.members[j].is_method)
				note_fn(D, &d->u.class_.members[j].method);
	}
	for (int i = 0; i < m->ndecls; i++) {
		Decl *d = &m->decls[i];
		if (d->kind == DECL_FN)
			rw_fn(D, &d->u.fn);
		for (int j = 0; d->kind == DECL_CLASS && j < d->u.class_.nmembers; j++)
			if (d->u.class_.members[j].is_method)
				rw_fn(D, &d->u.class_.members[j].method);
	}
	return D;
}

void
sema_if_restore(IfDiscards *D)
{
	for (int i = D->elses.len - 1; i >= 0; i--)
		D->elses.items[i].e->u.if_.else_block = D->elses.items[i].else_block;
	for (int i = D->blocks.len - 1; i >= 0; i--) {
		const BlockSave *v = &D->blocks.items[i];
		v->b->stmts = v->stmts;
		v->b->nstmts = v->nstmts;
		v->b->tail = v->tail;
	}
	VEC_FREE(D->blocks);
	VEC_FREE(D->elses);
	VEC_FREE(D->used);
	arena_free(&D->arena);
	free(D);
}
