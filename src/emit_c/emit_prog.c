/*
 * emit_prog.c — the native lane for a project (emit_c_project, emit.c):
 * what crosses a module boundary in the one translation unit.
 *
 * Each module's C names carry its prefix `p<k>_` (Emit.px), so equal
 * display names and per-module TypeIds never clash.  An authored
 * monomorphic record, variant or class whose fields are all of shareable
 * types is spelled by identity instead, `ty_<module>__<id>` (mangled: an
 * ASCII letter or digit stays, any other byte is `_` and two hex digits),
 * and defined once in the unit, so a value of it means the same C type in
 * every module; so is an Option, Result or IterStep of shareable types
 * (`ty_P<name><n>_<argument keys>_E`).  Shareable: scalars, text, Bytes, borrowed views,
 * Vec/Map/Set/Iter of shareable types (the runtime's generic spx_vec,
 * spx_map, …), Box of a shareable type (`T *`: each module's typedef names
 * the same C type, so a type may hold itself through a Box across modules)
 * and such identity types.  A call of an imported function or
 * method (Sym.origin) names the provider's instance; its parameter and
 * result types must be shareable (B110 otherwise: Option and Result of
 * unshareable types, arrays, function values and generic instances are
 * spelled per module).
 * An imported record's invariants run as the provider's check.
 */
#include "emit_int.h"

#include <stdio.h>
#include <string.h>

static void
mangle(Buf *b, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9'))
			buf_putc(b, (char)*p);
		else
			buf_printf(b, "_%02x", *p);
	}
}

static bool shareable(Emit *E, TypeId t, int depth);

/* An authored monomorphic nominal whose fields are all shareable. */
static bool
shared_nominal(Emit *E, TypeId t, int depth)
{
	const TypeInfo *ti = emitc_tinfo(E, t);
	if (ti->kind != TY_NOMINAL || depth > 16)
		return false;
	const Sym *s = sema_sym(E->S, (SymId)ti->decl);
	if (s->prelude && s->kind == SK_VARIANT) {
		/* Option, Result, IterStep: shared when their arguments are */
		int n = ti->nargs;
		for (int i = 0; i < n; i++)
			if (!shareable(E, emitc_tinfo(E, t)->args[i], depth + 1))
				return false;
		return true;
	}
	if (ti->nargs > 0 || s->prelude || s->ntparams > 0 || (s->kind != SK_RECORD && s->kind != SK_VARIANT && s->kind != SK_CLASS))
		return false;
	for (int i = 0; s->kind != SK_VARIANT && i < s->nfields; i++)
		if (!shareable(E, sema_field_type(E->S, t, i), depth + 1))
			return false;
	for (int c = 0; s->kind == SK_VARIANT && c < s->ncases; c++)
		for (int i = 0; i < s->cases[c].nfields; i++)
			if (!shareable(E, sema_case_field_type(E->S, t, c, i), depth + 1))
				return false;
	return true;
}

static bool
shareable(Emit *E, TypeId t, int depth)
{
	const TypeInfo *ti = emitc_tinfo(E, t);
	switch (ti->kind) {
	case TY_I64: case TY_I32: case TY_U8: case TY_USIZE: case TY_F32: case TY_F64: case TY_BOOL: case TY_CHAR:
	case TY_UNIT: case TY_STRING: case TY_BYTES: case TY_STR: case TY_SLICE:
		return true;
	case TY_VEC: case TY_ITER: case TY_SET: case TY_MAP:
	case TY_BOX:   /* `T *`: each module's typedef names the same C type */
		for (int i = 0; i < ti->nargs; i++)
			if (!shareable(E, emitc_tinfo(E, t)->args[i], depth + 1))
				return false;
		return true;
	case TY_NOMINAL:
		/* a recursive type through a collection is shareable: it is
		 * spelled by identity wherever it is named */
		return depth > 16 ? true : shared_nominal(E, t, depth);
	default:
		return false;
	}
}

/* A structural key of a shareable type (appended to b): the same text in
 * every module for the same type. */
static void
type_key(Emit *E, TypeId t, Buf *b, int depth)
{
	const TypeInfo *ti = emitc_tinfo(E, t);
	if (ti->kind == TY_NOMINAL) {
		const Sym *s = sema_sym(E->S, (SymId)ti->decl);
		if (s->prelude) {
			int n = ti->nargs;
			buf_printf(b, "P%s%d", s->name, n);
			for (int i = 0; i < n && depth < 16; i++) {
				buf_putc(b, '_');
				type_key(E, emitc_tinfo(E, t)->args[i], b, depth + 1);
			}
			buf_puts(b, "_E");
			return;
		}
		buf_puts(b, "N");
		mangle(b, s->origin ? s->origin : E->S->module_name);
		buf_puts(b, "__");
		mangle(b, s->id);
		return;
	}
	int n = ti->nargs;
	buf_printf(b, "K%d", (int)ti->kind);
	for (int i = 0; i < n && depth < 16; i++) {
		buf_putc(b, '_');
		type_key(E, emitc_tinfo(E, t)->args[i], b, depth + 1);
	}
	if (n)
		buf_puts(b, "_E");
}

const char *
emitc_shared_type_name(Emit *E, TypeId t)
{
	if (!E->prog || !shared_nominal(E, t, 0))
		return NULL;
	Buf b = {0};
	buf_puts(&b, "ty_");
	type_key(E, t, &b, 0);
	const char *r = arena_printf(&E->a, "%s", b.data);
	buf_free(&b);
	return r;
}

/* The provider module and its symbol for an imported sym; false when absent. */
static bool
provider_of(Emit *E, const Sym *y, int *k, SymId *ps)
{
	*k = sema_strmap_get(&E->prog->names, y->origin);
	if (*k < 0)
		return false;
	*ps = sema_strmap_get(&E->prog->E[*k].S->ids, y->id);
	return *ps >= 0;
}

const char *
emitc_import_cname(Emit *E, SymId sym, Span span)
{
	const Sym *y = sema_sym(E->S, sym);
	int k;
	SymId ps;
	if (!E->prog || !y->origin || !provider_of(E, y, &k, &ps)) {
		emitc_refuse(E, span, "the native lane cannot call this function (no body)");
		return NULL;
	}
	for (int i = 0; i <= y->nparams; i++) {
		TypeId t = i < y->nparams ? y->params[i].type : y->result;
		if (!shareable(E, t, 0)) {
			emitc_refuse(E, span,
			    "the native lane passes scalars, text, collections, boxes and monomorphic records, variants and classes between project modules; `%s` %s `%s`",
			    y->name, i < y->nparams ? "takes" : "returns", sema_type_name(E->S, t));
			return NULL;
		}
	}
	Emit *P = &E->prog->E[k];
	int fi = E->prog->symfunc[k][ps];
	int ii = fi >= 0 && P->M ? P->M->func_inst[fi] : -1;
	if (ii < 0) {
		emitc_refuse(E, span, "the native lane found no instance of `%s` in module `%s`", y->name, y->origin);
		return NULL;
	}
	return P->insts[ii].cname;
}

const char *
emitc_import_invariant(Emit *E, SymId sym, Span span, bool *failed)
{
	const Sym *y = sema_sym(E->S, sym);
	int k;
	SymId ps;
	*failed = false;
	if (!E->prog || !y->origin || !provider_of(E, y, &k, &ps))
		return NULL;
	Emit *P = &E->prog->E[k];
	int fi = P->H->invariants[ps];
	if (fi < 0)
		return NULL;
	int ii = P->M ? P->M->func_inst[fi] : -1;
	if (ii < 0) {
		emitc_refuse(E, span, "the native lane found no instance of the invariant check of `%s` in module `%s`", y->name, y->origin);
		*failed = true;
		return NULL;
	}
	return P->insts[ii].cname;
}
