/*
 * lex.h — the lexer: source bytes → token array + comment array.
 *
 * Input: a whole source text (need not be NUL-terminated).  Output: a
 * LexResult whose arrays live in the caller's Arena.  Lexical errors are
 * reported to the DiagSink and leave a TOK_ERROR token in place, so the
 * parser can stay quiet about their consequences.  The token array always
 * ends with TOK_EOF.
 */
#ifndef SPX_LEX_H
#define SPX_LEX_H

#include "../support/arena.h"
#include "../support/diag.h"

typedef enum TokKind {
#define TOK(name, spelling) TOK_##name,
#include "tokens.def"
#undef TOK
	TOK__COUNT
} TokKind;

extern const char *const tok_spelling[TOK__COUNT];

/* Numeric literal suffixes. */
typedef enum NumSuffix {
	SUF_NONE,
	SUF_I32,
	SUF_U8,
	SUF_USIZE,
	SUF_F32,
	SUF_F64,
} NumSuffix;

typedef struct Token {
	uint8_t kind;        /* TokKind */
	uint8_t suffix;      /* NumSuffix, for INT and FLOAT */
	uint8_t overflow;    /* INT: magnitude does not fit u64 */
	uint8_t line_first;  /* first token on its line */
	Span span;
	union {
		uint64_t u;      /* INT magnitude */
		double f;        /* FLOAT value (f32 values are exact floats) */
		uint32_t ch;     /* CHAR scalar */
		struct {
			char *s;     /* STRING decoded bytes, arena-owned, NUL-terminated */
			uint32_t n;
		} str;
	} v;
} Token;

/* A `//` comment, kept as trivia for the formatter (LANGUAGE.md §1.1). */
typedef struct Comment {
	Span span;           /* the whole comment including `//` */
	const char *text;    /* after `//`, trailing whitespace trimmed; arena */
	uint32_t len;
	bool own_line;       /* only whitespace precedes it on its line */
} Comment;

typedef struct LexResult {
	Token *toks;
	int ntoks;
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

#endif
