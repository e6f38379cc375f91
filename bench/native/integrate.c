/* Float arithmetic loops: midpoint-rule integrals over 160,000,000 subintervals (C twin of integrate.spx). */
#include <stdint.h>
#include <stdio.h>

int
main(void)
{
	int64_t n = 160000000;
	double h = 4.0 / (double)n;
	double a = 0.0, b = 0.0, c = 0.0;
	for (int64_t i = 0; i < n; i++) {
		double x = ((double)i + 0.5) * h;
		a = a + ((x - 2.0) * x + 0.5) * x;
		b = b + x * x * x * x - 3.0 * x;
		c = c + 1.0 / (1.0 + x * x);
	}
	printf("%lld\n", (long long)((int64_t)(a * h * 1000.0) * 1000000000000 + (int64_t)((b * h + 100.0) * 1000.0) * 10000 +
	    (int64_t)(c * h * 1000.0)));
	return 0;
}
