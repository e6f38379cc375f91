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

#endif
