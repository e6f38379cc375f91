/*
 * patch_cli.h — what cmd_patch.c shares with cmd_patch_project.c.
 */
#ifndef SPX_CLI_PATCH_CLI_H
#define SPX_CLI_PATCH_CLI_H

#include "../driver/session.h"
#include "../patch/patch.h"

/* The patch (or transaction) file's bytes, or NULL after I202 (printed). */
char *cli_patch_read(const char *path, size_t *len);
/* The unified diff of old → new (the plan's edits) into b. */
void cli_patch_unified_diff(Buf *b, const char *path, const char *old, size_t old_len, const char *new_, size_t new_len,
    const PatchPlan *pl);
/* The `semaprax.semantic-review.v1` report of sp (planned as plan against
 * the verified program L, its verified candidate C) into out, one line
 * without newline; false with diagnostics in pd. */
bool cli_patch_review_report(Buf *out, Session *L, Session *C, const SPatch *sp, PatchPlan *plan, const char *ptext, size_t plen,
    DiagSink *pd);
/* Accepts the verified candidate C of sp (planned as plan against the
 * verified L): the same meaning (patch_same_meaning), v4's added function ids
 * into plan, `require no-new-effects`; false with diagnostics in pd. */
bool cli_patch_accept(const SPatch *sp, PatchPlan *plan, Session *L, Session *C, DiagSink *pd);
/* `patch <file> <patch.spatch> [--dry-run]` of the file at path, a module
 * of the project at manifest: planned against that module of the verified
 * project, the whole candidate project checked; the exit status. */
int cli_patch_project_module(const char *manifest, const char *path, const char *patch_path, bool dry);
/* `review <project> <transaction.json> [--evidence]`; the exit status. */
int cli_patch_review_project(const char *manifest, const char *tx_path, bool evidence);

#endif
