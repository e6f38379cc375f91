#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static inline void memstat(const char *what) {
	if (!getenv("SPX_MEMSTAT")) return;
	FILE *f = fopen("/proc/self/status", "r"); char line[256];
	long rss = 0, hwm = 0;
	while (fgets(line, sizeof line, f)) {
		if (!strncmp(line, "VmRSS:", 6)) rss = atol(line + 6);
		if (!strncmp(line, "VmHWM:", 6)) hwm = atol(line + 6);
	}
	fclose(f);
	fprintf(stderr, "[mem] %-16s rss %6ld KB hwm %6ld KB\n", what, rss, hwm);
}
