/*
 * cmd_run.c — `semaprax run <file> [--max-steps N]` (TOOLCHAIN.md §1.3):
 * verify as `check` does, lower and validate the HIR, then execute `main`
 * in the interpreter (src/interp).
 *
 * Routes by the module's permit set:
 *   - exactly {process.stdout.write}: stdout transcript — the captured bytes,
 *     then main's value and a newline;
 *   - a non-empty subset of {fs.read, process.args.read,
 *     process.stderr.write, process.stdout.write} otherwise: a command-line
 *     program — not implemented in this slice: SPX-F102 (exit 2);
 *   - anything else: pure — main's value and a newline.
 * Failures print one line on stderr and exit 1 (§0.13): the pure route
 * renders the status as `semaprax.status.v1/<domain>/<code>`, the
 * transcript route as the status JSON, each followed by ` (<meaning>)`;
 * on failure the captured transcript is discarded.
 */
#include "cli.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../hir/hir.h"
#include "../interp/interp.h"
#include "../parse/parse.h"
#include "../sema/sema.h"

#define RUN_GRAMMAR "run requires exactly <file> [--max-steps N]"

static const char *const command_permits[] = {
	"fs.read", "process.args.read", "process.stderr.write", "process.stdout.write",
};

typedef enum Route { ROUTE_PURE, ROUTE_TRANSCRIPT, ROUTE_COMMAND } Route;

static Route
select_route(const Sema *S)
{
	if (S->npermits == 0)
		return ROUTE_PURE;
	for (int i = 0; i < S->npermits; i++) {
		bool found = false;
		for (size_t j = 0; j < countof(command_permits); j++)
			found |= strcmp(S->permits[i], command_permits[j]) == 0;
		if (!found)
			return ROUTE_PURE;
	}
	bool only_stdout = true;
	for (int i = 0; i < S->npermits; i++)
		only_stdout &= strcmp(S->permits[i], "process.stdout.write") == 0;
	return only_stdout ? ROUTE_TRANSCRIPT : ROUTE_COMMAND;
}

/* Canonical positive decimal 1..2^63-1 (no sign, no leading zeros). */
static bool
parse_steps(const char *s, uint64_t *out)
{
	if (!*s || *s == '0')
		return false;
	uint64_t v = 0;
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return false;
		uint64_t d = (uint64_t)(*p - '0');
		if (v > ((uint64_t)INT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

static void
print_failure(const InterpResult *r, Route route)
{
	const char *meaning = interp_meaning(r->domain, r->code);
	if (route == ROUTE_PURE)
		fprintf(stderr, "single-file execution failed with language status semaprax.status.v1/%s/%" PRIu32 " (%s)\n",
			interp_domain_id(r->domain), r->code, meaning);
	else
		fprintf(stderr, "single-file execution failed with language status "
			"{\"schema\":\"semaprax.status.v1\",\"domain_id\":\"%s\",\"code\":%" PRIu32
			",\"class\":\"%s\",\"retryable\":false} (%s)\n",
			interp_domain_id(r->domain), r->code, interp_domain_class(r->domain), meaning);
}

/* An F102 (run admission refused) diagnostic through the register. */
static void
refuse(const char *path, const char *message, const char *help)
{
	DiagSink s;
	diag_init(&s, path, NULL, 0);
	Diag *d = diag_report(&s, DIAG_F102, NULL, "%s", message);
	diag_set_help(d, "%s", help);
	diag_emit_all(&s, false);
	diag_free(&s);
}

static int
execute(HirModule *H, const char *path, uint64_t max_steps)
{
	Route route = select_route(H->S);
	if (route == ROUTE_COMMAND) {
		refuse(path, "single-file run of command-line programs is not available yet",
		    "this interpreter runs pure and stdout-transcript programs; permit exactly `process.stdout.write`, "
		    "or nothing from the process and file effects");
		return EXIT_USAGE;
	}
	InterpOptions o = { max_steps, route == ROUTE_TRANSCRIPT };
	InterpResult r;
	memset(&r, 0, sizeof r);
	if (!interp_run(H, &o, &r)) {
		refuse(path, "the module has no `main` to run", "define `fn main() -> i64`");
		return EXIT_FAIL;
	}
	int status = EXIT_OK;
	switch (r.stop) {
	case STOP_NONE:
		if (r.out.len)
			fwrite(r.out.data, 1, r.out.len, stdout);
		printf("%" PRId64 "\n", r.value);
		break;
	case STOP_STATUS:
		print_failure(&r, route);
		status = EXIT_FAIL;
		break;
	case STOP_FUEL:
		fputs("single-file execution exhausted its step budget\n", stderr);
		status = EXIT_FAIL;
		break;
	case STOP_DEPTH:
		fputs("single-file execution exceeded the 256-frame call-depth limit\n", stderr);
		status = EXIT_FAIL;
		break;
	default:
		fprintf(stderr, "single-file execution stopped at an interpreter limit: %s\n", r.message);
		status = EXIT_FAIL;
		break;
	}
	buf_free(&r.out);
	return status;
}

int
cmd_run(int argc, char **argv)
{
	const char *path = NULL;
	uint64_t max_steps = 1000000;
	bool have_steps = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--max-steps") == 0 && !have_steps) {
			if (i + 1 >= argc || !parse_steps(argv[i + 1], &max_steps))
				return cli_usage("run", "--max-steps needs a canonical positive integer up to 9223372036854775807");
			have_steps = true;
			i++;
		} else if (strcmp(a, "--") == 0) {
			return cli_usage("run", "arguments after `--` need a command-line program; "
					 "permit `process.args.read` (not available in this interpreter yet)");
		} else if (a[0] == '-' && a[1] != '\0') {
			return cli_usage("run", "unknown or repeated run option `%s`", a);
		} else if (!path) {
			path = a;
		} else {
			return cli_usage("run", RUN_GRAMMAR);
		}
	}
	if (!path)
		return cli_usage("run", RUN_GRAMMAR);
	DiagSink diags;
	size_t len = 0;
	diag_init(&diags, path, NULL, 0);
	char *src = cli_read_source(path, &len, &diags);
	int status = EXIT_FAIL;
	HirModule *H = NULL;
	Sema *S = NULL;
	Arena arena;
	arena_init(&arena);
	if (src) {
		diags.src = src;
		diags.src_len = len;
		Module *m = parse_module(src, len, &arena, &diags);
		if (diags.errors == 0) {
			S = sema_check(m, src, len, &diags);
			if (diags.errors == 0) {
				H = hir_lower(S);
				if (!hir_validate(H, &diags)) {
					hir_free(H);
					H = NULL;
				}
			}
		}
	}
	diag_emit_all(&diags, false);
	if (H)
		status = execute(H, path, max_steps);
	hir_free(H);
	if (S)
		sema_free(S);
	arena_free(&arena);
	diag_free(&diags);
	free(src);
	fflush(stdout);
	return status;
}
