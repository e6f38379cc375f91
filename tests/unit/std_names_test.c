/*
 * std_names_test.c — the checker's table of the bundled standard library's
 * functions (sema_std_names, src/sema/std_names.h) against the library
 * itself: tools/embed_std_names.sh reads std/<pkg>/src/<pkg>.spx with a
 * line pattern (an `@id("…")` line directly above `fn NAME`), so a source
 * it misreads (a comment between the two, an attribute the pattern does not
 * know) would leave a function out of T203's help without a build error.
 * Here the embedded sources (project_std_sources) are read by the parser,
 * and every function declaration with an explicit `@id` must be one row,
 * {name, module, id}, in the table's order (name, then module, bytewise),
 * and no row may be more.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/parse/parse.h"
#include "../../src/project/std.h"
#include "../../src/sema/std_names.h"
#include "../../src/support/arena.h"
#include "unit.h"

typedef struct Row {
	char name[64], module[64], id[128];
} Row;

static int
row_order(const void *a, const void *b)
{
	const Row *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : strcmp(x->module, y->module);
}

/* The fn declarations with an explicit id of one embedded module, appended
 * to rows (at most cap); false when it does not parse cleanly. */
static bool
parsed_rows(const ProjectStdSource *src, Row *rows, size_t cap, size_t *n)
{
	DiagSink d;
	Arena a;
	size_t len = strlen(src->src);
	diag_init(&d, src->path, src->src, len);
	arena_init(&a);
	Module *m = parse_module(src->src, len, &a, &d);
	bool ok = m && !d.errors;
	for (int i = 0; ok && i < m->ndecls; i++) {
		const Decl *dc = &m->decls[i];
		if (dc->kind != DECL_FN || !dc->id.present)
			continue;
		if (*n == cap || dc->id.value.len >= sizeof rows->id) {
			ok = false;
			break;
		}
		Row *r = &rows[(*n)++];
		snprintf(r->name, sizeof r->name, "%s", dc->u.fn.name.s);
		snprintf(r->module, sizeof r->module, "%s", src->module);
		memcpy(r->id, dc->id.value.s, dc->id.value.len);
		r->id[dc->id.value.len] = '\0';
	}
	arena_free(&a);
	diag_free(&d);
	return ok;
}

void
unit_std_names_checks(void)
{
	size_t cap = sema_std_nnames + 64, n = 0;
	Row *rows = calloc(cap, sizeof *rows);
	bool parsed = true;
	for (size_t i = 0; i < project_std_nsources; i++)
		parsed &= parsed_rows(&project_std_sources[i], rows, cap, &n);
	unit_check(parsed && project_std_nsources > 0, "std names: every bundled module parses");
	qsort(rows, n, sizeof *rows, row_order);
	char what[400];
	snprintf(what, sizeof what, "std names: the table has %zu rows, the library %zu functions with an @id", sema_std_nnames, n);
	unit_check(n == sema_std_nnames, what);
	for (size_t i = 0; i < n && i < sema_std_nnames; i++) {
		const SemaStdName *t = &sema_std_names[i];
		if (strcmp(t->name, rows[i].name) == 0 && strcmp(t->module, rows[i].module) == 0 && strcmp(t->id, rows[i].id) == 0)
			continue;
		snprintf(what, sizeof what, "std names: row %zu is {%s, %s, %s}, the library's {%s, %s, %s}", i, t->name, t->module, t->id,
		    rows[i].name, rows[i].module, rows[i].id);
		unit_check(false, what);
		break;
	}
	free(rows);
}
