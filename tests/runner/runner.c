/*
 * runner.c — the fixture-test harness (`make test`, `make bless`).
 *
 * Usage: spx-test [--bless] [--bin PATH] [--jobs N] DIR...
 *
 * Every `*.spx` under the given directories is a fixture.  Expectations:
 *   - inline markers: a `//~ error SPX-P201` (or `warning …`, comma-separated
 *     for several) comment on the line a diagnostic points at.  Every
 *     reported diagnostic must match exactly one marker on its emitc_line (a
 *     location-less diagnostic matches line 1) and every marker must match.
 *     A file that cannot hold a comment (e.g. an empty file) lists its
 *     markers in NAME.expect instead, one `LINE SEVERITY CODE` per line.
 *   - NAME.stderr / NAME.json: exact human (NO_COLOR) / JSON diagnostics.
 *   - clean fixtures: `fmt` output must equal NAME.fmt if present, else the
 *     fixture itself; fmt must be idempotent; and the re-parsed formatted
 *     tree must equal the original (`parse --dump-ast`, span-free).
 *   - when every error carries machine-applicable fixes, applying them all
 *     must give a file that parses cleanly.
 * The stage is chosen by directory: fixtures under a `syntax/` directory are
 * run through `semaprax parse`, under `check/` through `semaprax check`.
 * Fixtures under a `run/` directory are clean programs run with `semaprax
 * run FILE`: stdout must equal NAME.stdout and stderr NAME.stderr when those
 * snapshots exist, and the exit status must be N from a first line
 * `// exit: N` (default 0); a leading comment line `// max-steps: N` runs
 * it with `--max-steps N`; NAME.stdin, when present, is its stdin (else
 * /dev/null); no markers.
 * Fixtures under a `graph/` directory are checked as `check/` ones; a
 * NAME.cmds file beside one lists commands over it, one a line (`context
 * app.main --depth 2`: the command, then its arguments; the fixture's path
 * is inserted after the command), and NAME.out is the transcript: per
 * command `$ LINE`, its stdout, `stderr:` and its stderr when not empty,
 * and `exit N`.  Each command runs twice and must print the same bytes.  `--bless` rewrites snapshot files (.fmt,
 * and existing .stderr/.json; for run fixtures it writes non-empty .stdout/.stderr) — never markers.  Prints one FAIL line per
 * failure and ends with `N passed, N failed`.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

typedef struct Text {
	char *data;
	size_t len;
} Text;

typedef struct Marker {
	int line;
	char sev[16];
	char code[32];
	bool matched;
} Marker;

typedef struct Fix {
	long start, end;
	char *text;
} Fix;

typedef struct Diag {
	char code[32];
	char sev[16];
	int line;        /* 1 when the diagnostic has no location */
	Fix *fixes;
	int nfixes;
} Diag;

static const char *bin = "build/semaprax";
static const char *stage_command(const char *path);
static bool bless;
static char tmpdir[256];
static int npass, nfail;

/* ---- small utilities -------------------------------------------------------- */

static void *
spx_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fputs("spx-test: out of memory\n", stderr);
		exit(2);
	}
	return p;
}

static bool
read_file(const char *path, Text *t)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	size_t cap = 4096, n = 0;
	char *d = spx_xrealloc(NULL, cap);
	size_t k;
	while ((k = fread(d + n, 1, cap - n - 1, f)) > 0) {
		n += k;
		if (cap - n - 1 == 0) {
			cap *= 2;
			d = spx_xrealloc(d, cap);
		}
	}
	fclose(f);
	d[n] = '\0';
	t->data = d;
	t->len = n;
	return true;
}

static bool
write_file(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return false;
	bool ok = fwrite(data, 1, len, f) == len;
	return fclose(f) == 0 && ok;
}

static bool
text_eq(const Text *a, const Text *b)
{
	return a->len == b->len && memcmp(a->data, b->data, a->len) == 0;
}

/* Runs bin with args; captures stdout/stderr; returns the exit status (-1 on signal).
 * posix_spawn, not fork: a forked copy of this process (under ASan, with its
 * shadow memory and quarantine) cost the sanitizer lane minutes of system CPU
 * in page-table copies; NO_COLOR=1 is set once in main. */
/* What the command reads as stdin: /dev/null unless a `run/` fixture has a
 * NAME.stdin beside it (as tests/lane-lib.sh feeds the other lanes). */
static const char *run_stdin = "/dev/null";

static int
run(const char *const *args, Text *out, Text *err)
{
	char opath[300], epath[300];
	snprintf(opath, sizeof opath, "%s/out", tmpdir);
	snprintf(epath, sizeof epath, "%s/err", tmpdir);
	const char *argv[16];
	int i = 0;
	argv[i++] = bin;
	for (; args[i - 1] && i < 15; i++)
		argv[i] = args[i - 1];
	argv[i] = NULL;
	posix_spawn_file_actions_t fa;
	if (posix_spawn_file_actions_init(&fa) != 0
	    || posix_spawn_file_actions_addopen(&fa, 1, opath, O_WRONLY | O_CREAT | O_TRUNC, 0644) != 0
	    || posix_spawn_file_actions_addopen(&fa, 2, epath, O_WRONLY | O_CREAT | O_TRUNC, 0644) != 0
	    || posix_spawn_file_actions_addopen(&fa, 0, run_stdin, O_RDONLY, 0) != 0) {
		perror("posix_spawn_file_actions");
		exit(2);
	}
	pid_t pid;
	int rc = posix_spawn(&pid, bin, &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0) {
		errno = rc;
		perror(bin);
		exit(2);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	Text dummy;
	if (!read_file(opath, out ? out : &dummy))
		(out ? out : &dummy)->data = NULL;
	if (!out)
		free(dummy.data);
	if (!read_file(epath, err ? err : &dummy))
		(err ? err : &dummy)->data = NULL;
	if (!err)
		free(dummy.data);
	if (WIFSIGNALED(st))
		return -1;
	return WEXITSTATUS(st);
}

/* ---- failures ---------------------------------------------------------------- */

static bool failed_current;

static void
fail(const char *path, const char *fmt, ...)
{
	va_list ap;
	printf("FAIL %s: ", path);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	failed_current = true;
}

/* ---- markers ------------------------------------------------------------------ */

static int
parse_markers(const Text *src, Marker **out)
{
	int n = 0, cap = 0, line = 1;
	Marker *m = NULL;
	const char *p = src->data, *end = src->data + src->len;
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		const char *q = p;
		while ((q = memchr(q, '/', (size_t)(eol - q))) != NULL && q + 2 < eol) {
			if (q[1] == '/' && q[2] == '~') {
				q += 3;
				for (;;) {
					while (q < eol && (*q == ' ' || *q == ','))
						q++;
					char sev[16] = {0}, code[32] = {0};
					int a = 0, b = 0;
					while (q < eol && *q != ' ' && a < 15)
						sev[a++] = *q++;
					while (q < eol && *q == ' ')
						q++;
					while (q < eol && *q != ' ' && *q != ',' && b < 31)
						code[b++] = *q++;
					if (!a || !b)
						break;
					if (n == cap) {
						cap = cap ? cap * 2 : 8;
						m = spx_xrealloc(m, sizeof *m * (size_t)cap);
					}
					m[n].line = line;
					strcpy(m[n].sev, sev);
					strcpy(m[n].code, code);
					m[n].matched = false;
					n++;
				}
				break;
			}
			q++;
		}
		line++;
		p = eol + 1;
	}
	*out = m;
	return n;
}

/* ---- the JSON diagnostics we print (flat, known keys) --------------------------- */

static const char *
find_key(const char *obj, const char *key)
{
	char pat[64];
	snprintf(pat, sizeof pat, "\"%s\":", key);
	const char *p = strstr(obj, pat);
	return p ? p + strlen(pat) : NULL;
}

/* Decodes a JSON string at p (at the opening quote); returns the end. */
static const char *
json_string(const char *p, char **out)
{
	size_t cap = 64, n = 0;
	char *s = spx_xrealloc(NULL, cap);
	p++;
	while (*p && *p != '"') {
		char c = *p++;
		if (c == '\\') {
			char e = *p++;
			switch (e) {
			case 'n': c = '\n'; break;
			case 'r': c = '\r'; break;
			case 't': c = '\t'; break;
			case 'u': {
				unsigned v = 0;
				for (int i = 0; i < 4 && *p; i++, p++)
					v = v * 16 + (unsigned)(*p <= '9' ? *p - '0' : (*p | 32) - 'a' + 10);
				c = (char)v;
				break;
			}
			default: c = e; break;
			}
		}
		if (n + 2 >= cap)
			s = spx_xrealloc(s, cap *= 2);
		s[n++] = c;
	}
	s[n] = '\0';
	*out = s;
	return *p ? p + 1 : p;
}

static void
copy_str(char *dst, size_t size, const char *p)
{
	char *s;
	if (!p || *p != '"') {
		dst[0] = '\0';
		return;
	}
	json_string(p, &s);
	snprintf(dst, size, "%s", s);
	free(s);
}

static int
parse_diags(const Text *out, Diag **res)
{
	int n = 0;
	Diag *d = NULL;
	char *line = out->data;
	while (line && *line) {
		char *eol = strchr(line, '\n');
		if (eol)
			*eol = '\0';
		if (*line == '{' && strncmp(line, "{\"status\"", 9) != 0) {
			d = spx_xrealloc(d, sizeof *d * (size_t)(n + 1));
			Diag *x = &d[n++];
			memset(x, 0, sizeof *x);
			copy_str(x->code, sizeof x->code, find_key(line, "code"));
			copy_str(x->sev, sizeof x->sev, find_key(line, "severity"));
			const char *loc = find_key(line, "location");
			x->line = loc && *loc == '{' ? atoi(find_key(loc, "line")) : 1;
			const char *fx = find_key(line, "fixes");
			while (fx && (fx = strstr(fx, "{\"start\":")) != NULL) {
				x->fixes = spx_xrealloc(x->fixes, sizeof(Fix) * (size_t)(x->nfixes + 1));
				Fix *f = &x->fixes[x->nfixes++];
				f->start = atol(find_key(fx, "start"));
				f->end = atol(find_key(fx, "end"));
				fx = json_string(find_key(fx, "replacement"), &f->text);
			}
		}
		line = eol ? eol + 1 : NULL;
	}
	*res = d;
	return n;
}

static void
free_diags(Diag *d, int n)
{
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < d[i].nfixes; j++)
			free(d[i].fixes[j].text);
		free(d[i].fixes);
	}
	free(d);
}

/* ---- checks ---------------------------------------------------------------------- */

static void
check_markers(const char *path, Marker *m, int nm, Diag *d, int nd)
{
	for (int i = 0; i < nd; i++) {
		bool ok = false;
		for (int j = 0; j < nm && !ok; j++) {
			if (!m[j].matched && m[j].line == d[i].line && strcmp(m[j].code, d[i].code) == 0) {
				if (strcmp(m[j].sev, d[i].sev) != 0) {
					fail(path, "line %d: %s reported as %s, marker says %s", d[i].line, d[i].code, d[i].sev, m[j].sev);
				}
				m[j].matched = ok = true;
			}
		}
		if (!ok)
			fail(path, "line %d: unexpected %s %s", d[i].line, d[i].sev, d[i].code);
	}
	for (int j = 0; j < nm; j++)
		if (!m[j].matched)
			fail(path, "line %d: expected %s %s was not reported", m[j].line, m[j].sev, m[j].code);
}

static void
with_suffix(char *dst, size_t size, const char *path, const char *suffix)
{
	size_t n = strlen(path);
	if (n > 4 && strcmp(path + n - 4, ".spx") == 0)
		n -= 4;
	snprintf(dst, size, "%.*s%s", (int)n, path, suffix);
}

/* Compares got with the snapshot NAME<suffix> (if it exists; bless rewrites it). */
static void
check_snapshot(const char *path, const char *suffix, const Text *got, bool create)
{
	char snap[1024];
	with_suffix(snap, sizeof snap, path, suffix);
	Text want;
	bool exists = read_file(snap, &want);
	if (!exists && !create)
		return;
	if (exists && text_eq(&want, got)) {
		free(want.data);
		return;
	}
	if (bless) {
		write_file(snap, got->data ? got->data : "", got->len);
		printf("blessed %s\n", snap);
	} else if (exists) {
		fail(path, "output differs from snapshot %s", snap);
	} else {
		fail(path, "no snapshot %s", snap);
	}
	if (exists)
		free(want.data);
}

static int
cmp_fix(const void *a, const void *b)
{
	const Fix *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* Applies every fix; the result must parse without errors. */
static void
check_fixes(const char *path, const Text *src, Diag *d, int nd)
{
	int nerr = 0, nfix = 0;
	for (int i = 0; i < nd; i++) {
		if (strcmp(d[i].sev, "error") == 0) {
			nerr++;
			if (d[i].nfixes == 0)
				return;
		}
		nfix += d[i].nfixes;
	}
	if (nerr == 0 || nfix == 0)
		return;
	Fix *all = spx_xrealloc(NULL, sizeof(Fix) * (size_t)nfix);
	int k = 0;
	for (int i = 0; i < nd; i++)
		for (int j = 0; j < d[i].nfixes; j++)
			all[k++] = d[i].fixes[j];
	qsort(all, (size_t)nfix, sizeof(Fix), cmp_fix);
	size_t cap = src->len + 4096, n = 0;
	char *out = spx_xrealloc(NULL, cap);
	long pos = 0;
	for (int i = 0; i < nfix; i++) {
		if (all[i].start < pos || all[i].end < all[i].start || (size_t)all[i].end > src->len) {
			fail(path, "fixes overlap or fall outside the file");
			free(all);
			free(out);
			return;
		}
		size_t seg = (size_t)(all[i].start - pos), tl = strlen(all[i].text);
		if (n + seg + tl + 1 > cap)
			out = spx_xrealloc(out, cap = (n + seg + tl + 1) * 2);
		memcpy(out + n, src->data + pos, seg);
		n += seg;
		memcpy(out + n, all[i].text, tl);
		n += tl;
		pos = all[i].end;
	}
	size_t rest = src->len - (size_t)pos;
	if (n + rest + 1 > cap)
		out = spx_xrealloc(out, n + rest + 1);
	memcpy(out + n, src->data + pos, rest);
	n += rest;
	char fixed[300];
	snprintf(fixed, sizeof fixed, "%s/fixed.spx", tmpdir);
	write_file(fixed, out, n);
	Text o = {0}, e = {0};
	const char *args[] = { stage_command(path), "--json", fixed, NULL };
	int st = run(args, &o, &e);
	if (st != 0)
		fail(path, "applying the fixes does not give a file that passes `%s`:\n%s", stage_command(path), o.data ? o.data : "");
	free(o.data);
	free(e.data);
	free(all);
	free(out);
}

static void
check_fmt(const char *path, const Text *src)
{
	Text f1 = {0}, e1 = {0};
	const char *a1[] = { "fmt", "--stdout", path, NULL };
	if (run(a1, &f1, &e1) != 0) {
		fail(path, "fmt failed: %s", e1.data ? e1.data : "");
		goto out1;
	}
	char fpath[1024];
	with_suffix(fpath, sizeof fpath, path, ".fmt");
	struct stat st;
	bool has_snap = stat(fpath, &st) == 0;
	if (has_snap || !text_eq(&f1, src))
		check_snapshot(path, ".fmt", &f1, true);
	if (has_snap && text_eq(&f1, src) && bless) {
		unlink(fpath);
		printf("removed %s (input is canonical)\n", fpath);
	}
	/* A canonical input (fmt printed its bytes back): the second fmt and the
	 * two parses would run the same command on the same bytes, so they could
	 * not differ (output never depends on the file's path).  Three processes
	 * of four saved per clean fixture: in the sanitizer lane each costs
	 * ~50 ms of start and leak check (docs/DECISIONS.md "ci41"). */
	if (text_eq(&f1, src))
		goto out1;
	char tpath[300];
	snprintf(tpath, sizeof tpath, "%s/formatted.spx", tmpdir);
	write_file(tpath, f1.data, f1.len);
	Text f2 = {0}, e2 = {0};
	const char *a2[] = { "fmt", "--stdout", tpath, NULL };
	if (run(a2, &f2, &e2) != 0 || !text_eq(&f1, &f2))
		fail(path, "fmt is not idempotent");
	Text d1 = {0}, d2 = {0}, x = {0};
	const char *a3[] = { "parse", "--dump-ast", path, NULL };
	const char *a4[] = { "parse", "--dump-ast", tpath, NULL };
	int s3 = run(a3, &d1, &x);
	free(x.data);
	int s4 = run(a4, &d2, &x);
	free(x.data);
	if (s3 != 0 || s4 != 0 || !text_eq(&d1, &d2))
		fail(path, "fmt changed the meaning: the re-parsed tree differs");
	free(d1.data);
	free(d2.data);
	free(f2.data);
	free(e2.data);
out1:
	free(f1.data);
	free(e1.data);
}

/* The command a fixture's diagnostics come from, by directory. */
static const char *
stage_command(const char *path)
{
	return strstr(path, "/check/") || strstr(path, "/graph/") ? "check" : "parse";
}

/* A `graph/` fixture's NAME.cmds: every command's transcript, compared with NAME.out. */
static void
run_commands(const char *path)
{
	char cpath[1024];
	with_suffix(cpath, sizeof cpath, path, ".cmds");
	Text cmds;
	if (!read_file(cpath, &cmds))
		return;
	Text all = { NULL, 0 };
	size_t cap = 0;
	char *line = cmds.data;
	while (line && *line) {
		char *end = strchr(line, '\n');
		if (end)
			*end = '\0';
		if (*line) {
			char copy[512];
			snprintf(copy, sizeof copy, "%s", line);
			const char *args[16];
			int n = 0;
			for (char *t = strtok(copy, " "); t && n < 14; t = strtok(NULL, " ")) {
				args[n++] = t;
				if (n == 1)
					args[n++] = path;
			}
			args[n] = NULL;
			Text o1 = {0}, e1 = {0}, o2 = {0}, e2 = {0};
			int s1 = run(args, &o1, &e1), s2 = run(args, &o2, &e2);
			if (s1 != s2 || !text_eq(&o1, &o2) || !text_eq(&e1, &e2))
				fail(path, "`%s` printed different bytes on a second run", line);
			/* a context's used_bytes is its exact length without the newline */
			const char *ctx = "{\"schema\":\"semaprax.context.c1\"";
			const char *bud = o1.data ? strstr(o1.data, "\"budget\":[") : NULL;
			if (o1.data && strncmp(o1.data, ctx, strlen(ctx)) == 0
			    && (!bud || strtol(bud + 10, NULL, 10) != (long)o1.len - 1 || o1.data[o1.len - 1] != '\n'))
				fail(path, "`%s`: used_bytes is not the output's length", line);
			char head[600], tail[32];
			snprintf(head, sizeof head, "$ %s\n", line);
			snprintf(tail, sizeof tail, "exit %d\n", s1);
			const char *parts[5] = { head, o1.data ? o1.data : "", e1.len ? "stderr:\n" : "", e1.data ? e1.data : "", tail };
			size_t lens[5] = { strlen(head), o1.len, e1.len ? 8 : 0, e1.len, strlen(tail) };
			for (int k = 0; k < 5; k++) {
				if (all.len + lens[k] + 1 > cap)
					all.data = spx_xrealloc(all.data, cap = (all.len + lens[k] + 1) * 2);
				memcpy(all.data + all.len, parts[k], lens[k]);
				all.len += lens[k];
				all.data[all.len] = '\0';
			}
			free(o1.data);
			free(e1.data);
			free(o2.data);
			free(e2.data);
		}
		line = end ? end + 1 : NULL;
	}
	check_snapshot(path, ".out", &all, bless);
	free(all.data);
	free(cmds.data);
}

/* A `run/` fixture: exit status, stdout and stderr snapshots, canonical source. */
static void
run_program_fixture(const char *path, const Text *src)
{
	int want = 0;
	if (strncmp(src->data, "// exit: ", 9) == 0)
		want = atoi(src->data + 9);
	/* `// max-steps: N` among the leading comment lines: the interpreter's
	 * step budget (`run --max-steps N`, as tests/lane-lib.sh lane_steps) */
	char steps[24] = "";
	for (const char *l = src->data; l && strncmp(l, "//", 2) == 0; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (strncmp(l, "// max-steps: ", 14) == 0)
			snprintf(steps, sizeof steps, "%ld", strtol(l + 14, NULL, 10));
	Text out = {0}, err = {0};
	const char *args[] = { "run", path, NULL, NULL, NULL };
	if (steps[0]) {
		args[1] = "--max-steps";
		args[2] = steps;
		args[3] = path;
	}
	char in[1100];
	size_t n = strlen(path);
	if (n > 4 && n < sizeof in - 8 && strcmp(path + n - 4, ".spx") == 0) {
		snprintf(in, sizeof in, "%.*s.stdin", (int)(n - 4), path);
		if (access(in, R_OK) == 0)
			run_stdin = in;
	}
	int st = run(args, &out, &err);
	run_stdin = "/dev/null";
	if (st < 0)
		fail(path, "semaprax run crashed\n%s", err.data ? err.data : "");
	else if (st != want)
		fail(path, "semaprax run exited with status %d, expected %d\n%s", st, want, err.data ? err.data : "");
	check_snapshot(path, ".stdout", &out, bless && out.len > 0);
	check_snapshot(path, ".stderr", &err, bless && err.len > 0);
	check_fmt(path, src);
	free(out.data);
	free(err.data);
}

static void
run_fixture(const char *path)
{
	failed_current = false;
	Text src;
	if (!read_file(path, &src)) {
		fail(path, "cannot read");
		nfail++;
		return;
	}
	if (strstr(path, "/run/")) {
		run_program_fixture(path, &src);
		free(src.data);
		if (failed_current)
			nfail++;
		else
			npass++;
		return;
	}
	Marker *m;
	int nm = parse_markers(&src, &m);
	char xpath[1024];
	with_suffix(xpath, sizeof xpath, path, ".expect");
	FILE *xf = fopen(xpath, "r");
	if (xf) {
		int line;
		char sev[16], code[32];
		while (fscanf(xf, "%d %15s %31s", &line, sev, code) == 3) {
			m = spx_xrealloc(m, sizeof *m * (size_t)(nm + 1));
			m[nm].line = line;
			strcpy(m[nm].sev, sev);
			strcpy(m[nm].code, code);
			m[nm].matched = false;
			nm++;
		}
		fclose(xf);
	}
	Text out = {0}, err = {0};
	const char *args[] = { stage_command(path), "--json", path, NULL };
	int st = run(args, &out, &err);
	if (st < 0 || st > 1) {
		fail(path, "semaprax %s exited with status %d (crash or usage error)\n%s", stage_command(path), st, err.data ? err.data : "");
	} else {
		Diag *d;
		Text copy = { out.data ? strdup(out.data) : NULL, out.len };
		int nd = copy.data ? parse_diags(&copy, &d) : 0;
		if (!copy.data)
			d = NULL;
		check_markers(path, m, nm, d, nd);
		check_snapshot(path, ".json", &out, false);
		int nerr = 0;
		for (int i = 0; i < nd; i++)
			nerr += strcmp(d[i].sev, "error") == 0;
		if ((nerr > 0) != (st == 1))
			fail(path, "exit status %d does not match %d errors", st, nerr);
		char snap[1024];
		struct stat sb;
		with_suffix(snap, sizeof snap, path, ".stderr");
		if (stat(snap, &sb) == 0) {
			Text hout = {0}, herr = {0};
			const char *h[] = { stage_command(path), path, NULL };
			run(h, &hout, &herr);
			check_snapshot(path, ".stderr", &herr, false);
			free(hout.data);
			free(herr.data);
		}
		with_suffix(snap, sizeof snap, path, ".hir");
		if (nerr == 0 && stat(snap, &sb) == 0) {
			/* the typed HIR with its cleanup plan (`check --dump-hir`) */
			Text hout = {0}, herr = {0};
			const char *h[] = { "check", "--dump-hir", path, NULL };
			run(h, &hout, &herr);
			check_snapshot(path, ".hir", &hout, bless);
			free(hout.data);
			free(herr.data);
		}
		if (nerr == 0)
			check_fmt(path, &src);
		else
			check_fixes(path, &src, d, nd);
		if (strstr(path, "/graph/"))
			run_commands(path);
		free_diags(d, nd);
		free(copy.data);
	}
	free(out.data);
	free(err.data);
	free(m);
	free(src.data);
	if (failed_current)
		nfail++;
	else
		npass++;
}

/* ---- discovery -------------------------------------------------------------------- */

typedef struct PathList {
	char **items;
	int len;
} PathList;

static int
cmp_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
collect(const char *dir, PathList *out)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		size_t n = strlen(dir) + strlen(e->d_name) + 2;
		char *p = spx_xrealloc(NULL, n);
		snprintf(p, n, "%s/%s", dir, e->d_name);
		struct stat st;
		if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
			collect(p, out);
			free(p);
		} else if (n > 5 && strcmp(p + strlen(p) - 4, ".spx") == 0) {
			out->items = spx_xrealloc(out->items, sizeof(char *) * (size_t)(out->len + 1));
			out->items[out->len++] = p;
		} else {
			free(p);
		}
	}
	closedir(d);
}

int
main(int argc, char **argv)
{
	PathList paths = {0};
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--bless") == 0)
			bless = true;
		else if (strcmp(argv[i], "--bin") == 0 && i + 1 < argc)
			bin = argv[++i];
		else
			collect(argv[i], &paths);
	}
	/* `check` lowers and re-validates the HIR (a compiler self-check) only
	 * when asked: every fixture asks (src/cli/cmd_check.c). */
	setenv("SEMAPRAX_VALIDATE_HIR", "1", 1);
	if (paths.len)
		qsort(paths.items, (size_t)paths.len, sizeof(char *), cmp_path);
	snprintf(tmpdir, sizeof tmpdir, "/tmp/spx-test-XXXXXX");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 2;
	}
	setenv("NO_COLOR", "1", 1);
	for (int i = 0; i < paths.len; i++) {
		run_fixture(paths.items[i]);
		free(paths.items[i]);
	}
	free(paths.items);
	const char *files[] = { "out", "err", "fixed.spx", "formatted.spx" };
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		char p[300];
		snprintf(p, sizeof p, "%s/%s", tmpdir, files[i]);
		unlink(p);
	}
	rmdir(tmpdir);
	printf("%d passed, %d failed\n", npass, nfail);
	return nfail ? 1 : 0;
}
