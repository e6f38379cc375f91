/*
 * bench_proc.c — whole-process measurement for the bench drivers (see
 * bench_proc.h).
 */
#define _DEFAULT_SOURCE  /* wait4 */

#include "bench_proc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double
now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static long last_faults;

long
bench_last_faults(void)
{
	return last_faults;
}

int
bench_run(const char *who, char *const argv[], char **out, size_t *len, double *wall_ms, double *rss_mb, double *cpu_ms)
{
	int fds[2] = { -1, -1 };
	if (out && pipe(fds) != 0) {
		fprintf(stderr, "%s: pipe: %s\n", who, strerror(errno));
		exit(2);
	}
	double t0 = now_ms();
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "%s: fork: %s\n", who, strerror(errno));
		exit(2);
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		if (null >= 0) {
			dup2(null, STDIN_FILENO);
			dup2(null, STDERR_FILENO);
			dup2(out ? fds[1] : null, STDOUT_FILENO);
		}
		if (out) {
			close(fds[0]);
			close(fds[1]);
		}
		execv(argv[0], argv);
		_exit(127);
	}
	size_t n = 0, cap = 0;
	char *buf = NULL;
	if (out) {
		close(fds[1]);
		for (;;) {
			if (n + 4096 > cap) {
				cap = cap ? cap * 2 : 65536;
				buf = realloc(buf, cap);
				if (!buf)
					exit(2);
			}
			ssize_t k = read(fds[0], buf + n, cap - n);
			if (k <= 0)
				break;
			n += (size_t)k;
		}
		close(fds[0]);
	}
	int status = 0;
	struct rusage ru;
	if (wait4(pid, &status, 0, &ru) < 0) {
		fprintf(stderr, "%s: wait4: %s\n", who, strerror(errno));
		exit(2);
	}
	if (wall_ms)
		*wall_ms = now_ms() - t0;
	last_faults = ru.ru_minflt + ru.ru_majflt;
	if (rss_mb)
		*rss_mb = (double)ru.ru_maxrss / 1024.0;
	if (cpu_ms)
		*cpu_ms = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
		    (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
	if (out) {
		*out = buf;
		*len = n;
	}
	int st = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	if (st == 127) {
		fprintf(stderr, "%s: cannot run %s\n", who, argv[0]);
		exit(2);
	}
	return st;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double
bench_median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
