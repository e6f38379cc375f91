/*
 * node.c — running a module under Node.js for `run --wasm` (emit_wasm.h):
 * a fresh private temporary directory holds program.wasm and the host
 * (host.mjs, run.mjs); `node run.mjs program.wasm args…` runs with stdio
 * inherited.  A `node` that cannot be started is reported through a
 * close-on-exec pipe (WASM_RUN_NO_NODE), never confused with a failing
 * program.  As for the native lane, SIGINT, SIGTERM and SIGHUP are
 * forwarded to node while it runs (support/child.h); after the directory
 * is removed the process ends by that signal.  V8 bounds its stack at about
 * 1 MB, where 256 frames of wide values (which the interpreter and the
 * native lane run) overflowed: node runs with its stack limit raised and
 * V8 told so (node_stack).
 */
#include "emit_wasm.h"

#include "../support/child.h"
#include "../support/utf8.h"

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
write_file(const char *dir, const char *name, const void *data, size_t len)
{
	char p[4200];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	int fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd < 0)
		return false;
	const char *d = data;
	bool ok = true;
	for (size_t off = 0; ok && off < len;) {
		ssize_t w = write(fd, d + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		ok = w > 0;
		off += w > 0 ? (size_t)w : 0;
	}
	return close(fd) == 0 && ok;
}

static void
remove_dir(const char *dir)
{
	const char *names[] = { "program.wasm", "host.mjs", "run.mjs", "unstarted", "stdout-closed" };
	char p[4200];
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		snprintf(p, sizeof p, "%s/%s", dir, names[i]);
		unlink(p);
	}
	rmdir(dir);
}

/*
 * The stack node gets: RLIMIT_STACK raised toward 256 MiB (child_stack_limit;
 * true when *rl is to be set in the child) and the V8 flag
 * `--stack-size=<KiB>` 8 MiB below the limit it will have, in flag (empty
 * when that is under 16 MiB: V8's default then).
 */
#define NODE_STACK_WANT ((rlim_t)256 << 20)
static bool
node_stack(struct rlimit *rl, char *flag, size_t cap)
{
	flag[0] = 0;
	bool grow = child_stack_limit(NODE_STACK_WANT, rl);
	rlim_t have = rl->rlim_cur == RLIM_INFINITY || rl->rlim_cur > NODE_STACK_WANT ? NODE_STACK_WANT : rl->rlim_cur;
	if (have >= ((rlim_t)16 << 20))
		snprintf(flag, cap, "--stack-size=%lu", (unsigned long)((have - ((rlim_t)8 << 20)) / 1024));
	return grow;
}

WasmRunStatus
emitw_node_run(const Buf *module, char **args, int nargs, int *wstatus, Buf *msg)
{
	/* node takes its script and module paths as UTF-8 text (other bytes become
	 * U+FFFD, a file it cannot find: W101, "it must be Node.js"), so a
	 * $TMPDIR that is not UTF-8 is passed over for /tmp (sec33) */
	const char *tmp = getenv("TMPDIR");
	if (tmp && utf8_validate((const unsigned char *)tmp, strlen(tmp)) != strlen(tmp))
		tmp = NULL;
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/semaprax-wasm-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		buf_printf(msg, "cannot create a temporary directory: %s", strerror(errno));
		return WASM_RUN_IO;
	}
	if (!write_file(dir, "program.wasm", module->data, module->len) ||
	    !write_file(dir, "host.mjs", emitw_host_mjs, strlen(emitw_host_mjs)) ||
	    !write_file(dir, "run.mjs", emitw_run_mjs, strlen(emitw_run_mjs)) ||
	    !write_file(dir, "unstarted", "", 0)) {
		buf_printf(msg, "cannot write into %s: %s", dir, strerror(errno));
		remove_dir(dir);
		return WASM_RUN_IO;
	}
	const char *node = getenv("SEMAPRAX_NODE");
	if (!node || !*node)
		node = "node";
	char runp[4200], progp[4200];
	snprintf(runp, sizeof runp, "%s/run.mjs", dir);
	snprintf(progp, sizeof progp, "%s/program.wasm", dir);
	struct rlimit rl;
	char stack[64];
	bool grow = node_stack(&rl, stack, sizeof stack);
	char **argv = spx_xmalloc(sizeof *argv * ((size_t)nargs + 5));
	int k = 0;
	argv[k++] = (char *)node;
	if (stack[0])
		argv[k++] = stack;
	argv[k++] = runp;
	argv[k++] = progp;
	for (int i = 0; i < nargs; i++)
		argv[k++] = args[i];
	argv[k] = NULL;
	int pfd[2];
	if (pipe(pfd) != 0) {
		buf_printf(msg, "cannot create a pipe: %s", strerror(errno));
		free(argv);
		remove_dir(dir);
		return WASM_RUN_IO;
	}
	fcntl(pfd[1], F_SETFD, FD_CLOEXEC);
	child_catch();
	pid_t pid = child_start(false);   /* the terminal's group: the program may read it */
	if (pid == 0) {
		close(pfd[0]);
		/* the exec-error pipe above fd 2: with stdin and stdout closed it was
		 * fd 1, open here and closed at exec (node reopened it writable) */
		if (pfd[1] <= 2) {
			int hi = fcntl(pfd[1], F_DUPFD_CLOEXEC, 3);
			if (hi >= 0) {
				close(pfd[1]);
				pfd[1] = hi;
			}
		}
		/*
		 * A closed stdin would be reopened as /dev/null by node (an empty
		 * input); the other lanes' read fails (command-input.v1 code 3).  A
		 * directory on fd 0 (open takes the lowest free descriptor) fails
		 * node's reads the same way.  A closed stdout or stderr would be
		 * reopened writable, so output that goes nowhere was a success
		 * (sec33); /dev/null opened read-only fails every write with EBADF,
		 * as the closed descriptor fails the native lane's.  In order, so
		 * each open takes the descriptor it fills.
		 */
		if (fcntl(0, F_GETFD) == -1 && errno == EBADF)
			(void)open("/", O_RDONLY | O_DIRECTORY);
		for (int fd = 1; fd <= 2; fd++)
			if (fcntl(fd, F_GETFD) == -1 && errno == EBADF)
				(void)open("/dev/null", O_RDONLY);
		if (grow)
			(void)setrlimit(RLIMIT_STACK, &rl);
		execvp(argv[0], argv);
		int e = errno;
		ssize_t w = write(pfd[1], &e, sizeof e);
		(void)w;
		_exit(127);
	}
	int fork_errno = errno;
	close(pfd[1]);
	WasmRunStatus r = WASM_RUN_OK;
	if (pid == -2) {
		r = WASM_RUN_IO;   /* interrupted before node started: child_release ends the process */
	} else if (pid < 0) {
		buf_printf(msg, "cannot fork: %s", strerror(fork_errno));
		r = WASM_RUN_IO;
	} else {
		int exec_errno = 0;
		ssize_t got;
		while ((got = read(pfd[0], &exec_errno, sizeof exec_errno)) < 0 && errno == EINTR)
			;
		*wstatus = child_wait(pid);
		char unstartedp[4200], closedp[4200];
		snprintf(unstartedp, sizeof unstartedp, "%s/unstarted", dir);
		snprintf(closedp, sizeof closedp, "%s/stdout-closed", dir);
		if (got == (ssize_t)sizeof exec_errno) {
			buf_printf(msg, "cannot start `%s`: %s", node, strerror(exec_errno));
			r = WASM_RUN_NO_NODE;
		} else if (access(unstartedp, F_OK) == 0) {
			/* run.mjs removes `unstarted` first: whatever ran did not run it */
			int w = *wstatus;
			buf_printf(msg, "`%s` ", node);
			if (WIFSIGNALED(w))
				buf_printf(msg, "ended by signal %d", WTERMSIG(w));
			else
				buf_printf(msg, "exited with status %d", WIFEXITED(w) ? WEXITSTATUS(w) : -1);
			buf_printf(msg, " without running the Wasm host (run.mjs); it must be Node.js");
			r = WASM_RUN_NO_NODE;
		} else if (access(closedp, F_OK) == 0) {
			r = WASM_RUN_PIPE_CLOSED;   /* run.mjs met EPIPE: the native program ends by SIGPIPE there */
		}
	}
	close(pfd[0]);
	free(argv);
	remove_dir(dir);
	child_release();
	return r;
}
