/*
 * sema.c — the checker's driver: pass order (§0.2), function bodies with
 * their contracts and effects (E101/E102), the entry point (T104/T105) and
 * the graph revision (revision.c).
 */
#include "sema_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>


/* Sema.assign_owner: only a module with a field assignment pays for it
 * (Module.field_assigns; a tree built another way gets it at the first
 * field assignment checked). */
void
sema_assign_owner_init(Sema *S)
{
	uint32_t n = S->m->nexprs ? S->m->nexprs : 1;
	S->assign_owner = spx_xmalloc(sizeof(SymId) * n);
	for (uint32_t i = 0; i < n; i++)
		S->assign_owner[i] = -1;
}

Diag *
sema_error(Sema *S, DiagCode code, Span span, const char *fmt, ...)
{
	/* whole, never cut: a name or id quoted in the message is the user's,
	 * of any length (a fixed buffer cut `…é` inside its UTF-8 bytes) */
	va_list ap;
	va_start(ap, fmt);
	Diag *d = diag_vreport(S->diags, code, &span, fmt, ap);
	va_end(ap);
	return d;
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
	sema_type_spell(&b, &S->types, t, decl_name_cb, S);
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

/*
 * The interface imports carrying an `@id`, indexed by it once: a resource's
 * finalizer is found by one probe instead of a walk over every declaration
 * (per resource, and per owning parameter for E103).  The map is keyed by
 * the id up to its first NUL; each key chains its imports in declaration
 * order, and the exact bytes are compared along the chain.
 */
struct ImportIndex {
	const ImportFn **items;
	int *next;            /* the next import of the same key, or -1 */
	int len;
	StrMap first, last;   /* key → first / last import */
};

static struct ImportIndex *
import_index(Sema *S)
{
	if (S->import_index)
		return S->import_index;
	struct ImportIndex *x = spx_xcalloc(1, sizeof *x);
	int n = 0;
	for (int d = 0; d < S->m->ndecls; d++)
		if (S->m->decls[d].kind == DECL_INTERFACE)
			n += S->m->decls[d].u.interface.nimports;
	x->items = spx_xmalloc(sizeof(ImportFn *) * (size_t)(n ? n : 1));
	x->next = spx_xmalloc(sizeof(int) * (size_t)(n ? n : 1));
	for (int d = 0; d < S->m->ndecls; d++) {
		const Decl *dc = &S->m->decls[d];
		for (int j = 0; dc->kind == DECL_INTERFACE && j < dc->u.interface.nimports; j++) {
			const ImportFn *imp = &dc->u.interface.imports[j];
			if (!imp->id.present)
				continue;
			const char *key = imp->id.value.s ? imp->id.value.s : "";
			int i = x->len++;
			x->items[i] = imp;
			x->next[i] = -1;
			int tail = sema_strmap_get(&x->last, key);
			if (tail < 0)
				sema_strmap_put(&x->first, key, i);
			else
				x->next[tail] = i;
			sema_strmap_set(&x->last, key, i);
		}
	}
	S->import_index = x;
	return x;
}

/* The import after number `after` (-1: the first) whose id is exactly key; -1 when none. */
static int
import_next(Sema *S, const StrLit *key, int after)
{
	struct ImportIndex *x = import_index(S);
	int i = after < 0 ? sema_strmap_get(&x->first, key->s ? key->s : "") : x->next[after];
	while (i >= 0 && (x->items[i]->id.value.len != key->len ||
	    (key->len && memcmp(x->items[i]->id.value.s, key->s, key->len) != 0)))
		i = x->next[i];
	return i;
}

static const ImportFn *
import_at(Sema *S, int i)
{
	return S->import_index->items[i];
}

/* E103 for resource r (its imported finalizer's effects) owned by function f. */
static void
finalizer_effects_of(FnCtx *C, Sym *r)
{
	Sema *S = C->S;
	Sym *f = C->sym;
	if (!r->decl || ast_resource_drop0(r->decl)->trivial || r->decl->u.resource.ndrops != 1)
		return;
	const StrLit *key = &ast_resource_drop0(r->decl)->import;
	for (int at = import_next(S, key, -1); at >= 0; at = import_next(S, key, at)) {
		const ImportFn *imp = import_at(S, at);
		for (int k = 0; k < imp->effects.nnames; k++) {
			const QName *q = &imp->effects.names[k];
			const char *e = sema_qname_text(S, q);
			if (fn_uses(f, e))
				continue;
			Diag *dg = sema_error(S, DIAG_E103, f->span, "function `%s` can own a resource; automatic finalization requires effect `%s`", f->name, e);
			diag_set_help(dg, "add `%s` to the function's `uses` set and module permits", e);
		}
	}
}

/* The resources an owned value of type t holds: itself, or through the
 * fields of owned records and classes (the reference's recursion), and, as
 * §0.1 lets resources sit in them, through variant payloads and the
 * arguments of Option/Result/Box/Vec/Map/Set (dropping the owner finalizes
 * them all).  Only types that hold a resource (sema_type_holds, memoised)
 * are entered, each once (seen), so the walk is linear in those types. */
typedef VEC(TypeId) TypeIdVec;

static void
owned_resources(FnCtx *C, TypeId t, TypeIdVec *seen)
{
	Sema *S = C->S;
	if (!sema_type_holds(S, t, false))
		return;
	for (int k = 0; k < seen->len; k++)
		if (seen->items[k] == t)
			return;
	VEC_PUSH(*seen, t);
	const TypeInfo *ti = sema_type_info(&S->types, t);
	if (ti->kind == TY_FN)
		return;
	for (int i = 0; i < ti->nargs; i++)
		owned_resources(C, sema_type_info(&S->types, t)->args[i], seen);
	ti = sema_type_info(&S->types, t);
	if (ti->kind != TY_NOMINAL)
		return;
	Sym *y = sema_sym(S, (SymId)ti->decl);
	if (y->kind == SK_RESOURCE) {
		finalizer_effects_of(C, y);
		return;
	}
	for (int i = 0; i < y->nom->nfields; i++)
		owned_resources(C, sema_field_type(S, t, i), seen);
	for (int c = 0; c < y->nom->ncases; c++)
		for (int i = 0; i < y->nom->cases[c].nfields; i++)
			owned_resources(C, sema_case_field_type(S, t, c, i), seen);
}

static void dedupe_since(DiagSink *d, int from);

/* E103: owning a resource whose imported finalizer uses effects needs them
 * (once per missing effect). */
static void
check_finalizer_effects(FnCtx *C)
{
	Sym *f = C->sym;
	int mark = C->S->diags->items.len;
	TypeIdVec seen = {0};
	for (int i = 0; i < f->nparams; i++)
		if (f->params[i].mode == MODE_OWN)
			owned_resources(C, f->params[i].type, &seen);
	VEC_FREE(seen);
	dedupe_since(C->S->diags, mark);
}

/* Appends `{ a, b, e }`: names plus e, or names with names[swap] replaced
 * by e when swap >= 0. */
static void
effect_set_plus(Buf *b, const char *const *names, int n, const char *e, int swap)
{
	buf_puts(b, "{ ");
	for (int i = 0; i < n; i++)
		buf_printf(b, "%s%s", i ? ", " : "", i == swap ? e : names[i]);
	if (swap < 0)
		buf_printf(b, "%s%s", n ? ", " : "", e);
	buf_puts(b, " }");
}

/* The index of a name in names that is e shortened by leading segments
 * (`stdout.write` for `process.stdout.write`), or -1. */
static int
short_spelling(const char *const *names, int n, const char *e)
{
	size_t el = strlen(e);
	for (int i = 0; i < n; i++) {
		size_t nl = strlen(names[i]);
		if (nl < el && e[el - nl - 1] == '.' && memcmp(e + el - nl, names[i], nl) == 0)
			return i;
	}
	return -1;
}

/* The fix adding the effects es[0..n) to f's `uses` line, or writing one
 * below its signature, indented one level past the `fn` (a tab when the
 * `fn`, or else the first indented line after it, is indented with tabs),
 * the line ended as the signature's (CRLF or LF). */
static void
uses_fix(Sema *S, Diag *d, const Sym *f, const char *const *es, int n)
{
	const FnDecl *fn = (f->kind == SK_FN || f->kind == SK_METHOD) && !f->origin ? f->fn : NULL;
	if (!fn || !fn->result || n == 0 || (fn->uses.present && fn->uses.nnames == 0))
		return;
	Buf b = {0};
	for (int i = 0; i < n; i++)
		buf_printf(&b, "%s%s", i || fn->uses.present ? ", " : "", es[i]);
	if (fn->uses.present) {
		uint32_t at = fn->uses.names[fn->uses.nnames - 1].span.end;
		diag_add_fix(d, at, at, b.data);
	} else {
		SpxLine l = spx_line_at(S->src, fn->header.start);
		if (l.indent == 0) {
			/* an unindented `fn`: the first line of the body that starts
			 * with a blank (the body's span bounds the scan) shows the level */
			uint32_t next = fn->result->span.end, stop = fn->body ? fn->body->span.end : next;
			while (next < stop && !(S->src[next] == '\n' && (S->src[next + 1] == ' ' || S->src[next + 1] == '\t')))
				next++;
			if (next < stop)
				l.level = spx_line_at(S->src, next + 1).level;
		}
		Buf t = {0};
		buf_printf(&t, "%s%.*s%suses { %s }", l.eol, (int)l.indent, S->src + l.start, l.level, b.data);
		diag_add_fix(d, fn->result->span.end, fn->result->span.end, t.data);
		buf_free(&t);
	}
	buf_free(&b);
}

/*
 * E102's help (the reference gives none): the `uses` line to write — the
 * function's existing one grown by e when it has one — and, when the module
 * does not permit e, its `permit` line likewise.  A name in either line that
 * is e with leading segments dropped (`stdout.write`) is replaced rather than
 * kept beside it: that spelling names no builtin's effect.
 */
static void
effect_help(Sema *S, Diag *d, const Sym *f, const char *e)
{
	Buf b = {0};
	const char *const *permits = (const char *const *)S->permits;
	int swap = short_spelling(f->effects, f->neffects, e);
	if (swap >= 0) {
		buf_printf(&b, "write the effect in full: replace `%s` with `%s` in `%s`'s `uses` line: `uses ", f->effects[swap], e, f->name);
		effect_set_plus(&b, f->effects, f->neffects, e, swap);
		buf_putc(&b, '`');
	} else if (f->neffects) {
		buf_printf(&b, "add `%s` to `%s`'s `uses` line: `uses ", e, f->name);
		effect_set_plus(&b, f->effects, f->neffects, e, -1);
		buf_putc(&b, '`');
	} else {
		buf_printf(&b, "add `uses { %s }` on its own line between the signature and `{`", e);
	}
	if (!effect_permitted(S, e)) {
		int pswap = short_spelling(permits, S->npermits, e);
		if (pswap >= 0) {
			buf_printf(&b, ", and replace `%s` likewise in the module's `permit` line: `permit ", permits[pswap]);
			effect_set_plus(&b, permits, S->npermits, e, pswap);
			buf_putc(&b, '`');
		} else if (S->npermits) {
			buf_puts(&b, ", and to the module's `permit` line: `permit ");
			effect_set_plus(&b, permits, S->npermits, e, -1);
			buf_putc(&b, '`');
		} else {
			buf_printf(&b, ", and `permit { %s }` at module level, below the `module` line", e);
		}
	}
	diag_set_help(d, "%s", b.data);
	buf_free(&b);
}

/* The host capability a newcomer's effect name most likely means
 * (`uses { stdout }`; qa31), or NULL: the name itself is admitted as a
 * user effect, which no host grants. */
static const char *
host_effect_meant(const char *e)
{
	static const char *const alias[][2] = {
		{ "stdout", "process.stdout.write" }, { "print", "process.stdout.write" }, { "io", "process.stdout.write" },
		{ "console", "process.stdout.write" }, { "output", "process.stdout.write" }, { "stderr", "process.stderr.write" },
		{ "stdin", "process.stdin.read" }, { "input", "process.stdin.read" }, { "args", "process.args.read" },
		{ "argv", "process.args.read" }, { "env", "process.environment.read" }, { "environment", "process.environment.read" },
		{ "clock", "clock.read" }, { "time", "clock.read" }, { "fs", "fs.read" }, { "file", "fs.read" },
		{ "file.read", "fs.read" }, { "file.write", "fs.write" }, { "process.stdout", "process.stdout.write" },
		{ "stdout.write", "process.stdout.write" }, { "process.args", "process.args.read" }, { "process.stdin", "process.stdin.read" },
	};
	return spx_word_text(alias, countof(alias), e);
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
			const char *meant = host_effect_meant(f->effects[i]);
			if (meant) {
				Buf b = {0};
				buf_printf(&b, "`%s` is not a host capability (`run` refuses a `main` that uses it); did you mean `%s`? write it in `uses { … }`",
				    f->effects[i], meant);
				if (!effect_permitted(S, meant)) {
					buf_puts(&b, " and permit it in the module: `permit ");
					const char *const *permits = (const char *const *)S->permits;
					effect_set_plus(&b, permits, S->npermits, meant, short_spelling(permits, S->npermits, meant));
					buf_putc(&b, '`');
				}
				diag_set_help(d, "%s", b.data);
				buf_free(&b);
			} else if (S->npermits) {
				Buf b = {0};
				buf_printf(&b, "add `%s` to the module's `permit` line: `permit ", f->effects[i]);
				effect_set_plus(&b, (const char *const *)S->permits, S->npermits, f->effects[i], -1);
				buf_putc(&b, '`');
				diag_set_help(d, "%s", b.data);
				buf_free(&b);
			} else {
				diag_set_help(d, "add `permit { %s }` at module level, below the `module` line", f->effects[i]);
			}
		}
	}
	/* the permitted effects the calls miss (plain names, not a short spelling
	 * of one `uses` names): the first E102 carries one fix adding them all */
	const char *missing[16];
	int nmissing = 0;
	int first = -1;   /* the first E102's index (the vector grows: no pointer) */
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
			effect_help(S, d, f, need[j]);
			if (first < 0 && d)
				first = S->diags->items.len - 1;
			/* an effect the module does not permit gets no fix (applying it
			 * would leave E101, whose `permit` line no fix may write) */
			bool seen = strchr(need[j], ',') != NULL || short_spelling(f->effects, f->neffects, need[j]) >= 0 ||
			    !effect_permitted(S, need[j]) || nmissing == (int)countof(missing);
			for (int k = 0; k < nmissing && !seen; k++)
				seen = strcmp(missing[k], need[j]) == 0;
			if (!seen)
				missing[nmissing++] = need[j];
		}
	}
	if (first >= 0 && nmissing) {
		/* (no fix for the `permit` line: the service re-places a body's
		 * diagnostics by its declaration's start, and that line lies outside) */
		uses_fix(S, &S->diags->items.items[first], f, missing, nmissing);
	}
}

/* sema_type_holds (the reference's contains_resource / contains_owned_bytes): typeq.c */

/* Does t own text only: is every value reachable through its fields, payload
 * fields and type arguments a `string` or Copy?  (A record, class or variant,
 * generic or not, `Option`/`Result` of such, nested at any depth.)  A type
 * nested deeper than 64 levels counts as owning more. */
static bool
text_only(Sema *S, TypeId t, int depth)
{
	if (t == T_STRING || sema_is_copy(S, t))
		return true;
	const TypeInfo *ti = sema_type_info(&S->types, t);
	if (ti->kind != TY_NOMINAL || depth > 64)
		return false;
	Sym *y = sema_sym(S, (SymId)ti->decl);
	if (y->kind != SK_RECORD && y->kind != SK_CLASS && y->kind != SK_VARIANT)
		return false;
	if ((SymId)ti->decl == S->sym_iterstep)
		return false;
	for (int i = 0; i < y->nom->nfields; i++)
		if (!text_only(S, sema_field_type(S, t, i), depth + 1))
			return false;
	for (int c = 0; c < y->nom->ncases; c++)
		for (int i = 0; i < y->nom->cases[c].nfields; i++)
			if (!text_only(S, sema_case_field_type(S, t, c, i), depth + 1))
				return false;
	return true;
}

/*
 * Must a parameter of type t state `own`, `borrow` or `shared` (O001 when it
 * does not)?  The newest reference's check_ownership_mode asks it of `Box`,
 * `Vec` and anything holding `Bytes` or a resource; we add maps, sets,
 * iterators and readers.  A record, class or variant (generic or not, and
 * `Option`/`Result` of them) that is not Copy follows the rule of what it
 * holds, at any depth: owning only text (text_only) it takes no mode, like a
 * `string`, and owns its argument (§0.1: the reference asks a text record for
 * no mode); holding a collection, a `Box` or `Bytes` anywhere it needs one,
 * as the collection itself does.
 */
static bool
needs_mode(Sema *S, TypeId t)
{
	const TypeInfo *ti = sema_type_info(&S->types, t);
	switch (ti->kind) {
	case TY_MAP: case TY_SET: case TY_ITER: case TY_BOX: case TY_VEC: case TY_READER:
		return true;
	case TY_NOMINAL: {
		Sym *y = sema_sym(S, (SymId)ti->decl);
		if (y->kind == SK_RESOURCE || (SymId)ti->decl == S->sym_iterstep)
			return true;
		if ((y->kind == SK_RECORD || y->kind == SK_CLASS || y->kind == SK_VARIANT) && !sema_is_copy(S, t))
			return !text_only(S, t, 0);
		break;
	}
	default:
		break;
	}
	return sema_type_holds(S, t, true);
}

/* The fix deleting a parameter's written mode word (qa37): `x: borrow i64`
 * becomes `x: i64`.  The word is found after the name and its `:`; nothing
 * is offered when the text is not that shape. */
static void
mode_word_fix(Sema *S, Diag *d, const ParamSym *p, const char *word)
{
	size_t k = p->span.end, n = strlen(word), len = S->src ? S->len : 0;
	while (k < len && (S->src[k] == ' ' || S->src[k] == '\t'))
		k++;
	if (k >= len || S->src[k] != ':')
		return;
	k++;
	while (k < len && (S->src[k] == ' ' || S->src[k] == '\t'))
		k++;
	size_t w = k, e = k + n;
	if (e >= len || memcmp(S->src + w, word, n) != 0 || (S->src[e] != ' ' && S->src[e] != '\t'))
		return;
	while (e < len && (S->src[e] == ' ' || S->src[e] == '\t'))
		e++;
	diag_add_fix(d, (uint32_t)w, (uint32_t)e, "");
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
	if (needs_mode(S, t)) {
		if (p->mode == MODE_NONE) {
			Diag *d = sema_error(S, DIAG_O001, p->span, "resource parameter `%s.%s` needs `own`, `borrow`, or `shared`", f->name, p->name);
			diag_set_help(d, "use `%s: borrow %s` to read it (the caller keeps it), or `%s: own %s` to take it", p->name, sema_type_name(S, t), p->name, sema_type_name(S, t));
		}
		return;
	}
	if (p->mode == MODE_NONE)
		return;
	if (sema_type_info(&S->types, t)->kind == TY_PARAM) {
		/* a declaration error of the generic signature, as the reference's
		 * T224: a bare type parameter is taken by value (its substitutions
		 * are checked per instance) */
		Diag *d = sema_error(S, DIAG_T224, p->span, "generic function `%s.%s` takes its type parameter `%s` by value, without an ownership mode",
		    f->name, p->name, sema_type_name(S, t));
		diag_set_help(d, "remove `%s`: `%s: %s`", words[p->mode], p->name, sema_type_name(S, t));
		mode_word_fix(S, d, p, words[p->mode]);
	} else if (t == T_STRING) {
		Diag *d = sema_error(S, DIAG_O002, p->span, "string parameters own their input implicitly; an explicit ownership mode is not admitted");
		diag_set_help(d, "use `%s: string` to transfer ownership; for a read-only helper, use `%s: borrow str`, and the caller lends its string: `string_as_str(s)` "
		    "(`borrow string` is how `help library` spells the compiler-owned text functions, which read a `string` without taking it; your own functions cannot)", p->name, p->name);
		if (p->mode == MODE_OWN)   /* `own string` says what the plain type means: drop the word */
			mode_word_fix(S, d, p, "own");
	} else if (sema_is_copy(S, t)) {
		Diag *d = sema_error(S, DIAG_O002, p->span, "ownership mode `%s` is only valid for resource types; `%s` is a value type",
		    words[p->mode], sema_type_name(S, t));
		diag_set_help(d, "remove `%s`: `%s: %s`", words[p->mode], p->name, sema_type_name(S, t));
		mode_word_fix(S, d, p, words[p->mode]);
	}
	/* other owned types exist only through lifted generics and payloads (§0.1): any mode */
}

static TypeId
param_type(FnCtx *C, int i)
{
	return sema_fn_type(C, C->sym->params[i].type);
}

static void
check_params(FnCtx *C)
{
	Sema *S = C->S;
	Sym *f = C->sym;
	/* the names of the parameters before this one: compared pairwise while
	 * there are few (no map to set up per function) */
	StrMap seen = {0};
	bool few = f->nparams <= 16;
	for (int i = 0; i < f->nparams; i++) {
		ParamSym *p = &f->params[i];
		bool dup = false;
		if (few) {
			for (int j = 0; j < i && !dup; j++)
				dup = strcmp(f->params[j].name, p->name) == 0;
		} else
			dup = !sema_strmap_put(&seen, p->name, i);
		check_param_mode(S, f, p);
		if (p->name[0] == 'm' && strcmp(p->name, "mut") == 0) {
			Diag *d = sema_error(S, DIAG_U103, p->span, "`mut` is only valid in a local `let mut` binding");
			diag_set_help(d, "parameters are immutable; copy into `let mut` inside the body");
			continue;
		}
		if (!sema_source_identifier(p->name)) {
			Diag *d = sema_error(S, DIAG_S105, p->span, "`%s` is not a valid parameter identifier", p->name);
			diag_set_help(d, "`%s` has a meaning of its own in SEMAPRAX; choose another name", p->name);
			continue;
		}
		if (dup) {
			Diag *d = sema_error(S, DIAG_T102, p->span, "duplicate parameter `%s`", p->name);
			diag_set_help(d, "rename one of the parameters");
			continue;
		}
		Local l = { p->name, param_type(C, i), false, p->span, p->mode == MODE_BORROW || p->mode == MODE_SHARED ? p->mode : MODE_NONE, -1, 0, true, false };
		sema_local_push(C, l);
	}
	sema_strmap_free(&seen);
}

/* C102 with the reference's text: `… with effects {a, b}`. */
static void
effectful_in_contract(Sema *S, const CallSite *cs, const char *what, const char *owner)
{
	Buf eb = {0};
	buf_putc(&eb, '{');
	if (cs->effect) {
		buf_puts(&eb, cs->effect);
	} else {
		Sym *g = sema_sym(S, cs->callee);
		for (int j = 0; j < g->neffects; j++)
			buf_printf(&eb, "%s%s", j ? ", " : "", g->effects[j]);
	}
	buf_putc(&eb, '}');
	Diag *d = sema_error(S, DIAG_C102, cs->span, "%s on `%s` calls effectful function `%s` with effects %s", what, owner, cs->name, eb.data);
	diag_set_help(d, "contracts must be deterministic and effect-free");
	buf_free(&eb);
}

static void
check_clause(FnCtx *C, const Clause *c, const char *what)
{
	C->in_contract = true;
	C->in_ensures = c->kind == CLAUSE_ENSURES;
	int ncalls = C->calls.len;
	TypeId t = sema_check_expr(C, c->cond);
	for (int k = ncalls; k < C->calls.len; k++) {
		const CallSite *cs = &C->calls.items[k];
		if (cs->effect || (cs->callee >= 0 && sema_sym(C->S, cs->callee)->neffects > 0)) {
			effectful_in_contract(C->S, cs, what, C->sym->name);
		}
	}
	C->in_contract = false;
	C->in_ensures = false;
	if (t != T_BOOL && t != T_ERR) {
		Diag *d = sema_error(C->S, DIAG_C101, c->cond->span, "%s on `%s` must be bool", what, C->sym->name);
		diag_set_help(d, "write a comparison, e.g. `%s > 0`", C->sym->nparams ? C->sym->params[0].name : "value");
	}
}

/* ---- per-function storage kept for the next function (check_function, own.c) ---- */

void *
sema_spare_take(void **slot, void *ctx, size_t size)
{
	void *k = *slot;
	spx_zero(ctx, size);
	*slot = NULL;
	return k;
}

void
sema_spare_keep(void **slot, void *k, void *ctx, size_t size, void (*release)(void *))
{
	if (*slot) {   /* a nested use kept one first */
		release(ctx);
		free(k);
		return;
	}
	if (!k)
		k = spx_xmalloc(size);
	memcpy(k, ctx, size);
	*slot = k;
}

void
sema_spare_free(void **slot, void (*release)(void *))
{
	void *k = *slot;
	if (!k)
		return;
	*slot = NULL;
	release(k);
	free(k);
}

/*
 * A function's binding vectors and name index are kept in Sema.fn_spare for
 * the next function (as own.c's): taken emptied, given back into the same
 * block; a nested use would find none and start fresh.
 */
static FnCtx *
fn_take(Sema *S, FnCtx *C)
{
	FnCtx *k = sema_spare_take(&S->fn_spare, C, sizeof *C);
	if (k) {
		VEC_ADOPT(C->locals, k->locals);
		VEC_ADOPT(C->marks, k->marks);
		VEC_ADOPT(C->owned_locals, k->owned_locals);
		VEC_ADOPT(C->calls, k->calls);
		C->local_index = k->local_index;
	}
	return k;
}

static void
fn_release(void *p)
{
	FnCtx *C = p;
	sema_local_free(C);
	VEC_FREE(C->calls);
}

/* k: the block fn_take returned (NULL: none). */
static void
fn_give_back(Sema *S, FnCtx *C, FnCtx *k)
{
	sema_strmap_clear(&C->local_index);
	C->locals.len = C->marks.len = C->owned_locals.len = C->calls.len = 0;
	sema_spare_keep(&S->fn_spare, k, C, sizeof *C, fn_release);
}

static void
check_function(Sema *S, SymId id, const TypeId *targs, int ntargs)
{
	FnCtx C;
	FnCtx *spare = fn_take(S, &C);
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
	TypeId declared_result = sema_fn_type(&C, C.sym->result);
	const char *view = declared_result == T_ERR ? NULL : sema_type_view(S, declared_result);
	if (declared_result == T_STR) {
		Diag *d = sema_error(S, DIAG_O116, C.sym->span, "function `%s` cannot return borrowed `str`; borrowed text is confined to the invocation", C.sym->name);
		diag_set_help(d, "return an owned `string`, e.g. `string_from_str(view)`");
	} else if (declared_result == T_SLICE) {
		Diag *d = sema_error(S, DIAG_T264, C.sym->span, "function `%s` cannot return borrowed `Slice<u8>`; byte views cannot escape their invocation", C.sym->name);
		diag_set_help(d, "return owned `Bytes`, e.g. `bytes_copy(view)`");
	} else if (view) {
		/* §0.1 lets Box/Vec/Option/generic records carry views: not out of a call either */
		Diag *d = sema_error(S, view[0] == 's' ? DIAG_O116 : DIAG_T264, C.sym->span, "function `%s` cannot return %s, which holds a borrowed `%s`; views cannot escape their invocation",
		    C.sym->name, sema_type_name(S, declared_result), view);
		diag_set_help(d, "%s", view[0] == 's' ? "carry owned `string` values instead, e.g. `string_from_str(view)`" : "carry owned `Bytes` instead, e.g. `bytes_copy(view)`");
	}
	if (fn->body) {
		TypeId t = sema_check_block(&C, fn->body);
		Sym *f = C.sym;
		TypeId want = sema_fn_type(&C, f->result);
		const Expr *tail = fn->body->tail;
		SymId callee = tail && tail->kind == EXPR_CALL ? sema_expr_sym(S, tail->id) : -1;
		if (t != T_ERR && want != T_ERR && !sema_type_accepts(S, want, t) && f->ntparams && callee >= 0 &&
		    sema_sym(S, callee)->kind == SK_FN && sema_sym(S, callee)->ntparams) {
			/* the reference's generic forwarding: a template whose result is a
			 * generic call mapping to another type is an invalid generic call */
			Diag *d = sema_error(S, DIAG_T225, tail->span, "generic call `%s<…>` does not yield the result `%s` declares for every type argument",
			    sema_sym(S, callee)->name, f->name);
			diag_set_help(d, "map the type arguments so the call returns the declared result (e.g. `%s<T>(…)` in `fn %s<T>(…) -> T`)",
			    sema_sym(S, callee)->name, f->name);
		} else if (t != T_ERR && want != T_ERR && !sema_type_accepts(S, want, t)) {
			Diag *d = sema_error(S, DIAG_T103, fn->body->span, "function `%s` returns %s, but its signature declares %s", f->name,
			    sema_type_name(S, t), sema_type_name(S, want));
			bool checked = false;
			const char *conv = sema_conversion_builtin(want, t, &checked);
			bool entry = strcmp(f->name, "main") == 0 && want == T_I64;   /* `main` keeps `-> i64` (T104) */
			bool keep = entry || t == T_STR;   /* a view never leaves its function (qa39) */
			if (conv)
				diag_set_help(d, "make the final expression a value of type `%s`: convert it with `%s(…)`%s%s%s", sema_type_name(S, want), conv,
				    keep ? "" : ", or declare `-> ", keep ? "" : sema_type_name(S, t), keep ? "" : "`");
			else if (entry)
				diag_set_help(d, "make the final expression an `i64` (main's value is the exit status; take an Option or Result apart with `match`)");
			else
				diag_set_help(d, "make the final expression a value of type `%s`, or declare `-> %s`", sema_type_name(S, want), sema_type_name(S, t));
			uint32_t ts, te;
			if (conv && entry && tail && sema_expr_extent(S, tail, &ts, &te)) {
				/* `main`'s one answer (qa37): the tail wrapped in the conversion */
				Buf open = {0};
				buf_printf(&open, "%s(", conv);
				diag_add_fix(d, ts, ts, open.data);
				diag_add_fix(d, te, te, ")");
				buf_free(&open);
			}
		}
		/* O104: the body lends (a `borrow`/`shared` parameter or binding) where an owned result is due */
		ParamMode bm = fn->body->tail ? sema_expr_mode(S, fn->body->tail->id) : MODE_NONE;
		if (t != T_ERR && want != T_ERR && !sema_is_copy(S, want) && (bm == MODE_BORROW || bm == MODE_SHARED)) {
			Diag *d = sema_error(S, DIAG_O104, fn->body->span, "function `%s` cannot return a %s resource as owned", f->name,
			    bm == MODE_BORROW ? "borrow" : "shared");
			diag_set_help(d, "return an owned resource or declare a future lifetime-bound view");
		}
	}
	for (int i = 0; i < fn->nclauses; i++)
		if (fn->clauses[i].kind == CLAUSE_ENSURES)
			check_clause(&C, &fn->clauses[i], "postcondition");
	sema_own_check_function(S, id);   /* needs the typed contracts too */
	check_effects(&C);
	fn_give_back(S, &C, spare);
}

static void
check_entry(Sema *S, bool library)
{
	SymId main_fn = sema_strmap_get(&S->fn_names, "main");
	if (main_fn < 0 && library)
		return;   /* a project module: the project says which need `main` */
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
	Span span = { 0, 0 };
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
 * records take none (C103), nor records with an owned field other than a
 * direct `string` (C104).
 */
static void
check_record_invariants(Sema *S, SymId id)
{
	Sym *r = sema_sym(S, id);
	const Decl *d = r->decl;
	if (!d || d->kind != DECL_RECORD || d->u.record.ninvariants == 0)
		return;
	if (r->ntparams) {
		Diag *dg = sema_error(S, DIAG_C103, d->u.record.invariants[0].span, "invariants on generic record `%s` are outside Record Invariants v1", r->name);
		diag_set_help(dg, "check the property in the functions that build `%s` values", r->name);
		return;
	}
	/* the newest reference admits owned fields that are direct `string`s
	 * (its T309 on producing such a record is lifted, §0.1) */
	for (int i = 0; i < r->nom->nfields; i++) {
		TypeId ft = r->nom->fields[i].type;
		if (ft != T_STRING && ft != T_ERR && !sema_is_copy(S, ft)) {
			Diag *dg = sema_error(S, DIAG_C104, d->u.record.invariants[0].span, "invariants on owned record `%s` have no ownership-preserving executable check", r->name);
			diag_set_help(dg, "use a Copy record for executable invariants, or check scalar observations in a function");
			return;
		}
	}
	FnCtx C;
	memset(&C, 0, sizeof C);
	C.S = S;
	C.fn = id;
	C.sym = r;
	C.in_contract = true;
	for (int i = 0; i < r->nom->nfields; i++) {
		Local l = { r->nom->fields[i].name, r->nom->fields[i].type, false, r->nom->fields[i].span, MODE_NONE, -1, 0, false, false };
		sema_local_push(&C, l);
	}
	for (int i = 0; i < d->u.record.ninvariants; i++) {
		const Clause *c = &d->u.record.invariants[i];
		int ncalls = C.calls.len;
		TypeId t = sema_check_expr(&C, c->cond);
		if (t != T_BOOL && t != T_ERR) {
			Diag *dg = sema_error(S, DIAG_C101, c->cond->span, "invariant on `%s` must be bool", r->name);
			diag_set_help(dg, "write a comparison over the fields, e.g. `%s >= 0`", r->nom->nfields ? r->nom->fields[0].name : "value");
		}
		for (int k = ncalls; k < C.calls.len; k++) {
			const CallSite *cs = &C.calls.items[k];
			bool effectful = cs->effect || (cs->callee >= 0 && sema_sym(S, cs->callee)->neffects > 0);
			if (effectful)
				effectful_in_contract(S, cs, "invariant", r->name);
		}
	}
	sema_local_free(&C);
	VEC_FREE(C.calls);
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
 * An operator refused in a template under one Copy scalar substitution
 * (T208, `a > b` with T = bool): the first line stays the operator's; the
 * help says the body is checked with every scalar for the parameter and
 * how a generic function orders or adds (a function parameter).
 */
static void
operator_template_help(Sema *S, const Sym *f, const TypeId *sub, int from)
{
	for (int j = from; j < S->diags->items.len; j++) {
		Diag *d = &S->diags->items.items[j];
		if (d->code != DIAG_T208)
			continue;
		/* the first substitution refusing it (dedupe keeps that one):
		 * the parameter not at i64 there */
		int k = f->ntparams == 2 && sub[0] == T_I64 ? 1 : 0;
		const char *t = f->tparams[k];
		diag_set_help(d, "the body of generic `%s` is checked with every Copy scalar for `%s`, and this does not type-check with `%s` = `%s`: take the operation as a function parameter, such as `less: fn(%s, %s) -> bool` or `add: fn(%s, %s) -> %s`, and call it instead",
		    f->name, t, t, sema_type_name(S, sub[k]), t, t, t, t, t);
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
			int before = S->diags->items.len;
			check_function(S, id, sub, f->ntparams);
			if (c > 0)   /* the i64 substitution's errors are not the parameter's */
				operator_template_help(S, f, sub, before);
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

/* The closure of instances stopped at a bound: T235 at the call that needed
 * one more (once; nothing past it was checked). */
static void
report_instance_bound(Sema *S)
{
	if (!S->instance_over.why)
		return;
	const char *name = sema_sym(S, S->instance_over.fn)->name;
	Diag *d;
	if (S->instance_over.why >= 3) {
		if (S->instance_over.why == 3)
			d = sema_error(S, DIAG_T235, S->instance_over.call,
			    "the program needs more than %d generic instances: this call of `%s` would add one more", SEMA_MAX_INSTANCES, name);
		else
			d = sema_error(S, DIAG_T235, S->instance_over.call,
			    "checking the program's generic instances takes more than %llu expression checks: the instance of `%s` this call needs is past them",
			    (unsigned long long)S->instance_budget, name);
		diag_set_help(d, "call generic functions with fewer distinct type arguments (and never with growing ones: `f<T>` reaching `f<Vec<T>>`), or move work that does not depend on the type parameters into non-generic functions");
		return;
	}
	if (S->instance_over.why == 1)
		d = sema_error(S, DIAG_T235, S->instance_over.call,
		    "instances of `%s` grow without bound: this call needs type arguments nested more than %d levels deep", name, SEMA_TYPE_MAX_DEPTH);
	else
		d = sema_error(S, DIAG_T235, S->instance_over.call,
		    "instances of `%s` grow without bound: this call needs type arguments of more than %d type nodes", name, SEMA_TYPE_MAX_NODES);
	diag_set_help(d, "when a generic function reaches itself again, directly or through other calls, pass type arguments that do not grow: `f<T>`, not `f<Vec<T>>`");
}

/* Instances with non-scalar arguments: an error shows as T225 at the call. */
static void
check_instances(Sema *S)
{
	uint64_t base = S->expr_checks;
	uint64_t budget = (uint64_t)S->m->nexprs * SEMA_INSTANCE_WORK_FACTOR;
	if (budget < SEMA_INSTANCE_WORK_FLOOR)
		budget = SEMA_INSTANCE_WORK_FLOOR;
	S->instance_budget = budget;
	for (int i = 0; i < S->ninstances && !S->instance_over.why; i++) {
		struct Instance in = S->instances[i];
		if (S->expr_checks - base > budget) {
			S->instance_over.why = 4;
			S->instance_over.fn = in.fn;
			S->instance_over.call = in.call;
			break;
		}
		if (in.skip)
			continue;
		int from = S->diags->items.len;
		int errors = S->diags->errors;
		int noted = S->ninstances;
		check_function(S, in.fn, in.targs, in.ntargs);
		if (S->diags->errors == errors) {
			while (S->diags->items.len > from)
				diag_remove(S->diags, S->diags->items.len - 1);
			continue;
		}
		for (int j = noted; j < S->ninstances; j++)
			S->instances[j].skip = true;
		char *msg = NULL;
		Buf where = {0};   /* our help: the failing body text, its code and help */
		for (int j = from; j < S->diags->items.len && !msg; j++) {
			const Diag *x = &S->diags->items.items[j];
			if (diag_info[x->code].sev == SEV_WARNING)
				continue;
			msg = spx_xstrdup(x->message);
			if (x->has_span && x->span.end > x->span.start && x->span.end <= S->len) {
				size_t n = x->span.end - x->span.start;
				const char *t = S->src + x->span.start;
				const char *nl = memchr(t, '\n', n);
				if (nl)
					n = (size_t)(nl - t);
				bool cut = n > 60;
				if (cut)   /* at a UTF-8 boundary */
					for (n = 60; n > 0 && ((unsigned char)t[n] & 0xC0) == 0x80; n--)
						;
				buf_printf(&where, "its body fails at `%.*s%s` (%s: %s)", (int)n, t, cut || nl ? "…" : "", diag_info[x->code].code,
				    x->help ? x->help : diag_info[x->code].help);
			}
		}
		while (S->diags->items.len > from)
			diag_remove(S->diags, S->diags->items.len - 1);
		Buf b = {0};
		for (int j = 0; j < in.ntargs; j++)
			buf_printf(&b, "%s%s", j ? ", " : "", sema_type_name(S, in.targs[j]));
		Sym *f = sema_sym(S, in.fn);
		Diag *d = sema_error(S, DIAG_T225, in.call, "instance `%s<%s>` of generic function `%s` does not type-check: %s", f->name,
		    b.data ? b.data : "", f->name, msg ? msg : "error");
		if (where.data)
			diag_set_help(d, "with these type arguments %s; call `%s` with type arguments its body supports, or change the body", where.data, f->name);
		else
			diag_set_help(d, "call `%s` with type arguments its body supports", f->name);
		buf_free(&where);
		buf_free(&b);
		free(msg);
	}
	S->instances_closed = true;
	report_instance_bound(S);
}

Sema *
sema_check(const Module *m, const char *src, size_t len, DiagSink *diags)
{
	return sema_check_linked(m, src, len, diags, NULL, -1);
}

/* Whether the body of symbol id is checked in this run (sema_check_select). */
static bool
selected(Sema *S, SymId id)
{
	if (!S->select)
		return true;
	const Sym *f = sema_sym(S, id);
	if (!f->decl && f->owner >= 0)
		f = sema_sym(S, f->owner);
	if (!f->decl)
		return true;
	return S->select[f->decl - S->m->decls];
}

Sema *
sema_check_linked(const Module *m, const char *src, size_t len, DiagSink *diags, const SemaLink *links, int nlinks)
{
	return sema_check_select(m, src, len, diags, links, nlinks, NULL, NULL);
}

Sema *
sema_check_select(const Module *m, const char *src, size_t len, DiagSink *diags, const SemaLink *links, int nlinks,
    const bool *select, int body_range[2])
{
	Sema *S = spx_xcalloc(1, sizeof *S);
	S->m = m;
	S->src = src;
	S->len = len;
	S->diags = diags;
	arena_init(&S->arena);
	arena_take_tail(&S->arena, m->arena);   /* freed before the tree's arena (driver_session_free) */
	sema_types_init(&S->types);
	S->module_name = sema_qname_text(S, &m->name);
	S->npermits = m->permit.nnames;
	S->permits = ARENA_ARRAY(&S->arena, const char *, m->permit.nnames ? m->permit.nnames : 1);
	for (int i = 0; i < m->permit.nnames; i++) {
		const QName *q = &m->permit.names[i];
		S->permits[i] = sema_qname_text(S, q);
	}
	S->expr_type_len = m->nexprs ? m->nexprs : 1;
	S->expr_type16 = spx_xcalloc(S->expr_type_len, sizeof(uint16_t));
	S->expr_mode = spx_xcalloc(SEMA_EXPR_MODE_BYTES(m->nexprs ? m->nexprs : 1), 1);
	if (m->field_assigns)
		sema_assign_owner_init(S);
	S->call_consumes = spx_xcalloc(m->ncalls ? m->ncalls : 1, sizeof(uint8_t *));
	S->call_builtin = spx_xcalloc(m->ncalls ? m->ncalls : 1, sizeof(Builtin *));
	S->sym_fn_mut = -1;
	/* A single file cannot resolve `use` imports: the reference reports G172
	 * (no span) before any other check and stops there. */
	if (body_range)
		body_range[0] = body_range[1] = diags->items.len;
	if (m->nuses > 0 && nlinks < 0) {
		Diag *d = diag_report(diags, DIAG_G172, NULL, "source module imports require Workspace Semantic Graph resolution");
		diag_set_help(d, "this module imports other modules, so check it through the project that owns it: `semaprax check <project-dir>` or its `semaprax.toml` (`semaprax new <dir>` makes one; the bundled `std.*` modules are named in its `[dependencies]`)");
		return S;
	}
	sema_decls_collect(S);
	if (nlinks > 0)
		sema_link_imports(S, links, nlinks);
	sema_decls_resolve(S);
	for (SymId id = 0; id < S->syms.len; id++) {
		sema_check_resource(S, id);
		check_record_invariants(S, id);
	}
	sema_check_interfaces(S);
	S->select = select;
	if (body_range)
		body_range[0] = S->diags->items.len;
	/* Class methods first (the reference's class pass), then functions in source order. */
	for (SymId id = 0; id < S->syms.len; id++)
		if (sema_sym(S, id)->kind == SK_METHOD && !sema_sym(S, id)->origin && selected(S, id))
			check_function(S, id, NULL, 0);
	for (SymId id = 0; id < S->syms.len; id++)
		if (sema_sym(S, id)->kind == SK_FN && !sema_sym(S, id)->origin && selected(S, id))
			check_template(S, id);
	check_instances(S);
	if (body_range)
		body_range[1] = S->diags->items.len;
	/* Leave the template's own types (type parameters) in the side tables for
	 * lowering: re-type each generic body unsubstituted, silently (a method
	 * of a generic class too: it is generic in the class's parameters). */
	for (SymId id = 0; id < S->syms.len; id++) {
		Sym *f = sema_sym(S, id);
		if ((f->kind != SK_FN && f->kind != SK_METHOD) || !f->ntparams || !selected(S, id))
			continue;
		int from = S->diags->items.len;
		check_function(S, id, NULL, 0);
		while (S->diags->items.len > from)
			diag_remove(S->diags, S->diags->items.len - 1);
	}
	check_entry(S, nlinks >= 0);
	return S;
}

/* ---- sparse and narrow per-expression facts -------------------------------------- */

void
sema_expr_type_widen(Sema *S, uint32_t id, TypeId t)
{
	if (S->expr_type16) {   /* the first type id past 16 bits: widen once */
		S->expr_type = spx_xmalloc(sizeof(TypeId) * S->expr_type_len);
		for (uint32_t i = 0; i < S->expr_type_len; i++)
			S->expr_type[i] = S->expr_type16[i];
		free(S->expr_type16);
		S->expr_type16 = NULL;
	}
	S->expr_type[id] = t;
}

static uint32_t
expr_slot(uint32_t id, uint32_t cap)
{
	uint32_t h = id * 2654435761u;
	return (h ^ (h >> 16)) & (cap - 1);
}

SymId
sema_expr_sym(const Sema *S, uint32_t id)
{
	const struct ExprSymMap *t = &S->expr_sym;
	if (!t->len)
		return -1;
	for (uint32_t i = expr_slot(id, t->cap);; i = (i + 1) & (t->cap - 1)) {
		if (t->slots[i].key == id + 1)
			return t->slots[i].sym;
		if (!t->slots[i].key)
			return -1;
	}
}

void
sema_expr_sym_set(Sema *S, uint32_t id, SymId sym)
{
	struct ExprSymMap *t = &S->expr_sym;
	if ((t->len + 1) * 4 > t->cap * 3) {
		/* first sized for one entry a call (most entries are calls' callees) */
		uint32_t cap = t->cap ? t->cap * 2 : 256;
		while (!t->cap && (uint64_t)cap * 3 < (uint64_t)S->m->ncalls * 4 && cap < (1u << 30))
			cap *= 2;
		struct ExprSymSlot *slots = spx_xcalloc(cap, sizeof *slots);
		for (uint32_t j = 0; j < t->cap; j++) {
			if (!t->slots[j].key)
				continue;
			uint32_t i = expr_slot(t->slots[j].key - 1, cap);
			while (slots[i].key)
				i = (i + 1) & (cap - 1);
			slots[i] = t->slots[j];
		}
		free(t->slots);
		t->slots = slots;
		t->cap = cap;
	}
	uint32_t i = expr_slot(id, t->cap);
	while (t->slots[i].key && t->slots[i].key != id + 1)
		i = (i + 1) & (t->cap - 1);
	if (!t->slots[i].key)
		t->len++;
	t->slots[i].key = id + 1;
	t->slots[i].sym = sym;
}

void
sema_closure_profile_set(Sema *S, uint32_t id, uint8_t profile)
{
	if (!S->closure_profile)
		S->closure_profile = spx_xcalloc(S->m->nexprs ? S->m->nexprs : 1, 1);
	S->closure_profile[id] = profile;
}

void
sema_free(Sema *S)
{
	if (!S)
		return;
	sema_types_free(&S->types);
	sema_typeq_free(S->typeq);
	sema_own_spare_free(S);
	sema_spare_free(&S->fn_spare, fn_release);
	if (S->import_index) {
		free(S->import_index->items);
		free(S->import_index->next);
		sema_strmap_free(&S->import_index->first);
		sema_strmap_free(&S->import_index->last);
		free(S->import_index);
	}
	sema_strmap_free(&S->type_names);
	sema_strmap_free(&S->fn_names);
	sema_strmap_free(&S->ids);
	sema_strmap_free(&S->words);
	free(S->words_text);
	for (SymId id = 0; id < S->syms.len; id++) {
		Sym *y = sema_sym(S, id);
		if (y->nom->case_map) {
			sema_strmap_free(y->nom->case_map);
			free(y->nom->case_map);
		}
		if (y->nom->field_map) {
			sema_strmap_free(y->nom->field_map);
			free(y->nom->field_map);
		}
		if (y->nom->method_map) {
			sema_strmap_free(y->nom->method_map);
			free(y->nom->method_map);
		}
		for (int c = 0; c < y->nom->ncases; c++) {
			if (y->nom->cases[c].field_map) {
				sema_strmap_free(y->nom->cases[c].field_map);
				free(y->nom->cases[c].field_map);
			}
		}
	}
	VEC_FREE(S->syms);
	free(S->expr_type16);
	free(S->expr_type);
	free(S->expr_sym.slots);
	free(S->assign_owner);
	free(S->expr_mode);
	free(S->call_consumes);
	free(S->own_reported);
	free(S->instances);
	free(S->instance_index);
	free(S->call_builtin);
	free(S->closure_profile);
	arena_free(&S->arena);
	free(S);
}

/* ---- the service's reusable resolve (sema.h) ---------------------------------- */

static void *
grow_table(void *p, size_t size, uint32_t from, uint32_t to)
{
	p = spx_xrealloc(p, size * (to ? to : 1));
	if (to > from)
		memset((char *)p + size * from, 0, size * (to - from));
	return p;
}

static void
recheck_span(Span *s, uint32_t at, int64_t delta)
{
	if (s->end == 0)
		return;
	if (s->start >= at)
		s->start = (uint32_t)((int64_t)s->start + delta);
	if (s->end >= at)
		s->end = (uint32_t)((int64_t)s->end + delta);
}

void
sema_recheck_select(Sema *S, const char *src, size_t len, uint32_t nexprs, uint32_t ncalls, uint32_t at, int64_t delta,
    const bool *select, int body_range[2])
{
	const Module *m = S->m;
	S->src = src;
	S->len = len;
	sema_strmap_clear(&S->words);   /* counted over the old source */
	free(S->words_text);
	S->words_text = NULL;
	if (m->nexprs > nexprs) {
		if (S->expr_type16 && m->nexprs > S->expr_type_len)
			S->expr_type16 = grow_table(S->expr_type16, sizeof(uint16_t), S->expr_type_len, m->nexprs);
		else if (m->nexprs > S->expr_type_len)
			S->expr_type = grow_table(S->expr_type, sizeof(TypeId), S->expr_type_len, m->nexprs);
		if (m->nexprs > S->expr_type_len)
			S->expr_type_len = m->nexprs;
		S->expr_mode = grow_table(S->expr_mode, 1, (uint32_t)SEMA_EXPR_MODE_BYTES(nexprs), (uint32_t)SEMA_EXPR_MODE_BYTES(m->nexprs));
		if (S->closure_profile)
			S->closure_profile = grow_table(S->closure_profile, 1, nexprs, m->nexprs);
		if (S->own_reported)
			S->own_reported = grow_table(S->own_reported, 1, nexprs, m->nexprs);
		if (S->assign_owner) {
			S->assign_owner = grow_table(S->assign_owner, sizeof(SymId), nexprs, m->nexprs);
			for (uint32_t i = nexprs; i < m->nexprs; i++)
				S->assign_owner[i] = -1;
		}
	}
	if (m->field_assigns && !S->assign_owner)
		sema_assign_owner_init(S);
	if (m->ncalls > ncalls) {
		S->call_consumes = grow_table(S->call_consumes, sizeof(uint8_t *), ncalls, m->ncalls);
		S->call_builtin = grow_table(S->call_builtin, sizeof(Builtin *), ncalls, m->ncalls);
	}
	if (delta) {
		/* the table read directly: 10,000s of symbols per refresh */
		for (SymId id = 0; id < S->syms.len; id++) {
			Sym *y = &S->syms.items[id];
			recheck_span(&y->name_span, at, delta);
			recheck_span(&y->span, at, delta);
			for (int i = 0; i < y->nparams; i++)
				recheck_span(&y->params[i].span, at, delta);
			for (int i = 0; i < y->nom->nfields; i++)
				recheck_span(&y->nom->fields[i].span, at, delta);
			for (int c = 0; c < y->nom->ncases; c++) {
				recheck_span(&y->nom->cases[c].span, at, delta);
				for (int i = 0; i < y->nom->cases[c].nfields; i++)
					recheck_span(&y->nom->cases[c].fields[i].span, at, delta);
			}
		}
	}
	S->select = select;
	body_range[0] = S->diags->items.len;
	for (SymId id = 0; id < S->syms.len; id++)
		if (S->syms.items[id].kind == SK_METHOD && !S->syms.items[id].origin && selected(S, id))
			check_function(S, id, NULL, 0);
	for (SymId id = 0; id < S->syms.len; id++)
		if (S->syms.items[id].kind == SK_FN && !S->syms.items[id].origin && selected(S, id))
			check_template(S, id);
	body_range[1] = S->diags->items.len;
}
