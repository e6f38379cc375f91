/*
 * route.c — routes and admission (TOOLCHAIN.md §1.3), as the reference's
 * single-file run selects and admits them; one definition for `run`,
 * `run --native` and `build`.
 *
 * Routes by the module's permit set:
 *   - a non-empty subset of {fs.read, process.args.read,
 *     process.stderr.write, process.stdout.write} other than exactly
 *     {process.stdout.write}: a command-line program, granted the
 *     capabilities of that set its module permits;
 *   - exactly {process.stdout.write}: the stdout transcript, granted
 *     process.stdout.write;
 *   - anything else: pure, granted nothing (never `network.*` or stdin).
 * Admission before a module runs or is built (the interpreter's admit.c):
 * a command-line program calling a host operation other than args_len,
 * arg_utf8, stdout_write, stderr_write and file_read_text anywhere is
 * refused (SPX-T273); on the pure route a `main` declaring effects is
 * refused (SPX-F102, `declared_effects`).  With the checker's E101/E102 this
 * leaves no verified module whose `main` reaches an operation its route
 * does not grant, so neither lane stops half-way for want of a capability
 * and a native executable holds no host operation its route does not grant.
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
