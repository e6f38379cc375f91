/*
 * fuzz_run.c — libFuzzer target over the back half of the pipeline
 * (`make fuzz-run`): for an input that parses and checks with zero
 * errors, lower to HIR and validate it, then
 *   1. run `main` in the interpreter with a small step budget (and, in
 *      this build, a small value heap: -DVALUE_HEAP_LIMIT in the Makefile)
 *      and no host effects: the route's grants minus files, stdin, the
 *      environment and the clock (those stop at "not granted"); stdout and
 *      stderr are staged in memory and dropped;
 *   2. build the instance list (hir_mono) and validate it;
 *   3. emit the C unit and the Wasm module in memory (never compiled or
 *      run), and validate the module's structure and every function body's
 *      types (wasm_valid.c).
 * Stage 1 and stage 3's C unit are each done twice, and the two results must
 * be the same (determinism: sanitizers do not see reads of uninitialised memory).
 * A crash, a sanitizer report or a leak is a finding, and so are an HIR
 * or instance list that fails validation on a verified program, an
 * emitter that fails without saying why (no error diagnostic), and a Wasm
 * module that does not validate (__builtin_trap, after printing why).  A
 * lane refusing a construct (B110, W110) or admission refusing a module
 * (F102, T273) is an answer, not a finding.
 *
 * Key choice: each stage works on the same HirModule, in the order the CLI
 * uses (run, then mono for the lanes), so a stage that mutates the HIR
 * another relies on shows up here as it would across `run` and `build`.
 */
#include <stdio.h>
#include <string.h>

#include "../../src/driver/route.h"
#include "../../src/emit_c/emit_c.h"
#include "../../src/emit_wasm/emit_wasm.h"
#include "../../src/interp/interp.h"
#include "fuzz_front.h"
#include "wasm_valid.h"

#define FUZZ_RUN_STEPS 50000

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static void
finding(const char *what, DiagSink *diags)
{
	fuzz_finding("fuzz_run", what, diags);
}

static bool
same_result(const InterpResult *a, const InterpResult *b)
{
	return a->stop == b->stop && a->value == b->value && a->domain == b->domain && a->code == b->code &&
	       a->steps == b->steps && strcmp(a->message, b->message) == 0 && a->out.len == b->out.len &&
	       a->err.len == b->err.len && (a->out.len == 0 || memcmp(a->out.data, b->out.data, a->out.len) == 0) &&
	       (a->err.len == 0 || memcmp(a->err.data, b->err.data, a->err.len) == 0);
}

static void
run_interp(HirModule *H, const HirGrants *route)
{
	InterpOptions o;
	memset(&o, 0, sizeof o);
	o.max_steps = FUZZ_RUN_STEPS;
	o.host = *route;
	o.host.fs_read = o.host.fs_write = o.host.stdin_read = false;
	o.host.env_read = o.host.clock_read = false;
	o.host.write_root = NULL;
	InterpResult r, again;
	memset(&r, 0, sizeof r);
	memset(&again, 0, sizeof again);
	interp_run(H, &o, &r);
	interp_run(H, &o, &again);
	if (!same_result(&r, &again))
		finding("two runs of the same program differ", NULL);
	interp_result_free(&r);
	interp_result_free(&again);
}

static void
emit_lanes(HirModule *H, const HirGrants *route, DiagSink *diags)
{
	if (!hir_mono(H, diags))
		return;
	if (!hir_validate_mono(H, diags))
		finding("the instance list of a verified program fails validation", diags);
	int before = diags->errors;
	EmitOptions eo = { true, route, false, 0 };
	Buf c = {0}, c2 = {0};
	if (emit_c(H, &eo, &c, diags)) {
		if (!emit_c(H, &eo, &c2, diags) || c.len != c2.len || memcmp(c.data, c2.data, c.len) != 0)
			finding("two C emissions of the same HIR differ", diags);
	} else if (diags->errors == before) {
		finding("emit_c failed without an error", diags);
	}
	buf_free(&c);
	buf_free(&c2);
	before = diags->errors;
	WasmOptions wo;
	memset(&wo, 0, sizeof wo);
	wo.host = route;
	Buf w = {0};
	if (emit_wasm(H, &wo, &w, diags)) {
		char why[256];
		if (!fuzzw_validate((const unsigned char *)w.data, w.len, why, sizeof why)) {
			/* `semaprax build --target wasm` writes the same module */
			fprintf(stderr, "fuzz_run: the Wasm module does not validate: %s\n", why);
			__builtin_trap();
		}
	} else if (diags->errors == before) {
		finding("emit_wasm failed without an error", diags);
	}
	buf_free(&w);
}

/* -1 (keep the input out of the corpus) unless it checks clean, for the
 * libFuzzers that honour it; clang 14's does not, so the Makefile builds the
 * front end without coverage instead (make fuzz-check covers its errors). */
int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	FuzzFront f;
	HirModule *H = fuzz_front_lower(&f, data, size, "fuzz_run");
	if (!H) {
		fuzz_front_free(&f);
		return -1;
	}
	HirGrants route;
	driver_route(f.S, &route);
	if (driver_admit(H, &route, &f.diags)) {
		run_interp(H, &route);
		emit_lanes(H, &route, &f.diags);
	}
	hir_free(H);
	fuzz_front_free(&f);
	return 0;
}
