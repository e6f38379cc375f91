/*
 * cmd_context_project.c — `semaprax context <project> <symbol>`: the bounded
 * agent context around one declaration of a project, across modules
 * (TOOLCHAIN.md §3.5 "Project context", schema
 * semaprax.project-agent-context.v1; the layout is docs/GRAPH.md's).
 *
 * Nodes are the modules' own declarations; a call to an imported function
 * is an edge to its declaration in the declaring module, matched by
 * (module, stable id).  Breadth-first from the target by depth, each level
 * ordered by stable id then path, each node at its minimum depth; what the
 * depth, node or byte bound leaves out is the frontier.  The byte bound
 * drops the last nodes until the whole document fits; when not even the
 * target fits, G004 and nothing on stdout (never partial JSON).
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph_cli.h"
#include "../support/json.h"
#include "../support/sha256.h"

enum { R_DEPTH = 1, R_NODES = 2, R_BYTES = 4 };

typedef struct Ctx {
	ProjLoaded *x;
	int *off;          /* module k's first global node: off[k] + decl index */
	int total;
	int *mod_of;       /* global node → module */
	int *fwd_start, *fwd;   /* CSR: callees of a node (first-occurrence order) */
	int *rev_start, *rev;   /* callers of a node */
	int *depth;        /* -1 unreached */
	const char **prov; /* "target", "calls", "called_by" */
	int *order;        /* reached nodes, BFS order (within max_nodes) */
	int norder;
	int *reason;       /* frontier reasons per node (R_*) */
	int direction;     /* CTX_* */
	int max_depth_used;
} Ctx;

static const GraphDecl *
decl_of(const Ctx *c, int n)
{
	int k = c->mod_of[n];
	return &c->x->gs[k]->decls[n - c->off[k]];
}

/* The global node a call from module k to its decl `d` reaches, or -1. */
static int
target_of(const Ctx *c, int k, int d)
{
	const GraphDecl *t = &c->x->gs[k]->decls[d];
	if (!t->origin)
		return c->off[k] + d;
	for (int m = 0; m < c->x->n; m++)
		if (strcmp(c->x->pj.P.mods[m]->name, t->origin) == 0) {
			int i = graph_find_id(c->x->gs[m], t->id);
			return i >= 0 && !c->x->gs[m]->decls[i].origin ? c->off[m] + i : -1;
		}
	return -1;
}

static void
build_edges(Ctx *c)
{
	ProjLoaded *x = c->x;
	c->off = spx_xcalloc((size_t)x->n + 1, sizeof *c->off);
	for (int k = 0; k < x->n; k++)
		c->off[k + 1] = c->off[k] + x->gs[k]->ndecls;
	c->total = c->off[x->n];
	size_t T = (size_t)c->total + 1;
	c->mod_of = spx_xcalloc(T, sizeof *c->mod_of);
	for (int k = 0; k < x->n; k++)
		for (int i = c->off[k]; i < c->off[k + 1]; i++)
			c->mod_of[i] = k;
	c->fwd_start = spx_xcalloc(T + 1, sizeof *c->fwd_start);
	c->rev_start = spx_xcalloc(T + 1, sizeof *c->rev_start);
	int nedges = 0;
	for (int k = 0; k < x->n; k++)
		for (int d = 0; d < x->gs[k]->ndecls; d++)
			nedges += x->gs[k]->decls[d].origin ? 0 : x->gs[k]->decls[d].ncalls;
	int *from = spx_xcalloc((size_t)nedges + 1, sizeof *from), *to = spx_xcalloc((size_t)nedges + 1, sizeof *to);
	int e = 0;
	for (int k = 0; k < x->n; k++)
		for (int d = 0; d < x->gs[k]->ndecls; d++) {
			const GraphDecl *g = &x->gs[k]->decls[d];
			if (g->origin)
				continue;
			for (int j = 0; j < g->ncalls; j++) {
				int t = target_of(c, k, g->calls[j]);
				if (t < 0)
					continue;
				from[e] = c->off[k] + d;
				to[e] = t;
				e++;
			}
		}
	for (int i = 0; i < e; i++) {
		c->fwd_start[from[i] + 1]++;
		c->rev_start[to[i] + 1]++;
	}
	for (int i = 0; i < c->total; i++) {
		c->fwd_start[i + 1] += c->fwd_start[i];
		c->rev_start[i + 1] += c->rev_start[i];
	}
	c->fwd = spx_xcalloc((size_t)e + 1, sizeof *c->fwd);
	c->rev = spx_xcalloc((size_t)e + 1, sizeof *c->rev);
	int *fpos = spx_xcalloc(T, sizeof *fpos), *rpos = spx_xcalloc(T, sizeof *rpos);
	for (int i = 0; i < e; i++) {   /* edges in caller order: callees keep first-occurrence order */
		c->fwd[c->fwd_start[from[i]] + fpos[from[i]]++] = to[i];
		c->rev[c->rev_start[to[i]] + rpos[to[i]]++] = from[i];
	}
	free(fpos);
	free(rpos);
	free(from);
	free(to);
}

static const Ctx *sort_ctx;

static int
cmp_node(const void *a, const void *b)
{
	int p = *(const int *)a, q = *(const int *)b;
	int r = strcmp(decl_of(sort_ctx, p)->id, decl_of(sort_ctx, q)->id);
	if (!r)
		r = strcmp(sort_ctx->x->paths[sort_ctx->mod_of[p]], sort_ctx->x->paths[sort_ctx->mod_of[q]]);
	return r ? r : (p > q) - (p < q);
}

static void
sort_nodes(const Ctx *c, int *v, int n)
{
	sort_ctx = c;
	if (n > 1)
		qsort(v, (size_t)n, sizeof *v, cmp_node);
}

/* Breadth-first from root; fills order (≤ max_nodes), depth, provenance and the
 * depth / node frontier. */
static void
walk(Ctx *c, int root, int max_depth, int max_nodes)
{
	size_t T = (size_t)c->total + 1;
	c->depth = spx_xmalloc(T * sizeof *c->depth);
	for (int i = 0; i < c->total; i++)
		c->depth[i] = -1;
	c->prov = spx_xcalloc(T, sizeof *c->prov);
	c->reason = spx_xcalloc(T, sizeof *c->reason);
	c->order = spx_xcalloc(T, sizeof *c->order);
	int *level = spx_xcalloc(T, sizeof *level), *next = spx_xcalloc(T, sizeof *next);
	int nlevel = 1, L = 0;
	level[0] = root;
	c->depth[root] = 0;
	c->prov[root] = "target";
	bool full = false;
	while (nlevel) {
		for (int i = 0; i < nlevel; i++) {
			if (c->norder < max_nodes) {
				c->order[c->norder++] = level[i];
				if (L > c->max_depth_used)
					c->max_depth_used = L;
			} else {
				c->reason[level[i]] |= R_NODES;
				full = true;
			}
		}
		if (full)
			break;
		int nnext = 0;
		for (int i = 0; i < nlevel; i++) {
			int n = level[i];
			for (int dir = 0; dir < 2; dir++) {
				if (!(c->direction & (dir ? CTX_REVERSE : CTX_FORWARD)))
					continue;
				const int *st = dir ? c->rev_start : c->fwd_start, *adj = dir ? c->rev : c->fwd;
				for (int j = st[n]; j < st[n + 1]; j++) {
					int t = adj[j];
					if (c->depth[t] >= 0)
						continue;
					if (L == max_depth) {
						c->reason[t] |= R_DEPTH;
						continue;
					}
					c->depth[t] = L + 1;
					c->prov[t] = dir ? "called_by" : "calls";
					next[nnext++] = t;
				}
			}
		}
		sort_nodes(c, next, nnext);
		int *tmp = level;
		level = next;
		next = tmp;
		nlevel = nnext;
		L++;
	}
	free(level);
	free(next);
}

static const char *
direction_name(int d)
{
	return d == CTX_REVERSE ? "reverse" : d == CTX_BOTH ? "both" : "forward";
}

static void
row_loc(Buf *b, const Ctx *c, int n)
{
	json_cstr(b, c->x->paths[c->mod_of[n]]);
	buf_putc(b, ',');
	json_cstr(b, c->x->pj.P.mods[c->mod_of[n]]->name);
}

/* The document with the first k nodes of order (no context_revision, no
 * closing brace). */
static void
render(Buf *b, Ctx *c, int k, int depth, long max_bytes, int max_nodes, long underlying)
{
	ProjLoaded *x = c->x;
	int root = c->order[0];
	char *in = spx_xcalloc((size_t)c->total + 1, 1);
	for (int i = 0; i < k; i++)
		in[c->order[i]] = 1;
	buf_puts(b, "{\"schema\":\"semaprax.project-agent-context.v1\",\"authority\":false,\"project\":");
	json_cstr(b, x->pj.man.name);
	buf_puts(b, ",\"project_revision\":");
	json_cstr(b, x->pj.P.revision);
	buf_puts(b, ",\"graph_revisions\":[");
	bool first = true;
	for (int m = 0; m < x->n; m++) {
		bool any = false;
		for (int i = 0; i < k && !any; i++)
			any = c->mod_of[c->order[i]] == m;
		if (!any)
			continue;
		buf_puts(b, first ? "[" : ",[");
		first = false;
		json_cstr(b, x->paths[m]);
		buf_putc(b, ',');
		json_cstr(b, x->pj.P.mods[m]->s.revision);
		buf_putc(b, ']');
	}
	buf_puts(b, "],\"target\":[");
	json_cstr(b, decl_of(c, root)->id);
	buf_printf(b, ",\"%s\",", graph_kind_names[decl_of(c, root)->kind]);
	row_loc(b, c, root);
	buf_printf(b, "],\"query\":[\"%s\",%d,%ld,%d,%ld],\"nodes\":[", direction_name(c->direction), depth, max_bytes, max_nodes,
	    underlying);
	for (int i = 0; i < k; i++) {
		int n = c->order[i];
		buf_puts(b, i ? ",[" : "[");
		json_cstr(b, decl_of(c, n)->id);
		buf_printf(b, ",\"%s\",\"%s\",", n == root ? "target" : "reached", graph_kind_names[decl_of(c, n)->kind]);
		row_loc(b, c, n);
		buf_printf(b, ",%d,\"%s\"]", c->depth[n], c->prov[n]);
	}
	buf_puts(b, "],\"edges\":[");
	int nedges = 0, maxd = 0;
	for (int i = 0; i < k; i++) {
		int n = c->order[i];
		if (c->depth[n] > maxd)
			maxd = c->depth[n];
		for (int j = c->fwd_start[n]; j < c->fwd_start[n + 1]; j++) {
			int t = c->fwd[j];
			if (!in[t])
				continue;
			buf_puts(b, nedges++ ? ",[\"calls\"," : "[\"calls\",");
			json_cstr(b, decl_of(c, n)->id);
			buf_putc(b, ',');
			json_cstr(b, decl_of(c, t)->id);
			buf_putc(b, ',');
			json_cstr(b, x->paths[c->mod_of[n]]);
			buf_putc(b, ',');
			json_cstr(b, x->paths[c->mod_of[t]]);
			buf_printf(b, ",%d,null]", j - c->fwd_start[n] + 1);
		}
	}
	buf_printf(b, "],\"budget\":[%d,%d,%d]", k, nedges, maxd);
	/* the frontier: nodes left out by depth or max_nodes, and order[k..] by max_bytes */
	int *fr = spx_xcalloc((size_t)c->total + 1, sizeof *fr);
	int nfr = 0, all = 0;
	for (int n = 0; n < c->total; n++) {
		int r = c->reason[n];
		if (c->depth[n] >= 0 && !in[n] && !(r & R_NODES))
			r |= R_BYTES;   /* reached within depth and nodes, dropped for bytes */
		if (in[n] || !r)
			continue;
		all |= r;
		fr[nfr++] = n;
	}
	for (int i = k; i < c->norder; i++)
		all |= R_BYTES;
	sort_nodes(c, fr, nfr);
	buf_printf(b, ",\"truncation\":{\"truncated\":%s,\"reasons\":[", all ? "true" : "false");
	static const char *const names[3] = { "depth", "max_nodes", "max_bytes" };
	first = true;
	for (int r = 0; r < 3; r++)
		if (all & (1 << r)) {
			buf_printf(b, "%s\"%s\"", first ? "" : ",", names[r]);
			first = false;
		}
	buf_printf(b, "],\"omitted_nodes\":%d},\"frontier\":[", nfr);
	for (int i = 0; i < nfr; i++) {
		int n = fr[i];
		int r = c->reason[n];
		if (c->depth[n] >= 0 && !(r & R_NODES))
			r |= R_BYTES;
		buf_puts(b, i ? ",{\"id\":" : "{\"id\":");
		json_cstr(b, decl_of(c, n)->id);
		buf_puts(b, ",\"path\":");
		json_cstr(b, x->paths[c->mod_of[n]]);
		buf_puts(b, ",\"reasons\":[");
		first = true;
		for (int q = 0; q < 3; q++)
			if (r & (1 << q)) {
				buf_printf(b, "%s\"%s\"", first ? "" : ",", names[q]);
				first = false;
			}
		buf_puts(b, "]}");
	}
	buf_putc(b, ']');
	free(fr);
	free(in);
}

/* `,"context_revision":"sha256:<64 hex>"}`: the SHA-256 of the bytes before it. */
#define REVISION_TAIL (sizeof ",\"context_revision\":\"sha256:\"}" - 1 + 64)

int
cli_context_project(const char *manifest, const char *symbol, int direction, int depth, long max_bytes, int max_nodes)
{
	ProjLoaded x;
	if (!cli_proj_load(&x, manifest))
		return EXIT_FAIL;
	int mod = -1, dec = -1;
	int r = cli_proj_resolve(&x, symbol, &mod, &dec);
	if (r < 0) {
		cli_proj_unknown(&x, symbol, r);
		cli_proj_unload(&x);
		return EXIT_FAIL;
	}
	Ctx c;
	memset(&c, 0, sizeof c);
	c.x = &x;
	c.direction = direction ? direction : CTX_FORWARD;
	build_edges(&c);
	walk(&c, c.off[mod] + dec, depth, max_nodes);
	/* the untruncated size (within depth and nodes), then the most nodes that fit */
	Buf b = {0};
	long underlying = 0;   /* the smallest --max-bytes holding every node reached: a fixed point */
	for (int it = 0; it < 8; it++) {
		b.len = 0;
		render(&b, &c, c.norder, depth, max_bytes, max_nodes, underlying);
		long need = (long)(b.len + REVISION_TAIL);
		if (need == underlying)
			break;
		underlying = need;
	}
	int lo = 0, hi = c.norder;
	while (lo < hi) {   /* the largest k whose document fits (checked below) */
		int mid = lo + (hi - lo + 1) / 2;
		b.len = 0;
		render(&b, &c, mid, depth, max_bytes, max_nodes, underlying);
		if ((long)(b.len + REVISION_TAIL) <= max_bytes)
			lo = mid;
		else
			hi = mid - 1;
	}
	int k = lo;
	for (; k >= 1; k--) {
		b.len = 0;
		render(&b, &c, k, depth, max_bytes, max_nodes, underlying);
		if ((long)(b.len + REVISION_TAIL) <= max_bytes)
			break;
	}
	int status = EXIT_OK;
	if (k < 1) {
		b.len = 0;
		render(&b, &c, 1, depth, max_bytes, max_nodes, underlying);
		long need = (long)(b.len + REVISION_TAIL);
		/* the whole symbol: a long one cut the byte counts off the message */
		Buf msg = {0};
		char help[96];
		buf_printf(&msg, "the project context of `%s` needs %ld bytes; --max-bytes is %ld", symbol, need, max_bytes);
		snprintf(help, sizeof help, "pass `--max-bytes %ld` or more", need);
		cli_report(DIAG_G004, x.pj.manifest_path, msg.data, help);
		buf_free(&msg);
		status = EXIT_FAIL;
	} else {
		Sha256 h;
		unsigned char dg[32];
		char hex[65];
		sha256_init(&h);
		sha256_update(&h, b.data, b.len);
		sha256_final(&h, dg);
		sha256_hex(dg, hex);
		buf_printf(&b, ",\"context_revision\":\"sha256:%s\"}\n", hex);
		fwrite(b.data, 1, b.len, stdout);
	}
	buf_free(&b);
	free(c.off);
	free(c.mod_of);
	free(c.fwd_start);
	free(c.fwd);
	free(c.rev_start);
	free(c.rev);
	free(c.depth);
	free(c.prov);
	free(c.order);
	free(c.reason);
	cli_proj_unload(&x);
	return status;
}
