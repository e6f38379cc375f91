/*
 * buf.c — growable byte buffer.
 */
#include "buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
buf_free(Buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

void
buf_reserve(Buf *b, size_t extra)
{
	if (b->len + extra + 1 <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 256;
	while (cap < b->len + extra + 1)
		cap *= 2;
	b->data = spx_xrealloc(b->data, cap);
	b->cap = cap;
}

void
buf_printf(Buf *b, const char *fmt, ...)
{
	/* One pass when the text fits the spare capacity (the common case), a
	 * second one only after growing for a longer text. */
	buf_reserve(b, 64);
	size_t room = b->cap - b->len;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(b->data + b->len, room, fmt, ap);
	va_end(ap);
	ASSERT(n >= 0, "vsnprintf failed");
	if ((size_t)n >= room) {
		buf_reserve(b, (size_t)n);
		va_start(ap, fmt);
		vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	b->len += (size_t)n;
}

void
buf_indent(Buf *b, int spaces)
{
	if (spaces < 0)
		spaces = 0;
	buf_reserve(b, (size_t)spaces);
	memset(b->data + b->len, ' ', (size_t)spaces);
	b->len += (size_t)spaces;
	b->data[b->len] = '\0';
}

char *
buf_take(Buf *b)
{
	if (!b->data)
		buf_reserve(b, 0);
	char *p = b->data;
	b->data = NULL;
	b->len = b->cap = 0;
	return p;
}

void
buf_append_file(Buf *b, const char *path, size_t cap)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return;
	char tmp[4096];
	size_t n;
	while ((n = fread(tmp, 1, sizeof tmp, f)) > 0 && b->len < cap)
		buf_put(b, tmp, n);
	fclose(f);
}
