/*
 * cmd_graph.c — the agent read commands over a verified file (src/graph/,
 * docs/GRAPH.md):
 *
 *   graph <file>                    the semantic graph, semaprax.graph.c1
 *   context <file> <symbol> [...]   bounded agent context, semaprax.context.c1
 *   query <file> [filters] [--json] declarations, one line each
 *
 * Options are closed and single-use; numbers are canonical positive
 * decimals within their bounds; a violation is a usage error (exit 2)
 * reported before the file is read.  A file that does not verify is
 * refused with its diagnostics (exit 1).  An unknown symbol is G001 with
 * the nearest stable ids; a context that cannot fit its byte bound is G004
 * (exit 1, nothing on stdout).
 */
#include "cli.h"

#include <stdio.h>
#include <string.h>

#include "../graph/graph.h"

/* The verified program of path and its model (NULL after printing the refusal). */
typedef struct Loaded {
	Program P;
	Session *L;
	GraphModel *g;
	GraphMeta meta;
} Loaded;

static bool
load(Loaded *x, const char *path)
{
	memset(x, 0, sizeof *x);
	if (!driver_program_load_file(&x->P, path, &x->L, SESSION_CHECK_HIR) || !x->L->H) {
		diag_emit_all(&x->L->diags, false);
		cli_unload(&x->P);
		return false;
	}
	x->meta.revision = x->P.revision;
	x->meta.prelude_schema = x->L->prelude.schema;   /* chosen with the revision */
	x->meta.prelude_digest = x->L->prelude.digest;
	x->g = graph_model_build(x->L->S, x->L->H);
	return true;
}

static void
unload(Loaded *x)
{
#ifdef SPX_ASAN
	graph_model_free(x->g);
#endif
	cli_unload(&x->P);
}

static void
flush_stdout(Buf *b, void *ctx)
{
	(void)ctx;
	if (b->len)   /* an empty Buf may have no data at all */
		fwrite(b->data, 1, b->len, stdout);
	b->len = 0;
}

static void
put(Buf *b)
{
	if (b->len)   /* an empty answer (a query matching nothing) has no data */
		fwrite(b->data, 1, b->len, stdout);
	buf_free(b);
}

/* Canonical positive decimal (no sign, no leading zero) within [lo, hi]. */
static bool
number(const char *s, long lo, long hi, long *out)
{
	if (!*s || *s == '0' || strlen(s) > 9)
		return false;
	long v = 0;
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return false;
		v = v * 10 + (*p - '0');
	}
	if (v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

/* One location-less diagnostic of path. */
static void
report(const char *path, DiagCode code, const char *help, const char *msg)
{
	DiagSink s;
	diag_init(&s, path, NULL, 0);
	Diag *d = diag_report(&s, code, NULL, "%s", msg);
	if (d && help)
		diag_set_help(d, "%s", help);
	diag_emit_all(&s, false);
	diag_free(&s);
}

/* G001: the symbol names no declaration (or several); the nearest stable ids as help. */
static void
unknown_symbol(Loaded *x, const char *path, const char *symbol, bool ambiguous)
{
	GraphModel *g = x->g;
	Buf msg = {0}, help = {0};
	if (ambiguous) {
		buf_printf(&msg, "symbol `%s` names several declarations", symbol);
		buf_puts(&help, "name one by its stable id:");
		for (int i = 0; i < g->ndecls; i++)
			if (strcmp(g->decls[i].name, symbol) == 0 && g->decls[i].owner < 0)
				buf_printf(&help, " `%s`", g->decls[i].id);
	} else {
		buf_printf(&msg, "no declaration has the stable id or name `%s`", symbol);
		/* the three nearest ids or names, by distance then stable id */
		int best[3] = { -1, -1, -1 }, bestd[3] = { 99, 99, 99 };
		int limit = strlen(symbol) <= 4 ? 1 : 2 + (int)strlen(symbol) / 5;
		for (int k = 0; k < g->ndecls; k++) {
			int i = g->by_id[k];
			int d1 = spx_edit_distance(symbol, g->decls[i].id, true);
			int d2 = spx_edit_distance(symbol, graph_qualified_name(g, i), true);
			int d = d1 < d2 ? d1 : d2;
			if (d > limit)
				continue;
			for (int j = 0; j < 3; j++)
				if (d < bestd[j]) {
					for (int m = 2; m > j; m--) {
						best[m] = best[m - 1];
						bestd[m] = bestd[m - 1];
					}
					best[j] = i;
					bestd[j] = d;
					break;
				}
		}
		if (best[0] >= 0) {
			buf_puts(&help, "did you mean");
			for (int j = 0; j < 3 && best[j] >= 0; j++)
				buf_printf(&help, "%s `%s`", j ? "," : "", g->decls[best[j]].id);
			buf_puts(&help, "? `semaprax query <file>` lists every declaration");
		} else {
			buf_puts(&help, "`semaprax query <file>` lists every declaration with its stable id");
		}
	}
	report(path, DIAG_G001, help.data, msg.data);
	buf_free(&msg);
	buf_free(&help);
}

/* ---- graph ------------------------------------------------------------------------- */

int
cli_cmd_graph(int argc, char **argv)
{
	const char *path = NULL;
	for (int i = 1; i < argc; i++) {
		if (argv[i][0] == '-' && argv[i][1] != '\0')
			return cli_usage("graph", "unknown graph option `%s`", argv[i]);
		if (path)
			return cli_usage("graph", "graph requires exactly <file>");
		path = argv[i];
	}
	if (!path)
		return cli_usage("graph", "graph requires exactly <file>");
	Loaded x;
	if (!load(&x, path))
		return EXIT_FAIL;
	Buf b = {0};
	graph_write(&b, x.g, &x.meta, flush_stdout, NULL);
	buf_putc(&b, '\n');
	put(&b);
	unload(&x);
	return EXIT_OK;
}

/* ---- context ----------------------------------------------------------------------- */

#define CONTEXT_GRAMMAR "context requires <file> <symbol|stable-id> [--direction forward|reverse|both] [--depth N] " \
	"[--max-bytes N] [--max-nodes N] [--filters contracts,ownership,effects,types]"

static bool
parse_filters(const char *s, int *out)
{
	static const char *const names[] = { "contracts", "ownership", "effects", "types" };
	int f = 0;
	while (*s) {
		const char *e = strchr(s, ',');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		int bit = -1;
		for (int i = 0; i < 4; i++)
			if (strlen(names[i]) == n && strncmp(names[i], s, n) == 0)
				bit = 1 << i;
		if (bit < 0 || (f & bit))
			return false;
		f |= bit;
		if (!e)
			break;
		s = e + 1;
		if (!*s)
			return false;
	}
	*out = f;
	return f != 0;
}

int
cli_cmd_context(int argc, char **argv)
{
	const char *path = NULL, *symbol = NULL;
	ContextQuery q = { 0, NULL, 0, 1, 65536, 256, 0 };
	bool seen[5] = { false };
	static const char *const opts[] = { "--direction", "--depth", "--max-bytes", "--max-nodes", "--filters" };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int o = -1;
		for (int k = 0; k < 5; k++)
			if (strcmp(a, opts[k]) == 0)
				o = k;
		if (o < 0) {
			if (a[0] == '-' && a[1] != '\0')
				return cli_usage("context", "unknown context option `%s`", a);
			if (!path)
				path = a;
			else if (!symbol)
				symbol = a;
			else
				return cli_usage("context", CONTEXT_GRAMMAR);
			continue;
		}
		if (seen[o])
			return cli_usage("context", "option `%s` given twice", a);
		seen[o] = true;
		if (i + 1 >= argc)
			return cli_usage("context", "option `%s` needs a value", a);
		const char *v = argv[++i];
		long n;
		switch (o) {
		case 0:
			if (strcmp(v, "forward") == 0)
				q.direction = CTX_FORWARD;
			else if (strcmp(v, "reverse") == 0)
				q.direction = CTX_REVERSE;
			else if (strcmp(v, "both") == 0)
				q.direction = CTX_BOTH;
			else
				return cli_usage("context", "--direction takes forward, reverse or both, not `%s`", v);
			break;
		case 1:
			if (!number(v, 1, GRAPH_CTX_MAX_DEPTH, &n))
				return cli_usage("context", "--depth takes a canonical decimal 1..%d, not `%s`", GRAPH_CTX_MAX_DEPTH, v);
			q.depth = (int)n;
			break;
		case 2:
			if (!number(v, GRAPH_CTX_MIN_BYTES, (long)GRAPH_CTX_MAX_BYTES, &n))
				return cli_usage("context", "--max-bytes takes a canonical decimal %d..%u, not `%s`", GRAPH_CTX_MIN_BYTES,
				    GRAPH_CTX_MAX_BYTES, v);
			q.max_bytes = n;
			break;
		case 3:
			if (!number(v, 1, GRAPH_CTX_MAX_NODES, &n))
				return cli_usage("context", "--max-nodes takes a canonical decimal 1..%d, not `%s`", GRAPH_CTX_MAX_NODES, v);
			q.max_nodes = (int)n;
			break;
		case 4:
			if (!parse_filters(v, &q.filters))
				return cli_usage("context", "--filters takes a comma list of contracts, ownership, effects, types "
				    "(each once), not `%s`", v);
			break;
		}
	}
	if (!path || !symbol)
		return cli_usage("context", CONTEXT_GRAMMAR);
	Loaded x;
	if (!load(&x, path))
		return EXIT_FAIL;
	int status = EXIT_OK;
	q.root = graph_resolve(x.g, symbol);
	q.symbol = symbol;
	if (q.root < 0) {
		unknown_symbol(&x, path, symbol, q.root == -2);
		status = EXIT_FAIL;
	} else {
		Buf b = {0};
		long need = 0;
		if (graph_context(&b, x.g, &x.meta, &q, &need)) {
			buf_putc(&b, '\n');
			put(&b);
		} else {
			buf_free(&b);
			char msg[256], help[160];
			snprintf(msg, sizeof msg, "the context of `%s` needs %ld bytes; --max-bytes is %ld", x.g->decls[q.root].id, need,
			    q.max_bytes);
			if (need <= (long)GRAPH_CTX_MAX_BYTES)
				snprintf(help, sizeof help, "pass `--max-bytes %ld` or more", need);
			else
				snprintf(help, sizeof help, "the root's own fact exceeds the 16 MiB bound; query a callee instead");
			report(path, DIAG_G004, help, msg);
			status = EXIT_FAIL;
		}
	}
	unload(&x);
	return status;
}

/* ---- query ------------------------------------------------------------------------- */

#define QUERY_GRAMMAR "query requires <file> [--kind k[,k]] [--name text] [--id prefix] [--effect e] " \
	"[--calls id] [--called-by id] [--json]"

static bool
parse_kinds(const char *s, unsigned *out)
{
	unsigned k = 0;
	while (*s) {
		const char *e = strchr(s, ',');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		int bit = -1;
		for (int i = 0; i < GK__COUNT; i++)
			if (strlen(graph_kind_names[i]) == n && strncmp(graph_kind_names[i], s, n) == 0)
				bit = i;
		if (bit < 0 || (k & (1u << bit)))
			return false;
		k |= 1u << bit;
		if (!e)
			break;
		s = e + 1;
		if (!*s)
			return false;
	}
	*out = k;
	return k != 0;
}

int
cli_cmd_query(int argc, char **argv)
{
	const char *path = NULL, *calls = NULL, *called_by = NULL;
	GraphQuery q = { 0, NULL, NULL, NULL, -1, -1, false };
	bool seen[7] = { false };
	static const char *const opts[] = { "--kind", "--name", "--id", "--effect", "--calls", "--called-by", "--json" };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int o = -1;
		for (int k = 0; k < 7; k++)
			if (strcmp(a, opts[k]) == 0)
				o = k;
		if (o < 0) {
			if (a[0] == '-' && a[1] != '\0')
				return cli_usage("query", "unknown query option `%s`", a);
			if (path)
				return cli_usage("query", QUERY_GRAMMAR);
			path = a;
			continue;
		}
		if (seen[o])
			return cli_usage("query", "option `%s` given twice", a);
		seen[o] = true;
		if (o == 6) {
			q.json = true;
			continue;
		}
		if (i + 1 >= argc || !argv[i + 1][0])
			return cli_usage("query", "option `%s` needs a value", a);
		const char *v = argv[++i];
		switch (o) {
		case 0:
			if (!parse_kinds(v, &q.kinds))
				return cli_usage("query", "--kind takes a comma list of function, method, record, field, variant, case, "
				    "case_field, class, resource, interface, import (each once), not `%s`", v);
			break;
		case 1: q.name = v; break;
		case 2: q.id_prefix = v; break;
		case 3: q.effect = v; break;
		case 4: calls = v; break;
		case 5: called_by = v; break;
		}
	}
	if (!path)
		return cli_usage("query", QUERY_GRAMMAR);
	Loaded x;
	if (!load(&x, path))
		return EXIT_FAIL;
	int status = EXIT_OK;
	const char *sym[2] = { calls, called_by };
	int *slot[2] = { &q.calls, &q.called_by };
	for (int k = 0; k < 2; k++) {
		if (!sym[k] || status != EXIT_OK)
			continue;
		*slot[k] = graph_resolve(x.g, sym[k]);
		if (*slot[k] < 0) {
			unknown_symbol(&x, path, sym[k], *slot[k] == -2);
			status = EXIT_FAIL;
		}
	}
	if (status == EXIT_OK) {
		Buf b = {0};
		graph_query(&b, x.g, &x.meta, &q);
		put(&b);
	}
	unload(&x);
	return status;
}
