/*
 * service.h — the semantic service (issue 17): one long-lived process that
 * holds a program's verified meaning and answers agents over stdio.
 *
 *   db.c       the incremental product database of one source file
 *              (parse, resolve, per-declaration bodies, revision, program,
 *              graph), with the trace of what each request executed and
 *              reused
 *   db_project.c  a served project's products per module (docs/service.md,
 *              "A project's products")
 *   methods.c  the operations (status, check, graph, context, query, doc,
 *              refresh, patch/preview, patch/apply, run, test), each writing
 *              its JSON result into a Buf
 *   rpc.c      JSON-RPC 2.0 over newline-delimited stdio (jansson reads,
 *              support/json.c writes), bounded frames, and MCP on the same
 *              framing (`serve --mcp`)
 *
 * The layer above the project layer and below src/cli/ (prefix svc_).
 * Operations that only exist as commands (doc, patch, run, test) run the
 * command function in this process with its output captured: the command
 * table is handed in by the caller (cli/cmd_serve.c), so this layer never
 * includes src/cli/.  Nothing here is global: a process may hold several
 * services.
 */
#ifndef SPX_SERVICE_H
#define SPX_SERVICE_H

#include <stdio.h>

#include "../support/buf.h"

/* A command of the command table: `int run(int argc, char **argv)`. */
typedef int (*SvcCommandFn)(int argc, char **argv);
typedef SvcCommandFn (*SvcFindCommand)(const char *name);
/* Sets the unsaved buffers the command table's project forms (graph,
 * context, query, doc) read instead of the disk; (NULL, 0) clears them. */
struct ProjectOverlay;
typedef void (*SvcSetOverlay)(const struct ProjectOverlay *ov, int nov);
/* Has seen(ctx, sink, diagnostic) called for each diagnostic the command
 * table's commands report while set, before it is printed (the service
 * takes a failed project read's diagnostic as it was made, not its printed
 * line); (NULL, NULL) clears it. */
struct DiagSink;
struct Diag;
typedef void (*SvcDiagSeen)(void *ctx, const struct DiagSink *s, const struct Diag *d);
typedef void (*SvcWatchDiags)(SvcDiagSeen seen, void *ctx);

#define SVC_DEFAULT_MAX_MESSAGE (1u << 20)
#define SVC_MIN_MAX_MESSAGE 1024u
#define SVC_MAX_DEPTH 64
/* The bytes one request's (or LSP notification's) incremental edits may
 * copy in all, each edit copying the text it edits: 4 x the edited-text
 * bound (64 x the message bound), so one frame's cost stays bounded. */
#define SVC_EDIT_WORK(bound) ((bound) * (size_t)4)
/* The most interpreter steps one `run` request may take (`max_steps`;
 * docs/service.md): about 1-10 s of interpreter time, as `registers
 * --max-steps` at its top; the default stays `run`'s 1,000,000. */
#define SVC_MAX_RUN_STEPS 1000000000L
/* The wall-clock limit of one request that runs a program (`run`, `test`),
 * in seconds: past it the run is stopped and the request is -32011. */
#define SVC_RUN_SECONDS 60

/* Stable error codes (docs/service.md lists them; JSON-RPC's own below -32600). */
enum {
	SVC_E_PARSE = -32700,          /* not JSON (or not UTF-8) */
	SVC_E_INVALID_REQUEST = -32600,/* not a request object, bad id, nesting too deep */
	SVC_E_METHOD = -32601,         /* no such method */
	SVC_E_PARAMS = -32602,         /* params of the wrong shape */
	SVC_E_INTERNAL = -32603,
	SVC_E_TOO_LARGE = -32001,      /* the request frame exceeds --max-message-bytes */
	SVC_E_RESPONSE_TOO_LARGE = -32002, /* the result would exceed it */
	SVC_E_SHUT_DOWN = -32003,      /* a request after `shutdown` */
	SVC_E_NOT_VERIFIED = -32004,   /* the program does not verify (check says why) */
	SVC_E_SYMBOL = -32005,         /* no declaration has that name or stable id */
	SVC_E_UNSAVED = -32006,        /* the held source differs from the file on disk */
	SVC_E_STALE = -32007,          /* patch/apply: the expected revision is not the current one */
	SVC_E_UNSUPPORTED = -32008,    /* the operation is not available for this operand */
	SVC_E_IO = -32009,             /* a file could not be read or written */
	SVC_E_BUFFERS = -32010,        /* a project's unsaved buffers would exceed 64 × the message bound in all */
	SVC_E_RUN_TIME = -32011,       /* `run`/`test` ran past SVC_RUN_SECONDS and was stopped */
};

typedef struct SvcOptions {
	const char *operand;           /* a source file, a project directory or semaprax.toml */
	const char *manifest_path;     /* --manifest-path: a manifest taken literally (operand NULL) */
	size_t max_message;            /* bytes per request frame and per response */
	bool mcp;
	SvcFindCommand find_command;   /* doc, patch, run, test (NULL: those are unsupported) */
	SvcSetOverlay set_overlay;     /* a project's held buffers for its read commands (NULL: refused while held) */
	SvcWatchDiags watch_diags;     /* the diagnostics the commands report (NULL: a failed read's message only) */
} SvcOptions;

typedef struct Service Service;

/* Opens the service on an operand (nothing is read until the first request).
 * NULL with a message on stderr when the operand is unusable. */
Service *svc_open(const SvcOptions *o);
void svc_close(Service *v);

/* Serves newline-delimited messages from in until EOF or `exit`; replies to out.
 * Returns the process status (0). */
int svc_serve(Service *v, FILE *in, FILE *out);

/* One frame (without its newline): the reply, if any, into out (no
 * newline); false when the frame was a notification or produced no reply. */
bool svc_handle_frame(Service *v, const char *frame, size_t len, Buf *out);

/* ---- internal to the layer (db.c, methods.c, rpc.c) ---- */

typedef struct SvcError {
	int code;
	char message[768];   /* room for a diagnostic's line and its help */
	char *data;          /* the error's `data`, a JSON object (heap; svc_call clears it, the replier frees it), or NULL */
} SvcError;

/* Runs one operation: its JSON result into out; false with *err set. */
struct json_t;
bool svc_call(Service *v, const char *method, struct json_t *params, Buf *out, SvcError *err);
/* The operation names in a fixed order (protocol, tools/list). */
extern const char *const svc_method_names[];
extern const int svc_nmethods;

#endif
