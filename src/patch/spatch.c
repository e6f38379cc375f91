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
 * spaces, no comments (G101 otherwise).  `schema semaprax.semantic-patch.v4`
 * adds the v4 operations (docs/PATCH.md), whose source fragments follow
 * `with` to the end of the line or fill the lines between `with <<<` and a
 * line holding only `>>>`.
 *
 * Every diagnostic points into the patch text (line and column).
 */
#include "patch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SCHEMA_V2 "semaprax.semantic-patch.v2"
#define SCHEMA_V3 "semaprax.semantic-patch.v3"
#define SCHEMA_V4 "semaprax.semantic-patch.v4"

enum { LINE_WORDS = 16 };

typedef struct Line {
	const char *text;
	uint32_t start, end;     /* the line without its terminator */
	uint32_t lineno;
	/* the line's first LINE_WORDS words, and how many it has (words past
	 * them are counted only, so a line's words take fixed room): no fixed
	 * shape has more, and add-parameter, whose type and argument may be
	 * written with any number of spaces, reads them from the text in one
	 * pass */
	PatchWord words[LINE_WORDS];
	int nwords;
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
		if (l->nwords++ >= LINE_WORDS)
			continue;   /* counted only */
		PatchWord *w = &l->words[l->nwords - 1];
		w->s = spx_xstrndup(l->text + b, i - b);
		w->span = span_at(b, i);
		w->lineno = l->lineno;
	}
}

static void
free_words(Line *l)
{
	for (int i = 0; i < l->nwords && i < LINE_WORDS; i++)
		free(l->words[i].s);
	l->nwords = 0;
}

static bool
is(const Line *l, int i, const char *s)
{
	return i < l->nwords && i < LINE_WORDS && strcmp(l->words[i].s, s) == 0;
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
		/* adding and removing in one list: each is checked against the list it knew */
		bool pair = (q->kind == POP_ADD_PARAM && o->kind == POP_REMOVE_PARAM) || (q->kind == POP_REMOVE_PARAM && o->kind == POP_ADD_PARAM) ||
		    (q->kind == POP_ADD_CASE && o->kind == POP_REMOVE_CASE) || (q->kind == POP_REMOVE_CASE && o->kind == POP_ADD_CASE);
		if (pair && strcmp(q->w[0].s, o->w[0].s) == 0) {
			Diag *g = diag_report(d, DIAG_G106, &o->line, "this operation and the one on line %u both change the %s of `%s`", q->lineno,
			    o->kind == POP_ADD_CASE || o->kind == POP_REMOVE_CASE ? "cases" : "parameters", o->w[0].s);
			diag_set_help(g, "add and remove in separate patches: each operation is checked against the list as the base has it");
			return true;
		}
		if (q->kind != o->kind)
			continue;
		bool same = o->kind == POP_NO_NEW_EFFECTS;
		if (o->kind == POP_RENAME)
			same = strcmp(q->w[0].s, o->w[0].s) == 0;
		else if (o->kind == POP_RENAME_MEMBER || o->kind == POP_RENAME_CASE)
			same = strcmp(q->w[0].s, o->w[0].s) == 0 && strcmp(q->w[1].s, o->w[1].s) == 0;
		else if (o->kind == POP_REPLACE_TARG)
			same = strcmp(q->w[0].s, o->w[0].s) == 0 && strcmp(q->w[3].s, o->w[3].s) == 0;
		else if (o->kind == POP_ADD_CLAUSE || o->kind == POP_PARAM_TYPE)
			same = strcmp(q->w[0].s, o->w[0].s) == 0 && strcmp(q->w[1].s, o->w[1].s) == 0;
		else if (o->kind == POP_REMOVE_CLAUSE)
			same = strcmp(q->w[0].s, o->w[0].s) == 0 && strcmp(q->w[1].s, o->w[1].s) == 0 && strcmp(q->w[2].s, o->w[2].s) == 0;
		else if (o->kind >= POP_REPLACE_BODY)
			same = strcmp(q->w[0].s, o->w[0].s) == 0;
		if (same) {
			Diag *g = diag_report(d, DIAG_G106, &o->line, "duplicate semantic patch selector (first on line %u)", q->lineno);
			diag_set_help(g, "keep one operation per selector");
			return true;
		}
	}
	return false;
}

/* A canonical u32 (no sign, no leading zero). */
static bool
canonical_u32(const char *ix)
{
	bool canon = ix[0] >= '0' && ix[0] <= '9' && (ix[0] != '0' || ix[1] == '\0') && strlen(ix) <= 10;
	for (const char *c = ix; canon && *c; c++)
		canon = *c >= '0' && *c <= '9';
	return canon && strtoull(ix, NULL, 10) <= 0xFFFFFFFFull;
}

/* The text of a source fragment position: where lines are read from. */
typedef struct Cursor {
	const char *text;
	size_t len;
	uint32_t at;         /* the start of the next line */
	uint32_t lineno;     /* the number of the last line read */
} Cursor;

static bool
blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/*
 * The fragment after word `with` (index wi) of l: the rest of the line, or
 * with `<<<` the following lines up to one holding only `>>>`.  False after
 * G101.
 */
static bool
fragment(PatchOp *o, const Line *l, Span kw, Cursor *c, DiagSink *d)
{
	uint32_t b = kw.end, e = l->end;
	while (b < e && blank(l->text[b]))
		b++;
	while (e > b && blank(l->text[e - 1]))
		e--;
	if (e - b == 3 && memcmp(l->text + b, "<<<", 3) == 0) {
		uint32_t start = c->at;
		for (;;) {
			if (c->at >= c->len) {
				Span s = line_span(l);
				Diag *g = diag_report(d, DIAG_G101, &s, "the fragment opened on line %u has no closing `>>>` line", l->lineno);
				diag_set_help(g, "end the fragment with a line holding only `>>>`");
				return false;
			}
			const char *nl = memchr(c->text + c->at, '\n', c->len - c->at);
			uint32_t end = nl ? (uint32_t)(nl - c->text) : (uint32_t)c->len;
			uint32_t x = c->at, y = end;
			c->lineno++;
			while (x < y && blank(c->text[x]))
				x++;
			while (y > x && blank(c->text[y - 1]))
				y--;
			uint32_t line_start = c->at;
			c->at = nl ? end + 1 : end;
			if (y - x == 3 && memcmp(c->text + x, ">>>", 3) == 0) {
				uint32_t fe = line_start > start ? line_start - 1 : start;
				if (fe > start && c->text[fe - 1] == '\r')
					fe--;
				b = start;
				e = fe;
				break;
			}
		}
	}
	bool empty = true;
	for (uint32_t i = b; i < e && empty; i++)
		empty = blank(l->text[i]) || l->text[i] == '\n';
	if (empty) {
		Span s = line_span(l);
		int n = (int)(kw.end - kw.start);
		const char *w = l->text + kw.start;
		Diag *g = diag_report(d, DIAG_G101, &s, "invalid semantic patch instruction on line %u: the fragment after `%.*s` is empty", l->lineno, n, w);
		diag_set_help(g, "write the source text after `%.*s`, or between a line ending in `%.*s <<<` and a `>>>` line", n, w, n, w);
		return false;
	}
	o->text = spx_xstrndup(l->text + b, e - b);
	o->text_span = span_at(b, e);
	return true;
}

/*
 * add-parameter's words from `with` (word 5): the parameter `name: type`
 * up to the word `argument` (the first after the type's first word, outside
 * brackets), then the argument fragment.  False after G101.
 */
static bool
add_parameter(PatchOp *o, Line *l, Cursor *c, DiagSink *d)
{
	Span arg = { 0, 0 };   /* the word `argument`; none while arg.end is 0 */
	if (l->nwords < 7) {
		bad_line(d, l, "expected `add-parameter function <fn-id> index <u32> with <name>: <type> [argument <fragment>]`");
		return false;
	}
	uint32_t colon = 0;
	for (uint32_t i = l->words[6].span.start; i < l->end && !colon; i++)
		colon = l->text[i] == ':' ? i : 0;
	/* one pass from the colon: the first word `argument` after the type's
	 * first word, the brackets before it balanced */
	int depth = 0;
	bool word = false;
	for (uint32_t j = colon ? colon + 1 : l->end; j < l->end;) {
		if (blank(l->text[j])) {
			j++;
			continue;
		}
		uint32_t w = j;
		while (j < l->end && !blank(l->text[j]))
			j++;
		if (word && depth == 0 && j - w == 8 && memcmp(l->text + w, "argument", 8) == 0 && w > l->words[6].span.start) {
			arg = span_at(w, j);
			break;
		}
		for (uint32_t x = w; x < j; x++) {
			char ch = l->text[x];
			depth += (ch == '<' || ch == '(' || ch == '[') - ((ch == '>' && l->text[x - 1] != '-') || ch == ')' || ch == ']');
		}
		word = true;
	}
	uint32_t b = l->words[6].span.start, e = arg.end ? arg.start : l->end;
	while (e > b && blank(l->text[e - 1]))
		e--;
	/* `name: type`: a name (checked when planned, G103), `:`, something after it */
	uint32_t n = b;
	while (n < e && !blank(l->text[n]) && l->text[n] != ':')
		n++;
	uint32_t x = n;
	while (x < e && blank(l->text[x]))
		x++;
	uint32_t t = x + 1;
	while (t < e && blank(l->text[t]))
		t++;
	if (n == b || x >= e || l->text[x] != ':' || t >= e) {
		Span s = span_at(b, e > b ? e : l->end);
		Diag *g = diag_report(d, DIAG_G101, &s, "invalid semantic patch instruction on line %u: the parameter after `with` is not `<name>: <type>`",
		    l->lineno);
		diag_set_help(g, "write the parameter as in a parameter list, such as `with step: i64`, then optionally `argument <fragment>`");
		return false;
	}
	o->w[2].s = spx_xstrndup(l->text + b, n - b);
	o->w[2].span = span_at(b, n);
	o->w[2].lineno = l->lineno;
	if (arg.end) {
		if (!fragment(o, l, arg, c, d))
			return false;
		o->arg = o->text;
		o->arg_span = o->text_span;
	}
	o->text = spx_xstrndup(l->text + b, e - b);
	o->text_span = span_at(b, e);
	return true;
}

/* The v4 operations; false when l is none of them (nothing reported). */
static bool
parse_v4(SPatch *p, Line *l, Cursor *c, DiagSink *d)
{
	PatchOp *o = NULL;
	bool clause = is(l, 3, "requires") || is(l, 3, "ensures");
	if (is(l, 0, "replace-body") && l->nwords >= 4 && is(l, 1, "function") && is(l, 3, "with")) {
		o = add_op(p, POP_REPLACE_BODY, l);
		take(l, 2, &o->w[0]);
		if (!fragment(o, l, l->words[3].span, c, d))
			return true;
	} else if (is(l, 0, "replace-expression") && l->nwords >= 4 && is(l, 1, "expression") && is(l, 3, "with")) {
		o = add_op(p, POP_REPLACE_EXPR, l);
		take(l, 2, &o->w[0]);
		if (!fragment(o, l, l->words[3].span, c, d))
			return true;
	} else if (is(l, 0, "add-clause") && l->nwords >= 5 && is(l, 1, "function") && clause && is(l, 4, "with")) {
		o = add_op(p, POP_ADD_CLAUSE, l);
		take(l, 2, &o->w[0]);
		take(l, 3, &o->w[1]);
		if (!fragment(o, l, l->words[4].span, c, d))
			return true;
	} else if (is(l, 0, "add-function") && l->nwords >= 4 && is(l, 1, "after") && is(l, 3, "with")) {
		o = add_op(p, POP_ADD_FUNCTION, l);
		take(l, 2, &o->w[0]);
		if (!fragment(o, l, l->words[3].span, c, d))
			return true;
	} else if (is(l, 0, "remove-clause") && l->nwords == 6 && is(l, 1, "function") && clause && is(l, 4, "index")) {
		if (!canonical_u32(l->words[5].s)) {
			bad_line(d, l, "the index is not a canonical u32");
			return true;
		}
		o = add_op(p, POP_REMOVE_CLAUSE, l);
		take(l, 2, &o->w[0]);
		take(l, 3, &o->w[1]);
		take(l, 5, &o->w[2]);
	} else if (is(l, 0, "delete-function") && l->nwords == 3 && is(l, 1, "function")) {
		o = add_op(p, POP_DELETE_FUNCTION, l);
		take(l, 2, &o->w[0]);
	} else if (is(l, 0, "add-parameter") && l->nwords >= 7 && is(l, 1, "function") && is(l, 3, "index") && is(l, 5, "with")) {
		if (!canonical_u32(l->words[4].s)) {
			bad_line(d, l, "the parameter index is not a canonical u32");
			return true;
		}
		o = add_op(p, POP_ADD_PARAM, l);
		take(l, 2, &o->w[0]);
		take(l, 4, &o->w[1]);
		if (!add_parameter(o, l, c, d))
			return true;
	} else if (is(l, 0, "add-case") && l->nwords >= 4 && is(l, 1, "variant") && is(l, 3, "with")) {
		o = add_op(p, POP_ADD_CASE, l);
		take(l, 2, &o->w[0]);
		if (!fragment(o, l, l->words[3].span, c, d))
			return true;
	} else if (is(l, 0, "remove-parameter") && l->nwords == 5 && is(l, 1, "function") && is(l, 3, "index")) {
		if (!canonical_u32(l->words[4].s)) {
			bad_line(d, l, "the parameter index is not a canonical u32");
			return true;
		}
		o = add_op(p, POP_REMOVE_PARAM, l);
		take(l, 2, &o->w[0]);
		take(l, 4, &o->w[1]);
	} else if (is(l, 0, "remove-case") && l->nwords == 5 && is(l, 1, "variant") && is(l, 3, "case")) {
		o = add_op(p, POP_REMOVE_CASE, l);
		take(l, 2, &o->w[0]);
		take(l, 4, &o->w[1]);
	} else if (is(l, 0, "change-parameter-type") && l->nwords == 9 && is(l, 1, "function") && is(l, 3, "parameter") &&
	    is(l, 5, "from") && is(l, 7, "to")) {
		if (!canonical_u32(l->words[4].s)) {
			bad_line(d, l, "the parameter index is not a canonical u32");
			return true;
		}
		o = add_op(p, POP_PARAM_TYPE, l);
		take(l, 2, &o->w[0]);
		take(l, 4, &o->w[1]);
		take(l, 6, &o->w[2]);
		take(l, 8, &o->to);
	} else {
		return false;
	}
	duplicate(p, o, d);
	return true;
}

static const char *const v4_words[] = {
	"replace-body", "replace-expression", "add-clause", "remove-clause", "add-function", "delete-function", "change-parameter-type",
	"add-parameter", "add-case", "remove-parameter", "remove-case",
};
static const char *const v4_grammar[] = {
	"expected `replace-body function <fn-id> with <fragment>`",
	"expected `replace-expression expression <expression-id> with <fragment>`",
	"expected `add-clause function <fn-id> requires|ensures with <fragment>`",
	"expected `remove-clause function <fn-id> requires|ensures index <u32>`",
	"expected `add-function after <declaration-id> with <fragment>`",
	"expected `delete-function function <fn-id>`",
	"expected `change-parameter-type function <fn-id> parameter <u32> from <type> to <type>`",
	"expected `add-parameter function <fn-id> index <u32> with <name>: <type> [argument <fragment>]`",
	"expected `add-case variant <variant-id> with <fragment>`",
	"expected `remove-parameter function <fn-id> index <u32>`",
	"expected `remove-case variant <variant-id> case <case-id-or-name>`",
};

/* The shape an instruction's first word asks for, when the line starts
 * with a v1/v2 word but does not have its shape; NULL otherwise. */
static const char *
wrong_shape(const Line *l)
{
	static const char *const shape[][2] = {
		{ "base", "`base` takes one revision: `base sha256:<64 hex digits>`" },
		{ "rename", "expected `rename <stable-id> to <new-name>`" },
		{ "rename-member", "expected `rename-member owner <stable-id> member <stable-id> to <new-name>`" },
		{ "rename-case", "expected `rename-case owner <stable-id> case <stable-id> to <new-name>`" },
		{ "replace-call-type-argument", "expected `replace-call-type-argument expression <id> template <id> "
		    "old-instance <id> index <n> from <type> to <type>`" },
		{ "require", "expected `require no-new-effects`" },
	};
	for (size_t i = 0; i < sizeof shape / sizeof shape[0]; i++)
		if (is(l, 0, shape[i][0]))
			return shape[i][1];
	return NULL;
}

static void
parse_instruction(SPatch *p, Line *l, Cursor *c, DiagSink *d)
{
	PatchOp *o = NULL;
	if (p->version == 4 && parse_v4(p, l, c, d))
		return;
	for (size_t i = 0; i < sizeof v4_words / sizeof *v4_words; i++)
		if (is(l, 0, v4_words[i])) {
			bad_line(d, l, p->version == 4 ? v4_grammar[i] : "this operation needs `schema " SCHEMA_V4 "` as the first instruction");
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
		bool canon = canonical_u32(l->words[8].s);
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
	} else if (wrong_shape(l)) {
		bad_line(d, l, wrong_shape(l));
		return;
	} else {
		/* every instruction this version takes, and the nearest to the word written */
		static const char *const words[] = {
			"base", "rename", "rename-member", "rename-case", "replace-call-type-argument", "require",
			"replace-body", "replace-expression", "add-clause", "remove-clause", "add-function", "delete-function",
			"change-parameter-type", "add-parameter", "add-case", "remove-parameter", "remove-case",
		};
		size_t n = p->version == 4 ? sizeof words / sizeof *words : 6;
		/* near: one edit away, or else a prefix of exactly one instruction
		 * (`delete` for `delete-function`; `add` begins two: none named) */
		const char *near = NULL, *prefix = NULL;
		int prefixes = 0;
		char w[64];
		snprintf(w, sizeof w, "%s", l->nwords ? l->words[0].s : "");
		for (size_t i = 0; i < n && w[0] && !near; i++) {
			if (spx_edit_distance(w, words[i], true) <= 1)
				near = words[i];
			else if (strlen(w) >= 3 && strncmp(words[i], w, strlen(w)) == 0 && prefixes++ == 0)
				prefix = words[i];
		}
		if (!near && prefixes == 1)
			near = prefix;
		/* the list is the table's: `require` is spelled whole, last */
		Buf why = {0};
		if (near)
			buf_printf(&why, "did you mean `%s`? ", near);
		buf_puts(&why, "expected ");
		for (size_t i = 0, k = 0; i < n; i++)
			if (strcmp(words[i], "require") != 0)
				buf_printf(&why, "%s`%s`", k++ ? ", " : "", words[i]);
		buf_puts(&why, " or `require no-new-effects`");
		bad_line(d, l, why.data);
		buf_free(&why);
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
		Line l = { text, at, end, (uint32_t)n + 1, {{0}}, 0 };
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
	    is(op, 5, "target") && is(op, 7, "name") && is(op, 9, "to"))) {
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
	/* a NUL byte would end a word early (`rename a.b to s\0um` would
	 * rename to `s`): refused wherever it is, every version */
	const char *nul = memchr(text, '\0', len);
	if (nul) {
		uint32_t lineno = 1;
		for (const char *c = text; c < nul; c++)
			lineno += *c == '\n';
		Span s = span_at((uint32_t)(nul - text), (uint32_t)(nul - text) + 1);
		Diag *g = diag_report(d, DIAG_G101, &s, "invalid semantic patch instruction on line %u: it holds a NUL byte", lineno);
		diag_set_help(g, "a semantic patch is text: remove the NUL byte (U+0000)");
		return false;
	}
	if (len >= 34 && memcmp(text, "schema " SCHEMA_V3 "\n", 34) == 0) {
		p->version = 3;
		return parse_v3(p, text, len, d);
	}
	uint32_t at = 0, lineno = 0;
	bool first = true;
	while (at < len) {
		const char *nl = memchr(text + at, '\n', len - at);
		uint32_t end = nl ? (uint32_t)(nl - text) : (uint32_t)len;
		Line l = { text, at, end, ++lineno, {{0}}, 0 };
		split(&l);
		at = end + 1;
		Cursor cur = { text, len, at, lineno };
		if (l.nwords == 0 || l.words[0].s[0] == '#') {
			free_words(&l);
			continue;
		}
		if (first && is(&l, 0, "schema")) {
			first = false;
			if (l.nwords == 2 && is(&l, 1, SCHEMA_V2)) {
				p->version = 2;
			} else if (l.nwords == 2 && is(&l, 1, SCHEMA_V4)) {
				p->version = 4;
			} else if (l.nwords == 2 && is(&l, 1, SCHEMA_V3)) {
				Span s = line_span(&l);
				Diag *g = diag_report(d, DIAG_G101, &s, "a " SCHEMA_V3 " patch is exactly three canonical lines, with no comment before them");
				diag_set_help(g, "use the patch `semaprax repair` prints, unchanged");
			} else {
				Span s = line_span(&l);
				Diag *g = diag_report(d, DIAG_G101, &s, "unknown semantic patch schema: %.*s", (int)(end - l.start), text + l.start);
				diag_set_help(g, "write `schema " SCHEMA_V2 "` or `schema " SCHEMA_V4 "`, or no schema line for v1");
			}
			free_words(&l);
			continue;
		}
		first = false;
		parse_instruction(p, &l, &cur, d);
		at = cur.at;
		lineno = cur.lineno;
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
	return p->version == 4 ? SCHEMA_V4 : p->version == 3 ? SCHEMA_V3 : p->version == 2 ? SCHEMA_V2 : "semaprax.semantic-patch.v1";
}

void
patch_free(SPatch *p)
{
	free(p->base.s);
	for (int i = 0; i < p->nops; i++) {
		for (int k = 0; k < 5; k++)
			free(p->ops[i].w[k].s);
		free(p->ops[i].to.s);
		free(p->ops[i].text);
		free(p->ops[i].arg);
	}
	free(p->ops);
	memset(p, 0, sizeof *p);
}
