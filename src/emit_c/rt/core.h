/* ---- SEMAPRAX native runtime: core (TOOLCHAIN.md §1.3 item 8) ---- */
/*
 * Failure lines and exit codes: contracts 70, checked arithmetic 71,
 * runtime invariants 72, call depth and other domains 73.  Owned heap
 * values (string, Bytes, Vec, Map, Box, Iter) are plain structs whose
 * all-zero state is "empty": releasing it does nothing, so a moved-from
 * place is simply zeroed.  Every allocation goes through spx_alloc, which
 * links it into one list: a failure exit releases what is still live, in
 * reverse order of acquisition (LANGUAGE.md §0.12), before the process ends.
 * Under `run --native` (SPX_STAGED) output is staged, capped at 65,536
 * bytes (§0.1) and published only after `main` returns.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define SPX_RT static __attribute__((unused))
/* A huge function's chunk (emit.c, emitc_chunk_at): never inlined back, and
 * under gcc without a mod/ref summary — gcc 12's ipa-modref made a caller read
 * a byte array one chunk had copied into the frame as zero (noipa avoids it
 * too, but compiled 5,000 string statements 4.5x slower).  Under clang cold,
 * so optimized for size: the runtime's allocation helpers are then called,
 * not inlined into every statement (5,000 string statements 5x faster to
 * compile; checked arithmetic is still inlined). */
/* The function calling a huge function's chunks (emit.c): under gcc without
 * devirtualization, which C never uses: gcc's IPA computed a polymorphic
 * call context for each chunk call's frame argument, walking every member
 * of the frame (contains_polymorphic_type_p): chunks x locals, 19% of a
 * function of 60,000 `let`s. */
#if defined(__GNUC__) && !defined(__clang__)
#define SPX_CHUNK static __attribute__((noinline, optimize("no-ipa-modref")))
#define SPX_FRAMED __attribute__((optimize("no-devirtualize")))
#else
#define SPX_CHUNK static __attribute__((noinline, cold))
#define SPX_FRAMED
#endif

/* The call of the program's entry function from the C main (emit.c
 * emit_main, project_main) goes through a function of its own, never inlined:
 * inlined into main beside the start-up code (stack room, argument checks),
 * the program's hot loop shared main's registers and lost (bench/native
 * records: 1.12-1.15x its C twin under gcc 12, 0.97-0.99x out of line). */
#define SPX_ENTRY static __attribute__((noinline))

typedef struct spx_str { uint8_t *p; size_t n; } spx_str;          /* string, Bytes (owned) */
typedef struct spx_view { const uint8_t *p; size_t n; } spx_view;  /* str, Slice<u8> (borrowed) */
typedef struct spx_vec { void *p; size_t len, cap; } spx_vec;      /* Vec<T>: p holds cap T */
typedef struct spx_iter { spx_vec v; size_t pos; } spx_iter;       /* Iter<T> */
typedef struct spx_map { void *k, *v; size_t len, cap; } spx_map;  /* Map<K, V> / Set<K>: sorted keys */

static int spx_argc;
static char **spx_argv;

/* ---- allocation: a doubly linked list of live blocks ---- */

/*
 * The live heap is bounded (4 GiB, the Wasm lane's memory; -DSPX_HEAP_LIMIT=N
 * for a test): past it an allocation is `out of memory` (73), as malloc
 * failing is.  Without the bound an overcommitting host never fails malloc,
 * and a program doubling a string grew to the host's whole memory before the
 * kernel killed it.
 */
#ifndef SPX_HEAP_LIMIT
#define SPX_HEAP_LIMIT ((size_t)4 << 30)
#endif
typedef struct spx_hdr { struct spx_hdr *prev, *next; size_t n; max_align_t align[]; } spx_hdr;
static spx_hdr spx_live = { &spx_live, &spx_live, 0 };
static size_t spx_heap_bytes;   /* the live blocks' sizes (at most SPX_HEAP_LIMIT) */

SPX_RT _Noreturn void spx_die(int status, const char *line);

/* A live block of n bytes (zeroed when zero is set: calloc, which a large
 * block gets as fresh zero pages instead of a memset over it). */
SPX_RT void *
spx_alloc_block(size_t n, int zero)
{
	size_t want = n ? n : 1;
	spx_hdr *h = NULL;
	if (want <= (size_t)SPX_HEAP_LIMIT - spx_heap_bytes)
		h = zero ? calloc(1, sizeof(spx_hdr) + want) : malloc(sizeof(spx_hdr) + want);
	if (!h)
		spx_die(RT_EXIT_DOMAIN, "SEMAPRAX runtime failure: out of memory");
	h->n = want;
	spx_heap_bytes += want;
	h->next = &spx_live;
	h->prev = spx_live.prev;
	spx_live.prev->next = h;
	spx_live.prev = h;
	return h + 1;
}

SPX_RT void *
spx_alloc(size_t n)
{
	return spx_alloc_block(n, 0);
}

SPX_RT void *
spx_zalloc(size_t n)
{
	return spx_alloc_block(n, 1);
}

SPX_RT void
spx_free(void *p)
{
	if (!p)
		return;
	spx_hdr *h = (spx_hdr *)p - 1;
	h->prev->next = h->next;
	h->next->prev = h->prev;
	spx_heap_bytes -= h->n;
	free(h);
}

SPX_RT void *
spx_realloc(void *p, size_t n)
{
	if (!p)
		return spx_alloc(n);
	size_t want = n ? n : 1;
	spx_hdr *h = (spx_hdr *)p - 1, *prev = h->prev, *next = h->next;
	size_t rest = spx_heap_bytes - h->n;   /* the other live blocks */
	spx_hdr *g = want <= (size_t)SPX_HEAP_LIMIT - rest ? realloc(h, sizeof(spx_hdr) + want) : NULL;
	if (!g)
		spx_die(RT_EXIT_DOMAIN, "SEMAPRAX runtime failure: out of memory");
	g->n = want;
	spx_heap_bytes = rest + want;
	prev->next = g;
	next->prev = g;
	return g + 1;
}

/* Releases every live block, newest first (the failure epilogue). */
SPX_RT void
spx_release_all(void)
{
	while (spx_live.prev != &spx_live)
		spx_free(spx_live.prev + 1);
}

/*
 * Release and copy without recursion (emit_type.c, "walks without
 * recursion"): the release or copy of a block of elements of a type that
 * can hold itself is a job, (function, block, source, count).  Called
 * outside a job, spx_run runs it and then every job it and its successors
 * add, last first, in a loop; called inside one, it only adds the job.  So
 * a list, tree or nesting of any depth is walked in constant C stack.  The
 * list is plain malloc storage kept for the run (not an owned value).
 */
typedef void (*spx_jobfn)(void *p, const void *src, size_t n);
typedef struct spx_job { spx_jobfn fn; void *p; const void *src; size_t n; } spx_job;
static spx_job *spx_jobs;
static size_t spx_njobs, spx_capjobs;
static bool spx_in_jobs;

SPX_RT void
spx_run(spx_jobfn fn, void *p, const void *src, size_t n)
{
	if (spx_in_jobs) {
		if (spx_njobs == spx_capjobs) {
			size_t cap = spx_capjobs ? spx_capjobs * 2 : 256;
			spx_job *j = cap < ((size_t)-1) / sizeof *j ? realloc(spx_jobs, cap * sizeof *j) : NULL;
			if (!j)
				spx_die(RT_EXIT_DOMAIN, "SEMAPRAX runtime failure: out of memory");
			spx_jobs = j;
			spx_capjobs = cap;
		}
		spx_jobs[spx_njobs].fn = fn;
		spx_jobs[spx_njobs].p = p;
		spx_jobs[spx_njobs].src = src;
		spx_jobs[spx_njobs].n = n;
		spx_njobs++;
		return;
	}
	spx_in_jobs = true;
	fn(p, src, n);
	while (spx_njobs > 0) {
		spx_job j = spx_jobs[--spx_njobs];
		j.fn(j.p, j.src, j.n);
	}
	spx_in_jobs = false;
}

/*
 * A closure's captured value that holds a function value lives in a cell:
 * function values are Copy (copied bitwise, never released), so a cell is
 * immutable and kept until the process ends, reachable from spx_cells.
 */
typedef struct spx_cellhdr { struct spx_cellhdr *next; max_align_t align[]; } spx_cellhdr;
static spx_cellhdr *spx_cells;

SPX_RT const void *
spx_cell(const void *p, size_t n)
{
	spx_cellhdr *h = malloc(sizeof(spx_cellhdr) + n);
	if (!h)
		spx_die(RT_EXIT_DOMAIN, "SEMAPRAX runtime failure: out of memory");
	h->next = spx_cells;
	spx_cells = h;
	memcpy(h + 1, p, n);
	return h + 1;
}

/* ---- output ---- */

typedef struct spx_buf { char *p; size_t n, cap; } spx_buf;

#ifdef SPX_STAGED
static spx_buf spx_staged[2];   /* stdout, stderr */
#endif

SPX_RT void
spx_buf_put(spx_buf *b, const void *p, size_t n)
{
	if (n == 0)
		return;
	if (b->n + n > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 64;
		while (cap < b->n + n)
			cap *= 2;
		b->p = spx_realloc(b->p, cap);
		b->cap = cap;
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

_Noreturn SPX_RT void
spx_die(int status, const char *line)
{
	fflush(stdout);
	fputs(line, stderr);
	fputc('\n', stderr);
	spx_release_all();
	exit(status);
}

/* semaprax.arithmetic.v1 codes RT_ARITH_* (LANGUAGE.md §3.7) */
_Noreturn SPX_RT void
spx_arith(int code)
{
	static const char *const what[] = {
		[RT_ARITH_ADD] = "addition overflow", [RT_ARITH_SUB] = "subtraction overflow",
		[RT_ARITH_MUL] = "multiplication overflow", [RT_ARITH_DIV_ZERO] = "invalid division",
		[RT_ARITH_DIV_OVERFLOW] = "invalid division", [RT_ARITH_REM_ZERO] = "invalid remainder",
		[RT_ARITH_REM_OVERFLOW] = "invalid remainder", [RT_ARITH_NEG] = "negation overflow",
	};
	char line[96];
#ifdef SPX_REPORT_STATUS
	/* project tests (emit_c_project): the code, which `what` does not tell apart */
	fprintf(stderr, "SEMAPRAX status: %d\n", code);
#endif
	snprintf(line, sizeof line, "SEMAPRAX checked arithmetic failure: %s", what[code]);
	spx_die(RT_EXIT_ARITH, line);
}

/* Checked +, -, *, /, % and negation, one call per operation (emit_arith).
 * After the check the signed forms return the plain operation, which
 * cannot wrap then: the optimizer learns the result's range (it tracks
 * none through the builtin's result).  Calls instead of an inline `if`
 * per operation keep a huge generated function cheap to compile: gcc's
 * -Wmisleading-indentation and clang's SROA grew quadratically with the
 * number of inline checks (20,000 additions: 16 s and 42 s), and gcc's
 * points-to analysis with the number of failure calls: one per operation. */
/* (one line per macro: the generated C never splices lines) */
#define SPX_ARITH_ADD(T, N, PLAIN) SPX_RT inline T spx_add_##N(T a, T b) { T r; if (__builtin_add_overflow(a, b, &r)) spx_arith(RT_ARITH_ADD); return PLAIN(a + b, r); }
#define SPX_ARITH_SUB(T, N, PLAIN) SPX_RT inline T spx_sub_##N(T a, T b) { T r; if (__builtin_sub_overflow(a, b, &r)) spx_arith(RT_ARITH_SUB); return PLAIN(a - b, r); }
#define SPX_ARITH_MUL(T, N, PLAIN) SPX_RT inline T spx_mul_##N(T a, T b) { T r; if (__builtin_mul_overflow(a, b, &r)) spx_arith(RT_ARITH_MUL); return PLAIN(a * b, r); }
#define SPX_ARITH_NEG(T, N, PLAIN) SPX_RT inline T spx_neg_##N(T a) { T r; if (__builtin_sub_overflow((T)0, a, &r)) spx_arith(RT_ARITH_NEG); return PLAIN(-a, r); }
#define SPX_ARITH_DIV(T, N, MIN) SPX_RT inline T spx_div_##N(T a, T b) { if (b == 0 || (MIN && a == MIN && b == (T)-1)) spx_arith(b == 0 ? RT_ARITH_DIV_ZERO : RT_ARITH_DIV_OVERFLOW); return (T)(a / b); }
#define SPX_ARITH_REM(T, N, MIN) SPX_RT inline T spx_rem_##N(T a, T b) { if (b == 0 || (MIN && a == MIN && b == (T)-1)) spx_arith(b == 0 ? RT_ARITH_REM_ZERO : RT_ARITH_REM_OVERFLOW); return (T)(a % b); }
#define SPX_ARITH_SIGNED(plain, r) ((void)(r), (plain))
#define SPX_ARITH_UNSIGNED(plain, r) (r)
#define SPX_ARITH_OPS(T, N, PLAIN, MIN) SPX_ARITH_ADD(T, N, PLAIN) SPX_ARITH_SUB(T, N, PLAIN) SPX_ARITH_MUL(T, N, PLAIN) SPX_ARITH_NEG(T, N, PLAIN) SPX_ARITH_DIV(T, N, MIN) SPX_ARITH_REM(T, N, MIN)
SPX_ARITH_OPS(int64_t, i, SPX_ARITH_SIGNED, INT64_MIN)
SPX_ARITH_OPS(int32_t, i32, SPX_ARITH_SIGNED, INT32_MIN)
/* Signed + and - of a literal (emit_arith: `k = k + 1`).  Under clang the
 * check is a comparison of the variable with a constant, which the optimizer
 * folds from a known range (a loop bound) like the C twin's plain `k++`; the
 * builtin's overflow flag it folded only late, and clang 14 then scheduled
 * bench/native floats' loop apart from the twin's (1.07x -> 1.00x with the
 * `while` breaks).  Under gcc 12 the comparison changed no program but
 * records (its loop then laid out as the twin's: 1.00x -> 1.09x) and fib
 * (spx_arith, then called once, was inlined into fn_fib: 1.10x slower), so
 * there these are the builtin helpers. */
#ifdef __clang__
#define SPX_ARITH_LIT(T, N, MIN, MAX) SPX_RT inline T spx_addk_##N(T a, T k) { if (k >= 0 ? a > MAX - k : a < MIN - k) spx_arith(RT_ARITH_ADD); return (T)(a + k); } SPX_RT inline T spx_subk_##N(T a, T k) { if (k >= 0 ? a < MIN + k : a > MAX + k) spx_arith(RT_ARITH_SUB); return (T)(a - k); }
#else
#define SPX_ARITH_LIT(T, N, MIN, MAX) SPX_RT inline T spx_addk_##N(T a, T k) { return spx_add_##N(a, k); } SPX_RT inline T spx_subk_##N(T a, T k) { return spx_sub_##N(a, k); }
#endif
SPX_ARITH_LIT(int64_t, i, INT64_MIN, INT64_MAX)
SPX_ARITH_LIT(int32_t, i32, INT32_MIN, INT32_MAX)
SPX_ARITH_OPS(uint8_t, u8, SPX_ARITH_UNSIGNED, 0)
SPX_ARITH_OPS(uint64_t, u, SPX_ARITH_UNSIGNED, 0)

/* A builtin's failure domain (LANGUAGE.md §5.2). */
_Noreturn SPX_RT void
spx_fail(const char *domain, int code)
{
	char line[160];
	snprintf(line, sizeof line, "SEMAPRAX operation failure: %s/%d", domain, code);
	spx_die(RT_EXIT_DOMAIN, line);
}

/*
 * The 256-frame call-depth bound: every generated function takes the
 * number of frames active before it (`spx_d`, 0 for main) and fails on
 * entry when that is 256 already, so no global counter is touched.
 */
__attribute__((cold, noinline)) _Noreturn SPX_RT void
spx_depth_fail(void)
{
	spx_die(RT_EXIT_DOMAIN, "SEMAPRAX runtime failure: call depth exceeded (256 frames)");
}

/* stdout_write / stderr_write: channel 0 or 1. */
SPX_RT uint64_t
spx_write(int channel, spx_view v)
{
#ifdef SPX_STAGED
	if (spx_staged[0].n + spx_staged[1].n + v.n > RT_LIMIT_OUTPUT)
		spx_fail(rt_domain_ids[RT_DOM_OUTPUT], RT_OUTPUT_FULL);
	spx_buf_put(&spx_staged[channel], v.p, v.n);
#else
	if (v.n)
		fwrite(v.p, 1, v.n, channel ? stderr : stdout);
#endif
	return v.n;
}

/* Publishes the staged channels (stderr first, TOOLCHAIN.md §1.3 item 3). */
SPX_RT void
spx_publish(void)
{
#ifdef SPX_STAGED
	if (spx_staged[1].n) {
		fwrite(spx_staged[1].p, 1, spx_staged[1].n, stderr);
		fflush(stderr);
	}
	if (spx_staged[0].n)
		fwrite(spx_staged[0].p, 1, spx_staged[0].n, stdout);
	spx_free(spx_staged[0].p);
	spx_free(spx_staged[1].p);
	memset(spx_staged, 0, sizeof spx_staged);
#endif
}

/*
 * The end of main: output that never reached standard output (a full disk,
 * a closed or read-only descriptor) is a runtime failure, exit 72 — as the
 * Wasm host reports it and as `run` reports I101 — never a silent success.
 */
SPX_RT void
spx_settle_stdout(void)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return;
	char line[160];
	snprintf(line, sizeof line, "SEMAPRAX runtime failure: cannot write standard output: %s",
		 errno ? strerror(errno) : "a write failed");
	spx_die(RT_EXIT_INVARIANT, line);
}

/* ---- the command line ---- */

/* Strict UTF-8: the shared src/rt/utf8.c (embedded before this text). */
SPX_RT bool
spx_utf8_valid(const uint8_t *p, size_t n)
{
	return rt_utf8_validate(p, n) == n;
}

/*
 * Start-up (the first thing main does): 256 frames of wide values outgrow a
 * default 8 MiB stack, so a built executable, as `run --native` does for its
 * child (src/emit_c/cc.c), runs with RLIMIT_STACK raised toward 256 MiB
 * within the hard limit.  The stack's room is laid out at exec, so once the
 * soft limit is raised the program execs itself again (/proc/self/exe, the
 * same argv and environment).  It does so only when the limit actually grew,
 * and the new image finds it at 256 MiB or at the hard limit: no loop, and no
 * marker to trust.  Otherwise (no room to grow, no /proc) it runs as it is.
 */
#define SPX_STACK_WANT ((rlim_t)256 << 20)
SPX_RT void
spx_stack_room(char **argv)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_STACK, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= SPX_STACK_WANT ||
	    (rl.rlim_max != RLIM_INFINITY && rl.rlim_max <= rl.rlim_cur))
		return;
	rlim_t was = rl.rlim_cur;
	rl.rlim_cur = rl.rlim_max != RLIM_INFINITY && rl.rlim_max < SPX_STACK_WANT ? rl.rlim_max : SPX_STACK_WANT;
	if (setrlimit(RLIMIT_STACK, &rl) != 0 || getrlimit(RLIMIT_STACK, &rl) != 0 || rl.rlim_cur <= was)
		return;
	execv("/proc/self/exe", argv);
}

/*
 * The checks `semaprax run` makes of the arguments after `--`
 * (src/cli/cmd_run.c), with its lines and usage status 2, in its order:
 * at most 16, each valid UTF-8, 65,536 bytes together, and only a
 * command-line program takes any.  0 when they pass.
 */
SPX_RT int
spx_args_check(int argc, char **argv, bool command)
{
	static const char hint[] = "\nhint: run `semaprax help run` for usage\n";
	int n = argc > 0 ? argc - 1 : 0;
	if (n == 0)
		return 0;
	if (!command) {   /* first, as `semaprax run` (qa29) */
		fputs("run passes arguments after `--` only to a command-line program; add `process.args.read` "
		      "to the module permits and read them with `args_len()` and `arg_utf8(i)`\n", stderr);
		return 2;
	}
	char why[160];
	if (rt_args_check(n, argv + 1, why)) {   /* src/rt/text.c, as `semaprax run` checks them */
		fprintf(stderr, "%s%s", why, hint);
		return 2;
	}
	return 0;
}

/* ---- strings and bytes ---- */

SPX_RT spx_str
spx_str_new(const void *p, size_t n)
{
	spx_str s = { NULL, n };
	s.p = spx_alloc(n);
	if (n)
		memcpy(s.p, p, n);
	return s;
}

SPX_RT void
spx_str_free(spx_str *s)
{
	spx_free(s->p);
	s->p = NULL;
	s->n = 0;
}

SPX_RT spx_str
spx_str_clone(const spx_str *s)
{
	return s->p ? spx_str_new(s->p, s->n) : *s;
}

SPX_RT spx_view
spx_view_of(spx_str s)
{
	spx_view v = { s.p, s.n };
	return v;
}

/* memcmp over the bytes of live objects.  Their lengths are below
 * PTRDIFF_MAX, so the mask changes nothing; it lets gcc see the bound after
 * inlining (else -Wstringop-overread "exceeds maximum object size", found by
 * tests/random-test.sh).  A zero length never reads the pointers. */
SPX_RT int
spx_memcmp(const void *a, const void *b, size_t n)
{
	return n ? memcmp(a, b, n & (size_t)PTRDIFF_MAX) : 0;
}

SPX_RT int
spx_str_cmp(const spx_str *a, const spx_str *b)
{
	return rt_bytes_cmp(a->p, a->n, b->p, b->n);
}

SPX_RT bool
spx_str_eq(const spx_str *a, const spx_str *b)
{
	return a->n == b->n && spx_memcmp(a->p, b->p, a->n) == 0;
}

SPX_RT int
spx_view_cmp(const spx_view *a, const spx_view *b)
{
	return rt_bytes_cmp(a->p, a->n, b->p, b->n);
}
