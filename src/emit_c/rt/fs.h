/* ---- SEMAPRAX native runtime: file_read_text (fs.read), file_write_new and file_write_atomic (fs.write) ---- */
/*
 * Included only in programs that call file_read_text or whose module
 * permits fs.write (main then takes the write grant, spx_grant_write).
 * Same semantics as the interpreter's src/interp/fs.c:
 * every read first reserves 65,536 bytes of the run's 1,048,576-byte budget
 * (never refunded: the 17th read fails, code 4), then checks the path (the
 * whole view; 1..4,096 bytes, relative, nonempty components other than
 * `.`/`..`, no NUL, `\` or `:`), then reads at most 65,536 bytes, resolving
 * one component at a time below the working directory with O_NOFOLLOW (a
 * link is followed by hand only while it stays inside); the last
 * component's type is read unopened (a FIFO or device is refused without
 * being opened).
 * The path check and the confined open are src/rt/fs.c (rt_fs_*), embedded
 * just before this text and shared with the interpreter.
 * semaprax.filesystem.v1: 1 invalid path, 2 not found, 4 a bound exceeded,
 * 5 I/O failure, 6 access denied, 7 not a regular file (or a symbolic link
 * leaving the root); text that is not UTF-8 is text.v1 code 3.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>


static uint64_t spx_fs_reserved;   /* bytes reserved so far (budget 1 MiB) */

_Noreturn SPX_RT void
spx_fs_fail(int code)
{
	spx_fail(rt_domain_ids[RT_DOM_FS], code);
}

/* Reserves n bytes of the run's budget; status 4 past it. */
SPX_RT void
spx_fs_reserve(uint64_t n)
{
	spx_fs_reserved += n;
	if (spx_fs_reserved > RT_LIMIT_FS_BUDGET)
		spx_fs_fail(RT_FS_TOO_LARGE);
}

/* ---- reads ---- */

/* Reads a regular file of at most max bytes into *out; 0 or a status. */
SPX_RT int
spx_fs_read_file(spx_view path, size_t max, spx_str *out)
{
	int fd;
	int st = (int)rt_fs_open_regular(path.p, path.n, &fd);
	if (st)
		return st;
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
	spx_fs_reserve(RT_LIMIT_FILE_MAX);
	if (!rt_fs_path_valid(path.p, path.n))
		spx_fs_fail(RT_FS_INVALID_PATH);
	spx_str s = { NULL, 0 };
	int st = spx_fs_read_file(path, RT_LIMIT_FILE_MAX, &s);
	if (st)
		spx_fs_fail(st);
	if (!spx_utf8_valid(s.p, s.n))
		spx_fail(rt_domain_ids[RT_DOM_TEXT], RT_TEXT_NOT_UTF8);
	return s;
}

/* ---- writes (fs.write; src/interp/fs.c's interp_rt_file_write, in its order) ---- */

static const char *spx_write_root;   /* --allow-write=DIR, or NULL: anywhere */
static uint64_t spx_fs_written;      /* bytes written so far (budget 1 MiB) */

SPX_RT uint64_t
spx_file_write(spx_view path, uint64_t len, spx_view data, uint64_t dlen, bool atomic)
{
	if (len > path.n || dlen > data.n || !rt_fs_path_valid(path.p, (size_t)len))
		spx_fs_fail(RT_FS_INVALID_PATH);
	if (dlen > RT_LIMIT_FILE_MAX)
		spx_fs_fail(RT_FS_TOO_LARGE);
	if (!rt_fs_below(path.p, (size_t)len, spx_write_root))
		spx_fs_fail(RT_FS_DENIED);
	spx_fs_written += dlen;
	if (spx_fs_written > RT_LIMIT_FS_WRITE_BUDGET)
		spx_fs_fail(RT_FS_TOO_LARGE);
	int st = (int)rt_fs_write(path.p, (size_t)len, data.p, (size_t)dlen, atomic, spx_write_root);
	if (st)
		spx_fs_fail(st);
	return dlen;
}

/*
 * The command line's write grant of a program whose module permits
 * fs.write (the executable's counterpart of `semaprax run --allow-write`,
 * SPX-F120): its first argument must be `--allow-write` or
 * `--allow-write=DIR` (DIR a directory below the working directory,
 * reached without symbolic links), optionally followed by `--`; the
 * program's own arguments follow.  Returns how many arguments it took, or
 * -1 after printing why it refuses to start (the caller exits 2): for a
 * DIR that breaks the rule, the line `semaprax run` prints (rt_fs_root_refusal:
 * DIR does not exist, is a file, or the rule's wording).
 */
SPX_RT int
spx_grant_write(int argc, char **argv)
{
	static const char hint[] = "\nhint: run `semaprax explain SPX-F120`\n";
	const char *a = argc > 1 ? argv[1] : "";
	if (strncmp(a, "--allow-write", 13) != 0 || (a[13] != '\0' && a[13] != '=')) {
		fprintf(stderr, "SEMAPRAX capability refused: the program permits fs.write; grant writes with "
				"`--allow-write` or `--allow-write=DIR` as its first argument%s", hint);
		return -1;
	}
	if (a[13] == '=') {
		if (!rt_fs_root_valid(a + 14)) {
			/* `semaprax run`'s line (src/rt/fs.c): why, when that is plain */
			size_t n = rt_fs_root_refusal(a + 14, NULL, 0);
			char *line = malloc(n + 1);
			if (line)
				rt_fs_root_refusal(a + 14, line, n + 1);
			fprintf(stderr, "%s%s", line ? line : "`--allow-write=DIR` must name a directory below the working directory", hint);
			free(line);
			return -1;
		}
		spx_write_root = a + 14;
	}
	return argc > 2 && strcmp(argv[2], "--") == 0 ? 2 : 1;
}
