/*
 * fs.c — path confinement of `file_read_text` (LANGUAGE.md §5.1), the one
 * copy both lanes use: the interpreter (src/interp/fs.c) links it, the C
 * lane embeds this text (src/emit_c/rt/fs.h follows it).
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
 */
#ifndef RT_API
#include "rt.h"
#include "domains.h"
#endif
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
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

RT_API uint32_t
rt_fs_open_regular(const uint8_t *p, size_t n, int *fd)
{
	char name[RT_FS_PATH_MAX + 1];
	int dir = AT_FDCWD;
	size_t start = 0;
	for (size_t i = 0; i <= n; i++) {   /* open the parent, component by component */
		if (i < n && p[i] != '/')
			continue;
		memcpy(name, p + start, i - start);
		name[i - start] = '\0';
		if (i == n)
			break;
		int next = openat(dir, name, RT_FS_DIR_FLAGS);
		int e = errno;
		rt_fs_close_dir(dir);
		if (next < 0)
			return rt_fs_status(e);
		dir = next;
		start = i + 1;
	}
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
	uint32_t st = 0;
	if (fstat(f, &sb) != 0)
		st = rt_fs_status(errno);
	else if (!S_ISREG(sb.st_mode) || sb.st_dev != lsb.st_dev || sb.st_ino != lsb.st_ino)
		st = 7;   /* swapped for another file since */
	if (st) {
		close(f);
		return st;
	}
	*fd = f;
	return 0;
}
