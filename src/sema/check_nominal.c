/*
 * check_nominal.c — expressions over declared types (LANGUAGE.md §3.6, §4):
 * method calls and `super` calls (class methods found from the class
 * upward; a generic class's methods take the receiver's type arguments),
 * field projections, record and variant constructions and `with` updates,
 * with the T203/T214 helps for a method or field that is not there.
 * The dispatch and every other expression form stay in check_expr.c.
 */
#include "sema_int.h"

#include <stdlib.h>
#include <string.h>

/* ==== methods and projections ============================================================ */

/* Finds method `name` from class `cls` upward; -1 when none. */
static SymId
find_method(Sema *S, SymId cls, const char *name)
{
	for (SymId c = cls; c >= 0; c = sema_sym(S, c)->nom->parent) {
		SymId m = sema_own_method(S, c, name);
		if (m >= 0)
			return m;
	}
	return -1;
}

/* The one method name of cls and its ancestors one edit from name (a
 * transposition too; names of 3 bytes or more), or NULL. */
static const char *
near_method(Sema *S, SymId cls, const char *name)
{
	if (strlen(name) < 3)
		return NULL;
	SpxNear nr = { .want = name };
	for (SymId c = cls; c >= 0; c = sema_sym(S, c)->nom->parent) {
		const SymNominal *n = sema_sym(S, c)->nom;
		for (int i = 0; i < n->nmethods; i++)
			spx_near_offer(&nr, sema_sym(S, n->methods[i])->name);
	}
	return spx_near_best(&nr);
}

/* The type arguments of a call of method m of a generic class: the receiver's
 * (recv is `Class<A, …>` itself), copied to out (at most 8); false, reported,
 * when there are none to take. */
static bool
method_targs(FnCtx *C, const Expr *e, SymId m, TypeId recv, TypeId *out)
{
	Sema *S = C->S;
	const Sym *ms = sema_sym(S, m);
	const TypeInfo *ti = recv != T_ERR ? sema_type_info(&S->types, recv) : NULL;
	if (ti && ti->kind == TY_NOMINAL && (SymId)ti->decl == ms->owner && ti->nargs == ms->ntparams && ti->nargs <= 8) {
		memcpy(out, ti->args, sizeof(TypeId) * (size_t)ti->nargs);   /* sema_type_subst may move ti */
		return true;
	}
	Diag *d = sema_error(S, DIAG_T225, e->span, "method `%s` of generic class `%s` is called only on a `%s<…>` receiver", ms->name,
	    sema_sym(S, ms->owner)->name, sema_sym(S, ms->owner)->name);
	diag_set_help(d, "call the method on a value of the generic class itself, not through `super` or a subclass");
	return false;
}

static TypeId
call_method(FnCtx *C, const Expr *e, SymId m, const char *cname, Expr *const *args, int nargs, TypeId recv)
{
	Sema *S = C->S;
	Sym *ms = sema_sym(S, m);
	sema_expr_sym_set(S, e->id, m);
	TypeId tbuf[8];
	const TypeId *targs = NULL;
	int ntargs = ms->ntparams;
	if (ntargs > 0) {
		if (!method_targs(C, e, m, recv, tbuf)) {
			for (int i = 0; i < nargs; i++)
				sema_check_expr(C, args[i]);
			return T_ERR;
		}
		targs = tbuf;
		sema_note_instance(S, m, targs, ntargs, e->span);
	}
	sema_record_call(C, m, ms->name, NULL, e->span);
	if (ms->nparams >= 1 && nargs == ms->nparams - 1) {
		uint8_t *cons = arena_alloc(&S->arena, (size_t)ms->nparams);
		for (int i = 0; i < ms->nparams; i++)
			cons[i] = ms->params[i].mode != MODE_BORROW && ms->params[i].mode != MODE_SHARED;
		S->call_consumes[ast_call_index(e)] = cons;
	}
	int np = ms->nparams > 0 ? ms->nparams - 1 : 0;
	if (nargs != np) {
		Diag *d = sema_error(S, DIAG_T204, e->span, "`%s.%s` expects %d arguments, received %d", cname, ms->name, np, nargs);
		diag_set_help(d, "pass exactly %d argument%s after the receiver", np, np == 1 ? "" : "s");
		for (int i = 0; i < nargs; i++)
			sema_check_expr(C, args[i]);
		return ms->result;
	}
	TypeId params[64];
	const char *pnames[64];
	for (int i = 0; i < np && i < 64; i++) {
		params[i] = targs ? sema_type_subst(&S->types, ms->params[i + 1].type, (uint32_t)m, targs, ntargs) : ms->params[i + 1].type;
		pnames[i] = ms->params[i + 1].name;
	}
	sema_check_args_at(C, ms->name, args, nargs, params, pnames, np < 64 ? np : 64, ms->params + 1, 0, np < 64 ? np : 64);
	return targs ? sema_type_subst(&S->types, ms->result, (uint32_t)m, targs, ntargs) : ms->result;
}

/* T203's help for another language's string method (`s.trim()`, qa34):
 * the compiler-owned function that does it, or that none does; NULL for
 * other names. */
static const char *
string_method_help(const char *m)
{
	static const char *const names[] = { "contains", "starts_with", "trim", "find", "index_of", "indexOf", "slice", "substring",
		"substr", "is_empty", "parse", "concat", "push_str", "compare", "cmp", "to_upper", "to_uppercase", "to_lower",
		"to_lowercase", "toUpperCase", "toLowerCase", "split", "lines", "replace", "chars", "bytes", "ends_with" };
	static const char *const helps[] = {
		"`string_contains(s, needle)`", "`string_starts_with(s, prefix)`", "`string_trim(s)` (ASCII whitespace)",
		"`string_find(s, needle, from)` (-1 when absent)", "`string_find(s, needle, from)` (-1 when absent)",
		"`string_find(s, needle, from)` (-1 when absent)", "`string_slice(s, start, end)` (byte offsets)",
		"`string_slice(s, start, end)` (byte offsets)", "`string_slice(s, start, end)` (byte offsets)", "`string_is_empty(s)`",
		"`string_to_i64(s)`, an `Option<i64>`", "`string_concat(a, b)`, which consumes both", "`s = string_concat(s, more);`",
		"`string_compare(a, b)` (-1, 0 or 1)", "`string_compare(a, b)` (-1, 0 or 1)", NULL, NULL, NULL, NULL, NULL, NULL, NULL,
		NULL, NULL, NULL, "`str_as_bytes(string_as_str(s))` (a `Slice<u8>` view of a named `s`)", NULL };
	int i = spx_word_index(names, countof(names), m);
	if (i < 0)
		return NULL;
	if (helps[i])
		return helps[i];
	return "no compiler-owned function does this; build the result from the bytes, `string_byte_at(s, i)` in a `while` loop and "
	       "`string_concat(out, string_from_char(char_from_i64(b)))` (a project's std.text has case mapping, fields and a suffix test)";
}

/* T203's help for `x.to_string()` on a scalar (qa31): each width's own
 * way to text; NULL when t is no scalar. */
static const char *
scalar_text_help(TypeId t)
{
	static const struct {
		TypeId type;
		const char *text;
	} helps[] = {
		{ T_I64, "scalars have no methods; write `string_from_i64(x)`" },
		{ T_I32, "scalars have no methods; write `string_from_i64(i64_from_i32(x))`" },
		{ T_U8, "scalars have no methods; write `string_from_i64(i64_from_u8(x))`" },
		{ T_USIZE, "scalars have no methods; write `string_from_usize(x)`" },
		{ T_F32, "scalars have no methods, and no builtin renders or converts an `f32`: compute in `f64` to print a value" },
		{ T_F64, "scalars have no methods; write `string_from_i64(i64_from_f64(x))` for its integer part (no builtin renders an `f64`)" },
		{ T_BOOL, "scalars have no methods; write `if x { \"true\" } else { \"false\" }`" },
		{ T_CHAR, "scalars have no methods; write `string_from_char(x)`" },
	};
	for (size_t i = 0; i < countof(helps); i++)
		if (helps[i].type == t)
			return helps[i].text;
	return NULL;
}

TypeId
sema_check_method(FnCtx *C, const Expr *e)
{
	Sema *S = C->S;
	TypeId rt = sema_check_expr(C, e->u.method.recv);
	const char *mname = e->u.method.name.s;
	if (rt == T_ERR) {
		for (int i = 0; i < e->u.method.nargs; i++)
			sema_check_expr(C, e->u.method.args[i]);
		return T_ERR;
	}
	const TypeInfo *ti = sema_type_info(&S->types, rt);
	if (ti->kind == TY_NOMINAL && sema_sym(S, (SymId)ti->decl)->kind == SK_CLASS) {
		SymId cls = (SymId)ti->decl;
		SymId m = find_method(S, cls, mname);
		if (m >= 0)
			return call_method(C, e, m, sema_sym(S, cls)->name, e->u.method.args, e->u.method.nargs, rt);
		Diag *d = sema_error(S, DIAG_T203, e->span, "unknown method `%s` on `%s`", mname, sema_sym(S, cls)->name);
		const char *near = near_method(S, cls, mname);
		Span ns = e->u.method.name.span;
		if (near) {
			/* a misspelt method (qa35): the fix writes the declared one */
			diag_set_help(d, "did you mean `%s`?", near);
			if (ns.end - ns.start == strlen(mname))
				diag_add_fix(d, ns.start, ns.end, near);
		} else if (!sema_field_call_help(S, d, e, rt))
			diag_set_help(d, "declare `fn %s(self: %s, …)` in class `%s` or one of its ancestors", mname, sema_sym(S, cls)->name, sema_sym(S, cls)->name);
	} else if (ti->kind == TY_NOMINAL) {
		Sym *s = sema_sym(S, (SymId)ti->decl);
		Diag *d = sema_error(S, DIAG_T203, e->span, "unknown method `%s` on `%s`", mname, s->name);
		if (!sema_field_call_help(S, d, e, rt) && !sema_carrier_method_help(S, d, rt))
			diag_set_help(d, "%s have no methods; call a function with the value as an argument, or declare a `class` when methods are needed",
			    s->kind == SK_VARIANT ? "variants" : s->kind == SK_RESOURCE ? "resources" : "records");
	} else {
		Diag *d = sema_error(S, DIAG_T203, e->u.method.recv->span, "method `%s` requires a class receiver, found `%s`", mname, sema_type_name(S, rt));
		if (rt == T_STRING && (strcmp(mname, "len") == 0 || strcmp(mname, "length") == 0 || strcmp(mname, "size") == 0))
		{
			const Expr *r = e->u.method.recv;
			diag_set_help(d, "strings have no methods; write `string_len(%s)` with the compiler-owned function", r->kind == EXPR_NAME ? r->u.name.s : "s");
			if (r->kind == EXPR_NAME && e->u.method.nargs == 0) {
				/* `s.len()` (qa37): the call it means */
				Buf fix = {0};
				buf_printf(&fix, "string_len(%s)", r->u.name.s);
				diag_add_fix(d, e->span.start, e->span.end, fix.data);
				buf_free(&fix);
			}
		}
		else if (rt == T_STRING && string_method_help(mname) && strncmp(string_method_help(mname), "no ", 3) == 0)
			diag_set_help(d, "strings have no methods, and %s", string_method_help(mname));
		else if (rt == T_STRING && string_method_help(mname))
			diag_set_help(d, "strings have no methods; write %s with the compiler-owned function", string_method_help(mname));
		else if (rt == T_STRING)
			diag_set_help(d, "strings have no methods; call a compiler-owned function with the value as its argument");
		else if (sema_method_help(S, d, e, rt))
			;
		else if (strcmp(mname, "to_string") == 0 && scalar_text_help(rt))
			diag_set_help(d, "%s", scalar_text_help(rt));
		else {
			bool known = sema_builtin_find(mname) != NULL;
			for (SymId id = 0; !known && id < S->syms.len; id++)
				known = sema_sym(S, id)->kind == SK_FN && strcmp(sema_sym(S, id)->name, mname) == 0;
			const Expr *rv = e->u.method.recv;
			int n = (int)(rv->span.end - rv->span.start);
			if (n > 40) {
				n = 1;
				rv = NULL;
			}
			if (known)
				diag_set_help(d, "only class values have methods; call the function with the value as its argument: `%s(%.*s)`", mname, n, rv ? S->src + rv->span.start : "x");
			else   /* `a.abs()`: no such function to call either */
				diag_set_help(d, "only class values have methods, and no function `%s` is in scope: declare one, `fn %s(value: %s) -> …`, and call `%s(%.*s)`",
				    mname, mname, sema_type_name(S, rt), mname, n, rv ? S->src + rv->span.start : "x");
		}
	}
	for (int i = 0; i < e->u.method.nargs; i++)
		sema_check_expr(C, e->u.method.args[i]);
	return T_ERR;
}

SemaNear
sema_near_start(const char *want)
{
	SemaNear n = { want, strlen(want), -1, 3, false };
	return n;
}

bool
sema_near_within(const SemaNear *n, const char *cand, int *d)
{
	*d = spx_edit_within(n->want, cand, true, 2);
	return *d <= 2 && (*d < 2 || (n->len >= 5 && strlen(cand) >= 5));
}

void
sema_near_try(SemaNear *n, int i, const char *cand)
{
	int d;
	if (!sema_near_within(n, cand, &d))
		return;
	if (d < n->best_d) {
		n->best = i;
		n->best_d = d;
		n->tie = false;
	} else if (d == n->best_d) {
		n->tie = true;
	}
}

/* Whether `name` is a shortening of `field` (a non-empty proper prefix). */
static bool
abbreviates(const char *name, const char *field)
{
	size_t n = strlen(name);
	return n > 0 && n < strlen(field) && strncmp(name, field, n) == 0;
}

/* The index of the one field of fields[0, n) nearest a misspelt name (the
 * distance rule of sema_near_case), skipping those skip[] marks (may be
 * NULL); -1 when none or a tie (qa38: T212's and T214's did-you-mean). */
static int
near_field(const FieldSym *fields, int n, const bool *skip, const char *name)
{
	SemaNear nr = sema_near_start(name);
	for (int i = 0; i < n; i++)
		if (!skip || !skip[i])
			sema_near_try(&nr, i, fields[i].name);
	return nr.tie ? -1 : nr.best;
}

TypeId
sema_check_field(FnCtx *C, const Expr *e)
{
	Sema *S = C->S;
	TypeId bt = sema_check_expr(C, e->u.field.base);
	const char *f = e->u.field.name.s;
	if (bt == T_ERR)
		return T_ERR;
	const TypeInfo *ti = sema_type_info(&S->types, bt);
	if (ti->kind == TY_NOMINAL) {
		Sym *s = sema_sym(S, (SymId)ti->decl);
		if (s->kind == SK_RECORD || s->kind == SK_CLASS) {
			int idx = sema_field_index(S, (SymId)ti->decl, f);
			if (idx >= 0)
				return sema_field_type(S, bt, idx);
			Diag *d = sema_error(S, DIAG_T214, e->span, "record `%s` has no field `%s`", sema_type_name(S, bt), f);
			if (s->kind == SK_CLASS && find_method(S, (SymId)ti->decl, f) >= 0) {
				/* `c.inc` without the call: a method is no value */
				diag_set_help(d, "`%s` is a method of `%s`, not a field: call it, `%s.%s(…)`; a method is not a value",
				    f, s->name, e->u.field.base->kind == EXPR_NAME ? e->u.field.base->u.name.s : "value", f);
				return T_ERR;
			}
			int k = near_field(s->nom->fields, s->nom->nfields, NULL, f);
			if (k >= 0) {
				const char *near = s->nom->fields[k].name;
				/* a misspelt field: the fix writes the declared one */
				Name fn = ast_field_name(e);
				diag_set_help(d, "did you mean `%s`?", near);
				diag_add_fix(d, fn.span.start, fn.span.end, near);
				return T_ERR;
			}
			/* its fields in declaration order, the first eight */
			Buf h = {0};
			buf_printf(&h, "`%s` declares ", s->name);
			if (!s->nom->nfields)
				buf_puts(&h, "no fields");
			for (int i = 0; i < s->nom->nfields && i < 8; i++)
				buf_printf(&h, "%s`%s`", i ? ", " : "", s->nom->fields[i].name);
			if (s->nom->nfields > 8)
				buf_puts(&h, ", …");
			diag_set_help(d, "%s", h.data);
			buf_free(&h);
			return T_ERR;
		}
	}
	Diag *d = sema_error(S, DIAG_T214, e->span, "cannot project field `%s` from `%s`", f, sema_type_name(S, bt));
	diag_set_help(d, "only records and classes have fields; inspect variants with `match`");
	return T_ERR;
}

/* ==== constructions ======================================================================= */

/* Checks the values of `{ f: e, … }` alone (the construction itself failed). */
static void
check_init_values(FnCtx *C, const FieldInit *inits, int n)
{
	for (int i = 0; i < n; i++)
		sema_check_expr(C, inits[i].value);
}

SymId
sema_owner_fields(Sema *S, TypeId owner, int ci, FieldSym **fields, int *nfields)
{
	SymId decl = (SymId)sema_type_info(&S->types, owner)->decl;
	const Sym *s = sema_sym(S, decl);
	*fields = ci >= 0 ? s->nom->cases[ci].fields : s->nom->fields;
	*nfields = ci >= 0 ? s->nom->cases[ci].nfields : s->nom->nfields;
	return decl;
}

/* The type field k of owner (or of its case case_index) wants. */
static TypeId
field_want(Sema *S, TypeId owner, int case_index, int k)
{
	return case_index >= 0 ? sema_case_field_type(S, owner, case_index, k) : sema_field_type(S, owner, k);
}

/* Checks `{ f: e, … }` against the fields of a record type or variant case. */
static void
check_inits(FnCtx *C, const Expr *e, const FieldInit *inits, int n, TypeId owner, int case_index, const char *what, bool all_required)
{
	Sema *S = C->S;
	FieldSym *fields;
	int nfields;
	SymId decl = sema_owner_fields(S, owner, case_index, &fields, &nfields);
	Sym *s = sema_sym(S, decl);
	bool *seen = spx_xcalloc((size_t)(nfields ? nfields : 1), 1);
	const char *cname = case_index >= 0 ? s->nom->cases[case_index].name : NULL;
	/* each initializer's field (-1: unknown) and, for an unknown one, the
	 * field it is a misspelling of: one no initializer names (rev38: once
	 * for the literal, not once per unknown initializer, which was
	 * quadratic) */
	int *at = spx_xmalloc(sizeof *at * (size_t)(n ? n : 1)), *near = NULL, *claims = NULL;
	bool guessed = false;   /* near[0] is the one field of a one-field shape, not a near spelling */
	for (int i = 0; i < n; i++) {
		at[i] = sema_field_find(S, decl, case_index, inits[i].name.s, true);
		if (at[i] < 0 && !near) {
			near = spx_xmalloc(sizeof *near * (size_t)n);
			claims = spx_xcalloc((size_t)(nfields ? nfields : 1), sizeof *claims);
		}
	}
	if (near) {
		bool *named = spx_xcalloc((size_t)(nfields ? nfields : 1), 1);
		for (int j = 0; j < n; j++)
			if (at[j] >= 0)
				named[at[j]] = true;
		for (int j = 0; j < n; j++) {
			near[j] = at[j] < 0 ? near_field(fields, nfields, named, inits[j].name.s) : -1;
			/* the one field of a one-field shape, abbreviated (qa39: `Ok { val: x }`,
			 * `Some { v: 1 }`); an unrelated name (`Square { side: 3 }` where the
			 * case holds `radius`) keeps the plain help */
			if (at[j] < 0 && near[j] < 0 && n == 1 && nfields == 1 && abbreviates(inits[j].name.s, fields[0].name)) {
				near[j] = 0;
				guessed = true;
			}
			if (near[j] >= 0)
				claims[near[j]]++;
		}
		free(named);
	}
	for (int i = 0; i < n; i++) {
		int idx = at[i];
		if (idx < 0 || seen[idx]) {
			Diag *d;
			if (cname)
				d = sema_error(S, DIAG_T212, inits[i].span, "unknown or duplicate payload field `%s` in `%s::%s` construction", inits[i].name.s, s->name, cname);
			else
				d = sema_error(S, DIAG_T212, inits[i].span, "unknown or duplicate field `%s` in `%s` %s", inits[i].name.s, s->name, what);
			/* a misspelt field no other initializer names: did you mean it
			 * (no fix when another misspelling is nearest the same field:
			 * both would name it).  The fix renames the field; a shorthand
			 * `{ qtty }` names its value too, so its fix writes the field
			 * before it, `qty: qtty`, keeping the value: only when that
			 * value is a local the field's type accepts (else the name is
			 * T202's to fix, whose rename makes the shorthand right) */
			int k = idx < 0 ? near[i] : -1;
			if (k >= 0) {
				const Expr *v = inits[i].value;
				const char *fname = fields[k].name;
				TypeId want = field_want(S, owner, case_index, k);
				if (v->kind == EXPR_NAME && v->span.start == inits[i].name.span.start) {
					const Local *l = sema_local_find(C, v->u.name.s);
					if (l && sema_type_accepts(S, want, l->type)) {
						diag_set_help(d, "did you mean `%s`? `%s: %s` names the field and keeps the local `%s` as its value", fname, fname,
						    v->u.name.s, v->u.name.s);
						if (claims[k] == 1) {
							Buf t = {0};
							buf_printf(&t, "%s: %s", fname, v->u.name.s);
							diag_add_fix(d, inits[i].name.span.start, inits[i].name.span.end, t.data);
							buf_free(&t);
						}
					} else {
						diag_set_help(d, "did you mean `%s`?", fname);
					}
				} else if (guessed) {
					/* a guess by shape, not by spelling: named only when
					 * the value fits the field (rev39: `Cfg { verbose: true }`
					 * became `Cfg { path: true }`, a T215), its value
					 * checked first (d is found again: the list may grow) */
					ptrdiff_t di = d ? d - S->diags->items.items : -1;
					TypeId got = sema_check_expr(C, v);
					d = di >= 0 ? &S->diags->items.items[di] : NULL;
					if (got == T_ERR || sema_type_accepts(S, want, got)) {
						diag_set_help(d, "did you mean `%s`?", fname);
						diag_add_fix(d, inits[i].name.span.start, inits[i].name.span.end, fname);
					} else {
						diag_set_help(d, "the one %sfield of `%s%s%s` is `%s: %s`; this `%s` value does not fit it", cname ? "payload " : "", s->name,
						    cname ? "::" : "", cname ? cname : "", fname, sema_type_name(S, want), sema_type_name(S, got));
					}
					continue;
				} else {
					diag_set_help(d, "did you mean `%s`?", fname);
					if (claims[k] == 1)
						diag_add_fix(d, inits[i].name.span.start, inits[i].name.span.end, fname);
				}
			} else
				diag_set_help(d, "name each declared field exactly once");
			sema_check_expr(C, inits[i].value);
			continue;
		}
		seen[idx] = true;
		TypeId want = field_want(S, owner, case_index, idx);
		TypeId got = sema_check_expr(C, inits[i].value);
		if (!sema_type_accepts(S, want, got)) {
			Diag *d;
			if (cname)
				d = sema_error(S, DIAG_T215, inits[i].value->span, "payload `%s::%s.%s` expects %s, received %s", s->name, cname,
				    fields[idx].name, sema_type_name(S, want), sema_type_name(S, got));
			else
				d = sema_error(S, DIAG_T215, inits[i].value->span, "field `%s.%s` expects %s, received %s", s->name, fields[idx].name,
				    sema_type_name(S, want), sema_type_name(S, got));
			diag_set_help(d, "give the field a %s value", sema_type_name(S, want));
		}
	}
	for (int j = 0; all_required && j < nfields; j++) {
		if (seen[j])
			continue;
		Diag *d;
		if (cname)
			d = sema_error(S, DIAG_T213, e->span, "variant construction `%s::%s` is missing payload field `%s`", s->name, cname, fields[j].name);
		else if (s->kind == SK_CLASS && fields[j].declared_in >= 0 && fields[j].declared_in != decl)
			/* a parent's field: the class literal names it too (mend40) */
			d = sema_error(S, DIAG_T213, e->span, "record `%s` construction is missing field `%s`, inherited from `%s`", s->name, fields[j].name,
			    sema_sym(S, fields[j].declared_in)->name);
		else
			d = sema_error(S, DIAG_T213, e->span, "record `%s` construction is missing field `%s`", s->name, fields[j].name);
		diag_set_help(d, "add `%s: …` to the construction", fields[j].name);
	}
	free(seen);
	free(at);
	free(near);
	free(claims);
}

static TypeId
nominal_with_targs(FnCtx *C, SymId sym, Type *const *targs, int ntargs, Span span)
{
	Sema *S = C->S;
	Sym *s = sema_sym(S, sym);
	if (s->ntparams != ntargs) {
		Diag *d = sema_error(S, DIAG_T221, span, "type `%s` expects %d type arguments, received %d", s->name, s->ntparams, ntargs);
		if (ntargs == 0 && sym == S->sym_option)
			diag_set_help(d, "spell the type argument at every use: `Option<i64>` in a signature and `Option<i64>::Some { value: … }` when constructing; patterns stay `Option::Some { value: v }`");
		else if (ntargs == 0 && sym == S->sym_result)
			diag_set_help(d, "spell both type arguments at every use: `Result<i64, bool>` in a signature and `Result<i64, bool>::Ok { value: … }` when constructing; patterns stay `Result::Ok { value: v }`");
		else
			diag_set_help(d, "spell the type arguments at every use, including constructors: `%s<…>`", s->name);
		return T_ERR;
	}
	TypeId local[8];
	TypeId *args = sema_resolve_targs(C, targs, ntargs, local);
	TypeId t = sema_nominal(S, sym, args, ntargs);
	if (args != local)
		free(args);
	return t;
}

/* The first variant (in declaration order) with a case called name, or -1. */
static SymId
case_owner(Sema *S, const char *name)
{
	for (SymId id = 0; id < S->syms.len; id++)
		if (sema_sym(S, id)->kind == SK_VARIANT && sema_case_index(S, id, name) >= 0)
			return id;
	return -1;
}

TypeId
sema_check_record_lit(FnCtx *C, const Expr *e)
{
	Sema *S = C->S;
	const QName *q = &e->u.record.type;
	const char *name = q->parts[q->nparts - 1].s;
	SymId sym = q->nparts == 1 ? sema_strmap_get(&S->type_names, name) : -1;
	if (sym < 0 && q->nparts == 1 && sema_failed_import(S, name, true)) {
		check_init_values(C, e->u.record.inits, e->u.record.ninits);
		return T_ERR;
	}
	if (sym < 0 || (sema_sym(S, sym)->kind != SK_RECORD && sema_sym(S, sym)->kind != SK_CLASS)) {
		Diag *d = sema_error(S, DIAG_T215, e->span, "`%.*s` is not a declared record type", (int)(q->span.end - q->span.start), S->src + q->span.start);
		SymId v = sym < 0 && q->nparts == 1 ? case_owner(S, name) : -1;
		const char *near = NULL;
		bool declared;
		if (v >= 0) {
			/* `Circle { r: 2 }` for a case of a variant (qa36) */
			const Sym *vs = sema_sym(S, v);
			diag_set_help(d, "`%s` is a case of variant `%s`: construct it as `%s%s::%s { … }`", name, vs->name, vs->name, vs->ntparams ? "<…>" : "", name);
		} else if (sym < 0 && q->nparts == 1 && sema_near_types(S, name, SEMA_NEAR_RECORD, &near, 1, &declared) == 1) {
			/* `Pointt { x: 1 }` (mend40): the one record or class near it */
			Span ns = q->parts[0].span;
			diag_set_help(d, "did you mean `%s`?", near);
			if (ns.end - ns.start == strlen(name))
				diag_add_fix(d, ns.start, ns.end, near);
		} else {
			diag_set_help(d, "declare `record %s { … }`, or construct a variant case with `Type::Case { … }`", name);
		}
		check_init_values(C, e->u.record.inits, e->u.record.ninits);
		return T_ERR;
	}
	sema_expr_sym_set(S, e->id, sym);
	TypeId t = nominal_with_targs(C, sym, e->u.record.targs, e->u.record.ntargs, e->span);
	if (t == T_ERR) {
		check_init_values(C, e->u.record.inits, e->u.record.ninits);
		return T_ERR;
	}
	check_inits(C, e, e->u.record.inits, e->u.record.ninits, t, -1, "construction", true);
	return t;
}

int
sema_near_case(Sema *S, SymId variant, const char *name)
{
	const Sym *s = sema_sym(S, variant);
	SemaNear nr = sema_near_start(name);
	for (int i = 0; i < s->nom->ncases; i++)
		sema_near_try(&nr, i, s->nom->cases[i].name);
	return nr.tie ? -1 : nr.best;
}

TypeId
sema_check_variant_lit(FnCtx *C, const Expr *e)
{
	Sema *S = C->S;
	const char *tname = e->u.variant.type.s, *cname = e->u.variant.case_name.s;
	SymId sym = sema_strmap_get(&S->type_names, tname);
	int ci = sym >= 0 && sema_sym(S, sym)->kind == SK_VARIANT ? sema_case_index(S, sym, cname) : -1;
	if (sym < 0 && sema_failed_import(S, tname, true)) {
		check_init_values(C, e->u.variant.inits, e->u.variant.ninits);
		return T_ERR;
	}
	if (ci < 0) {
		Diag *d = sema_error(S, DIAG_T215, e->span, "`%s::%s` is not a declared variant constructor", tname, cname);
		int near = sym >= 0 && sema_sym(S, sym)->kind == SK_VARIANT ? sema_near_case(S, sym, cname) : -1;
		const char *ntype = NULL;
		bool declared;
		SymId nsym = sym < 0 && sema_near_types(S, tname, SEMA_NEAR_VARIANT, &ntype, 1, &declared) == 1 ? sema_strmap_get(&S->type_names, ntype) : -1;
		if (nsym >= 0 && sema_sym(S, nsym)->kind == SK_VARIANT && sema_case_index(S, nsym, cname) >= 0) {
			/* `Optoin<i64>::Some { … }` (mend40): the one variant near it,
			 * the type arguments kept; only one that has the case written
			 * (rev40: `Shpe::Square` was told `Shape::Square`, which Shape
			 * does not declare) */
			Span ts = e->u.variant.type.span;
			diag_set_help(d, "did you mean `%s::%s`?", ntype, cname);
			if (ts.end - ts.start == strlen(tname))
				diag_add_fix(d, ts.start, ts.end, ntype);
		} else if (near >= 0) {
			/* a misspelt case: the fix writes the declared one */
			const char *want = sema_sym(S, sym)->nom->cases[near].name;
			Span cs = e->u.variant.case_name.span;
			diag_set_help(d, "did you mean `%s::%s`?", tname, want);
			if (cs.end - cs.start == strlen(cname))
				diag_add_fix(d, cs.start, cs.end, want);
		} else {
			diag_set_help(d, "declare the case in `variant %s { … }`, or fix the spelling", tname);
		}
		check_init_values(C, e->u.variant.inits, e->u.variant.ninits);
		return T_ERR;
	}
	sema_expr_sym_set(S, e->id, sym);
	TypeId t = nominal_with_targs(C, sym, e->u.variant.targs, e->u.variant.ntargs, e->span);
	if (t == T_ERR) {
		check_init_values(C, e->u.variant.inits, e->u.variant.ninits);
		return T_ERR;
	}
	check_inits(C, e, e->u.variant.inits, e->u.variant.ninits, t, ci, "construction", true);
	return t;
}

TypeId
sema_check_with(FnCtx *C, const Expr *e)
{
	Sema *S = C->S;
	TypeId bt = sema_check_expr(C, e->u.with.base);
	if (bt == T_ERR) {
		check_init_values(C, e->u.with.inits, e->u.with.ninits);
		return T_ERR;
	}
	const TypeInfo *ti = sema_type_info(&S->types, bt);
	if (ti->kind != TY_NOMINAL || (sema_sym(S, (SymId)ti->decl)->kind != SK_RECORD && sema_sym(S, (SymId)ti->decl)->kind != SK_CLASS)) {
		Diag *d = sema_error(S, DIAG_T215, e->u.with.base->span, "record update requires a record base, received %s", sema_type_name(S, bt));
		diag_set_help(d, "`with` copies a record or class value with some fields replaced");
		check_init_values(C, e->u.with.inits, e->u.with.ninits);
		return T_ERR;
	}
	if (!sema_is_copy(S, bt) && e->u.with.base->kind == EXPR_CALL) {
		/* the reference's owned-record update: a call result is no update place (literals and names are) */
		Diag *d = sema_error(S, DIAG_O117, e->u.with.base->span, "update of owned record %s requires a named owner", sema_type_name(S, bt));
		diag_set_help(d, "bind the value first and update the binding: `let owner = …; owner with { … }`");
	}
	check_inits(C, e, e->u.with.inits, e->u.with.ninits, bt, -1, "update", false);
	return bt;
}


TypeId
sema_check_super(FnCtx *C, const Expr *e)
{
	Sema *S = C->S;
	Sym *f = C->sym;
	const char *name = e->u.super_.name.s;
	SymId target = -1;
	if (sema_closure_super(C, e))
		return T_ERR;
	if (f->kind == SK_METHOD && strcmp(f->name, name) == 0 && sema_sym(S, f->owner)->nom->parent >= 0)
		target = find_method(S, sema_sym(S, f->owner)->nom->parent, name);
	if (target < 0) {
		Diag *d = sema_error(S, DIAG_T231, e->u.super_.name.span, "`super` is only allowed inside a class-method override");
		diag_set_help(d, "call `super.%s(…)` from a method that overrides `%s` in a subclass", name, name);
		for (int i = 0; i < e->u.super_.nargs; i++)
			sema_check_expr(C, e->u.super_.args[i]);
		return T_ERR;
	}
	return call_method(C, e, target, sema_sym(S, sema_sym(S, target)->owner)->name, e->u.super_.args, e->u.super_.nargs, T_ERR);
}
