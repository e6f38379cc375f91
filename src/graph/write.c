/*
 * write.c — the semantic graph, schema `semaprax.graph.c1` (docs/GRAPH.md):
 * one compact JSON line with a fixed key order, written for agents:
 * positional rows where keys would repeat (parameters, fields, cases, type
 * facts, expression trees), no empty arrays (an absent key means none),
 * each digest once, identities as short as their scope allows (an
 * expression is its structural index inside its declaration's node).
 *
 * Types are written once, in the `types` table (type facts), in order of
 * first use while the nodes are rendered; everything else refers to a type
 * by its index there.  So the nodes are rendered first into a scratch
 * buffer, then the header, the table and the nodes are written out.
 */
#include "graph.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../fmt/fmt.h"
#include "../support/json.h"

struct GraphWriter {
	GraphModel *g;
	Sema *S;
	Buf *out;
	int *tindex;          /* TypeId → index + 1 in types (0: not yet) */
	int ntindex;
	VEC(TypeId) types;
	const HirFunc *f;     /* the function whose slots names refer to */
	const char **slots;   /* its slot names (unique within it) */
	Arena scratch;
};
typedef struct GraphWriter W;

static void w_expr(W *w, const HirExpr *e);
static void w_block(W *w, const HirBlock *b);

static void
key(W *w, const char *k)
{
	buf_puts(w->out, ",\"");
	buf_puts(w->out, k);
	buf_puts(w->out, "\":");
}

/* A non-negative integer in decimal (hot: every expression writes two). */
static void
put_uint(Buf *o, uint64_t v)
{
	char t[24];
	int n = 0;
	do {
		t[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	buf_reserve(o, (size_t)n);
	while (n)
		o->data[o->len++] = t[--n];
	o->data[o->len] = '\0';
}

static int
type_ref(W *w, TypeId t)
{
	if ((int)t >= w->ntindex) {
		int n = (int)t + 64;
		w->tindex = spx_xrealloc(w->tindex, sizeof(int) * (size_t)n);
		memset(w->tindex + w->ntindex, 0, sizeof(int) * (size_t)(n - w->ntindex));
		w->ntindex = n;
	}
	if (!w->tindex[t]) {
		VEC_PUSH(w->types, t);
		w->tindex[t] = w->types.len;
	}
	return w->tindex[t] - 1;
}

static void
put_type(W *w, TypeId t)
{
	put_uint(w->out, (uint64_t)type_ref(w, t));
}

static void
str(W *w, const char *s)
{
	json_cstr(w->out, s);
}

static void
str_list(W *w, const char *k, const char *const *items, int n)
{
	if (n <= 0)
		return;
	key(w, k);
	buf_putc(w->out, '[');
	for (int i = 0; i < n; i++) {
		if (i)
			buf_putc(w->out, ',');
		str(w, items[i]);
	}
	buf_putc(w->out, ']');
}

static void
id_list(W *w, const char *k, const int *items, int n)
{
	if (n <= 0)
		return;
	key(w, k);
	buf_putc(w->out, '[');
	for (int i = 0; i < n; i++) {
		if (i)
			buf_putc(w->out, ',');
		str(w, w->g->decls[items[i]].id);
	}
	buf_putc(w->out, ']');
}

/* ---- slots, fields, patterns ------------------------------------------------------ */

/* Slot names of f: the name, or `name#slot` when the function reuses the name. */
static void
enter_func(W *w, const HirFunc *f)
{
	w->f = f;
	w->slots = ARENA_ARRAY(&w->scratch, const char *, f->nlocals + 1);
	bool *dup = ARENA_ARRAY(&w->scratch, bool, f->nlocals + 1);
	StrMap first = { 0 };   /* name → its first slot (probed only, never iterated) */
	for (int i = 0; i < f->nlocals; i++) {
		if (!sema_strmap_put(&first, f->locals[i].name, i))
			dup[i] = dup[sema_strmap_get(&first, f->locals[i].name)] = true;
	}
	sema_strmap_free(&first);
	for (int i = 0; i < f->nlocals; i++)
		w->slots[i] = dup[i] ? arena_printf(&w->scratch, "%s#%d", f->locals[i].name, i) : f->locals[i].name;
}

static void
slot(W *w, HirSlot s)
{
	str(w, s < (HirSlot)w->f->nlocals ? w->slots[s] : "_");
}

/* The name of field `index` of a record or class type (the index when unknown). */
static const char *
field_name(W *w, TypeId t, int index, int case_index)
{
	const TypeInfo *ti = sema_type_info(&w->S->types, t);
	if (ti && ti->kind == TY_NOMINAL && (SymId)ti->decl < w->S->syms.len) {
		const Sym *s = sema_sym(w->S, (SymId)ti->decl);
		if (case_index >= 0 && case_index < s->nom->ncases && index >= 0 && index < s->nom->cases[case_index].nfields)
			return s->nom->cases[case_index].fields[index].name;
		if (case_index < 0 && index >= 0 && index < s->nom->nfields)
			return s->nom->fields[index].name;
	}
	return arena_printf(&w->scratch, "%d", index);
}

static const char *
case_name(W *w, TypeId t, int case_index)
{
	const TypeInfo *ti = sema_type_info(&w->S->types, t);
	if (ti && ti->kind == TY_NOMINAL && (SymId)ti->decl < w->S->syms.len) {
		const Sym *s = sema_sym(w->S, (SymId)ti->decl);
		if (case_index >= 0 && case_index < s->nom->ncases)
			return s->nom->cases[case_index].name;
	}
	return arena_printf(&w->scratch, "%d", case_index);
}

/* An arm's pattern as fmt prints it, so that two programs of one revision
 * have one graph (`Point { x: x }` is `Point { x }`); an arm made without
 * a source pattern prints its source text, whitespace runs folded. */
static void
pattern(W *w, const HirArm *a)
{
	const HirPattern *p = a->pat;
	if (a->src) {
		Buf t = {0};
		fmt_pattern_line(&t, a->src);
		json_str(w->out, t.data ? t.data : "", t.len);
		buf_free(&t);
		return;
	}
	const char *s = w->S->src + p->span.start;
	size_t n = p->span.end > p->span.start ? p->span.end - p->span.start : 0;
	Buf t = {0};
	bool space = false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			space = true;
			continue;
		}
		if (space && t.len)
			buf_putc(&t, ' ');
		space = false;
		buf_putc(&t, c);
	}
	json_str(w->out, t.data ? t.data : "", t.len);
	buf_free(&t);
}

/* ---- expressions -------------------------------------------------------------------- */

static void
head(W *w, const HirExpr *e, const char *op)
{
	buf_putc(w->out, '[');
	put_uint(w->out, e->index);
	buf_puts(w->out, e->temp ? ",\"~" : ",\"");
	buf_puts(w->out, op);
	buf_puts(w->out, "\",");
	put_type(w, e->type);
}

static void
literal(W *w, const HirExpr *e)
{
	Buf *o = w->out;
	switch (e->kind) {
	case HIR_INT:
		if (e->u.lit.i <= (UINT64_C(1) << 53))
			buf_printf(o, "%s%" PRIu64, e->u.lit.negative ? "-" : "", e->u.lit.i);
		else
			buf_printf(o, "\"%s%" PRIu64 "\"", e->u.lit.negative ? "-" : "", e->u.lit.i);
		return;
	case HIR_FLOAT: {
		Buf t = {0};
		fmt_float(&t, e->u.lit.f, SUF_NONE);
		if (isfinite(e->u.lit.f))
			buf_put(o, t.data, t.len);
		else
			json_str(o, t.data, t.len);
		buf_free(&t);
		return;
	}
	case HIR_BOOL: buf_puts(o, e->u.lit.b ? "true" : "false"); return;
	case HIR_CHAR: {
		char u[8];
		uint32_t c = e->u.lit.ch;
		size_t n = 0;
		if (c < 0x80) {
			u[n++] = (char)c;
		} else if (c < 0x800) {
			u[n++] = (char)(0xC0 | (c >> 6));
			u[n++] = (char)(0x80 | (c & 0x3F));
		} else if (c < 0x10000) {
			u[n++] = (char)(0xE0 | (c >> 12));
			u[n++] = (char)(0x80 | ((c >> 6) & 0x3F));
			u[n++] = (char)(0x80 | (c & 0x3F));
		} else {
			u[n++] = (char)(0xF0 | (c >> 18));
			u[n++] = (char)(0x80 | ((c >> 12) & 0x3F));
			u[n++] = (char)(0x80 | ((c >> 6) & 0x3F));
			u[n++] = (char)(0x80 | (c & 0x3F));
		}
		json_str(o, u, n);
		return;
	}
	case HIR_STRING: json_str(o, e->u.lit.s ? e->u.lit.s : "", e->u.lit.n); return;
	default: return;
	}
}

static void
callee(W *w, const HirExpr *e)
{
	Buf t = {0};
	switch (e->u.call.kind) {
	case CALL_FN:
		buf_puts(&t, e->u.call.fn >= 0 ? sema_sym(w->S, e->u.call.fn)->id : "?");
		break;
	case CALL_BUILTIN:
		buf_puts(&t, e->u.call.builtin ? e->u.call.builtin->id : "?");
		break;
	case CALL_SLOT:
		buf_putc(&t, '$');
		buf_puts(&t, e->u.call.callee < (HirSlot)w->f->nlocals ? w->slots[e->u.call.callee] : "_");
		break;
	}
	for (int i = 0; i < e->u.call.ntargs; i++) {
		buf_puts(&t, i ? "," : "<");
		buf_puts(&t, sema_type_name(w->S, e->u.call.targs[i]));
	}
	if (e->u.call.ntargs)
		buf_putc(&t, '>');
	json_str(w->out, t.data, t.len);
	buf_free(&t);
}

static void
items(W *w, HirExpr *const *xs, int n)
{
	for (int i = 0; i < n; i++) {
		buf_putc(w->out, ',');
		w_expr(w, xs[i]);
	}
}

static void
aggregate(W *w, const HirExpr *e)
{
	int ci = e->kind == HIR_VARIANT ? e->u.agg.case_index : -1;
	for (int i = 0; i < e->u.agg.n; i++) {
		buf_puts(w->out, ",[");
		str(w, field_name(w, e->type, e->u.agg.fields[i], ci));
		buf_putc(w->out, ',');
		w_expr(w, e->u.agg.values[i]);
		buf_putc(w->out, ']');
	}
}

static void
drops(W *w, const HirBlock *b)
{
	if (!b->nowned)
		return;
	buf_puts(w->out, ",[\"drop\"");
	for (int i = b->nowned - 1; i >= 0; i--) {
		buf_putc(w->out, ',');
		slot(w, b->owned[i]);
	}
	buf_putc(w->out, ']');
}

static void
closure(W *w, const HirExpr *e)
{
	const HirFunc *saved = w->f;
	const char **saved_slots = w->slots;
	const HirFunc *c = &w->g->H->funcs[e->u.closure.func];
	buf_putc(w->out, ',');
	str(w, c->id);
	buf_puts(w->out, ",{");
	bool first = true;
	if (e->u.closure.ncaptures) {
		buf_puts(w->out, "\"captures\":[");
		for (int i = 0; i < e->u.closure.ncaptures; i++) {
			if (i)
				buf_putc(w->out, ',');
			slot(w, e->u.closure.captures[i]);
		}
		buf_putc(w->out, ']');
		first = false;
	}
	enter_func(w, c);
	if (c->nparams) {
		buf_puts(w->out, first ? "\"params\":[" : ",\"params\":[");
		for (int i = 0; i < c->nparams; i++) {
			buf_puts(w->out, i ? ",[" : "[");
			slot(w, (HirSlot)i);
			buf_putc(w->out, ',');
			put_type(w, c->locals[i].type);
			buf_putc(w->out, ']');
		}
		buf_putc(w->out, ']');
		first = false;
	}
	buf_puts(w->out, first ? "\"body\":" : ",\"body\":");
	w_block(w, c->body);
	buf_putc(w->out, '}');
	w->f = saved;
	w->slots = saved_slots;
}

static void
match(W *w, const HirExpr *e)
{
	buf_putc(w->out, ',');
	w_expr(w, e->u.match.scrutinee);
	for (int i = 0; i < e->u.match.narms; i++) {
		const HirArm *a = &e->u.match.arms[i];
		buf_puts(w->out, ",[");
		pattern(w, a);
		if (a->guard) {
			buf_puts(w->out, ",[\"guard\",");
			w_expr(w, a->guard);
			buf_putc(w->out, ']');
		}
		buf_putc(w->out, ',');
		w_expr(w, a->value);
		if (a->scope)
			drops(w, a->scope);
		buf_putc(w->out, ']');
	}
}

static void
w_expr(W *w, const HirExpr *e)
{
	Buf *o = w->out;
	if (!e) {
		buf_puts(o, "null");
		return;
	}
	switch (e->kind) {
	case HIR_INT: case HIR_FLOAT: case HIR_BOOL: case HIR_CHAR: case HIR_STRING:
		head(w, e, "lit");
		buf_putc(o, ',');
		literal(w, e);
		break;
	case HIR_LOCAL: case HIR_MOVE:
		head(w, e, e->kind == HIR_LOCAL ? "var" : "move");
		buf_putc(o, ',');
		slot(w, e->u.slot);
		break;
	case HIR_FUNC:
		head(w, e, "fn");
		buf_putc(o, ',');
		callee(w, e);
		break;
	case HIR_UNARY:
		head(w, e, e->u.un.op == UN_NEG ? "neg" : "!");
		items(w, &e->u.un.x, 1);
		break;
	case HIR_BINARY:
		head(w, e, ast_binary_spelling(e->u.bin.op));
		buf_putc(o, ',');
		w_expr(w, e->u.bin.l);
		buf_putc(o, ',');
		w_expr(w, e->u.bin.r);
		break;
	case HIR_CALL:
		head(w, e, "call");
		buf_putc(o, ',');
		callee(w, e);
		items(w, e->u.call.args, e->u.call.nargs);
		break;
	case HIR_FIELD:
		head(w, e, e->u.field.take ? "take" : "field");
		buf_putc(o, ',');
		str(w, field_name(w, e->u.field.base ? e->u.field.base->type : T_ERR, e->u.field.field, -1));
		items(w, &e->u.field.base, 1);
		break;
	case HIR_TRY:
		head(w, e, "?");
		items(w, &e->u.try_.x, 1);
		break;
	case HIR_WITH:
		head(w, e, "with");
		items(w, &e->u.agg.base, 1);
		aggregate(w, e);
		break;
	case HIR_RECORD:
		head(w, e, "record");
		aggregate(w, e);
		break;
	case HIR_VARIANT:
		head(w, e, "variant");
		buf_putc(o, ',');
		str(w, case_name(w, e->type, e->u.agg.case_index));
		aggregate(w, e);
		break;
	case HIR_BLOCK:
		head(w, e, "block");
		buf_putc(o, ',');
		w_block(w, e->u.block);
		break;
	case HIR_IF:
		head(w, e, "if");
		items(w, &e->u.if_.cond, 1);
		buf_putc(o, ',');
		w_block(w, e->u.if_.then_);
		if (e->u.if_.else_) {
			buf_putc(o, ',');
			w_block(w, e->u.if_.else_);
		}
		break;
	case HIR_MATCH:
		head(w, e, e->u.match.mode == MATCH_OWN ? "match own" : e->u.match.mode == MATCH_BORROW ? "match borrow" : "match");
		match(w, e);
		break;
	case HIR_CLOSURE:
		head(w, e, "closure");
		closure(w, e);
		break;
	case HIR_ARRAY:
		head(w, e, "array");
		items(w, e->u.array.elems, e->u.array.n);
		break;
	}
	buf_putc(o, ']');
}

/* ---- statements and blocks ------------------------------------------------------------ */

static void
w_stmt(W *w, const HirStmt *s)
{
	Buf *o = w->out;
	switch (s->kind) {
	case HS_LET:
	case HS_ASSIGN:
		buf_puts(o, s->kind == HS_LET ? "[\"let\"," : "[\"set\",");
		slot(w, s->slot);
		items(w, &s->value, 1);
		break;
	case HS_SET_FIELD: {
		buf_puts(o, "[\"set\",");
		TypeId t = s->slot < (HirSlot)w->f->nlocals ? w->f->locals[s->slot].type : T_ERR;
		const char *base = s->slot < (HirSlot)w->f->nlocals ? w->slots[s->slot] : "_";
		str(w, arena_printf(&w->scratch, "%s.%s", base, field_name(w, t, s->field, -1)));
		items(w, &s->value, 1);
		break;
	}
	case HS_WHILE:
		buf_puts(o, "[\"while\"");
		items(w, &s->value, 1);
		buf_putc(o, ',');
		w_block(w, s->body);
		break;
	case HS_FOR:
		buf_puts(o, s->own ? "[\"for own\"," : "[\"for\",");
		slot(w, s->slot);
		items(w, &s->value, 1);
		buf_putc(o, ',');
		w_block(w, s->body);
		break;
	case HS_EXPR:
		buf_puts(o, "[\"expr\"");
		items(w, &s->value, 1);
		break;
	case HS_UNSAFE:
		buf_puts(o, "[\"unsafe\",");
		w_block(w, s->body);
		break;
	}
	buf_putc(o, ']');
}

static void
w_block(W *w, const HirBlock *b)
{
	Buf *o = w->out;
	buf_putc(o, '[');
	if (!b) {
		buf_putc(o, ']');
		return;
	}
	bool first = true;
	for (int i = 0; i < b->nstmts; i++) {
		if (!first)
			buf_putc(o, ',');
		first = false;
		w_stmt(w, b->stmts[i]);
	}
	if (b->tail) {
		if (!first)
			buf_putc(o, ',');
		first = false;
		w_expr(w, b->tail);
	}
	if (b->nowned) {
		if (first) {
			/* drops() writes a leading comma */
			buf_puts(o, "[\"drop\"");
			for (int i = b->nowned - 1; i >= 0; i--) {
				buf_putc(o, ',');
				slot(w, b->owned[i]);
			}
			buf_putc(o, ']');
		} else {
			drops(w, b);
		}
	}
	buf_putc(o, ']');
}

/* ---- nodes ------------------------------------------------------------------------------- */

static void
params(W *w, const GraphDecl *d)
{
	if (!d->nparams)
		return;
	key(w, "params");
	buf_putc(w->out, '[');
	for (int i = 0; i < d->nparams; i++) {
		buf_puts(w->out, i ? ",[" : "[");
		str(w, d->params[i].name);
		buf_putc(w->out, ',');
		put_type(w, d->params[i].type);
		if (strcmp(d->params[i].mode, "value") != 0) {
			buf_putc(w->out, ',');
			str(w, d->params[i].mode);
		}
		buf_putc(w->out, ']');
	}
	buf_putc(w->out, ']');
}

static void
contracts(W *w, const GraphDecl *d, const char *req_key)
{
	str_list(w, req_key, (const char *const *)d->requires, d->nrequires);
	str_list(w, "ensures", (const char *const *)d->ensures, d->nensures);
}

static void
edges(W *w, const GraphDecl *d)
{
	id_list(w, "calls", d->calls, d->ncalls);
	str_list(w, "builtins", d->builtins, d->nbuiltins);
}

static bool
has_members(const GraphModel *g, int owner, GraphKind kind)
{
	for (int i = owner + 1; i < g->ndecls && g->decls[i].owner >= owner; i++)
		if (g->decls[i].owner == owner && g->decls[i].kind == kind)
			return true;
	return false;
}

/* Rows of the members of kind `kind` owned by decl index `owner`. */
static void
member_rows(W *w, int owner, GraphKind kind)
{
	GraphModel *g = w->g;
	bool first = true;
	for (int i = owner + 1; i < g->ndecls && g->decls[i].owner >= owner; i++) {
		const GraphDecl *m = &g->decls[i];
		if (m->owner != owner || m->kind != kind)
			continue;
		buf_puts(w->out, first ? "[[" : ",[");
		first = false;
		str(w, m->id);
		buf_putc(w->out, ',');
		str(w, m->name);
		if (kind == GK_FIELD || kind == GK_CASE_FIELD) {
			buf_putc(w->out, ',');
			put_type(w, m->type);
		} else if (kind == GK_CASE) {
			if (has_members(g, i, GK_CASE_FIELD)) {
				buf_putc(w->out, ',');
				member_rows(w, i, GK_CASE_FIELD);
			}
		}
		buf_putc(w->out, ']');
	}
	if (!first)
		buf_putc(w->out, ']');
}


static void
resource_drop(W *w, const GraphDecl *d)
{
	const Sym *s = sema_sym(w->S, d->sym);
	const Decl *decl = s->decl;
	if (!decl || !decl->u.resource.ndrops)
		return;
	key(w, "drop");
	buf_putc(w->out, '[');
	if (ast_resource_drop0(decl)->id.present)
		json_str(w->out, ast_resource_drop0(decl)->id.value.s, ast_resource_drop0(decl)->id.value.len);
	else
		buf_puts(w->out, "null");
	if (ast_resource_drop0(decl)->trivial) {
		buf_puts(w->out, ",\"trivial\"");
	} else {
		buf_puts(w->out, ",\"import\",");
		json_str(w->out, ast_resource_drop0(decl)->import.s, ast_resource_drop0(decl)->import.len);
	}
	buf_putc(w->out, ']');
}

static void
node(W *w, int i)
{
	GraphModel *g = w->g;
	const GraphDecl *d = &g->decls[i];
	Buf *o = w->out;
	buf_puts(o, "{\"id\":");
	str(w, d->id);
	buf_puts(o, ",\"kind\":\"");
	buf_puts(o, graph_kind_names[d->kind]);
	buf_puts(o, "\",\"name\":");
	str(w, d->name);
	if (d->owner >= 0) {
		key(w, "owner");
		str(w, g->decls[d->owner].id);
	}
	str_list(w, "tparams", d->tparams, d->ntparams);
	switch (d->kind) {
	case GK_FUNCTION:
	case GK_METHOD:
		params(w, d);
		key(w, "result");
		put_type(w, d->type);
		str_list(w, "effects", d->effects, d->neffects);
		contracts(w, d, "requires");
		edges(w, d);
		if (d->func >= 0) {
			const HirFunc *f = &g->H->funcs[d->func];
			enter_func(w, f);
			key(w, "body");
			w_block(w, f->body);
		}
		break;
	case GK_RECORD:
	case GK_CLASS:
		if (d->kind == GK_CLASS && sema_sym(w->S, d->sym)->nom->parent >= 0) {
			key(w, "parent");
			str(w, sema_sym(w->S, sema_sym(w->S, d->sym)->nom->parent)->id);
		}
		if (has_members(g, i, GK_FIELD)) {
			key(w, "fields");
			member_rows(w, i, GK_FIELD);
		}
		contracts(w, d, "invariants");
		edges(w, d);
		break;
	case GK_VARIANT:
		if (has_members(g, i, GK_CASE)) {
			key(w, "cases");
			member_rows(w, i, GK_CASE);
		}
		break;
	case GK_RESOURCE:
		resource_drop(w, d);
		break;
	case GK_INTERFACE:
		str_list(w, "permits", d->effects, d->neffects);
		if (has_members(g, i, GK_IMPORT)) {
			key(w, "imports");
			member_rows(w, i, GK_IMPORT);
		}
		break;
	default:
		break;
	}
	buf_putc(o, '}');
}

static bool
is_row(GraphKind k)
{
	return k == GK_FIELD || k == GK_CASE || k == GK_CASE_FIELD || k == GK_IMPORT;
}

static const char *
type_class(Sema *S, TypeId t)
{
	const TypeInfo *ti = sema_type_info(&S->types, t);
	if (ti && ti->kind == TY_PARAM)
		return "param";
	if (ti && ti->open)
		return "generic";
	if (sema_is_copy(S, t))
		return "copy";
	return sema_type_holds(S, t, false) ? "resource" : "owned";
}

static void
w_init(W *w, GraphModel *g, Buf *out)
{
	memset(w, 0, sizeof *w);
	w->g = g;
	w->S = g->S;
	w->out = out;
	arena_init(&w->scratch);
}

static void
w_free(W *w)
{
	free(w->tindex);
	VEC_FREE(w->types);
	arena_free(&w->scratch);
}

void
graph_write(Buf *out, GraphModel *g, const GraphMeta *meta, GraphFlush flush, void *ctx)
{
	W w;
	w_init(&w, g, out);
	buf_puts(out, "{\"schema\":\"semaprax.graph.c1\",\"revision\":");
	str(&w, meta->revision);
	buf_puts(out, ",\"prelude\":[");
	str(&w, meta->prelude_schema);
	buf_putc(out, ',');
	str(&w, meta->prelude_digest);
	buf_puts(out, "],\"module\":");
	str(&w, g->S->module_name ? g->S->module_name : "");
	str_list(&w, "permits", g->S->permits, g->S->npermits);
	int main_fn = hir_find_main(g->H);
	if (main_fn >= 0) {
		key(&w, "entrypoint");
		str(&w, g->H->funcs[main_fn].id);
	}
	/* the nodes, then the types they used (numbered in order of first use) */
	bool first = true;
	for (int i = 0; i < g->ndecls; i++) {
		if (is_row(g->decls[i].kind) || g->decls[i].origin)   /* imports: nodes of their own module */
			continue;
		buf_puts(out, first ? ",\"nodes\":[" : ",");
		first = false;
		node(&w, i);
		if (flush && out->len >= GRAPH_FLUSH_BYTES)
			flush(out, ctx);
		arena_free(&w.scratch);
		arena_init(&w.scratch);
	}
	if (!first)
		buf_putc(out, ']');
	if (w.types.len) {
		key(&w, "types");
		buf_putc(out, '[');
		graph_writer_types(&w, out);
		buf_putc(out, ']');
	}
	buf_putc(out, '}');
	w_free(&w);
}

/* ---- the writer other renderings share (context.c) ----------------------------------- */

GraphWriter *
graph_writer_new(GraphModel *g)
{
	W *w = spx_xmalloc(sizeof *w);
	w_init(w, g, NULL);
	return w;
}

void
graph_writer_free(GraphWriter *w)
{
	if (!w)
		return;
	w_free(w);
	free(w);
}

void
graph_writer_type(GraphWriter *w, Buf *out, TypeId t)
{
	w->out = out;
	put_type(w, t);
}

bool
graph_writer_body(GraphWriter *w, Buf *out, int d)
{
	const GraphDecl *x = &w->g->decls[d];
	if (x->func < 0 || (x->kind != GK_FUNCTION && x->kind != GK_METHOD))
		return false;
	w->out = out;
	enter_func(w, &w->g->H->funcs[x->func]);
	w_block(w, w->g->H->funcs[x->func].body);
	return true;
}

int
graph_writer_ntypes(const GraphWriter *w)
{
	return w->types.len;
}

void
graph_writer_types(GraphWriter *w, Buf *out)
{
	for (int i = 0; i < w->types.len; i++) {
		buf_puts(out, i ? ",[" : "[");
		/* a verified program's only untyped expression is a statement `if` (§0.3): `{none}` */
		TypeId t = w->types.items[i];
		json_cstr(out, t == T_ERR ? "{none}" : sema_type_name(w->S, t));
		buf_putc(out, ',');
		json_cstr(out, type_class(w->S, w->types.items[i]));
		buf_putc(out, ']');
	}
}
