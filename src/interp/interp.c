/*
 * interp.c — the interpreter lane's entry: compiles the module into its
 * executable form (compile.c) and runs `main`; the failure domains and
 * their meanings (LANGUAGE.md §5.2).
 */
#include "node.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void
interp_fail(Interp *I, Domain d, uint32_t code)
{
	if (STOPPED)
		return;
	I->stop = STOP_STATUS;
	I->res->domain = d;
	I->res->code = code;
}

void
interp_limit(Interp *I, const char *fmt, ...)
{
	if (STOPPED)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(I->res->message, sizeof I->res->message, fmt, ap);
	va_end(ap);
	I->stop = STOP_LIMIT;
}

/* ---- entry ---- */

static const struct {
	const char *id, *cls;
	const char *meanings[8];
} domains[] = {
#define RT_DOMAIN(name, ident, class_) [RT_DOM_##name].id = ident, [RT_DOM_##name].cls = class_,
#define RT_CODE(dom, name, number, meaning) [RT_DOM_##dom].meanings[number - 1] = meaning,
#include "../rt/domains.def"
};

const char *
interp_domain_id(Domain d)
{
	return domains[d].id;
}

const char *
interp_domain_class(Domain d)
{
	return domains[d].cls;
}

const char *
interp_meaning(Domain d, uint32_t code)
{
	const char *m = code >= 1 && code <= 8 ? domains[d].meanings[code - 1] : NULL;
	return m ? m : "operation failed";
}

/* The heap limit lowers the budget (value.c), so the run stops at the next
 * charge, where no value is half-built (node.h); this tells the two apart. */
void
interp_charge_stop(Interp *I)
{
	if (I->heap.over)
		interp_limit(I, "the program's values exceed the interpreter's %zu-byte heap limit",
			     VALUE_HEAP_LIMIT);
	else
		I->stop = STOP_FUEL;
}

/* slots of a value-stack segment after the first (16 bytes each: 1 MiB) */
#define STACK_SEG ((size_t)1 << 16)

static Value *
stack_alloc(Interp *I, size_t slots)
{
	Value *p = malloc(sizeof(Value) * slots);
	if (!p) {
		/* the documented limit line (interp_run), not exit 3 */
		I->heap.oom_size = sizeof(Value) * slots;
		longjmp(I->heap.oom, 1);
	}
	return p;
}

void
interp_stack_next(Interp *I, size_t need)
{
	int k = I->seg + 1;
	if (k == I->nsegs) {
		I->segs = spx_xrealloc(I->segs, sizeof(*I->segs) * (size_t)(k + 1));
		I->segs[k] = (struct StackSeg){ NULL, 0, 0 };
		I->nsegs = k + 1;
	}
	struct StackSeg *g = &I->segs[k];
	if (g->cap < need) {
		free(g->base);
		g->base = NULL;
		g->cap = 0;
		size_t cap = need > STACK_SEG ? need : STACK_SEG;
		g->base = stack_alloc(I, cap);
		g->cap = cap;
	}
	g->below = I->sp;
	I->seg = k;
	I->stack = g->base;
	I->stack_cap = g->cap;
	I->sp = 0;
}

void
interp_stack_back(Interp *I)
{
	ASSERT(I->seg > 0 && I->sp == 0, "interp.c: value stack segment left with a frame on it");
	I->sp = I->segs[I->seg].below;
	I->seg--;
	I->stack = I->segs[I->seg].base;
	I->stack_cap = I->segs[I->seg].cap;
}

/* Everything a run allocates lives here (no static state: runs are
 * independent and re-entrant). */
static void
run_main(Interp *I, int entry_mod, int entry)
{
	I->base = spx_xmalloc(sizeof(int) * (size_t)I->nmods);
	I->symfuncs = spx_xmalloc(sizeof(int32_t *) * (size_t)I->nmods);
	size_t maxlocals = 1;
	I->ncf = 0;
	for (int m = 0; m < I->nmods; m++) {
		HirModule *H = I->mods[m];
		I->base[m] = I->ncf;
		I->ncf += H->nfuncs;
		if (H->S->module_name)
			sema_strmap_put(&I->modnames, H->S->module_name, m);
		int32_t *sf = I->symfuncs[m] = spx_xmalloc(sizeof(int32_t) * (size_t)(H->S->syms.len ? H->S->syms.len : 1));
		for (int i = 0; i < H->S->syms.len; i++)
			sf[i] = -1;
		for (int i = 0; i < H->nfuncs; i++) {
			if (H->funcs[i].sym >= 0)
				sf[H->funcs[i].sym] = i;
			if ((size_t)H->funcs[i].nlocals > maxlocals)
				maxlocals = (size_t)H->funcs[i].nlocals;
		}
	}
	arena_init(&I->code);
	interp_compile_module(I);
	/*
	 * The value stack grows on demand (sec20): a first segment for 256
	 * frames of the widest function and the arguments of a call being
	 * evaluated, at most STACK_SEG slots; a call that does not fit moves
	 * to the next segment (exec.c, stack_room).  It was reserved whole
	 * before the run: 200,000 locals reserved 1.6 GB, refused by a host
	 * limiting the address space however shallow the run.
	 */
	size_t first = (INTERP_MAX_DEPTH + 2) * 2 * maxlocals;
	I->segs = spx_xmalloc(sizeof(*I->segs));
	I->nsegs = 1;
	I->seg = 0;
	I->segs[0] = (struct StackSeg){ NULL, 0, 0 };
	I->stack_cap = first < STACK_SEG ? first : STACK_SEG;
	I->stack = I->segs[0].base = stack_alloc(I, I->stack_cap);
	I->segs[0].cap = I->stack_cap;
	Value args[INTERP_MAX_ENTRY_ARGS];
	int nargs = I->opt->nentry_args;
	ASSERT(nargs >= 0 && nargs <= (int)countof(args) && (nargs == 0 || nargs == I->mods[entry_mod]->funcs[entry].nparams),
	       "interp.c: entry arguments do not match the entry's parameters");
	for (int i = 0; i < nargs; i++)
		args[i] = I->opt->entry_args[i];
	Value v = interp_exec_call(I, &I->cf[I->base[entry_mod] + entry], args, nargs, NULL);
	/* work charged by the last operation, after the last node's charge */
	if (I->stop == STOP_NONE && I->heap.left < 0) {
		interp_charge_stop(I);
		value_release(&I->heap, v);
		v = v_empty();
	}
	I->res->stop = I->stop;
	if (I->stop == STOP_NONE) {
		I->res->value = v.i;
		if (v.tag >= V_I64 && v.tag <= V_CHAR)
			I->res->scalar = v;
	}
	value_release(&I->heap, v);
	value_release(&I->heap, I->ret);
}

bool
interp_run(HirModule *H, const InterpOptions *o, InterpResult *r)
{
	return interp_run_image(&H, 1, 0, o, r);
}

bool
interp_run_image(HirModule *const *mods, int nmods, int entry_mod, const InterpOptions *o, InterpResult *r)
{
	int entry = hir_find_main(mods[entry_mod]);
	if (entry < 0)
		return false;
	interp_run_image_func(mods, nmods, entry_mod, entry, o, r);
	return true;
}

void
interp_run_image_func(HirModule *const *mods, int nmods, int entry_mod, int entry, const InterpOptions *o, InterpResult *r)
{
	HirModule *H = mods[entry_mod];
	Interp *I = spx_xcalloc(1, sizeof *I);
	I->H = H;
	I->S = H->S;
	I->mods = mods;
	I->nmods = nmods;
	I->opt = o;
	I->res = r;
	I->heap.left = I->heap.base = o->max_steps > INT64_MAX ? INT64_MAX : (int64_t)o->max_steps;
	I->fuel = o->max_steps;
	if (setjmp(I->heap.oom) == 0) {
		run_main(I, entry_mod, entry);
	} else {
		/* The host refused an allocation: the values alive are abandoned
		 * (the process reports and ends; nothing observable runs). */
		I->stop = STOP_NONE;
		interp_limit(I, "the host refused an allocation of %zu bytes (out of memory)",
			     I->heap.oom_size);
		r->stop = STOP_LIMIT;
	}
	r->steps = heap_steps(&I->heap) > I->fuel ? I->fuel : heap_steps(&I->heap);
	VEC_FREE(I->heap.pending);
	VEC_FREE(I->heap.cloning);
	VEC_FREE(I->temps);
	arena_free(&I->code);
	for (int k = 0; k < I->nsegs; k++)
		free(I->segs[k].base);
	free(I->segs);
	for (int m = 0; I->symfuncs && m < I->nmods; m++)
		free(I->symfuncs[m]);
	free(I->symfuncs);
	free(I->base);
	sema_strmap_free(&I->modnames);
	free(I);
}
