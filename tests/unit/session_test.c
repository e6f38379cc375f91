/*
 * session_test.c — two driver Sessions (src/driver/session.h) for two
 * different programs, their steps interleaved (parse A, parse B, check A,
 * check B, revision A, revision B, lower A, lower B, run A, run B through
 * the interpreter), each compared with a run of its program alone: the
 * revision text, every diagnostic as rendered, main's value, the stop
 * kind and the staged output must be the same bytes.  A Session keeps
 * nothing in global or static mutable state, so the order of the steps
 * cannot matter.  Run under ASan by `make test-sanitize` (every owner
 * released once).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/driver/route.h"
#include "../../src/driver/session.h"
#include "../../src/interp/interp.h"
#include "unit.h"

/* Pure route, a contract, 49. */
static const char prog_a[] =
	"module unit.session_a;\n"
	"\n"
	"@id(\"app.clamp\")\n"
	"fn clamp(x: i64, hi: i64) -> i64\n"
	"    requires { hi >= 0 }\n"
	"{\n"
	"    if x > hi { hi } else { x }\n"
	"}\n"
	"\n"
	"@id(\"app.main\")\n"
	"fn main() -> i64 {\n"
	"    clamp(50, 42) + clamp(7, 42)\n"
	"}\n";

/* The stdout transcript, a warning (S103 on `greet`), "hello\n" and 18. */
static const char prog_b[] =
	"module unit.session_b;\n"
	"\n"
	"permit { process.stdout.write }\n"
	"\n"
	"fn greet(times: i64) -> i64\n"
	"    uses { process.stdout.write }\n"
	"{\n"
	"    let text = \"hello\\n\";\n"
	"    let view = string_as_str(text);\n"
	"    let written = stdout_write(str_as_bytes(view));\n"
	"    i64_from_usize(written) * times\n"
	"}\n"
	"\n"
	"@id(\"app.main\")\n"
	"fn main() -> i64\n"
	"    uses { process.stdout.write }\n"
	"{\n"
	"    greet(3)\n"
	"}\n";

/* What one program produced, as text, for comparison. */
typedef struct Outcome {
	Buf diags;            /* every diagnostic, rendered in order */
	char revision[72];
	bool ran;
	StopKind stop;
	int64_t value;
	Buf out;              /* staged stdout */
} Outcome;

static void
start(Session *s, const char *name, const char *src)
{
	driver_session_init(s, name);
	driver_set_source(s, src, strlen(src));
}

/* Admits on the session's route and runs main; then renders the diagnostics. */
static void
finish(Session *s, Outcome *o)
{
	memset(o, 0, sizeof *o);
	if (s->H) {
		InterpOptions io = {0};
		io.max_steps = 1000000;
		driver_route(s->S, &io.host);
		if (driver_admit(s->H, &io.host, &s->diags)) {
			InterpResult r = {0};   /* the caller zeroes it (as cmd_run.c) */
			o->ran = interp_run(s->H, &io, &r);
			o->stop = r.stop;
			o->value = r.value;
			buf_put(&o->out, r.out.data ? r.out.data : "", r.out.len);
			interp_result_free(&r);
		}
	}
	memcpy(o->revision, s->revision, sizeof o->revision);
	for (int i = 0; i < s->diags.items.len; i++)
		diag_render_human(&o->diags, &s->diags, &s->diags.items.items[i], false);
}

/* The program alone, every step in order. */
static void
alone(const char *name, const char *src, Outcome *o)
{
	Session s;
	start(&s, name, src);
	driver_parse(&s);
	driver_check(&s);
	driver_revision(&s);
	driver_lower(&s);
	finish(&s, o);
	driver_session_free(&s);
}

static bool
same_buf(const Buf *a, const Buf *b)
{
	return a->len == b->len && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

static void
compare(const char *what, const Outcome *x, const Outcome *y)
{
	char msg[160];
	snprintf(msg, sizeof msg, "session %s: interleaved equals alone", what);
	unit_check(strcmp(x->revision, y->revision) == 0 && same_buf(&x->diags, &y->diags) && x->ran == y->ran &&
	    x->stop == y->stop && x->value == y->value && same_buf(&x->out, &y->out), msg);
}

static void
outcome_free(Outcome *o)
{
	buf_free(&o->diags);
	buf_free(&o->out);
}

/* A source of 256 KiB or more is read through a mapping (MAPFILE_MIN,
 * src/support/mapfile.c): driver_load maps it, parsing gives the pages
 * back, the checker and the lowering read the tree, and freeing the
 * session unmaps it; the smaller file beside it is read into the heap. */
static void
mapped_checks(void)
{
	char path[] = "/tmp/spx-unit-mapped-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0) {
		unit_check(false, "session mapped: a temporary file");
		return;
	}
	FILE *f = fdopen(fd, "w");
	fputs("module unit.mapped;\n\n", f);
	for (int i = 0; i < 4000; i++)
		fprintf(f, "@id(\"unit.mapped.f%d\")\nfn f%d(x: i64) -> i64\n{\n    x + %d\n}\n\n", i, i, i);
	fputs("@id(\"app.main\")\nfn main() -> i64\n{\n    f3999(1) - 4000\n}\n", f);
	long size = ftell(f);
	fclose(f);
	Session s;
	bool ok = driver_load(&s, path, SESSION_VERIFY);
	unit_check(size >= 262144 && ok && s.src_mapped && s.len == (size_t)size && s.H && s.diags.items.len == 0,
	    "session mapped: a 256 KiB source is mapped, verified and lowered");
	driver_session_free(&s);
	f = fopen(path, "w");
	fputs("module unit.small;\n\n@id(\"app.main\")\nfn main() -> i64\n{\n    0\n}\n", f);
	fclose(f);
	ok = driver_load(&s, path, SESSION_VERIFY);
	unit_check(ok && !s.src_mapped, "session mapped: a small source is read, not mapped");
	driver_session_free(&s);
	unlink(path);
}

void
unit_session_checks(void)
{
	mapped_checks();
	Outcome a1, b1, a2, b2;
	alone("a.spx", prog_a, &a1);
	alone("b.spx", prog_b, &b1);

	Session A, B;
	start(&A, "a.spx", prog_a);
	start(&B, "b.spx", prog_b);
	unit_check(driver_parse(&A), "session A parses");
	unit_check(driver_parse(&B), "session B parses");
	unit_check(driver_check(&A), "session A checks");
	unit_check(driver_check(&B), "session B checks (a warning only)");
	driver_revision(&A);
	driver_revision(&B);
	unit_check(driver_lower(&A), "session A lowers and validates");
	unit_check(driver_lower(&B), "session B lowers and validates");
	finish(&A, &a2);
	finish(&B, &b2);
	driver_session_free(&A);
	driver_session_free(&B);

	/* The single runs are what the CLI prints for these programs. */
	unit_check(strcmp(a1.revision, "sha256:1d72e161a537f4bf450c0d809be6c1fb5be06164df5b3121fc32a7a23f7cbcd1") == 0,
	    "session A's revision is `semaprax check`'s");
	unit_check(strcmp(b1.revision, "sha256:ed524118b27a026214d3b4cfd3450cd73c851269823dcaa9140108ae58194152") == 0,
	    "session B's revision is `semaprax check`'s");
	unit_check(a1.ran && a1.stop == STOP_NONE && a1.value == 49 && a1.out.len == 0 && a1.diags.len == 0,
	    "session A alone: 49, silent, no diagnostic");
	unit_check(b1.ran && b1.stop == STOP_NONE && b1.value == 18 && b1.out.len == 6 &&
	    memcmp(b1.out.data, "hello\n", 6) == 0 && b1.diags.data && strstr(b1.diags.data, "warning[SPX-S103]") &&
	    strstr(b1.diags.data, "b.spx:5:4"), "session B alone: hello, 18, the S103 warning at b.spx:5:4");
	compare("A", &a2, &a1);
	compare("B", &b2, &b1);
	outcome_free(&a1);
	outcome_free(&b1);
	outcome_free(&a2);
	outcome_free(&b2);
}
