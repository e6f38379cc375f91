/*
 * spatch.c — the `.spatch` text formats (TOOLCHAIN.md §1.4; patch.h).
 *
 * v1 and v2: one instruction a line, words separated by blanks; blank
 * lines and lines starting with `#` (after leading blanks) are ignored.
 * The first instruction `schema semaprax.semantic-patch.v2` selects v2
 * (member, case and call-type-argument operations); a `schema` line
 * anywhere else, or an unknown schema, is G101.  Exactly one `base`
 * (G102 when missing, G106 when repeated), selectors at most once (G106).
 * v3 is canonical text: exactly the three LF-terminated lines with single
 * spaces, no comments (G101 otherwise).
 *
 * Every diagnostic points into the patch text (line and column).
 */
#include "patch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SCHEMA_V2 "semaprax.semantic-patch.v2"
#define SCHEMA_V3 "semaprax.semantic-patch.v3"

typedef struct Line {
	const char *text;
	uint32_t start, end;     /* the line without its terminator */
	uint32_t lineno;
	PatchWord words[16];
	int nwords;
	bool overflow;           /* more than 16 words */
} Line;

static Span
span_at(uint32_t start, uint32_t end)
{
	Span s = { start, end };
	return s;
}

static void
split(Line *l)
{
	uint32_t i = l->start;
	l->nwords = 0;
	while (i < l->end) {
		while (i < l->end && (l->text[i] == ' ' || l->text[i] == '\t' || l->text[i] == '\r'))
			i++;
		if (i >= l->end)
			break;
		uint32_t b = i;
		while (i < l->end && l->text[i] != ' ' && l->text[i] != '\t' && l->text[i] != '\r')
			i++;
		if (l->nwords == 16) {
			l->overflow = true;
			continue;
		}
		PatchWord *w = &l->words[l->nwords++];
		w->s = spx_xstrndup(l->text + b, i - b);
		w->span = span_at(b, i);
		w->lineno = l->lineno;
	}
}

static void
free_words(Line *l)
{
	for (int i = 0; i < l->nwords; i++)
		free(l->words[i].s);
	l->nwords = 0;
}

static bool
is(const Line *l, int i, const char *s)
{
	return i < l->nwords && strcmp(l->words[i].s, s) == 0;
}

/* Moves word i of l into *w (the line no longer owns it). */
static void
take(Line *l, int i, PatchWord *w)
{
	*w = l->words[i];
	l->words[i].s = NULL;
}

static Span
line_span(const Line *l)
{
	return span_at(l->start, l->end);
}

static void
bad_line(DiagSink *d, const Line *l, const char *why)
{
	Span s = line_span(l);
	Diag *g = diag_report(d, DIAG_G101, &s, "invalid semantic patch instruction on line %u: %s", l->lineno, why);
	(void)g;
}

static PatchOp *
add_op(SPatch *p, PatchOpKind k, const Line *l)
{
	p->ops = spx_xrealloc(p->ops, sizeof *p->ops * (size_t)(p->nops + 1));
	PatchOp *o = &p->ops[p->nops++];
	memset(o, 0, sizeof *o);
	o->kind = k;
	o->line = line_span(l);
	o->lineno = l->lineno;
	return o;
}

/* A selector may occur once (v2; and in v1, where the reference keeps the
 * last, we refuse the repetition too: docs/DECISIONS.md). */
static bool
duplicate(const SPatch *p, const PatchOp *o, DiagSink *d)
{
	for (int i = 0; i < p->nops - 1; i++) {
		const PatchOp *q = &p->ops[i];
		if (q->kind != o->kind)
			continue;
		bool same = o->kind == POP_NO_NEW_EFFECTS;
		if (o->kind == POP_RENAME)
			same = strcmp(q->w[0].s, o->w[0].s) == 0;
		else if (o->kind == POP_RENAME_MEMBER || o->kind == POP_RENAME_CASE)
			same = strcmp(q->w[0].s, o->w[0].s) == 0 && strcmp(q->w[1].s, o->w[1].s) == 0;
		else if (o->kind == POP_REPLACE_TARG)
			same = strcmp(q->w[0].s, o->w[0].s) == 0 && strcmp(q->w[3].s, o->w[3].s) == 0;
		if (same) {
			Diag *g = diag_report(d, DIAG_G106, &o->line, "duplicate semantic patch selector (first on line %u)", q->lineno);
			diag_set_help(g, "keep one operation per selector");
			return true;
		}
	}
	return false;
}

static void
parse_instruction(SPatch *p, Line *l, DiagSink *d)
{
	PatchOp *o = NULL;
	if (l->overflow) {
		bad_line(d, l, "too many words");
		return;
	}
	if (is(l, 0, "base") && l->nwords == 2) {
		if (p->base.s) {
			Diag *g = diag_report(d, DIAG_G106, &l->words[0].span, "duplicate `base` instruction (first on line %u)", p->base.lineno);
			diag_set_help(g, "a patch names one base revision");
			return;
		}
		take(l, 1, &p->base);
		return;
	}
	if (is(l, 0, "rename") && l->nwords == 4 && is(l, 2, "to")) {
		o = add_op(p, POP_RENAME, l);
		take(l, 1, &o->w[0]);
		take(l, 3, &o->to);
	} else if (is(l, 0, "rename-member") && l->nwords == 7 && is(l, 1, "owner") && is(l, 3, "member") && is(l, 5, "to")) {
		if (p->version < 2) {
			bad_line(d, l, "`rename-member` needs `schema " SCHEMA_V2 "` as the first instruction");
			return;
		}
		o = add_op(p, POP_RENAME_MEMBER, l);
		take(l, 2, &o->w[0]);
		take(l, 4, &o->w[1]);
		take(l, 6, &o->to);
	} else if (is(l, 0, "rename-case") && l->nwords == 7 && is(l, 1, "owner") && is(l, 3, "case") && is(l, 5, "to")) {
		if (p->version < 2) {
			bad_line(d, l, "`rename-case` needs `schema " SCHEMA_V2 "` as the first instruction");
			return;
		}
		o = add_op(p, POP_RENAME_CASE, l);
		take(l, 2, &o->w[0]);
		take(l, 4, &o->w[1]);
		take(l, 6, &o->to);
	} else if (is(l, 0, "replace-call-type-argument") && l->nwords == 13 && is(l, 1, "expression") &&
	    is(l, 3, "template") && is(l, 5, "old-instance") && is(l, 7, "index") && is(l, 9, "from") && is(l, 11, "to")) {
		if (p->version < 2) {
			bad_line(d, l, "`replace-call-type-argument` needs `schema " SCHEMA_V2 "` as the first instruction");
			return;
		}
		/* index: a canonical u32; from/to: i64 or bool */
		const char *ix = l->words[8].s;
		bool canon = ix[0] >= '0' && ix[0] <= '9' && (ix[0] != '0' || ix[1] == '\0') && strlen(ix) <= 10;
		for (const char *c = ix; canon && *c; c++)
			canon = *c >= '0' && *c <= '9';
		if (canon && strtoull(ix, NULL, 10) > 0xFFFFFFFFull)
			canon = false;
		bool types = (is(l, 10, "i64") || is(l, 10, "bool")) && (is(l, 12, "i64") || is(l, 12, "bool"));
		if (!canon || !types) {
			bad_line(d, l, !canon ? "the index is not a canonical u32" : "type arguments are `i64` or `bool`");
			return;
		}
		o = add_op(p, POP_REPLACE_TARG, l);
		take(l, 2, &o->w[0]);
		take(l, 4, &o->w[1]);
		take(l, 6, &o->w[2]);
		take(l, 8, &o->w[3]);
		take(l, 10, &o->w[4]);
		take(l, 12, &o->to);
	} else if (is(l, 0, "require") && is(l, 1, "no-new-effects") && l->nwords == 2) {
		o = add_op(p, POP_NO_NEW_EFFECTS, l);
		p->no_new_effects = true;
	} else if (is(l, 0, "schema")) {
		bad_line(d, l, "`schema` must be the first instruction");
		return;
	} else if (is(l, 0, "assign-function-id")) {
		bad_line(d, l, "`assign-function-id` is a `schema " SCHEMA_V3 "` patch of exactly three lines");
		return;
	} else {
		bad_line(d, l, "expected `base`, `rename`, `rename-member`, `rename-case`, `replace-call-type-argument` or `require no-new-effects`");
		return;
	}
	duplicate(p, o, d);
}

/* v3: the canonical three lines, checked byte by byte. */
static bool
parse_v3(SPatch *p, const char *text, size_t len, DiagSink *d)
{
	Line lines[3];
	uint32_t at = 0;
	int n = 0;
	bool ok = true;
	while (at < len) {
		const char *nl = memchr(text + at, '\n', len - at);
		uint32_t end = nl ? (uint32_t)(nl - text) : (uint32_t)len;
		Line l = { text, at, end, (uint32_t)n + 1, {{0}}, 0, false };
		Span s = line_span(&l);
		if (n == 3) {
			diag_report(d, DIAG_G101, &s, "a " SCHEMA_V3 " patch has exactly three lines");
			ok = false;
			break;
		}
		if (!nl) {
			diag_report(d, DIAG_G101, &s, "line %d of a " SCHEMA_V3 " patch must end with a line feed", n + 1);
			ok = false;
			break;
		}
		bool canonical = end > at && text[at] != ' ' && text[end - 1] != ' ';
		for (uint32_t i = at; i < end; i++)
			if (text[i] == '\r' || text[i] == '\t' || (text[i] == ' ' && text[i + 1] == ' '))
				canonical = false;
		if (!canonical) {
			diag_report(d, DIAG_G101, &s, "line %d of a " SCHEMA_V3 " patch is not canonical (single spaces, no blanks at the ends, LF only)", n + 1);
			ok = false;
			break;
		}
		lines[n] = l;
		split(&lines[n]);
		n++;
		at = end + 1;
	}
	if (ok && n < 3) {
		diag_report(d, DIAG_G101, NULL, "a " SCHEMA_V3 " patch has exactly three lines (it has %d)", n);
		ok = false;
	}
	if (ok && !(lines[1].nwords == 2 && is(&lines[1], 0, "base"))) {
		bad_line(d, &lines[1], "expected `base <revision>`");
		ok = false;
	}
	Line *op = &lines[2];
	if (ok && !(op->nwords == 11 && is(op, 0, "assign-function-id") && is(op, 1, "repair") && is(op, 3, "diagnostic") &&
	    is(op, 5, "target") && is(op, 7, "name") && is(op, 9, "to") && !op->overflow)) {
		bad_line(d, op, "expected `assign-function-id repair <repair-id> diagnostic SPX-S103 target <automatic-id> name <name> to <persistent-id>`");
		ok = false;
	}
	if (ok && !is(op, 4, "SPX-S103")) {
		Diag *g = diag_report(d, DIAG_G101, &op->words[4].span, "`assign-function-id` repairs SPX-S103 only");
		diag_set_help(g, "write `diagnostic SPX-S103`");
		ok = false;
	}
	if (ok) {
		take(&lines[1], 1, &p->base);
		PatchOp *o = add_op(p, POP_ASSIGN_ID, op);
		take(op, 2, &o->w[0]);
		take(op, 4, &o->w[1]);
		take(op, 6, &o->w[2]);
		take(op, 8, &o->w[3]);
		take(op, 10, &o->to);
	}
	for (int i = 0; i < n; i++)
		free_words(&lines[i]);
	return ok;
}

bool
patch_parse(SPatch *p, const char *text, size_t len, DiagSink *d)
{
	memset(p, 0, sizeof *p);
	p->version = 1;
	int errors = d->errors;
	if (len >= 34 && memcmp(text, "schema " SCHEMA_V3 "\n", 34) == 0) {
		p->version = 3;
		return parse_v3(p, text, len, d);
	}
	uint32_t at = 0, lineno = 0;
	bool first = true;
	while (at < len) {
		const char *nl = memchr(text + at, '\n', len - at);
		uint32_t end = nl ? (uint32_t)(nl - text) : (uint32_t)len;
		Line l = { text, at, end, ++lineno, {{0}}, 0, false };
		split(&l);
		at = end + 1;
		if (l.nwords == 0 || l.words[0].s[0] == '#') {
			free_words(&l);
			continue;
		}
		if (first && is(&l, 0, "schema")) {
			first = false;
			if (l.nwords == 2 && is(&l, 1, SCHEMA_V2)) {
				p->version = 2;
			} else if (l.nwords == 2 && is(&l, 1, SCHEMA_V3)) {
				Span s = line_span(&l);
				Diag *g = diag_report(d, DIAG_G101, &s, "a " SCHEMA_V3 " patch is exactly three canonical lines, with no comment before them");
				diag_set_help(g, "use the patch `semaprax repair` prints, unchanged");
			} else {
				Span s = line_span(&l);
				Diag *g = diag_report(d, DIAG_G101, &s, "unknown semantic patch schema: %.*s", (int)(end - l.start), text + l.start);
				diag_set_help(g, "write `schema " SCHEMA_V2 "`, or no schema line for v1");
			}
			free_words(&l);
			continue;
		}
		first = false;
		parse_instruction(p, &l, d);
		free_words(&l);
	}
	if (d->errors == errors && !p->base.s) {
		Diag *g = diag_report(d, DIAG_G102, NULL, "semantic patch is missing a `base <revision>` instruction");
		(void)g;
	}
	return d->errors == errors;
}

const char *
patch_schema_name(const SPatch *p)
{
	return p->version == 3 ? SCHEMA_V3 : p->version == 2 ? SCHEMA_V2 : "semaprax.semantic-patch.v1";
}

void
patch_free(SPatch *p)
{
	free(p->base.s);
	for (int i = 0; i < p->nops; i++) {
		for (int k = 0; k < 5; k++)
			free(p->ops[i].w[k].s);
		free(p->ops[i].to.s);
	}
	free(p->ops);
	memset(p, 0, sizeof *p);
}
