/*
 * race-shim.c — LD_PRELOAD shim of tests/cap-test.sh's race checks (sec35),
 * the native executable's counterpart of race-hook.mjs: the first time the
 * program names the file itself (`in.txt`, `f` or a `.spx-write-…` sibling,
 * by fstatat or openat), the directory `out/d` it walked is swapped for
 * `out/e`, a link leading out of the root.  src/rt/fs.c holds each directory
 * open and names the file inside it, so the swap must change nothing.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* (no <sys/stat.h>: its fstatat64 takes a struct stat64; the shim passes
 * the buffer through untouched) */
int fstatat(int, const char *, void *, int);
int fstatat64(int, const char *, void *, int);

static int done;

static void
race(const char *p)
{
	if (done || !p)
		return;
	const char *base = strrchr(p, '/');
	base = base ? base + 1 : p;
	if (strcmp(base, "in.txt") == 0 || strcmp(base, "f") == 0 || strncmp(base, ".spx-write-", 11) == 0) {
		done = 1;
		rename("out/d", "out/d.real");
		rename("out/e", "out/d");
	}
}

int
openat(int dir, const char *p, int flags, ...)
{
	static int (*real)(int, const char *, int, ...);
	if (!real)
		real = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, "openat");
	va_list ap;
	va_start(ap, flags);
	int mode = (flags & O_CREAT) ? va_arg(ap, int) : 0;
	va_end(ap);
	race(p);
	return real(dir, p, flags, mode);
}

int
fstatat(int dir, const char *p, void *st, int flags)
{
	static int (*real)(int, const char *, void *, int);
	if (!real)
		real = (int (*)(int, const char *, void *, int))dlsym(RTLD_NEXT, "fstatat");
	race(p);
	return real(dir, p, st, flags);
}

int
fstatat64(int dir, const char *p, void *st, int flags)
{
	static int (*real)(int, const char *, void *, int);
	if (!real)
		real = (int (*)(int, const char *, void *, int))dlsym(RTLD_NEXT, "fstatat64");
	race(p);
	return real(dir, p, st, flags);
}
