/*
 * help_library.c — `semaprax help library [all|<module|name|stable-id>]`
 * (TOOLCHAIN.md §1.1, §4): the bundled standard library (src/project/std.h)
 * answered from its own embedded sources, so the catalog cannot drift from
 * what a project links.
 *
 *   help library              the modules: name, function count, one-line doc
 *   help library <module>     the module's doc, its `[dependencies]` row and
 *                             one line per function (stable id, header)
 *   help library <stable-id>  one entry: the `use` line that imports it, the
 *                             signature with its effects, contracts and doc
 *                             (median ≈200 bytes; the module page names the
 *                             dependency row)
 *   help library <name>       every entry whose function is named so
 *   help library all          every module and every entry
 *   help library <builtin>    a compiler-owned function (builtins.def) by
 *                             name or stable id: no import, its signature
 *                             and effects
 *
 * Each source is parsed only (no check: `make test` checks them); an entry
 * is a function with an explicit `@id`, in source order.  An unknown
 * operand is exit 2 with the nearest modules, names and ids.
 */
#include "cli.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "../fmt/fmt.h"
#include "../project/std.h"

typedef struct LibModule {
	const ProjectStdSource *std;
	Session s;
	bool ok;
	int *owner;           /* fmt_comment_owners */
} LibModule;

static void
load(LibModule *L, const ProjectStdSource *std)
{
	memset(L, 0, sizeof *L);
	L->std = std;
	driver_session_init(&L->s, std->origin);
	driver_set_source(&L->s, std->src, strlen(std->src));
	L->ok = driver_parse(&L->s);
	if (L->ok) {
		const Module *m = L->s.m;
		L->owner = spx_xcalloc((size_t)m->ncomments + 1, sizeof *L->owner);
		fmt_comment_owners(m, L->s.src, L->s.len, L->owner);
	}
}

static void
unload(LibModule *L)
{
	free(L->owner);
	driver_session_free(&L->s);
}

/* Whether declaration i is a library entry (a function with an explicit id). */
static bool
is_entry(const LibModule *L, int i)
{
	const Decl *d = &L->s.m->decls[i];
	return d->kind == DECL_FN && d->id.present;
}

static int
entry_count(const LibModule *L)
{
	int n = 0;
	for (int i = 0; L->ok && i < L->s.m->ndecls; i++)
		n += is_entry(L, i);
	return n;
}

/* The comments owned by owner (a declaration index or FMT_COMMENT_MODULE),
 * joined by single spaces. */
static void
doc_text(const LibModule *L, int owner, Buf *b)
{
	const Module *m = L->s.m;
	bool first = true;
	for (int k = 0; k < m->ncomments; k++) {
		if (L->owner[k] != owner)
			continue;
		const char *t = m->comments[k].text;
		size_t n = m->comments[k].len;
		while (n && *t == ' ') {
			t++;
			n--;
		}
		if (!first)
			buf_putc(b, ' ');
		buf_put(b, t, n);
		first = false;
	}
}

/* The module's one-line doc: its leading comment's first sentence, without
 * the "<module> — " that opens it. */
static void
module_line(const LibModule *L, Buf *out)
{
	Buf b = {0};
	doc_text(L, FMT_COMMENT_MODULE, &b);
	const char *t = b.data ? b.data : "";
	const char *dash = strstr(t, " \xe2\x80\x94 ");   /* " — " */
	if (dash)
		t = dash + 5;
	const char *end = t;
	while (*end && !(end[0] == '.' && (end[1] == ' ' || end[1] == '\0')))
		end++;
	buf_put(out, t, (size_t)(end - t));
	buf_free(&b);
}

static void
id_of(const Decl *d, Buf *b)
{
	buf_put(b, d->id.value.s, d->id.value.len);
}

/*
 * One entry (TOOLCHAIN.md §4: about 200 bytes), densest first line first:
 *   use function @id("std.core.min") from std.core as min;
 *   fn(left: i64, right: i64) -> i64
 *   ensures result <= left; result <= right
 *   The smaller of left and right.
 * The `use` line is the import (id, module, alias = the function's name), so
 * the signature follows as the alias's type, `fn(…) -> R`, with its
 * `uses { … }` when it has effects: no `uses` is effect-free, as in source.
 * Contracts of one kind share a line, `; `-separated (each clause holds).
 */
static void
entry(const LibModule *L, int i, Buf *out)
{
	const Decl *d = &L->s.m->decls[i];
	const FnDecl *fn = &d->u.fn;
	buf_puts(out, "use function @id(\"");
	id_of(d, out);
	buf_printf(out, "\") from %s as %.*s;\n", L->std->module, (int)ast_name_len(fn->name), fn->name.s);
	Buf hd = {0};
	fmt_fn_header(&hd, fn);
	size_t skip = 3 + ast_name_len(fn->name);   /* "fn " and the name; `<T>(…) -> R …` stays */
	buf_puts(out, "fn");
	if (hd.len > skip)
		buf_put(out, hd.data + skip, hd.len - skip);
	buf_putc(out, '\n');
	buf_free(&hd);
	static const ClauseKind kinds[] = { CLAUSE_REQUIRES, CLAUSE_ENSURES };
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		bool first = true;
		for (int c = 0; c < fn->nclauses; c++) {
			if (fn->clauses[c].kind != kinds[k])
				continue;
			buf_puts(out, first ? (kinds[k] == CLAUSE_REQUIRES ? "requires " : "ensures ") : "; ");
			fmt_expr_line(out, fn->clauses[c].cond);
			first = false;
		}
		if (!first)
			buf_putc(out, '\n');
	}
	size_t before = out->len;
	doc_text(L, i, out);
	if (out->len > before)
		buf_putc(out, '\n');
}

static void
module_page(const LibModule *L, Buf *out)
{
	buf_printf(out, "%s — ", L->std->module);
	module_line(L, out);
	buf_printf(out, ".\n[dependencies] %s = \"^" PROJECT_STD_VERSION "\"  (source %s)\n", L->std->module, L->std->path);
	for (int i = 0; L->ok && i < L->s.m->ndecls; i++) {
		if (!is_entry(L, i))
			continue;
		buf_puts(out, "  ");
		id_of(&L->s.m->decls[i], out);
		buf_puts(out, "  ");
		fmt_fn_header(out, &L->s.m->decls[i].u.fn);
		buf_putc(out, '\n');
	}
}

static bool
name_is(const Name *n, const char *s)
{
	return strcmp(n->s ? n->s : "", s) == 0;
}

static bool
id_is(const Decl *d, const char *s)
{
	return strlen(s) == d->id.value.len && memcmp(d->id.value.s, s, d->id.value.len) == 0;
}

/* Whether sig spells the type variable v as a word (`Vec<T>`, `K,`). */
static bool
sig_has_var(const char *sig, char v)
{
	for (const char *p = sig; *p; p++)
		if (*p == v && (p == sig || !isalnum((unsigned char)p[-1])) && !isalnum((unsigned char)p[1]))
			return true;
	return false;
}

/* A compiler-owned function (src/sema/builtins.def), asked for by name or
 * stable id: not a library entry, so say it needs no import and show its
 * signature and effects. */
static bool
builtin_entry(const char *want, Buf *out)
{
	const Builtin *b = sema_builtin_find(want);
	if (!b)
		b = sema_builtin_find_id(want);
	if (!b)
		return false;
	buf_printf(out, "%s is compiler-owned: call it without `use` or [dependencies] (stable id %s)\n", b->name, b->id);
	buf_printf(out, "fn %s", b->name);
	if (b->ntparams > 0) {
		const char vars[] = "TKV";
		bool first = true;
		buf_putc(out, '<');
		for (int i = 0; i < 3; i++)
			if (sig_has_var(b->sig, vars[i])) {
				buf_printf(out, "%s%c", first ? "" : ", ", vars[i]);
				first = false;
			}
		buf_putc(out, '>');
	}
	buf_puts(out, b->sig);
	if (b->effect)
		buf_printf(out, "\n    uses { %s }", b->effect);
	buf_puts(out, "\nAll of them: semaprax help language builtins\n");
	return true;
}

int
cli_help_library(int argc, char **argv)
{
	if (argc > 3)
		return cli_usage("help", "help library takes at most one module, name or stable id, got `%s`", argv[3]);
	size_t n = project_std_nsources;
	LibModule *mods = spx_xcalloc(n + 1, sizeof *mods);
	for (size_t i = 0; i < n; i++)
		load(&mods[i], &project_std_sources[i]);
	const char *want = argc == 3 ? argv[2] : NULL;
	Buf out = {0};
	int status = EXIT_OK;
	if (!want) {
		buf_puts(&out, "Standard library (bundled, version " PROJECT_STD_VERSION "; a project adds `std.<module> = \"^" PROJECT_STD_VERSION "\"` to [dependencies]):\n");
		for (size_t i = 0; i < n; i++) {
			buf_printf(&out, "  %-16s %2d functions  ", mods[i].std->module, entry_count(&mods[i]));
			module_line(&mods[i], &out);
			buf_putc(&out, '\n');
		}
		buf_puts(&out, "An entry: its `use` line, `fn(…) -> R` (`uses { … }` when it has effects; none = effect-free), contracts, doc.\n");
		buf_puts(&out, "More: semaprax help library <module|name|stable-id> | all\n");
	} else {
		bool all = strcmp(want, "all") == 0;
		bool found = false;
		int entries = 0;
		for (size_t i = 0; i < n; i++) {
			const LibModule *L = &mods[i];
			/* a module by its full name, or without `std.` (`text`) */
			bool named = strcmp(want, L->std->module) == 0 ||
			    (strncmp(L->std->module, "std.", 4) == 0 && strcmp(want, L->std->module + 4) == 0);
			if (all || named) {
				if (found)
					buf_putc(&out, '\n');
				module_page(L, &out);
				found = true;
				if (!all)
					continue;
			}
			for (int k = 0; L->ok && k < L->s.m->ndecls; k++) {
				if (!is_entry(L, k))
					continue;
				const Decl *d = &L->s.m->decls[k];
				if (all || id_is(d, want) || name_is(&d->u.fn.name, want)) {
					if (all || entries++ > 0)
						buf_putc(&out, '\n');
					entry(L, k, &out);
					found = true;
				}
			}
		}
		if (!found && !all)
			found = builtin_entry(want, &out);
		if (!found) {
			CliNear nr = {0};
			for (size_t i = 0; i < n; i++) {
				const LibModule *L = &mods[i];
				cli_near_offer(&nr, want, L->std->module, strlen(L->std->module));
				for (int k = 0; L->ok && k < L->s.m->ndecls; k++) {
					if (!is_entry(L, k))
						continue;
					const Decl *d = &L->s.m->decls[k];
					cli_near_offer(&nr, want, d->u.fn.name.s, ast_name_len(d->u.fn.name));
					cli_near_offer(&nr, want, d->id.value.s, d->id.value.len);
				}
			}
			fputs("unknown library module, name or stable id `", stderr);
			cli_put_visible(stderr, want);
			fputs("`", stderr);
			cli_near_print(&nr);
			fputs("hint: `semaprax help library` lists the modules; `semaprax help library all` every function\n", stderr);
			status = EXIT_USAGE;
		}
	}
	if (out.len)
		fwrite(out.data, 1, out.len, stdout);
	buf_free(&out);
	for (size_t i = 0; i < n; i++)
		unload(&mods[i]);
	free(mods);
	return status;
}
