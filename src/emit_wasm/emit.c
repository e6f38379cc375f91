/*
 * emit.c — HIR → one Core Wasm module (emit_wasm.h): the driver.
 *
 * The ABI between the module and its host (host/host.mjs):
 *   imports  env.memory                the memory (the host creates it: the
 *                                      runtime module and the program share it)
 *            spx.text(ptr, len)        appends bytes to the pending failure report
 *            spx.fail(status)          ends the run: the report is the stderr line
 *            spx.stdout(ptr, len)      \  only when the route grants
 *            spx.stderr(ptr, len)       > process.stdout.write, process.stderr.write,
 *            spx.args_len() -> i64     /  process.args.read (src/driver/route.c)
 *            spx.arg(i) -> i64         argument i as (address << 32 | length), -1 when
 *                                      out of range (process.args.read: the host
 *                                      copies the arguments to `args_base` first)
 *            spx.file_read(p, n) -> i64  fs.read: the file at the (checked) path read
 *                                      into a heap block, (address << 32 | length),
 *                                      or -status (semaprax.filesystem.v1), -1 out of memory
 *            spx.file_write(p, n, d, dn, atomic) -> status   fs.write: the host checks
 *                                      the write root and budget, then writes (0 or the
 *                                      filesystem.v1 code; its grant is the host's first
 *                                      argument, `--allow-write[=DIR]`)
 *            spx.stdin_read(cap) -> i64  process.stdin.read: stdin to its end (at most
 *                                      cap + 1 bytes) at the first call, as file_read
 *            spx.stdin_chunk(p) -> i32 process.stdin.read: one read of at most 4,096 bytes
 *                                      into p (the stdin stream's chunk): its length,
 *                                      0 at end of input, -1 on a read error
 *            spx.env() -> i32          process.environment.read: the host's copy of the
 *                                      environment (NULL-terminated "NAME=value" array)
 *            rt.rt_env_entry(env, i, which, out) -> code  (src/rt/host.c's snapshot)
 *            spx.clock_now_ms() -> i64 clock.read
 *            rt.rt_decimal(buf, magnitude, negative) -> start   (src/rt/num.c)
 *            rt.rt_float_text(out, v, f32) -> length            (src/rt/float.c)
 *            rt.rt_utf8_scalar(v) -> bool                       (src/rt/utf8.c)
 *            rt.rt_bytes_cmp(a, la, b, lb) -> -1/0/1            (src/rt/text.c)
 *            rt.rt_find(h, hl, n, nl, from, work) -> i64        (src/rt/text.c)
 *            rt.rt_parse_i64(p, n, out) -> bool                 (src/rt/num.c)
 *            rt.rt_utf8_count(p, n) -> i64                      (src/rt/utf8.c)
 *            rt.rt_trim(p, n, start) -> length                  (src/rt/text.c)
 *            rt.rt_char_literal(out, cp) -> length              (src/rt/text.c)
 *            rt.rt_slice_check(p, n, start, end) -> 0 or code   (src/rt/text.c)
 *            rt.rt_i64_from_f64(d, out) -> 0 or code            (src/rt/num.c)
 *            rt.rt_heap_init, rt_free, rt_str_*, rt_block_*, rt_zalloc, rt_cell_alloc,
 *              rt_sort_slots, rt_slot_find, rt_slots_open/close   (src/rt/heap.c)
 *            rt.rt_vec_reserve_target (coll.c), rt_bytes_write/selector,
 *              rt_fs_path_valid (text.c), rt_utf8_encode/validate (utf8.c)
 *   exports  main() -> i64             (first rt_heap_init: the heap begins above
 *                                      the data and argument pages)
 *   custom   `semaprax.wasm.v1`: JSON {route, grants, memory_pages, args_base[, report]}
 *            (report: a test build, whose host publishes the staged output and
 *            then prints main's value on every route, as the C lane's);
 *            `semaprax.rt`: the shared runtime module's bytes.
 * The host stages stdout and stderr and publishes them after `main`
 * returns, as the route says (TOOLCHAIN.md §1.3: the transcript prints
 * main's value after stdout; a command-line program publishes stderr then
 * stdout and exits with main's value); the module counts the staged bytes
 * and fails past RT_LIMIT_OUTPUT, as `run --native` does.
 *
 * Functions are emitted from `main` in a worklist (only what is reachable),
 * one per instance of hir_mono (src/hir/mono.c: a generic function once per
 * type arguments, its types read through emitw_ty/emitw_slot_ty);
 * each takes the number of frames active before it and fails on entry when
 * that is 256 already (the native lane's spx_d).  A body is one Wasm block
 * whose values are the result; `?` branches out of it, so `ensures` is
 * checked on every exit, then the result is returned.
 */
#include "emitw_int.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stddef.h>
#include <string.h>

#include "../rt/domains.h"

static const char *const domain_ids[] = {
#define RT_DOMAIN(name, id, cls, ...) id,
#include "../rt/domains.def"
};

static void
vrefuse(Emitw *W, Span span, const char *help, const char *fmt, va_list ap)
{
	if (W->failed)
		return;
	W->failed = true;
	Diag *d = diag_vreport(W->diags, DIAG_W110, span.end > 0 ? &span : NULL, fmt, ap);
	if (d)
		diag_set_help(d, "%s", help);
}

void
emitw_refuse(Emitw *W, Span span, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vrefuse(W, span, "run this program with `semaprax run` (the interpreter) or `--native` until the Wasm lane covers it", fmt, ap);
	va_end(ap);
}

/* A layout limit rather than a missing construct: the help says what fits. */
static void
refuse_layout(Emitw *W, Span span, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void
refuse_layout(Emitw *W, Span span, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vrefuse(W, span, "hold the large parts behind a `Box<…>` (one value) or in a `Vec`, or run this program with `semaprax run` (the interpreter) or `--native`", fmt, ap);
	va_end(ap);
}

/* ---- code helpers ---- */

void
emitw_op(Emitw *W, uint8_t op)
{
	wasm_byte(W->c, op);
}

void
emitw_op_u32(Emitw *W, uint8_t op, uint32_t v)
{
	wasm_byte(W->c, op);
	wasm_u32(W->c, v);
}

void
emitw_i32c(Emitw *W, int32_t v)
{
	wasm_byte(W->c, OP_I32_CONST);
	wasm_s32(W->c, v);
}

void
emitw_i64c(Emitw *W, int64_t v)
{
	wasm_byte(W->c, OP_I64_CONST);
	wasm_s64(W->c, v);
}

uint32_t
emitw_fresh_locals(Emitw *W, const uint8_t *types, int n)
{
	uint32_t base = W->nwparams + (uint32_t)W->ltypes.len;
	for (int i = 0; i < n; i++)
		VEC_PUSH(W->ltypes, types[i]);
	return base;
}

uint32_t
emitw_locals(Emitw *W, const uint8_t *types, int n)
{
	if (n != 1)
		return emitw_fresh_locals(W, types, n);
	uint32_t x = UINT32_MAX;
	/* the most recently freed local of that type (a linear search: deterministic) */
	for (int i = W->spare.len - 1; i >= 0; i--) {
		if (W->ltypes.items[W->spare.items[i] - W->nwparams] == types[0]) {
			x = W->spare.items[i];
			memmove(W->spare.items + i, W->spare.items + i + 1, sizeof *W->spare.items * (size_t)(W->spare.len - i - 1));
			W->spare.len--;
			break;
		}
	}
	if (x == UINT32_MAX)
		x = emitw_fresh_locals(W, types, 1);
	VEC_PUSH(W->live, x);
	return x;
}

int
emitw_temps_mark(Emitw *W)
{
	return W->live.len;
}

void
emitw_temps_release(Emitw *W, int mark)
{
	while (W->live.len > mark)
		VEC_PUSH(W->spare, W->live.items[--W->live.len]);
}

void
emitw_store(Emitw *W, uint32_t base, int n)
{
	for (int i = n - 1; i >= 0; i--)
		emitw_op_u32(W, OP_LOCAL_SET, base + (uint32_t)i);
}

void
emitw_load(Emitw *W, uint32_t base, int n)
{
	for (int i = 0; i < n; i++)
		emitw_op_u32(W, OP_LOCAL_GET, base + (uint32_t)i);
}

void
emitw_open(Emitw *W, uint8_t op, const uint8_t *results, int n)
{
	wasm_byte(W->c, op);
	if (n == 0)
		wasm_byte(W->c, 0x40);
	else if (n == 1)
		wasm_byte(W->c, results[0]);
	else
		wasm_s64(W->c, wasm_type(W->m, NULL, 0, results, n));
	W->depth++;
	W->opened++;
}

void
emitw_end(Emitw *W)
{
	wasm_byte(W->c, OP_END);
	W->depth--;
}

/* ---- types ---- */

TypeId
emitw_ty(const Emitw *W, TypeId t)
{
	return hir_mono_type(W->H, W->inst, t);
}

TypeId
emitw_slot_ty(const Emitw *W, int s)
{
	return W->M->insts[W->inst].slot_type[s];
}

int
emitw_target(const Emitw *W, const HirExpr *e)
{
	return W->M->insts[W->inst].target[e->index];
}

static int flat_rec(Emitw *W, TypeId t, uint8_t *out, uint8_t *mask, int at, int level);

/* Is the element type t of a Box or a collection in the lane?  A nominal
 * type being laid out is (a type holding itself through a Box or a
 * collection: its elements lie in heap blocks, own.c releases them through
 * out-of-line functions). */
static bool
elem_ok(Emitw *W, TypeId t, uint8_t *elem, int level)
{
	for (int i = 0; i < W->nvisit; i++)
		if (W->flat_visit[i] == t)
			return true;
	return flat_rec(W, t, elem, NULL, 0, level) >= 0;
}

static int
flat_rec(Emitw *W, TypeId t, uint8_t *out, uint8_t *mask, int at, int level)
{
	if (at < 0 || level > 16)
		return -1;
	const TypeInfo *ti = sema_type_info(&W->S->types, t);
	uint8_t elem[FLAT_MAX];   /* an element's flat layout: checked, laid out elsewhere */
	switch (ti->kind) {
	case TY_I64: case TY_USIZE:
		if (at + 1 > FLAT_MAX)
			return -1;
		out[at] = WT_I64;
		return at + 1;
	case TY_I32: case TY_U8: case TY_BOOL: case TY_CHAR:
		if (at + 1 > FLAT_MAX)
			return -1;
		out[at] = WT_I32;
		return at + 1;
	case TY_F64:
		if (at + 1 > FLAT_MAX)
			return -1;
		out[at] = WT_F64;
		return at + 1;
	case TY_F32:
		if (at + 1 > FLAT_MAX)
			return -1;
		out[at] = WT_F32;
		return at + 1;
	case TY_ARRAY:   /* [u8; N]: the address of its bytes (a constant array lies in static data) */
		if (at + 1 > FLAT_MAX)
			return -1;
		out[at] = WT_I32;
		return at + 1;
	case TY_STR: case TY_SLICE: case TY_STRING: case TY_BYTES: case TY_READER:
		if (at + 2 > FLAT_MAX)
			return -1;
		out[at] = WT_I32;
		out[at + 1] = WT_I32;
		if (mask && (ti->kind == TY_STRING || ti->kind == TY_BYTES || ti->kind == TY_READER))
			mask[at] = 1;   /* an owned string's address: released, cloned, zeroed when moved */
		return at + 2;
	case TY_VEC: case TY_ITER: {   /* (address, length, capacity[, position]): elements in 8-byte slots */
		int n = ti->kind == TY_VEC ? 3 : 4;
		if (at + n > FLAT_MAX || !elem_ok(W, ti->args[0], elem, level + 1))
			return -1;
		for (int i = 0; i < n; i++)
			out[at + i] = WT_I32;
		if (mask)
			mask[at] = mask[at + 1] = 1;   /* a move zeroes the length too: a released empty Vec reads no element */
		return at + n;
	}
	case TY_BOX:   /* the address of a heap block holding the value (8-byte slots) */
		if (at + 1 > FLAT_MAX || !elem_ok(W, ti->args[0], elem, level + 1))
			return -1;
		out[at] = WT_I32;
		if (mask)
			mask[at] = 1;
		return at + 1;
	case TY_MAP: case TY_SET:   /* (keys, values, length, capacity): sorted keys, values beside them */
		if (at + 4 > FLAT_MAX || !elem_ok(W, ti->args[0], elem, level + 1) ||
		    (ti->kind == TY_MAP && !elem_ok(W, ti->args[1], elem, level + 1)))
			return -1;
		for (int i = 0; i < 4; i++)
			out[at + i] = WT_I32;
		if (mask)
			mask[at] = mask[at + 1] = mask[at + 2] = 1;   /* both blocks and the length */
		return at + 4;
	case TY_UNIT:
		return at;
	case TY_FN:
		if (W->env < 0 || at + 1 + W->env > FLAT_MAX)
			return -1;
		out[at++] = WT_I32;
		for (int i = 0; i < W->env; i++)
			out[at++] = WT_I64;
		return at;
	case TY_NOMINAL: {
		Sym *s = sema_sym(W->S, (SymId)ti->decl);
		if ((s->kind != SK_RECORD && s->kind != SK_CLASS && s->kind != SK_VARIANT) ||
		    W->nvisit == (int)(sizeof W->flat_visit / sizeof W->flat_visit[0]))
			return -1;   /* resources, interfaces */
		W->flat_visit[W->nvisit++] = t;
		if (s->kind == SK_RECORD || s->kind == SK_CLASS) {   /* a class: its effective fields, ancestors' first */
			for (int i = 0; i < s->nom->nfields && at >= 0; i++)
				at = flat_rec(W, sema_field_type(W->S, t, i), out, mask, at, level + 1);
		} else if (at + 1 > FLAT_MAX) {
			at = -1;
		} else {
			out[at++] = WT_I32;
			for (int c = 0; c < s->nom->ncases && at >= 0; c++)
				for (int i = 0; i < s->nom->cases[c].nfields && at >= 0; i++)
					at = flat_rec(W, sema_case_field_type(W->S, t, c, i), out, mask, at, level + 1);
		}
		W->nvisit--;
		return at;
	}
	default:
		return -1;   /* owned heap values (Bytes, Vec, Map, Set, Box, Iter), arrays, functions, parameters */
	}
}

int
emitw_flat(Emitw *W, TypeId t, uint8_t *out)
{
	uint8_t tmp[FLAT_MAX];
	return flat_rec(W, t, out ? out : tmp, NULL, 0, 0);
}

int
emitw_heap_mask(Emitw *W, TypeId t, uint8_t *mask)
{
	uint8_t tmp[FLAT_MAX];
	memset(mask, 0, FLAT_MAX);
	return flat_rec(W, t, tmp, mask, 0, 0);
}

/* How many flat Wasm values t would take, for W110's text only: stops
 * counting past FLAT_MAX (returns FLAT_MAX + 1) and after *work steps; -1 for
 * a kind the lane has no layout for, -2 nested past flat_rec's 16 levels. */
static int
flat_width(Emitw *W, TypeId t, int level, int *work)
{
	if (level > 16)
		return -2;
	if (--*work < 0)
		return -1;
	const TypeInfo *ti = sema_type_info(&W->S->types, t);
	switch (ti->kind) {
	case TY_I64: case TY_USIZE: case TY_I32: case TY_U8: case TY_BOOL: case TY_CHAR:
	case TY_F64: case TY_F32: case TY_ARRAY: case TY_BOX:
		return 1;
	case TY_STR: case TY_SLICE: case TY_STRING: case TY_BYTES: case TY_READER:
		return 2;
	case TY_VEC:
		return 3;
	case TY_ITER: case TY_MAP: case TY_SET:
		return 4;
	case TY_UNIT:
		return 0;
	case TY_FN:
		return 1 + (W->env > 0 ? W->env : 0);
	case TY_NOMINAL: {
		Sym *s = sema_sym(W->S, (SymId)ti->decl);
		int n = s->kind == SK_VARIANT ? 1 : 0;
		if (s->kind == SK_RECORD || s->kind == SK_CLASS) {
			for (int i = 0; i < s->nom->nfields && n <= FLAT_MAX; i++) {
				int k = flat_width(W, sema_field_type(W->S, t, i), level + 1, work);
				if (k < 0)
					return k;
				n += k;
			}
		} else if (s->kind == SK_VARIANT) {
			for (int c = 0; c < s->nom->ncases && n <= FLAT_MAX; c++)
				for (int i = 0; i < s->nom->cases[c].nfields && n <= FLAT_MAX; i++) {
					int k = flat_width(W, sema_case_field_type(W->S, t, c, i), level + 1, work);
					if (k < 0)
						return k;
					n += k;
				}
		} else {
			return -1;
		}
		return n > FLAT_MAX ? FLAT_MAX + 1 : n;
	}
	default:
		return -1;
	}
}

int
emitw_flat_or_refuse(Emitw *W, TypeId t, Span span, uint8_t *out)
{
	int n = emitw_flat(W, t, out);
	if (n >= 0)
		return n;
	int work = 100000;
	int w = flat_width(W, t, 0, &work);
	if (w == -2)
		refuse_layout(W, span, "the Wasm lane does not support values of type `%s`: its fields nest more than 16 records or variants deep", sema_type_name(W->S, t));
	else if (w > FLAT_MAX)
		refuse_layout(W, span, "the Wasm lane does not support values of type `%s`: it is wider than %d flat Wasm values (a scalar field is one, a string two, a Vec three)",
		    sema_type_name(W->S, t), FLAT_MAX);
	else
		emitw_refuse(W, span, "the Wasm lane does not support values of type `%s` yet", sema_type_name(W->S, t));
	return n;
}

int
emitw_field_off(Emitw *W, TypeId t, int i)
{
	int off = 0;
	for (int k = 0; k < i; k++)
		off += emitw_flat(W, sema_field_type(W->S, t, k), NULL);
	return off;
}

int
emitw_case_off(Emitw *W, TypeId t, int c, int i)
{
	Sym *s = sema_sym(W->S, (SymId)sema_type_info(&W->S->types, t)->decl);
	int off = 1;
	for (int k = 0; k <= c; k++)
		for (int j = 0; j < (k == c ? i : s->nom->cases[k].nfields); j++)
			off += emitw_flat(W, sema_case_field_type(W->S, t, k, j), NULL);
	return off;
}

/* ---- data and failures ---- */

static uint32_t
fnv1a(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)s[i]) * 16777619u;
	return h;
}

/* The same bytes are stored once: a hash set of the strings stored (only
 * looked up; addresses follow first use, so the bytes are deterministic). */
uint32_t
emitw_static(Emitw *W, const char *s, size_t n)
{
	if (2 * (W->ninterned + 1) > W->capinterned) {
		uint32_t cap = W->capinterned ? W->capinterned * 2 : 256;
		struct EmitwInterned *t = spx_xmalloc(sizeof *t * cap);
		for (uint32_t i = 0; i < cap; i++)
			t[i].len = UINT32_MAX;
		for (uint32_t i = 0; i < W->capinterned; i++) {
			if (W->interned[i].len == UINT32_MAX)
				continue;
			uint32_t h = fnv1a(W->data->data + W->interned[i].off, W->interned[i].len) & (cap - 1);
			while (t[h].len != UINT32_MAX)
				h = (h + 1) & (cap - 1);
			t[h] = W->interned[i];
		}
		free(W->interned);
		W->interned = t;
		W->capinterned = cap;
	}
	uint32_t h = fnv1a(s, n) & (W->capinterned - 1);
	for (; W->interned[h].len != UINT32_MAX; h = (h + 1) & (W->capinterned - 1))
		if (W->interned[h].len == n && memcmp(W->data->data + W->interned[h].off, s, n) == 0)
			return WASM_DATA_BASE + W->interned[h].off;
	W->interned[h].off = (uint32_t)W->data->len;
	W->interned[h].len = (uint32_t)n;
	W->ninterned++;
	buf_put(W->data, s, n);
	return WASM_DATA_BASE + W->interned[h].off;
}

void
emitw_text(Emitw *W, const char *s)
{
	size_t n = strlen(s);
	emitw_i32c(W, (int32_t)emitw_static(W, s, n));
	emitw_i32c(W, (int32_t)n);
	emitw_op_u32(W, OP_CALL, W->imp_text);
}

void
emitw_fail(Emitw *W, int status)
{
	emitw_i32c(W, status);
	emitw_op_u32(W, OP_CALL, W->imp_fail);
	emitw_op(W, OP_UNREACHABLE);
}

void
emitw_fail_domain(Emitw *W, int domain, int code)
{
	char line[160];
	snprintf(line, sizeof line, "SEMAPRAX operation failure: %s/%d", domain_ids[domain], code);
	emitw_text(W, line);
	emitw_fail(W, RT_EXIT_DOMAIN);
}

void
emitw_fail_if(Emitw *W, int domain, int code)
{
	emitw_open(W, OP_IF, NULL, 0);
	emitw_fail_domain(W, domain, code);
	emitw_end(W);
}

/* ---- functions ---- */

bool
emitw_wparam(const HirFunc *f, int i)
{
	return i < f->nparams || f->locals[i].param;
}

static int
func_type(Emitw *W, int ii, Span span)
{
	const HirInst *in = &W->M->insts[ii];
	const HirFunc *f = &W->H->funcs[in->func];
	uint8_t p[WASM_PARAMS_MAX + FLAT_MAX], r[FLAT_MAX];
	int np = 1;
	p[0] = WT_I32;
	for (int i = 0; i <= f->nlocals; i++) {
		if (np > WASM_PARAMS_MAX) {
			emitw_refuse(W, span, "the Wasm lane does not support functions with this many parameters yet");
			return -1;
		}
		if (i == f->nlocals || !emitw_wparam(f, i))
			continue;
		int n = emitw_flat_or_refuse(W, in->slot_type[i], f->locals[i].span, p + np);
		if (n < 0)
			return -1;
		np += n;
	}
	int nr = emitw_flat_or_refuse(W, in->result, span, r);
	if (nr < 0)
		return -1;
	return wasm_type(W->m, p, np, r, nr);
}

uint32_t
emitw_func_index(Emitw *W, int ii, Span span)
{
	if (ii < 0 || ii >= W->M->ninsts) {
		emitw_refuse(W, span, "the Wasm lane found no instance of this function");
		return 0;
	}
	if (W->fidx[ii] < 0) {
		int t = func_type(W, ii, span);
		if (t < 0)
			return 0;
		W->fidx[ii] = wasm_func_add(W->m, t);
		VEC_PUSH(W->queue, ii);
	}
	return (uint32_t)W->m->nfunc_imports + (uint32_t)W->fidx[ii];
}

void
emitw_to_env(Emitw *W, uint8_t vt)
{
	switch (vt) {
	case WT_I32: emitw_op(W, OP_I64_EXTEND_I32_U); break;
	case WT_F64: emitw_op(W, OP_I64_REINTERPRET_F64); break;
	case WT_F32: emitw_op(W, OP_I32_REINTERPRET_F32); emitw_op(W, OP_I64_EXTEND_I32_U); break;
	default: break;
	}
}

void
emitw_from_env(Emitw *W, uint8_t vt)
{
	switch (vt) {
	case WT_I32: emitw_op(W, OP_I32_WRAP_I64); break;
	case WT_F64: emitw_op(W, OP_F64_REINTERPRET_I64); break;
	case WT_F32: emitw_op(W, OP_I32_WRAP_I64); emitw_op(W, OP_F32_REINTERPRET_I32); break;
	default: break;
	}
}

/*
 * A function value's thunk: (depth, env…, params…) -> result, the type every
 * call through a value of type ft uses (call_indirect); it calls function
 * fi with the depth, the parameters and, for a closure, its captured values
 * taken out of env.  One per function, in the table from slot 1.
 */
uint32_t
emitw_fn_slot(Emitw *W, int ii, TypeId ft, Span span)
{
	uint32_t target = emitw_func_index(W, ii, span);
	if (W->failed)
		return 0;
	if (W->thunk[ii])
		return W->thunk[ii];
	/* the value's parameter and result types: ft's, or (EMITW_FT_INST: a
	 * project's imported function, named in the importer's table) the
	 * instance's own, which lay out alike */
	const HirInst *fin = &W->M->insts[ii];
	const TypeInfo *ti = ft == EMITW_FT_INST ? NULL : sema_type_info(&W->S->types, ft);
	int nargs = ti ? ti->nargs : W->H->funcs[fin->func].nparams + 1;
	uint8_t p[WASM_PARAMS_MAX + FLAT_MAX], r[FLAT_MAX];
	int np = 1 + W->env, nr;
	p[0] = WT_I32;
	for (int i = 0; i < W->env; i++)
		p[1 + i] = WT_I64;
	for (int i = 0; i < nargs && !W->failed; i++) {
		if (np > WASM_PARAMS_MAX) {
			emitw_refuse(W, span, "the Wasm lane does not support functions with this many parameters yet");
			break;
		}
		if (i + 1 == nargs)
			break;
		int n = emitw_flat_or_refuse(W, ti ? ti->args[i] : fin->slot_type[i], span, p + np);
		np += n > 0 ? n : 0;
	}
	nr = W->failed ? -1 : emitw_flat_or_refuse(W, ti ? ti->args[nargs - 1] : fin->result, span, r);
	if (W->failed || nr < 0)
		return 0;
	int wi = wasm_func_add(W->m, wasm_type(W->m, p, np, r, nr));
	Buf *saved = W->c;
	Buf code = {0};
	W->c = &code;
	/* the thunk's own locals: the enclosing function's are kept aside */
	struct { VEC(uint8_t) lt; VEC(uint32_t) live, spare; } keep;
	memcpy(&keep.lt, &W->ltypes, sizeof keep.lt);
	memcpy(&keep.live, &W->live, sizeof keep.live);
	memcpy(&keep.spare, &W->spare, sizeof keep.spare);
	uint32_t keep_np = W->nwparams;
	int keep_depth = W->depth;
	memset(&W->ltypes, 0, sizeof W->ltypes);
	memset(&W->live, 0, sizeof W->live);
	memset(&W->spare, 0, sizeof W->spare);
	W->nwparams = (uint32_t)np;
	W->depth = 0;
	emitw_op_u32(W, OP_LOCAL_GET, 0);
	for (int i = 1 + W->env; i < np; i++)
		emitw_op_u32(W, OP_LOCAL_GET, (uint32_t)i);
	const HirInst *in = &W->M->insts[ii];
	const HirFunc *f = &W->H->funcs[in->func];
	bool packed = emitw_capture_slots(W, ii) > WASM_ENV_MAX;
	int e = 0;
	for (int i = f->nparams; i < f->nlocals; i++) {
		if (!emitw_wparam(f, i))
			continue;
		uint8_t ty[FLAT_MAX];
		int n = emitw_flat(W, in->slot_type[i], ty);
		bool cell = emitw_holds_fn(W, in->slot_type[i], 0);
		for (int k = 0; k < (cell ? 1 : n); k++) {
			/* env slot e: a parameter, or slot e of the cell a packed closure's env holds */
			if (packed) {
				emitw_op_u32(W, OP_LOCAL_GET, 1);
				emitw_op(W, OP_I32_WRAP_I64);
				emitw_op(W, OP_I64_LOAD);
				wasm_u32(W->c, 3);
				wasm_u32(W->c, (uint32_t)e * 8u);
			} else {
				emitw_op_u32(W, OP_LOCAL_GET, 1 + (uint32_t)e);
			}
			e++;
			if (!cell) {
				emitw_from_env(W, ty[k]);
				continue;
			}
			/* a captured value holding a function value lives in a cell: env holds its address (expr.c fn_value) */
			uint32_t a = emitw_locals(W, (const uint8_t[]){ WT_I32 }, 1);
			emitw_op(W, OP_I32_WRAP_I64);
			emitw_op_u32(W, OP_LOCAL_SET, a);
			emitw_elem_load(W, a, in->slot_type[i]);
		}
	}
	emitw_op_u32(W, OP_CALL, target);
	/* a call through a value consumes every argument (expr.c call_value):
	 * what the target only borrows, the thunk releases (below the result) */
	uint32_t pb = 1 + (uint32_t)W->env;
	for (int i = 0; i < f->nparams; i++) {
		if (f->locals[i].lent && emitw_has_heap(W, in->slot_type[i]))
			emitw_release(W, pb, in->slot_type[i]);
		pb += (uint32_t)emitw_flat(W, in->slot_type[i], NULL);
	}
	emitw_func_finish(W, wi, &code);
	VEC_FREE(W->ltypes);
	VEC_FREE(W->live);
	VEC_FREE(W->spare);
	memcpy(&W->ltypes, &keep.lt, sizeof W->ltypes);
	memcpy(&W->live, &keep.live, sizeof W->live);
	memcpy(&W->spare, &keep.spare, sizeof W->spare);
	W->nwparams = keep_np;
	W->depth = keep_depth;
	buf_free(&code);
	W->c = saved;
	W->thunk[ii] = wasm_table_add(W->m, (uint32_t)W->m->nfunc_imports + (uint32_t)wi);
	return W->thunk[ii];
}

/* Does a value of type t hold, in itself or a field or case field (16 levels
 * deep), a value of one of the kinds in the mask (1u << TypeKind)? */
bool
emitw_holds_kind(Emitw *W, TypeId t, unsigned kinds, int level)
{
	const TypeInfo *ti = sema_type_info(&W->S->types, t);
	if (kinds & (1u << ti->kind))
		return true;
	if (ti->kind != TY_NOMINAL || level > 16)
		return false;
	Sym *s = sema_sym(W->S, (SymId)ti->decl);
	if (s->kind == SK_RECORD || s->kind == SK_CLASS) {
		for (int i = 0; i < s->nom->nfields; i++)
			if (emitw_holds_kind(W, sema_field_type(W->S, t, i), kinds, level + 1))
				return true;
	} else if (s->kind == SK_VARIANT) {
		for (int c = 0; c < s->nom->ncases; c++)
			for (int i = 0; i < s->nom->cases[c].nfields; i++)
				if (emitw_holds_kind(W, sema_case_field_type(W->S, t, c, i), kinds, level + 1))
					return true;
	}
	return false;
}

bool
emitw_holds_fn(Emitw *W, TypeId t, int level)
{
	return emitw_holds_kind(W, t, 1u << TY_FN, level);
}

int
emitw_capture_slots(Emitw *W, int ii)
{
	const HirInst *in = &W->M->insts[ii];
	const HirFunc *f = &W->H->funcs[in->func];
	int n = 0;
	for (int i = f->nparams; i < f->nlocals; i++) {
		if (!emitw_wparam(f, i))
			continue;
		int k = emitw_holds_fn(W, in->slot_type[i], 0) ? 1 : emitw_flat(W, in->slot_type[i], NULL);
		n += k > 0 ? k : 0;
	}
	return n;
}

/* The i64 slots a function value carries: the most any closure's captures
 * take, at most WASM_ENV_MAX (a closure capturing more packs them in a cell). */
int
emitw_env_slots(Emitw *W)
{
	W->env = -1;
	int most = 0;
	for (int ii = 0; ii < W->M->ninsts; ii++) {
		int n = emitw_capture_slots(W, ii);
		if (n > WASM_ENV_MAX)
			n = 1;
		if (n > most)
			most = n;
	}
	return most;
}

void
emitw_invariants(Emitw *W, TypeId t, uint32_t base)
{
	const TypeInfo *ti = sema_type_info(&W->S->types, t);
	if (ti->kind != TY_NOMINAL)
		return;
	Span at = sema_sym(W->S, (SymId)ti->decl)->span;
	Emitw *P = W;
	int ii;
	if (W->prog && sema_sym(W->S, (SymId)ti->decl)->origin) {
		/* a project: an imported record's declaring module checks it */
		if (!emitw_import_invariant(W, (SymId)ti->decl, at, &P, &ii) || ii < 0)
			return;
	} else {
		if (!W->H->invariants || W->H->invariants[ti->decl] < 0)
			return;
		ii = W->M->func_inst[W->H->invariants[ti->decl]];   /* hir_mono reached it from this record value or store */
		if (ii < 0) {
			emitw_refuse(W, at, "the Wasm lane found no instance of this record's invariant check");
			return;
		}
	}
	emitw_op_u32(W, OP_LOCAL_GET, 0);
	emitw_i32c(W, 1);
	emitw_op(W, OP_I32_ADD);
	emitw_load(W, base, emitw_flat(W, t, NULL));
	emitw_op_u32(W, OP_CALL, emitw_func_index(P, ii, at));
	if (P->failed)
		W->failed = true;
	emitw_op(W, OP_DROP);
}

/* A new function body in code: no locals, temporaries or open blocks yet. */
void
emitw_body_begin(Emitw *W, Buf *code)
{
	W->c = code;
	W->ltypes.len = 0;
	W->live.len = 0;
	W->spare.len = 0;
	W->notemps = 0;
	W->olive.len = 0;
	W->depth = 0;
	W->opened = 0;
}

void
emitw_function(Emitw *W, int k)
{
	int ii = W->queue.items[k];
	const HirInst *in = &W->M->insts[ii];
	const HirFunc *f = &W->H->funcs[in->func];
	W->inst = ii;
	Buf code = {0};
	W->f = f;
	emitw_body_begin(W, &code);
	free(W->slot_base);
	W->slot_base = spx_xmalloc(sizeof *W->slot_base * ((size_t)f->nlocals + 1));
	uint32_t next = 1;
	for (int i = 0; i < f->nlocals; i++) {
		if (!emitw_wparam(f, i))
			continue;
		W->slot_base[i] = next;
		next += (uint32_t)emitw_flat(W, in->slot_type[i], NULL);
	}
	W->nwparams = next;
	emitw_moved_params(W, f);
	for (int i = f->nparams; i < f->nlocals && !W->failed; i++) {
		if (emitw_wparam(f, i))
			continue;
		uint8_t ty[FLAT_MAX];
		int n = emitw_flat_or_refuse(W, in->slot_type[i], f->locals[i].span, ty);
		if (n < 0)
			break;
		W->slot_base[i] = emitw_fresh_locals(W, ty, n);
	}
	uint8_t rt[FLAT_MAX];
	int nr = emitw_flat(W, in->result, rt);
	if (W->failed || nr < 0)
		goto out;
	/* the call-depth bound */
	emitw_op_u32(W, OP_LOCAL_GET, 0);
	emitw_i32c(W, 256);
	emitw_op(W, OP_I32_GE_U);
	emitw_open(W, OP_IF, NULL, 0);
	emitw_text(W, "SEMAPRAX runtime failure: call depth exceeded (256 frames)");
	emitw_fail(W, RT_EXIT_DOMAIN);
	emitw_end(W);
	emitw_contract_checks(W, f, false, f->requires, f->nrequires);
	emitw_open(W, OP_BLOCK, rt, nr);
	W->body_depth = W->depth;
	if (!emitw_block(W, f->body, in->result))
		goto out;
	emitw_end(W);
	if (f->nensures > 0) {
		uint32_t r = emitw_locals(W, rt, nr);
		emitw_store(W, r, nr);
		if (f->result_slot != HIR_NO_SLOT) {
			emitw_load(W, r, nr);
			emitw_store(W, W->slot_base[f->result_slot], nr);
		}
		emitw_contract_checks(W, f, true, f->ensures, f->nensures);
		emitw_load(W, r, nr);
	}
	emitw_epilogue(W);   /* the result stays on the stack below the releases */
	if (!W->failed && W->nwparams + (uint32_t)W->ltypes.len > WASM_LOCALS_MAX) {
		/* wide values held at once: V8 would not compile the function */
		Span at = f->sym >= 0 ? sema_sym(W->S, f->sym)->span : f->nlocals > 0 ? f->locals[0].span : (Span){0};
		emitw_refuse(W, at, "the Wasm lane does not support functions needing more than 50,000 locals yet");
	}
	/*
	 * V8's baseline compiler (Liftoff) keeps a copy of every local's state
	 * per label, so its memory is about locals x labels x 24 bytes: 500
	 * wide-record locals and 9,500 checked additions took 4.5 GB and 5 s.
	 */
	if (!W->failed && (uint64_t)(W->nwparams + (uint32_t)W->ltypes.len) * W->opened > WASM_LABEL_LOCALS_MAX) {
		Span at = f->sym >= 0 ? sema_sym(W->S, f->sym)->span : f->nlocals > 0 ? f->locals[0].span : (Span){0};
		emitw_refuse(W, at, "the Wasm lane does not support functions whose locals times blocks exceed 10,000,000 yet");
	}
	/* the body's size, its local declarations bounded by 6 bytes a run */
	if (!W->failed && code.len + (size_t)W->ltypes.len * 6 + 5 > WASM_BODY_MAX) {
		Span at = f->sym >= 0 ? sema_sym(W->S, f->sym)->span : f->nlocals > 0 ? f->locals[0].span : (Span){0};
		emitw_refuse(W, at, "the Wasm lane does not support functions whose code exceeds 7,654,321 bytes yet");
	}
	if (!W->failed)
		emitw_func_finish(W, W->fidx[ii], &code);
out:
	buf_free(&code);
	W->c = NULL;
}

void
emitw_func_finish(Emitw *W, int wi, const Buf *code)
{
	/* the local declarations, run-length encoded */
	WasmFunc *wf = &W->m->funcs.items[wi];
	int runs = 0;
	for (int i = 0; i < W->ltypes.len; i++)
		runs += i == 0 || W->ltypes.items[i] != W->ltypes.items[i - 1];
	wasm_u32(&wf->locals, (uint32_t)runs);
	for (int i = 0; i < W->ltypes.len;) {
		int j = i;
		while (j < W->ltypes.len && W->ltypes.items[j] == W->ltypes.items[i])
			j++;
		wasm_u32(&wf->locals, (uint32_t)(j - i));
		wasm_byte(&wf->locals, W->ltypes.items[i]);
		i = j;
	}
	buf_put(&wf->code, code->data ? code->data : "", code->len);
}

/* ---- the module ---- */

/*
 * The imports, in module order: (module, name, signature, the Emitw field
 * that keeps the index, the capability the route must grant, NULL: always).
 * A signature is its parameters, `:`, its results: i i32, I i64, F f64.
 */
static const struct ImportRow {
	const char *module, *name, *sig;
	size_t field;
	const char *grant;
} import_rows[] = {
#define IMP(mod, name, sig, field, grant) { mod, name, sig, offsetof(Emitw, field), grant }
	IMP("spx", "text", "ii:", imp_text, NULL),
	IMP("spx", "fail", "i:", imp_fail, NULL),
	IMP("spx", "stdout", "ii:", imp_stdout, "process.stdout.write"),
	IMP("spx", "stderr", "ii:", imp_stderr, "process.stderr.write"),
	IMP("spx", "file_read", "ii:I", imp_file_read, "fs.read"),
	IMP("spx", "file_write", "iiiii:i", imp_file_write, "fs.write"),
	IMP("spx", "args_len", ":I", imp_args_len, "process.args.read"),
	IMP("spx", "arg", "I:I", imp_arg, "process.args.read"),
	IMP("spx", "stdin_read", "i:I", imp_stdin_read, "process.stdin.read"),
	IMP("spx", "stdin_chunk", "i:i", imp_stdin_chunk, "process.stdin.read"),
	IMP("spx", "env", ":i", imp_env, "process.environment.read"),
	IMP("rt", "rt_env_entry", "iIii:i", imp_env_entry, "process.environment.read"),
	IMP("spx", "clock_now_ms", ":I", imp_clock, "clock.read"),
	IMP("rt", "rt_decimal", "iIi:i", imp_decimal, NULL),
	IMP("rt", "rt_utf8_scalar", "I:i", imp_scalar, NULL),
	IMP("rt", "rt_bytes_cmp", "iiii:i", imp_bytes_cmp, NULL),
	IMP("rt", "rt_find", "iiiiii:I", imp_find, NULL),
	IMP("rt", "rt_parse_i64", "iii:i", imp_parse, NULL),
	IMP("rt", "rt_utf8_count", "ii:I", imp_count, NULL),
	IMP("rt", "rt_trim", "iii:i", imp_trim, NULL),
	IMP("rt", "rt_i64_from_f64", "Fi:i", imp_i64_from_f64, NULL),
	IMP("rt", "rt_slice_check", "iiII:i", imp_slice_check, NULL),
	IMP("rt", "rt_char_literal", "ii:i", imp_char_literal, NULL),
	IMP("rt", "rt_float_text", "iFi:i", imp_float_text, NULL),
	/* the heap (src/rt/heap.c) */
	IMP("rt", "rt_heap_init", "ii:", imp_heap_init, NULL),
	IMP("rt", "rt_free", "i:", imp_free, NULL),
	IMP("rt", "rt_str_own", "ii:i", imp_str_own, NULL),
	IMP("rt", "rt_str_copy", "ii:i", imp_str_copy, NULL),
	IMP("rt", "rt_str_append", "iiii:i", imp_str_append, NULL),
	IMP("rt", "rt_str_concat", "iiii:i", imp_str_concat, NULL),
	IMP("rt", "rt_utf8_encode", "ii:i", imp_utf8_encode, NULL),
	IMP("rt", "rt_fs_path_valid", "ii:i", imp_path_valid, NULL),
	IMP("rt", "rt_utf8_validate", "ii:i", imp_utf8_validate, NULL),
	IMP("rt", "rt_zalloc", "i:i", imp_zalloc, NULL),
	IMP("rt", "rt_bytes_write", "iiIIiiiI:i", imp_bytes_write, NULL),
	IMP("rt", "rt_bytes_selector", "Iiii:", imp_bytes_selector, NULL),
	IMP("rt", "rt_slot_find", "iiiii:i", imp_slot_find, NULL),
	IMP("rt", "rt_slots_open", "iiii:", imp_slots_open, NULL),
	IMP("rt", "rt_slots_close", "iiii:", imp_slots_close, NULL),
	IMP("rt", "rt_cell_alloc", "i:i", imp_cell, NULL),
	IMP("rt", "rt_block_clone", "iii:i", imp_block_clone, NULL),
	IMP("rt", "rt_block_grow", "iii:i", imp_block_grow, NULL),
	IMP("rt", "rt_sort_slots", "iiii:", imp_sort, NULL),
	IMP("rt", "rt_vec_reserve_target", "IIi:i", imp_reserve, NULL),
#undef IMP
};

void
emitw_imports(Emitw *W)
{
	const HirGrants *g = W->o->host;
	for (size_t i = 0; i < countof(import_rows); i++) {
		const struct ImportRow *r = &import_rows[i];
		uint32_t *field = (uint32_t *)(void *)((char *)W + r->field);
		*field = UINT32_MAX;
		if (r->grant && !(g && hir_grants(g, r->grant)))
			continue;
		uint8_t t[2][16];   /* (a row has at most 8 parameters) */
		int n[2] = { 0, 0 }, side = 0;
		for (const char *c = r->sig; *c; c++) {
			if (*c == ':')
				side = 1;
			else
				t[side][n[side]++] = *c == 'i' ? WT_I32 : *c == 'I' ? WT_I64 : WT_F64;
		}
		*field = wasm_import_func(W->m, r->module, r->name, wasm_type(W->m, t[0], n[0], t[1], n[1]));
	}
}

void
emitw_metadata(Emitw *W, uint32_t pages, uint32_t args_base)
{
	const HirGrants *g = W->o->host;
	Route r = g ? g->route : ROUTE_PURE;
	Buf b = {0};
	buf_printf(&b, "{\"schema\":\"semaprax.wasm.v1\",\"route\":\"%s\",\"grants\":[",
		   r == ROUTE_COMMAND ? "command" : r == ROUTE_TRANSCRIPT ? "transcript" : "pure");
	const char *caps[] = { "clock.read", "fs.read", "fs.write", "process.args.read", "process.environment.read",
			       "process.stderr.write", "process.stdin.read", "process.stdout.write" };
	bool first = true;
	for (size_t i = 0; i < countof(caps); i++) {
		if (g && hir_grants(g, caps[i])) {
			buf_printf(&b, "%s\"%s\"", first ? "" : ",", caps[i]);
			first = false;
		}
	}
	buf_printf(&b, "],\"memory_pages\":%" PRIu32 ",\"args_base\":%" PRIu32 "%s}", pages, args_base,
		   W->o->report_status ? ",\"report\":true" : "");
	wasm_custom(W->m, "semaprax.wasm.v1", b.data, b.len);
	buf_free(&b);
}

void
emitw_export_name(Buf *out, const char *id)
{
	buf_puts(out, "x_");
	for (const unsigned char *p = (const unsigned char *)id; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9'))
			buf_putc(out, (char)*p);
		else
			buf_printf(out, "_%02x", *p);
	}
}

bool
emitw_web_scalar(TypeId t)
{
	return t == T_I64 || t == T_I32 || t == T_U8 || t == T_USIZE || t == T_BOOL || t == T_F64 || t == T_CHAR;
}

/* A wrapper's first act: the heap begins above the data and argument pages. */
void
emitw_heap_init(Emitw *W, Buf *code, uint32_t heap_base)
{
	wasm_byte(code, OP_I32_CONST);
	wasm_s32(code, (int32_t)heap_base);
	wasm_byte(code, OP_I32_CONST);
	wasm_s32(code, 0);
	wasm_byte(code, OP_CALL);
	wasm_u32(code, W->imp_heap_init);
}

/* build --target web: a wrapper per export, as main's (frame count 0);
 * export k's function is in ws[k]'s module. */
void
emitw_export_wrappers(Emitw *const *ws, const uint32_t *index, char **names, uint32_t heap_base)
{
	for (int k = 0; k < ws[0]->o->nexports; k++) {
		Emitw *W = ws[k];
		const HirFunc *xf = &W->H->funcs[W->o->exports[k]];
		uint8_t params[FLAT_MAX], res[FLAT_MAX];
		int np = 0;
		for (int i = 0; i < xf->nparams && np < FLAT_MAX - 1; i++)
			np += emitw_flat(W, xf->locals[i].type, params + np);
		int nr = emitw_flat(W, xf->result, res);
		int wi = wasm_func_add(W->m, wasm_type(W->m, params, np, res, nr));
		WasmFunc *wf = &W->m->funcs.items[wi];
		wasm_u32(&wf->locals, 0);
		emitw_heap_init(W, &wf->code, heap_base);
		wasm_byte(&wf->code, OP_I32_CONST);
		wasm_s32(&wf->code, 0);
		for (int i = 0; i < np; i++) {
			wasm_byte(&wf->code, OP_LOCAL_GET);
			wasm_u32(&wf->code, (uint32_t)i);
		}
		wasm_byte(&wf->code, OP_CALL);
		wasm_u32(&wf->code, index[k]);
		Buf name = {0};
		emitw_export_name(&name, xf->id);
		names[k] = name.data;   /* wasm_export keeps the pointer: freed after encoding */
		wasm_export(W->m, name.data, 0, (uint32_t)W->m->nfunc_imports + (uint32_t)wi);
	}
}

bool
emit_wasm(HirModule *H, const WasmOptions *o, Buf *out, DiagSink *diags)
{
	int entry = hir_find_main(H);
	if (entry < 0) {
		Diag *d = diag_report(diags, DIAG_F102, NULL, "the module has no `main` to run");
		if (d)
			diag_set_help(d, "define `fn main() -> i64`");
		return false;
	}
	/* the driver ran hir_mono (driver_mono); a caller that did not gets it here */
	if (!H->mono && !hir_mono(H, diags))
		return false;
	if (emitw_rt_wasm_len == 0) {
		diag_report(diags, DIAG_W102, NULL,
			    "this semaprax was built without the Wasm runtime (clang --target=wasm32 and wasm-ld were not found)");
		return false;
	}
	Emitw W;
	memset(&W, 0, sizeof W);
	W.H = H;
	W.S = H->S;
	W.diags = diags;
	W.o = o;
	W.m = &W.m_own;
	W.data = &W.data_own;
	W.M = H->mono;
	W.fidx = spx_xmalloc(sizeof *W.fidx * ((size_t)W.M->ninsts + 1));
	W.thunk = spx_xcalloc((size_t)W.M->ninsts + 1, sizeof *W.thunk);
	for (int i = 0; i < W.M->ninsts; i++)
		W.fidx[i] = -1;
	W.env = emitw_env_slots(&W);
	emitw_imports(&W);
	wasm_import_memory(W.m, "env", "memory", 1);   /* the real minimum: the metadata's pages */
	W.g_out = wasm_global_add(W.m, WT_I32, true, 0);
	W.g_fs = wasm_global_add(W.m, WT_I64, true, 0);
	const HirFunc *mf = &H->funcs[entry];
	Span mspan = mf->sym >= 0 ? sema_sym(W.S, mf->sym)->span : (Span){0};
	if (sema_type_info(&W.S->types, mf->result)->kind != TY_I64 || mf->nparams != 0)
		emitw_refuse(&W, mspan, "the Wasm lane runs `fn main() -> i64` only");
	uint32_t main_index = emitw_func_index(&W, W.M->func_inst[entry], mspan);
	uint32_t *export_index = spx_xcalloc((size_t)o->nexports + 1, sizeof *export_index);
	char **export_names = spx_xcalloc((size_t)o->nexports + 1, sizeof *export_names);
	for (int k = 0; k < o->nexports; k++) {
		const HirFunc *xf = &H->funcs[o->exports[k]];
		int ii = W.M->func_inst[o->exports[k]];
		if (ii < 0)
			emitw_refuse(&W, xf->sym >= 0 ? sema_sym(W.S, xf->sym)->span : (Span){0},
				     "the web export `%s` has no single instance", xf->id);
		else
			export_index[k] = emitw_func_index(&W, ii, mspan);
	}
	/* a wrapper exported as `main`: main's frame count is 0 */
	for (int k = 0; k < W.queue.len && !W.failed; k++)
		emitw_function(&W, k);
	emitw_mem_funcs(&W);
	if (!W.failed) {
		uint32_t pages = (uint32_t)((WASM_DATA_BASE + W.data->len + 65535) / 65536);
		/* the arguments (at most RT_LIMIT_ARG_BYTES together) get pages of their own; the heap follows */
		uint32_t args_base = pages * 65536u;
		if (W.imp_arg != UINT32_MAX)
			pages += (uint32_t)((RT_LIMIT_ARG_BYTES + 65535) / 65536);
		static const uint8_t i64r[1] = { WT_I64 };
		int wi = wasm_func_add(W.m, wasm_type(W.m, NULL, 0, i64r, 1));
		WasmFunc *wf = &W.m->funcs.items[wi];
		wasm_u32(&wf->locals, 0);
		emitw_heap_init(&W, &wf->code, pages * 65536u);
		wasm_byte(&wf->code, OP_I32_CONST);
		wasm_s32(&wf->code, 0);
		wasm_byte(&wf->code, OP_CALL);
		wasm_u32(&wf->code, main_index);
		wasm_export(W.m, "main", 0, (uint32_t)W.m->nfunc_imports + (uint32_t)wi);
		Emitw **ws = spx_xmalloc(sizeof *ws * ((size_t)o->nexports + 1));
		for (int k = 0; k < o->nexports; k++)
			ws[k] = &W;
		ws[o->nexports] = &W;
		emitw_export_wrappers(ws, export_index, export_names, pages * 65536u);
		free(ws);
		if (W.data->len)
			wasm_data(W.m, WASM_DATA_BASE, W.data->data, W.data->len);
		for (int i = 0; i < W.m->imports.len; i++)
			if (W.m->imports.items[i].type < 0)
				W.m->imports.items[i].min_pages = pages;
		emitw_metadata(&W, pages, W.imp_arg != UINT32_MAX ? args_base : 0);
		wasm_custom(W.m, "semaprax.rt", emitw_rt_wasm, emitw_rt_wasm_len);
		wasm_encode(W.m, out);
	}
	wasm_module_free(W.m);
	VEC_FREE(W.queue);
	VEC_FREE(W.ltypes);
	VEC_FREE(W.live);
	VEC_FREE(W.spare);
	VEC_FREE(W.olive);
	free(W.otemps);
	for (int k = 0; k < o->nexports; k++)
		free(export_names[k]);
	free(export_names);
	free(export_index);
	free(W.fidx);
	free(W.thunk);
	free(W.aux);
	free(W.cyc);
	free(W.slot_base);
	free(W.moved_flag);
	buf_free(W.data);
	free(W.interned);
	return !W.failed;
}
