/*
 * lsp_int.h — the LSP server's private types (lsp.c, lsp_feat.c,
 * lsp_walk.c; docs/editors.md).
 *
 * Every open document is its own single-file product database (SvcFile,
 * db.c): didOpen/didChange set its held source and re-check it
 * incrementally, and the features answer from its products.  Positions
 * cross the protocol as LSP positions (0-based line, UTF-16 code units);
 * inside they are byte offsets of the held source.
 */
#ifndef SPX_LSP_INT_H
#define SPX_LSP_INT_H

#include "svc_int.h"

#include "../patch/patch.h"

struct json_t;
typedef struct LspProj LspProj;
typedef struct FileId FileId;

typedef struct LspDoc {
	char *uri;
	long version;
	SvcFile file;
	uint32_t *lines;     /* byte offset of each line's start */
	int nlines;
	Buf trace;           /* what the last publish executed and reused (svc_trace_json) */
	bool trace_on;       /* … recorded only when the client asked (initializationOptions.trace) */
	bool utf8;           /* the client chose UTF-8 positions (columns in bytes) */
	LspProj *proj;       /* the project whose manifest lists this file (lsp_project.c), or NULL */
	Buf shown;           /* the diagnostics last published (project documents: republished on change) */
	bool stale;          /* a change was dropped: out of step with the client until its whole text */
} LspDoc;

/* One occurrence of a declared name: its declaration or a use.  Identity:
 * (sym, ci, field) — a symbol (ci -1, field -1), a variant case (ci), a
 * record field (ci -1, field) or a case field (ci, field). */
typedef struct LspOcc {
	uint32_t start, end;
	SymId sym;           /* -1: a local (a parameter or `let` binding, or a use of one) */
	int ci, field;
	bool decl;
	TypeId type;         /* locals: the checked type (T_ERR when unknown) */
	int mode;            /* locals: ParamMode of the binding or the value read */
} LspOcc;

typedef struct LspOccs {
	LspOcc *items;
	int len, cap;
} LspOccs;

/* LSP error codes (the protocol's own). */
enum {
	LSP_E_NOT_INITIALIZED = -32002,
	LSP_E_REQUEST_FAILED = -32803,
	LSP_E_CONTENT_MODIFIED = -32801,
};

/* ---- positions (lsp.c) ---- */
void lsp_doc_lines(LspDoc *d);
/* {"line":L,"character":C} of byte offset off (UTF-16 code units, or bytes
 * when the client negotiated "utf-8"). */
void lsp_put_pos(Buf *out, const LspDoc *d, uint32_t off);
void lsp_put_range(Buf *out, const LspDoc *d, uint32_t start, uint32_t end);
/* The byte offset of an LSP position (clamped to its line). */
uint32_t lsp_offset(const LspDoc *d, long line, long character);
/* The 0-based line and UTF-16 column of off. */
void lsp_line_col(const LspDoc *d, uint32_t off, long *line, long *col);

/* ---- occurrences (lsp_walk.c) ---- */
/* Every occurrence of a declared name in m (checked by S), sorted by start. */
void lsp_occurrences(Sema *S, const Module *m, LspOccs *out);
void lsp_occs_free(LspOccs *o);
/* The occurrence covering byte off (its end included), or NULL. */
const LspOcc *lsp_occ_at(const LspOccs *o, uint32_t off);
bool lsp_occ_same(const LspOcc *a, const LspOcc *b);
/* The declaring occurrence of what o names, or NULL. */
const LspOcc *lsp_occ_decl(const LspOccs *os, const LspOcc *o);
/* The stable id of an occurrence's declaration (NULL for a local). */
const char *lsp_occ_id(Sema *S, const LspOcc *o);

/* ---- local bindings by scope (lsp_local.c) ---- */
/* A binding (decl) or a name that may read one, in walk order; binding:
 * the module-wide number of the binding it resolves to, -1 none.
 * shorthand: `{ f }` (a record literal's use, a pattern's binding). */
typedef struct LspLocalOcc {
	uint32_t start, end;
	int binding;
	bool decl, shorthand;
} LspLocalOcc;

typedef struct LspLocals {
	LspLocalOcc *items;
	int len, cap;
} LspLocals;

void lsp_locals(Sema *S, const Module *m, LspLocals *out);
void lsp_locals_free(LspLocals *o);
/* The binding of the local binding or use at off, or -1. */
int lsp_local_at(const LspLocals *o, uint32_t off);
/* lsp_locals, then the binding at off: out is filled when it is >= 0 (the
 * caller frees it), freed when it is -1. */
int lsp_local_binding(Sema *S, const Module *m, uint32_t off, LspLocals *out);
/* Every name resolves to the same binding in both (a rename's candidate). */
bool lsp_locals_same(const LspLocals *a, const LspLocals *b);

/* ---- features (lsp_feat.c): each writes the result value into out; false
 * with *code and msg set on failure ---- */
typedef struct LspReq {
	LspDoc *doc;
	LspDoc *docs;        /* every open document (a project's overlays and URIs) */
	int ndocs;
	struct json_t *params;
	uint32_t off;        /* the position's byte offset (when the method has one) */
	int code;
	char msg[1024];
	bool reread;         /* the project was re-read from disk (freshness, rename): lsp.c republishes
	                      * its open documents' diagnostics that changed */
} LspReq;

bool lsp_hover(LspReq *r, Buf *out);
bool lsp_definition(LspReq *r, Buf *out);
bool lsp_references(LspReq *r, Buf *out);
bool lsp_rename(LspReq *r, Buf *out);
bool lsp_formatting(LspReq *r, Buf *out);
bool lsp_document_symbols(LspReq *r, Buf *out);
bool lsp_semantic_tokens(LspReq *r, Buf *out);
bool lsp_code_action(LspReq *r, Buf *out);
/* `semaprax/trace` (an extension): the products the last publish executed,
 * reused and backdated. */
bool lsp_trace(LspReq *r, Buf *out);
/* The publishDiagnostics params of a document (re-checks incrementally). */
void lsp_diagnostics(LspDoc *d, Buf *out);
/* The semantic token legend ({"tokenTypes":[…],"tokenModifiers":[…]}). */
void lsp_token_legend(Buf *out);

/* ---- shared by lsp_feat.c and lsp_project.c ---- */
bool lsp_fail(LspReq *r, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void lsp_put_diag(Buf *out, LspDoc *d, const Diag *g);
void lsp_put_edit(Buf *out, LspDoc *d, uint32_t s, uint32_t e, const char *text);
/* A hover reply: the markdown md over the range [start, end) of d. */
void lsp_put_hover(Buf *out, const LspDoc *d, const Buf *md, uint32_t start, uint32_t end);
/* A declaration's hover markdown (g: the module's graph model). */
void lsp_hover_text(Buf *h, Session *s, GraphModel *g, const LspOcc *o);
/* The .spatch text renaming o (of S) to name against base; false when it is
 * no patch target. */
bool lsp_rename_patch(Buf *p, Sema *S, const LspOcc *o, const char *base, const char *name);
/* "what: SPX-XXXX: message" of a sink's first diagnostic into r. */
void lsp_first_diag(LspReq *r, int code, const char *what, const DiagSink *d);
/* hover (fallback 1) or definition (2) of a document that does not verify. */
bool lsp_unverified_answer(LspReq *r, Buf *out, bool hover);
/* references' context.includeDeclaration (absent: true). */
bool lsp_refs_with_decl(const LspReq *r);
/* The rename's params checked (newName, revision, version): false with r's error. */
bool lsp_rename_params(LspReq *r, const char **name, const char **rev);
/* A rename planned by the patch engine: its .spatch text, the parsed patch,
 * the plan's diagnostics and the plan (lsp_rename_free releases all). */
typedef struct LspRename {
	Buf text;
	SPatch sp;
	DiagSink pd;
	PatchPlan plan;
} LspRename;
/* Writes the patch renaming o (NULL: none found; none/local say why, for
 * the refusal) in s to name against base, parses it and plans it against
 * the session at revision current; false after replying to r (refused,
 * stale: content modified).  rn is initialised either way. */
bool lsp_rename_plan(LspReq *r, LspRename *rn, const Session *s, const LspOcc *o, bool none, bool local, const char *base,
    const char *current, const char *name);
void lsp_rename_free(LspRename *rn);
/* textDocument/prepareRename (lsp_feat.c; a project's document: lsp_project.c). */
bool lsp_prepare_rename(LspReq *r, Buf *out);
/* The rename of the declaration o of s (at revision rev) to a probe name
 * no program uses, planned into rn (initialised either way; release with
 * lsp_rename_free): false when the patch engine refuses it whatever the
 * name (prepareRename). */
bool lsp_rename_probe(LspRename *rn, const Session *s, const LspOcc *o, const char *rev);
/* The local name (binding or use) at off in s: its span; false when none. */
bool lsp_local_span(const Session *s, uint32_t off, uint32_t *start, uint32_t *end);
/* prepareRename's answer {range, placeholder}: src[start, end) of d. */
void lsp_put_prepare(Buf *out, const LspDoc *d, const char *src, uint32_t start, uint32_t end);

/* ---- projects (lsp_project.c): an open file a project's manifest lists is
 * checked as part of its project (the service's per-module product), every
 * other open document of it an unsaved overlay ---- */
LspProj *lsp_project_new(const char *manifest);
void lsp_project_free(LspProj *p);
const char *lsp_project_manifest(const LspProj *p);
/* Whether p's last check (its manifest re-read) still lists the file at
 * path; true while it does not read.  A document it stops listing is
 * checked alone again. */
bool lsp_project_lists(const LspProj *p, const char *path);
/* Whether p's last check listed the file at path (no check, no stat of
 * the manifest): an edit of that file touches p too. */
bool lsp_project_reads(const LspProj *p, const char *path);
/* An open document of p changed, opened or closed: the next use re-checks. */
void lsp_project_touch(LspProj *p);
/* The source bytes (manifest and modules) p's last check read, 0 before
 * its first: what the LSP's memory bound counts for it (lsp.c). */
size_t lsp_project_bytes(const LspProj *p);
/* The publishDiagnostics params of d (d->proj set): the project check's
 * diagnostics for d's file (re-checked first when touched, per module as
 * the service's project product: what ran and was reused into t; else
 * `project` reused). */
void lsp_project_diagnostics(LspProj *p, LspDoc *docs, int ndocs, LspDoc *d, SvcTrace *t, Buf *out);
/* The verified (and lowered) session of r->doc's module, or NULL; its
 * graph model into *g. */
Session *lsp_project_session(LspReq *r, GraphModel **g);
bool lsp_project_hover(LspReq *r, Buf *out);
bool lsp_project_definition(LspReq *r, Buf *out);
/* unverified project documents: an imported name's declaration in its
 * provider (lsp_unverified_answer) */
const Decl *lsp_project_import_decl(LspReq *r, const Module *m, const char *src, const char *w, size_t n, int *k);
void lsp_project_put_location(Buf *out, LspReq *r, int k, uint32_t s, uint32_t e);
const char *lsp_project_module_name(LspReq *r, int k);
bool lsp_project_references(LspReq *r, Buf *out);
/* The edits renaming binding to name in src (false, r failed, when name
 * is no local's name). */
bool lsp_local_edits(LspReq *r, const LspLocals *L, int binding, const char *src, const char *name, PatchPlan *plan);
/* name and rev: the checked params (lsp_rename_params). */
bool lsp_project_rename(LspReq *r, const char *name, const char *rev, Buf *out);
bool lsp_project_prepare_rename(LspReq *r, Buf *out);
/* The project check's diagnostics of r->doc's module (code actions). */
const DiagSink *lsp_project_sink(LspReq *r);

#endif
