/*
 * match.c — `match` typing, patterns and exhaustiveness (LANGUAGE.md §4.5):
 * scalar scrutinees need a trailing guard-free catch-all (T257); variant
 * scrutinees are checked case by case with a missing-case witness (M101)
 * and unreachable arms (M102); records take one irrefutable pattern.
 */
#include "sema_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool
scalar_scrutinee(TypeId t)
{
	return t == T_I64 || t == T_I32 || t == T_U8 || t == T_USIZE || t == T_CHAR || t == T_BOOL;
}

static TypeId
lit_type(const Pattern *p)
{
	const Expr *e = p->u.lit.value;
	switch (e->kind) {
	case EXPR_INT:
		return e->lit_suffix == SUF_I32 ? T_I32 : e->lit_suffix == SUF_U8 ? T_U8
		    : e->lit_suffix == SUF_USIZE ? T_USIZE : T_I64;
	case EXPR_CHAR: return T_CHAR;
	case EXPR_BOOL: return T_BOOL;
	default: return T_ERR;
	}
}

static bool
catch_all(const Pattern *p)
{
	return p->kind == PAT_WILD || p->kind == PAT_BIND;
}

/* A pattern binding: a name bound twice in one arm is M104; shadowing an
 * outer binding is T209 (sema_local_declare's first line; the help says how
 * a pattern renames: `field: other`, shorthand when field is the name).
 * field: the record or case field n binds, or NULL (a whole value). */
static void
bind_field(FnCtx *C, const Name *n, TypeId t, bool shorthand, const char *field)
{
	int from = C->marks.len ? C->marks.items[C->marks.len - 1] : 0;
	const Local *l = sema_local_find(C, n->s);   /* the innermost binding of the name */
	if (l && l - C->locals.items >= from && strcmp(n->s, "_") != 0) {
		Diag *d = sema_error(C->S, DIAG_M104, n->span, "invalid or duplicate pattern binding `%s`", n->s);
		diag_set_help(d, "bind each name once per arm");
		return;
	}
	if (strcmp(n->s, "_") != 0 && !sema_source_identifier(n->s)) {
		/* a reserved word (`result`, `if`, …): the reference's M104 for a pattern binding (qa33) */
		Diag *d = sema_error(C->S, DIAG_M104, n->span, "invalid or duplicate pattern binding `%s`", n->s);
		if (strcmp(n->s, "true") == 0 || strcmp(n->s, "false") == 0)
			/* `Case { flag: true }` bound a name `true` and matched any flag */
			diag_set_help(d, "a field pattern takes no literal: bind the field and test it in a guard, `{ %s: f } if %sf => …,`",
			    field ? field : "field", n->s[0] == 't' ? "" : "!");
		else if (shorthand)
			diag_set_help(d, "`%s` has a meaning of its own; bind the field under another name: `{ %s: value }`", n->s, n->s);
		else
			diag_set_help(d, "`%s` has a meaning of its own; bind the value under another name, such as `value`", n->s);
		return;
	}
	if (l && strcmp(n->s, "_") != 0 && strcmp(n->s, "result") != 0) {
		Diag *d = sema_error(C->S, DIAG_T209, n->span, "local binding `%s` shadows an existing value", n->s);
		if (shorthand)
			diag_set_help(d, "there is no shadowing, and the field shorthand `{ %s }` binds the name `%s`: rename the binding in the pattern, `{ %s: %s2 }`, and use `%s2` in the arm",
			    n->s, n->s, n->s, n->s, n->s);
		else
			diag_set_help(d, "there is no shadowing: give the pattern binding a name not in scope here, such as `%s2`", n->s);
		return;
	}
	if (sema_local_declare(C, n->s, t, false, n->span) && C->bind_mode != MODE_NONE)
		sema_local_lend(C, n->s, C->bind_mode);
}

static void
bind(FnCtx *C, const Name *n, TypeId t)
{
	bind_field(C, n, t, false, NULL);
}

/* The names a pattern binds, at the error type: the arms of a match whose
 * scrutinee is already an error still know their bindings (no T202 for
 * `value` in `Result::Ok { value } => value` after the scrutinee's error). */
static void
bind_unknown(FnCtx *C, const Pattern *p)
{
	const FieldPat *fields = NULL;
	int n = 0;
	switch (p->kind) {
	case PAT_BIND:
		bind(C, &p->u.bind, T_ERR);
		return;
	case PAT_CASE:
		fields = p->u.case_.fields;
		n = p->u.case_.nfields;
		break;
	case PAT_RECORD:
		fields = p->u.record.fields;
		n = p->u.record.nfields;
		break;
	default:
		return;   /* `_`, literals; an or-pattern binds nothing */
	}
	for (int i = 0; i < n; i++) {
		if (!fields[i].sub)
			bind_field(C, &fields[i].name, T_ERR, true, fields[i].name.s);
		else
			bind_unknown(C, fields[i].sub);
	}
}

/* A literal or or-of-literals against a scalar scrutinee. */
static void
scalar_pattern(FnCtx *C, const Pattern *p, TypeId st)
{
	Sema *S = C->S;
	switch (p->kind) {
	case PAT_WILD:
		return;
	case PAT_BIND:
		bind(C, &p->u.bind, st);
		return;
	case PAT_LIT: {
		TypeId lt = lit_type(p);
		if (lt != st && st != T_ERR) {
			Diag *d = sema_error(S, DIAG_T255, p->span, "literal pattern type %s does not match scrutinee type %s", sema_type_name(S, lt), sema_type_name(S, st));
			if (sema_int_literal_fits(p->u.lit.value, p->u.lit.negative, st))
				diag_set_help(d, "suffix the literal to match the `%s` scrutinee", sema_type_name(S, st));
			else
				diag_set_help(d, "the literal is outside `%s`'s range (%s), so no arm can match it: remove the arm", sema_type_name(S, st),
				    sema_int_range_text(st));
		}
		return;
	}
	case PAT_OR:
		for (int i = 0; i < p->u.or.nalts; i++) {
			const Pattern *a = p->u.or.alts[i];
			if (a->kind != PAT_LIT) {
				Diag *d = sema_error(S, DIAG_M105, a->span, "or-patterns admit only literal alternatives in v1");
				diag_set_help(d, "split the alternative into its own arm");
				continue;
			}
			const Pattern *a0 = p->u.or.alts[0];
			if (i > 0 && a0->kind == PAT_LIT && lit_type(a) != lit_type(a0)) {
				/* the reference: `1 | true` mixes literal types (M105, not T255) */
				Diag *d = sema_error(S, DIAG_M105, a->span, "or-pattern alternatives must all have one literal type; `%s` is not %s",
				    sema_type_name(S, lit_type(a)), sema_type_name(S, lit_type(a0)));
				diag_set_help(d, "write every alternative as a `%s` literal, or split it into its own arm", sema_type_name(S, lit_type(a0)));
				continue;
			}
			scalar_pattern(C, a, st);
		}
		return;
	default: {
		Diag *d = sema_error(S, DIAG_M103, p->span, "aggregate pattern is incompatible with a Copy-scalar scrutinee");
		diag_set_help(d, "match scalars with literals, `_` or a binding");
		return;
	}
	}
}

/* A case pattern's `Type::Case` for a diagnostic (built only then: most
 * patterns are fine). */
static const char *
case_label(Sema *S, const Pattern *p)
{
	/* whole, in the checker's arena: a type or case name has no length bound (qa31) */
	return arena_printf(&S->arena, "%s::%s", p->u.case_.type.s, p->u.case_.case_name.s);
}

/* The fix for a pattern missing field `name`: `name: _` inserted before its
 * closing `}` (after a `,` written last, else after `, `; right after an
 * empty `{`, with its own `,`, so the fixes of several missing fields apply
 * together).  None when the pattern holds a comment or has no braces. */
static void
missing_field_fix(Sema *S, Diag *d, const Pattern *p, const char *name)
{
	const char *src = S->diags->src;
	uint32_t end = p->span.end;
	if (!d || !src || end < 2 || end > S->diags->src_len || src[end - 1] != '}')
		return;
	for (uint32_t i = p->span.start; i + 1 < end; i++)
		if (src[i] == '/' && src[i + 1] == '/')
			return;
	uint32_t q = end - 1;
	while (q > p->span.start && (src[q - 1] == ' ' || src[q - 1] == '\t' || src[q - 1] == '\n' || src[q - 1] == '\r'))
		q--;
	if (q == p->span.start)
		return;
	/* the name whole: a cut one was a wrong fix that `fix` applied (qa31) */
	Buf text = {0};
	char last = src[q - 1];
	if (last == '{' || last == ',')
		buf_printf(&text, " %s: _,", name);
	else
		buf_printf(&text, ", %s: _", name);
	diag_add_fix(d, q, q, text.data);
	buf_free(&text);
}

/* Field patterns of a case (p, ci >= 0) or record (label: its type name):
 * names each payload field once. */
static void
field_patterns(FnCtx *C, const Pattern *p, const FieldPat *fps, int n, TypeId owner, int ci, const char *label)
{
	Sema *S = C->S;
	FieldSym *fields;
	int nfields;
	SymId decl = sema_owner_fields(S, owner, ci, &fields, &nfields);
	bool *seen = spx_xcalloc((size_t)(nfields ? nfields : 1), 1);
	for (int i = 0; i < n; i++) {
		int idx = sema_field_find(S, decl, ci, fps[i].name.s, true);
		if (idx < 0 || seen[idx]) {
			Diag *d = ci >= 0 ? sema_error(S, DIAG_M104, fps[i].span, "unknown or duplicate pattern field `%s` in `%s`", fps[i].name.s, case_label(S, p))
			    : sema_error(S, DIAG_M104, fps[i].span, "unknown or duplicate record pattern field `%s.%s`", label, fps[i].name.s);
			diag_set_help(d, "name each declared field once");
			continue;
		}
		seen[idx] = true;
		TypeId ft = ci >= 0 ? sema_case_field_type(S, owner, ci, idx) : sema_field_type(S, owner, idx);
		const Pattern *sub = fps[i].sub;
		if (!sub) {
			bind_field(C, &fps[i].name, ft, true, fps[i].name.s);
		} else if (sub->kind == PAT_BIND) {
			bind_field(C, &sub->u.bind, ft, false, fps[i].name.s);
		} else if (sub->kind == PAT_RECORD) {
			const TypeInfo *fi = sema_type_info(&S->types, ft);
			SymId rs = sema_strmap_get(&S->type_names, sub->u.record.type.s);
			if (fi->kind != TY_NOMINAL || rs < 0 || (SymId)fi->decl != rs) {
				Diag *d = sema_error(S, DIAG_M103, sub->span, "record pattern `%s` is incompatible with field type %s", sub->u.record.type.s, sema_type_name(S, ft));
				diag_set_help(d, "match the field's own record type");
			} else {
				field_patterns(C, sub, sub->u.record.fields, sub->u.record.nfields, ft, -1, sub->u.record.type.s);
			}
		}
	}
	for (int j = 0; j < nfields; j++) {
		if (seen[j])
			continue;
		Diag *d = ci >= 0 ? sema_error(S, DIAG_M104, p->span, "pattern `%s` is missing payload field `%s`", case_label(S, p), fields[j].name)
		    : sema_error(S, DIAG_M104, p->span, "record pattern `%s` is missing field `%s`", label, fields[j].name);
		diag_set_help(d, "name the field, or ignore it with `%s: _`", fields[j].name);
		missing_field_fix(S, d, p, fields[j].name);
	}
	free(seen);
}

/*
 * M103's help: the scrutinee's cases as patterns (`IterStep::Done {}`,
 * `IterStep::Yield { item, rest }`), at most 8 of them, so a pattern naming
 * a case the type lacks (or another type's case) shows what to write.
 */
static void
case_list_help(Diag *d, const Sym *v)
{
	Buf b = {0};
	int n = v->nom->ncases;
	for (int i = 0; i < n && i < 8; i++) {
		const CaseSym *c = &v->nom->cases[i];
		buf_printf(&b, "%s`%s::%s {", i == 0 ? "" : i + 1 == n ? " or " : ", ", v->name, c->name);
		for (int f = 0; f < c->nfields; f++)
			buf_printf(&b, "%s %s", f ? "," : "", c->fields[f].name);
		buf_puts(&b, c->nfields ? " }`" : "}`");
	}
	if (n > 8)
		buf_printf(&b, " and %d more", n - 8);
	if (n)
		diag_set_help(d, "the scrutinee is of type `%s`; match its cases: %s", v->name, b.data);
	else
		diag_set_help(d, "match cases of `%s`", v->name);
	buf_free(&b);
}

/*
 * O117's help for `match own o` / `match borrow o` on a Copy value: the plain
 * match with the scrutinee written, and the fix deleting the mode word.
 */
static void
copy_mode_help(Sema *S, Diag *d, const Expr *scr, TypeId st)
{
	const char *src = S->src;
	uint32_t at = scr->span.start, q = at;
	int n = (int)(scr->span.end - at);
	bool shown = n > 0 && n <= 40 && !memchr(src + at, '\n', (size_t)n);
	diag_set_help(d, "`%s` is Copy: match it plainly, `match %.*s { … }`", sema_type_name(S, st), shown ? n : 5, shown ? src + at : "value");
	while (q > 0 && (src[q - 1] == ' ' || src[q - 1] == '\t'))
		q--;
	uint32_t w = q;
	while (w > 0 && src[w - 1] >= 'a' && src[w - 1] <= 'z')
		w--;
	bool word = (q - w == 3 && memcmp(src + w, "own", 3) == 0) || (q - w == 6 && memcmp(src + w, "borrow", 6) == 0);
	if (word && q < at && w > 0 && (src[w - 1] == ' ' || src[w - 1] == '\t'))
		diag_add_fix(d, w, at, "");
}

/* A case pattern against variant type vt; returns the case index or -1. */
static int
case_pattern(FnCtx *C, const Pattern *p, TypeId vt, bool bind_fields)
{
	Sema *S = C->S;
	SymId vs = (SymId)sema_type_info(&S->types, vt)->decl;
	Sym *v = sema_sym(S, vs);
	const char *tname = p->u.case_.type.s, *cname = p->u.case_.case_name.s;
	int ci = strcmp(tname, v->name) == 0 ? sema_case_index(S, vs, cname) : -1;
	if (ci < 0) {
		Diag *d = sema_error(S, DIAG_M103, p->span, "pattern `%s::%s` is incompatible with the match scrutinee", tname, cname);
		int near = strcmp(tname, v->name) == 0 ? sema_near_case(S, vs, cname) : -1;
		if (near >= 0) {
			/* a misspelt case of the scrutinee's variant: the fix writes it */
			Span cs = p->u.case_.case_name.span;
			diag_set_help(d, "did you mean `%s::%s`?", v->name, v->nom->cases[near].name);
			if (cs.end - cs.start == strlen(cname))
				diag_add_fix(d, cs.start, cs.end, v->nom->cases[near].name);
		} else {
			case_list_help(d, v);
		}
		return -1;
	}
	if (bind_fields) {
		field_patterns(C, p, p->u.case_.fields, p->u.case_.nfields, vt, ci, NULL);
	}
	return ci;
}

/* What the arms of one match produce so far: the first arm's type and ownership mode. */
typedef struct ArmResult {
	TypeId type;       /* T_ERR until an arm checks */
	ParamMode mode;    /* MODE_BORROW/MODE_SHARED: the first arm lends its value; MODE_NONE: owns it */
} ArmResult;

/*
 * Every arm yields the first arm's type in the first arm's ownership mode:
 * a non-Copy value lent by one arm (a borrowed binding) and owned by another
 * is T216 (T259 for a scalar match), with the reference's text even when the
 * types agree.
 */
static void
arm_value(FnCtx *C, const MatchArm *arm, ArmResult *first, bool scalar)
{
	Sema *S = C->S;
	TypeId t = sema_check_expr(C, arm->value);
	if (t == T_ERR)
		return;
	ParamMode m = sema_expr_mode(S, arm->value->id);
	if (sema_is_copy(S, t))
		m = MODE_NONE;
	if (first->type == T_ERR) {
		first->type = t;
		first->mode = m;
		return;
	}
	if (t != first->type || m != first->mode) {
		Diag *d = sema_error(S, scalar ? DIAG_T259 : DIAG_T216, arm->value->span, "match arms return incompatible values: %s and %s",
		    sema_type_name(S, first->type), sema_type_name(S, t));
		if (t != first->type)
			diag_set_help(d, "make every arm produce %s", sema_type_name(S, first->type));
		else
			diag_set_help(d, "make every arm lend its value, or every arm own it");
	}
}

static void
check_guard(FnCtx *C, const MatchArm *arm)
{
	if (!arm->guard)
		return;
	TypeId g = sema_check_expr(C, arm->guard);
	if (g != T_BOOL && g != T_ERR) {
		Diag *d = sema_error(C->S, DIAG_T256, arm->guard->span, "match guard must be bool; received %s", sema_type_name(C->S, g));
		diag_set_help(d, "compare explicitly in the guard, e.g. `n if n > 0 =>`");
	}
}

static TypeId
match_scalar(FnCtx *C, const Expr *e, TypeId st)
{
	int n = e->u.match.narms;
	const MatchArm *last = &e->u.match.arms[n - 1];
	for (int i = 0; i < n; i++) {
		const Pattern *p = e->u.match.arms[i].pat;
		if (p->kind == PAT_LIT) {
			TypeId lt = lit_type(p);
			if (lt != st)
				scalar_pattern(C, p, st);
		}
	}
	if (!catch_all(last->pat) || last->guard) {
		Diag *d = sema_error(C->S, DIAG_T257, last->span, "refutable match requires a trailing irrefutable catch-all arm (`_` or a binding) without a guard");
		diag_set_help(d, "add `_ => …,` as the last arm");
	}
	ArmResult first = { T_ERR, MODE_NONE };
	for (int i = 0; i < n; i++) {
		const MatchArm *arm = &e->u.match.arms[i];
		sema_scope_push(C);
		if (arm->pat->kind != PAT_LIT)
			scalar_pattern(C, arm->pat, st);
		check_guard(C, arm);
		arm_value(C, arm, &first, true);
		sema_scope_pop(C);
	}
	return first.type;
}

/* The reference's Copy-variant guard shape: literals, scalar bindings,
 * unary and binary operators (no calls, fields, blocks). */
static bool
guard_shape(FnCtx *C, const Expr *g)
{
	switch (g->kind) {
	case EXPR_INT: case EXPR_FLOAT: case EXPR_CHAR: case EXPR_BOOL:
		return true;
	case EXPR_NAME: {
		const Local *l = sema_local_find(C, g->u.name.s);
		return l && sema_type_is_scalar(&C->S->types, l->type);
	}
	case EXPR_UNARY:
		return guard_shape(C, g->u.unary.operand);
	case EXPR_BINARY:
		return guard_shape(C, g->u.binary.lhs) && guard_shape(C, g->u.binary.rhs);
	default:
		return false;
	}
}

/* Inside a `while`/`for` body the reference admits ordinary checked guards
 * over a Copy variant (calls, blocks, nested matches, temporaries) except
 * closures, closure invocation and `?`; this finds the first such node. */
typedef struct GuardScan {
	FnCtx *C;
	const Expr *bad;
} GuardScan;

static void
guard_scan(void *ctx, const Expr *e)
{
	GuardScan *g = ctx;
	if (g->bad)
		return;
	if (e->kind == EXPR_CLOSURE || e->kind == EXPR_TRY ||
	    (e->kind == EXPR_CALL && sema_local_find(g->C, e->u.call.callee.s)))
		g->bad = e;
}

/* A missing case's pattern, its fields bound by their names: `V::C { a, b }`,
 * `V::D {}`; a name already in scope (T209) under a fresh one, `{ a: a2 }`. */
static void
missing_arm(FnCtx *C, Buf *b, const Sym *v, int c)
{
	const CaseSym *k = &v->nom->cases[c];
	buf_printf(b, "%s::%s {", v->name, k->name);
	for (int f = 0; f < k->nfields; f++) {
		char fresh[64];
		buf_printf(b, "%s %s", f ? "," : "", k->fields[f].name);
		if (sema_local_find(C, k->fields[f].name)) {
			sema_fresh_name(C, k->fields[f].name, fresh);
			buf_printf(b, ": %s", fresh);
		}
	}
	buf_puts(b, k->nfields ? " }" : "}");
}

/* The first field read of a record binding in a guard (`value.qty`), for
 * T254's help: the record is destructured in the pattern instead. */
typedef struct GuardField {
	FnCtx *C;
	const Expr *field;
	SymId record;
	bool outer;   /* the record is a binding from outside the arm (a parameter, a `let`) */
} GuardField;

static void
guard_field_scan(void *ctx, const Expr *e)
{
	GuardField *g = ctx;
	if (g->field || e->kind != EXPR_FIELD || e->u.field.base->kind != EXPR_NAME)
		return;
	const Local *l = sema_local_find(g->C, e->u.field.base->u.name.s);
	const TypeInfo *ti = l ? sema_type_info(&g->C->S->types, l->type) : NULL;
	if (ti && ti->kind == TY_NOMINAL && sema_sym(g->C->S, (SymId)ti->decl)->kind == SK_RECORD) {
		g->field = e;
		g->record = (SymId)ti->decl;
		g->outer = l - g->C->locals.items < (g->C->marks.len ? g->C->marks.items[g->C->marks.len - 1] : 0);
	}
}

/* T254's help for a guard outside a loop that is not operator-only. */
static void
guard_shape_help(FnCtx *C, Diag *d, const Expr *guard)
{
	GuardField g = { C, NULL, -1, false };
	sema_walk_expr(guard, guard_field_scan, &g);
	if (!g.field) {
		diag_set_help(d, "outside a `while`/`for` body a guard over a variant reads literals and scalar bindings with operators only; bind a call's result before the `match`");
		return;
	}
	if (g.outer) {
		/* not the arm's binding: no pattern binds it, so read the field first */
		const char *f = g.field->u.field.name.s, *b = g.field->u.field.base->u.name.s;
		diag_set_help(d, "outside a `while`/`for` body a guard over a variant reads literals and scalar bindings with operators only, not a field such as `%s.%s`: read it before the `match`, `let %s_%s = %s.%s;`, and test `%s_%s` in the guard",
		    b, f, b, f, b, f, b, f);
		return;
	}
	/* `Item { qty, price: _ }`: the field read, the others ignored */
	const Sym *r = sema_sym(C->S, g.record);
	const char *want = g.field->u.field.name.s, *base = g.field->u.field.base->u.name.s;
	Buf b = {0};
	buf_printf(&b, "%s {", r->name);
	for (int i = 0; i < r->nom->nfields; i++)
		buf_printf(&b, "%s %s%s", i ? "," : "", r->nom->fields[i].name, strcmp(r->nom->fields[i].name, want) == 0 ? "" : ": _");
	buf_puts(&b, " }");
	diag_set_help(d, "outside a `while`/`for` body a guard over a variant reads literals and scalar bindings with operators only, not a field such as `%s.%s`: destructure the record in the pattern, `%s` in place of the binding `%s`, and test `%s` in the guard (or compute the value before the `match`)",
	    base, want, b.data, base, want);
	buf_free(&b);
}

static TypeId
match_variant(FnCtx *C, const Expr *e, TypeId vt)
{
	Sema *S = C->S;
	Sym *v = sema_sym(S, (SymId)sema_type_info(&S->types, vt)->decl);
	bool *covered = spx_xcalloc((size_t)(v->nom->ncases ? v->nom->ncases : 1), 1);
	int ncovered = 0;   /* cases with covered[c] set */
	bool wildcard = false;
	int or_refused = -1;   /* a case named in an or-pattern refused with M105 (its M101 says so) */
	ArmResult first = { T_ERR, MODE_NONE };
	for (int i = 0; i < e->u.match.narms; i++) {
		const MatchArm *arm = &e->u.match.arms[i];
		const Pattern *p = arm->pat;
		sema_scope_push(C);
		if (p->kind == PAT_BIND) {
			/* at the arm's pattern: one per offending arm (mend40) */
			Diag *d = sema_error(S, DIAG_T254, p->span, "guards and literal/or/binding patterns require a Copy-scalar scrutinee (i64/i32/u8/char/bool)");
			if (v->nom->case_map && sema_strmap_get(v->nom->case_map, p->u.bind.s) >= 0)
				/* `Red =>`: a case written without its type is a binding (qa33) */
				diag_set_help(d, "`%s` alone is a binding, not the case: write `%s::%s {}` (with its payload fields, if any), or `_` for the rest",
				    p->u.bind.s, v->name, p->u.bind.s);
			else
				diag_set_help(d, "match the cases of `%s`, or `_` for the rest", v->name);
		}
		if (catch_all(p)) {
			if (wildcard || ncovered == v->nom->ncases) {
				Diag *d = sema_error(S, DIAG_M102, p->span, "unreachable wildcard match arm");
				diag_set_help(d, "every case is already covered; remove this arm");
			}
			if (p->kind == PAT_BIND)
				bind(C, &p->u.bind, vt);
			if (!arm->guard)
				wildcard = true;
		} else if (p->kind == PAT_CASE) {
			int ci = case_pattern(C, p, vt, true);
			if (ci >= 0) {
				if (wildcard || covered[ci]) {
					Diag *d = sema_error(S, DIAG_M102, p->span, "unreachable duplicate case `%s::%s`", p->u.case_.type.s, p->u.case_.case_name.s);
					diag_set_help(d, "an earlier arm already matches this case; remove this arm");
				}
				if (!arm->guard && !covered[ci]) {
					covered[ci] = true;
					ncovered++;
				}
			}
		} else if (p->kind == PAT_OR) {
			/* a guarded or-arm is admitted in a loop body (the reference's
			 * general loop match; T254 elsewhere, below); like a guarded case
			 * arm it covers none of its cases */
			bool all_cases = true;
			for (int a = 0; a < p->u.or.nalts; a++)
				all_cases &= p->u.or.alts[a]->kind == PAT_CASE;
			if (!all_cases) {
				/* the reference's variant_or check: T254 for the whole arm */
				Diag *d = sema_error(S, DIAG_T254, p->span, "or-pattern alternatives over a variant scrutinee must all be payload-free cases of its type");
				diag_set_help(d, "over a record or variant scrutinee, arms admit case patterns, `_`, and `|` between payload-free cases of the scrutinee's variant (`Status::Todo {} | Status::Doing {} => ...`); literal patterns, bindings, and guards need an i64/i32/u8/char/bool scrutinee");
			}
			for (int a = 0; a < p->u.or.nalts && all_cases; a++) {
				const Pattern *alt = p->u.or.alts[a];
				int ci = case_pattern(C, alt, vt, false);
				if (ci < 0)
					continue;
				if (v->nom->cases[ci].nfields || alt->u.case_.nfields) {
					Diag *d = sema_error(S, DIAG_M105, alt->span, "or-pattern alternative `%s::%s` must be a payload-free case without bindings",
					    alt->u.case_.type.s, alt->u.case_.case_name.s);
					diag_set_help(d, "give `%s::%s { … }` an arm of its own: `|` joins only cases without a payload (`A {} | B {} => …`)",
					    alt->u.case_.type.s, alt->u.case_.case_name.s);
					if (or_refused < 0)
						or_refused = ci;
					continue;
				}
				bool again = false;   /* `A {} | A {}` in a guarded arm */
				for (int b = 0; b < a && arm->guard; b++)
					again |= p->u.or.alts[b]->kind == PAT_CASE &&
						 strcmp(p->u.or.alts[b]->u.case_.case_name.s, alt->u.case_.case_name.s) == 0;
				if (wildcard || covered[ci] || again) {
					Diag *d = sema_error(S, DIAG_M102, alt->span, "unreachable duplicate case `%s::%s`", alt->u.case_.type.s, alt->u.case_.case_name.s);
					diag_set_help(d, "an earlier arm already matches this case; remove it");
				}
				if (!arm->guard) {
					ncovered += !covered[ci];
					covered[ci] = true;
				}
			}
		} else if (p->kind == PAT_RECORD) {
			Diag *d = sema_error(S, DIAG_M103, p->span, "record pattern is incompatible with a variant scrutinee");
			SymId vs = (SymId)sema_type_info(&S->types, vt)->decl;
			if (sema_case_index(S, vs, p->u.record.type.s) >= 0) {
				/* `Circle { r }` for a case of the scrutinee's variant (qa36) */
				diag_set_help(d, "`%s` is a case of `%s`: qualify it, `%s::%s { … }`", p->u.record.type.s, v->name, v->name, p->u.record.type.s);
				size_t n = strlen(v->name);
				char *q = spx_xmalloc(n + 3);
				memcpy(q, v->name, n);
				memcpy(q + n, "::", 3);
				diag_add_fix(d, p->span.start, p->span.start, q);
				free(q);
			} else {
				diag_set_help(d, "match cases of `%s` as `%s::Case { … }`", v->name, v->name);
			}
		} else {
			Diag *d = sema_error(S, DIAG_T254, p->span, "guards and literal/or/binding patterns require a Copy-scalar scrutinee (i64/i32/u8/char/bool)");
			diag_set_help(d, "match cases of `%s` as `%s::Case { … }`", v->name, v->name);
		}
		if (arm->guard && e->u.match.mode == MATCH_PLAIN && C->loop_depth == 0 && p->kind == PAT_OR) {
			/* LANGUAGE.md §4.5 and the reference's payload_free_variants:
			 * outside a loop body an or-arm takes no guard */
			Diag *d = sema_error(S, DIAG_T254, arm->guard->span, "guards and literal/or/binding patterns require a Copy-scalar scrutinee (i64/i32/u8/char/bool)");
			diag_set_help(d, "outside a `while`/`for` body an or-pattern arm over a variant takes no guard; split it into one guarded arm per case");
		} else if (arm->guard && e->u.match.mode == MATCH_PLAIN && C->loop_depth == 0 && !guard_shape(C, arm->guard)) {
			/* the reference's guarded_copy_variants (`unsupported`): outside a
			 * loop body a variant guard keeps the operator-only shape */
			Diag *d = sema_error(S, DIAG_T254, arm->guard->span, "guards and literal/or/binding patterns require a Copy-scalar scrutinee (i64/i32/u8/char/bool)");
			guard_shape_help(C, d, arm->guard);
		}
		if (arm->guard && e->u.match.mode == MATCH_PLAIN && C->loop_depth > 0 &&
		    e->u.match.scrutinee->kind == EXPR_VARIANT && !guard_shape(C, arm->guard)) {
			/* the reference's guarded_copy_variants (loop construction): a
			 * match over a variant constructed in place keeps the
			 * operator-only guard shape even inside a loop body */
			Diag *d = sema_error(S, DIAG_T254, arm->guard->span, "guards and literal/or/binding patterns require a Copy-scalar scrutinee (i64/i32/u8/char/bool)");
			diag_set_help(d, "a guard over a variant constructed in the `match` reads literals and scalar bindings with operators only; bind the variant to a name before the `match`");
		} else if (arm->guard && e->u.match.mode == MATCH_PLAIN && C->loop_depth > 0) {
			/* the reference's general loop match: ordinary guards, but no
			 * closures, closure invocation or `?` */
			GuardScan g = { C, NULL };
			sema_walk_expr(arm->guard, guard_scan, &g);
			if (g.bad) {
				Diag *d = sema_error(S, DIAG_T254, g.bad->span, "a match guard over a variant admits no closure, closure invocation or `?`");
				diag_set_help(d, "compute the value before the `match` and test it in the guard");
			}
		}
		if (arm->guard && e->u.match.mode != MATCH_PLAIN) {
			/* the reference's guarded_copy_variants: guards only in a plain value match */
			Diag *d = sema_error(S, DIAG_T254, arm->guard->span, "guards and literal/or/binding patterns require a Copy-scalar scrutinee (i64/i32/u8/char/bool)");
			diag_set_help(d, "a guard needs a plain value `match` over a Copy variant; under `match %s`, test the payload inside the arm",
			    e->u.match.mode == MATCH_OWN ? "own" : "borrow");
		}
		check_guard(C, arm);
		arm_value(C, arm, &first, false);
		sema_scope_pop(C);
	}
	if (!wildcard) {
		for (int c = 0; c < v->nom->ncases; c++) {
			if (covered[c])
				continue;
			Diag *d = sema_error(S, DIAG_M101, e->span, "non-exhaustive match; missing case `%s::%s %s`", v->name, v->nom->cases[c].name,
			    v->nom->cases[c].nfields ? "{ .. }" : "{}");
			if (c == or_refused) {   /* named only in the refused or-pattern (the M105 above) */
				diag_set_help(d, "`%s::%s` counts only in an arm of its own (the or-pattern naming it is refused above): add `%s::%s { … } => …,` or a final `_ => …,`",
				    v->name, v->nom->cases[c].name, v->name, v->nom->cases[c].name);
				break;
			}
			/* every missing case's arm, its fields bound by name (an agent adds them all at once) */
			Buf arms = {0};
			int n = 0;
			for (int k = c; k < v->nom->ncases; k++) {
				if (covered[k])
					continue;
				if (n++ == 8) {
					buf_puts(&arms, ", …");
					break;
				}
				buf_printf(&arms, "%s`", n > 1 ? ", " : "");
				missing_arm(C, &arms, v, k);
				buf_puts(&arms, " => …,`");
			}
			diag_set_help(d, "add %s %s, or a final `_ => …,`", n == 1 ? "the arm" : "the arms", arms.data);
			buf_free(&arms);
			break;
		}
	}
	free(covered);
	return first.type;
}

/*
 * A record match: exactly one irrefutable arm.  In the reference's order:
 * every further arm is M102 first, then the first arm's pattern, guard and
 * value; a plain match over a non-Copy record (already O111) also finds its
 * record pattern incompatible (M103), and `match own`/`match borrow` want
 * the record pattern itself, not `_` (O117).
 */
static TypeId
match_record(FnCtx *C, const Expr *e, TypeId rt)
{
	Sema *S = C->S;
	ArmResult first = { T_ERR, MODE_NONE };
	for (int i = 1; i < e->u.match.narms; i++) {
		Diag *d = sema_error(S, DIAG_M102, e->u.match.arms[i].pat->span, "unreachable arm after an irrefutable record pattern");
		diag_set_help(d, "a record match has exactly one irrefutable arm");
	}
	bool plain_owned = e->u.match.mode == MATCH_PLAIN && !sema_is_copy(S, rt);
	for (int i = 0; i < e->u.match.narms; i++) {
		const MatchArm *arm = &e->u.match.arms[i];
		const Pattern *p = arm->pat;
		sema_scope_push(C);
		if (i > 0) {
			/* M102 above; the arm's names still bind (silently), so its value
			 * reports no unknown names */
			int mark = S->diags->items.len;
			if (p->kind == PAT_RECORD && sema_strmap_get(&S->type_names, p->u.record.type.s) == (SymId)sema_type_info(&S->types, rt)->decl)
				field_patterns(C, p, p->u.record.fields, p->u.record.nfields, rt, -1, p->u.record.type.s);
			else if (p->kind == PAT_BIND)
				bind(C, &p->u.bind, rt);
			while (S->diags->items.len > mark)
				diag_remove(S->diags, S->diags->items.len - 1);
		} else if (p->kind == PAT_RECORD) {
			SymId rs = sema_strmap_get(&S->type_names, p->u.record.type.s);
			if (rs != (SymId)sema_type_info(&S->types, rt)->decl || plain_owned) {
				Diag *d = sema_error(S, DIAG_M103, p->span, "record pattern `%s` is incompatible with `%s`", p->u.record.type.s, sema_type_name(S, rt));
				diag_set_help(d, plain_owned ? "write `match own …` to consume the record or `match borrow …` to inspect it"
				    : "match the scrutinee's own record type");
			} else {
				field_patterns(C, p, p->u.record.fields, p->u.record.nfields, rt, -1, p->u.record.type.s);
			}
		} else if (p->kind == PAT_BIND) {
			/* the reference: a binding is a refutable-pattern form, refused over a record */
			Diag *d = sema_error(S, DIAG_T254, p->span, "refutable patterns are incompatible with an aggregate record scrutinee");
			diag_set_help(d, "match a record with one record pattern or `_`, or bind it with `let`");
			bind(C, &p->u.bind, rt);
		} else if (p->kind == PAT_CASE) {
			Diag *d = sema_error(S, DIAG_M103, p->span, "variant pattern is incompatible with a record scrutinee");
			diag_set_help(d, "match a record with one record pattern");
		} else if (p->kind == PAT_WILD && e->u.match.mode != MATCH_PLAIN) {
			Diag *d = sema_error(S, DIAG_O117, p->span, "explicit ownership match requires an exact record pattern");
			diag_set_help(d, "name every field: `%s { … } => …`", sema_type_name(S, rt));
		} else if (p->kind != PAT_WILD) {
			Diag *d = sema_error(S, DIAG_T254, p->span, "refutable patterns are incompatible with an aggregate record scrutinee");
			diag_set_help(d, "match a record with one record pattern or `_`");
		}
		if (arm->guard) {
			/* the one record arm must match: a guard would make it refutable */
			Diag *d = sema_error(S, DIAG_T254, arm->guard->span, "guards and literal/or/binding patterns require a Copy-scalar scrutinee (i64/i32/u8/char/bool)");
			diag_set_help(d, "test the fields inside the arm, e.g. `P { x } => if x > 0 { … } else { … }`");
		}
		check_guard(C, arm);
		arm_value(C, arm, &first, false);
		sema_scope_pop(C);
	}
	return first.type;
}

static TypeId check_match_arms(FnCtx *C, const Expr *e);

/* Bindings of a `match borrow` lend from the scrutinee (O106, O103). */
/*
 * M103's help for a scrutinee that is neither a scalar, a variant nor a
 * record (the reference gives none): what to do with that type instead.
 */
static void
unmatchable_help(Sema *S, Diag *d, TypeId st, const Expr *e)
{
	const TypeInfo *ti = sema_type_info(&S->types, st);
	/* text matched against `Option::Some { … }` (qa39: `match arg_utf8(i) { … }`):
	 * the call gives the text itself, there is no `Option` to open */
	const Expr *sc = e->u.match.scrutinee;
	if ((st == T_STR || st == T_STRING) && sc->kind == EXPR_CALL && e->u.match.narms > 0 && e->u.match.arms[0].pat->kind == PAT_CASE) {
		const Pattern *p = e->u.match.arms[0].pat;
		diag_set_help(d, "`%s` gives the `%s` itself: there is no `%s` to open; bind it (`let text = %s(…);`) and use it directly, comparing text with `==` in an `if`",
		    sc->u.call.callee.s, sema_type_name(S, st), p->u.case_.type.s, sc->u.call.callee.s);
		return;
	}
	const char *elem = ti->nargs ? sema_type_name(S, ti->args[0]) : "T";
	switch (ti->kind) {
	case TY_BOX:
		if (ti->nargs && sema_is_copy(S, ti->args[0]))
			diag_set_help(d, "a `Box` is not matched: copy its value out with `box_get<%s>(b)` and match that", elem);
		else
			diag_set_help(d, "a `Box` is not matched: move its value out with `box_into_inner<%s>(b)`, which consumes the box (take it `own`), and match that with `match own`", elem);
		break;
	case TY_VEC:
		diag_set_help(d, "a `Vec` is not matched: test `vec_len<%s>(values)`, read an element with `vec_get<%s>(values, i)` (Copy) or `vec_clone_at<%s>(values, i)`, or walk it with `for item in values { … }`", elem, elem, elem);
		break;
	case TY_MAP:
		diag_set_help(d, "a `Map` is not matched: test a key with `map_has<K, V>(m, key)`, read a value with `map_get_or<K, V>(m, key, fallback)`, or walk it by index with `map_len`, `map_key_at` and `map_value_at`");
		break;
	case TY_SET:
		diag_set_help(d, "a `Set` is not matched: test a key with `set_has<%s>(s, key)`, or walk it by index with `set_len<%s>(s)` and `set_key_at<%s>(s, i)`", elem, elem, elem);
		break;
	case TY_BYTES:
	case TY_SLICE:
	case TY_ARRAY:
		diag_set_help(d, "bytes are not matched: read one with `byte_get(view, i)`, an `Option<u8>`, and match that");
		break;
	case TY_FN:
		diag_set_help(d, "a function value is not matched: call it and match its result");
		break;
	default:
		diag_set_help(d, "compare strings and floats with `==` in an `if` instead");
		break;
	}
}

TypeId
sema_check_match(FnCtx *C, const Expr *e)
{
	ParamMode saved = C->bind_mode;
	C->bind_mode = e->u.match.mode == MATCH_BORROW ? MODE_BORROW : MODE_NONE;
	TypeId t = check_match_arms(C, e);
	C->bind_mode = saved;
	return t;
}

/*
 * A scrutinee naming a parameter of a generic function whose declared type
 * mentions a type parameter (`r: Result<A, B>`), checked under a Copy scalar
 * substitution: its declared (open) type, else T_ERR.
 */
static TypeId
template_param_type(FnCtx *C, const Expr *sc)
{
	if (!C->ntargs || sc->kind != EXPR_NAME)
		return T_ERR;
	for (int i = 0; i < C->ntargs; i++)
		if (C->targs[i] < (TypeId)TYPE_FIRST_SCALAR || C->targs[i] > (TypeId)TYPE_LAST_SCALAR)
			return T_ERR;   /* an instance at owned types: not the template check */
	const Local *l = sema_local_find(C, sc->u.name.s);
	if (!l || !l->param)
		return T_ERR;
	const Sym *f = C->sym;
	for (int i = 0; i < f->nparams; i++)
		if (strcmp(f->params[i].name, sc->u.name.s) == 0)
			return sema_type_info(&C->S->types, f->params[i].type)->open ? f->params[i].type : T_ERR;
	return T_ERR;
}

static TypeId
check_match_arms(FnCtx *C, const Expr *e)
{
	Sema *S = C->S;
	TypeId st = sema_check_expr(C, e->u.match.scrutinee);
	if (e->u.match.narms == 0) {
		/* the reference's witnesses: a record's pattern, a variant's first case */
		const TypeInfo *ti = sema_type_info(&S->types, st);
		Sym *ts = ti->kind == TY_NOMINAL ? sema_sym(S, (SymId)ti->decl) : NULL;
		if (ts && (ts->kind == SK_RECORD || ts->kind == SK_CLASS)) {
			Diag *d = sema_error(S, DIAG_M101, e->span, "non-exhaustive match; missing record pattern for `%s`", sema_type_name(S, st));
			diag_set_help(d, "add the arm `%s { … } => …,`", ts->name);
		} else if (ts && ts->kind == SK_VARIANT && ts->nom->ncases > 0) {
			Diag *d = sema_error(S, DIAG_M101, e->span, "non-exhaustive match; missing case `%s::%s %s`", ts->name, ts->nom->cases[0].name,
			    ts->nom->cases[0].nfields ? "{ .. }" : "{}");
			Buf arms = {0};
			for (int k = 0; k < ts->nom->ncases && k < 8; k++) {
				buf_printf(&arms, "%s`", k ? ", " : "");
				missing_arm(C, &arms, ts, k);
				buf_puts(&arms, " => …,`");
			}
			diag_set_help(d, "add %s %s%s, or a final `_ => …,`", ts->nom->ncases == 1 ? "the arm" : "the arms", arms.data,
			    ts->nom->ncases > 8 ? ", …" : "");
			buf_free(&arms);
		} else {
			Diag *d = sema_error(S, DIAG_M101, e->span, "match has no arms");
			diag_set_help(d, "add arms, ending with `_ => …,`");
		}
		return T_ERR;
	}
	if (st == T_ERR) {
		for (int i = 0; i < e->u.match.narms; i++) {
			const MatchArm *arm = &e->u.match.arms[i];
			sema_scope_push(C);
			bind_unknown(C, arm->pat);
			if (arm->guard)
				sema_check_expr(C, arm->guard);
			sema_check_expr(C, arm->value);
			sema_scope_pop(C);
		}
		return T_ERR;
	}
	const TypeInfo *sti0 = sema_type_info(&S->types, st);
	bool rec0 = sti0->kind == TY_NOMINAL && sema_sym(S, (SymId)sti0->decl)->kind != SK_VARIANT;
	if (e->u.match.mode != MATCH_PLAIN && sema_is_copy(S, st)) {
		/* the reference's texts, by scrutinee kind and mode */
		Diag *d = sema_error(S, DIAG_O117, e->u.match.scrutinee->span, "%s",
		    e->u.match.mode == MATCH_OWN
			? (rec0 ? "`match own` requires an owned non-Copy record scrutinee" : "`match own` requires an owned admitted non-Copy variant scrutinee")
			: (rec0 ? "`match borrow` requires a named owned or borrowed non-Copy record place"
				: "`match borrow` requires an unprojected named owned or borrowed admitted non-Copy variant place"));
		TypeId open = template_param_type(C, e->u.match.scrutinee);
		if (open != T_ERR)
			/* a generic body: Copy only under the template's scalar substitution */
			diag_set_help(d, "the body of generic `%s` is checked with every Copy scalar for its type parameters, and `%s` is Copy there (`%s`): give the helper a parameter type that is non-Copy for every type argument (one holding a `string`), or write it without type parameters for its owned use",
			    C->sym->name, sema_type_name(S, open), sema_type_name(S, st));
		else
			copy_mode_help(S, d, e->u.match.scrutinee, st);
	} else if (e->u.match.mode == MATCH_BORROW && e->u.match.scrutinee->kind != EXPR_NAME && e->u.match.scrutinee->kind != EXPR_FIELD) {
		Diag *d = sema_error(S, DIAG_O117, e->u.match.scrutinee->span, "%s",
		    rec0 ? "`match borrow` requires a named owned or borrowed non-Copy record place"
			 : "`match borrow` requires an unprojected named owned or borrowed admitted non-Copy variant place");
		diag_set_help(d, "bind the value first: `let value = …; match borrow value { … }`");
	}
	if (e->u.match.mode == MATCH_PLAIN && !sema_is_copy(S, st)) {
		const TypeInfo *sti = sema_type_info(&S->types, st);
		bool rec = sti->kind == TY_NOMINAL && sema_sym(S, (SymId)sti->decl)->kind != SK_VARIANT;
		Diag *d = sema_error(S, DIAG_O111, e->u.match.scrutinee->span, "plain %s match requires a Copy scrutinee", rec ? "record" : "variant");
		const Expr *sc = e->u.match.scrutinee;
		if (sc->kind == EXPR_NAME && sema_lent_value(S, sc))
			/* a `for` item, a `borrow` parameter: `match own` would move out of it */
			diag_set_help(d, "`%s` is lent here (a `borrow` parameter, a `for` item or a `match borrow` binding), so inspect it with `match borrow %s { … }`; `match own` needs its owner",
			    sc->u.name.s, sc->u.name.s);
		else
			diag_set_help(d, "write `match own …` to consume the value or `match borrow …` to inspect it");
	}
	if (scalar_scrutinee(st))
		return match_scalar(C, e, st);
	const TypeInfo *ti = sema_type_info(&S->types, st);
	if (ti->kind == TY_NOMINAL && sema_sym(S, (SymId)ti->decl)->kind == SK_VARIANT)
		return match_variant(C, e, st);
	if (ti->kind == TY_NOMINAL && (sema_sym(S, (SymId)ti->decl)->kind == SK_RECORD || sema_sym(S, (SymId)ti->decl)->kind == SK_CLASS))
		return match_record(C, e, st);
	Diag *d = sema_error(S, DIAG_M103, e->u.match.scrutinee->span, "match scrutinee must be a scalar, variant or record, received %s", sema_type_name(S, st));
	unmatchable_help(S, d, st, e);
	for (int i = 0; i < e->u.match.narms; i++) {
		sema_scope_push(C);
		sema_check_expr(C, e->u.match.arms[i].value);
		sema_scope_pop(C);
	}
	return T_ERR;
}

/* ==== pattern bindings (shared by the ownership pass and lowering) ============== */

static void
field_binds(Sema *S, const FieldPat *fps, int n, TypeId t, int ci, PatternBindFn fn, void *ctx)
{
	SymId owner = (SymId)sema_type_info(&S->types, t)->decl;
	for (int i = 0; i < n; i++) {
		const FieldPat *f = &fps[i];
		int fi = ci >= 0 ? sema_field_find(S, owner, ci, f->name.s, true) : sema_field_index(S, owner, f->name.s);
		if (fi < 0)
			continue;
		TypeId ft = ci >= 0 ? sema_case_field_type(S, t, ci, fi) : sema_field_type(S, t, fi);
		if (!f->sub)
			fn(ctx, f->name.s, ft, f->span);
		else
			sema_pattern_binds(S, f->sub, ft, fn, ctx);
	}
}

void
sema_pattern_binds(Sema *S, const Pattern *p, TypeId t, PatternBindFn fn, void *ctx)
{
	if (!p || t == T_ERR)
		return;
	const TypeInfo *ti = sema_type_info(&S->types, t);
	switch (p->kind) {
	case PAT_BIND:
		fn(ctx, p->u.bind.s, t, p->span);
		break;
	case PAT_CASE:
		if (ti->kind == TY_NOMINAL) {
			int ci = sema_case_index(S, (SymId)ti->decl, p->u.case_.case_name.s);
			if (ci >= 0)
				field_binds(S, p->u.case_.fields, p->u.case_.nfields, t, ci, fn, ctx);
		}
		break;
	case PAT_RECORD:
		if (ti->kind == TY_NOMINAL)
			field_binds(S, p->u.record.fields, p->u.record.nfields, t, -1, fn, ctx);
		break;
	default:
		break;
	}
}
