/*
 * common.h — shared includes and the internal-bug macros.
 *
 * ASSERT/UNREACHABLE are for compiler bugs only: they print the C file and
 * line and abort.  A user-facing problem is always a diagnostic (diag.h),
 * never an assert.
 */
#ifndef SPX_COMMON_H
#define SPX_COMMON_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SPX_VERSION "0.1.0"

void spx_bug(const char *file, int line, const char *msg);

#define ASSERT(cond, msg) \
	do { if (!(cond)) spx_bug(__FILE__, __LINE__, (msg)); } while (0)
#define UNREACHABLE() spx_bug(__FILE__, __LINE__, "unreachable")

#define countof(a) (sizeof(a) / sizeof((a)[0]))

/* SPX_ASAN: built with AddressSanitizer (gcc or clang). */
#if defined(__SANITIZE_ADDRESS__)
#define SPX_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SPX_ASAN 1
#endif
#endif

/*
 * A byte range in one source text.  Its line and column are not stored
 * (8 bytes, not 16, in every token and tree node): a diagnostic computes
 * them from the source when it is reported (diag.c).
 */
typedef struct Span {
	uint32_t start;  /* byte offset, inclusive */
	uint32_t end;    /* byte offset, exclusive */
} Span;

/*
 * Process-wide allocator tuning for a compiler's allocation pattern (large
 * arenas freed and reallocated per file): keep freed memory for reuse
 * instead of returning it to the OS, so repeated work does not pay page
 * faults again.  A no-op outside glibc.
 */
void spx_tune_allocator(void);

/* A block about to be written whole (a buffer sized to its text): its
 * pages are made resident in one system call, not faulted in one by one.
 * Only the time changes; a no-op where the system lacks the advice. */
void spx_prefault(void *p, size_t n);
void spx_zero(void *p, size_t n);   /* memset(p, 0, n) through libc's, out of line (a short block: not `rep stos`) */

/* Memory hooks: abort with a message on exhaustion (the only way out). */
void *spx_xmalloc(size_t n);
void *spx_xcalloc(size_t n, size_t size);
void *spx_xrealloc(void *p, size_t n);
char *spx_xstrdup(const char *s);
char *spx_xstrndup(const char *s, size_t n);
/* A printf format's text in a new block (free it); empty when vsnprintf
 * fails.  ap is consumed as by vsnprintf. */
char *spx_vformat(const char *fmt, va_list ap);

/*
 * A large block sized by an upper bound (e.g. one token per source byte):
 * from SPX_BIG_ALLOC bytes on it is an anonymous mapping, so only the pages
 * actually written cost memory, and spx_big_free returns them to the system
 * at once.  Smaller blocks come from spx_xmalloc.  Not zeroed.
 */
#define SPX_BIG_ALLOC ((size_t)1 << 20)
void *spx_big_alloc(size_t bytes, bool *mapped);
/* The same, but NULL when a large mapping is refused (a generous upper
 * bound under strict overcommit): the caller then sizes by an estimate. */
void *spx_big_reserve(size_t bytes, bool *mapped);
void spx_big_free(void *p, size_t bytes, bool mapped);
/* A mapped block's bytes [from, to) are dead, and so is everything below
 * from: the whole pages among them go back to the system (they read as
 * zeros afterwards); a heap block is left alone. */
void spx_big_release(void *p, size_t from, size_t to, bool mapped);

/*
 * Edit distance of a and b for "did you mean" help: insertions, deletions
 * and substitutions (Levenshtein), plus adjacent transpositions when
 * transpose (optimal string alignment).  SPX_EDIT_MAX bytes at most: a
 * longer string is SPX_EDIT_FAR away from everything.
 */
#define SPX_EDIT_MAX 64
#define SPX_EDIT_FAR 99
int spx_edit_distance(const char *a, const char *b, bool transpose);
/* spx_edit_distance when it is at most max, else max + 1, without the
 * cells that cannot be (did-you-mean searches over every declaration). */
int spx_edit_within(const char *a, const char *b, bool transpose, int max);

/*
 * "Did you mean" over candidates offered one by one: spx_near_best is the
 * one name one edit from want (a transposition counts one), or NULL when
 * none is, or two different names are.  `SpxNear n = { .want = w };`
 */
/*
 * Where a fix writes a line beside the one holding off: that line starts at
 * start with indent blanks; level is one more level of them (a tab when the
 * line is tab-indented, else four spaces); eol the file's line end (CRLF
 * when the line before ends so).
 */
typedef struct SpxLine {
	uint32_t start, indent;
	const char *level, *eol;
} SpxLine;
uint32_t spx_line_start(const char *src, uint32_t off);
SpxLine spx_line_at(const char *src, uint32_t off);

typedef struct SpxNear {
	const char *want;
	const char *best;
	bool tie;
} SpxNear;
void spx_near_offer(SpxNear *n, const char *cand);
const char *spx_near_best(const SpxNear *n);

/*
 * The help tables keyed by another language's word (`Vec::new`, `uses {
 * stdout }`, `v.push(x)`): the index of word in words[0..n), -1 when it is
 * absent or word is NULL; the text paired with key in pairs[0..n) of
 * {word, text}, NULL when none.
 */
int spx_word_index(const char *const *words, size_t n, const char *word);
const char *spx_word_text(const char *const (*pairs)[2], size_t n, const char *key);

/*
 * A command line held in one environment variable (`$CC` is `ccache gcc`):
 * the number of its blank- or tab-separated words (text may be NULL), and,
 * when words is given, the first max of them into words, pointing into
 * *copy (a copy of text to free; NULL when there are no words).  A count
 * above max is the caller's to refuse: no word past max is stored.
 */
int spx_split_words(const char *text, char **words, int max, char **copy);

#endif
