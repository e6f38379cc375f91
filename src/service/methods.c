/*
 * methods.c — the service's operations (docs/service.md, "Methods"): each
 * reads its params (a jansson object or NULL) and writes one JSON value
 * into out.  status, check, refresh, graph, context and query answer from
 * the product database (db.c); doc, patch/preview, patch/impact,
 * patch/review, patch/apply, repairs, repair, fix, run and test run the command of the command table in this process, with stdin
 * from /dev/null and stdout/stderr captured (bounded), on the file on disk
 * — refused (SVC_E_UNSAVED) while the held source differs from it.  A
 * project's graph, context, query and doc read its held buffers instead
 * (SvcOptions.set_overlay); its run and test read the disk.
 */
#include "svc_int.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

/* the bytes of a temporary file's name: $TMPDIR and the template */
#define SVC_TEMP_PATH 4096
#include <unistd.h>

#include "../patch/patch.h"
#include "../support/json.h"

const char *const svc_method_names[] = {
	"protocol", "status", "check", "refresh", "graph", "context", "query", "doc",
	"patch/preview", "patch/impact", "patch/review", "patch/apply", "repairs", "repair", "fix", "run", "test", "ping", "shutdown",
};
const int svc_nmethods = (int)(sizeof svc_method_names / sizeof svc_method_names[0]);

static bool
fail(SvcError *err, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	err->code = code;
	vsnprintf(err->message, sizeof err->message, fmt, ap);
	va_end(ap);
	return false;
}

/* ---- params ------------------------------------------------------------------- */

/* The named params a method accepts: anything else is SVC_E_PARAMS. */
static bool
params_closed(json_t *params, const char *const *names, SvcError *err)
{
	if (!params)
		return true;
	if (!json_is_object(params))
		return fail(err, SVC_E_PARAMS, "params must be an object");
	const char *key;
	json_t *val;
	json_object_foreach(params, key, val) {
		bool known = false;
		for (int i = 0; names[i] && !known; i++)
			known = strcmp(names[i], key) == 0;
		if (!known) {
			/* name what the method does take, so the caller can retry */
			char list[400];
			size_t n = 0;
			list[0] = '\0';
			for (int i = 0; names[i] && n < sizeof list; i++)
				n += (size_t)snprintf(list + n, sizeof list - n, "%s`%s`", i ? ", " : "", names[i]);
			if (!names[0])
				return fail(err, SVC_E_PARAMS, "unknown parameter `%.100s`: this method takes no parameters", key);
			return fail(err, SVC_E_PARAMS, "unknown parameter `%.100s`: this method takes %s", key, list);
		}
	}
	return true;
}

static bool
param_string(json_t *params, const char *name, const char **out, SvcError *err)
{
	json_t *v = params ? json_object_get(params, name) : NULL;
	*out = NULL;
	if (!v)
		return true;
	if (!json_is_string(v))
		return fail(err, SVC_E_PARAMS, "`%s` must be a string", name);
	if (strlen(json_string_value(v)) != json_string_length(v))
		return fail(err, SVC_E_PARAMS, "`%s` must not contain NUL", name);
	*out = json_string_value(v);
	return true;
}

static bool
param_int(json_t *params, const char *name, long lo, long hi, long *out, SvcError *err)
{
	json_t *v = params ? json_object_get(params, name) : NULL;
	if (!v)
		return true;
	if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
		return fail(err, SVC_E_PARAMS, "`%s` must be an integer in %ld..%ld", name, lo, hi);
	*out = (long)json_integer_value(v);
	return true;
}

static bool
param_bool(json_t *params, const char *name, bool *out, SvcError *err)
{
	json_t *v = params ? json_object_get(params, name) : NULL;
	if (!v)
		return true;
	if (!json_is_boolean(v))
		return fail(err, SVC_E_PARAMS, "`%s` must be true or false", name);
	*out = json_is_true(v);
	return true;
}

/* ---- the product database ------------------------------------------------------- */

static bool
ensure_input(Service *v, SvcError *err)
{
	if (v->project || v->have_file)
		return true;
	if (!svc_file_set(&v->file, NULL, 0, err))
		return false;
	v->have_file = true;
	return true;
}

/* err->data: {"diagnostics":[…]} of sink s (each its `check` object); frees s. */
static void
diags_data(SvcError *err, DiagSink *s)
{
	Buf items = {0};
	bool first = true;
	svc_put_diags(&items, s, &first);
	svc_error_diags(err, &items);
	buf_free(&items);
	diag_free(s);
}

/* The project product: re-checked from disk when marked stale, per module
 * (db_project.c). */
static bool
project_check_now(Service *v, SvcTrace *t, bool reload)
{
	return svc_project_check(v, t, reload);
}

/* {"ok":…,"revision":…,"diagnostics":[…](,"trace":…)}; a refresh (reload
 * or new bytes: want_rev false) answers "revision" only when its params ask
 * (`revision: true`): the revision hashes the whole canonical text, the
 * largest cost of a one-body refresh, and is computed only when asked. */
static bool
do_check(Service *v, json_t *params, Buf *out, SvcError *err, bool reload, bool refresh)
{
	bool trace = false, want_rev = !refresh;
	if (!param_bool(params, "trace", &trace, err) || (refresh && !param_bool(params, "revision", &want_rev, err)))
		return false;
	SvcTrace t;
	svc_trace_init(&t);
	t.off = !trace;
	bool ok, first = true;
	Buf d = {0};
	const char *rev = NULL;
	if (v->project) {
		ok = project_check_now(v, &t, reload);
		svc_put_diags(&d, &v->pj->diags, &first);
		for (int i = 0; i < v->pj->P.nmods; i++)
			svc_put_diags(&d, &v->pj->P.mods[i]->s.diags, &first);
		if (ok && want_rev)
			driver_program_revision(&v->pj->P);   /* pending after a body re-checked in place */
		rev = ok && v->pj->P.revision[0] ? v->pj->P.revision : NULL;
	} else {
		if (!ensure_input(v, err)) {
			svc_trace_free(&t);
			return false;
		}
		DiagSink s;
		v->file.lazy_revision = !want_rev;
		ok = svc_file_check(&v->file, &t, &s);
		svc_put_diags(&d, &s, &first);
		diag_free(&s);
		rev = ok && want_rev ? svc_file_revision(&v->file) : NULL;
	}
	buf_printf(out, "{\"ok\":%s", ok ? "true" : "false");
	if (want_rev) {
		buf_puts(out, ",\"revision\":");
		json_cstr(out, rev);
	}
	buf_puts(out, ",\"diagnostics\":[");
	buf_put(out, d.data ? d.data : "", d.len);
	buf_putc(out, ']');
	buf_free(&d);
	if (trace) {
		buf_puts(out, ",\"trace\":");
		svc_trace_json(out, &t);
	}
	buf_putc(out, '}');
	svc_trace_free(&t);
	return true;
}

static bool
m_check(Service *v, json_t *params, Buf *out, SvcError *err)
{
	static const char *const names[] = { "trace", NULL };
	return params_closed(params, names, err) && do_check(v, params, out, err, false, false);
}

/* One edit of `edits`: {start, end, text}, byte offsets into the source
 * as the edits before it left it. */
/* cur[0..len) with [a, b) replaced by t[0..tl), NUL-terminated; its length in *out_len. */
static char *
splice_edit(const char *cur, size_t len, size_t a, size_t b, const char *t, size_t tl, size_t *out_len)
{
	size_t n = len - (b - a) + tl;
	char *r = spx_xmalloc(n + 1);
	memcpy(r, cur, a);
	memcpy(r + a, t, tl);
	memcpy(r + a + tl, cur + b, len - b);
	r[n] = '\0';
	*out_len = n;
	return r;
}

static bool
edit_fields(json_t *e, size_t len, size_t *start, size_t *end, const char **text, size_t *tlen, SvcError *err)
{
	json_t *a = json_is_object(e) ? json_object_get(e, "start") : NULL;
	json_t *b = json_is_object(e) ? json_object_get(e, "end") : NULL;
	json_t *t = json_is_object(e) ? json_object_get(e, "text") : NULL;
	if (!json_is_integer(a) || !json_is_integer(b) || !json_is_string(t) || json_object_size(e) != 3)
		return fail(err, SVC_E_PARAMS, "each edit is {\"start\": byte, \"end\": byte, \"text\": string}");
	json_int_t x = json_integer_value(a), y = json_integer_value(b);
	if (x < 0 || y < x || (uint64_t)y > (uint64_t)len)
		return fail(err, SVC_E_PARAMS, "edit range %lld..%lld is not within the %zu-byte source", (long long)x, (long long)y, len);
	*start = (size_t)x;
	*end = (size_t)y;
	*text = json_string_value(t);
	*tlen = json_string_length(t);
	return true;
}

/* Applies `edits` in order to src[0..len), each to the bytes the one
 * before made (one copy per edit; none when there is no edit): *out the new
 * bytes (owned) and *out_len, or NULL when ev holds no edit; *keep_pre and
 * *keep_suf how long a prefix and suffix of src no edit touched.  False
 * with err when an edit is malformed, the result would pass bound, or the
 * copies together would pass SVC_EDIT_WORK(bound) bytes (a frame of tiny
 * edits against a large source must not cost minutes of copying). */
static bool
apply_edit_list(const char *src, size_t len, json_t *ev, size_t bound, char **out, size_t *out_len, size_t *keep_pre,
    size_t *keep_suf, SvcError *err)
{
	const char *cur = src;
	char *own = NULL;
	size_t p = len, q = len, work = 0;
	for (size_t i = 0; i < json_array_size(ev); i++) {
		size_t a = 0, b = 0, tl = 0;
		const char *t = "";
		if (!edit_fields(json_array_get(ev, i), len, &a, &b, &t, &tl, err)) {
			free(own);
			return false;
		}
		if (len - (b - a) + tl > bound) {
			free(own);
			return fail(err, SVC_E_PARAMS, "the edited source would exceed %zu bytes", bound);
		}
		work += len + tl;
		if (work > SVC_EDIT_WORK(bound)) {
			free(own);
			return fail(err, SVC_E_PARAMS,
			    "the edits would copy more than %zu bytes in all (each copies the source it edits): send fewer edits, or the whole `text`",
			    SVC_EDIT_WORK(bound));
		}
		p = a < p ? a : p;
		q = len - b < q ? len - b : q;
		char *n = splice_edit(cur, len, a, b, t, tl, &len);
		free(own);
		cur = own = n;
	}
	*out = own;
	*out_len = len;
	*keep_pre = p;
	*keep_suf = q;
	return true;
}

/* Applies `edits` in order to the held source (an editor's incremental
 * change: only the changed bytes cross the pipe). */
static bool
apply_edits(Service *v, json_t *ev, SvcError *err)
{
	if (!ensure_input(v, err))
		return false;
	char *own;
	size_t len, p, q;
	if (!apply_edit_list(v->file.src, v->file.len, ev, v->o.max_message * (size_t)64, &own, &len, &p, &q, err))
		return false;
	if (own)
		svc_file_take_edited(&v->file, own, len, p, q);
	return true;
}

/* A project's unsaved buffer for the source at path: `text` replaces it,
 * `edits` apply to it (to the disk bytes when there is none), neither drops
 * it (the disk bytes again).  path must be one of the manifest's sources. */
static void
drop_overlay(Service *v, int k)
{
	free((char *)v->ov[k].path);
	free((char *)v->ov[k].src);
	v->ov[k] = v->ov[--v->nov];
}

static bool
project_overlay(Service *v, const char *path, json_t *tv, json_t *ev, SvcError *err)
{
	DiagSink d;
	if (!tv && !ev) {
		/* a drop needs no membership: the buffer of a file since deleted,
		 * or taken out of the manifest, is released by the path it was
		 * held under (or any path to the same file) */
		for (int j = 0; j < v->nov; j++)
			if (strcmp(v->ov[j].path, path) == 0 || project_same_file(v->ov[j].path, path)) {
				drop_overlay(v, j);
				return true;
			}
	}
	int in = project_source_member(v->pj, v->manifest, path);
	bool listed = in >= 0, member = in > 0;
	if (!listed)
		return fail(err, SVC_E_PARAMS, "the manifest does not list its sources (`check` reports why): no buffer can stand for one");
	if (!member) {
		/* a relative path is the working directory's, as for the CLI; the
		 * manifest spells its sources from its own directory, so say so
		 * when that is what the agent wrote */
		const char *slash = strrchr(v->manifest, '/');
		if (path[0] != '/' && slash) {
			size_t dl = (size_t)(slash - v->manifest);
			char *joined = spx_xmalloc(dl + 1 + strlen(path) + 1);
			memcpy(joined, v->manifest, dl);
			joined[dl] = '/';
			strcpy(joined + dl + 1, path);
			bool theirs = project_source_member(v->pj, v->manifest, joined) > 0;
			if (theirs) {
				fail(err, SVC_E_PARAMS, "`path` `%.60s` is not a source from the working directory (a relative path's "
				    "start); the manifest's `%.60s` is `%.80s`", path, path, joined);
				free(joined);
				return false;
			}
			free(joined);
		}
		return fail(err, SVC_E_PARAMS, "`path` `%.150s` is not a source of the served project", path);
	}
	int k = 0;
	while (k < v->nov && !project_same_file(v->ov[k].path, path))
		k++;
	char *src = NULL;
	size_t len = 0;
	if (tv) {
		len = json_string_length(tv);
		src = spx_xmalloc(len + 1);
		memcpy(src, json_string_value(tv), len);
		src[len] = '\0';
	} else if (ev) {
		char *disk = NULL;
		if (k == v->nov) {
			diag_init(&d, path, NULL, 0);
			disk = driver_read_source(path, &len, &d);
			diag_free(&d);
			if (!disk)
				return fail(err, SVC_E_IO, "cannot read `%.150s`", path);
		}
		const char *base = disk ? disk : v->ov[k].src;
		size_t blen = disk ? len : v->ov[k].len, p, q;
		bool ok = apply_edit_list(base, blen, ev, v->o.max_message * (size_t)64, &src, &len, &p, &q, err);
		if (ok && !src) {   /* no edit: the bytes themselves */
			src = spx_xmalloc(blen + 1);
			memcpy(src, base, blen);
			src[blen] = '\0';
			len = blen;
		}
		free(disk);
		if (!ok)
			return false;
	}
	if (src) {
		/* all the held buffers together stay under the bound one edited
		 * buffer has (each alone would allow sources × that) */
		size_t bound = v->o.max_message * (size_t)64, held = len;
		for (int j = 0; j < v->nov; j++)
			held += j == k ? 0 : v->ov[j].len;
		if (held > bound) {
			free(src);
			return fail(err, SVC_E_BUFFERS, "the unsaved buffers would hold %zu bytes in all; the limit is %zu (drop one: `refresh` with its `path` alone)",
			    held, bound);
		}
	}
	if (k < v->nov)
		drop_overlay(v, k);
	if (!src)
		return true;
	v->ov = spx_xrealloc(v->ov, sizeof *v->ov * (size_t)(v->nov + 1));
	v->ov[v->nov].path = spx_xstrdup(path);
	v->ov[v->nov].src = src;
	v->ov[v->nov].len = len;
	v->nov++;
	return true;
}

static bool
m_refresh(Service *v, json_t *params, Buf *out, SvcError *err)
{
	static const char *const names[] = { "text", "edits", "path", "trace", "revision", NULL };
	const char *path;
	const char *text = NULL;
	if (!params_closed(params, names, err))
		return false;
	json_t *tv = params ? json_object_get(params, "text") : NULL;
	json_t *ev = params ? json_object_get(params, "edits") : NULL;
	if (tv && !json_is_string(tv))
		return fail(err, SVC_E_PARAMS, "`text` must be a string");
	if (ev && !json_is_array(ev))
		return fail(err, SVC_E_PARAMS, "`edits` must be an array of {start, end, text}");
	if (tv && ev)
		return fail(err, SVC_E_PARAMS, "`text` and `edits` exclude each other");
	if (tv)
		text = json_string_value(tv);   /* source text may hold NUL bytes */
	if (!param_string(params, "path", &path, err))
		return false;
	if (v->project) {
		if ((text || ev) && !path)
			return fail(err, SVC_E_UNSUPPORTED, "a project's unsaved bytes name their module file: `path`");
		if (path && !project_overlay(v, path, tv, ev, err))
			return false;
		return do_check(v, params, out, err, true, true);
	}
	if (path)
		return fail(err, SVC_E_PARAMS, "`path` names a module file of a served project");
	if (ev)
		return apply_edits(v, ev, err) && do_check(v, params, out, err, false, true);
	if (!svc_file_set(&v->file, text, tv ? json_string_length(tv) : 0, err))
		return false;
	v->have_file = true;
	return do_check(v, params, out, err, false, true);
}

static bool
m_status(Service *v, json_t *params, Buf *out, SvcError *err)
{
	static const char *const names[] = { NULL };
	if (!params_closed(params, names, err))
		return false;
	buf_printf(out, "{\"kind\":\"%s\",\"operand\":", v->project ? "project" : "file");
	svc_json_text(out, v->operand);   /* argv bytes: UTF-8 in the reply */
	if (v->project) {
		buf_printf(out, ",\"checked\":%s,\"verified\":%s,\"modules\":%d,\"revision\":", v->pj ? "true" : "false",
		    v->pj && v->pj_ok ? "true" : "false", v->pj ? v->pj->P.nmods : 0);
		if (v->pj && v->pj_ok)
			driver_program_revision(&v->pj->P);
		json_cstr(out, v->pj && v->pj_ok && v->pj->P.revision[0] ? v->pj->P.revision : NULL);
		/* the unsaved buffers' paths as the refreshes named them, sorted */
		buf_puts(out, ",\"unsaved\":[");
		const char *last = NULL;
		for (int n = 0; n < v->nov; n++) {
			const char *next = NULL;
			for (int i = 0; i < v->nov; i++)
				if ((!last || strcmp(v->ov[i].path, last) > 0) && (!next || strcmp(v->ov[i].path, next) < 0))
					next = v->ov[i].path;
			if (n)
				buf_putc(out, ',');
			json_cstr(out, next);
			last = next;
		}
		buf_putc(out, ']');
	} else {
		SvcFile *f = &v->file;
		bool current = f->parsed && f->parsed_gen == f->gen;
		/* declarations of the current parse only: after a patch/apply the
		 * held source is the written file, not yet parsed (0, not the
		 * count of the text before the patch) */
		buf_printf(out, ",\"bytes\":%zu,\"parsed\":%s,\"declarations\":%d,\"revision\":", f->len, current ? "true" : "false",
		    current ? f->nitems : 0);
		/* a refresh leaves the revision pending: computed here on demand */
		json_cstr(out, current && f->verified ? svc_file_revision(f) : NULL);
	}
	buf_putc(out, '}');
	return true;
}

/* The verified program of a single-file service, or false (not verified). */
static bool
program(Service *v, SvcTrace *t, SvcError *err)
{
	if (v->project)
		return fail(err, SVC_E_UNSUPPORTED, "graph, context and query read a single file (serve one of the project's files)");
	if (!ensure_input(v, err))
		return false;
	if (!svc_file_program(&v->file, t)) {
		/* its diagnostics as `check` answers them, in `data` (as a project's) */
		DiagSink s;
		SvcTrace quiet;
		svc_trace_init(&quiet);
		quiet.off = true;
		(void)svc_file_check(&v->file, &quiet, &s);
		svc_trace_free(&quiet);
		diags_data(err, &s);
		return fail(err, SVC_E_NOT_VERIFIED, "the program does not verify" SVC_DATA_HELD);
	}
	return true;
}

static void
finish(Buf *out, SvcTrace *t, bool trace)
{
	if (trace) {
		buf_puts(out, ",\"trace\":");
		svc_trace_json(out, t);
	}
	buf_putc(out, '}');
	svc_trace_free(t);
}

static GraphMeta
meta_of(SvcFile *f)
{
	GraphMeta m = { f->prog->revision, f->schema, f->pdigest };
	return m;
}

static bool on_disk(Service *v, SvcError *err);

/*
 * graph, context and query of a project: the CLI's project forms
 * (`semaprax.project-graph.c1`, `semaprax.project-agent-context.v1`,
 * `semaprax.project-query.c1`) run in-process over the project with its
 * held buffers read instead of the disk (the bytes a disk with them saved
 * would give), their one JSON line answered as {"<key>": …}.  A project
 * that does not verify is -32004, a symbol no declaration has -32005.
 */
static bool
held_capture(Service *v, int argc, char **argv, Buf *bo, Buf *be, int *status, SvcSeen *seen, SvcError *err)
{
	if (!v->o.set_overlay && !on_disk(v, err))
		return false;
	if (v->o.set_overlay)
		v->o.set_overlay(v->ov, v->nov);
	if (seen && v->o.watch_diags)
		v->o.watch_diags(svc_seen_diag, seen);
	bool ok = svc_capture(&v->o, argc, argv, bo, be, status, err);
	if (seen && v->o.watch_diags)
		v->o.watch_diags(NULL, NULL);
	if (v->o.set_overlay)
		v->o.set_overlay(NULL, 0);
	return ok;
}

static bool
project_read(Service *v, char **argv, int argc, const char *key, Buf *out, SvcError *err)
{
	Buf bo = {0}, be = {0};
	int status = 0;
	SvcSeen seen = {0};
	bool ok = held_capture(v, argc, argv, &bo, &be, &status, &seen, err);
	if (ok && status != 0) {
		/* structured diagnostics in `data` (a G001's help names the
		 * candidates of an ambiguous symbol: the agent's next request) */
		bool symbol = seen.seen && seen.code == DIAG_G001;   /* unknown or ambiguous: one code */
		ok = svc_project_read_failed(v, &seen, be.data ? be.data : "", symbol ? SVC_E_SYMBOL : status == 2 ? SVC_E_PARAMS : SVC_E_NOT_VERIFIED,
		    err);
	}
	svc_seen_free(&seen);
	if (ok) {
		size_t len = bo.len;
		while (len > 0 && bo.data[len - 1] == '\n')
			len--;
		buf_printf(out, "{\"%s\":", key);
		buf_put(out, bo.data, len);
		buf_putc(out, '}');
	}
	buf_free(&bo);
	buf_free(&be);
	return ok;
}

static bool
m_graph(Service *v, json_t *params, Buf *out, SvcError *err)
{
	static const char *const names[] = { "trace", NULL };
	bool trace = false;
	SvcTrace t;
	svc_trace_init(&t);
	if (!params_closed(params, names, err) || !param_bool(params, "trace", &trace, err)) {
		svc_trace_free(&t);
		return false;
	}
	if (v->project) {
		char *argv[] = { "graph", "--manifest-path", v->manifest, NULL };
		svc_trace_free(&t);   /* empty: nothing was traced yet */
		if (trace)
			return fail(err, SVC_E_PARAMS, "a project's graph, context and query carry no `trace` (the CLI's project forms answer them)");
		return project_read(v, argv, 3, "graph", out, err);
	}
	if (!program(v, &t, err)) {
		svc_trace_free(&t);
		return false;
	}
	GraphMeta meta = meta_of(&v->file);
	buf_puts(out, "{\"graph\":");
	graph_write(out, v->file.g, &meta, NULL, NULL);
	finish(out, &t, trace);
	return true;
}

static bool
resolve(Service *v, const char *symbol, int *out, SvcError *err)
{
	*out = graph_resolve(v->file.g, symbol);
	if (*out >= 0)
		return true;
	/* the CLI's help too: the ids an ambiguous name names, or the nearest */
	Buf h = {0};
	graph_symbol_help(&h, v->file.g, symbol, *out == -2);
	if (*out == -2)
		fail(err, SVC_E_SYMBOL, "symbol `%.100s` names several declarations; help: %.500s", symbol, h.data ? h.data : "");
	else
		fail(err, SVC_E_SYMBOL, "no declaration has the stable id or name `%.100s`; help: %.500s", symbol, h.data ? h.data : "");
	/* and the CLI's G001 as the object `check` answers, in `data` (whole) */
	DiagSink s;
	diag_init(&s, v->file.path, NULL, 0);
	Diag *g = diag_report(&s, DIAG_G001, NULL, *out == -2 ? "symbol `%s` names several declarations" : "no declaration has the stable id or name `%s`",
	    symbol);
	diag_set_help(g, "%s", h.data ? h.data : "");
	diags_data(err, &s);
	buf_free(&h);
	return false;
}

static bool
m_context(Service *v, json_t *params, Buf *out, SvcError *err)
{
	static const char *const names[] = { "symbol", "direction", "depth", "max_bytes", "max_nodes", "filters", "trace", NULL };
	ContextQuery q = { 0, NULL, 0, 1, 65536, 256, 0 };
	const char *symbol, *dir;
	long depth = 1, max_bytes = 65536, max_nodes = 256;
	bool trace = false;
	if (!params_closed(params, names, err) || !param_string(params, "symbol", &symbol, err) ||
	    !param_string(params, "direction", &dir, err) || !param_int(params, "depth", 1, GRAPH_CTX_MAX_DEPTH, &depth, err) ||
	    !param_int(params, "max_bytes", GRAPH_CTX_MIN_BYTES, (long)GRAPH_CTX_MAX_BYTES, &max_bytes, err) ||
	    !param_int(params, "max_nodes", 1, GRAPH_CTX_MAX_NODES, &max_nodes, err) || !param_bool(params, "trace", &trace, err))
		return false;
	if (!symbol)
		return fail(err, SVC_E_PARAMS, "`symbol` is required");
	if (dir) {
		if (strcmp(dir, "forward") == 0)
			q.direction = CTX_FORWARD;
		else if (strcmp(dir, "reverse") == 0)
			q.direction = CTX_REVERSE;
		else if (strcmp(dir, "both") == 0)
			q.direction = CTX_BOTH;
		else
			return fail(err, SVC_E_PARAMS, "`direction` is forward, reverse or both");
	}
	json_t *fl = params ? json_object_get(params, "filters") : NULL;
	if (fl) {
		static const char *const fnames[] = { "contracts", "ownership", "effects", "types" };
		if (!json_is_array(fl) || json_array_size(fl) == 0)
			return fail(err, SVC_E_PARAMS, "`filters` is a non-empty list of contracts, ownership, effects, types");
		size_t i;
		json_t *e;
		json_array_foreach(fl, i, e) {
			int bit = -1;
			for (int k = 0; k < 4 && json_is_string(e) && strlen(json_string_value(e)) == json_string_length(e); k++)
				if (strcmp(json_string_value(e), fnames[k]) == 0)
					bit = 1 << k;
			if (bit < 0 || (q.filters & bit))
				return fail(err, SVC_E_PARAMS, "`filters` is a list of contracts, ownership, effects, types (each once)");
			q.filters |= bit;
		}
	}
	if (v->project) {
		if (trace)
			return fail(err, SVC_E_PARAMS, "a project's graph, context and query carry no `trace` (the CLI's project forms answer them)");
		if (fl)
			return fail(err, SVC_E_PARAMS, "a project's context takes no `filters`");
		char nb[3][24];
		snprintf(nb[0], sizeof nb[0], "%ld", depth);
		snprintf(nb[1], sizeof nb[1], "%ld", max_bytes);
		snprintf(nb[2], sizeof nb[2], "%ld", max_nodes);
		char *argv[] = { "context", "--manifest-path", v->manifest, (char *)symbol, "--depth", nb[0], "--max-bytes", nb[1], "--max-nodes",
			nb[2], dir ? "--direction" : NULL, (char *)dir, NULL };
		return project_read(v, argv, dir ? 12 : 10, "context", out, err);
	}
	q.depth = (int)depth;
	q.max_bytes = max_bytes;
	q.max_nodes = (int)max_nodes;
	SvcTrace t;
	svc_trace_init(&t);
	if (!program(v, &t, err) || !resolve(v, symbol, &q.root, err)) {
		svc_trace_free(&t);
		return false;
	}
	q.symbol = symbol;
	Buf b = {0};
	long need = 0;
	GraphMeta meta = meta_of(&v->file);
	if (!graph_context(&b, v->file.g, &meta, &q, &need)) {
		buf_free(&b);
		svc_trace_free(&t);
		return fail(err, SVC_E_PARAMS, "the context needs %ld bytes; max_bytes is %ld", need, max_bytes);
	}
	buf_puts(out, "{\"context\":");
	buf_put(out, b.data, b.len);
	buf_free(&b);
	finish(out, &t, trace);
	return true;
}

static bool
m_query(Service *v, json_t *params, Buf *out, SvcError *err)
{
	static const char *const names[] = { "kind", "name", "id", "effect", "calls", "called_by", "trace", NULL };
	GraphQuery q = { 0, NULL, NULL, NULL, -1, -1, true };
	const char *calls, *called_by;
	bool trace = false;
	if (!params_closed(params, names, err) || !param_string(params, "name", &q.name, err) ||
	    !param_string(params, "id", &q.id_prefix, err) || !param_string(params, "effect", &q.effect, err) ||
	    !param_string(params, "calls", &calls, err) || !param_string(params, "called_by", &called_by, err) ||
	    !param_bool(params, "trace", &trace, err))
		return false;
	/* an empty effect names none (the CLI refuses `--effect ""`): said so in
	 * both forms, as the CLI's project form would only say `--effect` */
	if (q.effect && !*q.effect)
		return fail(err, SVC_E_PARAMS, "`effect` names an effect a `uses` declares, e.g. \"process.stdout.write\"");
	json_t *kl = params ? json_object_get(params, "kind") : NULL;
	if (kl) {
		if (!json_is_array(kl) || json_array_size(kl) == 0)
			return fail(err, SVC_E_PARAMS, "`kind` is a non-empty list of declaration kinds, e.g. [\"function\"]: function, method, record, "
			    "field, variant, case, case_field, class, resource, interface, import");
		size_t i;
		json_t *e;
		json_array_foreach(kl, i, e) {
			int bit = -1;
			for (int k = 0; k < GK__COUNT && json_is_string(e) && strlen(json_string_value(e)) == json_string_length(e); k++)
				if (strcmp(json_string_value(e), graph_kind_names[k]) == 0)
					bit = k;
			if (bit < 0 || (q.kinds & (1u << bit)))
				return fail(err, SVC_E_PARAMS, "`kind` names function, method, record, field, variant, case, case_field, "
				    "class, resource, interface, import (each once)");
			q.kinds |= 1u << bit;
		}
	}
	if (v->project) {
		if (trace)
			return fail(err, SVC_E_PARAMS, "a project's graph, context and query carry no `trace` (the CLI's project forms answer them)");
		char kinds[256] = "";
		for (int k = 0, n = 0; k < GK__COUNT; k++)
			if (q.kinds & (1u << k))
				n += snprintf(kinds + n, sizeof kinds - (size_t)n, "%s%s", n ? "," : "", graph_kind_names[k]);
		/* as the file form answers them: an empty name or id prefix keeps
		 * every declaration (the CLI refuses an empty option value), an
		 * empty symbol names none */
		if (q.name && !*q.name)
			q.name = NULL;
		if (q.id_prefix && !*q.id_prefix)
			q.id_prefix = NULL;
		if ((calls && !*calls) || (called_by && !*called_by))
			return fail(err, SVC_E_SYMBOL, "no declaration has the stable id or name ``; help: `semaprax query <project>` lists every "
			    "declaration with its path and stable id");
		char *argv[17] = { "query", "--manifest-path", v->manifest, "--json" };
		int argc = 4;
		const char *const opt[][2] = { { "--kind", q.kinds ? kinds : NULL }, { "--name", q.name }, { "--id", q.id_prefix },
			{ "--effect", q.effect }, { "--calls", calls }, { "--called-by", called_by } };
		for (size_t k = 0; k < sizeof opt / sizeof opt[0]; k++)
			if (opt[k][1]) {
				argv[argc++] = (char *)opt[k][0];
				argv[argc++] = (char *)opt[k][1];
			}
		argv[argc] = NULL;
		return project_read(v, argv, argc, "query", out, err);
	}
	SvcTrace t;
	svc_trace_init(&t);
	if (!program(v, &t, err) || (calls && !resolve(v, calls, &q.calls, err)) ||
	    (called_by && !resolve(v, called_by, &q.called_by, err))) {
		svc_trace_free(&t);
		return false;
	}
	GraphMeta meta = meta_of(&v->file);
	buf_puts(out, "{\"query\":");
	size_t at = out->len;
	graph_query(out, v->file.g, &meta, &q);
	while (out->len > at && out->data[out->len - 1] == '\n')
		out->len--;
	finish(out, &t, trace);
	return true;
}

/* ---- commands run in this process ------------------------------------------------ */

/* Reads fd's file from its start, at most max bytes; false past it. */
static bool
slurp(int fd, size_t max, Buf *out)
{
	if (lseek(fd, 0, SEEK_SET) != 0)
		return false;
	char chunk[8192];
	ssize_t n;
	while ((n = read(fd, chunk, sizeof chunk)) > 0) {
		if (out->len + (size_t)n > max)
			return false;
		buf_put(out, chunk, (size_t)n);
	}
	return n == 0;
}

/* A new temporary file in $TMPDIR (else /tmp), its name in path[SVC_TEMP_PATH];
 * -1 when none is made.  A directory whose template does not fit is
 * refused (ENAMETOOLONG), never cut: a cut name is another directory (a
 * `%.200s` cut made every captured command fail under a 201-byte TMPDIR,
 * and put the agent's patch text in a sibling directory when one had the
 * cut name). */
static int
temp_file(char path[SVC_TEMP_PATH])
{
	const char *dir = getenv("TMPDIR");
	int n = snprintf(path, SVC_TEMP_PATH, "%s/semaprax-serve-XXXXXX", dir && *dir ? dir : "/tmp");
	if (n < 0 || n >= SVC_TEMP_PATH) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return mkstemp(path);
}

static int
temp_fd(char path[SVC_TEMP_PATH])
{
	int fd = temp_file(path);
	if (fd >= 0)
		unlink(path);
	return fd;
}

/* The command argv[0] names, in *fn, and the files its output goes to and
 * its input comes from (fd: stdout, stderr, /dev/null); stdio flushed, so
 * nothing of the service's own output lands in them. */
static bool
capture_open(const SvcOptions *o, char **argv, SvcCommandFn *fn, int fd[3], SvcError *err)
{
	*fn = o->find_command ? o->find_command(argv[0]) : NULL;
	if (!*fn)
		return fail(err, SVC_E_UNSUPPORTED, "`%s` is not available in this service", argv[0]);
	char p1[SVC_TEMP_PATH], p2[SVC_TEMP_PATH];
	fd[0] = temp_fd(p1);
	fd[1] = temp_fd(p2);
	fd[2] = open("/dev/null", O_RDONLY);
	if (fd[0] < 0 || fd[1] < 0 || fd[2] < 0) {
		int e = errno;
		for (int i = 0; i < 3; i++)
			if (fd[i] >= 0)
				close(fd[i]);
		return fail(err, SVC_E_IO, "cannot create a temporary file for the command's output in $TMPDIR: %s", strerror(e));
	}
	fflush(stdout);
	fflush(stderr);
	return true;
}

bool
svc_capture(const SvcOptions *o, int argc, char **argv, Buf *bo, Buf *be, int *status, SvcError *err)
{
	SvcCommandFn fn;
	int fd[3];
	if (!capture_open(o, argv, &fn, fd, err))
		return false;
	int fo = fd[0], fe = fd[1], in = fd[2];
	int so = dup(1), se = dup(2), si = dup(0);
	dup2(fo, 1);
	dup2(fe, 2);
	dup2(in, 0);
	*status = fn(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	dup2(si, 0);
	close(so);
	close(se);
	close(si);
	close(in);
	bool fits = slurp(fo, o->max_message, bo) && slurp(fe, o->max_message, be);
	close(fo);
	close(fe);
	if (!fits)
		return fail(err, SVC_E_RESPONSE_TOO_LARGE, "the command's output exceeds %zu bytes", o->max_message);
	return true;
}

/* The wall-clock limit of a request that runs a program (`run`, `test`) in
 * milliseconds: SVC_RUN_SECONDS, or the test hook
 * SEMAPRAX_TEST_RUN_DEADLINE_MS (tests/service/edit_bounds.py). */
static long
run_deadline_ms(void)
{
	const char *t = getenv("SEMAPRAX_TEST_RUN_DEADLINE_MS");
	if (t && *t >= '0' && *t <= '9')
		return strtol(t, NULL, 10);
	return SVC_RUN_SECONDS * 1000L;
}

/* The test hook SEMAPRAX_TEST_WAITPID_FAIL=EINTR or =ECHILD: capture_run's
 * first poll of its child fails with that errno instead of asking
 * waitpid (tests/service/edit_bounds.py); 0 without it. */
static int
waitpid_fault(void)
{
	const char *t = getenv("SEMAPRAX_TEST_WAITPID_FAIL");
	if (t && strcmp(t, "EINTR") == 0)
		return EINTR;
	if (t && strcmp(t, "ECHILD") == 0)
		return ECHILD;
	return 0;
}

/* Ends child pid and reaps it: SIGKILL, then a blocking waitpid retried
 * while a signal interrupts it. */
static void
kill_and_reap(pid_t pid, int *ws)
{
	kill(pid, SIGKILL);
	while (waitpid(pid, ws, 0) < 0 && errno == EINTR)
		;
}

static long
now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* svc_capture for a command that runs a program: in a child process, so
 * that a run still going at the wall-clock limit is ended (SIGKILL) and
 * answered -32011, nothing of its output kept, and the service goes on.
 * A poll interrupted by a signal (EINTR) is repeated; one that fails
 * otherwise ends and reaps the child too, answered -32603. */
static bool
capture_run(const SvcOptions *o, int argc, char **argv, Buf *bo, Buf *be, int *status, SvcError *err)
{
	SvcCommandFn fn;
	int fd[3];
	if (!capture_open(o, argv, &fn, fd, err))
		return false;
	int fo = fd[0], fe = fd[1], in = fd[2];
	long limit = run_deadline_ms(), end = now_ms() + limit;
	pid_t pid = fork();
	if (pid == 0) {
		dup2(fo, 1);
		dup2(fe, 2);
		dup2(in, 0);
		int st = fn(argc, argv);
		fflush(stdout);
		fflush(stderr);
		_exit(st & 255);
	}
	close(in);
	bool ok = pid > 0 || fail(err, SVC_E_IO, "cannot start the command (fork)");
	int ws = 0, fault = waitpid_fault();
	for (long nap = 1; ok;) {
		pid_t r = fault ? -1 : waitpid(pid, &ws, WNOHANG);
		if (fault)
			errno = fault;
		fault = 0;
		if (r == pid)
			break;
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			kill_and_reap(pid, &ws);
			ok = fail(err, SVC_E_INTERNAL, "lost the command's process (waitpid: %s); it was stopped", strerror(e));
		} else if (now_ms() >= end) {
			kill_and_reap(pid, &ws);
			ok = fail(err, SVC_E_RUN_TIME, "`%s` ran past the service's wall-clock limit of %ld %s per request and was "
			    "stopped (nothing of its output is kept); run it with `semaprax %s`", argv[0],
			    limit % 1000 ? limit : limit / 1000, limit % 1000 ? "ms" : "s", argv[0]);
		} else {
			struct timespec ts = { 0, nap * 1000000L };
			nanosleep(&ts, NULL);
			nap = nap < 16 ? nap * 2 : 16;
		}
	}
	if (ok && !WIFEXITED(ws))
		ok = fail(err, SVC_E_INTERNAL, "`%s` ended by signal %d", argv[0], WIFSIGNALED(ws) ? WTERMSIG(ws) : 0);
	if (ok)
		*status = WEXITSTATUS(ws);
	bool fits = !ok || (slurp(fo, o->max_message, bo) && slurp(fe, o->max_message, be));
	close(fo);
	close(fe);
	if (!fits)
		return fail(err, SVC_E_RESPONSE_TOO_LARGE, "the command's output exceeds %zu bytes", o->max_message);
	return ok;
}

/* How a command is run: in this process (PLAIN), as a project command
 * reading the held buffers (HELD, held_capture), or as one that runs a
 * program (RUNS, capture_run: in a child, within the wall-clock limit). */
enum { PLAIN, HELD, RUNS };

/* Runs command argv[0] with its output captured: {"exit":…,"stdout":…,"stderr":…}. */
static bool
command_as(Service *v, int argc, char **argv, Buf *out, SvcError *err, int *status, int how)
{
	Buf bo = {0}, be = {0};
	bool ok = how == HELD ? held_capture(v, argc, argv, &bo, &be, status, NULL, err)
	    : how == RUNS ? capture_run(&v->o, argc, argv, &bo, &be, status, err)
	    : svc_capture(&v->o, argc, argv, &bo, &be, status, err);
	if (ok) {
		buf_printf(out, "{\"exit\":%d,\"stdout\":", *status);
		json_str(out, bo.data ? bo.data : "", bo.len);
		buf_puts(out, ",\"stderr\":");
		json_str(out, be.data ? be.data : "", be.len);
		buf_putc(out, '}');
	}
	buf_free(&bo);
	buf_free(&be);
	return ok;
}

static bool
command(Service *v, int argc, char **argv, Buf *out, SvcError *err, int *status)
{
	return command_as(v, argc, argv, out, err, status, PLAIN);
}

/* The file on disk holds exactly the service's source (commands read the disk). */
static bool
on_disk(Service *v, SvcError *err)
{
	if (v->project && v->nov)
		return fail(err, SVC_E_UNSAVED, "the project holds unsaved bytes of `%.150s`: write them, or `refresh` with `path` alone",
		    v->ov[0].path);
	if (v->project || !v->have_file)
		return true;
	DiagSink d;
	diag_init(&d, v->file.path, NULL, 0);
	size_t len;
	char *src = driver_read_source(v->file.path, &len, &d);
	bool same = src && len == v->file.len && memcmp(src, v->file.src, len) == 0;
	free(src);
	if (!src && d.items.len) {
		/* no file to run the command on (deleted, now a directory or a FIFO,
		 * unreadable): say why, not "write it, or refresh", which cannot help */
		fail(err, SVC_E_IO, "%s: %.200s", diag_info[d.items.items[0].code].code, d.items.items[0].message);
		diag_free(&d);
		return false;
	}
	diag_free(&d);
	if (!same)
		return fail(err, SVC_E_UNSAVED, "the held source differs from `%.150s` on disk: write it, or `refresh` without text",
		    v->file.path);
	return true;
}

static bool
m_doc(Service *v, json_t *params, Buf *out, SvcError *err)
{
	static const char *const names[] = { "format", NULL };
	const char *format;
	if (!params_closed(params, names, err) || !param_string(params, "format", &format, err))
		return false;
	/* a project's manifest is named with --manifest-path: taken literally,
	 * whatever its file name (serve --manifest-path) */
	char *argv[5] = { "doc", v->project ? "--manifest-path" : v->operand, v->manifest, NULL, NULL };
	int argc = v->project ? 3 : 2;
	if (format && strcmp(format, "json") == 0)
		argv[argc++] = "--json";
	else if (format && strcmp(format, "html") == 0)
		argv[argc++] = "--html";
	else if (format && strcmp(format, "text") != 0)
		return fail(err, SVC_E_PARAMS, "`format` is text, json or html");
	int status;
	if (v->project) {
		/* `doc <project>` over the held buffers, as graph, context and query */
		if (format && strcmp(format, "html") == 0)
			return fail(err, SVC_E_PARAMS, "a project's doc is text or json (a page documents one file)");
		return command_as(v, argc, argv, out, err, &status, HELD);
	}
	return on_disk(v, err) && command(v, argc, argv, out, err, &status);
}

/* out[from..] with each occurrence of path as `<patch>`. */
static void
name_the_patch(Buf *out, size_t from, const char *path)
{
	size_t pl = strlen(path);
	Buf t = {0};
	size_t i = from, run = from;
	while (pl && i + pl <= out->len) {
		if (memcmp(out->data + i, path, pl) == 0) {
			buf_put(&t, out->data + run, i - run);
			buf_puts(&t, "<patch>");
			i += pl;
			run = i;
		} else {
			i++;
		}
	}
	if (!t.data)
		return;
	buf_put(&t, out->data + run, out->len - run);
	out->len = from;
	buf_put(out, t.data, t.len);
	buf_free(&t);
}

/* `revision` against the patch's own `base` line (svc22): a patch written
 * for one revision, sent with another, was applied when the program was at
 * `revision` and failed later as a stale base (or, with the two swapped,
 * said the program was stale when the patch was). -32007 naming both, before
 * the program is checked; a patch without a readable `base` is left to the
 * engine, which says why. */
static bool
patch_base_is(Service *v, const char *patch, const char *rev, SvcError *err)
{
	SPatch p;
	DiagSink d;
	diag_init(&d, "<patch>", patch, strlen(patch));
	(void)patch_parse(&p, patch, strlen(patch), &d);
	bool same = !p.base.s || strcmp(p.base.s, rev) == 0;
	if (!same) {
		/* the revision to send instead, when the held program verifies
		 * (a check, not a run of the patch) */
		const char *now = NULL;
		SvcTrace t;
		svc_trace_init(&t);
		DiagSink s;
		SvcError ignored = { 0, "", NULL };
		if (ensure_input(v, &ignored)) {
			if (svc_file_check(&v->file, &t, &s))
				now = svc_file_revision(&v->file);
			diag_free(&s);
		}
		svc_trace_free(&t);
		if (now)
			fail(err, SVC_E_STALE, "the patch's `base` is `%.100s` but `revision` is `%.100s`: one of them is stale; the program is at `%.100s`: "
			    "rebase the patch on it (`base %.100s`) and send that `revision`", p.base.s, rev, now, now);
		else
			fail(err, SVC_E_STALE, "the patch's `base` is `%.100s` but `revision` is `%.100s`: one of them is stale; re-read the revision and rebase the patch",
			    p.base.s, rev);
	}
	patch_free(&p);
	diag_free(&d);
	return same;
}

/* What a patch request does with the .spatch text: the CLI command it runs. */
typedef enum { PATCH_PREVIEW, PATCH_IMPACT, PATCH_REVIEW, PATCH_APPLY } PatchMode;

static bool
m_patch(Service *v, json_t *params, Buf *out, SvcError *err, PatchMode mode)
{
	bool apply = mode == PATCH_APPLY;
	static const char *const names[] = { "patch", "revision", NULL };
	static const char *const impact_names[] = { "patch", "revision", "depth", "max_bytes", "max_nodes", NULL };
	const char *patch, *rev;
	long bound[3] = { -1, -1, -1 };   /* impact's --depth, --max-bytes, --max-nodes (docs/PATCH.md) */
	if (!params_closed(params, mode == PATCH_IMPACT ? impact_names : names, err) || !param_string(params, "patch", &patch, err) ||
	    !param_string(params, "revision", &rev, err) || !param_int(params, "depth", 0, 1024, &bound[0], err) ||
	    !param_int(params, "max_bytes", 1024, 16777216, &bound[1], err) || !param_int(params, "max_nodes", 1, 65536, &bound[2], err))
		return false;
	if (!patch)
		return fail(err, SVC_E_PARAMS, "`patch` (the .spatch text) is required");
	if (v->project)
		return fail(err, SVC_E_UNSUPPORTED, "patch edits a single file: run `%s`, or send a transaction (docs/PATCH.md) to `%s`",
		    mode == PATCH_PREVIEW ? "semaprax patch <module file> <patch.spatch> --dry-run" : mode == PATCH_IMPACT
		    ? "semaprax impact <module file> <patch.spatch>" : mode == PATCH_REVIEW ? "semaprax review <module file> <patch.spatch>"
		    : "semaprax patch <module file> <patch.spatch>", mode == PATCH_PREVIEW ? "semaprax patch <project> <transaction.json> --dry-run"
		    : mode == PATCH_APPLY ? "semaprax patch <project> <transaction.json>" : "semaprax review <project> <transaction.json>");
	if (!on_disk(v, err))
		return false;
	if (rev && !patch_base_is(v, patch, rev, err))
		return false;
	if (rev) {
		SvcTrace t;
		svc_trace_init(&t);
		DiagSink s;
		if (!ensure_input(v, err)) {
			svc_trace_free(&t);
			return false;
		}
		bool ok = svc_file_check(&v->file, &t, &s);
		diag_free(&s);
		svc_trace_free(&t);
		if (!ok)
			return fail(err, SVC_E_STALE, "the program does not verify, so it is not at revision `%.100s`: `check` lists its diagnostics", rev);
		if (strcmp(svc_file_revision(&v->file), rev) != 0)
			return fail(err, SVC_E_STALE, "the program's revision is `%.100s`, not `%.100s`: rebase the patch on it (`base %.100s`) and send that `revision`",
			    svc_file_revision(&v->file), rev, svc_file_revision(&v->file));
	}
	char path[SVC_TEMP_PATH];
	int fd = temp_file(path);
	if (fd < 0)
		return fail(err, SVC_E_IO, "cannot create a temporary file for the patch in $TMPDIR: %s", strerror(errno));
	size_t n = strlen(patch);
	bool wrote = write(fd, patch, n) == (ssize_t)n;
	close(fd);
	int status = 1;
	bool ok = wrote || fail(err, SVC_E_IO, "cannot write the patch");
	size_t from = out->len;
	if (ok) {
		/* preview: `patch --dry-run`; impact and review: the commands of
		 * those names (reports on stdout, nothing written) */
		char *argv[10] = { mode == PATCH_IMPACT ? "impact" : mode == PATCH_REVIEW ? "review" : "patch", v->operand, path,
			mode == PATCH_PREVIEW ? "--dry-run" : NULL, NULL };
		int argc = mode == PATCH_PREVIEW ? 4 : 3;
		static char *const flags[3] = { "--depth", "--max-bytes", "--max-nodes" };
		char nums[3][24];
		for (int i = 0; i < 3; i++)
			if (bound[i] >= 0) {
				snprintf(nums[i], sizeof nums[i], "%ld", bound[i]);
				argv[argc++] = flags[i];
				argv[argc++] = nums[i];
			}
		ok = command(v, argc, argv, out, err, &status);
	}
	unlink(path);
	/* the diagnostics name the patch `<patch>` (the `patch` parameter), not
	 * the temporary file, which the agent never sees and whose random name
	 * made the answer differ for the same request */
	if (ok)
		name_the_patch(out, from, path);
	if (ok && apply && status == 0 && v->have_file)
		ok = svc_file_set(&v->file, NULL, 0, err);   /* the edited file is the input now */
	return ok;
}

/* `semaprax fix <file> [--code C] [--dry-run]` on the file on disk: the
 * fixes `check` lists applied by the tool (an agent need not order and
 * apply the byte ranges itself); on a write the file is the input again. */
static bool
m_fix(Service *v, json_t *params, Buf *out, SvcError *err)
{
	static const char *const names[] = { "code", "dry_run", NULL };
	const char *code;
	bool dry = false;
	if (!params_closed(params, names, err) || !param_string(params, "code", &code, err) ||
	    !param_bool(params, "dry_run", &dry, err))
		return false;
	if (v->project)
		return fail(err, SVC_E_UNSUPPORTED, "fix edits a single file: run `semaprax fix <module file>`");
	if (code && (strncmp(code, "SPX-", 4) != 0 || strlen(code) > 16)) {
		int near = strlen(code) <= 16 ? diag_lookup(code) : -1;   /* `P106`: the code it names */
		if (near >= 0)
			return fail(err, SVC_E_PARAMS, "`code` is a diagnostic code, `SPX-…`: write `%s`", diag_info[near].code);
		return fail(err, SVC_E_PARAMS, "`code` is a diagnostic code, `SPX-…`");
	}
	if (code && diag_lookup(code) < 0)   /* the command's refusal named its `--code` option (agent40) */
		return fail(err, SVC_E_PARAMS, "`code` `%s` is no diagnostic code: send one `check` answered, e.g. \"SPX-P104\"", code);
	if (!on_disk(v, err))
		return false;
	char *argv[6] = { "fix", v->operand, NULL, NULL, NULL, NULL };
	int argc = 2;
	if (code) {
		argv[argc++] = "--code";
		argv[argc++] = (char *)code;
	}
	if (dry)
		argv[argc++] = "--dry-run";
	int status = 1;
	bool ok = command(v, argc, argv, out, err, &status);
	/* fix may write the file even when errors remain (a file no manifest
	 * lists): re-read it whenever it was not a dry run */
	if (ok && !dry && v->have_file)
		ok = svc_file_set(&v->file, NULL, 0, err);
	return ok;
}

/* `semaprax repairs <file> assign-function-id <target>` and `semaprax repair
 * <file> <repair> --persistent-id <id>` on the file on disk (agent40): the
 * S103 repair an agent needs before it can rename an automatically
 * identified function (G104) or review a patch that reaches one (G110),
 * whose helps name these commands.  Nothing is written: the preview's
 * `patch.source` is sent to patch/apply. */
static bool
m_repair(Service *v, json_t *params, Buf *out, SvcError *err, bool list)
{
	static const char *const list_names[] = { "target", NULL };
	static const char *const names[] = { "repair", "persistent_id", NULL };
	const char *a, *b = NULL;
	if (!params_closed(params, list ? list_names : names, err) || !param_string(params, list ? "target" : "repair", &a, err) ||
	    (!list && !param_string(params, "persistent_id", &b, err)))
		return false;
	if (!a || !*a)
		return fail(err, SVC_E_PARAMS, list ? "`target` (the automatic id `query` lists, e.g. \"auto:<module>.<name>\") is required"
		    : "`repair` (the `repair.id` that `repairs` answers) is required");
	if (!list && (!b || !*b))
		return fail(err, SVC_E_PARAMS, "`persistent_id` (the explicit id to give the function, e.g. \"shop.take\") is required");
	if (v->project)
		return fail(err, SVC_E_UNSUPPORTED, "%s edits a single file: run `semaprax %s <module file> %s`", list ? "repairs" : "repair",
		    list ? "repairs" : "repair", list ? "assign-function-id <automatic-id>" : "<repair-id> --persistent-id <id>");
	if (!on_disk(v, err))
		return false;
	char *argv[6] = { list ? "repairs" : "repair", v->operand, list ? "assign-function-id" : (char *)a,
		list ? (char *)a : "--persistent-id", (char *)b, NULL };
	int status = 1;
	return command(v, list ? 4 : 5, argv, out, err, &status);
}

static bool
m_run(Service *v, json_t *params, Buf *out, SvcError *err)
{
	static const char *const names[] = { "args", "max_steps", NULL };
	long steps = 0;
	if (!params_closed(params, names, err))
		return false;
	/* the service answers one request at a time: one run may take at most
	 * SVC_MAX_RUN_STEPS interpreter steps (seconds, not hours); a longer
	 * run is the CLI's (`semaprax run --max-steps N`) */
	json_t *ms = params ? json_object_get(params, "max_steps") : NULL;
	if (ms && json_is_integer(ms) && json_integer_value(ms) > SVC_MAX_RUN_STEPS)
		return fail(err, SVC_E_PARAMS, "`max_steps` is at most %ld in the service (it answers one request at a time); "
		    "run a longer program with `semaprax run --max-steps N`", (long)SVC_MAX_RUN_STEPS);
	if (!param_int(params, "max_steps", 1, SVC_MAX_RUN_STEPS, &steps, err))
		return false;
	json_t *args = params ? json_object_get(params, "args") : NULL;
	if (args && (!json_is_array(args) || json_array_size(args) > 256))
		return fail(err, SVC_E_PARAMS, "`args` is a list of at most 256 strings");
	size_t nargs = args ? json_array_size(args) : 0;
	char **argv = spx_xcalloc(nargs + 8, sizeof *argv);
	char num[32];
	int argc = 0;
	argv[argc++] = "run";
	if (v->project)
		argv[argc++] = "--manifest-path";
	argv[argc++] = v->project ? v->manifest : v->operand;
	argv[argc++] = "--json";   /* a project's too: semaprax.project-execution.v1 */
	if (steps) {
		snprintf(num, sizeof num, "%ld", steps);
		argv[argc++] = "--max-steps";
		argv[argc++] = num;
	}
	if (nargs) {
		argv[argc++] = "--";
		for (size_t i = 0; i < nargs; i++) {
			json_t *a = json_array_get(args, i);
			if (!json_is_string(a) || strlen(json_string_value(a)) != json_string_length(a)) {
				free(argv);
				return fail(err, SVC_E_PARAMS, "`args` is a list of strings (no NUL)");
			}
			argv[argc++] = (char *)json_string_value(a);
		}
	}
	int status;
	bool ok = on_disk(v, err) && command_as(v, argc, argv, out, err, &status, RUNS);
	free(argv);
	return ok;
}

static bool
m_test(Service *v, json_t *params, Buf *out, SvcError *err)
{
	static const char *const names[] = { NULL };
	if (!params_closed(params, names, err))
		return false;
	if (!v->project)
		return fail(err, SVC_E_UNSUPPORTED, "test runs a project's test module: serve the project");
	char *argv[5] = { "test", "--manifest-path", v->manifest, "--json", NULL };
	int status;
	return on_disk(v, err) && command_as(v, 4, argv, out, err, &status, RUNS);
}

static bool
m_protocol(Service *v, json_t *params, Buf *out, SvcError *err)
{
	static const char *const names[] = { NULL };
	if (!params_closed(params, names, err))
		return false;
	buf_printf(out, "{\"protocol\":\"semaprax.service.v1\",\"framing\":\"newline-delimited\",\"max_message_bytes\":%zu,"
	    "\"methods\":[", v->o.max_message);
	for (int i = 0; i < svc_nmethods; i++) {
		if (i)
			buf_putc(out, ',');
		json_cstr(out, svc_method_names[i]);
	}
	buf_printf(out, "],\"operand\":{\"kind\":\"%s\",\"path\":", v->project ? "project" : "file");
	svc_json_text(out, v->operand);   /* argv bytes: UTF-8 in the reply */
	buf_puts(out, "}}");
	return true;
}

bool
svc_call(Service *v, const char *method, json_t *params, Buf *out, SvcError *err)
{
	err->data = NULL;
	if (params && !json_is_object(params))
		return fail(err, SVC_E_PARAMS, "params must be an object");
	if (strcmp(method, "protocol") == 0)
		return m_protocol(v, params, out, err);
	if (strcmp(method, "status") == 0)
		return m_status(v, params, out, err);
	if (strcmp(method, "check") == 0)
		return m_check(v, params, out, err);
	if (strcmp(method, "refresh") == 0)
		return m_refresh(v, params, out, err);
	if (strcmp(method, "graph") == 0)
		return m_graph(v, params, out, err);
	if (strcmp(method, "context") == 0)
		return m_context(v, params, out, err);
	if (strcmp(method, "query") == 0)
		return m_query(v, params, out, err);
	if (strcmp(method, "doc") == 0)
		return m_doc(v, params, out, err);
	if (strcmp(method, "patch/preview") == 0)
		return m_patch(v, params, out, err, PATCH_PREVIEW);
	if (strcmp(method, "patch/impact") == 0)
		return m_patch(v, params, out, err, PATCH_IMPACT);
	if (strcmp(method, "patch/review") == 0)
		return m_patch(v, params, out, err, PATCH_REVIEW);
	if (strcmp(method, "patch/apply") == 0)
		return m_patch(v, params, out, err, PATCH_APPLY);
	if (strcmp(method, "repairs") == 0 || strcmp(method, "repair") == 0)
		return m_repair(v, params, out, err, method[6] == 's');
	if (strcmp(method, "fix") == 0)
		return m_fix(v, params, out, err);
	if (strcmp(method, "run") == 0)
		return m_run(v, params, out, err);
	if (strcmp(method, "test") == 0)
		return m_test(v, params, out, err);
	if (strcmp(method, "ping") == 0) {
		static const char *const names[] = { NULL };
		if (!params_closed(params, names, err))
			return false;
		buf_puts(out, "{}");
		return true;
	}
	return fail(err, SVC_E_METHOD, "no method `%.100s`", method);
}
