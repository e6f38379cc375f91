/* ---- SEMAPRAX native runtime: file_read_text (fs.read; LANGUAGE.md §5.1) ---- */
/*
 * Included only in programs whose module permits fs.read and that call
 * file_read_text.  The relative path is resolved one component at a time
 * with openat(O_NOFOLLOW), so `..`, absolute paths and symbolic links
 * cannot leave the working directory.  semaprax.filesystem.v1: 1 invalid
 * relative path, 2 not found, 4 over 65,536 bytes, 5 I/O failure, 6 access
 * denied, 7 not a regular file; text that is not UTF-8 is text.v1 code 3.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

SPX_RT int
spx_fs_status(int e)
{
	if (e == ENOENT || e == ENOTDIR)
		return 2;
	if (e == EACCES || e == EPERM || e == ELOOP)
		return 6;
	return 5;
}

/* A descriptor for path below the working directory, or -status. */
SPX_RT int
spx_open_below(spx_view path)
{
	if (path.n == 0 || path.n > 4096 || path.p[0] == '/')
		return -1;
	for (size_t i = 0; i < path.n; i++)
		if (path.p[i] == 0 || path.p[i] == '\\')
			return -1;
	char part[4097];
	int dir = AT_FDCWD;
	for (size_t at = 0;;) {
		size_t end = at;
		while (end < path.n && path.p[end] != '/')
			end++;
		size_t len = end - at;
		bool dots = (len == 1 && path.p[at] == '.') || (len == 2 && path.p[at] == '.' && path.p[at + 1] == '.');
		if (len == 0 || dots) {
			if (dir != AT_FDCWD)
				close(dir);
			return -1;
		}
		memcpy(part, path.p + at, len);
		part[len] = '\0';
		bool last = end == path.n;
		int fd = openat(dir, part, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | (last ? O_NONBLOCK : O_DIRECTORY));
		int e = errno;
		if (dir != AT_FDCWD)
			close(dir);
		if (fd < 0)
			return -spx_fs_status(e);
		if (last)
			return fd;
		dir = fd;
		at = end + 1;
	}
}

SPX_RT bool
spx_utf8_valid(const uint8_t *p, size_t n)
{
	size_t i = 0;
	while (i < n) {
		uint8_t c = p[i];
		size_t k;
		uint32_t cp, min;
		if (c < 0x80) {
			i++;
			continue;
		} else if ((c & 0xE0) == 0xC0) {
			k = 1; cp = c & 0x1Fu; min = 0x80;
		} else if ((c & 0xF0) == 0xE0) {
			k = 2; cp = c & 0x0Fu; min = 0x800;
		} else if ((c & 0xF8) == 0xF0) {
			k = 3; cp = c & 0x07u; min = 0x10000;
		} else {
			return false;
		}
		if (k >= n - i)
			return false;
		for (size_t j = 1; j <= k; j++) {
			if ((p[i + j] & 0xC0) != 0x80)
				return false;
			cp = cp << 6 | (p[i + j] & 0x3Fu);
		}
		if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
			return false;
		i += k + 1;
	}
	return true;
}

SPX_RT spx_str
spx_file_read_text(spx_view path)
{
	int fd = spx_open_below(path);
	if (fd < 0)
		spx_fail("semaprax.filesystem.v1", -fd);
	struct stat st;
	if (fstat(fd, &st) != 0) {
		close(fd);
		spx_fail("semaprax.filesystem.v1", 5);
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		spx_fail("semaprax.filesystem.v1", 7);
	}
	if (st.st_size > 65536) {
		close(fd);
		spx_fail("semaprax.filesystem.v1", 4);
	}
	spx_str s = { spx_alloc(65537), 0 };
	for (;;) {
		ssize_t r = read(fd, s.p + s.n, 65537 - s.n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			close(fd);
			spx_fail("semaprax.filesystem.v1", 5);
		}
		if (r == 0)
			break;
		s.n += (size_t)r;
		if (s.n > 65536) {
			close(fd);
			spx_fail("semaprax.filesystem.v1", 4);
		}
	}
	close(fd);
	if (!spx_utf8_valid(s.p, s.n))
		spx_fail("semaprax.text.v1", 3);
	return s;
}
