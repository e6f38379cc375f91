/*
 * program.c — the Program layer (program.h): many modules, each a Session,
 * a deterministic ModuleId order and the program revision.
 */
#include "program.h"

#include <stdlib.h>
#include <string.h>

#include "../support/sha256.h"

void
driver_program_init(Program *p)
{
	memset(p, 0, sizeof *p);
}

Session *
driver_program_add(Program *p, const char *path, const char *src, size_t len)
{
	if (p->nmods == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 4;
		p->mods = spx_xrealloc(p->mods, sizeof *p->mods * (size_t)p->cap);
	}
	ProgModule *pm = spx_xmalloc(sizeof *pm);
	pm->name = NULL;
	driver_session_init(&pm->s, path);
	if (src)
		driver_set_source(&pm->s, src, len);
	p->mods[p->nmods++] = pm;
	p->loaded = false;
	return &pm->s;
}

/* The dotted module name as written (`module a.b;`), or "" before a parse. */
static char *
module_name(const Session *s)
{
	size_t n = 0;
	const char *at = "";
	if (s->m && s->m->name.nparts > 0) {
		at = s->src + s->m->name.span.start;
		n = s->m->name.span.end - s->m->name.span.start;
	}
	char *r = spx_xmalloc(n + 1);
	memcpy(r, at, n);
	r[n] = '\0';
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

ModuleId
driver_program_find(const Program *p, const char *name)
{
	if (!p->loaded)
		return DRIVER_NO_MODULE;
	for (int i = 0; i < p->nmods; i++)
		if (strcmp(p->mods[i]->name, name) == 0)
			return (ModuleId)i;
	return DRIVER_NO_MODULE;
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
		driver_session_free(&p->mods[i]->s);
		free(p->mods[i]->name);
		free(p->mods[i]);
	}
	free(p->mods);
	memset(p, 0, sizeof *p);
}
