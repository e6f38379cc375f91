/*
 * sema.h — semantic verification (LANGUAGE.md §3–6 with §0): the resolver
 * and checker behind `semaprax check`.
 *
 * Input: an error-free parsed Module.  Output: diagnostics in the
 * reference's first-error order (§0.2: type declarations, then each
 * function in source order — body, then effects — then T104/T105), and a
 * Sema (symbols, types, per-expression facts) for later stages.
 */
#ifndef SPX_SEMA_H
#define SPX_SEMA_H

#include "../parse/ast.h"
#include "types.h"

typedef struct Sema Sema;

/* Checks m; returns the Sema (free with sema_free).  `path` names the file.
 * A module with `use` imports is G172 here: only a project resolves them. */
Sema *sema_check(const Module *m, const char *src, size_t len, DiagSink *diags);

/*
 * One resolved `use` of a project module (src/sema/link.c): the importer's
 * declaration and the provider's checked symbol.  The driver resolves the
 * module and the stable id (driver_program_lookup) and checks providers
 * first; the checker imports the symbol under its alias, translating its
 * types into the importer's table (nominal types by (origin module, stable
 * id), which the importer must also `use type`).
 */
typedef struct SemaLink {
	const UseDecl *use;
	const Sema *provider;
	int32_t target;          /* the provider's SymId */
} SemaLink;
Sema *sema_check_linked(const Module *m, const char *src, size_t len, DiagSink *diags, const SemaLink *links, int nlinks);
/*
 * The checker over a reduced set of bodies (the service's incremental
 * database, src/service/): the declarations are collected and resolved and
 * the declaration-level checks run as always, but only the bodies (and
 * contracts, effects, ownership) of declarations whose index in m->decls is
 * set in select are checked; a class's methods follow the class.  NULL
 * selects all (sema_check_linked).  body_range (when not NULL) receives the
 * diagnostics' index range [from, to) the body checks reported.  A Sema of
 * a reduced check has no facts for the bodies it skipped: it is for
 * diagnostics only, never lowered.
 */
Sema *sema_check_select(const Module *m, const char *src, size_t len, DiagSink *diags, const SemaLink *links, int nlinks,
    const bool *select, int body_range[2]);
/*
 * The service's reusable resolve: re-checks the bodies select names with
 * the declarations an earlier sema_check_select over the same Module
 * resolved, after an incremental parse (parse_splice_decl) changed one
 * non-generic function's body and no signature, type or header.  The text
 * is now src[0..len); old bytes from `at` on moved by delta, which the
 * symbols' spans follow; the side tables grow from nexprs/ncalls (what
 * they were sized for) to the module's counts.  body_range as above; the
 * declaration-level checks do not run again (their diagnostics are the
 * caller's to keep).  Only for a module without generic functions.
 */
void sema_recheck_select(Sema *S, const char *src, size_t len, uint32_t nexprs, uint32_t ncalls, uint32_t at, int64_t delta,
    const bool *select, int body_range[2]);
void sema_free(Sema *s);

/*
 * The prelude contract a revision binds: its schema ("semaprax.prelude.vN")
 * and "sha256:" + hex SHA-256 of its contract bytes (the schema line, then
 * the declarations; v1's is d37bad7e…, the digest the reference asserts).
 */
typedef struct SemaPrelude {
	char schema[32];
	char digest[72];
} SemaPrelude;

/*
 * The graph revision of TOOLCHAIN.md §3.2: "sha256:" + 64 hex digits,
 * computed over the canonical text without comments and the prelude bytes.
 * The prelude it chose goes to *prelude unless that is NULL (one scan of
 * the module for both).
 */
void sema_revision(const Module *m, char out[72], SemaPrelude *prelude);
/* The same, given fmt_module_discards's text of m (the service assembles
 * it from cached per-declaration pieces). */
void sema_revision_canon(const Module *m, const char *canon, size_t canon_len, char out[72], SemaPrelude *prelude);
/* The same with the prelude choice assembled by the caller (the service
 * caches it per declaration): the union of sema_prelude_head (the `use`
 * lines; *user_box: the module declares a type `Box`) and of
 * sema_prelude_decl of every declaration, given that user_box. */
unsigned sema_prelude_head(const Module *m, bool *user_box);
unsigned sema_prelude_decl(const Decl *d, bool user_box);
void sema_revision_canon_uses(unsigned uses, const char *canon, size_t canon_len, char out[72], SemaPrelude *prelude);

#endif
