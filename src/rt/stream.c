/*
 * stream.c — the stdin stream's one host step (hosted: POSIX read), shared
 * by the interpreter (src/interp/host.c) and the C lane (embedded before
 * src/emit_c/rt/stream.h).  `stdin_stream_open` and `stdin_stream_next`
 * publish the bytes of one read of at most RT_LIMIT_STDIN_CHUNK (4,096)
 * bytes as the reader's chunk; 0 bytes is end of input (the reference's
 * Bounded Standard Input Streaming v1: a short positive read is a chunk,
 * zero is true EOF); a read error is semaprax.command-input.v1 code 3.
 * Not part of the Wasm runtime (src/rt/wasm32 is freestanding).
 */
#ifndef RT_API
#include "rt.h"
#include "domains.h"
#endif
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

RT_API uint32_t
rt_stdin_chunk(uint8_t *buf, size_t cap, size_t *n)
{
	for (;;) {
		ssize_t r = read(0, buf, cap);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return RT_CMDIN_STDIN;
		*n = (size_t)r;
		return 0;
	}
}
