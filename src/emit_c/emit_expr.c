/*
 * emit_expr.c — HIR expressions and statements → C statements (see
 * emit_int.h for the ownership model).
 *
 * Every expression is evaluated into a fresh temporary (`tN`) in program
 * order, which gives the strict left-to-right evaluation of LANGUAGE.md
 * §4.1 (including the snapshot of `let mut` reads) for free; the C
 * compiler removes the copies at -O2.  Slots are C locals `l_<name>_<slot>`
 * declared at the top of their function.  Values of `if`, `match` and
 * blocks of a non-Copy type are always owned (a borrowed branch value is
 * cloned), so branches agree statically.
 */
#include "emit_int.h"

#include <inttypes.h>
#include <string.h>

/* ---- ownership ---- */

static const Val no_val = { NULL, 0, false };

static void emit_stmt(Emit *E, const HirStmt *s);

Val
emitc_own_val(Emit *E, Val v)
{
	if (!v.c || v.own || emitc_is_copy(E, v.t))
		return v;
	const char *t = emitc_new_tmp(E);
	emitc_line(E, "%s %s = %s(&%s);", emit_tyname(E, v.t), t, emitc_clone_fn(E, v.t), v.c);
	return emitc_val(t, v.t, true);
}

Val
emitc_borrow_val(Emit *E, Val v)
{
	if (!v.c || !v.own || emitc_is_copy(E, v.t))
		return emitc_val(v.c, v.t, false);
	const char *name = emitc_func_var(E, v.t, "tmp");
	emitc_line(E, "%s = %s;", name, v.c);
	Temp tp = { name, v.t };
	VEC_PUSH(E->temps, tp);
	return emitc_val(name, v.t, false);
}

void
emitc_release_place(Emit *E, TypeId t, const char *place)
{
	if (!emitc_is_copy(E, t))
		emitc_line(E, "%s(&%s);", emitc_rel_fn(E, t), place);
}

static void
emitc_drop_val(Emit *E, Val v)
{
	if (v.c && v.own && !emitc_is_copy(E, v.t))
		emitc_release_place(E, v.t, v.c);
	else if (v.c)
		emitc_line(E, "(void)%s;", v.c);
}

int
emitc_temps_mark(Emit *E)
{
	return E->temps.len;
}

void
emitc_temps_release(Emit *E, int mark)
{
	while (E->temps.len > mark) {
		Temp tp = E->temps.items[--E->temps.len];
		emitc_release_place(E, tp.t, tp.name);
	}
}

/* A class value as one of its ancestors: the ancestor's fields are the prefix;
 * an owned value's other fields are released. */
Val
emitc_coerce(Emit *E, Val v, TypeId to)
{
	if (!v.c || v.t == to)
		return v;
	Sym *from = emitc_nominal_sym(E, v.t), *dst = emitc_nominal_sym(E, to);
	if (!from || !dst || from->kind != SK_CLASS || dst->kind != SK_CLASS || !sema_class_upcast(E->S, v.t, to))
		return v;
	const char *ct = emitc_ctype(E, to, (Span){0});
	if (!ct)
		return no_val;
	const char *t = emitc_new_tmp(E);
	emitc_line(E, "%s %s;", ct, t);
	for (int i = 0; i < dst->nom->nfields; i++)
		emitc_line(E, "%s.f_%s = %s.f_%s;", t, dst->nom->fields[i].name, v.c, dst->nom->fields[i].name);
	/* an owned child gives up the fields its ancestor lacks (after the prefix) */
	for (int i = dst->nom->nfields; v.own && i < from->nom->nfields; i++)
		emitc_release_place(E, sema_field_type(E->S, v.t, i), arena_printf(&E->a, "%s.f_%s", v.c, from->nom->fields[i].name));
	return emitc_val(t, to, v.own);
}

/* ---- literals ---- */

const char *
emitc_int_lit(Emit *E, TypeId t, uint64_t mag, bool neg)
{
	switch (emitc_tinfo(E, t)->kind) {
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

/* s as a C string literal body (escape.c). */
const char *
emitc_c_literal(Emit *E, const char *s, size_t n)
{
	Buf b = {0};
	emitc_c_string(&b, s, n);
	const char *r = arena_printf(&E->a, "%s", b.data ? b.data : "");
	buf_free(&b);
	return r;
}

/* ---- operators ---- */

static Val
emit_logic(Emit *E, const HirExpr *e)
{
	Val l = emitc_ev(E, e->u.bin.l);
	if (!l.c)
		return no_val;
	const char *t = emitc_new_tmp(E);
	emitc_line(E, "bool %s = %s;", t, l.c);
	emitc_line(E, "if (%s%s) {", e->u.bin.op == BIN_AND ? "" : "!", t);
	E->indent++;
	int mark = emitc_temps_mark(E);
	Val r = emitc_ev(E, e->u.bin.r);
	if (r.c)
		emitc_line(E, "%s = %s;", t, r.c);
	emitc_temps_release(E, mark);
	E->indent--;
	emitc_line(E, "}");
	return r.c ? emitc_val(t, T_BOOL, false) : no_val;
}

static Val
emit_compare(Emit *E, const HirExpr *e, Val l, Val r)
{
	static const char *const cmp[] = {
		[BIN_EQ] = "==", [BIN_NE] = "!=", [BIN_LT] = "<", [BIN_LE] = "<=", [BIN_GT] = ">", [BIN_GE] = ">=",
	};
	BinaryOp op = e->u.bin.op;
	const char *t = emitc_new_tmp(E);
	TyKind k = emitc_tinfo(E, l.t)->kind;
	if (emitc_is_scalar(E, l.t)) {
		/* An integer literal compared with a variable goes through a typed
		 * variable: `b <= 255u8` or `n >= 0usize` would otherwise be
		 * -Wtype-limits ("comparison is always true"); so would a char
		 * literal (uint32_t): `c >= '\0'`. */
		HirKind lk = e->u.bin.l->kind, rk = e->u.bin.r->kind;
		HirKind lit = k == TY_CHAR ? HIR_CHAR : HIR_INT;
		if ((emitc_is_int(E, l.t) || k == TY_CHAR) && (lk == lit) != (rk == lit)) {
			const char *ct = emitc_ctype(E, l.t, e->span);
			if (!ct)
				return no_val;
			const char *v = emitc_new_tmp(E);
			emitc_line(E, "%s %s = %s;", ct, v, lk == lit ? l.c : r.c);
			if (lk == lit)
				l.c = v;
			else
				r.c = v;
		}
		emitc_line(E, "bool %s = %s %s %s;", t, l.c, cmp[op], r.c);
	} else if (k == TY_STRING || k == TY_BYTES) {
		if (op == BIN_EQ || op == BIN_NE)
			emitc_line(E, "bool %s = %sspx_str_eq(&%s, &%s);", t, op == BIN_NE ? "!" : "", l.c, r.c);
		else
			emitc_line(E, "bool %s = spx_str_cmp(&%s, &%s) %s 0;", t, l.c, r.c, cmp[op]);
	} else if (k == TY_STR || k == TY_SLICE) {
		emitc_line(E, "bool %s = spx_view_cmp(&%s, &%s) %s 0;", t, l.c, r.c, cmp[op]);
	} else if (emitc_nominal_sym(E, l.t) && emitc_nominal_sym(E, l.t)->kind == SK_VARIANT && (op == BIN_EQ || op == BIN_NE)) {
		emitc_line(E, "bool %s = %s.tag %s %s.tag;", t, l.c, cmp[op], r.c);
	} else {
		emitc_refuse(E, e->span, "the native lane does not support `%s` on `%s` yet", ast_binary_spelling(op),
		       sema_type_name(E->S, l.t));
		return no_val;
	}
	return emitc_val(t, T_BOOL, false);
}

static Val
emit_arith(Emit *E, const HirExpr *e, Val l, Val r)
{
	BinaryOp op = e->u.bin.op;
	TypeId rt = emitc_sty(E, e->type);
	const char *ct = emitc_ctype(E, rt, e->span);
	if (!ct)
		return no_val;
	const char *t = emitc_new_tmp(E);
	if (!emitc_is_int(E, rt)) {
		emitc_line(E, "%s %s = %s %s %s;", ct, t, l.c, ast_binary_spelling(op), r.c);
		return emitc_val(t, rt, false);
	}
	/* rt/core.h's checked helpers (SPX_ARITH_OPS): one call per operation */
	static const char *const name[] = {
		[BIN_ADD] = "add", [BIN_SUB] = "sub", [BIN_MUL] = "mul", [BIN_DIV] = "div", [BIN_REM] = "rem",
	};
	if (op > BIN_REM || !name[op]) {
		emitc_refuse(E, e->span, "operator not supported by the native lane");
		return no_val;
	}
	/* In a chunk, + - * jump to the chunk's one failure call per operator
	 * (emitc_chunk_close) instead of the helper's own: fewer cold blocks,
	 * 100,000 additions compile a third faster under clang, a fifth under gcc. */
	if (emitc_in_chunk(E) && op <= BIN_MUL) {
		emitc_line(E, "%s %s;", ct, t);
		emitc_line(E, "if (__builtin_%s_overflow(%s, %s, &%s))", name[op], l.c, r.c, t);
		emitc_line(E, "\tgoto spx_fail_%s;", name[op]);
		E->chunk_fails |= 1u << (op - BIN_ADD);
		return emitc_val(t, rt, false);
	}
	/* a signed + or - of a literal compares with a constant (rt/core.h SPX_ARITH_LIT) */
	TyKind k = emitc_tinfo(E, rt)->kind;
	bool lit_r = e->u.bin.r->kind == HIR_INT, lit_l = e->u.bin.l->kind == HIR_INT;
	if ((k == TY_I64 || k == TY_I32) && lit_r != lit_l && (op == BIN_SUB ? lit_r : op == BIN_ADD)) {
		emitc_line(E, "%s %s = spx_%sk_%s(%s, %s);", ct, t, name[op], emitc_cap_field(E, rt), lit_r ? l.c : r.c,
			   lit_r ? r.c : l.c);
		return emitc_val(t, rt, false);
	}
	emitc_line(E, "%s %s = spx_%s_%s(%s, %s);", ct, t, name[op], emitc_cap_field(E, rt), l.c, r.c);
	return emitc_val(t, rt, false);
}

static Val
emit_binary(Emit *E, const HirExpr *e)
{
	BinaryOp op = e->u.bin.op;
	if (op == BIN_AND || op == BIN_OR)
		return emit_logic(E, e);
	Val l = emitc_borrow_val(E, emitc_ev(E, e->u.bin.l));
	Val r = l.c ? emitc_borrow_val(E, emitc_ev(E, e->u.bin.r)) : no_val;
	if (!r.c)
		return no_val;
	if (op >= BIN_EQ && op <= BIN_GE)
		return emit_compare(E, e, l, r);
	return emit_arith(E, e, l, r);
}

static Val
emit_unary(Emit *E, const HirExpr *e)
{
	TypeId rt = emitc_sty(E, e->type);
	const char *ct = emitc_ctype(E, rt, e->span);
	Val x = ct ? emitc_ev(E, e->u.un.x) : no_val;
	if (!x.c)
		return no_val;
	const char *t = emitc_new_tmp(E);
	if (e->u.un.op == UN_NOT) {
		emitc_line(E, "bool %s = !%s;", t, x.c);
	} else if (emitc_is_int(E, rt)) {
		emitc_line(E, "%s %s = spx_neg_%s(%s);", ct, t, emitc_cap_field(E, rt), x.c);
	} else {
		emitc_line(E, "%s %s = -%s;", ct, t, x.c);
	}
	return emitc_val(t, rt, false);
}

/* ---- operands in flight across `?` ---- */

/*
 * A `?` in an operand leaves through spx_out while the owned operands
 * before it are evaluated but not yet consumed (LANGUAGE.md §0.1: every
 * lane releases them on the early exit).  Each such value is also kept in
 * a function-level variable, which the epilogue releases, until every
 * operand is ready; landing empties the variables (the consumer takes the
 * values; no `?` comes between).
 */
void
emitc_flight_begin(Emit *E, Flight *F, HirExpr *const *xs, int n)
{
	emitc_flight_init(E, F, hir_last_try(xs, n));
}

void
emitc_flight_init(Emit *E, Flight *F, int last)
{
	F->last = last;
	F->n = 0;
	F->name = F->last > 0 ? arena_alloc(&E->a, sizeof *F->name * (size_t)F->last) : NULL;
	F->t = F->last > 0 ? arena_alloc(&E->a, sizeof *F->t * (size_t)F->last) : NULL;
}

void
emitc_flight_hold(Emit *E, Flight *F, int i, Val v)
{
	if (i >= F->last || F->n >= F->last || !v.c || !v.own || emitc_is_copy(E, v.t))
		return;
	const char *name = emitc_func_var(E, v.t, "fly");
	emitc_line(E, "%s = %s;", name, v.c);
	F->name[F->n] = name;
	F->t[F->n++] = v.t;
}

void
emitc_flight_land(Emit *E, Flight *F)
{
	for (int k = 0; k < F->n; k++)
		emitc_line(E, "%s = (%s)%s;", F->name[k], emit_tyname(E, F->t[k]), emitc_zero_init(E, F->t[k]));
	F->n = 0;
}

/* ---- calls ---- */

/* Does parameter i of funcs[fi] borrow its argument (`borrow`, or `shared`: lent as the HIR lends it)? */
bool
emitc_param_borrows(Emit *E, int fi, int i)
{
	const HirFunc *f = &E->H->funcs[fi];
	if (f->sym < 0)
		return false;
	const Sym *s = sema_sym(E->S, f->sym);
	return i < s->nparams && (s->params[i].mode == MODE_BORROW || s->params[i].mode == MODE_SHARED);
}

/* Evaluates the arguments, converted for parameters of types pt. */
static bool
call_args(Emit *E, const HirExpr *e, const TypeId *pt, const bool *borrows, const char **out)
{
	Flight F;
	emitc_flight_begin(E, &F, e->u.call.args, e->u.call.nargs);
	for (int i = 0; i < e->u.call.nargs; i++) {
		Val v = emitc_coerce(E, emitc_ev(E, e->u.call.args[i]), pt[i]);
		v = borrows[i] ? emitc_borrow_val(E, v) : emitc_own_val(E, v);
		if (!v.c)
			return false;
		emitc_flight_hold(E, &F, i, v);
		out[i] = v.c;
	}
	emitc_flight_land(E, &F);
	return true;
}

static Val
emit_call_fn(Emit *E, const HirExpr *e)
{
	int ii = E->in->target[e->index];   /* hir_mono: the instance this call reaches */
	int na = e->u.call.nargs;
	TypeId *pt = arena_alloc(&E->a, sizeof *pt * (size_t)(na + 1));
	bool *bor = arena_alloc(&E->a, sizeof *bor * (size_t)(na + 1));
	const char *cname;
	if (ii < 0) {
		/* a project: an imported function or method runs the provider's instance */
		cname = emitc_import_cname(E, e->u.call.fn, e->span);
		if (!cname)
			return no_val;
		const Sym *y = sema_sym(E->S, e->u.call.fn);
		for (int i = 0; i < na; i++) {
			pt[i] = i < y->nparams ? y->params[i].type : T_ERR;
			bor[i] = i < y->nparams && (y->params[i].mode == MODE_BORROW || y->params[i].mode == MODE_SHARED);
		}
	} else {
		const HirInst *callee = &E->M->insts[ii];
		cname = E->insts[ii].cname;
		for (int i = 0; i < na; i++) {
			pt[i] = callee->slot_type[i];
			bor[i] = emitc_param_borrows(E, callee->func, i);
		}
	}
	const char **args = arena_alloc(&E->a, sizeof *args * (size_t)(na + 1));
	if (!call_args(E, e, pt, bor, args))
		return no_val;
	TypeId rt = emitc_sty(E, e->type);
	const char *ct = emitc_ctype(E, rt, e->span);
	if (!ct)
		return no_val;
	Buf call = {0};
	buf_printf(&call, "%s(spx_d + 1", cname);
	for (int i = 0; i < na; i++)
		buf_printf(&call, ", %s", args[i]);
	buf_putc(&call, ')');
	const char *t = emitc_new_tmp(E);
	emitc_line(E, "%s %s = %s;", ct, t, call.data);
	buf_free(&call);
	return emitc_val(t, rt, true);
}

static Val
emit_call_slot(Emit *E, const HirExpr *e)
{
	HirSlot cs = e->u.call.callee;
	TypeId ft = emitc_slot_type(E, cs);
	const TypeInfo *ti = emitc_tinfo(E, ft);
	int na = e->u.call.nargs;
	if (ti->kind != TY_FN || ti->nargs != na + 1) {
		emitc_refuse(E, e->span, "the native lane cannot call this value");
		return no_val;
	}
	TypeId *pt = arena_alloc(&E->a, sizeof *pt * (size_t)(na + 1));
	bool *bor = arena_alloc(&E->a, sizeof *bor * (size_t)(na + 1));
	for (int i = 0; i < na; i++) {
		pt[i] = emitc_tinfo(E, ft)->args[i];
		bor[i] = false;
	}
	const char **args = arena_alloc(&E->a, sizeof *args * (size_t)(na + 1));
	if (!call_args(E, e, pt, bor, args))
		return no_val;
	TypeId rt = emitc_sty(E, e->type);
	const char *ct = emitc_ctype(E, rt, e->span);
	if (!ct)
		return no_val;
	emitc_note_fntype(E, ft);
	Buf call = {0};
	buf_printf(&call, "%s(%s, spx_d + 1", emitc_call_name(E, ft), emitc_slot_name(E, cs));
	for (int i = 0; i < na; i++)
		buf_printf(&call, ", %s", args[i]);
	buf_putc(&call, ')');
	const char *t = emitc_new_tmp(E);
	emitc_line(E, "%s %s = %s;", ct, t, call.data);
	buf_free(&call);
	return emitc_val(t, rt, true);
}

/* ---- aggregates ---- */

bool
emitc_check_invariants(Emit *E, TypeId t, const char *v, Span span)
{
	Sym *s = emitc_nominal_sym(E, t);
	if (!s || s->kind != SK_RECORD)
		return true;
	const TypeInfo *ti = emitc_tinfo(E, t);
	int fi = E->H->invariants[ti->decl];
	const char *cname;
	if (fi < 0 && s->origin) {
		/* an imported record: its declaring module's check */
		bool failed;
		cname = emitc_import_invariant(E, (SymId)ti->decl, span, &failed);
		if (!cname)
			return !failed;
		if (!emitc_shared_type_name(E, t)) {
			emitc_refuse(E, span, "the native lane checks an imported record's invariants only when its fields cross modules (scalars, text, collections, records)");
			return false;
		}
	} else if (fi < 0) {
		return true;
	} else {
		int ii = E->M->func_inst[fi];   /* hir_mono reached it from this record value or store */
		if (ii < 0) {
			emitc_refuse(E, span, "the native lane found no instance of this record's invariant check");
			return false;
		}
		cname = E->insts[ii].cname;
	}
	Buf call = {0};
	buf_printf(&call, "(void)%s(spx_d + 1", cname);
	for (int i = 0; i < s->nom->nfields; i++)
		buf_printf(&call, ", %s.f_%s", v, s->nom->fields[i].name);
	buf_puts(&call, ");");
	emitc_line(E, "%s", call.data);
	buf_free(&call);
	return true;
}

static Val
emit_agg(Emit *E, const HirExpr *e)
{
	TypeId rt = emitc_sty(E, e->type);
	Val base = no_val;
	/* operand 0 is a `with`'s base, in flight while the values are evaluated */
	int off = e->kind == HIR_WITH ? 1 : 0;
	int last = hir_last_try(e->u.agg.values, e->u.agg.n);
	Flight F;
	emitc_flight_init(E, &F, last >= 0 ? last + off : -1);
	if (e->kind == HIR_WITH) {
		base = emitc_own_val(E, emitc_ev(E, e->u.agg.base));
		if (!base.c)
			return no_val;
		emitc_flight_hold(E, &F, 0, base);
	}
	const char *ct = emitc_ctype(E, rt, e->span);
	if (!ct)
		return no_val;
	Sym *s = emitc_nominal_sym(E, rt);
	int ci = e->u.agg.case_index;
	if (!s || (e->kind == HIR_VARIANT && (ci < 0 || ci >= s->nom->ncases))) {
		emitc_refuse(E, e->span, "the native lane does not support this aggregate");
		return no_val;
	}
	/* the values first, left to right; then the replaced fields are released */
	const char **vals = arena_alloc(&E->a, sizeof *vals * (size_t)(e->u.agg.n + 1));
	for (int i = 0; i < e->u.agg.n; i++) {
		int fi = e->u.agg.fields[i];
		TypeId ft = e->kind == HIR_VARIANT ? sema_case_field_type(E->S, rt, ci, fi) : sema_field_type(E->S, rt, fi);
		emitc_types_grow(E);
		Val v = emitc_own_val(E, emitc_coerce(E, emitc_ev(E, e->u.agg.values[i]), ft));
		if (!v.c)
			return no_val;
		emitc_flight_hold(E, &F, i + off, v);
		vals[i] = v.c;
	}
	emitc_flight_land(E, &F);
	const char *t = emitc_new_tmp(E);
	emitc_line(E, "%s %s = %s;", ct, t, base.c ? base.c : "{0}");
	const char *prefix = "";
	if (e->kind == HIR_VARIANT) {
		emitc_line(E, "%s.tag = %d;", t, ci);
		prefix = arena_printf(&E->a, "u.c_%s.", s->nom->cases[ci].name);
	}
	for (int i = 0; i < e->u.agg.n; i++) {
		int fi = e->u.agg.fields[i];
		const char *fname = e->kind == HIR_VARIANT ? s->nom->cases[ci].fields[fi].name : s->nom->fields[fi].name;
		const char *place = arena_printf(&E->a, "%s.%sf_%s", t, prefix, fname);
		if (e->kind == HIR_WITH)
			emitc_release_place(E, sema_field_type(E->S, rt, fi), place);
		emitc_line(E, "%s = %s;", place, vals[i]);
	}
	if (e->kind != HIR_VARIANT)
		emitc_check_invariants(E, rt, t, e->span);
	return emitc_val(t, rt, true);
}

/*
 * The C place of an owned slot or a record/class field path of one (NULL for
 * anything else): where a take moves a field out in place.
 */
static const char *
owned_place(Emit *E, const HirExpr *e)
{
	if (e->kind == HIR_LOCAL)
		return E->slot_own[e->u.slot] && emitc_tinfo(E, emitc_slot_type(E, e->u.slot))->kind != TY_ARRAY
		    ? emitc_slot_name(E, e->u.slot) : NULL;
	if (e->kind != HIR_FIELD)
		return NULL;
	const char *b = owned_place(E, e->u.field.base);
	Sym *s = b ? emitc_nominal_sym(E, emitc_sty(E, e->u.field.base->type)) : NULL;
	int fi = e->u.field.field;
	if (!s || s->kind == SK_VARIANT || fi < 0 || fi >= s->nom->nfields)
		return NULL;
	return arena_printf(&E->a, "%s.f_%s", b, s->nom->fields[fi].name);
}

static Val
emit_field(Emit *E, const HirExpr *e)
{
	if (e->u.field.take) {
		/* `l.next` moved on out of an owned `l`: read and zeroed in place, as a
		 * slot's move is (the Wasm lane's way), where a copy cloned the field
		 * and `l`'s release freed the original — quadratic for a record
		 * renewed in a loop (`list = push(list, x)` taking `list.head`) */
		const char *pl = owned_place(E, e);
		if (pl) {
			TypeId bt = emitc_sty(E, e->u.field.base->type);
			TypeId ft = sema_field_type(E->S, bt, e->u.field.field);
			emitc_types_grow(E);
			const char *ct = emitc_ctype(E, ft, e->span);
			if (!ct)
				return no_val;
			const char *t = emitc_new_tmp(E);
			emitc_line(E, "%s %s = %s;", ct, t, pl);
			if (!emitc_is_copy(E, ft))
				emitc_line(E, "%s = (%s)%s;", pl, ct, emitc_zero_init(E, ft));
			return emitc_val(t, ft, !emitc_is_copy(E, ft));
		}
	}
	Val b = emitc_borrow_val(E, emitc_ev(E, e->u.field.base));
	if (!b.c)
		return no_val;
	Sym *s = emitc_nominal_sym(E, b.t);
	int fi = e->u.field.field;
	if (!s || s->kind == SK_VARIANT || fi < 0 || fi >= s->nom->nfields) {
		emitc_refuse(E, e->span, "the native lane supports field access on records and classes only");
		return no_val;
	}
	TypeId ft = sema_field_type(E->S, b.t, fi);
	emitc_types_grow(E);
	const char *ct = emitc_ctype(E, ft, e->span);
	if (!ct)
		return no_val;
	const char *t = emitc_new_tmp(E);
	emitc_line(E, "%s %s = %s.f_%s;", ct, t, b.c, s->nom->fields[fi].name);
	return emitc_val(t, ft, false);
}

static Val
emit_try(Emit *E, const HirExpr *e)
{
	Val x = emitc_own_val(E, emitc_ev(E, e->u.try_.x));
	if (!x.c)
		return no_val;
	TypeId res = E->in->result;
	Sym *s = emitc_nominal_sym(E, x.t);
	Sym *rs = emitc_nominal_sym(E, res);
	TypeId rt = emitc_sty(E, e->type);
	const char *ct = emitc_ctype(E, rt, e->span);
	if (!ct || !emitc_ctype(E, res, e->span) || !s || !rs || s->nom->ncases != 2 || rs->nom->ncases != 2) {
		emitc_refuse(E, e->span, "`?` outside the supported Option/Result forms");
		return no_val;
	}
	/* Option: None 0, Some 1; Result: Ok 0, Err 1 (the prelude's case order) */
	int ok = e->u.try_.option ? 1 : 0, bad = 1 - ok;
	emitc_line(E, "if (%s.tag != %d) {", x.c, ok);
	E->indent++;
	const char *res_var = emitc_result(E);
	emitc_line(E, "%s = (%s){0};", res_var, emit_tyname(E, res));
	emitc_line(E, "%s.tag = %d;", res_var, bad);
	if (s->nom->cases[bad].nfields == 1)
		emitc_line(E, "%s.u.c_%s.f_%s = %s.u.c_%s.f_%s;", res_var, rs->nom->cases[bad].name, rs->nom->cases[bad].fields[0].name,
		     x.c, s->nom->cases[bad].name, s->nom->cases[bad].fields[0].name);
	if (emitc_in_chunk(E)) {
		emitc_line(E, "goto spx_up;");   /* returns 1: the caller goes to spx_out */
		E->chunk_out = true;
		E->chunk_goto_up = true;
	} else {
		emitc_line(E, "goto spx_out;");
	}
	E->indent--;
	emitc_line(E, "}");
	E->used_out = true;
	const char *t = emitc_new_tmp(E);
	emitc_line(E, "%s %s = %s.u.c_%s.f_%s;", ct, t, x.c, s->nom->cases[ok].name, s->nom->cases[ok].fields[0].name);
	return emitc_val(t, rt, true);
}

/* ---- results of branching expressions (if, match, blocks) ---- */

/* Declares a result variable for e (NULL: no value). */
const char *
emitc_result_var(Emit *E, TypeId t, Span span)
{
	if (!emitc_valueful(E, t))
		return NULL;
	const char *ct = emitc_ctype(E, t, span);
	if (!ct)
		return NULL;
	const char *r = emitc_new_tmp(E);
	emitc_line(E, "%s %s = %s;", ct, r, emitc_zero_init(E, t));
	return r;
}

/* Stores v (converted to type t, owned) into target, or discards it.  The
 * result of a lending branch value (HirExpr.lends) is stored as read, a
 * borrow of a lent parameter's path, never copied. */
void
emitc_store_result(Emit *E, Val v, const char *target, TypeId t, bool lend)
{
	if (!v.c)
		return;
	if (!target) {
		emitc_drop_val(E, v);
		return;
	}
	v = emitc_coerce(E, v, t);
	if (!lend)
		v = emitc_own_val(E, v);
	if (v.c)
		emitc_line(E, "%s = %s;", target, v.c);
}

/* ---- blocks and control ---- */

static void emit_block_to(Emit *E, const HirBlock *b, const char *target, TypeId tt, bool lend);

void
emit_block(Emit *E, const HirBlock *b, const char *target, TypeId tt)
{
	emit_block_to(E, b, target, tt, false);
}

/* A block whose value goes to target (owned, or as read when lend). */
static void
emit_block_to(Emit *E, const HirBlock *b, const char *target, TypeId tt, bool lend)
{
	emitc_line(E, "{");
	E->indent++;
	int mark = emitc_temps_mark(E);
	bool body = b == E->f->body;
	/* a huge nested block (a loop's body, an `if`'s branch, a block
	 * expression) in chunks too (emit.c, emitc_chunk_enter); its tail and
	 * its releases are in its last chunk, with the temporaries they name.
	 * A value goes through a frame member: target may be a C local of the
	 * caller (result_var), which a chunk cannot name. */
	bool nested = !body && E->framed && b->nstmts > emitc_chunk_min(E);
	const char *to = target;
	ChunkSave cs;
	Buf hold = {0};
	if (nested && b->tail && target) {
		const char *m = arena_printf(&E->a, "spx_bv%d", E->tmp++);
		buf_printf(&E->members, "\t%s %s;\n", emit_tyname(E, tt), m);
		to = arena_printf(&E->a, "F->%s", m);
	}
	if (nested)
		emitc_chunk_enter(E, &cs, &hold);
	for (int i = 0; i < b->nstmts && !E->failed; i++) {
		if (body || nested)
			emitc_chunk_at(E, i, mark);
		emit_stmt(E, b->stmts[i]);
	}
	if (body)
		emitc_chunk_close(E);
	if (b->tail && !E->failed)
		emitc_store_result(E, emitc_ev(E, b->tail), to, tt, lend);
	if (b == E->f->body) {
		/* the function body: `ensures` runs first, then the epilogue releases (§0.12) */
		E->indent--;
		emitc_line(E, "}");
		return;
	}
	for (int i = b->nowned - 1; i >= 0 && !E->failed; i--) {
		HirSlot s = b->owned[i];
		if (E->slot_own[s])
			emitc_release_place(E, emitc_slot_type(E, s), emitc_slot_name(E, s));
	}
	emitc_temps_release(E, mark);
	if (nested) {
		emitc_chunk_close(E);
		emitc_chunk_leave(E, &cs, &hold);
		if (to != target && !E->failed)
			emitc_line(E, "%s = %s;", target, to);   /* moved: the member is never released */
	}
	E->indent--;
	emitc_line(E, "}");
}

static Val
emit_block_expr(Emit *E, const HirExpr *e)
{
	const HirBlock *b = e->u.block;
	if (b->nstmts == 0 && b->tail && b->nowned == 0)
		return emitc_ev(E, b->tail);
	TypeId rt = emitc_sty(E, e->type);
	const char *r = emitc_result_var(E, rt, e->span);
	if (E->failed)
		return no_val;
	emit_block_to(E, b, r, rt, e->lends);
	if (E->failed)
		return no_val;
	return r ? emitc_val(r, rt, !e->lends) : emitc_val("0", T_I64, false);
}

static Val
emit_if(Emit *E, const HirExpr *e)
{
	Val c = emitc_ev(E, e->u.if_.cond);
	if (!c.c)
		return no_val;
	TypeId rt = emitc_sty(E, e->type);
	const char *r = e->u.if_.else_ ? emitc_result_var(E, rt, e->span) : NULL;
	if (E->failed)
		return no_val;
	emitc_line(E, "if (%s)", c.c);
	emit_block_to(E, e->u.if_.then_, r, rt, e->lends);
	if (e->u.if_.else_) {
		emitc_line(E, "else");
		emit_block_to(E, e->u.if_.else_, r, rt, e->lends);
	}
	if (E->failed)
		return no_val;
	return r ? emitc_val(r, rt, !e->lends) : emitc_val("0", T_I64, false);
}

static Val
emit_closure(Emit *E, const HirExpr *e)
{
	TypeId ft = emitc_sty(E, e->type);
	int ii = E->in->target[e->index];   /* hir_mono: with this instance's type arguments */
	int id = emitc_fnval_id(E, ft, ii, true);
	emitc_note_fntype(E, ft);
	const char *t = emitc_new_tmp(E);
	emitc_line(E, "spx_fn %s = { %d, {{0}} };", t, id);
	for (int i = 0; i < e->u.closure.ncaptures; i++) {
		HirSlot cs = e->u.closure.captures[i];
		TypeId ct = emitc_slot_type(E, cs);
		if (!emitc_is_copy(E, ct) || !emitc_ctype(E, ct, e->span)) {
			emitc_refuse(E, e->span, "the native lane supports closures capturing Copy values only");
			return no_val;
		}
		const char *f = emitc_cap_field(E, ct);
		if (f)
			emitc_line(E, "%s.cap[%d].%s = %s;", t, i, f, emitc_slot_name(E, cs));
		else
			emitc_line(E, "%s.cap[%d].cell = spx_cell(&%s, sizeof(%s));", t, i, emitc_slot_name(E, cs), emit_tyname(E, ct));
	}
	if (e->u.closure.ncaptures > E->maxcaps)
		E->maxcaps = e->u.closure.ncaptures;
	if (E->prog && e->u.closure.ncaptures > E->prog->maxcaps)
		E->prog->maxcaps = e->u.closure.ncaptures;
	return emitc_val(t, ft, false);
}

static Val
emit_slot_read(Emit *E, const HirExpr *e)
{
	HirSlot s = e->u.slot;
	TypeId t = emitc_slot_type(E, s);
	const char *ct = emitc_ctype(E, t, e->span);
	if (!ct)
		return no_val;
	if (emitc_tinfo(E, t)->kind == TY_ARRAY)
		return emitc_val(emitc_slot_name(E, s), t, false);
	const char *tn = emitc_new_tmp(E);
	emitc_line(E, "%s %s = %s;", ct, tn, emitc_slot_name(E, s));
	const char *mv = e->kind == HIR_MOVE ? emitc_moved_flag(E, s) : NULL;
	if (mv)
		emitc_line(E, "%s = true;", mv);   /* a contract report's `<moved>` */
	if (e->kind == HIR_MOVE && E->slot_own[s] && !emitc_is_copy(E, t)) {
		emitc_line(E, "%s = (%s)%s;", emitc_slot_name(E, s), ct, emitc_zero_init(E, t));
		return emitc_val(tn, t, true);
	}
	return emitc_val(tn, t, false);
}

Val
emitc_ev(Emit *E, const HirExpr *e)
{
	if (E->failed)
		return no_val;
	TypeId t = emitc_sty(E, e->type);
	switch (e->kind) {
	case HIR_INT:
		if (!emitc_ctype(E, t, e->span))
			return no_val;
		return emitc_val(emitc_int_lit(E, t, e->u.lit.i, e->u.lit.negative), t, false);
	case HIR_FLOAT:
		return emitc_val(arena_printf(&E->a, "%a%s", e->u.lit.f, emitc_tinfo(E, t)->kind == TY_F32 ? "f" : ""), t, false);
	case HIR_BOOL:
		return emitc_val(e->u.lit.b ? "true" : "false", t, false);
	case HIR_CHAR:
		return emitc_val(arena_printf(&E->a, "UINT32_C(%" PRIu32 ")", e->u.lit.ch), t, false);
	case HIR_STRING: {
		const char *tn = emitc_new_tmp(E);
		emitc_line(E, "spx_str %s = spx_str_new(\"%s\", %u);", tn, emitc_c_literal(E, e->u.lit.s, e->u.lit.n), (unsigned)e->u.lit.n);
		return emitc_val(tn, t, true);
	}
	case HIR_LOCAL: case HIR_MOVE:
		return emit_slot_read(E, e);
	case HIR_FUNC: {
		int ii = E->in->target[e->index];
		int id;
		if (ii < 0 && E->prog) {
			/* a project: an imported function's value dispatches to the provider's instance */
			int k;
			ii = emitc_import_inst(E, e->u.call.fn, e->span, &k);
			if (ii < 0)
				return no_val;
			id = emitc_prog_fnval(E, t, k, ii, false);
		} else if (ii < 0) {
			emitc_refuse(E, e->span, "the native lane cannot take this function as a value");
			return no_val;
		} else {
			id = emitc_fnval_id(E, t, ii, false);
		}
		emitc_note_fntype(E, t);
		const char *tn = emitc_new_tmp(E);
		emitc_line(E, "spx_fn %s = { %d, {{0}} };", tn, id);
		return emitc_val(tn, t, false);
	}
	case HIR_UNARY:
		return emit_unary(E, e);
	case HIR_BINARY:
		return emit_binary(E, e);
	case HIR_CALL:
		if (e->u.call.kind == CALL_BUILTIN)
			return emit_builtin(E, e);
		return e->u.call.kind == CALL_SLOT ? emit_call_slot(E, e) : emit_call_fn(E, e);
	case HIR_FIELD:
		return emit_field(E, e);
	case HIR_TRY:
		return emit_try(E, e);
	case HIR_WITH: case HIR_RECORD: case HIR_VARIANT:
		return emit_agg(E, e);
	case HIR_BLOCK:
		return emit_block_expr(E, e);
	case HIR_IF:
		return emit_if(E, e);
	case HIR_MATCH:
		return emitc_match(E, e);
	case HIR_CLOSURE:
		return emit_closure(E, e);
	case HIR_ARRAY: {
		if (!emitc_ctype(E, t, e->span))
			return no_val;
		const char *a = emitc_func_var(E, t, "arr");
		for (int i = 0; i < e->u.array.n; i++) {
			Val x = emitc_ev(E, e->u.array.elems[i]);
			if (!x.c)
				return no_val;
			emitc_line(E, "%s.a[%d] = %s;", a, i, x.c);
		}
		return emitc_val(a, t, false);
	}
	}
	emitc_refuse(E, e->span, "construct not supported by the native lane yet");
	return no_val;
}

/* ---- statements ---- */

/* slot = v (owned slots release their old value once v is complete). */
static void
store_slot(Emit *E, HirSlot s, Val v)
{
	TypeId st = emitc_slot_type(E, s);
	v = emitc_coerce(E, v, st);
	if (E->slot_own[s])
		v = emitc_own_val(E, v);
	if (!v.c)
		return;
	if (E->slot_own[s])
		emitc_release_place(E, st, emitc_slot_name(E, s));
	emitc_line(E, "%s = %s;", emitc_slot_name(E, s), v.c);
}

static void
emit_for(Emit *E, const HirStmt *s)
{
	Val it = emitc_ev(E, s->value);
	if (!it.c)
		return;
	TyKind k = emitc_tinfo(E, it.t)->kind;
	if (k != TY_VEC && k != TY_ITER) {
		emitc_refuse(E, s->span, "the native lane supports `for` over Vec and Iter only");
		return;
	}
	TypeId el = emitc_tinfo(E, it.t)->args[0];
	const char *en = emitc_ctype(E, el, s->span);
	if (!en)
		return;
	bool consume = s->own || k == TY_ITER;
	it = consume ? emitc_own_val(E, it) : it;
	it = emitc_borrow_val(E, it);
	const char *v = k == TY_ITER ? arena_printf(&E->a, "%s.v", it.c) : it.c;
	const char *i = emitc_new_tmp(E);
	const char *item = emitc_slot_name(E, s->slot);
	emitc_line(E, "for (size_t %s = %s; %s < %s.len; %s++) {", i, k == TY_ITER ? arena_printf(&E->a, "%s.pos", it.c) : "0",
	     i, v, i);
	E->indent++;
	emitc_line(E, "%s = ((%s *)%s.p)[%s];", item, en, v, i);
	if (consume && !emitc_is_copy(E, el))
		emitc_line(E, "((%s *)%s.p)[%s] = (%s)%s;", en, v, i, en, emitc_zero_init(E, el));
	emit_block(E, s->body, NULL, 0);   /* a consumed item is owned by the body's scope (HIR) … */
	if (E->slot_own[s->slot] && !E->f->locals[s->slot].owned)
		emitc_release_place(E, el, item);   /* … except a T-typed one of a generic instance */
	E->indent--;
	emitc_line(E, "}");
}

/* A `while` condition: `if (!c) break;`, and for `a && b` each operand's
 * own break in turn (the same short circuit).  The `&&` as a value (a bool
 * set inside an `if`) cost clang 14 the loop shape of the C twin: bench/native
 * floats' `k < 64 && zr * zr + zi * zi <= 4.0` (with the add-constant check
 * below) 1.07x -> 1.00x. */
static bool
emit_while_cond(Emit *E, const HirExpr *c)
{
	if (c->kind == HIR_BINARY && c->u.bin.op == BIN_AND)
		return emit_while_cond(E, c->u.bin.l) && emit_while_cond(E, c->u.bin.r);
	int cm = emitc_temps_mark(E);
	Val v = emitc_ev(E, c);
	emitc_temps_release(E, cm);
	if (!v.c)
		return false;
	emitc_line(E, "if (!%s)", v.c);
	emitc_line(E, "\tbreak;");
	return true;
}

static void
emit_stmt(Emit *E, const HirStmt *s)
{
	int mark = emitc_temps_mark(E);
	switch (s->kind) {
	case HS_LET: case HS_ASSIGN: case HS_EXPR: {
		Val v = emitc_ev(E, s->value);
		if (!v.c)
			return;
		if (s->kind == HS_EXPR || s->slot == HIR_NO_SLOT)
			emitc_drop_val(E, v);
		else
			store_slot(E, s->slot, v);
		if (emitc_may_view(E, v.t))
			return;   /* a view may borrow from this statement's temporaries: they live to the block end */
		break;
	}
	case HS_SET_FIELD: {
		Val v = emitc_ev(E, s->value);
		TypeId rt = emitc_slot_type(E, s->slot);
		Sym *rs = emitc_nominal_sym(E, rt);
		if (!v.c || !rs || s->field < 0 || s->field >= rs->nom->nfields)
			return;
		TypeId ft = sema_field_type(E->S, rt, s->field);
		emitc_types_grow(E);
		v = emitc_own_val(E, emitc_coerce(E, v, ft));
		const char *place = arena_printf(&E->a, "%s.f_%s", emitc_slot_name(E, s->slot), rs->nom->fields[s->field].name);
		emitc_release_place(E, ft, place);
		emitc_line(E, "%s = %s;", place, v.c);
		emitc_check_invariants(E, rt, emitc_slot_name(E, s->slot), s->span);
		break;
	}
	case HS_WHILE: {
		emitc_line(E, "for (;;) {");
		E->indent++;
		if (emit_while_cond(E, s->value))
			emit_block(E, s->body, NULL, 0);
		E->indent--;
		emitc_line(E, "}");
		break;
	}
	case HS_UNSAFE:
		if (s->body)
			emit_block(E, s->body, NULL, 0);
		break;
	case HS_FOR:
		emit_for(E, s);
		break;
	}
	emitc_temps_release(E, mark);
}
