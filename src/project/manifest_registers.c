/*
 * manifest_registers.c — the manifest's `[registers]` rows (our additive
 * extension of the table layout; docs/REGISTERS.md): one row per register
 * check `semaprax check` runs,
 *
 *   [registers]
 *   requirements = { file = "reqs.json", pattern = 'REQ-[0-9]+', severity = "error", uncited = true }
 *
 * A row is a one-line TOML inline table with exactly the four keys; `file`
 * and `severity` are plain strings without escapes, `pattern` a TOML literal
 * string (single quotes: a backslash is itself, there are no escapes and no
 * `'`), `uncited` a bare `true` or `false`.  The reader accepts the keys in
 * any order and a basic string for the pattern when it holds neither `\`
 * nor `"`; the canonical rendering writes them in the order above, so
 * anything else is the usual noncanonical SPX-J100.  Severity is checked by
 * the register check (SPX-J146), as `--severity` is.
 */
#include "manifest.h"

#include <stdio.h>
#include <string.h>

static const char *
skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* A quoted value at *pp: "…" without escapes, or '…' (literal) when
 * literal_ok; advances past it. */
static char *
quoted(const char **pp, bool literal_ok)
{
	const char *p = *pp;
	char q = *p;
	if (q != '"' && !(q == '\'' && literal_ok))
		return NULL;
	const char *e = ++p;
	while (*e && *e != q && !(q == '"' && *e == '\\'))
		e++;
	if (*e != q)
		return NULL;
	*pp = e + 1;
	return spx_xstrndup(p, (size_t)(e - p));
}

/* A row's register lies inside the project, as its sources do: a relative
 * path of non-empty components, none `.` or `..`, at most 240 bytes (the
 * read refuses one a symbolic link leads out of the project, J140). */
static bool
register_path_inside(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > 240 || s[0] == '/')
		return false;
	size_t start = 0;
	for (size_t i = 0; i <= n; i++) {
		if (s[i] != '/' && s[i] != '\0')
			continue;
		size_t len = i - start;
		if (len == 0 || (len == 1 && s[start] == '.') || (len == 2 && s[start] == '.' && s[start + 1] == '.'))
			return false;
		start = i + 1;
	}
	return true;
}

const char *
project_register_row_parse(const char *text, ProjectRegisterRow *out, bool *unknown_key, char *err, size_t errn)
{
	memset(out, 0, sizeof *out);
	*unknown_key = false;
	const char *p = skip_ws(text + 1);   /* past `{` */
	bool have_uncited = false;
	for (;;) {
		const char *k = p;
		while ((*p >= 'a' && *p <= 'z') || *p == '_' || *p == '-')
			p++;
		size_t kl = (size_t)(p - k);
		if (kl == 0)
			return "expected `key = value` inside `{ … }`";
		p = skip_ws(p);
		if (*p != '=')
			return "expected `=` after a key";
		p = skip_ws(p + 1);
		char **slot = NULL;
		bool literal = false;
		if (kl == 4 && memcmp(k, "file", 4) == 0)
			slot = &out->file;
		else if (kl == 7 && memcmp(k, "pattern", 7) == 0)
			slot = &out->pattern, literal = true;
		else if (kl == 8 && memcmp(k, "severity", 8) == 0)
			slot = &out->severity;
		if (slot) {
			if (*slot)
				return snprintf(err, errn, "key `%.*s` appears twice", (int)kl, k), err;
			*slot = quoted(&p, literal);
			if (!*slot)
				return snprintf(err, errn, "`%.*s` must be %s", (int)kl, k,
				    literal ? "a literal string '…' (or a plain string without escapes)" : "a plain string without escapes"), err;
		} else if (kl == 7 && memcmp(k, "uncited", 7) == 0) {
			if (have_uncited)
				return "key `uncited` appears twice";
			if (strncmp(p, "true", 4) == 0)
				out->uncited = true, p += 4;
			else if (strncmp(p, "false", 5) == 0)
				p += 5;
			else
				return "`uncited` must be `true` or `false`";
			have_uncited = true;
		} else {
			*unknown_key = true;
			return snprintf(err, errn, "a register row admits only `file`, `pattern`, `severity` and `uncited`; found `%.*s`", (int)kl, k), err;
		}
		p = skip_ws(p);
		if (*p == ',') {
			p = skip_ws(p + 1);
			continue;
		}
		if (*p == '}' && *skip_ws(p + 1) == '\0')
			break;
		return "expected `,` or a final `}` after a value (one line, nothing after it)";
	}
	if (!out->file || !out->pattern || !out->severity || !have_uncited)
		return "a register row requires `file`, `pattern`, `severity` and `uncited`";
	if (!*out->file)
		return "`file` must not be empty";
	if (!register_path_inside(out->file))
		return "`file` must be a relative path inside the project: no leading `/`, no empty, `.` or `..` component, at most 240 bytes";
	if (strchr(out->pattern, '\''))
		return "`pattern` cannot hold `'` (write `\\x27` in the pattern)";
	return NULL;
}

void
project_register_rows_render(const ProjectManifest *m, Buf *b)
{
	if (m->nregisters == 0)
		return;
	buf_puts(b, "\n[registers]\n");
	for (int i = 0; i < m->nregisters; i++) {
		const ProjectRegisterRow *r = &m->registers[i];
		buf_printf(b, "%s = { file = \"%s\", pattern = '%s', severity = \"%s\", uncited = %s }\n", r->name, r->file, r->pattern,
		    r->severity, r->uncited ? "true" : "false");
	}
}

void
project_register_row_free(ProjectRegisterRow *r)
{
	free(r->name);
	free(r->file);
	free(r->pattern);
	free(r->severity);
	memset(r, 0, sizeof *r);
}
