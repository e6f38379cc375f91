/*
 * wasm_enc.c — the binary Core WebAssembly encoder (wasm_enc.h).  Sections
 * are written in the order of the format (type, import, function, global,
 * export, code, data, then custom sections); each section's size is known
 * only after its content is encoded, so a section is built in a Buf first.
 */
#include "wasm_enc.h"

#include <string.h>

void
wasm_byte(Buf *b, uint8_t v)
{
	buf_putc(b, (char)v);
}

void
wasm_u32(Buf *b, uint32_t v)
{
	do {
		uint8_t byte = v & 0x7f;
		v >>= 7;
		wasm_byte(b, (uint8_t)(byte | (v ? 0x80 : 0)));
	} while (v);
}

void
wasm_s64(Buf *b, int64_t v)
{
	for (;;) {
		uint8_t byte = (uint8_t)((uint64_t)v & 0x7f);
		/* arithmetic shift, written portably */
		v = v < 0 ? ~(~v >> 7) : v >> 7;
		bool sign = byte & 0x40;
		if ((v == 0 && !sign) || (v == -1 && sign)) {
			wasm_byte(b, byte);
			return;
		}
		wasm_byte(b, byte | 0x80);
	}
}

void
wasm_s32(Buf *b, int32_t v)
{
	wasm_s64(b, v);
}

void
wasm_f32(Buf *b, float v)
{
	uint32_t u;
	memcpy(&u, &v, sizeof u);
	for (int i = 0; i < 4; i++)
		wasm_byte(b, (uint8_t)(u >> (8 * i)));
}

void
wasm_f64(Buf *b, double v)
{
	uint64_t u;
	memcpy(&u, &v, sizeof u);
	for (int i = 0; i < 8; i++)
		wasm_byte(b, (uint8_t)(u >> (8 * i)));
}

void
wasm_name(Buf *b, const char *s, size_t n)
{
	wasm_u32(b, (uint32_t)n);
	buf_put(b, s, n);
}

int
wasm_type(WasmModule *m, const uint8_t *params, int np, const uint8_t *results, int nr)
{
	for (int i = 0; i < m->types.len; i++) {
		const WasmType *t = &m->types.items[i];
		if (t->np == np && t->nr == nr && (np == 0 || memcmp(t->params, params, (size_t)np) == 0) &&
		    (nr == 0 || memcmp(t->results, results, (size_t)nr) == 0))
			return i;
	}
	WasmType t = { spx_xmalloc((size_t)np + 1), spx_xmalloc((size_t)nr + 1), np, nr };
	if (np)
		memcpy(t.params, params, (size_t)np);
	if (nr)
		memcpy(t.results, results, (size_t)nr);
	VEC_PUSH(m->types, t);
	return m->types.len - 1;
}

uint32_t
wasm_import_func(WasmModule *m, const char *module, const char *name, int type)
{
	WasmImport im = { module, name, type, 0 };
	VEC_PUSH(m->imports, im);
	return (uint32_t)m->nfunc_imports++;
}

void
wasm_import_memory(WasmModule *m, const char *module, const char *name, uint32_t min_pages)
{
	WasmImport im = { module, name, -1, min_pages };
	VEC_PUSH(m->imports, im);
}

int
wasm_func_add(WasmModule *m, int type)
{
	WasmFunc f;
	memset(&f, 0, sizeof f);
	f.type = type;
	VEC_PUSH(m->funcs, f);
	return m->funcs.len - 1;
}

uint32_t
wasm_global_add(WasmModule *m, uint8_t type, bool mut, int64_t init)
{
	WasmGlobal g = { type, mut, init };
	VEC_PUSH(m->globals, g);
	return (uint32_t)m->globals.len - 1;
}

void
wasm_export(WasmModule *m, const char *name, uint8_t kind, uint32_t index)
{
	WasmExport e = { name, kind, index };
	VEC_PUSH(m->exports, e);
}

void
wasm_data(WasmModule *m, uint32_t offset, const void *bytes, size_t n)
{
	WasmData d;
	memset(&d, 0, sizeof d);
	d.offset = offset;
	buf_put(&d.bytes, bytes, n);
	VEC_PUSH(m->data, d);
}

void
wasm_custom(WasmModule *m, const char *name, const void *bytes, size_t n)
{
	WasmCustom c;
	memset(&c, 0, sizeof c);
	c.name = name;
	buf_put(&c.bytes, bytes, n);
	VEC_PUSH(m->customs, c);
}

uint32_t
wasm_table_add(WasmModule *m, uint32_t index)
{
	VEC_PUSH(m->table, index);
	return (uint32_t)m->table.len;
}

static void
section(Buf *out, uint8_t id, Buf *content)
{
	wasm_byte(out, id);
	wasm_u32(out, (uint32_t)content->len);
	buf_put(out, content->data ? content->data : "", content->len);
	buf_free(content);
}

void
wasm_encode(const WasmModule *m, Buf *out)
{
	static const char magic[8] = { 0, 'a', 's', 'm', 1, 0, 0, 0 };
	buf_put(out, magic, sizeof magic);
	Buf s = {0};
	if (m->types.len) {
		wasm_u32(&s, (uint32_t)m->types.len);
		for (int i = 0; i < m->types.len; i++) {
			const WasmType *t = &m->types.items[i];
			wasm_byte(&s, 0x60);
			wasm_u32(&s, (uint32_t)t->np);
			buf_put(&s, (const char *)t->params, (size_t)t->np);
			wasm_u32(&s, (uint32_t)t->nr);
			buf_put(&s, (const char *)t->results, (size_t)t->nr);
		}
		section(out, 1, &s);
	}
	if (m->imports.len) {
		wasm_u32(&s, (uint32_t)m->imports.len);
		for (int i = 0; i < m->imports.len; i++) {
			const WasmImport *im = &m->imports.items[i];
			wasm_name(&s, im->module, strlen(im->module));
			wasm_name(&s, im->name, strlen(im->name));
			if (im->type >= 0) {
				wasm_byte(&s, 0x00);
				wasm_u32(&s, (uint32_t)im->type);
			} else {
				wasm_byte(&s, 0x02);
				wasm_byte(&s, 0x00);   /* limits: min only */
				wasm_u32(&s, im->min_pages);
			}
		}
		section(out, 2, &s);
	}
	if (m->funcs.len) {
		wasm_u32(&s, (uint32_t)m->funcs.len);
		for (int i = 0; i < m->funcs.len; i++)
			wasm_u32(&s, (uint32_t)m->funcs.items[i].type);
		section(out, 3, &s);
	}
	if (m->table.len) {
		wasm_u32(&s, 1);
		wasm_byte(&s, 0x70);   /* funcref */
		wasm_byte(&s, 0x00);   /* limits: min only */
		wasm_u32(&s, (uint32_t)m->table.len + 1);
		section(out, 4, &s);
	}
	if (m->globals.len) {
		wasm_u32(&s, (uint32_t)m->globals.len);
		for (int i = 0; i < m->globals.len; i++) {
			const WasmGlobal *g = &m->globals.items[i];
			wasm_byte(&s, g->type);
			wasm_byte(&s, g->mut ? 1 : 0);
			switch (g->type) {
			case WT_I32: wasm_byte(&s, OP_I32_CONST); wasm_s32(&s, (int32_t)g->init); break;
			case WT_I64: wasm_byte(&s, OP_I64_CONST); wasm_s64(&s, g->init); break;
			case WT_F32: wasm_byte(&s, OP_F32_CONST); wasm_f32(&s, 0); break;
			default: wasm_byte(&s, OP_F64_CONST); wasm_f64(&s, 0); break;
			}
			wasm_byte(&s, OP_END);
		}
		section(out, 6, &s);
	}
	if (m->exports.len) {
		wasm_u32(&s, (uint32_t)m->exports.len);
		for (int i = 0; i < m->exports.len; i++) {
			const WasmExport *e = &m->exports.items[i];
			wasm_name(&s, e->name, strlen(e->name));
			wasm_byte(&s, e->kind);
			wasm_u32(&s, e->index);
		}
		section(out, 7, &s);
	}
	if (m->table.len) {
		wasm_u32(&s, 1);
		wasm_u32(&s, 0);   /* active, table 0, funcref */
		wasm_byte(&s, OP_I32_CONST);
		wasm_s32(&s, 1);
		wasm_byte(&s, OP_END);
		wasm_u32(&s, (uint32_t)m->table.len);
		for (int i = 0; i < m->table.len; i++)
			wasm_u32(&s, m->table.items[i]);
		section(out, 9, &s);
	}
	if (m->funcs.len) {
		wasm_u32(&s, (uint32_t)m->funcs.len);
		Buf body = {0};
		for (int i = 0; i < m->funcs.len; i++) {
			const WasmFunc *f = &m->funcs.items[i];
			if (f->locals.len)
				buf_put(&body, f->locals.data, f->locals.len);
			else
				wasm_u32(&body, 0);
			buf_put(&body, f->code.data ? f->code.data : "", f->code.len);
			wasm_byte(&body, OP_END);
			wasm_u32(&s, (uint32_t)body.len);
			buf_put(&s, body.data, body.len);
			body.len = 0;
		}
		buf_free(&body);
		section(out, 10, &s);
	}
	if (m->data.len) {
		wasm_u32(&s, (uint32_t)m->data.len);
		for (int i = 0; i < m->data.len; i++) {
			const WasmData *d = &m->data.items[i];
			wasm_u32(&s, 0);   /* active, memory 0 */
			wasm_byte(&s, OP_I32_CONST);
			wasm_s32(&s, (int32_t)d->offset);
			wasm_byte(&s, OP_END);
			wasm_name(&s, d->bytes.data ? d->bytes.data : "", d->bytes.len);
		}
		section(out, 11, &s);
	}
	for (int i = 0; i < m->customs.len; i++) {
		const WasmCustom *c = &m->customs.items[i];
		wasm_name(&s, c->name, strlen(c->name));
		buf_put(&s, c->bytes.data ? c->bytes.data : "", c->bytes.len);
		section(out, 0, &s);
	}
}

void
wasm_module_free(WasmModule *m)
{
	for (int i = 0; i < m->types.len; i++) {
		free(m->types.items[i].params);
		free(m->types.items[i].results);
	}
	for (int i = 0; i < m->funcs.len; i++) {
		buf_free(&m->funcs.items[i].locals);
		buf_free(&m->funcs.items[i].code);
	}
	for (int i = 0; i < m->data.len; i++)
		buf_free(&m->data.items[i].bytes);
	for (int i = 0; i < m->customs.len; i++)
		buf_free(&m->customs.items[i].bytes);
	VEC_FREE(m->types);
	VEC_FREE(m->imports);
	VEC_FREE(m->funcs);
	VEC_FREE(m->globals);
	VEC_FREE(m->exports);
	VEC_FREE(m->data);
	VEC_FREE(m->customs);
	VEC_FREE(m->table);
}
