/*
 * bench_project.c — the project scale bench (`make bench-project`, part of
 * `make bench`; issue 15 item 8).
 *
 * Usage: bench_project [--runs N] [--functions F] [--dir DIR] BIN
 *
 * Writes generated projects of 20, 50, 100 and 200 modules × F functions
 * (default 50) under DIR (default build/bench/project), times `BIN check
 * <project>` as whole processes (bench_proc.c: fork, exec, wait4 — exec,
 * reading every file, linking, checking and exit included), median of N
 * runs (default 5) of wall time, CPU time (user + system) and peak RSS, and
 * prints one row per size plus the growth from 20 to 200 modules.  Exits 1
 * when the CPU time grows more than 13x for the 10x project (linear plus
 * noise; CPU rather than wall time so a loaded machine does not fail it),
 * unless the 200-module time is under 20 ms (start-up dominated), and when
 * a generated project does not check (an error path would time the wrong
 * code).
 *
 * The shape: module bench.mNNN declares a record `Cell` and F functions;
 * function j calls function j-1 of its own module, and function 0 calls
 * the previous module's last function and its `Cell`-taking function
 * through `use function`/`use type` (a chain through every module, so the
 * checker resolves N-1 links and checks providers first).  Every 10th
 * module also imports from module i/2, so the graph is not only a chain.
 * The entry module calls the last module; the test module calls the first.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench_proc.h"

#define RATIO_LIMIT 13.0
#define FLOOR_MS 20.0

static void
die(const char *what, const char *path)
{
	fprintf(stderr, "bench_project: %s %s: %s\n", what, path, strerror(errno));
	exit(2);
}

/* path = dir + tail (printf format with one int), or exit 2 when too long. */
static void
join(char *path, size_t cap, const char *dir, const char *tail, int n)
{
	char t[64];
	snprintf(t, sizeof t, tail, n);
	int k = snprintf(path, cap, "%s%s", dir, t);
	if (k < 0 || (size_t)k >= cap) {
		fprintf(stderr, "bench_project: path too long under %s\n", dir);
		exit(2);
	}
}

static FILE *
open_out(const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		die("cannot write", path);
	return f;
}

static void
close_out(FILE *f, const char *path)
{
	if (ferror(f) || fclose(f) != 0)
		die("cannot write", path);
}

static void
make_dir(const char *path)
{
	if (mkdir(path, 0755) != 0 && errno != EEXIST)
		die("cannot create", path);
}

static void
gen_module(FILE *f, int i, int nfuncs)
{
	fprintf(f, "module bench.m%03d;\n", i);
	if (i > 0) {
		fprintf(f, "use function @id(\"m%03d.f%d\") from bench.m%03d as prev_last;\n", i - 1, nfuncs - 1, i - 1);
		fprintf(f, "use function @id(\"m%03d.weight\") from bench.m%03d as prev_weight;\n", i - 1, i - 1);
		fprintf(f, "use type @id(\"m%03d.cell\") from bench.m%03d as PrevCell;\n", i - 1, i - 1);
	}
	if (i > 0 && i % 10 == 0)
		fprintf(f, "use function @id(\"m%03d.f0\") from bench.m%03d as half_first;\n", i / 2, i / 2);
	fprintf(f, "\n@id(\"m%03d.cell\")\nrecord Cell {\n    @id(\"m%03d.cell.key\")\n    key: i64,\n"
		   "    @id(\"m%03d.cell.value\")\n    value: i64,\n}\n", i, i, i);
	fprintf(f, "\n@id(\"m%03d.weight\")\nfn weight(c: Cell) -> i64\n{\n    c.key * 2 + c.value\n}\n", i);
	for (int j = 0; j < nfuncs; j++) {
		fprintf(f, "\n@id(\"m%03d.f%d\")\nfn f%d(x: i64) -> i64\n    requires x >= 0\n{\n", i, j, j);
		if (j > 0) {
			fprintf(f, "    let y = f%d(x) + %d;\n", j - 1, j);
		} else if (i > 0) {
			fprintf(f, "    let c: PrevCell = PrevCell { key: x, value: %d };\n", i);
			fprintf(f, "    let y = prev_last(x %% 8) %% 1000 + prev_weight(c) %% 1000%s;\n",
				i % 10 == 0 ? " + half_first(1) % 10" : "");
		} else {
			fprintf(f, "    let c = Cell { key: x, value: 1 };\n    let y = weight(c);\n");
		}
		fprintf(f, "    if y > 1000 { y %% 1000 } else { y }\n}\n");
	}
}

/* Writes a project of n modules into dir; returns dir's path (static). */
static void
gen_project(const char *dir, int n, int nfuncs)
{
	char path[4096];
	make_dir(dir);
	join(path, sizeof path, dir, "/src", 0);
	make_dir(path);
	for (int i = 0; i < n; i++) {
		join(path, sizeof path, dir, "/src/m%03d.spx", i);
		FILE *f = open_out(path);
		gen_module(f, i, nfuncs);
		close_out(f, path);
	}
	join(path, sizeof path, dir, "/src/app.spx", 0);
	FILE *f = open_out(path);
	fprintf(f, "module bench.app;\nuse function @id(\"m%03d.f%d\") from bench.m%03d as last;\n\n"
		   "@id(\"bench.app.main\")\nfn main() -> i64\n{\n    last(3)\n}\n", n - 1, nfuncs - 1, n - 1);
	close_out(f, path);
	join(path, sizeof path, dir, "/src/tests.spx", 0);
	f = open_out(path);
	fprintf(f, "module bench.tests;\nuse function @id(\"m000.f0\") from bench.m000 as first;\n\n"
		   "@id(\"bench.tests.main\")\nfn main() -> i64\n{\n    first(1) - 3\n}\n");
	close_out(f, path);
	join(path, sizeof path, dir, "/semaprax.toml", 0);
	f = open_out(path);
	fprintf(f, "schema = \"semaprax.manifest.v1\"\n\n[package]\nname = \"bench\"\nversion = \"0.1.0\"\n\n"
		   "[modules]\nentry = \"bench.app\"\nsources = [\"src/app.spx\"");
	for (int i = 0; i < n; i++)
		fprintf(f, ", \"src/m%03d.spx\"", i);
	fprintf(f, ", \"src/tests.spx\"]\ntests = [\"bench.tests\"]\n\n[exports]\nweb = [\"bench.app.main\"]\n");
	close_out(f, path);
}

int
main(int argc, char **argv)
{
	int runs = 5, nfuncs = 50;
	const char *dir = "build/bench/project", *bin = NULL;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
			runs = atoi(argv[++i]);
		else if (strcmp(argv[i], "--functions") == 0 && i + 1 < argc)
			nfuncs = atoi(argv[++i]);
		else if (strcmp(argv[i], "--dir") == 0 && i + 1 < argc)
			dir = argv[++i];
		else if (!bin && argv[i][0] != '-')
			bin = argv[i];
		else
			bin = NULL, i = argc;
	}
	if (!bin || runs < 1 || runs > 101 || nfuncs < 1 || nfuncs > 10000) {
		fprintf(stderr, "usage: bench_project [--runs N] [--functions F] [--dir DIR] BIN\n");
		return 2;
	}
	static const int sizes[] = {20, 50, 100, 200};
	enum { NSIZES = sizeof sizes / sizeof sizes[0] };
	double cpu_med[NSIZES];
	make_dir(dir);
	printf("project check: modules x %d functions, whole process, median of %d runs\n", nfuncs, runs);
	printf("%8s %10s %10s %10s %10s\n", "modules", "functions", "wall ms", "cpu ms", "peak MB");
	int status = 0;
	for (int s = 0; s < NSIZES; s++) {
		char pdir[4096];
		join(pdir, sizeof pdir, dir, "/p%d", sizes[s]);
		gen_project(pdir, sizes[s], nfuncs);
		char *args[] = {(char *)bin, "check", pdir, NULL};
		double *wall = calloc((size_t)runs, sizeof *wall), *cpu = calloc((size_t)runs, sizeof *cpu),
		       *rss = calloc((size_t)runs, sizeof *rss);
		if (!wall || !cpu || !rss)
			return 2;
		for (int r = 0; r < runs; r++) {
			int st = bench_run("bench_project", args, NULL, NULL, &wall[r], &rss[r], &cpu[r]);
			if (st != 0) {
				fprintf(stderr, "bench_project: `%s check %s` exited %d; the generated project must check\n", bin, pdir, st);
				return 1;
			}
		}
		cpu_med[s] = bench_median(cpu, runs);
		printf("%8d %10d %10.1f %10.1f %10.1f\n", sizes[s], sizes[s] * (nfuncs + 1), bench_median(wall, runs), cpu_med[s],
		    bench_median(rss, runs));
		free(wall);
		free(cpu);
		free(rss);
	}
	double ratio = cpu_med[0] > 0 ? cpu_med[NSIZES - 1] / cpu_med[0] : 0;
	printf("growth 20 -> 200 modules (10x): %.1fx CPU time (limit %.0fx)\n", ratio, RATIO_LIMIT);
	for (int s = 1; s < NSIZES; s++)
		printf("  %d -> %d modules (%.1fx): %.1fx\n", sizes[s - 1], sizes[s], (double)sizes[s] / sizes[s - 1],
		    cpu_med[s - 1] > 0 ? cpu_med[s] / cpu_med[s - 1] : 0);
	if (ratio > RATIO_LIMIT && cpu_med[NSIZES - 1] >= FLOOR_MS) {
		printf("FAIL: project check time grows super-linearly with the module count\n");
		status = 1;
	}
	return status;
}
