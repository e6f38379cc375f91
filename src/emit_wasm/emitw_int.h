/*
 * emitw_int.h — internals shared by the Wasm lane's lowering files:
 *   emit.c   driver: functions, contracts, the call-depth bound, imports,
 *            data, the module's metadata
 *   emit_project.c  a project's modules as one Wasm module
 *   expr.c   expressions and statements
 *   match.c  match, patterns, `?`
 *   builtin.c the compiler-owned operations
 *   own.c    release, clone and move of owned heap values
 *   vec.c    Vec, Iter, Box and `for`;  map.c  Map and Set
 *
 * Values are flattened: a value of type T is the sequence of Wasm values
 * flat(T) — i64 for i64/usize, i32 for i32/u8/bool/char, f64/f32 for the
 * floats, (pointer, length) i32 pairs for str, Slice<u8>, string and
 * Bytes (an owned one in the heap of src/rt/heap.c, or static data: own.c),
 * (address, length, capacity[, position]) for Vec (Iter), (keys, values,
 * length, capacity) for Map/Set, an address for Box and [u8; N] (static
 * data, or a cell when an element is not a constant),
 * the fields in declaration order for a record (a class: its effective
 * fields), the tag (i32) followed by every case's fields for a variant, and
 * for a function value its table slot (i32) and `env` i64 slots holding
 * the captured values (emit.c: a thunk per function unpacks them).  An expression leaves flat(T) on
 * the operand stack; a slot is flat(T) consecutive Wasm locals; a function
 * takes its depth (i32) then its flattened parameters and returns
 * flat(result) (multi-value).
 */
#ifndef SPX_EMITW_INT_H
#define SPX_EMITW_INT_H

#include "emit_wasm.h"
#include "wasm_enc.h"

/* the flat Wasm values of one value at most (V8 bounds a function type's
 * results at 1000; a wider value is W110) */
#define FLAT_MAX 1000
/* V8 bounds a function type's parameters (and results) at 1000 */
#define WASM_PARAMS_MAX 1000
/* ... and a function's locals (parameters included) at 50,000 */
#define WASM_LOCALS_MAX 50000u
/* A function's Wasm locals times its block/loop/if labels: V8's baseline
 * tier (Liftoff) holds a copy of every local's state per label, about 24
 * bytes each, so 10^7 is about 240 MB at compile time (W110 past it). */
#define WASM_LABEL_LOCALS_MAX 10000000u
/* The JS API's largest function body (its local declarations and code,
 * bytes): V8 refuses to compile a module holding a larger one. */
#define WASM_BODY_MAX 7654321u

struct Emitw;
/* A project (emit_wasm_project): every module's lowering into one module. */
struct EmitwProg {
	struct Emitw *W;      /* per module (ModuleId order) */
	int n;
	StrMap names;         /* module name → index */
	int32_t **symfunc;    /* per module: SymId → HIR function index (-1) */
};

/* Memory: [0, 64 KiB) belongs to the runtime module (its data and stack);
 * the program's scratch buffer and data follow. */
#define WASM_RT_END 65536u
#define WASM_SCRATCH WASM_RT_END          /* 384 bytes: decimal text, a parsed or converted i64, a char literal, float text (352) */
#define WASM_DATA_BASE (WASM_RT_END + 384u)

typedef struct Emitw {
	HirModule *H;
	Sema *S;
	DiagSink *diags;
	const WasmOptions *o;
	WasmModule *m;        /* the module being built (m_own, or a project's shared one) */
	WasmModule m_own;
	bool failed;
	const HirMono *M;     /* the instances (hir_mono): one Wasm function each */
	int *fidx;            /* per instance: index in m.funcs, -1 when not queued */
	VEC(int) queue;       /* instance per m.funcs entry */
	int *fn_type;         /* per m.funcs entry: its type index */
	/* imports (UINT32_MAX: not imported) and globals: keep imp_cell .. g_out
	 * contiguous uint32_t (a project's modules copy the range, emit_wasm_project) */
	uint32_t imp_cell, imp_slot_find, imp_slots_open, imp_slots_close;
	uint32_t imp_zalloc, imp_bytes_write, imp_bytes_selector;
	uint32_t imp_file_read, imp_path_valid, imp_utf8_validate, g_fs;
	uint32_t imp_free, imp_block_clone, imp_block_grow, imp_sort, imp_reserve, imp_str_own, imp_str_copy, imp_str_append, imp_str_concat, imp_heap_init, imp_utf8_encode;
	uint32_t imp_text, imp_fail, imp_stdout, imp_stderr, imp_args_len, imp_decimal, imp_scalar, imp_bytes_cmp, imp_find, imp_parse, imp_count, imp_trim, imp_char_literal, imp_slice_check, imp_i64_from_f64, imp_arg, imp_float_text;
	uint32_t imp_stdin_read, imp_stdin_chunk, imp_env, imp_env_entry, imp_clock, imp_file_write;
	uint32_t g_out;       /* staged output bytes so far */
	int env;              /* i64 slots of a function value's captured values (-1 while computed) */
	uint32_t *thunk;      /* per instance: its table slot as a function value, 0: none */
	Buf *data;            /* static data from WASM_DATA_BASE (data_own, or a project's shared one) */
	Buf data_own;
	/* a project (emit_wasm_project): every module's lowering, this one's index,
	 * and how much of its queue has been emitted */
	struct EmitwProg *prog;
	int modi;
	int qdone;
	struct EmitwInterned { uint32_t off, len; } *interned;   /* open addressing over data's strings (len UINT32_MAX: empty) */
	uint32_t ninterned, capinterned;
	/* the function being emitted: instance `inst` of HIR function f */
	int inst;
	const HirFunc *f;
	Buf *c;               /* its code */
	uint32_t *slot_base;  /* per slot: first Wasm local */
	uint32_t *moved_flag; /* per parameter: the i32 local set when it moves, for a contract report's `<moved>` (0: none; emit.c) */
	VEC(uint8_t) ltypes;  /* types of the locals after the parameters */
	VEC(uint32_t) live;   /* single temporaries in use, innermost statement's last */
	VEC(uint32_t) spare;  /* single temporaries free for reuse */
	uint32_t nwparams;    /* Wasm parameters (depth + flattened) */
	struct EmitwOwned { uint32_t base; TypeId t; int fly; } *otemps;   /* owned temporaries of the function (own.c; fly: held for a flight) */
	struct EmitwFlight *fly;   /* the innermost call whose operands are being evaluated (own.c) */
	int fly_seq;
	int notemps, capotemps;
	VEC(int) olive;       /* indices into otemps still to release, innermost statement's last */
	TypeId flat_visit[32];   /* emitw_flat: the nominal types being laid out */
	int nvisit;
	/* own.c: out-of-line release and clone of a heap-held value (a Box's,
	 * a collection's element), in the order first needed */
	struct EmitwAux { int clone; TypeId t; int wi; uint32_t slot; } *aux;   /* clone 2, 3: a job (own.c) */
	int naux, capaux, auxdone;
	/* own.c: walks without recursion — the job list (its globals and run
	 * function, made on first need) and which types can hold themselves */
	bool jobs, run_done;
	uint32_t g_jp, g_jn, g_jc, g_jin;
	int run_wi;
	uint8_t *cyc;         /* per type: 0 unknown, 1 no, 2 a value can hold one of its own type */
	int ncyc;
	int depth;            /* enclosing block/loop/if labels */
	uint32_t opened;      /* block/loop/if labels the function's body opened (WASM_LABEL_LOCALS_MAX) */
	int body_depth;       /* the depth inside the body's block (`?` branches to it) */
} Emitw;

/* emit.c */
/* A new function body in code: no locals, temporaries or open blocks yet. */
void emitw_body_begin(Emitw *W, Buf *code);
void emitw_refuse(Emitw *W, Span span, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void emitw_op(Emitw *W, uint8_t op);
void emitw_op_u32(Emitw *W, uint8_t op, uint32_t v);
void emitw_i32c(Emitw *W, int32_t v);
void emitw_i64c(Emitw *W, int64_t v);
/* flat(t) into out; its length, or -1 when t is outside the lane (no report). */
int emitw_flat(Emitw *W, TypeId t, uint8_t *out);
/* The same, reporting W110 at span when t is outside the lane. */
int emitw_flat_or_refuse(Emitw *W, TypeId t, Span span, uint8_t *out);
/* The flat offset of field i of record t / field i of case c of variant t. */
int emitw_field_off(Emitw *W, TypeId t, int i);
int emitw_case_off(Emitw *W, TypeId t, int c, int i);
/* The concrete type of t, a type of the instance being emitted
 * (hir_mono_type), and the concrete type of its slot s. */
TypeId emitw_ty(const Emitw *W, TypeId t);
TypeId emitw_slot_ty(const Emitw *W, int s);
/* The instance a call, function value or closure at e of the instance
 * being emitted reaches (HirInst.target), or -1. */
int emitw_target(const Emitw *W, const HirExpr *e);
/* n consecutive temporaries of the given types: the first one's index.  A
 * single one is reused once the statement that took it is complete
 * (emitw_temps_mark/release): no value outlives its statement in a
 * temporary, and V8 bounds a function's locals (50,000). */
uint32_t emitw_locals(Emitw *W, const uint8_t *types, int n);
/* n locals of their own, never reused (what the epilogue still reads). */
uint32_t emitw_fresh_locals(Emitw *W, const uint8_t *types, int n);
/* report.c: the contract checks and their failure reports; the moved flags
 * of f's parameters (W->moved_flag) and parameter s's flag local (0: none). */
void emitw_contract_checks(Emitw *W, const HirFunc *f, bool ensures, HirExpr **conds, int n);
void emitw_moved_params(Emitw *W, const HirFunc *f);
uint32_t emitw_moved_flag(Emitw *W, HirSlot s);
int emitw_temps_mark(Emitw *W);
void emitw_temps_release(Emitw *W, int mark);
/* Pops n values (top last) into locals base..base+n-1 / pushes them. */
void emitw_store(Emitw *W, uint32_t base, int n);
void emitw_load(Emitw *W, uint32_t base, int n);
/* Opens a block/loop/if of the given result types. */
void emitw_open(Emitw *W, uint8_t op, const uint8_t *results, int n);
void emitw_end(Emitw *W);
/* Static bytes: their address. */
uint32_t emitw_static(Emitw *W, const char *s, size_t n);
/* Appends bytes to the pending failure report. */
void emitw_text(Emitw *W, const char *s);
/* Ends the run with status (the pending report is its stderr line). */
void emitw_fail(Emitw *W, int status);
/* `SEMAPRAX operation failure: <domain>/<code>`, 73. */
void emitw_fail_domain(Emitw *W, int domain, int code);
/* … when the i32 condition on the stack holds. */
void emitw_fail_if(Emitw *W, int domain, int code);
/* The Wasm function index of instance ii (queued on first use). */
uint32_t emitw_func_index(Emitw *W, int ii, Span span);
/* Is local i of f a Wasm parameter (a parameter, or a closure's capture)? */
bool emitw_wparam(const HirFunc *f, int i);
/* The table slot of a function value calling instance ii, of (concrete) type ft. */
uint32_t emitw_fn_slot(Emitw *W, int ii, TypeId ft, Span span);
#define EMITW_FT_INST UINT32_MAX   /* emitw_fn_slot: the instance's own parameter and result types */
/* A function value's env: the i64 slots of a closure's captured values, in
 * capture order; a captured value holding a function value lives in a cell
 * (a slot holds its address), and a closure whose captures take more than
 * WASM_ENV_MAX slots stores them in a cell whose address is its one slot. */
#define WASM_ENV_MAX 8
bool emitw_holds_fn(Emitw *W, TypeId t, int level);
/* Does t hold (itself, or fields/case fields) a kind in the mask (1u << TypeKind)? */
bool emitw_holds_kind(Emitw *W, TypeId t, unsigned kinds, int level);
/* The env slots closure instance ii's captures take before packing. */
int emitw_capture_slots(Emitw *W, int ii);
/* Converts the Wasm value of type vt on the stack to / from an i64 env slot. */
void emitw_to_env(Emitw *W, uint8_t vt);
void emitw_from_env(Emitw *W, uint8_t vt);
/* Checks record t's invariants on the value in locals base… (if it has any). */
void emitw_invariants(Emitw *W, TypeId t, uint32_t base);

/* emit.c: flat(t) with mask[i] = 1 where a move zeroes (an owned string's,
 * Bytes', Box's address; a Vec's, Iter's, Map's or Set's addresses and
 * length); its length, or -1. */
int emitw_heap_mask(Emitw *W, TypeId t, uint8_t *mask);

/* own.c — ownership of heap values (owned strings and what holds them):
 * the C lane's model (emit_c/emit_expr.c) in Wasm.  An expression's value
 * is fresh (the lane owns it: a move, a call, an aggregate, a branch) or
 * borrowed (a slot read, a field).  A consuming position takes a fresh
 * value (a borrowed one is cloned: emitw_own); a lending position holds a
 * fresh one in an owned temporary released at the end of its statement
 * (emitw_lend).  Slots are released at their block's end and, all of
 * them, in the function's epilogue (release zeroes, so twice is once). */
bool emitw_has_heap(Emitw *W, TypeId t);
bool emitw_fresh(Emitw *W, const HirExpr *e);
bool emitw_own(Emitw *W, const HirExpr *e, TypeId as);
bool emitw_lend(Emitw *W, const HirExpr *e);
/* Releases (and zeroes) the heap parts of the value of type t in locals base…. */
void emitw_release(Emitw *W, uint32_t base, TypeId t);
/* Zeroes them (a move out). */
void emitw_zero_heap(Emitw *W, uint32_t base, TypeId t);
/* Clones the heap parts of the value of type t on the stack. */
void emitw_clone(Emitw *W, TypeId t);
/* The fresh value of type t on the stack becomes an owned temporary (reloaded). */
void emitw_hold(Emitw *W, TypeId t);
/* The same without the reload: the temporary's first local. */
uint32_t emitw_hold_base(Emitw *W, TypeId t);
/* Vec/Iter storage: every flat value of an element in an 8-byte slot. */
TypeId emitw_elem_ty(Emitw *W, TypeId vec);
int emitw_elem_size(Emitw *W, TypeId elem);
/* Pushes the value of type vt in slot `slot` at the address in local a. */
void emitw_mem_load(Emitw *W, uint32_t a, uint8_t vt, int slot);
/* Pushes / pops (stores) an element of type t at the address in local a; zeroes one. */
void emitw_elem_load(Emitw *W, uint32_t a, TypeId t);
void emitw_elem_store(Emitw *W, uint32_t a, TypeId t);
void emitw_elem_zero(Emitw *W, uint32_t a, TypeId t);
/* local addr = local ptr + local i * esz (i32). */
void emitw_elem_addr(Emitw *W, uint32_t ptr, uint32_t i, int esz, uint32_t addr);
/* Releases the heap parts of the len elements of type t at ptr (locals). */
void emitw_release_elems(Emitw *W, uint32_t ptr, uint32_t len, TypeId t);
/* vec.c: the Vec and Iter operations, and `for`. */
bool emitw_vec_builtin(Emitw *W, const HirExpr *e);
bool emitw_for(Emitw *W, const HirStmt *s);
/* map.c: the Map and Set operations. */
bool emitw_map_builtin(Emitw *W, const HirExpr *e);
/* Clones the storage of the Vec (p, len, cap) in locals into p, then its elements. */
void emitw_clone_storage(Emitw *W, uint32_t p, uint32_t len, uint32_t cap, TypeId elem);
/* Emits the out-of-line release and clone functions asked for so far. */
void emitw_mem_funcs(Emitw *W);
/* emit.c: function wi's local declarations (W->ltypes) and code. */
void emitw_func_finish(Emitw *W, int wi, const Buf *code);
/* local p = fn(p, n * esz, m * esz) for fn imp_block_clone (n the capacity,
 * m the length copied) or imp_block_grow (n the length, m the new
 * capacity), failing as out of memory on 0; n and m are i32 locals. */
void emitw_block_call(Emitw *W, uint32_t fn, uint32_t p, uint32_t n, uint32_t m, int esz);
/* For each of the len elements of type t at ptr (i32 locals): fn(W, its address, t). */
void emitw_each_elem(Emitw *W, uint32_t ptr, uint32_t len, TypeId t, void (*fn)(Emitw *, uint32_t, TypeId));
/* A call's operands in flight across a later operand's `?`: between open
 * and close, emitw_own keeps each owned operand before the last one holding
 * a `?` (hir_last_try) also in an owned temporary, which the epilogue
 * releases when that `?` leaves; close empties them (the callee took the
 * values).  Closes in reverse order of opening. */
typedef struct EmitwFlight {
	HirExpr *const *ops;
	int last;
	int id;
	int from;             /* W->notemps at open */
	struct EmitwFlight *outer;
} EmitwFlight;
void emitw_flight_open(Emitw *W, EmitwFlight *F, HirExpr *const *ops, int n);
void emitw_flight_close(Emitw *W, EmitwFlight *F);
/* An owned temporary of type t (fresh locals: their first) that only the
 * epilogue releases; the caller zeroes it (emitw_zero_heap) once its value
 * is taken. */
uint32_t emitw_epilogue_temp(Emitw *W, TypeId t);
/* Releases the owned temporaries taken since mark. */
int emitw_otemps_mark(Emitw *W);
void emitw_otemps_release(Emitw *W, int mark);
/* The epilogue: every owned slot (reverse order), then every temporary. */
void emitw_epilogue(Emitw *W);
/* After a call returning an address: fails with the native lane's
 * out-of-memory line (status 73) when it is 0; the address stays. */
void emitw_oom_check(Emitw *W);

/* expr.c */
bool emitw_expr(Emitw *W, const HirExpr *e);
/* Pushes whether the i64 sum in local r of locals a and b overflowed (i32). */
void emitw_add_overflows(Emitw *W, uint32_t a, uint32_t b, uint32_t r);
/* Evaluates e for its effects only (a statement: nothing is left). */
bool emitw_discard(Emitw *W, const HirExpr *e);
/* A block: its tail's values as type `as` (a class value as its ancestor),
 * or, when as is WASM_DISCARD, none (they are dropped). */
#define WASM_DISCARD ((TypeId)UINT32_MAX)
bool emitw_block(Emitw *W, const HirBlock *b, TypeId as);
/* e's values as type `to`: a class value as one of its ancestors keeps the
 * ancestor's fields, which come first (LANGUAGE.md §4.6). */
bool emitw_expr_as(Emitw *W, const HirExpr *e, TypeId to);
bool emitw_value(Emitw *W, const HirExpr *e, TypeId as, bool lend);
bool emitw_block_lend(Emitw *W, const HirBlock *b, TypeId as, bool lend);
/* The conversion alone: e's values, already on the stack, as type `to`. */
bool emitw_expr_conv(Emitw *W, const HirExpr *e, TypeId to);

/* builtin.c: the i64 (u64 when !sign) on the stack as decimal text in the
 * scratch buffer, leaving (address, length) */
void emitw_decimal(Emitw *W, bool sign);
/* builtin.c: a CALL_BUILTIN's values, or a refusal */
bool emitw_builtin(Emitw *W, const HirExpr *e);

/* match.c */
bool emitw_match(Emitw *W, const HirExpr *e, TypeId as);
bool emitw_try(Emitw *W, const HirExpr *e);

/* emit.c, for a project's module too (emit_project.c): the i64 slots a
 * function value carries; function k's lowering; the imports; main's or an
 * export's wrapper's heap start; build --target web's export wrappers; the
 * metadata section. */
int emitw_env_slots(Emitw *W);
void emitw_function(Emitw *W, int k);
void emitw_imports(Emitw *W);
void emitw_heap_init(Emitw *W, Buf *code, uint32_t heap_base);
void emitw_export_wrappers(Emitw *const *ws, const uint32_t *index, char **names, uint32_t heap_base);
void emitw_metadata(Emitw *W, uint32_t pages, uint32_t args_base);

/* emit_project.c: the provider's lowering and instance of an imported
 * function or method sym (false after a W110 refusal); the provider's
 * invariant check of an imported record (*ii -1: none). */
bool emitw_import(Emitw *W, SymId sym, Span span, Emitw **P, int *ii);
bool emitw_import_invariant(Emitw *W, SymId sym, Span span, Emitw **P, int *ii);

#endif
