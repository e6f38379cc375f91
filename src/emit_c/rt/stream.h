/* ---- SEMAPRAX native runtime: the stdin stream (stdin_stream_open/next) ---- */
/*
 * Included with rt/host.h (the route grants process.stdin.read).  Same
 * semantics as the interpreter's src/interp/host.c over the shared
 * src/rt/stream.c embedded just before this text: a reader is an spx_str
 * whose p is a buffer of RT_LIMIT_STDIN_CHUNK (4,096) bytes and whose n is
 * the current chunk's length, 0 at end of input (latched: next reads
 * nothing more); a read error is command-input.v1 code 3.
 */

SPX_RT spx_str
spx_stream_fill(spx_str r)
{
	size_t n = 0;
	uint32_t st = rt_stdin_chunk(r.p, RT_LIMIT_STDIN_CHUNK, &n);
	if (st) {
		spx_str_free(&r);
		spx_fail(rt_domain_ids[RT_DOM_CMDIN], (int)st);
	}
	r.n = n;
	return r;
}

SPX_RT spx_str
spx_stream_open(void)
{
	spx_str r = { spx_alloc(RT_LIMIT_STDIN_CHUNK), 0 };
	return spx_stream_fill(r);
}

SPX_RT spx_str
spx_stream_next(spx_str r)
{
	return r.n == 0 ? r : spx_stream_fill(r);
}

/* A copy of a reader (vec_clone_at and the like): its own full-size buffer. */
SPX_RT spx_str
spx_stream_clone(const spx_str *s)
{
	if (!s->p)
		return *s;
	spx_str c = { spx_alloc(RT_LIMIT_STDIN_CHUNK), s->n };
	if (s->n)
		memcpy(c.p, s->p, s->n);
	return c;
}
