/*
 * types.c — type interning.  The index is an open-addressing hash table of
 * type ids keyed by (kind, decl, n, args); it is only probed, never walked.
 */
#include "types.h"

#include <string.h>

static uint32_t
hash_type(TyKind kind, uint32_t decl, uint64_t n, const TypeId *args, int nargs)
{
	uint64_t h = 1469598103934665603ull;
	h = (h ^ (uint64_t)kind) * 1099511628211ull;
	h = (h ^ decl) * 1099511628211ull;
	h = (h ^ n) * 1099511628211ull;
	for (int i = 0; i < nargs; i++)
		h = (h ^ args[i]) * 1099511628211ull;
	return (uint32_t)(h ^ (h >> 32));
}

static bool
same(const TypeInfo *a, TyKind kind, uint32_t decl, uint64_t n, const TypeId *args, int nargs)
{
	return a->kind == kind && a->decl == decl && a->n == n && a->nargs == nargs &&
	    (nargs == 0 || memcmp(a->args, args, sizeof(TypeId) * (size_t)nargs) == 0);
}

static void
reindex(TypeTable *t)
{
	free(t->index);
	t->index_cap = t->index_cap ? t->index_cap * 2 : 256;
	t->index = spx_xmalloc(sizeof(uint32_t) * t->index_cap);
	memset(t->index, 0xFF, sizeof(uint32_t) * t->index_cap);
	for (int i = 0; i < t->len; i++) {
		const TypeInfo *ti = &t->items[i];
		uint32_t h = hash_type(ti->kind, ti->decl, ti->n, ti->args, ti->nargs) & (t->index_cap - 1);
		while (t->index[h] != UINT32_MAX)
			h = (h + 1) & (t->index_cap - 1);
		t->index[h] = (uint32_t)i;
	}
}

TypeId
sema_type_intern(TypeTable *t, TyKind kind, uint32_t decl, uint64_t n, const TypeId *args, int nargs)
{
	if ((uint32_t)(t->len + 1) * 2 > t->index_cap)
		reindex(t);
	uint32_t h = hash_type(kind, decl, n, args, nargs) & (t->index_cap - 1);
	while (t->index[h] != UINT32_MAX) {
		if (same(&t->items[t->index[h]], kind, decl, n, args, nargs))
			return t->index[h];
		h = (h + 1) & (t->index_cap - 1);
	}
	if (t->len == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 64;
		t->items = spx_xrealloc(t->items, sizeof(TypeInfo) * (size_t)t->cap);
	}
	TypeInfo *ti = &t->items[t->len];
	ti->kind = kind;
	ti->decl = decl;
	ti->n = n;
	ti->nargs = nargs;
	ti->args = NULL;
	ti->open = kind == TY_PARAM;
	ti->depth = 1;
	ti->nodes = 1;
	for (int i = 0; i < nargs; i++) {
		const TypeInfo *a = &t->items[args[i]];
		ti->open |= a->open;
		if (a->depth + 1 > ti->depth)
			ti->depth = a->depth + 1;
		ti->nodes = a->nodes > UINT32_MAX - ti->nodes ? UINT32_MAX : ti->nodes + a->nodes;
	}
	if (nargs) {
		ti->args = spx_xmalloc(sizeof(TypeId) * (size_t)nargs);
		memcpy(ti->args, args, sizeof(TypeId) * (size_t)nargs);
	}
	t->index[h] = (uint32_t)t->len;
	return (TypeId)t->len++;
}

void
sema_types_init(TypeTable *t)
{
	memset(t, 0, sizeof *t);
	for (int k = TY_ERROR; k <= TY_UNIT; k++)
		if (k != TY_ARRAY)
			sema_type_intern(t, (TyKind)k, 0, 0, NULL, 0);
		else
			sema_type_intern(t, TY_ARRAY, UINT32_MAX, UINT64_MAX, NULL, 0);  /* placeholder keeps id == kind */
}

void
sema_types_free(TypeTable *t)
{
	for (int i = 0; i < t->len; i++)
		free(t->items[i].args);
	free(t->items);
	free(t->index);
	memset(t, 0, sizeof *t);
}

TypeId
sema_type_simple(TypeTable *t, TyKind kind)
{
	(void)t;
	ASSERT(kind <= TY_UNIT && kind != TY_ARRAY, "sema_type_simple of a structured kind");
	return (TypeId)kind;
}

TypeId
sema_type_reader(TypeTable *t)
{
	return sema_type_intern(t, TY_READER, 0, 0, NULL, 0);
}

const TypeInfo *
sema_type_info(const TypeTable *t, TypeId id)
{
	ASSERT((int)id < t->len, "bad TypeId");
	return &t->items[id];
}

bool
sema_type_bounded(const TypeTable *t, TypeId id)
{
	const TypeInfo *ti = sema_type_info(t, id);
	return ti->depth <= SEMA_TYPE_MAX_DEPTH && ti->nodes <= SEMA_TYPE_MAX_NODES;
}

bool
sema_type_is_scalar(const TypeTable *t, TypeId id)
{
	(void)t;
	return id >= TYPE_FIRST_SCALAR && id <= TYPE_LAST_SCALAR;
}

bool
sema_type_is_integer(const TypeTable *t, TypeId id)
{
	(void)t;
	return id == TY_I64 || id == TY_I32 || id == TY_U8 || id == TY_USIZE;
}

bool
sema_type_is_signed(const TypeTable *t, TypeId id)
{
	(void)t;
	return id == TY_I64 || id == TY_I32 || id == TY_F32 || id == TY_F64;
}

bool
sema_type_is_float(const TypeTable *t, TypeId id)
{
	(void)t;
	return id == TY_F32 || id == TY_F64;
}

bool
sema_type_is_numeric(const TypeTable *t, TypeId id)
{
	return sema_type_is_integer(t, id) || sema_type_is_float(t, id);
}

TypeId
sema_type_subst(TypeTable *t, TypeId ty, uint32_t decl, const TypeId *args, int nargs)
{
	const TypeInfo *ti = sema_type_info(t, ty);
	if (ti->kind == TY_PARAM)
		return ti->decl == decl && ti->n < (uint64_t)nargs ? args[ti->n] : ty;
	if (!ti->open)
		return ty;   /* closed: nothing to substitute, whatever its size */
	TypeId local[16];
	TypeId *sub = ti->nargs <= 16 ? local : spx_xmalloc(sizeof(TypeId) * (size_t)ti->nargs);
	bool changed = false;
	int n = ti->nargs;
	TyKind kind = ti->kind;
	uint32_t d = ti->decl;
	uint64_t len = ti->n;
	for (int i = 0; i < n; i++) {
		TypeId a = sema_type_info(t, ty)->args[i];  /* re-read: interning may move items */
		sub[i] = sema_type_subst(t, a, decl, args, nargs);
		changed |= sub[i] != a;
	}
	TypeId out = changed ? sema_type_intern(t, kind, d, len, sub, n) : ty;
	if (sub != local)
		free(sub);
	return out;
}

static const char *const simple_names[] = {
	"{error}", "i64", "i32", "u8", "usize", "f32", "f64", "bool", "char",
	"string", "str", "Bytes", "Slice<u8>", "[u8]", "unit",
};

static void
spell_args(Buf *out, const TypeTable *t, const TypeInfo *ti, int n, TypeDeclName name, void *ctx)
{
	buf_putc(out, '<');
	for (int i = 0; i < n; i++) {
		if (i)
			buf_puts(out, ", ");
		sema_type_spell(out, t, ti->args[i], name, ctx);
	}
	buf_putc(out, '>');
}

void
sema_type_spell(Buf *out, const TypeTable *t, TypeId id, TypeDeclName name, void *ctx)
{
	const TypeInfo *ti = sema_type_info(t, id);
	switch (ti->kind) {
	case TY_ARRAY:
		buf_printf(out, "[u8; %llu]", (unsigned long long)ti->n);
		return;
	case TY_BOX: buf_puts(out, "Box"); spell_args(out, t, ti, 1, name, ctx); return;
	case TY_VEC: buf_puts(out, "Vec"); spell_args(out, t, ti, 1, name, ctx); return;
	case TY_ITER: buf_puts(out, "Iter"); spell_args(out, t, ti, 1, name, ctx); return;
	case TY_MAP: buf_puts(out, "Map"); spell_args(out, t, ti, 2, name, ctx); return;
	case TY_SET: buf_puts(out, "Set"); spell_args(out, t, ti, 1, name, ctx); return;
	case TY_READER: buf_puts(out, "StdinReader"); return;
	case TY_FN:
		buf_puts(out, "fn(");
		for (int i = 0; i + 1 < ti->nargs; i++) {
			if (i)
				buf_puts(out, ", ");
			sema_type_spell(out, t, ti->args[i], name, ctx);
		}
		buf_puts(out, ") -> ");
		sema_type_spell(out, t, ti->args[ti->nargs - 1], name, ctx);
		return;
	case TY_NOMINAL:
		buf_puts(out, name(ctx, ti->decl, false, 0));
		if (ti->nargs)
			spell_args(out, t, ti, ti->nargs, name, ctx);
		return;
	case TY_PARAM:
		buf_puts(out, name(ctx, ti->decl, true, ti->n));
		return;
	default:
		buf_puts(out, simple_names[ti->kind]);
		return;
	}
}
