/*
 * patch_cli.h — what cmd_patch.c, cmd_patch_project.c and cmd_repair.c share.
 */
#ifndef SPX_CLI_PATCH_CLI_H
#define SPX_CLI_PATCH_CLI_H

#include "../driver/session.h"
#include "../patch/patch.h"
#include "../project/project.h"

/* The patch (or transaction) file's bytes, or NULL after I202 (printed). */
char *cli_patch_read(const char *path, size_t *len, bool transaction);
/* A unified diff's `---`/`+++` lines for path (control bytes escaped). */
void cli_diff_header(Buf *b, const char *path);
/* One diff line's text s[0..len) (without its newline): control bytes as
 * \xNN and C1 and format controls as \u{…}, as diag_put_visible writes
 * them, but a tab and a final carriage return (a CRLF line) as they are. */
void cli_diff_text(Buf *b, const char *s, size_t len);
/* The unified diff of old → new (the plan's edits) into b. */
void cli_patch_unified_diff(Buf *b, const char *path, const char *old, size_t old_len, const char *new_, size_t new_len,
    const PatchPlan *pl);
/* The `semaprax.semantic-review.v1` report of sp (planned as plan against
 * the verified program L, its verified candidate C) into out, one line
 * without newline; false with diagnostics in pd. */
bool cli_patch_review_report(Buf *out, Session *L, Session *C, const SPatch *sp, PatchPlan *plan, const char *ptext, size_t plen,
    DiagSink *pd);
/* Verifies src[0..len) as the file at path would be alone: parse, check,
 * revision, lower and validate.  The session owns its diagnostics. */
bool cli_patch_verify_copy(Session *c, const char *path, const char *src, size_t len);
/* Removes from cand each warning base holds too (same code and message);
 * the count removed.  cli_patch_dropped_line prints "(N warnings WHOSE not
 * repeated)" after a human refusal (nothing for none or --json). */
int cli_patch_drop_known_warnings(DiagSink *cand, const DiagSink *base);
void cli_patch_dropped_line(int dropped, const char *whose);
/* Resolves sp against the verified session L, applies the edits to a copy
 * (*cand), verifies it alone in C and accepts it (cli_patch_accept).
 * Patch diagnostics go to pd; a copy that does not verify prints its own
 * diagnostics. */
bool cli_patch_make_candidate(Session *L, const char *path, const SPatch *sp, DiagSink *pd, PatchPlan *plan, Session *C, char **cand,
    size_t *clen);
/* The identity-rebase object of assigning persistent id pid to the
 * automatic function target: its direct callers in stable-id order, with
 * their call-site counts (`repair` and `review`; cmd_repair.c). */
void cli_patch_identity_rebase(Buf *b, Sema *S, SymId target, const char *pid);
/* Accepts the verified candidate C of sp (planned as plan against the
 * verified L): the same meaning (patch_same_meaning), v4's added function ids
 * into plan, `require no-new-effects`; false with diagnostics in pd. */
bool cli_patch_accept(const SPatch *sp, PatchPlan *plan, Session *L, Session *C, DiagSink *pd);
/* The manifest (free it) of the nearest semaprax.toml that lists the file
 * at path, or NULL: `patch`, `impact` and `review` of such a file take it
 * as that module of its project. */
char *cli_patch_manifest(const char *path);
/* After a single-file command on path failed with T105 (no `main`) or the
 * spanless G172 (imports need the project): when a semaprax.toml up the
 * tree lists the file, their help names the project command to run
 * (`semaprax <cmd> <dir><rest>`), dir relative when below the working directory. */
void cli_listed_module_help(DiagSink *ds, const char *path, const char *cmd, const char *rest);
/* A patch (or fix, or repair) of the file at path, a module of the project
 * at manifest. */
typedef struct ProjectPatch {
	Project pj;           /* the project as checked */
	bool verified;        /* … checked (roles too) and lowered without error */
	ModuleId mod;         /* path's module in pj */
	Session *L;           /* … its session */
	Program C;            /* the candidate project (cli_patch_project_verify) */
	DiagSink cdiags;      /* … its project-level diagnostics (the manifest's) */
	Session *Cs;          /* path's module in C */
} ProjectPatch;
/* Checks the project into pp (zeroed) and finds path's module (pp->L);
 * when need_verified, the project must verify.  False after printing
 * the project's diagnostics.  Free pp with cli_patch_project_free either
 * way. */
bool cli_patch_project_open(ProjectPatch *pp, const char *manifest, const char *path, bool need_verified);
/* The candidate project into pp->C (replacing an earlier one): every
 * module of pp->pj with its checked bytes, path's module with
 * src[0..len), checked linked, its entry and test roles
 * (project_check_roles) and lowered; pp->Cs is path's module there.  True
 * when it verifies; the diagnostics stay in C (cli_patch_project_emit). */
bool cli_patch_project_verify(ProjectPatch *pp, const char *src, size_t len);
/* head (to stderr, may be NULL), then the candidate project's diagnostics. */
void cli_patch_project_emit(ProjectPatch *pp, const char *head);
/* After cli_patch_project_open: plans sp against path's module (plan,
 * *cand of *clen bytes), verifies the candidate project and accepts it
 * (cli_patch_accept).  False after diagnostics (pd: the patch's; others
 * printed). */
bool cli_patch_project_plan(ProjectPatch *pp, const char *path, const SPatch *sp, DiagSink *pd, PatchPlan *plan, char **cand,
    size_t *clen);
/* cli_patch_project_open (verified) and cli_patch_project_plan. */
bool cli_patch_project_candidate(ProjectPatch *pp, const char *manifest, const char *path, const SPatch *sp, DiagSink *pd, PatchPlan *plan,
    char **cand, size_t *clen);
void cli_patch_project_free(ProjectPatch *pp);
/* The write guard (FmtGuard) of a project module, ctx its ProjectPatch:
 * the manifest and every other module of the project must still hold the
 * bytes the candidate was verified with; else I207 (printed) and false.
 * The write runs it under its lock right before the commit, beside its
 * own check of the written file (cli_fmt_write). */
bool cli_patch_project_unchanged(void *ctx);
/* `cross_module_callers` (docs/PATCH.md): for each function the plan of
 * module mod changes, the functions of P's other modules that call it or
 * take it as a value through `use function`, as the JSON member
 * `,"cross_module_callers":[…]` appended to b. */
void cli_patch_cross_module_callers(Buf *b, const Program *P, ModuleId mod, const PatchPlan *plan);
/* `review <project> <transaction.json> [--evidence]`; the exit status. */
int cli_patch_review_project(const char *manifest, const char *tx_path, bool evidence);
/* `patch <project> <transaction.json> [--dry-run]` (docs/PATCH.md): the
 * transaction planned and verified as `review` does, then every module it
 * changes written, or none; the exit status. */
int cli_patch_apply_project(const char *manifest, const char *tx_path, bool dry);
/* The manifest and every module file of pj still hold the bytes pj was
 * checked with; else I207 (or I101 for a read error), printed, and false. */
bool cli_patch_project_files_unchanged(const Project *pj);

/* A module a patch result names (cli_patch_result). */
typedef struct PatchResultModule {
	const char *module;    /* its dotted name */
	const char *path;      /* its file, as the project names it */
	const char *base;      /* its revision before … */
	const char *revision;  /* … and after the patch */
} PatchResultModule;
/* The `semaprax.patch-result.v1` object of `patch --json` (docs/PATCH.md)
 * and a newline into b: dry for --dry-run (diff: the unified diff), the
 * operand path with its revision before (base) and after, the project's
 * name and new revision (project NULL: a file no manifest lists), and the
 * modules changed (project forms). */
void cli_patch_result(Buf *b, bool dry, const char *path, const char *base, const char *revision, const char *project,
    const char *project_rev, const PatchResultModule *mods, int nmods, const Buf *diff);

/* One module file a project transaction writes (cmd_patch_tx.c). */
typedef struct TxWrite {
	const char *operand;   /* the module's path as the project names it */
	const char *old;       /* the bytes it was verified with */
	size_t old_len;
	const char *data;      /* its patched bytes */
	size_t len;
} TxWrite;
/* Writes w[0..n) all or none: every file prepared and locked (in path
 * order) first, then the manifest and every module checked unchanged
 * (cli_patch_project_files_unchanged), then each written (cli_fmt_write:
 * staged, synced, its base re-read, renamed).  A write that fails restores
 * the ones written before it, newest first.  False after diagnostics. */
bool cli_patch_tx_commit(const Project *pj, const TxWrite *w, int n);

#endif
