/* Integer loops with data-dependent branches: Collatz steps of every start below 1,500,000 (C twin of collatz.spx). */
#include <stdint.h>
#include <stdio.h>

static int64_t
steps(int64_t start)
{
	int64_t n = start, k = 0;
	while (n != 1) {
		if (n % 2 == 0)
			n = n / 2;
		else
			n = 3 * n + 1;
		k++;
	}
	return k;
}

int
main(void)
{
	int64_t total = 0, longest = 0;
	for (int64_t i = 1; i < 1500000; i++) {
		int64_t s = steps(i);
		total = total + s;
		if (s > longest)
			longest = s;
	}
	printf("%lld\n", (long long)(total * 1000 + longest));
	return 0;
}
