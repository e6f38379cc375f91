/*
 * builtin.c — the compiler-owned operations the Wasm lane covers
 * (LANGUAGE.md §5.1; the rows of src/sema/builtins.def): text and byte
 * views (search and order through the shared runtime, src/rt/text.c),
 * owned strings (concat, format, the conversions to text: src/rt/heap.c),
 * Bytes and arrays, conversions with their checks, and the host operations
 * the route grants (stdout/stderr counted against the output cap, the
 * arguments, file_read_text, the file writes, stdin, the environment, the
 * clock); Vec/Iter/Box
 * are vec.c's, Map/Set map.c's.
 * Every other operation is refused (W110).
 */
#include "emitw_int.h"

#include <stdio.h>
#include <string.h>

#include "../rt/domains.h"
#include "../rt/rt.h"

static const uint8_t VT_I32[1] = { WT_I32 }, VT_I64[1] = { WT_I64 };

/* stdout_write / stderr_write of the (ptr, len) on the stack: counted against the output limit. */
static void
host_write(Emitw *W, uint32_t import)
{
	uint32_t p = emitw_locals(W, VT_I32, 1), n = emitw_locals(W, VT_I32, 1);
	emitw_op_u32(W, OP_LOCAL_SET, n);
	emitw_op_u32(W, OP_LOCAL_SET, p);
	/* out + n > limit, in i64 so the sum cannot wrap */
	emitw_op_u32(W, OP_GLOBAL_GET, W->g_out);
	emitw_op(W, OP_I64_EXTEND_I32_U);
	emitw_op_u32(W, OP_LOCAL_GET, n);
	emitw_op(W, OP_I64_EXTEND_I32_U);
	emitw_op(W, OP_I64_ADD);
	emitw_i64c(W, RT_LIMIT_OUTPUT);
	emitw_op(W, OP_I64_GT_U);
	emitw_fail_if(W, RT_DOM_OUTPUT, RT_OUTPUT_FULL);
	emitw_op_u32(W, OP_GLOBAL_GET, W->g_out);
	emitw_op_u32(W, OP_LOCAL_GET, n);
	emitw_op(W, OP_I32_ADD);
	emitw_op_u32(W, OP_GLOBAL_SET, W->g_out);
	emitw_op_u32(W, OP_LOCAL_GET, p);
	emitw_op_u32(W, OP_LOCAL_GET, n);
	emitw_op_u32(W, OP_CALL, import);
	emitw_op_u32(W, OP_LOCAL_GET, n);
	emitw_op(W, OP_I64_EXTEND_I32_U);
}

/* Evaluates e lent (emitw_lend) into the n locals from base. */
static bool
lend_to(Emitw *W, const HirExpr *e, uint32_t base, int n)
{
	if (!emitw_lend(W, e))
		return false;
	emitw_store(W, base, n);
	return true;
}

static void
load8(Emitw *W)
{
	emitw_op(W, OP_I32_LOAD8_U);
	wasm_u32(W->c, 0);   /* align */
	wasm_u32(W->c, 0);   /* offset */
}

/* The part from i to b (i64 offsets, checked) of the view whose address is
 * in local a: the pair (a + i, b - i), for string_slice and byte_range. */
static void
sub_view(Emitw *W, uint32_t a, uint32_t i, uint32_t b)
{
	emitw_op_u32(W, OP_LOCAL_GET, a);
	emitw_op_u32(W, OP_LOCAL_GET, i);
	emitw_op(W, OP_I32_WRAP_I64);
	emitw_op(W, OP_I32_ADD);
	emitw_op_u32(W, OP_LOCAL_GET, b);
	emitw_op_u32(W, OP_LOCAL_GET, i);
	emitw_op(W, OP_I64_SUB);
	emitw_op(W, OP_I32_WRAP_I64);
}

/*
 * The text and byte views' operations (LANGUAGE.md §5.1) on (address,
 * length) pairs: the arguments are in locals a (and b) and the index in i
 * (i64); search and order through the shared runtime (src/rt/text.c).
 * An owned string made of part of a text (string_from_str, string_slice,
 * string_trim) shares static or argument bytes, which live for the run,
 * and copies heap bytes (own_pair).
 */
static void
view_op(Emitw *W, int id, uint32_t a, uint32_t b, uint32_t i)
{
	switch (id) {
	case BI_str_contains: case BI_string_contains: case BI_string_find:
		emitw_op_u32(W, OP_LOCAL_GET, a);
		emitw_op_u32(W, OP_LOCAL_GET, a + 1);
		emitw_op_u32(W, OP_LOCAL_GET, b);
		emitw_op_u32(W, OP_LOCAL_GET, b + 1);
		if (id == BI_string_find) {
			/* from < 0 or from > length: semaprax.text.v1 code 1 */
			emitw_op_u32(W, OP_LOCAL_GET, i);
			emitw_op_u32(W, OP_LOCAL_GET, a + 1);
			emitw_op(W, OP_I64_EXTEND_I32_U);
			emitw_op(W, OP_I64_GT_U);
			emitw_fail_if(W, RT_DOM_TEXT, RT_TEXT_RANGE);
			emitw_op_u32(W, OP_LOCAL_GET, i);
			emitw_op(W, OP_I32_WRAP_I64);
		} else {
			emitw_i32c(W, 0);
		}
		emitw_i32c(W, 0);   /* no work counter (the interpreter's fuel) */
		emitw_op_u32(W, OP_CALL, W->imp_find);
		if (id != BI_string_find) {
			emitw_i64c(W, 0);
			emitw_op(W, OP_I64_GE_S);
		}
		return;
	case BI_string_compare:
		emitw_op_u32(W, OP_LOCAL_GET, a);
		emitw_op_u32(W, OP_LOCAL_GET, a + 1);
		emitw_op_u32(W, OP_LOCAL_GET, b);
		emitw_op_u32(W, OP_LOCAL_GET, b + 1);
		emitw_op_u32(W, OP_CALL, W->imp_bytes_cmp);
		emitw_op(W, OP_I64_EXTEND_I32_S);
		return;
	case BI_str_starts_with: case BI_string_starts_with:
		/* nl <= hl and the first nl bytes equal */
		emitw_op_u32(W, OP_LOCAL_GET, b + 1);
		emitw_op_u32(W, OP_LOCAL_GET, a + 1);
		emitw_op(W, OP_I32_LE_U);
		emitw_open(W, OP_IF, (const uint8_t[]){ WT_I32 }, 1);
		emitw_op_u32(W, OP_LOCAL_GET, a);
		emitw_op_u32(W, OP_LOCAL_GET, b + 1);
		emitw_op_u32(W, OP_LOCAL_GET, b);
		emitw_op_u32(W, OP_LOCAL_GET, b + 1);
		emitw_op_u32(W, OP_CALL, W->imp_bytes_cmp);
		emitw_op(W, OP_I32_EQZ);
		emitw_op(W, OP_ELSE);
		emitw_i32c(W, 0);
		emitw_end(W);
		return;
	case BI_string_byte_at:
		/* i < 0 or i >= length: semaprax.text.v1 code 1 */
		emitw_op_u32(W, OP_LOCAL_GET, i);
		emitw_op_u32(W, OP_LOCAL_GET, a + 1);
		emitw_op(W, OP_I64_EXTEND_I32_U);
		emitw_op(W, OP_I64_GE_U);
		emitw_fail_if(W, RT_DOM_TEXT, RT_TEXT_RANGE);
		emitw_op_u32(W, OP_LOCAL_GET, a);
		emitw_op_u32(W, OP_LOCAL_GET, i);
		emitw_op(W, OP_I32_WRAP_I64);
		emitw_op(W, OP_I32_ADD);
		load8(W);
		emitw_op(W, OP_I64_EXTEND_I32_U);
		return;
	case BI_str_byte_at: case BI_byte_get:
		/* Option<u8>: (tag, byte); None past the end */
		emitw_op_u32(W, OP_LOCAL_GET, i);
		emitw_op_u32(W, OP_LOCAL_GET, a + 1);
		emitw_op(W, OP_I64_EXTEND_I32_U);
		emitw_op(W, OP_I64_LT_U);
		emitw_open(W, OP_IF, (const uint8_t[]){ WT_I32, WT_I32 }, 2);
		emitw_i32c(W, 1);
		emitw_op_u32(W, OP_LOCAL_GET, a);
		emitw_op_u32(W, OP_LOCAL_GET, i);
		emitw_op(W, OP_I32_WRAP_I64);
		emitw_op(W, OP_I32_ADD);
		load8(W);
		emitw_op(W, OP_ELSE);
		emitw_i32c(W, 0);
		emitw_i32c(W, 0);
		emitw_end(W);
		return;
	case BI_byte_len:
		emitw_op_u32(W, OP_LOCAL_GET, a + 1);
		emitw_op(W, OP_I64_EXTEND_I32_U);
		return;
	case BI_string_from_str:
		emitw_load(W, a, 2);
		return;
	case BI_string_trim: {
		static const uint8_t i32t[1] = { WT_I32 };
		uint32_t n = emitw_locals(W, i32t, 1);
		emitw_op_u32(W, OP_LOCAL_GET, a);
		emitw_op_u32(W, OP_LOCAL_GET, a + 1);
		emitw_i32c(W, (int32_t)WASM_SCRATCH);
		emitw_op_u32(W, OP_CALL, W->imp_trim);
		emitw_op_u32(W, OP_LOCAL_SET, n);
		emitw_op_u32(W, OP_LOCAL_GET, a);
		emitw_i32c(W, (int32_t)WASM_SCRATCH);
		emitw_op(W, OP_I32_LOAD);
		wasm_u32(W->c, 2);   /* align 4 */
		wasm_u32(W->c, 0);
		emitw_op(W, OP_I32_ADD);
		emitw_op_u32(W, OP_LOCAL_GET, n);
		return;
	}
	case BI_string_slice: {
		/* the bounds through the shared rt_slice_check (src/rt/text.c): 0, RT_TEXT_RANGE or RT_TEXT_SPLIT */
		uint32_t code = emitw_locals(W, (const uint8_t[]){ WT_I32 }, 1);
		emitw_op_u32(W, OP_LOCAL_GET, a);
		emitw_op_u32(W, OP_LOCAL_GET, a + 1);
		emitw_op_u32(W, OP_LOCAL_GET, i);
		emitw_op_u32(W, OP_LOCAL_GET, b);
		emitw_op_u32(W, OP_CALL, W->imp_slice_check);
		emitw_op_u32(W, OP_LOCAL_TEE, code);
		emitw_open(W, OP_IF, NULL, 0);
		emitw_op_u32(W, OP_LOCAL_GET, code);
		emitw_i32c(W, RT_TEXT_RANGE);
		emitw_op(W, OP_I32_EQ);
		emitw_fail_if(W, RT_DOM_TEXT, RT_TEXT_RANGE);
		emitw_fail_domain(W, RT_DOM_TEXT, RT_TEXT_SPLIT);
		emitw_end(W);
		sub_view(W, a, i, b);
		return;
	}
	case BI_string_len_chars:
		emitw_op_u32(W, OP_LOCAL_GET, a);
		emitw_op_u32(W, OP_LOCAL_GET, a + 1);
		emitw_op_u32(W, OP_CALL, W->imp_count);
		return;
	case BI_string_to_i64:
		/* Option<i64>: (1, the value) when it parses, else (0, 0) */
		emitw_op_u32(W, OP_LOCAL_GET, a);
		emitw_op_u32(W, OP_LOCAL_GET, a + 1);
		emitw_i32c(W, (int32_t)WASM_SCRATCH);
		emitw_op_u32(W, OP_CALL, W->imp_parse);
		emitw_open(W, OP_IF, (const uint8_t[]){ WT_I32, WT_I64 }, 2);
		emitw_i32c(W, 1);
		emitw_i32c(W, (int32_t)WASM_SCRATCH);
		emitw_op(W, OP_I64_LOAD);
		wasm_u32(W->c, 3);   /* align 8 */
		wasm_u32(W->c, 0);
		emitw_op(W, OP_ELSE);
		emitw_i32c(W, 0);
		emitw_i64c(W, 0);
		emitw_end(W);
		return;
	default:   /* BI_byte_range (the end in b as i64) */
		/* start > end or end > length: semaprax.byte-buffer.v1 code 1 */
		emitw_op_u32(W, OP_LOCAL_GET, i);
		emitw_op_u32(W, OP_LOCAL_GET, b);
		emitw_op(W, OP_I64_GT_U);
		emitw_op_u32(W, OP_LOCAL_GET, b);
		emitw_op_u32(W, OP_LOCAL_GET, a + 1);
		emitw_op(W, OP_I64_EXTEND_I32_U);
		emitw_op(W, OP_I64_GT_U);
		emitw_op(W, OP_I32_OR);
		emitw_fail_if(W, RT_DOM_BYTEBUF, RT_BYTEBUF_INDEX);
		sub_view(W, a, i, b);
		return;
	}
}

/* The (address, length) text on the stack as an owned string: the same
 * static bytes, or a copy of heap bytes (rt_str_own, src/rt/heap.c). */
static void
own_pair(Emitw *W)
{
	uint32_t n = emitw_locals(W, VT_I32, 1);
	emitw_op_u32(W, OP_LOCAL_SET, n);
	emitw_op_u32(W, OP_LOCAL_GET, n);
	emitw_op_u32(W, OP_CALL, W->imp_str_own);
	emitw_oom_check(W);
	emitw_op_u32(W, OP_LOCAL_GET, n);
}

/* The i64 (or u64 when !sign) on the stack as decimal text in the scratch
 * buffer (src/rt/num.c rt_decimal): leaves (address, length).  Also the
 * contract report's integers (emit.c). */
void
emitw_decimal(Emitw *W, bool sign)
{
	uint32_t v = emitw_locals(W, VT_I64, 1), p = emitw_locals(W, VT_I32, 1);
	emitw_op_u32(W, OP_LOCAL_SET, v);
	emitw_i32c(W, (int32_t)WASM_SCRATCH);
	if (sign) {
		/* magnitude: select(0 - v, v, v < 0); the wrapped negation of INT64_MIN is its magnitude */
		emitw_i64c(W, 0);
		emitw_op_u32(W, OP_LOCAL_GET, v);
		emitw_op(W, OP_I64_SUB);
		emitw_op_u32(W, OP_LOCAL_GET, v);
		emitw_op_u32(W, OP_LOCAL_GET, v);
		emitw_i64c(W, 0);
		emitw_op(W, OP_I64_LT_S);
		emitw_op(W, OP_SELECT);
		emitw_op_u32(W, OP_LOCAL_GET, v);
		emitw_i64c(W, 0);
		emitw_op(W, OP_I64_LT_S);
	} else {
		emitw_op_u32(W, OP_LOCAL_GET, v);
		emitw_i32c(W, 0);
	}
	emitw_op_u32(W, OP_CALL, W->imp_decimal);
	emitw_op_u32(W, OP_LOCAL_TEE, p);
	emitw_i32c(W, (int32_t)WASM_SCRATCH + 32);
	emitw_op_u32(W, OP_LOCAL_GET, p);
	emitw_op(W, OP_I32_SUB);
}

/* A new owned string holding the (address, length) bytes on the stack. */
static void
copy_pair(Emitw *W)
{
	uint32_t n = emitw_locals(W, VT_I32, 1);
	emitw_op_u32(W, OP_LOCAL_TEE, n);
	emitw_op_u32(W, OP_CALL, W->imp_str_copy);
	emitw_oom_check(W);
	emitw_op_u32(W, OP_LOCAL_GET, n);
}

/* Appends the (address, length) on the stack to the string being built in locals (bp, bn). */
static void
append(Emitw *W, uint32_t bp, uint32_t bn)
{
	uint32_t q = emitw_locals(W, VT_I32, 1), m = emitw_locals(W, VT_I32, 1);
	emitw_op_u32(W, OP_LOCAL_SET, m);
	emitw_op_u32(W, OP_LOCAL_SET, q);
	emitw_op_u32(W, OP_LOCAL_GET, bp);
	emitw_op_u32(W, OP_LOCAL_GET, bn);
	emitw_op_u32(W, OP_LOCAL_GET, q);
	emitw_op_u32(W, OP_LOCAL_GET, m);
	emitw_op_u32(W, OP_CALL, W->imp_str_append);
	emitw_oom_check(W);
	emitw_op_u32(W, OP_LOCAL_SET, bp);
	emitw_op_u32(W, OP_LOCAL_GET, bn);
	emitw_op_u32(W, OP_LOCAL_GET, m);
	emitw_op(W, OP_I32_ADD);
	emitw_op_u32(W, OP_LOCAL_SET, bn);
}

static void
append_static(Emitw *W, uint32_t bp, uint32_t bn, const char *s, size_t n)
{
	emitw_i32c(W, (int32_t)emitw_static(W, s, n));
	emitw_i32c(W, (int32_t)n);
	append(W, bp, bn);
}

/* string_format (LANGUAGE.md §5.1): the values first, in order; then the
 * template's pieces (rt_format_scan, src/rt/text.c, as the other lanes)
 * appended to a fresh string; a hole of another type, or a count that
 * does not match, fails semaprax.string-format.v1 code 1 as the C lane does. */
static bool
format(Emitw *W, const HirExpr *e)
{
	const HirExpr *lit = e->u.call.nargs > 0 ? e->u.call.args[0] : NULL;
	if (!lit || lit->kind != HIR_STRING) {
		emitw_refuse(W, e->span, "the Wasm lane needs a literal `string_format` template");
		return false;
	}
	int nv = e->u.call.nargs;
	uint32_t *at = spx_xcalloc((size_t)nv + 1, sizeof *at);
	for (int k = 1; k < nv; k++) {
		const HirExpr *x = e->u.call.args[k];
		uint8_t ty[FLAT_MAX];
		int m = emitw_flat_or_refuse(W, emitw_ty(W, x->type), x->span, ty);
		if (m < 0 || !emitw_lend(W, x)) {
			free(at);
			return false;
		}
		at[k] = emitw_locals(W, ty, m);
		emitw_store(W, at[k], m);
	}
	uint32_t bp = emitw_locals(W, VT_I32, 1), bn = emitw_locals(W, VT_I32, 1);
	emitw_i32c(W, (int32_t)WASM_SCRATCH);
	emitw_i32c(W, 0);
	emitw_op_u32(W, OP_CALL, W->imp_str_copy);   /* an empty string of its own */
	emitw_oom_check(W);
	emitw_op_u32(W, OP_LOCAL_SET, bp);
	emitw_i32c(W, 0);
	emitw_op_u32(W, OP_LOCAL_SET, bn);
	int fieldk = 1, kind = RT_FORMAT_BRACE;
	bool bad = false;
	const uint8_t *t = (const uint8_t *)lit->u.lit.s;
	size_t n = lit->u.lit.n;
	for (size_t pos = 0; kind != RT_FORMAT_END;) {
		size_t start = pos, upto = rt_format_scan(t, n, &pos, &kind);
		upto += kind == RT_FORMAT_BRACE;
		if (upto > start)
			append_static(W, bp, bn, (const char *)t + start, upto - start);
		if (kind != RT_FORMAT_HOLE)
			continue;
		if (fieldk >= nv) {
			bad = true;
			break;
		}
		const HirExpr *x = e->u.call.args[fieldk];
		uint32_t a = at[fieldk++];
		switch (sema_type_info(&W->S->types, emitw_ty(W, x->type))->kind) {
		case TY_I64: case TY_U8: case TY_USIZE: {
			TyKind k = sema_type_info(&W->S->types, emitw_ty(W, x->type))->kind;
			emitw_op_u32(W, OP_LOCAL_GET, a);
			if (k == TY_U8)
				emitw_op(W, OP_I64_EXTEND_I32_U);
			emitw_decimal(W, k == TY_I64);
			append(W, bp, bn);
			break;
		}
		case TY_BOOL:
			emitw_op_u32(W, OP_LOCAL_GET, a);
			emitw_open(W, OP_IF, NULL, 0);
			append_static(W, bp, bn, "true", 4);
			emitw_op(W, OP_ELSE);
			append_static(W, bp, bn, "false", 5);
			emitw_end(W);
			break;
		case TY_STRING: case TY_STR:
			emitw_load(W, a, 2);
			append(W, bp, bn);
			break;
		default:
			bad = true;
			break;
		}
		if (bad)
			break;
	}
	free(at);
	if (bad || fieldk != nv)
		emitw_fail_domain(W, RT_DOM_FORMAT, RT_FORMAT_FAILED);
	emitw_op_u32(W, OP_LOCAL_GET, bp);
	emitw_op_u32(W, OP_LOCAL_GET, bn);
	return true;
}

/* The owned-string operations: string_concat consumes both operands (rt_str_concat). */
static bool
string_op(Emitw *W, const HirExpr *e)
{
	int id = e->u.call.builtin->bid;
	if (id == BI_string_format)
		return format(W, e);
	if (id == BI_string_concat) {
		static const uint8_t pair[2] = { WT_I32, WT_I32 };
		uint32_t a = emitw_locals(W, pair, 2), b = emitw_locals(W, pair, 2);
		if (!emitw_own(W, e->u.call.args[0], emitw_ty(W, e->u.call.args[0]->type)))
			return false;
		emitw_store(W, a, 2);
		if (!emitw_own(W, e->u.call.args[1], emitw_ty(W, e->u.call.args[1]->type)))
			return false;
		emitw_store(W, b, 2);
		emitw_load(W, a, 2);
		emitw_load(W, b, 2);
		emitw_op_u32(W, OP_CALL, W->imp_str_concat);
		emitw_oom_check(W);
		emitw_op_u32(W, OP_LOCAL_GET, a + 1);
		emitw_op_u32(W, OP_LOCAL_GET, b + 1);
		emitw_op(W, OP_I32_ADD);
		return true;
	}
	if (!emitw_expr(W, e->u.call.args[0]))
		return false;
	if (id == BI_string_from_char) {
		/* UTF-8 into the scratch buffer (src/rt/utf8.c rt_utf8_encode) */
		uint32_t c = emitw_locals(W, VT_I32, 1);
		emitw_op_u32(W, OP_LOCAL_SET, c);
		emitw_i32c(W, (int32_t)WASM_SCRATCH);
		emitw_op_u32(W, OP_LOCAL_GET, c);
		emitw_i32c(W, (int32_t)WASM_SCRATCH);
		emitw_op_u32(W, OP_CALL, W->imp_utf8_encode);
	} else {
		emitw_decimal(W, id == BI_string_from_i64);
	}
	copy_pair(W);
	return true;
}

/*
 * A host call's i64 result, on the stack: (address << 32 | length) when not
 * negative.  Stored into local r; a negative value fails: -1 as out of
 * memory when oom, -code for each of codes[] as that code of dom, any other
 * as dom's code other.
 */
static void
host_result_check(Emitw *W, uint32_t r, bool oom, int dom, const int *codes, size_t ncodes, int other)
{
	emitw_op_u32(W, OP_LOCAL_TEE, r);
	emitw_i64c(W, 0);
	emitw_op(W, OP_I64_LT_S);
	emitw_open(W, OP_IF, NULL, 0);
	for (size_t k = 0; k < ncodes; k++) {
		emitw_op_u32(W, OP_LOCAL_GET, r);
		emitw_i64c(W, -(int64_t)codes[k]);
		emitw_op(W, OP_I64_EQ);
		emitw_fail_if(W, dom, codes[k]);
	}
	if (oom) {
		emitw_op_u32(W, OP_LOCAL_GET, r);
		emitw_i64c(W, -1);
		emitw_op(W, OP_I64_EQ);
		emitw_open(W, OP_IF, NULL, 0);
		emitw_text(W, "SEMAPRAX runtime failure: out of memory");
		emitw_fail(W, RT_EXIT_DOMAIN);
		emitw_end(W);
	}
	emitw_fail_domain(W, dom, other);
	emitw_end(W);
}

/* Pushes the (address, length) of the host result in local r. */
static void
host_result_pair(Emitw *W, uint32_t r)
{
	emitw_op_u32(W, OP_LOCAL_GET, r);
	emitw_i64c(W, 32);
	emitw_op(W, OP_I64_SHR_U);
	emitw_op(W, OP_I32_WRAP_I64);
	emitw_op_u32(W, OP_LOCAL_GET, r);
	emitw_op(W, OP_I32_WRAP_I64);
}

/*
 * file_read_text (fs.read), as the other lanes (src/emit_c/rt/fs.h): the
 * read reserves RT_LIMIT_FILE_MAX of the run's RT_LIMIT_FS_BUDGET first,
 * then the path is checked (rt_fs_path_valid, src/rt/text.c), then the
 * host reads the file confined below the working directory into a heap
 * block (its status a filesystem.v1 failure); text that is not UTF-8 is
 * text.v1 code 3.
 */
static bool
file_read(Emitw *W, const HirExpr *e)
{
	if (W->imp_file_read == UINT32_MAX) {
		emitw_refuse(W, e->span, "`file_read_text` is not granted on this route");
		return false;
	}
	static const uint8_t pair[2] = { WT_I32, WT_I32 };
	uint32_t a = emitw_locals(W, pair, 2), r = emitw_locals(W, VT_I64, 1);
	if (!lend_to(W, e->u.call.args[0], a, 2))
		return false;
	emitw_op_u32(W, OP_GLOBAL_GET, W->g_fs);
	emitw_i64c(W, RT_LIMIT_FILE_MAX);
	emitw_op(W, OP_I64_ADD);
	emitw_op_u32(W, OP_GLOBAL_SET, W->g_fs);
	emitw_op_u32(W, OP_GLOBAL_GET, W->g_fs);
	emitw_i64c(W, RT_LIMIT_FS_BUDGET);
	emitw_op(W, OP_I64_GT_U);
	emitw_fail_if(W, RT_DOM_FS, RT_FS_TOO_LARGE);
	emitw_load(W, a, 2);
	emitw_op_u32(W, OP_CALL, W->imp_path_valid);
	emitw_op(W, OP_I32_EQZ);
	emitw_fail_if(W, RT_DOM_FS, RT_FS_INVALID_PATH);
	emitw_load(W, a, 2);
	emitw_op_u32(W, OP_CALL, W->imp_file_read);
	static const int codes[] = { RT_FS_NOT_FOUND, RT_FS_TOO_LARGE, RT_FS_DENIED, RT_FS_FILE_TYPE };
	host_result_check(W, r, true, RT_DOM_FS, codes, sizeof codes / sizeof codes[0], RT_FS_IO);
	host_result_pair(W, r);
	emitw_store(W, a, 2);
	emitw_load(W, a, 2);
	emitw_op_u32(W, OP_CALL, W->imp_utf8_validate);
	emitw_op_u32(W, OP_LOCAL_GET, a + 1);
	emitw_op(W, OP_I32_NE);
	emitw_fail_if(W, RT_DOM_TEXT, RT_TEXT_NOT_UTF8);
	emitw_load(W, a, 2);
	return true;
}

/*
 * file_write_new / file_write_atomic (fs.write), in the other lanes' order
 * (src/interp/fs.c interp_rt_file_write): a length beyond its view or an
 * invalid path is code 1, more than RT_LIMIT_FILE_MAX bytes code 4; then
 * the host (spx.file_write(p, n, d, dn, atomic) -> status) checks the write
 * root (6), charges the run's write budget (4) and writes confined below
 * the working directory as src/rt/fs.c does.  The result is the length.
 */
static bool
file_write(Emitw *W, const HirExpr *e)
{
	if (W->imp_file_write == UINT32_MAX) {
		emitw_refuse(W, e->span, "`%s` is not granted on this route", e->u.call.builtin->name);
		return false;
	}
	static const uint8_t pair[2] = { WT_I32, WT_I32 };
	uint32_t p = emitw_locals(W, pair, 2), d = emitw_locals(W, pair, 2);
	uint32_t n = emitw_locals(W, VT_I64, 1), dn = emitw_locals(W, VT_I64, 1), st = emitw_locals(W, VT_I32, 1);
	HirExpr *const *args = e->u.call.args;
	if (!lend_to(W, args[0], p, 2) || !lend_to(W, args[1], n, 1) || !lend_to(W, args[2], d, 2) || !lend_to(W, args[3], dn, 1))
		return false;
	/* n > |p| || dn > |d| || !rt_fs_path_valid(p, n): code 1 */
	emitw_op_u32(W, OP_LOCAL_GET, n);
	emitw_op_u32(W, OP_LOCAL_GET, p + 1);
	emitw_op(W, OP_I64_EXTEND_I32_U);
	emitw_op(W, OP_I64_GT_U);
	emitw_op_u32(W, OP_LOCAL_GET, dn);
	emitw_op_u32(W, OP_LOCAL_GET, d + 1);
	emitw_op(W, OP_I64_EXTEND_I32_U);
	emitw_op(W, OP_I64_GT_U);
	emitw_op(W, OP_I32_OR);
	emitw_fail_if(W, RT_DOM_FS, RT_FS_INVALID_PATH);
	emitw_op_u32(W, OP_LOCAL_GET, p);
	emitw_op_u32(W, OP_LOCAL_GET, n);
	emitw_op(W, OP_I32_WRAP_I64);
	emitw_op_u32(W, OP_CALL, W->imp_path_valid);
	emitw_op(W, OP_I32_EQZ);
	emitw_fail_if(W, RT_DOM_FS, RT_FS_INVALID_PATH);
	emitw_op_u32(W, OP_LOCAL_GET, dn);
	emitw_i64c(W, RT_LIMIT_FILE_MAX);
	emitw_op(W, OP_I64_GT_U);
	emitw_fail_if(W, RT_DOM_FS, RT_FS_TOO_LARGE);
	emitw_op_u32(W, OP_LOCAL_GET, p);
	emitw_op_u32(W, OP_LOCAL_GET, n);
	emitw_op(W, OP_I32_WRAP_I64);
	emitw_op_u32(W, OP_LOCAL_GET, d);
	emitw_op_u32(W, OP_LOCAL_GET, dn);
	emitw_op(W, OP_I32_WRAP_I64);
	emitw_i32c(W, e->u.call.builtin->bid == BI_file_write_atomic);
	emitw_op_u32(W, OP_CALL, W->imp_file_write);
	emitw_op_u32(W, OP_LOCAL_TEE, st);
	emitw_open(W, OP_IF, NULL, 0);
	static const int codes[] = { RT_FS_NOT_FOUND, RT_FS_EXISTS, RT_FS_TOO_LARGE, RT_FS_DENIED, RT_FS_FILE_TYPE };
	for (size_t k = 0; k < sizeof codes / sizeof codes[0]; k++) {
		emitw_op_u32(W, OP_LOCAL_GET, st);
		emitw_i32c(W, codes[k]);
		emitw_op(W, OP_I32_EQ);
		emitw_fail_if(W, RT_DOM_FS, codes[k]);
	}
	emitw_fail_domain(W, RT_DOM_FS, RT_FS_IO);
	emitw_end(W);
	emitw_op_u32(W, OP_LOCAL_GET, dn);
	return true;
}

/*
 * The stdin stream (DECISIONS "stdin stream"; the C lane's
 * src/emit_c/rt/stream.h): a StdinReader is a Bytes (address, length)
 * whose block holds RT_LIMIT_STDIN_CHUNK bytes and whose length is the
 * current chunk.  open allocates the block and fills it; next fills it
 * again unless the length is 0 (end of input, latched); a fill is one
 * spx.stdin_chunk read (the host's one read(2) of at most 4,096 bytes:
 * its length, 0 at end, -1 on a read error, which releases the reader and
 * fails with command-input.v1 code 3).  eof is `length == 0`; chunk is
 * the reader's (address, length) as a Slice<u8> view.
 */
static bool
stream_op(Emitw *W, const HirExpr *e)
{
	int id = e->u.call.builtin->bid;
	if (id == BI_stdin_stream_eof || id == BI_stdin_stream_chunk) {
		if (!emitw_lend(W, e->u.call.args[0]))
			return false;
		if (id == BI_stdin_stream_eof) {
			uint32_t n = emitw_locals(W, VT_I32, 1);
			emitw_op_u32(W, OP_LOCAL_SET, n);
			emitw_op(W, OP_DROP);
			emitw_op_u32(W, OP_LOCAL_GET, n);
			emitw_op(W, OP_I32_EQZ);
		}
		return true;
	}
	if (W->imp_stdin_chunk == UINT32_MAX) {
		emitw_refuse(W, e->span, "`%s` is not granted on this route", e->u.call.builtin->name);
		return false;
	}
	uint32_t p = emitw_locals(W, VT_I32, 1), n = emitw_locals(W, VT_I32, 1);
	if (id == BI_stdin_stream_open) {
		emitw_i32c(W, RT_LIMIT_STDIN_CHUNK);
		emitw_op_u32(W, OP_CALL, W->imp_zalloc);
		emitw_oom_check(W);
		emitw_op_u32(W, OP_LOCAL_SET, p);
		emitw_i32c(W, 1);   /* not at end: fill */
	} else {
		if (!emitw_own(W, e->u.call.args[0], emitw_ty(W, e->u.call.args[0]->type)))
			return false;
		emitw_op_u32(W, OP_LOCAL_SET, n);
		emitw_op_u32(W, OP_LOCAL_SET, p);
		emitw_op_u32(W, OP_LOCAL_GET, n);
	}
	emitw_open(W, OP_IF, NULL, 0);
	emitw_op_u32(W, OP_LOCAL_GET, p);
	emitw_op_u32(W, OP_CALL, W->imp_stdin_chunk);
	emitw_op_u32(W, OP_LOCAL_TEE, n);
	emitw_i32c(W, 0);
	emitw_op(W, OP_I32_LT_S);
	emitw_open(W, OP_IF, NULL, 0);
	emitw_op_u32(W, OP_LOCAL_GET, p);
	emitw_op_u32(W, OP_CALL, W->imp_free);
	emitw_fail_domain(W, RT_DOM_CMDIN, RT_CMDIN_STDIN);
	emitw_end(W);
	emitw_end(W);
	emitw_op_u32(W, OP_LOCAL_GET, p);
	emitw_op_u32(W, OP_LOCAL_GET, n);
	return true;
}

/*
 * The host inputs, with src/rt/host.c's semantics.  stdin_read
 * (process.stdin.read): the host reads stdin to its end, at most
 * RT_LIMIT_STDIN + 1 bytes, at the first call (a later call gives nothing)
 * into a heap block, (address << 32 | length), -3 on a read error
 * (command-input.v1 code 3), -1 out of memory; more than RT_LIMIT_STDIN
 * bytes is code 4.  env_len, env_name_utf8, env_value_utf8
 * (process.environment.read): the shared runtime's snapshot (rt_env_entry:
 * rt_env_snapshot's order, limits and UTF-8 checks) over the entries the
 * host copies into memory (spx.env: their array, 0 out of memory); its
 * failures are environment-input.v1's.  clock_now_ms (clock.read): the
 * host's wall clock in milliseconds.
 */
static bool
host_input(Emitw *W, const HirExpr *e)
{
	int id = e->u.call.builtin->bid;
	uint32_t imp = id == BI_stdin_read ? W->imp_stdin_read : id == BI_clock_now_ms ? W->imp_clock : W->imp_env;
	if (imp == UINT32_MAX) {
		emitw_refuse(W, e->span, "`%s` is not granted on this route", e->u.call.builtin->name);
		return false;
	}
	if (id == BI_clock_now_ms) {
		emitw_op_u32(W, OP_CALL, imp);
		return true;
	}
	if (id == BI_stdin_read) {
		uint32_t r = emitw_locals(W, VT_I64, 1);
		emitw_i32c(W, RT_LIMIT_STDIN);
		emitw_op_u32(W, OP_CALL, imp);
		host_result_check(W, r, true, RT_DOM_CMDIN, NULL, 0, RT_CMDIN_STDIN);
		emitw_op_u32(W, OP_LOCAL_GET, r);
		emitw_i64c(W, 0xffffffff);
		emitw_op(W, OP_I64_AND);
		emitw_i64c(W, RT_LIMIT_STDIN);
		emitw_op(W, OP_I64_GT_U);
		emitw_fail_if(W, RT_DOM_CMDIN, RT_CMDIN_FULL);
		host_result_pair(W, r);
		return true;
	}
	/* rt_env_entry(env, index, which, scratch): 0, or the failure's code */
	uint32_t x = emitw_locals(W, VT_I64, 1), code = emitw_locals(W, VT_I32, 1);
	if (id == BI_env_len) {
		emitw_i64c(W, 0);
	} else if (!emitw_lend(W, e->u.call.args[0])) {
		return false;
	}
	emitw_op_u32(W, OP_LOCAL_SET, x);
	emitw_op_u32(W, OP_CALL, imp);
	emitw_oom_check(W);
	emitw_op_u32(W, OP_LOCAL_GET, x);
	emitw_i32c(W, id == BI_env_len ? 0 : id == BI_env_name_utf8 ? 1 : 2);
	emitw_i32c(W, (int32_t)WASM_SCRATCH);
	emitw_op_u32(W, OP_CALL, W->imp_env_entry);
	emitw_op_u32(W, OP_LOCAL_TEE, code);
	emitw_open(W, OP_IF, NULL, 0);
	static const int codes[] = { RT_ENV_INDEX, RT_ENV_INVALID, RT_ENV_FULL };
	for (size_t k = 0; k < sizeof codes / sizeof codes[0]; k++) {
		emitw_op_u32(W, OP_LOCAL_GET, code);
		emitw_i32c(W, codes[k]);
		emitw_op(W, OP_I32_EQ);
		emitw_fail_if(W, RT_DOM_ENV, codes[k]);
	}
	emitw_fail_domain(W, RT_DOM_ENV, RT_ENV_DENIED);
	emitw_end(W);
	for (int k = 0; k < (id == BI_env_len ? 1 : 2); k++) {
		emitw_i32c(W, (int32_t)WASM_SCRATCH);
		emitw_op(W, OP_I32_LOAD);
		wasm_u32(W->c, 2);
		wasm_u32(W->c, (uint32_t)(4 * k));
	}
	if (id == BI_env_len)
		emitw_op(W, OP_I64_EXTEND_I32_U);
	return true;
}

/*
 * Bytes (an owned buffer: (address, length) of a heap block, released and
 * copied as strings are) and [u8; N] (the address of N bytes): the checks
 * are the other lanes' (semaprax.byte-buffer.v1 code 1), the wide writes
 * the shared rt_bytes_selector and rt_bytes_write (src/rt/text.c).
 */
static bool
bytes_op(Emitw *W, const HirExpr *e)
{
	int id = e->u.call.builtin->bid;
	HirExpr *const *args = e->u.call.args;
	if (id == BI_array_as_slice) {
		if (!emitw_lend(W, args[0]))
			return false;
		emitw_i32c(W, (int32_t)sema_type_info(&W->S->types, emitw_ty(W, args[0]->type))->n);
		return true;
	}
	if (id == BI_bytes_copy) {
		if (!emitw_lend(W, args[0]))
			return false;
		copy_pair(W);
		return true;
	}
	if (id == BI_bytes_zeroed) {
		uint32_t n = emitw_locals(W, VT_I64, 1);
		if (!emitw_lend(W, args[0]))
			return false;
		emitw_op_u32(W, OP_LOCAL_TEE, n);
		emitw_i64c(W, (int64_t)1 << 26);
		emitw_op(W, OP_I64_GT_U);
		emitw_fail_if(W, RT_DOM_BYTEBUF, RT_BYTEBUF_INDEX);
		emitw_op_u32(W, OP_LOCAL_GET, n);
		emitw_op(W, OP_I32_WRAP_I64);
		emitw_op_u32(W, OP_CALL, W->imp_zalloc);
		emitw_oom_check(W);
		emitw_op_u32(W, OP_LOCAL_GET, n);
		emitw_op(W, OP_I32_WRAP_I64);
		return true;
	}
	static const uint8_t pair[2] = { WT_I32, WT_I32 };
	uint32_t b = emitw_locals(W, pair, 2), at = emitw_locals(W, VT_I64, 1);
	if (!emitw_own(W, args[0], emitw_ty(W, args[0]->type)))
		return false;
	emitw_store(W, b, 2);
	if (!lend_to(W, args[1], at, 1))
		return false;
	if (id == BI_bytes_set) {
		uint32_t v = emitw_locals(W, VT_I32, 1);
		if (!lend_to(W, args[2], v, 1))
			return false;
		emitw_op_u32(W, OP_LOCAL_GET, at);
		emitw_op_u32(W, OP_LOCAL_GET, b + 1);
		emitw_op(W, OP_I64_EXTEND_I32_U);
		emitw_op(W, OP_I64_GE_U);
		emitw_fail_if(W, RT_DOM_BYTEBUF, RT_BYTEBUF_INDEX);
		emitw_op_u32(W, OP_LOCAL_GET, b);
		emitw_op_u32(W, OP_LOCAL_GET, at);
		emitw_op(W, OP_I32_WRAP_I64);
		emitw_op(W, OP_I32_ADD);
		emitw_op_u32(W, OP_LOCAL_GET, v);
		emitw_op(W, OP_I32_STORE8);
		wasm_u32(W->c, 0);
		wasm_u32(W->c, 0);
		emitw_load(W, b, 2);
		return true;
	}
	/* the other operands, in order; then rt_bytes_write(b, n, at, width, bytes, src, sn, from) */
	uint32_t width = emitw_locals(W, VT_I64, 1), from = emitw_locals(W, VT_I64, 1), bytes = emitw_locals(W, VT_I32, 1);
	uint32_t src = emitw_locals(W, pair, 2);
	emitw_i32c(W, 0);
	emitw_op_u32(W, OP_LOCAL_SET, src);
	emitw_i32c(W, 0);
	emitw_op_u32(W, OP_LOCAL_SET, src + 1);
	emitw_i64c(W, 0);
	emitw_op_u32(W, OP_LOCAL_SET, from);
	if (id == BI_bytes_set5) {
		uint32_t v = emitw_locals(W, VT_I32, 1);
		for (int k = 0; k < 5; k++) {
			if (!lend_to(W, args[2 + k], v, 1))
				return false;
			emitw_i32c(W, (int32_t)WASM_SCRATCH + k);
			emitw_op_u32(W, OP_LOCAL_GET, v);
			emitw_op(W, OP_I32_STORE8);
			wasm_u32(W->c, 0);
			wasm_u32(W->c, 0);
		}
		emitw_i64c(W, 5);
		emitw_op_u32(W, OP_LOCAL_SET, width);
		emitw_i32c(W, (int32_t)WASM_SCRATCH);
		emitw_op_u32(W, OP_LOCAL_SET, bytes);
	} else {
		uint32_t one = emitw_locals(W, VT_I32, 1), sel = emitw_locals(W, VT_I64, 1);
		if (!lend_to(W, args[2], one, 1) || !lend_to(W, args[3], src, 2) || !lend_to(W, args[4], sel, 1))
			return false;
		emitw_op_u32(W, OP_LOCAL_GET, sel);
		emitw_i32c(W, id == BI_bytes_set1_or6_or48_from_slice);
		emitw_i32c(W, (int32_t)WASM_SCRATCH + 8);
		emitw_i32c(W, (int32_t)WASM_SCRATCH + 16);
		emitw_op_u32(W, OP_CALL, W->imp_bytes_selector);
		emitw_i32c(W, (int32_t)WASM_SCRATCH + 8);
		emitw_op(W, OP_I64_LOAD);
		wasm_u32(W->c, 3);
		wasm_u32(W->c, 0);
		emitw_op_u32(W, OP_LOCAL_SET, width);
		emitw_i32c(W, (int32_t)WASM_SCRATCH + 16);
		emitw_op(W, OP_I64_LOAD);
		wasm_u32(W->c, 3);
		wasm_u32(W->c, 0);
		emitw_op_u32(W, OP_LOCAL_SET, from);
		/* width 1: the one byte, from the scratch buffer; else the source's bytes */
		emitw_i32c(W, (int32_t)WASM_SCRATCH);
		emitw_op_u32(W, OP_LOCAL_GET, one);
		emitw_op(W, OP_I32_STORE8);
		wasm_u32(W->c, 0);
		wasm_u32(W->c, 0);
		emitw_i32c(W, (int32_t)WASM_SCRATCH);
		emitw_i32c(W, 0);
		emitw_op_u32(W, OP_LOCAL_GET, width);
		emitw_i64c(W, 1);
		emitw_op(W, OP_I64_EQ);
		emitw_op(W, OP_SELECT);
		emitw_op_u32(W, OP_LOCAL_SET, bytes);
	}
	emitw_load(W, b, 2);
	emitw_op_u32(W, OP_LOCAL_GET, at);
	emitw_op_u32(W, OP_LOCAL_GET, width);
	emitw_op_u32(W, OP_LOCAL_GET, bytes);
	emitw_load(W, src, 2);
	emitw_op_u32(W, OP_LOCAL_GET, from);
	emitw_op_u32(W, OP_CALL, W->imp_bytes_write);
	emitw_fail_if(W, RT_DOM_BYTEBUF, RT_BYTEBUF_INDEX);
	emitw_load(W, b, 2);
	return true;
}

static bool
view_builtin(Emitw *W, const HirExpr *e)
{
	int id = e->u.call.builtin->bid;
	static const uint8_t pair[2] = { WT_I32, WT_I32 };
	uint32_t a = emitw_locals(W, pair, 2), b = 0, i = 0;
	if (!lend_to(W, e->u.call.args[0], a, 2))
		return false;
	bool two_views = id == BI_str_contains || id == BI_string_contains || id == BI_string_find ||
			 id == BI_string_compare || id == BI_str_starts_with || id == BI_string_starts_with;
	if (two_views) {
		b = emitw_locals(W, pair, 2);
		if (!lend_to(W, e->u.call.args[1], b, 2))
			return false;
	}
	int ix = id == BI_string_find ? 2
	       : two_views || id == BI_byte_len || id == BI_string_len_chars || id == BI_string_to_i64 ||
		 id == BI_string_from_str || id == BI_string_trim ? -1 : 1;
	if (ix >= 0) {
		i = emitw_locals(W, VT_I64, 1);
		if (!emitw_expr(W, e->u.call.args[ix]))
			return false;
		emitw_op_u32(W, OP_LOCAL_SET, i);
	}
	if (id == BI_byte_range || id == BI_string_slice) {
		b = emitw_locals(W, VT_I64, 1);
		if (!emitw_expr(W, e->u.call.args[2]))
			return false;
		emitw_op_u32(W, OP_LOCAL_SET, b);
	}
	view_op(W, id, a, b, i);
	if (id == BI_string_from_str || id == BI_string_trim || id == BI_string_slice)
		own_pair(W);   /* a string of its own: a copy when the text lies in the heap */
	return true;
}

bool
emitw_builtin(Emitw *W, const HirExpr *e)
{
	const Builtin *b = e->u.call.builtin;
	int id = b->bid;
	uint32_t imp = id == BI_stdout_write ? W->imp_stdout : id == BI_stderr_write ? W->imp_stderr
		     : id == BI_args_len ? W->imp_args_len : id == BI_arg_utf8 ? W->imp_arg : 0;
	switch (id) {
	case BI_str_contains: case BI_string_contains: case BI_string_find: case BI_string_compare:
	case BI_str_starts_with: case BI_string_starts_with: case BI_string_byte_at: case BI_str_byte_at:
	case BI_byte_get: case BI_byte_len: case BI_byte_range: case BI_string_len_chars: case BI_string_to_i64:
	case BI_string_from_str: case BI_string_slice: case BI_string_trim:
		return view_builtin(W, e);
	case BI_string_concat: case BI_string_format: case BI_string_from_i64: case BI_string_from_usize:
	case BI_string_from_char:
		return string_op(W, e);
	case BI_map_add: case BI_map_get_or: case BI_map_has: case BI_map_key_at: case BI_map_len: case BI_map_new:
	case BI_map_remove: case BI_map_set: case BI_map_value_at: case BI_set_has: case BI_set_insert: case BI_set_key_at:
	case BI_set_len: case BI_set_new: case BI_set_remove:
		return emitw_map_builtin(W, e);
	case BI_file_read_text:
		return file_read(W, e);
	case BI_file_write_new: case BI_file_write_atomic:
		return file_write(W, e);
	case BI_stdin_read: case BI_env_len: case BI_env_name_utf8: case BI_env_value_utf8: case BI_clock_now_ms:
		return host_input(W, e);
	case BI_stdin_stream_open: case BI_stdin_stream_next: case BI_stdin_stream_eof: case BI_stdin_stream_chunk:
		return stream_op(W, e);
	case BI_array_as_slice: case BI_bytes_copy: case BI_bytes_zeroed: case BI_bytes_set: case BI_bytes_set5:
	case BI_bytes_set1_or5_from_slice: case BI_bytes_set1_or6_or48_from_slice:
		return bytes_op(W, e);
	case BI_vec_capacity: case BI_vec_clear: case BI_vec_clone_at: case BI_vec_get: case BI_vec_into_iter:
	case BI_vec_len: case BI_vec_push: case BI_vec_reserve_exact: case BI_vec_set: case BI_vec_sort:
	case BI_vec_with_capacity: case BI_iter_next: case BI_box_new: case BI_box_get: case BI_box_into_inner:
		return emitw_vec_builtin(W, e);
	case BI_string_as_str: case BI_str_as_bytes: case BI_i64_from_i32: case BI_i64_from_u8: case BI_usize_from_u8:
	case BI_f64_from_i64: case BI_i64_from_usize: case BI_usize_from_i64: case BI_string_len: case BI_str_len_bytes:
	case BI_str_is_empty: case BI_string_is_empty: case BI_stdout_write: case BI_stderr_write: case BI_args_len:
	case BI_u8_from_i64: case BI_i64_from_f64: case BI_char_from_u8: case BI_char_from_i64: case BI_arg_utf8:
	case BI_bytes_as_slice:
		break;
	default:
		emitw_refuse(W, e->span, "the Wasm lane does not support `%s` yet", b->name);
		return false;
	}
	if (imp == UINT32_MAX) {
		emitw_refuse(W, e->span, "`%s` is not granted on this route", b->name);
		return false;
	}
	for (int i = 0; i < e->u.call.nargs; i++)
		if (!emitw_lend(W, e->u.call.args[i]))
			return false;
	switch (id) {
	case BI_i64_from_i32: emitw_op(W, OP_I64_EXTEND_I32_S); break;
	case BI_i64_from_u8: case BI_usize_from_u8: emitw_op(W, OP_I64_EXTEND_I32_U); break;
	case BI_f64_from_i64: emitw_op(W, OP_F64_CONVERT_I64_S); break;
	case BI_i64_from_usize: case BI_usize_from_i64: {
		/* both fail when the value's top bit is set (RT_CONVERT_RANGE) */
		uint32_t x = emitw_locals(W, VT_I64, 1);
		emitw_op_u32(W, OP_LOCAL_TEE, x);
		emitw_i64c(W, 0);
		emitw_op(W, OP_I64_LT_S);
		emitw_fail_if(W, RT_DOM_CONVERT, RT_CONVERT_RANGE);
		emitw_op_u32(W, OP_LOCAL_GET, x);
		break;
	}
	case BI_u8_from_i64: {
		uint32_t x = emitw_locals(W, VT_I64, 1);
		emitw_op_u32(W, OP_LOCAL_TEE, x);
		emitw_i64c(W, 255);
		emitw_op(W, OP_I64_GT_U);   /* negative values are huge unsigned */
		emitw_fail_if(W, RT_DOM_CONVERT, RT_CONVERT_RANGE);
		emitw_op_u32(W, OP_LOCAL_GET, x);
		emitw_op(W, OP_I32_WRAP_I64);
		break;
	}
	case BI_i64_from_f64: {
		/* the shared rt_i64_from_f64 (src/rt/num.c): 0 and the value in the
		 * scratch buffer, or RT_CONVERT_FROM_NAN / RT_CONVERT_RANGE */
		uint32_t code = emitw_locals(W, (const uint8_t[]){ WT_I32 }, 1);
		emitw_i32c(W, (int32_t)WASM_SCRATCH);
		emitw_op_u32(W, OP_CALL, W->imp_i64_from_f64);
		emitw_op_u32(W, OP_LOCAL_TEE, code);
		emitw_open(W, OP_IF, NULL, 0);
		emitw_op_u32(W, OP_LOCAL_GET, code);
		emitw_i32c(W, RT_CONVERT_FROM_NAN);
		emitw_op(W, OP_I32_EQ);
		emitw_fail_if(W, RT_DOM_CONVERT, RT_CONVERT_FROM_NAN);
		emitw_fail_domain(W, RT_DOM_CONVERT, RT_CONVERT_RANGE);
		emitw_end(W);
		emitw_i32c(W, (int32_t)WASM_SCRATCH);
		emitw_op(W, OP_I64_LOAD);
		wasm_u32(W->c, 3);   /* align 8 */
		wasm_u32(W->c, 0);
		break;
	}
	case BI_char_from_i64: {
		/* the shared runtime's scalar range (src/rt/utf8.c) */
		uint32_t x = emitw_locals(W, VT_I64, 1);
		emitw_op_u32(W, OP_LOCAL_TEE, x);
		emitw_op_u32(W, OP_CALL, W->imp_scalar);
		emitw_op(W, OP_I32_EQZ);
		emitw_fail_if(W, RT_DOM_CONVERT, RT_CONVERT_RANGE);
		emitw_op_u32(W, OP_LOCAL_GET, x);
		emitw_op(W, OP_I32_WRAP_I64);
		break;
	}
	case BI_string_len: case BI_str_len_bytes:
	case BI_str_is_empty: case BI_string_is_empty: {
		/* (address, length) -> length */
		uint32_t n = emitw_locals(W, VT_I32, 1);
		emitw_op_u32(W, OP_LOCAL_SET, n);
		emitw_op(W, OP_DROP);
		emitw_op_u32(W, OP_LOCAL_GET, n);
		emitw_op(W, id == BI_string_len || id == BI_str_len_bytes ? OP_I64_EXTEND_I32_U : OP_I32_EQZ);
		break;
	}
	case BI_stdout_write: case BI_stderr_write: host_write(W, imp); break;
	case BI_args_len: emitw_op_u32(W, OP_CALL, imp); break;
	case BI_arg_utf8: {
		/* (address << 32 | length), or -1: semaprax.command-input.v1 code 1 */
		uint32_t x = emitw_locals(W, VT_I64, 1);
		emitw_op_u32(W, OP_CALL, imp);
		host_result_check(W, x, false, RT_DOM_CMDIN, NULL, 0, RT_CMDIN_ARG_INDEX);
		host_result_pair(W, x);
		break;
	}
	default: break;   /* views of static data: the same (pointer, length) */
	}
	return true;
}

