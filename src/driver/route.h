/*
 * route.h — which route a module runs on and which host capabilities that
 * route grants (TOOLCHAIN.md §1.3), and the admission check before a
 * module runs: one definition for `run`, `run --native`, `build` and the
 * tools, whichever lane runs the module.
 */
#ifndef SPX_DRIVER_ROUTE_H
#define SPX_DRIVER_ROUTE_H

#include "../hir/hir.h"
#include "../sema/sema.h"

/* Fills g (zeroed first) with the module's route and the capabilities it
 * grants. */
void driver_route(const Sema *S, HirGrants *g);
/* The same for a permit list (a project: the union of its modules'
 * permits, the capabilities the lock records). */
void driver_route_permits(const char *const *permits, size_t n, HirGrants *g);

/* The reference's refusals before a run into diags (SPX-T273 on the
 * command route, SPX-F102 on the pure route; see route.c); false then. */
bool driver_admit(HirModule *H, const HirGrants *g, DiagSink *diags);

/* The command line's consent to writes: a module permitting fs.write runs
 * only when allowed (`--allow-write[=DIR]`), else SPX-F120 into diags and
 * false; dir (NULL: the whole working directory) becomes g->write_root. */
bool driver_grant_write(HirGrants *g, bool allowed, const char *dir, DiagSink *diags);

#endif
