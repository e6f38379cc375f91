/*
 * exec_scalar.c — binary operators on statically typed i64, usize and f64
 * operands (LANGUAGE.md §3.7), one function per (operator, type, operand
 * shape).  An operand is a node (N), a slot holding a Copy scalar (S) or
 * a literal (K); slot and literal operands are read in place and their
 * steps charged with the operator's where nothing observable can happen in
 * between (node.h).
 */
#include "node.h"

#define FAIL(code) do { interp_fail(I, DOM_ARITH, (code)); return v_empty(); } while (0)

/* Operation bodies: l and r are the operand Values; each returns. */
#define I64_ADD { int64_t z; if (__builtin_add_overflow(l.i, r.i, &z)) FAIL(AR_ADD); return v_int(V_I64, z); }
#define I64_SUB { int64_t z; if (__builtin_sub_overflow(l.i, r.i, &z)) FAIL(AR_SUB); return v_int(V_I64, z); }
#define I64_MUL { int64_t z; if (__builtin_mul_overflow(l.i, r.i, &z)) FAIL(AR_MUL); return v_int(V_I64, z); }
#define I64_DIV { if (r.i == 0) FAIL(AR_DIV0); if (l.i == INT64_MIN && r.i == -1) FAIL(AR_DIVOV); \
		  return v_int(V_I64, l.i / r.i); }
#define I64_REM { if (r.i == 0) FAIL(AR_REM0); if (l.i == INT64_MIN && r.i == -1) FAIL(AR_REMOV); \
		  return v_int(V_I64, l.i % r.i); }
#define I64_EQ { return v_bool(l.i == r.i); }
#define I64_NE { return v_bool(l.i != r.i); }
#define I64_LT { return v_bool(l.i < r.i); }
#define I64_LE { return v_bool(l.i <= r.i); }
#define I64_GT { return v_bool(l.i > r.i); }
#define I64_GE { return v_bool(l.i >= r.i); }

#define US_RET(z) { Value v_ = v_int(V_USIZE, 0); v_.u = (z); return v_; }
#define US_ADD { uint64_t z; if (__builtin_add_overflow(l.u, r.u, &z)) FAIL(AR_ADD); US_RET(z) }
#define US_SUB { uint64_t z; if (__builtin_sub_overflow(l.u, r.u, &z)) FAIL(AR_SUB); US_RET(z) }
#define US_MUL { uint64_t z; if (__builtin_mul_overflow(l.u, r.u, &z)) FAIL(AR_MUL); US_RET(z) }
#define US_DIV { if (r.u == 0) FAIL(AR_DIV0); US_RET(l.u / r.u) }
#define US_REM { if (r.u == 0) FAIL(AR_REM0); US_RET(l.u % r.u) }
#define US_EQ { return v_bool(l.u == r.u); }
#define US_NE { return v_bool(l.u != r.u); }
#define US_LT { return v_bool(l.u < r.u); }
#define US_LE { return v_bool(l.u <= r.u); }
#define US_GT { return v_bool(l.u > r.u); }
#define US_GE { return v_bool(l.u >= r.u); }

#define F64_RET(z) { Value v_ = v_int(V_F64, 0); v_.f = (z); return v_; }
#define F64_ADD F64_RET(l.f + r.f)
#define F64_SUB F64_RET(l.f - r.f)
#define F64_MUL F64_RET(l.f * r.f)
#define F64_DIV F64_RET(l.f / r.f)
#define F64_EQ { return v_bool(l.f == r.f); }
#define F64_NE { return v_bool(!(l.f == r.f)); }
#define F64_LT { return v_bool(l.f < r.f); }
#define F64_LE { return v_bool(l.f <= r.f); }
#define F64_GT { return v_bool(l.f > r.f); }
#define F64_GE { return v_bool(l.f >= r.f); }

/* The six operand shapes of one operation. */
#define SHAPES(name, BODY) \
static Value name##_NN(Interp *I, Value *S, const Node *n) { \
	CHARGE(I, 1); \
	Value l = node_eval(I, S, n->x); \
	if (STOPPED) return v_empty(); \
	Value r = node_eval(I, S, n->y); \
	if (STOPPED) return v_empty(); \
	BODY \
} \
static Value name##_SN(Interp *I, Value *S, const Node *n) { \
	CHARGE(I, 2); \
	Value l = S[n->a]; \
	Value r = node_eval(I, S, n->y); \
	if (STOPPED) return v_empty(); \
	BODY \
} \
static Value name##_NS(Interp *I, Value *S, const Node *n) { \
	CHARGE(I, 1); \
	Value l = node_eval(I, S, n->x); \
	if (STOPPED) return v_empty(); \
	CHARGE(I, 1); \
	Value r = S[n->b]; \
	BODY \
} \
static Value name##_SS(Interp *I, Value *S, const Node *n) { \
	CHARGE(I, 3); \
	Value l = S[n->a], r = S[n->b]; \
	BODY \
} \
static Value name##_SK(Interp *I, Value *S, const Node *n) { \
	CHARGE(I, 3); \
	Value l = S[n->a], r = n->k; \
	BODY \
} \
static Value name##_NK(Interp *I, Value *S, const Node *n) { \
	CHARGE(I, 1); \
	Value l = node_eval(I, S, n->x); \
	if (STOPPED) return v_empty(); \
	CHARGE(I, 1); \
	Value r = n->k; \
	BODY \
}

#define OPS(X) \
	X(i64_add, I64_ADD) X(i64_sub, I64_SUB) X(i64_mul, I64_MUL) X(i64_div, I64_DIV) X(i64_rem, I64_REM) \
	X(i64_eq, I64_EQ) X(i64_ne, I64_NE) X(i64_lt, I64_LT) X(i64_le, I64_LE) X(i64_gt, I64_GT) X(i64_ge, I64_GE) \
	X(us_add, US_ADD) X(us_sub, US_SUB) X(us_mul, US_MUL) X(us_div, US_DIV) X(us_rem, US_REM) \
	X(us_eq, US_EQ) X(us_ne, US_NE) X(us_lt, US_LT) X(us_le, US_LE) X(us_gt, US_GT) X(us_ge, US_GE) \
	X(f64_add, F64_ADD) X(f64_sub, F64_SUB) X(f64_mul, F64_MUL) X(f64_div, F64_DIV) \
	X(f64_eq, F64_EQ) X(f64_ne, F64_NE) X(f64_lt, F64_LT) X(f64_le, F64_LE) X(f64_gt, F64_GT) X(f64_ge, F64_GE)

OPS(SHAPES)

#define ROW(name, BODY) { name##_NN, name##_SN, name##_NS, name##_SS, name##_SK, name##_NK },

enum {
#define X(name, BODY) OP_##name,
	OPS(X)
#undef X
};

static const NodeFn table[][SHAPE_COUNT] = { OPS(ROW) };

NodeFn
scalar_binary_fn(BinaryOp op, TypeId t, int shape)
{
	int row;
	switch (t) {
	case TY_I64: row = OP_i64_add; break;
	case TY_USIZE: row = OP_us_add; break;
	case TY_F64: row = OP_f64_add; break;
	default: return NULL;
	}
	switch (op) {
	case BIN_ADD: break;
	case BIN_SUB: row += 1; break;
	case BIN_MUL: row += 2; break;
	case BIN_DIV: row += 3; break;
	case BIN_REM: if (t == TY_F64) return NULL; row += 4; break;
	case BIN_EQ: row += 5; break;
	case BIN_NE: row += 6; break;
	case BIN_LT: row += 7; break;
	case BIN_LE: row += 8; break;
	case BIN_GT: row += 9; break;
	case BIN_GE: row += 10; break;
	default: return NULL;
	}
	if (t == TY_F64 && op != BIN_ADD && op != BIN_SUB && op != BIN_MUL && op != BIN_DIV)
		row -= 1;   /* f64 has no remainder row */
	return table[row][shape];
}
