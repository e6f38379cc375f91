/*
 * cmd_run.c — `semaprax run <file> [--json] [--max-steps N] [--max-bytes N]
 * [--allow-write[=DIR]] [-- <arg>…]` (TOOLCHAIN.md §1.3, §3.3): verify as
 * `check` does, lower and validate the HIR, then execute `main` in the
 * interpreter (src/interp).
 *
 * Routes by the module's permit set, as the reference does (with
 * LANGUAGE.md §0.1's capability lift, src/driver/route.c):
 *   - a non-empty subset of the host capabilities {clock.read, fs.read,
 *     fs.write, process.args.read, process.environment.read,
 *     process.stderr.write, process.stdin.read, process.stdout.write} other
 *     than exactly {process.stdout.write}: a command-line program.  A module
 *     permitting fs.write runs only with `--allow-write` (writes anywhere
 *     below the working directory) or `--allow-write=DIR` (below DIR, a
 *     directory under it reached without links; else a usage error), else
 *     SPX-F120 before `main`; `--native` passes the grant to the program as
 *     its first argument.  Arguments after `--`
 *     (at most 16, strict UTF-8, at most 65,536 bytes together, else a usage
 *     error), staged stdout/stderr published after `main` returns (stderr
 *     first), `main`'s result is the exit status (0..=255, else SPX-F116);
 *     `--json`: `semaprax.single-file-command.v1`.  Before it runs, a
 *     program calling a host operation `run` does not perform (file_read,
 *     file_stat, file_list, file_create_dir, file_remove) anywhere is
 *     refused (SPX-T273, src/driver/route.c);
 *   - exactly {process.stdout.write}: stdout transcript — the captured bytes,
 *     then main's value and a newline; `--json`: `semaprax.single-file-run.v1`;
 *   - anything else: pure — main's value and a newline; `--json`:
 *     `semaprax.interpret.v1`.  A `main` that declares effects is refused
 *     before it runs (SPX-F102, `interpreter admission failed
 *     (declared_effects): function `main``; src/driver/route.c).
 * A route grants exactly the host capabilities above that the module
 * permits (the pure route none); a `network.*` permit is SPX-F121 on
 * every route.
 * Failures print one line on stderr and exit 1 (§0.13): the pure route
 * renders the status as `semaprax.status.v1/<domain>/<code>`, the hosted
 * routes as the status JSON, each followed by ` (<meaning>)`; on failure
 * the staged output is discarded.  With `--json` the envelope carries the
 * outcome instead and nothing goes to stderr.  An envelope longer than
 * `--max-bytes` (default 65,536) is SPX-F104, never truncated.  The pure
 * route builds its envelope in human mode too (as the reference does), so
 * the budget applies there in both modes.
 *
 * A project operand (a directory, semaprax.toml, --manifest-path, or none)
 * runs the project instead (run_project below).
 *
 * `semaprax.interpret.v1`: `source.path` is the path as given; `nonclaims`
 * is the reference's fixed list.  The digests follow the reference's
 * length-prefixed domain digests (`semaprax.interpret.source.v1`,
 * `semaprax.interpret.payload.v1`).  A contract failure's outcome carries
 * `failure` {function, phase, clause, arguments} after `status` in every
 * envelope (LANGUAGE.md §0.8; human output stays one line).
 */
#include "cli.h"
#include "patch_cli.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../driver/route.h"
#include "../hir/hir.h"
#include "../interp/interp.h"
#include "../parse/parse.h"
#include "../project/project.h"
#include "../rt/rt.h"
#include "../sema/sema.h"
#include "../support/json.h"
#include "../support/sha256.h"


typedef struct RunOptions {
	const char *path;
	const char *manifest_path;   /* --manifest-path */
	bool have_steps, have_bytes;
	bool json;
	uint64_t max_steps, max_bytes;
	char **args;
	int nargs;
	bool have_args;           /* `--` was given */
	bool native;              /* --native: the C11 lane (cmd_build.c) */
	bool wasm;                /* --wasm: the WebAssembly lane under node (cmd_build.c) */
	bool allow_write;         /* --allow-write[=DIR]: the command line grants fs.write */
	const char *write_root;   /* its DIR, or NULL */
	const char *src;
	size_t src_len;
	const Module *m;
} RunOptions;

/* A command-line program's status once its output is published: output that
 * never reached stdout is a failure (1; main.c's stdout_settle says I101), as
 * the compiled lanes fail with 72, not main's value. */
static int
published(int status)
{
	return fflush(stdout) == 0 && !ferror(stdout) ? status : EXIT_FAIL;
}

/* One location-less diagnostic through the register. */
static void
report(const char *path, DiagCode code, bool json, const char *help, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static void
report(const char *path, DiagCode code, bool json, const char *help, const char *fmt, ...)
{
	DiagSink s;
	diag_init(&s, path, NULL, 0);
	va_list ap;
	va_start(ap, fmt);
	Diag *d = diag_vreport(&s, code, NULL, fmt, ap);
	va_end(ap);
	if (help)
		diag_set_help(d, "%s", help);
	diag_emit_all(&s, json);
	diag_free(&s);
}

/* ---- envelopes (TOOLCHAIN.md §3.3) ---- */

static void
status_json(Buf *b, const InterpResult *r)
{
	buf_printf(b, "{\"schema\":\"semaprax.status.v1\",\"domain_id\":\"%s\",\"code\":%" PRIu32
		   ",\"class\":\"%s\",\"retryable\":false}",
		   interp_domain_id(r->domain), r->code, interp_domain_class(r->domain));
}

/* `,"failure":{…}` (TOOLCHAIN.md §3.3's contract failure fields). */
static void
failure_json(Buf *b, const InterpFailure *f)
{
	buf_puts(b, ",\"failure\":{\"function\":");
	json_cstr(b, f->function);
	buf_puts(b, ",\"phase\":");
	json_cstr(b, f->phase);
	buf_puts(b, ",\"clause\":");
	json_cstr(b, f->clause);
	buf_puts(b, ",\"arguments\":[");
	for (int i = 0; i < f->nargs; i++) {
		buf_puts(b, i ? ",{\"name\":" : "{\"name\":");
		json_cstr(b, f->args[i].name);
		buf_puts(b, ",\"type\":");
		json_cstr(b, f->args[i].type);
		buf_puts(b, ",\"value\":");
		json_cstr(b, f->args[i].value);
		buf_putc(b, '}');
	}
	buf_puts(b, "]}");
}

/* A scalar's type name and its envelope value (TOOLCHAIN.md §3.3): decimal
 * i64, suffixed narrower integers (`610i32`, `253u8`, `4usize`), `true`,
 * the canonical char literal, floats as their IEEE-754 bits in lowercase
 * hex (8 digits for f32, 16 for f64). */
const char *
cli_scalar_type(int tag)
{
	switch ((VTag)tag) {
	case V_I32: return "i32";
	case V_U8: return "u8";
	case V_USIZE: return "usize";
	case V_F32: return "f32";
	case V_F64: return "f64";
	case V_BOOL: return "bool";
	case V_CHAR: return "char";
	default: return "i64";
	}
}

void
cli_scalar_value(Buf *b, const Value *v)
{
	switch ((VTag)v->tag) {
	case V_I32: buf_printf(b, "%" PRId64 "i32", v->i); break;
	case V_U8: buf_printf(b, "%" PRIu64 "u8", v->u); break;
	case V_USIZE: buf_printf(b, "%" PRIu64 "usize", v->u); break;
	case V_BOOL: buf_puts(b, v->b ? "true" : "false"); break;
	case V_CHAR: {
		char text[16];
		buf_put(b, text, rt_char_literal(text, (uint32_t)v->u));
		break;
	}
	case V_F32: {
		uint32_t bits;
		memcpy(&bits, &v->f32, sizeof bits);
		buf_printf(b, "%08" PRIx32, bits);
		break;
	}
	case V_F64: {
		uint64_t bits;
		memcpy(&bits, &v->f, sizeof bits);
		buf_printf(b, "%016" PRIx64, bits);
		break;
	}
	default: buf_printf(b, "%" PRId64, v->i); break;
	}
}

/* cli_scalar_value as a JSON string (a char literal's backslash escaped). */
void
cli_scalar_json(Buf *b, const Value *v)
{
	Buf t = {0};
	cli_scalar_value(&t, v);
	buf_putc(&t, '\0');
	json_cstr(b, t.data);
	buf_free(&t);
}

static void
outcome_json(Buf *b, const InterpResult *r)
{
	switch (r->stop) {
	case STOP_NONE: {
		Value v = r->scalar.tag != V_EMPTY ? r->scalar : v_int(V_I64, r->value);
		buf_puts(b, "{\"kind\":\"returned\",\"type\":");
		json_cstr(b, cli_scalar_type(v.tag));
		buf_puts(b, ",\"value\":");
		cli_scalar_json(b, &v);
		buf_putc(b, '}');
		break;
	}
	case STOP_STATUS:
		buf_puts(b, "{\"kind\":\"failed\",\"status\":");
		status_json(b, r);
		if (r->failure.present)
			failure_json(b, &r->failure);
		buf_putc(b, '}');
		break;
	case STOP_FUEL:
		buf_puts(b, "{\"kind\":\"fuel_exhausted\"}");
		break;
	default:
		buf_puts(b, "{\"kind\":\"call_depth_exceeded\"}");
		break;
	}
}

/* Bytes as a JSON array of numbers (the reference serializes Vec<u8> so). */
static void
bytes_json(Buf *b, const Buf *bytes)
{
	buf_putc(b, '[');
	for (size_t i = 0; i < bytes->len; i++)
		buf_printf(b, "%s%u", i ? "," : "", (unsigned)(unsigned char)bytes->data[i]);
	buf_putc(b, ']');
}

/* "sha256:" + hex(SHA-256(domain ‖ u64le(len) ‖ bytes)); domain includes its NUL. */
static void
domain_digest(char out[72], const char *domain, size_t dlen, const void *data, size_t n)
{
	Sha256 h;
	sha256_init(&h);
	sha256_update(&h, domain, dlen);
	unsigned char le[8];
	for (int i = 0; i < 8; i++)
		le[i] = (unsigned char)((uint64_t)n >> (8 * i));
	sha256_update(&h, le, 8);
	sha256_update(&h, data, n);
	unsigned char d[32];
	sha256_final(&h, d);
	char hex[65];
	sha256_hex(d, hex);
	snprintf(out, 72, "sha256:%s", hex);
}

#define DOMAIN_LIT(s) s, sizeof s

/* The `semaprax.interpret.v1` envelope (and the internal-String profile's,
 * by f->schema and f->payload_domain) of one run of f->fn_id: pure `run`
 * and `interpret` (cmd_interpret.c) write it here only. */
void
cli_interpret_envelope(Buf *out, const CliInterpretFacts *f, const InterpResult *r)
{
	char revision[72] = "", sha[72];
	sema_revision(f->m, revision, NULL);
	domain_digest(sha, DOMAIN_LIT("semaprax.interpret.source.v1"), f->src, f->src_len);
	Buf p = {0};
	buf_puts(&p, "{\"schema\":");
	json_cstr(&p, f->schema);
	buf_puts(&p, ",\"source\":{\"path\":");
	json_cstr(&p, f->path);
	buf_puts(&p, ",\"revision\":");
	json_cstr(&p, revision);
	buf_puts(&p, ",\"sha256\":");
	json_cstr(&p, sha);
	buf_puts(&p, "},\"function\":{\"stable_id\":");
	json_cstr(&p, f->fn_id);
	buf_puts(&p, ",\"name\":");
	json_cstr(&p, f->fn_name);
	buf_puts(&p, "},\"arguments\":");
	buf_puts(&p, f->arguments_json ? f->arguments_json : "[]");
	buf_printf(&p, ",\"limits\":{\"max_bytes\":%" PRIu64 ",\"max_steps\":%" PRIu64 "}", f->max_bytes, f->max_steps);
	buf_printf(&p, ",\"fuel\":{\"steps_used\":%" PRIu64 ",\"budget\":%" PRIu64 ",\"exhausted\":%s}",
		   r->steps, f->max_steps, r->stop == STOP_FUEL ? "true" : "false");
	buf_puts(&p, ",\"outcome\":");
	outcome_json(&p, r);
	buf_puts(&p, ",\"nonclaims\":[\"no_jit_aot_or_cranelift\",\"no_incremental_persistence\",\"no_hot_reload\","
		    "\"no_debugger_mapping\",\"no_target_execution\",\"read_only_evaluation_only\"]}");
	char digest[72];
	domain_digest(digest, f->payload_domain, strlen(f->payload_domain) + 1, p.data, p.len);
	buf_puts(out, "{\"schema\":");
	json_cstr(out, f->schema);
	buf_printf(out, ",\"digest\":\"%s\",\"bytes\":%zu,\"payload\":", digest, p.len);
	buf_put(out, p.data, p.len);
	buf_putc(out, '}');
	buf_free(&p);
}

static void
hosted_envelope(Buf *out, const RunOptions *o, Route route, const InterpResult *r)
{
	buf_printf(out, "{\"schema\":\"%s\",\"fuel\":{\"steps_used\":%" PRIu64 ",\"max_steps\":%" PRIu64 "},\"outcome\":",
		   route == ROUTE_COMMAND ? "semaprax.single-file-command.v1" : "semaprax.single-file-run.v1",
		   r->steps, o->max_steps);
	outcome_json(out, r);
	buf_puts(out, ",\"stdout\":");
	bytes_json(out, &r->out);
	if (route == ROUTE_COMMAND) {
		buf_puts(out, ",\"stderr\":");
		bytes_json(out, &r->err);
	}
	buf_putc(out, '}');
}

/* ---- execution ---- */

static void
print_failure(const InterpResult *r, Route route)
{
	switch (r->stop) {
	case STOP_STATUS: {
		const char *meaning = interp_meaning(r->domain, r->code);
		if (route == ROUTE_PURE) {
			fprintf(stderr, "single-file execution failed with language status semaprax.status.v1/%s/%" PRIu32 " (%s)\n",
				interp_domain_id(r->domain), r->code, meaning);
		} else {
			Buf b = {0};
			status_json(&b, r);
			fprintf(stderr, "single-file execution failed with language status %.*s (%s)\n", (int)b.len, b.data, meaning);
			buf_free(&b);
		}
		break;
	}
	case STOP_FUEL:
		fputs("single-file execution exhausted its step budget\n", stderr);
		break;
	case STOP_DEPTH:
		fputs("single-file execution exceeded the 256-frame call-depth limit\n", stderr);
		break;
	default:
		break;
	}
}

/* A refused `--allow-write=DIR` (run, test): the rule, and why this DIR
 * breaks it when that is plain (it does not exist, or is a file); exit 2.
 * The line is src/rt/fs.c's, which the built executable and the Wasm host
 * print too. */
int
cli_write_root_refused(const char *cmd, const char *root)
{
	size_t n = rt_fs_root_refusal(root, NULL, 0);
	char *line = spx_xmalloc(n + 1);
	rt_fs_root_refusal(root, line, n + 1);
	int st = cli_usage(cmd, "%s", line);
	free(line);
	return st;
}

/* TOOLCHAIN.md §1.3 item 7: `-- args` for a program that is not a command-line program
 * (a file's or a project's). */
/* The bounds on a command-line program's arguments (count, UTF-8, total
 * bytes: src/rt/args.c, the native program's own check too), checked once
 * the route is known: a program that is not a command-line program is told
 * that first (qa29; it was told "a command-line program takes at most 16
 * arguments").  Exit 2, or 0 when they hold. */
int
cli_args_bounded(bool have_args, char **args, int nargs)
{
	char why[160];
	if (have_args && rt_args_check(nargs, args, why))
		return cli_usage("run", "%s", why);
	return EXIT_OK;
}

bool
cli_args_fit(char **args, int nargs)
{
	char why[160];
	return rt_args_check(nargs, args, why) == 0;
}

int
cli_args_refused(void)
{
	fputs("run passes arguments after `--` only to a command-line program; add `process.args.read` "
	      "to the module permits and read them with `args_len()` and `arg_utf8(i)`\n", stderr);
	return EXIT_USAGE;
}

static int
execute(HirModule *H, const RunOptions *ro)
{
	InterpOptions o = {0};
	driver_route(H->S, &o.host);
	Route route = o.host.route;
	if (ro->have_args && route != ROUTE_COMMAND)
		return cli_args_refused();
	if (cli_args_bounded(ro->have_args, ro->args, ro->nargs) != EXIT_OK)
		return EXIT_USAGE;
	o.max_steps = ro->max_steps;
	if (route == ROUTE_COMMAND) {
		o.args = ro->args;
		o.nargs = ro->nargs;
	}
	int entry = hir_find_main(H);
	DiagSink admission;
	diag_init(&admission, ro->path, NULL, 0);
	bool admitted = driver_admit(H, &o.host, &admission) &&
			driver_grant_write(&o.host, ro->allow_write, ro->write_root, &admission);
	diag_emit_all(&admission, ro->json);
	diag_free(&admission);
	if (!admitted)
		return EXIT_FAIL;
	InterpResult r;
	memset(&r, 0, sizeof r);
	if (!interp_run(H, &o, &r)) {
		report(ro->path, DIAG_F102, ro->json, "define `fn main() -> i64`", "the module has no `main` to run");
		return EXIT_FAIL;
	}
	int status = EXIT_FAIL;
	Buf env = {0};
	if (r.stop == STOP_LIMIT) {
		fprintf(stderr, "single-file execution stopped at an interpreter limit: %s\n", r.message);
		goto out;
	}
	if (route == ROUTE_COMMAND && r.stop == STOP_NONE && (r.value < 0 || r.value > 255)) {
		report(ro->path, DIAG_F116, ro->json, NULL,
		       "command-line program `main` returned %" PRId64 ", outside the exit status range 0..=255", r.value);
		goto out;
	}
	if (r.stop != STOP_NONE) {
		/* a failure discards both staged channels */
		r.out.len = 0;
		r.err.len = 0;
	}
	if (route == ROUTE_PURE) {
		const HirFunc *ef = entry >= 0 ? &H->funcs[entry] : NULL;
		CliInterpretFacts f = {
			.schema = "semaprax.interpret.v1", .payload_domain = "semaprax.interpret.payload.v1",
			.path = ro->path, .m = ro->m, .src = ro->src, .src_len = ro->src_len,
			.fn_id = ef ? ef->id : "app.main", .fn_name = ef ? ef->name : "main",
			.max_bytes = ro->max_bytes, .max_steps = ro->max_steps,
		};
		cli_interpret_envelope(&env, &f, &r);
	} else if (ro->json) {
		hosted_envelope(&env, ro, route, &r);
	}
	if (env.len > ro->max_bytes) {
		report(ro->path, DIAG_F104, ro->json, "raise `--max-bytes`",
		       "single-file run output exceeds the max-bytes budget; refusing to truncate");
		goto out;
	}
	if (ro->json) {
		fwrite(env.data, 1, env.len, stdout);
		putchar('\n');
	}
	if (r.stop != STOP_NONE) {
		if (!ro->json)
			print_failure(&r, route);
		goto out;
	}
	if (route == ROUTE_COMMAND) {
		if (!ro->json) {
			fwrite(r.err.data ? r.err.data : "", 1, r.err.len, stderr);
			fflush(stderr);
			fwrite(r.out.data ? r.out.data : "", 1, r.out.len, stdout);
		}
		status = published((int)r.value);
	} else {
		if (!ro->json) {
			if (r.out.len)
				fwrite(r.out.data, 1, r.out.len, stdout);
			printf("%" PRId64 "\n", r.value);
		}
		status = EXIT_OK;
	}
out:
	buf_free(&env);
	interp_result_free(&r);
	return status;
}

static int
parse_options(int argc, char **argv, RunOptions *o)
{
	bool have_steps = false, have_bytes = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0) {
			o->have_args = true;
			o->args = argv + i + 1;
			o->nargs = argc - i - 1;
			break;
		}
		if (strcmp(a, "--json") == 0) {
			if (o->json)
				return cli_usage("run", "run option `--json` may not be repeated");
			o->json = true;
		} else if (strcmp(a, "--max-steps") == 0 || strcmp(a, "--max-bytes") == 0) {
			bool steps = a[6] == 's';
			if (steps ? have_steps : have_bytes)
				return cli_usage("run", "run option `%s` may not be repeated", a);
			if (i + 1 >= argc || !cli_parse_positive(argv[i + 1], steps ? &o->max_steps : &o->max_bytes))
				return cli_usage("run", "run option `%s` requires a canonical positive integer up to 9223372036854775807", a);
			*(steps ? &have_steps : &have_bytes) = true;
			i++;
		} else if (strcmp(a, "--manifest-path") == 0) {
			if (o->manifest_path || i + 1 >= argc)
				return cli_usage("run", "run option `--manifest-path` takes one path and may not be repeated");
			o->manifest_path = argv[++i];
		} else if (strncmp(a, "--allow-write", 13) == 0 && (a[13] == '\0' || a[13] == '=')) {
			if (o->allow_write)
				return cli_usage("run", "run option `--allow-write` may not be repeated");
			o->allow_write = true;
			if (a[13] == '=') {
				o->write_root = a + 14;
				if (!rt_fs_root_valid(o->write_root))
					return cli_write_root_refused("run", o->write_root);
			}
		} else if (strcmp(a, "--native") == 0 || strcmp(a, "--wasm") == 0) {
			bool *lane = a[2] == 'n' ? &o->native : &o->wasm;
			if (*lane)
				return cli_usage("run", "run option `%s` may not be repeated", a);
			*lane = true;
		} else if (a[0] == '-' && a[1] != '\0') {
			return cli_unknown_option("run", a, NULL);
		} else if (!o->path) {
			o->path = a;
		} else {
			return cli_usage("run", "run takes one <file> or project; `%s` is a second operand (the program's "
			    "arguments go after `--`: `semaprax run %s -- %s`)", a, o->path, a);
		}
	}
	o->have_steps = have_steps;
	o->have_bytes = have_bytes;
	if (o->path && o->manifest_path)
		return cli_usage("run", "run takes an operand or --manifest-path, not both");
	if (o->native && o->wasm)
		return cli_usage("run", "run options `--native` and `--wasm` cannot be combined");
	if ((o->native || o->wasm) && (o->json || have_steps || have_bytes))
		return cli_usage("run", "run option `%s` cannot be combined with `--json`, `--max-steps` or `--max-bytes`",
				 o->native ? "--native" : "--wasm");
	return EXIT_OK;
}

/*
 * `run` of a project (TOOLCHAIN.md §1.2): `check` of the project, then
 * every module lowered and `main` of the entry module run in one
 * interpreter image (interp_run_image).  The union of the modules' permits
 * selects the route and its grants exactly as a file's permits do
 * (cli_project_admit below; fs.write needs `--allow-write[=DIR]`, F120;
 * network F121): the command-line route publishes the staged stderr and
 * stdout and exits with `main`'s value, the transcript prints its stdout
 * then the value, the pure route the value.  Arguments after `--` go to a
 * command-line project's `main` in every lane (args_len, arg_utf8; the
 * checks of a file's), else they are refused as for a file.  Success prints
 * as above; failures print `project execution failed with language status
 * <status-json>` (then, for a contract, `  contract: <phase> <clause> in
 * <stable-id>`, `  arguments: <name> = <value>, …` and `  at <path>:<line>:
 * <col>: <the clause's line>`), `project execution
 * exhausted its step budget` or `project execution exceeded its
 * call-depth bound`, exit 1.  --json prints the semaprax.project-execution.v1
 * envelope instead (cli_project_run_envelope): on a hosted route it carries
 * the staged `stdout` (and, on the command-line route, `stderr`) as byte
 * arrays, as a file's single-file-run/-command envelopes do (empty after a
 * failure), and a command-line project exits with `main`'s value (F116
 * outside 0..=255); otherwise exit 1 unless it returned.
 * --native runs the project's one C unit, --wasm its one WebAssembly module
 * (cmd_project_lanes.c).
 */
static int
run_project(const char *manifest, const RunOptions *ro)
{
	if (ro->native || ro->wasm) {
		/* the grant as the command line gave it, passed to the executable */
		char grant[4200] = "--allow-write";
		if (ro->write_root)
			snprintf(grant, sizeof grant, "--allow-write=%s", ro->write_root);
		/* cmd_project_lanes.c */
		return cli_project_run_native(manifest, ro->wasm, ro->allow_write ? grant : NULL, ro->have_args, ro->args, ro->nargs);
	}
	Project pj;
	InterpOptions o = {0};
	bool ok = project_check(&pj, manifest) && project_lower(&pj) && cli_project_admit(&pj, &o.host) &&
		  driver_grant_write(&o.host, ro->allow_write, ro->write_root, &pj.diags);
	int status = EXIT_FAIL;
	ModuleId entry = ok ? driver_program_find(&pj.P, pj.man.entry) : DRIVER_NO_MODULE;
	Route route = o.host.route;
	if (ok && ro->have_args && route != ROUTE_COMMAND) {
		project_emit_diags(&pj, ro->json);
		project_free(&pj);
		return cli_args_refused();
	}
	if (ok && ro->have_args && !cli_args_fit(ro->args, ro->nargs)) {
		project_emit_diags(&pj, ro->json);
		project_free(&pj);
		return cli_args_bounded(true, ro->args, ro->nargs);
	}
	if (route == ROUTE_COMMAND) {
		o.args = ro->args;
		o.nargs = ro->nargs;
	}
	project_emit_diags(&pj, ro->json);
	if (!ok || entry == DRIVER_NO_MODULE)
		goto out;
	HirModule **mods = spx_xmalloc(sizeof *mods * (size_t)pj.P.nmods);
	for (int i = 0; i < pj.P.nmods; i++)
		mods[i] = pj.P.mods[i]->s.H;
	o.max_steps = ro->max_steps;
	InterpResult r;
	memset(&r, 0, sizeof r);
	if (ro->json && interp_run_image(mods, pj.P.nmods, (int)entry, &o, &r)) {
		HirModule *E = pj.P.mods[entry]->s.H;
		if (r.stop != STOP_NONE) {
			/* a failure discards both staged channels */
			r.out.len = 0;
			r.err.len = 0;
		}
		if (r.stop == STOP_NONE && route == ROUTE_COMMAND && (r.value < 0 || r.value > 255)) {
			report(manifest, DIAG_F116, true, NULL,
			       "command-line program `main` returned %" PRId64 ", outside the exit status range 0..=255", r.value);
		} else if (cli_project_run_envelope(&pj, &E->funcs[hir_find_main(E)], route, &r, ro->max_steps, ro->max_bytes) &&
			   r.stop == STOP_NONE) {
			status = route == ROUTE_COMMAND ? (int)r.value : EXIT_OK;
		}
	} else if (!ro->json && interp_run_image(mods, pj.P.nmods, (int)entry, &o, &r)) {
		if (r.stop == STOP_NONE && route == ROUTE_COMMAND && (r.value < 0 || r.value > 255)) {
			report(manifest, DIAG_F116, false, NULL,
			       "command-line program `main` returned %" PRId64 ", outside the exit status range 0..=255", r.value);
		} else if (r.stop == STOP_NONE && route == ROUTE_COMMAND) {
			/* staged output published after `main` returns, stderr first */
			fwrite(r.err.data ? r.err.data : "", 1, r.err.len, stderr);
			fflush(stderr);
			fwrite(r.out.data ? r.out.data : "", 1, r.out.len, stdout);
			status = published((int)r.value);
		} else if (r.stop == STOP_NONE) {
			if (r.out.len)
				fwrite(r.out.data, 1, r.out.len, stdout);
			printf("%" PRId64 "\n", r.value);
			status = EXIT_OK;
		} else if (r.stop == STOP_STATUS) {
			Buf b = {0};
			status_json(&b, &r);
			fprintf(stderr, "project execution failed with language status %s\n", b.data);
			buf_free(&b);
			const InterpFailure *f = &r.failure;
			if (f->present) {
				Buf line = {0};   /* clause and id with control bytes as \xNN (cmd_test.c's detail lines) */
				buf_printf(&line, "  contract: %s ", f->phase);
				diag_put_visible(&line, f->clause, strlen(f->clause));
				buf_puts(&line, " in ");
				diag_put_visible(&line, f->function, strlen(f->function));
				fprintf(stderr, "%s\n", line.data);
				buf_free(&line);
				fputs("  arguments: ", stderr);
				for (int i = 0; i < f->nargs; i++)
					fprintf(stderr, "%s%s = %s", i ? ", " : "", f->args[i].name, f->args[i].value);
				fputs(f->nargs ? "\n" : "none\n", stderr);
				/* where the clause is written */
				Buf at = {0};
				if (f->where)
					cli_project_at_line(&at, &pj, f->where, f->at);
				if (at.len)
					fputs(at.data, stderr);
				buf_free(&at);
			}
		} else if (r.stop == STOP_FUEL) {
			fputs("project execution exhausted its step budget\n", stderr);
		} else if (r.stop == STOP_DEPTH) {
			fputs("project execution exceeded its call-depth bound\n", stderr);
		} else {
			fprintf(stderr, "project execution stopped at an interpreter limit: %s\n", r.message);
		}
	}
	interp_result_free(&r);
	free(mods);
out:
	project_free(&pj);
	return status;
}

int
cli_cmd_run(int argc, char **argv)
{
	RunOptions ro;
	memset(&ro, 0, sizeof ro);
	ro.max_steps = 1000000;
	ro.max_bytes = 65536;
	int st = parse_options(argc, argv, &ro);
	if (st != EXIT_OK)
		return st;
	char *manifest = project_manifest_for(ro.path, ro.manifest_path);
	if (manifest) {
		st = run_project(manifest, &ro);
		free(manifest);
		fflush(stdout);
		return st;
	}
	Program P;
	Session *L;
	int status = EXIT_FAIL;
	if (!driver_program_load_file(&P, ro.path, &L, SESSION_VERIFY))
		cli_listed_module_help(&L->diags, ro.path, "run", "");
	if ((ro.native || ro.wasm) && L->H) {
		HirGrants host;
		driver_route(L->H->S, &host);
		if (ro.have_args && host.route != ROUTE_COMMAND) {
			diag_emit_all(&L->diags, false);
			status = cli_args_refused();
		} else if (ro.have_args && !cli_args_fit(ro.args, ro.nargs)) {
			diag_emit_all(&L->diags, false);
			status = cli_args_bounded(ro.have_args, ro.args, ro.nargs);
		} else if (!driver_admit(L->H, &host, &L->diags) ||
			   !driver_grant_write(&host, ro.allow_write, ro.write_root, &L->diags)) {
			diag_emit_all(&L->diags, false);
		} else {
			/* each emits the diagnostics itself */
			status = ro.native ? cli_native_run(L, &host, ro.args, ro.nargs) : cli_wasm_run(L, &host, ro.args, ro.nargs);
		}
		cli_unload(&P);
		fflush(stdout);
		return status;
	}
	diag_emit_all(&L->diags, ro.json);
	if (L->H) {
		ro.src = L->src;
		ro.src_len = L->len;
		ro.m = L->m;
		status = execute(L->H, &ro);
	}
	cli_unload(&P);
	fflush(stdout);
	return status;
}

/* For `run`, `test` and `build` on a project: the route and grants of the
 * union of every module's permits (what the lock records as the project's
 * capabilities), then each module's admission (SPX-F121 for a network
 * permit, SPX-T273 for an operation outside the command-line profile, the
 * entry's SPX-F102 on the pure route) into that module's diagnostics. */
bool
cli_project_admit(Project *pj, HirGrants *g)
{
	int n = 0;
	for (int i = 0; i < pj->P.nmods; i++)
		n += pj->P.mods[i]->s.S->npermits;
	const char **all = spx_xmalloc(sizeof *all * (size_t)(n + 1));
	int k = 0;
	for (int i = 0; i < pj->P.nmods; i++) {
		const Sema *S = pj->P.mods[i]->s.S;
		for (int j = 0; j < S->npermits; j++) {
			bool seen = false;
			for (int q = 0; q < k && !seen; q++)
				seen = strcmp(all[q], S->permits[j]) == 0;
			if (!seen)
				all[k++] = S->permits[j];
		}
	}
	driver_route_permits(all, (size_t)k, g);
	free(all);
	ModuleId entry = driver_program_find(&pj->P, pj->man.entry);
	bool ok = true;
	for (int i = 0; ok && i < pj->P.nmods; i++) {
		Session *s = &pj->P.mods[i]->s;
		/* the pure route's F102 is about the entry's `main` only */
		if (g->route == ROUTE_PURE && (ModuleId)i != entry && s->S->npermits == 0)
			continue;
		ok = driver_admit(s->H, g, &s->diags);
	}
	return ok;
}

/* For `test` (cmd_test.c): the outcome object and the domain digest above. */
void
cli_outcome_json(Buf *b, const InterpResult *r)
{
	outcome_json(b, r);
}

void
cli_status_json(Buf *b, const InterpResult *r)
{
	status_json(b, r);
}

void
cli_domain_digest(char out[72], const char *domain, size_t dlen, const void *data, size_t n)
{
	domain_digest(out, domain, dlen, data, n);
}

void
cli_bytes_json(Buf *b, const Buf *bytes)
{
	bytes_json(b, bytes);
}
