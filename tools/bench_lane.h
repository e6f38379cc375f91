/*
 * bench_lane.h — what the lane benchmarks (tools/bench_native.c,
 * tools/bench_wasm.c) share: the clock, the first error of a refusal, one
 * timed run of a program with its stdout captured and checked against the
 * first run's, and the program list.  Header-only like spawn_pipe.h, since
 * each driver is one translation unit linked with the library objects;
 * `who` names the driver in its messages.
 */
#ifndef SPX_TOOLS_BENCH_LANE_H
#define SPX_TOOLS_BENCH_LANE_H

#include <glob.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../src/support/buf.h"
#include "../src/support/diag.h"
#include "spawn_pipe.h"

#define LANE_OUTPUT_CAP (1 << 20)  /* bytes of a benchmark's stdout kept */

static double
lane_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The first line of the first error in s, into out. */
static void
lane_first_error_line(const DiagSink *s, char *out, size_t cap)
{
	snprintf(out, cap, "(no diagnostic)");
	for (int i = 0; i < s->items.len; i++) {
		if (diag_info[s->items.items[i].code].sev != SEV_ERROR)
			continue;
		Buf b = {0};
		diag_render_human(&b, s, &s->items.items[i], false);
		size_t n = strcspn(b.data ? b.data : "", "\n");
		snprintf(out, cap, "%.*s", (int)n, b.data ? b.data : "");
		buf_free(&b);
		return;
	}
}

/* User + system CPU time of the reaped children so far. */
static double
lane_cpu_children(void)
{
	struct rusage ru;
	getrusage(RUSAGE_CHILDREN, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
	    (double)ru.ru_stime.tv_usec * 1e-6;
}

/*
 * Runs argv once with stdout captured into out (reset first); returns the
 * wall time and its CPU time in *cpu (when set), or a negative value after
 * printing why it (`what`) failed.
 */
static double
lane_run_once(const char *who, const char *what, char *const *argv, Buf *out, double *cpu)
{
	pid_t pid;
	int fd = -1;
	fflush(NULL);
	double c0 = lane_cpu_children();
	double t0 = lane_now();
	int rc = spawn_piped(argv, &pid, &fd);
	if (rc != 0) {
		fprintf(stderr, "%s: %s: cannot start %s: %s\n", who, what, argv[0], strerror(rc));
		return -1;
	}
	out->len = 0;
	char tmp[4096];
	ssize_t k;
	while ((k = read(fd, tmp, sizeof tmp)) > 0)
		if (out->len < LANE_OUTPUT_CAP)
			buf_put(out, tmp, (size_t)k);
	close(fd);
	int st = 0;
	pid_t w = waitpid(pid, &st, 0);
	double t1 = lane_now();
	if (cpu)
		*cpu = lane_cpu_children() - c0;
	if (w != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		if (w == pid && WIFSIGNALED(st))
			fprintf(stderr, "%s: %s crashed (signal %d)\n", who, what, WTERMSIG(st));
		else
			fprintf(stderr, "%s: %s failed (exit status %d)\n", who, what, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		return -1;
	}
	return t1 - t0;
}

/* One timed run into *best (wall) and *best_cpu (when set); its output
 * must equal *ref (set by the first run). */
static bool
lane_run_checked(const char *who, const char *what, char *const *argv, double *best, double *best_cpu, Buf *ref,
    bool first)
{
	Buf out = {0};
	double cpu = 0;
	double t = lane_run_once(who, what, argv, &out, &cpu);
	bool ok = t >= 0;
	if (ok && first) {
		buf_free(ref);
		*ref = out;
		out = (Buf){0};
	} else if (ok && (out.len != ref->len || memcmp(out.data, ref->data, out.len) != 0)) {
		fprintf(stderr, "%s: %s printed different output on two runs\n", who, what);
		ok = false;
	}
	buf_free(&out);
	if (ok && (first || t < *best))
		*best = t;
	if (ok && best_cpu && (first || cpu < *best_cpu))
		*best_cpu = cpu;
	return ok;
}

/* Every `.spx` file in dir, or dir/NAME.spx for each of names, into *g. */
static bool
lane_list_programs(const char *who, const char *dir, char **names, int nnames, glob_t *g)
{
	char pattern[4200];
	if (nnames == 0) {
		snprintf(pattern, sizeof pattern, "%s/*.spx", dir);
		if (glob(pattern, 0, NULL, g) == 0)
			return true;
		fprintf(stderr, "%s: no programs match %s\n", who, pattern);
		return false;
	}
	for (int i = 0; i < nnames; i++) {
		snprintf(pattern, sizeof pattern, "%s/%s.spx", dir, names[i]);
		if (glob(pattern, i ? GLOB_APPEND | GLOB_NOCHECK : GLOB_NOCHECK, NULL, g) != 0)
			return false;
	}
	return true;
}

#endif
