/*
 * fs.c — path confinement of `file_read_text`, `file_write_new` and
 * `file_write_atomic` (LANGUAGE.md §5.1), the one copy both lanes use: the
 * interpreter (src/interp/fs.c) links it, the C lane embeds this text
 * (src/emit_c/rt/fs.h follows it).
 *
 * The path is the whole `str` view.  Admitted: 1..4,096 bytes, relative,
 * `/`-separated nonempty components other than `.` and `..`, no NUL, `\`
 * or `:` (non-UTF-8 bytes are fine).  Resolution opens one component at a
 * time below the working directory with O_NOFOLLOW, so no path — absolute,
 * `..`, or through a symbolic link — reaches outside it.  The last
 * component's type is read (lstat) before it is opened: anything but a
 * regular file (a FIFO, a device, a socket, a link) is refused unopened,
 * and the file opened must still be that file.  Host errors map as the
 * reference maps them: ENOENT 2, EACCES/EPERM 6, ELOOP/ENOTDIR 7, else 5.
 *
 * Writes resolve the parent directory the same way (so it must exist), and
 * must lie below the write root the runner granted (`--allow-write=DIR`,
 * itself a valid path naming a directory reached without symbolic links;
 * code 6 outside it).  `file_write_new` creates the file (O_CREAT|O_EXCL|
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

#define RT_FS_PATH_MAX 4096u
#define RT_FS_DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)

RT_API bool
rt_fs_path_valid(const uint8_t *p, size_t n)
{
	if (n == 0 || n > RT_FS_PATH_MAX)
		return false;
	size_t start = 0;
	for (size_t i = 0; i <= n; i++) {
		if (i < n && p[i] != '/') {
			if (p[i] == 0 || p[i] == '\\' || p[i] == ':')
				return false;
			continue;
		}
		size_t w = i - start;
		if (w == 0 || (w == 1 && p[start] == '.') || (w == 2 && p[start] == '.' && p[start + 1] == '.'))
			return false;
		start = i + 1;
	}
	return true;
}

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

/* Opens the parent directory of the valid path p[0..n) one component at a
 * time (O_NOFOLLOW) into *dir (AT_FDCWD for a one-component path) and
 * copies the last component into name.  0 or a filesystem status. */
static uint32_t
rt_fs_parent(const uint8_t *p, size_t n, int *dir, char name[RT_FS_PATH_MAX + 1])
{
	int d = AT_FDCWD;
	size_t start = 0;
	for (size_t i = 0; i <= n; i++) {
		if (i < n && p[i] != '/')
			continue;
		memcpy(name, p + start, i - start);
		name[i - start] = '\0';
		if (i == n)
			break;
		int next = openat(d, name, RT_FS_DIR_FLAGS);
		int e = errno;
		rt_fs_close_dir(d);
		if (next < 0)
			return rt_fs_status(e);
		d = next;
		start = i + 1;
	}
	*dir = d;
	return 0;
}

RT_API uint32_t
rt_fs_open_regular(const uint8_t *p, size_t n, int *fd)
{
	char name[RT_FS_PATH_MAX + 1];
	int dir;
	uint32_t st = rt_fs_parent(p, n, &dir, name);
	if (st)
		return st;
	/* The type is checked before anything is opened: opening a FIFO, even
	 * without blocking, would release a writer waiting for a reader, and
	 * opening a device can act on it. */
	struct stat lsb, sb;
	if (fstatat(dir, name, &lsb, AT_SYMLINK_NOFOLLOW) != 0) {
		int e = errno;
		rt_fs_close_dir(dir);
		return rt_fs_status(e);
	}
	if (!S_ISREG(lsb.st_mode)) {
		rt_fs_close_dir(dir);
		return RT_FS_FILE_TYPE;
	}
	int f = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	int e = errno;
	rt_fs_close_dir(dir);
	if (f < 0)
		return rt_fs_status(e);
	st = 0;
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
	char name[RT_FS_PATH_MAX + 1];
	int dir;
	if (rt_fs_parent((const uint8_t *)root, n, &dir, name))
		return false;
	int d = openat(dir, name, RT_FS_DIR_FLAGS);
	rt_fs_close_dir(dir);
	if (d < 0)
		return false;
	close(d);
	return true;
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
rt_fs_write(const uint8_t *p, size_t n, const uint8_t *d, size_t dn, bool atomic)
{
	static unsigned long serial;
	char name[RT_FS_PATH_MAX + 1], tmp[64];
	int dir;
	uint32_t st = rt_fs_parent(p, n, &dir, name);
	if (st)
		return st;
	const char *target = name;
	if (atomic) {
		struct stat lsb;
		if (fstatat(dir, name, &lsb, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(lsb.st_mode)) {
			rt_fs_close_dir(dir);
			return RT_FS_FILE_TYPE;
		}
		snprintf(tmp, sizeof tmp, ".spx-write-%ld-%lu.tmp", (long)getpid(), ++serial);
		target = tmp;
	}
	int f = openat(dir, target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0666);
	if (f < 0) {
		int e = errno;
		rt_fs_close_dir(dir);
		return e == EEXIST ? RT_FS_EXISTS : rt_fs_status(e);
	}
	st = rt_fs_write_all(f, d, dn);
	if (!st && atomic && fsync(f) != 0)
		st = RT_FS_IO;
	if (close(f) != 0 && !st)
		st = RT_FS_IO;
	if (!st && atomic && renameat(dir, tmp, dir, name) != 0)
		st = errno == EISDIR ? RT_FS_FILE_TYPE : rt_fs_status(errno);
	if (st)
		unlinkat(dir, target, 0);
	rt_fs_close_dir(dir);
	return st;
}
