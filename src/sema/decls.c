/*
 * decls.c — the symbol table: the prelude, every declaration with its
 * stable identity (S codes), and resolution of declared types (T001,
 * T220, T221), class parents and overrides (T227, T230; the hierarchy itself
 * is hierarchy.c) and by-value recursion (T217).
 *
 * Pass order follows the reference (§0.2): type identities, then function
 * declarations, then class members; all before any body is checked.
 */
#include "sema_int.h"

#include <stdio.h>
#include <string.h>

Sym *
sema_sym(Sema *S, SymId id)
{
	ASSERT(id >= 0 && id < S->syms.len, "bad SymId");
	return &S->syms.items[id];
}

const SymNominal sema_sym_nominal_none = { .parent = -1 };

void
sema_sym_nominal_init(Sema *S, Sym *s)
{
	if (s->kind == SK_FN || s->kind == SK_METHOD || s->kind == SK_IMPORT) {
		s->nom = (SymNominal *)&sema_sym_nominal_none;
		return;
	}
	s->nom = ARENA_NEW(&S->arena, SymNominal);
	s->nom->parent = -1;
}

static SymId
new_sym(Sema *S, SymKind kind, const char *name)
{
	Sym s;
	spx_zero(&s, sizeof s);   /* (inline, memset and an initializer were `rep stos`) */
	s.kind = kind;
	s.name = name;
	s.owner = -1;
	sema_sym_nominal_init(S, &s);
	VEC_PUSH(S->syms, s);
	return (SymId)(S->syms.len - 1);
}

/* ==== the prelude: Option, Result, IterStep (TOOLCHAIN.md §3.2) ============= */

static FieldSym
prelude_field(Sema *S, const char *name, const char *id, TypeId type)
{
	FieldSym f;
	memset(&f, 0, sizeof f);
	f.name = name;
	f.id = id;
	f.explicit_id = true;
	f.type = type;
	(void)S;
	return f;
}

/* A symbol's array of n elements: every empty one (no type parameters,
 * parameters or effects: most functions) is the same zeroed, never written
 * block, not 8 or 24 bytes of its own. */
static void *
sym_array(Sema *S, size_t size, int n)
{
	if (n > 0)
		return arena_alloc(&S->arena, size * (size_t)n);
	if (!S->empty_array)
		S->empty_array = arena_alloc(&S->arena, 32);   /* >= sizeof(ParamSym) */
	return S->empty_array;
}

static SymId
prelude_variant(Sema *S, const char *name, const char *id, int ntparams)
{
	SymId v = new_sym(S, SK_VARIANT, name);
	Sym *s = sema_sym(S, v);
	s->id = id;
	s->explicit_id = true;
	s->prelude = true;
	s->ntparams = ntparams;
	s->tparams = ARENA_ARRAY(&S->arena, const char *, ntparams);
	s->tparams[0] = "T";
	if (ntparams > 1)
		s->tparams[1] = "E";
	s->resolved = true;
	sema_strmap_put(&S->type_names, name, v);
	sema_strmap_put(&S->ids, id, v);
	return v;
}

static CaseSym
prelude_case(const char *name, const char *id, FieldSym *fields, int n)
{
	CaseSym c;
	memset(&c, 0, sizeof c);
	c.name = name;
	c.id = id;
	c.explicit_id = true;
	c.has_payload = n > 0;
	c.fields = fields;
	c.nfields = n;
	return c;
}

static void
prelude(Sema *S)
{
	S->sym_option = prelude_variant(S, "Option", "core.option", 1);
	S->sym_result = prelude_variant(S, "Result", "core.result", 2);
	S->sym_iterstep = prelude_variant(S, "IterStep", "core.iter.step", 1);
	TypeId T0 = sema_type_intern(&S->types, TY_PARAM, (uint32_t)S->sym_option, 0, NULL, 0);
	TypeId R0 = sema_type_intern(&S->types, TY_PARAM, (uint32_t)S->sym_result, 0, NULL, 0);
	TypeId R1 = sema_type_intern(&S->types, TY_PARAM, (uint32_t)S->sym_result, 1, NULL, 0);
	TypeId I0 = sema_type_intern(&S->types, TY_PARAM, (uint32_t)S->sym_iterstep, 0, NULL, 0);

	CaseSym *oc = ARENA_ARRAY(&S->arena, CaseSym, 2);
	FieldSym *some = ARENA_NEW(&S->arena, FieldSym);
	*some = prelude_field(S, "value", "core.option.some.value", T0);
	oc[0] = prelude_case("None", "core.option.none", NULL, 0);
	oc[1] = prelude_case("Some", "core.option.some", some, 1);
	sema_sym(S, S->sym_option)->nom->cases = oc;
	sema_sym(S, S->sym_option)->nom->ncases = 2;

	CaseSym *rc = ARENA_ARRAY(&S->arena, CaseSym, 2);
	FieldSym *ok = ARENA_NEW(&S->arena, FieldSym), *err = ARENA_NEW(&S->arena, FieldSym);
	*ok = prelude_field(S, "value", "core.result.ok.value", R0);
	*err = prelude_field(S, "error", "core.result.err.error", R1);
	rc[0] = prelude_case("Ok", "core.result.ok", ok, 1);
	rc[1] = prelude_case("Err", "core.result.err", err, 1);
	sema_sym(S, S->sym_result)->nom->cases = rc;
	sema_sym(S, S->sym_result)->nom->ncases = 2;

	CaseSym *ic = ARENA_ARRAY(&S->arena, CaseSym, 2);
	FieldSym *yf = ARENA_ARRAY(&S->arena, FieldSym, 2);
	TypeId iter = sema_type_intern(&S->types, TY_ITER, 0, 0, &I0, 1);
	yf[0] = prelude_field(S, "item", "core.iter.step.yield.item", I0);
	yf[1] = prelude_field(S, "rest", "core.iter.step.yield.rest", iter);
	ic[0] = prelude_case("Done", "core.iter.step.done", NULL, 0);
	ic[1] = prelude_case("Yield", "core.iter.step.yield", yf, 2);
	sema_sym(S, S->sym_iterstep)->nom->cases = ic;
	sema_sym(S, S->sym_iterstep)->nom->ncases = 2;
}

/* ==== stable identities ===================================================== */

static const char *
auto_id(Sema *S, const char *kind, const char *owner, const char *name)
{
	if (kind)
		return arena_printf(&S->arena, "auto:%s:%s.%s", kind, owner, name);
	return arena_printf(&S->arena, "auto:%s.%s", owner, name);
}

/* The tree's decoded bytes, not a copy: they are NUL-terminated, an id
 * holding a NUL is refused (reject_nul_id), and symbols already point into
 * the tree (Sym.decl), which outlives the checker. */
static const char *
id_text(Sema *S, const IdAttr *a)
{
	(void)S;
	return a->value.s ? a->value.s : "";
}

/*
 * An explicit stable id holding a literal NUL byte, as the reference: S102,
 * I403 for interfaces and imports (O113 for a drop strategy, sema.c).
 * `subject` names the declaration (`function `f``, `field `R.a``).
 * Returns whether it was reported.
 */
/* Does the written id hold a NUL?  (Call sites test this before they
 * format the subject: nearly no id does.) */
static bool
nul_id(const IdAttr *a)
{
	return a->present && memchr(a->value.s, '\0', a->value.len) != NULL;
}

static bool
reject_nul_id_as(Sema *S, DiagCode code, const IdAttr *a, Span span, const char *subject)
{
	if (!nul_id(a))
		return false;
	Diag *d = sema_error(S, code, span, "%s has an invalid stable id; persistent identities forbid NUL", subject);
	diag_set_help(d, "remove the NUL byte; a stable id is a dotted name such as @id(\"your.namespace.symbol\")");
	return true;
}

static void
reject_nul_id(Sema *S, const IdAttr *a, Span span, const char *subject)
{
	(void)reject_nul_id_as(S, DIAG_S102, a, span, subject);
}

/* Interface imports: a NUL in an import's id is I403 (its logical key too). */
static void
reject_nul_import_ids(Sema *S, const Decl *d)
{
	for (int i = 0; i < d->u.interface.nimports; i++) {
		const ImportFn *f = &d->u.interface.imports[i];
		if (nul_id(&f->id))
			reject_nul_id_as(S, DIAG_I403, &f->id, f->span,
			    arena_printf(&S->arena, "import `%s.%s`", d->u.interface.name.s, f->name.s));
	}
}

/* Registers a stable id; S102 when empty or already used. */
static void
claim_id(Sema *S, SymId sym, const char *id, bool explicit_id, Span span, const char *what)
{
	if (explicit_id && id[0] == '\0') {
		Diag *d = sema_error(S, DIAG_S102, sym >= 0 ? sema_sym(S, sym)->name_span : span, "%s `%s` has an empty stable id", what,
		    sym >= 0 ? sema_sym(S, sym)->name : "declaration");
		diag_set_help(d, "give the declaration a dotted stable identity with @id(\"your.namespace.symbol\")");
		return;
	}
	const Builtin *owned = explicit_id ? sema_builtin_find_id(id) : NULL;
	if (owned) {
		/* the reference: an operation's identity is S113, a prelude type's S102 */
		Diag *d = sema_error(S, DIAG_S113, span, "stable id `%s` is reserved by the compiler-owned operation `%s`", id, owned->name);
		diag_set_help(d, "give the declaration an identity in your own namespace, e.g. @id(\"your.namespace.symbol\")");
		return;
	}
	if (!sema_strmap_put(&S->ids, id, sym)) {
		Diag *d = sema_error(S, DIAG_S102, span, "duplicate stable id `%s`", id);
		diag_set_help(d, "every declaration needs its own stable id; rename one of them");
	}
}

static const char *
kind_word(SymKind k)
{
	switch (k) {
	case SK_RECORD: case SK_CLASS: return "record";
	case SK_VARIANT: return "variant";
	case SK_RESOURCE: return "resource";
	case SK_INTERFACE: return "interface";
	default: return "function";
	}
}

/* A declaration, field or case named by a reserved word (sema_source_identifier):
 * S106 for a type, S110 for a field or case, as the reference (qa33). */
static void
reserved_member(Sema *S, DiagCode code, Span at, const char *name, const char *what)
{
	if (sema_source_identifier(name))
		return;
	Diag *d = sema_error(S, code, at, "`%s` is not a valid %s identifier", name, what);
	diag_set_help(d, "`%s` has a meaning of its own in SEMAPRAX; choose another name", name);
}

/* ==== collection ============================================================== */

static const char *
name_str(Sema *S, Name n)
{
	(void)S;
	return n.s;
}

/* A single-part type name spelled `name` with n type arguments (declared field types). */
static bool
type_spelled(const Type *t, const char *name, int nargs)
{
	return t && t->kind == TYPE_NAME && ast_type_nparts(t) == 1 && ast_type_nargs(t) == nargs &&
	    strcmp(t->u.name.s, name) == 0;
}

/*
 * The fields of one record, class or variant case, in the reference's order
 * per field: a stored borrowed view (O116 `str`, T264 `Slice<u8>`), a
 * repeated name or identity (S111), a used identity (S102), an automatic
 * identity (S112 warning).  `subject` spells the owner in messages (`Point`,
 * `Shape::Rect`); case_owner selects the variant-case wording.
 */
static void
collect_fields(Sema *S, const char *owner_id, const FieldDecl *fs, int n, FieldSym **out, int *nout, const char *subject,
    bool case_owner)
{
	FieldSym *f = ARENA_ARRAY(&S->arena, FieldSym, n ? n : 1);
	StrMap names = {0}, ids = {0};   /* the names and identities so far (S111) */
	for (int i = 0; i < n; i++) {
		f[i].name = name_str(S, fs[i].name);
		f[i].span = fs[i].name.span;
		f[i].explicit_id = fs[i].id.present;
		f[i].id = fs[i].id.present ? id_text(S, &fs[i].id) : auto_id(S, case_owner ? "case-field" : "field", owner_id, f[i].name);
		f[i].declared_in = -1;
		const char *stored = type_spelled(fs[i].type, "str", 0) ? "str" : NULL;
		if (!stored && type_spelled(fs[i].type, "Slice", 1) && type_spelled(ast_type_args(fs[i].type)[0], "u8", 0))
			stored = "Slice<u8>";
		if (stored) {
			const char *fmt = case_owner ? "variant field `%s.%s` cannot store borrowed `%s`" : "aggregate field `%s.%s` cannot store borrowed `%s`";
			Span at = fs[i].name.span;   /* the field, from its name (not its attribute) to its type */
			at.end = fs[i].span.end;
			Diag *d = sema_error(S, stored[0] == 's' ? DIAG_O116 : DIAG_T264, at, fmt, subject, f[i].name, stored);
			diag_set_help(d, stored[0] == 's' ? "store an owned `string`; a `str` view cannot outlive the call that borrowed it"
			    : "store owned `Bytes`; a `Slice<u8>` view cannot outlive the call that borrowed it");
		}
		reserved_member(S, DIAG_S110, fs[i].name.span, f[i].name, case_owner ? "case field" : "field");
		bool repeated = !sema_strmap_put(&names, f[i].name, i);
		repeated |= !sema_strmap_put(&ids, f[i].id, i);
		if (repeated) {
			Diag *d = sema_error(S, DIAG_S111, fs[i].name.span, case_owner ? "duplicate field `%s` in case `%s`" : "duplicate field `%s` in record `%s`",
			    f[i].name, subject);
			diag_set_help(d, "each field name and identity appears once; rename or remove one");
		}
		if (nul_id(&fs[i].id))
			reject_nul_id(S, &fs[i].id, fs[i].id.span, arena_printf(&S->arena, "field `%s.%s`", subject, f[i].name));
		claim_id(S, -1, f[i].id, f[i].explicit_id, f[i].explicit_id ? fs[i].id.span : fs[i].name.span, "field");
		if (!f[i].explicit_id) {
			Diag *d = diag_report(S->diags, DIAG_S112, &fs[i].name.span, case_owner ? "case field `%s.%s` has an automatic identity that changes when renamed"
			    : "field `%s.%s` has an automatic identity that changes when renamed", subject, f[i].name);
			diag_set_help(d, case_owner ? "add @id(\"your.namespace.variant.case.field\") before the field"
			    : "add @id(\"your.namespace.record.field\") before the field");
		}
	}
	sema_strmap_free(&names);
	sema_strmap_free(&ids);
	*out = f;
	*nout = n;
}

/* The cases of a variant and their fields (S111, S102, S112 per case, then its fields). */
static void
collect_cases(Sema *S, SymId id)
{
	Sym *s = sema_sym(S, id);
	const Decl *d = s->decl;
	int n = d->u.variant.ncases;
	s->nom->cases = ARENA_ARRAY(&S->arena, CaseSym, n ? n : 1);
	s->nom->ncases = n;
	StrMap ids = {0};   /* the case identities so far (S111) */
	if (n == 0) {
		Diag *dg = sema_error(S, DIAG_T215, s->name_span, "variant `%s` must declare at least one case", s->name);
		diag_set_help(dg, "declare a case, e.g. `variant %s { @id(\"…\") None, }`, or use a record", s->name);
	}
	for (int i = 0; i < n; i++) {
		const CaseDecl *cd = &d->u.variant.cases[i];
		CaseSym *c = &sema_sym(S, id)->nom->cases[i];
		c->name = cd->name.s;
		c->span = cd->name.span;
		c->explicit_id = cd->id.present;
		c->id = cd->id.present ? id_text(S, &cd->id) : auto_id(S, "case", s->id, c->name);
		c->has_payload = cd->nfields > 0;
		if (!s->nom->case_map) {
			s->nom->case_map = spx_xcalloc(1, sizeof(StrMap));
			sema_strmap_reserve(s->nom->case_map, (size_t)n);
		}
		reserved_member(S, DIAG_S110, cd->name.span, c->name, "variant case");
		bool repeated = !sema_strmap_put(s->nom->case_map, c->name, i);
		repeated |= !sema_strmap_put(&ids, c->id, i);
		if (repeated) {
			Diag *dg = sema_error(S, DIAG_S111, cd->name.span, "duplicate case `%s` in variant `%s`", c->name, s->name);
			diag_set_help(dg, "each case name and identity appears once; rename or remove one");
		}
		if (nul_id(&cd->id))
			reject_nul_id(S, &cd->id, cd->id.span, arena_printf(&S->arena, "case `%s::%s`", s->name, c->name));
		claim_id(S, -1, c->id, c->explicit_id, c->explicit_id ? cd->id.span : cd->name.span, "case");
		if (!c->explicit_id) {
			Diag *dg = diag_report(S->diags, DIAG_S112, &cd->name.span, "case `%s::%s` has an automatic identity that changes when renamed",
			    s->name, c->name);
			diag_set_help(dg, "add @id(\"your.namespace.variant.case\") before the case");
		}
		const char *subject = arena_printf(&S->arena, "%s::%s", s->name, c->name);
		collect_fields(S, c->id, cd->fields, cd->nfields, &c->fields, &c->nfields, subject, true);
	}
	sema_strmap_free(&ids);
}

/* Members of a type declaration, collected with its identity (pass 1). */
static void
collect_members(Sema *S, SymId id)
{
	Sym *s = sema_sym(S, id);
	const Decl *d = s->decl;
	switch (d->kind) {
	case DECL_RECORD:
		collect_fields(S, s->id, d->u.record.fields, d->u.record.nfields, &s->nom->fields, &s->nom->nfields, s->name, false);
		break;
	case DECL_VARIANT:
		collect_cases(S, id);
		break;
	case DECL_CLASS: {
		VEC(FieldDecl) fds = {0};
		for (int i = 0; i < d->u.class_.nmembers; i++)
			if (!d->u.class_.members[i].is_method)
				VEC_PUSH(fds, d->u.class_.members[i].field);
		collect_fields(S, s->id, fds.items, fds.len, &s->nom->fields, &s->nom->nfields, s->name, false);
		VEC_FREE(fds);
		break;
	}
	default:
		break;
	}
}

static void
collect_type(Sema *S, const Decl *d)
{
	SymKind kind;
	Name name;
	switch (d->kind) {
	case DECL_RECORD: kind = SK_RECORD; name = d->u.record.name; break;
	case DECL_VARIANT: kind = SK_VARIANT; name = d->u.variant.name; break;
	case DECL_CLASS: kind = SK_CLASS; name = d->u.class_.name; break;
	case DECL_RESOURCE: kind = SK_RESOURCE; name = d->u.resource.name; break;
	case DECL_INTERFACE: kind = SK_INTERFACE; name = d->u.interface.name; break;
	default: return;
	}
	SymId id = new_sym(S, kind, name.s);
	Sym *s = sema_sym(S, id);
	s->decl = d;
	s->name_span = name.span;
	s->span = d->span;
	s->explicit_id = d->id.present;
	s->id = d->id.present ? id_text(S, &d->id)
	    : auto_id(S, kind == SK_CLASS ? "class" : kind_word(kind), S->module_name, s->name);
	/* §3.3: an authored `Box` is an ordinary type unless the module also
	 * uses the compiler-owned Box operations (the reference's collision). */
	if (kind != SK_INTERFACE)   /* an interface's is I403, peripheral (§0.15) */
		reserved_member(S, DIAG_S106, name.span, s->name, kind == SK_CLASS ? "class" : kind_word(kind));
	bool box_collides = strcmp(s->name, "Box") == 0 && sema_uses_box_ops(S->m);
	if (strcmp(s->name, "Option") == 0 || strcmp(s->name, "Result") == 0 || strcmp(s->name, "IterStep") == 0 ||
	    strcmp(s->name, "Vec") == 0 || strcmp(s->name, "Iter") == 0 ||
	    strcmp(s->name, "Map") == 0 || strcmp(s->name, "Set") == 0 || strcmp(s->name, "Slice") == 0) {
		Diag *dg = sema_error(S, DIAG_S113, name.span, "type name `%s` is reserved by compiler prelude `semaprax.prelude.v1`", s->name);
		diag_set_help(dg, "choose another name; `%s` is compiler-owned", s->name);
	} else if (box_collides) {
		Diag *dg = sema_error(S, DIAG_S113, name.span, "type name `Box` is reserved by the compiler-owned Box this module uses");
		diag_set_help(dg, "rename this type, or drop the `box_new`/`box_get`/`box_into_inner` calls; an authored `Box` is an ordinary type only without them");
	} else if (!sema_strmap_put(&S->type_names, s->name, id)) {
		Diag *dg = sema_error(S, DIAG_S107, name.span, "duplicate %s `%s`", kind == SK_RESOURCE ? "resource" : "type", s->name);
		diag_set_help(dg, "each type name is declared once per module; rename one of them");
	}
	if (kind == SK_INTERFACE) {
		/* an invalid id is not claimed (the reference) */
		if (!nul_id(&d->id) || !reject_nul_id_as(S, DIAG_I403, &d->id, d->span, arena_printf(&S->arena, "interface `%s`", s->name)))
			claim_id(S, id, s->id, s->explicit_id, d->span, kind_word(kind));
		reject_nul_import_ids(S, d);
	} else {
		if (nul_id(&d->id))
			reject_nul_id(S, &d->id, d->span, arena_printf(&S->arena, "%s `%s`", kind == SK_CLASS ? "class" : kind_word(kind), s->name));
		claim_id(S, id, s->id, s->explicit_id, d->span, kind_word(kind));
	}
	if (!s->explicit_id && kind != SK_INTERFACE) {   /* an interface's is I403 (resource.c) */
		Diag *dg = diag_report(S->diags, DIAG_S108, &name.span, "%s `%s` has an automatic identity that changes when renamed",
		    kind_word(kind), s->name);
		diag_set_help(dg, "add @id(\"your.namespace.%s\") before the declaration", kind_word(kind));
	}
	collect_members(S, id);
}

/*
 * Identifiers that cannot name functions or parameters (the reference's
 * list, minus `own`/`borrow`/`shared`, which §0.10 keeps usable as names).
 */
bool
sema_source_identifier(const char *name)
{
	/* module permit resource fn uses requires ensures let if else true
	 * false result, by first byte (every parameter and function asks) */
	switch (name[0]) {
	case 'm': return strcmp(name, "module") != 0;
	case 'p': return strcmp(name, "permit") != 0;
	case 'r': return strcmp(name, "resource") != 0 && strcmp(name, "requires") != 0 && strcmp(name, "result") != 0;
	case 'f': return strcmp(name, "fn") != 0 && strcmp(name, "false") != 0;
	case 'u': return strcmp(name, "uses") != 0;
	case 'e': return strcmp(name, "ensures") != 0 && strcmp(name, "else") != 0;
	case 'l': return strcmp(name, "let") != 0;
	case 'i': return strcmp(name, "if") != 0;
	case 't': return strcmp(name, "true") != 0;
	default: return true;
	}
}

/*
 * The reference's authenticated std wrappers: the identities of the
 * `std.mem` Box wrappers (T286) and the `std.collections` Vec wrappers (T283)
 * belong to their module, and there a function carrying one, or named like
 * one, must be the exact transparent wrapper `fn op<T>(params) -> R {
 * intrinsic<T>(params) }` without effects or contracts.  Parameters and
 * results are spelled below: 'T' the type parameter, 'u' usize, 'V' Vec<T>,
 * 'B' Box<T>; modes 'n' none, 'o' own, 'b' borrow.
 */
typedef struct StdWrapper {
	const char *module, *id, *name, *op;
	const char *params[3];   /* parameter names */
	const char *modes, *types;
	char result;
} StdWrapper;

static const StdWrapper std_wrappers[] = {
	{ "std.mem", "std.mem.box.new", "new", "box_new", { "value" }, "n", "T", 'B' },
	{ "std.mem", "std.mem.box.get", "get", "box_get", { "value" }, "b", "B", 'T' },
	{ "std.mem", "std.mem.box.into-inner", "into_inner", "box_into_inner", { "value" }, "o", "B", 'T' },
	{ "std.collections", "std.collections.vec.with-capacity", "with_capacity", "vec_with_capacity", { "capacity" }, "n", "u", 'V' },
	{ "std.collections", "std.collections.vec.push", "push", "vec_push", { "values", "value" }, "on", "VT", 'V' },
	{ "std.collections", "std.collections.vec.len", "len", "vec_len", { "values" }, "b", "V", 'u' },
	{ "std.collections", "std.collections.vec.capacity", "capacity", "vec_capacity", { "values" }, "b", "V", 'u' },
	{ "std.collections", "std.collections.vec.get", "get", "vec_get", { "values", "index" }, "bn", "Vu", 'T' },
	{ "std.collections", "std.collections.vec.reserve-exact", "reserve_exact", "vec_reserve_exact", { "values", "additional" }, "on", "Vu", 'V' },
	{ "std.collections", "std.collections.vec.set", "set", "vec_set", { "values", "index", "value" }, "onn", "VuT", 'V' },
	{ "std.collections", "std.collections.vec.clear", "clear", "vec_clear", { "values" }, "o", "V", 'V' },
};

static bool
wrapper_type(const Type *t, char k)
{
	switch (k) {
	case 'T': return type_spelled(t, "T", 0);
	case 'u': return type_spelled(t, "usize", 0);
	case 'V': return type_spelled(t, "Vec", 1) && type_spelled(ast_type_args(t)[0], "T", 0);
	default: return type_spelled(t, "Box", 1) && type_spelled(ast_type_args(t)[0], "T", 0);
	}
}

static bool
exact_std_wrapper(const FnDecl *fn, const StdWrapper *w)
{
	int n = (int)strlen(w->types);
	if (strcmp(fn->name.s, w->name) != 0 || fn->ntparams != 1 || strcmp(fn->tparams[0].s, "T") != 0 || fn->uses.nnames > 0 ||
	    fn->nclauses || fn->nparams != n || !wrapper_type(fn->result, w->result))
		return false;
	for (int i = 0; i < n; i++) {
		ParamMode want = w->modes[i] == 'o' ? MODE_OWN : w->modes[i] == 'b' ? MODE_BORROW : MODE_NONE;
		if (strcmp(fn->params[i].name.s, w->params[i]) != 0 || fn->params[i].mode != want || !wrapper_type(fn->params[i].type, w->types[i]))
			return false;
	}
	const Block *b = fn->body;
	const Expr *t = b ? b->tail : NULL;
	if (!b || b->nstmts || !t || t->kind != EXPR_CALL || strcmp(t->u.call.callee.s, w->op) != 0 || t->u.call.ntargs != 1 ||
	    !type_spelled(t->u.call.targs[0], "T", 0) || t->u.call.nargs != n)
		return false;
	for (int i = 0; i < n; i++)
		if (t->u.call.args[i]->kind != EXPR_NAME || strcmp(t->u.call.args[i]->u.name.s, w->params[i]) != 0)
			return false;
	return true;
}

/* Is v a call of this module's exact `std.collections` wrapper that consumes
 * and returns the Vec (push, reserve_exact, set, clear) on the binding
 * `name`?  Such a call reopens the owner in place, like the operation it wraps. */
bool
sema_std_reopen(Sema *S, const char *name, const Expr *v)
{
	if (strcmp(S->module_name, "std.collections") != 0 || v->kind != EXPR_CALL || v->u.call.nargs < 1 ||
	    v->u.call.args[0]->kind != EXPR_NAME || strcmp(v->u.call.args[0]->u.name.s, name) != 0)
		return false;
	SymId id = sema_strmap_get(&S->fn_names, v->u.call.callee.s);
	const Sym *s = id >= 0 ? sema_sym(S, id) : NULL;
	if (!s || !s->fn || !s->explicit_id)
		return false;
	for (size_t i = 0; i < countof(std_wrappers); i++) {
		const StdWrapper *w = &std_wrappers[i];
		if (strcmp(s->id, w->id) == 0)
			return w->modes[0] == 'o' && w->result == 'V' && exact_std_wrapper(s->fn, w);
	}
	return false;
}

static void
check_std_wrapper(Sema *S, const FnDecl *fn, const Sym *s)
{
	for (int box = 1; box >= 0; box--) {
		const char *module = box ? "std.mem" : "std.collections";
		DiagCode code = box ? DIAG_T286 : DIAG_T283;
		const StdWrapper *w = NULL;
		bool here = strcmp(S->module_name, module) == 0, candidate = false;
		/* every wrapper identity starts `std.`: other ids skip the comparisons */
		bool std_id = s->explicit_id && strncmp(s->id, "std.", 4) == 0;
		for (size_t i = 0; i < countof(std_wrappers); i++) {
			/* neither test below can hold: skip the module comparison */
			if (!std_id && fn->name.s[0] != std_wrappers[i].name[0])
				continue;
			if (std_wrappers[i].module[4] != module[4] || strcmp(std_wrappers[i].module, module) != 0)
				continue;
			if (std_id && strcmp(s->id, std_wrappers[i].id) == 0)
				w = &std_wrappers[i];
			candidate |= fn->name.s[0] == std_wrappers[i].name[0] && strcmp(fn->name.s, std_wrappers[i].name) == 0;
		}
		if (w && !here) {
			Diag *d = sema_error(S, code, s->span, "%s wrapper identity `%s` is reserved for module `%s`", box ? "box" : "vector", s->id, module);
			diag_set_help(d, "give the function an identity in your own namespace, or call the compiler-owned operation directly");
			return;
		}
		if (here && (w || candidate) && !(w && exact_std_wrapper(fn, w))) {
			Diag *d = sema_error(S, code, s->span, "`%s.%s` must be one exact transparent compiler-owned %s wrapper", module, fn->name.s, box ? "box" : "vector");
			diag_set_help(d, "%s", box ? "write `@id(\"std.mem.box.new\") fn new<T>(value: T) -> Box<T> { box_new<T>(value) }` (likewise `get` with `value: borrow Box<T>` and `into_inner` with `value: own Box<T>`)"
			    : "write the exact wrapper, e.g. `@id(\"std.collections.vec.len\") fn len<T>(values: borrow Vec<T>) -> usize { vec_len<T>(values) }`");
			return;
		}
	}
}

Diag *
sema_report_s103(DiagSink *d, const Span *span, const char *owner, const char *name)
{
	Diag *dg;
	if (owner) {
		dg = diag_report(d, DIAG_S103, span, "method `%s.%s` has an automatic identity that changes when renamed", owner, name);
		diag_set_help(dg, "add @id(\"your.namespace.class.method\") before the method");
	} else {
		dg = diag_report(d, DIAG_S103, span, "function `%s` has an automatic identity that changes when renamed", name);
		diag_set_help(dg, "add @id(\"your.namespace.symbol\") before the declaration");
	}
	return dg;
}

static void
collect_fn(Sema *S, const FnDecl *fn, const Decl *d, SymId owner, const IdAttr *ida, Span span)
{
	SymId id = new_sym(S, owner >= 0 ? SK_METHOD : SK_FN, fn->name.s);
	Sym *s = sema_sym(S, id);
	s->fn = fn;
	s->decl = d;
	s->owner = owner;
	s->name_span = fn->name.span;
	/* A function's span runs from `fn` (not its attribute) to the body's end. */
	s->span = fn->header;
	s->span.end = span.end;
	s->explicit_id = ida->present;
	if (owner >= 0) {
		Sym *cls = sema_sym(S, owner);
		s->id = ida->present ? id_text(S, ida) : arena_printf(&S->arena, "auto:method:%s.%s", cls->id, s->name);
	} else {
		s->id = ida->present ? id_text(S, ida) : auto_id(S, NULL, S->module_name, s->name);
	}
	if (!sema_source_identifier(s->name)) {
		Diag *dg = sema_error(S, DIAG_S104, fn->name.span, "`%s` is not a valid function identifier", s->name);
		diag_set_help(dg, "`%s` has a meaning of its own in SEMAPRAX; choose another name", s->name);
		return;
	}
	if (owner < 0) {
		if (sema_builtin_reserved(s->name)) {
			/* the reference names the string family (core.string.*) */
			const Builtin *b = sema_builtin_find(s->name);
			bool string_op = b && strncmp(b->id, "core.string.", 12) == 0;
			Diag *dg = sema_error(S, DIAG_S113, fn->name.span, "function name `%s` is reserved by the compiler-owned %soperations", s->name, string_op ? "string " : "");
			diag_set_help(dg, "rename the function; `%s` is compiler-owned and needs no declaration", s->name);
			return;
		}
		if (!sema_strmap_put(&S->fn_names, s->name, id)) {
			Diag *dg = sema_error(S, DIAG_S101, fn->name.span, "duplicate function `%s`", s->name);
			diag_set_help(dg, "each function name is declared once per module; rename one of them");
			return;
		}
	}
	if (nul_id(ida))
		reject_nul_id(S, ida, s->span, arena_printf(&S->arena, "%s `%s`", owner >= 0 ? "method" : "function", s->name));
	if (owner < 0 && s->explicit_id && strncmp(s->id, "semaprax.function-execution.v1:", 31) == 0) {
		/* the domain of generic instance identities (the reference's T225) */
		Diag *dg = sema_error(S, DIAG_T225, s->span, "function `%s` uses the reserved generic execution identity domain", s->name);
		diag_set_help(dg, "choose a stable id outside `semaprax.function-execution.v1:`");
	} else {
		claim_id(S, id, s->id, s->explicit_id, s->span, "function");
	}
	if (owner < 0)
		check_std_wrapper(S, fn, s);
	if (!s->explicit_id)
		sema_report_s103(S->diags, &fn->name.span, owner >= 0 ? sema_sym(S, owner)->name : NULL, s->name);
	s->ntparams = fn->ntparams;
	if (owner < 0 && fn->ntparams > 2) {
		Diag *dg = sema_error(S, DIAG_T224, s->span, "generic function `%s` requires one or two type parameters", s->name);
		diag_set_help(dg, "group further values in a generic record, e.g. `Pair<A, B>`, and take that as one type parameter");
	}
	s->tparams = sym_array(S, sizeof(const char *), fn->ntparams);
	StrMap seen = {0};   /* the names so far: one report per repeat (a report per
	                      * earlier pair made `<T, T, …>` quadratic in diagnostics) */
	for (int i = 0; i < fn->ntparams; i++) {
		s->tparams[i] = fn->tparams[i].s;
		/* a reserved word (`result`, `let`, …) is invalid, as in the reference (qa33) */
		bool word = !sema_source_identifier(s->tparams[i]);
		if (word || !sema_strmap_put(&seen, s->tparams[i], i)) {
			Diag *dg = sema_error(S, DIAG_T224, fn->tparams[i].span, "invalid or duplicate type parameter `%s` on function `%s`",
			    s->tparams[i], s->name);
			if (word)
				diag_set_help(dg, "`%s` is a reserved word; name type parameters like `T` and `U`", s->tparams[i]);
			else
				diag_set_help(dg, "give each type parameter its own name");
		}
	}
	sema_strmap_free(&seen);
	if (owner >= 0 && fn->ntparams == 0 && d && d->kind == DECL_CLASS && d->u.class_.ntparams > 0) {
		/* A method of a generic class is generic in the class's parameters: its
		 * type arguments are the receiver's (check_method, lower_method). */
		int n = d->u.class_.ntparams;
		s->ntparams = n;
		s->tparams = ARENA_ARRAY(&S->arena, const char *, n);
		for (int i = 0; i < n; i++)
			s->tparams[i] = d->u.class_.tparams[i].s;
	}
}

void
sema_decls_collect(Sema *S)
{
	const Module *m = S->m;
	/* One symbol per declaration, class member and import (plus the
	 * prelude's few): sized once, not doubled and copied (a large file
	 * has thousands). */
	size_t want = 16 + (size_t)m->ndecls, members = 0, fns = 0;
	for (int i = 0; i < m->ndecls; i++) {
		const Decl *d = &m->decls[i];
		fns += d->kind == DECL_FN;
		if (d->kind == DECL_CLASS) {
			want += (size_t)d->u.class_.nmembers;
		} else if (d->kind == DECL_INTERFACE) {
			want += (size_t)d->u.interface.nimports;
		} else if (d->kind == DECL_RECORD) {
			members += (size_t)d->u.record.nfields;
		} else if (d->kind == DECL_VARIANT) {
			members += (size_t)d->u.variant.ncases;
			for (int c = 0; c < d->u.variant.ncases; c++)
				members += (size_t)d->u.variant.cases[c].nfields;
		}
	}
	if (S->syms.cap < (int)want && want < INT32_MAX / sizeof(Sym)) {
		S->syms.items = spx_xrealloc(S->syms.items, sizeof(Sym) * want);
		S->syms.cap = (int)want;
	}
	/* every symbol, field and case claims its identity: one table, not
	 * doubled and rehashed as it fills */
	sema_strmap_reserve(&S->ids, want + members);
	sema_strmap_reserve(&S->fn_names, fns);
	sema_strmap_reserve(&S->type_names, 16 + (size_t)m->ndecls - fns);
	prelude(S);
	/* 1. type identities, in source order */
	for (int i = 0; i < m->ndecls; i++)
		collect_type(S, &m->decls[i]);
	/* 2. function declarations */
	for (int i = 0; i < m->ndecls; i++)
		if (m->decls[i].kind == DECL_FN)
			collect_fn(S, &m->decls[i].u.fn, &m->decls[i], -1, &m->decls[i].id, m->decls[i].span);
	/* 3. class methods */
	for (int i = 0; i < m->ndecls; i++) {
		const Decl *d = &m->decls[i];
		if (d->kind != DECL_CLASS)
			continue;
		SymId cls = sema_strmap_get(&S->type_names, d->u.class_.name.s);
		if (cls < 0 || sema_sym(S, cls)->decl != d)
			continue;
		VEC(SymId) methods = {0};
		StrMap count = {0};   /* method name → how many so far */
		for (int j = 0; j < d->u.class_.nmembers; j++) {
			const ClassMember *cm = &d->u.class_.members[j];
			if (!cm->is_method)
				continue;
			/* one T229 per earlier method of the same name */
			int earlier = sema_strmap_get(&count, cm->method.name.s);
			earlier = earlier < 0 ? 0 : earlier;
			sema_strmap_set(&count, cm->method.name.s, earlier + 1);
			for (int k = 0; k < earlier; k++) {
				Diag *dg = sema_error(S, DIAG_T229, cm->method.name.span, "class `%s` declares method `%s` twice",
				    d->u.class_.name.s, cm->method.name.s);
				diag_set_help(dg, "rename or remove one of the methods");
			}
			collect_fn(S, &cm->method, d, cls, &cm->id, cm->span);
			VEC_PUSH(methods, (SymId)(S->syms.len - 1));
		}
		sema_strmap_free(&count);
		Sym *c = sema_sym(S, cls);
		c->nom->methods = ARENA_COPY_VEC(&S->arena, SymId, methods);
		c->nom->nmethods = methods.len;
		VEC_FREE(methods);
	}
	/* 4. the mutable closure carrier (closure_mut.c), after every declaration so
	 * that modules without mutable closures keep their symbol numbering */
	if (m->uses_fn_mut) {
		TypeId fargs[3] = { T_I64, T_I64, T_I64 };
		SymId r = new_sym(S, SK_RECORD, "FnMutI64");
		Sym *s = sema_sym(S, r);
		s->id = "core.fn_mut_i64";
		s->explicit_id = true;
		s->prelude = true;
		s->resolved = true;
		s->nom->nfields = 2;
		s->nom->fields = ARENA_ARRAY(&S->arena, FieldSym, 2);
		s->nom->fields[0] = prelude_field(S, "update", "core.fn_mut_i64.update", sema_type_intern(&S->types, TY_FN, 0, 0, fargs, 3));
		s->nom->fields[1] = prelude_field(S, "state", "core.fn_mut_i64.state", T_I64);
		S->sym_fn_mut = r;
	}
}

/* ==== types of declarations ====================================================== */

void *
sema_copy_vec(Arena *a, const void *items, size_t size, int n)
{
	if (n == 0)
		return NULL;
	void *p = arena_alloc(a, size * (size_t)n);
	memcpy(p, items, size * (size_t)n);
	return p;
}

TypeId
sema_nominal(Sema *S, SymId sym, const TypeId *args, int nargs)
{
	return sema_type_intern(&S->types, TY_NOMINAL, (uint32_t)sym, 0, args, nargs);
}

TypeId
sema_option(Sema *S, TypeId t)
{
	return sema_nominal(S, S->sym_option, &t, 1);
}

TypeId
sema_result(Sema *S, TypeId t, TypeId e)
{
	TypeId a[2] = { t, e };
	return sema_nominal(S, S->sym_result, a, 2);
}

static const char *
unknown_type_help(const char *n)
{
	static const char *const text[] = { "String", "str", "Str", "text", "Text", NULL };
	static const char *const ints[] = { "int", "Int", "i8", "i16", "u16", "u32", "u64", "i128", "u128", "isize",
		"long", "short", "byte", "integer", "Integer", "number", "Number", NULL };
	static const char *const floats[] = { "float", "Float", "double", "Double", "f16", "decimal", NULL };
	static const char *const bools[] = { "boolean", "Boolean", "Bool", NULL };
	static const char *const lists[] = { "vec", "Array", "array", "list", "slice", NULL };
	static const char *const units[] = { "unit", "void", "Unit", "Void", "never", NULL };
	static const char *const chars[] = { "char8", "Char", "character", "rune", NULL };
	static const struct { const char *const *names; const char *help; } groups[] = {
		{ text, "owned text is `string`; a borrowed view is `borrow str` in a parameter position" },
		{ ints, "the integer types are `i64` (the literal default), `i32`, `u8`, and `usize`; there is no other width" },
		{ floats, "the floating-point types are `f64` and `f32`" },
		{ bools, "the boolean type is spelled `bool`" },
		{ lists, "a list is `Vec<T>` with an explicit element type: `vec_with_capacity<i64>(4usize)`, `vec_push<i64>(v, x)`; bytes are `[u8; N]`, `Bytes`, and `Slice<u8>`" },
		{ units, "there is no unit type; functions return `i64` or `bool`" },
		{ chars, "a Unicode scalar is `char`" },
	};
	for (size_t g = 0; g < countof(groups); g++)
		for (const char *const *p = groups[g].names; *p; p++)
			if (strcmp(*p, n) == 0)
				return groups[g].help;
	return NULL;
}

typedef struct BuiltinType {
	const char *name;
	TyKind kind;
	int nargs;   /* 0 = simple */
} BuiltinType;

static const BuiltinType builtin_types[] = {
	{ "i64", TY_I64, 0 }, { "i32", TY_I32, 0 }, { "u8", TY_U8, 0 }, { "usize", TY_USIZE, 0 },
	{ "f32", TY_F32, 0 }, { "f64", TY_F64, 0 }, { "bool", TY_BOOL, 0 }, { "char", TY_CHAR, 0 },
	{ "string", TY_STRING, 0 }, { "str", TY_STR, 0 }, { "Bytes", TY_BYTES, 0 },
	{ "Slice", TY_SLICE, 1 }, { "Box", TY_BOX, 1 }, { "Vec", TY_VEC, 1 }, { "Iter", TY_ITER, 1 },
	{ "Map", TY_MAP, 2 }, { "Set", TY_SET, 1 },
};

/* The one type name one edit from name (a transposition too: `i46`,
 * `strnig`, `Bytse`), a built-in one or a declared record, variant, class
 * or resource; NULL when none or two are that near, or name is short. */
static const char *
near_type(Sema *S, const char *name)
{
	static const char *const more[] = { "Option", "Result" };
	const char *best = NULL;
	if (strlen(name) < 3)
		return NULL;
	for (size_t i = 0; i < countof(builtin_types) + countof(more); i++) {
		const char *n = i < countof(builtin_types) ? builtin_types[i].name : more[i - countof(builtin_types)];
		if (spx_edit_distance(name, n, true) != 1)
			continue;
		if (best && strcmp(best, n) != 0)
			return NULL;
		best = n;
	}
	for (SymId i = 0; i < S->syms.len; i++) {
		const Sym *y = sema_sym(S, i);
		if ((y->kind != SK_RECORD && y->kind != SK_VARIANT && y->kind != SK_CLASS && y->kind != SK_RESOURCE) || !y->name ||
		    spx_edit_distance(name, y->name, true) != 1)
			continue;
		if (best && strcmp(best, y->name) != 0)
			return NULL;
		best = y->name;
	}
	return best;
}

static TypeId
arity_error(Sema *S, Span span, const char *name, int want, int got)
{
	Diag *d = sema_error(S, DIAG_T221, span, "type `%s` expects %d type arguments, received %d", name, want, got);
	if (got == 0 && strcmp(name, "Option") == 0)
		diag_set_help(d, "spell the type argument at every use: `Option<i64>` in a signature and `Option<i64>::Some { value: … }` when constructing; patterns stay `Option::Some { value: v }`");
	else if (got == 0 && strcmp(name, "Result") == 0)
		diag_set_help(d, "spell both type arguments at every use: `Result<i64, bool>` in a signature and `Result<i64, bool>::Ok { value: … }` when constructing; patterns stay `Result::Ok { value: v }`");
	else
		diag_set_help(d, "spell the type arguments at every use, including constructors: `%s<…>`", name);
	return T_ERR;
}

static TypeId
resolve_named(Sema *S, const Type *t, SymId scope)
{
	Name one;
	QName qn = ast_type_qname(t, &one);
	const QName *q = &qn;
	const char *name = q->parts[q->nparts - 1].s;
	int nargs = ast_type_nargs(t);
	TypeId local[8];
	TypeId *args = nargs <= 8 ? local : spx_xmalloc(sizeof(TypeId) * (size_t)nargs);
	for (int i = 0; i < nargs; i++)
		args[i] = sema_decls_resolve_type(S, ast_type_args(t)[i], scope);
	TypeId out = T_ERR;
	if (q->nparts > 1) {
		Diag *d = sema_error(S, DIAG_T001, t->span, "unknown type `%s`; declare it with `resource %s;`", name, name);
		diag_set_help(d, "a qualified type name needs a project import: `use type @id(\"…\") from %.*s as %s;`",
		    (int)(q->parts[q->nparts - 2].span.end - q->parts[0].span.start), S->src + q->parts[0].span.start, name);
		goto done;
	}
	if (scope >= 0) {
		Sym *owner = sema_sym(S, scope);
		for (int i = 0; i < owner->ntparams; i++) {
			if (strcmp(owner->tparams[i], name) == 0) {
				if (nargs) {
					sema_error(S, DIAG_T220, t->span, "type parameter `%s` cannot take type arguments", name);
					goto done;
				}
				out = sema_type_intern(&S->types, TY_PARAM, (uint32_t)scope, (uint64_t)i, NULL, 0);
				goto done;
			}
		}
	}
	if (name[0] == 'L' && (strcmp(name, "List") == 0 || strcmp(name, "ListStep") == 0) && sema_strmap_get(&S->type_names, name) < 0
	    && !sema_failed_import(S, name, true)) {
		/* the reference's immutable list carrier: known names, refused (DECISIONS "Remaining differences") */
		if (nargs != 1)
			arity_error(S, t->span, name, 1, nargs);
		Diag *d = sema_error(S, DIAG_T291, t->span, "the immutable list type `%s` is not admitted", name);
		diag_set_help(d, "a list is `Vec<T>` with an explicit element type: `vec_with_capacity<i64>(4usize)`, `vec_push<i64>(v, x)`, traversed with `for item in values`");
		goto done;
	}
	if (name[0] == 'S' && strcmp(name, "StdinReader") == 0 && sema_strmap_get(&S->type_names, name) < 0 && !sema_failed_import(S, name, true)) {
		/* the stdin stream's reader (stdin_stream_open; DECISIONS "stdin stream") */
		out = nargs ? (sema_error(S, DIAG_T221, t->span, "type `%s` expects 0 type arguments, received %d", name, nargs), T_ERR)
			    : sema_type_reader(&S->types);
		goto done;
	}
	for (size_t i = 0; i < countof(builtin_types); i++) {
		const BuiltinType *b = &builtin_types[i];
		if (b->name[0] != name[0] || strcmp(b->name, name) != 0)
			continue;
		if (b->kind == TY_BOX && sema_strmap_get(&S->type_names, name) >= 0)
			break;   /* an authored `Box` (§3.3) */
		if (b->nargs != nargs && (b->kind == TY_MAP || b->kind == TY_SET)) {
			/* the compiler-owned collections keep the reference's shape code */
			Diag *d = sema_error(S, DIAG_T274, t->span, "type `%s` expects %d type arguments, received %d", name, b->nargs, nargs);
			diag_set_help(d, "%s", b->kind == TY_MAP ? "spell the key and value types: `Map<string, i64>`" : "spell the element type: `Set<i64>`");
			goto done;
		}
		if (b->nargs != nargs) {
			out = b->nargs == 0 ? (sema_error(S, DIAG_T221, t->span, "type `%s` expects 0 type arguments, received %d", name, nargs), T_ERR)
			    : arity_error(S, t->span, name, b->nargs, nargs);
			goto done;
		}
		if (b->kind == TY_SLICE) {
			if (args[0] != T_U8 && args[0] != T_ERR) {
				sema_error(S, DIAG_T001, t->span, "unknown type `Slice<%s>`; byte views are `Slice<u8>`", sema_type_name(S, args[0]));
				goto done;
			}
			out = T_SLICE;
		} else {
			out = nargs ? sema_type_intern(&S->types, b->kind, 0, 0, args, nargs) : (TypeId)b->kind;
		}
		goto done;
	}
	SymId sym = sema_strmap_get(&S->type_names, name);
	if (sym < 0 && scope >= 0 && sema_sym(S, scope)->ntparams) {
		Diag *d = sema_error(S, DIAG_T220, t->span, "`%s` is not an in-scope type parameter", name);
		diag_set_help(d, "declare it in the type parameter list, e.g. `<%s>`, or use a declared type", name);
		goto done;
	}
	if (sym < 0 && sema_failed_import(S, name, true))
		goto done;
	if (sym < 0) {
		Diag *d = sema_error(S, DIAG_T001, t->span, "unknown type `%s`; declare it with `resource %s;`", name, name);
		const char *help = unknown_type_help(name);
		const char *near = help ? NULL : near_type(S, name);
		if (help) {
			diag_set_help(d, "%s", help);
		} else if (near) {
			/* a misspelt type: the fix writes the one it is near */
			diag_set_help(d, "did you mean `%s`?", near);
			size_t n = strlen(name);
			if (t->span.end - t->span.start >= n && memcmp(S->src + t->span.start, name, n) == 0)
				diag_add_fix(d, t->span.start, t->span.start + (uint32_t)n, near);
		} else
			diag_set_help(d, "declare `record %s { … }`, `variant %s { … }` or `class %s { … }` in this module", name, name, name);
		goto done;
	}
	Sym *s = sema_sym(S, sym);
	if (s->kind == SK_INTERFACE) {
		sema_error(S, DIAG_T001, t->span, "unknown type `%s`; interfaces are not types", name);
		goto done;
	}
	if (s->ntparams != nargs) {
		out = arity_error(S, t->span, name, s->ntparams, nargs);
		goto done;
	}
	out = sema_nominal(S, sym, args, nargs);
done:
	if (args != local)
		free(args);
	return out;
}

TypeId
sema_decls_resolve_type(Sema *S, const Type *t, SymId scope)
{
	if (!t)
		return T_ERR;
	switch (t->kind) {
	case TYPE_ARRAY: {
		TypeId elem = sema_decls_resolve_type(S, t->u.array.elem, scope);
		if (elem != T_U8 && elem != T_ERR) {
			Diag *d = sema_error(S, DIAG_T262, t->span, "fixed arrays hold bytes: `[u8; N]`, not `[%s; N]`", sema_type_name(S, elem));
			diag_set_help(d, "a list of other values is a `Vec`: `Vec<%s>`", sema_type_name(S, elem));
			return T_ERR;
		}
		return sema_type_intern(&S->types, TY_ARRAY, 0, t->u.array.len, NULL, 0);
	}
	case TYPE_FN: {
		if (t->u.fn.mut_i64)  /* the parser admitted only `FnMutI64(i64) -> i64` */
			return S->sym_fn_mut >= 0 ? sema_type_intern(&S->types, TY_NOMINAL, (uint32_t)S->sym_fn_mut, 0, NULL, 0) : T_ERR;
		int n = t->u.fn.nparams;
		TypeId *args = spx_xmalloc(sizeof(TypeId) * (size_t)(n + 1));
		for (int i = 0; i < n; i++)
			args[i] = sema_decls_resolve_type(S, t->u.fn.params[i], scope);
		args[n] = sema_decls_resolve_type(S, t->u.fn.result, scope);
		TypeId out = sema_type_intern(&S->types, TY_FN, 0, 0, args, n + 1);
		free(args);
		return out;
	}
	case TYPE_NAME:
		return resolve_named(S, t, scope);
	}
	return T_ERR;
}

/* ==== resolving declarations ===================================================== */

static void
set_tparams(Sema *S, Sym *s, const Name *names, int n)
{
	s->ntparams = n;
	s->tparams = sym_array(S, sizeof(const char *), n);
	StrMap seen = {0};   /* the names so far (a pairwise scan was quadratic) */
	for (int i = 0; i < n; i++) {
		s->tparams[i] = names[i].s;
		bool word = !sema_source_identifier(s->tparams[i]);   /* as functions' (qa33) */
		if (word || !sema_strmap_put(&seen, s->tparams[i], i)) {
			Diag *dg = sema_error(S, DIAG_T220, names[i].span, "invalid or duplicate type parameter `%s` on `%s`", s->tparams[i], s->name);
			if (word)
				diag_set_help(dg, "`%s` is a reserved word; name type parameters like `T` and `U`", s->tparams[i]);
			else
				diag_set_help(dg, "give each type parameter its own name");
		}
	}
	sema_strmap_free(&seen);
}

static void
resolve_fields(Sema *S, SymId owner, FieldSym *fs, const FieldDecl *decls, int n)
{
	for (int i = 0; i < n; i++) {
		fs[i].type = sema_decls_resolve_type(S, decls[i].type, owner);
		fs[i].declared_in = owner;
	}
}

static void
resolve_record(Sema *S, SymId id)
{
	Sym *s = sema_sym(S, id);
	const Decl *d = s->decl;
	set_tparams(S, s, d->u.record.tparams, d->u.record.ntparams);
	resolve_fields(S, id, s->nom->fields, d->u.record.fields, d->u.record.nfields);
}

static void
resolve_variant(Sema *S, SymId id)
{
	Sym *s = sema_sym(S, id);
	const Decl *d = s->decl;
	set_tparams(S, s, d->u.variant.tparams, d->u.variant.ntparams);
	for (int i = 0; i < s->nom->ncases; i++)
		resolve_fields(S, id, s->nom->cases[i].fields, d->u.variant.cases[i].fields, d->u.variant.cases[i].nfields);
}

/* Class: own fields now; effective fields (ancestors first) after parents resolve. */
static void
resolve_class_own(Sema *S, SymId id)
{
	Sym *s = sema_sym(S, id);
	const Decl *d = s->decl;
	set_tparams(S, s, d->u.class_.tparams, d->u.class_.ntparams);
	VEC(FieldDecl) fds = {0};
	for (int i = 0; i < d->u.class_.nmembers; i++)
		if (!d->u.class_.members[i].is_method)
			VEC_PUSH(fds, d->u.class_.members[i].field);
	resolve_fields(S, id, s->nom->fields, fds.items, fds.len);
	VEC_FREE(fds);
	if (!d->u.class_.has_parent)
		return;
	/* The reference's three T227 texts, at the class name. */
	const Name *pn = &d->u.class_.parent;
	Span at = d->u.class_.name.span;
	if (d->u.class_.nparent_targs) {
		Diag *dg = sema_error(S, DIAG_T227, at, "class `%s` extends generic type `%s`; inheritance over generic classes is closed in this slice", s->name, pn->s);
		diag_set_help(dg, "inherit from a non-generic class: `class %s : Base { … }`", s->name);
		return;
	}
	SymId parent = sema_strmap_get(&S->type_names, pn->s);
	if (parent < 0 || sema_sym(S, parent)->kind != SK_CLASS) {
		Diag *dg = sema_error(S, DIAG_T227, at, parent < 0 ? "class `%s` extends unknown type `%s`" : "class `%s` extends non-class type `%s`", s->name, pn->s);
		diag_set_help(dg, "inherit from a class declared in this module: `class %s : Base { … }`", s->name);
		return;
	}
	s->nom->parent = parent;
}

static void
resolve_signature(Sema *S, SymId id)
{
	Sym *s = sema_sym(S, id);
	const FnDecl *fn = s->fn;
	SymId scope = s->ntparams ? id : -1;
	s->nparams = fn->nparams;
	s->params = sym_array(S, sizeof(ParamSym), fn->nparams);
	for (int i = 0; i < fn->nparams; i++) {
		const Param *p = &fn->params[i];
		s->params[i].name = p->name.s;
		s->params[i].span = p->name.span;
		s->params[i].mode = p->mode;
		s->params[i].type = sema_decls_resolve_type(S, p->type, scope);
	}
	s->result = sema_decls_resolve_type(S, fn->result, scope);
	s->neffects = fn->uses.nnames;
	s->effects = sym_array(S, sizeof(const char *), fn->uses.nnames);
	for (int i = 0; i < fn->uses.nnames; i++) {
		const QName *q = &fn->uses.names[i];
		s->effects[i] = sema_qname_text(S, q);
	}
	s->resolved = true;
}

/* A qualified name's text in S's arena: its parts joined (ast_qname_text). */
const char *
sema_qname_text(Sema *S, const QName *q)
{
	char *t = ast_qname_text(q);
	const char *r = arena_strndup(&S->arena, t, strlen(t));
	free(t);
	return r;
}

/* T230: an override must match the overridden signature apart from `self`. */
static void
check_overrides(Sema *S, SymId cls)
{
	Sym *c = sema_sym(S, cls);
	for (int i = 0; i < c->nom->nmethods; i++) {
		Sym *m = sema_sym(S, c->nom->methods[i]);
		for (SymId a = c->nom->parent; a >= 0; a = sema_sym(S, a)->nom->parent) {
			Sym *anc = sema_sym(S, a);
			SymId om = sema_own_method(S, a, m->name);
			if (om >= 0) {
				Sym *o = sema_sym(S, om);
				bool same = o->nparams == m->nparams && o->result == m->result;
				for (int k = 1; same && k < m->nparams; k++)
					same = o->params[k].type == m->params[k].type && o->params[k].mode == m->params[k].mode;
				if (!same) {
					Diag *dg = sema_error(S, DIAG_T230, m->name_span, "method `%s.%s` overrides `%s.%s` with a different signature",
					    c->name, m->name, anc->name, o->name);
					diag_set_help(dg, "an override keeps the overridden parameters (after `self`) and result exactly");
				}
				goto next;
			}
		}
next:;
	}
}

/*
 * T217: does a record/variant contain itself by value (directly or through
 * other records, variants, or prelude generics such as Option<T>)?  The
 * by-value containment graph over declarations (an edge to each declaration
 * a field's type names, looking through the arguments of prelude generics;
 * Box, Vec, Map, … are indirections) is built once, and one pass of Tarjan's
 * strongly-connected components marks the declarations on a cycle: linear
 * in the declarations and their field types, where a search per root is
 * quadratic for a chain of records.
 */
typedef VEC(int) IntVec;

/* Appends the declarations the type t holds by value. */
static void
by_value_edges(Sema *S, TypeId t, IntVec *out, IntVec *stack)
{
	stack->len = 0;
	VEC_PUSH(*stack, (int)t);
	while (stack->len) {
		TypeId u = (TypeId)stack->items[--stack->len];
		const TypeInfo *ti = sema_type_info(&S->types, u);
		if (ti->kind != TY_NOMINAL)
			continue;
		if (sema_sym(S, (SymId)ti->decl)->prelude) {
			for (int i = sema_type_info(&S->types, u)->nargs - 1; i >= 0; i--)
				VEC_PUSH(*stack, (int)sema_type_info(&S->types, u)->args[i]);
			continue;
		}
		VEC_PUSH(*out, (int)ti->decl);
	}
}

static void
check_recursion(Sema *S)
{
	int n = S->syms.len;
	/* the graph, as adjacency arrays: the edges of v are to[start[v] .. start[v + 1]) */
	int *start = spx_xmalloc(sizeof(int) * (size_t)(n + 1));
	IntVec to = {0}, stack = {0};
	for (SymId v = 0; v < n; v++) {
		start[v] = to.len;
		Sym *s = sema_sym(S, v);
		if (s->prelude)
			continue;
		for (int i = 0; i < s->nom->nfields; i++)
			by_value_edges(S, s->nom->fields[i].type, &to, &stack);
		for (int c = 0; c < s->nom->ncases; c++)
			for (int i = 0; i < s->nom->cases[c].nfields; i++)
				by_value_edges(S, s->nom->cases[c].fields[i].type, &to, &stack);
	}
	start[n] = to.len;
	/* Tarjan, iteratively: index 0 = unvisited */
	int *index = spx_xcalloc((size_t)(n ? n : 1), sizeof(int)), *low = spx_xmalloc(sizeof(int) * (size_t)(n ? n : 1));
	int *next = spx_xmalloc(sizeof(int) * (size_t)(n ? n : 1));   /* per node on the walk: its next edge */
	bool *on = spx_xcalloc((size_t)(n ? n : 1), 1), *cyclic = spx_xcalloc((size_t)(n ? n : 1), 1);
	IntVec scc = {0}, walk = {0};
	int counter = 0;
	for (int root = 0; root < n; root++) {
		if (index[root])
			continue;
		VEC_PUSH(walk, root);
		index[root] = low[root] = ++counter;
		next[root] = start[root];
		VEC_PUSH(scc, root);
		on[root] = true;
		while (walk.len) {
			int v = walk.items[walk.len - 1];
			if (next[v] < start[v + 1]) {
				int w = to.items[next[v]++];
				if (w == v)
					cyclic[v] = true;
				if (!index[w]) {
					index[w] = low[w] = ++counter;
					next[w] = start[w];
					VEC_PUSH(scc, w);
					on[w] = true;
					VEC_PUSH(walk, w);
				} else if (on[w] && index[w] < low[v]) {
					low[v] = index[w];
				}
				continue;
			}
			walk.len--;
			if (walk.len) {
				int u = walk.items[walk.len - 1];
				if (low[v] < low[u])
					low[u] = low[v];
			}
			if (low[v] == index[v]) {
				int first = scc.len;
				while (scc.items[--first] != v)
					;
				for (int k = first; k < scc.len; k++) {
					on[scc.items[k]] = false;
					cyclic[scc.items[k]] |= scc.len - first > 1;
				}
				scc.len = first;
			}
		}
	}
	for (SymId id = 0; id < n; id++) {
		Sym *s = sema_sym(S, id);
		if (s->prelude || (s->kind != SK_RECORD && s->kind != SK_VARIANT && s->kind != SK_CLASS) || !cyclic[id])
			continue;
		Diag *d = sema_error(S, DIAG_T217, s->span, "%s `%s` has an illegal recursive by-value layout",
		    s->kind == SK_VARIANT ? "variant" : "record", s->name);
		diag_set_help(d, "break the cycle with an indirection: hold the recursive part in `Box<%s>` or `Vec<%s>`", s->name, s->name);
		break;  /* the reference reports only the first */
	}
	free(start);
	free(index);
	free(low);
	free(next);
	free(on);
	free(cyclic);
	VEC_FREE(to);
	VEC_FREE(stack);
	VEC_FREE(scc);
	VEC_FREE(walk);
}

static bool
sym_is_local_fn(const Sym *s)
{
	return (s->kind == SK_FN || s->kind == SK_METHOD) && !s->origin;
}

void
sema_decls_resolve(Sema *S)
{
	int n = S->syms.len;
	for (SymId id = 0; id < n; id++) {
		Sym *s = sema_sym(S, id);
		if (s->prelude || s->resolved)
			continue;
		switch (s->kind) {
		case SK_RECORD: resolve_record(S, id); s->resolved = true; break;
		case SK_VARIANT: resolve_variant(S, id); s->resolved = true; break;
		case SK_CLASS: resolve_class_own(S, id); break;
		case SK_RESOURCE: s->resolved = true; break;
		default: break;
		}
	}
	sema_resolve_hierarchy(S, n);
	check_recursion(S);
	/* The parameters of a function lie in the tree beside its body, not
	 * beside the last function's: their first read missed the cache (~60%
	 * of this loop's time).  Fetched ahead: the declaration 8 symbols on,
	 * the parameters 4 on. */
	for (SymId id = 0; id < n; id++) {
		if (id + 8 < n && sym_is_local_fn(&S->syms.items[id + 8]))
			__builtin_prefetch(S->syms.items[id + 8].fn);
		if (id + 4 < n && sym_is_local_fn(&S->syms.items[id + 4]))
			__builtin_prefetch(S->syms.items[id + 4].fn->params);
		Sym *s = sema_sym(S, id);
		if (sym_is_local_fn(s))
			resolve_signature(S, id);
	}
	for (SymId id = 0; id < n; id++)
		if (sema_sym(S, id)->kind == SK_CLASS)
			check_overrides(S, id);
	/* Interface imports: their parameter types must exist (T001). */
	for (int i = 0; i < S->m->ndecls; i++) {
		const Decl *d = &S->m->decls[i];
		if (d->kind != DECL_INTERFACE)
			continue;
		for (int j = 0; j < d->u.interface.nimports; j++)
			for (int k = 0; k < d->u.interface.imports[j].nparams; k++)
				sema_decls_resolve_type(S, d->u.interface.imports[j].params[k].type, -1);
	}
}

/* ==== queries ===================================================================== */

bool
sema_lent_value(Sema *S, const Expr *e)
{
	ParamMode m = sema_expr_mode(S, e->id);
	return (m == MODE_BORROW || m == MODE_SHARED) && sema_expr_type(S, e->id) != T_ERR && !sema_is_copy(S, sema_expr_type(S, e->id));
}

/* sema_is_copy: typeq.c */

static int
fields_find(const FieldSym *f, int n, StrMap **map, bool *dups, const char *name, bool last)
{
	if (n > 16 && !*map) {
		*map = spx_xcalloc(1, sizeof(StrMap));
		for (int i = 0; i < n; i++)
			*dups |= !sema_strmap_put(*map, f[i].name, i);
	}
	if (*map && !(last && *dups))
		return sema_strmap_get(*map, name);
	int found = -1;
	for (int i = 0; i < n && (last || found < 0); i++)
		if (strcmp(f[i].name, name) == 0)
			found = i;
	return found;
}

int
sema_field_find(Sema *S, SymId owner, int case_index, const char *name, bool last)
{
	Sym *s = sema_sym(S, owner);
	if (case_index < 0)
		return fields_find(s->nom->fields, s->nom->nfields, &s->nom->field_map, &s->nom->field_dups, name, last);
	CaseSym *c = &s->nom->cases[case_index];
	return fields_find(c->fields, c->nfields, &c->field_map, &c->field_dups, name, last);
}

SymId
sema_own_method(Sema *S, SymId cls, const char *name)
{
	Sym *s = sema_sym(S, cls);
	if (s->nom->nmethods > 8 && !s->nom->method_map) {
		s->nom->method_map = spx_xcalloc(1, sizeof(StrMap));
		for (int i = 0; i < s->nom->nmethods; i++)
			sema_strmap_put(s->nom->method_map, sema_sym(S, s->nom->methods[i])->name, i);
	}
	if (s->nom->method_map) {
		int i = sema_strmap_get(s->nom->method_map, name);
		return i >= 0 ? s->nom->methods[i] : -1;
	}
	for (int i = 0; i < s->nom->nmethods; i++)
		if (strcmp(sema_sym(S, s->nom->methods[i])->name, name) == 0)
			return s->nom->methods[i];
	return -1;
}

int
sema_field_index(Sema *S, SymId owner, const char *name)
{
	return sema_field_find(S, owner, -1, name, false);
}

TypeId
sema_field_type(Sema *S, TypeId owner_type, int index)
{
	const TypeInfo *ti = sema_type_info(&S->types, owner_type);
	SymId sym = (SymId)ti->decl;
	TypeId args[8];
	int nargs = ti->nargs < 8 ? ti->nargs : 8;
	for (int i = 0; i < nargs; i++)
		args[i] = ti->args[i];
	return sema_type_subst(&S->types, sema_sym(S, sym)->nom->fields[index].type, (uint32_t)sym, args, nargs);
}

int
sema_case_index(Sema *S, SymId variant, const char *name)
{
	Sym *s = sema_sym(S, variant);
	if (s->nom->case_map)
		return sema_strmap_get(s->nom->case_map, name);
	for (int i = 0; i < s->nom->ncases; i++)
		if (strcmp(s->nom->cases[i].name, name) == 0)
			return i;
	return -1;
}

TypeId
sema_case_field_type(Sema *S, TypeId variant_type, int case_index, int field_index)
{
	const TypeInfo *ti = sema_type_info(&S->types, variant_type);
	SymId sym = (SymId)ti->decl;
	TypeId args[8];
	int nargs = ti->nargs < 8 ? ti->nargs : 8;
	for (int i = 0; i < nargs; i++)
		args[i] = ti->args[i];
	return sema_type_subst(&S->types, sema_sym(S, sym)->nom->cases[case_index].fields[field_index].type, (uint32_t)sym, args, nargs);
}

bool
sema_class_upcast(Sema *S, TypeId from, TypeId to)
{
	if (from == to)
		return true;
	const TypeInfo *f = sema_type_info(&S->types, from), *t = sema_type_info(&S->types, to);
	if (f->kind != TY_NOMINAL || t->kind != TY_NOMINAL)
		return false;
	if (sema_sym(S, (SymId)f->decl)->kind != SK_CLASS)
		return false;
	for (SymId a = sema_sym(S, (SymId)f->decl)->nom->parent; a >= 0; a = sema_sym(S, a)->nom->parent)
		if (a == (SymId)t->decl)
			return true;
	return false;
}
