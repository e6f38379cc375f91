/*
 * parse_int.h — parser internals shared by parse.c (module and
 * declarations), parse_boundary.c (resource, interface, session protocol
 * declarations), parse_stmt.c (blocks and statements, habit hints),
 * parse_expr.c (expressions), parse_type.c (types) and parse_pattern.c
 * (match patterns).
 *
 * Error recovery: the first error inside a declaration sets `panic`; while
 * it is set no further diagnostics are reported, every loop stops, and
 * parse functions return placeholder nodes.  parse_module then skips to the
 * next declaration (a declaration keyword or `@` at column 1) and clears it.
 * So one run reports every independent syntax error, one per declaration.
 */
#ifndef SPX_PARSE_INT_H
#define SPX_PARSE_INT_H

#include "parse.h"

/* One distinct identifier spelling: every Name with these bytes shares s. */
typedef struct ParseName {
	const char *s;   /* arena copy, NUL-terminated; NULL: empty slot */
	uint32_t len;
	uint32_t hash;   /* 16 bytes a slot: a file of 200k distinct names keeps 8 MB, not 16 */
} ParseName;

/* A missing-`->` fix waiting for the module's functions (parse_fix.c). */
typedef struct ArrowFix {
	int diag;                /* the P106's index in the sink */
	uint32_t at;             /* where ` -> T` goes */
	const Block *body;       /* the body parsed aside; NULL: it did not parse */
	const Param *params;     /* the function's (arena) */
	const Name *tparams;
	const char *const *bound;  /* spellings of the body not followed by `(`, and the parameters' */
	const char *tok_type;    /* the token-level reading, for a body that did not parse */
	int nparams, ntparams, nbound;
	bool main;
} ArrowFix;

typedef struct Parser {
	const char *src;
	size_t len;
	Token *toks;        /* ends with TOK_EOF */
	int ntoks;
	int pos;            /* index of the current token */
	Arena *arena;
	DiagSink *diags;
	int depth;          /* current nesting, bounded by PARSE_MAX_DEPTH */
	bool panic;         /* an error was reported in the current declaration */
	bool no_record;     /* record literals disabled (conditions) */
	bool in_guard;      /* parsing a match guard */
	bool in_for_iter;   /* parsing a `for` iterable: `0..n` is the range habit */
	bool in_use;        /* parsing a `use` declaration: every error is G170 */
	bool had_error;     /* any syntax error in the file */
	uint32_t nexprs;    /* next Expr id */
	uint32_t ncalls;    /* next call number (ast_call_index) */
	bool field_assigns; /* a `x.f = v;` was parsed (Module.field_assigns) */
	int items_hint;     /* nesting_prepass: declaration keywords outside brackets */
	bool uses_fn_mut;   /* a `FnMutI64` type or a `mut fn` literal was parsed */
	ParseName *names;   /* name_of's intern table (open addressing; owned) */
	uint32_t names_cap, names_len;
	uint8_t prelude_names; /* PRELUDE_N_* of the names interned (Module.prelude_names) */
	/* statement-if discard names (parse_stmt.c): `_if<n>` the file spells */
	uint64_t *if_taken; /* sorted */
	int nif_taken;
	bool if_gathered;
	bool if_names;      /* the lexer saw an identifier `_if…` (else nothing to gather) */
	uint64_t if_next;
	bool tail_block;    /* the block being parsed gives its function's result (return_habit's fix) */
	bool tail_if;       /* the `if` parse_if is entered at ends such a block */
	bool tail_branch;   /* the block about to be parsed is a branch of that `if` */
	int *closer;        /* final_if_ahead: each bracket token's partner (-1 none), built once a scan runs long */
	bool no_closer;     /* bracket_partners found an error token: scans stay token by token */
	const Name *class_name; /* the class whose members are parsed (NULL: none); its type parameters: class_tparams */
	int class_tparams;
	const Type *result; /* the declared result of the function or closure whose body is parsed (NULL: none) */
	VEC(ArrowFix) arrow_fixes; /* missing-`->` fixes typed at the module's end (parse_fix.c) */
	ParseBuiltinResult builtin_result; /* a builtin's certain result type (NULL: none asked) */
	VEC(ExprGroup) groups;      /* parenthesised expressions, as their `)` is met (Module.groups) */
} Parser;

/* ---- token access (inline: every token and keyword test runs these) ---- */
static inline Token *
parse_peek(Parser *p)
{
	return &p->toks[p->pos];
}

static inline Token *
parse_peek_at(Parser *p, int k)
{
	int i = p->pos + k;
	return &p->toks[i < p->ntoks ? i : p->ntoks - 1];
}

static inline bool
parse_at(Parser *p, TokKind k)
{
	return parse_peek(p)->kind == k;
}

/* Is t the identifier w?  (Keywords are contextual identifiers; with w a
 * literal, its length is a constant.) */
static inline bool
parse_tok_is_word(const Parser *p, const Token *t, const char *w)
{
	size_t n = strlen(w);   /* a constant for a literal w: memcmp inlines */
	/* the first byte settles most mismatches */
	return t->kind == TOK_IDENT && p->src[t->span.start] == w[0] && t->span.end - t->span.start == n &&
	    memcmp(p->src + t->span.start, w, n) == 0;
}

/* A fix deleting a word deletes the white space after it up to limit (the
 * next token's start), but never a comment there: where that space ends. */
static inline uint32_t
parse_space_end(const Parser *p, uint32_t from, uint32_t limit)
{
	while (from < limit && (p->src[from] == ' ' || p->src[from] == '\t' || p->src[from] == '\r' || p->src[from] == '\n'))
		from++;
	return from;
}

static inline bool
parse_at_word(Parser *p, const char *w)
{
	return parse_tok_is_word(p, parse_peek(p), w);
}

static inline bool
parse_word_at(Parser *p, int k, const char *w)
{
	return parse_tok_is_word(p, parse_peek_at(p, k), w);
}

static inline Token *
parse_advance(Parser *p)
{
	Token *t = parse_peek(p);
	if (t->kind != TOK_EOF)
		p->pos++;
	return t;
}

static inline bool
parse_accept(Parser *p, TokKind k)
{
	if (!parse_at(p, k))
		return false;
	parse_advance(p);
	return true;
}

bool parse_accept_word(Parser *p, const char *w);
Token *parse_expect(Parser *p, TokKind k, const char *desc);  /* P106 "expected <desc>" */
bool parse_expect_word(Parser *p, const char *w);
Span parse_span_from(Parser *p, Span start);   /* start..end of previous token */
Span parse_tok_span(const Token *t);

/* ---- errors (parse.c) ---- */
/* Reports at token t unless in panic or t is a lexical error; sets panic. */
Diag *parse_error_at(Parser *p, const Token *t, DiagCode code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
Diag *parse_error_span(Parser *p, Span s, DiagCode code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
bool parse_enter(Parser *p, const Token *t);   /* depth++; false (P207) past the bound */
void parse_leave(Parser *p);

/* One top-level item at p's position (parse.c; reparse.c splices it). */
bool parse_item_at(Parser *p, Decl *d);
/* A token's description for "found …" (into buf, or a fixed text). */
const char *parse_tok_desc(Parser *p, const Token *t, char *buf, size_t size);

/* ---- declarations (parse.c; the host boundary's in parse_boundary.c) ---- */
Name *parse_type_params(Parser *p, int *n);   /* `<T, U>`, or none */
Param *parse_params(Parser *p, int *n);       /* `( param , … )` */
void parse_resource(Parser *p, Decl *d);
void parse_interface(Parser *p, Decl *d);
void parse_session(Parser *p, Decl *d);

/* ---- names and shared pieces (parse.c) ---- */
Name parse_name(Parser *p, const char *what);
Name parse_name_of(Parser *p, const Token *t);
QName parse_qname(Parser *p, const char *what);
QName parse_qname_buf(Parser *p, const char *what, Name *one);
StrLit parse_strlit(Parser *p, const char *what);
IdAttr parse_id_attr(Parser *p);
IdAttr parse_attr(Parser *p, bool in_stmt);
void parse_decorate_expected(Parser *p, Diag *d);
bool parse_block_comment_help(Parser *p, Diag *d, const Token *t);  /* a block comment met: help (+ fix) (parse_habit.c) */
void parse_macro_help(Parser *p, Diag *d, const Token *name);      /* `name!` met: there are no macros (parse_habit.c) */
void parse_fn_body_help(Parser *p, Diag *d, const Token *t, bool clauses);   /* a signature met no `{` (parse_habit.c) */
void parse_effect_set_help(Parser *p, Diag *d, const Token *t);           /* `uses` met no `{` (parse_habit.c) */
bool parse_tuple_help(Diag *d, const Expr *e);                     /* `let (a, b)`, `for (i, x)`: no tuples (parse_habit.c) */
void parse_item_habit(Parser *p, Token *t);   /* P104 at an item: habit help (parse_habit.c) */
bool parse_if_semicolon_help(Diag *d, const Expr *e, const Token *semi);  /* `if … else …;` then more (parse_habit.c) */
void parse_operand_habit(Parser *p);   /* `a | b`: P002 after an operand (parse_habit.c) */
bool parse_expected_habit(Parser *p, Diag *d, const Token *t, const Token *prev);  /* P106 help: `x => …`, a record literal in a condition (parse_habit.c) */
bool parse_member_comma(Parser *p, const char *noun);
/* The type a function body's tail is known to have from its tokens (the
 * missing-`->` fix), k the offset of the token after `)`; NULL: unknown. */
int parse_body_open(Parser *p, int k);
const char *parse_body_tail_type(Parser *p, int k);
/* The type e's shape gives (a literal's; bool for `!`, comparisons, logic), or
 * NULL with sub[] the operands whose known type is e's (parse_stmt.c). */
const char *parse_expr_shape_type(const Expr *e, const Expr *sub[2]);
EffectSet parse_effect_set(Parser *p);

/* ---- the missing-`->` fix (parse_fix.c) ---- */
/* At the P106 d (the body not parsed yet): parse the body aside, keep what
 * the fix's type needs; parse_arrow_finish adds the fixes at the module's end. */
void parse_arrow_defer(Parser *p, Diag *d, uint32_t at, const FnDecl *fn, bool main);
void parse_arrow_finish(Parser *p, const Decl *decls, int ndecls);
/* `-> T` written after the clauses (p at the first): the fix moving it; false when none. */
bool parse_arrow_late(Parser *p, Diag *d, uint32_t at);

/* ---- types (parse_type.c) ---- */
Type *parse_type(Parser *p);
Type **parse_type_args(Parser *p, int *n);  /* at `<` */
/* At `<`: the offset (from the current token) past a balanced type-argument list, or 0. */
int parse_generic_list_at(Parser *p);
/* At `<`: a type-argument list followed by `(`, `::` or (records allowed) `{`. */
bool parse_generic_args_ahead(Parser *p);

/* ---- expressions (parse_expr.c) ---- */
Expr *parse_expr(Parser *p);
Expr *parse_cond(Parser *p);               /* record literals disabled */
Expr *parse_new_expr(Parser *p, ExprKind k, Span s);
FieldInit *parse_inits(Parser *p, int *n);  /* at `{` */
Expr *parse_primary(Parser *p, bool *callable);   /* a literal pattern's value too (parse_pattern.c) */
/* p's groups by ascending id in the arena after `old` (n of them), or NULL (*n 0). */
const ExprGroup *parse_groups_finish(Parser *p, const ExprGroup *old, uint32_t nold, uint32_t *n);
/* Range check of an integer literal token; negative = a folded minus. */
void parse_check_int_range(Parser *p, const Token *t, bool negative);

/* ---- match patterns (parse_pattern.c) ---- */
Pattern *parse_pattern(Parser *p);

/* ---- blocks and statements (parse_stmt.c) ---- */
/* Where a block stands; selects the P203 help and whether a tail is required. */
typedef enum BlockCtx {
	BLK_FN,        /* function or method body */
	BLK_WHILE,     /* while body (tail discarded) */
	BLK_FOR,       /* for body (tail discarded) */
	BLK_IF_VALUE,  /* branch of an if used as a value */
	BLK_IF_STMT,   /* branch of a statement if: no tail needed */
	BLK_EXPR,      /* a block expression */
	BLK_CLOSURE,   /* closure body */
	BLK_UNSAFE,    /* unsafe body */
} BlockCtx;
Block *parse_block_ctx(Parser *p, BlockCtx ctx, const char *open_desc);
FieldInit *parse_inits_desc(Parser *p, int *n, const char *close_desc, bool shorthand);  /* shorthand: record literals */
Expr *parse_if(Parser *p, bool value);     /* at `if` */
void parse_gather_if_names(Parser *p);     /* before the first item (statement-if discard names) */

#define ARENA_COPY(p, T, vec) parse_arena_copy_vec((p)->arena, (vec).items, sizeof(T), (vec).len)
void *parse_arena_copy_vec(Arena *a, const void *items, size_t size, int n);

#endif
