/*
 * graph_test.c — the semantic model of src/graph/ (graph.h): declarations
 * in symbol order with their members, kinds, stable ids (explicit and
 * automatic), effective parameter modes, contract texts, and call edges:
 * `calls` deduplicated in first-occurrence order (requires, body, closures,
 * ensures), `called_by` sorted by stable id.
 */
#include <string.h>

#include "../../src/driver/session.h"
#include "../../src/graph/graph.h"
#include "../../src/patch/patch.h"
#include "unit.h"

static const char prog[] =
	"module unit.graph;\n"
	"\n"
	"@id(\"shape.point\")\n"
	"record Point {\n"
	"    @id(\"shape.point.x\")\n"
	"    x: i64,\n"
	"    @id(\"shape.point.y\")\n"
	"    y: i64,\n"
	"}\n"
	"\n"
	"@id(\"z.helper\")\n"
	"fn helper(v: i64) -> i64\n"
	"    requires v >= 0\n"
	"{\n"
	"    v + 1\n"
	"}\n"
	"\n"
	"@id(\"a.twice\")\n"
	"fn twice(v: i64) -> i64 {\n"
	"    helper(helper(v))\n"
	"}\n"
	"\n"
	"@id(\"text.size\")\n"
	"fn size(text: borrow Bytes) -> usize {\n"
	"    byte_len(bytes_as_slice(text))\n"
	"}\n"
	"\n"
	"@id(\"app.main\")\n"
	"fn main() -> i64\n"
	"    ensures result > 0\n"
	"{\n"
	"    let p = Point { x: twice(1), y: helper(2) };\n"
	"    p.x + p.y\n"
	"}\n";

static int
by_name(GraphModel *g, const char *id)
{
	return graph_find_id(g, id);
}

void
unit_graph_checks(void)
{
	Session s;
	driver_session_init(&s, "graph.spx");
	driver_set_source(&s, prog, sizeof prog - 1);
	bool ok = driver_parse(&s) && driver_check(&s) && driver_lower(&s);
	unit_check(ok, "graph: the model program verifies");
	if (!ok) {
		driver_session_free(&s);
		return;
	}
	GraphModel *g = graph_model_build(s.S, s.H);
	unit_check(g->ndecls == 7, "graph: 7 declarations (record, 2 fields, 4 functions)");
	unit_check(g->decls[0].kind == GK_RECORD && g->decls[1].kind == GK_FIELD && g->decls[1].owner == 0,
	    "graph: a record is followed by its fields");
	unit_check(strcmp(graph_qualified_name(g, 2), "Point.y") == 0, "graph: qualified member name");
	int helper = by_name(g, "z.helper"), twice = by_name(g, "a.twice"), mainf = by_name(g, "app.main");
	int size = by_name(g, "text.size");
	unit_check(helper >= 0 && twice >= 0 && mainf >= 0 && size >= 0, "graph: lookup by stable id");
	unit_check(by_name(g, "nope") == -1, "graph: unknown id");
	const GraphDecl *m = &g->decls[mainf];
	unit_check(m->ncalls == 2 && m->calls[0] == twice && m->calls[1] == helper, "graph: main calls twice, helper in first-occurrence order");
	const GraphDecl *t = &g->decls[twice];
	unit_check(t->ncalls == 1 && t->calls[0] == helper, "graph: calls deduplicated");
	const GraphDecl *h = &g->decls[helper];
	unit_check(h->ncalled_by == 2 && h->called_by[0] == twice && h->called_by[1] == mainf, "graph: called_by sorted by stable id");
	unit_check(h->nrequires == 1 && strcmp(h->requires[0], "v >= 0") == 0, "graph: requires text");
	unit_check(m->nensures == 1 && strcmp(m->ensures[0], "result > 0") == 0, "graph: ensures text");
	const GraphDecl *z = &g->decls[size];
	unit_check(z->nparams == 1 && strcmp(z->params[0].mode, "borrow") == 0, "graph: borrow mode");
	unit_check(h->nparams == 1 && strcmp(h->params[0].mode, "value") == 0, "graph: Copy parameter is value");
	unit_check(z->nbuiltins == 2 && strcmp(z->builtins[0], "core.byte.len") == 0 && strcmp(z->builtins[1], "core.bytes.as_slice") == 0, "graph: builtin calls listed apart");
	graph_model_free(g);
	driver_session_free(&s);
}

/* SPX-G121, the semantic review's guard: a declaration's declared effects
 * changed beyond what the patch admits.  No patch operation can do that
 * (a fragment stays in its place: patch_edits_in_place,
 * patch_fragments_whole), so the guard is driven directly with two
 * programs whose `say` declares different effects. */
static const char sec_before[] =
	"module sec;\n\npermit { process.stdout.write, process.stderr.write }\n\n"
	"@id(\"sec.say\")\nfn say() -> i64\n    uses { process.stdout.write }\n{\n    0\n}\n\n"
	"@id(\"app.main\")\nfn main() -> i64\n    uses { process.stdout.write, process.stderr.write }\n{\n    say()\n}\n";
static const char sec_after[] =
	"module sec;\n\npermit { process.stdout.write, process.stderr.write }\n\n"
	"@id(\"sec.say\")\nfn say() -> i64\n    uses { process.stdout.write, process.stderr.write }\n{\n    0\n}\n\n"
	"@id(\"app.main\")\nfn main() -> i64\n    uses { process.stdout.write, process.stderr.write }\n{\n    say()\n}\n";

void
unit_review_guard_checks(void)
{
	static const char spatch[] = "schema semaprax.semantic-patch.v4\nbase sha256:0\nreplace-body function sec.say with 1\n";
	Session a, b;
	driver_session_init(&a, "a.spx");
	driver_set_source(&a, sec_before, sizeof sec_before - 1);
	driver_session_init(&b, "b.spx");
	driver_set_source(&b, sec_after, sizeof sec_after - 1);
	bool ok = driver_parse(&a) && driver_check(&a) && driver_parse(&b) && driver_check(&b);
	unit_check(ok, "review guard: both programs verify");
	SPatch p;
	DiagSink d;
	diag_init(&d, "g.spatch", spatch, sizeof spatch - 1);
	bool parsed = patch_parse(&p, spatch, sizeof spatch - 1, &d);
	unit_check(parsed, "review guard: the patch parses");
	if (ok && parsed) {
		unit_check(patch_review_same_security(&p, a.S, a.S, &d), "review guard: equal effects pass");
		unit_check(!patch_review_same_security(&p, a.S, b.S, &d) && d.items.len > 0 && d.items.items[d.items.len - 1].code == DIAG_G121,
		    "review guard: a declaration whose declared effects changed is SPX-G121");
	}
	if (parsed)
		patch_free(&p);
	diag_free(&d);
	driver_session_free(&a);
	driver_session_free(&b);
}
