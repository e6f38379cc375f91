/*
 * types.h — the semantic type table (LANGUAGE.md §3).
 *
 * Types are interned: structurally equal types have the same TypeId, so
 * type equality is `==`.  Ids are dense indices in creation order (the
 * hash index is only for lookup; nothing is ever output in hash order).
 * Generic nominal types carry their arguments (`Pair<i64, bool>`);
 * Option, Result and IterStep are compiler-owned variants declared by the
 * prelude (see sema.h), so they are TY_NOMINAL too.
 */
#ifndef SPX_TYPES_H
#define SPX_TYPES_H

#include "../support/buf.h"

typedef uint32_t TypeId;

typedef enum TyKind {
	TY_ERROR,     /* after a reported error: compatible with everything */
	TY_I64, TY_I32, TY_U8, TY_USIZE, TY_F32, TY_F64, TY_BOOL, TY_CHAR,  /* the Copy scalars */
	TY_STRING,    /* owned UTF-8 text */
	TY_STR,       /* borrowed UTF-8 view */
	TY_BYTES,     /* owned byte buffer */
	TY_SLICE,     /* Slice<u8>: borrowed byte view */
	TY_ARRAY,     /* [u8; N]: n = length */
	TY_UNIT,      /* only as an interface import result */
	TY_BOX,       /* Box<args[0]> */
	TY_VEC,       /* Vec<args[0]> */
	TY_ITER,      /* Iter<args[0]> */
	TY_MAP,       /* Map<args[0], args[1]> */
	TY_SET,       /* Set<args[0]> */
	TY_FN,        /* fn(args[0..n-1]) -> args[n-1]... see fn_result */
	TY_NOMINAL,   /* decl + args: record, variant (incl. Option/Result/IterStep), class, resource */
	TY_PARAM,     /* a type parameter: decl = owner, n = index */
	TY_READER,    /* StdinReader: the stdin stream's owned reader (interned on first use: id != kind) */
} TyKind;

#define TYPE_FIRST_SCALAR TY_I64
#define TYPE_LAST_SCALAR TY_CHAR

typedef struct TypeInfo {
	TyKind kind;
	uint32_t decl;     /* TY_NOMINAL / TY_PARAM: the declaration index */
	uint64_t n;        /* TY_ARRAY length; TY_PARAM index */
	TypeId *args;      /* type arguments (TY_FN: params then the result) */
	int nargs;
	bool open;         /* mentions a TY_PARAM (sema_type_subst leaves a closed type as it is) */
	uint32_t depth;    /* nesting levels: 1 without arguments, else 1 + the deepest argument's */
	uint32_t nodes;    /* the size of its spelling as a tree (arguments counted as often as they
	                    * occur), saturating at UINT32_MAX */
} TypeInfo;

/* The bounds on the types generic instantiation may build (LANGUAGE.md §3.5,
 * docs/DECISIONS.md "Generic instance bounds"): a type nests at most as deep
 * as source may (P207's 128 levels) and spells with at most 4,096 type nodes.
 * The checker refuses an instance past them (T235) and the native lane a
 * type (B110), so polymorphic recursion cannot grow types without end and
 * no type name is exponentially long. */
#define SEMA_TYPE_MAX_DEPTH 128
#define SEMA_TYPE_MAX_NODES 4096

typedef struct TypeTable {
	TypeInfo *items;   /* owned */
	int len, cap;
	uint32_t *index;   /* open-addressing hash of type ids; owned */
	uint32_t index_cap;
} TypeTable;

void sema_types_init(TypeTable *t);   /* interns every argument-free kind first: id == kind */
void sema_types_free(TypeTable *t);
TypeId sema_type_intern(TypeTable *t, TyKind kind, uint32_t decl, uint64_t n, const TypeId *args, int nargs);
TypeId sema_type_simple(TypeTable *t, TyKind kind);   /* scalars, string, … (id == kind) */
TypeId sema_type_reader(TypeTable *t);                /* StdinReader */
const TypeInfo *sema_type_info(const TypeTable *t, TypeId id);
/* Within SEMA_TYPE_MAX_DEPTH and SEMA_TYPE_MAX_NODES? */
bool sema_type_bounded(const TypeTable *t, TypeId id);

bool sema_type_is_scalar(const TypeTable *t, TypeId id);
bool sema_type_is_integer(const TypeTable *t, TypeId id);
bool sema_type_is_signed(const TypeTable *t, TypeId id);
bool sema_type_is_float(const TypeTable *t, TypeId id);
bool sema_type_is_numeric(const TypeTable *t, TypeId id);

/* Substitutes TY_PARAM of owner `decl` by args[index]. */
TypeId sema_type_subst(TypeTable *t, TypeId ty, uint32_t decl, const TypeId *args, int nargs);

/* Spells a type as source would (`Option<i64>`, `fn(i64) -> bool`); names
 * of declarations come from the callback. */
typedef const char *(*TypeDeclName)(void *ctx, uint32_t decl, bool param, uint64_t index);
void sema_type_spell(Buf *out, const TypeTable *t, TypeId id, TypeDeclName name, void *ctx);

#endif
