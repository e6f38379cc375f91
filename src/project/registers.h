/*
 * registers.h — register checks (issue 16; docs/REGISTERS.md): the tokens a
 * project's prose cites (attached `//` comments, contract clause source
 * text, test case names), checked against an external register — a JSON
 * file `{ "tokens": [ "REQ-1", { "token": "REQ-2", "retired": true } ] }` —
 * and a PCRE2 pattern (UTF mode) whose whole matches are the tokens.
 *
 * Parameter diagnostics (SPX-J140..J146) are always errors and suppress
 * every finding; findings are SPX-J150 (unknown), J151 (retired) and, when
 * asked, J152 (uncited), with the check's severity.  Everything is in a
 * fixed order (declaration id, then token; uncited in register order), so
 * identical input gives identical bytes.
 */
#ifndef SPX_PROJECT_REGISTERS_H
#define SPX_PROJECT_REGISTERS_H

#include "project.h"

/* One register check's parameters. */
typedef struct RegisterParams {
	const char *file;        /* as shown in messages and the report */
	const char *open_path;   /* what is opened (file joined to the manifest's directory for rows) */
	const char *pattern;
	const char *severity;    /* "error" | "warning"; anything else is J146 */
	bool uncited;
	const char *what;        /* how messages name the parameters: NULL = the command line's
	                          * `--register`/`--pattern`/`--severity`, else a row name */
	const char *manifest;    /* a row's: the manifest's file name and the row's line there */
	int line;                /* (0 = the command line) */
	uint64_t max_steps;      /* the check's work budget in matching steps
	                          * (`registers --max-steps`); 0: REGISTER_WORK_BUDGET */
} RegisterParams;

/* The default work budget of one register check, and the bound on
 * `registers --max-steps` (docs/REGISTERS.md "Limits"). */
#define REGISTER_WORK_BUDGET 20000000u
#define REGISTER_MAX_WORK_BUDGET 1000000000u

typedef enum RegisterFindingKind { REG_UNKNOWN, REG_RETIRED, REG_UNCITED } RegisterFindingKind;

typedef struct RegisterFinding {
	RegisterFindingKind kind;
	char *message;
	char *token;
	const char *decl_kind;   /* unknown/retired: the citing declaration's */
	const char *decl_id;
	const char *path;        /* its module's path */
	const char *text_kind;   /* "comment" | "requires" | "ensures" | "name" */
	uint32_t line, col, start, end;
} RegisterFinding;

typedef struct RegisterCitedToken {
	char *token;
	bool held, retired;
	int citations;
	const char **decls;      /* distinct citing declaration ids, byte order */
	int ndecls;
} RegisterCitedToken;

typedef struct RegisterReport {
	RegisterParams params;
	bool warning;            /* the findings' severity */
	DiagSink diags;          /* the parameter diagnostics (J140..J146) */
	int declarations, citations;
	RegisterCitedToken *tokens;
	int ntokens;
	RegisterFinding *findings;
	int nfindings;
	int unknown, retired, uncited;
	void *priv;              /* owned strings */
} RegisterReport;

/*
 * Runs one register check over a checked project (project_check succeeded).
 * True when the check ran (no parameter diagnostic) and no finding is an
 * error.  Release r with project_register_free.
 */
bool project_register_check(const Project *pj, const RegisterParams *p, RegisterReport *r);
void project_register_free(RegisterReport *r);
/* The parameter diagnostics, then the findings, as diagnostics: human on
 * stderr, or JSON lines (diag_render_json's shape) on stdout. */
void project_register_emit(const RegisterReport *r, bool json);
/* The JSON report (one line, newline-terminated): input, totals, tokens, findings. */
void project_register_json(const RegisterReport *r, Buf *out);
/* One summary line: `register <file>: N declarations, … ` */
void project_register_summary(const RegisterReport *r, Buf *out);
/* The manifest's rows as parameters (open_path joined to the manifest's
 * directory; free each open_path). */
RegisterParams *project_register_rows(const Project *pj, int *n);
void project_register_rows_free(RegisterParams *rows, int n);

#endif
