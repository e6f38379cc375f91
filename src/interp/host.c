/*
 * host.c — the host operations a route grants (TOOLCHAIN.md §1.3,
 * LANGUAGE.md §5.1 and §0.1's capability lift): staged stdout/stderr, the
 * arguments after `--`, stdin, the environment snapshot, the clock, and
 * the stdin stream, and the file operations (fs.c).  Which operations a program may call at
 * all: src/driver/route.c (admission); stdin, the snapshot and the clock
 * are src/rt/host.c, shared with the native runtime.
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

#include "../rt/rt.h"

extern char **environ;

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

/* stdin to its end (at most 65,536 bytes); a later call reads nothing. */
static Value
host_stdin(Interp *I)
{
	Bytes *b = interp_bytes_new(&I->heap, NULL, 0);
	if (I->stdin_done)
		return v_ptr(V_BYTES, b, 0);
	I->stdin_done = true;
	interp_bytes_reserve(&I->heap, b, (size_t)RT_LIMIT_STDIN + 1, false);
	size_t n = 0;
	uint32_t st = rt_stdin_read(b->data, RT_LIMIT_STDIN, &n);
	if (st) {
		value_release(&I->heap, v_ptr(V_BYTES, b, 0));
		return host_fail(I, RT_DOM_CMDIN, st);
	}
	b->len = n;
	heap_work(&I->heap, n);
	return v_ptr(V_BYTES, b, 0);
}

/*
 * The stdin stream (stdin_stream_open/next/eof/chunk): a reader is a Bytes
 * whose contents are the current chunk, in a buffer of RT_LIMIT_STDIN_CHUNK
 * bytes; length 0 is end of input (a read of 0 bytes), latched: `next` on it
 * reads nothing.  Each read is one read(2) of at most 4,096 bytes
 * (src/rt/stream.c); its bytes are charged as heap work.
 */
static Value
host_stream_fill(Interp *I, Value r)
{
	Bytes *b = r.p;
	interp_bytes_reserve(&I->heap, b, RT_LIMIT_STDIN_CHUNK, false);
	size_t n = 0;
	uint32_t st = rt_stdin_chunk(b->data, RT_LIMIT_STDIN_CHUNK, &n);
	if (st) {
		value_release(&I->heap, r);
		return host_fail(I, RT_DOM_CMDIN, st);
	}
	b->len = n;
	heap_work(&I->heap, n);
	return r;
}

static Value
host_stream(Interp *I, int index, Value *args)
{
	const Bytes *b;
	switch (index) {
	case BI_stdin_stream_open:
		return host_stream_fill(I, v_ptr(V_BYTES, interp_bytes_new(&I->heap, NULL, 0), 0));
	case BI_stdin_stream_next: {
		Value r = value_own(&I->heap, args[0]);
		return ((Bytes *)r.p)->len == 0 ? r : host_stream_fill(I, r);
	}
	case BI_stdin_stream_eof:
		b = args[0].p;
		return v_bool(b->len == 0);
	default: {   /* BI_stdin_stream_chunk: a view of the current chunk */
		b = args[0].p;
		Value v = v_ptr(V_VIEW, NULL, (uint32_t)b->len);
		v.bytes = b->data;
		return v;
	}
	}
}

/* env_len, env_name_utf8, env_value_utf8 over the run's snapshot (built
 * at the first call; its failure fails every call). */
static Value
host_env(Interp *I, int index, const Value *args)
{
	if (I->env_status == 0) {
		uint32_t st = rt_env_snapshot(environ, I->env_order, &I->env_count);
		I->env_status = st ? st + 1 : 1;
	}
	if (I->env_status != 1)
		return host_fail(I, RT_DOM_ENV, I->env_status - 1);
	if (index == BI_env_len)
		return v_int(V_USIZE, (int64_t)I->env_count);
	if (args[0].u >= (uint64_t)I->env_count)
		return host_fail(I, RT_DOM_ENV, RT_ENV_INDEX);
	const char *e = I->env_order[args[0].u];
	size_t nl = rt_env_name_len(e);
	const char *s = index == BI_env_name_utf8 ? e : e + nl + 1;
	size_t n = index == BI_env_name_utf8 ? nl : strlen(s);
	heap_work(&I->heap, n);
	Value v = v_ptr(V_VIEW, NULL, (uint32_t)n);
	v.bytes = (const uint8_t *)s;
	return v;
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
	case BI_file_write_new: case BI_file_write_atomic:
		if (!o->host.fs_write)
			return refused(I, index == BI_file_write_new ? "file_write_new" : "file_write_atomic");
		return interp_rt_file_write(I, args, index == BI_file_write_atomic);
	case BI_stdin_read:
		if (!o->host.stdin_read)
			return refused(I, "stdin_read");
		return host_stdin(I);
	case BI_stdin_stream_open: case BI_stdin_stream_next:
		if (!o->host.stdin_read)
			return refused(I, sema_builtin_by_id((BuiltinId)index)->name);
		return host_stream(I, index, args);
	case BI_stdin_stream_eof: case BI_stdin_stream_chunk:
		return host_stream(I, index, args);
	case BI_env_len: case BI_env_name_utf8: case BI_env_value_utf8:
		if (!o->host.env_read)
			return refused(I, sema_builtin_by_id((BuiltinId)index)->name);
		return host_env(I, index, args);
	case BI_clock_now_ms:
		if (!o->host.clock_read)
			return refused(I, "clock_now_ms");
		return v_int(V_I64, rt_clock_now_ms());
	default:
		UNREACHABLE();
		return v_empty();
	}
}
