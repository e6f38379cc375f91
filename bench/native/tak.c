/* Deep, branching recursion: the Takeuchi function (C twin of tak.spx). */
#include <stdint.h>
#include <stdio.h>

static int64_t
tak(int64_t x, int64_t y, int64_t z)
{
	return y < x ? tak(tak(x - 1, y, z), tak(y - 1, z, x), tak(z - 1, x, y)) : z;
}

int
main(void)
{
	int64_t total = 0;
	for (int64_t i = 0; i < 4; i++)
		total = total * 100 + tak(28 + i, 20, 10);
	printf("%lld\n", (long long)total);
	return 0;
}
