/*
 * bench_cli.c — whole-process cost of the commands users run (`make bench`,
 * `make bench-cli`).
 *
 * Usage: bench_cli [--runs N] BIN LARGE SMALL
 *   Runs `BIN parse FILE`, `BIN check FILE` and `BIN fmt --check FILE` as
 *   fresh processes, N times each (default 11, after one warm-up run), on
 *   a large generated program and a small one, and prints per command and
 *   file the median wall time, CPU time (user + system) and peak RSS
 *   beside the targets
 *   (check: ≤ 25 ms and ≤ 10 MB on the ~48k-line program, ≤ 2 ms on the
 *   20-line one).  A row whose command did not exit 0 is flagged.
 * Exit status: 0, or 2 on a usage error or when a process cannot start.
 *
 * Key choice: each run is fork + execv + wait4 from this small process, so
 * the rusage is the child's own (ru_maxrss, in KiB on Linux) and the
 * figure includes everything a user pays: exec, dynamic loading, reading
 * the file, the work and process exit.  This driver links nothing of the
 * toolchain, so the forked child starts small (Linux keeps the peak RSS
 * of the pre-exec image).  Wall time is CLOCK_MONOTONIC from fork to
 * reaping.  The child's stdout and stderr go to /dev/null.
 */
#define _DEFAULT_SOURCE  /* wait4 */

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_RUNS 101

typedef struct Sample {
	double wall_ms;
	double cpu_ms;   /* user + system */
	double rss_mb;
	int status;    /* exit status, or 128 + signal */
} Sample;

static double
now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static Sample
run_once(char *const argv[])
{
	Sample s = { 0, 0, 0, 0 };
	double t0 = now_ms();
	pid_t pid = fork();
	if (pid < 0) {
		perror("bench_cli: fork");
		exit(2);
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		if (null >= 0) {
			dup2(null, STDIN_FILENO);
			dup2(null, STDOUT_FILENO);
			dup2(null, STDERR_FILENO);
		}
		execv(argv[0], argv);
		_exit(127);
	}
	int status = 0;
	struct rusage ru;
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("bench_cli: wait4");
		exit(2);
	}
	s.wall_ms = now_ms() - t0;
	s.rss_mb = (double)ru.ru_maxrss / 1024.0;
	s.cpu_ms = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
	    (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
	s.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	if (s.status == 127) {
		fprintf(stderr, "bench_cli: cannot run %s\n", argv[0]);
		exit(2);
	}
	return s;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double
median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
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
	argv[k++] = (char *)cmd;
	if (flag)
		argv[k++] = (char *)flag;
	argv[k++] = (char *)file;
	argv[k] = NULL;
	double wall[MAX_RUNS], cpu[MAX_RUNS], rss[MAX_RUNS];
	int bad = 0;
	run_once(argv);  /* warm-up: page cache, binary */
	for (int i = 0; i < runs; i++) {
		Sample s = run_once(argv);
		wall[i] = s.wall_ms;
		cpu[i] = s.cpu_ms;
		rss[i] = s.rss_mb;
		if (s.status != 0)
			bad = s.status;
	}
	double w = median(wall, runs), c = median(cpu, runs), m = median(rss, runs);
	char tw[32] = "", tm[32] = "";
	if (target_ms > 0)
		snprintf(tw, sizeof tw, "(target <= %g)", target_ms);
	if (target_mb > 0)
		snprintf(tm, sizeof tm, "(target <= %g)", target_mb);
	char name[48];
	snprintf(name, sizeof name, "%s%s%s", cmd, flag ? " " : "", flag ? flag : "");
	printf("  %-12s %-12s %8.2f ms %-15s %8.2f ms %7.1f MB %-15s%s\n", name, label, w, tw, c, m, tm,
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
	if (argc - i != 3 || runs < 1 || runs > MAX_RUNS) {
		fprintf(stderr, "usage: bench_cli [--runs N] BIN LARGE SMALL   (1 <= N <= %d)\n", MAX_RUNS);
		return 2;
	}
	const char *bin = argv[i], *large = argv[i + 1], *small = argv[i + 2];
	char lbl_large[32], lbl_small[32];
	snprintf(lbl_large, sizeof lbl_large, "%ld lines", count_lines(large));
	snprintf(lbl_small, sizeof lbl_small, "%ld lines", count_lines(small));
	printf("whole-process cost, median of %d fresh runs (a loaded machine inflates wall time; cpu = user + system):\n", runs);
	printf("  %-12s %-12s %11s %-15s %11s %10s\n", "command", "input", "wall", "", "cpu", "peak RSS");
	row(bin, "parse", NULL, large, lbl_large, runs, 0, 0);
	row(bin, "check", NULL, large, lbl_large, runs, 25, 10);
	row(bin, "fmt", "--check", large, lbl_large, runs, 0, 0);
	row(bin, "parse", NULL, small, lbl_small, runs, 0, 0);
	row(bin, "check", NULL, small, lbl_small, runs, 2, 0);
	row(bin, "fmt", "--check", small, lbl_small, runs, 0, 0);
	return 0;
}
