/* String building: appending decimal numbers and formatted fields (C twin of strings.spx). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Str {
	char *p;
	size_t len, cap;
} Str;

static void
append(Str *s, const char *t, size_t n)
{
	if (s->len + n + 1 > s->cap) {
		while (s->len + n + 1 > s->cap)
			s->cap = s->cap ? s->cap * 2 : 64;
		s->p = realloc(s->p, s->cap);
		if (!s->p)
			exit(1);
	}
	memcpy(s->p + s->len, t, n);
	s->len += n;
	s->p[s->len] = '\0';
}

static Str
build(int64_t round)
{
	Str s = { 0 };
	append(&s, "", 0);
	char tmp[64];
	for (int64_t i = 0; i < 100; i++) {
		int n = snprintf(tmp, sizeof tmp, "%lld", (long long)(i * round % 997));
		append(&s, tmp, (size_t)n);
		n = snprintf(tmp, sizeof tmp, "%lld:%lld;", (long long)i, (long long)round);
		append(&s, tmp, (size_t)n);
	}
	return s;
}

int
main(void)
{
	int64_t total = 0;
	for (int64_t round = 0; round < 40000; round++) {
		Str s = build(round);
		total += (int64_t)s.len;
		total += strstr(s.p, "99:") ? 1 : 2;
		free(s.p);
	}
	printf("%lld\n", (long long)total);
	return 0;
}
