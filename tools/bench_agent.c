/*
 * bench_agent.c — what an agent pays to read a program (`make bench-agent`,
 * part of `make bench`; issue 12 items 5 and 6).
 *
 * Usage: bench_agent [--runs N] BIN CALCULATOR GENERATED
 *
 *   1. Bytes and lexical units of the answers to a fixed set of questions
 *      about CALCULATOR (bench/agent/calculator.spx, the size of the
 *      reference's examples/calculator.spx): `graph`, `context app.main
 *      --depth 1`, `query --id calculator.add --json`, each beside the
 *      reference's figure (TOOLCHAIN.md §4); then `graph`, `context
 *      app.main --depth 2` and `query --id <its apply> --json` for two
 *      larger programs, examples/inventory.spx and examples/ledger.spx
 *      (no reference figure).  Bytes exclude the final
 *      newline (the reference's used_bytes convention).  A lexical unit
 *      (`semaprax.lexical-token.v1`): each maximal ASCII alphanumeric or
 *      underscore run is one unit; every other non-whitespace ASCII byte
 *      and every non-ASCII scalar is one unit.
 *   2. Whole-process time and peak RSS of `graph` and `context app.main`
 *      on GENERATED, a 2,000-function program this driver writes first
 *      (each function calls two earlier ones, has a contract, a `let` and
 *      an `if`), median of N fresh runs (default 11, after a warm-up;
 *      wall time, and CPU time = user + system, which a loaded machine
 *      inflates less),
 *      beside the reference (340 ms, 43 MB for the graph) and the target
 *      (a tenth of both).
 *
 * Exit status: 0, 1 when a question's command fails, 2 on a usage error.
 * Processes are fork + execv + wait4 (the child's own rusage), measured
 * by tools/bench_proc.c as for tools/bench_cli.c; this driver links nothing of the
 * toolchain.
 */
#include "bench_proc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RUNS 101
#define GEN_FUNCTIONS 2000

static long
lexical_units(const char *s, size_t n)
{
	long units = 0;
	for (size_t i = 0; i < n;) {
		unsigned char c = (unsigned char)s[i];
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			i++;
		} else if (c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
			while (i < n && (s[i] == '_' || (s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'z') ||
			    (s[i] >= 'A' && s[i] <= 'Z')))
				i++;
			units++;
		} else if (c < 0x80) {
			i++;
			units++;
		} else {
			/* one scalar: the lead byte and its continuation bytes */
			i++;
			while (i < n && ((unsigned char)s[i] & 0xC0) == 0x80)
				i++;
			units++;
		}
	}
	return units;
}

/* The size of a file in bytes (0 when it cannot be read). */
static long
file_size(const char *path)
{
	FILE *f = fopen(path, "rb");
	long size = 0;
	if (f) {
		fseek(f, 0, SEEK_END);
		size = ftell(f);
		fclose(f);
	}
	return size;
}

static int
question(const char *bin, const char *file, const char *label, const char *a1, const char *a2, const char *a3,
    const char *a4, long ref_bytes, const char *ref_note)
{
	char *argv[8];
	int k = 0;
	argv[k++] = (char *)bin;
	argv[k++] = (char *)a1;
	argv[k++] = (char *)file;
	if (a2)
		argv[k++] = (char *)a2;
	if (a3)
		argv[k++] = (char *)a3;
	if (a4)
		argv[k++] = (char *)a4;
	argv[k] = NULL;
	char *out = NULL;
	size_t n = 0;
	int st = bench_run("bench_agent", argv, &out, &n, NULL, NULL, NULL);
	if (n && out[n - 1] == '\n')
		n--;
	long units = lexical_units(out ? out : "", n);
	char ref[64] = "";
	if (ref_bytes > 0)
		snprintf(ref, sizeof ref, "%ld bytes (%.1f%%)", ref_bytes, 100.0 * (double)n / (double)ref_bytes);
	printf("  %-36s %8zu bytes %7ld units   reference %s%s\n", label, n, units, ref_bytes > 0 ? ref : ref_note,
	    st ? "  [exit status not 0]" : "");
	free(out);
	return st != 0;
}

/* The same questions about one of the larger example programs (no reference figure). */
static int
larger(const char *bin, const char *file, const char *query_id)
{
	printf("%s, a larger program (%ld bytes of source; no reference figure):\n", file, file_size(file));
	char label[96];
	snprintf(label, sizeof label, "query --id %s --json", query_id);
	int bad = question(bin, file, "graph", "graph", NULL, NULL, NULL, 0, "-");
	bad |= question(bin, file, "context app.main --depth 2", "context", "app.main", "--depth", "2", 0, "-");
	bad |= question(bin, file, label, "query", "--id", query_id, "--json", 0, "-");
	return bad;
}

static int
timed(const char *bin, const char *file, const char *label, const char *a1, const char *a2, int runs, double ref_ms,
    double ref_mb)
{
	char *argv[6] = { (char *)bin, (char *)a1, (char *)file, (char *)a2, NULL, NULL };
	double wall[MAX_RUNS], rss[MAX_RUNS], cpu[MAX_RUNS];
	int bad = 0;
	bench_run("bench_agent", argv, NULL, NULL, NULL, NULL, NULL);  /* warm-up */
	for (int i = 0; i < runs; i++)
		bad |= bench_run("bench_agent", argv, NULL, NULL, &wall[i], &rss[i], &cpu[i]);
	double w = bench_median(wall, runs), m = bench_median(rss, runs), c = bench_median(cpu, runs);
	printf("  %-20s %8.2f ms wall %8.2f ms cpu %7.1f MB   reference graph %g ms, %g MB (target <= %g ms, %g MB)%s\n", label, w,
	    c, m, ref_ms, ref_mb, ref_ms / 10, ref_mb / 10, bad ? "  [exit status not 0]" : "");
	return bad != 0;
}

/* The 2,000-function program: f<i> calls two earlier functions. */
static void
generate(const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "bench_agent: cannot write %s\n", path);
		exit(2);
	}
	fprintf(f, "module bench.generated;\n");
	for (int i = 0; i < GEN_FUNCTIONS - 1; i++) {
		fprintf(f, "\n@id(\"gen.f%d\")\nfn f%d(x: i64, y: i64) -> i64\n    requires y >= 0\n{\n", i, i);
		if (i < 2)
			fprintf(f, "    let a = x + y;\n");
		else
			fprintf(f, "    let a = f%d(x, y) + f%d(y, x);\n", i - 1, i / 2);
		fprintf(f, "    if a > 100 { a - y } else { a + x }\n}\n");
	}
	fprintf(f, "\n@id(\"app.main\")\nfn main() -> i64\n{\n    f%d(1, 2)\n}\n", GEN_FUNCTIONS - 2);
	fclose(f);
}

int
main(int argc, char **argv)
{
	int runs = 11, i = 1;
	if (argc > 2 && strcmp(argv[1], "--runs") == 0) {
		runs = atoi(argv[2]);
		i = 3;
	}
	if (argc - i != 3 || runs < 1 || runs > MAX_RUNS) {
		fprintf(stderr, "usage: bench_agent [--runs N] BIN CALCULATOR GENERATED   (1 <= N <= %d)\n", MAX_RUNS);
		return 2;
	}
	const char *bin = argv[i], *calc = argv[i + 1], *gen = argv[i + 2];
	int bad = 0;
	printf("agent answers for %s (%ld bytes of source; the reference's calculator: 606):\n", calc, file_size(calc));
	bad |= question(bin, calc, "graph", "graph", NULL, NULL, NULL, 24419, NULL);
	bad |= question(bin, calc, "context app.main --depth 1", "context", "app.main", "--depth", "1", 2279, NULL);
	bad |= question(bin, calc, "query --id calculator.add --json", "query", "--id", "calculator.add", "--json", 0,
	    "< 1024 bytes, < 256 units");
	bad |= larger(bin, "examples/inventory.spx", "inventory.apply");
	bad |= larger(bin, "examples/ledger.spx", "ledger.apply");
	generate(gen);
	printf("whole process on %s (%d functions), median of %d fresh runs:\n", gen, GEN_FUNCTIONS, runs);
	bad |= timed(bin, gen, "graph", "graph", NULL, runs, 340, 43);
	bad |= timed(bin, gen, "context app.main", "context", "app.main", runs, 340, 43);
	return bad ? 1 : 0;
}
