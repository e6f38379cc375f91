/*
 * route.h — which route a module runs on and which host capabilities that
 * route grants (TOOLCHAIN.md §1.3), and the admission check before a
 * module runs: one definition for `run`, `run --native` and `build`.
 */
#ifndef SPX_CLI_ROUTE_H
#define SPX_CLI_ROUTE_H

#include "../interp/interp.h"
#include "../sema/sema.h"

/* Fills o (zeroed first) with the module's route and the capabilities it
 * grants; the caller adds the arguments and the step budget. */
void cli_route_options(const Sema *S, InterpOptions *o);

/* The reference's refusals before a run into diags (SPX-T273 on the
 * command route, SPX-F102 on the pure route; see route.c); false then. */
bool cli_admit(HirModule *H, const InterpOptions *o, DiagSink *diags);

#endif
