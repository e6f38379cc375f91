/*
 * builtins.c — the compiler-owned functions of LANGUAGE.md §5.1 (with
 * §0.1's vec_clone_at): their names (reserved, S113), stable identities,
 * type-parameter counts, signatures and required effects.
 *
 * One static table, expanded from builtins.def (the single list of
 * builtins every layer expands), sorted by name (strcmp order) so
 * sema_builtin_find can binary-search.  Each entry's signature is a string in a small notation
 * that sema_builtin_signature parses and instantiates for the call's explicit
 * type arguments:
 *
 *     sig    = "(" [ param { ", " param } ] ") -> " [ "borrow " ] type
 *            | "(...) -> " type                  variadic: string_format
 *     param  = name ": " [ "own " | "borrow " ] type
 *     name   = lower-case letters, digits and "_"
 *     type   = scalar | "string" | "str" | "Bytes" | "Slice<u8>" | "StdinReader"
 *            | "[u8; N]"                         any array: becomes T_ERR
 *            | "T" | "K" | "V"                   type arguments 0, 0, 1
 *            | ( "Vec" | "Box" | "Iter" | "Set" | "Option" | "IterStep" ) "<" type ">"
 *            | ( "Map" | "Result" ) "<" type ", " type ">"
 *
 * Modes: no prefix is MODE_NONE (a Copy value, or an owned value that the
 * call consumes — e.g. vec_push's `x: T` when T is a string), `own` is
 * MODE_OWN (the call consumes the argument: own Vec<T>, string_concat's
 * strings, as the reference's `Own`), `borrow` is MODE_BORROW (a read-only
 * loan; the reader functions on `string` borrow).  A `borrow K` whose
 * instantiated type is a Copy scalar becomes MODE_NONE.  `-> borrow …`
 * sets result_borrowed: the result is a view (str, Slice<u8>) borrowing
 * from the borrowed argument; arg_utf8's view borrows from no argument
 * (it lives for the whole invocation).
 *
 * Parameter names follow LANGUAGE.md §5.1 where it names them (`v`, `i`,
 * `s`, `needle`, `m`, `key`, `n`, ...), else the reference's tables (the
 * network operations' `handle`, `host`, `port`, `timeout_ms`); the few
 * neither names are chosen (docs/DECISIONS.md).  sema_builtin_param gives
 * a parameter's name, declared mode and type text to diagnostics and tools.
 *
 * Left to the checker (they need the call's arguments or whole-program
 * facts, not just the signature):
 *   - array_as_slice: its parameter type is T_ERR; accept any TY_ARRAY.
 *   - string_format: nparams -1; first argument a string literal with `{}`
 *     holes, then ≤ 32 fields of i64/u8/usize/bool or owned string.
 *   - box_get<T> and vec_get<T> need a Copy T (§0.1; vec_clone_at otherwise);
 *     vec_sort<T> needs an ordered T (the Copy scalars, bool included, and
 *     string; T205 otherwise, as the reference's T281 that §0.1 retires).
 *   - bytes_zeroed needs a literal usize; vec_with_capacity literal > 8192
 *     is T282; string_as_str's argument a plain `let` binding (T266);
 *     str_as_bytes on a `string` is T263 rather than T205.
 *   - effect may list several effects separated by ',' (only
 *     net_stream_stdout: `network.read,process.stdout.write`); every one
 *     is required.
 *
 * Choices where the spec is loose (see the report / DECISIONS.md):
 *   - Map/Set functions are generic only: every map_* call spells <K, V>
 *     and every set_* call <K>; the reference's legacy untyped map calls
 *     (`map_new(capacity)`, `map_add(m, key, n)`, …) mean <string, i64>
 *     (check_expr.c supplies them).  Indices and capacities are usize.
 *   - Map/Set keys are string, i64 or bool (T274); values any type (§0.1
 *     lifts T234); map_add needs V = i64 (it adds; overflow is code 4).
 *   - Keys and values are borrowed and copied on insertion, and map_get_or's
 *     default is borrowed (copied when returned), as the reference's
 *     map_collections_v2 corpus reads a string key, value and default after
 *     the call.
 *   - Stable ids: `core.string.*`/`core.str.*`/bytes/convert keep the
 *     snake-case suffix (the reference's `core.string.len_chars`); vec,
 *     box, iter, map, set and host use kebab case (`core.vec.with-capacity`,
 *     `core.host.stdout-write`).  Net signatures, ids and effects follow the
 *     reference's "Bounded Language Network I/O v1" table.
 */
#include "sema_int.h"

#include <string.h>

/* The table, expanded from builtins.def (one row per operation). */
static const Builtin builtins[] = {
#define BUILTIN(n, id, ntp, np, sig, eff) {#n, id, ntp, np, sig, eff, BI_##n},
#include "builtins.def"
};

/*
 * By name: an open-addressing index over the table, built on first use (the
 * checker asks for every call's callee and every function's name: most are
 * not builtins, and a binary search cost a dozen compares).  A slot holds a
 * row's index + 1 and the name hash's high byte, so a miss rarely compares
 * a string.
 */
#define NAME_SLOTS 512
static uint16_t name_slot[NAME_SLOTS];

static uint32_t
name_hash(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h ^ (h >> 15);
}

static void
name_index(void)
{
	ASSERT(countof(builtins) < NAME_SLOTS / 2 && countof(builtins) < 255, "builtins.c: the name index is too small");
	for (size_t i = 0; i < countof(builtins); i++) {
		uint32_t h = name_hash(builtins[i].name);
		uint32_t j = h & (NAME_SLOTS - 1);
		while (name_slot[j])
			j = (j + 1) & (NAME_SLOTS - 1);
		name_slot[j] = (uint16_t)((i + 1) | (h >> 24) << 8);
	}
}

const Builtin *
sema_builtin_find(const char *name)
{
	static bool built;
	if (!built) {
		name_index();
		built = true;
	}
	uint32_t h = name_hash(name);
	for (uint32_t j = h & (NAME_SLOTS - 1);; j = (j + 1) & (NAME_SLOTS - 1)) {
		uint16_t v = name_slot[j];
		if (!v)
			return NULL;
		if ((v >> 8) == (h >> 24) && strcmp(builtins[(v & 0xFF) - 1].name, name) == 0)
			return &builtins[(v & 0xFF) - 1];
	}
}

bool
sema_builtin_reserved(const char *name)
{
	return sema_builtin_find(name) != NULL;
}

/* The compiler-owned operation whose stable id is `id`, or NULL. */
const Builtin *
sema_builtin_find_id(const char *id)
{
	/* Called for every explicit stable id of a module: every reserved id
	 * starts with one of these bytes (tests/unit/unit.c checks that each
	 * row is found), so most ids are rejected without a scan. */
	if (!id[0] || !strchr("cfnp", id[0]))
		return NULL;
	for (size_t i = 0; i < countof(builtins); i++)
		if (builtins[i].id[0] == id[0] && strcmp(builtins[i].id, id) == 0)
			return &builtins[i];
	return NULL;
}

/* ---- the signature notation ---- */

typedef struct SigParser {
	Sema *S;
	const char *p;
	const TypeId *targs;
	int ntargs;
} SigParser;

static bool
parse_accept(SigParser *P, const char *word)
{
	size_t n = strlen(word);
	if (strncmp(P->p, word, n) != 0)
		return false;
	P->p += n;
	return true;
}

static void
parse_expect(SigParser *P, const char *word)
{
	ASSERT(parse_accept(P, word), "builtins.c: malformed signature notation");
}

static TypeId parse_type(SigParser *P);

/* `<` type { `, ` type } `>` into args; returns the count. */
static int
sig_parse_args(SigParser *P, TypeId *args, int max)
{
	int n = 0;
	parse_expect(P, "<");
	do {
		ASSERT(n < max, "builtins.c: too many type arguments in notation");
		args[n++] = parse_type(P);
	} while (parse_accept(P, ", "));
	parse_expect(P, ">");
	return n;
}

static const struct {
	const char *name;
	TypeId type;
} simple_types[] = {
	{"i64", T_I64}, {"i32", T_I32}, {"u8", T_U8}, {"usize", T_USIZE},
	{"f32", T_F32}, {"f64", T_F64}, {"bool", T_BOOL}, {"char", T_CHAR},
	{"string", T_STRING}, {"str", T_STR}, {"Bytes", T_BYTES},
};

static const struct {
	const char *name;
	TyKind kind;
	int nargs;
} generic_types[] = {
	{"Vec", TY_VEC, 1}, {"Box", TY_BOX, 1}, {"Iter", TY_ITER, 1},
	{"Set", TY_SET, 1}, {"Map", TY_MAP, 2},
};

static TypeId
parse_type(SigParser *P)
{
	char name[16];
	size_t n = 0;
	TypeId args[2];

	if (parse_accept(P, "[u8; N]"))
		return T_ERR;   /* any [u8; N]: the checker special-cases it */
	while ((P->p[n] >= 'a' && P->p[n] <= 'z') || (P->p[n] >= 'A' && P->p[n] <= 'Z') ||
	       (P->p[n] >= '0' && P->p[n] <= '9'))
		n++;
	ASSERT(n > 0 && n < sizeof name, "builtins.c: bad type name in notation");
	memcpy(name, P->p, n);
	name[n] = '\0';
	P->p += n;

	if (n == 1) {   /* T, K (argument 0) or V (argument 1) */
		int i = name[0] == 'V' ? 1 : 0;
		ASSERT(name[0] == 'T' || name[0] == 'K' || name[0] == 'V', "builtins.c: bad type variable");
		ASSERT(i < P->ntargs, "builtins.c: type variable beyond ntparams");
		return P->targs[i];
	}
	for (size_t i = 0; i < countof(simple_types); i++)
		if (name[0] == simple_types[i].name[0] && strcmp(name, simple_types[i].name) == 0)
			return simple_types[i].type;
	for (size_t i = 0; i < countof(generic_types); i++) {
		if (name[0] != generic_types[i].name[0] || strcmp(name, generic_types[i].name) != 0)
			continue;
		int na = sig_parse_args(P, args, 2);
		ASSERT(na == generic_types[i].nargs, "builtins.c: wrong type argument count");
		return sema_type_intern(&P->S->types, generic_types[i].kind, 0, 0, args, na);
	}
	if (strcmp(name, "StdinReader") == 0)
		return sema_type_reader(&P->S->types);
	if (strcmp(name, "Slice") == 0) {
		ASSERT(sig_parse_args(P, args, 1) == 1 && args[0] == T_U8, "builtins.c: only Slice<u8>");
		return T_SLICE;
	}
	if (strcmp(name, "Option") == 0) {
		ASSERT(sig_parse_args(P, args, 1) == 1, "builtins.c: Option takes one argument");
		return sema_option(P->S, args[0]);
	}
	if (strcmp(name, "Result") == 0) {
		ASSERT(sig_parse_args(P, args, 2) == 2, "builtins.c: Result takes two arguments");
		return sema_result(P->S, args[0], args[1]);
	}
	if (strcmp(name, "IterStep") == 0) {
		ASSERT(sig_parse_args(P, args, 1) == 1, "builtins.c: IterStep takes one argument");
		return sema_nominal(P->S, P->S->sym_iterstep, args, 1);
	}
	UNREACHABLE();
	return T_ERR;
}

/* ---- parameters as declared (names, modes, type text) ---- */

static size_t
param_name_len(const char *p)
{
	size_t n = 0;
	while ((p[n] >= 'a' && p[n] <= 'z') || (p[n] >= '0' && p[n] <= '9') || p[n] == '_')
		n++;
	ASSERT(n > 0 && p[n] == ':', "builtins.c: a parameter without a name in notation");
	return n;
}

bool
sema_builtin_param(BuiltinId bi, int i, BuiltinParam *out)
{
	const Builtin *b = sema_builtin_by_id(bi);
	if (i < 0 || i >= b->nparams)
		return false;
	const char *p = b->sig + 1;
	for (int k = 0; k < i; k++) {   /* skip to parameter i: the ", " at bracket depth 0 */
		int depth = 0;
		while (depth > 0 || !(p[0] == ',' && p[1] == ' ')) {
			depth += *p == '<' || *p == '[';
			depth -= *p == '>' || *p == ']';
			p++;
		}
		p += 2;
	}
	memset(out, 0, sizeof *out);
	out->name = p;
	out->name_len = (int)param_name_len(p);
	p += out->name_len + 2;
	out->mode = strncmp(p, "own ", 4) == 0 ? MODE_OWN : strncmp(p, "borrow ", 7) == 0 ? MODE_BORROW : MODE_NONE;
	p += out->mode == MODE_OWN ? 4 : out->mode == MODE_BORROW ? 7 : 0;
	out->type = p;
	int depth = 0;
	while (*p && !(depth == 0 && (*p == ',' || *p == ')'))) {
		depth += *p == '<' || *p == '[';
		depth -= *p == '>' || *p == ']';
		p++;
	}
	out->type_len = (int)(p - out->type);
	return true;
}

bool
sema_builtin_result_view(BuiltinId bi)
{
	return strstr(sema_builtin_by_id(bi)->sig, ") -> borrow ") != NULL;
}

/* ---- admission of type arguments ---- */

static bool
is_key_type(TypeId t)
{
	return t == T_STRING || t == T_I64 || t == T_BOOL || t == T_ERR;
}

/* NULL when the type arguments are admitted, else a short reason. */
static const char *
admit(const Builtin *b, const TypeId *targs, int ntargs)
{
	for (int i = 0; i < ntargs; i++)
		if (targs[i] == T_UNIT)
			return "`unit` is not a type argument";
	if (sema_builtin_is_map_op(b->bid)) {
		if (!is_key_type(targs[0]))
			return "Map keys must be `string`, `i64` or `bool`";
		if (b->bid == BI_map_add && targs[1] != T_I64 && targs[1] != T_ERR)
			return "`map_add` adds to `i64` values, so the Map's values must be `i64`";
	}
	if (sema_builtin_is_set_op(b->bid) && !is_key_type(targs[0]))
		return "Set elements must be `string`, `i64` or `bool`";
	return NULL;
}

/*
 * Instantiated signatures, remembered per Sema: a module calls the same few
 * builtins at the same type arguments over and over, and each instantiation
 * parsed the notation again.  Direct-mapped by (builtin, up to two type
 * arguments); only a success is kept (the types it interned stay interned,
 * so a remembered answer is the one parsing again would give).
 */
#define SIG_MEMO 64
struct SigMemo {
	bool used;
	int ntargs;
	BuiltinId bid;
	TypeId t0, t1;
	BuiltinSig sig;
};

static struct SigMemo *
sig_memo_slot(Sema *S, const Builtin *b, const TypeId *targs, int ntargs)
{
	if (ntargs > 2)
		return NULL;
	if (!S->sig_memo)
		S->sig_memo = ARENA_ARRAY(&S->arena, struct SigMemo, SIG_MEMO);
	TypeId t0 = ntargs > 0 ? targs[0] : 0, t1 = ntargs > 1 ? targs[1] : 0;
	uint32_t h = ((uint32_t)b->bid * 0x9E3779B1u) ^ (t0 * 0x85EBCA77u) ^ (t1 * 0xC2B2AE3Du) ^ (uint32_t)ntargs;
	return &S->sig_memo[(h ^ (h >> 16)) & (SIG_MEMO - 1)];
}

static bool
sig_memo_hit(const struct SigMemo *m, const Builtin *b, const TypeId *targs, int ntargs)
{
	return m && m->used && m->bid == b->bid && m->ntargs == ntargs && (ntargs < 1 || m->t0 == targs[0]) &&
	    (ntargs < 2 || m->t1 == targs[1]);
}

static bool builtin_signature(Sema *S, const Builtin *b, const TypeId *targs, int ntargs, BuiltinSig *out,
    const char **why);

bool
sema_builtin_signature(Sema *S, const Builtin *b, const TypeId *targs, int ntargs, BuiltinSig *out,
		  const char **why)
{
	struct SigMemo *m = sig_memo_slot(S, b, targs, ntargs);
	if (sig_memo_hit(m, b, targs, ntargs)) {
		*out = m->sig;
		return true;
	}
	if (!builtin_signature(S, b, targs, ntargs, out, why))
		return false;
	if (m) {
		m->used = true;
		m->bid = b->bid;
		m->ntargs = ntargs;
		m->t0 = ntargs > 0 ? targs[0] : 0;
		m->t1 = ntargs > 1 ? targs[1] : 0;
		m->sig = *out;
	}
	return true;
}

static bool
builtin_signature(Sema *S, const Builtin *b, const TypeId *targs, int ntargs, BuiltinSig *out,
		  const char **why)
{
	SigParser P = {S, b->sig, targs, ntargs};
	const char *reason;

	memset(out, 0, sizeof *out);
	out->effect = b->effect;
	if (ntargs != b->ntparams) {
		if (why)
			*why = b->ntparams == 0 ? "takes no type arguments"
			     : b->ntparams == 1 ? "needs exactly one type argument"
						: "needs exactly two type arguments";
		return false;
	}
	if ((reason = admit(b, targs, ntargs)) != NULL) {
		if (why)
			*why = reason;
		return false;
	}

	parse_expect(&P, "(");
	if (parse_accept(&P, "...)")) {
		out->nparams = -1;
	} else if (!parse_accept(&P, ")")) {
		do {
			ParamMode mode = MODE_NONE;
			TypeId t;
			P.p += param_name_len(P.p);
			parse_expect(&P, ": ");
			if (parse_accept(&P, "own "))
				mode = MODE_OWN;
			else if (parse_accept(&P, "borrow "))
				mode = MODE_BORROW;
			t = parse_type(&P);
			if (mode == MODE_BORROW && sema_type_is_scalar(&S->types, t))
				mode = MODE_NONE;   /* `borrow K` with a Copy key */
			ASSERT(out->nparams < 8, "builtins.c: too many parameters");
			out->params[out->nparams] = t;
			out->modes[out->nparams++] = mode;
		} while (parse_accept(&P, ", "));
		parse_expect(&P, ")");
	}
	parse_expect(&P, " -> ");
	out->result_borrowed = parse_accept(&P, "borrow ");
	out->result = parse_type(&P);
	ASSERT(*P.p == '\0', "builtins.c: trailing text in signature");
	ASSERT(out->nparams == b->nparams, "builtins.c: nparams disagrees with the signature");
	return true;
}

/* The compiler-owned operation with BuiltinId bi. */
const Builtin *
sema_builtin_by_id(BuiltinId bi)
{
	ASSERT(bi >= 0 && bi < BI_COUNT, "builtins.c: BuiltinId out of range");
	return &builtins[bi];
}

/* map_* (as opposed to set_*): the Map operations, for the lanes' and the
 * checker's Map/Set distinctions */
bool
sema_builtin_is_map_op(BuiltinId bi)
{
	switch (bi) {
	case BI_map_add: case BI_map_get_or: case BI_map_has: case BI_map_key_at: case BI_map_len:
	case BI_map_new: case BI_map_remove: case BI_map_set: case BI_map_value_at:
		return true;
	default:
		return false;
	}
}

/* set_*: the Set operations */
bool
sema_builtin_is_set_op(BuiltinId bi)
{
	switch (bi) {
	case BI_set_has: case BI_set_insert: case BI_set_key_at: case BI_set_len: case BI_set_new: case BI_set_remove:
		return true;
	default:
		return false;
	}
}
