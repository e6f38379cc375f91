/*
 * ast_dump.c — a span-free S-expression rendering of a Module.
 *
 * One line for the module name, one per `use`, one for `permit`, then one
 * per declaration.  Every child is written as " x" after its parent's
 * "(tag"; strings are quoted with \" \\ and \xNN escapes, so a dump line
 * never contains a raw newline.  Floats print as the hex bits of the double.
 *
 * Two parses dump equally iff they are equal up to spans *and* up to the
 * differences the canonical formatter normalizes away, so that
 * dump(parse(fmt(x))) == dump(parse(x)):
 *   - comments, spans, `has_braces` of variant expressions and case
 *     patterns;
 *   - the float suffix `f64` (the default, which fmt drops) dumps as f64
 *     whether written or not;
 *   - an empty `uses {}` / `permit {}` dumps as absent, a variant case
 *     `C {}` as `C`, and a field pattern `f: f` as the shorthand `f`;
 *   - declarations dump grouped the way fmt prints them (types,
 *     interfaces, session protocols, functions; source order within each
 *     group), class fields before methods, and a function's requires
 *     clauses before its ensures clauses (each kind in source order).
 * Recursion follows the tree, whose depth the parser bounds.
 */
#include "parse.h"

#include <inttypes.h>
#include <string.h>

typedef struct Dump {
	Buf *b;
} Dump;

static void dump_expr(Dump *D, const Expr *e);
static void dump_block(Dump *D, const Block *b);

/* ==== atoms ========================================================================= */

static void
tag_open(Dump *D, const char *tag)
{
	buf_printf(D->b, " (%s", tag);
}

static void
tag_close(Dump *D)
{
	buf_putc(D->b, ')');
}

static void
word(Dump *D, const char *w)
{
	buf_putc(D->b, ' ');
	buf_puts(D->b, w);
}

static void
name(Dump *D, Name n)
{
	buf_putc(D->b, ' ');
	if (ast_name_len(n) == 0)
		buf_puts(D->b, "\"\"");
	else
		buf_put(D->b, n.s, ast_name_len(n));
}

static void
qname_bare(Dump *D, const QName *q)
{
	for (int i = 0; i < q->nparts; i++) {
		if (i)
			buf_putc(D->b, '.');
		buf_put(D->b, q->parts[i].s, ast_name_len(q->parts[i]));
	}
}

static void
qname(Dump *D, const QName *q)
{
	buf_putc(D->b, ' ');
	qname_bare(D, q);
}

static void
bytes(Dump *D, const char *s, size_t n)
{
	buf_puts(D->b, " \"");
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			buf_printf(D->b, "\\%c", c);
		else if (c < 0x20 || c >= 0x7F)
			buf_printf(D->b, "\\x%02x", c);
		else
			buf_putc(D->b, (char)c);
	}
	buf_putc(D->b, '"');
}

static void
strlit(Dump *D, StrLit s)
{
	bytes(D, s.s ? s.s : "", s.len);
}

static void
id(Dump *D, const IdAttr *a)
{
	if (a->present)
		strlit(D, a->value);
	else
		word(D, "-");
}

static void
names(Dump *D, const char *tag, const Name *ns, int n)
{
	tag_open(D, tag);
	for (int i = 0; i < n; i++)
		name(D, ns[i]);
	tag_close(D);
}

static void
effects(Dump *D, const char *tag, const EffectSet *e)
{
	tag_open(D, tag);
	for (int i = 0; i < e->nnames; i++)
		qname(D, &e->names[i]);
	tag_close(D);
}

/* ==== types ============================================================================ */

static void
type(Dump *D, const Type *t)
{
	if (!t) {
		word(D, "-");
		return;
	}
	switch (t->kind) {
	case TYPE_NAME: {
		Name one;
		QName q = ast_type_qname(t, &one);
		if (ast_type_nargs(t) == 0) {
			qname(D, &q);
			break;
		}
		buf_puts(D->b, " (");
		qname_bare(D, &q);
		for (int i = 0; i < ast_type_nargs(t); i++)
			type(D, ast_type_args(t)[i]);
		tag_close(D);
		break;
	}
	case TYPE_ARRAY:
		tag_open(D, "array");
		type(D, t->u.array.elem);
		buf_printf(D->b, " %" PRIu64 ")", t->u.array.len);
		break;
	case TYPE_FN:
		tag_open(D, t->u.fn.mut_i64 ? "fn-mut-i64" : "fn");
		tag_open(D, "params");
		for (int i = 0; i < t->u.fn.nparams; i++)
			type(D, t->u.fn.params[i]);
		tag_close(D);
		type(D, t->u.fn.result);
		tag_close(D);
		break;
	}
}

static void
types(Dump *D, const char *tag, Type *const *ts, int n)
{
	tag_open(D, tag);
	for (int i = 0; i < n; i++)
		type(D, ts[i]);
	tag_close(D);
}

static const char *
suffix_name(NumSuffix s)
{
	switch (s) {
	case SUF_I32: return "i32";
	case SUF_U8: return "u8";
	case SUF_USIZE: return "usize";
	case SUF_F32: return "f32";
	case SUF_F64: return "f64";
	default: return "none";
	}
}

/* ==== patterns ============================================================================ */

static void dump_pattern(Dump *D, const Pattern *p);

static void
dump_field_pats(Dump *D, const FieldPat *fs, int n)
{
	tag_open(D, "fields");
	for (int i = 0; i < n; i++) {
		const FieldPat *f = &fs[i];
		bool shorthand = !f->sub || (f->sub->kind == PAT_BIND && ast_name_len(f->sub->u.bind) == ast_name_len(f->name) &&
		    memcmp(f->sub->u.bind.s, f->name.s, ast_name_len(f->name)) == 0);
		buf_puts(D->b, " (");
		buf_put(D->b, f->name.s, ast_name_len(f->name));
		if (!shorthand)
			dump_pattern(D, f->sub);
		tag_close(D);
	}
	tag_close(D);
}

static void
dump_pattern(Dump *D, const Pattern *p)
{
	if (!p) {
		word(D, "-");
		return;
	}
	switch (p->kind) {
	case PAT_WILD:
		word(D, "_");
		break;
	case PAT_BIND:
		tag_open(D, "bind");
		name(D, p->u.bind);
		tag_close(D);
		break;
	case PAT_LIT:
		tag_open(D, "lit");
		if (p->u.lit.negative)
			word(D, "neg");
		dump_expr(D, p->u.lit.value);
		tag_close(D);
		break;
	case PAT_OR:
		tag_open(D, "or");
		for (int i = 0; i < p->u.or.nalts; i++)
			dump_pattern(D, p->u.or.alts[i]);
		tag_close(D);
		break;
	case PAT_CASE:
		tag_open(D, "case");
		name(D, p->u.case_.type);
		name(D, p->u.case_.case_name);
		dump_field_pats(D, p->u.case_.fields, p->u.case_.nfields);
		tag_close(D);
		break;
	case PAT_RECORD:
		tag_open(D, "rec");
		name(D, p->u.record.type);
		dump_field_pats(D, p->u.record.fields, p->u.record.nfields);
		tag_close(D);
		break;
	}
}

/* ==== expressions ========================================================================== */

static void
dump_exprs(Dump *D, const char *tag, Expr *const *es, int n)
{
	tag_open(D, tag);
	for (int i = 0; i < n; i++)
		dump_expr(D, es[i]);
	tag_close(D);
}

static void
dump_inits(Dump *D, const FieldInit *fs, int n)
{
	tag_open(D, "inits");
	for (int i = 0; i < n; i++) {
		buf_puts(D->b, " (");
		buf_put(D->b, fs[i].name.s, ast_name_len(fs[i].name));
		dump_expr(D, fs[i].value);
		tag_close(D);
	}
	tag_close(D);
}

static void
literal(Dump *D, const Expr *e)
{
	switch (e->kind) {
	case EXPR_INT:
		buf_printf(D->b, " (int %s%" PRIu64 " %s)", e->lit_negative ? "-" : "", e->u.int_lit.value,
		    suffix_name(e->lit_suffix));
		break;
	case EXPR_FLOAT: {
		uint64_t bits;
		double v = e->u.float_lit.value;
		memcpy(&bits, &v, sizeof bits);
		buf_printf(D->b, " (float 0x%016" PRIx64 " %s)", bits, e->lit_suffix == SUF_F32 ? "f32" : "f64");
		break;
	}
	case EXPR_CHAR:
		buf_printf(D->b, " (char %" PRIu32 ")", e->u.char_lit.value);
		break;
	case EXPR_STRING:
		tag_open(D, "str");
		strlit(D, e->u.str);
		tag_close(D);
		break;
	case EXPR_BOOL:
		buf_puts(D->b, e->u.bool_lit.value ? " (bool true)" : " (bool false)");
		break;
	default:
		UNREACHABLE();
	}
}

static void
match(Dump *D, const Expr *e)
{
	static const char *const modes[] = { [MATCH_PLAIN] = "plain", [MATCH_OWN] = "own", [MATCH_BORROW] = "borrow" };
	tag_open(D, "match");
	word(D, modes[e->u.match.mode]);
	dump_expr(D, e->u.match.scrutinee);
	for (int i = 0; i < e->u.match.narms; i++) {
		const MatchArm *a = &e->u.match.arms[i];
		tag_open(D, "arm");
		dump_pattern(D, a->pat);
		if (a->guard)
			dump_expr(D, a->guard);
		else
			word(D, "-");
		dump_expr(D, a->value);
		tag_close(D);
	}
	tag_close(D);
}

static void
closure(Dump *D, const Expr *e)
{
	tag_open(D, e->u.closure.own ? "own-closure" : e->u.closure.mut ? "mut-closure" : "closure");
	tag_open(D, "params");
	for (int i = 0; i < e->u.closure.nparams; i++) {
		buf_puts(D->b, " (");
		buf_put(D->b, e->u.closure.params[i].name.s, ast_name_len(e->u.closure.params[i].name));
		type(D, e->u.closure.params[i].type);
		tag_close(D);
	}
	tag_close(D);
	type(D, e->u.closure.result);
	dump_block(D, e->u.closure.body);
	tag_close(D);
}

/* Calls, records, variants and super calls. */
static void
named_form(Dump *D, const Expr *e)
{
	switch (e->kind) {
	case EXPR_CALL:
		tag_open(D, "call");
		name(D, ast_call_callee(e));
		if (e->u.call.has_targs)
			types(D, "targs", e->u.call.targs, e->u.call.ntargs);
		else
			word(D, "-");
		dump_exprs(D, "args", e->u.call.args, e->u.call.nargs);
		break;
	case EXPR_RECORD:
		tag_open(D, "record");
		qname(D, &e->u.record.type);
		types(D, "targs", e->u.record.targs, e->u.record.ntargs);
		dump_inits(D, e->u.record.inits, e->u.record.ninits);
		break;
	case EXPR_VARIANT:
		tag_open(D, "variant");
		name(D, e->u.variant.type);
		types(D, "targs", e->u.variant.targs, e->u.variant.ntargs);
		name(D, e->u.variant.case_name);
		dump_inits(D, e->u.variant.inits, e->u.variant.ninits);
		break;
	default:
		tag_open(D, "super");
		name(D, e->u.super_.name);
		dump_exprs(D, "args", e->u.super_.args, e->u.super_.nargs);
		break;
	}
	tag_close(D);
}

/* Unary, binary and postfix operators. */
static void
operator(Dump *D, const Expr *e)
{
	switch (e->kind) {
	case EXPR_UNARY:
		tag_open(D, e->un_op == UN_NEG ? "neg" : "not");
		dump_expr(D, e->u.unary.operand);
		break;
	case EXPR_BINARY:
		tag_open(D, "bin");
		word(D, ast_binary_spelling(e->bin_op));
		dump_expr(D, e->u.binary.lhs);
		dump_expr(D, e->u.binary.rhs);
		break;
	case EXPR_METHOD:
		tag_open(D, "method");
		dump_expr(D, e->u.method.recv);
		name(D, e->u.method.name);
		dump_exprs(D, "args", e->u.method.args, e->u.method.nargs);
		break;
	case EXPR_FIELD:
		tag_open(D, "field");
		dump_expr(D, e->u.field.base);
		name(D, ast_field_name(e));
		break;
	case EXPR_TRY:
		tag_open(D, "try");
		dump_expr(D, e->u.try_.operand);
		break;
	default:
		tag_open(D, "with");
		dump_expr(D, e->u.with.base);
		dump_inits(D, e->u.with.inits, e->u.with.ninits);
		break;
	}
	tag_close(D);
}

static void
dump_expr(Dump *D, const Expr *e)
{
	if (!e) {
		word(D, "-");
		return;
	}
	switch (e->kind) {
	case EXPR_INT: case EXPR_FLOAT: case EXPR_CHAR: case EXPR_STRING: case EXPR_BOOL:
		literal(D, e);
		break;
	case EXPR_NAME:
		tag_open(D, "name");
		name(D, ast_expr_name(e));
		tag_close(D);
		break;
	case EXPR_UNARY: case EXPR_BINARY: case EXPR_METHOD: case EXPR_FIELD: case EXPR_TRY: case EXPR_WITH:
		operator(D, e);
		break;
	case EXPR_CALL: case EXPR_RECORD: case EXPR_VARIANT: case EXPR_SUPER:
		named_form(D, e);
		break;
	case EXPR_BLOCK:
		dump_block(D, e->u.block);
		break;
	case EXPR_IF:
		tag_open(D, e->u.if_.else_if ? "if-else-if" : "if");
		dump_expr(D, e->u.if_.cond);
		dump_block(D, e->u.if_.then_block);
		dump_block(D, e->u.if_.else_block);
		tag_close(D);
		break;
	case EXPR_MATCH: match(D, e); break;
	case EXPR_CLOSURE: closure(D, e); break;
	case EXPR_ARRAY: dump_exprs(D, "array", e->u.array.elems, e->u.array.nelems); break;
	}
}

/* ==== statements and blocks ================================================================== */

static void
stmt(Dump *D, const Stmt *s)
{
	switch (s->kind) {
	case STMT_LET:
		tag_open(D, s->u.let.mut ? "let-mut" : "let");
		name(D, s->u.let.name);
		type(D, s->u.let.type);
		dump_expr(D, s->u.let.value);
		break;
	case STMT_ASSIGN:
		tag_open(D, "assign");
		name(D, s->u.assign.target);
		if (s->u.assign.has_field)
			name(D, s->u.assign.field);
		else
			word(D, "-");
		dump_expr(D, s->u.assign.value);
		break;
	case STMT_WHILE:
		tag_open(D, "while");
		dump_expr(D, s->u.while_.cond);
		dump_block(D, s->u.while_.body);
		break;
	case STMT_FOR:
		tag_open(D, s->u.for_.own ? "for-own" : "for");
		name(D, s->u.for_.item);
		dump_expr(D, s->u.for_.iter);
		dump_block(D, s->u.for_.body);
		break;
	case STMT_IF:
		tag_open(D, "if-stmt");
		if (s->discard)
			buf_printf(D->b, " _if%d", s->discard);
		dump_expr(D, s->u.if_);
		break;
	case STMT_UNSAFE:
		tag_open(D, s->u.unsafe.has_audit ? "unsafe" : "unsafe-unaudited");
		strlit(D, s->u.unsafe.audit);
		dump_block(D, s->u.unsafe.body);
		break;
	}
	tag_close(D);
}

static void
dump_block(Dump *D, const Block *b)
{
	if (!b) {
		word(D, "-");
		return;
	}
	tag_open(D, "block");
	for (int i = 0; i < b->nstmts; i++)
		stmt(D, b->stmts[i]);
	tag_open(D, "tail");
	if (b->tail_discard)
		buf_printf(D->b, " _if%d", b->tail_discard);
	if (b->tail)
		dump_expr(D, b->tail);
	tag_close(D);
	tag_close(D);
}

/* ==== declarations ============================================================================= */

static void
params(Dump *D, const Param *ps, int n)
{
	static const char *const modes[] = {
		[MODE_NONE] = "none", [MODE_OWN] = "own", [MODE_BORROW] = "borrow", [MODE_SHARED] = "shared",
	};
	tag_open(D, "params");
	for (int i = 0; i < n; i++) {
		buf_puts(D->b, " (");
		buf_put(D->b, ps[i].name.s, ast_name_len(ps[i].name));
		word(D, modes[ps[i].mode]);
		type(D, ps[i].type);
		tag_close(D);
	}
	tag_close(D);
}

static void
clauses(Dump *D, const char *tag, const Clause *cs, int n, ClauseKind kind)
{
	tag_open(D, tag);
	for (int i = 0; i < n; i++)
		if (cs[i].kind == kind)
			dump_expr(D, cs[i].cond);
	tag_close(D);
}

static void
dump_function(Dump *D, const FnDecl *fn)
{
	name(D, fn->name);
	names(D, "tparams", fn->tparams, fn->ntparams);
	params(D, fn->params, fn->nparams);
	type(D, fn->result);
	effects(D, "uses", &fn->uses);
	clauses(D, "requires", fn->clauses, fn->nclauses, CLAUSE_REQUIRES);
	clauses(D, "ensures", fn->clauses, fn->nclauses, CLAUSE_ENSURES);
	dump_block(D, fn->body);
}

static void
field_decls(Dump *D, const FieldDecl *fs, int n)
{
	tag_open(D, "fields");
	for (int i = 0; i < n; i++) {
		tag_open(D, "field");
		id(D, &fs[i].id);
		name(D, fs[i].name);
		type(D, fs[i].type);
		tag_close(D);
	}
	tag_close(D);
}

static void
record_decl(Dump *D, const Decl *d)
{
	name(D, d->u.record.name);
	names(D, "tparams", d->u.record.tparams, d->u.record.ntparams);
	field_decls(D, d->u.record.fields, d->u.record.nfields);
	clauses(D, "invariants", d->u.record.invariants, d->u.record.ninvariants, CLAUSE_REQUIRES);
}

static void
variant_decl(Dump *D, const Decl *d)
{
	name(D, d->u.variant.name);
	names(D, "tparams", d->u.variant.tparams, d->u.variant.ntparams);
	for (int i = 0; i < d->u.variant.ncases; i++) {
		const CaseDecl *c = &d->u.variant.cases[i];
		tag_open(D, "case");
		id(D, &c->id);
		name(D, c->name);
		field_decls(D, c->fields, c->nfields);
		tag_close(D);
	}
}

static void
class_decl(Dump *D, const Decl *d)
{
	name(D, d->u.class_.name);
	names(D, "tparams", d->u.class_.tparams, d->u.class_.ntparams);
	if (d->u.class_.has_parent) {
		name(D, d->u.class_.parent);
		types(D, "targs", d->u.class_.parent_targs, d->u.class_.nparent_targs);
	} else {
		word(D, "-");
	}
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < d->u.class_.nmembers; i++) {
			const ClassMember *m = &d->u.class_.members[i];
			if (m->is_method != (pass == 1))
				continue;
			tag_open(D, m->is_method ? "method" : "field");
			id(D, &m->id);
			if (m->is_method) {
				dump_function(D, &m->method);
			} else {
				name(D, m->field.name);
				type(D, m->field.type);
			}
			tag_close(D);
		}
	}
}

static void
resource_decl(Dump *D, const Decl *d)
{
	name(D, d->u.resource.name);
	for (int i = 0; i < d->u.resource.ndrops; i++) {
		const ResourceDrop *r = &d->u.resource.drops[i];
		tag_open(D, "drop");
		id(D, &r->id);
		if (r->trivial) {
			word(D, "trivial");
		} else {
			tag_open(D, "import");
			strlit(D, r->import);
			tag_close(D);
		}
		tag_close(D);
	}
}

static void
import_fn(Dump *D, const ImportFn *f)
{
	tag_open(D, f->rust ? "import-rust" : "import");
	id(D, &f->id);
	name(D, f->name);
	params(D, f->params, f->nparams);
	name(D, f->result);
	effects(D, "effects", &f->effects);
	if (f->fallible) {
		tag_open(D, "status");
		strlit(D, f->status);
		tag_close(D);
	} else {
		word(D, "infallible");
	}
	if (f->has_consumes) {
		tag_open(D, "consumes");
		name(D, f->consumes);
		tag_close(D);
	} else {
		word(D, "-");
	}
	tag_close(D);
}

static void
interface_decl(Dump *D, const Decl *d)
{
	name(D, d->u.interface.name);
	effects(D, "permits", &d->u.interface.permits);
	for (int i = 0; i < d->u.interface.nimports; i++)
		import_fn(D, &d->u.interface.imports[i]);
}

static void
transition(Dump *D, const Transition *t)
{
	static const char *const kinds[] = {
		[TR_SEND] = "send", [TR_RECEIVE] = "receive", [TR_CALL] = "call", [TR_RETURN] = "return",
		[TR_CANCEL] = "cancel", [TR_TIMEOUT] = "timeout", [TR_FAIL] = "fail",
	};
	tag_open(D, "on");
	name(D, t->from);
	name(D, t->label);
	word(D, kinds[t->kind]);
	name(D, t->message);
	if (t->has_capability)
		qname(D, &t->capability);
	else
		word(D, "-");
	word(D, t->consumes_resource ? "consumes" : "-");
	if (t->has_via)
		strlit(D, t->via);
	else
		word(D, "-");
	if (!t->is_choice) {
		name(D, t->to);
	} else {
		tag_open(D, "choice");
		for (int i = 0; i < t->nchoices; i++) {
			buf_puts(D->b, " (");
			buf_put(D->b, t->choices[i].label.s, ast_name_len(t->choices[i].label));
			name(D, t->choices[i].state);
			tag_close(D);
		}
		tag_close(D);
	}
	tag_close(D);
}

static void
session_decl(Dump *D, const Decl *d)
{
	strlit(D, d->u.session.name);
	names(D, "states", d->u.session.states, d->u.session.nstates);
	name(D, d->u.session.initial);
	for (int i = 0; i < d->u.session.nterminals; i++) {
		const Terminal *t = &d->u.session.terminals[i];
		tag_open(D, "terminal");
		name(D, t->state);
		names(D, "cleanup", t->cleanup, t->ncleanup);
		tag_close(D);
	}
	for (int i = 0; i < d->u.session.ntransitions; i++)
		transition(D, &d->u.session.transitions[i]);
}

static void
decl(Dump *D, const Decl *d)
{
	static const char *const tags[] = {
		[DECL_FN] = "fn", [DECL_RECORD] = "record", [DECL_VARIANT] = "variant", [DECL_CLASS] = "class",
		[DECL_RESOURCE] = "resource", [DECL_INTERFACE] = "interface", [DECL_SESSION] = "session",
	};
	buf_printf(D->b, "(%s", tags[d->kind]);
	id(D, &d->id);
	switch (d->kind) {
	case DECL_FN: dump_function(D, &d->u.fn); break;
	case DECL_RECORD: record_decl(D, d); break;
	case DECL_VARIANT: variant_decl(D, d); break;
	case DECL_CLASS: class_decl(D, d); break;
	case DECL_RESOURCE: resource_decl(D, d); break;
	case DECL_INTERFACE: interface_decl(D, d); break;
	case DECL_SESSION: session_decl(D, d); break;
	}
	buf_puts(D->b, ")\n");
}

void
ast_dump(Buf *out, const Module *m)
{
	Dump D = { out };
	buf_puts(out, "(module");
	qname(&D, &m->name);
	buf_puts(out, ")\n");
	for (int i = 0; i < m->nuses; i++) {
		const UseDecl *u = &m->uses[i];
		buf_puts(out, u->is_type ? "(use type" : "(use function");
		strlit(&D, u->id);
		qname(&D, &u->from);
		name(&D, u->alias);
		buf_puts(out, ")\n");
	}
	buf_puts(out, "(permit");
	for (int i = 0; i < m->permit.nnames; i++)
		qname(&D, &m->permit.names[i]);
	buf_puts(out, ")\n");
	for (int g = 0; g < 4; g++)
		for (int i = 0; i < m->ndecls; i++)
			if (ast_decl_group(m->decls[i].kind) == g)
				decl(&D, &m->decls[i]);
}
