/*
 * fmt.c — the canonical formatter's line layout (LANGUAGE.md §2.3):
 * module header, uses, permit, declarations, multi-line bodies, and the
 * comment hooks around every item.
 *
 * Layout facts (from the reference formatter and its canonical examples):
 *   - `module m;`, the `use` lines, then `permit { … }` after a blank line;
 *   - declarations grouped by kind, each group in source order: types
 *     (record, variant, class, resource), interfaces, session protocols,
 *     functions; one blank line before each, `@id("…")` on its own line;
 *   - a function header on one line, then `uses` (when non-empty), every
 *     `requires`, every `ensures` at +4, then `{` at column 0, items at +4,
 *     `}` at column 0; methods are the same one level deeper except that
 *     their `{` also sits at column 0;
 *   - `while`, `for` and `@audit(…) unsafe` statements open a multi-line
 *     body; everything else (let, assignment, statement `if`, the tail) is
 *     one line whatever its length.
 * Comments are placed beforehand (fmt_comments.c); this file only asks for
 * the comments leading, trailing or closing each item it prints.
 */
#include "fmt_priv.h"

#include <stdlib.h>

static void
indent(Fmt *F, int depth)
{
	buf_indent(F->out, 4 * depth);
}

static void
leading(Fmt *F, uint32_t key, int depth)
{
	fmt_comments_at(F, CP_LEADING, key, depth);
}

static void
trailing(Fmt *F, uint32_t key, int depth)
{
	fmt_comments_at(F, CP_TRAILING, key, depth);
}

static void
closing(Fmt *F, uint32_t key, int depth)
{
	fmt_comments_at(F, CP_CLOSING, key, depth);
}

/* `@id("…")` on its own line, when the attribute was written. */
static void
id_line(Fmt *F, const IdAttr *id, int depth)
{
	if (!id->present)
		return;
	indent(F, depth);
	buf_puts(F->out, "@id(");
	fmt_fx_quoted(F, id->value);
	buf_puts(F->out, ")\n");
}

/* ==== blocks and statements ========================================================== */

static void block_items(Fmt *F, const Block *b, int depth);

/* `{` … `}` where the `{` ends the header line and `}` is at depth. */
static void
stmt_body(Fmt *F, const Block *b, int depth)
{
	buf_puts(F->out, " {\n");
	block_items(F, b, depth + 1);
	closing(F, b->span.end - 1, depth + 1);
	indent(F, depth);
	buf_puts(F->out, "}\n");
}

static void
stmt_lines(Fmt *F, const Stmt *s, int depth)
{
	indent(F, depth);
	switch (s->kind) {
	case STMT_LET:
	case STMT_ASSIGN:
		fmt_fx_simple_stmt(F, s);
		buf_putc(F->out, '\n');
		break;
	case STMT_IF:
		fmt_stmt_if(F, s);
		buf_putc(F->out, '\n');
		break;
	case STMT_WHILE:
		buf_puts(F->out, "while ");
		fmt_fx_cond(F, s->u.while_.cond);
		stmt_body(F, s->u.while_.body, depth);
		break;
	case STMT_FOR:
		buf_puts(F->out, s->u.for_.own ? "for own " : "for ");
		fmt_fx_name(F, s->u.for_.item);
		buf_puts(F->out, " in ");
		fmt_fx_cond(F, s->u.for_.iter);
		stmt_body(F, s->u.for_.body, depth);
		break;
	case STMT_UNSAFE:
		if (s->u.unsafe.has_audit) {
			buf_puts(F->out, "@audit(");
			fmt_fx_quoted(F, s->u.unsafe.audit);
			buf_puts(F->out, ") ");
		}
		buf_puts(F->out, "unsafe");
		stmt_body(F, s->u.unsafe.body, depth);
		break;
	}
}

/* The statements and tail of a multi-line body, one per line at depth. */
static void
block_items(Fmt *F, const Block *b, int depth)
{
	for (int i = 0; i < b->nstmts; i++) {
		const Stmt *s = b->stmts[i];
		leading(F, s->span.start, depth);
		stmt_lines(F, s, depth);
		trailing(F, s->span.start, depth);
	}
	if (b->tail) {
		leading(F, b->tail->span.start, depth);
		indent(F, depth);
		fmt_fx_item_expr(F, b->tail);
		buf_putc(F->out, '\n');
		trailing(F, b->tail->span.start, depth);
	}
}

/* A function or method body: `{` at column 0, items at depth, `}` one level out. */
static void
fn_body(Fmt *F, const Block *b, int depth)
{
	buf_puts(F->out, "{\n");
	block_items(F, b, depth);
	closing(F, b->span.end - 1, depth);
	indent(F, depth - 1);
	buf_puts(F->out, "}\n");
}

/* ==== functions ======================================================================== */

static void
clause_lines(Fmt *F, const FnDecl *fn, ClauseKind kind, int depth)
{
	for (int i = 0; i < fn->nclauses; i++) {
		if (fn->clauses[i].kind != kind)
			continue;
		indent(F, depth);
		buf_puts(F->out, kind == CLAUSE_REQUIRES ? "requires " : "ensures ");
		fmt_fx_cond(F, fn->clauses[i].cond);
		buf_putc(F->out, '\n');
	}
}

/* `fn name<T>(params) -> R`, contract lines at depth + 1, then the body. */
static void
function(Fmt *F, const FnDecl *fn, int depth)
{
	indent(F, depth);
	fmt_hd_fn(F, fn);
	buf_putc(F->out, '\n');
	if (fn->uses.nnames > 0) {
		indent(F, depth + 1);
		buf_puts(F->out, "uses ");
		fmt_fx_effects(F, fn->uses.names, fn->uses.nnames);
		buf_putc(F->out, '\n');
	}
	clause_lines(F, fn, CLAUSE_REQUIRES, depth + 1);
	clause_lines(F, fn, CLAUSE_ENSURES, depth + 1);
	fn_body(F, fn->body, depth + 1);
}

/* ==== type declarations ================================================================== */

static void
field_line(Fmt *F, const FieldDecl *f, uint32_t key, const IdAttr *id, int depth)
{
	leading(F, key, depth);
	id_line(F, id, depth);
	indent(F, depth);
	fmt_fx_name(F, f->name);
	buf_puts(F->out, ": ");
	fmt_fx_type(F, f->type);
	buf_puts(F->out, ",\n");
	trailing(F, key, depth);
}

static void
fields(Fmt *F, const FieldDecl *fs, int n, int depth)
{
	for (int i = 0; i < n; i++)
		field_line(F, &fs[i], fmt_field_start(&fs[i]), &fs[i].id, depth);
}

static void
record_decl(Fmt *F, const Decl *d)
{
	fmt_hd_type(F, d);
	buf_puts(F->out, " {\n");
	fields(F, d->u.record.fields, d->u.record.nfields, 1);
	if (F->nplaced)
		closing(F, fmt_record_close(F, d), 1);
	buf_puts(F->out, "}\n");
	for (int i = 0; i < d->u.record.ninvariants; i++) {
		buf_puts(F->out, "    requires ");
		fmt_fx_cond(F, d->u.record.invariants[i].cond);
		buf_putc(F->out, '\n');
	}
}

static void
variant_decl(Fmt *F, const Decl *d)
{
	fmt_hd_type(F, d);
	buf_puts(F->out, " {\n");
	for (int i = 0; i < d->u.variant.ncases; i++) {
		const CaseDecl *c = &d->u.variant.cases[i];
		uint32_t key = fmt_case_start(c);
		leading(F, key, 1);
		id_line(F, &c->id, 1);
		indent(F, 1);
		fmt_fx_name(F, c->name);
		if (c->nfields == 0) {
			buf_puts(F->out, ",\n");
		} else {
			buf_puts(F->out, " {\n");
			fields(F, c->fields, c->nfields, 2);
			closing(F, fmt_case_close(c), 2);
			buf_puts(F->out, "    },\n");
		}
		trailing(F, key, 1);
	}
	closing(F, d->span.end - 1, 1);
	buf_puts(F->out, "}\n");
}

static void
method(Fmt *F, const ClassMember *m)
{
	uint32_t key = fmt_member_start(m);
	buf_putc(F->out, '\n');
	leading(F, key, 1);
	id_line(F, &m->id, 1);
	function(F, &m->method, 1);
	trailing(F, key, 1);
}

/* Fields first, then each method after a blank line (the reference's order). */
static void
class_decl(Fmt *F, const Decl *d)
{
	fmt_hd_type(F, d);
	if (d->u.class_.nmembers == 0) {
		buf_puts(F->out, " { }\n");
		return;
	}
	buf_puts(F->out, " {\n");
	for (int i = 0; i < d->u.class_.nmembers; i++) {
		const ClassMember *m = &d->u.class_.members[i];
		if (!m->is_method)
			field_line(F, &m->field, fmt_member_start(m), &m->id, 1);
	}
	for (int i = 0; i < d->u.class_.nmembers; i++)
		if (d->u.class_.members[i].is_method)
			method(F, &d->u.class_.members[i]);
	closing(F, d->span.end - 1, 1);
	buf_puts(F->out, "}\n");
}

static void
resource_decl(Fmt *F, const Decl *d)
{
	fmt_hd_type(F, d);
	if (d->u.resource.ndrops == 0) {
		buf_puts(F->out, ";\n");   /* the legacy form the checker refuses (O112) */
		return;
	}
	buf_puts(F->out, " {\n");
	for (int i = 0; i < d->u.resource.ndrops; i++) {
		const ResourceDrop *r = &d->u.resource.drops[i];
		uint32_t key = 0, end = 0;
		if (F->nplaced)
			fmt_drop_span(F, d, i, &key, &end);
		leading(F, key, 1);
		id_line(F, &r->id, 1);
		if (r->trivial) {
			buf_puts(F->out, "    drop trivial;\n");
		} else {
			buf_puts(F->out, "    drop import ");
			fmt_fx_quoted(F, r->import);
			buf_puts(F->out, ";\n");
		}
		trailing(F, key, 1);
	}
	closing(F, d->span.end - 1, 1);
	buf_puts(F->out, "}\n");
}

/* ==== interfaces and session protocols ======================================================= */

static void
import_fn(Fmt *F, const ImportFn *f)
{
	id_line(F, &f->id, 1);
	buf_puts(F->out, f->rust ? "    import rust fn " : "    import fn ");
	fmt_fx_name(F, f->name);
	fmt_fx_params(F, f->params, f->nparams);
	buf_puts(F->out, " -> ");
	fmt_fx_name(F, f->result);
	buf_puts(F->out, "\n        effects ");
	fmt_fx_effects(F, f->effects.names, f->effects.nnames);
	if (f->fallible) {
		buf_puts(F->out, "\n        failure status ");
		fmt_fx_quoted(F, f->status);
	} else {
		buf_puts(F->out, "\n        failure infallible");
	}
	if (f->has_consumes) {
		buf_puts(F->out, "\n        consumes ");
		fmt_fx_name(F, f->consumes);
		buf_puts(F->out, " always");
	}
	buf_puts(F->out, ";\n");
}

static void
interface_decl(Fmt *F, const Decl *d)
{
	fmt_hd_type(F, d);
	buf_puts(F->out, "\n    permits ");
	fmt_fx_effects(F, d->u.interface.permits.names, d->u.interface.permits.nnames);
	buf_puts(F->out, "\n{\n");
	for (int i = 0; i < d->u.interface.nimports; i++)
		import_fn(F, &d->u.interface.imports[i]);
	buf_puts(F->out, "}\n");
}

/* `{ a, b }`, or `{}` when empty (session protocols only). */
static void
name_set(Fmt *F, const Name *names, int n)
{
	if (n == 0) {
		buf_puts(F->out, "{}");
		return;
	}
	buf_puts(F->out, "{ ");
	for (int i = 0; i < n; i++) {
		if (i)
			buf_puts(F->out, ", ");
		fmt_fx_name(F, names[i]);
	}
	buf_puts(F->out, " }");
}

static const char *const transition_kinds[] = {
	[TR_SEND] = "send", [TR_RECEIVE] = "receive", [TR_CALL] = "call", [TR_RETURN] = "return",
	[TR_CANCEL] = "cancel", [TR_TIMEOUT] = "timeout", [TR_FAIL] = "fail",
};

static void
transition(Fmt *F, const Transition *t)
{
	buf_puts(F->out, "    on ");
	fmt_fx_name(F, t->from);
	buf_putc(F->out, ' ');
	fmt_fx_name(F, t->label);
	buf_printf(F->out, ": %s ", transition_kinds[t->kind]);
	fmt_fx_name(F, t->message);
	if (t->has_capability) {
		buf_puts(F->out, " requires capability ");
		fmt_fx_qname(F, &t->capability);
	}
	if (t->consumes_resource)
		buf_puts(F->out, " consumes resource");
	if (t->has_via) {
		buf_puts(F->out, " via ");
		fmt_fx_quoted(F, t->via);
	}
	buf_puts(F->out, " -> ");
	if (!t->is_choice) {
		fmt_fx_name(F, t->to);
	} else {
		buf_puts(F->out, "choice { ");
		for (int i = 0; i < t->nchoices; i++) {
			if (i)
				buf_puts(F->out, ", ");
			fmt_fx_name(F, t->choices[i].label);
			buf_puts(F->out, ": ");
			fmt_fx_name(F, t->choices[i].state);
		}
		buf_puts(F->out, " }");
	}
	buf_puts(F->out, ";\n");
}

static void
session_decl(Fmt *F, const Decl *d)
{
	fmt_hd_type(F, d);
	buf_puts(F->out, " {\n    states ");
	name_set(F, d->u.session.states, d->u.session.nstates);
	buf_puts(F->out, "\n    initial ");
	fmt_fx_name(F, d->u.session.initial);
	buf_puts(F->out, ";\n");
	for (int i = 0; i < d->u.session.nterminals; i++) {
		const Terminal *t = &d->u.session.terminals[i];
		buf_puts(F->out, "    terminal ");
		fmt_fx_name(F, t->state);
		buf_puts(F->out, " cleanup ");
		name_set(F, t->cleanup, t->ncleanup);
		buf_putc(F->out, '\n');
	}
	for (int i = 0; i < d->u.session.ntransitions; i++)
		transition(F, &d->u.session.transitions[i]);
	buf_puts(F->out, "}\n");
}

/* ==== the module ============================================================================== */

static void
decl(Fmt *F, const Decl *d)
{
	buf_putc(F->out, '\n');
	leading(F, d->span.start, 0);
	id_line(F, &d->id, 0);
	switch (d->kind) {
	case DECL_FN: function(F, &d->u.fn, 0); break;
	case DECL_RECORD: record_decl(F, d); break;
	case DECL_VARIANT: variant_decl(F, d); break;
	case DECL_CLASS: class_decl(F, d); break;
	case DECL_RESOURCE: resource_decl(F, d); break;
	case DECL_INTERFACE: interface_decl(F, d); break;
	case DECL_SESSION: session_decl(F, d); break;
	}
	trailing(F, d->span.start, 0);
}

static void
header(Fmt *F, const Module *m)
{
	fmt_comments_at(F, CP_HEADER, 0, 0);
	buf_puts(F->out, "module ");
	fmt_fx_qname(F, &m->name);
	buf_puts(F->out, ";\n");
	for (int i = 0; i < m->nuses; i++) {
		const UseDecl *u = &m->uses[i];
		leading(F, u->span.start, 0);
		buf_puts(F->out, u->is_type ? "use type @id(" : "use function @id(");
		fmt_fx_quoted(F, u->id);
		buf_puts(F->out, ") from ");
		fmt_fx_qname(F, &u->from);
		buf_puts(F->out, " as ");
		fmt_fx_name(F, u->alias);
		buf_puts(F->out, ";\n");
		trailing(F, u->span.start, 0);
	}
	if (m->permit.nnames > 0) {
		buf_putc(F->out, '\n');
		leading(F, m->permit.span.start, 0);
		buf_puts(F->out, "permit ");
		fmt_fx_effects(F, m->permit.names, m->permit.nnames);
		buf_putc(F->out, '\n');
		trailing(F, m->permit.span.start, 0);
	}
}

static void
render(Fmt *F, const Module *m)
{
	header(F, m);
	for (int g = 0; g < 4; g++)
		for (int i = 0; i < m->ndecls; i++)
			if (ast_decl_group(m->decls[i].kind) == g)
				decl(F, &m->decls[i]);
	fmt_comments_at(F, CP_FILE_END, 0, 0);
}

/*
 * Renders, then re-renders while some `<` would be read as type arguments
 * (each round parenthesizes at least one more name, so this ends; in
 * practice there is one round).
 */
static void fmt_render(Buf *out, const Module *m, const char *src, size_t len, bool discards);

void
fmt_module(Buf *out, const Module *m, const char *src, size_t len)
{
	fmt_render(out, m, src, len, false);
}

void
fmt_module_discards(Buf *out, const Module *m)
{
	fmt_render(out, m, NULL, 0, true);
}

int
fmt_decl_group(int kind)
{
	return ast_decl_group((DeclKind)kind);
}

void
fmt_module_discards_part(Buf *out, const Module *m, int which)
{
	Fmt F = { 0 };
	F.out = out;
	F.discards = true;
	fmt_place_comments(&F, m);   /* no source: no comments placed */
	size_t base = out->len;
	for (int round = 0;; round++) {
		if (which < 0) {
			header(&F, m);
			fmt_comments_at(&F, CP_FILE_END, 0, 0);
		} else {
			decl(&F, &m->decls[which]);
		}
		if (round == 1000 || !fmt_fx_lt_hazards(&F, base))
			break;
		out->len = base;
		if (out->data)
			out->data[base] = '\0';
	}
	VEC_FREE(F.lts);
	VEC_FREE(F.force);
	free(F.placed);
}

static void
fmt_render(Buf *out, const Module *m, const char *src, size_t len, bool discards)
{
	Fmt F = { 0 };
	F.out = out;
	F.src = src;
	F.len = len;
	F.discards = discards;
	fmt_place_comments(&F, m);
	size_t base = out->len;
	for (int round = 0;; round++) {
		render(&F, m);
		if (round == 1000 || !fmt_fx_lt_hazards(&F, base))
			break;
		out->len = base;
		out->data[base] = '\0';
	}
	VEC_FREE(F.lts);
	VEC_FREE(F.force);
	free(F.placed);
}
