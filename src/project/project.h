/*
 * project.h — a project (TOOLCHAIN.md §1.1 operand resolution, §2): the
 * manifest `semaprax.toml` (manifest.h) and its modules loaded into one
 * driver Program, linked by stable identity (driver_program_check_linked).
 * The layer above the driver (rank 9, prefix project_); src/cli/ calls it.
 */
#ifndef SPX_PROJECT_PROJECT_H
#define SPX_PROJECT_PROJECT_H

#include <sys/stat.h>

#include "../driver/program.h"
#include "manifest.h"

typedef struct Project {
	char *manifest_path;  /* owned */
	char *src;            /* the manifest bytes (owned) */
	size_t len;
	DiagSink diags;       /* manifest and project-level diagnostics */
	ProjectManifest man;
	bool man_ok;          /* the manifest read, validated and is canonical */
	char **paths;         /* the sources joined to the project root (owned) */
	struct stat *st;      /* lstat of each source when admitted (owned) */
	bool admitted;        /* … and the sources were admitted (J101/J102) */
	bool incremental;     /* project_recheck reused an earlier check's modules */
	struct Project *base; /* a linked earlier project kept while this one is not
	                       * (the service's next project_recheck); owned */
	Program P;
} Project;

/*
 * Operand resolution (§1.1): --manifest-path p is taken literally; a
 * directory selects its semaprax.toml; a path whose last component is
 * semaprax.toml selects that project; no operand selects ./semaprax.toml.
 * Returns the manifest path (free it), or NULL for a single source file.
 */
char *project_manifest_for(const char *operand, const char *manifest_path);
/*
 * The nearest semaprax.toml up the directory tree from the `.spx` file at
 * path (its real path; free it) whose sources list that file, or NULL.
 * unreadable: a manifest whose sources cannot be read (it does not read or
 * validate) answers too — the file is that project's, whose diagnostics
 * then say why (the LSP server); otherwise the search goes on above it.
 */
char *project_manifest_listing(const char *path, bool unreadable);
/* The nearest semaprax.toml up the directory tree from the `.spx` file at
 * path, listing it or not (its real path; free it), or NULL; *rel (free
 * it) the file's path relative to that manifest's directory. */
char *project_manifest_above(const char *path, char **rel);
/* dir without its trailing slashes ("/" stays "/"); free it. */
char *project_dir_trimmed(const char *dir);

/* The manifest's sources joined to its directory, in manifest order (for
 * `fmt` of a project): true when the manifest reads and validates (its
 * diagnostics into diags otherwise); free each path and the array.  With
 * text, a sink without source text gets the manifest's (for the findings'
 * lines and excerpts) and *text owns it: free it after the sink's last
 * use (NULL when not taken). */
bool project_source_paths(const char *manifest_path, DiagSink *diags, char ***out, int *n, char **text);
struct Project;
/* Whether the file at path is one of the manifest's sources (device and
 * inode): 1 or 0, -1 when the manifest does not list its sources (does not
 * read or validate).  held (may be NULL): a project loaded from this
 * manifest, whose admitted sources answer when the manifest is unchanged. */
int project_source_member(const struct Project *held, const char *manifest_path, const char *path);

/* A module's path as the manifest spells it (`src/app.spx`) when path is one
 * of pj's sources joined to its directory, else path itself (a bundled std
 * module's `<bundled>/…`): what `query`, `doc`, `graph`, `lock` and `check`'s
 * module lines print, whatever the operand's spelling of the directory. */
const char *project_spelled_path(const Project *pj, const char *path);
/* The same for a path project_source_paths joined to manifest_path's
 * directory: the part after that directory (a pointer into joined), or
 * joined itself; and the manifest's own name there (into manifest_path),
 * as diagnostics print it once it reads. */
const char *project_source_spelling(const char *manifest_path, const char *joined);
const char *project_manifest_shown(const char *manifest_path);
/* A `.spx` file in a directory of man's sources (the manifest's directory
 * for a top-level one) that man does not list and whose `module` line
 * declares module: its path as the manifest would spell it (malloc'd), the
 * first in source-directory then name order; NULL when none does. */
char *project_unlisted_declaring(const char *manifest_path, const ProjectManifest *man, const char *module);
/* The 1-based line of man's manifest text src[0, len) that lists source
 * (its quoted spelling), or 0. */
int project_source_line(const char *src, size_t len, const char *source);

/* Reads the manifest and checks every module as one linked program (the
 * manifest rules, J121 for unresolved dependencies, the entry and test
 * modules' `main`).  True when nothing reported an error. */
bool project_check(Project *pj, const char *manifest_path);
/* The manifest's entry and test modules are modules of P and define one
 * explicitly identified `main` (G172: a missing module into diags, a
 * missing `main` into the module's); project_check runs it after the link
 * step, and a candidate program made from a project's modules (`patch`,
 * `fix` of a module) must pass it too. */
bool project_check_roles(const ProjectManifest *man, Program *P, DiagSink *diags);
/* After a successful project_check: lowers and validates every module's
 * HIR (for `run`); true when all are there. */
bool project_lower(Project *pj);
/* Every diagnostic: the manifest's, then each module's in ModuleId order. */
/* An unsaved buffer (the service's `refresh` with `path`): the bytes that
 * stand for the project source that is the file at path. */
typedef struct ProjectOverlay {
	const char *path;
	const char *src;
	size_t len;
} ProjectOverlay;
/* project_check with each source an overlay names read from its bytes
 * instead of the disk (the diagnostics still name the source's path). */
/* a and b name one existing file (device and inode). */
bool project_same_file(const char *a, const char *b);
bool project_check_overlay(Project *pj, const char *manifest_path, const ProjectOverlay *ov, int nov);
/* project_check_overlay into pj (uninitialised) reusing old's modules
 * (driver_program_carry/_recheck) when the manifest bytes are unchanged
 * and old was linked; old's carried slots are emptied (project_free it
 * afterwards) — unless the whole check ran, which leaves old as it was
 * (a base for a later recheck; its roles' diagnostics dropped).  Falls back to the whole check otherwise: pj->incremental
 * says which ran.  The result equals project_check_overlay's. */
bool project_recheck(Project *pj, Project *old, const char *manifest_path, const ProjectOverlay *ov, int nov);
void project_emit_diags(const Project *pj, bool json);
void project_free(Project *pj);

#endif
