/* Floating point: Mandelbrot escape counts over a grid (C twin of floats.spx). */
#include <stdint.h>
#include <stdio.h>

static int64_t
escape(double cr, double ci)
{
	double zr = 0.0, zi = 0.0;
	int64_t k = 0;
	while (k < 64 && zr * zr + zi * zi <= 4.0) {
		double t = zr * zr - zi * zi + cr;
		zi = 2.0 * zr * zi + ci;
		zr = t;
		k++;
	}
	return k;
}

int
main(void)
{
	int64_t total = 0;
	for (int64_t y = 0; y < 1800; y++) {
		double ci = -1.25 + (double)y * 2.5 / 1800.0;
		for (int64_t x = 0; x < 2700; x++) {
			double cr = -2.25 + (double)x * 3.0 / 2700.0;
			total += escape(cr, ci);
		}
	}
	printf("%lld\n", (long long)total);
	return 0;
}
