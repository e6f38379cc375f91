/*
 * util.c — allocation hooks, the internal-bug reporter, a formatted string
 * (spx_vformat: diagnostics and usage messages), and the edit
 * distance of "did you mean" help (the checker's unknown names, the CLI's
 * unknown commands), the help tables' word lookup, and a command word list's
 * split (`$CC`).
 */
/* MAP_ANONYMOUS and MAP_NORESERVE are outside POSIX 2008's headers. */
#define _DEFAULT_SOURCE

#include "common.h"

#include <sys/mman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
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
spx_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom();
	return p;
}

void *
spx_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		oom();
	return p;
}

void *
spx_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *
spx_xstrndup(const char *s, size_t n)
{
	char *p = spx_xmalloc(n + 1);
	if (n)   /* s may be NULL when n == 0 */
		memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
spx_xstrdup(const char *s)
{
	return spx_xstrndup(s, strlen(s));
}

void *
spx_big_reserve(size_t bytes, bool *mapped)
{
	*mapped = false;
	if (bytes < SPX_BIG_ALLOC)
		return spx_xmalloc(bytes);
	const size_t unit = (size_t)2 << 20;
	/* From 2 MiB on the block starts on a 2 MiB boundary (mapped with a
	 * unit of slack, then trimmed): a huge page only backs an aligned
	 * 2 MiB range, and an unaligned 4 MiB arena chunk would hold just one. */
	size_t slack = bytes >= unit ? unit : 0;
	char *raw = mmap(NULL, bytes + slack, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (raw == MAP_FAILED)
		return NULL;
	char *p = raw;
	if (slack) {
		size_t page = (size_t)sysconf(_SC_PAGESIZE);
		p = (char *)(((uintptr_t)raw + unit - 1) & ~(uintptr_t)(unit - 1));
		char *end = p + (bytes + page - 1) / page * page;
		if (p > raw)
			munmap(raw, (size_t)(p - raw));
		if (raw + bytes + slack > end)
			munmap(end, (size_t)(raw + bytes + slack - end));
	}
#ifdef MADV_HUGEPAGE
	/* Huge pages where the system grants them on request: one fault per
	 * 2 MiB instead of 512 (about a tenth of `check`). */
	if (slack)
		madvise(p, bytes, MADV_HUGEPAGE);
#endif
	*mapped = true;
	return p;
}

void *
spx_big_alloc(size_t bytes, bool *mapped)
{
	void *p = spx_big_reserve(bytes, mapped);
	return p ? p : spx_xmalloc(bytes);
}

void
spx_big_free(void *p, size_t bytes, bool mapped)
{
	if (mapped)
		munmap(p, bytes);
	else
		free(p);
}

void
spx_big_release(void *p, size_t from, size_t to, bool mapped)
{
	if (!mapped)
		return;
	/* Whole pages.  The page holding byte `from` is dead up to it and
	 * was not released by the previous call (which stopped below it), so
	 * the range starts at that page.  A range inside a huge page splits
	 * it (once): the memory goes back while the tree is still growing. */
	const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t lo = ((uintptr_t)p + from) & ~(page - 1);
	uintptr_t hi = ((uintptr_t)p + to) & ~(page - 1);
	if (lo < (uintptr_t)p)
		lo = (uintptr_t)p;
	if (hi > lo)
		madvise((void *)lo, hi - lo, MADV_DONTNEED);
}

void
spx_prefault(void *p, size_t n)
{
#if defined(MADV_POPULATE_WRITE) && !defined(SPX_ASAN)
	/* Whole pages inside [p, p + n): one call instead of a fault per page
	 * (the contents stay; a kernel without the advice refuses it). */
	const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t lo = ((uintptr_t)p + page - 1) & ~(page - 1);
	uintptr_t hi = ((uintptr_t)p + n) & ~(page - 1);
	if (hi > lo)
		madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
#else
	(void)p, (void)n;
#endif
}

/* gcc inlines memset of a block whose size is a multiple of 8 as `rep
 * stos`, whose start costs more than libc's vector stores for the few
 * hundred bytes of a function's maps and contexts (sema's per-function
 * clears).  Here the size and alignment are unknown: a call to memset. */
void
spx_zero(void *p, size_t n)
{
	memset(p, 0, n);
}

char *
spx_vformat(const char *fmt, va_list ap)
{
	va_list again;
	va_copy(again, ap);
	int n = vsnprintf(NULL, 0, fmt, again);
	va_end(again);
	char *p = spx_xmalloc(n > 0 ? (size_t)n + 1 : 1);
	p[0] = '\0';
	if (n > 0)
		vsnprintf(p, (size_t)n + 1, fmt, ap);
	return p;
}

int
spx_edit_distance(const char *a, const char *b, bool transpose)
{
	size_t n = strlen(a), m = strlen(b);
	if (n > SPX_EDIT_MAX || m > SPX_EDIT_MAX)
		return SPX_EDIT_FAR;
	/* no distance passes the longer length: a band that wide is the
	 * whole table, and nothing is cut */
	return spx_edit_within(a, b, transpose, (int)(n > m ? n : m));
}

int
spx_edit_within(const char *a, const char *b, bool transpose, int max)
{
	size_t n = strlen(a), m = strlen(b);
	if (n > SPX_EDIT_MAX || m > SPX_EDIT_MAX)
		return max + 1;
	if ((n > m ? n - m : m - n) > (size_t)max)
		return max + 1;
	/* only the cells within max of the diagonal: a path of cost <= max
	 * never leaves that band; the cells beside it read as max + 1 */
	int far = max + 1;
	int d[SPX_EDIT_MAX + 1][SPX_EDIT_MAX + 1];
	for (size_t j = 0; j <= m; j++)
		d[0][j] = (int)j;
	for (size_t i = 1; i <= n; i++) {
		size_t lo = i > (size_t)max ? i - (size_t)max : 1, hi = i + (size_t)max < m ? i + (size_t)max : m;
		d[i][0] = (int)i;
		if (lo > 1)
			d[i][lo - 1] = far;
		int low = far;
		for (size_t j = lo; j <= hi; j++) {
			int v = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (j <= i - 1 + (size_t)max && d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (transpose && i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
			if (v < low)
				low = v;
		}
		if (d[i][0] < low)
			low = d[i][0];
		/* every path on passes through this row (a transposition from the
		 * row before it costs no less than the cell it skips) */
		if (low > max)
			return far;
	}
	return d[n][m] <= max ? d[n][m] : far;
}

uint32_t
spx_line_start(const char *src, uint32_t off)
{
	while (off > 0 && src[off - 1] != '\n')
		off--;
	return off;
}

SpxLine
spx_line_at(const char *src, uint32_t off)
{
	SpxLine l = { spx_line_start(src, off), 0, "    ", "\n" };
	while (src[l.start + l.indent] == ' ' || src[l.start + l.indent] == '\t')
		l.indent++;
	if (l.indent && src[l.start] == '\t')
		l.level = "\t";
	if (l.start >= 2 && src[l.start - 2] == '\r')
		l.eol = "\r\n";
	return l;
}

void
spx_near_offer(SpxNear *n, const char *cand)
{
	if (!cand || n->tie || spx_edit_distance(n->want, cand, true) != 1)
		return;
	if (n->best && strcmp(n->best, cand) != 0)
		n->tie = true;
	else
		n->best = cand;
}

const char *
spx_near_best(const SpxNear *n)
{
	return n->tie ? NULL : n->best;
}

int
spx_word_index(const char *const *words, size_t n, const char *word)
{
	for (size_t i = 0; word && i < n; i++)
		if (strcmp(word, words[i]) == 0)
			return (int)i;
	return -1;
}

const char *
spx_word_text(const char *const (*pairs)[2], size_t n, const char *key)
{
	for (size_t i = 0; key && i < n; i++)
		if (strcmp(key, pairs[i][0]) == 0)
			return pairs[i][1];
	return NULL;
}

int
spx_split_words(const char *text, char **words, int max, char **copy)
{
	if (copy)
		*copy = NULL;
	int n = 0;
	for (const char *p = text ? text : ""; *p; p++)
		if (*p != ' ' && *p != '\t' && (p[1] == ' ' || p[1] == '\t' || p[1] == '\0'))
			n++;
	if (!n || !words || max <= 0)
		return n;
	*copy = spx_xstrdup(text);
	int k = 0;
	char *save = NULL;
	for (char *w = strtok_r(*copy, " \t", &save); w && k < max; w = strtok_r(NULL, " \t", &save))
		words[k++] = w;
	return n;
}
