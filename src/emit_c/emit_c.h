/*
 * emit_c.h — the native lane (issue 5, first slice): C11 emission from the
 * typed HIR and the driver for the system C compiler (LANGUAGE.md §0.9).
 *
 * emit_c produces one deterministic translation unit (identical HIR →
 * identical bytes): the embedded runtime (runtime.c), then the types, the
 * prototypes and the functions reachable from `main`, then a C `main` that
 * prints main's i64 and a newline.  Failures follow the native runtime
 * contract of TOOLCHAIN.md §1.3 item 8 (exit 70 contracts, 71 checked
 * arithmetic, 73 call depth).
 *
 * The slice covers scalar functions, let/assignment, if, while, blocks,
 * direct calls, every operator (checked integer arithmetic), contracts,
 * records and variants of scalar fields (including Option/Result of
 * scalars), `with`, `match` and `?`.  Anything else is refused with B110
 * at the first unsupported construct; nothing is compiled then.
 */
#ifndef SPX_EMIT_C_H
#define SPX_EMIT_C_H

#include "../hir/hir.h"
#include "../support/buf.h"
#include "../support/diag.h"

/* The embedded runtime prelude (runtime.c). */
extern const char emit_c_runtime[];

/* Emits the program into out; false after reporting B110 (or F102) into diags. */
bool emit_c(HirModule *H, Buf *out, DiagSink *diags);

typedef enum NativeStatus { NATIVE_OK, NATIVE_NO_CC, NATIVE_CC_FAILED, NATIVE_IO } NativeStatus;

/*
 * Compiles csrc with $CC (default `cc`) `-std=c11 -O2 -ffp-contract=off
 * -Wall -Wextra` into <dir>/program, dir being a fresh private temporary
 * directory created here (`dir` receives its path).  msg receives the
 * compiler's output (NATIVE_CC_FAILED) or the reason (NATIVE_NO_CC,
 * NATIVE_IO).  Call native_cleanup(dir) afterwards in every case.
 */
NativeStatus native_compile(const char *csrc, size_t len, char dir[4096], Buf *msg);
void native_cleanup(const char *dir);

#endif
