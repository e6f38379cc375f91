/*
 * cmd_repair.c — the diagnostic repair commands (TOOLCHAIN.md §3.8) and
 * `fix`:
 *
 *   semaprax repairs <file> assign-function-id <automatic-id> [--json]
 *   semaprax repair <file> <repair-id> --persistent-id <id> [--json]
 *   semaprax fix <file> [--code SPX-…] [--dry-run] [--json]
 *
 * A file the nearest semaprax.toml lists (cli_patch_manifest) is taken as
 * that module of its project, as `patch` takes it (docs/PATCH.md): its
 * diagnostics are the project check's, and a repair or a fix must leave
 * the whole project verified.  Any other file is checked alone.
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt_write.h"
#include "patch_cli.h"

#include "../patch/patch.h"
#include "../project/project.h"
#include "../support/json.h"

/* ---- repairs (TOOLCHAIN.md §3.8) ---- */

#define REPAIR_MAX_SOURCE 16777216
#define REPAIR_MAX_FUNCTIONS 1024
#define REPAIR_MAX_CALLS 65536
#define REPAIR_MAX_OUTPUT 33554432

typedef struct RepairCtx {
	Session *L;
	SymId target;
	int nfns, ncalls;
	const Diag *s103;     /* the target's SPX-S103 */
} RepairCtx;

/* The target's SPX-S103 when the session's sink has it (it keeps 1000
 * diagnostics: a program with more automatic functions has S103s it did
 * not keep), else the same diagnostic made again in extra (initialised
 * here; the caller frees it), as the checker words it (sema_report_s103). */
static const Diag *
target_s103(const Session *L, const Sym *y, DiagSink *extra, bool *made)
{
	for (int i = 0; i < L->diags.items.len; i++) {
		const Diag *d = &L->diags.items.items[i];
		if (d->code == DIAG_S103 && d->has_span && d->span.start == y->name_span.start)
			return d;
	}
	diag_init(extra, L->diags.path, L->src, L->len);
	*made = true;
	return sema_report_s103(extra, &y->name_span, NULL, y->name);
}

static void
repair_counts(RepairCtx *R, DiagSink *extra, bool *made)
{
	Sema *S = R->L->S;
	for (SymId i = 0; i < S->syms.len; i++)
		R->nfns += sema_sym(S, i)->kind == SK_FN;
	for (uint32_t i = 0; i < R->L->m->nexprs; i++)
		R->ncalls += sema_expr_sym(S, i) >= 0 && sema_sym(S, sema_expr_sym(S, i))->kind == SK_FN;
	R->s103 = target_s103(R->L, sema_sym(S, R->target), extra, made);
}

/* R101 (printed) for one of the report's fixed limits; false.  The limits
 * fail closed, as the reference's: never a report that exceeds them. */
static bool
over_limit(const char *path, const char *fmt, long long have, long long bound)
{
	DiagSink s;
	diag_init(&s, path, NULL, 0);
	Diag *d = diag_report(&s, DIAG_R101, NULL, fmt, have, bound);
	diag_set_help(d, "a diagnostic repair covers a program within its fixed limits; give the function its @id by hand");
	cli_emit_diags(&s);
	diag_free(&s);
	return false;
}

/* The counted program within the function and call-site limits. */
static bool
repair_within(const RepairCtx *R, const char *path)
{
	if (R->nfns > REPAIR_MAX_FUNCTIONS)
		return over_limit(path, "the program has %lld functions; the repair bound is %lld", R->nfns, REPAIR_MAX_FUNCTIONS);
	if (R->ncalls > REPAIR_MAX_CALLS)
		return over_limit(path, "the program has %lld call sites; the repair bound is %lld", R->ncalls, REPAIR_MAX_CALLS);
	return true;
}

static void
put_diag(Buf *b, const Session *L, const Diag *d)
{
	buf_puts(b, "{\"code\":");
	json_cstr(b, diag_info[d->code].code);
	buf_puts(b, ",\"severity\":\"warning\",\"message\":");
	json_cstr(b, d->message);
	buf_puts(b, ",\"path\":");
	json_cstr(b, L->diags.path);
	if (d->has_span)
		buf_printf(b, ",\"location\":{\"line\":%u,\"column\":%u,\"start\":%u,\"end\":%u}", d->line, d->col, d->span.start, d->span.end);
	else
		buf_puts(b, ",\"location\":null");
	buf_puts(b, ",\"help\":");
	json_cstr(b, diag_help_text(d));
	buf_putc(b, '}');
}

/* Prints a report whose "used_output_bytes" is its own length (a fixed
 * point): `head` and `tail` surround that number.  Past the output limit
 * R101 instead (false): no partial report. */
static bool
print_fixed_point(const char *path, const Buf *head, const Buf *tail)
{
	size_t n = head->len + tail->len + 1;
	for (int i = 0; i < 4; i++) {
		char num[32];
		n = head->len + tail->len + (size_t)snprintf(num, sizeof num, "%zu", n);
	}
	if (n > REPAIR_MAX_OUTPUT)
		return over_limit(path, "the report would be %lld bytes; the repair bound is %lld", (long long)n, REPAIR_MAX_OUTPUT);
	fwrite(head->data, 1, head->len, stdout);
	printf("%zu", n);
	fwrite(tail->data, 1, tail->len, stdout);
	putchar('\n');
	return true;
}

static void
put_common(Buf *b, RepairCtx *R, const char *schema, const char *candidate_rev, const char *cand, size_t clen)
{
	buf_printf(b, "{\"schema\":\"%s\",\"source_graph_schema\":\"semaprax.graph.v10\",\"base_revision\":", schema);
	json_cstr(b, R->L->revision);
	if (candidate_rev) {
		buf_puts(b, ",\"candidate_revision\":");
		json_cstr(b, candidate_rev);
	}
	buf_puts(b, ",\"source\":{\"digest\":");
	patch_put_digest(b, "semaprax.diagnostic-repair.source-digest.v1", R->L->src, R->L->len);
	buf_putc(b, '}');
	if (cand) {
		buf_puts(b, ",\"candidate_source\":{\"digest\":");
		patch_put_digest(b, "semaprax.diagnostic-repair.source-digest.v1", cand, clen);
		buf_putc(b, '}');
	}
	buf_printf(b, ",\"limits\":{\"max_source_bytes\":%d,\"max_functions\":%d,\"max_call_sites\":%d,\"max_output_bytes\":%d}",
	    REPAIR_MAX_SOURCE, REPAIR_MAX_FUNCTIONS, REPAIR_MAX_CALLS, REPAIR_MAX_OUTPUT);
	buf_printf(b, ",\"budget\":{\"used_source_bytes\":%zu,\"used_functions\":%d,\"used_call_sites\":%d,\"used_output_bytes\":",
	    R->L->len, R->nfns, R->ncalls);
}

static void
put_query_diag(Buf *b, RepairCtx *R)
{
	Sym *y = sema_sym(R->L->S, R->target);
	buf_puts(b, "},\"query\":{\"kind\":\"assign_function_id\",\"target\":");
	json_cstr(b, y->id);
	buf_puts(b, "},\"diagnostic\":");
	put_diag(b, R->L, R->s103);
}

/* The file a repair or a fix reads: alone, or (manifest) as its module
 * of the project the nearest semaprax.toml makes it (cli_patch_manifest). */
typedef struct RepairSrc {
	const char *path;
	char *manifest;       /* the project's manifest, or NULL */
	Program P;            /* the file alone */
	ProjectPatch pp;      /* … or its project */
	Session *L;           /* the file's session (either way) */
	DiagSink s103;        /* the target's S103 made again (target_s103) */
	bool have_s103;
} RepairSrc;

static void
src_init(RepairSrc *s, const char *path)
{
	memset(s, 0, sizeof *s);
	s->path = path;
	driver_program_init(&s->P);
	s->manifest = cli_patch_manifest(path);
}

static void
src_free(RepairSrc *s)
{
	if (s->have_s103)
		diag_free(&s->s103);
	if (s->manifest)
		cli_patch_project_free(&s->pp);
	free(s->manifest);
	driver_program_free(&s->P);
}

/* The verified program of a repair into s (s->L).  False after a
 * diagnostic. */
static bool
repair_load(RepairSrc *s)
{
	if (s->manifest) {
		if (!cli_patch_project_open(&s->pp, s->manifest, s->path, true))
			return false;
		s->L = s->pp.L;
	} else {
		driver_program_load_file(&s->P, s->path, &s->L, SESSION_CHECK_HIR);
		if (s->L->diags.errors) {
			cli_emit_diags(&s->L->diags);
			return false;
		}
	}
	if (s->L->len > REPAIR_MAX_SOURCE) {
		DiagSink d;
		diag_init(&d, s->path, NULL, 0);
		diag_report(&d, DIAG_R101, NULL, "the source is larger than the repair bound of %d bytes", REPAIR_MAX_SOURCE);
		cli_emit_diags(&d);
		diag_free(&d);
		return false;
	}
	return true;
}

/* R101; where (the file, or a project module's manifest) is what `query`
 * lists the automatic identities of. */
static int
no_repair(const char *path, const char *where, const char *fmt, const char *arg, bool automatic)
{
	DiagSink s;
	diag_init(&s, path, NULL, 0);
	Diag *d = diag_report(&s, DIAG_R101, NULL, fmt, arg);
	/* The register's help sends the user back to `repairs`, which needs the
	 * automatic id: say where it is listed. */
	if (d && automatic)
		diag_set_help(d, "`semaprax query %s` lists each automatic identity as `auto:<module>.<name>`; "
		    "pass one of those to `semaprax repairs %s assign-function-id`", where, path);
	cli_emit_diags(&s);
	diag_free(&s);
	return EXIT_FAIL;
}

/* The words of `repairs`/`repair` other than one `--json` (anywhere, as
 * `patch` takes it) into words[0..max); their count, or -1 for a second
 * `--json` or more than max words. */
static int
repair_words(int argc, char **argv, const char **words, int max, bool *json)
{
	int n = 0;
	*json = false;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0) {
			if (*json)
				return -1;
			*json = true;
		} else if (n == max) {
			return -1;
		} else {
			words[n++] = argv[i];
		}
	}
	return n;
}

#define REPAIRS_GRAMMAR "repairs requires exactly <file> assign-function-id <automatic-id> [--json]"

int
cli_cmd_repairs(int argc, char **argv)
{
	const char *w[3];
	bool json;
	if (repair_words(argc, argv, w, 3, &json) != 3 || w[0][0] == '-' || w[2][0] == '-')
		return cli_usage("repairs", REPAIRS_GRAMMAR);
	if (strcmp(w[1], "assign-function-id") != 0)
		return cli_usage("repairs", "unknown repair kind `%s`; the one kind is `assign-function-id`", w[1]);
	cli_diag_json = json;
	const char *path = w[0], *target = w[2];
	RepairSrc rs;
	src_init(&rs, path);
	const char *manifest = rs.manifest;
	int status = EXIT_FAIL;
	if (!repair_load(&rs))
		goto out;
	Session *L = rs.L;
	RepairCtx R = { L, patch_repair_target(L->S, target), 0, 0, NULL };
	if (R.target < 0) {
		status = no_repair(path, manifest ? manifest : path, "`%s` is not an automatic function identity with an SPX-S103 repair (`main` keeps its own)", target, true);
		goto out;
	}
	repair_counts(&R, &rs.s103, &rs.have_s103);
	if (!repair_within(&R, path))
		goto out;
	char rid[72];
	patch_repair_id(L->revision, target, rid);
	Buf head = {0}, tail = {0};
	put_common(&head, &R, "semaprax.diagnostic-repair.v1", NULL, NULL, 0);
	put_query_diag(&tail, &R);
	buf_puts(&tail, ",\"repair\":{\"id\":");
	json_cstr(&tail, rid);
	buf_puts(&tail, ",\"kind\":\"assign_function_id\",\"classification\":\"breaking_identity_rebase\",\"applicability\":\"requires_input\","
	    "\"input\":{\"name\":\"persistent_id\",\"type\":\"persistent_declaration_id\",\"required\":true,\"constraints\":{\"min_bytes\":1,"
	    "\"max_bytes\":255,\"pattern\":\"[A-Za-z0-9][A-Za-z0-9._:-]*\",\"forbidden_prefixes\":[\"auto:\",\"core.\",\"semaprax.\","
	    "\"declaration:\",\"function-execution:\",\"parameter:\",\"nominal:\"],\"forbidden_values\":[\"bool\",\"i64\"]}},"
	    "\"operation\":{\"schema\":\"semaprax.semantic-patch.v3\",\"kind\":\"assign-function-id\",\"repair_id\":");
	json_cstr(&tail, rid);
	buf_puts(&tail, ",\"diagnostic\":\"SPX-S103\",\"target\":");
	json_cstr(&tail, target);
	buf_puts(&tail, ",\"name\":");
	json_cstr(&tail, sema_sym(L->S, R.target)->name);
	buf_puts(&tail, ",\"to\":{\"input\":\"persistent_id\"}}}}");
	status = print_fixed_point(path, &head, &tail) ? EXIT_OK : EXIT_FAIL;
	buf_free(&head);
	buf_free(&tail);
out:
	src_free(&rs);
	return status;
}

typedef struct {
	const Sym *sym;
	int sites;
	SymId at;
} Caller;

static int
caller_cmp(const void *a, const void *b)
{
	const Caller *x = a, *y = b;
	int c = strcmp(x->sym->id, y->sym->id);
	return c ? c : (x->at > y->at) - (x->at < y->at);
}

void
cli_patch_identity_rebase(Buf *b, Sema *S, SymId target, const char *pid)
{
	Sym *y = sema_sym(S, target);
	buf_puts(b, "{\"before_id\":");
	json_cstr(b, y->id);
	buf_puts(b, ",\"after_id\":");
	json_cstr(b, pid);
	buf_puts(b, ",\"name\":");
	json_cstr(b, y->name);
	buf_puts(b, ",\"direct_callers\":[");
	/* the callers sorted by id (then declaration order: a total order) */
	Caller *cs = spx_xcalloc((size_t)S->syms.len + 1, sizeof *cs);
	int n = 0;
	for (SymId f = 0; f < S->syms.len; f++) {
		Sym *c = sema_sym(S, f);
		int k = (c->kind == SK_FN || c->kind == SK_METHOD) && c->fn ? patch_uses_in(S, c->fn, target) : 0;
		if (k > 0)
			cs[n++] = (Caller){ c, k, f };
	}
	qsort(cs, (size_t)n, sizeof *cs, caller_cmp);
	for (int i = 0; i < n; i++) {
		buf_puts(b, i ? ",{\"id\":" : "{\"id\":");
		json_cstr(b, cs[i].sym->id);
		buf_printf(b, ",\"identity_origin\":\"%s\",\"site_count\":%d}", cs[i].sym->explicit_id ? "explicit" : "automatic", cs[i].sites);
	}
	free(cs);
	buf_puts(b, "]}");
}

int
cli_cmd_repair(int argc, char **argv)
{
	const char *w[4];
	bool json;
	if (repair_words(argc, argv, w, 4, &json) != 4 || w[0][0] == '-' || w[1][0] == '-' || strcmp(w[2], "--persistent-id") != 0)
		return cli_usage("repair", "repair requires exactly <file> <repair-id> --persistent-id <id> [--json]");
	cli_diag_json = json;
	const char *path = w[0], *rid = w[1], *pid = w[3];
	RepairSrc rs;
	src_init(&rs, path);
	const char *manifest = rs.manifest;
	Session *L = NULL;
	Session C;
	driver_session_init(&C, path);
	SPatch sp;
	memset(&sp, 0, sizeof sp);
	PatchPlan plan;
	memset(&plan, 0, sizeof plan);
	char *cand = NULL;
	size_t clen = 0;
	Buf ptext = {0};
	DiagSink pd;
	diag_init(&pd, "<repair patch>", NULL, 0);
	int status = EXIT_FAIL;
	if (!repair_load(&rs))
		goto out;
	L = rs.L;
	/* the target whose repair id this is */
	RepairCtx R = { L, -1, 0, 0, NULL };
	for (SymId i = 0; i < L->S->syms.len && R.target < 0; i++) {
		Sym *y = sema_sym(L->S, i);
		char id[72];
		if (patch_repair_target(L->S, y->id) != i)
			continue;
		patch_repair_id(L->revision, y->id, id);
		if (strcmp(id, rid) == 0)
			R.target = i;
	}
	if (R.target < 0) {
		status = no_repair(path, manifest ? manifest : path, "repair id `%s` is unknown or stale for this revision", rid, false);
		goto out;
	}
	Sym *y = sema_sym(L->S, R.target);
	const char *why = patch_persistent_id_problem(L->S, pid);
	if (why) {
		DiagSink s;
		diag_init(&s, path, NULL, 0);
		diag_report(&s, DIAG_R102, NULL, "invalid persistent id `%s`: %s", pid, why);
		cli_emit_diags(&s);
		diag_free(&s);
		goto out;
	}
	repair_counts(&R, &rs.s103, &rs.have_s103);
	if (!repair_within(&R, path))
		goto out;
	buf_printf(&ptext, "schema semaprax.semantic-patch.v3\nbase %s\nassign-function-id repair %s diagnostic SPX-S103 target %s name %s to %s\n",
	    L->revision, rid, y->id, y->name, pid);
	pd.src = ptext.data;
	pd.src_len = ptext.len;
	if (!patch_parse(&sp, ptext.data, ptext.len, &pd) ||
	    !(manifest ? cli_patch_project_plan(&rs.pp, path, &sp, &pd, &plan, &cand, &clen)
	    : cli_patch_make_candidate(L, path, &sp, &pd, &plan, &C, &cand, &clen)))
		goto out;
	Buf head = {0}, tail = {0};
	put_common(&head, &R, "semaprax.diagnostic-repair-preview.v1", manifest ? rs.pp.Cs->revision : C.revision, cand, clen);
	put_query_diag(&tail, &R);
	buf_puts(&tail, ",\"repair\":{\"id\":");
	json_cstr(&tail, rid);
	buf_puts(&tail, ",\"kind\":\"assign_function_id\",\"classification\":\"breaking_identity_rebase\",\"input\":{\"persistent_id\":");
	json_cstr(&tail, pid);
	buf_puts(&tail, "}},\"patch\":{\"schema\":\"semaprax.semantic-patch.v3\",\"digest\":");
	patch_put_digest(&tail, "semaprax.diagnostic-repair.patch-digest.v1", ptext.data, ptext.len);
	buf_puts(&tail, ",\"source\":");
	json_str(&tail, ptext.data, ptext.len);
	buf_puts(&tail, "},\"identity_rebase\":");
	cli_patch_identity_rebase(&tail, L->S, R.target, pid);
	buf_putc(&tail, '}');
	status = print_fixed_point(path, &head, &tail) ? EXIT_OK : EXIT_FAIL;
	buf_free(&head);
	buf_free(&tail);
out:
	cli_emit_diags(&pd);
	patch_plan_free(&plan);
	free(cand);
	patch_free(&sp);
	diag_free(&pd);
	buf_free(&ptext);
	driver_session_free(&C);
	src_free(&rs);
	return status;
}

/* ---- fix: the machine-applicable fixes diagnostics carry ---- */

/* Do two replacements collide (overlap, or insert at the same point)? */
static bool
collide(uint32_t s1, uint32_t e1, uint32_t s2, uint32_t e2)
{
	if (s1 == e1 && s2 == e2)
		return s1 == s2;
	if (s1 == e1)
		return s2 < s1 && s1 < e2;
	if (s2 == e2)
		return s1 < s2 && s2 < e1;
	return s1 < e2 && s2 < e1;
}

/*
 * The fixes taken so far, ordered by (start, end) in a treap (priorities from
 * a fixed sequence: deterministic).  Taken fixes never collide, so their ends
 * rise with their starts, and a candidate can collide only with the last one
 * ordered before (start, 0) or the first two from there: a check is three
 * O(log n) searches, not a walk of every fix taken (20,000 fixes took 1 s).
 */
typedef struct TakenNode {
	uint64_t key;         /* start << 32 | end */
	uint32_t prio;
	int left, right;      /* indices, -1 none */
} TakenNode;

typedef struct Taken {
	TakenNode *n;
	int len, cap, root;
	uint32_t seed;
} Taken;

static uint64_t
taken_key(uint32_t start, uint32_t end)
{
	return (uint64_t)start << 32 | end;
}

static int
taken_insert_at(Taken *t, int at, int node)
{
	if (at < 0)
		return node;
	TakenNode *n = t->n;
	if (n[node].key < n[at].key) {
		n[at].left = taken_insert_at(t, n[at].left, node);
		int l = n[at].left;
		if (n[l].prio > n[at].prio) {
			n[at].left = n[l].right;
			n[l].right = at;
			return l;
		}
	} else {
		n[at].right = taken_insert_at(t, n[at].right, node);
		int r = n[at].right;
		if (n[r].prio > n[at].prio) {
			n[at].right = n[r].left;
			n[r].left = at;
			return r;
		}
	}
	return at;
}

static void
taken_insert(Taken *t, uint32_t start, uint32_t end)
{
	if (t->len == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 64;
		t->n = spx_xrealloc(t->n, (size_t)t->cap * sizeof *t->n);
	}
	t->seed = t->seed * 1103515245u + 12345u;
	t->n[t->len] = (TakenNode){ taken_key(start, end), t->seed, -1, -1 };
	t->root = taken_insert_at(t, t->root, t->len);
	t->len++;
}

/* The node with the least key >= key (ge) or the greatest key < key (!ge), or -1. */
static int
taken_find(const Taken *t, uint64_t key, bool ge)
{
	int best = -1;
	for (int at = t->root; at >= 0;) {
		bool right = t->n[at].key < key;
		if (right != ge)
			best = at;
		at = right ? t->n[at].right : t->n[at].left;
	}
	return best;
}

static bool
taken_collides(const Taken *t, uint32_t start, uint32_t end)
{
	int near[3];
	near[0] = taken_find(t, taken_key(start, 0), false);
	near[1] = taken_find(t, taken_key(start, 0), true);
	near[2] = near[1] >= 0 && t->n[near[1]].key != UINT64_MAX ? taken_find(t, t->n[near[1]].key + 1, true) : -1;
	for (int i = 0; i < 3; i++)
		if (near[i] >= 0 && collide(start, end, (uint32_t)(t->n[near[i]].key >> 32), (uint32_t)t->n[near[i]].key))
			return true;
	return false;
}

/*
 * The fixes of L's diagnostics (only those of `code` when given), as one
 * sorted plan.  A diagnostic's fixes are taken together or not at all, in
 * report order; one colliding with a fix already taken waits for the next
 * round.  Returns how many diagnostics contributed.
 */
static int
collect_fixes(const Session *L, int code, PatchPlan *pl)
{
	int used = 0;
	Taken taken = { NULL, 0, 0, -1, 1 };
	for (int j = 0; j < pl->edits.len; j++)
		taken_insert(&taken, pl->edits.items[j].start, pl->edits.items[j].end);
	for (int i = 0; i < L->diags.items.len; i++) {
		const Diag *d = &L->diags.items.items[i];
		if ((code >= 0 && (int)d->code != code) || d->fixes.len == 0)
			continue;
		bool ok = true;
		for (int k = 0; k < d->fixes.len && ok; k++) {
			const DiagFix *f = &d->fixes.items[k];
			ok = !taken_collides(&taken, f->start, f->end);
			/* one diagnostic's own fixes: a handful */
			for (int j = 0; j < k && ok; j++)
				ok = !collide(f->start, f->end, d->fixes.items[j].start, d->fixes.items[j].end);
		}
		if (!ok)
			continue;
		for (int k = 0; k < d->fixes.len; k++) {
			PatchEdit e = { d->fixes.items[k].start, d->fixes.items[k].end, spx_xstrdup(d->fixes.items[k].text), i, 0 };
			VEC_PUSH(pl->edits, e);
			taken_insert(&taken, e.start, e.end);
		}
		used++;
	}
	free(taken.n);
	if (pl->edits.len > 1)
		qsort(pl->edits.items, (size_t)pl->edits.len, sizeof(PatchEdit), patch_edit_cmp);
	return used;
}


/* The fixes of the file's diagnostics applied in rounds: the file alone,
 * or (pp) its module in the candidate project. */
typedef struct FixRun {
	const char *path;
	int code;             /* -1: every code */
	ProjectPatch *pp;     /* a project module, or NULL */
	Session C;            /* a single file's candidate */
	char *cand;           /* the fixed text (owned) */
	size_t clen;
	int nfixed;
	bool verified;        /* … verifies (alone, or in its project) */
} FixRun;

/* The candidate's session after checking cand (alone or in the project). */
static Session *
fix_check(FixRun *f)
{
	if (f->pp) {
		f->verified = cli_patch_project_verify(f->pp, f->cand, f->clen);
		return f->pp->Cs;
	}
	driver_session_free(&f->C);
	driver_session_init(&f->C, f->path);
	cli_patch_verify_copy(&f->C, f->path, f->cand, f->clen);
	f->verified = f->C.diags.errors == 0 && f->C.H;
	return &f->C;
}

/*
 * Rounds: a parse error hides the ones after it, so fix, re-check and fix
 * again until no fix is left, at most 64 rounds; the last text is always
 * checked (f->verified).
 */
static void
fix_rounds(FixRun *f, const Session *L)
{
	f->cand = spx_xmalloc(L->len + 1);
	memcpy(f->cand, L->src, L->len + 1);
	f->clen = L->len;
	for (int round = 0;; round++) {
		Session *c = fix_check(f);
		PatchPlan pl;
		memset(&pl, 0, sizeof pl);
		int k = round < 64 && c ? collect_fixes(c, f->code, &pl) : 0;
		if (k == 0) {
			patch_plan_free(&pl);
			break;
		}
		f->nfixed += k;
		size_t nlen;
		char *next = patch_apply(f->cand, f->clen, &pl, &nlen);
		patch_plan_free(&pl);
		free(f->cand);
		f->cand = next;
		f->clen = nlen;
	}
}

/* With `--code` (code >= 0): are the errors left in C all of other codes? */
static bool
other_codes_left(const Session *C, int code)
{
	if (code < 0)
		return false;
	for (int i = 0; i < C->diags.items.len; i++)
		if (C->diags.items.items[i].code == (DiagCode)code)
			return false;
	return true;
}

/* ---- fix --dry-run's diff: a minimal line diff (Myers) of old → new, split
 * at lines found once in each (patience) when that search is too long ---- */

typedef struct TextLines {
	const char **s;
	uint32_t *len;   /* with its '\n', if any */
	int n;
} TextLines;

static void
text_lines(TextLines *t, const char *s, size_t len)
{
	int cap = 16;
	t->n = 0;
	t->s = spx_xmalloc(sizeof *t->s * (size_t)cap);
	t->len = spx_xmalloc(sizeof *t->len * (size_t)cap);
	size_t at = 0;
	while (at < len) {
		if (t->n == cap) {
			cap *= 2;
			t->s = spx_xrealloc(t->s, sizeof *t->s * (size_t)cap);
			t->len = spx_xrealloc(t->len, sizeof *t->len * (size_t)cap);
		}
		const char *nl = memchr(s + at, '\n', len - at);
		size_t end = nl ? (size_t)(nl - s) + 1 : len;
		t->s[t->n] = s + at;
		t->len[t->n++] = (uint32_t)(end - at);
		at = end;
	}
}

static bool
line_eq(const TextLines *a, int i, const TextLines *b, int j)
{
	return a->len[i] == b->len[j] && memcmp(a->s[i], b->s[j], a->len[i]) == 0;
}

/* Past this many edit steps a search gives up (it costs (lines) × D time
 * and D² memory: a file of 30,000 fixes, D 60,000, held D × (lines) ints,
 * some 140 GB, then thrashed); the lines are then split at anchors. */
#define DIFF_MAX_D 2048

/*
 * Marks the old lines deleted (del[i]) and the new lines inserted (ins[j])
 * between a[alo, ahi) and b[blo, bhi) by a shortest edit script (Myers'
 * greedy algorithm, its V band per step kept for the walk back), after the
 * common head and tail.  False (nothing marked) past DIFF_MAX_D steps.
 */
static bool
myers(const TextLines *a, const TextLines *b, int alo, int ahi, int blo, int bhi, bool *del, bool *ins)
{
	while (alo < ahi && blo < bhi && line_eq(a, alo, b, blo))
		alo++, blo++;
	while (ahi > alo && bhi > blo && line_eq(a, ahi - 1, b, bhi - 1))
		ahi--, bhi--;
	int n = ahi - alo, m = bhi - blo, max = n + m, off = max + 1;
	size_t w = (size_t)(2 * max + 3);
	int *v = spx_xcalloc(w, sizeof(int));
	/* trace[d]: v's band k = -d … d after step d (2d + 1 ints) */
	int dmax = max < DIFF_MAX_D ? max : DIFF_MAX_D;
	int **trace = spx_xcalloc((size_t)dmax + 1, sizeof(int *));
	int dend = -1;
	for (int d = 0; d <= dmax && dend < 0; d++) {
		for (int k = -d; k <= d; k += 2) {
			int x = (k == -d || (k != d && v[off + k - 1] < v[off + k + 1])) ? v[off + k + 1] : v[off + k - 1] + 1;
			int y = x - k;
			while (x < n && y < m && line_eq(a, alo + x, b, blo + y))
				x++, y++;
			v[off + k] = x;
			if (x >= n && y >= m) {
				dend = d;
				break;
			}
		}
		trace[d] = spx_xmalloc((size_t)(2 * d + 1) * sizeof(int));
		memcpy(trace[d], v + off - d, (size_t)(2 * d + 1) * sizeof(int));
	}
	int x = n, y = m;
	for (int d = dend; d > 0; d--) {
		const int *pv = trace[d - 1] + (d - 1);   /* pv[k]: diagonal k after step d - 1 */
		int k = x - y;
		int pk = (k == -d || (k != d && pv[k - 1] < pv[k + 1])) ? k + 1 : k - 1;
		int px = pv[pk], py = px - pk;
		while (x > px && y > py)
			x--, y--;   /* the snake: equal lines */
		if (pk == k + 1)
			ins[blo + py] = true;   /* down: a new line */
		else
			del[alo + px] = true;   /* right: an old line gone */
		x = px, y = py;
	}
	for (int d = 0; d <= dmax && trace[d]; d++)
		free(trace[d]);
	free(trace);
	free(v);
	return dend >= 0;
}

static uint64_t
line_hash(const TextLines *t, int i)
{
	uint64_t h = 1469598103934665603u;
	for (uint32_t k = 0; k < t->len[i]; k++)
		h = (h ^ (unsigned char)t->s[i][k]) * 1099511628211u;
	return h;
}

/* One line's counts in both texts (an open-addressing slot). */
typedef struct LineSlot {
	uint64_t h;
	int na, nb, ia, ib;   /* occurrences in a and b; the last one's index */
} LineSlot;

static LineSlot *
line_slot(LineSlot *tab, size_t cap, const TextLines *t, int i, const TextLines *a, const TextLines *b)
{
	uint64_t h = line_hash(t, i);
	for (size_t at = (size_t)h & (cap - 1);; at = (at + 1) & (cap - 1)) {
		LineSlot *sl = &tab[at];
		if (sl->na + sl->nb == 0) {
			sl->h = h;
			return sl;
		}
		if (sl->h == h && line_eq(t, i, sl->na ? a : b, sl->na ? sl->ia : sl->ib))
			return sl;
	}
}

/*
 * Past DIFF_MAX_D: the lines found once in each text, in an order both
 * keep (the longest such run, patience sorting), anchor the texts; the
 * search runs between consecutive anchors, and a stretch it still gives up
 * on is one change.
 */
static void
anchored(const TextLines *a, const TextLines *b, bool *del, bool *ins)
{
	size_t cap = 16;
	while (cap < 2 * ((size_t)a->n + (size_t)b->n))
		cap *= 2;
	LineSlot *tab = spx_xcalloc(cap, sizeof *tab);
	for (int i = 0; i < a->n; i++) {
		LineSlot *sl = line_slot(tab, cap, a, i, a, b);
		sl->na++, sl->ia = i;
	}
	for (int j = 0; j < b->n; j++) {
		LineSlot *sl = line_slot(tab, cap, b, j, a, b);
		sl->nb++, sl->ib = j;
	}
	/* the unique pairs in a's order; the longest run increasing in b */
	int *pj = spx_xmalloc(sizeof(int) * ((size_t)a->n + 1)), *pi = spx_xmalloc(sizeof(int) * ((size_t)a->n + 1));
	int np = 0;
	for (int i = 0; i < a->n; i++) {
		LineSlot *sl = line_slot(tab, cap, a, i, a, b);
		if (sl->na == 1 && sl->nb == 1)
			pi[np] = i, pj[np] = sl->ib, np++;
	}
	free(tab);
	int *tail = spx_xmalloc(sizeof(int) * ((size_t)np + 1)), *prev = spx_xmalloc(sizeof(int) * ((size_t)np + 1));
	int len = 0;
	for (int p = 0; p < np; p++) {
		int lo = 0, hi = len;
		while (lo < hi) {
			int mid = (lo + hi) / 2;
			if (pj[tail[mid]] < pj[p])
				lo = mid + 1;
			else
				hi = mid;
		}
		prev[p] = lo ? tail[lo - 1] : -1;
		tail[lo] = p;
		if (lo == len)
			len++;
	}
	int *run = spx_xmalloc(sizeof(int) * ((size_t)len + 1)), r = len;
	for (int p = len ? tail[len - 1] : -1; p >= 0; p = prev[p])
		run[--r] = p;
	int ai = 0, bj = 0;
	for (int q = 0; q <= len; q++) {
		int ae = q < len ? pi[run[q]] : a->n, be = q < len ? pj[run[q]] : b->n;
		if (!myers(a, b, ai, ae, bj, be, del, ins)) {
			for (int i = ai; i < ae; i++)
				del[i] = true;
			for (int j = bj; j < be; j++)
				ins[j] = true;
		}
		ai = ae + 1, bj = be + 1;
	}
	free(run);
	free(tail);
	free(prev);
	free(pi);
	free(pj);
}

static void
line_diff(const TextLines *a, const TextLines *b, bool *del, bool *ins)
{
	if (!myers(a, b, 0, a->n, 0, b->n, del, ins))
		anchored(a, b, del, ins);
}

static void
put_line(Buf *b, char mark, const char *s, uint32_t len)
{
	buf_putc(b, mark);
	cli_diff_text(b, s, len > 0 && s[len - 1] == '\n' ? len - 1 : len);
	if (len > 0 && s[len - 1] == '\n')
		buf_putc(b, '\n');
	if (len == 0 || s[len - 1] != '\n')
		buf_puts(b, "\n\\ No newline at end of file\n");
}

/* The unified diff of old → new: only changed lines as -/+, 3 lines of context,
 * hunks whose gaps are at most 6 unchanged lines merged. */
static void
fix_unified_diff(Buf *b, const char *path, const char *old, size_t old_len, const char *new_, size_t new_len)
{
	TextLines A, B;
	text_lines(&A, old, old_len);
	text_lines(&B, new_, new_len);
	bool *del = spx_xcalloc((size_t)A.n + 1, 1), *ins = spx_xcalloc((size_t)B.n + 1, 1);
	line_diff(&A, &B, del, ins);
	cli_diff_header(b, path);
	/* walk both texts: i old, j new; unchanged lines pair up */
	int i = 0, j = 0, last = 0;   /* last: the old line after the previous hunk */
	while (i < A.n || j < B.n) {
		if (i < A.n && j < B.n && !del[i] && !ins[j]) {
			i++, j++;
			continue;
		}
		/* a hunk starts up to 3 unchanged lines back */
		int back = 0;
		while (back < 3 && i - back > last && j - back > 0)
			back++;
		int hi = i - back, hj = j - back;
		Buf h = {0};
		int oc = 0, nc = 0;
		for (int c = 0; c < back; c++, oc++, nc++)
			put_line(&h, ' ', A.s[hi + c], A.len[hi + c]);
		for (;;) {
			while (i < A.n && del[i])
				put_line(&h, '-', A.s[i], A.len[i]), i++, oc++;
			while (j < B.n && ins[j])
				put_line(&h, '+', B.s[j], B.len[j]), j++, nc++;
			/* the unchanged run after: up to 6 lines joins the next change */
			int run = 0;
			while (i + run < A.n && j + run < B.n && !del[i + run] && !ins[j + run])
				run++;
			bool more = (i + run < A.n || j + run < B.n);
			if (more && run <= 6) {
				for (int c = 0; c < run; c++, oc++, nc++)
					put_line(&h, ' ', A.s[i + c], A.len[i + c]);
				i += run, j += run;
				continue;
			}
			int ctx = run < 3 ? run : 3;
			for (int c = 0; c < ctx; c++, oc++, nc++)
				put_line(&h, ' ', A.s[i + c], A.len[i + c]);
			i += ctx, j += ctx;
			last = i;
			break;
		}
		/* an empty side is numbered by the line before it, as diff(1) does */
		buf_printf(b, "@@ -%d,%d +%d,%d @@\n", oc ? hi + 1 : hi, oc, nc ? hj + 1 : hj, nc);
		buf_put(b, h.data ? h.data : "", h.len);
		buf_free(&h);
	}
	free(del);
	free(ins);
	free(A.s);
	free(A.len);
	free(B.s);
	free(B.len);
}

/* fix --json: the `semaprax.fix-result.v1` object (docs/PATCH.md),
 * printed.  status: applied, dry_run or no_fixes; revision and the
 * project's NULL when the result does not verify; diff: a dry run's. */
static void
fix_result(const char *status, const char *path, int code, int fixed, int errors, const char *revision, const char *project,
    const char *project_rev, const Buf *diff)
{
	Buf b = {0};
	buf_printf(&b, "{\"schema\":\"semaprax.fix-result.v1\",\"status\":\"%s\",\"path\":", status);
	json_cstr(&b, path);
	buf_puts(&b, ",\"code\":");
	json_cstr(&b, code >= 0 ? diag_info[code].code : NULL);
	buf_printf(&b, ",\"fixed\":%d,\"remaining_errors\":%d,\"revision\":", fixed, errors);
	json_cstr(&b, revision);
	buf_puts(&b, ",\"project\":");
	if (project) {
		buf_puts(&b, "{\"name\":");
		json_cstr(&b, project);
		buf_puts(&b, ",\"revision\":");
		json_cstr(&b, project_rev);
		buf_putc(&b, '}');
	} else {
		buf_puts(&b, "null");
	}
	buf_puts(&b, ",\"diff\":");
	if (diff)
		json_str(&b, diff->data ? diff->data : "", diff->len);
	else
		buf_puts(&b, "null");
	buf_puts(&b, "}\n");
	fwrite(b.data, 1, b.len, stdout);
	buf_free(&b);
}

#define FIX_GRAMMAR "fix requires exactly <file> [--code SPX-…] [--dry-run] [--json]"

int
cli_cmd_fix(int argc, char **argv)
{
	const char *path = NULL, *code_arg = NULL;
	bool dry = false, json = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--dry-run") == 0 && !dry)
			dry = true;
		else if (strcmp(a, "--json") == 0 && !json)
			json = true;
		else if (strcmp(a, "--code") == 0 && !code_arg && i + 1 < argc)
			code_arg = argv[++i];
		else if (a[0] == '-' && a[1] != '\0')
			return cli_option_error("fix", a, (const char *const[]){ "--code", NULL }, (const char *const[]){ "--dry-run", "--json", NULL });
		else if (!path)
			path = a;
		else
			return cli_usage("fix", FIX_GRAMMAR);
	}
	if (!path)
		return cli_usage("fix", FIX_GRAMMAR);
	int code = code_arg ? diag_lookup(code_arg) : -1;   /* also `P106`, `spx-P106` */
	if (code_arg && code < 0)
		return cli_usage("fix", "`%s` is not a diagnostic code (write e.g. `--code SPX-P104`)", code_arg);
	if (code_arg && strncmp(code_arg, "SPX-", 4) != 0)   /* the code it names, spelled canonically */
		return cli_usage("fix", "`%s` is not how a diagnostic code is written: write `--code %s`", code_arg, diag_info[code].code);

	cli_diag_json = json;
	int status = EXIT_FAIL;
	FmtTarget target;
	memset(&target, 0, sizeof target);
	target.lock_fd = -1;
	RepairSrc rs;
	src_init(&rs, path);
	const char *manifest = rs.manifest;
	ProjectPatch *pp = &rs.pp;
	FixRun f;
	memset(&f, 0, sizeof f);
	f.path = path;
	f.code = code;
	f.pp = manifest ? pp : NULL;
	driver_session_init(&f.C, path);
	Session *L = NULL;
	if (!dry && (!cli_fmt_prepare(&target, path) || !cli_write_lock(&target)))
		goto out;
	if (manifest) {
		/* the module as its project checks it (which need not verify yet) */
		if (!cli_patch_project_open(pp, manifest, path, false))
			goto out;
		L = pp->L;
	} else {
		driver_program_load_file(&rs.P, path, &L, SESSION_CHECK);
		if (!L->src) {
			cli_emit_diags(&L->diags);
			goto out;
		}
	}
	fix_rounds(&f, L);
	if (f.nfixed == 0) {
		if (manifest)
			project_emit_diags(&pp->pj, cli_diag_json);
		else
			cli_emit_diags(&L->diags);
		bool good = manifest ? pp->verified : L->diags.errors == 0;
		if (json) {
			int errors = manifest ? pp->pj.diags.errors : L->diags.errors;
			for (int m = 0; manifest && m < pp->pj.P.nmods; m++)
				errors += pp->pj.P.mods[m]->s.diags.errors;
			fix_result("no_fixes", path, code, 0, errors, good ? L->revision : NULL, manifest ? pp->pj.man.name : NULL,
			    manifest && good ? pp->pj.P.revision : NULL, NULL);
		} else {
			printf("no machine-applicable fixes%s%s in ", code_arg ? " for " : "", code_arg ? code_arg : "");
			cli_put_visible(stdout, path);   /* an operand's control bytes as \xNN */
			putchar('\n');
		}
		status = good ? EXIT_OK : EXIT_FAIL;
		goto out;
	}
	if (manifest && !f.verified) {
		/* a project module is written only when its whole project verifies */
		Buf head = {0};
		buf_printf(&head, "the fixes of %d diagnostic%s leave project %s with errors; ", f.nfixed, f.nfixed == 1 ? "" : "s", pp->pj.man.name);
		diag_put_visible(&head, path, strlen(path));
		buf_puts(&head, " is unchanged:\n");
		cli_patch_project_emit(pp, head.data);
		buf_free(&head);
		goto out;
	}
	if (!manifest && !f.C.S && !other_codes_left(&f.C, code)) {
		/* a file is written (or a diff shown) only when the fixed text parses:
		 * never a half-fixed file that does not (the fixed text's errors shown).
		 * `--code X` asks for X's fixes alone: other codes' syntax errors may
		 * stay, not one of X's. */
		cli_emit_diags(&f.C.diags);
		if (!json) {
			printf("the fixes of %d diagnostic%s leave ", f.nfixed, f.nfixed == 1 ? "" : "s");
			cli_put_visible(stdout, path);
			printf(" with syntax errors; it is unchanged\n");
		}
		goto out;
	}
	Buf diff = {0};
	if (dry) {
		fix_unified_diff(&diff, path, L->src, L->len, f.cand, f.clen);
		if (!json)
			fwrite(diff.data, 1, diff.len, stdout);
	} else {
		/* as patch: the project's manifest and other modules unchanged too,
		 * checked right before the commit */
		if (manifest) {
			target.guard = cli_patch_project_unchanged;
			target.guard_ctx = pp;
		}
		if (!cli_fmt_write(&target, L->src, L->len, f.cand, f.clen))
			goto out;
	}
	if (!f.verified)
		cli_emit_diags(&f.C.diags);
	const char *did = dry ? "would fix" : "fixed";
	int n = f.nfixed;
	if (json) {
		/* a project module is written only verified (above) */
		fix_result(dry ? "dry_run" : "applied", path, code, n, f.verified ? 0 : f.C.diags.errors,
		    !f.verified ? NULL : manifest ? pp->Cs->revision : f.C.revision, manifest ? pp->pj.man.name : NULL,
		    manifest ? pp->C.revision : NULL, dry ? &diff : NULL);
		buf_free(&diff);
		status = f.verified ? EXIT_OK : EXIT_FAIL;
		goto out;
	}
	buf_free(&diff);
	if (f.verified)
		printf("%s %d diagnostic%s; graph %s %s\n", did, n, n == 1 ? "" : "s", dry ? "would be" : "is now",
		    manifest ? pp->Cs->revision : f.C.revision);
	else
		printf("%s %d diagnostic%s; %d error%s remain%s\n", did, n, n == 1 ? "" : "s", f.C.diags.errors, f.C.diags.errors == 1 ? "" : "s",
		    f.C.diags.errors == 1 ? "s" : "");
	if (manifest)
		printf("project %s %s %s\n", pp->pj.man.name, dry ? "would be" : "is now", pp->C.revision);
	status = f.verified ? EXIT_OK : EXIT_FAIL;
out:
	cli_fmt_release(&target);
	free(f.cand);
	driver_session_free(&f.C);
	src_free(&rs);
	return status;
}
