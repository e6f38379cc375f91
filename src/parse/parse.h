/*
 * parse.h — the parser (tokens → Module) and AST utilities.
 */
#ifndef SPX_PARSE_H
#define SPX_PARSE_H

#include "ast.h"

/* Nesting bound for blocks, brackets, unary runs and expression trees. */
#define PARSE_MAX_DEPTH 128

/*
 * Lexes and parses src[0..len).  Always returns a Module (possibly partial
 * when errors were reported to diags).  Everything lives in arena.
 */
Module *parse_module(const char *src, size_t len, Arena *arena, DiagSink *diags);
/* parse_module of a source mapped by mapfile_map (support/mapfile.h):
 * the pages of what the parser has passed are given back while it goes on
 * (what reads them later faults them in again). */
Module *parse_module_mapped(const char *src, size_t len, Arena *arena, DiagSink *diags);
/* The result type a compiler-owned function `name` has whatever its
 * arguments (text such as `usize`), or NULL: asked by the missing-`->` fix,
 * since the builtin table lives above the parser (the driver hands it in). */
typedef const char *(*ParseBuiltinResult)(const char *name);
/* parse_module (mapped: parse_module_mapped) with that question answered. */
Module *parse_module_ex(const char *src, size_t len, Arena *arena, DiagSink *diags, bool mapped, ParseBuiltinResult br);

/*
 * At toks[k] == `<`: the index just past a balanced `<…>` of type tokens,
 * or 0.  The parser reads `name<…>` as type arguments when such a list is
 * followed by `(`, `::` or `{`; the formatter asks the same question.
 */
int parse_generic_list_end(const Token *toks, int ntoks, int k);

/*
 * Writes a span-free S-expression dump of the tree (one declaration per
 * line).  Two trees are equal "up to spans" iff their dumps are equal; the
 * fuzzer and the fixture runner use this to check that fmt preserves meaning.
 */
void ast_dump(Buf *out, const Module *m);

/*
 * reparse.c — the semantic service's incremental parse.  After an edit that
 * left src[0..decl k's start) unchanged and put decl k's new end at
 * new_end (old_src: the text m was parsed from), re-parses decl k alone
 * and splices it into m, shifting the later declarations and comments;
 * false (m unchanged) when the result could differ from parsing all of
 * src, the caller's cue to do that.
 */
bool parse_splice_decl(Module *m, int k, const char *old_src, const char *src, size_t len, uint32_t new_end, Arena *arena,
    int64_t *lag);
/* With lag (one entry per declaration of m, zeroed to start) the shift is
 * lazy: a later declaration's own span moves now, its inner spans do not
 * — lag[i] accumulates what they still owe (lag[k] becomes 0: a fresh
 * tree), until parse_settle_decl(&m->decls[i], lag[i]) pays it.  Until
 * then only the declarations' own spans, the comments and decl k's tree
 * are exact.  lag NULL: every later span moves now. */
void parse_settle_decl(Decl *d, int64_t lag);
/* Moves every span of d by delta (absent, zeroed spans stay). */
void parse_shift_decl(Decl *d, int64_t delta);
/* Every span of d in walk order (the tests compare a spliced tree with a
 * fresh parse's). */
typedef VEC(Span) ParseSpans;
void parse_decl_spans(const Decl *d, ParseSpans *out);

#endif
