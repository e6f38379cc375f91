/*
 * dump.c — deterministic text form of the HIR (`semaprax check --dump-hir`):
 * one function per paragraph, locals with types and ownership, then the
 * body as an indented S-expression with types and structural ids.
 */
#include "hir.h"

#include <inttypes.h>
#include <string.h>

#include "../fmt/fmt.h"

typedef struct D {
	HirModule *H;
	Sema *S;
	Buf *out;
	const HirFunc *f;
} D;

static void d_expr(D *d, const HirExpr *e, int depth);
static void d_block(D *d, const HirBlock *b, int depth);

static void
emitc_line(D *d, int depth)
{
	buf_putc(d->out, '\n');
	buf_indent(d->out, depth * 2);
}

static const char *
emitc_slot_name(D *d, HirSlot s)
{
	return s < (HirSlot)d->f->nlocals ? d->f->locals[s].name : "?";
}

/* A resolved pattern on one line: `_`, `(bind x)`, `(lit v)`, `(case i
 * (field j p)...)`, `(record (field j p)...)`, `(or p...)`. */
static void
d_pattern(D *d, const HirPattern *p)
{
	switch (p->kind) {
	case HIR_PAT_WILD:
		buf_putc(d->out, '_');
		return;
	case HIR_PAT_BIND:
		buf_printf(d->out, "(bind %s)", emitc_slot_name(d, p->slot));
		return;
	case HIR_PAT_LIT:
		if (p->lit.kind == HIR_BOOL)
			buf_printf(d->out, "(lit %s)", p->lit.b ? "true" : "false");
		else if (p->lit.kind == HIR_CHAR)
			buf_printf(d->out, "(lit U+%04" PRIX32 ")", p->lit.ch);
		else if (p->lit.kind == HIR_INT)
			buf_printf(d->out, "(lit %s%" PRIu64 ")", p->lit.negative ? "-" : "", p->lit.i);
		else
			buf_puts(d->out, "(lit ?)");
		return;
	case HIR_PAT_OR:
		buf_puts(d->out, "(or");
		for (int i = 0; i < p->nalts; i++) {
			buf_putc(d->out, ' ');
			d_pattern(d, p->alts[i]);
		}
		buf_putc(d->out, ')');
		return;
	case HIR_PAT_CASE: case HIR_PAT_RECORD:
		if (p->kind == HIR_PAT_CASE)
			buf_printf(d->out, "(case %d", p->case_index);
		else
			buf_puts(d->out, "(record");
		for (int i = 0; i < p->nfields; i++) {
			buf_printf(d->out, " (field %d ", p->fields[i]);
			d_pattern(d, p->subs[i]);
			buf_putc(d->out, ')');
		}
		buf_putc(d->out, ')');
		return;
	}
}

static void
d_head(D *d, const HirExpr *e, const char *what)
{
	buf_printf(d->out, "(%s #%u : %s%s", what, e->index, sema_type_name(d->S, e->type), e->temp ? " temp" : e->lends ? " lends" : "");
}

static void
d_callee(D *d, const HirExpr *e)
{
	switch (e->u.call.kind) {
	case CALL_FN: buf_printf(d->out, " %s", e->u.call.fn >= 0 ? sema_sym(d->S, e->u.call.fn)->id : "?"); break;
	case CALL_BUILTIN: buf_printf(d->out, " builtin:%s", e->u.call.builtin ? e->u.call.builtin->id : "?"); break;
	case CALL_SLOT: buf_printf(d->out, " slot:%s", emitc_slot_name(d, e->u.call.callee)); break;
	}
	for (int i = 0; i < e->u.call.ntargs; i++)
		buf_printf(d->out, "%s%s", i ? ", " : "<", sema_type_name(d->S, e->u.call.targs[i]));
	if (e->u.call.ntargs)
		buf_putc(d->out, '>');
}

static void
d_expr(D *d, const HirExpr *e, int depth)
{
	if (!e) {
		buf_puts(d->out, "-");
		return;
	}
	switch (e->kind) {
	case HIR_INT: d_head(d, e, "int"); buf_printf(d->out, " %s%llu)", e->u.lit.negative ? "-" : "", (unsigned long long)e->u.lit.i); return;
	case HIR_FLOAT: d_head(d, e, "float"); buf_putc(d->out, ' '); fmt_float(d->out, e->u.lit.f, e->type == T_F32 ? SUF_F32 : SUF_NONE); buf_putc(d->out, ')'); return;
	case HIR_BOOL: d_head(d, e, "bool"); buf_printf(d->out, " %s)", e->u.lit.b ? "true" : "false"); return;
	case HIR_CHAR: d_head(d, e, "char"); buf_putc(d->out, ' '); fmt_char(d->out, e->u.lit.ch); buf_putc(d->out, ')'); return;
	case HIR_STRING: d_head(d, e, "string"); buf_putc(d->out, ' '); fmt_string(d->out, e->u.lit.s, e->u.lit.n); buf_putc(d->out, ')'); return;
	case HIR_LOCAL: d_head(d, e, "local"); buf_printf(d->out, " %s)", emitc_slot_name(d, e->u.slot)); return;
	case HIR_MOVE: d_head(d, e, "move"); buf_printf(d->out, " %s)", emitc_slot_name(d, e->u.slot)); return;
	case HIR_FUNC: d_head(d, e, "fn"); d_callee(d, e); buf_putc(d->out, ')'); return;
	case HIR_UNARY:
		d_head(d, e, e->u.un.op == UN_NEG ? "neg" : "not");
		emitc_line(d, depth + 1);
		d_expr(d, e->u.un.x, depth + 1);
		break;
	case HIR_BINARY:
		d_head(d, e, ast_binary_spelling(e->u.bin.op));
		emitc_line(d, depth + 1);
		d_expr(d, e->u.bin.l, depth + 1);
		emitc_line(d, depth + 1);
		d_expr(d, e->u.bin.r, depth + 1);
		break;
	case HIR_CALL:
		d_head(d, e, "call");
		d_callee(d, e);
		for (int i = 0; i < e->u.call.nargs; i++) {
			emitc_line(d, depth + 1);
			d_expr(d, e->u.call.args[i], depth + 1);
		}
		break;
	case HIR_FIELD:
		d_head(d, e, e->u.field.take ? "field-take" : "field");
		buf_printf(d->out, " %d", e->u.field.field);
		emitc_line(d, depth + 1);
		d_expr(d, e->u.field.base, depth + 1);
		break;
	case HIR_TRY:
		d_head(d, e, e->u.try_.option ? "try-option" : "try-result");
		emitc_line(d, depth + 1);
		d_expr(d, e->u.try_.x, depth + 1);
		break;
	case HIR_WITH:
	case HIR_RECORD:
	case HIR_VARIANT:
		d_head(d, e, e->kind == HIR_WITH ? "with" : e->kind == HIR_RECORD ? "record" : "variant");
		if (e->kind == HIR_VARIANT)
			buf_printf(d->out, " case %d", e->u.agg.case_index);
		if (e->u.agg.base) {
			emitc_line(d, depth + 1);
			d_expr(d, e->u.agg.base, depth + 1);
		}
		for (int i = 0; i < e->u.agg.n; i++) {
			emitc_line(d, depth + 1);
			buf_printf(d->out, "field %d = ", e->u.agg.fields[i]);
			d_expr(d, e->u.agg.values[i], depth + 1);
		}
		break;
	case HIR_BLOCK:
		d_head(d, e, "block");
		d_block(d, e->u.block, depth + 1);
		break;
	case HIR_IF:
		d_head(d, e, "if");
		emitc_line(d, depth + 1);
		d_expr(d, e->u.if_.cond, depth + 1);
		if (e->u.if_.then_)
			d_block(d, e->u.if_.then_, depth + 1);
		if (e->u.if_.else_)
			d_block(d, e->u.if_.else_, depth + 1);
		break;
	case HIR_MATCH:
		d_head(d, e, e->u.match.mode == MATCH_OWN ? "match-own" : e->u.match.mode == MATCH_BORROW ? "match-borrow" : "match");
		emitc_line(d, depth + 1);
		d_expr(d, e->u.match.scrutinee, depth + 1);
		for (int i = 0; i < e->u.match.narms; i++) {
			const HirArm *a = &e->u.match.arms[i];
			emitc_line(d, depth + 1);
			buf_printf(d->out, "(arm case %d binds", a->case_index);
			for (int j = 0; j < a->nbinds; j++)
				buf_printf(d->out, " %s", emitc_slot_name(d, a->binds[j]));
			emitc_line(d, depth + 2);
			buf_puts(d->out, "pattern ");
			d_pattern(d, a->pat);
			if (a->guard) {
				emitc_line(d, depth + 2);
				buf_puts(d->out, "guard ");
				d_expr(d, a->guard, depth + 2);
			}
			emitc_line(d, depth + 2);
			d_expr(d, a->value, depth + 2);
			if (a->scope->nowned) {
				emitc_line(d, depth + 2);
				buf_puts(d->out, "release");
				for (int j = a->scope->nowned - 1; j >= 0; j--)
					buf_printf(d->out, " %s", emitc_slot_name(d, a->scope->owned[j]));
			}
			buf_putc(d->out, ')');
		}
		break;
	case HIR_CLOSURE:
		d_head(d, e, "closure");
		buf_printf(d->out, " %s captures", d->H->funcs[e->u.closure.func].id);
		for (int i = 0; i < e->u.closure.ncaptures; i++)
			buf_printf(d->out, " %s", emitc_slot_name(d, e->u.closure.captures[i]));
		break;
	case HIR_ARRAY:
		d_head(d, e, "array");
		for (int i = 0; i < e->u.array.n; i++) {
			emitc_line(d, depth + 1);
			d_expr(d, e->u.array.elems[i], depth + 1);
		}
		break;
	}
	buf_putc(d->out, ')');
}

static void
d_stmt(D *d, const HirStmt *s, int depth)
{
	static const char *const names[] = { "let", "assign", "set-field", "while", "for", "expr", "unsafe" };
	emitc_line(d, depth);
	buf_printf(d->out, "(%s", names[s->kind]);
	if (s->kind == HS_FOR && s->own)
		buf_puts(d->out, " own");
	if (s->slot != HIR_NO_SLOT)
		buf_printf(d->out, " %s", emitc_slot_name(d, s->slot));
	if (s->kind == HS_SET_FIELD)
		buf_printf(d->out, ".%d", s->field);
	if (s->value) {
		emitc_line(d, depth + 1);
		d_expr(d, s->value, depth + 1);
	}
	if (s->body)
		d_block(d, s->body, depth + 1);
	buf_putc(d->out, ')');
}

static void
d_block(D *d, const HirBlock *b, int depth)
{
	emitc_line(d, depth);
	buf_puts(d->out, "{");
	for (int i = 0; i < b->nstmts; i++)
		d_stmt(d, b->stmts[i], depth + 1);
	if (b->tail) {
		emitc_line(d, depth + 1);
		buf_puts(d->out, "tail ");
		d_expr(d, b->tail, depth + 1);
	}
	if (b->nowned) {
		emitc_line(d, depth + 1);
		buf_puts(d->out, "release");
		for (int i = b->nowned - 1; i >= 0; i--)
			buf_printf(d->out, " %s", emitc_slot_name(d, b->owned[i]));
	}
	buf_puts(d->out, "}");
}

/* hir_mono's instances: index, function id, type arguments, the call sites
 * (structural id -> instance), and the slots whose ownership differs from
 * the generic body's (a T-typed slot owned where T is not Copy). */
static void
dump_mono(Buf *out, HirModule *H)
{
	const HirMono *m = H->mono;
	buf_printf(out, "\ninstances from main: %d (%d generic)\n", m->ninsts, m->ngeneric);
	for (int i = 0; i < m->ninsts; i++) {
		const HirInst *in = &m->insts[i];
		const HirFunc *f = &H->funcs[in->func];
		buf_printf(out, "  instance %d %s", i, f->id);
		for (int k = 0; k < in->ntargs; k++)
			buf_printf(out, "%s%s", k ? ", " : " <", sema_type_name(H->S, in->targs[k]));
		buf_puts(out, in->ntargs ? ">\n" : "\n");
		int ncalls = 0;
		for (uint32_t x = 0; x < f->nexprs; x++)
			if (in->target[x] >= 0)
				buf_printf(out, "%s#%u -> %d", ncalls++ ? ", " : "    calls ", x, in->target[x]);
		if (ncalls)
			buf_putc(out, '\n');
		for (int s = 0; s < f->nlocals; s++)
			if (in->slot_owned[s] != f->locals[s].owned)
				buf_printf(out, "    slot %d %s : %s%s\n", s, f->locals[s].name, sema_type_name(H->S, in->slot_type[s]),
				    in->slot_owned[s] ? " owned" : " not owned");
	}
}

void
hir_dump(Buf *out, HirModule *H)
{
	D d = { H, H->S, out, NULL };
	for (int i = 0; i < H->nfuncs; i++) {
		const HirFunc *f = &H->funcs[i];
		d.f = f;
		buf_printf(out, "%sfunction %s (%s) -> %s", i ? "\n" : "", f->id, f->name, sema_type_name(H->S, f->result));
		for (int s = 0; s < f->nlocals; s++)
			buf_printf(out, "\n  slot %d %s : %s%s%s%s", s, f->locals[s].name, sema_type_name(H->S, f->locals[s].type),
			    f->locals[s].param ? " param" : "", f->locals[s].owned ? " owned" : "",
			    f->locals[s].lent && !sema_is_copy(H->S, f->locals[s].type) ? " lent" : "");
		for (int r = 0; r < f->nrequires; r++) {
			buf_puts(out, "\n  requires ");
			d_expr(&d, f->requires[r], 2);
		}
		for (int r = 0; r < f->nensures; r++) {
			buf_puts(out, "\n  ensures ");
			d_expr(&d, f->ensures[r], 2);
		}
		d_block(&d, f->body, 1);
		buf_putc(out, '\n');
	}
	if (H->mono)
		dump_mono(out, H);
}
