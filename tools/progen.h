/*
 * progen.h — shared state of the random program generator (tools/progen.c:
 * buffers, PRNG, scalar expressions and statements, the program; 
 * tools/progen_feat.c, progen_feat2.c and progen_feat3.c: the feature
 * templates; progen_feat4.c: random ownership flow; progen_feat5.c: generics
 * at owned types; progen_feat6.c: early exits from nested places, `for own`,
 * views, audited blocks; progen_feat7.c: record patterns; progen_feat8.c: scalar matches near
 * the bounds, repeated borrows; progen_feat9.c: owned classes and collections, wide builtins).
 */
#ifndef PROGEN_H
#define PROGEN_H

#include <stddef.h>

typedef struct Buf {
	char *p;
	size_t n, cap;
} Buf;

/* the scalar types of the expression generator */
enum { T_I64, T_I32, T_U8, T_USIZE, T_F64, T_BOOL, T_CHAR, T_F32, NTY };
extern const char *const pg_ty_name[NTY];

/* a generated scalar function later code may call */
typedef struct Fn {
	char name[24];
	int np;
	int pty[4];
	int ret;
} Fn;

#define MAX_FNS 64
extern Fn pg_fns[MAX_FNS];
extern int pg_nfns;
extern int pg_nvars;     /* scalar variables in scope (pg_push_var) */
extern Buf pg_decls;     /* type declarations */
extern Buf pg_funcs;     /* functions */
extern int pg_have_row;  /* the shared `Row` record was declared */
extern int pg_opt_empty_remove; /* --empty-remove (progen.c) */
#define PG_NWORDS 14
extern const char *const pg_words[PG_NWORDS];

void pg_bp(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void pg_bcat(Buf *b, const Buf *s);
void pg_bfree(Buf *b);
int pg_rnd(int n);
int pg_chance(int pct);
void pg_copy_name(char *dst, const char *src, size_t cap);
void pg_push_var(const char *name, int ty, int assignable);
const char *pg_fresh(const char *prefix, char *buf, size_t cap);
void pg_add_call(const Buf *b);
void pg_add_call_int(const char *fn, int arg);
void pg_lit(Buf *b, int t);
void pg_int_pattern(Buf *b, int t, int v);
void pg_expr(Buf *b, int t, int depth);
extern int pg_simple;
extern int pg_need_f32code, pg_need_charcode; /* main's helpers pgf32/pgchr are used */ /* pg_expr emits operators, variables and literals only */
void pg_to_i64(Buf *b, int t, const char *e);
int pg_rand_ty(void);
void pg_indent(Buf *b, int n);
void pg_stmt(Buf *b, int ind, int depth, int budget);
void pg_id_line(Buf *b, int ind, const char *id);
void pg_id_linef(Buf *b, int ind, const char *fmt, ...);
void pg_str_lit(Buf *b);

/* One field of a declared record or variant case: its name and type; its
 * @id is the owner's, '.', then `id` (NULL: the field's name). */
typedef struct PgField {
	const char *name, *ty, *id;
} PgField;

/* One case of a declared variant: its name (its @id is the owner's, '.',
 * then the name lower-cased) and its payload fields (nf 0: payload-free). */
typedef struct PgCase {
	const char *name;
	const PgField *f;
	int nf;
} PgCase;

/* `record NAME TPARAMS { ... }` with an @id line before the record and each
 * field, then `    requires REQ` when req is not NULL, then a blank line. */
void pg_record_decl(Buf *b, const char *name, const char *tparams, const PgField *f, int nf, const char *req);
/* `variant NAME TPARAMS { ... }` likewise, a blank line after it. */
void pg_variant_decl(Buf *b, const char *name, const char *tparams, const PgCase *c, int nc);

void pg_feat_scalar(void);
void pg_feat_record(void);
void pg_feat_variant(void);
void pg_feat_enum_eq(void);
void pg_feat_option(void);
void pg_feat_generic(void);
void pg_feat_string(void);
void pg_feat_bytes(void);
void pg_feat_vec(void);
void pg_feat_floats(void);
void pg_feat_depth(void);
void pg_feat_map(void);
void pg_feat_box(void);
void pg_feat_closure(void);
void pg_feat_class(void);
void pg_feat_owned(void);
void pg_feat_charf32(void);
void pg_feat_edges(void);
void pg_feat_fcontract(void);
void pg_feat_keyed(void);
void pg_feat_nested(void);
void pg_feat_deep(void);
void pg_feat_format(void);
void pg_feat_lambda(void);
void pg_feat_gvariant(void);
void pg_feat_nestrec(void);
void pg_feat_qchain(void);
void pg_feat_owndeep(void);
void pg_feat_mapx(void);
void pg_feat_class2(void);
/* progen_feat4.c: the call main folds in, written to call */
void pg_feat_ownflow(char *call, size_t cap);
/* progen_feat5.c: likewise */
void pg_feat_gowned(char *call, size_t cap);
/* progen_feat6.c: likewise; pg_exits_unsafe: it wrote an audited block
 * (main's module must permit `unsafe`) */
void pg_feat_exits(char *call, size_t cap);
extern int pg_exits_unsafe;
extern int pg_exits_allow_unsafe; /* set by progen.c: the program does not print */
/* progen_feat7.c: record patterns (nested, in variant payloads); likewise */
void pg_feat_recpat(char *call, size_t cap);
/* progen_feat8.c: scalar matches near the bounds of usize, u8, i32 and
 * char; owned values lent to `borrow` parameters again and again; likewise */
void pg_feat_borrowscalar(char *call, size_t cap);
/* progen_feat9.c: classes with owned fields and method contracts, Vecs of
 * owned records, string-valued maps, function-value Vecs, wide
 * string_format, wide byte writes; likewise */
void pg_feat_ownclass(char *call, size_t cap);

#endif
