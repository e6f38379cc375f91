/*
 * fs.c — the file operations of a command-line program (LANGUAGE.md §5.1,
 * the reference's Filesystem I/O v1/v2 and Text Toolkit v1), confined to
 * the working directory the program was started in.
 *
 * Paths are byte strings with a logical length (`file_read_text` uses the
 * whole view).  Admitted: 1..4,096 bytes, relative, `/`-separated nonempty
 * components other than `.` and `..`, no NUL, `\` or `:` (non-UTF-8 bytes
 * are fine).  Only `file_stat` and `file_list` accept the empty path, which
 * names the working directory itself.  Resolution opens one component at a
 * time below the working directory with O_NOFOLLOW, so no path — absolute,
 * `..`, or through a symbolic link — reaches outside it.
 *
 * Every operation first reserves its bytes against the invocation budget
 * (64 operations, 1,048,576 bytes; never refunded): reads and listings their
 * `max` (`file_read_text` 65,536), writes their data length, the rest zero.
 * Then, in this order: the path extent and grammar, the per-file bound
 * (65,536), the host call.  Statuses, `semaprax.filesystem.v1`:
 * 1 invalid path, 2 not found, 3 already exists, 4 a bound exceeded,
 * 5 I/O failure, 6 access denied, 7 not a regular file (or directory where
 * one is admitted, or a symbolic link on the way); host errors map as the
 * reference maps them (ENOENT 2, EEXIST 3, EACCES/EPERM 6, ELOOP/ENOTDIR 7,
 * anything else 5).  File text that is not UTF-8 is `semaprax.text.v1`
 * code 3.
 *
 * Results: `file_read` and `file_list` return owned Bytes; `file_list`
 * gives the immediate entry names sorted by unsigned bytes, each followed by
 * one NUL (at most 1,024 names); `file_stat` packs a regular file as
 * size * 4 + 1 and a directory as 2; `file_write_new` creates a new file
 * (mode 0600, never overwriting) and `file_write_atomic` replaces one
 * through a private temporary and a rename in the same directory, both
 * returning the data length; `file_create_dir` (mode 0700) and
 * `file_remove` (a file or an empty directory) return 0.  Physical writes
 * are not rolled back by a later failure of the program.
 */
#define _POSIX_C_SOURCE 200809L
#include "interp.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../support/utf8.h"

#define FS_PATH_MAX 4096u
#define FS_FILE_MAX 65536u
#define FS_MAX_OPERATIONS 64u
#define FS_MAX_RESERVED 1048576u
#define FS_MAX_NAMES 1024u

enum {
	FS_INVALID_PATH = 1, FS_NOT_FOUND, FS_EXISTS, FS_CAPACITY, FS_IO, FS_DENIED, FS_FILE_TYPE,
};

static Value
fs_fail(Interp *I, uint32_t code)
{
	interp_fail(I, DOM_FS, code);
	return v_empty();
}

static uint32_t
errno_status(int e)
{
	switch (e) {
	case ENOENT: return FS_NOT_FOUND;
	case EEXIST: return FS_EXISTS;
	case EACCES: case EPERM: return FS_DENIED;
	case ELOOP: case ENOTDIR: return FS_FILE_TYPE;
	default: return FS_IO;
	}
}

/* Counts one operation reserving n bytes; false (status 4) past the budget. */
static bool
reserve(Interp *I, uint64_t n)
{
	I->fs_ops++;
	I->fs_reserved = n > FS_MAX_RESERVED ? FS_MAX_RESERVED + 1 : I->fs_reserved + n;
	return I->fs_ops <= FS_MAX_OPERATIONS && I->fs_reserved <= FS_MAX_RESERVED;
}

static bool
valid_path(const uint8_t *p, size_t n)
{
	if (n == 0 || n > FS_PATH_MAX)
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

/* A path argument: the first `length` bytes of the view (status 1 when the
 * view is shorter), validated unless it is empty and `root_ok`. */
static uint32_t
path_arg(const Value *v, uint64_t length, bool root_ok, const uint8_t **p, size_t *n)
{
	size_t have;
	*p = value_bytes(v, &have);
	if (length > have)
		return FS_INVALID_PATH;
	*n = (size_t)length;
	if (*n == 0 && root_ok)
		return 0;
	return valid_path(*p, *n) ? 0 : FS_INVALID_PATH;
}

/* An operation's start: reserve `bytes`, then take the path argument
 * (args[0], length args[1]).  False after failing the run. */
static bool
begin(Interp *I, uint64_t bytes, const Value *args, bool root_ok, const uint8_t **p, size_t *n)
{
	uint32_t st = reserve(I, bytes) ? path_arg(&args[0], args[1].u, root_ok, p, n) : FS_CAPACITY;
	if (st)
		fs_fail(I, st);
	return st == 0;
}

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)

/*
 * Opens the directory holding the last component of a valid path (the
 * working directory is AT_FDCWD) and copies that component, NUL-terminated,
 * into name[FS_PATH_MAX + 1].  Returns 0 or a status; *dir is then to be
 * closed with close_dir.
 */
static uint32_t
open_parent(const uint8_t *p, size_t n, int *dir, char *name)
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
		int next = openat(d, name, DIR_FLAGS);
		int e = errno;
		if (d != AT_FDCWD)
			close(d);
		if (next < 0)
			return errno_status(e);
		d = next;
		start = i + 1;
	}
	*dir = d;
	return 0;
}

static void
close_dir(int d)
{
	if (d != AT_FDCWD)
		close(d);
}

/* begin() for a path naming an entry (never the working directory itself),
 * then, when the operation's other bounds hold (`fits`, else status 4),
 * its parent directory.  False after failing the run. */
static bool
begin_entry(Interp *I, uint64_t bytes, const Value *args, bool fits, int *dir, char *name)
{
	const uint8_t *p;
	size_t n;
	if (!begin(I, bytes, args, false, &p, &n))
		return false;
	uint32_t st = fits ? open_parent(p, n, dir, name) : FS_CAPACITY;
	if (st)
		fs_fail(I, st);
	return st == 0;
}

static bool
write_all(int fd, const uint8_t *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		p += w;
		n -= (size_t)w;
	}
	return true;
}

/* ---- reads ---- */

/* Reads a regular file of at most max bytes into a fresh Bytes (*out). */
static uint32_t
read_file(const uint8_t *p, size_t n, size_t max, Bytes **out)
{
	char name[FS_PATH_MAX + 1];
	int dir;
	uint32_t st = open_parent(p, n, &dir, name);
	if (st)
		return st;
	int fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	int e = errno;
	close_dir(dir);
	if (fd < 0)
		return errno_status(e);
	struct stat sb;
	if (fstat(fd, &sb) != 0)
		st = errno_status(errno);
	else if (!S_ISREG(sb.st_mode))
		st = FS_FILE_TYPE;
	if (st) {
		close(fd);
		return st;
	}
	Bytes *b = bytes_new(NULL, 0);
	b->data = xrealloc(b->data, max + 1);
	b->cap = max + 1;
	while (st == 0) {
		ssize_t r = read(fd, b->data + b->len, max + 1 - b->len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			st = FS_IO;
		else if (r == 0)
			break;
		else if ((b->len += (size_t)r) > max)
			st = FS_CAPACITY;
	}
	close(fd);
	if (st) {
		value_release(v_ptr(V_BYTES, b, 0));
		return st;
	}
	*out = b;
	return 0;
}

static Value
file_read_text(Interp *I, const Value *path)
{
	if (!reserve(I, FS_FILE_MAX))
		return fs_fail(I, FS_CAPACITY);
	size_t n;
	const uint8_t *p = value_bytes(path, &n);
	if (!valid_path(p, n))
		return fs_fail(I, FS_INVALID_PATH);
	Bytes *b;
	uint32_t st = read_file(p, n, FS_FILE_MAX, &b);
	if (st)
		return fs_fail(I, st);
	if (utf8_validate(b->data, b->len) != b->len) {
		value_release(v_ptr(V_STRING, b, 0));
		interp_fail(I, DOM_TEXT, 3);
		return v_empty();
	}
	return v_ptr(V_STRING, b, 0);
}

static int
cmp_name(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	size_t lx = strlen(x), ly = strlen(y);
	int c = memcmp(x, y, lx < ly ? lx : ly);
	return c ? c : (lx > ly) - (lx < ly);
}

/* The sorted, NUL-terminated immediate names of a directory (at most max bytes). */
static uint32_t
list_dir(const uint8_t *p, size_t n, size_t max, Bytes **out)
{
	int fd;
	if (n == 0) {
		fd = open(".", DIR_FLAGS);
	} else {
		char name[FS_PATH_MAX + 1];
		int dir;
		uint32_t st = open_parent(p, n, &dir, name);
		if (st)
			return st;
		fd = openat(dir, name, DIR_FLAGS);
		int e = errno;
		close_dir(dir);
		errno = e;
	}
	if (fd < 0)
		return errno_status(errno);
	DIR *d = fdopendir(fd);
	if (!d) {
		close(fd);
		return errno_status(errno);
	}
	VEC(char *) names = {0};
	uint32_t st = 0;
	for (;;) {
		errno = 0;
		struct dirent *de = readdir(d);
		if (!de) {
			if (errno)
				st = errno_status(errno);
			break;
		}
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (names.len >= (int)FS_MAX_NAMES) {
			st = FS_CAPACITY;
			break;
		}
		VEC_PUSH(names, xstrdup(de->d_name));
	}
	closedir(d);
	if (names.len)
		qsort(names.items, (size_t)names.len, sizeof(char *), cmp_name);
	Bytes *b = bytes_new(NULL, 0);
	for (int i = 0; i < names.len; i++) {
		size_t l = strlen(names.items[i]);
		if (st == 0 && b->len + l + 1 > max)
			st = FS_CAPACITY;
		if (st == 0) {
			if (b->len + l + 1 > b->cap) {
				b->cap = (b->len + l + 1) * 2;
				b->data = xrealloc(b->data, b->cap);
			}
			memcpy(b->data + b->len, names.items[i], l + 1);
			b->len += l + 1;
		}
		free(names.items[i]);
	}
	VEC_FREE(names);
	if (st) {
		value_release(v_ptr(V_BYTES, b, 0));
		return st;
	}
	*out = b;
	return 0;
}

/* file_read(path, length, max) and file_list(path, length, max). */
static Value
read_or_list(Interp *I, bool list, Value *args)
{
	uint64_t max = args[2].u;
	const uint8_t *p;
	size_t n;
	if (!begin(I, max, args, list, &p, &n))
		return v_empty();
	Bytes *b = NULL;
	uint32_t st = max > FS_FILE_MAX ? FS_CAPACITY
		    : list ? list_dir(p, n, (size_t)max, &b) : read_file(p, n, (size_t)max, &b);
	return st ? fs_fail(I, st) : v_ptr(V_BYTES, b, 0);
}

static Value
file_stat(Interp *I, Value *args)
{
	const uint8_t *p;
	size_t n;
	if (!begin(I, 0, args, true, &p, &n))
		return v_empty();
	if (n == 0)
		return v_int(V_USIZE, 2);
	char name[FS_PATH_MAX + 1];
	int dir;
	uint32_t st = open_parent(p, n, &dir, name);
	if (st)
		return fs_fail(I, st);
	struct stat sb;
	int r = fstatat(dir, name, &sb, AT_SYMLINK_NOFOLLOW);
	int e = errno;
	close_dir(dir);
	if (r != 0)
		return fs_fail(I, errno_status(e));
	if (S_ISDIR(sb.st_mode))
		return v_int(V_USIZE, 2);
	if (!S_ISREG(sb.st_mode))
		return fs_fail(I, FS_FILE_TYPE);
	uint64_t size = (uint64_t)sb.st_size;
	if (size > UINT64_MAX / 4)
		return fs_fail(I, FS_CAPACITY);
	return v_int(V_USIZE, (int64_t)(size * 4 + 1));
}

/* ---- writes ---- */

static uint32_t
write_new(int dir, const char *name, const uint8_t *data, size_t n)
{
	int fd = openat(dir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return errno_status(errno);
	bool ok = write_all(fd, data, n);
	return close(fd) == 0 && ok ? 0 : FS_IO;
}

static uint32_t
write_atomic(Interp *I, int dir, const char *name, const uint8_t *data, size_t n)
{
	struct stat sb;
	if (fstatat(dir, name, &sb, AT_SYMLINK_NOFOLLOW) == 0) {
		if (!S_ISREG(sb.st_mode))
			return FS_FILE_TYPE;
	} else if (errno != ENOENT) {
		return errno_status(errno);
	}
	char tmp[64];
	int fd = -1;
	for (int attempt = 0; attempt < 64 && fd < 0; attempt++) {
		snprintf(tmp, sizeof tmp, ".semaprax-atomic-%ld-%u-%d", (long)getpid(), I->fs_ops, attempt);
		if (strcmp(tmp, name) == 0)
			continue;
		fd = openat(dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0 && errno != EEXIST)
			return errno_status(errno);
	}
	if (fd < 0)
		return FS_IO;
	bool ok = write_all(fd, data, n);
	if (close(fd) != 0 || !ok) {
		unlinkat(dir, tmp, 0);
		return FS_IO;
	}
	if (renameat(dir, tmp, dir, name) != 0) {
		uint32_t st = errno_status(errno);
		unlinkat(dir, tmp, 0);
		return st;
	}
	return 0;
}

/* file_write_new / file_write_atomic(path, length, data, data_length). */
static Value
file_write(Interp *I, bool atomic, Value *args)
{
	uint64_t dn = args[3].u;
	size_t have;
	const uint8_t *data = value_bytes(&args[2], &have);
	char name[FS_PATH_MAX + 1];
	int dir;
	if (!begin_entry(I, dn, args, dn <= FS_FILE_MAX && dn <= have, &dir, name))
		return v_empty();
	uint32_t st = atomic ? write_atomic(I, dir, name, data, (size_t)dn) : write_new(dir, name, data, (size_t)dn);
	close_dir(dir);
	return st ? fs_fail(I, st) : v_int(V_USIZE, (int64_t)dn);
}

/* file_create_dir / file_remove(path, length). */
static Value
dir_op(Interp *I, bool create, Value *args)
{
	char name[FS_PATH_MAX + 1];
	int dir;
	if (!begin_entry(I, 0, args, true, &dir, name))
		return v_empty();
	uint32_t st = 0;
	struct stat sb;
	if (create) {
		if (mkdirat(dir, name, 0700) != 0)
			st = errno_status(errno);
	} else if (fstatat(dir, name, &sb, AT_SYMLINK_NOFOLLOW) != 0) {
		st = errno_status(errno);
	} else if (!S_ISDIR(sb.st_mode) && !S_ISREG(sb.st_mode)) {
		st = FS_FILE_TYPE;
	} else if (unlinkat(dir, name, S_ISDIR(sb.st_mode) ? AT_REMOVEDIR : 0) != 0) {
		st = errno_status(errno);
	}
	close_dir(dir);
	return st ? fs_fail(I, st) : v_int(V_USIZE, 0);
}

Value
rt_fs_call(Interp *I, int index, Value *args)
{
	const InterpOptions *o = I->opt;
	bool reads = index == B_file_read_text || index == B_file_read || index == B_file_list || index == B_file_stat;
	if (reads ? !o->fs_read : !o->fs_write)
		return fs_fail(I, FS_DENIED);
	switch (index) {
	case B_file_read_text: return file_read_text(I, &args[0]);
	case B_file_read: return read_or_list(I, false, args);
	case B_file_list: return read_or_list(I, true, args);
	case B_file_stat: return file_stat(I, args);
	case B_file_write_new: return file_write(I, false, args);
	case B_file_write_atomic: return file_write(I, true, args);
	case B_file_create_dir: return dir_op(I, true, args);
	case B_file_remove: return dir_op(I, false, args);
	default:
		UNREACHABLE();
		return v_empty();
	}
}
