/*
 * fmt_expr.c — the one-line half of the canonical formatter: types,
 * patterns, expressions and inline blocks (LANGUAGE.md §2.3).
 *
 * Parentheses are not AST nodes, so they are re-derived here:
 *   - a binary child gets `( … )` when its precedence is below its context:
 *     the left operand's context is the operator's level, the right
 *     operand's the level + 1 (all operators are left-associative), a unary
 *     operand's is 7;
 *   - a postfix base (`.f`, `.m()`, `?`, `with`) is parenthesized when it is
 *     a binary, unary, `if` or block expression;
 *   - a condition (if/while/for/match/requires/ensures) that contains a
 *     record or variant construction anywhere is parenthesized as a whole,
 *     since record literals are disabled there;
 *   - a block tail whose first token would make the block parser read a
 *     statement (`if … + 1`, a binding named `while`) parenthesizes that
 *     first node (fmt_fx_item_expr), and a plain match scrutinee is parenthesized
 *     when the parser would otherwise read a mode (`match (own - 1)`);
 *   - a name or field before `<` that the parser would read as the start of
 *     type arguments is parenthesized (fmt_fx_lt_hazards, after rendering).
 * Except for the last three (which only make odd-but-legal programs
 * re-parse) and unary bases (the reference prints `(-x).f` as `-x.f`, which
 * changes the meaning), this is the reference formatter's rule set.
 * Recursion follows the tree, whose depth the parser bounds.
 */
#include "fmt_priv.h"
#include "../parse/parse.h"

#include <inttypes.h>
#include <string.h>

#include "../support/arena.h"
#include "../support/diag.h"

static void fmt_fx_expr(Fmt *F, const Expr *e);        /* context precedence 0 */

#define PREC_UNARY 7
#define PREC_POSTFIX 8

/* ==== quoted attribute strings =========================================================== */

/* An attribute's decoded value (a stable id, an audit note, an import key)
 * written back as a literal, escaped as a string literal is (fmt_string):
 * control characters and bidi or line-separator controls never raw. */
void
fmt_fx_quoted(Fmt *F, StrLit s)
{
	fmt_string(F->out, s.s, s.len);
}

/* ==== names and types ============================================================ */

void
fmt_fx_name(Fmt *F, Name n)
{
	buf_put(F->out, n.s, ast_name_len(n));
}

void
fmt_fx_qname(Fmt *F, const QName *q)
{
	for (int i = 0; i < q->nparts; i++) {
		if (i)
			buf_putc(F->out, '.');
		fmt_fx_name(F, q->parts[i]);
	}
}

void
fmt_fx_tparams(Fmt *F, const Name *names, int n)
{
	if (n == 0)
		return;
	buf_putc(F->out, '<');
	for (int i = 0; i < n; i++) {
		if (i)
			buf_puts(F->out, ", ");
		fmt_fx_name(F, names[i]);
	}
	buf_putc(F->out, '>');
}

static void
type_list(Fmt *F, Type *const *ts, int n)
{
	for (int i = 0; i < n; i++) {
		if (i)
			buf_puts(F->out, ", ");
		fmt_fx_type(F, ts[i]);
	}
}

/* Type arguments `<A, B>`, nothing when there are none. */
static void
targs(Fmt *F, Type *const *ts, int n)
{
	if (n == 0)
		return;
	buf_putc(F->out, '<');
	type_list(F, ts, n);
	buf_putc(F->out, '>');
}

void
fmt_fx_type(Fmt *F, const Type *t)
{
	switch (t->kind) {
	case TYPE_NAME: {
		Name one;
		QName q = ast_type_qname(t, &one);
		fmt_fx_qname(F, &q);
		targs(F, ast_type_args(t), ast_type_nargs(t));
		break;
	}
	case TYPE_ARRAY:
		buf_putc(F->out, '[');
		fmt_fx_type(F, t->u.array.elem);
		buf_printf(F->out, "; %" PRIu64 "]", t->u.array.len);
		break;
	case TYPE_FN:
		buf_puts(F->out, t->u.fn.mut_i64 ? "FnMutI64(" : "fn(");
		type_list(F, t->u.fn.params, t->u.fn.nparams);
		buf_puts(F->out, ") -> ");
		fmt_fx_type(F, t->u.fn.result);
		break;
	}
}

static const char *const mode_prefix[] = {
	[MODE_NONE] = "", [MODE_OWN] = "own ", [MODE_BORROW] = "borrow ", [MODE_SHARED] = "shared ",
};

void
fmt_fx_params(Fmt *F, const Param *ps, int n)
{
	buf_putc(F->out, '(');
	for (int i = 0; i < n; i++) {
		if (i)
			buf_puts(F->out, ", ");
		fmt_fx_name(F, ps[i].name);
		buf_puts(F->out, ": ");
		buf_puts(F->out, mode_prefix[ps[i].mode]);
		fmt_fx_type(F, ps[i].type);
	}
	buf_putc(F->out, ')');
}

void
fmt_fx_effects(Fmt *F, const QName *names, int n)
{
	buf_puts(F->out, "{ ");
	for (int i = 0; i < n; i++) {
		if (i)
			buf_puts(F->out, ", ");
		fmt_fx_qname(F, &names[i]);
	}
	buf_puts(F->out, " }");
}

/* ==== patterns ======================================================================= */

static void pattern(Fmt *F, const Pattern *p);

/* `{ f, g: x, h: _ }`, `{}` when empty; `f: f` prints as `f`. */
static void
field_pats(Fmt *F, const FieldPat *fs, int n)
{
	if (n == 0) {
		buf_puts(F->out, " {}");
		return;
	}
	buf_puts(F->out, " { ");
	for (int i = 0; i < n; i++) {
		const FieldPat *f = &fs[i];
		if (i)
			buf_puts(F->out, ", ");
		fmt_fx_name(F, f->name);
		bool shorthand = !f->sub || (f->sub->kind == PAT_BIND && ast_name_len(f->sub->u.bind) == ast_name_len(f->name) &&
		    memcmp(f->sub->u.bind.s, f->name.s, ast_name_len(f->name)) == 0);
		if (!shorthand) {
			buf_puts(F->out, ": ");
			pattern(F, f->sub);
		}
	}
	buf_puts(F->out, " }");
}

static void
pattern_literal(Fmt *F, const Pattern *p)
{
	const Expr *e = p->u.lit.value;
	switch (e->kind) {
	case EXPR_INT:
		fmt_int(F->out, e->u.int_lit.value, e->lit_suffix, p->u.lit.negative || e->lit_negative);
		break;
	case EXPR_CHAR:
		fmt_char(F->out, e->u.char_lit.value);
		break;
	case EXPR_BOOL:
		buf_puts(F->out, e->u.bool_lit.value ? "true" : "false");
		break;
	default:
		fmt_fx_expr(F, e);
		break;
	}
}

static void
pattern(Fmt *F, const Pattern *p)
{
	switch (p->kind) {
	case PAT_WILD:
		buf_putc(F->out, '_');
		break;
	case PAT_BIND:
		fmt_fx_name(F, p->u.bind);
		break;
	case PAT_LIT:
		pattern_literal(F, p);
		break;
	case PAT_OR:
		for (int i = 0; i < p->u.or.nalts; i++) {
			if (i)
				buf_puts(F->out, " | ");
			pattern(F, p->u.or.alts[i]);
		}
		break;
	case PAT_CASE:
		fmt_fx_name(F, p->u.case_.type);
		buf_puts(F->out, "::");
		fmt_fx_name(F, p->u.case_.case_name);
		field_pats(F, p->u.case_.fields, p->u.case_.nfields);
		break;
	case PAT_RECORD:
		fmt_fx_name(F, p->u.record.type);
		field_pats(F, p->u.record.fields, p->u.record.nfields);
		break;
	}
}

void
fmt_fx_pattern(Fmt *F, const Pattern *p)
{
	pattern(F, p);
}

/* ==== record-literal containment (conditions) ======================================== */

static bool contains_record(const Expr *e);

static bool
any_record(Expr *const *es, int n)
{
	for (int i = 0; i < n; i++)
		if (contains_record(es[i]))
			return true;
	return false;
}

static bool
block_contains_record(const Block *b)
{
	for (int i = 0; i < b->nstmts; i++) {
		const Stmt *s = b->stmts[i];
		switch (s->kind) {
		case STMT_LET:
			if (contains_record(s->u.let.value))
				return true;
			break;
		case STMT_ASSIGN:
			if (contains_record(s->u.assign.value))
				return true;
			break;
		case STMT_WHILE:
			if (contains_record(s->u.while_.cond) || block_contains_record(s->u.while_.body))
				return true;
			break;
		case STMT_FOR:
			if (contains_record(s->u.for_.iter) || block_contains_record(s->u.for_.body))
				return true;
			break;
		case STMT_IF:
			if (contains_record(s->u.if_))
				return true;
			break;
		case STMT_UNSAFE:
			if (block_contains_record(s->u.unsafe.body))
				return true;
			break;
		}
	}
	return b->tail && contains_record(b->tail);
}

static bool
inits_contain_record(const FieldInit *fs, int n)
{
	for (int i = 0; i < n; i++)
		if (contains_record(fs[i].value))
			return true;
	return false;
}

static bool
match_contains_record(const Expr *e)
{
	if (contains_record(e->u.match.scrutinee))
		return true;
	for (int i = 0; i < e->u.match.narms; i++) {
		const MatchArm *a = &e->u.match.arms[i];
		if ((a->guard && contains_record(a->guard)) || contains_record(a->value))
			return true;
	}
	return false;
}

/* Is there a record or variant construction anywhere inside e? */
static bool
contains_record(const Expr *e)
{
	switch (e->kind) {
	case EXPR_RECORD:
	case EXPR_VARIANT:
		return true;
	case EXPR_UNARY: return contains_record(e->u.unary.operand);
	case EXPR_BINARY: return contains_record(e->u.binary.lhs) || contains_record(e->u.binary.rhs);
	case EXPR_CALL: return any_record(e->u.call.args, e->u.call.nargs);
	case EXPR_METHOD:
		return contains_record(e->u.method.recv) || any_record(e->u.method.args, e->u.method.nargs);
	case EXPR_FIELD: return contains_record(e->u.field.base);
	case EXPR_TRY: return contains_record(e->u.try_.operand);
	case EXPR_WITH:
		return contains_record(e->u.with.base) || inits_contain_record(e->u.with.inits, e->u.with.ninits);
	case EXPR_SUPER: return any_record(e->u.super_.args, e->u.super_.nargs);
	case EXPR_BLOCK: return block_contains_record(e->u.block);
	case EXPR_IF:
		return contains_record(e->u.if_.cond) || block_contains_record(e->u.if_.then_block) ||
		    (e->u.if_.else_block && block_contains_record(e->u.if_.else_block));
	case EXPR_MATCH: return match_contains_record(e);
	case EXPR_CLOSURE: return block_contains_record(e->u.closure.body);
	case EXPR_ARRAY: return any_record(e->u.array.elems, e->u.array.nelems);
	default: return false;
	}
}

/* ==== first-token hazards ============================================================== */

/* Nodes that fmt_fx_lt_hazards asked to parenthesize. */
static bool
forced(const Fmt *F, const Expr *e)
{
	for (int i = 0; i < F->force.len; i++)
		if (F->force.items[i] == e)
			return true;
	return false;
}

/* A postfix base the printer wraps in parentheses. */
static bool
paren_base(const Expr *e)
{
	return e->kind == EXPR_BINARY || e->kind == EXPR_UNARY || e->kind == EXPR_IF || e->kind == EXPR_BLOCK;
}

/* The node that prints the first token of e (parenthesized subtrees stop the
 * walk: NULL); *parent_out, when asked, gets the node the walk left it from. */
static const Expr *
leftmost(const Expr *e, const Expr **parent_out)
{
	const Expr *parent = NULL;
	for (;;) {
		const Expr *next;
		switch (e->kind) {
		case EXPR_BINARY: {
			const Expr *l = e->u.binary.lhs;
			if (l->kind == EXPR_BINARY && ast_binary_prec(l->bin_op) < ast_binary_prec(e->bin_op))
				return NULL;
			next = l;
			break;
		}
		case EXPR_METHOD: next = e->u.method.recv; break;
		case EXPR_FIELD: next = e->u.field.base; break;
		case EXPR_TRY: next = e->u.try_.operand; break;
		case EXPR_WITH: next = e->u.with.base; break;
		default:
			if (parent_out)
				*parent_out = parent;
			return e;
		}
		if (e->kind != EXPR_BINARY && paren_base(next))
			return NULL;
		parent = e;
		e = next;
	}
}

/* The identifier a node starts with, if it starts with one. */
static bool
first_word(const Expr *e, Name *out)
{
	switch (e->kind) {
	case EXPR_NAME: *out = ast_expr_name(e); return true;
	case EXPR_CALL: *out = ast_call_callee(e); return true;
	case EXPR_VARIANT: *out = e->u.variant.type; return true;
	case EXPR_RECORD: *out = e->u.record.type.parts[0]; return true;
	default: return false;
	}
}

static bool
word_in(Name n, const char *const *words, size_t count)
{
	for (size_t i = 0; i < count; i++)
		if (strlen(words[i]) == ast_name_len(n) && memcmp(words[i], n.s, ast_name_len(n)) == 0)
			return true;
	return false;
}

/*
 * In block-item position the parser reads `if` as a statement `if` and
 * `let`/`while`/`for`/habit words as statements, so a tail starting with
 * such a node (other than a whole `if`) needs that node parenthesized.
 */
static const Expr *
item_hazard(const Expr *e)
{
	static const char *const words[] = { "let", "while", "for", "return", "break", "continue", "loop" };
	const Expr *l = leftmost(e, NULL);
	Name n;
	if (!l)
		return NULL;
	if (l->kind == EXPR_IF)
		return l == e ? NULL : l;
	if (first_word(l, &n) && word_in(n, words, countof(words)))
		return l;
	return NULL;
}

/*
 * Does a plain scrutinee need parentheses so the parser does not read a
 * mode?  After `match own` the parser takes `own` as the mode only before a
 * name (not `with`), a literal, `[`, `-` or `!`; printed, a plain scrutinee
 * can only put `-` there: `own - 1` (a binary minus right after the name).
 */
static bool
scrutinee_hazard(const Expr *e)
{
	static const char *const words[] = { "own", "borrow" };
	const Expr *parent = NULL;
	const Expr *l = leftmost(e, &parent);
	return l && l->kind == EXPR_NAME && word_in(ast_expr_name(l), words, countof(words)) && parent &&
	    parent->kind == EXPR_BINARY && parent->bin_op == BIN_SUB;
}

/* ==== expressions ========================================================================= */

static void expr(Fmt *F, const Expr *e, int ctx);
static void block_inline(Fmt *F, const Block *b);

static void
args(Fmt *F, Expr *const *es, int n)
{
	buf_putc(F->out, '(');
	for (int i = 0; i < n; i++) {
		if (i)
			buf_puts(F->out, ", ");
		expr(F, es[i], 0);
	}
	buf_putc(F->out, ')');
}

/* ` { a: 1, b: 2 }`, or ` {}` when empty. */
static void
inits(Fmt *F, const FieldInit *fs, int n)
{
	if (n == 0) {
		buf_puts(F->out, " {}");
		return;
	}
	buf_puts(F->out, " { ");
	for (int i = 0; i < n; i++) {
		if (i)
			buf_puts(F->out, ", ");
		fmt_fx_name(F, fs[i].name);
		buf_puts(F->out, ": ");
		expr(F, fs[i].value, 0);
	}
	buf_puts(F->out, " }");
}

static void
postfix_base(Fmt *F, const Expr *base)
{
	if (paren_base(base)) {
		buf_putc(F->out, '(');
		expr(F, base, 0);
		buf_putc(F->out, ')');
	} else {
		expr(F, base, PREC_POSTFIX);
	}
}

/*
 * The node printing the last token of e in context ctx when that token is
 * an identifier the parser inspects before `<`: a bare name or a field.
 */
static const Expr *
rightmost_ident(const Fmt *F, const Expr *e, int ctx)
{
	for (;;) {
		if (e == F->wrap || forced(F, e))
			return NULL;
		switch (e->kind) {
		case EXPR_NAME:
		case EXPR_FIELD:
			return e;
		case EXPR_BINARY:
			if (ast_binary_prec(e->bin_op) < ctx)
				return NULL;
			ctx = ast_binary_prec(e->bin_op) + 1;
			e = e->u.binary.rhs;
			break;
		case EXPR_UNARY:
			ctx = PREC_UNARY;
			e = e->u.unary.operand;
			break;
		default:
			return NULL;
		}
	}
}

static void
binary(Fmt *F, const Expr *e, int ctx)
{
	int prec = ast_binary_prec(e->bin_op);
	bool paren = prec < ctx;
	if (paren)
		buf_putc(F->out, '(');
	expr(F, e->u.binary.lhs, prec);
	if (e->bin_op == BIN_LT) {
		LtMark mark = { F->out->len + 1, rightmost_ident(F, e->u.binary.lhs, prec) };
		if (mark.name)
			VEC_PUSH(F->lts, mark);
	}
	buf_putc(F->out, ' ');
	buf_puts(F->out, ast_binary_spelling(e->bin_op));
	buf_putc(F->out, ' ');
	expr(F, e->u.binary.rhs, prec + 1);
	if (paren)
		buf_putc(F->out, ')');
}

/* Does every branch of this `if` chain end in a value (the value grammar's `if`)? */
static bool
if_valued(const Expr *e)
{
	return e->u.if_.then_block && e->u.if_.then_block->tail && e->u.if_.else_block && e->u.if_.else_block->tail;
}

/* The `if` an `else if` continues with (the else block holds just it). */
static const Expr *
else_if_inner(const Expr *e)
{
	const Block *el = e->u.if_.else_block;
	if (!e->u.if_.else_if || !el)
		return NULL;
	const Expr *in = el->tail ? el->tail : el->nstmts == 1 && el->stmts[0]->kind == STMT_IF ? el->stmts[0]->u.if_ : NULL;
	return in && in->kind == EXPR_IF ? in : NULL;
}

/*
 * A chain without a value keeps `else if` (a nested `else { if … }` is a
 * different statement under the reference's discard); a valued one prints
 * the value grammar's `else { if … }`.
 */
static void
if_expr(Fmt *F, const Expr *e)
{
	buf_puts(F->out, "if ");
	fmt_fx_cond(F, e->u.if_.cond);
	buf_putc(F->out, ' ');
	block_inline(F, e->u.if_.then_block);
	const Expr *inner = if_valued(e) ? NULL : else_if_inner(e);
	if (inner) {
		buf_puts(F->out, " else ");
		if_expr(F, inner);
	} else if (e->u.if_.else_block) {
		buf_puts(F->out, " else ");
		block_inline(F, e->u.if_.else_block);
	}
}

static void stmt_inline(Fmt *F, const Stmt *s);

/* `{ s1; …; [let _if<n> = tail;] tail-or-0 }`: a branch of a discarded chain. */
static void
discard_branch(Fmt *F, const Block *b)
{
	buf_puts(F->out, "{ ");
	for (int i = 0; b && i < b->nstmts; i++) {
		stmt_inline(F, b->stmts[i]);
		buf_putc(F->out, ' ');
	}
	if (b && b->tail && b->tail_discard) {
		buf_printf(F->out, "let _if%d = ", b->tail_discard);
		expr(F, b->tail, 0);
		buf_puts(F->out, "; 0");
	} else if (b && b->tail) {
		fmt_fx_item_expr(F, b->tail);
	} else {
		buf_putc(F->out, '0');
	}
	buf_puts(F->out, " }");
}

/* The valueless chain a statement `if` is sugar for (the reference's `assemble`). */
static void
discard_if(Fmt *F, const Expr *e)
{
	buf_puts(F->out, "if ");
	fmt_fx_cond(F, e->u.if_.cond);
	buf_putc(F->out, ' ');
	discard_branch(F, e->u.if_.then_block);
	const Expr *inner = else_if_inner(e);
	if (inner) {
		buf_puts(F->out, " else { ");
		discard_if(F, inner);
		buf_puts(F->out, " }");
	} else {
		buf_puts(F->out, " else ");
		discard_branch(F, e->u.if_.else_block);
	}
}

void
fmt_stmt_if(Fmt *F, const Stmt *s)
{
	if (!F->discards) {
		if_expr(F, s->u.if_);
		return;
	}
	buf_printf(F->out, "let _if%d = ", s->discard);
	if (if_valued(s->u.if_))
		if_expr(F, s->u.if_);
	else
		discard_if(F, s->u.if_);
	buf_putc(F->out, ';');
}

static void
match_expr(Fmt *F, const Expr *e)
{
	static const char *const modes[] = { [MATCH_PLAIN] = "", [MATCH_OWN] = "own ", [MATCH_BORROW] = "borrow " };
	const Expr *s = e->u.match.scrutinee;
	buf_printf(F->out, "match %s", modes[e->u.match.mode]);
	/* After an explicit mode the reference prints the scrutinee bare. */
	if (e->u.match.mode == MATCH_PLAIN && (contains_record(s) || scrutinee_hazard(s))) {
		buf_putc(F->out, '(');
		expr(F, s, 0);
		buf_putc(F->out, ')');
	} else {
		expr(F, s, 0);
	}
	if (e->u.match.narms == 0) {
		buf_puts(F->out, " {  }");
		return;
	}
	buf_puts(F->out, " { ");
	for (int i = 0; i < e->u.match.narms; i++) {
		const MatchArm *a = &e->u.match.arms[i];
		pattern(F, a->pat);
		if (a->guard) {
			buf_puts(F->out, " if ");
			expr(F, a->guard, 0);
		}
		buf_puts(F->out, " => ");
		expr(F, a->value, 0);
		buf_puts(F->out, ", ");
	}
	buf_putc(F->out, '}');
}

static void
closure(Fmt *F, const Expr *e)
{
	buf_puts(F->out, e->u.closure.own ? "own fn(" : e->u.closure.mut ? "mut fn(" : "fn(");
	for (int i = 0; i < e->u.closure.nparams; i++) {
		if (i)
			buf_puts(F->out, ", ");
		fmt_fx_name(F, e->u.closure.params[i].name);
		buf_puts(F->out, ": ");
		fmt_fx_type(F, e->u.closure.params[i].type);
	}
	buf_puts(F->out, ") -> ");
	fmt_fx_type(F, e->u.closure.result);
	buf_putc(F->out, ' ');
	block_inline(F, e->u.closure.body);
}

/* Literals, names and the bracketed forms. */
static void
atom(Fmt *F, const Expr *e)
{
	switch (e->kind) {
	case EXPR_INT:
		fmt_int(F->out, e->u.int_lit.value, e->lit_suffix, e->lit_negative);
		break;
	case EXPR_FLOAT: fmt_float(F->out, e->u.float_lit.value, e->lit_suffix); break;
	case EXPR_CHAR: fmt_char(F->out, e->u.char_lit.value); break;
	case EXPR_STRING: fmt_string(F->out, e->u.str.s, e->u.str.len); break;
	case EXPR_BOOL: buf_puts(F->out, e->u.bool_lit.value ? "true" : "false"); break;
	case EXPR_NAME: fmt_fx_name(F, ast_expr_name(e)); break;
	case EXPR_CALL:
		fmt_fx_name(F, ast_call_callee(e));
		if (e->u.call.has_targs) {
			buf_putc(F->out, '<');
			type_list(F, e->u.call.targs, e->u.call.ntargs);
			buf_putc(F->out, '>');
		}
		args(F, e->u.call.args, e->u.call.nargs);
		break;
	case EXPR_RECORD:
		fmt_fx_qname(F, &e->u.record.type);
		targs(F, e->u.record.targs, e->u.record.ntargs);
		inits(F, e->u.record.inits, e->u.record.ninits);
		break;
	case EXPR_VARIANT:
		fmt_fx_name(F, e->u.variant.type);
		targs(F, e->u.variant.targs, e->u.variant.ntargs);
		buf_puts(F->out, "::");
		fmt_fx_name(F, e->u.variant.case_name);
		inits(F, e->u.variant.inits, e->u.variant.ninits);
		break;
	case EXPR_SUPER:
		buf_puts(F->out, "super.");
		fmt_fx_name(F, e->u.super_.name);
		args(F, e->u.super_.args, e->u.super_.nargs);
		break;
	case EXPR_ARRAY:
		buf_putc(F->out, '[');
		for (int i = 0; i < e->u.array.nelems; i++) {
			if (i)
				buf_puts(F->out, ", ");
			expr(F, e->u.array.elems[i], 0);
		}
		buf_putc(F->out, ']');
		break;
	default:
		UNREACHABLE();
	}
}

static void
expr_node(Fmt *F, const Expr *e, int ctx)
{
	switch (e->kind) {
	case EXPR_UNARY:
		buf_putc(F->out, e->un_op == UN_NEG ? '-' : '!');
		expr(F, e->u.unary.operand, PREC_UNARY);
		break;
	case EXPR_BINARY: binary(F, e, ctx); break;
	case EXPR_METHOD:
		postfix_base(F, e->u.method.recv);
		buf_putc(F->out, '.');
		fmt_fx_name(F, e->u.method.name);
		args(F, e->u.method.args, e->u.method.nargs);
		break;
	case EXPR_FIELD:
		postfix_base(F, e->u.field.base);
		buf_putc(F->out, '.');
		fmt_fx_name(F, ast_field_name(e));
		break;
	case EXPR_TRY:
		postfix_base(F, e->u.try_.operand);
		buf_putc(F->out, '?');
		break;
	case EXPR_WITH:
		postfix_base(F, e->u.with.base);
		buf_puts(F->out, " with");
		inits(F, e->u.with.inits, e->u.with.ninits);
		break;
	case EXPR_BLOCK: block_inline(F, e->u.block); break;
	case EXPR_IF: if_expr(F, e); break;
	case EXPR_MATCH: match_expr(F, e); break;
	case EXPR_CLOSURE: closure(F, e); break;
	default: atom(F, e); break;
	}
}

static void
expr(Fmt *F, const Expr *e, int ctx)
{
	if (e == F->wrap || (F->force.len && forced(F, e))) {
		if (e == F->wrap)
			F->wrap = NULL;
		buf_putc(F->out, '(');
		expr_node(F, e, 0);
		buf_putc(F->out, ')');
		return;
	}
	expr_node(F, e, ctx);
}

static void
fmt_fx_expr(Fmt *F, const Expr *e)
{
	expr(F, e, 0);
}

void
fmt_fx_item_expr(Fmt *F, const Expr *e)
{
	const Expr *saved = F->wrap;
	F->wrap = item_hazard(e);
	expr(F, e, 0);
	F->wrap = saved;
}

void
fmt_fx_cond(Fmt *F, const Expr *e)
{
	if (contains_record(e)) {
		buf_putc(F->out, '(');
		expr(F, e, 0);
		buf_putc(F->out, ')');
	} else {
		expr(F, e, 0);
	}
}

/* ==== statements and inline blocks ============================================================ */

void
fmt_fx_simple_stmt(Fmt *F, const Stmt *s)
{
	if (s->kind == STMT_LET) {
		buf_puts(F->out, s->u.let.mut ? "let mut " : "let ");
		fmt_fx_name(F, s->u.let.name);
		if (s->u.let.type) {
			buf_puts(F->out, ": ");
			fmt_fx_type(F, s->u.let.type);
		}
		buf_puts(F->out, " = ");
		expr(F, s->u.let.value, 0);
	} else {
		fmt_fx_name(F, s->u.assign.target);
		if (s->u.assign.has_field) {
			buf_putc(F->out, '.');
			fmt_fx_name(F, s->u.assign.field);
		}
		buf_puts(F->out, " = ");
		expr(F, s->u.assign.value, 0);
	}
	buf_putc(F->out, ';');
}

static void
stmt_inline(Fmt *F, const Stmt *s)
{
	switch (s->kind) {
	case STMT_LET:
	case STMT_ASSIGN:
		fmt_fx_simple_stmt(F, s);
		break;
	case STMT_WHILE:
		buf_puts(F->out, "while ");
		fmt_fx_cond(F, s->u.while_.cond);
		buf_putc(F->out, ' ');
		block_inline(F, s->u.while_.body);
		break;
	case STMT_FOR:
		buf_puts(F->out, s->u.for_.own ? "for own " : "for ");
		fmt_fx_name(F, s->u.for_.item);
		buf_puts(F->out, " in ");
		fmt_fx_cond(F, s->u.for_.iter);
		buf_putc(F->out, ' ');
		block_inline(F, s->u.for_.body);
		break;
	case STMT_IF:
		fmt_stmt_if(F, s);
		break;
	case STMT_UNSAFE:
		if (s->u.unsafe.has_audit) {
			buf_puts(F->out, "@audit(");
			fmt_fx_quoted(F, s->u.unsafe.audit);
			buf_puts(F->out, ") ");
		}
		buf_puts(F->out, "unsafe ");
		block_inline(F, s->u.unsafe.body);
		break;
	}
}

/* `{ s1; s2; tail }`: items separated by one space; an empty block is `{  }`. */
static void
block_inline(Fmt *F, const Block *b)
{
	const Expr *saved = F->wrap;
	F->wrap = NULL;
	buf_puts(F->out, "{ ");
	for (int i = 0; i < b->nstmts; i++) {
		if (i)
			buf_putc(F->out, ' ');
		stmt_inline(F, b->stmts[i]);
	}
	if (b->tail) {
		if (b->nstmts)
			buf_putc(F->out, ' ');
		fmt_fx_item_expr(F, b->tail);
	}
	buf_puts(F->out, " }");
	F->wrap = saved;
}

/* ==== `<` read as type arguments ===================================================== */

/*
 * Where a balanced `<…>` of type-ish tokens starting at toks[k] ends (the
 * index after its `>`), or 0.  A copy of parse_expr.c's generic_list_end,
 * over a token array: the parser reads `name <…>` followed by `(`, `::` or
 * `{` as type arguments, and rejects `x.field <…>` not followed by `(`.
 */
/* Would the parser misread the `<` at toks[k], printed after node e? */
static bool
lt_misread(const Token *toks, int ntoks, int k, const Expr *e)
{
	int end = parse_generic_list_end(toks, ntoks, k);
	if (end == 0)
		return false;
	TokKind next = end < ntoks ? (TokKind)toks[end].kind : TOK_EOF;
	if (e->kind == EXPR_FIELD)
		return next != TOK_LPAREN;
	return next == TOK_LPAREN || next == TOK_COLONCOLON || next == TOK_LBRACE;
}

/* parse_generic_list_end looks at most this many tokens past the `<`. */
#define LT_SCAN_LIMIT 4096

/*
 * Would the `<` at out[off] be misread?  Decided from a window of the
 * output that starts at that `<`: tokens lexed from a token start are the
 * whole output's tokens from there on, except that the window's last token
 * may be cut.  The answer is known when the window reaches the end, when it
 * holds more complete tokens than the scan can look at, or when the scan
 * gives the same result with the last token replaced by EOF and by enough
 * `>` to close every `<` (so it never reached that token) and the token
 * after its `>` is complete.  Otherwise the window doubles.  The cost
 * follows the scan, not the size of the module.
 */
static bool
lt_misread_at(const char *out, size_t off, size_t end, const Expr *e, Arena *a)
{
	for (size_t w = 64;; w *= 2) {
		size_t lim = w < end - off ? off + w : end;
		bool whole = lim == end;
		while (!whole && lim > off && ((unsigned char)out[lim] & 0xC0) == 0x80)
			lim--;  /* cut at a character start */
		DiagSink d;
		diag_init(&d, NULL, NULL, 0);
		LexResult lx;
		lex_source(&lx, out + off, lim - off, a, &d);
		diag_free(&d);
		const Token *t = lx.toks;
		int n = lx.ntoks - 1;  /* tokens before the EOF; t[n - 1] may be cut */
		bool known = false, misread = false;
		if (whole) {
			known = true;
			misread = n >= 1 && t[0].kind == TOK_LT && t[0].span.start == 0 && lt_misread(t, lx.ntoks, 0, e);
		} else if (n >= 2 && (t[0].kind != TOK_LT || t[0].span.start != 0)) {
			known = true;  /* no `<` token starts here */
		} else if (n - 1 > LT_SCAN_LIMIT + 1) {
			known = true;
			misread = lt_misread(t, n - 1, 0, e);
		} else if (n >= 2) {
			int nlt = 0;
			for (int i = 0; i < n - 1; i++)
				nlt += t[i].kind == TOK_LT;
			if (n - 1 + nlt <= LT_SCAN_LIMIT) {
				Token *pad = spx_xmalloc(sizeof(Token) * (size_t)(n + nlt + 1));
				memcpy(pad, t, sizeof(Token) * (size_t)(n - 1));
				pad[n - 1] = t[n];  /* EOF in place of the last token */
				int as_eof = parse_generic_list_end(pad, n, 0);
				for (int i = 0; i < nlt; i++) {
					pad[n - 1 + i] = t[0];
					pad[n - 1 + i].kind = TOK_GT;
				}
				pad[n - 1 + nlt] = t[n];
				int as_gt = parse_generic_list_end(pad, n + nlt, 0);
				free(pad);
				known = as_eof == as_gt && (as_eof == 0 || as_eof < n - 1);
				if (known)
					misread = lt_misread(t, n - 1, 0, e);
			}
		}
		lex_free(&lx);
		if (known)
			return misread;
	}
}

/*
 * Whether the `<` at out[off] certainly closes no type-argument list: a byte
 * that only an unaccepted token (parse_generic_list_end's default: `{`, `=`,
 * `:`, `"`, …) can hold comes before any `>` and any `/` (a comment could
 * hide it), or the output ends first.  The tokens before that one hold no
 * `>`, so the scan stops there with no list.  Nearly every `<` of a program
 * (`i < n {`, `a < b;` then the next line's `=`) is settled here without
 * lexing a window of the output.
 */
static bool
lt_no_close(const char *out, size_t off, size_t end)
{
	for (size_t i = off + 1; i < end; i++) {
		switch (out[i]) {
		case '>': case '/':
			return false;
		case '{': case '}': case '=': case '+': case '*': case '%': case '!': case '&': case '|': case '?':
		case '"': case '\'': case '@': case ':':
			return true;
		default:
			break;
		}
	}
	return true;
}

/*
 * Dropping source parentheses can turn `(a) < b, c > (d)` into a generic
 * call.  For every `<` printed since base after a name or field that the
 * parser would misread (judged from the output's tokens at that `<`), asks
 * for that node to be parenthesized.  True when the caller must re-render.
 */
bool
fmt_fx_lt_hazards(Fmt *F, size_t base)
{
	(void)base;
	bool added = false;
	if (F->lts.len == 0)
		return false;
	Arena a;
	arena_init(&a);
	for (int i = 0; i < F->lts.len; i++) {
		if (lt_no_close(F->out->data, F->lts.items[i].offset, F->out->len))
			continue;
		if (lt_misread_at(F->out->data, F->lts.items[i].offset, F->out->len, F->lts.items[i].name, &a)) {
			VEC_PUSH(F->force, F->lts.items[i].name);
			added = true;
		}
	}
	F->lts.len = 0;
	arena_free(&a);
	return added;
}
