/*
 * mono_test.c — the instance types a lane reads from hir_mono
 * (src/hir/mono.c): for every expression, call type argument and pattern
 * node of every instance, hir_mono_type gives the template type with the
 * instance's type arguments substituted (closed, no type parameter left),
 * from the mono result's own table, and a type of a monomorphic instance
 * is itself.
 */
#include <string.h>

#include "../../src/driver/session.h"
#include "../../src/hir/hir.h"
#include "unit.h"

static const char prog[] =
	"module unit.mono;\n"
	"\n"
	"@id(\"unit.wrap\")\n"
	"fn wrap<T>(x: T) -> Option<T>\n"
	"{\n"
	"    Option<T>::Some { value: x }\n"
	"}\n"
	"\n"
	"@id(\"unit.size\")\n"
	"fn size<T>(x: T) -> i64\n"
	"{\n"
	"    let w = wrap<T>(x);\n"
	"    match own wrap<Vec<T>>(vec_with_capacity<T>(1usize)) {\n"
	"        Option::Some { value } => i64_from_usize(vec_capacity<T>(value)),\n"
	"        Option::None {} => 0,\n"
	"    }\n"
	"}\n"
	"\n"
	"@id(\"app.main\")\n"
	"fn main() -> i64\n"
	"{\n"
	"    size<string>(\"a\") + size<Vec<i64>>(vec_with_capacity<i64>(2usize))\n"
	"}\n";

typedef struct Ctx {
	HirModule *H;
	int inst;
	int checked, bad;
} Ctx;

static void
one(Ctx *c, TypeId t)
{
	const HirInst *in = &c->H->mono->insts[c->inst];
	TypeId want = in->ntargs ? sema_type_subst(&c->H->S->types, t, (uint32_t)in->owner, in->targs, in->ntargs) : t;
	TypeId got = hir_mono_type(c->H, c->inst, t), entry;
	bool open = sema_type_info(&c->H->S->types, t)->open;
	c->checked++;
	if (got != want || sema_type_info(&c->H->S->types, got)->open ||
	    (in->ntargs && open && !hir_mono_type_entry(c->H->mono, c->inst, t, &entry)) || (!in->ntargs && got != t))
		c->bad++;
}

static void
pattern(Ctx *c, const HirPattern *p)
{
	if (!p)
		return;
	one(c, p->type);
	for (int i = 0; i < p->nfields; i++)
		pattern(c, p->subs[i]);
}

static void
pre(void *ctx, const HirExpr *e)
{
	Ctx *c = ctx;
	one(c, e->type);
	for (int i = 0; e->kind == HIR_CALL && i < e->u.call.ntargs; i++)
		one(c, e->u.call.targs[i]);
	for (int i = 0; e->kind == HIR_MATCH && i < e->u.match.narms; i++)
		pattern(c, e->u.match.arms[i].pat);
}

void
unit_mono_checks(void)
{
	Session s;
	driver_session_init(&s, "mono.spx");
	driver_set_source(&s, prog, strlen(prog));
	bool ok = driver_parse(&s) && driver_check(&s);
	driver_revision(&s);
	ok = ok && driver_lower(&s) && driver_mono(&s);
	unit_check(ok, "mono: the generic program verifies, lowers and monomorphises");
	if (ok) {
		const HirMono *m = s.H->mono;
		Ctx c = { s.H, 0, 0, 0 };
		int generic = 0;
		for (int i = 0; i < m->ninsts; i++) {
			c.inst = i;
			generic += m->insts[i].ntargs > 0;
			HirVisitor v = { pre, NULL, NULL, &c };
			hir_visit(&s.H->funcs[m->insts[i].func], &v);
		}
		unit_check(m->ninsts == 7 && generic == 6, "mono: main; size at string and Vec<i64>; wrap at those and Vec of them");
		unit_check(c.checked > 20 && c.bad == 0, "mono: hir_mono_type gives every instance type from its table");
		unit_check(m->types_cap >= 16 && (m->types_cap & (m->types_cap - 1)) == 0, "mono: the table is a power of two");
	}
	driver_session_free(&s);
}
