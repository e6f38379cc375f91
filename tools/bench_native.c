/*
 * bench_native.c — the native lane next to hand-written C (`make
 * bench-native`; issue 5, deliver item 5).
 *
 * Usage: bench_native [--runs N] [--dir DIR] [--examples DIR] [NAME...]
 *
 * For every DIR/NAME.spx (default: all of bench/native/NAME.spx) it does what
 * `semaprax build` does: driver_load (src/driver/session.c: read, parse,
 * sema_check, hir_lower, hir_validate), the route and admission
 * (src/driver/route.c), emit_c, emitc_native_compile.  It links no CLI object.  It times emit_c (best of at
 * least EMIT_MIN_REPS repetitions, repeated for EMIT_MIN_SECONDS; every
 * repetition must produce the same bytes) and emitc_native_compile, i.e. $CC
 * `-std=c11 -O2 -ffp-contract=off` on the emitted unit (best of N).  The
 * twin DIR/NAME.c goes through the same emitc_native_compile, so it is built by
 * the same $CC with the same flags.  Then both executables run N times each,
 * alternating (a load change on a shared machine hits both sides alike),
 * wall clock from spawn to exit; the best run of each is kept.  Both must
 * print the same bytes on every run.
 *
 * Printed: one row per program (native s, C s, ratio, emit ms, cc ms, emit
 * share of cc), the geometric mean of the ratios over the programs the lane
 * builds, then the emission share summed over DIR/NAME.spx and the examples
 * (default examples/NAME.spx): total emit time / total C compiler time.  A
 * program the lane refuses (B110) is a `refused` row with the first
 * diagnostic line; it is left out of the geomean and counted.
 *
 * Exit status: 0; 1 on a real error (a bench program that does not verify,
 * a missing twin, a compiler that cannot be started or rejects a unit, an
 * output mismatch, a program that fails or crashes, non-deterministic
 * emission); 2 on a usage error.
 */
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../src/driver/route.h"
#include "../src/driver/session.h"
#include "../src/emit_c/emit_c.h"
#include "bench_lane.h"

#define TARGET_RATIO 1.05 /* geomean (issue 11 §4) */
#define TARGET_EACH 1.3   /* no program over it */
#define TARGET_SHARE 5.0      /* percent */
#define EMIT_MIN_REPS 25
#define EMIT_MAX_REPS 5000
#define EMIT_MIN_SECONDS 0.2

/* Outcome of emitting and compiling one program. */
typedef enum Built { BUILT_OK, BUILT_REFUSED, BUILT_ERROR } Built;

typedef struct Build {
	double emit_s;    /* best emit_c time */
	double cc_s;      /* best emitc_native_compile time */
	char dir[4096];   /* holds <dir>/program when BUILT_OK; "" otherwise */
	char why[1024];   /* BUILT_REFUSED: the first diagnostic line */
} Build;

/* Sums for the emission-share line. */
typedef struct Share {
	double emit_s, cc_s;
	int built, refused;
} Share;

static int runs = 3;

static char *
read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0, k;
	char *data = spx_xmalloc(cap);
	while ((k = fread(data + n, 1, cap - n - 1, f)) > 0) {
		n += k;
		if (n + 1 == cap)
			data = spx_xrealloc(data, cap *= 2);
	}
	bool bad = ferror(f);
	fclose(f);
	if (bad) {
		free(data);
		return NULL;
	}
	data[n] = '\0';
	*len = n;
	return data;
}

/* The first line of the first error in s, into out. */
/* ---- emission and compilation ---- */

/*
 * emit_c once into c; then best-of time of repeated emissions, each checked
 * byte for byte against c.  BUILT_REFUSED on B110, BUILT_ERROR otherwise.
 */
static Built
time_emit(Session *p, Buf *c, Build *b)
{
	const char *path = p->diags.path;
	DiagSink d;
	diag_init(&d, path, p->src, p->len);
	HirGrants host;
	driver_route(p->H->S, &host);
	EmitOptions eo = { .host = &host };   /* as `build`: direct output */
	/* monomorphisation (src/hir/mono.c) runs once per build: its time counts as emission */
	bool ok = driver_admit(p->H, &host, &d);
	double m0 = lane_now();
	ok = ok && hir_mono(p->H, &d) && hir_validate_mono(p->H, &d);
	double mono_s = lane_now() - m0;
	ok = ok && emit_c(p->H, &eo, c, &d);
	bool refused = !ok && d.items.len > 0 && d.items.items[0].code == DIAG_B110;
	if (!ok) {
		lane_first_error_line(&d, b->why, sizeof b->why);
		if (!refused)
			diag_emit_all(&d, false);
	}
	diag_free(&d);
	if (!ok)
		return refused ? BUILT_REFUSED : BUILT_ERROR;
	b->emit_s = 1e30;
	double start = lane_now();
	for (int r = 0; r < EMIT_MAX_REPS && (r < EMIT_MIN_REPS || lane_now() - start < EMIT_MIN_SECONDS); r++) {
		Buf again = {0};
		diag_init(&d, path, p->src, p->len);
		double t0 = lane_now();
		emit_c(p->H, &eo, &again, &d);
		double t1 = lane_now();
		bool same = again.len == c->len && memcmp(again.data, c->data, c->len) == 0;
		buf_free(&again);
		diag_free(&d);
		if (!same) {
			fprintf(stderr, "bench_native: %s: emit_c is not deterministic\n", path);
			return BUILT_ERROR;
		}
		if (t1 - t0 < b->emit_s)
			b->emit_s = t1 - t0;
	}
	b->emit_s += mono_s;
	return BUILT_OK;
}

/* emitc_native_compile of csrc; false (with the reason printed) unless it built. */
static bool
compile_c(const char *what, const char *csrc, size_t len, char dir[4096])
{
	Buf msg = {0};
	NativeStatus st = emitc_native_compile(csrc, len, dir, &msg);
	if (st != NATIVE_OK) {
		fprintf(stderr, "bench_native: %s: %s\n%s\n", what,
		    st == NATIVE_NO_CC ? "no C compiler" : st == NATIVE_CC_FAILED ? "C compilation failed" : "I/O error",
		    msg.data ? msg.data : "");
		emitc_native_cleanup(dir);
		dir[0] = '\0';
	}
	buf_free(&msg);
	return st == NATIVE_OK;
}

/* Emits and compiles p (best of `runs` compilations); b->dir keeps one build. */
static Built
build_program(Session *p, Build *b)
{
	memset(b, 0, sizeof *b);
	Buf c = {0};
	Built r = time_emit(p, &c, b);
	b->cc_s = 1e30;
	for (int i = 0; i < runs && r == BUILT_OK; i++) {
		char dir[4096];
		double t0 = lane_now();
		bool ok = compile_c(p->diags.path, c.data, c.len, dir);
		double t1 = lane_now();
		if (!ok)
			r = BUILT_ERROR;
		else if (t1 - t0 < b->cc_s)
			b->cc_s = t1 - t0;
		if (ok && !b->dir[0])
			memcpy(b->dir, dir, sizeof dir);
		else if (ok)
			emitc_native_cleanup(dir);
	}
	buf_free(&c);
	if (r != BUILT_OK && b->dir[0]) {
		emitc_native_cleanup(b->dir);
		b->dir[0] = '\0';
	}
	return r;
}

/* ---- running ---- */

/*
 * Runs exe once with stdout captured into out (reset first); returns the
 * wall time, or a negative value after printing why it (`what`) failed.
 */
/* One timed run of exe into *best; its output must equal *ref (set by the first run). */
/*
 * Compiles the twin, then runs the native build and the twin `runs` times
 * each, alternating; outputs must agree.  Times into native_s / c_s; the
 * printed line into result.
 */
static bool
race(const char *name, const Build *b, const char *twin, double *native_s, double *c_s, double *native_cpu,
    double *c_cpu, Buf *result)
{
	size_t len;
	char *csrc = read_file(twin, &len);
	if (!csrc) {
		fprintf(stderr, "bench_native: %s: the C twin %s cannot be read\n", name, twin);
		return false;
	}
	char cdir[4096];
	bool ok = compile_c(twin, csrc, len, cdir);
	free(csrc);
	if (!ok)
		return false;
	char exe[4200], cexe[4200];
	snprintf(exe, sizeof exe, "%s/program", b->dir);
	snprintf(cexe, sizeof cexe, "%s/program", cdir);
	Buf cout = {0};
	char *nargv[] = { exe, NULL }, *cargv[] = { cexe, NULL };
	for (int r = 0; r < runs && ok; r++)
		ok = lane_run_checked("bench_native", name, nargv, native_s, native_cpu, result, r == 0) &&
		     lane_run_checked("bench_native", twin, cargv, c_s, c_cpu, &cout, r == 0);
	if (ok && (cout.len != result->len || memcmp(cout.data, result->data, cout.len) != 0)) {
		fprintf(stderr, "bench_native: %s: MISMATCH: native printed \"%.*s\", C printed \"%.*s\"\n", name,
		    (int)strcspn(result->data, "\n"), result->data, (int)strcspn(cout.data ? cout.data : "", "\n"),
		    cout.data ? cout.data : "");
		ok = false;
	}
	buf_free(&cout);
	emitc_native_cleanup(cdir);
	return ok;
}

/* ---- one benchmark program ---- */

/* Benchmarks DIR/NAME.spx (path); adds its log ratio to *logsum when it built. */
static bool
bench_one(const char *path, double *logsum, double *cpu_logsum, int *nratios, Share *share)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	int nlen = (int)strcspn(base, ".");
	Session p;
	if (!driver_load(&p, path, SESSION_VERIFY) || !p.H) {
		diag_emit_all(&p.diags, false);
		fprintf(stderr, "bench_native: %s does not verify\n", path);
		driver_session_free(&p);
		return false;
	}
	Build b;
	Built r = build_program(&p, &b);
	driver_session_free(&p);
	if (r == BUILT_REFUSED) {
		printf("%-10.*s refused: %s\n", nlen, base, b.why);
		share->refused++;
		return true;
	}
	if (r == BUILT_ERROR)
		return false;
	char twin[4200];
	snprintf(twin, sizeof twin, "%.*s.c", (int)(strlen(path) - 4), path);
	double native_s = 0, c_s = 0, native_cpu = 0, c_cpu = 0;
	Buf result = {0};
	bool ok = race(path, &b, twin, &native_s, &c_s, &native_cpu, &c_cpu, &result);
	emitc_native_cleanup(b.dir);
	if (ok) {
		double ratio = native_s / c_s;
		double cpu_ratio = c_cpu > 0 ? native_cpu / c_cpu : ratio;
		printf("%-10.*s %10.3f %10.3f %7.2fx %7.2fx%s %9.3f %9.1f %6.2f%%  %.*s\n", nlen, base, native_s, c_s, ratio,
		    cpu_ratio, cpu_ratio > TARGET_EACH ? "!" : " ", b.emit_s * 1e3, b.cc_s * 1e3,
		    100.0 * b.emit_s / b.cc_s, (int)strcspn(result.data, "\n"), result.data);
		*logsum += log(ratio);
		*cpu_logsum += log(cpu_ratio);
		(*nratios)++;
		share->emit_s += b.emit_s;
		share->cc_s += b.cc_s;
		share->built++;
	}
	buf_free(&result);
	return ok;
}

/* An example only adds to the emission share; it is not run. */
static bool
share_example(const char *path, Share *share)
{
	Session p;
	bool loaded = driver_load(&p, path, SESSION_VERIFY) && p.H;
	Build b = {0};
	Built r = BUILT_REFUSED;
	if (loaded)
		r = build_program(&p, &b);
	else
		lane_first_error_line(&p.diags, b.why, sizeof b.why);
	driver_session_free(&p);
	if (r == BUILT_OK) {
		emitc_native_cleanup(b.dir);
		printf("%-28s %9.3f %9.1f %6.2f%%\n", path, b.emit_s * 1e3, b.cc_s * 1e3, 100.0 * b.emit_s / b.cc_s);
		share->emit_s += b.emit_s;
		share->cc_s += b.cc_s;
		share->built++;
	} else if (r == BUILT_REFUSED) {
		printf("%-28s %s: %s\n", path, loaded ? "refused" : "does not verify", b.why);
		share->refused++;
	}
	return r != BUILT_ERROR;
}

static int
usage(void)
{
	fprintf(stderr, "usage: bench_native [--runs N] [--dir DIR] [--examples DIR] [NAME...]\n");
	return 2;
}

static void
print_header(const char *dir)
{
	const char *cc = getenv("CC");
	printf("native-lane benchmarks: %s/*.spx vs *.c, best of %d runs, CC=%s -std=c11 -O2 -ffp-contract=off\n",
	    dir, runs, cc && *cc ? cc : "cc");
	printf("%-10s %10s %10s %8s %9s %9s %9s %7s  %s\n", "program", "native_s", "c_s", "wall", "cpu", "emit_ms",
	    "cc_ms", "emit%", "result");
	printf("(wall and cpu are native/C ratios of the best runs; cpu = user + system, steadier on a loaded\n"
	       " machine; ! marks a program over %.2fx)\n", TARGET_EACH);
}

static void
print_summary(double logsum, double cpu_logsum, int nratios, int nprogs, const Share *bench, const Share *all)
{
	if (nratios > 0)
		printf("%-10s %21s %7.2fx %7.2fx  (geomean over %d of %d programs; target <= %.2fx, none over %.2fx)\n",
		    "geomean", "", exp(logsum / nratios), exp(cpu_logsum / nratios), nratios, nprogs, TARGET_RATIO,
		    TARGET_EACH);
	else
		printf("%-10s no ratio: the native lane built none of the %d programs\n", "geomean", nprogs);
	if (all->built > 0)
		printf("emission share %.3f%% of the C compiler's time (emit %.3f ms, cc %.1f ms over %d programs: "
		    "%d bench + %d examples; %d refused; target < %.0f%%)\n",
		    100.0 * all->emit_s / all->cc_s, all->emit_s * 1e3, all->cc_s * 1e3, all->built, bench->built,
		    all->built - bench->built, all->refused, TARGET_SHARE);
	else
		printf("emission share: no program is built by the native lane yet\n");
}

/* The benchmark programs: DIR/NAME.spx for each NAME given, else every DIR/NAME.spx. */
/* Examples add to the emission share only. */
static bool
share_examples(const char *examples, Share *all)
{
	char pattern[4200];
	glob_t g;
	snprintf(pattern, sizeof pattern, "%s/*.spx", examples);
	if (glob(pattern, 0, NULL, &g) != 0)
		return true;
	printf("%-28s %9s %9s %7s\n", "emission (examples)", "emit_ms", "cc_ms", "emit%");
	bool ok = true;
	for (size_t i = 0; i < g.gl_pathc; i++)
		ok &= share_example(g.gl_pathv[i], all);
	globfree(&g);
	return ok;
}

int
main(int argc, char **argv)
{
	const char *dir = "bench/native", *examples = "examples";
	char **names = spx_xcalloc((size_t)argc, sizeof *names);
	int nnames = 0;
	spx_tune_allocator();  /* as the semaprax binary does */
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
			runs = atoi(argv[++i]);
		else if (strcmp(argv[i], "--dir") == 0 && i + 1 < argc)
			dir = argv[++i];
		else if (strcmp(argv[i], "--examples") == 0 && i + 1 < argc)
			examples = argv[++i];
		else if (argv[i][0] == '-' || runs < 1)
			return usage();
		else
			names[nnames++] = argv[i];
	}
	glob_t progs;
	if (runs < 1 || !lane_list_programs("bench_native", dir, names, nnames, &progs))
		return runs < 1 ? usage() : 1;
	free(names);
	print_header(dir);
	bool ok = true;
	double logsum = 0, cpu_logsum = 0;
	int nratios = 0;
	Share bench = {0};
	for (size_t i = 0; i < progs.gl_pathc; i++) {
		const char *path = progs.gl_pathv[i];
		if (!bench_one(path, &logsum, &cpu_logsum, &nratios, &bench)) {
			const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
			printf("%-10.*s FAILED (see above)\n", (int)strcspn(base, "."), base);
			ok = false;
		}
	}
	Share all = bench;
	ok &= share_examples(examples, &all);
	print_summary(logsum, cpu_logsum, nratios, (int)progs.gl_pathc, &bench, &all);
	globfree(&progs);
	if (!ok)
		fprintf(stderr, "bench_native: FAILED (see above)\n");
	return ok ? 0 : 1;
}
