/*
 * wasm_test.c — the Wasm lane's encoder (src/emit_wasm/wasm_enc.c): LEB128
 * numbers against the format's worked values, type interning, and the
 * smallest module's exact bytes (deterministic: built twice, identical).
 */
#include <string.h>

#include "../../src/emit_wasm/wasm_enc.h"
#include "unit.h"

static bool
bytes_are(Buf *b, const unsigned char *want, size_t n)
{
	bool ok = b->len == n && memcmp(b->data, want, n) == 0;
	b->len = 0;
	return ok;
}

static void
tiny(Buf *out)
{
	WasmModule m;
	memset(&m, 0, sizeof m);
	static const uint8_t i64r[1] = { WT_I64 };
	int t = wasm_type(&m, NULL, 0, i64r, 1);
	unit_check(wasm_type(&m, NULL, 0, i64r, 1) == t && m.types.len == 1, "wasm: function types are interned");
	int f = wasm_func_add(&m, t);
	wasm_u32(&m.funcs.items[f].locals, 0);
	wasm_byte(&m.funcs.items[f].code, OP_I64_CONST);
	wasm_s64(&m.funcs.items[f].code, 42);
	wasm_export(&m, "main", 0, 0);
	wasm_encode(&m, out);
	wasm_module_free(&m);
}

void
unit_wasm_checks(void)
{
	Buf b = {0};
	wasm_u32(&b, 0);
	unit_check(bytes_are(&b, (const unsigned char[]){ 0x00 }, 1), "wasm: u32 0");
	wasm_u32(&b, 624485);
	unit_check(bytes_are(&b, (const unsigned char[]){ 0xe5, 0x8e, 0x26 }, 3), "wasm: u32 624485 (the LEB128 example)");
	wasm_u32(&b, UINT32_MAX);
	unit_check(bytes_are(&b, (const unsigned char[]){ 0xff, 0xff, 0xff, 0xff, 0x0f }, 5), "wasm: u32 max");
	wasm_s64(&b, -123456);
	unit_check(bytes_are(&b, (const unsigned char[]){ 0xc0, 0xbb, 0x78 }, 3), "wasm: s64 -123456 (the LEB128 example)");
	wasm_s64(&b, 63);
	unit_check(bytes_are(&b, (const unsigned char[]){ 0x3f }, 1), "wasm: s64 63");
	wasm_s64(&b, 64);
	unit_check(bytes_are(&b, (const unsigned char[]){ 0xc0, 0x00 }, 2), "wasm: s64 64 needs a sign byte");
	wasm_s64(&b, -64);
	unit_check(bytes_are(&b, (const unsigned char[]){ 0x40 }, 1), "wasm: s64 -64");
	wasm_s64(&b, INT64_MIN);
	unit_check(bytes_are(&b, (const unsigned char[]){ 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7f }, 10),
		   "wasm: s64 INT64_MIN");
	wasm_s64(&b, INT64_MAX);
	unit_check(bytes_are(&b, (const unsigned char[]){ 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00 }, 10),
		   "wasm: s64 INT64_MAX");
	wasm_f64(&b, 1.0);
	unit_check(bytes_are(&b, (const unsigned char[]){ 0, 0, 0, 0, 0, 0, 0xf0, 0x3f }, 8), "wasm: f64 little-endian");
	static const unsigned char want[] = {
		0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,         /* magic, version */
		0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7e,               /* type: () -> i64 */
		0x03, 0x02, 0x01, 0x00,                                 /* function: type 0 */
		0x07, 0x08, 0x01, 0x04, 'm', 'a', 'i', 'n', 0x00, 0x00, /* export "main" func 0 */
		0x0a, 0x06, 0x01, 0x04, 0x00, 0x42, 0x2a, 0x0b,         /* code: i64.const 42 end */
	};
	Buf c = {0};
	tiny(&b);
	tiny(&c);
	unit_check(b.len == c.len && memcmp(b.data, c.data, b.len) == 0, "wasm: a module's bytes are deterministic");
	unit_check(bytes_are(&b, want, sizeof want), "wasm: the smallest module, byte for byte");
	buf_free(&b);
	buf_free(&c);
}
