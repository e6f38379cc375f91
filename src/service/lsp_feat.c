/*
 * lsp_feat.c — the LSP features over one document's product database
 * (docs/editors.md): diagnostics with their fixes as code actions, hover,
 * go to definition, references by stable identity, rename through the
 * semantic patch engine (stale-safe), formatting, document symbols and
 * semantic tokens.
 *
 * The features that need meaning (hover, definition, references, rename,
 * the classification of semantic tokens) read the verified program product
 * (svc_file_program); a document that does not verify answers them with
 * null (or, for rename, an error saying why).
 */
#include "lsp_int.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../fmt/fmt.h"
#include "../lex/lex.h"
#include "../patch/patch.h"
#include "../support/json.h"

bool
lsp_fail(LspReq *r, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	r->code = code;
	vsnprintf(r->msg, sizeof r->msg, fmt, ap);
	va_end(ap);
	return false;
}

/* Brings the document's check up to date: true when it verifies. */
static bool
check_now(LspDoc *d, DiagSink *sink)
{
	SvcTrace t;
	svc_trace_init(&t);
	bool ok = svc_file_check(&d->file, &t, sink);
	svc_trace_free(&t);
	return ok;
}

/* The verified program's session, or NULL; its graph model into *g (a
 * project's document: its module of the verified project). */
static Session *
program(LspReq *r, GraphModel **g)
{
	LspDoc *d = r->doc;
	*g = NULL;
	if (d->proj)
		return lsp_project_session(r, g);
	DiagSink s;
	bool ok = check_now(d, &s);
	diag_free(&s);
	if (!ok)
		return NULL;
	SvcTrace t;
	svc_trace_init(&t);
	ok = svc_file_program(&d->file, &t);
	svc_trace_free(&t);
	*g = ok ? d->file.g : NULL;
	return ok ? d->file.psess : NULL;
}

/* ---- diagnostics and code actions ----------------------------------------------- */

void
lsp_put_diag(Buf *out, LspDoc *d, const Diag *g)
{
	uint32_t s = g->has_span ? g->span.start : 0, e = g->has_span ? g->span.end : 0;
	buf_puts(out, "{\"range\":");
	lsp_put_range(out, d, s, e);
	buf_printf(out, ",\"severity\":%d,\"code\":", diag_info[g->code].sev == SEV_WARNING ? 2 : 1);
	json_cstr(out, diag_info[g->code].code);
	buf_puts(out, ",\"source\":\"semaprax\",\"message\":");
	Buf m = {0};
	buf_puts(&m, g->message);
	const char *help = diag_help_text(g);
	if (help && *help)
		buf_printf(&m, "\nhelp: %s", help);
	if (g->note)
		buf_printf(&m, "\nnote: %s", g->note);
	json_str(out, m.data, m.len);
	buf_free(&m);
	buf_putc(out, '}');
}

void
lsp_diagnostics(LspDoc *d, Buf *out)
{
	DiagSink s;
	SvcTrace t;
	svc_trace_init(&t);
	t.off = !d->trace_on;   /* 10,001 product names are not free */
	svc_file_check(&d->file, &t, &s);
	d->trace.len = 0;
	if (d->trace_on)
		svc_trace_json(&d->trace, &t);
	svc_trace_free(&t);
	buf_puts(out, "{\"uri\":");
	json_cstr(out, d->uri);
	buf_printf(out, ",\"version\":%ld,\"diagnostics\":[", d->version);
	for (int i = 0; i < s.items.len; i++) {
		if (i)
			buf_putc(out, ',');
		lsp_put_diag(out, d, &s.items.items[i]);
	}
	buf_puts(out, "]}");
	diag_free(&s);
}

static bool
range_param(LspReq *r, json_t *range, uint32_t *s, uint32_t *e)
{
	json_t *a = json_is_object(range) ? json_object_get(range, "start") : NULL;
	json_t *b = json_is_object(range) ? json_object_get(range, "end") : NULL;
	json_t *al = json_is_object(a) ? json_object_get(a, "line") : NULL, *ac = json_is_object(a) ? json_object_get(a, "character") : NULL;
	json_t *bl = json_is_object(b) ? json_object_get(b, "line") : NULL, *bc = json_is_object(b) ? json_object_get(b, "character") : NULL;
	if (!json_is_integer(al) || !json_is_integer(ac) || !json_is_integer(bl) || !json_is_integer(bc))
		return lsp_fail(r, SVC_E_PARAMS, "params need `range` {start, end} positions");
	*s = lsp_offset(r->doc, (long)json_integer_value(al), (long)json_integer_value(ac));
	*e = lsp_offset(r->doc, (long)json_integer_value(bl), (long)json_integer_value(bc));
	return true;
}

/* A hover reply: the markdown md over the range [start, end) of d. */
void
lsp_put_hover(Buf *out, const LspDoc *d, const Buf *md, uint32_t start, uint32_t end)
{
	buf_puts(out, "{\"contents\":{\"kind\":\"markdown\",\"value\":");
	json_str(out, md->data ? md->data : "", md->len);
	buf_puts(out, "},\"range\":");
	lsp_put_range(out, d, start, end);
	buf_putc(out, '}');
}

void
lsp_put_edit(Buf *out, LspDoc *d, uint32_t s, uint32_t e, const char *text)
{
	buf_puts(out, "{\"range\":");
	lsp_put_range(out, d, s, e);
	buf_puts(out, ",\"newText\":");
	json_cstr(out, text);
	buf_putc(out, '}');
}

bool
lsp_code_action(LspReq *r, Buf *out)
{
	uint32_t s = 0, e = 0;
	if (!range_param(r, json_object_get(r->params, "range"), &s, &e))
		return false;
	DiagSink own;
	const DiagSink *sink = &own;
	if (r->doc->proj)
		sink = lsp_project_sink(r);
	else
		check_now(r->doc, &own);
	buf_putc(out, '[');
	bool first = true;
	for (int i = 0; i < sink->items.len; i++) {
		const Diag *g = &sink->items.items[i];
		bool near = !g->has_span || !(g->span.end < s || g->span.start > e);
		for (int k = 0; k < g->fixes.len && !near; k++)
			near = !(g->fixes.items[k].end < s || g->fixes.items[k].start > e);
		if (g->fixes.len == 0 || !near)
			continue;
		if (!first)
			buf_putc(out, ',');
		first = false;
		const char *help = diag_help_text(g);
		Buf title = {0};
		buf_printf(&title, "%s: %s", diag_info[g->code].code, help && *help ? help : g->message);
		buf_puts(out, "{\"title\":");
		json_str(out, title.data, title.len);
		buf_free(&title);
		buf_puts(out, ",\"kind\":\"quickfix\",\"isPreferred\":true,\"diagnostics\":[");
		lsp_put_diag(out, r->doc, g);
		buf_puts(out, "],\"edit\":{\"changes\":{");
		json_cstr(out, r->doc->uri);
		buf_puts(out, ":[");
		for (int k = 0; k < g->fixes.len; k++) {
			if (k)
				buf_putc(out, ',');
			lsp_put_edit(out, r->doc, g->fixes.items[k].start, g->fixes.items[k].end, g->fixes.items[k].text);
		}
		buf_puts(out, "]}}}");
	}
	buf_putc(out, ']');
	if (!r->doc->proj)
		diag_free(&own);
	return true;
}

bool
lsp_trace(LspReq *r, Buf *out)
{
	if (r->doc->trace.len)
		buf_put(out, r->doc->trace.data, r->doc->trace.len);
	else
		buf_puts(out, "null");
	return true;
}

/* ---- hover, definition, references ---------------------------------------------- */

/* ---- a program that does not verify: top-level declarations by name ---- */

static bool
word_byte(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* The top-level declaration of the parsed (unverified) document named by
 * the word at off, or NULL; the word into ws, we. */
static const Decl *
decl_by_word(LspDoc *doc, uint32_t off, uint32_t *ws, uint32_t *we)
{
	SvcFile *f = &doc->file;
	if (f->parse_failed || !f->sess || off > f->len)
		return NULL;
	uint32_t s = off, e = off;
	while (s > 0 && word_byte(f->src[s - 1]))
		s--;
	while (e < f->len && word_byte(f->src[e]))
		e++;
	if (e == s)
		return NULL;
	*ws = s;
	*we = e;
	svc_file_settle(f);
	const Module *m = f->sess->m;
	for (int i = 0; i < m->ndecls; i++) {
		const Decl *d = &m->decls[i];
		const Name *dn = ast_decl_name(d);
		const char *name = dn ? dn->s : NULL;
		if (name && strlen(name) == e - s && memcmp(name, f->src + s, e - s) == 0)
			return d;
	}
	return NULL;
}

/* Markdown inline code of source text s[0..n) (an id, a contract): fenced
 * by one backtick more than its longest run of them, padded by a blank
 * when it starts or ends with one, so no byte ends the span early; line
 * breaks and other control bytes shown as \u{XX} (a blank line would end
 * the paragraph, and the rest would be read as markdown or HTML). */
static void
md_code(Buf *h, const char *s, size_t n)
{
	size_t run = 0, longest = 0;
	for (size_t i = 0; i < n; i++) {
		run = s[i] == '`' ? run + 1 : 0;
		longest = run > longest ? run : longest;
	}
	bool pad = n && (s[0] == '`' || s[n - 1] == '`');
	for (size_t i = 0; i <= longest; i++)
		buf_putc(h, '`');
	if (pad)
		buf_putc(h, ' ');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20 || c == 0x7f)
			buf_printf(h, "\\u{%X}", c);
		else
			buf_putc(h, (char)c);
	}
	if (pad)
		buf_putc(h, ' ');
	for (size_t i = 0; i <= longest; i++)
		buf_putc(h, '`');
}

static void
md_code_str(Buf *h, const char *s)
{
	md_code(h, s ? s : "", s ? strlen(s) : 0);
}

/* hover and definition of a document that parses but does not verify: the
 * declaration of that name, from the syntax only. */
bool
lsp_unverified_answer(LspReq *r, Buf *out, bool hover)
{
	if (r->doc->proj) {
		/* a project's document is checked with its project: its own
		 * parse is made on demand */
		DiagSink ds;
		check_now(r->doc, &ds);
		diag_free(&ds);
	}
	uint32_t s = 0, e = 0;
	const Decl *d = decl_by_word(r->doc, r->off, &s, &e);
	int pk = -1;
	if (r->doc->proj && e > s) {
		/* an imported name: the declaration in its provider module */
		SvcFile *f = &r->doc->file;
		const Decl *pd = lsp_project_import_decl(r, f->sess->m, f->src, f->src + s, e - s, &pk);
		if (pd)
			d = pd;
		else
			pk = -1;
	}
	if (!d) {
		buf_puts(out, "null");
		return true;
	}
	if (!hover && pk >= 0) {
		Span n = svc_decl_name_span(d);
		lsp_project_put_location(out, r, pk, n.start, n.end);
		return true;
	}
	if (!hover) {
		Span n = svc_decl_name_span(d);
		buf_puts(out, "{\"uri\":");
		json_cstr(out, r->doc->uri);
		buf_puts(out, ",\"range\":");
		lsp_put_range(out, r->doc, n.start, n.end);
		buf_putc(out, '}');
		return true;
	}
	Buf h = {0};
	buf_puts(&h, "```spx\n");
	fmt_decl_header(&h, d);
	buf_puts(&h, "\n```\n\n");
	if (d->id.present) {
		buf_puts(&h, "stable id: ");
		md_code(&h, d->id.value.s, d->id.value.len);
		buf_puts(&h, "\n\n");
	}
	if (pk >= 0) {
		buf_puts(&h, "imported from ");
		md_code_str(&h, lsp_project_module_name(r, pk));
		buf_puts(&h, "\n\n");
	}
	buf_puts(&h, "(the document does not verify: types, effects and ownership are shown once it does)\n");
	lsp_put_hover(out, r->doc, &h, s, e);
	buf_free(&h);
	return true;
}

/* The verified program (NULL when the document does not verify), its
 * occurrences into *occs (release with lsp_occs_free) and the one at the
 * request's offset, or NULL: the walk hover, definition, references and
 * rename share. */
static const LspOcc *
occ_find(LspReq *r, Session **ps, LspOccs *occs, GraphModel **g)
{
	*ps = program(r, g);
	memset(occs, 0, sizeof *occs);
	if (!*ps)
		return NULL;
	lsp_occurrences((*ps)->S, (*ps)->m, occs);
	return lsp_occ_at(occs, r->off);
}

/* The occurrences of the verified document, and the one at the request's
 * position; false (result null written) when there is none. */
static bool
occ_here(LspReq *r, Session **ps, LspOccs *occs, const LspOcc **at, Buf *out, int fallback, GraphModel **g)
{
	*at = occ_find(r, ps, occs, g);
	if (!*at) {
		if (!*ps && fallback)
			lsp_unverified_answer(r, out, fallback == 1);
		else
			buf_puts(out, "null");
		lsp_occs_free(occs);
		return false;
	}
	return true;
}

/* A local's hover: its checked type and how the binding (or the value
 * read) is held. */
static void
hover_local(Buf *h, Session *s, const LspOcc *o)
{
	Sema *S = s->S;
	const char *t = o->type == T_ERR ? "?" : sema_type_name(S, o->type);
	buf_printf(h, "```spx\n%.*s: %s\n```\n\n", (int)(o->end - o->start), s->src + o->start, t);
	buf_printf(h, "%s (no stable identity)\n\n**ownership**: %s\n", o->decl ? "local binding or parameter" : "local",
	    o->mode == MODE_BORROW ? "borrow" : o->mode == MODE_SHARED ? "shared" : o->type != T_ERR && sema_is_copy(S, o->type)
	    ? "Copy" : o->mode == MODE_OWN ? "own (consumed)" : "owned (moves)");
}

void
lsp_hover_text(Buf *h, Session *s, GraphModel *g, const LspOcc *o)
{
	Sema *S = s->S;
	if (o->sym < 0) {
		hover_local(h, s, o);
		return;
	}
	Sym *y = sema_sym(S, o->sym);
	if (o->ci >= 0 || o->field >= 0) {
		const FieldSym *f = NULL;
		if (o->ci >= 0 && o->field >= 0)
			f = &y->nom->cases[o->ci].fields[o->field];
		else if (o->field >= 0)
			f = &y->nom->fields[o->field];
		if (f) {
			buf_printf(h, "```spx\n%s.%s: %s\n```\n\n", o->ci >= 0 ? y->nom->cases[o->ci].name : y->name, f->name,
			    sema_type_name(S, f->type));
			/* a field of type T (or Pair<T>): Copy or not per instance */
			buf_printf(h, "type: `%s` — %s\n\n", sema_type_name(S, f->type), !sema_is_copy(S, f->type) ? "owned (moves)"
			    : sema_type_info(&S->types, f->type)->open ? "Copy when the type arguments it mentions are" : "Copy");
		} else {
			buf_printf(h, "```spx\n%s::%s\n```\n\n", y->name, y->nom->cases[o->ci].name);
			buf_printf(h, "case of variant `%s`\n\n", y->name);
		}
		buf_puts(h, "stable id: ");
		md_code_str(h, lsp_occ_id(S, o));
		buf_putc(h, '\n');
		return;
	}
	int d = o->sym < (SymId)S->syms.len && g->of_sym ? g->of_sym[o->sym] : -1;
	if (d < 0) {
		buf_printf(h, "```spx\n%s\n```\n\nstable id: ", y->name);
		md_code_str(h, y->id);
		buf_putc(h, '\n');
		return;
	}
	GraphDecl *gd = &g->decls[d];
	char *header = graph_header(g, d);
	buf_printf(h, "```spx\n%s\n```\n\n", header);
	free(header);
	buf_printf(h, "%s `%s` — stable id: ", graph_kind_names[gd->kind], graph_qualified_name(g, d));
	md_code_str(h, gd->id);
	buf_putc(h, '\n');
	if (gd->kind == GK_FUNCTION || gd->kind == GK_METHOD) {
		buf_puts(h, "\n**type**: `fn(");
		for (int i = 0; i < gd->nparams; i++)
			buf_printf(h, "%s%s", i ? ", " : "", sema_type_name(S, gd->params[i].type));
		buf_printf(h, ") -> %s`\n", gd->type != (TypeId)-1 ? sema_type_name(S, gd->type) : "unit");
		buf_puts(h, "\n**effects**: ");
		if (gd->neffects == 0)
			buf_puts(h, "none (pure)");
		for (int i = 0; i < gd->neffects; i++)
			buf_printf(h, "%s`%s`", i ? ", " : "", gd->effects[i]);
		buf_puts(h, "\n\n**contracts**:");
		if (gd->nrequires + gd->nensures == 0)
			buf_puts(h, " none");
		buf_putc(h, '\n');
		for (int i = 0; i < gd->nrequires; i++) {
			buf_puts(h, "- requires ");
			md_code_str(h, gd->requires[i]);
			buf_putc(h, '\n');
		}
		for (int i = 0; i < gd->nensures; i++) {
			buf_puts(h, "- ensures ");
			md_code_str(h, gd->ensures[i]);
			buf_putc(h, '\n');
		}
		buf_puts(h, "\n**ownership**:");
		if (gd->nparams == 0)
			buf_puts(h, " no parameters");
		buf_putc(h, '\n');
		for (int i = 0; i < gd->nparams; i++)
			buf_printf(h, "- `%s`: %s\n", gd->params[i].name, gd->params[i].mode);
	} else {
		if (gd->kind == GK_RECORD || gd->kind == GK_VARIANT || gd->kind == GK_CLASS || gd->kind == GK_RESOURCE)
			buf_printf(h, "\n**ownership**: %s\n", y->kind == SK_RESOURCE ? "resource (owned, dropped exactly once)"
			    : y->ntparams ? "Copy when its type arguments are" : sema_is_copy(S, sema_nominal(S, o->sym, NULL, 0)) ? "Copy"
			    : "owned (moves)");
		if (gd->nrequires) {
			buf_puts(h, "\n**invariants**:\n");
			for (int i = 0; i < gd->nrequires; i++) {
				buf_puts(h, "- ");
				md_code_str(h, gd->requires[i]);
				buf_putc(h, '\n');
			}
		}
		if (gd->kind == GK_INTERFACE && gd->neffects) {
			buf_puts(h, "\n**permits**: ");
			for (int i = 0; i < gd->neffects; i++)
				buf_printf(h, "%s`%s`", i ? ", " : "", gd->effects[i]);
			buf_putc(h, '\n');
		}
	}
}

bool
lsp_hover(LspReq *r, Buf *out)
{
	if (r->doc->proj)
		return lsp_project_hover(r, out);
	Session *s;
	LspOccs occs;
	const LspOcc *o;
	GraphModel *g;
	if (!occ_here(r, &s, &occs, &o, out, 1, &g))
		return true;
	Buf h = {0};
	lsp_hover_text(&h, s, g, o);
	lsp_put_hover(out, r->doc, &h, o->start, o->end);
	buf_free(&h);
	lsp_occs_free(&occs);
	return true;
}

static void
put_location(Buf *out, LspDoc *d, uint32_t s, uint32_t e)
{
	buf_puts(out, "{\"uri\":");
	json_cstr(out, d->uri);
	buf_puts(out, ",\"range\":");
	lsp_put_range(out, d, s, e);
	buf_putc(out, '}');
}

/* A local binding or a use of one at the request's position (a project's
 * document alike: a local is in its own module): definition answers its
 * binding, references the binding (with_decl) and every name resolved to it
 * by scope (lsp_local.c), as rename edits them; false when the position
 * holds no local (or the program does not verify). */
static bool
local_answer(LspReq *r, bool refs, bool with_decl, Buf *out)
{
	GraphModel *g;
	Session *s = program(r, &g);
	if (!s)
		return false;
	LspOccs occs;
	memset(&occs, 0, sizeof occs);
	lsp_occurrences(s->S, s->m, &occs);
	const LspOcc *o = lsp_occ_at(&occs, r->off);
	bool local = !o || o->sym < 0;
	lsp_occs_free(&occs);
	if (!local)
		return false;
	LspLocals L;
	int b = lsp_local_binding(s->S, s->m, r->off, &L);
	if (b < 0)
		return false;
	bool first = true;
	if (refs)
		buf_putc(out, '[');
	for (int i = 0; i < L.len; i++) {
		const LspLocalOcc *x = &L.items[i];
		if (x->binding != b || (refs ? x->decl && !with_decl : !x->decl))
			continue;
		if (!first)
			buf_putc(out, ',');
		first = false;
		put_location(out, r->doc, x->start, x->end);
		if (!refs)
			break;   /* the binding (an or-pattern's first alternative) */
	}
	if (refs)
		buf_putc(out, ']');
	else if (first)
		buf_puts(out, "null");
	lsp_locals_free(&L);
	return true;
}

bool
lsp_definition(LspReq *r, Buf *out)
{
	if (local_answer(r, false, false, out))
		return true;
	if (r->doc->proj)
		return lsp_project_definition(r, out);
	Session *s;
	LspOccs occs;
	const LspOcc *o;
	GraphModel *g;
	if (!occ_here(r, &s, &occs, &o, out, 2, &g))
		return true;
	const LspOcc *def = lsp_occ_decl(&occs, o);
	if (def)
		put_location(out, r->doc, def->start, def->end);
	else
		buf_puts(out, "null");
	lsp_occs_free(&occs);
	return true;
}

/* references' context.includeDeclaration (absent: true) */
bool
lsp_refs_with_decl(const LspReq *r)
{
	json_t *ctx = json_object_get(r->params, "context");
	json_t *inc = json_is_object(ctx) ? json_object_get(ctx, "includeDeclaration") : NULL;
	return !inc || json_is_true(inc);
}

bool
lsp_references(LspReq *r, Buf *out)
{
	bool with_decl = lsp_refs_with_decl(r);
	if (local_answer(r, true, with_decl, out))
		return true;
	if (r->doc->proj)
		return lsp_project_references(r, out);
	Session *s;
	LspOccs occs;
	const LspOcc *o;
	GraphModel *g;
	if (!occ_here(r, &s, &occs, &o, out, 0, &g))
		return true;
	/* by stable identity: every occurrence whose declaration has o's id */
	const char *id = lsp_occ_id(s->S, o);
	buf_putc(out, '[');
	if (!id) {
		/* a local has no stable identity */
		buf_putc(out, ']');
		lsp_occs_free(&occs);
		return true;
	}
	bool first = true;
	for (int i = 0; i < occs.len; i++) {
		const LspOcc *x = &occs.items[i];
		if (x->sym < 0 || (x->decl && !with_decl) || strcmp(lsp_occ_id(s->S, x), id) != 0)
			continue;
		if (!first)
			buf_putc(out, ',');
		first = false;
		put_location(out, r->doc, x->start, x->end);
	}
	buf_putc(out, ']');
	lsp_occs_free(&occs);
	return true;
}

/* ---- rename through the semantic patch engine ----------------------------------- */

/* The .spatch text renaming o to name against base; false when the
 * declaration is no patch target. */
bool
lsp_rename_patch(Buf *p, Sema *S, const LspOcc *o, const char *base, const char *name)
{
	if (o->sym < 0)
		return false;
	Sym *y = sema_sym(S, o->sym);
	if (o->ci < 0 && o->field < 0) {
		if (y->kind != SK_FN && y->kind != SK_RESOURCE)
			return false;
		buf_printf(p, "base %s\nrename %s to %s\n", base, y->id, name);
	} else if (o->field < 0) {
		buf_printf(p, "schema semaprax.semantic-patch.v2\nbase %s\nrename-case owner %s case %s to %s\n", base, y->id,
		    y->nom->cases[o->ci].id, name);
	} else if (o->ci >= 0) {
		buf_printf(p, "schema semaprax.semantic-patch.v2\nbase %s\nrename-member owner %s member %s to %s\n", base,
		    y->nom->cases[o->ci].id, y->nom->cases[o->ci].fields[o->field].id, name);
	} else {
		if (y->kind != SK_RECORD)
			return false;
		buf_printf(p, "schema semaprax.semantic-patch.v2\nbase %s\nrename-member owner %s member %s to %s\n", base, y->id,
		    y->nom->fields[o->field].id, name);
	}
	return true;
}

static bool
word_ok(const char *s)
{
	for (; *s; s++)
		if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
			return false;
	return true;
}

/* The first diagnostic of a sink as "SPX-XXXX: message". */
void
lsp_first_diag(LspReq *r, int code, const char *what, const DiagSink *d)
{
	/* with its help: the refusal says what to do (agent40: an automatic
	 * identity's G104/G107 says where the @id goes) */
	const char *help = d->items.len ? diag_help_text(&d->items.items[0]) : NULL;
	if (d->items.len)
		lsp_fail(r, code, "%s: %s: %.300s%s%.600s", what, diag_info[d->items.items[0].code].code, d->items.items[0].message,
		    help && *help ? "; help: " : "", help ? help : "");
	else
		lsp_fail(r, code, "%s", what);
}

/* A renamed candidate of a single document that does not verify: its first
 * diagnostic and where (line:col in the renamed text; a rename moves no
 * line). */
static void
candidate_failed(LspReq *r, const DiagSink *d)
{
	if (!d->items.len) {
		lsp_fail(r, LSP_E_REQUEST_FAILED, "the renamed program does not verify");
		return;
	}
	const Diag *g = &d->items.items[0];
	lsp_fail(r, LSP_E_REQUEST_FAILED, "the renamed program does not verify: %s: %.200s at %u:%u", diag_info[g->code].code, g->message,
	    g->line, g->col);
}

bool
lsp_rename_params(LspReq *r, const char **name, const char **rev)
{
	json_t *nn = json_object_get(r->params, "newName");
	json_t *td = json_object_get(r->params, "textDocument");
	json_t *ver = json_is_object(td) ? json_object_get(td, "version") : NULL;
	json_t *rv = json_object_get(r->params, "revision");
	if (!json_is_string(nn) || strlen(json_string_value(nn)) != json_string_length(nn) || !word_ok(json_string_value(nn)))
		return lsp_fail(r, SVC_E_PARAMS, "`newName` must be a string without blanks");
	if (rv && (!json_is_string(rv) || strlen(json_string_value(rv)) != json_string_length(rv) || !word_ok(json_string_value(rv)) ||
	    !*json_string_value(rv)))
		return lsp_fail(r, SVC_E_PARAMS, "`revision` must be a revision string");
	if (ver && json_is_integer(ver) && json_integer_value(ver) != r->doc->version)
		return lsp_fail(r, LSP_E_CONTENT_MODIFIED, "stale rename: the request is for version %lld, the document is at version %ld",
		    (long long)json_integer_value(ver), r->doc->version);
	*name = json_string_value(nn);
	*rev = rv ? json_string_value(rv) : NULL;
	return true;
}

bool
lsp_rename_plan(LspReq *r, LspRename *rn, const Session *s, const LspOcc *o, bool none, bool local, const char *base,
    const char *current, const char *name)
{
	memset(rn, 0, sizeof *rn);
	diag_init(&rn->pd, "<rename>", NULL, 0);
	if (!o || !lsp_rename_patch(&rn->text, s->S, o, base, name))
		return lsp_fail(r, LSP_E_REQUEST_FAILED, none ? "no declaration at this position" : local ? "a local has no stable "
		    "identity: semantic patches rename functions, resources, record and case fields and variant cases"
		    : "semantic patches rename functions, resources, record and case fields and variant cases; this declaration is none");
	rn->pd.src = rn->text.data;
	rn->pd.src_len = rn->text.len;
	if (!patch_parse(&rn->sp, rn->text.data, rn->text.len, &rn->pd)) {
		lsp_first_diag(r, LSP_E_REQUEST_FAILED, "the rename is no valid semantic patch", &rn->pd);
		return false;
	}
	if (!patch_plan(&rn->sp, s->m, s->S, s->H, s->src, s->len, current, &rn->pd, &rn->plan)) {
		bool stale = rn->pd.items.len && rn->pd.items.items[0].code == DIAG_G409;
		lsp_first_diag(r, stale ? LSP_E_CONTENT_MODIFIED : LSP_E_REQUEST_FAILED, stale ? "stale rename refused" : "rename refused",
		    &rn->pd);
		return false;
	}
	return true;
}

void
lsp_rename_free(LspRename *rn)
{
	patch_plan_free(&rn->plan);
	patch_free(&rn->sp);
	diag_free(&rn->pd);
	buf_free(&rn->text);
}


/* A local's rename in a document checked alone: the binding and every name
 * resolved to it; the candidate must verify and resolve every name as
 * before (lsp_local.c). */
static bool
rename_local(LspReq *r, Session *s, const LspLocals *L, int b, const char *name, const char *rev, Buf *out)
{
	LspDoc *doc = r->doc;
	if (rev && strcmp(rev, svc_file_revision(&doc->file)) != 0)
		return lsp_fail(r, LSP_E_CONTENT_MODIFIED, "stale rename refused: the program is no longer at revision %.80s", rev);
	PatchPlan plan;
	if (!lsp_local_edits(r, L, b, s->src, name, &plan))
		return false;
	size_t clen;
	char *cand = patch_apply(s->src, s->len, &plan, &clen);
	Session c;
	driver_session_init(&c, doc->file.path);
	driver_set_source(&c, cand, clen);
	bool done = false;
	if (!driver_parse(&c) || !driver_check(&c)) {
		candidate_failed(r, &c.diags);
	} else {
		LspLocals after = {0};
		lsp_locals(c.S, c.m, &after);
		if (!lsp_locals_same(L, &after)) {
			lsp_fail(r, LSP_E_REQUEST_FAILED, "the rename changes meaning: `%.100s` would name another binding or "
			    "declaration where it is used, or a use would read another", name);
		} else {
			done = true;
			buf_puts(out, "{\"documentChanges\":[{\"textDocument\":{\"uri\":");
			json_cstr(out, doc->uri);
			buf_printf(out, ",\"version\":%ld},\"edits\":[", doc->version);
			for (int i = 0; i < plan.edits.len; i++) {
				if (i)
					buf_putc(out, ',');
				lsp_put_edit(out, doc, plan.edits.items[i].start, plan.edits.items[i].end, plan.edits.items[i].text);
			}
			buf_puts(out, "]}]}");
		}
		lsp_locals_free(&after);
	}
	driver_session_free(&c);
	free(cand);
	patch_plan_free(&plan);
	return done;
}

bool
lsp_rename(LspReq *r, Buf *out)
{
	LspDoc *doc = r->doc;
	const char *name, *rev;
	if (!lsp_rename_params(r, &name, &rev))
		return false;
	if (doc->proj)
		return lsp_project_rename(r, name, rev, out);
	Session *s;
	LspOccs occs;
	GraphModel *g;
	const LspOcc *o = occ_find(r, &s, &occs, &g);
	if (!s)
		return lsp_fail(r, LSP_E_REQUEST_FAILED, "the document does not verify: rename needs a verified program");
	if (!o || o->sym < 0) {
		/* a local binding or a use of one: renamed by scope */
		LspLocals L;
		int b = lsp_local_binding(s->S, s->m, r->off, &L);
		if (b >= 0) {
			lsp_occs_free(&occs);
			bool done = rename_local(r, s, &L, b, name, rev, out);
			lsp_locals_free(&L);
			return done;
		}
	}
	const char *current = svc_file_revision(&doc->file);   /* lazy in the editor */
	LspRename rn;
	bool planned = lsp_rename_plan(r, &rn, s, o, !o, o && o->sym < 0, rev ? rev : current, current, name);
	lsp_occs_free(&occs);
	bool done = false;
	if (planned) {
		/* the candidate must verify and mean the same but for the rename */
		size_t clen;
		char *cand = patch_apply(s->src, s->len, &rn.plan, &clen);
		Session c;
		driver_session_init(&c, doc->file.path);
		driver_set_source(&c, cand, clen);
		if (!driver_parse(&c) || !driver_check(&c)) {
			candidate_failed(r, &c.diags);
		} else if (!patch_same_meaning(&rn.sp, &rn.plan, s->S, c.S, &rn.pd)) {
			lsp_first_diag(r, LSP_E_REQUEST_FAILED, "the rename changes meaning", &rn.pd);
		} else {
			done = true;
			buf_puts(out, "{\"documentChanges\":[{\"textDocument\":{\"uri\":");
			json_cstr(out, doc->uri);
			buf_printf(out, ",\"version\":%ld},\"edits\":[", doc->version);
			for (int i = 0; i < rn.plan.edits.len; i++) {
				if (i)
					buf_putc(out, ',');
				lsp_put_edit(out, doc, rn.plan.edits.items[i].start, rn.plan.edits.items[i].end, rn.plan.edits.items[i].text);
			}
			buf_puts(out, "]}]}");
		}
		driver_session_free(&c);
		free(cand);
	}
	lsp_rename_free(&rn);
	return done;
}

/* ---- prepareRename: where rename would be planned --------------------------------- */

/* The name prepareRename renames to: rename's refusals that depend on the
 * new name (a clash, a keyword) are rename's to give, with the name chosen.
 * The first of probe, probe1, probe2, … the source does not contain, so a
 * program that uses the name itself is not refused for a clash. */
#define PREPARE_PROBE "zq_prepare_rename_probe"

static bool
src_has(const char *src, size_t len, const char *word)
{
	size_t n = strlen(word);
	for (size_t i = 0; src && i + n <= len; i++)
		if (src[i] == word[0] && memcmp(src + i, word, n) == 0)
			return true;
	return false;
}

bool
lsp_rename_probe(LspRename *rn, const Session *s, const LspOcc *o, const char *rev)
{
	memset(rn, 0, sizeof *rn);
	diag_init(&rn->pd, "<prepareRename>", NULL, 0);
	char probe[48];
	snprintf(probe, sizeof probe, "%s", PREPARE_PROBE);
	for (unsigned k = 1; src_has(s->src, s->len, probe); k++)
		snprintf(probe, sizeof probe, "%s%u", PREPARE_PROBE, k);
	if (!o || o->sym < 0 || !lsp_rename_patch(&rn->text, s->S, o, rev, probe))
		return false;
	rn->pd.src = rn->text.data;
	rn->pd.src_len = rn->text.len;
	return patch_parse(&rn->sp, rn->text.data, rn->text.len, &rn->pd) &&
	    patch_plan(&rn->sp, s->m, s->S, s->H, s->src, s->len, rev, &rn->pd, &rn->plan);
}

/* A document checked alone: rename's probe planned, and its candidate
 * verifies and means the same but for the rename (as lsp_rename requires;
 * renaming `main` is planned but the candidate has no entry point). */
static bool
rename_offered(const Session *s, const LspOcc *o, const char *rev, const char *path)
{
	LspRename rn;
	bool ok = lsp_rename_probe(&rn, s, o, rev);
	if (ok) {
		size_t clen;
		char *cand = patch_apply(s->src, s->len, &rn.plan, &clen);
		Session c;
		driver_session_init(&c, path);
		driver_set_source(&c, cand, clen);
		ok = driver_parse(&c) && driver_check(&c) && patch_same_meaning(&rn.sp, &rn.plan, s->S, c.S, &rn.pd);
		driver_session_free(&c);
		free(cand);
	}
	lsp_rename_free(&rn);
	return ok;
}

bool
lsp_local_span(const Session *s, uint32_t off, uint32_t *start, uint32_t *end)
{
	LspLocals L;
	int b = lsp_local_binding(s->S, s->m, off, &L);
	if (b < 0)
		return false;
	bool found = false;
	for (int i = 0; i < L.len && !found; i++)
		if (L.items[i].binding == b && L.items[i].start <= off && off <= L.items[i].end) {
			*start = L.items[i].start;
			*end = L.items[i].end;
			found = true;
		}
	lsp_locals_free(&L);
	return found;
}

void
lsp_put_prepare(Buf *out, const LspDoc *d, const char *src, uint32_t start, uint32_t end)
{
	buf_puts(out, "{\"range\":");
	lsp_put_range(out, d, start, end);
	buf_puts(out, ",\"placeholder\":");
	json_str(out, src + start, end - start);
	buf_putc(out, '}');
}

/*
 * textDocument/prepareRename: the range and text of the name at the position
 * when rename would be planned there (a local by scope; a function, resource,
 * record or case field or variant case of this program through the patch
 * engine), else null: a keyword, a literal, a type, a compiler-owned or
 * builtin name.  A document that does not verify is refused, as rename is.
 */
bool
lsp_prepare_rename(LspReq *r, Buf *out)
{
	if (r->doc->proj)
		return lsp_project_prepare_rename(r, out);
	Session *s;
	LspOccs occs;
	GraphModel *g;
	const LspOcc *o = occ_find(r, &s, &occs, &g);
	if (!s)
		return lsp_fail(r, LSP_E_REQUEST_FAILED, "the document does not verify: rename needs a verified program");
	uint32_t start = 0, end = 0;
	bool ok = (!o || o->sym < 0) && lsp_local_span(s, r->off, &start, &end);
	if (!ok && o && o->sym >= 0 && rename_offered(s, o, svc_file_revision(&r->doc->file), r->doc->file.path)) {
		ok = true;
		start = o->start;
		end = o->end;
	}
	lsp_occs_free(&occs);
	if (ok)
		lsp_put_prepare(out, r->doc, s->src, start, end);
	else
		buf_puts(out, "null");
	return true;
}

/* ---- formatting, symbols, tokens ------------------------------------------------ */

bool
lsp_formatting(LspReq *r, Buf *out)
{
	DiagSink s;
	check_now(r->doc, &s);
	diag_free(&s);
	SvcFile *f = &r->doc->file;
	if (f->parse_failed || !f->sess)
		return lsp_fail(r, LSP_E_REQUEST_FAILED, "the document does not parse: nothing to format");
	Buf b = {0};
	svc_file_settle(f);
	fmt_module(&b, f->sess->m, f->src, f->len);
	if (b.len == f->len && memcmp(b.data, f->src, b.len) == 0) {
		buf_puts(out, "[]");
	} else {
		buf_putc(out, '[');
		Buf t = {0};
		buf_put(&t, b.data, b.len);
		buf_putc(&t, '\0');
		lsp_put_edit(out, r->doc, 0, (uint32_t)f->len, t.data);
		buf_free(&t);
		buf_putc(out, ']');
	}
	buf_free(&b);
	return true;
}

static void
put_symbol(Buf *out, LspDoc *d, const char *name, int kind, Span whole, Span sel, const char *detail)
{
	buf_puts(out, "{\"name\":");
	json_cstr(out, name);
	buf_printf(out, ",\"kind\":%d", kind);
	if (detail) {
		buf_puts(out, ",\"detail\":");
		json_cstr(out, detail);
	}
	buf_puts(out, ",\"range\":");
	lsp_put_range(out, d, whole.start, whole.end);
	buf_puts(out, ",\"selectionRange\":");
	lsp_put_range(out, d, sel.start, sel.end);
}

/* LSP SymbolKind */
enum { SYM_CLASS = 5, SYM_METHOD = 6, SYM_FIELD = 8, SYM_ENUM = 10, SYM_INTERFACE = 11, SYM_FUNCTION = 12,
	SYM_OBJECT = 19, SYM_ENUM_MEMBER = 22, SYM_STRUCT = 23, SYM_MODULE = 2 };

static void
fields_children(Buf *out, LspDoc *d, const FieldDecl *f, int n)
{
	for (int i = 0; i < n; i++) {
		if (i)
			buf_putc(out, ',');
		put_symbol(out, d, f[i].name.s, SYM_FIELD, f[i].span, f[i].name.span, NULL);
		buf_putc(out, '}');
	}
}

bool
lsp_document_symbols(LspReq *r, Buf *out)
{
	DiagSink s;
	check_now(r->doc, &s);
	diag_free(&s);
	SvcFile *f = &r->doc->file;
	if (f->parse_failed || !f->sess) {
		buf_puts(out, "[]");
		return true;
	}
	svc_file_settle(f);
	const Module *m = f->sess->m;
	buf_putc(out, '[');
	for (int i = 0; i < m->ndecls; i++) {
		const Decl *d = &m->decls[i];
		if (i)
			buf_putc(out, ',');
		Buf hd = {0};
		fmt_decl_header(&hd, d);
		buf_putc(&hd, '\0');
		switch (d->kind) {
		case DECL_FN:
			put_symbol(out, r->doc, d->u.fn.name.s, SYM_FUNCTION, d->span, d->u.fn.name.span, hd.data);
			break;
		case DECL_RECORD:
			put_symbol(out, r->doc, d->u.record.name.s, SYM_STRUCT, d->span, d->u.record.name.span, hd.data);
			buf_puts(out, ",\"children\":[");
			fields_children(out, r->doc, d->u.record.fields, d->u.record.nfields);
			buf_putc(out, ']');
			break;
		case DECL_VARIANT:
			put_symbol(out, r->doc, d->u.variant.name.s, SYM_ENUM, d->span, d->u.variant.name.span, hd.data);
			buf_puts(out, ",\"children\":[");
			for (int c = 0; c < d->u.variant.ncases; c++) {
				const CaseDecl *cd = &d->u.variant.cases[c];
				if (c)
					buf_putc(out, ',');
				put_symbol(out, r->doc, cd->name.s, SYM_ENUM_MEMBER, cd->span, cd->name.span, NULL);
				buf_puts(out, ",\"children\":[");
				fields_children(out, r->doc, cd->fields, cd->nfields);
				buf_puts(out, "]}");
			}
			buf_putc(out, ']');
			break;
		case DECL_CLASS:
			put_symbol(out, r->doc, d->u.class_.name.s, SYM_CLASS, d->span, d->u.class_.name.span, hd.data);
			buf_puts(out, ",\"children\":[");
			for (int k = 0; k < d->u.class_.nmembers; k++) {
				const ClassMember *cm = &d->u.class_.members[k];
				if (k)
					buf_putc(out, ',');
				if (cm->is_method)
					put_symbol(out, r->doc, cm->method.name.s, SYM_METHOD, cm->span, cm->method.name.span, NULL);
				else
					put_symbol(out, r->doc, cm->field.name.s, SYM_FIELD, cm->span, cm->field.name.span, NULL);
				buf_putc(out, '}');
			}
			buf_putc(out, ']');
			break;
		case DECL_RESOURCE:
			put_symbol(out, r->doc, d->u.resource.name.s, SYM_OBJECT, d->span, d->u.resource.name.span, hd.data);
			break;
		case DECL_INTERFACE:
			put_symbol(out, r->doc, d->u.interface.name.s, SYM_INTERFACE, d->span, d->u.interface.name.span, hd.data);
			break;
		case DECL_SESSION:
			put_symbol(out, r->doc, d->u.session.name.s ? d->u.session.name.s : "session", SYM_MODULE, d->span,
			    d->u.session.name.span, hd.data);
			break;
		}
		buf_putc(out, '}');
		buf_free(&hd);
	}
	buf_putc(out, ']');
	return true;
}

/* The semantic token legend: indices into these lists. */
static const char *const token_types[] = {
	"keyword", "comment", "string", "number", "function", "method", "struct", "enum", "enumMember",
	"class", "interface", "property", "type", "variable", "decorator",
};
enum { TT_KEYWORD, TT_COMMENT, TT_STRING, TT_NUMBER, TT_FUNCTION, TT_METHOD, TT_STRUCT, TT_ENUM, TT_ENUM_MEMBER,
	TT_CLASS, TT_INTERFACE, TT_PROPERTY, TT_TYPE, TT_VARIABLE, TT_DECORATOR };

/* The compiler-owned type names. */
static const char *const builtin_types[] = {
	"i64", "i32", "u8", "usize", "f32", "f64", "bool", "char", "string", "str", "unit", "Bytes", "Vec", "Map", "Set",
	"Box", "Iter", "Option", "Result", "IterStep", "FnMutI64",
};

static bool
is_builtin_type(const char *s, size_t n)
{
	for (size_t i = 0; i < sizeof builtin_types / sizeof builtin_types[0]; i++)
		if (strlen(builtin_types[i]) == n && memcmp(builtin_types[i], s, n) == 0)
			return true;
	return false;
}

void
lsp_token_legend(Buf *out)
{
	buf_puts(out, "{\"tokenTypes\":[");
	for (size_t i = 0; i < sizeof token_types / sizeof token_types[0]; i++)
		buf_printf(out, "%s\"%s\"", i ? "," : "", token_types[i]);
	buf_puts(out, "],\"tokenModifiers\":[\"declaration\"]}");
}

/* The language's words (contextual keywords: they lex as identifiers). */
static const char *const keywords[] = {
	"as", "borrow", "class", "drop", "effects", "else", "ensures", "false", "fn", "for", "if", "import", "in",
	"interface", "invariant", "let", "match", "module", "mut", "own", "permit", "permits", "record", "requires",
	"resource", "return", "session", "shared", "super", "true", "unsafe", "use", "uses", "variant", "while", "with",
	"function", "type", "from",
};

static bool
is_keyword(const char *s, size_t n)
{
	for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
		if (strlen(keywords[i]) == n && memcmp(keywords[i], s, n) == 0)
			return true;
	return false;
}

static int
occ_type(Sema *S, const LspOcc *o)
{
	if (o->sym < 0)
		return TT_VARIABLE;
	Sym *y = sema_sym(S, o->sym);
	if (o->field >= 0)
		return TT_PROPERTY;
	if (o->ci >= 0)
		return TT_ENUM_MEMBER;
	switch (y->kind) {
	case SK_FN: return TT_FUNCTION;
	case SK_METHOD: case SK_IMPORT: return TT_METHOD;
	case SK_RECORD: return TT_STRUCT;
	case SK_VARIANT: return TT_ENUM;
	case SK_CLASS: return TT_CLASS;
	case SK_INTERFACE: return TT_INTERFACE;
	default: return TT_TYPE;
	}
}

typedef struct Tok {
	uint32_t start, end;
	int type, mods;
} Tok;

static int
cmp_tok(const void *a, const void *b)
{
	const Tok *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

bool
lsp_semantic_tokens(LspReq *r, Buf *out)
{
	LspDoc *doc = r->doc;
	GraphModel *g;
	Session *s = program(r, &g);
	LspOccs occs = {0};
	if (s)
		lsp_occurrences(s->S, s->m, &occs);
	SvcFile *f = &doc->file;
	Arena arena;
	arena_init(&arena);
	DiagSink ds;
	diag_init(&ds, f->path, f->src, f->len);
	LexResult lx;
	memset(&lx, 0, sizeof lx);
	lex_source(&lx, f->src ? f->src : "", f->src ? f->len : 0, &arena, &ds);
	Tok *toks = spx_xmalloc(sizeof *toks * (size_t)(lx.ntoks + lx.ncomments + 1));
	int n = 0;
	int oi = 0;
	for (int i = 0; i < lx.ntoks; i++) {
		const Token *t = &lx.toks[i];
		Tok k = { t->span.start, t->span.end, -1, 0 };
		switch (t->kind) {
		case TOK_STRING: case TOK_CHAR: k.type = TT_STRING; break;
		case TOK_INT: case TOK_FLOAT: k.type = TT_NUMBER; break;
		case TOK_IDENT:
			while (oi < occs.len && occs.items[oi].start < t->span.start)
				oi++;
			if (oi < occs.len && occs.items[oi].start == t->span.start) {
				k.type = occ_type(s->S, &occs.items[oi]);
				k.mods = occs.items[oi].decl ? 1 : 0;
			} else if (i > 0 && lx.toks[i - 1].kind == TOK_AT) {
				k.type = TT_DECORATOR;
			} else if (is_keyword(f->src + t->span.start, t->span.end - t->span.start)) {
				k.type = TT_KEYWORD;
			} else if (is_builtin_type(f->src + t->span.start, t->span.end - t->span.start)) {
				k.type = TT_TYPE;
			} else {
				k.type = TT_VARIABLE;
			}
			break;
		default: break;
		}
		if (k.type >= 0 && k.end > k.start)
			toks[n++] = k;
	}
	for (int i = 0; i < lx.ncomments; i++) {
		Tok k = { lx.comments[i].span.start, lx.comments[i].span.end, TT_COMMENT, 0 };
		toks[n++] = k;
	}
	if (n > 1)
		qsort(toks, (size_t)n, sizeof *toks, cmp_tok);
	buf_puts(out, "{\"data\":[");
	long pl = 0, pc = 0;
	bool first = true;
	for (int i = 0; i < n; i++) {
		long l, c, el, ec;
		lsp_line_col(doc, toks[i].start, &l, &c);
		/* a token spans one line in LSP: clip at the line's end */
		uint32_t end = toks[i].end;
		for (uint32_t e = toks[i].start; e < end; e++)
			if (f->src[e] == '\n' || f->src[e] == '\r') {   /* LSP's line ends: \n, \r\n, \r */
				end = e;
				break;
			}
		lsp_line_col(doc, end, &el, &ec);
		if (ec <= c)
			continue;
		buf_printf(out, "%s%ld,%ld,%ld,%d,%d", first ? "" : ",", l - pl, l == pl ? c - pc : c, ec - c, toks[i].type, toks[i].mods);
		first = false;
		pl = l;
		pc = c;
	}
	buf_puts(out, "]}");
	free(toks);
	lex_free(&lx);
	diag_free(&ds);
	arena_free(&arena);
	lsp_occs_free(&occs);
	return true;
}
