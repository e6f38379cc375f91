/*
 * cmd_serve.c — `semaprax serve <file|project>|--manifest-path <p> [--mcp] [--max-message-bytes N]`:
 * the semantic service over stdio (src/service/, docs/service.md).  The
 * command table is handed to the service so that doc, patch, run and test
 * run their command functions in this process.
 */
#include "cli.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "../service/service.h"
#include "graph_cli.h"

static SvcCommandFn
find(const char *name)
{
	const CliCommand *c = cli_find_command(name);
	return c ? c->run : NULL;
}

static void
set_overlay(const struct ProjectOverlay *ov, int nov)
{
	cli_proj_set_overlay(ov, nov);
}

int
cli_cmd_serve(int argc, char **argv)
{
	SvcOptions o = { NULL, NULL, SVC_DEFAULT_MAX_MESSAGE, false, find, set_overlay, cli_watch_diags };
	bool have_max = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--mcp") == 0 && !o.mcp) {
			o.mcp = true;
		} else if (strcmp(a, "--max-message-bytes") == 0 && i + 1 < argc && !have_max) {
			have_max = true;
			uint64_t n;
			if (!cli_parse_within(argv[++i], SVC_MIN_MAX_MESSAGE, 256u << 20, &n))
				return cli_usage("serve", "--max-message-bytes takes a canonical decimal %u..%u, not `%s`",
				    SVC_MIN_MAX_MESSAGE, 256u << 20, argv[i]);
			o.max_message = (size_t)n;
		} else if (strcmp(a, "--manifest-path") == 0 && i + 1 < argc && !o.manifest_path) {
			o.manifest_path = argv[++i];   /* taken literally (TOOLCHAIN.md §1.1) */
		} else if (a[0] == '-' && a[1]) {
			return cli_option_error("serve", a, (const char *const[]){ "--max-message-bytes", "--manifest-path", NULL }, (const char *const[]){ "--mcp", NULL });
		} else if (!o.operand) {
			o.operand = a;
		} else {
			return cli_usage("serve", "serve requires exactly one <file|project>");
		}
	}
	if (o.operand && o.manifest_path)
		return cli_usage("serve", "serve takes an operand or --manifest-path, not both");
	/* No operand: the project in the working directory, as the other
	 * project commands take it. */
	struct stat here;
	if (!o.operand && !o.manifest_path && stat("semaprax.toml", &here) == 0)
		o.operand = "semaprax.toml";
	if (!o.operand && !o.manifest_path)
		return cli_usage("serve", "serve requires <file|project> (none: ./semaprax.toml, which does not exist here)");
	cli_release_programs(true);   /* a long-lived process frees what each command loads */
	Service *v = svc_open(&o);
	int status = svc_serve(v, stdin, stdout);
	svc_close(v);
	return status;
}
