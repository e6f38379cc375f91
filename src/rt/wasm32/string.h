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

/*
 * Through the compiler's builtins: -ffreestanding (-fno-builtin) would make
 * every memcpy a call of shim.c's loop, even the fixed 4- and 8-byte copies
 * that read a slot; as builtins those are single loads and stores, and only
 * copies of a run-time length call shim.c (which #undefs these).
 */
#define memcpy(d, s, n) __builtin_memcpy(d, s, n)
#define memmove(d, s, n) __builtin_memmove(d, s, n)
#define memset(d, c, n) __builtin_memset(d, c, n)

#endif
