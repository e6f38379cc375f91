/*
 * cmd_project_lanes.c — the compiled lanes for projects (issue 15): `run
 * --native|--wasm` of a project, the C unit and Wasm module `build` writes,
 * and the captured runs of `test --lane native|wasm|all` (cmd_test.c).
 *
 * Every module of the checked, lowered project goes into one C unit
 * (emit_c_project: names prefixed per module, imported calls naming the
 * provider's instance, shared types spelled by identity) or one Wasm module
 * (emit_wasm_project), on the route of the union of the modules' permits
 * (cli_project_admit; the Wasm module imports what those permits grant).
 * A construct a lane does not cover is its B110/W110 refusal.
 */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../driver/route.h"
#include "../emit_c/emit_c.h"
#include "../emit_wasm/emit_wasm.h"
#include "../interp/interp.h"
#include "../project/project.h"
#include "../rt/rt.h"
#include "../support/child.h"

bool
cli_project_emit_c(Project *pj, const HirGrants *host, ModuleId entry, const int *funcs, int nfuncs, bool report_status, bool staged, Buf *out)
{
	int n = pj->P.nmods;
	HirModule **mods = spx_xmalloc(sizeof *mods * (size_t)n);
	DiagSink **diags = spx_xmalloc(sizeof *diags * (size_t)n);
	for (int i = 0; i < n; i++) {
		mods[i] = pj->P.mods[i]->s.H;
		diags[i] = &pj->P.mods[i]->s.diags;
	}
	EmitOptions eo = { .staged = staged, .host = host, .report_status = report_status, .chunk_every = cli_c_chunk_every() };
	int *order = spx_xmalloc(sizeof *order * (size_t)n);
	for (int i = 0; i < n; i++)
		order[i] = (int)pj->P.order[i];
	bool ok = emit_c_project(mods, n, order, (int)entry, funcs, nfuncs, &eo, out, diags);
	free(order);
	free(diags);
	free(mods);
	return ok;
}

bool
cli_project_native_compile(Project *pj, const HirGrants *host, ModuleId entry, const int *funcs, int nfuncs, bool report_status, bool staged,
    char dir[4096])
{
	dir[0] = '\0';
	Buf c = {0};
	if (!cli_project_emit_c(pj, host, entry, funcs, nfuncs, report_status, staged, &c)) {
		buf_free(&c);
		return false;
	}
	return cli_native_compile_c(&c, &pj->diags, dir);
}

/* One module of every module (emit_wasm_project) with wo's exports. */
static bool
project_wasm(Project *pj, const HirGrants *host, ModuleId entry, const int *funcs, int nfuncs, int which, WasmOptions *wo,
    DiagSink *const *into, Buf *out)
{
	int n = pj->P.nmods;
	HirModule **mods = spx_xmalloc(sizeof *mods * (size_t)n);
	DiagSink **diags = spx_xmalloc(sizeof *diags * (size_t)n);
	int *order = spx_xmalloc(sizeof *order * (size_t)n);
	for (int i = 0; i < n; i++) {
		mods[i] = pj->P.mods[i]->s.H;
		diags[i] = into ? into[i] : &pj->P.mods[i]->s.diags;
		order[i] = (int)pj->P.order[i];
	}
	wo->host = host;
	bool ok = emit_wasm_project(mods, n, order, (int)entry, funcs, nfuncs, which, wo, out, diags);
	free(order);
	free(diags);
	free(mods);
	return ok;
}

bool
cli_project_wasm_module(Project *pj, const HirGrants *host, ModuleId entry, const int *funcs, int nfuncs, int which, bool report_status,
    DiagSink *const *into, Buf *out)
{
	WasmOptions wo;
	memset(&wo, 0, sizeof wo);
	wo.report_status = report_status;
	return project_wasm(pj, host, entry, funcs, nfuncs, which, &wo, into, out);
}

bool
cli_project_wasm_web(Project *pj, const HirGrants *host, ModuleId entry, int mainf, const int *funcs, const int *mods, int n, Buf *out)
{
	WasmOptions wo;
	memset(&wo, 0, sizeof wo);
	wo.exports = funcs;
	wo.export_mods = mods;
	wo.nexports = n;
	return project_wasm(pj, host, entry, &mainf, 1, 0, &wo, NULL, out);
}

/* Runs a module under node (stdio inherited) with the arguments; its exit
 * status, -2 when it wrote to a pipe whose reader had left (the native lane's
 * SIGPIPE), or -1 after W101/I101 into the project's diagnostics. */
static int
wasm_exec(Project *pj, const Buf *mod, char **args, int nargs)
{
	int st = 0;
	Buf msg = {0};
	fflush(stdout);
	WasmRunStatus r = emitw_node_run(mod, args, nargs, &st, &msg);
	if (r == WASM_RUN_NO_NODE)
		diag_report(&pj->diags, DIAG_W101, NULL, "%s", msg.data ? msg.data : "");
	else if (r == WASM_RUN_IO)
		diag_report(&pj->diags, DIAG_I101, NULL, "%s", msg.data ? msg.data : "");
	buf_free(&msg);
	return r == WASM_RUN_OK ? st : r == WASM_RUN_PIPE_CLOSED ? -2 : -1;
}

/* The entry module's `main` as the one entry function; false (F102) without it. */
static bool
entry_main(Project *pj, ModuleId *entry, int *mainf)
{
	*entry = driver_program_find(&pj->P, pj->man.entry);
	*mainf = *entry != DRIVER_NO_MODULE ? hir_find_main(pj->P.mods[*entry]->s.H) : -1;
	if (*mainf < 0) {
		Diag *d = diag_report(&pj->diags, DIAG_F102, NULL, "the entry module `%s` has no `main` to run", pj->man.entry);
		diag_set_help(d, "define `fn main() -> i64` in the entry module");
		return false;
	}
	return true;
}

int
cli_project_run_native(const char *manifest, bool wasm, const char *grant, bool have_args, char **args, int nargs)
{
	Project pj;
	HirGrants host;
	memset(&host, 0, sizeof host);
	bool ok = project_check(&pj, manifest) && project_lower(&pj) && cli_project_admit(&pj, &host);
	if (ok && host.fs_write && !grant)
		ok = driver_grant_write(&host, false, NULL, &pj.diags);
	if (ok && have_args && host.route != ROUTE_COMMAND) {
		project_emit_diags(&pj, false);
		project_free(&pj);
		return cli_args_refused();
	}
	if (ok && have_args && !cli_args_fit(args, nargs)) {
		project_emit_diags(&pj, false);
		project_free(&pj);
		return cli_args_bounded(true, args, nargs);
	}
	ModuleId entry = DRIVER_NO_MODULE;
	int mainf = -1;
	char dir[4096] = "";
	int status = EXIT_FAIL;
	if (wasm) {
		Buf mod = {0};
		ok = ok && entry_main(&pj, &entry, &mainf) && cli_project_wasm_module(&pj, &host, entry, &mainf, 1, 0, false, NULL, &mod);
		/* the write grant then `--` before the arguments, as for a file */
		int n;
		char **argv = cli_program_argv(NULL, grant, host.fs_write, args, nargs, &n);
		int st = ok ? wasm_exec(&pj, &mod, argv, n) : -1;
		free(argv);
		project_emit_diags(&pj, false);
		if (st >= 0)
			status = cli_child_status(st, "wasm host");
		else if (st == -2)
			status = EXIT_BY_SIGPIPE;
		buf_free(&mod);
		project_free(&pj);
		return status;
	}
	ok = ok && entry_main(&pj, &entry, &mainf) && cli_project_native_compile(&pj, &host, entry, &mainf, 1, false, true, dir);
	project_emit_diags(&pj, false);
	if (ok) {
		char exe[4200];
		snprintf(exe, sizeof exe, "%s/program", dir);
		/* the write grant then `--` before the arguments, as for a file */
		char **argv = cli_program_argv(exe, grant, host.fs_write, args, nargs, NULL);
		int st = 0;
		fflush(stdout);
		int err = emit_native_exec(exe, argv, &st);
		free(argv);
		status = cli_native_status(err, st);
	}
	emitc_native_cleanup(dir);   /* ends the process if we were signalled */
	project_free(&pj);
	return status;
}

/* ---- one native run of an entry function, captured (test lanes) ---- */

/* The line of text starting with prefix (up to its newline), or NULL. */
static const char *
line_with(const Buf *b, const char *prefix, size_t *n)
{
	for (size_t at = 0; b->data && at < b->len;) {
		const char *s = b->data + at;
		const char *nl = memchr(s, '\n', b->len - at);
		size_t ln = nl ? (size_t)(nl - s) : b->len - at;
		size_t pl = strlen(prefix);
		if (ln >= pl && memcmp(s, prefix, pl) == 0) {
			*n = ln - pl;
			return s + pl;
		}
		at += ln + 1;
	}
	return NULL;
}

/*
 * The outcome of a native run in the interpreter's terms: exit 0 returned
 * its stdout's value; 70 a contract status (phase from the failure line,
 * the two detail lines kept in *detail); 71 the arithmetic status whose
 * code `SEMAPRAX status:` names; 73 the call-depth bound; anything else an
 * interpreter-limit-like stop whose message is the exit status and the
 * first stderr line.
 */
static void
native_outcome(int wstatus, const Buf *out, const Buf *err, InterpResult *r, char **detail)
{
	memset(r, 0, sizeof *r);
	*detail = NULL;
	int code = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + (WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0);
	size_t n = 0;
	const char *l;
	if (code == 0 && out->len > 0) {
		/* the value is the last line (a hosted route's output comes first) */
		size_t at = out->len - 1;
		while (at > 0 && out->data[at - 1] != '\n')
			at--;
		r->stop = STOP_NONE;
		r->value = strtoll(out->data + at, NULL, 10);
		return;
	}
	if (code == RT_EXIT_CONTRACT && (l = line_with(err, "SEMAPRAX contract failure: ", &n))) {
		r->stop = STOP_STATUS;
		r->domain = RT_DOM_CONTRACT;
		r->code = n >= 7 && memcmp(l, "ensures", 7) == 0 ? RT_CONTRACT_ENSURES : RT_CONTRACT_REQUIRES;
		size_t cn = 0, an = 0;
		const char *c = line_with(err, "  contract: ", &cn), *a = line_with(err, "  arguments: ", &an);
		if (c && a) {
			Buf b = {0};
			buf_puts(&b, "  contract: ");
			buf_put(&b, c, cn);
			buf_puts(&b, "\n  arguments: ");
			buf_put(&b, a, an);
			buf_putc(&b, '\n');
			*detail = buf_take(&b);
		}
		return;
	}
	if (code == RT_EXIT_ARITH && (l = line_with(err, "SEMAPRAX status: ", &n))) {
		r->stop = STOP_STATUS;
		r->domain = RT_DOM_ARITH;
		r->code = (uint32_t)strtoul(l, NULL, 10);
		return;
	}
	if (code == RT_EXIT_DOMAIN && line_with(err, "SEMAPRAX runtime failure: call depth exceeded", &n)) {
		r->stop = STOP_DEPTH;
		return;
	}
	r->stop = STOP_LIMIT;
	const char *first = err->data ? err->data : "";
	size_t fl = err->data ? strcspn(first, "\n") : 0;
	snprintf(r->message, sizeof r->message, "exit status %d: %.*s", code, (int)(fl > 200 ? 200 : fl), first);
}

/* What a captured child runs after its stdout and stderr are redirected
 * (it must _exit). */
typedef void (*ChildBody)(void *ctx);

/*
 * Runs body in a child process (its own process group, so a timeout ends
 * everything it started) with stdout and stderr into dir/case.out and
 * dir/case.err, waiting at most timeout_ms; then its outcome as an
 * interpreter-style result (native_outcome), or a time-budget stop.
 */
static void
run_captured(const char *dir, ChildBody body, void *ctx, uint64_t timeout_ms, InterpResult *r, char **detail)
{
	char outp[4200], errp[4200];
	snprintf(outp, sizeof outp, "%s/case.out", dir);
	snprintf(errp, sizeof errp, "%s/case.err", dir);
	memset(r, 0, sizeof *r);
	*detail = NULL;
	fflush(stdout);
	fflush(stderr);
	child_catch();
	pid_t pid = child_start(true);
	if (pid == 0) {
		int o = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0600), e = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
			_exit(127);
		body(ctx);
		_exit(127);
	}
	if (pid < 0) {
		r->stop = STOP_LIMIT;
		snprintf(r->message, sizeof r->message, "cannot start the program: %s", strerror(errno));
		return;
	}
	/* no step meter outside the interpreter: a wall-clock budget instead */
	int st = 0;
	uint64_t waited = 0;
	for (;;) {
		pid_t w = waitpid(pid, &st, WNOHANG);
		if (w == pid || (w < 0 && errno != EINTR))
			break;
		if (waited >= timeout_ms) {
			/* SIGTERM first: the Wasm lane's host runner forwards it to node
			 * and removes its directory; then nothing of the group survives */
			kill(pid, SIGTERM);
			for (int g = 0; g < 500 && waitpid(pid, &st, WNOHANG) == 0; g++) {
				struct timespec ts = {0, 2000000};
				nanosleep(&ts, NULL);
			}
			kill(-pid, SIGKILL);
			waitpid(pid, &st, 0);
			r->stop = STOP_LIMIT;
			snprintf(r->message, sizeof r->message, "time budget exhausted (%" PRIu64 " ms; --native-timeout-ms)", timeout_ms);
			return;
		}
		struct timespec ts = {0, 2000000};
		nanosleep(&ts, NULL);
		waited += 2;
	}
	Buf out = {0}, err = {0};
	buf_append_file(&out, outp, 1u << 20);
	buf_append_file(&err, errp, 1u << 20);
	native_outcome(st, &out, &err, r, detail);
	buf_free(&out);
	buf_free(&err);
}

typedef struct NativeBody {
	char *exe, *grant, *arg;
} NativeBody;

static void
native_body(void *ctx)
{
	NativeBody *b = ctx;
	char *argv[] = {b->exe, b->grant ? b->grant : b->arg, b->grant ? b->arg : NULL, NULL};
	execv(b->exe, argv);
}

void
cli_project_native_case(const char *dir, const char *grant, int k, uint64_t timeout_ms, InterpResult *r, char **detail)
{
	char exe[4200], arg[16];
	snprintf(exe, sizeof exe, "%s/program", dir);
	snprintf(arg, sizeof arg, "%d", k);
	NativeBody b = {exe, (char *)grant, arg};
	run_captured(dir, native_body, &b, timeout_ms, r, detail);
}

typedef struct WasmBody {
	const Buf *mod;
	char *grant;   /* the write grant (the host's first argument), or NULL */
} WasmBody;

static void
wasm_body(void *ctx)
{
	/* this process inherited the parent's catching state: start afresh, so
	 * the host runner below forwards a SIGTERM to node and cleans up */
	child_release();
	WasmBody *b = ctx;
	int st = 0;
	Buf msg = {0};
	char *argv[] = {b->grant, NULL};
	WasmRunStatus r = emitw_node_run(b->mod, argv, b->grant ? 1 : 0, &st, &msg);
	if (r == WASM_RUN_PIPE_CLOSED)
		_exit(128 + 13);   /* as the native program, ended by SIGPIPE */
	if (r != WASM_RUN_OK) {
		fprintf(stderr, "SEMAPRAX wasm host: %s\n", msg.data ? msg.data : "");
		_exit(125);
	}
	_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0));
}

void
cli_project_captures_clean(const char *dir)
{
	static const char *const names[] = {"case.out", "case.err"};
	char p[4200];
	for (size_t i = 0; dir && dir[0] && i < sizeof names / sizeof *names; i++) {
		snprintf(p, sizeof p, "%s/%s", dir, names[i]);
		unlink(p);
	}
}

void
cli_project_wasm_case(const char *dir, const Buf *mod, const char *grant, uint64_t timeout_ms, InterpResult *r, char **detail)
{
	WasmBody b = {mod, (char *)grant};
	run_captured(dir, wasm_body, &b, timeout_ms, r, detail);
}
