/*
 * project.c — operand resolution and `check` of a project (project.h).
 */
/* realpath is XSI in glibc's headers. */
#define _XOPEN_SOURCE 700
#include "project.h"
#include "std.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static char *
join(const char *dir, const char *rel)
{
	size_t n = strlen(dir) + strlen(rel) + 2;
	char *r = spx_xmalloc(n);
	snprintf(r, n, "%s/%s", dir, rel);
	return r;
}

char *
project_dir_trimmed(const char *dir)
{
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	return spx_xstrndup(dir, n);
}

char *
project_manifest_for(const char *operand, const char *manifest_path)
{
	if (manifest_path)
		return spx_xstrdup(manifest_path);
	if (!operand)
		return spx_xstrdup("semaprax.toml");
	struct stat st;
	if (stat(operand, &st) == 0 && S_ISDIR(st.st_mode)) {
		char *dir = project_dir_trimmed(operand);
		char *r = join(dir, "semaprax.toml");
		free(dir);
		return r;
	}
	const char *base = strrchr(operand, '/');
	base = base ? base + 1 : operand;
	return strcmp(base, "semaprax.toml") == 0 ? spx_xstrdup(operand) : NULL;
}

/* The directory of the manifest ("." when it has none). */
static char *
root_of(const char *manifest)
{
	const char *slash = strrchr(manifest, '/');
	if (!slash)
		return spx_xstrdup(".");
	size_t n = (size_t)(slash - manifest);
	if (n == 0)
		n = 1;
	char *r = spx_xmalloc(n + 1);
	memcpy(r, manifest, n);
	r[n] = '\0';
	return r;
}

bool
project_check_roles(const ProjectManifest *man, Program *P, DiagSink *diags)
{
	bool ok = true;
	const char *roles[2] = {man->entry, man->test_module};
	for (int r = 0; r < 2; r++) {
		const char *role = r ? "test" : "entry";
		ModuleId m = driver_program_find(P, roles[r]);
		if (m == DRIVER_NO_MODULE) {
			Span sp;
			bool has = project_manifest_line_span(diags->src, diags->src_len, r ? man->tests_line : man->entry_line, &sp);
			Diag *d = diag_report(diags, DIAG_G172, has ? &sp : NULL, "%s module `%s` is not declared by any listed source", role, roles[r]);
			/* a file beside the sources declares it; else a listed module's
			 * name is near (a typo in the manifest: the first of equals in
			 * ModuleId order) */
			char *file = diags->path ? project_unlisted_declaring(diags->path, man, roles[r]) : NULL;
			const char *near = NULL;
			int best = 3;
			for (int k = 0; !file && k < P->nmods; k++) {
				int dist = P->mods[k]->name[0] ? spx_edit_distance(roles[r], P->mods[k]->name, true) : 3;
				if (dist < best) {
					best = dist;
					near = P->mods[k]->name;
				}
			}
			if (file)
				diag_set_help(d, "`%s` declares `module %s;` but the manifest does not list it: add \"%s\" to `sources` in %s (byte order)",
				    file, roles[r], file, diags->path ? project_manifest_shown(diags->path) : "semaprax.toml");
			else if (near)
				diag_set_help(d, r ? "did you mean `%s`? (declared by %s; write `tests = [\"%s\"]`)" : "did you mean `%s`? (declared by %s; write `entry = \"%s\"`)",
				    near, driver_module_path(P->mods[driver_program_find(P, near)]), near);
			else
				diag_set_help(d, "list the file that declares `module %s;` in the manifest's sources, or name an existing module", roles[r]);
			free(file);
			ok = false;
			continue;
		}
		Session *s = &P->mods[m]->s;
		if (!s->S)
			continue;
		ProgHandle h;
		SymId f = sema_strmap_get(&s->S->fn_names, "main");
		const Sym *y = f >= 0 ? &s->S->syms.items[f] : NULL;
		if (!y || y->origin || !y->explicit_id || !driver_program_lookup(P, roles[r], y->id, &h)) {
			Diag *d = diag_report(&s->diags, DIAG_G172, &s->m->module_span, "%s module `%s` must define one explicitly identified `main`", role, roles[r]);
			diag_set_help(d, "add `@id(\"%s.main\") fn main() -> i64 { … }`", roles[r]);
			ok = false;
		}
	}
	return ok;
}

static bool
check_roles(Project *pj)
{
	return project_check_roles(&pj->man, &pj->P, &pj->diags);
}

/* Does source (a canonical relative path; path is it joined to the project
 * root) lie outside the root once its directories' symbolic links are
 * resolved?  *root is the root's real path and *verified the last directory
 * found inside it (both owned, computed here): sorted sources share it, so
 * it is resolved once. */
static bool
outside_root(const char *source, const char *path, char **root, char **verified)
{
	size_t sl = strlen(source), pl = strlen(path);
	const char *last = strrchr(source, '/');
	if (pl < sl || !last)
		return false;
	char *dir = spx_xstrndup(path, pl - sl + (size_t)(last - source));
	if (*verified && strcmp(*verified, dir) == 0) {
		free(dir);
		return false;
	}
	if (!*root) {
		char *r = spx_xstrndup(path, pl - sl);
		*root = realpath(*r ? r : ".", NULL);
		free(r);
	}
	char *real = realpath(dir, NULL);
	size_t rl = *root ? strlen(*root) : 0;
	/* a directory that does not resolve is left to the read (I001) */
	bool out = real && *root && !(strncmp(real, *root, rl) == 0 && (real[rl] == '/' || real[rl] == '\0' || rl == 1));
	free(real);
	if (out) {
		free(dir);
		return true;
	}
	free(*verified);
	*verified = dir;
	return false;
}

/* The held-input rules of the reference's loader that apply here: each
 * source a regular non-symlink file inside the project directory (J102), no two listed paths (or a path
 * and the manifest) one physical file (J102), at most 16 MiB in all (J101).
 * A missing source is left to the read (I001). */
static bool
admit_sources(const char *manifest_path, char *const *sources, char *const *paths, int n, DiagSink *diags, struct stat *keep)
{
	struct stat *st = spx_xcalloc((size_t)n + 1, sizeof *st);
	bool *have = spx_xcalloc((size_t)n + 1, sizeof *have);
	bool ok = true;
	uint64_t total = 0;
	/* (device, inode) → the first path holding it: a map, so the check
	 * stays linear in the number of sources */
	StrMap seen = {0};
	char (*keys)[48] = spx_xcalloc((size_t)n + 1, sizeof *keys);
	have[n] = stat(manifest_path, &st[n]) == 0;
	if (have[n]) {
		snprintf(keys[n], sizeof keys[n], "%llx:%llx", (unsigned long long)st[n].st_dev, (unsigned long long)st[n].st_ino);
		sema_strmap_put(&seen, keys[n], n);
	}
	char *root = NULL, *verified = NULL;
	for (int i = 0; i < n && ok; i++) {
		if (outside_root(sources[i], paths[i], &root, &verified)) {
			Diag *d = diag_report(diags, DIAG_J102, NULL, "project source `%s` lies outside the project directory (a directory of its path is a symbolic link)",
			    sources[i]);
			diag_set_help(d, "move the file into the project and list it by its path there");
			ok = false;
			break;
		}
		if (lstat(paths[i], &st[i]) != 0)
			continue;
		if (S_ISLNK(st[i].st_mode)) {
			Diag *d = diag_report(diags, DIAG_J102, NULL, "project source `%s` is a symbolic link", sources[i]);
			diag_set_help(d, "list the file it points to, by its path inside the project");
			ok = false;
			break;
		}
		have[i] = true;
		total += (uint64_t)st[i].st_size;
		snprintf(keys[i], sizeof keys[i], "%llx:%llx", (unsigned long long)st[i].st_dev, (unsigned long long)st[i].st_ino);
		int j = sema_strmap_get(&seen, keys[i]);
		if (j >= 0) {
			Diag *d = diag_report(diags, DIAG_J102, NULL, "project source `%s` and %s%s%s resolve to one physical file", sources[i],
			    j == n ? "the manifest" : "`", j == n ? "" : sources[j], j == n ? "" : "`");
			diag_set_help(d, "list each source once, by its real path inside the project");
			ok = false;
			break;
		}
		sema_strmap_put(&seen, keys[i], i);
	}
	sema_strmap_free(&seen);
	free(root);
	free(verified);
	free(keys);
	if (ok && total > 16u * 1024u * 1024u) {
		Diag *d = diag_report(diags, DIAG_J101, NULL, "the project's sources hold %llu bytes; the limit is 16 MiB", (unsigned long long)total);
		diag_set_help(d, "split the project, or move data out of the sources");
		ok = false;
	}
	if (keep)
		memcpy(keep, st, sizeof *st * (size_t)n);
	free(st);
	free(have);
	return ok;
}

/* The manifest's sources (joined, admitted) and, when st, each one's lstat. */
/* The help of a manifest that does not read (I001): what a project is, not
 * driver_read_source's advice for a source file. */
/* The nearest directory above the one manifest would be in that holds a
 * `semaprax.toml`, spelled from the working directory (`..`, `../..`, or
 * its absolute path when it is not above it), or NULL. */
static char *
nearest_project_above(const char *manifest)
{
	struct stat st;
	if (stat(manifest, &st) == 0)
		return NULL;   /* there is one: it did not read for another reason */
	char *dir = root_of(manifest);
	char *real = realpath(dir, NULL);
	free(dir);
	char *cwd = real ? realpath(".", NULL) : NULL;
	char *found = NULL;
	for (char *slash; real && cwd && !found && (slash = strrchr(real, '/')) != NULL;) {
		if (slash == real)
			slash[1] = '\0', slash = NULL;   /* the root itself, then stop */
		else
			*slash = '\0';
		char *m = join(real[1] ? real : "", "semaprax.toml");
		if (stat(m, &st) == 0 && S_ISREG(st.st_mode))
			found = spx_xstrdup(real);
		free(m);
		if (!slash)
			break;
	}
	char *r = NULL;
	size_t cl = cwd ? strlen(cwd) : 0;
	if (found && strcmp(found, cwd) == 0) {
		r = spx_xstrdup(".");
	} else if (found && strncmp(cwd, found, strlen(found)) == 0 && (cwd[strlen(found)] == '/' || strcmp(found, "/") == 0)) {
		/* the working directory is below it: one `..` per component */
		Buf b = {0};
		for (const char *c = cwd + (strcmp(found, "/") == 0 ? 0 : strlen(found)); *c; c++)
			if (*c == '/')
				buf_puts(&b, b.len ? "/.." : "..");
		r = buf_take(&b);
	} else if (found && strncmp(found, cwd, cl) == 0 && found[cl] == '/') {
		r = spx_xstrdup(found + cl + 1);
	} else if (found) {
		r = spx_xstrdup(found);
	}
	free(found);
	free(cwd);
	free(real);
	return r;
}

static void
unread_manifest_help(DiagSink *diags)
{
	if (!diags->items.len)
		return;
	char *near = diags->path ? nearest_project_above(diags->path) : NULL;
	char *dir = near ? root_of(diags->path) : NULL;
	if (near)
		diag_set_help(&diags->items.items[diags->items.len - 1],
		    "no `semaprax.toml` in %s%s%s; the nearest project directory above it is `%s`: pass that as this command's operand, "
		    "or `--manifest-path %s%ssemaprax.toml`", strcmp(dir, ".") == 0 ? "the working directory" : "`",
		    strcmp(dir, ".") == 0 ? "" : dir, strcmp(dir, ".") == 0 ? "" : "`", near, strcmp(near, ".") == 0 ? "" : near,
		    strcmp(near, ".") == 0 ? "" : "/");
	else
		diag_set_help(&diags->items.items[diags->items.len - 1],
		    "a project is a directory holding `semaprax.toml` (`semaprax new <dir>` makes one); "
		    "name another manifest with `--manifest-path <file>`; a single source is passed as "
		    "its `.spx` file (`semaprax check app.spx`)");
	free(dir);
	free(near);
}

static bool
source_paths(const char *manifest_path, DiagSink *diags, char ***out, int *n, struct stat **st, char **text)
{
	*out = NULL;
	*n = 0;
	if (text)
		*text = NULL;
	size_t len = 0;
	char *src = driver_read_source(manifest_path, &len, diags);
	if (!src) {
		unread_manifest_help(diags);
		return false;
	}
	/* the findings' lines and excerpts index the manifest's text (a sink
	 * without it gave 1:1 and no excerpt): the caller keeps it */
	if (text && !diags->src) {
		diags->src = src;
		diags->src_len = len;
	}
	ProjectManifest m;
	bool ok = project_manifest_read(&m, src, len, diags);
	if (ok) {
		char *root = root_of(manifest_path);
		*out = spx_xcalloc((size_t)m.nsources, sizeof **out);
		for (int i = 0; i < m.nsources; i++)
			(*out)[i] = strcmp(root, ".") == 0 ? spx_xstrdup(m.sources[i]) : join(root, m.sources[i]);
		*n = m.nsources;
		free(root);
		if (st)
			*st = spx_xcalloc((size_t)m.nsources + 1, sizeof **st);
		if (!admit_sources(manifest_path, m.sources, *out, m.nsources, diags, st ? *st : NULL)) {
			for (int i = 0; i < *n; i++)
				free((*out)[i]);
			free(*out);
			*out = NULL;
			*n = 0;
			ok = false;
		}
	}
	project_manifest_free(&m);
	if (text && diags->src == src)
		*text = src;
	else
		free(src);
	return ok;
}

bool
project_source_paths(const char *manifest_path, DiagSink *diags, char ***out, int *n, char **text)
{
	return source_paths(manifest_path, diags, out, n, NULL, text);
}

int
project_source_member(const Project *held, const char *manifest_path, const char *path)
{
	struct stat p;
	if (held && held->admitted && held->src && held->st && held->paths && stat(path, &p) == 0) {
		/* the held project's admitted sources, when its manifest is the
		 * one on disk: one stat of path, one lstat of the source it names
		 * (still a regular file there; a total grown past J101's bound
		 * since is the check's to report) */
		DiagSink q;
		diag_init(&q, manifest_path, NULL, 0);
		size_t len = 0;
		char *src = driver_read_source(manifest_path, &len, &q);
		diag_free(&q);
		bool same = src && len == held->len && memcmp(src, held->src, len) == 0;
		free(src);
		for (int i = 0; same && i < held->man.nsources; i++) {
			struct stat s;
			if (held->st[i].st_nlink && held->st[i].st_dev == p.st_dev && held->st[i].st_ino == p.st_ino &&
			    lstat(held->paths[i], &s) == 0 && S_ISREG(s.st_mode) && s.st_dev == p.st_dev && s.st_ino == p.st_ino)
				return 1;
		}
	}
	DiagSink d;
	diag_init(&d, manifest_path, NULL, 0);
	char **paths = NULL;
	int n = 0;
	struct stat *st = NULL;
	bool listed = source_paths(manifest_path, &d, &paths, &n, &st, NULL);
	diag_free(&d);
	/* admitted sources are no symbolic links: their lstat is their stat */
	bool member = false, have = listed && stat(path, &p) == 0;
	for (int i = 0; i < n; i++) {
		member |= have && st[i].st_nlink && st[i].st_dev == p.st_dev && st[i].st_ino == p.st_ino;
		free(paths[i]);
	}
	free(paths);
	free(st);
	return listed ? member : -1;
}

bool
project_same_file(const char *a, const char *b)
{
	struct stat x, y;
	return stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

/* 1: the manifest lists file among its sources; 0: it does not; -1: its
 * sources cannot be read (a manifest that does not read, a source it
 * refuses such as a symbolic link): which files it means is unknown. */
static int
lists(const char *manifest, const char *file)
{
	DiagSink d;
	diag_init(&d, manifest, NULL, 0);
	char **paths = NULL;
	int n = 0;
	int found = project_source_paths(manifest, &d, &paths, &n, NULL) ? 0 : -1;
	for (int i = 0; i < n && found == 0; i++)
		found = project_same_file(paths[i], file);
	for (int i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	diag_free(&d);
	return found;
}

char *
project_manifest_listing(const char *path, bool unreadable)
{
	size_t n = strlen(path);
	if (n < 4 || strcmp(path + n - 4, ".spx") != 0)
		return NULL;
	char *real = realpath(path, NULL);
	if (!real)
		return NULL;   /* not on disk: no manifest can list it */
	char *dir = spx_xstrdup(real), *found = NULL;
	for (;;) {
		char *slash = strrchr(dir, '/');
		if (!slash)
			break;
		*slash = '\0';
		char *m = join(dir, "semaprax.toml");
		struct stat st;
		int l = stat(m, &st) == 0 && S_ISREG(st.st_mode) ? lists(m, real) : 0;
		if (l == 1 || (l == -1 && unreadable)) {
			found = m;
			break;
		}
		free(m);
	}
	free(dir);
	free(real);
	return found;
}

char *
project_manifest_above(const char *path, char **rel)
{
	*rel = NULL;
	char *real = realpath(path, NULL);
	if (!real)
		return NULL;
	char *dir = spx_xstrdup(real), *found = NULL;
	for (char *slash; !found && (slash = strrchr(dir, '/')) != NULL;) {
		*slash = '\0';
		char *m = join(dir, "semaprax.toml");
		struct stat st;
		if (stat(m, &st) == 0 && S_ISREG(st.st_mode)) {
			found = m;
			*rel = spx_xstrdup(real + strlen(dir) + 1);
		} else {
			free(m);
		}
	}
	free(dir);
	free(real);
	return found;
}

const char *
project_spelled_path(const Project *pj, const char *path)
{
	for (int i = 0; pj->paths && i < pj->man.nsources; i++)
		if (pj->paths[i] && strcmp(pj->paths[i], path) == 0)
			return pj->man.sources[i];
	return path;
}

const char *
project_source_spelling(const char *manifest_path, const char *joined)
{
	char *root = root_of(manifest_path);
	size_t n = strlen(root);
	const char *r = joined;
	if (strcmp(root, ".") != 0 && strncmp(joined, root, n) == 0 && (joined[n] == '/' || (n == 1 && root[0] == '/')))
		r = joined + (joined[n] == '/' ? n + 1 : n);
	free(root);
	return r;
}

const char *
project_manifest_shown(const char *manifest_path)
{
	const char *base = strrchr(manifest_path, '/');
	return base && base[1] ? base + 1 : manifest_path;
}

/* The dotted module name a source's `module` line declares (after blank
 * space and `//` comments), or NULL; malloc'd.  A text scan, not a parse:
 * a help line's guess about a file no check reads. */
static char *
declared_module(const char *src, size_t len)
{
	const char *p = src, *e = src + len;
	for (;;) {
		while (p < e && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
			p++;
		if (e - p >= 2 && p[0] == '/' && p[1] == '/') {
			const char *nl = memchr(p, '\n', (size_t)(e - p));
			p = nl ? nl + 1 : e;
			continue;
		}
		break;
	}
	if (e - p < 7 || memcmp(p, "module", 6) != 0 || (p[6] != ' ' && p[6] != '\t'))
		return NULL;
	p += 6;
	Buf b = {0};
	for (; p < e && *p != ';' && *p != '\n'; p++)
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == '.')
			buf_putc(&b, *p);
		else if (*p != ' ' && *p != '\t') {
			buf_free(&b);
			return NULL;
		}
	if (p >= e || *p != ';' || !b.len) {
		buf_free(&b);
		return NULL;
	}
	return buf_take(&b);
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The `.spx` names of dir, sorted (malloc'd array of malloc'd names). */
static char **
spx_names(const char *dir, int *n)
{
	*n = 0;
	DIR *d = opendir(dir);
	if (!d)
		return NULL;
	char **r = NULL;
	int cap = 0;
	struct dirent *ent;
	while ((ent = readdir(d)) != NULL) {
		size_t l = strlen(ent->d_name);
		if (ent->d_name[0] == '.' || l < 5 || strcmp(ent->d_name + l - 4, ".spx") != 0)
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 8;
			r = spx_xrealloc(r, sizeof *r * (size_t)cap);
		}
		r[(*n)++] = spx_xstrdup(ent->d_name);
	}
	closedir(d);
	if (*n > 1)
		qsort(r, (size_t)*n, sizeof *r, by_name);
	return r;
}

char *
project_unlisted_declaring(const char *manifest_path, const ProjectManifest *man, const char *module)
{
	char *root = root_of(manifest_path);
	StrMap listed = {0}, dirs = {0};
	for (int i = 0; i < man->nsources; i++)
		sema_strmap_put(&listed, man->sources[i], i);
	char *found = NULL;
	char **held = spx_xcalloc((size_t)man->nsources + 1, sizeof *held);   /* dirs' keys (borrowed by the map) */
	for (int i = 0; i < man->nsources && !found; i++) {
		const char *slash = strrchr(man->sources[i], '/');
		char *dir = slash ? spx_xstrndup(man->sources[i], (size_t)(slash - man->sources[i])) : spx_xstrdup("");
		if (!sema_strmap_put(&dirs, dir, i)) {
			free(dir);
			continue;   /* that directory was looked at */
		}
		held[i] = dir;
		char *path = *dir ? (strcmp(root, ".") == 0 ? spx_xstrdup(dir) : join(root, dir)) : spx_xstrdup(root);
		int n = 0;
		char **names = spx_names(path, &n);
		for (int k = 0; k < n; k++) {
			char *spelled = *dir ? join(dir, names[k]) : spx_xstrdup(names[k]);
			char *file = join(path, names[k]);
			struct stat st;
			if (!found && sema_strmap_get(&listed, spelled) < 0 && lstat(file, &st) == 0 && S_ISREG(st.st_mode) &&
			    st.st_size <= (off_t)DRIVER_MAX_SOURCE) {
				DiagSink q;
				diag_init(&q, file, NULL, 0);
				size_t len = 0;
				char *src = driver_read_source(file, &len, &q);
				diag_free(&q);
				char *m = src ? declared_module(src, len) : NULL;
				if (m && strcmp(m, module) == 0) {
					found = spelled;
					spelled = NULL;
				}
				free(m);
				free(src);
			}
			free(spelled);
			free(file);
			free(names[k]);
		}
		free(names);
		free(path);
	}
	sema_strmap_free(&listed);
	sema_strmap_free(&dirs);
	for (int i = 0; i < man->nsources; i++)
		free(held[i]);
	free(held);
	free(root);
	return found;
}

int
project_source_line(const char *src, size_t len, const char *source)
{
	size_t n = strlen(source);
	for (size_t i = 0; src && i + n + 2 <= len; i++)
		if ((src[i] == '"' || src[i] == '\'') && memcmp(src + i + 1, source, n) == 0 && src[i + 1 + n] == src[i]) {
			int line = 1;
			for (size_t k = 0; k < i; k++)
				line += src[k] == '\n';
			return line;
		}
	return 0;
}

bool
project_check(Project *pj, const char *manifest_path)
{
	return project_check_overlay(pj, manifest_path, NULL, 0);
}

/* The manifest stage of a check: read, validate, canonical, the bundled
 * dependencies added, the source paths joined and admitted.  False after
 * reporting; pj->src is NULL when the manifest could not be read. */
static bool
load_manifest(Project *pj, const char *manifest_path)
{
	memset(pj, 0, sizeof *pj);
	pj->manifest_path = spx_xstrdup(manifest_path);
	diag_init(&pj->diags, pj->manifest_path, NULL, 0);
	driver_program_init(&pj->P);
	pj->src = driver_read_source(pj->manifest_path, &pj->len, &pj->diags);
	if (!pj->src) {
		unread_manifest_help(&pj->diags);
		return false;
	}
	/* read: a project, whose files print relative to its directory (the
	 * manifest by its name there); one that does not read keeps the path
	 * it was looked for by */
	pj->diags.shown = project_manifest_shown(pj->manifest_path);
	pj->diags.src = pj->src;
	pj->diags.src_len = pj->len;
	if (!project_manifest_read(&pj->man, pj->src, pj->len, &pj->diags) ||
	    !project_manifest_canonical(&pj->man, pj->src, pj->len, &pj->diags))
		return false;
	pj->man_ok = true;
	if (!project_std_resolve(pj))
		return false;
	char *root = root_of(pj->manifest_path);
	pj->paths = spx_xcalloc((size_t)pj->man.nsources, sizeof *pj->paths);
	for (int i = 0; i < pj->man.nsources; i++)
		pj->paths[i] = strcmp(root, ".") == 0 ? spx_xstrdup(pj->man.sources[i]) : join(root, pj->man.sources[i]);
	free(root);
	pj->st = spx_xcalloc((size_t)pj->man.nsources + 1, sizeof *pj->st);
	pj->admitted = admit_sources(pj->manifest_path, pj->man.sources, pj->paths, pj->man.nsources, &pj->diags, pj->st);
	return pj->admitted;
}

/* A listed source that does not read (I001): the help names the manifest
 * line listing it, and a file of that directory the manifest does not list
 * whose name is near (edit distance at most 2: a typo in the manifest). */
static void
unread_source_help(Project *pj)
{
	for (int m = 0; m < pj->P.nmods; m++) {
		ProgModule *pm = pj->P.mods[m];
		DiagSink *ds = &pm->s.diags;
		if (pm->src_index <= 0 || pm->s.src || !ds->items.len || ds->items.items[ds->items.len - 1].code != DIAG_I001)
			continue;
		const char *spelled = pj->man.sources[pm->src_index - 1];
		int line = project_source_line(pj->src, pj->len, spelled);
		const char *slash = strrchr(spelled, '/');
		char *dir = slash ? spx_xstrndup(spelled, (size_t)(slash - spelled)) : spx_xstrdup("");
		char *root = root_of(pj->manifest_path);
		char *path = *dir ? (strcmp(root, ".") == 0 ? spx_xstrdup(dir) : join(root, dir)) : spx_xstrdup(root);
		int n = 0, best = 3;
		char **names = spx_names(path, &n);
		char *near = NULL;
		for (int k = 0; k < n; k++) {
			char *cand = *dir ? join(dir, names[k]) : spx_xstrdup(names[k]);
			bool listed = false;
			for (int i = 0; i < pj->man.nsources && !listed; i++)
				listed = strcmp(pj->man.sources[i], cand) == 0;
			int dist = listed ? 3 : spx_edit_distance(spelled, cand, true);
			if (dist < best) {
				best = dist;
				free(near);
				near = cand;
			} else {
				free(cand);
			}
			free(names[k]);
		}
		free(names);
		Buf at = {0};
		if (line)
			buf_printf(&at, "%s:%d", project_manifest_shown(pj->manifest_path), line);
		else
			buf_puts(&at, "the manifest");
		if (near)
			diag_set_help(&ds->items.items[ds->items.len - 1], "%s lists `%s` in `sources`; did you mean \"%s\"? (correct the entry, or create the file)",
			    at.data, spelled, near);
		else
			diag_set_help(&ds->items.items[ds->items.len - 1], "%s lists `%s` in `sources`: create the file, or correct or remove that entry", at.data, spelled);
		buf_free(&at);
		free(near);
		free(path);
		free(root);
		free(dir);
	}
}

static int64_t
now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static int64_t
ts_ns(struct timespec t)
{
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* The file a module is read from, as lstat saw it just before the read
 * (taken at `now`): project_recheck trusts an unchanged identity instead of
 * reading the bytes again only when the file was already older than
 * STAT_SETTLED at that read — a write in the same timestamp tick as an
 * earlier one (coarse file clocks, 1–2 s on some file systems) could
 * otherwise keep size and times (git's "racy" rule). */
#define STAT_SETTLED ((int64_t)3 * 1000000000)
static void
note_disk(ProgModule *pm, const struct stat *st, int64_t now)
{
	pm->disk.settled = S_ISREG(st->st_mode) && ts_ns(st->st_mtim) < now - STAT_SETTLED && ts_ns(st->st_ctim) < now - STAT_SETTLED;
	pm->disk.dev = (uint64_t)st->st_dev;
	pm->disk.ino = (uint64_t)st->st_ino;
	pm->disk.size = (uint64_t)st->st_size;
	pm->disk.mtime_ns = ts_ns(st->st_mtim);
	pm->disk.ctime_ns = ts_ns(st->st_ctim);
}

static bool
same_disk(const ProgModule *pm, const struct stat *st)
{
	return pm->disk.settled && S_ISREG(st->st_mode) && pm->disk.dev == (uint64_t)st->st_dev &&
	       pm->disk.ino == (uint64_t)st->st_ino && pm->disk.size == (uint64_t)st->st_size &&
	       pm->disk.mtime_ns == ts_ns(st->st_mtim) && pm->disk.ctime_ns == ts_ns(st->st_ctim);
}

/* The overlay whose file is sst's (device and inode): ost[k] is ov[k]'s
 * stat, taken once per check (ohave[k] when it succeeded). */
static const ProjectOverlay *
overlay_by_id(const struct stat *sst, const ProjectOverlay *ov, const struct stat *ost, const bool *ohave, int nov)
{
	for (int k = 0; k < nov; k++)
		if (ohave[k] && ost[k].st_dev == sst->st_dev && ost[k].st_ino == sst->st_ino)
			return &ov[k];
	return NULL;
}

bool
project_check_overlay(Project *pj, const char *manifest_path, const ProjectOverlay *ov, int nov)
{
	if (!load_manifest(pj, manifest_path))
		return false;
	int64_t now = now_ns();
	/* each overlay's file once; each source's is its admission lstat (no link) */
	struct stat *ost = spx_xcalloc((size_t)nov + 1, sizeof *ost);
	bool *ohave = spx_xcalloc((size_t)nov + 1, sizeof *ohave);
	for (int k = 0; k < nov; k++)
		ohave[k] = stat(ov[k].path, &ost[k]) == 0;
	for (int i = 0; i < pj->man.nsources; i++) {
		const ProjectOverlay *o = overlay_by_id(&pj->st[i], ov, ost, ohave, nov);
		driver_program_add(&pj->P, pj->paths[i], o ? o->src : NULL, o ? o->len : 0);
		pj->P.mods[pj->P.nmods - 1]->src_index = i + 1;
		driver_program_spell(pj->P.mods[pj->P.nmods - 1], pj->man.sources[i]);
		if (!o)
			note_disk(pj->P.mods[pj->P.nmods - 1], &pj->st[i], now);
	}
	free(ost);
	free(ohave);
	bool ok = driver_program_check_linked(&pj->P);
	unread_source_help(pj);
	if (ok)
		ok = check_roles(pj);
	return ok;
}

bool
project_recheck(Project *pj, Project *old, const char *manifest_path, const ProjectOverlay *ov, int nov)
{
	memset(pj, 0, sizeof *pj);
	bool ok = old && old->man_ok && old->P.linked && load_manifest(pj, manifest_path) && pj->len == old->len &&
	          memcmp(pj->src, old->src, pj->len) == 0;
	/* old's source modules by their index in the (same) manifest */
	ProgModule **was = ok ? spx_xcalloc((size_t)pj->man.nsources + 1, sizeof *was) : NULL;
	for (int j = 0; ok && j < old->P.nmods; j++) {
		ProgModule *om = old->P.mods[j];
		if (om && om->src_index > 0 && om->src_index <= pj->man.nsources)
			was[om->src_index - 1] = om;
	}
	bool *same = ok ? spx_xcalloc((size_t)pj->P.nmods + (size_t)pj->man.nsources + 1, sizeof *same) : NULL;
	/* the overlays' files, once (not once per source) */
	struct stat *ost = spx_xcalloc((size_t)nov + 1, sizeof *ost);
	bool *ohave = spx_xcalloc((size_t)nov + 1, sizeof *ohave);
	for (int k = 0; ok && k < nov; k++)
		ohave[k] = stat(ov[k].path, &ost[k]) == 0;
	int64_t now = now_ns();
	for (int i = 0; ok && i < pj->man.nsources; i++) {
		const ProjectOverlay *o = NULL;
		struct stat sst;
		if (stat(pj->paths[i], &sst) == 0)
			o = overlay_by_id(&sst, ov, ost, ohave, nov);
		if (o) {
			driver_program_add(&pj->P, pj->paths[i], o->src, o->len);
			pj->P.mods[pj->P.nmods - 1]->src_index = i + 1;
			driver_program_spell(pj->P.mods[pj->P.nmods - 1], pj->man.sources[i]);
			continue;
		}
		if (was[i] && same_disk(was[i], &pj->st[i])) {
			/* unchanged on disk since it was read (and settled then) */
			driver_program_add(&pj->P, pj->paths[i], NULL, 0);
			pj->P.mods[pj->P.nmods - 1]->src_index = i + 1;
			driver_program_spell(pj->P.mods[pj->P.nmods - 1], pj->man.sources[i]);
			same[pj->P.nmods - 1] = true;
			continue;
		}
		DiagSink d;
		diag_init(&d, pj->paths[i], NULL, 0);
		size_t len = 0;
		char *src = driver_read_source(pj->paths[i], &len, &d);
		diag_free(&d);
		if (!src) {
			ok = false;   /* the cold check reports it */
			break;
		}
		Session *s = driver_program_add(&pj->P, pj->paths[i], NULL, 0);
		s->src = src;
		s->len = len;
		s->diags.src = src;
		s->diags.src_len = len;
		pj->P.mods[pj->P.nmods - 1]->src_index = i + 1;
		driver_program_spell(pj->P.mods[pj->P.nmods - 1], pj->man.sources[i]);
		note_disk(pj->P.mods[pj->P.nmods - 1], &pj->st[i], now);
	}
	free(ost);
	free(ohave);
	int r = -1;
	if (ok) {
		driver_program_carry(&pj->P, &old->P, same);
		r = driver_program_recheck(&pj->P, &old->P);
		if (r < 0)
			driver_program_uncarry(&pj->P, &old->P);
	}
	free(was);
	free(same);
	if (r < 0) {
		project_free(pj);
		return project_check_overlay(pj, manifest_path, ov, nov);
	}
	pj->incremental = true;
	return r == 1 && check_roles(pj);
}

bool
project_lower(Project *pj)
{
	bool ok = true;
	for (int i = 0; i < pj->P.nmods; i++)
		ok &= driver_lower(&pj->P.mods[i]->s);
	return ok;
}

void
project_emit_diags(const Project *pj, bool json)
{
	diag_emit_all(&pj->diags, json);
	for (int i = 0; i < pj->P.nmods; i++)
		diag_emit_all(&pj->P.mods[i]->s.diags, json);
}

void
project_free(Project *pj)
{
	if (pj->base) {
		project_free(pj->base);
		free(pj->base);
	}
	driver_program_free(&pj->P);
	if (pj->paths)
		for (int i = 0; i < pj->man.nsources; i++)
			free(pj->paths[i]);
	free(pj->paths);
	free(pj->st);
	project_manifest_free(&pj->man);
	diag_free(&pj->diags);
	free(pj->src);
	free(pj->manifest_path);
	memset(pj, 0, sizeof *pj);
}
