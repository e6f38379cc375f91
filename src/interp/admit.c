/*
 * admit.c — what `semaprax run` checks before it runs a module, as the
 * reference's single-file run does (TOOLCHAIN.md §1.3; cmd_run.c reports):
 *
 *   - a command-line program may call, of the compiler-owned operations
 *     that need an effect, only args_len, arg_utf8, stderr_write,
 *     stdout_write and file_read_text.  Every function is walked, reachable
 *     from `main` or not, in symbol order; a closure where it is written;
 *     within a function its `ensures` from last to first, then its
 *     `requires` from last to first, then its body, each in authored order.
 *     The first other operation (`file_read`, `file_stat`, `file_list`, …)
 *     refuses the module (SPX-T273);
 *   - on the pure route `main` may declare no effects (SPX-F102,
 *     `declared_effects`).
 *
 * The checker already holds every function's effects within the module's
 * permits (E101) and every caller's within its own `uses` (E102), so these
 * two rules are all that stand between a verified module and a route that
 * does not grant what it calls.
 */
#include "interp.h"

#include <string.h>

/* The host operations a command-line program may call. */
static const char *const command_ops[] = {
	"arg_utf8", "args_len", "file_read_text", "stderr_write", "stdout_write",
};

typedef struct Walk {
	HirModule *H;
	const Builtin *refused;
} Walk;

static void walk_func(Walk *W, const HirFunc *f);
static void walk_block(Walk *W, const HirBlock *b);
static void walk_exprs(Walk *W, HirExpr *const *xs, int n);

static bool
command_op(const Builtin *b)
{
	if (!b->effect)
		return true;
	for (size_t i = 0; i < countof(command_ops); i++)
		if (strcmp(b->name, command_ops[i]) == 0)
			return true;
	return false;
}

static void
walk_expr(Walk *W, const HirExpr *e)
{
	if (!e || W->refused)
		return;
	switch (e->kind) {
	case HIR_UNARY: walk_expr(W, e->u.un.x); break;
	case HIR_BINARY: walk_expr(W, e->u.bin.l); walk_expr(W, e->u.bin.r); break;
	case HIR_CALL:
		if (e->u.call.kind == CALL_BUILTIN && !command_op(e->u.call.builtin)) {
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

const Builtin *
interp_command_refusal(HirModule *H)
{
	Walk W = { H, NULL };
	for (int i = 0; i < H->nfuncs && !W.refused; i++)
		if (H->funcs[i].sym >= 0)
			walk_func(&W, &H->funcs[i]);
	return W.refused;
}

bool
interp_declares_effects(const HirModule *H, int entry)
{
	SymId sym = H->funcs[entry].sym;
	return sym >= 0 && H->S->syms.items[sym].neffects > 0;
}

bool
interp_grants(const InterpOptions *o, const char *effect)
{
	const struct { const char *name; bool on; } caps[] = {
		{ "fs.read", o->fs_read }, { "process.args.read", o->args_read },
		{ "process.stderr.write", o->stderr_write }, { "process.stdout.write", o->stdout_write },
	};
	for (size_t i = 0; i < countof(caps); i++)
		if (strcmp(caps[i].name, effect) == 0)
			return caps[i].on;
	return false;
}
