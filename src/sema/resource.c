/*
 * resource.c — resource lifecycles and interface import contracts (§4.9),
 * with the reference's codes and texts (its declaration checks):
 *
 *   - a resource declares exactly one destruction strategy: none (the
 *     legacy `resource R;`) is O112, a second one O113; every `drop` carries
 *     an explicit `@id` (O113);
 *   - an interface has an explicit `@id`, unique name and permits (I403);
 *     each import an explicit `@id` (its logical import key, unique), a
 *     valid failure domain and no duplicate effect (I403), every effect
 *     within its interface's permits and the shape of a finalizer — one
 *     `own` resource parameter, result `unit`, consumed always (I404);
 *   - `drop import "k"` names a declared import of that shape for this very
 *     resource that is `failure infallible` (O113).
 *
 * Rust imports (`import rust fn`) are out of scope (spec README, item 5)
 * and take none of the import checks here.
 */
#include "sema_int.h"

#include <string.h>

/* The reference's status-domain bound (bytes). */
#define STATUS_DOMAIN_MAX_BYTES 255

void
sema_check_resource(Sema *S, SymId id)
{
	Sym *r = sema_sym(S, id);
	const Decl *d = r->decl;
	if (!d || d->kind != DECL_RESOURCE)
		return;
	int n = d->u.resource.ndrops;
	if (d->u.resource.ntparams > 0) {
		/* the reference's generic_records.rs: only records, classes and variants are generic */
		Diag *dg = sema_error(S, DIAG_T223, d->u.resource.tparams[0].span, "resource `%s` cannot declare type parameters", r->name);
		diag_set_help(dg, "declare one resource per carried type, or wrap the values in a generic record");
	}
	if (n == 0) {
		Diag *dg = sema_error(S, DIAG_O112, r->name_span, "resource `%s` must declare exactly one destruction strategy", r->name);
		diag_set_help(dg, "declare an explicitly identified `drop trivial` or `drop import` strategy");
	} else if (n > 1) {
		Diag *dg = sema_error(S, DIAG_O113, d->u.resource.drops[1].span, "resource `%s` declares more than one destruction strategy", r->name);
		diag_set_help(dg, "keep one `drop trivial;` or `drop import \"…\";` line");
	}
	for (int i = 0; i < n; i++) {
		const ResourceDrop *drop = &d->u.resource.drops[i];
		if (!drop->id.present || drop->id.value.len == 0) {
			Diag *dg = sema_error(S, DIAG_O113, drop->span, "resource lifecycle `%s.drop` requires an explicit @id", r->name);
			diag_set_help(dg, "add @id(\"your.namespace.resource.drop\") before `drop`");
		} else if (memchr(drop->id.value.s, '\0', drop->id.value.len)) {
			/* the reference's NUL rule, under its lifecycle code */
			Diag *dg = sema_error(S, DIAG_O113, drop->id.span, "resource lifecycle `%s.drop` has an invalid stable id; persistent identities forbid NUL", r->name);
			diag_set_help(dg, "remove the NUL byte; write a dotted id such as @id(\"%s.drop\")", r->id);
		}
	}
	/* a NUL in the logical import key is this one O113 (sema_check_interfaces skips the key) */
	const StrLit *key = &ast_resource_drop0(d)->import;
	if (n == 1 && !ast_resource_drop0(d)->trivial && memchr(key->s, '\0', key->len)) {
		Diag *dg = sema_error(S, DIAG_O113, key->span, "resource lifecycle `%s.drop` has an invalid logical import key; persistent identities forbid NUL", r->name);
		diag_set_help(dg, "remove the NUL byte; the key is the finalizer import's `@id`");
	}
}

static bool
same_text(const char *a, uint32_t alen, const char *b, uint32_t blen)
{
	return alen == blen && memcmp(a, b, alen) == 0;
}

static bool
same_span_text(Sema *S, Span a, Span b)
{
	return same_text(S->src + a.start, a.end - a.start, S->src + b.start, b.end - b.start);
}

/* The resource a parameter type names (a plain declared resource), or -1. */
static SymId
resource_of(Sema *S, const Type *t)
{
	if (!t || t->kind != TYPE_NAME || ast_type_nargs(t) || ast_type_nparts(t) != 1)
		return -1;
	SymId sym = sema_strmap_get(&S->type_names, t->u.name.s);
	return sym >= 0 && sema_sym(S, sym)->kind == SK_RESOURCE ? sym : -1;
}

/* An import of the finalizer shape: one `own` resource parameter, `unit`, consumed always. */
static bool
finalizer_shape(Sema *S, const ImportFn *f)
{
	return strcmp(f->result.s, "unit") == 0 && f->nparams == 1 && f->params[0].mode == MODE_OWN &&
	       resource_of(S, f->params[0].type) >= 0 && f->has_consumes &&
	       same_text(f->consumes.s, ast_name_len(f->consumes), f->params[0].name.s, ast_name_len(f->params[0].name));
}

static void
check_interface(Sema *S, const Decl *d, int index)
{
	const char *iname = d->u.interface.name.s;
	for (int k = 0; k < index; k++) {
		const Decl *x = &S->m->decls[k];
		if (x->kind == DECL_INTERFACE && strcmp(x->u.interface.name.s, iname) == 0) {
			Diag *dg = sema_error(S, DIAG_I403, d->span, "duplicate interface `%s`", iname);
			diag_set_help(dg, "each interface name is declared once per module; rename one of them");
			break;
		}
	}
	if (!d->id.present || d->id.value.len == 0) {
		Diag *dg = sema_error(S, DIAG_I403, d->u.interface.name.span, "interface `%s` requires an explicit @id", iname);
		diag_set_help(dg, "add @id(\"your.namespace.interface\") before the interface");
	}
	const EffectSet *permits = &d->u.interface.permits;
	for (int i = 0; i < permits->nnames; i++) {
		for (int j = 0; j < i; j++) {
			if (!same_span_text(S, permits->names[i].span, permits->names[j].span))
				continue;
			Diag *dg = sema_error(S, DIAG_I403, d->span, "interface `%s` declares duplicate permit `%.*s`", iname,
			    (int)(permits->names[i].span.end - permits->names[i].span.start), S->src + permits->names[i].span.start);
			diag_set_help(dg, "list each effect once");
			break;
		}
	}
	for (int j = 0; j < d->u.interface.nimports; j++) {
		const ImportFn *f = &d->u.interface.imports[j];
		if (f->rust)
			continue;
		const char *fname = f->name.s;
		for (int k = 0; k < j; k++) {
			if (strcmp(d->u.interface.imports[k].name.s, fname) == 0) {
				Diag *dg = sema_error(S, DIAG_I403, f->span, "duplicate import `%s.%s`", iname, fname);
				diag_set_help(dg, "declare each import once per interface");
				break;
			}
		}
		if (!f->id.present || f->id.value.len == 0) {
			Diag *dg = sema_error(S, DIAG_I403, f->name.span, "import `%s.%s` requires an explicit @id", iname, fname);
			diag_set_help(dg, "the v1 import @id is also its target-neutral logical import key");
		} else if (!memchr(f->id.value.s, '\0', f->id.value.len)) {  /* a NUL id is I403 (decls.c), never a key */
			/* logical import keys are unique across the module's interfaces */
			bool dup = false;
			for (int k = 0; k <= index && !dup; k++) {
				const Decl *x = &S->m->decls[k];
				if (x->kind != DECL_INTERFACE)
					continue;
				int upto = k == index ? j : x->u.interface.nimports;
				for (int m = 0; m < upto && !dup; m++) {
					const ImportFn *g = &x->u.interface.imports[m];
					dup = !g->rust && g->id.present && same_text(g->id.value.s, g->id.value.len, f->id.value.s, f->id.value.len);
				}
			}
			if (dup) {
				Diag *dg = sema_error(S, DIAG_I403, f->span, "duplicate logical import key `%.*s`", (int)f->id.value.len, f->id.value.s);
				diag_set_help(dg, "give each import its own @id");
			}
		}
		if (!finalizer_shape(S, f)) {
			Diag *dg = sema_error(S, DIAG_I404, f->span, "import `%s.%s` must take one owned resource parameter and consume it always", iname, fname);
			diag_set_help(dg, "declare `import fn %s(value: own R) -> unit … consumes value always;`", fname);
		}
		if (f->fallible && (f->status.len == 0 || f->status.len > STATUS_DOMAIN_MAX_BYTES || memchr(f->status.s, 0, f->status.len))) {
			Diag *dg = sema_error(S, DIAG_I403, f->span, "import `%s.%s` has an invalid failure domain", iname, fname);
			diag_set_help(dg, "name a non-empty status domain of at most 255 bytes, e.g. `failure status \"io.error.v1\"`");
		}
		const EffectSet *fx = &f->effects;
		for (int e = 0; e < fx->nnames; e++) {
			Span es = fx->names[e].span;
			int elen = (int)(es.end - es.start);
			const char *etext = S->src + es.start;
			for (int k = 0; k < e; k++) {
				if (same_span_text(S, es, fx->names[k].span)) {
					Diag *dg = sema_error(S, DIAG_I403, f->span, "import `%s.%s` declares duplicate effect `%.*s`", iname, fname, elen, etext);
					diag_set_help(dg, "list each effect once");
					break;
				}
			}
			bool permitted = false;
			for (int k = 0; k < permits->nnames && !permitted; k++)
				permitted = same_span_text(S, es, permits->names[k].span);
			if (!permitted) {
				Diag *dg = sema_error(S, DIAG_I404, f->span, "import `%s.%s` requires effect `%.*s` outside interface `%s` permits", iname, fname, elen,
				    etext, iname);
				diag_set_help(dg, "add `%.*s` to `interface %s permits { … }`", elen, etext, iname);
			}
		}
	}
}

/* The non-Rust import whose logical key is key, or NULL. */
static const ImportFn *
find_import(Sema *S, const StrLit *key)
{
	for (int i = 0; i < S->m->ndecls; i++) {
		const Decl *x = &S->m->decls[i];
		if (x->kind != DECL_INTERFACE)
			continue;
		for (int j = 0; j < x->u.interface.nimports; j++) {
			const ImportFn *f = &x->u.interface.imports[j];
			if (!f->rust && f->id.present && same_text(f->id.value.s, f->id.value.len, key->s, key->len))
				return f;
		}
	}
	return NULL;
}

void
sema_check_interfaces(Sema *S)
{
	for (int i = 0; i < S->m->ndecls; i++)
		if (S->m->decls[i].kind == DECL_INTERFACE)
			check_interface(S, &S->m->decls[i], i);
	for (SymId id = 0; id < S->syms.len; id++) {
		Sym *r = sema_sym(S, id);
		const Decl *d = r->decl;
		if (r->kind != SK_RESOURCE || !d || d->kind != DECL_RESOURCE || d->u.resource.ndrops != 1 || ast_resource_drop0(d)->trivial)
			continue;
		const StrLit *key = &ast_resource_drop0(d)->import;
		if (memchr(key->s, 0, key->len))
			continue;
		const ImportFn *f = find_import(S, key);
		const ResourceDrop *drop = &d->u.resource.drops[0];
		if (!f) {
			Diag *dg = sema_error(S, DIAG_O113, drop->span, "resource `%s` references unknown logical import `%.*s`", r->name, (int)key->len, key->s);
			diag_set_help(dg, "declare the finalizer as an `import fn` with that `@id` in an interface, or use `drop trivial;`");
		} else if (!finalizer_shape(S, f) || resource_of(S, f->params[0].type) != id || f->fallible) {
			Diag *dg = sema_error(S, DIAG_O113, drop->span, "logical import `%.*s` is incompatible with automatic finalization of `%s`", (int)key->len,
			    key->s, r->name);
			diag_set_help(dg, "the finalizer takes `own %s`, returns `unit`, is `failure infallible` and `consumes <param> always`", r->name);
		}
	}
}
