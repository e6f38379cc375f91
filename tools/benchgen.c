/*
 * benchgen.c — deterministic generator of a realistic SEMAPRAX program for
 * the front-end benchmark (`make bench`).
 *
 * Usage: benchgen <lines> [seed] > out.spx
 * Output: a canonically formatted program (LANGUAGE.md §2.1 grammar, §2.3
 * layout) that verifies with zero diagnostics under `semaprax check` (every
 * declaration carries an @id; `fn main() -> i64`), of exactly <lines> lines
 * (for <lines> ≥ 13), on stdout.  The same arguments always produce the same bytes.
 *
 * Key choice: the program is built from "units".  Unit k contributes a few
 * type declarations (records, a record with an invariant, a variant with
 * payload and payload-free cases, a class with methods, a generic record)
 * and a set of functions using them (matches, while/for loops, statement
 * ifs, strings with escapes, generics, closures, Option/Result with `?`,
 * contracts, effects, comments).  Every type goes before every function, as
 * in hand-written canonical code.  Units are added while they fit; small
 * filler functions and comment lines then make the line count exact.  A
 * private xorshift PRNG (not rand()) keeps the output identical everywhere.
 * Names and ids carry the unit number, so the program has no duplicates.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ==== output buffer with a line count ===================================== */

typedef struct Out {
	char *data;
	size_t len, cap;
	long lines;      /* number of '\n' in data */
} Out;

static void
out_reserve(Out *o, size_t extra)
{
	if (o->len + extra + 1 <= o->cap)
		return;
	size_t cap = o->cap ? o->cap : 4096;
	while (cap < o->len + extra + 1)
		cap *= 2;
	o->data = realloc(o->data, cap);
	if (!o->data) {
		fprintf(stderr, "benchgen: out of memory\n");
		exit(1);
	}
	o->cap = cap;
}

static void
out_append(Out *o, const char *s, size_t n)
{
	out_reserve(o, n);
	memcpy(o->data + o->len, s, n);
	o->len += n;
	o->data[o->len] = '\0';
	for (size_t i = 0; i < n; i++)
		o->lines += s[i] == '\n';
}

/* Appends one formatted emitc_line (a '\n' is added). */
static void __attribute__((format(printf, 2, 3)))
emitc_line(Out *o, const char *fmt, ...)
{
	char tmp[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof tmp - 1) {
		fprintf(stderr, "benchgen: line too long\n");
		exit(1);
	}
	tmp[n++] = '\n';
	out_append(o, tmp, (size_t)n);
}

static void
blank(Out *o)
{
	out_append(o, "\n", 1);
}

static void
out_reset(Out *o)
{
	o->len = 0;
	o->lines = 0;
	if (o->data)
		o->data[0] = '\0';
}

/* ==== deterministic randomness ============================================ */

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint32_t
rnd(uint32_t n)
{
	uint64_t x = rng_state;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	rng_state = x;
	return (uint32_t)((x >> 11) % n);
}

static int
chance(uint32_t percent)
{
	return rnd(100) < percent;
}

static const char *const comments[] = {
	"Keeps the arithmetic in range for the benchmark inputs.",
	"The fast path handles the common case first.",
	"Invariant: the accumulator never goes negative.",
	"Mirrors the reference behaviour for empty inputs.",
	"TODO: revisit once the checker learns about ranges.",
	"Weights were tuned by hand; see the design notes.",
	"Small helper so the call sites stay readable.",
	"Rectangles dominate real workloads, so they come first.",
};

static const char *
comment(void)
{
	return comments[rnd((uint32_t)(sizeof comments / sizeof comments[0]))];
}

/* ==== type declarations of one unit ======================================= */

static void
gen_point(Out *o, int k)
{
	blank(o);
	emitc_line(o, "@id(\"bench.u%d.point\")", k);
	emitc_line(o, "record Point%d {", k);
	emitc_line(o, "    @id(\"bench.u%d.point.x\")", k);
	emitc_line(o, "    x: i64,");
	emitc_line(o, "    @id(\"bench.u%d.point.y\")", k);
	emitc_line(o, "    y: i64,");
	emitc_line(o, "    @id(\"bench.u%d.point.weight\")", k);
	emitc_line(o, "    weight: f64,");
	emitc_line(o, "}");
}

static void
gen_span(Out *o, int k)
{
	blank(o);
	emitc_line(o, "@id(\"bench.u%d.span\")", k);
	emitc_line(o, "record Span%d {", k);
	emitc_line(o, "    @id(\"bench.u%d.span.low\")", k);
	emitc_line(o, "    low: i64,");
	emitc_line(o, "    @id(\"bench.u%d.span.high\")", k);
	emitc_line(o, "    high: i64,");
	emitc_line(o, "}");
	emitc_line(o, "    requires low <= high");
	if (chance(50))
		emitc_line(o, "    requires high - low < %u", 1000 + rnd(9000));
}

static void
gen_shape(Out *o, int k)
{
	blank(o);
	if (chance(40))
		emitc_line(o, "// %s", comment());
	emitc_line(o, "@id(\"bench.u%d.shape\")", k);
	emitc_line(o, "variant Shape%d {", k);
	emitc_line(o, "    @id(\"bench.u%d.shape.circle\")", k);
	emitc_line(o, "    Circle {");
	emitc_line(o, "        @id(\"bench.u%d.shape.circle.radius\")", k);
	emitc_line(o, "        radius: i64,");
	emitc_line(o, "    },");
	emitc_line(o, "    @id(\"bench.u%d.shape.rect\")", k);
	emitc_line(o, "    Rect {");
	emitc_line(o, "        @id(\"bench.u%d.shape.rect.width\")", k);
	emitc_line(o, "        width: i64,");
	emitc_line(o, "        @id(\"bench.u%d.shape.rect.height\")", k);
	emitc_line(o, "        height: i64,");
	emitc_line(o, "    },");
	emitc_line(o, "    @id(\"bench.u%d.shape.empty\")", k);
	emitc_line(o, "    Empty,");
	emitc_line(o, "}");
}

static void
gen_counter(Out *o, int k)
{
	blank(o);
	emitc_line(o, "@id(\"bench.u%d.counter\")", k);
	emitc_line(o, "class Counter%d {", k);
	emitc_line(o, "    @id(\"bench.u%d.counter.value\")", k);
	emitc_line(o, "    value: i64,");
	emitc_line(o, "    @id(\"bench.u%d.counter.step\")", k);
	emitc_line(o, "    step: i64,");
	blank(o);
	emitc_line(o, "    @id(\"bench.u%d.counter.get\")", k);
	emitc_line(o, "    fn get(self: Counter%d) -> i64", k);
	emitc_line(o, "{");
	emitc_line(o, "        self.value");
	emitc_line(o, "    }");
	blank(o);
	emitc_line(o, "    @id(\"bench.u%d.counter.advanced\")", k);
	emitc_line(o, "    fn advanced(self: Counter%d, times: i64) -> Counter%d", k, k);
	emitc_line(o, "        requires times >= 0");
	emitc_line(o, "{");
	emitc_line(o, "        let delta = self.step * times;");
	emitc_line(o, "        Counter%d { value: self.value + delta, step: self.step }", k);
	emitc_line(o, "    }");
	emitc_line(o, "}");
}

static void
gen_pair(Out *o, int k)
{
	blank(o);
	emitc_line(o, "@id(\"bench.u%d.pair\")", k);
	emitc_line(o, "record Pair%d<T> {", k);
	emitc_line(o, "    @id(\"bench.u%d.pair.first\")", k);
	emitc_line(o, "    first: T,");
	emitc_line(o, "    @id(\"bench.u%d.pair.second\")", k);
	emitc_line(o, "    second: T,");
	emitc_line(o, "}");
}

static void
gen_types(Out *o, int k)
{
	gen_point(o, k);
	gen_shape(o, k);
	gen_counter(o, k);
	if (k % 2 == 0)
		gen_span(o, k);
	if (k % 3 == 0)
		gen_pair(o, k);
}

/* ==== functions of one unit =============================================== */

/* The header of a top-level function: blank line, comment, @id, fn line. */
static void
fn_head(Out *o, int k, const char *id, const char *sig)
{
	blank(o);
	if (chance(35))
		emitc_line(o, "// %s", comment());
	emitc_line(o, "@id(\"bench.u%d.%s\")", k, id);
	emitc_line(o, "fn %s", sig);
}

static void
gen_area(Out *o, int k)
{
	char sig[256];
	snprintf(sig, sizeof sig, "area%d(shape: Shape%d) -> i64", k, k);
	fn_head(o, k, "area", sig);
	emitc_line(o, "    ensures result >= 0");
	emitc_line(o, "{");
	emitc_line(o, "    match shape { Shape%d::Circle { radius } => radius * radius * %u, "
	     "Shape%d::Rect { width, height } => width * height, Shape%d::Empty {} => 0, }",
	     k, 3 + rnd(4), k, k);
	emitc_line(o, "}");
}

static void
gen_sum_to(Out *o, int k)
{
	char sig[256];
	snprintf(sig, sizeof sig, "sum_to%d(limit: i64) -> i64", k);
	fn_head(o, k, "sum_to", sig);
	emitc_line(o, "    requires limit >= 0");
	emitc_line(o, "    ensures result >= 0");
	emitc_line(o, "{");
	emitc_line(o, "    let mut total = 0;");
	emitc_line(o, "    let mut index = 0;");
	emitc_line(o, "    while index < limit {");
	if (chance(50))
		emitc_line(o, "        // %s", comment());
	uint32_t mul = 1 + rnd(9);  /* one rnd() per statement: argument order is unspecified */
	uint32_t mod = 2 + rnd(30);
	emitc_line(o, "        total = total + index * %u %% %u;", mul, mod);
	emitc_line(o, "        index = index + 1;");
	emitc_line(o, "        0");
	emitc_line(o, "    }");
	emitc_line(o, "    total");
	emitc_line(o, "}");
}

static void
gen_build(Out *o, int k)
{
	char sig[256];
	snprintf(sig, sizeof sig, "build%d(count: i64) -> Vec<i64>", k);
	fn_head(o, k, "build", sig);
	emitc_line(o, "    requires count >= 0 && count <= %u", 64 + rnd(64));
	emitc_line(o, "{");
	emitc_line(o, "    let mut values = vec_with_capacity<i64>(128usize);");
	emitc_line(o, "    let mut i = 0;");
	emitc_line(o, "    while i < count {");
	uint32_t mul = 2 + rnd(9);
	uint32_t add = rnd(100);
	emitc_line(o, "        values = vec_push<i64>(values, i * %u + %u);", mul, add);
	emitc_line(o, "        i = i + 1;");
	emitc_line(o, "        0");
	emitc_line(o, "    }");
	emitc_line(o, "    values");
	emitc_line(o, "}");
}

static void
gen_total(Out *o, int k)
{
	char sig[256];
	snprintf(sig, sizeof sig, "total%d(values: borrow Vec<i64>, floor: i64) -> i64", k);
	fn_head(o, k, "total", sig);
	emitc_line(o, "{");
	emitc_line(o, "    let mut sum = 0;");
	emitc_line(o, "    let mut seen = 0;");
	emitc_line(o, "    for item in values {");
	emitc_line(o, "        if item > floor { sum = sum + item; } else { sum = sum - 1; }");
	emitc_line(o, "        seen = seen + 1;");
	emitc_line(o, "        0");
	emitc_line(o, "    }");
	emitc_line(o, "    if seen == 0 { 0 } else { sum / seen }");
	emitc_line(o, "}");
}

static void
gen_label(Out *o, int k)
{
	char sig[256];
	snprintf(sig, sizeof sig, "label%d(p: Point%d, name: string) -> string", k, k);
	fn_head(o, k, "label", sig);
	emitc_line(o, "{");
	emitc_line(o, "    let prefix = string_concat(name, \": \");");
	emitc_line(o, "    let body = string_format(\"({}, {})\\t\", p.x, p.y);");
	emitc_line(o, "    let quoted = string_concat(\"\\\"unit %d\\\"\\n\", body);", k);
	emitc_line(o, "    string_concat(prefix, quoted)");
	emitc_line(o, "}");
}

static void
gen_generic(Out *o, int k)
{
	char sig[256];
	snprintf(sig, sizeof sig, "pick%d<T>(flag: bool, first: T, second: T) -> T", k);
	fn_head(o, k, "pick", sig);
	emitc_line(o, "{");
	emitc_line(o, "    if flag { first } else { second }");
	emitc_line(o, "}");

	snprintf(sig, sizeof sig, "scaled%d(value: i64, factor: i64) -> i64", k);
	fn_head(o, k, "scaled", sig);
	emitc_line(o, "{");
	emitc_line(o, "    let scale = fn(x: i64) -> i64 { x * factor + %u };", 1 + rnd(9));
	emitc_line(o, "    let chosen = pick%d<i64>(value > 0, value, -value);", k);
	emitc_line(o, "    scale(chosen)");
	emitc_line(o, "}");
}

static void
gen_result(Out *o, int k)
{
	char sig[256];
	snprintf(sig, sizeof sig, "checked%d(a: i64, b: i64) -> Result<i64, string>", k);
	fn_head(o, k, "checked", sig);
	emitc_line(o, "{");
	emitc_line(o, "    if b == 0 { Result<i64, string>::Err { error: \"division by zero\" } } "
	     "else { Result<i64, string>::Ok { value: a / b } }");
	emitc_line(o, "}");

	snprintf(sig, sizeof sig, "chain%d(a: i64, b: i64) -> Result<i64, string>", k);
	fn_head(o, k, "chain", sig);
	emitc_line(o, "{");
	emitc_line(o, "    let quotient = checked%d(a, b)?;", k);
	emitc_line(o, "    let again = checked%d(quotient, %u)?;", k, 1 + rnd(9));
	emitc_line(o, "    Result<i64, string>::Ok { value: again + 1 }");
	emitc_line(o, "}");

	snprintf(sig, sizeof sig, "parse_or%d(text: string, fallback: i64) -> i64", k);
	fn_head(o, k, "parse_or", sig);
	emitc_line(o, "{");
	emitc_line(o, "    match string_to_i64(text) { Option::Some { value } => value, _ => fallback, }");
	emitc_line(o, "}");
}

static void
gen_step(Out *o, int k)
{
	char sig[256];
	snprintf(sig, sizeof sig, "step%d(p: Point%d, c: Counter%d) -> i64", k, k, k);
	fn_head(o, k, "step", sig);
	emitc_line(o, "{");
	emitc_line(o, "    let moved = p with { x: p.x + %u, weight: p.weight * 1.5 };", 1 + rnd(5));
	emitc_line(o, "    let next = c.advanced(%u);", 1 + rnd(5));
	emitc_line(o, "    let ratio = i64_from_f64(moved.weight / 0.25);");
	emitc_line(o, "    moved.x + moved.y * next.get() - ratio");
	emitc_line(o, "}");
}

static void
gen_classify(Out *o, int k)
{
	char sig[256];
	snprintf(sig, sizeof sig, "classify%d(c: char, n: i64) -> i64", k);
	fn_head(o, k, "classify", sig);
	emitc_line(o, "{");
	emitc_line(o, "    let base = match c { 'a' | 'e' | 'i' | 'o' | 'u' => 1, '\\n' => 2, '\\t' => 3, _ => 0, };");
	emitc_line(o, "    let sign = match n { 0 => 0, -1 => -1, x if x < 0 => -2, _ => 1, };");
	emitc_line(o, "    if !(base == 0) && sign > 0 || n %% %u == 0 { base + sign } else { 0 }", 2 + rnd(7));
	emitc_line(o, "}");
}

static void
gen_span_fns(Out *o, int k)
{
	char sig[256];
	snprintf(sig, sizeof sig, "widen%d(s: Span%d, by: i64) -> Span%d", k, k, k);
	fn_head(o, k, "widen", sig);
	emitc_line(o, "    requires by >= 0");
	emitc_line(o, "    ensures result.high - result.low >= s.high - s.low");
	emitc_line(o, "{");
	emitc_line(o, "    Span%d { low: s.low - by, high: s.high + by }", k);
	emitc_line(o, "}");
}

static void
gen_pair_fns(Out *o, int k)
{
	char sig[256];
	snprintf(sig, sizeof sig, "swap%d(p: Pair%d<i64>) -> Pair%d<i64>", k, k, k);
	fn_head(o, k, "swap", sig);
	emitc_line(o, "{");
	emitc_line(o, "    Pair%d<i64> { first: p.second, second: p.first }", k);
	emitc_line(o, "}");
}

static void
gen_tick(Out *o, int k)
{
	char sig[256];
	snprintf(sig, sizeof sig, "tick%d(value: i64) -> i64", k);
	fn_head(o, k, "tick", sig);
	emitc_line(o, "    uses { clock.read }");
	emitc_line(o, "    ensures result == value + 1");
	emitc_line(o, "{");
	emitc_line(o, "    value + 1");
	emitc_line(o, "}");
}

static void
gen_drive(Out *o, int k)
{
	char sig[256];
	snprintf(sig, sizeof sig, "drive%d(n: i64) -> i64", k);
	fn_head(o, k, "drive", sig);
	emitc_line(o, "    requires n >= 0 && n <= 64");
	emitc_line(o, "{");
	emitc_line(o, "    let values = build%d(n);", k);
	emitc_line(o, "    let shape = Shape%d::Rect { width: n, height: %u };", k, 2 + rnd(9));
	emitc_line(o, "    let counter = Counter%d { value: 0, step: %u };", k, 1 + rnd(4));
	uint32_t y = rnd(50), whole = rnd(10), frac = 1 + rnd(9);
	emitc_line(o, "    let point = Point%d { x: n, y: -%u, weight: %u.%u };", k, y, whole, frac);
	emitc_line(o, "    let acc = total%d(values, %u) + area%d(shape) + sum_to%d(n);", k, rnd(20), k, k);
	emitc_line(o, "    acc + step%d(point, counter) + scaled%d(acc, %u)", k, k, 2 + rnd(3));
	emitc_line(o, "}");
}

static void
gen_functions(Out *o, int k)
{
	gen_area(o, k);
	gen_sum_to(o, k);
	gen_build(o, k);
	gen_total(o, k);
	if (chance(70))
		gen_label(o, k);
	gen_generic(o, k);
	if (chance(60))
		gen_result(o, k);
	gen_step(o, k);
	if (chance(60))
		gen_classify(o, k);
	if (k % 2 == 0)
		gen_span_fns(o, k);
	if (k % 3 == 0)
		gen_pair_fns(o, k);
	if (chance(25))
		gen_tick(o, k);
	gen_drive(o, k);
}

/* ==== the program ========================================================== */

/* A filler function: exactly FILLER_LINES lines. */
enum { FILLER_LINES = 6, MAIN_LINES = 8 };

static void
gen_filler(Out *o, long i)
{
	blank(o);
	emitc_line(o, "@id(\"bench.fill.%ld\")", i);
	emitc_line(o, "fn fill%ld(x: i64) -> i64", i);
	emitc_line(o, "{");
	emitc_line(o, "    x * %u + %ld", 1 + rnd(9), i);
	emitc_line(o, "}");
}

/* main, preceded by pad comment lines so the file has the exact length. */
static void
gen_main(Out *o, int units, long pad)
{
	blank(o);
	for (long i = 0; i < pad; i++)
		emitc_line(o, "// %s", comment());
	emitc_line(o, "@id(\"bench.main\")");
	emitc_line(o, "fn main() -> i64");
	emitc_line(o, "    uses { clock.read }");
	emitc_line(o, "{");
	if (units > 0)
		emitc_line(o, "    let outcome = drive0(%d);", 10);
	else
		emitc_line(o, "    let outcome = %d;", 10);
	emitc_line(o, "    outcome %% 100");
	emitc_line(o, "}");
}

int
main(int argc, char **argv)
{
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: benchgen <lines> [seed]\n");
		return 2;
	}
	long target = strtol(argv[1], NULL, 10);
	if (argc == 3)
		rng_state ^= strtoull(argv[2], NULL, 10) * 0x2545f4914f6cdd1du;
	if (rng_state == 0)
		rng_state = 1;

	Out head = {0}, types = {0}, fns = {0}, tail = {0}, ut = {0}, uf = {0};
	emitc_line(&head, "// Generated by tools/benchgen.c for the front-end benchmark.");
	emitc_line(&head, "// Do not edit: regenerate with `benchgen %ld`.", target);
	emitc_line(&head, "module bench.generated;");
	blank(&head);
	emitc_line(&head, "permit { clock.read }");

	int units = 0;
	for (;;) {
		out_reset(&ut);
		out_reset(&uf);
		gen_types(&ut, units);
		gen_functions(&uf, units);
		long total = head.lines + types.lines + fns.lines + ut.lines + uf.lines + MAIN_LINES;
		if (total > target)
			break;
		out_append(&types, ut.data, ut.len);
		out_append(&fns, uf.data, uf.len);
		units++;
	}

	long used = head.lines + types.lines + fns.lines + MAIN_LINES;
	long fill = 0;
	while (used + FILLER_LINES <= target) {
		gen_filler(&tail, fill++);
		used += FILLER_LINES;
	}
	gen_main(&tail, units, target - used);

	fwrite(head.data, 1, head.len, stdout);
	fwrite(types.data, 1, types.len, stdout);
	fwrite(fns.data, 1, fns.len, stdout);
	fwrite(tail.data, 1, tail.len, stdout);
	free(head.data);
	free(types.data);
	free(fns.data);
	free(tail.data);
	free(ut.data);
	free(uf.data);
	return 0;
}
