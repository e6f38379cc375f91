/*
 * progen.c — random program generator for the lane-agreement test
 * (tests/random-test.sh, issue 11 §5).
 *
 * Usage: progen [--b102] [--no-stdout] SEED > out.spx
 *
 * Writes one well-typed, terminating SEMAPRAX program that `semaprax check`
 * accepts.  The same arguments always produce the same bytes (a private
 * splitmix64 PRNG, never rand()).  The program is a list of "features"
 * chosen at random — typed scalar functions built from a random expression
 * generator (i64/i32/u8/usize/f64/bool arithmetic, comparisons, matches,
 * bounded while/for loops, statement ifs, contracts), and templates with
 * random constants and shapes for records and `with`, variants and
 * exhaustive matches (guards, or-patterns, renamed and ignored payloads),
 * Option/Result and `?`, generics, strings, bytes, Vec/Map/Set, Box trees,
 * closures and function values, classes with overriding methods.  `main`
 * folds every feature's i64 result into a checksum and may print progress
 * lines on stdout.  Loops have literal trip counts and calls only reach
 * earlier functions (plus one recursion on a shrinking tree), so every
 * program terminates; it may still fail at run time (overflow, division by
 * zero, a violated contract, an index out of range) — the lanes must then
 * agree on the failure.
 *
 * --b102 also emits the shapes the native lane is known to reject today
 * with SPX-B102 (string builtins applied to literal or call temporaries);
 * without it those shapes are avoided.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ==== output buffers ====================================================== */

typedef struct Buf {
	char *p;
	size_t n, cap;
} Buf;

static void bput(Buf *b, const char *s, size_t len)
{
	if (b->n + len + 1 > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 1024;
		while (cap < b->n + len + 1)
			cap *= 2;
		char *p = realloc(b->p, cap);
		if (!p) {
			fputs("progen: out of memory\n", stderr);
			exit(2);
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->n, s, len);
	b->n += len;
	b->p[b->n] = 0;
}

static void bp(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void bp(Buf *b, const char *fmt, ...)
{
	char tmp[4096];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof tmp) {
		fputs("progen: fragment too long\n", stderr);
		exit(2);
	}
	bput(b, tmp, (size_t)n);
}

static void bcat(Buf *b, const Buf *s)
{
	if (s->n)
		bput(b, s->p, s->n);
}

static void bfree(Buf *b)
{
	free(b->p);
	b->p = NULL;
	b->n = b->cap = 0;
}

/* ==== PRNG ================================================================ */

static uint64_t rng_state;

static uint64_t rnext(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int rnd(int n) /* 0 .. n-1 */
{
	return n <= 1 ? 0 : (int)(rnext() % (uint64_t)n);
}

static int chance(int pct)
{
	return rnd(100) < pct;
}

static int opt_b102;
static int opt_stdout = 1;

/* ==== scalar types and scopes ============================================= */

enum { T_I64, T_I32, T_U8, T_USIZE, T_F64, T_BOOL, NTY };
static const char *const ty_name[NTY] = { "i64", "i32", "u8", "usize", "f64", "bool" };

/* a bounded copy of a name (no truncation warnings to silence) */
static void copy_name(char *dst, const char *src, size_t cap)
{
	size_t i = 0;
	for (; src[i] && i + 1 < cap; i++)
		dst[i] = src[i];
	dst[i] = 0;
}

static int is_int(int t)
{
	return t == T_I64 || t == T_I32 || t == T_U8 || t == T_USIZE;
}

static int is_signed(int t)
{
	return t == T_I64 || t == T_I32 || t == T_F64;
}

typedef struct Var {
	char name[24];
	int ty;
	int assignable; /* a `let mut` the generator may reassign */
} Var;

#define MAX_VARS 128
static Var vars[MAX_VARS];
static int nvars;
static int uniq; /* fresh-name counter */

static void push_var(const char *name, int ty, int assignable)
{
	if (nvars >= MAX_VARS)
		return;
	copy_name(vars[nvars].name, name, sizeof vars[nvars].name);
	vars[nvars].ty = ty;
	vars[nvars].assignable = assignable;
	nvars++;
}

static const char *fresh(const char *prefix, char *buf, size_t cap)
{
	snprintf(buf, cap, "%s%d", prefix, uniq++);
	return buf;
}

/* scalar functions callable from later code */
typedef struct Fn {
	char name[24];
	int np;
	int pty[4];
	int ret;
} Fn;

#define MAX_FNS 64
static Fn fns[MAX_FNS];
static int nfns;

/* calls main folds into its checksum: i64 expressions */
#define MAX_CALLS 96
static char *calls[MAX_CALLS];
static int ncalls;

static void add_call(const Buf *b)
{
	if (ncalls < MAX_CALLS)
		calls[ncalls++] = strdup(b->p);
}

static Buf decls; /* type declarations */
static Buf funcs; /* functions */

/* ==== literals ============================================================ */

static void lit(Buf *b, int t)
{
	switch (t) {
	case T_I64: {
		long long v = rnd(40);
		if (chance(8))
			v = 100 + rnd(100000);
		if (chance(1))
			v = 9223372036854775807LL;
		if (chance(25))
			bp(b, "(-%lld)", v);
		else
			bp(b, "%lld", v);
		break;
	}
	case T_I32: {
		int v = rnd(30);
		if (chance(10))
			v = 100 + rnd(30000);
		if (chance(1))
			v = 2147483647;
		if (chance(20))
			bp(b, "(-%di32)", v);
		else
			bp(b, "%di32", v);
		break;
	}
	case T_U8:
		bp(b, "%du8", chance(85) ? rnd(20) : 200 + rnd(56));
		break;
	case T_USIZE:
		bp(b, "%dusize", chance(90) ? rnd(25) : 1000 + rnd(100000));
		break;
	case T_F64: {
		static const char *const fl[] = { "0.0", "1.5", "0.25", "3.0", "2.75", "100.125", "0.1", "7.0" };
		if (chance(20))
			bp(b, "(-%s)", fl[rnd(8)]);
		else
			bp(b, "%s", fl[rnd(8)]);
		break;
	}
	default:
		bp(b, "%s", chance(50) ? "true" : "false");
	}
}

static void nonzero_lit(Buf *b, int t)
{
	int v = 1 + rnd(9);
	switch (t) {
	case T_I64:
		if (chance(20))
			bp(b, "(-%d)", v);
		else
			bp(b, "%d", v);
		break;
	case T_I32:
		bp(b, "%di32", v);
		break;
	case T_U8:
		bp(b, "%du8", v);
		break;
	case T_USIZE:
		bp(b, "%dusize", v);
		break;
	default:
		bp(b, "%d.5", v);
	}
}

/* ==== expressions ========================================================= */

static void expr(Buf *b, int t, int depth);

static int pick_var(int t, int want_assignable)
{
	int cand[MAX_VARS], n = 0;
	for (int i = 0; i < nvars; i++)
		if (vars[i].ty == t && (!want_assignable || vars[i].assignable))
			cand[n++] = i;
	return n ? cand[rnd(n)] : -1;
}

static void leaf(Buf *b, int t)
{
	int v = chance(70) ? pick_var(t, 0) : -1;
	if (v >= 0)
		bp(b, "%s", vars[v].name);
	else
		lit(b, t);
}

/* an i64 that is usually in 0..=199, so u8/usize conversions mostly succeed */
static void in_range_i64(Buf *b, int depth)
{
	if (chance(85)) {
		bp(b, "(");
		expr(b, T_I64, depth);
		bp(b, " %% 100 + 100)");
	} else {
		expr(b, T_I64, depth);
	}
}

static void conversion(Buf *b, int t, int depth)
{
	switch (t) {
	case T_I64:
		switch (rnd(5)) {
		case 0: bp(b, "i64_from_i32("); expr(b, T_I32, depth); break;
		case 1: bp(b, "i64_from_u8("); expr(b, T_U8, depth); break;
		case 2: bp(b, "i64_from_usize("); expr(b, T_USIZE, depth); break;
		case 3:
			if (chance(50)) {
				bp(b, "i64_from_f64(");
				expr(b, T_F64, depth);
				break;
			}
			/* fallthrough */
		default: bp(b, "string_len(string_from_i64("); expr(b, T_I64, depth); bp(b, ")"); break;
		}
		bp(b, ")");
		return;
	case T_U8:
	case T_USIZE:
		if (t == T_USIZE && chance(40)) {
			bp(b, "usize_from_u8(");
			expr(b, T_U8, depth);
			bp(b, ")");
			return;
		}
		bp(b, "%s_from_i64(", ty_name[t]);
		in_range_i64(b, depth);
		bp(b, ")");
		return;
	case T_F64:
		bp(b, "f64_from_i64(");
		expr(b, T_I64, depth);
		bp(b, ")");
		return;
	default:
		leaf(b, t);
	}
}

static void call_fn(Buf *b, int t, int depth)
{
	int cand[MAX_FNS], n = 0;
	for (int i = 0; i < nfns; i++)
		if (fns[i].ret == t)
			cand[n++] = i;
	if (!n) {
		leaf(b, t);
		return;
	}
	const Fn *f = &fns[cand[rnd(n)]];
	bp(b, "%s(", f->name);
	for (int i = 0; i < f->np; i++) {
		if (i)
			bp(b, ", ");
		expr(b, f->pty[i], depth - 1);
	}
	bp(b, ")");
}

static void int_pattern(Buf *b, int t, int v)
{
	const char *suf = t == T_I32 ? "i32" : t == T_U8 ? "u8" : t == T_USIZE ? "usize" : "";
	if (v < 0 && (t == T_I64 || t == T_I32))
		bp(b, "-%d%s", -v, suf);
	else
		bp(b, "%d%s", v < 0 ? -v : v, suf);
}

/* `match scrutinee { lit => e, a | b => e, k if k > c => e, _ => e, }` */
static void match_int(Buf *b, int t, int depth)
{
	static const int sts[] = { T_I64, T_I32, T_U8 };
	int st = sts[rnd(3)];
	bp(b, "match ");
	expr(b, st, depth - 1);
	bp(b, " { ");
	int used[8], nused = 0;
	int arms = 1 + rnd(3);
	for (int a = 0; a < arms; a++) {
		int v = rnd(6) - (st == T_U8 ? 0 : 2);
		int dup = 0;
		for (int i = 0; i < nused; i++)
			dup |= used[i] == v;
		if (dup)
			continue;
		used[nused++] = v;
		int_pattern(b, st, v);
		if (chance(30)) {
			int w = v + 7;
			used[nused++] = w;
			bp(b, " | ");
			int_pattern(b, st, w);
		}
		bp(b, " => ");
		expr(b, t, depth - 1);
		bp(b, ", ");
	}
	if (chance(40)) {
		char k[24];
		fresh("k", k, sizeof k);
		bp(b, "%s if %s > ", k, k);
		int_pattern(b, st, 3);
		bp(b, " => ");
		push_var(k, st, 0);
		expr(b, t, depth - 1);
		nvars--;
		bp(b, ", ");
	}
	bp(b, "_ => ");
	expr(b, t, depth - 1);
	bp(b, ", }");
}

static void expr(Buf *b, int t, int depth)
{
	if (depth <= 0 || chance(25)) {
		leaf(b, t);
		return;
	}
	int r = rnd(20);
	if (t == T_BOOL) {
		if (r < 9) {
			static const char *const cmp[] = { "==", "!=", "<", "<=", ">", ">=" };
			int ot = rnd(NTY - 1);
			bp(b, "(");
			expr(b, ot, depth - 1);
			bp(b, " %s ", cmp[rnd(6)]);
			if (chance(40))
				lit(b, ot);
			else
				expr(b, ot, depth - 1);
			bp(b, ")");
		} else if (r < 13) {
			bp(b, "(");
			expr(b, T_BOOL, depth - 1);
			bp(b, chance(50) ? " && " : " || ");
			expr(b, T_BOOL, depth - 1);
			bp(b, ")");
		} else if (r < 15) {
			bp(b, "!");
			bp(b, "(");
			expr(b, T_BOOL, depth - 1);
			bp(b, ")");
		} else if (r < 17) {
			call_fn(b, t, depth);
		} else {
			leaf(b, t);
		}
		return;
	}
	if (r < 10) {
		/* + - * / % ; u8/usize subtraction and multiplication are rarer */
		int op = rnd(10);
		const char *ops;
		if (op < 4)
			ops = "+";
		else if (op < 6)
			ops = (!is_signed(t) && chance(60)) ? "+" : "-";
		else if (op < 8)
			ops = (t == T_U8 && chance(60)) ? "+" : "*";
		else if (op < 9)
			ops = "/";
		else
			ops = t == T_F64 ? "/" : "%";
		bp(b, "(");
		expr(b, t, depth - 1);
		bp(b, " %s ", ops);
		if (ops[0] == '/' || ops[0] == '%') {
			if (chance(90))
				nonzero_lit(b, t);
			else
				expr(b, t, depth - 1);
		} else if (t == T_U8 || ops[0] == '*') {
			/* keep products and bytes small: mostly a literal */
			if (chance(70))
				lit(b, t);
			else
				expr(b, t, depth - 1);
		} else {
			expr(b, t, depth - 1);
		}
		bp(b, ")");
	} else if (r < 11 && is_signed(t)) {
		bp(b, "(-");
		expr(b, t, depth - 1);
		bp(b, ")");
	} else if (r < 13) {
		conversion(b, t, depth - 1);
	} else if (r < 15) {
		bp(b, "(if ");
		expr(b, T_BOOL, depth - 1);
		bp(b, " { ");
		expr(b, t, depth - 1);
		bp(b, " } else { ");
		expr(b, t, depth - 1);
		bp(b, " })");
	} else if (r < 17) {
		call_fn(b, t, depth);
	} else if (r < 18 && t != T_F64) {
		bp(b, "(");
		match_int(b, t, depth);
		bp(b, ")");
	} else {
		leaf(b, t);
	}
}

/* an i64 view of a scalar expression (for checksums) */
static void to_i64(Buf *b, int t, const char *e)
{
	switch (t) {
	case T_I64: bp(b, "%s", e); break;
	case T_I32: bp(b, "i64_from_i32(%s)", e); break;
	case T_U8: bp(b, "i64_from_u8(%s)", e); break;
	case T_USIZE: bp(b, "i64_from_usize(%s)", e); break;
	case T_BOOL: bp(b, "(if %s { 1 } else { 0 })", e); break;
	default:
		bp(b, "(if %s > -1000000.0 && %s < 1000000.0 { i64_from_f64(%s) } else { 7 })", e, e, e);
	}
}

static int rand_ty(void)
{
	static const int w[] = { T_I64, T_I64, T_I64, T_I32, T_U8, T_USIZE, T_F64, T_BOOL };
	return w[rnd(8)];
}

/* ==== statements (bodies of scalar functions) ============================= */

static void indent(Buf *b, int n)
{
	for (int i = 0; i < n; i++)
		bp(b, "    ");
}

static void stmt(Buf *b, int ind, int depth, int budget);

static void assign_stmt(Buf *b, int ind, int depth)
{
	int v = pick_var(rand_ty(), 1);
	if (v < 0) {
		for (int i = 0; i < nvars && v < 0; i++)
			if (vars[i].assignable)
				v = i;
	}
	if (v < 0)
		return;
	indent(b, ind);
	bp(b, "%s = ", vars[v].name);
	if (is_int(vars[v].ty) && vars[v].ty != T_U8 && chance(60)) {
		/* keep accumulators bounded */
		bp(b, "(%s + ", vars[v].name);
		expr(b, vars[v].ty, depth);
		bp(b, ") %% ");
		nonzero_lit(b, vars[v].ty);
	} else {
		expr(b, vars[v].ty, depth);
	}
	bp(b, ";\n");
}

static void stmt(Buf *b, int ind, int depth, int budget)
{
	int r = rnd(10);
	char name[24];
	if (r < 3 || budget <= 0) {
		int t = rand_ty();
		int mut = chance(50);
		fresh(mut ? "m" : "x", name, sizeof name);
		indent(b, ind);
		bp(b, "let %s%s", mut ? "mut " : "", name);
		if (chance(50))
			bp(b, ": %s", ty_name[t]);
		bp(b, " = ");
		expr(b, t, depth);
		bp(b, ";\n");
		push_var(name, t, mut);
	} else if (r < 5) {
		assign_stmt(b, ind, depth);
	} else if (r < 7) {
		/* bounded while loop */
		int saved = nvars;
		fresh("c", name, sizeof name);
		indent(b, ind);
		bp(b, "let mut %s = 0;\n", name);
		indent(b, ind);
		bp(b, "while %s < %d {\n", name, 1 + rnd(6));
		push_var(name, T_I64, 0);
		int n = 1 + rnd(3);
		for (int i = 0; i < n; i++)
			stmt(b, ind + 1, depth - 1, budget - 3);
		indent(b, ind + 1);
		bp(b, "%s = %s + 1;\n", name, name);
		indent(b, ind + 1);
		bp(b, "0\n");
		indent(b, ind);
		bp(b, "}\n");
		nvars = saved;
		push_var(name, T_I64, 0);
	} else if (r < 8) {
		/* for over a Vec<i64> */
		char vname[24], item[24];
		fresh("vs", vname, sizeof vname);
		fresh("it", item, sizeof item);
		int n = 1 + rnd(3);
		indent(b, ind);
		bp(b, "let mut %s = vec_with_capacity<i64>(%dusize);\n", vname, n + (chance(96) ? rnd(2) : -1));
		for (int i = 0; i < n; i++) {
			indent(b, ind);
			bp(b, "%s = vec_push<i64>(%s, ", vname, vname);
			expr(b, T_I64, depth - 1);
			bp(b, ");\n");
		}
		int saved = nvars;
		indent(b, ind);
		bp(b, "for %s in %s {\n", item, vname);
		push_var(item, T_I64, 0);
		int m = 1 + rnd(2);
		for (int i = 0; i < m; i++)
			stmt(b, ind + 1, depth - 1, budget - 3);
		indent(b, ind + 1);
		bp(b, "0\n");
		indent(b, ind);
		bp(b, "}\n");
		nvars = saved;
	} else {
		/* statement if */
		int saved = nvars;
		indent(b, ind);
		bp(b, "if ");
		expr(b, T_BOOL, depth - 1);
		bp(b, " {\n");
		stmt(b, ind + 1, depth - 1, budget - 2);
		nvars = saved;
		indent(b, ind);
		if (chance(50)) {
			bp(b, "} else {\n");
			stmt(b, ind + 1, depth - 1, budget - 2);
			nvars = saved;
			indent(b, ind);
		}
		bp(b, "}\n");
	}
}

/* ==== features ============================================================ */

static void id_line(Buf *b, int ind, const char *id)
{
	indent(b, ind);
	bp(b, "@id(\"pg.%s\")\n", id);
}

/* a typed scalar function with random parameters, body and contracts */
static void feat_scalar(void)
{
	if (nfns >= MAX_FNS)
		return;
	Fn *f = &fns[nfns];
	fresh("f", f->name, sizeof f->name);
	f->np = rnd(4);
	for (int i = 0; i < f->np; i++)
		f->pty[i] = rand_ty();
	f->ret = rand_ty();
	Buf b = { 0 };
	id_line(&b, 0, f->name);
	bp(&b, "fn %s(", f->name);
	nvars = 0;
	for (int i = 0; i < f->np; i++) {
		char pn[24];
		snprintf(pn, sizeof pn, "p%d", i);
		bp(&b, "%s%s: %s", i ? ", " : "", pn, ty_name[f->pty[i]]);
		push_var(pn, f->pty[i], 0);
	}
	bp(&b, ") -> %s\n", ty_name[f->ret]);
	if (f->np && chance(30)) {
		/* a precondition, usually true: p >= small negative bound */
		int i = rnd(f->np);
		bp(&b, "    requires ");
		if (chance(90) && f->pty[i] != T_BOOL) {
			bp(&b, "p%d >= ", i);
			if (f->pty[i] == T_I64 || f->pty[i] == T_I32)
				int_pattern(&b, f->pty[i], -1000);
			else if (f->pty[i] == T_F64)
				bp(&b, "(-1000000.0)");
			else
				bp(&b, "0%s", f->pty[i] == T_U8 ? "u8" : "usize");
		} else {
			expr(&b, T_BOOL, 2);
		}
		bp(&b, "\n");
	}
	if (chance(25)) {
		bp(&b, "    ensures ");
		if (chance(85) && f->ret != T_F64)
			bp(&b, "result == result");
		else {
			bp(&b, "result %s ", (chance(50) || f->ret == T_BOOL) ? "!=" : "<=");
			lit(&b, f->ret);
		}
		bp(&b, "\n");
	}
	bp(&b, "{\n");
	int n = rnd(5);
	for (int i = 0; i < n; i++)
		stmt(&b, 1, 3, 6);
	indent(&b, 1);
	expr(&b, f->ret, 3);
	bp(&b, "\n}\n\n");
	bcat(&funcs, &b);
	bfree(&b);
	/* the call main folds in */
	Buf c = { 0 }, e = { 0 };
	nvars = 0;
	bp(&e, "%s(", f->name);
	for (int i = 0; i < f->np; i++) {
		if (i)
			bp(&e, ", ");
		expr(&e, f->pty[i], 1);
	}
	bp(&e, ")");
	to_i64(&c, f->ret, e.p);
	add_call(&c);
	bfree(&c);
	bfree(&e);
	nfns++;
}

/* a Copy record, `with` updates, field stores, maybe an invariant */
static void feat_record(void)
{
	char r[24], fn[24];
	fresh("Rec", r, sizeof r);
	fresh("rf", fn, sizeof fn);
	int nf = 2 + rnd(3);
	int fty[5];
	fty[0] = T_I64;
	fty[1] = T_I64;
	for (int i = 2; i < nf; i++)
		fty[i] = rand_ty();
	int inv = chance(40);
	id_line(&decls, 0, r);
	bp(&decls, "record %s {\n", r);
	for (int i = 0; i < nf; i++) {
		char id[48];
		snprintf(id, sizeof id, "%s.a%d", r, i);
		id_line(&decls, 1, id);
		bp(&decls, "    a%d: %s,\n", i, ty_name[fty[i]]);
	}
	bp(&decls, "}\n");
	if (inv)
		bp(&decls, "    requires a0 <= a1\n");
	bp(&decls, "\n");
	id_line(&funcs, 0, fn);
	bp(&funcs, "fn %s(p: %s, d: i64) -> i64\n{\n", fn, r);
	nvars = 0;
	push_var("d", T_I64, 0);
	push_var("p.a0", T_I64, 0);
	push_var("p.a1", T_I64, 0);
	bp(&funcs, "    let q = p with { a1: p.a1 + (");
	expr(&funcs, T_I64, 2);
	bp(&funcs, ") %% 10 + 10 };\n    let mut w = q;\n    w.a0 = ");
	if (inv && chance(70))
		bp(&funcs, "w.a0 - 1");
	else
		expr(&funcs, T_I64, 2);
	bp(&funcs, ";\n");
	for (int i = 2; i < nf; i++) {
		char fld[24];
		snprintf(fld, sizeof fld, "q.a%d", i);
		push_var(fld, fty[i], 0);
	}
	/* a record pattern: each field bound, renamed or ignored (maybe all ignored) */
	bp(&funcs, "    let z = match w { %s {", r);
	int bound = -1;
	for (int i = 0; i < nf; i++) {
		int how = rnd(3);
		if (how == 0 && fty[i] == T_I64 && bound < 0) {
			bp(&funcs, "%s a%d", i ? "," : "", i);
			bound = i;
		} else {
			bp(&funcs, "%s a%d: _", i ? "," : "", i);
		}
	}
	if (bound >= 0)
		bp(&funcs, " } => a%d, };\n", bound);
	else
		bp(&funcs, " } => %d, };\n", rnd(9));
	bp(&funcs, "    let zb = match d > %d { true => z, _ => 0, };\n", rnd(20));
	bp(&funcs, "    zb + w.a0 * 3 + w.a1 + ");
	Buf t = { 0 }, e = { 0 };
	int ft = fty[rnd(nf)];
	expr(&e, ft, 2);
	to_i64(&t, ft, e.p);
	bp(&funcs, "%s\n}\n\n", t.p);
	bfree(&t);
	bfree(&e);
	nvars = 0;
	Buf c = { 0 };
	bp(&c, "%s(%s { ", fn, r);
	int order[5];
	for (int i = 0; i < nf; i++)
		order[i] = i;
	for (int i = nf - 1; i > 0; i--) {
		int j = rnd(i + 1), tmp = order[i];
		order[i] = order[j];
		order[j] = tmp;
	}
	for (int k = 0; k < nf; k++) {
		int i = order[k];
		bp(&c, "%sa%d: ", k ? ", " : "", i);
		if (i == 1 && inv && chance(85))
			bp(&c, "%d", 50 + rnd(50));
		else
			lit(&c, fty[i]);
	}
	bp(&c, " }, ");
	lit(&c, T_I64);
	bp(&c, ")");
	add_call(&c);
	bfree(&c);
}

/* a Copy variant and an exhaustive match over it */
static void feat_variant(void)
{
	char v[24], fn[24];
	fresh("Var", v, sizeof v);
	fresh("vf", fn, sizeof fn);
	int nc = 2 + rnd(4);
	int npay[6]; /* payload fields per case (0..2), all i64/bool */
	int pty[6][2];
	for (int i = 0; i < nc; i++) {
		npay[i] = rnd(3);
		for (int j = 0; j < npay[i]; j++)
			pty[i][j] = chance(75) ? T_I64 : T_BOOL;
	}
	id_line(&decls, 0, v);
	bp(&decls, "variant %s {\n", v);
	for (int i = 0; i < nc; i++) {
		char id[64]; /* v (< 24) + ".cN.fN" with two ints: gcc -O1 checks the bound */
		snprintf(id, sizeof id, "%s.c%d", v, i);
		id_line(&decls, 1, id);
		if (!npay[i]) {
			bp(&decls, "    C%d,\n", i);
			continue;
		}
		bp(&decls, "    C%d {\n", i);
		for (int j = 0; j < npay[i]; j++) {
			snprintf(id, sizeof id, "%s.c%d.f%d", v, i, j);
			id_line(&decls, 2, id);
			bp(&decls, "        fld%d: %s,\n", j, ty_name[pty[i][j]]);
		}
		bp(&decls, "    },\n");
	}
	bp(&decls, "}\n\n");

	id_line(&funcs, 0, fn);
	bp(&funcs, "fn %s(v: %s, k: i64) -> i64\n{\n    match v { ", fn, v);
	nvars = 0;
	push_var("k", T_I64, 0);
	int wild_from = chance(30) ? 1 + rnd(nc - 1) : nc; /* cases >= wild_from go to `_` */
	for (int i = 0; i < wild_from; i++) {
		/* or-pattern of consecutive payload-free cases */
		if (!npay[i] && i + 1 < wild_from && !npay[i + 1] && chance(60)) {
			bp(&funcs, "%s::C%d {} | %s::C%d {} => ", v, i, v, i + 1);
			expr(&funcs, T_I64, 2);
			bp(&funcs, ", ");
			i++;
			continue;
		}
		for (int guarded = chance(35); guarded >= 0; guarded--) {
			int saved = nvars;
			bp(&funcs, "%s::C%d {", v, i);
			char names[2][24];
			for (int j = 0; j < npay[i]; j++) {
				int how = rnd(3); /* 0 shorthand, 1 rename, 2 ignore */
				if (how == 0) {
					snprintf(names[j], sizeof names[j], "fld%d", j);
					bp(&funcs, "%s fld%d", j ? "," : "", j);
				} else if (how == 1) {
					fresh("b", names[j], sizeof names[j]);
					bp(&funcs, "%s fld%d: %s", j ? "," : "", j, names[j]);
				} else {
					names[j][0] = 0;
					bp(&funcs, "%s fld%d: _", j ? "," : "", j);
				}
				if (names[j][0])
					push_var(names[j], pty[i][j], 0);
			}
			bp(&funcs, npay[i] ? " }" : "}");
			if (guarded) {
				bp(&funcs, " if ");
				expr(&funcs, T_BOOL, 2);
			}
			bp(&funcs, " => ");
			expr(&funcs, T_I64, 2);
			bp(&funcs, ", ");
			nvars = saved;
		}
	}
	if (wild_from < nc) {
		bp(&funcs, "_ => ");
		expr(&funcs, T_I64, 2);
		bp(&funcs, ", ");
	}
	bp(&funcs, "}\n}\n\n");
	nvars = 0;
	for (int calls_n = 1 + rnd(2); calls_n > 0; calls_n--) {
		Buf c = { 0 };
		int i = rnd(nc);
		bp(&c, "%s(%s::C%d {", fn, v, i);
		for (int j = 0; j < npay[i]; j++) {
			bp(&c, "%s fld%d: ", j ? "," : "", j);
			lit(&c, pty[i][j]);
		}
		bp(&c, npay[i] ? " }, " : "}, ");
		lit(&c, T_I64);
		bp(&c, ")");
		add_call(&c);
		bfree(&c);
	}
}

/* a payload-free variant compared with == (B103 lifted) */
static void feat_enum_eq(void)
{
	char v[24], fn[24];
	fresh("Col", v, sizeof v);
	fresh("ef", fn, sizeof fn);
	id_line(&decls, 0, v);
	bp(&decls, "variant %s {\n", v);
	for (int i = 0; i < 3; i++) {
		char id[48];
		snprintf(id, sizeof id, "%s.k%d", v, i);
		id_line(&decls, 1, id);
		bp(&decls, "    K%d,\n", i);
	}
	bp(&decls, "}\n\n");
	id_line(&funcs, 0, fn);
	bp(&funcs, "fn %s(n: i64) -> i64\n{\n"
	       "    let a = if n %% 3 == 0 { %s::K0 {} } else { if n %% 3 == 1 { %s::K1 {} } else { %s::K2 {} } };\n"
	       "    let b = %s::K%d {};\n"
	       "    let z = %s::K0 {};\n"
	       "    if a == b { 10 } else { if a != z { 20 } else { 30 } }\n}\n\n",
	   fn, v, v, v, v, rnd(3), v);
	Buf c = { 0 };
	bp(&c, "%s(%d)", fn, rnd(10));
	add_call(&c);
	bfree(&c);
}

/* Option/Result producers and `?` chains */
static void feat_option(void)
{
	char half[24], q[24], get[24], res[24], sum[24], gr[24];
	fresh("oh", half, sizeof half);
	fresh("oq", q, sizeof q);
	fresh("og", get, sizeof get);
	fresh("rp", res, sizeof res);
	fresh("rs", sum, sizeof sum);
	fresh("rg", gr, sizeof gr);
	int m = 2 + rnd(3);
	id_line(&funcs, 0, half);
	bp(&funcs, "fn %s(n: i64) -> Option<i64>\n{\n    if n %% %d == 0 { Option<i64>::Some { value: n / %d + %d } } else { Option<i64>::None {} }\n}\n\n",
	   half, m, m, rnd(5));
	id_line(&funcs, 0, q);
	bp(&funcs, "fn %s(n: i64) -> Option<i64>\n%s{\n    let a = %s(n)?;\n    let b = %s(a)?;\n    Option<i64>::Some { value: a * 10 + b }\n}\n\n",
	   q, chance(30) ? "    ensures true\n" : "", half, half);
	id_line(&funcs, 0, get);
	if (chance(70))
		bp(&funcs, "fn %s(o: Option<i64>) -> i64\n{\n    match o { Option::Some { value } => value, Option::None {} => %d, }\n}\n\n",
		   get, -rnd(9));
	else
		bp(&funcs, "fn %s(o: Option<i64>) -> i64\n{\n    match o { Option::Some { value: _ } => %d, Option::None {} => %d, }\n}\n\n",
		   get, rnd(9), -rnd(9));
	int owned_err = chance(50);
	const char *et = owned_err ? "string" : "i64";
	id_line(&funcs, 0, res);
	if (owned_err)
		bp(&funcs, "fn %s(n: i64) -> Result<i64, string>\n{\n    if n < %d { Result<i64, string>::Err { error: string_from_i64(n) } } else { Result<i64, string>::Ok { value: n * 2 } }\n}\n\n",
		   res, rnd(10));
	else
		bp(&funcs, "fn %s(n: i64) -> Result<i64, i64>\n{\n    if n < %d { Result<i64, i64>::Err { error: n } } else { Result<i64, i64>::Ok { value: n * 2 } }\n}\n\n",
		   res, rnd(10));
	id_line(&funcs, 0, sum);
	bp(&funcs, "fn %s(a: i64, b: i64) -> Result<i64, %s>\n{\n", sum, et);
	/* `?` before any owned binding (T218, the reference's needs_drop rule) */
	bp(&funcs, "    let x = %s(a)?;\n    let y = %s(b)?;\n", res, res);
	if (owned_err)
		bp(&funcs, "    let keep = string_from_i64(a + b);\n");
	bp(&funcs, "    Result<i64, %s>::Ok { value: x + y%s }\n}\n\n", et, owned_err ? " + string_len(keep)" : "");
	id_line(&funcs, 0, gr);
	if (owned_err)
		bp(&funcs, "fn %s(r: own Result<i64, string>) -> i64\n{\n    match own r { Result::Ok { value } => value, Result::Err { error } => string_len(error) * 1000, }\n}\n\n", gr);
	else
		bp(&funcs, "fn %s(r: Result<i64, i64>) -> i64\n{\n    match r { Result::Ok { value } => value, Result::Err { error } => error * 1000, }\n}\n\n", gr);
	Buf c = { 0 };
	bp(&c, "%s(%s(%d)) + %s(%s(%d, %d))", get, q, rnd(40), gr, sum, rnd(20) - 3, rnd(20) - 3);
	add_call(&c);
	bfree(&c);
}

/* generic functions and a generic record, instantiated at several types */
static void feat_generic(void)
{
	char pick[24], same[24], pair[24], swap[24], use[24];
	fresh("gpick", pick, sizeof pick);
	fresh("gsame", same, sizeof same);
	fresh("GPair", pair, sizeof pair);
	fresh("gswap", swap, sizeof swap);
	fresh("guse", use, sizeof use);
	id_line(&decls, 0, pair);
	char id[48];
	bp(&decls, "record %s<A, B> {\n", pair);
	snprintf(id, sizeof id, "%s.left", pair);
	id_line(&decls, 1, id);
	bp(&decls, "    left: A,\n");
	snprintf(id, sizeof id, "%s.right", pair);
	id_line(&decls, 1, id);
	bp(&decls, "    right: B,\n}\n\n");
	id_line(&funcs, 0, pick);
	bp(&funcs, "fn %s<T>(a: T, b: T, first: bool) -> T\n{\n    if first { a } else { b }\n}\n\n", pick);
	id_line(&funcs, 0, same);
	bp(&funcs, "fn %s<T>(a: T, b: T) -> bool\n{\n    a == b\n}\n\n", same);
	id_line(&funcs, 0, swap);
	bp(&funcs, "fn %s<A, B>(p: %s<A, B>) -> %s<B, A>\n{\n    %s<B, A> { left: p.right, right: p.left }\n}\n\n",
	   swap, pair, pair, pair);
	int t1 = rand_ty(), t2 = rand_ty();
	id_line(&funcs, 0, use);
	bp(&funcs, "fn %s(n: i64) -> i64\n{\n", use);
	nvars = 0;
	push_var("n", T_I64, 0);
	Buf e1 = { 0 }, e2 = { 0 }, e3 = { 0 }, e4 = { 0 };
	bp(&e1, "%s<%s>(", pick, ty_name[t1]);
	expr(&e1, t1, 1);
	bp(&e1, ", ");
	expr(&e1, t1, 1);
	bp(&e1, ", n > %d)", rnd(10));
	bp(&funcs, "    let a = %s;\n", e1.p);
	bp(&e2, "%s<%s>(", same, ty_name[t2]);
	expr(&e2, t2, 1);
	bp(&e2, ", ");
	expr(&e2, t2, 1);
	bp(&e2, ")");
	bp(&funcs, "    let b = %s;\n", e2.p);
	bp(&funcs, "    let s = %s<string>(string_from_i64(n), string_from_i64(n + 1), n %% 2 == 0);\n", pick);
	bp(&funcs, "    let p = %s<string, %s>(%s<string, %s> { left: s, right: ", swap, ty_name[t1], pair, ty_name[t1]);
	bp(&funcs, "a });\n");
	bp(&funcs, "    let l = match own p { %s { left, right } => ", pair);
	to_i64(&e3, t1, "left");
	bp(&funcs, "%s + string_len(right), };\n", e3.p);
	to_i64(&e4, T_BOOL, "b");
	bp(&funcs, "    l + %s\n}\n\n", e4.p);
	bfree(&e1);
	bfree(&e2);
	bfree(&e3);
	bfree(&e4);
	Buf c = { 0 };
	bp(&c, "%s(%d)", use, rnd(20));
	add_call(&c);
	bfree(&c);
}

static const char *const words[] = { "ab", "pear", "x", "hello world", "  pad  ", "42", "-7", "banana", "", "a,b" };

static void str_lit(Buf *b)
{
	bp(b, "\"%s\"", words[rnd(10)]);
}

/* strings: a pool of owned strings built and measured at random */
static void feat_string(void)
{
	char fn[24];
	fresh("sf", fn, sizeof fn);
	id_line(&funcs, 0, fn);
	bp(&funcs, "fn %s(a: i64, t: string, u: borrow str) -> i64\n{\n", fn);
	/* live string variables: t, plus new ones */
	char live[16][24];
	int nlive = 0;
	snprintf(live[nlive++], 24, "t");
	bp(&funcs, "    let mut n = str_len_bytes(u);\n");
	int steps = 3 + rnd(6);
	for (int s = 0; s < steps; s++) {
		char nm[24];
		int r = rnd(12);
		const char *x = nlive ? live[rnd(nlive)] : NULL;
		if (r < 4 || !x) {
			fresh("s", nm, sizeof nm);
			switch (rnd(6)) {
			case 0:
				bp(&funcs, "    let %s = string_from_i64(a * %d);\n", nm, rnd(100) - 50);
				break;
			case 1:
				bp(&funcs, "    let %s = ", nm);
				str_lit(&funcs);
				bp(&funcs, ";\n");
				break;
			case 2:
				bp(&funcs, "    let %s = string_from_str(u);\n", nm);
				break;
			case 3:
				bp(&funcs, "    let %s = string_from_char(char_from_u8(%du8));\n", nm, 97 + rnd(26));
				break;
			case 4:
				if (x) {
					bp(&funcs, "    let %s = string_trim(%s);\n", nm, x);
					break;
				}
				/* fallthrough */
			default:
				bp(&funcs, "    let %s = string_from_usize(%dusize);\n", nm, rnd(1000));
			}
			if (nlive < 16)
				copy_name(live[nlive++], nm, 24);
		} else if (r < 9) {
			/* a measurement (borrows) */
			const char *y = live[rnd(nlive)];
			switch (rnd(9)) {
			case 0: bp(&funcs, "    n = n + string_len(%s);\n", x); break;
			case 1: bp(&funcs, "    n = n + string_len_chars(%s);\n", x); break;
			case 2: bp(&funcs, "    n = n + string_find(%s, %s, %d);\n", x, y, rnd(3)); break;
			case 3: bp(&funcs, "    n = n + string_compare(%s, %s);\n", x, y); break;
			case 4: bp(&funcs, "    if string_contains(%s, %s) { n = n + 3; }\n", x, y); break;
			case 5: bp(&funcs, "    if string_starts_with(%s, %s) && !string_is_empty(%s) { n = n + 5; }\n", x, y, y); break;
			case 6: bp(&funcs, "    if %s == %s || %s < %s { n = n + 7; }\n", x, y, x, y); break;
			case 7:
				bp(&funcs, "    n = n + match string_to_i64(%s) { Option::Some { value } => value %% 1000, Option::None {} => -1, };\n", x);
				break;
			default:
				bp(&funcs, "    if !string_is_empty(%s) { n = n + string_byte_at(%s, 0); }\n", x, x);
			}
		} else if (r < 10 && nlive >= 1) {
			/* a slice (borrows; may fail when out of range) */
			fresh("s", nm, sizeof nm);
			if (chance(92))
				bp(&funcs, "    let %s = string_slice(%s, 0, string_len(%s));\n", nm, x, x);
			else
				bp(&funcs, "    let %s = string_slice(%s, %d, %d);\n", nm, x, rnd(2), 1 + rnd(4));
			if (nlive < 16)
				copy_name(live[nlive++], nm, 24);
		} else {
			/* a consuming step: concat or format of one live string */
			int i = rnd(nlive);
			char used[24];
			copy_name(used, live[i], sizeof used);
			live[i][0] = 0;
			memmove(live[i], live[nlive - 1], 24);
			nlive--;
			fresh("s", nm, sizeof nm);
			if (chance(50)) {
				bp(&funcs, "    let %s = string_concat(%s, ", nm, used);
				if (chance(50) && nlive) {
					int j = rnd(nlive);
					bp(&funcs, "%s);\n", live[j]);
					memmove(live[j], live[nlive - 1], 24);
					nlive--;
				} else {
					str_lit(&funcs);
					bp(&funcs, ");\n");
				}
			} else {
				bp(&funcs, "    let %s = string_format(\"{}<{}>{}|{}\", %s, a, %s, %dusize);\n", nm, used,
				   chance(50) ? "true" : "false", rnd(100));
			}
			if (nlive < 16)
				copy_name(live[nlive++], nm, 24);
		}
	}
	if (opt_b102 && chance(50))
		bp(&funcs, "    n = n + string_len(\"abc\") + match string_to_i64(string_from_i64(a)) { Option::Some { value } => value %% 7, Option::None {} => 0, };\n");
	bp(&funcs, "    n\n}\n\n");
	Buf c = { 0 };
	/* main passes a literal string and a view of a named main string */
	bp(&c, "%s(%d, ", fn, rnd(30) - 10);
	str_lit(&c);
	bp(&c, ", string_as_str(mtext))");
	add_call(&c);
	bfree(&c);
}

/* bytes: zeroed buffers, stores, slices and views */
static void feat_bytes(void)
{
	char fn[24];
	fresh("bf", fn, sizeof fn);
	int len = 2 + rnd(5);
	id_line(&funcs, 0, fn);
	bp(&funcs, "fn %s(k: u8) -> i64\n{\n", fn);
	bp(&funcs, "    let mut buf = bytes_zeroed(%dusize);\n", len);
	int stores = 1 + rnd(3);
	for (int i = 0; i < stores; i++)
		bp(&funcs, "    buf = bytes_set(buf, %dusize, k + %du8);\n", chance(97) ? rnd(len) : len, rnd(10));
	bp(&funcs, "    let view = bytes_as_slice(buf);\n");
	bp(&funcs, "    let got = match byte_get(view, %dusize) { Option::Some { value } => i64_from_u8(value), Option::None {} => -1, };\n",
	   rnd(len + 2));
	bp(&funcs, "    let arr = [%du8, %du8, %du8];\n", rnd(256), rnd(256), rnd(256));
	bp(&funcs, "    let av = array_as_slice(arr);\n");
	bp(&funcs, "    let mid = byte_range(av, %dusize, %dusize);\n", rnd(2), 2 + rnd(chance(96) ? 2 : 3));
	bp(&funcs, "    let text = \"%s\";\n", words[rnd(4)]);
	bp(&funcs, "    let tv = string_as_str(text);\n");
	bp(&funcs, "    let first = match str_byte_at(tv, 0usize) { Option::Some { value } => i64_from_u8(value), Option::None {} => 0, };\n");
	bp(&funcs, "    let copy = bytes_copy(str_as_bytes(tv));\n");
	bp(&funcs, "    got + i64_from_usize(byte_len(mid) + byte_len(bytes_as_slice(copy))) * 100 + first * 1000\n}\n\n");
	Buf c = { 0 };
	bp(&c, "%s(%du8)", fn, rnd(200));
	add_call(&c);
	bfree(&c);
}

static int have_row;

/* Vec<i64>, Vec<string>, Vec of owned records, iteration */
static void feat_vec(void)
{
	char fn[24];
	const char *row = "Row";
	fresh("vf", fn, sizeof fn);
	if (have_row)
		goto declared;
	have_row = 1;
	id_line(&decls, 0, row);
	bp(&decls, "record %s {\n", row);
	char id[48];
	snprintf(id, sizeof id, "%s.key", row);
	id_line(&decls, 1, id);
	bp(&decls, "    key: string,\n");
	snprintf(id, sizeof id, "%s.val", row);
	id_line(&decls, 1, id);
	bp(&decls, "    val: i64,\n}\n\n");
declared:;
	int cap = 2 + rnd(5);
	int n = chance(97) ? cap - rnd(2) : cap + 1;
	id_line(&funcs, 0, fn);
	bp(&funcs, "fn %s(a: i64, rows: borrow Vec<%s>) -> i64\n{\n", fn, row);
	bp(&funcs, "    let mut v = vec_with_capacity<i64>(%dusize);\n    let mut i = 0;\n", cap);
	bp(&funcs, "    while i < %d {\n        v = vec_push<i64>(v, a * i - %d);\n        i = i + 1;\n        0\n    }\n", n, rnd(50));
	if (n > 1)
		bp(&funcs, "    v = vec_set<i64>(v, 1usize, a + %d);\n", rnd(9));
	if (chance(60))
		bp(&funcs, "    v = vec_sort<i64>(v);\n");
	bp(&funcs, "    let mut s = 0;\n    for x in v {\n        s = s + x %% 1000;\n        0\n    }\n");
	bp(&funcs, "    let got = vec_get<i64>(v, %dusize);\n", chance(97) ? rnd(n) : n + 1);
	bp(&funcs, "    let mut w = vec_with_capacity<string>(3usize);\n");
	bp(&funcs, "    w = vec_push<string>(w, string_from_i64(a));\n    w = vec_push<string>(w, \"%s\");\n", words[rnd(4)]);
	if (chance(50))
		bp(&funcs, "    w = vec_sort<string>(w);\n");
	bp(&funcs, "    let c0 = vec_clone_at<string>(w, %dusize);\n", chance(97) ? rnd(2) : 2);
	bp(&funcs, "    let mut total = 0;\n    for own item in vec_into_iter<string>(w) {\n        total = total + string_len(item);\n        0\n    }\n");
	bp(&funcs, "    for r in rows {\n        total = total + r.val + string_len(r.key);\n        0\n    }\n");
	bp(&funcs, "    s + got + string_len(c0) + total + i64_from_usize(vec_len<i64>(v) + vec_capacity<i64>(v))\n}\n\n");
	/* main builds the rows */
	Buf c = { 0 };
	bp(&c, "%s(%d, mrows)", fn, rnd(20) - 5);
	add_call(&c);
	bfree(&c);
}

/* Map and Set */
static void feat_map(void)
{
	char fn[24];
	fresh("mf", fn, sizeof fn);
	int cap = 3 + rnd(4);
	int n = chance(97) ? cap - rnd(2) : cap + 2;
	id_line(&funcs, 0, fn);
	bp(&funcs, "fn %s(a: i64) -> i64\n{\n", fn);
	bp(&funcs, "    let mut m = map_new<i64, string>(%dusize);\n    let mut i = 0;\n", cap);
	bp(&funcs, "    while i < %d {\n        m = map_set<i64, string>(m, i * %d - a, string_from_i64(i));\n        i = i + 1;\n        0\n    }\n",
	   n, 1 + rnd(3));
	bp(&funcs, "    m = map_remove<i64, string>(m, %d);\n", rnd(6) - 3);
	bp(&funcs, "    let g = map_get_or<i64, string>(m, %d, \"none\");\n", rnd(6) - 3);
	bp(&funcs, "    let mut c = map_new<string, i64>(4usize);\n");
	bp(&funcs, "    c = map_add<string, i64>(c, \"k\", a);\n    c = map_add<string, i64>(c, \"k\", %d);\n    c = map_set<string, i64>(c, \"z\", 1);\n", rnd(9));
	bp(&funcs, "    let mut ids = set_new<i64>(%dusize);\n", cap);
	for (int i = 0; i < 3; i++)
		bp(&funcs, "    ids = set_insert<i64>(ids, a %% %d + 10);\n", 2 + rnd(4));
	bp(&funcs, "    ids = set_remove<i64>(ids, %d);\n", rnd(3));
	bp(&funcs, "    let has = if map_has<i64, string>(m, 0) && set_has<i64>(ids, 1) { 1 } else { 0 };\n");
	bp(&funcs, "    let k0 = %s;\n", chance(97) ? "map_key_at<i64, string>(m, 0usize)" : "map_key_at<i64, string>(m, 99usize)");
	bp(&funcs, "    let v0 = map_value_at<i64, string>(m, 0usize);\n");
	bp(&funcs, "    string_len(g) + has * 10 + k0 + string_len(v0) + map_get_or<string, i64>(c, \"k\", 0) * 100 + i64_from_usize(map_len<i64, string>(m) + set_len<i64>(ids)) + set_key_at<i64>(ids, 0usize)\n}\n\n");
	Buf c = { 0 };
	bp(&c, "%s(%d)", fn, rnd(10));
	add_call(&c);
	bfree(&c);
}

/* a random tree literal of the given depth */
static void emit_tree(Buf *b, const char *tree, int depth)
{
	if (depth <= 0 || chance(30)) {
		bp(b, "%s::Leaf { value: %d }", tree, rnd(20) - 5);
		return;
	}
	bp(b, "%s::Node { left: box_new<%s>(", tree, tree);
	emit_tree(b, tree, depth - 1);
	bp(b, "), right: box_new<%s>(", tree);
	emit_tree(b, tree, depth - 1);
	bp(b, ") }");
}

/* Box: scalars, strings and a boxed tree walked by recursion */
static void feat_box(void)
{
	char tree[24], sum[24], fn[24];
	fresh("Tree", tree, sizeof tree);
	fresh("tsum", sum, sizeof sum);
	fresh("xf", fn, sizeof fn);
	char id[48];
	id_line(&decls, 0, tree);
	bp(&decls, "variant %s {\n", tree);
	snprintf(id, sizeof id, "%s.leaf", tree);
	id_line(&decls, 1, id);
	bp(&decls, "    Leaf {\n");
	snprintf(id, sizeof id, "%s.leaf.value", tree);
	id_line(&decls, 2, id);
	bp(&decls, "        value: i64,\n    },\n");
	snprintf(id, sizeof id, "%s.node", tree);
	id_line(&decls, 1, id);
	bp(&decls, "    Node {\n");
	snprintf(id, sizeof id, "%s.node.left", tree);
	id_line(&decls, 2, id);
	bp(&decls, "        left: Box<%s>,\n", tree);
	snprintf(id, sizeof id, "%s.node.right", tree);
	id_line(&decls, 2, id);
	bp(&decls, "        right: Box<%s>,\n    },\n}\n\n", tree);
	id_line(&funcs, 0, sum);
	bp(&funcs, "fn %s(t: own %s) -> i64\n{\n    match own t { %s::Leaf { value } => value, %s::Node { left, right } => %s(box_into_inner<%s>(left)) * %d + %s(box_into_inner<%s>(right)), }\n}\n\n",
	   sum, tree, tree, tree, sum, tree, 1 + rnd(3), sum, tree);
	id_line(&funcs, 0, fn);
	bp(&funcs, "fn %s(a: i64) -> i64\n{\n", fn);
	bp(&funcs, "    let b = box_new<i64>(a + %d);\n    let s = box_new<string>(\"%s\");\n", rnd(9), words[rnd(4)]);
	/* a random tree of depth <= 3 */
	bp(&funcs, "    let t = ");
	emit_tree(&funcs, tree, 1 + rnd(3));
	bp(&funcs, ";\n");
	bp(&funcs, "    box_get<i64>(b) + string_len(box_into_inner<string>(s)) + %s(t)\n}\n\n", sum);
	Buf c = { 0 };
	bp(&c, "%s(%d)", fn, rnd(20));
	add_call(&c);
	bfree(&c);
}


/* closures, capture-less closures, function values, composition */
static void feat_closure(void)
{
	char apply[24], compose[24], fn[24];
	fresh("apply", apply, sizeof apply);
	fresh("compose", compose, sizeof compose);
	fresh("cf", fn, sizeof fn);
	id_line(&funcs, 0, apply);
	bp(&funcs, "fn %s(f: fn(i64) -> i64, x: i64) -> i64\n{\n    f(x)\n}\n\n", apply);
	int with_compose = chance(50);
	if (with_compose) {
		id_line(&funcs, 0, compose);
		bp(&funcs, "fn %s(f: fn(i64) -> i64, g: fn(i64) -> i64) -> fn(i64) -> i64\n{\n    fn(x: i64) -> i64 { g(f(x)) }\n}\n\n", compose);
	}
	/* an earlier scalar fn(i64) -> i64 as a function value */
	int fv = -1;
	for (int i = 0; i < nfns; i++)
		if (fns[i].np == 1 && fns[i].pty[0] == T_I64 && fns[i].ret == T_I64)
			fv = i;
	id_line(&funcs, 0, fn);
	bp(&funcs, "fn %s(a: i64, flag: bool) -> i64\n{\n", fn);
	nvars = 0;
	push_var("a", T_I64, 0);
	bp(&funcs, "    let k = ");
	expr(&funcs, T_I64, 2);
	bp(&funcs, ";\n    let scale = %s;\n", chance(50) ? "2.5" : "0.5");
	bp(&funcs, "    let add = fn(x: i64) -> i64 { if flag { x + k } else { x - k } };\n");
	bp(&funcs, "    let pure = fn(x: i64) -> i64 { x * %d };\n", 1 + rnd(4));
	bp(&funcs, "    let fl = fn(x: f64) -> f64 { x * scale };\n");
	bp(&funcs, "    let noarg = fn(b: bool) -> bool { !b };\n");
	if (fv >= 0)
		bp(&funcs, "    let named = %s;\n", fns[fv].name);
	else
		bp(&funcs, "    let named = pure;\n");
	bp(&funcs, "    let h = %s;\n", with_compose ? "" : "add");
	if (with_compose) {
		funcs.n -= 2;
		bp(&funcs, "%s(add, pure);\n", compose);
	}
	bp(&funcs, "    let mut g = h;\n    let mut i = 0;\n    while i < %d {\n", rnd(4));
	if (with_compose)
		bp(&funcs, "        g = %s(g, pure);\n", compose);
	else
		bp(&funcs, "        g = add;\n");
	bp(&funcs, "        i = i + 1;\n        0\n    }\n");
	if (chance(40)) /* a function value made and never called */
		bp(&funcs, "    let idle = fn(x: u8) -> u8 { x };\n    let idle2 = %s;\n", apply);
	bp(&funcs, "    let fx = fl(%s);\n", chance(50) ? "4.0" : "1.5");
	bp(&funcs, "    let fi = if fx > 3.0 { 1 } else { 0 };\n");
	bp(&funcs, "    let bi = if noarg(flag) { 2 } else { 0 };\n");
	bp(&funcs, "    %s(add, a) + %s(pure, %d) + g(1) %% 1000 + named(%d) %% 1000 + fi + bi\n}\n\n",
	   apply, apply, rnd(10), rnd(5));
	Buf c = { 0 };
	bp(&c, "%s(%d, %s)", fn, rnd(10), chance(50) ? "true" : "false");
	add_call(&c);
	bfree(&c);
}

/* classes with overriding methods and `super` */
static void feat_class(void)
{
	char base[24], sub[24], fn[24];
	fresh("Cls", base, sizeof base);
	fresh("Sub", sub, sizeof sub);
	fresh("kf", fn, sizeof fn);
	char id[48];
	id_line(&decls, 0, base);
	bp(&decls, "class %s {\n", base);
	snprintf(id, sizeof id, "%s.legs", base);
	id_line(&decls, 1, id);
	bp(&decls, "    legs: i64,\n");
	snprintf(id, sizeof id, "%s.w", base);
	id_line(&decls, 1, id);
	const char *wl = chance(50) ? "u8" : "";
	bp(&decls, "    w: %s,\n\n", wl[0] ? "u8" : "i64");
	snprintf(id, sizeof id, "%s.speak", base);
	id_line(&decls, 1, id);
	bp(&decls, "    fn speak(self: %s, times: i64) -> i64\n%s{\n        self.legs * times + %d\n    }\n\n", base,
	   chance(30) ? "        requires times >= 0\n" : "", rnd(9));
	snprintf(id, sizeof id, "%s.feet", base);
	id_line(&decls, 1, id);
	bp(&decls, "    fn feet(self: %s) -> i64\n{\n        self.legs\n    }\n}\n\n", base);
	id_line(&decls, 0, sub);
	bp(&decls, "class %s : %s {\n", sub, base);
	snprintf(id, sizeof id, "%s.tricks", sub);
	id_line(&decls, 1, id);
	bp(&decls, "    tricks: i64,\n\n");
	snprintf(id, sizeof id, "%s.speak", sub);
	id_line(&decls, 1, id);
	bp(&decls, "    fn speak(self: %s, times: i64) -> i64\n{\n        super.speak(times) * %d + self.tricks\n    }\n}\n\n", sub,
	   1 + rnd(3));
	id_line(&funcs, 0, fn);
	bp(&funcs, "fn %s(n: i64) -> i64\n{\n", fn);
	bp(&funcs, "    let d = %s { legs: %d, w: %d%s, tricks: n };\n", sub, rnd(6), rnd(9), wl);
	bp(&funcs, "    let a = %s { legs: %d, w: 1%s };\n", base, rnd(6), wl);
	bp(&funcs, "    let up: %s = %s { legs: n, w: 2%s, tricks: %d };\n", base, sub, wl, rnd(9));
	bp(&funcs, "    d.speak(%d) * 100 + a.speak(%d) * 10 + d.feet() + up.speak(%d)\n}\n\n", rnd(5) - (chance(10) ? 3 : 0), rnd(5), rnd(5));
	Buf c = { 0 };
	bp(&c, "%s(%d)", fn, rnd(10));
	add_call(&c);
	bfree(&c);
}

/* an owned record and a text-owning variant: own/borrow parameters */
static void feat_owned(void)
{
	char rec[24], tag[24], f1[24], f2[24], f3[24];
	fresh("Person", rec, sizeof rec);
	fresh("Tag", tag, sizeof tag);
	fresh("ob", f1, sizeof f1);
	fresh("oo", f2, sizeof f2);
	fresh("ot", f3, sizeof f3);
	char id[48];
	id_line(&decls, 0, rec);
	bp(&decls, "record %s {\n", rec);
	snprintf(id, sizeof id, "%s.name", rec);
	id_line(&decls, 1, id);
	bp(&decls, "    name: string,\n");
	snprintf(id, sizeof id, "%s.age", rec);
	id_line(&decls, 1, id);
	bp(&decls, "    age: i64,\n}\n\n");
	id_line(&decls, 0, tag);
	bp(&decls, "variant %s {\n", tag);
	snprintf(id, sizeof id, "%s.label", tag);
	id_line(&decls, 1, id);
	bp(&decls, "    Label {\n");
	snprintf(id, sizeof id, "%s.label.text", tag);
	id_line(&decls, 2, id);
	bp(&decls, "        text: string,\n    },\n");
	snprintf(id, sizeof id, "%s.count", tag);
	id_line(&decls, 1, id);
	bp(&decls, "    Count {\n");
	snprintf(id, sizeof id, "%s.count.n", tag);
	id_line(&decls, 2, id);
	bp(&decls, "        n: i64,\n    },\n");
	snprintf(id, sizeof id, "%s.empty", tag);
	id_line(&decls, 1, id);
	bp(&decls, "    Empty,\n}\n\n");
	id_line(&funcs, 0, f1);
	bp(&funcs, "fn %s(p: borrow %s) -> i64\n{\n    string_len(p.name) * 100 + p.age\n}\n\n", f1, rec);
	id_line(&funcs, 0, f2);
	bp(&funcs, "fn %s(p: own %s, extra: i64) -> i64\n{\n    let q = p with { age: extra };\n    match own q { %s { name, age } => string_len(name) + age, }\n}\n\n",
	   f2, rec, rec);
	id_line(&funcs, 0, f3);
	if (chance(50))
		bp(&funcs, "fn %s(t: borrow %s) -> i64\n{\n    match borrow t { %s::Label { text } => string_len(text), %s::Count { n } if n > %d => n, %s::Count { n: _ } => 0, %s::Empty {} => -1, }\n}\n\n",
		   f3, tag, tag, tag, rnd(5), tag, tag);
	else /* arms binding nothing, on an owned value */
		bp(&funcs, "fn %s(t: own %s) -> i64\n{\n    match own t { %s::Label { text: _ } => %d, %s::Count { n: _ } => 0, _ => -1, }\n}\n\n",
		   f3, tag, tag, rnd(9), tag);
	Buf c = { 0 };
	int which = rnd(3);
	bp(&c, "%s(%s { name: \"%s\", age: %d }) + %s(%s { age: 1, name: string_from_i64(%d) }, %d) + %s(", f1, rec, words[rnd(4)],
	   rnd(90), f2, rec, rnd(1000), rnd(50), f3);
	if (which == 0)
		bp(&c, "%s::Label { text: \"%s\" })", tag, words[rnd(4)]);
	else if (which == 1)
		bp(&c, "%s::Count { n: %d })", tag, rnd(10));
	else
		bp(&c, "%s::Empty {})", tag);
	add_call(&c);
	bfree(&c);
}

/* ==== program ============================================================= */

int main(int argc, char **argv)
{
	unsigned long long seed = 0;
	int have_seed = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--b102"))
			opt_b102 = 1;
		else if (!strcmp(argv[i], "--no-stdout"))
			opt_stdout = 0;
		else {
			char *end;
			seed = strtoull(argv[i], &end, 10);
			if (*end || end == argv[i]) {
				fprintf(stderr, "usage: progen [--b102] [--no-stdout] SEED\n");
				return 2;
			}
			have_seed = 1;
		}
	}
	if (!have_seed) {
		fprintf(stderr, "usage: progen [--b102] [--no-stdout] SEED\n");
		return 2;
	}
	rng_state = seed * 0x2545f4914f6cdd1dULL + 1;
	int print = opt_stdout && chance(40);

	int nfeat = 4 + rnd(8);
	for (int i = 0; i < nfeat; i++) {
		int r = rnd(24);
		if (r < 8)
			feat_scalar();
		else if (r < 9)
			feat_record();
		else if (r < 11)
			feat_variant();
		else if (r < 12)
			feat_enum_eq();
		else if (r < 13)
			feat_option();
		else if (r < 14)
			feat_generic();
		else if (r < 16)
			feat_string();
		else if (r < 17)
			feat_bytes();
		else if (r < 18) {
			feat_vec();
		} else if (r < 19)
			feat_map();
		else if (r < 20)
			feat_box();
		else if (r < 22)
			feat_closure();
		else if (r < 23)
			feat_class();
		else
			feat_owned();
	}

	Buf prog = { 0 };
	bp(&prog, "module pg.s%llu;\n\n", seed);
	if (print)
		bp(&prog, "permit { process.stdout.write }\n\n");
	bcat(&prog, &decls);
	id_line(&prog, 0, "mix");
	bp(&prog, "fn mix(acc: i64, v: i64) -> i64\n{\n    acc %% 1000003 * 31 + v %% 1000003\n}\n\n");
	bcat(&prog, &funcs);
	id_line(&prog, 0, "main");
	bp(&prog, "fn main() -> i64\n%s{\n", print ? "    uses { process.stdout.write }\n" : "");
	bp(&prog, "    let mtext = \"%s\";\n", words[rnd(10)]);
	if (have_row) {
		bp(&prog, "    let mut mrows = vec_with_capacity<Row>(2usize);\n");
		bp(&prog, "    mrows = vec_push<Row>(mrows, Row { key: \"%s\", val: %d });\n", words[rnd(10)], rnd(50));
		bp(&prog, "    mrows = vec_push<Row>(mrows, Row { val: %d, key: string_from_i64(%d) });\n", rnd(50), rnd(500));
	}
	bp(&prog, "    let mut acc = 0;\n");
	for (int i = 0; i < ncalls; i++) {
		bp(&prog, "    acc = mix(acc, %s);\n", calls[i]);
		if (print && chance(60)) {
			bp(&prog, "    let line%d = string_format(\"{}: {}\\n\", %d, acc);\n", i, i);
			bp(&prog, "    let view%d = string_as_str(line%d);\n", i, i);
			bp(&prog, "    let wrote%d = stdout_write(str_as_bytes(view%d));\n", i, i);
			bp(&prog, "    acc = acc + i64_from_usize(wrote%d);\n", i);
		}
		free(calls[i]);
	}
	bp(&prog, "    acc\n}\n");
	fwrite(prog.p, 1, prog.n, stdout);
	bfree(&prog);
	bfree(&decls);
	bfree(&funcs);
	return 0;
}
