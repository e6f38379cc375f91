/*
 * load.c — the pipeline every command starts with: read a source file,
 * parse it, and (for `check` and `run`) verify it, lower it to HIR and
 * validate the HIR.  Diagnostics collect in the Loaded's sink; the caller
 * emits them.
 */
#include "load.h"

#include <stdlib.h>
#include <string.h>

bool
cli_load(Loaded *L, const char *path, LoadStage stage)
{
	memset(L, 0, sizeof *L);
	diag_init(&L->diags, path, NULL, 0);
	arena_init(&L->arena);
	L->src = cli_read_source(path, &L->len, &L->diags);
	if (!L->src)
		return false;
	L->diags.src = L->src;
	L->diags.src_len = L->len;
	L->m = parse_module(L->src, L->len, &L->arena, &L->diags);
	if (L->diags.errors || stage == LOAD_PARSE)
		return L->diags.errors == 0;
	L->S = sema_check(L->m, L->src, L->len, &L->diags);
	if (L->diags.errors)
		return false;
	/* Before lowering: the revision renders (and re-lexes) the whole module,
	 * so its transient memory does not stack on the HIR's. */
	if (stage == LOAD_CHECK)
		sema_revision(L->m, L->revision);
	/* Every verified program is lowered and the HIR re-validated. */
	L->H = hir_lower(L->S);
	if (!hir_validate(L->H, &L->diags)) {
		hir_free(L->H);
		L->H = NULL;
		return false;
	}
	return true;
}

void
cli_unload(Loaded *L)
{
#ifndef SPX_ASAN
	/* Every command returns from main right after: the system reclaims the
	 * tree, the checker's tables and the HIR at once, so releasing them
	 * block by block would only cost time.  Under ASan (the leak-checked
	 * builds) everything is released, so each owner is still checked. */
	(void)L;
	return;
#endif
	hir_free(L->H);
	if (L->S)
		sema_free(L->S);
	arena_free(&L->arena);
	diag_free(&L->diags);
	free(L->src);
	memset(L, 0, sizeof *L);
}
