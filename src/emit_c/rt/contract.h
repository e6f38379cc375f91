/* ---- SEMAPRAX native runtime: contract failure reports (LANGUAGE.md §4.7, §0.8) ---- */
/*
 * A false clause prints TOOLCHAIN.md §1.3's line, then the two detail
 * lines the interpreter reports in its `--json` outcome (src/interp/detail.c):
 *
 *   SEMAPRAX contract failure: requires in divide: right != 0
 *     contract: requires right != 0 in calculator.divide
 *     arguments: left = 1, right = 0
 *
 * and exits 70.  Values render as source literals with their width suffix;
 * owned and borrowed data by kind only.  Floats use the shortest digits
 * that round-trip, written positionally with `.0` when integral (the
 * formatter's src/fmt/fmt_lit.c, which this follows).
 */

SPX_RT void
spx_cf_put(spx_buf *b, const char *s)
{
	spx_buf_put(b, s, strlen(s));
}

SPX_RT void
spx_cf_int(spx_buf *b, int64_t v, const char *suffix)
{
	char t[48];
	snprintf(t, sizeof t, "%" PRId64 "%s", v, suffix);
	spx_cf_put(b, t);
}

SPX_RT void
spx_cf_uint(spx_buf *b, uint64_t v, const char *suffix)
{
	char t[48];
	snprintf(t, sizeof t, "%" PRIu64 "%s", v, suffix);
	spx_cf_put(b, t);
}

SPX_RT void
spx_cf_char(spx_buf *b, uint32_t c)
{
	char t[24];
	switch (c) {
	case 0: spx_cf_put(b, "'\\0'"); return;
	case '\t': spx_cf_put(b, "'\\t'"); return;
	case '\n': spx_cf_put(b, "'\\n'"); return;
	case '\r': spx_cf_put(b, "'\\r'"); return;
	case '\'': spx_cf_put(b, "'\\''"); return;
	case '\\': spx_cf_put(b, "'\\\\'"); return;
	default: break;
	}
	if (c >= 0x20 && c <= 0x7e)
		snprintf(t, sizeof t, "'%c'", (char)c);
	else
		snprintf(t, sizeof t, "'\\u{%" PRIx32 "}'", c);
	spx_cf_put(b, t);
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

SPX_RT bool
spx_cf_round_trips(const char *text, double v, bool f32)
{
	if (f32)
		return strtof(text, NULL) == (float)v;
	return strtod(text, NULL) == v;
}

/* "%e" text → its digits and decimal exponent; the digit count. */
SPX_RT int
spx_cf_sci(const char *text, char *d, int *exp)
{
	int n = 0;
	const char *s = text;
	for (; *s && *s != 'e'; s++)
		if (*s >= '0' && *s <= '9')
			d[n++] = *s;
	*exp = *s ? atoi(s + 1) : 0;
	return n;
}

/* d[0..n) plus delta (±1) in its last digit, renormalized; 0 when zero. */
SPX_RT int
spx_cf_bump(char *d, int n, int *exp, int delta)
{
	int i = n - 1;
	if (delta > 0) {
		while (i >= 0 && d[i] == '9')
			d[i--] = '0';
		if (i < 0) {
			d[0] = '1';
			(*exp)++;
			return n;
		}
		d[i]++;
		return n;
	}
	while (i >= 0 && d[i] == '0')
		d[i--] = '9';
	if (i < 0)
		return 0;
	d[i]--;
	if (d[0] == '0') {
		if (n == 1)
			return 0;
		memmove(d, d + 1, (size_t)n - 1);
		(*exp)--;
		return n - 1;
	}
	return n;
}

SPX_RT bool
spx_cf_neighbour(double v, bool f32, char *d, int *n, int *exp)
{
	for (int delta = 1; delta >= -1; delta -= 2) {
		char c[32], text[64];
		int e = *exp;
		memcpy(c, d, (size_t)*n);
		int m = spx_cf_bump(c, *n, &e, delta);
		if (m == 0)
			continue;
		snprintf(text, sizeof text, "%c%s%.*se%d", c[0], m > 1 ? "." : "", m - 1, c + 1, e);
		if (spx_cf_round_trips(text, v, f32)) {
			memcpy(d, c, (size_t)m);
			*n = m;
			*exp = e;
			return true;
		}
	}
	return false;
}

SPX_RT void
spx_cf_float(spx_buf *b, double v, bool f32)
{
	if (isnan(v) || isinf(v)) {
		spx_cf_put(b, isnan(v) ? "NaN" : v < 0 ? "-inf" : "inf");
	} else {
		if (signbit(v)) {
			spx_cf_put(b, "-");
			v = -v;
		}
		char d[32];
		int exp = 0, n = 0, maxp = f32 ? 9 : 17;
		memset(d, 0, sizeof d);
		for (int p = 1; p <= maxp; p++) {
			char text[64];
			snprintf(text, sizeof text, "%.*e", p - 1, v);
			n = spx_cf_sci(text, d, &exp);
			if (spx_cf_round_trips(text, v, f32) || (p < maxp && spx_cf_neighbour(v, f32, d, &n, &exp)))
				break;
		}
		while (n > 1 && d[n - 1] == '0')
			n--;
		if (exp < 0) {
			spx_cf_put(b, "0.");
			for (int i = 0; i < -exp - 1; i++)
				spx_cf_put(b, "0");
			spx_buf_put(b, d, (size_t)n);
		} else if (n <= exp + 1) {
			spx_buf_put(b, d, (size_t)n);
			for (int i = n; i < exp + 1; i++)
				spx_cf_put(b, "0");
			spx_cf_put(b, ".0");
		} else {
			spx_buf_put(b, d, (size_t)exp + 1);
			spx_cf_put(b, ".");
			spx_buf_put(b, d + exp + 1, (size_t)(n - exp - 1));
		}
	}
	if (f32)
		spx_cf_put(b, "f32");
}

/* Prints the report built in b and fails with status 70. */
__attribute__((cold, noinline)) _Noreturn SPX_RT void
spx_contract_fail(spx_buf *b)
{
	spx_buf_put(b, "", 1);
	spx_die(70, b->p);
}
