/*
 * own.c — owned heap values in the Wasm lane (emitw_int.h has the model):
 * an owned string is an (address, length) pair whose address lies in the
 * heap of the shared runtime (src/rt/heap.c, imported as rt_free,
 * rt_str_own…); a string in static data or the argument pages is owned
 * too, and releasing it does nothing (rt_free ignores addresses outside
 * the heap), nor does releasing a moved-from place (address 0).  Release
 * follows the HIR's cleanup plan as the C lane does: a block's owned slots
 * at its end in reverse order, a statement's temporaries after it, and in
 * the function's epilogue (after `ensures`) every owned slot and every
 * temporary, so an exit through `?` releases what its blocks did not.
 * Release zeroes the address, so a second release is none.
 */
#include "emitw_int.h"

#include "../rt/domains.h"

bool
emitw_has_heap(Emitw *W, TypeId t)
{
	uint8_t mask[FLAT_MAX];
	int n = emitw_heap_mask(W, t, mask);
	for (int i = 0; i < n; i++)
		if (mask[i])
			return true;
	return false;
}

bool
emitw_fresh(Emitw *W, const HirExpr *e)
{
	(void)W;
	if (e->lends)
		return false;   /* a branch value read in place from a lent parameter (HirExpr.lends) */
	switch (e->kind) {
	case HIR_LOCAL:
		return false;
	case HIR_FIELD:
		return e->u.field.take;
	default:
		return true;   /* a move, a call, an aggregate, a branch value, `?`, a literal */
	}
}

void
emitw_oom_check(Emitw *W)
{
	static const uint8_t i32t[1] = { WT_I32 };
	uint32_t t = emitw_locals(W, i32t, 1);
	emitw_op_u32(W, OP_LOCAL_TEE, t);
	emitw_op(W, OP_I32_EQZ);
	emitw_open(W, OP_IF, NULL, 0);
	emitw_text(W, "SEMAPRAX runtime failure: out of memory");
	emitw_fail(W, RT_EXIT_DOMAIN);
	emitw_end(W);
	emitw_op_u32(W, OP_LOCAL_GET, t);
}

/* ---- the heap parts of a type: where owned strings and Vec/Iter storage lie in flat(t) ---- */

typedef struct HeapPart {
	int off;        /* flat offset of the address */
	TyKind kind;    /* TY_STRING (also Bytes), TY_VEC, TY_ITER, TY_MAP, TY_SET or TY_BOX */
	TypeId t;       /* its type */
} HeapPart;

static int
parts_rec(Emitw *W, TypeId t, int off, HeapPart *out, int n, int level)
{
	const TypeInfo *ti = sema_type_info(&W->S->types, t);
	if (level > 16 || n >= FLAT_MAX)
		return n;
	switch (ti->kind) {
	case TY_STRING: case TY_BYTES: case TY_READER: case TY_VEC: case TY_ITER: case TY_MAP: case TY_SET: case TY_BOX:
		out[n].off = off;
		/* Bytes and a StdinReader: released and copied as text (a reader's copy
		 * has a full-size buffer of its own: own_string) */
		out[n].kind = ti->kind == TY_BYTES || ti->kind == TY_READER ? TY_STRING : ti->kind;
		out[n].t = t;
		return n + 1;
	case TY_NOMINAL: {
		Sym *s = sema_sym(W->S, (SymId)ti->decl);
		if (s->kind == SK_RECORD || s->kind == SK_CLASS) {
			for (int i = 0; i < s->nom->nfields; i++)
				n = parts_rec(W, sema_field_type(W->S, t, i), off + emitw_field_off(W, t, i), out, n, level + 1);
		} else if (s->kind == SK_VARIANT) {
			for (int c = 0; c < s->nom->ncases; c++)
				for (int i = 0; i < s->nom->cases[c].nfields; i++)
					n = parts_rec(W, sema_case_field_type(W->S, t, c, i), off + emitw_case_off(W, t, c, i), out, n, level + 1);
		}
		return n;
	}
	default:
		return n;
	}
}

static int
parts(Emitw *W, TypeId t, HeapPart *out)
{
	return parts_rec(W, t, 0, out, 0, 0);
}

TypeId
emitw_elem_ty(Emitw *W, TypeId vec)
{
	return sema_type_info(&W->S->types, vec)->args[0];
}

int
emitw_elem_size(Emitw *W, TypeId elem)
{
	return 8 * emitw_flat(W, elem, NULL);
}

static const uint8_t VT_I32[1] = { WT_I32 };

void
emitw_mem_load(Emitw *W, uint32_t a, uint8_t vt, int slot)
{
	emitw_op_u32(W, OP_LOCAL_GET, a);
	switch (vt) {
	case WT_I64: emitw_op(W, OP_I64_LOAD); wasm_u32(W->c, 3); break;
	case WT_F64: emitw_op(W, OP_F64_LOAD); wasm_u32(W->c, 3); break;
	case WT_F32: emitw_op(W, OP_F32_LOAD); wasm_u32(W->c, 2); break;
	default: emitw_op(W, OP_I32_LOAD); wasm_u32(W->c, 2); break;
	}
	wasm_u32(W->c, (uint32_t)slot * 8u);
}

/* Stores local v (of type vt) into slot `slot` at the address in local a. */
static void
mem_store(Emitw *W, uint32_t a, uint8_t vt, int slot, uint32_t v)
{
	emitw_op_u32(W, OP_LOCAL_GET, a);
	emitw_op_u32(W, OP_LOCAL_GET, v);
	switch (vt) {
	case WT_I64: emitw_op(W, OP_I64_STORE); wasm_u32(W->c, 3); break;
	case WT_F64: emitw_op(W, OP_F64_STORE); wasm_u32(W->c, 3); break;
	case WT_F32: emitw_op(W, OP_F32_STORE); wasm_u32(W->c, 2); break;
	default:   /* zero-extended: the whole slot is defined (the runtime compares 8-byte keys) */
		emitw_op(W, OP_I64_EXTEND_I32_U);
		emitw_op(W, OP_I64_STORE);
		wasm_u32(W->c, 3);
		break;
	}
	wasm_u32(W->c, (uint32_t)slot * 8u);
}

void
emitw_elem_load(Emitw *W, uint32_t a, TypeId t)
{
	uint8_t ty[FLAT_MAX];
	int n = emitw_flat(W, t, ty);
	for (int k = 0; k < n; k++)
		emitw_mem_load(W, a, ty[k], k);
}

void
emitw_elem_store(Emitw *W, uint32_t a, TypeId t)
{
	uint8_t ty[FLAT_MAX];
	int n = emitw_flat(W, t, ty);
	uint32_t v = emitw_locals(W, ty, n);
	emitw_store(W, v, n);
	for (int k = 0; k < n; k++)
		mem_store(W, a, ty[k], k, v + (uint32_t)k);
}

void
emitw_elem_zero(Emitw *W, uint32_t a, TypeId t)
{
	uint8_t ty[FLAT_MAX];
	int n = emitw_flat(W, t, ty);
	for (int k = 0; k < n; k++) {
		emitw_op_u32(W, OP_LOCAL_GET, a);
		emitw_i64c(W, 0);
		emitw_op(W, OP_I64_STORE);
		wasm_u32(W->c, 3);
		wasm_u32(W->c, (uint32_t)k * 8u);
	}
}

/* local addr = ptr + i * esz */
void
emitw_elem_addr(Emitw *W, uint32_t ptr, uint32_t i, int esz, uint32_t addr)
{
	emitw_op_u32(W, OP_LOCAL_GET, ptr);
	emitw_op_u32(W, OP_LOCAL_GET, i);
	emitw_i32c(W, esz);
	emitw_op(W, OP_I32_MUL);
	emitw_op(W, OP_I32_ADD);
	emitw_op_u32(W, OP_LOCAL_SET, addr);
}

static void release_mem_inline(Emitw *W, uint32_t a, TypeId t);
static void clone_mem_inline(Emitw *W, uint32_t a, TypeId t);

/* ---- walks without recursion (the C lane's model: emit_type.c) ----
 * A value nests without bound only through a type that can hold itself
 * (cyclic), and only through a heap part: a Box, a Vec's or Iter's
 * storage, a Map's values.  The release or copy of such a block of
 * elements is a job (run_job): run at once outside a job, else put on
 * the module's job list (globals g_jp, g_jn, g_jc: address, count,
 * capacity of 12-byte entries (table slot, address, count) in the heap)
 * and run by the outermost call in a loop, which frees the list when it
 * is empty (so the leak check sees nothing).  So no shape of value needs
 * more Wasm stack than its type's nesting; other heap parts are walked
 * by direct calls.  No user code runs at a release or copy: the order of
 * the blocks is free. */

/* Can a value of type t hold another value of type t (hir_type_cyclic,
 * shared with the C lane)?  Memoised per type. */
static bool
cyclic(Emitw *W, TypeId t)
{
	if ((int)t < W->ncyc && W->cyc[t])
		return W->cyc[t] == 2;
	bool yes = hir_type_cyclic(W->S, t);
	if ((int)t >= W->ncyc) {
		int n = W->S->types.len > (int)t ? W->S->types.len : (int)t + 1;
		W->cyc = spx_xrealloc(W->cyc, (size_t)n);
		memset(W->cyc + W->ncyc, 0, (size_t)(n - W->ncyc));
		W->ncyc = n;
	}
	W->cyc[t] = yes ? 2 : 1;
	return yes;
}

static struct EmitwAux *aux_entry(Emitw *W, int clone, TypeId t);

/* Runs (or queues) job kind (2: release the elements of type t of the
 * block in local p, count in local n — UINT32_MAX: one — then the block;
 * 3: clone them in place). */
static void
run_job(Emitw *W, int kind, TypeId t, uint32_t p, uint32_t n)
{
	static const uint8_t i3[3] = { WT_I32, WT_I32, WT_I32 };
	if (!W->jobs) {
		W->jobs = true;
		W->g_jp = wasm_global_add(W->m, WT_I32, true, 0);
		W->g_jn = wasm_global_add(W->m, WT_I32, true, 0);
		W->g_jc = wasm_global_add(W->m, WT_I32, true, 0);
		W->g_jin = wasm_global_add(W->m, WT_I32, true, 0);
		W->run_wi = wasm_func_add(W->m, wasm_type(W->m, i3, 3, NULL, 0));
	}
	emitw_i32c(W, (int32_t)aux_entry(W, kind, t)->slot);
	emitw_op_u32(W, OP_LOCAL_GET, p);
	if (n == UINT32_MAX)
		emitw_i32c(W, 1);
	else
		emitw_op_u32(W, OP_LOCAL_GET, n);
	emitw_op_u32(W, OP_CALL, (uint32_t)W->m->nfunc_imports + (uint32_t)W->run_wi);
}

static void
job_field(Emitw *W, uint8_t op, uint32_t a, int off)
{
	emitw_op_u32(W, OP_LOCAL_GET, a);
	emitw_op(W, op);
	wasm_u32(W->c, 2);
	wasm_u32(W->c, (uint32_t)off);
}

/* local a = g_jp + g_jn * 12 */
static void
job_addr(Emitw *W, uint32_t a)
{
	emitw_op_u32(W, OP_GLOBAL_GET, W->g_jp);
	emitw_op_u32(W, OP_GLOBAL_GET, W->g_jn);
	emitw_i32c(W, 12);
	emitw_op(W, OP_I32_MUL);
	emitw_op(W, OP_I32_ADD);
	emitw_op_u32(W, OP_LOCAL_SET, a);
}

/* The run function (slot, address, count) -> (): inside a job it appends
 * the job (growing the list); outside, it runs it and then the list. */
static void
run_func(Emitw *W)
{
	static const uint8_t i2[2] = { WT_I32, WT_I32 };
	Buf code = {0};
	emitw_body_begin(W, &code);
	W->nwparams = 3;
	uint32_t a = emitw_locals(W, VT_I32, 1);
	int jt = wasm_type(W->m, i2, 2, NULL, 0);
	emitw_op_u32(W, OP_GLOBAL_GET, W->g_jin);
	emitw_open(W, OP_IF, NULL, 0);
	emitw_op_u32(W, OP_GLOBAL_GET, W->g_jn);
	emitw_op_u32(W, OP_GLOBAL_GET, W->g_jc);
	emitw_op(W, OP_I32_GE_U);
	emitw_open(W, OP_IF, NULL, 0);
	/* capacity 2c + 64 */
	emitw_op_u32(W, OP_GLOBAL_GET, W->g_jc);
	emitw_i32c(W, 2);
	emitw_op(W, OP_I32_MUL);
	emitw_i32c(W, 64);
	emitw_op(W, OP_I32_ADD);
	emitw_op_u32(W, OP_LOCAL_SET, a);
	emitw_op_u32(W, OP_GLOBAL_GET, W->g_jp);
	emitw_op_u32(W, OP_GLOBAL_GET, W->g_jn);
	emitw_i32c(W, 12);
	emitw_op(W, OP_I32_MUL);
	emitw_op_u32(W, OP_LOCAL_GET, a);
	emitw_i32c(W, 12);
	emitw_op(W, OP_I32_MUL);
	emitw_op_u32(W, OP_CALL, W->imp_block_grow);
	emitw_oom_check(W);
	emitw_op_u32(W, OP_GLOBAL_SET, W->g_jp);
	emitw_op_u32(W, OP_LOCAL_GET, a);
	emitw_op_u32(W, OP_GLOBAL_SET, W->g_jc);
	emitw_end(W);
	job_addr(W, a);
	for (uint32_t k = 0; k < 3; k++) {
		emitw_op_u32(W, OP_LOCAL_GET, a);
		emitw_op_u32(W, OP_LOCAL_GET, k);
		emitw_op(W, OP_I32_STORE);
		wasm_u32(W->c, 2);
		wasm_u32(W->c, 4 * k);
	}
	emitw_op_u32(W, OP_GLOBAL_GET, W->g_jn);
	emitw_i32c(W, 1);
	emitw_op(W, OP_I32_ADD);
	emitw_op_u32(W, OP_GLOBAL_SET, W->g_jn);
	emitw_op(W, OP_RETURN);
	emitw_end(W);
	emitw_i32c(W, 1);
	emitw_op_u32(W, OP_GLOBAL_SET, W->g_jin);
	emitw_op_u32(W, OP_LOCAL_GET, 1);
	emitw_op_u32(W, OP_LOCAL_GET, 2);
	emitw_op_u32(W, OP_LOCAL_GET, 0);
	emitw_op_u32(W, OP_CALL_INDIRECT, (uint32_t)jt);
	wasm_u32(W->c, 0);   /* table 0 */
	emitw_open(W, OP_BLOCK, NULL, 0);
	emitw_open(W, OP_LOOP, NULL, 0);
	emitw_op_u32(W, OP_GLOBAL_GET, W->g_jn);
	emitw_op(W, OP_I32_EQZ);
	emitw_op_u32(W, OP_BR_IF, 1);
	emitw_op_u32(W, OP_GLOBAL_GET, W->g_jn);
	emitw_i32c(W, 1);
	emitw_op(W, OP_I32_SUB);
	emitw_op_u32(W, OP_GLOBAL_SET, W->g_jn);
	job_addr(W, a);
	job_field(W, OP_I32_LOAD, a, 4);
	job_field(W, OP_I32_LOAD, a, 8);
	job_field(W, OP_I32_LOAD, a, 0);
	emitw_op_u32(W, OP_CALL_INDIRECT, (uint32_t)jt);
	wasm_u32(W->c, 0);
	emitw_op_u32(W, OP_BR, 0);
	emitw_end(W);
	emitw_end(W);
	/* done: the list is freed (the leak check counts heap blocks) */
	emitw_i32c(W, 0);
	emitw_op_u32(W, OP_GLOBAL_SET, W->g_jin);
	emitw_op_u32(W, OP_GLOBAL_GET, W->g_jp);
	emitw_op_u32(W, OP_CALL, W->imp_free);
	emitw_i32c(W, 0);
	emitw_op_u32(W, OP_GLOBAL_SET, W->g_jp);
	emitw_i32c(W, 0);
	emitw_op_u32(W, OP_GLOBAL_SET, W->g_jc);
	emitw_func_finish(W, W->run_wi, &code);
	buf_free(&code);
	W->c = NULL;
	W->run_done = true;
}

/* ---- out-of-line release and clone of a heap-held value ----
 * A record's, class's or variant's value in a heap block (a Box's, an
 * element of a Vec, Map or Set) is released or cloned by a function of its
 * own, (address) -> (), emitted once per type: a type holding itself
 * through a Box or a collection (`variant Expr { Add { l: Box<Expr>, … } }`)
 * is then not unfolded here (and walked by jobs at run time, run_job);
 * every structural type ends in one. */

static bool
aux_type(Emitw *W, TypeId t)
{
	const TypeInfo *ti = sema_type_info(&W->S->types, t);
	return ti->kind == TY_NOMINAL;
}

/* The entry of the out-of-line function kind (0 release, 1 clone, (address)
 * -> (); 2 a release job, 3 a clone job, (address, count) -> () with a
 * table slot: run_job) of type t, added on first need. */
static struct EmitwAux *
aux_entry(Emitw *W, int clone, TypeId t)
{
	static const uint8_t i2[2] = { WT_I32, WT_I32 };
	for (int k = 0; k < W->naux; k++)   /* a linear search: few types, deterministic */
		if (W->aux[k].clone == clone && W->aux[k].t == t)
			return &W->aux[k];
	if (W->naux == W->capaux) {
		W->capaux = W->capaux ? W->capaux * 2 : 8;
		W->aux = spx_xrealloc(W->aux, sizeof *W->aux * (size_t)W->capaux);
	}
	int wi = wasm_func_add(W->m, wasm_type(W->m, i2, clone >= 2 ? 2 : 1, NULL, 0));
	struct EmitwAux *x = &W->aux[W->naux++];
	x->clone = clone;
	x->t = t;
	x->wi = wi;
	x->slot = clone >= 2 ? wasm_table_add(W->m, (uint32_t)W->m->nfunc_imports + (uint32_t)wi) : 0;
	return x;
}

static uint32_t
aux_index(Emitw *W, int clone, TypeId t)
{
	return (uint32_t)W->m->nfunc_imports + (uint32_t)aux_entry(W, clone, t)->wi;
}

/* Releases the heap parts of the value of type t in memory at local a. */
static void
release_mem(Emitw *W, uint32_t a, TypeId t)
{
	if (!aux_type(W, t)) {
		release_mem_inline(W, a, t);
		return;
	}
	emitw_op_u32(W, OP_LOCAL_GET, a);
	emitw_op_u32(W, OP_CALL, aux_index(W, 0, t));
}

/* Clones, in place, the heap parts of the value of type t in memory at local a. */
static void
clone_mem(Emitw *W, uint32_t a, TypeId t)
{
	if (!aux_type(W, t)) {
		clone_mem_inline(W, a, t);
		return;
	}
	emitw_op_u32(W, OP_LOCAL_GET, a);
	emitw_op_u32(W, OP_CALL, aux_index(W, 1, t));
}

void
emitw_mem_funcs(Emitw *W)
{
	while (W->auxdone < W->naux && !W->failed) {
		struct EmitwAux x = W->aux[W->auxdone++];
		Buf code = {0};
		emitw_body_begin(W, &code);
		W->nwparams = x.clone >= 2 ? 2 : 1;
		if (x.clone == 3) {
			emitw_each_elem(W, 0, 1, x.t, clone_mem);
		} else if (x.clone == 2) {
			emitw_release_elems(W, 0, 1, x.t);
			emitw_op_u32(W, OP_LOCAL_GET, 0);
			emitw_op_u32(W, OP_CALL, W->imp_free);
		} else if (x.clone) {
			clone_mem_inline(W, 0, x.t);
		} else {
			release_mem_inline(W, 0, x.t);
		}
		emitw_func_finish(W, x.wi, &code);
		buf_free(&code);
		W->c = NULL;
	}
	if (W->jobs && !W->run_done && !W->failed)
		run_func(W);
}

void
emitw_each_elem(Emitw *W, uint32_t ptr, uint32_t len, TypeId t, void (*fn)(Emitw *, uint32_t, TypeId))
{
	uint32_t i = emitw_locals(W, VT_I32, 1), a = emitw_locals(W, VT_I32, 1);
	emitw_i32c(W, 0);
	emitw_op_u32(W, OP_LOCAL_SET, i);
	emitw_open(W, OP_BLOCK, NULL, 0);
	emitw_open(W, OP_LOOP, NULL, 0);
	emitw_op_u32(W, OP_LOCAL_GET, i);
	emitw_op_u32(W, OP_LOCAL_GET, len);
	emitw_op(W, OP_I32_GE_U);
	emitw_op_u32(W, OP_BR_IF, 1);
	emitw_elem_addr(W, ptr, i, emitw_elem_size(W, t), a);
	fn(W, a, t);
	emitw_op_u32(W, OP_LOCAL_GET, i);
	emitw_i32c(W, 1);
	emitw_op(W, OP_I32_ADD);
	emitw_op_u32(W, OP_LOCAL_SET, i);
	emitw_op_u32(W, OP_BR, 0);
	emitw_end(W);
	emitw_end(W);
}

void
emitw_release_elems(Emitw *W, uint32_t ptr, uint32_t len, TypeId t)
{
	if (emitw_has_heap(W, t))
		emitw_each_elem(W, ptr, len, t, release_mem);
}

/* Releases the Box whose address is in local p: its value, then its block
 * (a job when its value's type is cyclic: run_job). */
static void
release_box(Emitw *W, uint32_t p, TypeId t)
{
	TypeId inner = emitw_elem_ty(W, t);
	emitw_op_u32(W, OP_LOCAL_GET, p);
	emitw_open(W, OP_IF, NULL, 0);
	if (emitw_has_heap(W, inner) && cyclic(W, inner)) {
		run_job(W, 2, inner, p, UINT32_MAX);
	} else {
		if (emitw_has_heap(W, inner))
			release_mem(W, p, inner);
		emitw_op_u32(W, OP_LOCAL_GET, p);
		emitw_op_u32(W, OP_CALL, W->imp_free);
	}
	emitw_end(W);
}

/* Releases the n elements of type el of the block in local p (a Vec's,
 * an Iter's or a Map's values; count in local n), then the block: a job
 * when el is cyclic and there are elements (run_job). */
static void
release_store(Emitw *W, uint32_t p, uint32_t n, TypeId el)
{
	if (!emitw_has_heap(W, el) || !cyclic(W, el)) {
		emitw_release_elems(W, p, n, el);
		emitw_op_u32(W, OP_LOCAL_GET, p);
		emitw_op_u32(W, OP_CALL, W->imp_free);
		return;
	}
	emitw_op_u32(W, OP_LOCAL_GET, n);
	emitw_open(W, OP_IF, NULL, 0);
	run_job(W, 2, el, p, n);
	emitw_op(W, OP_ELSE);
	emitw_op_u32(W, OP_LOCAL_GET, p);
	emitw_op_u32(W, OP_CALL, W->imp_free);
	emitw_end(W);
}

/* Clones the Box whose address is in local p into p (a new block, its value cloned). */
static void
clone_box(Emitw *W, uint32_t p, TypeId t)
{
	TypeId inner = emitw_elem_ty(W, t);
	int esz = emitw_elem_size(W, inner);
	emitw_op_u32(W, OP_LOCAL_GET, p);
	emitw_open(W, OP_IF, NULL, 0);
	emitw_op_u32(W, OP_LOCAL_GET, p);
	emitw_i32c(W, esz);
	emitw_i32c(W, esz);
	emitw_op_u32(W, OP_CALL, W->imp_block_clone);
	emitw_oom_check(W);
	emitw_op_u32(W, OP_LOCAL_SET, p);
	if (emitw_has_heap(W, inner) && cyclic(W, inner))
		run_job(W, 3, inner, p, UINT32_MAX);
	else if (emitw_has_heap(W, inner))
		clone_mem(W, p, inner);
	emitw_end(W);
}

/* Releases the Map/Set (keys, values, len, cap) in locals m…: keys, values, both blocks. */
static void
release_map(Emitw *W, uint32_t m, TypeId t)
{
	const TypeInfo *ti = sema_type_info(&W->S->types, t);
	emitw_release_elems(W, m, m + 2, ti->args[0]);
	emitw_op_u32(W, OP_LOCAL_GET, m);
	emitw_op_u32(W, OP_CALL, W->imp_free);
	if (ti->kind == TY_MAP) {
		release_store(W, m + 1, m + 2, ti->args[1]);
	} else {
		emitw_op_u32(W, OP_LOCAL_GET, m + 1);
		emitw_op_u32(W, OP_CALL, W->imp_free);
	}
}

/* Clones the Map/Set in locals m… in place: both blocks and their keys and values. */
static void
clone_map(Emitw *W, uint32_t m, TypeId t)
{
	const TypeInfo *ti = sema_type_info(&W->S->types, t);
	emitw_clone_storage(W, m, m + 2, m + 3, ti->args[0]);
	if (ti->kind == TY_MAP)
		emitw_clone_storage(W, m + 1, m + 2, m + 3, ti->args[1]);
}

static void
release_mem_inline(Emitw *W, uint32_t a, TypeId t)
{
	HeapPart hp[FLAT_MAX];
	int np = parts(W, t, hp);
	for (int k = 0; k < np; k++) {
		if (hp[k].kind == TY_STRING) {
			emitw_mem_load(W, a, WT_I32, hp[k].off);
			emitw_op_u32(W, OP_CALL, W->imp_free);
			continue;
		}
		if (hp[k].kind == TY_BOX) {
			uint32_t p = emitw_locals(W, VT_I32, 1);
			emitw_mem_load(W, a, WT_I32, hp[k].off);
			emitw_op_u32(W, OP_LOCAL_SET, p);
			release_box(W, p, hp[k].t);
			continue;
		}
		if (hp[k].kind == TY_MAP || hp[k].kind == TY_SET) {
			uint32_t m = emitw_locals(W, (const uint8_t[]){ WT_I32, WT_I32, WT_I32, WT_I32 }, 4);
			for (int j = 0; j < 4; j++) {
				emitw_mem_load(W, a, WT_I32, hp[k].off + j);
				emitw_op_u32(W, OP_LOCAL_SET, m + (uint32_t)j);
			}
			release_map(W, m, hp[k].t);
			continue;
		}
		uint32_t p = emitw_locals(W, VT_I32, 1), n = emitw_locals(W, VT_I32, 1);
		emitw_mem_load(W, a, WT_I32, hp[k].off);
		emitw_op_u32(W, OP_LOCAL_SET, p);
		emitw_mem_load(W, a, WT_I32, hp[k].off + 1);
		emitw_op_u32(W, OP_LOCAL_SET, n);
		release_store(W, p, n, emitw_elem_ty(W, hp[k].t));   /* a Vec's or Iter's */
	}
}

void
emitw_release(Emitw *W, uint32_t base, TypeId t)
{
	HeapPart hp[FLAT_MAX];
	int np = parts(W, t, hp);
	for (int k = 0; k < np; k++) {
		uint32_t at = base + (uint32_t)hp[k].off;
		if (hp[k].kind == TY_BOX) {
			release_box(W, at, hp[k].t);
			emitw_i32c(W, 0);
			emitw_op_u32(W, OP_LOCAL_SET, at);
			continue;
		}
		if (hp[k].kind == TY_MAP || hp[k].kind == TY_SET) {
			release_map(W, at, hp[k].t);
			for (int j = 0; j < 3; j++) {
				emitw_i32c(W, 0);
				emitw_op_u32(W, OP_LOCAL_SET, at + (uint32_t)j);
			}
			continue;
		}
		/* a moved-out value is 0: nothing to do, and V8 folds the test away
		 * after a move (`v = vec_set(v, …)` calls no rt_free) */
		emitw_op_u32(W, OP_LOCAL_GET, at);
		emitw_open(W, OP_IF, NULL, 0);
		if (hp[k].kind != TY_STRING) {
			release_store(W, at, at + 1, emitw_elem_ty(W, hp[k].t));   /* both zeroed below */
		} else {
			emitw_op_u32(W, OP_LOCAL_GET, at);
			emitw_op_u32(W, OP_CALL, W->imp_free);
		}
		emitw_end(W);
		emitw_i32c(W, 0);
		emitw_op_u32(W, OP_LOCAL_SET, at);
		if (hp[k].kind != TY_STRING) {
			emitw_i32c(W, 0);
			emitw_op_u32(W, OP_LOCAL_SET, at + 1);
		}
	}
}

void
emitw_zero_heap(Emitw *W, uint32_t base, TypeId t)
{
	uint8_t mask[FLAT_MAX];
	int n = emitw_heap_mask(W, t, mask);
	for (int i = 0; i < n; i++) {
		if (!mask[i])
			continue;
		emitw_i32c(W, 0);
		emitw_op_u32(W, OP_LOCAL_SET, base + (uint32_t)i);
	}
}

/* The owned copy of string (p, n) of type t in locals, into local p (0
 * stays 0).  A StdinReader's copy gets a buffer of RT_LIMIT_STDIN_CHUNK
 * bytes of its own (the C lane's spx_stream_clone): a later
 * stdin_stream_next reads into it. */
static void
own_string(Emitw *W, uint32_t p, uint32_t n, TypeId t)
{
	bool reader = sema_type_info(&W->S->types, t)->kind == TY_READER;
	emitw_op_u32(W, OP_LOCAL_GET, p);
	emitw_open(W, OP_IF, VT_I32, 1);
	emitw_op_u32(W, OP_LOCAL_GET, p);
	if (reader)
		emitw_i32c(W, RT_LIMIT_STDIN_CHUNK);
	emitw_op_u32(W, OP_LOCAL_GET, n);
	emitw_op_u32(W, OP_CALL, reader ? W->imp_block_clone : W->imp_str_own);
	emitw_oom_check(W);
	emitw_op(W, OP_ELSE);
	emitw_i32c(W, 0);
	emitw_end(W);
	emitw_op_u32(W, OP_LOCAL_SET, p);
}

void
emitw_block_call(Emitw *W, uint32_t fn, uint32_t p, uint32_t n, uint32_t m, int esz)
{
	emitw_op_u32(W, OP_LOCAL_GET, p);
	emitw_op_u32(W, OP_LOCAL_GET, n);
	emitw_i32c(W, esz);
	emitw_op(W, OP_I32_MUL);
	emitw_op_u32(W, OP_LOCAL_GET, m);
	emitw_i32c(W, esz);
	emitw_op(W, OP_I32_MUL);
	emitw_op_u32(W, OP_CALL, fn);
	emitw_oom_check(W);
	emitw_op_u32(W, OP_LOCAL_SET, p);
}

/* A copy of the storage of the Vec (p, len, cap) in locals, into p; then its elements cloned. */
void
emitw_clone_storage(Emitw *W, uint32_t p, uint32_t len, uint32_t cap, TypeId elem)
{
	emitw_block_call(W, W->imp_block_clone, p, cap, len, emitw_elem_size(W, elem));
	if (!emitw_has_heap(W, elem))
		return;
	if (!cyclic(W, elem)) {
		emitw_each_elem(W, p, len, elem, clone_mem);
		return;
	}
	emitw_op_u32(W, OP_LOCAL_GET, len);
	emitw_open(W, OP_IF, NULL, 0);
	run_job(W, 3, elem, p, len);
	emitw_end(W);
}

static void
clone_mem_inline(Emitw *W, uint32_t a, TypeId t)
{
	HeapPart hp[FLAT_MAX];
	int np = parts(W, t, hp);
	for (int k = 0; k < np; k++) {
		int m = hp[k].kind == TY_BOX ? 1 : hp[k].kind == TY_STRING ? 2 : hp[k].kind == TY_MAP || hp[k].kind == TY_SET ? 4 : 3;
		uint32_t v = emitw_locals(W, (const uint8_t[]){ WT_I32, WT_I32, WT_I32, WT_I32 }, m);
		for (int j = 0; j < m; j++) {
			emitw_mem_load(W, a, WT_I32, hp[k].off + j);
			emitw_op_u32(W, OP_LOCAL_SET, v + (uint32_t)j);
		}
		if (hp[k].kind == TY_BOX) {
			clone_box(W, v, hp[k].t);
		} else if (hp[k].kind == TY_STRING) {
			own_string(W, v, v + 1, hp[k].t);
		} else if (m == 4) {
			clone_map(W, v, hp[k].t);
			mem_store(W, a, WT_I32, hp[k].off + 1, v + 1);
		} else {
			emitw_clone_storage(W, v, v + 1, v + 2, emitw_elem_ty(W, hp[k].t));
		}
		mem_store(W, a, WT_I32, hp[k].off, v);
	}
}

void
emitw_clone(Emitw *W, TypeId t)
{
	HeapPart hp[FLAT_MAX];
	uint8_t ty[FLAT_MAX];
	int n = emitw_flat(W, t, ty);
	int np = parts(W, t, hp);
	uint32_t base = emitw_locals(W, ty, n);   /* n >= 2: fresh locals */
	emitw_store(W, base, n);
	for (int k = 0; k < np; k++) {
		uint32_t at = base + (uint32_t)hp[k].off;
		if (hp[k].kind == TY_BOX)
			clone_box(W, at, hp[k].t);
		else if (hp[k].kind == TY_STRING)
			own_string(W, at, at + 1, hp[k].t);
		else if (hp[k].kind == TY_MAP || hp[k].kind == TY_SET)
			clone_map(W, at, hp[k].t);
		else
			emitw_clone_storage(W, at, at + 1, at + 2, emitw_elem_ty(W, hp[k].t));
	}
	emitw_load(W, base, n);
}

/* Is e operand i < F->last of the call in flight (LANGUAGE.md §0.1: a `?`
 * in a later operand leaves while this one is not consumed yet)? */
static bool
flight_holds(const EmitwFlight *F, const HirExpr *e)
{
	for (int i = 0; F && i < F->last; i++)
		if (F->ops[i] == e)
			return true;
	return false;
}

bool
emitw_own(Emitw *W, const HirExpr *e, TypeId as)
{
	if (!emitw_expr_as(W, e, as))
		return false;
	if (!emitw_fresh(W, e) && emitw_has_heap(W, as))
		emitw_clone(W, as);
	if (flight_holds(W->fly, e) && emitw_has_heap(W, as)) {
		emitw_hold(W, as);
		W->otemps[W->notemps - 1].fly = W->fly->id;
	}
	return true;
}

void
emitw_flight_open(Emitw *W, EmitwFlight *F, HirExpr *const *ops, int n)
{
	F->ops = ops;
	F->last = hir_last_try(ops, n);
	F->id = ++W->fly_seq;
	F->from = W->notemps;
	F->outer = W->fly;
	W->fly = F;
}

void
emitw_flight_close(Emitw *W, EmitwFlight *F)
{
	for (int k = F->from; k < W->notemps; k++)
		if (W->otemps[k].fly == F->id)
			emitw_zero_heap(W, W->otemps[k].base, W->otemps[k].t);
	W->fly = F->outer;
}

static void
otemp_add(Emitw *W, uint32_t base, TypeId t)
{
	if (W->notemps == W->capotemps) {
		W->capotemps = W->capotemps ? W->capotemps * 2 : 16;
		W->otemps = spx_xrealloc(W->otemps, sizeof *W->otemps * (size_t)W->capotemps);
	}
	W->otemps[W->notemps].base = base;
	W->otemps[W->notemps].t = t;
	W->otemps[W->notemps].fly = 0;
	W->notemps++;
}

uint32_t
emitw_hold_base(Emitw *W, TypeId t)
{
	uint8_t ty[FLAT_MAX];
	int n = emitw_flat(W, t, ty);
	uint32_t base = emitw_fresh_locals(W, ty, n);   /* never reused: the epilogue releases it again */
	emitw_store(W, base, n);
	VEC_PUSH(W->olive, W->notemps);
	otemp_add(W, base, t);
	return base;
}

uint32_t
emitw_epilogue_temp(Emitw *W, TypeId t)
{
	uint8_t ty[FLAT_MAX];
	int n = emitw_flat(W, t, ty);
	uint32_t base = emitw_fresh_locals(W, ty, n);
	otemp_add(W, base, t);
	return base;
}

void
emitw_hold(Emitw *W, TypeId t)
{
	uint32_t base = emitw_hold_base(W, t);
	emitw_load(W, base, emitw_flat(W, t, NULL));
}

bool
emitw_lend(Emitw *W, const HirExpr *e)
{
	if (!emitw_expr(W, e))
		return false;
	TypeId t = emitw_ty(W, e->type);
	if (e->kind != HIR_STRING && emitw_fresh(W, e) && emitw_has_heap(W, t))
		emitw_hold(W, t);
	return true;
}

int
emitw_otemps_mark(Emitw *W)
{
	return W->olive.len;
}

void
emitw_otemps_release(Emitw *W, int mark)
{
	while (W->olive.len > mark) {
		int k = W->olive.items[--W->olive.len];
		emitw_release(W, W->otemps[k].base, W->otemps[k].t);
	}
}

void
emitw_epilogue(Emitw *W)
{
	const HirInst *in = &W->M->insts[W->inst];
	for (int i = W->f->nlocals - 1; i >= 0; i--)
		if (in->slot_owned[i] && emitw_has_heap(W, in->slot_type[i]))
			emitw_release(W, W->slot_base[i], in->slot_type[i]);
	for (int k = W->notemps - 1; k >= 0; k--)
		emitw_release(W, W->otemps[k].base, W->otemps[k].t);
}
