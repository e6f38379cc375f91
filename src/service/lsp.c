/*
 * lsp.c — the LSP server (`semaprax lsp`, issue 17 item 4; docs/editors.md):
 * the base protocol's framing (Content-Length headers) over stdio, the
 * lifecycle (initialize, initialized, shutdown, exit), the open documents
 * (full text sync) and their diagnostics, and the dispatch of the features
 * (lsp_feat.c).  Positions are converted between LSP's (line, UTF-16 code
 * unit) and our byte offsets here.
 *
 * Messages are read with jansson like the service's (rpc.c), bounded by
 * --max-message-bytes; replies and notifications are written with our own
 * writer.  Each document is a single-file product database (db.c): an edit
 * re-checks only what it can affect; a document a project's manifest lists
 * is checked as part of that project (lsp_project.c).
 */
#include "lsp_int.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../support/json.h"
#include "lsp.h"

/* A frame over the message bound is skipped (unstored) when its length is at
 * most this many times the bound; a longer one closes the stream (svc22). */
#define LSP_SKIP_BOUND 64ull

/* ---- positions ---------------------------------------------------------------- */

/* LSP's line ends are `\n`, `\r\n` and a lone `\r` (LSP 3.17, "Text
 * Documents"): whether a line starts at byte p of s[0..n) (0 < p <= n). */
static bool
line_starts_at(const char *s, size_t n, size_t p)
{
	return s[p - 1] == '\n' || (s[p - 1] == '\r' && (p >= n || s[p] != '\n'));
}

void
lsp_doc_lines(LspDoc *d)
{
	const char *s = d->file.src ? d->file.src : "";
	size_t n = d->file.src ? d->file.len : 0;
	int cap = 64;
	free(d->lines);
	d->lines = spx_xmalloc(sizeof *d->lines * (size_t)cap);
	d->nlines = 0;
	d->lines[d->nlines++] = 0;
	for (size_t i = 0; i < n; i++) {
		if (!line_starts_at(s, n, i + 1))
			continue;
		if (d->nlines == cap) {
			cap *= 2;
			d->lines = spx_xrealloc(d->lines, sizeof *d->lines * (size_t)cap);
		}
		d->lines[d->nlines++] = (uint32_t)(i + 1);
	}
}

/* The line table after old bytes [a, b) became the tl bytes at a of the
 * document's text: only the edited lines are scanned, the later starts move.
 * Whether a line starts at p reads the bytes at p - 1 and p (a `\r` there
 * ends a line unless a `\n` follows), so the starts at a .. a + tl of the new
 * text are recomputed: an edit can join or split a `\r\n`. */
static void
doc_lines_edit(LspDoc *d, uint32_t a, uint32_t b, uint32_t tl)
{
	int lo = 1, hi = d->nlines;   /* line 0 starts at 0 whatever the edit */
	while (lo < hi) {       /* the first start at or past a */
		int mid = lo + (hi - lo) / 2;
		if (d->lines[mid] < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	int from = lo;
	hi = d->nlines;
	while (lo < hi) {       /* the first start past b */
		int mid = lo + (hi - lo) / 2;
		if (d->lines[mid] <= b)
			lo = mid + 1;
		else
			hi = mid;
	}
	int to = lo, add = 0;
	uint32_t p0 = a > 0 ? a : 1;
	for (uint32_t p = p0; p <= a + tl; p++)
		add += line_starts_at(d->file.src, d->file.len, p);
	int n = d->nlines - (to - from) + add;
	uint32_t *l = spx_xmalloc(sizeof *l * (size_t)n);
	memcpy(l, d->lines, sizeof *l * (size_t)from);
	int k = from;
	for (uint32_t p = p0; p <= a + tl; p++)
		if (line_starts_at(d->file.src, d->file.len, p))
			l[k++] = p;
	for (int i = to; i < d->nlines; i++)
		l[k++] = (uint32_t)((int64_t)d->lines[i] + (int64_t)tl - (int64_t)(b - a));
	free(d->lines);
	d->lines = l;
	d->nlines = n;
}

/* The end of a line's text: before its `\n`, `\r\n` or `\r`. */
static uint32_t
line_end(const LspDoc *d, long line)
{
	if (line + 1 >= d->nlines)
		return (uint32_t)d->file.len;
	uint32_t end = d->lines[line + 1] - 1;
	if (d->file.src[end] == '\n' && end > d->lines[line] && d->file.src[end - 1] == '\r')
		end--;
	return end;
}

/* UTF-16 code units of the UTF-8 text s[0..n) (a four-byte sequence is a
 * surrogate pair; invalid bytes count one each). */
static long
utf16_units(const char *s, size_t n)
{
	long u = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if ((c & 0xC0) == 0x80)
			continue;
		u += c >= 0xF0 ? 2 : 1;
	}
	return u;
}

void
lsp_line_col(const LspDoc *d, uint32_t off, long *line, long *col)
{
	if (off > d->file.len)
		off = (uint32_t)d->file.len;
	int lo = 0, hi = d->nlines - 1;
	while (lo < hi) {
		int mid = (lo + hi + 1) / 2;
		if (d->lines[mid] <= off)
			lo = mid;
		else
			hi = mid - 1;
	}
	*line = lo;
	*col = d->utf8 ? (long)(off - d->lines[lo]) : utf16_units(d->file.src + d->lines[lo], off - d->lines[lo]);
}

void
lsp_put_pos(Buf *out, const LspDoc *d, uint32_t off)
{
	long line, col;
	lsp_line_col(d, off, &line, &col);
	buf_printf(out, "{\"line\":%ld,\"character\":%ld}", line, col);
}

void
lsp_put_range(Buf *out, const LspDoc *d, uint32_t start, uint32_t end)
{
	buf_puts(out, "{\"start\":");
	lsp_put_pos(out, d, start);
	buf_puts(out, ",\"end\":");
	lsp_put_pos(out, d, end);
	buf_putc(out, '}');
}

uint32_t
lsp_offset(const LspDoc *d, long line, long character)
{
	if (line < 0)
		return 0;
	if (line >= d->nlines)
		return (uint32_t)d->file.len;
	uint32_t at = d->lines[line];
	uint32_t end = line_end(d, line);
	if (d->utf8) {
		uint32_t start = at;
		at = (unsigned long)character < end - at ? at + (uint32_t)character : end;
		while (at > start && ((unsigned char)d->file.src[at] & 0xC0) == 0x80)
			at--;
		return at;
	}
	long u = 0;
	while (at < end && u < character) {
		unsigned char c = (unsigned char)d->file.src[at];
		u += c >= 0xF0 ? 2 : 1;
		at++;
		while (at < end && ((unsigned char)d->file.src[at] & 0xC0) == 0x80)
			at++;
	}
	return at;
}

/* ---- the server --------------------------------------------------------------- */

typedef struct Lsp {
	LspDoc *docs;
	int ndocs, cap;
	size_t max_message;
	bool initialized, shut, exiting;
	bool utf8;           /* positions in UTF-8 bytes (negotiated), else UTF-16 code units */
	bool trace;          /* initializationOptions.trace: record semaprax/trace */
	LspProj **projs;     /* the projects of open documents (lsp_project.c), in opening order */
	int nprojs;
	FILE *out;
} Lsp;

static void
send(Lsp *L, const Buf *msg)
{
	fprintf(L->out, "Content-Length: %zu\r\n\r\n", msg->len);
	fwrite(msg->data, 1, msg->len, L->out);
	fflush(L->out);
}

static void
send_error(Lsp *L, json_t *id, int code, const char *message)
{
	Buf b = {0};
	buf_puts(&b, "{\"jsonrpc\":\"2.0\",\"id\":");
	svc_put_id(&b, id);
	buf_printf(&b, ",\"error\":{\"code\":%d,\"message\":", code);
	svc_json_text(&b, message);
	buf_puts(&b, "}}");
	send(L, &b);
	buf_free(&b);
}

static void
send_result(Lsp *L, json_t *id, const Buf *result)
{
	Buf b = {0};
	buf_puts(&b, "{\"jsonrpc\":\"2.0\",\"id\":");
	svc_put_id(&b, id);
	buf_puts(&b, ",\"result\":");
	if (b.len + result->len + 1 > L->max_message) {
		buf_free(&b);
		/* RequestFailed: the service's -32002 is LSP's ServerNotInitialized,
		 * which a client would take for a lifecycle error */
		send_error(L, id, LSP_E_REQUEST_FAILED, "the result exceeds the message bound (--max-message-bytes)");
		return;
	}
	buf_put(&b, result->data ? result->data : "null", result->data ? result->len : 4);
	buf_putc(&b, '}');
	send(L, &b);
	buf_free(&b);
}

static void
send_notification(Lsp *L, const char *method, const Buf *params)
{
	Buf b = {0};
	buf_puts(&b, "{\"jsonrpc\":\"2.0\",\"method\":");
	json_cstr(&b, method);
	buf_puts(&b, ",\"params\":");
	buf_put(&b, params->data, params->len);
	buf_putc(&b, '}');
	send(L, &b);
	buf_free(&b);
}

/* ---- documents ---------------------------------------------------------------- */

/* What the open documents may hold together: their texts, each counted
 * LSP_DOC_COST bytes more (its line table, product database and checker
 * state), at most 64 x the message bound; an open or change past it is
 * refused with a window/showMessage error. */
#define LSP_DOC_COST ((size_t)16 << 10)
/* The projects held (one per manifest that lists an open document) count
 * in that bound too: each the source bytes its last check read plus
 * LSP_PROJ_COST (its checker state and graph), and there are at most
 * LSP_MAX_PROJECTS of them (an open of a file of one more is refused). */
#define LSP_PROJ_COST ((size_t)64 << 10)
#define LSP_MAX_PROJECTS 256

static size_t
held_bytes(const Lsp *L, const LspDoc *except)
{
	size_t n = 0;
	for (int i = 0; i < L->ndocs; i++)
		if (&L->docs[i] != except)
			n += L->docs[i].file.len + LSP_DOC_COST;
	return n;
}

/* What the projects held count towards that bound. */
static size_t
projects_bytes(const Lsp *L)
{
	size_t n = 0;
	for (int i = 0; i < L->nprojs; i++)
		n += lsp_project_bytes(L->projs[i]) + LSP_PROJ_COST;
	return n;
}

/* window/showMessage of type Error: what was refused and why. */
static void
show_error(Lsp *L, const char *message)
{
	Buf p = {0};
	buf_puts(&p, "{\"type\":1,\"message\":");
	svc_json_text(&p, message);
	buf_putc(&p, '}');
	send_notification(L, "window/showMessage", &p);
	buf_free(&p);
}

static LspDoc *
find_doc(Lsp *L, const char *uri)
{
	for (int i = 0; i < L->ndocs; i++)
		if (strcmp(L->docs[i].uri, uri) == 0)
			return &L->docs[i];
	return NULL;
}

static void
doc_free(LspDoc *d)
{
	free(d->uri);
	free(d->lines);
	buf_free(&d->trace);
	buf_free(&d->shown);
	svc_file_free(&d->file);
}

static int
hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* The path of a file: URI (percent-decoded; `file://localhost/p` is /p),
 * else the URI itself: the name diagnostics carry.  *local: a file: URI of
 * an absolute path, the only kind a project's manifest is looked up for
 * (a relative one, another host's or another scheme's would be resolved
 * against the server's working directory). */
static char *
uri_path(const char *uri, bool *local)
{
	const char *s = strncmp(uri, "file://", 7) == 0 ? uri + 7 : uri;
	if (s != uri && strncmp(s, "localhost/", 10) == 0)
		s += 9;
	*local = s != uri && *s == '/';
	char *p = spx_xmalloc(strlen(s) + 1);
	size_t n = 0;
	for (; *s; s++) {
		if (*s == '%' && hexval(s[1]) >= 0 && hexval(s[2]) >= 0 && (hexval(s[1]) || hexval(s[2]))) {
			p[n++] = (char)(hexval(s[1]) * 16 + hexval(s[2]));
			s += 2;
		} else {
			p[n++] = *s;
		}
	}
	p[n] = '\0';
	return p;
}

/* The diagnostics of d (a project's document: its project's check) into
 * d->shown; true when they differ from what was last published. */
static bool
diagnose(Lsp *L, LspDoc *d)
{
	Buf p = {0};
	if (d->proj) {
		/* the project's per-module products: re-checked for this document,
		 * or `project` reused */
		SvcTrace t;
		svc_trace_init(&t);
		t.off = !d->trace_on;
		lsp_project_diagnostics(d->proj, L->docs, L->ndocs, d, &t, &p);
		d->trace.len = 0;
		if (!lsp_project_lists(d->proj, d->file.path)) {
			/* its manifest no longer lists it: checked alone (publish_project frees the project) */
			d->proj = NULL;
			p.len = 0;
		} else if (d->trace_on) {
			svc_trace_json(&d->trace, &t);
		}
		svc_trace_free(&t);
	}
	if (!d->proj)
		lsp_diagnostics(d, &p);
	bool changed = p.len != d->shown.len || (p.len && memcmp(p.data, d->shown.data, p.len) != 0);
	buf_free(&d->shown);
	d->shown = p;
	return changed;
}

static void project_release(Lsp *L, LspProj *p);

/* Publishes d's diagnostics (d NULL: none), then, when d's project was
 * touched, those of every other open document of that project whose
 * diagnostics changed (an edit in a provider can break an importer); the
 * project is freed when no open document holds it any more. */
static void
publish_project(Lsp *L, LspDoc *d, LspProj *pj)
{
	if (d) {
		diagnose(L, d);
		send_notification(L, "textDocument/publishDiagnostics", &d->shown);
	}
	for (int i = 0; pj && i < L->ndocs; i++)
		if (&L->docs[i] != d && L->docs[i].proj == pj && diagnose(L, &L->docs[i]))
			send_notification(L, "textDocument/publishDiagnostics", &L->docs[i].shown);
	if (pj)
		project_release(L, pj);
}

/* Touches own (may be NULL) and every other project whose manifest lists
 * the file at path (nested projects: an outer one lists a file an inner
 * one owns, and reads its open document too); publishes d's diagnostics
 * (d NULL: none) and the changed ones of those projects' documents. */
static void
publish_file(Lsp *L, LspDoc *d, LspProj *own, const char *path)
{
	LspProj **touched = spx_xcalloc((size_t)L->nprojs + 1, sizeof *touched);
	int n = 0;
	for (int i = 0; i < L->nprojs; i++)
		if (L->projs[i] == own || lsp_project_reads(L->projs[i], path)) {
			lsp_project_touch(L->projs[i]);
			if (L->projs[i] != own)
				touched[n++] = L->projs[i];
		}
	publish_project(L, d, own);
	for (int i = 0; i < n; i++)
		publish_project(L, NULL, touched[i]);
	free(touched);
}

static void
publish(Lsp *L, LspDoc *d)
{
	publish_file(L, d, d->proj, d->file.path);
}

/* The project held for manifest m, or NULL. */
static LspProj *
project_held(Lsp *L, const char *m)
{
	for (int i = 0; i < L->nprojs; i++)
		if (strcmp(lsp_project_manifest(L->projs[i]), m) == 0)
			return L->projs[i];
	return NULL;
}

/* The project of manifest m (shared by its open documents): the one held,
 * else a new one. */
static LspProj *
project_of(Lsp *L, const char *m)
{
	LspProj *p = project_held(L, m);
	if (!p) {
		L->projs = spx_xrealloc(L->projs, sizeof *L->projs * (size_t)(L->nprojs + 1));
		p = L->projs[L->nprojs++] = lsp_project_new(m);
	}
	return p;
}

/* Frees a project no open document holds any more. */
static void
project_release(Lsp *L, LspProj *p)
{
	for (int i = 0; i < L->ndocs; i++)
		if (L->docs[i].proj == p)
			return;
	for (int i = 0; i < L->nprojs; i++)
		if (L->projs[i] == p) {
			lsp_project_free(p);
			memmove(&L->projs[i], &L->projs[i + 1], sizeof *L->projs * (size_t)(L->nprojs - i - 1));
			L->nprojs--;
			return;
		}
}

/* Sets a document's text (a copy of the JSON string's bytes). */
static void
doc_set(LspDoc *d, json_t *text, long version)
{
	SvcError e = { 0, "", NULL };
	svc_file_set(&d->file, json_string_value(text), json_string_length(text), &e);
	d->version = version;
	lsp_doc_lines(d);
}

static const char *
str_at(json_t *o, const char *key)
{
	json_t *v = json_is_object(o) ? json_object_get(o, key) : NULL;
	return v && json_is_string(v) && strlen(json_string_value(v)) == json_string_length(v) ? json_string_value(v) : NULL;
}

static const char *
doc_uri(json_t *params)
{
	return str_at(json_is_object(params) ? json_object_get(params, "textDocument") : NULL, "uri");
}

static void
did_open(Lsp *L, json_t *params)
{
	json_t *td = json_is_object(params) ? json_object_get(params, "textDocument") : NULL;
	const char *uri = str_at(td, "uri");
	json_t *text = json_is_object(td) ? json_object_get(td, "text") : NULL;
	json_t *ver = json_is_object(td) ? json_object_get(td, "version") : NULL;
	if (!uri || !text || !json_is_string(text))
		return;
	LspDoc *d = find_doc(L, uri);
	/* a document of another language (a client attached to every file:
	 * the manifest, a README) is not ours: not held, no diagnostics; a
	 * `.spx` URI is, whatever its languageId */
	const char *lang = str_at(td, "languageId");
	size_t ul = strlen(uri);
	if (!d && lang && strcmp(lang, "semaprax") != 0 && !(ul >= 4 && strcmp(uri + ul - 4, ".spx") == 0))
		return;
	/* a new document of a file a manifest lists: its project (a manifest
	 * that does not read: the file is its project's), held or new */
	bool local = false;
	char *path = d ? NULL : uri_path(uri, &local);
	char *man = local ? project_manifest_listing(path, true) : NULL;
	bool new_proj = man && !project_held(L, man);
	size_t bound = L->max_message * (size_t)64;
	char m[400];
	m[0] = '\0';
	if (new_proj && L->nprojs >= LSP_MAX_PROJECTS)
		snprintf(m, sizeof m, "textDocument/didOpen refused: documents of %d projects are open, the most the server holds "
				      "(each its own semaprax.toml); close the documents of one",
		    LSP_MAX_PROJECTS);
	else if (held_bytes(L, d) + projects_bytes(L) + json_string_length(text) + LSP_DOC_COST + (new_proj ? LSP_PROJ_COST : 0) > bound)
		snprintf(m, sizeof m, "textDocument/didOpen refused: the open documents and their projects would hold more than %zu bytes "
				      "(64 x --max-message-bytes, each document counting %zu bytes more than its text, each project "
				      "its sources plus %zu bytes); close one",
		    bound, LSP_DOC_COST, LSP_PROJ_COST);
	if (m[0]) {
		show_error(L, m);
		free(man);
		free(path);
		return;
	}
	if (!d) {
		if (L->ndocs == L->cap) {
			L->cap = L->cap ? L->cap * 2 : 8;
			L->docs = spx_xrealloc(L->docs, sizeof *L->docs * (size_t)L->cap);
		}
		d = &L->docs[L->ndocs++];
		memset(d, 0, sizeof *d);
		d->uri = spx_xstrdup(uri);
		d->utf8 = L->utf8;
		d->trace_on = L->trace;
		svc_file_init(&d->file, path);
		d->file.lazy_revision = true;   /* an editor never shows it: rename asks */
		d->proj = man ? project_of(L, man) : NULL;
	}
	free(man);
	free(path);
	doc_set(d, text, ver && json_is_integer(ver) ? (long)json_integer_value(ver) : 0);
	d->stale = false;   /* a didOpen again: its whole text */
	publish(L, d);
}

/* range.<key>: {"line", "character"}, both non-negative integers. */
static bool
range_field(json_t *range, const char *key, long *line, long *character)
{
	json_t *p = json_is_object(range) ? json_object_get(range, key) : NULL;
	json_t *l = json_is_object(p) ? json_object_get(p, "line") : NULL;
	json_t *ch = json_is_object(p) ? json_object_get(p, "character") : NULL;
	if (!json_is_integer(l) || !json_is_integer(ch) || json_integer_value(l) < 0 || json_integer_value(ch) < 0 ||
	    json_integer_value(l) > 0x7fffffff || json_integer_value(ch) > 0x7fffffff)
		return false;
	*line = (long)json_integer_value(l);
	*character = (long)json_integer_value(ch);
	return true;
}

static void
did_change(Lsp *L, json_t *params)
{
	LspDoc *d = find_doc(L, doc_uri(params) ? doc_uri(params) : "");
	json_t *td = json_object_get(params, "textDocument");
	json_t *ver = json_is_object(td) ? json_object_get(td, "version") : NULL;
	json_t *changes = d ? json_object_get(params, "contentChanges") : NULL;
	if (!d || !json_is_array(changes))
		return;
	/* incremental sync: each change, in order, replaces its range of the
	 * text the previous one left (no range: the whole text) */
	/* a change that cannot be applied drops the rest of the notification
	 * (they are placed in the text it would have made), is said, and leaves
	 * the document out of step until its whole text arrives (d->stale) */
	bool any = false;
	const char *drop = NULL;
	size_t i, work = 0, others = held_bytes(L, d) + LSP_DOC_COST, bound = L->max_message * (size_t)64;
	json_t *c;
	json_array_foreach(changes, i, c) {
		json_t *t = json_is_object(c) ? json_object_get(c, "text") : NULL;
		if (!t || !json_is_string(t)) {
			drop = "it has no `text` string";
			break;
		}
		/* each change copies the text and its line table: a frame of tiny
		 * changes against a large document must not cost minutes */
		work += d->file.len + json_string_length(t) + sizeof *d->lines * (size_t)d->nlines;
		if (work > SVC_EDIT_WORK(bound)) {
			drop = "over";
			break;
		}
		json_t *range = json_object_get(c, "range");
		if (!range) {
			if (others + json_string_length(t) > bound) {
				drop = "its text is past the bound of the documents held";
				break;
			}
			doc_set(d, t, d->version);
			d->stale = false;
			any = true;
			continue;
		}
		long pos[4];
		if (!range_field(range, "start", &pos[0], &pos[1]) || !range_field(range, "end", &pos[2], &pos[3])) {
			drop = "its `range` is not {start, end} of non-negative {line, character}";
			break;
		}
		uint32_t a = lsp_offset(d, pos[0], pos[1]), b = lsp_offset(d, pos[2], pos[3]);
		size_t tl = json_string_length(t), len = b < a ? 0 : d->file.len - (b - a) + tl;
		if (b < a) {
			drop = "its range ends before it starts";
			break;
		}
		if (others + len > bound) {
			drop = "the text it makes is past the bound of the documents held";
			break;
		}
		char *n = spx_xmalloc(len + 1);
		memcpy(n, d->file.src, a);
		memcpy(n + a, json_string_value(t), tl);
		memcpy(n + a + tl, d->file.src + b, d->file.len - b);
		n[len] = '\0';
		svc_file_take_edited(&d->file, n, len, a, d->file.len - b);
		doc_lines_edit(d, a, b, (uint32_t)tl);
		any = true;
	}
	if (drop && strcmp(drop, "over") == 0) {
		char m[300];
		snprintf(m, sizeof m, "textDocument/didChange: contentChanges[%zu] and later dropped: the changes would copy more than %zu bytes "
				      "(each copies the document it edits); the document is out of date: close and reopen it",
		    i, SVC_EDIT_WORK(bound));
		show_error(L, m);
	} else if (drop) {
		char m[300];
		snprintf(m, sizeof m, "textDocument/didChange: contentChanges[%zu] and later dropped: %s; the document is out of date: "
				      "send its whole text, or close and reopen it",
		    i, drop);
		show_error(L, m);
	}
	if (drop)
		d->stale = true;
	if (!any)
		return;
	d->version = ver && json_is_integer(ver) ? (long)json_integer_value(ver) : d->version + 1;
	publish(L, d);
}

static void
did_close(Lsp *L, json_t *params)
{
	const char *uri = doc_uri(params);
	LspDoc *d = uri ? find_doc(L, uri) : NULL;
	if (!d)
		return;
	Buf p = {0};
	buf_puts(&p, "{\"uri\":");
	json_cstr(&p, d->uri);
	buf_puts(&p, ",\"diagnostics\":[]}");
	int i = (int)(d - L->docs);
	LspProj *pj = d->proj;
	char *path = spx_xstrdup(d->file.path);
	doc_free(d);
	memmove(&L->docs[i], &L->docs[i + 1], sizeof *L->docs * (size_t)(L->ndocs - i - 1));
	L->ndocs--;
	send_notification(L, "textDocument/publishDiagnostics", &p);
	buf_free(&p);
	/* its file is read from the disk again: the others may change */
	publish_file(L, NULL, pj, path);
	free(path);
}

/* ---- requests ----------------------------------------------------------------- */

static void
initialize_result(Lsp *L, json_t *params, Buf *r)
{
	/* LSP 3.17: UTF-16 unless the client offers "utf-8" */
	json_t *caps = json_is_object(params) ? json_object_get(params, "capabilities") : NULL;
	json_t *gen = json_is_object(caps) ? json_object_get(caps, "general") : NULL;
	json_t *encs = json_is_object(gen) ? json_object_get(gen, "positionEncodings") : NULL;
	size_t i;
	json_t *e;
	json_t *opts = json_is_object(params) ? json_object_get(params, "initializationOptions") : NULL;
	L->trace = json_is_object(opts) && json_is_true(json_object_get(opts, "trace"));
	L->utf8 = false;
	if (json_is_array(encs))
		json_array_foreach(encs, i, e)
			L->utf8 = L->utf8 || (json_is_string(e) && json_string_length(e) == 5 && strcmp(json_string_value(e), "utf-8") == 0);
	buf_printf(r, "{\"capabilities\":{\"positionEncoding\":\"%s\",\"textDocumentSync\":{\"openClose\":true,\"change\":2},"
	    "\"hoverProvider\":true,\"definitionProvider\":true,\"referencesProvider\":true,\"renameProvider\":{\"prepareProvider\":true},",
	    L->utf8 ? "utf-8" : "utf-16");
	buf_puts(r, "\"documentFormattingProvider\":true,\"documentSymbolProvider\":true,"
	    "\"codeActionProvider\":{\"codeActionKinds\":[\"quickfix\"]},"
	    "\"semanticTokensProvider\":{\"legend\":");
	lsp_token_legend(r);
	buf_puts(r, ",\"full\":true}},\"serverInfo\":{\"name\":\"semaprax\",\"version\":\"" SPX_VERSION "\"}}");
}

typedef bool (*Feature)(LspReq *r, Buf *out);

static const struct {
	const char *method;
	Feature fn;
	bool position;       /* params carry `position` */
	bool edits;          /* answers with edits: refused while the document is out of step */
} features[] = {
	{ "textDocument/hover", lsp_hover, true, false },
	{ "textDocument/definition", lsp_definition, true, false },
	{ "textDocument/references", lsp_references, true, false },
	{ "textDocument/rename", lsp_rename, true, true },
	{ "textDocument/prepareRename", lsp_prepare_rename, true, true },
	{ "textDocument/formatting", lsp_formatting, false, true },
	{ "textDocument/documentSymbol", lsp_document_symbols, false, false },
	{ "textDocument/semanticTokens/full", lsp_semantic_tokens, false, false },
	{ "textDocument/codeAction", lsp_code_action, false, true },
	{ "semaprax/trace", lsp_trace, false, false },
};

static void
request(Lsp *L, const char *name, json_t *id, json_t *params)
{
	Buf r = {0};
	if (L->shut) {
		send_error(L, id, -32600, "the server was shut down: no requests after `shutdown`");
	} else if (strcmp(name, "initialize") == 0) {
		if (L->initialized) {
			send_error(L, id, -32600, "`initialize` was already answered");
		} else {
			L->initialized = true;
			initialize_result(L, params, &r);
			send_result(L, id, &r);
		}
	} else if (!L->initialized) {
		send_error(L, id, LSP_E_NOT_INITIALIZED, "the server is not initialized: send `initialize` first");
	} else if (strcmp(name, "shutdown") == 0) {
		L->shut = true;
		buf_puts(&r, "null");
		send_result(L, id, &r);
	} else {
		int k = -1;
		for (int i = 0; i < (int)(sizeof features / sizeof features[0]) && k < 0; i++)
			if (strcmp(features[i].method, name) == 0)
				k = i;
		if (k < 0) {
			char m[200];
			snprintf(m, sizeof m, "no method `%.150s`", name);
			send_error(L, id, SVC_E_METHOD, m);
			buf_free(&r);
			return;
		}
		const char *uri = doc_uri(params);
		LspDoc *d = uri ? find_doc(L, uri) : NULL;
		json_t *pos = json_is_object(params) ? json_object_get(params, "position") : NULL;
		json_t *ln = json_is_object(pos) ? json_object_get(pos, "line") : NULL;
		json_t *ch = json_is_object(pos) ? json_object_get(pos, "character") : NULL;
		if (!uri) {
			send_error(L, id, SVC_E_PARAMS, "params need `textDocument.uri`");
		} else if (features[k].position && (!json_is_integer(ln) || !json_is_integer(ch) || json_integer_value(ln) < 0 ||
		    json_integer_value(ch) < 0)) {
			send_error(L, id, SVC_E_PARAMS, "params need `position` {line, character} (non-negative integers)");
		} else if (!d) {
			send_error(L, id, SVC_E_PARAMS, "the document is not open (send textDocument/didOpen first)");
		} else if (d->stale && features[k].edits) {
			send_error(L, id, LSP_E_CONTENT_MODIFIED, "the document is out of step (a change was dropped): its edits would "
			    "land in other text; send its whole text, or close and reopen it");
		} else {
			LspReq q;
			memset(&q, 0, sizeof q);
			q.doc = d;
			q.docs = L->docs;
			q.ndocs = L->ndocs;
			q.params = params;
			if (features[k].position)
				q.off = lsp_offset(d, (long)json_integer_value(ln), (long)json_integer_value(ch));
			if (features[k].fn(&q, &r))
				send_result(L, id, &r);
			else
				send_error(L, id, q.code, q.msg);
			/* the request re-read the project from disk (a file not open changed: a
			 * checkout, another tool): the open documents of it whose diagnostics
			 * changed are republished now, after the answer (svc22: only on their
			 * next change) */
			if (q.reread && d->proj)
				publish_project(L, NULL, d->proj);
		}
	}
	buf_free(&r);
}

static void
notification(Lsp *L, const char *name, json_t *params)
{
	if (strcmp(name, "exit") == 0) {
		L->exiting = true;
		return;
	}
	if (!L->initialized || L->shut)
		return;
	if (strcmp(name, "textDocument/didOpen") == 0)
		did_open(L, params);
	else if (strcmp(name, "textDocument/didChange") == 0)
		did_change(L, params);
	else if (strcmp(name, "textDocument/didClose") == 0)
		did_close(L, params);
	/* initialized, $/cancelRequest, didSave, …: nothing to do */
}

static void
handle(Lsp *L, const char *body, size_t len)
{
	int code;
	char why[200];
	json_t *msg = svc_decode(body, len, &code, why, sizeof why);
	if (!msg) {
		send_error(L, NULL, code, why);
		return;
	}
	json_t *id = json_is_object(msg) ? json_object_get(msg, "id") : NULL;
	json_t *method = json_is_object(msg) ? json_object_get(msg, "method") : NULL;
	json_t *params = json_is_object(msg) ? json_object_get(msg, "params") : NULL;
	bool id_ok = !id || json_is_integer(id) || json_is_string(id);
	if (!json_is_object(msg) || !method || !json_is_string(method) || !id_ok) {
		/* a response from the client, or garbage: a request gets an error */
		if (json_is_object(msg) && id && id_ok && !method)
			; /* a response to a server request: we send none */
		else
			send_error(L, id_ok ? id : NULL, SVC_E_INVALID_REQUEST, "not a JSON-RPC 2.0 request");
	} else if (strlen(json_string_value(method)) != json_string_length(method)) {
		/* a name with `\u0000` is no method (never the name before the NUL:
		 * `exit\u0000…` does not end the session); a notification is dropped */
		if (id)
			send_error(L, id, SVC_E_METHOD, "no method: the method name contains NUL (\\u0000)");
	} else if (!id) {
		notification(L, json_string_value(method), params);
	} else {
		request(L, json_string_value(method), id, params);
	}
	json_decref(msg);
}

/* Reads one header block; returns the Content-Length (-1: none or bad,
 * -2: end of input, -3: two that differ, so the frame's end is unknown).
 * *dup is set when the block held two Content-Length headers. */
static long long
read_headers(FILE *in, bool *dup)
{
	char line[256];
	long long len = -1;
	bool any = false, seen = false, clash = false;
	*dup = false;
	for (;;) {
		size_t n = 0;
		int c;
		bool over = false;
		while ((c = getc(in)) != EOF && c != '\n') {
			if (n + 1 < sizeof line)
				line[n++] = (char)c;
			else
				over = true;
		}
		if (c == EOF)
			return -2;
		if (n && line[n - 1] == '\r')
			n--;
		line[n] = '\0';
		if (n == 0) {
			if (any)
				return clash ? -3 : len;
			continue;
		}
		any = true;
		if (!over && strncasecmp(line, "Content-Length:", 15) == 0) {
			const char *p = line + 15;
			while (*p == ' ' || *p == '\t')
				p++;
			char *end;
			errno = 0;
			long long v = strtoll(p, &end, 10);
			bool range = errno != ERANGE;   /* a length past 64 bits is no length (it was read
			                                 * as LLONG_MAX: the rest of the stream skipped) */
			while (*end == ' ' || *end == '\t')
				end++;
			long long here = (*p >= '0' && *p <= '9' && *end == '\0' && v >= 0 && range) ? v : -1;
			if (seen) {   /* a second one: the frame is refused (never "the last wins") */
				*dup = true;
				clash |= here != len;
			}
			seen = true;
			len = here;
		}
	}
}

int
svc_lsp_serve(FILE *in, FILE *out, size_t max_message)
{
	Lsp L;
	memset(&L, 0, sizeof L);
	L.out = out;
	L.max_message = max_message < SVC_MIN_MAX_MESSAGE ? SVC_DEFAULT_MAX_MESSAGE : max_message;
	char *body = spx_xmalloc(L.max_message + 1);
	int status = 0;
	while (!L.exiting) {
		bool dup;
		long long n = read_headers(in, &dup);
		if (n == -2)
			break;
		if (n == -3) {   /* two lengths that differ: where the next frame starts is unknown */
			send_error(&L, NULL, SVC_E_INVALID_REQUEST,
			    "a message with two different Content-Length headers; the stream is closed");
			break;
		}
		if (dup && n >= 0) {   /* the same length twice: refused, its body skipped, in step */
			for (long long i = 0; i < n && getc(in) != EOF; i++)
				;
			send_error(&L, NULL, SVC_E_INVALID_REQUEST, "a message with two Content-Length headers");
			continue;
		}
		if (n < 0) {
			send_error(&L, NULL, SVC_E_INVALID_REQUEST, "a message without a valid Content-Length header");
			continue;
		}
		if ((unsigned long long)n > L.max_message) {
			/* answered before any of its bytes is read (svc22: a length of 2^63-1 was
			 * skipped as a body, so nothing was answered until the client closed);
			 * a body within LSP_SKIP_BOUND × the bound is then skipped, unstored, and
			 * serving goes on in step; past it the stream is closed, as no frame of
			 * that size is waited for (exit 1, as any end before shutdown) */
			bool skip = (unsigned long long)n <= (unsigned long long)L.max_message * LSP_SKIP_BOUND;
			send_error(&L, NULL, SVC_E_TOO_LARGE, skip ? "the message exceeds the message bound (--max-message-bytes)"
			    : "the message exceeds the message bound (--max-message-bytes) over 64 times; the stream is closed");
			if (!skip)
				break;
			for (long long i = 0; i < n && getc(in) != EOF; i++)
				;
			continue;
		}
		size_t got = fread(body, 1, (size_t)n, in);
		if (got < (size_t)n)
			break;
		handle(&L, body, got);
	}
	/* exit (or end of input) after shutdown is 0, otherwise 1 (the LSP lifecycle) */
	status = L.shut ? 0 : 1;
	for (int i = 0; i < L.ndocs; i++)
		doc_free(&L.docs[i]);
	free(L.docs);
	for (int i = 0; i < L.nprojs; i++)
		lsp_project_free(L.projs[i]);
	free(L.projs);
	free(body);
	return status;
}
