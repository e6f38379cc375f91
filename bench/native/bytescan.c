/* Byte scanning at scale: eight buffers of 125,000 bytes, each filled, then hashed 80 times (C twin of bytescan.spx). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint8_t *
fill(int64_t start)
{
	uint8_t *buf = calloc(125000, 1);
	if (!buf)
		exit(1);
	int64_t seed = start;
	for (size_t i = 0; i < 125000; i++) {
		seed = (seed * 75 + 74) % 65537;
		buf[i] = (uint8_t)(seed % 256);
	}
	return buf;
}

static int64_t
hash(const uint8_t *data, size_t n)
{
	int64_t h = 5381;
	for (size_t i = 0; i < n; i++)
		h = (h * 33 + data[i]) % 4294967311;
	return h;
}

static int64_t
chunk(int64_t k, int64_t total)
{
	uint8_t *buf = fill(7 + k);
	int64_t t = total;
	for (int pass = 0; pass < 80; pass++)
		t = (t * 7 + hash(buf, 125000)) % 1000000000000;
	free(buf);
	return t;
}

int
main(void)
{
	int64_t total = 0;
	for (int64_t k = 0; k < 8; k++)
		total = chunk(k, total);
	printf("%lld\n", (long long)total);
	return 0;
}
