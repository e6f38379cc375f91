/*
 * lex.c — SEMAPRAX lexer (LANGUAGE.md §1, §0.10).
 *
 * One pass over the bytes.  Positions: spans are byte offsets only (a
 * diagnostic computes its line and column, diag.c).  Literal values are decoded here; range checks
 * that depend on a preceding minus (the signed-minimum rule) are the
 * parser's.  After an error the lexer emits TOK_ERROR and continues.
 */
/* MADV_NOHUGEPAGE is outside POSIX 2008's headers. */
#define _DEFAULT_SOURCE

#include "lex.h"

#include <sys/mman.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../support/buf.h"
#include "../support/utf8.h"

const char *const lex_tok_spelling[TOK__COUNT] = {
#define TOK(name, spelling) spelling,
#include "tokens.def"
#undef TOK
};

typedef struct Lexer {
	const char *src;
	size_t len;
	size_t pos;
	Arena *arena;
	DiagSink *diags;
	/* Sized once by the bound ntoks <= len + 1 (every token but EOF consumes a
	 * byte), so it never moves; spx_big_alloc keeps unwritten pages free. */
	/* items is 16 bytes into the block (lex_vals' address goes there) */
	struct { Token *items; int len; size_t cap; bool mapped; } toks;
	/* Sized the same way (a value per token at most), beside the tokens. */
	struct { LexVal *items; uint32_t len; size_t cap; bool mapped; } vals;
	VEC(Comment) comments;
	bool had_error;
	bool nl;                 /* a line break since the previous token's start (or no token yet) */
	/* the nesting pass (LexResult.nest_over): bracket depth, the length of
	 * the current run of unary operators */
	int depth, run, nest_over, items_hint;
} Lexer;

static inline Span
span_at(size_t start, size_t end)
{
	Span s;
	s.start = (uint32_t)start;
	s.end = (uint32_t)end;
	return s;
}

static Diag *
lex_error(Lexer *L, DiagCode code, size_t start, size_t end, const char *msg)
{
	Span s = span_at(start, end);
	L->had_error = true;
	return diag_report(L->diags, code, &s, "%s", msg);
}

#define TOK_HEAD 16   /* bytes in front of toks[0]: the value array's address */

static size_t
toks_bytes(size_t cap)
{
	return TOK_HEAD + sizeof(Token) * cap;
}

/* Moves the tokens to a block twice as large (only if the bound was wrong). */
static void
grow_toks(Lexer *L)
{
	bool mapped;
	size_t cap = L->toks.cap * 2 + 16;
	char *block = spx_big_alloc(toks_bytes(cap), &mapped);
	Token *items = (Token *)(block + TOK_HEAD);
	memcpy(items, L->toks.items, sizeof(Token) * (size_t)L->toks.len);
	spx_big_free((char *)L->toks.items - TOK_HEAD, toks_bytes(L->toks.cap), L->toks.mapped);
	L->toks.items = items;
	L->toks.cap = cap;
	L->toks.mapped = mapped;
}

/* Stores a token's value; returns its index (Token.v). */
static uint32_t
push_val(Lexer *L, LexVal v)
{
	if (L->vals.len == L->vals.cap) {
		bool mapped;
		size_t cap = L->vals.cap * 2 + 16;
		LexVal *items = spx_big_alloc(sizeof(LexVal) * cap, &mapped);
		if (L->vals.len)
			memcpy(items, L->vals.items, sizeof(LexVal) * L->vals.len);
		if (L->vals.items)
			spx_big_free(L->vals.items, sizeof(LexVal) * L->vals.cap, L->vals.mapped);
		L->vals.items = items;
		L->vals.cap = cap;
		L->vals.mapped = mapped;
	}
	L->vals.items[L->vals.len] = v;
	return L->vals.len++;
}

/* Pushes a token spanning src[start, end). */
static inline Token *
push_tok(Lexer *L, TokKind kind, size_t start, size_t end)
{
	if ((size_t)L->toks.len == L->toks.cap)
		grow_toks(L);
	Token *t = &L->toks.items[L->toks.len++];
	/* one token written whole (two stores, not seven); first on its
	 * line: a line break since the previous token's start, in the
	 * whitespace between (lex_source) or inside that token (only strings,
	 * chars and error tokens can hold one) */
	*t = (Token){ .kind = (uint8_t)kind, .line_first = L->nl, .span = span_at(start, end) };
	L->run = 0;   /* (no token pushed here is a unary operator) */
	L->nl = (kind == TOK_STRING || kind == TOK_CHAR || kind == TOK_ERROR) && end > start &&
	    memchr(L->src + start, '\n', end - start) != NULL;
	return t;
}

/* Branch-light and inline: these run for every byte of every name. */
static inline bool
is_ident_start(int c)
{
	return (unsigned)((c | 0x20) - 'a') < 26 || c == '_';
}

static inline bool
is_digit(int c)
{
	return (unsigned)(c - '0') < 10;
}

/* The class of a source byte: the main loop's one dispatch (a chain of
 * tests cost a punctuation token a dozen compares before its switch). */
enum {
	LC_OTHER,   /* starts no token: lex_unexpected */
	LC_SPACE, LC_WS, LC_IDENT, LC_DIGIT, LC_DQUOTE, LC_SQUOTE, LC_SLASH, LC_PUNCT,
	LC_HIGH     /* a byte >= 0x80: Unicode space or unexpected */
};

static const unsigned char lex_class[256] = {
	[' '] = LC_SPACE,
	['\t'] = LC_WS, ['\n'] = LC_WS, ['\v'] = LC_WS, ['\f'] = LC_WS, ['\r'] = LC_WS,
	['A'] = LC_IDENT, ['B'] = LC_IDENT, ['C'] = LC_IDENT, ['D'] = LC_IDENT, ['E'] = LC_IDENT, ['F'] = LC_IDENT,
	['G'] = LC_IDENT, ['H'] = LC_IDENT, ['I'] = LC_IDENT, ['J'] = LC_IDENT, ['K'] = LC_IDENT, ['L'] = LC_IDENT,
	['M'] = LC_IDENT, ['N'] = LC_IDENT, ['O'] = LC_IDENT, ['P'] = LC_IDENT, ['Q'] = LC_IDENT, ['R'] = LC_IDENT,
	['S'] = LC_IDENT, ['T'] = LC_IDENT, ['U'] = LC_IDENT, ['V'] = LC_IDENT, ['W'] = LC_IDENT, ['X'] = LC_IDENT,
	['Y'] = LC_IDENT, ['Z'] = LC_IDENT, ['_'] = LC_IDENT, ['a'] = LC_IDENT, ['b'] = LC_IDENT, ['c'] = LC_IDENT,
	['d'] = LC_IDENT, ['e'] = LC_IDENT, ['f'] = LC_IDENT, ['g'] = LC_IDENT, ['h'] = LC_IDENT, ['i'] = LC_IDENT,
	['j'] = LC_IDENT, ['k'] = LC_IDENT, ['l'] = LC_IDENT, ['m'] = LC_IDENT, ['n'] = LC_IDENT, ['o'] = LC_IDENT,
	['p'] = LC_IDENT, ['q'] = LC_IDENT, ['r'] = LC_IDENT, ['s'] = LC_IDENT, ['t'] = LC_IDENT, ['u'] = LC_IDENT,
	['v'] = LC_IDENT, ['w'] = LC_IDENT, ['x'] = LC_IDENT, ['y'] = LC_IDENT, ['z'] = LC_IDENT,
	['0'] = LC_DIGIT, ['1'] = LC_DIGIT, ['2'] = LC_DIGIT, ['3'] = LC_DIGIT, ['4'] = LC_DIGIT, ['5'] = LC_DIGIT,
	['6'] = LC_DIGIT, ['7'] = LC_DIGIT, ['8'] = LC_DIGIT, ['9'] = LC_DIGIT,
	['"'] = LC_DQUOTE,
	['\''] = LC_SQUOTE,
	['/'] = LC_SLASH,
	['!'] = LC_PUNCT, ['%'] = LC_PUNCT, ['&'] = LC_PUNCT, ['('] = LC_PUNCT, [')'] = LC_PUNCT, ['*'] = LC_PUNCT,
	['+'] = LC_PUNCT, [','] = LC_PUNCT, ['-'] = LC_PUNCT, ['.'] = LC_PUNCT, [':'] = LC_PUNCT, [';'] = LC_PUNCT,
	['<'] = LC_PUNCT, ['='] = LC_PUNCT, ['>'] = LC_PUNCT, ['?'] = LC_PUNCT, ['@'] = LC_PUNCT, ['['] = LC_PUNCT,
	[']'] = LC_PUNCT, ['{'] = LC_PUNCT, ['|'] = LC_PUNCT, ['}'] = LC_PUNCT,
	[0x80] = LC_HIGH, [0x81] = LC_HIGH, [0x82] = LC_HIGH, [0x83] = LC_HIGH, [0x84] = LC_HIGH, [0x85] = LC_HIGH, [0x86] = LC_HIGH, [0x87] = LC_HIGH,
	[0x88] = LC_HIGH, [0x89] = LC_HIGH, [0x8A] = LC_HIGH, [0x8B] = LC_HIGH, [0x8C] = LC_HIGH, [0x8D] = LC_HIGH, [0x8E] = LC_HIGH, [0x8F] = LC_HIGH,
	[0x90] = LC_HIGH, [0x91] = LC_HIGH, [0x92] = LC_HIGH, [0x93] = LC_HIGH, [0x94] = LC_HIGH, [0x95] = LC_HIGH, [0x96] = LC_HIGH, [0x97] = LC_HIGH,
	[0x98] = LC_HIGH, [0x99] = LC_HIGH, [0x9A] = LC_HIGH, [0x9B] = LC_HIGH, [0x9C] = LC_HIGH, [0x9D] = LC_HIGH, [0x9E] = LC_HIGH, [0x9F] = LC_HIGH,
	[0xA0] = LC_HIGH, [0xA1] = LC_HIGH, [0xA2] = LC_HIGH, [0xA3] = LC_HIGH, [0xA4] = LC_HIGH, [0xA5] = LC_HIGH, [0xA6] = LC_HIGH, [0xA7] = LC_HIGH,
	[0xA8] = LC_HIGH, [0xA9] = LC_HIGH, [0xAA] = LC_HIGH, [0xAB] = LC_HIGH, [0xAC] = LC_HIGH, [0xAD] = LC_HIGH, [0xAE] = LC_HIGH, [0xAF] = LC_HIGH,
	[0xB0] = LC_HIGH, [0xB1] = LC_HIGH, [0xB2] = LC_HIGH, [0xB3] = LC_HIGH, [0xB4] = LC_HIGH, [0xB5] = LC_HIGH, [0xB6] = LC_HIGH, [0xB7] = LC_HIGH,
	[0xB8] = LC_HIGH, [0xB9] = LC_HIGH, [0xBA] = LC_HIGH, [0xBB] = LC_HIGH, [0xBC] = LC_HIGH, [0xBD] = LC_HIGH, [0xBE] = LC_HIGH, [0xBF] = LC_HIGH,
	[0xC0] = LC_HIGH, [0xC1] = LC_HIGH, [0xC2] = LC_HIGH, [0xC3] = LC_HIGH, [0xC4] = LC_HIGH, [0xC5] = LC_HIGH, [0xC6] = LC_HIGH, [0xC7] = LC_HIGH,
	[0xC8] = LC_HIGH, [0xC9] = LC_HIGH, [0xCA] = LC_HIGH, [0xCB] = LC_HIGH, [0xCC] = LC_HIGH, [0xCD] = LC_HIGH, [0xCE] = LC_HIGH, [0xCF] = LC_HIGH,
	[0xD0] = LC_HIGH, [0xD1] = LC_HIGH, [0xD2] = LC_HIGH, [0xD3] = LC_HIGH, [0xD4] = LC_HIGH, [0xD5] = LC_HIGH, [0xD6] = LC_HIGH, [0xD7] = LC_HIGH,
	[0xD8] = LC_HIGH, [0xD9] = LC_HIGH, [0xDA] = LC_HIGH, [0xDB] = LC_HIGH, [0xDC] = LC_HIGH, [0xDD] = LC_HIGH, [0xDE] = LC_HIGH, [0xDF] = LC_HIGH,
	[0xE0] = LC_HIGH, [0xE1] = LC_HIGH, [0xE2] = LC_HIGH, [0xE3] = LC_HIGH, [0xE4] = LC_HIGH, [0xE5] = LC_HIGH, [0xE6] = LC_HIGH, [0xE7] = LC_HIGH,
	[0xE8] = LC_HIGH, [0xE9] = LC_HIGH, [0xEA] = LC_HIGH, [0xEB] = LC_HIGH, [0xEC] = LC_HIGH, [0xED] = LC_HIGH, [0xEE] = LC_HIGH, [0xEF] = LC_HIGH,
	[0xF0] = LC_HIGH, [0xF1] = LC_HIGH, [0xF2] = LC_HIGH, [0xF3] = LC_HIGH, [0xF4] = LC_HIGH, [0xF5] = LC_HIGH, [0xF6] = LC_HIGH, [0xF7] = LC_HIGH,
	[0xF8] = LC_HIGH, [0xF9] = LC_HIGH, [0xFA] = LC_HIGH, [0xFB] = LC_HIGH, [0xFC] = LC_HIGH, [0xFD] = LC_HIGH, [0xFE] = LC_HIGH, [0xFF] = LC_HIGH,
};

/* is_ident_char as a table: one load per byte of a name (the lexer's hottest loop) */
static const unsigned char ident_char_tab[256] = {
	['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1,
	['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1, ['G'] = 1, ['H'] = 1, ['I'] = 1, ['J'] = 1, ['K'] = 1, ['L'] = 1, ['M'] = 1,
	['N'] = 1, ['O'] = 1, ['P'] = 1, ['Q'] = 1, ['R'] = 1, ['S'] = 1, ['T'] = 1, ['U'] = 1, ['V'] = 1, ['W'] = 1, ['X'] = 1, ['Y'] = 1, ['Z'] = 1,
	['_'] = 1, ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1, ['g'] = 1, ['h'] = 1, ['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1, ['m'] = 1,
	['n'] = 1, ['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1, ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1,
};

static inline bool
is_ident_char(int c)
{
	return is_ident_start(c) || is_digit(c);
}

static int
peekc(Lexer *L, size_t off)
{
	size_t i = L->pos + off;
	return i < L->len ? (unsigned char)L->src[i] : -1;
}

/* ---- comments and whitespace ------------------------------------------- */

static void
lex_comment(Lexer *L)
{
	size_t start = L->pos;
	size_t ls = start;
	while (ls > 0 && L->src[ls - 1] != '\n')
		ls--;
	bool own_line = true;
	for (size_t i = ls; i < start; i++) {
		char c = L->src[i];
		if (c != ' ' && c != '\t' && c != '\r' && c != '\f' && c != '\v') {
			own_line = false;
			break;
		}
	}
	size_t end = start;
	while (end < L->len && L->src[end] != '\n')
		end++;
	size_t tend = end;
	while (tend > start + 2 && (L->src[tend - 1] == ' ' || L->src[tend - 1] == '\t' ||
	    L->src[tend - 1] == '\r' || L->src[tend - 1] == '\f' || L->src[tend - 1] == '\v'))
		tend--;
	Comment c;
	c.span = span_at(start, end);
	c.text = arena_strndup(L->arena, L->src + start + 2, tend - start - 2);
	c.len = (uint32_t)(tend - start - 2);
	c.own_line = own_line;
	VEC_PUSH(L->comments, c);
	L->pos = end;
}

/* ---- numbers ------------------------------------------------------------- */

static bool
has_prefix(const char *s, size_t n, const char *pre)
{
	size_t m = strlen(pre);
	return n > m && memcmp(s, pre, m) == 0;
}

/* `1_000`: the fix drops the separators when only digits and `_` follow
 * (qa29). */
static void
separators_fix(Lexer *L, Diag *d, size_t start, const char *digits, const char *suf, size_t suflen)
{
	char out[128];
	size_t n = strlen(digits);
	if (n >= sizeof out)
		return;
	memcpy(out, digits, n);
	for (size_t i = 0; i < suflen; i++) {
		if (suf[i] == '_')
			continue;
		if (suf[i] < '0' || suf[i] > '9' || n + 1 >= sizeof out)
			return;
		out[n++] = suf[i];
	}
	out[n] = '\0';
	diag_add_fix(d, (uint32_t)start, (uint32_t)L->pos, out);
}

/* `0x10`, `0b101`, `0o17` (qa29): there are no such literals; the help and
 * fix give the decimal value (with the suffix that follows the digits, when
 * it is one) if it fits its type's range as i64/u64 permit. */
static void
radix_help(Lexer *L, Diag *d, size_t start, const char *suf, size_t suflen)
{
	int base = (suf[0] == 'x' || suf[0] == 'X') ? 16 : (suf[0] == 'b' || suf[0] == 'B') ? 2 : 8;
	const char *name = base == 16 ? "hexadecimal" : base == 2 ? "binary" : "octal";
	uint64_t v = 0;
	size_t i = 1;
	bool over = false;
	for (; i < suflen; i++) {
		int c = suf[i], dv = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : 99;
		if (c == '_')
			continue;
		if (dv >= base)
			break;
		if (v > (UINT64_MAX - (uint64_t)dv) / (uint64_t)base)
			over = true;
		v = v * (uint64_t)base + (uint64_t)dv;
	}
	const char *rest = suf + i;
	size_t nrest = suflen - i;
	uint64_t max = nrest == 0 ? (uint64_t)INT64_MAX : nrest == 2 && memcmp(rest, "u8", 2) == 0 ? 255 :
	    nrest == 3 && memcmp(rest, "i32", 3) == 0 ? (uint64_t)INT32_MAX : nrest == 5 && memcmp(rest, "usize", 5) == 0 ? UINT64_MAX : 0;
	if (i == 1 || over || max == 0 || v > max) {
		diag_set_help(d, "there are no %s literals; write the value in decimal", name);
		return;
	}
	char out[48];
	snprintf(out, sizeof out, "%llu%.*s", (unsigned long long)v, (int)nrest, rest);
	diag_set_help(d, "there are no %s literals; write the value in decimal: `%s`", name, out);
	diag_add_fix(d, (uint32_t)start, (uint32_t)L->pos, out);
}

/* A bad integer suffix: P003 over the digits (T260 for `usize…`); fits: the
 * digits are an i64 (`i64`'s fix drops the suffix only then). */
static void
int_suffix_error(Lexer *L, size_t start, size_t num_end, const char *digits, const char *suf, size_t suflen, bool fits)
{
	Diag *d;
	if (has_prefix(suf, suflen, "usize")) {
		d = lex_error(L, DIAG_T260, start, L->pos, "usize literals require exactly the `usize` suffix");
		diag_set_help(d, "write e.g. `%susize`", digits);
	} else if (has_prefix(suf, suflen, "i32")) {
		d = lex_error(L, DIAG_P003, start, num_end, "integer literals accept only an `i32` suffix");
		diag_set_help(d, "write e.g. `%si32`", digits);
	} else if (has_prefix(suf, suflen, "u8")) {
		d = lex_error(L, DIAG_P003, start, num_end, "integer literals accept only a `u8` suffix");
		diag_set_help(d, "write e.g. `%su8`", digits);
	} else {
		d = lex_error(L, DIAG_P003, start, num_end, "integer literals accept only an `i32`, `u8`, or `usize` suffix");
		if (suflen == 3 && memcmp(suf, "i64", 3) == 0) {
			diag_set_help(d, "write %s; `i64` is the default integer type and takes no suffix", digits);
			if (fits)   /* not past i64: dropping the suffix would leave a range P003 */
				diag_add_fix(d, (uint32_t)num_end, (uint32_t)L->pos, "");
		} else if (suf[0] == 'e' || suf[0] == 'E') {
			/* `1e300`, `1e-5`: the exact float, and the fix inserting `.0` */
			size_t k = 1;
			while (k < suflen && suf[k] >= '0' && suf[k] <= '9')
				k++;
			size_t p = L->pos, q = p;
			if (suflen == 1 && q < L->len && (L->src[q] == '-' || L->src[q] == '+'))
				for (q++; q < L->len && L->src[q] >= '0' && L->src[q] <= '9';)
					q++;
			bool decimal = digits[0] != '0' || digits[1] == '\0' || (digits[1] >= '0' && digits[1] <= '9');
			if (decimal && ((suflen > 1 && k == suflen) || q > p + 1)) {
				diag_set_help(d, "an exponent needs a fraction: write `%s.0%.*s%.*s`", digits, (int)suflen, suf, (int)(q - p), L->src + p);
				diag_add_fix(d, (uint32_t)num_end, (uint32_t)num_end, ".0");
			} else {
				diag_set_help(d, "an exponent needs a fraction: write e.g. `%s.0e5`", digits);
			}
		} else if (suf[0] == '_') {
			diag_set_help(d, "there are no digit separators; write the digits without `_`");
			separators_fix(L, d, start, digits, suf, suflen);
		} else if (strcmp(digits, "0") == 0 && suflen > 1 && strchr("xXbBoO", suf[0])) {
			radix_help(L, d, start, suf, suflen);
		} else {
			diag_set_help(d, "suffix integer literals with `i32`, `u8` or `usize`, or none for i64");
		}
	}
	push_tok(L, TOK_ERROR, start, L->pos);
}

static void
lex_number(Lexer *L)
{
	size_t start = L->pos;
	while (L->pos < L->len && is_digit((unsigned char)L->src[L->pos]))
		L->pos++;
	bool is_float = false;
	if (peekc(L, 0) == '.' && is_digit(peekc(L, 1))) {
		is_float = true;
		L->pos++;
		while (L->pos < L->len && is_digit((unsigned char)L->src[L->pos]))
			L->pos++;
		int c = peekc(L, 0);
		if (c == 'e' || c == 'E') {
			size_t save = L->pos;
			L->pos++;
			if (peekc(L, 0) == '+' || peekc(L, 0) == '-')
				L->pos++;
			if (!is_digit(peekc(L, 0))) {
				while (L->pos < L->len && is_ident_char((unsigned char)L->src[L->pos]))
					L->pos++;
				Diag *d = lex_error(L, DIAG_P003, start, L->pos, "floating-point exponent requires at least one digit");
				diag_set_help(d, "write the exponent digits, e.g. `1.5e3`, or drop the `e`");
				push_tok(L, TOK_ERROR, start, L->pos);
				return;
			}
			(void)save;
			while (L->pos < L->len && is_digit((unsigned char)L->src[L->pos]))
				L->pos++;
		}
	}
	size_t num_end = L->pos;
	while (L->pos < L->len && is_ident_char((unsigned char)L->src[L->pos]))
		L->pos++;
	const char *suf = L->src + num_end;
	size_t suflen = L->pos - num_end;
	const char *digits = L->src + start;
	size_t ndigits = num_end - start;

	if (is_float) {
		NumSuffix s = SUF_NONE;
		if (suflen == 3 && memcmp(suf, "f32", 3) == 0)
			s = SUF_F32;
		else if (suflen == 3 && memcmp(suf, "f64", 3) == 0)
			s = SUF_F64;
		else if (suflen != 0) {
			Diag *d = lex_error(L, DIAG_P003, start, L->pos, "floating-point literals accept only an `f32` or `f64` suffix");
			diag_set_help(d, "write `1.5` (f64) or `1.5f32`");
			push_tok(L, TOK_ERROR, start, L->pos);
			return;
		}
		/* strtod wants a terminated copy: on the stack unless very long */
		char small[64];
		char *text = ndigits < sizeof small ? small : arena_alloc(L->arena, ndigits + 1);
		memcpy(text, digits, ndigits);
		text[ndigits] = '\0';
		double v;
		if (s == SUF_F32)
			v = (double)strtof(text, NULL);
		else
			v = strtod(text, NULL);
		if (!isfinite(v)) {
			Diag *d = lex_error(L, DIAG_P003, start, L->pos, s == SUF_F32 ? "floating-point literal is outside the f32 range"
			    : "floating-point literal is outside the f64 range");
			diag_set_help(d, "float literals must be finite");
			push_tok(L, TOK_ERROR, start, L->pos);
			return;
		}
		Token *t = push_tok(L, TOK_FLOAT, start, L->pos);
		LexVal lv;
		lv.f = v;
		t->suffix = (uint8_t)s;
		t->v = push_val(L, lv);
		return;
	}

	uint64_t mag = 0;
	bool overflow = false;
	for (size_t i = 0; i < ndigits; i++) {
		unsigned d = (unsigned)(digits[i] - '0');
		if (mag > (UINT64_MAX - d) / 10)
			overflow = true;
		else
			mag = mag * 10 + d;
	}
	NumSuffix s = SUF_NONE;
	if (suflen == 0)
		s = SUF_NONE;
	else if (suflen == 3 && memcmp(suf, "i32", 3) == 0)
		s = SUF_I32;
	else if (suflen == 2 && memcmp(suf, "u8", 2) == 0)
		s = SUF_U8;
	else if (suflen == 5 && memcmp(suf, "usize", 5) == 0)
		s = SUF_USIZE;
	else {
		int_suffix_error(L, start, num_end, arena_strndup(L->arena, digits, ndigits), suf, suflen,
		    !overflow && mag <= (uint64_t)INT64_MAX);
		return;
	}
	Token *t = push_tok(L, TOK_INT, start, L->pos);
	t->suffix = (uint8_t)s;
	t->overflow = overflow;
	LexVal lv;
	lv.u = mag;
	t->v = push_val(L, lv);
}

/* ---- char and string literals --------------------------------------------- */

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * `\u{H…}` with L->pos just after the `u`: 1-6 hex digits naming a scalar.
 * Reports `code` (P005 in strings, P007 in chars) and returns false on error.
 */
static bool
unicode_escape(Lexer *L, DiagCode code, size_t esc, uint32_t *out)
{
	const char *msg = NULL;
	uint32_t v = 0;
	int digits = 0;
	if (peekc(L, 0) != '{') {
		msg = "unicode escape requires one to six hexadecimal digits in braces";
	} else {
		L->pos++;
		while (hexval(peekc(L, 0)) >= 0) {
			if (digits < 7)
				v = v * 16 + (uint32_t)hexval(peekc(L, 0));
			digits++;
			L->pos++;
		}
		if (peekc(L, 0) != '}' || digits == 0 || digits > 6)
			msg = "unicode escape requires one to six hexadecimal digits in braces";
		else if (v > 0x10FFFF)
			msg = "unicode escape is outside the Unicode range";
		else if (v >= 0xD800 && v <= 0xDFFF)
			msg = "unicode escape is not a Unicode scalar value";
		if (peekc(L, 0) == '}')
			L->pos++;
	}
	if (msg) {
		Diag *d = lex_error(L, code, esc, L->pos, msg);
		diag_set_help(d, "write `\\u{…}` with 1-6 hex digits naming a Unicode scalar value (not a surrogate, at most 10FFFF)");
		return false;
	}
	*out = v;
	return true;
}

/*
 * Reads one char-literal element at L->pos (an escape or a scalar).  Returns
 * 1 and the scalar, 0 on a bad escape (reported; pos past it), -1 at a
 * newline/EOF.
 */
static int
char_element(Lexer *L, uint32_t *out)
{
	int c = peekc(L, 0);
	if (c < 0)   /* a line break is a character like any other (the reference's lexer) */
		return -1;
	if (c != '\\') {
		uint32_t cp;
		int n = utf8_decode((const unsigned char *)L->src + L->pos, L->len - L->pos, &cp);
		L->pos += n ? (size_t)n : 1;
		*out = cp;
		return 1;
	}
	size_t esc = L->pos;
	int e = peekc(L, 1);
	L->pos += 2;
	switch (e) {
	case 'n': *out = '\n'; return 1;
	case 'r': *out = '\r'; return 1;
	case 't': *out = '\t'; return 1;
	case '0': *out = 0; return 1;
	case '\\': *out = '\\'; return 1;
	case '\'': *out = '\''; return 1;
	case 'u':
		return unicode_escape(L, DIAG_P007, esc, out) ? 1 : 0;
	case -1:
		L->pos = esc + 1;
		return -1;
	default:
		break;
	}
	if (e >= 0x80) {
		uint32_t cp;
		int n = utf8_decode((const unsigned char *)L->src + esc + 1, L->len - esc - 1, &cp);
		L->pos = esc + 1 + (size_t)(n ? n : 1);
	}
	char msg[64];
	snprintf(msg, sizeof msg, "unsupported char escape `%.*s`", (int)(L->pos - esc), L->src + esc);
	Diag *d = lex_error(L, DIAG_P007, esc, L->pos, msg);
	diag_set_help(d, "char escapes are \\n \\r \\t \\0 \\' \\\\ and \\u{…}");
	return 0;
}

static void
lex_char(Lexer *L)
{
	size_t start = L->pos;
	L->pos++;  /* opening quote */
	if (peekc(L, 0) == '\'') {
		L->pos++;
		Diag *d = lex_error(L, DIAG_P008, start, L->pos, "char literal requires exactly one Unicode scalar value");
		diag_set_help(d, "write one character between the quotes, e.g. `' '`");
		push_tok(L, TOK_ERROR, start, L->pos);
		return;
	}
	uint32_t cp = 0;
	int r = char_element(L, &cp);
	if (r == 0) {
		/* A bad escape, already reported: skip to the closing quote on this line. */
		size_t i = L->pos;
		while (i < L->len && L->src[i] != '\n' && L->src[i] != '\'')
			i++;
		if (i < L->len && L->src[i] == '\'')
			L->pos = i + 1;
		push_tok(L, TOK_ERROR, start, L->pos);
		return;
	}
	if (r < 0) {
		Diag *d = lex_error(L, DIAG_P006, start, L->pos, "unterminated char literal");
		diag_set_help(d, "close the char literal with `'`");
		push_tok(L, TOK_ERROR, start, L->pos);
		return;
	}
	if (peekc(L, 0) != '\'') {
		/* More than one scalar if a closing quote follows on this line. */
		size_t i = L->pos;
		while (i < L->len && L->src[i] != '\n' && L->src[i] != '\'')
			i++;
		if (i < L->len && L->src[i] == '\'') {
			L->pos = i + 1;
			Diag *d = lex_error(L, DIAG_P008, start, L->pos, "char literal requires exactly one Unicode scalar value");
			diag_set_help(d, "a char holds one character; use a string literal for text, in double quotes (`\"…\"`)");
			/* `'hello'` (qa35, single-quoted text): the fix writes the
			 * double quotes when the text holds neither `"` nor `\` */
			bool plain = d != NULL;
			for (size_t k = start + 1; k + 1 < L->pos && plain; k++)
				plain = L->src[k] != '"' && L->src[k] != '\\';
			if (plain) {
				diag_add_fix(d, (uint32_t)start, (uint32_t)start + 1, "\"");
				diag_add_fix(d, (uint32_t)L->pos - 1, (uint32_t)L->pos, "\"");
			}
		} else if (L->pos < L->len) {
			/* `'x; …`: the reference's P008 (P006 is only for the end of the input) */
			Diag *d = lex_error(L, DIAG_P008, start, L->pos, "char literal requires exactly one Unicode scalar value");
			diag_set_help(d, "close the char literal with `'` right after its character");
		} else {
			Diag *d = lex_error(L, DIAG_P006, start, L->pos, "unterminated char literal");
			diag_set_help(d, "close the char literal with `'`");
		}
		push_tok(L, TOK_ERROR, start, L->pos);
		return;
	}
	L->pos++;
	if (L->pos < L->len && is_ident_char((unsigned char)L->src[L->pos])) {
		size_t e = L->pos;
		while (e < L->len && is_ident_char((unsigned char)L->src[e]))
			e++;
		L->pos = e;
		Diag *d = lex_error(L, DIAG_P008, start, L->pos, "char literal requires exactly one Unicode scalar value");
		diag_set_help(d, "separate the char literal from the following name");
		push_tok(L, TOK_ERROR, start, L->pos);
		return;
	}
	if (r == 0) {
		push_tok(L, TOK_ERROR, start, L->pos);
		return;
	}
	Token *t = push_tok(L, TOK_CHAR, start, L->pos);
	t->v = cp;
}

static void
lex_string(Lexer *L)
{
	size_t start = L->pos;
	L->pos++;
	/* Without escapes (nearly every literal) the bytes are the source's:
	 * one arena copy, no decoding buffer. */
	size_t plain = L->pos;
	while (plain < L->len && L->src[plain] != '"' && L->src[plain] != '\\')
		plain++;
	if (plain < L->len && L->src[plain] == '"') {
		uint32_t n = (uint32_t)(plain - L->pos);
		char *p = arena_alloc(L->arena, sizeof n + n + 1);
		memcpy(p, &n, sizeof n);
		memcpy(p + sizeof n, L->src + L->pos, n);
		p[sizeof n + n] = '\0';
		L->pos = plain + 1;
		Token *t = push_tok(L, TOK_STRING, start, L->pos);
		LexVal lv;
		lv.s = p + sizeof n;
		t->v = push_val(L, lv);
		return;
	}
	Buf b = {0};
	bool bad = false;
	for (;;) {
		if (L->pos >= L->len) {
			Span sp = span_at(start, L->pos);
			L->had_error = true;
			Diag *d = diag_report(L->diags, DIAG_P004, &sp, "unterminated string literal");
			diag_set_help(d, "close the string with `\"`");
			buf_free(&b);
			push_tok(L, TOK_ERROR, start, L->pos);
			return;
		}
		char c = L->src[L->pos];
		if (c == '"') {
			L->pos++;
			break;
		}
		if (c != '\\') {
			size_t run = L->pos;
			while (run < L->len && L->src[run] != '"' && L->src[run] != '\\')
				run++;
			buf_put(&b, L->src + L->pos, run - L->pos);
			L->pos = run;
			continue;
		}
		int e = peekc(L, 1);
		switch (e) {
		case 'n': buf_putc(&b, '\n'); L->pos += 2; continue;
		case 'r': buf_putc(&b, '\r'); L->pos += 2; continue;
		case 't': buf_putc(&b, '\t'); L->pos += 2; continue;
		case '"': buf_putc(&b, '"'); L->pos += 2; continue;
		case '\\': buf_putc(&b, '\\'); L->pos += 2; continue;
		case '\'': buf_putc(&b, '\''); L->pos += 2; continue;
		case 'u': {
			size_t esc = L->pos;
			uint32_t cp;
			L->pos += 2;
			if (unicode_escape(L, DIAG_P005, esc, &cp)) {
				char enc[4];
				buf_put(&b, enc, (size_t)utf8_put(cp, enc));
			} else {
				bad = true;
			}
			continue;
		}
		case -1: L->pos++; continue;
		default: {
			size_t esc = L->pos;
			uint32_t cp;
			int n = utf8_decode((const unsigned char *)L->src + esc + 1, L->len - esc - 1, &cp);
			L->pos = esc + 1 + (size_t)(n ? n : 1);
			char msg[64];
			snprintf(msg, sizeof msg, "unsupported string escape `%.*s`", (int)(L->pos - esc), L->src + esc);
			Diag *d = lex_error(L, DIAG_P005, esc, L->pos, msg);
			diag_set_help(d, "string escapes are \\n \\r \\t \\\" \\' \\\\ and \\u{…}");
			bad = true;
			continue;
		}
		}
	}
	if (bad) {
		buf_free(&b);
		push_tok(L, TOK_ERROR, start, L->pos);
		return;
	}
	Token *t = push_tok(L, TOK_STRING, start, L->pos);
	/* the length, then the bytes and a NUL (lex_str_len) */
	uint32_t n = (uint32_t)b.len;
	char *p = arena_alloc(L->arena, sizeof n + b.len + 1);
	memcpy(p, &n, sizeof n);
	if (b.len)
		memcpy(p + sizeof n, b.data, b.len);
	p[sizeof n + b.len] = '\0';
	LexVal lv;
	lv.s = p + sizeof n;
	t->v = push_val(L, lv);
	buf_free(&b);
}

/* ---- punctuation ----------------------------------------------------------- */

/* Is the next token inside an open `(` (a parameter list, not a record's
 * fields or a `let`'s annotation, where `borrow` is no type; rev37)? */
static bool
in_parens(const Lexer *L)
{
	int depth = 0;
	for (int i = L->toks.len - 1; i >= 0; i--) {
		TokKind k = (TokKind)L->toks.items[i].kind;
		if (k == TOK_RPAREN)
			depth++;
		else if (k == TOK_LPAREN && depth-- == 0)
			return true;
		else if (depth == 0 && (k == TOK_LBRACE || k == TOK_RBRACE || k == TOK_SEMI))
			return false;
	}
	return false;
}

/* A lone `&`: P002 with a help by position; an error token. */
static __attribute__((noinline, cold)) TokKind
lex_lone_amp(Lexer *L)
{
	Diag *dg = lex_error(L, DIAG_P002, L->pos, L->pos + 1, "unexpected `&`; did you mean `&&`?");
	/* the habit by position: `s: &str` (a type), `f(&s)` (an argument) */
	TokKind prev = L->toks.len ? (TokKind)L->toks.items[L->toks.len - 1].kind : TOK_EOF;
	/* the word right after the `&` (qa37): `&self`, `&mut v`, `&v`, `&str` */
	size_t w = L->pos + 1, we = w;
	while (we < L->len && (L->src[we] == '_' || (L->src[we] >= 'a' && L->src[we] <= 'z') || (L->src[we] >= 'A' && L->src[we] <= 'Z') ||
	    (we > w && L->src[we] >= '0' && L->src[we] <= '9')))
		we++;
	bool is_mut = we - w == 3 && memcmp(L->src + w, "mut", 3) == 0 && we < L->len && L->src[we] == ' ';
	bool is_self = we - w == 4 && memcmp(L->src + w, "self", 4) == 0;
	if (prev == TOK_LPAREN && (is_self || (is_mut && we + 5 <= L->len && memcmp(L->src + we + 1, "self", 4) == 0)))
		/* Rust's `fn get(&self)`: the receiver is an ordinary typed parameter */
		diag_set_help(dg, "there are no references: a method's receiver is written like any parameter, with its class's type: `self: Name` takes the instance, `self: borrow Name` reads it and the caller keeps it");
	else if (prev == TOK_COLON || prev == TOK_ARROW) {
		diag_set_help(dg, "there are no references: a parameter that only reads says `borrow`, `text: borrow str` for text (the caller lends `string_as_str(s)`) or `values: borrow Vec<i64>`; logical and is `&&`");
		if (prev == TOK_COLON && we > w && !is_mut && in_parens(L))   /* `s: &str` → `s: borrow str` */
			diag_add_fix(dg, (uint32_t)L->pos, (uint32_t)L->pos + 1, "borrow ");
	} else if (prev == TOK_LPAREN || prev == TOK_COMMA || prev == TOK_ASSIGN) {
		diag_set_help(dg, "there are no references: use the value itself (a `borrow` parameter lends it and the caller keeps it), or a view, `string_as_str(s)`, where a `str` is wanted; logical and is `&&`");
		if (prev != TOK_ASSIGN && we > w)   /* an argument `f(&v)`, `f(&mut v)`: the value itself */
			diag_add_fix(dg, (uint32_t)L->pos, (uint32_t)(is_mut ? we + 1 : L->pos + 1), "");
	} else
		diag_set_help(dg, "logical and is `&&`; there are no references or bitwise operators");
	return TOK_ERROR;
}

/* The nesting pass's view of a punctuation token. */
enum { NC_OPEN = 1, NC_CLOSE = 2, NC_UNARY = 4, NC_RUNPREV = 8 };
static const uint8_t nest_class[TOK__COUNT] = {
	[TOK_LPAREN] = NC_OPEN | NC_RUNPREV, [TOK_LBRACE] = NC_OPEN, [TOK_LBRACKET] = NC_OPEN,
	[TOK_RPAREN] = NC_CLOSE, [TOK_RBRACE] = NC_CLOSE, [TOK_RBRACKET] = NC_CLOSE,
	[TOK_MINUS] = NC_UNARY | NC_RUNPREV, [TOK_BANG] = NC_UNARY | NC_RUNPREV,
	[TOK_ASSIGN] = NC_RUNPREV, [TOK_COMMA] = NC_RUNPREV,
};

/* A declaration keyword (the nesting pass counts them outside brackets:
 * the parser's declaration array is sized by it). */
static inline bool
item_keyword(const char *s, size_t n)
{
	switch (n) {
	case 2: return s[0] == 'f' && s[1] == 'n';
	case 5: return memcmp(s, "class", 5) == 0;
	case 6: return memcmp(s, "record", 6) == 0;
	case 7: return memcmp(s, "variant", 7) == 0 || memcmp(s, "session", 7) == 0;
	case 8: return memcmp(s, "resource", 8) == 0;
	case 9: return memcmp(s, "interface", 9) == 0;
	default: return false;
	}
}

/* The punctuation token starting with c (lex_class LC_PUNCT or LC_SLASH):
 * one or two bytes, never a line break, so the next token is not first on
 * its line unless whitespace says so (push_tok's test, known here). */
static inline __attribute__((always_inline)) void
lex_punct(Lexer *L, int c)
{
	size_t pos = L->pos;
	int d = pos + 1 < L->len ? (unsigned char)L->src[pos + 1] : -1;
	TokKind k;
	int n = 1;
	switch (c) {
	case '@': k = TOK_AT; break;
	case '(': k = TOK_LPAREN; break;
	case ')': k = TOK_RPAREN; break;
	case '{': k = TOK_LBRACE; break;
	case '}': k = TOK_RBRACE; break;
	case '[': k = TOK_LBRACKET; break;
	case ']': k = TOK_RBRACKET; break;
	case ':': if (d == ':') { k = TOK_COLONCOLON; n = 2; } else k = TOK_COLON; break;
	case '.': k = TOK_DOT; break;
	case ',': k = TOK_COMMA; break;
	case ';': k = TOK_SEMI; break;
	case '-': if (d == '>') { k = TOK_ARROW; n = 2; } else k = TOK_MINUS; break;
	case '+': k = TOK_PLUS; break;
	case '*': k = TOK_STAR; break;
	case '/': k = TOK_SLASH; break;
	case '%': k = TOK_PERCENT; break;
	case '?': k = TOK_QUESTION; break;
	case '!': if (d == '=') { k = TOK_NE; n = 2; } else k = TOK_BANG; break;
	case '=':
		if (d == '=') { k = TOK_EQ; n = 2; }
		else if (d == '>') { k = TOK_FATARROW; n = 2; }
		else k = TOK_ASSIGN;
		break;
	case '<': if (d == '=') { k = TOK_LE; n = 2; } else k = TOK_LT; break;
	case '>': if (d == '=') { k = TOK_GE; n = 2; } else k = TOK_GT; break;
	case '&':
		if (d == '&') {
			k = TOK_ANDAND;
			n = 2;
		} else {
			k = lex_lone_amp(L);
		}
		break;
	default: /* '|' */
		if (d == '|') { k = TOK_OROR; n = 2; } else k = TOK_PIPE;
		break;
	}
	/* the nesting pass: a bracket's depth, a run of unary operators (a
	 * `-` or `!` after `-`, `!`, `(`, `=`, `,` or another unary one) */
	unsigned nc = nest_class[k];
	if (nc & NC_OPEN) {
		if (++L->depth > LEX_NEST_MAX && L->nest_over < 0)
			L->nest_over = L->toks.len;
	} else if ((nc & NC_CLOSE) && L->depth > 0) {
		L->depth--;
	}
	bool unary = (nc & NC_UNARY) && L->toks.len > 0 &&
	    ((nest_class[L->toks.items[L->toks.len - 1].kind] & NC_RUNPREV) || L->run > 0);
	L->run = unary ? L->run + 1 : 0;
	if (L->run > LEX_NEST_MAX && L->nest_over < 0)
		L->nest_over = L->toks.len;
	if ((size_t)L->toks.len == L->toks.cap)
		grow_toks(L);
	L->toks.items[L->toks.len++] = (Token){ .kind = (uint8_t)k, .line_first = L->nl, .span = span_at(pos, pos + (size_t)n) };
	L->nl = false;
	L->pos = pos + (size_t)n;
}

/*
 * The help of P001 at a non-ASCII character (qa33): it names the code point,
 * so an invisible one (a zero-width space, a word joiner, a mid-file BOM, a
 * soft hyphen: pasted text) is found, and says what a typographic quote
 * stands for.  The message quotes the character raw, as the reference.
 */
static void
lex_non_ascii_help(Lexer *L, Diag *d, size_t start)
{
	uint32_t cp = 0;
	utf8_decode((const unsigned char *)L->src + start, L->len - start, &cp);
	if (cp == 0x201C || cp == 0x201D || cp == 0x201E || cp == 0x201F)
		diag_set_help(d, "U+%04X is a typographic quote; string literals use the ASCII `\"`", (unsigned)cp);
	else if (cp == 0x2018 || cp == 0x2019 || cp == 0x201A || cp == 0x201B)
		diag_set_help(d, "U+%04X is a typographic quote; char literals use the ASCII `'`", (unsigned)cp);
	else if (cp == 0x00AD || cp == 0x180E || (cp >= 0x200B && cp <= 0x200F) || (cp >= 0x202A && cp <= 0x202E) ||
		 (cp >= 0x2060 && cp <= 0x206F) || cp == 0xFEFF)
		diag_set_help(d, "U+%04X is an invisible formatting character (often pasted with the text around it); delete it", (unsigned)cp);
	else
		diag_set_help(d, "U+%04X starts no token: identifiers and punctuation are ASCII; non-ASCII text belongs in string or char literals and comments", (unsigned)cp);
}

/* ---- driver -------------------------------------------------------------- */

static void
lex_unexpected(Lexer *L)
{
	size_t start = L->pos;
	unsigned char c = (unsigned char)L->src[start];
	size_t n = 1;
	if (c >= 0x80) {
		uint32_t cp;
		int k = utf8_decode((const unsigned char *)L->src + start, L->len - start, &cp);
		n = k ? (size_t)k : 1;
	}
	L->pos += n;
	Span sp = span_at(start, L->pos);
	L->had_error = true;
	/* The character is quoted raw, as the reference does; a NUL is shown as `\0`
	 * (C strings cannot carry it; docs/DECISIONS.md). */
	Diag *d;
	if (c == 0) {
		d = diag_report(L->diags, DIAG_P001, &sp, "unexpected character `\\0`");
		diag_set_help(d, "remove the NUL byte; source files are text");
	} else if (c >= 0x80) {
		d = diag_report(L->diags, DIAG_P001, &sp, "unexpected character `%.*s`", (int)n, L->src + start);
		lex_non_ascii_help(L, d, start);
	} else {
		d = diag_report(L->diags, DIAG_P001, &sp, "unexpected character `%.*s`", (int)n, L->src + start);
		diag_set_help(d, "remove the character; it starts no token");
	}
	push_tok(L, TOK_ERROR, start, L->pos);
}

static void lex_run(LexResult *out, const char *src, size_t len, Arena *arena, DiagSink *diags);

/* The last 2 MiB unit the tokens reached is a huge page, resident whole:
 * room for the caller's `want` bytes past the last token (when it fits),
 * and what lies past them goes back (the huge page splits). */
static void
lex_trim_tail(LexResult *out, size_t want)
{
	if (!out->toks_mapped)
		return;
	size_t page = (size_t)sysconf(_SC_PAGESIZE), unit = (size_t)2 << 20;
	size_t used = (toks_bytes((size_t)out->ntoks) + page - 1) / page * page;
	size_t end = (used + unit - 1) / unit * unit;
	if (end > toks_bytes(out->toks_cap))
		end = toks_bytes(out->toks_cap);
	want = (want + page - 1) / page * page;
#ifdef SPX_ASAN
	want = 0;   /* (a heap block: ASan sees a write past it) */
#endif
	if (want && used + want <= end) {
		out->spare = (char *)out->toks - TOK_HEAD + used;
		out->spare_len = want;
		out->toks_spare_lo = used;
		out->toks_spare_hi = used += want;
	}
	if (end > used)
		spx_big_release((char *)out->toks - TOK_HEAD, used, end, true);
}

void
lex_source(LexResult *out, const char *src, size_t len, Arena *arena, DiagSink *diags)
{
	lex_run(out, src, len, arena, diags);
	lex_trim_tail(out, 0);
}

void
lex_source_spare(LexResult *out, const char *src, size_t len, Arena *arena, DiagSink *diags, size_t head_bytes,
    size_t item_bytes)
{
	lex_run(out, src, len, arena, diags);
	lex_trim_tail(out, item_bytes ? head_bytes + item_bytes * (size_t)out->items_hint : 0);
}

/* lex_source without its last step (lex_trim_tail) */
static void
lex_run(LexResult *out, const char *src, size_t len, Arena *arena, DiagSink *diags)
{
	Lexer L;
	memset(&L, 0, sizeof L);
	memset(out, 0, sizeof *out);
	L.src = src;
	L.len = len;
	L.arena = arena;
	L.diags = diags;
	L.nl = true;
	L.nest_over = -1;
	L.toks.cap = len + 2;
	char *block = spx_big_reserve(toks_bytes(L.toks.cap), &L.toks.mapped);
	if (!block) {
		/* No room for the bound: about one token per 4 bytes, grown on demand. */
		L.toks.cap = len / 4 + 16;
		block = spx_big_alloc(toks_bytes(L.toks.cap), &L.toks.mapped);
	}
	L.toks.items = (Token *)(block + TOK_HEAD);
	/* values: at most one per token, so the same bound (untouched pages
	 * of a mapping cost nothing); else grown from a small start */
	L.vals.cap = len + 2;
	L.vals.items = spx_big_reserve(sizeof(LexVal) * L.vals.cap, &L.vals.mapped);
	if (!L.vals.items)
		L.vals.cap = 0;
#ifdef MADV_NOHUGEPAGE
	/* a few hundred KB fill the first of its 2 MiB units: small pages */
	else if (L.vals.mapped)
		madvise(L.vals.items, sizeof(LexVal) * L.vals.cap, MADV_NOHUGEPAGE);
#endif

	size_t bad = utf8_validate((const unsigned char *)src, len);
	if (bad < len) {
		uint32_t line = 1, col = 1;
		for (size_t i = 0; i < bad; i++) {
			if (src[i] == '\n') {
				line++;
				col = 1;
			} else {
				col += ((unsigned char)src[i] & 0xC0) != 0x80;
			}
		}
		Diag *d = diag_report(diags, DIAG_I001, NULL, "cannot read %s: stream did not contain valid UTF-8",
		    diags->path ? diags->path : "source");
		diag_set_help(d, "save the file as UTF-8 (first invalid byte 0x%02X at line %u, column %u)",
		    (unsigned char)src[bad], line, col);
		L.had_error = true;
		out->fatal = true;
		push_tok(&L, TOK_EOF, len, len);
		goto done;
	}
	if (len >= 3 && memcmp(src, "\xEF\xBB\xBF", 3) == 0) {
		Diag *d = lex_error(&L, DIAG_P001, 0, 3, "file starts with a UTF-8 byte-order mark");
		diag_set_help(d, "remove the UTF-8 byte-order mark before the `module` header");
		if (d)
			diag_add_fix(d, 0, 3, "");
		L.pos = 3;
	}
	/* The cursor is a local between tokens (L.pos is written before and
	 * read after each out-of-line scanner): a token store could alias
	 * L.pos, which then had to be reloaded every byte. */
	size_t pos = L.pos;
	/* Each scanner ends in a dispatch of its own (GNU labels as values):
	 * one shared indirect jump predicted the next token's class far worse
	 * than one per class does (what follows a name is not what follows a
	 * `(`). */
	static void *const scan[] = {
		[LC_OTHER] = &&other, [LC_SPACE] = &&space, [LC_WS] = &&ws, [LC_IDENT] = &&ident,
		[LC_DIGIT] = &&digit, [LC_DQUOTE] = &&dquote, [LC_SQUOTE] = &&squote, [LC_SLASH] = &&slash,
		[LC_PUNCT] = &&punct, [LC_HIGH] = &&high,
	};
	unsigned char c;
#define NEXT() do { \
		if (pos >= len) \
			goto lexed; \
		c = (unsigned char)src[pos]; \
		goto *scan[lex_class[c]]; \
	} while (0)
/* An out-of-line scanner: it reads and advances L.pos, the cursor's home
 * while it runs; then (space1) one space after the token, as after a
 * name, and the next token's dispatch. */
#define SCAN(call, space1) do { \
		L.pos = pos; \
		call; \
		pos = L.pos; \
		if (space1) \
			pos += pos < len && src[pos] == ' '; \
		NEXT(); \
	} while (0)
	NEXT();
space:
	/* runs of spaces (indentation) in one tight loop */
	do
		pos++;
	while (pos < len && src[pos] == ' ');
	NEXT();
ws:
	/* a line break and the next line's indentation in one step (one
	 * dispatch fewer a line) */
	L.nl |= c == '\n';
	pos++;
	while (pos < len && src[pos] == ' ')
		pos++;
	NEXT();
ident: {
		size_t start = pos++;
		while (pos < len && ident_char_tab[(unsigned char)src[pos]])
			pos++;
		if (c == '_' && pos - start > 3 && src[start + 1] == 'i' && src[start + 2] == 'f')
			out->if_names = true;
		if (L.depth == 0 && item_keyword(src + start, pos - start))
			L.items_hint++;
		push_tok(&L, TOK_IDENT, start, pos);
		/* a name and the one space after it (`let x = …`): one dispatch
		 * fewer for most names */
		pos += pos < len && src[pos] == ' ';
		NEXT();
	}
digit:
	SCAN(lex_number(&L), 0);
dquote:
	SCAN(lex_string(&L), 0);
squote:
	SCAN(lex_char(&L), 0);
slash:
	SCAN(pos + 1 < len && src[pos + 1] == '/' ? lex_comment(&L) : lex_punct(&L, c), 0);
punct:
	SCAN(lex_punct(&L, c), 1);   /* `x = y`, `a, b` */
high: {
		uint32_t cp;
		int n = utf8_decode((const unsigned char *)src + pos, len - pos, &cp);
		if (n && utf8_is_space(cp)) {
			pos += (size_t)n;
			NEXT();
		}
	}
	/* fall through */
other:
	SCAN(lex_unexpected(&L), 0);
#undef SCAN
#undef NEXT
lexed:
	L.pos = pos;
	push_tok(&L, TOK_EOF, len, len);
done:
	/* The comments are handed to the arena; the tokens to the caller. */
	out->ntoks = L.toks.len;
	out->toks = L.toks.items;
	out->toks_cap = L.toks.cap;
	out->toks_mapped = L.toks.mapped;
	if (!L.vals.items) {   /* (a valueless token array still names one) */
		LexVal none;
		none.u = 0;
		push_val(&L, none);
	}
	memcpy((char *)L.toks.items - TOK_HEAD, &L.vals.items, sizeof L.vals.items);
	out->vals = L.vals.items;
	out->vals_cap = L.vals.cap;
	out->vals_mapped = L.vals.mapped;
	out->ncomments = L.comments.len;
	out->comments = L.comments.items;
	arena_own(arena, L.comments.items);
	out->had_error = L.had_error;
	out->nest_over = L.nest_over;
	out->items_hint = L.items_hint;
}

void
lex_release_before(LexResult *lx, int tok, Arena *to)
{
	/* every 256 KiB of tokens when released (each call is one system call,
	 * and what is still held at the end of the parse, the peak, is at most
	 * that much); every 64 KiB when donated (no system call: the tree
	 * starts filling them sooner) */
	size_t step = to ? (size_t)64 << 10 : (size_t)256 << 10;
	if (!lx->toks_mapped || tok - lx->toks_released < (int)(step / sizeof(Token)))
		return;
	/* the values of those tokens: up to the last one's (values are in token
	 * order), once 64 KiB of them are dead */
	for (int i = tok - 1; i >= lx->toks_released; i--) {
		TokKind k = (TokKind)lx->toks[i].kind;
		if (k == TOK_INT || k == TOK_FLOAT || k == TOK_STRING) {
			uint32_t dead = lx->toks[i].v + 1;
			if (sizeof(LexVal) * (dead - lx->vals_released) < ((size_t)64 << 10) && to)
				break;
			if (lx->vals_mapped)
				spx_big_release(lx->vals, sizeof(LexVal) * lx->vals_released, sizeof(LexVal) * dead, true);
			lx->vals_released = dead;
			break;
		}
	}
	/* (the block's first page stays: it holds lex_vals' address) */
	size_t from = TOK_HEAD + sizeof(Token) * (size_t)lx->toks_released, page = (size_t)sysconf(_SC_PAGESIZE);
	size_t upto = TOK_HEAD + sizeof(Token) * (size_t)tok;
	if (to) {
		/* whole pages from the one holding byte `from` (not given before:
		 * the previous call stopped below it) up to the one holding `upto` */
		size_t lo = (from < page ? page : from) / page * page, hi = upto / page * page;
		if (hi > lo) {
			if (lx->toks_don_hi != lo)
				lx->toks_don_lo = lo;   /* (the first: lex_free unmaps around them) */
			lx->toks_don_hi = hi;
			arena_donate(to, (char *)lx->toks - TOK_HEAD + lo, hi - lo);
		}
	} else {
		spx_big_release((char *)lx->toks - TOK_HEAD, from < page ? page : from, upto, true);
	}
	lx->toks_released = tok;
}

void
lex_free(LexResult *lx)
{
	if (lx->toks && lx->toks_mapped) {
		/* the donated pages are the arena's now, the spare the caller's
		 * (past the last token, so above the donated ones) */
		char *block = (char *)lx->toks - TOK_HEAD;
		size_t hole[2][2] = { { lx->toks_don_lo, lx->toks_don_hi }, { lx->toks_spare_lo, lx->toks_spare_hi } };
		size_t at = 0;
		for (int i = 0; i < 2; i++) {
			if (hole[i][1] <= hole[i][0])
				continue;
			if (hole[i][0] > at)
				spx_big_free(block + at, hole[i][0] - at, true);
			at = hole[i][1];
		}
		if (toks_bytes(lx->toks_cap) > at)
			spx_big_free(block + at, toks_bytes(lx->toks_cap) - at, true);
	} else if (lx->toks) {
		spx_big_free((char *)lx->toks - TOK_HEAD, toks_bytes(lx->toks_cap), lx->toks_mapped);
	}
	if (lx->vals)
		spx_big_free(lx->vals, sizeof(LexVal) * lx->vals_cap, lx->vals_mapped);
	lx->vals = NULL;
	lx->toks = NULL;
	lx->ntoks = 0;
	lx->toks_cap = 0;
}
