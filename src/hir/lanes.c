/*
 * lanes.c — what the lanes share about a run (hir.h): the grants of a
 * route, a contract clause's reported text, and the compiled lanes' head
 * of a contract failure report, so every lane reports the same clause and
 * no lane includes another.
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

char *
hir_contract_head(const Sema *S, const HirFunc *f, int i, bool ensures)
{
	const char *phase = ensures ? "ensures" : "requires";
	char *clause = hir_clause_text(S, f, i, ensures);
	/* the id as the interpreter's detail shows it: control bytes as \xNN */
	Buf rid = {0};
	diag_put_visible(&rid, f->report_id, strlen(f->report_id));
	Buf b = {0};
	buf_printf(&b, "SEMAPRAX contract failure: %s in %s: %s\n  contract: %s %s in %s\n  arguments: ", phase,
		   f->name, clause, phase, clause, rid.data);
	buf_free(&rid);
	free(clause);
	return buf_take(&b);
}
