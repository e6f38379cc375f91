/*
 * wasm_valid.c — the Wasm module validator of the fuzz target (see
 * wasm_valid.h).  Follows the validation algorithm of the WebAssembly
 * specification's appendix: an operand stack of value types (an unknown
 * type standing for the polymorphic stack after an unconditional branch)
 * and a stack of control frames.  A failure longjmps out with a message;
 * every allocation lives in the context and is freed on both paths.
 */
#include "wasm_valid.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { T_UNK = 0, T_I32 = 0x7f, T_I64 = 0x7e, T_F32 = 0x7d, T_F64 = 0x7c };

typedef struct FType {
	const uint8_t *p, *r;    /* into the module's bytes */
	uint32_t np, nr;
} FType;

typedef struct Ctrl {
	uint8_t op;              /* 0x02 block, 0x03 loop, 0x04 if, 0x05 else */
	const uint8_t *in, *out;
	uint32_t nin, nout;
	size_t height;
	bool unreach;
} Ctrl;

typedef struct V {
	const uint8_t *b;
	size_t len, pos;
	jmp_buf fail;
	char *why;
	size_t whylen;
	FType *types;
	uint32_t ntypes;
	uint32_t *functype;      /* per function index (imports first) */
	uint32_t nfuncs, nimpfuncs;
	uint8_t *gtype, *gmut;
	uint32_t nglobals;
	uint32_t nmems, ntables;
	/* the body being checked */
	uint8_t *locals;
	uint32_t nlocals;
	uint8_t *vals;
	size_t nvals, capvals;
	Ctrl *ctrls;
	size_t nctrls, capctrls;
} V;

static void fail(V *v, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));

static void
fail(V *v, const char *fmt, ...)
{
	char msg[200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(v->why, v->whylen, "at byte %zu: %s", v->pos, msg);
	longjmp(v->fail, 1);
}

static void *
grow(void *p, size_t n, size_t size)
{
	void *q = realloc(p, n * size ? n * size : 1);
	if (!q)
		abort();
	return q;
}

/* ---- reading ---- */

static uint8_t
u8(V *v)
{
	if (v->pos >= v->len)
		fail(v, "unexpected end");
	return v->b[v->pos++];
}

static uint64_t
leb(V *v, int maxbytes, bool sign, int bits)
{
	uint64_t r = 0;
	int shift = 0;
	for (int i = 0;; i++) {
		if (i == maxbytes)
			fail(v, "LEB128 longer than %d bytes", maxbytes);
		uint8_t c = u8(v);
		if (shift < 64)
			r |= (uint64_t)(c & 0x7f) << shift;
		shift += 7;
		if (!(c & 0x80)) {
			if (i == maxbytes - 1) {
				/* the last byte's unused bits: zero, or the sign's copies */
				int used = bits - 7 * (maxbytes - 1);
				uint8_t rest = (uint8_t)(c & 0x7f) >> (used - (sign ? 1 : 0));
				uint8_t all = (uint8_t)(0x7f >> (used - (sign ? 1 : 0)));
				if (rest != 0 && !(sign && rest == all))
					fail(v, "LEB128 with unused bits set");
			}
			if (sign && shift < 64 && (c & 0x40))
				r |= ~(uint64_t)0 << shift;
			return r;
		}
	}
}

static uint32_t
u32(V *v)
{
	return (uint32_t)leb(v, 5, false, 32);
}

static void
skip(V *v, size_t n)
{
	if (n > v->len - v->pos)
		fail(v, "%zu bytes past the end", n);
	v->pos += n;
}

static bool
numtype(uint8_t t)
{
	return t == T_I32 || t == T_I64 || t == T_F32 || t == T_F64;
}

static uint8_t
valtype(V *v)
{
	uint8_t t = u8(v);
	if (!numtype(t))
		fail(v, "value type 0x%02x", t);
	return t;
}

static void
name(V *v)
{
	skip(v, u32(v));
}

static void
limits(V *v)
{
	uint8_t f = u8(v);
	if (f > 1)
		fail(v, "limits flag %u", f);
	uint32_t min = u32(v);
	if (f == 1 && u32(v) < min)
		fail(v, "limits max below min");
}

/* ---- the operand and control stacks ---- */

static void
push(V *v, uint8_t t)
{
	if (v->nvals == v->capvals) {
		v->capvals = v->capvals ? 2 * v->capvals : 64;
		v->vals = grow(v->vals, v->capvals, 1);
	}
	v->vals[v->nvals++] = t;
}

static uint8_t
pop_any(V *v)
{
	Ctrl *c = &v->ctrls[v->nctrls - 1];
	if (v->nvals == c->height) {
		if (c->unreach)
			return T_UNK;
		fail(v, "operand stack underflow");
	}
	return v->vals[--v->nvals];
}

static uint8_t
pop(V *v, uint8_t want)
{
	uint8_t t = pop_any(v);
	if (t != want && t != T_UNK && want != T_UNK)
		fail(v, "operand 0x%02x where 0x%02x is expected", t, want);
	return t == T_UNK ? want : t;
}

static void
pop_n(V *v, const uint8_t *ts, uint32_t n)
{
	for (uint32_t i = n; i-- > 0;)
		pop(v, ts[i]);
}

static void
push_n(V *v, const uint8_t *ts, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		push(v, ts[i]);
}

static void
push_ctrl(V *v, uint8_t op, const uint8_t *in, uint32_t nin, const uint8_t *out, uint32_t nout)
{
	if (v->nctrls == v->capctrls) {
		v->capctrls = v->capctrls ? 2 * v->capctrls : 16;
		v->ctrls = grow(v->ctrls, v->capctrls, sizeof *v->ctrls);
	}
	v->ctrls[v->nctrls++] = (Ctrl){ op, in, out, nin, nout, v->nvals, false };
	push_n(v, in, nin);
}

static Ctrl
pop_ctrl(V *v)
{
	if (v->nctrls == 0)
		fail(v, "`end` without a block");
	Ctrl c = v->ctrls[v->nctrls - 1];
	pop_n(v, c.out, c.nout);
	if (v->nvals != c.height)
		fail(v, "%zu values left at the end of a block", v->nvals - c.height);
	v->nctrls--;
	return c;
}

static void
unreachable(V *v)
{
	Ctrl *c = &v->ctrls[v->nctrls - 1];
	v->nvals = c->height;
	c->unreach = true;
}

/* The label types of relative depth l. */
static const Ctrl *
label(V *v, uint32_t l, const uint8_t **ts, uint32_t *n)
{
	if (l >= v->nctrls)
		fail(v, "branch depth %u of %zu", l, v->nctrls);
	const Ctrl *c = &v->ctrls[v->nctrls - 1 - l];
	*ts = c->op == 0x03 ? c->in : c->out;
	*n = c->op == 0x03 ? c->nin : c->nout;
	return c;
}

/* ---- instructions ---- */

static void
blocktype(V *v, const uint8_t **in, uint32_t *nin, const uint8_t **out, uint32_t *nout)
{
	uint8_t c = v->len > v->pos ? v->b[v->pos] : 0;
	*in = *out = NULL;
	*nin = *nout = 0;
	if (c == 0x40) {
		v->pos++;
	} else if (numtype(c)) {
		*out = v->b + v->pos++;
		*nout = 1;
	} else {
		int64_t idx = (int64_t)leb(v, 5, true, 33);
		if (idx < 0 || (uint64_t)idx >= v->ntypes)
			fail(v, "block type %lld", (long long)idx);
		const FType *f = &v->types[idx];
		*in = f->p, *nin = f->np, *out = f->r, *nout = f->nr;
	}
}

static void
memarg(V *v, unsigned width)
{
	if (v->nmems == 0)
		fail(v, "memory access without a memory");
	uint32_t align = u32(v);
	if (align >= 32 || (1u << align) > width)
		fail(v, "alignment 2^%u above the natural %u", align, width);
	u32(v);
}

/* The numeric instructions 0x45..0xc4: operand and result types. */
static bool
numeric(uint8_t op, uint8_t *a, uint8_t *b, uint8_t *r)
{
	static const struct { uint8_t lo, hi, a, b, r; } tab[] = {
		{ 0x45, 0x45, T_I32, 0, T_I32 },     { 0x46, 0x4f, T_I32, T_I32, T_I32 },
		{ 0x50, 0x50, T_I64, 0, T_I32 },     { 0x51, 0x5a, T_I64, T_I64, T_I32 },
		{ 0x5b, 0x60, T_F32, T_F32, T_I32 }, { 0x61, 0x66, T_F64, T_F64, T_I32 },
		{ 0x67, 0x69, T_I32, 0, T_I32 },     { 0x6a, 0x78, T_I32, T_I32, T_I32 },
		{ 0x79, 0x7b, T_I64, 0, T_I64 },     { 0x7c, 0x8a, T_I64, T_I64, T_I64 },
		{ 0x8b, 0x91, T_F32, 0, T_F32 },     { 0x92, 0x98, T_F32, T_F32, T_F32 },
		{ 0x99, 0x9f, T_F64, 0, T_F64 },     { 0xa0, 0xa6, T_F64, T_F64, T_F64 },
		{ 0xa7, 0xa7, T_I64, 0, T_I32 },     { 0xa8, 0xa9, T_F32, 0, T_I32 },
		{ 0xaa, 0xab, T_F64, 0, T_I32 },     { 0xac, 0xad, T_I32, 0, T_I64 },
		{ 0xae, 0xaf, T_F32, 0, T_I64 },     { 0xb0, 0xb1, T_F64, 0, T_I64 },
		{ 0xb2, 0xb3, T_I32, 0, T_F32 },     { 0xb4, 0xb5, T_I64, 0, T_F32 },
		{ 0xb6, 0xb6, T_F64, 0, T_F32 },     { 0xb7, 0xb8, T_I32, 0, T_F64 },
		{ 0xb9, 0xba, T_I64, 0, T_F64 },     { 0xbb, 0xbb, T_F32, 0, T_F64 },
		{ 0xbc, 0xbc, T_F32, 0, T_I32 },     { 0xbd, 0xbd, T_F64, 0, T_I64 },
		{ 0xbe, 0xbe, T_I32, 0, T_F32 },     { 0xbf, 0xbf, T_I64, 0, T_F64 },
		{ 0xc0, 0xc1, T_I32, 0, T_I32 },     { 0xc2, 0xc4, T_I64, 0, T_I64 },
	};
	for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
		if (op >= tab[i].lo && op <= tab[i].hi) {
			*a = tab[i].a, *b = tab[i].b, *r = tab[i].r;
			return true;
		}
	return false;
}

static void
call_type(V *v, const FType *f)
{
	pop_n(v, f->p, f->np);
	push_n(v, f->r, f->nr);
}

static void
instr(V *v, uint8_t op)
{
	const uint8_t *in, *out;
	uint32_t nin, nout;
	uint8_t a, b, r;
	switch (op) {
	case 0x00:
		unreachable(v);
		return;
	case 0x01:
		return;
	case 0x02: case 0x03: case 0x04:
		blocktype(v, &in, &nin, &out, &nout);
		if (op == 0x04)
			pop(v, T_I32);
		pop_n(v, in, nin);
		push_ctrl(v, op, in, nin, out, nout);
		return;
	case 0x05: {
		if (v->nctrls < 2 || v->ctrls[v->nctrls - 1].op != 0x04)
			fail(v, "`else` outside an `if`");
		Ctrl c = pop_ctrl(v);
		push_ctrl(v, 0x05, c.in, c.nin, c.out, c.nout);
		return;
	}
	case 0x0b: {
		Ctrl c = pop_ctrl(v);
		if (c.op == 0x04 && (c.nin != c.nout || (c.nin && memcmp(c.in, c.out, c.nin) != 0)))
			fail(v, "`if` without `else` changes the stack's types");
		push_n(v, c.out, c.nout);
		return;
	}
	case 0x0c:
		label(v, u32(v), &in, &nin);
		pop_n(v, in, nin);
		unreachable(v);
		return;
	case 0x0d:
		label(v, u32(v), &in, &nin);
		pop(v, T_I32);
		pop_n(v, in, nin);
		push_n(v, in, nin);
		return;
	case 0x0e: {
		uint32_t n = u32(v);
		size_t at = v->pos;
		for (uint32_t i = 0; i <= n; i++)
			u32(v);
		size_t end = v->pos;
		v->pos = at;
		pop(v, T_I32);
		const uint8_t *dts;
		uint32_t dn;
		for (uint32_t i = 0; i < n; i++)
			u32(v);
		label(v, u32(v), &dts, &dn);
		v->pos = at;
		for (uint32_t i = 0; i < n; i++) {
			label(v, u32(v), &in, &nin);
			if (nin != dn)
				fail(v, "br_table targets of different arity");
			pop_n(v, in, nin);
			push_n(v, in, nin);
		}
		v->pos = end;
		pop_n(v, dts, dn);
		unreachable(v);
		return;
	}
	case 0x0f:
		pop_n(v, v->ctrls[0].out, v->ctrls[0].nout);
		unreachable(v);
		return;
	case 0x10: {
		uint32_t f = u32(v);
		if (f >= v->nfuncs)
			fail(v, "call of function %u of %u", f, v->nfuncs);
		call_type(v, &v->types[v->functype[f]]);
		return;
	}
	case 0x11: {
		uint32_t t = u32(v);
		if (t >= v->ntypes)
			fail(v, "call_indirect type %u", t);
		if (u32(v) != 0 || v->ntables == 0)
			fail(v, "call_indirect without table 0");
		pop(v, T_I32);
		call_type(v, &v->types[t]);
		return;
	}
	case 0x1a:
		pop_any(v);
		return;
	case 0x1b: {
		pop(v, T_I32);
		uint8_t t1 = pop_any(v), t2 = pop_any(v);
		if (t1 != t2 && t1 != T_UNK && t2 != T_UNK)
			fail(v, "select of 0x%02x and 0x%02x", t1, t2);
		push(v, t1 == T_UNK ? t2 : t1);
		return;
	}
	case 0x1c: {
		if (u32(v) != 1)
			fail(v, "typed select of other than one type");
		uint8_t t = valtype(v);
		pop(v, T_I32);
		pop(v, t);
		pop(v, t);
		push(v, t);
		return;
	}
	case 0x20: case 0x21: case 0x22: {
		uint32_t l = u32(v);
		if (l >= v->nlocals)
			fail(v, "local %u of %u", l, v->nlocals);
		if (op != 0x20)
			pop(v, v->locals[l]);
		if (op != 0x21)
			push(v, v->locals[l]);
		return;
	}
	case 0x23: case 0x24: {
		uint32_t g = u32(v);
		if (g >= v->nglobals)
			fail(v, "global %u of %u", g, v->nglobals);
		if (op == 0x23) {
			push(v, v->gtype[g]);
		} else {
			if (!v->gmut[g])
				fail(v, "global.set of immutable global %u", g);
			pop(v, v->gtype[g]);
		}
		return;
	}
	case 0x3f: case 0x40:
		if (u8(v) != 0 || v->nmems == 0)
			fail(v, "memory.size/grow without memory 0");
		if (op == 0x40)
			pop(v, T_I32);
		push(v, T_I32);
		return;
	case 0x41:
		leb(v, 5, true, 32);
		push(v, T_I32);
		return;
	case 0x42:
		leb(v, 10, true, 64);
		push(v, T_I64);
		return;
	case 0x43:
		skip(v, 4);
		push(v, T_F32);
		return;
	case 0x44:
		skip(v, 8);
		push(v, T_F64);
		return;
	case 0xfc: {
		uint32_t sub = u32(v);
		if (sub <= 7) {
			uint8_t from = sub < 2 || (sub >= 4 && sub < 6) ? T_F32 : T_F64;
			pop(v, from);
			push(v, sub < 4 ? T_I32 : T_I64);
			return;
		}
		if (sub == 10 || sub == 11) {
			if (u8(v) != 0 || (sub == 10 && u8(v) != 0) || v->nmems == 0)
				fail(v, "memory.copy/fill without memory 0");
			for (int k = 0; k < 3; k++)   /* copy: d s n; fill: d val n */
				pop(v, T_I32);
			return;
		}
		fail(v, "opcode 0xfc %u", sub);
	}
	default:
		break;
	}
	if (op >= 0x28 && op <= 0x3e) {
		static const uint8_t width[] = { 4, 8, 4, 8, 1, 1, 2, 2, 1, 1, 2, 2, 4, 4, 4, 8, 4, 8, 1, 2, 1, 2, 4 };
		static const uint8_t type[] = { T_I32, T_I64, T_F32, T_F64, T_I32, T_I32, T_I32, T_I32, T_I64, T_I64, T_I64, T_I64,
						T_I64, T_I64, T_I32, T_I64, T_F32, T_F64, T_I32, T_I32, T_I64, T_I64, T_I64 };
		memarg(v, width[op - 0x28]);
		if (op <= 0x35) {
			pop(v, T_I32);
			push(v, type[op - 0x28]);
		} else {
			pop(v, type[op - 0x28]);
			pop(v, T_I32);
		}
		return;
	}
	if (numeric(op, &a, &b, &r)) {
		if (b)
			pop(v, b);
		pop(v, a);
		push(v, r);
		return;
	}
	fail(v, "opcode 0x%02x", op);
}

static void
body(V *v, uint32_t func, size_t end)
{
	const FType *f = &v->types[v->functype[func]];
	v->nlocals = 0;
	uint64_t total = f->np;
	size_t at = v->pos;
	uint32_t groups = u32(v);
	for (uint32_t i = 0; i < groups; i++) {
		total += u32(v);
		valtype(v);
		if (total > 50000)
			fail(v, "more than 50,000 locals");
	}
	v->locals = grow(v->locals, (size_t)total, 1);
	memcpy(v->locals, f->p, f->np);
	v->nlocals = f->np;
	v->pos = at;
	groups = u32(v);
	for (uint32_t i = 0; i < groups; i++) {
		uint32_t n = u32(v);
		uint8_t t = valtype(v);
		memset(v->locals + v->nlocals, t, n);
		v->nlocals += n;
	}
	v->nvals = 0;
	v->nctrls = 0;
	push_ctrl(v, 0x02, NULL, 0, f->r, f->nr);
	while (v->nctrls > 0) {
		if (v->pos >= end)
			fail(v, "function %u's body ends inside a block", func);
		instr(v, u8(v));
	}
	if (v->pos != end)
		fail(v, "function %u's body continues after its final `end`", func);
}

/* A constant expression of type t: one const (or global.get of an imported global), then end. */
static void
const_expr(V *v, uint8_t t)
{
	uint8_t op = u8(v), got = 0;
	switch (op) {
	case 0x41: leb(v, 5, true, 32); got = T_I32; break;
	case 0x42: leb(v, 10, true, 64); got = T_I64; break;
	case 0x43: skip(v, 4); got = T_F32; break;
	case 0x44: skip(v, 8); got = T_F64; break;
	case 0x23: {
		uint32_t g = u32(v);
		if (g >= v->nglobals || v->gmut[g])
			fail(v, "constant global.get %u", g);
		got = v->gtype[g];
		break;
	}
	default: fail(v, "constant expression opcode 0x%02x", op);
	}
	if (got != t)
		fail(v, "constant of type 0x%02x where 0x%02x is expected", got, t);
	if (u8(v) != 0x0b)
		fail(v, "constant expression without its `end`");
}

static void
add_func(V *v, uint32_t type)
{
	if (type >= v->ntypes)
		fail(v, "function type %u of %u", type, v->ntypes);
	v->functype = grow(v->functype, (size_t)v->nfuncs + 1, sizeof *v->functype);
	v->functype[v->nfuncs++] = type;
}

static void
add_global(V *v, uint8_t t, uint8_t mut)
{
	if (mut > 1)
		fail(v, "global mutability %u", mut);
	v->gtype = grow(v->gtype, (size_t)v->nglobals + 1, 1);
	v->gmut = grow(v->gmut, (size_t)v->nglobals + 1, 1);
	v->gtype[v->nglobals] = t;
	v->gmut[v->nglobals++] = mut;
}

/* One section's content, ending at end. */
static void
section(V *v, uint8_t id, size_t end, uint32_t *ndefined, int64_t *datacount, bool *have_code)
{
	uint32_t n = id == 0 || id == 8 || id == 12 ? 0 : u32(v);
	if (n > end - v->pos)
		fail(v, "a vector of %u entries in %zu bytes", n, end - v->pos);
	switch (id) {
	case 0:
		name(v);
		v->pos = end;
		return;
	case 1:
		v->types = grow(v->types, n, sizeof *v->types);
		for (uint32_t i = 0; i < n; i++) {
			if (u8(v) != 0x60)
				fail(v, "function type without 0x60");
			FType *f = &v->types[i];
			f->np = u32(v);
			f->p = v->b + v->pos;
			for (uint32_t k = 0; k < f->np; k++)
				valtype(v);
			f->nr = u32(v);
			f->r = v->b + v->pos;
			for (uint32_t k = 0; k < f->nr; k++)
				valtype(v);
			v->ntypes = i + 1;
		}
		break;
	case 2:
		for (uint32_t i = 0; i < n; i++) {
			name(v);
			name(v);
			uint8_t kind = u8(v);
			switch (kind) {
			case 0: add_func(v, u32(v)); v->nimpfuncs++; break;
			case 1: if (u8(v) != 0x70) fail(v, "table of other than funcref"); limits(v); v->ntables++; break;
			case 2: limits(v); v->nmems++; break;
			case 3: { uint8_t t = valtype(v); add_global(v, t, u8(v)); break; }
			default: fail(v, "import kind %u", kind);
			}
		}
		break;
	case 3:
		for (uint32_t i = 0; i < n; i++)
			add_func(v, u32(v));
		*ndefined = n;
		break;
	case 4:
		for (uint32_t i = 0; i < n; i++) {
			if (u8(v) != 0x70)
				fail(v, "table of other than funcref");
			limits(v);
			v->ntables++;
		}
		break;
	case 5:
		for (uint32_t i = 0; i < n; i++) {
			limits(v);
			v->nmems++;
		}
		break;
	case 6:
		for (uint32_t i = 0; i < n; i++) {
			uint8_t t = valtype(v), mut = u8(v);
			const_expr(v, t);
			add_global(v, t, mut);
		}
		break;
	case 7:
		for (uint32_t i = 0; i < n; i++) {
			name(v);
			uint8_t kind = u8(v);
			uint32_t idx = u32(v);
			uint32_t count = kind == 0 ? v->nfuncs : kind == 1 ? v->ntables : kind == 2 ? v->nmems : kind == 3 ? v->nglobals : 0;
			if (idx >= count)
				fail(v, "export of kind %u index %u of %u", kind, idx, count);
		}
		break;
	case 8: {
		uint32_t f = u32(v);
		if (f >= v->nfuncs || v->types[v->functype[f]].np || v->types[v->functype[f]].nr)
			fail(v, "start function %u", f);
		break;
	}
	case 9:
		for (uint32_t i = 0; i < n; i++) {
			if (u32(v) != 0 || v->ntables == 0)
				fail(v, "element segment other than active in table 0");
			const_expr(v, T_I32);
			uint32_t k = u32(v);
			for (uint32_t j = 0; j < k; j++)
				if (u32(v) >= v->nfuncs)
					fail(v, "element of an unknown function");
		}
		break;
	case 12:
		*datacount = u32(v);
		break;
	case 10:
		if (n != *ndefined)
			fail(v, "%u bodies for %u functions", n, *ndefined);
		for (uint32_t i = 0; i < n; i++) {
			uint32_t size = u32(v);
			if (size > end - v->pos)
				fail(v, "body past its section");
			body(v, v->nimpfuncs + i, v->pos + size);
		}
		*have_code = true;
		break;
	case 11:
		if (*datacount >= 0 && (uint32_t)*datacount != n)
			fail(v, "data count %lld for %u segments", (long long)*datacount, n);
		for (uint32_t i = 0; i < n; i++) {
			uint32_t flag = u32(v);
			if (flag == 2 && u32(v) != 0)
				fail(v, "data segment of memory other than 0");
			if (flag == 0 || flag == 2) {
				if (v->nmems == 0)
					fail(v, "active data without memory");
				const_expr(v, T_I32);
			} else if (flag != 1) {
				fail(v, "data segment flag %u", flag);
			}
			name(v);
		}
		break;
	default:
		fail(v, "section id %u", id);
	}
	if (v->pos != end)
		fail(v, "section %u ends at %zu, its size says %zu", id, v->pos, end);
}

bool
fuzzw_validate(const unsigned char *bytes, size_t len, char *why, size_t whylen)
{
	/* the order of the non-custom sections (data count between elements and code) */
	static const int rank[13] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 10 };
	static const unsigned char magic[8] = { 0, 'a', 's', 'm', 1, 0, 0, 0 };
	V v;
	memset(&v, 0, sizeof v);
	v.b = bytes;
	v.len = len;
	v.why = why;
	v.whylen = whylen;
	bool ok = false;
	if (setjmp(v.fail) == 0) {
		if (len < 8 || memcmp(bytes, magic, 8) != 0)
			fail(&v, "no Wasm 1 header");
		v.pos = 8;
		int last = 0;
		uint32_t ndefined = 0;
		int64_t datacount = -1;
		bool have_code = false;
		while (v.pos < len) {
			uint8_t id = u8(&v);
			if (id > 12)
				fail(&v, "section id %u", id);
			uint32_t size = u32(&v);
			if (size > len - v.pos)
				fail(&v, "section %u of %u bytes past the end", id, size);
			if (id != 0) {
				if (rank[id] <= last)
					fail(&v, "section %u out of order", id);
				last = rank[id];
			}
			section(&v, id, v.pos + size, &ndefined, &datacount, &have_code);
		}
		if (ndefined && !have_code)
			fail(&v, "%u functions without a code section", ndefined);
		if (v.nmems > 1 || v.ntables > 1)
			fail(&v, "more than one memory or table");
		ok = true;
	}
	free(v.types);
	free(v.functype);
	free(v.gtype);
	free(v.gmut);
	free(v.locals);
	free(v.vals);
	free(v.ctrls);
	return ok;
}
