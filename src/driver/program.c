/*
 * program.c — the Program layer (program.h): many modules, each a Session,
 * a deterministic ModuleId order and the program revision.
 */
#include "program.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../fmt/fmt.h"
#include "../support/sha256.h"

void
driver_program_init(Program *p)
{
	memset(p, 0, sizeof *p);
}

const char *
driver_module_path(const ProgModule *pm)
{
	return pm->spelled ? pm->spelled : pm->s.diags.path;
}

void
driver_program_spell(ProgModule *pm, const char *spelled)
{
	free(pm->spelled);
	pm->spelled = spelled ? spx_xstrdup(spelled) : NULL;
	pm->s.diags.shown = pm->spelled;
}

Session *
driver_program_add(Program *p, const char *path, const char *src, size_t len)
{
	if (p->nmods == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 4;
		p->mods = spx_xrealloc(p->mods, sizeof *p->mods * (size_t)p->cap);
	}
	ProgModule *pm = spx_xcalloc(1, sizeof *pm);
	driver_session_init(&pm->s, path);
	if (src)
		driver_set_source(&pm->s, src, len);
	p->mods[p->nmods++] = pm;
	p->loaded = false;
	return &pm->s;
}

/* The dotted module name (`module a.b;`: its parts joined), or "" before a parse. */
static char *
module_name(const Session *s)
{
	if (s->m && s->m->name.nparts > 0)
		return ast_qname_text(&s->m->name);
	char *r = spx_xmalloc(1);
	r[0] = '\0';
	return r;
}

static int
by_name_then_path(const void *a, const void *b)
{
	const ProgModule *x = *(ProgModule *const *)a, *y = *(ProgModule *const *)b;
	int c = strcmp(x->name, y->name);
	return c ? c : strcmp(x->s.diags.path, y->s.diags.path);
}

static void
program_revision(Program *p)
{
	p->revision[0] = '\0';
	for (int i = 0; i < p->nmods; i++)
		if (!p->mods[i]->s.revision[0])
			return;
	if (p->nmods == 1) {
		memcpy(p->revision, p->mods[0]->s.revision, sizeof p->revision);
		return;
	}
	/* The domain (its NUL included), then per module in ModuleId order two
	 * length-prefixed fields (sha256_field): the name, the revision text. */
	static const char tag[] = "semaprax.program-revision.v1";
	Sha256 h;
	sha256_init(&h);
	sha256_update(&h, tag, sizeof tag);
	for (int i = 0; i < p->nmods; i++) {
		const ProgModule *pm = p->mods[i];
		sha256_field(&h, pm->name, strlen(pm->name));
		sha256_field(&h, pm->s.revision, strlen(pm->s.revision));
	}
	unsigned char d[32];
	char hex[65];
	sha256_final(&h, d);
	sha256_hex(d, hex);
	memcpy(p->revision, "sha256:", 7);
	memcpy(p->revision + 7, hex, 65);
}

bool
driver_program_load(Program *p, SessionStage stage)
{
	bool ok = true;
	for (int i = 0; i < p->nmods; i++) {
		Session *s = &p->mods[i]->s;
		if (!s->src && !driver_read(s)) {
			/* a project's source: the path is the manifest's, not the user's operand */
			if (p->mods[i]->src_index > 0 && s->diags.items.len)
				diag_set_help(&s->diags.items.items[s->diags.items.len - 1],
				    "the manifest's `sources` lists this path: create the file, or correct or remove the entry");
			ok = false;
			continue;
		}
		ok &= driver_parse(s);
	}
	for (int i = 0; i < p->nmods; i++) {
		free(p->mods[i]->name);
		p->mods[i]->name = module_name(&p->mods[i]->s);
	}
	if (p->nmods > 1)
		qsort(p->mods, (size_t)p->nmods, sizeof *p->mods, by_name_then_path);
	p->loaded = true;
	if (stage == SESSION_PARSE)
		return ok;
	/* Each module as driver_load runs it: the revision (check stages only)
	 * before the check, so its transient text does not stack on the
	 * checker's tables (a failed check clears it). */
	for (int i = 0; i < p->nmods; i++) {
		Session *s = &p->mods[i]->s;
		if (stage == SESSION_CHECK || stage == SESSION_CHECK_HIR)
			driver_revision(s);
		if (!driver_check(s)) {
			ok = false;
			continue;
		}
		if (stage != SESSION_CHECK)
			ok &= driver_lower(s);
	}
	if (stage == SESSION_CHECK || stage == SESSION_CHECK_HIR)
		program_revision(p);
	return ok;
}

bool
driver_program_load_file(Program *p, const char *path, Session **out, SessionStage stage)
{
	driver_program_init(p);
	*out = driver_program_add(p, path, NULL, 0);
	return driver_program_load(p, stage);
}

/* The dotted text of a `use … from m` module name. */
static char *
use_module(const Session *s, const UseDecl *u)
{
	(void)s;
	return ast_qname_text(&u->from);
}

typedef struct LinkWalk {
	Program *p;
	ModuleId **deps;     /* per module: the provider modules of its uses (-1: none) */
	int *ndeps;
	uint8_t *state;      /* 0 new, 1 on the stack, 2 done */
	ModuleId *stack;
	int nstack;
	int norder;
	bool cycle;
} LinkWalk;

/* Reports the cycle stack[from..] + back to its start, rotated to begin at
 * its least module name, at the `use` of the first module that imports the
 * second. */
static void
report_cycle(LinkWalk *w, int from)
{
	Program *p = w->p;
	int n = w->nstack - from, first = 0;
	for (int i = 1; i < n; i++)
		if (strcmp(p->mods[w->stack[from + i]]->name, p->mods[w->stack[from + first]]->name) < 0)
			first = i;
	Buf b = {0};
	for (int i = 0; i <= n; i++)
		buf_printf(&b, "%s%s", i ? " -> " : "", p->mods[w->stack[from + (first + i) % n]]->name);
	ModuleId a = w->stack[from + first], next = w->stack[from + (first + 1) % n];
	Session *s = &p->mods[a]->s;
	const UseDecl *at = NULL;
	for (int i = 0; i < s->m->nuses && !at; i++) {
		char *name = use_module(s, &s->m->uses[i]);
		if (strcmp(name, p->mods[next]->name) == 0)
			at = &s->m->uses[i];
		free(name);
	}
	Diag *d = diag_report(&s->diags, DIAG_G172, at ? &at->span : NULL, "module dependency cycle: %s", b.data);
	diag_set_help(d, "modules import each other only one way: move what both need into a module that neither imports");
	buf_free(&b);
	w->cycle = true;
}

static void
walk(LinkWalk *w, ModuleId m)
{
	w->state[m] = 1;
	w->stack[w->nstack++] = m;
	for (int i = 0; i < w->ndeps[m] && !w->cycle; i++) {
		ModuleId t = w->deps[m][i];
		if (w->state[t] == 1) {
			int from = w->nstack - 1;
			while (w->stack[from] != t)
				from--;
			report_cycle(w, from);
		} else if (w->state[t] == 0) {
			walk(w, t);
		}
	}
	w->nstack--;
	w->state[m] = 2;
	w->p->order[w->norder++] = m;
}

/* The explicit stable id of S nearest to want (edit distance at most 2; the
 * first of equals in symbol order), or NULL. */
static const char *
nearest_id(const Sema *S, const char *want)
{
	const char *best = NULL;
	int bestd = 3;
	for (int i = 0; i < S->syms.len; i++) {
		const Sym *y = &S->syms.items[i];
		if (!y->explicit_id || y->prelude || !y->id)
			continue;
		int dist = spx_edit_distance(want, y->id, true);
		if (dist < bestd) {
			best = y->id;
			bestd = dist;
		}
	}
	return best;
}

/* The help of a `use … from <name>` naming no module of p (m imports):
 * the module whose syntax tree declares the imported `@id` (a renamed
 * module), else the module name nearest to name (edit distance at most 2;
 * the first of equals in ModuleId order).  Parsed trees only, so the hint
 * does not depend on the checking order.  False: none applies. */
static bool
missing_module_hint(const Program *p, ModuleId m, const UseDecl *u, const char *name, Diag *d)
{
	for (int j = 0; j < p->nmods; j++) {
		const Module *t = p->mods[j]->s.m;
		if ((ModuleId)j == m || !t || !p->mods[j]->name[0])
			continue;
		for (int k = 0; k < t->ndecls; k++) {
			const IdAttr *a = &t->decls[k].id;
			if (a->present && a->value.len == u->id.len && memcmp(a->value.s, u->id.s, u->id.len) == 0) {
				const char *path = driver_module_path(p->mods[j]);
				diag_set_help(d, "`%s` is declared in module `%s`%s%s%s: write `from %s`", u->id.s,
				    p->mods[j]->name, path ? " (" : "", path ? path : "", path ? ")" : "", p->mods[j]->name);
				return true;
			}
		}
	}
	const char *best = NULL;
	int bestd = 3;
	for (int j = 0; j < p->nmods; j++) {
		if ((ModuleId)j == m || !p->mods[j]->name[0])
			continue;
		int dist = spx_edit_distance(name, p->mods[j]->name, true);
		if (dist < bestd) {
			best = p->mods[j]->name;
			bestd = dist;
		}
	}
	if (!best)
		return false;
	diag_set_help(d, "did you mean `%s`? (or list the file that declares `module %s;` in the manifest's sources)", best, name);
	return true;
}

/* Resolves the uses of module m into links; false after a G172 (or when a
 * provider did not check, which reported its own errors). */
static bool
resolve_uses(Program *p, ModuleId m, SemaLink *links)
{
	Session *s = &p->mods[m]->s;
	bool ok = true;
	StrMap seen = {0};
	char **keys = spx_xcalloc((size_t)(s->m->nuses ? s->m->nuses : 1), sizeof *keys);
	for (int i = 0; i < s->m->nuses; i++) {
		const UseDecl *u = &s->m->uses[i];
		char *name = use_module(s, u);
		ModuleId t = driver_program_find(p, name);
		/* (kind, module, id) seen before: a map, so many uses stay linear */
		keys[i] = spx_xmalloc(strlen(name) + u->id.len + 4);
		sprintf(keys[i], "%c\x01%s\x01%.*s", u->is_type ? 't' : 'f', name, (int)u->id.len, u->id.s);
		bool twice = !sema_strmap_put(&seen, keys[i], i);
		ProgHandle h;
		Diag *d = NULL;
		if (twice) {
			d = diag_report(&s->diags, DIAG_G172, &u->span, "`%s` from `%s` is imported more than once", u->id.s, name);
			diag_set_help(d, "import each target once; one alias serves every use");
		} else if (t == DRIVER_NO_MODULE || t == m) {
			d = diag_report(&s->diags, DIAG_G172, &u->span, "target module `%s` is %s", name,
			    t == m ? "the importing module itself" : "not a module of this project");
			if (t == m || ((!p->module_hint || !p->module_hint(p->hint_ctx, d, name)) && !missing_module_hint(p, m, u, name, d)))
				diag_set_help(d, t == m ? "call the function directly; a module does not import from itself"
				                        : "list the file that declares `module %s;` in the manifest's sources", name);
		} else if (!p->mods[t]->s.S || p->mods[t]->s.diags.errors) {
			ok = false;   /* the provider reported its errors */
		} else if (!driver_program_lookup(p, name, u->id.s, &h)) {
			d = diag_report(&s->diags, DIAG_G172, &u->span, "module `%s` declares no stable identity `%s`", name, u->id.s);
			const char *near = nearest_id(p->mods[t]->s.S, u->id.s);
			if (near) {
				diag_set_help(d, "did you mean `%s`? (`semaprax query` lists the ids of `%s`)", near, name);
				/* qa37: the fix rewrites the quoted id, found inside the use's span */
				for (size_t k = u->span.start + 1; s->src && u->id.len > 0 && k + u->id.len < u->span.end && k + u->id.len < s->len; k++)
					if (s->src[k - 1] == '"' && s->src[k + u->id.len] == '"' && memcmp(s->src + k, u->id.s, u->id.len) == 0) {
						diag_add_fix(d, (uint32_t)k, (uint32_t)(k + u->id.len), near);
						break;
					}
			}
			else
				diag_set_help(d, "name an explicit `@id` of a %s declared in `%s`", u->is_type ? "record or variant" : "function", name);
		} else {
			const Sym *y = driver_program_sym(p, h);
			if (!y->explicit_id) {
				d = diag_report(&s->diags, DIAG_G172, &u->span, "`%s` in `%s` is an automatic identity; imports name explicit ones", u->id.s, name);
				diag_set_help(d, "give the declaration an explicit `@id(\"…\")` in `%s`", name);
			}
			links[i].use = u;
			links[i].provider = p->mods[t]->s.S;
			links[i].target = h.sym;
		}
		if (d)
			ok = false;
		free(name);
	}
	sema_strmap_free(&seen);
	for (int i = 0; i < s->m->nuses; i++)
		free(keys[i]);
	free(keys);
	return ok;
}

/* Project sources are canonical text (the reference's G170); false after
 * reporting that s is not. */
static bool
canonical(ProgModule *pm)
{
	Session *s = &pm->s;
	Buf b = {0};
	fmt_module(&b, s->m, s->src, s->len);
	bool same = b.len == s->len && memcmp(b.data, s->src, s->len) == 0;
	if (!same) {
		/* the first line that differs, compared line by line as the
		 * manifest's J100 does; the span is that line of the source
		 * (zero-width at its end when the source is the shorter) */
		const char *x = b.data, *xe = b.data + b.len, *y = s->src, *ye = s->src + s->len;
		unsigned line = 1;
		for (;;) {
			const char *xn = x < xe ? memchr(x, '\n', (size_t)(xe - x)) : NULL;
			const char *yn = y < ye ? memchr(y, '\n', (size_t)(ye - y)) : NULL;
			size_t xl = x < xe ? (size_t)((xn ? xn : xe) - x) : 0, yl = y < ye ? (size_t)((yn ? yn : ye) - y) : 0;
			if (x < xe && y < ye && xl == yl && memcmp(x, y, xl) == 0 && (xn != NULL) == (yn != NULL)) {
				x = xn ? xn + 1 : xe;
				y = yn ? yn + 1 : ye;
				line++;
				continue;
			}
			break;
		}
		Span at = { (uint32_t)(y - s->src), (uint32_t)(y - s->src) };
		if (y < ye) {
			const char *yn = memchr(y, '\n', (size_t)(ye - y));
			at.end = (uint32_t)((yn ? yn : ye) - s->src);
		}
		const char *path = driver_module_path(pm);
		Diag *d = diag_report(&s->diags, DIAG_G170, &at, "project source `%s` is not canonical", path);
		/* the path is the manifest's: a command names where it works */
		if (d)
			diag_set_help(d, "line %u differs from the canonical text; `semaprax fmt %s`%s rewrites it", line, path,
			    strcmp(path, s->diags.path) != 0 ? " in the project directory" : "");
	}
	buf_free(&b);
	return same;
}

/* ---- one stable id, one declaration, across modules ---------------------- */

/* Every explicit `@id` written in m's tree, in source order: declarations,
 * record fields, cases and their fields, class members, resource
 * lifecycles, interface imports. */
typedef void (*IdVisit)(void *ctx, const IdAttr *a);
static void
each_explicit_id(const Module *m, IdVisit f, void *ctx)
{
	for (int k = 0; k < m->ndecls; k++) {
		const Decl *d = &m->decls[k];
		if (d->id.present)
			f(ctx, &d->id);
		switch (d->kind) {
		case DECL_RECORD:
			for (int i = 0; i < d->u.record.nfields; i++)
				if (d->u.record.fields[i].id.present)
					f(ctx, &d->u.record.fields[i].id);
			break;
		case DECL_VARIANT:
			for (int i = 0; i < d->u.variant.ncases; i++) {
				const CaseDecl *c = &d->u.variant.cases[i];
				if (c->id.present)
					f(ctx, &c->id);
				for (int j = 0; j < c->nfields; j++)
					if (c->fields[j].id.present)
						f(ctx, &c->fields[j].id);
			}
			break;
		case DECL_CLASS:
			for (int i = 0; i < d->u.class_.nmembers; i++)
				if (d->u.class_.members[i].id.present)
					f(ctx, &d->u.class_.members[i].id);
			break;
		case DECL_RESOURCE:
			for (int i = 0; i < d->u.resource.ndrops; i++)
				if (d->u.resource.drops[i].id.present)
					f(ctx, &d->u.resource.drops[i].id);
			break;
		case DECL_INTERFACE:
			for (int i = 0; i < d->u.interface.nimports; i++)
				if (d->u.interface.imports[i].id.present)
					f(ctx, &d->u.interface.imports[i].id);
			break;
		default:
			break;
		}
	}
}

typedef struct IdSite {
	ModuleId mod;
	const IdAttr *at;
} IdSite;

typedef struct IdDups {
	Program *p;
	ModuleId mod;         /* the module being walked */
	StrMap all;           /* id → index in sites: its first module's declaration */
	StrMap mine;          /* the ids of mod so far (a repeat there is S102, the checker's) */
	VEC(IdSite) sites;
	bool report;          /* false: only find one */
	int found;
} IdDups;

static void
report_id_twice(IdDups *w, const IdSite *first, const IdAttr *a)
{
	Program *p = w->p;
	IdSite at = { w->mod, a }, other = *first;
	/* reported in a listed source: a bundled module (no manifest row) is the
	 * one the user cannot edit */
	if (p->mods[at.mod]->src_index == 0 && p->mods[other.mod]->src_index > 0) {
		IdSite t = at;
		at = other;
		other = t;
	}
	Session *os = &p->mods[other.mod]->s;
	uint32_t line, col;
	diag_locate(&os->diags, other.at->span.start, &line, &col);
	const char *id = a->value.s;
	Diag *d = diag_report(&p->mods[at.mod]->s.diags, DIAG_G172, &at.at->span, "stable id `%s` is also declared by module `%s` (%s:%u:%u)", id,
	    p->mods[other.mod]->name, driver_module_path(p->mods[other.mod]) ? driver_module_path(p->mods[other.mod]) : "?", line, col);
	if (p->mods[other.mod]->src_index == 0 && p->mods[at.mod]->src_index > 0)
		diag_set_help(d, "the id belongs to the bundled module `%s`: give this declaration an `@id(\"…\")` in your own namespace "
		    "and update the `use` lines that import it", p->mods[other.mod]->name);
	else
		diag_set_help(d, "a stable id names one declaration in the whole project: give one of the two another `@id(\"…\")` "
		    "and update the `use` lines that import it");
}

static void
visit_id(void *ctx, const IdAttr *a)
{
	IdDups *w = ctx;
	const char *id = a->value.s;
	/* an empty id, a NUL in one or a compiler-owned one is the checker's */
	if (!id || !id[0] || strlen(id) != a->value.len || sema_builtin_find_id(id))
		return;
	if (!sema_strmap_put(&w->mine, id, 0))
		return;
	int32_t k = sema_strmap_get(&w->all, id);
	if (k < 0) {
		IdSite site = { w->mod, a };
		sema_strmap_put(&w->all, id, (int32_t)w->sites.len);
		VEC_PUSH(w->sites, site);
		return;
	}
	w->found++;
	if (w->report)
		report_id_twice(w, &w->sites.items[k], a);
}

/* The reference's workspace rule (G172): an explicit stable id is declared
 * once in the whole program.  Each repeat in a later module (ModuleId
 * order) is reported there, naming the first; with !report nothing is
 * reported.  Parsed trees only.  The number of repeats. */
static int
cross_module_ids(Program *p, bool report)
{
	IdDups w = {0};
	w.p = p;
	w.report = report;
	for (int m = 0; m < p->nmods; m++) {
		if (!p->mods[m]->s.m)
			continue;
		w.mod = (ModuleId)m;
		sema_strmap_clear(&w.mine);
		each_explicit_id(p->mods[m]->s.m, visit_id, &w);
	}
	sema_strmap_free(&w.all);
	sema_strmap_free(&w.mine);
	VEC_FREE(w.sites);
	return w.found;
}

/* p->order: the dependency order (providers first, ties by ModuleId);
 * false after reporting a cycle (G172). */
static bool
order_modules(Program *p)
{
	free(p->order);
	p->order = spx_xcalloc((size_t)(p->nmods ? p->nmods : 1), sizeof *p->order);
	LinkWalk w = {0};
	w.p = p;
	w.deps = spx_xcalloc((size_t)p->nmods, sizeof *w.deps);
	w.ndeps = spx_xcalloc((size_t)p->nmods, sizeof *w.ndeps);
	w.state = spx_xcalloc((size_t)p->nmods, 1);
	w.stack = spx_xcalloc((size_t)p->nmods, sizeof *w.stack);
	for (int m = 0; m < p->nmods; m++) {
		Session *s = &p->mods[m]->s;
		w.deps[m] = spx_xcalloc((size_t)(s->m->nuses ? s->m->nuses : 1), sizeof **w.deps);
		for (int i = 0; i < s->m->nuses; i++) {
			char *name = use_module(s, &s->m->uses[i]);
			ModuleId t = driver_program_find(p, name);
			if (t != DRIVER_NO_MODULE && t != (ModuleId)m)
				w.deps[m][w.ndeps[m]++] = t;
			free(name);
		}
	}
	for (int m = 0; m < p->nmods && !w.cycle; m++)
		if (w.state[m] == 0)
			walk(&w, (ModuleId)m);
	for (int m = 0; m < p->nmods; m++)
		free(w.deps[m]);
	free(w.deps);
	free(w.ndeps);
	free(w.state);
	free(w.stack);
	return !w.cycle;
}

/* The link step of module m: its uses resolved, the check, its revision;
 * then its status (linked_ok, iface) and where its diagnostics stand. */
static bool
link_module(Program *p, ModuleId m, bool lazy)
{
	ProgModule *pm = p->mods[m];
	Session *s = &pm->s;
	SemaLink *links = spx_xcalloc((size_t)(s->m->nuses ? s->m->nuses : 1), sizeof *links);
	bool linked = resolve_uses(p, m, links);
	bool ok = linked && driver_check_linked(s, links, s->m->nuses);
	if (ok && !lazy)
		driver_revision(s);
	free(links);
	pm->linked_ok = s->S && s->diags.errors == 0;
	if (pm->linked_ok)
		driver_module_interface(s->S, pm->iface);
	else
		memset(pm->iface, 0, sizeof pm->iface);
	pm->ndiag_link = s->diags.items.len;
	pm->checked_now = true;
	pm->resolve_now = false;
	free(pm->rechecked);
	pm->rechecked = NULL;
	pm->nrechecked = 0;
	pm->revision_pending = ok && lazy;   /* driver_program_revision renders it */
	pm->S_nexprs = s->m->nexprs;
	pm->S_ncalls = s->m->ncalls;
	return ok;
}

bool
driver_program_check_linked(Program *p)
{
	bool ok = driver_program_load(p, SESSION_PARSE);
	for (int i = 0; i < p->nmods; i++) {
		p->mods[i]->ndiag_parse = p->mods[i]->s.diags.items.len;
		p->mods[i]->parsed_now = p->mods[i]->s.m != NULL;
	}
	free(p->order);
	p->order = spx_xcalloc((size_t)(p->nmods ? p->nmods : 1), sizeof *p->order);
	for (int i = 1; i < p->nmods; i++) {
		ProgModule *a = p->mods[i - 1], *b = p->mods[i];
		if (b->name[0] && strcmp(a->name, b->name) == 0 && b->s.m) {
			Diag *d = diag_report(&b->s.diags, DIAG_G172, &b->s.m->module_span, "module `%s` is also declared by %s", b->name, driver_module_path(a));
			diag_set_help(d, "each project source declares its own module name");
			ok = false;
		}
	}
	for (int i = 0; ok && i < p->nmods; i++)
		canonical(p->mods[i]);
	for (int i = 0; i < p->nmods; i++)
		ok &= p->mods[i]->s.diags.errors == 0;
	if (ok && p->nmods > 1 && cross_module_ids(p, true) > 0)
		ok = false;
	if (!ok || !order_modules(p))
		return false;
	p->linked = true;
	for (int k = 0; k < p->nmods; k++)
		ok &= link_module(p, p->order[k], false);
	program_revision(p);
	return ok;
}

/* ---- incremental re-checks (program.h) ---------------------------------- */

/* The interface digest's fields go to one buffer, hashed once (thousands
 * of 8-byte sha256_update calls cost more than the check of a body). */
static void
h_int(Buf *h, int64_t v)
{
	buf_put(h, (const char *)&v, sizeof v);
}

static void
h_str(Buf *h, const char *s)
{
	if (!s) {
		h_int(h, -1);
		return;
	}
	size_t n = strlen(s);
	h_int(h, (int64_t)n);
	buf_put(h, s, n);
}

static void
h_type(Buf *h, const TypeTable *t, TypeId id)
{
	const TypeInfo *ti = sema_type_info(t, id);
	h_int(h, ti->kind);
	h_int(h, ti->decl);
	h_int(h, (int64_t)ti->n);
	h_int(h, ti->nargs);
	for (int i = 0; i < ti->nargs; i++)
		h_type(h, t, ti->args[i]);
}

static void
h_fields(Buf *h, const TypeTable *t, const FieldSym *f, int n)
{
	h_int(h, n);
	for (int i = 0; i < n; i++) {
		h_str(h, f[i].name);
		h_str(h, f[i].id);
		h_int(h, f[i].explicit_id);
		h_int(h, f[i].declared_in);
		h_type(h, t, f[i].type);
	}
}

void
driver_module_interface(const Sema *S, unsigned char out[32])
{
	Buf h = {0};
	static const char tag[] = "semaprax.module-interface.v1";
	buf_put(&h, tag, sizeof tag);
	h_str(&h, S->module_name);
	h_int(&h, S->sym_option);
	h_int(&h, S->sym_result);
	h_int(&h, S->sym_iterstep);
	h_int(&h, S->syms.len);
	for (int i = 0; i < S->syms.len; i++) {
		const Sym *y = &S->syms.items[i];
		h_int(&h, y->kind);
		h_str(&h, y->name);
		h_str(&h, y->id);
		h_str(&h, y->origin);
		h_int(&h, y->explicit_id);
		h_int(&h, y->prelude);
		if (y->origin)
			continue;   /* imported: an importer reads its identity only (not in
			             * S->ids, so never a link target; a type's decl names it) */
		h_int(&h, y->resolved);
		h_int(&h, y->nom->copy);
		h_int(&h, y->owner);
		h_int(&h, y->nom->parent);
		h_int(&h, y->ntparams);
		h_int(&h, y->nom->field_dups);
		h_fields(&h, &S->types, y->nom->fields, y->nom->fields ? y->nom->nfields : 0);
		h_int(&h, y->nom->cases ? y->nom->ncases : 0);
		for (int j = 0; y->nom->cases && j < y->nom->ncases; j++) {
			const CaseSym *c = &y->nom->cases[j];
			h_str(&h, c->name);
			h_str(&h, c->id);
			h_int(&h, c->explicit_id);
			h_int(&h, c->has_payload);
			h_int(&h, c->field_dups);
			h_fields(&h, &S->types, c->fields, c->fields ? c->nfields : 0);
		}
		h_int(&h, y->nom->methods ? y->nom->nmethods : 0);
		for (int j = 0; y->nom->methods && j < y->nom->nmethods; j++)
			h_int(&h, y->nom->methods[j]);
		h_int(&h, y->params ? y->nparams : 0);
		for (int j = 0; y->params && j < y->nparams; j++) {
			h_str(&h, y->params[j].name);
			h_int(&h, y->params[j].mode);
			h_type(&h, &S->types, y->params[j].type);
		}
		h_int(&h, y->kind == SK_FN || y->kind == SK_METHOD);
		if (y->kind == SK_FN || y->kind == SK_METHOD)
			h_type(&h, &S->types, y->result);
		h_int(&h, y->effects ? y->neffects : 0);
		for (int j = 0; y->effects && j < y->neffects; j++)
			h_str(&h, y->effects[j]);
		bool res = y->kind == SK_RESOURCE && y->decl && y->decl->kind == DECL_RESOURCE;
		h_int(&h, res);
		if (res) {
			h_int(&h, ast_resource_drop0(y->decl)->trivial);
			h_int(&h, y->decl->u.resource.ndrops);
		}
	}
	Sha256 d;
	sha256_init(&d);
	sha256_update(&d, h.data, h.len);
	sha256_final(&d, out);
	buf_free(&h);
}

static int
by_path(const void *a, const void *b)
{
	const ProgModule *x = *(ProgModule *const *)a, *y = *(ProgModule *const *)b;
	return strcmp(x->s.diags.path, y->s.diags.path);
}

void
driver_program_carry(Program *p, Program *old, const bool *same)
{
	if (!old->linked)
		return;
	/* old's modules by path (distinct: one session per listed file) */
	ProgModule **ix = spx_xmalloc(sizeof *ix * (size_t)(old->nmods ? old->nmods : 1));
	int *at = spx_xmalloc(sizeof *at * (size_t)(old->nmods ? old->nmods : 1));
	int n = 0;
	for (int j = 0; j < old->nmods; j++)
		if (old->mods[j])
			ix[n++] = old->mods[j];
	qsort(ix, (size_t)n, sizeof *ix, by_path);
	for (int k = 0; k < n; k++)
		for (int j = 0; j < old->nmods; j++)
			if (old->mods[j] == ix[k]) {
				at[k] = j;
				break;
			}
	for (int i = 0; i < p->nmods; i++) {
		ProgModule *pm = p->mods[i];
		ProgModule key, *kp = &key, **hit;
		key.s.diags.path = pm->s.diags.path;
		hit = bsearch(&kp, ix, (size_t)n, sizeof *ix, by_path);
		if (!hit)
			continue;
		ProgModule *om = *hit;
		int j = at[hit - ix];
		bool equal = same && same[i] ? true
		           : pm->s.src && om->s.src && pm->s.len == om->s.len && memcmp(pm->s.src, om->s.src, pm->s.len) == 0;
		if (equal && om->s.m && !om->s.diags.truncated) {
			om->carried_path = om->s.diags.path;
			om->carried_from = j;
			om->s.diags.path = pm->s.diags.path;   /* borrowed from p's owner */
			om->carried = true;
			om->parsed_now = om->checked_now = om->iface_changed = om->spliced_now = om->resolve_now = false;
			free(om->rechecked);
			om->rechecked = NULL;
			om->nrechecked = 0;
			om->src_index = pm->src_index;
			if (!(same && same[i]))
				om->disk = pm->disk;
			driver_session_free(&pm->s);
			free(pm->name);
			free(pm->prev_name);
			free(pm->spelled);
			free(pm);
			p->mods[i] = om;
			old->mods[j] = NULL;
		} else {
			pm->prev_name = spx_xstrdup(om->name ? om->name : "");
			pm->prev_ok = om->linked_ok;
			memcpy(pm->prev_iface, om->iface, sizeof pm->prev_iface);
			/* a clean checked module whose bytes changed: a splice candidate */
			if (pm->s.src && om->s.m && om->s.S && om->linked_ok && om->s.diags.items.len == 0 && !om->s.diags.truncated) {
				om->carried_path = om->s.diags.path;
				om->carried_from = j;
				om->s.diags.path = pm->s.diags.path;
				pm->edit_base = om;
				old->mods[j] = NULL;
			}
		}
	}
	free(ix);
	free(at);
}

/* pm's unspliced edit base back into old, where carry took it from. */
static void
give_back(ProgModule *pm, Program *old)
{
	ProgModule *om = pm->edit_base;
	om->s.diags.path = om->carried_path;
	old->mods[om->carried_from] = om;
	pm->edit_base = NULL;
}

void
driver_program_uncarry(Program *p, Program *old)
{
	for (int i = 0; i < p->nmods; i++) {
		ProgModule *pm = p->mods[i];
		if (pm && pm->edit_base)
			give_back(pm, old);
		if (!pm || !pm->carried)
			continue;
		pm->s.diags.path = pm->carried_path;
		old->mods[pm->carried_from] = pm;
		p->mods[i] = NULL;
	}
}

static void
diags_truncate(DiagSink *d, int n)
{
	while (d->items.len > n)
		diag_remove(d, d->items.len - 1);
}

static Span
decl_name_span(const Decl *d)
{
	const Name *n = ast_decl_name(d);
	return n ? n->span : d->span;
}

/*
 * The edit of pm's bytes against its edit base, when it lies inside one
 * non-generic function of a clean checked module with no generic function:
 * that function is re-parsed and spliced into the base's tree
 * (parse_splice_decl, which refuses whatever could differ from a whole
 * parse) and the base takes pm's place with pm's text; the declaration's
 * index, or -1 (the base is given back to old, untouched).  The link loop
 * re-checks it (recheck_body or recheck_select).
 */
enum { SPLICE_SLACK = 64 << 10 };
static int
splice_module(Program *p, int i, Program *old)
{
	ProgModule *pm = p->mods[i], *om = pm->edit_base;
	Session *s = &om->s;
	Module *m = s->m;
	size_t la = s->len, lb = pm->s.len, lim = la < lb ? la : lb, a = 0, q = 0;
	while (a < lim && s->src[a] == pm->s.src[a])
		a++;
	while (q < lim - a && s->src[la - 1 - q] == pm->s.src[lb - 1 - q])
		q++;
	int k = -1;
	for (int d = 0; d < m->ndecls; d++)
		if (m->decls[d].kind == DECL_FN && m->decls[d].u.fn.ntparams > 0)
			k = -2;   /* a generic function: instances are whole-module */
	int lo = 0, hi = m->ndecls;
	while (k == -1 && lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (m->decls[mid].span.start <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	k = k == -1 ? lo - 1 : -1;
	const Decl *d = k >= 0 ? &m->decls[k] : NULL;
	int64_t delta = (int64_t)lb - (int64_t)la;
	uint32_t new_end = d ? (uint32_t)((int64_t)d->span.end + delta) : 0;
	bool ok = d && d->kind == DECL_FN && d->u.fn.body && d->u.fn.ntparams == 0 && a >= d->span.start &&
	          la - q <= d->span.end && new_end > d->span.start && om->spliced + (new_end - d->span.start) <= lb + SPLICE_SLACK;
	bool in_body = ok && a > d->u.fn.body->span.start;   /* past its `{`: the text before it unchanged */
	char *old_name = NULL;
	if (ok) {
		Span n = decl_name_span(d);
		old_name = spx_xstrndup(s->src + n.start, n.end - n.start);
	}
	ok = ok && parse_splice_decl(m, k, s->src, pm->s.src, lb, new_end, &s->arena, NULL);
	if (!ok) {
		free(old_name);
		give_back(pm, old);
		return -1;
	}
	/* the base takes pm's place and text */
	free(om->splice_old_name);
	om->splice_old_name = old_name;
	om->splice_in_body = in_body;
	free(s->src);
	s->src = pm->s.src;
	s->len = lb;
	pm->s.src = NULL;
	s->diags.src = s->src;
	s->diags.src_len = s->len;
	s->diags.pos_src = NULL;   /* the position index names the old text */
	s->revision[0] = '\0';
	om->spliced += new_end - m->decls[k].span.start;
	om->splice_at = (uint32_t)(la - q);
	om->splice_delta = delta;
	om->carried = false;
	om->parsed_now = om->checked_now = om->iface_changed = om->resolve_now = false;
	free(om->rechecked);
	om->rechecked = NULL;
	om->nrechecked = 0;
	om->spliced_now = true;
	om->spliced_decl = k;
	om->src_index = pm->src_index;
	om->disk = pm->disk;
	pm->edit_base = NULL;
	driver_session_free(&pm->s);
	free(pm->name);
	free(pm->prev_name);
	free(pm->spelled);
	free(pm);
	p->mods[i] = om;
	return k;
}

static bool
word_byte(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || (unsigned char)c >= 0x80;
}

/* Whether s[0..n) mentions the word w (identifier boundaries; in strings
 * and comments too: an over-approximation, as the single-file service's). */
static bool
mentions(const char *s, size_t n, const char *w)
{
	size_t k = strlen(w);
	for (size_t i = 0; k && i + k <= n; i++) {
		if (s[i] != w[0] || memcmp(s + i, w, k) != 0)
			continue;
		bool before = i > 0 && word_byte(s[i - 1]);
		bool after = i + k < n && word_byte(s[i + k]);
		if (!before && !after)
			return true;
	}
	return false;
}

static void
note_rechecked(ProgModule *pm, const bool *select, int n)
{
	free(pm->rechecked);
	pm->rechecked = spx_xmalloc(sizeof *pm->rechecked * (size_t)(n ? n : 1));
	pm->nrechecked = 0;
	for (int i = 0; i < n; i++)
		if (select[i])
			pm->rechecked[pm->nrechecked++] = i;
}

/*
 * A spliced function whose signature or contract text changed: the
 * declaration pass and the bodies that name it (before or after), its own
 * included, in a fresh reduced check (sema_check_select) — the single-file
 * service's rule: a body reads its own text and the signatures of the names
 * it mentions.  The module checked clean before, so when this reports
 * nothing a whole check reports nothing either; else false (reports
 * dropped, the caller runs the whole link step).  Its interface may change.
 */
static bool
recheck_select(Program *p, ModuleId mid)
{
	ProgModule *pm = p->mods[mid];
	Session *s = &pm->s;
	const Module *m = s->m;
	const Decl *dk = &m->decls[pm->spliced_decl];
	if (dk->kind != DECL_FN || dk->u.fn.ntparams > 0 || !dk->u.fn.body)
		return false;   /* now generic (instances are whole-module), or no body */
	Span nn = decl_name_span(dk);
	char *name = spx_xstrndup(s->src + nn.start, nn.end - nn.start);
	bool *select = spx_xcalloc((size_t)(m->ndecls ? m->ndecls : 1), sizeof *select);
	for (int i = 0; i < m->ndecls; i++) {
		const Decl *d = &m->decls[i];
		if (d->kind != DECL_FN && d->kind != DECL_CLASS)
			continue;
		const char *t = s->src + d->span.start;
		size_t n = d->span.end - d->span.start;
		select[i] = i == pm->spliced_decl || mentions(t, n, name) || mentions(t, n, pm->splice_old_name);
	}
	free(name);
	SemaLink *links = spx_xcalloc((size_t)(m->nuses ? m->nuses : 1), sizeof *links);
	bool ok = resolve_uses(p, mid, links);
	if (ok) {
		int range[2];
		if (s->S)
			sema_free(s->S);
		s->S = sema_check_select(m, s->src, s->len, &s->diags, links, m->nuses, select, range);
		s->S->select = NULL;
		ok = s->diags.items.len == 0;
	}
	free(links);
	if (ok) {
		pm->S_nexprs = m->nexprs;
		pm->S_ncalls = m->ncalls;
		note_rechecked(pm, select, m->ndecls);
		pm->resolve_now = true;
		driver_module_interface(s->S, pm->iface);
		pm->iface_changed = memcmp(pm->iface, pm->prev_iface, sizeof pm->iface) != 0;
		pm->revision_pending = true;
	}
	free(select);
	return ok;
}

/* The body of the spliced declaration re-checked in the kept Sema
 * (sema_recheck_select): true when it reported nothing, so the module's
 * check is what a whole one gives (nothing); else its reports are dropped
 * and the caller runs the whole link step. */
static bool
recheck_body(ProgModule *pm)
{
	Session *s = &pm->s;
	int k = pm->spliced_decl, range[2];
	bool *select = spx_xcalloc((size_t)s->m->ndecls, sizeof *select);
	select[k] = true;
	sema_recheck_select(s->S, s->src, s->len, pm->S_nexprs, pm->S_ncalls, pm->splice_at, pm->splice_delta, select, range);
	s->S->select = NULL;
	free(select);
	pm->S_nexprs = s->m->nexprs;
	pm->S_ncalls = s->m->ncalls;
	if (s->diags.items.len == 0) {
		pm->revision_pending = true;   /* driver_program_revision renders it */
		bool one = true;
		note_rechecked(pm, &one, 1);
		pm->rechecked[0] = k;
		return true;
	}
	return false;
}

/* A provider of module m was re-checked here with another status. */
static bool
provider_changed(Program *p, ModuleId m)
{
	Session *s = &p->mods[m]->s;
	bool changed = false;
	for (int i = 0; i < s->m->nuses && !changed; i++) {
		char *name = use_module(s, &s->m->uses[i]);
		ModuleId t = driver_program_find(p, name);
		changed = t != DRIVER_NO_MODULE && t != m && p->mods[t]->iface_changed;
		free(name);
	}
	return changed;
}

int
driver_program_recheck(Program *p, Program *old)
{
	if (p->nmods == 0)
		return -1;
	for (int i = 0; i < p->nmods; i++) {
		ProgModule *pm = p->mods[i];
		if (pm->carried) {
			/* what the layer above reported after the link step is its own */
			diags_truncate(&pm->s.diags, pm->ndiag_link);
			continue;
		}
		if (pm->edit_base && splice_module(p, i, old) >= 0)
			continue;   /* one body re-parsed in place; p->mods[i] is the base now */
		if (!pm->prev_name || (!pm->s.src && !driver_read(&pm->s)) || !driver_parse(&pm->s))
			return -1;
		pm->ndiag_parse = pm->s.diags.items.len;
		pm->parsed_now = true;
		free(pm->name);
		pm->name = module_name(&pm->s);
		if (strcmp(pm->name, pm->prev_name) != 0)
			return -1;
	}
	for (int i = 0; i < p->nmods; i++)
		if (p->mods[i]->carried || p->mods[i]->spliced_now) {
			free(p->mods[i]->name);
			p->mods[i]->name = module_name(&p->mods[i]->s);
		}
	if (p->nmods > 1)
		qsort(p->mods, (size_t)p->nmods, sizeof *p->mods, by_name_then_path);
	p->loaded = true;
	/* the names are the earlier program's, which had no repeated one; a
	 * carried module passed G170 there */
	for (int i = 0; i < p->nmods; i++)
		if (!p->mods[i]->carried && !canonical(p->mods[i]))
			return -1;   /* a spliced module is lost to old: the next refresh is whole */
	/* an id written anew may repeat another module's (G172): the cold
	 * check reports it; a body edit writes none */
	bool new_ids = false;
	for (int i = 0; i < p->nmods; i++)
		new_ids |= !p->mods[i]->carried && !(p->mods[i]->spliced_now && p->mods[i]->splice_in_body);
	if (new_ids && p->nmods > 1 && cross_module_ids(p, false) > 0)
		return -1;
	if (!order_modules(p))
		return -1;
	p->linked = true;
	bool ok = true;
	for (int k = 0; k < p->nmods; k++) {
		ModuleId m = p->order[k];
		ProgModule *pm = p->mods[m];
		bool changed = provider_changed(p, m);
		if (pm->carried && !changed) {
			ok &= pm->linked_ok;
			continue;
		}
		if (pm->spliced_now && !changed) {
			pm->prev_ok = pm->linked_ok;
			memcpy(pm->prev_iface, pm->iface, sizeof pm->iface);
			if (pm->splice_in_body ? recheck_body(pm) : recheck_select(p, m)) {
				ok &= pm->linked_ok;
				continue;
			}
		}
		if (pm->carried || pm->spliced_now) {
			Session *s = &pm->s;
			pm->prev_ok = pm->linked_ok;
			memcpy(pm->prev_iface, pm->iface, sizeof pm->iface);
			hir_free(s->H);
			s->H = NULL;
			if (s->S)
				sema_free(s->S);
			s->S = NULL;
			s->revision[0] = '\0';
			memset(&s->prelude, 0, sizeof s->prelude);
			diags_truncate(&s->diags, pm->ndiag_parse);
		}
		ok &= link_module(p, m, true);
		pm->iface_changed = pm->linked_ok != pm->prev_ok || (pm->linked_ok && memcmp(pm->iface, pm->prev_iface, sizeof pm->iface) != 0);
	}
	p->revision_pending = false;
	for (int i = 0; i < p->nmods; i++)
		p->revision_pending |= p->mods[i]->revision_pending;
	p->revision[0] = '\0';
	if (!p->revision_pending)
		program_revision(p);
	return ok ? 1 : 0;
}

void
driver_program_revision(Program *p)
{
	if (!p->revision_pending)
		return;
	for (int i = 0; i < p->nmods; i++)
		if (p->mods[i]->revision_pending) {
			/* its link step verified it (driver_revision's condition then;
			 * the project layer's role checks may have reported since) */
			Session *s = &p->mods[i]->s;
			sema_revision(s->m, s->revision, &s->prelude);
			p->mods[i]->revision_pending = false;
		}
	p->revision_pending = false;
	program_revision(p);
}

ModuleId
driver_program_find(const Program *p, const char *name)
{
	if (!p->loaded)
		return DRIVER_NO_MODULE;
	/* loaded modules are in ModuleId order (name first): the first of that
	 * name by binary search, so resolving a project's uses stays linear */
	int lo = 0, hi = p->nmods;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (strcmp(p->mods[mid]->name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < p->nmods && strcmp(p->mods[lo]->name, name) == 0 ? (ModuleId)lo : DRIVER_NO_MODULE;
}

bool
driver_program_lookup(const Program *p, const char *module, const char *id, ProgHandle *out)
{
	ModuleId m = driver_program_find(p, module);
	if (m == DRIVER_NO_MODULE || !p->mods[m]->s.S)
		return false;
	const Sema *S = p->mods[m]->s.S;
	int32_t v = sema_strmap_get(&S->ids, id);
	/* ids also holds members (fields, cases); a handle names a symbol */
	if (v < 0 || v >= S->syms.len || strcmp(S->syms.items[v].id, id) != 0)
		return false;
	out->mod = m;
	out->sym = v;
	return true;
}

const Sym *
driver_program_sym(const Program *p, ProgHandle h)
{
	if (!p->loaded || h.mod >= (ModuleId)p->nmods || !p->mods[h.mod]->s.S)
		return NULL;
	const Sema *S = p->mods[h.mod]->s.S;
	return h.sym >= 0 && h.sym < S->syms.len ? &S->syms.items[h.sym] : NULL;
}

void
driver_program_free(Program *p)
{
	for (int i = 0; i < p->nmods; i++) {
		if (!p->mods[i])
			continue;   /* carried into a later program */
		if (p->mods[i]->edit_base) {
			driver_session_free(&p->mods[i]->edit_base->s);
			free(p->mods[i]->edit_base->name);
			free(p->mods[i]->edit_base->prev_name);
			free(p->mods[i]->edit_base->splice_old_name);
			free(p->mods[i]->edit_base->rechecked);
			free(p->mods[i]->edit_base->spelled);
			free(p->mods[i]->edit_base);
		}
		driver_session_free(&p->mods[i]->s);
		free(p->mods[i]->name);
		free(p->mods[i]->prev_name);
		free(p->mods[i]->splice_old_name);
		free(p->mods[i]->rechecked);
		free(p->mods[i]->spelled);
		free(p->mods[i]);
	}
	free(p->mods);
	free(p->order);
	memset(p, 0, sizeof *p);
}
