/*
 * cmd_fmt.c — `semaprax fmt <file|dir> [--check|--stdout]`.
 *
 * All operands are read and parsed before anything is written; if any file
 * fails to parse, or a file to rewrite is read-only, its diagnostics are
 * shown and nothing is written.  How a file is replaced (symlinks, hard
 * links, interrupts) is fmt_write.c's.  Directories are walked recursively,
 * entries sorted by name (deterministic); symlinks inside them are skipped,
 * a symlink given as the operand is followed.
 */
#include "cli.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fmt_write.h"

#include "../fmt/fmt.h"
#include "../parse/parse.h"
#include "../project/manifest.h"
#include "../project/project.h"

typedef struct Source {
	char *path;     /* owned */
	const char *shown; /* printed for it (a project's: the manifest's spelling, into path) */
	char *src;      /* owned, original bytes */
	size_t len;
	char *canon;    /* owned, canonical bytes (NULL when parse failed) */
	size_t canon_len;
	FmtTarget target;  /* the file a rewrite writes (prepared when it changes) */
} Source;

typedef VEC(char *) PathList;

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool
has_spx_suffix(const char *name)
{
	size_t n = strlen(name);
	return n > 4 && strcmp(name + n - 4, ".spx") == 0;
}

/* I001 for a directory the walk cannot read: nothing under it is formatted
 * or checked, so the command fails rather than pass over it in silence. */
static void
walk_report(const char *dir, const char *why, const char *help, bool json)
{
	DiagSink s;
	diag_init(&s, dir, NULL, 0);
	Diag *d = diag_report(&s, DIAG_I001, NULL, "cannot read %s: %s", dir, why);
	diag_set_help(d, "%s", help);
	diag_emit_all(&s, json);
	diag_free(&s);
}

#define FMT_WALK_DEPTH 64

/* Collects .spx files under dir (at most FMT_WALK_DEPTH directories deep),
 * sorted; false after I001 for a directory it could not read or that lies
 * deeper. */
static bool
walk(const char *dir, PathList *out, int depth, bool json)
{
	if (depth > FMT_WALK_DEPTH) {
		walk_report(dir, "directories nest more than 64 levels deep below the operand",
		    "format the deeper tree on its own (`semaprax fmt <dir>` nearer to it)", json);
		return false;
	}
	DIR *d = opendir(dir);
	if (!d) {
		walk_report(dir, strerror(errno), "make the directory readable, or format the files beside it one by one", json);
		return false;
	}
	bool ok = true;
	PathList names = {0};
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		VEC_PUSH(names, spx_xstrdup(e->d_name));
	}
	closedir(d);
	if (names.len)
		qsort(names.items, (size_t)names.len, sizeof(char *), cmp_str);
	for (int i = 0; i < names.len; i++) {
		size_t n = strlen(dir) + strlen(names.items[i]) + 2;
		char *path = spx_xmalloc(n);
		snprintf(path, n, "%s/%s", dir, names.items[i]);
		struct stat st;
		if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			ok &= walk(path, out, depth + 1, json);
			free(path);
		} else if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) && has_spx_suffix(names.items[i])) {
			VEC_PUSH(*out, path);
		} else {
			free(path);
		}
		free(names.items[i]);
	}
	VEC_FREE(names);
	return ok;
}

/* Parses one source and renders its canonical form; false on diagnostics. */
static bool
format_source(Source *s, bool json)
{
	DiagSink diags;
	diag_init(&diags, s->path, NULL, 0);
	diags.shown = s->shown;
	s->src = driver_read_source(s->path, &s->len, &diags);
	bool ok = false;
	if (s->src) {
		diags.src = s->src;
		diags.src_len = s->len;
		Arena arena;
		arena_init(&arena);
		Module *m = parse_module(s->src, s->len, &arena, &diags);
		if (diags.errors == 0) {
			Buf out = {0};
			buf_reserve(&out, s->len + s->len / 8);  /* canonical text is about as long */
			fmt_module(&out, m, s->src, s->len);
			s->canon_len = out.len;
			s->canon = buf_take(&out);
			ok = true;
		}
		arena_free(&arena);
	}
	diag_emit_all(&diags, json);
	diag_free(&diags);
	return ok;
}

static bool
same_bytes(const Source *s)
{
	return s->len == s->canon_len && memcmp(s->src, s->canon, s->len) == 0;
}

/* 1-based line of the first differing byte. */
static unsigned
first_diff_line(const Source *s)
{
	size_t n = s->len < s->canon_len ? s->len : s->canon_len;
	unsigned line = 1;
	for (size_t i = 0; i < n && s->src[i] == s->canon[i]; i++)
		if (s->src[i] == '\n')
			line++;
	return line;
}

static int
fmt_usage(void)
{
	return cli_usage("fmt", "fmt requires exactly <file>|<dir>|semaprax.toml|--manifest-path <p> [--check|--stdout] (none: ./semaprax.toml), or --manifest <toml> [--check]");
}

/* `fmt --manifest <toml> [--check]` (TOOLCHAIN.md §1.2): a manifest that
 * reads and validates (project/manifest.h) is rewritten as its canonical
 * rendering; --check writes nothing and reports a non-canonical manifest
 * (J100 naming the first differing line). */
static int
fmt_manifest(const char *path, bool check, bool json)
{
	DiagSink diags;
	diag_init(&diags, path, NULL, 0);
	size_t len = 0;
	char *src = driver_read_source(path, &len, &diags);
	ProjectManifest m;
	memset(&m, 0, sizeof m);
	int status = EXIT_FAIL;
	if (src) {
		diags.src = src;
		diags.src_len = len;
		if (project_manifest_read(&m, src, len, &diags)) {
			if (check) {
				if (project_manifest_canonical(&m, src, len, &diags))
					status = EXIT_OK;
			} else {
				Buf b = {0};
				project_manifest_render(&m, &b);
				FmtTarget t;
				memset(&t, 0, sizeof t);
				if (b.len == len && memcmp(b.data, src, len) == 0)
					status = EXIT_OK;
				else if (cli_fmt_prepare(&t, path) && cli_fmt_write(&t, src, len, b.data, b.len))
					status = EXIT_OK;
				cli_fmt_release(&t);
				buf_free(&b);
			}
		}
	}
	diag_emit_all(&diags, json);
	project_manifest_free(&m);
	diag_free(&diags);
	free(src);
	return status;
}

int
cli_cmd_fmt(int argc, char **argv)
{
	const char *operand = NULL, *manifest = NULL, *manifest_path = NULL;
	bool check = false, to_stdout = false, json = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--manifest") == 0 && !manifest && i + 1 < argc)
			manifest = argv[++i];
		else if (strcmp(a, "--manifest-path") == 0 && !manifest_path && i + 1 < argc)
			manifest_path = argv[++i];
		else if (strcmp(a, "--manifest-path") == 0)
			return cli_option_error("fmt", a, (const char *const[]){ "--manifest-path", NULL }, NULL);
		else if (strcmp(a, "--check") == 0 && !check)
			check = true;
		else if (strcmp(a, "--stdout") == 0 && !to_stdout)
			to_stdout = true;
		else if (strcmp(a, "--json") == 0 && !json)
			json = true;
		else if (strcmp(a, "--manifest") == 0 && i + 1 >= argc)
			return cli_usage("fmt", "fmt option `--manifest` requires a path (the semaprax.toml to rewrite)");
		else if (strcmp(a, "--manifest") == 0 || strcmp(a, "--check") == 0 || strcmp(a, "--stdout") == 0 || strcmp(a, "--json") == 0)
			return cli_usage("fmt", "fmt option `%s` may not be repeated", a);
		else if (a[0] == '-' && a[1] != '\0')
			return cli_unknown_option("fmt", a, NULL);
		else if (!operand)
			operand = a;
		else
			return fmt_usage();
	}
	if (manifest) {
		if (operand || to_stdout || manifest_path)
			return cli_usage("fmt", "fmt --manifest takes exactly <toml> [--check]");
		return fmt_manifest(manifest, check, json);
	}
	if (manifest_path && operand)
		return cli_usage("fmt", "fmt takes an operand or --manifest-path, not both");
	if (manifest_path && to_stdout)
		return cli_usage("fmt", "fmt --stdout takes one file, not a project");
	/* No operand: the project in the working directory, as check, run, test,
	 * lock and build take it (./semaprax.toml). */
	struct stat here;
	if (!operand && !to_stdout && !manifest_path && stat("semaprax.toml", &here) == 0)
		operand = "semaprax.toml";
	if ((!operand && !manifest_path) || (check && to_stdout))
		return fmt_usage();

	PathList paths = {0};
	VEC(const char *) spelled = {0};   /* a project's: each path's spelling */
	bool walked = true;
	struct stat st;
	/* A project (a directory holding semaprax.toml, or the manifest itself):
	 * its sources in manifest order (TOOLCHAIN.md §1.2). */
	char *toml = project_manifest_for(operand, manifest_path);
	if (toml && operand && stat(operand, &st) == 0 && S_ISDIR(st.st_mode) && stat(toml, &st) != 0) {
		free(toml);
		toml = NULL;
	}
	if (toml) {
		if (to_stdout) {
			free(toml);
			return cli_usage("fmt", "fmt --stdout takes one file, not a project");
		}
		DiagSink md;
		diag_init(&md, toml, NULL, 0);
		char **list;
		int n;
		char *mtext;
		bool read = project_source_paths(toml, &md, &list, &n, &mtext);
		if (mtext)   /* a project's files print relative to its directory */
			md.shown = project_manifest_shown(toml);
		diag_emit_all(&md, json);
		diag_free(&md);
		free(mtext);
		if (!read) {
			free(toml);
			return EXIT_FAIL;
		}
		for (int i = 0; i < n; i++) {
			VEC_PUSH(paths, list[i]);
			VEC_PUSH(spelled, project_source_spelling(toml, list[i]));
		}
		free(toml);
		free(list);
	} else if (stat(operand, &st) == 0 && S_ISDIR(st.st_mode)) {
		if (to_stdout)
			return cli_usage("fmt", "fmt --stdout takes one file, not a directory");
		walked = walk(operand, &paths, 0, json);
	} else {
		VEC_PUSH(paths, spx_xstrdup(operand));
	}

	VEC(Source) srcs = {0};
	bool all_ok = walked;
	for (int i = 0; i < paths.len; i++) {
		Source s;
		memset(&s, 0, sizeof s);
		s.path = paths.items[i];
		s.shown = i < spelled.len ? spelled.items[i] : NULL;
		all_ok &= format_source(&s, json);
		VEC_PUSH(srcs, s);
	}
	/* A rewrite touches nothing unless every changed file can be written. */
	for (int i = 0; all_ok && !check && !to_stdout && i < srcs.len; i++)
		if (!same_bytes(&srcs.items[i]))
			all_ok &= cli_fmt_prepare(&srcs.items[i].target, srcs.items[i].path);
	int status = all_ok ? EXIT_OK : EXIT_FAIL;
	for (int i = 0; all_ok && i < srcs.len; i++) {
		Source *s = &srcs.items[i];
		bool same = same_bytes(s);
		if (to_stdout)
			fwrite(s->canon, 1, s->canon_len, stdout);
		else if (check && !same) {
			cli_put_visible(stderr, s->shown ? s->shown : s->path);   /* a control byte as \xNN, as in diagnostics */
			fprintf(stderr, ":%u is not canonically formatted\n", first_diff_line(s));
			status = EXIT_FAIL;
		} else if (!check && !same && !cli_fmt_write(&s->target, s->src, s->len, s->canon, s->canon_len))
			status = EXIT_FAIL;
	}
	for (int i = 0; i < srcs.len; i++) {
		cli_fmt_release(&srcs.items[i].target);
		free(srcs.items[i].path);
		free(srcs.items[i].src);
		free(srcs.items[i].canon);
	}
	VEC_FREE(srcs);
	VEC_FREE(paths);
	VEC_FREE(spelled);
	return status;
}
