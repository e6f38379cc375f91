/* ---- SEMAPRAX native runtime: file_read_text (fs.read; LANGUAGE.md §5.1) ---- */
/*
 * Included only in programs whose route grants fs.read and that call
 * file_read_text.  Same semantics as the interpreter's src/interp/fs.c:
 * every read first reserves 65,536 bytes of the run's 1,048,576-byte budget
 * (never refunded: the 17th read fails, code 4), then checks the path (the
 * whole view; 1..4,096 bytes, relative, nonempty components other than
 * `.`/`..`, no NUL, `\` or `:`), then reads at most 65,536 bytes, resolving
 * one component at a time below the working directory with O_NOFOLLOW; the
 * last component's type is read unopened (a FIFO or device is refused
 * without being opened).
 * semaprax.filesystem.v1: 1 invalid path, 2 not found, 4 a bound exceeded,
 * 5 I/O failure, 6 access denied, 7 not a regular file (or a symbolic link
 * on the way); text that is not UTF-8 is text.v1 code 3.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define SPX_FS_PATH_MAX 4096u
#define SPX_FS_FILE_MAX 65536u
#define SPX_FS_DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)

static uint64_t spx_fs_reserved;   /* bytes reserved so far (budget 1 MiB) */

_Noreturn SPX_RT void
spx_fs_fail(int code)
{
	spx_fail("semaprax.filesystem.v1", code);
}

SPX_RT int
spx_fs_status(int e)
{
	switch (e) {
	case ENOENT: return 2;
	case EACCES: case EPERM: return 6;
	case ELOOP: case ENOTDIR: return 7;
	default: return 5;
	}
}

/* Reserves n bytes of the run's budget; status 4 past it. */
SPX_RT void
spx_fs_reserve(uint64_t n)
{
	spx_fs_reserved += n;
	if (spx_fs_reserved > 1048576u)
		spx_fs_fail(4);
}

SPX_RT bool
spx_fs_valid_path(const uint8_t *p, size_t n)
{
	if (n == 0 || n > SPX_FS_PATH_MAX)
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

SPX_RT void
spx_fs_close_dir(int d)
{
	if (d != AT_FDCWD)
		close(d);
}

/*
 * Opens the directory holding the last component of a valid path (the
 * working directory is AT_FDCWD) and copies that component into
 * name[SPX_FS_PATH_MAX + 1].  Returns 0 or a status.
 */
SPX_RT int
spx_fs_open_parent(spx_view path, int *dir, char *name)
{
	int d = AT_FDCWD;
	size_t start = 0;
	for (size_t i = 0; i <= path.n; i++) {
		if (i < path.n && path.p[i] != '/')
			continue;
		memcpy(name, path.p + start, i - start);
		name[i - start] = '\0';
		if (i == path.n)
			break;
		int next = openat(d, name, SPX_FS_DIR_FLAGS);
		int e = errno;
		spx_fs_close_dir(d);
		if (next < 0)
			return spx_fs_status(e);
		d = next;
		start = i + 1;
	}
	*dir = d;
	return 0;
}

/* ---- reads ---- */

/* Reads a regular file of at most max bytes into *out; 0 or a status. */
SPX_RT int
spx_fs_read_file(spx_view path, size_t max, spx_str *out)
{
	char name[SPX_FS_PATH_MAX + 1];
	int dir = AT_FDCWD;
	int st = spx_fs_open_parent(path, &dir, name);
	if (st)
		return st;
	/* type first, unopened: opening a FIFO would release a waiting writer */
	struct stat lsb, sb;
	if (fstatat(dir, name, &lsb, AT_SYMLINK_NOFOLLOW) != 0) {
		int le = errno;
		spx_fs_close_dir(dir);
		return spx_fs_status(le);
	}
	if (!S_ISREG(lsb.st_mode)) {
		spx_fs_close_dir(dir);
		return 7;
	}
	int fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	int e = errno;
	spx_fs_close_dir(dir);
	if (fd < 0)
		return spx_fs_status(e);
	if (fstat(fd, &sb) != 0)
		st = spx_fs_status(errno);
	else if (!S_ISREG(sb.st_mode) || sb.st_dev != lsb.st_dev || sb.st_ino != lsb.st_ino)
		st = 7;
	spx_str b = { NULL, 0 };
	if (!st)
		b.p = spx_alloc(max + 1);
	while (!st) {
		ssize_t r = read(fd, b.p + b.n, max + 1 - b.n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			st = 5;
		else if (r == 0)
			break;
		else if ((b.n += (size_t)r) > max)
			st = 4;
	}
	close(fd);
	if (st)
		spx_str_free(&b);
	else
		*out = b;
	return st;
}

SPX_RT spx_str
spx_file_read_text(spx_view path)
{
	spx_fs_reserve(SPX_FS_FILE_MAX);
	if (!spx_fs_valid_path(path.p, path.n))
		spx_fs_fail(1);
	spx_str s = { NULL, 0 };
	int st = spx_fs_read_file(path, SPX_FS_FILE_MAX, &s);
	if (st)
		spx_fs_fail(st);
	if (!spx_utf8_valid(s.p, s.n))
		spx_fail("semaprax.text.v1", 3);
	return s;
}
