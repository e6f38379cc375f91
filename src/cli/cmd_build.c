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

#include <errno.h>
#include <fcntl.h>
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

#define BUILD_GRAMMAR "build requires exactly <file> [--target native|c|wasm|web] [--export <stable-id>]... [-o|--output <path>] [--json], or a project: <dir>|semaprax.toml|--manifest-path <p> [--target native|c]"

static void
build_report(DiagSink *s, DiagCode code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void
build_report(DiagSink *s, DiagCode code, const char *fmt, ...)
{
	char msg[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	diag_report(s, code, NULL, "%s", msg);
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
		build_report(d, DIAG_B101, "%s", m);
		break;
	case NATIVE_CC_FAILED:
		build_report(d, DIAG_B102, "the C compiler rejected the generated program:\n%s", m);
		break;
	case NATIVE_IO:
		build_report(d, DIAG_I101, "%s", m);
		break;
	}
	buf_free(&msg);
	return st == NATIVE_OK;
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
	EmitOptions eo = { staged, host, false };
	if (!emit_c(L->H, &eo, &c, &L->diags)) {
		buf_free(&c);
		return false;
	}
	return cli_native_compile_c(&c, &L->diags, dir);
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
	int lead = host->fs_write ? 3 : 1;
	char **argv = spx_xmalloc(sizeof *argv * ((size_t)nargs + 4));
	argv[0] = exe;
	argv[1] = grant;
	argv[2] = "--";
	for (int i = 0; i < nargs; i++)
		argv[i + lead] = args[i];
	argv[nargs + lead] = NULL;
	int status = EXIT_FAIL, st = 0;
	int err = emit_native_exec(exe, argv, &st);
	free(argv);
	emitc_native_cleanup(dir);   /* ends the process if we were signalled */
	if (err)
		fprintf(stderr, "cannot start the native program: %s\n", strerror(err));
	else if (WIFEXITED(st))
		status = WEXITSTATUS(st);
	else
		fprintf(stderr, "SEMAPRAX native program terminated by signal %d\n", WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	return status;
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
		r = emitw_node_run(&mod, args, nargs, &st, &msg);
		if (r == WASM_RUN_NO_NODE)
			build_report(&L->diags, DIAG_W101, "%s", msg.data ? msg.data : "");
		else if (r == WASM_RUN_IO)
			build_report(&L->diags, DIAG_I101, "%s", msg.data ? msg.data : "");
		diag_emit_from(&L->diags, shown, false);
	} else {
		diag_emit_all(&L->diags, false);
	}
	if (ok && r == WASM_RUN_OK) {
		if (WIFEXITED(st))
			status = WEXITSTATUS(st);
		else
			fprintf(stderr, "SEMAPRAX wasm host terminated by signal %d\n", WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	}
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
static bool
check_output(DiagSink *s, const char *out)
{
	struct stat st;
	if (lstat(out, &st) == 0) {
		build_report(s, DIAG_I307, "output path `%s` already exists; refusing to overwrite it", out);
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
		build_report(s, DIAG_I301, "the parent directory `%s` of output path `%s` does not exist or is not a directory", p, out);
	free(parent);
	return ok;
}

/* `built <product> <path>`, or its --json object (TOOLCHAIN.md §1.2). */
static void
print_built(bool json, const char *target, const char *product, const char *out)
{
	if (!json) {
		printf("built %s %s\n", product, out);
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
static bool
write_new(DiagSink *s, const char *out, const Buf *data)
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
		build_report(s, DIAG_I307, "output path `%s` already exists; refusing to overwrite it", out);
	else if (!ok)
		build_report(s, DIAG_I101, "cannot write `%s`: %s", out, strerror(e));
	return ok;
}

/* The generated C translation unit (as `build` compiles it) into out. */
static bool
c_source(Session *L, HirGrants *host, Buf *out)
{
	EmitOptions eo = { false, host, false };
	return driver_admit(L->H, host, &L->diags) && driver_mono(L) && emit_c(L->H, &eo, out, &L->diags);
}

/* ---- build --target web: a package directory (issue 13 item 3) ---------- */

static const char *
web_type(TypeId t)
{
	switch (t) {
	case T_I64: return "i64";
	case T_I32: return "i32";
	case T_U8: return "u8";
	case T_USIZE: return "usize";
	case T_BOOL: return "bool";
	case T_F64: return "f64";
	default: return "char";
	}
}

static const char *
web_ts(TypeId t)
{
	return t == T_I64 || t == T_USIZE ? "bigint" : t == T_BOOL ? "boolean" : t == T_CHAR ? "string" : "number";
}

/* HTML text and attribute values: every byte outside [A-Za-z0-9 ._-] as an entity. */
static void
html_esc(Buf *b, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == ' ' ||
		    *p == '.' || *p == '_' || *p == '-' || *p >= 0x80)
			buf_putc(b, (char)*p);
		else
			buf_printf(b, "&#%u;", *p);
	}
}

/* The exports' HIR functions; W115 (the reference's code for a web export
 * outside its Public Scalar Export Profile) into s.  False after a report. */
static bool
web_exports(HirModule *H, DiagSink *s, char **ids, int nids, int *out)
{
	bool ok = true;
	for (int k = 0; k < nids; k++) {
		out[k] = -1;
		for (int i = 0; i < H->nfuncs && out[k] < 0; i++)
			if (H->funcs[i].sym >= 0 && H->funcs[i].id && strcmp(H->funcs[i].id, ids[k]) == 0)
				out[k] = i;
		for (int j = 0; j < k && out[k] >= 0; j++)
			if (out[j] == out[k]) {
				build_report(s, DIAG_W115, "web export identity `%s` is selected twice", ids[k]);
				ok = false;
				out[k] = -2;
			}
		if (out[k] == -2)
			continue;
		if (out[k] < 0) {
			build_report(s, DIAG_W115, "web export identity `%s` does not name a function of the module", ids[k]);
			ok = false;
			continue;
		}
		const HirFunc *f = &H->funcs[out[k]];
		bool scalar = emitw_web_scalar(f->result);
		for (int i = 0; i < f->nparams; i++)
			scalar = scalar && emitw_web_scalar(f->locals[i].type);
		if (!scalar) {
			build_report(s, DIAG_W115, "`%s` (`%s`) takes or returns a value that is not a scalar", ids[k], f->name);
			ok = false;
		}
	}
	return ok;
}

/* index.mjs, index.d.ts, package.json and index.html of the package. */
static void
web_texts(HirModule *H, const int *ex, int n, const char *pkg, Buf *mjs, Buf *dts, Buf *json, Buf *html)
{
	buf_puts(mjs, "// index.mjs: generated by `semaprax build --target web`.  The bindings are keyed by\n"
		      "// stable identity; each calls the module's export and resolves to its result, or rejects\n"
		      "// with a SemapraxFailure (status 70 contract, 71 checked arithmetic, 72 runtime, 73 other).\n"
		      "import { loadModule, SemapraxFailure } from './host.mjs';\n\n"
		      "export { SemapraxFailure };\n\n"
		      "const wasm = new URL('./program.wasm', import.meta.url);\n"
		      "let loaded;\n"
		      "async function bytes() {\n"
		      "\tif (wasm.protocol === 'file:') {\n"
		      "\t\tconst { readFile } = await import('node:fs/promises');\n"
		      "\t\treturn readFile(wasm);\n"
		      "\t}\n"
		      "\tconst r = await fetch(wasm);\n"
		      "\tif (!r.ok) throw new Error(`cannot load ${wasm}: ${r.status}`);\n"
		      "\treturn new Uint8Array(await r.arrayBuffer());\n"
		      "}\n"
		      "function module() {\n"
		      "\tif (!loaded) loaded = bytes().then(loadModule);\n"
		      "\treturn loaded;\n"
		      "}\n\n"
		      "export const bindings = Object.freeze({\n");
	buf_puts(dts, "// index.d.ts: generated by `semaprax build --target web`.\n"
		      "export declare class SemapraxFailure extends Error {\n"
		      "\treadonly status: number;\n"
		      "}\n\n"
		      "export declare const bindings: {\n");
	buf_puts(html, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
	html_esc(html, pkg);
	/* no favicon request (a 404 in the console); a failure report's lines kept apart */
	buf_puts(html, "</title>\n<link rel=\"icon\" href=\"data:,\">\n"
		       "<style>output { display: block; white-space: pre-wrap; }</style>\n"
		       "</head>\n<body>\n<h1>");
	html_esc(html, pkg);
	buf_puts(html, "</h1>\n");
	for (int k = 0; k < n; k++) {
		const HirFunc *f = &H->funcs[ex[k]];
		Buf name = {0}, sig = {0};
		emitw_export_name(&name, f->id);
		buf_putc(&sig, '[');
		for (int i = 0; i < f->nparams; i++)
			buf_printf(&sig, "'%s', ", web_type(f->locals[i].type));
		buf_printf(&sig, "'%s']", web_type(f->result));
		buf_putc(mjs, '\t');
		json_cstr(mjs, f->id);
		buf_puts(mjs, ": async (...args) => (await module()).call(");
		json_cstr(mjs, name.data);
		buf_printf(mjs, ", %s, args),\n", sig.data);
		buf_putc(dts, '\t');
		buf_puts(dts, "readonly ");
		json_cstr(dts, f->id);
		buf_puts(dts, ": (");
		for (int i = 0; i < f->nparams; i++)
			buf_printf(dts, "%sa%d: %s%s", i ? ", " : "", i, web_ts(f->locals[i].type),
				   strcmp(web_ts(f->locals[i].type), "bigint") == 0 ? " | number" : "");
		buf_printf(dts, ") => Promise<%s>;\n", web_ts(f->result));
		buf_puts(html, "<form data-id=\"");
		html_esc(html, f->id);
		buf_puts(html, "\">\n<fieldset>\n<legend><code>");
		html_esc(html, f->id);
		buf_puts(html, "</code> ");
		html_esc(html, f->name);
		buf_puts(html, "</legend>\n");
		for (int i = 0; i < f->nparams; i++) {
			TypeId t = f->locals[i].type;
			buf_puts(html, "<label>");
			html_esc(html, f->locals[i].name);
			buf_printf(html, " (%s) ", web_type(t));
			if (t == T_BOOL)
				buf_puts(html, "<input type=\"checkbox\" data-type=\"bool\">");
			else if (t == T_F64)
				buf_puts(html, "<input type=\"number\" step=\"any\" required data-type=\"f64\">");
			else if (t == T_CHAR)
				buf_puts(html, "<input type=\"text\" required maxlength=\"2\" data-type=\"char\">");
			else
				buf_printf(html, "<input type=\"text\" inputmode=\"numeric\" pattern=\"-?[0-9]+\" required data-type=\"%s\">",
					   web_type(t));
			buf_puts(html, "</label>\n");
		}
		buf_puts(html, "<button type=\"submit\">call</button>\n<output></output>\n</fieldset>\n</form>\n");
		buf_free(&name);
		buf_free(&sig);
	}
	buf_puts(mjs, "});\n\nexport default bindings;\n");
	buf_puts(dts, "};\n\nexport default bindings;\n");
	buf_puts(html, "<script type=\"module\">\n"
		       "import { bindings } from './index.mjs';\n"
		       "const value = (input) => {\n"
		       "\tswitch (input.dataset.type) {\n"
		       "\tcase 'bool': return input.checked;\n"
		       "\tcase 'f64': return Number(input.value);\n"
		       "\tcase 'char': return input.value;\n"
		       "\tdefault: return BigInt(input.value);\n"
		       "\t}\n"
		       "};\n"
		       "for (const form of document.querySelectorAll('form[data-id]')) {\n"
		       "\tform.addEventListener('submit', async (ev) => {\n"
		       "\t\tev.preventDefault();\n"
		       "\t\tconst out = form.querySelector('output');\n"
		       "\t\ttry {\n"
		       "\t\t\tconst args = [...form.querySelectorAll('input')].map(value);\n"
		       "\t\t\tout.textContent = String(await bindings[form.dataset.id](...args));\n"
		       "\t\t\tout.dataset.status = 'ok';\n"
		       "\t\t} catch (e) {\n"
		       "\t\t\tout.textContent = e.status !== undefined ? `failed with status ${e.status}: ${e.message}` : String(e);\n"
		       "\t\t\tout.dataset.status = e.status !== undefined ? String(e.status) : 'error';\n"
		       "\t\t}\n"
		       "\t});\n"
		       "}\n"
		       "</script>\n</body>\n</html>\n");
	buf_puts(json, "{\n  \"name\": ");
	json_cstr(json, pkg);
	buf_puts(json, ",\n  \"version\": \"0.0.0\",\n  \"private\": true,\n  \"type\": \"module\",\n"
		       "  \"main\": \"./index.mjs\",\n  \"types\": \"./index.d.ts\",\n"
		       "  \"exports\": {\n    \".\": {\n      \"types\": \"./index.d.ts\",\n      \"default\": \"./index.mjs\"\n    }\n  },\n"
		       "  \"files\": [\"host.mjs\", \"index.d.ts\", \"index.html\", \"index.mjs\", \"program.wasm\"]\n}\n");
}

/* The npm name: the output directory's last component, lowercased, bytes
 * outside [a-z0-9._-] as `-`. */
static char *
web_pkg_name(const char *out)
{
	size_t n = strlen(out);
	while (n > 1 && out[n - 1] == '/')
		n--;
	size_t b = n;
	while (b > 0 && out[b - 1] != '/')
		b--;
	char *s = spx_xmalloc(n - b + 4);
	size_t k = 0;
	for (size_t i = b; i < n; i++) {
		char c = out[i];
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		bool keep = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (k && (c == '.' || c == '_' || c == '-'));
		s[k++] = keep ? c : '-';
	}
	if (k == 0)
		s[k++] = 'x';
	s[k] = '\0';
	return s;
}

static int
build_web(const char *path, const char *out, char **ids, int nids, bool json)
{
	Program P;
	Session *L;
	int status = EXIT_FAIL;
	Buf mod = {0};
	HirGrants host;
	int *ex = spx_xcalloc((size_t)nids + 1, sizeof *ex);
	static const char *const files[] = { "program.wasm", "host.mjs", "index.mjs", "index.d.ts", "package.json", "index.html" };
	Buf data[6] = { {0} };
	if (driver_program_load_file(&P, path, &L, SESSION_VERIFY) && L->H && check_output(&L->diags, out) &&
	    web_exports(L->H, &L->diags, ids, nids, ex) &&
	    (driver_route(L->H->S, &host), driver_admit(L->H, &host, &L->diags)) && driver_mono(L)) {
		WasmOptions wo = { .host = &host, .exports = ex, .nexports = nids };
		if (emit_wasm(L->H, &wo, &data[0], &L->diags)) {
			buf_puts(&data[1], emitw_host_mjs);
			char *pkg = web_pkg_name(out);
			web_texts(L->H, ex, nids, pkg, &data[2], &data[3], &data[4], &data[5]);
			free(pkg);
			if (mkdir(out, 0755) != 0) {
				if (errno == EEXIST)
					build_report(&L->diags, DIAG_I307, "output path `%s` already exists; refusing to overwrite it", out);
				else
					build_report(&L->diags, DIAG_I101, "cannot create `%s`: %s", out, strerror(errno));
			} else {
				int k = 0;
				for (; k < 6; k++) {
					Buf p = {0};
					buf_printf(&p, "%s/%s", out, files[k]);
					bool ok = write_new(&L->diags, p.data, &data[k]);
					buf_free(&p);
					if (!ok)
						break;
				}
				if (k == 6)
					status = EXIT_OK;
				else {   /* no partial package is left behind */
					for (int j = 0; j < k; j++) {
						Buf p = {0};
						buf_printf(&p, "%s/%s", out, files[j]);
						unlink(p.data);
						buf_free(&p);
					}
					rmdir(out);
				}
			}
		}
	}
	for (int k = 0; k < 6; k++)
		buf_free(&data[k]);
	buf_free(&mod);
	free(ex);
	diag_emit_all(&L->diags, json);
	if (status == EXIT_OK)
		print_built(json, "web", "web package", out);
	cli_unload(&P);
	fflush(stdout);
	return status;
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
	if (driver_program_load_file(&P, path, &L, SESSION_VERIFY) && L->H && check_output(&L->diags, out) &&
	    (driver_route(L->H->S, &host), wasm ? wasm_module(L, &host, &art) : c_source(L, &host, &art)) &&
	    write_new(&L->diags, out, &art))
		status = EXIT_OK;
	buf_free(&art);
	diag_emit_all(&L->diags, json);
	if (status == EXIT_OK)
		print_built(json, wasm ? "wasm" : "c", wasm ? "WebAssembly module" : "C source", out);
	cli_unload(&P);
	fflush(stdout);
	return status;
}

/*
 * `build` of a project (issue 15): `--target native` compiles every module
 * into one executable (cmd_project_lanes.c), `--target c` writes that unit;
 * default output `<project dir>/<name>` (`.c`, `.wasm`); `--target wasm`
 * lowers every module into one WebAssembly module (emit_wasm_project).  Output rules as for a file (I307,
 * I301); `built <product> <path>`.
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
	ok = ok && mainf >= 0 && check_output(&pj.diags, out);
	int status = EXIT_FAIL;
	char dir[4096] = "";
	if (ok && (c_source || wasm)) {
		Buf c = {0};
		if ((wasm ? cli_project_wasm_module(&pj, &host, entry, &mainf, 1, 0, false, NULL, &c) : cli_project_emit_c(&pj, &host, entry, &mainf, 1, false, &c)) &&
		    write_new(&pj.diags, out, &c))
			status = EXIT_OK;
		buf_free(&c);
	} else if (ok && cli_project_native_compile(&pj, &host, entry, &mainf, 1, false, dir)) {
		char exe[4200];
		snprintf(exe, sizeof exe, "%s/program", dir);
		int e = copy_exclusive(exe, out);
		if (e == 0 && emit_native_interrupted())
			unlink(out);
		if (e == EEXIST)
			build_report(&pj.diags, DIAG_I307, "output path `%s` already exists; refusing to overwrite it", out);
		else if (e)
			build_report(&pj.diags, DIAG_I101, "cannot write `%s`: %s", out, strerror(e));
		else
			status = EXIT_OK;
	}
	emitc_native_cleanup(dir);
	project_emit_diags(&pj, json);
	if (status == EXIT_OK)
		print_built(json, c_source ? "c" : wasm ? "wasm" : "native", c_source ? "C source" : wasm ? "WebAssembly module" : "native executable", out);
	project_free(&pj);
	free(deflt);
	fflush(stdout);
	return status;
}

int
cli_cmd_build(int argc, char **argv)
{
	const char *path = NULL, *out = NULL, *manifest_path = NULL;
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
			return cli_usage("build", "unknown build option `%s`", a);
		} else if (!path) {
			path = a;
		} else {
			return cli_usage("build", BUILD_GRAMMAR);
		}
	}
	if (path && manifest_path)
		return cli_usage("build", "build takes an operand or --manifest-path, not both");
	char *manifest = path || manifest_path ? project_manifest_for(path, manifest_path) : NULL;
	if (manifest) {
		if (nids)
			return free(manifest), cli_usage("build", "build option `--export` (`--target web`) is not available for projects");
		if (web)
			return free(manifest), cli_usage("build", "build --target web of a project is not available yet (--target native, c or wasm)");
		int st = build_project(manifest, out, json, c_source, wasm);
		free(manifest);
		return st;
	}
	if (!path)
		return cli_usage("build", BUILD_GRAMMAR);
	if (nids && !web)
		return cli_usage("build", "build option `--export` requires `--target web`");
	if (web && !nids)
		return cli_usage("build", "build --target web requires at least one `--export <stable-id>`");
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
		char **ids = spx_xmalloc(sizeof *ids * (size_t)nids);
		int k = 0;
		for (int i = 1; i < argc; i++)
			if (strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--output") == 0 || strcmp(argv[i], "--target") == 0)
				i++;
			else if (strcmp(argv[i], "--export") == 0)
				ids[k++] = argv[++i];
		int st = build_web(path, out, ids, nids, json);
		free(ids);
		free(deflt);
		return st;
	}
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
	if (driver_program_load_file(&P, path, &L, SESSION_VERIFY) && L->H && check_output(&L->diags, out) &&
	    (driver_route(L->H->S, &host), interp_compile_module(L, &host, dir, false))) {
		char exe[4200];
		snprintf(exe, sizeof exe, "%s/program", dir);
		int e = copy_exclusive(exe, out);
		if (e == 0 && emit_native_interrupted())
			unlink(out);   /* interrupted: no executable, complete or not, is left behind */
		if (e == EEXIST)
			build_report(&L->diags, DIAG_I307, "output path `%s` already exists; refusing to overwrite it", out);
		else if (e)
			build_report(&L->diags, DIAG_I101, "cannot write `%s`: %s", out, strerror(e));
		else
			status = EXIT_OK;
	}
	emitc_native_cleanup(dir);
	diag_emit_all(&L->diags, json);
	if (status == EXIT_OK)
		print_built(json, "native", "native executable", out);
	cli_unload(&P);
	free(deflt);
	fflush(stdout);
	return status;
}
