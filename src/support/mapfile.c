/*
 * mapfile.c — read-only source mappings (mapfile.h).
 */
/* MAP_ANONYMOUS, MADV_DONTNEED and SA_SIGINFO's siginfo fields need more than POSIX 2008's headers. */
#define _DEFAULT_SOURCE

#include "mapfile.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* The live mappings a SIGBUS may come from (a handler can only read
 * static state).  Past the table's size a file is read instead. */
#define MAP_SLOTS 64
static struct { const char *p; size_t span; const char *path; } map_slot[MAP_SLOTS];
static volatile sig_atomic_t map_handler_set;

static size_t
map_span(size_t len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	/* the file's pages and one zeroed page more: a NUL always follows,
	 * even when the file grows past its last page's len (what a reader
	 * bounded by len never sees, one looking for the NUL stops there) */
	return (len + page - 1) / page * page + page;
}

static void
on_sigbus(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	const char *a = si ? (const char *)si->si_addr : NULL;
	for (int i = 0; a && i < MAP_SLOTS; i++) {
		if (map_slot[i].p && a >= map_slot[i].p && a < map_slot[i].p + map_slot[i].span) {
			static const char head[] = "semaprax: error: ";
			static const char tail[] = " was truncated while it was being read\n";
			ssize_t w = write(2, head, sizeof head - 1);
			w = write(2, map_slot[i].path, strlen(map_slot[i].path));
			w = write(2, tail, sizeof tail - 1);
			(void)w;
			_exit(1);
		}
	}
	/* not a source mapping's fault: the default action */
	signal(sig, SIG_DFL);
	raise(sig);
}

char *
mapfile_map(int fd, size_t len, const char *path)
{
	int slot = -1;
	for (int i = 0; i < MAP_SLOTS && slot < 0; i++)
		if (!map_slot[i].p)
			slot = i;
	if (slot < 0 || len == 0)
		return NULL;
	if (!map_handler_set) {
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_sigaction = on_sigbus;
		sa.sa_flags = SA_SIGINFO;
		sigemptyset(&sa.sa_mask);
		if (sigaction(SIGBUS, &sa, NULL) != 0)
			return NULL;
		map_handler_set = 1;
	}
	size_t span = map_span(len);
	/* Zeroed anonymous pages first, the file over them: past the file's
	 * last byte (the NUL, a page-sized file's next page) reads zero. */
	char *p = mmap(NULL, span, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	if (mmap(p, len, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0) == MAP_FAILED) {
		munmap(p, span);
		return NULL;
	}
	map_slot[slot].path = spx_xstrdup(path);
	map_slot[slot].span = span;
	map_slot[slot].p = p;
	return p;
}

void
mapfile_drop(const char *p, size_t len)
{
	madvise((void *)p, map_span(len), MADV_DONTNEED);
}

void
mapfile_drop_range(const char *p, size_t from, size_t to)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	from = (from + page - 1) / page * page;
	to = to / page * page;
	if (to > from)
		madvise((void *)(p + from), to - from, MADV_DONTNEED);
}

void
mapfile_free(char *p, size_t len)
{
	for (int i = 0; i < MAP_SLOTS; i++)
		if (map_slot[i].p == p) {
			map_slot[i].p = NULL;
			free((char *)map_slot[i].path);
			map_slot[i].path = NULL;
		}
	munmap(p, map_span(len));
}
