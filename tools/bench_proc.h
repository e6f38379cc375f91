/*
 * bench_proc.h — whole-process measurement shared by tools/bench_cli.c and
 * tools/bench_agent.c.
 *
 * Each run is fork + execv + wait4 from the small driver process, so the
 * rusage is the child's own (ru_maxrss, in KiB on Linux) and the figure
 * includes everything a user pays: exec, dynamic loading, reading the
 * file, the work and process exit.  The drivers link nothing of the
 * toolchain, so the forked child starts small (Linux keeps the peak RSS
 * of the pre-exec image).  Wall time is CLOCK_MONOTONIC from fork to
 * reaping.
 */
#ifndef SPX_TOOLS_BENCH_PROC_H
#define SPX_TOOLS_BENCH_PROC_H

#include <stddef.h>

/* Runs argv[0] (a path) with stdin and stderr on /dev/null and stdout
 * into *out (malloc'd, *len bytes) when out is set, else /dev/null.  Any
 * of wall_ms, rss_mb (peak RSS, MB) and cpu_ms (user + system) may be
 * NULL.  Returns the exit status, or 128 + the signal.  A failing pipe,
 * fork or wait4, or a child that cannot exec (127), prints "<who>: …" and
 * exits 2. */
int bench_run(const char *who, char *const argv[], char **out, size_t *len, double *wall_ms, double *rss_mb,
    double *cpu_ms);

/* The page faults (minor and major, from its rusage) of the child
 * bench_run last reaped: pages first touched by a trap and pages made
 * resident by MADV_POPULATE_WRITE alike (`perf stat -e page-faults`
 * counts only the traps).  Load does not move it, and on a VM each such
 * page costs microseconds (docs/DECISIONS.md perf39). */
long bench_last_faults(void);

/* The median of v[0..n) (sorts v). */
double bench_median(double *v, int n);

#endif
