/*
 * report.c — a contract failure's report in the Wasm lane (LANGUAGE.md §4.7,
 * §0.8): the checks of a function's `requires`/`ensures` clauses and, when
 * one is false, hir_contract_head's lines then `<name> = <value>, …` through
 * spx.text, exit 70 — the text of src/interp/detail.c and the native lane's
 * src/emit_c/rt/contract.h, value by value (docs/DECISIONS.md: scalars as
 * source literals, data by kind and length or count, `<moved>` by the
 * per-parameter flag emitw_moved_params keeps).
 */
#include "emitw_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "../rt/domains.h"

/* Appends the decimal text of the integer value on the stack (type k) to the report. */
static void
decimal_text(Emitw *W, TyKind k)
{
	if (k == TY_I32)
		emitw_op(W, OP_I64_EXTEND_I32_S);
	else if (k == TY_U8)
		emitw_op(W, OP_I64_EXTEND_I32_U);
	emitw_decimal(W, k == TY_I64 || k == TY_I32);
	emitw_op_u32(W, OP_CALL, W->imp_text);
}

/* Appends the char value on the stack as a source literal: the runtime's
 * rt_char_literal (src/rt/text.c, as the formatter and the native contract
 * report) writes it into the scratch buffer, at most 15 bytes. */
static void
char_text(Emitw *W)
{
	static const uint8_t i32t[1] = { WT_I32 };
	uint32_t c = emitw_locals(W, i32t, 1);
	emitw_op_u32(W, OP_LOCAL_SET, c);
	emitw_i32c(W, (int32_t)WASM_SCRATCH);
	emitw_i32c(W, (int32_t)WASM_SCRATCH);
	emitw_op_u32(W, OP_LOCAL_GET, c);
	emitw_op_u32(W, OP_CALL, W->imp_char_literal);
	emitw_op_u32(W, OP_CALL, W->imp_text);
}

/* Appends an owned value's rendering, its address at local base (0 when
 * moved: expr.c): `<moved>`, else `<data>`, or with kind (`<string `,
 * `<Bytes `) its length from local base + 1, `<string 3 bytes>`. */
static void
owned_text(Emitw *W, uint32_t base, const char *kind)
{
	emitw_op_u32(W, OP_LOCAL_GET, base);
	emitw_op(W, OP_I32_EQZ);
	emitw_open(W, OP_IF, NULL, 0);
	emitw_text(W, "<moved>");
	emitw_op(W, OP_ELSE);
	if (kind) {
		emitw_text(W, kind);
		emitw_op_u32(W, OP_LOCAL_GET, base + 1);
		emitw_op(W, OP_I64_EXTEND_I32_U);
		decimal_text(W, TY_USIZE);
		emitw_text(W, " bytes>");
	} else {
		emitw_text(W, "<data>");
	}
	emitw_end(W);
}

static void
note_move(void *ctx, const HirExpr *e)
{
	const HirFunc *f = ((void **)ctx)[0];
	uint32_t *flag = ((void **)ctx)[1];
	if (e->kind == HIR_MOVE && e->u.slot < (HirSlot)f->nparams)
		flag[e->u.slot] = 1;
}

/* W->moved_flag for f: a fresh i32 local (zero on entry) for each parameter
 * an `ensures` report may find moved (a HIR_MOVE reads it; parameters are
 * immutable, so once moved it stays so): a moved Vec is zeroed, as an
 * empty one may be (the native lane's moved_params). */
void
emitw_moved_params(Emitw *W, const HirFunc *f)
{
	static const uint8_t i32t[1] = { WT_I32 };
	free(W->moved_flag);
	W->moved_flag = NULL;
	if (f->nensures == 0 || f->nparams == 0)
		return;
	W->moved_flag = spx_xcalloc((size_t)f->nparams, sizeof *W->moved_flag);
	void *ctx[2] = { (void *)f, W->moved_flag };
	HirVisitor v = { note_move, NULL, NULL, ctx };
	hir_visit(f, &v);
	for (int i = 0; i < f->nparams; i++)
		if (W->moved_flag[i])
			W->moved_flag[i] = emitw_fresh_locals(W, i32t, 1);
}

uint32_t
emitw_moved_flag(Emitw *W, HirSlot s)
{
	return W->moved_flag && s < (HirSlot)W->f->nparams ? W->moved_flag[s] : 0;
}

/* Appends a collection's count from local at (an i32; minus local minus's
 * when nonzero) between `<name ` and unit, `<Vec<i64> 3 items>`. */
static void
count_text(Emitw *W, const char *name, uint32_t at, uint32_t minus, const char *unit)
{
	Buf kind = {0};
	buf_printf(&kind, "<%s ", name);
	emitw_text(W, kind.data);
	buf_free(&kind);
	emitw_op_u32(W, OP_LOCAL_GET, at);
	if (minus) {
		emitw_op_u32(W, OP_LOCAL_GET, minus);
		emitw_op(W, OP_I32_SUB);
	}
	emitw_op(W, OP_I64_EXTEND_I32_U);
	decimal_text(W, TY_USIZE);
	emitw_text(W, unit);
}

/* Appends parameter i's value (src/interp/detail.c's render_value; the
 * native lane's render_value); false after a refusal. */
static bool
render_value(Emitw *W, const HirFunc *f, int i)
{
	TypeId t = emitw_slot_ty(W, i);
	const TypeInfo *ti = sema_type_info(&W->S->types, t);
	uint32_t base = W->slot_base[i];
	TyKind declared = sema_type_info(&W->S->types, f->locals[i].type)->kind;
	if (ti->kind == TY_VEC || ti->kind == TY_ITER || ti->kind == TY_MAP || ti->kind == TY_SET ||
	    ti->kind == TY_BOX || ti->kind == TY_FN) {
		/* by kind (the declared type's name) and count where f declares
		 * it so; given for a type parameter `<data>`, as the interpreter */
		const char *name = sema_type_name(W->S, f->locals[i].type);
		if (declared != ti->kind) {
			emitw_text(W, "<data>");
		} else if (ti->kind == TY_FN) {
			emitw_text(W, "<fn>");
		} else if (ti->kind == TY_BOX) {
			Buf kind = {0};
			buf_printf(&kind, "<%s>", name);
			emitw_text(W, kind.data);
			buf_free(&kind);
		} else if (ti->kind == TY_VEC) {   /* (address, length, capacity) */
			count_text(W, name, base + 1, 0, " items>");
		} else if (ti->kind == TY_ITER) {   /* (address, length, capacity, position): those left */
			count_text(W, name, base + 1, base + 3, " items>");
		} else {   /* (keys, values, length, capacity) */
			count_text(W, name, base + 2, 0, " entries>");
		}
		return true;
	}
	switch (ti->kind) {
	case TY_I64: case TY_I32: case TY_U8: case TY_USIZE:
		emitw_op_u32(W, OP_LOCAL_GET, base);
		decimal_text(W, ti->kind);
		if (ti->kind != TY_I64)
			emitw_text(W, ti->kind == TY_I32 ? "i32" : ti->kind == TY_U8 ? "u8" : "usize");
		return true;
	case TY_BOOL:
		emitw_op_u32(W, OP_LOCAL_GET, base);
		emitw_open(W, OP_IF, NULL, 0);
		emitw_text(W, "true");
		emitw_op(W, OP_ELSE);
		emitw_text(W, "false");
		emitw_end(W);
		return true;
	case TY_CHAR:
		emitw_op_u32(W, OP_LOCAL_GET, base);
		char_text(W);
		return true;
	case TY_F64: case TY_F32:
		/* the runtime's rt_float_text (src/rt/float.c, as the formatter
		 * and the other lanes) writes at most 352 bytes into the scratch */
		emitw_i32c(W, (int32_t)WASM_SCRATCH);
		emitw_i32c(W, (int32_t)WASM_SCRATCH);
		emitw_op_u32(W, OP_LOCAL_GET, base);
		if (ti->kind == TY_F32)
			emitw_op(W, OP_F64_PROMOTE_F32);
		emitw_i32c(W, ti->kind == TY_F32);
		emitw_op_u32(W, OP_CALL, W->imp_float_text);
		emitw_op_u32(W, OP_CALL, W->imp_text);
		return true;
	case TY_ARRAY: {
		char txt[48];
		snprintf(txt, sizeof txt, "<array u8 x%" PRIu64 ">", ti->n);
		emitw_text(W, txt);
		return true;
	}
	case TY_STRING:
		owned_text(W, base, "<string ");
		return true;
	case TY_BYTES:
		/* by kind and length where f declares it Bytes; given for a type
		 * parameter, as a reader (the interpreter cannot tell them apart) */
		owned_text(W, base, sema_type_info(&W->S->types, f->locals[i].type)->kind == TY_BYTES ? "<Bytes " : NULL);
		return true;
	case TY_READER:
		owned_text(W, base, NULL);
		return true;
	case TY_NOMINAL: {
		Sym *s = sema_sym(W->S, (SymId)ti->decl);
		emitw_text(W, s->kind == SK_RECORD || s->kind == SK_CLASS ? "<record>" : s->kind == SK_VARIANT ? "<variant>" : "<data>");
		return true;
	}
	case TY_STR: case TY_SLICE:   /* (address, length): as a string, by kind and length */
		if (sema_type_info(&W->S->types, f->locals[i].type)->kind != ti->kind) {
			emitw_text(W, "<data>");   /* given for a type parameter, as the interpreter */
			return true;
		}
		emitw_text(W, ti->kind == TY_SLICE ? "<Slice<u8> " : "<str ");
		emitw_op_u32(W, OP_LOCAL_GET, base + 1);
		emitw_op(W, OP_I64_EXTEND_I32_U);
		decimal_text(W, TY_USIZE);
		emitw_text(W, " bytes>");
		return true;
	default:
		emitw_refuse(W, f->locals[i].span, "the Wasm lane does not render `%s` in a contract failure report yet",
			     sema_type_name(W->S, t));
		return false;
	}
}

/* Parameter i's rendering: `<moved>` once it has moved (W->moved_flag),
 * else its value (render_value); false after a refusal. */
static bool
render_arg(Emitw *W, const HirFunc *f, int i)
{
	uint32_t mv = emitw_moved_flag(W, (HirSlot)i);
	if (!mv)
		return render_value(W, f, i);
	emitw_op_u32(W, OP_LOCAL_GET, mv);
	emitw_open(W, OP_IF, NULL, 0);
	emitw_text(W, "<moved>");
	emitw_op(W, OP_ELSE);
	bool ok = render_value(W, f, i);
	emitw_end(W);
	return ok;
}

/* The checks of f's requires (or ensures) clauses: hir_contract_head's lines as the native lane's, exit 70. */
void
emitw_contract_checks(Emitw *W, const HirFunc *f, bool ensures, HirExpr **conds, int n)
{
	for (int k = 0; k < n && !W->failed; k++) {
		if (!emitw_expr(W, conds[k]))
			return;
		emitw_op(W, OP_I32_EQZ);
		emitw_open(W, OP_IF, NULL, 0);
		char *head = hir_contract_head(W->S, f, k, ensures);
		emitw_text(W, head);
		free(head);
		if (f->nparams == 0)
			emitw_text(W, "none");
		for (int i = 0; i < f->nparams && !W->failed; i++) {
			Buf name = {0};
			buf_printf(&name, "%s%s = ", i ? ", " : "", f->locals[i].name);
			emitw_text(W, name.data);
			buf_free(&name);
			render_arg(W, f, i);
		}
		emitw_fail(W, RT_EXIT_CONTRACT);
		emitw_end(W);
	}
}

