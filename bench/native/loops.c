/* Integer loops: nested loops with a running modular sum (C twin of loops.spx). */
#include <stdint.h>
#include <stdio.h>

int
main(void)
{
	int64_t total = 0;
	for (int64_t i = 1; i <= 80000; i++)
		for (int64_t j = 1; j <= 1000; j++)
			total = (total + i * j + j % 7) % 1000000007;
	printf("%lld\n", (long long)total);
	return 0;
}
