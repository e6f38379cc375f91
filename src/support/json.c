/*
 * json.c — JSON string escaping (TOOLCHAIN.md §3.1).
 */
#include "json.h"
#include "utf8.h"

#include <string.h>

void
json_str(Buf *b, const char *s, size_t n)
{
	buf_putc(b, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		switch (c) {
		case '"': buf_put(b, "\\\"", 2); break;
		case '\\': buf_put(b, "\\\\", 2); break;
		case '\n': buf_put(b, "\\n", 2); break;
		case '\r': buf_put(b, "\\r", 2); break;
		case '\t': buf_put(b, "\\t", 2); break;
		default:
			if (c < 0x20 || c == 0x7F) {
				buf_printf(b, "\\u%04x", c);
			} else if (c < 0x80) {
				buf_putc(b, (char)c);
			} else {
				/* JSON texts are UTF-8 (RFC 8259 §8.1): a byte that starts
				 * no well-formed sequence (a path's raw bytes, a name cut
				 * mid-scalar) is written as U+FFFD, one per byte. */
				uint32_t cp;
				int k = utf8_decode((const unsigned char *)s + i, n - i, &cp);
				if (k > 0) {
					buf_put(b, s + i, (size_t)k);
					i += (size_t)k - 1;
				} else {
					buf_puts(b, "\xEF\xBF\xBD");
				}
			}
		}
	}
	buf_putc(b, '"');
}

void
json_cstr(Buf *b, const char *s)
{
	if (!s)
		buf_puts(b, "null");
	else
		json_str(b, s, strlen(s));
}

/* ---- where a JSON text stops being JSON ------------------------------------------ */

/* The end of the bare word at s[i] (a mistyped literal or number: letters,
 * digits, + - .), at least one character (one UTF-8 sequence, or byte). */
static size_t
word_end(const char *s, size_t n, size_t i)
{
	size_t j = i;
	while (j < n && ((s[j] >= 'a' && s[j] <= 'z') || (s[j] >= 'A' && s[j] <= 'Z') || (s[j] >= '0' && s[j] <= '9') ||
	    s[j] == '+' || s[j] == '-' || s[j] == '.'))
		j++;
	if (j > i)
		return j;
	uint32_t cp;
	int k = utf8_decode((const unsigned char *)s + i, n - i, &cp);
	return i + (k > 0 ? (size_t)k : 1);
}

/* The end of the number at s[i], or i when s[i..) starts none (RFC 8259 §6). */
static size_t
number_end(const char *s, size_t n, size_t i)
{
	size_t j = i;
	if (j < n && s[j] == '-')
		j++;
	if (j < n && s[j] == '0')
		j++;
	else if (j < n && s[j] >= '1' && s[j] <= '9')
		while (j < n && s[j] >= '0' && s[j] <= '9')
			j++;
	else
		return i;
	if (j < n && s[j] == '.') {
		size_t d = ++j;
		while (j < n && s[j] >= '0' && s[j] <= '9')
			j++;
		if (j == d)
			return i;
	}
	if (j < n && (s[j] == 'e' || s[j] == 'E')) {
		j++;
		if (j < n && (s[j] == '+' || s[j] == '-'))
			j++;
		size_t d = j;
		while (j < n && s[j] >= '0' && s[j] <= '9')
			j++;
		if (j == d)
			return i;
	}
	return j;
}

static int
hex4(const char *s, size_t n, size_t i)
{
	if (i + 4 > n)
		return -1;
	int v = 0;
	for (size_t k = i; k < i + 4; k++) {
		char c = s[k];
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

/* The string at s[*i] (a `"`): advances *i past it, or stores the span
 * of its first defect and returns false. */
static bool
scan_string(const char *s, size_t n, bool allow_nul, size_t *i, size_t *start, size_t *end)
{
	size_t j = *i + 1;
	for (;;) {
		if (j >= n) {   /* unterminated: the opening quote */
			*start = *i, *end = *i + 1;
			return false;
		}
		unsigned char c = (unsigned char)s[j];
		if (c == '"') {
			*i = j + 1;
			return true;
		}
		if (c < 0x20) {
			*start = j, *end = j + 1;
			return false;
		}
		if (c >= 0x80) {
			uint32_t cp;
			int k = utf8_decode((const unsigned char *)s + j, n - j, &cp);
			if (k <= 0) {
				*start = j, *end = j + 1;
				return false;
			}
			j += (size_t)k;
			continue;
		}
		if (c != '\\') {
			j++;
			continue;
		}
		*start = j;
		if (j + 1 >= n || !strchr("\"\\/bfnrtu", s[j + 1]) || s[j + 1] == 0) {
			*end = j + 1 < n ? j + 2 : n;
			return false;
		}
		if (s[j + 1] != 'u') {
			j += 2;
			continue;
		}
		int v = hex4(s, n, j + 2);
		*end = j + 6 < n ? j + 6 : n;
		if (v < 0 || (v == 0 && !allow_nul) || (v >= 0xDC00 && v <= 0xDFFF))
			return false;
		if (v >= 0xD800 && v <= 0xDBFF) {   /* a high surrogate needs its low one */
			int w = j + 7 < n && s[j + 6] == '\\' && s[j + 7] == 'u' ? hex4(s, n, j + 8) : -1;
			if (w < 0xDC00 || w > 0xDFFF)
				return false;
			j += 6;
		}
		j += 6;
	}
}

static size_t
skip_ws(const char *s, size_t n, size_t i)
{
	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
		i++;
	return i;
}

bool
json_syntax_error(const char *s, size_t n, bool allow_nul, size_t *start, size_t *end)
{
	enum { MAX_DEPTH = 4096 };
	static const char *const lits[] = { "true", "false", "null" };
	char stack[MAX_DEPTH];   /* '{' or '[' per open container */
	int depth = 0;
	size_t i = skip_ws(s, n, 0);
	bool want_value = true;   /* else a `,` or the container's close */
	for (;;) {
		if (want_value) {
			if (i >= n)
				goto bad_eof;
			char c = s[i];
			if (c == '{' || c == '[') {
				if (depth == MAX_DEPTH)
					return false;   /* jansson's own limit is lower */
				stack[depth++] = c;
				i = skip_ws(s, n, i + 1);
				if (i < n && s[i] == (c == '{' ? '}' : ']')) {
					depth--, i++;
					want_value = false;
				} else if (c == '{') {
					goto key;
				}
				continue;
			}
			if (c == '"') {
				if (!scan_string(s, n, allow_nul, &i, start, end))
					return true;
			} else {
				size_t w = word_end(s, n, i);
				bool ok = number_end(s, n, i) == w;
				for (size_t k = 0; !ok && k < countof(lits); k++)
					ok = w - i == strlen(lits[k]) && memcmp(s + i, lits[k], w - i) == 0;
				if (!ok)
					goto bad_token;
				i = w;
			}
			want_value = false;
		}
		i = skip_ws(s, n, i);
		if (depth == 0) {
			if (i >= n)
				return false;
			goto bad_token;
		}
		if (i >= n)
			goto bad_eof;
		if (s[i] == (stack[depth - 1] == '{' ? '}' : ']')) {
			depth--, i++;
			continue;
		}
		if (s[i] != ',')
			goto bad_token;
		i = skip_ws(s, n, i + 1);
		want_value = true;
		if (stack[depth - 1] == '[')
			continue;
key:
		/* a key, `:` and the value */
		if (i >= n)
			goto bad_eof;
		if (s[i] != '"')
			goto bad_token;
		if (!scan_string(s, n, allow_nul, &i, start, end))
			return true;
		i = skip_ws(s, n, i);
		if (i >= n)
			goto bad_eof;
		if (s[i] != ':')
			goto bad_token;
		i = skip_ws(s, n, i + 1);
		want_value = true;
	}
bad_eof:
	*start = *end = n;
	return true;
bad_token:
	*start = i;
	*end = word_end(s, n, i);
	if (s[i] == '"') {   /* a whole string where none belongs */
		size_t k = i, a, b;
		*end = scan_string(s, n, true, &k, &a, &b) ? k : i + 1;
	}
	return true;
}

void
json_error_span(const char *s, size_t n, bool allow_nul, int position, const char *text, size_t *start, size_t *end)
{
	/* jansson's position is past the token it stopped at (or, for a byte
	 * that is not UTF-8, at that byte): a defect of ours beyond it is not
	 * the one jansson reports (it stopped first for what we do not judge:
	 * a duplicate key, its depth bound, a number out of range) */
	size_t pos = position > 0 && (size_t)position <= n ? (size_t)position : 0;
	if (json_syntax_error(s, n, allow_nul, start, end) && *start <= pos)
		return;
	/* jansson names the token it stopped after */
	const char *near = text ? strstr(text, " near '") : NULL;
	size_t tl = text ? strlen(text) : 0;
	if (near && tl > 0 && text[tl - 1] == '\'') {
		const char *tok = near + 7;
		size_t k = (size_t)(text + tl - 1 - tok);
		if (k > 0 && k <= pos && memcmp(s + pos - k, tok, k) == 0) {
			*start = pos - k, *end = pos;
			return;
		}
	}
	*start = pos > 0 ? pos - 1 : 0;
	*end = *start < n ? *start + 1 : n;
}
