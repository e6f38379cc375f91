/*
 * fs.c — `file_read_text`, `file_write_new` and `file_write_atomic` of a
 * command-line program (LANGUAGE.md §5.1, the reference's Text Toolkit v1,
 * and §0.1's write lift), confined to the working directory the program was
 * started in (writes further to the granted write root).
 *
 * The path is the whole `str` view.  Admitted: 1..4,096 bytes, relative,
 * `/`-separated nonempty components other than `.` and `..`, no NUL, `\`
 * or `:` (non-UTF-8 bytes are fine).  Resolution (src/rt/fs.c) opens one
 * component at a time below the working directory with O_NOFOLLOW and
 * follows a symbolic link itself only while its target stays inside, so no
 * path — absolute, `..`, or through a link — reaches outside it.  The last
 * component's type is read (lstat) before it is opened: anything but a
 * regular file (a FIFO, a device, a socket, a directory) is refused
 * unopened.
 *
 * Every read first reserves 65,536 bytes against the invocation's
 * 1,048,576-byte budget (never refunded: the 17th read fails), then checks
 * the path, then reads at most 65,536 bytes.  (The reference's provider
 * also admits at most 64 operations, a bound 16 reads never reach.)  Statuses, `semaprax.filesystem.v1`:
 * 1 invalid path, 2 not found, 4 a bound exceeded, 5 I/O failure, 6 access
 * denied, 7 not a regular file (or a symbolic link leaving the root); host errors
 * map as the reference maps them (ENOENT 2, EACCES/EPERM 6, ELOOP/ENOTDIR
 * 7, anything else 5).  File text that is not UTF-8 is `semaprax.text.v1`
 * code 3.
 */
#define _POSIX_C_SOURCE 200809L
#include "interp.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../rt/rt.h"

#define FS_FILE_MAX ((unsigned)RT_LIMIT_FILE_MAX)
#define FS_MAX_RESERVED ((unsigned)RT_LIMIT_FS_BUDGET)

static Value
fs_fail(Interp *I, uint32_t code)
{
	interp_fail(I, RT_DOM_FS, code);
	return v_empty();
}

/* Reserves n bytes of the run's budget; false (status 4) past it. */
static bool
reserve(Interp *I, uint64_t n)
{
	I->fs_reserved += n;
	return I->fs_reserved <= FS_MAX_RESERVED;
}

/* Reads a regular file of at most max bytes into a fresh Bytes (*out). */
static uint32_t
read_file(Interp *I, const uint8_t *p, size_t n, size_t max, Bytes **out)
{
	int fd;
	uint32_t st = rt_fs_open_regular(p, n, &fd);
	if (st)
		return st;
	Bytes *b = interp_bytes_new(&I->heap, NULL, 0);
	interp_bytes_reserve(&I->heap, b, max + 1, false);
	while (st == 0) {
		ssize_t r = read(fd, b->data + b->len, max + 1 - b->len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			st = RT_FS_IO;
		else if (r == 0)
			break;
		else if ((b->len += (size_t)r) > max)
			st = RT_FS_TOO_LARGE;
	}
	close(fd);
	if (st) {
		value_release(&I->heap, v_ptr(V_BYTES, b, 0));
		return st;
	}
	*out = b;
	return 0;
}

Value
interp_rt_file_read_text(Interp *I, const Value *path)
{
	if (!reserve(I, FS_FILE_MAX))
		return fs_fail(I, RT_FS_TOO_LARGE);
	size_t n;
	const uint8_t *p = interp_value_bytes(path, &n);
	if (!rt_fs_path_valid(p, n))
		return fs_fail(I, RT_FS_INVALID_PATH);
	Bytes *b;
	uint32_t st = read_file(I, p, n, FS_FILE_MAX, &b);
	if (st)
		return fs_fail(I, st);
	if (rt_utf8_validate(b->data, b->len) != b->len) {
		value_release(&I->heap, v_ptr(V_STRING, b, 0));
		interp_fail(I, RT_DOM_TEXT, RT_TEXT_NOT_UTF8);
		return v_empty();
	}
	return v_ptr(V_STRING, b, 0);
}

/*
 * file_write_new / file_write_atomic (path, length, data, data_length): the
 * path is path[0..length) and the bytes data[0..data_length).  Checked in
 * this order, as the native runtime (src/emit_c/rt/fs.h) checks them: a
 * length beyond its slice, or an invalid path, is code 1; more than 65,536
 * bytes is code 4; a path outside the granted write root (`--allow-write=DIR`)
 * is code 6; then the bytes are charged to the run's 1 MiB write budget
 * (never refunded; past it code 4) and written (src/rt/fs.c).  The result
 * is the number of bytes written.
 */
Value
interp_rt_file_write(Interp *I, const Value *args, bool atomic)
{
	size_t pn, dn;
	const uint8_t *p = interp_value_bytes(&args[0], &pn);
	const uint8_t *d = interp_value_bytes(&args[2], &dn);
	uint64_t len = args[1].u, dlen = args[3].u;
	if (len > pn || dlen > dn || !rt_fs_path_valid(p, (size_t)len))
		return fs_fail(I, RT_FS_INVALID_PATH);
	if (dlen > FS_FILE_MAX)
		return fs_fail(I, RT_FS_TOO_LARGE);
	if (!rt_fs_below(p, (size_t)len, I->opt->host.write_root))
		return fs_fail(I, RT_FS_DENIED);
	I->fs_written += dlen;
	if (I->fs_written > (uint64_t)RT_LIMIT_FS_WRITE_BUDGET)
		return fs_fail(I, RT_FS_TOO_LARGE);
	uint32_t st = rt_fs_write(p, (size_t)len, d, (size_t)dlen, atomic, I->opt->host.write_root);
	if (st)
		return fs_fail(I, st);
	return v_int(V_USIZE, (int64_t)dlen);
}
