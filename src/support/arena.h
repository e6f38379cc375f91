/*
 * arena.h — bump allocation tied to a lifetime (one parse session).
 *
 * Everything a front-end run produces (tokens, AST, diagnostic text) lives in
 * one Arena and is released with arena_free.  Chunks come from spx_xmalloc.
 */
#ifndef SPX_ARENA_H
#define SPX_ARENA_H

#include "common.h"

typedef struct ArenaChunk ArenaChunk;
typedef struct ArenaNameBlock ArenaNameBlock;

typedef struct Arena {
	ArenaChunk *head;  /* newest chunk; owns the list */
	ArenaChunk *at;    /* the chunk [cur, lim) lies in (NULL: a taken tail) */
	char *cur;         /* next free byte in at */
	char *lim;         /* end of at */
	size_t total;      /* bytes obtained for chunks, for statistics */
	bool zeroed;       /* head is a fresh mapping: [cur, lim) is already zero */
	bool gave_tail;    /* arena_take_tail took [cur, lim): the next chunk starts small */
	void **owned;      /* heap blocks handed to the arena (arena_own) */
	int nowned, capowned;
	/* arena_expect: huge pages only for the 2 MiB units the owner expects to fill */
	bool huge_by_expect;
	size_t expect;     /* bytes the owner still expects to allocate */
	char *unit_next;   /* head's next undecided unit (NULL: none) */
	/* arena_donate: memory another owner is done with (resident, not zero) */
	char *don;         /* donated bytes not yet used, page-aligned; owned */
	size_t ndon;
	bool donated_any;  /* new mapped chunks get small pages: they fill the gaps */
	char *dend;        /* a donated current chunk's end while [lim, dend) is not yet zeroed */
	ArenaNameBlock *names;   /* arena_name_copy's blocks, newest first; owned */
	char *names_cur, *names_lim;   /* the free rest of names */
	struct {           /* a regular chunk's rest while donated memory is filled */
		char *cur, *lim, *unit_next;
		ArenaChunk *at;
		bool zeroed;
	} resume;
} Arena;

void arena_init(Arena *a);
void arena_free(Arena *a);
/* arena_alloc's whole path: a new chunk, a chunk not known zero, ASan. */
void *arena_alloc_slow(Arena *a, size_t n);

/* Zeroed, 8-byte aligned.  Inline: nearly every call bumps a pointer in a
 * fresh (zero) mapping, cheaper than the call was. */
static inline void *
arena_alloc(Arena *a, size_t n)
{
#ifndef SPX_ASAN
	n = (n + 7) & ~(size_t)7;
	if (n == 0)
		n = 8;
	if (a->zeroed && (size_t)(a->lim - a->cur) >= n) {
		void *p = a->cur;
		a->cur += n;
		return p;
	}
#endif
	return arena_alloc_slow(a, n);
}
/* Hands a heap block (from spx_xmalloc/spx_xrealloc) to the arena: freed by arena_free. */
void arena_own(Arena *a, void *p);
/*
 * A fresh arena `to` (arena_init, nothing allocated) allocates first from the
 * unused rest of from's newest chunk, which from gives up: a later stage's
 * tables fill the page the earlier stage's tree left half used instead of
 * mapping a chunk of their own.  `to` must be freed before `from`; `from`
 * may go on allocating (from a new chunk, started small).
 */
void arena_take_tail(Arena *to, Arena *from);
/*
 * The owner expects to allocate about `bytes` more (a parser: its tree for
 * the tokens still to come).  From the first call on (until arena_expect_end)
 * a mapped chunk's 2 MiB units get huge pages only when the expectation
 * fills most of them: the last, partly used unit of a tree costs its pages,
 * not a whole huge page.  Call it often (it costs a compare unless the
 * cursor nears an undecided unit).
 */
void arena_expect(Arena *a, size_t bytes);
void arena_expect_end(Arena *a);
/*
 * Hands the arena [p, p + n): page-aligned whole pages of an anonymous
 * mapping (spx_big_reserve's) that its owner no longer reads, resident
 * already.  The arena owns them from now on (munmap at arena_free) and
 * fills them (zeroed once, in user space) before its regular chunks: a
 * parser's tree reuses the pages of the tokens behind it instead of
 * faulting in fresh ones.  Donations are expected in address order; one
 * that does not continue the previous is kept instead of it.
 */
void arena_donate(Arena *a, void *p, size_t n);
/*
 * The arena takes [p, p + n) (page-aligned whole pages of an anonymous
 * mapping, n > 64) and unmaps it at arena_free, never allocating from it;
 * returns where its owner's bytes start (16-byte aligned, n - 64 of them).
 */
void *arena_adopt(Arena *a, void *p, size_t n);
/* Bytes handed out from chunks so far (the given-away tails included). */
size_t arena_used(const Arena *a);
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_printf(Arena *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Names with their hash carried (a parser's interned identifiers).
 *
 * arena_name_hash is the one hash of a spelling: the parser's intern table
 * and sema's string maps both place keys by it.  Eight bytes a step (each
 * word xored in and mixed by a multiply and a shift), the length seeding the
 * state and the tail under eight bytes read as one word (two overlapping
 * four-byte loads, or three bytes): every byte counts.
 *
 * arena_name_copy copies b[0..len) (holding no NUL; NUL-terminated) into the name region, a
 * process-wide reservation of address space handed out in blocks to the
 * arenas that copy names (returned at arena_free), with the hash and the
 * length in the 8 bytes in front of the copy.  arena_str_hash(s) and
 * arena_str_len(s) of a string in the region read them (one compare decides: only such copies
 * live there); of any other string it computes them.  A name the region
 * cannot hold (it is full, or not reserved) is an arena_strndup copy, found
 * by the computed path.  The region's block list is process state, used
 * from one thread.
 */
static inline uint32_t
arena_name_hash(const char *b, size_t len)
{
	uint64_t x = 0x9E3779B97F4A7C15u ^ len, w;
	size_t at = 0;
	for (; at + 8 <= len; at += 8) {
		__builtin_memcpy(&w, b + at, 8);
		x = (x ^ w) * 0xBF58476D1CE4E5B9u;
		x ^= x >> 31;
	}
	const char *t = b + at;
	size_t n = len - at;
	if (n >= 4) {
		uint32_t hi, lo;
		__builtin_memcpy(&hi, t, 4);
		__builtin_memcpy(&lo, t + n - 4, 4);
		w = (uint64_t)hi << 32 | lo;
	} else {
		w = n ? (uint64_t)(unsigned char)t[0] << 16 | (uint64_t)(unsigned char)t[n / 2] << 8 | (unsigned char)t[n - 1] : 0;
	}
	x = (x ^ w) * 0x94D049BB133111EBu;
	return (uint32_t)(x ^ (x >> 32));
}

extern char *arena_names_base;   /* the name region (NULL: not reserved) */
extern size_t arena_names_size;

const char *arena_name_copy(Arena *a, const char *b, uint32_t len, uint32_t hash);

static inline bool
arena_is_name(const char *s)
{
	return (uintptr_t)s - (uintptr_t)arena_names_base < arena_names_size;
}

/* The 8-byte header of a name in the region, read through the region's
 * own pointer (s may be a caller's array as far as a compiler knows). */
static inline const char *
arena_name_header(const char *s)
{
	return arena_names_base + ((uintptr_t)s - (uintptr_t)arena_names_base) - 8;
}

/* strlen(s), read from the copy's header for a name in the region (its
 * bytes hold no NUL: arena_name_copy is given identifiers only). */
static inline size_t
arena_str_len(const char *s)
{
	uint32_t n;
	if (arena_is_name(s)) {
		__builtin_memcpy(&n, arena_name_header(s) + 4, 4);
		return n;
	}
	return __builtin_strlen(s);
}

static inline uint32_t
arena_str_hash(const char *s)
{
	uint32_t h;
	if (arena_is_name(s)) {
		__builtin_memcpy(&h, arena_name_header(s), 4);
		return h;
	}
	return arena_name_hash(s, __builtin_strlen(s));
}

#define ARENA_NEW(a, T) ((T *)arena_alloc((a), sizeof(T)))
#define ARENA_ARRAY(a, T, n) ((T *)arena_alloc((a), sizeof(T) * (size_t)(n)))

#endif
