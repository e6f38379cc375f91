/*
 * value.h — run-time values of the interpreter lane (src/interp).
 *
 * A Value is 16 bytes: an 8-byte payload, a 32-bit auxiliary word and a
 * tag.  Scalars carry their exact kind in the tag (so generic code, which
 * the HIR lowers once with type parameters, dispatches on the value), and
 * heap values are uniquely owned, except copyable ones — closures'
 * captures, [u8; N] arrays, records and variants of copyable fields —
 * which are shared by reference count (a record or variant is copied
 * before it is written or taken apart while shared: interp_obj_unique).
 *
 * Ownership rule of the interpreter: a Value owns its heap data unless its
 * `borrowed` bit is set (an alias produced by reading an owned slot).  A
 * slot owns what it holds unless that value is borrowed; slots are released
 * by the HIR's per-scope lists, when overwritten, and when their frame ends.
 * Whenever a borrowed value must become owned (stored in a binding, field,
 * vector or box, or returned), it is deep-copied (value_own).
 *
 * "Copyable" values (scalars, views, function values, and aggregates whose
 * every part is copyable) are copied on every read (closures and arrays by
 * taking a reference), so a borrowed alias of one never exists.
 */
#ifndef SPX_INTERP_VALUE_H
#define SPX_INTERP_VALUE_H

#include "../rt/domains.h"
#include "../support/buf.h"

#include <setjmp.h>

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
	union {
		struct {
			uint32_t n;
			uint8_t tag;
			uint8_t borrowed;
			uint16_t pad;   /* always 0 */
		};
		uint64_t meta;          /* the four above as one word (V_META) */
	};
} Value;

/* The meta word of a value with tag t and auxiliary word n (not borrowed):
 * constructors write it whole, so a Value is built in two registers rather
 * than field by field (gcc merged the partial writes with 15 instructions). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define V_META(t, n) ((uint64_t)(uint32_t)(n) | (uint64_t)(uint8_t)(t) << 32)
#define V_SET_META(v, t, n_) ((v).meta = V_META(t, n_))
#else
#define V_SET_META(v, t, n_) ((v).n = (n_), (v).tag = (uint8_t)(t), (v).borrowed = 0, (v).pad = 0)
#endif
_Static_assert(sizeof(Value) == 16, "a Value is 16 bytes");

typedef struct Bytes {
	uint8_t *data;
	size_t len, cap;
	uint32_t rc;          /* [u8; N] arrays are immutable and shared: reference count */
} Bytes;

typedef struct Obj {
	uint32_t n;
	uint32_t rc;          /* copyable objects are shared: reference count (else 1) */
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

#define VEC_MAX_CAPACITY ((unsigned)RT_LIMIT_VEC_CAPACITY)   /* rt/domains.def */
#define MAP_MAX_CAPACITY ((unsigned)RT_LIMIT_MAP_CAPACITY)

static inline Value
v_int(VTag tag, int64_t i)
{
	Value v;
	v.i = i;
	V_SET_META(v, tag, 0);
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
	V_SET_META(v, tag, n);
	return v;
}

/*
 * A run's value heap and step meter (one per run, no global state).
 *
 * Every allocation an input controls (string and byte storage, records,
 * variants, closures, boxes, Vec/Map/Set storage, iterators) is counted
 * with its header; past VALUE_HEAP_LIMIT `over` is set and the budget
 * lowered to 0, so the run stops at the next node's charge (node.h) with
 * the interpreter-limit line.  An allocation the host refuses unwinds to
 * `oom` (interp_run), which reports the same kind of line.
 *
 * Work that grows with a value's size — copying, comparing, searching,
 * shifting — is paid in steps: one step per VALUE_WORK_UNIT bytes
 * touched by one operation (below one unit an operation is free), so the
 * time a run takes is bounded by its step budget.  Values shared by
 * reference count (closures, arrays) are copied in constant time.
 */
/* A copy still to make: src's copy goes to *dst (interp_value_clone's work list). */
typedef struct CloneJob {
	Value *dst;
	Value src;
} CloneJob;

#ifndef VALUE_HEAP_LIMIT   /* the fuzz target (tests/fuzz/fuzz_run.c) builds with a smaller one */
#define VALUE_HEAP_LIMIT ((size_t)64 << 20)
#endif
#define VALUE_WORK_SHIFT 8
typedef struct ValueHeap {
	/* The step meter (node.h CHARGE): the steps left before the budget is
	 * crossed, counted down, so a charge is one subtraction and a sign test;
	 * steps used = base - left (heap_steps). */
	int64_t left, base;
	int64_t bytes;            /* counted bytes of live values */
	bool over;                /* crossed VALUE_HEAP_LIMIT */
	jmp_buf oom;              /* an allocation failure unwinds here */
	size_t oom_size;          /* the refused allocation's size */
	VEC(Value) pending;       /* value_release's work list (no recursion) */
	VEC(CloneJob) cloning;    /* interp_value_clone's work list (no recursion) */
} ValueHeap;

/* Counted allocation (longjmps to h->oom when the host refuses it). */
void *interp_heap_alloc(ValueHeap *h, size_t n);
void *interp_heap_realloc(ValueHeap *h, void *p, size_t old, size_t n);
void interp_heap_free(ValueHeap *h, void *p, size_t n);
/* The steps used so far. */
static inline uint64_t
heap_steps(const ValueHeap *h)
{
	return (uint64_t)(h->base - h->left);
}
/* Stops the run at its next charge (the heap limit), the steps used kept. */
static inline void
heap_lower(ValueHeap *h)
{
	h->base -= h->left + 1;
	h->left = -1;
}
/* Counts a frame's n slots (n < 0: releases them) against the heap limit:
 * 256 frames of a 60,000-local function held 240 MB of host memory that
 * no limit counted (sec19). */
static inline void
heap_frame(ValueHeap *h, int64_t n)
{
	h->bytes += n * (int64_t)sizeof(Value);
	if (h->bytes > (int64_t)VALUE_HEAP_LIMIT && !h->over) {
		h->over = true;
		heap_lower(h);
	}
}
/* Charges the steps of an operation touching n bytes. */
static inline void
heap_work(ValueHeap *h, size_t n)
{
	h->left -= (int64_t)(n >> VALUE_WORK_SHIFT);
}

/* Is the value duplicated (deep-copied) on every read? */
/* Frees what v owns (nothing for borrowed values and scalars). */
void interp_value_release_heap(ValueHeap *h, Value v);
static inline void
value_release(ValueHeap *h, Value v)
{
	if (v.tag >= V_STRING && !v.borrowed)
		interp_value_release_heap(h, v);
}
/* A copy that owns everything it holds (deep, except shared closures and
 * arrays); its work is charged. */
Value interp_value_clone(ValueHeap *h, Value v);
/* Makes the record or variant *v (owned) the only reference to its object,
 * copying it when it is shared, before it is written or taken apart. */
void interp_obj_unique(ValueHeap *h, Value *v);
/* v if it owns its data, else a copy of it. */
static inline Value
value_own(ValueHeap *h, Value v)
{
	return v.borrowed ? interp_value_clone(h, v) : v;
}
/* A read of a stored value: copyable values are copied, others aliased (borrowed). */
Value interp_value_read_heap(ValueHeap *h, const Value *v);
static inline Value
value_read(ValueHeap *h, const Value *v)
{
	if (v->tag < V_STRING)
		return *v;   /* scalars, function values, views */
	return interp_value_read_heap(h, v);
}

/* Heap constructors. */
Bytes *interp_bytes_new(ValueHeap *h, const void *data, size_t len);
/* Grows b's capacity to at least cap (new bytes zeroed when zero is set). */
void interp_bytes_reserve(ValueHeap *h, Bytes *b, size_t cap, bool zero);
Value interp_string_value(ValueHeap *h, const void *data, size_t len);
Obj *interp_obj_new(ValueHeap *h, uint32_t n);
void interp_obj_update_copy(Obj *o);
VecObj *interp_vecobj_new(ValueHeap *h, size_t cap);
MapObj *interp_mapobj_new(ValueHeap *h, size_t cap, bool set);
/* Grows a vector's storage to cap items. */
void interp_vecobj_reserve(ValueHeap *h, VecObj *v, size_t cap);

/* The bytes of a string, Bytes, array or view (inline: byte loops read it per byte). */
static inline const uint8_t *
interp_value_bytes(const Value *v, size_t *len)
{
	if (v->tag == V_VIEW) {
		*len = v->n;
		return v->bytes;
	}
	const Bytes *b = v->p;
	*len = b->len;
	return b->data;
}

/* Structural equality of two values of one type (scalars, strings, payload-free variants). */
bool interp_value_equal(const Value *a, const Value *b);
/* Ordering (-1, 0, 1) of two values of one ordered type; floats: IEEE (NaN unordered: 2). */
int interp_value_compare(const Value *a, const Value *b);
/* Total order for vec_sort (floats by IEEE total order). */
int interp_value_sort_compare(const Value *a, const Value *b);

#endif
