/*
 * detail.c — what a contract failure reports beside its status
 * (LANGUAGE.md §4.7, §0.8): the function's stable identity, the phase, the
 * clause, and the frame's parameters in declaration order.  The data
 * changes no status, cleanup or result; single-file `run` puts it in the
 * `--json` outcome only.
 *
 * The clause is its source text, trimmed; when that spans lines or exceeds
 * 4,096 bytes, its expression id (`declaration:<len>:<fn-id>:expression:<n>`).
 * Values render as source literals with their width suffix (`-7`, `3i32`,
 * `255u8`, `4usize`, `'a'`, `1.5`, `0.25f32`, `true`; a non-finite float,
 * which has no literal, as `inf`, `-inf` or `NaN` in either width); owned and
 * borrowed data by kind and length, never its bytes (`<string 3 bytes>`,
 * `<str 2 bytes>`, `<Bytes 16 bytes>`, `<Slice<u8> 3 bytes>`, `<array u8 x4>`),
 * collections by their declared type's name and count (`<Vec<i64> 3 items>`,
 * `<Iter<i64> 2 items>`, `<Map<string, i64> 2 entries>`, `<Set<bool> 0
 * entries>`), other aggregates by kind only (`<Box<Node>>`, `<fn>`,
 * `<record>`, `<variant>`, `<data>`; a StdinReader, and Bytes, a view, a
 * collection, Box or function given for a type parameter `T`, too), and a
 * parameter moved away is `<moved>` (docs/DECISIONS.md).  A record
 * invariant reports the record's stable identity and phase `requires`, its
 * fields as the arguments.
 */
#include "interp.h"

#include <inttypes.h>
#include <string.h>

#include "../fmt/fmt.h"

/* The collection v (tag V_VEC, V_ITER or V_MAP) declared as type `name`
 * of kind `kind`: by the name and its count, `<Vec<i64> 3 items>`, `<Iter<i64>
 * 2 items>` (those left), `<Map<string, i64> 2 entries>`, `<Set<bool> 0
 * entries>`; given for a type parameter `<data>`. */
static void
render_count(Buf *b, const Value *v, TyKind kind, const char *name)
{
	TyKind want = v->tag == V_VEC ? TY_VEC : v->tag == V_ITER ? TY_ITER : kind == TY_SET ? TY_SET : TY_MAP;
	if (kind != want) {
		buf_puts(b, "<data>");
		return;
	}
	size_t n;
	if (v->tag == V_VEC)
		n = ((const VecObj *)v->p)->len;
	else if (v->tag == V_ITER)
		n = ((const IterObj *)v->p)->v->len - ((const IterObj *)v->p)->pos;
	else
		n = ((const MapObj *)v->p)->len;
	buf_printf(b, "<%s %zu %s>", name, n, kind == TY_VEC || kind == TY_ITER ? "items" : "entries");
}

static char *
render_value(const Value *v, TyKind kind, const char *name)
{
	Buf b = {0};
	switch ((VTag)v->tag) {
	case V_I64: buf_printf(&b, "%" PRId64, v->i); break;
	case V_I32: buf_printf(&b, "%" PRId64 "i32", v->i); break;
	case V_U8: buf_printf(&b, "%" PRIu64 "u8", v->u); break;
	case V_USIZE: buf_printf(&b, "%" PRIu64 "usize", v->u); break;
	case V_BOOL: buf_puts(&b, v->b ? "true" : "false"); break;
	case V_CHAR: fmt_char(&b, (uint32_t)v->u); break;
	case V_F64: fmt_float(&b, v->f, SUF_NONE); break;
	case V_F32: fmt_float(&b, (double)v->f32, SUF_F32); break;
	case V_STRING: buf_printf(&b, "<string %zu bytes>", ((const Bytes *)v->p)->len); break;
	case V_BYTES:
		/* a StdinReader is a Bytes here too, and a type parameter's value
		 * has no type but its tag, so by kind and length only a parameter
		 * declared Bytes (a view: str or Slice<u8>); else `<data>`, as the
		 * compiled lanes render by the declared type */
		if (kind == TY_BYTES)
			buf_printf(&b, "<Bytes %zu bytes>", ((const Bytes *)v->p)->len);
		else
			buf_puts(&b, "<data>");
		break;
	case V_ARRAY: buf_printf(&b, "<array u8 x%zu>", ((const Bytes *)v->p)->len); break;
	case V_VIEW:   /* a borrowed str or Slice<u8>: the declared type tells which */
		if (kind == TY_STR || kind == TY_SLICE)
			buf_printf(&b, "<%s %zu bytes>", kind == TY_SLICE ? "Slice<u8>" : "str", (size_t)v->n);
		else
			buf_puts(&b, "<data>");
		break;
	case V_RECORD: buf_puts(&b, "<record>"); break;
	case V_VARIANT: buf_puts(&b, "<variant>"); break;
	case V_VEC: case V_ITER: case V_MAP: render_count(&b, v, kind, name); break;
	case V_BOX:
		if (kind == TY_BOX)
			buf_printf(&b, "<%s>", name);
		else
			buf_puts(&b, "<data>");
		break;
	case V_FN: case V_CLOSURE: buf_puts(&b, kind == TY_FN ? "<fn>" : "<data>"); break;
	case V_EMPTY: buf_puts(&b, "<moved>"); break;
	default: buf_puts(&b, "<data>"); break;
	}
	return buf_take(&b);
}

void
interp_contract_detail(Interp *I, const Sema *S, const HirFunc *f, const Value *slots, int i, uint32_t code)
{
	InterpFailure *d = &I->res->failure;
	if (d->present)
		return;
	d->present = true;
	d->phase = code == RT_CONTRACT_ENSURES ? "ensures" : "requires";
	d->clause = hir_clause_text(S, f, i, code == RT_CONTRACT_ENSURES);
	d->function = spx_xstrdup(f->report_id);
	/* where the clause is written (`semaprax test` and a project's `run`
	 * print it): the i-th clause of its phase */
	for (int k = 0, seen = 0; f->clauses && k < f->nrequires + f->nensures; k++)
		if ((f->clauses[k].kind == CLAUSE_ENSURES) == (code == RT_CONTRACT_ENSURES) && seen++ == i) {
			d->where = S;
			d->at = f->clauses[k].span.start;
			break;
		}
	d->nargs = f->nparams;
	d->args = spx_xcalloc((size_t)(f->nparams ? f->nparams : 1), sizeof(InterpArg));
	for (int k = 0; k < f->nparams; k++) {
		d->args[k].name = f->locals[k].name;
		d->args[k].type = spx_xstrdup(sema_type_name((Sema *)S, f->locals[k].type));
		d->args[k].value = render_value(&slots[k], sema_type_info(&S->types, f->locals[k].type)->kind, d->args[k].type);
	}
}

void
interp_result_free(InterpResult *r)
{
	InterpFailure *d = &r->failure;
	for (int k = 0; k < d->nargs; k++) {
		free(d->args[k].type);
		free(d->args[k].value);
	}
	free(d->args);
	free(d->clause);
	free(d->function);
	buf_free(&r->out);
	buf_free(&r->err);
	memset(d, 0, sizeof *d);
}
