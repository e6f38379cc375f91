/*
 * admit.c — which host capabilities a route grants, and the admission
 * check `semaprax run` makes before running a module (TOOLCHAIN.md §1.3).
 *
 * A route grants exactly the capabilities its options name: the pure route
 * none, the stdout transcript `process.stdout.write`, a command-line
 * program those of fs.read, fs.write, process.args.read,
 * process.stdin.read, process.stderr.write and process.stdout.write that
 * the module permits.  No route grants `network.*`: as in the reference,
 * `semaprax run` has no network provider to inject.
 *
 * The check walks the HIR from `main` through every function it can reach
 * (direct calls, methods, function values and closures; record invariants
 * are effect-free) and reports the first compiler-owned operation, in that
 * walk's order, whose effects are not all granted.
 */
#include "interp.h"

#include <string.h>

bool
interp_grants(const InterpOptions *o, const char *effect)
{
	const struct { const char *name; bool on; } caps[] = {
		{ "fs.read", o->fs_read }, { "fs.write", o->fs_write },
		{ "process.args.read", o->args_read }, { "process.stdin.read", o->stdin_read },
		{ "process.stderr.write", o->stderr_write }, { "process.stdout.write", o->stdout_write },
	};
	for (size_t i = 0; i < countof(caps); i++)
		if (strcmp(caps[i].name, effect) == 0)
			return caps[i].on;
	return false;
}

/* Every effect of a builtin's comma-separated list granted? */
static bool
grants_all(const InterpOptions *o, const char *effects)
{
	char one[64];
	while (*effects) {
		size_t n = strcspn(effects, ",");
		if (n >= sizeof one)
			return false;
		memcpy(one, effects, n);
		one[n] = '\0';
		if (!interp_grants(o, one))
			return false;
		effects += n + (effects[n] == ',');
	}
	return true;
}

typedef struct Walk {
	HirModule *H;
	const InterpOptions *o;
	int32_t *symfunc;         /* SymId → HIR function index (-1) */
	bool *seen;               /* per HIR function */
	VEC(int) todo;
	const Builtin *refused;
} Walk;

static void walk_block(Walk *W, const HirBlock *b);

static void
reach(Walk *W, int fi)
{
	if (fi >= 0 && !W->seen[fi]) {
		W->seen[fi] = true;
		VEC_PUSH(W->todo, fi);
	}
}

static void
reach_sym(Walk *W, SymId sym)
{
	if (sym >= 0 && sym < W->H->S->syms.len)
		reach(W, W->symfunc[sym]);
}

static void
walk_exprs(Walk *W, HirExpr *const *xs, int n);

static void
walk_expr(Walk *W, const HirExpr *e)
{
	if (!e || W->refused)
		return;
	switch (e->kind) {
	case HIR_UNARY: walk_expr(W, e->u.un.x); break;
	case HIR_BINARY: walk_expr(W, e->u.bin.l); walk_expr(W, e->u.bin.r); break;
	case HIR_FUNC: reach_sym(W, e->u.call.fn); break;
	case HIR_CALL:
		if (e->u.call.kind == CALL_FN)
			reach_sym(W, e->u.call.fn);
		else if (e->u.call.kind == CALL_BUILTIN && e->u.call.builtin->effect &&
			 !grants_all(W->o, e->u.call.builtin->effect))
			W->refused = e->u.call.builtin;
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
	case HIR_CLOSURE: reach(W, e->u.closure.func); break;
	case HIR_ARRAY: walk_exprs(W, e->u.array.elems, e->u.array.n); break;
	default: break;   /* literals, locals, moves */
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

const Builtin *
interp_refused_builtin(HirModule *H, int entry, const InterpOptions *o)
{
	Walk W;
	memset(&W, 0, sizeof W);
	W.H = H;
	W.o = o;
	W.symfunc = xmalloc(sizeof(int32_t) * (size_t)(H->S->syms.len ? H->S->syms.len : 1));
	for (int i = 0; i < H->S->syms.len; i++)
		W.symfunc[i] = -1;
	for (int i = 0; i < H->nfuncs; i++)
		if (H->funcs[i].sym >= 0)
			W.symfunc[H->funcs[i].sym] = i;
	W.seen = xcalloc((size_t)(H->nfuncs ? H->nfuncs : 1), sizeof(bool));
	reach(&W, entry);
	for (int k = 0; k < W.todo.len && !W.refused; k++) {
		const HirFunc *f = &H->funcs[W.todo.items[k]];
		walk_exprs(&W, f->requires, f->nrequires);
		walk_block(&W, f->body);
		walk_exprs(&W, f->ensures, f->nensures);
	}
	VEC_FREE(W.todo);
	free(W.seen);
	free(W.symfunc);
	return W.refused;
}
