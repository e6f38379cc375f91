/*
 * string.h for src/rt compiled freestanding for wasm32 (tools/build_rt_wasm.sh):
 * the only libc the shared runtime's num.c, utf8.c and text.c need.  fs.c
 * (POSIX: open, errno) is not built for wasm32.
 */
#ifndef SPX_RT_WASM32_STRING_H
#define SPX_RT_WASM32_STRING_H

#include <stddef.h>

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);

#endif
