/* A byte-buffer sieve of Eratosthenes below 131,072, run 1,000 times (C twin of sieve.spx). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int64_t
sieve(void)
{
	size_t n = 131072;
	uint8_t *marks = calloc(n, 1);
	if (!marks)
		exit(1);
	int64_t count = 0, sum = 0;
	for (size_t i = 2; i < n; i++) {
		if (!marks[i]) {
			count++;
			sum = (sum + (int64_t)i) % 1000000007;
			if (i < 363)
				for (size_t j = i * i; j < n; j += i)
					marks[j] = 1;
		}
	}
	free(marks);
	return count * 1000000000 + sum;
}

int
main(void)
{
	int64_t total = 0;
	for (int r = 0; r < 1000; r++)
		total = (total * 3 + sieve()) % 1000000000000000;
	printf("%lld\n", (long long)total);
	return 0;
}
