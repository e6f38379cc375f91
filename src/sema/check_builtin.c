/*
 * check_builtin.c — calls of compiler-owned functions (LANGUAGE.md §5): the
 * builtin's signature for its type arguments, the argument checks shared with
 * user calls (check_expr.c), and the special rules of single builtins (box
 * profiles, bytes writes within their capacity, owned field arguments).
 */
#include "sema_int.h"

#include "../rt/domains.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const char *
place_kind(const Expr *a)
{
	switch (a->kind) {
	case EXPR_STRING: return "a string literal";
	case EXPR_ARRAY: return "an array literal";
	case EXPR_CALL: return "a call result";
	default: return "this expression";
	}
}


/*
 * Rules of compiler-owned functions that need the arguments themselves:
 * views borrow from named bindings (T266), `str_as_bytes` needs a `str`
 * (T263), a literal Vec capacity is at most 8192 (T282).  Returns true
 * when it reported (and checked the arguments).
 */
/* The reference reports a malformed Box operation call (type-argument or
 * argument count, box_get of a non-Copy T) with its Box code T285. */
static DiagCode
box_profile(BuiltinId bi, DiagCode other)
{
	return bi == BI_box_get || bi == BI_box_into_inner || bi == BI_box_new ? DIAG_T285 : other;
}

/* ---- owned byte buffers (§4.10; the reference's byte-buffer v1/v2) ---- */

#define BYTES_MAX_CAPACITY ((unsigned)RT_LIMIT_BYTES_CAPACITY)   /* rt/domains.def */

static bool
is_bytes_write(BuiltinId bi)
{
	return bi == BI_bytes_set || bi == BI_bytes_set5 || bi == BI_bytes_set1_or5_from_slice ||
	    bi == BI_bytes_set1_or6_or48_from_slice;
}

static bool
usize_literal(const Expr *e, uint64_t *v)
{
	if (e->kind != EXPR_INT || e->lit_suffix != SUF_USIZE)
		return false;
	*v = e->u.int_lit.value;
	return true;
}

/* The builtin a call names (builtin names are reserved, S113), or BI_COUNT;
 * read off the syntax because a buffer chain is looked at before it is checked. */
static BuiltinId
call_builtin(const Expr *e)
{
	const Builtin *b = e->kind == EXPR_CALL ? sema_builtin_find(e->u.call.callee.s) : NULL;
	return b ? b->bid : BI_COUNT;
}

bool
sema_bytes_write(const Expr *e)
{
	return is_bytes_write(call_builtin(e)) && e->u.call.nargs > 0 && e->u.call.args[0]->kind == EXPR_NAME;
}

/* The capacity of a buffer expression when the source fixes it: a literal
 * bytes_zeroed, or a write chain on one. */
static bool
static_capacity(const Expr *e, uint64_t *cap)
{
	BuiltinId bi = call_builtin(e);
	if (bi == BI_COUNT || e->u.call.nargs < 1)
		return false;
	if (bi == BI_bytes_zeroed)
		return usize_literal(e->u.call.args[0], cap);
	return is_bytes_write(bi) && static_capacity(e->u.call.args[0], cap);
}

/* T272: a write whose interval the source fixes lies past the buffer's end
 * (any write into an empty buffer does).  A non-literal selector counts as
 * its narrowest width, one byte. */
static void
bytes_interval(FnCtx *C, const Expr *e, BuiltinId bi, const char *name)
{
	uint64_t cap, at = 0, sel = 0, width = 1;
	int n = e->u.call.nargs;
	if (!is_bytes_write(bi) || n < 3 || !static_capacity(e->u.call.args[0], &cap))
		return;
	bool known = usize_literal(e->u.call.args[1], &at);
	if (bi == BI_bytes_set5)
		width = 5;
	else if (bi != BI_bytes_set && n == 5 && usize_literal(e->u.call.args[4], &sel) && (sel >> 63))
		width = bi == BI_bytes_set1_or5_from_slice ? 5 : (sel >> 62) & 1 ? 48 : 6;
	if (cap != 0 && (!known || (at <= cap && cap - at >= width)))
		return;
	Diag *d;
	if (width == 1 || !known)
		d = sema_error(C->S, DIAG_T272, e->u.call.args[1]->span, "`%s` index is outside the %" PRIu64 "-byte buffer", name, cap);
	else
		d = sema_error(C->S, DIAG_T272, e->u.call.args[1]->span, "`%s` writes %" PRIu64 " bytes from index %" PRIu64 ", past the end of the %" PRIu64 "-byte buffer",
		    name, width, at, cap);
	diag_set_help(d, "write inside the buffer: an index below its capacity, with room for the whole interval");
}

/* `bytes_as_slice(owner.field)`: one direct field of a named owned local is an
 * exact storage place too (the reference's projected byte view); the
 * ownership pass ties the view to `owner` (T265). */
static bool
owned_field_place(FnCtx *C, const Expr *a)
{
	if (a->kind != EXPR_FIELD || a->u.field.base->kind != EXPR_NAME)
		return false;
	const Local *l = sema_local_find(C, a->u.field.base->u.name.s);
	return l && l->mode != MODE_BORROW && l->mode != MODE_SHARED;
}

static bool
builtin_special(FnCtx *C, const Expr *e, BuiltinId bi, const char *name, const BuiltinSig *sig)
{
	Sema *S = C->S;
	Expr *const *args = e->u.call.args;
	if ((bi == BI_string_as_str || bi == BI_bytes_as_slice || bi == BI_array_as_slice || bi == BI_stdin_stream_chunk) &&
	    e->u.call.nargs == 1 && !(args[0]->kind == EXPR_NAME && sema_local_find(C, args[0]->u.name.s)) &&
	    !(bi == BI_bytes_as_slice && owned_field_place(C, args[0]))) {
		sema_check_expr(C, args[0]);
		Diag *d = sema_error(S, DIAG_T266, args[0]->span, "borrowed view `%s` requires an exact admitted storage place", name);
		const char *owner = bi == BI_string_as_str ? "text" : bi == BI_stdin_stream_chunk ? "reader" : "bytes";
		if (bi == BI_string_as_str && args[0]->kind == EXPR_FIELD) {
			/* `let text = r.name;` binds the field: it lends it from a borrowed
			 * base and moves it out of an owned one (whose other fields stay
			 * readable, O109 for the whole afterwards) */
			int n = (int)(args[0]->span.end - args[0]->span.start);
			const char *f = S->src + args[0]->span.start;
			const char *field = args[0]->u.field.name.s;
			bool owned = owned_field_place(C, args[0]);
			diag_set_help(d, "`string_as_str` lends a named binding, not a field: bind the field first, `let %s = %.*s;`%s, then `string_as_str(%s)`; "
			    "text functions also read the field directly (`string_len(%.*s)`)", field, n, f,
			    owned ? " (this moves it out of the record, whose other fields stay readable)" : "", field, n, f);
		} else if (bi == BI_bytes_as_slice && args[0]->kind == EXPR_FIELD && args[0]->u.field.base->kind == EXPR_NAME &&
			   sema_local_find(C, args[0]->u.field.base->u.name.s)) {
			/* a field of an owned local is admitted (owned_field_place); of a
			 * borrowed one, `let data = b.data;` lends the field */
			int n = (int)(args[0]->span.end - args[0]->span.start);
			const char *f = S->src + args[0]->span.start;
			const char *field = args[0]->u.field.name.s;
			diag_set_help(d, "`bytes_as_slice` views a named binding or a field of an owned one, and `%s` is borrowed: bind the field first, `let %s = %.*s;` (it lends the field), then `bytes_as_slice(%s)`",
			    args[0]->u.field.base->u.name.s, field, n, f, field);
		} else if (bi == BI_string_as_str && args[0]->kind == EXPR_STRING && args[0]->span.end - args[0]->span.start <= 40) {
			/* `string_from_str(string_as_str("x"))`, a newcomer's way to a
			 * `string`: the literal is one already */
			int n = (int)(args[0]->span.end - args[0]->span.start);
			const char *lit = S->src + args[0]->span.start;
			diag_set_help(d, "`string_as_str` borrows from a named `let` binding, not from a string literal; bind it first: `let text = %.*s; string_as_str(text)`; "
			    "where a `string` is wanted (`string_from_str(string_as_str(%.*s))`), the literal already is one: write `%.*s`", n, lit, n, lit, n, lit);
		} else {
			diag_set_help(d, "`%s` borrows from a named `let` binding, not from %s; bind the owner first: `let %s = …; %s(%s)`", name,
			    place_kind(args[0]), owner, name, owner);
		}
		return true;
	}
	if (bi == BI_str_as_bytes && e->u.call.nargs == 1) {
		TypeId a = sema_check_expr(C, args[0]);
		if (a == T_STRING && args[0]->kind != EXPR_NAME && args[0]->kind != EXPR_FIELD) {
			/* the reference's verifier hint: a view of a temporary string has no storage place */
			Diag *d = sema_error(S, DIAG_T266, args[0]->span, "borrowed view `str_as_bytes` requires an exact admitted storage place");
			diag_set_help(d, "bind the text first and view it: `let text = \"…\"; str_as_bytes(string_as_str(text))`");
		} else if (a == T_STRING) {
			Diag *d = sema_error(S, DIAG_T263, args[0]->span, "byte operation `str_as_bytes` argument 1 has the wrong type");
			diag_set_help(d, "`str_as_bytes` takes a `str` view; borrow the string first: `str_as_bytes(string_as_str(binding))`");
		} else if (a != T_ERR && a != T_STR) {
			Diag *d = sema_error(S, DIAG_T205, args[0]->span, "argument `s` to `str_as_bytes` expects str, received %s", sema_type_name(S, a));
			diag_set_help(d, "pass a `str` view such as `string_as_str(binding)`");
		}
		return true;
	}
	if ((bi == BI_box_get || bi == BI_vec_get) && e->u.call.ntargs == 1) {
		TypeId t = sig->result;
		if (t != T_ERR && !sema_is_copy(S, t)) {
			for (int i = 0; i < e->u.call.nargs; i++)
				sema_check_expr(C, args[i]);
			Diag *d = sema_error(S, box_profile(bi, DIAG_T205), e->span, "`%s<%s>` reads a Copy element; `%s` is not Copy", name, sema_type_name(S, t), sema_type_name(S, t));
			if (bi == BI_box_get && e->u.call.nargs == 1 && sema_lent_value(S, args[0]))
				/* a borrowed box (a `borrow` parameter, a `match borrow`
				 * binding): moving out needs the owner */
				diag_set_help(d, "a lent box of a non-Copy value cannot be read in place: `box_into_inner<%s>(b)` moves the value out and consumes the box, so take the box (or what holds it) `own` and open it with `match own`", sema_type_name(S, t));
			else
				diag_set_help(d, bi == BI_vec_get ? "copy the element out with `vec_clone_at<%s>(v, i)`, or iterate with `for item in values`"
				    : "move the value out with `box_into_inner<%s>(b)`", sema_type_name(S, t));
			return true;
		}
	}
	if (bi == BI_vec_sort && e->u.call.ntargs == 1 && sig->result != T_ERR && sema_type_info(&S->types, sig->result)->kind == TY_VEC) {
		/* an ordered element only: the reference's Copy scalars (bool
		 * included: false < true) and string (§0.1 lifts the rest of T281
		 * for Vec itself, so this is T205, as vec_get's Copy rule) */
		TypeId t = sema_type_info(&S->types, sig->result)->args[0];
		TyKind k = sema_type_info(&S->types, t)->kind;
		bool ordered = (k >= TYPE_FIRST_SCALAR && k <= TYPE_LAST_SCALAR) || k == TY_STRING || k == TY_ERROR;
		if (!ordered) {
			for (int i = 0; i < e->u.call.nargs; i++)
				sema_check_expr(C, args[i]);
			Diag *d = sema_error(S, DIAG_T205, e->span, "`vec_sort<%s>` sorts ordered elements; `%s` has no order", sema_type_name(S, t), sema_type_name(S, t));
			diag_set_help(d, "sort a Vec of integers, floats, char, bool or string; for records, sort a Vec of keys (e.g. `Vec<i64>`) and look the records up by key");
			return true;
		}
	}
	if (bi == BI_bytes_zeroed && e->u.call.nargs == 1 &&
	    !(args[0]->kind == EXPR_INT && args[0]->lit_suffix == SUF_USIZE)) {
		sema_check_expr(C, args[0]);
		/* a literal of another type is a type error; a computed capacity T271 (§4.10) */
		Diag *d = sema_error(S, args[0]->kind == EXPR_INT ? DIAG_T205 : DIAG_T271, args[0]->span, "`bytes_zeroed` takes a literal `usize` capacity");
		if (args[0]->kind == EXPR_INT)
			diag_set_help(d, "write the capacity as a literal, e.g. `bytes_zeroed(16usize)`");
		else   /* a computed size (qa30): the buffer is sized for its largest use */
			diag_set_help(d, "a byte buffer's size is fixed when the program is written: take a literal bound for the largest size you need, e.g. `bytes_zeroed(4096usize)` (at most 131072), count the bytes you fill, and view only those with `byte_range(bytes_as_slice(b), 0usize, used)`");
		return true;
	}
	if (bi == BI_bytes_zeroed && e->u.call.nargs == 1 && args[0]->u.int_lit.value > BYTES_MAX_CAPACITY) {
		Diag *d = sema_error(S, DIAG_T271, args[0]->span, "`bytes_zeroed` capacity must be no greater than 131072");
		diag_set_help(d, "an owned byte buffer holds at most 131072 bytes");
		return true;
	}
	if (sema_bytes_write(e) && e != C->reopen) {
		Diag *d = sema_error(S, DIAG_T271, args[0]->span, "a named byte buffer is frozen; `%s` may reopen it only as `%s = %s(%s, …)`",
		    args[0]->u.name.s, args[0]->u.name.s, name, args[0]->u.name.s);
		diag_set_help(d, "declare it `let mut %s` and write `%s = %s(%s, …);`, or chain the writes on the fresh buffer: `%s(bytes_zeroed(Nusize), …)`",
		    args[0]->u.name.s, args[0]->u.name.s, name, args[0]->u.name.s, name);
	}
	bytes_interval(C, e, bi, name);
	if (bi == BI_vec_with_capacity && e->u.call.nargs == 1 && args[0]->kind == EXPR_INT &&
	    args[0]->lit_suffix == SUF_USIZE && args[0]->u.int_lit.value > RT_LIMIT_VEC_CAPACITY) {
		sema_check_expr(C, args[0]);
		Diag *d = sema_error(S, DIAG_T282, args[0]->span, "`vec_with_capacity` literal capacity must be no greater than 8192");
		diag_set_help(d, "a Vec holds at most 8192 elements");
		return true;
	}
	(void)sig;
	return false;
}

TypeId
sema_check_builtin_call(FnCtx *C, const Expr *e, const Builtin *b)
{
	Sema *S = C->S;
	const char *name = e->u.call.callee.s;
	BuiltinId bi = b->bid;
	TypeId local[8];
	int ntargs = e->u.call.ntargs;
	TypeId *targs = sema_resolve_targs(C, e->u.call.targs, ntargs, local);
	/* The reference's legacy untyped map forms mean Map<string, i64>. */
	if (ntargs == 0 && b->ntparams == 2 && sema_builtin_is_map_op(bi)) {
		local[0] = T_STRING;
		local[1] = T_I64;
		ntargs = 2;
	}
	BuiltinSig sig;
	const char *why = NULL;
	TypeId result = T_ERR;
	if (!sema_builtin_signature(S, b, targs, ntargs, &sig, &why)) {
		Diag *d;
		if (b->ntparams == 0 && ntargs)
			d = sema_error(S, DIAG_T225, e->span, "monomorphic function `%s` does not accept type arguments", name);
		else if (ntargs != b->ntparams && (sema_builtin_is_map_op(bi) || sema_builtin_is_set_op(bi)))
			/* the reference's map_collections corpus: a collection operation's type
			 * argument count is a collection-shape error */
			d = sema_error(S, DIAG_T274, e->span, "`%s` expects %d type arguments, received %d", name, b->ntparams, ntargs);
		else if (ntargs != b->ntparams)
			d = sema_error(S, box_profile(bi, DIAG_T225), e->span, "generic function `%s` expects %d explicit type arguments, received %d", name, b->ntparams, ntargs);
		else
		{
			/* `map_add<i64, string>` is not admitted: the Map's values must be `i64` */
			Buf ta = {0};
			for (int i = 0; i < ntargs; i++)
				buf_printf(&ta, "%s%s", i ? ", " : "", sema_type_name(S, targs[i]));
			d = sema_error(S, DIAG_T274, e->span, "`%s<%s>` is not admitted: %s", name, ta.data ? ta.data : "",
			    why ? why : "these type arguments are not supported");
			buf_free(&ta);
		}
		if (bi == BI_map_add && ntargs == 2 && targs[1] != T_I64 && why)
			diag_set_help(d, "for `%s` values read the entry with `map_get_or<%s, %s>(…)` and store the new value with `map_set<%s, %s>(…)`",
			    sema_type_name(S, targs[1]), sema_type_name(S, targs[0]), sema_type_name(S, targs[1]), sema_type_name(S, targs[0]), sema_type_name(S, targs[1]));
		else
			diag_set_help(d, "call it as `%s%s(…)`", name, b->ntparams == 0 ? "" : b->ntparams == 1 ? "<i64>" : "<string, i64>");
		for (int i = 0; i < e->u.call.nargs; i++)
			sema_check_expr(C, e->u.call.args[i]);
		goto out;
	}
	sema_record_call(C, -1, name, sig.effect, e->span);
	S->call_builtin[ast_call_index(e)] = b;
	if (sig.nparams >= 0 && e->u.call.nargs == sig.nparams) {
		uint8_t *cons = arena_alloc(&S->arena, (size_t)(sig.nparams ? sig.nparams : 1));
		for (int i = 0; i < sig.nparams; i++)
			cons[i] = sig.modes[i] != MODE_BORROW;
		S->call_consumes[ast_call_index(e)] = cons;
	}
	if (sig.nparams >= 0 && e->u.call.nargs != sig.nparams) {
		Diag *d = sema_error(S, box_profile(bi, DIAG_T204), e->span, "`%s` expects %d arguments, received %d", name, sig.nparams, e->u.call.nargs);
		if (bi == BI_string_concat && e->u.call.nargs > 2)   /* qa30: three pieces at once */
			diag_set_help(d, "`string_concat` joins two strings; nest it for more, `string_concat(string_concat(a, b), c)`, or build the text with `string_format(\"{}{}{}\", a, b, c)`");
		else
			diag_set_help(d, "pass exactly %d argument%s", sig.nparams, sig.nparams == 1 ? "" : "s");
		for (int i = 0; i < e->u.call.nargs; i++)
			sema_check_expr(C, e->u.call.args[i]);
		result = sig.result;
		goto out;
	}
	if (sig.nparams < 0) {
		sema_check_format(C, e);
	} else if (builtin_special(C, e, bi, name, &sig)) {
		/* reported */
	} else {
		for (int i = 0; i < e->u.call.nargs; i++) {
			if (sig.params[i] == T_ERR) {   /* any [u8; N] */
				TypeId a = sema_check_expr(C, e->u.call.args[i]);
				if (a != T_ERR && sema_type_info(&S->types, a)->kind != TY_ARRAY) {
					Diag *d = sema_error(S, DIAG_T205, e->u.call.args[i]->span, "argument `array` to `%s` expects [u8; N], received %s", name, sema_type_name(S, a));
					diag_set_help(d, "pass a byte array such as `[1u8, 2u8]` bound with `let`");
				}
				continue;
			}
			/* name the parameter as builtins.def declares it (`help library` prints it) */
			BuiltinParam bp;
			char pn[64];
			const char *pname = pn;
			bool named = sema_builtin_param(bi, i, &bp) && bp.name_len > 0 && bp.name_len < (int)sizeof pn;
			if (named) {
				memcpy(pn, bp.name, (size_t)bp.name_len);
				pn[bp.name_len] = '\0';
			}
			sema_check_args_at(C, name, e->u.call.args + i, 1, sig.params + i, named ? &pname : NULL, 1, NULL, i, e->u.call.nargs);
		}
	}
	result = sig.result;
out:
	if (targs != local)
		free(targs);
	return result;
}

