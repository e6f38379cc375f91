/*
 * cmd_check.c — `semaprax check <file> [--json]`: parse, verify, and on
 * success print `verified <path> (sha256:<revision>)` (TOOLCHAIN.md §1.2).
 * Warnings do not fail; errors exit 1.  With --json, diagnostics are one
 * object per line and success adds {"status":"verified",…}.
 */
#include "cli.h"
#include "patch_cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../project/project.h"
#include "../support/json.h"

/* `check` reports nothing from the HIR: lowering cannot fail and the
 * validator is a self-check of the compiler (H006 is a compiler bug).  So
 * plain `check` skips both unless SEMAPRAX_VALIDATE_HIR is set (non-empty,
 * not `0`), as the fixture runner and the CLI tests do. */
static bool
hir_self_check_requested(void)
{
	const char *v = getenv("SEMAPRAX_VALIDATE_HIR");
	return v && *v && strcmp(v, "0") != 0;
}

/* `check` of a project: every module linked into one Program; on success
 * `verified project <name> (<program revision>)`, then one line per module
 * in ModuleId order: `  module <name> <path> (<module revision>)`, the path
 * as the manifest spells it (as `query`, `doc` and `lock` print it). */
static int
check_project(const char *manifest, bool json)
{
	Project pj;
	bool ok = project_check(&pj, manifest);
	project_emit_diags(&pj, json);
	if (ok)
		ok = cli_check_registers(&pj, json);   /* the manifest's `[registers]` rows */
	if (ok) {
		Buf b = {0};
		if (json) {
			buf_puts(&b, "{\"status\":\"verified\",\"project\":");
			json_cstr(&b, pj.man.name);
			buf_puts(&b, ",\"revision\":");
			json_cstr(&b, pj.P.revision);
			buf_puts(&b, ",\"modules\":[");
		} else {
			buf_printf(&b, "verified project %s (%s)\n", pj.man.name, pj.P.revision);
		}
		for (int i = 0; i < pj.P.nmods; i++) {
			const ProgModule *pm = pj.P.mods[i];
			if (json) {
				buf_puts(&b, i ? ",{\"module\":" : "{\"module\":");
				json_cstr(&b, pm->name);
				buf_puts(&b, ",\"path\":");
				json_cstr(&b, project_spelled_path(&pj, pm->s.diags.path));
				buf_puts(&b, ",\"revision\":");
				json_cstr(&b, pm->s.revision);
				buf_putc(&b, '}');
			} else {
				buf_printf(&b, "  module %s %s (%s)\n", pm->name, project_spelled_path(&pj, pm->s.diags.path), pm->s.revision);
			}
		}
		if (json)
			buf_puts(&b, "]}\n");
		fwrite(b.data, 1, b.len, stdout);
		buf_free(&b);
	}
	project_free(&pj);
	return ok ? EXIT_OK : EXIT_FAIL;
}

int
cli_cmd_check(int argc, char **argv)
{
	const char *path = NULL, *manifest_path = NULL;
	bool json = false, dump = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--json") == 0 && !json)
			json = true;
		else if (strcmp(a, "--dump-hir") == 0 && !dump)
			dump = true;
		else if (strcmp(a, "--manifest-path") == 0 && !manifest_path && i + 1 < argc)
			manifest_path = argv[++i];
		else if (a[0] == '-' && a[1] != '\0')
			return cli_option_error("check", a, (const char *const[]){ "--manifest-path", NULL },
			    (const char *const[]){ "--json", "--dump-hir", NULL });
		else if (!path)
			path = a;
		else
			return cli_usage("check", "check requires exactly <file>|<dir>|semaprax.toml|--manifest-path <p> [--json] [--dump-hir]");
	}
	if (path && manifest_path)
		return cli_usage("check", "check takes an operand or --manifest-path, not both");
	/* --json keeps stdout to JSON objects; the HIR dump is text. */
	if (dump && json)
		return cli_usage("check", "--dump-hir prints text and cannot be combined with --json");
	char *manifest = project_manifest_for(path, manifest_path);
	if (manifest) {
		if (dump) {
			free(manifest);
			return cli_usage("check", "--dump-hir takes one source file, not a project");
		}
		int st = check_project(manifest, json);
		free(manifest);
		return st;
	}
	Program P;
	Session *L;
	int status = EXIT_FAIL;
	/* the dump also shows the instances a lane emits (driver_mono: B110 past its bound) */
	if (driver_program_load_file(&P, path, &L, dump || hir_self_check_requested() ? SESSION_CHECK_HIR : SESSION_CHECK) &&
	    (!dump || driver_mono(L)))
		status = EXIT_OK;
	const char *revision = P.revision;   /* one module: its revision (program.h) */
	if (status != EXIT_OK)
		cli_listed_module_help(&L->diags, path, "check", "");
	diag_emit_all(&L->diags, json);
	if (status == EXIT_OK && dump) {
		Buf b = {0};
		hir_dump(&b, L->H);
		fwrite(b.data, 1, b.len, stdout);
		buf_free(&b);
	}
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
			fputs("verified ", stdout);
			cli_put_visible(stdout, path);   /* a control byte as \xNN, as in diagnostics */
			printf(" (%s)\n", revision);
		}
	}
	cli_unload(&P);
	return status;
}
