/*
 * value.c — ownership operations on run-time values: counted allocation,
 * release, copies, reads, equality and ordering (see value.h for the
 * ownership rule and the heap meter).
 */
#include "value.h"

#include <string.h>

#include "../rt/rt.h"

static bool interp_value_copyable(const Value *v);

static void
heap_count(ValueHeap *h, int64_t delta)
{
	h->bytes += delta;
	if (h->bytes > (int64_t)VALUE_HEAP_LIMIT && !h->over) {
		h->over = true;
		heap_lower(h);
	}
}

void *
interp_heap_alloc(ValueHeap *h, size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) {
		h->oom_size = n;
		longjmp(h->oom, 1);
	}
	heap_count(h, (int64_t)n);
	return p;
}

void *
interp_heap_realloc(ValueHeap *h, void *p, size_t old, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q) {
		h->oom_size = n;
		longjmp(h->oom, 1);
	}
	heap_count(h, (int64_t)n - (int64_t)old);
	return q;
}

void
interp_heap_free(ValueHeap *h, void *p, size_t n)
{
	h->bytes -= (int64_t)n;
	free(p);
}

Bytes *
interp_bytes_new(ValueHeap *h, const void *data, size_t len)
{
	Bytes *b = interp_heap_alloc(h, sizeof *b);
	b->cap = len ? len : 1;
	b->rc = 1;
	b->data = interp_heap_alloc(h, b->cap);
	if (len)
		memcpy(b->data, data, len);
	b->len = len;
	heap_work(h, len);
	return b;
}

void
interp_bytes_reserve(ValueHeap *h, Bytes *b, size_t cap, bool zero)
{
	if (cap <= b->cap)
		return;
	b->data = interp_heap_realloc(h, b->data, b->cap, cap);
	if (zero)
		memset(b->data + b->cap, 0, cap - b->cap);
	heap_work(h, b->len + (zero ? cap - b->cap : 0));
	b->cap = cap;
}

Value
interp_string_value(ValueHeap *h, const void *data, size_t len)
{
	return v_ptr(V_STRING, interp_bytes_new(h, data, len), 0);
}

static size_t
obj_size(uint32_t n)
{
	return sizeof(Obj) + sizeof(Value) * (n ? n : 1);
}

Obj *
interp_obj_new(ValueHeap *h, uint32_t n)
{
	Obj *o = interp_heap_alloc(h, obj_size(n));
	o->n = n;
	o->rc = 1;
	o->copy = true;
	for (uint32_t i = 0; i < n; i++)
		o->f[i] = v_empty();
	return o;
}

void
interp_obj_update_copy(Obj *o)
{
	o->copy = true;
	for (uint32_t i = 0; i < o->n; i++)
		if (!interp_value_copyable(&o->f[i])) {
			o->copy = false;
			return;
		}
}

VecObj *
interp_vecobj_new(ValueHeap *h, size_t cap)
{
	VecObj *v = interp_heap_alloc(h, sizeof *v);
	v->cap = cap;
	v->len = 0;
	v->items = interp_heap_alloc(h, sizeof(Value) * (cap ? cap : 1));
	return v;
}

void
interp_vecobj_reserve(ValueHeap *h, VecObj *v, size_t cap)
{
	if (cap <= v->cap)
		return;
	v->items = interp_heap_realloc(h, v->items, sizeof(Value) * (v->cap ? v->cap : 1), sizeof(Value) * cap);
	heap_work(h, sizeof(Value) * v->len);
	v->cap = cap;
}

MapObj *
interp_mapobj_new(ValueHeap *h, size_t cap, bool set)
{
	MapObj *m = interp_heap_alloc(h, sizeof *m);
	m->cap = cap;
	m->len = 0;
	m->keys = interp_heap_alloc(h, sizeof(Value) * (cap ? cap : 1));
	m->vals = set ? NULL : interp_heap_alloc(h, sizeof(Value) * (cap ? cap : 1));
	return m;
}

static bool
interp_value_copyable(const Value *v)
{
	switch ((VTag)v->tag) {
	case V_STRING: case V_BYTES: case V_VEC: case V_BOX: case V_ITER: case V_MAP:
		return false;
	case V_RECORD:
		return ((const Obj *)v->p)->copy;
	case V_VARIANT:
		return !v->p || ((const Obj *)v->p)->copy;
	default:
		return true;
	}
}

static void
bytes_free(ValueHeap *h, Bytes *b)
{
	interp_heap_free(h, b->data, b->cap);
	interp_heap_free(h, b, sizeof *b);
}

/* Queues the heap values of n slots for release. */
static void
pend(ValueHeap *h, const Value *vs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (vs[i].tag >= V_STRING && !vs[i].borrowed)
			VEC_PUSH(h->pending, vs[i]);
}

/* Frees v's own storage, queueing what it holds (h->pending). */
static void
release_one(ValueHeap *h, Value v)
{
	switch ((VTag)v.tag) {
	case V_STRING: case V_BYTES:
		bytes_free(h, v.p);
		break;
	case V_ARRAY: {
		Bytes *b = v.p;
		if (--b->rc == 0)
			bytes_free(h, b);
		break;
	}
	case V_RECORD: case V_CLOSURE: case V_VARIANT: {
		Obj *o = v.p;
		if (!o || --o->rc > 0)
			break;
		pend(h, o->f, o->n);
		interp_heap_free(h, o, obj_size(o->n));
		break;
	}
	case V_VEC: {
		VecObj *vo = v.p;
		pend(h, vo->items, vo->len);
		interp_heap_free(h, vo->items, sizeof(Value) * (vo->cap ? vo->cap : 1));
		interp_heap_free(h, vo, sizeof *vo);
		break;
	}
	case V_BOX:
		pend(h, v.p, 1);
		interp_heap_free(h, v.p, sizeof(Value));
		break;
	case V_ITER: {
		IterObj *it = v.p;
		release_one(h, v_ptr(V_VEC, it->v, 0));
		interp_heap_free(h, it, sizeof *it);
		break;
	}
	case V_MAP: {
		MapObj *m = v.p;
		pend(h, m->keys, m->len);
		if (m->vals)
			pend(h, m->vals, m->len);
		size_t cells = sizeof(Value) * (m->cap ? m->cap : 1);
		interp_heap_free(h, m->keys, cells);
		if (m->vals)
			interp_heap_free(h, m->vals, cells);
		interp_heap_free(h, m, sizeof *m);
		break;
	}
	default:
		break;
	}
}

/* Iterative, so a value nested to any depth (a chain of closures, a list
 * through boxes) is released without deep recursion. */
void
interp_value_release_heap(ValueHeap *h, Value v)
{
	if (v.borrowed)
		return;
	int base = h->pending.len;
	release_one(h, v);
	while (h->pending.len > base)
		release_one(h, h->pending.items[--h->pending.len]);
}

/* A vector whose items are still to be cloned (queued: clone_into). */
static VecObj *
clone_vecobj(ValueHeap *h, const VecObj *vo, size_t *work)
{
	VecObj *cv = interp_vecobj_new(h, vo->cap);
	for (size_t i = 0; i < vo->len; i++) {
		CloneJob j = { &cv->items[i], vo->items[i] };
		VEC_PUSH(h->cloning, j);
	}
	cv->len = vo->len;
	*work += sizeof(Value) * vo->len;
	return cv;
}

/* Writes a copy of v's own storage to *dst and queues the copies of what
 * it holds (h->cloning: each into its slot of the new storage, which
 * never moves until the clone is complete); *work accumulates the bytes it
 * allocated and copied. */
static void
clone_into(ValueHeap *h, Value *dst, Value v, size_t *work)
{
	Value c = v;
	c.borrowed = 0;
	switch ((VTag)v.tag) {
	case V_STRING: case V_BYTES: {
		const Bytes *b = v.p;
		c.p = interp_bytes_new(h, b->data, b->len);   /* charges its own copy */
		break;
	}
	case V_ARRAY:
		((Bytes *)v.p)->rc++;
		break;
	case V_CLOSURE:
		((Obj *)v.p)->rc++;
		break;
	case V_RECORD: case V_VARIANT: {
		Obj *o = v.p;
		if (!o)
			break;
		if (o->copy) {
			o->rc++;   /* copyable: shared until written (interp_obj_unique) */
			break;
		}
		Obj *co = interp_obj_new(h, o->n);
		for (uint32_t i = 0; i < o->n; i++) {
			CloneJob j = { &co->f[i], o->f[i] };
			VEC_PUSH(h->cloning, j);
		}
		co->copy = o->copy;
		*work += obj_size(o->n);
		c.p = co;
		break;
	}
	case V_VEC:
		c.p = clone_vecobj(h, v.p, work);
		break;
	case V_BOX: {
		Value *b = interp_heap_alloc(h, sizeof *b);
		*b = v_empty();
		CloneJob j = { b, *(Value *)v.p };
		VEC_PUSH(h->cloning, j);
		*work += sizeof *b;
		c.p = b;
		break;
	}
	case V_ITER: {
		const IterObj *it = v.p;
		IterObj *ci = interp_heap_alloc(h, sizeof *ci);
		ci->v = clone_vecobj(h, it->v, work);
		ci->pos = it->pos;
		c.p = ci;
		break;
	}
	case V_MAP: {
		const MapObj *m = v.p;
		MapObj *cm = interp_mapobj_new(h, m->cap, m->vals == NULL);
		for (size_t i = 0; i < m->len; i++) {
			CloneJob k = { &cm->keys[i], m->keys[i] };
			VEC_PUSH(h->cloning, k);
			if (m->vals) {
				CloneJob j = { &cm->vals[i], m->vals[i] };
				VEC_PUSH(h->cloning, j);
			}
		}
		cm->len = m->len;
		*work += sizeof(Value) * 2 * m->len;
		c.p = cm;
		break;
	}
	default:
		break;
	}
	*dst = c;
}

/* Completes the copies queued since base (iterative: a value nested to any
 * depth is copied without deep recursion). */
static void
clone_drain(ValueHeap *h, int base, size_t *work)
{
	while (h->cloning.len > base) {
		CloneJob j = h->cloning.items[--h->cloning.len];
		clone_into(h, j.dst, j.src, work);
	}
}

void
interp_obj_unique(ValueHeap *h, Value *v)
{
	Obj *o = v->p;
	if ((v->tag != V_RECORD && v->tag != V_VARIANT) || !o || o->rc <= 1)
		return;
	size_t work = obj_size(o->n);
	Obj *c = interp_obj_new(h, o->n);
	int base = h->cloning.len;
	for (uint32_t i = 0; i < o->n; i++) {
		CloneJob j = { &c->f[i], o->f[i] };
		VEC_PUSH(h->cloning, j);
	}
	clone_drain(h, base, &work);
	c->copy = o->copy;
	o->rc--;
	v->p = c;
	heap_work(h, work);
}

Value
interp_value_clone(ValueHeap *h, Value v)
{
	size_t work = 0;
	Value c;
	int base = h->cloning.len;
	clone_into(h, &c, v, &work);
	clone_drain(h, base, &work);
	heap_work(h, work);
	return c;
}

Value
interp_value_read_heap(ValueHeap *h, const Value *v)
{
	if (interp_value_copyable(v))
		return interp_value_clone(h, *v);
	Value a = *v;
	a.borrowed = 1;
	return a;
}

static int
bytes_cmp(const Value *a, const Value *b)
{
	size_t la, lb;
	const uint8_t *pa = interp_value_bytes(a, &la), *pb = interp_value_bytes(b, &lb);
	return rt_bytes_cmp(pa, la, pb, lb);
}

bool
interp_value_equal(const Value *a, const Value *b)
{
	switch ((VTag)a->tag) {
	case V_I64: case V_I32:
		return a->i == b->i;
	case V_U8: case V_USIZE: case V_CHAR:
		return a->u == b->u;
	case V_F32:
		return a->f32 == b->f32;
	case V_F64:
		return a->f == b->f;
	case V_BOOL:
		return a->b == b->b;
	case V_STRING: case V_VIEW: case V_BYTES: case V_ARRAY:
		return bytes_cmp(a, b) == 0;
	case V_VARIANT:
		return a->n == b->n;
	default:
		return false;
	}
}

int
interp_value_compare(const Value *a, const Value *b)
{
	switch ((VTag)a->tag) {
	case V_I64: case V_I32:
		return a->i < b->i ? -1 : a->i > b->i;
	case V_U8: case V_USIZE: case V_CHAR:
		return a->u < b->u ? -1 : a->u > b->u;
	case V_F32:
		return a->f32 < b->f32 ? -1 : a->f32 > b->f32 ? 1 : a->f32 == b->f32 ? 0 : 2;
	case V_F64:
		return a->f < b->f ? -1 : a->f > b->f ? 1 : a->f == b->f ? 0 : 2;
	case V_BOOL:
		return (int)a->b - (int)b->b;
	case V_STRING: case V_VIEW: case V_BYTES: case V_ARRAY:
		return bytes_cmp(a, b);
	default:
		return 0;
	}
}

int
interp_value_sort_compare(const Value *a, const Value *b)
{
	if (a->tag == V_F64) {
		int64_t x = rt_total_key64(a->f), y = rt_total_key64(b->f);
		return x < y ? -1 : x > y;
	}
	if (a->tag == V_F32) {
		int32_t x = rt_total_key32(a->f32), y = rt_total_key32(b->f32);
		return x < y ? -1 : x > y;
	}
	if (a->tag == V_RECORD || a->tag == V_VARIANT)
		return 0;
	return interp_value_compare(a, b);
}
