/* Sorting: a hand-written heapsort next to the library sort (C twin of sort.spx). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static size_t
pick(const int64_t *a, size_t child, size_t end)
{
	return child + 1 < end && a[child] < a[child + 1] ? child + 1 : child;
}

static void
sift(int64_t *a, size_t root, size_t end)
{
	while (root * 2 + 1 < end) {
		size_t c = pick(a, root * 2 + 1, end);
		int64_t rv = a[root], cv = a[c];
		if (rv >= cv)
			break;
		a[root] = cv;
		a[c] = rv;
		root = c;
	}
}

static void
heapsort(int64_t *a, size_t n)
{
	for (size_t start = n / 2; start > 0;)
		sift(a, --start, n);
	for (size_t end = n; end > 1;) {
		end--;
		int64_t top = a[0];
		a[0] = a[end];
		a[end] = top;
		sift(a, 0, end);
	}
}

static int
cmp_i64(const void *p, const void *q)
{
	int64_t x = *(const int64_t *)p, y = *(const int64_t *)q;
	return (x > y) - (x < y);
}

int
main(void)
{
	int64_t total = 0, seed = 7;
	for (int round = 0; round < 120; round++) {
		int64_t *a = malloc(8000 * sizeof *a);
		int64_t *b = malloc(8000 * sizeof *b);
		if (!a || !b)
			return 1;
		for (size_t i = 0; i < 8000; i++) {
			seed = (seed * 1103515245 + 12345) % 2147483648;
			a[i] = b[i] = seed / 1024;
		}
		heapsort(a, 8000);
		qsort(b, 8000, sizeof *b, cmp_i64);
		for (size_t k = 0; k < 8000; k++) {
			int64_t x = a[k];
			if (x == b[k])
				total = (total + x % 1000 * ((int64_t)k % 7 + 1)) % 1000000007;
			else
				total += 1000000007;
		}
		free(a);
		free(b);
	}
	printf("%lld\n", (long long)total);
	return 0;
}
