/*
 * fmt_priv.h — formatter internals shared by fmt.c (layout of modules,
 * declarations and multi-line blocks), fmt_comments.c (where each comment
 * goes) and fmt_expr.c (everything printed on one line: expressions,
 * patterns, types, inline blocks).  fmt_lit.c (literals) needs only fmt.h.
 */
#ifndef SPX_FMT_PRIV_H
#define SPX_FMT_PRIV_H

#include "fmt.h"

/* Where a comment is printed (the reference's "Canonical comments v1"). */
typedef enum CommentPlace {
	CP_HEADER,     /* above `module` */
	CP_LEADING,    /* above the item starting at key (above its @id) */
	CP_TRAILING,   /* on the lines right after the item starting at key */
	CP_CLOSING,    /* before the closing brace at offset key, inner indent */
	CP_FILE_END,   /* after the last declaration */
} CommentPlace;

typedef struct Placed {
	uint8_t place;   /* CommentPlace */
	uint32_t key;    /* item start or closing-brace offset */
	int index;       /* into the module's comment array */
} Placed;

/* A `<` printed after a name or field: the parser may read it as type arguments. */
typedef struct LtMark {
	size_t offset;           /* of the `<` in the output */
	const Expr *name;        /* the EXPR_NAME or EXPR_FIELD printed right before it */
} LtMark;

typedef struct Fmt {
	Buf *out;
	const char *src;         /* NULL: comments are dropped */
	size_t len;
	const Comment *comments;
	Placed *placed;          /* sorted by (place, key, index); heap */
	int nplaced;
	int hint[CP_FILE_END + 1]; /* per place: where its previous lookup ended (fmt_comments_at) */
	const Expr *wrap;        /* a node that must be parenthesized (see fmt_fx_item_expr) */
	VEC(LtMark) lts;         /* `<` operators printed in this round; heap */
	VEC(const Expr *) force; /* nodes to parenthesize (fmt_fx_lt_hazards); heap */
	bool discards;           /* statement ifs as the reference's value discards (revision) */
} Fmt;

/* ---- comments (fmt_comments.c) ---- */
void fmt_place_comments(Fmt *F, const Module *m);
void fmt_comments_place(Fmt *F, CommentPlace place, uint32_t key, int depth);
/* Prints the comments placed at (place, key), each on its own line at
 * depth.  Inline: nearly every item has none, and the entry where the
 * place's previous lookup ended (F->hint) shows that without a call when
 * it lies past (place, key) and the one before it lies before. */
static inline void
fmt_comments_at(Fmt *F, CommentPlace place, uint32_t key, int depth)
{
	int h = F->hint[place];
	if (F->nplaced == 0)
		return;
	if (h < F->nplaced && (F->placed[h].place > place || (F->placed[h].place == place && F->placed[h].key > key)) &&
	    (h == 0 || F->placed[h - 1].place < place || (F->placed[h - 1].place == place && F->placed[h - 1].key < key)))
		return;
	fmt_comments_place(F, place, key, depth);
}
uint32_t fmt_find_char(const Fmt *F, uint32_t from, uint32_t to, char c);
uint32_t fmt_record_close(const Fmt *F, const Decl *d);
uint32_t fmt_case_close(const CaseDecl *c);
void fmt_drop_span(const Fmt *F, const Decl *d, int index, uint32_t *start, uint32_t *end);

/* ---- declaration headers (fmt_header.c): up to the `{`, no `uses`, no newline ---- */
void fmt_hd_fn(Fmt *F, const FnDecl *fn);
void fmt_hd_type(Fmt *F, const Decl *d);   /* any kind; DECL_FN as fmt_hd_fn */

/* ---- one-line pieces (fmt_expr.c) ---- */
void fmt_fx_item_expr(Fmt *F, const Expr *e);   /* a block tail: guards its first token */
void fmt_fx_cond(Fmt *F, const Expr *e);        /* parenthesized if it holds a record literal */
void fmt_fx_simple_stmt(Fmt *F, const Stmt *s); /* let / assignment, with `;` */
void fmt_stmt_if(Fmt *F, const Stmt *s);     /* a statement `if` (or its value discard) */
void fmt_fx_type(Fmt *F, const Type *t);
void fmt_fx_pattern(Fmt *F, const Pattern *p);  /* a match arm's pattern */
void fmt_fx_name(Fmt *F, Name n);
void fmt_fx_qname(Fmt *F, const QName *q);
void fmt_fx_tparams(Fmt *F, const Name *names, int n);
void fmt_fx_params(Fmt *F, const Param *ps, int n);
void fmt_fx_effects(Fmt *F, const QName *names, int n);  /* `{ a, b }`, empty `{  }` */
void fmt_fx_quoted(Fmt *F, StrLit s);            /* ids, audits, keys: escaped as fmt_string */
bool fmt_fx_lt_hazards(Fmt *F, size_t base);     /* true: nodes were added to F->force, re-render */

#endif
