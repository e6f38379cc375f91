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
 */
/* realpath is XSI in glibc's headers. */
#define _XOPEN_SOURCE 700

#include "fmt_write.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void
fmt_report(const char *path, const char *why, const char *help)
{
	DiagSink s;
	diag_init(&s, path, NULL, 0);
	Diag *d = diag_report(&s, DIAG_I101, NULL, "cannot write %s: %s", path, why);
	diag_set_help(d, "%s", help);
	diag_emit_all(&s, false);
	diag_free(&s);
}

/* No write permission for us, or no write bit at all (root bypasses the
 * bits, but a file nobody may write is still read-only). */
static bool
read_only(const char *path, const struct stat *st)
{
	return (st->st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0 || access(path, W_OK) != 0;
}

bool
cli_fmt_prepare(FmtTarget *t, const char *path)
{
	memset(t, 0, sizeof *t);
	t->operand = path;
	t->path = realpath(path, NULL);
	if (!t->path || stat(t->path, &t->st) != 0 || !S_ISREG(t->st.st_mode)) {
		fmt_report(path, t->path ? "not a regular file" : strerror(errno),
		    "pass a regular .spx file; nothing was written");
		free(t->path);
		t->path = NULL;
		return false;
	}
	if (read_only(t->path, &t->st)) {
		fmt_report(path, "the file is read-only",
		    "make the file writable (e.g. `chmod u+w`) to format it; nothing was written");
		free(t->path);
		t->path = NULL;
		return false;
	}
	return true;
}

void
cli_fmt_release(FmtTarget *t)
{
	free(t->path);
	t->path = NULL;
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

/* A new temporary file beside path holding data (fsynced, mode applied);
 * its name is stored in tmp.  False on failure (nothing left behind). */
static bool
stage(char *tmp, size_t size, const char *path, const char *data, size_t len, const struct stat *own)
{
	snprintf(tmp, size, "%s.fmt-XXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0)
		return false;
	bool ok = write_all(fd, data, len);
	if (ok && own) {
		/* the replacement keeps the target's mode, owner and group */
		ok = fchmod(fd, own->st_mode & 07777) == 0;
		if (ok && (own->st_uid != geteuid() || own->st_gid != getegid()))
			ok = fchown(fd, own->st_uid, own->st_gid) == 0;
	}
	ok = ok && fsync(fd) == 0;
	ok = close(fd) == 0 && ok;
	if (!ok) {
		int e = errno;
		unlink(tmp);
		errno = e;
	}
	return ok;
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

static bool
replace(const FmtTarget *t, const char *data, size_t len, char *tmp, size_t size)
{
	if (!stage(tmp, size, t->path, data, len, &t->st))
		return false;
	if (rename(tmp, t->path) != 0) {
		int e = errno;
		unlink(tmp);
		errno = e;
		return false;
	}
	sync_parent(t->path);
	return true;
}

/* Returns false with *kept set when the backup had to be kept. */
static bool
rewrite_in_place(const FmtTarget *t, const char *old, size_t old_len, const char *data, size_t len,
    char *tmp, size_t size, bool *kept)
{
	if (!stage(tmp, size, t->path, old, old_len, NULL))  /* mkstemp's 0600 */
		return false;
	if (overwrite(t->path, data, len)) {
		unlink(tmp);
		return true;
	}
	int e = errno;
	if (overwrite(t->path, old, old_len))
		unlink(tmp);
	else
		*kept = true;
	errno = e;
	return false;
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

	size_t size = strlen(t->path) + 16;
	char *tmp = spx_xmalloc(size);
	bool kept = false, ok;
	/* A replacement that cannot keep the owner and group (fchown refused)
	 * falls back to the in-place rewrite. */
	bool in_place = t->st.st_nlink > 1 || (t->st.st_uid != geteuid() && geteuid() != 0);
	ok = !in_place && replace(t, data, len, tmp, size);
	if (!ok && (in_place || errno == EPERM))
		ok = rewrite_in_place(t, old, old_len, data, len, tmp, size, &kept);
	int e = errno;
	sigprocmask(SIG_SETMASK, &saved, NULL);

	if (!ok && kept) {
		char help[PATH_MAX + 96];
		snprintf(help, sizeof help, "the file may be damaged: its original bytes are saved in %s", tmp);
		fmt_report(t->operand, strerror(e), help);
	} else if (!ok) {
		fmt_report(t->operand, strerror(e),
		    "check that the file and its directory are writable; the file is unchanged");
	}
	free(tmp);
	return ok;
}
