/*
 * session.h — the pipeline driver: one Session per program, read → parse →
 * check → lower → validate, each a step the caller may run on its own.  A
 * Session owns the source, the syntax tree's arena, the diagnostics sink
 * and every product (checked program, revision, HIR); nothing lives in
 * global or static mutable state, so sessions of different programs may be
 * interleaved step by step (tests/unit/session_test.c) and a service may
 * hold several.  Every command of src/cli/ and every tool that needs a
 * verified program starts here.
 */
#ifndef SPX_DRIVER_SESSION_H
#define SPX_DRIVER_SESSION_H

#include "../hir/hir.h"
#include "../parse/parse.h"
#include "../sema/sema.h"
#include "../support/diag.h"

/* Largest source file accepted (I001 beyond it). */
#define DRIVER_MAX_SOURCE (64u << 20)

typedef enum SessionStage {
	SESSION_PARSE,     /* read and parse */
	SESSION_VERIFY,    /* … then check, lower to HIR and validate it */
	SESSION_CHECK,     /* check and the graph revision (`check`): no HIR */
	SESSION_CHECK_HIR, /* SESSION_CHECK plus the HIR (`check --dump-hir`, and
	                    * `check` under SEMAPRAX_VALIDATE_HIR) */
} SessionStage;

typedef struct Session {
	DiagSink diags;     /* everything reported, in order */
	char *src;          /* owned source bytes (NULL when unreadable) */
	size_t len;
	bool src_mapped;    /* src is a read-only file mapping (mapfile_map), not a heap block */
	Arena arena;        /* the syntax tree */
	Module *m;          /* once parsed */
	Sema *S;            /* once checked (also after errors) */
	HirModule *H;       /* once lowered and validated */
	char revision[72];  /* driver_revision's text, once checked */
	SemaPrelude prelude; /* the prelude that revision binds (graph output) */
} Session;

/* An empty session named path (diagnostics carry it). */
void driver_session_init(Session *s, const char *path);
/* The source: read from the session's path (I001 into diags, false), or
 * a copy of src[0..len). */
bool driver_read(Session *s);
void driver_set_source(Session *s, const char *src, size_t len);
/* Each step runs once its predecessor succeeded; true when no error has
 * been reported so far. */
bool driver_parse(Session *s);
bool driver_check(Session *s);
/* driver_check for a project module whose `use` imports the Program
 * resolved (sema_check_linked). */
bool driver_check_linked(Session *s, const SemaLink *links, int nlinks);
/* The graph revision into s->revision (after a successful parse; renders
 * the module).  driver_load runs it before the check, which clears it
 * again when it reports an error: only a verified program has one. */
void driver_revision(Session *s);
/* Lowers to HIR and validates it (H006 into diags; H stays NULL then). */
bool driver_lower(Session *s);
/* Monomorphises the validated HIR for a lane that compiles generics away
 * (hir_mono: s->H->mono, the instances reachable from `main`) and validates
 * the instance list; B110 past the generic-instance bound, H006 for an
 * invalid list.  Idempotent; true when the list is there. */
bool driver_mono(Session *s);
/* Runs the steps up to `stage` on the file at path (init included);
 * true when nothing reported an error. */
bool driver_load(Session *s, const char *path, SessionStage stage);
/* Releases everything the session owns. */
void driver_session_free(Session *s);

/*
 * Reads a whole source file.  On failure reports I001 into diags (path-only
 * location) and returns NULL.  The buffer is NUL-terminated; free() it.
 */
char *driver_read_source(const char *path, size_t *len, DiagSink *diags);

#endif
