/*
 * host.c — the process and file operations a route grants (TOOLCHAIN.md
 * §1.3, LANGUAGE.md §5.1): staged stdout/stderr, the arguments after
 * `--`, and `file_read_text` below the working directory.
 *
 * Output is staged in InterpResult.out/.err and published by the caller
 * after `main` returns; the staged transcript (stdout + stderr together) is
 * capped at 65,536 bytes (`semaprax.output.v1` code 1, §0.1).
 *
 * `file_read_text` resolves a relative path one component at a time with
 * openat(O_NOFOLLOW), so neither `..`, an absolute path nor a symbolic link
 * can leave the working directory.  Statuses (`semaprax.filesystem.v1`):
 * 1 invalid relative path, 2 not found, 4 over 65,536 bytes, 5 I/O failure,
 * 6 access denied (including symbolic links), 7 not a regular file; text
 * that is not UTF-8 is `semaprax.text.v1` code 3.
 * `arg_utf8` with an index >= `args_len()` is `semaprax.text.v1` code 1
 * (our decision: the reference documents no status for it).
 */
#define _POSIX_C_SOURCE 200809L
#include "interp.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../support/utf8.h"

#define FILE_TEXT_MAX 65536u

static Value
host_fail(Interp *I, Domain d, uint32_t code)
{
	interp_fail(I, d, code);
	return v_empty();
}

static uint32_t
errno_status(int e)
{
	switch (e) {
	case ENOENT: case ENOTDIR: return 2;
	case EACCES: case EPERM: case ELOOP: return 6;
	default: return 5;
	}
}

/* Opens a relative path below the working directory; returns fd or -status. */
static int
open_below(const uint8_t *p, size_t n)
{
	if (n == 0 || n > 4096 || p[0] == '/')
		return -1;
	for (size_t i = 0; i < n; i++)
		if (p[i] == 0 || p[i] == '\\')
			return -1;
	char comp[4097];
	int dir = AT_FDCWD;
	size_t i = 0;
	for (;;) {
		size_t j = i;
		while (j < n && p[j] != '/')
			j++;
		size_t cl = j - i;
		if (cl == 0 || (cl == 1 && p[i] == '.') || (cl == 2 && p[i] == '.' && p[i + 1] == '.')) {
			if (dir != AT_FDCWD)
				close(dir);
			return -1;
		}
		memcpy(comp, p + i, cl);
		comp[cl] = '\0';
		bool last = j == n;
		int fd = openat(dir, comp, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | (last ? O_NONBLOCK : O_DIRECTORY));
		int e = errno;
		if (dir != AT_FDCWD)
			close(dir);
		if (fd < 0)
			return -(int)errno_status(e);
		if (last)
			return fd;
		dir = fd;
		i = j + 1;
	}
}

static Value
file_read_text(Interp *I, const Value *path)
{
	size_t n;
	const uint8_t *p = value_bytes(path, &n);
	int fd = open_below(p, n);
	if (fd < 0)
		return host_fail(I, DOM_FS, (uint32_t)-fd);
	struct stat st;
	if (fstat(fd, &st) != 0) {
		close(fd);
		return host_fail(I, DOM_FS, 5);
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return host_fail(I, DOM_FS, 7);
	}
	if (st.st_size > (off_t)FILE_TEXT_MAX) {
		close(fd);
		return host_fail(I, DOM_FS, 4);
	}
	Bytes *b = bytes_new(NULL, 0);
	free(b->data);
	b->cap = FILE_TEXT_MAX + 1;
	b->data = xmalloc(b->cap);
	b->len = 0;
	for (;;) {
		ssize_t r = read(fd, b->data + b->len, b->cap - b->len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			close(fd);
			value_release(v_ptr(V_STRING, b, 0));
			return host_fail(I, DOM_FS, 5);
		}
		if (r == 0)
			break;
		b->len += (size_t)r;
		if (b->len > FILE_TEXT_MAX) {
			close(fd);
			value_release(v_ptr(V_STRING, b, 0));
			return host_fail(I, DOM_FS, 4);
		}
	}
	close(fd);
	if (utf8_validate(b->data, b->len) != b->len) {
		value_release(v_ptr(V_STRING, b, 0));
		return host_fail(I, DOM_TEXT, 3);
	}
	return v_ptr(V_STRING, b, 0);
}

static Value
stage(Interp *I, Buf *to, const Value *v)
{
	size_t n;
	const uint8_t *p = value_bytes(v, &n);
	if (I->res->out.len + I->res->err.len + n > INTERP_OUTPUT_CAP)
		return host_fail(I, DOM_OUTPUT, 1);
	buf_put(to, (const char *)p, n);
	return v_int(V_USIZE, (int64_t)n);
}

static Value
refused(Interp *I, const char *name)
{
	interp_limit(I, "`%s` is not granted on this route", name);
	return v_empty();
}

Value
rt_host_call(Interp *I, int index, Value *args)
{
	const InterpOptions *o = I->opt;
	switch (index) {
	case B_stdout_write:
		if (!o->stdout_write)
			return refused(I, "stdout_write");
		return stage(I, &I->res->out, &args[0]);
	case B_stderr_write:
		if (!o->stderr_write)
			return refused(I, "stderr_write");
		return stage(I, &I->res->err, &args[0]);
	case B_args_len:
		if (!o->args_read)
			return refused(I, "args_len");
		return v_int(V_USIZE, o->nargs);
	case B_arg_utf8: {
		if (!o->args_read)
			return refused(I, "arg_utf8");
		if (args[0].u >= (uint64_t)o->nargs)
			return host_fail(I, DOM_TEXT, 1);
		const char *a = o->args[args[0].u];
		Value v = v_ptr(V_VIEW, NULL, (uint32_t)strlen(a));
		v.bytes = (const uint8_t *)a;
		return v;
	}
	case B_file_read_text:
		if (!o->fs_read)
			return refused(I, "file_read_text");
		return file_read_text(I, &args[0]);
	default:
		UNREACHABLE();
		return v_empty();
	}
}
