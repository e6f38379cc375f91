/*
 * link.c — the imports of a project module (`use function`/`use type`,
 * TOOLCHAIN.md §2.3): each resolved target becomes a symbol of the
 * importer under its alias, with no declaration of its own.
 *
 * Types cross the boundary by structural translation into the importer's
 * type table: scalars, text, bytes, arrays, Box/Vec/Iter/Map/Set and
 * function types rebuild from their parts; the prelude's Option, Result and
 * IterStep map to the importer's own prelude variants; an authored nominal
 * type is identified by (origin module, stable id) and maps to the
 * importer's `use type` symbol of that identity — a signature that mentions
 * an authored type the importer did not import is G172 naming it.  Type
 * parameters do not cross: imported functions and types are monomorphic.
 * The imported symbol keeps the target's stable id and records its origin
 * module (Sym.origin), so identity survives renaming by alias.
 */
#include "sema_int.h"

#include <string.h>

static const char *
origin_of(const Sema *P, const Sym *y)
{
	return y->origin ? y->origin : P->module_name;
}


/* The importer's symbol for the provider's nominal declaration, or -1. */
static SymId
map_nominal(Sema *S, const Sema *P, uint32_t decl)
{
	const Sym *y = &P->syms.items[decl];
	if (y->prelude) {
		if ((SymId)decl == P->sym_option)
			return S->sym_option;
		if ((SymId)decl == P->sym_result)
			return S->sym_result;
		if ((SymId)decl == P->sym_iterstep)
			return S->sym_iterstep;
		return -1;
	}
	const char *mod = origin_of(P, y);
	for (SymId i = 0; i < S->syms.len; i++) {
		const Sym *z = &S->syms.items[i];
		if (z->origin && z->kind == y->kind && strcmp(z->origin, mod) == 0 && strcmp(z->id, y->id) == 0)
			return i;
	}
	return -1;
}

/* Translates provider type t into S's table; T_ERR with *missing set to
 * the provider symbol that has no counterpart (or -2 for a type parameter). */
static TypeId
translate(Sema *S, const Sema *P, TypeId t, int32_t *missing)
{
	const TypeInfo *ti = sema_type_info(&P->types, t);
	switch (ti->kind) {
	case TY_PARAM:
		*missing = -2;
		return T_ERR;
	case TY_ARRAY:
		return sema_type_intern(&S->types, TY_ARRAY, 0, ti->n, NULL, 0);
	case TY_NOMINAL: {
		SymId d = map_nominal(S, P, ti->decl);
		if (d < 0) {
			*missing = (int32_t)ti->decl;
			return T_ERR;
		}
		TypeId args[8];
		int n = ti->nargs < 8 ? ti->nargs : 8;
		for (int i = 0; i < n; i++) {
			args[i] = translate(S, P, ti->args[i], missing);
			if (args[i] == T_ERR)
				return T_ERR;
		}
		return sema_type_intern(&S->types, TY_NOMINAL, (uint32_t)d, 0, args, n);
	}
	default:
		if (ti->nargs == 0)
			return (TypeId)ti->kind == t ? t : sema_type_intern(&S->types, ti->kind, 0, ti->n, NULL, 0);
		{
			TypeId *args = spx_xmalloc(sizeof(TypeId) * (size_t)ti->nargs);
			TyKind kind = ti->kind;
			int n = ti->nargs;
			for (int i = 0; i < n; i++) {
				args[i] = translate(S, P, sema_type_info(&P->types, t)->args[i], missing);
				if (args[i] == T_ERR) {
					free(args);
					return T_ERR;
				}
			}
			TypeId r = sema_type_intern(&S->types, kind, 0, 0, args, n);
			free(args);
			return r;
		}
	}
}

/* A translated type or G172 naming what the importer must import. */
static TypeId
translate_or_report(Sema *S, const Sema *P, TypeId t, const UseDecl *u, const char *what)
{
	int32_t missing = -1;
	TypeId r = translate(S, P, t, &missing);
	if (r != T_ERR || sema_type_info(&P->types, t)->kind == TY_ERROR)
		return r;
	/* one G172 per `use`: its later types name the same fix */
	for (int i = 0; i < S->diags->items.len; i++) {
		const Diag *d = &S->diags->items.items[i];
		if (d->code == DIAG_G172 && d->has_span && d->span.start == u->span.start)
			return T_ERR;
	}
	if (missing == -2) {
		Diag *d = sema_error(S, DIAG_G172, u->span, "%s mentions a type parameter; imported declarations must be monomorphic", what);
		diag_set_help(d, "import a monomorphic function or type, or wrap the generic one in a monomorphic helper in its module");
		return T_ERR;
	}
	const Sym *y = &P->syms.items[missing];
	/* the importer did `use type` it and that import was refused: its G172 says enough */
	for (int i = 0; i < S->m->nuses; i++)
		if (S->m->uses[i].is_type && strcmp(S->m->uses[i].id.s, y->id) == 0)
			return T_ERR;
	Diag *d = sema_error(S, DIAG_G172, u->span, "%s mentions type `%s` (`%s` of module `%s`), which this module does not import", what, y->name, y->id,
	    origin_of(P, y));
	diag_set_help(d, "add `use type @id(\"%s\") from %s as %s;` after `module`", y->id, origin_of(P, y), y->name);
	return T_ERR;
}

static const char *
text(Sema *S, const char *s)
{
	return arena_strndup(&S->arena, s, strlen(s));
}

static const char *
alias_of(Sema *S, const UseDecl *u)
{
	return text(S, u->alias.s);
}

/* The local symbol a `use` makes for the provider's y: kind, the alias,
 * the use's spans, y's stable id and origin, resolved; the rest zero. */
static Sym
imported_sym(Sema *S, const Sema *P, const Sym *y, SymKind kind, const char *alias, const UseDecl *u)
{
	Sym z;
	memset(&z, 0, sizeof z);
	z.kind = kind;
	z.name = alias;
	z.name_span = u->alias.span;
	z.span = u->span;
	z.id = text(S, y->id);
	z.explicit_id = true;
	z.owner = -1;
	sema_sym_nominal_init(S, &z);
	z.resolved = true;
	z.origin = text(S, origin_of(P, y));
	return z;
}

static FieldSym *
copy_fields(Sema *S, const Sema *P, const FieldSym *f, int n, const UseDecl *u, const char *what)
{
	FieldSym *out = ARENA_ARRAY(&S->arena, FieldSym, n ? n : 1);
	for (int i = 0; i < n; i++) {
		out[i] = f[i];
		out[i].name = text(S, f[i].name);
		out[i].id = text(S, f[i].id);
		out[i].span = u->span;
		out[i].declared_in = -1;
		out[i].type = translate_or_report(S, P, f[i].type, u, what);
	}
	return out;
}

/* The parameters, result and effects of provider function or method y,
 * translated into z (G172 at u for a type the importer lacks). */
static void
link_signature(Sema *S, const Sema *P, const Sym *y, Sym *z, const UseDecl *u, const char *what)
{
	z->nparams = y->nparams;
	z->params = ARENA_ARRAY(&S->arena, ParamSym, y->nparams ? y->nparams : 1);
	for (int j = 0; j < y->nparams; j++) {
		z->params[j] = y->params[j];
		z->params[j].name = text(S, y->params[j].name);
		z->params[j].span = u->span;
		z->params[j].type = translate_or_report(S, P, y->params[j].type, u, what);
	}
	z->result = translate_or_report(S, P, y->result, u, what);
	z->neffects = y->neffects;
	z->effects = ARENA_ARRAY(&S->arena, const char *, y->neffects ? y->neffects : 1);
	for (int j = 0; j < y->neffects; j++)
		z->effects[j] = text(S, y->effects[j]);
}

/*
 * An imported class: its effective fields (ancestors first, as declared),
 * its parent — which the importer must import too, so upcasts and inherited
 * calls keep one identity — and its own methods, each an imported SK_METHOD
 * of that stable id (the interpreter image runs the provider's body).
 */
static void
link_class(Sema *S, const Sema *P, const Sym *y, SymId zid, const UseDecl *u, const char *what)
{
	FieldSym *f = copy_fields(S, P, y->nom->fields, y->nom->nfields, u, what);
	for (int j = 0; j < y->nom->nfields; j++)
		f[j].declared_in = zid;
	Sym *z = sema_sym(S, zid);
	z->nom->fields = f;
	z->nom->nfields = y->nom->nfields;
	z->nom->field_dups = y->nom->field_dups;
	if (y->nom->parent >= 0) {
		SymId pz = map_nominal(S, P, (uint32_t)y->nom->parent);
		const Sym *py = &P->syms.items[y->nom->parent];
		if (pz < 0) {
			Diag *d = sema_error(S, DIAG_G172, u->span, "class `%s` extends `%s` (`%s` of module `%s`), which this module does not import", y->name,
			    py->name, py->id, origin_of(P, py));
			diag_set_help(d, "add `use type @id(\"%s\") from %s as %s;` after `module`", py->id, origin_of(P, py), py->name);
			return;
		}
		z->nom->parent = pz;
	}
	SymId *methods = ARENA_ARRAY(&S->arena, SymId, y->nom->nmethods ? y->nom->nmethods : 1);
	int n = 0;
	for (int j = 0; j < y->nom->nmethods; j++) {
		const Sym *pm = &P->syms.items[y->nom->methods[j]];
		if (pm->ntparams) {
			Diag *d = sema_error(S, DIAG_G172, u->span, "class `%s` has generic method `%s`; imported classes have monomorphic methods only", y->name, pm->name);
			diag_set_help(d, "make `%s` monomorphic, or keep the class inside `%s`", pm->name, origin_of(P, y));
			continue;
		}
		Sym m = imported_sym(S, P, pm, SK_METHOD, text(S, pm->name), u);
		m.owner = zid;
		link_signature(S, P, pm, &m, u, arena_printf(&S->arena, "method `%s.%s`", y->name, pm->name));
		methods[n++] = (SymId)S->syms.len;
		VEC_PUSH(S->syms, m);
	}
	z = sema_sym(S, zid);
	z->nom->methods = methods;
	z->nom->nmethods = n;
}

void
sema_link_imports(Sema *S, const SemaLink *links, int nlinks)
{
	/* 1. type identities, so that types and signatures may mention each other */
	SymId *made = spx_xmalloc(sizeof(SymId) * (size_t)(nlinks ? nlinks : 1));
	for (int i = 0; i < nlinks; i++) {
		made[i] = -1;
		const SemaLink *k = &links[i];
		const UseDecl *u = k->use;
		if (!u->is_type)
			continue;
		const Sym *y = &k->provider->syms.items[k->target];
		if (y->kind != SK_RECORD && y->kind != SK_VARIANT && y->kind != SK_CLASS && y->kind != SK_RESOURCE) {
			Diag *d = sema_error(S, DIAG_G172, u->span, "`use type` target `%s` is %s; records, variants, classes and resources cross module boundaries",
			    y->id, y->kind == SK_INTERFACE ? "an interface" : "not a type");
			diag_set_help(d, "import the functions that work on it with `use function` instead");
			continue;
		}
		/* a resource whose finalizer is an interface import needs that
		 * import's effects where it is owned: not across modules yet */
		if (y->kind == SK_RESOURCE && y->decl && !ast_resource_drop0(y->decl)->trivial && y->decl->u.resource.ndrops == 1) {
			Diag *d = sema_error(S, DIAG_G172, u->span, "`use type` target `%s` is a resource finalized by a logical import; only `drop trivial` resources cross module boundaries",
			    y->id);
			diag_set_help(d, "keep the values of `%s` inside `%s` and import the functions that use them", y->name, origin_of(k->provider, y));
			continue;
		}
		if (y->ntparams) {
			Diag *d = sema_error(S, DIAG_G172, u->span, "`use type` target `%s` is generic (`%s`); imported types must be monomorphic", y->id, y->name);
			diag_set_help(d, "import a monomorphic record or variant");
			continue;
		}
		const char *alias = alias_of(S, u);
		SymId id = (SymId)S->syms.len;
		if (!sema_strmap_put(&S->type_names, alias, id)) {
			Diag *d = sema_error(S, DIAG_G172, u->span, "alias `%s` is duplicated or shadows a local declaration", alias);
			diag_set_help(d, "choose another alias: `as Other%s`", alias);
			continue;
		}
		Sym z = imported_sym(S, k->provider, y, y->kind, alias, u);
		VEC_PUSH(S->syms, z);
		made[i] = id;
	}
	/* 2. fields and cases */
	for (int i = 0; i < nlinks; i++) {
		if (made[i] < 0)
			continue;
		const SemaLink *k = &links[i];
		const Sema *P = k->provider;
		const Sym *y = &P->syms.items[k->target];
		const char *what = arena_printf(&S->arena, "type `%s`", y->name);
		if (y->kind == SK_CLASS) {
			link_class(S, P, y, made[i], k->use, what);
		} else if (y->kind == SK_RESOURCE) {
			/* opaque: nothing but its identity crosses */
		} else if (y->kind == SK_RECORD) {
			FieldSym *f = copy_fields(S, P, y->nom->fields, y->nom->nfields, k->use, what);
			Sym *z = sema_sym(S, made[i]);
			z->nom->fields = f;
			z->nom->nfields = y->nom->nfields;
			z->nom->field_dups = y->nom->field_dups;
		} else {
			CaseSym *c = ARENA_ARRAY(&S->arena, CaseSym, y->nom->ncases ? y->nom->ncases : 1);
			for (int j = 0; j < y->nom->ncases; j++) {
				c[j] = y->nom->cases[j];
				c[j].name = text(S, y->nom->cases[j].name);
				c[j].id = text(S, y->nom->cases[j].id);
				c[j].span = k->use->span;
				c[j].field_map = NULL;
				c[j].fields = copy_fields(S, P, y->nom->cases[j].fields, y->nom->cases[j].nfields, k->use, what);
			}
			Sym *z = sema_sym(S, made[i]);
			z->nom->cases = c;
			z->nom->ncases = y->nom->ncases;
		}
	}
	/* 3. functions */
	for (int i = 0; i < nlinks; i++) {
		const SemaLink *k = &links[i];
		const UseDecl *u = k->use;
		if (u->is_type)
			continue;
		const Sema *P = k->provider;
		const Sym *y = &P->syms.items[k->target];
		if (y->kind != SK_FN) {
			Diag *d = sema_error(S, DIAG_G172, u->span, "`use function` target `%s` is not a module function (%s)", y->id, y->name);
			diag_set_help(d, "name a function's stable id, or import a type with `use type`");
			continue;
		}
		if (y->ntparams) {
			Diag *d = sema_error(S, DIAG_G172, u->span, "function target `%s` is generic (`%s`); imported functions must be monomorphic", y->id, y->name);
			diag_set_help(d, "add a monomorphic wrapper in `%s` and import that", P->module_name);
			continue;
		}
		const char *alias = alias_of(S, u);
		if (strcmp(alias, "main") == 0) {
			Diag *d = sema_error(S, DIAG_G172, u->span, "alias `%s` is duplicated or shadows a local declaration", alias);
			diag_set_help(d, "`main` is the module's entry; choose another alias");
			continue;
		}
		SymId id = (SymId)S->syms.len;
		if (!sema_strmap_put(&S->fn_names, alias, id)) {
			Diag *d = sema_error(S, DIAG_G172, u->span, "alias `%s` is duplicated or shadows a local declaration", alias);
			diag_set_help(d, "choose another alias: `as %s_imported`", alias);
			continue;
		}
		const char *what = arena_printf(&S->arena, "the signature of `%s`", y->name);
		Sym z = imported_sym(S, P, y, SK_FN, alias, u);
		link_signature(S, P, y, &z, u, what);
		VEC_PUSH(S->syms, z);
	}
	free(made);
}

bool
sema_failed_import(const Sema *S, const char *name, bool is_type)
{
	for (int i = 0; i < S->m->nuses; i++) {
		const UseDecl *u = &S->m->uses[i];
		if (u->is_type == is_type && strcmp(u->alias.s, name) == 0)
			return true;
	}
	return false;
}
