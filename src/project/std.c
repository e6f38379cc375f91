/*
 * std.c — `[dependencies]` resolution against the bundled standard library
 * (std.h).  The only source of packages: there is no registry or network.
 */
#include "std.h"

#include <string.h>

#include "project.h"

const ProjectStdSource *
project_std_find(const char *name)
{
	for (size_t i = 0; i < project_std_nsources; i++)
		if (strcmp(project_std_sources[i].module, name) == 0)
			return &project_std_sources[i];
	return NULL;
}

/* The bundled module name nearest to name (edit distance ≤ 2), or NULL. */
static const char *
nearest(const char *name)
{
	const char *best = NULL;
	int bestd = 3;
	for (size_t i = 0; i < project_std_nsources; i++) {
		int d = spx_edit_distance(name, project_std_sources[i].module, true);
		if (d < bestd) {
			best = project_std_sources[i].module;
			bestd = d;
		}
	}
	return best;
}

static bool
module_hint(void *ctx, Diag *d, const char *name)
{
	const Project *pj = ctx;
	/* a file beside the sources that declares it, not listed */
	char *file = pj ? project_unlisted_declaring(pj->manifest_path, &pj->man, name) : NULL;
	if (file) {
		diag_set_help(d, "`%s` declares `module %s;` but the manifest does not list it: add \"%s\" to `sources` in %s "
		    "(byte order)", file, name, file, project_manifest_shown(pj->manifest_path));
		free(file);
		return true;
	}
	if (project_std_find(name)) {
		diag_set_help(d, "`%s` is bundled: add `%s = \"^" PROJECT_STD_VERSION "\"` to the manifest's `[dependencies]`", name, name);
		return true;
	}
	const char *near = strncmp(name, "std.", 4) == 0 ? nearest(name) : NULL;
	if (!near)
		return false;
	diag_set_help(d, "no bundled module `%s`; did you mean `%s`? (`semaprax help library` lists them)", name, near);
	return true;
}

bool
project_std_resolve(Project *pj)
{
	bool ok = true;
	pj->P.module_hint = module_hint;
	pj->P.hint_ctx = pj;
	for (int i = 0; i < pj->man.ndeps; i++) {
		const ProjectDep *d = &pj->man.deps[i];
		const ProjectStdSource *m = project_std_find(d->name);
		/* a bundled package exists at 0.1.0 only; every range form admits it
		 * exactly when its version is 0.1.0 (^0.1.0 is >=0.1.0 <0.2.0) */
		if (m && strcmp(d->range + 1, PROJECT_STD_VERSION) == 0) {
			driver_program_add(&pj->P, m->origin, m->src, strlen(m->src));
			continue;
		}
		Diag *g;
		Span sp;
		const Span *at = project_manifest_line_span(pj->src, pj->len, d->line, &sp) ? &sp : NULL;
		if (m) {
			g = diag_report(&pj->diags, DIAG_J121, at, "dependency `%s = \"%s\"` does not resolve: the bundled package is version " PROJECT_STD_VERSION,
			    d->name, d->range);
			diag_set_help(g, "require `%s = \"^" PROJECT_STD_VERSION "\"`", d->name);
		} else {
			g = diag_report(&pj->diags, DIAG_J121, at, "dependency `%s = \"%s\"` does not resolve: this toolchain resolves only the bundled `std.*` packages (no registry)",
			    d->name, d->range);
			const char *near = nearest(d->name);
			if (near)
				diag_set_help(g, "did you mean `%s`? the bundled packages: `semaprax help library`", near);
			else
				diag_set_help(g, "remove the `%s` row; there is no registry or network", d->name);
		}
		ok = false;
	}
	return ok;
}
