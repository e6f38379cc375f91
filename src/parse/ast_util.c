/*
 * ast_util.c — small facts about the syntax tree shared by the parser, the
 * formatter and the dump (LANGUAGE.md §1.5).
 */
#include "ast.h"

#include <stdlib.h>

/* ORDER BinaryOp: the tables below follow the enum in ast.h. */
static const struct {
	int prec;
	const char *spelling;
} binary_ops[] = {
	[BIN_OR] = { 1, "||" },
	[BIN_AND] = { 2, "&&" },
	[BIN_EQ] = { 3, "==" },
	[BIN_NE] = { 3, "!=" },
	[BIN_LT] = { 4, "<" },
	[BIN_LE] = { 4, "<=" },
	[BIN_GT] = { 4, ">" },
	[BIN_GE] = { 4, ">=" },
	[BIN_ADD] = { 5, "+" },
	[BIN_SUB] = { 5, "-" },
	[BIN_MUL] = { 6, "*" },
	[BIN_DIV] = { 6, "/" },
	[BIN_REM] = { 6, "%" },
};

/* Precedence level 1 (`||`) … 6 (`* / %`); all levels are left-associative. */
int
ast_binary_prec(BinaryOp op)
{
	ASSERT((size_t)op < countof(binary_ops), "bad binary operator");
	return binary_ops[op].prec;
}

const char *
ast_binary_spelling(BinaryOp op)
{
	ASSERT((size_t)op < countof(binary_ops), "bad binary operator");
	return binary_ops[op].spelling;
}

int
ast_decl_group(DeclKind k)
{
	switch (k) {
	case DECL_INTERFACE: return 1;
	case DECL_SESSION: return 2;
	case DECL_FN: return 3;
	default: return 0;
	}
}

const Name *
ast_decl_name(const Decl *d)
{
	switch (d->kind) {
	case DECL_FN: return &d->u.fn.name;
	case DECL_RECORD: return &d->u.record.name;
	case DECL_VARIANT: return &d->u.variant.name;
	case DECL_CLASS: return &d->u.class_.name;
	case DECL_RESOURCE: return &d->u.resource.name;
	case DECL_INTERFACE: return &d->u.interface.name;
	case DECL_SESSION: break;
	}
	return NULL;
}

char *
ast_qname_text(const QName *q)
{
	size_t n = 0;
	for (int i = 0; i < q->nparts; i++)
		n += (i ? 1 : 0) + ast_name_len(q->parts[i]);
	char *t = spx_xmalloc(n + 1), *w = t;
	for (int i = 0; i < q->nparts; i++) {
		if (i)
			*w++ = '.';
		size_t k = ast_name_len(q->parts[i]);
		memcpy(w, q->parts[i].s, k);
		w += k;
	}
	*w = '\0';
	return t;
}

bool
ast_expr_plain(const Expr *e)
{
	switch (e->kind) {
	case EXPR_INT:
	case EXPR_FLOAT:
	case EXPR_CHAR:
	case EXPR_STRING:
	case EXPR_BOOL:
	case EXPR_NAME: return true;
	case EXPR_FIELD: return ast_expr_plain(e->u.field.base);
	case EXPR_UNARY:
		if (e->un_op == UN_NOT)
			return ast_expr_plain(e->u.unary.operand);
		return e->u.unary.operand->kind == EXPR_INT || e->u.unary.operand->kind == EXPR_FLOAT;
	default: return false;
	}
}

/* e's group in m (the parser's record), or NULL: not parenthesised. */
static const ExprGroup *
expr_group(const Module *m, const Expr *e)
{
	uint32_t lo = 0, hi = m->ngroups;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (m->groups[mid].id < e->id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->ngroups && m->groups[lo].id == e->id ? &m->groups[lo] : NULL;
}

/* The operand whose span starts e's (NULL: e starts with a token of its own). */
static const Expr *
left_operand(const Expr *e)
{
	switch (e->kind) {
	case EXPR_BINARY: return e->u.binary.lhs;
	case EXPR_METHOD: return e->u.method.recv;
	case EXPR_FIELD: return e->u.field.base;
	case EXPR_TRY: return e->u.try_.operand;
	case EXPR_WITH: return e->u.with.base;
	default: return NULL;
	}
}

/* The operand whose span ends e's (NULL: e ends with a token of its own). */
static const Expr *
right_operand(const Expr *e)
{
	switch (e->kind) {
	case EXPR_BINARY: return e->u.binary.rhs;
	case EXPR_UNARY: return e->u.unary.operand;
	default: return NULL;
	}
}

/* (The parser sets a binary's span from its operands', a unary's from its
 * operator to its operand's end, a postfix's from its base's start: an
 * operand's parentheses at the edge are left out, so the extent follows
 * the operands along each edge.  The outermost group there is the widest.) */
Span
ast_expr_extent(const Module *m, const Expr *e)
{
	Span s = e->span;
	if (!m || !m->ngroups)
		return s;
	for (const Expr *c = left_operand(e); c && c->span.start == e->span.start; c = left_operand(c)) {
		const ExprGroup *g = expr_group(m, c);
		if (g && g->lead <= c->span.start && c->span.start - g->lead < s.start)
			s.start = c->span.start - g->lead;
	}
	for (const Expr *c = right_operand(e); c && c->span.end == e->span.end; c = right_operand(c)) {
		const ExprGroup *g = expr_group(m, c);
		if (g && c->span.end + g->trail > s.end)
			s.end = c->span.end + g->trail;
	}
	return s;
}
