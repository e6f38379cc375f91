/*
 * exec_scalar.c — binary operators on statically typed i64, usize and f64
 * operands, and comparisons of u8, char and i32 (LANGUAGE.md §3.7), one function per (operator, type, operand
 * shape, use).  An operand is a node (N), a slot holding a Copy scalar (S)
 * or a literal (K, on either side); slot and literal operands are read in place and their
 * steps charged with the operator's where nothing observable can happen in
 * between (node.h).
 *
 * Uses (superinstructions): the operator's value (VAL); the value stored
 * into slot n->d by a scalar `let`/assignment (SET: the statement node and
 * the operator in one); and, for comparisons, a statement `if` (IF), an
 * expression `if` (XIF) and a `while` condition (WHILE) branching on the
 * comparison directly.  Each charges exactly the steps of the nodes it
 * stands for, at the same points.
 */
#include "node.h"

#define FAIL(code) do { interp_fail(I, RT_DOM_ARITH, (code)); return v_empty(); } while (0)

/* Operation bodies: compute Value z from the operands l and r, or FAIL. */
#define I64_ADD { int64_t t; if (__builtin_add_overflow(l.i, r.i, &t)) FAIL(RT_ARITH_ADD); z = v_int(V_I64, t); }
#define I64_SUB { int64_t t; if (__builtin_sub_overflow(l.i, r.i, &t)) FAIL(RT_ARITH_SUB); z = v_int(V_I64, t); }
#define I64_MUL { int64_t t; if (__builtin_mul_overflow(l.i, r.i, &t)) FAIL(RT_ARITH_MUL); z = v_int(V_I64, t); }
#define I64_DIV { if (r.i == 0) FAIL(RT_ARITH_DIV_ZERO); if (l.i == INT64_MIN && r.i == -1) FAIL(RT_ARITH_DIV_OVERFLOW); \
		  z = v_int(V_I64, l.i / r.i); }
#define I64_REM { if (r.i == 0) FAIL(RT_ARITH_REM_ZERO); if (l.i == INT64_MIN && r.i == -1) FAIL(RT_ARITH_REM_OVERFLOW); \
		  z = v_int(V_I64, l.i % r.i); }
/* by the literal 2 (K shapes only): no failure is possible */
#define I64_DIV2 { (void)r; z = v_int(V_I64, l.i / 2); }
#define I64_REM2 { (void)r; z = v_int(V_I64, l.i % 2); }
#define I64_EQ { z = v_bool(l.i == r.i); }
#define I64_NE { z = v_bool(l.i != r.i); }
#define I64_LT { z = v_bool(l.i < r.i); }
#define I64_LE { z = v_bool(l.i <= r.i); }
#define I64_GT { z = v_bool(l.i > r.i); }
#define I64_GE { z = v_bool(l.i >= r.i); }

#define US_SET(x) { z = v_int(V_USIZE, 0); z.u = (x); }
#define US_ADD { uint64_t t; if (__builtin_add_overflow(l.u, r.u, &t)) FAIL(RT_ARITH_ADD); US_SET(t) }
#define US_SUB { uint64_t t; if (__builtin_sub_overflow(l.u, r.u, &t)) FAIL(RT_ARITH_SUB); US_SET(t) }
#define US_MUL { uint64_t t; if (__builtin_mul_overflow(l.u, r.u, &t)) FAIL(RT_ARITH_MUL); US_SET(t) }
#define US_DIV { if (r.u == 0) FAIL(RT_ARITH_DIV_ZERO); US_SET(l.u / r.u) }
#define US_REM { if (r.u == 0) FAIL(RT_ARITH_REM_ZERO); US_SET(l.u % r.u) }
#define US_EQ { z = v_bool(l.u == r.u); }
#define US_NE { z = v_bool(l.u != r.u); }
#define US_LT { z = v_bool(l.u < r.u); }
#define US_LE { z = v_bool(l.u <= r.u); }
#define US_GT { z = v_bool(l.u > r.u); }
#define US_GE { z = v_bool(l.u >= r.u); }

#define F64_SET(x) { z = v_int(V_F64, 0); z.f = (x); }
#define F64_ADD F64_SET(l.f + r.f)
#define F64_SUB F64_SET(l.f - r.f)
#define F64_MUL F64_SET(l.f * r.f)
#define F64_DIV F64_SET(l.f / r.f)
#define F64_EQ { z = v_bool(l.f == r.f); }
#define F64_NE { z = v_bool(!(l.f == r.f)); }
#define F64_LT { z = v_bool(l.f < r.f); }
#define F64_LE { z = v_bool(l.f <= r.f); }
#define F64_GT { z = v_bool(l.f > r.f); }
#define F64_GE { z = v_bool(l.f >= r.f); }

/*
 * Operand fetches per shape; `pre` steps of an enclosing statement are
 * charged with the first charge (nothing happens between them).
 */
#define FETCH_NN(pre) CHARGE(I, 1 + (pre)); \
	Value l = node_eval(I, S, n->x); if (STOPPED) return v_empty(); \
	Value r = node_eval(I, S, n->y); if (STOPPED) return v_empty();
#define FETCH_SN(pre) CHARGE(I, 2 + (pre)); \
	Value l = S[n->a]; \
	Value r = node_eval(I, S, n->y); if (STOPPED) return v_empty();
#define FETCH_NS(pre) CHARGE(I, 1 + (pre)); \
	Value l = node_eval(I, S, n->x); if (STOPPED) return v_empty(); \
	CHARGE(I, 1); Value r = S[n->b];
#define FETCH_SS(pre) CHARGE(I, 3 + (pre)); Value l = S[n->a], r = S[n->b];
#define FETCH_SK(pre) CHARGE(I, 3 + (pre)); Value l = S[n->a], r = n->k;
#define FETCH_KS(pre) CHARGE(I, 3 + (pre)); Value l = n->k, r = S[n->b];
#define FETCH_KN(pre) CHARGE(I, 2 + (pre)); \
	Value l = n->k; \
	Value r = node_eval(I, S, n->y); if (STOPPED) return v_empty();
#define FETCH_NK(pre) CHARGE(I, 1 + (pre)); \
	Value l = node_eval(I, S, n->x); if (STOPPED) return v_empty(); \
	CHARGE(I, 1); Value r = n->k;

#define USE_VAL(name, SH, BODY) \
static Value name##_##SH(Interp *I, Value *S, const Node *n) { \
	FETCH_##SH(0) Value z; BODY return z; \
}
#define USE_SET(name, SH, BODY) \
static Value name##_##SH##_set(Interp *I, Value *S, const Node *n) { \
	FETCH_##SH(0) Value z; BODY S[n->d] = z; return v_empty(); \
}
#define USE_IF(name, SH, BODY) \
static Value name##_##SH##_if(Interp *I, Value *S, const Node *n) { \
	FETCH_##SH(1) Value z; BODY \
	if (z.b) { \
		if (n->b1) exec_block_void(I, S, n->b1); \
	} else if (n->b2) { \
		exec_block_void(I, S, n->b2); \
	} \
	return v_empty(); \
}
#define USE_XIF(name, SH, BODY) \
static Value name##_##SH##_xif(Interp *I, Value *S, const Node *n) { \
	FETCH_##SH(1) Value z; BODY \
	if (z.b) \
		return n->b1 ? exec_branch(I, S, n->b1) : v_empty(); \
	return n->b2 ? exec_branch(I, S, n->b2) : v_empty(); \
}
#define USE_WHILE(name, SH, BODY) \
static Value name##_##SH##_while(Interp *I, Value *S, const Node *n) { \
	for (;;) { \
		FETCH_##SH(0) Value z; BODY \
		if (!z.b) break; \
		exec_block_void(I, S, n->b1); \
		if (STOPPED) break; \
	} \
	return v_empty(); \
}

#define ALL_SHAPES(USE, name, BODY) \
	USE(name, NN, BODY) USE(name, SN, BODY) USE(name, NS, BODY) \
	USE(name, SS, BODY) USE(name, SK, BODY) USE(name, NK, BODY) \
	USE(name, KS, BODY) USE(name, KN, BODY)

#define ARITH(X) \
	X(i64_add, I64_ADD) X(i64_sub, I64_SUB) X(i64_mul, I64_MUL) X(i64_div, I64_DIV) X(i64_rem, I64_REM) \
	X(i64_div2, I64_DIV2) X(i64_rem2, I64_REM2) \
	X(us_add, US_ADD) X(us_sub, US_SUB) X(us_mul, US_MUL) X(us_div, US_DIV) X(us_rem, US_REM) \
	X(f64_add, F64_ADD) X(f64_sub, F64_SUB) X(f64_mul, F64_MUL) X(f64_div, F64_DIV)
#define CMPS(X) \
	X(i64_eq, I64_EQ) X(i64_ne, I64_NE) X(i64_lt, I64_LT) X(i64_le, I64_LE) X(i64_gt, I64_GT) X(i64_ge, I64_GE) \
	X(us_eq, US_EQ) X(us_ne, US_NE) X(us_lt, US_LT) X(us_le, US_LE) X(us_gt, US_GT) X(us_ge, US_GE) \
	X(f64_eq, F64_EQ) X(f64_ne, F64_NE) X(f64_lt, F64_LT) X(f64_le, F64_LE) X(f64_gt, F64_GT) X(f64_ge, F64_GE)
#define OPS(X) ARITH(X) CMPS(X)

#define GEN_VALSET(name, BODY) ALL_SHAPES(USE_VAL, name, BODY) ALL_SHAPES(USE_SET, name, BODY)
#define GEN_BRANCH(name, BODY) ALL_SHAPES(USE_IF, name, BODY) ALL_SHAPES(USE_XIF, name, BODY) \
	ALL_SHAPES(USE_WHILE, name, BODY)
OPS(GEN_VALSET)
CMPS(GEN_BRANCH)

enum {
#define X(name, BODY) OP_##name,
	OPS(X)
#undef X
	OP_COUNT
};

#define ROW(name, BODY) { name##_NN, name##_SN, name##_NS, name##_SS, name##_SK, name##_NK, name##_KS, name##_KN },
#define ROW_SET(name, BODY) { name##_NN_set, name##_SN_set, name##_NS_set, name##_SS_set, name##_SK_set, name##_NK_set, name##_KS_set, name##_KN_set },
#define ROW_IF(name, BODY) { name##_NN_if, name##_SN_if, name##_NS_if, name##_SS_if, name##_SK_if, name##_NK_if, name##_KS_if, name##_KN_if },
#define ROW_XIF(name, BODY) { name##_NN_xif, name##_SN_xif, name##_NS_xif, name##_SS_xif, name##_SK_xif, name##_NK_xif, name##_KS_xif, name##_KN_xif },
#define ROW_WHILE(name, BODY) { name##_NN_while, name##_SN_while, name##_NS_while, name##_SS_while, \
	name##_SK_while, name##_NK_while, name##_KS_while, name##_KN_while },

static const NodeFn val_table[][SHAPE_COUNT] = { OPS(ROW) };
static const NodeFn set_table[][SHAPE_COUNT] = { OPS(ROW_SET) };
/* indexed by row - OP_i64_eq */
static const NodeFn if_table[][SHAPE_COUNT] = { CMPS(ROW_IF) };
static const NodeFn xif_table[][SHAPE_COUNT] = { CMPS(ROW_XIF) };
static const NodeFn while_table[][SHAPE_COUNT] = { CMPS(ROW_WHILE) };

static int
op_row(BinaryOp op, TypeId t)
{
	int base, cmp;
	switch (t) {
	case TY_I64: base = OP_i64_add; cmp = OP_i64_eq; break;
	case TY_USIZE: base = OP_us_add; cmp = OP_us_eq; break;
	case TY_F64: base = OP_f64_add; cmp = OP_f64_eq; break;
	/* comparisons only: u8 and char hold their value in .u, i32 in .i
	 * (value.h), so the usize and i64 comparisons are theirs */
	case TY_U8: case TY_CHAR: base = -1; cmp = OP_us_eq; break;
	case TY_I32: base = -1; cmp = OP_i64_eq; break;
	default: return -1;
	}
	if (base < 0 && (op == BIN_ADD || op == BIN_SUB || op == BIN_MUL || op == BIN_DIV || op == BIN_REM))
		return -1;
	switch (op) {
	case BIN_ADD: return base;
	case BIN_SUB: return base + 1;
	case BIN_MUL: return base + 2;
	case BIN_DIV: return base + 3;
	case BIN_REM: return t == TY_F64 ? -1 : base + 4;
	case BIN_EQ: return cmp;
	case BIN_NE: return cmp + 1;
	case BIN_LT: return cmp + 2;
	case BIN_LE: return cmp + 3;
	case BIN_GT: return cmp + 4;
	case BIN_GE: return cmp + 5;
	default: return -1;
	}
}

NodeFn
interp_scalar_binary_fn(BinaryOp op, TypeId t, int shape, const Value *k)
{
	int row = op_row(op, t);
	if (row < 0)
		return NULL;
	if (t == TY_I64 && k && k->i == 2 && (shape == SHAPE_SK || shape == SHAPE_NK) &&
	    (op == BIN_DIV || op == BIN_REM))
		row = op == BIN_DIV ? OP_i64_div2 : OP_i64_rem2;
	return val_table[row][shape];
}

/* Finds the (row, shape) of a VAL function. */
static bool
find_val(NodeFn f, int *row, int *shape)
{
	for (int r = 0; r < OP_COUNT; r++)
		for (int s = 0; s < SHAPE_COUNT; s++)
			if (val_table[r][s] == f) {
				*row = r;
				*shape = s;
				return true;
			}
	return false;
}

NodeFn
interp_scalar_use_fn(NodeFn val, int use)
{
	int row, shape;
	if (!find_val(val, &row, &shape))
		return NULL;
	if (use == SCALAR_SET)
		return set_table[row][shape];
	if (row < OP_i64_eq)
		return NULL;
	row -= OP_i64_eq;
	switch (use) {
	case SCALAR_IF: return if_table[row][shape];
	case SCALAR_XIF: return xif_table[row][shape];
	case SCALAR_WHILE: return while_table[row][shape];
	default: return NULL;
	}
}
