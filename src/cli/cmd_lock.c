/*
 * cmd_lock.c — `semaprax lock [<dir>|semaprax.toml|--manifest-path <p>]
 * [--write|--verify|--compare <base.lock>]` (TOOLCHAIN.md §1.2; issue 15
 * item 6; the format is ours: docs/LOCK.md, docs/DECISIONS.md "Project lock").
 *
 * The lock of a project that checks is one deterministic text, rendered
 * from the manifest and the checked Program (ModuleId order, exports by
 * stable id bytewise; no hash table is iterated):
 *
 *   schema semaprax.lock.v1
 *   project <name> <version|->
 *   manifest <sha256:manifest bytes>
 *   revision <program revision>
 *   target <native64|wasm32>                 (the [targets] matrix, else both)
 *   module <name> <manifest source path> <sha256:source bytes> <module revision>
 *   capability <module> <permit>             (each module's permits, sorted)
 *   export <module> <kind> <stable-id> <canonical header>
 *   interface <sha256:…>                     (over the export lines)
 *
 * No mode prints it on stdout.  --write replaces `semaprax.lock` beside the
 * manifest atomically (fmt_write.c when it exists, else a staged sibling
 * renamed into place) and prints `wrote <path>` (or `<path> is up to
 * date`).  --verify compares the file with the rendering: equal → `<path>
 * is up to date`, exit 0; missing or different → SPX-J130 naming the first
 * differing line, exit 1.  --compare <base.lock> compares the exported
 * declarations by (module, stable id): each one the base has that is gone
 * or whose kind or header changed is an SPX-J131 (exit 1); additions are
 * compatible (`interface compatible with <base>: N added`, exit 0).  A base
 * that is not a v1 lock is SPX-J132.  --emit-interface prints the interface
 * projection alone as JSON (`semaprax.lock-interface.v1`); --compare-interface
 * <json> compares against such a document as --compare does.
 */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../fmt/fmt.h"
#include "../project/project.h"
#include "../sema/sema.h"
#include "../support/json.h"
#include "../support/sha256.h"
#include "fmt_write.h"

/* before, path (a control byte as \xNN, as in diagnostics), after, a newline. */
static void
say_path(const char *before, const char *path, const char *after)
{
	fputs(before, stdout);
	cli_put_visible(stdout, path);
	fputs(after, stdout);
	putchar('\n');
}

#define LOCK_GRAMMAR "lock takes [<dir>|semaprax.toml|--manifest-path <p>] [--write|--verify|--compare <base.lock>|--emit-interface|--compare-interface <json>]"
#define LOCK_SCHEMA "schema semaprax.lock.v1"

enum { LOCK_PRINT, LOCK_WRITE, LOCK_VERIFY, LOCK_COMPARE, LOCK_EMIT_INTERFACE, LOCK_COMPARE_INTERFACE };

static const char *
kind_name(SymKind k)
{
	switch (k) {
	case SK_FN: return "function";
	case SK_RECORD: return "record";
	case SK_VARIANT: return "variant";
	case SK_CLASS: return "class";
	case SK_RESOURCE: return "resource";
	case SK_INTERFACE: return "interface";
	default: return NULL;
	}
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
cmp_sym_id(const void *a, const void *b)
{
	return strcmp((*(const Sym *const *)a)->id, (*(const Sym *const *)b)->id);
}

/* The manifest's spelling of a module's source path. */
static const char *
source_of(const Project *pj, const ProgModule *pm)
{
	return project_spelled_path(pj, pm->s.diags.path);
}

static void
dotted(Buf *b, const QName *q)
{
	for (int i = 0; i < q->nparts; i++) {
		if (i)
			buf_putc(b, '.');
		buf_puts(b, q->parts[i].s);
	}
}

static void
fields(Buf *b, Sema *S, const FieldSym *f, int n)
{
	for (int k = 0; k < n; k++)
		buf_printf(b, "%s%s: %s", k ? ", " : " { ", f[k].name, sema_type_name(S, f[k].type));
	if (n)
		buf_puts(b, " }");
}

/* A type's members after its header (the one-line header names none):
 * ` { x: i64, y: i64 }` for records and classes, ` { Circle { r: f64 },
 * Empty }` for variants; each is part of what an importer relies on. */
static void
members(Buf *b, Sema *S, const Sym *y)
{
	if (y->kind == SK_RECORD || y->kind == SK_CLASS) {
		fields(b, S, y->nom->fields, y->nom->nfields);
	} else if (y->kind == SK_VARIANT) {
		for (int k = 0; k < y->nom->ncases; k++) {
			buf_printf(b, "%s%s", k ? ", " : " { ", y->nom->cases[k].name);
			fields(b, S, y->nom->cases[k].fields, y->nom->cases[k].nfields);
		}
		if (y->nom->ncases)
			buf_puts(b, " }");
	}
}

/*
 * A stable id in an `export` line: any byte but NUL may stand in an id (as
 * the reference), but the line's fields are space-separated, so a space, a
 * control byte, DEL and `\` are written `\xNN` (an id with a space or a
 * newline split the record: the rest of the id read as the header).  Ids
 * without them, nearly all, are written as they are.
 */
static void
lock_put_id(Buf *b, const char *id)
{
	for (const unsigned char *p = (const unsigned char *)id; *p; p++) {
		if (*p <= 0x20 || *p == 0x7F || *p == '\\')
			buf_printf(b, "\\x%02x", *p);
		else
			buf_putc(b, (char)*p);
	}
}

static int
hex_digit(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* The id an export line's field spells (lock_put_id undone), malloc'd. */
static char *
lock_id_text(const char *field)
{
	size_t n = strlen(field);
	char *t = spx_xmalloc(n + 1), *w = t;
	for (size_t i = 0; i < n; i++) {
		int hi, lo;
		if (field[i] == '\\' && i + 3 < n + 1 && field[i + 1] == 'x' && (hi = hex_digit(field[i + 2])) >= 0 &&
		    (lo = hex_digit(field[i + 3])) >= 0 && (hi || lo)) {
			*w++ = (char)(hi * 16 + lo);
			i += 3;
		} else {
			*w++ = field[i];
		}
	}
	*w = '\0';
	return t;
}

/* One module's exports: its own explicitly identified top-level functions
 * and types (what `use function`/`use type` can name), by stable id. */
static void
render_exports(Buf *out, Sha256 *iface, const ProgModule *pm)
{
	Sema *S = pm->s.S;
	const Sym **xs = spx_xcalloc((size_t)S->syms.len + 1, sizeof *xs);
	size_t n = 0;
	for (int i = 0; i < S->syms.len; i++) {
		const Sym *y = &S->syms.items[i];
		if (y->prelude || y->origin || !y->explicit_id || !y->decl || !kind_name(y->kind))
			continue;
		xs[n++] = y;
	}
	qsort(xs, n, sizeof *xs, cmp_sym_id);
	for (size_t i = 0; i < n; i++) {
		Buf line = {0};
		buf_printf(&line, "export %s %s ", pm->name, kind_name(xs[i]->kind));
		lock_put_id(&line, xs[i]->id);
		buf_putc(&line, ' ');
		fmt_decl_header(&line, xs[i]->decl);
		members(&line, S, xs[i]);
		/* a header is one line; never let a newline split the record */
		for (size_t k = 0; k < line.len; k++)
			if (line.data[k] == '\n' || line.data[k] == '\r')
				line.data[k] = ' ';
		sha256_field(iface, line.data, line.len);
		buf_put(out, line.data, line.len);
		buf_putc(out, '\n');
		buf_free(&line);
	}
	free(xs);
}

static void
render_lock(const Project *pj, Buf *out)
{
	Sha256 mh;
	unsigned char md[32];
	char mhex[65];
	sha256_init(&mh);
	sha256_update(&mh, pj->src, pj->len);
	sha256_final(&mh, md);
	sha256_hex(md, mhex);
	buf_printf(out, "%s\nproject %s %s\nmanifest sha256:%s\nrevision %s\n", LOCK_SCHEMA, pj->man.name, pj->man.version ? pj->man.version : "-", mhex,
	    pj->P.revision);
	if (pj->man.has_matrix)
		for (int i = 0; i < pj->man.nmatrix; i++)
			buf_printf(out, "target %s\n", pj->man.matrix[i]);
	else
		buf_puts(out, "target native64\ntarget wasm32\n");
	for (int i = 0; i < pj->P.nmods; i++) {
		const ProgModule *pm = pj->P.mods[i];
		Sha256 h;
		unsigned char d[32];
		char hex[65];
		sha256_init(&h);
		sha256_update(&h, pm->s.src, pm->s.len);
		sha256_final(&h, d);
		sha256_hex(d, hex);
		buf_printf(out, "module %s %s sha256:%s %s\n", pm->name, source_of(pj, pm), hex, pm->s.revision);
	}
	for (int i = 0; i < pj->P.nmods; i++) {
		const ProgModule *pm = pj->P.mods[i];
		const EffectSet *e = &pm->s.m->permit;
		char **names = spx_xcalloc((size_t)e->nnames + 1, sizeof *names);
		for (int k = 0; k < e->nnames; k++) {
			Buf b = {0};
			dotted(&b, &e->names[k]);
			names[k] = buf_take(&b);
		}
		qsort(names, (size_t)e->nnames, sizeof *names, cmp_str);
		for (int k = 0; k < e->nnames; k++)
			if (k == 0 || strcmp(names[k], names[k - 1]) != 0)
				buf_printf(out, "capability %s %s\n", pm->name, names[k]);
		for (int k = 0; k < e->nnames; k++)
			free(names[k]);
		free(names);
	}
	Sha256 iface;
	static const char domain[] = "semaprax.lock-interface.v1";
	sha256_init(&iface);
	sha256_update(&iface, domain, sizeof domain);
	for (int i = 0; i < pj->P.nmods; i++)
		render_exports(out, &iface, pj->P.mods[i]);
	unsigned char d[32];
	char hex[65];
	sha256_final(&iface, d);
	sha256_hex(d, hex);
	buf_printf(out, "interface sha256:%s\n", hex);
}

/* The lock file's path: `semaprax.lock` beside the manifest. */
static char *
lock_path_of(const char *manifest)
{
	const char *slash = strrchr(manifest, '/');
	size_t dir = slash ? (size_t)(slash - manifest) + 1 : 0;
	char *r = spx_xmalloc(dir + sizeof "semaprax.lock");
	memcpy(r, manifest, dir);
	memcpy(r + dir, "semaprax.lock", sizeof "semaprax.lock");
	return r;
}

/* Line `no` (1-based) of text[0..len) into s and n; false past the end. */
static bool
nth_line(const char *text, size_t len, size_t no, const char **s, size_t *n)
{
	size_t at = 0;
	for (size_t k = 1; k < no; k++) {
		const char *nl = memchr(text + at, '\n', len - at);
		if (!nl)
			return false;
		at = (size_t)(nl - text) + 1;
	}
	if (at >= len)
		return false;
	const char *nl = memchr(text + at, '\n', len - at);
	*s = text + at;
	*n = nl ? (size_t)(nl - (text + at)) : len - at;
	return true;
}

/* Writes a new file atomically: a staged sibling, synced, renamed. */
static bool
create_atomic(const char *path, const char *data, size_t len, DiagSink *diags)
{
	size_t n = strlen(path) + sizeof ".semaprax-stage-XXXXXX";
	char *tmp = spx_xmalloc(n);
	snprintf(tmp, n, "%s.semaprax-stage-XXXXXX", path);
	int fd = mkstemp(tmp);
	bool ok = fd >= 0;
	if (ok) {
		size_t off = 0;
		while (ok && off < len) {
			ssize_t w = write(fd, data + off, len - off);
			if (w < 0 && errno == EINTR)
				continue;
			ok = w > 0;
			if (ok)
				off += (size_t)w;
		}
		ok = ok && fchmod(fd, 0644) == 0 && fsync(fd) == 0;
		ok = close(fd) == 0 && ok;
		ok = ok && rename(tmp, path) == 0;
		if (!ok)
			unlink(tmp);
	}
	if (!ok) {
		Diag *d = diag_report(diags, DIAG_I101, NULL, "cannot write `%s`: %s", path, strerror(errno));
		diag_set_help(d, "make the project directory writable");
	}
	free(tmp);
	return ok;
}

static int
do_write(const char *path, const Buf *lock)
{
	DiagSink diags;
	diag_init(&diags, path, NULL, 0);
	size_t old_len = 0;
	struct stat st;
	bool ok;
	if (lstat(path, &st) != 0) {
		ok = create_atomic(path, lock->data, lock->len, &diags);
		if (ok)
			say_path("wrote ", path, "");
	} else if (!S_ISREG(st.st_mode)) {
		/* A link is not followed: its target may lie anywhere (a checked-out
		 * `semaprax.lock -> ~/.profile` would be overwritten). */
		Diag *d = diag_report(&diags, DIAG_I101, NULL, "cannot write `%s`: it is %s, not a regular file", path,
		    S_ISLNK(st.st_mode) ? "a symbolic link" : S_ISDIR(st.st_mode) ? "a directory" : "a special file");
		diag_set_help(d, "remove it; `semaprax lock --write` then writes the lock as a regular file beside the manifest");
		ok = false;
	} else {
		char *old = driver_read_source(path, &old_len, &diags);
		ok = old != NULL;
		if (ok && old_len == lock->len && memcmp(old, lock->data, old_len) == 0) {
			say_path("", path, " is up to date");
		} else if (ok) {
			FmtTarget t;
			ok = cli_fmt_prepare(&t, path) && cli_fmt_write(&t, old, old_len, lock->data, lock->len);
			cli_fmt_release(&t);
			if (ok)
				say_path("wrote ", path, "");
		}
		free(old);
	}
	diag_emit_all(&diags, false);
	diag_free(&diags);
	return ok ? EXIT_OK : EXIT_FAIL;
}

/* The `semaprax lock … --write` command for the lock at path: the project's
 * directory as its operand, none for the working directory's. */
static void
write_command(const char *path, char *out, size_t cap)
{
	const char *slash = strrchr(path, '/');
	if (!slash || (slash - path == 1 && path[0] == '.'))
		snprintf(out, cap, "semaprax lock --write");
	else
		snprintf(out, cap, "semaprax lock %.*s --write", (int)(slash == path ? 1 : slash - path), path);
}

static int
do_verify(const char *path, const Buf *lock)
{
	char cmd[600];
	write_command(path, cmd, sizeof cmd);
	DiagSink diags;
	diag_init(&diags, path, NULL, 0);
	size_t len = 0;
	struct stat st;
	char *old = NULL;
	bool ok = false;
	if (stat(path, &st) != 0) {
		Diag *d = diag_report(&diags, DIAG_J130, NULL, "`%s` does not exist", path);
		diag_set_help(d, "run `%s` and commit the file", cmd);
	} else if ((old = driver_read_source(path, &len, &diags)) != NULL) {
		ok = len == lock->len && memcmp(old, lock->data, len) == 0;
		diags.src = old;   /* the finding points at the file's stale line */
		diags.src_len = len;
		for (size_t no = 1; !ok; no++) {
			const char *a = NULL, *b = NULL;
			size_t an = 0, bn = 0;
			bool ha = nth_line(lock->data, lock->len, no, &a, &an);
			bool hb = nth_line(old, len, no, &b, &bn);
			if (ha == hb && (!ha || (an == bn && memcmp(a, b, an) == 0)))
				continue;
			Diag *d;
			/* the stale line of the file (its end when it ends early) */
			Span sp;
			sp.start = (uint32_t)(hb ? (size_t)(b - old) : len);
			sp.end = (uint32_t)(hb ? (size_t)(b - old) + bn : len);
			if (!hb)
				d = diag_report(&diags, DIAG_J130, &sp, "`%s` is stale: it ends before line %zu; expected `%.*s`", path, no, (int)an, a);
			else if (!ha)
				d = diag_report(&diags, DIAG_J130, &sp, "`%s` is stale: line %zu `%.*s` is not expected", path, no, (int)bn, b);
			else
				d = diag_report(&diags, DIAG_J130, &sp, "`%s` is stale: line %zu is `%.*s`; expected `%.*s`", path, no, (int)bn, b, (int)an, a);
			diag_set_help(d, "run `%s` to record the project as it is now", cmd);
			break;
		}
	}
	if (ok)
		say_path("", path, " is up to date");
	diag_emit_all(&diags, false);
	diag_free(&diags);
	free(old);
	return ok ? EXIT_OK : EXIT_FAIL;
}

/* An `export` line split: key (module NUL id) and value (kind header). */
typedef struct LockExport {
	char *module, *kind, *id, *header;   /* into one owned copy */
	char *line;
	Span at;     /* its line in the base lock file (end 0: none, e.g. from JSON) */
} LockExport;

static int
cmp_export(const void *a, const void *b)
{
	const LockExport *x = a, *y = b;
	int c = strcmp(x->module, y->module);
	return c ? c : strcmp(x->id, y->id);
}

/* The export lines of a v1 lock; false (with *bad_line) when the text is
 * not one: no schema line, or an export line of fewer than four fields. */
static bool
parse_exports(const char *text, size_t len, LockExport **out, size_t *n, size_t *bad_line)
{
	*out = NULL;
	*n = 0;
	*bad_line = 1;
	const char *s;
	size_t sn;
	if (!nth_line(text, len, 1, &s, &sn) || sn != strlen(LOCK_SCHEMA) || memcmp(s, LOCK_SCHEMA, sn) != 0 || memchr(text, '\0', len))
		return false;
	size_t cap = 0;
	size_t at = 0;
	for (size_t no = 1; at < len; no++) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t ln = nl ? (size_t)(nl - (text + at)) : len - at;
		if (ln > 7 && memcmp(text + at, "export ", 7) == 0) {
			char *line = spx_xmalloc(ln + 1);
			memcpy(line, text + at, ln);
			line[ln] = '\0';
			char *f[4] = {0};
			char *p = line + 7;
			for (int k = 0; k < 3 && p; k++) {
				f[k] = p;
				p = strchr(p, ' ');
				if (p)
					*p++ = '\0';
			}
			f[3] = p;
			if (!f[3] || !*f[0] || !*f[1] || !*f[2]) {
				free(line);
				*bad_line = no;
				return false;
			}
			if (*n == cap) {
				cap = cap ? cap * 2 : 16;
				*out = spx_xrealloc(*out, cap * sizeof **out);
			}
			(*out)[(*n)++] = (LockExport){f[0], f[1], f[2], f[3], line, {(uint32_t)at, (uint32_t)(at + ln)}};
		}
		at += ln + 1;
	}
	qsort(*out, *n, sizeof **out, cmp_export);
	return true;
}

static void
free_exports(LockExport *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(x[i].line);
	free(x);
}

/* Compares the base's exports with the project's lock (both sorted): one
 * J131 per removed or changed export; true (after printing the compatible
 * line naming base_path) when there is none. */
static bool
compare_exports(const char *base_path, const LockExport *bx, size_t bn, const Buf *lock, DiagSink *diags)
{
	LockExport *cx = NULL;
	size_t cn = 0, bad = 0;
	parse_exports(lock->data, lock->len, &cx, &cn, &bad);   /* our own rendering: always a v1 lock */
	size_t added = 0, i = 0, j = 0;
	bool ok = true;
	while (i < bn || j < cn) {
		int c = i >= bn ? 1 : j >= cn ? -1 : cmp_export(&bx[i], &cx[j]);
		if (c > 0) {
			added++;
			j++;
			continue;
		}
		if (c < 0) {
			Diag *d = diag_report(diags, DIAG_J131, bx[i].at.end ? &bx[i].at : NULL, "breaking interface change: %s `%s` of `%s` was removed (was `%s`)", bx[i].kind, bx[i].id, bx[i].module, bx[i].header);
			diag_set_help(d, "keep the declaration under its stable id, or release the removal as a breaking version");
			ok = false;
			i++;
			continue;
		}
		if (strcmp(bx[i].kind, cx[j].kind) != 0 || strcmp(bx[i].header, cx[j].header) != 0) {
			Diag *d = diag_report(diags, DIAG_J131, bx[i].at.end ? &bx[i].at : NULL, "breaking interface change: %s `%s` of `%s` changed from `%s` to `%s`", bx[i].kind, bx[i].id, bx[i].module,
			    bx[i].header, cx[j].header);
			diag_set_help(d, "keep the old declaration and add the new one under a new stable id, or release the change as a breaking version");
			ok = false;
		}
		i++;
		j++;
	}
	if (ok) {
		fputs("interface compatible with ", stdout);
		cli_put_visible(stdout, base_path);
		printf(": %zu added, 0 removed, 0 changed\n", added);
	}
	free_exports(cx, cn);
	return ok;
}

static int
do_compare(const char *base_path, const Buf *lock)
{
	DiagSink diags;
	diag_init(&diags, base_path, NULL, 0);
	size_t len = 0;
	char *text = driver_read_source(base_path, &len, &diags);
	if (!text && diags.items.len)
		diag_set_help(&diags.items.items[diags.items.len - 1], "pass the path of a lock `semaprax lock --write` wrote (e.g. the base revision's semaprax.lock)");
	LockExport *bx = NULL;
	size_t bn = 0, bad = 0;
	bool ok = false;
	if (text && !parse_exports(text, len, &bx, &bn, &bad)) {
		Diag *d = diag_report(&diags, DIAG_J132, NULL, "`%s` is not a `semaprax.lock.v1` lock (line %zu)", base_path, bad);
		diag_set_help(d, "compare with a lock `semaprax lock --write` wrote");
	} else if (text) {
		diags.src = text;   /* each J131 points at the base's export line */
		diags.src_len = len;
		ok = compare_exports(base_path, bx, bn, lock, &diags);
	}
	diag_emit_all(&diags, false);
	diag_free(&diags);
	free_exports(bx, bn);
	free(text);
	return ok ? EXIT_OK : EXIT_FAIL;
}

/*
 * --emit-interface: the interface projection alone, one JSON object on
 * stdout (docs/LOCK.md): {"schema":"semaprax.lock-interface.v1","project":
 * {"name","version"},"interface":"sha256:…","exports":[{"module","kind",
 * "stable_id","header"}…]} — the lock's export lines in its order and its
 * interface digest, so the two never disagree.
 */
static int
do_emit_interface(const Project *pj, const Buf *lock)
{
	LockExport *x = NULL;
	size_t n = 0, bad = 0;
	parse_exports(lock->data, lock->len, &x, &n, &bad);
	const char *digest = strstr(lock->data, "\ninterface ");
	Buf o = {0};
	buf_puts(&o, "{\"schema\":\"semaprax.lock-interface.v1\",\"project\":{\"name\":");
	json_cstr(&o, pj->man.name);
	buf_puts(&o, ",\"version\":");
	if (pj->man.version)
		json_cstr(&o, pj->man.version);
	else
		buf_puts(&o, "null");
	buf_puts(&o, "},\"interface\":");
	if (digest) {
		digest += strlen("\ninterface ");
		json_str(&o, digest, strcspn(digest, "\n"));
	} else {
		buf_puts(&o, "null");
	}
	buf_puts(&o, ",\"exports\":[");
	for (size_t i = 0; i < n; i++) {
		buf_puts(&o, i ? ",{\"module\":" : "{\"module\":");
		json_cstr(&o, x[i].module);
		buf_puts(&o, ",\"kind\":");
		json_cstr(&o, x[i].kind);
		buf_puts(&o, ",\"stable_id\":");
		char *id = lock_id_text(x[i].id);   /* the id itself, not its line form */
		json_cstr(&o, id);
		free(id);
		buf_puts(&o, ",\"header\":");
		json_cstr(&o, x[i].header);
		buf_putc(&o, '}');
	}
	buf_puts(&o, "]}\n");
	fwrite(o.data, 1, o.len, stdout);
	buf_free(&o);
	free_exports(x, n);
	return EXIT_OK;
}

/* One string member of a JSON object, or NULL. */
static const char *
json_member(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

/*
 * --compare-interface <json>: the base is an --emit-interface document;
 * the same comparison as --compare.  A file that is not one (unreadable
 * JSON, another schema, an export without its four strings or with a space
 * in module or kind) is SPX-J132.
 */
static int
do_compare_interface(const char *base_path, const Buf *lock)
{
	DiagSink diags;
	diag_init(&diags, base_path, NULL, 0);
	size_t len = 0;
	char *text = driver_read_source(base_path, &len, &diags);
	if (!text && diags.items.len)
		diag_set_help(&diags.items.items[diags.items.len - 1], "pass the path of a file `semaprax lock --emit-interface` wrote");
	bool ok = false;
	json_t *root = NULL;
	LockExport *bx = NULL;
	size_t bn = 0;
	const char *why = NULL;
	Span at, *where = NULL;
	char jwhy[JSON_ERROR_TEXT_LENGTH + 32];
	if (text) {
		json_error_t err;
		root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
		json_t *xs = root ? json_object_get(root, "exports") : NULL;
		if (!root) {
			/* the offending token (it was the last byte jansson read) */
			size_t es, ee;
			json_error_span(text, len, false, err.position, err.text, &es, &ee);
			at = (Span){ (uint32_t)es, (uint32_t)ee };
			where = &at;
			diags.src = text;
			diags.src_len = len;
			snprintf(jwhy, sizeof jwhy, "it is not JSON (%s)", strstr(err.text, "JSON_ALLOW_NUL") ? "a string holds \\u0000" : err.text);
			why = jwhy;
		}
		else if (!json_member(root, "schema") || strcmp(json_member(root, "schema"), "semaprax.lock-interface.v1") != 0)
			why = "its `schema` is not \"semaprax.lock-interface.v1\"";
		else if (!json_is_array(xs))
			why = "it has no `exports` array";
		for (size_t i = 0; !why && i < json_array_size(xs); i++) {
			json_t *e = json_array_get(xs, i);
			const char *f[4] = {json_member(e, "module"), json_member(e, "kind"), json_member(e, "stable_id"), json_member(e, "header")};
			if (!f[0] || !f[1] || !f[2] || !f[3] || !*f[0] || !*f[1] || !*f[2] || strpbrk(f[0], " \n") || strpbrk(f[1], " \n")) {
				why = "an export lacks its `module`, `kind`, `stable_id` or `header` string";
				break;
			}
			bx = spx_xrealloc(bx, (bn + 1) * sizeof *bx);
			Buf idl = {0};   /* the id in its line form, as the lock's exports hold it */
			lock_put_id(&idl, f[2]);
			size_t l0 = strlen(f[0]) + 1, l1 = strlen(f[1]) + 1, l2 = idl.len + 1, l3 = strlen(f[3]) + 1;
			char *line = spx_xmalloc(l0 + l1 + l2 + l3);
			memcpy(line, f[0], l0);
			memcpy(line + l0, f[1], l1);
			memcpy(line + l0 + l1, idl.data, l2 - 1);
			line[l0 + l1 + l2 - 1] = '\0';
			memcpy(line + l0 + l1 + l2, f[3], l3);
			buf_free(&idl);
			bx[bn++] = (LockExport){line, line + l0, line + l0 + l1, line + l0 + l1 + l2, line, {0, 0}};
		}
		if (why) {
			Diag *d = diag_report(&diags, DIAG_J132, where, "`%s` is not a `semaprax.lock-interface.v1` document: %s", base_path, why);
			diag_set_help(d, "compare with the output of `semaprax lock --emit-interface`");
		} else {
			qsort(bx, bn, sizeof *bx, cmp_export);
			ok = compare_exports(base_path, bx, bn, lock, &diags);
		}
	}
	diag_emit_all(&diags, false);
	diag_free(&diags);
	free_exports(bx, bn);
	json_decref(root);
	free(text);
	return ok ? EXIT_OK : EXIT_FAIL;
}

int
cli_cmd_lock(int argc, char **argv)
{
	const char *path = NULL, *manifest_path = NULL, *base = NULL;
	int mode = LOCK_PRINT;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int m = strcmp(a, "--write") == 0 ? LOCK_WRITE : strcmp(a, "--verify") == 0 ? LOCK_VERIFY : strcmp(a, "--compare") == 0 ? LOCK_COMPARE
		    : strcmp(a, "--emit-interface") == 0 ? LOCK_EMIT_INTERFACE : strcmp(a, "--compare-interface") == 0 ? LOCK_COMPARE_INTERFACE : LOCK_PRINT;
		if (m != LOCK_PRINT) {
			if (mode != LOCK_PRINT)
				return cli_usage("lock", "lock takes one of --write, --verify, --compare <base.lock>, --emit-interface, --compare-interface <json>");
			mode = m;
			if (m == LOCK_COMPARE || m == LOCK_COMPARE_INTERFACE) {
				if (i + 1 >= argc)
					return cli_usage("lock", "%s takes the base %s file", a, m == LOCK_COMPARE ? "lock" : "interface JSON");
				base = argv[++i];
			}
		} else if (strcmp(a, "--manifest-path") == 0) {
			if (manifest_path)
				return cli_usage("lock", "lock option `--manifest-path` may not be repeated");
			if (i + 1 >= argc)
				return cli_usage("lock", "lock option `--manifest-path` takes the manifest's path");
			manifest_path = argv[++i];
		} else if (a[0] == '-' && a[1] != '\0') {
			return cli_unknown_option("lock", a, NULL);
		} else if (!path) {
			path = a;
		} else {
			return cli_usage("lock", LOCK_GRAMMAR);
		}
	}
	if (path && manifest_path)
		return cli_usage("lock", "lock takes an operand or --manifest-path, not both");
	char *manifest = project_manifest_for(path, manifest_path);
	if (!manifest)
		return cli_usage("lock", "lock takes a project (a directory holding semaprax.toml, or the manifest), not the source file `%s`", path);
	Project pj;
	bool ok = project_check(&pj, manifest);
	project_emit_diags(&pj, false);
	int st = EXIT_FAIL;
	if (ok) {
		Buf lock = {0};
		render_lock(&pj, &lock);
		char *lp = lock_path_of(manifest);
		switch (mode) {
		case LOCK_WRITE: st = do_write(lp, &lock); break;
		case LOCK_VERIFY: st = do_verify(lp, &lock); break;
		case LOCK_COMPARE: st = do_compare(base, &lock); break;
		case LOCK_EMIT_INTERFACE: st = do_emit_interface(&pj, &lock); break;
		case LOCK_COMPARE_INTERFACE: st = do_compare_interface(base, &lock); break;
		default:
			fwrite(lock.data, 1, lock.len, stdout);
			st = EXIT_OK;
			break;
		}
		free(lp);
		buf_free(&lock);
	}
	project_free(&pj);
	free(manifest);
	return st;
}
