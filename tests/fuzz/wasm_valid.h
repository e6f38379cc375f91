/*
 * wasm_valid.h — a structural and type validator for the Core Wasm modules
 * the Wasm lane writes (tests/fuzz/fuzz_run.c; the fuzz target's oracle).
 *
 * Checks the header, the section order and sizes, every index (types,
 * functions, globals, locals, labels, table, memory), the constant
 * initialisers, and each function body with the specification's operand
 * and control stack algorithm (MVP numeric instructions, multi-value block
 * types, bulk memory copy/fill), so a body that would not validate in an
 * engine is caught without one.  Not covered: UTF-8 of names, duplicate
 * export names.
 */
#ifndef SPX_FUZZ_WASM_VALID_H
#define SPX_FUZZ_WASM_VALID_H

#include <stdbool.h>
#include <stddef.h>

/* true when valid; otherwise false with a reason (and its byte offset) in why. */
bool fuzzw_validate(const unsigned char *bytes, size_t len, char *why, size_t whylen);

#endif
