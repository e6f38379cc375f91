/*
 * emit_prog.c — the native lane for a project (emit_c_project, emit.c):
 * what crosses a module boundary in the one translation unit.
 *
 * Each module's functions and helpers carry its prefix `p<k>_` (Emit.px),
 * so equal display names and per-module TypeIds never clash.  Types do not:
 * each module has its own type table, so a record, variant or class
 * (Option, Result and IterStep too, with any type arguments) and a byte
 * array are spelled by a structural key, `ty_<key>` (an authored nominal by
 * its declaring module and stable id, mangled: an ASCII letter or digit
 * stays, any other byte is `_` and two hex digits), and defined once in the
 * unit (each module writes the definitions it uses, noted in Emit.defs; the
 * unit keeps the first of each name in output order, emitc_put_types), so
 * a value means the same C type in every
 * module; other types are the runtime's (spx_str, spx_vec, …) or a Box
 * pointer to such a type.  Function values are unit-wide: one spx_fn and
 * spx_cap (captured types as members `v_<key>`), dispatch ids over every
 * module's instances, one `spx_call_<key>` per function type.  A call of an
 * imported function or method (Sym.origin), or its value, names the
 * provider's instance.  An imported record's invariants run as the
 * provider's check.
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

/* A structural key of t (appended to b): the same text in every module
 * for the same type — an authored nominal by its declaring module and
 * stable id (plus its type arguments), a prelude variant by its name, any
 * other type by its kind (an array also by its length) and arguments.
 * Only for types within the checker's bounds (sema_type_bounded). */
static void
type_key(Emit *E, TypeId t, Buf *b)
{
	const TypeInfo *ti = emitc_tinfo(E, t);
	int n = ti->nargs;
	if (ti->kind == TY_NOMINAL) {
		const Sym *s = sema_sym(E->S, (SymId)ti->decl);
		if (s->prelude) {
			buf_printf(b, "P%s%d", s->name, n);
		} else {
			buf_puts(b, "N");
			mangle(b, s->origin ? s->origin : E->S->module_name);
			buf_puts(b, "__");
			if (s->id)
				mangle(b, s->id);
			else
				buf_printf(b, "s%u_", (unsigned)ti->decl);
			if (n == 0)
				return;
		}
	} else {
		buf_printf(b, "K%d", (int)ti->kind);
		if (ti->kind == TY_ARRAY)
			buf_printf(b, "n%llu", (unsigned long long)ti->n);
	}
	for (int i = 0; i < n; i++) {
		buf_putc(b, '_');
		type_key(E, emitc_tinfo(E, t)->args[i], b);
	}
	if (n || (ti->kind == TY_NOMINAL && sema_sym(E->S, (SymId)ti->decl)->prelude))
		buf_puts(b, "_E");
}

const char *
emitc_type_key(Emit *E, TypeId t)
{
	/* a type past the bounds is refused where it is spelled (ensure_type);
	 * its key is never compiled, and could be as large as its tree */
	if (!sema_type_bounded(&E->S->types, t))
		return arena_printf(&E->a, "U%d_%u", E->modi, (unsigned)t);
	Buf b = {0};
	type_key(E, t, &b);
	const char *r = arena_printf(&E->a, "%s", b.data);
	buf_free(&b);
	return r;
}

const char *
emitc_shared_type_name(Emit *E, TypeId t)
{
	if (!E->prog)
		return NULL;
	const TypeInfo *ti = emitc_tinfo(E, t);
	if (ti->kind != TY_NOMINAL && ti->kind != TY_ARRAY)
		return NULL;
	return arena_printf(&E->a, "ty_%s", emitc_type_key(E, t));
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

int
emitc_import_inst(Emit *E, SymId sym, Span span, int *mod)
{
	const Sym *y = sema_sym(E->S, sym);
	int k;
	SymId ps;
	if (!E->prog || !y->origin || !provider_of(E, y, &k, &ps)) {
		emitc_refuse(E, span, "the native lane cannot call this function (no body)");
		return -1;
	}
	Emit *P = &E->prog->E[k];
	int fi = E->prog->symfunc[k][ps];
	int ii = fi >= 0 && P->M ? P->M->func_inst[fi] : -1;
	if (ii < 0) {
		emitc_refuse(E, span, "the native lane found no instance of `%s` in module `%s`", y->name, y->origin);
		return -1;
	}
	*mod = k;
	return ii;
}

const char *
emitc_import_cname(Emit *E, SymId sym, Span span)
{
	int k;
	int ii = emitc_import_inst(E, sym, span, &k);
	return ii < 0 ? NULL : E->prog->E[k].insts[ii].cname;
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

/* ---- function values, unit-wide ---- */

int
emitc_prog_fnval(Emit *E, TypeId ft, int mod, int inst, bool closure)
{
	struct EmitProg *P = E->prog;
	const char *key = emitc_type_key(E, ft);
	for (int i = 0; i < P->fnvals.len; i++) {
		const FnVal *v = &P->fnvals.items[i];
		if (v->mod == mod && v->inst == inst && strcmp(v->key, key) == 0)
			return i + 1;
	}
	FnVal v = { ft, inst, closure, mod, key };
	VEC_PUSH(P->fnvals, v);
	emitc_prog_note_fntype(E, ft);
	return P->fnvals.len;
}

static int
prog_ty(ProgTyVec *list, Emit *E, TypeId t)
{
	const char *key = emitc_type_key(E, t);
	for (int i = 0; i < list->len; i++)
		if (strcmp(list->items[i].key, key) == 0)
			return i;
	ProgTy y = { key, E->modi, t };
	VEC_PUSH(*list, y);
	return list->len - 1;
}

void
emitc_prog_note_fntype(Emit *E, TypeId ft)
{
	(void)prog_ty(&E->prog->fntypes, E, ft);
}

const char *
emitc_prog_cap(Emit *E, TypeId t)
{
	int i = prog_ty(&E->prog->captys, E, t);
	return arena_printf(&E->a, "v_%s", E->prog->captys.items[i].key);
}
