/*
 * cmd_patch_project.c — semantic patches of project modules (docs/PATCH.md):
 *
 * `semaprax review <project> <transaction.json> [--evidence]`: a
 * `semaprax.semantic-transaction.c1` of per-module semantic patches (or the
 * reference's `rename_display_name`), each planned against its module of
 * the one verified project; the candidate project checked linked, its
 * roles and lowered; one module review each, with the direct callers other
 * modules have.  Writes nothing.
 *
 * `semaprax patch <project> <transaction.json> [--dry-run]`: the same
 * transaction, planned and verified as for `review`, each operation accepted
 * as `patch` accepts one (cli_patch_accept), then every changed module
 * written or none (cmd_patch_tx.c); --dry-run prints the diffs.
 *
 * `semaprax patch|impact|review <module-file> <patch.spatch>` of a file the
 * nearest `semaprax.toml` lists: the same for one patch
 * (cli_patch_project_candidate), then run as for a single file
 * (cmd_patch.c; impact adds cross_module_callers).  `fix`, `repairs` and
 * `repair` of such a file (cmd_repair.c) open the project and verify their
 * candidates here too (cli_patch_project_open, cli_patch_project_verify).
 */
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fmt_write.h"
#include "patch_cli.h"

#include "../patch/patch.h"
#include "../project/project.h"
#include "../support/json.h"

#define TRANSACTION_SCHEMA "semaprax.semantic-transaction.c1"
#define TRANSACTION_MAX_BYTES 1048576

/* One operation of a transaction: a module's semantic patch. */
typedef struct TxOp {
	ModuleId mod;
	char *text;          /* the patch text (owned) */
	size_t len;
	DiagSink pd;         /* its diagnostics: path `<transaction>#<i>`, the patch text */
	char *label;         /* owned */
	SPatch sp;
	PatchPlan plan;
	char *cand;          /* the module's patched source (owned) */
	size_t clen;
} TxOp;

static int
tx_fail(const char *path, int code, const char *fmt, const char *arg)
{
	DiagSink s;
	diag_init(&s, path, NULL, 0);
	Diag *d = diag_report(&s, code, NULL, fmt, arg);
	/* G526 keeps the register's help (split it): the schema would not help */
	if (code != DIAG_G526)
		diag_set_help(d, code == DIAG_G527 ? "derive the transaction again from the project as `semaprax check <project>` prints it"
		    : "write {\"schema\":\"" TRANSACTION_SCHEMA "\",\"expected_workspace_revision\":…,\"operations\":[…],\"requested_authority\":\"none\"} (docs/PATCH.md)");
	cli_emit_diags(&s);
	diag_free(&s);
	return EXIT_FAIL;
}

/* s into out[size] for a message: cut at a character boundary with `…`
 * when it does not fit, never silently. */
static void
clip(char *out, size_t size, const char *s)
{
	size_t n = strlen(s);
	if (n < size) {
		memcpy(out, s, n + 1);
		return;
	}
	size_t k = size - 4;   /* room for the 3-byte `…` and the terminator */
	while (k > 0 && ((unsigned char)s[k] & 0xC0) == 0x80)
		k--;
	memcpy(out, s, k);
	memcpy(out + k, "\xE2\x80\xA6", 4);
}

/* Exactly these keys, each once (jansson keeps the last of a repeated key: the
 * byte count check below catches what it hides). */
static bool
tx_keys(json_t *o, const char *const *keys, int n)
{
	if (!json_is_object(o) || (int)json_object_size(o) != n)
		return false;
	for (int i = 0; i < n; i++)
		if (!json_object_get(o, keys[i]))
			return false;
	return true;
}

/* A non-empty word: no space, no control byte. */
static bool
one_word(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || *s == 0x7f)
			return false;
	return true;
}

/* The operation's patch text: `semantic_patch` as written, or the
 * reference's `rename_display_name` as a v1 rename against the declaring
 * module's revision.  NULL after a diagnostic (why into *why). */
static char *
tx_patch(const Project *pj, json_t *op, ModuleId *mod, const char **why, char *arg, size_t size)
{
	static const char *const sp_keys[] = { "kind", "module", "patch" };
	static const char *const rn_keys[] = { "kind", "target", "expected_old_value", "new_value" };
	const char *kind = json_string_value(json_object_get(op, "kind"));
	arg[0] = '\0';
	if (kind && strcmp(kind, "semantic_patch") == 0 && tx_keys(op, sp_keys, 3) && json_is_string(json_object_get(op, "module")) &&
	    json_is_string(json_object_get(op, "patch"))) {
		const char *name = json_string_value(json_object_get(op, "module"));
		*mod = driver_program_find(&pj->P, name);
		if (*mod == DRIVER_NO_MODULE) {
			*why = "the transaction names module `%s`, which the project does not have";
			clip(arg, size, name);
			return NULL;
		}
		json_t *t = json_object_get(op, "patch");
		return spx_xstrndup(json_string_value(t), json_string_length(t));
	}
	if (kind && strcmp(kind, "rename_display_name") == 0 && tx_keys(op, rn_keys, 4) && json_is_string(json_object_get(op, "target")) &&
	    json_is_string(json_object_get(op, "expected_old_value")) && json_is_string(json_object_get(op, "new_value"))) {
		const char *target = json_string_value(json_object_get(op, "target"));
		/* each value is one word of the patch text made below: a space or a
		 * newline would add words or operations to it */
		for (int k = 1; k < 4; k++)
			if (!one_word(json_string_value(json_object_get(op, rn_keys[k])))) {
				*why = "operation %s: `target`, `expected_old_value` and `new_value` must each be one word, without spaces or control bytes";
				return NULL;
			}
		for (int m = 0; m < pj->P.nmods; m++) {
			ProgHandle h;
			if (!driver_program_lookup(&pj->P, pj->P.mods[m]->name, target, &h))
				continue;
			const Sym *y = driver_program_sym(&pj->P, h);
			if (!y || y->origin)
				continue;
			if (strcmp(y->name, json_string_value(json_object_get(op, "expected_old_value"))) != 0) {
				*why = "stale transaction: `%s` is no longer named as `expected_old_value` says";
				clip(arg, size, target);
				return NULL;
			}
			*mod = (ModuleId)m;
			Buf b = {0};
			buf_printf(&b, "base %s\nrename %s to %s\n", pj->P.mods[m]->s.revision, target, json_string_value(json_object_get(op, "new_value")));
			return buf_take(&b);
		}
		*why = "no module of the project declares `%s`";
		clip(arg, size, target);
		return NULL;
	}
	*why = "operation %s is neither a `semantic_patch` {kind, module, patch} nor a `rename_display_name` {kind, target, expected_old_value, new_value}";
	return NULL;
}

/* A caller found in another module, and its use count. */
typedef struct XCaller {
	const char *id;
	int sites;
} XCaller;

static int
xcaller_cmp(const void *a, const void *b)
{
	return strcmp(((const XCaller *)a)->id, ((const XCaller *)b)->id);
}

/* The function a change of the plan is about (NULL: an added function). */
static const char *
changed_function(const PatchChange *ch)
{
	const char *fid = ch->target ? ch->target : ch->v4kind ? ch->function : ch->containing;
	return !fid || (ch->v4kind && strcmp(ch->v4kind, "function_added") == 0) ? NULL : fid;
}

/*
 * `cross_module_callers`: for each function the plan of module mod changes
 * (in change order, each once), the functions of the other modules
 * (ModuleId order, then stable id) that call it, or take it as a value,
 * through a `use function` import, with their site counts.  Direct
 * callers only: the module's impact covers the closure inside mod.
 */
void
cli_patch_cross_module_callers(Buf *b, const Program *P, ModuleId mod, const PatchPlan *plan)
{
	const char *name = P->mods[mod]->name;
	bool first = true;
	buf_puts(b, ",\"cross_module_callers\":[");
	for (int c = 0; c < plan->changes.len; c++) {
		const char *fid = changed_function(&plan->changes.items[c]);
		bool seen = !fid;
		for (int e = 0; e < c && !seen; e++) {
			const char *was = changed_function(&plan->changes.items[e]);
			seen = was && strcmp(was, fid) == 0;
		}
		if (seen)
			continue;
		for (int n = 0; n < P->nmods; n++) {
			Sema *S = P->mods[n]->s.S;
			if ((ModuleId)n == mod || !S)
				continue;
			XCaller *xs = NULL;
			int nx = 0;
			for (SymId a = 0; a < S->syms.len; a++) {
				const Sym *y = sema_sym(S, a);
				if (!y->origin || strcmp(y->origin, name) != 0 || strcmp(y->id, fid) != 0)
					continue;
				for (SymId k = 0; k < S->syms.len; k++) {
					const Sym *f = sema_sym(S, k);
					int sites = f->fn && !f->origin ? patch_uses_in(S, f->fn, a) : 0;
					if (sites == 0)
						continue;
					xs = spx_xrealloc(xs, sizeof *xs * (size_t)(nx + 1));
					xs[nx].id = f->id;
					xs[nx++].sites = sites;
				}
			}
			if (nx > 1)
				qsort(xs, (size_t)nx, sizeof *xs, xcaller_cmp);
			for (int i = 0; i < nx; i++) {
				buf_puts(b, first ? "{\"function\":" : ",{\"function\":");
				json_cstr(b, fid);
				buf_puts(b, ",\"module\":");
				json_cstr(b, P->mods[n]->name);
				buf_puts(b, ",\"caller\":");
				json_cstr(b, xs[i].id);
				buf_printf(b, ",\"site_count\":%d}", xs[i].sites);
				first = false;
			}
			free(xs);
		}
	}
	buf_putc(b, ']');
}

/*
 * The candidate project into C (initialised; its project-level
 * diagnostics into cd): every module of pj with its checked bytes, the
 * operations' modules patched, checked linked, the manifest's entry and
 * test roles (as project_check), and lowered.
 */
static bool
candidate_project(Program *C, DiagSink *cd, const Project *pj, const TxOp *ops, int nops)
{
	for (int m = 0; m < pj->P.nmods; m++) {
		const Session *L = &pj->P.mods[m]->s;
		const TxOp *o = NULL;
		for (int i = 0; i < nops; i++)
			if (ops[i].mod == (ModuleId)m)
				o = &ops[i];
		driver_program_add(C, L->diags.path, o ? o->cand : L->src, o ? o->clen : L->len);
	}
	bool verified = driver_program_check_linked(C) && project_check_roles(&pj->man, C, cd);
	for (int m = 0; verified && m < C->nmods; m++)
		verified = driver_lower(&C->mods[m]->s);
	return verified;
}

/* head (may be NULL), then the candidate's diagnostics, to stderr: its
 * errors and the warnings it adds, not a warning its module had in base
 * (the project as it is), which one line counts. */
static void
emit_candidate(Program *C, const DiagSink *cd, const Program *base, const char *head)
{
	if (head && !cli_diag_json)
		fputs(head, stderr);
	cli_emit_diags(cd);
	int dropped = 0;
	for (int m = 0; m < C->nmods; m++) {
		ModuleId b = driver_program_find(base, C->mods[m]->name);
		if (b != DRIVER_NO_MODULE)
			dropped += cli_patch_drop_known_warnings(&C->mods[m]->s.diags, &base->mods[b]->s.diags);
		cli_emit_diags(&C->mods[m]->s.diags);
	}
	cli_patch_dropped_line(dropped, "the project already has");
}

enum { TX_REVIEW, TX_APPLY, TX_DRY };

/* patch --json: the transaction's `semaprax.patch-result.v1` (diff: the
 * diffs of a dry run, else NULL), printed. */
static void
tx_result(const Project *pj, const Program *C, const TxOp *ops, int nops, const Buf *diff)
{
	PatchResultModule *m = spx_xcalloc((size_t)nops, sizeof *m);
	for (int i = 0; i < nops; i++) {
		const ProgModule *pm = pj->P.mods[ops[i].mod];
		m[i] = (PatchResultModule){ pm->name, pm->s.diags.path, pm->s.revision, C->mods[driver_program_find(C, pm->name)]->s.revision };
	}
	Buf b = {0};
	cli_patch_result(&b, diff != NULL, pj->manifest_path, pj->P.revision, C->revision, pj->man.name, C->revision, m, nops, diff);
	fwrite(b.data, 1, b.len, stdout);
	buf_free(&b);
	free(m);
}

/* After the candidate project C verified: each operation accepted, then the
 * diffs (dry) or the commit of every changed module. */
static bool
tx_apply(const Project *pj, Program *C, TxOp *ops, int nops, bool dry)
{
	for (int i = 0; i < nops; i++) {
		TxOp *o = &ops[i];
		const ProgModule *pm = pj->P.mods[o->mod];
		if (pm->src_index <= 0 || pm->src_index > pj->man.nsources) {
			char label[32];
			snprintf(label, sizeof label, "%d", i);
			tx_fail(o->label, DIAG_G525, "invalid semantic transaction: operation %s changes a bundled package module, which has no file in the project", label);
			return false;
		}
		ModuleId cm = driver_program_find(C, pm->name);
		bool good = cli_patch_accept(&o->sp, &o->plan, &pj->P.mods[o->mod]->s, &C->mods[cm]->s, &o->pd);
		cli_emit_diags(&o->pd);
		if (!good)
			return false;
	}
	if (dry) {
		Buf b = {0};
		for (int i = 0; i < nops; i++) {
			const Session *L = &pj->P.mods[ops[i].mod]->s;
			cli_patch_unified_diff(&b, L->diags.path, L->src, L->len, ops[i].cand, ops[i].clen, &ops[i].plan);
		}
		if (cli_diag_json) {
			tx_result(pj, C, ops, nops, &b);
		} else {
			buf_printf(&b, "dry run: project %s would be %s; nothing was written\n", pj->man.name, C->revision);
			fwrite(b.data, 1, b.len, stdout);
		}
		buf_free(&b);
		return true;
	}
	TxWrite *w = spx_xcalloc((size_t)nops, sizeof *w);
	for (int i = 0; i < nops; i++) {
		const ProgModule *pm = pj->P.mods[ops[i].mod];
		w[i] = (TxWrite){ pj->paths[pm->src_index - 1], pm->s.src, pm->s.len, ops[i].cand, ops[i].clen };
	}
	bool ok = cli_patch_tx_commit(pj, w, nops);
	free(w);
	if (!ok)
		return false;
	if (cli_diag_json) {
		tx_result(pj, C, ops, nops, NULL);
		return true;
	}
	printf("applied semantic transaction to %d module%s; project %s is now %s\n", nops, nops == 1 ? "" : "s", pj->man.name, C->revision);
	for (int i = 0; i < nops; i++) {
		const char *name = pj->P.mods[ops[i].mod]->name;
		printf("module %s is now %s\n", name, C->mods[driver_program_find(C, name)]->s.revision);
	}
	return true;
}

static int
project_tx(const char *manifest, const char *tx_path, int mode, bool evidence)
{
	size_t tlen = 0;
	char *ttext = cli_patch_read(tx_path, &tlen, true);
	if (!ttext)
		return EXIT_FAIL;
	int status = EXIT_FAIL;
	Project pj;
	Program C;
	driver_program_init(&C);
	DiagSink cd;
	diag_init(&cd, manifest, NULL, 0);
	TxOp *ops = NULL;
	int nops = 0;
	json_t *root = NULL;
	Buf out = {0};
	memset(&pj, 0, sizeof pj);
	if (tlen > TRANSACTION_MAX_BYTES) {
		status = tx_fail(tx_path, DIAG_G526, "the transaction is larger than %s bytes", "1048576");
		goto out;
	}
	json_error_t err;
	root = json_loadb(ttext, tlen, JSON_REJECT_DUPLICATES, &err);
	if (!root) {
		/* not JSON: where jansson stopped, in our words (its own name a
		 * flag we did not pass: a string holding \u0000) */
		DiagSink sk;
		diag_init(&sk, tx_path, ttext, tlen);
		size_t es, ee;   /* the offending token (it was the last byte jansson read) */
		json_error_span(ttext, tlen, false, err.position, err.text, &es, &ee);
		Span at = { (uint32_t)es, (uint32_t)ee };
		Diag *d = diag_report(&sk, DIAG_G525, &at, "invalid semantic transaction: not JSON: %s",
		    strstr(err.text, "JSON_ALLOW_NUL") ? "a string holds \\u0000" : err.text);
		if (tlen >= 5 && (strncmp(ttext, "base ", 5) == 0 || strncmp(ttext, "schema semaprax.semantic-patch", 30) == 0))
			/* a `.spatch` given with a project: the module form takes it */
			diag_set_help(d, "this is a semantic patch of one module: pass that module's file, `semaprax %s src/<module>.spx <p.spatch>`, or wrap it in a transaction (docs/PATCH.md)",
			    mode == TX_REVIEW ? "review" : "patch");
		else
			diag_set_help(d, "write {\"schema\":\"" TRANSACTION_SCHEMA "\",\"expected_workspace_revision\":…,\"operations\":[…],\"requested_authority\":\"none\"} (docs/PATCH.md)");
		cli_emit_diags(&sk);
		diag_free(&sk);
		status = EXIT_FAIL;
		goto out;
	}
	static const char *const keys[] = { "schema", "expected_workspace_revision", "operations", "requested_authority" };
	json_t *jops = root ? json_object_get(root, "operations") : NULL;
	if (!root || !tx_keys(root, keys, 4) || !json_is_string(json_object_get(root, "schema")) ||
	    strcmp(json_string_value(json_object_get(root, "schema")), TRANSACTION_SCHEMA) != 0 ||
	    !json_is_string(json_object_get(root, "expected_workspace_revision")) || !json_is_array(jops) || json_array_size(jops) == 0 ||
	    json_array_size(jops) > REVIEW_MAX_OPERATIONS || !json_is_string(json_object_get(root, "requested_authority")) ||
	    strcmp(json_string_value(json_object_get(root, "requested_authority")), "none") != 0) {
		status = tx_fail(tx_path, DIAG_G525, "invalid semantic transaction: %s",
		    !root ? err.text : "expected exactly the keys schema (" TRANSACTION_SCHEMA "), expected_workspace_revision, "
		    "operations (1 to 4096) and requested_authority (\"none\")");
		goto out;
	}
	if (!project_check(&pj, manifest) || !project_lower(&pj)) {
		project_emit_diags(&pj, cli_diag_json);
		goto out;
	}
	const char *expected = json_string_value(json_object_get(root, "expected_workspace_revision"));
	if (strcmp(expected, pj.P.revision) != 0) {
		char want[84], why[200];
		clip(want, sizeof want, expected);
		snprintf(why, sizeof why, "expected %s, the project is %s", want, pj.P.revision);
		status = tx_fail(tx_path, DIAG_G527, "stale semantic transaction: %s", why);
		goto out;
	}
	/* each operation planned against its module of the one verified project */
	nops = (int)json_array_size(jops);
	ops = spx_xcalloc((size_t)nops, sizeof *ops);
	bool ok = true;
	for (int i = 0; i < nops && ok; i++) {
		TxOp *o = &ops[i];
		const char *why = NULL;
		char arg[300], label[64];
		o->text = tx_patch(&pj, json_array_get(jops, (size_t)i), &o->mod, &why, arg, sizeof arg);
		snprintf(label, sizeof label, "%d", i);
		if (!o->text) {
			status = tx_fail(tx_path, strncmp(why, "stale", 5) == 0 ? DIAG_G527 : DIAG_G525, why, arg[0] ? arg : label);
			ok = false;
			break;
		}
		o->len = strlen(o->text);
		for (int k = 0; k < i; k++)
			if (ops[k].mod == o->mod) {
				status = tx_fail(tx_path, DIAG_G525, "invalid semantic transaction: two operations change module `%s`; write one patch per module",
				    pj.P.mods[o->mod]->name);
				ok = false;
			}
		if (!ok)
			break;
		Buf lb = {0};
		buf_printf(&lb, "%s#operations[%d]", tx_path, i);
		o->label = buf_take(&lb);
		diag_init(&o->pd, o->label, o->text, o->len);
		Session *L = &pj.P.mods[o->mod]->s;
		ok = patch_parse(&o->sp, o->text, o->len, &o->pd) &&
		    patch_plan(&o->sp, L->m, L->S, L->H, L->src, L->len, L->revision, &o->pd, &o->plan);
		if (ok)
			o->cand = patch_apply(L->src, L->len, &o->plan, &o->clen);
		cli_emit_diags(&o->pd);
	}
	if (!ok)
		goto out;
	if (!candidate_project(&C, &cd, &pj, ops, nops)) {
		emit_candidate(&C, &cd, &pj.P, "semantic transaction result does not verify; the project is unchanged:\n");
		goto out;
	}
	if (mode != TX_REVIEW) {
		status = tx_apply(&pj, &C, ops, nops, mode == TX_DRY) ? EXIT_OK : EXIT_FAIL;
		goto out;
	}
	/* the report: each operation's module review */
	buf_puts(&out, "{\"schema\":\"semaprax.project-semantic-review.c1\",\"base_revision\":");
	json_cstr(&out, pj.P.revision);
	buf_puts(&out, ",\"candidate_revision\":");
	json_cstr(&out, C.revision);
	buf_puts(&out, ",\"transaction\":{\"schema\":\"" TRANSACTION_SCHEMA "\",\"digest\":");
	patch_put_digest(&out, "semaprax.semantic-transaction.intent.digest.c1", ttext, tlen);
	buf_puts(&out, "},\"modules\":[");
	for (int i = 0; i < nops; i++) {
		TxOp *o = &ops[i];
		Session *L = &pj.P.mods[o->mod]->s;
		ModuleId cm = driver_program_find(&C, pj.P.mods[o->mod]->name);
		Session *Cs = &C.mods[cm]->s;
		Buf r = {0};
		bool good = patch_same_meaning(&o->sp, &o->plan, L->S, Cs->S, &o->pd) && cli_patch_review_report(&r, L, Cs, &o->sp, &o->plan, o->text, o->len, &o->pd);
		cli_emit_diags(&o->pd);
		if (!good) {
			buf_free(&r);
			goto out;
		}
		buf_printf(&out, "%s{\"operation_index\":%d,\"module\":", i ? "," : "", i);
		json_cstr(&out, pj.P.mods[o->mod]->name);
		buf_puts(&out, ",\"path\":");
		json_cstr(&out, L->diags.path);
		buf_puts(&out, ",\"base_revision\":");
		json_cstr(&out, L->revision);
		buf_puts(&out, ",\"candidate_revision\":");
		json_cstr(&out, Cs->revision);
		if (evidence) {
			Buf d = {0};
			cli_patch_unified_diff(&d, L->diags.path, L->src, L->len, o->cand, o->clen, &o->plan);
			buf_puts(&out, ",\"candidate_source\":{\"digest\":");
			patch_put_digest(&out, "semaprax.semantic-review.source-digest.v1", o->cand, o->clen);
			buf_puts(&out, ",\"diff\":");
			json_str(&out, d.data ? d.data : "", d.len);
			buf_putc(&out, '}');
			buf_free(&d);
		}
		cli_patch_cross_module_callers(&out, &pj.P, o->mod, &o->plan);
		buf_puts(&out, ",\"review\":");
		buf_put(&out, r.data, r.len);
		buf_putc(&out, '}');
		buf_free(&r);
	}
	buf_puts(&out, "],\"authority\":\"none\",\"nonclaims\":[\"no_commit_performed\",\"cross_module_callers_direct_only\",\"no_authority_granted\"]}\n");
	fwrite(out.data, 1, out.len, stdout);
	status = EXIT_OK;
out:
	for (int i = 0; i < nops; i++) {
		free(ops[i].text);
		free(ops[i].cand);
		patch_plan_free(&ops[i].plan);
		patch_free(&ops[i].sp);
		if (ops[i].label)
			diag_free(&ops[i].pd);
		free(ops[i].label);
	}
	free(ops);
	if (root)
		json_decref(root);
	buf_free(&out);
	diag_free(&cd);
	driver_program_free(&C);
	project_free(&pj);
	free(ttext);
	return status;
}

int
cli_patch_review_project(const char *manifest, const char *tx_path, bool evidence)
{
	return project_tx(manifest, tx_path, TX_REVIEW, evidence);
}

int
cli_patch_apply_project(const char *manifest, const char *tx_path, bool dry)
{
	return project_tx(manifest, tx_path, dry ? TX_DRY : TX_APPLY, false);
}

bool
cli_patch_project_open(ProjectPatch *pp, const char *manifest, const char *path, bool need_verified)
{
	pp->mod = DRIVER_NO_MODULE;
	driver_program_init(&pp->C);
	pp->verified = project_check(&pp->pj, manifest) && project_lower(&pp->pj);
	if (!pp->pj.admitted) {
		/* The manifest or its sources did not load: its diagnostics say why.
		 * A nearest manifest that does not read claims the file (as in the
		 * LSP server): which files it means is unknown, so the file is not
		 * taken alone either. */
		if (!cli_diag_json) {
			fputs("the nearest manifest ", stderr);
			cli_put_visible(stderr, manifest);
			fputs(" does not load, so ", stderr);
			cli_put_visible(stderr, path);
			fputs(" is not taken alone; nothing was changed:\n", stderr);
		}
		project_emit_diags(&pp->pj, cli_diag_json);
		return false;
	}
	if (!pp->verified && need_verified) {
		project_emit_diags(&pp->pj, cli_diag_json);
		return false;
	}
	/* the module whose source is the file (the manifest listed it) */
	for (int m = 0; m < pp->pj.P.nmods && pp->mod == DRIVER_NO_MODULE; m++)
		if (project_same_file(pp->pj.P.mods[m]->s.diags.path, path))
			pp->mod = (ModuleId)m;
	if (pp->mod == DRIVER_NO_MODULE && !pp->verified) {
		project_emit_diags(&pp->pj, cli_diag_json);
		return false;
	}
	if (pp->mod == DRIVER_NO_MODULE) {
		/* the manifest changed since it listed the file */
		Buf msg = {0};
		buf_printf(&msg, "the manifest changed during the semantic patch: it no longer lists `%s`", path);
		cli_report(DIAG_I207, manifest, msg.data,
		           "run the command again: a file the nearest semaprax.toml lists is taken as that module of its project");
		buf_free(&msg);
		return false;
	}
	pp->L = &pp->pj.P.mods[pp->mod]->s;
	if (!pp->L->src) {
		project_emit_diags(&pp->pj, cli_diag_json);
		return false;
	}
	return true;
}

bool
cli_patch_project_verify(ProjectPatch *pp, const char *src, size_t len)
{
	driver_program_free(&pp->C);
	driver_program_init(&pp->C);
	diag_free(&pp->cdiags);
	diag_init(&pp->cdiags, pp->pj.manifest_path, NULL, 0);
	TxOp o;
	memset(&o, 0, sizeof o);
	o.mod = pp->mod;
	o.cand = (char *)src;
	o.clen = len;
	bool ok = candidate_project(&pp->C, &pp->cdiags, &pp->pj, &o, 1);
	pp->Cs = NULL;
	for (int m = 0; m < pp->C.nmods && !pp->Cs; m++)
		if (strcmp(pp->C.mods[m]->s.diags.path, pp->L->diags.path) == 0)
			pp->Cs = &pp->C.mods[m]->s;
	return ok && pp->Cs;
}

void
cli_patch_project_emit(ProjectPatch *pp, const char *head)
{
	emit_candidate(&pp->C, &pp->cdiags, &pp->pj.P, head);
}

/* After a module patch's candidate project failed: when errors lie in other
 * modules (a field renamed, a parameter added, … that an importer uses), the
 * way on is a transaction changing those modules too; said once (human
 * form only: --json prints the diagnostics alone). */
static void
other_modules_note(const ProjectPatch *pp)
{
	if (cli_diag_json)
		return;
	const char *first = NULL;
	int n = 0;
	for (int m = 0; m < pp->C.nmods; m++) {
		const Session *s = &pp->C.mods[m]->s;
		if (s->diags.errors > 0 && strcmp(s->diags.path, pp->L->diags.path) != 0) {
			if (!first)
				first = s->diags.path;
			n++;
		}
	}
	if (!first)
		return;
	fputs("note: the errors are in ", stderr);
	if (n == 1) {
		fputs("another module, ", stderr);
		Buf b = {0};
		diag_put_visible(&b, first, strlen(first));
		fwrite(b.data, 1, b.len, stderr);
		buf_free(&b);
	} else
		fprintf(stderr, "%d other modules", n);
	fputs(": a project transaction changes them in the same step (`semaprax patch <project> <tx.json>`, docs/PATCH.md)\n", stderr);
}

bool
cli_patch_project_plan(ProjectPatch *pp, const char *path, const SPatch *sp, DiagSink *pd, PatchPlan *plan, char **cand, size_t *clen)
{
	Session *L = pp->L;
	if (!patch_plan(sp, L->m, L->S, L->H, L->src, L->len, L->revision, pd, plan))
		return false;
	*cand = patch_apply(L->src, L->len, plan, clen);
	if (!cli_patch_project_verify(pp, *cand, *clen)) {
		Buf head = {0};
		buf_puts(&head, "semantic patch result does not verify; ");
		diag_put_visible(&head, path, strlen(path));
		buf_puts(&head, " is unchanged:\n");
		cli_patch_project_emit(pp, head.data);
		buf_free(&head);
		other_modules_note(pp);
		return false;
	}
	return cli_patch_accept(sp, plan, L, pp->Cs, pd);
}

bool
cli_patch_project_candidate(ProjectPatch *pp, const char *manifest, const char *path, const SPatch *sp, DiagSink *pd, PatchPlan *plan,
    char **cand, size_t *clen)
{
	return cli_patch_project_open(pp, manifest, path, true) && cli_patch_project_plan(pp, path, sp, pd, plan, cand, clen);
}

/* Reports that the project's file at path does not read (I101): an I/O
 * error (errno), not a change. */
static void
project_read_failed(const char *path)
{
	Buf msg = {0};
	buf_printf(&msg, "cannot read %s: %s", path, strerror(errno));
	cli_report(DIAG_I101, path, msg.data,
	    "check that the project's files are readable, then run the command again; nothing was written");
	buf_free(&msg);
}

/* The manifest and every module but skip (DRIVER_NO_MODULE: none skipped)
 * hold the bytes pj was checked with; else I207 or I101, printed. */
static bool
project_unchanged(const Project *pj, ModuleId skip)
{
	const char *what = NULL, *where = pj->manifest_path;
	FmtHolds h = cli_test_estale("guard") ? FMT_HOLDS_ERROR : cli_file_compare(pj->manifest_path, pj->src, pj->len);
	if (h != FMT_HOLDS_SAME)
		what = "the project manifest";
	for (int m = 0; !what && m < pj->P.nmods; m++) {
		const ProgModule *pm = pj->P.mods[m];
		if ((ModuleId)m == skip || pm->src_index <= 0 || pm->src_index > pj->man.nsources)
			continue;   /* the written file (the write's own check), a bundled package */
		h = cli_file_compare(pj->paths[pm->src_index - 1], pm->s.src, pm->s.len);
		if (h != FMT_HOLDS_SAME) {
			what = "project module";
			where = pj->paths[pm->src_index - 1];
		}
	}
	if (!what)
		return true;
	if (h == FMT_HOLDS_ERROR) {
		project_read_failed(where);
		return false;
	}
	Buf msg = {0};
	buf_printf(&msg, "%s %s changed after the project was verified; nothing was written", what, where);
	cli_report(DIAG_I207, where, msg.data,
	    "run the command again: it verifies the project as its manifest and modules now read");
	buf_free(&msg);
	return false;
}

bool
cli_patch_project_unchanged(void *ctx)
{
	const ProjectPatch *pp = ctx;
	return project_unchanged(&pp->pj, pp->mod);
}

bool
cli_patch_project_files_unchanged(const Project *pj)
{
	return project_unchanged(pj, DRIVER_NO_MODULE);
}

void
cli_patch_project_free(ProjectPatch *pp)
{
	diag_free(&pp->cdiags);
	driver_program_free(&pp->C);
	project_free(&pp->pj);
}
