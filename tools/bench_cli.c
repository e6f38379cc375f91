/*
 * bench_cli.c — whole-process cost of the commands users run (`make bench`,
 * `make bench-cli`).
 *
 * Usage: bench_cli [--runs N] BIN LARGE SMALL [FLOOR]
 *   Runs `BIN parse FILE`, `BIN check FILE` and `BIN fmt --check FILE` as
 *   fresh processes, N times each (default 11, after one warm-up run), on
 *   a large generated program and a small one, and prints per command and
 *   file the median wall time, CPU time (user + system), peak RSS and
 *   pages faulted or populated (bench_last_faults: a count load does not
 *   move; on a VM each is microseconds) beside the targets
 *   (check: ≤ 25 ms and ≤ 10 MB on the ~48k-line program, ≤ 2 ms on the
 *   20-line one).  A row whose command did not exit 0 is flagged.
 *   FLOOR, an executable that does nothing (the Makefile links an empty
 *   C `main` statically, as the release binary is), and `BIN --version`
 *   add two rows: what any process costs on this machine, and our own
 *   start-up; the 20-line figures are read against them.
 * Exit status: 0, or 2 on a usage error or when a process cannot start.
 *
 * Key choice: each run is fork + execv + wait4 from this small process
 * (tools/bench_proc.c, shared with bench_agent.c): the rusage is the
 * child's own and the figure includes everything a user pays.  The
 * child's stdout and stderr go to /dev/null.
 */
#include "bench_proc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RUNS 101

typedef struct Sample {
	double wall_ms;
	double cpu_ms;   /* user + system */
	double rss_mb;
	double faults;
	int status;    /* exit status, or 128 + signal */
} Sample;

static Sample
run_once(char *const argv[])
{
	Sample s = { 0, 0, 0, 0, 0 };
	s.status = bench_run("bench_cli", argv, NULL, NULL, &s.wall_ms, &s.rss_mb, &s.cpu_ms);
	s.faults = (double)bench_last_faults();
	return s;
}

static long
count_lines(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "bench_cli: cannot read %s\n", path);
		exit(2);
	}
	long n = 0;
	int c;
	while ((c = getc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

/* One row: the command on one file; target_ms/target_mb <= 0 means none. */
static void
row(const char *bin, const char *cmd, const char *flag, const char *file, const char *label,
    int runs, double target_ms, double target_mb)
{
	char *argv[5];
	int k = 0;
	argv[k++] = (char *)bin;
	if (*cmd)
		argv[k++] = (char *)cmd;
	if (flag)
		argv[k++] = (char *)flag;
	if (file)
		argv[k++] = (char *)file;
	argv[k] = NULL;
	double wall[MAX_RUNS], cpu[MAX_RUNS], rss[MAX_RUNS], flt[MAX_RUNS];
	int bad = 0;
	run_once(argv);  /* warm-up: page cache, binary */
	for (int i = 0; i < runs; i++) {
		Sample s = run_once(argv);
		wall[i] = s.wall_ms;
		cpu[i] = s.cpu_ms;
		rss[i] = s.rss_mb;
		flt[i] = s.faults;
		if (s.status != 0)
			bad = s.status;
	}
	double w = bench_median(wall, runs), c = bench_median(cpu, runs), m = bench_median(rss, runs);
	double f = bench_median(flt, runs);
	char tw[32] = "", tm[32] = "";
	if (target_ms > 0)
		snprintf(tw, sizeof tw, "(target <= %g)", target_ms);
	if (target_mb > 0)
		snprintf(tm, sizeof tm, "(target <= %g)", target_mb);
	char name[48];
	snprintf(name, sizeof name, "%s%s%s", *cmd ? cmd : "empty C", flag ? " " : "", flag ? flag : "");
	printf("  %-12s %-12s %8.2f ms %-15s %8.2f ms %7.1f MB %-15s %6.0f%s\n", name, label, w, tw, c, m, tm, f,
	    bad ? "  [exit status not 0]" : "");
}

int
main(int argc, char **argv)
{
	int runs = 11, i = 1;
	if (argc > 2 && strcmp(argv[1], "--runs") == 0) {
		runs = atoi(argv[2]);
		i = 3;
	}
	if (argc - i < 3 || argc - i > 4 || runs < 1 || runs > MAX_RUNS) {
		fprintf(stderr, "usage: bench_cli [--runs N] BIN LARGE SMALL [FLOOR]   (1 <= N <= %d)\n", MAX_RUNS);
		return 2;
	}
	const char *bin = argv[i], *large = argv[i + 1], *small = argv[i + 2];
	const char *floor_bin = argc - i == 4 ? argv[i + 3] : NULL;
	char lbl_large[32], lbl_small[32];
	snprintf(lbl_large, sizeof lbl_large, "%ld lines", count_lines(large));
	snprintf(lbl_small, sizeof lbl_small, "%ld lines", count_lines(small));
	printf("whole-process cost, median of %d fresh runs (a loaded machine inflates wall time; cpu = user + system):\n", runs);
	printf("  %-12s %-12s %11s %-15s %11s %10s %-15s %6s\n", "command", "input", "wall", "", "cpu", "peak RSS", "", "faults");
	row(bin, "parse", NULL, large, lbl_large, runs, 0, 0);
	row(bin, "check", NULL, large, lbl_large, runs, 25, 10);
	row(bin, "fmt", "--check", large, lbl_large, runs, 0, 0);
	row(bin, "parse", NULL, small, lbl_small, runs, 0, 0);
	row(bin, "check", NULL, small, lbl_small, runs, 2, 0);
	row(bin, "fmt", "--check", small, lbl_small, runs, 0, 0);
	row(bin, "--version", NULL, NULL, "(start-up)", runs, 0, 0);
	if (floor_bin)
		row(floor_bin, "", NULL, NULL, "(floor)", runs, 0, 0);
	return 0;
}
