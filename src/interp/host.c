/*
 * host.c — the host operations a route grants (TOOLCHAIN.md §1.3,
 * LANGUAGE.md §5.1): staged stdout/stderr, the arguments after `--`, and
 * `file_read_text` (fs.c).  Which operations a program may call at all:
 * src/driver/route.c (admission).
 *
 * Output is staged in InterpResult.out/.err and published by the caller
 * after `main` returns; the staged transcript (stdout + stderr together) is
 * capped at 65,536 bytes (`semaprax.output.v1` code 1, §0.1).
 *
 * `arg_utf8` with an index >= `args_len()` is `semaprax.command-input.v1`
 * code 1, as in the reference's Command I/O.
 */
#include "interp.h"

#include <string.h>

static Value
host_fail(Interp *I, Domain d, uint32_t code)
{
	interp_fail(I, d, code);
	return v_empty();
}

static Value
host_stage(Interp *I, Buf *to, const Value *v)
{
	size_t n;
	const uint8_t *p = interp_value_bytes(v, &n);
	if (I->res->out.len + I->res->err.len + n > INTERP_OUTPUT_CAP)
		return host_fail(I, RT_DOM_OUTPUT, RT_OUTPUT_FULL);
	buf_put(to, (const char *)p, n);
	return v_int(V_USIZE, (int64_t)n);
}

static Value
refused(Interp *I, const char *name)
{
	interp_limit(I, "`%s` is not granted on this route", name);
	return v_empty();
}

Value
interp_rt_host_call(Interp *I, int index, Value *args)
{
	const InterpOptions *o = I->opt;
	switch (index) {
	case BI_stdout_write:
		if (!o->host.stdout_write)
			return refused(I, "stdout_write");
		return host_stage(I, &I->res->out, &args[0]);
	case BI_stderr_write:
		if (!o->host.stderr_write)
			return refused(I, "stderr_write");
		return host_stage(I, &I->res->err, &args[0]);
	case BI_args_len:
		if (!o->host.args_read)
			return refused(I, "args_len");
		return v_int(V_USIZE, o->nargs);
	case BI_arg_utf8: {
		if (!o->host.args_read)
			return refused(I, "arg_utf8");
		if (args[0].u >= (uint64_t)o->nargs)
			return host_fail(I, RT_DOM_CMDIN, RT_CMDIN_ARG_INDEX);
		const char *a = o->args[args[0].u];
		size_t n = strlen(a);
		heap_work(&I->heap, n);
		Value v = v_ptr(V_VIEW, NULL, (uint32_t)n);
		v.bytes = (const uint8_t *)a;
		return v;
	}
	case BI_file_read_text:
		if (!o->host.fs_read)
			return refused(I, "file_read_text");
		return interp_rt_file_read_text(I, &args[0]);
	default:
		UNREACHABLE();
		return v_empty();
	}
}
