/*
 * lanes.c — what the interpreter and the C lane share about a run (hir.h):
 * the grants of a route and a contract clause's reported text, so both
 * lanes report the same clause and neither includes the other; where a
 * `?` lies among a call's or an aggregate's operands (the compiled lanes).
 */
#include "hir.h"

#include <inttypes.h>
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
		const char *s = S->src + c->cond->span.start;
		size_t n = c->cond->span.end - c->cond->span.start;
		while (n && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n'))
			s++, n--;
		while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
			n--;
		if (n <= CLAUSE_TEXT_MAX && !memchr(s, '\n', n)) {
			buf_put(&b, s, n);
			return buf_take(&b);
		}
	}
	buf_printf(&b, "declaration:%zu:%s:expression:%" PRIu32, strlen(f->id), f->id, e->index);
	return buf_take(&b);
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
