/*
 * cc.c — driving the system C compiler for the native lane (LANGUAGE.md
 * §0.9): `$CC` (default `cc`; words split on blanks, so `ccache gcc`
 * works) `-std=c11 -O2 -ffp-contract=off -Wall -Wextra -Wno-misleading-indentation`, in a fresh private
 * temporary directory.  A compiler that cannot be started is reported
 * through a close-on-exec pipe (NATIVE_NO_CC), never confused with a
 * compilation failure.
 *
 * Interruption (support/child.h): from the temporary directory's creation
 * until emitc_native_cleanup, SIGINT, SIGTERM and SIGHUP are forwarded to
 * the child at work — the compiler (its own process group, so cc1 and as go
 * too) or the compiled program (emit_native_exec) — which is then waited
 * for; emitc_native_cleanup removes the directory and re-raises the signal
 * with its default action, so the caller ends with the conventional status
 * and neither a child nor the directory survives.
 */
#include "emit_c.h"

#include "../support/child.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static bool
write_all(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return false;
	bool ok = fwrite(data, 1, len, f) == len;
	ok &= fclose(f) == 0;
	return ok;
}

NativeStatus
emitc_native_compile(const char *csrc, size_t len, char dir[4096], Buf *msg)
{
	child_catch();
	dir[0] = '\0';
	/* the command line below holds at most 48 words of $CC, and 50 of it
	 * and $SEMAPRAX_NATIVE_CFLAGS together: more is refused, never cut */
	int ccw = spx_split_words(getenv("CC"), NULL, 0, NULL);
	int xw = spx_split_words(getenv("SEMAPRAX_NATIVE_CFLAGS"), NULL, 0, NULL);
	if (ccw > 48 || xw > 50 - (ccw ? ccw : 1)) {
		buf_printf(msg, "`CC` holds %d words and `SEMAPRAX_NATIVE_CFLAGS` %d; the C compiler's command line takes at most 48 of `CC` and 50 of both together",
		    ccw, xw);
		return NATIVE_NO_CC;
	}
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, 4096, "%s/semaprax-native-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		buf_printf(msg, "cannot create a temporary directory: %s", strerror(errno));
		dir[0] = '\0';
		return NATIVE_IO;
	}
	char cpath[4200], exe[4200], log[4200], cctmp[4200];
	/* the compiler's own temporary files (clang's program-*.o) go to a
	 * directory of ours, so an interrupted compile leaves nothing behind */
	snprintf(cctmp, sizeof cctmp, "%s/tmp", dir);
	if (mkdir(cctmp, 0700) != 0) {
		buf_printf(msg, "cannot create %s: %s", cctmp, strerror(errno));
		return NATIVE_IO;
	}
	snprintf(cpath, sizeof cpath, "%s/program.c", dir);
	snprintf(exe, sizeof exe, "%s/program", dir);
	snprintf(log, sizeof log, "%s/cc.log", dir);
	if (!write_all(cpath, csrc, len)) {
		buf_printf(msg, "cannot write %s", cpath);
		return NATIVE_IO;
	}
	char *argv[64], *words, *extra_words;
	int argc = spx_split_words(getenv("CC"), argv, 48, &words);   /* at most 48: checked above */
	if (argc == 0)
		argv[argc++] = "cc";
	/* -Wno-misleading-indentation: the generated C is indented by its
	 * emitter, so the check can find nothing, and gcc's cost for it grows
	 * with the square of the file (10,000 small functions: 16 of 21 s) */
	const char *flags[] = { "-std=c11", "-O2", "-ffp-contract=off", "-Wall", "-Wextra", "-Wno-misleading-indentation" };
	for (size_t i = 0; i < sizeof flags / sizeof *flags; i++)
		argv[argc++] = (char *)flags[i];
	/* extra flags for the sanitizer lane (tests/native-test.sh --sanitize) */
	argc += spx_split_words(getenv("SEMAPRAX_NATIVE_CFLAGS"), argv + argc, 56 - argc, &extra_words);   /* fits: checked above */
	const char *tail[] = { "-o", exe, cpath, "-lm" };
	for (size_t i = 0; i < sizeof tail / sizeof *tail; i++)
		argv[argc++] = (char *)tail[i];
	argv[argc] = NULL;
	int pfd[2];
	if (pipe(pfd) != 0) {
		free(words);
		free(extra_words);
		buf_printf(msg, "cannot create a pipe: %s", strerror(errno));
		return NATIVE_IO;
	}
	fcntl(pfd[1], F_SETFD, FD_CLOEXEC);
	pid_t pid = child_start(true);
	if (pid == -2) {
		close(pfd[0]);
		close(pfd[1]);
		free(words);
		free(extra_words);
		emitc_native_cleanup(dir);   /* does not return */
	}
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		free(words);
		free(extra_words);
		buf_printf(msg, "cannot fork: %s", strerror(errno));
		return NATIVE_IO;
	}
	if (pid == 0) {
		close(pfd[0]);
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
			close(fd);
		}
		setenv("TMPDIR", cctmp, 1);
		execvp(argv[0], argv);
		int e = errno;
		ssize_t w = write(pfd[1], &e, sizeof e);
		(void)w;
		_exit(127);
	}
	close(pfd[1]);
	int exec_errno = 0;
	ssize_t got = read(pfd[0], &exec_errno, sizeof exec_errno);
	close(pfd[0]);
	int st = child_wait(pid);
	if (child_interrupted()) {
		free(words);
		free(extra_words);
		emitc_native_cleanup(dir);   /* does not return */
	}
	NativeStatus r = NATIVE_OK;
	if (got == (ssize_t)sizeof exec_errno) {
		buf_printf(msg, "cannot start the C compiler `%s`: %s", argv[0], strerror(exec_errno));
		r = NATIVE_NO_CC;
	} else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		/* at most 1 MiB of the log, cut between characters and said so */
		size_t cap = (size_t)1 << 20;
		buf_append_file(msg, log, cap + 1);   /* a byte past cap: was it cut? */
		if (msg->len > cap) {
			size_t n = cap;
			while (n && ((unsigned char)msg->data[n] & 0xC0) == 0x80)
				n--;
			msg->len = n;
			msg->data[n] = '\0';
			buf_printf(msg, "\n(the rest of the C compiler's message, past 1 MiB, is left out)");
		}
		while (msg->len && (msg->data[msg->len - 1] == '\n'))
			msg->data[--msg->len] = '\0';
		if (!msg->len)
			buf_printf(msg, "the C compiler `%s` failed", argv[0]);
		r = NATIVE_CC_FAILED;
	}
	free(words);
	free(extra_words);
	return r;
}

int
emit_native_exec(const char *exe, char **argv, int *wstatus)
{
	/* the program starts with its stack limit raised toward 256 MiB, as
	 * the interpreter runs 256 frames of wide values */
	struct rlimit rl;
	bool grow = child_stack_limit((rlim_t)256 << 20, &rl);
	child_catch();
	pid_t pid = child_start(false);   /* the terminal's group: it may read the terminal */
	if (pid == 0) {
		if (grow)
			(void)setrlimit(RLIMIT_STACK, &rl);
		execv(exe, argv);
		_exit(127);
	}
	if (pid == -2)
		return EINTR;
	if (pid < 0)
		return errno;
	*wstatus = child_wait(pid);
	return 0;
}

bool
emit_native_interrupted(void)
{
	return child_interrupted();
}

void
emitc_native_cleanup(const char *dir)
{
	if (dir && dir[0]) {
		const char *names[] = { "program.c", "program", "cc.log" };
		char p[4200];
		snprintf(p, sizeof p, "%s/tmp", dir);
		DIR *d = opendir(p);
		for (struct dirent *e = d ? readdir(d) : NULL; e; e = readdir(d)) {
			if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
				continue;
			char q[4600];
			snprintf(q, sizeof q, "%s/%s", p, e->d_name);
			unlink(q);
		}
		if (d)
			closedir(d);
		rmdir(p);
		for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
			snprintf(p, sizeof p, "%s/%s", dir, names[i]);
			unlink(p);
		}
		rmdir(dir);
	}
	child_release();
}
