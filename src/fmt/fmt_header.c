/*
 * fmt_header.c — the header line of each declaration, shared by the
 * formatter's layout (fmt.c prints it, then the body) and by readers that
 * want one line per declaration (doc, query, graph): fmt_decl_header.
 *
 * A header is what the formatter prints before the declaration's `{`:
 *   fn add<T>(left: i64, right: borrow T) -> i64     (then `uses`, contracts)
 *   record Point<T>        variant Shape<T>        class C<T> : Base<i64>
 *   resource File          interface Host         session protocol "p"
 * The one-line form (fmt_decl_header) appends a function's ` uses { … }`
 * and an interface's ` permits { … }`, which the layout prints on the next
 * line; contracts, invariants, fields, cases, members and bodies are left out.
 */
#include "fmt_priv.h"

#include <stdlib.h>

void
fmt_hd_fn(Fmt *F, const FnDecl *fn)
{
	buf_puts(F->out, "fn ");
	fmt_fx_name(F, fn->name);
	fmt_fx_tparams(F, fn->tparams, fn->ntparams);
	fmt_fx_params(F, fn->params, fn->nparams);
	buf_puts(F->out, " -> ");
	fmt_fx_type(F, fn->result);
}

void
fmt_hd_type(Fmt *F, const Decl *d)
{
	switch (d->kind) {
	case DECL_FN:
		fmt_hd_fn(F, &d->u.fn);
		break;
	case DECL_RECORD:
		buf_puts(F->out, "record ");
		fmt_fx_name(F, d->u.record.name);
		fmt_fx_tparams(F, d->u.record.tparams, d->u.record.ntparams);
		break;
	case DECL_VARIANT:
		buf_puts(F->out, "variant ");
		fmt_fx_name(F, d->u.variant.name);
		fmt_fx_tparams(F, d->u.variant.tparams, d->u.variant.ntparams);
		break;
	case DECL_CLASS:
		buf_puts(F->out, "class ");
		fmt_fx_name(F, d->u.class_.name);
		fmt_fx_tparams(F, d->u.class_.tparams, d->u.class_.ntparams);
		if (d->u.class_.has_parent) {
			buf_puts(F->out, " : ");
			fmt_fx_name(F, d->u.class_.parent);
			if (d->u.class_.nparent_targs) {
				buf_putc(F->out, '<');
				for (int i = 0; i < d->u.class_.nparent_targs; i++) {
					if (i)
						buf_puts(F->out, ", ");
					fmt_fx_type(F, d->u.class_.parent_targs[i]);
				}
				buf_putc(F->out, '>');
			}
		}
		break;
	case DECL_RESOURCE:
		buf_puts(F->out, "resource ");
		fmt_fx_name(F, d->u.resource.name);
		fmt_fx_tparams(F, d->u.resource.tparams, d->u.resource.ntparams);   /* refused by the checker (T223) */
		break;
	case DECL_INTERFACE:
		buf_puts(F->out, "interface ");
		fmt_fx_name(F, d->u.interface.name);
		break;
	case DECL_SESSION:
		buf_puts(F->out, "session protocol ");
		fmt_fx_quoted(F, d->u.session.name);
		break;
	}
}

/* A Fmt that only prints headers: no comments, no expressions (so no `<` hazards). */
static void
one_line(Buf *out, const Decl *d, const FnDecl *fn)
{
	Fmt F = { 0 };
	F.out = out;
	if (fn) {
		fmt_hd_fn(&F, fn);
		if (fn->uses.nnames > 0) {
			buf_puts(out, " uses ");
			fmt_fx_effects(&F, fn->uses.names, fn->uses.nnames);
		}
	} else {
		fmt_hd_type(&F, d);
		if (d->kind == DECL_INTERFACE) {
			buf_puts(out, " permits ");
			fmt_fx_effects(&F, d->u.interface.permits.names, d->u.interface.permits.nnames);
		}
	}
	VEC_FREE(F.lts);
	VEC_FREE(F.force);
}

void
fmt_decl_header(Buf *out, const Decl *d)
{
	one_line(out, d, d->kind == DECL_FN ? &d->u.fn : NULL);
}

void
fmt_fn_header(Buf *out, const FnDecl *fn)
{
	one_line(out, NULL, fn);
}

/*
 * Which declaration each comment documents, as the formatter places it:
 * owner[i] for m->comments[i] is the index into m->decls of the declaration
 * it leads (printed above its `@id`: comments above it, or inside its
 * header and contracts), FMT_COMMENT_MODULE for a comment above `module`,
 * or FMT_COMMENT_NONE (inside a body, trailing an item, at the file's end).
 */
void
fmt_comment_owners(const Module *m, const char *src, size_t len, int *owner)
{
	Fmt F = { 0 };
	F.src = src;
	F.len = len;
	fmt_place_comments(&F, m);
	for (int i = 0; i < m->ncomments; i++)
		owner[i] = FMT_COMMENT_NONE;
	for (int i = 0; i < F.nplaced; i++) {
		const Placed *p = &F.placed[i];
		if (p->place == CP_HEADER) {
			owner[p->index] = FMT_COMMENT_MODULE;
			continue;
		}
		if (p->place != CP_LEADING)
			continue;
		/* declarations are in source order: the one starting at key, if any */
		int lo = 0, hi = m->ndecls;
		while (lo < hi) {
			int mid = (lo + hi) / 2;
			if (m->decls[mid].span.start < p->key)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < m->ndecls && m->decls[lo].span.start == p->key)
			owner[p->index] = lo;
	}
	free(F.placed);
}

void
fmt_comment_items(const Module *m, const char *src, size_t len, uint32_t *key)
{
	Fmt F = { 0 };
	F.src = src;
	F.len = len;
	fmt_place_comments(&F, m);
	for (int i = 0; i < m->ncomments; i++)
		key[i] = FMT_COMMENT_NO_ITEM;
	for (int i = 0; i < F.nplaced; i++) {
		const Placed *p = &F.placed[i];
		if (p->place == CP_LEADING || p->place == CP_TRAILING)
			key[p->index] = p->key;
	}
	free(F.placed);
}

/* ==== one-line pieces for readers (doc, query, graph) ==================================== */

void
fmt_expr_line(Buf *out, const Expr *e)
{
	Buf tmp = {0};
	Fmt F = { 0 };
	F.out = &tmp;
	for (int round = 0;; round++) {
		fmt_fx_cond(&F, e);
		if (round == 1000 || !fmt_fx_lt_hazards(&F, 0))
			break;
		tmp.len = 0;
		tmp.data[0] = '\0';
	}
	buf_put(out, tmp.data, tmp.len);
	buf_free(&tmp);
	VEC_FREE(F.lts);
	VEC_FREE(F.force);
}

void
fmt_type_line(Buf *out, const Type *t)
{
	Fmt F = { 0 };
	F.out = out;
	fmt_fx_type(&F, t);
	VEC_FREE(F.lts);
	VEC_FREE(F.force);
}

void
fmt_pattern_line(Buf *out, const Pattern *p)
{
	Fmt F = { 0 };
	F.out = out;
	fmt_fx_pattern(&F, p);
	VEC_FREE(F.lts);
	VEC_FREE(F.force);
}

void
fmt_import_header(Buf *out, const ImportFn *f)
{
	Fmt F = { 0 };
	F.out = out;
	buf_puts(out, f->rust ? "import rust fn " : "import fn ");
	fmt_fx_name(&F, f->name);
	fmt_fx_params(&F, f->params, f->nparams);
	buf_puts(out, " -> ");
	fmt_fx_name(&F, f->result);
	buf_puts(out, " effects ");
	fmt_fx_effects(&F, f->effects.names, f->effects.nnames);
	VEC_FREE(F.lts);
	VEC_FREE(F.force);
}
