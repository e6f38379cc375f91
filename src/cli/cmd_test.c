/*
 * cmd_test.c — `semaprax test [<dir>|semaprax.toml|--manifest-path <p>]
 * [--json] [--max-steps N] [--max-bytes N] [--lane interp]` (TOOLCHAIN.md
 * §1.2, §2.3).
 *
 * `check` of the project, every module lowered (project_lower), then in the
 * interpreter lane: the test module's `main` (passes iff it returns 0),
 * then every case — a function of the test module whose name starts with
 * `test_`, with no parameters and no type parameters, returning `i64`,
 * with an explicit `@id` — ordered by stable id (bytewise).  Each run is a
 * fresh interpreter image (interp_run_image_func) with the whole
 * --max-steps budget.  A `test_` function of another shape is not a case:
 * the report adds `note: `<name>` is not a test case: <rule>`.
 *
 * Human output: all pass → stdout `project tests passed` (no cases) or
 * `project tests passed (N named cases)`, exit 0.  Otherwise on stderr one
 * `failed <stable-id>: <outcome>` per failing main/case (outcome
 * `returned <v>`, `language status <status-json>` plus the two contract
 * detail lines when present, `step budget exhausted`, `call-depth bound
 * exceeded`) and its place, `  at <path>:<line>:<col>: <source line>`
 * (the failed contract's clause when the interpreter ran it, else the
 * function's `fn`; cli_project_at_line), then `project tests failed: <failed> of <total> in <module>`
 * (total = main + cases) and the `help:` line, exit 1.
 *
 * --json prints the `semaprax.project-execution.v1` envelope on stdout
 * (docs/DECISIONS.md "`semaprax test`"; each run adds `location`, a
 * contract failure `failure_location`), exit 0/1 as above; an envelope
 * over --max-bytes (default 65,536) is SPX-F104 (exit 1), never truncated.
 * Lanes: `--lane interp|native|wasm|all` (cmd_project_lanes.c).  Grants:
 * those of `run` of the project (cli_project_admit: the union of the
 * modules' permits); a project permitting fs.write is F120 unless
 * `--allow-write[=DIR]` is given, which the native lane's program receives
 * as its first argument.  On a
 * terminal (stderr is a tty, human mode) each run adds a progress line
 * `test <stable-id> ... ok|FAILED` on stderr.
 */
#include "cli.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../driver/route.h"
#include "../emit_c/emit_c.h"
#include "../hir/hir.h"
#include "../interp/interp.h"
#include "../project/project.h"
#include "../rt/rt.h"
#include "../sema/sema.h"
#include "../support/json.h"

#define TEST_GRAMMAR "test requires [<dir>|semaprax.toml|--manifest-path <p>] [--json] [--max-steps N] [--max-bytes N] [--lane interp|native|wasm|all] [--native-timeout-ms N] [--allow-write[=DIR]]"


enum { LANE_INTERP = 1, LANE_NATIVE = 2, LANE_WASM = 4, LANE_ALL = 7 };

typedef struct TestOptions {
	const char *path;
	const char *manifest_path;
	bool json;
	uint64_t max_steps, max_bytes;
	int lanes;                /* LANE_* bits; LANE_INTERP by default */
	uint64_t native_timeout_ms;  /* per native run (default 10,000) */
	bool allow_write;         /* --allow-write[=DIR]: as for `run` */
	const char *write_root;
	char grant[4200];         /* that option's text, for the native lane's program */
} TestOptions;

/* One run: the test module's main (case < 0 in the list order) or a case. */
typedef struct TestRun {
	int func;                 /* HIR function index in the test module */
	const char *id;
	const char *name;
	InterpResult r;
	bool passed;
	InterpResult nr, wr;      /* the native and Wasm lanes' outcomes */
	char *ndetail, *wdetail;  /* … their contract detail lines, or NULL */
	char *rdetail;            /* r's detail lines when r is one of those lanes' */
	bool disagree;            /* --lane all: the lanes' outcomes differ */
	const Sema *S;            /* the test module's checked program, … */
	uint32_t at;              /* … and where the function's header starts */
} TestRun;

static int
parse_options(int argc, char **argv, TestOptions *o)
{
	bool have_steps = false, have_bytes = false, have_timeout = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--json") == 0) {
			if (o->json)
				return cli_usage("test", "--json given twice");
			o->json = true;
		} else if (strcmp(a, "--max-steps") == 0) {
			if (have_steps)
				return cli_usage("test", "--max-steps given twice");
			if (i + 1 >= argc || !cli_parse_positive(argv[i + 1], &o->max_steps))
				return cli_usage("test", "--max-steps takes a positive integer");
			have_steps = true;
			i++;
		} else if (strcmp(a, "--max-bytes") == 0) {
			if (have_bytes)
				return cli_usage("test", "--max-bytes given twice");
			if (i + 1 >= argc || !cli_parse_positive(argv[i + 1], &o->max_bytes))
				return cli_usage("test", "--max-bytes takes a positive integer");
			have_bytes = true;
			i++;
		} else if (strcmp(a, "--lane") == 0 || strcmp(a, "--target") == 0) {
			if (i + 1 >= argc)
				return cli_usage("test", "%s takes a lane: interp, native, wasm or all", a);
			if (o->lanes)
				return cli_usage("test", "--lane given twice");
			const char *l = argv[++i];
			o->lanes = strcmp(l, "interp") == 0 || strcmp(l, "interpreter") == 0 ? LANE_INTERP : strcmp(l, "native") == 0 ? LANE_NATIVE
			    : strcmp(l, "wasm") == 0 ? LANE_WASM : strcmp(l, "all") == 0 ? LANE_ALL : 0;
			if (!o->lanes)
				return cli_usage("test", "unknown lane `%s`; the lanes are interp (the default), native, wasm and all", l);
		} else if (strcmp(a, "--native-timeout-ms") == 0) {
			if (have_timeout)
				return cli_usage("test", "--native-timeout-ms given twice");
			if (i + 1 >= argc || !cli_parse_positive(argv[i + 1], &o->native_timeout_ms))
				return cli_usage("test", "--native-timeout-ms takes a positive integer");
			have_timeout = true;
			i++;
		} else if (strncmp(a, "--allow-write", 13) == 0 && (a[13] == '\0' || a[13] == '=')) {
			if (o->allow_write)
				return cli_usage("test", "--allow-write given twice");
			o->allow_write = true;
			snprintf(o->grant, sizeof o->grant, "%s", a);
			if (a[13] == '=') {
				o->write_root = a + 14;
				if (!rt_fs_root_valid(o->write_root))
					return cli_write_root_refused("test", o->write_root);
			}
		} else if (strcmp(a, "--manifest-path") == 0) {
			if (o->manifest_path)
				return cli_usage("test", "test option `--manifest-path` may not be repeated");
			if (i + 1 >= argc)
				return cli_usage("test", "test option `--manifest-path` takes the manifest's path");
			o->manifest_path = argv[++i];
		} else if (strcmp(a, "--") == 0) {
			/* a case is a function of no inputs: its result may not depend on the command line */
			return cli_usage("test", "test passes no arguments after `--`: each case is a function of no inputs "
						 "(run the program with `semaprax run <project> -- <arg>...`)");
		} else if (a[0] == '-' && a[1]) {
			return cli_unknown_option("test", a, TEST_GRAMMAR);
		} else if (!o->path) {
			o->path = a;
		} else {
			return cli_usage("test", TEST_GRAMMAR);
		}
	}
	if (o->path && o->manifest_path)
		return cli_usage("test", "give a project directory or --manifest-path, not both");
	if (!o->lanes)
		o->lanes = LANE_INTERP;
	if (o->json && o->lanes == LANE_ALL)
		return cli_usage("test", "--json reports one lane: `--lane interp` (the default), `native` or `wasm`");
	return EXIT_OK;
}

/* Why a `test_` function is not a case, or NULL when it is one. */
static const char *
not_a_case(const Sym *y)
{
	if (y->nparams > 0)
		return "a case takes no parameters";
	if (y->ntparams > 0)
		return "a case has no type parameters";
	if (y->result != T_I64)
		return "a case returns `i64`";
	if (!y->explicit_id)
		return "a case has an explicit `@id`";
	return NULL;
}

/* Where function i of H is written: its `fn` (the name without a tree). */
static uint32_t
header_at(const HirModule *H, int i)
{
	const HirFunc *f = &H->funcs[i];
	const Sym *y = f->sym >= 0 ? &H->S->syms.items[f->sym] : NULL;
	if (!y)
		return 0;
	return y->decl && y->decl->kind == DECL_FN ? y->decl->u.fn.header.start : y->name_span.start;
}

static int
by_id(const void *a, const void *b)
{
	return strcmp(((const TestRun *)a)->id, ((const TestRun *)b)->id);
}

/* The module of pj whose checked program is S, or NULL. */
static Session *
module_of(const Project *pj, const Sema *S)
{
	for (int m = 0; S && m < pj->P.nmods; m++)
		if (pj->P.mods[m]->s.S == S)
			return &pj->P.mods[m]->s;
	return NULL;
}

/* The longest a place line quotes of its source line (then `…`). */
enum { AT_QUOTE_MAX = 120 };

void
cli_project_at_line(Buf *b, const Project *pj, const Sema *S, uint32_t at)
{
	Session *s = module_of(pj, S);
	if (!s || !s->src || at > s->len)
		return;
	uint32_t line, col;
	diag_locate(&s->diags, at, &line, &col);
	buf_puts(b, "  at ");
	const char *path = project_spelled_path(pj, s->diags.path);
	diag_put_visible(b, path, strlen(path));
	buf_printf(b, ":%u:%u:", line, col);
	/* the source line from the place on, trimmed (a clause, a header) */
	const char *p = s->src + at, *e = s->src + s->len;
	const char *nl = memchr(p, '\n', (size_t)(e - p));
	size_t n = (size_t)((nl ? nl : e) - p);
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '\r' || p[n - 1] == '{'))
		n--;
	bool cut = n > AT_QUOTE_MAX;
	if (cut) {
		n = AT_QUOTE_MAX;
		while (n && ((unsigned char)p[n] & 0xC0) == 0x80)
			n--;   /* not inside a character */
	}
	if (n) {
		buf_putc(b, ' ');
		diag_put_visible(b, p, n);
		if (cut)
			buf_puts(b, "…");
	}
	buf_putc(b, '\n');
}

void
cli_project_at_json(Buf *b, const Project *pj, const Sema *S, uint32_t at)
{
	Session *s = module_of(pj, S);
	if (!s || !s->src || at > s->len)
		return;
	uint32_t line, col;
	diag_locate(&s->diags, at, &line, &col);
	buf_puts(b, "{\"path\":");
	json_cstr(b, project_spelled_path(pj, s->diags.path));
	buf_printf(b, ",\"line\":%u,\"column\":%u}", line, col);
}

/* The two contract detail lines of an interpreter failure (LANGUAGE.md §4.7). */
static void
detail_lines(Buf *b, const InterpFailure *fl)
{
	buf_printf(b, "  contract: %s ", fl->phase);
	diag_put_visible(b, fl->clause, strlen(fl->clause));   /* as the compiled lanes show it (hir_contract_head) */
	buf_puts(b, " in ");
	diag_put_visible(b, fl->function, strlen(fl->function));
	buf_puts(b, "\n  arguments: ");
	for (int i = 0; i < fl->nargs; i++)
		buf_printf(b, "%s%s = %s", i ? ", " : "", fl->args[i].name, fl->args[i].value);
	buf_puts(b, fl->nargs ? "\n" : "none\n");
}

/* A stable id as a line of this report shows it: control bytes as \xNN (a
 * newline in an id forged a report line; an escape reached the terminal). */
static const char *
shown(Buf *b, const char *id)
{
	b->len = 0;
	diag_put_visible(b, id, strlen(id));
	buf_putc(b, '\0');
	return b->data;
}

/* A compiled lane's detail lines (as its program printed them) in the form
 * detail_lines gives the interpreter's: each line's control bytes shown
 * \xNN.  Raw, a stable id's escape sequence reached the terminal, and the
 * lanes were reported to disagree where only the rendering differed. */
static void
detail_visible(char **detail)
{
	if (!*detail)
		return;
	Buf b = {0};
	for (const char *s = *detail;;) {
		const char *nl = strchr(s, '\n');
		diag_put_visible(&b, s, nl ? (size_t)(nl - s) : strlen(s));
		if (!nl)
			break;
		buf_putc(&b, '\n');
		s = nl + 1;
	}
	free(*detail);
	*detail = buf_take(&b);
}

/* A run's outcome in one lane: the interpreter's (detail NULL) or the
 * native lane's (its detail lines as the program printed them). */
static void
outcome_of(FILE *f, const char *raw_id, const InterpResult *r, const char *detail, const char *stop_label, const char *at)
{
	Buf idb = {0};
	const char *id = shown(&idb, raw_id);
	switch (r->stop) {
	case STOP_NONE:
		fprintf(f, "failed %s: returned %" PRId64 "\n", id, r->value);
		break;
	case STOP_STATUS: {
		Buf b = {0};
		cli_status_json(&b, r);
		fprintf(f, "failed %s: language status %s\n", id, b.data);
		buf_free(&b);
		if (r->failure.present) {
			Buf d = {0};
			detail_lines(&d, &r->failure);
			fputs(d.data, f);
			buf_free(&d);
		} else if (detail) {
			fputs(detail, f);
		}
		break;
	}
	case STOP_FUEL:
		fprintf(f, "failed %s: step budget exhausted\n", id);
		break;
	case STOP_DEPTH:
		fprintf(f, "failed %s: call-depth bound exceeded\n", id);
		break;
	default:
		fprintf(f, "failed %s: %s: %s\n", id, stop_label, r->message);
		break;
	}
	if (at)
		fputs(at, f);
	buf_free(&idb);
}

/* A compiled lane's contract failure: its first detail line `  contract:
 * <phase> <clause> in <id>` names the clause; the function (or record) of
 * that identity whose clause of that phase has that text gives its place.
 * False when none does (an id shown with \xNN escapes, a clause shown by
 * its expression id). */
static bool
detail_place(const Project *pj, const char *detail, const Sema **S, uint32_t *at)
{
	static const char head[] = "  contract: ";
	if (!detail || strncmp(detail, head, sizeof head - 1) != 0)
		return false;
	const char *p = detail + sizeof head - 1, *nl = strchr(p, '\n');
	char *line = spx_xstrndup(p, nl ? (size_t)(nl - p) : strlen(p));
	bool ens = strncmp(line, "ensures ", 8) == 0, found = false;
	char *in = NULL;
	for (char *q = strstr(line, " in "); q; q = strstr(q + 1, " in "))
		in = q;   /* the last: a clause may hold ` in ` in a string */
	if ((ens || strncmp(line, "requires ", 9) == 0) && in) {
		*in = '\0';
		const char *clause = line + (ens ? 8 : 9), *id = in + 4;
		for (int m = 0; !found && m < pj->P.nmods; m++) {
			const HirModule *H = pj->P.mods[m]->s.H;
			for (int k = 0; H && !found && k < H->nfuncs; k++) {
				const HirFunc *f = &H->funcs[k];
				if (!f->report_id || strcmp(f->report_id, id) != 0 || !f->clauses)
					continue;
				for (int i = 0, seen = 0; !found && i < f->nrequires + f->nensures; i++) {
					if ((f->clauses[i].kind == CLAUSE_ENSURES) != ens)
						continue;
					char *text = hir_clause_text(H->S, f, seen++, ens);
					Buf vis = {0};   /* the clause as the lane shows it: control bytes as \xNN */
					diag_put_visible(&vis, text, strlen(text));
					buf_putc(&vis, '\0');
					bool same = strcmp(vis.data, clause) == 0;
					buf_free(&vis);
					if (same) {
						*S = H->S;
						*at = f->clauses[i].span.start;
						found = true;
					}
					free(text);
				}
			}
		}
	}
	free(line);
	return found;
}

/* Where run t failed, as its `  at …` line: a contract's clause (the
 * interpreter records it; a compiled lane's detail names it), else the
 * case's (or main's) header. */
static void
failed_at(Buf *b, const Project *pj, const TestRun *t)
{
	const InterpFailure *fl = &t->r.failure;
	const Sema *S = NULL;
	uint32_t at = 0;
	if (t->r.stop == STOP_STATUS && fl->present && fl->where)
		cli_project_at_line(b, pj, fl->where, fl->at);
	else if (t->r.stop == STOP_STATUS && !fl->present && detail_place(pj, t->rdetail, &S, &at))
		cli_project_at_line(b, pj, S, at);
	else
		cli_project_at_line(b, pj, t->S, t->at);
}

/* stop_label names a stop outside §2.3's list: "interpreter limit", or the
 * compiled lane whose budget or exit it was. */
static void
outcome_line(FILE *f, const Project *pj, const TestRun *t, const char *stop_label)
{
	Buf at = {0};
	failed_at(&at, pj, t);
	outcome_of(f, t->id, &t->r, t->rdetail, stop_label, at.data);
	buf_free(&at);
}

/* A short lane-neutral rendering of an outcome (the disagreement line). */
static void
brief(Buf *b, const InterpResult *r)
{
	switch (r->stop) {
	case STOP_NONE: buf_printf(b, "returned %" PRId64, r->value); break;
	case STOP_STATUS: buf_printf(b, "status %s/%" PRIu32, interp_domain_id(r->domain), r->code); break;
	case STOP_FUEL: buf_puts(b, "step budget exhausted"); break;
	case STOP_DEPTH: buf_puts(b, "call-depth bound exceeded"); break;
	default: buf_puts(b, r->message); break;
	}
}

/* Do the interpreter's and the native lane's outcomes of t agree?  A stop
 * of the interpreter's own budget (steps, an interpreter limit) has no
 * native counterpart and is not compared. */
static bool
lanes_agree(const TestRun *t, const InterpResult *b, const char *bdetail)
{
	const InterpResult *a = &t->r;
	if (a->stop == STOP_FUEL || a->stop == STOP_LIMIT)
		return true;
	if (a->stop != b->stop)
		return false;
	if (a->stop == STOP_NONE)
		return a->value == b->value;
	if (a->stop != STOP_STATUS)
		return true;
	if (a->domain != b->domain || a->code != b->code)
		return false;
	if (!a->failure.present)
		return true;
	Buf d = {0};
	detail_lines(&d, &a->failure);
	bool same = bdetail && strcmp(d.data, bdetail) == 0;
	buf_free(&d);
	return same;
}

static void
run_json(Buf *b, const Project *pj, const TestRun *t, uint64_t max_steps)
{
	buf_puts(b, "{\"stable_id\":");
	json_cstr(b, t->id);
	buf_puts(b, ",\"name\":");
	json_cstr(b, t->name);
	buf_printf(b, ",\"fuel\":{\"steps_used\":%" PRIu64 ",\"max_steps\":%" PRIu64 "},\"outcome\":", t->r.steps, max_steps);
	if (t->r.stop == STOP_LIMIT) {
		buf_puts(b, "{\"kind\":\"interpreter_limit\",\"message\":");
		json_cstr(b, t->r.message);
		buf_putc(b, '}');
	} else {
		cli_outcome_json(b, &t->r);
	}
	buf_printf(b, ",\"passed\":%s", t->passed ? "true" : "false");
	/* ours, after the reference's keys: where the function is written, and
	 * where a contract failed */
	Buf at = {0};
	cli_project_at_json(&at, pj, t->S, t->at);
	if (at.len)
		buf_printf(b, ",\"location\":%s", at.data);
	const InterpFailure *fl = &t->r.failure;
	const Sema *S = NULL;
	uint32_t where = 0;
	if (t->r.stop == STOP_STATUS && fl->present && fl->where) {
		S = fl->where;
		where = fl->at;
	} else if (t->r.stop == STOP_STATUS && !fl->present && !detail_place(pj, t->rdetail, &S, &where)) {
		S = NULL;
	}
	if (S) {
		at.len = 0;
		cli_project_at_json(&at, pj, S, where);
		if (at.len)
			buf_printf(b, ",\"failure_location\":%s", at.data);
	}
	buf_free(&at);
	buf_putc(b, '}');
}

#define DOMAIN_LIT(s) s, sizeof s

/* Wraps payload p in the `semaprax.project-execution.v1` envelope (digest,
 * bytes, payload) and prints it; false (after F104 naming `what`) when it
 * exceeds max_bytes. */
static bool
print_envelope(const Project *pj, const Buf *p, uint64_t max_bytes, const char *what)
{
	char digest[72];
	cli_domain_digest(digest, DOMAIN_LIT("semaprax.project-execution.payload.v1"), p->data, p->len);
	Buf env = {0};
	buf_printf(&env, "{\"schema\":\"semaprax.project-execution.v1\",\"digest\":\"%s\",\"bytes\":%zu,\"payload\":%s}", digest, p->len, p->data);
	bool ok = env.len <= max_bytes;
	if (ok) {
		fwrite(env.data, 1, env.len, stdout);
		putchar('\n');
	} else {
		DiagSink s;
		diag_init(&s, pj->manifest_path, NULL, 0);
		Diag *d = diag_report(&s, DIAG_F104, NULL, "project %s envelope is %zu bytes, over the max-bytes budget of %" PRIu64 "; refusing to truncate",
		    what, env.len, max_bytes);
		diag_set_help(d, "raise `--max-bytes`");
		diag_emit_all(&s, true);
		diag_free(&s);
	}
	buf_free(&env);
	return ok;
}

/* The payload's common head: schema, role, project, lane, module. */
static void
payload_head(Buf *p, const Project *pj, const char *role, const char *lane, const char *module)
{
	buf_printf(p, "{\"schema\":\"semaprax.project-execution.v1\",\"role\":\"%s\",\"project\":{\"name\":", role);
	json_cstr(p, pj->man.name);
	buf_puts(p, ",\"revision\":");
	json_cstr(p, pj->P.revision);
	buf_printf(p, "},\"lane\":\"%s\",\"module\":", lane);
	json_cstr(p, module);
}

bool
cli_project_run_envelope(const Project *pj, const HirFunc *entry, Route route, const InterpResult *r, uint64_t max_steps, uint64_t max_bytes)
{
	Buf p = {0};
	payload_head(&p, pj, "entry", "interpreter", pj->man.entry);
	buf_puts(&p, ",\"function\":{\"stable_id\":");
	json_cstr(&p, entry->id);
	buf_puts(&p, ",\"name\":");
	json_cstr(&p, entry->name);
	buf_printf(&p, "},\"fuel\":{\"steps_used\":%" PRIu64 ",\"max_steps\":%" PRIu64 "},\"outcome\":", r->steps, max_steps);
	if (r->stop == STOP_LIMIT) {
		buf_puts(&p, "{\"kind\":\"interpreter_limit\",\"message\":");
		json_cstr(&p, r->message);
		buf_putc(&p, '}');
	} else {
		cli_outcome_json(&p, r);
	}
	/* a hosted route's staged output, as a file's single-file-run/-command envelopes */
	if (route != ROUTE_PURE) {
		buf_puts(&p, ",\"stdout\":");
		cli_bytes_json(&p, &r->out);
	}
	if (route == ROUTE_COMMAND) {
		buf_puts(&p, ",\"stderr\":");
		cli_bytes_json(&p, &r->err);
	}
	buf_putc(&p, '}');
	bool ok = print_envelope(pj, &p, max_bytes, "run");
	buf_free(&p);
	return ok;
}

/* Prints the envelope; false (after F104) when it exceeds max_bytes. */
static bool
envelope(const Project *pj, const TestRun *runs, int nruns, int failed, const char **notes, int nnotes, const TestOptions *to)
{
	uint64_t max_steps = to->max_steps;
	Buf p = {0};
	payload_head(&p, pj, "test", to->lanes == LANE_NATIVE ? "native" : to->lanes == LANE_WASM ? "wasm" : "interpreter", pj->man.test_module);
	buf_puts(&p, ",\"main\":");
	run_json(&p, pj, &runs[0], max_steps);
	buf_puts(&p, ",\"cases\":[");
	for (int i = 1; i < nruns; i++) {
		if (i > 1)
			buf_putc(&p, ',');
		run_json(&p, pj, &runs[i], max_steps);
	}
	buf_puts(&p, "],\"not_cases\":[");
	for (int i = 0; i < nnotes; i += 2) {
		buf_puts(&p, i ? ",{\"name\":" : "{\"name\":");
		json_cstr(&p, notes[i]);
		buf_puts(&p, ",\"rule\":");
		json_cstr(&p, notes[i + 1]);
		buf_putc(&p, '}');
	}
	buf_printf(&p, "],\"summary\":{\"passed\":%d,\"failed\":%d,\"total\":%d}}", nruns - failed, failed, nruns);
	bool ok = print_envelope(pj, &p, to->max_bytes, "test");
	buf_free(&p);
	return ok;
}

static int
test_project(const char *manifest, const TestOptions *to)
{
	Project pj;
	InterpOptions o = {0};
	/* the grants of `run`: the union of the modules' permits; tests write
	 * only with --allow-write too (F120) */
	bool ok = project_check(&pj, manifest) && project_lower(&pj) && cli_project_admit(&pj, &o.host) &&
		  driver_grant_write(&o.host, to->allow_write, to->write_root, &pj.diags);
	ModuleId tm = ok ? driver_program_find(&pj.P, pj.man.test_module) : DRIVER_NO_MODULE;
	HirModule *H = tm != DRIVER_NO_MODULE ? pj.P.mods[tm]->s.H : NULL;
	int status = EXIT_FAIL;
	int mainf = H ? hir_find_main(H) : -1;
	if (!ok || mainf < 0) {
		project_emit_diags(&pj, to->json);
		project_free(&pj);
		return status;
	}
	o.max_steps = to->max_steps;
	/* runs[0] is main; then the cases by stable id */
	TestRun *runs = spx_xcalloc((size_t)H->nfuncs + 1, sizeof *runs);
	const char **notes = spx_xmalloc(sizeof *notes * (size_t)(2 * H->nfuncs + 1));
	int nruns = 1, nnotes = 0;
	runs[0].func = mainf;
	runs[0].id = H->funcs[mainf].id;
	runs[0].name = H->funcs[mainf].name;
	runs[0].S = H->S;
	runs[0].at = header_at(H, mainf);
	for (int i = 0; i < H->nfuncs; i++) {
		const HirFunc *f = &H->funcs[i];
		if (f->sym < 0 || strncmp(f->name, "test_", 5) != 0)
			continue;
		const Sym *y = &H->S->syms.items[f->sym];
		if (y->kind != SK_FN)
			continue;
		const char *why = not_a_case(y);
		if (why) {
			notes[nnotes++] = f->name;
			notes[nnotes++] = why;
			continue;
		}
		runs[nruns].func = i;
		runs[nruns].id = f->id;
		runs[nruns].name = f->name;
		runs[nruns].S = H->S;
		runs[nruns].at = header_at(H, i);
		nruns++;
	}
	qsort(runs + 1, (size_t)(nruns - 1), sizeof *runs, by_id);
	HirModule **mods = spx_xmalloc(sizeof *mods * (size_t)pj.P.nmods);
	for (int i = 0; i < pj.P.nmods; i++)
		mods[i] = pj.P.mods[i]->s.H;
	int lanes = to->lanes;
	bool tty = !to->json && isatty(STDERR_FILENO);
	char dir[4096] = "";
	int failed = 0;
	bool built = true;
	int *funcs = spx_xmalloc(sizeof *funcs * (size_t)nruns);
	for (int i = 0; i < nruns; i++)
		funcs[i] = runs[i].func;
	/* the native lane: one program, each run a fresh process */
	if (lanes & LANE_NATIVE)
		built = cli_project_native_compile(&pj, &o.host, tm, funcs, nruns, true, true, dir);
	/* the Wasm lane: one module per run (its `main` export runs that entry);
	 * a refusal (W110) alone fails, beside `--lane all` it is a note */
	int n = pj.P.nmods;
	DiagSink *ws = spx_xcalloc((size_t)n, sizeof *ws);
	DiagSink **wp = spx_xcalloc((size_t)n, sizeof *wp);
	for (int k = 0; k < n; k++) {
		Session *ss = &pj.P.mods[k]->s;
		diag_init(&ws[k], ss->diags.path, ss->src, ss->len);
		ws[k].shown = ss->diags.shown;
		wp[k] = &ws[k];
	}
	Buf *wmods = spx_xcalloc((size_t)nruns, sizeof *wmods);
	bool wasm_ok = (lanes & LANE_WASM) != 0 && built;
	for (int i = 0; wasm_ok && i < nruns; i++)
		wasm_ok = cli_project_wasm_module(&pj, &o.host, tm, funcs, nruns, i, true, wp, &wmods[i]);
	char wdir[4096] = "";
	if (wasm_ok) {
		const char *tmpd = getenv("TMPDIR");
		snprintf(wdir, sizeof wdir, "%s/semaprax-test-XXXXXX", tmpd && *tmpd ? tmpd : "/tmp");
		if (!mkdtemp(wdir)) {
			wdir[0] = '\0';
			wasm_ok = false;
		}
	}
	Buf wnote = {0};
	if ((lanes & LANE_WASM) && !wasm_ok && built) {
		for (int k = 0; k < n && !wnote.len; k++)
			for (int j = 0; j < ws[k].items.len && !wnote.len; j++) {
				const Diag *d = &ws[k].items.items[j];
				if (d->line)
					buf_printf(&wnote, "; the Wasm lane refused the project (%s at %s:%u: %s)", diag_info[d->code].code, diag_shown_path(&ws[k]), d->line,
					    d->message);
				else   /* a refusal of the whole project (its route) */
					buf_printf(&wnote, "; the Wasm lane refused the project (%s: %s)", diag_info[d->code].code, d->message);
			}
		if (!wnote.len)
			buf_puts(&wnote, "; the Wasm lane could not run");
	}
	free(funcs);
	project_emit_diags(&pj, to->json);
	if (lanes == LANE_WASM && !wasm_ok)
		for (int k = 0; k < n; k++)
			diag_emit_all(&ws[k], to->json);
	for (int k = 0; k < n; k++)
		diag_free(&ws[k]);
	free(ws);
	free(wp);
	if ((lanes == LANE_WASM && !wasm_ok) || !built)
		goto lanes_done;
	for (int i = 0; i < nruns; i++) {
		bool run_ok = true;
		if (lanes & LANE_INTERP) {
			interp_run_image_func(mods, pj.P.nmods, (int)tm, runs[i].func, &o, &runs[i].r);
			run_ok = runs[i].r.stop == STOP_NONE && runs[i].r.value == 0;
		}
		if (lanes & LANE_NATIVE) {
			cli_project_native_case(dir, o.host.fs_write ? to->grant : NULL, i, to->native_timeout_ms, &runs[i].nr, &runs[i].ndetail);
			detail_visible(&runs[i].ndetail);
			if (lanes & LANE_INTERP)
				runs[i].disagree |= !lanes_agree(&runs[i], &runs[i].nr, runs[i].ndetail);
		}
		if (wasm_ok) {
			cli_project_wasm_case(wdir, &wmods[i], o.host.fs_write ? to->grant : NULL, to->native_timeout_ms, &runs[i].wr,
					      &runs[i].wdetail);
			detail_visible(&runs[i].wdetail);
			if (lanes & LANE_INTERP)
				runs[i].disagree |= !lanes_agree(&runs[i], &runs[i].wr, runs[i].wdetail);
		}
		/* one compiled lane alone: its outcome is the report's */
		if (!(lanes & LANE_INTERP)) {
			InterpResult *x = lanes == LANE_NATIVE ? &runs[i].nr : &runs[i].wr;
			char **xd = lanes == LANE_NATIVE ? &runs[i].ndetail : &runs[i].wdetail;
			runs[i].r = *x;
			memset(x, 0, sizeof *x);
			runs[i].rdetail = *xd;
			*xd = NULL;
			run_ok = runs[i].r.stop == STOP_NONE && runs[i].r.value == 0;
		}
		runs[i].passed = run_ok && !runs[i].disagree;
		failed += !runs[i].passed;
		/* on a terminal, a progress line per run (never in snapshots) */
		if (tty)
		{
			Buf idb = {0};
			fprintf(stderr, "test %s ... %s\n", shown(&idb, runs[i].id), runs[i].passed ? "ok" : runs[i].disagree ? "LANES DISAGREE" : "FAILED");
			buf_free(&idb);
		}
	}
	const char *lane_names = lanes == LANE_NATIVE ? " (native lane)" : lanes == LANE_WASM ? " (Wasm lane)"
	    : wasm_ok ? " (interpreter, native and Wasm lanes)" : " (interpreter and native lanes)";
	if (to->json) {
		if (!envelope(&pj, runs, nruns, failed, notes, nnotes, to))
			failed = nruns ? nruns : 1;
	} else {
		FILE *f = failed ? stderr : stdout;
		for (int i = 0; i < nnotes; i += 2)
			fprintf(f, "note: `%s` is not a test case: %s\n", notes[i], notes[i + 1]);
		if (!failed) {
			if (nruns == 1)
				fputs("project tests passed\n", stdout);
			else
				printf("project tests passed (%d named cases)\n", nruns - 1);
			if (lanes == LANE_ALL)
				printf("note: the %s lanes agree on every run%s\n", wasm_ok ? "interpreter, native and Wasm" : "interpreter and native",
				    wnote.data ? wnote.data : "");
		} else {
			for (int i = 0; i < nruns; i++) {
				if (runs[i].passed)
					continue;
				if (runs[i].disagree) {
					Buf a = {0};
					buf_puts(&a, "interpreter ");
					brief(&a, &runs[i].r);
					buf_puts(&a, "; native ");
					brief(&a, &runs[i].nr);
					if (wasm_ok) {
						buf_puts(&a, "; wasm ");
						brief(&a, &runs[i].wr);
					}
					Buf idb = {0};
					fprintf(stderr, "failed %s: lanes disagree: %s\n", shown(&idb, runs[i].id), a.data);
					buf_free(&idb);
					a.len = 0;
					cli_project_at_line(&a, &pj, runs[i].S, runs[i].at);
					if (a.len)
						fputs(a.data, stderr);
					buf_free(&a);
				} else {
					outcome_line(stderr, &pj, &runs[i], lanes == LANE_NATIVE ? "native lane" : lanes == LANE_WASM ? "Wasm lane" : "interpreter limit");
				}
			}
			fprintf(stderr, "project tests failed: %d of %d in %s%s\n", failed, nruns, pj.man.test_module, lanes == LANE_INTERP ? "" : lane_names);
			fprintf(stderr, "help: a test passes by returning 0; a nonzero return is the failing check's code or count%s\n",
			    nruns == 1 ? "; add `fn test_<name>() -> i64` cases with an explicit `@id` to name each check" : "");
			if (lanes == LANE_ALL && wnote.len)
				fprintf(stderr, "note: the interpreter and native lanes ran every case%s\n", wnote.data);
		}
	}
	status = failed ? EXIT_FAIL : EXIT_OK;
lanes_done:
	for (int i = 0; i < nruns; i++)
		buf_free(&wmods[i]);
	free(wmods);
	buf_free(&wnote);
	if (wdir[0]) {
		cli_project_captures_clean(wdir);
		rmdir(wdir);
	}
	cli_project_captures_clean(dir);
	emitc_native_cleanup(dir);   /* ends the process if we were signalled */
	for (int i = 0; i < nruns; i++) {
		interp_result_free(&runs[i].r);
		interp_result_free(&runs[i].nr);
		interp_result_free(&runs[i].wr);
		free(runs[i].ndetail);
		free(runs[i].wdetail);
		free(runs[i].rdetail);
	}
	free(mods);
	free(notes);
	free(runs);
	project_free(&pj);
	return status;
}

int
cli_cmd_test(int argc, char **argv)
{
	TestOptions to;
	memset(&to, 0, sizeof to);
	to.max_steps = 1000000;
	to.max_bytes = 65536;
	to.native_timeout_ms = 10000;
	int st = parse_options(argc, argv, &to);
	if (st != EXIT_OK)
		return st;
	char *manifest = project_manifest_for(to.path, to.manifest_path);
	if (!manifest)
		return cli_usage("test", "test runs a project's tests; `%s` is not a project directory or semaprax.toml "
		                         "(single files have no test module: use `semaprax run <file>`)", to.path);
	st = test_project(manifest, &to);
	free(manifest);
	fflush(stdout);
	return st;
}
