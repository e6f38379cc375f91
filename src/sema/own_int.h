/*
 * own_int.h — the ownership pass's state, shared by its files:
 *   own.c       moves, forks and joins, loops, the statements (O/H codes,
 *               T265 loans, T284)
 *   own_view.c  view/owner edges and their flow state, T265 where a view
 *               outlives or outlasts its owner's storage
 *   own_live.c  T265's liveness of a view at its owner's change
 *   own_fact.c  … its correlated conditions: the facts that walk holds
 */
#ifndef SPX_SEMA_OWN_INT_H
#define SPX_SEMA_OWN_INT_H

#include "sema_int.h"

enum { ST_LIVE, ST_MOVED, ST_MAYBE, ST_PARTIAL };

/*
 * A state is one of the four above in its low two bits; ST_PARTIAL carries
 * per-field facts for the first FIELD_BITS moved fields (OwnVar.moved_fields
 * order): bit DEF(k) the field is moved on every path here, MAY(k) on some
 * path only; ALL_PATHS says the record is partially moved on every path.
 * Joins combine them, so a field moved in one branch only is "maybe moved"
 * (O110) and a sibling the branches did not touch stays usable.
 */
typedef uint16_t OwnSt;
#define ST(x) ((x) & 3)
#define FIELD_BITS 6
#define DEF(k) ((OwnSt)(1u << (2 + 2 * (k))))
#define MAY(k) ((OwnSt)(1u << (3 + 2 * (k))))
#define ALL_PATHS ((OwnSt)(1u << 14))

/* The owned fields moved out of a partially moved variable (the first six;
 * FIELD_BITS), kept beside the variables: few bindings ever need one. */
typedef struct OwnFields {
	const char *name[6];
} OwnFields;

typedef struct OwnVar {
	const char *name;
	TypeId type;
	uint32_t serial;   /* unique in the function: tells a reused index from the variable an edge names */
	int moved_fields;  /* ST_PARTIAL: index of its OwnFields in Own.fields; -1: none yet */
	int loans;         /* open `match borrow` arms and `for` bodies borrowing from this owner (T265) */
	int traversals;    /* … of which `for` bodies: the traversal source is frozen (T284) */
	int prev;          /* the variable of the same name this one hides, or -1 */
	int owner_edges;   /* as an owner: its latest view edge (Own.edges), or -1 … */
	int view_edges;    /* … as a value holding views: its latest edge, or -1 */
	uint8_t borrowed;  /* 1: a `borrow` parameter; 2: a binding into a borrowed value */
	bool shared;       /* borrowed == 1 through a `shared` parameter */
	bool own_closure;  /* captured by, or bound to, an owning closure: a move reads as O101 */
	uint8_t refused;   /* a refused reassignment (U105) left it moved: 1; 2: in a loop it was declared outside of */
	bool for_item;     /* a borrowed `for` item (borrowed == 2), not a `match borrow` binding */
	const char *moved_into;   /* moved by a plain `let <moved_into> = <name>;`: NULL otherwise */
	const char *moved_by;     /* the callee it was last passed to by name (a move), or NULL */
	const char *moved_param;  /* … and that callee's parameter (`self`, `arg0` for a compiler-owned one) */
	uint32_t moved_at;        /* where it was last moved (a source offset; 0: never) */
} OwnVar;

/* A value holding a view (`str`, `Slice<u8>`, or a Box/Vec/Option/… of
 * them) borrows from an owner: one edge per (view, owner) pair (Own.pairs),
 * listed from both ends.  Never removed: an edge whose variable went out of
 * scope fails the serial check (its index may hold another variable by
 * then).  Whether the view holds the owner's storage at this point is the
 * edge's flow state, alive, forked and joined like a variable's (the trail
 * names edge k as variable -1 - k): made or renewed by a binding or an
 * assignment of the view, killed when the view variable is given a value
 * that does not name it; the join of two paths is alive when either is. */
typedef struct OwnEdge {
	int view, owner;
	uint32_t view_serial, owner_serial;
	int next_by_owner, next_by_view;
	OwnSt alive;
} OwnEdge;

/* The steps (statements and arms looked at) T265's liveness walks may take
 * holding a fact, per function: OWN_FACT_WORK plus OWN_FACT_WORK_PER for
 * each name occurrence in it.  Each distinct condition has its own memo
 * (own_live.c), so a walk holding one may look again at what another's
 * did; past the budget no new fact is taken (more T265, the safe side) and
 * the rest of the function costs what it costs uncorrelated: linear. */
#define OWN_FACT_WORK 65536
#define OWN_FACT_WORK_PER 4

struct OwnFact {
	const Expr *cond;
	const Pattern *pat;
	uint32_t hash;    /* own_fact.c's interning */
	uint32_t reach;
};

typedef struct Own {
	Sema *S;
	VEC(OwnVar) vars;
	VEC(OwnFields) fields;  /* OwnVar.moved_fields */
	VEC(OwnSt) st;       /* state per var (parallel to vars) */
	VEC(int) marks;
	VEC(struct OwnLoop { int mark; uint32_t start; }) loops;   /* enclosing loops, outermost first (T265) */
	VEC(OwnEdge) edges;    /* view → owner borrows (T265); stale ones fail the serial check */
	VEC(struct OwnRef { int var; uint32_t serial; }) escaped;  /* owners of views that left a scope (sema_own_view_escapes) */
	uint32_t serials;
	const Block *body;     /* the function's body: its value is the result (O116/T264 there) */
	bool quiet_views;      /* the value of a T284 rebinding: its moves are ordinary (no T265 besides) */
	VEC(struct OwnUndo { int var; OwnSt old; }) trail;   /* state changes while a fork is open (var < 0: edge -1 - var) */
	int forks;             /* open forks */
	int *stamp;            /* per var: the epoch that last collected it (diff) */
	int stamp_cap, epoch;
	int *estamp;           /* … per edge */
	int estamp_cap;
	int *pairs;            /* open addressing: (view serial, owner serial) → edge + 1 (0: empty) */
	int pairs_cap;
	bool loops_unstable;   /* a loop's states did not settle within OWN_LOOP_PASSES: refused (T265) */
	VEC(struct OwnAt { const Block *b; int i; int mark; }) blocks;  /* blocks being walked, innermost last: the statement (nstmts: the tail); its first variable */
	VEC(struct OwnOcc { const char *name; uint32_t at; bool let; bool mut; }) occ;  /* the function's name uses by (name, offset), built on demand (own_live.c) */
	VEC(struct OwnOcc) kills;  /* … its whole assignments and `let`s (let set) by (target, offset) */
	VEC(struct OwnOcc) binds;  /* … its `for` items and match pattern bindings (own_fact.c: a condition's name bound by nothing else) */
	VEC(struct OwnLetDef { const char *name; const Expr *value; }) letdefs;  /* … its `let`s' values, by name (own_fact.c: a condition bound by a `let`) */
	bool occ_built;
	struct OwnMemo { const Block *b; int j; const char *name; uint32_t h; int fact; int r; } *memo;  /* own_live.c: (block, statement, name, fact) → the rest's answer */
	/* own_fact.c: the conditions correlated so far (OwnMemo.fact): an `if`'s
	 * condition without its leading `!`s (pat NULL), or a match's scrutinee
	 * and the pattern of the arm that ran; reach: the last offset where a
	 * condition it may decide is read (past it the walk drops the fact) */
	VEC(struct OwnFact) facts;
	int *fact_slots;       /* open addressing: a condition's hash → its index in facts + 1 (0: empty) */
	int fact_slots_cap;
	struct OwnReach { uint32_t key, at; } *reach;   /* own_fact.c: a condition's key → the end of its last read (key 0: empty) */
	int reach_cap, reach_len;
	bool reach_built;
	int64_t fact_work, fact_budget;   /* steps taken holding a fact; the function's budget (OWN_FACT_WORK) */
	int nparams;           /* the function's parameters: the first variables */
	int memo_cap, memo_len;
	VEC(int) visited;      /* own_live.c's scratch */
	VEC(const Expr *) operands;  /* evaluated operands holding views whose consumer has not run yet (sema_own_operand_done) */
	StrMap index;          /* name → index of its innermost variable (-1: none) */
	StrMap last_use;       /* name → end offset of its last use in the function (T265) */
	bool in_contract;      /* contracts may not transfer ownership (O105) */
	bool edges_full;       /* OWN_EDGE_CAP reached: the function is refused (T265) */
	const char *fn_name;   /* the function being checked (O102 text) */
	const char *arg_callee; /* while a call argument that is a bare name is checked: the callee … */
	const char *arg_param;  /* … and its parameter's name (builtins: `argN`); NULL otherwise */
	const Expr *arg_place;  /* the call argument being checked when it is a name or a field (T265's wording) */
	char arg_buf[24];       /* storage for a builtin's `argN` */
	VEC(struct OwnCallAt { const Expr *call; Expr *const *args; int cur; const uint8_t *cons; int offset; }) calls;  /* calls whose arguments are being checked, innermost last (H006's help) */
	const Expr *use_field;  /* own_field: the field read whose base is being looked at (H006's help) */
	const Expr *with_of;    /* the `base with { … }` whose replacements are being checked, or NULL (H006's note) */
	const Expr *method;     /* the method call whose receiver is being checked (O108's help), or NULL */
} Own;

/* The view/owner links one function may make: a chain of views passed
 * through one another (`let v2 = if c { v1 } else { string_as_str(o2) };`)
 * borrows from every owner before it, n²/2 links for n views; past the cap
 * the function is refused (T265, sema_own_check_function) rather than the
 * checker growing without bound (3,200 such views took 137 MB). */
#define OWN_EDGE_CAP (1 << 18)

/* own.c */
int sema_own_find(Own *O, const char *name);
bool sema_own_first_report(Own *O, const Expr *e);
bool sema_own_owned(Own *O, TypeId t);

/* own_live.c */
bool sema_own_view_live_after(Own *O, int v, uint32_t end);
void sema_own_loop_widen(Own *O, int n, Span loop, const Expr *cond, const Block *body);
const struct OwnOcc *sema_own_occ_range(const struct OwnOcc *items, int len, const char *name, int *n);
int sema_own_arm_at(const Expr *e, uint32_t q);

/* The change at pos lies in x (its end included: a change ending x). */
static inline bool
sema_own_holds_pos(const Expr *x, uint32_t pos)
{
	return x && pos > x->span.start && pos <= x->span.end;
}

/* own_fact.c: a fact is 0 (none) or 2 * (index in Own.facts) + 1 + value */
int sema_own_fact_enter(Own *O, const Expr *e, const Block *inner, uint32_t pos, uint32_t *fact_let, uint32_t *fact_reach);
int sema_own_fact_value(Own *O, int fact, const Expr *cond);
int sema_own_fact_alts(const Own *O, int fact, const Expr *scrut, const Pattern *const **fa, const Pattern **one);
uint32_t sema_own_fact_arm_meets(const Pattern *const *fa, int nf, uint32_t left, const Pattern *p, uint32_t *covers);

/* own_view.c */
bool sema_own_edge_scoped(Own *O, int k);
bool sema_own_edge_live(Own *O, int k);
void sema_own_set_edge(Own *O, int k, OwnSt alive);
void sema_own_add_edge(Own *O, int view, int owner);
int sema_own_live_view(Own *O, int i, uint32_t end);
void sema_own_operand_done(Own *O, const Expr *e);
bool sema_own_operand_borrows(Own *O, int owner);
void sema_own_view_collect(Own *O, int view, TypeId t, const Expr *e);
void sema_own_view_escapes(Own *O, int view, TypeId t, int mark);
void sema_own_view_kill(Own *O, int view, const Expr *e);
void sema_own_check_live_views(Own *O, int owner, const Stmt *s);
void sema_own_scope_end(Own *O, Span at);
void sema_own_tail_escape(Own *O, const Expr *value);

#endif
