/*
 * cmd_doc.c — `semaprax doc <file> [--json|--html]`: the declarations of one
 * verified file in source order, each with its stable id, canonical header
 * (fmt_decl_header: generics, modes, `uses` effects), contracts, the `//`
 * comments the formatter places above it (fmt_comment_owners), and its
 * members (fields, cases, methods, imports, lifecycles) with their ids.
 *
 * One model (DocItem rows, a member row follows its declaration), three
 * renderings: text (default), `semaprax.doc.c1` JSON (docs/doc-format.md),
 * and one self-contained HTML page (no external resource; every source
 * byte escaped; anchors are the stable ids).  A file that does not verify
 * prints its diagnostics and exits 1, as `check`.
 *
 * `semaprax doc <dir>|semaprax.toml [--json]`: every module of the verified
 * project in ModuleId order (dotted module name), each documented as one
 * file is, under a `project` line; --json wraps the per-module
 * `semaprax.doc.c1` objects in `semaprax.project-doc.c1`.  The service
 * runs it with its held buffers (cli_proj_set_overlay).
 */
#include "cli.h"
#include "patch_cli.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../fmt/fmt.h"
#include "../support/arena.h"
#include "../support/json.h"
#include "graph_cli.h"

typedef struct DocItem {
	const char *kind;       /* function record variant class resource interface session
	                         * | field case method import drop */
	bool member;
	const char *id;         /* stable id; NULL for an unnamed lifecycle */
	const char *header;     /* canonical one-line header */
	const char **requires;  /* canonical expressions (record invariants here too) */
	int nrequires;
	const char **ensures;
	int nensures;
	const char **effects;   /* `uses` / import effects, source order */
	int neffects;
	const Comment **comments;
	int ncomments;
} DocItem;

typedef struct Doc {
	Arena a;
	VEC(DocItem) items;
	const Module *m;
	const Sema *S;
	const char *module;     /* dotted module name */
	const char *revision;
	const char *path;
	const Comment **mod_comments;
	int nmod_comments;
	const char **type_names;   /* top-level record/variant/class/resource/interface names … */
	const char **type_ids;     /* … and their stable ids (HTML links) */
	int ntypes;
	const char **uses;         /* a project module's imports: kind, id, from, as (four each) */
	int nuses;
} Doc;

static const char *
take(Doc *D, Buf *b)
{
	const char *s = arena_strndup(&D->a, b->data ? b->data : "", b->len);
	b->len = 0;
	return s;
}

static DocItem *
add(Doc *D, const char *kind, bool member, const char *id)
{
	DocItem it = { 0 };
	it.kind = kind;
	it.member = member;
	it.id = id;
	VEC_PUSH(D->items, it);
	return &D->items.items[D->items.len - 1];
}

static void
clauses(Doc *D, DocItem *it, const Clause *cs, int n)
{
	Buf b = {0};
	it->requires = arena_alloc(&D->a, sizeof(char *) * (size_t)(n + 1));
	it->ensures = arena_alloc(&D->a, sizeof(char *) * (size_t)(n + 1));
	for (int i = 0; i < n; i++) {
		fmt_expr_line(&b, cs[i].cond);
		if (cs[i].kind == CLAUSE_REQUIRES)
			it->requires[it->nrequires++] = take(D, &b);
		else
			it->ensures[it->nensures++] = take(D, &b);
	}
	buf_free(&b);
}

static void
effects(Doc *D, DocItem *it, const EffectSet *e)
{
	it->effects = arena_alloc(&D->a, sizeof(char *) * (size_t)(e->nnames + 1));
	for (int i = 0; i < e->nnames; i++) {
		Buf b = {0};
		for (int k = 0; k < e->names[i].nparts; k++) {
			if (k)
				buf_putc(&b, '.');
			buf_put(&b, e->names[i].parts[k].s, ast_name_len(e->names[i].parts[k]));
		}
		it->effects[it->neffects++] = take(D, &b);
		buf_free(&b);
	}
}

static void
function_item(Doc *D, const char *kind, bool member, const char *id, const FnDecl *fn)
{
	DocItem *it = add(D, kind, member, id);
	Buf b = {0};
	fmt_fn_header(&b, fn);
	it->header = take(D, &b);
	buf_free(&b);
	clauses(D, it, fn->clauses, fn->nclauses);
	effects(D, it, &fn->uses);
}

/* `name: Type` of a field. */
static void
field_item(Doc *D, const FieldDecl *f, const char *id)
{
	DocItem *it = add(D, "field", true, id);
	Buf b = {0};
	buf_put(&b, f->name.s, ast_name_len(f->name));
	buf_puts(&b, ": ");
	fmt_type_line(&b, f->type);
	it->header = take(D, &b);
	buf_free(&b);
}

static const Sym *
sym_at(const Doc *D, SymId id)
{
	return id >= 0 && id < D->S->syms.len ? &D->S->syms.items[id] : NULL;
}

/* A class's method symbols by declaration (then class order), for lookups. */
typedef struct MethodEnt {
	const FnDecl *fn;
	const Sym *sym;
	int order;
} MethodEnt;

static int
cmp_method_ent(const void *a, const void *b)
{
	const MethodEnt *x = a, *y = b;
	if (x->fn != y->fn)
		return (uintptr_t)x->fn < (uintptr_t)y->fn ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

/* The method symbol of a class member (NULL when the checker made none). */
static const Sym *
method_sym(const MethodEnt *ms, int n, const FnDecl *fn)
{
	/* the first method (in the class's order) whose declaration is fn */
	int lo = 0, hi = n;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if ((uintptr_t)ms[mid].fn < (uintptr_t)fn)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && ms[lo].fn == fn ? ms[lo].sym : NULL;
}

static const char *
explicit_id(Doc *D, const IdAttr *id)
{
	return id->present ? arena_strndup(&D->a, id->value.s, id->value.len) : NULL;
}

static void
members(Doc *D, const Decl *d, const Sym *s)
{
	Buf b = {0};
	switch (d->kind) {
	case DECL_RECORD:
		for (int i = 0; i < d->u.record.nfields; i++)
			field_item(D, &d->u.record.fields[i], s && i < s->nom->nfields ? s->nom->fields[i].id : explicit_id(D, &d->u.record.fields[i].id));
		break;
	case DECL_VARIANT:
		for (int i = 0; i < d->u.variant.ncases; i++) {
			const CaseDecl *c = &d->u.variant.cases[i];
			const CaseSym *cs = s && i < s->nom->ncases ? &s->nom->cases[i] : NULL;
			DocItem *it = add(D, "case", true, cs ? cs->id : explicit_id(D, &c->id));
			buf_put(&b, c->name.s, ast_name_len(c->name));
			if (c->nfields) {
				buf_puts(&b, " { ");
				for (int k = 0; k < c->nfields; k++) {
					if (k)
						buf_puts(&b, ", ");
					buf_put(&b, c->fields[k].name.s, ast_name_len(c->fields[k].name));
					buf_puts(&b, ": ");
					fmt_type_line(&b, c->fields[k].type);
				}
				buf_puts(&b, " }");
			}
			it->header = take(D, &b);
		}
		break;
	case DECL_CLASS: {
		SymId self = s ? (SymId)(s - D->S->syms.items) : -1;
		/* own fields: the class's effective fields declared here, in order (each
		 * member used to scan them all, and every method every method: quadratic) */
		const char **own_ids = arena_alloc(&D->a, sizeof(char *) * (size_t)((s ? s->nom->nfields : 0) + 1));
		int nown = 0;
		for (int k = 0; s && k < s->nom->nfields; k++)
			if (s->nom->fields[k].declared_in == self)
				own_ids[nown++] = s->nom->fields[k].id;
		int own = 0;
		for (int i = 0; i < d->u.class_.nmembers; i++) {
			const ClassMember *mb = &d->u.class_.members[i];
			if (mb->is_method)
				continue;
			const char *id = own < nown ? own_ids[own] : explicit_id(D, &mb->id);
			own++;
			field_item(D, &mb->field, id);
		}
		int nm = s ? s->nom->nmethods : 0;
		MethodEnt *ms = arena_alloc(&D->a, sizeof(MethodEnt) * (size_t)(nm + 1));
		int nms = 0;
		for (int i = 0; i < nm; i++) {
			const Sym *y = sym_at(D, s->nom->methods[i]);
			if (y)
				ms[nms++] = (MethodEnt){ y->fn, y, i };
		}
		if (nms)
			qsort(ms, (size_t)nms, sizeof *ms, cmp_method_ent);
		for (int i = 0; i < d->u.class_.nmembers; i++) {
			const ClassMember *mb = &d->u.class_.members[i];
			if (!mb->is_method)
				continue;
			const Sym *m = method_sym(ms, nms, &mb->method);
			function_item(D, "method", true, m ? m->id : explicit_id(D, &mb->id), &mb->method);
		}
		break;
	}
	case DECL_RESOURCE:
		for (int i = 0; i < d->u.resource.ndrops; i++) {
			const ResourceDrop *r = &d->u.resource.drops[i];
			DocItem *it = add(D, "drop", true, explicit_id(D, &r->id));
			if (r->trivial) {
				buf_puts(&b, "drop trivial");
			} else {
				buf_puts(&b, "drop import \"");
				for (uint32_t k = 0; k < r->import.len; k++) {   /* as the formatter quotes it */
					if (r->import.s[k] == '"' || r->import.s[k] == '\\')
						buf_putc(&b, '\\');
					buf_putc(&b, r->import.s[k]);
				}
				buf_putc(&b, '"');
			}
			it->header = take(D, &b);
		}
		break;
	case DECL_INTERFACE:
		for (int i = 0; i < d->u.interface.nimports; i++) {
			const ImportFn *f = &d->u.interface.imports[i];
			const char *id = explicit_id(D, &f->id);
			for (int k = 0; k < D->S->syms.len; k++)
				if (D->S->syms.items[k].kind == SK_IMPORT && D->S->syms.items[k].import == f)
					id = D->S->syms.items[k].id;
			DocItem *it = add(D, "import", true, id);
			fmt_import_header(&b, f);
			it->header = take(D, &b);
			effects(D, it, &f->effects);
		}
		break;
	default:
		break;
	}
	buf_free(&b);
}

static const char *const kind_names[] = {
	[DECL_FN] = "function", [DECL_RECORD] = "record", [DECL_VARIANT] = "variant",
	[DECL_CLASS] = "class", [DECL_RESOURCE] = "resource", [DECL_INTERFACE] = "interface",
	[DECL_SESSION] = "session",
};

typedef struct TypeEnt {
	const char *name, *id;
	int order;
} TypeEnt;

static int
cmp_type_ent(const void *a, const void *b)
{
	const TypeEnt *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : (x->order > y->order) - (x->order < y->order);
}

static void
build(Doc *D, const Session *L)
{
	const Module *m = L->m;
	D->m = m;
	D->S = L->S;
	D->module = D->S->module_name;
	/* declaration index → its symbol */
	const Sym **by_decl = arena_alloc(&D->a, sizeof(Sym *) * (size_t)(m->ndecls + 1));
	for (int i = 0; i < D->S->syms.len; i++) {
		const Sym *s = &D->S->syms.items[i];
		if (s->decl && s->decl >= m->decls && s->decl < m->decls + m->ndecls && !by_decl[s->decl - m->decls])
			by_decl[s->decl - m->decls] = s;
	}
	int *owner = arena_alloc(&D->a, sizeof(int) * (size_t)(m->ncomments + 1));
	fmt_comment_owners(m, L->src, L->len, owner);
	D->mod_comments = arena_alloc(&D->a, sizeof(Comment *) * (size_t)(m->ncomments + 1));
	for (int i = 0; i < m->ncomments; i++)
		if (owner[i] == FMT_COMMENT_MODULE)
			D->mod_comments[D->nmod_comments++] = &m->comments[i];
	D->uses = arena_alloc(&D->a, sizeof(char *) * 4 * (size_t)(m->nuses + 1));
	for (int i = 0; i < m->nuses; i++) {
		const UseDecl *u = &m->uses[i];
		Buf q = {0};
		for (int k = 0; k < u->from.nparts; k++)
			buf_printf(&q, "%s%s", k ? "." : "", u->from.parts[k].s);
		const char **row = &D->uses[4 * D->nuses++];
		row[0] = u->is_type ? "type" : "function";
		row[1] = arena_strndup(&D->a, u->id.s, u->id.len);
		row[2] = arena_strndup(&D->a, q.data ? q.data : "", q.len);
		row[3] = u->alias.s;
		buf_free(&q);
	}
	/* the comments grouped by owning declaration once (each declaration used to
	 * scan, and hold room for, every comment: quadratic time and memory) */
	int *first = arena_alloc(&D->a, sizeof(int) * (size_t)(m->ndecls + 2));
	const Comment **by_owner = arena_alloc(&D->a, sizeof(Comment *) * (size_t)(m->ncomments + 1));
	for (int k = 0; k < m->ncomments; k++)
		if (owner[k] >= 0 && owner[k] < m->ndecls)
			first[owner[k] + 1]++;
	for (int i = 0; i < m->ndecls; i++)
		first[i + 1] += first[i];
	{
		int *fill = arena_alloc(&D->a, sizeof(int) * (size_t)(m->ndecls + 1));
		for (int k = 0; k < m->ncomments; k++)
			if (owner[k] >= 0 && owner[k] < m->ndecls)
				by_owner[first[owner[k]] + fill[owner[k]]++] = &m->comments[k];
	}
	Buf b = {0};
	TypeEnt *ents = arena_alloc(&D->a, sizeof(TypeEnt) * (size_t)(m->ndecls + 1));
	D->type_names = arena_alloc(&D->a, sizeof(char *) * (size_t)(m->ndecls + 1));
	D->type_ids = arena_alloc(&D->a, sizeof(char *) * (size_t)(m->ndecls + 1));
	for (int i = 0; i < m->ndecls; i++) {
		const Decl *d = &m->decls[i];
		const Sym *s = by_decl[i];
		const char *id = s ? s->id : explicit_id(D, &d->id);
		if (s && id && d->kind != DECL_FN && d->kind != DECL_SESSION) {
			ents[D->ntypes] = (TypeEnt){ s->name, id, D->ntypes };
			D->ntypes++;
		}
		DocItem *it;
		if (d->kind == DECL_FN) {
			function_item(D, kind_names[d->kind], false, id, &d->u.fn);
			it = &D->items.items[D->items.len - 1];
		} else {
			it = add(D, kind_names[d->kind], false, id);
			fmt_decl_header(&b, d);
			it->header = take(D, &b);
			if (d->kind == DECL_RECORD)
				clauses(D, it, d->u.record.invariants, d->u.record.ninvariants);
			if (d->kind == DECL_INTERFACE)
				effects(D, it, &d->u.interface.permits);
		}
		it->comments = by_owner + first[i];   /* declaration i's comments, in source order */
		it->ncomments = first[i + 1] - first[i];
		members(D, d, s);
	}
	buf_free(&b);
	/* by name, stable (a repeated name keeps its first declaration first) */
	if (D->ntypes)
		qsort(ents, (size_t)D->ntypes, sizeof *ents, cmp_type_ent);
	for (int i = 0; i < D->ntypes; i++) {
		D->type_names[i] = ents[i].name;
		D->type_ids[i] = ents[i].id;
	}
}

/* ==== text ===================================================================================== */

static void
render_text(const Doc *D, Buf *o)
{
	buf_printf(o, "module %s (%s)\n", D->module, D->revision);
	for (int i = 0; i < D->nmod_comments; i++) {
		buf_puts(o, "//");
		/* a comment's control bytes (an escape sequence, a carriage return)
		 * shown as the ids' are, never sent to the terminal */
		diag_put_visible(o, D->mod_comments[i]->text, D->mod_comments[i]->len);
		buf_putc(o, '\n');
	}
	for (int i = 0; i < D->nuses; i++) {
		/* the imported id shown as the item ids are: no control bytes on the line */
		buf_printf(o, "use %s ", D->uses[4 * i]);
		diag_put_visible(o, D->uses[4 * i + 1], strlen(D->uses[4 * i + 1]));
		buf_printf(o, " from %s as %s\n", D->uses[4 * i + 2], D->uses[4 * i + 3]);
	}
	for (int i = 0; i < D->items.len; i++) {
		const DocItem *it = &D->items.items[i];
		const char *pad = it->member ? "    " : "";
		if (!it->member)
			buf_putc(o, '\n');
		buf_puts(o, pad);
		if (it->id)
			diag_put_visible(o, it->id, strlen(it->id));   /* no control bytes on a line of its own */
		else
			buf_putc(o, '-');
		buf_printf(o, "  %s\n", it->header);
		for (int k = 0; k < it->ncomments; k++) {
			buf_printf(o, "%s    //", pad);
			diag_put_visible(o, it->comments[k]->text, it->comments[k]->len);
			buf_putc(o, '\n');
		}
		for (int k = 0; k < it->nrequires; k++)
			buf_printf(o, "%s    requires %s\n", pad, it->requires[k]);
		for (int k = 0; k < it->nensures; k++)
			buf_printf(o, "%s    ensures %s\n", pad, it->ensures[k]);
	}
}

/* ==== JSON (semaprax.doc.c1) ========================================================================= */

static void
json_list(Buf *o, const char *key, const char *const *v, int n)
{
	if (n == 0)
		return;
	buf_printf(o, ",\"%s\":[", key);
	for (int i = 0; i < n; i++) {
		if (i)
			buf_putc(o, ',');
		json_cstr(o, v[i]);
	}
	buf_putc(o, ']');
}

static void
json_comments(Buf *o, const Comment *const *cs, int n)
{
	if (n == 0)
		return;
	buf_puts(o, ",\"comments\":[");
	for (int i = 0; i < n; i++) {
		if (i)
			buf_putc(o, ',');
		json_str(o, cs[i]->text, cs[i]->len);
	}
	buf_putc(o, ']');
}

static void
json_item(Buf *o, const DocItem *it)
{
	buf_puts(o, "{\"kind\":");
	json_cstr(o, it->kind);
	buf_puts(o, ",\"id\":");
	json_cstr(o, it->id);
	buf_puts(o, ",\"header\":");
	json_cstr(o, it->header);
	json_list(o, "effects", it->effects, it->neffects);
	json_list(o, "requires", it->requires, it->nrequires);
	json_list(o, "ensures", it->ensures, it->nensures);
	json_comments(o, it->comments, it->ncomments);
}

static void
render_json(const Doc *D, Buf *o)
{
	buf_puts(o, "{\"schema\":\"semaprax.doc.c1\",\"path\":");
	json_cstr(o, D->path);
	buf_puts(o, ",\"module\":");
	json_cstr(o, D->module);
	buf_puts(o, ",\"revision\":");
	json_cstr(o, D->revision);
	json_comments(o, D->mod_comments, D->nmod_comments);
	if (D->nuses) {
		static const char *const keys[] = { "kind", "id", "from", "as" };
		buf_puts(o, ",\"imports\":[");
		for (int i = 0; i < D->nuses; i++) {
			buf_puts(o, i ? ",{" : "{");
			for (int k = 0; k < 4; k++) {
				buf_printf(o, "%s\"%s\":", k ? "," : "", keys[k]);
				json_cstr(o, D->uses[4 * i + k]);
			}
			buf_putc(o, '}');
		}
		buf_putc(o, ']');
	}
	buf_puts(o, ",\"declarations\":[");
	for (int i = 0; i < D->items.len;) {
		if (i)
			buf_putc(o, ',');
		json_item(o, &D->items.items[i]);
		int k = i + 1;
		if (k < D->items.len && D->items.items[k].member) {
			buf_puts(o, ",\"members\":[");
			for (; k < D->items.len && D->items.items[k].member; k++) {
				if (k > i + 1)
					buf_putc(o, ',');
				json_item(o, &D->items.items[k]);
				buf_putc(o, '}');
			}
			buf_putc(o, ']');
		}
		buf_putc(o, '}');
		i = k;
	}
	buf_puts(o, "]}\n");
}

/* ==== HTML ============================================================================================== */

/* Escapes markup; the rest is shown as the text form shows it (diag_put_visible:
 * control bytes as \xNN, C1 and bidi controls as \u{NN}). */
static void
html_esc(Buf *o, const char *s, size_t n)
{
	size_t run = 0;
	for (size_t i = 0; i < n; i++) {
		const char *ent = NULL;
		switch (s[i]) {
		case '&': ent = "&amp;"; break;
		case '<': ent = "&lt;"; break;
		case '>': ent = "&gt;"; break;
		case '"': ent = "&quot;"; break;
		case '\'': ent = "&#39;"; break;
		default: continue;
		}
		diag_put_visible(o, s + run, i - run);
		buf_puts(o, ent);
		run = i + 1;
	}
	diag_put_visible(o, s + run, n - run);
}

static void
html_cstr(Buf *o, const char *s)
{
	html_esc(o, s, strlen(s));
}

static bool
ident_byte(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Compares the C string a with the n bytes at b, bytewise. */
static int
name_cmp(const char *a, const char *b, size_t n)
{
	size_t la = strlen(a);
	int c = memcmp(a, b, la < n ? la : n);
	return c ? c : (la > n) - (la < n);
}

/* A header, escaped, each name of a declared type a link to its declaration. */
static void
html_header(Buf *o, const Doc *D, const char *h)
{
	for (size_t i = 0; h[i];) {
		if (!ident_byte(h[i])) {   /* one scalar whole, so a bidi control is seen as one */
			size_t k = 1;
			while (((unsigned char)h[i + k] & 0xC0) == 0x80)
				k++;
			html_esc(o, h + i, k);
			i += k;
			continue;
		}
		size_t n = 0;
		while (ident_byte(h[i + n]))
			n++;
		/* binary search over the names sorted by build (bytewise; ties keep source order) */
		int lo = 0, hi = D->ntypes, t = -1;
		while (lo < hi) {
			int mid = (lo + hi) / 2;
			if (name_cmp(D->type_names[mid], h + i, n) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < D->ntypes && name_cmp(D->type_names[lo], h + i, n) == 0)
			t = lo;
		if (t >= 0) {
			buf_puts(o, "<a href=\"#");
			html_cstr(o, D->type_ids[t]);
			buf_puts(o, "\">");
			html_esc(o, h + i, n);
			buf_puts(o, "</a>");
		} else {
			html_esc(o, h + i, n);
		}
		i += n;
	}
}

static void
html_comments(Buf *o, const Comment *const *cs, int n)
{
	if (n == 0)
		return;
	buf_puts(o, "<pre class=\"c\">");
	for (int i = 0; i < n; i++) {
		buf_puts(o, "//");
		html_esc(o, cs[i]->text, cs[i]->len);
		buf_putc(o, '\n');
	}
	buf_puts(o, "</pre>\n");
}

static void
html_contracts(Buf *o, const DocItem *it)
{
	for (int k = 0; k < it->nrequires; k++) {
		buf_puts(o, "<div class=\"k\">requires <code>");
		html_cstr(o, it->requires[k]);
		buf_puts(o, "</code></div>\n");
	}
	for (int k = 0; k < it->nensures; k++) {
		buf_puts(o, "<div class=\"k\">ensures <code>");
		html_cstr(o, it->ensures[k]);
		buf_puts(o, "</code></div>\n");
	}
}

/* An anchor: the stable id itself (escaped), or nothing for an unnamed lifecycle. */
static void
html_anchor(Buf *o, const DocItem *it)
{
	if (!it->id)
		return;
	buf_puts(o, " id=\"");
	html_cstr(o, it->id);
	buf_putc(o, '"');
}

static void
html_link(Buf *o, const DocItem *it)
{
	if (!it->id) {
		buf_puts(o, "<span class=\"i\">-</span>");
		return;
	}
	buf_puts(o, "<a class=\"i\" href=\"#");
	html_cstr(o, it->id);
	buf_puts(o, "\">");
	html_cstr(o, it->id);
	buf_puts(o, "</a>");
}

static void
render_html(const Doc *D, Buf *o)
{
	buf_puts(o, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
	html_cstr(o, D->module);
	buf_puts(o, "</title>\n<style>\n"
	         "body{font-family:sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.4}\n"
	         "code,pre{font-family:monospace}pre.c{color:#555;margin:.3rem 0}\n"
	         "section{border-top:1px solid #ccc;padding:.5rem 0}h2{font-size:1rem;margin:.2rem 0}\n"
	         ".i{color:#666;font-size:.85rem}.k{margin-left:1.5rem}ul{margin:.3rem 0}\n"
	         "</style>\n</head>\n<body>\n<h1>module <code>");
	html_cstr(o, D->module);
	buf_puts(o, "</code></h1>\n<p class=\"i\">");
	html_cstr(o, D->revision);
	buf_puts(o, "</p>\n");
	html_comments(o, D->mod_comments, D->nmod_comments);
	buf_puts(o, "<nav>\n<ul>\n");
	for (int i = 0; i < D->items.len; i++) {
		const DocItem *it = &D->items.items[i];
		if (it->member)
			continue;
		buf_puts(o, "<li>");
		html_link(o, it);
		buf_puts(o, " ");
		html_cstr(o, it->kind);
		buf_puts(o, "</li>\n");
	}
	buf_puts(o, "</ul>\n</nav>\n");
	for (int i = 0; i < D->items.len;) {
		const DocItem *it = &D->items.items[i];
		buf_puts(o, "<section");
		html_anchor(o, it);
		buf_puts(o, ">\n<h2><code>");
		html_header(o, D, it->header);
		buf_puts(o, "</code></h2>\n");
		html_link(o, it);
		buf_putc(o, '\n');
		html_comments(o, it->comments, it->ncomments);
		html_contracts(o, it);
		int k = i + 1;
		if (k < D->items.len && D->items.items[k].member) {
			buf_puts(o, "<ul>\n");
			for (; k < D->items.len && D->items.items[k].member; k++) {
				const DocItem *mb = &D->items.items[k];
				buf_puts(o, "<li");
				html_anchor(o, mb);
				buf_puts(o, "><code>");
				html_header(o, D, mb->header);
				buf_puts(o, "</code> ");
				html_link(o, mb);
				buf_putc(o, '\n');
				html_contracts(o, mb);
				buf_puts(o, "</li>\n");
			}
			buf_puts(o, "</ul>\n");
		}
		buf_puts(o, "</section>\n");
		i = k;
	}
	buf_puts(o, "</body>\n</html>\n");
}

/* ==== the command ======================================================================================= */

/* `doc` of a project: text or JSON (no HTML: a page is one file's). */
static int
doc_project(const char *manifest, int mode)
{
	if (mode == 2)
		return cli_usage("doc", "doc of a project prints text or --json; --html renders one file (`doc <file> --html`)");
	int nov;
	const ProjectOverlay *ov = cli_proj_overlay(&nov);
	Project pj;
	bool ok = project_check_overlay(&pj, manifest, ov, nov);
	project_emit_diags(&pj, ok ? false : mode == 1);
	if (!ok) {
		project_free(&pj);
		return EXIT_FAIL;
	}
	Program *P = &pj.P;
	Buf o = {0};
	if (mode == 1) {
		buf_puts(&o, "{\"schema\":\"semaprax.project-doc.c1\",\"project\":");
		json_cstr(&o, pj.man.name);
		buf_puts(&o, ",\"version\":");
		json_cstr(&o, pj.man.version);
		buf_puts(&o, ",\"revision\":");
		json_cstr(&o, P->revision);
		buf_puts(&o, ",\"modules\":[");
	} else {
		buf_printf(&o, "project %s %s (%s)\n", pj.man.name, pj.man.version, P->revision);
	}
	for (int k = 0; k < P->nmods; k++) {
		const Session *L = &P->mods[k]->s;
		Doc D = { 0 };
		arena_init(&D.a);
		D.path = project_spelled_path(&pj, L->diags.path);
		D.revision = L->revision;
		build(&D, L);
		if (mode == 1) {
			if (k)
				buf_putc(&o, ',');
			render_json(&D, &o);
			while (o.len && o.data[o.len - 1] == '\n')
				o.len--;
		} else {
			buf_printf(&o, "\n== %s\n", D.path);
			render_text(&D, &o);
		}
		VEC_FREE(D.items);
		arena_free(&D.a);
	}
	if (mode == 1)
		buf_puts(&o, "]}\n");
	fwrite(o.data, 1, o.len, stdout);
	buf_free(&o);
	project_free(&pj);
	return EXIT_OK;
}

int
cli_cmd_doc(int argc, char **argv)
{
	const char *path = NULL, *manifest_path = NULL;
	int mode = 0;   /* 0 text, 1 json, 2 html */
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--manifest-path") == 0 && !manifest_path && i + 1 < argc)
			manifest_path = argv[++i];
		else if (strcmp(a, "--manifest-path") == 0)
			return cli_option_error("doc", a, (const char *const[]){ "--manifest-path", NULL }, NULL);
		else if ((strcmp(a, "--json") == 0 || strcmp(a, "--html") == 0) && mode == 0)
			mode = a[2] == 'j' ? 1 : 2;
		else if (strcmp(a, "--json") == 0 || strcmp(a, "--html") == 0)
			return cli_usage("doc", "doc takes one of --json or --html, once");
		else if (a[0] == '-' && a[1] != '\0')
			return cli_unknown_option("doc", a, NULL);
		else if (!path)
			path = a;
		else
			return cli_usage("doc", "doc requires exactly <file> [--json|--html], or a project: [<dir>|semaprax.toml|--manifest-path <p>] [--json] (none: ./semaprax.toml)");
	}
	if (path && manifest_path)
		return cli_usage("doc", "doc takes an operand or --manifest-path, not both");
	/* No operand: the project in the working directory, as graph and query. */
	char *manifest = project_manifest_for(path, manifest_path);
	if (manifest) {
		int st = doc_project(manifest, mode);
		free(manifest);
		return st;
	}
	Program P;
	Session *L;
	bool ok = driver_program_load_file(&P, path, &L, SESSION_CHECK);
	if (!ok)
		cli_listed_module_help(&L->diags, path, "doc", "");
	/* failures as `check` reports them; warnings of a verified file on stderr only */
	diag_emit_all(&L->diags, ok ? false : mode == 1);
	if (!ok) {
		cli_unload(&P);
		return EXIT_FAIL;
	}
	Doc D = { 0 };
	arena_init(&D.a);
	D.path = path;
	D.revision = P.revision;
	build(&D, L);
	Buf o = {0};
	if (mode == 1)
		render_json(&D, &o);
	else if (mode == 2)
		render_html(&D, &o);
	else
		render_text(&D, &o);
	fwrite(o.data, 1, o.len, stdout);
	buf_free(&o);
	VEC_FREE(D.items);
	arena_free(&D.a);
	cli_unload(&P);
	return EXIT_OK;
}
