/*
 * text.c — substring search (`string_contains`, `str_contains`,
 * `string_find`; LANGUAGE.md §5.1), the byte order of text and bytes
 * (comparisons, Map/Set keys; the Wasm lane's comparisons import it), the
 * source text of a char literal (the formatter, both lanes' contract
 * details), string_slice's bound checks, string_trim's span, the
 * byte-buffer v2 writes' selector, string_format's template scan and
 * file_read_text's path check (the
 * interpreter at run time, the C lane when it emits the pieces): the one
 * copy of each.  Freestanding (part of the wasm32 runtime): the checks of a
 * command's arguments, which print, are in args.c.
 */
#ifndef RT_API
#include "rt.h"
#include "domains.h"
#endif
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

RT_API int64_t
rt_find(const uint8_t *h, size_t hl, const uint8_t *n, size_t nl, size_t from, size_t *work)
{
	if (nl == 0)
		return (int64_t)from;
	size_t w = 0;
	int64_t at = -1;
	/* nl <= hl first: the loop bound cannot wrap */
	for (size_t i = from; nl <= hl && i <= hl - nl; i++) {
		w++;
		if (h[i] == n[0]) {
			w += nl;
			/* the mask is a no-op for live objects; without it gcc -O2 cannot
			 * bound the length and warns (-Wstringop-overread) */
			if (memcmp(h + i, n, nl & (size_t)PTRDIFF_MAX) == 0) {
				at = (int64_t)i;
				break;
			}
		}
	}
	if (work)
		*work += w;
	return at;
}

RT_API int
rt_bytes_cmp(const uint8_t *a, size_t la, const uint8_t *b, size_t lb)
{
	size_t n = la < lb ? la : lb;
	/* the mask: see rt_find; a zero length never reads the pointers */
	int c = n ? memcmp(a, b, n & (size_t)PTRDIFF_MAX) : 0;
	if (c != 0)
		return c < 0 ? -1 : 1;
	return la < lb ? -1 : la > lb ? 1 : 0;
}

RT_API size_t
rt_char_literal(char out[16], uint32_t cp)
{
	size_t k = 0;
	out[k++] = '\'';
	switch (cp) {
	case 0: out[k++] = '\\'; out[k++] = '0'; break;
	case '\t': out[k++] = '\\'; out[k++] = 't'; break;
	case '\n': out[k++] = '\\'; out[k++] = 'n'; break;
	case '\r': out[k++] = '\\'; out[k++] = 'r'; break;
	case '\'': out[k++] = '\\'; out[k++] = '\''; break;
	case '\\': out[k++] = '\\'; out[k++] = '\\'; break;
	default:
		if (cp >= 0x20 && cp <= 0x7E) {
			out[k++] = (char)cp;
		} else {   /* \u{hex}, lower case, no leading zeros */
			int shift = 28;
			while (shift > 0 && !(cp >> shift & 0xF))
				shift -= 4;
			out[k++] = '\\';
			out[k++] = 'u';
			out[k++] = '{';
			for (; shift >= 0; shift -= 4)
				out[k++] = "0123456789abcdef"[cp >> shift & 0xF];
			out[k++] = '}';
		}
		break;
	}
	out[k++] = '\'';
	out[k] = '\0';
	return k;
}

RT_API uint32_t
rt_slice_check(const uint8_t *s, size_t n, int64_t start, int64_t end)
{
	if (start < 0 || start > end || (uint64_t)end > n)
		return RT_TEXT_RANGE;
	if (((uint64_t)start < n && (s[start] & 0xC0) == 0x80) || ((uint64_t)end < n && (s[end] & 0xC0) == 0x80))
		return RT_TEXT_SPLIT;
	return 0;
}

static bool
rt_trim_space(uint8_t c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

RT_API size_t
rt_trim(const uint8_t *p, size_t n, size_t *start)
{
	size_t a = 0, e = n;
	while (a < e && rt_trim_space(p[a]))
		a++;
	while (e > a && rt_trim_space(p[e - 1]))
		e--;
	*start = a;
	return e - a;
}

RT_API void
rt_bytes_selector(uint64_t sel, bool wide48, uint64_t *width, uint64_t *from)
{
	if (!(sel >> 63)) {
		*width = 1;
		*from = 0;
	} else if (!wide48) {
		*width = 5;
		*from = sel & ~((uint64_t)1 << 63);
	} else {
		*width = (sel >> 62) & 1 ? 48 : 6;
		*from = sel & (((uint64_t)1 << 62) - 1);
	}
}

RT_API size_t
rt_format_scan(const uint8_t *t, size_t n, size_t *at, int *kind)
{
	for (size_t i = *at; i + 1 < n; i++) {
		if ((t[i] == '{' || t[i] == '}') && t[i + 1] == t[i]) {
			*kind = RT_FORMAT_BRACE;
			*at = i + 2;
			return i;
		}
		if (t[i] == '{' && t[i + 1] == '}') {
			*kind = RT_FORMAT_HOLE;
			*at = i + 2;
			return i;
		}
	}
	*kind = RT_FORMAT_END;
	*at = n;
	return n;
}

/* file_read_text's path check (fs.c has the confined open that follows it). */
#ifndef RT_FS_PATH_MAX
#define RT_FS_PATH_MAX 4096u
#endif

RT_API bool
rt_fs_path_valid(const uint8_t *p, size_t n)
{
	if (n == 0 || n > RT_FS_PATH_MAX)
		return false;
	size_t start = 0;
	for (size_t i = 0; i <= n; i++) {
		if (i < n && p[i] != '/') {
			if (p[i] == 0 || p[i] == '\\' || p[i] == ':')
				return false;
			continue;
		}
		size_t w = i - start;
		if (w == 0 || (w == 1 && p[start] == '.') || (w == 2 && p[start] == '.' && p[start + 1] == '.'))
			return false;
		start = i + 1;
	}
	return true;
}

/* Appends s[0..n) to out[0..cap) at *at (the length counted past cap too). */
static void
root_put(char *out, size_t cap, size_t *at, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++, (*at)++)
		if (*at + 1 < cap)
			out[*at] = s[i];
}

static void
root_puts(char *out, size_t cap, size_t *at, const char *s)
{
	size_t n = 0;
	while (s[n])   /* no strlen in the wasm32 runtime (src/rt/wasm32) */
		n++;
	root_put(out, cap, at, s, n);
}

/* `\xNN` (two digits) or `\u{N…}` (no leading zeros) of c. */
static void
root_escape(char *out, size_t cap, size_t *at, uint32_t c, bool braces)
{
	static const char hex[] = "0123456789abcdef";
	char t[16];
	size_t k = 0;
	t[k++] = '\\';
	t[k++] = braces ? 'u' : 'x';
	if (braces)
		t[k++] = '{';
	int shift = 28;
	while (shift > (braces ? 0 : 4) && (c >> shift) == 0)
		shift -= 4;
	for (; shift >= 0; shift -= 4)
		t[k++] = hex[(c >> shift) & 15];
	if (braces)
		t[k++] = '}';
	root_put(out, cap, at, t, k);
}

/* root as the CLI echoes an operand (src/support/diag.c diag_put_visible):
 * a control byte or a byte that is not UTF-8 as \xNN, a C1 control as
 * \u{NN}, so the line cannot be forged or reach the terminal. */
static void
root_visible(char *out, size_t cap, size_t *at, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n;) {
		uint32_t cp = p[i];
		int k = 1;
		if (p[i] >= 0x80 && (k = rt_utf8_decode(p + i, n - i, &cp)) == 0) {
			root_escape(out, cap, at, p[i], false);
			i++;
			continue;
		}
		if (cp < 0x20 || cp == 0x7F)
			root_escape(out, cap, at, cp, false);
		else if (cp >= 0x80 && cp < 0xA0)
			root_escape(out, cap, at, cp, true);
		else
			root_put(out, cap, at, (const char *)p + i, (size_t)k);
		i += (size_t)k;
	}
}

/* why: 1 DIR does not exist, 2 it is a file, else the rule's wording (no
 * names: the native runtime embeds this file without rt.h). */
RT_API size_t
rt_fs_root_line(const uint8_t *root, size_t n, uint32_t why, char *out, size_t cap)
{
	size_t at = 0;
	root_puts(out, cap, &at, "`--allow-write=");
	root_visible(out, cap, &at, root, n);
	root_puts(out, cap, &at, "` must name a directory below the working directory: ");
	if (why == 1 || why == 2) {
		root_puts(out, cap, &at, "`");
		root_visible(out, cap, &at, root, n);
	}
	if (why == 1) {
		root_puts(out, cap, &at, "` does not exist; create it first (`mkdir -p ");
		root_visible(out, cap, &at, root, n);
		root_puts(out, cap, &at, "`)");
	} else if (why == 2) {
		root_puts(out, cap, &at, "` is a file");
	} else {
		root_puts(out, cap, &at, "a relative path without `.`, `..` or symbolic links");
	}
	if (cap)
		out[at < cap ? at : cap - 1] = '\0';
	return at;
}

RT_API uint32_t
rt_bytes_write(uint8_t *b, size_t n, uint64_t at, uint64_t width, const uint8_t *bytes, const uint8_t *src, size_t sn,
	       uint64_t from)
{
	if (at > n || n - at < width)
		return RT_BYTEBUF_INDEX;
	for (uint64_t k = 0; k < width; k++)
		b[at + k] = bytes ? bytes[k] : from + k < sn ? src[from + k] : 0;
	return 0;
}
