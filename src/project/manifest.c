/*
 * manifest.c — the `semaprax.toml` reader, validator and canonical renderer
 * (manifest.h; TOOLCHAIN.md §2.1–2.2).  Rules and messages follow the
 * reference's Project v1 and Package Manifest v1 readers; the text is ours.
 */
#include "manifest.h"

#include "../support/utf8.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define SCAFFOLD_HELP "`semaprax new <dir>` writes a canonical manifest and `semaprax help language projects` shows both layouts; `semaprax fmt --manifest <toml>` rewrites one that reads"

typedef struct Entry {
	const char *key;     /* owned copies below */
	bool list;
	char *text;          /* a string value */
	char **items; int nitems;
	char *inline_table;  /* `{ … }` as written ([registers] rows only) */
	int line;            /* 1-based */
} Entry;

typedef struct Table {
	char *name;          /* NULL: the assignments before the first table */
	VEC(Entry) entries;
} Table;

typedef struct Reader {
	DiagSink *diags;
	const char *src;     /* the manifest text: a line's diagnostic points at it */
	size_t len;
	VEC(Table) tables;
	bool failed;
} Reader;

/* The span of 1-based line `line` of src[0, len) without its line break
 * (false past the text). */
static bool
line_span(const char *src, size_t len, int line, Span *out)
{
	size_t at = 0;
	for (int l = 1; l < line; l++) {
		const char *nl = at < len ? memchr(src + at, '\n', len - at) : NULL;
		if (!nl)
			return false;
		at = (size_t)(nl - src) + 1;
	}
	size_t end = at;
	while (end < len && src[end] != '\n' && src[end] != '\r')
		end++;
	out->start = (uint32_t)at;
	out->end = (uint32_t)end;
	return true;
}

static Diag *
vreport(Reader *r, int line, DiagCode code, const char *fmt, va_list ap)
{
	char *msg = spx_vformat(fmt, ap);
	r->failed = true;
	Span sp;
	bool has = line > 0 && r->src && line_span(r->src, r->len, line, &sp);
	Diag *d = diag_report(r->diags, code, has ? &sp : NULL, "%s", msg);
	free(msg);
	if (d)
		diag_set_help(d, "%s", SCAFFOLD_HELP);
	return d;
}

static Diag *
report(Reader *r, DiagCode code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static Diag *
report(Reader *r, DiagCode code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	Diag *d = vreport(r, 0, code, fmt, ap);
	va_end(ap);
	return d;
}

/* As report, pointing at manifest line `line` (1-based). */
static Diag *
report_line(Reader *r, int line, DiagCode code, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static Diag *
report_line(Reader *r, int line, DiagCode code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	Diag *d = vreport(r, line, code, fmt, ap);
	va_end(ap);
	return d;
}

static char *
dup_n(const char *s, size_t n)
{
	char *r = spx_xmalloc(n + 1);
	memcpy(r, s, n);
	r[n] = '\0';
	return r;
}

static const char *
skip_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* A string literal "…" without escapes at *pp; advances past it. */
static char *
read_string(const char **pp, const char *end)
{
	const char *p = *pp;
	if (p >= end || *p != '"')
		return NULL;
	const char *q = ++p;
	while (q < end && *q != '"' && *q != '\\')
		q++;
	if (q >= end || *q != '"')
		return NULL;
	*pp = q + 1;
	return dup_n(p, (size_t)(q - p));
}

static void
free_entry(Entry *e)
{
	free((char *)e->key);
	free(e->text);
	for (int i = 0; i < e->nitems; i++)
		free(e->items[i]);
	free(e->items);
	free(e->inline_table);
}

/* One `key = value` line (already trimmed); false after a diagnostic. */
static bool
read_assignment(Reader *r, const char *p, const char *end, int line, Entry *out)
{
	memset(out, 0, sizeof *out);
	out->line = line;
	const char *k = p;
	while (p < end && *p != '=' && *p != ' ' && *p != '\t')
		p++;
	size_t klen = (size_t)(p - k);
	p = skip_ws(p, end);
	if (klen == 0 || p >= end || *p != '=') {
		report_line(r, line, DIAG_J100, "line %d: expected `key = value`, a `[table]` header or a blank line", line);
		return false;
	}
	for (size_t i = 0; i < klen; i++) {
		char c = k[i];
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.')) {
			report_line(r, line, DIAG_J100, "line %d: keys are lowercase [a-z0-9._-]+ (no quoted keys); found `%.*s`", line, (int)klen, k);
			return false;
		}
	}
	out->key = dup_n(k, klen);
	p = skip_ws(p + 1, end);
	if (p < end && *p == '{') {   /* a `[registers]` row (manifest_registers.c) */
		out->inline_table = dup_n(p, (size_t)(end - p));
		return true;
	}
	if (p < end && *p == '[') {
		out->list = true;
		p = skip_ws(p + 1, end);
		VEC(char *) items = {0};
		bool ok = true;
		if (p < end && *p == ']') {
			p++;
		} else {
			for (;;) {
				char *s = read_string(&p, end);
				if (!s) {
					ok = false;
					break;
				}
				VEC_PUSH(items, s);
				p = skip_ws(p, end);
				if (p < end && *p == ',') {
					p = skip_ws(p + 1, end);
					continue;
				}
				if (p < end && *p == ']') {
					p++;
					break;
				}
				ok = false;
				break;
			}
		}
		out->items = items.items;
		out->nitems = items.len;
		if (!ok) {
			report_line(r, line, DIAG_J100, "line %d: `%s` must be a one-line array of plain strings without escapes", line, out->key);
			return false;
		}
	} else {
		out->text = read_string(&p, end);
		if (!out->text) {
			report_line(r, line, DIAG_J100, "line %d: `%s` must be a plain string without escapes or a one-line array of them", line, out->key);
			return false;
		}
	}
	p = skip_ws(p, end);
	if (p != end) {
		report_line(r, line, DIAG_J100, "line %d: unexpected text after the value of `%s` (comments are not admitted)", line, out->key);
		return false;
	}
	return true;
}

static bool
valid_table_name(const char *s, size_t n)
{
	if (n == 0 || !(s[0] >= 'a' && s[0] <= 'z'))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || s[i] == '-'))
			return false;
	return true;
}

static const char *const admitted_tables[] = {
	"package", "modules", "exports", "command", "capabilities", "dependencies",
	"dependency-sources", "rust-dependencies", "targets", "registers",
};
static const char *const reserved_tables[] = {
	"agents", "artifacts", "compatibility", "features", "interfaces", "profiles",
};

/* The entry of list nearest to s (edit distance at most 2, the first of
 * equals), or NULL: a misspelt table or key's help names it. */
static const char *
nearest_of(const char *const *list, int n, const char *s)
{
	const char *best = NULL;
	int bestd = 3;
	for (int i = 0; i < n; i++) {
		int dist = spx_edit_distance(s, list[i], true);
		if (dist < bestd) {
			best = list[i];
			bestd = dist;
		}
	}
	return best;
}

static int
index_of(const char *const *list, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (strcmp(list[i], s) == 0)
			return i;
	return -1;
}
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Splits into tables of entries; structural errors are reported. */
static void
read_lines(Reader *r, const char *src, size_t len)
{
	Table top = {0};
	VEC_PUSH(r->tables, top);
	const char *p = src, *end = src + len;
	int line = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		line++;
		const char *a = skip_ws(p, le), *b = le;
		if (b > a && b[-1] == '\r')
			b--;
		while (b > a && (b[-1] == ' ' || b[-1] == '\t'))
			b--;
		p = nl ? nl + 1 : end;
		if (a == b)
			continue;
		if (*a == '#') {
			report_line(r, line, DIAG_J100, "line %d: comments are not admitted in a manifest", line);
			continue;
		}
		if (*a == '[' && b[-1] == ']' && !(b - a > 1 && a[1] == '[')) {
			const char *n0 = skip_ws(a + 1, b - 1), *n1 = b - 1;
			while (n1 > n0 && (n1[-1] == ' ' || n1[-1] == '\t'))
				n1--;
			size_t n = (size_t)(n1 - n0);
			char *name = dup_n(n0, n);
			if (!valid_table_name(n0, n)) {
				report_line(r, line, DIAG_J100, "line %d: table names are lowercase [a-z][a-z-]*; found `[%s]`", line, name);
				free(name);
				continue;
			}
			bool dup = false;
			for (int i = 1; i < r->tables.len; i++)
				dup |= strcmp(r->tables.items[i].name, name) == 0;
			if (dup) {
				report_line(r, line, DIAG_J100, "table `[%s]` appears twice", name);
				free(name);
				continue;
			}
			if (index_of(reserved_tables, COUNT(reserved_tables), name) >= 0) {
				report_line(r, line, DIAG_J120, "table `[%s]` is reserved for an additive manifest revision and is not admitted by this toolchain", name);
			} else if (index_of(admitted_tables, COUNT(admitted_tables), name) < 0) {
				/* [dependency-sources] and [rust-dependencies] read, then are
				 * refused (J120 below): not offered here */
				Diag *d = report_line(r, line, DIAG_J120, "the manifest does not admit table `[%s]`; admitted tables are `[package]`, `[modules]`, `[exports]`, "
				    "`[command]`, `[capabilities]`, `[dependencies]`, `[targets]`, `[registers]`", name);
				const char *near = nearest_of(admitted_tables, COUNT(admitted_tables), name);
				if (d && near)
					diag_set_help(d, "did you mean `[%s]`? (the tables and their keys: docs/PROJECTS.md)", near);
			}
			Table t = {0};
			t.name = name;
			VEC_PUSH(r->tables, t);
			continue;
		}
		if (*a == '[') {
			report_line(r, line, DIAG_J100, "line %d: arrays of tables and inline tables are not admitted", line);
			continue;
		}
		Entry e;
		if (!read_assignment(r, a, b, line, &e)) {
			free_entry(&e);
			continue;
		}
		Table *t = &r->tables.items[r->tables.len - 1];
		if (e.inline_table && !(t->name && strcmp(t->name, "registers") == 0)) {
			report_line(r, line, DIAG_J100, "line %d: inline tables are admitted only as `[registers]` rows", line);
			free_entry(&e);
			continue;
		}
		bool dup = false;
		for (int i = 0; i < t->entries.len; i++)
			dup |= strcmp(t->entries.items[i].key, e.key) == 0;
		if (dup) {
			report_line(r, line, DIAG_J100, "key `%s` appears twice%s%s%s", e.key, t->name ? " in `[" : "", t->name ? t->name : "", t->name ? "]`" : "");
			free_entry(&e);
			continue;
		}
		VEC_PUSH(t->entries, e);
	}
}

static Table *
table(Reader *r, const char *name)
{
	for (int i = 1; i < r->tables.len; i++)
		if (strcmp(r->tables.items[i].name, name) == 0)
			return &r->tables.items[i];
	return NULL;
}

static Entry *
entry(Table *t, const char *key)
{
	if (!t)
		return NULL;
	for (int i = 0; i < t->entries.len; i++)
		if (strcmp(t->entries.items[i].key, key) == 0)
			return &t->entries.items[i];
	return NULL;
}

/* The 1-based line of key in table tname (NULL: the assignments before
 * the first table), 0 when it is not there: a finding about a value read
 * before points at it. */
static int
key_line(Reader *r, const char *tname, const char *key)
{
	Entry *e = entry(tname ? table(r, tname) : &r->tables.items[0], key);
	return e ? e->line : 0;
}

/* t's entry for key when it is of the wanted shape (a list or one
 * string); NULL with J100 when it is not, or when a required key is
 * missing. */
static Entry *
take_entry(Reader *r, Table *t, const char *tname, const char *key, bool required, bool list)
{
	Entry *e = entry(t, key);
	if (!e) {
		if (required && tname)
			report(r, DIAG_J100, "table `[%s]` requires `%s`", tname, key);
		else if (required)
			report(r, DIAG_J100, "the manifest requires `%s`", key);
		return NULL;
	}
	if (e->list != list) {
		report_line(r, e->line, DIAG_J100, "`%s%s%s%s` must be %s", tname ? "[" : "", tname ? tname : "", tname ? "] " : "", key,
		    list ? "an array of strings" : "one string");
		return NULL;
	}
	return e;
}

/* Takes a string value (required or optional) out of t. */
static char *
take_text(Reader *r, Table *t, const char *tname, const char *key, bool required)
{
	Entry *e = take_entry(r, t, tname, key, required, false);
	if (!e)
		return NULL;
	char *s = e->text;
	e->text = NULL;
	return s;
}

static char **
take_list(Reader *r, Table *t, const char *tname, const char *key, int *n, bool required)
{
	*n = 0;
	Entry *e = take_entry(r, t, tname, key, required, true);
	if (!e)
		return NULL;
	/* a present empty list (`tests = []`) is non-NULL too, so the
	 * element-count rules see it (NULL means absent or misshapen) */
	char **items = e->items ? e->items : spx_xcalloc(1, sizeof *items);
	*n = e->nitems;
	e->items = NULL;
	e->nitems = 0;
	return items;
}

/* Keys of t outside the admitted list (J120; reserved [package] keys say so). */
static void
unknown_keys(Reader *r, Table *t, const char *const *keys, int nkeys)
{
	for (int i = 0; t && i < t->entries.len; i++) {
		const char *k = t->entries.items[i].key;
		if (index_of(keys, nkeys, k) >= 0)
			continue;
		if (strcmp(t->name, "package") == 0 &&
		    (strcmp(k, "compatibility") == 0 || strcmp(k, "license") == 0 || strcmp(k, "description") == 0))
			report_line(r, t->entries.items[i].line, DIAG_J120, "key `[package] %s` is reserved for an additive manifest revision and is not admitted by this toolchain", k);
		else {
			Diag *d = report_line(r, t->entries.items[i].line, DIAG_J120, "table `[%s]` does not admit key `%s`", t->name, k);
			if (!d)
				continue;
			Buf h = {0};
			const char *near = nearest_of(keys, nkeys, k);
			if (near)
				buf_printf(&h, "did you mean `%s`? ", near);
			buf_printf(&h, "`[%s]` admits ", t->name);
			for (int j = 0; j < nkeys; j++)
				buf_printf(&h, "%s`%s`", j == 0 ? "" : j + 1 == nkeys ? " and " : ", ", keys[j]);
			diag_set_help(d, "%s", h.data);
			buf_free(&h);
		}
	}
}

/* ---- value grammars ---- */

bool
project_valid_name(const char *s)
{
	size_t n = strlen(s);
	if (n < 1 || n > 64 || !(s[0] >= 'a' && s[0] <= 'z'))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
			return false;
	return true;
}

static bool
valid_module(const char *s)
{
	size_t n = strlen(s);
	if (n < 1 || n > 240)
		return false;
	bool start = true;
	for (size_t i = 0; i <= n; i++) {
		char c = s[i];
		if (c == '.' || c == '\0') {
			if (start)
				return false;
			start = true;
			continue;
		}
		bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
		if (start && !alpha)
			return false;
		if (!alpha && !(c >= '0' && c <= '9'))
			return false;
		start = false;
	}
	return true;
}

static bool
valid_stable_id(const char *s)
{
	size_t n = strlen(s);
	if (n < 1 || n > 128)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '.' || s[i] == '_' || s[i] == '-'))
			return false;
	return true;
}

/* A canonical relative path: '/'-separated non-empty components of
 * [A-Za-z0-9._-], none `.` or `..`. */
static bool
valid_path(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	if (n < 1 || n > 240 || n <= k || strcmp(s + n - k, suffix) != 0)
		return false;
	size_t start = 0;
	for (size_t i = 0; i <= n; i++) {
		char c = s[i];
		if (c == '/' || c == '\0') {
			size_t len = i - start;
			if (len == 0 || (len == 1 && s[start] == '.') || (len == 2 && s[start] == '.' && s[start + 1] == '.'))
				return false;
			start = i + 1;
			continue;
		}
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-'))
			return false;
	}
	return true;
}

/* A canonical decimal u32 (no leading zeros) at *pp. */
static bool
read_u32(const char **pp)
{
	const char *p = *pp;
	if (!(*p >= '0' && *p <= '9'))
		return false;
	if (*p == '0' && p[1] >= '0' && p[1] <= '9')
		return false;
	unsigned long long v = 0;
	while (*p >= '0' && *p <= '9') {
		v = v * 10 + (unsigned)(*p++ - '0');
		if (v > 0xffffffffull)
			return false;
	}
	*pp = p;
	return true;
}

static bool
valid_triple(const char **pp)
{
	return read_u32(pp) && *(*pp)++ == '.' && read_u32(pp) && *(*pp)++ == '.' && read_u32(pp);
}

/* Canonical SemVer 2.0.0 (x.y.z[-pre][+build]) of at most 128 bytes. */
static bool
valid_semver(const char *s)
{
	if (strlen(s) > 128)
		return false;
	const char *p = s;
	if (!valid_triple(&p))
		return false;
	for (int part = 0; part < 2; part++) {
		char mark = part ? '+' : '-';
		if (*p != mark)
			continue;
		p++;
		for (;;) {
			const char *q = p;
			bool digits = true;
			while ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9') || *q == '-') {
				digits &= *q >= '0' && *q <= '9';
				q++;
			}
			if (q == p || (part == 0 && digits && *p == '0' && q - p > 1))
				return false;
			p = q;
			if (*p != '.')
				break;
			p++;
		}
	}
	return *p == '\0';
}

static bool
valid_range(const char *s)
{
	if (strlen(s) > 33 || !(s[0] == '^' || s[0] == '~' || s[0] == '='))
		return false;
	const char *p = s + 1;
	return valid_triple(&p) && *p == '\0';
}

static bool
valid_dep_name(const char *s)
{
	size_t n = strlen(s);
	if (n < 1 || n > 128 || !(s[0] >= 'a' && s[0] <= 'z') || s[n - 1] == '.' || s[n - 1] == '-' || s[n - 1] == '_')
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == '.' && s[i + 1] == '.')
			return false;
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_'))
			return false;
	}
	return true;
}

static bool
strictly_sorted(char **v, int n)
{
	for (int i = 1; i < n; i++)
		if (strcmp(v[i - 1], v[i]) >= 0)
			return false;
	return true;
}

/* A list strictly_sorted refused: its help names the first pair out of
 * order (or the repeated item), which is all an author needs to move;
 * `fmt --manifest` does not sort lists (the order is the author's). */
static void
unsorted_help(Diag *d, char **v, int n, const char *what)
{
	for (int i = 1; d && i < n; i++) {
		int c = strcmp(v[i - 1], v[i]);
		if (c == 0) {
			diag_set_help(d, "`%s` is listed twice: list each of the %s once, in byte order", v[i], what);
			return;
		}
		if (c > 0) {
			diag_set_help(d, "`%s` sorts before `%s`: list the %s in byte order (`fmt --manifest` keeps the order written)", v[i], v[i - 1], what);
			return;
		}
	}
}

/* The profiles the reference's table layout admits (TOOLCHAIN.md §2.2);
 * this toolchain checks every profile with the same (lifted) rules. */
static const char *const profiles[] = {
	"flat-owned-record-api.v1", "language-command-io.stream.v1", "language-command-io.v1",
	"line-command-io.v1", "nested-owned-record-api.v1", "owned-data-api.v1", "owned-utf8-api.v1",
	"source-command.v1", "useful-data-command.v1", "useful-data-command.v2", "useful-data.v1",
	"useful-text-consumer.v1",
};

static bool
command_profile(const char *p)
{
	return p && strstr(p, "command") != NULL;
}

/* ---- the shared field rules (both layouts) ---- */

static void
validate_common(Reader *r, ProjectManifest *m)
{
	/* each finding at its key's line, in either layout */
	const char *pkg = m->tables ? "package" : NULL, *mods = m->tables ? "modules" : NULL;
	int sl = key_line(r, mods, "sources");
	int wl = m->tables ? key_line(r, "exports", "web") : key_line(r, NULL, "web_exports");
	if (m->name && !project_valid_name(m->name))
		report_line(r, key_line(r, pkg, "name"), DIAG_J100, "project name must match lowercase [a-z][a-z0-9-]* and contain 1..=64 bytes; found `%s`", m->name);
	if (m->entry && !valid_module(m->entry))
		report_line(r, key_line(r, mods, "entry"), DIAG_J100, "entry `%s` is not a bounded module name", m->entry);
	if (m->sources) {
		/* the frozen layout keeps §2.1's 16; the table layout admits
		 * PROJECT_MAX_SOURCES_TABLES (issue 15: no module cap beyond memory;
		 * docs/DECISIONS.md "Project module count") */
		int max = m->tables ? PROJECT_MAX_SOURCES_TABLES : PROJECT_MAX_SOURCES;
		if (m->nsources > max)
			report_line(r, sl, DIAG_J101, "`sources` lists %d paths; the limit is %d", m->nsources, max);
		else if (m->nsources < 2)
			report_line(r, sl, DIAG_J100, "a project requires 2..=%d explicit source paths", max);
		if (!strictly_sorted(m->sources, m->nsources))
			unsorted_help(report_line(r, sl, DIAG_J100, "source paths must be strictly byte-sorted and unique"),
				m->sources, m->nsources, "source paths");
		for (int i = 0; i < m->nsources; i++)
			if (!valid_path(m->sources[i], ".spx")) {
				report_line(r, sl, DIAG_J100, "source path `%s` is not a canonical relative .spx path of at most 240 bytes", m->sources[i]);
				break;
			}
	}
	if (m->web) {
		if (m->nweb > PROJECT_MAX_WEB)
			report_line(r, wl, DIAG_J101, "web exports list %d identities; the limit is %d", m->nweb, PROJECT_MAX_WEB);
		else if (m->nweb < 1 && !(m->profile && strcmp(m->profile, "owned-data-api.v1") == 0))
			report_line(r, wl, DIAG_J100, "a project requires 1..=32 explicit web export identities");
		if (!strictly_sorted(m->web, m->nweb))
			unsorted_help(report_line(r, wl, DIAG_J100, "web export identities must be strictly byte-sorted and unique"),
				m->web, m->nweb, "web export identities");
		for (int i = 0; i < m->nweb; i++)
			if (!valid_stable_id(m->web[i])) {
				report_line(r, wl, DIAG_J100, "web export `%s` is not a bounded lowercase [a-z0-9._-] stable id", m->web[i]);
				break;
			}
	}
	if (m->test_module && m->entry && strcmp(m->test_module, m->entry) == 0)
		report_line(r, key_line(r, mods, "tests"), DIAG_J100, "entry and test modules must be distinct");
}

static void
read_tests(Reader *r, ProjectManifest *m, char **tests, int ntests)
{
	if (!tests)
		return;
	if (ntests != 1 || !valid_module(tests[0]))
		report_line(r, key_line(r, m->tables ? "modules" : NULL, "tests"), DIAG_J100, "tests must contain exactly one bounded module name");
	else
		m->test_module = tests[0], tests[0] = NULL;
	for (int i = 0; i < ntests; i++)
		free(tests[i]);
	free(tests);
}

bool
project_manifest_line_span(const char *src, size_t len, int line, Span *out)
{
	return line > 0 && src && line_span(src, len, line, out);
}

static void
read_frozen(Reader *r, ProjectManifest *m)
{
	Table *t = &r->tables.items[0];
	if (r->tables.len > 1)
		report(r, DIAG_J100, "a `semaprax.project.v1` manifest has no tables; found `[%s]` (the table layout is `semaprax.manifest.v1`)",
		    r->tables.items[1].name);
	static const char *const keys[] = {"schema", "name", "entry", "sources", "web_exports", "tests"};
	for (int i = 0; i < t->entries.len; i++)
		if (index_of(keys, COUNT(keys), t->entries.items[i].key) < 0)
			report_line(r, t->entries.items[i].line, DIAG_J100, "a `semaprax.project.v1` manifest has exactly six assignments; `%s` is not one of them", t->entries.items[i].key);
	m->name = take_text(r, t, NULL, "name", true);
	m->entry = take_text(r, t, NULL, "entry", true);
	m->entry_line = key_line(r, NULL, "entry");
	m->tests_line = key_line(r, NULL, "tests");
	m->sources = take_list(r, t, NULL, "sources", &m->nsources, true);
	m->web = take_list(r, t, NULL, "web_exports", &m->nweb, true);
	int ntests;
	char **tests = take_list(r, t, NULL, "tests", &ntests, true);
	read_tests(r, m, tests, ntests);
	if (m->web && m->nweb == 0)
		report_line(r, key_line(r, NULL, "web_exports"), DIAG_J100, "a project requires 1..=32 explicit web export identities");
	validate_common(r, m);
}

/* A register row's findings say what a row is (the generic help's `fmt
 * --manifest` cannot supply a missing key). */
#define REGISTER_ROW_HELP "write the row as `%s = { file = \"reqs.json\", pattern = 'REQ-[0-9]+', severity = \"error\", uncited = false }`: " \
	"all four keys, in this canonical order (docs/REGISTERS.md)"

/* The `[registers]` rows (docs/REGISTERS.md): `name = { file = "…",
 * pattern = '…', severity = "…", uncited = true|false }`, sorted by name. */
static void
read_registers(Reader *r, ProjectManifest *m, Table *t)
{
	if (!t)
		return;
	m->registers = spx_xcalloc((size_t)t->entries.len + 1, sizeof *m->registers);
	for (int i = 0; i < t->entries.len; i++) {
		Entry *e = &t->entries.items[i];
		if (!e->inline_table) {
			Diag *d = report_line(r, e->line, DIAG_J100, "line %d: `[registers] %s` must be an inline table `{ file = \"…\", pattern = '…', severity = \"error\", uncited = false }`",
			    e->line, e->key);
			if (d)
				diag_set_help(d, REGISTER_ROW_HELP, e->key);
			continue;
		}
		if (!project_valid_name(e->key)) {
			report_line(r, e->line, DIAG_J100, "line %d: register names are lowercase [a-z][a-z0-9-]* of 1..=64 bytes; found `%s`", e->line, e->key);
			continue;
		}
		ProjectRegisterRow row = {0};
		bool unknown = false;
		char err[256];
		const char *why = project_register_row_parse(e->inline_table, &row, &unknown, err, sizeof err);
		if (why) {
			Diag *d = report_line(r, e->line, unknown ? DIAG_J120 : DIAG_J100, "line %d: `[registers] %s`: %s", e->line, e->key, why);
			if (d && strncmp(why, "`file` must", 11) == 0)
				diag_set_help(d, "write the register's path relative to the manifest's directory, inside the project (e.g. `file = \"docs/reqs.json\"`); copy a register kept elsewhere into the project");
			else if (d)
				diag_set_help(d, REGISTER_ROW_HELP, e->key);
			project_register_row_free(&row);
			continue;
		}
		row.name = dup_n(e->key, strlen(e->key));
		row.line = e->line;
		m->registers[m->nregisters++] = row;
	}
	for (int i = 1; i < m->nregisters; i++)
		if (strcmp(m->registers[i - 1].name, m->registers[i].name) >= 0) {
			report_line(r, m->registers[i].line, DIAG_J100, "`[registers]` rows must be strictly byte-sorted by name: `%s` comes after `%s`",
			    m->registers[i].name, m->registers[i - 1].name);
			break;
		}
}

static void
read_tables(Reader *r, ProjectManifest *m)
{
	m->tables = true;
	Table *top = &r->tables.items[0];
	for (int i = 0; i < top->entries.len; i++)
		if (strcmp(top->entries.items[i].key, "schema") != 0)
			report_line(r, top->entries.items[i].line, DIAG_J100, "the manifest admits only `schema` before the first table; found `%s`",
			    top->entries.items[i].key);
	static const char *const pkg_keys[] = {"name", "version", "profile"};
	static const char *const mod_keys[] = {"entry", "sources", "tests"};
	static const char *const exp_keys[] = {"web"};
	static const char *const cmd_keys[] = {"function", "input"};
	static const char *const cap_keys[] = {"required"};
	static const char *const tgt_keys[] = {"matrix"};
	Table *pkg = table(r, "package"), *mods = table(r, "modules"), *exp = table(r, "exports");
	if (!pkg)
		report(r, DIAG_J100, "the manifest requires a `[package]` table");
	if (!mods)
		report(r, DIAG_J100, "the manifest requires a `[modules]` table");
	if (!exp)
		report(r, DIAG_J100, "the manifest requires an `[exports]` table");
	unknown_keys(r, pkg, pkg_keys, COUNT(pkg_keys));
	unknown_keys(r, mods, mod_keys, COUNT(mod_keys));
	unknown_keys(r, exp, exp_keys, COUNT(exp_keys));
	Table *cmd = table(r, "command"), *cap = table(r, "capabilities"), *tgt = table(r, "targets");
	unknown_keys(r, cmd, cmd_keys, COUNT(cmd_keys));
	unknown_keys(r, cap, cap_keys, COUNT(cap_keys));
	unknown_keys(r, tgt, tgt_keys, COUNT(tgt_keys));
	if (table(r, "dependency-sources") || table(r, "rust-dependencies"))
		report(r, DIAG_J120, "`[dependency-sources]` and `[rust-dependencies]` are not admitted by this toolchain (no dependency acquisition)");
	if (pkg) {
		m->name = take_text(r, pkg, "package", "name", true);
		m->version = take_text(r, pkg, "package", "version", true);
		m->profile = take_text(r, pkg, "package", "profile", false);
		if (m->version && !valid_semver(m->version))
			report_line(r, key_line(r, "package", "version"), DIAG_J100, "`[package] version` must be canonical Semantic Versioning text of at most 128 bytes; found `%s`", m->version);
		if (m->profile && index_of(profiles, COUNT(profiles), m->profile) < 0)
			report_line(r, key_line(r, "package", "profile"), DIAG_J100, "`[package] profile` `%s` is not an admitted profile", m->profile);
	}
	if (mods) {
		m->entry = take_text(r, mods, "modules", "entry", true);
		m->entry_line = key_line(r, "modules", "entry");
		m->tests_line = key_line(r, "modules", "tests");
		m->sources = take_list(r, mods, "modules", "sources", &m->nsources, true);
		int ntests;
		char **tests = take_list(r, mods, "modules", "tests", &ntests, true);
		read_tests(r, m, tests, ntests);
	}
	if (exp)
		m->web = take_list(r, exp, "exports", "web", &m->nweb, true);
	if (cmd) {
		m->command = take_text(r, cmd, "command", "function", true);
		m->command_input = take_text(r, cmd, "command", "input", false);
	}
	if (cap) {
		m->capabilities = take_list(r, cap, "capabilities", "required", &m->ncapabilities, true);
		m->has_capabilities = m->capabilities != NULL;
	}
	const char *pname = m->profile ? m->profile : "scalar";
	if (command_profile(m->profile)) {
		if (!cmd)
			report_line(r, key_line(r, "package", "profile"), DIAG_J100, "profile `%s` requires a `[command]` table with `function`", pname);
		if (!cap)
			report_line(r, key_line(r, "package", "profile"), DIAG_J100, "profile `%s` requires a `[capabilities]` table with `required`", pname);
	} else {
		if (cmd)
			report_line(r, key_line(r, "package", "profile"), DIAG_J100, "profile `%s` does not admit a `[command]` table", pname);
		if (cap)
			report_line(r, key_line(r, "package", "profile"), DIAG_J100, "profile `%s` does not admit a `[capabilities]` table", pname);
	}
	if (m->command && !valid_stable_id(m->command))
		report_line(r, key_line(r, "command", "function"), DIAG_J100, "`[command] function` `%s` is not a bounded lowercase stable id", m->command);
	if (m->capabilities && !strictly_sorted(m->capabilities, m->ncapabilities))
		report_line(r, key_line(r, "capabilities", "required"), DIAG_J100, "`[capabilities] required` must be strictly byte-sorted and unique");
	if (m->command && m->web && (m->nweb != 1 || strcmp(m->web[0], m->command) != 0))
		report_line(r, key_line(r, "exports", "web"), DIAG_J100, "`[exports] web` must contain exactly the command stable id `%s`", m->command);
	Table *deps = table(r, "dependencies");
	if (deps) {
		if (deps->entries.len > PROJECT_MAX_DEPS)
			report_line(r, deps->entries.items[PROJECT_MAX_DEPS].line, DIAG_J101, "`[dependencies]` lists %d rows; the limit is %d", deps->entries.len, PROJECT_MAX_DEPS);
		m->deps = spx_xcalloc((size_t)(deps->entries.len ? deps->entries.len : 1), sizeof *m->deps);
		/* each finding at its entry's line (they had none) */
		bool unsorted = false;
		for (int i = 0; i < deps->entries.len; i++) {
			Entry *e = &deps->entries.items[i];
			if (!valid_dep_name(e->key)) {
				report_line(r, e->line, DIAG_J100, "dependency names are dotted lowercase package identities [a-z][a-z0-9._-]* of 1..=128 bytes; found `%s`", e->key);
				continue;
			}
			if (e->list || !valid_range(e->text)) {
				Diag *d = report_line(r, e->line, DIAG_J100, "dependency `%s` must be one range string such as \"^0.1.0\"", e->key);
				if (d)
					diag_set_help(d, "dependency `%s` admits only `=x.y.z`, `~x.y.z` or `^x.y.z` with canonical u32 components", e->key);
				continue;
			}
			if (m->ndeps > 0 && !unsorted && strcmp(m->deps[m->ndeps - 1].name, e->key) >= 0) {
				report_line(r, e->line, DIAG_J100, "dependencies must be strictly byte-sorted by name: `%s` comes after `%s`", e->key,
				    m->deps[m->ndeps - 1].name);
				unsorted = true;
			}
			ProjectDep *dp = &m->deps[m->ndeps++];
			dp->name = dup_n(e->key, strlen(e->key));
			dp->range = e->text;
			dp->line = e->line;
			e->text = NULL;
		}
	}
	if (tgt) {
		m->matrix = take_list(r, tgt, "targets", "matrix", &m->nmatrix, true);
		m->has_matrix = m->matrix != NULL;
		if (m->matrix) {
			if (m->nmatrix == 0)
				report_line(r, key_line(r, "targets", "matrix"), DIAG_J100, "`[targets] matrix` must name at least one target");
			for (int i = 0; i < m->nmatrix; i++)
				if (strcmp(m->matrix[i], "native64") != 0 && strcmp(m->matrix[i], "wasm32") != 0) {
					report_line(r, key_line(r, "targets", "matrix"), DIAG_J100, "`[targets] matrix` admits only \"native64\" and \"wasm32\"; found `%s`", m->matrix[i]);
					break;
				}
			if (!strictly_sorted(m->matrix, m->nmatrix))
				report_line(r, key_line(r, "targets", "matrix"), DIAG_J100, "`[targets] matrix` must be strictly byte-sorted and unique");
		}
	}
	read_registers(r, m, table(r, "registers"));
	validate_common(r, m);
}

bool
project_manifest_read(ProjectManifest *m, const char *src, size_t len, DiagSink *diags)
{
	memset(m, 0, sizeof *m);
	Reader r = {0};
	r.diags = diags;
	r.src = src;
	r.len = len;
	if (len > PROJECT_MAX_MANIFEST) {
		report(&r, DIAG_J101, "the manifest has %zu bytes; the limit is %u", len, PROJECT_MAX_MANIFEST);
		return false;
	}
	if (memchr(src, '\0', len)) {
		report(&r, DIAG_J100, "the manifest is not UTF-8 text (it contains a NUL byte)");
		return false;
	}
	size_t valid = utf8_validate((const unsigned char *)src, len);
	if (valid != len) {
		report(&r, DIAG_J100, "the manifest is not valid UTF-8 (at byte %zu)", valid);
		return false;
	}
	if (len >= 3 && memcmp(src, "\xEF\xBB\xBF", 3) == 0)
		src += 3, len -= 3;
	read_lines(&r, src, len);
	Entry *schema = entry(&r.tables.items[0], "schema");
	if (!r.failed) {
		if (!schema || schema->list)
			report(&r, DIAG_J100, "the manifest must start with `schema = \"semaprax.project.v1\"` or `schema = \"semaprax.manifest.v1\"`");
		else if (strcmp(schema->text, "semaprax.project.v1") == 0)
			read_frozen(&r, m);
		else if (strcmp(schema->text, "semaprax.manifest.v1") == 0)
			read_tables(&r, m);
		else
			report(&r, DIAG_J100, "manifest schema `%s` is neither `semaprax.project.v1` nor `semaprax.manifest.v1`", schema->text);
	}
	for (int i = 0; i < r.tables.len; i++) {
		Table *t = &r.tables.items[i];
		for (int j = 0; j < t->entries.len; j++)
			free_entry(&t->entries.items[j]);
		VEC_FREE(t->entries);
		free(t->name);
	}
	VEC_FREE(r.tables);
	return !r.failed;
}

static void
render_array(Buf *b, char **v, int n)
{
	buf_putc(b, '[');
	for (int i = 0; i < n; i++)
		buf_printf(b, "%s\"%s\"", i ? ", " : "", v[i]);
	buf_putc(b, ']');
}

void
project_manifest_render(const ProjectManifest *m, Buf *b)
{
	if (!m->tables) {
		buf_printf(b, "schema = \"semaprax.project.v1\"\nname = \"%s\"\nentry = \"%s\"\nsources = ", m->name, m->entry);
		render_array(b, m->sources, m->nsources);
		buf_puts(b, "\nweb_exports = ");
		render_array(b, m->web, m->nweb);
		buf_printf(b, "\ntests = [\"%s\"]\n", m->test_module);
		return;
	}
	buf_printf(b, "schema = \"semaprax.manifest.v1\"\n\n[package]\nname = \"%s\"\nversion = \"%s\"\n", m->name, m->version);
	if (m->profile)
		buf_printf(b, "profile = \"%s\"\n", m->profile);
	buf_printf(b, "\n[modules]\nentry = \"%s\"\nsources = ", m->entry);
	render_array(b, m->sources, m->nsources);
	buf_printf(b, "\ntests = [\"%s\"]\n\n[exports]\nweb = ", m->test_module);
	render_array(b, m->web, m->nweb);
	buf_putc(b, '\n');
	if (m->command) {
		buf_printf(b, "\n[command]\nfunction = \"%s\"\n", m->command);
		if (m->command_input)
			buf_printf(b, "input = \"%s\"\n", m->command_input);
	}
	if (m->has_capabilities && m->ncapabilities > 0) {
		buf_puts(b, "\n[capabilities]\nrequired = ");
		render_array(b, m->capabilities, m->ncapabilities);
		buf_putc(b, '\n');
	}
	if (m->ndeps > 0) {
		buf_puts(b, "\n[dependencies]\n");
		for (int i = 0; i < m->ndeps; i++)
			buf_printf(b, "%s = \"%s\"\n", m->deps[i].name, m->deps[i].range);
	}
	if (m->has_matrix) {
		buf_puts(b, "\n[targets]\nmatrix = ");
		render_array(b, m->matrix, m->nmatrix);
		buf_putc(b, '\n');
	}
	project_register_rows_render(m, b);
}

bool
project_manifest_canonical(const ProjectManifest *m, const char *src, size_t len, DiagSink *diags)
{
	Buf b = {0};
	project_manifest_render(m, &b);
	if (b.len == len && memcmp(b.data, src, len) == 0) {
		buf_free(&b);
		return true;
	}
	/* the first differing line, 1-based (a found line is shown up to 200
	 * bytes, then `…`) */
	const char *x = b.data, *xe = b.data + b.len, *y = src, *ye = src + len;
	int line = 1;
	Buf help = {0};
	for (;;) {
		const char *xn = x < xe ? memchr(x, '\n', (size_t)(xe - x)) : NULL;
		const char *yn = y < ye ? memchr(y, '\n', (size_t)(ye - y)) : NULL;
		bool xhas = x < xe, yhas = y < ye;
		size_t xl = xhas ? (size_t)((xn ? xn : xe) - x) : 0, yl = yhas ? (size_t)((yn ? yn : ye) - y) : 0;
		if (xhas && yhas && xl == yl && memcmp(x, y, xl) == 0 && (xn != NULL) == (yn != NULL)) {
			x = xn ? xn + 1 : xe;
			y = yn ? yn + 1 : ye;
			line++;
			continue;
		}
		size_t cut = yl;
		if (cut > 200) {
			cut = 200;
			while (cut > 0 && ((unsigned char)y[cut] & 0xC0) == 0x80)
				cut--;   /* never split a UTF-8 sequence */
		}
		const char *more = cut < yl ? "…" : "";
		if (line == 1 && yl >= 3 && memcmp(y, "\xEF\xBB\xBF", 3) == 0)
			/* shown, the line would read as the one expected: the mark is
			 * invisible (an editor's UTF-8 "with BOM"; qa40) */
			buf_puts(&help, "line 1: the manifest starts with an invisible UTF-8 byte-order mark (U+FEFF)");
		else if (xhas && yhas)
			buf_printf(&help, "line %d: expected `%.*s`, found `%.*s%s`", line, (int)xl, x, (int)cut, y, more);
		else if (xhas)
			buf_printf(&help, "line %d: expected `%.*s`", line, (int)xl, x);
		else if (yhas)
			buf_printf(&help, "line %d: expected the end of the manifest, found `%.*s%s`", line, (int)cut, y, more);
		else
			buf_puts(&help, "the manifest differs only in its final bytes");
		break;
	}
	/* the differing line of the manifest (its end when the manifest is short) */
	Span at = { (uint32_t)(y - src), (uint32_t)(y - src) };
	if (y < ye) {
		const char *yn = memchr(y, '\n', (size_t)(ye - y));
		at.end = (uint32_t)((yn ? yn : ye) - src);
	}
	Diag *d = diag_report(diags, DIAG_J100, &at, "%s manifest is not canonical", m->tables ? "the `semaprax.manifest.v1`" : "the `semaprax.project.v1`");
	/* the manifest as its project prints it (diags->shown), then where
	 * the command runs when that is not the working directory */
	const char *named = diag_shown_path(diags), *opened = diags->path;
	while (opened && opened[0] == '.' && opened[1] == '/')
		opened = opened + 2;
	if (d)
		diag_set_help(d, "%s; `semaprax fmt --manifest %s`%s rewrites it canonically", help.data, named ? named : "<toml>",
		    named && opened && strcmp(named, opened) != 0 ? " in the project directory" : "");
	buf_free(&help);
	buf_free(&b);
	return false;
}

static void
free_list(char **v, int n)
{
	for (int i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void
project_manifest_free(ProjectManifest *m)
{
	free(m->name);
	free(m->version);
	free(m->profile);
	free(m->entry);
	free(m->test_module);
	free_list(m->sources, m->nsources);
	free_list(m->web, m->nweb);
	free(m->command);
	free(m->command_input);
	free_list(m->capabilities, m->ncapabilities);
	for (int i = 0; i < m->ndeps; i++) {
		free(m->deps[i].name);
		free(m->deps[i].range);
	}
	free(m->deps);
	free_list(m->matrix, m->nmatrix);
	for (int i = 0; i < m->nregisters; i++)
		project_register_row_free(&m->registers[i]);
	free(m->registers);
	memset(m, 0, sizeof *m);
}
