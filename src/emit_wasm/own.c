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

/* ---- out-of-line release and clone of a heap-held value ----
 * A record's, class's or variant's value in a heap block (a Box's, an
 * element of a Vec, Map or Set) is released or cloned by a function of its
 * own, (address) -> (), emitted once per type: a type holding itself
 * through a Box or a collection (`variant Expr { Add { l: Box<Expr>, … } }`)
 * is then released by recursion at run time, not unfolded here; every
 * structural type ends in one. */

static bool
aux_type(Emitw *W, TypeId t)
{
	const TypeInfo *ti = sema_type_info(&W->S->types, t);
	return ti->kind == TY_NOMINAL;
}

static uint32_t
aux_index(Emitw *W, int clone, TypeId t)
{
	static const uint8_t i1[1] = { WT_I32 };
	for (int k = 0; k < W->naux; k++)   /* a linear search: few types, deterministic */
		if (W->aux[k].clone == clone && W->aux[k].t == t)
			return (uint32_t)W->m->nfunc_imports + (uint32_t)W->aux[k].wi;
	if (W->naux == W->capaux) {
		W->capaux = W->capaux ? W->capaux * 2 : 8;
		W->aux = spx_xrealloc(W->aux, sizeof *W->aux * (size_t)W->capaux);
	}
	int wi = wasm_func_add(W->m, wasm_type(W->m, i1, 1, NULL, 0));
	W->aux[W->naux].clone = clone;
	W->aux[W->naux].t = t;
	W->aux[W->naux].wi = wi;
	W->naux++;
	return (uint32_t)W->m->nfunc_imports + (uint32_t)wi;
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
		W->c = &code;
		W->ltypes.len = 0;
		W->live.len = 0;
		W->spare.len = 0;
		W->notemps = 0;
		W->olive.len = 0;
		W->depth = 0;
		W->nwparams = 1;
		if (x.clone)
			clone_mem_inline(W, 0, x.t);
		else
			release_mem_inline(W, 0, x.t);
		emitw_func_finish(W, x.wi, &code);
		buf_free(&code);
		W->c = NULL;
	}
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

/* The flat offset in a T of its first Box<T> (a list's `next`, a tree's
 * first child; a variant's cases have slots of their own, 0 when not the
 * value's), or -1. */
static int
self_box_off(Emitw *W, TypeId t)
{
	HeapPart hp[FLAT_MAX];
	int np = parts(W, t, hp);
	for (int k = 0; k < np; k++)
		if (hp[k].kind == TY_BOX && emitw_elem_ty(W, hp[k].t) == t)
			return hp[k].off;
	return -1;
}

/* Releases the Box whose address is in local p: its value, then its block.
 * A Box<T> whose T holds a Box<T> is released along that chain in a loop
 * (local p walks it): each node's Box<T> slot is saved and zeroed (its
 * release is then none), the node released and freed, then the next, so a
 * list of any length needs constant stack and a tree recurses on its other
 * children only; as in the C lane (emit_type.c rel_box_loop), nothing
 * observable runs at a release, so the order is free. */
static void
release_box(Emitw *W, uint32_t p, TypeId t)
{
	TypeId inner = emitw_elem_ty(W, t);
	int off = aux_type(W, inner) ? self_box_off(W, inner) : -1;
	if (off >= 0) {
		uint32_t next = emitw_locals(W, VT_I32, 1);
		emitw_open(W, OP_BLOCK, NULL, 0);
		emitw_open(W, OP_LOOP, NULL, 0);
		emitw_op_u32(W, OP_LOCAL_GET, p);
		emitw_op(W, OP_I32_EQZ);
		emitw_op_u32(W, OP_BR_IF, 1);
		emitw_mem_load(W, p, WT_I32, off);
		emitw_op_u32(W, OP_LOCAL_SET, next);
		emitw_op_u32(W, OP_LOCAL_GET, p);
		emitw_i64c(W, 0);
		emitw_op(W, OP_I64_STORE);
		wasm_u32(W->c, 3);
		wasm_u32(W->c, (uint32_t)off * 8u);
		release_mem(W, p, inner);
		emitw_op_u32(W, OP_LOCAL_GET, p);
		emitw_op_u32(W, OP_CALL, W->imp_free);
		emitw_op_u32(W, OP_LOCAL_GET, next);
		emitw_op_u32(W, OP_LOCAL_SET, p);
		emitw_op_u32(W, OP_BR, 0);
		emitw_end(W);
		emitw_end(W);
		return;
	}
	emitw_op_u32(W, OP_LOCAL_GET, p);
	emitw_open(W, OP_IF, NULL, 0);
	if (emitw_has_heap(W, inner))
		release_mem(W, p, inner);
	emitw_op_u32(W, OP_LOCAL_GET, p);
	emitw_op_u32(W, OP_CALL, W->imp_free);
	emitw_end(W);
}

/* Stores i64 0 into slot `slot` at the address in local a. */
static void
zero_slot(Emitw *W, uint32_t a, int slot)
{
	emitw_op_u32(W, OP_LOCAL_GET, a);
	emitw_i64c(W, 0);
	emitw_op(W, OP_I64_STORE);
	wasm_u32(W->c, 3);
	wasm_u32(W->c, (uint32_t)slot * 8u);
}

/* The flat offset of a Vec of type vec in a node (a T, the element or the
 * T of a Box<T> element) of that Vec (a tree's `kids: Vec<Node>`), or -1. */
static int
self_vec_off(Emitw *W, TypeId node, TypeId vec)
{
	if (!aux_type(W, node))
		return -1;
	HeapPart hp[FLAT_MAX];
	int np = parts(W, node, hp);
	for (int k = 0; k < np; k++)
		if (hp[k].kind == TY_VEC && hp[k].t == vec)
			return hp[k].off;
	return -1;
}

/* Releases the elements and the storage of the Vec of type vec in locals
 * p (address) and n (length), both then clobbered.  When its element (T,
 * or the T of a Box<T>) holds this Vec type, the release loops as the C
 * lane's rel_vec_loop (emit_type.c): every element but the last released,
 * then the last's own Vec saved and zeroed in it, the last released and
 * the storage freed, and the loop goes on with the saved Vec — constant
 * stack for a nesting through the last element of any depth. */
static void
release_vec(Emitw *W, uint32_t p, uint32_t n, TypeId vec)
{
	TypeId el = emitw_elem_ty(W, vec);
	const TypeInfo *ei = sema_type_info(&W->S->types, el);
	bool boxed = ei->kind == TY_BOX;
	TypeId node = boxed ? ei->args[0] : el;
	int off = self_vec_off(W, node, vec);
	if (off < 0) {
		emitw_release_elems(W, p, n, el);
		emitw_op_u32(W, OP_LOCAL_GET, p);
		emitw_op_u32(W, OP_CALL, W->imp_free);
		return;
	}
	uint32_t a = emitw_locals(W, VT_I32, 1), np = emitw_locals(W, VT_I32, 1), nn = emitw_locals(W, VT_I32, 1);
	emitw_open(W, OP_BLOCK, NULL, 0);
	emitw_open(W, OP_LOOP, NULL, 0);
	/* an empty or moved-out Vec: its storage (0 is none) and done */
	emitw_op_u32(W, OP_LOCAL_GET, n);
	emitw_op(W, OP_I32_EQZ);
	emitw_open(W, OP_IF, NULL, 0);
	emitw_op_u32(W, OP_LOCAL_GET, p);
	emitw_op_u32(W, OP_CALL, W->imp_free);
	emitw_op_u32(W, OP_BR, 2);
	emitw_end(W);
	emitw_op_u32(W, OP_LOCAL_GET, n);
	emitw_i32c(W, 1);
	emitw_op(W, OP_I32_SUB);
	emitw_op_u32(W, OP_LOCAL_SET, n);
	emitw_release_elems(W, p, n, el);
	emitw_elem_addr(W, p, n, emitw_elem_size(W, el), a);
	if (boxed) {
		emitw_mem_load(W, a, WT_I32, 0);
		emitw_op_u32(W, OP_LOCAL_SET, a);
	}
	emitw_i32c(W, 0);
	emitw_op_u32(W, OP_LOCAL_SET, np);
	emitw_i32c(W, 0);
	emitw_op_u32(W, OP_LOCAL_SET, nn);
	emitw_op_u32(W, OP_LOCAL_GET, a);
	emitw_open(W, OP_IF, NULL, 0);
	emitw_mem_load(W, a, WT_I32, off);
	emitw_op_u32(W, OP_LOCAL_SET, np);
	emitw_mem_load(W, a, WT_I32, off + 1);
	emitw_op_u32(W, OP_LOCAL_SET, nn);
	zero_slot(W, a, off);
	zero_slot(W, a, off + 1);
	release_mem(W, a, node);
	if (boxed) {
		emitw_op_u32(W, OP_LOCAL_GET, a);
		emitw_op_u32(W, OP_CALL, W->imp_free);
	}
	emitw_end(W);
	emitw_op_u32(W, OP_LOCAL_GET, p);
	emitw_op_u32(W, OP_CALL, W->imp_free);
	emitw_op_u32(W, OP_LOCAL_GET, np);
	emitw_op_u32(W, OP_LOCAL_SET, p);
	emitw_op_u32(W, OP_LOCAL_GET, nn);
	emitw_op_u32(W, OP_LOCAL_SET, n);
	emitw_op_u32(W, OP_BR, 0);
	emitw_end(W);
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
	if (emitw_has_heap(W, inner))
		clone_mem(W, p, inner);
	emitw_end(W);
}

/* Releases the Map/Set (keys, values, len, cap) in locals m…: keys, values, both blocks. */
static void
release_map(Emitw *W, uint32_t m, TypeId t)
{
	const TypeInfo *ti = sema_type_info(&W->S->types, t);
	emitw_release_elems(W, m, m + 2, ti->args[0]);
	if (ti->kind == TY_MAP)
		emitw_release_elems(W, m + 1, m + 2, ti->args[1]);
	emitw_op_u32(W, OP_LOCAL_GET, m);
	emitw_op_u32(W, OP_CALL, W->imp_free);
	emitw_op_u32(W, OP_LOCAL_GET, m + 1);
	emitw_op_u32(W, OP_CALL, W->imp_free);
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
		if (hp[k].kind == TY_VEC) {
			release_vec(W, p, n, hp[k].t);
			continue;
		}
		emitw_release_elems(W, p, n, emitw_elem_ty(W, hp[k].t));
		emitw_op_u32(W, OP_LOCAL_GET, p);
		emitw_op_u32(W, OP_CALL, W->imp_free);
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
		if (hp[k].kind == TY_VEC) {
			release_vec(W, at, at + 1, hp[k].t);   /* both zeroed below */
		} else {
			if (hp[k].kind != TY_STRING)
				emitw_release_elems(W, at, at + 1, emitw_elem_ty(W, hp[k].t));
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
	if (emitw_has_heap(W, elem))
		emitw_each_elem(W, p, len, elem, clone_mem);
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

bool
emitw_own(Emitw *W, const HirExpr *e, TypeId as)
{
	if (!emitw_expr_as(W, e, as))
		return false;
	if (!emitw_fresh(W, e) && emitw_has_heap(W, as))
		emitw_clone(W, as);
	return true;
}

uint32_t
emitw_hold_base(Emitw *W, TypeId t)
{
	uint8_t ty[FLAT_MAX];
	int n = emitw_flat(W, t, ty);
	uint32_t base = emitw_fresh_locals(W, ty, n);   /* never reused: the epilogue releases it again */
	emitw_store(W, base, n);
	if (W->notemps == W->capotemps) {
		W->capotemps = W->capotemps ? W->capotemps * 2 : 16;
		W->otemps = spx_xrealloc(W->otemps, sizeof *W->otemps * (size_t)W->capotemps);
	}
	W->otemps[W->notemps].base = base;
	W->otemps[W->notemps].t = t;
	VEC_PUSH(W->olive, W->notemps);
	W->notemps++;
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
