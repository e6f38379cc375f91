/*
 * lex.h — the lexer: source bytes → token array + comment array.
 *
 * Input: a whole source text (need not be NUL-terminated).  Output: a
 * LexResult whose token array the caller releases with lex_free as soon as
 * it is done with it; comments and string bytes live in the caller's Arena.  Lexical errors are
 * reported to the DiagSink and leave a TOK_ERROR token in place, so the
 * parser can stay quiet about their consequences.  The token array always
 * ends with TOK_EOF.
 */
#ifndef SPX_LEX_H
#define SPX_LEX_H

#include <string.h>

#include "../support/arena.h"
#include "../support/diag.h"

typedef enum TokKind {
#define TOK(name, spelling) TOK_##name,
#include "tokens.def"
#undef TOK
	TOK__COUNT
} TokKind;

extern const char *const lex_tok_spelling[TOK__COUNT];

/* Numeric literal suffixes. */
typedef enum NumSuffix {
	SUF_NONE,
	SUF_I32,
	SUF_U8,
	SUF_USIZE,
	SUF_F32,
	SUF_F64,
} NumSuffix;

/* A token's value (INT, FLOAT, STRING), in LexResult.vals by token order. */
typedef union LexVal {
	uint64_t u;      /* INT magnitude */
	double f;        /* FLOAT value (f32 values are exact floats) */
	const char *s;   /* STRING decoded bytes, arena-owned, NUL-terminated */
} LexVal;

/*
 * 16 bytes: a large file has hundreds of thousands of tokens, so the span
 * holds byte offsets only (common.h) and a value lives beside the tokens
 * (v indexes LexResult.vals; most tokens have none).  Read values with the
 * accessors below, given the token array (lex_source's toks).
 */
typedef struct Token {
	uint8_t kind;        /* TokKind */
	uint8_t suffix;      /* NumSuffix, for INT and FLOAT */
	uint8_t overflow;    /* INT: magnitude does not fit u64 */
	uint8_t line_first;  /* first token on its line (a line break since the previous token's start) */
	Span span;
	uint32_t v;          /* CHAR: the scalar; INT, FLOAT, STRING: index in vals */
} Token;

/* The value array of a token array from lex_source: its address is kept
 * in the 16 bytes in front of toks[0], so holding toks is enough. */
static inline const LexVal *
lex_vals(const Token *toks)
{
	const LexVal *v;
	memcpy(&v, (const char *)toks - 16, sizeof v);
	return v;
}

static inline uint64_t
lex_int(const Token *toks, const Token *t)
{
	return lex_vals(toks)[t->v].u;
}

static inline double
lex_float(const Token *toks, const Token *t)
{
	return lex_vals(toks)[t->v].f;
}

static inline const char *
lex_str(const Token *toks, const Token *t)
{
	return lex_vals(toks)[t->v].s;
}

/* The decoded length of a STRING token's bytes (they may contain NULs):
 * stored in front of them. */
static inline uint32_t
lex_str_len(const Token *toks, const Token *t)
{
	uint32_t n;
	memcpy(&n, lex_str(toks, t) - sizeof n, sizeof n);
	return n;
}

/* A `//` comment, kept as trivia for the formatter (LANGUAGE.md §1.1). */
typedef struct Comment {
	Span span;           /* the whole comment including `//` */
	const char *text;    /* after `//`, trailing whitespace trimmed; arena */
	uint32_t len;
	bool own_line;       /* only whitespace precedes it on its line */
} Comment;

typedef struct LexResult {
	Token *toks;         /* owned: release with lex_free (MBs; not in the arena) */
	int ntoks;
	size_t toks_cap;     /* allocated tokens */
	bool toks_mapped;    /* toks is an anonymous mapping, not a heap block */
	int toks_released;   /* lex_release_before: tokens below this index are gone */
	size_t toks_don_lo, toks_don_hi;   /* bytes of the block given to an arena (lex_release_before) */
	size_t toks_spare_lo, toks_spare_hi;   /* bytes of the block that are `spare` (lex_source_spare) */
	char *spare;         /* lex_source_spare's room (NULL: none): the caller's from now on */
	size_t spare_len;
	LexVal *vals;        /* owned with toks (lex_vals(toks)) */
	size_t vals_cap;
	bool vals_mapped;
	uint32_t vals_released;
	Comment *comments;
	int ncomments;
	bool had_error;
	bool fatal;          /* the input is not text (I001): nothing was lexed */
	bool if_names;       /* some identifier is `_if` and more (parse_gather_if_names) */
	/* The reference's token pass before parsing, made while lexing: */
	int nest_over;       /* the first token past LEX_NEST_MAX brackets or unary operators deep, or -1 */
	int items_hint;      /* declaration keywords outside brackets */
} LexResult;

/* The bound of bracket nesting and of a run of unary `-`/`!` (P207;
 * PARSE_MAX_DEPTH is the same bound on the tree). */
#define LEX_NEST_MAX 128

/*
 * Lexes src[0..len).  Invalid UTF-8 is I001 (nothing else is lexed); a BOM
 * or NUL byte is P001.
 */
void lex_source(LexResult *out, const char *src, size_t len, Arena *arena, DiagSink *diags);
/*
 * lex_source, and room for head_bytes and item_bytes per declaration
 * keyword outside brackets (items_hint: a parser's declaration array) where
 * the token array's last 2 MiB unit has it past the last token: whole
 * pages, zero, and resident already when that unit is a huge page (the
 * tokens paid for it), which lex_source would give back.  Then out->spare
 * holds out->spare_len bytes the caller owns (a mapping: spx_big_free, or
 * arena_adopt); else it is NULL.  Never under AddressSanitizer.
 */
void lex_source_spare(LexResult *out, const char *src, size_t len, Arena *arena, DiagSink *diags,
    size_t head_bytes, size_t item_bytes);
/* The caller is done with toks[0..tok): their memory may go back to the
 * system (mapped arrays, every 256 KiB, in pages); they must not be read again.
 * With an arena, the tokens' whole pages are donated to it (arena_donate)
 * instead: a parser's tree fills the pages of the tokens behind it. */
void lex_release_before(LexResult *lx, int tok, Arena *to);
/* Releases the token array (the comments stay in the arena). */
void lex_free(LexResult *lx);

#endif
