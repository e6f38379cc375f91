/*
 * emit.c — HIR → one C11 translation unit (see emit_c.h): the driver.
 *
 * Functions are emitted as instances (a HIR function plus concrete type
 * arguments: generics are monomorphised), those of the HIR's instance list
 * (HirModule.mono, src/hir/mono.c: reachable from `main`, with concrete slot
 * types, slot ownership and each call site's target), in its order; a C
 * function is `fn_<name>` (`i<k>_fn_<name>` for the k-th
 * instance of a generic one), a method `m<len>_<Class>_<name>`, a lifted
 * closure `closure_<index>`, a record's invariant check `inv_<Record>`.
 * A function's first parameter is `spx_d`, the frames active before it
 * (the 256-frame bound is checked on entry; callees get `spx_d + 1`).
 * Its body computes `spx_result`; `?` jumps to the shared epilogue
 * (`spx_out`) that checks `ensures`, then releases every owned local and
 * temporary (the body block leaves its releases to it, §0.12).
 *
 * Function values and closures are `spx_fn` (a dispatch id plus the
 * captured Copy values, spx_cap); a call through a value of type F goes to the
 * generated `spx_call_<F>`, a switch over the ids of that type.
 *
 * The route (TOOLCHAIN.md §1.3 items 3–5) and what it grants come from the
 * caller (src/driver/route.c, the same HirGrants the interpreter runs
 * with); host operations exist in the generated program only when the
 * route grants them (no ambient authority: a program without fs.read
 * contains no file-opening code).
 */
#include "emit_int.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers ---- */

void
emitc_line(Emit *E, const char *fmt, ...)
{
	for (int i = 0; i < E->indent; i++)
		buf_putc(E->b, '\t');
	char tmp[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof tmp) {
		char *big = spx_xmalloc((size_t)n + 1);
		va_start(ap, fmt);
		vsnprintf(big, (size_t)n + 1, fmt, ap);
		va_end(ap);
		buf_puts(E->b, big);
		free(big);
	} else {
		buf_puts(E->b, tmp);
	}
	buf_putc(E->b, '\n');
}

void
emitc_refuse(Emit *E, Span span, const char *fmt, ...)
{
	if (E->failed)
		return;
	E->failed = true;
	va_list ap;
	va_start(ap, fmt);
	Diag *d = diag_vreport(E->diags, DIAG_B110, span.end > 0 ? &span : NULL, fmt, ap);
	va_end(ap);
	if (d)
		diag_set_help(d, "run this program in the interpreter (`semaprax run` without `--native`) until the native lane covers it");
}

const char *
emitc_new_tmp(Emit *E)
{
	return arena_printf(&E->a, "t%d", E->tmp++);
}

const char *
emitc_func_var(Emit *E, TypeId t, const char *prefix)
{
	const char *name = arena_printf(&E->a, "%s%d", prefix, E->tmp++);
	if (E->framed) {
		buf_printf(&E->members, "\t%s %s;\n", emit_tyname(E, t), name);
		name = arena_printf(&E->a, "F->%s", name);
	} else {
		buf_printf(&E->decls, "\t%s %s = %s;\n", emit_tyname(E, t), name, emitc_zero_init(E, t));
	}
	Temp tp = { name, t };
	VEC_PUSH(E->fvars, tp);
	return name;
}

static const char *
slot_raw(Emit *E, HirSlot s)
{
	return arena_printf(&E->a, "l_%s_%u", E->f->locals[s].name, (unsigned)s);
}

/* Is slot s a C local of the open chunk (E->cached)?  A scalar assigned
 * after its `let` (note_assigned; a `let`-only slot gains nothing: its one
 * store stays, its loads are forwarded) becomes one on its first use there, unless the chunk has called a nested block's
 * chunks already (its copies were stored back and reloaded around those
 * calls; a slot first used after them would have been loaded before). */
static bool
chunk_caches(Emit *E, HirSlot s)
{
	if (E->cache_mark[s] == E->chunk_serial)
		return true;
	if (E->cache_frozen || !E->slot_assigned[s] || !emitc_is_scalar(E, emitc_slot_type(E, s)))
		return false;
	E->cache_mark[s] = E->chunk_serial;
	VEC_PUSH(E->cached, s);
	return true;
}

const char *
emitc_slot_name(Emit *E, HirSlot s)
{
	if (!E->framed)
		return slot_raw(E, s);
	return arena_printf(&E->a, "%s%s", emitc_in_chunk(E) && chunk_caches(E, s) ? "F_" : "F->", slot_raw(E, s));
}

/* The open chunk's cached slots stored back to the frame (store) or
 * loaded from it, one line each at the current indentation. */
static void
chunk_sync(Emit *E, Buf *b, bool store, const char *indent)
{
	for (int i = 0; i < E->cached.len; i++) {
		const char *raw = slot_raw(E, E->cached.items[i]);
		if (store)
			buf_printf(b, "%sF->%s = F_%s;\n", indent, raw, raw);
		else
			buf_printf(b, "%sF_%s = F->%s;\n", indent, raw, raw);
	}
}

/* The flag recording that parameter s has moved, for a contract report
 * (`<moved>`: a moved Vec is zeroed, as an empty one may be), or NULL when
 * s needs none (moved_params). */
const char *
emitc_moved_flag(Emit *E, HirSlot s)
{
	if (!E->moved_flag || s >= (HirSlot)E->f->nparams || !E->moved_flag[s])
		return NULL;
	return arena_printf(&E->a, "%sspx_mv_%u", E->framed ? "F->" : "", (unsigned)s);
}

const char *
emitc_result(Emit *E)
{
	return E->framed ? "F->spx_result" : "spx_result";
}

/* ---- chunks ----
 *
 * A function body of more than 256 statements (not a closure's) is
 * emitted as chunk functions of about 32 statements each, called in
 * order, each `static int chunk<K>_<fn>(struct frame_<fn> *F, int spx_d)`: one huge C
 * function cost gcc and clang time superlinear in its size (DECISIONS,
 * native lane; gcc's RTL passes still grow with a chunk's length: 100,000
 * additions in chunks of 8, 32, 128, 512 statements took 19, 12, 19, 56 s).
 * Each chunk first calls spx_chunk_entry (put_runtime).  Chunks are SPX_CHUNK (rt/core.h), noinline: clang inlined
 * each (called once) back and took 160 s on 20,000 statements.  Every local, the function-level temporaries and the result
 * live in the frame struct F points to; a `?` in a chunk returns 1 and the
 * caller goes to spx_out.  A chunk only ends where no statement temporary
 * is live (a view's backing temporary lives to the body's end).  The scalar
 * locals a chunk uses are C locals there (chunk_caches): gcc kept every
 * load and store of `F->l_x` (each checked operation may leave), 2,000
 * `x = x + k;` in a loop compiled in 0.94 s, 0.67 s with the copies.
 * A nested block of more than 256 statements (a loop body, a valued `if`
 * branch: its value goes through a frame member) is emitted in chunks the
 * same way (emitc_chunk_enter; the function is then framed however short its
 * body).
 * EmitOptions.chunk_every = N (the CLI's SEMAPRAX_C_CHUNK=N, tests) frames
 * every function with a block of more than one statement and cuts every N
 * statements. */
int
emitc_chunk_min(const Emit *E)
{
	return E->opt->chunk_every > 0 ? 1 : 256;
}

static int
chunk_len(const Emit *E)
{
	return E->opt->chunk_every > 0 ? E->opt->chunk_every : 32;
}

void
emitc_chunk_at(Emit *E, int i, int mark)
{
	if (!E->framed || E->temps.len != mark)
		return;
	if (emitc_in_chunk(E) && i - E->chunk_from < chunk_len(E))
		return;
	if (emitc_in_chunk(E))
		emitc_chunk_close(E);
	E->fbody = E->b;
	buf_free(&E->chunk);
	E->b = &E->chunk;
	E->chunk_out = false;
	E->chunk_fails = 0;
	E->cached.len = 0;
	E->chunk_serial = ++E->nserials;
	E->cache_frozen = false;
	E->chunk_goto_up = false;
	E->chunk_from = i;
	E->chunk_indent = E->indent;
	E->indent = 1;
}

void
emitc_chunk_close(Emit *E)
{
	if (!emitc_in_chunk(E))
		return;
	/* `chunk<k>_` and `frame_` begin no instance's C name (inst_cname) */
	const char *fn = arena_printf(&E->a, "%schunk%d_%s", E->px, E->nchunks++, E->insts[E->cur].cname + strlen(E->px));
	buf_printf(&E->chunks, "SPX_CHUNK int %s(struct %s *F, int spx_d)\n{\n\t(void)F;\n\t(void)spx_d;\n\tspx_chunk_entry();\n",
		   fn, E->frame);
	E->use_chunks = true;
	for (int i = 0; i < E->cached.len; i++) {
		HirSlot sl = E->cached.items[i];
		const char *raw = slot_raw(E, sl);
		buf_printf(&E->chunks, "\t%s F_%s = F->%s;\n", emit_tyname(E, emitc_slot_type(E, sl)), raw, raw);
	}
	buf_put(&E->chunks, E->chunk.data, E->chunk.len);
	chunk_sync(E, &E->chunks, true, "\t");
	buf_puts(&E->chunks, "\treturn 0;\n");
	if (E->chunk_goto_up) {
		/* a `?` (emit_expr.c, emit_try): the caller goes to spx_out, whose
		 * `ensures` may read a parameter */
		buf_puts(&E->chunks, "spx_up:\n");
		chunk_sync(E, &E->chunks, true, "\t");
		buf_puts(&E->chunks, "\treturn 1;\n");
	}
	/* the failure calls of the chunk's checked + - * (emit_expr.c, emit_arith) */
	static const char *const fail[] = { "add", "ADD", "sub", "SUB", "mul", "MUL" };
	for (int k = 0; k < 3; k++)
		if (E->chunk_fails & (1u << k))
			buf_printf(&E->chunks, "spx_fail_%s:\n\tspx_arith(RT_ARITH_%s);\n", fail[2 * k], fail[2 * k + 1]);
	buf_puts(&E->chunks, "}\n\n");
	E->b = E->fbody;
	E->indent = E->chunk_indent;
	if (E->chunk_out && E->chunk_parent) {
		emitc_line(E, "if (%s(F, spx_d))", fn);
		emitc_line(E, "\treturn 1;");   /* the caller is a chunk: its caller goes to spx_out */
		E->chunk_up = true;
	} else if (E->chunk_out) {
		emitc_line(E, "if (%s(F, spx_d))", fn);
		emitc_line(E, "\tgoto spx_out;");
	} else {
		emitc_line(E, "(void)%s(F, spx_d);", fn);
	}
}

/* A nested block of more than emitc_chunk_min statements (a `while` body of
 * thousands: gcc's Early VRP over one loop of 8,000 statements took 2.8 s,
 * quadratic) is emitted in chunks too, called in order from where the block
 * is (the loop stays in its caller).  The enclosing chunk, if one is open,
 * goes on after the block: its statements wait in *hold meanwhile, and a `?`
 * in a nested chunk returns 1 from it as well. */
void
emitc_chunk_enter(Emit *E, ChunkSave *s, Buf *hold)
{
	*s = (ChunkSave){ E->b, E->fbody, E->chunk_out, E->chunk_parent, E->chunk_up, E->chunk_fails, E->chunk_from,
			  E->chunk_indent, E->cached, E->chunk_serial, E->cache_frozen, E->chunk_goto_up };
	E->chunk_parent = emitc_in_chunk(E);
	E->chunk_up = false;
	E->cached = (SlotVec){0};
	if (E->chunk_parent) {
		/* the nested chunks read and write the frame: the enclosing
		 * chunk's copies go back first (and are reloaded after, leave) */
		s->frozen = true;
		for (int i = 0; i < s->cached.len; i++) {
			const char *raw = slot_raw(E, s->cached.items[i]);
			emitc_line(E, "F->%s = F_%s;", raw, raw);
		}
		*hold = E->chunk;
		E->b = hold;
	} else {
		buf_free(&E->chunk);
	}
	E->chunk = (Buf){0};
}

void
emitc_chunk_leave(Emit *E, const ChunkSave *s, Buf *hold)
{
	bool up = E->chunk_up, in_chunk = E->chunk_parent;
	buf_free(&E->chunk);
	if (E->chunk_parent) {
		E->chunk = *hold;
		*hold = (Buf){0};
	}
	E->b = s->b;
	E->fbody = s->fbody;
	E->chunk_out = s->out || up;
	E->chunk_parent = s->parent;
	E->chunk_up = s->up;
	E->chunk_fails = s->fails;
	E->chunk_from = s->from;
	E->chunk_indent = s->indent;
	VEC_FREE(E->cached);
	E->cached = s->cached;
	E->chunk_serial = s->serial;
	E->cache_frozen = s->frozen;
	E->chunk_goto_up = s->goto_up;
	if (in_chunk) {
		for (int i = 0; i < E->cached.len; i++) {
			HirSlot sl = E->cached.items[i];
			E->cache_mark[sl] = E->chunk_serial;   /* a nested chunk may have marked it */
			const char *raw = slot_raw(E, sl);
			emitc_line(E, "F_%s = F->%s;", raw, raw);
		}
	}
}

/* Does a block of b, or of a block nested in its statements, hold more than
 * emitc_chunk_min statements?  (A block this misses is emitted whole.) */
static bool block_big(const Emit *E, const HirBlock *b);

static bool
expr_big(const Emit *E, const HirExpr *e)
{
	if (!e)
		return false;
	switch (e->kind) {
	case HIR_BLOCK:
		return block_big(E, e->u.block);
	case HIR_IF:
		return block_big(E, e->u.if_.then_) || block_big(E, e->u.if_.else_);
	case HIR_MATCH:
		for (int i = 0; i < e->u.match.narms; i++)
			if (expr_big(E, e->u.match.arms[i].value))
				return true;
		return false;
	default:
		return false;
	}
}

static bool
block_big(const Emit *E, const HirBlock *b)
{
	if (!b)
		return false;
	if (b->nstmts > emitc_chunk_min(E))
		return true;
	for (int i = 0; i < b->nstmts; i++)
		if (block_big(E, b->stmts[i]->body) || expr_big(E, b->stmts[i]->value))
			return true;
	return expr_big(E, b->tail);
}

/* hir_visit's statement callback: marks in E->slot_assigned the slots an
 * assignment statement of the function sets; only those are worth a chunk's
 * copy (chunk_caches).  A slot left unmarked stays in the frame, which is
 * always right; one marked needlessly costs a copy. */
static void
note_assigned(void *ctx, const HirStmt *st)
{
	Emit *E = ctx;
	if (st->kind == HS_ASSIGN && st->slot < (HirSlot)E->f->nlocals)
		E->slot_assigned[st->slot] = true;
}

/* The frame's members (one a line), in anonymous structs of FRAME_GROUP
 * members when there are more: gcc walks a struct's top-level fields for
 * every chunk (variably_modified_type_p, from its IPA passes), which made a
 * function of 60,000 `let`s cost time quadratic in its locals (DECISIONS,
 * native lane); nested members are not walked there.  The C names and the
 * layout's zero initialisation are unchanged. */
#define FRAME_GROUP 256

static void
frame_members(Buf *out, const Buf *m)
{
	size_t n = 0;
	for (size_t i = 0; i < m->len; i++)
		n += m->data[i] == '\n';
	if (n <= FRAME_GROUP) {
		buf_put(out, m->data, m->len);
		return;
	}
	size_t line = 0, from = 0;
	for (size_t i = 0; i < m->len; i++) {
		if (m->data[i] != '\n')
			continue;
		if (line % FRAME_GROUP == 0)
			buf_puts(out, "\tstruct {\n");
		buf_putc(out, '\t');
		buf_put(out, m->data + from, i + 1 - from);
		from = i + 1;
		line++;
		if (line % FRAME_GROUP == 0 || line == n)
			buf_puts(out, "\t};\n");
	}
}

/* ---- instances and function values ---- */

static bool
is_invariant_fn(Emit *E, int fi)
{
	const HirFunc *f = &E->H->funcs[fi];
	return f->kind == HIR_FUNC_INVARIANT;
}

/* The C name of instance ii: distinct spellings for distinct functions (the
 * prefixes differ, a method carries its class name's length, the k-th
 * instance of a generic function its number k). */
static const char *
inst_cname(Emit *E, int ii)
{
	const HirInst *in = &E->M->insts[ii];
	int fi = in->func;
	const HirFunc *f = &E->H->funcs[fi];
	const char *base;
	if (f->sym >= 0 && sema_sym(E->S, f->sym)->kind == SK_METHOD) {
		const char *cls = sema_sym(E->S, sema_sym(E->S, f->sym)->owner)->name;
		base = arena_printf(&E->a, "%sm%zu_%s_%s", E->px, strlen(cls), cls, f->name);
	} else if (f->sym >= 0) {
		base = arena_printf(&E->a, "%sfn_%s", E->px, f->name);
	} else if (is_invariant_fn(E, fi)) {
		base = arena_printf(&E->a, "%sinv_%s", E->px, f->name);
	} else {
		base = arena_printf(&E->a, "%sclosure_%d", E->px, fi);
	}
	if (in->ntargs == 0)
		return base;
	int same = 0;
	for (int i = 0; i < ii; i++)
		same += E->M->insts[i].func == fi;
	return arena_printf(&E->a, "%si%d_%s", E->px, same, base + strlen(E->px));
}

TypeId
emitc_slot_type(Emit *E, HirSlot s)
{
	return E->in->slot_type[s];
}

int
emitc_fnval_id(Emit *E, TypeId ft, int inst, bool closure)
{
	if (E->prog)
		return emitc_prog_fnval(E, ft, E->modi, inst, closure);
	for (int i = 0; i < E->fnvals.len; i++)
		if (E->fnvals.items[i].ft == ft && E->fnvals.items[i].inst == inst)
			return i + 1;
	FnVal v = { ft, inst, closure, 0, NULL };
	VEC_PUSH(E->fnvals, v);
	return E->fnvals.len;
}

void
emitc_note_fntype(Emit *E, TypeId ft)
{
	if (E->prog) {
		emitc_prog_note_fntype(E, ft);
		return;
	}
	for (int i = 0; i < E->fntypes.len; i++)
		if (E->fntypes.items[i] == ft)
			return;
	VEC_PUSH(E->fntypes, ft);
}

const char *
emitc_call_name(Emit *E, TypeId ft)
{
	if (E->prog)
		return arena_printf(&E->a, "spx_call_%s", emitc_type_key(E, ft));
	return arena_printf(&E->a, "spx_call_%u", (unsigned)ft);
}

/* ---- functions ---- */

/* Appends a C string literal of s to out. */
static void
c_literal(Buf *out, const char *s)
{
	buf_putc(out, '"');
	emitc_c_string(out, s, strlen(s));
	buf_putc(out, '"');
}

/* The statement appending parameter i of f to the report `spx_cf`
 * (src/interp/detail.c's render_value, by the parameter's type; Bytes, str
 * and Slice<u8> by kind and length only where f declares them so, not for
 * a type parameter, which the interpreter cannot tell apart). */
static void
render_value(Emit *E, const HirFunc *f, int i)
{
	TypeId t = emitc_slot_type(E, (HirSlot)i);
	const char *v = emitc_slot_name(E, (HirSlot)i);
	Sym *s = emitc_nominal_sym(E, t);
	TyKind declared = sema_type_info(&E->S->types, f->locals[i].type)->kind;
	TyKind k = emitc_tinfo(E, t)->kind;
	if (k == TY_VEC || k == TY_ITER || k == TY_MAP || k == TY_SET || k == TY_BOX || k == TY_FN) {
		/* by kind (the declared type's name) and count where f declares
		 * it so; given for a type parameter `<data>`, as the interpreter */
		if (declared != k) {
			emitc_line(E, "	spx_cf_put(&spx_cf, \"<data>\");");
			return;
		}
		if (k == TY_FN) {
			emitc_line(E, "	spx_cf_put(&spx_cf, \"<fn>\");");
			return;
		}
		Buf kind = {0}, lit = {0};
		buf_printf(&kind, "<%s", sema_type_name(E->S, f->locals[i].type));
		if (k == TY_BOX)
			buf_putc(&kind, '>');
		c_literal(&lit, kind.data);
		if (k == TY_BOX)
			emitc_line(E, "	spx_cf_put(&spx_cf, %s);", lit.data);
		else if (k == TY_ITER)
			emitc_line(E, "	spx_cf_count(&spx_cf, %s, %s.v.len - %s.pos, \" items>\");", lit.data, v, v);
		else
			emitc_line(E, "	spx_cf_count(&spx_cf, %s, %s.len, \"%s\");", lit.data, v, k == TY_VEC ? " items>" : " entries>");
		buf_free(&kind);
		buf_free(&lit);
		return;
	}
	switch (k) {
	case TY_I64: emitc_line(E, "	spx_cf_int(&spx_cf, %s, \"\");", v); return;
	case TY_I32: emitc_line(E, "	spx_cf_int(&spx_cf, %s, \"i32\");", v); return;
	case TY_U8: emitc_line(E, "	spx_cf_uint(&spx_cf, %s, \"u8\");", v); return;
	case TY_USIZE: emitc_line(E, "	spx_cf_uint(&spx_cf, %s, \"usize\");", v); return;
	case TY_BOOL: emitc_line(E, "	spx_cf_put(&spx_cf, %s ? \"true\" : \"false\");", v); return;
	case TY_CHAR: emitc_line(E, "	spx_cf_char(&spx_cf, %s);", v); return;
	case TY_F64: emitc_line(E, "	spx_cf_float(&spx_cf, %s, false);", v); return;
	case TY_F32: emitc_line(E, "	spx_cf_float(&spx_cf, %s, true);", v); return;
	case TY_STRING: emitc_line(E, "	spx_cf_string(&spx_cf, %s);", v); return;
	case TY_STR: case TY_SLICE:   /* given for a type parameter: `<data>` */
		if (declared == TY_STR || declared == TY_SLICE)
			emitc_line(E, "	spx_cf_view(&spx_cf, \"%s\", %s);", declared == TY_SLICE ? "Slice<u8>" : "str", v);
		else
			emitc_line(E, "	spx_cf_put(&spx_cf, \"<data>\");");
		return;
	case TY_BYTES: case TY_READER:   /* a moved one is all zero */
		emitc_line(E, "	spx_cf_bytes(&spx_cf, %s, %s);", v, declared == TY_BYTES ? "true" : "false");
		return;
	case TY_ARRAY:
		emitc_line(E, "	spx_cf_put(&spx_cf, \"<array u8 x%llu>\");", (unsigned long long)emitc_tinfo(E, t)->n);
		return;
	default:
		break;
	}
	const char *kind = "<data>";
	if (s && (s->kind == SK_RECORD || s->kind == SK_CLASS))
		kind = "<record>";
	else if (s && s->kind == SK_VARIANT)
		kind = "<variant>";
	emitc_line(E, "	spx_cf_put(&spx_cf, \"%s\");", kind);
}

/* Parameter i's rendering: `<moved>` once it has moved (emitc_moved_flag),
 * else its value (render_value). */
static void
render_arg(Emit *E, const HirFunc *f, int i)
{
	const char *mv = emitc_moved_flag(E, (HirSlot)i);
	if (mv)
		emitc_line(E, "	if (%s) spx_cf_put(&spx_cf, \"<moved>\"); else {", mv);
	render_value(E, f, i);
	if (mv)
		emitc_line(E, "	}");
}

/*
 * The checks of f's `requires` (or `ensures`) clauses.  A false one reports
 * as the interpreter's detail: hir_contract_head's lines (src/hir/lanes.c,
 * shared with the Wasm lane), then `<name> = <value>, …` (rt/contract.h),
 * exit 70.  A record invariant (function id `<record id>:invariants`)
 * reports the record's id.
 */
static void
contract_checks(Emit *E, const HirFunc *f, ClauseKind kind, HirExpr **conds, int n)
{
	bool ensures = kind == CLAUSE_ENSURES;
	for (int k = 0; k < n && !E->failed; k++) {
		int mark = emitc_temps_mark(E);
		Val c = emitc_ev(E, conds[k]);
		emitc_temps_release(E, mark);
		if (!c.c)
			return;
		E->use_contract = true;
		char *head = hir_contract_head(E->S, f, k, ensures);
		Buf lit = {0};
		c_literal(&lit, head);
		free(head);
		emitc_line(E, "if (!%s) {", c.c);
		emitc_line(E, "	spx_buf spx_cf = {0};");
		emitc_line(E, "	spx_cf_put(&spx_cf, %s);", lit.data);
		if (f->nparams == 0)
			emitc_line(E, "	spx_cf_put(&spx_cf, \"none\");");
		for (int i = 0; i < f->nparams; i++) {
			Buf name = {0};
			buf_printf(&name, "%s%s = ", i ? ", " : "", f->locals[i].name);
			buf_free(&lit);
			c_literal(&lit, name.data);
			emitc_line(E, "	spx_cf_put(&spx_cf, %s);", lit.data);
			buf_free(&name);
			render_arg(E, f, i);
		}
		emitc_line(E, "	spx_contract_fail(&spx_cf);");
		emitc_line(E, "}");
		buf_free(&lit);
	}
}

static bool
is_closure(Emit *E, int fi)
{
	return E->H->funcs[fi].sym < 0 && !is_invariant_fn(E, fi);
}

static bool
signature(Emit *E, int ii, Buf *out)
{
	const HirInst *in = &E->M->insts[ii];
	const HirFunc *f = &E->H->funcs[in->func];
	Span span = f->nlocals ? f->locals[0].span : (Span){0};
	const char *rt = emitc_ctype(E, in->result, span);
	if (!rt)
		return false;
	buf_printf(out, "static %s %s(int spx_d", rt, E->insts[ii].cname);
	if (is_closure(E, in->func))
		buf_puts(out, ", const spx_fn *spx_self");
	for (int i = 0; i < f->nparams; i++) {
		const char *pt = emitc_ctype(E, in->slot_type[i], f->locals[i].span);
		if (!pt)
			return false;
		buf_printf(out, ", %s %s", pt, slot_raw(E, (HirSlot)i));
	}
	buf_putc(out, ')');
	return true;
}

/* A closure's prologue: captured slot s from spx_self->cap[k]. */
static void
capture_load(Emit *E, HirSlot s, int k)
{
	TypeId t = emitc_slot_type(E, s);
	const char *m = emitc_cap_field(E, t);
	if (m)
		emitc_line(E, "%s = spx_self->cap[%d].%s;", emitc_slot_name(E, s), k, m);
	else
		emitc_line(E, "%s = *(const %s *)spx_self->cap[%d].cell;", emitc_slot_name(E, s), emit_tyname(E, t), k);
}

static void
note_move(void *ctx, const HirExpr *e)
{
	const HirFunc *f = ((void **)ctx)[0];
	bool *moved = ((void **)ctx)[1];
	if (e->kind == HIR_MOVE && e->u.slot < (HirSlot)f->nparams)
		moved[e->u.slot] = true;
}

/* Per parameter of f: whether an `ensures` report may find it moved (a
 * HIR_MOVE reads it; parameters are immutable, so once moved it stays
 * so); NULL when none may. */
static const bool *
moved_params(Emit *E, const HirFunc *f)
{
	if (f->nensures == 0 || f->nparams == 0)
		return NULL;
	bool *moved = ARENA_ARRAY(&E->a, bool, f->nparams);
	void *ctx[2] = { (void *)f, moved };
	HirVisitor v = { note_move, NULL, NULL, ctx };
	hir_visit(f, &v);
	return moved;
}

static void
set_current(Emit *E, int ii)
{
	const HirInst *in = &E->M->insts[ii];
	E->cur = ii;
	E->in = in;
	E->f = &E->H->funcs[in->func];
	E->slot_own = in->slot_owned;
	E->moved_flag = NULL;
}

static void
emit_function(Emit *E, int ii)
{
	set_current(E, ii);
	const HirFunc *f = E->f;
	Buf body = {0};
	buf_free(&E->decls);
	E->b = &body;
	E->indent = 1;
	E->tmp = 0;
	E->used_out = false;
	E->temps.len = 0;
	E->fvars.len = 0;
	E->framed = !is_closure(E, E->in->func) && f->body && block_big(E, f->body);
	E->nchunks = 0;
	E->cached.len = 0;
	E->chunk_serial = 0;
	E->nserials = 0;
	E->cache_frozen = false;
	E->chunk_goto_up = false;
	if (E->framed) {
		free(E->cache_mark);
		free(E->slot_assigned);
		E->cache_mark = spx_xcalloc((size_t)(f->nlocals ? f->nlocals : 1), sizeof *E->cache_mark);
		E->slot_assigned = spx_xcalloc((size_t)(f->nlocals ? f->nlocals : 1), sizeof *E->slot_assigned);
		HirVisitor v = { NULL, NULL, note_assigned, E };
		hir_visit(f, &v);
	}
	buf_free(&E->chunks);
	buf_free(&E->members);
	E->frame = arena_printf(&E->a, "%sframe_%s", E->px, E->insts[ii].cname + strlen(E->px));
	for (int i = 0; i < f->nparams; i++)
		buf_printf(&E->decls, "\t(void)%s;\n", slot_raw(E, (HirSlot)i));
	E->moved_flag = moved_params(E, f);
	for (int i = 0; E->moved_flag && i < f->nparams; i++) {
		if (!E->moved_flag[i])
			continue;
		if (E->framed)
			buf_printf(&E->members, "\tbool spx_mv_%d;\n", i);
		else
			buf_printf(&E->decls, "\tbool spx_mv_%d = false;\n", i);
	}
	/* a capture-less closure never reads its environment */
	if (is_closure(E, E->in->func))
		buf_puts(&E->decls, "\t(void)spx_self;\n");
	for (int i = E->framed ? 0 : f->nparams; i < f->nlocals && !E->failed; i++) {
		TypeId t = emitc_slot_type(E, (HirSlot)i);
		const char *ct = emitc_ctype(E, t, f->locals[i].span);
		if (!ct)
			break;
		if (E->framed)
			buf_printf(&E->members, "\t%s %s;\n", ct, slot_raw(E, (HirSlot)i));
		else
			buf_printf(&E->decls, "\t%s %s = %s;\n\t(void)%s;\n", ct, slot_raw(E, (HirSlot)i), emitc_zero_init(E, t),
				   slot_raw(E, (HirSlot)i));
	}
	TypeId rt = E->in->result;
	const char *rct = emitc_ctype(E, rt, f->nlocals ? f->locals[0].span : (Span){0});
	if (E->failed || !rct)
		goto out;
	if (E->framed) {
		/* the frame starts all zero, as each local would (emitc_zero_init) */
		buf_printf(&E->members, "\t%s spx_result;\n", rct);
		buf_printf(&E->decls, "\tstruct %s F_ = {0};\n\tstruct %s *F = &F_;\n", E->frame, E->frame);
		for (int i = 0; i < f->nparams; i++)
			emitc_line(E, "%s = %s;", emitc_slot_name(E, (HirSlot)i), slot_raw(E, (HirSlot)i));
	} else {
		emitc_line(E, "%s spx_result = %s;", rct, emitc_zero_init(E, rt));
	}
	emitc_line(E, "if (spx_d >= 256)");
	emitc_line(E, "\tspx_depth_fail();");
	if (is_closure(E, E->in->func)) {
		int k = 0;
		for (int i = f->nparams; i < f->nlocals; i++)
			if (f->locals[i].param)
				capture_load(E, (HirSlot)i, k++);
	}
	contract_checks(E, f, CLAUSE_REQUIRES, f->requires, f->nrequires);
	emit_block(E, f->body, emitc_valueful(E, rt) ? emitc_result(E) : NULL, rt);
	if (E->failed)
		goto out;
	if (E->used_out)
		buf_puts(&body, "spx_out:\n");
	if (f->nensures > 0 && f->result_slot != HIR_NO_SLOT)
		emitc_line(E, "%s = %s;", emitc_slot_name(E, f->result_slot), emitc_result(E));
	contract_checks(E, f, CLAUSE_ENSURES, f->ensures, f->nensures);
	for (int i = f->nlocals - 1; i >= 0; i--)
		if (E->slot_own[i])
			emitc_release_place(E, emitc_slot_type(E, (HirSlot)i), emitc_slot_name(E, (HirSlot)i));
	for (int i = E->fvars.len - 1; i >= 0; i--)
		emitc_release_place(E, E->fvars.items[i].t, E->fvars.items[i].name);
	emitc_line(E, "return %s;", emitc_result(E));
	Buf *out = &E->insts[ii].body;
	if (E->framed) {
		buf_printf(out, "struct %s {\n", E->frame);
		frame_members(out, &E->members);
		buf_puts(out, "};\n\n");
		buf_put(out, E->chunks.data, E->chunks.len);
	}
	buf_puts(out, "/* ");
	emitc_comment_text(out, f->name, strlen(f->name));
	buf_puts(out, " (");
	emitc_comment_text(out, f->id ? f->id : "", f->id ? strlen(f->id) : 0);
	buf_puts(out, ") */\n");
	if (E->framed && E->nchunks > 0)
		buf_puts(out, "SPX_FRAMED ");
	signature(E, ii, out);
	buf_puts(out, "\n{\n");
	if (E->decls.len)
		buf_put(out, E->decls.data, E->decls.len);
	buf_put(out, body.data, body.len);
	buf_puts(out, "}\n\n");
out:
	buf_free(&body);
	E->framed = false;
}

/* spx_call_<F>: calls the function value f of type F (a project: every
 * module's values of F's key, E the module that spells it). */
static void
emit_dispatch(Emit *E, TypeId ft, Buf *protos, Buf *out)
{
	const TypeInfo *ti = emitc_tinfo(E, ft);
	int np = ti->nargs - 1;
	const char *key = E->prog ? emitc_type_key(E, ft) : NULL;
	Buf sig = {0};
	buf_printf(&sig, "static %s %s(spx_fn f, int spx_d", emit_tyname(E, ti->args[np]), emitc_call_name(E, ft));
	for (int i = 0; i < np; i++)
		buf_printf(&sig, ", %s a%d", emit_tyname(E, emitc_tinfo(E, ft)->args[i]), i);
	buf_putc(&sig, ')');
	buf_printf(protos, "%s;\n", sig.data);
	buf_printf(out, "%s\n{\n\tswitch (f.id) {\n", sig.data);
	int n = E->prog ? E->prog->fnvals.len : E->fnvals.len;
	for (int k = 0; k < n; k++) {
		const FnVal *v = E->prog ? &E->prog->fnvals.items[k] : &E->fnvals.items[k];
		if (E->prog ? strcmp(v->key, key) != 0 : v->ft != ft)
			continue;
		Emit *T = E->prog ? &E->prog->E[v->mod] : E;   /* the target's module */
		/* a call through a value consumes its arguments: one the target
		 * only borrows is released here, after the call */
		int fi = T->M->insts[v->inst].func;
		bool lends = false;
		for (int i = 0; i < np; i++)
			lends |= emitc_param_borrows(T, fi, i) && !emitc_is_copy(E, emitc_tinfo(E, ft)->args[i]);
		buf_printf(out, "\tcase %d:%s%s%s(spx_d%s", k + 1, lends ? " {\n\t\t" : "\n\t\treturn ",
			   lends ? arena_printf(&E->a, "%s r = ", emit_tyname(E, ti->args[np])) : "",
			   T->insts[v->inst].cname, v->closure ? ", &f" : "");
		for (int i = 0; i < np; i++)
			buf_printf(out, ", a%d", i);
		buf_puts(out, ");\n");
		if (!lends)
			continue;
		for (int i = 0; i < np; i++) {
			TypeId at = emitc_tinfo(E, ft)->args[i];
			if (emitc_param_borrows(T, fi, i) && !emitc_is_copy(E, at))
				buf_printf(out, "\t\t%s(&a%d);\n", emitc_rel_fn(E, at), i);
		}
		buf_puts(out, "\t\treturn r;\n\t}\n");
	}
	buf_puts(out, "\tdefault:\n\t\tspx_die(RT_EXIT_INVARIANT, \"SEMAPRAX runtime failure: call of an unset function value\");\n\t}\n}\n\n");
	buf_free(&sig);
}

/* ---- routes (TOOLCHAIN.md §1.3 items 3–5) ---- */

static void
emit_main(Emit *E, Route route, const char *entry, Buf *out)
{
	buf_printf(out, "/* the entry, out of line (rt/core.h SPX_ENTRY) */\nSPX_ENTRY int64_t\nspx_entry(void)\n{\n"
			"\treturn %s(0);\n}\n\n", entry);
	buf_puts(out, "int\nmain(int argc, char **argv)\n{\n\tspx_stack_room(argv);\n");
	if (E->opt->host && E->opt->host->fs_write)   /* the write grant comes first (fs.h) */
		buf_puts(out, "\tint spx_taken = spx_grant_write(argc, argv);\n\tif (spx_taken < 0)\n\t\treturn 2;\n"
			      "\targc -= spx_taken;\n\targv += spx_taken;\n");
	buf_printf(out, "\tint spx_bad = spx_args_check(argc, argv, %s);\n\tif (spx_bad)\n\t\treturn spx_bad;\n"
			"\tspx_argc = argc > 0 ? argc - 1 : 0;\n\tspx_argv = argv + (argc > 0);\n"
			"\tint64_t r = spx_entry();\n", route == ROUTE_COMMAND ? "true" : "false");
	/* A function value may be made and never called: every dispatcher
	 * counts as used, so its type's dispatcher is no -Wunused-function. */
	for (int i = 0; i < E->fntypes.len; i++)
		buf_printf(out, "\t(void)%s;\n", emitc_call_name(E, E->fntypes.items[i]));
	if (route == ROUTE_COMMAND) {
		buf_puts(out, "\tif (r < 0 || r > 255) {\n"
			      "\t\tchar line[128];\n"
			      "\t\tsnprintf(line, sizeof line, \"SEMAPRAX runtime failure: `main` returned %\" PRId64 \", "
			      "outside the exit status range 0..=255\", r);\n"
			      "\t\tspx_die(RT_EXIT_INVARIANT, line);\n\t}\n\tspx_publish();\n");
	} else {
		buf_puts(out, "\tspx_publish();\n\tprintf(\"%\" PRId64 \"\\n\", r);\n");
	}
	buf_puts(out, "\tspx_settle_stdout();\n");
	buf_puts(out, "#ifdef SPX_CHECK_LEAKS\n\tif (spx_live.next != &spx_live) {\n"
		      "\t\tfputs(\"SEMAPRAX runtime leak: owned values outlived main\\n\", stderr);\n\t\treturn 74;\n\t}\n#endif\n");
	buf_printf(out, "\treturn %s;\n}\n", route == ROUTE_COMMAND ? "(int)r" : "0");
}

/* Does the route grant this effect?  (A comma-separated list — only the
 * network operations, which no route grants — is never granted.) */
bool
emit_route_grants(Emit *E, const char *effect)
{
	return E->opt->host && hir_grants(E->opt->host, effect);
}

/* ---- the unit ---- */

/* The dispatchers and prototypes of E's instances; first, since anything
 * that may still spell a type must come before E->fwd / E->types are written. */
static void
prepare(Emit *E, Buf *dprotos, Buf *dbodies, Buf *protos, Buf *caps)
{
	if (E->prog) {
		/* the unit-wide dispatchers and spx_cap members this module spells */
		for (int i = 0; i < E->prog->fntypes.len; i++)
			if (E->prog->fntypes.items[i].mod == E->modi)
				emit_dispatch(E, E->prog->fntypes.items[i].t, dprotos, dbodies);
	} else {
		for (int i = 0; i < E->fntypes.len; i++)
			emit_dispatch(E, E->fntypes.items[i], dprotos, dbodies);
	}
	for (int i = 0; i < E->M->ninsts; i++) {
		set_current(E, i);
		signature(E, i, protos);
		buf_puts(protos, ";\n");
	}
	if (E->prog) {
		for (int i = 0; i < E->prog->captys.len; i++)
			if (E->prog->captys.items[i].mod == E->modi)
				buf_printf(caps, "\t%s v_%s;\n", emit_tyname(E, E->prog->captys.items[i].t), E->prog->captys.items[i].key);
		return;
	}
	for (int i = 0; i < E->captys.len; i++)
		buf_printf(caps, "\t%s v%u;\n", emit_tyname(E, E->captys.items[i]), (unsigned)E->captys.items[i]);
}

static void
put_runtime(Buf *out, const char *module, bool staged, bool report_status, bool use_fs, bool use_host, bool use_contract,
    bool use_chunks)
{
	buf_puts(out, "/* generated by semaprax: the C11 projection of module ");
	emitc_comment_text(out, module ? module : "?", module ? strlen(module) : 1);
	buf_puts(out, " */\n#define _POSIX_C_SOURCE 200809L\n");
	if (staged)
		buf_puts(out, "#define SPX_STAGED 1\n");
	if (report_status)
		buf_puts(out, "#define SPX_REPORT_STATUS 1\n");
	/* the shared runtime (src/rt) as text: RT_API makes it static, and its rt.h is not included */
	buf_puts(out, "#define RT_API static __attribute__((unused))\n");
	buf_puts(out, "#define RT_EMBEDDED 1\n");
	buf_puts(out, emit_c_rt_shared_domains);
	buf_puts(out, emit_c_rt_shared_utf8);
	buf_puts(out, emit_c_rt_shared_num);
	buf_puts(out, emit_c_rt_shared_float);
	buf_puts(out, emit_c_rt_shared_text);
	buf_puts(out, emit_c_rt_shared_args);
	buf_puts(out, emit_c_rt_shared_coll);
	buf_puts(out, emit_c_rt_core);
	buf_puts(out, emit_c_rt_text);
	buf_puts(out, emit_c_rt_coll);
	if (use_fs) {
		buf_puts(out, emit_c_rt_shared_fs);
		buf_puts(out, emit_c_rt_fs);
	}
	if (use_host) {
		buf_puts(out, emit_c_rt_shared_host);
		buf_puts(out, emit_c_rt_host);
		buf_puts(out, emit_c_rt_shared_stream);
		buf_puts(out, emit_c_rt_stream);
	}
	if (use_contract)
		buf_puts(out, emit_c_rt_contract);
	/* A chunk's first call (emitc_chunk_close): an empty function with
	 * external linkage, inlined away.  clang 14's GlobalOpt asks, for
	 * every function, whether all its calls are cold, and for each call
	 * to a static function walks that function's uses: with every chunk
	 * beginning by a call of spx_add_i, 100,000 additions in 782 chunks
	 * cost 78 million use visits (9 s).  A call of an external function
	 * ends that walk at once. */
	if (use_chunks)
		buf_puts(out, "\n/* the first call of every chunk of a huge function */\nvoid spx_chunk_entry(void);\n\n"
			      "void\nspx_chunk_entry(void)\n{\n}\n");
}

/* seen: a project's shared type names put so far (emitc_put_types), NULL for a file */
static void
put_types_head(Emit *E, StrMap *seen, Buf *out)
{
	emitc_put_types(E, EMIT_DEF_FWD, seen, out);
	buf_putc(out, '\n');
	emitc_put_types(E, EMIT_DEF_TYPES, seen, out);
}

/* spx_cap (caps: its members past the scalars) and spx_fn. */
static void
put_fn_types(const Buf *caps, int maxcaps, Buf *out)
{
	buf_puts(out, "/* one captured Copy value */\n"
		      "typedef union spx_cap {\n"
		      "\tint64_t i; int32_t i32; uint8_t u8; uint64_t u; double f; float f32; bool b; uint32_t c;\n"
		      "\tconst void *cell;   /* a value holding a function value (spx_cell) */\n");
	buf_put(out, caps->data ? caps->data : "", caps->len);
	buf_printf(out, "} spx_cap;\n\n/* a function value: its dispatch id and captured values */\n"
			"struct spx_fn { uint32_t id; spx_cap cap[%d]; };\n\n",
		   maxcaps > 0 ? maxcaps : 1);
}

static void
put_types(Emit *E, const Buf *caps, Buf *out)
{
	buf_puts(out, "\n/* ---- types ---- */\n\n");
	buf_puts(out, "typedef struct spx_fn spx_fn;\n");
	put_types_head(E, NULL, out);
	put_fn_types(caps, E->maxcaps, out);
	emitc_put_types(E, EMIT_DEF_TYPES_FN, NULL, out);
}

static void
put_protos(Emit *E, const Buf *dprotos, const Buf *protos, Buf *out)
{
	buf_puts(out, "/* ---- prototypes ---- */\n\n");
	buf_put(out, E->hprotos.data ? E->hprotos.data : "", E->hprotos.len);
	buf_put(out, dprotos->data ? dprotos->data : "", dprotos->len);
	buf_put(out, protos->data ? protos->data : "", protos->len);
}

static void
put_bodies(Emit *E, const Buf *dbodies, Buf *out)
{
	buf_puts(out, "\n/* ---- helpers ---- */\n\n");
	buf_put(out, E->helpers.data ? E->helpers.data : "", E->helpers.len);
	buf_put(out, dbodies->data ? dbodies->data : "", dbodies->len);
	buf_puts(out, "/* ---- functions ---- */\n\n");
	for (int i = 0; i < E->M->ninsts; i++)
		buf_put(out, E->insts[i].body.data, E->insts[i].body.len);
}

static void
assemble(Emit *E, Route route, Buf *out)
{
	Buf dprotos = {0}, dbodies = {0}, protos = {0}, caps = {0};
	prepare(E, &dprotos, &dbodies, &protos, &caps);
	bool write_grant = E->opt->host && E->opt->host->fs_write;   /* the grant's check needs fs.h */
	put_runtime(out, E->S->module_name, E->opt->staged, false, E->use_fs || write_grant, E->use_host, E->use_contract,
	    E->use_chunks);
	put_types(E, &caps, out);
	put_protos(E, &dprotos, &protos, out);
	put_bodies(E, &dbodies, out);
	emit_main(E, route, E->insts[0].cname, out);
	buf_free(&dprotos);
	buf_free(&dbodies);
	buf_free(&protos);
	buf_free(&caps);
}

static void
emit_free(Emit *E)
{
	for (int i = 0; E->M && i < E->M->ninsts; i++)
		buf_free(&E->insts[i].body);
	free(E->insts);
	VEC_FREE(E->fnvals);
	VEC_FREE(E->fntypes);
	VEC_FREE(E->temps);
	VEC_FREE(E->fvars);
	VEC_FREE(E->cached);
	free(E->cache_mark);
	free(E->slot_assigned);
	free(E->ts);
	buf_free(&E->fwd);
	buf_free(&E->types);
	buf_free(&E->types_fn);
	VEC_FREE(E->defs);
	VEC_FREE(E->captys);
	VEC_FREE(E->pending);
	buf_free(&E->hprotos);
	buf_free(&E->helpers);
	buf_free(&E->decls);
	buf_free(&E->chunk);
	buf_free(&E->chunks);
	buf_free(&E->members);
	arena_free(&E->a);
}

bool
emit_c(HirModule *H, const EmitOptions *o, Buf *out, DiagSink *diags)
{
	Emit E;
	memset(&E, 0, sizeof E);
	E.H = H;
	E.S = H->S;
	E.diags = diags;
	E.opt = o;
	E.px = "";
	arena_init(&E.a);
	int entry = hir_find_main(H);
	if (entry < 0) {
		Diag *d = diag_report(diags, DIAG_F102, NULL, "the module has no `main` to run");
		if (d)
			diag_set_help(d, "define `fn main() -> i64`");
		arena_free(&E.a);
		return false;
	}
	/* the driver ran hir_mono (driver_mono); a caller that did not gets it here */
	if (!H->mono && !hir_mono(H, diags)) {
		arena_free(&E.a);
		return false;
	}
	E.M = H->mono;
	emitc_types_grow(&E);
	const HirFunc *mf = &H->funcs[entry];
	if (emitc_tinfo(&E, mf->result)->kind != TY_I64 || mf->nparams != 0)
		emitc_refuse(&E, sema_sym(E.S, mf->sym)->span, "the native lane runs `fn main() -> i64` only");
	Route route = o->host ? o->host->route : ROUTE_PURE;
	E.insts = spx_xcalloc((size_t)E.M->ninsts + 1, sizeof *E.insts);
	for (int i = 0; i < E.M->ninsts; i++)
		E.insts[i].cname = inst_cname(&E, i);
	for (int i = 0; i < E.M->ninsts && !E.failed; i++)
		emit_function(&E, i);
	if (!E.failed)
		assemble(&E, route, out);
	emit_free(&E);
	return !E.failed;
}

/* ---- a project: every module in one unit (emit_prog.c) ---- */

/* The start of module k's part of a unit section. */
static void
section(Buf *out, const Emit *E)
{
	buf_printf(out, "\n/* ==== module %d ==== */\n", E->modi);
}

/* The C main of a project: runs entry function argv[1] (an index into
 * funcs; a test build, report_status) or funcs[0], on the route of o->host
 * (NULL: pure) as emit_main does for a file: a write grant is the first
 * argument; the command-line route's `main` value is the exit status, a
 * test build prints every entry's value (its last stdout line). */
static void
project_main(Buf *out, Emit *E, const int *funcs, int nfuncs)
{
	const HirGrants *g = E->opt->host;
	Route route = g ? g->route : ROUTE_PURE;
	bool test = E->opt->report_status;
	buf_puts(out, "\n/* the entries, out of line (rt/core.h SPX_ENTRY) */\nSPX_ENTRY int64_t\nspx_entry(int spx_k)\n{\n"
		      "\tint64_t r = 0;\n\tswitch (spx_k) {\n");
	for (int i = 0; i < nfuncs; i++)
		buf_printf(out, "\tcase %d:\n\t\tr = %s(0);\n\t\tbreak;\n", i, E->insts[E->M->func_inst[funcs[i]]].cname);
	buf_puts(out, "\tdefault:\n\t\tspx_die(RT_EXIT_INVARIANT, \"SEMAPRAX runtime failure: no such entry\");\n\t}\n\treturn r;\n}\n");
	buf_puts(out, "\nint\nmain(int argc, char **argv)\n{\n\tspx_stack_room(argv);\n");
	if (g && g->fs_write)
		buf_puts(out, "\tint spx_taken = spx_grant_write(argc, argv);\n\tif (spx_taken < 0)\n\t\treturn 2;\n"
			      "\targc -= spx_taken;\n\targv += spx_taken;\n");
	if (test)
		buf_puts(out, "\tint spx_k = argc > 1 ? atoi(argv[1]) : 0;\n\tif (argc > 1) {\n\t\targc--;\n\t\targv++;\n\t}\n");
	else
		buf_puts(out, "\tint spx_k = 0;\n");
	buf_printf(out, "\tint spx_bad = spx_args_check(argc, argv, %s);\n\tif (spx_bad)\n\t\treturn spx_bad;\n"
			"\tspx_argc = argc > 0 ? argc - 1 : 0;\n\tspx_argv = argv + (argc > 0);\n",
		   route == ROUTE_COMMAND ? "true" : "false");
	/* a dispatcher of a value made and never called is still used */
	for (int i = 0; i < E->prog->fntypes.len; i++)
		buf_printf(out, "\t(void)spx_call_%s;\n", E->prog->fntypes.items[i].key);
	buf_puts(out, "\tint64_t r = spx_entry(spx_k);\n");
	bool status = route == ROUTE_COMMAND && !test;
	if (status)
		buf_puts(out, "\tif (r < 0 || r > 255) {\n"
			      "\t\tchar line[128];\n"
			      "\t\tsnprintf(line, sizeof line, \"SEMAPRAX runtime failure: `main` returned %\" PRId64 \", "
			      "outside the exit status range 0..=255\", r);\n"
			      "\t\tspx_die(RT_EXIT_INVARIANT, line);\n\t}\n\tspx_publish();\n");
	else
		buf_puts(out, "\tspx_publish();\n\tprintf(\"%\" PRId64 \"\\n\", r);\n");
	buf_puts(out, "\tspx_settle_stdout();\n");
	buf_puts(out, "#ifdef SPX_CHECK_LEAKS\n\tif (spx_live.next != &spx_live) {\n"
		      "\t\tfputs(\"SEMAPRAX runtime leak: owned values outlived main\\n\", stderr);\n\t\treturn 74;\n\t}\n#endif\n");
	buf_puts(out, status ? "\treturn (int)r;\n}\n" : "\treturn 0;\n}\n");
}

bool
emit_c_project(HirModule *const *mods, int nmods, const int *order, int entry, const int *funcs, int nfuncs, const EmitOptions *o,
    Buf *out, DiagSink *const *diags)
{
	struct EmitProg P;
	memset(&P, 0, sizeof P);
	P.n = nmods;
	P.E = spx_xcalloc((size_t)nmods, sizeof *P.E);
	P.symfunc = spx_xcalloc((size_t)nmods, sizeof *P.symfunc);
	bool ok;
	for (int k = 0; k < nmods; k++) {
		HirModule *H = mods[k];
		sema_strmap_put(&P.names, H->S->module_name, k);
		P.symfunc[k] = hir_symfunc(H);
		Emit *E = &P.E[k];
		E->H = H;
		E->S = H->S;
		E->diags = diags[k];
		E->opt = o;
		E->prog = &P;
		E->modi = k;
		arena_init(&E->a);
		E->px = arena_printf(&E->a, "p%d_", k);
	}
	ok = hir_mono_project(mods, nmods, order, entry, funcs, nfuncs, diags);
	for (int k = 0; k < nmods; k++) {
		Emit *E = &P.E[k];
		E->M = mods[k]->mono;
		if (!E->M)
			continue;
		emitc_types_grow(E);
		E->insts = spx_xcalloc((size_t)E->M->ninsts + 1, sizeof *E->insts);
		for (int i = 0; i < E->M->ninsts; i++)
			E->insts[i].cname = inst_cname(E, i);
	}
	for (int i = 0; ok && i < nfuncs; i++) {
		Emit *E = &P.E[entry];
		const HirFunc *f = &mods[entry]->funcs[funcs[i]];
		if (emitc_tinfo(E, f->result)->kind != TY_I64 || f->nparams != 0) {
			emitc_refuse(E, sema_sym(E->S, f->sym)->span, "the native lane runs `fn %s() -> i64` entries only", f->name);
			ok = false;
		}
	}
	for (int k = 0; ok && k < nmods; k++) {
		Emit *E = &P.E[k];
		for (int i = 0; E->M && i < E->M->ninsts && !E->failed; i++)
			emit_function(E, i);
		ok = !E->failed;
	}
	if (ok) {
		Buf *dprotos = spx_xcalloc((size_t)nmods * 4, sizeof *dprotos);
		bool use_fs = false, use_host = false, use_contract = false, use_chunks = false;
		for (int k = 0; k < nmods; k++) {
			Emit *E = &P.E[k];
			prepare(E, &dprotos[4 * k], &dprotos[4 * k + 1], &dprotos[4 * k + 2], &dprotos[4 * k + 3]);
			use_fs |= E->use_fs;
			use_host |= E->use_host;
			use_contract |= E->use_contract;
			use_chunks |= E->use_chunks;
		}
		bool write_grant = o->host && o->host->fs_write;   /* the grant's check needs fs.h */
		put_runtime(out, mods[entry]->S->module_name, o->staged, o->report_status, use_fs || write_grant, use_host, use_contract,
		    use_chunks);
		buf_puts(out, "\n/* ---- types ---- */\n\ntypedef struct spx_fn spx_fn;\n");
		Buf caps = {0};
		for (int k = 0; k < nmods; k++) {
			section(out, &P.E[k]);
			put_types_head(&P.E[k], &P.defined, out);
			buf_put(&caps, dprotos[4 * k + 3].data ? dprotos[4 * k + 3].data : "", dprotos[4 * k + 3].len);
		}
		put_fn_types(&caps, P.maxcaps, out);
		buf_free(&caps);
		for (int k = 0; k < nmods; k++) {
			section(out, &P.E[k]);
			emitc_put_types(&P.E[k], EMIT_DEF_TYPES_FN, &P.defined, out);
		}
		for (int k = 0; k < nmods; k++) {
			section(out, &P.E[k]);
			put_protos(&P.E[k], &dprotos[4 * k], &dprotos[4 * k + 2], out);
		}
		for (int k = 0; k < nmods; k++) {
			section(out, &P.E[k]);
			put_bodies(&P.E[k], &dprotos[4 * k + 1], out);
		}
		project_main(out, &P.E[entry], funcs, nfuncs);
		for (int i = 0; i < 4 * nmods; i++)
			buf_free(&dprotos[i]);
		free(dprotos);
	}
	for (int k = 0; k < nmods; k++) {
		emit_free(&P.E[k]);
		free(P.symfunc[k]);
	}
	free(P.symfunc);
	free(P.E);
	VEC_FREE(P.fnvals);
	VEC_FREE(P.fntypes);
	VEC_FREE(P.captys);
	sema_strmap_free(&P.names);
	sema_strmap_free(&P.defined);
	return ok;
}
