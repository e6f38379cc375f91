/*
 * fuzz_manifest.c — libFuzzer target over the project manifest reader
 * (src/project/manifest.c, `make fuzz-manifest`).
 *
 * Input: arbitrary bytes, handed to project_manifest_read as-is (not
 * NUL-terminated: the reader takes a length; ASan checks it keeps to it).
 * Properties checked when the input reads and validates:
 *   1. its canonical rendering r reads and validates too (what
 *      `fmt --manifest` writes is a manifest `check` reads);
 *   2. the rendering of read(r) is r byte for byte (idempotence), and
 *      project_manifest_canonical accepts r against either reading;
 *   3. a reading that failed reported at least one error (never a silent
 *      refusal), and one that succeeded reported none.
 * Any violation prints the texts to stderr and calls abort(), so libFuzzer
 * saves the input.  Everything is freed on every path, so LeakSanitizer
 * reports only real leaks in the reader.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/project/manifest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
fail(const char *what, const char *a, size_t an, DiagSink *d)
{
	fprintf(stderr, "fuzz_manifest: %s\n---- text (%zu bytes) ----\n", what, an);
	fwrite(a, 1, an, stderr);
	fputs("\n---- end text ----\n", stderr);
	if (d) {
		Buf msgs = {0};
		for (int i = 0; i < d->items.len; i++)
			diag_render_human(&msgs, d, &d->items.items[i], false);
		if (msgs.data)
			fwrite(msgs.data, 1, msgs.len, stderr);
		buf_free(&msgs);
	}
	abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a private copy, exactly size bytes, so a read past the end is caught */
	char *src = malloc(size ? size : 1);
	if (size)
		memcpy(src, data, size);
	DiagSink d1;
	diag_init(&d1, "semaprax.toml", src, size);
	ProjectManifest m1;
	bool ok = project_manifest_read(&m1, src, size, &d1);
	if (ok != (d1.errors == 0))
		fail(ok ? "read succeeded with errors" : "read failed without an error", src, size, &d1);
	if (!ok) {
		project_manifest_free(&m1);
		diag_free(&d1);
		free(src);
		return 0;
	}
	Buf r = {0};
	project_manifest_render(&m1, &r);
	DiagSink d2;
	diag_init(&d2, "semaprax.toml", r.data ? r.data : "", r.len);
	ProjectManifest m2;
	if (!project_manifest_read(&m2, r.data ? r.data : "", r.len, &d2))
		fail("the canonical rendering does not read", r.data ? r.data : "", r.len, &d2);
	Buf r2 = {0};
	project_manifest_render(&m2, &r2);
	if (r.len != r2.len || (r.len && memcmp(r.data, r2.data, r.len) != 0))
		fail("the rendering is not idempotent", r2.data ? r2.data : "", r2.len, NULL);
	DiagSink d3;
	diag_init(&d3, "semaprax.toml", r.data, r.len);
	if (!project_manifest_canonical(&m1, r.data, r.len, &d3) || !project_manifest_canonical(&m2, r.data, r.len, &d3))
		fail("the rendering is not canonical", r.data, r.len, &d3);
	diag_free(&d3);
	buf_free(&r2);
	project_manifest_free(&m2);
	diag_free(&d2);
	buf_free(&r);
	project_manifest_free(&m1);
	diag_free(&d1);
	free(src);
	return 0;
}
