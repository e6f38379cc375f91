/*
 * emit_int.h — internals shared by the native lane's emitter files:
 *   emit.c          driver: function instances, bodies, dispatchers, C main
 *   emit_type.c     C spellings of types and their generated helpers
 *   emit_expr.c     expressions, statements, match, ownership
 *   emit_builtin.c  the compiler-owned functions (LANGUAGE.md §5.1)
 *
 * Ownership is static.  Every emitted value (Val) is either owned (a fresh
 * value the emitter must move somewhere or release) or borrowed (an alias
 * of a place that owns it).  A consuming position takes an owned value
 * (emitc_own_val clones a borrowed one); a borrowing position given an owned
 * value registers it as a temporary (emitc_borrow_val), released when its scope
 * closes.  Owned slots and temporaries are function-level C variables,
 * zero-initialised; zero is the empty state whose release does nothing,
 * so moving out zeroes the place, and the function epilogue (reached by
 * the body's end and by `?`) releases every one of them.  Release order is
 * not observable (no finalizer can run: LANGUAGE.md §0.1), so the emitter
 * releases at scope ends and the epilogue sweeps.
 */
#ifndef SPX_EMIT_INT_H
#define SPX_EMIT_INT_H

#include "emit_c.h"

typedef struct Val {
	const char *c;        /* C expression (a temporary or literal); NULL after a refusal */
	TypeId t;             /* concrete type */
	bool own;             /* an owned fresh value (meaningful for non-Copy types) */
} Val;

/* One emitted function: instance i of HirModule.mono (same index). */
typedef struct Inst {
	const char *cname;
	Buf body;
} Inst;

/* A function value: an instance (HirMono index) reachable through a value
 * of type `ft`; in a project, the instance of module `mod` and the type's
 * structural key (ft is then the noting module's TypeId). */
typedef struct FnVal {
	TypeId ft;
	int inst;
	bool closure;
	int mod;
	const char *key;
} FnVal;

/* A project's unit-wide type entry: its key, and the module (and its
 * TypeId) that first named it, which spells it. */
typedef struct ProgTy {
	const char *key;
	int mod;
	TypeId t;
} ProgTy;
typedef VEC(ProgTy) ProgTyVec;
typedef VEC(HirSlot) SlotVec;

typedef struct Temp {
	const char *name;
	TypeId t;
} Temp;

typedef struct TypeState {
	uint8_t state;        /* 0 unseen, 1 in progress, 2 done, 3 unsupported, 4 declared only */
	const char *name;     /* C spelling */
	const char *rel;      /* release helper name (non-Copy types) */
	const char *clone;    /* clone helper name */
	const char *eq;       /* equality helper name */
	const char *cmp;      /* ordering helper name (vec_sort) */
	const char *relj, *clonej;   /* job helpers of a cyclic element type (emit_type.c) */
	uint8_t cyc;          /* 0 unknown, 1 a value of the type cannot hold one, 2 it can */
	uint8_t view, fn;     /* emitc_may_view / emitc_holds_fn: 0 unknown, 1 no, 2 yes */
	uint64_t inline_size; /* inline_bytes (emit_type.c) + 1; 0 unknown */
} TypeState;

struct EmitProg;

/* A project's shared type definition (`ty_<key>`, emitc_shared_type_name)
 * as written into one of a module's type buffers: bytes [start, end) of
 * buf.  Every module that uses the type writes it; the unit keeps the
 * first in output order (emitc_put_types). */
typedef enum EmitDefBuf { EMIT_DEF_FWD, EMIT_DEF_TYPES, EMIT_DEF_TYPES_FN } EmitDefBuf;
typedef struct EmitDef {
	EmitDefBuf buf;
	size_t start, end;
	const char *name;     /* its C name (E->a) */
} EmitDef;

typedef struct Emit {
	HirModule *H;
	/* a project (emit_c_project): this module's C name prefix ("" for a
	 * single file), every module's emission, and this module's index */
	const char *px;
	struct EmitProg *prog;
	int modi;
	Sema *S;
	DiagSink *diags;
	const EmitOptions *opt;
	Arena a;              /* strings of this emission */
	Buf fwd;              /* struct forward declarations */
	Buf types;            /* type definitions in dependency order (before spx_fn) */
	Buf types_fn;         /* … of types holding a function value by value (after it) */
	VEC(EmitDef) defs;    /* a project's shared definitions in fwd, types, types_fn (in writing order) */
	Buf hprotos;          /* helper prototypes */
	Buf helpers;          /* helper definitions */
	TypeState *ts;        /* per TypeId (grows with the type table) */
	int nts;
	const HirMono *M;     /* the instances to emit (hir_mono) */
	Inst *insts;          /* per instance of M: its C name and body */
	VEC(FnVal) fnvals;    /* function values; id = index + 1 */
	VEC(TypeId) fntypes;  /* function types called through a value */
	int maxcaps;          /* largest closure capture count */
	VEC(TypeId) captys;   /* non-scalar captured types stored by value (spx_cap members) */
	VEC(TypeId) pending;  /* structs declared only (state 4), to define (emit_type.c) */
	bool use_fs;          /* file_read_text is called or fs.write permitted: include rt/fs.h */
	bool use_host;        /* stdin_read or an environment operation is called: include rt/host.h */
	bool use_contract;    /* a contract clause is checked: include rt/contract.h */
	bool use_chunks;      /* a function is emitted in chunks: define spx_chunk_entry (emit.c) */
	/* the function being emitted */
	int cur;              /* instance index */
	const HirInst *in;    /* M->insts[cur] */
	const HirFunc *f;
	Buf *b;               /* statements */
	Buf decls;            /* function-level declarations */
	const bool *slot_own; /* per slot: holds an owned value (HirInst.slot_owned) */
	const bool *moved_flag; /* per parameter: a contract report needs `spx_mv_<k>`, set when it moves (emit.c) */
	int indent;
	int tmp;
	VEC(Temp) temps;      /* live temporaries, innermost last */
	VEC(Temp) fvars;      /* every function-level temporary (released by the epilogue) */
	bool used_out;        /* `?` jumped to spx_out */
	/* a huge function's body in chunk functions (emit.c, emitc_chunk_at):
	 * its locals live in a frame struct that F points to */
	bool framed;
	const char *frame;    /* the frame struct's name, `frame_<fn>` (with the module prefix) */
	bool chunk_out;       /* the open chunk (emitc_in_chunk) has a `?`, which returns 1 */
	bool chunk_parent;    /* the open chunk's caller is itself a chunk (a nested block's chunks) */
	bool chunk_up;        /* … and a `?` in one returns 1 from that caller too */
	unsigned chunk_fails; /* the open chunk's failure labels: bit k, spx_fail_<add|sub|mul> (emit_arith) */
	int chunk_from;       /* the body statement the open chunk starts at */
	int nchunks;
	int chunk_indent;
	Buf *fbody;           /* the function's own statements while a chunk is open */
	Buf chunk;            /* the open chunk's statements */
	Buf chunks;           /* finished chunk functions */
	Buf members;          /* the frame's members */
	/* the open chunk's scalar locals, read and written as C locals
	 * `F_l_<name>_<k>` (emitc_slot_name): loaded on the chunk's entry and
	 * stored back before it returns and before it calls a nested block's
	 * chunks (reloaded after them) */
	SlotVec cached;
	unsigned *cache_mark;  /* per slot: the serial of the chunk caching it */
	bool *slot_assigned;   /* per slot: set by an assignment statement (emit.c, block_assigned) */
	unsigned chunk_serial; /* the open chunk's (unique in the function) */
	unsigned nserials;
	bool cache_frozen;     /* the open chunk has called a nested block's chunks: it caches no further slot */
	bool chunk_goto_up;    /* a `?` in the open chunk jumps to spx_up (stores back, returns 1) */
	bool failed;
	bool unbounded;       /* ensure_type met a type past sema_type_bounded */
	bool wide;            /* ensure_type met a value past EMITC_INLINE_MAX bytes, */
	TypeId wide_type;     /* of this type */
} Emit;

/* emit.c */
void emitc_line(Emit *E, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void emitc_refuse(Emit *E, Span span, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
const char *emitc_new_tmp(Emit *E);
/* A function-level variable of type t (zero-initialised); its name. */
const char *emitc_func_var(Emit *E, TypeId t, const char *prefix);
const char *emitc_slot_name(Emit *E, HirSlot s);
const char *emitc_moved_flag(Emit *E, HirSlot s);
/* Is a chunk open (emitc_chunk_at): its statements go to E->chunk. */
static inline bool
emitc_in_chunk(const Emit *E)
{
	return E->b == &E->chunk;
}
/* The function's result variable (`spx_result`, in a frame `F->spx_result`). */
const char *emitc_result(Emit *E);
/* The function body's statement i is next (emit_block; mark: the body's temporaries). */
void emitc_chunk_at(Emit *E, int i, int mark);
/* The function body's statements are done: the open chunk closes. */
void emitc_chunk_close(Emit *E);
/* A nested block's statements in chunks (emit_block): the enclosing chunk's
 * state is kept in s (its statements in *hold) until emitc_chunk_leave. */
typedef struct ChunkSave {
	Buf *b, *fbody;
	bool out, parent, up;
	unsigned fails;
	int from, indent;
	SlotVec cached;       /* the enclosing chunk's (E->cached) */
	unsigned serial;
	bool frozen, goto_up;
} ChunkSave;
void emitc_chunk_enter(Emit *E, ChunkSave *s, Buf *hold);
void emitc_chunk_leave(Emit *E, const ChunkSave *s, Buf *hold);
/* A block of more statements than this is emitted in chunks (in a framed function). */
int emitc_chunk_min(const Emit *E);
/* Does parameter i of function fi borrow its argument (emit_expr.c)? */
bool emitc_param_borrows(Emit *E, int fi, int i);
/* The concrete type of slot s of the instance being emitted (HirInst.slot_type). */
TypeId emitc_slot_type(Emit *E, HirSlot s);
/* The dispatch id of a function value (instance inst of E's module). */
int emitc_fnval_id(Emit *E, TypeId ft, int inst, bool closure);
/* The dispatcher of function type ft: `spx_call_<ft>` (a project: `spx_call_<key>`). */
const char *emitc_call_name(Emit *E, TypeId ft);
void emitc_note_fntype(Emit *E, TypeId ft);
/* Does the route grant this host effect (TOOLCHAIN.md §1.3)? */
bool emit_route_grants(Emit *E, const char *effect);

/* emit_type.c */
const TypeInfo *emitc_tinfo(Emit *E, TypeId t);
TypeId emitc_sty(Emit *E, TypeId t);            /* t in the current instance (hir_mono_type) */
bool emitc_is_scalar(Emit *E, TypeId t);
bool emitc_is_int(Emit *E, TypeId t);
bool emitc_is_copy(Emit *E, TypeId t);
bool emitc_valueful(Emit *E, TypeId t);
bool emitc_may_view(Emit *E, TypeId t);         /* may hold a str/Slice view */
Sym *emitc_nominal_sym(Emit *E, TypeId t);
const char *emitc_ctype(Emit *E, TypeId t, Span span);   /* NULL after a refusal */
/* The C spelling of t, its definition emitted on first use: every type a
 * declaration, temporary, cast or helper spells goes through here (or
 * ctype), never through E->ts[t].name, so no spelling precedes its
 * definition (B102: `(null) tmp1`). */
const char *emit_tyname(Emit *E, TypeId t);
const char *emitc_zero_init(Emit *E, TypeId t);
const char *emitc_rel_fn(Emit *E, TypeId t);    /* `void f(T *)` */
const char *emitc_clone_fn(Emit *E, TypeId t);  /* `T f(const T *)` */
const char *eq_fn(Emit *E, TypeId t);     /* `bool f(const T *, const T *)` */
const char *emitc_sortcmp_fn(Emit *E, TypeId t);/* qsort comparator */
/* The spx_cap member storing a captured Copy value of type t; NULL when t
 * holds a function value (stored in a cell: spx_cap.cell, spx_cell). */
const char *emitc_cap_field(Emit *E, TypeId t);
int emitc_map_key_kind(Emit *E, TypeId k);
void emitc_types_grow(Emit *E);

/* emit_expr.c */
/* Operands in flight across a later operand's `?` (a call's arguments, an
 * aggregate's values): begin over the operands, hold operand i once its
 * value is ready for its consumer, land when every operand is ready. */
typedef struct Flight {
	int last;             /* the last operand holding a `?` (hir_last_try), -1: none */
	int n;
	const char **name;    /* the held values' function-level variables */
	TypeId *t;
} Flight;
void emitc_flight_begin(Emit *E, Flight *F, HirExpr *const *xs, int n);
void emitc_flight_init(Emit *E, Flight *F, int last);   /* the last operand holding a `?` given */
void emitc_flight_hold(Emit *E, Flight *F, int i, Val v);
void emitc_flight_land(Emit *E, Flight *F);
Val emitc_ev(Emit *E, const HirExpr *e);
/* A Val (emit_int.h's struct) from its parts. */
static inline Val
emitc_val(const char *c, TypeId t, bool own)
{
	Val v = { c, t, own };
	return v;
}
/* A C literal of integer type t with magnitude mag (negated when neg). */
const char *emitc_int_lit(Emit *E, TypeId t, uint64_t mag, bool neg);
/* A branching expression's result variable of type t (NULL: no value), and
 * a branch's value stored into it (target NULL: discarded); lend: a lending
 * branch value, stored as read (emit_expr.c, for emit_match.c too). */
const char *emitc_result_var(Emit *E, TypeId t, Span span);
void emitc_store_result(Emit *E, Val v, const char *target, TypeId t, bool lend);
/* `match` (emit_match.c). */
Val emitc_match(Emit *E, const HirExpr *e);
Val emitc_own_val(Emit *E, Val v);
/* A class value as the ancestor type `to` (other types: unchanged). */
Val emitc_coerce(Emit *E, Val v, TypeId to);
Val emitc_borrow_val(Emit *E, Val v);
void emitc_release_place(Emit *E, TypeId t, const char *place);
int emitc_temps_mark(Emit *E);
void emitc_temps_release(Emit *E, int mark);
const char *emitc_c_literal(Emit *E, const char *s, size_t n);   /* a C string literal's body */
void emit_block(Emit *E, const HirBlock *b, const char *target, TypeId tt);
bool emitc_check_invariants(Emit *E, TypeId t, const char *v, Span span);

/* emit_prog.c: a project's modules in one unit (emit_c_project) */
struct EmitProg {
	Emit *E;              /* per module (ModuleId order) */
	int n;
	StrMap names;         /* module name → index */
	int32_t **symfunc;    /* per module: SymId → its HIR function index (-1) */
	/* function values are unit-wide: one spx_fn and spx_cap, dispatch ids
	 * over every module's instances, one spx_call_<key> per function type */
	VEC(FnVal) fnvals;    /* id = index + 1 */
	ProgTyVec fntypes;     /* function types called through a value (or made) */
	ProgTyVec captys;     /* captured non-scalar types (spx_cap members v_<key>) */
	int maxcaps;
	StrMap defined;       /* the shared type names put into the unit so far (probed only) */
};
/* The C name of the provider's instance an imported function or method sym
 * names (types checked for the boundary), or NULL after a refusal. */
const char *emitc_import_cname(Emit *E, SymId sym, Span span);
/* The provider's instance of imported function sym (its module in *mod), or -1 after a refusal. */
int emitc_import_inst(Emit *E, SymId sym, Span span, int *mod);
/* Writes buffer which of E into out; with seen (a project), each shared
 * definition in it only when seen has not its name yet (which it then
 * gets): a type is defined once in the unit, by the first module in output
 * order that writes it. */
void emitc_put_types(const Emit *E, EmitDefBuf which, StrMap *seen, Buf *out);
/* The structural key of t, the same text in every module for the same type. */
const char *emitc_type_key(Emit *E, TypeId t);
/* Unit-wide function values: the dispatch id of instance inst of module
 * mod as a value of type ft (E's TypeId); note a function type's dispatcher;
 * the spx_cap member of a captured non-scalar type. */
int emitc_prog_fnval(Emit *E, TypeId ft, int mod, int inst, bool closure);
void emitc_prog_note_fntype(Emit *E, TypeId ft);
const char *emitc_prog_cap(Emit *E, TypeId t);
/* The provider's invariant check of imported record sym, or NULL (none). */
const char *emitc_import_invariant(Emit *E, SymId sym, Span span, bool *failed);
/* The identity name of an authored monomorphic nominal type shared by the
 * project's modules (ty_<module>_<id>, mangled), or NULL. */
const char *emitc_shared_type_name(Emit *E, TypeId t);

/* escape.c: the only ways source text enters the generated C */
void emitc_comment_text(Buf *out, const char *s, size_t n);   /* a comment's body */
void emitc_c_string(Buf *out, const char *s, size_t n);       /* a string literal's body */

/* emit_builtin.c */
Val emit_builtin(Emit *E, const HirExpr *e);

#endif
