/*
 * fuzz_front.h — the front half the checker fuzz targets share
 * (fuzz_check.c, fuzz_run.c): parse the input as `fuzz.spx`, check it,
 * lower a program that checks clean to HIR and validate that HIR.
 *
 * Usage:
 *     FuzzFront f;
 *     HirModule *H = fuzz_front_lower(&f, data, size, "fuzz_x");
 *     if (H) { ...; hir_free(H); }
 *     fuzz_front_free(&f);
 * H is NULL when the input does not parse or check with zero errors.  An
 * HIR that fails validation on a verified program is a finding: it is
 * reported (with the diagnostics) and the target traps.
 *
 * Key choice: static functions in a header, since each target is one
 * translation unit built by its own Makefile rule (no shared object).
 */
#ifndef SPX_FUZZ_FRONT_H
#define SPX_FUZZ_FRONT_H

#include <stdio.h>

#include "../../src/hir/hir.h"
#include "../../src/parse/parse.h"

/* One input's parse and check: what fuzz_front_free releases. */
typedef struct FuzzFront {
	Arena arena;
	DiagSink diags;
	Sema *S; /* NULL when the input does not parse */
} FuzzFront;

/* A finding: says which target and what, shows the diagnostics if any, traps. */
static void
fuzz_finding(const char *target, const char *what, DiagSink *diags)
{
	fprintf(stderr, "%s: %s\n", target, what);
	if (diags)
		diag_emit_all(diags, false);
	__builtin_trap();
}

static HirModule *
fuzz_front_lower(FuzzFront *f, const unsigned char *data, size_t size, const char *target)
{
	arena_init(&f->arena);
	diag_init(&f->diags, "fuzz.spx", (const char *)data, size);
	f->S = NULL;
	Module *m = parse_module((const char *)data, size, &f->arena, &f->diags);
	if (f->diags.errors != 0)
		return NULL;
	f->S = sema_check(m, (const char *)data, size, &f->diags);
	if (f->diags.errors != 0)
		return NULL;
	HirModule *H = hir_lower(f->S);
	if (!hir_validate(H, &f->diags))
		fuzz_finding(target, "the HIR of a verified program fails validation", &f->diags);
	return H;
}

static void
fuzz_front_free(FuzzFront *f)
{
	if (f->S)
		sema_free(f->S);
	diag_free(&f->diags);
	arena_free(&f->arena);
}

#endif
