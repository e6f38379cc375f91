/*
 * cmd_doctor.c — `semaprax doctor [--json]`: can each lane run on this
 * machine?  The interpreter is built in; the C lane needs the system C
 * compiler (`$CC`, default `cc`) and the C library's headers, the Wasm lane
 * Node.js (`$SEMAPRAX_NODE`, default `node`).  Nothing is assumed from a
 * tool's presence: a small probe program (a Vec, string_format, stdout) is
 * written to a private temporary directory and run by this same binary as
 * a user would run it — `run`, `run --native`, `run --wasm` — each in its
 * own process group, stdout and stderr captured (64 KiB each at most), at
 * most 120 s each.  A lane is
 *
 *   ready    its run exited 0 and printed exactly what the probe prints;
 *   missing  its tool cannot be started (SPX-B101, SPX-W101);
 *   broken   anything else (the compiler rejected the program, the run
 *            failed, or printed something else): the run's first lines are
 *            shown.
 *
 * Each tool's `--version` first line names what was found.  Exit 0 when
 * every lane is ready, 1 otherwise (a usage error 2).  `--json` prints one
 * `semaprax.doctor.v1` object.  Interrupted, the probes' process groups are
 * signalled too and the directory removed (support/child.h).
 */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../support/child.h"
#include "../support/json.h"

static const char probe_src[] =
	"module doctor.probe;\n"
	"\n"
	"permit { process.stdout.write }\n"
	"\n"
	"@id(\"doctor.probe.main\")\n"
	"fn main() -> i64\n"
	"    uses { process.stdout.write }\n"
	"{\n"
	"    let mut v = vec_with_capacity<i64>(4usize);\n"
	"    v = vec_push<i64>(v, 40);\n"
	"    v = vec_push<i64>(v, 2);\n"
	"    let text = string_format(\"probe {}\\n\", string_from_i64(i64_from_usize(vec_len<i64>(v))));\n"
	"    let view = string_as_str(text);\n"
	"    let _ = stdout_write(str_as_bytes(view));\n"
	"    42\n"
	"}\n";
static const char probe_out[] = "probe 2\n42\n";

enum { CAPTURE_CAP = 65536, PROBE_SECONDS = 120, VERSION_SECONDS = 10 };

typedef struct Capture {
	Buf out, err;
	int status;          /* wait status, when ran */
	int exec_errno;      /* the program could not be started */
	bool ran, timed_out;
} Capture;

static void
capture_free(Capture *c)
{
	buf_free(&c->out);
	buf_free(&c->err);
}

static char *fmt_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *
fmt_text(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = spx_vformat(fmt, ap);
	va_end(ap);
	return s;
}

static double
now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Appends what fd has to b (at most CAPTURE_CAP kept); false at end of file. */
static bool
drain(int fd, Buf *b)
{
	char chunk[4096];
	ssize_t n = read(fd, chunk, sizeof chunk);
	if (n < 0)
		return errno == EINTR || errno == EAGAIN;
	if (n == 0)
		return false;
	size_t room = b->len < CAPTURE_CAP ? CAPTURE_CAP - b->len : 0;
	buf_put(b, chunk, (size_t)n < room ? (size_t)n : room);
	return true;
}

/* A probe over its time: SIGTERM lets its semaprax stop its own compiler
 * or node and remove its directory; SIGKILL 5 s later if it has not ended. */
static void
stop_group(pid_t pid)
{
	kill(-pid, SIGTERM);
	for (int i = 0; i < 50; i++) {
		siginfo_t si;
		memset(&si, 0, sizeof si);
		if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid)
			return;   /* ended; child_wait reaps it */
		struct timespec ts = { 0, 100000000 };
		nanosleep(&ts, NULL);
	}
	kill(-pid, SIGKILL);
}

/*
 * Runs argv (PATH searched) with stdin from /dev/null in its own process
 * group, capturing stdout and stderr; kills the group after `seconds`.
 * false when interrupted by a forwarded signal (the caller cleans up and
 * calls child_release).
 */
static bool
capture_run(char **argv, int seconds, Capture *c)
{
	memset(c, 0, sizeof *c);
	int po[2], pe[2], px[2];
	if (pipe(po) != 0)
		return c->exec_errno = errno, true;
	if (pipe(pe) != 0) {
		c->exec_errno = errno;
		close(po[0]), close(po[1]);
		return true;
	}
	if (pipe(px) != 0) {
		c->exec_errno = errno;
		close(po[0]), close(po[1]), close(pe[0]), close(pe[1]);
		return true;
	}
	fcntl(px[1], F_SETFD, FD_CLOEXEC);
	fflush(NULL);
	pid_t pid = child_start(true);
	if (pid == 0) {
		int in = open("/dev/null", O_RDONLY);
		if (in >= 0)
			dup2(in, 0);
		dup2(po[1], 1);
		dup2(pe[1], 2);
		close(po[0]), close(pe[0]), close(px[0]);
		/* the copies above fd 2 are not the probe's: its compiler or node
		 * would hold the capture pipes open too */
		if (in > 2)
			close(in);
		if (po[1] > 2)
			close(po[1]);
		if (pe[1] > 2)
			close(pe[1]);
		execvp(argv[0], argv);
		int e = errno;
		ssize_t w = write(px[1], &e, sizeof e);
		(void)w;
		_exit(127);
	}
	close(po[1]), close(pe[1]), close(px[1]);
	if (pid < 0) {
		c->exec_errno = errno;
		close(po[0]), close(pe[0]), close(px[0]);
		return pid != -2;
	}
	int e = 0;
	if (read(px[0], &e, sizeof e) == (ssize_t)sizeof e)
		c->exec_errno = e;
	close(px[0]);
	struct pollfd fds[2] = { { po[0], POLLIN, 0 }, { pe[0], POLLIN, 0 } };
	Buf *into[2] = { &c->out, &c->err };
	int open_fds = 2;
	double deadline = now_seconds() + seconds;
	while (open_fds > 0 && !child_interrupted()) {
		double left = deadline - now_seconds();
		if (left <= 0) {
			c->timed_out = true;
			stop_group(pid);
			break;
		}
		int r = poll(fds, 2, left > 1 ? 1000 : (int)(left * 1000) + 1);
		if (r < 0 && errno != EINTR)
			break;
		for (int i = 0; i < 2 && r > 0; i++) {
			if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (!drain(fds[i].fd, into[i])) {
				close(fds[i].fd);
				fds[i].fd = -1;
				open_fds--;
			}
		}
	}
	for (int i = 0; i < 2; i++)
		if (fds[i].fd >= 0)
			close(fds[i].fd);
	/* interrupted: the signal was forwarded to the group (child.h), and
	 * the probe's semaprax cleans up its own compiler or node */
	c->status = child_wait(pid);
	c->ran = !c->exec_errno;
	return !child_interrupted();
}

typedef enum { LANE_READY, LANE_MISSING, LANE_BROKEN } LaneState;

typedef struct Lane {
	const char *name;       /* interpreter, native, wasm */
	const char *title;      /* as printed */
	const char *commands;   /* what it serves */
	const char *flag;       /* run's lane flag, or NULL */
	const char *env;        /* the tool's variable, or NULL */
	const char *fallback;   /* the tool when env is unset */
	bool split;             /* env holds words (`$CC`), not one path */
	const char *help;       /* what to do when missing */
	char *tool;             /* the tool's --version first line, or NULL */
	LaneState state;
	char *detail;
} Lane;

/* Removes " at <file>[:line:col]" from text: the probe's temporary path
 * would make the report differ from run to run. */
static void
drop_path(char *text, const char *file)
{
	size_t fl = strlen(file);
	for (char *p = strstr(text, " at "); p; p = strstr(p, " at ")) {
		if (strncmp(p + 4, file, fl) != 0) {
			p += 4;
			continue;
		}
		char *q = p + 4 + fl;
		while (*q == ':' || (*q >= '0' && *q <= '9'))
			q++;
		memmove(p, q, strlen(q) + 1);
	}
}

/* The first line of text, without the probe's path (file, when not NULL:
 * removed before the cut, so no part of it is left), at most 200 bytes cut
 * between characters; NULL when empty. */
static char *
first_line(const Buf *b, const char *file)
{
	if (!b->len)
		return NULL;
	size_t n = 0;
	while (n < b->len && b->data[n] != '\n' && b->data[n] != '\r')
		n++;
	char *line = fmt_text("%.*s", (int)n, b->data);
	if (file)
		drop_path(line, file);
	n = strlen(line);
	if (n > 200) {
		n = 200;
		while (n && ((unsigned char)line[n] & 0xC0) == 0x80)
			n--;
		line[n] = '\0';
	}
	if (!n) {
		free(line);
		return NULL;
	}
	return line;
}

/* The tool named by env or fallback, `--version`'s first line.  The lane's
 * own reading of env: `$CC` is words (emit_c/cc.c), `$SEMAPRAX_NODE` one
 * program path (emit_wasm/node.c), which may hold a blank. */
static bool
tool_version(Lane *l)
{
	const char *v = getenv(l->env);
	char *argv[50], *words = NULL;
	int argc = 0;
	if (l->split) {
		argc = spx_split_words(v, argv, 48, &words);
		argc = argc < 48 ? argc : 48;   /* more: the lane's run refuses them (B101) */
	} else if (v && *v)
		argv[argc++] = (char *)v;
	if (argc == 0)
		argv[argc++] = (char *)l->fallback;
	argv[argc++] = "--version";
	argv[argc] = NULL;
	Capture c;
	bool go_on = capture_run(argv, VERSION_SECONDS, &c);
	if (c.ran && !c.timed_out && WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0)
	{
		char *line = first_line(&c.out, NULL);
		l->tool = line ? fmt_text("`%s`: %s", argv[0], line) : NULL;
		free(line);
	}
	if (c.ran && !l->tool)
		l->tool = fmt_text("`%s`, whose `--version` printed nothing or failed", argv[0]);
	capture_free(&c);
	free(words);
	return go_on;
}

/* Judges the run of the probe (file) on lane l. */
static void
judge(Lane *l, const Capture *c, const char *file)
{
	const char *err = c->err.data ? c->err.data : "";
	if (!c->ran) {
		l->state = LANE_BROKEN;
		l->detail = fmt_text("cannot start semaprax itself: %s", strerror(c->exec_errno));
	} else if (c->timed_out) {
		l->state = LANE_BROKEN;
		l->detail = fmt_text("the probe did not finish within %d s", PROBE_SECONDS);
	} else if (strstr(err, "error[SPX-B101]") || strstr(err, "error[SPX-W101]")) {
		l->state = LANE_MISSING;
		char *line = first_line(&c->err, file);
		const char *m = line ? strstr(line, "]: ") : NULL;
		l->detail = fmt_text("%s", m ? m + 3 : line ? line : "");
		free(line);
	} else if (WIFEXITED(c->status) && WEXITSTATUS(c->status) == 0 &&
		   c->out.len == strlen(probe_out) && memcmp(c->out.data, probe_out, c->out.len) == 0 && !c->err.len) {
		l->state = LANE_READY;
		l->detail = fmt_text("the probe program ran and printed `probe 2` and `42`, as in the language");
	} else {
		l->state = LANE_BROKEN;
		Buf d = {0};
		if (WIFEXITED(c->status))
			buf_printf(&d, "the probe exited %d", WEXITSTATUS(c->status));
		else
			buf_printf(&d, "the probe ended by signal %d", WIFSIGNALED(c->status) ? WTERMSIG(c->status) : 0);
		char *o = first_line(&c->out, file), *e = first_line(&c->err, file);
		if (e)
			buf_printf(&d, "; stderr: %s", e);
		else if (!WIFEXITED(c->status) || WEXITSTATUS(c->status) == 0)
			buf_printf(&d, "; stdout: %s (expected `probe 2` and `42`)", o ? o : "(nothing)");
		free(o);
		free(e);
		l->detail = d.data ? d.data : fmt_text("the probe failed");
	}
	drop_path(l->detail, file);
}

static const char *const state_word[] = { "ready", "missing", "broken" };

static void
print_text(const Lane *lanes, int n)
{
	printf("semaprax %s (C implementation), on this machine:\n", SPX_VERSION);
	int ready = 0;
	for (int i = 0; i < n; i++) {
		const Lane *l = &lanes[i];
		ready += l->state == LANE_READY;
		printf("  %-8s %-12s %s\n", state_word[l->state], l->title, l->commands);
		if (l->tool) {
			fputs("           found: ", stdout);
			cli_put_visible(stdout, l->tool);
			fputc('\n', stdout);
		}
		fputs("           ", stdout);
		cli_put_visible(stdout, l->detail);
		fputc('\n', stdout);
		if (l->state != LANE_READY && l->help)
			printf("           help: %s\n", l->help);
	}
	if (ready == n)
		printf("every lane is ready\n");
	else
		printf("%d of %d lanes ready\n", ready, n);
}

static void
print_json(const Lane *lanes, int n)
{
	Buf b = {0};
	bool all = true;
	for (int i = 0; i < n; i++)
		all &= lanes[i].state == LANE_READY;
	buf_printf(&b, "{\"schema\":\"semaprax.doctor.v1\",\"version\":\"%s\",\"ready\":%s,\"lanes\":[", SPX_VERSION,
	    all ? "true" : "false");
	for (int i = 0; i < n; i++) {
		const Lane *l = &lanes[i];
		buf_printf(&b, "%s{\"lane\":\"%s\",\"commands\":", i ? "," : "", l->name);
		json_cstr(&b, l->commands);
		buf_printf(&b, ",\"status\":\"%s\",\"tool\":", state_word[l->state]);
		json_cstr(&b, l->tool);
		buf_puts(&b, ",\"detail\":");
		json_cstr(&b, l->detail);
		buf_puts(&b, ",\"help\":");
		json_cstr(&b, l->state != LANE_READY ? l->help : NULL);
		buf_putc(&b, '}');
	}
	buf_puts(&b, "]}\n");
	fwrite(b.data, 1, b.len, stdout);
	buf_free(&b);
}

static void
remove_probe(const char *dir, const char *file)
{
	if (file[0])
		unlink(file);
	if (dir[0])
		rmdir(dir);
}

int
cli_cmd_doctor(int argc, char **argv)
{
	bool json = false;
	int st = cli_json_only("doctor", argc, argv, &json);
	if (st != EXIT_OK)
		return st;
	Lane lanes[] = {
		{ "interpreter", "interpreter", "check, fmt, graph, run, test, serve, lsp", NULL, NULL, NULL, false, NULL,
		  NULL, LANE_BROKEN, NULL },
		{ "native", "C lane", "run --native, build", "--native", "CC", "cc", true,
		  "install a C compiler and the C library's headers (Debian `gcc` and `libc6-dev`), or set `CC` to one",
		  NULL, LANE_BROKEN, NULL },
		{ "wasm", "Wasm lane", "run --wasm (build --target wasm needs nothing)", "--wasm", "SEMAPRAX_NODE", "node", false,
		  "install Node.js (Debian `nodejs`), or set `SEMAPRAX_NODE` to a working `node`", NULL, LANE_BROKEN, NULL },
	};
	int n = (int)(sizeof lanes / sizeof *lanes);
	char self[4096] = "", dir[4096] = "", file[4200] = "";
	ssize_t sn = readlink("/proc/self/exe", self, sizeof self - 1);
	if (sn > 0)
		self[sn] = '\0';
	else   /* no /proc: the installed name on PATH (argv[0] here is the command word, `doctor`) */
		snprintf(self, sizeof self, "semaprax");
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, sizeof dir, "%s/semaprax-doctor-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	/* the probe file in a private directory; on a failure neither is left */
	bool made = mkdtemp(dir) != NULL;
	int e = errno;
	FILE *f = NULL;
	if (made) {
		snprintf(file, sizeof file, "%s/probe.spx", dir);
		f = fopen(file, "wb");
		e = errno;
	}
	bool wrote = f && fwrite(probe_src, 1, sizeof probe_src - 1, f) == sizeof probe_src - 1;
	if (!wrote && f)
		e = errno;
	if (f && fclose(f) != 0 && wrote) {
		wrote = false;
		e = errno;
	}
	if (!wrote) {
		if (f)
			unlink(file);
		if (made)
			rmdir(dir);
		char *msg = fmt_text("doctor cannot write its probe program under %s: %s", tmp && *tmp ? tmp : "/tmp", strerror(e));
		cli_report(DIAG_I101, NULL, msg, "set `TMPDIR` to a writable directory");   /* control bytes shown \\xNN */
		free(msg);
		return EXIT_FAIL;
	}
	child_catch();
	bool go_on = true;
	for (int i = 0; i < n && go_on; i++) {
		Lane *l = &lanes[i];
		if (l->env)
			go_on = tool_version(l);
		if (!go_on)
			break;
		char *pargv[] = { self, "run", l->flag ? (char *)l->flag : file, l->flag ? file : NULL, NULL };
		Capture c;
		go_on = capture_run(pargv, PROBE_SECONDS, &c);
		judge(l, &c, file);
		capture_free(&c);
	}
	remove_probe(dir, file);
	child_release();   /* re-raises a forwarded signal: the probes are gone */
	if (json)
		print_json(lanes, n);
	else
		print_text(lanes, n);
	bool all = true;
	for (int i = 0; i < n; i++) {
		all &= lanes[i].state == LANE_READY;
		free(lanes[i].tool);
		free(lanes[i].detail);
	}
	fflush(stdout);
	return all ? EXIT_OK : EXIT_FAIL;
}
