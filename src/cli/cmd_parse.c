/*
 * cmd_parse.c — `semaprax parse <file> [--json] [--dump-ast]`: the front
 * end alone (lexer + parser), for syntax diagnostics and tree dumps.
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


int
cli_cmd_parse(int argc, char **argv)
{
	const char *path = NULL;
	bool json = false, dump = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--json") == 0 && !json)
			json = true;
		else if (strcmp(a, "--dump-ast") == 0 && !dump)
			dump = true;
		else if (a[0] == '-' && a[1] != '\0')
			return cli_option_error("parse", a, NULL, (const char *const[]){ "--json", "--dump-ast", NULL });
		else if (!path)
			path = a;
		else
			return cli_usage("parse", "parse requires exactly <file> [--json] [--dump-ast]");
	}
	if (!path)
		return cli_usage("parse", "parse requires exactly <file> [--json] [--dump-ast]");

	Program P;
	Session *L;
	int status = driver_program_load_file(&P, path, &L, SESSION_PARSE) ? EXIT_OK : EXIT_FAIL;
	diag_emit_all(&L->diags, json);
	if (status == EXIT_OK && dump) {
		Buf out = {0};
		ast_dump(&out, L->m);
		fwrite(out.data, 1, out.len, stdout);
		buf_free(&out);
	} else if (status == EXIT_OK && !json) {
		fputs("parsed ", stdout);
		cli_put_visible(stdout, path);
		putchar('\n');
	}
	cli_unload(&P);
	return status;
}
