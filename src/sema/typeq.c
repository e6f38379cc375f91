/*
 * typeq.c — memoised structural type queries: is a type Copy, does it hold a
 * resource (or `Bytes`) anywhere.
 *
 * Both are reachability questions over the type graph (a type's successors
 * are its type arguments and the substituted types of its fields and
 * payload fields), so one walk answers them: a depth-first search with
 * Tarjan's strongly-connected components.  A reached target is final for
 * the whole path; a finished component that reaches none is final "no".
 * Every answer is cached per TypeId, so a query costs the part of the graph
 * no earlier query has seen: linear in the types overall, where a plain
 * recursive walk is exponential (`Option<Option<…>>` reaches its argument
 * both as an argument and as the `Some` payload).
 *
 * Polymorphic recursion (`List<T>` holding `List<Option<T>>`) makes the
 * graph infinite: a path longer than TYPEQ_DEPTH is cut off, and nothing
 * that depended on the cut is cached "no".
 */
#include "sema_int.h"

#include <string.h>

#define TYPEQ_DEPTH 1024

enum { TQ_UNKNOWN, TQ_YES, TQ_NO, TQ_OPEN };   /* TQ_OPEN: on the component stack */

typedef enum TqKind {
	TQ_NOT_COPY,      /* reaches a non-Copy leaf through record fields / payloads */
	TQ_HOLDS_RES,     /* reaches a resource through arguments, fields, payloads */
	TQ_HOLDS_BYTES,   /* … a resource or `Bytes` */
	TQ_NKINDS
} TqKind;

struct TypeQ {
	uint8_t *state[TQ_NKINDS];   /* per TypeId */
	uint32_t *index;             /* per TypeId while TQ_OPEN: its DFS number */
	uint8_t *view;               /* per TypeId: sema_type_view's answer + 1 (TV_*), 0 not yet asked */
	int cap;
	VEC(TypeId) stack;
	uint32_t counter;
	TqKind kind;
};

/* Out of line: the per-call check below stays a compare in its callers. */
static void __attribute__((noinline))
tq_grow(Sema *S)
{
	TypeQ *q = S->typeq;
	int need = S->types.len;
	int cap = q->cap ? q->cap : 256;
	while (cap < need)
		cap *= 2;
	for (int k = 0; k < TQ_NKINDS; k++) {
		q->state[k] = spx_xrealloc(q->state[k], (size_t)cap);
		memset(q->state[k] + q->cap, TQ_UNKNOWN, (size_t)(cap - q->cap));
	}
	q->index = spx_xrealloc(q->index, sizeof(uint32_t) * (size_t)cap);
	q->view = spx_xrealloc(q->view, (size_t)cap);
	memset(q->view + q->cap, 0, (size_t)(cap - q->cap));
	q->cap = cap;
}

static inline void
tq_reserve(Sema *S)
{
	if (S->types.len > S->typeq->cap)
		tq_grow(S);
}

static uint8_t
tq_state(Sema *S, TypeId t)
{
	tq_reserve(S);
	return S->typeq->state[S->typeq->kind][t];
}

static void
tq_set(Sema *S, TypeId t, uint8_t st)
{
	tq_reserve(S);
	S->typeq->state[S->typeq->kind][t] = st;
}

/* Is t itself a target of the current query? */
static bool
tq_leaf(Sema *S, TypeId t)
{
	const TypeInfo *ti = sema_type_info(&S->types, t);
	switch (S->typeq->kind) {
	case TQ_NOT_COPY:
		switch (ti->kind) {
		case TY_ERROR: case TY_I64: case TY_I32: case TY_U8: case TY_USIZE: case TY_F32: case TY_F64:
		case TY_BOOL: case TY_CHAR: case TY_FN: case TY_ARRAY: case TY_STR: case TY_SLICE:
		case TY_PARAM:   /* templates are checked over the Copy scalar substitutions */
			return false;
		case TY_NOMINAL:
			return sema_sym(S, (SymId)ti->decl)->kind == SK_RESOURCE;
		default:
			return true;
		}
	case TQ_HOLDS_BYTES:
		if (ti->kind == TY_BYTES || ti->kind == TY_READER)
			return true;
		/* fall through */
	case TQ_HOLDS_RES:
		return ti->kind == TY_NOMINAL && sema_sym(S, (SymId)ti->decl)->kind == SK_RESOURCE;
	default:
		return false;
	}
}

enum { TQ_NEXT, TQ_FOUND };

static bool tq_walk(Sema *S, TypeId t, int depth, uint32_t *lowp);

/* One successor s of the node being walked (low: its low link so far). */
static int
tq_edge(Sema *S, TypeId s, int depth, uint32_t *low)
{
	TypeQ *q = S->typeq;
	uint8_t st = tq_state(S, s);
	if (st == TQ_YES)
		return TQ_FOUND;
	if (st == TQ_NO)
		return TQ_NEXT;
	if (st == TQ_OPEN) {
		if (q->index[s] < *low)
			*low = q->index[s];
		return TQ_NEXT;
	}
	uint32_t sl;
	if (tq_walk(S, s, depth + 1, &sl))
		return TQ_FOUND;
	if (sl < *low)
		*low = sl;
	return TQ_NEXT;
}

/* The successors of t in order: its type arguments (not for Copy, which
 * looks through fields only), then its fields and payload fields, substituted. */
static int
tq_edges(Sema *S, TypeId t, int depth, uint32_t *low)
{
	const TypeInfo *ti = sema_type_info(&S->types, t);
	bool copyq = S->typeq->kind == TQ_NOT_COPY;
	if (ti->kind == TY_FN || (copyq && ti->kind != TY_NOMINAL))
		return TQ_NEXT;
	int nargs = copyq ? 0 : ti->nargs;
	for (int i = 0; i < nargs; i++)
		if (tq_edge(S, sema_type_info(&S->types, t)->args[i], depth, low) == TQ_FOUND)
			return TQ_FOUND;
	if (sema_type_info(&S->types, t)->kind != TY_NOMINAL)
		return TQ_NEXT;
	SymId decl = (SymId)sema_type_info(&S->types, t)->decl;
	int nfields = sema_sym(S, decl)->nom->nfields, ncases = sema_sym(S, decl)->nom->ncases;
	for (int i = 0; i < nfields; i++)
		if (tq_edge(S, sema_field_type(S, t, i), depth, low) == TQ_FOUND)
			return TQ_FOUND;
	for (int c = 0; c < ncases; c++)
		for (int i = 0; i < sema_sym(S, decl)->nom->cases[c].nfields; i++)
			if (tq_edge(S, sema_case_field_type(S, t, c, i), depth, low) == TQ_FOUND)
				return TQ_FOUND;
	return TQ_NEXT;
}

/* Tarjan's walk from t (TQ_UNKNOWN).  True when a target is reachable (the
 * caller then marks the whole stack TQ_YES); otherwise *lowp is t's low link. */
static bool
tq_walk(Sema *S, TypeId t, int depth, uint32_t *lowp)
{
	TypeQ *q = S->typeq;
	if (tq_leaf(S, t)) {
		tq_set(S, t, TQ_YES);
		return true;
	}
	tq_set(S, t, TQ_OPEN);
	uint32_t me = ++q->counter, low = me;
	q->index[t] = me;
	VEC_PUSH(q->stack, t);
	if (depth > TYPEQ_DEPTH)
		low = 0;   /* cut off: the result depends on what was not walked */
	else if (tq_edges(S, t, depth, &low) == TQ_FOUND)
		return true;
	if (low == me) {   /* t roots a finished component: none of it reaches a target */
		TypeId x;
		do {
			x = q->stack.items[--q->stack.len];
			tq_set(S, x, TQ_NO);
		} while (x != t);
	}
	*lowp = low;
	return false;
}

static bool
tq_query(Sema *S, TqKind kind, TypeId t)
{
	if (!S->typeq)
		S->typeq = spx_xcalloc(1, sizeof(TypeQ));
	TypeQ *q = S->typeq;
	q->kind = kind;
	uint8_t st = tq_state(S, t);
	if (st == TQ_YES || st == TQ_NO)
		return st == TQ_YES;
	ASSERT(st == TQ_UNKNOWN && q->stack.len == 0, "reentrant type query");
	q->counter = 0;
	uint32_t low;
	bool yes = tq_walk(S, t, 0, &low);
	/* what is left on the stack reaches a target (yes) or was cut off (unknown) */
	while (q->stack.len)
		tq_set(S, q->stack.items[--q->stack.len], yes ? TQ_YES : TQ_UNKNOWN);
	return yes;
}

/* A final answer already cached (the checker asks about the same few types
 * again and again): -1 when there is none yet. */
static inline int
tq_cached(const Sema *S, TqKind kind, TypeId t)
{
	const TypeQ *q = S->typeq;
	if (!q || t >= (uint32_t)q->cap)
		return -1;
	uint8_t st = q->state[kind][t];
	return st == TQ_YES ? 1 : st == TQ_NO ? 0 : -1;
}

bool
sema_is_copy(Sema *S, TypeId t)
{
	int c = tq_cached(S, TQ_NOT_COPY, t);
	return c >= 0 ? !c : !tq_query(S, TQ_NOT_COPY, t);
}

bool
sema_type_holds(Sema *S, TypeId t, bool bytes)
{
	TqKind kind = bytes ? TQ_HOLDS_BYTES : TQ_HOLDS_RES;
	int c = tq_cached(S, kind, t);
	return c >= 0 ? c : tq_query(S, kind, t);
}

static const char *
type_view(Sema *S, TypeId t, int depth)
{
	const TypeInfo *ti = sema_type_info(&S->types, t);
	if (ti->kind == TY_STR)
		return "str";
	if (ti->kind == TY_SLICE)
		return "Slice<u8>";
	if (ti->kind == TY_FN || depth > 32)
		return NULL;
	for (int i = 0; i < ti->nargs; i++) {
		const char *v = type_view(S, sema_type_info(&S->types, t)->args[i], depth + 1);
		if (v)
			return v;
	}
	return NULL;
}

static const char *const view_answers[] = { NULL, "str", "Slice<u8>" };

/* sema_type_view's first answer for t, remembered. */
static const char *
type_view_first(Sema *S, TypeId t)
{
	if (!S->typeq)
		S->typeq = spx_xcalloc(1, sizeof(TypeQ));
	tq_reserve(S);
	TypeQ *q = S->typeq;
	const char *v = type_view(S, t, 0);
	if (t < (uint32_t)q->cap)
		q->view[t] = (uint8_t)(!v ? 1 : v[0] == 's' ? 2 : 3);
	return v;
}

/* Memoised per TypeId (types are interned and never change). */
const char *
sema_type_view(Sema *S, TypeId t)
{
	const TypeQ *q = S->typeq;
	if (q && t < (uint32_t)q->cap && q->view[t])
		return view_answers[q->view[t] - 1];
	return type_view_first(S, t);
}

void
sema_typeq_free(TypeQ *q)
{
	if (!q)
		return;
	for (int k = 0; k < TQ_NKINDS; k++)
		free(q->state[k]);
	free(q->index);
	free(q->view);
	VEC_FREE(q->stack);
	free(q);
}
