/*
 * wasm_enc.h — a binary Core WebAssembly encoder of our own (the Wasm
 * lane's lowest part): LEB128 numbers, interned function types, imports,
 * functions, one imported memory, globals, exports, data segments and
 * custom sections, written in the section order the format requires.  The
 * output depends only on what was added and in which order (no addresses,
 * no hash iteration), so identical input gives identical bytes.
 */
#ifndef SPX_EMIT_WASM_ENC_H
#define SPX_EMIT_WASM_ENC_H

#include <stdint.h>

#include "../support/buf.h"

/* value types */
enum { WT_I32 = 0x7f, WT_I64 = 0x7e, WT_F32 = 0x7d, WT_F64 = 0x7c };

/* opcodes used by the lane (MVP plus multi-value block types) */
enum {
	OP_UNREACHABLE = 0x00, OP_BLOCK = 0x02, OP_LOOP = 0x03, OP_IF = 0x04, OP_ELSE = 0x05,
	OP_END = 0x0b, OP_BR = 0x0c, OP_BR_IF = 0x0d, OP_RETURN = 0x0f, OP_CALL = 0x10, OP_CALL_INDIRECT = 0x11,
	OP_DROP = 0x1a, OP_SELECT = 0x1b,
	OP_LOCAL_GET = 0x20, OP_LOCAL_SET = 0x21, OP_LOCAL_TEE = 0x22, OP_GLOBAL_GET = 0x23, OP_GLOBAL_SET = 0x24,
	OP_I32_LOAD = 0x28, OP_I64_LOAD = 0x29, OP_F32_LOAD = 0x2a, OP_F64_LOAD = 0x2b, OP_I32_LOAD8_U = 0x2d,
	OP_I32_STORE = 0x36, OP_I64_STORE = 0x37, OP_F32_STORE = 0x38, OP_F64_STORE = 0x39, OP_I32_STORE8 = 0x3a,
	OP_I32_CONST = 0x41, OP_I64_CONST = 0x42, OP_F32_CONST = 0x43, OP_F64_CONST = 0x44,
	OP_I32_EQZ = 0x45, OP_I32_EQ = 0x46, OP_I32_NE = 0x47, OP_I32_LT_S = 0x48, OP_I32_LT_U = 0x49,
	OP_I32_GT_S = 0x4a, OP_I32_GT_U = 0x4b, OP_I32_LE_S = 0x4c, OP_I32_LE_U = 0x4d, OP_I32_GE_S = 0x4e,
	OP_I32_GE_U = 0x4f,
	OP_I64_EQZ = 0x50, OP_I64_EQ = 0x51, OP_I64_NE = 0x52, OP_I64_LT_S = 0x53, OP_I64_LT_U = 0x54,
	OP_I64_GT_S = 0x55, OP_I64_GT_U = 0x56, OP_I64_LE_S = 0x57, OP_I64_LE_U = 0x58, OP_I64_GE_S = 0x59,
	OP_I64_GE_U = 0x5a,
	OP_F32_EQ = 0x5b, OP_F32_NE = 0x5c, OP_F32_LT = 0x5d, OP_F32_GT = 0x5e, OP_F32_LE = 0x5f, OP_F32_GE = 0x60,
	OP_F64_EQ = 0x61, OP_F64_NE = 0x62, OP_F64_LT = 0x63, OP_F64_GT = 0x64, OP_F64_LE = 0x65, OP_F64_GE = 0x66,
	OP_I32_ADD = 0x6a, OP_I32_SUB = 0x6b, OP_I32_MUL = 0x6c, OP_I32_AND = 0x71, OP_I32_OR = 0x72, OP_I32_XOR = 0x73, OP_I32_SHR_U = 0x76,
	OP_I64_ADD = 0x7c, OP_I64_SUB = 0x7d, OP_I64_MUL = 0x7e, OP_I64_DIV_S = 0x7f, OP_I64_DIV_U = 0x80,
	OP_I64_REM_S = 0x81, OP_I64_REM_U = 0x82, OP_I64_AND = 0x83, OP_I64_XOR = 0x85, OP_I64_SHR_U = 0x88,
	OP_F32_NEG = 0x8c, OP_F32_ADD = 0x92, OP_F32_SUB = 0x93, OP_F32_MUL = 0x94, OP_F32_DIV = 0x95,
	OP_F64_NEG = 0x9a, OP_F64_TRUNC = 0x9d, OP_F64_ADD = 0xa0, OP_F64_SUB = 0xa1, OP_F64_MUL = 0xa2, OP_F64_DIV = 0xa3,
	OP_I32_WRAP_I64 = 0xa7, OP_I64_TRUNC_F64_S = 0xb0, OP_I64_EXTEND_I32_S = 0xac, OP_I64_EXTEND_I32_U = 0xad,
	OP_F64_CONVERT_I64_S = 0xb9, OP_F64_PROMOTE_F32 = 0xbb, OP_I32_REINTERPRET_F32 = 0xbc, OP_I64_REINTERPRET_F64 = 0xbd,
	OP_F32_REINTERPRET_I32 = 0xbe, OP_F64_REINTERPRET_I64 = 0xbf,
	/* checked multiplication's fast path (expr.c) */
	OP_I64_CLZ = 0x79, OP_I64_OR = 0x84, OP_I64_SHR_S = 0x87,
};

#define WASM_BLOCK_EMPTY (-64)   /* the block type 0x40 */

void wasm_u32(Buf *b, uint32_t v);     /* unsigned LEB128 */
void wasm_s32(Buf *b, int32_t v);      /* signed LEB128 */
void wasm_s64(Buf *b, int64_t v);
void wasm_f32(Buf *b, float v);        /* little-endian IEEE bits */
void wasm_f64(Buf *b, double v);
void wasm_name(Buf *b, const char *s, size_t n);   /* length-prefixed bytes */
void wasm_byte(Buf *b, uint8_t v);

typedef struct WasmType {
	uint8_t *params, *results;
	int np, nr;
} WasmType;

typedef struct WasmImport {
	const char *module, *name;
	int type;             /* function type index; -1: the memory */
	uint32_t min_pages;   /* memory */
} WasmImport;

typedef struct WasmFunc {
	int type;
	Buf locals;           /* the encoded local declarations (count first) */
	Buf code;             /* the body's instructions, without the final `end` */
} WasmFunc;

typedef struct WasmGlobal { uint8_t type; bool mut; int64_t init; } WasmGlobal;
typedef struct WasmExport { const char *name; uint8_t kind; uint32_t index; } WasmExport;
typedef struct WasmData { uint32_t offset; Buf bytes; } WasmData;
typedef struct WasmCustom { const char *name; Buf bytes; } WasmCustom;

typedef struct WasmModule {
	VEC(WasmType) types;
	VEC(WasmImport) imports;
	int nfunc_imports;
	VEC(WasmFunc) funcs;
	VEC(WasmGlobal) globals;
	VEC(WasmExport) exports;
	VEC(WasmData) data;
	VEC(WasmCustom) customs;   /* written after every other section, in order */
	VEC(uint32_t) table;       /* function indices of table slots 1…; slot 0 stays null */
} WasmModule;

/* The index of the function type (params) -> (results), interned. */
int wasm_type(WasmModule *m, const uint8_t *params, int np, const uint8_t *results, int nr);
/* Imports (all before any function is added); function index / 0. */
uint32_t wasm_import_func(WasmModule *m, const char *module, const char *name, int type);
void wasm_import_memory(WasmModule *m, const char *module, const char *name, uint32_t min_pages);
/* A new defined function of type `type`; its index in m->funcs. */
int wasm_func_add(WasmModule *m, int type);
uint32_t wasm_global_add(WasmModule *m, uint8_t type, bool mut, int64_t init);
void wasm_export(WasmModule *m, const char *name, uint8_t kind, uint32_t index);
void wasm_data(WasmModule *m, uint32_t offset, const void *bytes, size_t n);
void wasm_custom(WasmModule *m, const char *name, const void *bytes, size_t n);
/* Puts function `index` into the next table slot (1, 2, …); that slot. */
uint32_t wasm_table_add(WasmModule *m, uint32_t index);
/* The module's bytes. */
void wasm_encode(const WasmModule *m, Buf *out);
void wasm_module_free(WasmModule *m);

#endif
