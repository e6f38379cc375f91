/*
 * util.c — allocation hooks and the internal-bug reporter.
 */
/* MAP_ANONYMOUS and MAP_NORESERVE are outside POSIX 2008's headers. */
#define _DEFAULT_SOURCE

#include "common.h"

#include <sys/mman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

void
spx_tune_allocator(void)
{
#ifdef __GLIBC__
	mallopt(M_MMAP_THRESHOLD, 256 << 20);
	mallopt(M_TRIM_THRESHOLD, 512 << 20);
	mallopt(M_TOP_PAD, 16 << 20);
#endif
}

void
spx_bug(const char *file, int line, const char *msg)
{
	fprintf(stderr, "semaprax: internal error at %s:%d: %s\n", file, line, msg);
	abort();
}

static void
oom(void)
{
	fputs("semaprax: out of memory\n", stderr);
	exit(3);
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom();
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		oom();
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	if (n)   /* s may be NULL when n == 0 */
		memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

void *
spx_big_reserve(size_t bytes, bool *mapped)
{
	*mapped = false;
	if (bytes < SPX_BIG_ALLOC)
		return xmalloc(bytes);
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
#ifdef MADV_HUGEPAGE
	/* Huge pages where the system grants them on request: one fault per
	 * 2 MiB instead of 512 (about a tenth of `check`). */
	if (bytes >= ((size_t)2 << 20))
		madvise(p, bytes, MADV_HUGEPAGE);
#endif
	*mapped = true;
	return p;
}

void *
spx_big_alloc(size_t bytes, bool *mapped)
{
	void *p = spx_big_reserve(bytes, mapped);
	return p ? p : xmalloc(bytes);
}

void
spx_big_free(void *p, size_t bytes, bool mapped)
{
	if (mapped)
		munmap(p, bytes);
	else
		free(p);
}
