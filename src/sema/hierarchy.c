/*
 * hierarchy.c — class hierarchies after the classes' own fields resolve:
 * inheritance cycles (T228), the hierarchy bounds (T227) and each class's
 * effective fields (its ancestors' first, then its own; T229 collisions),
 * linear in the classes and the fields they inherit.
 */
#include "sema_int.h"

#include <stdlib.h>
#include <string.h>

/*
 * Effective fields of a class: its parent's (already flattened: the caller
 * goes parents first), then its own.
 */
static void
flatten_class(Sema *S, SymId id)
{
	Sym *s = sema_sym(S, id);
	if (s->resolved)
		return;
	if (s->nom->parent >= 0) {
		Sym *p = sema_sym(S, s->nom->parent);
		FieldSym *all = ARENA_ARRAY(&S->arena, FieldSym, p->nom->nfields + s->nom->nfields + 1);
		if (p->nom->nfields)
			memcpy(all, p->nom->fields, sizeof(FieldSym) * (size_t)p->nom->nfields);
		int n = p->nom->nfields;
		for (int i = 0; i < s->nom->nfields; i++) {
			bool dup = sema_field_index(S, s->nom->parent, s->nom->fields[i].name) >= 0;   /* indexed for many fields */
			if (dup) {
				Diag *dg = sema_error(S, DIAG_T229, s->nom->fields[i].span, "class `%s` redeclares inherited field `%s`", s->name, s->nom->fields[i].name);
				diag_set_help(dg, "inherited fields are already part of `%s`; remove this one or rename it", s->name);
				continue;
			}
			all[n++] = s->nom->fields[i];
		}
		s->nom->fields = all;
		s->nom->nfields = n;
		/* the reference's member collisions: a method named like an inherited field */
		for (int i = 0; i < s->nom->nmethods; i++) {
			const Sym *m = sema_sym(S, s->nom->methods[i]);
			if (sema_field_index(S, s->nom->parent, m->name) < 0)
				continue;
			Diag *dg = sema_error(S, DIAG_T229, m->name_span, "method `%s` of class `%s` collides with inherited field `%s`", m->name, s->name, m->name);
			diag_set_help(dg, "rename the method; `%s` already names a field of `%s`", m->name, s->name);
			s = sema_sym(S, id);
		}
	}
	s->resolved = true;
}

static int
cmp_symid(const void *a, const void *b)
{
	SymId x = *(const SymId *)a, y = *(const SymId *)b;
	return (x > y) - (x < y);
}

static bool
is_user_class(Sema *S, SymId id)
{
	const Sym *s = sema_sym(S, id);
	return s->kind == SK_CLASS && !s->prelude;
}

/*
 * Class hierarchies, linear in the classes: cycles (T228: one per cycle, at
 * its first class in declaration order, whose link is then dropped — what a
 * walk from every class finds, without the walk per class that made a
 * 200,000-class chain take minutes), then the bounds (T227) and the effective
 * fields, parents first.  An inheritance chain holds at most
 * SEMA_CLASS_MAX_DEPTH ancestors and the module's classes inherit at most
 * SEMA_CLASS_MAX_INHERITED fields in all: copying every ancestor's fields
 * into each class is quadratic in a chain otherwise (4,000 classes of one
 * field took 570 MB).  A class over a bound loses its link; the first one
 * is reported (the depth bound once per chain: its descendants are cut again
 * silently each time they reach the bound, so no walk is longer than it; the
 * field bound once per module).
 */
#define SEMA_CLASS_MAX_DEPTH 128
#define SEMA_CLASS_MAX_INHERITED 262144

void
sema_resolve_hierarchy(Sema *S, int n)
{
	int *mark = spx_xcalloc((size_t)n + 1, sizeof *mark);   /* 0 unseen, walk+1 on a walk, -1 done */
	int *depth = spx_xcalloc((size_t)n + 1, sizeof *depth);
	bool *over = spx_xcalloc((size_t)n + 1, sizeof *over);
	VEC(SymId) path = {0};
	VEC(SymId) found = {0};
	for (SymId id = 0; id < n; id++) {
		if (!is_user_class(S, id) || mark[id])
			continue;
		path.len = 0;
		SymId a = id;
		while (a >= 0 && mark[a] == 0) {
			mark[a] = id + 1;
			VEC_PUSH(path, a);
			a = sema_sym(S, a)->nom->parent;
		}
		if (a >= 0 && mark[a] == id + 1) {
			SymId lo = a;
			for (SymId b = sema_sym(S, a)->nom->parent; b != a; b = sema_sym(S, b)->nom->parent)
				if (b < lo)
					lo = b;
			VEC_PUSH(found, lo);
			sema_sym(S, lo)->nom->parent = -1;
		}
		for (int i = 0; i < path.len; i++)
			mark[path.items[i]] = -1;
	}
	if (found.len)
		qsort(found.items, (size_t)found.len, sizeof *found.items, cmp_symid);
	for (int i = 0; i < found.len; i++) {
		Sym *s = sema_sym(S, found.items[i]);
		Diag *d = sema_error(S, DIAG_T228, s->name_span, "class `%s` inherits from itself through its parents", s->name);
		diag_set_help(d, "remove one `: Parent` link so the inheritance chain ends");
	}
	/* parents first: each class after the chain above it (depth -1: not placed yet) */
	for (SymId id = 0; id < n; id++)
		depth[id] = -1;
	long inherited = 0;
	bool spent = false;   /* the field budget was reported (once per module) */
	for (SymId id = 0; id < n; id++) {
		if (!is_user_class(S, id) || depth[id] >= 0)
			continue;
		path.len = 0;
		for (SymId a = id; a >= 0 && depth[a] < 0; a = sema_sym(S, a)->nom->parent)
			VEC_PUSH(path, a);
		for (int i = path.len - 1; i >= 0; i--) {
			SymId c = path.items[i];
			Sym *s = sema_sym(S, c);
			SymId p = s->nom->parent;
			depth[c] = p >= 0 ? depth[p] + 1 : 0;
			over[c] = p >= 0 && over[p];
			const char *why = NULL;
			if (depth[c] > SEMA_CLASS_MAX_DEPTH)
				why = "depth";
			else if (p >= 0 && inherited + sema_sym(S, p)->nom->nfields > SEMA_CLASS_MAX_INHERITED)
				why = "fields";
			if (why) {
				if (!over[c] && !(why[0] == 'f' && spent)) {
					Diag *d = why[0] == 'd'
					    ? sema_error(S, DIAG_T227, s->name_span, "class `%s` has more than %d ancestors; an inheritance chain admits at most %d", s->name, SEMA_CLASS_MAX_DEPTH, SEMA_CLASS_MAX_DEPTH)
					    : sema_error(S, DIAG_T227, s->name_span, "class `%s` would make the module's classes inherit more than %d fields in all", s->name, SEMA_CLASS_MAX_INHERITED);
					diag_set_help(d, "flatten the hierarchy: hold the shared part in a field of a record or class type instead of a deeper parent");
				}
				spent = spent || why[0] == 'f';
				over[c] = true;
				s->nom->parent = -1;
				depth[c] = 0;
			} else if (p >= 0) {
				inherited += sema_sym(S, p)->nom->nfields;
			}
			flatten_class(S, c);
		}
	}
	VEC_FREE(path);
	VEC_FREE(found);
	free(mark);
	free(depth);
	free(over);
}
