/*
 * svc_int.h — the service's private types: the product database of one
 * source file (db.c) and the trace of a request.
 */
#ifndef SPX_SVC_INT_H
#define SPX_SVC_INT_H

#include "../driver/program.h"
#include "../graph/graph.h"
#include "../project/project.h"
#include "service.h"

/* What one request did with the products (docs/service.md, "Products"). */
typedef struct SvcTrace {
	Buf executed, reused, backdated;   /* JSON string lists, comma-separated */
	int nexecuted, nreused, nbackdated;
	bool off;            /* nobody asked: svc_trace_add records nothing (10,001 names cost) */
} SvcTrace;

/* A cached diagnostic, its offsets relative to the start of its owner
 * declaration (owner -1: absolute). */
typedef struct SvcFix {
	uint32_t start, end;
	char *text;
} SvcFix;

typedef struct SvcDiag {
	DiagCode code;
	char *message, *help, *note;
	bool has_span;
	int owner;
	uint32_t start, end;
	SvcFix *fixes;
	int nfixes;
} SvcDiag;

typedef struct SvcDiags {
	SvcDiag *items;
	int len;
} SvcDiags;

/* One top-level declaration as the last parse saw it. */
typedef struct SvcItem {
	char *key;           /* "fn:name", "record:Name", … ("#2" on a repeat) */
	char *name;          /* the declared name */
	bool key_lent, name_lent;   /* the next table's item owns the string now */
	int kind;            /* DeclKind */
	bool has_body;       /* a function or class: a body product */
	bool separable;      /* a non-generic function: callers read its signature only */
	bool generic;        /* a generic function: the module's instances are one product */
	unsigned char sig[32], all[32];
	char **deps;         /* the words its text mentions, sorted, unique */
	int ndeps;
	uint32_t start, end;
	uint32_t name_start, name_end;   /* the declared name */
	unsigned prelude;    /* the prelude features it uses (sema_prelude_decl) … */
	bool prelude_ok;     /* … when known */
	char *canon;         /* its piece of the revision's canonical text, or NULL */
	size_t ncanon;
	bool have_body;      /* the body product exists */
	SvcDiags diags;      /* the body product: its diagnostics */
} SvcItem;

typedef struct SvcFile {
	char *path;
	char *src;           /* the input: the held source bytes */
	size_t len;
	uint64_t gen;        /* bumped whenever the bytes change */
	bool hint;           /* since the last parse only edits with known ranges: src[0..hint_p) and its */
	size_t hint_p, hint_q; /* last hint_q bytes are the parsed text's (its common prefix and suffix) */
	bool src_shared;     /* src is also the parse session's text (after a splice): the session owns it */
	/* parse */
	bool parsed;         /* a parse product exists */
	uint64_t parsed_gen; /* the input it was made from */
	size_t spliced;      /* bytes re-parsed by splices since the last whole parse */
	bool verify_splice;  /* SPX_SERVICE_VERIFY_SPLICE: each splice compared with a whole parse */
	bool parse_failed;
	SvcDiags parse_diags;/* when the parse failed */
	Session *sess;       /* the last successful parse (its AST) */
	int splice_k;        /* the declaration the last parse spliced, or -1 (a whole parse) */
	bool in_place;       /* … and the item table was updated in place (only k's body changed) */
	int ngeneric;        /* generic functions in the item table */
	uint32_t splice_at;  /* … the old end of the changed bytes, and the length delta */
	int64_t splice_delta;
	int64_t *lag;        /* per declaration of sess: what its inner spans still owe (lazy shift), or NULL */
	bool lagging;        /* some lag entry may be non-zero: svc_file_settle before reading the tree */
	Sema *S;             /* the last check's checker over sess (the reusable resolve), or NULL */
	uint32_t S_nexprs, S_ncalls;   /* the module's counts its side tables are sized for */
	unsigned char header[32];
	SvcItem *items;
	int nitems;
	/* resolve: the declaration pass's diagnostics (head before bodies, tail after) */
	bool have_resolve;
	SvcDiags resolve_head, resolve_tail;
	/* revision */
	bool prelude_known, prelude_user_box;   /* the user_box the items' prelude bits assume */
	bool have_revision;
	bool lazy_revision;  /* computed on demand (svc_file_revision), not per check: the LSP server, a refresh */
	bool verified;       /* the last check (of parsed_gen) verified */
	char revision[72];
	/* program (full check + HIR) and its graph model */
	bool have_program;
	uint64_t program_gen;
	Program *prog;
	Session *psess;
	bool prog_ok;
	GraphModel *g;
	char schema[32], pdigest[72];
} SvcFile;

void svc_trace_init(SvcTrace *t);
void svc_trace_free(SvcTrace *t);
void svc_trace_add(SvcTrace *t, int which, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
enum { SVC_EXECUTED, SVC_REUSED, SVC_BACKDATED };
/* {"executed":[…],"reused":[…],"backdated":[…]} */
void svc_trace_json(Buf *out, const SvcTrace *t);

/* The span of the name a declaration declares (its whole span for a session). */
Span svc_decl_name_span(const Decl *d);

void svc_file_init(SvcFile *f, const char *path);
void svc_file_free(SvcFile *f);
/* The input: a copy of the bytes, or (src NULL) the file re-read; false
 * with a message when unreadable. */
bool svc_file_set(SvcFile *f, const char *src, size_t len, SvcError *err);
/* The input: src (malloc'd, len + 1 bytes, NUL-terminated) handed over. */
void svc_file_take(SvcFile *f, char *src, size_t len);
/* The same after an edit whose range the caller knows: src[0..p) and its
 * last q bytes are the held text's (p + q <= both lengths).  No byte is
 * compared: the next parse takes the changed range from the hint. */
void svc_file_take_edited(SvcFile *f, char *src, size_t len, size_t p, size_t q);
/* Pays the lazy span shift of the splices (parse_settle_decl): after it
 * every span of f->sess's tree is exact.  Anything but the refresh's own
 * fast path (the spliced declaration, the declarations' own spans, the
 * checker's symbols) calls it before reading the tree. */
void svc_file_settle(SvcFile *f);
/* After a check that verified (f->verified): the revision (computed now
 * when lazy_revision left it pending). */
const char *svc_file_revision(SvcFile *f);
/* Brings parse, resolve, bodies and revision up to date (recording into t)
 * and renders the diagnostics into out: a sink over the current source
 * (diag_free it).  True when the program verifies. */
bool svc_file_check(SvcFile *f, SvcTrace *t, DiagSink *out);
/* Brings the program product (full check, HIR, graph model) up to date;
 * false when the program does not verify. */
bool svc_file_program(SvcFile *f, SvcTrace *t);

/* db_project.c: brings the project product up to date (reload: re-read
 * the manifest and the modules, re-checking only what changed), recording
 * per-module products into t; true when the project verifies. */
bool svc_project_check(Service *v, SvcTrace *t, bool reload);
/* The same over explicit state (the LSP server's projects too): *pj (NULL
 * before the first check) replaced by the check of manifest with the
 * buffers ov (read from the disk otherwise), re-checking only what changed
 * since *pj; true when it verifies. */
bool svc_project_update(Project **pj, const char *manifest, const ProjectOverlay *ov, int nov, SvcTrace *t);
/* The end of a -32004 message while `data` holds the diagnostics
 * (SVC_DATA_HELD), and the end rpc.c writes in its place when they would
 * pass the message bound and `data.diagnostics` is null (SVC_DATA_NULL). */
#define SVC_DATA_HELD ": `data.diagnostics` holds its diagnostics, as `check` answers them"
#define SVC_DATA_NULL ": its diagnostics would pass the message bound, so `data.diagnostics` is null; `check` answers them"
/* The service's diagnostics lists: each diagnostic of s as its `check
 * --json` object, comma-separated after what out holds unless *first; and
 * err->data as {"diagnostics":[items]} of such items (db_project.c). */
void svc_put_diag(Buf *out, const DiagSink *s, const Diag *d, bool *first);
void svc_put_diags(Buf *out, const DiagSink *s, bool *first);
void svc_error_diags(SvcError *err, const Buf *items);
/* The first diagnostic a command of the table reported while the service
 * watched (SvcOptions.watch_diags, svc_seen_diag its callback): its code,
 * its `check --json` object (a list item), message and help (NULL: none). */
typedef struct SvcSeen {
	bool seen;
	DiagCode code;
	Buf item;
	char *message, *help;
} SvcSeen;
void svc_seen_diag(void *ctx, const DiagSink *s, const Diag *d);
void svc_seen_free(SvcSeen *w);
/* A project read (graph, context, query, doc) that failed: its diagnostics
 * as the objects `check` answers, into err->data as {"diagnostics":[…]}.
 * Not verifying: the project loaded as the CLI's project forms load it
 * (project_check_overlay with the held buffers, project_lower), every
 * diagnostic; otherwise (a symbol, G001) the first diagnostic the command
 * reported, seen (no span: the forms' own refusals have none), or without
 * one (a usage refusal) no data and the first line of the command's stderr
 * cli.  err->message: that diagnostic's message and help, or for a project
 * that does not verify a pointer to `data`.  False. */
bool svc_project_read_failed(Service *v, const SvcSeen *seen, const char *cli, int code, SvcError *err);

/* Runs command argv[0] of o's command table in this process (stdin from
 * /dev/null, stdout and stderr captured into bo and be, each within
 * o->max_message); false with *err when it cannot run or says too much. */
bool svc_capture(const SvcOptions *o, int argc, char **argv, Buf *bo, Buf *be, int *status, SvcError *err);

struct Service {
	SvcOptions o;
	char *operand;
	bool project;        /* the operand is a project (manifest path below) */
	char *manifest;
	SvcFile file;        /* file mode: the database */
	bool have_file;      /* the input was set (first use reads the file) */
	Project *pj;         /* project mode: the project product */
	bool pj_ok;
	ProjectOverlay *ov;  /* project mode: unsaved buffers (refresh `path`), owned bytes */
	int nov;
	bool shut;           /* `shutdown` was answered */
	bool initialized;    /* MCP: `initialize` was answered */
	bool exiting;        /* the `exit` notification arrived */
};

/* rpc.c: a request's id as written back in a reply (an integer, a string or
 * null); the LSP server's replies too */
struct json_t;
void svc_put_id(Buf *out, struct json_t *id);
/* message as a JSON string, each byte of ill-formed UTF-8 as U+FFFD (rpc.c) */
void svc_json_text(Buf *out, const char *message);
/* The JSON value of one message (rpc.c; both transports), or NULL with the
 * error to answer: *code SVC_E_INVALID_REQUEST when it nests deeper than
 * SVC_MAX_DEPTH (refused before the parser recurses), else SVC_E_PARSE; its
 * message in msg. */
struct json_t *svc_decode(const char *s, size_t len, int *code, char *msg, size_t cap);

#endif
