/*
 * unit.c — C unit tests for functions easier to test alone: SHA-256
 * (FIPS 180-2 / NIST CAVS vectors), UTF-8 decoding, JSON escaping, the
 * native lane's escaping of source text into C (src/emit_c/escape.c), the
 * edit distance of "did you mean" help (support/util.c); two driver
 * Sessions interleaved (session_test.c); a Program of two modules
 * (program_test.c); the one-line declaration headers (fmt_decl_header); the
 * checker's std function table against the parsed library (std_names_test.c).
 * Prints one FAIL line per failure and `unit: N passed, N failed`.
 */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "../../src/support/buf.h"
#include "../../src/support/json.h"
#include "../../src/support/sha256.h"
#include "../../src/support/utf8.h"
#include "../../src/emit_c/emit_int.h"
#include "../../src/fmt/fmt.h"
#include "../../src/hir/hir.h"
#include "../../src/parse/parse.h"
#include "../../src/sema/program.h"
#include "../../src/sema/sema.h"
#include "unit.h"

static int pass, fail;

static void
check(int ok, const char *what)
{
	if (ok) {
		pass++;
	} else {
		fail++;
		printf("FAIL unit: %s\n", what);
	}
}

void
unit_check(int ok, const char *what)
{
	check(ok, what);
}

static bool
param_is(BuiltinId bi, int i, const char *name, ParamMode mode, const char *type)
{
	BuiltinParam p;
	return sema_builtin_param(bi, i, &p) && p.name_len == (int)strlen(name) && memcmp(p.name, name, strlen(name)) == 0
	    && p.mode == mode && p.type_len == (int)strlen(type) && memcmp(p.type, type, strlen(type)) == 0;
}

/* builtins.def: every declared parameter has a name, unique in its row. */
static void
builtin_param_checks(void)
{
	check(param_is(BI_vec_push, 0, "v", MODE_OWN, "Vec<T>") && param_is(BI_vec_push, 1, "x", MODE_NONE, "T"),
	      "builtin params: vec_push(v: own Vec<T>, x: T)");
	check(param_is(BI_map_get_or, 2, "default", MODE_BORROW, "V") && param_is(BI_array_as_slice, 0, "a", MODE_BORROW, "[u8; N]")
	      && param_is(BI_file_write_atomic, 3, "data_length", MODE_NONE, "usize"), "builtin params: names, modes, type text");
	BuiltinParam p;
	check(!sema_builtin_param(BI_string_format, 0, &p) && !sema_builtin_param(BI_vec_push, 2, &p)
	      && !sema_builtin_param(BI_args_len, 0, &p), "builtin params: none past the last (string_format declares none)");
	check(sema_builtin_result_view(BI_arg_utf8) && sema_builtin_result_view(BI_byte_range) && !sema_builtin_result_view(BI_string_len),
	      "builtin params: view results");
	bool named = true;
	for (int b = 0; b < BI_COUNT; b++) {
		BuiltinParam q[8];
		int n = 0;
		while (n < 8 && sema_builtin_param((BuiltinId)b, n, &q[n]))
			n++;
		named &= n == (sema_builtin_by_id((BuiltinId)b)->nparams < 0 ? 0 : sema_builtin_by_id((BuiltinId)b)->nparams);
		for (int i = 0; i < n; i++) {
			named &= q[i].name_len > 0 && q[i].type_len > 0;
			for (int j = 0; j < i; j++)
				named &= !(q[i].name_len == q[j].name_len && memcmp(q[i].name, q[j].name, (size_t)q[i].name_len) == 0);
		}
	}
	check(named, "builtin params: every parameter of every row named, uniquely");
	int run_host = 0;
	for (int b = 0; b < BI_COUNT; b++)
		run_host += sema_builtin_by_id((BuiltinId)b)->effect && hir_run_op((BuiltinId)b);
	check(run_host == 14 && hir_run_op(BI_stdout_write) && hir_run_op(BI_file_read_text) && hir_run_op(BI_string_len)
	      && hir_run_op(BI_stdin_read) && hir_run_op(BI_file_write_atomic) && hir_run_op(BI_env_value_utf8)
	      && hir_run_op(BI_clock_now_ms) && hir_run_op(BI_stdin_stream_open) && hir_run_op(BI_stdin_stream_next)
	      && hir_run_op(BI_stdin_stream_eof) && !hir_run_op(BI_file_read) && !hir_run_op(BI_file_remove) && !hir_run_op(BI_net_send),
	      "hir_run_op: every pure builtin and fourteen host operations");
}

/* Decodes a C string literal body as emitc_c_string writes it: \", \\ and \ooo. */
static size_t
c_unescape(const char *s, size_t n, unsigned char *out)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] != '\\') {
			out[k++] = (unsigned char)s[i];
		} else if (s[i + 1] == '"' || s[i + 1] == '\\') {
			out[k++] = (unsigned char)s[++i];
		} else {
			out[k++] = (unsigned char)((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
			i += 3;
		}
	}
	return k;
}

/* Source text of every byte value, and hostile sequences, through both escapers. */
static void
escape_checks(void)
{
	static const char hostile[] = "*/?\?/\\\n/*?\"%s*";
	unsigned char all[256 + sizeof hostile - 1];
	for (int i = 0; i < 256; i++)
		all[i] = (unsigned char)i;
	memcpy(all + 256, hostile, sizeof hostile - 1);
	Buf c = {0}, l = {0};
	emitc_comment_text(&c, (const char *)all, sizeof all);
	bool safe = true;
	for (size_t i = 0; i < c.len; i++) {
		unsigned char ch = (unsigned char)c.data[i];
		if (ch < 0x20 || ch >= 0x7f || strchr("*/?\\\"", ch))
			safe = false;
	}
	check(safe && !strstr(c.data, "*/") && !strstr(c.data, "??"), "comment text: no comment end, trigraph, splice, control or non-ASCII byte");
	emitc_c_string(&l, (const char *)all, sizeof all);
	bool plain = true;
	for (size_t i = 0; i < l.len; i++) {
		unsigned char ch = (unsigned char)l.data[i];
		if (ch < 0x20 || ch >= 0x7f || ch == '?' || ch == '*' || ch == '/')
			plain = false;
		if (ch == '"' && (i == 0 || l.data[i - 1] != '\\'))
			plain = false;
	}
	unsigned char back[sizeof all + 8];
	size_t nb = c_unescape(l.data, l.len, back);
	check(plain && nb == sizeof all && memcmp(back, all, sizeof all) == 0,
	      "string literal body: printable, no raw quote, trigraph or comment marker, decodes to the input");
	buf_free(&c);
	buf_free(&l);
}

static void
sha_vector(const char *msg, size_t reps, const char *want)
{
	Sha256 s;
	sha256_init(&s);
	for (size_t i = 0; i < reps; i++)
		sha256_update(&s, msg, strlen(msg));
	unsigned char d[32];
	char hex[65];
	sha256_final(&s, d);
	sha256_hex(d, hex);
	char what[128];
	snprintf(what, sizeof what, "sha256 of \"%.20s\" x%zu", msg, reps);
	check(strcmp(hex, want) == 0, what);
}

/* A source parsed and, when it parses cleanly and `check_it` asks, checked:
 * the setup the checker, HIR and formatter tests share. */
typedef struct {
	DiagSink d;
	Arena a;
	Module *m;
	Sema *S;
} UnitSrc;

static void
unit_src_open(UnitSrc *u, const char *src, size_t len, bool check_it)
{
	diag_init(&u->d, "unit.spx", src, len);
	arena_init(&u->a);
	u->m = parse_module(src, len, &u->a, &u->d);
	u->S = check_it && u->m && !u->d.errors ? sema_check(u->m, src, len, &u->d) : NULL;
}

static void
unit_src_close(UnitSrc *u)
{
	if (u->S)
		sema_free(u->S);
	arena_free(&u->a);
	diag_free(&u->d);
}

/* unit_src_open with the check, which must verify (reported as what). */
static bool
unit_src_verified(UnitSrc *u, const char *src, size_t len, const char *what)
{
	unit_src_open(u, src, len, true);
	bool ok = u->S && !u->d.errors;
	check(ok, what);
	return ok;
}

/* A tampered HIR put back validates again (validate: hir_validate or
 * hir_validate_mono), reported to a fresh sink: the test's own holds the
 * H006s the tampering drew. */
static bool
validates_again(bool (*validate)(HirModule *, DiagSink *), HirModule *H, const char *src, size_t len)
{
	DiagSink d;
	diag_init(&d, "unit.spx", src, len);
	bool ok = validate(H, &d);
	diag_free(&d);
	return ok;
}

/* The only expression statement is a statement `if` (lower.c): the lanes
 * rely on it (the interpreter compiles HS_EXPR as an if, and discards no
 * other value), and the validator holds it (H006). */
static void
hir_stmt_if_checks(void)
{
	static const char src[] =
		"module unit.sif;\n"
		"@id(\"unit.sif.f\")\nfn f(x: i64) -> i64 { let mut n = 0; if x > 0 { n = 1; } n }\n"
		"@id(\"unit.sif.main\")\nfn main() -> i64 { f(2) }\n";
	UnitSrc u;
	if (!unit_src_verified(&u, src, sizeof src - 1, "hir statement if: the source verifies")) {
		unit_src_close(&u);
		return;
	}
	HirModule *H = hir_lower(u.S);
	HirStmt *st = NULL;
	for (int i = 0; i < H->nfuncs; i++)
		if (strcmp(H->funcs[i].id, "unit.sif.f") == 0 && H->funcs[i].body)
			for (int k = 0; k < H->funcs[i].body->nstmts; k++)
				if (H->funcs[i].body->stmts[k]->kind == HS_EXPR)
					st = H->funcs[i].body->stmts[k];
	check(st && st->value->kind == HIR_IF, "hir statement if: lowered to an HS_EXPR holding the if");
	check(hir_validate(H, &u.d), "hir statement if: the lowered HIR validates");
	if (st && st->value->kind == HIR_IF) {
		HirExpr *iff = st->value;
		st->value = iff->u.if_.cond;
		check(!hir_validate(H, &u.d), "hir statement if: an expression statement of another kind is H006");
		st->value = iff;
		check(validates_again(hir_validate, H, src, sizeof src - 1), "hir statement if: restored, it validates again");
	}
	hir_free(H);
	unit_src_close(&u);
}

/* The validator rejects a resolved pattern whose case or field index is out
 * of range or whose binding is not the arm's (near-misses of a valid HIR). */
static void
hir_pattern_checks(void)
{
	static const char src[] =
		"module unit.pat;\n"
		"@id(\"unit.pat.pt\")\nrecord Pt { @id(\"unit.pat.pt.x\") x: i64, @id(\"unit.pat.pt.y\") y: i64, }\n"
		"@id(\"unit.pat.f\")\nfn f(o: Option<Pt>) -> i64 { match o { Option::Some { value: Pt { y, x: _ } } => y, _ => 0, } }\n"
		"@id(\"unit.pat.main\")\nfn main() -> i64 { f(Option<Pt>::None {}) }\n";
	UnitSrc u;
	if (!unit_src_verified(&u, src, sizeof src - 1, "hir patterns: the source verifies")) {
		unit_src_close(&u);
		return;
	}
	Sema *S = u.S;
	DiagSink *d = &u.d;
	HirModule *H = hir_lower(S);
	HirPattern *p = NULL;
	for (int i = 0; i < H->nfuncs; i++) {
		const HirExpr *t = H->funcs[i].body ? H->funcs[i].body->tail : NULL;
		if (strcmp(H->funcs[i].id, "unit.pat.f") == 0 && t && t->kind == HIR_MATCH)
			p = t->u.match.arms[0].pat;
	}
	check(p && p->kind == HIR_PAT_CASE && p->case_index == 1 && p->nfields == 1 && p->fields[0] == 0,
	      "hir patterns: Some is case 1, its payload field 0");
	HirPattern *r = p && p->nfields == 1 ? p->subs[0] : NULL;
	check(r && r->kind == HIR_PAT_RECORD && r->nfields == 2 && r->fields[0] == 1 && r->fields[1] == 0 &&
	      r->subs[0]->kind == HIR_PAT_BIND && r->subs[1]->kind == HIR_PAT_WILD,
	      "hir patterns: record fields resolved by name, not position");
	check(hir_validate(H, d), "hir patterns: the lowered HIR validates");
	if (r && r->nfields == 2) {
		r->fields[0] = 2;
		check(!hir_validate(H, d), "hir patterns: a field index out of range is H006");
		r->fields[0] = 1;
		p->case_index = 7;
		check(!hir_validate(H, d), "hir patterns: a case index out of range is H006");
		p->case_index = 1;
		r->subs[0]->slot += 1;
		check(!hir_validate(H, d), "hir patterns: a binding that is not the arm's is H006");
		r->subs[0]->slot -= 1;
		check(validates_again(hir_validate, H, src, sizeof src - 1), "hir patterns: restored, it validates again");
	}
	hir_free(H);
	unit_src_close(&u);
}

/* The checker's compact per-expression tables: a type id past 16 bits
 * widens the type table without changing any other entry; the callee map
 * keeps every entry through its growth; a symbol that is not a type sees
 * the shared empty nominal part (no fields, cases or methods, parent -1). */
static void
sema_table_checks(void)
{
	static const char src[] =
		"module unit.tab;\n"
		"@id(\"unit.tab.pt\")\nrecord Pt { @id(\"unit.tab.pt.x\") x: i64, }\n"
		"@id(\"unit.tab.f\")\nfn f(p: Pt) -> i64 { p.x + 1 }\n"
		"@id(\"unit.tab.main\")\nfn main() -> i64 { f(Pt { x: 2 }) }\n";
	UnitSrc u;
	bool ok = unit_src_verified(&u, src, sizeof src - 1, "sema tables: the source verifies");
	Module *m = u.m;
	Sema *S = u.S;
	check(!ok || m->nexprs >= 4, "sema tables: the source has its expressions");
	if (ok && m->nexprs >= 4) {
		uint32_t n = m->nexprs;
		TypeId before[64];
		SymId syms[64];
		for (uint32_t i = 0; i < n && i < 64; i++) {
			before[i] = sema_expr_type(S, i);
			syms[i] = sema_expr_sym(S, i);
		}
		check(S->expr_type16 != NULL, "sema tables: types start 16 bits wide");
		sema_expr_type_set(S, n - 1, 70000u);
		bool same = S->expr_type16 == NULL && sema_expr_type(S, n - 1) == 70000u;
		for (uint32_t i = 0; i + 1 < n && i < 64; i++)
			same = same && sema_expr_type(S, i) == before[i];
		check(same, "sema tables: a type id past 16 bits widens the table, other entries kept");
		sema_expr_type_set(S, n - 1, before[n - 1 < 64 ? n - 1 : 0]);
		for (uint32_t i = 0; i < 5000; i++)
			sema_expr_sym_set(S, n + i, (SymId)(i % 7));
		same = true;
		for (uint32_t i = 0; i < n && i < 64; i++)
			same = same && sema_expr_sym(S, i) == syms[i];
		for (uint32_t i = 0; i < 5000; i++)
			same = same && sema_expr_sym(S, n + i) == (SymId)(i % 7);
		check(same && sema_expr_sym(S, n + 5000) == -1, "sema tables: the callee map keeps every entry as it grows");
		SymId fsym = -1;
		for (SymId y = 0; y < S->syms.len; y++)
			if (sema_sym(S, y)->kind == SK_FN)
				fsym = y;
		const Sym *fy = fsym >= 0 ? sema_sym(S, fsym) : NULL;
		check(fy && fy->nom == &sema_sym_nominal_none && fy->nom->nfields == 0 && fy->nom->fields == NULL && fy->nom->parent == -1,
		      "sema tables: a function's nominal part is the shared empty one");
	}
	unit_src_close(&u);
}

/* The checker's name maps spread a family of long names that differ only in
 * pairs of letters 32 places apart with equal xor (`a…b` / `b…a`): a
 * rotate-xor hash gave every one the same hash, so 20,000 such locals made
 * one function's bindings quadratic.  4,096 of them get (nearly) as many
 * hashes, and every one is found again. */
static void
strmap_spread_checks(void)
{
	static const char pairs[][2] = { {'a','b'}, {'b','a'}, {'d','g'}, {'g','d'}, {'e','f'}, {'f','e'}, {'h','k'}, {'k','h'} };
	enum { N = 4096, LEN = 65 };
	char (*names)[LEN + 1] = calloc(N, sizeof *names);
	StrMap m = {0};
	for (int i = 0; i < N; i++) {
		memset(names[i], 'q', LEN);
		names[i][0] = 'v';
		for (int k = 0, x = i; k < 4; k++, x /= 8) {
			names[i][1 + k] = pairs[x % 8][0];
			names[i][33 + k] = pairs[x % 8][1];
		}
		sema_strmap_put(&m, names[i], i);
	}
	uint32_t *h = calloc(N, sizeof *h);
	int n = 0, distinct = 0;
	for (uint32_t i = 0; i < m.cap; i++)
		if (m.slots[i].key)
			h[n++] = m.slots[i].hash;
	for (int i = 0; i < n; i++) {
		bool seen = false;
		for (int j = 0; j < i && !seen; j++)
			seen = h[j] == h[i];
		distinct += !seen;
	}
	bool found = n == N;
	for (int i = 0; i < N && found; i++)
		found = sema_strmap_get(&m, names[i]) == i;
	check(found, "strmap: every name of the family is found again");
	check(distinct >= N - 8, "strmap: a family of names with equal xor pairs 32 apart spreads over the hashes");
	sema_strmap_free(&m);
	free(h);
	free(names);
}

/* The four instances of in plus a copy of in[2] (arena memory of the HIR). */
static HirInst *
realloc_insts(HirModule *H, const HirInst *in)
{
	HirInst *more = ARENA_ARRAY(&H->arena, HirInst, 5);
	memcpy(more, in, sizeof *more * 4);
	more[4] = in[2];
	return more;
}

/* The instance list (hir_mono) validates, and the validator rejects each
 * corruption a lane would trust: a call site reaching another function's
 * instance, an instance with other type arguments, a slot whose ownership
 * disagrees with its concrete type, an instance nothing reaches. */
static void
hir_mono_checks(void)
{
	static const char src[] =
		"module unit.mono;\n"
		"@id(\"unit.mono.id\")\nfn id<T>(x: T) -> T { x }\n"
		"@id(\"unit.mono.one\")\nfn one() -> i64 { 1 }\n"
		"@id(\"unit.mono.main\")\nfn main() -> i64 { id<i64>(one()) + string_len(id<string>(\"ab\")) }\n";
	UnitSrc u;
	bool verified = unit_src_verified(&u, src, sizeof src - 1, "hir mono: the source verifies");
	Sema *S = u.S;
	DiagSink *d = &u.d;
	HirModule *H = verified ? hir_lower(S) : NULL;
	bool ok = H && hir_mono(H, d) && H->mono;
	check(ok, "hir mono: the instances are listed");
	const HirMono *mo = ok ? H->mono : NULL;
	/* main, id<i64>, one, id<string>: a call before its arguments */
	check(mo && mo->ninsts == 4 && mo->ngeneric == 2, "hir mono: four instances, two generic");
	if (mo && mo->ninsts == 4) {
		HirInst *in = mo->insts;
		check(strcmp(H->funcs[in[1].func].id, "unit.mono.id") == 0 && in[1].ntargs == 1 && in[1].targs[0] == T_I64 &&
		      strcmp(H->funcs[in[2].func].id, "unit.mono.one") == 0 && in[3].ntargs == 1 && in[3].targs[0] == T_STRING,
		      "hir mono: discovery order main, id<i64>, one, id<string>");
		check(!in[1].slot_owned[0] && in[3].slot_owned[0] && !H->funcs[in[3].func].locals[0].owned,
		      "hir mono: the T-typed slot is owned in id<string> only");
		check(hir_validate_mono(H, d), "hir mono: the list validates");
		int site = -1;
		for (uint32_t x = 0; x < H->funcs[in[0].func].nexprs; x++)
			if (in[0].target[x] == 2)
				site = (int)x;
		check(site >= 0, "hir mono: main's call of one() targets instance 2");
		if (site >= 0) {
			in[0].target[site] = 1;
			check(!hir_validate_mono(H, d), "hir mono: a call site reaching another function is H006");
			in[0].target[site] = 3;
			check(!hir_validate_mono(H, d), "hir mono: a call site reaching id<string> for one() is H006");
			in[0].target[site] = 2;
		}
		in[3].targs[0] = T_BOOL;
		check(!hir_validate_mono(H, d), "hir mono: an instance with other type arguments is H006");
		in[3].targs[0] = T_STRING;
		in[3].slot_owned[0] = false;
		check(!hir_validate_mono(H, d), "hir mono: a non-Copy slot not owned is H006");
		in[3].slot_owned[0] = true;
		in[1].slot_owned[0] = true;
		check(!hir_validate_mono(H, d), "hir mono: a Copy slot owned is H006");
		in[1].slot_owned[0] = false;
		H->mono->ninsts = 5;
		H->mono->insts = realloc_insts(H, in);
		check(!hir_validate_mono(H, d), "hir mono: an instance no call site reaches is H006");
		H->mono->ninsts = 4;
		check(validates_again(hir_validate_mono, H, src, sizeof src - 1), "hir mono: restored, it validates again");
	}
	hir_free(H);
	unit_src_close(&u);
}

/* fmt_decl_header: one line per declaration as the formatter prints it, no
 * body, contracts, invariants or members; a method through fmt_fn_header. */
static void
fmt_header_checks(void)
{
	static const char src[] =
		"module unit.hd;\n"
		"permit { io.print }\n"
		"// a comment that never reaches a header\n"
		"record Pair<A, B> { a: A, b: B, } requires true\n"
		"variant Shape<T> { Dot, Box { w: T, }, }\n"
		"class Base { id: i64, fn get(self: Base) -> i64 { self.id } }\n"
		"class Kid<T> : Base<Vec<T>> { }\n"
		"resource File { drop import \"unit.close\"; }\n"
		"interface Files permits { fs.close, fs.read } { }\n"
		"fn add<T>(left: i64, right: borrow Vec<T>, o: own File, s: shared i64) -> Option<i64>\n"
		"    uses { io.print, fs.read } requires left > 0 ensures true { Option::None {} }\n"
		"fn main() -> i64 { 0 }\n";
	static const char *const want[] = {
		"record Pair<A, B>",
		"variant Shape<T>",
		"class Base",
		"class Kid<T> : Base<Vec<T>>",
		"resource File",
		"interface Files permits { fs.close, fs.read }",
		"fn add<T>(left: i64, right: borrow Vec<T>, o: own File, s: shared i64) -> Option<i64> uses { io.print, fs.read }",
		"fn main() -> i64",
	};
	UnitSrc u;
	unit_src_open(&u, src, sizeof src - 1, false);
	Module *m = u.m;
	DiagSink *d = &u.d;
	check(m && !d->errors && m->ndecls == (int)(sizeof want / sizeof *want), "fmt header: the source parses");
	for (int i = 0; m && !d->errors && i < m->ndecls && i < (int)(sizeof want / sizeof *want); i++) {
		Buf b = {0};
		buf_puts(&b, "");
		fmt_decl_header(&b, &m->decls[i]);
		char what[256];
		snprintf(what, sizeof what, "fmt header: `%s` (got `%s`)", want[i], b.data);
		check(strcmp(b.data, want[i]) == 0, what);
		buf_free(&b);
	}
	if (m && !d->errors && m->ndecls > 2 && m->decls[2].kind == DECL_CLASS) {
		Buf b = {0};
		buf_puts(&b, "");
		fmt_fn_header(&b, &m->decls[2].u.class_.members[1].method);
		check(strcmp(b.data, "fn get(self: Base) -> i64") == 0, "fmt header: a method's header");
		buf_free(&b);
	}
	unit_src_close(&u);
}

/* json_syntax_error: the caret goes on the offending token, not on the last
 * byte jansson read (qa19); every text it refuses jansson refuses too, and
 * the texts it takes jansson takes. */
static void
json_error_checks(void)
{
	static const struct { const char *text; size_t start, end; bool nul; } bad[] = {
		{ "{\"a\": tru}", 6, 9, false },             /* a mistyped literal, whole */
		{ "{\"a\": truex}", 6, 11, false },
		{ "[1, 2, 3, foo]", 10, 13, false },
		{ "{\"a\": 1,}", 8, 9, false },              /* trailing comma: the close */
		{ "{\"a\" 1}", 5, 6, false },                /* `:` due */
		{ "[1 2]", 3, 4, false },                    /* `,` due */
		{ "{\"a\":\"b\\q\"}", 7, 9, false },         /* the bad escape */
		{ "{\"a\":1} x", 8, 9, false },              /* trailing token */
		{ "", 0, 0, false },
		{ "   ", 3, 3, false },
		{ "{\"a\": 1", 7, 7, false },                /* premature end */
		{ "{\"abc\": \"x", 8, 9, false },            /* unterminated: its quote */
		{ "[01]", 1, 3, false },
		{ "[1.]", 1, 3, false },
		{ "[-]", 1, 2, false },
		{ "[1,\n  2,\n  @]", 11, 12, false },
		{ "[1,2]]", 5, 6, false },
		{ "{\"a\":\"\\ud800\"}", 6, 12, false },     /* a lone surrogate */
		{ "{\"a\":\"\\udc00\\ud800\"}", 6, 12, false },
		{ "[\"\xff\"]", 2, 3, false },              /* invalid UTF-8: the byte */
		{ "[\"a\tb\"]", 3, 4, false },              /* a raw control */
		{ "{\"a\": 1, \"b\": [1, 2}", 19, 20, false },
		{ "{,}", 1, 2, false },
		{ "{\"k\":\"x\\u0000y\"}", 7, 13, false },   /* \u0000 refused */
		{ "[\"a\" \"b\"]", 5, 8, false },            /* a whole string where `,` was due */
		{ "[\"\xc3\xa9\", tru]", 7, 10, false },      /* byte offsets past UTF-8 */
	};
	for (size_t i = 0; i < countof(bad); i++) {
		size_t st = 99, en = 99, len = strlen(bad[i].text);
		bool found = json_syntax_error(bad[i].text, len, bad[i].nul, &st, &en);
		json_error_t je;
		json_t *j = json_loadb(bad[i].text, len, 0, &je);
		char what[160];
		snprintf(what, sizeof what, "json_syntax_error of `%s`: %zu..%zu, want %zu..%zu", bad[i].text, st, en, bad[i].start, bad[i].end);
		check(found && st == bad[i].start && en == bad[i].end && !j, what);
		json_decref(j);
	}
	static const char *const good[] = {
		"{}", "[]", " {\"a\": [1, -2.5e+3, 0, true, false, null, \"\\u00e9\\ud83d\\ude00\\n\"]} \n",
		"{\"k\":\"x\\u0000y\"}", "[[[[{}]]]]", "{\"a\":{\"b\":{}},\"c\":[]}", "\"s\"", "0", "-0.0E-0",
	};
	for (size_t i = 0; i < countof(good); i++) {
		size_t st, en, len = strlen(good[i]);
		json_error_t je;
		json_t *j = json_loadb(good[i], len, JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);
		check(!json_syntax_error(good[i], len, true, &st, &en) && j, good[i]);
		json_decref(j);
	}
	/* a duplicate key is JSON to the scanner: jansson's token names it */
	const char *dup = "{\"a\":1, \"a\":2}";
	json_error_t je;
	json_t *j = json_loadb(dup, strlen(dup), JSON_REJECT_DUPLICATES, &je);
	size_t st = 0, en = 0;
	json_error_span(dup, strlen(dup), false, je.position, je.text, &st, &en);
	check(!j && st == 8 && en == 11, "json_error_span of a duplicate key: the second key");
	json_decref(j);
	/* jansson stops first for what the scanner does not judge: the caret
	 * goes where jansson stopped, not on a later syntax error */
	const char *dup2 = "{\"a\":1, \"a\":2, x}";
	j = json_loadb(dup2, strlen(dup2), JSON_REJECT_DUPLICATES, &je);
	json_error_span(dup2, strlen(dup2), false, je.position, je.text, &st, &en);
	check(!j && st == 8 && en == 11, "json_error_span of a duplicate key before a syntax error: the second key");
	json_decref(j);
	Buf deep = {0};
	for (int k = 0; k < 3000; k++)
		buf_putc(&deep, '[');
	buf_puts(&deep, "1 2");
	for (int k = 0; k < 3000; k++)
		buf_putc(&deep, ']');
	j = json_loadb(deep.data, deep.len, 0, &je);
	json_error_span(deep.data, deep.len, false, je.position, je.text, &st, &en);
	check(!j && en <= (size_t)je.position && st + 1 == en && deep.data[st] == '[',
	    "json_error_span past jansson's depth bound: where jansson stopped, not the later `2`");
	json_decref(j);
	buf_free(&deep);
}

/* spx_prefault (perf29) only makes pages resident: a block's bytes are
 * unchanged, whatever its alignment and length (none, under a page). */
static void
prefault_checks(void)
{
	size_t n = (size_t)300 << 10;
	unsigned char *b = spx_xmalloc(n + 64);
	for (size_t i = 0; i < n + 64; i++)
		b[i] = (unsigned char)(i * 131 + 7);
	spx_prefault(b + 3, n - 5);
	spx_prefault(b + 1, 0);
	spx_prefault(b + 17, 100);
	spx_prefault(NULL, 0);
	bool same = true;
	for (size_t i = 0; i < n + 64; i++)
		same &= b[i] == (unsigned char)(i * 131 + 7);
	check(same, "spx_prefault keeps a block's bytes");
	/* spx_zero clears exactly [p, p + n) (odd offsets and lengths, and none) */
	spx_zero(b + 5, 1021);
	spx_zero(b + 2000, 0);
	same = true;
	for (size_t i = 0; i < 4096; i++)
		same &= b[i] == (i >= 5 && i < 1026 ? 0 : (unsigned char)(i * 131 + 7));
	check(same, "spx_zero clears exactly its range");
	free(b);
}

/* The name region (arena.h): a copy's header gives the hash and the length
 * a plain string of the same bytes computes; a freed arena's blocks serve
 * the next one; a long name or a string outside the region takes the
 * computed path with the same answers. */
static void
name_region_checks(void)
{
	static const char *const names[] = { "", "x", "ab", "abc", "abcd", "result", "abcdefg", "abcdefgh",
		"abcdefghi", "a_rather_long_identifier_42", "Vec" };
	bool same = true;
	for (int round = 0; round < 2; round++) {
		Arena a;
		arena_init(&a);
		for (size_t i = 0; i < countof(names); i++) {
			uint32_t n = (uint32_t)strlen(names[i]);
			uint32_t h = arena_name_hash(names[i], n);
			const char *c = arena_name_copy(&a, names[i], n, h);
			same &= arena_is_name(c) && strcmp(c, names[i]) == 0;
			same &= arena_str_hash(c) == h && arena_str_hash(names[i]) == h;
			same &= arena_str_len(c) == n && arena_str_len(names[i]) == n;
			same &= !arena_is_name(names[i]);
		}
		/* more than a block's worth, and one name longer than a block */
		char buf[200];
		for (int i = 0; i < 5000; i++) {
			int n = snprintf(buf, sizeof buf, "name_%d_%0*d", i, i % 90, i);
			const char *c = arena_name_copy(&a, buf, (uint32_t)n, arena_name_hash(buf, (size_t)n));
			same &= strcmp(c, buf) == 0 && arena_str_len(c) == (size_t)n && arena_str_hash(c) == arena_str_hash(buf);
		}
		size_t big = (size_t)70 << 10;
		char *longname = spx_xmalloc(big + 1);
		memset(longname, 'q', big);
		longname[big] = '\0';
		const char *c = arena_name_copy(&a, longname, (uint32_t)big, arena_name_hash(longname, big));
		same &= !arena_is_name(c) && strcmp(c, longname) == 0 && arena_str_len(c) == big;
		free(longname);
		arena_free(&a);
	}
	check(same, "arena_name_copy: header hash and length equal the computed ones");
}

/* perf32: the declaration array in the token block's resident tail
 * (lex_source_spare, arena_adopt).  A large file's room lies past its last
 * token, page-aligned, zero, as long as asked; a file whose declarations
 * outnumber the lexer's hint (an unclosed `(` hides the later keywords)
 * moves the array to the heap and keeps every declaration in order. */
static void
decl_room_checks(void)
{
	Buf src = {0};
	buf_puts(&src, "module t.room;\n");
	for (int i = 0; i < 12; i++)
		buf_printf(&src, "fn f%d(x: i64) -> i64 { x + %d }\n", i, i);
	buf_puts(&src, "fn bad(x: i64) -> i64 { (x + 1 }\n");
	for (int i = 0; i < 3000; i++)
		buf_printf(&src, "fn g%d(x: i64) -> i64 { x * %d }\n", i, i);
	Arena a;
	arena_init(&a);
	DiagSink d;
	diag_init(&d, "room.spx", src.data, src.len);
	LexResult lx;
	lex_source_spare(&lx, src.data, src.len, &a, &d, 64, 100);
	bool ok = lx.items_hint == 13;
#ifndef SPX_ASAN
	ok &= lx.spare && lx.spare_len >= 64 + 100 * 13 && lx.spare_len % 4096 == 0 && (uintptr_t)lx.spare % 4096 == 0;
	ok &= lx.spare >= (char *)(lx.toks + lx.ntoks);
	for (size_t i = 0; lx.spare && i < lx.spare_len; i++)
		ok &= lx.spare[i] == 0;
	if (lx.spare)
		memset(arena_adopt(&a, lx.spare, lx.spare_len), 0x5a, lx.spare_len - 64);
#endif
	lex_free(&lx);
	check(ok, "lex_source_spare: zero room past the last token, whole pages");
	diag_free(&d);
	diag_init(&d, "room.spx", src.data, src.len);
	Module *m = parse_module(src.data, src.len, &a, &d);
	/* (`bad` does not parse: its tokens are skipped) */
	ok = m->ndecls == 3012;
	for (int i = 0; ok && i < m->ndecls; i++) {
		char want[16];
		snprintf(want, sizeof want, "%c%d", i < 12 ? 'f' : 'g', i < 12 ? i : i - 12);
		ok &= m->decls[i].kind == DECL_FN && strcmp(m->decls[i].u.fn.name.s, want) == 0;
	}
	check(ok, "parse: declarations past the lexer's hint all kept, in order");
	diag_free(&d);
	arena_free(&a);
	buf_free(&src);
}

/* mend38: the parser's record of grouping parentheses (Module.groups) gives
 * an expression's extent: the outermost `(` of an operand starting it, the
 * `)` of one ending it, never its own; comments between count as text.  A
 * spliced declaration's groups follow the module's; a body parsed aside (the
 * missing-`->` fix) records its groups once. */
static bool
extent_is(const char *src, const Module *m, const Expr *e, const char *want)
{
	Span s = ast_expr_extent(m, e);
	return e && strlen(want) == s.end - s.start && memcmp(src + s.start, want, s.end - s.start) == 0;
}

static void
group_extent_checks(void)
{
	static const char src[] = "module t.g;\n\nfn f(x: i64) -> i64\n{\n    ((x)) * ( // a ) here\n        x - 1) + -(x)\n}\n\n"
	    "fn g(x: i64) -> i64\n{\n    x\n}\n";
	Arena a;
	arena_init(&a);
	DiagSink d;
	diag_init(&d, "g.spx", src, sizeof src - 1);
	Module *m = parse_module(src, sizeof src - 1, &a, &d);
	const Expr *t = m->ndecls == 2 ? m->decls[0].u.fn.body->tail : NULL;   /* (… * …) + -(x) */
	const Expr *mul = t ? t->u.binary.lhs : NULL;
	bool ok = !d.errors && m->ngroups == 3 && t && t->kind == EXPR_BINARY && mul->kind == EXPR_BINARY;
	ok = ok && extent_is(src, m, t, "((x)) * ( // a ) here\n        x - 1) + -(x)");
	ok = ok && extent_is(src, m, mul, "((x)) * ( // a ) here\n        x - 1)");
	ok = ok && extent_is(src, m, mul->u.binary.lhs, "x") && extent_is(src, m, t->u.binary.rhs, "-(x)");
	check(ok, "groups: an expression's extent takes its operands' outermost parentheses, not its own");
	for (uint32_t i = 1; i < m->ngroups; i++)
		ok &= m->groups[i - 1].id < m->groups[i].id;
	check(ok, "groups: one record an expression, by ascending id");

	/* g's body becomes `(x) * (2)` */
	static const char src2[] = "module t.g;\n\nfn f(x: i64) -> i64\n{\n    ((x)) * ( // a ) here\n        x - 1) + -(x)\n}\n\n"
	    "fn g(x: i64) -> i64\n{\n    (x) * (2)\n}\n";
	uint32_t n0 = m->ngroups;
	ok = parse_splice_decl(m, 1, src, src2, sizeof src2 - 1, sizeof src2 - 2, &a, NULL);
	const Expr *t2 = ok ? m->decls[1].u.fn.body->tail : NULL;
	ok = ok && m->ngroups == n0 + 2 && t2 && t2->kind == EXPR_BINARY && extent_is(src2, m, t2, "(x) * (2)") &&
	    extent_is(src2, m, m->decls[0].u.fn.body->tail, "((x)) * ( // a ) here\n        x - 1) + -(x)");
	check(ok, "groups: a spliced declaration's groups join the module's");
	diag_free(&d);

	/* the missing `->`: the body is parsed aside, then again */
	static const char src3[] = "module t.g;\n\nfn f(x: i64) i64\n{\n    ((x)) + (1)\n}\n\nfn g(x: i64) -> i64\n{\n    (x) + ((1))\n}\n";
	diag_init(&d, "g.spx", src3, sizeof src3 - 1);
	Module *m3 = parse_module(src3, sizeof src3 - 1, &a, &d);
	const Expr *t3 = m3->ndecls == 1 && m3->decls[0].u.fn.body ? m3->decls[0].u.fn.body->tail : NULL;   /* (f is dropped) */
	check(d.errors == 1 && m3->ngroups == 2 && t3 && extent_is(src3, m3, t3, "(x) + ((1))"),
	    "groups: a body parsed aside for the missing `->` leaves no record (its ids are dealt again)");
	diag_free(&d);
	arena_free(&a);
}

int
main(void)
{
	prefault_checks();
	name_region_checks();
	decl_room_checks();
	group_extent_checks();
	/* Every compression: the processor's SHA extensions where present,
	 * portable C, then portable C built for BMI2 (where present). */
	for (int portable = 0; portable < 3; portable++) {
		sha256_portable_only(portable != 0);
		if (portable == 2)
			sha256_bmi2_only();
		sha_vector("", 1, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
		sha_vector("abc", 1, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
		sha_vector("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1,
		    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
		sha_vector("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu", 1,
		    "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
		sha_vector("a", 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
		/* Split updates give the same digest as one update. */
		{
			Sha256 a, b;
			unsigned char da[32], db[32];
			const char *m = "The quick brown fox jumps over the lazy dog, again and again and again!";
			sha256_init(&a);
			sha256_update(&a, m, strlen(m));
			sha256_final(&a, da);
			sha256_init(&b);
			for (size_t i = 0; i < strlen(m); i++)
				sha256_update(&b, m + i, 1);
			sha256_final(&b, db);
			check(memcmp(da, db, 32) == 0, "sha256 byte-at-a-time equals one update");
		}
	}
	/* The two compressions agree on every length from 0 to 300 (each padding case). */
	{
		unsigned char msg[300], da[32], db[32], dc[32];
		bool same = true;
		for (int i = 0; i < 300; i++)
			msg[i] = (unsigned char)(i * 37 + 11);
		for (size_t n = 0; n <= sizeof msg; n++) {
			Sha256 a, b;
			sha256_portable_only(false);
			sha256_init(&a);
			sha256_update(&a, msg, n);
			sha256_final(&a, da);
			sha256_portable_only(true);
			sha256_init(&b);
			sha256_update(&b, msg, n);
			sha256_final(&b, db);
			sha256_bmi2_only();
			sha256_init(&b);
			sha256_update(&b, msg, n);
			sha256_final(&b, dc);
			same &= memcmp(da, db, 32) == 0 && memcmp(da, dc, 32) == 0;
		}
		sha256_portable_only(false);
		check(same, "sha256: the three compressions agree on lengths 0..300");
	}

	uint32_t cp;
	check(utf8_decode((const unsigned char *)"\xC3\xA9", 2, &cp) == 2 && cp == 0xE9, "utf8 decodes e-acute");
	check(utf8_decode((const unsigned char *)"\xC0\xAF", 2, &cp) == 0, "utf8 rejects overlong");
	check(utf8_decode((const unsigned char *)"\xED\xA0\x80", 3, &cp) == 0, "utf8 rejects surrogate");
	check(utf8_decode((const unsigned char *)"\xF4\x90\x80\x80", 4, &cp) == 0, "utf8 rejects > U+10FFFF");
	check(utf8_validate((const unsigned char *)"ab\xFF", 3) == 2, "utf8_validate finds the bad byte");
	/* the eight-byte ASCII skip: a bad byte at every offset of a longer text,
	 * and a valid sequence straddling a word */
	{
		unsigned char t[40];
		bool all = true;
		for (size_t at = 0; at < sizeof t; at++) {
			memset(t, 'a', sizeof t);
			t[at] = 0xFF;
			all &= utf8_validate(t, sizeof t) == at;
		}
		check(all, "utf8_validate finds a bad byte at every offset");
		memset(t, 'a', sizeof t);
		memcpy(t + 6, "\xE2\x82\xAC", 3);
		check(utf8_validate(t, sizeof t) == sizeof t, "utf8_validate takes a sequence across a word");
		check(utf8_validate(t, 7) == 6, "utf8_validate stops at a cut sequence");
	}
	/* A diagnostic's line and column come from its span's offset (spans hold
	 * offsets only): against a byte-by-byte count, across the 4 KiB samples,
	 * with two-byte characters and line breaks, past the end, twice. */
	{
		static char text[20000];
		size_t n = 0;
		for (int i = 0; n + 3 < sizeof text; i++) {
			if (i % 97 == 96)
				text[n++] = '\n';
			else if (i % 5 == 0) {
				text[n++] = (char)0xC3;
				text[n++] = (char)0xA9;
			} else
				text[n++] = 'x';
		}
		DiagSink ds;
		diag_init(&ds, "pos.spx", text, n);
		bool all = true;
		for (int round = 0; round < 2; round++) {
			for (size_t at = 0; at <= n + 2; at += 37) {
				Span sp = { (uint32_t)at, (uint32_t)at };
				Diag *dg = diag_report(&ds, DIAG_P106, &sp, "at %zu", at);
				uint32_t line = 1, col = 1;
				for (size_t i = 0; i < at && i < n; i++) {
					if (text[i] == '\n') {
						line++;
						col = 1;
					} else {
						col += ((unsigned char)text[i] & 0xC0) != 0x80;
					}
				}
				if (dg)
					all &= dg->line == line && dg->col == col;
			}
		}
		check(all, "diagnostic line/column from offsets match a byte-by-byte count");
		diag_free(&ds);
	}
	/* the cap (qa36): warnings stop at `limit` items, errors at `limit`
	 * errors, so an error after a flood of warnings is kept; diag_remove
	 * frees an error's room */
	{
		DiagSink ds;
		diag_init(&ds, "cap.spx", NULL, 0);
		ds.limit = 4;
		for (int i = 0; i < 6; i++)
			diag_report(&ds, DIAG_S112, NULL, "w%d", i);
		bool kept = diag_report(&ds, DIAG_T208, NULL, "e0") != NULL;
		for (int i = 1; i < 5; i++)
			diag_report(&ds, DIAG_T208, NULL, "e%d", i);
		check(kept && ds.items.len == 8 && ds.kept_errors == 4 && ds.truncated && ds.errors == 5 && ds.warnings == 6,
		    "diagnostic cap: the error after the warnings is kept, errors capped apart");
		diag_remove(&ds, 7);
		check(ds.kept_errors == 3 && diag_report(&ds, DIAG_T208, NULL, "e5") != NULL && diag_report(&ds, DIAG_S112, NULL, "w6") == NULL,
		    "diagnostic cap: diag_remove frees an error's room, not a warning's");
		diag_free(&ds);
	}
	/* sema_builtin_find_id's first-byte filter admits every reserved id */
	{
		bool all = true;
		for (int bi = 0; bi < BI_COUNT; bi++) {
			const Builtin *b = sema_builtin_by_id((BuiltinId)bi);
			all &= sema_builtin_find_id(b->id) == b;
		}
		check(all, "every compiler-owned operation is found by its stable id");
		check(sema_builtin_find_id("bench.core.vec.push") == NULL && sema_builtin_find_id("") == NULL,
		    "ids outside the reserved set are not builtins");
	}
	check(utf8_is_space(0x3000) && !utf8_is_space(0xFEFF), "White_Space: U+3000 yes, U+FEFF no");

	builtin_param_checks();

	check(spx_edit_distance("kitten", "sitting", false) == 3 && spx_edit_distance("", "abc", true) == 3
	    && spx_edit_distance("same", "same", false) == 0, "edit distance: Levenshtein");
	check(spx_edit_distance("chekc", "check", false) == 2 && spx_edit_distance("chekc", "check", true) == 1,
	    "edit distance: an adjacent transposition is 1 only with transpose");
	char longname[SPX_EDIT_MAX + 2];
	memset(longname, 'a', sizeof longname - 1);
	longname[sizeof longname - 1] = '\0';
	check(spx_edit_distance(longname, "a", false) == SPX_EDIT_FAR && spx_edit_distance(longname + 1, "a", false) == SPX_EDIT_MAX - 1,
	    "edit distance: more than SPX_EDIT_MAX bytes is far");
	/* the banded form agrees wherever the distance is within its bound
	 * (rev40; 16 M random pairs at bounds 0..3 agreed) */
	check(spx_edit_within("kitten", "sitting", false, 3) == 3 && spx_edit_within("kitten", "sitting", false, 2) == 3 &&
	    spx_edit_within("chekc", "check", true, 2) == 1 && spx_edit_within("chekc", "check", false, 1) == 2 &&
	    spx_edit_within("Rec00999x", "Rxc00999y", true, 2) == 2 && spx_edit_within("Rec00998x", "Rxc00999y", true, 2) == 3 &&
	    spx_edit_within("ab", "abcd", true, 2) == 2 && spx_edit_within("ab", "abcde", true, 2) == 3 &&
	    spx_edit_within("", "", true, 0) == 0 && spx_edit_within(longname, "a", false, 2) == 3,
	    "edit distance within a bound: the distance, or bound + 1");

	Buf b = {0};
	json_str(&b, "a\"b\\c\n\x01", 7);
	check(strcmp(b.data, "\"a\\\"b\\\\c\\n\\u0001\"") == 0, "json escaping");
	buf_free(&b);

	json_error_checks();
	escape_checks();
	hir_pattern_checks();
	hir_stmt_if_checks();
	sema_table_checks();
	strmap_spread_checks();
	hir_mono_checks();
	fmt_header_checks();
	unit_session_checks();
	unit_program_checks();
	unit_rt_checks();
	unit_float_checks();
	unit_graph_checks();
	unit_review_guard_checks();
	unit_wasm_checks();
	unit_mono_checks();
	unit_std_names_checks();

	printf("unit: %d passed, %d failed\n", pass, fail);
	return fail ? 1 : 0;
}
