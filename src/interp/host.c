/*
 * host.c — the process operations a route grants (TOOLCHAIN.md §1.3,
 * LANGUAGE.md §5.1): staged stdout/stderr, the arguments after `--`, stdin;
 * the file operations are in fs.c.  Which route grants what: admit.c.
 *
 * Output is staged in InterpResult.out/.err and published by the caller
 * after `main` returns; the staged transcript (stdout + stderr together) is
 * capped at 65,536 bytes (`semaprax.output.v1` code 1, §0.1).
 *
 * Command input (`semaprax.command-input.v1`, as the reference's Command
 * I/O): `arg_utf8` with an index >= `args_len()` is code 1; `stdin_read`
 * returns all of stdin as owned Bytes, read when first called — a second
 * call, or a read error, is code 3, and more than 65,536 bytes of
 * arguments and stdin together is code 4.
 */
#define _POSIX_C_SOURCE 200809L
#include "interp.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#define INPUT_MAX 65536u     /* arguments and stdin together */

static Value
host_fail(Interp *I, Domain d, uint32_t code)
{
	interp_fail(I, d, code);
	return v_empty();
}

/* The whole of stdin, once; `semaprax.command-input.v1` code 3 when it
 * cannot be read (or was read before), 4 past the input budget. */
static Value
stdin_read(Interp *I)
{
	if (I->stdin_consumed)
		return host_fail(I, DOM_CMDIN, 3);
	I->stdin_consumed = true;
	size_t budget = INPUT_MAX;
	for (int i = 0; i < I->opt->nargs; i++) {
		size_t n = strlen(I->opt->args[i]);
		budget = n < budget ? budget - n : 0;
	}
	Bytes *b = bytes_new(NULL, 0);
	uint32_t st = 0;
	for (;;) {
		if (b->len == b->cap) {
			b->cap = b->cap < 4096 ? 4096 : b->cap * 2;
			b->data = xrealloc(b->data, b->cap);
		}
		ssize_t r = read(STDIN_FILENO, b->data + b->len, b->cap - b->len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			st = 3;
		else if ((b->len += (size_t)(r > 0 ? r : 0)) > budget)
			st = 4;
		if (r <= 0 || st)
			break;
	}
	if (st) {
		value_release(v_ptr(V_BYTES, b, 0));
		return host_fail(I, DOM_CMDIN, st);
	}
	return v_ptr(V_BYTES, b, 0);
}

static Value
stage(Interp *I, Buf *to, const Value *v)
{
	size_t n;
	const uint8_t *p = value_bytes(v, &n);
	if (I->res->out.len + I->res->err.len + n > INTERP_OUTPUT_CAP)
		return host_fail(I, DOM_OUTPUT, 1);
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
rt_host_call(Interp *I, int index, Value *args)
{
	const InterpOptions *o = I->opt;
	switch (index) {
	case B_stdout_write:
		if (!o->stdout_write)
			return refused(I, "stdout_write");
		return stage(I, &I->res->out, &args[0]);
	case B_stderr_write:
		if (!o->stderr_write)
			return refused(I, "stderr_write");
		return stage(I, &I->res->err, &args[0]);
	case B_args_len:
		if (!o->args_read)
			return refused(I, "args_len");
		return v_int(V_USIZE, o->nargs);
	case B_arg_utf8: {
		if (!o->args_read)
			return refused(I, "arg_utf8");
		if (args[0].u >= (uint64_t)o->nargs)
			return host_fail(I, DOM_CMDIN, 1);
		const char *a = o->args[args[0].u];
		Value v = v_ptr(V_VIEW, NULL, (uint32_t)strlen(a));
		v.bytes = (const uint8_t *)a;
		return v;
	}
	case B_stdin_read:
		if (!o->stdin_read)
			return refused(I, "stdin_read");
		return stdin_read(I);
	default:
		return rt_fs_call(I, index, args);
	}
}
