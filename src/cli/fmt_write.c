/*
 * fmt_write.c — how `fmt` replaces a file's bytes (docs/DECISIONS.md,
 * "Formatter").
 *
 * Input: the operand path, the bytes read from it and the canonical bytes.
 * The file written is the operand's target: symlinks are resolved (the link
 * stays a link, its target is formatted).  A read-only target is refused
 * (I101) before anything is written.  Two strategies:
 *
 *  - replace: the new bytes go to a sibling temporary file in the target's
 *    directory, which is given the target's mode (and owner and group, when
 *    they differ from ours), fsynced and renamed over the target (atomic: a
 *    reader sees the old or the new bytes).
 *  - rewrite in place, when renaming would change what the path means to
 *    others: the target has several hard links (a rename would split them)
 *    or is owned by another user, or its group cannot be given to the
 *    replacement (a rename would change its owner or group).  The
 *    original bytes are first staged in a sibling backup file (fsynced),
 *    then the target is overwritten and truncated, fsynced, and the backup
 *    removed.  If the rewrite fails, the original bytes are written back;
 *    the backup is kept (and named in the diagnostic) only if that fails too.
 *
 * SIGINT, SIGTERM, SIGHUP and SIGQUIT are blocked from the creation of the
 * temporary file until it is renamed or removed, so an interrupt is
 * delivered once the file holds the old or the new bytes and no temporary
 * file remains.
 *
 * Agent writes (`patch`, `fix`: cli_write_lock) add a lock and a base check.
 * The lock is an flock on a sibling lock file, so a writer killed by SIGKILL
 * (which cannot be blocked) releases it; its staging file then remains, and
 * is removed by the next writer once that one holds the lock (staging files
 * are only created under the lock, so any found then is stale).  Once the
 * new bytes are staged and synced, just before the rename, the target is
 * read again and must still hold the bytes the change was computed from,
 * and the write's guard (a project's manifest and other modules) must
 * pass (I207: nothing is written), so only the rename itself follows the
 * last check.  A rename is
 * atomic, so the target holds the old or the new bytes at every instant
 * (tests/patch-crash.sh kills writers at every step, SEMAPRAX_TEST_KILL_AT).
 */
/* realpath is XSI in glibc's headers. */
#define _XOPEN_SOURCE 700

#include "fmt_write.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static CliDiagSeen watch_seen;
static void *watch_ctx;

void
cli_watch_diags(CliDiagSeen seen, void *ctx)
{
	watch_seen = seen;
	watch_ctx = ctx;
}

bool cli_diag_json = false;

void
cli_emit_diags(const DiagSink *s)
{
	for (int i = 0; watch_seen && i < s->items.len; i++)
		watch_seen(watch_ctx, s, &s->items.items[i]);
	diag_emit_all(s, cli_diag_json);
}

void
cli_report_shown(DiagCode code, const char *path, const char *shown, const char *msg, const char *help)
{
	DiagSink s;
	diag_init(&s, path, NULL, 0);
	s.shown = shown;
	Diag *d = diag_report(&s, code, NULL, "%s", msg);
	if (d && help)
		diag_set_help(d, "%s", help);
	cli_emit_diags(&s);
	diag_free(&s);
}

void
cli_report(DiagCode code, const char *path, const char *msg, const char *help)
{
	cli_report_shown(code, path, NULL, msg, help);
}

static void
fmt_report(const char *path, const char *why, const char *help)
{
	char msg[PATH_MAX + 256];
	snprintf(msg, sizeof msg, "cannot write %s: %s", path, why);
	cli_report(DIAG_I101, path, msg, help);
}

/* Test hook (tests/patch-crash.sh): SEMAPRAX_TEST_KILL_AT=n kills the
 * process with SIGKILL at step n of an agent write. */
static void
kill_point(const FmtTarget *t, int n)
{
	if (!t->lock_path || t->lock_fd < 0)
		return;
	const char *v = getenv("SEMAPRAX_TEST_KILL_AT");
	if (v && atoi(v) == n)
		raise(SIGKILL);
}

/* Test hook (cli_test_estale) at an agent write's step `at`: "stage" (the
 * staging file's fsync) or "recheck" (the target's re-read in the commit
 * step). */
static bool
inject_estale(const FmtTarget *t, const char *at)
{
	return t->lock_path && t->lock_fd >= 0 && cli_test_estale(at);
}

/* No write permission for us, or no write bit at all (root bypasses the
 * bits, but a file nobody may write is still read-only): 0 when writable,
 * EROFS when its file system is mounted read-only (no mode change helps),
 * else EACCES. */
static int
read_only(const char *path, const struct stat *st)
{
	if (access(path, W_OK) != 0)
		return errno == EROFS ? EROFS : EACCES;
	return (st->st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0 ? EACCES : 0;
}

bool
cli_fmt_prepare(FmtTarget *t, const char *path)
{
	memset(t, 0, sizeof *t);
	t->lock_fd = -1;
	t->operand = path;
	t->path = realpath(path, NULL);
	if (!t->path || stat(t->path, &t->st) != 0 || !S_ISREG(t->st.st_mode)) {
		fmt_report(path, t->path ? "not a regular file" : strerror(errno),
		    "pass a regular .spx file; nothing was written");
		free(t->path);
		t->path = NULL;
		return false;
	}
	int ro = read_only(t->path, &t->st);
	if (ro) {
		if (ro == EROFS)
			fmt_report(path, "its file system is mounted read-only",
			    "remount the file system read-write, or work on a copy elsewhere; nothing was written");
		else
			fmt_report(path, "the file is read-only",
			    "make the file writable (e.g. `chmod u+w`) and run the command again; nothing was written");
		free(t->path);
		t->path = NULL;
		return false;
	}
	return true;
}

void
cli_fmt_release(FmtTarget *t)
{
	cli_write_unlock(t);
	free(t->path);
	t->path = NULL;
}

/* path's directory and file name (owned), split at the last slash. */
static void
split_path(const char *path, char **dir, char **name)
{
	const char *slash = strrchr(path, '/');
	*dir = slash ? spx_xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : spx_xstrdup(".");
	*name = spx_xstrdup(slash ? slash + 1 : path);
}

#define STAGE_TAG ".semaprax-stage-"
#define STAGE_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

/* Removes staging files a killed writer left beside the target. */
static void
sweep_stale(const char *path)
{
	char *dir, *name;
	split_path(path, &dir, &name);
	size_t plen = strlen(name) + strlen(STAGE_TAG) + 1;
	char *prefix = spx_xmalloc(plen + 1);
	snprintf(prefix, plen + 1, ".%s" STAGE_TAG, name);
	DIR *d = opendir(dir);
	if (d) {
		struct dirent *e;
		while ((e = readdir(d)) != NULL) {
			/* exactly a staging name (mkstemp's six [A-Za-z0-9]), a regular
			 * file: `.a.spx.semaprax-stage-notes.txt` is someone's */
			const char *x = e->d_name + strlen(prefix);
			if (strncmp(e->d_name, prefix, strlen(prefix)) != 0 || strlen(x) != 6 || strspn(x, STAGE_CHARS) != 6)
				continue;
			char *full = spx_xmalloc(strlen(dir) + strlen(e->d_name) + 2);
			sprintf(full, "%s/%s", dir, e->d_name);
			struct stat st;
			if (lstat(full, &st) == 0 && S_ISREG(st.st_mode))
				unlink(full);
			free(full);
		}
		closedir(d);
	}
	free(prefix);
	free(dir);
	free(name);
}

bool
cli_write_lock(FmtTarget *t)
{
	char *dir, *name;
	split_path(t->path, &dir, &name);
	t->lock_path = spx_xmalloc(strlen(dir) + strlen(name) + 24);
	sprintf(t->lock_path, "%s/.%s.semaprax-lock", dir, name);
	free(dir);
	free(name);
	for (int attempt = 0; attempt < 64; attempt++) {
		int fd = open(t->lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
		if (fd < 0) {
			fmt_report(t->operand, strerror(errno), "the directory must be writable for the lock file; nothing was written");
			break;
		}
		if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
			int e = errno;
			close(fd);
			if (e == EWOULDBLOCK) {
				char msg[PATH_MAX + 64];
				snprintf(msg, sizeof msg, "%s is locked by another semantic patch", t->operand);
				cli_report(DIAG_I205, t->operand, msg, "wait for the other command to finish, then run this one again");
			} else {
				fmt_report(t->operand, strerror(e), "the file system must support flock; nothing was written");
			}
			break;
		}
		/* the file we locked must still be the lock file (a releasing
		 * writer unlinks it before unlocking) */
		struct stat a, b;
		if (fstat(fd, &a) == 0 && stat(t->lock_path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
			t->lock_fd = fd;
			t->check_base = true;
			sweep_stale(t->path);
			return true;
		}
		close(fd);
	}
	free(t->lock_path);
	t->lock_path = NULL;
	return false;
}

void
cli_write_unlock(FmtTarget *t)
{
	if (t->lock_path && t->lock_fd >= 0) {
		unlink(t->lock_path);
		close(t->lock_fd);
		t->lock_fd = -1;
	}
	free(t->lock_path);
	t->lock_path = NULL;
}

static bool
write_all(int fd, const char *data, size_t len)
{
	size_t off = 0;
	while (off < len) {
		ssize_t w = write(fd, data + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		off += (size_t)w;
	}
	return true;
}

/* Removes the staged file tmp after a failure; false, errno kept. */
static bool
discard(const char *tmp)
{
	int e = errno;
	unlink(tmp);
	errno = e;
	return false;
}

/* A new temporary file beside path holding data (fsynced, mode applied);
 * its name is stored in tmp.  False on failure (nothing left behind). */
static bool
stage(const FmtTarget *t, char *tmp, size_t size, const char *data, size_t len, const struct stat *own)
{
	const char *path = t->path;
	if (t->lock_path && t->lock_fd >= 0) {
		char *dir, *name;
		split_path(path, &dir, &name);
		snprintf(tmp, size, "%s/.%s" STAGE_TAG "XXXXXX", dir, name);
		free(dir);
		free(name);
	} else {
		snprintf(tmp, size, "%s.fmt-XXXXXX", path);
	}
	int fd = mkstemp(tmp);
	if (fd < 0)
		return false;
	kill_point(t, 2);
	bool ok = write_all(fd, data, len / 2);
	kill_point(t, 3);   /* half written */
	ok = ok && write_all(fd, data + len / 2, len - len / 2);
	if (ok && own) {
		/* the replacement keeps the target's mode, owner and group */
		ok = fchmod(fd, own->st_mode & 07777) == 0;
		if (ok && (own->st_uid != geteuid() || own->st_gid != getegid()))
			ok = fchown(fd, own->st_uid, own->st_gid) == 0;
	}
	ok = ok && fsync(fd) == 0 && !inject_estale(t, "stage");
	if (ok) {
		ok = close(fd) == 0;
	} else {
		int e = errno;   /* the failure's cause, not close's */
		close(fd);
		errno = e;
	}
	kill_point(t, 4);
	return ok || discard(tmp);
}

/* Makes a rename in path's directory durable (best effort). */
static void
sync_parent(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? spx_xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : spx_xstrdup(".");
	int fd = open(dir, O_RDONLY);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(dir);
}

static bool
overwrite(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY);
	if (fd < 0)
		return false;
	bool ok = write_all(fd, data, len) && ftruncate(fd, (off_t)len) == 0 && fsync(fd) == 0;
	return close(fd) == 0 && ok;
}

FmtHolds
cli_file_compare(const char *path, const char *bytes, size_t len)
{
	/* O_NONBLOCK: a FIFO put in the file's place must not block the open */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT || errno == ENOTDIR ? FMT_HOLDS_CHANGED : FMT_HOLDS_ERROR;
	struct stat st;
	if (fstat(fd, &st) != 0) {
		int e = errno;
		close(fd);
		errno = e;
		return FMT_HOLDS_ERROR;
	}
	FmtHolds r = S_ISREG(st.st_mode) ? FMT_HOLDS_SAME : FMT_HOLDS_CHANGED;
	char buf[65536];
	size_t at = 0;
	while (r == FMT_HOLDS_SAME) {
		ssize_t n = read(fd, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = FMT_HOLDS_ERROR;
			break;
		}
		if (n == 0)
			break;
		if (at + (size_t)n > len || memcmp(buf, bytes + at, (size_t)n) != 0)
			r = FMT_HOLDS_CHANGED;
		at += (size_t)n;
	}
	int e = errno;
	close(fd);
	errno = e;
	return r == FMT_HOLDS_SAME && at != len ? FMT_HOLDS_CHANGED : r;
}

bool
cli_file_holds(const char *path, const char *bytes, size_t len)
{
	return cli_file_compare(path, bytes, len) == FMT_HOLDS_SAME;
}

bool
cli_test_estale(const char *at)
{
	const char *v = getenv("SEMAPRAX_TEST_ESTALE_AT");
	if (!v || strcmp(v, at) != 0)
		return false;
	errno = ESTALE;
	return true;
}

/* How an agent write's commit step ended (commit_ready, replace,
 * rewrite_in_place): an explicit result, so that no errno value (an NFS
 * ESTALE, say) can be mistaken for "changed since verification". */
typedef enum {
	COMMIT_OK,
	COMMIT_IO,        /* an I/O failure, errno says which */
	COMMIT_GUARDED,   /* the guard refused (it reported why) */
	COMMIT_CHANGED,   /* the target no longer holds the old bytes (I207) */
} CommitResult;

/* Test hook (tests/patch-test.sh, tests/project-test.sh):
 * SEMAPRAX_TEST_STOP_BEFORE_COMMIT=1 stops an agent write (SIGSTOP) once
 * its new bytes are staged and synced, just before its last checks, so a
 * script can edit a file there and continue it (SIGCONT). */
static void
stop_point(const FmtTarget *t)
{
	const char *v = getenv("SEMAPRAX_TEST_STOP_BEFORE_COMMIT");
	if (t->check_base && v && strcmp(v, "1") == 0)
		raise(SIGSTOP);
}

/* The last checks of an agent write, once staged, right before its
 * commit: the guard (the other files), then the target itself, which must
 * still hold old. */
static CommitResult
commit_ready(const FmtTarget *t, const char *old, size_t old_len)
{
	if (!t->check_base)
		return COMMIT_OK;
	stop_point(t);
	if (t->guard && !t->guard(t->guard_ctx))
		return COMMIT_GUARDED;
	if (inject_estale(t, "recheck"))
		return COMMIT_IO;
	switch (cli_file_compare(t->path, old, old_len)) {
	case FMT_HOLDS_SAME:
		return COMMIT_OK;
	case FMT_HOLDS_CHANGED:
		return COMMIT_CHANGED;
	case FMT_HOLDS_ERROR:
		break;
	}
	return COMMIT_IO;
}

/* Removes the staged file tmp after a failure ending as r; errno kept. */
static CommitResult
discard_as(const char *tmp, CommitResult r)
{
	discard(tmp);
	return r;
}

static CommitResult
replace(const FmtTarget *t, const char *old, size_t old_len, const char *data, size_t len, char *tmp, size_t size)
{
	if (!stage(t, tmp, size, data, len, &t->st))
		return COMMIT_IO;
	CommitResult r = commit_ready(t, old, old_len);
	if (r != COMMIT_OK)
		return discard_as(tmp, r);
	kill_point(t, 5);
	if (rename(tmp, t->path) != 0)
		return discard_as(tmp, COMMIT_IO);
	kill_point(t, 6);
	sync_parent(t->path);
	kill_point(t, 7);
	return COMMIT_OK;
}

/* Sets *kept when the backup had to be kept. */
static CommitResult
rewrite_in_place(const FmtTarget *t, const char *old, size_t old_len, const char *data, size_t len,
    char *tmp, size_t size, bool *kept)
{
	if (!stage(t, tmp, size, old, old_len, NULL))  /* mkstemp's 0600 */
		return COMMIT_IO;
	CommitResult r = commit_ready(t, old, old_len);
	if (r != COMMIT_OK)
		return discard_as(tmp, r);
	if (overwrite(t->path, data, len)) {
		unlink(tmp);
		return COMMIT_OK;
	}
	int e = errno;
	if (overwrite(t->path, old, old_len))
		unlink(tmp);
	else
		*kept = true;
	errno = e;
	return COMMIT_IO;
}

bool
cli_fmt_write(const FmtTarget *t, const char *old, size_t old_len, const char *data, size_t len)
{
	sigset_t block, saved;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGQUIT);
	sigprocmask(SIG_BLOCK, &block, &saved);

	kill_point(t, 1);
	size_t size = strlen(t->path) + 32;
	char *tmp = spx_xmalloc(size);
	bool kept = false;
	/* A replacement that cannot keep the owner and group (fchown refused)
	 * falls back to the in-place rewrite. */
	bool in_place = t->st.st_nlink > 1 || (t->st.st_uid != geteuid() && geteuid() != 0);
	CommitResult r = in_place ? COMMIT_IO : replace(t, old, old_len, data, len, tmp, size);
	if (in_place || (r == COMMIT_IO && errno == EPERM))
		r = rewrite_in_place(t, old, old_len, data, len, tmp, size, &kept);
	int e = errno;
	sigprocmask(SIG_SETMASK, &saved, NULL);

	switch (r) {
	case COMMIT_OK:
	case COMMIT_GUARDED:   /* the guard reported why */
		break;
	case COMMIT_CHANGED:
		cli_report(DIAG_I207, t->operand, "semantic patch source changed after its initial revision check",
		    "regenerate the patch against the current semantic graph");
		break;
	case COMMIT_IO:
		if (kept) {
			char help[PATH_MAX + 96];
			snprintf(help, sizeof help, "the file may be damaged: its original bytes are saved in %s", tmp);
			fmt_report(t->operand, strerror(e), help);
		} else {
			fmt_report(t->operand, strerror(e),
			    "check that the file and its directory are writable; the file is unchanged");
		}
		break;
	}
	free(tmp);
	return r == COMMIT_OK;
}
