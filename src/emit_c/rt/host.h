/* ---- SEMAPRAX native runtime: stdin_read, the environment snapshot, clock_now_ms ---- */
/*
 * Included only in programs that call them (their route grants
 * process.stdin.read, process.environment.read or clock.read).  Same
 * semantics as the interpreter's src/interp/host.c, over the shared
 * src/rt/host.c embedded just before this text: stdin is read to its end
 * once (at most 65,536 bytes, command-input.v1 code 4 past it, code 3 on a
 * read error; a later call reads nothing); the environment is one snapshot
 * per run, built at the first call (environment-input.v1: 1 index out of
 * range, 2 an invalid entry, 3 over 256 entries or 65,536 bytes).
 */

extern char **environ;

static bool spx_stdin_done;

SPX_RT spx_str
spx_stdin_read(void)
{
	spx_str b = { NULL, 0 };
	if (spx_stdin_done)
		return b;
	spx_stdin_done = true;
	b.p = spx_alloc((size_t)RT_LIMIT_STDIN + 1);
	size_t n = 0;
	uint32_t st = rt_stdin_read(b.p, RT_LIMIT_STDIN, &n);
	if (st) {
		spx_str_free(&b);
		spx_fail(rt_domain_ids[RT_DOM_CMDIN], (int)st);
	}
	b.n = n;
	return b;
}

static uint32_t spx_env_status;   /* 0 unbuilt, 1 built, else the failure code + 1 */
static size_t spx_env_count;
static const char *spx_env_order[RT_LIMIT_ENV_ENTRIES];

SPX_RT void
spx_env_build(void)
{
	if (spx_env_status == 0) {
		uint32_t st = rt_env_snapshot(environ, spx_env_order, &spx_env_count);
		spx_env_status = st ? st + 1 : 1;
	}
	if (spx_env_status != 1)
		spx_fail(rt_domain_ids[RT_DOM_ENV], (int)spx_env_status - 1);
}

SPX_RT uint64_t
spx_env_len(void)
{
	spx_env_build();
	return spx_env_count;
}

/* env_name_utf8 (name true) or env_value_utf8: a view into the snapshot. */
SPX_RT spx_view
spx_env_text(uint64_t i, bool name)
{
	spx_env_build();
	if (i >= spx_env_count)
		spx_fail(rt_domain_ids[RT_DOM_ENV], RT_ENV_INDEX);
	const char *e = spx_env_order[i];
	size_t nl = rt_env_name_len(e);
	spx_view v = { (const uint8_t *)(name ? e : e + nl + 1), name ? nl : strlen(e + nl + 1) };
	return v;
}
