/* ---- SEMAPRAX native runtime: stdin_read (process.stdin.read; LANGUAGE.md §5.1) ---- */
/*
 * Included only in programs whose route grants process.stdin.read and that
 * call stdin_read.  As src/interp/host.c: all of stdin as owned Bytes, read
 * when first called; a second call or a read error is
 * semaprax.command-input.v1 code 3, more than 65,536 bytes of arguments and
 * stdin together code 4.
 */
#include <errno.h>
#include <unistd.h>

static bool spx_stdin_consumed;

SPX_RT spx_str
spx_stdin_read(void)
{
	if (spx_stdin_consumed)
		spx_fail("semaprax.command-input.v1", 3);
	spx_stdin_consumed = true;
	size_t budget = 65536u;
	for (int i = 0; i < spx_argc; i++) {
		size_t n = strlen(spx_argv[i]);
		budget = n < budget ? budget - n : 0;
	}
	spx_str b = { NULL, 0 };
	size_t cap = 0;
	int st = 0;
	for (;;) {
		if (b.n == cap) {
			cap = cap < 4096 ? 4096 : cap * 2;
			b.p = spx_realloc(b.p, cap);
		}
		ssize_t r = read(STDIN_FILENO, b.p + b.n, cap - b.n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			st = 3;
		else if ((b.n += (size_t)(r > 0 ? r : 0)) > budget)
			st = 4;
		if (r <= 0 || st)
			break;
	}
	if (st) {
		spx_str_free(&b);
		spx_fail("semaprax.command-input.v1", st);
	}
	return b;
}
