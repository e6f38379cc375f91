/*
 * patch_cli.h — what cmd_patch.c shares with cmd_patch_project.c.
 */
#ifndef SPX_CLI_PATCH_CLI_H
#define SPX_CLI_PATCH_CLI_H

#include "../driver/session.h"
#include "../patch/patch.h"
#include "../project/project.h"

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
/* The manifest (free it) of the nearest semaprax.toml that lists the file
 * at path, or NULL: `patch`, `impact` and `review` of such a file take it
 * as that module of its project. */
char *cli_patch_manifest(const char *path);
/* A patch of the file at path, a module of the project at manifest. */
typedef struct ProjectPatch {
	Project pj;           /* the verified project */
	Program C;            /* the candidate project */
	Session *L;           /* path's module in pj */
	Session *Cs;          /* … in C */
} ProjectPatch;
/* Checks the project into pp (zeroed), plans sp against path's module
 * (plan, *cand of *clen bytes), checks the whole candidate project linked
 * and lowered, and accepts it (cli_patch_accept).  False after
 * diagnostics (pd: the patch's; others printed).  Free pp with
 * cli_patch_project_free either way. */
bool cli_patch_project_candidate(ProjectPatch *pp, const char *manifest, const char *path, const SPatch *sp, DiagSink *pd, PatchPlan *plan,
    char **cand, size_t *clen);
void cli_patch_project_free(ProjectPatch *pp);
/* `review <project> <transaction.json> [--evidence]`; the exit status. */
int cli_patch_review_project(const char *manifest, const char *tx_path, bool evidence);

#endif
