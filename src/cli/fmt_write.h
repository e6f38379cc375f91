/*
 * fmt_write.h — replacing a source file's bytes for `fmt` (fmt_write.c):
 * symlinks resolved, hard links and owners kept, read-only files refused,
 * no temporary file left behind by an interrupt.
 */
#ifndef SPX_CLI_FMT_WRITE_H
#define SPX_CLI_FMT_WRITE_H

#include <sys/stat.h>

#include "cli.h"

typedef struct FmtTarget {
	const char *operand;  /* the path as given (borrowed), for diagnostics */
	char *path;           /* owned: the resolved file written (no symlinks) */
	struct stat st;       /* the target's status when prepared */
} FmtTarget;

/* Resolves path and checks the target is a writable regular file; reports
 * I101 and returns false otherwise (nothing is written). */
bool cli_fmt_prepare(FmtTarget *t, const char *path);
void cli_fmt_release(FmtTarget *t);

/* Replaces the target's bytes (old: the bytes it held when read) with
 * data; reports I101 and returns false on failure. */
bool cli_fmt_write(const FmtTarget *t, const char *old, size_t old_len, const char *data, size_t len);

#endif
