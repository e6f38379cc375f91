/*
 * program_test.c — the Program layer (src/driver/program.h): two
 * independent modules from embedded sources.  Their ModuleIds follow the
 * module names whatever the order they were added in; handles from
 * (module name, stable id) resolve to the right symbol; each module
 * revision equals its single-file revision (a lone Session); the program
 * revision is the same for both orders and changes when either module does;
 * a one-module program's revision is its module's.
 */
#include <string.h>

#include "../../src/driver/program.h"
#include "unit.h"

static const char mod_a[] =
	"module unit.prog_b;\n\n@id(\"prog.b.twice\")\nfn twice(x: i64) -> i64 {\n    x * 2\n}\n\n"
	"@id(\"prog.b.main\")\nfn main() -> i64 {\n    twice(21)\n}\n";
static const char mod_b[] =
	"module unit.prog_a;\n\n@id(\"prog.a.inc\")\nfn inc(x: i64) -> i64 {\n    x + 1\n}\n\n"
	"@id(\"prog.a.main\")\nfn main() -> i64 {\n    inc(41)\n}\n";
/* mod_b with one changed body */
static const char mod_b2[] =
	"module unit.prog_a;\n\n@id(\"prog.a.inc\")\nfn inc(x: i64) -> i64 {\n    x + 2\n}\n\n"
	"@id(\"prog.a.main\")\nfn main() -> i64 {\n    inc(40)\n}\n";

/* The revision of src checked alone, as `semaprax check` prints it. */
static void
single_revision(const char *path, const char *src, size_t len, char out[72])
{
	Session s;
	driver_session_init(&s, path);
	driver_set_source(&s, src, len);
	out[0] = '\0';
	if (driver_parse(&s) && driver_check(&s)) {
		driver_revision(&s);
		memcpy(out, s.revision, 72);
	}
	driver_session_free(&s);
}

/* Loads a two-module program, sources in the given order; false on errors. */
static bool
load_two(Program *p, const char *first, size_t n1, const char *path1, const char *second, size_t n2, const char *path2)
{
	driver_program_init(p);
	driver_program_add(p, path1, first, n1);
	driver_program_add(p, path2, second, n2);
	return driver_program_load(p, SESSION_CHECK);
}

/*
 * Linked programs (driver_program_check_linked, issue 15): the importer is
 * added first but checked after its provider; its alias resolves to a
 * symbol that keeps the target's stable id and origin and the provider's
 * signature, translated (the record type by identity, Option to the
 * importer's prelude); a cycle of imports is one G172 naming it.  The
 * sources are canonical text (a project's G170).
 */
static const char link_lib[] =
	"module unit.lib;\n\n@id(\"unit.lib.pair\")\nrecord Pair {\n    @id(\"unit.lib.pair.a\")\n    a: i64,\n}\n\n"
	"@id(\"unit.lib.get\")\nfn get(p: Pair) -> Option<i64>\n{\n    Option<i64>::Some { value: p.a }\n}\n";
static const char link_app[] =
	"module unit.app;\nuse function @id(\"unit.lib.get\") from unit.lib as fetch;\nuse type @id(\"unit.lib.pair\") from unit.lib as P;\n\n"
	"@id(\"unit.app.main\")\nfn main() -> i64\n{\n    match (fetch(P { a: 7 })) { Option::Some { value } => value, Option::None {} => 0, }\n}\n";
static const char cyc_a[] = "module unit.ca;\nuse function @id(\"unit.cb.f\") from unit.cb as g;\n\n@id(\"unit.ca.f\")\nfn f() -> i64\n{\n    g()\n}\n";
static const char cyc_b[] = "module unit.cb;\nuse function @id(\"unit.ca.f\") from unit.ca as g;\n\n@id(\"unit.cb.f\")\nfn f() -> i64\n{\n    g()\n}\n";

static void
unit_program_link_checks(void)
{
	Program p;
	driver_program_init(&p);
	driver_program_add(&p, "app.spx", link_app, sizeof link_app - 1);
	driver_program_add(&p, "lib.spx", link_lib, sizeof link_lib - 1);
	bool ok = driver_program_check_linked(&p);
	ModuleId app = driver_program_find(&p, "unit.app"), lib = driver_program_find(&p, "unit.lib");
	unit_check(ok && app == 0 && lib == 1 && p.order[0] == lib && p.order[1] == app, "link: the provider is checked before its importer");
	const Sema *S = ok ? p.mods[app]->s.S : NULL;
	SymId alias = S ? sema_strmap_get(&S->fn_names, "fetch") : -1;
	const Sym *y = alias >= 0 ? &S->syms.items[alias] : NULL;
	unit_check(y && y->origin && strcmp(y->origin, "unit.lib") == 0 && strcmp(y->id, "unit.lib.get") == 0 && y->nparams == 1,
	    "link: the alias keeps the target's stable id and origin module");
	SymId pair = S ? sema_strmap_get(&S->type_names, "P") : -1;
	bool types_ok = y && pair >= 0 && sema_type_info(&S->types, y->params[0].type)->kind == TY_NOMINAL &&
	    sema_type_info(&S->types, y->params[0].type)->decl == (uint32_t)pair &&
	    sema_type_info(&S->types, y->result)->decl == (uint32_t)S->sym_option;
	unit_check(types_ok, "link: the signature's record maps to the importer's `use type` symbol, Option to its prelude");
	ProgHandle h;
	unit_check(driver_program_lookup(&p, "unit.lib", "unit.lib.get", &h) && h.mod == lib, "link: the target resolves by (module, stable id)");
	unit_check(p.revision[0] != '\0', "link: a linked program has a program revision");
	driver_program_free(&p);

	Program c;
	driver_program_init(&c);
	driver_program_add(&c, "b.spx", cyc_b, sizeof cyc_b - 1);
	driver_program_add(&c, "a.spx", cyc_a, sizeof cyc_a - 1);
	bool cok = driver_program_check_linked(&c);
	const DiagSink *d = &c.mods[0]->s.diags;
	unit_check(!cok && d->items.len == 1 && d->items.items[0].code == DIAG_G172 &&
	    strcmp(d->items.items[0].message, "module dependency cycle: unit.ca -> unit.cb -> unit.ca") == 0 && c.mods[1]->s.diags.items.len == 0,
	    "link: a cycle is one G172 naming it, from its least module");
	driver_program_free(&c);
}

void
unit_program_checks(void)
{
	char ra[72], rb[72], rb2[72];
	single_revision("b.spx", mod_a, sizeof mod_a - 1, ra);
	single_revision("a.spx", mod_b, sizeof mod_b - 1, rb);
	single_revision("a.spx", mod_b2, sizeof mod_b2 - 1, rb2);
	unit_check(ra[0] && rb[0] && rb2[0] && strcmp(rb, rb2) != 0, "program: the single-file revisions exist and differ");

	Program p, q;
	bool okp = load_two(&p, mod_a, sizeof mod_a - 1, "b.spx", mod_b, sizeof mod_b - 1, "a.spx");
	bool okq = load_two(&q, mod_b, sizeof mod_b - 1, "a.spx", mod_a, sizeof mod_a - 1, "b.spx");
	unit_check(okp && okq && p.nmods == 2 && q.nmods == 2, "program: two modules check");
	ModuleId pa = driver_program_find(&p, "unit.prog_a"), pb = driver_program_find(&p, "unit.prog_b");
	ModuleId qa = driver_program_find(&q, "unit.prog_a"), qb = driver_program_find(&q, "unit.prog_b");
	unit_check(pa == 0 && pb == 1 && qa == 0 && qb == 1, "program: ModuleIds follow module names, not insertion order");
	unit_check(driver_program_find(&p, "unit.prog") == DRIVER_NO_MODULE, "program: an unknown module name is not found");
	unit_check(strcmp(p.mods[pa]->s.revision, rb) == 0 && strcmp(p.mods[pb]->s.revision, ra) == 0,
	    "program: each module revision equals its single-file revision");
	unit_check(p.revision[0] && strncmp(p.revision, "sha256:", 7) == 0 && strlen(p.revision) == 71 &&
	    strcmp(p.revision, q.revision) == 0, "program: the program revision does not depend on the order of adding");
	unit_check(strcmp(p.revision, ra) != 0 && strcmp(p.revision, rb) != 0, "program: two modules' revision is neither module's");

	ProgHandle h;
	const Sym *s;
	bool found = driver_program_lookup(&p, "unit.prog_b", "prog.b.twice", &h);
	s = found ? driver_program_sym(&p, h) : NULL;
	unit_check(found && h.mod == pb && s && s->kind == SK_FN && strcmp(s->name, "twice") == 0,
	    "program: (unit.prog_b, prog.b.twice) resolves to fn twice");
	found = driver_program_lookup(&p, "unit.prog_a", "prog.a.main", &h);
	s = found ? driver_program_sym(&p, h) : NULL;
	unit_check(found && h.mod == pa && s && strcmp(s->name, "main") == 0 && strcmp(s->id, "prog.a.main") == 0,
	    "program: (unit.prog_a, prog.a.main) resolves to its main");
	unit_check(!driver_program_lookup(&p, "unit.prog_a", "prog.b.twice", &h) &&
	    !driver_program_lookup(&p, "unit.nope", "prog.a.main", &h),
	    "program: a stable id of another module, or an unknown module, does not resolve");
	ProgHandle bad = { 7, 0 };
	unit_check(driver_program_sym(&p, bad) == NULL, "program: a handle to a missing module resolves to nothing");

	/* Either module changed: the program revision changes. */
	Program r, t;
	load_two(&r, mod_a, sizeof mod_a - 1, "b.spx", mod_b2, sizeof mod_b2 - 1, "a.spx");
	static const char mod_a2[] =
		"module unit.prog_b;\n\n@id(\"prog.b.twice\")\nfn twice(x: i64) -> i64 {\n    x + x\n}\n\n"
		"@id(\"prog.b.main\")\nfn main() -> i64 {\n    twice(21)\n}\n";
	load_two(&t, mod_a2, sizeof mod_a2 - 1, "b.spx", mod_b, sizeof mod_b - 1, "a.spx");
	unit_check(r.revision[0] && strcmp(r.revision, p.revision) != 0 && strcmp(r.mods[0]->s.revision, rb2) == 0,
	    "program: changing unit.prog_a changes the program revision");
	unit_check(t.revision[0] && strcmp(t.revision, p.revision) != 0 && strcmp(t.revision, r.revision) != 0,
	    "program: changing unit.prog_b changes the program revision");

	/* One module: the program revision is the module revision. */
	Program one;
	driver_program_init(&one);
	driver_program_add(&one, "a.spx", mod_b, sizeof mod_b - 1);
	unit_check(driver_program_load(&one, SESSION_CHECK) && strcmp(one.revision, rb) == 0,
	    "program: a one-module program's revision is its single-file revision");

	driver_program_free(&p);
	driver_program_free(&q);
	driver_program_free(&r);
	driver_program_free(&t);
	driver_program_free(&one);
	unit_program_link_checks();
}
