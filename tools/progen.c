/*
 * progen.c — random program generator for the lane-agreement test
 * (tests/random-test.sh, issue 11 §5).
 *
 * Usage: progen [--b102] [--empty-remove] [--no-stdout] SEED > out.spx
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
 * --b102: about 30% of the programs get a `main` with no string local that
 * starts with string builtins on literal temporaries (`string_len("abc")`,
 * `string_to_i64("-7")`), the shape the native lane rejects today with
 * SPX-B102 "(null) tmpN" (fixed on the emitc branch); without the option
 * that shape is never generated.  --empty-remove: a Map/Set template
 * (progen_feat3.c) may remove from a map or set before anything was put in
 * it, where gcc 12 -O2 warns about the native runtime's memmove bound
 * (tests/pending/run/set_remove_empty_gcc_warning.spx; an error under the
 * lane tests' -Werror); without the option the first update always adds.
 * --no-stdout: no program prints.
 *
 * The feature templates are in progen_feat.c and progen_feat2.c (char and
 * f32, integer edges, float/char contract details, keyed collections, nested
 * Option/Result with `?` in loops, nested and owning closures, owned class
 * upcasts, `with` chains, `string_format` templates; shared state: progen.h).
 */
#include "progen.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ==== output buffers ====================================================== */


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

void pg_bp(Buf *b, const char *fmt, ...)
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

void pg_bcat(Buf *b, const Buf *s)
{
	if (s->n)
		bput(b, s->p, s->n);
}

void pg_bfree(Buf *b)
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

int pg_rnd(int n) /* 0 .. n-1 */
{
	return n <= 1 ? 0 : (int)(rnext() % (uint64_t)n);
}

int pg_chance(int pct)
{
	return pg_rnd(100) < pct;
}

static int opt_b102;
int pg_opt_empty_remove;
static int opt_stdout = 1;
static int b102_main; /* this program's main holds the known-B102 shape */

/* ==== scalar types and scopes ============================================= */

const char *const pg_ty_name[NTY] = { "i64", "i32", "u8", "usize", "f64", "bool", "char", "f32" };

/* a bounded copy of a name (no truncation warnings to silence) */
void pg_copy_name(char *dst, const char *src, size_t cap)
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
	return t == T_I64 || t == T_I32 || t == T_F64 || t == T_F32;
}

typedef struct Var {
	char name[24];
	int ty;
	int assignable; /* a `let mut` the generator may reassign */
} Var;

#define MAX_VARS 128
static Var vars[MAX_VARS];
int pg_nvars;
static int uniq; /* fresh-name counter */

void pg_push_var(const char *name, int ty, int assignable)
{
	if (pg_nvars >= MAX_VARS)
		return;
	pg_copy_name(vars[pg_nvars].name, name, sizeof vars[pg_nvars].name);
	vars[pg_nvars].ty = ty;
	vars[pg_nvars].assignable = assignable;
	pg_nvars++;
}

const char *pg_fresh(const char *prefix, char *buf, size_t cap)
{
	snprintf(buf, cap, "%s%d", prefix, uniq++);
	return buf;
}

Fn pg_fns[MAX_FNS];
int pg_nfns;

/* calls main folds into its checksum: i64 expressions */
#define MAX_CALLS 96
static char *calls[MAX_CALLS];
static int ncalls;

void pg_add_call(const Buf *b)
{
	if (ncalls < MAX_CALLS)
		calls[ncalls++] = strdup(b->p);
}

/* the call `fn(arg)` */
void pg_add_call_int(const char *fn, int arg)
{
	Buf c = { 0 };
	pg_bp(&c, "%s(%d)", fn, arg);
	pg_add_call(&c);
	pg_bfree(&c);
}

Buf pg_decls; /* type declarations */
Buf pg_funcs; /* functions */

/* ==== literals ============================================================ */

void pg_lit(Buf *b, int t)
{
	switch (t) {
	case T_I64: {
		long long v = pg_rnd(40);
		if (pg_chance(8))
			v = 100 + pg_rnd(100000);
		if (pg_chance(1))
			v = 9223372036854775807LL;
		if (pg_chance(1)) { /* the signed minimum rule: one literal */
			pg_bp(b, "(-9223372036854775808)");
			break;
		}
		if (pg_chance(25))
			pg_bp(b, "(-%lld)", v);
		else
			pg_bp(b, "%lld", v);
		break;
	}
	case T_I32: {
		int v = pg_rnd(30);
		if (pg_chance(10))
			v = 100 + pg_rnd(30000);
		if (pg_chance(1))
			v = 2147483647;
		if (pg_chance(1)) {
			pg_bp(b, "(-2147483648i32)");
			break;
		}
		if (pg_chance(20))
			pg_bp(b, "(-%di32)", v);
		else
			pg_bp(b, "%di32", v);
		break;
	}
	case T_U8:
		pg_bp(b, "%du8", pg_chance(85) ? pg_rnd(20) : 200 + pg_rnd(56));
		break;
	case T_USIZE:
		pg_bp(b, "%dusize", pg_chance(90) ? pg_rnd(25) : 1000 + pg_rnd(100000));
		break;
	case T_F64: {
		static const char *const fl[] = { "0.0", "1.5", "0.25", "3.0", "2.75", "100.125", "0.1", "7.0" };
		if (pg_chance(20))
			pg_bp(b, "(-%s)", fl[pg_rnd(8)]);
		else
			pg_bp(b, "%s", fl[pg_rnd(8)]);
		break;
	}
	case T_F32: {
		static const char *const fl[] = { "0.0f32", "1.5f32", "0.1f32", "3.0f32", "16777216.0f32", "1.0e-45f32", "3.0e38f32", "0.333f32" };
		if (pg_chance(20))
			pg_bp(b, "(-%s)", fl[pg_rnd(8)]);
		else
			pg_bp(b, "%s", fl[pg_rnd(8)]);
		break;
	}
	case T_CHAR: {
		static const char *const cs[] = { "'a'", "'z'", "'A'", "'0'", "' '", "'\\0'", "'\\n'", "'\\''", "'\\u{e9}'", "'\\u{10ffff}'", "'\\u{1f600}'", "'~'" };
		pg_bp(b, "%s", cs[pg_rnd(12)]);
		break;
	}
	default:
		pg_bp(b, "%s", pg_chance(50) ? "true" : "false");
	}
}

static void nonzero_lit(Buf *b, int t)
{
	int v = 1 + pg_rnd(9);
	switch (t) {
	case T_I64:
		if (pg_chance(20))
			pg_bp(b, "(-%d)", v);
		else
			pg_bp(b, "%d", v);
		break;
	case T_I32:
		pg_bp(b, "%di32", v);
		break;
	case T_U8:
		pg_bp(b, "%du8", v);
		break;
	case T_USIZE:
		pg_bp(b, "%dusize", v);
		break;
	case T_F32:
		pg_bp(b, "%d.5f32", v);
		break;
	default:
		pg_bp(b, "%d.5", v);
	}
}

/* ==== expressions ========================================================= */


static int pick_var(int t, int want_assignable)
{
	int cand[MAX_VARS], n = 0;
	for (int i = 0; i < pg_nvars; i++)
		if (vars[i].ty == t && (!want_assignable || vars[i].assignable))
			cand[n++] = i;
	return n ? cand[pg_rnd(n)] : -1;
}

static void leaf(Buf *b, int t)
{
	int v = pg_chance(70) ? pick_var(t, 0) : -1;
	if (v >= 0)
		pg_bp(b, "%s", vars[v].name);
	else
		pg_lit(b, t);
}

/* an i64 that is usually in 0..=199, so u8/usize conversions mostly succeed */
static void in_range_i64(Buf *b, int depth)
{
	if (pg_chance(85)) {
		pg_bp(b, "(");
		pg_expr(b, T_I64, depth);
		pg_bp(b, " %% 100 + 100)");
	} else {
		pg_expr(b, T_I64, depth);
	}
}

static void conversion(Buf *b, int t, int depth)
{
	switch (t) {
	case T_I64:
		switch (pg_rnd(5)) {
		case 0: pg_bp(b, "i64_from_i32("); pg_expr(b, T_I32, depth); break;
		case 1: pg_bp(b, "i64_from_u8("); pg_expr(b, T_U8, depth); break;
		case 2: pg_bp(b, "i64_from_usize("); pg_expr(b, T_USIZE, depth); break;
		case 3:
			if (pg_chance(50)) {
				pg_bp(b, "i64_from_f64(");
				pg_expr(b, T_F64, depth);
				break;
			}
			/* fallthrough */
		default: pg_bp(b, "string_len(string_from_i64("); pg_expr(b, T_I64, depth); pg_bp(b, ")"); break;
		}
		pg_bp(b, ")");
		return;
	case T_U8:
	case T_USIZE:
		if (t == T_USIZE && pg_chance(40)) {
			pg_bp(b, "usize_from_u8(");
			pg_expr(b, T_U8, depth);
			pg_bp(b, ")");
			return;
		}
		pg_bp(b, "%s_from_i64(", pg_ty_name[t]);
		in_range_i64(b, depth);
		pg_bp(b, ")");
		return;
	case T_F64:
		pg_bp(b, "f64_from_i64(");
		pg_expr(b, T_I64, depth);
		pg_bp(b, ")");
		return;
	case T_CHAR:
		if (pg_chance(60)) {
			pg_bp(b, "char_from_u8(");
			pg_expr(b, T_U8, depth);
		} else { /* sometimes a surrogate or past U+10FFFF: convert.v1/1 */
			pg_bp(b, "char_from_i64(");
			if (pg_chance(90)) {
				pg_bp(b, "(");
				pg_expr(b, T_I64, depth);
				pg_bp(b, ") %% 55000 + 55000");
			} else {
				pg_expr(b, T_I64, depth);
			}
		}
		pg_bp(b, ")");
		return;
	default:
		leaf(b, t);
	}
}

static void call_fn(Buf *b, int t, int depth)
{
	int cand[MAX_FNS], n = 0;
	for (int i = 0; i < pg_nfns; i++)
		if (pg_fns[i].ret == t)
			cand[n++] = i;
	if (!n) {
		leaf(b, t);
		return;
	}
	const Fn *f = &pg_fns[cand[pg_rnd(n)]];
	pg_bp(b, "%s(", f->name);
	for (int i = 0; i < f->np; i++) {
		if (i)
			pg_bp(b, ", ");
		pg_expr(b, f->pty[i], depth - 1);
	}
	pg_bp(b, ")");
}

void pg_int_pattern(Buf *b, int t, int v)
{
	const char *suf = t == T_I32 ? "i32" : t == T_U8 ? "u8" : t == T_USIZE ? "usize" : "";
	if (v < 0 && (t == T_I64 || t == T_I32))
		pg_bp(b, "-%d%s", -v, suf);
	else
		pg_bp(b, "%d%s", v < 0 ? -v : v, suf);
}

/* a literal pattern of the match scrutinee type st for the index v: an
 * integer, one of 16 distinct chars, or a bool (v's parity) */
static void scalar_pattern(Buf *b, int st, int v)
{
	static const char *const cs[] = { "'a'", "'b'", "'z'", "'A'", "'0'", "' '", "'\\0'", "'\\n'", "'\\''",
					  "'\\\\'", "'\\u{e9}'", "'\\u{7f}'", "'\\u{3000}'", "'\\u{1f600}'", "'\\u{10ffff}'", "'~'" };
	if (st == T_CHAR)
		pg_bp(b, "%s", cs[(v + 2) & 15]);
	else if (st == T_BOOL)
		pg_bp(b, "%s", v & 1 ? "true" : "false");
	else
		pg_int_pattern(b, st, v);
}

/* `match scrutinee { lit => e, a | b => e, k if k > c => e, _ => e, }` over
 * an integer, char or bool scrutinee (the catch-all is mandatory, T257) */
static void match_int(Buf *b, int t, int depth)
{
	static const int sts[] = { T_I64, T_I32, T_U8, T_I64, T_USIZE, T_CHAR, T_BOOL };
	int st = sts[pg_rnd(7)];
	pg_bp(b, "match ");
	pg_expr(b, st, depth - 1);
	pg_bp(b, " { ");
	int used[8], nused = 0;
	int arms = 1 + pg_rnd(3);
	for (int a = 0; a < arms; a++) {
		int v = pg_rnd(6) - (st == T_U8 || st == T_USIZE ? 0 : 2);
		if (st == T_BOOL)
			v &= 1;
		int dup = 0;
		for (int i = 0; i < nused; i++)
			dup |= used[i] == v;
		if (dup)
			continue;
		used[nused++] = v;
		scalar_pattern(b, st, v);
		if (pg_chance(30) && st != T_BOOL) {
			int w = v + 7;
			used[nused++] = w;
			pg_bp(b, " | ");
			scalar_pattern(b, st, w);
		}
		pg_bp(b, " => ");
		pg_expr(b, t, depth - 1);
		pg_bp(b, ", ");
	}
	if (pg_chance(40)) {
		char k[24];
		pg_fresh("k", k, sizeof k);
		if (st == T_BOOL) {
			pg_bp(b, "%s if !%s", k, k);
		} else {
			pg_bp(b, "%s if %s > ", k, k);
			scalar_pattern(b, st, 3);
		}
		pg_bp(b, " => ");
		pg_push_var(k, st, 0);
		pg_expr(b, t, depth - 1);
		pg_nvars--;
		pg_bp(b, ", ");
	}
	pg_bp(b, "_ => ");
	pg_expr(b, t, depth - 1);
	pg_bp(b, ", }");
}

int pg_simple;
int pg_need_f32code, pg_need_charcode;

void pg_expr(Buf *b, int t, int depth)
{
	if (depth <= 0 || pg_chance(25)) {
		leaf(b, t);
		return;
	}
	int r = pg_rnd(20);
	if (r < 10 && t == T_CHAR) { /* no char arithmetic */
		r = 13 + pg_rnd(5);
	}
	/* pg_simple: operators, variables and literals only (no calls, `if` or
	 * `match`), as a guard on a variant match must be (T254) */
	if (pg_simple && r >= (t == T_BOOL ? 15 : 10)) {
		leaf(b, t);
		return;
	}
	if (t == T_BOOL) {
		if (r < 9) {
			static const char *const cmp[] = { "==", "!=", "<", "<=", ">", ">=" };
			static const int ots[] = { T_I64, T_I32, T_U8, T_USIZE, T_F64, T_I64, T_CHAR, T_F32 };
			int ot = ots[pg_rnd(8)];
			pg_bp(b, "(");
			pg_expr(b, ot, depth - 1);
			pg_bp(b, " %s ", cmp[pg_rnd(6)]);
			if (pg_chance(40))
				pg_lit(b, ot);
			else
				pg_expr(b, ot, depth - 1);
			pg_bp(b, ")");
		} else if (r < 13) {
			pg_bp(b, "(");
			pg_expr(b, T_BOOL, depth - 1);
			pg_bp(b, pg_chance(50) ? " && " : " || ");
			pg_expr(b, T_BOOL, depth - 1);
			pg_bp(b, ")");
		} else if (r < 15) {
			pg_bp(b, "!");
			pg_bp(b, "(");
			pg_expr(b, T_BOOL, depth - 1);
			pg_bp(b, ")");
		} else if (r < 17) {
			call_fn(b, t, depth);
		} else {
			leaf(b, t);
		}
		return;
	}
	if (r < 10) {
		/* + - * / % ; u8/usize subtraction and multiplication are rarer */
		int op = pg_rnd(10);
		const char *ops;
		if (op < 4)
			ops = "+";
		else if (op < 6)
			ops = (!is_signed(t) && pg_chance(60)) ? "+" : "-";
		else if (op < 8)
			ops = (t == T_U8 && pg_chance(60)) ? "+" : "*";
		else if (op < 9)
			ops = "/";
		else
			ops = (t == T_F64 || t == T_F32) ? "/" : "%";
		pg_bp(b, "(");
		pg_expr(b, t, depth - 1);
		pg_bp(b, " %s ", ops);
		if (ops[0] == '/' || ops[0] == '%') {
			if (pg_chance(90))
				nonzero_lit(b, t);
			else
				pg_expr(b, t, depth - 1);
		} else if (t == T_U8 || ops[0] == '*') {
			/* keep products and bytes small: mostly a literal */
			if (pg_chance(70))
				pg_lit(b, t);
			else
				pg_expr(b, t, depth - 1);
		} else {
			pg_expr(b, t, depth - 1);
		}
		pg_bp(b, ")");
	} else if (r < 11 && is_signed(t)) {
		pg_bp(b, "(-");
		pg_expr(b, t, depth - 1);
		pg_bp(b, ")");
	} else if (r < 13) {
		conversion(b, t, depth - 1);
	} else if (r < 15) {
		pg_bp(b, "(if ");
		pg_expr(b, T_BOOL, depth - 1);
		pg_bp(b, " { ");
		pg_expr(b, t, depth - 1);
		if (pg_chance(25)) { /* an `else if` chain */
			pg_bp(b, " } else if ");
			pg_expr(b, T_BOOL, depth - 1);
			pg_bp(b, " { ");
			pg_expr(b, t, depth - 1);
		}
		pg_bp(b, " } else { ");
		pg_expr(b, t, depth - 1);
		pg_bp(b, " })");
	} else if (r < 17) {
		call_fn(b, t, depth);
	} else if (r < 18 && t != T_F64 && t != T_F32) {
		pg_bp(b, "(");
		match_int(b, t, depth);
		pg_bp(b, ")");
	} else {
		leaf(b, t);
	}
}

/* an i64 view of a scalar expression (for checksums) */
void pg_to_i64(Buf *b, int t, const char *e)
{
	switch (t) {
	case T_I64: pg_bp(b, "%s", e); break;
	case T_I32: pg_bp(b, "i64_from_i32(%s)", e); break;
	case T_U8: pg_bp(b, "i64_from_u8(%s)", e); break;
	case T_USIZE: pg_bp(b, "i64_from_usize(%s)", e); break;
	case T_BOOL: pg_bp(b, "(if %s { 1 } else { 0 })", e); break;
	case T_F32: pg_bp(b, "pgf32(%s)", e); pg_need_f32code = 1; break;
	case T_CHAR: pg_bp(b, "pgchr(%s)", e); pg_need_charcode = 1; break;
	default:
		pg_bp(b, "(if %s > -1000000.0 && %s < 1000000.0 { i64_from_f64(%s) } else { 7 })", e, e, e);
	}
}

int pg_rand_ty(void)
{
	static const int w[] = { T_I64, T_I64, T_I64, T_I32, T_U8, T_USIZE, T_F64, T_BOOL, T_I64, T_I32, T_CHAR, T_F32 };
	return w[pg_rnd(12)];
}

/* ==== statements (bodies of scalar functions) ============================= */

void pg_indent(Buf *b, int n)
{
	for (int i = 0; i < n; i++)
		pg_bp(b, "    ");
}


static void assign_stmt(Buf *b, int ind, int depth)
{
	int v = pick_var(pg_rand_ty(), 1);
	if (v < 0) {
		for (int i = 0; i < pg_nvars && v < 0; i++)
			if (vars[i].assignable)
				v = i;
	}
	if (v < 0)
		return;
	pg_indent(b, ind);
	pg_bp(b, "%s = ", vars[v].name);
	if (is_int(vars[v].ty) && vars[v].ty != T_U8 && pg_chance(60)) {
		/* keep accumulators bounded */
		pg_bp(b, "(%s + ", vars[v].name);
		pg_expr(b, vars[v].ty, depth);
		pg_bp(b, ") %% ");
		nonzero_lit(b, vars[v].ty);
	} else {
		pg_expr(b, vars[v].ty, depth);
	}
	pg_bp(b, ";\n");
}

void pg_stmt(Buf *b, int ind, int depth, int budget)
{
	int r = pg_rnd(10);
	char name[24];
	if (r < 3 || budget <= 0) {
		int t = pg_rand_ty();
		int mut = pg_chance(50);
		pg_fresh(mut ? "m" : "x", name, sizeof name);
		pg_indent(b, ind);
		pg_bp(b, "let %s%s", mut ? "mut " : "", name);
		if (pg_chance(50))
			pg_bp(b, ": %s", pg_ty_name[t]);
		pg_bp(b, " = ");
		pg_expr(b, t, depth);
		pg_bp(b, ";\n");
		pg_push_var(name, t, mut);
	} else if (r < 5) {
		assign_stmt(b, ind, depth);
	} else if (r < 7) {
		/* bounded while loop */
		int saved = pg_nvars;
		pg_fresh("c", name, sizeof name);
		pg_indent(b, ind);
		pg_bp(b, "let mut %s = 0;\n", name);
		pg_indent(b, ind);
		pg_bp(b, "while %s < %d {\n", name, 1 + pg_rnd(6));
		pg_push_var(name, T_I64, 0);
		int n = 1 + pg_rnd(3);
		for (int i = 0; i < n; i++)
			pg_stmt(b, ind + 1, depth - 1, budget - 3);
		pg_indent(b, ind + 1);
		pg_bp(b, "%s = %s + 1;\n", name, name);
		pg_indent(b, ind + 1);
		pg_bp(b, "0\n");
		pg_indent(b, ind);
		pg_bp(b, "}\n");
		pg_nvars = saved;
		pg_push_var(name, T_I64, 0);
	} else if (r < 8) {
		/* for over a Vec<i64> */
		char vname[24], item[24];
		pg_fresh("vs", vname, sizeof vname);
		pg_fresh("it", item, sizeof item);
		int n = 1 + pg_rnd(3);
		pg_indent(b, ind);
		pg_bp(b, "let mut %s = vec_with_capacity<i64>(%dusize);\n", vname, n + (pg_chance(96) ? pg_rnd(2) : -1));
		for (int i = 0; i < n; i++) {
			pg_indent(b, ind);
			pg_bp(b, "%s = vec_push<i64>(%s, ", vname, vname);
			pg_expr(b, T_I64, depth - 1);
			pg_bp(b, ");\n");
		}
		int saved = pg_nvars;
		/* a traversal source is an immutable binding (T284) */
		pg_indent(b, ind);
		pg_bp(b, "let %s_f = %s;\n", vname, vname);
		pg_indent(b, ind);
		pg_bp(b, "for %s in %s_f {\n", item, vname);
		pg_push_var(item, T_I64, 0);
		int m = 1 + pg_rnd(2);
		for (int i = 0; i < m; i++)
			pg_stmt(b, ind + 1, depth - 1, budget - 3);
		pg_indent(b, ind + 1);
		pg_bp(b, "0\n");
		pg_indent(b, ind);
		pg_bp(b, "}\n");
		pg_nvars = saved;
	} else {
		/* statement if */
		int saved = pg_nvars;
		pg_indent(b, ind);
		pg_bp(b, "if ");
		pg_expr(b, T_BOOL, depth - 1);
		pg_bp(b, " {\n");
		pg_stmt(b, ind + 1, depth - 1, budget - 2);
		pg_nvars = saved;
		pg_indent(b, ind);
		if (pg_chance(50)) {
			pg_bp(b, "} else {\n");
			pg_stmt(b, ind + 1, depth - 1, budget - 2);
			pg_nvars = saved;
			pg_indent(b, ind);
		}
		pg_bp(b, "}\n");
	}
}

/* ==== program ============================================================= */

/* A feature on a PRNG stream of its own: drawn from `state` in pct% of the
 * programs, leaving the main stream where it was, so the rest of a seed's
 * program is the same bytes with or without it. */
static void
pg_side_stream(uint64_t state, int pct, void (*feat)(char *, size_t), char *call, size_t cap)
{
	uint64_t saved = rng_state;
	rng_state = state;
	if (pg_chance(pct))
		feat(call, cap);
	rng_state = saved;
}

int main(int argc, char **argv)
{
	unsigned long long seed = 0;
	int have_seed = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--b102"))
			opt_b102 = 1;
		else if (!strcmp(argv[i], "--empty-remove"))
			pg_opt_empty_remove = 1;
		else if (!strcmp(argv[i], "--no-stdout"))
			opt_stdout = 0;
		else {
			char *end;
			seed = strtoull(argv[i], &end, 10);
			if (*end || end == argv[i]) {
				fprintf(stderr, "usage: progen [--b102] [--empty-remove] [--no-stdout] SEED\n");
				return 2;
			}
			have_seed = 1;
		}
	}
	if (!have_seed) {
		fprintf(stderr, "usage: progen [--b102] [--empty-remove] [--no-stdout] SEED\n");
		return 2;
	}
	rng_state = seed * 0x2545f4914f6cdd1dULL + 1;
	int print = opt_stdout && pg_chance(40);
	/* the command route: stderr lines too, main's result is the exit status */
	int command = print && pg_chance(40);

	int nfeat = 4 + pg_rnd(6);
	b102_main = opt_b102 && pg_chance(30);
	if (b102_main)
		print = command = 0;
	for (int i = 0; i < nfeat; i++) {
		int r = pg_rnd(40);
		if (r < 8)
			pg_feat_scalar();
		else if (r < 9)
			pg_feat_record();
		else if (r < 11)
			pg_feat_variant();
		else if (r < 12)
			pg_feat_enum_eq();
		else if (r < 13)
			pg_feat_option();
		else if (r < 14)
			pg_feat_generic();
		else if (r < 16 && !b102_main)
			pg_feat_string();
		else if (r < 17)
			pg_feat_bytes();
		else if (r < 18 && !b102_main) {
			pg_feat_vec();
		} else if (r < 19)
			pg_feat_map();
		else if (r < 20)
			pg_feat_box();
		else if (r < 22)
			pg_feat_closure();
		else if (r < 23)
			pg_feat_class();
		else if (r < 24)
			pg_feat_floats();
		else if (r < 25)
			pg_feat_depth();
		else if (r < 26)
			pg_feat_owned();
		else if (r < 27)
			pg_feat_charf32();
		else if (r < 28)
			pg_feat_edges();
		else if (r < 29)
			pg_feat_fcontract();
		else if (r < 30)
			pg_feat_keyed();
		else if (r < 31)
			pg_feat_nested();
		else if (r < 32)
			pg_feat_deep();
		else if (r < 33)
			pg_feat_format();
		else if (r < 34)
			pg_feat_lambda();
		else if (r < 35)
			pg_feat_gvariant();
		else if (r < 36)
			pg_feat_nestrec();
		else if (r < 37)
			pg_feat_qchain();
		else if (r < 38)
			pg_feat_owndeep();
		else if (r < 39)
			pg_feat_mapx();
		else
			pg_feat_class2();
	}
	/* random ownership flow (progen_feat4.c) in 35% of the programs, on a
	 * PRNG stream of its own and after every other feature: the rest of a
	 * seed's program is the same bytes with or without it */
	char ownflow[64] = "";
	pg_side_stream(seed * 0x9e3779b97f4a7c15ULL + 0x6f776e666c6f77ULL, 35, pg_feat_ownflow,
	               ownflow, sizeof ownflow);
	/* generics at owned types (progen_feat5.c) in 25% of the programs, on
	 * a stream of its own likewise */
	char gowned[64] = "";
	pg_side_stream(seed * 0xd1b54a32d192ed03ULL + 0x676f776e6564ULL, 25, pg_feat_gowned,
	               gowned, sizeof gowned);
	/* early exits, `for own`, views and audited blocks (progen_feat6.c)
	 * in 20% of the programs, on a stream of its own likewise */
	char exits[64] = "";
	/* `permit { unsafe }` beside an output capability leaves the pure
	 * route, where a `main` that writes is F102 (TOOLCHAIN.md §1.3) */
	pg_exits_allow_unsafe = !print;
	pg_side_stream(seed * 0xbf58476d1ce4e5b9ULL + 0x65786974ULL, 20, pg_feat_exits,
	               exits, sizeof exits);

	/* record patterns, nested and in variant payloads (progen_feat7.c), in
	 * 25% of the programs, on a stream of its own likewise */
	char recpat[64] = "";
	pg_side_stream(seed * 0x94d049bb133111ebULL + 0x72656370ULL, 25, pg_feat_recpat,
	               recpat, sizeof recpat);
	/* scalar matches near the bounds and repeated borrows
	 * (progen_feat8.c), in 25% of the programs, on a stream of its own */
	char bscal[64] = "";
	pg_side_stream(seed * 0xff51afd7ed558ccdULL + 0x6273636cULL, 25, pg_feat_borrowscalar,
	               bscal, sizeof bscal);
	/* owned classes and collections, wide builtins (progen_feat9.c), in
	 * 20% of the programs, on a stream of its own */
	char ocls[64] = "";
	pg_side_stream(seed * 0xc2b2ae3d27d4eb4fULL + 0x6f636c73ULL, 20, pg_feat_ownclass,
	               ocls, sizeof ocls);

	Buf prog = { 0 };
	pg_bp(&prog, "module pg.s%llu;\n\n", seed);
	/* `unsafe` only when feat6 wrote an audited block (never in a program
	 * that prints): other programs keep their bytes */
	if (command)
		pg_bp(&prog, "permit { process.stderr.write, process.stdout.write }\n\n");
	else if (print)
		pg_bp(&prog, "permit { process.stdout.write }\n\n");
	else if (pg_exits_unsafe)
		pg_bp(&prog, "permit { unsafe }\n\n");
	pg_bcat(&prog, &pg_decls);
	pg_id_line(&prog, 0, "mix");
	pg_bp(&prog, "fn mix(acc: i64, v: i64) -> i64\n{\n    acc %% 1000003 * 31 + v %% 1000003\n}\n\n");
	/* the i64 views of f32 and char values (pg_to_i64): no conversion
	 * builtin exists, so a ladder of comparisons and the UTF-8 bytes */
	if (pg_need_f32code) {
		pg_id_line(&prog, 0, "pgf32");
		pg_bp(&prog, "fn pgf32(x: f32) -> i64\n{\n    let sign = if x != x { 9 } else { if x < 0.0f32 { 1 } else { if x > 0.0f32 { 2 } else { if 1.0f32 / x < 0.0f32 { 3 } else { 4 } } } };\n"
		      "    let size = if x > 1000000.0f32 || x < -1000000.0f32 { 50 } else { if x > 100.0f32 || x < -100.0f32 { 40 } else { if x > 1.0f32 || x < -1.0f32 { 30 } else { if x > 0.01f32 || x < -0.01f32 { 20 } else { 10 } } } };\n"
		      "    let exact = if x == 16777216.0f32 { 7 } else { if x == 1.5f32 { 6 } else { if x == 0.1f32 { 5 } else { 0 } } };\n    sign * 100 + size + exact\n}\n\n");
	}
	if (pg_need_charcode) {
		pg_id_line(&prog, 0, "pgchr");
		pg_bp(&prog, "fn pgchr(c: char) -> i64\n{\n    let s = string_from_char(c);\n    let mut h = string_len(s);\n    let mut i = 0;\n    while i < string_len(s) {\n        h = h * 256 + string_byte_at(s, i);\n        i = i + 1;\n        0\n    }\n    h\n}\n\n");
	}
	pg_bcat(&prog, &pg_funcs);
	pg_id_line(&prog, 0, "main");
	pg_bp(&prog, "fn main() -> i64\n%s{\n",
	      command ? "    uses { process.stderr.write, process.stdout.write }\n"
	      : print ? "    uses { process.stdout.write }\n" : "");
	if (b102_main) {
		/* string builtins on literal temporaries in a main with no string
		 * local, emitted first: SPX-B102 ("(null) tmpN") on the native lane
		 * today (the emitc branch fixes it) */
		pg_bp(&prog, "    let early = string_len(\"abc\") + match string_to_i64(\"%s\") { Option::Some { value } => value %% 7, Option::None {} => 0, };\n",
		   pg_words[5 + pg_rnd(2)]);
	} else {
		pg_bp(&prog, "    let early = 0;\n");
		pg_bp(&prog, "    let mtext = \"%s\";\n", pg_words[pg_rnd(PG_NWORDS)]);
	}
	if (pg_have_row && !b102_main) {
		pg_bp(&prog, "    let mut mrows = vec_with_capacity<Row>(2usize);\n");
		/* one PRNG draw per statement: argument order is unspecified in C,
		 * so two draws in one call would differ between gcc and clang */
		const char *w0 = pg_words[pg_rnd(PG_NWORDS)];
		int v0 = pg_rnd(50), v1 = pg_rnd(50), v2 = pg_rnd(500);
		pg_bp(&prog, "    mrows = vec_push<Row>(mrows, Row { key: \"%s\", val: %d });\n", w0, v0);
		pg_bp(&prog, "    mrows = vec_push<Row>(mrows, Row { val: %d, key: string_from_i64(%d) });\n", v1, v2);
	}
	pg_bp(&prog, "    let mut acc = early;\n");
	/* first, so that another feature's failure does not skip it; no draw:
	 * the rest of main stays the same */
	if (ownflow[0])
		pg_bp(&prog, "    acc = mix(acc, %s);\n", ownflow);
	if (gowned[0])
		pg_bp(&prog, "    acc = mix(acc, %s);\n", gowned);
	if (exits[0])
		pg_bp(&prog, "    acc = mix(acc, %s);\n", exits);
	if (recpat[0])
		pg_bp(&prog, "    acc = mix(acc, %s);\n", recpat);
	if (bscal[0])
		pg_bp(&prog, "    acc = mix(acc, %s);\n", bscal);
	if (ocls[0])
		pg_bp(&prog, "    acc = mix(acc, %s);\n", ocls);
	for (int i = 0; i < ncalls; i++) {
		pg_bp(&prog, "    acc = mix(acc, %s);\n", calls[i]);
		if (print && pg_chance(60)) {
			pg_bp(&prog, "    let line%d = string_format(\"{}: {}\\n\", %d, acc);\n", i, i);
			pg_bp(&prog, "    let view%d = string_as_str(line%d);\n", i, i);
			pg_bp(&prog, "    let wrote%d = %s(str_as_bytes(view%d));\n", i,
			      command && pg_chance(50) ? "stderr_write" : "stdout_write", i);
			pg_bp(&prog, "    acc = acc + i64_from_usize(wrote%d);\n", i);
		}
		free(calls[i]);
	}
	if (print && pg_chance(8)) {
		/* output near the 65,536-byte transcript cap (semaprax.output.v1) */
		int lines = 975 + pg_rnd(30); /* 66 bytes a line: 64,350..66,264 */
		pg_bp(&prog, "    let mut bulk = 0;\n    while bulk < %d {\n", lines);
		pg_bp(&prog, "        let bl = string_format(\"{} ............................................................\\n\", bulk + 1000);\n");
		pg_bp(&prog, "        let bv = string_as_str(bl);\n        let bw = stdout_write(str_as_bytes(bv));\n");
		pg_bp(&prog, "        acc = acc + i64_from_usize(bw) %% 3;\n        bulk = bulk + 1;\n        0\n    }\n");
	}
	if (command && pg_chance(90)) /* an exit status; else F116 when outside 0..=255 */
		pg_bp(&prog, "    (acc %% 256 + 256) %% 256\n}\n");
	else
		pg_bp(&prog, "    acc\n}\n");
	fwrite(prog.p, 1, prog.n, stdout);
	pg_bfree(&prog);
	pg_bfree(&pg_decls);
	pg_bfree(&pg_funcs);
	return 0;
}
