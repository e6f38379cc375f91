/*
 * buf.h — growable byte buffer (heap-owned) and a typed growable vector.
 *
 * Buf is the one output facility: formatter, JSON writer and diagnostics
 * render into a Buf, then the caller writes it out.
 */
#ifndef SPX_BUF_H
#define SPX_BUF_H

#include <stdlib.h>
#include <string.h>

#include "common.h"

typedef struct Buf {
	char *data;   /* owned; always NUL-terminated when len > 0 or cap > 0 */
	size_t len;
	size_t cap;
} Buf;

void buf_free(Buf *b);
void buf_reserve(Buf *b, size_t extra);
static inline void buf_putc(Buf *b, char c);
static inline void buf_put(Buf *b, const char *s, size_t n);
static inline void buf_puts(Buf *b, const char *s);
void buf_printf(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_indent(Buf *b, int spaces);
char *buf_take(Buf *b);  /* hands the NUL-terminated data to the caller */
/* Appends the file at path while b holds fewer than cap bytes (a missing
 * or unreadable file appends nothing): logs and captured output. */
void buf_append_file(Buf *b, const char *path, size_t cap);

/* The appenders are inline (the formatter calls them per token); only
 * growth leaves the caller. */
static inline void
buf_putc(Buf *b, char c)
{
	if (b->len + 2 > b->cap)
		buf_reserve(b, 1);
	b->data[b->len++] = c;
	b->data[b->len] = '\0';
}

static inline void
buf_put(Buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap)
		buf_reserve(b, n);
	if (n)
		memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

static inline void
buf_puts(Buf *b, const char *s)
{
	buf_put(b, s, strlen(s));
}

/*
 * VEC(T): a growable array of T.  Elements move on growth, so do not keep
 * pointers into a Vec across a push.
 */
#define VEC(T) struct { T *items; int len; int cap; }
#define VEC_PUSH(v, x) do { \
	if ((v).len == (v).cap) { \
		(v).cap = (v).cap ? (v).cap * 2 : 8; \
		(v).items = spx_xrealloc((v).items, sizeof(*(v).items) * (size_t)(v).cap); \
	} \
	(v).items[(v).len++] = (x); \
} while (0)
#define VEC_FREE(v) do { free((v).items); (v).items = NULL; (v).len = (v).cap = 0; } while (0)
/* dst (empty) takes src's storage for reuse: same items and cap, length 0 */
#define VEC_ADOPT(dst, src) do { (dst).items = (src).items; (dst).cap = (src).cap; (dst).len = 0; } while (0)

#endif
