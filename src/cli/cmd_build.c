/*
 * cmd_build.c — the native lane's commands (TOOLCHAIN.md §1.2, §1.3 item 8):
 *
 *   semaprax build <file> [--target native|c] [-o|--output <path>] [--json]
 *       verify, emit C11 (src/emit_c), compile with $CC into a private
 *       temporary directory, then copy the executable to the output (default:
 *       the source path without `.spx`), created exclusively: an existing
 *       path is never overwritten (I307); a missing or non-directory parent is
 *       I301.  Success prints `built native executable <path>` (or, with
 *       --json, `{"status":"built","target":"native","product":"native
 *       executable","output":<path>}`).  `--target c` (our addition) writes
 *       the generated translation unit instead (default `<stem>.c`; `built
 *       C source <path>`), for reading and for the benchmark.
 *   semaprax run --native <file> [-- <arg>…]   (cli_native_run, called by cmd_run.c)
 *       the same compilation (output staged and capped, LANGUAGE.md §0.1),
 *       then runs the program with stdout/stderr inherited and the
 *       arguments after `--` (command-line programs), and passes its exit
 *       status through (70–73 on failure).
 *
 *   semaprax build <file> --target wasm [-o <path>]
 *       the WebAssembly module (src/emit_wasm; default `<stem>.wasm`, created
 *       exclusively as above; `built WebAssembly module <path>`), run by the
 *       host src/emit_wasm/host/host.mjs.
 *   semaprax run --wasm <file> [-- <arg>…]   (cli_wasm_run)
 *       the same module run under node (W101 when node cannot be started),
 *       with the native lane's output, failure lines and exit statuses.
 *
 * A compiler that cannot be started is B101, a failed compilation B102
 * with the compiler's message; constructs outside the slice are B110 (W110
 * in the Wasm lane).
 */
#include "cli.h"
#include "patch_cli.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../driver/route.h"
#include "../emit_c/emit_c.h"
#include "../emit_wasm/emit_wasm.h"
#include "../project/project.h"
#include "../support/json.h"

#define BUILD_GRAMMAR "build requires exactly <file> [--target native|c|wasm|web] [--export <stable-id>]... [--files <dir>] [-o|--output <path>] [--json], or a project: <dir>|semaprax.toml|--manifest-path <p> [--target native|c|wasm|web] [--export <stable-id>]... [--files <dir>]"

/* Formatted whole (diag_vreport): a compiler's message is bounded by what
 * cc.c reads of its log, never cut here mid-character (qa31). */
void
cli_build_report(DiagSink *s, DiagCode code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vreport(s, code, NULL, fmt, ap);
	va_end(ap);
}

/* Compiles the generated C in *c (freed) into dir with the system compiler;
 * false after reporting why into d (B101 no compiler, B102 rejected, I101).
 * One file's build and a project's (cmd_project_lanes.c). */
bool
cli_native_compile_c(Buf *c, DiagSink *d, char dir[4096])
{
	Buf msg = {0};
	NativeStatus st = emitc_native_compile(c->data, c->len, dir, &msg);
	buf_free(c);
	const char *m = msg.data ? msg.data : "";
	switch (st) {
	case NATIVE_OK:
		break;
	case NATIVE_NO_CC:
		cli_build_report(d, DIAG_B101, "%s", m);
		break;
	case NATIVE_CC_FAILED:
		cli_build_report(d, DIAG_B102, "the C compiler rejected the generated program:\n%s", m);
		break;
	case NATIVE_IO:
		cli_build_report(d, DIAG_I101, "%s", m);
		break;
	}
	buf_free(&msg);
	return st == NATIVE_OK;
}

int
cli_c_chunk_every(void)
{
	const char *v = getenv("SEMAPRAX_C_CHUNK");
	int n = v && *v ? atoi(v) : 0;
	return n >= 1 && n <= 1000000 ? n : 0;
}

/*
 * Admits (src/driver/route.c: the route the module runs on, SPX-F102 for an operation
 * it does not grant), emits and compiles; on success dir holds
 * <dir>/program.  Reports into L->diags.
 */
static bool
interp_compile_module(Session *L, const HirGrants *host, char dir[4096], bool staged)
{
	dir[0] = '\0';
	if (!driver_admit(L->H, host, &L->diags) || !driver_mono(L))
		return false;
	Buf c = {0};
	EmitOptions eo = { .staged = staged, .host = host, .chunk_every = cli_c_chunk_every() };
	if (!emit_c(L->H, &eo, &c, &L->diags)) {
		buf_free(&c);
		return false;
	}
	return cli_native_compile_c(&c, &L->diags, dir);
}

char **
cli_program_argv(char *head, const char *grant, bool fs_write, char **args, int nargs, int *argc)
{
	char **argv = spx_xmalloc(sizeof *argv * ((size_t)nargs + 4));
	int n = 0;
	if (head)
		argv[n++] = head;
	if (fs_write) {
		argv[n++] = (char *)grant;
		argv[n++] = "--";
	}
	for (int i = 0; i < nargs; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	if (argc)
		*argc = n;
	return argv;
}

int
cli_child_status(int st, const char *who)
{
	if (WIFSIGNALED(st) && WTERMSIG(st) == SIGPIPE)
		return EXIT_BY_SIGPIPE;   /* its output's reader left: we end so too (main.c) */
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	fprintf(stderr, "SEMAPRAX %s terminated by signal %d\n", who, WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	return EXIT_FAIL;
}

int
cli_native_status(int err, int st)
{
	if (err) {
		fprintf(stderr, "cannot start the native program: %s\n", strerror(err));
		return EXIT_FAIL;
	}
	return cli_child_status(st, "native program");
}

int
cli_native_run(Session *L, const HirGrants *host, char **args, int nargs)
{
	char dir[4096];
	bool ok = interp_compile_module(L, host, dir, true);
	diag_emit_all(&L->diags, false);   /* the checker's warnings too (cli_cmd_run defers them here) */
	if (!ok) {
		emitc_native_cleanup(dir);
		return EXIT_FAIL;
	}
	char exe[4200];
	snprintf(exe, sizeof exe, "%s/program", dir);
	/* a program permitting fs.write takes the grant first (emit.c's main) */
	char grant[4200];
	snprintf(grant, sizeof grant, "--allow-write%s%s", host->write_root ? "=" : "", host->write_root ? host->write_root : "");
	char **argv = cli_program_argv(exe, grant, host->fs_write, args, nargs, NULL);
	int st = 0;
	int err = emit_native_exec(exe, argv, &st);
	free(argv);
	emitc_native_cleanup(dir);   /* ends the process if we were signalled */
	return cli_native_status(err, st);
}

/* Admits and emits the Wasm module into out; reports into L->diags. */
static bool
wasm_module(Session *L, const HirGrants *host, Buf *out)
{
	if (!driver_admit(L->H, host, &L->diags) || !driver_mono(L))
		return false;
	WasmOptions wo = { .host = host };
	return emit_wasm(L->H, &wo, out, &L->diags);
}

int
cli_wasm_run(Session *L, const HirGrants *host, char **args, int nargs)
{
	Buf mod = {0};
	bool ok = wasm_module(L, host, &mod);
	int status = EXIT_FAIL, st = 0;
	Buf msg = {0};
	WasmRunStatus r = WASM_RUN_IO;
	if (ok) {
		/* the checker's warnings before the program's output, as in the other lanes */
		diag_emit_all(&L->diags, false);
		int shown = L->diags.items.len;
		fflush(NULL);
		/* a module permitting fs.write takes the grant first, as the executable does */
		char grant[4200];
		snprintf(grant, sizeof grant, "--allow-write%s%s", host->write_root ? "=" : "", host->write_root ? host->write_root : "");
		int n;
		char **argv = cli_program_argv(NULL, grant, host->fs_write, args, nargs, &n);
		r = emitw_node_run(&mod, argv, n, &st, &msg);
		free(argv);
		if (r == WASM_RUN_NO_NODE)
			cli_build_report(&L->diags, DIAG_W101, "%s", msg.data ? msg.data : "");
		else if (r == WASM_RUN_IO)
			cli_build_report(&L->diags, DIAG_I101, "%s", msg.data ? msg.data : "");
		diag_emit_from(&L->diags, shown, false);
	} else {
		diag_emit_all(&L->diags, false);
	}
	if (ok && r == WASM_RUN_OK)
		status = cli_child_status(st, "wasm host");
	else if (ok && r == WASM_RUN_PIPE_CLOSED)
		status = EXIT_BY_SIGPIPE;
	buf_free(&msg);
	buf_free(&mod);
	return status;
}

/* Copies src to a new file dst (O_EXCL, mode 0755). */
static int
copy_exclusive(const char *src, const char *dst)
{
	int in = open(src, O_RDONLY);
	if (in < 0)
		return errno;
	int out = open(dst, O_WRONLY | O_CREAT | O_EXCL, 0755);
	if (out < 0) {
		int e = errno;
		close(in);
		return e;
	}
	char buf[65536];
	ssize_t n;
	int err = 0;
	while ((n = read(in, buf, sizeof buf)) > 0) {
		for (ssize_t off = 0; off < n;) {
			ssize_t w = write(out, buf + off, (size_t)(n - off));
			if (w < 0) {
				if (errno == EINTR)
					continue;
				err = errno;
				break;
			}
			off += w;
		}
		if (err)
			break;
	}
	if (n < 0 && !err)
		err = errno;
	close(in);
	if (close(out) != 0 && !err)
		err = errno;
	if (err)
		unlink(dst);
	return err;
}

/* I301/I307 checks; true when the output may be created. */
bool
cli_check_output(DiagSink *s, const char *out)
{
	struct stat st;
	if (lstat(out, &st) == 0) {
		cli_build_report(s, DIAG_I307, "output path `%s` already exists; refusing to overwrite it", out);
		return false;
	}
	char *parent = strdup(out);
	char *slash = strrchr(parent, '/');
	const char *p = ".";
	if (slash == parent)
		p = "/";
	else if (slash) {
		*slash = '\0';
		p = parent;
	}
	bool ok = stat(p, &st) == 0 && S_ISDIR(st.st_mode);
	if (!ok)
		cli_build_report(s, DIAG_I301, "the parent directory `%s` of output path `%s` does not exist or is not a directory", p, out);
	free(parent);
	return ok;
}

/* `built <product> <path>`, or its --json object (TOOLCHAIN.md §1.2). */
void
cli_print_built(bool json, const char *target, const char *product, const char *out)
{
	if (!json) {
		printf("built %s ", product);
		cli_put_visible(stdout, out);   /* a control byte as \xNN, as in diagnostics */
		putchar('\n');
		return;
	}
	Buf b = {0};
	buf_printf(&b, "{\"status\":\"built\",\"target\":\"%s\",\"product\":\"%s\",\"output\":", target, product);
	json_cstr(&b, out);
	buf_putc(&b, '}');
	printf("%s\n", b.data);
	buf_free(&b);
}

/* Writes data to a new file out (O_EXCL); I307/I101 into s.  True on success. */
bool
cli_write_new(DiagSink *s, const char *out, const Buf *data)
{
	int fd = open(out, O_WRONLY | O_CREAT | O_EXCL, 0644);
	bool ok = fd >= 0;
	int e = errno;
	for (size_t off = 0; ok && off < data->len;) {
		ssize_t w = write(fd, data->data + off, data->len - off);
		if (w < 0 && errno == EINTR)
			continue;
		ok = w > 0;
		e = errno;
		off += w > 0 ? (size_t)w : 0;
	}
	if (fd >= 0 && close(fd) != 0 && ok) {
		ok = false;
		e = errno;
	}
	if (!ok && fd >= 0)
		unlink(out);
	if (fd < 0 && e == EEXIST)
		cli_build_report(s, DIAG_I307, "output path `%s` already exists; refusing to overwrite it", out);
	else if (!ok)
		cli_build_report(s, DIAG_I101, "cannot write `%s`: %s", out, strerror(e));
	return ok;
}

/* The generated C translation unit (as `build` compiles it) into out. */
static bool
c_source(Session *L, HirGrants *host, Buf *out)
{
	EmitOptions eo = { .host = host, .chunk_every = cli_c_chunk_every() };
	return driver_admit(L->H, host, &L->diags) && driver_mono(L) && emit_c(L->H, &eo, out, &L->diags);
}

/*
 * build --target wasm: the module `run --wasm` runs (host:
 * src/emit_wasm/host/); build --target c: the generated translation unit
 * itself.  Either is written to a new file out.
 */
static int
build_artifact(const char *path, const char *out, bool json, bool wasm)
{
	Program P;
	Session *L;
	int status = EXIT_FAIL;
	Buf art = {0};
	HirGrants host;
	if (driver_program_load_file(&P, path, &L, SESSION_VERIFY) && L->H && cli_check_output(&L->diags, out) &&
	    (driver_route(L->H->S, &host), wasm ? wasm_module(L, &host, &art) : c_source(L, &host, &art)) &&
	    cli_write_new(&L->diags, out, &art))
		status = EXIT_OK;
	buf_free(&art);
	/* a module a project lists: its help names the project's build */
	cli_listed_module_help(&L->diags, path, "build", wasm ? " --target wasm" : " --target c");
	diag_emit_all(&L->diags, json);
	if (status == EXIT_OK)
		cli_print_built(json, wasm ? "wasm" : "c", wasm ? "WebAssembly module" : "C source", out);
	cli_unload(&P);
	fflush(stdout);
	return status;
}

/*
 * `build` of a project (issue 15): `--target native` compiles every module
 * into one executable (cmd_project_lanes.c), `--target c` writes that unit;
 * default output `<project dir>/<name>` (`.c`, `.wasm`); `--target wasm`
 * lowers every module into one WebAssembly module (emit_wasm_project).  Output rules as for a file (I307,
 * I301); `built <product> <path>`.  The executable and the C unit write directly, without the
 * staging and cap of `run --native`, as a file's do (LANGUAGE.md §0.1).
 */
static int
build_project(const char *manifest, const char *out, bool json, bool c_source, bool wasm)
{
	Project pj;
	HirGrants host;
	memset(&host, 0, sizeof host);
	bool ok = project_check(&pj, manifest) && project_lower(&pj) && cli_project_admit(&pj, &host);
	char *deflt = NULL;
	if (ok && !out) {
		char *dir = spx_xstrdup(manifest);
		char *slash = strrchr(dir, '/');
		if (slash)
			*slash = '\0';
		size_t n = strlen(dir) + strlen(pj.man.name) + 8;
		deflt = spx_xmalloc(n);
		snprintf(deflt, n, "%s/%s%s", slash ? dir : ".", pj.man.name, c_source ? ".c" : wasm ? ".wasm" : "");
		free(dir);
		out = deflt;
	}
	ModuleId entry = ok ? driver_program_find(&pj.P, pj.man.entry) : DRIVER_NO_MODULE;
	int mainf = entry != DRIVER_NO_MODULE ? hir_find_main(pj.P.mods[entry]->s.H) : -1;
	ok = ok && mainf >= 0 && cli_check_output(&pj.diags, out);
	int status = EXIT_FAIL;
	char dir[4096] = "";
	if (ok && (c_source || wasm)) {
		Buf c = {0};
		if ((wasm ? cli_project_wasm_module(&pj, &host, entry, &mainf, 1, 0, false, NULL, &c) : cli_project_emit_c(&pj, &host, entry, &mainf, 1, false, false, &c)) &&
		    cli_write_new(&pj.diags, out, &c))
			status = EXIT_OK;
		buf_free(&c);
	} else if (ok && cli_project_native_compile(&pj, &host, entry, &mainf, 1, false, false, dir)) {
		char exe[4200];
		snprintf(exe, sizeof exe, "%s/program", dir);
		int e = copy_exclusive(exe, out);
		if (e == 0 && emit_native_interrupted())
			unlink(out);
		if (e == EEXIST)
			cli_build_report(&pj.diags, DIAG_I307, "output path `%s` already exists; refusing to overwrite it", out);
		else if (e)
			cli_build_report(&pj.diags, DIAG_I101, "cannot write `%s`: %s", out, strerror(e));
		else
			status = EXIT_OK;
	}
	emitc_native_cleanup(dir);
	project_emit_diags(&pj, json);
	if (status == EXIT_OK)
		cli_print_built(json, c_source ? "c" : wasm ? "wasm" : "native", c_source ? "C source" : wasm ? "WebAssembly module" : "native executable", out);
	project_free(&pj);
	free(deflt);
	fflush(stdout);
	return status;
}

int
cli_cmd_build(int argc, char **argv)
{
	const char *path = NULL, *out = NULL, *manifest_path = NULL, *files = NULL;
	bool json = false, have_target = false, c_source = false, wasm = false, web = false;
	int nids = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--json") == 0) {
			if (json)
				return cli_usage("build", "build option `--json` may not be repeated");
			json = true;
		} else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
			if (out)
				return cli_usage("build", "build option `%s` may not be repeated", a);
			if (i + 1 >= argc || !argv[i + 1][0])
				return cli_usage("build", "build option `%s` requires a path", a);
			out = argv[++i];
		} else if (strcmp(a, "--files") == 0) {
			if (files)
				return cli_usage("build", "build option `--files` may not be repeated");
			if (i + 1 >= argc || !argv[i + 1][0])
				return cli_usage("build", "build option `--files` requires a directory");
			files = argv[++i];
		} else if (strcmp(a, "--export") == 0) {
			if (i + 1 >= argc || !argv[i + 1][0])
				return cli_usage("build", "build option `--export` requires a stable id");
			nids++;
			i++;
		} else if (strcmp(a, "--target") == 0) {
			if (have_target)
				return cli_usage("build", "build option `--target` may not be repeated");
			if (i + 1 >= argc)
				return cli_usage("build", "build option `--target` requires a target");
			if (strcmp(argv[i + 1], "native") != 0 && strcmp(argv[i + 1], "c") != 0 && strcmp(argv[i + 1], "wasm") != 0 &&
			    strcmp(argv[i + 1], "web") != 0)
				return cli_usage("build", "build target `%s` is not available (only `native`, `c`, `wasm` and `web`)", argv[i + 1]);
			have_target = true;
			c_source = strcmp(argv[i + 1], "c") == 0;
			wasm = strcmp(argv[i + 1], "wasm") == 0;
			web = strcmp(argv[i + 1], "web") == 0;
			i++;
		} else if (strcmp(a, "--manifest-path") == 0) {
			if (manifest_path || i + 1 >= argc)
				return cli_usage("build", "build option `--manifest-path` takes one path and may not be repeated");
			manifest_path = argv[++i];
		} else if (a[0] == '-' && a[1] != '\0') {
			return cli_unknown_option("build", a, NULL);
		} else if (!path) {
			path = a;
		} else {
			return cli_usage("build", BUILD_GRAMMAR);
		}
	}
	if (path && manifest_path)
		return cli_usage("build", "build takes an operand or --manifest-path, not both");
	/* No operand: the project in the working directory (./semaprax.toml), as
	 * check, run, test and lock take it; without one, the usage error. */
	struct stat here;
	bool here_project = !path && !manifest_path && stat("semaprax.toml", &here) == 0;
	char *manifest = path || manifest_path || here_project ? project_manifest_for(path, manifest_path) : NULL;
	if (nids && !web)
		return free(manifest), cli_usage("build", "build option `--export` requires `--target web`");
	if (files && !web)
		return free(manifest), cli_usage("build", "build option `--files` requires `--target web`");
	char **ids = spx_xmalloc(sizeof *ids * ((size_t)nids + 1));
	for (int i = 1, k = 0; i < argc; i++)
		if (strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--output") == 0 || strcmp(argv[i], "--target") == 0 ||
		    strcmp(argv[i], "--files") == 0 || strcmp(argv[i], "--manifest-path") == 0)
			i++;
		else if (strcmp(argv[i], "--export") == 0)
			ids[k++] = argv[++i];
	if (manifest) {
		int st;
		if (web) {
			st = cli_build_web(NULL, manifest, out, ids, nids, files, json);   /* cmd_web.c */		} else {
			st = build_project(manifest, out, json, c_source, wasm);
		}
		free(manifest);
		free(ids);
		return st;
	}
	if (!path)
		return free(ids), cli_usage("build", BUILD_GRAMMAR);
	if (web && !nids)
		return free(ids), cli_usage("build", "build --target web requires at least one `--export <stable-id>`");
	char *deflt = NULL;
	if (!out) {
		size_t n = strlen(path);
		deflt = strdup(path);
		if (n > 4 && strcmp(path + n - 4, ".spx") == 0)
			deflt[n - 4] = '\0';
		else {
			free(deflt);
			deflt = malloc(n + 5);
			snprintf(deflt, n + 5, "%s.exe", path);
		}
		if (c_source || wasm || web) {
			char *c = malloc(strlen(deflt) + 6);
			sprintf(c, "%s.%s", deflt, web ? "web" : wasm ? "wasm" : "c");
			free(deflt);
			deflt = c;
		}
		out = deflt;
	}
	if (web) {
		int st = cli_build_web(path, NULL, out, ids, nids, files, json);
		free(ids);
		free(deflt);
		return st;
	}
	free(ids);
	if (c_source || wasm) {
		int st = build_artifact(path, out, json, wasm);
		free(deflt);
		return st;
	}
	Program P;
	Session *L;
	int status = EXIT_FAIL;
	char dir[4096] = "";
	HirGrants host;
	if (driver_program_load_file(&P, path, &L, SESSION_VERIFY) && L->H && cli_check_output(&L->diags, out) &&
	    (driver_route(L->H->S, &host), interp_compile_module(L, &host, dir, false))) {
		char exe[4200];
		snprintf(exe, sizeof exe, "%s/program", dir);
		int e = copy_exclusive(exe, out);
		if (e == 0 && emit_native_interrupted())
			unlink(out);   /* interrupted: no executable, complete or not, is left behind */
		if (e == EEXIST)
			cli_build_report(&L->diags, DIAG_I307, "output path `%s` already exists; refusing to overwrite it", out);
		else if (e)
			cli_build_report(&L->diags, DIAG_I101, "cannot write `%s`: %s", out, strerror(e));
		else
			status = EXIT_OK;
	}
	emitc_native_cleanup(dir);
	cli_listed_module_help(&L->diags, path, "build", "");
	diag_emit_all(&L->diags, json);
	if (status == EXIT_OK)
		cli_print_built(json, "native", "native executable", out);
	cli_unload(&P);
	free(deflt);
	fflush(stdout);
	return status;
}
