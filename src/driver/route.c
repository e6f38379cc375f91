/*
 * route.c — routes and admission (TOOLCHAIN.md §1.3), the one policy
 * shared by `run`, `run --native` and `build` (and the tools), as the
 * reference selects and refuses, with LANGUAGE.md §0.1's capability lift:
 *   - a non-empty subset of the host capabilities {clock.read, fs.read,
 *     fs.write, process.args.read, process.environment.read,
 *     process.stderr.write, process.stdin.read, process.stdout.write}
 *     other than exactly {process.stdout.write}: a command-line program.
 *     It may call, of the compiler-owned operations that need an effect,
 *     only those hir_run_op admits (args_len, arg_utf8, stdout_write,
 *     stderr_write, file_read_text, file_write_new, file_write_atomic,
 *     stdin_read, env_len, env_name_utf8, env_value_utf8, clock_now_ms).
 *     Every function is walked, reachable from `main` or not, in symbol
 *     order; a closure where it is written; within a function its
 *     `ensures` from last to first, then its `requires` from last to
 *     first, then its body, each in authored order.  The first other
 *     operation (`file_read`, `file_stat`, `file_list`, …) refuses the
 *     module (SPX-T273);
 *   - exactly {process.stdout.write}: the stdout transcript;
 *   - anything else: pure; a `main` declaring effects is SPX-F102
 *     (`declared_effects`).
 * A module permitting any `network.*` capability is refused on every route
 * before anything runs (SPX-F121): no lane grants network access.
 * A route grants exactly the host capabilities above that the module
 * permits (the pure route none, the transcript process.stdout.write), so a
 * native executable holds no host operation its route does not grant.
 * fs.write is granted only with the command line's consent as well:
 * `run` checks it (driver_grant_write, SPX-F120), a built executable asks
 * for `--allow-write[=DIR]` when it starts.
 *
 * The checker already holds every function's effects within the module's
 * permits (E101) and every caller's within its own `uses` (E102), so these
 * rules are all that stand between a verified module and a route that
 * does not grant what it calls.
 */
#include "route.h"

#include <string.h>

typedef struct Walk {
	HirModule *H;
	const Builtin *refused;
} Walk;

static void walk_func(Walk *W, const HirFunc *f);
static void walk_block(Walk *W, const HirBlock *b);
static void walk_exprs(Walk *W, HirExpr *const *xs, int n);

static void
walk_expr(Walk *W, const HirExpr *e)
{
	if (!e || W->refused)
		return;
	switch (e->kind) {
	case HIR_UNARY: walk_expr(W, e->u.un.x); break;
	case HIR_BINARY: walk_expr(W, e->u.bin.l); walk_expr(W, e->u.bin.r); break;
	case HIR_CALL:
		if (e->u.call.kind == CALL_BUILTIN && !hir_run_op(e->u.call.builtin->bid)) {
			W->refused = e->u.call.builtin;
			return;
		}
		walk_exprs(W, e->u.call.args, e->u.call.nargs);
		break;
	case HIR_FIELD: walk_expr(W, e->u.field.base); break;
	case HIR_TRY: walk_expr(W, e->u.try_.x); break;
	case HIR_WITH: case HIR_RECORD: case HIR_VARIANT:
		walk_expr(W, e->u.agg.base);
		walk_exprs(W, e->u.agg.values, e->u.agg.n);
		break;
	case HIR_BLOCK: walk_block(W, e->u.block); break;
	case HIR_IF:
		walk_expr(W, e->u.if_.cond);
		walk_block(W, e->u.if_.then_);
		walk_block(W, e->u.if_.else_);
		break;
	case HIR_MATCH:
		walk_expr(W, e->u.match.scrutinee);
		for (int i = 0; i < e->u.match.narms; i++) {
			walk_expr(W, e->u.match.arms[i].guard);
			walk_expr(W, e->u.match.arms[i].value);
			walk_block(W, e->u.match.arms[i].scope);
		}
		break;
	case HIR_CLOSURE: walk_func(W, &W->H->funcs[e->u.closure.func]); break;
	case HIR_ARRAY: walk_exprs(W, e->u.array.elems, e->u.array.n); break;
	default: break;   /* literals, locals, moves, function values */
	}
}

static void
walk_exprs(Walk *W, HirExpr *const *xs, int n)
{
	for (int i = 0; i < n; i++)
		walk_expr(W, xs[i]);
}

static void
walk_block(Walk *W, const HirBlock *b)
{
	if (!b)
		return;
	for (int i = 0; i < b->nstmts; i++) {
		walk_expr(W, b->stmts[i]->value);
		walk_block(W, b->stmts[i]->body);
	}
	walk_expr(W, b->tail);
}

static void
walk_func(Walk *W, const HirFunc *f)
{
	for (int i = f->nensures - 1; i >= 0; i--)
		walk_expr(W, f->ensures[i]);
	for (int i = f->nrequires - 1; i >= 0; i--)
		walk_expr(W, f->requires[i]);
	walk_block(W, f->body);
}

/* The first operation outside the command-line profile, or NULL. */
static const Builtin *
command_refusal(HirModule *H)
{
	Walk W = { H, NULL };
	for (int i = 0; i < H->nfuncs && !W.refused; i++)
		if (H->funcs[i].sym >= 0)
			walk_func(&W, &H->funcs[i]);
	return W.refused;
}

static bool
declares_effects(const HirModule *H, int entry)
{
	SymId sym = H->funcs[entry].sym;
	return sym >= 0 && H->S->syms.items[sym].neffects > 0;
}

static const char *const command_permits[] = {
	"clock.read", "fs.read", "fs.write", "process.args.read", "process.environment.read",
	"process.stderr.write", "process.stdin.read", "process.stdout.write",
};

static bool
listed(const char *p, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(p, list[i]) == 0)
			return true;
	return false;
}

static Route
select_route(const char *const *permits, size_t n)
{
	if (n == 0)
		return ROUTE_PURE;
	bool command = true, only_stdout = true;
	for (size_t i = 0; i < n; i++) {
		command &= listed(permits[i], command_permits, countof(command_permits));
		only_stdout &= strcmp(permits[i], "process.stdout.write") == 0;
	}
	if (only_stdout)
		return ROUTE_TRANSCRIPT;
	return command ? ROUTE_COMMAND : ROUTE_PURE;
}

void
driver_route_permits(const char *const *permits, size_t n, HirGrants *o)
{
	memset(o, 0, sizeof *o);
	o->route = select_route(permits, n);
	if (o->route == ROUTE_TRANSCRIPT) {
		o->stdout_write = true;
	} else if (o->route == ROUTE_COMMAND) {
		o->fs_read = listed("fs.read", permits, n);
		o->args_read = listed("process.args.read", permits, n);
		o->stdout_write = listed("process.stdout.write", permits, n);
		o->stderr_write = listed("process.stderr.write", permits, n);
		o->fs_write = listed("fs.write", permits, n);
		o->stdin_read = listed("process.stdin.read", permits, n);
		o->env_read = listed("process.environment.read", permits, n);
		o->clock_read = listed("clock.read", permits, n);
	}
}

void
driver_route(const Sema *S, HirGrants *o)
{
	driver_route_permits((const char *const *)S->permits, (size_t)S->npermits, o);
}

bool
driver_admit(HirModule *H, const HirGrants *o, DiagSink *diags)
{
	for (int i = 0; i < H->S->npermits; i++) {
		if (strncmp(H->S->permits[i], "network.", 8) == 0) {
			Diag *d = diag_report(diags, DIAG_F121, NULL,
					      "network access is not granted: module `%s` permits `%s`",
					      H->S->module_name ? H->S->module_name : "?", H->S->permits[i]);
			if (d)
				diag_set_help(d, "no lane grants `network.*`; remove the permit and the network operations");
			return false;
		}
	}
	if (o->route == ROUTE_COMMAND) {
		const Builtin *b = command_refusal(H);
		if (b) {
			Diag *d = diag_report(diags, DIAG_T273, NULL,
					      "single-file command-line program authority mismatch: `%s` is outside the "
					      "command-line profile; read files with `file_read_text`", b->name);
			/* the reference's help (kept, LANGUAGE.md §0.2) names its five
			 * operations; §0.1 admits more (hir_run_op): the note lists them (qa39) */
			if (d)
				diag_set_note(d, "besides those five, `run` admits `file_write_new` and `file_write_atomic` "
						 "(with --allow-write), `stdin_read`, `stdin_stream_open`, `stdin_stream_next`, "
						 "`env_len`, `env_name_utf8`, `env_value_utf8` and `clock_now_ms`; `%s` is none of them: "
						 "remove its calls (every function is checked, called or not)", b->name);
		}
		return b == NULL;
	}
	int entry = hir_find_main(H);
	if (o->route == ROUTE_PURE && entry >= 0 && declares_effects(H, entry)) {
		Diag *d = diag_report(diags, DIAG_F102, NULL, "interpreter admission failed (declared_effects): function `%s`",
				      H->funcs[entry].name);
		if (d)
			diag_set_help(d, "the pure route runs a `main` that declares no effects; a command-line program "
					 "permits only host capabilities (clock.read, fs.read, fs.write, process.args.read, "
					 "process.environment.read, process.stderr.write, process.stdin.read, process.stdout.write)");
		return false;
	}
	return true;
}

bool
driver_grant_write(HirGrants *g, bool allowed, const char *dir, DiagSink *diags)
{
	if (!g->fs_write)
		return true;
	if (!allowed) {
		Diag *d = diag_report(diags, DIAG_F120, NULL,
				      "the module permits `fs.write`, but writes are not granted on this command line");
		if (d)
			diag_set_help(d, "grant writes explicitly with `--allow-write` (below the working directory) "
					 "or `--allow-write=DIR` (below DIR only)");
		return false;
	}
	g->write_root = dir;
	return true;
}
