/*
 * sema.c — the checker's driver: pass order (§0.2), function bodies with
 * their contracts and effects (E101/E102), the entry point (T104/T105) and
 * the graph revision (revision.c).
 */
#include "sema_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>


Diag *
sema_error(Sema *S, DiagCode code, Span span, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return diag_report(S->diags, code, &span, "%s", msg);
}

static const char *
decl_name_cb(void *ctx, uint32_t decl, bool param, uint64_t index)
{
	Sema *S = ctx;
	Sym *s = sema_sym(S, (SymId)decl);
	if (param)
		return index < (uint64_t)s->ntparams ? s->tparams[index] : "?";
	return s->name;
}

const char *
sema_type_name(Sema *S, TypeId t)
{
	Buf b = {0};
	type_spell(&b, &S->types, t, decl_name_cb, S);
	const char *out = arena_strndup(&S->arena, b.data ? b.data : "", b.len);
	buf_free(&b);
	return out;
}

/* ==== a walk over every expression ============================================ */

void
sema_walk_block(const Block *b, ExprVisit fn, void *ctx)
{
	if (!b)
		return;
	for (int i = 0; i < b->nstmts; i++) {
		const Stmt *s = b->stmts[i];
		switch (s->kind) {
		case STMT_LET: sema_walk_expr(s->u.let.value, fn, ctx); break;
		case STMT_ASSIGN: sema_walk_expr(s->u.assign.value, fn, ctx); break;
		case STMT_WHILE:
			sema_walk_expr(s->u.while_.cond, fn, ctx);
			sema_walk_block(s->u.while_.body, fn, ctx);
			break;
		case STMT_FOR:
			sema_walk_expr(s->u.for_.iter, fn, ctx);
			sema_walk_block(s->u.for_.body, fn, ctx);
			break;
		case STMT_IF: sema_walk_expr(s->u.if_, fn, ctx); break;
		case STMT_UNSAFE: sema_walk_block(s->u.unsafe.body, fn, ctx); break;
		}
	}
	sema_walk_expr(b->tail, fn, ctx);
}

static void
walk_all(Expr *const *es, int n, ExprVisit fn, void *ctx)
{
	for (int i = 0; i < n; i++)
		sema_walk_expr(es[i], fn, ctx);
}

static void
walk_inits(const FieldInit *inits, int n, ExprVisit fn, void *ctx)
{
	for (int i = 0; i < n; i++)
		sema_walk_expr(inits[i].value, fn, ctx);
}

void
sema_walk_expr(const Expr *e, ExprVisit fn, void *ctx)
{
	if (!e)
		return;
	fn(ctx, e);
	switch (e->kind) {
	case EXPR_UNARY: sema_walk_expr(e->u.unary.operand, fn, ctx); break;
	case EXPR_BINARY:
		sema_walk_expr(e->u.binary.lhs, fn, ctx);
		sema_walk_expr(e->u.binary.rhs, fn, ctx);
		break;
	case EXPR_CALL: walk_all(e->u.call.args, e->u.call.nargs, fn, ctx); break;
	case EXPR_METHOD:
		sema_walk_expr(e->u.method.recv, fn, ctx);
		walk_all(e->u.method.args, e->u.method.nargs, fn, ctx);
		break;
	case EXPR_SUPER: walk_all(e->u.super_.args, e->u.super_.nargs, fn, ctx); break;
	case EXPR_FIELD: sema_walk_expr(e->u.field.base, fn, ctx); break;
	case EXPR_TRY: sema_walk_expr(e->u.try_.operand, fn, ctx); break;
	case EXPR_WITH:
		sema_walk_expr(e->u.with.base, fn, ctx);
		walk_inits(e->u.with.inits, e->u.with.ninits, fn, ctx);
		break;
	case EXPR_RECORD: walk_inits(e->u.record.inits, e->u.record.ninits, fn, ctx); break;
	case EXPR_VARIANT: walk_inits(e->u.variant.inits, e->u.variant.ninits, fn, ctx); break;
	case EXPR_BLOCK: sema_walk_block(e->u.block, fn, ctx); break;
	case EXPR_IF:
		sema_walk_expr(e->u.if_.cond, fn, ctx);
		sema_walk_block(e->u.if_.then_block, fn, ctx);
		sema_walk_block(e->u.if_.else_block, fn, ctx);
		break;
	case EXPR_MATCH:
		sema_walk_expr(e->u.match.scrutinee, fn, ctx);
		for (int i = 0; i < e->u.match.narms; i++) {
			sema_walk_expr(e->u.match.arms[i].guard, fn, ctx);
			sema_walk_expr(e->u.match.arms[i].value, fn, ctx);
		}
		break;
	case EXPR_CLOSURE: sema_walk_block(e->u.closure.body, fn, ctx); break;
	case EXPR_ARRAY: walk_all(e->u.array.elems, e->u.array.nelems, fn, ctx); break;
	default:
		break;   /* literals and names */
	}
}

/* ==== function bodies ======================================================== */

static bool
effect_permitted(Sema *S, const char *e)
{
	for (int i = 0; i < S->npermits; i++)
		if (strcmp(S->permits[i], e) == 0)
			return true;
	return false;
}

static bool
fn_uses(Sym *f, const char *e)
{
	for (int i = 0; i < f->neffects; i++)
		if (strcmp(f->effects[i], e) == 0)
			return true;
	return false;
}

/* E103: owning a resource whose imported finalizer uses effects needs them. */
static void
check_finalizer_effects(FnCtx *C)
{
	Sema *S = C->S;
	Sym *f = C->sym;
	for (int i = 0; i < f->nparams; i++) {
		const TypeInfo *ti = type_info(&S->types, f->params[i].type);
		if (ti->kind != TY_NOMINAL || f->params[i].mode != MODE_OWN)
			continue;
		Sym *r = sema_sym(S, (SymId)ti->decl);
		if (r->kind != SK_RESOURCE || !r->decl || r->decl->u.resource.trivial)
			continue;
		const StrLit *key = &r->decl->u.resource.import;
		for (int d = 0; d < S->m->ndecls; d++) {
			const Decl *x = &S->m->decls[d];
			for (int j = 0; x->kind == DECL_INTERFACE && j < x->u.interface.nimports; j++) {
				const ImportFn *imp = &x->u.interface.imports[j];
				if (!imp->id.present || imp->id.value.len != key->len || memcmp(imp->id.value.s, key->s, key->len) != 0)
					continue;
				for (int k = 0; k < imp->effects.nnames; k++) {
					const QName *q = &imp->effects.names[k];
					const char *e = arena_strndup(&S->arena, S->src + q->span.start, q->span.end - q->span.start);
					if (fn_uses(f, e))
						continue;
					Diag *dg = sema_error(S, DIAG_E103, f->span, "function `%s` can own a resource; automatic finalization requires effect `%s`", f->name, e);
					diag_set_help(dg, "add `%s` to the function's `uses` set and module permits", e);
				}
			}
		}
	}
}

static void
check_effects(FnCtx *C)
{
	Sema *S = C->S;
	Sym *f = C->sym;
	check_finalizer_effects(C);
	for (int i = 0; i < f->neffects; i++) {
		if (!effect_permitted(S, f->effects[i])) {
			Diag *d = sema_error(S, DIAG_E101, f->span, "function `%s` uses `%s` but module `%s` does not permit it",
			    f->name, f->effects[i], S->module_name);
			diag_set_help(d, "add `permit { %s }` at module level, below the `module` line", f->effects[i]);
		}
	}
	for (int i = 0; i < C->calls.len; i++) {
		const CallSite *cs = &C->calls.items[i];
		const char *single[1];
		const char **need = single;
		int nneed = 0;
		if (cs->callee >= 0) {
			Sym *g = sema_sym(S, cs->callee);
			need = g->effects;
			nneed = g->neffects;
		} else if (cs->effect) {
			single[0] = cs->effect;
			nneed = 1;
		}
		for (int j = 0; j < nneed; j++) {
			if (fn_uses(f, need[j]))
				continue;
			Diag *d = sema_error(S, DIAG_E102, cs->span, "call to `%s` requires effect `%s`; add it to `%s`", cs->name, need[j], f->name);
			if (effect_permitted(S, need[j]))
				diag_set_help(d, "add `uses { %s }` on its own line between the signature and `{`", need[j]);
			else
				diag_set_help(d, "add `uses { %s }` on its own line between the signature and `{`, and `permit { %s }` at module level, below the `module` line",
				    need[j], need[j]);
		}
	}
}

/*
 * Does a value of type t hold a resource (bytes: or `Bytes`) anywhere: itself,
 * or inside a record, variant or compiler-owned carrier (the reference's
 * contains_resource / contains_owned_bytes)?  depth bounds recursive types
 * (a cycle runs through Box/Vec, so cutting it off loses nothing a shallower
 * level would not already show).
 */
static bool
holds(Sema *S, TypeId t, bool bytes, int depth)
{
	const TypeInfo *ti = type_info(&S->types, t);
	if (depth > 32 || ti->kind == TY_FN)
		return false;
	if (bytes && ti->kind == TY_BYTES)
		return true;
	for (int i = 0; i < ti->nargs; i++)
		if (holds(S, type_info(&S->types, t)->args[i], bytes, depth + 1))
			return true;
	ti = type_info(&S->types, t);
	if (ti->kind != TY_NOMINAL)
		return false;
	Sym *y = sema_sym(S, (SymId)ti->decl);
	if (y->kind == SK_RESOURCE)
		return true;
	for (int i = 0; i < y->nfields; i++)
		if (holds(S, sema_field_type(S, t, i), bytes, depth + 1))
			return true;
	for (int c = 0; c < y->ncases; c++)
		for (int i = 0; i < y->cases[c].nfields; i++)
			if (holds(S, sema_case_field_type(S, t, c, i), bytes, depth + 1))
				return true;
	return false;
}

bool
sema_type_holds(Sema *S, TypeId t, bool bytes)
{
	return holds(S, t, bytes, 0);
}

/* A non-generic variant owning text directly: every payload field a `string`,
 * a Copy scalar or a Copy record, and not Copy itself (the reference's
 * is_direct_owned_variant, which must be passed `own` or `borrow`). */
static bool
direct_owned_variant(Sema *S, TypeId t)
{
	const TypeInfo *ti = type_info(&S->types, t);
	if (ti->kind != TY_NOMINAL || ti->nargs || sema_is_copy(S, t))
		return false;
	Sym *y = sema_sym(S, (SymId)ti->decl);
	if (y->kind != SK_VARIANT || y->prelude)
		return false;
	for (int c = 0; c < y->ncases; c++)
		for (int i = 0; i < y->cases[c].nfields; i++) {
			TypeId ft = sema_case_field_type(S, t, c, i);
			if (ft != T_STRING && !sema_is_copy(S, ft))
				return false;
		}
	return true;
}

/*
 * Must a parameter of type t state `own`, `borrow` or `shared` (O001 when it
 * does not)?  The reference's list: maps and sets, iterators, `Box`/`Vec`,
 * owned records (its string records), and anything holding `Bytes` or a
 * resource.  Owned classes and generic records are added (the reference
 * refuses them as T309, lifted by §0.1).
 */
static bool
needs_mode(Sema *S, TypeId t)
{
	const TypeInfo *ti = type_info(&S->types, t);
	switch (ti->kind) {
	case TY_MAP: case TY_SET: case TY_ITER: case TY_BOX: case TY_VEC:
		return true;
	case TY_NOMINAL: {
		Sym *y = sema_sym(S, (SymId)ti->decl);
		if (y->kind == SK_RESOURCE || (SymId)ti->decl == S->sym_iterstep)
			return true;
		if ((y->kind == SK_RECORD || y->kind == SK_CLASS) && !sema_is_copy(S, t))
			return true;
		break;
	}
	default:
		break;
	}
	return holds(S, t, true, 0);
}

/* The reference's parameter mode rules (check_ownership_mode), in its order. */
static void
check_param_mode(Sema *S, Sym *f, const ParamSym *p)
{
	static const char *const words[] = { "", "own", "borrow", "shared" };
	TypeId t = p->type;
	if (t == T_ERR)
		return;
	if (t == T_STR) {
		if (p->mode != MODE_BORROW) {
			Diag *d = sema_error(S, DIAG_O115, p->span, "borrowed text parameter `%s.%s` must use `borrow str`", f->name, p->name);
			diag_set_help(d, "use `%s: borrow str`", p->name);
		}
		return;
	}
	if (t == T_SLICE) {
		if (p->mode != MODE_BORROW) {
			Diag *d = sema_error(S, DIAG_T263, p->span, "byte-slice parameter `%s.%s` must use `borrow Slice<u8>`", f->name, p->name);
			diag_set_help(d, "use `%s: borrow Slice<u8>`", p->name);
		}
		return;
	}
	if (t == T_BYTES) {
		if (p->mode == MODE_BORROW && f->ntparams) {
			Diag *d = sema_error(S, DIAG_T263, p->span, "borrowed Bytes parameter `%s.%s` requires a monomorphic function", f->name, p->name);
			diag_set_help(d, "take `%s: own Bytes`, or move the borrowing code into a function without type parameters", p->name);
		} else if (p->mode != MODE_OWN && p->mode != MODE_BORROW) {
			Diag *d = sema_error(S, DIAG_T263, p->span, "byte parameter `%s.%s` must use `own Bytes` or `borrow Bytes`", f->name, p->name);
			diag_set_help(d, "use `%s: own Bytes` to transfer ownership, or `%s: borrow Bytes` to read it", p->name, p->name);
		}
		return;
	}
	if (direct_owned_variant(S, t)) {
		if (p->mode != MODE_OWN && p->mode != MODE_BORROW) {
			const char *tn = sema_type_name(S, t);
			Diag *d = sema_error(S, DIAG_T263, p->span, "owned-string variant parameter `%s.%s` must use `own %s` or `borrow %s`", f->name, p->name, tn, tn);
			diag_set_help(d, "use `%s: own %s` to transfer ownership, or `borrow %s` for a synchronous view", p->name, tn, tn);
		}
		return;
	}
	if (needs_mode(S, t)) {
		if (p->mode == MODE_NONE) {
			Diag *d = sema_error(S, DIAG_O001, p->span, "resource parameter `%s.%s` needs `own`, `borrow`, or `shared`", f->name, p->name);
			diag_set_help(d, "use `%s: own %s` to transfer ownership", p->name, sema_type_name(S, t));
		}
		return;
	}
	if (p->mode == MODE_NONE)
		return;
	if (t == T_STRING) {
		Diag *d = sema_error(S, DIAG_O002, p->span, "string parameters own their input implicitly; an explicit ownership mode is not admitted");
		diag_set_help(d, "use `%s: string` to transfer ownership; for a read-only helper, use `%s: borrow str` and pass `string_as_str(text)`", p->name, p->name);
	} else if (sema_is_copy(S, t)) {
		Diag *d = sema_error(S, DIAG_O002, p->span, "ownership mode `%s` is only valid for resource types; `%s` is a value type",
		    words[p->mode], sema_type_name(S, t));
		diag_set_help(d, "remove `%s`: `%s: %s`", words[p->mode], p->name, sema_type_name(S, t));
	}
	/* other owned types exist only through lifted generics and payloads (§0.1): any mode */
}

static TypeId
param_type(FnCtx *C, int i)
{
	return fn_type(C, C->sym->params[i].type);
}

static void
check_params(FnCtx *C)
{
	Sema *S = C->S;
	Sym *f = C->sym;
	for (int i = 0; i < f->nparams; i++) {
		ParamSym *p = &f->params[i];
		check_param_mode(S, f, p);
		if (strcmp(p->name, "mut") == 0) {
			Diag *d = sema_error(S, DIAG_U103, p->span, "`mut` is only valid in a local `let mut` binding");
			diag_set_help(d, "parameters are immutable; copy into `let mut` inside the body");
			continue;
		}
		if (!source_identifier(p->name)) {
			Diag *d = sema_error(S, DIAG_S105, p->span, "`%s` is not a valid parameter identifier", p->name);
			diag_set_help(d, "`%s` has a meaning of its own in SEMAPRAX; choose another name", p->name);
			continue;
		}
		bool dup = false;
		for (int j = 0; j < i; j++)
			dup |= strcmp(f->params[j].name, p->name) == 0;
		if (dup) {
			Diag *d = sema_error(S, DIAG_T102, p->span, "duplicate parameter `%s`", p->name);
			diag_set_help(d, "rename one of the parameters");
			continue;
		}
		Local l = { p->name, param_type(C, i), false, p->span, p->mode == MODE_BORROW || p->mode == MODE_SHARED ? p->mode : MODE_NONE };
		VEC_PUSH(C->locals, l);
	}
}

static void
check_clause(FnCtx *C, const Clause *c, const char *what)
{
	C->in_contract = true;
	C->in_ensures = c->kind == CLAUSE_ENSURES;
	int ncalls = C->calls.len;
	TypeId t = check_expr(C, c->cond);
	for (int k = ncalls; k < C->calls.len; k++) {
		const CallSite *cs = &C->calls.items[k];
		if (cs->effect || (cs->callee >= 0 && sema_sym(C->S, cs->callee)->neffects > 0)) {
			Buf eb = {0};
			if (cs->effect) {
				buf_puts(&eb, cs->effect);
			} else {
				Sym *g = sema_sym(C->S, cs->callee);
				for (int j = 0; j < g->neffects; j++)
					buf_printf(&eb, "%s%s", j ? ", " : "", g->effects[j]);
			}
			Diag *d = sema_error(C->S, DIAG_C102, cs->span, "%s on `%s` calls effectful function `%s` with effects %s", what, C->sym->name,
			    cs->name, eb.data ? eb.data : "");
			diag_set_help(d, "contracts must be deterministic and effect-free");
			buf_free(&eb);
		}
	}
	C->in_contract = false;
	C->in_ensures = false;
	if (t != T_BOOL && t != T_ERR) {
		Diag *d = sema_error(C->S, DIAG_C101, c->cond->span, "%s on `%s` must be bool", what, C->sym->name);
		diag_set_help(d, "write a comparison, e.g. `%s > 0`", C->sym->nparams ? C->sym->params[0].name : "value");
	}
}

static void
check_function(Sema *S, SymId id, const TypeId *targs, int ntargs)
{
	FnCtx C;
	memset(&C, 0, sizeof C);
	C.S = S;
	C.fn = id;
	C.sym = sema_sym(S, id);
	C.targs = targs;
	C.ntargs = ntargs;
	const FnDecl *fn = C.sym->fn;
	check_params(&C);
	for (int i = 0; i < fn->nclauses; i++)
		if (fn->clauses[i].kind == CLAUSE_REQUIRES)
			check_clause(&C, &fn->clauses[i], "precondition");
	TypeId declared_result = fn_type(&C, C.sym->result);
	if (declared_result == T_STR) {
		Diag *d = sema_error(S, DIAG_O116, C.sym->span, "function `%s` cannot return borrowed `str`; borrowed text is confined to the invocation", C.sym->name);
		diag_set_help(d, "return an owned `string`, e.g. `string_from_str(view)`");
	} else if (declared_result == T_SLICE) {
		Diag *d = sema_error(S, DIAG_T264, C.sym->span, "function `%s` cannot return borrowed `Slice<u8>`; byte views cannot escape their invocation", C.sym->name);
		diag_set_help(d, "return owned `Bytes`, e.g. `bytes_copy(view)`");
	}
	if (fn->body) {
		TypeId t = check_block(&C, fn->body);
		Sym *f = C.sym;
		TypeId want = fn_type(&C, f->result);
		if (t != T_ERR && want != T_ERR && !type_accepts(S, want, t)) {
			Diag *d = sema_error(S, DIAG_T103, fn->body->span, "function `%s` returns %s, but its signature declares %s", f->name,
			    sema_type_name(S, t), sema_type_name(S, want));
			diag_set_help(d, "make the final expression a %s, or declare `-> %s`", sema_type_name(S, want), sema_type_name(S, t));
		}
		/* O104: the body lends (a `borrow`/`shared` parameter or binding) where an owned result is due */
		ParamMode bm = fn->body->tail ? (ParamMode)S->expr_mode[fn->body->tail->id] : MODE_NONE;
		if (t != T_ERR && want != T_ERR && !sema_is_copy(S, want) && (bm == MODE_BORROW || bm == MODE_SHARED)) {
			Diag *d = sema_error(S, DIAG_O104, fn->body->span, "function `%s` cannot return a %s resource as owned", f->name,
			    bm == MODE_BORROW ? "borrow" : "shared");
			diag_set_help(d, "return an owned resource or declare a future lifetime-bound view");
		}
	}
	for (int i = 0; i < fn->nclauses; i++)
		if (fn->clauses[i].kind == CLAUSE_ENSURES)
			check_clause(&C, &fn->clauses[i], "postcondition");
	own_check_function(S, id);   /* needs the typed contracts too */
	check_effects(&C);
	VEC_FREE(C.locals);
	VEC_FREE(C.marks);
	VEC_FREE(C.calls);
}

static void
check_entry(Sema *S)
{
	SymId main_fn = strmap_get(&S->fn_names, "main");
	if (main_fn >= 0) {
		Sym *m = sema_sym(S, main_fn);
		if (m->ntparams || m->nparams || m->result != T_I64) {
			Diag *d = sema_error(S, DIAG_T104, m->span, "entry function must be monomorphic with signature `fn main() -> i64`");
			if (m->nparams)
				diag_set_help(d, "`main` takes no parameters; read command-line arguments with `args_len()` and `arg_utf8(index)`");
			else if (m->ntparams)
				diag_set_help(d, "`main` cannot be generic; move the generic code into a helper and call it with explicit type arguments");
			else
				diag_set_help(d, "`main` returns `i64`, the process exit status: `0` conventionally means success");
		}
		return;
	}
	Span span = { 0, 0, 1, 1 };
	for (SymId id = 0; id < S->syms.len; id++) {
		if (sema_sym(S, id)->kind == SK_FN) {
			span = sema_sym(S, id)->span;
			break;
		}
	}
	Diag *d = sema_error(S, DIAG_T105, span, "executable module must define `fn main() -> i64`");
	diag_set_help(d, "a module without `fn main() -> i64` is a library module: check it through the project that owns it with `semaprax check <project-dir>`, or add `main` to run this file alone");
}

/*
 * Record invariants (§4.6, §0.7): `requires` lines after a record refer to
 * its fields by name; they are bool (C101) and effect-free (C102); generic
 * records take none (C103).
 */
static void
check_invariants(Sema *S, SymId id)
{
	Sym *r = sema_sym(S, id);
	const Decl *d = r->decl;
	if (!d || d->kind != DECL_RECORD || d->u.record.ninvariants == 0)
		return;
	if (r->ntparams) {
		Diag *dg = sema_error(S, DIAG_C103, d->u.record.invariants[0].span, "generic record `%s` cannot declare invariants", r->name);
		diag_set_help(dg, "check the property in the functions that build `%s` values", r->name);
		return;
	}
	if (!sema_is_copy(S, sema_nominal(S, id, NULL, 0))) {
		Diag *dg = sema_error(S, DIAG_C104, d->u.record.invariants[0].span, "record `%s` owns values and cannot declare invariants", r->name);
		diag_set_help(dg, "check the property in the functions that build `%s` values, or keep the record's fields Copy", r->name);
		return;
	}
	FnCtx C;
	memset(&C, 0, sizeof C);
	C.S = S;
	C.fn = id;
	C.sym = r;
	C.in_contract = true;
	for (int i = 0; i < r->nfields; i++) {
		Local l = { r->fields[i].name, r->fields[i].type, false, r->fields[i].span, MODE_NONE };
		VEC_PUSH(C.locals, l);
	}
	for (int i = 0; i < d->u.record.ninvariants; i++) {
		const Clause *c = &d->u.record.invariants[i];
		int ncalls = C.calls.len;
		TypeId t = check_expr(&C, c->cond);
		if (t != T_BOOL && t != T_ERR) {
			Diag *dg = sema_error(S, DIAG_C101, c->cond->span, "invariant on `%s` must be bool", r->name);
			diag_set_help(dg, "write a comparison over the fields, e.g. `%s >= 0`", r->nfields ? r->fields[0].name : "value");
		}
		for (int k = ncalls; k < C.calls.len; k++) {
			const CallSite *cs = &C.calls.items[k];
			bool effectful = cs->effect || (cs->callee >= 0 && sema_sym(S, cs->callee)->neffects > 0);
			if (effectful) {
				Diag *dg = sema_error(S, DIAG_C102, cs->span, "invariant on `%s` calls effectful function `%s`", r->name, cs->name);
				diag_set_help(dg, "contracts must be deterministic and effect-free");
			}
		}
	}
	VEC_FREE(C.locals);
	VEC_FREE(C.marks);
	VEC_FREE(C.calls);
}

/* Resources (§4.9): the drop strategy carries an explicit `@id` (O112); an
 * imported finalizer names a declared, infallible, consuming import (O113). */
static void
check_resource(Sema *S, SymId id)
{
	Sym *r = sema_sym(S, id);
	const Decl *d = r->decl;
	if (!d || d->kind != DECL_RESOURCE)
		return;
	const IdAttr *drop = &d->u.resource.drop_id;
	if (!drop->present) {
		Diag *dg = sema_error(S, DIAG_O112, r->name_span, "resource `%s` must identify its drop strategy with an explicit `@id`", r->name);
		diag_set_help(dg, "write `@id(\"%s.drop\")` on the line above `drop …;`", r->id);
	} else if (memchr(drop->value.s, '\0', drop->value.len)) {
		/* the reference's NUL rule, under its lifecycle code */
		Diag *dg = sema_error(S, DIAG_O113, drop->span, "resource lifecycle `%s.drop` has an invalid stable id; persistent identities forbid NUL", r->name);
		diag_set_help(dg, "remove the NUL byte; write a dotted id such as @id(\"%s.drop\")", r->id);
	}
	if (d->u.resource.trivial)
		return;
	const StrLit *key = &d->u.resource.import;
	if (memchr(key->s, '\0', key->len)) {
		Diag *dg = sema_error(S, DIAG_O113, key->span, "resource lifecycle `%s.drop` has an invalid logical import key; persistent identities forbid NUL", r->name);
		diag_set_help(dg, "remove the NUL byte; the key is the finalizer import's `@id`");
		return;
	}
	for (int i = 0; i < S->m->ndecls; i++) {
		const Decl *x = &S->m->decls[i];
		if (x->kind != DECL_INTERFACE)
			continue;
		for (int j = 0; j < x->u.interface.nimports; j++) {
			const ImportFn *f = &x->u.interface.imports[j];
			if (!f->id.present || f->id.value.len != key->len || memcmp(f->id.value.s, key->s, key->len) != 0)
				continue;
			if (f->fallible || !f->has_consumes) {
				Diag *dg = sema_error(S, DIAG_O113, key->span, "finalizer import `%.*s` of resource `%s` must be `failure infallible` and `consumes <param> always`",
				    (int)key->len, key->s, r->name);
				diag_set_help(dg, "declare the import with `failure infallible consumes value always;`");
			}
			return;
		}
	}
	Diag *dg = sema_error(S, DIAG_O113, key->span, "resource `%s` drops through `%.*s`, which is not a declared interface import", r->name,
	    (int)key->len, key->s);
	diag_set_help(dg, "declare the finalizer as an `import fn` with that `@id` in an interface, or use `drop trivial;`");
}

/* Drops diagnostics from index `from` on that repeat an earlier one. */
static void
dedupe_since(DiagSink *d, int from)
{
	for (int i = from; i < d->items.len;) {
		const Diag *x = &d->items.items[i];
		bool dup = false;
		for (int j = 0; j < i && !dup; j++) {
			const Diag *y = &d->items.items[j];
			dup = y->code == x->code && y->span.start == x->span.start && strcmp(y->message, x->message) == 0;
		}
		if (dup)
			diag_remove(d, i);
		else
			i++;
	}
}

/*
 * A generic template is checked for the Copy scalar substitutions (every
 * combination for one or two type parameters; the same scalar for all of
 * them beyond that), diagnostics deduplicated.
 */
static void
check_template(Sema *S, SymId id)
{
	Sym *f = sema_sym(S, id);
	if (!f->ntparams) {
		check_function(S, id, NULL, 0);
		return;
	}
	int from = S->diags->items.len;
	int nscalars = TYPE_LAST_SCALAR - TYPE_FIRST_SCALAR + 1;
	if (f->ntparams <= 2) {
		/* every combination of Copy scalars (8 or 64 checks) */
		int total = f->ntparams == 1 ? nscalars : nscalars * nscalars;
		for (int c = 0; c < total; c++) {
			TypeId sub[2] = { (TypeId)(TYPE_FIRST_SCALAR + c % nscalars), (TypeId)(TYPE_FIRST_SCALAR + c / nscalars) };
			check_function(S, id, sub, f->ntparams);
			dedupe_since(S->diags, from);
		}
		return;
	}
	/* more parameters: each scalar for all of them at once */
	for (TyKind k = TYPE_FIRST_SCALAR; k <= TYPE_LAST_SCALAR; k++) {
		TypeId sub[16];
		for (int i = 0; i < f->ntparams && i < 16; i++)
			sub[i] = (TypeId)k;
		check_function(S, id, sub, f->ntparams < 16 ? f->ntparams : 16);
		dedupe_since(S->diags, from);
	}
}

/* Instances with non-scalar arguments: an error shows as T225 at the call. */
static void
check_instances(Sema *S)
{
	for (int i = 0; i < S->ninstances; i++) {
		struct Instance in = S->instances[i];
		int from = S->diags->items.len;
		int errors = S->diags->errors;
		check_function(S, in.fn, in.targs, in.ntargs);
		if (S->diags->errors == errors) {
			while (S->diags->items.len > from)
				diag_remove(S->diags, S->diags->items.len - 1);
			continue;
		}
		char *msg = NULL;
		for (int j = from; j < S->diags->items.len && !msg; j++)
			if (diag_info[S->diags->items.items[j].code].sev != SEV_WARNING)
				msg = xstrdup(S->diags->items.items[j].message);
		while (S->diags->items.len > from)
			diag_remove(S->diags, S->diags->items.len - 1);
		Buf b = {0};
		for (int j = 0; j < in.ntargs; j++)
			buf_printf(&b, "%s%s", j ? ", " : "", sema_type_name(S, in.targs[j]));
		Sym *f = sema_sym(S, in.fn);
		Diag *d = sema_error(S, DIAG_T225, in.call, "instance `%s<%s>` of generic function `%s` does not type-check: %s", f->name,
		    b.data ? b.data : "", f->name, msg ? msg : "error");
		diag_set_help(d, "call `%s` with type arguments its body supports", f->name);
		buf_free(&b);
		free(msg);
	}
}

Sema *
sema_check(const Module *m, const char *src, size_t len, DiagSink *diags)
{
	Sema *S = xcalloc(1, sizeof *S);
	S->m = m;
	S->src = src;
	S->len = len;
	S->diags = diags;
	arena_init(&S->arena);
	types_init(&S->types);
	S->module_name = arena_strndup(&S->arena, src + m->name.span.start, m->name.span.end - m->name.span.start);
	S->npermits = m->permit.nnames;
	S->permits = ARENA_ARRAY(&S->arena, const char *, m->permit.nnames ? m->permit.nnames : 1);
	for (int i = 0; i < m->permit.nnames; i++) {
		const QName *q = &m->permit.names[i];
		S->permits[i] = arena_strndup(&S->arena, src + q->span.start, q->span.end - q->span.start);
	}
	S->expr_type = xcalloc(m->nexprs ? m->nexprs : 1, sizeof(TypeId));
	S->expr_sym = xmalloc(sizeof(SymId) * (m->nexprs ? m->nexprs : 1));
	S->expr_mode = xcalloc(m->nexprs ? m->nexprs : 1, 1);
	for (uint32_t i = 0; i < m->nexprs; i++)
		S->expr_sym[i] = -1;
	S->call_consumes = xcalloc(m->nexprs ? m->nexprs : 1, sizeof(uint8_t *));
	S->call_builtin = xcalloc(m->nexprs ? m->nexprs : 1, sizeof(Builtin *));
	/* A single file cannot resolve `use` imports: the reference reports G172
	 * (no span) before any other check and stops there. */
	if (m->nuses > 0) {
		Diag *d = diag_report(diags, DIAG_G172, NULL, "source module imports require Workspace Semantic Graph resolution");
		diag_set_help(d, "this module imports other modules, so check it through the project that owns it: `semaprax check <project-dir>` or its `semaprax.toml`");
		return S;
	}
	decls_collect(S);
	decls_resolve(S);
	for (SymId id = 0; id < S->syms.len; id++) {
		check_resource(S, id);
		check_invariants(S, id);
	}
	/* Class methods first (the reference's class pass), then functions in source order. */
	for (SymId id = 0; id < S->syms.len; id++)
		if (sema_sym(S, id)->kind == SK_METHOD)
			check_function(S, id, NULL, 0);
	for (SymId id = 0; id < S->syms.len; id++)
		if (sema_sym(S, id)->kind == SK_FN)
			check_template(S, id);
	check_instances(S);
	/* Leave the template's own types (type parameters) in the side tables for
	 * lowering: re-type each generic body unsubstituted, silently. */
	for (SymId id = 0; id < S->syms.len; id++) {
		Sym *f = sema_sym(S, id);
		if (f->kind != SK_FN || !f->ntparams)
			continue;
		int from = S->diags->items.len;
		check_function(S, id, NULL, 0);
		while (S->diags->items.len > from)
			diag_remove(S->diags, S->diags->items.len - 1);
	}
	check_entry(S);
	return S;
}

void
sema_free(Sema *S)
{
	if (!S)
		return;
	types_free(&S->types);
	strmap_free(&S->type_names);
	strmap_free(&S->fn_names);
	strmap_free(&S->ids);
	for (SymId id = 0; id < S->syms.len; id++) {
		Sym *y = sema_sym(S, id);
		if (y->case_map) {
			strmap_free(y->case_map);
			free(y->case_map);
		}
		if (y->field_map) {
			strmap_free(y->field_map);
			free(y->field_map);
		}
	}
	VEC_FREE(S->syms);
	free(S->expr_type);
	free(S->expr_sym);
	free(S->expr_mode);
	free(S->call_consumes);
	free(S->own_reported);
	free(S->instances);
	free(S->call_builtin);
	arena_free(&S->arena);
	free(S);
}
