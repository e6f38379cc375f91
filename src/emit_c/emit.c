/*
 * emit.c — HIR → one C11 translation unit (see emit_c.h).
 *
 * Every expression is evaluated into a fresh temporary (`tN`) in program
 * order, which gives the strict left-to-right evaluation of LANGUAGE.md
 * §4.1 (including the snapshot of `let mut` reads) for free; the C
 * compiler removes the copies at -O2.  Slots become C locals named
 * `<name>_<slot>` declared at the top of their function; functions are
 * `fn_<name>`; a record or variant type instance is `ty<TypeId>_<Name>`
 * (a variant: `tag` plus a union of per-case structs `c_<Case>`, fields
 * `f_<field>`).  Only functions reachable from `main` are emitted, so an
 * unsupported function that `main` never calls does not refuse the program.
 *
 * A function's body computes `spx_result`; `?` jumps to the shared
 * epilogue (`spx_out`) that checks `ensures` and leaves the frame.
 */
#include "emit_c.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Emit {
	HirModule *H;
	Sema *S;
	DiagSink *diags;
	Arena a;              /* strings of this emission */
	Buf types;            /* typedefs in dependency order */
	uint8_t *tstate;      /* per TypeId: 0 unseen, 1 in progress, 2 done, 3 unsupported */
	const char **tname;   /* per TypeId: the C spelling */
	int ntypes;
	int *sym_func;        /* SymId → HirModule.funcs index (-1) */
	int nsyms;
	bool *needed;         /* per function: reachable from main */
	int *queue, nqueue, qhead;
	Buf *bodies;          /* per function */
	/* the function being emitted */
	const HirFunc *f;
	Buf *b;
	int indent;
	int tmp;
	bool used_out;        /* `?` jumped to spx_out */
	bool failed;
} Emit;

/* ---- helpers ---- */

static void line(Emit *E, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
line(Emit *E, const char *fmt, ...)
{
	for (int i = 0; i < E->indent; i++)
		buf_putc(E->b, '\t');
	char tmp[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof tmp) {
		char *big = malloc((size_t)n + 1);
		va_start(ap, fmt);
		vsnprintf(big, (size_t)n + 1, fmt, ap);
		va_end(ap);
		buf_puts(E->b, big);
		free(big);
	} else {
		buf_puts(E->b, tmp);
	}
	buf_putc(E->b, '\n');
}

static void refuse(Emit *E, Span span, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void
refuse(Emit *E, Span span, const char *fmt, ...)
{
	if (E->failed)
		return;
	E->failed = true;
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	Diag *d = diag_report(E->diags, DIAG_B110, span.end > 0 ? &span : NULL, "%s", msg);
	if (d)
		diag_set_help(d, "run this program in the interpreter (`semaprax run` without `--native`) until the native lane covers it");
}

static const char *
new_tmp(Emit *E)
{
	return arena_printf(&E->a, "t%d", E->tmp++);
}

static const TypeInfo *
tinfo(Emit *E, TypeId t)
{
	return type_info(&E->S->types, t);
}

static const char *
slot_name(Emit *E, HirSlot s)
{
	return arena_printf(&E->a, "%s_%u", E->f->locals[s].name, (unsigned)s);
}

/* ---- types ---- */

static const char *const scalar_c[] = {
	[TY_I64] = "int64_t", [TY_I32] = "int32_t", [TY_U8] = "uint8_t", [TY_USIZE] = "uint64_t",
	[TY_F32] = "float", [TY_F64] = "double", [TY_BOOL] = "bool", [TY_CHAR] = "uint32_t",
};

static bool
is_scalar(Emit *E, TypeId t)
{
	TyKind k = tinfo(E, t)->kind;
	return k >= TYPE_FIRST_SCALAR && k <= TYPE_LAST_SCALAR;
}

static bool
is_int(Emit *E, TypeId t)
{
	TyKind k = tinfo(E, t)->kind;
	return k == TY_I64 || k == TY_I32 || k == TY_U8 || k == TY_USIZE;
}

static Sym *
nominal_sym(Emit *E, TypeId t)
{
	const TypeInfo *ti = tinfo(E, t);
	return ti->kind == TY_NOMINAL ? sema_sym(E->S, (SymId)ti->decl) : NULL;
}

/* Ensures t has a C spelling (emitting its typedef); false when unsupported. */
static bool
ensure_type(Emit *E, TypeId t)
{
	if ((int)t >= E->ntypes)
		return false;
	if (E->tstate[t] == 2)
		return true;
	if (E->tstate[t] != 0)
		return false;
	const TypeInfo *ti = tinfo(E, t);
	if (ti->kind >= TYPE_FIRST_SCALAR && ti->kind <= TYPE_LAST_SCALAR) {
		E->tname[t] = scalar_c[ti->kind];
		E->tstate[t] = 2;
		return true;
	}
	Sym *s = nominal_sym(E, t);
	if (!s || (s->kind != SK_RECORD && s->kind != SK_VARIANT)) {
		E->tstate[t] = 3;
		return false;
	}
	E->tstate[t] = 1;
	bool ok = true;
	if (s->kind == SK_RECORD) {
		for (int i = 0; i < s->nfields && ok; i++)
			ok = ensure_type(E, sema_field_type(E->S, t, i));
	} else {
		for (int c = 0; c < s->ncases && ok; c++)
			for (int i = 0; i < s->cases[c].nfields && ok; i++)
				ok = ensure_type(E, sema_case_field_type(E->S, t, c, i));
	}
	if (!ok) {
		E->tstate[t] = 3;
		return false;
	}
	const char *name = arena_printf(&E->a, "ty%u_%s", (unsigned)t, s->name);
	E->tname[t] = name;
	Buf spell = {0};
	buf_puts(&spell, sema_type_name(E->S, t));
	buf_printf(&E->types, "/* %s */\ntypedef struct %s {\n", spell.data, name);
	buf_free(&spell);
	if (s->kind == SK_RECORD) {
		for (int i = 0; i < s->nfields; i++)
			buf_printf(&E->types, "\t%s f_%s;\n", E->tname[sema_field_type(E->S, t, i)], s->fields[i].name);
		if (s->nfields == 0)
			buf_puts(&E->types, "\tchar empty_;\n");
	} else {
		buf_puts(&E->types, "\tuint32_t tag;\n");
		bool any = false;
		for (int c = 0; c < s->ncases; c++)
			any |= s->cases[c].nfields > 0;
		if (any) {
			buf_puts(&E->types, "\tunion {\n");
			for (int c = 0; c < s->ncases; c++) {
				if (s->cases[c].nfields == 0)
					continue;
				buf_puts(&E->types, "\t\tstruct {");
				for (int i = 0; i < s->cases[c].nfields; i++)
					buf_printf(&E->types, " %s f_%s;", E->tname[sema_case_field_type(E->S, t, c, i)],
						   s->cases[c].fields[i].name);
				buf_printf(&E->types, " } c_%s;\n", s->cases[c].name);
			}
			buf_puts(&E->types, "\t} u;\n");
		}
	}
	buf_printf(&E->types, "} %s;\n\n", name);
	E->tstate[t] = 2;
	return true;
}

static bool
valueful(Emit *E, TypeId t)
{
	TyKind k = tinfo(E, t)->kind;
	return k != TY_UNIT && k != TY_ERROR;
}

static const char *
ctype(Emit *E, TypeId t, Span span)
{
	Sym *s = nominal_sym(E, t);
	if (s && s->kind == SK_RECORD && s->decl && s->decl->u.record.ninvariants > 0) {
		refuse(E, span, "the native lane does not support records with invariants (`%s`) yet", s->name);
		return NULL;
	}
	if (ensure_type(E, t))
		return E->tname[t];
	refuse(E, span, "the native lane does not support values of type `%s` yet", sema_type_name(E->S, t));
	return NULL;
}

static const char *
zero_init(Emit *E, TypeId t)
{
	return is_scalar(E, t) ? "0" : "{0}";
}

/* ---- literals ---- */

static const char *
int_lit(Emit *E, TypeId t, uint64_t mag, bool neg)
{
	switch (tinfo(E, t)->kind) {
	case TY_I64:
		if (neg && mag == (uint64_t)1 << 63)
			return "INT64_MIN";
		return arena_printf(&E->a, "INT64_C(%s%" PRIu64 ")", neg ? "-" : "", mag);
	case TY_I32:
		if (neg && mag == (uint64_t)1 << 31)
			return "INT32_MIN";
		return arena_printf(&E->a, "INT32_C(%s%" PRIu64 ")", neg ? "-" : "", mag);
	case TY_U8:
		return arena_printf(&E->a, "(uint8_t)%" PRIu64 "u", neg ? (uint64_t)0 - mag : mag);
	default:
		return arena_printf(&E->a, "UINT64_C(%" PRIu64 ")", neg ? (uint64_t)0 - mag : mag);
	}
}

/* The source text of a span on one line (whitespace runs collapsed), C-escaped. */
static void
c_string_of_source(Emit *E, Buf *out, Span span)
{
	const char *src = E->S->src;
	bool space = false;
	for (uint32_t i = span.start; i < span.end && i < E->S->len; i++) {
		unsigned char c = (unsigned char)src[i];
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			space = true;
			continue;
		}
		if (space && out->len)
			buf_putc(out, ' ');
		space = false;
		if (c == '"' || c == '\\')
			buf_printf(out, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f || c == '?')
			buf_printf(out, "\\%03o", c);
		else
			buf_putc(out, (char)c);
	}
}

/* ---- expressions ---- */

static const char *emit_expr(Emit *E, const HirExpr *e);
static void emit_stmt(Emit *E, const HirStmt *s);

/* `{ stmts; target = tail; }` (target NULL: the tail's value is discarded). */
static void
emit_scoped(Emit *E, const HirBlock *b, const char *target)
{
	line(E, "{");
	E->indent++;
	for (int i = 0; i < b->nstmts && !E->failed; i++)
		emit_stmt(E, b->stmts[i]);
	if (b->tail && !E->failed) {
		const char *v = emit_expr(E, b->tail);
		if (v && target)
			line(E, "%s = %s;", target, v);
		else if (v)
			line(E, "(void)%s;", v);
	}
	E->indent--;
	line(E, "}");
}

/* Declares a temporary of e's type; NULL (and nothing declared) for no value. */
static const char *
result_tmp(Emit *E, const HirExpr *e)
{
	if (!valueful(E, e->type))
		return NULL;
	const char *ct = ctype(E, e->type, e->span);
	if (!ct)
		return NULL;
	const char *t = new_tmp(E);
	line(E, "%s %s = %s;", ct, t, zero_init(E, e->type));
	return t;
}

static const char *
emit_binary(Emit *E, const HirExpr *e)
{
	BinaryOp op = e->u.bin.op;
	const HirExpr *l = e->u.bin.l, *r = e->u.bin.r;
	if (op == BIN_AND || op == BIN_OR) {
		const char *lv = emit_expr(E, l);
		if (!lv)
			return NULL;
		const char *t = new_tmp(E);
		line(E, "bool %s = %s;", t, lv);
		line(E, "if (%s%s) {", op == BIN_AND ? "" : "!", t);
		E->indent++;
		const char *rv = emit_expr(E, r);
		if (rv)
			line(E, "%s = %s;", t, rv);
		E->indent--;
		line(E, "}");
		return t;
	}
	if (!is_scalar(E, l->type)) {
		refuse(E, e->span, "the native lane does not support `%s` on `%s` yet", ast_binary_spelling(op),
		       sema_type_name(E->S, l->type));
		return NULL;
	}
	const char *lv = emit_expr(E, l);
	const char *rv = lv ? emit_expr(E, r) : NULL;
	if (!rv)
		return NULL;
	const char *t = new_tmp(E);
	static const char *const cmp[] = {
		[BIN_EQ] = "==", [BIN_NE] = "!=", [BIN_LT] = "<", [BIN_LE] = "<=", [BIN_GT] = ">", [BIN_GE] = ">=",
	};
	if (op >= BIN_EQ && op <= BIN_GE) {
		line(E, "bool %s = %s %s %s;", t, lv, cmp[op], rv);
		return t;
	}
	const char *ct = ctype(E, e->type, e->span);
	if (!ct)
		return NULL;
	if (!is_int(E, e->type)) {
		if (op == BIN_REM) {
			refuse(E, e->span, "the native lane does not support `%%` on floats yet");
			return NULL;
		}
		line(E, "%s %s = %s %s %s;", ct, t, lv, ast_binary_spelling(op), rv);
		return t;
	}
	TyKind k = tinfo(E, e->type)->kind;
	const char *min = k == TY_I64 ? "INT64_MIN" : k == TY_I32 ? "INT32_MIN" : NULL;
	switch (op) {
	case BIN_ADD: case BIN_SUB: case BIN_MUL:
		line(E, "%s %s;", ct, t);
		line(E, "if (__builtin_%s_overflow(%s, %s, &%s))", op == BIN_ADD ? "add" : op == BIN_SUB ? "sub" : "mul", lv, rv, t);
		line(E, "\tspx_arith(%d);", op == BIN_ADD ? 1 : op == BIN_SUB ? 2 : 3);
		return t;
	case BIN_DIV: case BIN_REM: {
		bool div = op == BIN_DIV;
		if (rv[0] != 't') {
			/* a literal divisor goes through a variable: no -Wdiv-by-zero on the checked path */
			const char *d = new_tmp(E);
			line(E, "%s %s = %s;", ct, d, rv);
			rv = d;
		}
		line(E, "if (%s == 0)", rv);
		line(E, "\tspx_arith(%d);", div ? 4 : 6);
		if (min) {
			line(E, "if (%s == %s && %s == -1)", lv, min, rv);
			line(E, "\tspx_arith(%d);", div ? 5 : 7);
		}
		line(E, "%s %s = (%s)(%s %s %s);", ct, t, ct, lv, div ? "/" : "%", rv);
		return t;
	}
	default:
		refuse(E, e->span, "operator not supported by the native lane");
		return NULL;
	}
}

static const char *
emit_call(Emit *E, const HirExpr *e)
{
	if (e->u.call.kind != CALL_FN || e->u.call.ntargs > 0 || e->u.call.fn < 0 || e->u.call.fn >= E->nsyms ||
	    E->sym_func[e->u.call.fn] < 0 || sema_sym(E->S, e->u.call.fn)->kind != SK_FN) {
		refuse(E, e->span, "the native lane supports only direct calls of non-generic module functions yet");
		return NULL;
	}
	int fi = E->sym_func[e->u.call.fn];
	const char **args = arena_alloc(&E->a, sizeof *args * (size_t)(e->u.call.nargs + 1));
	for (int i = 0; i < e->u.call.nargs; i++)
		if (!(args[i] = emit_expr(E, e->u.call.args[i])))
			return NULL;
	const char *ct = ctype(E, e->type, e->span);
	if (!ct)
		return NULL;
	if (!E->needed[fi]) {
		E->needed[fi] = true;
		E->queue[E->nqueue++] = fi;
	}
	Buf call = {0};
	buf_printf(&call, "fn_%s(", E->H->funcs[fi].name);
	for (int i = 0; i < e->u.call.nargs; i++)
		buf_printf(&call, "%s%s", i ? ", " : "", args[i]);
	buf_putc(&call, ')');
	const char *t = new_tmp(E);
	line(E, "%s %s = %s;", ct, t, call.data);
	buf_free(&call);
	return t;
}

/* The C lvalue suffix of field fi of a record type t. */
static const char *
field_name(Emit *E, TypeId t, int fi)
{
	Sym *s = nominal_sym(E, t);
	return s && fi >= 0 && fi < s->nfields ? s->fields[fi].name : "?";
}

static const char *
emit_agg(Emit *E, const HirExpr *e)
{
	const char *base = NULL;
	if (e->kind == HIR_WITH && !(base = emit_expr(E, e->u.agg.base)))
		return NULL;
	const char *ct = ctype(E, e->type, e->span);
	if (!ct)
		return NULL;
	Sym *s = nominal_sym(E, e->type);
	const char *t = new_tmp(E);
	line(E, "%s %s = %s;", ct, t, base ? base : "{0}");
	const char *prefix = "";
	if (e->kind == HIR_VARIANT) {
		int ci = e->u.agg.case_index;
		line(E, "%s.tag = %d;", t, ci);
		prefix = arena_printf(&E->a, "u.c_%s.", s->cases[ci].name);
	}
	for (int i = 0; i < e->u.agg.n; i++) {
		const char *v = emit_expr(E, e->u.agg.values[i]);
		if (!v)
			return NULL;
		int fi = e->u.agg.fields[i];
		const char *fname = e->kind == HIR_VARIANT ? s->cases[e->u.agg.case_index].fields[fi].name : s->fields[fi].name;
		line(E, "%s.%sf_%s = %s;", t, prefix, fname, v);
	}
	return t;
}

static const char *
emit_try(Emit *E, const HirExpr *e)
{
	const char *x = emit_expr(E, e->u.try_.x);
	if (!x)
		return NULL;
	Sym *s = nominal_sym(E, e->u.try_.x->type);
	Sym *rs = nominal_sym(E, E->f->result);
	const char *ct = ctype(E, e->type, e->span);
	if (!ct || !s || !rs || s->ncases != 2 || rs->ncases != 2) {
		refuse(E, e->span, "`?` outside the supported Option/Result forms");
		return NULL;
	}
	/* Option: None 0, Some 1; Result: Ok 0, Err 1 (the prelude's case order) */
	int ok = e->u.try_.option ? 1 : 0, bad = 1 - ok;
	line(E, "if (%s.tag != %d) {", x, ok);
	E->indent++;
	line(E, "spx_result = (%s){0};", E->tname[E->f->result]);
	line(E, "spx_result.tag = %d;", bad);
	if (s->cases[bad].nfields == 1)
		line(E, "spx_result.u.c_%s.f_%s = %s.u.c_%s.f_%s;", rs->cases[bad].name, rs->cases[bad].fields[0].name,
		     x, s->cases[bad].name, s->cases[bad].fields[0].name);
	line(E, "goto spx_out;");
	E->indent--;
	line(E, "}");
	E->used_out = true;
	const char *t = new_tmp(E);
	line(E, "%s %s = %s.u.c_%s.f_%s;", ct, t, x, s->cases[ok].name, s->cases[ok].fields[0].name);
	return t;
}

/* ---- match ---- */

static bool
pat_test(Emit *E, Buf *out, const Pattern *p, int case_index, TypeId t, const char *s)
{
	switch (p->kind) {
	case PAT_WILD: case PAT_BIND: case PAT_RECORD:
		buf_puts(out, "1");
		return true;
	case PAT_LIT: {
		const Expr *x = p->u.lit.value;
		if (x->kind == EXPR_BOOL)
			buf_printf(out, "%s == %s", s, x->u.bool_lit.value ? "true" : "false");
		else if (x->kind == EXPR_CHAR)
			buf_printf(out, "%s == UINT32_C(%" PRIu32 ")", s, x->u.char_lit.value);
		else if (x->kind == EXPR_INT && is_int(E, t))
			buf_printf(out, "%s == %s", s,
				   int_lit(E, t, x->u.int_lit.value, p->u.lit.negative || x->u.int_lit.negative));
		else
			return false;
		return true;
	}
	case PAT_OR:
		buf_putc(out, '(');
		for (int i = 0; i < p->u.or.nalts; i++) {
			if (i)
				buf_puts(out, " || ");
			buf_putc(out, '(');
			if (!pat_test(E, out, p->u.or.alts[i], -1, t, s))
				return false;
			buf_putc(out, ')');
		}
		buf_putc(out, ')');
		return true;
	case PAT_CASE: {
		Sym *sym = nominal_sym(E, t);
		if (!sym || sym->kind != SK_VARIANT)
			return false;
		if (case_index < 0)
			case_index = sema_case_index(E->S, (SymId)tinfo(E, t)->decl, p->u.case_.case_name.s);
		if (case_index < 0)
			return false;
		buf_printf(out, "%s.tag == %d", s, case_index);
		return true;
	}
	}
	return false;
}

static bool bind_pat(Emit *E, const Pattern *p, TypeId t, const char *v, const HirSlot *binds, int *k);

static bool
bind_fields(Emit *E, const FieldPat *fs, int n, TypeId t, int ci, const char *v, const HirSlot *binds, int *k)
{
	Sym *sym = nominal_sym(E, t);
	if (!sym)
		return false;
	for (int i = 0; i < n; i++) {
		int fi = -1;
		TypeId ft;
		const char *access;
		if (ci >= 0) {
			for (int j = 0; j < sym->cases[ci].nfields; j++)
				if (strcmp(sym->cases[ci].fields[j].name, fs[i].name.s) == 0)
					fi = j;
			if (fi < 0)
				return false;
			ft = sema_case_field_type(E->S, t, ci, fi);
			access = arena_printf(&E->a, "%s.u.c_%s.f_%s", v, sym->cases[ci].name, sym->cases[ci].fields[fi].name);
		} else {
			fi = sema_field_index(E->S, (SymId)tinfo(E, t)->decl, fs[i].name.s);
			if (fi < 0)
				return false;
			ft = sema_field_type(E->S, t, fi);
			access = arena_printf(&E->a, "%s.f_%s", v, sym->fields[fi].name);
		}
		if (!fs[i].sub)
			line(E, "%s = %s;", slot_name(E, binds[(*k)++]), access);
		else if (!bind_pat(E, fs[i].sub, ft, access, binds, k))
			return false;
	}
	return true;
}

static bool
bind_pat(Emit *E, const Pattern *p, TypeId t, const char *v, const HirSlot *binds, int *k)
{
	switch (p->kind) {
	case PAT_BIND:
		line(E, "%s = %s;", slot_name(E, binds[(*k)++]), v);
		return true;
	case PAT_CASE: {
		Sym *sym = nominal_sym(E, t);
		int ci = sym ? sema_case_index(E->S, (SymId)tinfo(E, t)->decl, p->u.case_.case_name.s) : -1;
		if (ci < 0)
			return false;
		return bind_fields(E, p->u.case_.fields, p->u.case_.nfields, t, ci, v, binds, k);
	}
	case PAT_RECORD:
		return bind_fields(E, p->u.record.fields, p->u.record.nfields, t, -1, v, binds, k);
	default:
		return true;
	}
}

static const char *
emit_match(Emit *E, const HirExpr *e)
{
	const HirExpr *sc = e->u.match.scrutinee;
	const char *s = emit_expr(E, sc);
	if (!s)
		return NULL;
	const char *r = result_tmp(E, e);
	if (E->failed)
		return NULL;
	const char *m = new_tmp(E);
	line(E, "bool %s = false;", m);
	for (int i = 0; i < e->u.match.narms && !E->failed; i++) {
		const HirArm *a = &e->u.match.arms[i];
		Buf test = {0};
		if (!pat_test(E, &test, a->pat, a->case_index, sc->type, s)) {
			buf_free(&test);
			refuse(E, a->pat->span, "the native lane does not support this pattern yet");
			return NULL;
		}
		line(E, "if (!%s && %s) {", m, test.data);
		buf_free(&test);
		E->indent++;
		int k = 0;
		if (!bind_pat(E, a->pat, sc->type, s, a->binds, &k)) {
			refuse(E, a->pat->span, "the native lane does not support this pattern yet");
			return NULL;
		}
		const char *g = NULL;
		if (a->guard) {
			if (!(g = emit_expr(E, a->guard)))
				return NULL;
			line(E, "if (%s) {", g);
			E->indent++;
		}
		line(E, "%s = true;", m);
		const char *v = emit_expr(E, a->value);
		if (v && r)
			line(E, "%s = %s;", r, v);
		else if (v)
			line(E, "(void)%s;", v);
		if (g) {
			E->indent--;
			line(E, "}");
		}
		E->indent--;
		line(E, "}");
	}
	return E->failed ? NULL : r ? r : "0";
}

static const char *
emit_expr(Emit *E, const HirExpr *e)
{
	if (E->failed)
		return NULL;
	switch (e->kind) {
	case HIR_INT:
		if (!ctype(E, e->type, e->span))
			return NULL;
		return int_lit(E, e->type, e->u.lit.i, e->u.lit.negative);
	case HIR_FLOAT:
		return arena_printf(&E->a, "%a%s", e->u.lit.f, tinfo(E, e->type)->kind == TY_F32 ? "f" : "");
	case HIR_BOOL:
		return e->u.lit.b ? "true" : "false";
	case HIR_CHAR:
		return arena_printf(&E->a, "UINT32_C(%" PRIu32 ")", e->u.lit.ch);
	case HIR_LOCAL: case HIR_MOVE: {
		const char *ct = ctype(E, e->type, e->span);
		if (!ct)
			return NULL;
		const char *t = new_tmp(E);
		line(E, "%s %s = %s;", ct, t, slot_name(E, e->u.slot));
		return t;
	}
	case HIR_UNARY: {
		const char *ct = ctype(E, e->type, e->span);
		const char *x = ct ? emit_expr(E, e->u.un.x) : NULL;
		if (!x)
			return NULL;
		const char *t = new_tmp(E);
		if (e->u.un.op == UN_NOT) {
			line(E, "bool %s = !%s;", t, x);
		} else if (is_int(E, e->type)) {
			line(E, "%s %s;", ct, t);
			line(E, "if (__builtin_sub_overflow((%s)0, %s, &%s))", ct, x, t);
			line(E, "\tspx_arith(8);");
		} else {
			line(E, "%s %s = -%s;", ct, t, x);
		}
		return t;
	}
	case HIR_BINARY:
		return emit_binary(E, e);
	case HIR_CALL:
		return emit_call(E, e);
	case HIR_FIELD: {
		Sym *s = nominal_sym(E, e->u.field.base->type);
		if (!s || s->kind != SK_RECORD) {
			refuse(E, e->span, "the native lane supports field access on records only yet");
			return NULL;
		}
		const char *b = emit_expr(E, e->u.field.base);
		const char *ct = b ? ctype(E, e->type, e->span) : NULL;
		if (!ct)
			return NULL;
		const char *t = new_tmp(E);
		line(E, "%s %s = %s.f_%s;", ct, t, b, field_name(E, e->u.field.base->type, e->u.field.field));
		return t;
	}
	case HIR_TRY:
		return emit_try(E, e);
	case HIR_WITH: case HIR_RECORD: case HIR_VARIANT:
		return emit_agg(E, e);
	case HIR_BLOCK: {
		if (e->u.block->nstmts == 0 && e->u.block->tail)
			return emit_expr(E, e->u.block->tail);
		const char *r = result_tmp(E, e);
		if (E->failed)
			return NULL;
		emit_scoped(E, e->u.block, r);
		return E->failed ? NULL : r ? r : "0";
	}
	case HIR_IF: {
		const char *c = emit_expr(E, e->u.if_.cond);
		if (!c)
			return NULL;
		const char *r = result_tmp(E, e);
		if (E->failed)
			return NULL;
		line(E, "if (%s)", c);
		emit_scoped(E, e->u.if_.then_, r);
		if (e->u.if_.else_) {
			line(E, "else");
			emit_scoped(E, e->u.if_.else_, r);
		}
		return E->failed ? NULL : r ? r : "0";
	}
	case HIR_MATCH:
		return emit_match(E, e);
	case HIR_STRING:
		refuse(E, e->span, "the native lane does not support strings yet");
		return NULL;
	case HIR_FUNC: case HIR_CLOSURE:
		refuse(E, e->span, "the native lane does not support function values or closures yet");
		return NULL;
	case HIR_ARRAY:
		refuse(E, e->span, "the native lane does not support arrays yet");
		return NULL;
	}
	refuse(E, e->span, "construct not supported by the native lane yet");
	return NULL;
}

/* ---- statements ---- */

static void
emit_stmt(Emit *E, const HirStmt *s)
{
	switch (s->kind) {
	case HS_LET: case HS_ASSIGN: case HS_SET_FIELD: case HS_EXPR: {
		const char *v = emit_expr(E, s->value);
		if (!v)
			return;
		if (s->kind == HS_EXPR || s->slot == HIR_NO_SLOT)
			line(E, "(void)%s;", v);
		else if (s->kind == HS_SET_FIELD)
			line(E, "%s.f_%s = %s;", slot_name(E, s->slot), field_name(E, E->f->locals[s->slot].type, s->field), v);
		else
			line(E, "%s = %s;", slot_name(E, s->slot), v);
		return;
	}
	case HS_WHILE: {
		line(E, "for (;;) {");
		E->indent++;
		const char *c = emit_expr(E, s->value);
		if (c) {
			line(E, "if (!%s)", c);
			line(E, "\tbreak;");
			emit_scoped(E, s->body, NULL);
		}
		E->indent--;
		line(E, "}");
		return;
	}
	case HS_UNSAFE:
		emit_scoped(E, s->body, NULL);
		return;
	case HS_FOR:
		refuse(E, s->span, "the native lane does not support `for` loops yet");
		return;
	}
}

/* ---- functions ---- */

static void
contract_checks(Emit *E, const HirFunc *f, ClauseKind kind, HirExpr **conds, int n)
{
	const Sym *sym = sema_sym(E->S, f->sym);
	const FnDecl *fd = sym->fn;
	int k = 0;
	for (int i = 0; fd && i < fd->nclauses && k < n && !E->failed; i++) {
		if (fd->clauses[i].kind != kind)
			continue;
		const char *c = emit_expr(E, conds[k++]);
		if (!c)
			return;
		Buf msg = {0};
		c_string_of_source(E, &msg, fd->clauses[i].cond->span);
		line(E, "if (!%s)", c);
		line(E, "\tspx_die(70, \"SEMAPRAX contract failure: %s in %s: %s\");",
		     kind == CLAUSE_REQUIRES ? "requires" : "ensures", f->name, msg.data ? msg.data : "");
		buf_free(&msg);
	}
}

static bool
signature(Emit *E, const HirFunc *f, Buf *out)
{
	const char *rt = ctype(E, f->result, sema_sym(E->S, f->sym)->span);
	if (!rt)
		return false;
	buf_printf(out, "static %s fn_%s(", rt, f->name);
	for (int i = 0; i < f->nparams; i++) {
		const char *pt = ctype(E, f->locals[i].type, f->locals[i].span);
		if (!pt)
			return false;
		buf_printf(out, "%s%s %s", i ? ", " : "", pt, slot_name(E, (HirSlot)i));
	}
	buf_puts(out, f->nparams ? ")" : "void)");
	return true;
}

static void
emit_func(Emit *E, int fi, Buf *out)
{
	const HirFunc *f = &E->H->funcs[fi];
	E->f = f;
	E->b = out;
	E->indent = 0;
	E->tmp = 0;
	E->used_out = false;
	const Sym *sym = sema_sym(E->S, f->sym);
	if (sym->ntparams > 0) {
		refuse(E, sym->span, "the native lane does not support generic functions yet");
		return;
	}
	buf_printf(out, "/* %s (%s) */\n", f->name, f->id);
	if (!signature(E, f, out))
		return;
	buf_puts(out, "\n{\n");
	E->indent = 1;
	for (int i = f->nparams; i < f->nlocals; i++) {
		const char *ct = ctype(E, f->locals[i].type, f->locals[i].span);
		if (!ct)
			return;
		line(E, "%s %s = %s;", ct, slot_name(E, (HirSlot)i), zero_init(E, f->locals[i].type));
		line(E, "(void)%s;", slot_name(E, (HirSlot)i));
	}
	line(E, "%s spx_result = %s;", E->tname[f->result], zero_init(E, f->result));
	line(E, "spx_enter();");
	contract_checks(E, f, CLAUSE_REQUIRES, f->requires, f->nrequires);
	emit_scoped(E, f->body, "spx_result");
	if (E->failed)
		return;
	if (E->used_out)
		buf_puts(out, "spx_out:\n");
	if (f->nensures > 0 && f->result_slot != HIR_NO_SLOT)
		line(E, "%s = spx_result;", slot_name(E, f->result_slot));
	contract_checks(E, f, CLAUSE_ENSURES, f->ensures, f->nensures);
	line(E, "spx_leave();");
	line(E, "return spx_result;");
	buf_puts(out, "}\n\n");
}

static int
find_main(HirModule *H)
{
	for (int i = 0; i < H->nfuncs; i++)
		if (H->funcs[i].sym >= 0 && strcmp(H->funcs[i].name, "main") == 0)
			return i;
	return -1;
}

static int
cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

bool
emit_c(HirModule *H, Buf *out, DiagSink *diags)
{
	Emit E;
	memset(&E, 0, sizeof E);
	E.H = H;
	E.S = H->S;
	E.diags = diags;
	arena_init(&E.a);
	int entry = find_main(H);
	if (entry < 0) {
		Diag *d = diag_report(diags, DIAG_F102, NULL, "the module has no `main` to run");
		if (d)
			diag_set_help(d, "define `fn main() -> i64`");
		arena_free(&E.a);
		return false;
	}
	E.ntypes = E.S->types.len;
	E.tstate = calloc((size_t)E.ntypes + 1, 1);
	E.tname = calloc((size_t)E.ntypes + 1, sizeof *E.tname);
	E.nsyms = E.S->syms.len;
	E.sym_func = malloc(sizeof *E.sym_func * ((size_t)E.nsyms + 1));
	for (int i = 0; i < E.nsyms; i++)
		E.sym_func[i] = -1;
	for (int i = 0; i < H->nfuncs; i++)
		if (H->funcs[i].sym >= 0 && H->funcs[i].sym < E.nsyms)
			E.sym_func[H->funcs[i].sym] = i;
	E.needed = calloc((size_t)H->nfuncs + 1, sizeof *E.needed);
	E.queue = malloc(sizeof *E.queue * ((size_t)H->nfuncs + 1));
	E.bodies = calloc((size_t)H->nfuncs + 1, sizeof *E.bodies);
	const HirFunc *mf = &H->funcs[entry];
	if (tinfo(&E, mf->result)->kind != TY_I64 || mf->nparams != 0) {
		const Sym *ms = sema_sym(E.S, mf->sym);
		refuse(&E, ms->span, "the native lane runs `fn main() -> i64` only");
	}
	if (H->S->npermits > 0)
		refuse(&E, E.S->m ? E.S->m->module_span : (Span){0}, "the native lane does not run modules with permits yet");
	E.needed[entry] = true;
	E.queue[E.nqueue++] = entry;
	while (!E.failed && E.qhead < E.nqueue) {
		int fi = E.queue[E.qhead++];
		emit_func(&E, fi, &E.bodies[fi]);
	}
	if (!E.failed) {
		qsort(E.queue, (size_t)E.nqueue, sizeof *E.queue, cmp_int);
		buf_puts(out, "/* generated by semaprax: the C11 projection of module ");
		buf_puts(out, E.S->module_name ? E.S->module_name : "?");
		buf_puts(out, " */\n");
		buf_puts(out, emit_c_runtime);
		buf_puts(out, "\n/* ---- types ---- */\n\n");
		if (E.types.len)
			buf_put(out, E.types.data, E.types.len);
		buf_puts(out, "/* ---- functions ---- */\n\n");
		for (int i = 0; i < E.nqueue; i++) {
			const HirFunc *f = &H->funcs[E.queue[i]];
			E.f = f;
			signature(&E, f, out);
			buf_puts(out, ";\n");
		}
		buf_putc(out, '\n');
		for (int i = 0; i < E.nqueue; i++)
			buf_put(out, E.bodies[E.queue[i]].data, E.bodies[E.queue[i]].len);
		buf_puts(out, "int\nmain(void)\n{\n\tint64_t r = fn_main();\n\tprintf(\"%\" PRId64 \"\\n\", r);\n\treturn 0;\n}\n");
	}
	for (int i = 0; i < H->nfuncs; i++)
		buf_free(&E.bodies[i]);
	free(E.bodies);
	free(E.queue);
	free(E.needed);
	free(E.sym_func);
	free(E.tname);
	free(E.tstate);
	buf_free(&E.types);
	arena_free(&E.a);
	return !E.failed;
}
