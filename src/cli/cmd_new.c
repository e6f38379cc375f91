/*
 * cmd_new.c — `semaprax new <dir> [--name n] [--template
 * calculator|library|command]` (TOOLCHAIN.md §1.2, §2.2–2.3): writes a
 * project that checks, runs and tests green out of the box.
 *
 * The directory must not exist (SPX-I101 otherwise; nothing is ever
 * overwritten); its parent must.  The name defaults to the directory's
 * last component and must be a manifest name ([a-z][a-z0-9-]*, 1–64
 * bytes), else a usage error asking for --name.  Module names are the
 * name with `-` spelled `_` (a module path segment is an identifier);
 * stable ids keep the name as written.  The manifest is the table layout
 * rendered by project_manifest_render, so it is canonical by construction;
 * the sources are in canonical `fmt` form (tests/project-test.sh checks
 * both, and check, run and test, for every template).
 *
 * Templates:
 *   calculator  app (entry) · core (add, divide with a contract) · tests;
 *   library     lib (entry: a demonstration `main`) · core (gcd, clamp) · tests;
 *   command     cli (entry, a command-line program permitting
 *               process.args.read and process.stdout.write: `main` echoes
 *               its arguments and returns the exit status) · command (the
 *               pure decision of that status) · tests.  The other modules
 *               are permit-free, so the tests and the web export stay pure.
 * On success prints `created project <name> in <dir> (template <t>)` and
 * the next commands.  The project is written into a temporary sibling
 * `.<base>.semaprax-new-XXXXXX` and renamed into place at the end (refused,
 * I101, if the target appeared meanwhile), so a kill part-way never leaves a
 * partial project at <dir>; a failure part-way removes what it wrote.  <base>
 * is cut (at a UTF-8 boundary) so the staging name fits the parent's
 * NAME_MAX.  A kill leaves the sibling: the running `new` holds an flock on
 * it and marks it (OWNER_MARK, created after the lock and removed before the
 * rename), so the next `new` of the same name removes a sibling whose mark
 * is there and whose lock is free, when it holds only names `new` writes;
 * any other sibling of the pattern is kept and named (warning I102).
 */
#include "cli.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../project/manifest.h"
#include "../project/project.h"

typedef struct NewFile {
	const char *path;         /* relative to the project directory */
	const char *text;         /* `{M}` = module prefix, `{N}` = id prefix */
} NewFile;

typedef struct NewTemplate {
	const char *name;
	const char *entry;        /* module suffix of the entry module */
	const char *web;          /* id suffix of the one web export */
	NewFile files[3];         /* sorted by path */
} NewTemplate;

/* Every template's tests module starts with this main. */
#define TESTS_MAIN \
	"// Runs first; a nonzero return fails the suite.\n" \
	"@id(\"{N}.tests.main\")\n" \
	"fn main() -> i64\n" \
	"{\n" \
	"    0\n" \
	"}\n" \
	"\n"

static const NewTemplate templates[] = {
	{ "calculator", "app", "add", {
	  { "src/app.spx",
	    "module {M}.app;\n"
	    "use function @id(\"{N}.add\") from {M}.core as add;\n"
	    "use function @id(\"{N}.divide\") from {M}.core as divide;\n"
	    "\n"
	    "// The program: 40 + 84 / 2.\n"
	    "@id(\"{N}.app.main\")\n"
	    "fn main() -> i64\n"
	    "{\n"
	    "    add(40, divide(84, 2))\n"
	    "}\n" },
	  { "src/core.spx",
	    "module {M}.core;\n"
	    "\n"
	    "@id(\"{N}.add\")\n"
	    "fn add(left: i64, right: i64) -> i64\n"
	    "{\n"
	    "    left + right\n"
	    "}\n"
	    "\n"
	    "@id(\"{N}.divide\")\n"
	    "fn divide(left: i64, right: i64) -> i64\n"
	    "    requires right != 0\n"
	    "{\n"
	    "    left / right\n"
	    "}\n" },
	  { "src/tests.spx",
	    "module {M}.tests;\n"
	    "use function @id(\"{N}.add\") from {M}.core as add;\n"
	    "use function @id(\"{N}.divide\") from {M}.core as divide;\n"
	    "\n"
	    TESTS_MAIN
	    "@id(\"{N}.tests.add\")\n"
	    "fn test_add() -> i64\n"
	    "{\n"
	    "    if add(2, 3) == 5 { 0 } else { 1 }\n"
	    "}\n"
	    "\n"
	    "@id(\"{N}.tests.divide\")\n"
	    "fn test_divide() -> i64\n"
	    "{\n"
	    "    if divide(84, 2) == 42 { 0 } else { 1 }\n"
	    "}\n" } } },
	{ "command", "cli", "exit-status", {
	  { "src/cli.spx",
	    "module {M}.cli;\n"
	    "use function @id(\"{N}.exit-status\") from {M}.command as exit_status;\n"
	    "\n"
	    "permit { process.args.read, process.stdout.write }\n"
	    "\n"
	    "// Prints each argument after `--` on its own line; the exit status is 1 when\n"
	    "// one of them is empty, else 0 (`semaprax run <dir> -- <arg>...`).\n"
	    "@id(\"{N}.cli.main\")\n"
	    "fn main() -> i64\n"
	    "    uses { process.args.read, process.stdout.write }\n"
	    "{\n"
	    "    exit_status(echo(0usize, args_len()))\n"
	    "}\n"
	    "\n"
	    "// Echoes the arguments from index on; returns how many were empty.\n"
	    "@id(\"{N}.cli.echo\")\n"
	    "fn echo(index: usize, count: usize) -> i64\n"
	    "    uses { process.args.read, process.stdout.write }\n"
	    "{\n"
	    "    if index >= count { 0 } else { line(arg_utf8(index)) + echo(index + 1usize, count) }\n"
	    "}\n"
	    "\n"
	    "// Writes one argument and a newline; 1 when the argument is empty, else 0.\n"
	    "@id(\"{N}.cli.line\")\n"
	    "fn line(arg: borrow str) -> i64\n"
	    "    uses { process.stdout.write }\n"
	    "{\n"
	    "    let written = stdout_write(str_as_bytes(arg));\n"
	    "    let newline = \"\\n\";\n"
	    "    let ended = stdout_write(str_as_bytes(string_as_str(newline)));\n"
	    "    if str_len_bytes(arg) == 0 { 1 } else { 0 }\n"
	    "}\n" },
	  { "src/command.spx",
	    "module {M}.command;\n"
	    "\n"
	    "// 0 when no errors were counted, else 1.\n"
	    "@id(\"{N}.exit-status\")\n"
	    "fn exit_status(errors: i64) -> i64\n"
	    "    requires errors >= 0\n"
	    "    ensures result == 0 || result == 1\n"
	    "{\n"
	    "    if errors == 0 { 0 } else { 1 }\n"
	    "}\n" },
	  { "src/tests.spx",
	    "module {M}.tests;\n"
	    "use function @id(\"{N}.exit-status\") from {M}.command as exit_status;\n"
	    "\n"
	    TESTS_MAIN
	    "@id(\"{N}.tests.failure\")\n"
	    "fn test_failure() -> i64\n"
	    "{\n"
	    "    if exit_status(3) == 1 { 0 } else { 1 }\n"
	    "}\n"
	    "\n"
	    "@id(\"{N}.tests.success\")\n"
	    "fn test_success() -> i64\n"
	    "{\n"
	    "    exit_status(0)\n"
	    "}\n" } } },
	{ "library", "lib", "gcd", {
	  { "src/core.spx",
	    "module {M}.core;\n"
	    "\n"
	    "// The greatest common divisor of two non-negative numbers.\n"
	    "@id(\"{N}.gcd\")\n"
	    "fn gcd(a: i64, b: i64) -> i64\n"
	    "    requires a >= 0 && b >= 0\n"
	    "    ensures result >= 0\n"
	    "{\n"
	    "    if b == 0 { a } else { gcd(b, a % b) }\n"
	    "}\n"
	    "\n"
	    "// value limited to low..=high.\n"
	    "@id(\"{N}.clamp\")\n"
	    "fn clamp(value: i64, low: i64, high: i64) -> i64\n"
	    "    requires low <= high\n"
	    "    ensures result >= low && result <= high\n"
	    "{\n"
	    "    if value < low { low } else { if value > high { high } else { value } }\n"
	    "}\n" },
	  { "src/lib.spx",
	    "module {M}.lib;\n"
	    "use function @id(\"{N}.gcd\") from {M}.core as gcd;\n"
	    "\n"
	    "// A demonstration of the library: gcd(12, 18).\n"
	    "@id(\"{N}.lib.main\")\n"
	    "fn main() -> i64\n"
	    "{\n"
	    "    gcd(12, 18)\n"
	    "}\n" },
	  { "src/tests.spx",
	    "module {M}.tests;\n"
	    "use function @id(\"{N}.clamp\") from {M}.core as clamp;\n"
	    "use function @id(\"{N}.gcd\") from {M}.core as gcd;\n"
	    "\n"
	    TESTS_MAIN
	    "@id(\"{N}.tests.clamp\")\n"
	    "fn test_clamp() -> i64\n"
	    "{\n"
	    "    let mut failures: i64 = 0;\n"
	    "    if clamp(-5, 0, 10) != 0 { failures = failures + 1; }\n"
	    "    if clamp(50, 0, 10) != 10 { failures = failures + 1; }\n"
	    "    if clamp(7, 0, 10) != 7 { failures = failures + 1; }\n"
	    "    failures\n"
	    "}\n"
	    "\n"
	    "@id(\"{N}.tests.gcd\")\n"
	    "fn test_gcd() -> i64\n"
	    "{\n"
	    "    if gcd(12, 18) == 6 && gcd(7, 0) == 7 { 0 } else { 1 }\n"
	    "}\n" } } },
};

/* text with {M} and {N} replaced. */
static void
expand(Buf *out, const char *text, const char *mod, const char *name)
{
	for (const char *p = text; *p; p++) {
		if (p[0] == '{' && (p[1] == 'M' || p[1] == 'N') && p[2] == '}') {
			buf_puts(out, p[1] == 'M' ? mod : name);
			p += 2;
		} else {
			buf_putc(out, *p);
		}
	}
}

static bool
write_file(const char *path, const Buf *b)
{
	FILE *f = fopen(path, "wbx");
	if (!f)
		return false;
	bool ok = fwrite(b->data, 1, b->len, f) == b->len;
	return fclose(f) == 0 && ok;
}

/* Test hook (tests/cli-test.sh): SEMAPRAX_TEST_KILL_AT=n kills `new` with
 * SIGKILL at step n: 1 once the staging directory exists, 2-5 after each of
 * the four files, 6 right before the rename into place; and
 * SEMAPRAX_TEST_STOP_BEFORE_COMMIT=1 stops it (SIGSTOP) there, so a script
 * can create the target before it continues (tests/stop-lib.sh). */
static void
kill_point(int n)
{
	const char *v = getenv("SEMAPRAX_TEST_KILL_AT");
	if (v && atoi(v) == n)
		raise(SIGKILL);
	v = getenv("SEMAPRAX_TEST_STOP_BEFORE_COMMIT");
	if (n == 6 && v && strcmp(v, "1") == 0)
		raise(SIGSTOP);
}

/* The staging sibling's tail after `.<base>`, and the mark a running `new`
 * keeps in it while it holds the lock (see the head comment). */
#define STAGE_TAG ".semaprax-new-"
#define OWNER_MARK ".semaprax-new-owner"

/* True when name is one `new` writes into a staging directory's `src`. */
static bool
stage_source(const char *name)
{
	for (size_t i = 0; i < countof(templates); i++)
		for (size_t k = 0; k < countof(templates[i].files); k++)
			if (strcmp(templates[i].files[k].path + 4, name) == 0)
				return true;
	return false;
}

/* True when the directory dfd (not consumed) holds only names `new` writes:
 * at the top (top) semaprax.toml, src and OWNER_MARK, else the sources. */
static bool
only_stage_names(int dfd, bool top)
{
	int fd = dup(dfd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	bool ok = true;
	struct dirent *e;
	while (ok && (e = readdir(d)) != NULL) {
		const char *n = e->d_name;
		if (strcmp(n, ".") == 0 || strcmp(n, "..") == 0)
			continue;
		if (!top) {
			ok = stage_source(n);
		} else if (strcmp(n, "src") == 0) {
			int sfd = openat(dfd, "src", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			ok = sfd >= 0 && only_stage_names(sfd, false);
			if (sfd >= 0)
				close(sfd);
		} else {
			ok = strcmp(n, "semaprax.toml") == 0 || strcmp(n, OWNER_MARK) == 0;
		}
	}
	closedir(d);
	return ok;
}

/* One sibling `path` of the staging pattern: removed when provably stale,
 * left alone while its `new` runs (its lock is held), else kept and named. */
static void
sweep_stage(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT)
		return;   /* gone meanwhile: its `new` finished */
	struct stat st;
	bool marked = fd >= 0 && fstatat(fd, OWNER_MARK, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode);
	if (marked && flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
		close(fd);
		return;   /* a running `new` holds it */
	}
	/* the lock is ours: its owner is dead, unless it removed the mark
	 * (right before its rename into place) */
	if (marked && fstatat(fd, OWNER_MARK, &st, AT_SYMLINK_NOFOLLOW) == 0 && only_stage_names(fd, true)) {
		int sfd = openat(fd, "src", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		for (size_t i = 0; sfd >= 0 && i < countof(templates); i++)
			for (size_t k = 0; k < countof(templates[i].files); k++)
				unlinkat(sfd, templates[i].files[k].path + 4, 0);
		if (sfd >= 0)
			close(sfd);
		unlinkat(fd, "src", AT_REMOVEDIR);
		unlinkat(fd, "semaprax.toml", 0);
		unlinkat(fd, OWNER_MARK, 0);
		if (rmdir(path) == 0) {
			close(fd);
			return;
		}
	}
	if (fd >= 0)
		close(fd);
	cli_report(DIAG_I102, path, "a staging directory left by an earlier `semaprax new` that cannot be proven stale; it was kept",
	    "look inside and remove it when no `semaprax new` is running");
}

/* The siblings of the staging pattern for prefix (`.<base>` STAGE_TAG, six
 * characters of mkdtemp's alphabet) in the directory dir (dlen bytes of
 * it, "." when 0), in name order. */
static void
sweep_stages(const char *dir, size_t dlen, const char *prefix)
{
	char *parent = dlen ? spx_xstrndup(dir, dlen) : spx_xstrdup(".");
	DIR *d = opendir(parent);
	char **names = NULL;
	size_t n = 0, plen = strlen(prefix);
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		const char *x = e->d_name;
		if (strncmp(x, prefix, plen) != 0 || strlen(x + plen) != 6)
			continue;
		bool alnum = true;
		for (const char *c = x + plen; *c; c++)
			alnum &= (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9');
		if (!alnum)
			continue;
		names = spx_xrealloc(names, (n + 1) * sizeof *names);
		names[n++] = spx_xstrdup(x);
	}
	if (d)
		closedir(d);
	for (size_t i = 1; i < n; i++)   /* insertion sort: readdir order is the file system's */
		for (size_t k = i; k > 0 && strcmp(names[k - 1], names[k]) > 0; k--) {
			char *t = names[k];
			names[k] = names[k - 1];
			names[k - 1] = t;
		}
	for (size_t i = 0; i < n; i++) {
		size_t len = dlen + strlen(names[i]) + 1;
		char *path = spx_xmalloc(len);
		snprintf(path, len, "%.*s%s", (int)dlen, dir, names[i]);
		sweep_stage(path);
		free(path);
		free(names[i]);
	}
	free(names);
	free(parent);
}

/* Removes the staging directory stage and what new wrote into it. */
static void
remove_stage(const char *stage, const NewTemplate *t, int written, bool manifest)
{
	size_t plen = strlen(stage) + 64;
	char *path = spx_xmalloc(plen);
	for (int i = 0; i < written; i++) {
		snprintf(path, plen, "%s/%s", stage, t->files[i].path);
		unlink(path);
	}
	if (manifest) {
		snprintf(path, plen, "%s/semaprax.toml", stage);
		unlink(path);
	}
	snprintf(path, plen, "%s/" OWNER_MARK, stage);
	unlink(path);
	snprintf(path, plen, "%s/src", stage);
	rmdir(path);
	rmdir(stage);
	free(path);
}

/* Moves the finished stage to target unless something is there now (a
 * rename onto an empty directory would replace it). */
static bool
publish(const char *stage, const char *target)
{
	struct stat st;
	if (lstat(target, &st) == 0) {
		errno = EEXIST;
		return false;
	}
	return rename(stage, target) == 0;
}

int
cli_cmd_new(int argc, char **argv)
{
	const char *dir = NULL, *name = NULL, *tmpl = "calculator";
	bool have_tmpl = false;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--name") == 0 || strcmp(argv[i], "--template") == 0) {
			bool is_name = argv[i][2] == 'n';
			if (i + 1 >= argc)
				return cli_usage("new", "%s takes a value", argv[i]);
			if (is_name ? name != NULL : have_tmpl)
				return cli_usage("new", "%s given twice", argv[i]);
			if (is_name)
				name = argv[++i];
			else
				tmpl = argv[++i], have_tmpl = true;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return cli_unknown_option("new", argv[i], "new requires <dir> [--name n] [--template calculator|library|command]");
		} else if (!dir) {
			dir = argv[i];
		} else {
			return cli_usage("new", "new takes one directory");
		}
	}
	if (!dir)
		return cli_usage("new", "new requires <dir> [--name n] [--template calculator|library|command]");
	if (!*dir)
		return cli_usage("new", "new requires a non-empty <dir> (the directory to create)");
	const NewTemplate *t = NULL;
	for (size_t i = 0; i < countof(templates); i++)
		if (strcmp(templates[i].name, tmpl) == 0)
			t = &templates[i];
	if (!t)
		return cli_usage("new", "unknown template `%s`; the templates are calculator, library and command", tmpl);
	/* the default name: the directory's last component */
	char *clean = project_dir_trimmed(dir);
	if (!name) {
		const char *slash = strrchr(clean, '/');
		name = slash ? slash + 1 : clean;
		if (!project_valid_name(name)) {
			/* `new my_app` (qa37): the name the directory's would be, lowercased, other bytes as `-` */
			char near[65];
			size_t k = 0;
			for (const char *c = name; *c && k + 1 < sizeof near; c++) {
				char ch = *c >= 'A' && *c <= 'Z' ? (char)(*c - 'A' + 'a') : *c;
				if ((ch >= 'a' && ch <= 'z') || (k > 0 && ch >= '0' && ch <= '9'))
					near[k++] = ch;
				else if (k > 0 && near[k - 1] != '-')
					near[k++] = '-';
			}
			while (k > 0 && near[k - 1] == '-')
				k--;
			near[k] = '\0';
			int st = project_valid_name(near)
			    ? cli_usage("new", "the directory name `%s` is not a project name ([a-z][a-z0-9-]*, 1-64 bytes); give one with --name, such as `--name %s`", name, near)
			    : cli_usage("new", "the directory name `%s` is not a project name ([a-z][a-z0-9-]*, 1-64 bytes); give one with --name", name);
			free(clean);
			return st;
		}
	} else if (!project_valid_name(name)) {
		free(clean);
		return cli_usage("new", "--name `%s` is not a project name ([a-z][a-z0-9-]*, 1-64 bytes)", name);
	}
	char *mod = spx_xstrdup(name);
	for (char *p = mod; *p; p++)
		if (*p == '-')
			*p = '_';
	int status = EXIT_FAIL;
	struct stat st;
	if (lstat(clean, &st) == 0) {
		cli_report(DIAG_I101, clean, "the destination already exists; nothing was written",
		    "choose a directory that does not exist yet; `new` never overwrites");
		goto out;
	}
	/* the staging sibling: same parent, so the rename stays in one file system */
	const char *base = strrchr(clean, '/');
	size_t dlen = base ? (size_t)(base - clean) + 1 : 0;
	base = base ? base + 1 : clean;
	/* `.<base>` STAGE_TAG XXXXXX within the parent's NAME_MAX: base cut at
	 * a UTF-8 boundary (it was whole: ENAMETOOLONG past NAME_MAX - 21) */
	long name_max = 255;
	{
		char *parent = dlen ? spx_xstrndup(clean, dlen) : spx_xstrdup(".");
		long pm = pathconf(parent, _PC_NAME_MAX);
		free(parent);
		if (pm >= 64 && pm < 255)
			name_max = pm;
	}
	size_t keep = strlen(base), room = (size_t)name_max - 1 - strlen(STAGE_TAG) - 6;
	if (keep > room) {
		keep = room;
		while (keep > 0 && ((unsigned char)base[keep] & 0xC0) == 0x80)
			keep--;
	}
	size_t slen = dlen + keep + 32;
	char *stage = spx_xmalloc(slen);
	snprintf(stage, slen, "." "%.*s" STAGE_TAG, (int)keep, base);
	sweep_stages(clean, dlen, stage);
	snprintf(stage, slen, "%.*s.%.*s" STAGE_TAG "XXXXXX", (int)dlen, clean, (int)keep, base);
	if (!mkdtemp(stage)) {
		char msg[256];
		snprintf(msg, sizeof msg, "cannot create the project directory: %s", strerror(errno));
		cli_report(DIAG_I101, clean, msg, "create the parent directory first, or choose a writable location");
		free(stage);
		goto out;
	}
	/* mkdtemp makes it 0700: the project gets mkdir's 0777 less the umask */
	mode_t mask = umask(0);
	umask(mask);
	chmod(stage, 0777 & ~mask);
	/* the lock, then the mark: a mark proves the lock was taken (without
	 * flock no mark, and a leftover is only ever named, never removed) */
	int lock = open(stage, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (lock >= 0 && flock(lock, LOCK_EX | LOCK_NB) == 0) {
		int mfd = openat(lock, OWNER_MARK, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (mfd >= 0)
			close(mfd);
	}
	kill_point(1);
	size_t plen = strlen(stage) + 64;
	char *path = spx_xmalloc(plen);
	snprintf(path, plen, "%s/src", stage);
	bool ok = mkdir(path, 0777) == 0;
	/* the manifest, rendered canonically */
	ProjectManifest m;
	memset(&m, 0, sizeof m);
	m.tables = true;
	m.name = (char *)name;
	m.version = (char *)"0.1.0";
	Buf entry = {0}, tests = {0}, web = {0};
	buf_printf(&entry, "%s.%s", mod, t->entry);
	buf_printf(&tests, "%s.tests", mod);
	buf_printf(&web, "%s.%s", name, t->web);
	m.entry = entry.data;
	m.test_module = tests.data;
	char *srcs[3] = { (char *)t->files[0].path, (char *)t->files[1].path, (char *)t->files[2].path };
	m.sources = srcs;
	m.nsources = 3;
	char *webs[1] = { web.data };
	m.web = webs;
	m.nweb = 1;
	Buf b = {0};
	project_manifest_render(&m, &b);
	int written = 0;
	bool manifest = false;
	if (ok) {
		snprintf(path, plen, "%s/semaprax.toml", stage);
		ok = manifest = write_file(path, &b);
		kill_point(2);
	}
	for (int i = 0; ok && i < 3; i++) {
		buf_free(&b);
		expand(&b, t->files[i].text, mod, name);
		snprintf(path, plen, "%s/%s", stage, t->files[i].path);
		ok = write_file(path, &b);
		written += ok;
		kill_point(3 + i);
	}
	kill_point(6);
	if (lock >= 0)
		unlinkat(lock, OWNER_MARK, 0);
	bool appeared = false;
	if (ok && !publish(stage, clean)) {
		appeared = errno == EEXIST || errno == ENOTEMPTY;
		ok = false;
	}
	if (ok) {
		/* the next line is for a shell: the directory quoted for it (a
		 * `;` or space in it read as the next command), and left out
		 * when a control byte would reach the terminal */
		Buf q = {0};
		bool plain = true, visible = true;
		for (const unsigned char *c = (const unsigned char *)clean; *c; c++) {
			plain &= (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
			    *c == '_' || *c == '-' || *c == '.' || *c == '/' || *c == '+' || *c == ',' || *c == ':' || *c >= 0x80;
			visible &= *c >= 0x20 && *c != 0x7F;
		}
		if (plain || !visible) {
			buf_puts(&q, visible ? clean : "<dir>");
		} else {
			buf_putc(&q, '\'');
			for (const char *c = clean; *c; c++)
				buf_puts(&q, *c == '\'' ? "'\\''" : (char[2]){ *c, 0 });
			buf_putc(&q, '\'');
		}
		printf("created project %s in ", name);
		cli_put_visible(stdout, clean);
		printf(" (template %s)\n", t->name);
		printf("next: semaprax check %s; semaprax run %s%s; semaprax test %s\n", q.data, q.data,
		    strcmp(t->name, "command") == 0 ? " -- hello world" : "", q.data);
		buf_free(&q);
		status = EXIT_OK;
	} else {
		int err = errno;
		remove_stage(stage, t, written, manifest);
		if (appeared) {
			cli_report(DIAG_I101, clean, "the destination appeared while the project was written; nothing was written there",
			    "choose a directory that does not exist yet; `new` never overwrites");
		} else {
			char msg[256];
			snprintf(msg, sizeof msg, "cannot write the project: %s; nothing was left behind", strerror(err));
			cli_report(DIAG_I101, clean, msg, "check that the location is writable and has space");
		}
	}
	buf_free(&b);
	buf_free(&entry);
	buf_free(&tests);
	buf_free(&web);
	free(path);
	free(stage);
	if (lock >= 0)
		close(lock);
out:
	free(mod);
	free(clean);
	fflush(stdout);
	return status;
}
