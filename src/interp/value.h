/*
 * value.h — run-time values of the interpreter lane (src/interp).
 *
 * A Value is 16 bytes: an 8-byte payload, a 32-bit auxiliary word and a
 * tag.  Scalars carry their exact kind in the tag (so generic code, which
 * the HIR lowers once with type parameters, dispatches on the value), and
 * heap values are uniquely owned: there is no reference count.
 *
 * Ownership rule of the interpreter: a Value owns its heap data unless its
 * `borrowed` bit is set (an alias produced by reading an owned slot).  A
 * slot owns what it holds unless that value is borrowed; slots are released
 * by the HIR's per-scope lists, when overwritten, and when their frame ends.
 * Whenever a borrowed value must become owned (stored in a binding, field,
 * vector or box, or returned), it is deep-copied (value_own).
 *
 * "Copyable" values (scalars, views, function values, and aggregates whose
 * every part is copyable) are deep-copied on every read, so an alias of one
 * never exists.
 */
#ifndef SPX_INTERP_VALUE_H
#define SPX_INTERP_VALUE_H

#include "../support/buf.h"

typedef enum VTag {
	V_EMPTY,      /* no value: a dead slot, a statement */
	V_I64, V_I32, V_U8, V_USIZE,    /* .i (i64, i32) / .u (u8, usize) */
	V_F32, V_F64, V_BOOL, V_CHAR,   /* .f32 / .f / .b / .u */
	V_FN,         /* a function value: n = HIR function index */
	V_VIEW,       /* str / Slice<u8>: .bytes, n = length (borrows; never released) */
	V_STRING,     /* .p = Bytes (owned UTF-8 text) */
	V_BYTES,      /* .p = Bytes (owned byte buffer) */
	V_ARRAY,      /* .p = Bytes ([u8; N]; copyable) */
	V_RECORD,     /* .p = Obj (records and classes) */
	V_VARIANT,    /* .p = Obj or NULL (payload-free), n = case index */
	V_CLOSURE,    /* .p = Obj of captures (copyable), n = HIR function index */
	V_VEC,        /* .p = VecObj */
	V_BOX,        /* .p = Value (heap) */
	V_ITER,       /* .p = IterObj */
	V_MAP,        /* .p = MapObj (Map and Set) */
} VTag;

typedef struct Value {
	union {
		int64_t i;
		uint64_t u;
		double f;
		float f32;
		bool b;
		void *p;
		const uint8_t *bytes;
	};
	uint32_t n;
	uint8_t tag;
	uint8_t borrowed;
} Value;

typedef struct Bytes {
	uint8_t *data;
	size_t len, cap;
} Bytes;

typedef struct Obj {
	uint32_t n;
	bool copy;            /* every field is copyable */
	Value f[];
} Obj;

typedef struct VecObj {
	Value *items;
	size_t len, cap;
} VecObj;

typedef struct IterObj {
	VecObj *v;            /* owned */
	size_t pos;
} IterObj;

/* Map<K, V> / Set<K>: entries sorted by key (strings by unsigned bytes,
 * i64 signed, false < true); vals is NULL for a set. */
typedef struct MapObj {
	Value *keys;
	Value *vals;
	size_t len, cap;
} MapObj;

#define VEC_MAX_CAPACITY 8192u
#define MAP_MAX_CAPACITY 65536u

static inline Value
v_int(VTag tag, int64_t i)
{
	Value v;
	v.i = i;
	v.n = 0;
	v.tag = (uint8_t)tag;
	v.borrowed = 0;
	return v;
}

static inline Value
v_empty(void)
{
	return v_int(V_EMPTY, 0);
}

static inline Value
v_bool(bool b)
{
	Value v = v_int(V_BOOL, 0);
	v.b = b;
	return v;
}

static inline Value
v_ptr(VTag tag, void *p, uint32_t n)
{
	Value v;
	v.p = p;
	v.n = n;
	v.tag = (uint8_t)tag;
	v.borrowed = 0;
	return v;
}

/* Is the value duplicated (deep-copied) on every read? */
bool value_copyable(const Value *v);
/* Frees what v owns (nothing for borrowed values and scalars). */
void value_release_heap(Value v);
static inline void
value_release(Value v)
{
	if (v.tag >= V_STRING && !v.borrowed)
		value_release_heap(v);
}
/* A deep copy that owns everything it holds. */
Value value_clone(Value v);
/* v if it owns its data, else a deep copy of it. */
static inline Value
value_own(Value v)
{
	return v.borrowed ? value_clone(v) : v;
}
/* A read of a stored value: copyable values are copied, others aliased (borrowed). */
Value value_read_heap(const Value *v);
static inline Value
value_read(const Value *v)
{
	if (v->tag < V_STRING)
		return *v;   /* scalars, function values, views */
	return value_read_heap(v);
}

/*
 * The capacity of every live string and byte buffer is counted: they are
 * the values one evaluation step can double.  Past VALUE_HEAP_LIMIT the
 * `exceeded` hook runs (the interpreter stops the run at an interpreter
 * limit); a run sets the hook and its context before it starts.
 */
#define VALUE_HEAP_LIMIT ((size_t)64 << 20)
typedef struct ValueHeap {
	int64_t bytes;
	void (*exceeded)(void *ctx);
	void *ctx;
} ValueHeap;
extern ValueHeap value_heap;

/* Heap constructors. */
Bytes *bytes_new(const void *data, size_t len);
/* Grows b's capacity to at least cap (new bytes zeroed when zero is set). */
void bytes_reserve(Bytes *b, size_t cap, bool zero);
Value string_value(const void *data, size_t len);
Obj *obj_new(uint32_t n);
void obj_update_copy(Obj *o);
VecObj *vecobj_new(size_t cap);
MapObj *mapobj_new(size_t cap, bool set);

/* The bytes of a string, Bytes, array or view. */
const uint8_t *value_bytes(const Value *v, size_t *len);

/* Structural equality of two values of one type (scalars, strings, payload-free variants). */
bool value_equal(const Value *a, const Value *b);
/* Ordering (-1, 0, 1) of two values of one ordered type; floats: IEEE (NaN unordered: 2). */
int value_compare(const Value *a, const Value *b);
/* Total order for vec_sort (floats by IEEE total order). */
int value_sort_compare(const Value *a, const Value *b);

#endif
