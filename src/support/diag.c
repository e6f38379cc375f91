/*
 * diag.c — diagnostic sink and rendering.
 *
 * Human form (stderr):
 *   error[SPX-P104]: <message> at <path>:<line>:<col>
 *     help: <help>
 *      |
 *    3 | <source line>
 *      |     ^^^
 * The first two lines are the reference's; the excerpt is ours.
 * JSON form (one line): the reference keys in order, then "fixes" when any.
 */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json.h"
#include "utf8.h"

const DiagInfo diag_info[DIAG__COUNT] = {
#define DIAG(id, sev, title, explain, help) { "SPX-" #id, SEV_##sev, title, explain, help },
#include "diag_codes.def"
#undef DIAG
};

void
diag_init(DiagSink *s, const char *path, const char *src, size_t len)
{
	memset(s, 0, sizeof *s);
	s->path = path;
	s->src = src;
	s->src_len = len;
}

void
diag_free(DiagSink *s)
{
	for (int i = 0; i < s->items.len; i++) {
		Diag *d = &s->items.items[i];
		free(d->message);
		free(d->help);
		free(d->note);
		for (int j = 0; j < d->fixes.len; j++)
			free(d->fixes.items[j].text);
		VEC_FREE(d->fixes);
	}
	VEC_FREE(s->items);
	free(s->pos);
	s->pos = NULL;
	s->pos_src = NULL;
	s->npos = 0;
}

/* Advances (line, col) over src[from, to): a line break starts a line;
 * every other byte that begins a UTF-8 sequence is a column. */
static void
advance_pos(const char *src, size_t from, size_t to, uint32_t *line, uint32_t *col)
{
	const unsigned char *p = (const unsigned char *)src;
	uint32_t ln = *line, cl = *col;
	for (size_t i = from; i < to; i++) {
		if (p[i] == '\n') {
			ln++;
			cl = 1;
		} else {
			cl += (p[i] & 0xC0) != 0x80;
		}
	}
	*line = ln;
	*col = cl;
}

/* The 1-based line and column of byte offset at in s->src: from the
 * nearest sample below it, so each diagnostic scans at most
 * DIAG_POS_STEP bytes (a 10 MB single line stays cheap). */
static void
locate(DiagSink *s, uint32_t at, uint32_t *line, uint32_t *col)
{
	*line = 1;
	*col = 1;
	if (!s->src)
		return;
	size_t pos = at < s->src_len ? at : s->src_len;
	if (s->pos_src != s->src || s->npos != s->src_len / DIAG_POS_STEP + 1) {
		free(s->pos);
		s->npos = s->src_len / DIAG_POS_STEP + 1;
		s->pos = spx_xmalloc(sizeof *s->pos * s->npos);
		uint32_t ln = 1, cl = 1;
		for (size_t k = 0; k < s->npos; k++) {
			if (k)
				advance_pos(s->src, (k - 1) * DIAG_POS_STEP, k * DIAG_POS_STEP, &ln, &cl);
			s->pos[k].line = ln;
			s->pos[k].col = cl;
		}
		s->pos_src = s->src;
	}
	size_t k = pos / DIAG_POS_STEP;
	*line = s->pos[k].line;
	*col = s->pos[k].col;
	advance_pos(s->src, k * DIAG_POS_STEP, pos, line, col);
}

void
diag_locate(DiagSink *s, uint32_t at, uint32_t *line, uint32_t *col)
{
	locate(s, at, line, col);
}

Diag *
diag_report(DiagSink *s, DiagCode code, const Span *span, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	Diag *d = diag_vreport(s, code, span, fmt, ap);
	va_end(ap);
	return d;
}

Diag *
diag_vreport(DiagSink *s, DiagCode code, const Span *span, const char *fmt, va_list ap)
{
	if (diag_info[code].sev == SEV_WARNING)
		s->warnings++;
	else
		s->errors++;
	/* Warnings stop at the limit, errors at the limit of errors kept, so
	 * an error reported after a flood of warnings (S112 on every case of
	 * a generated variant, say) is still shown (qa36). */
	int limit = s->limit ? s->limit : 1000;
	bool warn = diag_info[code].sev == SEV_WARNING;
	if (warn ? s->items.len >= limit : s->kept_errors >= limit) {
		s->truncated = true;
		return NULL;
	}
	Diag d;
	memset(&d, 0, sizeof d);
	d.code = code;
	d.message = spx_vformat(fmt, ap);
	if (span) {
		d.has_span = true;
		d.span = *span;
		locate(s, span->start, &d.line, &d.col);
	}
	VEC_PUSH(s->items, d);
	if (!warn)
		s->kept_errors++;
	return &s->items.items[s->items.len - 1];
}

void
diag_remove(DiagSink *s, int i)
{
	Diag *d = &s->items.items[i];
	if (diag_info[d->code].sev == SEV_WARNING) {
		s->warnings--;
	} else {
		s->errors--;
		s->kept_errors--;
	}
	free(d->message);
	free(d->help);
	free(d->note);
	for (int j = 0; j < d->fixes.len; j++)
		free(d->fixes.items[j].text);
	VEC_FREE(d->fixes);
	memmove(d, d + 1, sizeof(Diag) * (size_t)(s->items.len - i - 1));
	s->items.len--;
}

/* d->field = the formatted text, the old one freed after formatting (an
 * argument may quote it); no diagnostic (NULL): nothing. */
#define SET_TEXT(d, field, fmt) do { \
		if (!(d)) \
			return; \
		va_list ap; \
		va_start(ap, fmt); \
		char *text_ = spx_vformat(fmt, ap); \
		va_end(ap); \
		free((d)->field); \
		(d)->field = text_; \
	} while (0)

void
diag_set_help(Diag *d, const char *fmt, ...)
{
	SET_TEXT(d, help, fmt);
}

void
diag_set_note(Diag *d, const char *fmt, ...)
{
	SET_TEXT(d, note, fmt);
}

void
diag_add_fix(Diag *d, uint32_t start, uint32_t end, const char *text)
{
	if (!d)
		return;
	DiagFix f = { start, end, spx_xstrdup(text) };
	VEC_PUSH(d->fixes, f);
}

void
diag_drop_fixes(Diag *d)
{
	if (!d)
		return;
	for (int j = 0; j < d->fixes.len; j++)
		free(d->fixes.items[j].text);
	d->fixes.len = 0;
}

int
diag_lookup(const char *code)
{
	if (strncmp(code, "SPX-", 4) != 0 && strncmp(code, "spx-", 4) != 0) {
		char full[64];
		snprintf(full, sizeof full, "SPX-%s", code);
		return diag_lookup(full);
	}
	for (int i = 0; i < DIAG__COUNT; i++)
		if (strcmp(diag_info[i].code + 4, code + 4) == 0)
			return i;
	return -1;
}

const char *
diag_help_text(const Diag *d)
{
	return d->help ? d->help : diag_info[d->code].help;
}

/* Paths are printed with control characters escaped (LANGUAGE.md §6). */
static void
put_path(Buf *out, const char *path)
{
	diag_put_visible(out, path, strlen(path));
}

void
diag_put_visible(Buf *out, const char *text, size_t n)
{
	const unsigned char *p = (const unsigned char *)text;
	for (size_t i = 0; i < n;) {
		uint32_t cp = p[i];
		int k = 1;
		if (p[i] >= 0x80 && (k = utf8_decode(p + i, n - i, &cp)) == 0) {
			buf_printf(out, "\\x%02x", p[i]);   /* not UTF-8 */
			i++;
			continue;
		}
		if (cp < 0x20 || cp == 0x7F)
			buf_printf(out, "\\x%02x", (unsigned)cp);
		else if ((cp >= 0x80 && cp < 0xA0) || diag_invisible_format(cp))
			buf_printf(out, "\\u{%x}", (unsigned)cp);   /* C1 controls, bidi and line separators */
		else
			buf_put(out, text + i, (size_t)k);
		i += (size_t)k;
	}
}

static const char *
sev_word(DiagSeverity sev)
{
	return sev == SEV_WARNING ? "warning" : "error";
}

/* Appends the source line of the span with a caret line under it. */
static void
put_excerpt(Buf *out, const DiagSink *s, const Diag *d, bool color)
{
	if (!s->src || !d->has_span || d->span.start > s->src_len)
		return;
	size_t ls = d->span.start;
	while (ls > 0 && s->src[ls - 1] != '\n')
		ls--;
	size_t le = d->span.start;
	while (le < s->src_len && s->src[le] != '\n')
		le++;
	if (le > ls && s->src[le - 1] == '\r')
		le--;
	/* Keep excerpts short: a 10 MB line shows at most 160 bytes around the span. */
	size_t from = ls, to = le;
	bool cut_left = false, cut_right = false;
	if (d->span.start - from > 80) {
		from = d->span.start - 60;
		while (from < d->span.start && ((unsigned char)s->src[from] & 0xC0) == 0x80)
			from++;
		cut_left = true;
	}
	if (to - from > 160) {
		to = from + 160;
		while (to > from && ((unsigned char)s->src[to] & 0xC0) == 0x80)
			to--;
		cut_right = true;
	}
	char num[16];
	int w = snprintf(num, sizeof num, "%u", d->line);
	const char *blue = color ? "\033[1;34m" : "";
	const char *red = color ? "\033[1;31m" : "";
	const char *reset = color ? "\033[0m" : "";
	buf_printf(out, "%*s%s |%s\n", w, "", blue, reset);
	buf_printf(out, "%s%s |%s ", blue, num, reset);
	if (cut_left)
		buf_puts(out, "...");
	/* Render the line with tabs and control bytes made visible and single-width. */
	uint32_t caret_col = cut_left ? 3 : 0, caret_len = 0;
	for (size_t i = from; i < to;) {
		unsigned char c = (unsigned char)s->src[i];
		size_t n = 1;
		uint32_t cp = c;
		if (c >= 0x80) {
			int k = utf8_decode((const unsigned char *)s->src + i, to - i, &cp);
			n = k ? (size_t)k : 1;
			if (!k)
				cp = 0xFFFD;
		}
		if (diag_invisible_format(cp)) {   /* shown as \u{202e}: the caret spans the escape */
			char esc[16];
			int ew = snprintf(esc, sizeof esc, "\\u{%x}", (unsigned)cp);
			if (i < d->span.start)
				caret_col += (uint32_t)ew;
			else if (i < d->span.end)
				caret_len += (uint32_t)ew;
			buf_puts(out, esc);
			i += n;
			continue;
		}
		if (i < d->span.start)
			caret_col++;
		else if (i < d->span.end)
			caret_len++;
		if (cp == '\t' || cp < 0x20 || cp == 0x7F)
			buf_putc(out, ' ');
		else if (cp == 0xFFFD && c >= 0x80)
			buf_puts(out, "\xEF\xBF\xBD");
		else
			buf_put(out, s->src + i, n);
		i += n;
	}
	if (cut_right)
		buf_puts(out, "...");
	buf_putc(out, '\n');
	if (caret_len == 0)
		caret_len = 1;
	buf_printf(out, "%*s%s |%s ", w, "", blue, reset);
	buf_indent(out, (int)caret_col);
	buf_puts(out, red);
	for (uint32_t i = 0; i < caret_len; i++)
		buf_putc(out, '^');
	buf_puts(out, reset);
	buf_putc(out, '\n');
}

void
diag_render_human(Buf *out, const DiagSink *s, const Diag *d, bool color)
{
	const DiagInfo *info = &diag_info[d->code];
	if (color)
		buf_printf(out, "\033[1;%dm%s[%s]\033[0m", info->sev == SEV_WARNING ? 33 : 31,
		    sev_word(info->sev), info->code);
	else
		buf_printf(out, "%s[%s]", sev_word(info->sev), info->code);
	/* source text a message quotes (a stable id, a file name) may hold control
	 * bytes: made visible, like the path and the excerpt, never sent to the
	 * terminal (the JSON form escapes them) */
	buf_puts(out, ": ");
	diag_put_visible(out, d->message, strlen(d->message));
	const char *path = diag_shown_path(s);
	if (path && d->has_span) {
		buf_puts(out, " at ");
		put_path(out, path);
		buf_printf(out, ":%u:%u", d->line, d->col);
	} else if (path) {
		buf_puts(out, " at ");
		put_path(out, path);
	} else if (d->has_span) {
		buf_printf(out, " at %u:%u", d->line, d->col);
	}
	buf_putc(out, '\n');
	const char *help = diag_help_text(d);
	if (help && *help) {
		buf_puts(out, "  help: ");
		diag_put_visible(out, help, strlen(help));
		buf_putc(out, '\n');
	}
	put_excerpt(out, s, d, color);
	if (d->note) {
		buf_puts(out, "  note: ");
		diag_put_visible(out, d->note, strlen(d->note));
		buf_putc(out, '\n');
	}
}

void
diag_render_json(Buf *out, const DiagSink *s, const Diag *d)
{
	const DiagInfo *info = &diag_info[d->code];
	buf_puts(out, "{\"code\":");
	json_cstr(out, info->code);
	buf_puts(out, ",\"severity\":");
	json_cstr(out, sev_word(info->sev));
	buf_puts(out, ",\"message\":");
	json_cstr(out, d->message);
	buf_puts(out, ",\"path\":");
	json_cstr(out, diag_shown_path(s));
	buf_puts(out, ",\"location\":");
	if (d->has_span)
		buf_printf(out, "{\"line\":%u,\"column\":%u,\"start\":%u,\"end\":%u}",
		    d->line, d->col, d->span.start, d->span.end);
	else
		buf_puts(out, "null");
	buf_puts(out, ",\"help\":");
	const char *help = diag_help_text(d);
	json_cstr(out, help && *help ? help : NULL);
	if (d->fixes.len) {
		buf_puts(out, ",\"fixes\":[");
		for (int i = 0; i < d->fixes.len; i++) {
			const DiagFix *f = &d->fixes.items[i];
			buf_printf(out, "%s{\"start\":%u,\"end\":%u,\"replacement\":", i ? "," : "",
			    f->start, f->end);
			json_cstr(out, f->text);
			buf_putc(out, '}');
		}
		buf_putc(out, ']');
	}
	if (d->note) {
		buf_puts(out, ",\"note\":");
		json_cstr(out, d->note);
	}
	buf_puts(out, "}\n");
}

static bool
want_color(void)
{
	const char *nc = getenv("NO_COLOR");
	if (nc && *nc)
		return false;
	return isatty(2);
}

void
diag_emit_all(const DiagSink *s, bool json)
{
	diag_emit_from(s, 0, json);
}

void
diag_emit_from(const DiagSink *s, int from, bool json)
{
	Buf out = {0};
	bool color = !json && want_color();
	for (int i = from; i < s->items.len; i++) {
		if (json)
			diag_render_json(&out, s, &s->items.items[i]);
		else
			diag_render_human(&out, s, &s->items.items[i], color);
	}
	/* the note once per emission that shows something (a second emission
	 * of the same sink with nothing new, cli_wasm_run's, repeats nothing) */
	if (s->truncated && !json && (from == 0 || from < s->items.len))
		buf_printf(&out, "note: further diagnostics were not shown (%d errors, %d warnings in all)\n",
		    s->errors, s->warnings);
	if (out.len)
		fwrite(out.data, 1, out.len, json ? stdout : stderr);
	buf_free(&out);
}
