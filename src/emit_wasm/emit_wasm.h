/*
 * emit_wasm.h — the WebAssembly lane (issue 13): Core Wasm from the typed
 * HIR, encoded by us (wasm_enc.c), run by a small ES module host under
 * Node (host/host.mjs, host/run.mjs; embedded into semaprax at build time).
 *
 * The module (see emit.c for the ABI) imports its memory, the failure
 * reporter, the host capabilities its route grants (never more) and the
 * shared runtime's functions (src/rt compiled for wasm32 when semaprax is
 * built, carried in the module's `semaprax.rt` custom section); it exports
 * `main`.  Failures print the native lane's lines and exit with its
 * statuses (70 contracts, 71 checked arithmetic, 72 runtime invariants, 73
 * call depth and other domains; tests/lane-lib.sh).
 *
 * A construct outside the lane's subset is refused with W110 at the first
 * occurrence; nothing is written then.
 */
#ifndef SPX_EMIT_WASM_H
#define SPX_EMIT_WASM_H

#include "../hir/hir.h"
#include "../support/buf.h"
#include "../support/diag.h"

/* Generated at build time (tools/embed_wasm.sh): the shared runtime as a
 * wasm32 module (length 0 when semaprax was built without clang/wasm-ld),
 * and the host modules' text. */
extern const unsigned char emitw_rt_wasm[];
extern const size_t emitw_rt_wasm_len;
extern const char emitw_host_mjs[];
extern const char emitw_run_mjs[];

typedef struct WasmOptions {
	/* The route and the host capabilities it grants (src/driver/route.c);
	 * the caller has admitted the module. */
	const HirGrants *host;
	/* build --target web: HIR functions (scalar signatures, checked by the
	 * caller) exported beside `main` under emitw_export_name(id). */
	const int *exports;
	int nexports;
	/* a project's web package (emit_wasm_project): export k is function
	 * exports[k] of mods[export_mods[k]] (NULL: no exports) */
	const int *export_mods;
	/* project tests: an arithmetic failure's text adds `SEMAPRAX status:
	 * <code>` (as the native lane's SPX_REPORT_STATUS) */
	bool report_status;
} WasmOptions;

/* The Wasm export name of the function with stable id `id`: `x_` then the
 * id with [A-Za-z0-9] kept and every other byte as `_` and two lowercase
 * hex digits (injective, and safe in JS, HTML and JSON). */
void emitw_export_name(Buf *out, const char *id);
/* Is t a type a web export may take or return (i64 i32 u8 usize bool f64 char)? */
bool emitw_web_scalar(TypeId t);

/* Emits the module's bytes into out; false after reporting W110, W102
 * or F102 into diags. */
bool emit_wasm(HirModule *H, const WasmOptions *o, Buf *out, DiagSink *diags);
/* A project: every module's instances (hir_mono_project from the entry
 * functions funcs of mods[entry]) in one module, calls of imported functions
 * and methods and imported records' invariant checks reaching the provider's
 * functions (values are flat, so they cross as they are); the exported
 * `main` runs funcs[which] on the pure route.  Diagnostics into diags[k]. */
bool emit_wasm_project(HirModule *const *mods, int nmods, const int *order, int entry, const int *funcs, int nfuncs, int which,
    const WasmOptions *o, Buf *out, DiagSink *const *diags);

/* WASM_RUN_PIPE_CLOSED: the program wrote to a pipe whose reader had left
 * (run.mjs left `stdout-closed`); the native lane's program ends by SIGPIPE
 * there, and node ignores that signal. */
typedef enum WasmRunStatus { WASM_RUN_OK, WASM_RUN_NO_NODE, WASM_RUN_IO, WASM_RUN_PIPE_CLOSED } WasmRunStatus;

/*
 * Writes the module and the host into a fresh private temporary directory,
 * runs `node run.mjs program.wasm [args]` ($SEMAPRAX_NODE, default `node`)
 * with stdio inherited and waits; *wstatus receives its wait status.  msg
 * receives the reason otherwise.  The directory is removed before
 * returning.  SIGINT/SIGTERM/SIGHUP arriving meanwhile are forwarded to
 * node; then, after cleanup, the process ends by that signal.
 */
WasmRunStatus emitw_node_run(const Buf *module, char **args, int nargs, int *wstatus, Buf *msg);

#endif
