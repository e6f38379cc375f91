/*
 * fuzz_check.c — libFuzzer target over the checker: parse → check → lower
 * → validate.  Any crash, sanitizer report or leak is a finding, and so is
 * an HIR that fails validation on a program the checker verified (an
 * internal error, never a user error).  `make fuzz-check`.
 */
#include "fuzz_front.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	FuzzFront f;
	HirModule *H = fuzz_front_lower(&f, data, size, "fuzz_check");
	if (H)
		hir_free(H);
	fuzz_front_free(&f);
	return 0;
}
