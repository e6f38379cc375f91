/*
 * lsp.c — `semaprax lsp`: a Language Server Protocol server over stdio
 * (issue 17 item 4, started; docs/editors.md).  Content-Length framing;
 * each open document is one product database (db.c) re-checked on every
 * change (full text sync), so an edit re-checks only what it can affect.
 *
 * Served: initialize/initialized/shutdown/exit, didOpen/didChange/didSave/
 * didClose with publishDiagnostics (code, severity, range), hover (the
 * declaration's canonical header: types, ownership modes, effects,
 * contracts; its stable id), definition (a top-level declaration by
 * name), documentSymbol, formatting (the canonical formatter) and
 * codeAction (each diagnostic's fixes as a quick fix), references of a
 * function by resolved identity (the checker's expr_sym over the verified
 * program) and rename through the semantic patch engine (`base <revision>`:
 * stale-safe; an explicit @id is required) and semantic tokens (lexical
 * classes: the lexer's tokens and comments, words sorted by their spelling
 * and neighbours — not resolved).  Positions are UTF-16 code units unless the
 * client offers "utf-8" (LSP 3.17 positionEncodings).
 */
#include "svc_int.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "../fmt/fmt.h"
#include "../lex/lex.h"
#include "../support/json.h"

#define LSP_MAX_DOCS 1024

typedef struct LspDoc {
	char *uri;
	SvcFile f;
	long version;
} LspDoc;

typedef struct Lsp {
	SvcOptions o;
	FILE *out;
	LspDoc *docs;
	int ndocs;
	bool utf8;           /* positions in bytes, else UTF-16 code units */
	bool initialized, shut, exiting;
} Lsp;

/* ---- framing ------------------------------------------------------------------ */

static void
send(Lsp *L, const Buf *body)
{
	fprintf(L->out, "Content-Length: %zu\r\n\r\n", body->len);
	fwrite(body->data, 1, body->len, L->out);
	fflush(L->out);
}

static void
put_id(Buf *b, json_t *id)
{
	if (id && json_is_integer(id))
		buf_printf(b, "%lld", (long long)json_integer_value(id));
	else if (id && json_is_string(id))
		json_str(b, json_string_value(id), json_string_length(id));
	else
		buf_puts(b, "null");
}

static void
send_error(Lsp *L, json_t *id, int code, const char *msg)
{
	Buf b = {0};
	buf_puts(&b, "{\"jsonrpc\":\"2.0\",\"id\":");
	put_id(&b, id);
	buf_printf(&b, ",\"error\":{\"code\":%d,\"message\":", code);
	json_cstr(&b, msg);
	buf_puts(&b, "}}");
	send(L, &b);
	buf_free(&b);
}

static void
send_result(Lsp *L, json_t *id, const Buf *result)
{
	Buf b = {0};
	buf_puts(&b, "{\"jsonrpc\":\"2.0\",\"id\":");
	put_id(&b, id);
	buf_puts(&b, ",\"result\":");
	buf_put(&b, result->data ? result->data : "null", result->data ? result->len : 4);
	buf_putc(&b, '}');
	if (b.len > L->o.max_message)
		send_error(L, id, SVC_E_INTERNAL, "the result exceeds the message bound");
	else
		send(L, &b);
	buf_free(&b);
}

/* ---- positions ---------------------------------------------------------------- */

typedef struct Lines {
	const char *src;
	size_t len;
	uint32_t *start;     /* offset of each line's first byte */
	int n;
	bool utf8;
} Lines;

static void
lines_init(Lines *x, const char *src, size_t len, bool utf8)
{
	x->src = src;
	x->len = len;
	x->utf8 = utf8;
	int cap = 64;
	x->start = spx_xmalloc(sizeof(uint32_t) * (size_t)cap);
	x->n = 0;
	x->start[x->n++] = 0;
	for (size_t i = 0; i < len; i++) {
		if (src[i] != '\n')
			continue;
		if (x->n == cap) {
			cap *= 2;
			x->start = spx_xrealloc(x->start, sizeof(uint32_t) * (size_t)cap);
		}
		x->start[x->n++] = (uint32_t)(i + 1);
	}
}

static void
put_pos(Buf *b, const Lines *x, uint32_t at)
{
	if (at > x->len)
		at = (uint32_t)x->len;
	int lo = 0, hi = x->n;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (x->start[mid] <= at)
			lo = mid + 1;
		else
			hi = mid;
	}
	int line = lo - 1;
	uint32_t ch = 0;
	for (uint32_t p = x->start[line]; p < at; p++) {
		unsigned char c = (unsigned char)x->src[p];
		if (x->utf8)
			ch++;
		else if (c < 0x80 || (c >= 0xC0 && c < 0xF0))
			ch++;
		else if (c >= 0xF0)
			ch += 2;
	}
	buf_printf(b, "{\"line\":%d,\"character\":%u}", line, ch);
}

static void
put_range(Buf *b, const Lines *x, uint32_t s, uint32_t e)
{
	buf_puts(b, "{\"start\":");
	put_pos(b, x, s);
	buf_puts(b, ",\"end\":");
	put_pos(b, x, e);
	buf_putc(b, '}');
}

/* The byte offset of an LSP position (clamped to its line). */
static uint32_t
offset_of(const Lines *x, json_t *pos)
{
	json_t *l = json_is_object(pos) ? json_object_get(pos, "line") : NULL;
	json_t *c = json_is_object(pos) ? json_object_get(pos, "character") : NULL;
	long line = json_is_integer(l) ? (long)json_integer_value(l) : 0;
	long ch = json_is_integer(c) ? (long)json_integer_value(c) : 0;
	if (line < 0)
		line = 0;
	if (line >= x->n)
		return (uint32_t)x->len;
	uint32_t p = x->start[line];
	long units = 0;
	while (p < x->len && x->src[p] != '\n' && units < ch) {
		unsigned char b = (unsigned char)x->src[p];
		int w = b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
		units += x->utf8 ? w : (b >= 0xF0 ? 2 : 1);
		p += (uint32_t)w;
	}
	return p > x->len ? (uint32_t)x->len : p;
}

/* ---- documents ---------------------------------------------------------------- */

static LspDoc *
doc_find(Lsp *L, const char *uri)
{
	for (int i = 0; i < L->ndocs; i++)
		if (strcmp(L->docs[i].uri, uri) == 0)
			return &L->docs[i];
	return NULL;
}

/* The file path of a file: URI (percent-decoded), or the URI itself. */
static char *
uri_path(const char *uri)
{
	if (strncmp(uri, "file://", 7) != 0)
		return spx_xstrdup(uri);
	const char *s = uri + 7;
	char *out = spx_xmalloc(strlen(s) + 1), *o = out;
	for (; *s; s++) {
		if (*s == '%' && s[1] && s[2]) {
			char hex[3] = { s[1], s[2], 0 };
			char *end;
			long v = strtol(hex, &end, 16);
			if (*end == '\0' && v > 0) {
				*o++ = (char)v;
				s += 2;
				continue;
			}
		}
		*o++ = *s;
	}
	*o = '\0';
	return out;
}

static const char *
text_doc_uri(json_t *params)
{
	json_t *td = json_is_object(params) ? json_object_get(params, "textDocument") : NULL;
	json_t *u = json_is_object(td) ? json_object_get(td, "uri") : NULL;
	return json_is_string(u) ? json_string_value(u) : NULL;
}

/* Re-checks a document and publishes its diagnostics. */
static void
publish(Lsp *L, LspDoc *d)
{
	SvcTrace t;
	svc_trace_init(&t);
	DiagSink s;
	svc_file_check(&d->f, &t, &s);
	svc_trace_free(&t);
	Lines x;
	lines_init(&x, d->f.src, d->f.len, L->utf8);
	Buf b = {0};
	buf_puts(&b, "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/publishDiagnostics\",\"params\":{\"uri\":");
	json_cstr(&b, d->uri);
	buf_printf(&b, ",\"version\":%ld,\"diagnostics\":[", d->version);
	for (int i = 0; i < s.items.len; i++) {
		const Diag *g = &s.items.items[i];
		if (i)
			buf_putc(&b, ',');
		buf_puts(&b, "{\"range\":");
		put_range(&b, &x, g->has_span ? g->span.start : 0, g->has_span ? g->span.end : 0);
		buf_printf(&b, ",\"severity\":%d,\"code\":", diag_info[g->code].sev == SEV_ERROR ? 1 : 2);
		json_cstr(&b, diag_info[g->code].code);
		buf_puts(&b, ",\"source\":\"semaprax\",\"message\":");
		Buf m = {0};
		buf_printf(&m, "%s\nhelp: %s", g->message, diag_help_text(g));
		json_str(&b, m.data, m.len);
		buf_free(&m);
		buf_putc(&b, '}');
	}
	buf_puts(&b, "]}}");
	if (b.len <= L->o.max_message)
		send(L, &b);
	buf_free(&b);
	free(x.start);
	diag_free(&s);
}

static void
did_open(Lsp *L, json_t *params)
{
	const char *uri = text_doc_uri(params);
	json_t *td = json_object_get(params, "textDocument");
	json_t *text = json_is_object(td) ? json_object_get(td, "text") : NULL;
	json_t *ver = json_is_object(td) ? json_object_get(td, "version") : NULL;
	if (!uri || !json_is_string(text))
		return;
	LspDoc *d = doc_find(L, uri);
	if (!d) {
		if (L->ndocs == LSP_MAX_DOCS)
			return;
		L->docs = spx_xrealloc(L->docs, sizeof *L->docs * (size_t)(L->ndocs + 1));
		d = &L->docs[L->ndocs++];
		memset(d, 0, sizeof *d);
		d->uri = spx_xstrdup(uri);
		char *path = uri_path(uri);
		svc_file_init(&d->f, path);
		free(path);
	}
	d->version = json_is_integer(ver) ? (long)json_integer_value(ver) : 0;
	SvcError e;
	svc_file_set(&d->f, json_string_value(text), json_string_length(text), &e);
	publish(L, d);
}

static void
did_change(Lsp *L, json_t *params)
{
	const char *uri = text_doc_uri(params);
	LspDoc *d = uri ? doc_find(L, uri) : NULL;
	json_t *ch = json_object_get(params, "contentChanges");
	if (!d || !json_is_array(ch) || json_array_size(ch) == 0)
		return;
	json_t *last = json_array_get(ch, json_array_size(ch) - 1);
	json_t *text = json_is_object(last) ? json_object_get(last, "text") : NULL;
	if (!json_is_string(text))
		return;
	json_t *ver = json_object_get(json_object_get(params, "textDocument"), "version");
	d->version = json_is_integer(ver) ? (long)json_integer_value(ver) : d->version;
	SvcError e;
	svc_file_set(&d->f, json_string_value(text), json_string_length(text), &e);
	publish(L, d);
}

static void
did_close(Lsp *L, json_t *params)
{
	const char *uri = text_doc_uri(params);
	LspDoc *d = uri ? doc_find(L, uri) : NULL;
	if (!d)
		return;
	Buf b = {0};
	buf_puts(&b, "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/publishDiagnostics\",\"params\":{\"uri\":");
	json_cstr(&b, d->uri);
	buf_puts(&b, ",\"diagnostics\":[]}}");
	send(L, &b);
	buf_free(&b);
	svc_file_free(&d->f);
	free(d->uri);
	*d = L->docs[--L->ndocs];
}

/* ---- requests ------------------------------------------------------------------- */

/* The document's parsed state is current (re-checked: all reused when unchanged). */
static bool
current(LspDoc *d)
{
	SvcTrace t;
	svc_trace_init(&t);
	DiagSink s;
	svc_file_check(&d->f, &t, &s);
	diag_free(&s);
	svc_trace_free(&t);
	return !d->f.parse_failed && d->f.sess && d->f.sess->m;
}

/* The word at offset at (identifier characters), as [s, e). */
static void
word_at(const SvcFile *f, uint32_t at, uint32_t *s, uint32_t *e)
{
	*s = *e = at;
	while (*s > 0) {
		char c = f->src[*s - 1];
		if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
			break;
		(*s)--;
	}
	while (*e < f->len) {
		char c = f->src[*e];
		if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
			break;
		(*e)++;
	}
}

/* The top-level declaration the word at the position names, or -1. */
static int
item_at(Lsp *L, LspDoc *d, json_t *params)
{
	Lines x;
	lines_init(&x, d->f.src, d->f.len, L->utf8);
	uint32_t at = offset_of(&x, json_object_get(params, "position"));
	free(x.start);
	uint32_t s, e;
	word_at(&d->f, at, &s, &e);
	if (s == e)
		return -1;
	for (int i = 0; i < d->f.nitems; i++)
		if (strlen(d->f.items[i].name) == e - s && memcmp(d->f.items[i].name, d->f.src + s, e - s) == 0)
			return i;
	return -1;
}

static void
hover(Lsp *L, LspDoc *d, json_t *params, Buf *r)
{
	int i = current(d) ? item_at(L, d, params) : -1;
	if (i < 0) {
		buf_puts(r, "null");
		return;
	}
	const Decl *dc = &d->f.sess->m->decls[i];
	Buf m = {0};
	buf_puts(&m, "```spx\n");
	fmt_decl_header(&m, dc);
	buf_puts(&m, "\n```");
	if (dc->id.present)
		buf_printf(&m, "\n\nstable id `%.*s`", (int)dc->id.value.len, dc->id.value.s);
	else
		buf_puts(&m, "\n\nautomatic identity (no `@id`)");
	buf_puts(r, "{\"contents\":{\"kind\":\"markdown\",\"value\":");
	json_str(r, m.data, m.len);
	buf_puts(r, "}}");
	buf_free(&m);
}

static void
definition(Lsp *L, LspDoc *d, json_t *params, Buf *r)
{
	int i = current(d) ? item_at(L, d, params) : -1;
	if (i < 0) {
		buf_puts(r, "null");
		return;
	}
	Lines x;
	lines_init(&x, d->f.src, d->f.len, L->utf8);
	buf_puts(r, "{\"uri\":");
	json_cstr(r, d->uri);
	buf_puts(r, ",\"range\":");
	put_range(r, &x, d->f.items[i].name_start, d->f.items[i].name_end);
	buf_putc(r, '}');
	free(x.start);
}

static void
symbols(Lsp *L, LspDoc *d, Buf *r)
{
	/* SymbolKind: Function 12, Struct 23, Enum 10, Class 5, Object 19, Interface 11, Module 2 */
	static const int kind[] = { 12, 23, 10, 5, 19, 11, 2 };
	buf_putc(r, '[');
	if (current(d)) {
		Lines x;
		lines_init(&x, d->f.src, d->f.len, L->utf8);
		for (int i = 0; i < d->f.nitems; i++) {
			const SvcItem *it = &d->f.items[i];
			if (i)
				buf_putc(r, ',');
			buf_puts(r, "{\"name\":");
			json_cstr(r, it->name[0] ? it->name : it->key);
			buf_printf(r, ",\"kind\":%d,\"range\":", kind[it->kind % 7]);
			put_range(r, &x, it->start, it->end);
			buf_puts(r, ",\"selectionRange\":");
			put_range(r, &x, it->name_start, it->name_end);
			buf_putc(r, '}');
		}
		free(x.start);
	}
	buf_putc(r, ']');
}

static void
formatting(Lsp *L, LspDoc *d, Buf *r)
{
	if (!current(d)) {
		buf_puts(r, "null");
		return;
	}
	Buf f = {0};
	fmt_module(&f, d->f.sess->m, d->f.src, d->f.len);
	if (f.len == d->f.len && (f.len == 0 || memcmp(f.data, d->f.src, f.len) == 0)) {
		buf_puts(r, "[]");
	} else {
		Lines x;
		lines_init(&x, d->f.src, d->f.len, L->utf8);
		buf_puts(r, "[{\"range\":");
		put_range(r, &x, 0, (uint32_t)d->f.len);
		buf_puts(r, ",\"newText\":");
		json_str(r, f.data ? f.data : "", f.len);
		buf_puts(r, "}]");
		free(x.start);
	}
	buf_free(&f);
}

static void
code_actions(Lsp *L, LspDoc *d, json_t *params, Buf *r)
{
	SvcTrace t;
	svc_trace_init(&t);
	DiagSink s;
	svc_file_check(&d->f, &t, &s);
	svc_trace_free(&t);
	Lines x;
	lines_init(&x, d->f.src, d->f.len, L->utf8);
	json_t *range = json_object_get(params, "range");
	uint32_t from = offset_of(&x, json_object_get(range, "start")), to = offset_of(&x, json_object_get(range, "end"));
	buf_putc(r, '[');
	int n = 0;
	for (int i = 0; i < s.items.len; i++) {
		const Diag *g = &s.items.items[i];
		if (!g->fixes.len || !g->has_span || g->span.end < from || g->span.start > to)
			continue;
		if (n++)
			buf_putc(r, ',');
		Buf title = {0};
		buf_printf(&title, "%s: %s", diag_info[g->code].code, diag_help_text(g));
		buf_puts(r, "{\"title\":");
		json_str(r, title.data, title.len);
		buf_free(&title);
		buf_puts(r, ",\"kind\":\"quickfix\",\"edit\":{\"changes\":{");
		json_cstr(r, d->uri);
		buf_puts(r, ":[");
		for (int k = 0; k < g->fixes.len; k++) {
			if (k)
				buf_putc(r, ',');
			buf_puts(r, "{\"range\":");
			put_range(r, &x, g->fixes.items[k].start, g->fixes.items[k].end);
			buf_puts(r, ",\"newText\":");
			json_cstr(r, g->fixes.items[k].text);
			buf_putc(r, '}');
		}
		buf_puts(r, "]}}}");
	}
	buf_putc(r, ']');
	free(x.start);
	diag_free(&s);
}

/* ---- references and rename (the program product: resolved, verified) ---- */

typedef struct RefWalk {
	const Sema *S;
	SymId target;
	Span *spans;
	int n, cap;
} RefWalk;

static void
ref_visit(void *ctx, const Expr *e)
{
	RefWalk *w = ctx;
	Span sp;
	if (e->kind == EXPR_CALL)
		sp = e->u.call.callee.span;
	else if (e->kind == EXPR_NAME)
		sp = e->span;
	else
		return;
	if (w->S->expr_sym[e->id] != w->target)
		return;
	if (w->n == w->cap) {
		w->cap = w->cap ? w->cap * 2 : 16;
		w->spans = spx_xrealloc(w->spans, sizeof(Span) * (size_t)w->cap);
	}
	w->spans[w->n++] = sp;
}

/* The program's symbol of top-level declaration i, or -1. */
static SymId
sym_of(const SvcFile *f, int i)
{
	const Sema *S = f->psess->S;
	const Decl *d = &f->psess->m->decls[i];
	for (SymId id = 0; id < S->syms.len; id++)
		if (S->syms.items[id].decl == d)
			return id;
	return -1;
}

/* Every use of function i resolved to it (calls and function values), in source order. */
static int
uses_of(const SvcFile *f, int i, Span **out)
{
	RefWalk w = { f->psess->S, sym_of(f, i), NULL, 0, 0 };
	const Module *m = f->psess->m;
	for (int k = 0; w.target >= 0 && k < m->ndecls; k++) {
		const Decl *d = &m->decls[k];
		if (d->kind != DECL_FN)
			continue;
		for (int c = 0; c < d->u.fn.nclauses; c++)
			sema_walk_expr(d->u.fn.clauses[c].cond, ref_visit, &w);
		sema_walk_block(d->u.fn.body, ref_visit, &w);
	}
	*out = w.spans;
	return w.n;
}

/* The verified program of the document and the function at the position, or -1. */
static int
program_item(Lsp *L, LspDoc *d, json_t *params)
{
	if (!current(d))
		return -1;
	int i = item_at(L, d, params);
	if (i < 0 || d->f.items[i].kind != DECL_FN)
		return -1;
	SvcTrace t;
	svc_trace_init(&t);
	bool ok = svc_file_program(&d->f, &t);
	svc_trace_free(&t);
	return ok ? i : -1;
}

static void
references(Lsp *L, LspDoc *d, json_t *params, Buf *r)
{
	int i = program_item(L, d, params);
	if (i < 0) {
		buf_puts(r, "null");
		return;
	}
	json_t *incl = json_object_get(json_object_get(params, "context"), "includeDeclaration");
	Span *spans;
	int n = uses_of(&d->f, i, &spans);
	Lines x;
	lines_init(&x, d->f.src, d->f.len, L->utf8);
	buf_putc(r, '[');
	bool first = true;
	if (json_is_true(incl)) {
		buf_puts(r, "{\"uri\":");
		json_cstr(r, d->uri);
		buf_puts(r, ",\"range\":");
		put_range(r, &x, d->f.items[i].name_start, d->f.items[i].name_end);
		buf_putc(r, '}');
		first = false;
	}
	for (int k = 0; k < n; k++) {
		if (!first)
			buf_putc(r, ',');
		first = false;
		buf_puts(r, "{\"uri\":");
		json_cstr(r, d->uri);
		buf_puts(r, ",\"range\":");
		put_range(r, &x, spans[k].start, spans[k].end);
		buf_putc(r, '}');
	}
	buf_putc(r, ']');
	free(spans);
	free(x.start);
}

/* Rename through the semantic patch engine: `base <revision>` + `rename <id> to <new>`
 * applied to a copy of the held text; the answer is the whole new text as one edit. */
static bool
rename_fn(Lsp *L, LspDoc *d, json_t *params, Buf *r, SvcError *err)
{
	json_t *nn = json_object_get(params, "newName");
	if (!json_is_string(nn) || strlen(json_string_value(nn)) != json_string_length(nn))
		return err->code = SVC_E_PARAMS, snprintf(err->message, sizeof err->message, "newName must be a string"), false;
	int i = program_item(L, d, params);
	if (i < 0)
		return err->code = SVC_E_NOT_VERIFIED,
		       snprintf(err->message, sizeof err->message, "rename needs a verified program and a function name at the position"), false;
	const Decl *dc = &d->f.psess->m->decls[i];
	if (!dc->id.present)
		return err->code = SVC_E_PARAMS,
		       snprintf(err->message, sizeof err->message, "`%.100s` needs an explicit @id before it can be renamed", d->f.items[i].name), false;
	const char *dir = getenv("TMPDIR");
	char tmpl[300];
	snprintf(tmpl, sizeof tmpl, "%.200s/semaprax-lsp-XXXXXX", dir && *dir ? dir : "/tmp");
	if (!mkdtemp(tmpl))
		return err->code = SVC_E_IO, snprintf(err->message, sizeof err->message, "cannot create a temporary directory"), false;
	char src[340], patch[340];
	snprintf(src, sizeof src, "%s/doc.spx", tmpl);
	snprintf(patch, sizeof patch, "%s/rename.spatch", tmpl);
	Buf p = {0};
	buf_printf(&p, "base %s\nrename %.*s to %s\n", d->f.prog->revision, (int)dc->id.value.len, dc->id.value.s, json_string_value(nn));
	FILE *fs = fopen(src, "wb"), *fp = fopen(patch, "wb");
	bool ok = fs && fp && fwrite(d->f.src, 1, d->f.len, fs) == d->f.len && fwrite(p.data, 1, p.len, fp) == p.len;
	if (fs)
		fclose(fs);
	if (fp)
		fclose(fp);
	buf_free(&p);
	Buf bo = {0}, be = {0};
	int status = 1;
	char *argv[4] = { "patch", src, patch, NULL };
	if (!ok) {
		err->code = SVC_E_IO;
		snprintf(err->message, sizeof err->message, "cannot write the temporary files");
	} else if (svc_capture(&L->o, 3, argv, &bo, &be, &status, err) && status != 0) {
		ok = false;
		err->code = SVC_E_PARAMS;
		const char *e = be.data ? be.data : "the patch engine refused the rename";
		const char *nl = strchr(e, '\n');
		snprintf(err->message, sizeof err->message, "%.*s", nl ? (int)(nl - e) : (int)strlen(e), e);
	} else if (status == 0) {
		DiagSink ds;
		diag_init(&ds, src, NULL, 0);
		size_t len;
		char *text = driver_read_source(src, &len, &ds);
		diag_free(&ds);
		ok = text != NULL;
		if (ok) {
			Lines x;
			lines_init(&x, d->f.src, d->f.len, L->utf8);
			buf_puts(r, "{\"changes\":{");
			json_cstr(r, d->uri);
			buf_puts(r, ":[{\"range\":");
			put_range(r, &x, 0, (uint32_t)d->f.len);
			buf_puts(r, ",\"newText\":");
			json_str(r, text, len);
			buf_puts(r, "}]}}");
			free(x.start);
			free(text);
		} else {
			err->code = SVC_E_IO;
			snprintf(err->message, sizeof err->message, "cannot read the renamed text");
		}
	} else {
		ok = false;
	}
	buf_free(&bo);
	buf_free(&be);
	remove(src);
	remove(patch);
	char lock[360];
	snprintf(lock, sizeof lock, "%s/.doc.spx.semaprax-lock", tmpl);
	remove(lock);
	rmdir(tmpl);
	return ok;
}

/* ---- semantic tokens (lexical classes from the lexer) ---- */

/* The legend initialize announces, in this order. */
enum { TT_KEYWORD, TT_TYPE, TT_FUNCTION, TT_VARIABLE, TT_PROPERTY, TT_STRING, TT_NUMBER, TT_COMMENT, TT_OPERATOR, TT_DECORATOR };

static bool
is_keyword(const char *s, size_t n)
{
	static const char *const kw[] = {
		"module", "use", "from", "permit", "fn", "let", "mut", "if", "else", "while", "for", "in", "match", "record",
		"variant", "class", "resource", "interface", "session", "requires", "ensures", "uses", "own", "borrow", "shared",
		"unsafe", "true", "false", "drop", "import", "function", "type", "states", "initial", "terminal", "as", "and", "or",
	};
	for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
		if (strlen(kw[i]) == n && memcmp(kw[i], s, n) == 0)
			return true;
	return false;
}

static bool
is_builtin_type(const char *s, size_t n)
{
	static const char *const ty[] = { "i64", "i32", "u8", "usize", "f32", "f64", "bool", "char", "string", "str", "unit" };
	for (size_t i = 0; i < sizeof ty / sizeof ty[0]; i++)
		if (strlen(ty[i]) == n && memcmp(ty[i], s, n) == 0)
			return true;
	return false;
}

typedef struct SemTok {
	uint32_t start, end;
	int type;
} SemTok;

static int
cmp_semtok(const void *a, const void *b)
{
	const SemTok *x = a, *y = b;
	return (x->start > y->start) - (x->start < y->start);
}

/* The length of src[s, e) in the position encoding's units. */
static uint32_t
units(const Lines *x, uint32_t s, uint32_t e)
{
	uint32_t n = 0;
	for (uint32_t p = s; p < e; p++) {
		unsigned char c = (unsigned char)x->src[p];
		if (x->utf8)
			n++;
		else if (c < 0x80 || (c >= 0xC0 && c < 0xF0))
			n++;
		else if (c >= 0xF0)
			n += 2;
	}
	return n;
}

static void
semantic_tokens(Lsp *L, LspDoc *d, Buf *r)
{
	Arena a;
	arena_init(&a);
	DiagSink ds;
	diag_init(&ds, d->f.path, d->f.src, d->f.len);
	LexResult lx;
	memset(&lx, 0, sizeof lx);
	lex_source(&lx, d->f.src, d->f.len, &a, &ds);
	SemTok *t = spx_xmalloc(sizeof *t * (size_t)(lx.ntoks + lx.ncomments + 1));
	int n = 0;
	for (int i = 0; !lx.fatal && i < lx.ntoks; i++) {
		const Token *k = &lx.toks[i];
		int type = -1;
		const char *s = d->f.src + k->span.start;
		size_t len = k->span.end - k->span.start;
		switch (k->kind) {
		case TOK_IDENT:
			if (i > 0 && lx.toks[i - 1].kind == TOK_AT)
				type = TT_DECORATOR;
			else if (is_keyword(s, len))
				type = TT_KEYWORD;
			else if (is_builtin_type(s, len) || (s[0] >= 'A' && s[0] <= 'Z'))
				type = TT_TYPE;
			else if (i > 0 && lx.toks[i - 1].kind == TOK_DOT)
				type = TT_PROPERTY;
			else if (i + 1 < lx.ntoks && (lx.toks[i + 1].kind == TOK_LPAREN || lx.toks[i + 1].kind == TOK_LT))
				type = TT_FUNCTION;
			else
				type = TT_VARIABLE;
			break;
		case TOK_STRING: case TOK_CHAR: type = TT_STRING; break;
		case TOK_INT: case TOK_FLOAT: type = TT_NUMBER; break;
		case TOK_EOF: case TOK_ERROR: case TOK_LPAREN: case TOK_RPAREN: case TOK_LBRACE: case TOK_RBRACE:
		case TOK_LBRACKET: case TOK_RBRACKET: case TOK_COMMA: case TOK_SEMI: case TOK_COLON: case TOK_DOT:
			break;
		case TOK_AT: type = TT_DECORATOR; break;
		default: type = TT_OPERATOR; break;
		}
		if (type >= 0 && k->span.end > k->span.start)
			t[n++] = (SemTok){ k->span.start, k->span.end, type };
	}
	for (int i = 0; !lx.fatal && i < lx.ncomments; i++)
		t[n++] = (SemTok){ lx.comments[i].span.start, lx.comments[i].span.end, TT_COMMENT };
	qsort(t, (size_t)n, sizeof *t, cmp_semtok);
	Lines x;
	lines_init(&x, d->f.src, d->f.len, L->utf8);
	buf_puts(r, "{\"data\":[");
	int line = 0, li = 0;
	uint32_t prev_line = 0, prev_char = 0;
	bool first = true;
	for (int i = 0; i < n; i++) {
		while (li + 1 < x.n && x.start[li + 1] <= t[i].start)
			li++;
		line = li;
		uint32_t line_end = li + 1 < x.n ? x.start[li + 1] : (uint32_t)x.len;
		if (t[i].end > line_end)
			continue;   /* a token over a line break: not representable */
		uint32_t ch = units(&x, x.start[li], t[i].start);
		uint32_t dl = (uint32_t)line - prev_line, dc = dl ? ch : ch - prev_char;
		buf_printf(r, "%s%u,%u,%u,%d,0", first ? "" : ",", dl, dc, units(&x, t[i].start, t[i].end), t[i].type);
		first = false;
		prev_line = (uint32_t)line;
		prev_char = ch;
	}
	buf_puts(r, "]}");
	free(x.start);
	free(t);
	lex_free(&lx);
	diag_free(&ds);
	arena_free(&a);
}

static void
initialize(Lsp *L, json_t *params, Buf *r)
{
	json_t *gen = json_object_get(json_object_get(params, "capabilities"), "general");
	json_t *enc = json_is_object(gen) ? json_object_get(gen, "positionEncodings") : NULL;
	size_t i;
	json_t *e;
	L->utf8 = false;
	if (json_is_array(enc))
		json_array_foreach(enc, i, e)
			if (json_is_string(e) && strcmp(json_string_value(e), "utf-8") == 0)
				L->utf8 = true;
	buf_printf(r, "{\"capabilities\":{\"positionEncoding\":\"%s\",\"textDocumentSync\":{\"openClose\":true,\"change\":1},"
	    "\"hoverProvider\":true,\"definitionProvider\":true,\"documentSymbolProvider\":true,"
	    "\"documentFormattingProvider\":true,\"codeActionProvider\":true,\"referencesProvider\":true,"
	    "\"renameProvider\":true,\"semanticTokensProvider\":{\"legend\":{\"tokenTypes\":["
	    "\"keyword\",\"type\",\"function\",\"variable\",\"property\",\"string\",\"number\",\"comment\","
	    "\"operator\",\"decorator\"],\"tokenModifiers\":[]},\"full\":true}},"
	    "\"serverInfo\":{\"name\":\"semaprax\",\"version\":\"" SPX_VERSION "\"}}", L->utf8 ? "utf-8" : "utf-16");
	L->initialized = true;
}

static void
handle(Lsp *L, const char *body, size_t len)
{
	json_error_t jerr;
	json_t *msg = json_loadb(body, len, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &jerr);
	if (!msg || !json_is_object(msg)) {
		send_error(L, NULL, msg ? SVC_E_INVALID_REQUEST : SVC_E_PARSE, msg ? "not a request object" : "parse error");
		json_decref(msg);
		return;
	}
	json_t *id = json_object_get(msg, "id");
	json_t *method = json_object_get(msg, "method");
	json_t *params = json_object_get(msg, "params");
	if (id && !json_is_integer(id) && !json_is_string(id))
		id = NULL;
	if (!json_is_string(method)) {
		if (json_object_get(msg, "id") && !json_object_get(msg, "result") && !json_object_get(msg, "error"))
			send_error(L, id, SVC_E_INVALID_REQUEST, "a request needs a method");
		json_decref(msg);
		return;
	}
	const char *m = json_string_value(method);
	bool request = json_object_get(msg, "id") != NULL;
	if (!request) {
		if (strcmp(m, "exit") == 0)
			L->exiting = true;
		else if (L->initialized && !L->shut && strcmp(m, "textDocument/didOpen") == 0)
			did_open(L, params);
		else if (L->initialized && !L->shut && strcmp(m, "textDocument/didChange") == 0)
			did_change(L, params);
		else if (L->initialized && !L->shut && strcmp(m, "textDocument/didClose") == 0)
			did_close(L, params);
		json_decref(msg);
		return;
	}
	Buf r = {0};
	LspDoc *d = NULL;
	const char *uri = text_doc_uri(params);
	if (uri)
		d = doc_find(L, uri);
	if (strcmp(m, "initialize") == 0 && !L->initialized) {
		initialize(L, params, &r);
	} else if (!L->initialized) {
		send_error(L, id, -32002, "server not initialized");
		goto done;
	} else if (L->shut) {
		send_error(L, id, SVC_E_INVALID_REQUEST, "the server was shut down");
		goto done;
	} else if (strcmp(m, "shutdown") == 0) {
		L->shut = true;
		buf_puts(&r, "null");
	} else if (strncmp(m, "textDocument/", 13) == 0 && !d &&
	    (strcmp(m + 13, "hover") == 0 || strcmp(m + 13, "definition") == 0 || strcmp(m + 13, "documentSymbol") == 0 ||
	     strcmp(m + 13, "formatting") == 0 || strcmp(m + 13, "codeAction") == 0 || strcmp(m + 13, "references") == 0 ||
	     strcmp(m + 13, "rename") == 0 || strcmp(m + 13, "semanticTokens/full") == 0)) {
		send_error(L, id, SVC_E_PARAMS, "the document is not open");
		goto done;
	} else if (strcmp(m, "textDocument/hover") == 0) {
		hover(L, d, params, &r);
	} else if (strcmp(m, "textDocument/definition") == 0) {
		definition(L, d, params, &r);
	} else if (strcmp(m, "textDocument/documentSymbol") == 0) {
		symbols(L, d, &r);
	} else if (strcmp(m, "textDocument/formatting") == 0) {
		formatting(L, d, &r);
	} else if (strcmp(m, "textDocument/codeAction") == 0) {
		code_actions(L, d, params, &r);
	} else if (strcmp(m, "textDocument/semanticTokens/full") == 0) {
		semantic_tokens(L, d, &r);
	} else if (strcmp(m, "textDocument/references") == 0) {
		references(L, d, params, &r);
	} else if (strcmp(m, "textDocument/rename") == 0) {
		SvcError e = { 0, "" };
		if (!rename_fn(L, d, params, &r, &e)) {
			send_error(L, id, e.code, e.message);
			goto done;
		}
	} else {
		send_error(L, id, SVC_E_METHOD, "method not supported");
		goto done;
	}
	send_result(L, id, &r);
done:
	buf_free(&r);
	json_decref(msg);
}

int
svc_lsp(const SvcOptions *o, FILE *in, FILE *out)
{
	Lsp L;
	memset(&L, 0, sizeof L);
	L.o = *o;
	if (L.o.max_message < SVC_MIN_MAX_MESSAGE)
		L.o.max_message = SVC_DEFAULT_MAX_MESSAGE;
	L.out = out;
	char line[1024];
	Buf body = {0};
	while (!L.exiting) {
		/* headers: Content-Length (required), others ignored, a blank line ends them */
		long long clen = -1;
		bool eof = false, any = false;
		for (;;) {
			if (!fgets(line, sizeof line, in)) {
				eof = true;
				break;
			}
			size_t n = strlen(line);
			if (n && line[n - 1] != '\n' && n == sizeof line - 1) {
				int c;
				while ((c = getc(in)) != EOF && c != '\n')
					;
			}
			if (strcmp(line, "\r\n") == 0 || strcmp(line, "\n") == 0) {
				if (any)
					break;
				continue;
			}
			any = true;
			if (strncasecmp(line, "Content-Length:", 15) == 0) {
				const char *p = line + 15;
				while (*p == ' ' || *p == '\t')
					p++;
				long long v = 0;
				const char *digits = p;
				while (*p >= '0' && *p <= '9' && v < (1LL << 40))
					v = v * 10 + (*p++ - '0');
				while (*p == ' ' || *p == '\t')
					p++;
				clen = p > digits && (*p == '\r' || *p == '\n') ? v : -2;
			}
		}
		if (eof)
			break;
		if (clen < 0) {
			send_error(&L, NULL, SVC_E_INVALID_REQUEST, "a message needs a valid Content-Length header");
			continue;
		}
		body.len = 0;
		bool over = (unsigned long long)clen > L.o.max_message;
		long long got = 0;
		int c = 0;
		while (got < clen && (c = getc(in)) != EOF) {
			if (!over)
				buf_putc(&body, (char)c);
			got++;
		}
		if (got < clen)
			break;
		if (over)
			send_error(&L, NULL, SVC_E_TOO_LARGE, "the message exceeds the message bound");
		else
			handle(&L, body.data ? body.data : "", body.len);
	}
	buf_free(&body);
	for (int i = 0; i < L.ndocs; i++) {
		svc_file_free(&L.docs[i].f);
		free(L.docs[i].uri);
	}
	free(L.docs);
	return L.shut ? 0 : 1;
}
