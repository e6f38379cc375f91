/*
 * lanes.c — what the lanes share about a run (hir.h): the grants of a
 * route, a contract clause's reported text, the compiled lanes' head of a
 * contract failure report, which types can hold themselves, and where a `?`
 * lies among a call's or an aggregate's operands, so every lane reports the
 * same clause and no lane includes another.
 */
#include "hir.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define CLAUSE_TEXT_MAX 4096u

bool
hir_grants(const HirGrants *g, const char *effect)
{
	const struct { const char *name; bool on; } caps[] = {
		{ "fs.read", g->fs_read }, { "process.args.read", g->args_read },
		{ "process.stderr.write", g->stderr_write }, { "process.stdout.write", g->stdout_write },
		{ "fs.write", g->fs_write }, { "process.stdin.read", g->stdin_read },
		{ "process.environment.read", g->env_read }, { "clock.read", g->clock_read },
	};
	for (size_t i = 0; i < countof(caps); i++)
		if (strcmp(caps[i].name, effect) == 0)
			return caps[i].on;
	return false;
}

bool
hir_run_op(BuiltinId bi)
{
	if (!sema_builtin_by_id(bi)->effect)
		return true;
	switch (bi) {
	case BI_arg_utf8: case BI_args_len: case BI_file_read_text: case BI_stderr_write: case BI_stdout_write:
	case BI_file_write_new: case BI_file_write_atomic: case BI_stdin_read:
	case BI_stdin_stream_open: case BI_stdin_stream_next:
	case BI_env_len: case BI_env_name_utf8: case BI_env_value_utf8: case BI_clock_now_ms:
		return true;
	default:
		return false;
	}
}

/* The balance of `(` over `)` in s[0..n), string and char literals
 * skipped; *low the lowest running balance (≤ 0). */
static long
paren_balance(const char *s, size_t n, long *low)
{
	long depth = 0;
	*low = 0;
	for (size_t k = 0; k < n; k++) {
		if (s[k] == '"' || s[k] == '\'') {
			char q = s[k];
			for (k++; k < n && s[k] != q; k++)
				if (s[k] == '\\')
					k++;
		} else if (s[k] == '(') {
			depth++;
		} else if (s[k] == ')' && --depth < *low) {
			*low = depth;
		}
	}
	return depth;
}

/*
 * A clause's condition text, trimmed, with the parentheses its span leaves
 * out (a parenthesised operand's span is its inner expression's, so
 * `a || (b)` read `a || (b` and `(a) || b` read `a) || b`; qa31): taken
 * back from the clause's own text, never past it.
 */
void
hir_clause_bounds(const char *src, const Clause *c, const char **out, size_t *out_n)
{
	const char *s = src + c->cond->span.start;
	size_t n = c->cond->span.end - c->cond->span.start;
	const char *lo = src + c->span.start, *hi = src + c->span.end;
	long low;
	long depth = paren_balance(s, n, &low);
	long opens = -low;   /* `)`s with no `(` in the text: the `(`s before it */
	depth += opens;
	while (depth > 0) {   /* an unclosed `(`: the `)` after the text */
		const char *e = s + n;
		while (e < hi && (*e == ' ' || *e == '\t' || *e == '\r' || *e == '\n'))
			e++;
		if (e >= hi || *e != ')')
			break;
		n = (size_t)(e + 1 - s);
		depth--;
	}
	while (opens > 0) {   /* an unopened `)`: the `(` before the text */
		const char *b = s;
		while (b > lo && (b[-1] == ' ' || b[-1] == '\t' || b[-1] == '\r' || b[-1] == '\n'))
			b--;
		if (b <= lo || b[-1] != '(')
			break;
		n += (size_t)(s - (b - 1));
		s = b - 1;
		opens--;
	}
	while (n && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n'))
		s++, n--;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
		n--;
	*out = s;
	*out_n = n;
}

char *
hir_clause_text(const Sema *S, const HirFunc *f, int i, bool ensures)
{
	const HirExpr *e = ensures ? f->ensures[i] : f->requires[i];
	const Clause *c = NULL;
	int seen = 0;
	for (int k = 0; k < f->nrequires + f->nensures && f->clauses; k++) {
		if ((f->clauses[k].kind == CLAUSE_ENSURES) == ensures && seen++ == i) {
			c = &f->clauses[k];
			break;
		}
	}
	Buf b = {0};
	if (c) {
		const char *s;
		size_t n;
		hir_clause_bounds(S->src, c, &s, &n);
		if (n <= CLAUSE_TEXT_MAX && !memchr(s, '\n', n)) {
			buf_put(&b, s, n);
			return buf_take(&b);
		}
	}
	buf_printf(&b, "declaration:%zu:%s:expression:%" PRIu32, strlen(f->id), f->id, e->index);
	return buf_take(&b);
}

char *
hir_contract_head(const Sema *S, const HirFunc *f, int i, bool ensures)
{
	const char *phase = ensures ? "ensures" : "requires";
	char *text = hir_clause_text(S, f, i, ensures);
	/* the id and the clause as the interpreter's detail shows them: control
	 * bytes as \xNN (a clause's string literal may hold a raw escape sequence,
	 * which reached the terminal from stderr: sec33) */
	Buf rid = {0}, clause = {0};
	diag_put_visible(&rid, f->report_id, strlen(f->report_id));
	diag_put_visible(&clause, text, strlen(text));
	buf_putc(&clause, '\0');
	Buf b = {0};
	buf_printf(&b, "SEMAPRAX contract failure: %s in %s: %s\n  contract: %s %s in %s\n  arguments: ", phase,
		   f->name, clause.data, phase, clause.data, rid.data);
	buf_free(&rid);
	buf_free(&clause);
	free(text);
	return buf_take(&b);
}

/* Does a value of type from hold (through fields, case fields and heap
 * parts) a value of type to?  seen has one byte per type, grown on demand. */
static bool
reaches(Sema *S, TypeId from, TypeId to, uint8_t **seen, int *nseen)
{
	if (from == to)
		return true;
	if ((int)from >= *nseen) {
		int n = S->types.len > (int)from ? S->types.len : (int)from + 1;
		*seen = spx_xrealloc(*seen, (size_t)n);
		memset(*seen + *nseen, 0, (size_t)(n - *nseen));
		*nseen = n;
	}
	/* a type past the nesting limit (a generic holding a larger instance of
	 * itself) would make new types without end: the lanes refuse it anyway */
	if ((*seen)[from] || !sema_type_bounded(&S->types, from))
		return false;
	(*seen)[from] = 1;
	const TypeInfo *ti = sema_type_info(&S->types, from);
	switch (ti->kind) {
	case TY_BOX: case TY_VEC: case TY_ITER: case TY_SET: case TY_MAP:
		for (int i = 0; i < ti->nargs; i++)
			if (reaches(S, ti->args[i], to, seen, nseen))
				return true;
		return false;
	case TY_NOMINAL: {
		Sym *s = sema_sym(S, (SymId)ti->decl);
		if (s->kind == SK_RECORD || s->kind == SK_CLASS) {
			for (int i = 0; i < s->nom->nfields; i++)
				if (reaches(S, sema_field_type(S, from, i), to, seen, nseen))
					return true;
		} else if (s->kind == SK_VARIANT) {
			for (int c = 0; c < s->nom->ncases; c++)
				for (int i = 0; i < s->nom->cases[c].nfields; i++)
					if (reaches(S, sema_case_field_type(S, from, c, i), to, seen, nseen))
						return true;
		}
		return false;
	}
	default:
		return false;
	}
}

bool
hir_type_cyclic(Sema *S, TypeId t)
{
	const TypeInfo *ti = sema_type_info(&S->types, t);
	bool yes = false;
	uint8_t *seen = NULL;
	int nseen = 0;
	/* t's own children, each searched for t */
	if (ti->kind == TY_NOMINAL) {
		Sym *s = sema_sym(S, (SymId)ti->decl);
		for (int i = 0; (s->kind == SK_RECORD || s->kind == SK_CLASS) && i < s->nom->nfields && !yes; i++)
			yes = reaches(S, sema_field_type(S, t, i), t, &seen, &nseen);
		for (int c = 0; s->kind == SK_VARIANT && c < s->nom->ncases && !yes; c++)
			for (int i = 0; i < s->nom->cases[c].nfields && !yes; i++)
				yes = reaches(S, sema_case_field_type(S, t, c, i), t, &seen, &nseen);
	} else if (ti->kind == TY_BOX || ti->kind == TY_VEC || ti->kind == TY_ITER || ti->kind == TY_MAP) {
		for (int i = 0; i < ti->nargs && !yes; i++)
			yes = reaches(S, ti->args[i], t, &seen, &nseen);
	}
	free(seen);
	return yes;
}

static bool has_try(const HirExpr *e);

static bool
block_has_try(const HirBlock *b)
{
	if (!b)
		return false;
	for (int i = 0; i < b->nstmts; i++)
		if (has_try(b->stmts[i]->value) || block_has_try(b->stmts[i]->body))
			return true;
	return has_try(b->tail);
}

static bool
has_try(const HirExpr *e)
{
	if (!e)
		return false;
	switch (e->kind) {
	case HIR_TRY:
		return true;
	case HIR_UNARY:
		return has_try(e->u.un.x);
	case HIR_BINARY:
		return has_try(e->u.bin.l) || has_try(e->u.bin.r);
	case HIR_CALL:
		return hir_last_try(e->u.call.args, e->u.call.nargs) >= 0;
	case HIR_FIELD:
		return has_try(e->u.field.base);
	case HIR_WITH: case HIR_RECORD: case HIR_VARIANT:
		return (e->kind == HIR_WITH && has_try(e->u.agg.base)) || hir_last_try(e->u.agg.values, e->u.agg.n) >= 0;
	case HIR_BLOCK:
		return block_has_try(e->u.block);
	case HIR_IF:
		return has_try(e->u.if_.cond) || block_has_try(e->u.if_.then_) || block_has_try(e->u.if_.else_);
	case HIR_MATCH:
		if (has_try(e->u.match.scrutinee))
			return true;
		for (int i = 0; i < e->u.match.narms; i++)
			if (has_try(e->u.match.arms[i].guard) || has_try(e->u.match.arms[i].value))
				return true;
		return false;
	case HIR_ARRAY:
		return hir_last_try(e->u.array.elems, e->u.array.n) >= 0;
	default:
		return false;
	}
}

int
hir_last_try(HirExpr *const *xs, int n)
{
	for (int i = n - 1; i >= 0; i--)
		if (has_try(xs[i]))
			return i;
	return -1;
}

bool
hir_branch_results_all(const HirExpr *h, bool (*pred)(void *ctx, const HirExpr *r), void *ctx)
{
	switch (h->kind) {
	case HIR_BLOCK:
		return pred(ctx, h->u.block->tail);
	case HIR_IF:
		return h->u.if_.else_ && pred(ctx, h->u.if_.then_->tail) && pred(ctx, h->u.if_.else_->tail);
	case HIR_MATCH:
		for (int i = 0; i < h->u.match.narms; i++)
			if (!pred(ctx, h->u.match.arms[i].value))
				return false;
		return h->u.match.narms > 0;
	default:
		return false;
	}
}
