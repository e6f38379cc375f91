/*
 * route.c — routes and admission (TOOLCHAIN.md §1.3), shared by both lanes.
 *
 * Routes by the module's permit set:
 *   - a non-empty subset of {fs.read, process.args.read,
 *     process.stderr.write, process.stdout.write} other than exactly
 *     {process.stdout.write}: a command-line program.  Also a command-line
 *     program (our extension, DECISIONS.md): permits within that set plus
 *     fs.write and process.stdin.read, when some function uses one of the
 *     two — modules the reference refuses to run;
 *   - exactly {process.stdout.write}: the stdout transcript;
 *   - anything else: pure.
 * A route grants exactly the host capabilities above that the module
 * permits (the pure route none, the transcript process.stdout.write, never
 * `network.*`); a module whose `main` can reach an operation needing
 * anything else is refused before it runs or is built (SPX-F102,
 * `interpreter admission failed (unsupported_callee): …`), so neither lane
 * stops half-way for want of a capability and a native executable holds
 * no host operation its route does not grant.
 */
#include "route.h"

#include <string.h>

static const char *const command_permits[] = {
	"fs.read", "process.args.read", "process.stderr.write", "process.stdout.write",
};
/* command_permits plus the capabilities only our command route grants */
static const char *const hosted_permits[] = {
	"fs.read", "fs.write", "process.args.read", "process.stdin.read", "process.stderr.write",
	"process.stdout.write",
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

/* Does some function use a capability beyond the reference's command set? */
static bool
uses_beyond_command(const Sema *S)
{
	for (int i = 0; i < S->syms.len; i++)
		for (int k = 0; k < S->syms.items[i].neffects; k++)
			if (!listed(S->syms.items[i].effects[k], command_permits, countof(command_permits)))
				return true;
	return false;
}

static Route
select_route(const Sema *S)
{
	if (S->npermits == 0)
		return ROUTE_PURE;
	bool command = true, hosted = true, only_stdout = true;
	for (int i = 0; i < S->npermits; i++) {
		command &= listed(S->permits[i], command_permits, countof(command_permits));
		hosted &= listed(S->permits[i], hosted_permits, countof(hosted_permits));
		only_stdout &= strcmp(S->permits[i], "process.stdout.write") == 0;
	}
	if (only_stdout)
		return ROUTE_TRANSCRIPT;
	return command || (hosted && uses_beyond_command(S)) ? ROUTE_COMMAND : ROUTE_PURE;
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
		o->fs_write = permitted(S, "fs.write");
		o->args_read = permitted(S, "process.args.read");
		o->stdin_read = permitted(S, "process.stdin.read");
		o->stdout_write = permitted(S, "process.stdout.write");
		o->stderr_write = permitted(S, "process.stderr.write");
	}
}

bool
cli_admit(HirModule *H, const InterpOptions *o, DiagSink *diags)
{
	static const char *const names[] = { "pure interpreter", "stdout transcript", "command-line" };
	int entry = hir_find_main(H);
	const Builtin *b = entry >= 0 ? interp_refused_builtin(H, entry, o) : NULL;
	if (!b)
		return true;
	Diag *d;
	if (strncmp(b->effect, "network.", 8) == 0) {
		d = diag_report(diags, DIAG_F102, NULL,
				"interpreter admission failed (unsupported_callee): `%s` needs a network provider, "
				"and `semaprax run` grants no network authority", b->name);
		if (d)
			diag_set_help(d, "network operations run only where a host injects a network provider");
	} else {
		d = diag_report(diags, DIAG_F102, NULL,
				"interpreter admission failed (unsupported_callee): `%s` needs `%s`, which the %s route "
				"does not grant", b->name, b->effect, names[o->route]);
		if (d)
			diag_set_help(d, "a command-line program permits a non-empty subset of fs.read, fs.write, "
					 "process.args.read, process.stdin.read, process.stderr.write and process.stdout.write");
	}
	return false;
}
