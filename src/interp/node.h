/*
 * node.h — the interpreter's executable form (src/interp).
 *
 * compile.c lowers every HIR function once, before `main` runs, into a
 * tree of Nodes: each node carries the C function that evaluates it, chosen
 * for the node's static types and operand shapes (an i64 addition of a slot
 * and a constant is its own function), its operands pre-resolved (slots,
 * constants, callee, builtin dispatch index, field paths, case indices),
 * and the number of fuel steps it charges.  Evaluating a node is one
 * indirect call: no name lookups, no type dispatch and no allocation on
 * the hot path of scalar code.
 *
 * Fuel (§0.4) is one step per HIR expression node evaluated and per
 * contract clause.  A node standing for several HIR nodes (an operation on
 * slots and constants) charges them together, and only where no observable
 * effect can happen between them, so every program stops at the same point
 * and reports the same step count as a node-by-node evaluation would.
 * Superinstructions (a statement with its operation, a branch with its
 * comparison, a call with its callee's frame: compile.c) follow the same
 * rule.  Work that grows with a value's size is charged too (value.h).
 */
#ifndef SPX_INTERP_NODE_H
#define SPX_INTERP_NODE_H

#include "interp.h"

typedef struct Node Node;
typedef struct CBlock CBlock;
typedef struct CFunc CFunc;

/* Evaluates node n in the frame whose slots start at S. */
typedef Value (*NodeFn)(Interp *I, Value *S, const Node *n);

typedef struct CArm {
	const HirPattern *pat;   /* resolved in the HIR (hir.h) */
	Node *guard;
	Node *value;
	const HirSlot *binds;
	int nbinds;
	const HirSlot *owned; /* owned slots of the arm's scope */
	int nowned;
} CArm;

struct CBlock {
	Node **stmts;
	int nstmts;
	Node *tail;
	const Node *only;     /* the tail of a simple block without statements (exec_block) */
	const HirSlot *owned;
	int nowned;
	bool simple;          /* nothing to release at its end: no owned slots, no view temporaries */
	bool lends;           /* the block of a lending branch value (HirExpr.lends): its borrowed
	                         tail, a lent parameter's path, is returned as read, never copied */
};

struct Node {
	NodeFn fn;
	uint32_t steps;       /* charged on entry */
	HirSlot a, b;         /* slots */
	HirSlot d;            /* superinstructions: the slot assigned */
	int32_t op;           /* operator, field, case, builtin or function index */
	uint32_t flags;       /* builtins: view bit 0, borrowed parameters from bit 1 */
	Value k;              /* a constant operand */
	Node *x, *y;          /* operands, condition, scrutinee, base */
	Node **kids;          /* arguments, aggregate values, array elements */
	int nkids;
	int32_t *ints;        /* aggregate field indices; field paths */
	CBlock *b1, *b2;      /* branches, loop body */
	CArm *arms;
	int narms;
	CFunc *callee;
	const HirExpr *e;     /* the source expression */
	const HirStmt *s;     /* the source statement */
};

struct CFunc {
	const HirFunc *f;
	const Sema *S;        /* the checked program of its module */
	int index;            /* in HirModule.funcs */
	CBlock *body;
	Node **req, **ens;
	int nreq, nens;
	HirSlot *sweep;       /* locals that may hold heap values: released at frame exit */
	int nsweep;
	HirSlot *caps;        /* closures: the slots their captures occupy */
	int ncaps;
	bool simple;          /* no contracts, no captures, body->simple */
	bool scalar;          /* simple, every local a Copy scalar or a view (nsweep 0), a scalar result */
};

#define STOPPED (I->stop != STOP_NONE)

/*
 * Charges k steps; on exhaustion stops the run and returns V_EMPTY.  The
 * heap limit (value.h) stops the run through the same test: its hook
 * lowers the budget, so the run stops at the next node's entry, where no
 * value is half-built (interp_charge_stop tells the two apart).
 */
#define CHARGE(I, k) do { \
	if (((I)->heap.left -= (int64_t)(k)) < 0) { \
		interp_charge_stop(I); \
		return v_empty(); \
	} \
} while (0)

Value interp_x_local_scalar(Interp *I, Value *S, const Node *n);
Value interp_x_int(Interp *I, Value *S, const Node *n);

/* Releases what a slot holds and leaves it empty. */
static inline void
slot_clear(ValueHeap *h, Value *s)
{
	value_release(h, *s);
	*s = v_empty();
}

/* Evaluates n; a read of a scalar slot (the commonest leaf) is done here,
 * without the call (exactly interp_x_local_scalar). */
static inline Value
node_eval(Interp *I, Value *S, const Node *n)
{
	if (n->fn == interp_x_local_scalar) {
		if ((I->heap.left -= 1) < 0) {
			interp_charge_stop(I);
			return v_empty();
		}
		return S[n->a];
	}
	return n->fn(I, S, n);
}

/* compile.c */
void interp_compile_module(Interp *I);

/* exec.c: the generic node functions compile.c chooses from */
Value interp_x_int(Interp *I, Value *S, const Node *n);       /* k: any literal scalar */
Value interp_x_string(Interp *I, Value *S, const Node *n);
Value interp_x_local(Interp *I, Value *S, const Node *n);
Value interp_x_local_scalar(Interp *I, Value *S, const Node *n);
Value interp_x_move(Interp *I, Value *S, const Node *n);
Value interp_x_func(Interp *I, Value *S, const Node *n);
Value interp_x_unary(Interp *I, Value *S, const Node *n);
Value interp_x_binary(Interp *I, Value *S, const Node *n);
Value interp_x_and(Interp *I, Value *S, const Node *n);
Value interp_x_or(Interp *I, Value *S, const Node *n);
Value interp_x_call(Interp *I, Value *S, const Node *n);
Value interp_x_call_slot(Interp *I, Value *S, const Node *n);
Value interp_x_call_simple(Interp *I, Value *S, const Node *n);
Value interp_x_call_lean(Interp *I, Value *S, const Node *n);
Value interp_x_call_scalar(Interp *I, Value *S, const Node *n);
Value interp_x_builtin(Interp *I, Value *S, const Node *n);
Value interp_x_field(Interp *I, Value *S, const Node *n);
Value interp_x_field_path(Interp *I, Value *S, const Node *n);
Value interp_x_field_take_path(Interp *I, Value *S, const Node *n);
Value interp_x_try(Interp *I, Value *S, const Node *n);
Value interp_x_agg(Interp *I, Value *S, const Node *n);
Value interp_x_block(Interp *I, Value *S, const Node *n);
Value interp_x_if(Interp *I, Value *S, const Node *n);
Value interp_x_match(Interp *I, Value *S, const Node *n);
Value interp_x_match_byte_get(Interp *I, Value *S, const Node *n);
bool interp_match_stack_ok(const Node *n);
Value interp_x_match_byte_opt(Interp *I, Value *S, const Node *n);
int interp_match_byte_opt_flags(const Node *n);
Value interp_x_closure(Interp *I, Value *S, const Node *n);
Value interp_x_array(Interp *I, Value *S, const Node *n);
/* statements (charge nothing themselves) */
Value interp_s_let(Interp *I, Value *S, const Node *n);
Value interp_s_let_scalar(Interp *I, Value *S, const Node *n);
Value interp_s_copy_slot(Interp *I, Value *S, const Node *n);
Value interp_s_set_const(Interp *I, Value *S, const Node *n);
Value interp_s_if(Interp *I, Value *S, const Node *n);
Value interp_s_if_not(Interp *I, Value *S, const Node *n);
Value interp_s_set_field(Interp *I, Value *S, const Node *n);
Value interp_s_while(Interp *I, Value *S, const Node *n);
Value interp_s_while_and(Interp *I, Value *S, const Node *n);
Value interp_s_for(Interp *I, Value *S, const Node *n);
Value interp_s_block(Interp *I, Value *S, const Node *n);

/* exec_scalar.c: typed operations on slots, constants (k: the literal
 * operand, or NULL) and nodes; NULL when no specialised function exists
 * for (op, type, shape). */
NodeFn interp_scalar_binary_fn(BinaryOp op, TypeId t, int shape, const Value *k);
enum { SHAPE_NN, SHAPE_SN, SHAPE_NS, SHAPE_SS, SHAPE_SK, SHAPE_NK, SHAPE_KS, SHAPE_KN, SHAPE_COUNT };
/* The superinstruction of a interp_scalar_binary_fn node used as the value of a
 * scalar assignment to slot d (SET), or (comparisons) as the condition of a
 * statement if, an expression if or a while; NULL when there is none. */
enum { SCALAR_SET, SCALAR_IF, SCALAR_XIF, SCALAR_WHILE };
NodeFn interp_scalar_use_fn(NodeFn val, int use);

/* exec_builtin.c: a specialised node function for a builtin call, or NULL;
 * whether a node is the specialised byte_get on a slot. */
NodeFn interp_builtin_fn(int index, const HirExpr *call);
bool interp_builtin_is_byte_get_slot(const Node *n);
/* Whether f is the view of a slot's string or bytes (no temporary kept). */
bool interp_builtin_is_view_slot(NodeFn f);
/* The in-place statement `x = builtin(x, …)` for bytes_set, vec_set and
 * vec_push (Copy-scalar elements), or NULL; leaves: its other arguments
 * are all scalar slots or literals. */
NodeFn interp_builtin_inplace_fn(int index, bool leaves);

Value interp_exec_block_full(Interp *I, Value *S, const CBlock *b);

/*
 * Runs block b: a simple one (nothing to release at its end) right here,
 * its statements through call sites of their own for the commonest
 * lengths (each site predicts better than one shared by every block).
 */
#define RUN_STMT(k) do { \
	const Node *s_ = b->stmts[k]; \
	s_->fn(I, S, s_); \
	if (STOPPED) \
		return v_empty(); \
} while (0)

static inline Value
exec_block(Interp *I, Value *S, const CBlock *b)
{
	if (!b->simple)
		return interp_exec_block_full(I, S, b);
	switch (b->nstmts) {
	case 0:
		break;
	case 1:
		RUN_STMT(0);
		break;
	case 2:
		RUN_STMT(0);
		RUN_STMT(1);
		break;
	case 3:
		RUN_STMT(0);
		RUN_STMT(1);
		RUN_STMT(2);
		break;
	default:
		for (int i = 0; i < b->nstmts; i++)
			RUN_STMT(i);
		break;
	}
	if (!b->tail)
		return v_empty();
	if (b->tail->fn == interp_x_int) {
		/* a literal tail (`0` closing a loop body), as interp_x_int */
		CHARGE(I, 1);
		return b->tail->k;
	}
	return node_eval(I, S, b->tail);
}

/*
 * Runs block b for its effects only (a loop body, a statement `if`'s
 * branch): exec_block inlined into its caller, which already holds I, S
 * and its node in saved registers, so a simple block costs no call of its
 * own; a literal tail is charged without building its value.
 */
static inline __attribute__((always_inline)) void
exec_block_void(Interp *I, Value *S, const CBlock *b)
{
	if (!b->simple) {
		value_release(&I->heap, interp_exec_block_full(I, S, b));
		return;
	}
	for (int i = 0; i < b->nstmts; i++) {
		const Node *s = b->stmts[i];
		s->fn(I, S, s);
		if (STOPPED)
			return;
	}
	const Node *t = b->tail;
	if (!t)
		return;
	if (t->fn == interp_x_int) {
		if ((I->heap.left -= 1) < 0)
			interp_charge_stop(I);
		return;
	}
	value_release(&I->heap, node_eval(I, S, t));
}

/* exec_block where the block is often only its tail (the branches of an
 * expression `if`, a function body that is one expression): that node,
 * without the block's call. */
Value interp_exec_block(Interp *I, Value *S, const CBlock *b);   /* exec_block, not inline */
static inline Value
exec_branch(Interp *I, Value *S, const CBlock *b)
{
	if (b->only)
		return node_eval(I, S, b->only);
	return interp_exec_block(I, S, b);
}
Value interp_exec_call(Interp *I, const CFunc *cf, Value *args, int nargs, const Obj *caps);

#endif
