/*
 * cmd_web.c — `semaprax build <file|project> --target web [--export <id>…]
 * [--files <dir>] [-o <dir>]` (issue 13 item 3, issue 15): a package
 * directory: program.wasm, host.mjs, index.mjs (bindings keyed by stable
 * id), index.d.ts, package.json, index.html (a form per export) and, with
 * --files, files/.
 *
 * A file's exports are the --export ids (at least one); a project's are its
 * manifest's `[exports] web`, or the --export ids, each of which must be
 * one of those (W115 otherwise).  Each names a function with a scalar
 * signature (W115).  A project's package is one module of every module
 * (emit_wasm_project) on the route of the union of the modules' permits.
 *
 * --files DIR bundles the regular files below DIR (walked in byte order,
 * not following symbolic links) under files/: a page's program granted
 * fs.read reads them through the host, and only them (index.mjs lists
 * them; a path not listed is not found, status 2; they are fetched when
 * the module loads, not by synchronous requests).  Its directories are
 * listed too: reading one, an empty one too, is status 7 as in the other
 * lanes.  A symbolic link, FIFO or device below DIR, a name that is not
 * UTF-8 text (or holding `\` or `:`, which no program can name), more than
 * 4,096 files or 16 MiB together, or more than 4,096 directories is I001:
 * the package would not hold what the author sees.
 * Without --files a package has no files: every read is not found.
 * Output rules as for every build (I307, I301); nothing partial is left.
 */
#include "cli.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "../driver/route.h"
#include "../emit_wasm/emit_wasm.h"
#include "../project/project.h"
#include "../support/diag.h"
#include "../support/json.h"
#include "../support/utf8.h"

#define WEB_FILES_MAX 4096
#define WEB_BYTES_MAX ((uint64_t)16 << 20)   /* a page fetches them all when the module loads */

/* --files: the bundled tree */
typedef struct WebFiles {
	char **rel;     /* paths below the root, '/'-separated, in byte order */
	uint64_t *size; /* the size lstat reported for each: files_read reads exactly that */
	int n, cap;
	char **dirs;    /* the directories below the root (empty ones too), in walk order */
	int ndirs, dcap;
	uint64_t bytes; /* their sizes together */
} WebFiles;

static const char *
web_type(TypeId t)
{
	switch (t) {
	case T_I64: return "i64";
	case T_I32: return "i32";
	case T_U8: return "u8";
	case T_USIZE: return "usize";
	case T_BOOL: return "bool";
	case T_F64: return "f64";
	default: return "char";
	}
}

static const char *
web_ts(TypeId t)
{
	return t == T_I64 || t == T_USIZE ? "bigint" : t == T_BOOL ? "boolean" : t == T_CHAR ? "string" : "number";
}

/* index.d.ts names f's parameters by their source names when each is a
 * plain ASCII identifier TypeScript admits as a parameter name; else (a
 * reserved word) `a<i>`; then `_` is appended until a name differs from
 * every earlier parameter's.  Writes the `name: type` list into b. */
static void
web_ts_params(Buf *b, const HirFunc *f)
{
	static const char *const reserved[] = {
		"arguments", "await", "break", "case", "catch", "class", "const", "continue", "debugger", "default",
		"delete", "do", "else", "enum", "eval", "export", "extends", "false", "finally", "for", "function",
		"if", "implements", "import", "in", "instanceof", "interface", "let", "new", "null", "package",
		"private", "protected", "public", "return", "static", "super", "switch", "this", "throw", "true",
		"try", "typeof", "var", "void", "while", "with", "yield",
	};
	Buf names = {0};   /* the names chosen so far, each followed by NUL */
	for (int i = 0; i < f->nparams; i++) {
		const char *src = f->locals[i].name ? f->locals[i].name : "";
		bool ok = src[0] && !(src[0] >= '0' && src[0] <= '9');
		for (const char *p = src; ok && *p; p++)
			ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_';
		for (size_t r = 0; ok && r < sizeof reserved / sizeof reserved[0]; r++)
			ok = strcmp(src, reserved[r]) != 0;
		Buf name = {0};
		if (ok)
			buf_puts(&name, src);
		else
			buf_printf(&name, "a%d", i);
		for (bool dup = true; dup;) {
			dup = false;
			for (size_t at = 0; at < names.len && !dup; at += strlen(names.data + at) + 1)
				dup = strcmp(names.data + at, name.data) == 0;
			if (dup)
				buf_putc(&name, '_');
		}
		buf_put(&names, name.data, name.len + 1);
		TypeId t = f->locals[i].type;
		buf_printf(b, "%s%s: %s%s", i ? ", " : "", name.data, web_ts(t), strcmp(web_ts(t), "bigint") == 0 ? " | number" : "");
		buf_free(&name);
	}
	buf_free(&names);
}

/* A bidi or line-separator control, or a C1 control: it would reorder or
 * break the line it is shown in (or, raw in index.mjs, the line a reader
 * sees) without showing itself. */
static bool
web_unseen(uint32_t cp)
{
	return (cp >= 0x80 && cp < 0xA0) || diag_invisible_format(cp);
}

/* HTML text and attribute values: every byte outside [A-Za-z0-9 ._-] as an
 * entity, UTF-8 kept except an unseen character (web_unseen), which is its
 * numeric reference: the attribute's value is the same text.  visible: shown
 * text, where an unseen character is written `\u{…}` (doc --html's form). */
static void
html_esc_as(Buf *b, const char *s, bool visible)
{
	size_t n = strlen(s);
	for (size_t i = 0; i < n;) {
		unsigned char c = (unsigned char)s[i];
		uint32_t cp = c;
		int k = c >= 0x80 ? utf8_decode((const unsigned char *)s + i, n - i, &cp) : 1;
		if (k > 0 && c >= 0x80 && web_unseen(cp))
			buf_printf(b, visible ? "\\u{%x}" : "&#x%x;", (unsigned)cp);
		else if (k <= 0)
			buf_printf(b, "&#%u;", c);   /* not UTF-8 (never a verified name): each byte shown */
		else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == ' ' ||
		    c == '.' || c == '_' || c == '-' || c >= 0x80)
			buf_put(b, s + i, (size_t)k);
		else
			buf_printf(b, "&#%u;", c);
		i += k > 0 ? (size_t)k : 1;
	}
}

static void
html_esc(Buf *b, const char *s)
{
	html_esc_as(b, s, true);
}

/* A JS (and TS) string literal of s: its JSON string, with each unseen
 * character (web_unseen) written \uXXXX, the same value: raw, a bidi
 * control in index.mjs would reorder the generated source a reader sees. */
static void
js_str(Buf *b, const char *s)
{
	Buf t = {0};
	json_cstr(&t, s);
	for (size_t i = 0; i < t.len;) {
		uint32_t cp = (unsigned char)t.data[i];
		int k = cp >= 0x80 ? utf8_decode((const unsigned char *)t.data + i, t.len - i, &cp) : 1;
		if (k > 1 && web_unseen(cp))
			buf_printf(b, "\\u%04x", (unsigned)cp);
		else
			buf_put(b, t.data + i, k > 0 ? (size_t)k : 1);
		i += k > 0 ? (size_t)k : 1;
	}
	buf_free(&t);
}

/* index.mjs, index.d.ts, package.json and index.html of the package
 * exporting fs[0..n); its bundled files' paths (sorted) are files[0..nfiles). */
static void
web_texts(const HirFunc *const *fs, int n, const char *pkg, const char *version, const WebFiles *wf, bool bundled, Buf *mjs,
    Buf *dts, Buf *json, Buf *html)
{
	buf_puts(mjs, "// index.mjs: generated by `semaprax build --target web`.  The bindings are keyed by\n"
		      "// stable identity; each calls the module's export and resolves to its result, or rejects\n"
		      "// with a SemapraxFailure (status 70 contract, 71 checked arithmetic, 72 runtime, 73 other).\n"
		      "// A program granted fs.read reads the files bundled under files/ (`--files`), and only\n"
		      "// those: a path not listed below is not found (filesystem.v1 code 2), a directory of\n"
		      "// the tree (an empty one too) code 7.  They are fetched (read, under Node) when the module loads, so that the\n"
		      "// module's synchronous reads are lookups.\n"
		      "import { loadModule, SemapraxFailure } from './host.mjs';\n\n"
		      "export { SemapraxFailure };\n\n"
		      "const wasm = new URL('./program.wasm', import.meta.url);\n"
		      "const root = new URL('./files/', import.meta.url);\n"
		      "const files = [");
	for (int i = 0; i < wf->n; i++) {
		buf_puts(mjs, i ? ", " : "");
		js_str(mjs, wf->rel[i]);
	}
	buf_puts(mjs, "];\n"
		      "const dirs = new Set([");
	for (int i = 0; i < wf->ndirs; i++) {
		buf_puts(mjs, i ? ", " : "");
		js_str(mjs, wf->dirs[i]);
	}
	buf_puts(mjs, "]);\n"
		      "const node = wasm.protocol === 'file:';\n"
		      "const FILE_MAX = 65536;\n"
		      "async function fetchBytes(url) {\n"
		      "\tif (node) {\n"
		      "\t\tconst { readFile } = await import('node:fs/promises');\n"
		      "\t\treturn new Uint8Array(await readFile(url));\n"
		      "\t}\n"
		      "\tconst r = await fetch(url);\n"
		      "\tif (!r.ok) throw Object.assign(new Error(`cannot load ${url}: ${r.status}`), { http: r.status });\n"
		      "\treturn new Uint8Array(await r.arrayBuffer());\n"
		      "}\n"
		      "// path -> { data } or { status } of semaprax.filesystem.v1\n"
		      "async function bundled() {\n"
		      "\tconst got = new Map();\n"
		      "\tawait Promise.all(files.map(async (f) => {\n"
		      "\t\ttry {\n"
		      "\t\t\tconst data = await fetchBytes(new URL(f.split('/').map(encodeURIComponent).join('/'), root));\n"
		      "\t\t\tgot.set(f, data.length > FILE_MAX ? { status: 4 } : { data });\n"
		      "\t\t} catch (e) {\n"
		      "\t\t\tconst why = e.http ?? e.code;\n"
		      "\t\t\tgot.set(f, { status: why === 404 || why === 'ENOENT' ? 2 : why === 403 || why === 'EACCES' ? 6 : 5 });\n"
		      "\t\t}\n"
		      "\t}));\n"
		      "\treturn got;\n"
		      "}\n"
		      "function reader(got) {\n"
		      "\treturn (pathBytes) => {\n"
		      "\t\tlet path;\n"
		      "\t\ttry {\n"
		      "\t\t\tpath = new TextDecoder('utf-8', { fatal: true }).decode(pathBytes);\n"
		      "\t\t} catch {\n"
		      "\t\t\treturn { status: 2 };\n"
		      "\t\t}\n"
		      "\t\treturn got.get(path) ?? { status: dirs.has(path) ? 7 : 2 };\n"
		      "\t};\n"
		      "}\n"
		      "let loaded;\n"
		      "function module() {\n"
		      "\tif (!loaded)\n"
		      "\t\tloaded = Promise.all([fetchBytes(wasm), bundled()]).then(([b, got]) => loadModule(b, { readFile: reader(got) }));\n"
		      "\treturn loaded;\n"
		      "}\n\n"
		      "export const bindings = Object.freeze({\n");
	buf_puts(dts, "// index.d.ts: generated by `semaprax build --target web`.\n"
		      "export declare class SemapraxFailure extends Error {\n"
		      "\treadonly status: number;\n"
		      "}\n\n"
		      "export declare const bindings: {\n");
	buf_puts(html, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
	html_esc(html, pkg);
	/* no favicon request (a 404 in the console); a failure report's lines kept apart */
	buf_puts(html, "</title>\n<link rel=\"icon\" href=\"data:,\">\n"
		       "<style>output { display: block; white-space: pre-wrap; }</style>\n"
		       "</head>\n<body>\n<h1>");
	html_esc(html, pkg);
	buf_puts(html, "</h1>\n");
	for (int k = 0; k < n; k++) {
		const HirFunc *f = fs[k];
		Buf name = {0}, sig = {0};
		emitw_export_name(&name, f->id);
		buf_putc(&sig, '[');
		for (int i = 0; i < f->nparams; i++)
			buf_printf(&sig, "'%s', ", web_type(f->locals[i].type));
		buf_printf(&sig, "'%s']", web_type(f->result));
		/* `"__proto__": v` in an object literal sets the prototype (no binding, an empty
		 * key list); the computed `["__proto__"]: v` is an own property like any other key */
		bool proto = strcmp(f->id, "__proto__") == 0;
		buf_puts(mjs, proto ? "\t[" : "\t");
		js_str(mjs, f->id);
		buf_puts(mjs, proto ? "]: async (...args) => (await module()).call(" : ": async (...args) => (await module()).call(");
		json_cstr(mjs, name.data);
		buf_printf(mjs, ", %s, args),\n", sig.data);
		buf_putc(dts, '\t');
		buf_puts(dts, "readonly ");
		js_str(dts, f->id);
		buf_puts(dts, ": (");
		web_ts_params(dts, f);
		buf_printf(dts, ") => Promise<%s>;\n", web_ts(f->result));
		buf_puts(html, "<form data-id=\"");
		html_esc_as(html, f->id, false);
		buf_puts(html, "\">\n<fieldset>\n<legend><code>");
		html_esc(html, f->id);
		buf_puts(html, "</code> ");
		html_esc(html, f->name);
		buf_puts(html, "</legend>\n");
		for (int i = 0; i < f->nparams; i++) {
			TypeId t = f->locals[i].type;
			buf_puts(html, "<label>");
			html_esc(html, f->locals[i].name);
			buf_printf(html, " (%s) ", web_type(t));
			if (t == T_BOOL)
				buf_puts(html, "<input type=\"checkbox\" data-type=\"bool\">");
			else if (t == T_F64)
				buf_puts(html, "<input type=\"number\" step=\"any\" required data-type=\"f64\">");
			else if (t == T_CHAR)
				buf_puts(html, "<input type=\"text\" required maxlength=\"2\" data-type=\"char\">");
			else
				buf_printf(html, "<input type=\"text\" inputmode=\"numeric\" pattern=\"-?[0-9]+\" required data-type=\"%s\">",
					   web_type(t));
			buf_puts(html, "</label>\n");
		}
		buf_puts(html, "<button type=\"submit\">call</button>\n<output></output>\n</fieldset>\n</form>\n");
		buf_free(&name);
		buf_free(&sig);
	}
	buf_puts(mjs, "});\n\nexport default bindings;\n");
	buf_puts(dts, "};\n\nexport default bindings;\n");
	buf_puts(html, "<script type=\"module\">\n"
		       "import { bindings } from './index.mjs';\n"
		       "const value = (input) => {\n"
		       "\tswitch (input.dataset.type) {\n"
		       "\tcase 'bool': return input.checked;\n"
		       "\tcase 'f64': return Number(input.value);\n"
		       "\tcase 'char': return input.value;\n"
		       "\tdefault: return BigInt(input.value);\n"
		       "\t}\n"
		       "};\n"
		       "for (const form of document.querySelectorAll('form[data-id]')) {\n"
		       "\tform.addEventListener('submit', async (ev) => {\n"
		       "\t\tev.preventDefault();\n"
		       "\t\tconst out = form.querySelector('output');\n"
		       "\t\ttry {\n"
		       "\t\t\tconst args = [...form.querySelectorAll('input')].map(value);\n"
		       "\t\t\tout.textContent = String(await bindings[form.dataset.id](...args));\n"
		       "\t\t\tout.dataset.status = 'ok';\n"
		       "\t\t} catch (e) {\n"
		       "\t\t\tout.textContent = e.status !== undefined ? `failed with status ${e.status}: ${e.message}` : String(e);\n"
		       "\t\t\tout.dataset.status = e.status !== undefined ? String(e.status) : 'error';\n"
		       "\t\t}\n"
		       "\t});\n"
		       "}\n"
		       "</script>\n</body>\n</html>\n");
	buf_puts(json, "{\n  \"name\": ");
	json_cstr(json, pkg);
	buf_puts(json, ",\n  \"version\": ");
	json_cstr(json, version);
	buf_puts(json, ",\n  \"private\": true,\n  \"type\": \"module\",\n"
		       "  \"main\": \"./index.mjs\",\n  \"types\": \"./index.d.ts\",\n"
		       "  \"exports\": {\n    \".\": {\n      \"types\": \"./index.d.ts\",\n      \"default\": \"./index.mjs\"\n    }\n  },\n"
		       "  \"files\": [");
	buf_puts(json, bundled ? "\"files\", " : "");
	buf_puts(json, "\"host.mjs\", \"index.d.ts\", \"index.html\", \"index.mjs\", \"program.wasm\"]\n}\n");
}

/* The npm name: the output directory's last component, lowercased, bytes
 * outside [a-z0-9._-] as `-`. */
static char *
web_pkg_name(const char *out)
{
	size_t n = strlen(out);
	while (n > 1 && out[n - 1] == '/')
		n--;
	size_t b = n;
	while (b > 0 && out[b - 1] != '/')
		b--;
	char *s = spx_xmalloc(n - b + 4);
	size_t k = 0;
	for (size_t i = b; i < n; i++) {
		char c = out[i];
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		bool keep = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (k && (c == '.' || c == '_' || c == '-'));
		s[k++] = keep ? c : '-';
	}
	if (k == 0)
		s[k++] = 'x';
	s[k] = '\0';
	return s;
}


/* The functions exports[k] names: W115 when it names none (in any of the
 * nmods modules), names one twice, or takes or returns a value that is not
 * a scalar.  fs[k], mods[k] (its module).  False after a report into s. */
static bool
web_exports(HirModule *const *hs, int nmods, DiagSink *s, char **ids, int nids, const HirFunc **fs, int *mods, int *fidx)
{
	bool ok = true;
	for (int k = 0; k < nids; k++) {
		fs[k] = NULL;
		for (int m = 0; m < nmods && !fs[k]; m++)
			for (int i = 0; i < hs[m]->nfuncs && !fs[k]; i++)
				if (hs[m]->funcs[i].sym >= 0 && hs[m]->funcs[i].id && strcmp(hs[m]->funcs[i].id, ids[k]) == 0) {
					fs[k] = &hs[m]->funcs[i];
					mods[k] = m;
					fidx[k] = i;
				}
		bool twice = false;
		for (int j = 0; j < k && fs[k] && !twice; j++)
			twice = fs[j] == fs[k];
		if (twice) {
			cli_build_report(s, DIAG_W115, "web export identity `%s` is selected twice", ids[k]);
			ok = false;
			continue;
		}
		if (!fs[k]) {
			cli_build_report(s, DIAG_W115, "web export identity `%s` does not name a function of the %s", ids[k],
					 nmods > 1 ? "project" : "module");
			ok = false;
			continue;
		}
		bool scalar = emitw_web_scalar(fs[k]->result);
		for (int i = 0; i < fs[k]->nparams; i++)
			scalar = scalar && emitw_web_scalar(fs[k]->locals[i].type);
		if (!scalar) {
			/* a single file's sink holds its source: point at the function's name */
			const Span *at = nmods == 1 && fs[k]->sym >= 0 ? &sema_sym(hs[mods[k]]->S, fs[k]->sym)->name_span : NULL;
			Diag *x = diag_report(s, DIAG_W115, at, "`%s` (`%s`) takes or returns a value that is not a scalar", ids[k],
					      fs[k]->name);
			diag_set_help(x, "export a wrapper taking and returning scalars (i64, i32, u8, usize, bool, f64, char)");
			ok = false;
		}
	}
	return ok;
}

/* ---- --files: the bundled tree ---- */


static int
cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Collects the regular files below dir/rel (rel "" at the top) into f; false
 * after I001 into s. */
/* A --files problem's help (I001's own, "pass a readable UTF-8 .spx file",
 * is about the program): false, for the caller's && chain. */
static bool
files_help(DiagSink *s)
{
	if (s->items.len)
		diag_set_help(&s->items.items[s->items.len - 1],
		    "--files takes a readable directory of regular files (at most 4,096, 16 MiB together) whose names are UTF-8 without `\\` or `:`; rename, move or remove what this names");
	return false;
}

static bool
files_walk(DiagSink *s, const char *dir, const char *rel, WebFiles *f, int depth)
{
	Buf at = {0};
	buf_printf(&at, "%s%s%s", dir, rel[0] ? "/" : "", rel);
	DIR *d = opendir(at.data);
	if (!d) {
		cli_build_report(s, DIAG_I001, "cannot read the --files directory `%s`: %s", at.data, strerror(errno));
		buf_free(&at);
		return false;
	}
	buf_free(&at);
	char **names = NULL;
	int n = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			names = spx_xrealloc(names, sizeof *names * (size_t)cap);
		}
		names[n++] = spx_xstrdup(e->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, (size_t)n, sizeof *names, cmp_name);
	bool ok = true;
	for (int i = 0; i < n && ok; i++) {
		Buf sb = {0}, pb = {0};
		buf_printf(&sb, "%s%s%s", rel, rel[0] ? "/" : "", names[i]);
		buf_printf(&pb, "%s/%s", dir, sb.data);
		const char *sub = sb.data, *path = pb.data;
		struct stat st;
		size_t nl = strlen(names[i]);
		if (utf8_validate((const unsigned char *)names[i], nl) != nl || strchr(names[i], '\\') || strchr(names[i], ':')) {
			cli_build_report(s, DIAG_I001, "`%s`: a bundled file's name is UTF-8 text without `\\` or `:` (a program could not name it)", path);
			ok = false;
		} else if (lstat(path, &st) != 0) {
			cli_build_report(s, DIAG_I001, "cannot read `%s`: %s", path, strerror(errno));
			ok = false;
		} else if (S_ISDIR(st.st_mode)) {
			if (depth >= 64) {
				cli_build_report(s, DIAG_I001, "`%s` is nested more than 64 directories deep", path);
				ok = false;
			} else if (f->ndirs >= WEB_FILES_MAX) {
				cli_build_report(s, DIAG_I001, "the --files tree holds more than %d directories (index.mjs lists them all)",
						 WEB_FILES_MAX);
				ok = false;
			} else {
				/* listed, so that reading one (an empty one too) is status 7 as in the other lanes */
				if (f->ndirs == f->dcap) {
					f->dcap = f->dcap ? 2 * f->dcap : 16;
					f->dirs = spx_xrealloc(f->dirs, sizeof *f->dirs * (size_t)f->dcap);
				}
				f->dirs[f->ndirs++] = spx_xstrdup(sub);
				ok = files_walk(s, dir, sub, f, depth + 1);
			}
		} else if (!S_ISREG(st.st_mode)) {
			cli_build_report(s, DIAG_I001, "`%s` is %s; a web package bundles regular files only (copy what it names into the tree)", path,
					 S_ISLNK(st.st_mode) ? "a symbolic link" : "not a regular file");
			ok = false;
		} else if (f->n >= WEB_FILES_MAX || (f->bytes += (uint64_t)st.st_size) > WEB_BYTES_MAX) {
			cli_build_report(s, DIAG_I001, "the --files tree holds more than %d files or 16 MiB together (a page loads them all)",
					 WEB_FILES_MAX);
			ok = false;
		} else {
			if (f->n == f->cap) {
				f->cap = f->cap ? 2 * f->cap : 16;
				f->rel = spx_xrealloc(f->rel, sizeof *f->rel * (size_t)f->cap);
				f->size = spx_xrealloc(f->size, sizeof *f->size * (size_t)f->cap);
			}
			f->size[f->n] = (uint64_t)st.st_size;
			f->rel[f->n++] = spx_xstrdup(sub);
		}
		buf_free(&sb);
		buf_free(&pb);
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return ok;
}

/* The bytes of dir/rel, which must be exactly the size bytes the walk saw
 * (the 16 MiB bound is checked on those sizes: a file that grew since, or a
 * pseudo-file whose size is not its length, e.g. under /proc, is I001
 * rather than read without bound).  Opened without following a final
 * symbolic link and without blocking (a FIFO put in its place is refused,
 * not waited on).  False after I001. */
static bool
files_read(DiagSink *s, const char *dir, const char *rel, uint64_t size, Buf *out)
{
	Buf pb = {0};
	buf_printf(&pb, "%s/%s", dir, rel);
	const char *path = pb.data;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		cli_build_report(s, DIAG_I001, "cannot read `%s`: %s", path, fd < 0 ? strerror(errno) : "not a regular file");
		if (fd >= 0)
			close(fd);
		buf_free(&pb);
		return false;
	}
	char b[65536];
	uint64_t got = 0;
	while (got <= size) {
		/* at most one byte past the expected size, to see that there is more */
		size_t want = size - got >= sizeof b ? sizeof b : (size_t)(size - got) + 1;
		ssize_t r = read(fd, b, want);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			cli_build_report(s, DIAG_I001, "cannot read `%s`: %s", path, strerror(errno));
			close(fd);
			buf_free(&pb);
			return false;
		}
		if (r == 0)
			break;
		got += (uint64_t)r;
		if (got <= size)
			buf_put(out, b, (size_t)r);
	}
	close(fd);
	if (got != size) {
		cli_build_report(s, DIAG_I001, "`%s` does not hold the %llu bytes its size reported when the tree was listed (it changed, "
				 "or it is not an ordinary file); a web package bundles files as they were checked", path, (unsigned long long)size);
		buf_free(&pb);
		return false;
	}
	buf_free(&pb);
	return true;
}

/* ---- the package ---- */

/* Removes what write_package created (in reverse). */
static void
unwind(char **made, int n)
{
	for (int i = n - 1; i >= 0; i--) {
		if (unlink(made[i]) != 0)
			rmdir(made[i]);
		free(made[i]);
	}
}

/* Creates out with the six texts and the bundled files; nothing is left
 * behind on failure. */
static bool
write_package(DiagSink *s, const char *out, Buf data[6], const char *files_dir, const WebFiles *wf)
{
	static const char *const names[] = { "program.wasm", "host.mjs", "index.mjs", "index.d.ts", "package.json", "index.html" };
	if (mkdir(out, 0755) != 0) {
		if (errno == EEXIST)
			cli_build_report(s, DIAG_I307, "output path `%s` already exists; refusing to overwrite it", out);
		else
			cli_build_report(s, DIAG_I101, "cannot create `%s`: %s", out, strerror(errno));
		return false;
	}
	int cap = 8 + 2 * wf->n, n = 0;
	char **made = spx_xmalloc(sizeof *made * (size_t)cap);
	bool ok = true;
	for (int k = 0; k < 6 && ok; k++) {
		Buf p = {0};
		buf_printf(&p, "%s/%s", out, names[k]);
		ok = cli_write_new(s, p.data, &data[k]);
		if (ok)
			made[n++] = buf_take(&p);
		buf_free(&p);
	}
	if (ok && files_dir) {
		Buf p = {0};
		buf_printf(&p, "%s/files", out);
		ok = mkdir(p.data, 0755) == 0;
		if (!ok)
			cli_build_report(s, DIAG_I101, "cannot create `%s`: %s", p.data, strerror(errno));
		else
			made[n++] = buf_take(&p);
		buf_free(&p);
	}
	for (int i = 0; ok && files_dir && i < wf->n; i++) {
		/* the directories on the way, then the file */
		for (char *sl = strchr(wf->rel[i], '/'); ok && sl; sl = strchr(sl + 1, '/')) {
			Buf p = {0};
			buf_printf(&p, "%s/files/%.*s", out, (int)(sl - wf->rel[i]), wf->rel[i]);
			if (mkdir(p.data, 0755) == 0) {
				if (n == cap)
					made = spx_xrealloc(made, sizeof *made * (size_t)(cap *= 2));
				made[n++] = buf_take(&p);
			} else if (errno != EEXIST) {
				cli_build_report(s, DIAG_I101, "cannot create `%s`: %s", p.data, strerror(errno));
				ok = false;
			}
			buf_free(&p);
		}
		Buf bytes = {0}, p = {0};
		ok = ok && files_read(s, files_dir, wf->rel[i], wf->size[i], &bytes);
		buf_printf(&p, "%s/files/%s", out, wf->rel[i]);
		if (ok && (ok = cli_write_new(s, p.data, &bytes))) {
			if (n == cap)
				made = spx_xrealloc(made, sizeof *made * (size_t)(cap *= 2));
			made[n++] = buf_take(&p);
		}
		buf_free(&p);
		buf_free(&bytes);
	}
	if (!ok) {
		unwind(made, n);
		rmdir(out);
	} else {
		for (int i = 0; i < n; i++)
			free(made[i]);
	}
	free(made);
	return ok;
}

int
cli_build_web(const char *path, const char *manifest, const char *out, char **ids, int nids, const char *files_dir, bool json)
{
	Program P;
	Session *L = NULL;
	Project pj;
	DiagSink *d;
	HirGrants host;
	memset(&host, 0, sizeof host);
	int nmods = 1;
	HirModule **hs = NULL;
	char *deflt = NULL;
	bool ok;
	if (manifest) {
		ok = project_check(&pj, manifest) && project_lower(&pj) && cli_project_admit(&pj, &host);
		d = &pj.diags;
		if (ok) {
			nmods = pj.P.nmods;
			hs = spx_xmalloc(sizeof *hs * (size_t)nmods);
			for (int i = 0; i < nmods; i++)
				hs[i] = pj.P.mods[i]->s.H;
			if (!nids) {
				ids = pj.man.web;
				nids = pj.man.nweb;
			}
			for (int k = 0; k < nids && ids != pj.man.web; k++) {
				bool listed = false;
				for (int j = 0; j < pj.man.nweb && !listed; j++)
					listed = strcmp(pj.man.web[j], ids[k]) == 0;
				if (!listed) {
					Diag *x = diag_report(d, DIAG_W115, NULL, "web export identity `%s` is not among the project's web exports", ids[k]);
					diag_set_help(x, "add it to `[exports] web` in semaprax.toml, or export only the ids listed there");
					ok = false;
				}
			}
			if (ok && nids == 0) {
				Diag *x = diag_report(d, DIAG_W115, NULL, "the project has no web exports to package");
				diag_set_help(x, "list functions in `[exports] web` of semaprax.toml, or name them with `--export <stable-id>`");
				ok = false;
			}
			if (!out) {
				char *dir = spx_xstrdup(manifest);
				char *slash = strrchr(dir, '/');
				if (slash)
					*slash = '\0';
				size_t n = strlen(dir) + strlen(pj.man.name) + 8;
				deflt = spx_xmalloc(n);
				snprintf(deflt, n, "%s/%s.web", slash ? dir : ".", pj.man.name);
				free(dir);
				out = deflt;
			}
		}
	} else {
		ok = driver_program_load_file(&P, path, &L, SESSION_VERIFY) && L->H;
		d = &L->diags;
		if (ok) {
			hs = spx_xmalloc(sizeof *hs);
			hs[0] = L->H;
		}
	}
	const HirFunc **fs = spx_xcalloc((size_t)nids + 1, sizeof *fs);
	int *mods = spx_xcalloc((size_t)nids + 1, sizeof *mods), *fidx = spx_xcalloc((size_t)nids + 1, sizeof *fidx);
	WebFiles wf = {0};
	Buf data[6] = { {0} };
	ok = ok && cli_check_output(d, out) && web_exports(hs, nmods, d, ids, nids, fs, mods, fidx) &&
	     (!files_dir || files_walk(d, files_dir, "", &wf, 0) || files_help(d));
	if (ok && manifest) {
		ModuleId entry = driver_program_find(&pj.P, pj.man.entry);
		int mainf = entry != DRIVER_NO_MODULE ? hir_find_main(pj.P.mods[entry]->s.H) : -1;
		if (mainf < 0) {
			Diag *x = diag_report(d, DIAG_F102, NULL, "the entry module `%s` has no `main`", pj.man.entry);
			diag_set_help(x, "define `fn main() -> i64` in the entry module");
			ok = false;
		}
		ok = ok && cli_project_wasm_web(&pj, &host, entry, mainf, fidx, mods, nids, &data[0]);
	} else if (ok) {
		/* the instances reachable from main (validated by driver_mono); when an
		 * export is not among them, reachable from main and every export
		 * (hir_validate_mono checks a main-rooted list, so, as a project's,
		 * that one is not run by it) */
		int *roots = spx_xmalloc(sizeof *roots * ((size_t)nids + 1));
		int nr = 0, mf = hir_find_main(L->H);
		if (mf >= 0)
			roots[nr++] = mf;
		for (int k = 0; k < nids; k++)
			roots[nr++] = fidx[k];
		WasmOptions wo = { .host = &host, .exports = fidx, .nexports = nids };
		ok = (driver_route(L->H->S, &host), driver_admit(L->H, &host, d)) && driver_mono(L);
		bool all = true;
		for (int k = 0; ok && k < nids; k++)
			all = all && L->H->mono->func_inst[fidx[k]] >= 0;
		if (ok && !all) {
			L->H->mono = NULL;   /* (arena memory of the HIR) */
			ok = hir_mono_roots(L->H, roots, nr, d);
		}
		free(roots);
		ok = ok && emit_wasm(L->H, &wo, &data[0], d);
	}
	if (ok) {
		buf_puts(&data[1], emitw_host_mjs);
		char *pkg = manifest ? spx_xstrdup(pj.man.name) : web_pkg_name(out);
		/* a project's package carries its [package] version (the frozen layout and a file have none: 0.0.0) */
		web_texts(fs, nids, pkg, manifest && pj.man.version ? pj.man.version : "0.0.0", &wf, files_dir != NULL, &data[2], &data[3], &data[4], &data[5]);
		free(pkg);
		ok = write_package(d, out, data, files_dir, &wf);
	}
	for (int k = 0; k < 6; k++)
		buf_free(&data[k]);
	for (int i = 0; i < wf.n; i++)
		free(wf.rel[i]);
	free(wf.rel);
	free(wf.size);
	for (int i = 0; i < wf.ndirs; i++)
		free(wf.dirs[i]);
	free(wf.dirs);
	free(fs);
	free(mods);
	free(fidx);
	free(hs);
	if (manifest) {
		project_emit_diags(&pj, json);
		if (ok)
			cli_print_built(json, "web", "project web package", out);
		project_free(&pj);
	} else {
		diag_emit_all(d, json);
		if (ok)
			cli_print_built(json, "web", "web package", out);
		cli_unload(&P);
	}
	free(deflt);
	fflush(stdout);
	return ok ? EXIT_OK : EXIT_FAIL;
}
