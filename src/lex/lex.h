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

/*
 * 20 bytes: a large file has hundreds of thousands of tokens, so the span
 * holds byte offsets only (common.h), the value union is packed to 4-byte
 * alignment and a string's length lives in front of its bytes (lex_str_len).
 */
typedef struct Token {
	uint8_t kind;        /* TokKind */
	uint8_t suffix;      /* NumSuffix, for INT and FLOAT */
	uint8_t overflow;    /* INT: magnitude does not fit u64 */
	uint8_t line_first;  /* first token on its line (a line break since the previous token's start) */
	Span span;
	union __attribute__((packed, aligned(4))) {
		uint64_t u;      /* INT magnitude */
		double f;        /* FLOAT value (f32 values are exact floats) */
		uint32_t ch;     /* CHAR scalar */
		const char *s;   /* STRING decoded bytes, arena-owned, NUL-terminated */
	} v;
} Token;

/* The decoded length of a STRING token's bytes (they may contain NULs). */
static inline uint32_t
lex_str_len(const Token *t)
{
	uint32_t n;
	memcpy(&n, t->v.s - sizeof n, sizeof n);
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
	Comment *comments;
	int ncomments;
	bool had_error;
	bool fatal;          /* the input is not text (I001): nothing was lexed */
} LexResult;

/*
 * Lexes src[0..len).  Invalid UTF-8 is I001 (nothing else is lexed); a BOM
 * or NUL byte is P001.
 */
void lex_source(LexResult *out, const char *src, size_t len, Arena *arena, DiagSink *diags);
/* The caller is done with toks[0..tok): their memory may go back to the
 * system (mapped arrays, every 256 KiB, in pages); they must not be read again. */
void lex_release_before(LexResult *lx, int tok);
/* Releases the token array (the comments stay in the arena). */
void lex_free(LexResult *lx);

#endif
