/*
 * cmd_registers.c — `semaprax registers [<dir>|semaprax.toml|--manifest-path
 * <p>] [--register PATH --pattern REGEX [--severity error|warning]
 * [--uncited]] [--max-steps N] [--json]` (issue 16, docs/REGISTERS.md).
 * --max-steps sets each check's work budget (default 2·10^7 matching
 * steps, 1..10^9).
 *
 * Checks the project (its diagnostics and exit 1 when it does not verify),
 * then one register check: the one the flags give, or else every
 * `[registers]` row of the manifest, each independently, in row order.
 * Human output: the parameter diagnostics or findings on stderr, one
 * summary line per register on stdout.  --json: the findings as diagnostic
 * lines are left out; each register's report is one JSON line on stdout
 * (parameter diagnostics, which produce no report, as JSON lines instead).
 * Exit 1 when a parameter diagnostic exists or a finding has error
 * severity, else 0.  `check` runs the manifest's rows too
 * (cli_check_registers).
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../project/registers.h"

#define REGISTERS_GRAMMAR "registers requires [<dir>|semaprax.toml|--manifest-path <p>] [--register PATH --pattern REGEX [--severity error|warning] [--uncited]] [--max-steps N] [--json]"

/* Runs every check of rows on a checked project; true when none failed. */
static bool
run_checks(const Project *pj, const RegisterParams *rows, int n, bool json, bool report)
{
	bool ok = true;
	Buf out = {0};
	for (int i = 0; i < n; i++) {
		RegisterReport r;
		ok &= project_register_check(pj, &rows[i], &r);
		bool ran = r.diags.items.len == 0;
		if (report && json && ran) {
			project_register_json(&r, &out);
		} else {
			project_register_emit(&r, json);
			if (ran && !json)
				project_register_summary(&r, &out);
		}
		if (out.len)
			fwrite(out.data, 1, out.len, stdout);
		out.len = 0;
		project_register_free(&r);
	}
	buf_free(&out);
	return ok;
}

bool
cli_check_registers(const Project *pj, bool json)
{
	int n;
	RegisterParams *rows = project_register_rows(pj, &n);
	bool ok = run_checks(pj, rows, n, json, false);
	project_register_rows_free(rows, n);
	return ok;
}

int
cli_cmd_registers(int argc, char **argv)
{
	const char *path = NULL, *manifest_path = NULL, *steps = NULL;
	RegisterParams p = {0};
	bool json = false, have_uncited = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char **slot = NULL;
		if (strcmp(a, "--register") == 0)
			slot = &p.file;
		else if (strcmp(a, "--pattern") == 0)
			slot = &p.pattern;
		else if (strcmp(a, "--severity") == 0)
			slot = &p.severity;
		else if (strcmp(a, "--manifest-path") == 0)
			slot = &manifest_path;
		else if (strcmp(a, "--max-steps") == 0)
			slot = &steps;
		if (slot) {
			if (*slot)
				return cli_usage("registers", "%s given twice", a);
			if (i + 1 >= argc)
				return cli_usage("registers", "%s takes a value; " REGISTERS_GRAMMAR, a);
			*slot = argv[++i];
		} else if (strcmp(a, "--uncited") == 0 && !have_uncited) {
			have_uncited = p.uncited = true;
		} else if (strcmp(a, "--json") == 0 && !json) {
			json = true;
		} else if (strcmp(a, "--uncited") == 0 || strcmp(a, "--json") == 0) {
			return cli_usage("registers", "registers option `%s` may not be repeated", a);
		} else if (a[0] == '-' && a[1]) {
			return cli_unknown_option("registers", a, REGISTERS_GRAMMAR);
		} else if (!path) {
			path = a;
		} else {
			return cli_usage("registers", REGISTERS_GRAMMAR);
		}
	}
	if (path && manifest_path)
		return cli_usage("registers", "give a project or --manifest-path, not both");
	if (steps) {
		if (!cli_parse_within(steps, 1, REGISTER_MAX_WORK_BUDGET, &p.max_steps))
			return cli_usage("registers", "registers option `--max-steps` takes a canonical decimal 1..%u (matching steps), not `%s`",
			    REGISTER_MAX_WORK_BUDGET, steps);
	}
	bool flags = p.file || p.pattern || p.severity || p.uncited;
	if (flags && (!p.file || !p.pattern))
		return cli_usage("registers", "a register check from the command line needs both --register PATH and --pattern REGEX");
	char *manifest = project_manifest_for(path, manifest_path);
	if (!manifest)
		return cli_usage("registers", "registers checks a project, not a single source file; " REGISTERS_GRAMMAR);
	Project pj;
	bool ok = project_check(&pj, manifest);
	free(manifest);
	if (!ok) {
		project_emit_diags(&pj, json);
		project_free(&pj);
		return EXIT_FAIL;
	}
	project_emit_diags(&pj, json);   /* warnings */
	if (flags) {
		if (!p.severity)
			p.severity = "error";
		p.open_path = p.file;
		ok = run_checks(&pj, &p, 1, json, true);
	} else if (pj.man.nregisters == 0) {
		fprintf(stderr, "registers: the manifest configures no `[registers]` row and no --register was given\n");
		fprintf(stderr, "hint: run `semaprax help registers` for usage\n");
		project_free(&pj);
		return EXIT_USAGE;
	} else {
		int n;
		RegisterParams *rows = project_register_rows(&pj, &n);
		for (int i = 0; i < n; i++)
			rows[i].max_steps = p.max_steps;
		ok = run_checks(&pj, rows, n, json, true);
		project_register_rows_free(rows, n);
	}
	project_free(&pj);
	return ok ? EXIT_OK : EXIT_FAIL;
}
