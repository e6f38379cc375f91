/*
 * db_project.c — the service's project product (issue 17 item 1 for
 * projects): per-module products kept across refreshes.
 *
 * A refresh re-reads the manifest and every module's bytes (disk, or the
 * unsaved buffer); project_recheck carries each module whose bytes are
 * unchanged into the new program with its parse and check, re-parses and
 * re-checks the others, and re-checks a carried module only when a
 * provider it imports was re-checked with a different status or interface
 * digest (driver_module_interface).  A changed manifest, a renamed module,
 * a parse/G170/cycle error, or no linked earlier program: the whole check.
 *
 * Trace names (docs/service.md, "Products"): `manifest` (executed: the
 * whole project was loaded; reused: the manifest bytes were unchanged and
 * modules were carried), `parse:module:<name>` and `module:<name>` (the
 * module's link step: its uses resolved, check, revision) per module, and
 * `project` (the program revision and the entry/test roles; reused when no
 * module was re-checked, and on a `check` without refresh).
 *
 * SPX_SERVICE_VERIFY_PROJECT: after every incremental refresh, a cold
 * project check of the same inputs must answer the same ok, revision and
 * diagnostics (rendered), or the process aborts.
 */
#include "svc_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *
mod_label(const ProgModule *pm)
{
	return pm->name && pm->name[0] ? pm->name : pm->s.diags.path;
}

static void
project_trace(SvcTrace *t, const Project *pj)
{
	const Program *P = &pj->P;
	svc_trace_add(t, pj->incremental ? SVC_REUSED : SVC_EXECUTED, "manifest");
	bool any = !pj->incremental;
	for (int i = 0; i < P->nmods; i++) {
		const ProgModule *pm = P->mods[i];
		if (pm->spliced_now) {
			Span n = svc_decl_name_span(&pm->s.m->decls[pm->spliced_decl]);
			svc_trace_add(t, SVC_EXECUTED, "parse:decl:%s:fn:%.*s", mod_label(pm), (int)(n.end - n.start), pm->s.src + n.start);
		} else if (pm->parsed_now || pm->carried) {
			svc_trace_add(t, pm->parsed_now ? SVC_EXECUTED : SVC_REUSED, "parse:module:%s", mod_label(pm));
		}
	}
	if (P->linked)
		for (int k = 0; k < P->nmods; k++) {
			const ProgModule *pm = P->mods[P->order[k]];
			if (pm->rechecked) {
				/* a reduced check: the spliced body in the module's kept
				 * checker, or the declaration pass and the bodies naming a
				 * function whose signature text changed */
				svc_trace_add(t, pm->resolve_now ? SVC_EXECUTED : SVC_REUSED, "resolve:%s", mod_label(pm));
				for (int j = 0; j < pm->nrechecked; j++) {
					const Decl *d = &pm->s.m->decls[pm->rechecked[j]];
					Span n = svc_decl_name_span(d);
					svc_trace_add(t, SVC_EXECUTED, "body:%s:%s:%.*s", mod_label(pm), d->kind == DECL_CLASS ? "class" : "fn",
					    (int)(n.end - n.start), pm->s.src + n.start);
				}
				any = true;
				continue;
			}
			svc_trace_add(t, pm->checked_now ? SVC_EXECUTED : SVC_REUSED, "module:%s", mod_label(pm));
			any |= pm->checked_now;
		}
	svc_trace_add(t, any ? SVC_EXECUTED : SVC_REUSED, "project");
}

/* Each diagnostic of s as its `check --json` object, comma-separated after
 * what was written before unless *first: the layer's one renderer of a
 * diagnostics list (check's answer, an error's `data`). */
void
svc_put_diag(Buf *out, const DiagSink *s, const Diag *d, bool *first)
{
	if (!*first)
		buf_putc(out, ',');
	*first = false;
	size_t at = out->len;
	diag_render_json(out, s, d);
	while (out->len > at && out->data[out->len - 1] == '\n')
		out->len--;
}

void
svc_put_diags(Buf *out, const DiagSink *s, bool *first)
{
	for (int i = 0; i < s->items.len; i++)
		svc_put_diag(out, s, &s->items.items[i], first);
}

void
svc_error_diags(SvcError *err, const Buf *items)
{
	Buf d = {0};
	buf_puts(&d, "{\"diagnostics\":[");
	buf_put(&d, items->data ? items->data : "", items->len);
	buf_puts(&d, "]}");
	free(err->data);
	err->data = d.data;
}

/* Every diagnostic of a project as project_emit_diags orders them, a list's items. */
static void
render_all(Buf *b, const Project *pj)
{
	bool first = true;
	svc_put_diags(b, &pj->diags, &first);
	for (int m = 0; m < pj->P.nmods; m++)
		svc_put_diags(b, &pj->P.mods[m]->s.diags, &first);
}

static void
verify_project(const char *manifest, const ProjectOverlay *ov, int nov, Project *pj, bool ok)
{
	driver_program_revision(&pj->P);
	Project cold;
	bool cok = project_check_overlay(&cold, manifest, ov, nov);
	Buf a = {0}, b = {0};
	render_all(&a, pj);
	render_all(&b, &cold);
	bool same = cok == ok && strcmp(cold.P.revision, pj->P.revision) == 0 && a.len == b.len && (a.len == 0 || memcmp(a.data, b.data, a.len) == 0) &&
	            cold.P.nmods == pj->P.nmods;
	for (int m = 0; same && m < pj->P.nmods; m++)
		same = strcmp(cold.P.mods[m]->s.revision, pj->P.mods[m]->s.revision) == 0 &&
		       cold.P.mods[m]->linked_ok == pj->P.mods[m]->linked_ok &&
		       (!cold.P.mods[m]->linked_ok || memcmp(cold.P.mods[m]->iface, pj->P.mods[m]->iface, 32) == 0);
	if (!same) {
		fprintf(stderr, "SPX_SERVICE_VERIFY_PROJECT: an incremental project check differs from a cold one\n"
		                "ok %d/%d revision `%s`/`%s`\n--- incremental\n%.*s--- cold\n%.*s",
		    ok, cok, pj->P.revision, cold.P.revision, (int)a.len, a.data ? a.data : "", (int)b.len, b.data ? b.data : "");
		abort();
	}
	buf_free(&a);
	buf_free(&b);
	project_free(&cold);
}

bool
svc_project_update(Project **pjp, const char *manifest, const ProjectOverlay *ov, int nov, SvcTrace *t)
{
	/* the base: the held project, or the linked one it keeps (a refresh
	 * that broke a module before linking answered from a whole check) */
	Project *old = *pjp, *np = spx_xcalloc(1, sizeof *np);
	Project *base = old ? (old->P.linked ? old : old->base) : NULL;
	bool ok;
	if (base)
		ok = project_recheck(np, base, manifest, ov, nov);
	else
		ok = project_check_overlay(np, manifest, ov, nov);
	if (base && !np->P.linked) {
		/* project_recheck left base whole: keep it for the repair */
		if (base == old) {
			np->base = old;
			old = old->base;
			np->base->base = NULL;
		} else {
			np->base = base;
			old->base = NULL;
		}
	}
	if (old) {
		project_free(old);
		free(old);
	}
	*pjp = np;
	if (np->incremental && getenv("SPX_SERVICE_VERIFY_PROJECT"))
		verify_project(manifest, ov, nov, np, ok);
	project_trace(t, np);
	return ok;
}

bool
svc_project_check(Service *v, SvcTrace *t, bool reload)
{
	if (v->pj && !reload) {
		svc_trace_add(t, SVC_REUSED, "project");
		return v->pj_ok;
	}
	v->pj_ok = svc_project_update(&v->pj, v->manifest, v->ov, v->nov, t);
	return v->pj_ok;
}

void
svc_seen_diag(void *ctx, const DiagSink *s, const Diag *d)
{
	SvcSeen *w = ctx;
	if (w->seen)
		return;
	w->seen = true;
	w->code = d->code;
	bool first = true;
	svc_put_diag(&w->item, s, d, &first);
	const char *help = diag_help_text(d);
	w->message = spx_xstrdup(d->message);
	w->help = help && *help ? spx_xstrdup(help) : NULL;
}

void
svc_seen_free(SvcSeen *w)
{
	buf_free(&w->item);
	free(w->message);
	free(w->help);
}

bool
svc_project_read_failed(Service *v, const SvcSeen *seen, const char *cli, int code, SvcError *err)
{
	err->code = code;
	if (code == SVC_E_NOT_VERIFIED) {
		Buf items = {0};
		Project pj;
		bool loaded = project_check_overlay(&pj, v->manifest, v->ov, v->nov) && project_lower(&pj);
		if (!loaded)
			render_all(&items, &pj);
		project_free(&pj);
		if (!loaded) {
			snprintf(err->message, sizeof err->message, "the project does not verify" SVC_DATA_HELD);
			svc_error_diags(err, &items);
			buf_free(&items);
			return false;
		}
	}
	if (seen->seen) {
		/* the first diagnostic the command reported, as it made it */
		svc_error_diags(err, &seen->item);
		snprintf(err->message, sizeof err->message, "%.300s%s%.400s", seen->message, seen->help ? "; help: " : "",
		    seen->help ? seen->help : "");
	} else {
		/* no diagnostic (a usage refusal): the command's first line */
		snprintf(err->message, sizeof err->message, "%.*s", (int)strcspn(cli, "\n") > 300 ? 300 : (int)strcspn(cli, "\n"), cli);
	}
	return false;
}
