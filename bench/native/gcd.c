/* Integer loops with data-dependent branches: Euclid's algorithm over every pair below 3,000 (C twin of gcd.spx). */
#include <stdint.h>
#include <stdio.h>

static int64_t
gcd(int64_t a, int64_t b)
{
	int64_t x = a, y = b;
	while (y != 0) {
		int64_t r = x % y;
		x = y;
		y = r;
	}
	return x;
}

int
main(void)
{
	int64_t total = 0, coprime = 0;
	for (int64_t i = 1; i < 3000; i++)
		for (int64_t j = 1; j < 3000; j++) {
			int64_t g = gcd(i, j);
			total = total + g;
			if (g == 1)
				coprime++;
		}
	printf("%lld\n", (long long)(total * 1000000 + coprime));
	return 0;
}
