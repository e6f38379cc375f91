/*
 * emit_project.c — a project as one Wasm module (emit_wasm_project): every
 * module's functions reachable from the entry lowered into one module, an
 * imported function or invariant check resolved to its provider's lowering
 * (emitw_import, emitw_import_invariant), then the imports, wrappers and
 * metadata as for one file (emit.c's emitw_imports, emitw_export_wrappers,
 * emitw_metadata).  Split from emit.c (rev35); the module bytes are the same.
 */
#include "emitw_int.h"

#include <stdlib.h>
#include <string.h>

#include "../rt/domains.h"

static bool
provider(Emitw *W, SymId sym, Emitw **P, SymId *ps)
{
	const Sym *y = sema_sym(W->S, sym);
	int k = y->origin ? sema_strmap_get(&W->prog->names, y->origin) : -1;
	if (k < 0)
		return false;
	*P = &W->prog->W[k];
	*ps = sema_strmap_get(&(*P)->S->ids, y->id);
	return *ps >= 0 && (*P)->M;
}

bool
emitw_import(Emitw *W, SymId sym, Span span, Emitw **P, int *ii)
{
	SymId ps;
	*ii = -1;
	if (!provider(W, sym, P, &ps)) {
		emitw_refuse(W, span, "the Wasm lane cannot call this function");
		return false;
	}
	int fi = W->prog->symfunc[(*P)->modi][ps];
	*ii = fi >= 0 ? (*P)->M->func_inst[fi] : -1;
	if (*ii < 0) {
		emitw_refuse(W, span, "the Wasm lane found no instance of `%s` in its module", sema_sym(W->S, sym)->name);
		return false;
	}
	return true;
}

bool
emitw_import_invariant(Emitw *W, SymId sym, Span span, Emitw **P, int *ii)
{
	SymId ps;
	*ii = -1;
	if (!provider(W, sym, P, &ps) || !(*P)->H->invariants || (*P)->H->invariants[ps] < 0)
		return true;
	*ii = (*P)->M->func_inst[(*P)->H->invariants[ps]];
	if (*ii < 0) {
		emitw_refuse(W, span, "the Wasm lane found no instance of the invariant check of `%s`", sema_sym(W->S, sym)->name);
		return false;
	}
	return true;
}

bool
emit_wasm_project(HirModule *const *mods, int nmods, const int *order, int entry, const int *funcs, int nfuncs, int which,
    const WasmOptions *o, Buf *out, DiagSink *const *diags)
{
	if (emitw_rt_wasm_len == 0) {
		diag_report(diags[entry], DIAG_W102, NULL,
			    "this semaprax was built without the Wasm runtime (clang --target=wasm32 and wasm-ld were not found)");
		return false;
	}
	int nx = o->export_mods ? o->nexports : 0;
	if (!hir_mono_project_roots(mods, nmods, order, entry, funcs, nfuncs, o->export_mods, o->exports, nx, diags))
		return false;
	struct EmitwProg G;
	memset(&G, 0, sizeof G);
	G.n = nmods;
	G.W = spx_xcalloc((size_t)nmods, sizeof *G.W);
	G.symfunc = spx_xcalloc((size_t)nmods, sizeof *G.symfunc);
	WasmModule m;
	memset(&m, 0, sizeof m);
	Buf data = {0};
	int env = 0;
	for (int k = 0; k < nmods; k++) {
		HirModule *H = mods[k];
		sema_strmap_put(&G.names, H->S->module_name, k);
		G.symfunc[k] = hir_symfunc(H);
		Emitw *W = &G.W[k];
		W->H = H;
		W->S = H->S;
		W->diags = diags[k];
		W->o = o;
		W->m = &m;
		W->data = &data;
		W->prog = &G;
		W->modi = k;
		W->M = H->mono;
		int n = W->M ? W->M->ninsts : 0;
		W->fidx = spx_xmalloc(sizeof *W->fidx * ((size_t)n + 1));
		W->thunk = spx_xcalloc((size_t)n + 1, sizeof *W->thunk);
		for (int i = 0; i < n; i++)
			W->fidx[i] = -1;
		if (W->M) {
			int e = emitw_env_slots(W);
			env = e > env ? e : env;
		}
	}
	Emitw *E = &G.W[entry];
	emitw_imports(E);
	wasm_import_memory(&m, "env", "memory", 1);
	E->g_out = wasm_global_add(&m, WT_I32, true, 0);
	E->g_fs = wasm_global_add(&m, WT_I64, true, 0);
	/* every module calls the same imports and globals: the fields from
	 * imp_cell to g_out (contiguous uint32_t, emitw_int.h) are copied */
	const size_t ilo = offsetof(Emitw, imp_cell), ihi = offsetof(Emitw, g_out) + sizeof(uint32_t);
	for (int k = 0; k < nmods; k++) {
		Emitw *W = &G.W[k];
		W->env = env;
		if (W != E)
			memcpy((char *)W + ilo, (const char *)E + ilo, ihi - ilo);
	}
	const HirFunc *mf = &mods[entry]->funcs[funcs[which]];
	Span mspan = mf->sym >= 0 ? sema_sym(E->S, mf->sym)->span : (Span){0};
	if (sema_type_info(&E->S->types, mf->result)->kind != TY_I64 || mf->nparams != 0)
		emitw_refuse(E, mspan, "the Wasm lane runs `fn %s() -> i64` entries only", mf->name);
	uint32_t main_index = E->M ? emitw_func_index(E, E->M->func_inst[funcs[which]], mspan) : 0;
	/* a web package's exports: each in its own module */
	uint32_t *export_index = spx_xcalloc((size_t)nx + 1, sizeof *export_index);
	char **export_names = spx_xcalloc((size_t)nx + 1, sizeof *export_names);
	Emitw **ws = spx_xmalloc(sizeof *ws * ((size_t)nx + 1));
	ws[nx] = E;
	for (int k = 0; k < nx; k++) {
		Emitw *W = ws[k] = &G.W[o->export_mods[k]];
		const HirFunc *xf = &W->H->funcs[o->exports[k]];
		Span xspan = xf->sym >= 0 ? sema_sym(W->S, xf->sym)->span : (Span){0};
		int ii = W->M ? W->M->func_inst[o->exports[k]] : -1;
		if (ii < 0)
			emitw_refuse(W, xspan, "the web export `%s` has no single instance", xf->id);
		else
			export_index[k] = emitw_func_index(W, ii, xspan);
	}
	bool failed = E->failed || !E->M;
	/* each module's queue grows while others are lowered: until none does */
	for (bool more = true; more && !failed;) {
		more = false;
		for (int k = 0; k < nmods && !failed; k++) {
			Emitw *W = &G.W[k];
			while (W->qdone < W->queue.len && !W->failed) {
				emitw_function(W, W->qdone++);
				more = true;
			}
			emitw_mem_funcs(W);
			failed = W->failed;
		}
	}
	for (int k = 0; k < nmods; k++)
		failed |= G.W[k].failed;
	if (!failed) {
		uint32_t pages = (uint32_t)((WASM_DATA_BASE + data.len + 65535) / 65536);
		/* the arguments get pages of their own; the heap follows (as for one module) */
		uint32_t args_base = pages * 65536u;
		if (E->imp_arg != UINT32_MAX)
			pages += (uint32_t)((RT_LIMIT_ARG_BYTES + 65535) / 65536);
		static const uint8_t i64r[1] = { WT_I64 };
		int wi = wasm_func_add(&m, wasm_type(&m, NULL, 0, i64r, 1));
		WasmFunc *wf = &m.funcs.items[wi];
		wasm_u32(&wf->locals, 0);
		emitw_heap_init(E, &wf->code, pages * 65536u);
		wasm_byte(&wf->code, OP_I32_CONST);
		wasm_s32(&wf->code, 0);
		wasm_byte(&wf->code, OP_CALL);
		wasm_u32(&wf->code, main_index);
		wasm_export(&m, "main", 0, (uint32_t)m.nfunc_imports + (uint32_t)wi);
		if (nx)
			emitw_export_wrappers(ws, export_index, export_names, pages * 65536u);
		if (data.len)
			wasm_data(&m, WASM_DATA_BASE, data.data, data.len);
		for (int i = 0; i < m.imports.len; i++)
			if (m.imports.items[i].type < 0)
				m.imports.items[i].min_pages = pages;
		emitw_metadata(E, pages, E->imp_arg != UINT32_MAX ? args_base : 0);
		wasm_custom(&m, "semaprax.rt", emitw_rt_wasm, emitw_rt_wasm_len);
		wasm_encode(&m, out);
	}
	wasm_module_free(&m);
	for (int k = 0; k < nx; k++)
		free(export_names[k]);
	free(export_names);
	free(export_index);
	free(ws);
	for (int k = 0; k < nmods; k++) {
		Emitw *W = &G.W[k];
		VEC_FREE(W->queue);
		VEC_FREE(W->ltypes);
		VEC_FREE(W->live);
		VEC_FREE(W->spare);
		VEC_FREE(W->olive);
		free(W->otemps);
		free(W->fidx);
		free(W->thunk);
		free(W->aux);
		free(W->cyc);
		free(W->slot_base);
		free(W->moved_flag);
		free(W->interned);
		free(G.symfunc[k]);
	}
	buf_free(&data);
	free(G.symfunc);
	free(G.W);
	sema_strmap_free(&G.names);
	return !failed;
}
