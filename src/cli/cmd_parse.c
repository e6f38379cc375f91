/*
 * cmd_parse.c — `semaprax parse <file> [--json] [--dump-ast]`: the front
 * end alone (lexer + parser), for syntax diagnostics and tree dumps.
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../parse/parse.h"

int
cmd_parse(int argc, char **argv)
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
			return cli_usage("parse", "unknown parse option `%s`", a);
		else if (!path)
			path = a;
		else
			return cli_usage("parse", "parse requires exactly <file> [--json] [--dump-ast]");
	}
	if (!path)
		return cli_usage("parse", "parse requires exactly <file> [--json] [--dump-ast]");

	DiagSink diags;
	size_t len = 0;
	diag_init(&diags, path, NULL, 0);
	char *src = cli_read_source(path, &len, &diags);
	int status = EXIT_FAIL;
	if (src) {
		diags.src = src;
		diags.src_len = len;
		Arena arena;
		arena_init(&arena);
		Module *m = parse_module(src, len, &arena, &diags);
		if (diags.errors == 0) {
			status = EXIT_OK;
			if (dump) {
				Buf out = {0};
				ast_dump(&out, m);
				fwrite(out.data, 1, out.len, stdout);
				buf_free(&out);
			}
		}
		arena_free(&arena);
	}
	diag_emit_all(&diags, json);
	if (status == EXIT_OK && !json && !dump)
		printf("parsed %s\n", path);
	diag_free(&diags);
	free(src);
	return status;
}
