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
#include "patch_cli.h"

#include <stdio.h>
#include <string.h>

#include "graph_cli.h"
#include "../support/json.h"

/* The verified program of path and its model (NULL after printing the refusal). */
typedef struct Loaded {
	Program P;
	Session *L;
	GraphModel *g;
	GraphMeta meta;
} Loaded;

/* `context <module file>` redirected to the project's context (qa38): that
 * one carries nodes and edges, no bodies, so an agent after a function's
 * expression indices (a v4 `expression` selector, G112's help) is told
 * where they are: the module's graph in the project's. */
static void
project_context_note(DiagSink *ds)
{
	for (int i = 0; i < ds->items.len; i++) {
		Diag *d = &ds->items.items[i];
		if (d->code == DIAG_T105 && d->help && strstr(d->help, " is a module of the project in "))
			diag_set_note(d, "a project's context lists declarations and call edges, not bodies: a function's body with "
			    "each expression's index (for a patch's `expression` selector) is in `semaprax graph <project>`, under its module");
	}
}

static bool
load(Loaded *x, const char *path, const char *cmd, const char *rest)
{
	memset(x, 0, sizeof *x);
	if (!driver_program_load_file(&x->P, path, &x->L, SESSION_CHECK_HIR) || !x->L->H) {
		cli_listed_module_help(&x->L->diags, path, cmd, rest);
		if (strcmp(cmd, "context") == 0)
			project_context_note(&x->L->diags);
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

/* G001: the symbol names no declaration (or several); the nearest stable ids as help. */
static void
unknown_symbol(Loaded *x, const char *path, const char *symbol, bool ambiguous)
{
	GraphModel *g = x->g;
	Buf msg = {0}, help = {0};
	if (ambiguous)
		buf_printf(&msg, "symbol `%s` names several declarations", symbol);
	else
		buf_printf(&msg, "no declaration has the stable id or name `%s`", symbol);
	graph_symbol_help(&help, g, symbol, ambiguous);
	cli_report(DIAG_G001, path, msg.data, help.data);
	buf_free(&msg);
	buf_free(&help);
}

/* ---- graph ------------------------------------------------------------------------- */

static int graph_project(const char *manifest);

int
cli_cmd_graph(int argc, char **argv)
{
	const char *path = NULL, *manifest_path = NULL;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--manifest-path") == 0) {
			if (manifest_path)
				return cli_usage("graph", "option `--manifest-path` given twice");
			if (i + 1 >= argc)
				return cli_usage("graph", "option `--manifest-path` needs a value");
			manifest_path = argv[++i];
			continue;
		}
		if (argv[i][0] == '-' && argv[i][1] != '\0')
			return cli_unknown_option("graph", argv[i], NULL);
		if (path)
			return cli_usage("graph", "graph requires exactly <file>|<dir>|semaprax.toml|--manifest-path <p>");
		path = argv[i];
	}
	if (path && manifest_path)
		return cli_usage("graph", "graph takes an operand or --manifest-path, not both");
	char *manifest = project_manifest_for(path, manifest_path);
	if (manifest) {
		int st = graph_project(manifest);
		free(manifest);
		return st;
	}
	Loaded x;
	if (!load(&x, path, "graph", ""))
		return EXIT_FAIL;
	Buf b = {0};
	graph_write(&b, x.g, &x.meta, flush_stdout, NULL);
	buf_putc(&b, '\n');
	put(&b);
	unload(&x);
	return EXIT_OK;
}

/* A comma list of names from names[0..n) (each once, none empty) as the
 * set of their indices (bit i for names[i]); false when empty or bad. */
static bool
name_set(const char *s, const char *const *names, int n, unsigned *out)
{
	unsigned set = 0;
	while (*s) {
		const char *e = strchr(s, ',');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		int bit = -1;
		for (int i = 0; i < n; i++)
			if (strlen(names[i]) == len && strncmp(names[i], s, len) == 0)
				bit = i;
		if (bit < 0 || (set & (1u << bit)))
			return false;
		set |= 1u << bit;
		if (!e)
			break;
		s = e + 1;
		if (!*s)
			return false;
	}
	*out = set;
	return set != 0;
}

/* ---- context ----------------------------------------------------------------------- */

#define CONTEXT_GRAMMAR "context requires <file>|<dir>|semaprax.toml|--manifest-path <p> <symbol|stable-id> [--direction forward|reverse|both] [--depth N] " \
	"[--max-bytes N] [--max-nodes N] [--filters contracts,ownership,effects,types]"

int
cli_cmd_context(int argc, char **argv)
{
	const char *path = NULL, *symbol = NULL, *manifest_path = NULL;
	ContextQuery q = { 0, NULL, 0, 1, 65536, 256, 0 };
	bool seen[6] = { false };
	static const char *const opts[] = { "--direction", "--depth", "--max-bytes", "--max-nodes", "--filters",
		"--manifest-path" };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int o = spx_word_index(opts, countof(opts), a);
		if (o < 0) {
			if (a[0] == '-' && a[1] != '\0')
				return cli_unknown_option("context", a, NULL);
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
		uint64_t n;
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
			if (!cli_parse_within(v, 1, GRAPH_CTX_MAX_DEPTH, &n))
				return cli_usage("context", "--depth takes a canonical decimal 1..%d, not `%s`", GRAPH_CTX_MAX_DEPTH, v);
			q.depth = (int)n;
			break;
		case 2:
			if (!cli_parse_within(v, GRAPH_CTX_MIN_BYTES, GRAPH_CTX_MAX_BYTES, &n))
				return cli_usage("context", "--max-bytes takes a canonical decimal %d..%u, not `%s`", GRAPH_CTX_MIN_BYTES,
				    GRAPH_CTX_MAX_BYTES, v);
			q.max_bytes = (long)n;
			break;
		case 3:
			if (!cli_parse_within(v, 1, GRAPH_CTX_MAX_NODES, &n))
				return cli_usage("context", "--max-nodes takes a canonical decimal 1..%d, not `%s`", GRAPH_CTX_MAX_NODES, v);
			q.max_nodes = (int)n;
			break;
		case 4: {
			static const char *const filter_names[] = { "contracts", "ownership", "effects", "types" };   /* CTX_F_* */
			unsigned f;
			if (!name_set(v, filter_names, 4, &f))
				return cli_usage("context", "--filters takes a comma list of contracts, ownership, effects, types "
				    "(each once), not `%s`", v);
			q.filters = (int)f;
			break;
		}
		case 5:
			manifest_path = v;
			break;
		}
	}
	if (manifest_path) {   /* the one operand is the symbol */
		if (symbol)
			return cli_usage("context", "context takes <file|dir|semaprax.toml> or --manifest-path, not both");
		symbol = path;
		path = NULL;
	}
	if ((!path && !manifest_path) || !symbol)
		return cli_usage("context", CONTEXT_GRAMMAR);
	char *manifest = project_manifest_for(path, manifest_path);
	if (manifest) {
		if (seen[4]) {
			free(manifest);
			return cli_usage("context", "project context rejects --filters: its nodes carry no per-fact filters");
		}
		int st = cli_context_project(manifest, symbol, q.direction, q.depth, q.max_bytes, q.max_nodes);
		free(manifest);
		return st;
	}
	Loaded x;
	char *rest = spx_xmalloc(strlen(symbol) + 2);
	rest[0] = ' ';
	strcpy(rest + 1, symbol);
	bool loaded = load(&x, path, "context", rest);
	free(rest);
	if (!loaded)
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
			/* the whole id: a long one cut the byte counts off the message */
			Buf msg = {0};
			char help[160];
			buf_printf(&msg, "the context of `%s` needs %ld bytes; --max-bytes is %ld", x.g->decls[q.root].id, need, q.max_bytes);
			if (need <= (long)GRAPH_CTX_MAX_BYTES)
				snprintf(help, sizeof help, "pass `--max-bytes %ld` or more", need);
			else
				snprintf(help, sizeof help, "the root's own fact exceeds the 16 MiB bound; query a callee instead");
			cli_report(DIAG_G004, path, msg.data, help);
			buf_free(&msg);
			status = EXIT_FAIL;
		}
	}
	unload(&x);
	return status;
}

/* ---- query of a project -------------------------------------------------------------- */

static const ProjectOverlay *proj_ov;
static int proj_nov;

void
cli_proj_set_overlay(const ProjectOverlay *ov, int nov)
{
	proj_ov = ov;
	proj_nov = ov ? nov : 0;
}

const ProjectOverlay *
cli_proj_overlay(int *nov)
{
	*nov = proj_nov;
	return proj_ov;
}

bool
cli_proj_load(ProjLoaded *x, const char *manifest)
{
	memset(x, 0, sizeof *x);
	bool ok = project_check_overlay(&x->pj, manifest, proj_ov, proj_nov);
	if (ok)
		ok = project_lower(&x->pj);
	if (!ok) {
		project_emit_diags(&x->pj, false);
		project_free(&x->pj);
		return false;
	}
	Program *P = &x->pj.P;
	x->n = P->nmods;
	x->gs = spx_xcalloc((size_t)x->n + 1, sizeof *x->gs);
	x->paths = spx_xcalloc((size_t)x->n + 1, sizeof *x->paths);
	for (int k = 0; k < x->n; k++) {
		Session *s = &P->mods[k]->s;
		x->gs[k] = graph_model_build(s->S, s->H);
		x->paths[k] = project_spelled_path(&x->pj, s->diags.path);
	}
	return true;
}

void
cli_proj_unload(ProjLoaded *x)
{
	for (int k = 0; k < x->n; k++)
		graph_model_free(x->gs[k]);
	free(x->gs);
	free(x->paths);
	project_free(&x->pj);
}

/* A symbol among the modules' own declarations: 0 and (*mod, *dec), -1 none,
 * -2 several (in one module or across modules). */
int
cli_proj_resolve(ProjLoaded *x, const char *symbol, int *mod, int *dec)
{
	int found = 0;
	for (int k = 0; k < x->n; k++) {
		int d = graph_resolve(x->gs[k], symbol);
		if (d == -2)
			return -2;
		if (d < 0 || x->gs[k]->decls[d].origin)
			continue;
		if (found++)
			return -2;
		*mod = k;
		*dec = d;
	}
	return found ? 0 : -1;
}

void
cli_proj_unknown(ProjLoaded *x, const char *symbol, int why)
{
	Buf msg = {0}, help = {0};
	if (why == -2) {
		buf_printf(&msg, "symbol `%s` names several declarations of project `%s`", symbol, x->pj.man.name);
		buf_puts(&help, "name one by its stable id:");
		for (int k = 0; k < x->n; k++)
			for (int i = 0; i < x->gs[k]->ndecls; i++) {
				const GraphDecl *d = &x->gs[k]->decls[i];
				if (!d->origin && d->owner < 0 && strcmp(d->name, symbol) == 0)
					buf_printf(&help, " `%s` (%s)", d->id, x->paths[k]);
			}
	} else {
		buf_printf(&msg, "no declaration of project `%s` has the stable id or name `%s`", x->pj.man.name, symbol);
		/* a member's bare name (`qty` for `Item.qty`): the owner-qualified
		 * names to send, as for a file (graph_symbol_help), modules in
		 * ModuleId order, each with its path */
		int members = 0;
		for (int k = 0; k < x->n && members <= 8; k++)
			for (int j = 0; j < x->gs[k]->ndecls; j++) {
				int i = x->gs[k]->by_id[j];
				const GraphDecl *d = &x->gs[k]->decls[i];
				if (d->origin || d->owner < 0 || strcmp(d->name, symbol) != 0)
					continue;
				if (members == 8) {
					buf_puts(&help, ", …");
					members++;
					break;
				}
				buf_printf(&help, "%s`%s` (stable id `%s`, %s)", members++ ? ", " : "a member is named through its owner: ",
				    graph_qualified_name(x->gs[k], i), d->id, x->paths[k]);
			}
		if (members) {
			cli_report_shown(DIAG_G001, x->pj.manifest_path, project_manifest_shown(x->pj.manifest_path), msg.data, help.data);
			buf_free(&msg);
			buf_free(&help);
			return;
		}
		/* the three nearest stable ids or names of every module (the
		 * single file's rule: distance, then stable id, then ModuleId),
		 * each with its module's path */
		int bk[3] = { -1, -1, -1 }, bi[3] = { -1, -1, -1 }, bd[3] = { 99, 99, 99 };
		int limit = strlen(symbol) <= 4 ? 1 : 2 + (int)strlen(symbol) / 5;
		for (int k = 0; k < x->n; k++)
			for (int i = 0; i < x->gs[k]->ndecls; i++) {
				const GraphDecl *d = &x->gs[k]->decls[i];
				if (d->origin)
					continue;   /* an import: its declaring module offers it */
				int d1 = spx_edit_distance(symbol, d->id, true), d2 = spx_edit_distance(symbol, graph_qualified_name(x->gs[k], i), true);
				int dist = d1 < d2 ? d1 : d2;
				if (dist > limit)
					continue;
				for (int j = 0; j < 3; j++) {
					bool before = dist < bd[j] ||
					    (dist == bd[j] && (bi[j] < 0 || strcmp(d->id, x->gs[bk[j]]->decls[bi[j]].id) < 0));
					if (!before)
						continue;
					for (int m = 2; m > j; m--) {
						bk[m] = bk[m - 1];
						bi[m] = bi[m - 1];
						bd[m] = bd[m - 1];
					}
					bk[j] = k;
					bi[j] = i;
					bd[j] = dist;
					break;
				}
			}
		if (bi[0] >= 0) {
			buf_puts(&help, "did you mean");
			for (int j = 0; j < 3 && bi[j] >= 0; j++)
				buf_printf(&help, "%s `%s` (%s)", j ? "," : "", x->gs[bk[j]]->decls[bi[j]].id, x->paths[bk[j]]);
			buf_puts(&help, "? `semaprax query <project>` lists every declaration with its path and stable id");
		} else {
			buf_puts(&help, "`semaprax query <project>` lists every declaration with its path and stable id");
		}
	}
	cli_report_shown(DIAG_G001, x->pj.manifest_path, project_manifest_shown(x->pj.manifest_path), msg.data, help.data);
	buf_free(&msg);
	buf_free(&help);
}

/* decl i of module k is the declaration (module name, id) — its own or an import of it */
static bool
same_decl(ProjLoaded *x, int k, int i, const char *mod, const char *id)
{
	const GraphDecl *d = &x->gs[k]->decls[i];
	const char *m = d->origin ? d->origin : x->pj.P.mods[k]->name;
	return strcmp(m, mod) == 0 && strcmp(d->id, id) == 0;
}

/* Narrows only[k][…] to the declarations calling (mod, dec) (--calls), or
 * called by it (--called-by), across modules by (module, stable id). */
static void
proj_edges(ProjLoaded *x, unsigned char **only, int mod, int dec, bool calls)
{
	const char *tm = x->pj.P.mods[mod]->name, *tid = x->gs[mod]->decls[dec].id;
	const GraphDecl *t = &x->gs[mod]->decls[dec];
	for (int k = 0; k < x->n; k++) {
		GraphModel *g = x->gs[k];
		for (int i = 0; i < g->ndecls; i++) {
			bool hit = false;
			if (calls) {
				for (int c = 0; c < g->decls[i].ncalls && !hit; c++)
					hit = same_decl(x, k, g->decls[i].calls[c], tm, tid);
			} else if (!g->decls[i].origin) {
				for (int c = 0; c < t->ncalls && !hit; c++) {
					const GraphDecl *e = &x->gs[mod]->decls[t->calls[c]];
					hit = same_decl(x, k, i, e->origin ? e->origin : tm, e->id);
				}
			}
			if (!hit)
				only[k][i] = 0;
		}
	}
}

/* `graph` of a project: semaprax.project-graph.c1, each module's file graph
 * in ModuleId order under its path, module name and revision, with the
 * functions and types it imports as rows [module, id] (docs/GRAPH.md). */
static int
graph_project(const char *manifest)
{
	ProjLoaded x;
	if (!cli_proj_load(&x, manifest))
		return EXIT_FAIL;
	Buf b = {0};
	buf_puts(&b, "{\"schema\":\"semaprax.project-graph.c1\",\"project\":");
	json_cstr(&b, x.pj.man.name);
	buf_puts(&b, ",\"revision\":");
	json_cstr(&b, x.pj.P.revision);
	buf_puts(&b, ",\"modules\":[");
	for (int k = 0; k < x.n; k++) {
		const ProgModule *pm = x.pj.P.mods[k];
		GraphModel *g = x.gs[k];
		buf_puts(&b, k ? ",{\"path\":" : "{\"path\":");
		json_cstr(&b, x.paths[k]);
		buf_puts(&b, ",\"module\":");
		json_cstr(&b, pm->name);
		buf_puts(&b, ",\"revision\":");
		json_cstr(&b, pm->s.revision);
		bool first = true;
		for (int i = 0; i < g->ndecls; i++) {
			const GraphDecl *d = &g->decls[i];
			if (!d->origin || d->owner >= 0)
				continue;
			buf_puts(&b, first ? ",\"imports\":[[" : ",[");
			first = false;
			json_cstr(&b, d->origin);
			buf_putc(&b, ',');
			json_cstr(&b, d->id);
			buf_putc(&b, ']');
		}
		if (!first)
			buf_putc(&b, ']');
		buf_puts(&b, ",\"graph\":");
		GraphMeta meta = { pm->s.revision, pm->s.prelude.schema, pm->s.prelude.digest };
		graph_write(&b, g, &meta, flush_stdout, NULL);
		buf_putc(&b, '}');
	}
	buf_puts(&b, "]}\n");
	put(&b);
	cli_proj_unload(&x);
	return EXIT_OK;
}

static int
query_project(const char *manifest, GraphQuery q, const char *calls, const char *called_by)
{
	ProjLoaded x;
	if (!cli_proj_load(&x, manifest))
		return EXIT_FAIL;
	int status = EXIT_OK;
	unsigned char **only = spx_xcalloc((size_t)x.n + 1, sizeof *only);
	for (int k = 0; k < x.n; k++) {
		only[k] = spx_xmalloc((size_t)x.gs[k]->ndecls + 1);
		memset(only[k], 1, (size_t)x.gs[k]->ndecls + 1);
	}
	const char *sym[2] = { calls, called_by };
	for (int s = 0; s < 2 && status == EXIT_OK; s++) {
		if (!sym[s])
			continue;
		int mod = -1, dec = -1;
		int r = cli_proj_resolve(&x, sym[s], &mod, &dec);
		if (r < 0) {
			cli_proj_unknown(&x, sym[s], r);
			status = EXIT_FAIL;
		} else {
			proj_edges(&x, only, mod, dec, s == 0);
		}
	}
	if (status == EXIT_OK) {
		Buf rows = {0};
		int n = 0;
		for (int k = 0; k < x.n; k++) {
			graph_query_rows(&rows, x.gs[k], &q, (calls || called_by) ? only[k] : NULL, x.paths[k], &n);
		}
		if (q.json) {
			Buf b = {0};
			buf_puts(&b, "{\"schema\":\"semaprax.project-query.c1\",\"project\":");
			json_cstr(&b, x.pj.man.name);
			buf_puts(&b, ",\"revision\":");
			json_cstr(&b, x.pj.P.revision);
			if (n) {
				buf_puts(&b, ",\"declarations\":[");
				buf_put(&b, rows.data, rows.len);
				buf_putc(&b, ']');
			}
			buf_puts(&b, "}\n");
			put(&b);
			buf_free(&rows);
		} else {
			put(&rows);
		}
	}
	for (int k = 0; k < x.n; k++)
		free(only[k]);
	free(only);
	cli_proj_unload(&x);
	return status;
}

/* ---- query ------------------------------------------------------------------------- */

#define QUERY_GRAMMAR "query requires <file>|<dir>|semaprax.toml|--manifest-path <p> [--kind k[,k]] [--name text] [--id prefix] [--effect e] " \
	"[--calls id] [--called-by id] [--json]"

int
cli_cmd_query(int argc, char **argv)
{
	const char *path = NULL, *calls = NULL, *called_by = NULL, *manifest_path = NULL;
	GraphQuery q = { 0, NULL, NULL, NULL, -1, -1, false };
	bool seen[8] = { false };
	static const char *const opts[] = { "--kind", "--name", "--id", "--effect", "--calls", "--called-by", "--json",
		"--manifest-path" };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int o = spx_word_index(opts, countof(opts), a);
		if (o < 0) {
			if (a[0] == '-' && a[1] != '\0')
				return cli_unknown_option("query", a, NULL);
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
			if (!name_set(v, graph_kind_names, GK__COUNT, &q.kinds))
				return cli_usage("query", "--kind takes a comma list of function, method, record, field, variant, case, "
				    "case_field, class, resource, interface, import (each once), not `%s`", v);
			break;
		case 1: q.name = v; break;
		case 2: q.id_prefix = v; break;
		case 3: q.effect = v; break;
		case 4: calls = v; break;
		case 5: called_by = v; break;
		case 7: manifest_path = v; break;
		}
	}
	if (path && manifest_path)
		return cli_usage("query", "query takes an operand or --manifest-path, not both");
	char *manifest = project_manifest_for(path, manifest_path);
	if (manifest) {
		int st = query_project(manifest, q, calls, called_by);
		free(manifest);
		return st;
	}
	Loaded x;
	if (!load(&x, path, "query", ""))
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
