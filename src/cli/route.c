/*
 * route.c — routes and admission (TOOLCHAIN.md §1.3), shared by `run`,
 * `run --native` and `build`, as the reference selects and refuses:
 *   - a non-empty subset of {fs.read, process.args.read,
 *     process.stderr.write, process.stdout.write} other than exactly
 *     {process.stdout.write}: a command-line program; a host operation
 *     outside its profile (file_read, file_stat, file_list, …) anywhere in
 *     the module is SPX-T273 (admit.c);
 *   - exactly {process.stdout.write}: the stdout transcript;
 *   - anything else: pure; a `main` declaring effects is SPX-F102
 *     (`declared_effects`).
 * A route grants exactly the host capabilities above that the module
 * permits (the pure route none, the transcript process.stdout.write, never
 * `network.*` or stdin), so a native executable holds no host operation
 * its route does not grant.  Running file writes, stdin and the other file
 * operations is a proposed lift, not active (DECISIONS.md).
 */
#include "route.h"

#include <string.h>

static const char *const command_permits[] = {
	"fs.read", "process.args.read", "process.stderr.write", "process.stdout.write",
};

static bool
permitted(const Sema *S, const char *p)
{
	for (int i = 0; i < S->npermits; i++)
		if (strcmp(S->permits[i], p) == 0)
			return true;
	return false;
}

static bool
listed(const char *p, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(p, list[i]) == 0)
			return true;
	return false;
}

static Route
select_route(const Sema *S)
{
	if (S->npermits == 0)
		return ROUTE_PURE;
	bool command = true, only_stdout = true;
	for (int i = 0; i < S->npermits; i++) {
		command &= listed(S->permits[i], command_permits, countof(command_permits));
		only_stdout &= strcmp(S->permits[i], "process.stdout.write") == 0;
	}
	if (only_stdout)
		return ROUTE_TRANSCRIPT;
	return command ? ROUTE_COMMAND : ROUTE_PURE;
}

void
cli_route_options(const Sema *S, InterpOptions *o)
{
	memset(o, 0, sizeof *o);
	o->route = select_route(S);
	if (o->route == ROUTE_TRANSCRIPT) {
		o->stdout_write = true;
	} else if (o->route == ROUTE_COMMAND) {
		o->fs_read = permitted(S, "fs.read");
		o->args_read = permitted(S, "process.args.read");
		o->stdout_write = permitted(S, "process.stdout.write");
		o->stderr_write = permitted(S, "process.stderr.write");
	}
}

bool
cli_admit(HirModule *H, const InterpOptions *o, DiagSink *diags)
{
	if (o->route == ROUTE_COMMAND) {
		const Builtin *b = interp_command_refusal(H);
		if (b)
			diag_report(diags, DIAG_T273, NULL,
				    "single-file command-line program authority mismatch: `%s` is outside the "
				    "command-line profile; read files with `file_read_text`", b->name);
		return b == NULL;
	}
	int entry = hir_find_main(H);
	if (o->route == ROUTE_PURE && entry >= 0 && interp_declares_effects(H, entry)) {
		Diag *d = diag_report(diags, DIAG_F102, NULL, "interpreter admission failed (declared_effects): function `%s`",
				      H->funcs[entry].name);
		if (d)
			diag_set_help(d, "the pure route runs a `main` that declares no effects; a command-line program "
					 "permits only fs.read, process.args.read, process.stderr.write and process.stdout.write");
		return false;
	}
	return true;
}
