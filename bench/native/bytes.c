/* Byte scanning: fill a buffer, then scan it for words, digits and a hash (C twin of bytes.spx). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int64_t
scan(const uint8_t *data, size_t n)
{
	int64_t words = 0, digits = 0, hash = 0;
	int inword = 0;
	for (size_t i = 0; i < n; i++) {
		int64_t b = data[i];
		if (b == 32)
			inword = 0;
		else if (!inword) {
			words++;
			inword = 1;
		}
		if (b >= 48 && b <= 57)
			digits++;
		hash = (hash * 31 + b) % 1000003;
	}
	return words * 1000000000000 + digits * 1000000 + hash;
}

int
main(void)
{
	uint8_t *buf = calloc(8000, 1);
	if (!buf)
		return 1;
	int64_t seed = 42;
	for (size_t i = 0; i < 8000; i++) {
		seed = (seed * 1103515245 + 12345) % 2147483648;
		int64_t r = seed / 65536 % 100;
		buf[i] = (uint8_t)(r < 18 ? 32 : r < 30 ? 48 + r % 10 : 97 + r % 26);
	}
	int64_t total = 0;
	for (int pass = 0; pass < 10000; pass++)
		total = (total + scan(buf, 8000)) % 1000000000000000;
	free(buf);
	printf("%lld\n", (long long)total);
	return 0;
}
