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
}
