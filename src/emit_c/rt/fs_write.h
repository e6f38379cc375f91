/* ---- SEMAPRAX native runtime: file writes (fs.write; LANGUAGE.md §5.1) ---- */
/*
 * Included only in programs whose route grants fs.write and that call a
 * writing operation (after fs.h).  As src/interp/fs.c: file_write_new
 * creates a new file (mode 0600, never overwriting), file_write_atomic
 * replaces one through a private temporary and a rename in the same
 * directory, both returning the data length; file_create_dir (mode 0700)
 * and file_remove (a file or an empty directory) return 0.  Physical
 * writes are not rolled back by a later failure of the program.
 */

/* The start of an operation on an entry: begin, then (when the operation's
 * other bounds hold, else status 4) the entry's parent directory. */
SPX_RT void
spx_fs_begin_entry(uint64_t bytes, spx_view path, uint64_t len, bool fits, int *dir, char *name)
{
	path = spx_fs_begin(bytes, path, len, false);
	int st = fits ? spx_fs_open_parent(path, dir, name) : 4;
	if (st)
		spx_fs_fail(st);
}

SPX_RT bool
spx_fs_write_all(int fd, const uint8_t *p, size_t n)
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

SPX_RT int
spx_fs_write_new(int dir, const char *name, const uint8_t *data, size_t n)
{
	int fd = openat(dir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return spx_fs_status(errno);
	bool ok = spx_fs_write_all(fd, data, n);
	return close(fd) == 0 && ok ? 0 : 5;
}

SPX_RT int
spx_fs_write_atomic(int dir, const char *name, const uint8_t *data, size_t n)
{
	struct stat sb;
	if (fstatat(dir, name, &sb, AT_SYMLINK_NOFOLLOW) == 0) {
		if (!S_ISREG(sb.st_mode))
			return 7;
	} else if (errno != ENOENT) {
		return spx_fs_status(errno);
	}
	char tmp[64];
	int fd = -1;
	for (int attempt = 0; attempt < 64 && fd < 0; attempt++) {
		snprintf(tmp, sizeof tmp, ".semaprax-atomic-%ld-%u-%d", (long)getpid(), spx_fs_ops, attempt);
		if (strcmp(tmp, name) == 0)
			continue;
		fd = openat(dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0 && errno != EEXIST)
			return spx_fs_status(errno);
	}
	if (fd < 0)
		return 5;
	bool ok = spx_fs_write_all(fd, data, n);
	if (close(fd) != 0 || !ok) {
		unlinkat(dir, tmp, 0);
		return 5;
	}
	if (renameat(dir, tmp, dir, name) != 0) {
		int st = spx_fs_status(errno);
		unlinkat(dir, tmp, 0);
		return st;
	}
	return 0;
}

/* file_write_new / file_write_atomic(path, length, data, data_length). */
SPX_RT uint64_t
spx_file_write(spx_view path, uint64_t len, spx_view data, uint64_t dlen, bool atomic)
{
	char name[SPX_FS_PATH_MAX + 1];
	int dir = AT_FDCWD;
	spx_fs_begin_entry(dlen, path, len, dlen <= SPX_FS_FILE_MAX && dlen <= data.n, &dir, name);
	int st = atomic ? spx_fs_write_atomic(dir, name, data.p, (size_t)dlen)
			: spx_fs_write_new(dir, name, data.p, (size_t)dlen);
	spx_fs_close_dir(dir);
	if (st)
		spx_fs_fail(st);
	return dlen;
}

/* file_create_dir / file_remove(path, length). */
SPX_RT uint64_t
spx_file_dir_op(spx_view path, uint64_t len, bool create)
{
	char name[SPX_FS_PATH_MAX + 1];
	int dir = AT_FDCWD;
	spx_fs_begin_entry(0, path, len, true, &dir, name);
	int st = 0;
	struct stat sb;
	if (create) {
		if (mkdirat(dir, name, 0700) != 0)
			st = spx_fs_status(errno);
	} else if (fstatat(dir, name, &sb, AT_SYMLINK_NOFOLLOW) != 0) {
		st = spx_fs_status(errno);
	} else if (!S_ISDIR(sb.st_mode) && !S_ISREG(sb.st_mode)) {
		st = 7;
	} else if (unlinkat(dir, name, S_ISDIR(sb.st_mode) ? AT_REMOVEDIR : 0) != 0) {
		st = spx_fs_status(errno);
	}
	spx_fs_close_dir(dir);
	if (st)
		spx_fs_fail(st);
	return 0;
}
