/*
 * manifest.h — the project manifest `semaprax.toml` (TOOLCHAIN.md §2.1–2.2):
 * our own small reader for exactly the two layouts the spec allows, the
 * frozen `semaprax.project.v1` (six assignments) and the table layout
 * `semaprax.manifest.v1`; no general TOML.
 *
 * The reader is lenient only where a canonical rendering can repair the
 * bytes (spacing around `=`, `,` and brackets, blank lines, CRLF, a BOM,
 * table and key order); everything else is a diagnostic.  A manifest is
 * admitted only when its bytes equal project_manifest_render's rendering
 * (SPX-J100 naming the first differing line); `fmt --manifest` writes the
 * rendering of a manifest that reads and validates.
 */
#ifndef SPX_PROJECT_MANIFEST_H
#define SPX_PROJECT_MANIFEST_H

#include "../support/buf.h"
#include "../support/diag.h"

#define PROJECT_MAX_MANIFEST (64u * 1024u)
#define PROJECT_MAX_SOURCES 16          /* semaprax.project.v1 (frozen) */
#define PROJECT_MAX_SOURCES_TABLES 4096  /* semaprax.manifest.v1 */
#define PROJECT_MAX_WEB 32
#define PROJECT_MAX_DEPS 64

typedef struct ProjectDep {
	char *name;          /* dotted package name */
	char *range;         /* "^x.y.z" | "~x.y.z" | "=x.y.z" */
	int line;            /* its 1-based manifest line (a finding's span) */
} ProjectDep;

/* One `[registers]` row (docs/REGISTERS.md; our additive extension): a
 * register check `semaprax check` runs. */
typedef struct ProjectRegisterRow {
	char *name;          /* the row's key, [a-z][a-z0-9-]* */
	char *file;          /* the register, relative to the manifest's directory */
	char *pattern;       /* PCRE2 source (a TOML literal string: no escapes) */
	char *severity;      /* validated by the check (SPX-J146), not the reader */
	bool uncited;
	int line;            /* in the manifest (diagnostics), not rendered */
} ProjectRegisterRow;

typedef struct ProjectManifest {
	bool tables;         /* semaprax.manifest.v1 (else semaprax.project.v1) */
	char *name;
	char *version;       /* tables only */
	char *profile;       /* tables only; NULL = the scalar contract */
	char *entry;
	char *test_module;
	int entry_line, tests_line; /* their 1-based manifest lines (0: none) */
	char **sources; int nsources;
	char **web; int nweb;
	char *command;       /* [command] function */
	char *command_input; /* [command] input */
	char **capabilities; int ncapabilities; bool has_capabilities;
	ProjectDep *deps; int ndeps;
	char **matrix; int nmatrix; bool has_matrix;
	ProjectRegisterRow *registers; int nregisters;  /* tables only, sorted by name */
} ProjectManifest;

/* Reads and validates src[0..len) into *m (zeroed first); diagnostics
 * (J100, J101, J120) into diags.  True when it reads and validates; the
 * canonical-bytes rule is project_manifest_canonical's. */
bool project_manifest_read(ProjectManifest *m, const char *src, size_t len, DiagSink *diags);
/* The canonical rendering of m. */
void project_manifest_render(const ProjectManifest *m, Buf *out);
/* True when src equals the rendering; else SPX-J100 naming the first
 * differing line into diags. */
bool project_manifest_canonical(const ProjectManifest *m, const char *src, size_t len, DiagSink *diags);
void project_manifest_free(ProjectManifest *m);
/* The span of 1-based line `line` of the manifest src[0, len) without its
 * line break; false past the text (or line 0). */
bool project_manifest_line_span(const char *src, size_t len, int line, Span *out);
/* manifest_registers.c: the `[registers]` rows.  Parses one row's inline
 * table text (from `{` to the line's end) into *out; NULL on success, else
 * the problem (static text or written into err). */
const char *project_register_row_parse(const char *text, ProjectRegisterRow *out, bool *unknown_key, char *err, size_t errn);
void project_register_rows_render(const ProjectManifest *m, Buf *b);
void project_register_row_free(ProjectRegisterRow *r);
/* A project name: [a-z][a-z0-9-]*, 1-64 bytes. */
bool project_valid_name(const char *s);

#endif
