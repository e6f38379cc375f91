/*
 * mapfile.h — a large source file mapped read-only instead of copied into
 * the heap (docs/DECISIONS.md "Memory and process cost"): once the parse is
 * done, mapfile_drop gives the pages back (the process's RSS falls by the
 * file's size) and a later read (a diagnostic's excerpt, a name the checker
 * copies) faults them in again from the page cache.
 *
 * A file truncated by another process while it is mapped would make such a
 * read fault (SIGBUS): the mapping's range is registered, and that fault
 * ends the process with a one-line message and status 1 instead of a crash.
 */
#ifndef SPX_MAPFILE_H
#define SPX_MAPFILE_H

#include "common.h"

/* Files from this size on are mapped (smaller ones are read). */
#define MAPFILE_MIN ((size_t)256 << 10)

/* Maps len bytes of the open regular file fd (path names it in the fault
 * message) read-only, followed by a NUL byte; NULL when the system refuses
 * (the caller reads the file instead). */
char *mapfile_map(int fd, size_t len, const char *path);
/* Gives the mapping's resident pages back; its bytes stay readable. */
void mapfile_drop(const char *p, size_t len);
/* Gives back the whole pages of p[from, to) (p a mapping's start). */
void mapfile_drop_range(const char *p, size_t from, size_t to);
void mapfile_free(char *p, size_t len);

#endif
