/*
 * query.c — `semaprax query`: the declarations matching every given
 * filter, in model order (source order, members after their owner), one
 * line each — `kind  stable-id  canonical header`, the kind padded to 12
 * columns and four spaces after the id — or, with --json, one document
 * `semaprax.query.c1` of positional rows [kind, id, header].
 *
 * The canonical header of a declaration is the formatter's
 * (fmt_decl_header, fmt_fn_header); a member's is its own line as the
 * declaration lists it: `x: i64` (field, case field), `Circle { r: f64 }`
 * or `Empty` (case), `import fn name` (interface import).
 */
#include "graph.h"

#include <string.h>

#include "../fmt/fmt.h"
#include "../support/diag.h"
#include "../support/json.h"

char *
graph_header(GraphModel *g, int d)
{
	const GraphDecl *x = &g->decls[d];
	Buf b = {0};
	switch (x->kind) {
	case GK_FUNCTION: case GK_RECORD: case GK_VARIANT: case GK_CLASS: case GK_RESOURCE: case GK_INTERFACE: {
		const Sym *s = sema_sym(g->S, x->sym);
		if (s->decl)
			fmt_decl_header(&b, s->decl);
		else if (s->fn)
			fmt_fn_header(&b, s->fn);
		break;
	}
	case GK_METHOD: {
		const Sym *s = sema_sym(g->S, x->sym);
		if (s->fn)
			fmt_fn_header(&b, s->fn);
		break;
	}
	case GK_FIELD:
	case GK_CASE_FIELD:
		buf_printf(&b, "%s: %s", x->name, sema_type_name(g->S, x->type));
		break;
	case GK_CASE: {
		buf_puts(&b, x->name);
		bool first = true;
		for (int i = d + 1; i < g->ndecls && g->decls[i].owner == d; i++) {
			buf_printf(&b, "%s%s: %s", first ? " { " : ", ", g->decls[i].name, sema_type_name(g->S, g->decls[i].type));
			first = false;
		}
		if (!first)
			buf_puts(&b, " }");
		break;
	}
	case GK_IMPORT:
		buf_printf(&b, "import fn %s", x->name);
		break;
	default:
		break;
	}
	if (!b.data)
		buf_puts(&b, "");
	return buf_take(&b);
}

static bool
has_effect(const GraphDecl *x, const char *e)
{
	for (int i = 0; i < x->neffects; i++)
		if (strcmp(x->effects[i], e) == 0)
			return true;
	return false;
}

static bool
contains(const int *items, int n, int v)
{
	for (int i = 0; i < n; i++)
		if (items[i] == v)
			return true;
	return false;
}

static bool
matches(GraphModel *g, int d, const GraphQuery *q, const unsigned char *only)
{
	const GraphDecl *x = &g->decls[d];
	if (x->origin || (only && !only[d]))
		return false;
	if (q->kinds && !(q->kinds & (1u << x->kind)))
		return false;
	if (q->name && !strstr(x->name, q->name))
		return false;
	if (q->id_prefix && strncmp(x->id, q->id_prefix, strlen(q->id_prefix)) != 0)
		return false;
	if (q->effect && !has_effect(x, q->effect))
		return false;
	if (q->calls >= 0 && !contains(x->calls, x->ncalls, q->calls))
		return false;
	if (q->called_by >= 0 && !contains(g->decls[q->called_by].calls, g->decls[q->called_by].ncalls, d))
		return false;
	return true;
}

void
graph_query_rows(Buf *o, GraphModel *g, const GraphQuery *q, const unsigned char *only, const char *path, int *n)
{
	for (int i = 0; i < g->ndecls; i++) {
		if (!matches(g, i, q, only))
			continue;
		const GraphDecl *x = &g->decls[i];
		char *h = graph_header(g, i);
		if (q->json) {
			buf_puts(o, *n ? ",[" : "[");
			if (path) {
				json_cstr(o, path);
				buf_putc(o, ',');
			}
			buf_printf(o, "\"%s\",", graph_kind_names[x->kind]);
			json_cstr(o, x->id);
			buf_putc(o, ',');
			json_cstr(o, h);
			buf_putc(o, ']');
		} else {
			if (path)
				buf_printf(o, "%s  ", path);
			/* one line per declaration: an id's control bytes (a newline
			 * would forge a line) are shown escaped, as in diagnostics */
			buf_printf(o, "%-12s", graph_kind_names[x->kind]);
			diag_put_visible(o, x->id, strlen(x->id));
			buf_printf(o, "    %s\n", h);
		}
		free(h);
		(*n)++;
	}
}

int
graph_query(Buf *out, GraphModel *g, const GraphMeta *meta, const GraphQuery *q)
{
	int n = 0;
	Buf rows = {0};
	graph_query_rows(q->json ? &rows : out, g, q, NULL, NULL, &n);
	if (q->json) {
		/* no empty array: without a match the key is left out */
		buf_puts(out, "{\"schema\":\"semaprax.query.c1\",\"revision\":");
		json_cstr(out, meta->revision);
		if (n) {
			buf_puts(out, ",\"declarations\":[");
			buf_put(out, rows.data, rows.len);
			buf_putc(out, ']');
		}
		buf_puts(out, "}\n");
	}
	buf_free(&rows);
	return n;
}
