/*
 * cmd_lsp.c — `semaprax lsp [--stdio] [--max-message-bytes N]`: the
 * Language Server Protocol over stdio (src/service/lsp.c, docs/editors.md).
 */
#include "cli.h"

#include <stdio.h>
#include <string.h>

#include "../service/lsp.h"
#include "../service/service.h"

int
cli_cmd_lsp(int argc, char **argv)
{
	size_t max = SVC_DEFAULT_MAX_MESSAGE;
	bool have_stdio = false, have_max = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--stdio") == 0 && !have_stdio) {
			have_stdio = true;   /* the only transport; editors pass it by convention */
		} else if (strcmp(a, "--max-message-bytes") == 0 && i + 1 < argc && !have_max) {
			have_max = true;
			uint64_t n;
			if (!cli_parse_within(argv[++i], SVC_MIN_MAX_MESSAGE, 256u << 20, &n))
				return cli_usage("lsp", "--max-message-bytes takes a canonical decimal %u..%u, not `%s`",
				    SVC_MIN_MAX_MESSAGE, 256u << 20, argv[i]);
			max = (size_t)n;
		} else if (strcmp(a, "--max-message-bytes") == 0 || strcmp(a, "--stdio") == 0) {
			return cli_option_error("lsp", a, (const char *const[]){ "--max-message-bytes", NULL }, (const char *const[]){ "--stdio", NULL });
		} else if (a[0] == '-') {
			return cli_unknown_option("lsp", a, NULL);
		} else {
			return cli_usage("lsp", "lsp takes no operand (`%s`): the editor opens files over the protocol", a);
		}
	}
	cli_release_programs(true);
	return svc_lsp_serve(stdin, stdout, max);
}
