/*
 * host.c — the host inputs both lanes share (LANGUAGE.md §5.1 and §0.1's
 * capability lift): `stdin_read` (process.stdin.read), the environment
 * snapshot of `env_len`/`env_name_utf8`/`env_value_utf8`
 * (process.environment.read) and `clock_now_ms` (clock.read).  The
 * interpreter (src/interp/host.c) links it; the C lane embeds this text
 * (src/emit_c/rt/host.h follows it).
 *
 * stdin is read to its end, at most 65,536 bytes (one more is
 * command-input.v1 code 4, a read error code 3).  The environment is one
 * snapshot per run, as the reference's Bounded Environment I/O v1 builds
 * it: entries sorted by the bytes of their names, at most 256 entries and
 * 65,536 bytes of names and values together (environment-input.v1 code 3),
 * every name nonempty and every name and value strict UTF-8, no name twice
 * (code 2).
 *
 * The Wasm lane's runtime module (tools/build_rt_wasm.sh) builds this file
 * freestanding: only the snapshot (over the entries its host copies into
 * memory, rt_env_entry below); stdin and the clock are its host's imports.
 */
#ifndef RT_API
#include "rt.h"
#include "domains.h"
#endif
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if !defined(__wasm__)
#include <errno.h>
#include <time.h>
#include <unistd.h>

RT_API uint32_t
rt_stdin_read(uint8_t *buf, size_t cap, size_t *n)
{
	size_t got = 0;
	for (;;) {
		ssize_t r = read(0, buf + got, cap + 1 - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return RT_CMDIN_STDIN;
		if (r == 0)
			break;
		if ((got += (size_t)r) > cap)
			return RT_CMDIN_FULL;
	}
	*n = got;
	return 0;
}
#endif

/* (strlen and strchr are not in the wasm32 build's libc) */
static size_t
rt_env_strlen(const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return n;
}

RT_API size_t
rt_env_name_len(const char *entry)
{
	size_t n = 0;
	while (entry[n] && entry[n] != '=')
		n++;
	return n;
}

/* Name order: the bytes of the names, a shorter prefix first. */
static int
rt_env_cmp(const char *a, const char *b)
{
	size_t an = rt_env_name_len(a), bn = rt_env_name_len(b);
	int c = memcmp(a, b, an < bn ? an : bn);
	return c ? c : (an > bn) - (an < bn);
}

RT_API uint32_t
rt_env_snapshot(char *const *env, const char **order, size_t *count)
{
	size_t n = 0, bytes = 0;
	for (; env && env[n]; n++) {
		const char *e = env[n];
		size_t len = rt_env_strlen(e), nl = rt_env_name_len(e);
		if (n >= RT_LIMIT_ENV_ENTRIES || (bytes += len - (nl < len)) > RT_LIMIT_ENV_BYTES)
			return RT_ENV_FULL;
		if (nl == 0 || nl == len || rt_utf8_validate((const uint8_t *)e, len) != len)
			return RT_ENV_INVALID;
		/* insertion into the sorted prefix (at most 256 entries) */
		size_t at = n;
		while (at > 0 && rt_env_cmp(order[at - 1], e) > 0) {
			order[at] = order[at - 1];
			at--;
		}
		if (at > 0 && rt_env_cmp(order[at - 1], e) == 0)
			return RT_ENV_INVALID;
		order[at] = e;
	}
	*count = n;
	return 0;
}

#if !defined(__wasm__)
RT_API int64_t
rt_clock_now_ms(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
		return 0;
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
#else
/*
 * The Wasm lane's env_len, env_name_utf8 and env_value_utf8
 * (src/emit_wasm/builtin.c): env is its host's copy of the environment (a
 * NULL-terminated array of "NAME=value" strings, the spx.env import); the
 * snapshot is rt_env_snapshot's, built at the first call and kept for the
 * run (a runtime instance serves one run).  which 0: the entry count into
 * out[0]; 1 entry `index`'s name, 2 its value, as (address, length) into
 * out[0..1].  Returns 0 or the environment-input.v1 code.
 */
static uint32_t rt_env_status;   /* 0 unbuilt, 1 built, else the failure code + 1 */
static size_t rt_env_count;
static const char *rt_env_order[RT_LIMIT_ENV_ENTRIES];

RT_API uint32_t
rt_env_entry(char *const *env, uint64_t index, uint32_t which, uint32_t *out)
{
	if (rt_env_status == 0) {
		uint32_t st = rt_env_snapshot(env, rt_env_order, &rt_env_count);
		rt_env_status = st ? st + 1 : 1;
	}
	if (rt_env_status != 1)
		return rt_env_status - 1;
	if (which == 0) {
		out[0] = (uint32_t)rt_env_count;
		return 0;
	}
	if (index >= rt_env_count)
		return RT_ENV_INDEX;
	const char *e = rt_env_order[index];
	size_t nl = rt_env_name_len(e);
	const char *s = which == 1 ? e : e + nl + 1;
	out[0] = (uint32_t)(uintptr_t)s;
	out[1] = (uint32_t)(which == 1 ? nl : rt_env_strlen(s));
	return 0;
}
#endif
