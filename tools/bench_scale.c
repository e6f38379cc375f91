/*
 * bench_scale.c — super-linear behaviour hunt for `semaprax check`
 * (`make bench-scale`, part of `make bench`) and the CPU budget of the
 * generated stress fixtures (`make test`).
 *
 * Usage:
 *   bench_scale [--runs N] [--only NAME] [--dir DIR] BIN
 *       writes each stress shape (below) at size n and 10n into DIR
 *       (default build/bench/scale), times `BIN check FILE` as whole
 *       processes (median of N runs, default 5, of the child's user+system
 *       CPU time, getrusage(RUSAGE_CHILDREN)), prints a table, and exits 1
 *       when a shape's time grows more than 13x for the 10x input (linear behaviour plus
 *       noise).  A 10n time under 20 ms is never a failure: there process
 *       start-up dominates and the ratio is noise.  Every generated program
 *       must verify (exit 0): an error path would time the wrong code.
 *   bench_scale --fixtures [--limit SECONDS] BIN DIR...
 *       runs `BIN check` once on every .spx file under each DIR (sorted by
 *       path) and exits 1 when one takes more than SECONDS (default 0.5) of
 *       user CPU time.  User CPU, not wall time, so a loaded 2-core CI
 *       machine does not fail it; the wall time is printed beside it.
 *
 * Each shape grows one dimension by 10x and holds the rest fixed; where the
 * dimension is bounded (nesting stays within P207's 128 levels) the shape
 * is repeated in many functions so the time is measurable.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define RATIO_LIMIT 13.0
#define FLOOR_SECONDS 0.020

/* ---- shapes --------------------------------------------------------------- */

typedef void (*GenFn)(FILE *f, int n);

static void
main_fn(FILE *f, const char *body)
{
	fprintf(f, "\n@id(\"app.main\")\nfn main() -> i64\n{\n    %s\n}\n", body);
}

/* K functions, each taking a parameter of type Option<…n deep…<i64>>. */
static void
gen_generic_nesting(FILE *f, int n)
{
	fprintf(f, "module scale.gnest;\n");
	for (int k = 0; k < 2000; k++) {
		fprintf(f, "\n@id(\"s.g%d\")\nfn g%d(x: ", k, k);
		for (int i = 0; i < n; i++)
			fprintf(f, "Option<");
		fprintf(f, "i64");
		for (int i = 0; i < n; i++)
			fprintf(f, ">");
		fprintf(f, ") -> i64\n{\n    match x { Option::Some { value } => 1, Option::None {} => 0, }\n}\n");
	}
	main_fn(f, "0");
}

/* K functions, each constructing a value whose spelled type nests Result/Option n deep. */
static void
gen_generic_construction(FILE *f, int n)
{
	fprintf(f, "module scale.gcons;\n");
	for (int k = 0; k < 300; k++) {
		fprintf(f, "\n@id(\"s.w%d\")\nfn w%d(x: i64) -> ", k, k);
		for (int i = 0; i < n; i++)
			fprintf(f, "Result<Option<");
		fprintf(f, "i64");
		for (int i = 0; i < n; i++)
			fprintf(f, ">, string>");
		fprintf(f, "\n{\n    Result<");
		for (int i = 1; i < n; i++)
			fprintf(f, "Option<Result<");
		fprintf(f, "Option<i64>");
		for (int i = 1; i < n; i++)
			fprintf(f, ", string>>");
		fprintf(f, ", string>::Err { error: \"deep\" }\n}\n");
	}
	main_fn(f, "0");
}

/* K functions, each a block nested n deep. */
static void
gen_nested_blocks(FILE *f, int n)
{
	fprintf(f, "module scale.blocks;\n");
	for (int k = 0; k < 1000; k++) {
		fprintf(f, "\n@id(\"s.b%d\")\nfn b%d(x: i64) -> i64\n{\n    ", k, k);
		for (int i = 0; i < n; i++)
			fprintf(f, "{ let v%d = x + %d; ", i, i);
		fprintf(f, "x");
		for (int i = 0; i < n; i++)
			fprintf(f, " }");
		fprintf(f, "\n}\n");
	}
	main_fn(f, "0");
}

/* K functions, each `if` nested n deep (in the then branch). */
static void
gen_nested_ifs(FILE *f, int n)
{
	fprintf(f, "module scale.ifs;\n");
	for (int k = 0; k < 1000; k++) {
		fprintf(f, "\n@id(\"s.i%d\")\nfn i%d(x: i64) -> i64\n{\n    ", k, k);
		for (int i = 0; i < n; i++)
			fprintf(f, "if x > %d { ", i);
		fprintf(f, "x");
		for (int i = 0; i < n; i++)
			fprintf(f, " } else { %d }", i);
		fprintf(f, "\n}\n");
	}
	main_fn(f, "0");
}

/* K functions, each `match` nested n deep (in the first arm). */
static void
gen_nested_matches(FILE *f, int n)
{
	fprintf(f, "module scale.matches;\n");
	for (int k = 0; k < 1000; k++) {
		fprintf(f, "\n@id(\"s.m%d\")\nfn m%d(x: i64) -> i64\n{\n    ", k, k);
		for (int i = 0; i < n; i++)
			fprintf(f, "match x { %d => ", i);
		fprintf(f, "x");
		for (int i = 0; i < n; i++)
			fprintf(f, ", _ => %d, }", i);
		fprintf(f, "\n}\n");
	}
	main_fn(f, "0");
}

/* K functions, each a `while` loop nested n deep, moving a string in the innermost body. */
static void
gen_nested_loops(FILE *f, int n)
{
	fprintf(f, "module scale.loops;\n\n@id(\"s.take\")\nfn take(s: string) -> i64\n{\n    string_len(s)\n}\n");
	for (int k = 0; k < 300; k++) {
		fprintf(f, "\n@id(\"s.l%d\")\nfn l%d(x: i64) -> i64\n{\n    let mut t = 0;\n    ", k, k);
		for (int i = 0; i < n; i++)
			fprintf(f, "while t < %d { ", i);
		fprintf(f, "let s = \"a\"; t = t + take(s);");
		for (int i = 0; i < n; i++)
			fprintf(f, " t = t + 1; 0 }");
		fprintf(f, "\n    t + x\n}\n");
	}
	main_fn(f, "0");
}

static void
gen_match_arms(FILE *f, int n)
{
	fprintf(f, "module scale.arms;\n\n@id(\"s.classify\")\nfn classify(x: i64) -> i64\n{\n    match x { ");
	for (int i = 0; i < n; i++)
		fprintf(f, "%d => %d, ", i, i % 7);
	fprintf(f, "_ => 0, }\n}\n");
	main_fn(f, "classify(3)");
}

static void
gen_record_fields(FILE *f, int n)
{
	fprintf(f, "module scale.fields;\n\n@id(\"s.r\")\nrecord R {\n");
	for (int i = 0; i < n; i++)
		fprintf(f, "    @id(\"s.r.f%d\")\n    f%d: i64,\n", i, i);
	fprintf(f, "}\n\n@id(\"s.make\")\nfn make(x: i64) -> R\n{\n    R { ");
	for (int i = 0; i < n; i++)
		fprintf(f, "f%d: x, ", i);
	fprintf(f, "}\n}\n\n@id(\"s.sum\")\nfn sum(r: R) -> i64\n{\n    let mut t = 0;\n");
	for (int i = 0; i < n; i++)
		fprintf(f, "    t = t + r.f%d;\n", i);
	fprintf(f, "    t\n}\n");
	main_fn(f, "sum(make(1)) % 100");
}

static void
gen_variant_cases(FILE *f, int n)
{
	fprintf(f, "module scale.cases;\n\n@id(\"s.v\")\nvariant V {\n");
	for (int i = 0; i < n; i++)
		fprintf(f, "    @id(\"s.v.c%d\")\n    C%d { @id(\"s.v.c%d.x\") x: i64, },\n", i, i, i);
	fprintf(f, "}\n\n@id(\"s.rank\")\nfn rank(v: V) -> i64\n{\n    match v { ");
	for (int i = 0; i < n; i++)
		fprintf(f, "V::C%d { x } => x + %d, ", i, i);
	fprintf(f, "}\n}\n");
	main_fn(f, "rank(V::C1 { x: 2 })");
}

/* n generic functions, each calling the previous with its type argument; a Copy record instance. */
static void
gen_generic_chain(FILE *f, int n)
{
	fprintf(f, "module scale.gchain;\n\n@id(\"s.p\")\nrecord P {\n    @id(\"s.p.a\")\n    a: i64,\n}\n");
	fprintf(f, "\n@id(\"s.g0\")\nfn g0<T>(x: T) -> T\n{\n    x\n}\n");
	for (int i = 1; i < n; i++)
		fprintf(f, "\n@id(\"s.g%d\")\nfn g%d<T>(x: T) -> T\n{\n    g%d<T>(x)\n}\n", i, i, i - 1);
	char body[128];
	snprintf(body, sizeof body, "g%d<P>(P { a: 3 }).a + g%d<i64>(1)", n - 1, n - 1);
	main_fn(f, body);
}

/* K functions, each a call nested n deep. */
static void
gen_call_nesting(FILE *f, int n)
{
	fprintf(f, "module scale.calls;\n\n@id(\"s.inc\")\nfn inc(x: i64) -> i64\n{\n    x + 1\n}\n");
	for (int k = 0; k < 1000; k++) {
		fprintf(f, "\n@id(\"s.c%d\")\nfn c%d(x: i64) -> i64\n{\n    ", k, k);
		for (int i = 0; i < n; i++)
			fprintf(f, "inc(");
		fprintf(f, "x");
		for (int i = 0; i < n; i++)
			fprintf(f, ")");
		fprintf(f, "\n}\n");
	}
	main_fn(f, "0");
}

static void
gen_long_string(FILE *f, int n)
{
	fprintf(f, "module scale.string;\n\n@id(\"app.main\")\nfn main() -> i64\n{\n    let s = \"");
	for (int i = 0; i < n; i++)
		fputc('a' + i % 26, f);
	fprintf(f, "\";\n    string_len(s) %% 100\n}\n");
}

static void
gen_many_functions(FILE *f, int n)
{
	fprintf(f, "module scale.fns;\n\n@id(\"s.f0\")\nfn f0(x: i64) -> i64\n{\n    x + 1\n}\n");
	for (int i = 1; i < n; i++)
		fprintf(f, "\n@id(\"s.f%d\")\nfn f%d(x: i64) -> i64\n{\n    f%d(x) + 1\n}\n", i, i, i - 1);
	char body[64];
	snprintf(body, sizeof body, "f%d(0) %% 100", n - 1);
	main_fn(f, body);
}

static void
gen_many_lets(FILE *f, int n)
{
	fprintf(f, "module scale.lets;\n\n@id(\"app.main\")\nfn main() -> i64\n{\n    let x0 = 0;\n");
	for (int i = 1; i < n; i++)
		fprintf(f, "    let x%d = x%d + 1;\n", i, i - 1);
	fprintf(f, "    x%d %% 100\n}\n", n - 1);
}

/* Lets and branches interleaved: each `if` forks the ownership state of every binding so far. */
static void
gen_lets_and_ifs(FILE *f, int n)
{
	fprintf(f, "module scale.letif;\n\n@id(\"app.main\")\nfn main() -> i64\n{\n    let x0 = 0;\n");
	for (int i = 1; i < n; i++)
		fprintf(f, "    let x%d = if x%d > 3 { x%d } else { x%d + 1 };\n", i, i - 1, i - 1, i - 1);
	fprintf(f, "    x%d %% 100\n}\n", n - 1);
}

/* Mutable lets, then an assignment to each: an assignment asks which views borrow its target. */
static void
gen_lets_and_assigns(FILE *f, int n)
{
	fprintf(f, "module scale.assign;\n\n@id(\"app.main\")\nfn main() -> i64\n{\n    let s = \"text\";\n    let v = string_as_str(s);\n");
	for (int i = 0; i < n; i++)
		fprintf(f, "    let mut x%d = %d;\n", i, i);
	for (int i = 0; i < n; i++)
		fprintf(f, "    x%d = x%d + 1;\n", i, i);
	fprintf(f, "    if str_is_empty(v) { 0 } else { x%d %% 100 }\n}\n", n - 1);
}

/* Lets and `?`: each `?` asks which binding in scope needs release. */
static void
gen_many_try(FILE *f, int n)
{
	fprintf(f, "module scale.try;\n\n@id(\"s.half\")\nfn half(x: i64) -> Option<i64>\n{\n    Option<i64>::Some { value: x / 2 }\n}\n");
	fprintf(f, "\n@id(\"s.chain\")\nfn chain(x0: i64) -> Option<i64>\n{\n");
	for (int i = 1; i < n; i++)
		fprintf(f, "    let x%d = half(x%d)?;\n", i, i - 1);
	fprintf(f, "    Option<i64>::Some { value: x%d }\n}\n", n - 1);
	main_fn(f, "match chain(5) { Option::Some { value } => value, Option::None {} => 1, }");
}

static void
gen_many_params(FILE *f, int n)
{
	fprintf(f, "module scale.params;\n\n@id(\"s.wide\")\nfn wide(");
	for (int i = 0; i < n; i++)
		fprintf(f, "%sp%d: i64", i ? ", " : "", i);
	fprintf(f, ") -> i64\n{\n    p0 + p%d\n}\n\n@id(\"app.main\")\nfn main() -> i64\n{\n    wide(", n - 1);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s%d", i ? ", " : "", i);
	fprintf(f, ") %% 100\n}\n");
}

/* K functions, each an `&&` chain of n comparisons. */
static void
gen_and_chain(FILE *f, int n)
{
	fprintf(f, "module scale.and;\n");
	for (int k = 0; k < 1000; k++) {
		fprintf(f, "\n@id(\"s.a%d\")\nfn a%d(x: i64) -> bool\n{\n    x > 0", k, k);
		for (int i = 1; i < n; i++)
			fprintf(f, " && x > %d", i);
		fprintf(f, "\n}\n");
	}
	main_fn(f, "0");
}

/* n records, each holding the previous by value; a function per level reads it. */
static void
gen_record_nesting(FILE *f, int n)
{
	fprintf(f, "module scale.rnest;\n\n@id(\"s.r0\")\nrecord R0 {\n    @id(\"s.r0.v\")\n    v: i64,\n}\n");
	for (int i = 1; i < n; i++)
		fprintf(f, "\n@id(\"s.r%d\")\nrecord R%d {\n    @id(\"s.r%d.inner\")\n    inner: R%d,\n    @id(\"s.r%d.v\")\n    v: i64,\n}\n", i, i, i, i - 1, i);
	for (int i = 0; i < n; i++)
		fprintf(f, "\n@id(\"s.get%d\")\nfn get%d(r: R%d) -> i64\n{\n    r.v\n}\n", i, i, i);
	main_fn(f, "0");
}

static void
gen_many_closures(FILE *f, int n)
{
	fprintf(f, "module scale.closures;\n\n@id(\"app.main\")\nfn main() -> i64\n{\n    let base = 1;\n");
	for (int i = 0; i < n; i++)
		fprintf(f, "    let c%d = fn(x: i64) -> i64 { x + base + %d };\n", i, i);
	fprintf(f, "    c%d(1) %% 100\n}\n", n - 1);
}

/* A resource with an imported finalizer and n functions owning one (E103 asks for the finalizer's effects). */
static void
gen_resource_owners(FILE *f, int n)
{
	fprintf(f, "module scale.res;\n\npermit { fs.close }\n\n@id(\"s.file\")\nresource File {\n    @id(\"s.file.drop\")\n    drop import \"s.files.close\";\n}\n");
	fprintf(f, "\n@id(\"s.files\")\ninterface Files\n    permits { fs.close }\n{\n    @id(\"s.files.close\")\n    import fn close(handle: own File) -> unit\n        effects { fs.close }\n        failure infallible\n        consumes handle always;\n}\n");
	for (int i = 0; i < n; i++)
		fprintf(f, "\n@id(\"s.k%d\")\nfn k%d(file: own File) -> i64\n    uses { fs.close }\n{\n    %d\n}\n", i, i, i);
	main_fn(f, "0");
}

/* A class with n fields and a subclass adding n more (T229 looks up each in the parent). */
static void
gen_class_fields(FILE *f, int n)
{
	fprintf(f, "module scale.cfields;\n\n@id(\"s.base\")\nclass Base {\n");
	for (int i = 0; i < n; i++)
		fprintf(f, "    @id(\"s.base.a%d\")\n    a%d: i64,\n", i, i);
	fprintf(f, "}\n\n@id(\"s.derived\")\nclass Derived : Base {\n");
	for (int i = 0; i < n; i++)
		fprintf(f, "    @id(\"s.derived.b%d\")\n    b%d: i64,\n", i, i);
	fprintf(f, "}\n");
	main_fn(f, "0");
}

/* A class with n methods, each called once. */
static void
gen_many_methods(FILE *f, int n)
{
	fprintf(f, "module scale.methods;\n\n@id(\"s.c\")\nclass C {\n    @id(\"s.c.v\")\n    v: i64,\n");
	for (int i = 0; i < n; i++)
		fprintf(f, "\n    @id(\"s.c.m%d\")\n    fn m%d(self: C) -> i64\n{\n        self.v + %d\n    }\n", i, i, i);
	fprintf(f, "}\n\n@id(\"s.all\")\nfn all(c: C) -> i64\n{\n    let t0 = 0;\n");
	for (int i = 0; i < n; i++)
		fprintf(f, "    let t%d = t%d + c.m%d();\n", i + 1, i, i);
	fprintf(f, "    t%d\n}\n", n);
	main_fn(f, "all(C { v: 1 }) % 100");
}

/* n records and one generic function instantiated at each of them. */
static void
gen_generic_instances(FILE *f, int n)
{
	fprintf(f, "module scale.instances;\n\n@id(\"s.id\")\nfn same<T>(x: T) -> T\n{\n    x\n}\n");
	for (int i = 0; i < n; i++)
		fprintf(f, "\n@id(\"s.r%d\")\nrecord R%d {\n    @id(\"s.r%d.v\")\n    v: i64,\n}\n", i, i, i);
	fprintf(f, "\n@id(\"s.use\")\nfn use_all(x: i64) -> i64\n{\n    let t0 = x;\n");
	for (int i = 0; i < n; i++)
		fprintf(f, "    let t%d = t%d + same<R%d>(R%d { v: %d }).v;\n", i + 1, i, i, i, i);
	fprintf(f, "    t%d\n}\n", n);
	main_fn(f, "use_all(0) % 100");
}

/* n bounded polymorphic recursions (c<T> -> d<Vec<T>> -> c<i64>): a finite
 * closure of a few instances each. */
static void
gen_generic_cycles(FILE *f, int n)
{
	fprintf(f, "module scale.gcycles;\n");
	for (int i = 0; i < n; i++) {
		fprintf(f, "\n@id(\"s.c%d\")\nfn c%d<T>(n: i64) -> i64\n{\n    if n <= 0 { 0 } else { d%d<Vec<T>>(n - 1) }\n}\n", i, i, i);
		fprintf(f, "\n@id(\"s.d%d\")\nfn d%d<U>(n: i64) -> i64\n{\n    c%d<i64>(n) + 1\n}\n", i, i, i);
	}
	main_fn(f, "c0<bool>(3)");
}

/* n lets, each moving the string the previous one owns (T265 looks for the
 * owner's live views at each move: it scanned every variable). */
static void
gen_move_chain(FILE *f, int n)
{
	fprintf(f, "module scale.moves;\n\n@id(\"app.main\")\nfn main() -> i64\n{\n    let s0 = string_from_i64(1);\n");
	for (int i = 0; i < n; i++)
		fprintf(f, "    let s%d = string_concat(s%d, \"x\");\n", i + 1, i);
	fprintf(f, "    string_len(s%d) %% 100\n}\n", n);
}

/* n/32 inheritance chains of 32 classes, one field each (T228's cycle search
 * walked from every class; each class copies its ancestors' fields). */
static void
gen_class_chains(FILE *f, int n)
{
	fprintf(f, "module scale.cchains;\n");
	for (int i = 0; i < n; i++) {
		fprintf(f, "\n@id(\"s.c%d\")\nclass C%d", i, i);
		if (i % 32)
			fprintf(f, " : C%d", i - 1);
		fprintf(f, " {\n    @id(\"s.c%d.v\")\n    v%d: i64,\n}\n", i, i);
	}
	main_fn(f, "0");
}

/* A record with n type parameters (T220's duplicate check compared every pair). */
static void
gen_type_params(FILE *f, int n)
{
	fprintf(f, "module scale.tparams;\n\n@id(\"s.r\")\nrecord R<");
	for (int i = 0; i < n; i++)
		fprintf(f, "%sT%d", i ? ", " : "", i);
	fprintf(f, "> {\n    @id(\"s.r.v\")\n    v: i64,\n}\n");
	main_fn(f, "0");
}

static const struct Shape {
	const char *name;
	GenFn gen;
	int n;       /* the small size; the large one is 10n */
} shapes[] = {
	{ "generic-nesting", gen_generic_nesting, 10 },
	{ "generic-construction", gen_generic_construction, 5 },
	{ "nested-blocks", gen_nested_blocks, 6 },
	{ "nested-ifs", gen_nested_ifs, 6 },
	{ "nested-matches", gen_nested_matches, 6 },
	{ "nested-loops", gen_nested_loops, 4 },
	{ "match-arms", gen_match_arms, 5000 },
	{ "record-fields", gen_record_fields, 1000 },
	{ "variant-cases", gen_variant_cases, 1000 },
	{ "generic-chain", gen_generic_chain, 500 },
	{ "call-nesting", gen_call_nesting, 12 },
	{ "long-string", gen_long_string, 1000000 },
	{ "many-functions", gen_many_functions, 5000 },
	{ "many-lets", gen_many_lets, 20000 },
	{ "lets-and-ifs", gen_lets_and_ifs, 3000 },
	{ "lets-and-assigns", gen_lets_and_assigns, 3000 },
	{ "many-try", gen_many_try, 3000 },
	{ "many-params", gen_many_params, 5000 },
	{ "and-chain", gen_and_chain, 12 },
	{ "record-nesting", gen_record_nesting, 500 },
	{ "many-closures", gen_many_closures, 1000 },
	{ "many-methods", gen_many_methods, 1000 },
	{ "class-fields", gen_class_fields, 1000 },
	{ "resource-owners", gen_resource_owners, 2000 },
	{ "generic-instances", gen_generic_instances, 500 },
	{ "generic-cycles", gen_generic_cycles, 200 },
	{ "move-chain", gen_move_chain, 4000 },
	{ "class-chains", gen_class_chains, 512 },
	{ "type-params", gen_type_params, 4000 },
};

/* ---- running ---------------------------------------------------------------- */

static double
tv_seconds(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

static double children_user, children_sys;   /* RUSAGE_CHILDREN after the last run */

/* Runs `bin check path` (stdout to /dev/null, stderr to errpath); returns the exit status (-1: not run). */
static int
run_check(const char *bin, const char *path, const char *errpath, double *user, double *sys, double *wall)
{
	char *argv[] = { (char *)bin, "check", (char *)path, NULL };
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid_t pid;
	int rc = posix_spawn(&pid, bin, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0) {
		fprintf(stderr, "bench_scale: cannot run %s: %s\n", bin, strerror(rc));
		return -1;
	}
	/* POSIX has no per-child rusage: the children's totals grow by this one's */
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	struct rusage ru;
	getrusage(RUSAGE_CHILDREN, &ru);
	*user = tv_seconds(ru.ru_utime) - children_user;
	*sys = tv_seconds(ru.ru_stime) - children_sys;
	children_user = tv_seconds(ru.ru_utime);
	children_sys = tv_seconds(ru.ru_stime);
	*wall = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

static void
show_head(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512];
	for (int i = 0; f && i < 4 && fgets(line, sizeof line, f); i++)
		fprintf(stderr, "    %s", line);
	if (f)
		fclose(f);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Median CPU (user+sys) seconds of `runs` checks of path; < 0 when a check fails. */
static double
time_check(const char *bin, const char *path, int runs)
{
	char errpath[4200];
	snprintf(errpath, sizeof errpath, "%s.err", path);
	double t[64];
	for (int r = 0; r < runs; r++) {
		double u, s, w;
		int rc = run_check(bin, path, errpath, &u, &s, &w);
		if (rc != 0) {
			fprintf(stderr, "bench_scale: `%s check %s` exited %d:\n", bin, path, rc);
			show_head(errpath);
			return -1;
		}
		t[r] = u + s;
	}
	qsort(t, (size_t)runs, sizeof t[0], cmp_double);
	return t[runs / 2];
}

static int
scale(const char *bin, const char *dir, int runs, const char *only)
{
	char cmd[4200];
	snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
	if (system(cmd) != 0)
		return 2;
	printf("%-20s %8s %9s %8s %9s %7s  %s\n", "shape", "n", "cpu(n)", "10n", "cpu(10n)", "ratio", "verdict");
	int failed = 0, ran = 0;
	for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
		const struct Shape *s = &shapes[i];
		if (only && strcmp(only, s->name) != 0)
			continue;
		ran++;
		double t[2];
		for (int k = 0; k < 2; k++) {
			int n = k ? s->n * 10 : s->n;
			char path[4096];
			snprintf(path, sizeof path, "%s/%s-%d.spx", dir, s->name, n);
			FILE *f = fopen(path, "w");
			if (!f) {
				fprintf(stderr, "bench_scale: cannot write %s\n", path);
				return 2;
			}
			s->gen(f, n);
			fclose(f);
			t[k] = time_check(bin, path, runs);
			if (t[k] < 0)
				return 2;
		}
		double ratio = t[1] / (t[0] > 1e-4 ? t[0] : 1e-4);
		bool bad = ratio > RATIO_LIMIT && t[1] >= FLOOR_SECONDS;
		failed += bad;
		printf("%-20s %8d %8.3fs %8d %8.3fs %6.1fx  %s\n", s->name, s->n, t[0], s->n * 10, t[1], ratio,
		    bad ? "FAIL (super-linear)" : t[1] < FLOOR_SECONDS ? "ok (below the 20 ms floor)" : "ok");
		fflush(stdout);
	}
	if (only && !ran) {
		fprintf(stderr, "bench_scale: no shape `%s`\n", only);
		return 2;
	}
	printf("%d of %d shapes grow more than %.0fx for a 10x input\n", failed, ran, RATIO_LIMIT);
	return failed ? 1 : 0;
}

/* ---- the generated fixtures' CPU budget ------------------------------------------- */

typedef struct Paths { char **items; int len, cap; } Paths;

static void
collect(Paths *p, const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		size_t len = strlen(dir) + strlen(e->d_name) + 2;
		char *path = malloc(len);
		if (!path)
			abort();
		snprintf(path, len, "%s/%s", dir, e->d_name);
		struct stat st;
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			collect(p, path);
			free(path);
			continue;
		}
		size_t n = strlen(path);
		if (n < 4 || strcmp(path + n - 4, ".spx") != 0) {
			free(path);
			continue;
		}
		if (p->len == p->cap) {
			p->cap = p->cap ? p->cap * 2 : 64;
			p->items = realloc(p->items, sizeof(char *) * (size_t)p->cap);
			if (!p->items)
				abort();
		}
		p->items[p->len++] = path;
	}
	closedir(d);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
fixtures(const char *bin, char **dirs, int ndirs, double limit)
{
	Paths p = {0};
	for (int i = 0; i < ndirs; i++)
		collect(&p, dirs[i]);
	if (p.len)
		qsort(p.items, (size_t)p.len, sizeof(char *), cmp_str);
	int over = 0;
	for (int i = 0; i < p.len; i++) {
		double u, s, w;
		if (run_check(bin, p.items[i], "/dev/null", &u, &s, &w) < 0)
			return 2;
		bool bad = u > limit;
		over += bad;
		printf("%7.3fs user %7.3fs wall  %s%s\n", u, w, p.items[i], bad ? "  OVER BUDGET" : "");
		free(p.items[i]);
	}
	free(p.items);
	printf("generated fixtures: %d checked, %d over %.2fs of user CPU\n", p.len, over, limit);
	return over ? 1 : 0;
}

int
main(int argc, char **argv)
{
	int runs = 5;
	double limit = 0.5;
	const char *dir = "build/bench/scale", *only = NULL;
	bool fx = false;
	int i = 1;
	for (; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i++) {
		if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
			runs = atoi(argv[++i]);
		else if (strcmp(argv[i], "--dir") == 0 && i + 1 < argc)
			dir = argv[++i];
		else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
			only = argv[++i];
		else if (strcmp(argv[i], "--limit") == 0 && i + 1 < argc)
			limit = atof(argv[++i]);
		else if (strcmp(argv[i], "--fixtures") == 0)
			fx = true;
		else
			break;
	}
	if (runs < 1 || runs > 64 || i >= argc || (fx && i + 1 >= argc) || limit <= 0) {
		fprintf(stderr, "usage: bench_scale [--runs N] [--only SHAPE] [--dir DIR] BIN\n"
		    "       bench_scale --fixtures [--limit SECONDS] BIN DIR...\n");
		return 2;
	}
	if (fx)
		return fixtures(argv[i], argv + i + 1, argc - i - 1, limit);
	return scale(argv[i], dir, runs, only);
}
