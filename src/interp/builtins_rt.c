/*
 * builtins_rt.c — run-time behaviour of the compiler-owned functions
 * (LANGUAGE.md §5.1) with their failure domains (§5.2).
 *
 * Dispatch indices are BuiltinIds (BI_<name>, src/sema/builtins.def); a
 * call node reads its Builtin's id once, when it is compiled.
 * Borrow modes and view results are read from the builtin's signature
 * notation, so they cannot disagree with the checker.  Of the host
 * operations only those `semaprax run` lets a program call are in the list
 * (the command-line profile, src/driver/route.c); a program that can reach another is
 * refused before it runs.  Map/Set live in collections.c, the process
 * operations in host.c, file_read_text in fs.c.
 */
#include "interp.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../rt/rt.h"

typedef struct RtInfo {
	uint8_t borrows;      /* bit i: parameter i is borrowed */
	bool view;
} RtInfo;

/* The declared borrow modes and view result (sema_builtin_param; compile
 * time only: nothing is cached, so the interpreter keeps no global state). */
static RtInfo
rt_info(int index)
{
	RtInfo r = { 0, false };
	BuiltinParam bp;
	for (int i = 0; i < 8 && sema_builtin_param((BuiltinId)index, i, &bp); i++)
		if (bp.mode == MODE_BORROW)
			r.borrows |= (uint8_t)(1u << i);
	r.view = sema_builtin_result_view((BuiltinId)index);
	return r;
}

int
interp_rt_builtin_index(BuiltinId bid)
{
	/* host operations `semaprax run` does not perform (hir_run_op, which route.c admits by) */
	return hir_run_op(bid) ? (int)bid : -1;
}

bool
interp_rt_builtin_borrows(int index, int param)
{
	return param < 8 && (rt_info(index).borrows >> param & 1u);
}

bool
interp_rt_builtin_view(int index)
{
	return rt_info(index).view;
}

/* ---- helpers ---- */

static Value
option_none(void)
{
	return v_ptr(V_VARIANT, NULL, 0);
}

static Value
option_some(Interp *I, Value x)
{
	Obj *o = interp_obj_new(&I->heap, 1);
	o->f[0] = value_own(&I->heap, x);
	interp_obj_update_copy(o);
	return v_ptr(V_VARIANT, o, 1);
}

static Value
view_of(const uint8_t *p, size_t n)
{
	Value v = v_ptr(V_VIEW, NULL, (uint32_t)n);
	v.bytes = p;
	return v;
}

static Value
fail(Interp *I, Domain d, uint32_t code)
{
	interp_fail(I, d, code);
	return v_empty();
}

/* Decimal text of v (unsigned or two's complement signed) into the end of
 * buf[32]; returns where the text starts. */
static char *
decimal_text(char buf[32], int64_t v, bool is_unsigned)
{
	bool neg = !is_unsigned && v < 0;
	return rt_decimal(buf, neg ? (uint64_t)0 - (uint64_t)v : (uint64_t)v, neg);
}

static Value
string_decimal(Interp *I, int64_t v, bool is_unsigned)
{
	char buf[32];
	char *p = decimal_text(buf, v, is_unsigned);
	return interp_string_value(&I->heap, p, (size_t)(buf + 32 - p));
}

static bool
has_prefix(const Value *s, const Value *pre)
{
	size_t ls, lp;
	const uint8_t *ps = interp_value_bytes(s, &ls), *pp = interp_value_bytes(pre, &lp);
	return lp <= ls && (lp == 0 || memcmp(ps, pp, lp) == 0);
}

/* rt_find, with the bytes compared charged (quadratic in the worst case, and paid for). */
static int64_t
find_bytes(Interp *I, const uint8_t *h, size_t hl, const uint8_t *n, size_t nl, size_t from)
{
	size_t work = 0;
	int64_t at = rt_find(h, hl, n, nl, from, &work);
	heap_work(&I->heap, work);
	return at;
}


static Value
format_string(Interp *I, Value *args, int nargs)
{
	size_t tl;
	const uint8_t *t = interp_value_bytes(&args[0], &tl);
	Buf b = {0};
	int field = 1, kind = RT_FORMAT_BRACE;
	for (size_t at = 0; kind != RT_FORMAT_END;) {
		size_t from = at, upto = rt_format_scan(t, tl, &at, &kind);
		buf_put(&b, (const char *)t + from, upto - from + (kind == RT_FORMAT_BRACE));   /* `{{`, `}}`: one brace */
		if (kind == RT_FORMAT_HOLE) {
			if (field >= nargs) {
				buf_free(&b);
				return fail(I, RT_DOM_FORMAT, RT_FORMAT_FAILED);
			}
			Value *a = &args[field++];
			switch ((VTag)a->tag) {
			case V_I64: case V_U8: case V_USIZE: {
				char d[32];
				char *p = decimal_text(d, a->i, a->tag != V_I64);
				buf_put(&b, p, (size_t)(d + 32 - p));
				break;
			}
			case V_BOOL: buf_puts(&b, a->b ? "true" : "false"); break;
			case V_STRING: case V_VIEW: {
				size_t n;
				const uint8_t *p = interp_value_bytes(a, &n);
				buf_put(&b, (const char *)p, n);
				break;
			}
			default:
				buf_free(&b);
				return fail(I, RT_DOM_FORMAT, RT_FORMAT_FAILED);
			}
		}
	}
	if (field != nargs) {
		buf_free(&b);
		return fail(I, RT_DOM_FORMAT, RT_FORMAT_FAILED);
	}
	Value r = interp_string_value(&I->heap, b.data, b.len);
	buf_free(&b);
	return r;
}

/* Sorts a[0..n); *work accumulates the bytes moved and compared. */
static void
merge_sort(Value *a, Value *tmp, size_t n, size_t *work)
{
	if (n < 2)
		return;
	size_t h = n / 2;
	merge_sort(a, tmp, h, work);
	merge_sort(a + h, tmp, n - h, work);
	*work += sizeof(Value) * n;
	size_t i = 0, j = h, k = 0;
	if (a[0].tag == V_I64 || a[0].tag == V_USIZE || a[0].tag == V_U8) {
		/* one scalar type throughout (a Vec's elements share their type) */
		bool sgn = a[0].tag == V_I64;
		while (i < h && j < n)
			tmp[k++] = (sgn ? a[j].i < a[i].i : a[j].u < a[i].u) ? a[j++] : a[i++];
	}
	while (i < h && j < n) {
		if (a[i].tag == V_STRING || a[i].tag == V_VIEW) {
			size_t la, lb;
			interp_value_bytes(&a[i], &la);
			interp_value_bytes(&a[j], &lb);
			*work += la < lb ? la : lb;
		}
		tmp[k++] = interp_value_sort_compare(&a[j], &a[i]) < 0 ? a[j++] : a[i++];
	}
	while (i < h)
		tmp[k++] = a[i++];
	while (j < n)
		tmp[k++] = a[j++];
	memcpy(a, tmp, sizeof(Value) * n);
}

/* Vec operations consume their vector; on failure it is released here. */
static Value
vec_fail(Interp *I, Value v, uint32_t code)
{
	value_release(&I->heap, v);
	return fail(I, RT_DOM_VEC, code);
}

static VecObj *
own_vec(Interp *I, Value *v)
{
	*v = value_own(&I->heap, *v);
	return v->p;
}

static Value
run_vec(Interp *I, int index, Value *args)
{
	switch (index) {
	case BI_vec_with_capacity:
		if (args[0].u > VEC_MAX_CAPACITY)
			return fail(I, RT_DOM_VEC, RT_VEC_ALLOC);
		return v_ptr(V_VEC, interp_vecobj_new(&I->heap, (size_t)args[0].u), 0);
	case BI_vec_len:
		return v_int(V_USIZE, (int64_t)((VecObj *)args[0].p)->len);
	case BI_vec_capacity:
		return v_int(V_USIZE, (int64_t)((VecObj *)args[0].p)->cap);
	case BI_vec_get:
	case BI_vec_clone_at: {
		VecObj *v = args[0].p;
		if (args[1].u >= v->len)
			return fail(I, RT_DOM_VEC, RT_VEC_INDEX);
		if (!args[0].borrowed && v->items[args[1].u].tag >= V_STRING) {
			/* an owned Vec (fresh, or a local at its last use: src/hir/lastuse.c),
			 * released after the call: the element is taken, not copied */
			Value r = v->items[args[1].u];
			v->items[args[1].u] = v_empty();
			return r;
		}
		return interp_value_clone(&I->heap, v->items[args[1].u]);
	}
	case BI_vec_clear: {
		VecObj *v = own_vec(I, &args[0]);
		for (size_t i = 0; i < v->len; i++)
			value_release(&I->heap, v->items[i]);
		v->len = 0;
		return args[0];
	}
	case BI_vec_reserve_exact: {
		VecObj *v = own_vec(I, &args[0]);
		uint64_t want;
		if (rt_vec_reserve_target(v->len, args[1].u, &want))
			return vec_fail(I, args[0], RT_VEC_ALLOC);
		interp_vecobj_reserve(&I->heap, v, (size_t)want);
		return args[0];
	}
	case BI_vec_sort: {
		VecObj *v = own_vec(I, &args[0]);
		if (v->len > 1) {
			Value *tmp = interp_heap_alloc(&I->heap, sizeof(Value) * v->len);
			size_t work = 0;
			merge_sort(v->items, tmp, v->len, &work);
			interp_heap_free(&I->heap, tmp, sizeof(Value) * v->len);
			heap_work(&I->heap, work);
		}
		return args[0];
	}
	case BI_vec_into_iter: {
		IterObj *it = interp_heap_alloc(&I->heap, sizeof *it);
		it->v = own_vec(I, &args[0]);
		it->pos = 0;
		return v_ptr(V_ITER, it, 0);
	}
	case BI_iter_next: {
		Value itv = value_own(&I->heap, args[0]);
		IterObj *it = itv.p;
		if (it->pos >= it->v->len) {
			value_release(&I->heap, itv);
			return v_ptr(V_VARIANT, NULL, 0);
		}
		Obj *o = interp_obj_new(&I->heap, 2);
		o->f[0] = it->v->items[it->pos];
		it->v->items[it->pos++] = v_empty();
		o->f[1] = itv;
		o->copy = false;
		return v_ptr(V_VARIANT, o, 1);
	}
	default:
		UNREACHABLE();
		return v_empty();
	}
}

/*
 * The byte-buffer v2 writes (the reference's OWNED-BOUNDED-BYTE-BUFFER-V2):
 * bytes_set5 stores five bytes; the tagged forms store `one` when the
 * selector's high bit is clear, else copy 5 (set1_or5, offset = low 63 bits)
 * or 6/48 (set1_or6_or48: bit 62 picks 48, offset = low 62 bits) bytes from
 * the source, a position past its end giving 0.  The whole interval is
 * checked first: byte-buffer.v1 code 1, nothing written.
 */
static Value
bytes_set_wide(Interp *I, int index, Value *args)
{
	Value b = value_own(&I->heap, args[0]);
	Bytes *bb = b.p;
	uint64_t at = args[1].u, sel = index == BI_bytes_set5 ? 0 : args[4].u;
	uint64_t width = 5, from = 0;
	if (index != BI_bytes_set5)
		rt_bytes_selector(sel, index == BI_bytes_set1_or6_or48_from_slice, &width, &from);
	uint8_t five[5];
	const uint8_t *bytes = NULL, *ps = NULL;
	size_t ls = 0;
	if (index == BI_bytes_set5) {
		for (int k = 0; k < 5; k++)
			five[k] = (uint8_t)args[2 + k].u;
		bytes = five;
	} else if (width == 1) {
		five[0] = (uint8_t)args[2].u;
		bytes = five;
	} else {
		ps = interp_value_bytes(&args[3], &ls);
	}
	if (rt_bytes_write(bb->data, bb->len, at, width, bytes, ps, ls, from)) {   /* src/rt/text.c */
		value_release(&I->heap, b);
		return fail(I, RT_DOM_BYTEBUF, RT_BYTEBUF_INDEX);
	}
	return b;
}

static Value
run_text(Interp *I, int index, Value *args, int nargs)
{
	size_t la = 0, lb = 0;
	const uint8_t *pa = args[0].tag >= V_VIEW && args[0].tag <= V_ARRAY ? interp_value_bytes(&args[0], &la) : NULL;
	const uint8_t *pb = nargs > 1 && args[1].tag >= V_VIEW && args[1].tag <= V_ARRAY ? interp_value_bytes(&args[1], &lb) : NULL;
	switch (index) {
	case BI_string_len:
	case BI_str_len_bytes:
		return v_int(V_I64, (int64_t)la);
	case BI_string_len_chars:
		heap_work(&I->heap, la);
		return v_int(V_I64, rt_utf8_count(pa, la));   /* src/rt/utf8.c */
	case BI_string_is_empty:
	case BI_str_is_empty:
		return v_bool(la == 0);
	case BI_string_concat: {
		Value a = value_own(&I->heap, args[0]);
		Bytes *b = a.p;
		if (b->len + lb > b->cap)
			interp_bytes_reserve(&I->heap, b, b->cap * 2 > b->len + lb ? b->cap * 2 : b->len + lb, false);
		if (lb)
			memcpy(b->data + b->len, pb, lb);
		heap_work(&I->heap, lb);
		b->len += lb;
		value_release(&I->heap, args[1]);
		return a;
	}
	case BI_string_starts_with:
	case BI_str_starts_with:
		heap_work(&I->heap, lb);
		return v_bool(has_prefix(&args[0], &args[1]));
	case BI_string_contains:
	case BI_str_contains:
		return v_bool(find_bytes(I, pa, la, pb, lb, 0) >= 0);
	case BI_string_compare: {
		heap_work(&I->heap, la < lb ? la : lb);
		int c = interp_value_compare(&args[0], &args[1]);
		return v_int(V_I64, c);
	}
	case BI_string_from_char: {
		uint8_t buf[4];
		size_t n = rt_utf8_encode((uint32_t)args[0].u, buf);
		return interp_string_value(&I->heap, buf, n);
	}
	case BI_string_from_i64:
		return string_decimal(I, args[0].i, false);
	case BI_string_from_usize:
		return string_decimal(I, args[0].i, true);
	case BI_string_from_str:
		return interp_string_value(&I->heap, pa, la);
	case BI_string_as_str:
	case BI_str_as_bytes:
	case BI_bytes_as_slice:
	case BI_array_as_slice:
		return view_of(pa, la);
	case BI_string_slice: {
		int64_t s = args[1].i, e = args[2].i;
		uint32_t code = rt_slice_check(pa, la, s, e);
		if (code)
			return fail(I, RT_DOM_TEXT, code);
		return interp_string_value(&I->heap, pa + s, (size_t)(e - s));
	}
	case BI_string_find: {
		int64_t from = args[2].i;
		if (from < 0 || (uint64_t)from > la)
			return fail(I, RT_DOM_TEXT, RT_TEXT_RANGE);
		return v_int(V_I64, find_bytes(I, pa, la, pb, lb, (size_t)from));
	}
	case BI_string_to_i64: {
		heap_work(&I->heap, la);
		int64_t v;
		return rt_parse_i64(pa, la, &v) ? option_some(I, v_int(V_I64, v)) : option_none();
	}
	case BI_string_trim: {
		size_t s = 0, n = rt_trim(pa, la, &s);   /* src/rt/text.c */
		heap_work(&I->heap, la - n);
		return interp_string_value(&I->heap, pa + s, n);
	}
	case BI_string_byte_at:
		if (args[1].i < 0 || (uint64_t)args[1].i >= la)
			return fail(I, RT_DOM_TEXT, RT_TEXT_RANGE);
		return v_int(V_I64, pa[args[1].i]);
	case BI_str_byte_at:
	case BI_byte_get:
		if (args[1].u >= la)
			return option_none();
		return option_some(I, v_int(V_U8, pa[args[1].u]));
	case BI_byte_len:
		return v_int(V_USIZE, (int64_t)la);
	case BI_byte_range:
		if (args[1].u > args[2].u || args[2].u > la)
			return fail(I, RT_DOM_BYTEBUF, RT_BYTEBUF_INDEX);
		return view_of(pa + args[1].u, (size_t)(args[2].u - args[1].u));
	case BI_bytes_copy:
		return v_ptr(V_BYTES, interp_bytes_new(&I->heap, pa, la), 0);
	case BI_bytes_zeroed: {
		if (args[0].u > (1u << 26)) {
			interp_limit(I, "bytes_zeroed of %" PRIu64 " bytes exceeds this interpreter's limit", args[0].u);
			return v_empty();
		}
		Bytes *b = interp_bytes_new(&I->heap, NULL, 0);
		b->data[0] = 0;
		interp_bytes_reserve(&I->heap, b, (size_t)args[0].u, true);
		b->len = (size_t)args[0].u;
		return v_ptr(V_BYTES, b, 0);
	}
	case BI_bytes_set5:
	case BI_bytes_set1_or5_from_slice:
	case BI_bytes_set1_or6_or48_from_slice:
		return bytes_set_wide(I, index, args);
	case BI_string_format: {
		Value r = format_string(I, args, nargs);
		for (int i = 0; i < nargs; i++)
			value_release(&I->heap, args[i]);
		return r;
	}
	default:
		UNREACHABLE();
		return v_empty();
	}
}

/*
 * f64_from_i64, i64_from_i32, i64_from_u8, usize_from_u8, usize_from_i64,
 * i64_from_usize, u8_from_i64, vec_push, vec_set and bytes_set are never
 * dispatched here: compile.c always gives them their own node
 * (interp_builtin_fn, exec_builtin.c), the one place they are written.
 */
Value
interp_rt_builtin_call(Interp *I, int index, const HirExpr *call, Value *args, int nargs)
{
	switch (index) {
	case BI_i64_from_f64: {
		int64_t v = 0;
		uint32_t code = rt_i64_from_f64(args[0].f, &v);
		if (code)
			return fail(I, RT_DOM_CONVERT, code);
		return v_int(V_I64, v);
	}
	case BI_char_from_u8:
		return v_int(V_CHAR, (int64_t)args[0].u);
	case BI_char_from_i64:
		if (!rt_utf8_scalar(args[0].i))
			return fail(I, RT_DOM_CONVERT, RT_CONVERT_RANGE);
		return v_int(V_CHAR, args[0].i);
	case BI_box_new: {
		Value *b = interp_heap_alloc(&I->heap, sizeof *b);
		*b = value_own(&I->heap, args[0]);
		return v_ptr(V_BOX, b, 0);
	}
	case BI_box_get:
		return interp_value_clone(&I->heap, *(Value *)args[0].p);
	case BI_box_into_inner: {
		Value bx = value_own(&I->heap, args[0]);
		Value r = *(Value *)bx.p;
		interp_heap_free(&I->heap, bx.p, sizeof(Value));
		return r;
	}
	case BI_vec_with_capacity: case BI_vec_len: case BI_vec_capacity: case BI_vec_get:
	case BI_vec_clone_at: case BI_vec_clear:
	case BI_vec_reserve_exact: case BI_vec_sort: case BI_vec_into_iter: case BI_iter_next:
		return run_vec(I, index, args);
	case BI_map_add: case BI_map_get_or: case BI_map_has: case BI_map_key_at: case BI_map_len:
	case BI_map_new: case BI_map_remove: case BI_map_set: case BI_map_value_at:
	case BI_set_has: case BI_set_insert: case BI_set_key_at: case BI_set_len: case BI_set_new:
	case BI_set_remove:
		return interp_rt_collection_call(I, index, call, args);
	case BI_arg_utf8: case BI_args_len: case BI_file_read_text: case BI_stderr_write: case BI_stdout_write:
	case BI_file_write_new: case BI_file_write_atomic: case BI_stdin_read:
	case BI_stdin_stream_open: case BI_stdin_stream_next: case BI_stdin_stream_eof: case BI_stdin_stream_chunk:
	case BI_env_len: case BI_env_name_utf8: case BI_env_value_utf8: case BI_clock_now_ms:
		return interp_rt_host_call(I, index, args);
	default:
		return run_text(I, index, args, nargs);
	}
}
