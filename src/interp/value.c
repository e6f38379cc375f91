/*
 * value.c — ownership operations on run-time values: release, deep copy,
 * reads, equality and ordering (see value.h for the ownership rule).
 */
#include "value.h"

#include <string.h>

ValueHeap value_heap;

static void
heap_account(int64_t delta)
{
	value_heap.bytes += delta;
	if (value_heap.bytes > (int64_t)VALUE_HEAP_LIMIT && value_heap.exceeded)
		value_heap.exceeded(value_heap.ctx);
}

Bytes *
bytes_new(const void *data, size_t len)
{
	Bytes *b = xmalloc(sizeof *b);
	b->cap = len ? len : 1;
	b->data = xmalloc(b->cap);
	heap_account((int64_t)b->cap);
	if (len)
		memcpy(b->data, data, len);
	b->len = len;
	return b;
}

void
bytes_reserve(Bytes *b, size_t cap, bool zero)
{
	if (cap <= b->cap)
		return;
	b->data = xrealloc(b->data, cap);
	if (zero)
		memset(b->data + b->cap, 0, cap - b->cap);
	heap_account((int64_t)(cap - b->cap));
	b->cap = cap;
}

Value
string_value(const void *data, size_t len)
{
	return v_ptr(V_STRING, bytes_new(data, len), 0);
}

Obj *
obj_new(uint32_t n)
{
	Obj *o = xmalloc(sizeof *o + sizeof(Value) * (n ? n : 1));
	o->n = n;
	o->copy = true;
	for (uint32_t i = 0; i < n; i++)
		o->f[i] = v_empty();
	return o;
}

void
obj_update_copy(Obj *o)
{
	o->copy = true;
	for (uint32_t i = 0; i < o->n; i++)
		if (!value_copyable(&o->f[i])) {
			o->copy = false;
			return;
		}
}

VecObj *
vecobj_new(size_t cap)
{
	VecObj *v = xmalloc(sizeof *v);
	v->cap = cap;
	v->len = 0;
	v->items = xmalloc(sizeof(Value) * (cap ? cap : 1));
	return v;
}

MapObj *
mapobj_new(size_t cap, bool set)
{
	MapObj *m = xmalloc(sizeof *m);
	m->cap = cap;
	m->len = 0;
	m->keys = xmalloc(sizeof(Value) * (cap ? cap : 1));
	m->vals = set ? NULL : xmalloc(sizeof(Value) * (cap ? cap : 1));
	return m;
}

static void
mapobj_free(MapObj *m)
{
	for (size_t i = 0; i < m->len; i++) {
		value_release(m->keys[i]);
		if (m->vals)
			value_release(m->vals[i]);
	}
	free(m->keys);
	free(m->vals);
	free(m);
}

static MapObj *
mapobj_clone(const MapObj *m)
{
	MapObj *c = mapobj_new(m->cap, m->vals == NULL);
	for (size_t i = 0; i < m->len; i++) {
		c->keys[i] = value_clone(m->keys[i]);
		if (m->vals)
			c->vals[i] = value_clone(m->vals[i]);
	}
	c->len = m->len;
	return c;
}

bool
value_copyable(const Value *v)
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
bytes_free(Bytes *b)
{
	heap_account(-(int64_t)b->cap);
	free(b->data);
	free(b);
}

static void
vecobj_free(VecObj *v)
{
	for (size_t i = 0; i < v->len; i++)
		value_release(v->items[i]);
	free(v->items);
	free(v);
}

static void
obj_free(Obj *o)
{
	for (uint32_t i = 0; i < o->n; i++)
		value_release(o->f[i]);
	free(o);
}

void
value_release_heap(Value v)
{
	if (v.borrowed)
		return;
	switch ((VTag)v.tag) {
	case V_STRING: case V_BYTES: case V_ARRAY:
		bytes_free(v.p);
		break;
	case V_RECORD: case V_CLOSURE:
		obj_free(v.p);
		break;
	case V_VARIANT:
		if (v.p)
			obj_free(v.p);
		break;
	case V_VEC:
		vecobj_free(v.p);
		break;
	case V_BOX:
		value_release(*(Value *)v.p);
		free(v.p);
		break;
	case V_ITER: {
		IterObj *it = v.p;
		vecobj_free(it->v);
		free(it);
		break;
	}
	case V_MAP:
		mapobj_free(v.p);
		break;
	default:
		break;
	}
}

static Obj *
obj_clone(const Obj *o)
{
	Obj *c = obj_new(o->n);
	for (uint32_t i = 0; i < o->n; i++)
		c->f[i] = value_clone(o->f[i]);
	c->copy = o->copy;
	return c;
}

static VecObj *
vecobj_clone(const VecObj *v)
{
	VecObj *c = vecobj_new(v->cap);
	for (size_t i = 0; i < v->len; i++)
		c->items[i] = value_clone(v->items[i]);
	c->len = v->len;
	return c;
}

Value
value_clone(Value v)
{
	Value c = v;
	c.borrowed = 0;
	switch ((VTag)v.tag) {
	case V_STRING: case V_BYTES: case V_ARRAY: {
		const Bytes *b = v.p;
		c.p = bytes_new(b->data, b->len);
		break;
	}
	case V_RECORD: case V_CLOSURE:
		c.p = obj_clone(v.p);
		break;
	case V_VARIANT:
		if (v.p)
			c.p = obj_clone(v.p);
		break;
	case V_VEC:
		c.p = vecobj_clone(v.p);
		break;
	case V_BOX: {
		Value *b = xmalloc(sizeof *b);
		*b = value_clone(*(Value *)v.p);
		c.p = b;
		break;
	}
	case V_ITER: {
		const IterObj *it = v.p;
		IterObj *ci = xmalloc(sizeof *ci);
		ci->v = vecobj_clone(it->v);
		ci->pos = it->pos;
		c.p = ci;
		break;
	}
	case V_MAP:
		c.p = mapobj_clone(v.p);
		break;
	default:
		break;
	}
	return c;
}

Value
value_read_heap(const Value *v)
{
	if (value_copyable(v))
		return value_clone(*v);
	Value a = *v;
	a.borrowed = 1;
	return a;
}

const uint8_t *
value_bytes(const Value *v, size_t *len)
{
	if (v->tag == V_VIEW) {
		*len = v->n;
		return v->bytes;
	}
	const Bytes *b = v->p;
	*len = b->len;
	return b->data;
}

static int
bytes_cmp(const Value *a, const Value *b)
{
	size_t la, lb;
	const uint8_t *pa = value_bytes(a, &la), *pb = value_bytes(b, &lb);
	size_t n = la < lb ? la : lb;
	int c = n ? memcmp(pa, pb, n) : 0;
	if (c != 0)
		return c < 0 ? -1 : 1;
	return la < lb ? -1 : la > lb ? 1 : 0;
}

bool
value_equal(const Value *a, const Value *b)
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
value_compare(const Value *a, const Value *b)
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

/* IEEE total order key: flip the sign-magnitude bits into a two's complement order. */
static int64_t
total_key64(double d)
{
	int64_t k;
	memcpy(&k, &d, sizeof k);
	return k < 0 ? (int64_t)((uint64_t)k ^ INT64_MAX) : k;
}

static int32_t
total_key32(float f)
{
	int32_t k;
	memcpy(&k, &f, sizeof k);
	return k < 0 ? (int32_t)((uint32_t)k ^ INT32_MAX) : k;
}

int
value_sort_compare(const Value *a, const Value *b)
{
	if (a->tag == V_F64) {
		int64_t x = total_key64(a->f), y = total_key64(b->f);
		return x < y ? -1 : x > y;
	}
	if (a->tag == V_F32) {
		int32_t x = total_key32(a->f32), y = total_key32(b->f32);
		return x < y ? -1 : x > y;
	}
	if (a->tag == V_RECORD || a->tag == V_VARIANT)
		return 0;
	return value_compare(a, b);
}
