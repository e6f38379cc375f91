/*
 * load.h — reading and verifying one source file for a command.
 */
#ifndef SPX_CLI_LOAD_H
#define SPX_CLI_LOAD_H

#include "cli.h"

#include "../hir/hir.h"
#include "../parse/parse.h"
#include "../sema/sema.h"

typedef enum LoadStage {
	LOAD_PARSE,   /* read and parse */
	LOAD_VERIFY,  /* … then check, lower to HIR and validate it */
	LOAD_CHECK,   /* LOAD_VERIFY plus the graph revision (`check`) */
} LoadStage;

typedef struct Loaded {
	DiagSink diags;   /* everything reported, in order */
	char *src;        /* owned source bytes (NULL when unreadable) */
	size_t len;
	Arena arena;      /* the syntax tree */
	Module *m;
	Sema *S;          /* LOAD_VERIFY, once parsing succeeded */
	HirModule *H;     /* LOAD_VERIFY, when verified and validated */
	char revision[72];  /* LOAD_CHECK, once checked: sema_revision's text */
} Loaded;

/* Runs the pipeline up to `stage`; true when nothing reported an error. */
bool cli_load(Loaded *L, const char *path, LoadStage stage);
void cli_unload(Loaded *L);

#endif
