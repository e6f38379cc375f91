/*
 * revision.c — the graph revision (TOOLCHAIN.md §3.2) and the prelude
 * contract it binds.
 *
 *   revision = "sha256:" + hex(SHA-256("semaprax.graph-revision.v2\0"
 *              ‖ field(S) ‖ field(P) ‖ field(C)))
 *
 * S is the canonical text without comments, P the prelude schema and C its
 * contract bytes; field(x) is a u64 little-endian length, then x.
 *
 * The prelude is chosen from the parsed module as the reference chooses it
 * (its prelude selection over the syntax tree, newest rule first):
 *   v7  iterators: a signature, call type argument, closure signature or
 *       construction names `Iter`/`IterStep`, or a call to `vec_into_iter`
 *       or `iter_next`;
 *   v6  `Vec<Bytes>` in a function signature, or a Vec operation other than
 *       vec_get/vec_sort called with `<Bytes>` (module functions only);
 *   v5  `Box<Bytes>` in a function signature or a record/class/variant
 *       field (unless the module declares its own type `Box`), or
 *       box_new/box_into_inner called with `<Bytes>`;
 *   v4  a call to box_new, box_get or box_into_inner (or a `std.mem` Box
 *       wrapper identity);
 *   v3  a call to vec_reserve_exact, vec_set or vec_clear (or the matching
 *       `std.collections` wrapper identity);
 *   v2  `Vec` in a signature or a field type, or a call to any Vec operation;
 *   v1  otherwise.
 * Calls are found anywhere in `requires`, bodies (closures included) and
 * `ensures` of functions and class methods.  Every contract's digest was
 * checked against the digests the reference asserts (v1 d37bad7e…, v2
 * ee05c5fc…, v3 7df663ea…, v4 04d6c7bc…, v5 deeb4ca1…, v6 924f67b7…,
 * v7 b19b2ff6…); tests/fixtures/check/revision/ pins one program per schema.
 */
#include "sema_int.h"

#include <stdio.h>
#include <string.h>

#include "../fmt/fmt.h"
#include "../support/sha256.h"

/* ==== the contract pieces (compatibility data: bytes, not prose) ============ */

static const char k_option[] =
	"variant core.option Option<T>\n"
	"0 core.option.none None\n"
	"1 core.option.some Some core.option.some.value:value:T\n";
static const char k_result[] =
	"variant core.result Result<T,E>\n"
	"0 core.result.ok Ok core.result.ok.value:value:T\n"
	"1 core.result.err Err core.result.err.error:error:E\n";
static const char k_vec_decl[] = "record core.vec Vec<T>\n";
static const char k_box_decl[] = "record core.box Box<T>\n";
static const char k_vec_ops[] =
	"elements i64,i32,u8,usize,char,f32,f64,bool\n"
	"operation core.vec.with-capacity vec_with_capacity <T>(value:usize)->own:Vec<T>\n"
	"operation core.vec.push vec_push <T>(own:Vec<T>,value:T)->own:Vec<T>\n"
	"operation core.vec.len vec_len <T>(borrow:Vec<T>)->value:usize\n"
	"operation core.vec.capacity vec_capacity <T>(borrow:Vec<T>)->value:usize\n"
	"operation core.vec.get vec_get <T>(borrow:Vec<T>,value:usize)->value:T\n"
	"limit max_capacity 8192\n"
	"status semaprax.vec.v1 push_full:1 get_out_of_bounds:2 allocation_failure:3\n";
static const char k_vec_v3[] =
	"operation core.vec.reserve-exact vec_reserve_exact <T>(own:Vec<T>,value:usize)->own:Vec<T>\n"
	"operation core.vec.set vec_set <T>(own:Vec<T>,value:usize,value:T)->own:Vec<T>\n"
	"operation core.vec.clear vec_clear <T>(own:Vec<T>)->own:Vec<T>\n"
	"rule reserve_exact target_capacity=max(old_capacity,length+additional) "
	"overflow_or_above_max_or_allocation_failure=semaprax.vec.v1:3\n"
	"rule set index_out_of_bounds=semaprax.vec.v1:2\n"
	"rule clear length=0 capacity=old_capacity\n"
	"rule successful_owner_mutation generation=next\n";
static const char k_box_ops[] =
	"operation core.box.new box_new <T>(value:T)->own:Box<T>\n"
	"operation core.box.get box_get <T>(borrow:Box<T>)->value:T\n"
	"operation core.box.into-inner box_into_inner <T>(own:Box<T>)->value:T\n"
	"elements i64,i32,u8,usize,char,f32,f64,bool\n"
	"limit max_live_allocations 4096\n"
	"status semaprax.box.v1 allocation_failure:1\n";
static const char k_box_bytes[] =
	"operation core.box.new box_new <Bytes>(own:Bytes)->own:Box<Bytes>\n"
	"operation core.box.into-inner box_into_inner <Bytes>(own:Box<Bytes>)->own:Bytes\n"
	"rule core.box.get <Bytes>=closed\n"
	"wasm_imports spx_box_new_v2,spx_box_get_v2,spx_box_into_inner_v2,spx_box_drop_v2\n";
static const char k_vec_bytes[] =
	"profile core.vec.owned-bytes.v1 element:Bytes carrier_charge:16 max_capacity:8192\n"
	"operation core.vec.with-capacity vec_with_capacity <Bytes>(value:usize)->own:Vec<Bytes>\n"
	"operation core.vec.push vec_push <Bytes>(own:Vec<Bytes>,own:Bytes)->own:Vec<Bytes>\n"
	"operation core.vec.len vec_len <Bytes>(borrow:Vec<Bytes>)->value:usize\n"
	"operation core.vec.capacity vec_capacity <Bytes>(borrow:Vec<Bytes>)->value:usize\n"
	"operation core.vec.reserve-exact vec_reserve_exact <Bytes>(own:Vec<Bytes>,value:usize)->own:Vec<Bytes>\n"
	"operation core.vec.set vec_set <Bytes>(own:Vec<Bytes>,value:usize,own:Bytes)->own:Vec<Bytes>\n"
	"operation core.vec.clear vec_clear <Bytes>(own:Vec<Bytes>)->own:Vec<Bytes>\n"
	"rule core.vec.get <Bytes>=closed\n"
	"rule owned_vec_push_set_reserve failure_before_owner_commit\n"
	"rule owned_vec_set drops_replaced_payload_once\n"
	"rule owned_vec_clear_drop drops_initialized_payloads_in_index_order\n"
	"wasm_imports spx_vec_with_capacity_v2,spx_vec_push_v2,spx_vec_len_v2,spx_vec_capacity_v2,"
	"spx_vec_get_v2,spx_vec_drop_v2,spx_vec_reserve_exact_v2,spx_vec_set_v2,spx_vec_clear_v2\n";
static const char k_iter[] =
	"record core.iter Iter<T>\n"
	"representation core.iter opaque logical:Vec<T>,cursor:usize\n"
	"variant core.iter-step IterStep<T>\n"
	"0 core.iter-step.done Done\n"
	"1 core.iter-step.yield Yield core.iter-step.yield.item:item:T core.iter-step.yield.rest:rest:Iter<T>\n"
	"operation core.vec.into-iter vec_into_iter <T>(own:Vec<T>)->own:Iter<T>\n"
	"operation core.iter.next iter_next <T>(own:Iter<T>)->own:IterStep<T>\n"
	"elements i64,i32,u8,usize,char,f32,f64,bool\n"
	"rule iter_next consumes_iterator_and_yield_rest_owns_successor\n"
	"rule iter_done_has_no_payload\n"
	"cleanup_plan semaprax.cleanup-plan.v10\n";

/* Each schema's contract: its schema line, then these pieces in order (NULL ends). */
static const char *const *
contract_pieces(int version)
{
	static const char *const v1[] = { k_option, k_result, NULL };
	static const char *const v2[] = { k_option, k_result, k_vec_decl, k_vec_ops, NULL };
	static const char *const v3[] = { k_option, k_result, k_vec_decl, k_vec_ops, k_vec_v3, NULL };
	static const char *const v4[] = { k_option, k_result, k_vec_decl, k_box_decl, k_vec_ops, k_vec_v3, k_box_ops, NULL };
	static const char *const v5[] = { k_option, k_result, k_vec_decl, k_box_decl, k_vec_ops, k_vec_v3, k_box_ops,
		k_box_bytes, NULL };
	static const char *const v6[] = { k_option, k_result, k_vec_decl, k_box_decl, k_vec_ops, k_vec_v3, k_box_ops,
		k_box_bytes, k_vec_bytes, NULL };
	static const char *const v7[] = { k_option, k_result, k_vec_decl, k_box_decl, k_vec_ops, k_vec_v3, k_box_ops,
		k_box_bytes, k_vec_bytes, k_iter, NULL };
	static const char *const *const all[] = { v1, v2, v3, v4, v5, v6, v7 };
	return all[version - 1];
}

/* ==== what the module uses ==================================================== */

typedef struct PreludeUse {
	bool iter;       /* v7 */
	bool vec_bytes;  /* v6 */
	bool box_bytes;  /* v5 */
	bool box;        /* v4 */
	bool user_box;   /* the module declares its own type `Box` (§3.3: an ordinary type) */
	bool vec3;       /* v3 */
	bool vec;        /* v2 */
	/* the PRELUDE_N_* spellings among the module's names (all when not
	 * known): a test for a name the module never spells is skipped */
	unsigned names;
} PreludeUse;

static bool
is_one_of(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (s[0] == (*list)[0] && strcmp(s, *list) == 0)
			return true;
	return false;
}

/* Calls are matched through the builtin table (a callee resolves to its
 * BuiltinId by name: the scan runs on the syntax tree, before resolution);
 * the reference's selection also counts these legacy Vec names, which are
 * not builtins here. */
static const char *const legacy_vec_ops[] = { "vec_replace", "vec_reserve_owned", "vec_sort_owned", NULL };

/* The Vec operations that select v2 (vec_into_iter selects v7 instead). */
static bool
vec_op(BuiltinId bi)
{
	switch (bi) {
	case BI_vec_with_capacity: case BI_vec_push: case BI_vec_len: case BI_vec_capacity: case BI_vec_get:
	case BI_vec_reserve_exact: case BI_vec_set: case BI_vec_clear: case BI_vec_sort: case BI_vec_clone_at:
		return true;
	default:
		return false;
	}
}
static const char *const iter_names[] = { "Iter", "IterStep", NULL };
static const char *const vec_names[] = { "Vec", NULL };

/* A single-part named type spelled `name` (a dotted name never matches). */
static bool
named(const Type *t, const char *name)
{
	return t && t->kind == TYPE_NAME && ast_type_nparts(t) == 1 && strcmp(t->u.name.s, name) == 0;
}

/* Does t mention one of `names`, through type arguments (and function types when through_fn)? */
static bool
type_mentions(const Type *t, const char *const *names, bool through_fn)
{
	if (!t)
		return false;
	switch (t->kind) {
	case TYPE_NAME:
		if (ast_type_nparts(t) == 1 && is_one_of(t->u.name.s, names))
			return true;
		for (int i = 0; i < ast_type_nargs(t); i++)
			if (type_mentions(ast_type_args(t)[i], names, through_fn))
				return true;
		return false;
	case TYPE_FN:
		if (!through_fn)
			return false;
		for (int i = 0; i < t->u.fn.nparams; i++)
			if (type_mentions(t->u.fn.params[i], names, through_fn))
				return true;
		return type_mentions(t->u.fn.result, names, through_fn);
	case TYPE_ARRAY:
		return false;
	}
	return false;
}

/* `Wrap<Bytes>` anywhere among named type arguments (Wrap is Vec or Box). */
static bool
wraps_bytes(const Type *t, const char *wrap)
{
	if (!t || t->kind != TYPE_NAME)
		return false;
	if (named(t, wrap) && ast_type_nargs(t) == 1 && named(ast_type_args(t)[0], "Bytes") && ast_type_nargs(ast_type_args(t)[0]) == 0)
		return true;
	for (int i = 0; i < ast_type_nargs(t); i++)
		if (wraps_bytes(ast_type_args(t)[i], wrap))
			return true;
	return false;
}

static bool
targs_mention(Type *const *targs, int n, const char *const *names)
{
	for (int i = 0; i < n; i++)
		if (type_mentions(targs[i], names, true))
			return true;
	return false;
}

/* Exactly `<Bytes>`. */
static bool
targs_bytes(Type *const *targs, int n)
{
	return n == 1 && named(targs[0], "Bytes") && ast_type_nargs(targs[0]) == 0;
}

typedef struct Scan {
	PreludeUse *use;
	bool method;     /* a class method: the owned-Bytes rules (v5, v6) look at module functions only */
} Scan;

static void
scan_call(Scan *sc, const Expr *e)
{
	PreludeUse *u = sc->use;
	if (!(u->names & (PRELUDE_N_ITER | PRELUDE_N_VEC | PRELUDE_N_BOX)))
		return;   /* no vec_/box_/iter_ callee, no `Iter` type argument */
	const Builtin *b = sema_builtin_find(e->u.call.callee.s);
	BuiltinId bi = b ? b->bid : BI_COUNT;
	Type *const *targs = e->u.call.targs;
	int nt = e->u.call.ntargs;
	if (bi == BI_vec_into_iter || bi == BI_iter_next || targs_mention(targs, nt, iter_names))
		u->iter = true;
	if (vec_op(bi) || (!b && is_one_of(e->u.call.callee.s, legacy_vec_ops))) {
		u->vec = true;
		u->vec3 |= bi == BI_vec_reserve_exact || bi == BI_vec_set || bi == BI_vec_clear;
		if (!sc->method && bi != BI_vec_get && bi != BI_vec_sort && targs_bytes(targs, nt))
			u->vec_bytes = true;
	}
	if (bi == BI_box_new || bi == BI_box_get || bi == BI_box_into_inner) {
		u->box = true;
		if (!sc->method && bi != BI_box_get && targs_bytes(targs, nt))
			u->box_bytes = true;
	}
}

/* One expression of a body: calls, constructions and closure signatures. */
static void
scan_expr(void *ctx, const Expr *e)
{
	Scan *sc = ctx;
	if (e->kind != EXPR_CALL && !(sc->use->names & PRELUDE_N_ITER))
		return;   /* the other kinds look for `Iter`/`IterStep` only */
	switch (e->kind) {
	case EXPR_CALL: scan_call(sc, e); break;
	case EXPR_RECORD: {
		const QName *q = &e->u.record.type;
		if ((q->nparts == 1 && is_one_of(q->parts[0].s, iter_names)) || targs_mention(e->u.record.targs, e->u.record.ntargs, iter_names))
			sc->use->iter = true;
		break;
	}
	case EXPR_VARIANT:
		if (is_one_of(e->u.variant.type.s, iter_names) || targs_mention(e->u.variant.targs, e->u.variant.ntargs, iter_names))
			sc->use->iter = true;
		break;
	case EXPR_CLOSURE:
		for (int i = 0; i < e->u.closure.nparams; i++)
			if (type_mentions(e->u.closure.params[i].type, iter_names, true))
				sc->use->iter = true;
		if (type_mentions(e->u.closure.result, iter_names, true))
			sc->use->iter = true;
		break;
	default:
		break;
	}
}

static bool
id_is(const IdAttr *id, const char *const *list)
{
	/* (every id in the lists starts with `std.`) */
	if (!id->present || id->value.len < 4 || memcmp(id->value.s, "std.", 4) != 0)
		return false;
	for (; *list; list++)
		if (strlen(*list) == id->value.len && (id->value.len == 0 || memcmp(*list, id->value.s, id->value.len) == 0))
			return true;
	return false;
}

static const char *const box_wrappers[] = { "std.mem.box.new", "std.mem.box.get", "std.mem.box.into-inner", NULL };
static const char *const vec_v3_wrappers[] = {
	"std.collections.vec.reserve-exact", "std.collections.vec.set", "std.collections.vec.clear", NULL,
};

/* A function's stable id and signature (no body). */
static void
scan_fn_head(PreludeUse *u, const FnDecl *fn, const IdAttr *id, bool method)
{
	unsigned nm = u->names;
	bool vec_bytes = !method && (nm & PRELUDE_N_VEC) && (nm & PRELUDE_N_BYTES);
	bool box_bytes = !method && (nm & PRELUDE_N_BOXT) && (nm & PRELUDE_N_BYTES);
	u->box |= id_is(id, box_wrappers);
	u->vec3 |= id_is(id, vec_v3_wrappers);
	/* every flag the signature could set is settled (or cannot be set):
	 * its types are not read (the params' first load is a cache miss) */
	if ((u->iter || !(nm & PRELUDE_N_ITER)) && (u->vec || !(nm & PRELUDE_N_VEC)) && (u->vec_bytes || !vec_bytes) &&
	    (u->box_bytes || u->user_box || !box_bytes))
		return;
	const Type *sig[65];
	int n = 0;
	sig[n++] = fn->result;
	for (int i = 0; i < fn->nparams && n < 65; i++)
		sig[n++] = fn->params[i].type;
	for (int i = 0; i < n; i++) {
		if (!u->iter && (nm & PRELUDE_N_ITER))
			u->iter = type_mentions(sig[i], iter_names, true);
		if (!u->vec && (nm & PRELUDE_N_VEC))
			u->vec = type_mentions(sig[i], vec_names, false);
		if (vec_bytes && !u->vec_bytes)
			u->vec_bytes = wraps_bytes(sig[i], "Vec");
		if (box_bytes && !u->box_bytes)
			u->box_bytes = !u->user_box && wraps_bytes(sig[i], "Box");
	}
}

/* A function's clauses and body. */
static void
scan_fn_body(PreludeUse *u, const FnDecl *fn, bool method)
{
	Scan sc = { u, method };
	for (int i = 0; i < fn->nclauses; i++)
		sema_walk_expr(fn->clauses[i].cond, scan_expr, &sc);
	sema_walk_block(fn->body, scan_expr, &sc);
}

static void
scan_fields(PreludeUse *u, const FieldDecl *fs, int n)
{
	bool box_bytes = (u->names & PRELUDE_N_BOXT) && (u->names & PRELUDE_N_BYTES) && !u->user_box;
	for (int i = 0; i < n; i++) {
		if (!u->vec && (u->names & PRELUDE_N_VEC))
			u->vec = type_mentions(fs[i].type, vec_names, false);
		if (box_bytes && !u->box_bytes)
			u->box_bytes = wraps_bytes(fs[i].type, "Box");
	}
}

/* `use function @id("…") from <module>`: a std wrapper imported by identity. */
static void
scan_use(PreludeUse *u, const UseDecl *d)
{
	if (d->is_type)
		return;
	char from[256];
	size_t len = 0;
	for (int i = 0; i < d->from.nparts && len < sizeof from - 1; i++)
		len += (size_t)snprintf(from + len, sizeof from - len, "%s%s", i ? "." : "", d->from.parts[i].s);
	IdAttr id = { true, d->id, d->span };
	if (strcmp(from, "std.mem") == 0)
		u->box |= id_is(&id, box_wrappers);
	if (strcmp(from, "std.collections") == 0)
		u->vec3 |= id_is(&id, vec_v3_wrappers);
}

static const Name *
type_decl_name(const Decl *d)
{
	switch (d->kind) {
	case DECL_RECORD: return &d->u.record.name;
	case DECL_VARIANT: return &d->u.variant.name;
	case DECL_CLASS: return &d->u.class_.name;
	case DECL_RESOURCE: return &d->u.resource.name;
	case DECL_INTERFACE: return &d->u.interface.name;
	default: return NULL;
	}
}

/* Starts *u with what the module's header gives: a type named Box, the uses. */
static void
scan_head(PreludeUse *u, const Module *m)
{
	memset(u, 0, sizeof *u);
	u->names = ~0u;
	for (int i = 0; i < m->ndecls; i++) {
		const Name *n = type_decl_name(&m->decls[i]);
		u->user_box |= n && strcmp(n->s, "Box") == 0;
	}
	for (int i = 0; i < m->nuses; i++)
		scan_use(u, &m->uses[i]);
}

enum { SCAN_HEADS = 1, SCAN_BODIES = 2, SCAN_ALL = 3 };

/* The prelude features one declaration uses: its header (ids, signatures,
 * fields) and/or its function bodies, as `part` says. */
static void
scan_decl_part(PreludeUse *u, const Decl *d, int part)
{
	switch (d->kind) {
	case DECL_FN:
		if (part & SCAN_HEADS)
			scan_fn_head(u, &d->u.fn, &d->id, false);
		if (part & SCAN_BODIES)
			scan_fn_body(u, &d->u.fn, false);
		break;
	case DECL_RECORD:
		if (part & SCAN_HEADS)
			scan_fields(u, d->u.record.fields, d->u.record.nfields);
		break;
	case DECL_VARIANT:
		for (int c = 0; (part & SCAN_HEADS) && c < d->u.variant.ncases; c++)
			scan_fields(u, d->u.variant.cases[c].fields, d->u.variant.cases[c].nfields);
		break;
	case DECL_CLASS:
		for (int j = 0; j < d->u.class_.nmembers; j++) {
			const ClassMember *cm = &d->u.class_.members[j];
			if (cm->is_method) {
				if (part & SCAN_HEADS)
					scan_fn_head(u, &cm->method, &cm->id, true);
				if (part & SCAN_BODIES)
					scan_fn_body(u, &cm->method, true);
			} else if (part & SCAN_HEADS) {
				scan_fields(u, &cm->field, 1);
			}
		}
		break;
	default:
		break;
	}
}

static void
scan_decl(PreludeUse *u, const Decl *d)
{
	scan_decl_part(u, d, SCAN_ALL);
}

/*
 * What the module uses.  A module that declares its own type `Box` means
 * that type by `Box<…>` in signatures and fields (the reference's legacy
 * selection), so only calls of the Box operations select v4/v5 there.
 */
static void
prelude_use(const Module *m, PreludeUse *out)
{
	PreludeUse u;
	scan_head(&u, m);
	for (int i = 0; i < m->ndecls; i++)
		scan_decl(&u, &m->decls[i]);
	*out = u;
}

static int
use_version(const PreludeUse *u)
{
	return u->iter ? 7 : u->vec_bytes ? 6 : u->box_bytes ? 5 : u->box ? 4 : u->vec3 ? 3 : u->vec ? 2 : 1;
}

/*
 * The highest schema the module can still reach once every stable id and
 * `use` is read (*u): each type and call test above needs a name among the
 * module's (Module.prelude_names), e.g. v2 `Vec` or a `vec_…` call, v6 also
 * `Bytes`.
 */
static int
version_bound(const Module *m, const PreludeUse *u)
{
	unsigned n = m->prelude_names;
	if (n & PRELUDE_N_ITER)
		return 7;
	if ((n & PRELUDE_N_VEC) && (n & PRELUDE_N_BYTES))
		return 6;
	if ((n & (PRELUDE_N_BOX | PRELUDE_N_BOXT)) && (n & PRELUDE_N_BYTES))
		return 5;
	if ((n & PRELUDE_N_BOX) || u->box)
		return 4;
	if ((n & PRELUDE_N_VEC3) || u->vec3)
		return 3;
	return n & PRELUDE_N_VEC ? 2 : 1;
}

/* The prelude schema version (1…7) the module binds.  With the module's
 * names known, the headers are read first (ids and signatures: cheap), and
 * the bodies only until the bound is met (the flags only grow, so the
 * version read then is the full scan's). */
static int
prelude_version(const Module *m)
{
	PreludeUse u;
	if (!m->prelude_known) {
		prelude_use(m, &u);
		return use_version(&u);
	}
	scan_head(&u, m);
	u.names = m->prelude_names;
	for (int i = 0; i < m->ndecls; i++)
		scan_decl_part(&u, &m->decls[i], SCAN_HEADS);
	int bound = version_bound(m, &u);
	for (int i = 0; i < m->ndecls && use_version(&u) < bound; i++)
		scan_decl_part(&u, &m->decls[i], SCAN_BODIES);
	return use_version(&u);
}

bool
sema_uses_box_ops(const Module *m)
{
	PreludeUse u;
	prelude_use(m, &u);
	return u.box || u.box_bytes;
}

/* ==== the prelude binding and the revision ==================================== */

static void
prelude_binding(int version, char schema[32], char digest[72])
{
	int slen = snprintf(schema, 32, "semaprax.prelude.v%d", version);
	Sha256 h;
	sha256_init(&h);
	sha256_update(&h, schema, (size_t)slen);
	sha256_update(&h, "\n", 1);
	for (const char *const *p = contract_pieces(version); *p; p++)
		sha256_update(&h, *p, strlen(*p));
	unsigned char d[32];
	sha256_final(&h, d);
	char hex[65];
	sha256_hex(d, hex);
	snprintf(digest, 72, "sha256:%s", hex);
}

void
sema_revision(const Module *m, char out[72], SemaPrelude *prelude)
{
	Buf canon = {0};
	/* The canonical text is about as long as the source (the last
	 * declaration's end): one buffer, not doubled and copied. */
	if (m->ndecls > 0)
		buf_reserve(&canon, (size_t)m->decls[m->ndecls - 1].span.end + 4096);
	/* written nearly whole: resident in one call (a large file's ~300 page faults) */
	if (canon.cap >= ((size_t)64 << 10))
		spx_prefault(canon.data, (size_t)m->decls[m->ndecls - 1].span.end);
	fmt_module_discards(&canon, m);
	sema_revision_canon(m, canon.data ? canon.data : "", canon.len, out, prelude);
	buf_free(&canon);
}

static void revision_version(int version, const char *canon, size_t canon_len, char out[72], SemaPrelude *prelude);

void
sema_revision_canon(const Module *m, const char *canon, size_t canon_len, char out[72], SemaPrelude *prelude)
{
	revision_version(prelude_version(m), canon, canon_len, out, prelude);
}

/* ---- the prelude choice by pieces (the service's cache; sema.h) ---- */

enum { PU_ITER = 1, PU_VEC_BYTES = 2, PU_BOX_BYTES = 4, PU_BOX = 8, PU_VEC3 = 16, PU_VEC = 32 };

static unsigned
pu_bits(const PreludeUse *u)
{
	return (u->iter ? PU_ITER : 0) | (u->vec_bytes ? PU_VEC_BYTES : 0) | (u->box_bytes ? PU_BOX_BYTES : 0) |
	    (u->box ? PU_BOX : 0) | (u->vec3 ? PU_VEC3 : 0) | (u->vec ? PU_VEC : 0);
}

unsigned
sema_prelude_head(const Module *m, bool *user_box)
{
	PreludeUse u;
	scan_head(&u, m);
	*user_box = u.user_box;
	return pu_bits(&u);
}

unsigned
sema_prelude_decl(const Decl *d, bool user_box)
{
	PreludeUse u;
	memset(&u, 0, sizeof u);
	u.names = ~0u;
	u.user_box = user_box;
	scan_decl(&u, d);
	return pu_bits(&u);
}

void
sema_revision_canon_uses(unsigned uses, const char *canon, size_t canon_len, char out[72], SemaPrelude *prelude)
{
	int version = uses & PU_ITER ? 7 : uses & PU_VEC_BYTES ? 6 : uses & PU_BOX_BYTES ? 5 : uses & PU_BOX ? 4
	    : uses & PU_VEC3 ? 3 : uses & PU_VEC ? 2 : 1;
	revision_version(version, canon, canon_len, out, prelude);
}

static void
revision_version(int version, const char *canon, size_t canon_len, char out[72], SemaPrelude *prelude)
{
	static const char domain[] = "semaprax.graph-revision.v2";
	char schema[32];
	int slen = snprintf(schema, sizeof schema, "semaprax.prelude.v%d", version);
	const char *const *pieces = contract_pieces(version);
	size_t clen = (size_t)slen + 1;
	for (const char *const *p = pieces; *p; p++)
		clen += strlen(*p);
	Sha256 h;
	sha256_init(&h);
	sha256_update(&h, domain, sizeof domain);  /* includes the NUL separator */
	sha256_field(&h, canon, canon_len);
	sha256_field(&h, schema, (size_t)slen);
	/* the contract field: its length, then the schema line and the pieces */
	unsigned char le[8];
	for (int i = 0; i < 8; i++)
		le[i] = (unsigned char)((uint64_t)clen >> (8 * i));
	sha256_update(&h, le, sizeof le);
	sha256_update(&h, schema, (size_t)slen);
	sha256_update(&h, "\n", 1);
	for (const char *const *p = pieces; *p; p++)
		sha256_update(&h, *p, strlen(*p));
	unsigned char d[32];
	sha256_final(&h, d);
	char hex[65];
	sha256_hex(d, hex);
	snprintf(out, 72, "sha256:%s", hex);
	if (prelude)
		prelude_binding(version, prelude->schema, prelude->digest);
}
