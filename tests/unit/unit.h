/*
 * unit.h — what the unit test files share: unit_check records one
 * expectation (unit.c prints a FAIL line when it does not hold).
 */
#ifndef SPX_UNIT_H
#define SPX_UNIT_H

void unit_check(int ok, const char *what);

/* session_test.c: two driver Sessions interleaved step by step. */
void unit_session_checks(void);

/* program_test.c: a Program of two modules (ModuleIds, handles, revisions). */
void unit_program_checks(void);
/* hir_mono's instance types (mono_test.c). */
void unit_mono_checks(void);
/* src/rt/, the runtime both lanes share (rt_test.c). */
void unit_rt_checks(void);
/* src/graph/: the semantic model (graph_test.c). */
void unit_graph_checks(void);
/* src/patch/: the semantic review's effects guard, SPX-G121 (graph_test.c). */
void unit_review_guard_checks(void);
/* the Wasm lane's encoder (wasm_test.c). */
void unit_wasm_checks(void);
/* rt_float_text against its snprintf/strtod oracle (float_test.c). */
void unit_float_checks(void);
/* sema_std_names against the bundled library as parsed (std_names_test.c). */
void unit_std_names_checks(void);

#endif
