/*
 * lsp_project.c — open files of a project in the LSP server (docs/editors.md,
 * "Projects"): a `.spx` file that a `semaprax.toml` up its directory tree
 * lists among its sources is checked as part of that project, every other
 * open document of the project read as an unsaved overlay
 * instead of the disk.  Its diagnostics are the
 * project check's for that file; hover, definition and references follow a
 * declaration across modules by its identity (declaring module, stable id),
 * the one `use` imports resolve by; rename plans the semantic patch against
 * the declaring module and verifies the whole candidate project.
 *
 * The project is the JSON-RPC service's project product (db_project.c,
 * svc_project_update): a change to an open document re-checks, at the next
 * use, only what it can affect — a body edit that body alone, a signature
 * edit its module and the importers whose interface digest changed — the
 * other open documents held buffers, a closed one read from the disk again.
 * Nothing derived from a check outlives it: the graph models are dropped at
 * each re-check and the occurrences re-derived per request (a carried
 * module keeps its tree, a spliced one has a new one).
 */
#include "lsp_int.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../patch/patch.h"
#include "../support/json.h"

struct LspProj {
	char *manifest;      /* the real path of its semaprax.toml */
	Project *pj;         /* the last check (NULL before the first) */
	bool stale;          /* an open document changed since */
	bool ok;             /* … and it verified */
	GraphModel **gs;     /* per module of pj: its graph model, built on demand */
	/* the files' identities (device, inode) at the last check, per module
	 * and per listed source: a document is matched with one stat() of its
	 * own path, not two per module (hundreds of open documents made each
	 * edit quadratic in stat()s) */
	FileId *mods, *listed;
	int nlisted;
	size_t bytes;        /* the last check's manifest and module sources */
};

/* ---- file identities --------------------------------------------------------- */

struct FileId {
	unsigned long long dev, ino;
	bool ok;             /* the file existed */
};

static FileId
file_id(const char *path)
{
	struct stat st;
	FileId f = { 0, 0, false };
	if (path && stat(path, &st) == 0)
		f = (FileId){ (unsigned long long)st.st_dev, (unsigned long long)st.st_ino, true };
	return f;
}

static bool
same_id(FileId a, FileId b)
{
	return a.ok && b.ok && a.dev == b.dev && a.ino == b.ino;
}

LspProj *
lsp_project_new(const char *manifest)
{
	LspProj *p = spx_xcalloc(1, sizeof *p);
	p->manifest = spx_xstrdup(manifest);
	p->stale = true;
	return p;
}

/* The graph models of the held check (they read its modules' Sema and HIR). */
static void
drop_models(LspProj *p)
{
	if (p->gs)
		for (int k = 0; k < p->pj->P.nmods; k++)
			if (p->gs[k])
				graph_model_free(p->gs[k]);
	free(p->gs);
	p->gs = NULL;
}

void
lsp_project_free(LspProj *p)
{
	if (p->pj) {
		drop_models(p);
		project_free(p->pj);
		free(p->pj);
	}
	free(p->mods);
	free(p->listed);
	free(p->manifest);
	free(p);
}

const char *
lsp_project_manifest(const LspProj *p)
{
	return p->manifest;
}

size_t
lsp_project_bytes(const LspProj *p)
{
	return p->bytes;
}

void
lsp_project_touch(LspProj *p)
{
	p->stale = true;
}

/* The project checked with the open documents of it as overlays: re-checked
 * per module from the held check when touched (recorded into t). */
static bool
ensure(LspProj *p, LspDoc *docs, int ndocs, SvcTrace *t)
{
	if (p->pj && !p->stale) {
		svc_trace_add(t, SVC_REUSED, "project");
		return p->ok;
	}
	if (p->pj)
		drop_models(p);
	ProjectOverlay *ov = spx_xcalloc((size_t)ndocs + 1, sizeof *ov);
	int nov = 0;
	for (int i = 0; i < ndocs; i++)
		if (docs[i].proj) {   /* another project's too: a file two nested manifests list */
			ov[nov].path = docs[i].file.path;
			ov[nov].src = docs[i].file.src ? docs[i].file.src : "";
			ov[nov].len = docs[i].file.src ? docs[i].file.len : 0;
			nov++;
		}
	p->ok = svc_project_update(&p->pj, p->manifest, ov, nov, t);
	p->stale = false;
	free(ov);
	/* a body spliced into a module's kept tree: the HIR an earlier request
	 * lowered is the old tree's (a carried module's stays its own) */
	for (int k = 0; k < p->pj->P.nmods; k++) {
		Session *s = &p->pj->P.mods[k]->s;
		if (p->pj->P.mods[k]->spliced_now && s->H) {
			hir_free(s->H);
			s->H = NULL;
		}
	}
	p->gs = spx_xcalloc((size_t)p->pj->P.nmods + 1, sizeof *p->gs);
	free(p->mods);
	free(p->listed);
	p->listed = NULL;
	p->nlisted = 0;
	p->mods = spx_xcalloc((size_t)p->pj->P.nmods + 1, sizeof *p->mods);
	p->bytes = p->pj->len;
	for (int k = 0; k < p->pj->P.nmods; k++) {
		p->mods[k] = file_id(p->pj->P.mods[k]->s.diags.path);
		p->bytes += p->pj->P.mods[k]->s.len;
	}
	if (p->pj->paths) {
		p->nlisted = p->pj->man.nsources;
		p->listed = spx_xcalloc((size_t)p->nlisted + 1, sizeof *p->listed);
		for (int i = 0; i < p->nlisted; i++)
			p->listed[i] = file_id(p->pj->paths[i]);
	}
	return p->ok;
}

/* Module k of the verified project lowered and its graph model built (once
 * per check), or NULL. */
static GraphModel *
model(LspProj *p, int k)
{
	Session *s = &p->pj->P.mods[k]->s;
	if (!p->ok || (!s->H && !driver_lower(s)))
		return NULL;
	if (!p->gs[k])
		p->gs[k] = graph_model_build(s->S, s->H);
	return p->gs[k];
}

/* path is among the sources of p's last check (by the identities recorded
 * then; a file replaced since, an editor's save by rename, by its path). */
static bool
listed_has(const LspProj *p, const char *path)
{
	FileId f = file_id(path);
	for (int i = 0; i < p->nlisted; i++)
		if (same_id(p->listed[i], f))
			return true;
	for (int i = 0; i < p->nlisted; i++)
		if (project_same_file(p->pj->paths[i], path))
			return true;
	return false;
}

bool
lsp_project_lists(const LspProj *p, const char *path)
{
	/* the manifest did not read: its diagnostics are every file's */
	return !p->listed || listed_has(p, path);
}

bool
lsp_project_reads(const LspProj *p, const char *path)
{
	return p->listed && listed_has(p, path);   /* no check since it was touched: it will be */
}

/* The module whose file is d's, or -1. */
static int
module_of(const LspProj *p, const char *path)
{
	/* the same name first, then the identities recorded at the check (one
	 * stat of path, not two per module on every publish) */
	for (int k = 0; p->pj && k < p->pj->P.nmods; k++)
		if (strcmp(p->pj->P.mods[k]->s.diags.path, path) == 0)
			return k;
	FileId f = file_id(path);
	for (int k = 0; p->pj && p->mods && k < p->pj->P.nmods; k++)
		if (same_id(p->mods[k], f))
			return k;
	/* a file replaced since the check (an editor's save by rename): by path */
	for (int k = 0; p->pj && k < p->pj->P.nmods; k++)
		if (project_same_file(p->pj->P.mods[k]->s.diags.path, path))
			return k;
	return -1;
}

void
lsp_project_diagnostics(LspProj *p, LspDoc *docs, int ndocs, LspDoc *d, SvcTrace *t, Buf *out)
{
	ensure(p, docs, ndocs, t);
	buf_puts(out, "{\"uri\":");
	json_cstr(out, d->uri);
	buf_printf(out, ",\"version\":%ld,\"diagnostics\":[", d->version);
	bool first = true;
	/* the manifest's and the project's own (a missing entry module, …): at
	 * the file's start, they name no place in it */
	for (int i = 0; i < p->pj->diags.items.len; i++) {
		Diag g = p->pj->diags.items.items[i];
		g.has_span = false;
		g.fixes.len = 0;
		if (!first)
			buf_putc(out, ',');
		first = false;
		lsp_put_diag(out, d, &g);
	}
	int k = module_of(p, d->file.path);
	/* a module no open document shows whose diagnostics name no place in
	 * it (its file cannot be read, is not canonical): at the file's start
	 * too, else the project would fail with every open file clean */
	for (int m = 0; m < p->pj->P.nmods; m++) {
		const DiagSink *s = &p->pj->P.mods[m]->s.diags;
		bool shown = m == k, spanless = false;
		for (int i = 0; i < s->items.len && !spanless; i++)
			spanless = !s->items.items[i].has_span;
		for (int i = 0; i < ndocs && !shown && spanless; i++)   /* stat()s only for such a module */
			shown = docs[i].proj == p && same_id(file_id(docs[i].file.path), p->mods[m]);
		for (int i = 0; i < s->items.len && !shown && spanless; i++) {
			Diag g = s->items.items[i];
			if (g.has_span)
				continue;
			g.fixes.len = 0;
			if (!first)
				buf_putc(out, ',');
			first = false;
			lsp_put_diag(out, d, &g);
		}
	}
	if (k >= 0) {
		const DiagSink *s = &p->pj->P.mods[k]->s.diags;
		for (int i = 0; i < s->items.len; i++) {
			if (!first)
				buf_putc(out, ',');
			first = false;
			lsp_put_diag(out, d, &s->items.items[i]);
		}
	}
	buf_puts(out, "]}");
}

const DiagSink *
lsp_project_sink(LspReq *r)
{
	LspProj *p = r->doc->proj;
	SvcTrace t;
	svc_trace_init(&t);
	t.off = true;
	ensure(p, r->docs, r->ndocs, &t);
	int k = module_of(p, r->doc->file.path);
	return k >= 0 ? &p->pj->P.mods[k]->s.diags : &p->pj->diags;
}

/* Has a source of the manifest changed on disk since the held check
 * admitted it (its lstat identity then: a file that was missing and is
 * back, one deleted, one rewritten), other than an open document's file,
 * whose buffer is what counts?  No notification says so (a checkout,
 * another tool), and the answers place their locations in such a file by
 * the bytes read. */
static bool
disk_moved(LspReq *r, const LspProj *p)
{
	const Project *pj = p->pj;
	if (!pj || p->stale || !pj->paths || !pj->st)
		return false;
	for (int i = 0; i < pj->man.nsources; i++) {
		const struct stat *was = &pj->st[i];
		struct stat st;
		bool now = lstat(pj->paths[i], &st) == 0;
		bool same = now ? was->st_ino == st.st_ino && was->st_dev == st.st_dev && was->st_size == st.st_size &&
		                  was->st_mtim.tv_sec == st.st_mtim.tv_sec && was->st_mtim.tv_nsec == st.st_mtim.tv_nsec &&
		                  was->st_ctim.tv_sec == st.st_ctim.tv_sec && was->st_ctim.tv_nsec == st.st_ctim.tv_nsec
		                : was->st_ino == 0;
		if (same)
			continue;
		bool open = false;
		for (int k = 0; k < r->ndocs && !open; k++)
			open = r->docs[k].proj && project_same_file(r->docs[k].file.path, pj->paths[i]);
		if (!open)
			return true;
	}
	return false;
}

Session *
lsp_project_session(LspReq *r, GraphModel **g)
{
	LspProj *p = r->doc->proj;
	if (disk_moved(r, p)) {
		lsp_project_touch(p);
		r->reread = true;
	}
	*g = NULL;
	SvcTrace t;
	svc_trace_init(&t);
	t.off = true;
	bool ok = ensure(p, r->docs, r->ndocs, &t);
	int k = ok ? module_of(p, r->doc->file.path) : -1;
	if (k < 0 || !(*g = model(p, k)))
		return NULL;
	return &p->pj->P.mods[k]->s;
}

/* ---- identity across modules ------------------------------------------------ */

/* The module that declares what o names (a `use` import records it). */
static const char *
occ_module(Sema *S, const LspOcc *o)
{
	const Sym *y = sema_sym(S, o->sym);
	return y->origin ? y->origin : S->module_name;
}

/* The declaration o (of module k) names: its module and symbol there. */
static bool
target(LspProj *p, int k, const LspOcc *o, int *tk, LspOcc *t)
{
	Sema *S = p->pj->P.mods[k]->s.S;
	*t = *o;
	*tk = k;
	if (o->sym < 0)
		return false;
	const Sym *y = sema_sym(S, o->sym);
	if (!y->origin)
		return true;
	ProgHandle h;
	if (!driver_program_lookup(&p->pj->P, y->origin, y->id, &h))
		return false;
	*tk = (int)h.mod;
	t->sym = h.sym;
	return true;
}

static LspDoc *
open_doc(LspReq *r, const char *path)
{
	for (int i = 0; i < r->ndocs; i++)
		if (r->docs[i].proj == r->doc->proj && project_same_file(r->docs[i].file.path, path))
			return &r->docs[i];
	return NULL;
}

/* The URI of a file that is not open: file:// and its path, percent-encoded. */
static void
put_file_uri(Buf *out, const char *path)
{
	Buf u = {0};
	buf_puts(&u, "file://");
	for (const unsigned char *c = (const unsigned char *)path; *c; c++) {
		if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || strchr("-._~/", *c))
			buf_putc(&u, (char)*c);
		else
			buf_printf(&u, "%%%02X", *c);
	}
	json_str(out, u.data, u.len);
	buf_free(&u);
}

/* Does the file at path hold exactly src[0..len)? */
static bool
disk_holds(const char *path, const char *src, size_t len)
{
	DiagSink d;
	diag_init(&d, path, NULL, 0);
	size_t n;
	char *disk = driver_read_source(path, &n, &d);
	diag_free(&d);
	bool same = disk && n == len && (len == 0 || memcmp(disk, src, len) == 0);
	free(disk);
	return same;
}

/* A position table for module k's text: its open document, or a scratch
 * one over the module's source (release with scratch_free). */
static LspDoc *
doc_for(LspReq *r, int k, LspDoc *scratch)
{
	Session *s = &r->doc->proj->pj->P.mods[k]->s;
	LspDoc *d = open_doc(r, s->diags.path);
	if (d)
		return d;
	memset(scratch, 0, sizeof *scratch);
	scratch->file.src = s->src;
	scratch->file.len = s->len;
	scratch->utf8 = r->doc->utf8;
	lsp_doc_lines(scratch);
	return NULL;
}

static void
put_location(Buf *out, LspReq *r, int k, uint32_t s, uint32_t e)
{
	LspDoc scratch;
	LspDoc *d = doc_for(r, k, &scratch);
	buf_puts(out, "{\"uri\":");
	if (d)
		json_cstr(out, d->uri);
	else
		put_file_uri(out, r->doc->proj->pj->P.mods[k]->s.diags.path);
	buf_puts(out, ",\"range\":");
	lsp_put_range(out, d ? d : &scratch, s, e);
	buf_putc(out, '}');
	if (!d)
		free(scratch.lines);
}

/* The declaration an import of r's (unverified) document names: the `use`
 * line whose alias is the word w[0..n) resolved through its stable id in
 * the provider module of the project's last check, which parsed it; NULL
 * when there is none.  *k: the provider's module. */
const Decl *
lsp_project_import_decl(LspReq *r, const Module *m, const char *src, const char *w, size_t n, int *k)
{
	(void)src;
	LspProj *p = r->doc->proj;
	if (!p || !p->pj || !m)
		return NULL;
	for (int i = 0; i < m->nuses; i++) {
		const UseDecl *u = &m->uses[i];
		if (!u->alias.s || strlen(u->alias.s) != n || memcmp(u->alias.s, w, n) != 0)
			continue;
		char *name = ast_qname_text(&u->from);   /* its parts, not src's text between them */
		ModuleId t = driver_program_find(&p->pj->P, name);
		free(name);
		if (t == DRIVER_NO_MODULE)
			return NULL;
		const Module *pm = p->pj->P.mods[t]->s.m;
		for (int j = 0; pm && j < pm->ndecls; j++) {
			const Decl *d = &pm->decls[j];
			if (d->id.present && d->id.value.len == u->id.len && memcmp(d->id.value.s, u->id.s, u->id.len) == 0) {
				*k = (int)t;
				return d;
			}
		}
		return NULL;
	}
	return NULL;
}

void
lsp_project_put_location(Buf *out, LspReq *r, int k, uint32_t s, uint32_t e)
{
	put_location(out, r, k, s, e);
}

const char *
lsp_project_module_name(LspReq *r, int k)
{
	return r->doc->proj->pj->P.mods[k]->name;
}

/* The verified module of r's document, its occurrences and the one at the
 * request's offset (NULL: none); false when the project does not verify. */
static bool
here(LspReq *r, int *k, LspOccs *occs, const LspOcc **o)
{
	GraphModel *g;
	Session *s = lsp_project_session(r, &g);
	memset(occs, 0, sizeof *occs);
	*o = NULL;
	if (!s)
		return false;
	*k = module_of(r->doc->proj, r->doc->file.path);
	lsp_occurrences(s->S, s->m, occs);
	*o = lsp_occ_at(occs, r->off);
	return true;
}

bool
lsp_project_hover(LspReq *r, Buf *out)
{
	int k;
	LspOccs occs;
	const LspOcc *o;
	if (!here(r, &k, &occs, &o))
		return lsp_unverified_answer(r, out, true);
	if (!o) {
		buf_puts(out, "null");
		lsp_occs_free(&occs);
		return true;
	}
	LspProj *p = r->doc->proj;
	int tk = k;
	LspOcc t = *o;
	if (o->sym >= 0 && !target(p, k, o, &tk, &t)) {
		tk = k;
		t = *o;
	}
	GraphModel *tg = model(p, tk);
	if (!tg) {   /* (the project verified: its modules lower) */
		tk = k;
		t = *o;
		tg = p->gs[k];
	}
	Buf h = {0};
	lsp_hover_text(&h, &p->pj->P.mods[tk]->s, tg, &t);
	if (tk != k)
		buf_printf(&h, "\nimported from `%s`\n", p->pj->P.mods[tk]->name);
	lsp_put_hover(out, r->doc, &h, o->start, o->end);
	buf_free(&h);
	lsp_occs_free(&occs);
	return true;
}

bool
lsp_project_definition(LspReq *r, Buf *out)
{
	int k;
	LspOccs occs;
	const LspOcc *o;
	if (!here(r, &k, &occs, &o))
		return lsp_unverified_answer(r, out, false);
	LspProj *p = r->doc->proj;
	int tk;
	LspOcc t;
	const LspOcc *def = NULL;
	LspOccs tocc = {0};
	if (o && o->sym < 0) {
		/* a local: its binding, as in a single file */
		def = lsp_occ_decl(&occs, o);
		tk = k;
	} else if (o && target(p, k, o, &tk, &t)) {
		Session *ts = &p->pj->P.mods[tk]->s;
		lsp_occurrences(ts->S, ts->m, &tocc);
		def = lsp_occ_decl(&tocc, &t);
	}
	if (def)
		put_location(out, r, tk, def->start, def->end);
	else
		buf_puts(out, "null");
	lsp_occs_free(&tocc);
	lsp_occs_free(&occs);
	return true;
}

bool
lsp_project_references(LspReq *r, Buf *out)
{
	bool with_decl = lsp_refs_with_decl(r);
	int k;
	LspOccs occs;
	const LspOcc *o;
	if (!here(r, &k, &occs, &o) || !o) {
		buf_puts(out, "null");
		lsp_occs_free(&occs);
		return true;
	}
	LspProj *p = r->doc->proj;
	Sema *S = p->pj->P.mods[k]->s.S;
	const char *id = lsp_occ_id(S, o);
	buf_putc(out, '[');
	if (!id) {   /* a local has no stable identity */
		buf_putc(out, ']');
		lsp_occs_free(&occs);
		return true;
	}
	/* (declaring module, stable id): every module in ModuleId order, each
	 * in source order */
	char *mod = spx_xstrdup(occ_module(S, o)), *sid = spx_xstrdup(id);
	lsp_occs_free(&occs);
	bool first = true;
	for (int m = 0; m < p->pj->P.nmods; m++) {
		Session *ms = &p->pj->P.mods[m]->s;
		LspOccs mo;
		memset(&mo, 0, sizeof mo);
		lsp_occurrences(ms->S, ms->m, &mo);
		for (int i = 0; i < mo.len; i++) {
			const LspOcc *x = &mo.items[i];
			if (x->sym < 0 || (x->decl && !with_decl) || strcmp(lsp_occ_id(ms->S, x), sid) != 0 ||
			    strcmp(occ_module(ms->S, x), mod) != 0)
				continue;
			if (!first)
				buf_putc(out, ',');
			first = false;
			put_location(out, r, m, x->start, x->end);
		}
		lsp_occs_free(&mo);
	}
	buf_putc(out, ']');
	free(mod);
	free(sid);
	return true;
}

/* ---- rename ------------------------------------------------------------------ */

/* The first module (or the project) of a failed candidate with an error. */
static const DiagSink *
first_errors(const Project *c)
{
	if (c->diags.errors)
		return &c->diags;
	for (int m = 0; m < c->P.nmods; m++)
		if (c->P.mods[m]->s.diags.errors)
			return &c->P.mods[m]->s.diags;
	return &c->diags;
}

/* A renamed candidate project that does not verify: its first error with
 * its place; when that lies in another module than the declaring one (a
 * field or case that module names by its name: the edit changes the
 * declaring module only), the way on: a project transaction. */
static void
candidate_refused(LspReq *r, const Project *c, const char *decl_path)
{
	const DiagSink *d = first_errors(c);
	if (!d->items.len) {
		lsp_fail(r, LSP_E_REQUEST_FAILED, "the renamed project does not verify");
		return;
	}
	const Diag *g = &d->items.items[0];
	bool other = d != &c->diags && d->path && !project_same_file(d->path, decl_path);
	lsp_fail(r, LSP_E_REQUEST_FAILED, "the renamed project does not verify: %s: %.100s at %.80s:%u:%u%s", diag_info[g->code].code, g->message,
	    d->path ? d->path : "?", g->line, g->col,
	    other ? "; help: rename edits the declaring module only; change both modules in one project transaction (docs/PATCH.md)" : "");
}

/* The candidate project: module tk's text cand, every other open document
 * of it as its overlay; the candidate's module tk, or DRIVER_NO_MODULE when
 * it does not verify (c to be freed either way). */
static ModuleId
check_candidate(LspReq *r, LspProj *p, Session *ts, int tk, const char *cand, size_t clen, Project *c)
{
	ProjectOverlay *ov = spx_xcalloc((size_t)r->ndocs + 2, sizeof *ov);
	int nov = 0;
	for (int i = 0; i < r->ndocs; i++)
		if (r->docs[i].proj && !project_same_file(r->docs[i].file.path, ts->diags.path)) {
			ov[nov].path = r->docs[i].file.path;
			ov[nov].src = r->docs[i].file.src ? r->docs[i].file.src : "";
			ov[nov].len = r->docs[i].file.src ? r->docs[i].file.len : 0;
			nov++;
		}
	ov[nov].path = ts->diags.path;
	ov[nov].src = cand;
	ov[nov].len = clen;
	nov++;
	bool verified = project_check_overlay(c, p->manifest, ov, nov);
	free(ov);
	return verified ? driver_program_find(&c->P, p->pj->P.mods[tk]->name) : DRIVER_NO_MODULE;
}

/* A rename's WorkspaceEdit: plan's edits of module tk. */
static void
put_edits(Buf *out, LspReq *r, int tk, Session *ts, const PatchPlan *plan)
{
	LspDoc scratch;
	LspDoc *d = doc_for(r, tk, &scratch);
	buf_puts(out, "{\"documentChanges\":[{\"textDocument\":{\"uri\":");
	if (d) {
		json_cstr(out, d->uri);
		buf_printf(out, ",\"version\":%ld},\"edits\":[", d->version);
	} else {
		put_file_uri(out, ts->diags.path);
		buf_puts(out, ",\"version\":null},\"edits\":[");
	}
	for (int i = 0; i < plan->edits.len; i++) {
		if (i)
			buf_putc(out, ',');
		lsp_put_edit(out, d ? d : &scratch, plan->edits.items[i].start, plan->edits.items[i].end, plan->edits.items[i].text);
	}
	buf_puts(out, "]}]}");
	if (!d)
		free(scratch.lines);
}

/* A local's rename in module k (the request's open document): by scope, as
 * in a file checked alone (lsp_feat.c); the candidate project must verify
 * and the module resolve every name as before. */
static bool
rename_local(LspReq *r, int k, const LspLocals *L, int b, const char *name, const char *rev, Buf *out)
{
	LspProj *p = r->doc->proj;
	Session *ks = &p->pj->P.mods[k]->s;
	driver_program_revision(&p->pj->P);
	if (rev && strcmp(rev, ks->revision) != 0)
		return lsp_fail(r, LSP_E_CONTENT_MODIFIED, "stale rename refused: the module is no longer at revision %.80s", rev);
	PatchPlan plan;
	if (!lsp_local_edits(r, L, b, ks->src, name, &plan))
		return false;
	size_t clen;
	char *cand = patch_apply(ks->src, ks->len, &plan, &clen);
	Project c;
	ModuleId ck = check_candidate(r, p, ks, k, cand, clen, &c);
	bool done = false;
	if (ck == DRIVER_NO_MODULE) {
		candidate_refused(r, &c, ks->diags.path);
	} else {
		LspLocals after = {0};
		lsp_locals(c.P.mods[ck]->s.S, c.P.mods[ck]->s.m, &after);
		if (!lsp_locals_same(L, &after))
			lsp_fail(r, LSP_E_REQUEST_FAILED, "the rename changes meaning: `%.100s` would name another binding or "
			    "declaration where it is used, or a use would read another", name);
		else
			done = true, put_edits(out, r, k, ks, &plan);
		lsp_locals_free(&after);
	}
	project_free(&c);
	free(cand);
	patch_plan_free(&plan);
	return done;
}

/*
 * Rename in a project: the semantic patch is planned against the module
 * that declares the target (reached from an import by its stable id) and
 * its module revision; other modules name it by stable id under their own
 * alias, so only that module's text changes.  The candidate project (that
 * module patched, every other open document as its overlay) must verify,
 * and the declaring module must mean the same but for the rename.
 */
bool
lsp_project_rename(LspReq *r, const char *name, const char *rev, Buf *out)
{
	int k;
	LspOccs occs;
	const LspOcc *o;
	/* the edits of a file that is not open are applied by the editor to the
	 * disk's bytes, and no notification says when those change (a checkout,
	 * another tool): the project is re-read first (unchanged files are not,
	 * by their identity), so the rename is planned against the disk now */
	lsp_project_touch(r->doc->proj);
	r->reread = true;
	if (!here(r, &k, &occs, &o)) {
		lsp_occs_free(&occs);
		return lsp_fail(r, LSP_E_REQUEST_FAILED, "the project does not verify (open documents count with their unsaved text): "
		    "rename needs a verified program");
	}
	LspProj *p = r->doc->proj;
	if (!o || o->sym < 0) {
		/* a local binding or a use of one: renamed by scope */
		LspLocals L;
		Session *ks = &p->pj->P.mods[k]->s;
		int b = lsp_local_binding(ks->S, ks->m, r->off, &L);
		if (b >= 0) {
			lsp_occs_free(&occs);
			bool done = rename_local(r, k, &L, b, name, rev, out);
			lsp_locals_free(&L);
			return done;
		}
	}
	int tk = k;
	LspOcc t;
	bool found = o && o->sym >= 0 && target(p, k, o, &tk, &t);
	bool none = !o, local = o && o->sym < 0;
	lsp_occs_free(&occs);
	Session *ts = &p->pj->P.mods[tk]->s;
	driver_program_revision(&p->pj->P);   /* pending after a body re-checked in place */
	LspRename rn;
	bool done = false;
	if (lsp_rename_plan(r, &rn, ts, found ? &t : NULL, none, local, rev ? rev : ts->revision, ts->revision, name)) {
		size_t clen;
		char *cand = patch_apply(ts->src, ts->len, &rn.plan, &clen);
		Project c;
		ModuleId ck = check_candidate(r, p, ts, tk, cand, clen, &c);
		if (ck == DRIVER_NO_MODULE) {
			candidate_refused(r, &c, ts->diags.path);
		} else if (!patch_same_meaning(&rn.sp, &rn.plan, ts->S, c.P.mods[ck]->s.S, &rn.pd)) {
			lsp_first_diag(r, LSP_E_REQUEST_FAILED, "the rename changes meaning", &rn.pd);
		} else if (!open_doc(r, ts->diags.path) && !disk_holds(ts->diags.path, ts->src, ts->len)) {
			/* the last check of a file not open: its bytes, which the edits'
			 * positions are in, must still be the disk's (a change the
			 * identity check could not see, or one made meanwhile) */
			lsp_fail(r, LSP_E_CONTENT_MODIFIED, "stale rename refused: %s changed on disk since it was read; retry",
			    ts->diags.path);
		} else {
			done = true;
			put_edits(out, r, tk, ts, &rn.plan);
		}
		project_free(&c);
		free(cand);
	}
	lsp_rename_free(&rn);
	return done;
}

/* prepareRename in a project (lsp_prepare_rename): a local of the module, or
 * a declaration whose rename the patch engine would plan in the module that
 * declares it; the range is the name in the request's document. */
bool
lsp_project_prepare_rename(LspReq *r, Buf *out)
{
	int k;
	LspOccs occs;
	const LspOcc *o;
	if (!here(r, &k, &occs, &o)) {
		lsp_occs_free(&occs);
		return lsp_fail(r, LSP_E_REQUEST_FAILED, "the project does not verify (open documents count with their unsaved text): "
		    "rename needs a verified program");
	}
	LspProj *p = r->doc->proj;
	Session *ks = &p->pj->P.mods[k]->s;
	uint32_t start = 0, end = 0;
	bool ok = (!o || o->sym < 0) && lsp_local_span(ks, r->off, &start, &end);
	int tk = k;
	LspOcc t;
	if (!ok && o && o->sym >= 0 && target(p, k, o, &tk, &t)) {
		Session *ts = &p->pj->P.mods[tk]->s;
		driver_program_revision(&p->pj->P);   /* pending after a body re-checked in place */
		LspRename rn;
		if (lsp_rename_probe(&rn, ts, &t, ts->revision)) {
			/* as rename: the candidate project verifies, the module means the same */
			size_t clen;
			char *cand = patch_apply(ts->src, ts->len, &rn.plan, &clen);
			Project c;
			ModuleId ck = check_candidate(r, p, ts, tk, cand, clen, &c);
			ok = ck != DRIVER_NO_MODULE && patch_same_meaning(&rn.sp, &rn.plan, ts->S, c.P.mods[ck]->s.S, &rn.pd);
			project_free(&c);
			free(cand);
		}
		lsp_rename_free(&rn);
		if (ok) {
			start = o->start;
			end = o->end;
		}
	}
	lsp_occs_free(&occs);
	if (ok)
		lsp_put_prepare(out, r->doc, ks->src, start, end);
	else
		buf_puts(out, "null");
	return true;
}
