/*
 * expr.c — expressions and statements of the Wasm lane (emitw_int.h):
 * each expression leaves flat(type) on the operand stack.  Checked
 * arithmetic fails as the other lanes do (semaprax.arithmetic.v1 codes
 * 1–8, the native lane's lines and status 71): i64 by the sign rules,
 * usize by unsigned comparisons, i32 and u8 computed in i64 and checked
 * against their range.  Both operands are evaluated before the check.
 */
#include "emitw_int.h"

#include <stdio.h>
#include <string.h>

#include "../rt/domains.h"

static const uint8_t VT_I32[1] = { WT_I32 }, VT_I64[1] = { WT_I64 };

static TyKind
kind_of(Emitw *W, TypeId t)
{
	return sema_type_info(&W->S->types, t)->kind;
}

static void
drop_n(Emitw *W, int n)
{
	for (int i = 0; i < n; i++)
		emitw_op(W, OP_DROP);
}

static void
zero(Emitw *W, uint8_t vt)
{
	switch (vt) {
	case WT_I32: emitw_i32c(W, 0); break;
	case WT_I64: emitw_i64c(W, 0); break;
	case WT_F32: emitw_op(W, OP_F32_CONST); wasm_f32(W->c, 0); break;
	default: emitw_op(W, OP_F64_CONST); wasm_f64(W->c, 0); break;
	}
}

/* Evaluates e into fresh locals: the first one's index (flat size in *n). */
static bool
to_locals(Emitw *W, const HirExpr *e, uint32_t *base, int *n)
{
	uint8_t ty[FLAT_MAX];
	*n = emitw_flat_or_refuse(W, emitw_ty(W, e->type), e->span, ty);
	if (*n < 0 || !emitw_expr(W, e))
		return false;
	*base = emitw_locals(W, ty, *n);
	emitw_store(W, *base, *n);
	return true;
}

static void
arith_fail(Emitw *W, int code)
{
	static const char *const what[] = {
		"", "addition overflow", "subtraction overflow", "multiplication overflow",
		"invalid division", "invalid division", "invalid remainder", "invalid remainder",
		"negation overflow",
	};
	char line[128];
	snprintf(line, sizeof line, "SEMAPRAX checked arithmetic failure: %s%s", what[code], W->o->report_status ? "\nSEMAPRAX status: " : "");
	if (W->o->report_status)
		snprintf(line + strlen(line), sizeof line - strlen(line), "%d", code);
	emitw_open(W, OP_IF, NULL, 0);
	emitw_text(W, line);
	emitw_fail(W, RT_EXIT_ARITH);
	emitw_end(W);
}

/* Division and remainder of the i64 locals a and b: zero divisor, then (when
 * signed) the one overflowing pair min / -1, each a checked-arithmetic failure. */
static void
div_checks(Emitw *W, bool div, uint32_t a, uint32_t b, bool sign, int64_t min)
{
	emitw_op_u32(W, OP_LOCAL_GET, b);
	emitw_op(W, OP_I64_EQZ);
	arith_fail(W, div ? RT_ARITH_DIV_ZERO : RT_ARITH_REM_ZERO);
	if (!sign)
		return;
	emitw_op_u32(W, OP_LOCAL_GET, a);
	emitw_i64c(W, min);
	emitw_op(W, OP_I64_EQ);
	emitw_op_u32(W, OP_LOCAL_GET, b);
	emitw_i64c(W, -1);
	emitw_op(W, OP_I64_EQ);
	emitw_op(W, OP_I32_AND);
	arith_fail(W, div ? RT_ARITH_DIV_OVERFLOW : RT_ARITH_REM_OVERFLOW);
}

/* ---- arithmetic ---- */

void
emitw_add_overflows(Emitw *W, uint32_t a, uint32_t b, uint32_t r)
{
	/* the sum's sign differs from both operands': ((a ^ r) & (b ^ r)) < 0 */
	emitw_op_u32(W, OP_LOCAL_GET, a);
	emitw_op_u32(W, OP_LOCAL_GET, r);
	emitw_op(W, OP_I64_XOR);
	emitw_op_u32(W, OP_LOCAL_GET, b);
	emitw_op_u32(W, OP_LOCAL_GET, r);
	emitw_op(W, OP_I64_XOR);
	emitw_op(W, OP_I64_AND);
	emitw_i64c(W, 0);
	emitw_op(W, OP_I64_LT_S);
}

/* Pushes clz(x ^ (x >> 63)) (sign) or clz(x) of local x, as an i64. */
static void
lead_bits(Emitw *W, uint32_t x, bool sign)
{
	emitw_op_u32(W, OP_LOCAL_GET, x);
	if (sign) {
		emitw_op_u32(W, OP_LOCAL_GET, x);
		emitw_i64c(W, 63);
		emitw_op(W, OP_I64_SHR_S);
		emitw_op(W, OP_I64_XOR);
	}
	emitw_op(W, OP_I64_CLZ);
}

/* Fails with code when local a compares to k by cmp (an i64 comparison). */
static void
fail_if(Emitw *W, uint32_t a, uint8_t cmp, int64_t k, int code)
{
	emitw_op_u32(W, OP_LOCAL_GET, a);
	emitw_i64c(W, k);
	emitw_op(W, cmp);
	arith_fail(W, code);
}

/*
 * i64 (sign) or usize a op c, c a literal: the checks are comparisons of a
 * with bounds computed here (what a C compiler makes of a constant
 * operand), and a division by a constant other than 0 and (signed) -1
 * needs none (V8 turns it into a multiplication).  False when c is one
 * of those two divisors: the caller takes the general path.
 */
static bool
arith64_const(Emitw *W, BinaryOp op, bool sign, uint32_t a, int64_t c)
{
	uint64_t uc = (uint64_t)c;
	switch (op) {
	case BIN_ADD: case BIN_SUB: {
		bool add = op == BIN_ADD;
		if (sign && c != 0 && (add == (c > 0)))   /* a + c, c > 0 / a - c, c < 0: above MAX - |c| */
			fail_if(W, a, OP_I64_GT_S, add ? INT64_MAX - c : INT64_MAX + c, add ? RT_ARITH_ADD : RT_ARITH_SUB);
		else if (sign && c != 0)                  /* below MIN + |c| */
			fail_if(W, a, OP_I64_LT_S, add ? INT64_MIN - c : INT64_MIN + c, add ? RT_ARITH_ADD : RT_ARITH_SUB);
		else if (!sign && c != 0)
			fail_if(W, a, add ? OP_I64_GT_U : OP_I64_LT_U, add ? (int64_t)(UINT64_MAX - uc) : c,
				add ? RT_ARITH_ADD : RT_ARITH_SUB);
		emitw_op_u32(W, OP_LOCAL_GET, a);
		emitw_i64c(W, c);
		emitw_op(W, add ? OP_I64_ADD : OP_I64_SUB);
		return true;
	}
	case BIN_MUL:
		if (c == 0 || c == 1) {
			emitw_op_u32(W, OP_LOCAL_GET, a);
			if (c == 0) {
				emitw_op(W, OP_DROP);
				emitw_i64c(W, 0);
			}
			return true;
		}
		if (!sign) {
			fail_if(W, a, OP_I64_GT_U, (int64_t)(UINT64_MAX / uc), RT_ARITH_MUL);
		} else if (c == -1) {
			fail_if(W, a, OP_I64_EQ, INT64_MIN, RT_ARITH_MUL);
		} else {
			/* a * c fits iff a is in [lo, hi] (C's truncating division), one unsigned comparison */
			int64_t lo = c > 0 ? INT64_MIN / c : INT64_MAX / c, hi = c > 0 ? INT64_MAX / c : INT64_MIN / c;
			emitw_op_u32(W, OP_LOCAL_GET, a);
			emitw_i64c(W, lo);
			emitw_op(W, OP_I64_SUB);
			emitw_i64c(W, (int64_t)((uint64_t)hi - (uint64_t)lo));
			emitw_op(W, OP_I64_GT_U);
			arith_fail(W, RT_ARITH_MUL);
		}
		emitw_op_u32(W, OP_LOCAL_GET, a);
		emitw_i64c(W, c);
		emitw_op(W, OP_I64_MUL);
		return true;
	default:   /* DIV, REM */
		if (c == 0 || (sign && c == -1))
			return false;
		emitw_op_u32(W, OP_LOCAL_GET, a);
		emitw_i64c(W, c);
		emitw_op(W, op == BIN_DIV ? (sign ? OP_I64_DIV_S : OP_I64_DIV_U) : (sign ? OP_I64_REM_S : OP_I64_REM_U));
		return true;
	}
}

/* i64 (sign) or usize c - b, c a literal, b a local. */
static void
const_sub64(Emitw *W, bool sign, int64_t c, uint32_t b)
{
	if (!sign && c != -1)                  /* c - b < 0 iff b > c */
		fail_if(W, b, OP_I64_GT_U, c, RT_ARITH_SUB);
	else if (sign && c >= 0)               /* c - b > MAX iff b < c - MAX */
		fail_if(W, b, OP_I64_LT_S, c - INT64_MAX, RT_ARITH_SUB);
	else if (sign && c != -1)              /* c - b < MIN iff b > c - MIN (c < 0: no overflow here) */
		fail_if(W, b, OP_I64_GT_S, (int64_t)((uint64_t)c + ((uint64_t)1 << 63)), RT_ARITH_SUB);
	emitw_i64c(W, c);
	emitw_op_u32(W, OP_LOCAL_GET, b);
	emitw_op(W, OP_I64_SUB);
}

/* i64 a op b (locals a, b) for i64 (sign) or usize (!sign); leaves the result. */
static void
arith64(Emitw *W, BinaryOp op, bool sign, uint32_t a, uint32_t b)
{
	uint32_t r = emitw_locals(W, VT_I64, 1);
	switch (op) {
	case BIN_ADD: case BIN_SUB:
		emitw_op_u32(W, OP_LOCAL_GET, a);
		emitw_op_u32(W, OP_LOCAL_GET, b);
		emitw_op(W, op == BIN_ADD ? OP_I64_ADD : OP_I64_SUB);
		emitw_op_u32(W, OP_LOCAL_SET, r);
		if (sign && op == BIN_ADD) {
			emitw_add_overflows(W, a, b, r);
		} else if (sign) {
			/* ((a ^ b) & (a ^ r)) < 0 */
			emitw_op_u32(W, OP_LOCAL_GET, a);
			emitw_op_u32(W, OP_LOCAL_GET, b);
			emitw_op(W, OP_I64_XOR);
			emitw_op_u32(W, OP_LOCAL_GET, a);
			emitw_op_u32(W, OP_LOCAL_GET, r);
			emitw_op(W, OP_I64_XOR);
			emitw_op(W, OP_I64_AND);
			emitw_i64c(W, 0);
			emitw_op(W, OP_I64_LT_S);
		} else if (op == BIN_ADD) {
			emitw_op_u32(W, OP_LOCAL_GET, r);
			emitw_op_u32(W, OP_LOCAL_GET, a);
			emitw_op(W, OP_I64_LT_U);
		} else {
			emitw_op_u32(W, OP_LOCAL_GET, a);
			emitw_op_u32(W, OP_LOCAL_GET, b);
			emitw_op(W, OP_I64_LT_U);
		}
		arith_fail(W, op == BIN_ADD ? RT_ARITH_ADD : RT_ARITH_SUB);
		emitw_op_u32(W, OP_LOCAL_GET, r);
		return;
	case BIN_MUL:
		emitw_op_u32(W, OP_LOCAL_GET, a);
		emitw_op_u32(W, OP_LOCAL_GET, b);
		emitw_op(W, OP_I64_MUL);
		emitw_op_u32(W, OP_LOCAL_SET, r);
		/*
		 * The fast path: a product of operands with na and nb significant
		 * bits has at most na + nb, so it fits when (signed) the leading
		 * sign-copy counts clz(x ^ x >> 63) sum to >= 66, (unsigned) the
		 * leading zero counts to >= 64.  Only the rest divides: a == 0:
		 * fine; a == -1 (signed): overflow iff b == MIN; else r / a != b.
		 */
		lead_bits(W, a, sign);
		lead_bits(W, b, sign);
		emitw_op(W, OP_I64_ADD);
		emitw_i64c(W, sign ? 66 : 64);
		emitw_op(W, OP_I64_LT_U);
		emitw_open(W, OP_IF, NULL, 0);
		emitw_op_u32(W, OP_LOCAL_GET, a);
		emitw_op(W, OP_I64_EQZ);
		emitw_open(W, OP_IF, VT_I32, 1);
		emitw_i32c(W, 0);
		emitw_op(W, OP_ELSE);
		if (sign) {
			emitw_op_u32(W, OP_LOCAL_GET, a);
			emitw_i64c(W, -1);
			emitw_op(W, OP_I64_EQ);
			emitw_open(W, OP_IF, VT_I32, 1);
			emitw_op_u32(W, OP_LOCAL_GET, b);
			emitw_i64c(W, INT64_MIN);
			emitw_op(W, OP_I64_EQ);
			emitw_op(W, OP_ELSE);
		}
		emitw_op_u32(W, OP_LOCAL_GET, r);
		emitw_op_u32(W, OP_LOCAL_GET, a);
		emitw_op(W, sign ? OP_I64_DIV_S : OP_I64_DIV_U);
		emitw_op_u32(W, OP_LOCAL_GET, b);
		emitw_op(W, OP_I64_NE);
		if (sign)
			emitw_end(W);
		emitw_end(W);
		arith_fail(W, RT_ARITH_MUL);
		emitw_end(W);
		emitw_op_u32(W, OP_LOCAL_GET, r);
		return;
	default: {   /* DIV, REM */
		bool div = op == BIN_DIV;
		div_checks(W, div, a, b, sign, INT64_MIN);
		emitw_op_u32(W, OP_LOCAL_GET, a);
		emitw_op_u32(W, OP_LOCAL_GET, b);
		emitw_op(W, div ? (sign ? OP_I64_DIV_S : OP_I64_DIV_U) : (sign ? OP_I64_REM_S : OP_I64_REM_U));
		return;
	}
	}
}

/* i32 / u8: the operands widened to i64 (locals a, b), the result checked and wrapped. */
static void
arith_narrow(Emitw *W, BinaryOp op, bool is_i32, uint32_t a, uint32_t b)
{
	int64_t lo = is_i32 ? INT32_MIN : 0, hi = is_i32 ? INT32_MAX : 255;
	if (op == BIN_DIV || op == BIN_REM) {
		bool div = op == BIN_DIV;
		div_checks(W, div, a, b, is_i32, INT32_MIN);
		emitw_op_u32(W, OP_LOCAL_GET, a);
		emitw_op_u32(W, OP_LOCAL_GET, b);
		emitw_op(W, div ? OP_I64_DIV_S : OP_I64_REM_S);
		emitw_op(W, OP_I32_WRAP_I64);
		return;
	}
	uint32_t r = emitw_locals(W, VT_I64, 1);
	emitw_op_u32(W, OP_LOCAL_GET, a);
	emitw_op_u32(W, OP_LOCAL_GET, b);
	emitw_op(W, op == BIN_ADD ? OP_I64_ADD : op == BIN_SUB ? OP_I64_SUB : OP_I64_MUL);
	emitw_op_u32(W, OP_LOCAL_TEE, r);
	emitw_i64c(W, lo);
	emitw_op(W, OP_I64_LT_S);
	emitw_op_u32(W, OP_LOCAL_GET, r);
	emitw_i64c(W, hi);
	emitw_op(W, OP_I64_GT_S);
	emitw_op(W, OP_I32_OR);
	arith_fail(W, op == BIN_ADD ? RT_ARITH_ADD : op == BIN_SUB ? RT_ARITH_SUB : RT_ARITH_MUL);
	emitw_op_u32(W, OP_LOCAL_GET, r);
	emitw_op(W, OP_I32_WRAP_I64);
}

static bool
arith(Emitw *W, const HirExpr *e)
{
	BinaryOp op = e->u.bin.op;
	TyKind k = kind_of(W, emitw_ty(W, e->type));
	if (k == TY_F64 || k == TY_F32) {
		if (op == BIN_REM) {
			emitw_refuse(W, e->span, "the Wasm lane does not support `%%` on floats");
			return false;
		}
		static const uint8_t f64ops[] = { OP_F64_ADD, OP_F64_SUB, OP_F64_MUL, OP_F64_DIV };
		static const uint8_t f32ops[] = { OP_F32_ADD, OP_F32_SUB, OP_F32_MUL, OP_F32_DIV };
		emitw_op(W, (k == TY_F64 ? f64ops : f32ops)[op - BIN_ADD]);
		return true;
	}
	if (k != TY_I32 && k != TY_U8) {
		emitw_refuse(W, e->span, "the Wasm lane does not support `%s` on `%s` yet", ast_binary_spelling(op),
			     sema_type_name(W->S, emitw_ty(W, e->type)));
		return false;
	}
	/* (i64 and usize: arith_wide) */
	uint32_t a = emitw_locals(W, VT_I64, 1), b = emitw_locals(W, VT_I64, 1);
	uint8_t ext = k == TY_I32 ? OP_I64_EXTEND_I32_S : OP_I64_EXTEND_I32_U;
	emitw_op(W, ext);
	emitw_op_u32(W, OP_LOCAL_SET, b);
	emitw_op(W, ext);
	emitw_op_u32(W, OP_LOCAL_SET, a);
	arith_narrow(W, op, k == TY_I32, a, b);
	return true;
}

/* The i64 bits of an integer literal (or, signed, a negated one), when e is one. */
static bool
int_const(const HirExpr *e, bool sign, int64_t *v)
{
	bool neg = false;
	if (sign && e->kind == HIR_UNARY && e->u.un.op == UN_NEG) {
		neg = true;
		e = e->u.un.x;
	}
	if (e->kind != HIR_INT)
		return false;
	uint64_t m = e->u.lit.negative ? 0 - e->u.lit.i : e->u.lit.i;
	if (neg && m == (uint64_t)1 << 63)
		return false;   /* -MIN: the negation's own failure */
	*v = (int64_t)(neg ? 0 - m : m);
	return true;
}

/* i64 (sign) or usize l op r: a literal operand stays a constant (arith64_const). */
static bool
arith_wide(Emitw *W, const HirExpr *e, bool sign)
{
	BinaryOp op = e->u.bin.op;
	const HirExpr *l = e->u.bin.l, *r = e->u.bin.r;
	int64_t c;
	bool rc = int_const(r, sign, &c), lc = !rc && op != BIN_DIV && op != BIN_REM && int_const(l, sign, &c);
	if (rc || lc) {
		if (!emitw_lend(W, rc ? l : r))
			return false;
		uint32_t a = emitw_locals(W, VT_I64, 1);
		emitw_op_u32(W, OP_LOCAL_SET, a);
		if (lc && op == BIN_SUB)
			const_sub64(W, sign, c, a);
		else if (!arith64_const(W, op, sign, a, c)) {   /* a divisor of 0 or -1 */
			uint32_t b = emitw_locals(W, VT_I64, 1);
			emitw_i64c(W, c);
			emitw_op_u32(W, OP_LOCAL_SET, b);
			arith64(W, op, sign, a, b);
		}
		return true;
	}
	if (!emitw_lend(W, l) || !emitw_lend(W, r))
		return false;
	uint32_t a = emitw_locals(W, VT_I64, 1), b = emitw_locals(W, VT_I64, 1);
	emitw_op_u32(W, OP_LOCAL_SET, b);
	emitw_op_u32(W, OP_LOCAL_SET, a);
	arith64(W, op, sign, a, b);
	return true;
}

static bool
compare(Emitw *W, const HirExpr *e)
{
	BinaryOp op = e->u.bin.op;
	TypeId t = emitw_ty(W, e->u.bin.l->type);
	int i = op - BIN_EQ;   /* EQ NE LT LE GT GE */
	static const uint8_t s64[] = { OP_I64_EQ, OP_I64_NE, OP_I64_LT_S, OP_I64_LE_S, OP_I64_GT_S, OP_I64_GE_S };
	static const uint8_t u64[] = { OP_I64_EQ, OP_I64_NE, OP_I64_LT_U, OP_I64_LE_U, OP_I64_GT_U, OP_I64_GE_U };
	static const uint8_t s32[] = { OP_I32_EQ, OP_I32_NE, OP_I32_LT_S, OP_I32_LE_S, OP_I32_GT_S, OP_I32_GE_S };
	static const uint8_t u32[] = { OP_I32_EQ, OP_I32_NE, OP_I32_LT_U, OP_I32_LE_U, OP_I32_GT_U, OP_I32_GE_U };
	static const uint8_t f64[] = { OP_F64_EQ, OP_F64_NE, OP_F64_LT, OP_F64_LE, OP_F64_GT, OP_F64_GE };
	static const uint8_t f32[] = { OP_F32_EQ, OP_F32_NE, OP_F32_LT, OP_F32_LE, OP_F32_GT, OP_F32_GE };
	switch (kind_of(W, t)) {
	case TY_I64: emitw_op(W, s64[i]); return true;
	case TY_USIZE: emitw_op(W, u64[i]); return true;
	case TY_I32: emitw_op(W, s32[i]); return true;
	case TY_U8: case TY_CHAR: case TY_BOOL: emitw_op(W, u32[i]); return true;
	case TY_F64: emitw_op(W, f64[i]); return true;
	case TY_F32: emitw_op(W, f32[i]); return true;
	case TY_STRING: case TY_STR: case TY_SLICE:
		/* the shared runtime's bytewise order (src/rt/text.c), then compared with 0 */
		emitw_op_u32(W, OP_CALL, W->imp_bytes_cmp);
		emitw_i32c(W, 0);
		emitw_op(W, s32[i]);
		return true;
	case TY_NOMINAL:   /* a variant without payloads is its tag (binary() checked flat == 1) */
		if ((op == BIN_EQ || op == BIN_NE) &&
		    sema_sym(W->S, (SymId)sema_type_info(&W->S->types, t)->decl)->kind == SK_VARIANT) {
			emitw_op(W, u32[i]);
			return true;
		}
		break;
	default:
		break;
	}
	emitw_refuse(W, e->span, "the Wasm lane does not support `%s` on `%s` yet", ast_binary_spelling(op),
		     sema_type_name(W->S, t));
	return false;
}

static bool
binary(Emitw *W, const HirExpr *e)
{
	BinaryOp op = e->u.bin.op;
	if (op == BIN_AND || op == BIN_OR) {
		if (!emitw_expr(W, e->u.bin.l))
			return false;
		emitw_open(W, OP_IF, VT_I32, 1);
		if (op == BIN_AND) {
			if (!emitw_expr(W, e->u.bin.r))
				return false;
			emitw_op(W, OP_ELSE);
			emitw_i32c(W, 0);
		} else {
			emitw_i32c(W, 1);
			emitw_op(W, OP_ELSE);
			if (!emitw_expr(W, e->u.bin.r))
				return false;
		}
		emitw_end(W);
		return true;
	}
	TyKind lk = kind_of(W, emitw_ty(W, e->u.bin.l->type));
	bool text = lk == TY_STRING || lk == TY_STR || lk == TY_SLICE;
	if (!text && emitw_flat(W, emitw_ty(W, e->u.bin.l->type), NULL) != 1 && op >= BIN_EQ && op <= BIN_GE) {
		emitw_refuse(W, e->span, "the Wasm lane does not support `%s` on `%s` yet", ast_binary_spelling(op),
			     sema_type_name(W->S, emitw_ty(W, e->u.bin.l->type)));
		return false;
	}
	if (op >= BIN_ADD && op <= BIN_REM && (lk == TY_I64 || lk == TY_USIZE))
		return arith_wide(W, e, lk == TY_I64);
	if (!emitw_lend(W, e->u.bin.l) || !emitw_lend(W, e->u.bin.r))
		return false;
	return op >= BIN_EQ && op <= BIN_GE ? compare(W, e) : arith(W, e);
}

static bool
unary(Emitw *W, const HirExpr *e)
{
	TyKind xk = kind_of(W, emitw_ty(W, e->type));
	int64_t c;
	if (e->u.un.op == UN_NEG && e->u.un.x->kind == HIR_FLOAT && (xk == TY_F64 || xk == TY_F32)) {
		/* a negative float literal is one constant (V8 11.3 does not fold f64.neg of one) */
		if (xk == TY_F32) {
			emitw_op(W, OP_F32_CONST);
			wasm_f32(W->c, -(float)e->u.un.x->u.lit.f);
		} else {
			emitw_op(W, OP_F64_CONST);
			wasm_f64(W->c, -e->u.un.x->u.lit.f);
		}
		return true;
	}
	if (xk == TY_I64 && int_const(e, true, &c)) {   /* -literal, never -MIN */
		emitw_i64c(W, c);
		return true;
	}
	if (!emitw_expr(W, e->u.un.x))
		return false;
	if (e->u.un.op == UN_NOT) {
		emitw_op(W, OP_I32_EQZ);
		return true;
	}
	TyKind k = kind_of(W, emitw_ty(W, e->type));
	switch (k) {
	case TY_F64: emitw_op(W, OP_F64_NEG); return true;
	case TY_F32: emitw_op(W, OP_F32_NEG); return true;
	case TY_I64: case TY_USIZE: {
		uint32_t x = emitw_locals(W, VT_I64, 1);
		emitw_op_u32(W, OP_LOCAL_TEE, x);
		if (k == TY_I64) {
			emitw_i64c(W, INT64_MIN);
			emitw_op(W, OP_I64_EQ);
		} else {
			emitw_i64c(W, 0);
			emitw_op(W, OP_I64_NE);
		}
		arith_fail(W, RT_ARITH_NEG);
		emitw_i64c(W, 0);
		emitw_op_u32(W, OP_LOCAL_GET, x);
		emitw_op(W, OP_I64_SUB);
		return true;
	}
	case TY_I32: case TY_U8: {
		uint32_t x = emitw_locals(W, VT_I32, 1);
		emitw_op_u32(W, OP_LOCAL_TEE, x);
		if (k == TY_I32) {
			emitw_i32c(W, INT32_MIN);
			emitw_op(W, OP_I32_EQ);
		} else {
			emitw_i32c(W, 0);
			emitw_op(W, OP_I32_NE);
		}
		arith_fail(W, RT_ARITH_NEG);
		emitw_i32c(W, 0);
		emitw_op_u32(W, OP_LOCAL_GET, x);
		emitw_op(W, OP_I32_SUB);
		return true;
	}
	default:
		emitw_refuse(W, e->span, "the Wasm lane does not support `-` on `%s` yet", sema_type_name(W->S, emitw_ty(W, e->type)));
		return false;
	}
}

/* ---- calls ---- */

/* A call through a function value: its thunk (emit.c) with depth + 1, the
 * value's env slots and the arguments; call_indirect by its table slot. */
static bool
call_value(Emitw *W, const HirExpr *e)
{
	HirSlot s = e->u.call.callee;
	TypeId ft = emitw_slot_ty(W, s);
	const TypeInfo *ti = sema_type_info(&W->S->types, ft);
	int n = emitw_flat_or_refuse(W, ft, e->span, NULL);
	if (n < 0 || ti->kind != TY_FN || ti->nargs - 1 != e->u.call.nargs) {
		emitw_refuse(W, e->span, "the Wasm lane cannot call this function value");
		return false;
	}
	uint8_t ty[FLAT_MAX];
	emitw_flat(W, ft, ty);
	uint32_t v = emitw_locals(W, ty, n);   /* the callee, read before the arguments */
	emitw_load(W, W->slot_base[s], n);
	emitw_store(W, v, n);
	emitw_op_u32(W, OP_LOCAL_GET, 0);
	emitw_i32c(W, 1);
	emitw_op(W, OP_I32_ADD);
	emitw_load(W, v + 1, n - 1);
	uint8_t p[WASM_PARAMS_MAX + FLAT_MAX], r[FLAT_MAX];
	int np = 1 + W->env;
	p[0] = WT_I32;
	for (int i = 0; i < W->env; i++)
		p[1 + i] = WT_I64;
	for (int i = 0; i < e->u.call.nargs; i++) {
		/* every argument is consumed (as the C lane's spx_call_N): the callee owns and releases it
		 * (np stays within the thunk's type, which emitw_fn_slot bounded) */
		int m = emitw_flat_or_refuse(W, ti->args[i], e->span, np <= WASM_PARAMS_MAX ? p + np : NULL);
		if (m < 0 || np > WASM_PARAMS_MAX || !emitw_own(W, e->u.call.args[i], ti->args[i]))
			return false;
		np += m;
	}
	int nr = emitw_flat_or_refuse(W, ti->args[ti->nargs - 1], e->span, r);
	if (nr < 0)
		return false;
	emitw_op_u32(W, OP_LOCAL_GET, v);
	emitw_op_u32(W, OP_CALL_INDIRECT, (uint32_t)wasm_type(W->m, p, np, r, nr));
	wasm_u32(W->c, 0);   /* table 0 */
	return true;
}

/* A function value: its table slot and env (a closure's captured values, else zeros). */
static bool
fn_value(Emitw *W, const HirExpr *e)
{
	int ii = emitw_target(W, e);   /* hir_mono: the instance this value calls */
	Emitw *P = W;
	if (ii < 0 && W->prog && e->kind == HIR_FUNC && !emitw_import(W, e->u.call.fn, e->span, &P, &ii))
		return false;   /* a project: an imported function's value calls the provider's instance */
	if (ii < 0) {
		emitw_refuse(W, e->span, "the Wasm lane found no instance of this function value");
		return false;
	}
	if (emitw_flat_or_refuse(W, emitw_ty(W, e->type), e->span, NULL) < 0)
		return false;
	uint32_t slot = emitw_fn_slot(P, ii, P == W ? emitw_ty(W, e->type) : EMITW_FT_INST, e->span);
	if (P->failed)
		W->failed = true;
	if (W->failed)
		return false;
	emitw_i32c(W, (int32_t)slot);
	int used = 0;
	if (e->kind == HIR_CLOSURE) {
		/* the captured values in env slots (emitw_int.h): the layout the thunk reads (emit.c emitw_fn_slot) */
		int nslots = emitw_capture_slots(W, ii);
		bool packed = nslots > WASM_ENV_MAX;
		uint32_t cell = 0;
		if (packed) {
			/* a cell of nslots i64 values (never released, as the C lane's spx_cell) */
			cell = emitw_locals(W, VT_I32, 1);
			emitw_i32c(W, 8 * nslots);
			emitw_op_u32(W, OP_CALL, W->imp_cell);
			emitw_oom_check(W);
			emitw_op_u32(W, OP_LOCAL_SET, cell);
		}
		int j = 0;
		for (int k = 0; k < e->u.closure.ncaptures; k++) {
			HirSlot c = e->u.closure.captures[k];
			TypeId ct = emitw_slot_ty(W, c);
			uint8_t ty[FLAT_MAX];
			int m = emitw_flat(W, ct, ty);
			if (m < 0) {
				emitw_refuse(W, e->span, "the Wasm lane does not support closures capturing `%s` yet", sema_type_name(W->S, ct));
				return false;
			}
			bool in_cell = emitw_holds_fn(W, ct, 0);
			for (int q = 0; q < (in_cell ? 1 : m); q++) {
				if (packed)
					emitw_op_u32(W, OP_LOCAL_GET, cell);
				if (in_cell) {
					/* a value holding a function value in a cell of its own: its address */
					uint32_t a = emitw_locals(W, VT_I32, 1);
					emitw_i32c(W, 8 * m);
					emitw_op_u32(W, OP_CALL, W->imp_cell);
					emitw_oom_check(W);
					emitw_op_u32(W, OP_LOCAL_SET, a);
					emitw_load(W, W->slot_base[c], m);
					emitw_elem_store(W, a, ct);
					emitw_op_u32(W, OP_LOCAL_GET, a);
					emitw_to_env(W, WT_I32);
				} else {
					emitw_op_u32(W, OP_LOCAL_GET, W->slot_base[c] + (uint32_t)q);
					emitw_to_env(W, ty[q]);
				}
				if (packed) {
					emitw_op(W, OP_I64_STORE);
					wasm_u32(W->c, 3);
					wasm_u32(W->c, (uint32_t)j * 8u);
				}
				j++;
			}
		}
		if (packed) {
			emitw_op_u32(W, OP_LOCAL_GET, cell);
			emitw_to_env(W, WT_I32);
		}
		used = packed ? 1 : j;
		if (used > W->env) {
			emitw_refuse(W, e->span, "the Wasm lane found more captured values than a function value carries");
			return false;
		}
	}
	for (int k = used; k < W->env; k++)
		emitw_i64c(W, 0);
	return true;
}

static bool
call_op(Emitw *W, const HirExpr *e)
{
	if (e->u.call.kind == CALL_BUILTIN)
		return emitw_builtin(W, e);
	if (e->u.call.kind == CALL_SLOT)
		return call_value(W, e);
	int ii = emitw_target(W, e);   /* hir_mono: the instance this call reaches */
	Emitw *P = W;
	if (ii < 0 && W->prog && !emitw_import(W, e->u.call.fn, e->span, &P, &ii))
		return false;   /* a project: an imported function runs the provider's instance */
	if (ii < 0) {
		emitw_refuse(W, e->span, "the Wasm lane cannot call this function");
		return false;
	}
	uint32_t idx = emitw_func_index(P, ii, e->span);
	if (P->failed)
		W->failed = true;
	if (W->failed)
		return false;
	const HirInst *in = &P->M->insts[ii];
	const HirFunc *callee = &P->H->funcs[in->func];
	if (e->u.call.nargs != callee->nparams) {
		emitw_refuse(W, e->span, "the Wasm lane cannot call this function");
		return false;
	}
	const Sym *imp = P != W ? sema_sym(W->S, e->u.call.fn) : NULL;
	emitw_op_u32(W, OP_LOCAL_GET, 0);
	emitw_i32c(W, 1);
	emitw_op(W, OP_I32_ADD);
	for (int i = 0; i < e->u.call.nargs; i++) {
		TypeId want = imp ? imp->params[i].type : in->slot_type[i];   /* an import: the caller's type table */
		/* a borrowing parameter lends (a fresh argument is released after the statement); any other consumes */
		bool ok = callee->locals[i].lent ? emitw_lend(W, e->u.call.args[i]) && emitw_expr_conv(W, e->u.call.args[i], want)
						 : emitw_own(W, e->u.call.args[i], want);
		if (!ok)
			return false;
	}
	emitw_op_u32(W, OP_CALL, idx);
	return true;
}

static bool
call(Emitw *W, const HirExpr *e)
{
	EmitwFlight F;
	emitw_flight_open(W, &F, e->u.call.args, e->u.call.nargs);
	bool ok = call_op(W, e);
	emitw_flight_close(W, &F);
	return ok;
}

/* ---- aggregates ---- */

static bool
aggregate(Emitw *W, const HirExpr *e)
{
	uint8_t ty[FLAT_MAX];
	int n = emitw_flat_or_refuse(W, emitw_ty(W, e->type), e->span, ty);
	if (n < 0)
		return false;
	/* with a `?` among the values, the value being built is an owned
	 * temporary: the early exit releases the base and the values stored so
	 * far (§0.1); once taken it is emptied */
	bool held = hir_last_try(e->u.agg.values, e->u.agg.n) >= 0 && emitw_has_heap(W, emitw_ty(W, e->type));
	uint32_t v = held ? emitw_epilogue_temp(W, emitw_ty(W, e->type)) : emitw_locals(W, ty, n);
	if (e->kind == HIR_WITH) {
		if (!emitw_own(W, e->u.agg.base, emitw_ty(W, e->type)))
			return false;
		emitw_store(W, v, n);
	} else if (e->kind == HIR_VARIANT) {
		for (int i = 0; i < n; i++) {
			zero(W, ty[i]);
			emitw_op_u32(W, OP_LOCAL_SET, v + (uint32_t)i);
		}
		emitw_i32c(W, e->u.agg.case_index);
		emitw_op_u32(W, OP_LOCAL_SET, v);
	}
	/* the values in written order, each into its place */
	for (int j = 0; j < e->u.agg.n; j++) {
		const HirExpr *x = e->u.agg.values[j];
		int f = e->u.agg.fields[j];
		int off = e->kind == HIR_VARIANT ? emitw_case_off(W, emitw_ty(W, e->type), e->u.agg.case_index, f) : emitw_field_off(W, emitw_ty(W, e->type), f);
		TypeId ft = e->kind == HIR_VARIANT ? sema_case_field_type(W->S, emitw_ty(W, e->type), e->u.agg.case_index, f)
						   : sema_field_type(W->S, emitw_ty(W, e->type), f);
		int m = emitw_flat(W, ft, NULL);
		if (!emitw_own(W, x, ft))
			return false;
		if (e->kind == HIR_WITH)
			emitw_release(W, v + (uint32_t)off, ft);   /* the replaced value, once the new one is complete */
		emitw_store(W, v + (uint32_t)off, m);
	}
	if (e->kind != HIR_VARIANT)
		emitw_invariants(W, emitw_ty(W, e->type), v);
	emitw_load(W, v, n);
	if (held)
		emitw_zero_heap(W, v, emitw_ty(W, e->type));
	return true;
}

/* The locals of a place: a slot read, or a field of one. */
static bool
place(Emitw *W, const HirExpr *e, uint32_t *base)
{
	if (e->kind == HIR_LOCAL) {
		*base = W->slot_base[e->u.slot];
		return true;
	}
	if (e->kind != HIR_FIELD || !place(W, e->u.field.base, base))
		return false;
	const TypeInfo *bi = sema_type_info(&W->S->types, emitw_ty(W, e->u.field.base->type));
	if (bi->kind != TY_NOMINAL)
		return false;
	*base += (uint32_t)emitw_field_off(W, emitw_ty(W, e->u.field.base->type), e->u.field.field);
	return true;
}

/* The field e, moved out when take.  A take whose base is a field path of a
 * fresh value (`mh(k).r.v`: a call's result, an aggregate, a branch value)
 * takes every field on the way: the inner field is moved out of its held
 * temporary and held in turn, so the rest of each level is released once
 * after the statement.  Read as a copy instead, the inner field still
 * belonged to the held temporary, whose release then freed what the take
 * handed out as owned. */
static bool
field_as(Emitw *W, const HirExpr *e, bool take)
{
	const HirExpr *base = e->u.field.base;
	const TypeInfo *bi = sema_type_info(&W->S->types, emitw_ty(W, base->type));
	Sym *s = bi->kind == TY_NOMINAL ? sema_sym(W->S, (SymId)bi->decl) : NULL;
	if (!s || (s->kind != SK_RECORD && s->kind != SK_CLASS)) {
		emitw_refuse(W, e->span, "the Wasm lane does not support fields of `%s` yet", sema_type_name(W->S, emitw_ty(W, base->type)));
		return false;
	}
	int off = emitw_field_off(W, emitw_ty(W, base->type), e->u.field.field);
	int m = emitw_flat_or_refuse(W, emitw_ty(W, e->type), e->span, NULL);
	if (m < 0)
		return false;
	uint32_t b;
	if (place(W, base, &b)) {
		/* a slot or a field of one: read in place (a take zeroes what moved out) */
	} else if (emitw_fresh(W, base) && emitw_has_heap(W, emitw_ty(W, base->type))) {
		if (!emitw_expr(W, base))
			return false;
		b = emitw_hold_base(W, emitw_ty(W, base->type));   /* released after the statement */
	} else if (take && base->kind == HIR_FIELD && emitw_has_heap(W, emitw_ty(W, base->type))) {
		/* not a place, so rooted in a fresh value: moved out of it, held */
		if (!field_as(W, base, true))
			return false;
		b = emitw_hold_base(W, emitw_ty(W, base->type));
	} else {
		int n;
		if (!to_locals(W, base, &b, &n))
			return false;
	}
	emitw_load(W, b + (uint32_t)off, m);
	if (take)
		emitw_zero_heap(W, b + (uint32_t)off, emitw_ty(W, e->type));
	return true;
}

static bool
field(Emitw *W, const HirExpr *e)
{
	return field_as(W, e, e->u.field.take);
}

/* ---- control ---- */

static bool
if_expr(Emitw *W, const HirExpr *e, TypeId as)
{
	if (!emitw_expr(W, e->u.if_.cond))
		return false;
	if (as == WASM_DISCARD || !e->u.if_.else_) {
		emitw_open(W, OP_IF, NULL, 0);
		bool ok = emitw_block(W, e->u.if_.then_, WASM_DISCARD);
		if (ok && e->u.if_.else_) {
			emitw_op(W, OP_ELSE);
			ok = emitw_block(W, e->u.if_.else_, WASM_DISCARD);
		}
		emitw_end(W);
		return ok;
	}
	uint8_t ty[FLAT_MAX];
	int n = emitw_flat_or_refuse(W, as, e->span, ty);
	if (n < 0)
		return false;
	emitw_open(W, OP_IF, ty, n);
	if (!emitw_block_lend(W, e->u.if_.then_, as, e->lends))
		return false;
	emitw_op(W, OP_ELSE);
	if (!emitw_block_lend(W, e->u.if_.else_, as, e->lends))
		return false;
	emitw_end(W);
	return true;
}

/* [u8; N] with runtime elements: a cell of its own, written once, element
 * by element in order (a Copy value that may outlive its frame: kept for
 * the run, as a captured function value's cell; docs/DECISIONS.md). */
static bool
array_runtime(Emitw *W, const HirExpr *e)
{
	uint32_t a = emitw_locals(W, VT_I32, 1);
	emitw_i32c(W, e->u.array.n > 0 ? e->u.array.n : 1);
	emitw_op_u32(W, OP_CALL, W->imp_cell);
	emitw_oom_check(W);
	emitw_op_u32(W, OP_LOCAL_SET, a);
	for (int i = 0; i < e->u.array.n; i++) {
		emitw_op_u32(W, OP_LOCAL_GET, a);
		if (!emitw_expr(W, e->u.array.elems[i]))
			return false;
		emitw_op(W, OP_I32_STORE8);
		wasm_u32(W->c, 0);
		wasm_u32(W->c, (uint32_t)i);
	}
	emitw_op_u32(W, OP_LOCAL_GET, a);
	return true;
}

bool
emitw_expr(Emitw *W, const HirExpr *e)
{
	if (W->failed)
		return false;
	switch (e->kind) {
	case HIR_INT: {
		int64_t v = e->u.lit.negative ? (int64_t)(0 - e->u.lit.i) : (int64_t)e->u.lit.i;
		if (emitw_flat(W, emitw_ty(W, e->type), NULL) == 1) {
			uint8_t t;
			emitw_flat(W, emitw_ty(W, e->type), &t);
			if (t == WT_I64)
				emitw_i64c(W, v);
			else
				emitw_i32c(W, (int32_t)v);
			return true;
		}
		break;
	}
	case HIR_FLOAT:
		if (kind_of(W, emitw_ty(W, e->type)) == TY_F32) {
			emitw_op(W, OP_F32_CONST);
			wasm_f32(W->c, (float)e->u.lit.f);
		} else {
			emitw_op(W, OP_F64_CONST);
			wasm_f64(W->c, e->u.lit.f);
		}
		return true;
	case HIR_BOOL: emitw_i32c(W, e->u.lit.b ? 1 : 0); return true;
	case HIR_CHAR: emitw_i32c(W, (int32_t)e->u.lit.ch); return true;
	case HIR_STRING: {
		TyKind k = kind_of(W, emitw_ty(W, e->type));
		if (k != TY_STRING && k != TY_STR)
			break;
		emitw_i32c(W, (int32_t)emitw_static(W, e->u.lit.s, e->u.lit.n));
		emitw_i32c(W, (int32_t)e->u.lit.n);
		return true;
	}
	case HIR_LOCAL: case HIR_MOVE: {
		int n = emitw_flat_or_refuse(W, emitw_ty(W, e->type), e->span, NULL);
		if (n < 0)
			return false;
		emitw_load(W, W->slot_base[e->u.slot], n);
		/* a moved value is not released again, and a moved string reads as moved in a
		 * contract report (no static address is 0) */
		if (e->kind == HIR_MOVE)
			emitw_zero_heap(W, W->slot_base[e->u.slot], emitw_ty(W, e->type));
		uint32_t mv = e->kind == HIR_MOVE ? emitw_moved_flag(W, e->u.slot) : 0;
		if (mv) {   /* a contract report's `<moved>` */
			emitw_i32c(W, 1);
			emitw_op_u32(W, OP_LOCAL_SET, mv);
		}
		return true;
	}
	case HIR_UNARY: return unary(W, e);
	case HIR_BINARY: return binary(W, e);
	case HIR_CALL: return call(W, e);
	case HIR_FIELD: return field(W, e);
	case HIR_TRY: return emitw_try(W, e);
	case HIR_WITH: case HIR_RECORD: case HIR_VARIANT:
		if (emitw_flat_or_refuse(W, emitw_ty(W, e->type), e->span, NULL) < 0)
			return false;
		return aggregate(W, e);
	case HIR_BLOCK: return emitw_block_lend(W, e->u.block, emitw_ty(W, e->type), e->lends);
	case HIR_IF: return if_expr(W, e, emitw_ty(W, e->type));
	case HIR_MATCH: return emitw_match(W, e, emitw_ty(W, e->type));
	case HIR_FUNC: case HIR_CLOSURE:
		return fn_value(W, e);
	case HIR_ARRAY: {
		/* [u8; N] of constants: its bytes in static data (arrays are never written) */
		char *bytes = spx_xmalloc((size_t)e->u.array.n + 1);
		for (int i = 0; i < e->u.array.n; i++) {
			const HirExpr *x = e->u.array.elems[i];
			if (x->kind != HIR_INT) {
				free(bytes);
				return array_runtime(W, e);
			}
			bytes[i] = (char)(uint8_t)x->u.lit.i;
		}
		emitw_i32c(W, (int32_t)emitw_static(W, bytes, (size_t)e->u.array.n));
		free(bytes);
		return true;
	}
	}
	emitw_refuse(W, e->span, "the Wasm lane does not support this expression of type `%s` yet", sema_type_name(W->S, emitw_ty(W, e->type)));
	return false;
}

bool
emitw_expr_as(Emitw *W, const HirExpr *e, TypeId to)
{
	if (!emitw_expr(W, e))
		return false;
	TypeId from = emitw_ty(W, e->type);
	const TypeInfo *a = sema_type_info(&W->S->types, from), *b = sema_type_info(&W->S->types, to);
	if (from != to && emitw_fresh(W, e) && a->kind == TY_NOMINAL && b->kind == TY_NOMINAL &&
	    sema_sym(W->S, (SymId)a->decl)->kind == SK_CLASS && sema_sym(W->S, (SymId)b->decl)->kind == SK_CLASS &&
	    sema_class_upcast(W->S, from, to) && emitw_has_heap(W, from)) {
		/* a fresh child value as its ancestor: the child's own fields (after the
		 * ancestor's) are released, the ancestor's prefix is kept */
		uint8_t ty[FLAT_MAX];
		int nf = emitw_flat(W, from, ty), nt = emitw_flat(W, to, NULL);
		const Sym *cs = sema_sym(W->S, (SymId)a->decl);
		int k0 = sema_sym(W->S, (SymId)b->decl)->nom->nfields;
		if (nf < 0 || nt < 0 || nt > nf)
			return emitw_expr_conv(W, e, to);
		uint32_t base = emitw_locals(W, ty, nf);
		emitw_store(W, base, nf);
		for (int i = k0; i < cs->nom->nfields; i++)
			emitw_release(W, base + (uint32_t)emitw_field_off(W, from, i), sema_field_type(W->S, from, i));
		emitw_load(W, base, nt);
		return true;
	}
	return emitw_expr_conv(W, e, to);
}

bool
emitw_expr_conv(Emitw *W, const HirExpr *e, TypeId to)
{
	if (emitw_ty(W, e->type) == to)
		return true;
	int nf = emitw_flat(W, emitw_ty(W, e->type), NULL), nt = emitw_flat(W, to, NULL);
	const TypeInfo *a = sema_type_info(&W->S->types, emitw_ty(W, e->type)), *b = sema_type_info(&W->S->types, to);
	if (a->kind == TY_NOMINAL && b->kind == TY_NOMINAL && sema_sym(W->S, (SymId)a->decl)->kind == SK_CLASS &&
	    sema_sym(W->S, (SymId)b->decl)->kind == SK_CLASS && sema_class_upcast(W->S, emitw_ty(W, e->type), to) && nf >= nt) {
		if (emitw_has_heap(W, emitw_ty(W, e->type)) != emitw_has_heap(W, to)) {
			emitw_refuse(W, e->span, "the Wasm lane does not drop owned fields in an upcast yet");
			return false;
		}
		drop_n(W, nf - nt);   /* the child's own fields, on top */
		return true;
	}
	if (nf != nt || nf < 0) {
		emitw_refuse(W, e->span, "the Wasm lane cannot pass `%s` as `%s` yet", sema_type_name(W->S, emitw_ty(W, e->type)),
			     sema_type_name(W->S, to));
		return false;
	}
	return true;
}

/* ---- statements ---- */

static bool stmt_kind(Emitw *W, const HirStmt *s);

/* Might a value of type t be a view (str, Slice<u8>, or a record holding one)? */
static bool
may_view(Emitw *W, TypeId t, int level)
{
	return emitw_holds_kind(W, t, 1u << TY_STR | 1u << TY_SLICE, level);
}

static bool
stmt(Emitw *W, const HirStmt *s)
{
	int mark = emitw_temps_mark(W), omark = emitw_otemps_mark(W);
	bool ok = stmt_kind(W, s);
	emitw_temps_release(W, mark);
	/* the owned temporaries go after the statement — unless it binds a view,
	 * which may borrow from them: then at the block's end (§0.12) */
	if (ok && !((s->kind == HS_LET || s->kind == HS_ASSIGN) && s->slot != HIR_NO_SLOT &&
		    (may_view(W, emitw_slot_ty(W, s->slot), 0) ||
		     (!W->M->insts[W->inst].slot_owned[s->slot] && emitw_has_heap(W, emitw_slot_ty(W, s->slot))))))
		emitw_otemps_release(W, omark);
	return ok;
}

static bool
stmt_kind(Emitw *W, const HirStmt *s)
{
	switch (s->kind) {
	case HS_LET: case HS_ASSIGN: {
		if (s->slot == HIR_NO_SLOT)
			return emitw_discard(W, s->value);
		TypeId st = emitw_slot_ty(W, s->slot);
		int n = emitw_flat_or_refuse(W, st, s->span, NULL);
		bool owned = W->M->insts[W->inst].slot_owned[s->slot] && emitw_has_heap(W, st);
		if (n < 0 || !(owned ? emitw_own(W, s->value, st) : emitw_lend(W, s->value) && emitw_expr_conv(W, s->value, st)))
			return false;
		if (owned)
			emitw_release(W, W->slot_base[s->slot], st);   /* the old value, once the new one is complete */
		emitw_store(W, W->slot_base[s->slot], n);
		return true;
	}
	case HS_SET_FIELD: {
		TypeId rt = emitw_slot_ty(W, s->slot);
		if (emitw_flat_or_refuse(W, rt, s->span, NULL) < 0)
			return false;
		TypeId ft = sema_field_type(W->S, rt, s->field);
		int n = emitw_flat_or_refuse(W, ft, s->value->span, NULL);
		if (n < 0 || !emitw_own(W, s->value, ft))
			return false;
		emitw_release(W, W->slot_base[s->slot] + (uint32_t)emitw_field_off(W, rt, s->field), ft);
		emitw_store(W, W->slot_base[s->slot] + (uint32_t)emitw_field_off(W, rt, s->field), n);
		emitw_invariants(W, rt, W->slot_base[s->slot]);
		return true;
	}
	case HS_WHILE:
		emitw_open(W, OP_BLOCK, NULL, 0);
		emitw_open(W, OP_LOOP, NULL, 0);
		int cm = emitw_otemps_mark(W);
		if (!emitw_lend(W, s->value))
			return false;
		emitw_otemps_release(W, cm);   /* each test's temporaries, before the next */
		emitw_op(W, OP_I32_EQZ);
		emitw_op_u32(W, OP_BR_IF, 1);
		if (!emitw_block(W, s->body, WASM_DISCARD))
			return false;
		emitw_op_u32(W, OP_BR, 0);
		emitw_end(W);
		emitw_end(W);
		return true;
	case HS_FOR:
		return emitw_for(W, s);
	case HS_EXPR:
		return emitw_discard(W, s->value);
	case HS_UNSAFE:
		return emitw_block(W, s->body, WASM_DISCARD);
	}
	return false;
}

bool
emitw_block(Emitw *W, const HirBlock *b, TypeId as)
{
	return emitw_block_lend(W, b, as, false);
}

/* The value of e as type as: owned, or when lend (the result of a lending
 * branch value, HirExpr.lends) as read in place. */
bool
emitw_value(Emitw *W, const HirExpr *e, TypeId as, bool lend)
{
	return lend ? emitw_expr_as(W, e, as) : emitw_own(W, e, as);
}

/* A block whose value is owned, or read in place when lend (HirExpr.lends). */
bool
emitw_block_lend(Emitw *W, const HirBlock *b, TypeId as, bool lend)
{
	int omark = emitw_otemps_mark(W);
	for (int i = 0; i < b->nstmts; i++)
		if (!stmt(W, b->stmts[i]))
			return false;
	if (b->tail && !(as != WASM_DISCARD ? emitw_value(W, b->tail, as, lend) : emitw_discard(W, b->tail)))
		return false;
	if (b == W->f->body)
		return !W->failed;   /* the function's epilogue releases, after `ensures` (§0.12) */
	const HirInst *in = &W->M->insts[W->inst];
	for (int i = b->nowned - 1; i >= 0; i--) {
		HirSlot s = b->owned[i];
		if (in->slot_owned[s] && emitw_has_heap(W, in->slot_type[s]))
			emitw_release(W, W->slot_base[s], in->slot_type[s]);
	}
	emitw_otemps_release(W, omark);
	return !W->failed;
}

bool
emitw_discard(Emitw *W, const HirExpr *e)
{
	switch (e->kind) {
	case HIR_IF: return if_expr(W, e, WASM_DISCARD);
	case HIR_MATCH: return emitw_match(W, e, WASM_DISCARD);
	case HIR_BLOCK: return emitw_block(W, e->u.block, WASM_DISCARD);
	default: break;
	}
	uint8_t ty[FLAT_MAX];
	TypeId t = emitw_ty(W, e->type);
	int n = emitw_flat_or_refuse(W, t, e->span, ty);
	if (n < 0 || !emitw_expr(W, e))
		return false;
	if (e->kind != HIR_STRING && emitw_fresh(W, e) && emitw_has_heap(W, t)) {
		uint32_t v = emitw_locals(W, ty, n);   /* a discarded fresh value is released at once */
		emitw_store(W, v, n);
		emitw_release(W, v, t);
		return true;
	}
	drop_n(W, n);
	return true;
}
