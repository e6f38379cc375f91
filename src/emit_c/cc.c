/*
 * cc.c — driving the system C compiler for the native lane (LANGUAGE.md
 * §0.9): `$CC` (default `cc`; words split on blanks, so `ccache gcc`
 * works) `-std=c11 -O2 -ffp-contract=off -Wall -Wextra`, in a fresh private
 * temporary directory.  A compiler that cannot be started is reported
 * through a close-on-exec pipe (NATIVE_NO_CC), never confused with a
 * compilation failure.
 *
 * Interruption: from the temporary directory's creation until
 * emitc_native_cleanup, SIGINT, SIGTERM and SIGHUP are caught and forwarded to
 * the child at work — the compiler (its own process group, so cc1 and as
 * go too) or the compiled program (emit_native_exec) — which is then waited
 * for; emitc_native_cleanup removes the directory and re-raises the signal with
 * its default action, so the caller ends with the conventional status and
 * neither a child nor the directory survives.
 */
#include "emit_c.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP };
static volatile sig_atomic_t got_signal;   /* the first forwarded signal caught */
static volatile pid_t child_pid;           /* > 0: the child at work */
static volatile sig_atomic_t child_group;  /* it leads its own process group */
static bool catching;
static struct sigaction saved[3];

static void
on_signal(int sig)
{
	int e = errno;
	if (!got_signal)
		got_signal = sig;
	pid_t p = child_pid;
	if (p > 0)
		kill(child_group ? -p : p, sig);
	errno = e;
}

static void
catch_signals(void)
{
	if (catching)
		return;
	catching = true;
	got_signal = 0;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof forwarded / sizeof *forwarded; i++) {
		sigaction(forwarded[i], NULL, &saved[i]);
		if (saved[i].sa_handler != SIG_IGN)   /* ignored on entry (nohup, `&`): stays ignored */
			sigaction(forwarded[i], &sa, NULL);
	}
}

/*
 * Forks with the forwarded signals blocked: the child restores the
 * dispositions semaprax started with before unblocking (a signal sent in
 * the window then acts on it as on any program, instead of reaching our
 * handler and being lost at exec); the parent records the child before
 * unblocking, so a signal that arrived meanwhile is forwarded to it.
 * 0 in the child, the pid, -1 (errno), or -2 when already interrupted.
 */
static pid_t
start_child(bool own_group)
{
	fflush(NULL);
	sigset_t block, old;
	sigemptyset(&block);
	for (size_t i = 0; i < sizeof forwarded / sizeof *forwarded; i++)
		sigaddset(&block, forwarded[i]);
	sigprocmask(SIG_BLOCK, &block, &old);
	if (got_signal) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		return -2;
	}
	pid_t pid = fork();
	if (pid == 0) {
		if (own_group)
			setpgid(0, 0);
		for (size_t i = 0; i < sizeof forwarded / sizeof *forwarded; i++)
			sigaction(forwarded[i], &saved[i], NULL);
		sigprocmask(SIG_SETMASK, &old, NULL);
		return 0;
	}
	int e = errno;
	if (pid > 0) {
		if (own_group)
			setpgid(pid, pid);   /* also in the parent: no window before the child's own call */
		child_group = own_group;
		child_pid = pid;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);   /* a pending signal now reaches on_signal, which forwards it */
	errno = e;
	return pid;
}

/* Waits for the child; its wait status. */
static int
wait_child(pid_t pid)
{
	int st = 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	child_pid = 0;
	return st;
}

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

static void
slurp(const char *path, Buf *out)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return;
	char tmp[4096];
	size_t n;
	while ((n = fread(tmp, 1, sizeof tmp, f)) > 0 && out->len < (1u << 20))
		buf_put(out, tmp, n);
	fclose(f);
}

NativeStatus
emitc_native_compile(const char *csrc, size_t len, char dir[4096], Buf *msg)
{
	catch_signals();
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
	const char *cc = getenv("CC");
	if (!cc || !*cc)
		cc = "cc";
	char *words = strdup(cc);
	char *argv[64];
	int argc = 0;
	for (char *w = strtok(words, " \t"); w && argc < 48; w = strtok(NULL, " \t"))
		argv[argc++] = w;
	if (argc == 0)
		argv[argc++] = "cc";
	const char *flags[] = { "-std=c11", "-O2", "-ffp-contract=off", "-Wall", "-Wextra" };
	for (size_t i = 0; i < sizeof flags / sizeof *flags; i++)
		argv[argc++] = (char *)flags[i];
	/* extra flags for the sanitizer lane (tests/native-test.sh --sanitize) */
	const char *extra = getenv("SEMAPRAX_NATIVE_CFLAGS");
	char *extra_words = extra ? strdup(extra) : NULL;
	for (char *w = extra_words ? strtok(extra_words, " \t") : NULL; w && argc < 56; w = strtok(NULL, " \t"))
		argv[argc++] = w;
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
	pid_t pid = start_child(true);
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
	int st = wait_child(pid);
	if (got_signal) {
		free(words);
		free(extra_words);
		emitc_native_cleanup(dir);   /* does not return */
	}
	NativeStatus r = NATIVE_OK;
	if (got == (ssize_t)sizeof exec_errno) {
		buf_printf(msg, "cannot start the C compiler `%s`: %s", argv[0], strerror(exec_errno));
		r = NATIVE_NO_CC;
	} else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		slurp(log, msg);
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
	catch_signals();
	pid_t pid = start_child(false);   /* the terminal's group: it may read the terminal */
	if (pid == 0) {
		execv(exe, argv);
		_exit(127);
	}
	if (pid == -2)
		return EINTR;
	if (pid < 0)
		return errno;
	*wstatus = wait_child(pid);
	return 0;
}

bool
emit_native_interrupted(void)
{
	return got_signal != 0;
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
	if (!catching)
		return;
	for (size_t i = 0; i < sizeof forwarded / sizeof *forwarded; i++)
		sigaction(forwarded[i], &saved[i], NULL);
	catching = false;
	int sig = got_signal;
	if (sig) {
		/* the conventional end: killed by the signal (its default action) */
		signal(sig, SIG_DFL);
		raise(sig);
		_exit(128 + sig);
	}
}
