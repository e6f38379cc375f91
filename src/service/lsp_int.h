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

struct json_t;

typedef struct LspDoc {
	char *uri;
	long version;
	SvcFile file;
	uint32_t *lines;     /* byte offset of each line's start */
	int nlines;
	Buf trace;           /* what the last publish executed and reused (svc_trace_json) */
	bool trace_on;       /* … recorded only when the client asked (initializationOptions.trace) */
	bool utf8;           /* the client chose UTF-8 positions (columns in bytes) */
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
/* The stable id of an occurrence's declaration (NULL for a local). */
const char *lsp_occ_id(Sema *S, const LspOcc *o);

/* ---- features (lsp_feat.c): each writes the result value into out; false
 * with *code and msg set on failure ---- */
typedef struct LspReq {
	LspDoc *doc;
	struct json_t *params;
	uint32_t off;        /* the position's byte offset (when the method has one) */
	int code;
	char msg[320];
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

#endif
