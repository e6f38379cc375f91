/*
 * ast.h — the syntax tree produced by the parser (LANGUAGE.md §2).
 *
 * Tagged unions: each node has a `kind` and a `u` union; the comment on each
 * kind names the valid union member.  Every node carries a Span (byte range
 * plus 1-based line/column of its start).  All nodes, arrays and strings
 * live in the parse Arena.  Names are arena strings (Name); lists are
 * (pointer, count) pairs.
 *
 * Normalisations done by the parser (so parse(fmt(x)) == parse(x)):
 *   - parentheses are not nodes (the formatter re-derives them by precedence);
 *   - `else if` becomes an else Block whose only content is the inner `if`;
 *   - `Type::Case` without braces is recorded with has_braces = false (the
 *     dump ignores it; fmt always prints `{}`).
 */
#ifndef SPX_AST_H
#define SPX_AST_H

#include "../lex/lex.h"

#include <string.h>

typedef struct Name {
	const char *s;   /* arena, NUL-terminated (interned by the parser); NULL: absent */
	Span span;       /* (no length member: 16 bytes, not 24; see ast_name_len) */
} Name;

/* A name's length in bytes: its spelling is NUL-terminated and never holds
 * a NUL; an absent (zeroed) name is empty.  Not the span's length: a name
 * the parser could not read is "" at the token it expected it.  An
 * interned spelling carries its length (arena_str_len). */
static inline uint32_t
ast_name_len(Name n)
{
	return n.s ? (uint32_t)arena_str_len(n.s) : 0;
}

/* A dotted name a.b.c (module, effect, or type name). */
typedef struct QName {
	Name *parts;
	int nparts;
	Span span;
} QName;

/* A string literal as written: decoded value plus the source span. */
typedef struct StrLit {
	const char *s;   /* decoded bytes, NUL-terminated (may contain NULs: use len) */
	uint32_t len;
	Span span;
} StrLit;

typedef struct Expr Expr;
typedef struct Type Type;
typedef struct Block Block;
typedef struct Pattern Pattern;
typedef struct Stmt Stmt;

/* ---- types --------------------------------------------------------------- */

typedef enum TypeKind {
	TYPE_NAME,   /* u.name: i64, string, Vec<T>, a.b.C<…>, type parameters */
	TYPE_ARRAY,  /* u.array: [u8; N] */
	TYPE_FN,     /* u.fn: fn(T, …) -> R */
} TypeKind;

/*
 * Type annotations are allocated at their kind's size, and a TYPE_NAME at its
 * form's (read it through the ast_type_* accessors below): a one-part name
 * without arguments (most annotations) is the header and its spelling, 24
 * bytes; with arguments it adds args/nargs (40); a dotted name adds its parts
 * array (48). A one-part name's span is [span.start, name_end), the qualified
 * name's too; nothing else stores it.
 */
struct Type {
	TypeKind kind : 8;
	bool name_long : 1;  /* TYPE_NAME: u.name has args, nargs, nparts (and parts when nparts > 1) */
	uint32_t name_end;   /* TYPE_NAME: where its (qualified) name ends; 0: no name (parse error) */
	Span span;
	union {
		struct {
			const char *s;   /* the spelling of a one-part name; NULL: none; dotted: NULL */
			Type **args; int nargs; int nparts;   /* name_long only */
			Name *parts;     /* name_long and nparts > 1 only */
		} name;
		struct { Type *elem; uint64_t len; Span len_span; } array;
		struct { Type **params; int nparams; Type *result; bool mut_i64; } fn;  /* mut_i64: `FnMutI64(i64) -> i64` */
	} u;
};

/* A TYPE_NAME's number of name parts (0 after a parse error). */
static inline int
ast_type_nparts(const Type *t)
{
	return t->name_long ? t->u.name.nparts : t->u.name.s != NULL;
}

/* A TYPE_NAME's generic arguments. */
static inline int
ast_type_nargs(const Type *t)
{
	return t->name_long ? t->u.name.nargs : 0;
}

static inline Type **
ast_type_args(const Type *t)
{
	return t->name_long ? t->u.name.args : NULL;
}

/* The span of a TYPE_NAME's qualified name ({0, 0} when it has none). */
static inline Span
ast_type_name_span(const Type *t)
{
	Span s = { t->name_end ? t->span.start : 0, t->name_end };
	return s;
}

/* Part i (0 <= i < ast_type_nparts) of a TYPE_NAME's name. */
static inline Name
ast_type_part(const Type *t, int i)
{
	if (ast_type_nparts(t) > 1)
		return t->u.name.parts[i];
	Name n = { t->u.name.s, ast_type_name_span(t) };
	return n;
}

/* A TYPE_NAME's name as a QName; a one-part name's part is stored in *one. */
static inline QName
ast_type_qname(const Type *t, Name *one)
{
	QName q = { NULL, ast_type_nparts(t), ast_type_name_span(t) };
	if (q.nparts > 1) {
		q.parts = t->u.name.parts;
	} else if (q.nparts == 1) {
		*one = ast_type_part(t, 0);
		q.parts = one;
	}
	return q;
}

/* ---- expressions ----------------------------------------------------------- */

typedef enum ExprKind {
	EXPR_INT,       /* u.int_lit */
	EXPR_FLOAT,     /* u.float_lit */
	EXPR_CHAR,      /* u.char_lit */
	EXPR_STRING,    /* u.str */
	EXPR_BOOL,      /* u.bool_lit */
	EXPR_NAME,      /* u.name: a value or function name */
	EXPR_UNARY,     /* u.unary */
	EXPR_BINARY,    /* u.binary */
	EXPR_CALL,      /* u.call: name [<types>] (args) */
	EXPR_METHOD,    /* u.method: recv.name(args) */
	EXPR_FIELD,     /* u.field: base.name */
	EXPR_TRY,       /* u.try_: operand? */
	EXPR_WITH,      /* u.with: base with { inits } */
	EXPR_RECORD,    /* u.record: Q.Name [<types>] { inits } */
	EXPR_VARIANT,   /* u.variant: Name [<types>] :: Case [{ inits }] */
	EXPR_SUPER,     /* u.super_: super.name(args) */
	EXPR_BLOCK,     /* u.block */
	EXPR_IF,        /* u.if_ */
	EXPR_MATCH,     /* u.match */
	EXPR_CLOSURE,   /* u.closure */
	EXPR_ARRAY,     /* u.array: [e, …] */
} ExprKind;

typedef enum UnaryOp { UN_NEG, UN_NOT } UnaryOp;

/* Binary operators, in precedence groups (LANGUAGE.md §1.5). */
typedef enum BinaryOp {
	BIN_OR,                          /* level 1 */
	BIN_AND,                         /* level 2 */
	BIN_EQ, BIN_NE,                  /* level 3 */
	BIN_LT, BIN_LE, BIN_GT, BIN_GE,  /* level 4 */
	BIN_ADD, BIN_SUB,                /* level 5 */
	BIN_MUL, BIN_DIV, BIN_REM,       /* level 6 */
} BinaryOp;

int ast_binary_prec(BinaryOp op);         /* 1..6 */
const char *ast_binary_spelling(BinaryOp op);

/* `name: value` in a record/variant literal or a `with` update. */
typedef struct FieldInit {
	Name name;
	Expr *value;
	Span span;
} FieldInit;

typedef enum MatchMode { MATCH_PLAIN, MATCH_OWN, MATCH_BORROW } MatchMode;

typedef struct MatchArm {
	Pattern *pat;
	Expr *guard;     /* NULL when none */
	Expr *value;
	Span span;
} MatchArm;

typedef struct ClosureParam {
	Name name;
	Type *type;
} ClosureParam;

struct Expr {
	ExprKind kind : 8;
	NumSuffix lit_suffix : 8;   /* EXPR_INT (SUF_NONE/I32/U8/USIZE), EXPR_FLOAT (SUF_NONE/F32/F64) */
	bool lit_negative : 1;      /* EXPR_INT: see u.int_lit (in the header: an integer is 24 bytes) */
	BinaryOp bin_op : 8;        /* EXPR_BINARY (in the header: a binary is 32 bytes, not 40) */
	UnaryOp un_op : 2;          /* EXPR_UNARY (24 bytes, not 32) */
	uint32_t id;     /* dense, 0..Module.nexprs-1, in creation order (sema side tables) */
	Span span;
	union {
		/*
		 * value: the magnitude as written; lit_negative: a directly
		 * preceding minus was folded in (only done for the signed minimum).
		 * The suffix is lit_suffix.
		 */
		struct { uint64_t value; } int_lit;
		struct { double value; } float_lit;  /* suffix: lit_suffix */
		struct { uint32_t value; } char_lit;
		StrLit str;
		struct { bool value; } bool_lit;
		/* the name's span is the node's (ast_expr_name): 24 bytes, not 32 */
		struct { const char *s; } name;
		struct { Expr *operand; } unary;   /* the operator: un_op */
		struct { Expr *lhs, *rhs; } binary;   /* the operator: bin_op */
		/* ix (call, method, super_): dense call number, 0..Module.ncalls-1 (ast_call_index) */
		/* the callee's span is the identifier at the node's start (ast_call_callee): 56 bytes, not 64 */
		struct { struct { const char *s; } callee; Type **targs; Expr **args; int ntargs; int nargs; uint32_t ix; bool has_targs; } call;
		struct { Expr *recv; Name name; Expr **args; int nargs; uint32_t ix; } method;
		/* the name's span ends the node (ast_field_name): 32 bytes, not 40 */
		struct { Expr *base; struct { const char *s; } name; } field;
		struct { Expr *operand; } try_;
		struct { Expr *base; FieldInit *inits; int ninits; } with;
		/* (members ordered to leave no padding: the node is allocated at this size) */
		struct { QName type; Type **targs; FieldInit *inits; int ntargs; int ninits; } record;
		struct {
			Name type; Name case_name; Type **targs; FieldInit *inits;
			int ntargs; int ninits; bool has_braces;
		} variant;
		struct { Name name; Expr **args; int nargs; uint32_t ix; } super_;
		Block *block;
		/* else_block is NULL when there is no else; an `else if` is an else
		 * block holding just that `if` (as its tail or as its only statement).
		 * else_if: a statement `if` chain written `else if` (not `else { if
		 * … }`), which the reference's value discard treats as one chain. */
		struct { Expr *cond; Block *then_block; Block *else_block; bool else_if; } if_;
		struct { Expr *scrutinee; MatchArm *arms; MatchMode mode; int narms; Span close; } match;
		struct { ClosureParam *params; Type *result; Block *body; int nparams; bool own, mut; } closure;  /* `own fn() -> R { … }`, `mut fn(…) -> i64 { … }` */
		struct { Expr **elems; int nelems; } array;
	} u;
};

/* An EXPR_NAME's name: its spelling at the node's span. */
static inline Name
ast_expr_name(const Expr *e)
{
	Name n = { e->u.name.s, e->span };
	return n;
}

/* An EXPR_CALL's callee: the identifier that starts the node (its spelling
 * is its source bytes, ASCII letters, digits and `_`). */
static inline Name
ast_call_callee(const Expr *e)
{
	Name n = { e->u.call.callee.s, { e->span.start, e->span.start + (uint32_t)strlen(e->u.call.callee.s) } };
	return n;
}

/* An EXPR_FIELD's name: the identifier that ends the node (ASCII: its
 * spelling is its source bytes). */
static inline Name
ast_field_name(const Expr *e)
{
	Name n = { e->u.field.name.s, { e->span.end - (uint32_t)strlen(e->u.field.name.s), e->span.end } };
	return n;
}

/* A call's (EXPR_CALL, EXPR_METHOD or EXPR_SUPER) dense number: the index of
 * the checker's call-only side tables, which would be mostly empty by Expr id. */
static inline uint32_t
ast_call_index(const Expr *e)
{
	switch (e->kind) {
	case EXPR_CALL: return e->u.call.ix;
	case EXPR_METHOD: return e->u.method.ix;
	case EXPR_SUPER: return e->u.super_.ix;
	default: break;
	}
	ASSERT(false, "ast_call_index of a non-call expression");
	return 0;
}

/* ---- patterns -------------------------------------------------------------- */

typedef enum PatternKind {
	PAT_WILD,     /* `_` (no member) */
	PAT_BIND,     /* u.bind: a catch-all binding */
	PAT_LIT,      /* u.lit: EXPR_INT/CHAR/BOOL (INT may be negative: see below) */
	PAT_OR,       /* u.or: alternatives (literal or case patterns) */
	PAT_CASE,     /* u.case_: Type::Case [{ fields }] */
	PAT_RECORD,   /* u.record: Type { fields } */
} PatternKind;

/* A payload/record field pattern: `f`, `f: x`, `f: _`, `f: Rec { … }`. */
typedef struct FieldPat {
	Name name;
	Pattern *sub;    /* NULL for shorthand `f`; else BIND, WILD or RECORD */
	Span span;
} FieldPat;

struct Pattern {
	PatternKind kind;
	Span span;
	union {
		Name bind;
		/* lit.negative: written with a leading `-` (integers only) */
		struct { Expr *value; bool negative; } lit;
		struct { Pattern **alts; int nalts; } or;
		struct { Name type; Name case_name; FieldPat *fields; int nfields; bool has_braces; } case_;
		struct { Name type; FieldPat *fields; int nfields; } record;
	} u;
};

/* ---- statements and blocks -------------------------------------------------- */

typedef enum StmtKind {
	STMT_LET,     /* u.let */
	STMT_ASSIGN,  /* u.assign: x = e; or x.f = e; */
	STMT_WHILE,   /* u.while_ */
	STMT_FOR,     /* u.for_ */
	STMT_IF,      /* u.if_: an EXPR_IF used as a statement */
	STMT_UNSAFE,  /* u.unsafe: @audit("…") unsafe { … } */
} StmtKind;

struct Stmt {
	StmtKind kind;
	Span span;
	int discard;     /* STMT_IF: n of the reference's `let _if<n> = if …;` (LANGUAGE.md §0.3) */
	union {
		struct { bool mut; Name name; Type *type; Expr *value; } let;  /* name "_" discards */
		struct { Name target; bool has_field; Name field; Expr *value; } assign;
		struct { Expr *cond; Block *body; } while_;
		struct { bool own; Name item; Expr *iter; Block *body; } for_;
		Expr *if_;
		struct { bool has_audit; StrLit audit; Block *body; } unsafe;  /* has_audit false: N102 */
	} u;
};

struct Block {
	Stmt **stmts;
	Expr *tail;      /* NULL: no tail (only legal for statement-if branches) */
	int nstmts;
	int tail_discard;  /* a statement-if branch value discarded as `let _if<n> = tail;` (0: none) */
	Span span;       /* from `{` to `}` inclusive (32 bytes in this order, not 40) */
};

/* ---- declarations ------------------------------------------------------------- */

typedef struct IdAttr {
	bool present;
	StrLit value;    /* the stable id */
	Span span;       /* the whole `@id("…")` */
} IdAttr;

typedef enum ParamMode { MODE_NONE, MODE_OWN, MODE_BORROW, MODE_SHARED } ParamMode;

typedef struct Param {
	Name name;
	ParamMode mode;
	Type *type;
	Span span;
} Param;

typedef struct EffectSet {
	QName *names;
	int nnames;
	Span span;
	bool present;        /* (last: 24 bytes, not 32) */
} EffectSet;

typedef enum ClauseKind { CLAUSE_REQUIRES, CLAUSE_ENSURES } ClauseKind;

typedef struct Clause {
	ClauseKind kind;
	Expr *cond;
	Span span;
} Clause;

typedef struct FnDecl {
	/* (pointers first, counts together: 112 bytes, not 128) */
	Name name;
	Name *tparams;
	Param *params;
	Type *result;
	EffectSet uses;
	Clause *clauses;     /* requires/ensures in source order */
	Block *body;
	int ntparams;
	int nparams;
	int nclauses;
	Span header;         /* `fn` through the last clause (before the body) */
} FnDecl;

typedef struct FieldDecl {
	IdAttr id;
	Name name;
	Type *type;
	Span span;
} FieldDecl;

typedef struct CaseDecl {
	IdAttr id;
	Name name;
	bool has_payload;    /* written with `{ … }` (possibly empty) */
	FieldDecl *fields;
	int nfields;
	Span span;
} CaseDecl;

/* A class member: a field or a method, in source order. */
typedef struct ClassMember {
	bool is_method;
	IdAttr id;
	union {              /* (anonymous: one of the two is stored) */
		FieldDecl field; /* valid when !is_method (field.id unused: see id) */
		FnDecl method;   /* valid when is_method */
	};
	Span span;
} ClassMember;

typedef struct ResourceDrop {
	IdAttr id;
	bool trivial;
	StrLit import;
	Span span;           /* `drop … ;` (the attribute before it not included) */
} ResourceDrop;

typedef struct ImportFn {
	IdAttr id;
	bool rust;
	Name name;
	Param *params;
	int nparams;
	Name result;         /* unit, i64 or bool */
	EffectSet effects;
	bool fallible;       /* failure status "…" (else infallible) */
	StrLit status;
	bool has_consumes;
	Name consumes;
	Span span;
} ImportFn;

typedef enum TransitionKind {
	TR_SEND, TR_RECEIVE, TR_CALL, TR_RETURN, TR_CANCEL, TR_TIMEOUT, TR_FAIL,
} TransitionKind;

typedef struct ChoiceArm {
	Name label;
	Name state;
} ChoiceArm;

typedef struct Transition {
	Name from;
	Name label;
	TransitionKind kind;
	Name message;
	bool has_capability;
	QName capability;
	bool consumes_resource;
	bool has_via;
	StrLit via;
	bool is_choice;
	Name to;             /* when !is_choice */
	ChoiceArm *choices;
	int nchoices;
	Span span;
} Transition;

typedef struct Terminal {
	Name state;
	Name *cleanup;
	int ncleanup;
	Span span;
} Terminal;

typedef enum DeclKind {
	DECL_FN,         /* u.fn */
	DECL_RECORD,     /* u.record */
	DECL_VARIANT,    /* u.variant */
	DECL_CLASS,      /* u.class_ */
	DECL_RESOURCE,   /* u.resource */
	DECL_INTERFACE,  /* u.interface */
	DECL_SESSION,    /* u.session */
} DeclKind;

typedef struct Decl {
	DeclKind kind;
	IdAttr id;
	Span span;           /* from the attribute (if any) to the end */
	union {
		FnDecl fn;
		struct {
			Name name; Name *tparams; int ntparams;
			FieldDecl *fields; int nfields;
			Clause *invariants; int ninvariants;  /* all CLAUSE_REQUIRES */
		} record;
		struct { Name name; Name *tparams; int ntparams; CaseDecl *cases; int ncases; } variant;
		struct {
			Name name; Name *tparams; int ntparams;
			bool has_parent; Name parent; Type **parent_targs; int nparent_targs;  /* `: B<i64>` */
			ClassMember *members; int nmembers;
		} class_;
		struct {
			Name name;
			Name *tparams; int ntparams;   /* parsed so the checker can refuse them (T223) */
			/* every lifecycle as written: none for the legacy `resource R;`
			 * (O112), more than one is O113; the first one's id, `trivial`
			 * and import are ast_resource_drop0 (no copy here: a Decl is
			 * 160 bytes, not 176) */
			struct ResourceDrop *drops; int ndrops;
		} resource;
		struct { Name name; EffectSet permits; ImportFn *imports; int nimports; } interface;
		struct {
			StrLit name; Name *states; int nstates; Name initial;
			Terminal *terminals; int nterminals;
			Transition *transitions; int ntransitions;
		} session;
	} u;
} Decl;

/* A resource's first lifecycle, drops[0] (`drop import "…";` or `drop
 * trivial;`); all zero for the legacy `resource R;`. */
static inline const ResourceDrop *
ast_resource_drop0(const Decl *d)
{
	static const ResourceDrop none;
	return d->u.resource.ndrops ? &d->u.resource.drops[0] : &none;
}

/* The name a declaration declares (NULL for a session, which has a string name). */
const Name *ast_decl_name(const Decl *d);
/* The formatter's output group of a declaration kind, the order `fmt` and the
 * AST dump print a module in: 0 types, 1 interfaces, 2 session protocols,
 * 3 functions. */
int ast_decl_group(DeclKind k);
/* Does evaluating e neither call, perform an effect nor trap: a literal, a
 * name, a field projection or `!` of one, a negated number literal?  Such an
 * argument may vanish (patch remove-parameter) or move into a match arm,
 * evaluated only when the case matches (T207's fix). */
bool ast_expr_plain(const Expr *e);
/* A qualified name's text: its parts joined by `.` (malloc'd; "" without
 * parts), never the source between them — `fs . read` and `fs // …⏎.read`
 * name `fs.read`, as fmt prints it (white space separates tokens only). */
char *ast_qname_text(const QName *q);

typedef struct UseDecl {
	bool is_type;        /* `use type` (else `use function`) */
	StrLit id;
	QName from;
	Name alias;
	Span span;
} UseDecl;

/* Module.prelude_names bits. */
enum {
	PRELUDE_N_ITER = 1,    /* Iter, IterStep, vec_into_iter, iter_next */
	PRELUDE_N_VEC = 2,     /* Vec, vec_… */
	PRELUDE_N_VEC3 = 4,    /* vec_reserve_exact, vec_set, vec_clear */
	PRELUDE_N_BOX = 8,     /* box_new, box_get, box_into_inner (box_…) */
	PRELUDE_N_BOXT = 16,   /* Box */
	PRELUDE_N_BYTES = 32,  /* Bytes */
};

/*
 * An expression written inside grouping parentheses (mend38): its node's span
 * leaves them out, so the parser records, for each such expression only, how
 * far its outermost `(` stands before the span's start (lead) and its `)`
 * ends after the span's end (trail).  Relative, so a declaration's shift
 * (reparse.c) leaves them right.  `((x))` records x once, both pairs.
 */
typedef struct ExprGroup {
	uint32_t id;      /* the Expr's */
	uint32_t lead, trail;
} ExprGroup;

typedef struct Module {
	QName name;
	Span module_span;    /* `module a.b;` */
	UseDecl *uses;
	int nuses;
	EffectSet permit;    /* present when a `permit` line exists */
	Decl *decls;
	int ndecls;
	const Comment *comments;  /* all comments in source order (from the lexer) */
	int ncomments;
	uint32_t nexprs;          /* number of Expr nodes (ids are 0..nexprs-1) */
	uint32_t ncalls;          /* number of call, method and super call nodes (ast_call_index) */
	const ExprGroup *groups;  /* the parenthesised expressions, by ascending id (ast_expr_extent) */
	uint32_t ngroups;
	Arena *arena;             /* the tree's arena (the checker takes its unused tail: arena_take_tail) */
	bool uses_fn_mut;         /* a `FnMutI64` type or a `mut fn` literal occurs */
	bool field_assigns;       /* a field assignment `x.f = v;` occurs (Sema.assign_owner is allocated) */
	/* The spellings the revision's prelude choice looks for that occur
	 * among the module's names (PRELUDE_N_*, set by parse_file, widened by
	 * a splice): they bound the schema, so its scan stops once the bound is
	 * met.  prelude_known false: not recorded (a tree from elsewhere). */
	uint8_t prelude_names;
	bool prelude_known;
} Module;

/*
 * The source range e's text covers, grouping parentheses included: a node's
 * span leaves out the parentheses that only group, so `(a + 1) * (b / c)`
 * spans `a + 1) * (b / c` and a fix wrapping the span would split them.  The
 * extent takes the `(` of each parenthesised operand that starts e and the
 * `)` of each that ends it (m's groups), never e's own (ast_util.c).
 */
Span ast_expr_extent(const Module *m, const Expr *e);

#endif
