/*
 * db.c — the incremental product database of one source file (issue 17
 * item 1; docs/service.md, "Products").
 *
 * Products, each recomputed only when an input it read changed:
 *
 *   parse        reads the source bytes; its value is the item table: per
 *                top-level declaration a key, a signature digest, a digest
 *                of its whole text and the words it mentions, plus a digest
 *                of the syntax between declarations (module line, `use`,
 *                `permit`; comments and whitespace excluded).  A re-parse
 *                whose table equals the old one is backdated: nothing below
 *                runs (a comment or blank line between declarations).
 *   resolve      the checker's declaration pass (collect, resolve
 *                signatures, type, resource, interface and entry checks);
 *                runs whenever a body product must run, or the set of
 *                declarations or any signature changed.
 *   body:<key>   one function's (or class's) body check — contracts,
 *                effects, ownership; reads its own text and the signature
 *                of every name its text mentions (a generic function's whole
 *                text: its callers' instances read its body).  A change to
 *                a type, class, interface, resource or the module line
 *                re-runs every body (the rule that keeps it sound), and so
 *                does any re-check of a module with a generic function
 *                (its instances are a whole-module property: T225, T235).
 *   revision     the graph revision (canonical text without comments).
 *   program      the full check, HIR lowering and validation of the module,
 *                and graph, the semantic model over it (graph, context,
 *                query): whole-module products keyed by the source bytes.
 *
 * A body product's value is its diagnostics, stored relative to its
 * declaration's start and re-placed when the declaration moves.  The
 * reduced check is real: sema_check_select checks only the selected
 * bodies.
 */
#include "svc_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../fmt/fmt.h"
#include "../support/json.h"
#include "../support/sha256.h"

/* ==== trace ==================================================================== */

void
svc_trace_init(SvcTrace *t)
{
	memset(t, 0, sizeof *t);
}

void
svc_trace_free(SvcTrace *t)
{
	buf_free(&t->executed);
	buf_free(&t->reused);
	buf_free(&t->backdated);
}

void
svc_trace_add(SvcTrace *t, int which, const char *fmt, ...)
{
	if (t->off)
		return;
	char name[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(name, sizeof name, fmt, ap);
	va_end(ap);
	Buf *b = which == SVC_EXECUTED ? &t->executed : which == SVC_REUSED ? &t->reused : &t->backdated;
	int *n = which == SVC_EXECUTED ? &t->nexecuted : which == SVC_REUSED ? &t->nreused : &t->nbackdated;
	if ((*n)++)
		buf_putc(b, ',');
	json_cstr(b, name);
}

void
svc_trace_json(Buf *out, const SvcTrace *t)
{
	buf_puts(out, "{\"executed\":[");
	buf_put(out, t->executed.data ? t->executed.data : "", t->executed.len);
	buf_puts(out, "],\"reused\":[");
	buf_put(out, t->reused.data ? t->reused.data : "", t->reused.len);
	buf_puts(out, "],\"backdated\":[");
	buf_put(out, t->backdated.data ? t->backdated.data : "", t->backdated.len);
	buf_puts(out, "]}");
}

/* ==== cached diagnostics ======================================================= */

static void
diags_clear(SvcDiags *d)
{
	for (int i = 0; i < d->len; i++) {
		SvcDiag *x = &d->items[i];
		free(x->message);
		free(x->help);
		free(x->note);
		for (int k = 0; k < x->nfixes; k++)
			free(x->fixes[k].text);
		free(x->fixes);
	}
	free(d->items);
	d->items = NULL;
	d->len = 0;
}

/* Appends diagnostic src, its offsets made relative to base (owner's start). */
static void
diags_add(SvcDiags *d, const Diag *src, int owner, uint32_t base)
{
	d->items = spx_xrealloc(d->items, sizeof *d->items * (size_t)(d->len + 1));
	SvcDiag *x = &d->items[d->len++];
	memset(x, 0, sizeof *x);
	x->code = src->code;
	x->message = spx_xstrdup(src->message ? src->message : "");
	x->help = src->help ? spx_xstrdup(src->help) : NULL;
	x->note = src->note ? spx_xstrdup(src->note) : NULL;
	x->has_span = src->has_span;
	x->owner = owner;
	if (src->has_span) {
		x->start = src->span.start - base;
		x->end = src->span.end - base;
	}
	if (src->fixes.len) {
		x->fixes = spx_xcalloc((size_t)src->fixes.len, sizeof *x->fixes);
		for (int k = 0; k < src->fixes.len; k++) {
			const DiagFix *f = &src->fixes.items[k];
			x->fixes[k].start = f->start - base;
			x->fixes[k].end = f->end - base;
			x->fixes[k].text = spx_xstrdup(f->text ? f->text : "");
		}
		x->nfixes = src->fixes.len;
	}
}

/* Reports cached diagnostics into out, placed at base (their owner's start now). */
static void
diags_emit(DiagSink *out, const SvcDiags *d, const SvcFile *f)
{
	for (int i = 0; i < d->len; i++) {
		const SvcDiag *x = &d->items[i];
		uint32_t base = x->owner >= 0 && x->owner < f->nitems ? f->items[x->owner].start : 0;
		Span sp = { base + x->start, base + x->end };
		Diag *g = diag_report(out, x->code, x->has_span ? &sp : NULL, "%s", x->message);
		if (!g)
			continue;
		if (x->help)
			diag_set_help(g, "%s", x->help);
		if (x->note)
			diag_set_note(g, "%s", x->note);
		for (int k = 0; k < x->nfixes; k++)
			diag_add_fix(g, base + x->fixes[k].start, base + x->fixes[k].end, x->fixes[k].text);
	}
}

/* ==== the item table =========================================================== */

static const char *const kind_word[] = { "fn", "record", "variant", "class", "resource", "interface", "session" };

static const char *
decl_name(const Decl *d)
{
	const Name *n = ast_decl_name(d);
	return n && n->s ? n->s : "";
}

Span
svc_decl_name_span(const Decl *d)
{
	const Name *n = ast_decl_name(d);
	return n ? n->span : d->span;
}

static void
digest(const char *s, size_t n, unsigned char out[32])
{
	Sha256 h;
	sha256_init(&h);
	sha256_update(&h, s, n);
	sha256_final(&h, out);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* String equality, first by identity (a lent key or name is the same pointer). */
static bool
str_eq(const char *a, const char *b)
{
	return a == b || strcmp(a, b) == 0;
}

static bool
word_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool
word_char(char c)
{
	return word_start(c) || (c >= '0' && c <= '9');
}

/* The words of s[0..n), sorted and unique (an over-approximation of the
 * names a declaration reads: strings and comments count too). */
static void
words(SvcItem *it, const char *s, size_t n)
{
	int cap = 0;
	for (size_t i = 0; i < n;) {
		if (!word_start(s[i]) || (i > 0 && word_char(s[i - 1]))) {
			i++;
			continue;
		}
		size_t j = i;
		while (j < n && word_char(s[j]))
			j++;
		if (it->ndeps == cap) {
			cap = cap ? cap * 2 : 16;
			it->deps = spx_xrealloc(it->deps, sizeof *it->deps * (size_t)cap);
		}
		it->deps[it->ndeps++] = spx_xstrndup(s + i, j - i);
		i = j;
	}
	if (it->ndeps > 1)
		qsort(it->deps, (size_t)it->ndeps, sizeof *it->deps, cmp_str);
	int w = 0;
	for (int i = 0; i < it->ndeps; i++) {
		if (w && strcmp(it->deps[w - 1], it->deps[i]) == 0)
			free(it->deps[i]);
		else
			it->deps[w++] = it->deps[i];
	}
	it->ndeps = w;
}

static void
item_free(SvcItem *it)
{
	if (!it->key_lent)
		free(it->key);
	if (!it->name_lent)
		free(it->name);
	for (int i = 0; i < it->ndeps; i++)
		free(it->deps[i]);
	free(it->deps);
	free(it->canon);
	diags_clear(&it->diags);
}

static void
items_free(SvcItem *items, int n)
{
	for (int i = 0; i < n; i++)
		item_free(&items[i]);
	free(items);
}

/* An item table's names and keys, sorted, for lookups by binary search. */
typedef struct Ent {
	const char *s;
	int i;
} Ent;

typedef struct Index {
	const SvcItem *items;
	int n;
	Ent *by_name, *by_key;
} Index;

static int
cmp_ent(const void *a, const void *b)
{
	const Ent *x = a, *y = b;
	int c = strcmp(x->s, y->s);
	return c ? c : (x->i > y->i) - (x->i < y->i);
}

/* The item table of a parsed module, and the digest of the syntax between
 * its declarations (comments and whitespace left out). */
/* What the last parse's table can lend to the next one: the bytes before
 * `prefix` and from `suffix` bytes before the end are unchanged, the rest
 * shifted by delta; a declaration wholly inside them has the same text, so
 * its digests and words are copied rather than recomputed. */
typedef struct Reuse {
	SvcItem *old;
	int nold;
	size_t prefix, suffix, len;
	int64_t delta;
} Reuse;

/* The old item with item i's text unchanged (same place, or shifted past
 * the edit by delta), or NULL. */
static SvcItem *
reusable(const Reuse *r, int i, const Decl *d)
{
	if (!r || i >= r->nold)
		return NULL;
	SvcItem *o = &r->old[i];
	if ((int)d->kind != o->kind)
		return NULL;
	if (d->span.end <= r->prefix)
		return o->start == d->span.start && o->end == d->span.end ? o : NULL;
	if (d->span.start >= r->len - r->suffix)
		return (int64_t)o->start + r->delta == (int64_t)d->span.start &&
		    (int64_t)o->end + r->delta == (int64_t)d->span.end ? o : NULL;
	return NULL;
}

static SvcItem *
build_items(const Module *m, const char *src, size_t len, unsigned char header[32], int *nout, const Reuse *r)
{
	SvcItem *items = spx_xcalloc((size_t)(m->ndecls ? m->ndecls : 1), sizeof *items);
	for (int i = 0; i < m->ndecls; i++) {
		const Decl *d = &m->decls[i];
		SvcItem *it = &items[i];
		const char *name = decl_name(d);
		it->kind = (int)d->kind;
		SvcItem *o = reusable(r, i, d);
		if (o && !o->name_lent) {   /* the same bytes: the same name */
			it->name = o->name;   /* lent: the old table still reads it */
			o->name_lent = true;
		} else {
			it->name = spx_xstrdup(name);
			o = NULL;
		}
		it->start = d->span.start;
		it->end = d->span.end;
		Span ns = svc_decl_name_span(d);
		it->name_start = ns.start;
		it->name_end = ns.end;
		it->has_body = d->kind == DECL_FN || d->kind == DECL_CLASS;
		if (o) {
			/* the same text: the same digests and words (moved, not copied) */
			memcpy(it->all, o->all, 32);
			memcpy(it->sig, o->sig, 32);
			it->separable = o->separable;
			it->generic = o->generic;
			it->deps = o->deps;
			it->ndeps = o->ndeps;
			o->deps = NULL;
			o->ndeps = 0;
			it->canon = o->canon;
			it->ncanon = o->ncanon;
			o->canon = NULL;
			it->prelude = o->prelude;
			it->prelude_ok = o->prelude_ok;
			continue;
		}
		digest(src + it->start, it->end - it->start, it->all);
		it->separable = d->kind == DECL_FN && d->u.fn.ntparams == 0 && d->u.fn.body;
		it->generic = d->kind == DECL_FN && d->u.fn.ntparams > 0;
		if (it->separable)
			digest(src + it->start, d->u.fn.body->span.start - it->start, it->sig);
		else
			memcpy(it->sig, it->all, 32);
		words(it, src + it->start, it->end - it->start);
	}
	/* keys: kind:name, and #k on the k-th declaration of the same kind and
	 * name — a function of the (kind, name) sequence, so an unchanged
	 * sequence keeps the old keys */
	bool same_seq = r && r->nold == m->ndecls;
	for (int i = 0; same_seq && i < m->ndecls; i++)
		same_seq = r->old[i].kind == items[i].kind && str_eq(r->old[i].name, items[i].name);
	if (same_seq) {
		for (int i = 0; i < m->ndecls; i++) {
			if (r->old[i].key_lent) {
				items[i].key = spx_xstrdup(r->old[i].key);
			} else {
				items[i].key = r->old[i].key;   /* lent, as the names */
				r->old[i].key_lent = true;
			}
		}
		goto header;
	}
	Ent *by_name = spx_xmalloc(sizeof(Ent) * (size_t)(m->ndecls ? m->ndecls : 1));
	for (int i = 0; i < m->ndecls; i++)
		by_name[i] = (Ent){ items[i].name, i };
	if (m->ndecls > 1)
		qsort(by_name, (size_t)m->ndecls, sizeof(Ent), cmp_ent);
	for (int g = 0; g < m->ndecls;) {
		int e = g;
		while (e < m->ndecls && strcmp(by_name[e].s, by_name[g].s) == 0)
			e++;
		int seen[8] = { 0 };
		for (int k = g; k < e; k++) {
			SvcItem *it = &items[by_name[k].i];
			int repeat = ++seen[it->kind & 7];
			char key[600];
			if (repeat > 1)
				snprintf(key, sizeof key, "%s:%.500s#%d", kind_word[it->kind], it->name, repeat);
			else
				snprintf(key, sizeof key, "%s:%.500s", kind_word[it->kind], it->name);
			it->key = spx_xstrdup(key);
		}
		g = e;
	}
	free(by_name);
header:;
	Sha256 h;
	sha256_init(&h);
	int c = 0;
	uint32_t at = 0;
	char chunk[256];
	size_t nchunk = 0;
	for (int i = 0; i <= m->ndecls; i++) {
		uint32_t end = i < m->ndecls ? m->decls[i].span.start : (uint32_t)len;
		for (uint32_t p = at; p < end; p++) {
			while (c < m->ncomments && m->comments[c].span.end <= p)
				c++;
			if (c < m->ncomments && m->comments[c].span.start <= p)
				continue;
			char ch = src[p];
			if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r')
				continue;
			if (nchunk == sizeof chunk) {
				sha256_update(&h, chunk, nchunk);
				nchunk = 0;
			}
			chunk[nchunk++] = ch;
		}
		if (i < m->ndecls)
			at = m->decls[i].span.end;
	}
	sha256_update(&h, chunk, nchunk);
	sha256_final(&h, header);
	*nout = m->ndecls;
	return items;
}

/* ==== the file ================================================================= */

void
svc_file_init(SvcFile *f, const char *path)
{
	memset(f, 0, sizeof *f);
	f->path = spx_xstrdup(path);
	f->verify_splice = getenv("SPX_SERVICE_VERIFY_SPLICE") != NULL;
}

static void
drop_program(SvcFile *f)
{
	if (f->g)
		graph_model_free(f->g);
	f->g = NULL;
	if (f->prog) {
		driver_program_free(f->prog);
		free(f->prog);
	}
	f->prog = NULL;
	f->psess = NULL;
	f->have_program = false;
	f->prog_ok = false;
}

static void
drop_session(SvcFile *f)
{
	sema_free(f->S);   /* before the tree: it holds the tail of the tree's arena */
	f->S = NULL;
	free(f->lag);
	f->lag = NULL;
	f->lagging = false;
	if (f->sess && f->src_shared) {
		f->sess->src = NULL;   /* the held text stays the file's */
		f->src_shared = false;
	}
	if (f->sess) {
		driver_session_free(f->sess);
		free(f->sess);
	}
	f->sess = NULL;
}

void
svc_file_free(SvcFile *f)
{
	drop_program(f);
	drop_session(f);
	items_free(f->items, f->nitems);
	diags_clear(&f->parse_diags);
	diags_clear(&f->resolve_head);
	diags_clear(&f->resolve_tail);
	free(f->src);
	free(f->path);
	memset(f, 0, sizeof *f);
}

bool
svc_file_set(SvcFile *f, const char *src, size_t len, SvcError *err)
{
	char *copy;
	if (src) {
		copy = spx_xmalloc(len + 1);
		memcpy(copy, src, len);
		copy[len] = '\0';
	} else {
		DiagSink d;
		diag_init(&d, f->path, NULL, 0);
		copy = driver_read_source(f->path, &len, &d);
		if (!copy) {
			/* the reader's own words say why (no such file, a directory,
			 * not UTF-8, too large …) */
			err->code = SVC_E_IO;
			if (d.items.len)
				snprintf(err->message, sizeof err->message, "%s: %.400s", diag_info[d.items.items[d.items.len - 1].code].code,
				    d.items.items[d.items.len - 1].message);
			else
				snprintf(err->message, sizeof err->message, "cannot read `%.200s`", f->path);
			diag_free(&d);
			return false;
		}
		diag_free(&d);
	}
	svc_file_take(f, copy, len);
	return true;
}

void
svc_file_take(SvcFile *f, char *src, size_t len)
{
	if (!f->src || len != f->len || memcmp(f->src, src, len) != 0) {
		f->gen++;
		f->hint = false;   /* what changed: found by comparing with the last parse */
	}
	if (!f->src_shared)
		free(f->src);   /* else the session keeps it: the next parse compares with it */
	f->src_shared = false;
	f->src = src;
	f->len = len;
}

void
svc_file_take_edited(SvcFile *f, char *src, size_t len, size_t p, size_t q)
{
	f->gen++;
	if (f->hint) {
		f->hint_p = p < f->hint_p ? p : f->hint_p;
		f->hint_q = q < f->hint_q ? q : f->hint_q;
	}
	if (!f->src_shared)
		free(f->src);   /* else the session keeps it: the next parse compares with it */
	f->src_shared = false;
	f->src = src;
	f->len = len;
}

static void
index_build(Index *x, const SvcItem *items, int n)
{
	x->items = items;
	x->n = n;
	x->by_name = spx_xmalloc(sizeof(Ent) * (size_t)(n ? n : 1));
	x->by_key = spx_xmalloc(sizeof(Ent) * (size_t)(n ? n : 1));
	for (int i = 0; i < n; i++) {
		x->by_name[i] = (Ent){ items[i].name, i };
		x->by_key[i] = (Ent){ items[i].key, i };
	}
	if (n > 1) {
		qsort(x->by_name, (size_t)n, sizeof(Ent), cmp_ent);
		qsort(x->by_key, (size_t)n, sizeof(Ent), cmp_ent);
	}
}

static void
index_free(Index *x)
{
	free(x->by_name);
	free(x->by_key);
}

/* The first entry of e[0..n) whose string is not below s. */
static int
lower_bound(const Ent *e, int n, const char *s)
{
	int lo = 0, hi = n;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (strcmp(e[mid].s, s) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The item with key, or -1 (keys are unique). */
static int
find_key(const Index *x, const char *key)
{
	int k = lower_bound(x->by_key, x->n, key);
	return k < x->n && strcmp(x->by_key[k].s, key) == 0 ? x->by_key[k].i : -1;
}

/* What callers of the name at by_name[*k] read of it: the signatures of the
 * separable functions of that name, the whole text of every other
 * declaration of it (in table order); *k moves past the name. */
static void
name_digest(const Index *x, int *k, unsigned char out[32])
{
	Sha256 h;
	sha256_init(&h);
	const char *name = x->by_name[*k].s;
	for (; *k < x->n && strcmp(x->by_name[*k].s, name) == 0; (*k)++) {
		const SvcItem *it = &x->items[x->by_name[*k].i];
		sha256_field(&h, it->key, strlen(it->key));
		sha256_update(&h, it->separable ? it->sig : it->all, 32);
	}
	sha256_final(&h, out);
}

/* The names whose digest differs between the old and the new table (one
 * merge of the sorted name lists), sorted; the strings stay the tables'. */
static const char **
changed_names(const Index *xo, const Index *xn, int *count)
{
	const char **out = spx_xmalloc(sizeof(char *) * (size_t)(xo->n + xn->n + 1));
	int n = 0, a = 0, b = 0;
	while (a < xo->n || b < xn->n) {
		int c = a >= xo->n ? 1 : b >= xn->n ? -1 : strcmp(xo->by_name[a].s, xn->by_name[b].s);
		if (c < 0) {                         /* only in the old table: gone */
			out[n++] = xo->by_name[a].s;
			const char *s = xo->by_name[a].s;
			while (a < xo->n && strcmp(xo->by_name[a].s, s) == 0)
				a++;
		} else if (c > 0) {                  /* only in the new one: added */
			out[n++] = xn->by_name[b].s;
			const char *s = xn->by_name[b].s;
			while (b < xn->n && strcmp(xn->by_name[b].s, s) == 0)
				b++;
		} else {
			const char *s = xn->by_name[b].s;
			unsigned char da[32], db[32];
			name_digest(xo, &a, da);
			name_digest(xn, &b, db);
			if (memcmp(da, db, 32) != 0)
				out[n++] = s;
		}
	}
	*count = n;
	return out;
}

static bool
in_sorted(const char *const *v, int n, const char *s)
{
	int lo = 0, hi = n;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		int c = strcmp(v[mid], s);
		if (c == 0)
			return true;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* The declarations that are not bodies (types, classes, …): any change to
 * them re-runs every body. */
static void
types_digest(const SvcItem *items, int n, const unsigned char header[32], unsigned char out[32])
{
	Sha256 h;
	sha256_init(&h);
	sha256_update(&h, header, 32);
	for (int i = 0; i < n; i++) {
		if (items[i].kind == DECL_FN)
			continue;
		sha256_field(&h, items[i].key, strlen(items[i].key));
		sha256_update(&h, items[i].all, 32);
	}
	sha256_final(&h, out);
}

/* Whether body item it (new table) must run, against the old table. */
static bool
body_stale(const SvcItem *it, const SvcItem *old, const char *const *changed, int nchanged)
{
	if (!old || !old->have_body || memcmp(old->all, it->all, 32) != 0)
		return true;
	for (int k = 0; k < it->ndeps && nchanged; k++)
		if (in_sorted(changed, nchanged, it->deps[k]))
			return true;
	return false;
}

/* The lengths of the common prefix and suffix of a[0..la) and b[0..lb)
 * (not overlapping in the shorter): memcmp by blocks, then bytes. */
static void
common_ends(const char *a, size_t la, const char *b, size_t lb, size_t *pp, size_t *qp)
{
	enum { BLOCK = 256 };
	size_t lim = la < lb ? la : lb, p = 0, q = 0;
	while (p + BLOCK <= lim && memcmp(a + p, b + p, BLOCK) == 0)
		p += BLOCK;
	while (p < lim && a[p] == b[p])
		p++;
	while (q + BLOCK <= lim - p && memcmp(a + la - q - BLOCK, b + lb - q - BLOCK, BLOCK) == 0)
		q += BLOCK;
	while (q < lim - p && a[la - 1 - q] == b[lb - 1 - q])
		q++;
	*pp = p;
	*qp = q;
}

/* The incremental parse: when the changed bytes (old [p, la - q)) lie in
 * one declaration of the last parse, that declaration is re-parsed in
 * place (parse_splice_decl, which refuses whatever could differ from a
 * whole parse); its index, or -1 for a whole parse.  The replaced trees
 * stay in the session's arena, so after splices of as many bytes as the
 * file holds (plus SPLICE_SLACK) the next edit parses the whole text again. */
enum { SPLICE_SLACK = 64 << 10 };
static int
splice_target(SvcFile *f, size_t p, size_t q)
{
	Session *s = f->sess;
	size_t la = s->len;
	if (s->diags.items.len || p + q > la)
		return -1;   /* the parse's warnings are whole-file products */
	int lo = 0, hi = f->nitems;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (f->items[mid].start <= p)
			lo = mid + 1;
		else
			hi = mid;
	}
	int k = lo - 1;
	if (k < 0 || la - q > f->items[k].end || f->nitems != s->m->ndecls)
		return -1;
	int64_t end = (int64_t)f->items[k].end + (int64_t)f->len - (int64_t)la;
	if (end <= (int64_t)f->items[k].start || f->spliced + (size_t)(end - f->items[k].start) > f->len + SPLICE_SLACK)
		return -1;
	if (!f->lag)
		f->lag = spx_xcalloc((size_t)(s->m->ndecls ? s->m->ndecls : 1), sizeof *f->lag);
	if (!parse_splice_decl(s->m, k, s->src, f->src, f->len, (uint32_t)end, &s->arena, f->lag))
		return -1;
	f->lagging = true;
	return k;
}

/* The item table after a splice of item k, updated in place when only its
 * body changed (the same name and signature, no generic function in the
 * module): k's digest, words and pieces are made again, the later items
 * move by delta — no second table, no comparison of 10,000 items.  False,
 * changing nothing, otherwise: the caller builds a new table. */
static bool
items_in_place(SvcFile *f, int k, int64_t delta)
{
	const Decl *d = &f->sess->m->decls[k];
	SvcItem *it = &f->items[k];
	if (f->ngeneric || d->kind != DECL_FN || !d->u.fn.body || d->u.fn.ntparams || !it->separable || it->kind != DECL_FN ||
	    strcmp(decl_name(d), it->name) != 0)
		return false;
	const char *src = f->sess->src;
	unsigned char sig[32];
	digest(src + d->span.start, d->u.fn.body->span.start - d->span.start, sig);
	if (memcmp(sig, it->sig, 32) != 0 || d->span.start != it->start)
		return false;
	for (int i = 0; i < it->ndeps; i++)
		free(it->deps[i]);
	free(it->deps);
	it->deps = NULL;
	it->ndeps = 0;
	it->end = d->span.end;
	digest(src + it->start, it->end - it->start, it->all);
	words(it, src + it->start, it->end - it->start);
	Span ns = svc_decl_name_span(d);
	it->name_start = ns.start;
	it->name_end = ns.end;
	free(it->canon);
	it->canon = NULL;
	it->ncanon = 0;
	it->prelude_ok = false;
	for (int i = k + 1; i < f->nitems; i++) {
		SvcItem *x = &f->items[i];
		x->start = (uint32_t)((int64_t)x->start + delta);
		x->end = (uint32_t)((int64_t)x->end + delta);
		x->name_start = (uint32_t)((int64_t)x->name_start + delta);
		x->name_end = (uint32_t)((int64_t)x->name_end + delta);
	}
	return true;
}

/* SPX_SERVICE_VERIFY_SPLICE (the corpus test sets it): a spliced tree must
 * equal a whole parse of the same text — every declaration's dump and
 * spans, and the comments.  A difference is a bug in the splice: it is
 * reported and the process aborts, so the test fails loudly. */
void
svc_file_settle(SvcFile *f)
{
	if (!f->lagging)
		return;
	f->lagging = false;
	Module *m = f->sess->m;
	for (int i = 0; i < m->ndecls; i++) {
		parse_settle_decl(&m->decls[i], f->lag[i]);
		f->lag[i] = 0;
	}
}

static void
verify_splice(const Session *s, const int64_t *lag)
{
	Session w;
	driver_session_init(&w, "<verify>");
	driver_set_source(&w, s->src, s->len);
	bool ok = driver_parse(&w) && w.m->ndecls == s->m->ndecls && w.m->ncomments == s->m->ncomments;
	Buf a = {0}, b = {0};
	if (ok) {
		ast_dump(&a, s->m);
		ast_dump(&b, w.m);
		ok = a.len == b.len && memcmp(a.data, b.data, a.len) == 0;
	}
	for (int i = 0; ok && i < w.m->ncomments; i++)
		ok = s->m->comments[i].span.start == w.m->comments[i].span.start &&
		    s->m->comments[i].span.end == w.m->comments[i].span.end;
	for (int i = 0; ok && i < w.m->ndecls; i++) {
		ParseSpans x = {0}, y = {0};
		/* the lazy shift paid for the comparison, then owed again (the
		 * service goes on with it lazy, as it would without this test) */
		parse_settle_decl(&s->m->decls[i], lag ? lag[i] : 0);
		parse_decl_spans(&s->m->decls[i], &x);
		parse_settle_decl(&s->m->decls[i], lag ? -lag[i] : 0);
		parse_decl_spans(&w.m->decls[i], &y);
		ok = x.len == y.len && (x.len == 0 || memcmp(x.items, y.items, sizeof *x.items * (size_t)x.len) == 0);
		if (!ok)
			fprintf(stderr, "service: the spliced declaration %d differs from a whole parse\n", i);
		VEC_FREE(x);
		VEC_FREE(y);
	}
	buf_free(&a);
	buf_free(&b);
	driver_session_free(&w);
	if (!ok) {
		fprintf(stderr, "service: a splice differs from a whole parse\n");
		abort();
	}
}

/* Re-parses when the bytes changed; false when the parse failed.  *changed:
 * the item table differs from the old one (not backdated). */
static bool
run_parse(SvcFile *f, SvcTrace *t, SvcItem **olds, int *nolds, bool *changed, bool *types_changed)
{
	*olds = NULL;
	*nolds = 0;
	*changed = *types_changed = false;
	if (f->parsed && f->parsed_gen == f->gen) {
		svc_trace_add(t, SVC_REUSED, "parse");
		return !f->parse_failed;
	}
	/* what the edit changed: the common prefix and suffix with the last parse */
	bool prior = f->sess && f->items && !f->parse_failed;
	size_t p = 0, q = 0, la = prior ? f->sess->len : 0;
	if (prior && f->hint) {
		/* the edits named their ranges (svc_file_take_edited): no comparison */
		p = f->hint_p;
		q = f->hint_q;
	} else if (prior) {
		common_ends(f->sess->src, la, f->src, f->len, &p, &q);
	}
	int k = prior ? splice_target(f, p, q) : -1;
	f->splice_k = k;
	f->splice_at = (uint32_t)(la - q);
	f->splice_delta = (int64_t)f->len - (int64_t)la;
	Session *s;
	bool ok = true;
	if (k >= 0) {
		/* one declaration re-parsed in place (src/parse/reparse.c) */
		s = f->sess;
		uint32_t new_end = (uint32_t)((int64_t)f->items[k].end + (int64_t)f->len - (int64_t)s->len);
		/* the session takes the held text itself (no copy): the file
		 * marks it shared until its next input */
		if (!f->src_shared)
			free(s->src);
		s->src = f->src;
		f->src_shared = true;
		s->len = f->len;
		s->diags.src = s->src;
		s->diags.src_len = s->len;
		s->diags.pos_src = NULL;    /* the position index names the old text */
		f->spliced += new_end - f->items[k].start;
		if (f->verify_splice)
			verify_splice(s, f->lag);
	} else {
		s = spx_xcalloc(1, sizeof *s);
		driver_session_init(s, f->path);
		driver_set_source(s, f->src, f->len);
		ok = driver_parse(s);
		f->spliced = 0;
		svc_trace_add(t, SVC_EXECUTED, "parse");
	}
	f->parsed = true;
	f->parsed_gen = f->gen;
	f->hint = true;   /* the held text is the parsed one: no byte changed yet */
	f->hint_p = f->hint_q = f->len;
	diags_clear(&f->parse_diags);
	if (!ok) {
		for (int i = 0; i < s->diags.items.len; i++)
			diags_add(&f->parse_diags, &s->diags.items.items[i], -1, 0);
		driver_session_free(s);
		free(s);
		drop_session(f);
		items_free(f->items, f->nitems);
		f->items = NULL;
		f->nitems = 0;
		f->parse_failed = true;
		f->have_resolve = f->have_revision = false;
		*changed = *types_changed = true;
		return false;
	}
	f->in_place = k >= 0 && f->have_resolve && items_in_place(f, k, f->splice_delta);
	if (f->in_place) {
		svc_trace_add(t, SVC_EXECUTED, "parse:decl:%s", f->items[k].key);
		f->parse_failed = false;
		f->have_revision = false;
		*changed = true;
		return true;
	}
	if (s == f->sess)
		svc_file_settle(f);   /* the item table reads every declaration's name */
	unsigned char header[32];
	int n;
	Reuse r = { 0 }, *rp = NULL;
	if (prior) {
		r = (Reuse){ f->items, f->nitems, p, q, f->len, (int64_t)f->len - (int64_t)la };
		rp = &r;
	}
	SvcItem *items = build_items(s->m, s->src, s->len, header, &n, rp);
	f->ngeneric = 0;
	for (int i = 0; i < n; i++)
		f->ngeneric += items[i].generic;
	if (k >= 0)
		svc_trace_add(t, SVC_EXECUTED, "parse:decl:%s", items[k].key);
	bool same = !f->parse_failed && f->items && n == f->nitems && memcmp(header, f->header, 32) == 0;
	for (int i = 0; same && i < n; i++)
		same = str_eq(items[i].key, f->items[i].key) && memcmp(items[i].all, f->items[i].all, 32) == 0;
	if (same) {
		/* backdated: keep the table, move the declarations to their places */
		svc_trace_add(t, SVC_BACKDATED, "parse");
		for (int i = 0; i < n; i++) {
			/* the strings lent to the new table: take them back */
			if (f->items[i].key_lent) {
				f->items[i].key_lent = false;
				items[i].key_lent = true;
			}
			if (f->items[i].name_lent) {
				f->items[i].name_lent = false;
				items[i].name_lent = true;
			}
			/* the words may have moved to the new table: take them back */
			char **dp = f->items[i].deps;
			int dn = f->items[i].ndeps;
			f->items[i].deps = items[i].deps;
			f->items[i].ndeps = items[i].ndeps;
			items[i].deps = dp;
			items[i].ndeps = dn;
			char *cp = f->items[i].canon;
			size_t cn = f->items[i].ncanon;
			f->items[i].canon = items[i].canon;
			f->items[i].ncanon = items[i].ncanon;
			items[i].canon = cp;
			items[i].ncanon = cn;
			f->items[i].start = items[i].start;
			f->items[i].end = items[i].end;
			f->items[i].name_start = items[i].name_start;
			f->items[i].name_end = items[i].name_end;
		}
		items_free(items, n);
	} else {
		unsigned char a[32], b[32];
		if (f->items && !f->parse_failed) {
			types_digest(f->items, f->nitems, f->header, a);
			types_digest(items, n, header, b);
			*types_changed = memcmp(a, b, 32) != 0;
		} else {
			*types_changed = true;
		}
		*olds = f->items;
		*nolds = f->nitems;
		f->items = items;
		f->nitems = n;
		memcpy(f->header, header, 32);
		*changed = true;
		f->have_revision = false;
	}
	f->parse_failed = false;
	if (s != f->sess) {
		drop_session(f);
		f->sess = s;
	}
	return true;
}

/* The item whose text holds offset at (items are in source order), or -1. */
static int
owner_of(const SvcFile *f, uint32_t at)
{
	int lo = 0, hi = f->nitems;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (f->items[mid].start <= at)
			lo = mid + 1;
		else
			hi = mid;
	}
	int i = lo - 1;
	return i >= 0 && at < f->items[i].end ? i : -1;
}

/* Whether a cached declaration-pass diagnostic belongs to item k. */
static bool
resolve_owned(const SvcDiags *d, int k)
{
	for (int i = 0; i < d->len; i++)
		if (d->items[i].owner == k)
			return true;
	return false;
}

static void run_select(SvcFile *f, SvcTrace *t, bool *select, bool reuse);

/* Runs the resolve pass and the stale bodies (the reduced check). */
static void
run_check(SvcFile *f, SvcTrace *t, SvcItem *olds, int nolds, bool types_changed)
{
	int n = f->nitems;
	bool *select = spx_xcalloc((size_t)(n ? n : 1), sizeof *select);
	bool any = !f->have_resolve;
	Index xo = { 0 }, xn = { 0 };
	const char **changed = NULL;
	int nchanged = 0;
	/* the same keys in the same order (an edit that adds, removes or
	 * renames nothing): item i is old item i, and a name changed when one
	 * of its declarations reads differently to callers — no indexes */
	bool aligned = olds && nolds == n;
	for (int i = 0; aligned && i < n; i++)
		aligned = str_eq(olds[i].key, f->items[i].key);
	if (aligned) {
		changed = spx_xmalloc(sizeof(char *) * (size_t)(n ? n : 1));
		for (int i = 0; i < n; i++) {
			const SvcItem *a = &olds[i], *b = &f->items[i];
			if (a->separable != b->separable ||
			    memcmp(a->separable ? a->sig : a->all, b->separable ? b->sig : b->all, 32) != 0)
				changed[nchanged++] = b->name;
		}
		if (nchanged > 1)
			qsort(changed, (size_t)nchanged, sizeof *changed, cmp_str);
	} else if (olds) {
		index_build(&xo, olds, nolds);
		index_build(&xn, f->items, n);
		changed = changed_names(&xo, &xn, &nchanged);
	}
	for (int i = 0; i < n; i++) {
		SvcItem *it = &f->items[i];
		int o = aligned ? i : olds ? find_key(&xo, it->key) : -1;
		SvcItem *old = o >= 0 ? &olds[o] : NULL;
		if (old && old->have_body && !it->have_body) {
			/* carry the old product over */
			it->diags = old->diags;
			old->diags.items = NULL;
			old->diags.len = 0;
			it->have_body = true;
			for (int k = 0; k < it->diags.len; k++)
				it->diags.items[k].owner = i;
		}
		if (!it->has_body)
			continue;
		if (!olds) {
			select[i] = !it->have_body;
		} else {
			select[i] = types_changed || body_stale(it, old, changed, nchanged);
		}
		any = any || select[i];
	}
	if (olds && !aligned) {
		index_free(&xo);
		index_free(&xn);
	}
	/* nothing the declaration pass reads changed: the same keys, no
	 * signature, type or header (the reusable resolve below) */
	bool decls_same = aligned && nchanged == 0 && !types_changed;
	for (int i = 0; decls_same && i < n; i++)
		decls_same = memcmp(olds[i].sig, f->items[i].sig, 32) == 0 &&
		    (f->items[i].kind == DECL_FN || memcmp(olds[i].all, f->items[i].all, 32) == 0);
	free(changed);
	if (olds) {
		/* a declaration added, removed or with a new signature: resolve again */
		any = any || nolds != n;
		for (int i = 0; !any && i < n; i++)
			any = !str_eq(olds[i].key, f->items[i].key) || memcmp(olds[i].sig, f->items[i].sig, 32) != 0 ||
			    (f->items[i].kind != DECL_FN && memcmp(olds[i].all, f->items[i].all, 32) != 0);
	}
	/* Generic instances are a property of the whole module (the instance
	 * bound T235, an instance's error T225 at the call needing it): with a
	 * generic function, a check re-runs every body. */
	bool generic = false;
	for (int i = 0; i < n; i++)
		generic = generic || f->items[i].generic;
	for (int i = 0; any && generic && i < n; i++)
		select[i] = f->items[i].has_body;
	if (!any) {
		svc_trace_add(t, SVC_REUSED, "resolve");
		for (int i = 0; i < n; i++)
			if (f->items[i].has_body)
				svc_trace_add(t, SVC_REUSED, "body:%s", f->items[i].key);
		free(select);
		return;
	}
	/* The reusable resolve: after a splice of one function's body that
	 * changed nothing the declaration pass reads, the last check's checker
	 * re-checks that body alone (sema_recheck_select); its declaration-level
	 * diagnostics stay cached.  Not when one of them belongs to the spliced
	 * declaration (a span over the whole of it would have to move), nor in
	 * a module with a generic function. */
	int sk = f->splice_k;
	bool reuse = decls_same && !generic && sk >= 0 && sk < n && f->items[sk].kind == DECL_FN;
	for (int i = 0; reuse && i < n; i++)
		reuse = select[i] == (i == sk);
	run_select(f, t, select, reuse);
}

/* Runs the checker over the selected bodies — in the last check's checker
 * when reuse allows it and it is there, else a whole declaration pass —
 * and files the diagnostics with their products; frees select. */
static void
run_select(SvcFile *f, SvcTrace *t, bool *select, bool reuse)
{
	int n = f->nitems, sk = f->splice_k;
	Session *s = f->sess;
	int from = s->diags.items.len;
	int range[2];
	reuse = reuse && f->S && !resolve_owned(&f->resolve_head, sk) && !resolve_owned(&f->resolve_tail, sk);
	if (reuse) {
		svc_trace_add(t, SVC_REUSED, "resolve");
		sema_recheck_select(f->S, s->src, s->len, f->S_nexprs, f->S_ncalls, f->splice_at, f->splice_delta, select, range);
	} else {
		svc_trace_add(t, SVC_EXECUTED, "resolve");
		svc_file_settle(f);   /* the declaration pass reads the whole tree */
		sema_free(f->S);
		f->S = sema_check_select(s->m, s->src, s->len, &s->diags, NULL, -1, select, range);
		diags_clear(&f->resolve_head);
		diags_clear(&f->resolve_tail);
	}
	f->S_nexprs = s->m->nexprs;
	f->S_ncalls = s->m->ncalls;
	for (int i = 0; i < n; i++) {
		if (!f->items[i].has_body)
			continue;
		if (!t->off)   /* 10,000s of items: not even the call when nobody records */
			svc_trace_add(t, select[i] ? SVC_EXECUTED : SVC_REUSED, "body:%s", f->items[i].key);
		if (select[i]) {
			diags_clear(&f->items[i].diags);
			f->items[i].have_body = true;
		}
	}
	for (int k = from; k < s->diags.items.len; k++) {
		const Diag *d = &s->diags.items.items[k];
		int owner = d->has_span ? owner_of(f, d->span.start) : -1;
		uint32_t base = owner >= 0 ? f->items[owner].start : 0;
		if (k >= range[0] && k < range[1] && owner >= 0 && select[owner])
			diags_add(&f->items[owner].diags, d, owner, base);
		else
			diags_add(k < range[0] ? &f->resolve_head : &f->resolve_tail, d, owner, base);
	}
	/* the sink keeps only the parse's own reports */
	while (s->diags.items.len > from)
		diag_remove(&s->diags, s->diags.items.len - 1);
	f->have_resolve = true;
	free(select);
}

/* Whether canonical text s[0..n) spells `_if` (a value discard's name). */
static bool
names_discard(const char *s, size_t n)
{
	for (size_t i = 0; i + 3 <= n; i++)
		if (s[i] == '_' && s[i + 1] == 'i' && s[i + 2] == 'f')
			return true;
	return false;
}

/* The revision over the canonical text assembled from per-declaration
 * pieces: a declaration whose text is unchanged keeps its piece, unless the
 * piece names a value discard (`_if<n>`: the parser numbers those across
 * the whole module, so an edit elsewhere can renumber them). */
static void
revision(SvcFile *f)
{
	svc_file_settle(f);   /* the formatter reads the whole tree */
	const Module *m = f->sess->m;
	Buf canon = {0};
	buf_reserve(&canon, f->len + 4096);
	fmt_module_discards_part(&canon, m, -1);
	Buf one = {0};
	int *fresh = spx_xmalloc(sizeof *fresh * (size_t)(f->nitems ? f->nitems : 1));
	int nfresh = 0;
	for (int i = 0; i < f->nitems; i++) {
		SvcItem *it = &f->items[i];
		if (it->canon)
			continue;
		fresh[nfresh++] = i;
		one.len = 0;
		fmt_module_discards_part(&one, m, i);
		it->ncanon = one.len;
		it->canon = spx_xmalloc(one.len + 1);
		memcpy(it->canon, one.data ? one.data : "", one.len);
		it->canon[one.len] = '\0';
	}
	buf_free(&one);
	for (int g = 0; g < 4; g++)
		for (int i = 0; i < f->nitems; i++)
			if (fmt_decl_group(f->items[i].kind) == g)
				buf_put(&canon, f->items[i].canon, f->items[i].ncanon);
	/* the prelude choice: the union of cached per-declaration features */
	bool user_box;
	unsigned uses = sema_prelude_head(m, &user_box);
	bool all = !f->prelude_known || user_box != f->prelude_user_box;
	f->prelude_known = true;
	f->prelude_user_box = user_box;
	for (int i = 0; i < f->nitems; i++) {
		SvcItem *it = &f->items[i];
		if (all || !it->prelude_ok) {
			it->prelude = sema_prelude_decl(&m->decls[i], user_box);
			it->prelude_ok = true;
		}
		uses |= it->prelude;
	}
	sema_revision_canon_uses(uses, canon.data ? canon.data : "", canon.len, f->revision, NULL);
	buf_free(&canon);
	/* only the pieces rendered now: a kept piece was tested when it was */
	for (int j = 0; j < nfresh; j++) {
		SvcItem *it = &f->items[fresh[j]];
		if (names_discard(it->canon, it->ncanon)) {
			free(it->canon);
			it->canon = NULL;
		}
	}
	free(fresh);
}

bool
svc_file_check(SvcFile *f, SvcTrace *t, DiagSink *out)
{
	SvcItem *olds;
	int nolds;
	bool changed, types_changed;
	bool parsed = run_parse(f, t, &olds, &nolds, &changed, &types_changed);
	f->verified = false;
	diag_init(out, f->path, f->src, f->len);
	if (!parsed) {
		diags_emit(out, &f->parse_diags, f);
		return false;
	}
	if (f->in_place) {
		/* only the spliced body changed: it alone runs */
		f->in_place = false;
		bool *select = spx_xcalloc((size_t)f->nitems, sizeof *select);
		select[f->splice_k] = true;
		run_select(f, t, select, true);
	} else if (changed || !f->have_resolve) {
		run_check(f, t, olds, nolds, types_changed);
	} else {
		run_check(f, t, NULL, 0, false);
	}
	items_free(olds, nolds);
	/* the parse's warnings, the declaration pass, then the bodies in source order */
	for (int k = 0; k < f->sess->diags.items.len; k++) {
		const Diag *d = &f->sess->diags.items.items[k];
		SvcDiags one = { 0 };
		diags_add(&one, d, -1, 0);
		diags_emit(out, &one, f);
		diags_clear(&one);
	}
	diags_emit(out, &f->resolve_head, f);
	/* the checker's order: class methods first, then functions */
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < f->nitems; i++)
			if (f->items[i].diags.len && (f->items[i].kind == DECL_CLASS) == (pass == 0))
				diags_emit(out, &f->items[i].diags, f);
	diags_emit(out, &f->resolve_tail, f);
	if (out->errors) {
		return false;
	}
	if (f->have_revision) {
		svc_trace_add(t, SVC_REUSED, "revision");
	} else if (!f->lazy_revision) {
		svc_trace_add(t, SVC_EXECUTED, "revision");
		revision(f);
		f->have_revision = true;
	}
	f->verified = true;
	return true;
}

const char *
svc_file_revision(SvcFile *f)
{
	if (!f->have_revision && f->sess && !f->parse_failed && f->parsed_gen == f->gen) {
		revision(f);
		f->have_revision = true;
	}
	return f->have_revision ? f->revision : "";
}

bool
svc_file_program(SvcFile *f, SvcTrace *t)
{
	if (f->have_program && f->program_gen == f->gen) {
		svc_trace_add(t, SVC_REUSED, "program");
		if (f->g)
			svc_trace_add(t, SVC_REUSED, "graph");
		return f->prog_ok;
	}
	drop_program(f);
	svc_trace_add(t, SVC_EXECUTED, "program");
	f->prog = spx_xcalloc(1, sizeof *f->prog);
	driver_program_init(f->prog);
	f->psess = driver_program_add(f->prog, f->path, f->src, f->len);
	f->prog_ok = driver_program_load(f->prog, SESSION_CHECK_HIR) && f->prog->nmods == 1 && f->prog->mods[0]->s.H;
	f->have_program = true;
	f->program_gen = f->gen;
	if (!f->prog_ok)
		return false;
	f->psess = &f->prog->mods[0]->s;
	svc_trace_add(t, SVC_EXECUTED, "graph");
	{
		char rev[72];
		SemaPrelude pr;
		sema_revision(f->psess->m, rev, &pr);   /* the prelude the revision binds (graph output) */
		memcpy(f->schema, pr.schema, sizeof f->schema);
		memcpy(f->pdigest, pr.digest, sizeof f->pdigest);
	}
	f->g = graph_model_build(f->psess->S, f->psess->H);
	return true;
}
