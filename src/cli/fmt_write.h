/*
 * fmt_write.h — replacing a source file's bytes for `fmt`, `patch` and
 * `fix` (fmt_write.c): symlinks resolved, hard links and owners kept,
 * read-only files refused, no temporary file left behind by an interrupt;
 * for the agent writes, a lock beside the file and a last check that the
 * file still holds the bytes the change was computed from.
 */
#ifndef SPX_CLI_FMT_WRITE_H
#define SPX_CLI_FMT_WRITE_H

#include <sys/stat.h>

#include "cli.h"

/* An agent write's last check of other files (FmtTarget.guard), e.g. a
 * project's manifest and other modules: called under the lock once the new
 * bytes are staged and synced, right before the target's own base check and
 * the commit (rename or in-place rewrite).  False stops the write, nothing
 * written; the guard has reported why. */
typedef bool (*FmtGuard)(void *ctx);

typedef struct FmtTarget {
	const char *operand;  /* the path as given (borrowed), for diagnostics */
	char *path;           /* owned: the resolved file written (no symlinks) */
	struct stat st;       /* the target's status when prepared */
	/* agent writes (cli_write_lock): */
	int lock_fd;          /* the held lock, or -1 */
	char *lock_path;      /* owned: <dir>/.<name>.semaprax-lock */
	bool check_base;      /* the write re-reads the target before committing:
	                       * it must still hold `old` (I207 otherwise) */
	FmtGuard guard;       /* with check_base: the other files' check, or NULL */
	void *guard_ctx;
} FmtTarget;

/* Resolves path and checks the target is a writable regular file; reports
 * I101 and returns false otherwise (nothing is written). */
bool cli_fmt_prepare(FmtTarget *t, const char *path);
void cli_fmt_release(FmtTarget *t);

/*
 * Takes the agent-write lock of a prepared target: an flock on the sibling
 * `.<name>.semaprax-lock` (released by the kernel if the process dies), I205
 * when another process holds it.  Under the lock, staging files a killed
 * writer left behind are removed, and later writes check the base bytes
 * and stage as `.<name>.semaprax-stage-XXXXXX`.  cli_write_unlock removes
 * the lock file and releases it (also done by cli_fmt_release).
 */
bool cli_write_lock(FmtTarget *t);
void cli_write_unlock(FmtTarget *t);

/* Does the file at path hold exactly bytes[0..len)?  CHANGED for other
 * bytes, a file that is gone (ENOENT, ENOTDIR) or is not a regular file;
 * ERROR, with errno set, when it does not open or read (EIO, an NFS ESTALE):
 * an I/O error, not a change.  Never blocks on a FIFO.  cli_file_holds:
 * SAME or not. */
typedef enum { FMT_HOLDS_SAME, FMT_HOLDS_CHANGED, FMT_HOLDS_ERROR } FmtHolds;
FmtHolds cli_file_compare(const char *path, const char *bytes, size_t len);
bool cli_file_holds(const char *path, const char *bytes, size_t len);

/* Test hook (tests/patch-test.sh, tests/project-test.sh):
 * SEMAPRAX_TEST_ESTALE_AT=<at> makes an agent write's step `at` fail with
 * errno ESTALE (what NFS reports for a stale file handle), a real I/O error
 * that must be reported as one (I101), never as I207.  Steps: "stage" (the
 * staging file's fsync), "recheck" (the target's re-read in the commit
 * step), "guard" (a project write's re-read of its manifest).  True, errno
 * set, when the failure is injected at `at`. */
bool cli_test_estale(const char *at);

/* Replaces the target's bytes (old: the bytes it held when read) with
 * data; reports I101 and returns false on failure. */
bool cli_fmt_write(const FmtTarget *t, const char *old, size_t old_len, const char *data, size_t len);

#endif
