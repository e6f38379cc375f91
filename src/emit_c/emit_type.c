/*
 * emit_type.c — C spellings of SEMAPRAX types and the helpers generated
 * for them (see emit_int.h for the ownership model).
 *
 * Runtime types: string and Bytes are `spx_str` (owned bytes), str and
 * Slice<u8> `spx_view`, Vec `spx_vec`, Iter `spx_iter`, Map and Set
 * `spx_map`, function values `spx_fn`.  Records, classes and variants are
 * structs `tyN_Name` (N the TypeId, so instances of generic declarations
 * are distinct); a variant is a `tag` (the case index) plus a union of
 * per-case structs `c_<Case>`; fields are `f_<field>`.  Box<T> is `T *`.
 * Struct definitions are preceded by forward declarations, so a type may
 * refer to itself through Box, Vec, Map or Iter.
 *
 * Per non-Copy type the emitter generates on demand `spx_rel_N` (release
 * in place, leaving the empty state) and `spx_clone_N` (a deep copy);
 * ordered element types get a `spx_sort_N` comparator for vec_sort.
 */
#include "emit_int.h"

#include <string.h>

void
emitc_types_grow(Emit *E)
{
	int n = E->S->types.len;
	if (n <= E->nts)
		return;
	E->ts = spx_xrealloc(E->ts, sizeof *E->ts * (size_t)n);
	memset(E->ts + E->nts, 0, sizeof *E->ts * (size_t)(n - E->nts));
	E->nts = n;
}

const TypeInfo *
emitc_tinfo(Emit *E, TypeId t)
{
	return sema_type_info(&E->S->types, t);
}

/* The type of t in the instance being emitted: the mono result's
 * (hir_mono_type), so the lane never substitutes. */
TypeId
emitc_sty(Emit *E, TypeId t)
{
	TypeId r = hir_mono_type(E->H, E->cur, t);
	emitc_types_grow(E);
	return r;
}

bool
emitc_is_scalar(Emit *E, TypeId t)
{
	TyKind k = emitc_tinfo(E, t)->kind;
	return k >= TYPE_FIRST_SCALAR && k <= TYPE_LAST_SCALAR;
}

bool
emitc_is_int(Emit *E, TypeId t)
{
	TyKind k = emitc_tinfo(E, t)->kind;
	return k == TY_I64 || k == TY_I32 || k == TY_U8 || k == TY_USIZE;
}

bool
emitc_is_copy(Emit *E, TypeId t)
{
	return sema_is_copy(E->S, t);
}

bool
emitc_valueful(Emit *E, TypeId t)
{
	TyKind k = emitc_tinfo(E, t)->kind;
	return k != TY_UNIT && k != TY_ERROR;
}

Sym *
emitc_nominal_sym(Emit *E, TypeId t)
{
	const TypeInfo *ti = emitc_tinfo(E, t);
	return ti->kind == TY_NOMINAL ? sema_sym(E->S, (SymId)ti->decl) : NULL;
}

static int
case_count(Sym *s)
{
	return s->kind == SK_VARIANT ? s->nom->ncases : 0;
}

/* Does pred hold for a field (record, class) or case field (variant) of nominal t? */
static bool
some_field(Emit *E, TypeId t, bool (*pred)(Emit *, TypeId))
{
	Sym *s = emitc_nominal_sym(E, t);
	if (!s)
		return false;
	for (int i = 0; s->kind != SK_VARIANT && i < s->nom->nfields; i++)
		if (pred(E, sema_field_type(E->S, t, i)))
			return true;
	for (int c = 0; c < case_count(s); c++)
		for (int i = 0; i < s->nom->cases[c].nfields; i++)
			if (pred(E, sema_case_field_type(E->S, t, c, i)))
				return true;
	return false;
}

/*
 * The two walks below are remembered per type (E->ts[t].view, .fn): a
 * record of two fields of a record of two fields … 40 deep is a linear
 * program whose field tree has 2^40 leaves, and the unremembered walk
 * never finished (sec19).
 */
bool
emitc_may_view(Emit *E, TypeId t)
{
	emitc_types_grow(E);
	if (!E->ts[t].view) {
		TyKind k = emitc_tinfo(E, t)->kind;
		bool yes = k == TY_STR || k == TY_SLICE || some_field(E, t, emitc_may_view);
		E->ts[t].view = yes ? 2 : 1;   /* the walk may have grown (moved) E->ts */
	}
	return E->ts[t].view == 2;
}

static bool
emitc_holds_fn(Emit *E, TypeId t)
{
	emitc_types_grow(E);
	if (!E->ts[t].fn) {
		bool yes = emitc_tinfo(E, t)->kind == TY_FN || some_field(E, t, emitc_holds_fn);
		E->ts[t].fn = yes ? 2 : 1;   /* the walk may have grown (moved) E->ts */
	}
	return E->ts[t].fn == 2;
}

static const char *const scalar_c[] = {
	[TY_I64] = "int64_t", [TY_I32] = "int32_t", [TY_U8] = "uint8_t", [TY_USIZE] = "uint64_t",
	[TY_F32] = "float", [TY_F64] = "double", [TY_BOOL] = "bool", [TY_CHAR] = "uint32_t",
};

static bool ensure_type(Emit *E, TypeId t);

/* A struct definition: after spx_fn when the type holds a function value
 * by value (types_fn), before it otherwise (captures may embed it). */
static void
struct_body(Emit *E, TypeId t, Sym *s, const char *name)
{
	Buf *out = emitc_holds_fn(E, t) ? &E->types_fn : &E->types;
	const char *spell = sema_type_name(E->S, t);
	buf_puts(out, "/* ");
	emitc_comment_text(out, spell, strlen(spell));
	buf_printf(out, " */\nstruct %s {\n", name);
	if (s->kind != SK_VARIANT) {
		for (int i = 0; i < s->nom->nfields; i++)
			buf_printf(out, "\t%s f_%s;\n", E->ts[sema_field_type(E->S, t, i)].name, s->nom->fields[i].name);
		if (s->nom->nfields == 0)
			buf_puts(out, "\tchar empty_;\n");
	} else {
		buf_puts(out, "\tuint32_t tag;\n");
		bool any = false;
		for (int c = 0; c < s->nom->ncases; c++)
			any |= s->nom->cases[c].nfields > 0;
		if (any) {
			buf_puts(out, "\tunion {\n");
			for (int c = 0; c < s->nom->ncases; c++) {
				if (s->nom->cases[c].nfields == 0)
					continue;
				buf_puts(out, "\t\tstruct {");
				for (int i = 0; i < s->nom->cases[c].nfields; i++)
					buf_printf(out, " %s f_%s;", E->ts[sema_case_field_type(E->S, t, c, i)].name,
						   s->nom->cases[c].fields[i].name);
				buf_printf(out, " } c_%s;\n", s->nom->cases[c].name);
			}
			buf_puts(out, "\t} u;\n");
		}
	}
	buf_puts(out, "};\n\n");
}

static Buf *
def_buf(Emit *E, EmitDefBuf which)
{
	return which == EMIT_DEF_FWD ? &E->fwd : which == EMIT_DEF_TYPES ? &E->types : &E->types_fn;
}

/* Records the shared definition name just written to buffer which from start on. */
static void
note_def(Emit *E, EmitDefBuf which, size_t start, const char *name)
{
	EmitDef d = { which, start, def_buf(E, which)->len, name };
	VEC_PUSH(E->defs, d);
}

void
emitc_put_types(const Emit *E, EmitDefBuf which, StrMap *seen, Buf *out)
{
	const Buf *b = which == EMIT_DEF_FWD ? &E->fwd : which == EMIT_DEF_TYPES ? &E->types : &E->types_fn;
	if (b->len == 0)
		return;
	size_t at = 0;
	for (int i = 0; seen && i < E->defs.len; i++) {
		const EmitDef *d = &E->defs.items[i];
		if (d->buf != which)
			continue;
		buf_put(out, b->data + at, d->start - at);
		if (sema_strmap_put(seen, d->name, 0))
			buf_put(out, b->data + d->start, d->end - d->start);
		at = d->end;
	}
	if (b->len > at)
		buf_put(out, b->data + at, b->len - at);
}

static bool
is_struct_sym(const Sym *s)
{
	return s && (s->kind == SK_RECORD || s->kind == SK_VARIANT || s->kind == SK_CLASS);
}

/* Names a record, variant or class and forward-declares its struct (state
 * 4: declared, definition pending) — all a Box pointer, a Vec/Map/Set/Iter
 * element or a function value's parameter needs.  Defining it there would
 * emit its body while a type holding it by value (`Option<Box<Node>>` inside
 * `Node`) may still be in progress; it is defined by the next ensure_type
 * that needs it by value, or by emitc_ctype's drain. */
static void
declare_nominal(Emit *E, TypeId t, Sym *s)
{
	const char *shared = emitc_shared_type_name(E, t);
	const char *name = shared ? shared : arena_printf(&E->a, "%sty%u_%s", E->px, (unsigned)t, s->name);
	E->ts[t].name = name;
	E->ts[t].state = 4;
	buf_printf(&E->fwd, "typedef struct %s %s;\n", name, name);
	VEC_PUSH(E->pending, t);
}

/*
 * A value's bytes held inline (by value, on the C stack when a local): a
 * record's fields, a variant's tag and largest case, an array's bytes, a
 * scalar 8; anything else (runtime handles, pointers, function values)
 * counts 32, more than it takes.  Remembered per type, saturating: two fields of two fields …
 * 40 deep is a linear program whose value takes 2^43 bytes.
 */
#define EMITC_INLINE_MAX 65536u
#define EMITC_INLINE_SAT ((uint64_t)1 << 40)
static uint64_t
inline_bytes(Emit *E, TypeId t)
{
	emitc_types_grow(E);
	if (E->ts[t].inline_size)
		return E->ts[t].inline_size - 1;
	const TypeInfo *ti = emitc_tinfo(E, t);
	Sym *s = emitc_nominal_sym(E, t);
	uint64_t n = 32;
	if (ti->kind == TY_I64 || ti->kind == TY_I32 || ti->kind == TY_U8 || ti->kind == TY_USIZE || ti->kind == TY_F32 ||
	    ti->kind == TY_F64 || ti->kind == TY_BOOL || ti->kind == TY_CHAR) {
		n = 8;
	} else if (ti->kind == TY_ARRAY) {
		n = ti->n < EMITC_INLINE_SAT ? ti->n : EMITC_INLINE_SAT;
	} else if (is_struct_sym(s) && s->kind != SK_VARIANT) {
		n = 0;
		for (int i = 0; i < s->nom->nfields && n < EMITC_INLINE_SAT; i++)
			n += inline_bytes(E, sema_field_type(E->S, t, i));
	} else if (is_struct_sym(s)) {
		n = 0;
		for (int c = 0; c < case_count(s); c++) {
			uint64_t m = 0;
			for (int i = 0; i < s->nom->cases[c].nfields && m < EMITC_INLINE_SAT; i++)
				m += inline_bytes(E, sema_case_field_type(E->S, t, c, i));
			n = m > n ? m : n;
		}
		n += 8;
	}
	if (n > EMITC_INLINE_SAT)
		n = EMITC_INLINE_SAT;
	E->ts[t].inline_size = n + 1;
	return n;
}

static bool
ensure_nominal(Emit *E, TypeId t)
{
	Sym *s = emitc_nominal_sym(E, t);
	if (!is_struct_sym(s))
		return false;
	if (E->ts[t].state != 4)
		declare_nominal(E, t, s);
	const char *name = E->ts[t].name;
	const char *shared = emitc_shared_type_name(E, t);
	E->ts[t].state = 1;
	bool ok = true;
	for (int i = 0; s->kind != SK_VARIANT && i < s->nom->nfields && ok; i++)
		ok = ensure_type(E, sema_field_type(E->S, t, i));
	for (int c = 0; c < case_count(s) && ok; c++)
		for (int i = 0; i < s->nom->cases[c].nfields && ok; i++)
			ok = ensure_type(E, sema_case_field_type(E->S, t, c, i));
	if (!ok)
		return false;
	/*
	 * A value past 64 KiB inline is refused (sec19): 2^24 i64 fields
	 * died of SIGSEGV in the 256 MiB stack (rt/core.h spx_stack_room),
	 * 2^27 kept `run --native` busy past two minutes.  The Wasm lane's bound is
	 * 1,000 flat values (W110).
	 */
	if (inline_bytes(E, t) > EMITC_INLINE_MAX) {
		E->wide = true;
		E->wide_type = t;
		return false;
	}
	/* a project's: every module that uses the type defines it, the unit
	 * keeps one (emitc_put_types) */
	EmitDefBuf which = emitc_holds_fn(E, t) ? EMIT_DEF_TYPES_FN : EMIT_DEF_TYPES;
	size_t start = def_buf(E, which)->len;
	struct_body(E, t, s, name);
	if (shared)
		note_def(E, which, start, name);
	return true;
}

/* A type reached through a pointer or an opaque runtime container (Box,
 * Vec, Map, Set, Iter, function values): a record, variant or class is only
 * declared here (declare_nominal); anything else is ensured. */
static bool
ensure_ref(Emit *E, TypeId t)
{
	emitc_types_grow(E);
	if ((int)t < E->nts && E->ts[t].state == 0 && sema_type_bounded(&E->S->types, t)
	    && emitc_tinfo(E, t)->kind == TY_NOMINAL) {
		Sym *s = emitc_nominal_sym(E, t);
		if (is_struct_sym(s)) {
			declare_nominal(E, t, s);
			return true;
		}
	}
	if ((int)t < E->nts && E->ts[t].state == 4)
		return true;
	return ensure_type(E, t);
}

/* Ensures t has a C spelling (emitting its definition); false when unsupported. */
static bool
ensure_type(Emit *E, TypeId t)
{
	emitc_types_grow(E);
	if ((int)t >= E->nts)
		return false;
	if (E->ts[t].state == 1 || E->ts[t].state == 2)
		return true;
	if (E->ts[t].state == 3)
		return false;
	/* state 4 (declared only): defined below, as a nominal */
	if (!sema_type_bounded(&E->S->types, t)) {
		/* a generic type holding a larger instance of itself
		 * (`R<T> { next: Option<Box<R<Vec<T>>>> }`) needs types without end */
		E->ts[t].state = 3;
		E->unbounded = true;
		return false;
	}
	TyKind k = emitc_tinfo(E, t)->kind;
	bool ok = true;
	const char *name = NULL;
	switch (k) {
	case TY_I64: case TY_I32: case TY_U8: case TY_USIZE: case TY_F32: case TY_F64: case TY_BOOL: case TY_CHAR:
		name = scalar_c[k];
		break;
	case TY_STRING: case TY_BYTES: case TY_READER:   /* a reader: its chunk in a 4,096-byte buffer (rt/stream.h) */
		name = "spx_str";
		break;
	case TY_STR: case TY_SLICE:
		name = "spx_view";
		break;
	case TY_FN:
		/* the dispatchers (emitted last) spell the parameter and result types */
		name = "spx_fn";
		E->ts[t].name = name;
		E->ts[t].state = 1;
		for (int i = 0; i < emitc_tinfo(E, t)->nargs; i++)
			(void)ensure_ref(E, emitc_tinfo(E, t)->args[i]);   /* unit results have no spelling */
		break;
	case TY_VEC: case TY_ITER: case TY_SET:
		name = k == TY_VEC ? "spx_vec" : k == TY_ITER ? "spx_iter" : "spx_map";
		E->ts[t].name = name;
		E->ts[t].state = 1;
		ok = ensure_ref(E, emitc_tinfo(E, t)->args[0]);
		break;
	case TY_MAP:
		name = "spx_map";
		E->ts[t].name = name;
		E->ts[t].state = 1;
		ok = ensure_ref(E, emitc_tinfo(E, t)->args[0]) && ensure_ref(E, emitc_tinfo(E, t)->args[1]);
		break;
	case TY_BOX: {
		E->ts[t].state = 1;
		TypeId in = emitc_tinfo(E, t)->args[0];
		ok = ensure_ref(E, in);
		if (ok) {
			name = arena_printf(&E->a, "%st%u_box", E->px, (unsigned)t);
			buf_printf(&E->fwd, "typedef %s *%s;\n", E->ts[in].name, name);
		}
		break;
	}
	case TY_ARRAY: {
		uint64_t n = emitc_tinfo(E, t)->n;
		/* a project spells it by its length, defined once in the unit */
		const char *shared = emitc_shared_type_name(E, t);
		name = shared ? shared : arena_printf(&E->a, "%st%u_array", E->px, (unsigned)t);
		size_t start = E->fwd.len;
		buf_printf(&E->fwd, "typedef struct %s { uint8_t a[%llu]; } %s;   /* [u8; %llu] */\n",
			   name, (unsigned long long)(n ? n : 1), name, (unsigned long long)n);
		if (shared)
			note_def(E, EMIT_DEF_FWD, start, name);
		break;
	}
	case TY_NOMINAL:
		ok = ensure_nominal(E, t);
		name = E->ts[t].name;
		break;
	default:
		ok = false;
		break;
	}
	if (!ok) {
		E->ts[t].state = 3;
		return false;
	}
	E->ts[t].name = name;
	E->ts[t].state = 2;
	return true;
}

/* Defines every type left declared only (state 4); false when one cannot
 * be laid out. */
static bool
drain_pending(Emit *E)
{
	while (E->pending.len > 0) {
		TypeId p = E->pending.items[--E->pending.len];
		if (E->ts[p].state == 4 && !ensure_type(E, p))
			return false;
	}
	return true;
}

const char *
emitc_ctype(Emit *E, TypeId t, Span span)
{
	if (ensure_type(E, t)) {
		if (drain_pending(E))
			return E->ts[t].name;
		/* a type t points to cannot be laid out: refused below, naming t
		 * (what the program spelled), as when t's own walk fails */
	}
	if (E->unbounded && sema_type_bounded(&E->S->types, t))
		emitc_refuse(E, span, "the native lane cannot lay out `%s`: it holds types nested more than %d levels deep or of more than %d type nodes (a generic type holding a larger instance of itself)",
		    sema_type_name(E->S, t), SEMA_TYPE_MAX_DEPTH, SEMA_TYPE_MAX_NODES);
	else if (E->unbounded)
		emitc_refuse(E, span, "the native lane cannot lay out a type nested more than %d levels deep or of more than %d type nodes", SEMA_TYPE_MAX_DEPTH, SEMA_TYPE_MAX_NODES);
	else if (E->wide)
		emitc_refuse(E, span, "the native lane does not support values of type `%s` yet: one holds %llu bytes inline, past %u",
		    sema_type_name(E->S, E->wide_type), (unsigned long long)inline_bytes(E, E->wide_type), EMITC_INLINE_MAX);
	else
		emitc_refuse(E, span, "the native lane does not support values of type `%s` yet", sema_type_name(E->S, t));
	return NULL;
}

const char *
emit_tyname(Emit *E, TypeId t)
{
	const char *n = emitc_ctype(E, t, (Span){0});
	return n ? n : "spx_unsupported";   /* after a refusal: nothing is compiled */
}

const char *
emitc_zero_init(Emit *E, TypeId t)
{
	TyKind k = emitc_tinfo(E, t)->kind;
	return emitc_is_scalar(E, t) || k == TY_BOX ? "0" : "{0}";
}

int
emitc_map_key_kind(Emit *E, TypeId k)
{
	TyKind kk = emitc_tinfo(E, k)->kind;
	return kk == TY_I64 ? 0 : kk == TY_BOOL ? 1 : 2;
}

const char *
emitc_cap_field(Emit *E, TypeId t)
{
	switch (emitc_tinfo(E, t)->kind) {
	case TY_I64: return "i";
	case TY_I32: return "i32";
	case TY_U8: return "u8";
	case TY_USIZE: return "u";
	case TY_F64: return "f";
	case TY_F32: return "f32";
	case TY_BOOL: return "b";
	case TY_CHAR: return "c";
	default: break;
	}
	if (emitc_holds_fn(E, t))
		return NULL;
	if (E->prog)
		return emitc_prog_cap(E, t);   /* one spx_cap for the unit */
	int i = 0;
	while (i < E->captys.len && E->captys.items[i] != t)
		i++;
	if (i == E->captys.len)
		VEC_PUSH(E->captys, t);
	return arena_printf(&E->a, "v%u", (unsigned)t);
}

/* ---- release ---- */

/* Starts a helper: its prototype and the opening of its definition. */
static void
helper_open(Emit *E, const char *proto)
{
	buf_printf(&E->hprotos, "static %s;\n", proto);
	buf_printf(&E->helpers, "static %s\n{\n", proto);
}

/* A per-field action of a generated helper: dst and src name the field in the result and the input. */
typedef void (*FieldAction)(Emit *E, Buf *b, TypeId ft, const char *dst, const char *src);

static void
rel_field(Emit *E, Buf *b, TypeId ft, const char *dst, const char *src)
{
	(void)src;
	if (!emitc_is_copy(E, ft))
		buf_printf(b, "\t%s(&%s);\n", emitc_rel_fn(E, ft), dst);
}

static void clone_field(Emit *E, Buf *b, TypeId ft, const char *dst, const char *src);

/* The action on every field of a record or class, or per case of a variant (a switch on the tag). */
static void
each_field(Emit *E, Buf *b, TypeId t, FieldAction act, const char *dst, const char *src)
{
	Sym *s = emitc_nominal_sym(E, t);
	if (s->kind != SK_VARIANT) {
		for (int i = 0; i < s->nom->nfields; i++)
			act(E, b, sema_field_type(E->S, t, i), arena_printf(&E->a, "%sf_%s", dst, s->nom->fields[i].name),
			    arena_printf(&E->a, "%sf_%s", src, s->nom->fields[i].name));
		return;
	}
	buf_printf(b, "\tswitch (%stag) {\n", src);
	for (int c = 0; c < s->nom->ncases; c++) {
		bool any = false;
		for (int i = 0; i < s->nom->cases[c].nfields; i++)
			any |= !emitc_is_copy(E, sema_case_field_type(E->S, t, c, i));
		if (!any)
			continue;
		buf_printf(b, "\tcase %d:\n", c);
		for (int i = 0; i < s->nom->cases[c].nfields; i++) {
			const char *f = arena_printf(&E->a, "u.c_%s.f_%s", s->nom->cases[c].name, s->nom->cases[c].fields[i].name);
			act(E, b, sema_case_field_type(E->S, t, c, i), arena_printf(&E->a, "%s%s", dst, f),
			    arena_printf(&E->a, "%s%s", src, f));
		}
		buf_puts(b, "\t\tbreak;\n");
	}
	buf_puts(b, "\tdefault:\n\t\tbreak;\n\t}\n");
}

/* ---- walks without recursion ----
 * A value nests without bound only through a type that can hold itself
 * (a cyclic type: a list node, a tree node, a Map of nodes), and only
 * through a heap part (a Box, a Vec's or Iter's storage, a Map's values):
 * a type cannot hold itself by value.  So the release and the copy of a
 * heap part whose element type is cyclic are not done by a call nested in
 * the caller's but handed to the runtime's job list (spx_run, rt/core.h):
 * a job releases or copies the n elements of one block, and what those
 * hold in their own cyclic heap parts becomes further jobs, run by the
 * outermost spx_run in a loop — so no shape of value needs more C stack
 * than its type's nesting.  Other heap parts are walked by direct calls
 * (the common flat case, bounded by the type).  No user code runs at a
 * release or a copy (LANGUAGE.md §0: no drop finalizer exists), so the
 * order of the blocks is free. */

/* Can a value of type t (not Copy) hold another value of type t
 * (hir_type_cyclic, shared with the Wasm lane)?  Memoised per type. */
static bool
cyclic(Emit *E, TypeId t)
{
	emitc_types_grow(E);
	if (E->ts[t].cyc)
		return E->ts[t].cyc == 2;
	bool yes = hir_type_cyclic(E->S, t);
	emitc_types_grow(E);
	E->ts[t].cyc = yes ? 2 : 1;
	return yes;
}

/* The job for a block of n elements of the cyclic type el (spx_run,
 * rt/core.h): releasing them in block p, then the block; or (clone)
 * copying those of block src into block p.  One helper a type and kind. */
static const char *
job_fn(Emit *E, TypeId el, bool clone)
{
	const char *have = clone ? E->ts[el].clonej : E->ts[el].relj;
	if (have)
		return have;
	const char *name = arena_printf(&E->a, "%sspx_%s_%u", E->px, clone ? "clonej" : "relj", (unsigned)el);
	if (clone)
		E->ts[el].clonej = name;
	else
		E->ts[el].relj = name;
	const char *en = emit_tyname(E, el), *fn = clone ? emitc_clone_fn(E, el) : emitc_rel_fn(E, el);
	helper_open(E, arena_printf(&E->a, "void %s(void *p, const void *src, size_t n)", name));
	if (clone)
		buf_printf(&E->helpers, "\tfor (size_t i = 0; i < n; i++)\n\t\t((%s *)p)[i] = %s(&((const %s *)src)[i]);\n}\n\n",
			   en, fn, en);
	else
		buf_printf(&E->helpers, "\t(void)src;\n\tfor (size_t i = 0; i < n; i++)\n\t\t%s(&((%s *)p)[i]);\n"
					"\tspx_free(p);\n}\n\n", fn, en);
	return name;
}

static void
rel_body(Emit *E, TypeId t, Buf *b)
{
	const TypeInfo *ti = emitc_tinfo(E, t);
	TyKind k = ti->kind;
	if (k == TY_VEC || k == TY_ITER) {
		TypeId el = ti->args[0];
		const char *v = k == TY_VEC ? "p" : "(&p->v)";
		if (!emitc_is_copy(E, el) && cyclic(E, el)) {
			/* a job (no recursion); an empty Vec's storage at once */
			buf_printf(b, "\tif (%s->len)\n\t\tspx_run(%s, %s->p, NULL, %s->len);\n\telse\n\t\tspx_free(%s->p);\n"
				      "\t%s->p = NULL;\n\t%s->len = %s->cap = 0;\n", v, job_fn(E, el, false), v, v, v, v, v, v);
		} else {
			if (!emitc_is_copy(E, el))
				buf_printf(b, "\tfor (size_t i = 0; i < %s->len; i++)\n\t\t%s(&((%s *)%s->p)[i]);\n", v,
					   emitc_rel_fn(E, el), emit_tyname(E, el), v);
			buf_printf(b, "\tspx_vec_free(%s);\n", v);
		}
		if (k == TY_ITER)
			buf_puts(b, "\tp->pos = 0;\n");
	} else if (k == TY_MAP || k == TY_SET) {
		TypeId kt = ti->args[0];
		if (k == TY_MAP && !emitc_is_copy(E, ti->args[1])) {
			TypeId vt = ti->args[1];
			if (cyclic(E, vt))
				buf_printf(b, "\tif (p->len) {\n\t\tspx_run(%s, p->v, NULL, p->len);\n\t\tp->v = NULL;\n\t}\n",
					   job_fn(E, vt, false));
			else
				buf_printf(b, "\tfor (size_t i = 0; i < p->len; i++)\n\t\t%s(&((%s *)p->v)[i]);\n",
					   emitc_rel_fn(E, vt), emit_tyname(E, vt));
		}
		buf_printf(b, "\tspx_map_free(p, %d);\n", emitc_map_key_kind(E, kt));
	} else if (k == TY_BOX) {
		TypeId in = ti->args[0];
		buf_puts(b, "\tif (!*p)\n\t\treturn;\n");
		if (!emitc_is_copy(E, in) && cyclic(E, in)) {
			buf_printf(b, "\tspx_run(%s, *p, NULL, 1);\n\t*p = NULL;\n", job_fn(E, in, false));
			return;
		}
		if (!emitc_is_copy(E, in))
			buf_printf(b, "\t%s(*p);\n", emitc_rel_fn(E, in));
		buf_puts(b, "\tspx_free(*p);\n\t*p = NULL;\n");
	} else if (k == TY_NOMINAL) {
		each_field(E, b, t, rel_field, "p->", "p->");
	}
}

const char *
emitc_rel_fn(Emit *E, TypeId t)
{
	emitc_types_grow(E);
	TyKind k = emitc_tinfo(E, t)->kind;
	if (k == TY_STRING || k == TY_BYTES || k == TY_READER)
		return "spx_str_free";
	if (E->ts[t].rel)
		return E->ts[t].rel;
	ensure_type(E, t);
	const char *name = arena_printf(&E->a, "%sspx_rel_%u", E->px, (unsigned)t);
	E->ts[t].rel = name;
	Buf body = {0};
	rel_body(E, t, &body);
	helper_open(E, arena_printf(&E->a, "void %s(%s *p)", name, emit_tyname(E, t)));
	if (body.len)
		buf_put(&E->helpers, body.data, body.len);
	else
		buf_puts(&E->helpers, "\t(void)p;\n");
	buf_puts(&E->helpers, "}\n\n");
	buf_free(&body);
	return name;
}

/* ---- clone ---- */

static void
clone_field(Emit *E, Buf *b, TypeId ft, const char *dst, const char *src)
{
	if (!emitc_is_copy(E, ft))
		buf_printf(b, "\t%s = %s(&%s);\n", dst, emitc_clone_fn(E, ft), src);
}

static void
clone_elems(Emit *E, Buf *b, TypeId el, const char *n, const char *dst, const char *src)
{
	if (emitc_is_copy(E, el))
		return;
	if (cyclic(E, el)) {
		/* a job (no recursion: see "walks without recursion" above) */
		buf_printf(b, "\tif (%s)\n\t\tspx_run(%s, %s, %s, %s);\n", n, job_fn(E, el, true), dst, src, n);
		return;
	}
	buf_printf(b, "\tfor (size_t i = 0; i < %s; i++)\n\t\t((%s *)%s)[i] = %s(&((const %s *)%s)[i]);\n", n,
		   emit_tyname(E, el), dst, emitc_clone_fn(E, el), emit_tyname(E, el), src);
}

static void
clone_body(Emit *E, TypeId t, Buf *b)
{
	const TypeInfo *ti = emitc_tinfo(E, t);
	TyKind k = ti->kind;
	const char *tn = emit_tyname(E, t);
	if (k == TY_VEC) {
		TypeId el = ti->args[0];
		buf_printf(b, "\tspx_vec c = spx_vec_copy(p, sizeof(%s));\n", emit_tyname(E, el));
		clone_elems(E, b, el, "p->len", "c.p", "p->p");
	} else if (k == TY_ITER) {
		TypeId el = ti->args[0];
		buf_printf(b, "\tspx_iter c = { spx_vec_copy(&p->v, sizeof(%s)), p->pos };\n", emit_tyname(E, el));
		clone_elems(E, b, el, "p->v.len", "c.v.p", "p->v.p");
	} else if (k == TY_MAP || k == TY_SET) {
		TypeId vt = k == TY_MAP ? ti->args[1] : 0;
		buf_printf(b, "\tspx_map c = spx_map_copy(p, %d, %s);\n", emitc_map_key_kind(E, ti->args[0]),
			   k == TY_MAP ? arena_printf(&E->a, "sizeof(%s)", emit_tyname(E, vt)) : "0");
		if (k == TY_MAP)
			clone_elems(E, b, vt, "p->len", "c.v", "p->v");
	} else if (k == TY_BOX) {
		TypeId in = ti->args[0];
		buf_printf(b, "\tif (!*p)\n\t\treturn NULL;\n\t%s c = spx_alloc(sizeof **p);\n", tn);
		if (emitc_is_copy(E, in))
			buf_puts(b, "\t*c = **p;\n");
		else if (cyclic(E, in))
			buf_printf(b, "\tspx_run(%s, c, *p, 1);\n", job_fn(E, in, true));
		else
			buf_printf(b, "\t*c = %s(*p);\n", emitc_clone_fn(E, in));
	} else {
		buf_printf(b, "\t%s c = *p;\n", tn);
		each_field(E, b, t, clone_field, "c.", "p->");
	}
	buf_puts(b, "\treturn c;\n");
}

const char *
emitc_clone_fn(Emit *E, TypeId t)
{
	emitc_types_grow(E);
	TyKind k = emitc_tinfo(E, t)->kind;
	if (k == TY_STRING || k == TY_BYTES)
		return "spx_str_clone";
	if (k == TY_READER) {
		E->use_host = true;
		return "spx_stream_clone";   /* keeps the 4,096-byte buffer a later read fills */
	}
	if (E->ts[t].clone)
		return E->ts[t].clone;
	ensure_type(E, t);
	const char *name = arena_printf(&E->a, "%sspx_clone_%u", E->px, (unsigned)t);
	E->ts[t].clone = name;
	Buf body = {0};
	clone_body(E, t, &body);
	helper_open(E, arena_printf(&E->a, "%s %s(const %s *p)", emit_tyname(E, t), name, emit_tyname(E, t)));
	buf_put(&E->helpers, body.data, body.len);
	buf_puts(&E->helpers, "}\n\n");
	buf_free(&body);
	return name;
}

/* ---- ordering (vec_sort) ---- */

const char *
emitc_sortcmp_fn(Emit *E, TypeId t)
{
	emitc_types_grow(E);
	if (E->ts[t].cmp)
		return E->ts[t].cmp;
	ensure_type(E, t);
	const char *name = arena_printf(&E->a, "%sspx_sort_%u", E->px, (unsigned)t);
	E->ts[t].cmp = name;
	const char *tn = emit_tyname(E, t);
	helper_open(E, arena_printf(&E->a, "int %s(const void *a, const void *b)", name));
	TyKind k = emitc_tinfo(E, t)->kind;
	if (k == TY_STRING)
		buf_puts(&E->helpers, "\treturn spx_str_cmp(a, b);\n");
	else if (k == TY_F64)
		buf_puts(&E->helpers, "\tint64_t x = rt_total_key64(*(const double *)a), y = rt_total_key64(*(const double *)b);\n"
				      "\treturn x < y ? -1 : x > y;\n");
	else if (k == TY_F32)
		buf_puts(&E->helpers, "\tint32_t x = rt_total_key32(*(const float *)a), y = rt_total_key32(*(const float *)b);\n"
				      "\treturn x < y ? -1 : x > y;\n");
	else
		buf_printf(&E->helpers, "\t%s x = *(const %s *)a, y = *(const %s *)b;\n\treturn x < y ? -1 : x > y;\n", tn, tn, tn);
	buf_puts(&E->helpers, "}\n\n");
	return name;
}
