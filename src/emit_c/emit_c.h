/*
 * emit_c.h — the native lane (issue 5): C11 emission from the typed HIR
 * and the driver for the system C compiler (LANGUAGE.md §0.9).
 *
 * emit_c produces one deterministic translation unit (identical HIR →
 * identical bytes): the embedded runtime (the headers in src/emit_c/rt/, via
 * tools/embed_rt.sh), the types and their release/clone/equality helpers,
 * the prototypes, the function instances reachable from `main` (the
 * HIR's instance list, hir_mono: generics monomorphised), the
 * function-value dispatchers, then a C
 * `main` that publishes the route's output (TOOLCHAIN.md §1.3).  Failures
 * follow the native runtime contract of TOOLCHAIN.md §1.3 item 8 (exit 70
 * contracts, 71 checked arithmetic, 72 runtime invariants, 73 call depth
 * and other domains).
 *
 * A construct outside the lane is refused with B110 at the first
 * occurrence; nothing is compiled then (see emit.c for what is covered).
 */
#ifndef SPX_EMIT_C_H
#define SPX_EMIT_C_H

#include "../hir/hir.h"
#include "../support/buf.h"
#include "../support/diag.h"

/* The embedded runtime sections (generated from src/emit_c/rt/). */
extern const char emit_c_rt_core[];
extern const char emit_c_rt_text[];
extern const char emit_c_rt_coll[];
extern const char emit_c_rt_fs[];
extern const char emit_c_rt_shared_fs[];   /* src/rt/fs.c */
extern const char emit_c_rt_host[];
extern const char emit_c_rt_shared_host[]; /* src/rt/host.c */
extern const char emit_c_rt_stream[];
extern const char emit_c_rt_shared_stream[]; /* src/rt/stream.c */
extern const char emit_c_rt_shared_domains[]; /* src/rt/domains.h with domains.def inlined */
extern const char emit_c_rt_shared_utf8[]; /* src/rt/utf8.c */
extern const char emit_c_rt_shared_num[];  /* src/rt/num.c */
extern const char emit_c_rt_shared_float[]; /* src/rt/float.c */
extern const char emit_c_rt_shared_text[]; /* src/rt/text.c */
extern const char emit_c_rt_shared_args[]; /* src/rt/args.c */
extern const char emit_c_rt_shared_coll[]; /* src/rt/coll.c */
extern const char emit_c_rt_contract[];

typedef struct EmitOptions {
	/* `run --native`: stage output, cap it at 65,536 bytes (§0.1) and
	 * publish after main; `build` executables write directly. */
	bool staged;
	/* The route and the host capabilities it grants (src/driver/route.c;
	 * the same grants the interpreter runs with).  The caller has
	 * admitted the module (no operation main reaches needs more). */
	const HirGrants *host;
	/* project tests: an arithmetic failure also prints `SEMAPRAX status:
	 * <code>` on stderr (SPX_REPORT_STATUS), so the report names its status */
	bool report_status;
	/* 0: a function body of more than 256 statements is emitted as chunk
	 * functions of about 128 statements (emit.c); N > 0 (tests: the CLI's
	 * SEMAPRAX_C_CHUNK=N, cli_c_chunk_every) frames every body of more
	 * than one statement and cuts every N statements. */
	int chunk_every;
} EmitOptions;

/* Emits the program into out (H->mono's instances, built here when the
 * driver has not: driver_mono); false after reporting B110 (or F102) into diags. */
bool emit_c(HirModule *H, const EmitOptions *o, Buf *out, DiagSink *diags);

/*
 * A project (src/emit_c/emit_prog.c): every module's instances in one unit,
 * module k's C names prefixed `p<k>_`, a call of an imported function or
 * method naming the provider's instance.  order[] lists the modules with
 * providers first (driver_program_check_linked's order); each module's
 * instances start from what its importers' instances reach in it (imported
 * functions, methods, record invariant checks) and, for mods[entry], from
 * the entry functions funcs[0..nfuncs); the C main runs
 * entry function funcs[argv[1]] (0 when absent) of mods[entry] — `main`, or
 * a test case — on the pure route.  Diagnostics go to diags[k] for module k.
 */
bool emit_c_project(HirModule *const *mods, int nmods, const int *order, int entry, const int *funcs, int nfuncs, const EmitOptions *o,
    Buf *out, DiagSink *const *diags);

typedef enum NativeStatus { NATIVE_OK, NATIVE_NO_CC, NATIVE_CC_FAILED, NATIVE_IO } NativeStatus;

/*
 * Compiles csrc with $CC (default `cc`) `-std=c11 -O2 -ffp-contract=off
 * -Wall -Wextra` (plus $SEMAPRAX_NATIVE_CFLAGS, for the sanitizer lane)
 * into <dir>/program, dir being a fresh private temporary directory
 * created here (`dir` receives its path).  msg receives the compiler's
 * output (NATIVE_CC_FAILED) or the reason (NATIVE_NO_CC, NATIVE_IO).
 * Call emitc_native_cleanup(dir) afterwards in every case.
 */
NativeStatus emitc_native_compile(const char *csrc, size_t len, char dir[4096], Buf *msg);
/* Runs exe with argv (stdio inherited) and waits: 0 and its wait status, or
 * an errno.  SIGINT/SIGTERM/SIGHUP reaching us meanwhile go to the program. */
int emit_native_exec(const char *exe, char **argv, int *wstatus);
/* Removes dir; then, if SIGINT, SIGTERM or SIGHUP arrived since
 * emitc_native_compile began (forwarded to the child at work and waited for), ends
 * the process by that signal.  Always called last. */
void emitc_native_cleanup(const char *dir);
/* Has such a signal arrived (emitc_native_cleanup will end the process)? */
bool emit_native_interrupted(void);

#endif
