/*
 * fmt.h — the canonical formatter (LANGUAGE.md §2.3, §0.11).
 *
 * Input: a parsed Module (error-free) and its source text, which is used
 * only to place comments.  Output: the canonical text, appended to a Buf.
 * The layout follows the reference formatter byte for byte where it is
 * known; fmt(fmt(x)) == fmt(x) and parse(fmt(x)) equals parse(x) up to
 * spans (see ast_dump for what "equal" means).
 */
#ifndef SPX_FMT_H
#define SPX_FMT_H

#include "../parse/ast.h"
#include "../support/buf.h"

/*
 * Renders m canonically.  src[0..len) is the original text (for comments
 * only; pass NULL to drop every comment, as the revision hash does).  The
 * output ends with exactly one '\n'.
 */
void fmt_module(Buf *out, const Module *m, const char *src, size_t len);

/*
 * The reference's canonical text (no comments) for the revision hash: as
 * fmt_module, but every statement `if` is written as the value discard it
 * is sugar for (LANGUAGE.md §0.3), `let _if<n> = if c { …; 0 } else { 0 };`,
 * with the reference's names (Stmt.discard, Block.tail_discard).
 */
void fmt_module_discards(Buf *out, const Module *m);
/*
 * One piece of fmt_module_discards's text: which < 0 the header (module
 * line, uses, permits), else declaration `which`.  The whole text is the
 * header, then the declarations by fmt_decl_group (0…3), each group in
 * source order (the service caches the pieces, docs/service.md).
 */
void fmt_module_discards_part(Buf *out, const Module *m, int which);
int fmt_decl_group(int kind);

/*
 * The canonical one-line header of a declaration as the formatter prints
 * it, without body, contracts, invariants, members or a newline
 * (fmt_header.c): `fn add<T>(left: i64, right: borrow T) -> i64 uses { a }`,
 * `record Point<T>`, `variant Shape<T>`, `class C : B<i64>`, `resource File`,
 * `interface Host permits { a }`, `session protocol "p"`.  Appended to out.
 * fmt_fn_header is the same for a function or a class method.
 */
void fmt_decl_header(Buf *out, const Decl *d);
void fmt_fn_header(Buf *out, const FnDecl *fn);
/* One line each, as the formatter prints them: a contract's expression (a
 * condition: parenthesized when it holds a record literal), a type, an
 * interface import up to its effects (`import fn f(h: own R) -> unit
 * effects { e }`).  Appended to out, no newline. */
void fmt_expr_line(Buf *out, const Expr *e);
void fmt_type_line(Buf *out, const Type *t);
void fmt_pattern_line(Buf *out, const Pattern *p);  /* a match arm's pattern */
void fmt_import_header(Buf *out, const ImportFn *f);

/*
 * The declaration each comment documents, as the formatter places it:
 * owner[i] (for m->comments[i]; owner has m->ncomments slots) is the index
 * into m->decls of the declaration the comment leads (printed above it),
 * FMT_COMMENT_MODULE above `module`, else FMT_COMMENT_NONE (in a body,
 * trailing an item, at the end).  Assumes m->decls in source order.
 */
enum { FMT_COMMENT_NONE = -1, FMT_COMMENT_MODULE = -2 };
void fmt_comment_owners(const Module *m, const char *src, size_t len, int *owner);
/*
 * The item each comment is attached to, as the formatter places it: key[i]
 * (for m->comments[i]) is the start offset of the item it leads or trails —
 * a declaration (d->span.start), a field (fmt_field_start), a case
 * (fmt_case_start), a class member (fmt_member_start), a `use`, a statement —
 * or FMT_COMMENT_NO_ITEM (above `module`, before a closing brace, at the
 * end).  Register checks (src/project/registers.c) read it.
 */
#define FMT_COMMENT_NO_ITEM UINT32_MAX
void fmt_comment_items(const Module *m, const char *src, size_t len, uint32_t *key);
/* Start offsets of the items the formatter places comments by. */
uint32_t fmt_field_start(const FieldDecl *f);
uint32_t fmt_case_start(const CaseDecl *c);
uint32_t fmt_member_start(const ClassMember *m);

/*
 * Canonical literals (§0.11, fmt_lit.c), shared with the revision hash.
 * fmt_float: shortest round-trip digits, never an exponent, ".0" when
 *   integral; SUF_F32 values use float digits plus "f32"; SUF_F64 and
 *   SUF_NONE print without a suffix (f64 is the default).
 * fmt_char: with quotes; printable ASCII as itself, \0 \t \n \r \' \\,
 *   anything else \u{hex} in lowercase.
 * fmt_string: with quotes; escapes \n \r \t \" \\, other control characters
 *   (C0, DEL, C1) and the bidi and line-separator controls of
 *   diag_invisible_format as \u{hex}, everything else (UTF-8 included)
 *   verbatim.
 * fmt_int: the value plus suffix; negative (a folded signed minimum) adds
 *   the leading '-'.
 */
void fmt_float(Buf *out, double v, NumSuffix suffix);
/* fmt_float's fast path for an f64 (fmt_lit.c): the text and its length, or 0. */
size_t fmt_float_short(char out[352], double v);
void fmt_char(Buf *out, uint32_t cp);
void fmt_string(Buf *out, const char *s, size_t n);
void fmt_int(Buf *out, uint64_t value, NumSuffix suffix, bool negative);

#endif
