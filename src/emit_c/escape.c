/*
 * escape.c — the only two ways source text reaches generated C
 * (docs/DECISIONS.md, "Native lane": escaping).
 *
 * Anything a program's author wrote — stable identities, names, string
 * literals, module names, contract clause text — passes through one of:
 *
 *   emitc_comment_text  inside a C comment: bytes outside a small printable
 *                       ASCII set become `%XX`, so `*`, `/`, `?`, `\`, `%`,
 *                       control bytes and non-ASCII never appear raw: no
 *                       `*` `/` can close the comment, no `??` trigraph,
 *                       no backslash-newline splice, no newline.
 *   emitc_c_string      inside a C string literal: printable ASCII except
 *                       `"`, `\`, `?`, `*` and `/` as itself, `"` and `\`
 *                       escaped, everything else a three-digit octal escape
 *                       (which never absorbs a following digit): no
 *                       trigraph, no line splice, no early end of the
 *                       literal, and no comment opener or closer from source text
 *                       anywhere in the unit.
 *
 * Identifiers need neither: the lexer admits only [A-Za-z_][A-Za-z0-9_]*
 * (LANGUAGE.md §1.2), and the emitter prefixes every one it spells.
 */
#include "emit_int.h"

static bool
comment_safe(unsigned char c)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
		return true;
	switch (c) {
	case ' ': case '_': case '.': case ',': case ':': case ';': case '-': case '+': case '=':
	case '<': case '>': case '(': case ')': case '[': case ']': case '{': case '}': case '#':
	case '@': case '!': case '&': case '|': case '^': case '~': case '$': case '\'':
		return true;
	default:
		return false;
	}
}

void
emitc_comment_text(Buf *out, const char *s, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (comment_safe(c)) {
			buf_putc(out, (char)c);
		} else {
			buf_putc(out, '%');
			buf_putc(out, hex[c >> 4]);
			buf_putc(out, hex[c & 15]);
		}
	}
}

void
emitc_c_string(Buf *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			buf_printf(out, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f || c == '?' || c == '*' || c == '/')
			buf_printf(out, "\\%03o", c);
		else
			buf_putc(out, (char)c);
	}
}
