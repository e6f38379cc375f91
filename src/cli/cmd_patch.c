/*
 * cmd_patch.c — the agent write commands (TOOLCHAIN.md §1.2, §1.4, §3.6, §3.7;
 * `repairs`, `repair` and `fix` are cmd_repair.c's):
 *
 *   semaprax patch <file> <patch.spatch> [--dry-run]
 *   semaprax patch <project> <transaction.json> [--dry-run]  (cmd_patch_project.c)
 *   semaprax impact <file> <patch.spatch> [--depth N] [--max-bytes N] [--max-nodes N]
 *   semaprax review <file> <patch.spatch>
 *   semaprax review <project> <transaction.json> [--evidence]
 *
 * `patch`: lock the file (fmt_write.c), verify it, resolve the patch
 * against that one verified program (src/patch/), apply the edits to a
 * copy, verify the copy fully (parse, check, lower, validate) and compare
 * its meaning (patch_same_meaning), then commit atomically, checking the
 * file still holds the bytes the edits were computed from.  Anything that
 * fails leaves the file byte for byte as it was.  --dry-run prints the
 * unified diff and the revision the file would have, and writes nothing.
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fmt_write.h"
#include "patch_cli.h"

#include "../graph/graph.h"
#include "../patch/patch.h"
#include "../project/project.h"
#include "../support/json.h"
#include "../support/sha256.h"
#include "../support/utf8.h"

/* The patch file's bytes, or NULL after I202 (printed); transaction: a
 * review's JSON transaction, named so in the diagnostic. */
char *
cli_patch_read(const char *path, size_t *len, bool transaction)
{
	DiagSink tmp;
	diag_init(&tmp, path, NULL, 0);
	char *text = driver_read_source(path, len, &tmp);
	const char *why = tmp.items.len ? tmp.items.items[0].message : NULL;
	if (text && utf8_validate((const unsigned char *)text, *len) != *len)
		why = transaction ? "the transaction is not valid UTF-8" : "the patch is not valid UTF-8";
	if (why) {
		DiagSink s;
		diag_init(&s, path, NULL, 0);
		Diag *d = diag_report(&s, DIAG_I202, NULL, "cannot read semantic %s: %s", transaction ? "transaction" : "patch", why);
		if (transaction)
			diag_set_help(d, "pass a readable semantic transaction, a JSON file (docs/PATCH.md)");
		cli_emit_diags(&s);
		diag_free(&s);
		free(text);
		text = NULL;
	}
	diag_free(&tmp);
	return text;
}

bool
cli_patch_verify_copy(Session *c, const char *path, const char *src, size_t len)
{
	driver_session_init(c, path);
	driver_set_source(c, src, len);
	if (!driver_parse(c) || !driver_check(c))
		return false;
	driver_revision(c);
	return driver_lower(c);
}

/* ---- unified diff of old → new, from the plan's edits ---- */

typedef struct Lines {
	const char *s;
	size_t len;
	uint32_t *start;   /* start offset of each line, plus len at [n] */
	int n;
} Lines;

static void
lines_init(Lines *l, const char *s, size_t len)
{
	l->s = s;
	l->len = len;
	l->n = 0;
	int cap = 16;
	l->start = spx_xmalloc(sizeof(uint32_t) * (size_t)cap);
	size_t at = 0;
	while (at < len) {
		if (l->n + 2 > cap) {
			cap *= 2;
			l->start = spx_xrealloc(l->start, sizeof(uint32_t) * (size_t)cap);
		}
		l->start[l->n++] = (uint32_t)at;
		const char *nl = memchr(s + at, '\n', len - at);
		at = nl ? (size_t)(nl - s) + 1 : len;
	}
	l->start[l->n] = (uint32_t)len;
}

/* 0-based line holding offset off (off == len: the last line). */
static int
line_of(const Lines *l, uint32_t off)
{
	int lo = 0, hi = l->n - 1;
	while (lo < hi) {
		int mid = (lo + hi + 1) / 2;
		if (l->start[mid] <= off)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/* A unified diff's two header lines for path; its control bytes as \xNN, so
 * a name cannot forge a diff line. */
void
cli_diff_header(Buf *b, const char *path)
{
	Buf vis = {0};
	diag_put_visible(&vis, path, strlen(path));
	buf_putc(&vis, '\0');
	if (path[0] == '/')
		buf_printf(b, "--- %s\n+++ %s\n", vis.data, vis.data);
	else
		buf_printf(b, "--- a/%s\n+++ b/%s\n", vis.data, vis.data);
	buf_free(&vis);
}

/* A diff shows the source's lines, which may hold control bytes raw (a
 * string or a comment; a file need not be canonical to verify): printed
 * raw, an escape sequence in a previewed file acted on the terminal of
 * whoever previewed it (qa40). */
void
cli_diff_text(Buf *b, const char *s, size_t len)
{
	size_t from = 0;
	for (size_t i = 0; i < len; i++)
		if (s[i] == '\t' || (s[i] == '\r' && i + 1 == len)) {
			diag_put_visible(b, s + from, i - from);
			buf_putc(b, s[i]);
			from = i + 1;
		}
	diag_put_visible(b, s + from, len - from);
}

/* Whether an edit inserts whole lines at a line's start (its text ends in
 * a newline): the diff shows it below the line above. */
static bool
line_insert(const PatchEdit *e, const char *old)
{
	size_t xl = strlen(e->text);
	return e->start == e->end && e->start > 0 && old[e->start - 1] == '\n' && xl && e->text[xl - 1] == '\n';
}

/* An old offset's position in the new text (edits before it shift it; at
 * a region's end, the lines inserted at it too).  The diff asks for
 * offsets in increasing order, and the plan's edits are sorted and apart
 * (their ends never decrease), so the edits ending before off are summed
 * once into the cursor (was every edit per offset: 20,000 of them in a
 * family's remove-parameter made the dry run quadratic); those ending at
 * off are weighed each time.  An offset below the cursor's starts over. */
typedef struct MapCursor {
	int i;            /* edits[0..i) end before last */
	int64_t shift;    /* their length change */
	uint32_t last;
} MapCursor;

static uint32_t
map_off(MapCursor *c, const PatchPlan *pl, const char *old, uint32_t off, bool end)
{
	if (off < c->last)
		*c = (MapCursor){ 0, 0, 0 };
	c->last = off;
	for (; c->i < pl->edits.len && pl->edits.items[c->i].end < off; c->i++) {
		const PatchEdit *e = &pl->edits.items[c->i];
		c->shift += (int64_t)strlen(e->text) - (int64_t)(e->end - e->start);
	}
	int64_t shift = c->shift;
	for (int i = c->i; i < pl->edits.len && pl->edits.items[i].end == off; i++) {
		const PatchEdit *e = &pl->edits.items[i];
		if (!(e->start == e->end && e->start == off && !(end && line_insert(e, old))))
			shift += (int64_t)strlen(e->text) - (int64_t)(e->end - e->start);
	}
	return (uint32_t)((int64_t)off + shift);
}

static void
put_lines(Buf *b, char mark, const char *s, size_t len)
{
	size_t at = 0;
	while (at < len) {
		const char *nl = memchr(s + at, '\n', len - at);
		size_t end = nl ? (size_t)(nl - s) : len;
		buf_putc(b, mark);
		cli_diff_text(b, s + at, end - at);
		buf_putc(b, '\n');
		if (!nl)
			buf_puts(b, "\\ No newline at end of file\n");
		at = end + 1;
	}
}

static int
count_lines(const char *s, size_t len)
{
	int n = 0;
	for (size_t i = 0; i < len; i++)
		n += s[i] == '\n';
	return n + (len > 0 && s[len - 1] != '\n');
}

/* The byte lengths of the whole lines a (la bytes) and b (lb bytes) share at
 * their start (*pre) and, of what remains, at their end (*suf); only lines
 * ending in a newline count. */
static void
common_lines(const char *a, size_t la, const char *b, size_t lb, size_t *pre, size_t *suf)
{
	size_t p = 0;
	for (;;) {
		const char *na = memchr(a + p, '\n', la - p), *nb = memchr(b + p, '\n', lb - p);
		if (!na || !nb || na - a != nb - b || memcmp(a + p, b + p, (size_t)(na - a) - p) != 0)
			break;
		p = (size_t)(na - a) + 1;
	}
	size_t s = 0;
	while (la - p - s > 0 && lb - p - s > 0 && a[la - s - 1] == '\n' && b[lb - s - 1] == '\n') {
		/* the last remaining line of each: back to the newline before it */
		size_t ia = la - s - 1, ib = lb - s - 1;
		while (ia > p && a[ia - 1] != '\n')
			ia--;
		while (ib > p && b[ib - 1] != '\n')
			ib--;
		size_t na = la - s - ia, nb = lb - s - ib;
		if (na != nb || memcmp(a + ia, b + ib, na) != 0)
			break;
		s += na;
	}
	*pre = p;
	*suf = s;
}

void
cli_patch_unified_diff(Buf *b, const char *path, const char *old, size_t old_len, const char *new_, size_t new_len, const PatchPlan *pl)
{
	if (pl->edits.len == 0)
		return;
	Lines L;
	lines_init(&L, old, old_len);
	int n = L.n > 0 ? L.n : 1;
	bool *changed = spx_xcalloc((size_t)n + 1, 1);
	for (int i = 0; i < pl->edits.len; i++) {
		const PatchEdit *e = &pl->edits.items[i];
		/* the lines an edit touches, as if it took whole lines: a removal
		 * from a line's terminator to the next one's (remove-clause) is its
		 * lines after the first terminator; an insertion at a line's start
		 * ending in a terminator (add-clause's `ensures`) the line above's
		 * end (the hunk's context is then the same either way) */
		uint32_t s = e->start, en = e->end;
		size_t tl = s < old_len && old[s] == '\n' ? 1 : s + 1 < old_len && old[s] == '\r' && old[s + 1] == '\n' ? 2 : 0;
		if (en > s && !e->text[0] && tl && en + tl <= old_len && memcmp(old + en, old + s, tl) == 0) {
			s += (uint32_t)tl;
			en += (uint32_t)tl;
		} else if (line_insert(e, old)) {
			s = en = s - 1;
		}
		int a = line_of(&L, s), z = line_of(&L, en > s ? en - 1 : s);
		for (int k = a; k <= z && k < n; k++)
			changed[k] = true;
	}
	cli_diff_header(b, path);
	MapCursor mc = { 0, 0, 0 };
	int shift = 0;   /* new line number - old line number so far */
	int k = 0;
	while (k < n) {
		if (!changed[k]) {
			k++;
			continue;
		}
		/* a hunk: changed lines whose gaps are at most 6 lines, 3 lines of context */
		int first = k, last = k;
		for (int j = k + 1; j < n && j <= last + 7; j++)
			if (changed[j])
				last = j;
		int a = first - 3 < 0 ? 0 : first - 3, z = last + 3 >= n ? n - 1 : last + 3;
		Buf h = {0};
		int old_count = 0, new_count = 0;
		int j = a;
		while (j <= z) {
			if (!changed[j]) {
				put_lines(&h, ' ', old + L.start[j], L.start[j + 1] - L.start[j]);
				old_count++;
				new_count++;
				j++;
				continue;
			}
			int r = j;
			while (r + 1 <= z && changed[r + 1])
				r++;
			uint32_t os = L.start[j], oe = L.start[r + 1];
			uint32_t ns = map_off(&mc, pl, old, os, false), ne = map_off(&mc, pl, old, oe, true);
			/* lines an edit touched but left as they were (an insertion at
			 * a line's end) are context, not a line removed and re-added */
			size_t pre = 0, suf = 0;
			common_lines(old + os, oe - os, new_ + ns, ne - ns, &pre, &suf);
			int pre_n = count_lines(old + os, pre), suf_n = count_lines(old + oe - suf, suf);
			put_lines(&h, ' ', old + os, pre);
			put_lines(&h, '-', old + os + pre, oe - os - pre - suf);
			put_lines(&h, '+', new_ + ns + pre, ne - ns - pre - suf);
			put_lines(&h, ' ', old + oe - suf, suf);
			old_count += r - j + 1;
			new_count += pre_n + suf_n + count_lines(new_ + ns + pre, ne - ns - pre - suf);
			j = r + 1;
		}
		buf_printf(b, "@@ -%d,%d +%d,%d @@\n", a + 1, old_count, a + 1 + shift, new_count);
		buf_put(b, h.data ? h.data : "", h.len);
		buf_free(&h);
		shift += new_count - old_count;
		k = z + 1;
	}
	(void)new_len;
	free(changed);
	free(L.start);
}

/* ---- the candidate: plan, apply, verify, compare ---- */

/* The refusal is the errors: a warning the base already had (same code
 * and message) is not repeated (agent40: a file with its S112s answered
 * every refused rename with all of them before its errors).  Both sinks
 * hold at most their limit of items (1,000), so the pairs are bounded. */
int
cli_patch_drop_known_warnings(DiagSink *cand, const DiagSink *base)
{
	int dropped = 0;
	for (int i = cand->items.len - 1; i >= 0; i--) {
		const Diag *w = &cand->items.items[i];
		bool old = false;
		for (int j = 0; j < base->items.len && !old && diag_info[w->code].sev == SEV_WARNING; j++)
			old = base->items.items[j].code == w->code && strcmp(base->items.items[j].message, w->message) == 0;
		if (old) {
			diag_remove(cand, i);
			dropped++;
		}
	}
	return dropped;
}

void
cli_patch_dropped_line(int dropped, const char *whose)
{
	if (dropped && !cli_diag_json)
		fprintf(stderr, "(%d warning%s %s not repeated)\n", dropped, dropped == 1 ? "" : "s", whose);
}

bool
cli_patch_make_candidate(Session *L, const char *path, const SPatch *sp, DiagSink *pd, PatchPlan *plan, Session *C, char **cand, size_t *clen)
{
	if (!patch_plan(sp, L->m, L->S, L->H, L->src, L->len, L->revision, pd, plan))
		return false;
	*cand = patch_apply(L->src, L->len, plan, clen);
	if (!cli_patch_verify_copy(C, path, *cand, *clen)) {
		int dropped = cli_patch_drop_known_warnings(&C->diags, &L->diags);
		if (!cli_diag_json) {
			fputs("semantic patch result does not verify; ", stderr);
			cli_put_visible(stderr, path);
			fputs(" is unchanged:\n", stderr);
		}
		cli_emit_diags(&C->diags);
		cli_patch_dropped_line(dropped, "the file already has");
		return false;
	}
	return cli_patch_accept(sp, plan, L, C, pd);
}

bool
cli_patch_accept(const SPatch *sp, PatchPlan *plan, Session *L, Session *C, DiagSink *pd)
{
	if (!patch_same_meaning(sp, plan, L->S, C->S, pd))
		return false;
	if (!patch_has_v4_edit(sp))
		return true;
	/* v4: the added functions' ids, in operation order (sym order of the copy) */
	SymId next = 0;
	for (int i = 0; i < plan->changes.len; i++) {
		PatchChange *ch = &plan->changes.items[i];
		if (!ch->v4kind || strcmp(ch->v4kind, "function_added") != 0)
			continue;
		while (next < C->S->syms.len && (sema_sym(C->S, next)->prelude || sema_strmap_get(&L->S->ids, sema_sym(C->S, next)->id) >= 0))
			next++;
		if (next < C->S->syms.len) {
			free(ch->added_id);
			ch->added_id = spx_xstrdup(sema_sym(C->S, next++)->id);
		}
	}
	if (!sp->no_new_effects)
		return true;
	/* `require no-new-effects`: no changed function performs a new effect */
	ReviewFact *facts = spx_xcalloc((size_t)sp->nops + 1, sizeof *facts);
	patch_review_facts(sp, plan, L->S, L->H, C->S, C->H, facts);
	bool ok = true;
	for (int i = 0; i < sp->nops && ok; i++)
		if (facts[i].added_effects && facts[i].added_effects[0]) {
			const Span *s = NULL;
			for (int o = 0; o < sp->nops; o++)
				if (sp->ops[o].kind == POP_NO_NEW_EFFECTS)
					s = &sp->ops[o].line;
			Diag *g = diag_report(pd, DIAG_G105, s, "semantic patch violates requirement `no-new-effects`: operation %d now performs %s", i,
			    facts[i].added_effects);
			diag_set_help(g, "drop the code that performs the effect, or the requirement");
			ok = false;
		}
	patch_review_facts_free(facts, sp->nops);
	return ok;
}

/*
 * What `patch`, `impact` and `review` share: the patch file read and parsed, the
 * program loaded, and the candidate planned, applied and verified.
 */
typedef struct PatchRun {
	const char *path;
	char *ptext;
	size_t plen;
	DiagSink pd;          /* the patch file's diagnostics */
	bool pd_shown;        /* … printed (run_flush) */
	SPatch sp;
	char *manifest;       /* the project that lists path (cli_patch_manifest), or NULL */
	ProjectPatch *pp;     /* … its verified project and candidate */
	Program P;
	Session *L;           /* the loaded program's root session (a project: path's module) */
	Session C;            /* the verified candidate (a single file) */
	Session *Cand;        /* the candidate's session: &C, or path's module in pp->C */
	PatchPlan plan;
	char *cand;
	size_t clen;
	GraphModel *g;
	ImpactNode *nodes;
	int nnodes;
} PatchRun;

/* The manifest (free it) of the nearest semaprax.toml that lists the file
 * at path (project_manifest_listing), relative when it is below the
 * working directory (as its modules' diagnostics then name them); NULL
 * for a file no project lists.  A nearest manifest that does not read
 * claims the file too, as in the LSP server: which files it means is
 * unknown, so the commands report its diagnostics rather than take the
 * file alone (cli_patch_project_open). */
char *
cli_patch_manifest(const char *path)
{
	char *manifest = project_manifest_listing(path, true);
	char *cwd = manifest ? getcwd(NULL, 0) : NULL;
	size_t n = cwd ? strlen(cwd) : 0;
	if (cwd && n > 1 && strncmp(manifest, cwd, n) == 0 && manifest[n] == '/')
		memmove(manifest, manifest + n + 1, strlen(manifest + n + 1) + 1);
	free(cwd);
	return manifest;
}

/* The manifest's directory spelled from the working directory (cwd: its
 * real path): `.`, a path below it, else the manifest's own. */
static char *
project_dir_shown(const char *manifest, const char *cwd)
{
	size_t n = cwd ? strlen(cwd) : 0;
	const char *shown = manifest;
	if (cwd && n > 1 && strncmp(manifest, cwd, n) == 0 && manifest[n] == '/')
		shown = manifest + n + 1;
	const char *slash = strrchr(shown, '/');
	char *dir = slash ? spx_xstrndup(shown, (size_t)(slash - shown)) : spx_xstrdup(".");
	if (!*dir) {
		free(dir);
		dir = spx_xstrdup("/");
	}
	return dir;
}

/* A `.spx` file inside a project directory that its manifest does not list
 * (a new file): T105 / spanless G172 say how to add it, then the command. */
static void
unlisted_module_help(DiagSink *ds, const char *path, const char *cmd, const char *rest)
{
	char *rel = NULL;
	char *manifest = project_manifest_above(path, &rel);
	if (!manifest)
		return;
	char *cwd = getcwd(NULL, 0);
	char *dir = project_dir_shown(manifest, cwd);
	for (int i = 0; i < ds->items.len; i++) {
		Diag *d = &ds->items.items[i];
		if (d->code == DIAG_T105 || (d->code == DIAG_G172 && !d->has_span))
			diag_set_help(d, "`%s` lies in the project in `%s`, whose manifest does not list it: add \"%s\" to `sources` in "
			    "%s%ssemaprax.toml (byte order), then run `semaprax %s %s%s`", path, dir, rel, strcmp(dir, ".") == 0 ? "" : dir,
			    strcmp(dir, ".") == 0 ? "" : "/", cmd, dir, rest);
	}
	free(dir);
	free(cwd);
	free(rel);
	free(manifest);
}

void
cli_listed_module_help(DiagSink *ds, const char *path, const char *cmd, const char *rest)
{
	bool any = false;
	for (int i = 0; i < ds->items.len; i++)
		any |= ds->items.items[i].code == DIAG_T105 || ds->items.items[i].code == DIAG_G172;
	char *manifest = any ? project_manifest_listing(path, false) : NULL;
	if (!manifest && any) {
		unlisted_module_help(ds, path, cmd, rest);
		return;
	}
	if (!manifest)
		return;
	char *cwd = getcwd(NULL, 0);
	/* the project's directory: the manifest's, `.` for ./semaprax.toml */
	char *dir = project_dir_shown(manifest, cwd);
	for (int i = 0; i < ds->items.len; i++) {
		Diag *d = &ds->items.items[i];
		if (d->code == DIAG_T105 || (d->code == DIAG_G172 && !d->has_span))
			diag_set_help(d, "`%s` is a module of the project in `%s`: run `semaprax %s %s%s`", path, dir, cmd, dir, rest);
	}
	free(dir);
	free(cwd);
	free(manifest);
}

/* Reads the patch file; false (nothing to close) when it cannot be read.
 * A file that a project lists is that project's module (cli_patch_manifest). */
static bool
run_open(PatchRun *r, const char *path, const char *patch_path)
{
	memset(r, 0, sizeof *r);
	r->path = path;
	r->ptext = cli_patch_read(patch_path, &r->plen, false);
	if (!r->ptext)
		return false;
	r->manifest = cli_patch_manifest(path);
	r->Cand = &r->C;
	diag_init(&r->pd, patch_path, r->ptext, r->plen);
	driver_program_init(&r->P);
	driver_session_init(&r->C, path);
	return true;
}

/* Parses the patch; a v3 repair patch is G110 when reject_v3. */
static bool
run_parse(PatchRun *r, bool reject_v3)
{
	if (!patch_parse(&r->sp, r->ptext, r->plen, &r->pd))
		return false;
	if (reject_v3 && r->sp.version == 3) {
		diag_report(&r->pd, DIAG_G110, &r->sp.ops[0].line, "semantic impact previews v1, v2 and v4 patches; this is a v3 repair patch");
		return false;
	}
	return true;
}

/* Loads the program and makes the verified candidate; false with
 * diagnostics. */
static bool
run_candidate(PatchRun *r)
{
	if (r->manifest) {
		r->pp = spx_xcalloc(1, sizeof *r->pp);
		if (!cli_patch_project_candidate(r->pp, r->manifest, r->path, &r->sp, &r->pd, &r->plan, &r->cand, &r->clen))
			return false;
		r->L = r->pp->L;
		r->Cand = r->pp->Cs;
		return true;
	}
	if (!driver_program_load_file(&r->P, r->path, &r->L, SESSION_CHECK_HIR)) {
		cli_emit_diags(&r->L->diags);
		return false;
	}
	return cli_patch_make_candidate(r->L, r->path, &r->sp, &r->pd, &r->plan, &r->C, &r->cand, &r->clen);
}

/* Prints the patch diagnostics (warnings, on success) before the result. */
static void
run_flush(PatchRun *r)
{
	if (!r->pd_shown)
		cli_emit_diags(&r->pd);
	r->pd_shown = true;
}

/* The closure reverse_closure made: every node's operations, then the array. */
static void
impact_nodes_free(ImpactNode *v, int n)
{
	for (int i = 0; v && i < n; i++)
		free(v[i].ops);
	free(v);
}

/* Prints the patch diagnostics and releases everything. */
static void
run_close(PatchRun *r)
{
	run_flush(r);
	impact_nodes_free(r->nodes, r->nnodes);
	if (r->g)
		graph_model_free(r->g);
	patch_plan_free(&r->plan);
	free(r->cand);
	driver_session_free(&r->C);
	patch_free(&r->sp);
	diag_free(&r->pd);
	free(r->ptext);
	driver_program_free(&r->P);
	if (r->pp)
		cli_patch_project_free(r->pp);
	free(r->pp);
	free(r->manifest);
}

/* ---- patch ---- */

void
cli_patch_result(Buf *b, bool dry, const char *path, const char *base, const char *revision, const char *project, const char *project_rev,
    const PatchResultModule *mods, int nmods, const Buf *diff)
{
	buf_printf(b, "{\"schema\":\"semaprax.patch-result.v1\",\"status\":\"%s\",\"path\":", dry ? "dry_run" : "applied");
	json_cstr(b, path);
	buf_puts(b, ",\"base_revision\":");
	json_cstr(b, base);
	buf_puts(b, ",\"revision\":");
	json_cstr(b, revision);
	buf_puts(b, ",\"project\":");
	if (project) {
		buf_puts(b, "{\"name\":");
		json_cstr(b, project);
		buf_puts(b, ",\"revision\":");
		json_cstr(b, project_rev);
		buf_putc(b, '}');
	} else {
		buf_puts(b, "null");
	}
	buf_puts(b, ",\"modules\":[");
	for (int i = 0; i < nmods; i++) {
		buf_puts(b, i ? ",{\"module\":" : "{\"module\":");
		json_cstr(b, mods[i].module);
		buf_puts(b, ",\"path\":");
		json_cstr(b, mods[i].path);
		buf_puts(b, ",\"base_revision\":");
		json_cstr(b, mods[i].base);
		buf_puts(b, ",\"revision\":");
		json_cstr(b, mods[i].revision);
		buf_putc(b, '}');
	}
	buf_puts(b, "],\"diff\":");
	if (dry)
		json_str(b, diff && diff->data ? diff->data : "", diff ? diff->len : 0);
	else
		buf_puts(b, "null");
	buf_puts(b, "}\n");
}

/* patch --json: the result object of a file (alone or a project module). */
static void
file_result(Buf *b, PatchRun *r, bool dry, const Buf *diff)
{
	const ProjectPatch *pp = r->pp;
	PatchResultModule m = { NULL, NULL, NULL, NULL };
	if (pp)
		m = (PatchResultModule){ pp->pj.P.mods[pp->mod]->name, r->L->diags.path, r->L->revision, r->Cand->revision };
	cli_patch_result(b, dry, r->path, r->L->revision, r->Cand->revision, pp ? pp->pj.man.name : NULL, pp ? pp->C.revision : NULL, &m,
	    pp ? 1 : 0, diff);
}

#define PATCH_GRAMMAR "patch requires exactly <file> <patch.spatch> [--dry-run] [--json], or <project> <transaction.json> [--dry-run] [--json]"

int
cli_cmd_patch(int argc, char **argv)
{
	const char *path = NULL, *patch_path = NULL;
	bool dry = false, json = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--dry-run") == 0 && !dry)
			dry = true;
		else if (strcmp(a, "--json") == 0 && !json)
			json = true;
		else if (a[0] == '-' && a[1] != '\0')
			return cli_option_error("patch", a, NULL, (const char *const[]){ "--dry-run", "--json", NULL });
		else if (!path)
			path = a;
		else if (!patch_path)
			patch_path = a;
		else
			return cli_usage("patch", PATCH_GRAMMAR);
	}
	if (!patch_path)
		return cli_usage("patch", PATCH_GRAMMAR);
	cli_diag_json = json;
	char *manifest = project_manifest_for(path, NULL);
	if (manifest) {
		/* a project (its directory or semaprax.toml): a transaction */
		int st = cli_patch_apply_project(manifest, patch_path, dry);
		free(manifest);
		return st;
	}

	PatchRun r;
	if (!run_open(&r, path, patch_path))
		return EXIT_FAIL;
	int status = EXIT_FAIL;
	FmtTarget target;
	memset(&target, 0, sizeof target);
	target.lock_fd = -1;
	if (!run_parse(&r, false))
		goto out;
	if (!dry && (!cli_fmt_prepare(&target, path) || !cli_write_lock(&target)))
		goto out;
	if (!run_candidate(&r))
		goto out;
	Session *L = r.L;
	if (dry) {
		Buf b = {0}, d = {0};
		cli_patch_unified_diff(&d, path, L->src, L->len, r.cand, r.clen, &r.plan);
		if (json) {
			file_result(&b, &r, true, &d);
		} else {
			buf_put(&b, d.data ? d.data : "", d.len);
			buf_printf(&b, "dry run: graph would be %s; nothing was written\n", r.Cand->revision);
			if (r.pp)
				buf_printf(&b, "project %s would be %s\n", r.pp->pj.man.name, r.pp->C.revision);
		}
		run_flush(&r);
		fwrite(b.data, 1, b.len, stdout);
		buf_free(&b);
		buf_free(&d);
		status = EXIT_OK;
		goto out;
	}
	/* the write re-reads the file right before its commit; a project's
	 * manifest and other modules must still be what the candidate project
	 * was verified with (its guard, checked at the same point) */
	if (r.pp) {
		target.guard = cli_patch_project_unchanged;
		target.guard_ctx = r.pp;
	}
	if (!cli_fmt_write(&target, L->src, L->len, r.cand, r.clen))
		goto out;
	run_flush(&r);
	if (json) {
		Buf b = {0};
		file_result(&b, &r, false, NULL);
		fwrite(b.data, 1, b.len, stdout);
		buf_free(&b);
	} else {
		printf("applied semantic patch; graph is now %s\n", r.Cand->revision);
		if (r.pp)
			printf("project %s is now %s\n", r.pp->pj.man.name, r.pp->C.revision);
	}
	status = EXIT_OK;
out:
	run_close(&r);
	cli_fmt_release(&target);
	return status;
}

/* ---- impact (TOOLCHAIN.md §3.6) ---- */

/* Adds op to a node's sorted set of operations (every one: a set of 8
 * dropped the ninth operation reaching a function). */
static void
add_op_index(ImpactNode *v, int op)
{
	for (int i = 0; i < v->nops; i++)
		if (v->ops[i] == op)
			return;
	if (v->nops == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 4;
		v->ops = spx_xrealloc(v->ops, sizeof *v->ops * (size_t)v->cap);
	}
	int *ops = v->ops, *nops = &v->nops;
	int i = *nops;
	while (i > 0 && ops[i - 1] > op) {
		ops[i] = ops[i - 1];
		i--;
	}
	ops[i] = op;
	(*nops)++;
}

/*
 * The reverse-call closure of the plan's call instance changes over the
 * graph model (called_by edges): breadth first, each callable once at its
 * minimum depth with the operations of the paths reaching it there;
 * sorted by depth, then stable id.  An automatic callable entering it is
 * G110 (its identity is not stable enough to report).  -1 after that.
 */
static int
reverse_closure(GraphModel *g, const PatchPlan *pl, DiagSink *pd, ImpactNode **out)
{
	int n = 0, cap = 16;
	ImpactNode *v = spx_xmalloc(sizeof *v * (size_t)cap);
	int *depth = spx_xmalloc(sizeof(int) * (size_t)(g->ndecls + 1));
	int *slot = spx_xmalloc(sizeof(int) * (size_t)(g->ndecls + 1));
	for (int i = 0; i < g->ndecls; i++)
		depth[i] = slot[i] = -1;
	int *frontier = spx_xmalloc(sizeof(int) * (size_t)(g->ndecls + 1)), nf = 0;
	for (int c = 0; c < pl->changes.len; c++) {
		const PatchChange *ch = &pl->changes.items[c];
		if (ch->target || !ch->containing)
			continue;
		int d = graph_find_id(g, ch->containing);
		if (d < 0)
			continue;
		if (depth[d] < 0) {
			depth[d] = 0;
			frontier[nf++] = d;
		}
		for (int k = 0; k < ch->nops; k++) {
			if (slot[d] < 0) {
				if (n == cap)
					v = spx_xrealloc(v, sizeof *v * (size_t)(cap *= 2));
				ImpactNode z = { g->decls[d].id, g->decls[d].ntparams ? "function_template" : "function", 0, NULL, 0, 0 };
				v[n] = z;
				slot[d] = n++;
			}
			add_op_index(&v[slot[d]], ch->ops[k]);
		}
	}
	int level = 0;
	int *next = spx_xmalloc(sizeof(int) * (size_t)(g->ndecls + 1));
	bool bad = false;
	Diag *first_auto = NULL;
	Buf autos = {0};
	int nauto = 0;
	bool main_auto = false;   /* `repairs` leaves `main` alone: its @id is written by hand */
	while (nf > 0) {
		graph_sort_by_id(g, frontier, nf);
		int nn = 0;
		for (int i = 0; i < nf; i++) {
			const GraphDecl *x = &g->decls[frontier[i]];
			for (int k = 0; k < x->ncalled_by; k++) {
				int c = x->called_by[k];
				const GraphDecl *y = &g->decls[c];
				if (y->kind != GK_FUNCTION && y->kind != GK_METHOD)
					continue;
				if (depth[c] >= 0 && depth[c] <= level)
					continue;
				if (!y->explicit_id) {
					/* the first one is the error; the walk goes on to name
					 * every automatic callable it reaches in the help, so
					 * an agent assigns their ids in one round, not one a
					 * refusal (agent40) */
					if (!bad) {
						first_auto = diag_report(pd, DIAG_G110, NULL, "automatic callable `%s` enters the behavioural impact of the patch", y->id);
						bad = true;
					}
					if (depth[c] < 0 && nauto < 8)   /* each once */
						buf_printf(&autos, "%s`%s`", nauto ? ", " : "", y->name);
					if (depth[c] < 0)
						nauto++;
					main_auto |= depth[c] < 0 && strcmp(y->name, "main") == 0;
				}
				if (depth[c] < 0) {
					depth[c] = level + 1;
					next[nn++] = c;
					if (n == cap)
						v = spx_xrealloc(v, sizeof *v * (size_t)(cap *= 2));
					ImpactNode z = { y->id, y->ntparams ? "function_template" : "function", level + 1, NULL, 0, 0 };
					v[n] = z;
					slot[c] = n++;
				}
				const ImpactNode *from = &v[slot[frontier[i]]];
				for (int o = 0; o < from->nops; o++)
					add_op_index(&v[slot[c]], from->ops[o]);
			}
		}
		memcpy(frontier, next, sizeof(int) * (size_t)nn);
		nf = nn;
		level++;
	}
	free(next);
	free(frontier);
	free(slot);
	free(depth);
	if (first_auto && nauto == 1 && main_auto) {
		diag_set_help(first_auto, "write `@id(\"app.main\")` before `main` (`semaprax repairs` leaves `main` alone), so the report can name it stably");
	} else if (first_auto) {
		if (main_auto)
			buf_puts(&autos, nauto > 8 ? ", …; `main`'s by hand, `@id(\"app.main\")`" : "; `main`'s by hand, `@id(\"app.main\")`");
		if (nauto == 1)
			diag_set_help(first_auto, "give %s an explicit @id (`semaprax repairs`), so the report can name it stably", autos.data);
		else
			diag_set_help(first_auto, "give each of the %d automatic callables the patch reaches an explicit @id (`semaprax repairs`), "
			    "so the report can name them stably: %s%s", nauto, autos.data, nauto > 8 && !main_auto ? ", …" : "");
	}
	buf_free(&autos);
	if (bad) {
		impact_nodes_free(v, n);
		return -1;
	}
	/* depth, then stable id (insertion order is by depth already) */
	for (int i = 1; i < n; i++) {
		ImpactNode t = v[i];
		int j = i;
		while (j > 0 && (v[j - 1].depth > t.depth || (v[j - 1].depth == t.depth && strcmp(v[j - 1].id, t.id) > 0))) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = t;
	}
	*out = v;
	return n;
}

#define IMPACT_GRAMMAR "impact requires exactly <file> <patch.spatch> [--depth N] [--max-bytes N] [--max-nodes N] [--json]"

int
cli_cmd_impact(int argc, char **argv)
{
	const char *path = NULL, *patch_path = NULL;
	ImpactQuery q = { 1, 65536, 256 };
	bool seen[3] = { false, false, false }, json = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--json") == 0 && !json) {
			json = true;
			continue;
		}
		int o = strcmp(a, "--depth") == 0 ? 0 : strcmp(a, "--max-bytes") == 0 ? 1 : strcmp(a, "--max-nodes") == 0 ? 2 : -1;
		if (o < 0) {
			if (a[0] == '-' && a[1] != '\0')
				return cli_unknown_option("impact", a, NULL);
			if (!path)
				path = a;
			else if (!patch_path)
				patch_path = a;
			else
				return cli_usage("impact", IMPACT_GRAMMAR);
			continue;
		}
		if (seen[o])
			return cli_usage("impact", "option `%s` given twice", a);
		seen[o] = true;
		if (i + 1 >= argc)
			return cli_usage("impact", "option `%s` needs a value", a);
		const char *v = argv[++i];
		uint64_t n;
		if (o == 0 && !cli_parse_within(v, 0, 1024, &n))
			return cli_usage("impact", "--depth takes a canonical decimal 0..1024, not `%s`", v);
		if (o == 1 && !cli_parse_within(v, 1024, 16777216, &n))
			return cli_usage("impact", "--max-bytes takes a canonical decimal 1024..16777216, not `%s`", v);
		if (o == 2 && !cli_parse_within(v, 1, 65536, &n))
			return cli_usage("impact", "--max-nodes takes a canonical decimal 1..65536, not `%s`", v);
		if (o == 0)
			q.depth = (int)n;
		else if (o == 1)
			q.max_bytes = (long)n;
		else
			q.max_nodes = (int)n;
	}
	if (!patch_path)
		return cli_usage("impact", IMPACT_GRAMMAR);
	cli_diag_json = json;   /* the report is JSON already: the refusals become JSON too */

	PatchRun r;
	if (!run_open(&r, path, patch_path))
		return EXIT_FAIL;
	int status = EXIT_FAIL;
	Buf b = {0}, x = {0};
	if (!run_parse(&r, true) || !run_candidate(&r))
		goto out;
	r.g = graph_model_build(r.L->S, r.L->H);
	int nnodes = r.nnodes = reverse_closure(r.g, &r.plan, &r.pd, &r.nodes);
	/* a project module: the other modules' direct callers too */
	if (r.pp)
		cli_patch_cross_module_callers(&x, &r.pp->pj.P, r.pp->mod, &r.plan);
	if (nnodes < 0 || !patch_impact(&b, &r.sp, &r.plan, r.L->S, r.ptext, r.plen, r.L->revision, r.Cand->revision, &q, r.nodes, nnodes,
	    r.pp ? x.data : NULL, &r.pd))
		goto out;
	buf_putc(&b, '\n');
	run_flush(&r);
	fwrite(b.data, 1, b.len, stdout);
	status = EXIT_OK;
out:
	run_close(&r);
	buf_free(&b);
	buf_free(&x);
	return status;
}

/* ---- review (TOOLCHAIN.md §3.7) ---- */

/* The program's size as the review bounds it (patch.h ReviewUsage). */
static void
review_counts(const Session *L, ReviewUsage *u)
{
	Sema *S = L->S;
	for (SymId i = 0; i < S->syms.len; i++) {
		Sym *y = sema_sym(S, i);
		if (y->prelude || !y->decl)
			continue;
		switch (y->kind) {
		case SK_FN:
		case SK_METHOD:
			u->declarations++;
			u->callables++;
			break;
		case SK_RECORD: u->declarations += 1 + y->nom->nfields; break;
		case SK_VARIANT:
			u->declarations += 1 + y->nom->ncases;
			for (int c = 0; c < y->nom->ncases; c++)
				u->declarations += y->nom->cases[c].nfields;
			break;
		case SK_RESOURCE:
		case SK_INTERFACE: u->declarations++; break;
		default: break;
		}
	}
	for (uint32_t i = 0; i < L->m->nexprs; i++)
		u->call_sites += sema_expr_sym(S, i) >= 0 && sema_sym(S, sema_expr_sym(S, i))->kind == SK_FN;
}

/*
 * The review report of sp (planned as plan against the verified program L,
 * its verified candidate C; the patch text ptext) into out, as one line
 * without newline; false with diagnostics in pd.  Shared by the file and
 * the project forms of `review`.
 */
bool
cli_patch_review_report(Buf *out, Session *L, Session *C, const SPatch *sp, PatchPlan *plan, const char *ptext, size_t plen, DiagSink *pd)
{
	Buf ev = {0};
	ReviewUsage u = { 0, 0, 0, 0, 0, 0 };
	ReviewFact *facts = NULL;
	GraphModel *g = NULL;
	ImpactNode *nodes = NULL;
	int nnodes = 0;
	bool ok = false;
	if (!patch_review_same_security(sp, L->S, C->S, pd))
		goto out;
	if (patch_has_v4_edit(sp)) {
		facts = spx_xcalloc((size_t)sp->nops + 1, sizeof *facts);
		patch_review_facts(sp, plan, L->S, L->H, C->S, C->H, facts);
	}
	review_counts(L, &u);
	if (sp->version == 3) {
		SymId t = patch_repair_target(L->S, sp->ops[0].w[2].s);
		if (t < 0) {   /* the candidate admitted it: cannot happen */
			diag_report(pd, DIAG_G107, &sp->ops[0].line, "`%s` is not a repairable automatic function", sp->ops[0].w[2].s);
			goto out;
		}
		cli_patch_identity_rebase(&ev, L->S, t, sp->ops[0].to.s);
	} else {
		/* the complete impact report, with the fixed options */
		g = graph_model_build(L->S, L->H);
		nnodes = reverse_closure(g, plan, pd, &nodes);
		if (nnodes < 0)
			goto out;
		u.impact_nodes = nnodes;
		u.impact_depth = nnodes ? nodes[nnodes - 1].depth : 0;
		if (nnodes > REVIEW_MAX_IMPACT_NODES || u.impact_depth > REVIEW_MAX_IMPACT_DEPTH) {
			Diag *e = diag_report(pd, DIAG_G120, NULL,
			    "the patch's impact (%d functions, depth %d) exceeds the review's bounds (%d functions, depth %d)", nnodes, u.impact_depth,
			    REVIEW_MAX_IMPACT_NODES, REVIEW_MAX_IMPACT_DEPTH);
			diag_set_help(e, "a review never describes a truncated caller closure; split the patch");
			goto out;
		}
		ImpactQuery q = { REVIEW_MAX_IMPACT_DEPTH, REVIEW_MAX_IMPACT_BYTES, REVIEW_MAX_IMPACT_NODES };
		DiagSink scratch;
		diag_init(&scratch, pd->path, ptext, plen);
		bool fits = patch_impact(&ev, sp, plan, L->S, ptext, plen, L->revision, C->revision, &q, nodes, nnodes, NULL, &scratch);
		diag_free(&scratch);
		if (!fits) {
			Diag *e = diag_report(pd, DIAG_G120, NULL, "the patch's impact report exceeds %d bytes", REVIEW_MAX_IMPACT_BYTES);
			diag_set_help(e, "a review never embeds a truncated impact report; split the patch");
			goto out;
		}
		u.impact_bytes = ev.len;
	}
	ok = patch_review(out, sp, L->src, L->len, ptext, plen, L->revision, C->revision, ev.data ? ev.data : "", ev.len, &u, facts, pd);
out:
	patch_review_facts_free(facts, facts ? sp->nops : 0);
	impact_nodes_free(nodes, nnodes);
	if (g)
		graph_model_free(g);
	buf_free(&ev);
	return ok;
}

#define REVIEW_GRAMMAR "review requires exactly <file> <patch.spatch> [--json], or <project> <transaction.json> [--evidence] [--json]"

int
cli_cmd_review(int argc, char **argv)
{
	const char *path = NULL, *patch_path = NULL;
	bool evidence = false, json = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--json") == 0 && !json)
			json = true;
		else if (strcmp(a, "--evidence") == 0 && !evidence)
			evidence = true;
		else if (a[0] == '-' && a[1] != '\0')
			return cli_option_error("review", a, NULL, (const char *const[]){ "--evidence", "--json", NULL });
		else if (!path)
			path = a;
		else if (!patch_path)
			patch_path = a;
		else
			return cli_usage("review", REVIEW_GRAMMAR);
	}
	if (!patch_path)
		return cli_usage("review", REVIEW_GRAMMAR);
	char *manifest = project_manifest_for(path, NULL);
	if (manifest) {
		cli_diag_json = json;
		int st = cli_patch_review_project(manifest, patch_path, evidence);
		free(manifest);
		return st;
	}
	if (evidence)
		return cli_usage("review", REVIEW_GRAMMAR);   /* --evidence is the transaction form's */
	cli_diag_json = json;
	PatchRun r;
	if (!run_open(&r, path, patch_path))
		return EXIT_FAIL;
	int status = EXIT_FAIL;
	Buf b = {0};
	if (!run_parse(&r, false) || !run_candidate(&r) ||
	    !cli_patch_review_report(&b, r.L, r.Cand, &r.sp, &r.plan, r.ptext, r.plen, &r.pd))
		goto out;
	buf_putc(&b, '\n');
	run_flush(&r);
	fwrite(b.data, 1, b.len, stdout);
	status = EXIT_OK;
out:
	run_close(&r);
	buf_free(&b);
	return status;
}
