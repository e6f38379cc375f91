/*
 * fs.c — path confinement of `file_read_text`, `file_write_new` and
 * `file_write_atomic` (LANGUAGE.md §5.1), the one copy both lanes use: the
 * interpreter (src/interp/fs.c) links it, the C lane embeds this text
 * (src/emit_c/rt/fs.h follows it).
 *
 * The path is the whole `str` view.  Admitted: 1..4,096 bytes, relative,
 * `/`-separated nonempty components other than `.` and `..`, no NUL, `\`
 * or `:` (non-UTF-8 bytes are fine).  Resolution (rt_fs_resolve) opens one
 * component at a time below the working directory with O_NOFOLLOW and
 * resolves a symbolic link itself, within the working directory: a link
 * whose target stays inside is followed, one that would leave it (an
 * absolute target, `..` above the root) is code 7, so no path reaches
 * outside.  The last component's type is read (lstat) before it is opened:
 * anything but a regular file (a FIFO, a device, a socket, a directory) is
 * refused unopened, and the file opened must still be that file.  Host errors map as the
 * reference maps them: ENOENT 2, EACCES/EPERM 6, ELOOP/ENOTDIR 7, else 5.
 *
 * Writes resolve the parent directory the same way (so it must exist), and
 * must lie below the write root the runner granted (`--allow-write=DIR`,
 * itself a valid path naming a directory reached without symbolic links;
 * code 6 outside it, checked on the resolved directory, so a link inside
 * DIR leading elsewhere is code 6 too).  A write never follows a link as
 * its last component.  `file_write_new` creates the file (O_CREAT|O_EXCL|
 * O_NOFOLLOW: an existing path, a dangling link included, is code 3);
 * `file_write_atomic` writes a fresh sibling `.spx-write-<pid>-<n>.tmp`,
 * fsyncs it and renames it over the target, which must be a regular file
 * or absent (code 7 otherwise: a link, a FIFO or a device is never opened
 * nor replaced).  A failed write removes what it created.
 */
#ifndef RT_API
#include "rt.h"
#include "domains.h"
#endif
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef RT_FS_PATH_MAX
#define RT_FS_PATH_MAX 4096u
#endif
#define RT_FS_DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)

/* rt_fs_path_valid (the check itself, freestanding) is in text.c: the Wasm
 * lane's runtime module runs it too. */

RT_API uint32_t
rt_fs_status(int e)
{
	switch (e) {
	case ENOENT: return RT_FS_NOT_FOUND;
	case EACCES: case EPERM: return RT_FS_DENIED;
	case ELOOP: case ENOTDIR: return RT_FS_FILE_TYPE;
	default: return RT_FS_IO;
	}
}

static void
rt_fs_close_dir(int d)
{
	if (d != AT_FDCWD)
		close(d);
}

/* Opens the directory d[0..n) below the root (components without links;
 * n == 0: the root itself, AT_FDCWD), or -1 with errno set. */
static int
rt_fs_open_dirs(const char *d, size_t n)
{
	char c[RT_FS_PATH_MAX + 1];
	int dir = AT_FDCWD;
	size_t start = 0;
	for (size_t i = 0; i <= n && n > 0; i++) {
		if (i < n && d[i] != '/')
			continue;
		memcpy(c, d + start, i - start);
		c[i - start] = '\0';
		int next = openat(dir, c, RT_FS_DIR_FLAGS);
		int e = errno;
		rt_fs_close_dir(dir);
		if (next < 0) {
			errno = e;
			return -1;
		}
		dir = next;
		start = i + 1;
	}
	return dir;
}

/* Where a path leads: the directory holding its last component. */
typedef struct RtFsWalk {
	int dir;                          /* that directory (AT_FDCWD: the root) */
	size_t dlen;                      /* its path below the root, dpath[0..dlen) */
	char dpath[RT_FS_PATH_MAX + 1];
	char name[RT_FS_PATH_MAX + 1];    /* the last component */
} RtFsWalk;

#define RT_FS_LINKS_MAX 40u

/*
 * Resolves the valid path p[0..n) below the root (the working directory)
 * one component at a time, never letting the kernel follow a link: each
 * directory is opened with O_NOFOLLOW, and a symbolic link met on the way
 * (and, with follow_last, as the last component) is read and its target
 * resolved in its place.  A target may use `.` and `..` but never leaves
 * the root: an absolute target, a `..` above the root, more than 40 links
 * or a target naming a directory where a file is wanted is code 7.  `..`
 * reopens the parent from the root by its link-free path (w->dpath).
 * On success w->dir is open (the caller closes it) and w->name is the last
 * component, which need not exist.
 */
static uint32_t
rt_fs_resolve(const uint8_t *p, size_t n, bool follow_last, RtFsWalk *w)
{
	char rest[2 * RT_FS_PATH_MAX + 2];
	char target[RT_FS_PATH_MAX + 1];
	size_t rn = n, at = 0;
	unsigned links = 0;
	uint32_t st = 0;
	memcpy(rest, p, n);
	w->dir = AT_FDCWD;
	w->dlen = 0;
	for (;;) {
		while (at < rn && rest[at] == '/')
			at++;
		size_t s = at;
		while (at < rn && rest[at] != '/')
			at++;
		size_t cn = at - s, k = at;
		while (k < rn && rest[k] == '/')
			k++;
		bool last = k == rn;
		if (cn == 0 || (cn == 1 && rest[s] == '.') || (cn == 2 && rest[s] == '.' && rest[s + 1] == '.')) {
			if (cn == 2) {   /* `..` of a link target: back to the parent, never above the root */
				if (w->dlen == 0) {
					st = RT_FS_FILE_TYPE;
					break;
				}
				while (w->dlen > 0 && w->dpath[w->dlen - 1] != '/')
					w->dlen--;
				if (w->dlen > 0)
					w->dlen--;
				rt_fs_close_dir(w->dir);
				w->dir = rt_fs_open_dirs(w->dpath, w->dlen);
				if (w->dir == -1) {
					w->dir = AT_FDCWD;
					st = rt_fs_status(errno);
					break;
				}
			}
			if (last) {   /* the path names a directory */
				st = RT_FS_FILE_TYPE;
				break;
			}
			continue;
		}
		memcpy(w->name, rest + s, cn);
		w->name[cn] = '\0';
		if (last && !follow_last)
			return 0;
		struct stat sb;
		if (fstatat(w->dir, w->name, &sb, AT_SYMLINK_NOFOLLOW) != 0) {
			if (last)
				return 0;   /* the caller reports a missing file */
			st = rt_fs_status(errno);
			break;
		}
		if (S_ISLNK(sb.st_mode)) {
			ssize_t tn = ++links > RT_FS_LINKS_MAX ? -1 : readlinkat(w->dir, w->name, target, sizeof target);
			size_t tail = rn - at;
			if (tn <= 0 || (size_t)tn >= sizeof target || target[0] == '/' || (size_t)tn + tail > sizeof rest) {
				st = RT_FS_FILE_TYPE;
				break;
			}
			memmove(rest + tn, rest + at, tail);
			memcpy(rest, target, (size_t)tn);
			rn = (size_t)tn + tail;
			at = 0;
			continue;
		}
		if (last)
			return 0;
		if (!S_ISDIR(sb.st_mode) || w->dlen + 1 + cn > RT_FS_PATH_MAX) {
			st = RT_FS_FILE_TYPE;
			break;
		}
		int next = openat(w->dir, w->name, RT_FS_DIR_FLAGS);
		if (next < 0) {
			st = rt_fs_status(errno);
			break;
		}
		rt_fs_close_dir(w->dir);
		w->dir = next;
		if (w->dlen)
			w->dpath[w->dlen++] = '/';
		memcpy(w->dpath + w->dlen, w->name, cn);
		w->dlen += cn;
	}
	rt_fs_close_dir(w->dir);
	w->dir = AT_FDCWD;
	return st;
}

RT_API uint32_t
rt_fs_open_regular(const uint8_t *p, size_t n, int *fd)
{
	RtFsWalk w;
	uint32_t st = rt_fs_resolve(p, n, true, &w);
	if (st)
		return st;
	/* The type is checked before anything is opened: opening a FIFO, even
	 * without blocking, would release a writer waiting for a reader, and
	 * opening a device can act on it. */
	struct stat lsb, sb;
	if (fstatat(w.dir, w.name, &lsb, AT_SYMLINK_NOFOLLOW) != 0) {
		int e = errno;
		rt_fs_close_dir(w.dir);
		return rt_fs_status(e);
	}
	if (!S_ISREG(lsb.st_mode)) {
		rt_fs_close_dir(w.dir);
		return RT_FS_FILE_TYPE;
	}
	int f = openat(w.dir, w.name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	int e = errno;
	rt_fs_close_dir(w.dir);
	if (f < 0)
		return rt_fs_status(e);
	if (fstat(f, &sb) != 0)
		st = rt_fs_status(errno);
	else if (!S_ISREG(sb.st_mode) || sb.st_dev != lsb.st_dev || sb.st_ino != lsb.st_ino)
		st = RT_FS_FILE_TYPE;   /* swapped for another file since */
	if (st) {
		close(f);
		return st;
	}
	*fd = f;
	return 0;
}

RT_API bool
rt_fs_below(const uint8_t *p, size_t n, const char *root)
{
	if (!root || !*root)
		return true;
	size_t rn = strlen(root);
	return n > rn && memcmp(p, root, rn) == 0 && p[rn] == '/';
}

RT_API bool
rt_fs_root_valid(const char *root)
{
	size_t n = strlen(root);
	if (!rt_fs_path_valid((const uint8_t *)root, n))
		return false;
	int d = rt_fs_open_dirs(root, n);
	if (d == -1)
		return false;
	rt_fs_close_dir(d);
	return true;
}

RT_API size_t
rt_fs_root_refusal(const char *root, char *out, size_t cap)
{
	struct stat st;
	size_t n = strlen(root);
	bool valid = rt_fs_path_valid((const uint8_t *)root, n);
	uint32_t why = 0;   /* rt_fs_root_line's: 1 missing, 2 a file, else the rule */
	if (valid && lstat(root, &st) != 0)
		why = errno == ENOENT ? 1 : 0;
	else if (valid && S_ISREG(st.st_mode))
		why = 2;
	return rt_fs_root_line((const uint8_t *)root, n, why, out, cap);
}

/* Writes all of d[0..n) to fd; 0 or a status. */
static uint32_t
rt_fs_write_all(int fd, const uint8_t *d, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, d, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? rt_fs_status(errno) : RT_FS_IO;
		d += w;
		n -= (size_t)w;
	}
	return 0;
}

RT_API uint32_t
rt_fs_write(const uint8_t *p, size_t n, const uint8_t *d, size_t dn, bool atomic, const char *root)
{
	static unsigned long serial;
	char tmp[64];
	RtFsWalk w;
	uint32_t st = rt_fs_resolve(p, n, false, &w);
	if (st)
		return st;
	size_t rn = root ? strlen(root) : 0;
	if (rn && !(w.dlen >= rn && memcmp(w.dpath, root, rn) == 0 && (w.dlen == rn || w.dpath[rn] == '/'))) {
		rt_fs_close_dir(w.dir);   /* a link led out of the write root */
		return RT_FS_DENIED;
	}
	const char *target = w.name;
	if (atomic) {
		struct stat lsb;
		if (fstatat(w.dir, w.name, &lsb, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(lsb.st_mode)) {
			rt_fs_close_dir(w.dir);
			return RT_FS_FILE_TYPE;
		}
		snprintf(tmp, sizeof tmp, ".spx-write-%ld-%lu.tmp", (long)getpid(), ++serial);
		target = tmp;
	}
	int f = openat(w.dir, target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0666);
	if (f < 0) {
		int e = errno;
		rt_fs_close_dir(w.dir);
		return e == EEXIST ? RT_FS_EXISTS : rt_fs_status(e);
	}
	st = rt_fs_write_all(f, d, dn);
	if (!st && atomic && fsync(f) != 0)
		st = RT_FS_IO;
	if (close(f) != 0 && !st)
		st = RT_FS_IO;
	if (!st && atomic && renameat(w.dir, tmp, w.dir, w.name) != 0)
		st = errno == EISDIR ? RT_FS_FILE_TYPE : rt_fs_status(errno);
	if (st)
		unlinkat(w.dir, target, 0);
	rt_fs_close_dir(w.dir);
	return st;
}
