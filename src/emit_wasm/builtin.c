/*
 * builtin.c — the compiler-owned operations the Wasm lane covers
 * (LANGUAGE.md §5.1; the rows of src/sema/builtins.def): views of static
 * text and bytes (search and order through the shared runtime,
 * src/rt/text.c), conversions with their checks, and the host operations
 * the route grants (stdout/stderr counted against the output cap, the
 * arguments).  Every other operation is refused (W110).
 */
#include "emitw_int.h"

#include <stdio.h>
#include <string.h>

#include "../rt/domains.h"

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
	emitw_open(W, OP_IF, NULL, 0);
	emitw_fail_domain(W, RT_DOM_OUTPUT, RT_OUTPUT_FULL);
	emitw_end(W);
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

/* Fails with <domain>/<code> when the i32 condition on the stack holds. */
static void
fail_if(Emitw *W, int domain, int code)
{
	emitw_open(W, OP_IF, NULL, 0);
	emitw_fail_domain(W, domain, code);
	emitw_end(W);
}

static void
load8(Emitw *W)
{
	emitw_op(W, OP_I32_LOAD8_U);
	wasm_u32(W->c, 0);   /* align */
	wasm_u32(W->c, 0);   /* offset */
}

/*
 * The text and byte views' operations (LANGUAGE.md §5.1) on (address,
 * length) pairs: the arguments are in locals a (and b) and the index in i
 * (i64); search and order through the shared runtime (src/rt/text.c).
 * Every string this lane holds lies in static data or the argument pages,
 * which live as long as the run and are never written: an owned string
 * made of part of one (string_from_str, string_slice, string_trim) shares
 * its bytes.
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
			fail_if(W, RT_DOM_TEXT, RT_TEXT_RANGE);
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
		fail_if(W, RT_DOM_TEXT, RT_TEXT_RANGE);
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
		fail_if(W, RT_DOM_TEXT, RT_TEXT_RANGE);
		emitw_fail_domain(W, RT_DOM_TEXT, RT_TEXT_SPLIT);
		emitw_end(W);
		emitw_op_u32(W, OP_LOCAL_GET, a);
		emitw_op_u32(W, OP_LOCAL_GET, i);
		emitw_op(W, OP_I32_WRAP_I64);
		emitw_op(W, OP_I32_ADD);
		emitw_op_u32(W, OP_LOCAL_GET, b);
		emitw_op_u32(W, OP_LOCAL_GET, i);
		emitw_op(W, OP_I64_SUB);
		emitw_op(W, OP_I32_WRAP_I64);
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
		fail_if(W, RT_DOM_BYTEBUF, RT_BYTEBUF_INDEX);
		emitw_op_u32(W, OP_LOCAL_GET, a);
		emitw_op_u32(W, OP_LOCAL_GET, i);
		emitw_op(W, OP_I32_WRAP_I64);
		emitw_op(W, OP_I32_ADD);
		emitw_op_u32(W, OP_LOCAL_GET, b);
		emitw_op_u32(W, OP_LOCAL_GET, i);
		emitw_op(W, OP_I64_SUB);
		emitw_op(W, OP_I32_WRAP_I64);
		return;
	}
}

static bool
view_builtin(Emitw *W, const HirExpr *e)
{
	int id = e->u.call.builtin->bid;
	static const uint8_t pair[2] = { WT_I32, WT_I32 };
	uint32_t a = emitw_locals(W, pair, 2), b = 0, i = 0;
	if (!emitw_expr(W, e->u.call.args[0]))
		return false;
	emitw_store(W, a, 2);
	bool two_views = id == BI_str_contains || id == BI_string_contains || id == BI_string_find ||
			 id == BI_string_compare || id == BI_str_starts_with || id == BI_string_starts_with;
	if (two_views) {
		b = emitw_locals(W, pair, 2);
		if (!emitw_expr(W, e->u.call.args[1]))
			return false;
		emitw_store(W, b, 2);
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
	case BI_string_as_str: case BI_str_as_bytes: case BI_i64_from_i32: case BI_i64_from_u8: case BI_usize_from_u8:
	case BI_f64_from_i64: case BI_i64_from_usize: case BI_usize_from_i64: case BI_string_len: case BI_str_len_bytes:
	case BI_str_is_empty: case BI_string_is_empty: case BI_stdout_write: case BI_stderr_write: case BI_args_len:
	case BI_u8_from_i64: case BI_i64_from_f64: case BI_char_from_u8: case BI_char_from_i64: case BI_arg_utf8:
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
		if (!emitw_expr(W, e->u.call.args[i]))
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
		emitw_open(W, OP_IF, NULL, 0);
		emitw_fail_domain(W, RT_DOM_CONVERT, RT_CONVERT_RANGE);
		emitw_end(W);
		emitw_op_u32(W, OP_LOCAL_GET, x);
		break;
	}
	case BI_u8_from_i64: {
		uint32_t x = emitw_locals(W, VT_I64, 1);
		emitw_op_u32(W, OP_LOCAL_TEE, x);
		emitw_i64c(W, 255);
		emitw_op(W, OP_I64_GT_U);   /* negative values are huge unsigned */
		emitw_open(W, OP_IF, NULL, 0);
		emitw_fail_domain(W, RT_DOM_CONVERT, RT_CONVERT_RANGE);
		emitw_end(W);
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
		emitw_open(W, OP_IF, NULL, 0);
		emitw_fail_domain(W, RT_DOM_CONVERT, RT_CONVERT_FROM_NAN);
		emitw_end(W);
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
		emitw_open(W, OP_IF, NULL, 0);
		emitw_fail_domain(W, RT_DOM_CONVERT, RT_CONVERT_RANGE);
		emitw_end(W);
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
		emitw_op_u32(W, OP_LOCAL_TEE, x);
		emitw_i64c(W, 0);
		emitw_op(W, OP_I64_LT_S);
		emitw_open(W, OP_IF, NULL, 0);
		emitw_fail_domain(W, RT_DOM_CMDIN, RT_CMDIN_ARG_INDEX);
		emitw_end(W);
		emitw_op_u32(W, OP_LOCAL_GET, x);
		emitw_i64c(W, 32);
		emitw_op(W, OP_I64_SHR_U);
		emitw_op(W, OP_I32_WRAP_I64);
		emitw_op_u32(W, OP_LOCAL_GET, x);
		emitw_op(W, OP_I32_WRAP_I64);
		break;
	}
	default: break;   /* views of static data: the same (pointer, length) */
	}
	return true;
}

