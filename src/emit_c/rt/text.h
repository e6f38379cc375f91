/* ---- SEMAPRAX native runtime: text, bytes and conversions (LANGUAGE.md §5.1) ---- */

SPX_RT int64_t
spx_len_chars(spx_view s)
{
	return rt_utf8_count(s.p, s.n);   /* src/rt/utf8.c */
}

SPX_RT bool
spx_starts_with(spx_view s, spx_view pre)
{
	return pre.n <= s.n && spx_memcmp(s.p, pre.p, pre.n) == 0;
}

/* First offset >= from where needle occurs, or -1 (src/rt/text.c). */
SPX_RT int64_t
spx_find(spx_view h, spx_view n, size_t from)
{
	return rt_find(h.p, h.n, n.p, n.n, from, NULL);
}

SPX_RT int64_t
spx_string_find(spx_view h, spx_view n, int64_t from)
{
	if (from < 0 || (uint64_t)from > h.n)
		spx_fail(rt_domain_ids[RT_DOM_TEXT], RT_TEXT_RANGE);
	return spx_find(h, n, (size_t)from);
}

/* string_concat consumes both operands. */
SPX_RT spx_str
spx_concat(spx_str a, spx_str b)
{
	if (b.n) {
		a.p = spx_realloc(a.p, a.n + b.n);
		memcpy(a.p + a.n, b.p, b.n);
		a.n += b.n;
	}
	spx_str_free(&b);
	return a;
}

SPX_RT spx_str
spx_from_char(uint32_t c)
{
	uint8_t o[4];
	size_t n = rt_utf8_encode(c, o);   /* src/rt/utf8.c */
	return spx_str_new(o, n);
}

SPX_RT spx_str
spx_from_i64(int64_t v)
{
	char buf[32];
	char *p = rt_decimal(buf, v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v, v < 0);
	return spx_str_new(p, (size_t)(buf + 32 - p));
}

SPX_RT spx_str
spx_from_u64(uint64_t v)
{
	char buf[32];
	char *p = rt_decimal(buf, v, false);
	return spx_str_new(p, (size_t)(buf + 32 - p));
}

SPX_RT spx_str
spx_slice(spx_view s, int64_t a, int64_t e)
{
	uint32_t code = rt_slice_check(s.p, s.n, a, e);
	if (code)
		spx_fail(rt_domain_ids[RT_DOM_TEXT], (int)code);
	return spx_str_new(s.p + a, (size_t)(e - a));
}

/* string_to_i64: true and *out when s is `-`? digits+ within range (src/rt/num.c). */
SPX_RT bool
spx_parse_i64(spx_view s, int64_t *out)
{
	return rt_parse_i64(s.p, s.n, out);   /* src/rt/num.c */
}

SPX_RT spx_str
spx_trim(spx_view s)
{
	size_t a = 0, n = rt_trim(s.p, s.n, &a);   /* src/rt/text.c */
	return spx_str_new(s.p + a, n);
}

SPX_RT int64_t
spx_string_byte_at(spx_view s, int64_t i)
{
	if (i < 0 || (uint64_t)i >= s.n)
		spx_fail(rt_domain_ids[RT_DOM_TEXT], RT_TEXT_RANGE);
	return s.p[i];
}

SPX_RT spx_view
spx_byte_range(spx_view s, uint64_t a, uint64_t e)
{
	if (a > e || e > s.n)
		spx_fail(rt_domain_ids[RT_DOM_BYTEBUF], RT_BYTEBUF_INDEX);
	spx_view r = { s.p + a, (size_t)(e - a) };
	return r;
}

SPX_RT spx_str
spx_bytes_zeroed(uint64_t n)
{
	if (n > ((uint64_t)1 << 26))
		spx_fail(rt_domain_ids[RT_DOM_BYTEBUF], RT_BYTEBUF_INDEX);
	spx_str b = { spx_zalloc((size_t)n), (size_t)n };
	return b;
}

/* bytes_set consumes the buffer. */
SPX_RT spx_str
spx_bytes_set(spx_str b, uint64_t i, uint8_t v)
{
	if (i >= b.n)
		spx_fail(rt_domain_ids[RT_DOM_BYTEBUF], RT_BYTEBUF_INDEX);
	b.p[i] = v;
	return b;
}

/* The byte-buffer v2 writes (interp/builtins_rt.c bytes_set_wide): the whole
 * interval is checked before any store; source bytes past the end read 0. */
SPX_RT spx_str
spx_bytes_set_run(spx_str b, uint64_t i, uint64_t width, const uint8_t *bytes, spx_view src, uint64_t from)
{
	if (rt_bytes_write(b.p, b.n, i, width, bytes, src.p, src.n, from))   /* src/rt/text.c */
		spx_fail(rt_domain_ids[RT_DOM_BYTEBUF], RT_BYTEBUF_INDEX);
	return b;
}

SPX_RT spx_str
spx_bytes_set5(spx_str b, uint64_t i, uint8_t v0, uint8_t v1, uint8_t v2, uint8_t v3, uint8_t v4)
{
	uint8_t v[5] = { v0, v1, v2, v3, v4 };
	spx_view none = { 0, 0 };
	return spx_bytes_set_run(b, i, 5, v, none, 0);
}

SPX_RT spx_str
spx_bytes_set1_or5(spx_str b, uint64_t i, uint8_t one, spx_view src, uint64_t sel)
{
	uint64_t width, from;
	rt_bytes_selector(sel, false, &width, &from);
	return spx_bytes_set_run(b, i, width, width == 1 ? &one : 0, src, from);
}

SPX_RT spx_str
spx_bytes_set1_or6_or48(spx_str b, uint64_t i, uint8_t one, spx_view src, uint64_t sel)
{
	uint64_t width, from;
	rt_bytes_selector(sel, true, &width, &from);
	return spx_bytes_set_run(b, i, width, width == 1 ? &one : 0, src, from);
}

/* string_format pieces */
SPX_RT void
spx_fmt_i64(spx_buf *b, int64_t v)
{
	char buf[32];
	char *p = rt_decimal(buf, v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v, v < 0);
	spx_buf_put(b, p, (size_t)(buf + 32 - p));
}

SPX_RT void
spx_fmt_u64(spx_buf *b, uint64_t v)
{
	char buf[32];
	char *p = rt_decimal(buf, v, false);
	spx_buf_put(b, p, (size_t)(buf + 32 - p));
}

SPX_RT spx_str
spx_fmt_done(spx_buf *b)
{
	spx_str s = { (uint8_t *)b->p, b->n };
	return s;
}

/* conversions (semaprax.convert.v1: 1 out of range, 2 NaN) */
SPX_RT int64_t
spx_i64_from_f64(double d)
{
	int64_t v = 0;
	uint32_t code = rt_i64_from_f64(d, &v);
	if (code)
		spx_fail(rt_domain_ids[RT_DOM_CONVERT], (int)code);
	return v;
}

SPX_RT uint64_t
spx_usize_from_i64(int64_t v)
{
	if (rt_usize_from_i64(v))
		spx_fail(rt_domain_ids[RT_DOM_CONVERT], RT_CONVERT_RANGE);
	return (uint64_t)v;
}

SPX_RT int64_t
spx_i64_from_usize(uint64_t v)
{
	if (rt_i64_from_usize(v))
		spx_fail(rt_domain_ids[RT_DOM_CONVERT], RT_CONVERT_RANGE);
	return (int64_t)v;
}

SPX_RT uint8_t
spx_u8_from_i64(int64_t v)
{
	if (rt_u8_from_i64(v))
		spx_fail(rt_domain_ids[RT_DOM_CONVERT], RT_CONVERT_RANGE);
	return (uint8_t)v;
}

SPX_RT uint32_t
spx_char_from_i64(int64_t v)
{
	if (!rt_utf8_scalar(v))
		spx_fail(rt_domain_ids[RT_DOM_CONVERT], RT_CONVERT_RANGE);
	return (uint32_t)v;
}

SPX_RT spx_view
spx_arg(uint64_t i)
{
	if (i >= (uint64_t)spx_argc)
		spx_fail(rt_domain_ids[RT_DOM_CMDIN], RT_CMDIN_ARG_INDEX);
	spx_view v = { (const uint8_t *)spx_argv[i], strlen(spx_argv[i]) };
	return v;
}
