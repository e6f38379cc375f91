/*
 * cmd_check.c — `semaprax check <file> [--json]`: parse, verify, and on
 * success print `verified <path> (sha256:<revision>)` (TOOLCHAIN.md §1.2).
 * Warnings do not fail; errors exit 1.  With --json, diagnostics are one
 * object per line and success adds {"status":"verified",…}.
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../parse/parse.h"
#include "../hir/hir.h"
#include "../sema/sema.h"
#include "../support/json.h"

int
cmd_check(int argc, char **argv)
{
	const char *path = NULL;
	bool json = false, dump = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--json") == 0 && !json)
			json = true;
		else if (strcmp(a, "--dump-hir") == 0 && !dump)
			dump = true;
		else if (a[0] == '-' && a[1] != '\0')
			return cli_usage("check", "unknown check option `%s`", a);
		else if (!path)
			path = a;
		else
			return cli_usage("check", "check requires exactly <file> [--json] [--dump-hir]");
	}
	if (!path)
		return cli_usage("check", "check requires exactly <file> [--json] [--dump-hir]");
	DiagSink diags;
	size_t len = 0;
	diag_init(&diags, path, NULL, 0);
	char *src = cli_read_source(path, &len, &diags);
	int status = EXIT_FAIL;
	char revision[72] = "";
	if (src) {
		diags.src = src;
		diags.src_len = len;
		Arena arena;
		arena_init(&arena);
		Module *m = parse_module(src, len, &arena, &diags);
		if (diags.errors == 0) {
			Sema *S = sema_check(m, src, len, &diags);
			if (diags.errors == 0) {
				/* Every verified program is lowered and the HIR re-validated. */
				HirModule *H = hir_lower(S);
				if (hir_validate(H, &diags)) {
					sema_revision(m, revision);
					status = EXIT_OK;
					if (dump) {
						Buf b = {0};
						hir_dump(&b, H);
						fwrite(b.data, 1, b.len, stdout);
						buf_free(&b);
					}
				}
				hir_free(H);
			}
			sema_free(S);
		}
		arena_free(&arena);
	}
	diag_emit_all(&diags, json);
	if (status == EXIT_OK && !dump) {
		if (json) {
			Buf b = {0};
			buf_puts(&b, "{\"status\":\"verified\",\"path\":");
			json_cstr(&b, path);
			buf_puts(&b, ",\"revision\":");
			json_cstr(&b, revision);
			buf_puts(&b, "}\n");
			fwrite(b.data, 1, b.len, stdout);
			buf_free(&b);
		} else {
			printf("verified %s (%s)\n", path, revision);
		}
	}
	diag_free(&diags);
	free(src);
	return status;
}
