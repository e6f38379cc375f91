/*
 * bench_wasm.c — the Wasm lane under Node next to the native lane (`make
 * bench-wasm`; issue 13, deliver item 7).
 *
 * Usage: bench_wasm [--runs N] [--dir DIR] [NAME...]
 *
 * For every DIR/NAME.spx (default: all of bench/native/NAME.spx, the
 * native lane's benchmark programs) it builds both lanes as `semaprax
 * build` does, each from its own verified Session (driver_load, route,
 * admission, driver_mono): the native lane by emit_c and
 * emitc_native_compile ($CC -std=c11 -O2 -ffp-contract=off), the Wasm lane
 * by emit_wasm into a private directory beside the embedded host
 * (host.mjs, run.mjs), run as `node run.mjs program.wasm` exactly as `run
 * --wasm` starts it ($SEMAPRAX_NODE, default node).  Both run N times,
 * alternating (a load change on a shared machine hits both alike), each
 * run's wall clock from spawn to exit and its CPU time (user + system of
 * the process and its threads: V8 compiles on background threads) kept;
 * both must exit 0 and print the same bytes on every run.  A ratio is the
 * median of the N pair-by-pair ratios (robust when the machine's speed
 * drifts); the times shown are medians.
 *
 * Printed: a header with node's fixed cost (the median of N runs of an
 * empty program's module: start-up, compiling the module and the runtime
 * it carries), then per program: native and wasm wall seconds, the wall
 * ratio wasm/native, the same with node's fixed wall cost taken off the
 * wasm time, native and wasm CPU seconds and the CPU ratio, the module's
 * size and the size of the native executable after `strip` (both bytes),
 * the result line; the geometric means of the three ratios (target for
 * the wall and CPU ratios: <= 1.6x; on a loaded machine the CPU ratio is
 * the steadier figure).  A program the Wasm lane refuses (W110) is a
 * `refused` row with the first diagnostic line and its stripped native
 * size; it is counted and left out of the means, never hidden.
 *
 * Exit status: 0; 1 on a real error (a program that does not verify, a
 * native build the lane refuses, a compiler, node or strip that cannot be
 * started or fails, an output mismatch, a failing program); 2 on a usage
 * error.
 */
#include <errno.h>
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../src/driver/route.h"
#include "../src/driver/session.h"
#include "../src/emit_c/emit_c.h"
#include "../src/emit_wasm/emit_wasm.h"
#include "bench_lane.h"

#define TARGET_RATIO 1.6

static int runs = 5;

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The median of v[0, n) (sorted in place). */
static double
median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One checked run of argv (output against *ref, set by the first): its wall and CPU seconds. */
static bool
timed_run(const char *what, char *const *argv, Buf *ref, bool first, double *wall, double *cpu)
{
	*wall = 1e300;   /* lane_run_checked keeps the smaller: this run's */
	*cpu = 1e300;
	return lane_run_checked("bench_wasm", what, argv, wall, cpu, ref, first);
}

static bool
write_file(const char *dir, const char *name, const void *data, size_t len)
{
	char p[4200];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	FILE *f = fopen(p, "wb");
	if (!f)
		return false;
	bool ok = fwrite(data, 1, len, f) == len;
	return fclose(f) == 0 && ok;
}

static void
remove_wasm_dir(const char *dir)
{
	const char *names[] = { "program.wasm", "host.mjs", "run.mjs" };
	char p[4200];
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		snprintf(p, sizeof p, "%s/%s", dir, names[i]);
		unlink(p);
	}
	rmdir(dir);
}

/* Loads path; the route's grants into host.  False (reported) unless it verifies. */
static bool
load(Session *p, const char *path, HirGrants *host)
{
	if (!driver_load(p, path, SESSION_VERIFY) || !p->H) {
		diag_emit_all(&p->diags, false);
		fprintf(stderr, "bench_wasm: %s does not verify\n", path);
		return false;
	}
	driver_route(p->H->S, host);
	return true;
}

/* The native lane's executable in *dir (dir/program); false (reported) otherwise. */
static bool
build_native(const char *path, char dir[4096])
{
	Session p;
	HirGrants host;
	dir[0] = '\0';
	bool ok = load(&p, path, &host);
	Buf c = {0};
	EmitOptions eo = { .host = &host };
	if (ok && !(driver_admit(p.H, &host, &p.diags) && driver_mono(&p) && emit_c(p.H, &eo, &c, &p.diags))) {
		diag_emit_all(&p.diags, false);
		fprintf(stderr, "bench_wasm: %s: the native lane does not build it\n", path);
		ok = false;
	}
	driver_session_free(&p);
	if (ok) {
		Buf msg = {0};
		NativeStatus st = emitc_native_compile(c.data, c.len, dir, &msg);
		if (st != NATIVE_OK) {
			fprintf(stderr, "bench_wasm: %s: %s\n%s\n", path,
			    st == NATIVE_NO_CC ? "no C compiler" : st == NATIVE_CC_FAILED ? "C compilation failed" : "I/O error",
			    msg.data ? msg.data : "");
			emitc_native_cleanup(dir);
			dir[0] = '\0';
			ok = false;
		}
		buf_free(&msg);
	}
	buf_free(&c);
	return ok;
}

/* The Wasm module into mod; 1 built, 0 refused (why), -1 error (reported). */
static int
build_wasm(const char *path, Buf *mod, char *why, size_t cap)
{
	Session p;
	HirGrants host;
	if (!load(&p, path, &host)) {
		driver_session_free(&p);
		return -1;
	}
	WasmOptions wo = { .host = &host };
	int r = 1;
	if (!(driver_admit(p.H, &host, &p.diags) && driver_mono(&p) && emit_wasm(p.H, &wo, mod, &p.diags))) {
		bool refused = p.diags.items.len > 0 && p.diags.items.items[0].code == DIAG_W110;
		lane_first_error_line(&p.diags, why, cap);
		if (!refused)
			diag_emit_all(&p.diags, false);
		r = refused ? 0 : -1;
	}
	driver_session_free(&p);
	return r;
}

/* A private directory holding mod as program.wasm beside the host; false (reported) otherwise. */
static bool
stage_wasm(const Buf *mod, char dir[4096])
{
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, 4096, "%s/bench-wasm-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		fprintf(stderr, "bench_wasm: cannot create a temporary directory: %s\n", strerror(errno));
		dir[0] = '\0';
		return false;
	}
	if (!write_file(dir, "program.wasm", mod->data, mod->len) ||
	    !write_file(dir, "host.mjs", emitw_host_mjs, strlen(emitw_host_mjs)) ||
	    !write_file(dir, "run.mjs", emitw_run_mjs, strlen(emitw_run_mjs))) {
		fprintf(stderr, "bench_wasm: cannot write into %s: %s\n", dir, strerror(errno));
		remove_wasm_dir(dir);
		dir[0] = '\0';
		return false;
	}
	return true;
}

static const char *
node_cmd(void)
{
	const char *node = getenv("SEMAPRAX_NODE");
	return node && *node ? node : "node";
}

/* The size of `strip -o dir/stripped dir/program`; -1 (reported) when strip fails. */
static long
stripped_size(const char *dir)
{
	char in[4200], out[4200];
	snprintf(in, sizeof in, "%s/program", dir);
	snprintf(out, sizeof out, "%s/stripped", dir);
	char *argv[] = { "strip", "-o", out, in, NULL };
	Buf ignored = {0};
	double t = lane_run_once("bench_wasm", "strip", argv, &ignored, NULL);
	buf_free(&ignored);
	struct stat st;
	long n = t >= 0 && stat(out, &st) == 0 ? (long)st.st_size : -1;
	unlink(out);   /* emitc_native_cleanup removes only what the compile wrote */
	if (n < 0)
		fprintf(stderr, "bench_wasm: cannot strip %s (binutils' strip)\n", in);
	return n;
}

/* Node's fixed cost: the medians of `runs` runs of an empty program's module (wall, *cpu); < 0 on error. */
static double
node_fixed_cost(double *cpu_out)
{
	const char *tmp = getenv("TMPDIR");
	char dir[4096], path[4200];
	snprintf(dir, sizeof dir, "%s/bench-wasm-empty-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof path, "%s/empty.spx", dir);
	static const char src[] = "module bench.empty;\n\n@id(\"bench.empty.main\")\nfn main() -> i64\n{\n    0\n}\n";
	double wall = -1;
	Buf mod = {0}, ref = {0};
	char why[512], wdir[4096];
	if (write_file(dir, "empty.spx", src, sizeof src - 1) && build_wasm(path, &mod, why, sizeof why) == 1 &&
	    stage_wasm(&mod, wdir)) {
		char runp[4200], progp[4200];
		snprintf(runp, sizeof runp, "%s/run.mjs", wdir);
		snprintf(progp, sizeof progp, "%s/program.wasm", wdir);
		char *argv[] = { (char *)node_cmd(), runp, progp, NULL };
		double *w = spx_xcalloc((size_t)runs, sizeof *w), *c = spx_xcalloc((size_t)runs, sizeof *c);
		bool ok = true;
		for (int r = 0; r < runs && ok; r++)
			ok = timed_run("the empty module", argv, &ref, r == 0, &w[r], &c[r]);
		if (ok) {
			wall = median(w, runs);
			*cpu_out = median(c, runs);
		}
		free(w);
		free(c);
		remove_wasm_dir(wdir);
	}
	unlink(path);
	rmdir(dir);
	buf_free(&mod);
	buf_free(&ref);
	return wall;
}

typedef struct Means {
	double log_ratio, log_run_ratio, log_cpu_ratio;
	int n, refused;
} Means;

/* Benchmarks one DIR/NAME.spx; false on a real error (reported). */
static bool
bench_one(const char *path, double fixed_s, Means *m)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	int nlen = (int)strcspn(base, ".");
	char ndir[4096], wdir[4096] = "", why[1024];
	if (!build_native(path, ndir))
		return false;
	long nsize = stripped_size(ndir);
	Buf mod = {0};
	int w = nsize < 0 ? -1 : build_wasm(path, &mod, why, sizeof why);
	bool ok = w >= 0;
	if (w == 0) {
		printf("%-10.*s %8s %8s %8s %9s %8s %8s %8s %8s %8ld  refused: %s\n", nlen, base, "-", "-", "-", "-", "-", "-", "-",
		    "-", nsize, why);
		m->refused++;
	}
	if (w == 1)
		ok = stage_wasm(&mod, wdir);
	if (w == 1 && ok) {
		char exe[4200], runp[4200], progp[4200];
		snprintf(exe, sizeof exe, "%s/program", ndir);
		snprintf(runp, sizeof runp, "%s/run.mjs", wdir);
		snprintf(progp, sizeof progp, "%s/program.wasm", wdir);
		char *nargv[] = { exe, NULL };
		char *wargv[] = { (char *)node_cmd(), runp, progp, NULL };
		/* per run: native wall, wasm wall, native CPU, wasm CPU; then the pair ratios */
		double *t = spx_xcalloc((size_t)runs * 7, sizeof *t);
		double *nw = t, *ww = t + runs, *nc = t + 2 * runs, *wc = t + 3 * runs;
		double *rw = t + 4 * runs, *rr = t + 5 * runs, *rc = t + 6 * runs;
		Buf nout = {0}, wout = {0};
		char wname[4200];
		snprintf(wname, sizeof wname, "%s (wasm)", path);
		for (int r = 0; r < runs && ok; r++) {
			ok = timed_run(path, nargv, &nout, r == 0, &nw[r], &nc[r]) &&
			     timed_run(wname, wargv, &wout, r == 0, &ww[r], &wc[r]);
			if (ok) {
				rw[r] = ww[r] / nw[r];
				rr[r] = (ww[r] - fixed_s > 0 ? ww[r] - fixed_s : 0) / nw[r];
				rc[r] = wc[r] / (nc[r] > 0 ? nc[r] : 1e-9);
			}
		}
		if (ok && (nout.len != wout.len || memcmp(nout.data, wout.data, nout.len) != 0)) {
			fprintf(stderr, "bench_wasm: %s: MISMATCH: native printed \"%.*s\", wasm printed \"%.*s\"\n", path,
			    (int)strcspn(nout.data ? nout.data : "", "\n"), nout.data ? nout.data : "",
			    (int)strcspn(wout.data ? wout.data : "", "\n"), wout.data ? wout.data : "");
			ok = false;
		}
		if (ok) {
			double ratio = median(rw, runs), run_ratio = median(rr, runs), cpu_ratio = median(rc, runs);
			printf("%-10.*s %8.3f %8.3f %7.2fx %8.2fx %8.3f %8.3f %7.2fx %8zu %8ld  %.*s\n", nlen, base, median(nw, runs),
			    median(ww, runs), ratio, run_ratio, median(nc, runs), median(wc, runs), cpu_ratio, mod.len, nsize,
			    (int)strcspn(nout.data ? nout.data : "", "\n"), nout.data ? nout.data : "");
			m->log_ratio += log(ratio);
			m->log_run_ratio += log(run_ratio > 0 ? run_ratio : 1e-9);
			m->log_cpu_ratio += log(cpu_ratio > 0 ? cpu_ratio : 1e-9);
			m->n++;
		}
		free(t);
		buf_free(&nout);
		buf_free(&wout);
	}
	if (wdir[0])
		remove_wasm_dir(wdir);
	buf_free(&mod);
	emitc_native_cleanup(ndir);
	return ok;
}

static int
usage(void)
{
	fprintf(stderr, "usage: bench_wasm [--runs N] [--dir DIR] [NAME...]\n");
	return 2;
}

int
main(int argc, char **argv)
{
	const char *dir = "bench/native";
	char **names = spx_xcalloc((size_t)argc, sizeof *names);
	int nnames = 0;
	spx_tune_allocator();  /* as the semaprax binary does */
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
			runs = atoi(argv[++i]);
		else if (strcmp(argv[i], "--dir") == 0 && i + 1 < argc)
			dir = argv[++i];
		else if (argv[i][0] == '-')
			return usage();
		else
			names[nnames++] = argv[i];
	}
	glob_t progs;
	if (runs < 1)
		return usage();
	if (!lane_list_programs("bench_wasm", dir, names, nnames, &progs))
		return 1;
	free(names);
	if (emitw_rt_wasm_len == 0) {
		fprintf(stderr, "bench_wasm: semaprax was built without clang/wasm-ld: the Wasm lane has no runtime (W102)\n");
		return 1;
	}
	double fixed_cpu = 0, fixed_s = node_fixed_cost(&fixed_cpu);
	if (fixed_s < 0) {
		fprintf(stderr, "bench_wasm: cannot run an empty module under `%s`\n", node_cmd());
		return 1;
	}
	const char *cc = getenv("CC");
	printf("wasm-lane benchmarks: %s/*.spx under `%s run.mjs` vs the native lane (CC=%s -std=c11 -O2 -ffp-contract=off), "
	    "%d alternating runs: median times, median pair-by-pair ratios\n", dir, node_cmd(), cc && *cc ? cc : "cc", runs);
	printf("node's fixed cost (an empty program's module: start-up, compiling it and the %zu-byte runtime it carries): "
	    "%.3f s wall, %.3f s CPU\n", emitw_rt_wasm_len, fixed_s, fixed_cpu);
	printf("%-10s %8s %8s %8s %9s %8s %8s %8s %8s %8s  %s\n", "program", "native_s", "wasm_s", "ratio", "ratio_run",
	    "ncpu_s", "wcpu_s", "cpu_ratio", "wasm_B", "strip_B", "result");
	bool ok = true;
	Means m = {0};
	for (size_t i = 0; i < progs.gl_pathc; i++) {
		const char *path = progs.gl_pathv[i];
		if (!bench_one(path, fixed_s, &m)) {
			const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
			printf("%-10.*s FAILED (see above)\n", (int)strcspn(base, "."), base);
			ok = false;
		}
	}
	if (m.n > 0)
		printf("%-10s %17s %7.2fx %8.2fx %17s %7.2fx  (geomean over %d of %zu programs, %d refused by the Wasm lane; "
		    "target <= %.1fx)\n", "geomean", "", exp(m.log_ratio / m.n), exp(m.log_run_ratio / m.n), "",
		    exp(m.log_cpu_ratio / m.n), m.n, progs.gl_pathc, m.refused, TARGET_RATIO);
	else
		printf("%-10s no ratio: the Wasm lane runs none of the %zu programs (%d refused)\n", "geomean", progs.gl_pathc,
		    m.refused);
	globfree(&progs);
	if (!ok)
		fprintf(stderr, "bench_wasm: FAILED (see above)\n");
	return ok ? 0 : 1;
}
