/*
 * context.c — bounded agent context, schema `semaprax.context.c1`
 * (docs/GRAPH.md; the semantics of TOOLCHAIN.md §3.5).
 *
 * Traversal: breadth-first from the root over call edges in the selected
 * direction (forward: calls, reverse: called_by, both: their union); each
 * depth is ordered by stable id and a declaration is visited once, at its
 * minimum depth.  The candidates are the visited declarations up to
 * `depth`, the first `max_nodes` of them in that order.  The document
 * holds the longest prefix of the candidates whose complete rendering fits
 * `max_bytes` (found by rendering: first all, then a binary search over the
 * prefix length), never a partial fact; every traversal edge of an emitted
 * fact ends at another fact or at a frontier entry with its reason
 * (`depth`, `max_nodes`, `max_bytes`) and the bytes a query rooted there
 * needs to make progress (`min_bytes`).
 *
 * min_bytes(X): the length of X's root-only document (X's fact, X's
 * neighbours as frontier) with every number that can vary written at its
 * maximum width (8 digits) and all three reasons listed — an upper bound,
 * so a query rooted at X with `--max-bytes min_bytes(X)` and the same other
 * options always emits X.  A root whose min_bytes exceeds max_bytes and
 * whose actual root-only document does not fit is refused (G004).
 *
 * used_bytes is exact: the document's length without the newline, which
 * includes used_bytes' own digits (solved by the digit fixed point).
 */
#include "graph.h"

#include <stdio.h>
#include <string.h>

#include "../support/json.h"

#define PLACEHOLDER "16777216"   /* the widest min_bytes, max_bytes and used_bytes */

typedef struct Ctx {
	GraphModel *g;
	const GraphMeta *meta;
	const ContextQuery *q;
	int *dist;            /* BFS depth per decl (to q->depth + 1), -1 unreached */
	int *pos;             /* position in order, -1 */
	int *order;           /* decls in traversal order */
	int norder;
	int ncand;            /* the candidates: order[0..ncand) */
	long *min_bytes;      /* per decl, -1 until computed */
	int *stamp;           /* frontier dedup */
	int walk;
} Ctx;

typedef VEC(int) IntVec;

static const char *const dir_names[] = { "forward", "forward", "reverse", "both" };

/* Neighbours of d in direction dir, appended to *out (duplicates possible for both). */
static void
neighbours(const GraphModel *g, int d, int dir, IntVec *out)
{
	const GraphDecl *x = &g->decls[d];
	if (dir & CTX_FORWARD || !dir)
		for (int i = 0; i < x->ncalls; i++)
			VEC_PUSH(*out, x->calls[i]);
	if (dir & CTX_REVERSE)
		for (int i = 0; i < x->ncalled_by; i++)
			VEC_PUSH(*out, x->called_by[i]);
}

static void
traverse(Ctx *c)
{
	GraphModel *g = c->g;
	int n = g->ndecls;
	c->dist = spx_xmalloc(sizeof(int) * (size_t)(n + 1));
	c->pos = spx_xmalloc(sizeof(int) * (size_t)(n + 1));
	c->order = spx_xmalloc(sizeof(int) * (size_t)(n + 1));
	for (int i = 0; i < n; i++)
		c->dist[i] = c->pos[i] = -1;
	c->dist[c->q->root] = 0;
	c->order[0] = c->q->root;
	c->norder = 1;
	int level = 0, level_end = 1;
	IntVec nb = {0};
	for (int depth = 1; depth <= c->q->depth + 1 && level < level_end; depth++) {
		int start = c->norder;
		for (int i = level; i < level_end; i++) {
			nb.len = 0;
			neighbours(g, c->order[i], c->q->direction, &nb);
			for (int k = 0; k < nb.len; k++)
				if (c->dist[nb.items[k]] < 0) {
					c->dist[nb.items[k]] = depth;
					c->order[c->norder++] = nb.items[k];
				}
		}
		graph_sort_by_id(g, c->order + start, c->norder - start);
		level = start;
		level_end = c->norder;
	}
	VEC_FREE(nb);
	int within = 0;
	for (int i = 0; i < c->norder; i++) {
		c->pos[c->order[i]] = i;
		if (c->dist[c->order[i]] <= c->q->depth)
			within++;
	}
	c->ncand = within < c->q->max_nodes ? within : c->q->max_nodes;
}

/* ---- facts ------------------------------------------------------------------------ */

static void
str_array(Buf *o, const char *k, const char *const *items, int n)
{
	if (n <= 0)
		return;
	buf_printf(o, ",\"%s\":[", k);
	for (int i = 0; i < n; i++) {
		if (i)
			buf_putc(o, ',');
		json_cstr(o, items[i]);
	}
	buf_putc(o, ']');
}

static void
id_array(Buf *o, const GraphModel *g, const char *k, const int *items, int n)
{
	if (n <= 0)
		return;
	buf_printf(o, ",\"%s\":[", k);
	for (int i = 0; i < n; i++) {
		if (i)
			buf_putc(o, ',');
		json_cstr(o, g->decls[items[i]].id);
	}
	buf_putc(o, ']');
}

static bool
is_function(const GraphDecl *d)
{
	return d->kind == GK_FUNCTION || d->kind == GK_METHOD;
}

static void
fact(Ctx *c, GraphWriter *w, Buf *o, int d, int depth)
{
	GraphModel *g = c->g;
	const GraphDecl *x = &g->decls[d];
	int f = c->q->filters;
	buf_puts(o, "{\"id\":");
	json_cstr(o, x->id);
	buf_printf(o, ",\"kind\":\"%s\",\"name\":", graph_kind_names[x->kind]);
	json_cstr(o, x->name);
	buf_printf(o, ",\"depth\":%d", depth);
	id_array(o, g, "calls", x->calls, x->ncalls);
	id_array(o, g, "called_by", x->called_by, x->ncalled_by);
	if (f & CTX_F_CONTRACTS) {
		str_array(o, "requires", (const char *const *)x->requires, x->nrequires);
		str_array(o, "ensures", (const char *const *)x->ensures, x->nensures);
	}
	if (f & CTX_F_OWNERSHIP && is_function(x)) {
		buf_puts(o, ",\"ownership\":[");
		for (int i = 0; i < x->nparams; i++)
			buf_printf(o, "\"%s\",", x->params[i].mode);
		buf_printf(o, "\"%s\"]", sema_is_copy(g->S, x->type) ? "value" : "own");
	}
	if (f & CTX_F_EFFECTS)
		str_array(o, "effects", x->effects, x->neffects);
	if (f & CTX_F_TYPES && is_function(x)) {
		buf_puts(o, ",\"types\":[");
		for (int i = 0; i < x->nparams; i++) {
			graph_writer_type(w, o, x->params[i].type);
			buf_putc(o, ',');
		}
		graph_writer_type(w, o, x->type);
		buf_putc(o, ']');
	}
	Buf body = {0};
	if (graph_writer_body(w, &body, d)) {
		buf_puts(o, ",\"body\":");
		buf_put(o, body.data, body.len);
	}
	buf_free(&body);
	buf_putc(o, '}');
}

/* ---- documents ------------------------------------------------------------------------ */

typedef struct Front {
	int d;
	const char *reason;
} Front;

static long root_only_bound(Ctx *c, int x);

static int
digits(long v)
{
	int n = 1;
	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/*
 * Renders the document with facts order[0..k) (k >= 1) into out, or — when
 * bound_root >= 0 — the root-only bound document of bound_root.  Returns
 * the document's length.
 */
static size_t
render(Ctx *c, Buf *out, int k, int bound_root)
{
	GraphModel *g = c->g;
	bool bound = bound_root >= 0;
	int root = bound ? bound_root : c->order[0];
	GraphWriter *w = graph_writer_new(g);
	/* the facts (first: they fill the type table) */
	Buf facts = {0};
	int max_depth = 0;
	for (int i = 0; i < (bound ? 1 : k); i++) {
		int d = bound ? root : c->order[i];
		int depth = bound ? 0 : c->dist[d];
		if (depth > max_depth)
			max_depth = depth;
		if (i)
			buf_putc(&facts, ',');
		fact(c, w, &facts, d, depth);
	}
	/* the frontier: traversal neighbours of the facts that are not facts */
	VEC(Front) front = {0};
	IntVec nb = {0};
	c->walk++;
	for (int i = 0; i < (bound ? 1 : k); i++) {
		int d = bound ? root : c->order[i];
		nb.len = 0;
		neighbours(g, d, c->q->direction, &nb);
		for (int j = 0; j < nb.len; j++) {
			int v = nb.items[j];
			if (c->stamp[v] == c->walk || v == root || (!bound && c->pos[v] >= 0 && c->pos[v] < k))
				continue;
			c->stamp[v] = c->walk;
			Front fr = { v, "max_bytes" };
			if (!bound) {
				if (c->dist[v] > c->q->depth)
					fr.reason = "depth";
				else if (c->pos[v] >= c->ncand)
					fr.reason = "max_nodes";
			}
			VEC_PUSH(front, fr);
		}
	}
	VEC_FREE(nb);
	if (bound) {
		/* neighbours of the root in traversal order: by stable id */
		int *ids = spx_xmalloc(sizeof(int) * (size_t)(front.len + 1));
		for (int i = 0; i < front.len; i++)
			ids[i] = front.items[i].d;
		graph_sort_by_id(g, ids, front.len);
		for (int i = 0; i < front.len; i++)
			front.items[i].d = ids[i];
		free(ids);
	} else {
		/* traversal order (depth, then stable id): walk the order, keep the stamped */
		int n = front.len;
		front.len = 0;
		for (int i = k; i < c->norder && front.len < n; i++) {
			int v = c->order[i];
			if (c->stamp[v] != c->walk)
				continue;
			Front fr = { v, "max_bytes" };
			if (c->dist[v] > c->q->depth)
				fr.reason = "depth";
			else if (c->pos[v] >= c->ncand)
				fr.reason = "max_nodes";
			front.items[front.len++] = fr;
		}
	}
	/* the document, with used_bytes left out (inserted at its offset) */
	Buf doc = {0};
	buf_puts(&doc, "{\"schema\":\"semaprax.context.c1\",\"revision\":");
	json_cstr(&doc, c->meta->revision);
	buf_puts(&doc, ",\"root\":");
	json_cstr(&doc, g->decls[root].id);
	buf_printf(&doc, ",\"query\":[\"%s\",%d,", dir_names[c->q->direction], c->q->depth);
	if (bound)
		buf_puts(&doc, PLACEHOLDER);
	else
		buf_printf(&doc, "%ld", c->q->max_bytes);
	buf_printf(&doc, ",%d", c->q->max_nodes);
	if (c->q->filters) {
		static const char *const fnames[] = { "contracts", "ownership", "effects", "types" };
		buf_puts(&doc, ",[");
		bool first = true;
		for (int i = 0; i < 4; i++)
			if (c->q->filters & (1 << i)) {
				buf_printf(&doc, "%s\"%s\"", first ? "" : ",", fnames[i]);
				first = false;
			}
		buf_putc(&doc, ']');
	}
	buf_puts(&doc, "],\"budget\":[");
	size_t at = doc.len;
	buf_printf(&doc, ",%d,%d]", bound ? 1 : k, max_depth);
	if (front.len) {
		buf_puts(&doc, ",\"truncation\":[");
		static const char *const reasons[] = { "depth", "max_nodes", "max_bytes" };
		bool first = true;
		for (int r = 0; r < 3; r++) {
			bool any = bound;
			for (int i = 0; i < front.len && !any; i++)
				any = strcmp(front.items[i].reason, reasons[r]) == 0;
			if (any) {
				buf_printf(&doc, "%s\"%s\"", first ? "" : ",", reasons[r]);
				first = false;
			}
		}
		buf_puts(&doc, "],\"frontier\":[");
		for (int i = 0; i < front.len; i++) {
			int v = front.items[i].d;
			buf_puts(&doc, i ? ",[" : "[");
			json_cstr(&doc, g->decls[v].id);
			buf_printf(&doc, ",\"%s\",%d,\"%s\",", graph_kind_names[g->decls[v].kind], bound ? 1 : c->dist[v],
			    front.items[i].reason);
			if (bound)
				buf_puts(&doc, PLACEHOLDER);
			else
				buf_printf(&doc, "%ld", root_only_bound(c, v));
			buf_putc(&doc, ']');
		}
		buf_puts(&doc, "],\"resume_contract\":{\"symbol\":\"frontier[i][0]\",\"max_bytes\":\"frontier[i][4]\"}");
	}
	VEC_FREE(front);
	if (graph_writer_ntypes(w)) {
		buf_puts(&doc, ",\"types\":[");
		graph_writer_types(w, &doc);
		buf_putc(&doc, ']');
	}
	buf_puts(&doc, ",\"facts\":[");
	buf_put(&doc, facts.data, facts.len);
	buf_puts(&doc, "]}");
	buf_free(&facts);
	graph_writer_free(w);
	/* used_bytes: the fixed point n = len + digits(n) */
	long base = (long)doc.len, n;
	if (bound) {
		n = base + (long)strlen(PLACEHOLDER);
	} else {
		int dg = 1;
		while (digits(base + dg) != dg)
			dg++;
		n = base + dg;
	}
	out->len = 0;
	buf_put(out, doc.data, at);
	if (bound)
		buf_puts(out, PLACEHOLDER);
	else
		buf_printf(out, "%ld", n);
	buf_put(out, doc.data + at, doc.len - at);
	buf_free(&doc);
	return out->len;
}

static long
root_only_bound(Ctx *c, int x)
{
	if (c->min_bytes[x] < 0) {
		Buf b = {0};
		long n = (long)render(c, &b, 1, x);
		c->min_bytes[x] = n < GRAPH_CTX_MIN_BYTES ? GRAPH_CTX_MIN_BYTES : n;
		buf_free(&b);
	}
	return c->min_bytes[x];
}

bool
graph_context(Buf *out, GraphModel *g, const GraphMeta *meta, const ContextQuery *q, long *need)
{
	Ctx c;
	memset(&c, 0, sizeof c);
	c.g = g;
	c.meta = meta;
	c.q = q;
	traverse(&c);
	c.min_bytes = spx_xmalloc(sizeof(long) * (size_t)(g->ndecls + 1));
	c.stamp = spx_xcalloc((size_t)g->ndecls + 1, sizeof(int));
	for (int i = 0; i < g->ndecls; i++)
		c.min_bytes[i] = -1;
	Buf b = {0};
	bool ok = true;
	if ((long)render(&c, &b, c.ncand, -1) > q->max_bytes) {
		if ((long)render(&c, &b, 1, -1) > q->max_bytes) {
			long bound = root_only_bound(&c, q->root);
			*need = bound > (long)b.len ? bound : (long)b.len;
			ok = false;
		} else {
			int lo = 1, hi = c.ncand;
			while (hi - lo > 1) {
				int mid = lo + (hi - lo) / 2;
				if ((long)render(&c, &b, mid, -1) <= q->max_bytes)
					lo = mid;
				else
					hi = mid;
			}
			render(&c, &b, lo, -1);
		}
	}
	if (ok)
		buf_put(out, b.data, b.len);
	buf_free(&b);
	free(c.dist);
	free(c.pos);
	free(c.order);
	free(c.min_bytes);
	free(c.stamp);
	return ok;
}

/* ---- symbols ---------------------------------------------------------------------------- */

int
graph_resolve(GraphModel *g, const char *symbol)
{
	int d = graph_find_id(g, symbol);
	if (d >= 0)
		return d;
	int found = -1, count = 0;
	for (int i = 0; i < g->ndecls; i++) {
		const GraphDecl *x = &g->decls[i];
		bool hit = x->owner < 0 ? strcmp(x->name, symbol) == 0 : strcmp(graph_qualified_name(g, i), symbol) == 0;
		if (hit) {
			if (count++ == 0)
				found = i;
		}
	}
	return count == 1 ? found : count > 1 ? -2 : -1;
}

void
graph_symbol_help(Buf *help, GraphModel *g, const char *symbol, bool ambiguous)
{
	if (ambiguous) {
		buf_puts(help, "name one by its stable id:");
		for (int i = 0; i < g->ndecls; i++)
			if (strcmp(g->decls[i].name, symbol) == 0 && g->decls[i].owner < 0)
				buf_printf(help, " `%s`", g->decls[i].id);
	} else {
		/* a member's bare name (`bump` for `Counter.bump`): the owner-qualified
		 * names to send, in stable-id order */
		int members = 0;
		for (int k = 0; k < g->ndecls; k++) {
			int i = g->by_id[k];
			if (g->decls[i].owner < 0 || strcmp(g->decls[i].name, symbol) != 0)
				continue;
			if (members == 8) {
				buf_puts(help, ", …");
				break;
			}
			buf_printf(help, "%s`%s` (stable id `%s`)", members++ ? ", " : "a member is named through its owner: ",
			    graph_qualified_name(g, i), g->decls[i].id);
		}
		if (members)
			return;
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
			buf_puts(help, "did you mean");
			for (int j = 0; j < 3 && best[j] >= 0; j++)
				buf_printf(help, "%s `%s`", j ? "," : "", g->decls[best[j]].id);
			buf_puts(help, "? `semaprax query <file>` lists every declaration");
		} else {
			buf_puts(help, "`semaprax query <file>` lists every declaration with its stable id");
		}
	}
}
