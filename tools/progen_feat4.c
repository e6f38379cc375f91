/*
 * progen_feat4.c — ownership flow: a random statement generator over owned
 * bindings (tools/progen.c's templates give owned values fixed shapes; this
 * one gives them random lives).  A function body is a random list of
 * statements over `string`, `Vec<string>`, a record with owned fields,
 * `Map<string, i64>` and `Option<string>` bindings: each is created (fresh,
 * or from others it consumes), read by borrowing builtins and helpers,
 * moved (into a taking helper, `match own`, a record literal, `with`, a
 * `let` alias, a field take), reopened (`vec_push`, `map_set`, a string
 * replacement, a field store), inside statement ifs and bounded loops, with
 * an occasional run-time failure while many are live.  The generator tracks
 * each binding's state the way the checker does (a binding moved in a
 * branch is dead after the if; an outer binding is never moved inside a
 * loop), so the program is well-typed and every lane must release what is
 * left exactly once — the shapes tools/ownfuzz.py mutates towards, here
 * generated valid.  The body function takes owned parameters, sometimes
 * under a `requires` on them and an `ensures` (a failure's report renders
 * them).  Deterministic per seed: one PRNG draw per statement.
 */
#include "progen.h"

#include <stdio.h>
#include <string.h>

enum { K_STR, K_VEC, K_REC, K_MAP, K_OPT, K_SMAP, K_BOX, K_HOLD, K_BYTES, K_CLO, K_OBJ, NKIND };

typedef struct OVar {
	char name[24];
	int kind;
	int mut;
	int live;
	int depth;  /* the block depth of its binding */
	int vlen, vcap; /* K_VEC: elements and capacity (outside loops) */
	int mops;   /* K_MAP: key insertions counted with loop trips */
	int lent;   /* a `for` item: borrows an element, never moved or reopened */
	int frozen; /* iterated by an enclosing `for`: read only */
} OVar;

#define MAX_OV 96
static OVar ov[MAX_OV];
static int nov;
static int depth;      /* current block depth */
static int loop_floor; /* bindings below this depth belong outside the innermost loop */
static int trips = 1;  /* iterations of the enclosing loops (product) */
static int budget;     /* statements left */
static int tryok;      /* the body returns Option<i64>: `?` on Option helpers */
static char rec[24], hold[24], eat[24], eatv[24], eatr[24], lookr[24], mk[24], mkh[24], eatb[24], oqs[24], oqi[24], kbase[24], kid[24];

static int pick(int kind, int movable)
{
	int c[MAX_OV], n = 0;
	for (int i = 0; i < nov; i++)
		if (ov[i].live && ov[i].kind == kind && (!movable || (ov[i].depth >= loop_floor && !ov[i].lent && !ov[i].frozen)))
			c[n++] = i;
	if (!n)
		return -1;
	return c[pg_rnd(n)];
}

static OVar *add(int kind, int mut)
{
	if (nov >= MAX_OV)
		return NULL;
	OVar *v = &ov[nov++];
	memset(v, 0, sizeof *v);
	static const char *const prefix[NKIND] = { "os", "ov", "orr", "om", "oo", "osm", "ob", "oh", "oy", "oc", "ok" };
	pg_fresh(prefix[kind], v->name, sizeof v->name);
	v->kind = kind;
	v->mut = mut;
	v->live = 1;
	v->depth = depth;
	return v;
}

static void str_expr(Buf *b, int d);
static void key_expr(Buf *b);
static void vec_expr(Buf *b, int d, int *len, int *cap);

/* an i64 of a and acc, never failing */
static void small_i64(Buf *b)
{
	int r = pg_rnd(4);
	int k = pg_rnd(50);
	if (r == 0)
		pg_bp(b, "a %% %d", k + 2);
	else if (r == 1)
		pg_bp(b, "acc %% %d", k + 3);
	else if (r == 2)
		pg_bp(b, "%d", k);
	else
		pg_bp(b, "a + %d", k);
}

/* a string value: fresh, or consuming a binding */
static void str_expr(Buf *b, int d)
{
	int r = pg_rnd(d > 0 ? (tryok ? 19 : 18) : 4);
	int x;
	if (r == 0) {
		pg_str_lit(b);
	} else if (r == 1 || r == 2) {
		pg_bp(b, "string_from_i64(");
		small_i64(b);
		pg_bp(b, ")");
	} else if (r == 3 && (x = pick(K_STR, 0)) >= 0) {
		pg_bp(b, "string_trim(%s)", ov[x].name);
	} else if (r == 4 && (x = pick(K_STR, 1)) >= 0) {
		/* a move */
		ov[x].live = 0;
		pg_bp(b, "%s", ov[x].name);
	} else if (r == 5) {
		pg_bp(b, "string_concat(");
		str_expr(b, d - 1);
		pg_bp(b, ", ");
		str_expr(b, d - 1);
		pg_bp(b, ")");
	} else if (r == 6 && (x = pick(K_VEC, 0)) >= 0) {
		pg_bp(b, "vec_clone_at<string>(%s, 0usize)", ov[x].name);
	} else if (r == 7 && (x = pick(K_REC, 1)) >= 0) {
		/* a field take: the record is partially moved, dead as a whole */
		ov[x].live = 0;
		pg_bp(b, "%s.s", ov[x].name);
	} else if (r == 8 && (x = pick(K_OPT, 1)) >= 0) {
		ov[x].live = 0;
		pg_bp(b, "match own %s { Option::Some { value } => value, Option::None {} => ", ov[x].name);
		pg_str_lit(b);
		pg_bp(b, ", }");
	} else if (r == 9 && (x = pick(K_REC, 0)) >= 0) {
		char s1[24], v1[24], n1[24];
		pg_fresh("bs", s1, sizeof s1);
		pg_fresh("bv", v1, sizeof v1);
		pg_fresh("bn", n1, sizeof n1);
		pg_bp(b, "match borrow %s { %s { s: %s, v: %s, n: %s } => string_from_i64(string_len(%s) + %s + i64_from_usize(vec_len<string>(%s))), }",
		      ov[x].name, rec, s1, v1, n1, s1, n1, v1);
	} else if (r == 10 && (x = pick(K_MAP, 0)) >= 0) {
		pg_bp(b, "map_key_at<string, i64>(%s, 0usize)", ov[x].name);
	} else if (r == 11 && (x = pick(K_SMAP, 0)) >= 0) {
		/* the default is lent (a last use may move it) */
		pg_bp(b, "map_get_or<string, string>(%s, ", ov[x].name);
		key_expr(b);
		pg_bp(b, ", ");
		key_expr(b);
		pg_bp(b, ")");
	} else if (r == 12 && (x = pick(K_SMAP, 0)) >= 0) {
		pg_bp(b, "map_value_at<string, string>(%s, 0usize)", ov[x].name);
	} else if (r == 13 && (x = pick(K_HOLD, 1)) >= 0) {
		ov[x].live = 0;
		pg_bp(b, "%s.tag", ov[x].name);
	} else if (r == 14 && (x = pick(K_HOLD, 1)) >= 0) {
		ov[x].live = 0;
		pg_bp(b, "%s.r.s", ov[x].name);
	} else if (r == 15 && (x = pick(K_BOX, 1)) >= 0) {
		ov[x].live = 0;
		pg_bp(b, "box_into_inner<%s>(%s).s", rec, ov[x].name);
	} else if (r == 16 || r == 17) {
		/* a field taken out of a fresh value, one or two levels deep (the
		 * rest released after the statement) */
		int k = pg_rnd(40);
		if (r == 16)
			pg_bp(b, "%s(a + %d).s", mk, k);
		else
			pg_bp(b, "%s(a + %d).%s", mkh, k, pg_chance(50) ? "r.s" : "tag");
	} else if (r == 18) {
		/* an early exit (None) while what is live is released */
		int k = pg_rnd(40);
		pg_bp(b, "%s(acc %% 50 + %d)?", oqs, k);
	} else {
		pg_bp(b, "string_from_i64(a * %d)", pg_rnd(9) + 1);
	}
}

/* a Vec<string> of at least one element */
static void vec_expr(Buf *b, int d, int *len, int *cap)
{
	int x;
	if (d > 0 && pg_chance(25) && (x = pick(K_VEC, 1)) >= 0) {
		ov[x].live = 0;
		*len = ov[x].vlen;
		*cap = ov[x].vcap;
		pg_bp(b, "%s", ov[x].name);
		return;
	}
	if (d > 0 && pg_chance(10)) {
		/* taken out of a fresh holder: its element count is mkh's */
		int k = pg_rnd(40);
		*len = *cap = 2;
		pg_bp(b, "%s(a + %d).r.v", mkh, k);
		return;
	}
	int c = 1 + pg_rnd(3);
	int n = 1 + pg_rnd(c);
	*cap = c + pg_rnd(3);
	*len = n;
	for (int i = 0; i < n; i++)
		pg_bp(b, "vec_push<string>(");
	pg_bp(b, "vec_with_capacity<string>(%dusize)", *cap);
	for (int i = 0; i < n; i++) {
		pg_bp(b, ", ");
		str_expr(b, d - 1);
		pg_bp(b, ")");
	}
}

static void rec_expr(Buf *b, int d)
{
	int x, len, cap;
	int r = pg_rnd(4);
	if (r == 0) {
		pg_bp(b, "%s(", mk);
		small_i64(b);
		pg_bp(b, ")");
	} else if (r == 1 && d > 0 && (x = pick(K_REC, 1)) >= 0) {
		ov[x].live = 0;
		pg_bp(b, "%s with { ", ov[x].name);
		if (pg_chance(50)) {
			pg_bp(b, "s: ");
			str_expr(b, d - 1);
		} else {
			pg_bp(b, "v: ");
			vec_expr(b, d - 1, &len, &cap);
		}
		pg_bp(b, " }");
	} else {
		/* fields in either order (evaluated as written) */
		if (pg_chance(50)) {
			pg_bp(b, "%s { s: ", rec);
			str_expr(b, d - 1);
			pg_bp(b, ", n: ");
			small_i64(b);
			pg_bp(b, ", v: ");
			vec_expr(b, d - 1, &len, &cap);
			pg_bp(b, " }");
		} else {
			pg_bp(b, "%s { v: ", rec);
			vec_expr(b, d - 1, &len, &cap);
			pg_bp(b, ", n: ");
			small_i64(b);
			pg_bp(b, ", s: ");
			str_expr(b, d - 1);
			pg_bp(b, " }");
		}
	}
}

/* a key: a string binding lent to the map (a last use may move it), a
 * literal, or a fresh string */
static void key_expr(Buf *b)
{
	int x;
	if (pg_chance(50) && (x = pick(K_STR, 0)) >= 0)
		pg_bp(b, "%s", ov[x].name);
	else
		str_expr(b, 0);
}

/* an i64 read or consumption, bounded (mix folds it) */
static void i64_expr(Buf *b, int d)
{
	int r = pg_rnd(25);
	int x;
	if (r == 0 && (x = pick(K_STR, 0)) >= 0) {
		pg_bp(b, "string_len(%s)", ov[x].name);
	} else if (r == 1 && (x = pick(K_STR, 1)) >= 0) {
		ov[x].live = 0;
		pg_bp(b, "%s(%s)", eat, ov[x].name);
	} else if (r == 2 && (x = pick(K_VEC, 0)) >= 0) {
		pg_bp(b, "i64_from_usize(vec_len<string>(%s))", ov[x].name);
	} else if (r == 3 && (x = pick(K_VEC, 1)) >= 0) {
		ov[x].live = 0;
		pg_bp(b, "%s(%s)", eatv, ov[x].name);
	} else if (r == 4 && (x = pick(K_REC, 0)) >= 0) {
		pg_bp(b, "%s(%s) + %s.n %% 100", lookr, ov[x].name, ov[x].name);
	} else if (r == 5 && (x = pick(K_REC, 1)) >= 0) {
		ov[x].live = 0;
		pg_bp(b, "%s(%s)", eatr, ov[x].name);
	} else if (r == 6 && (x = pick(K_REC, 1)) >= 0) {
		char s1[24], v1[24];
		pg_fresh("ms", s1, sizeof s1);
		pg_fresh("mv", v1, sizeof v1);
		ov[x].live = 0;
		pg_bp(b, "match own %s { %s { s: %s, v: %s, n: _ } => %s(%s) + %s(%s), }", ov[x].name, rec, s1, v1, eat, s1, eatv, v1);
	} else if (r == 7 && (x = pick(K_MAP, 0)) >= 0) {
		pg_bp(b, "map_get_or<string, i64>(%s, ", ov[x].name);
		key_expr(b);
		pg_bp(b, ", %d) %% 1000", pg_rnd(9));
	} else if (r == 8 && (x = pick(K_MAP, 0)) >= 0) {
		pg_bp(b, "if map_has<string, i64>(%s, ", ov[x].name);
		key_expr(b);
		pg_bp(b, ") { %d } else { i64_from_usize(map_len<string, i64>(%s)) }", pg_rnd(9), ov[x].name);
	} else if (r == 9 && (x = pick(K_OPT, 0)) >= 0) {
		pg_bp(b, "match borrow %s { Option::Some { value } => string_len(value), Option::None {} => -1, }", ov[x].name);
	} else if (r == 10 && (x = pick(K_OPT, 1)) >= 0) {
		ov[x].live = 0;
		pg_bp(b, "match own %s { Option::Some { value } => %s(value), Option::None {} => 0, }", ov[x].name, eat);
	} else if (r == 11 && d > 0) {
		pg_bp(b, "string_len(");
		str_expr(b, d - 1);
		pg_bp(b, ")");
	} else if (r == 12 && (x = pick(K_VEC, 0)) >= 0) {
		pg_bp(b, "string_len(vec_clone_at<string>(%s, 0usize))", ov[x].name);
	} else if (r == 13 && (x = pick(K_SMAP, 0)) >= 0) {
		pg_bp(b, "i64_from_usize(map_len<string, string>(%s)) + string_len(map_key_at<string, string>(%s, 0usize))", ov[x].name, ov[x].name);
	} else if (r == 14 && (x = pick(K_BOX, 1)) >= 0) {
		ov[x].live = 0;
		pg_bp(b, "%s(box_into_inner<%s>(%s))", eatr, rec, ov[x].name);
	} else if (r == 15 && (x = pick(K_HOLD, 0)) >= 0) {
		pg_bp(b, "string_len(%s.tag) + %s(%s.r)", ov[x].name, lookr, ov[x].name);
	} else if (r == 16 && (x = pick(K_HOLD, 1)) >= 0) {
		int w = pg_rnd(3);
		ov[x].live = 0;
		if (w == 0)
			pg_bp(b, "%s(%s.r)", eatr, ov[x].name);
		else if (w == 1)
			pg_bp(b, "%s(%s.r.v)", eatv, ov[x].name);
		else {
			char hr[24], ht[24];
			pg_fresh("hr", hr, sizeof hr);
			pg_fresh("ht", ht, sizeof ht);
			pg_bp(b, "match own %s { %s { r: %s, tag: %s } => %s(%s) + %s(%s), }", ov[x].name, hold, hr, ht, eatr, hr, eat, ht);
		}
	} else if (r == 17 && (x = pick(K_HOLD, 0)) >= 0) {
		char hr[24], ht[24];
		pg_fresh("hr", hr, sizeof hr);
		pg_fresh("ht", ht, sizeof ht);
		pg_bp(b, "match borrow %s { %s { r: %s, tag: %s } => %s(%s) + string_len(%s), }", ov[x].name, hold, hr, ht, lookr, hr, ht);
	} else if (r == 18 && (x = pick(K_BYTES, 0)) >= 0) {
		pg_bp(b, "i64_from_usize(byte_len(bytes_as_slice(%s)))", ov[x].name);
	} else if (r == 19 && (x = pick(K_BYTES, 1)) >= 0) {
		ov[x].live = 0;
		pg_bp(b, "%s(%s)", eatb, ov[x].name);
	} else if (r == 20 && (x = pick(K_CLO, 1)) >= 0) {
		ov[x].live = 0;
		pg_bp(b, "%s()", ov[x].name);
	} else if (r == 21 && tryok) {
		int k = pg_rnd(40);
		pg_bp(b, "%s(acc %% 50 + %d)?", oqi, k);
	} else if (r == 22 && (x = pick(K_OBJ, 0)) >= 0) {
		/* an overriding method with `super`, a borrowed receiver */
		pg_bp(b, "%s.look(%d)", ov[x].name, pg_rnd(9));
	} else if (r == 23 && (x = pick(K_OBJ, 1)) >= 0) {
		/* the inherited consuming method: the receiver is upcast, the
		 * child's own fields released */
		ov[x].live = 0;
		pg_bp(b, "%s.take(%d)", ov[x].name, pg_rnd(9));
	} else if (r == 24 && (x = pick(K_OBJ, 1)) >= 0) {
		ov[x].live = 0;
		if (pg_chance(50))
			pg_bp(b, "%s(%s.tags)", eatv, ov[x].name);
		else
			pg_bp(b, "%s(%s.name)", eat, ov[x].name);
	} else {
		small_i64(b);
	}
}

static void stmts(Buf *b, int n);

static void stmt(Buf *b)
{
	int r = pg_rnd(20);
	int x, len, cap;
	budget--;
	if (r < 6) {
		/* a new binding */
		int kind = pg_rnd(NKIND);
		Buf e = { 0 };
		int mut = pg_chance(40);
		if (kind == K_STR)
			str_expr(&e, 2);
		else if (kind == K_VEC)
			vec_expr(&e, 2, &len, &cap);
		else if (kind == K_REC)
			rec_expr(&e, 2);
		else if (kind == K_MAP || kind == K_SMAP) {
			const char *vt = kind == K_MAP ? "i64" : "string";
			int n = 1 + pg_rnd(3);
			for (int i = 0; i < n; i++)
				pg_bp(&e, "map_set<string, %s>(", vt);
			pg_bp(&e, "map_new<string, %s>(64usize)", vt);
			for (int i = 0; i < n; i++) {
				pg_bp(&e, ", ");
				key_expr(&e);
				pg_bp(&e, ", ");
				if (kind == K_MAP)
					small_i64(&e);
				else
					key_expr(&e);
				pg_bp(&e, ")");
			}
		} else if (kind == K_BOX) {
			pg_bp(&e, "box_new<%s>(", rec);
			rec_expr(&e, 1);
			pg_bp(&e, ")");
		} else if (kind == K_HOLD) {
			int w = pg_rnd(3);
			if (w == 0 && (x = pick(K_HOLD, 1)) >= 0) {
				ov[x].live = 0;
				pg_bp(&e, "%s with { tag: ", ov[x].name);
				str_expr(&e, 1);
				pg_bp(&e, " }");
			} else if (w == 1 && (x = pick(K_BOX, 1)) >= 0) {
				ov[x].live = 0;
				pg_bp(&e, "%s { tag: ", hold);
				str_expr(&e, 1);
				pg_bp(&e, ", r: box_into_inner<%s>(%s) }", rec, ov[x].name);
			} else {
				pg_bp(&e, "%s { r: ", hold);
				rec_expr(&e, 1);
				pg_bp(&e, ", tag: ");
				str_expr(&e, 1);
				pg_bp(&e, " }");
			}
		} else if (kind == K_BYTES) {
			int n = 1 + pg_rnd(6);
			if (pg_chance(50))
				pg_bp(&e, "bytes_zeroed(%dusize)", n);
			else
				pg_bp(&e, "bytes_set(bytes_zeroed(%dusize), %dusize, %du8)", n, n - 1, n * 7);
		} else if (kind == K_OBJ) {
			if (pg_chance(30) && (x = pick(K_OBJ, 1)) >= 0) {
				ov[x].live = 0;
				pg_bp(&e, "%s with { name: ", ov[x].name);
				str_expr(&e, 1);
				pg_bp(&e, " }");
			} else {
				pg_bp(&e, "%s { name: ", kid);
				str_expr(&e, 1);
				pg_bp(&e, ", n: ");
				small_i64(&e);
				pg_bp(&e, ", tags: ");
				vec_expr(&e, 1, &len, &cap);
				pg_bp(&e, " }");
			}
		} else if (kind == K_CLO) {
			x = pick(K_BYTES, 1);
			if (x < 0) {
				/* bytes to capture, bound first */
				OVar *y = add(K_BYTES, 0);
				if (!y)
					return;
				x = (int)(y - ov);
				int n = 1 + pg_rnd(5);
				pg_indent(b, depth + 1);
				pg_bp(b, "let %s = bytes_zeroed(%dusize);\n", y->name, n);
			}
			ov[x].live = 0;
			pg_bp(&e, "own fn() -> i64 { %s(%s) }", eatb, ov[x].name);
			mut = 0;
		} else {
			if (pg_chance(70)) {
				pg_bp(&e, "Option<string>::Some { value: ");
				str_expr(&e, 1);
				pg_bp(&e, " }");
			} else
				pg_bp(&e, "Option<string>::None {}");
		}
		OVar *v = add(kind, mut);
		if (!v) {
			pg_bfree(&e);
			return;
		}
		v->vlen = len;
		v->vcap = cap;
		v->mops = 3 * trips;
		pg_indent(b, depth + 1);
		pg_bp(b, "let %s%s = %s;\n", mut ? "mut " : "", v->name, e.p);
		pg_bfree(&e);
	} else if (r < 11) {
		Buf e = { 0 };
		i64_expr(&e, 2);
		pg_indent(b, depth + 1);
		pg_bp(b, "acc = mix(acc, %s);\n", e.p);
		pg_bfree(&e);
	} else if (r < 13) {
		/* a reopen of a mutable binding */
		int k = pg_rnd(5);
		x = -1;
		for (int i = nov - 1; i >= 0; i--) {
			OVar *v = &ov[i];
			if (v->live && v->mut && !v->lent && !v->frozen &&
			    (v->kind == (k == 0 ? K_VEC : k == 1 ? K_MAP : k == 2 ? K_STR : k == 3 ? K_REC : K_SMAP) || (k == 3 && v->kind == K_OBJ))) {
				x = i;
				break;
			}
		}
		if (x < 0)
			return;
		OVar *v = &ov[x];
		Buf e = { 0 };
		if (v->kind == K_VEC) {
			if (v->depth < loop_floor || v->vlen >= v->vcap)
				return;
			str_expr(&e, 1);
			if (!v->live)
				{ pg_bfree(&e); return; }
			v->vlen++;
			pg_indent(b, depth + 1);
			pg_bp(b, "%s = vec_push<string>(%s, %s);\n", v->name, v->name, e.p);
		} else if (v->kind == K_MAP || v->kind == K_SMAP) {
			if (v->mops + trips > 60)
				return;
			v->mops += trips;
			key_expr(&e);
			pg_bp(&e, ", ");
			if (v->kind == K_MAP)
				small_i64(&e);
			else
				key_expr(&e);
			pg_indent(b, depth + 1);
			pg_bp(b, "%s = map_set<string, %s>(%s, %s);\n", v->name, v->kind == K_MAP ? "i64" : "string", v->name, e.p);
		} else if (v->kind == K_STR) {
			str_expr(&e, 1);
			if (!v->live) /* the value consumed the binding itself */
				v->live = 1;
			pg_indent(b, depth + 1);
			pg_bp(b, "%s = %s;\n", v->name, e.p);
		} else {
			small_i64(&e);
			pg_indent(b, depth + 1);
			pg_bp(b, "%s.n = %s;\n", v->name, e.p);
		}
		pg_bfree(&e);
	} else if (r < 14) {
		/* an alias moves the binding */
		int kind = pg_rnd(NKIND);
		x = kind == K_CLO ? -1 : pick(kind, 1);
		if (x < 0)
			return;
		ov[x].live = 0;
		OVar *v = add(kind, 0);
		if (!v)
			return;
		v->vlen = ov[x].vlen;
		v->vcap = ov[x].vcap;
		v->mops = ov[x].mops;
		pg_indent(b, depth + 1);
		pg_bp(b, "let %s = %s;\n", v->name, ov[x].name);
	} else if (r < 16 && budget > 2) {
		/* a statement if: what a branch moves is dead after it */
		Buf c = { 0 };
		i64_expr(&c, 1);
		int k = pg_rnd(5);
		pg_indent(b, depth + 1);
		pg_bp(b, "if %s > %d {\n", c.p, k);
		pg_bfree(&c);
		int save = nov;
		depth++;
		stmts(b, 1 + pg_rnd(3));
		depth--;
		nov = save;
		pg_indent(b, depth + 1);
		pg_bp(b, "}\n");
	} else if (r < 17 && budget > 2 && trips < 9 && (x = pick(K_VEC, 0)) >= 0 && ov[x].vlen > 0 && !ov[x].mut) {
		/* a borrowing `for`: the item lends each element, the Vec is
		 * frozen in the body */
		int n = ov[x].vlen, save = nov, floor = loop_floor, t = trips;
		OVar *it;
		depth++;
		if (!(it = add(K_STR, 0))) {
			depth--;
			return;
		}
		it->lent = 1;
		pg_indent(b, depth);
		pg_bp(b, "for %s in %s {\n", it->name, ov[x].name);
		ov[x].frozen++;
		loop_floor = depth;
		trips *= n;
		stmts(b, 1 + pg_rnd(3));
		pg_indent(b, depth + 1);
		pg_bp(b, "0\n");
		ov[x].frozen--;
		trips = t;
		loop_floor = floor;
		depth--;
		nov = save;
		pg_indent(b, depth + 1);
		pg_bp(b, "}\n");
	} else if (r < 18 && budget > 2 && trips < 9) {
		char i[24];
		pg_fresh("oi", i, sizeof i);
		int n = 1 + pg_rnd(3);
		pg_indent(b, depth + 1);
		pg_bp(b, "let mut %s = 0;\n", i);
		pg_indent(b, depth + 1);
		pg_bp(b, "while %s < %d {\n", i, n);
		int save = nov, floor = loop_floor, t = trips;
		depth++;
		loop_floor = depth;
		trips *= n;
		stmts(b, 1 + pg_rnd(3));
		pg_indent(b, depth + 1);
		pg_bp(b, "%s = %s + 1;\n", i, i);
		pg_indent(b, depth + 1);
		pg_bp(b, "0\n");
		trips = t;
		loop_floor = floor;
		depth--;
		nov = save;
		pg_indent(b, depth + 1);
		pg_bp(b, "}\n");
	} else if (r < 19 && pg_chance(40)) {
		/* a run-time failure (division by zero) while bindings are live */
		int k = pg_rnd(11);
		pg_indent(b, depth + 1);
		pg_bp(b, "acc = mix(acc, 1000 / (a %% 11 - %d));\n", k);
	} else {
		Buf e = { 0 };
		i64_expr(&e, 1);
		pg_indent(b, depth + 1);
		pg_bp(b, "let _ = %s;\n", e.p);
		pg_bfree(&e);
	}
}

/* a statement-if branch kills what it moves outside it: after the branch,
 * a binding of an outer block that is no longer live stays dead (the
 * caller restores only the count) */
static void stmts(Buf *b, int n)
{
	for (int i = 0; i < n && budget > 0; i++)
		stmt(b);
}

void pg_feat_ownflow(char *call, size_t cap)
{
	char fn[24], wrap[24];
	pg_fresh("ORec", rec, sizeof rec);
	pg_fresh("owe", eat, sizeof eat);
	pg_fresh("owv", eatv, sizeof eatv);
	pg_fresh("owr", eatr, sizeof eatr);
	pg_fresh("owl", lookr, sizeof lookr);
	pg_fresh("owk", mk, sizeof mk);
	pg_fresh("owf", fn, sizeof fn);
	pg_fresh("oww", wrap, sizeof wrap);
	static const PgField recf[] = { { "s", "string", NULL }, { "v", "Vec<string>", NULL }, { "n", "i64", NULL } };
	pg_record_decl(&pg_decls, rec, "", recf, 3, NULL);
	pg_fresh("OHold", hold, sizeof hold);
	pg_fresh("owb", eatb, sizeof eatb);
	const PgField holdf[] = { { "r", rec, NULL }, { "tag", "string", NULL } };
	pg_record_decl(&pg_decls, hold, "", holdf, 2, NULL);
	pg_fresh("owh", mkh, sizeof mkh);
	/* a class with an owned field and a child adding one: an override
	 * calling `super` on a borrowed receiver, an inherited consuming method */
	pg_fresh("OBase", kbase, sizeof kbase);
	pg_fresh("OKid", kid, sizeof kid);
	pg_id_line(&pg_decls, 0, kbase);
	pg_bp(&pg_decls, "class %s {\n", kbase);
	pg_id_linef(&pg_decls, 1, "%s.name", kbase);
	pg_bp(&pg_decls, "    name: string,\n");
	pg_id_linef(&pg_decls, 1, "%s.n", kbase);
	pg_bp(&pg_decls, "    n: i64,\n\n");
	pg_id_linef(&pg_decls, 1, "%s.look", kbase);
	pg_bp(&pg_decls, "    fn look(self: borrow %s, k: i64) -> i64\n{\n        string_len(self.name) + k\n    }\n\n", kbase);
	pg_id_linef(&pg_decls, 1, "%s.take", kbase);
	pg_bp(&pg_decls, "    fn take(self: own %s, k: i64) -> i64\n{\n        string_len(self.name) * 2 + self.n %% 100 + k\n    }\n}\n\n", kbase);
	pg_id_line(&pg_decls, 0, kid);
	pg_bp(&pg_decls, "class %s : %s {\n", kid, kbase);
	pg_id_linef(&pg_decls, 1, "%s.tags", kid);
	pg_bp(&pg_decls, "    tags: Vec<string>,\n\n");
	pg_id_linef(&pg_decls, 1, "%s.look", kid);
	pg_bp(&pg_decls, "    fn look(self: borrow %s, k: i64) -> i64\n{\n        super.look(k) + i64_from_usize(vec_len<string>(self.tags))\n    }\n}\n\n", kid);
	pg_id_line(&pg_funcs, 0, eatb);
	pg_bp(&pg_funcs, "fn %s(b: own Bytes) -> i64\n{\n    i64_from_usize(byte_len(bytes_as_slice(b))) * 2 + 1\n}\n\n", eatb);
	pg_id_line(&pg_funcs, 0, eat);
	pg_bp(&pg_funcs, "fn %s(s: string) -> i64\n{\n    string_len(s) * 3 + 1\n}\n\n", eat);
	pg_id_line(&pg_funcs, 0, eatv);
	pg_bp(&pg_funcs, "fn %s(v: own Vec<string>) -> i64\n{\n    i64_from_usize(vec_len<string>(v)) * 5 + string_len(vec_clone_at<string>(v, 0usize))\n}\n\n", eatv);
	pg_id_line(&pg_funcs, 0, eatr);
	pg_bp(&pg_funcs, "fn %s(r: own %s) -> i64\n{\n    %s(r.s) + %s(r.v) + r.n %% 100\n}\n\n", eatr, rec, eat, eatv);
	pg_id_line(&pg_funcs, 0, lookr);
	pg_bp(&pg_funcs, "fn %s(r: borrow %s) -> i64\n{\n    string_len(r.s) + i64_from_usize(vec_len<string>(r.v)) * 7\n}\n\n", lookr, rec);
	pg_id_line(&pg_funcs, 0, mk);
	pg_bp(&pg_funcs, "fn %s(k: i64) -> %s\n{\n    %s { s: string_from_i64(k), v: vec_push<string>(vec_with_capacity<string>(2usize), string_from_i64(k + 1)), n: k }\n}\n\n",
	      mk, rec, rec);

	pg_id_line(&pg_funcs, 0, mkh);
	pg_bp(&pg_funcs, "fn %s(k: i64) -> %s\n{\n    %s { r: %s { s: string_from_i64(k), v: vec_push<string>(vec_push<string>(vec_with_capacity<string>(2usize), \"h\"), string_from_i64(k)), n: k }, tag: string_from_i64(k * 11) }\n}\n\n",
	      mkh, hold, hold, rec);

	/* the body: owned parameters, maybe under contracts */
	nov = 0;
	depth = 0;
	loop_floor = 0;
	trips = 1;
	budget = 6 + pg_rnd(14);
	tryok = pg_chance(40);
	const char *res = tryok ? "Option<i64>" : "i64";
	if (tryok) {
		pg_fresh("owqs", oqs, sizeof oqs);
		pg_fresh("owqi", oqi, sizeof oqi);
		pg_id_line(&pg_funcs, 0, oqs);
		pg_bp(&pg_funcs, "fn %s(k: i64) -> Option<string>\n{\n    if k %% 7 == 0 { Option<string>::None {} } else { Option<string>::Some { value: string_from_i64(k) } }\n}\n\n", oqs);
		pg_id_line(&pg_funcs, 0, oqi);
		pg_bp(&pg_funcs, "fn %s(k: i64) -> Option<i64>\n{\n    if k %% 7 == 3 { Option<i64>::None {} } else { Option<i64>::Some { value: k * 3 } }\n}\n\n", oqi);
	}
	Buf body = { 0 };
	OVar *p0 = add(K_STR, 0), *p1 = add(K_VEC, 0), *p2 = add(K_REC, 0);
	p1->vlen = 1;
	p1->vcap = 3;
	pg_id_line(&pg_funcs, 0, fn);
	pg_bp(&pg_funcs, "fn %s(a: i64, %s: string, %s: own Vec<string>, %s: own %s) -> %s\n", fn, p0->name, p1->name, p2->name, rec, res);
	int c = pg_rnd(6);
	if (c == 0)
		pg_bp(&pg_funcs, "    requires a %% 13 != %d || string_len(%s) > 1\n", pg_rnd(13), p0->name);
	else if (c == 1 && tryok)
		pg_bp(&pg_funcs, "    ensures match result { Option::Some { value } => value %% 9 != %d, Option::None {} => true, }\n", pg_rnd(9));
	else if (c == 1)
		pg_bp(&pg_funcs, "    ensures result %% 9 != %d\n", pg_rnd(9));
	pg_bp(&body, "    let mut acc = a;\n");
	while (budget > 0)
		stmt(&body);
	pg_bp(&pg_funcs, "{\n%s    %s\n}\n\n", body.p, tryok ? "Option<i64>::Some { value: acc }" : "acc");
	pg_bfree(&body);
	int k = pg_rnd(50);
	pg_id_line(&pg_funcs, 0, wrap);
	pg_bp(&pg_funcs, "fn %s(a: i64) -> i64\n{\n    %s%s(a, string_from_i64(a * 3), vec_push<string>(vec_with_capacity<string>(3usize), \"%s\"), %s(a + %d))%s\n}\n\n",
	      wrap, tryok ? "match " : "", fn, pg_words[k % PG_NWORDS], mk, k,
	      tryok ? " { Option::Some { value } => value, Option::None {} => -1, }" : "");
	int arg = pg_rnd(30);
	snprintf(call, cap, "%s(%d)", wrap, arg);
}
