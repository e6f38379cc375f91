/*
 * args.c — the checks `semaprax run` and a native command-line program make
 * of the arguments after `--` (count, UTF-8, total bytes), one copy for
 * both.  It writes its refusal with snprintf, so it is not part of the
 * freestanding wasm32 runtime (tools/build_rt_wasm.sh).
 */
#ifndef RT_API
#include "rt.h"
#include "domains.h"
#endif
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

RT_API size_t
rt_args_check(int n, char *const *args, char why[160])
{
	int k = 0;
	if (n > RT_LIMIT_ARGS) {
		k = snprintf(why, 160, "a command-line program takes at most %d arguments after `--` (got %d)", RT_LIMIT_ARGS, n);
		return (size_t)k;
	}
	size_t total = 0;
	for (int i = 0; i < n; i++) {
		size_t len = strlen(args[i]);
		if (rt_utf8_validate((const uint8_t *)args[i], len) != len) {
			k = snprintf(why, 160, "argument %d after `--` is not valid UTF-8", i);
			return (size_t)k;
		}
		total += len;
	}
	if (total > RT_LIMIT_ARG_BYTES)
		k = snprintf(why, 160, "arguments after `--` exceed %u bytes together", (unsigned)RT_LIMIT_ARG_BYTES);
	return (size_t)k;
}
