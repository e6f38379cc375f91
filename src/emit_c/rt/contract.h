/* ---- SEMAPRAX native runtime: contract failure reports (LANGUAGE.md §4.7, §0.8) ---- */
/*
 * A false clause prints TOOLCHAIN.md §1.3's line, then the two detail
 * lines the interpreter reports in its `--json` outcome (src/interp/detail.c):
 *
 *   SEMAPRAX contract failure: requires in divide: right != 0
 *     contract: requires right != 0 in calculator.divide
 *     arguments: left = 1, right = 0
 *
 * and exits 70 (RT_EXIT_CONTRACT).  Values render as source literals with
 * their width suffix (a non-finite float as `inf`, `-inf`, `NaN`); owned and
 * borrowed data by kind and length, never its bytes (`<string 3 bytes>`,
 * `<str 2 bytes>`, `<Bytes 16 bytes>`, `<Slice<u8> 3 bytes>`), collections
 * by kind and count (spx_cf_count), a parameter moved away as `<moved>` (the
 * emitter's spx_mv_<k> flag: src/emit_c/emit.c).  Integers and
 * floats print through the shared runtime (rt_decimal, rt_float_text:
 * src/rt/num.c), which the formatter and the interpreter's details use too.
 */

SPX_RT void
spx_cf_put(spx_buf *b, const char *s)
{
	spx_buf_put(b, s, strlen(s));
}

SPX_RT void
spx_cf_int(spx_buf *b, int64_t v, const char *suffix)
{
	char t[32];
	char *p = rt_decimal(t, v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v, v < 0);
	spx_buf_put(b, p, (size_t)(t + sizeof t - p));
	spx_cf_put(b, suffix);
}

SPX_RT void
spx_cf_uint(spx_buf *b, uint64_t v, const char *suffix)
{
	char t[32];
	char *p = rt_decimal(t, v, false);
	spx_buf_put(b, p, (size_t)(t + sizeof t - p));
	spx_cf_put(b, suffix);
}

SPX_RT void
spx_cf_char(spx_buf *b, uint32_t c)
{
	char t[16];
	spx_buf_put(b, t, rt_char_literal(t, c));
}

SPX_RT void
spx_cf_string(spx_buf *b, spx_str s)
{
	char t[64];
	if (!s.p) {
		spx_cf_put(b, "<moved>");   /* every live string owns an allocation */
		return;
	}
	snprintf(t, sizeof t, "<string %zu bytes>", s.n);
	spx_cf_put(b, t);
}

/* An owned Bytes or StdinReader: a moved one is all zero (core.h); by kind
 * and length when sized (a parameter declared Bytes), else `<data>`. */
SPX_RT void
spx_cf_bytes(spx_buf *b, spx_str s, bool sized)
{
	char t[64];
	if (!s.p) {
		spx_cf_put(b, "<moved>");
		return;
	}
	if (!sized) {
		spx_cf_put(b, "<data>");
		return;
	}
	snprintf(t, sizeof t, "<Bytes %zu bytes>", s.n);
	spx_cf_put(b, t);
}

/* A borrowed str or Slice<u8>: its kind and length, never its bytes. */
SPX_RT void
spx_cf_view(spx_buf *b, const char *kind, spx_view s)
{
	char t[64];
	snprintf(t, sizeof t, "<%s %zu bytes>", kind, s.n);
	spx_cf_put(b, t);
}

/* A collection by kind and count: `<Vec<i64> 3 items>`, `<Map<string, i64> 2 entries>`. */
SPX_RT void
spx_cf_count(spx_buf *b, const char *kind, size_t n, const char *unit)
{
	spx_cf_put(b, kind);
	spx_cf_put(b, " ");
	spx_cf_uint(b, n, unit);
}

SPX_RT void
spx_cf_float(spx_buf *b, double v, bool f32)
{
	char t[352];
	spx_buf_put(b, t, rt_float_text(t, v, f32));
}

/* Prints the report built in b and fails with status 70. */
__attribute__((cold, noinline)) _Noreturn SPX_RT void
spx_contract_fail(spx_buf *b)
{
	spx_buf_put(b, "", 1);
	spx_die(RT_EXIT_CONTRACT, b->p);
}
