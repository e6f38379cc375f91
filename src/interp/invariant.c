/*
 * invariant.c — record invariants at run time (LANGUAGE.md §4.6, §0.7).
 *
 * The HIR does not lower invariants (see hir.h), so they are evaluated here
 * from the record symbol's declaration: a small evaluator over the checked
 * AST expressions, with the record's fields bound by name and types from
 * Sema.expr_type.  Invariants are checked at every record literal, every
 * `with` update and every field store (eval.c); a false one is
 * `semaprax.contract.v1` code 1.  Fuel: one step per clause and per
 * expression node, as for `requires`.
 *
 * Supported expression forms: literals, field names, unary and binary
 * operators, field projections, and calls of compiler-owned and module
 * functions (invariants are effect-free, C102).  Anything else stops the
 * run with an interpreter-limit message.
 */
#include "interp.h"

#include <string.h>

#define STOPPED (I->stop != STOP_NONE)

static VTag
tag_of(TypeId t)
{
	switch (t) {
	case TY_I32: return V_I32;
	case TY_U8: return V_U8;
	case TY_USIZE: return V_USIZE;
	case TY_F32: return V_F32;
	case TY_F64: return V_F64;
	default: return V_I64;
	}
}

static SymId
nominal_sym(Interp *I, TypeId t)
{
	const TypeInfo *ti = type_info(&I->S->types, t);
	return ti->kind == TY_NOMINAL ? (SymId)ti->decl : -1;
}

static Value inv_eval(Interp *I, SymId rec, Obj *o, const Expr *e);

static Value
inv_call(Interp *I, SymId rec, Obj *o, const Expr *e)
{
	int n = e->u.call.nargs;
	if (n > 8) {
		interp_limit(I, "a record invariant calls a function with more than 8 arguments");
		return v_empty();
	}
	const Builtin *b = I->S->call_builtin ? I->S->call_builtin[e->id] : NULL;
	int bi = -1, fi = -1;
	if (b) {
		bi = rt_builtin_index(b);
		if (bi < 0) {
			interp_limit(I, "the builtin `%s` is not implemented by the interpreter yet", b->name);
			return v_empty();
		}
	} else {
		SymId s = I->S->expr_sym[e->id];
		fi = s >= 0 ? I->symfunc[s] : -1;
		if (fi < 0) {
			interp_limit(I, "a record invariant calls an unsupported function");
			return v_empty();
		}
	}
	Value args[8];
	for (int i = 0; i < n; i++) {
		args[i] = inv_eval(I, rec, o, e->u.call.args[i]);
		if (STOPPED) {
			for (int j = 0; j < i; j++)
				value_release(args[j]);
			return v_empty();
		}
	}
	if (fi >= 0)
		return interp_call(I, fi, args, n);
	HirExpr call;
	memset(&call, 0, sizeof call);
	call.kind = HIR_CALL;
	call.type = I->S->expr_type[e->id];
	call.span = e->span;
	call.u.call.kind = CALL_BUILTIN;
	call.u.call.builtin = b;
	call.u.call.ntargs = e->u.call.ntargs;
	call.u.call.nargs = n;
	Value r = rt_builtin_call(I, bi, &call, args, n);
	bool view = rt_builtin_view(bi);
	for (int i = 0; i < n; i++) {
		if (!rt_builtin_borrows(bi, i))
			continue;
		if (view && !STOPPED && !args[i].borrowed && args[i].tag >= V_STRING)
			VEC_PUSH(I->temps, args[i]);
		else
			value_release(args[i]);
	}
	return r;
}

static Value
inv_eval(Interp *I, SymId rec, Obj *o, const Expr *e)
{
	if (++I->steps > I->budget) {
		I->stop = STOP_FUEL;
		return v_empty();
	}
	TypeId t = I->S->expr_type[e->id];
	switch (e->kind) {
	case EXPR_INT: {
		Value v = v_int(tag_of(t), 0);
		uint64_t m = e->u.int_lit.value;
		v.u = e->u.int_lit.negative ? (uint64_t)0 - m : m;
		return v;
	}
	case EXPR_FLOAT: {
		Value v = v_int(tag_of(t), 0);
		if (v.tag == V_F32)
			v.f32 = (float)e->u.float_lit.value;
		else
			v.f = e->u.float_lit.value;
		return v;
	}
	case EXPR_BOOL:
		return v_bool(e->u.bool_lit.value);
	case EXPR_CHAR: {
		Value v = v_int(V_CHAR, 0);
		v.u = e->u.char_lit.value;
		return v;
	}
	case EXPR_STRING:
		return string_value(e->u.str.s, e->u.str.len);
	case EXPR_NAME: {
		int fi = sema_field_index(I->S, rec, e->u.name.s);
		if (fi < 0 || (uint32_t)fi >= o->n)
			break;
		return value_read(&o->f[fi]);
	}
	case EXPR_UNARY: {
		Value x = inv_eval(I, rec, o, e->u.unary.operand);
		if (STOPPED)
			return v_empty();
		if (e->u.unary.op == UN_NOT) {
			x.b = !x.b;
			return x;
		}
		switch ((VTag)x.tag) {
		case V_I64: case V_I32:
			if (x.i == (x.tag == V_I64 ? INT64_MIN : INT32_MIN)) {
				interp_fail(I, DOM_ARITH, 8);
				return v_empty();
			}
			x.i = -x.i;
			return x;
		case V_F64: x.f = -x.f; return x;
		case V_F32: x.f32 = -x.f32; return x;
		default: break;
		}
		break;
	}
	case EXPR_BINARY: {
		BinaryOp op = e->u.binary.op;
		Value l = inv_eval(I, rec, o, e->u.binary.lhs);
		if (STOPPED)
			return v_empty();
		if (op == BIN_AND || op == BIN_OR) {
			if (l.b == (op == BIN_OR))
				return l;
			return inv_eval(I, rec, o, e->u.binary.rhs);
		}
		Value r = inv_eval(I, rec, o, e->u.binary.rhs);
		if (STOPPED) {
			value_release(l);
			return v_empty();
		}
		return interp_binary(I, op, l, r);
	}
	case EXPR_CALL:
		return inv_call(I, rec, o, e);
	case EXPR_FIELD: {
		Value b = inv_eval(I, rec, o, e->u.field.base);
		if (STOPPED)
			return v_empty();
		SymId bs = nominal_sym(I, I->S->expr_type[e->u.field.base->id]);
		int fi = bs >= 0 ? sema_field_index(I->S, bs, e->u.field.name.s) : -1;
		Obj *bo = b.p;
		if (b.tag != V_RECORD || fi < 0 || (uint32_t)fi >= bo->n) {
			value_release(b);
			break;
		}
		if (b.borrowed)
			return value_read(&bo->f[fi]);
		Value v = bo->f[fi];
		bo->f[fi] = v_empty();
		value_release(b);
		return v;
	}
	default:
		break;
	}
	interp_limit(I, "this form of record invariant expression is not supported by the interpreter yet");
	return v_empty();
}

bool
interp_check_invariants(Interp *I, SymId sym, Obj *o)
{
	if (STOPPED)
		return false;
	const Sym *r = sema_sym(I->S, sym);
	const Decl *d = r->decl;
	if (!d || d->kind != DECL_RECORD)
		return true;
	for (int i = 0; i < d->u.record.ninvariants; i++) {
		if (++I->steps > I->budget) {
			I->stop = STOP_FUEL;
			return false;
		}
		int mark = I->temps.len;
		Value c = inv_eval(I, sym, o, d->u.record.invariants[i].cond);
		while (I->temps.len > mark)
			value_release(I->temps.items[--I->temps.len]);
		if (STOPPED)
			return false;
		if (!c.b) {
			interp_fail(I, DOM_CONTRACT, 1);
			return false;
		}
	}
	return true;
}
