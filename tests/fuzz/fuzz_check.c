/*
 * fuzz_check.c — libFuzzer target over the checker: parse → check → lower
 * → validate.  Any crash, sanitizer report or leak is a finding, and so is
 * an HIR that fails validation on a program the checker verified (an
 * internal error, never a user error).  `make fuzz-check`.
 */
#include "../../src/hir/hir.h"
#include "../../src/parse/parse.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	Arena arena;
	DiagSink diags;
	arena_init(&arena);
	diag_init(&diags, "fuzz.spx", (const char *)data, size);
	Module *m = parse_module((const char *)data, size, &arena, &diags);
	if (diags.errors == 0) {
		Sema *S = sema_check(m, (const char *)data, size, &diags);
		if (diags.errors == 0) {
			HirModule *H = hir_lower(S);
			if (!hir_validate(H, &diags))
				__builtin_trap();
			hir_free(H);
		}
		sema_free(S);
	}
	diag_free(&diags);
	arena_free(&arena);
	return 0;
}
