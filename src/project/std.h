/*
 * std.h — the bundled standard library (issue 15 item 7): the SEMAPRAX
 * sources under std/<pkg>/src/<pkg>.spx, embedded at build time
 * (tools/embed_std.sh), resolved for a project's `[dependencies]` rows
 * `std.<pkg> = "^0.1.0"` (TOOLCHAIN.md §2.2) and read by `help library`.
 */
#ifndef SPX_PROJECT_STD_H
#define SPX_PROJECT_STD_H

#include <stddef.h>

#include "../support/diag.h"

typedef struct ProjectStdSource {
	const char *module;   /* dotted module name, e.g. "std.text" */
	const char *path;     /* its repository path, e.g. "std/text/src/text.spx" */
	const char *origin;   /* the path a project shows: "<bundled>/" + path */
	const char *src;      /* the source bytes (NUL-terminated) */
} ProjectStdSource;

/* Sorted by path (= by module name); generated. */
extern const ProjectStdSource project_std_sources[];
extern const size_t project_std_nsources;

/* The bundled module named name, or NULL. */
const ProjectStdSource *project_std_find(const char *name);
/* The bundled version every std package has. */
#define PROJECT_STD_VERSION "0.1.0"

struct Project;
/* Resolves every `[dependencies]` row: a bundled `std.*` package at a range
 * admitting 0.1.0 adds its module to the project's Program (path
 * "<bundled>/std/<pkg>/src/<pkg>.spx"); anything else is J121 (with the
 * nearest bundled name when one is close).  Also installs the Program's
 * module_hint: a `use … from std.x` without its row says which row to add.
 * True when every row resolves. */
bool project_std_resolve(struct Project *pj);

#endif
