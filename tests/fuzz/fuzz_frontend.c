/*
 * fuzz_frontend.c — libFuzzer target over lex, parse and fmt (`make fuzz`).
 *
 * Build: clang -fsanitize=fuzzer,address,undefined with the library
 * sources compiled the same way (see the `fuzz` target in the Makefile).
 * Input: arbitrary bytes, handed to the parser as-is (not NUL-terminated,
 * since lex.h promises it does not need that; ASan checks the promise).
 * Properties checked when the input parses without errors:
 *   1. fmt(x) parses without errors;
 *   2. ast_dump(parse(x)) == ast_dump(parse(fmt(x)))  (meaning preserved);
 *   3. fmt(fmt(x)) == fmt(x) byte for byte             (idempotence).
 * Any violation prints the offending texts to stderr and calls abort(), so
 * libFuzzer saves the input as a crash.  Inputs that do not parse only have
 * to be handled without crashing, leaking or tripping a sanitizer.
 *
 * Key choice: everything is freed on every path (arena_free, diag_free,
 * buf_free) so LeakSanitizer reports only real leaks in the front end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/fmt/fmt.h"
#include "../../src/parse/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One parse: the module, its arena and its diagnostics. */
typedef struct Parsed {
	Arena arena;
	DiagSink diags;
	Module *m;
} Parsed;

static void
parse_text(Parsed *p, const char *src, size_t len)
{
	arena_init(&p->arena);
	diag_init(&p->diags, "fuzz.spx", src, len);
	p->m = parse_module(src, len, &p->arena, &p->diags);
}

static void
parsed_free(Parsed *p)
{
	arena_free(&p->arena);
	diag_free(&p->diags);
}

static void
dump_text(const char *label, const char *s, size_t n)
{
	fprintf(stderr, "---- %s (%zu bytes) ----\n", label, n);
	fwrite(s, 1, n, stderr);
	fprintf(stderr, "\n---- end %s ----\n", label);
}

static void
fail(const char *what, const Buf *a, const char *alabel, const Buf *b, const char *blabel)
{
	fprintf(stderr, "fuzz_frontend: %s\n", what);
	if (a)
		dump_text(alabel, a->data ? a->data : "", a->len);
	if (b)
		dump_text(blabel, b->data ? b->data : "", b->len);
	abort();
}

static bool
buf_equal(const Buf *a, const Buf *b)
{
	return a->len == b->len && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *src = (const char *)data;
	Parsed first;
	parse_text(&first, src, size);
	if (first.diags.errors != 0) {
		parsed_free(&first);
		return 0;
	}

	Buf once = {0}, twice = {0}, dump1 = {0}, dump2 = {0};
	fmt_module(&once, first.m, src, size);
	ast_dump(&dump1, first.m);

	Parsed second;
	parse_text(&second, once.data ? once.data : "", once.len);
	if (second.diags.errors != 0) {
		Buf msgs = {0};
		for (int i = 0; i < second.diags.items.len; i++)
			diag_render_human(&msgs, &second.diags, &second.diags.items.items[i], false);
		fail("fmt output does not parse", &once, "fmt(x)", &msgs, "diagnostics");
	}
	ast_dump(&dump2, second.m);
	if (!buf_equal(&dump1, &dump2))
		fail("fmt changed the tree", &dump1, "ast_dump(parse(x))", &dump2,
		    "ast_dump(parse(fmt(x)))");

	fmt_module(&twice, second.m, once.data, once.len);
	if (!buf_equal(&once, &twice))
		fail("fmt is not idempotent", &once, "fmt(x)", &twice, "fmt(fmt(x))");

	parsed_free(&second);
	parsed_free(&first);
	buf_free(&once);
	buf_free(&twice);
	buf_free(&dump1);
	buf_free(&dump2);
	return 0;
}
