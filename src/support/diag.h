/*
 * diag.h — diagnostics: the code registry (diag_codes.def) and a sink.
 *
 * Every stage reports into a DiagSink and recovers; nothing exits.  A
 * diagnostic has a permanent code, a message, an optional span, a help line
 * (the registry's default unless the reporter gives a specific one) and
 * optional machine-applicable fixes (byte range + replacement).
 */
#ifndef SPX_DIAG_H
#define SPX_DIAG_H

#include "buf.h"

typedef enum DiagSeverity {
	SEV_ERROR,
	SEV_WARNING,
	SEV_RETIRED,  /* a reference code we never emit (lifted restriction) */
} DiagSeverity;

typedef enum DiagCode {
#define DIAG(id, sev, title, explain, help) DIAG_##id,
#include "diag_codes.def"
#undef DIAG
	DIAG__COUNT
} DiagCode;

typedef struct DiagInfo {
	const char *code;     /* "SPX-P104" */
	DiagSeverity sev;
	const char *title;    /* one line */
	const char *explain;  /* a paragraph */
	const char *help;     /* default fix help */
} DiagInfo;

extern const DiagInfo diag_info[DIAG__COUNT];

typedef struct DiagFix {
	uint32_t start, end;  /* byte range of the source to replace */
	char *text;           /* replacement, owned by the sink */
} DiagFix;

typedef struct Diag {
	DiagCode code;
	char *message;        /* owned */
	char *help;           /* owned; NULL = registry default */
	char *note;           /* owned; NULL = none: a line of ours after the
	                       * reference's help (human: after the excerpt;
	                       * JSON: a last key) */
	bool has_span;
	Span span;
	uint32_t line, col;   /* of span.start: 1-based, column in Unicode scalars */
	VEC(DiagFix) fixes;
} Diag;

/* Line and column of a source offset, sampled every DIAG_POS_STEP bytes
 * (built at the first diagnostic with a span). */
#define DIAG_POS_STEP 4096u
typedef struct DiagPos {
	uint32_t line, col;
} DiagPos;

typedef struct DiagSink {
	const char *path;     /* display path, may be NULL */
	const char *shown;    /* when set, printed instead of path (a project's
	                       * source as its manifest spells it; path stays
	                       * the one the file opens by) */
	const char *src;      /* source text for excerpts, may be NULL */
	size_t src_len;
	VEC(Diag) items;      /* in report order */
	int errors;
	int warnings;
	int limit;            /* stop recording warnings once this many items
	                       * are held, errors once this many errors are
	                       * (0 = 1000) */
	int kept_errors;      /* the errors among items */
	bool truncated;       /* more were reported than recorded */
	DiagPos *pos;         /* positions of src every DIAG_POS_STEP bytes (owned) */
	const char *pos_src;  /* the text pos was built for */
	size_t npos;
} DiagSink;

void diag_init(DiagSink *s, const char *path, const char *src, size_t len);
/* The path a rendering prints: s->shown when set, else s->path. */
static inline const char *
diag_shown_path(const DiagSink *s)
{
	return s->shown ? s->shown : s->path;
}
void diag_free(DiagSink *s);

/* Reports a diagnostic; span may be NULL (else it indexes s->src, which
 * gives its line and column).  Returns NULL past the limit. */
Diag *diag_report(DiagSink *s, DiagCode code, const Span *span, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* diag_report with its arguments in ap (a reporter's own varargs): the
 * message is formatted whole, once. */
Diag *diag_vreport(DiagSink *s, DiagCode code, const Span *span, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));
/* The 1-based line and column (Unicode scalars) of byte offset at in
 * s->src, as a diagnostic there would print them (1:1 without a source):
 * a message naming a second place in another file. */
void diag_locate(DiagSink *s, uint32_t at, uint32_t *line, uint32_t *col);
void diag_set_help(Diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void diag_set_note(Diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void diag_add_fix(Diag *d, uint32_t start, uint32_t end, const char *text);
/* Drops the fixes d carries so far (a better reading of the error replaces them). */
void diag_drop_fixes(Diag *d);

/* Removes diagnostic i (adjusting the counters). */
void diag_remove(DiagSink *s, int i);

/* Looks a code up by its text ("SPX-P104" or "P104"); -1 when unknown. */
int diag_lookup(const char *code);
const char *diag_help_text(const Diag *d);

/* Rendering (TOOLCHAIN.md §3.1, LANGUAGE.md §6 and §0.2). */
void diag_render_human(Buf *out, const DiagSink *s, const Diag *d, bool color);
/* Appends text with control bytes (C0, DEL, C1) and bytes that are not UTF-8
 * shown as `\xNN` / `\u{NN}`, and the invisible format controls of
 * diag_invisible_format as `\u{202e}`: source text in a line-oriented or
 * terminal rendering (messages, paths, ids in `query` lines, `doc`). */
void diag_put_visible(Buf *out, const char *text, size_t n);
/* True for a bidi or line-separator format control that would reorder or break
 * a rendered line unseen: U+061C, U+200E/F, U+2028–U+202E, U+2066–U+2069. */
/* Inline: the formatter asks it of every string literal's every character
 * (check renders the canonical text for the revision); below U+061C it is
 * one compare. */
static inline bool
diag_invisible_format(uint32_t cp)
{
	return cp >= 0x061C && (cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x2028 && cp <= 0x202E) ||
	    (cp >= 0x2066 && cp <= 0x2069));
}
void diag_render_json(Buf *out, const DiagSink *s, const Diag *d);

/* Writes every diagnostic of s: human to stderr or JSON lines to stdout. */
void diag_emit_all(const DiagSink *s, bool json);
/* The same for the items from index `from` on (a command that printed the
 * earlier ones before running a program). */
void diag_emit_from(const DiagSink *s, int from, bool json);

#endif
