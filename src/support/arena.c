/*
 * arena.c — bump allocator.  Chunks double in size up to 1 MiB; a request
 * larger than a chunk gets a chunk of its own.
 *
 * Under AddressSanitizer every allocation is a heap block of its own (owned
 * by the arena), so a read or write past a node's size is reported: nodes
 * are allocated at the size of their kind (parse_expr.c's expr_size), and
 * this is what checks that no code reaches past it.
 */
/* MADV_HUGEPAGE and MADV_NOHUGEPAGE are outside POSIX 2008's headers. */
#define _DEFAULT_SOURCE

#include "arena.h"

#include <sys/mman.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct ArenaChunk {
	ArenaChunk *next;
	size_t size;
	bool mapped;     /* from spx_big_alloc's mapping: zero-filled, untouched */
	bool donated;    /* arena_donate's memory (mapped; zeroed when it became a chunk) */
	/* payload follows, 16-byte aligned */
	max_align_t data[];
};

void
arena_init(Arena *a)
{
	memset(a, 0, sizeof *a);
}

static void names_free(Arena *a);

void
arena_free(Arena *a)
{
	names_free(a);
	for (int i = 0; i < a->nowned; i++)
		free(a->owned[i]);
	free(a->owned);
	ArenaChunk *c = a->head;
	while (c) {
		ArenaChunk *next = c->next;
		spx_big_free(c, sizeof(ArenaChunk) + c->size, c->mapped);
		c = next;
	}
	if (a->ndon)
		spx_big_free(a->don, a->ndon, true);
	memset(a, 0, sizeof *a);
}

#define UNIT ((size_t)2 << 20)   /* a huge page; spx_big_reserve aligns mappings from here on */

/* Whether the unit starting at u (2 MiB aligned) should get huge pages: the
 * owner's expectation fills at least three quarters of it.  A wrong guess
 * costs a partly used huge page (memory) or 512 small faults (time). */
static bool
unit_wanted(const Arena *a, const char *from, const char *u)
{
	uintptr_t fill_end = (uintptr_t)from + a->expect;
	return fill_end > (uintptr_t)u && fill_end - (uintptr_t)u >= UNIT / 4 * 3;
}

static void
unit_advise(char *u, size_t n, bool huge)
{
#if defined(MADV_HUGEPAGE) && defined(MADV_NOHUGEPAGE)
	madvise(u, n, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
#else
	(void)u, (void)n, (void)huge;
#endif
}

/* Decides the units the cursor is about to enter (within 64 KiB); one it
 * has entered already was faulted in with small pages. */
static void
units_decide(Arena *a)
{
	while (a->unit_next && a->cur > a->unit_next)
		a->unit_next = a->unit_next + UNIT < a->lim ? a->unit_next + UNIT : NULL;
	while (a->unit_next && (size_t)(a->unit_next - a->cur) <= ((size_t)64 << 10)) {
		if (a->unit_next >= a->lim) {
			a->unit_next = NULL;
			break;
		}
		size_t n = (size_t)(a->lim - a->unit_next);
		if (unit_wanted(a, a->cur, a->unit_next))
			unit_advise(a->unit_next, n < UNIT ? n : UNIT, true);
		a->unit_next = n > UNIT ? a->unit_next + UNIT : NULL;
	}
}

void
arena_expect(Arena *a, size_t bytes)
{
#ifdef SPX_ASAN
	(void)a, (void)bytes;
	return;
#endif
	a->huge_by_expect = true;
	a->expect = bytes;
	units_decide(a);
}

void
arena_expect_end(Arena *a)
{
	a->huge_by_expect = false;
	a->unit_next = NULL;
}

size_t
arena_used(const Arena *a)
{
	return a->total - (size_t)((a->dend ? a->dend : a->lim) - a->cur) - (size_t)(a->resume.lim - a->resume.cur);
}

static bool arena_switch(Arena *a, size_t n);
#define ZERO_WINDOW ((size_t)64 << 10)
#define DON_KEEP ((size_t)256 << 10)

void
arena_donate(Arena *a, void *p, size_t n)
{
	if (!n)
		return;
#ifdef SPX_ASAN
	/* every allocation is a heap block of its own: nothing to fill */
	spx_big_free(p, n, true);
	(void)a;
	return;
#endif
	if (a->ndon && a->don + a->ndon == (char *)p) {
		a->ndon += n;
	} else {
		if (a->ndon)
			spx_big_free(a->don, a->ndon, true);
		a->don = p;
		a->ndon = n;
	}
	a->donated_any = true;
	/* A parser donates every 256 KiB of dead tokens, between items; one
	 * huge item donates them all at once.  What the arena has not used
	 * stays resident only up to DON_KEEP (the newest bytes): the rest goes
	 * back now, as a release would have returned it. */
	if (a->ndon > DON_KEEP) {
		size_t drop = a->ndon - DON_KEEP;
		spx_big_free(a->don, drop, true);
		a->don += drop;
		a->ndon = DON_KEEP;
	}
	/* Filled before any regular chunk (whose untouched pages cost nothing
	 * yet): the arena moves there now, the chunk it leaves is resumed. */
	if (a->at && !a->at->donated && a->ndon >= sizeof(ArenaChunk) + ZERO_WINDOW)
		arena_switch(a, 8);
}

void *
arena_adopt(Arena *a, void *p, size_t n)
{
	/* a chunk of its own, donated (so never the one regular chunks size by) */
	ASSERT(sizeof(ArenaChunk) <= 64 && n > 64, "arena_adopt: no room");
	ArenaChunk *c = p;
	c->size = n - sizeof(ArenaChunk);
	c->mapped = true;
	c->donated = true;
	c->next = a->head;
	a->head = c;
	return (char *)p + 64;
}

/* Whether [cur, lim) is worth keeping for later: a regular chunk's rest. */
static size_t
region_left(const Arena *a)
{
	return a->at && !a->at->donated ? (size_t)(a->lim - a->cur) : 0;
}

/* Zeroes the donated chunk's next window (at least n bytes past the cursor;
 * the caller knows they fit before dend).  No MADV_POPULATE_WRITE first: a
 * donation is token pages the lexer wrote, resident already, so the call
 * found nothing to fault and cost ~2-6 us each, 72 a 48k-line `check`
 * (perf39). */
static void
zero_more(Arena *a, size_t n)
{
	size_t want = n > ZERO_WINDOW ? n : ZERO_WINDOW;
	char *to = (size_t)(a->dend - a->cur) > want ? a->cur + want : a->dend;
	memset(a->lim, 0, (size_t)(to - a->lim));
	a->lim = to;
	if (a->lim == a->dend)
		a->dend = NULL;
}

/* Moves the allocation cursor to donated memory (zeroed now, whole) or
 * back to the regular chunk it left; false: neither holds n bytes. */
static bool
arena_switch(Arena *a, size_t n)
{
	if (a->ndon >= sizeof(ArenaChunk) + n) {
		ArenaChunk *c = (ArenaChunk *)(void *)a->don;
		size_t bytes = a->ndon;
		if (region_left(a) > (size_t)(a->resume.lim - a->resume.cur)) {
			a->resume.cur = a->cur;
			a->resume.lim = a->lim;
			a->resume.at = a->at;
			a->resume.zeroed = a->zeroed;
			a->resume.unit_next = a->unit_next;
		}
		c->size = bytes - sizeof(ArenaChunk);
		c->mapped = true;
		c->donated = true;
		c->next = a->head;
		a->head = c;
		a->at = c;
		a->cur = (char *)c->data;
		a->lim = a->cur + c->size;
		a->zeroed = true;
		a->unit_next = NULL;
		a->total += c->size;
		a->don = NULL;
		a->ndon = 0;
		/* zeroed a window at a time, as the cursor reaches it: what the
		 * arena never fills is not written (nor made resident again) */
		a->dend = a->lim;
		a->lim = a->cur;
		zero_more(a, n);
		return true;
	}
	if ((size_t)(a->resume.lim - a->resume.cur) >= n) {
		a->dend = NULL;
		a->cur = a->resume.cur;
		a->lim = a->resume.lim;
		a->at = a->resume.at;
		a->zeroed = a->resume.zeroed;
		a->unit_next = a->resume.unit_next;
		memset(&a->resume, 0, sizeof a->resume);
		return true;
	}
	return false;
}

/*
 * Chunks double from 16 KiB up to 4 MiB.  From 1 MiB on they are
 * anonymous mappings (spx_big_alloc): zero-filled, so allocations from them
 * skip the memset, and their pages cost memory only once written.
 */
static void
arena_grow(Arena *a, size_t need)
{
	ArenaChunk *last = a->head;   /* the newest regular chunk sets the next size */
	while (last && last->donated)
		last = last->next;
	size_t size = last && !a->gave_tail ? last->size * 2 : 16384;
	if (size > ((size_t)4 << 20))
		size = (size_t)4 << 20;
	if (size < need)
		size = need;
	bool mapped;
	size_t bytes = sizeof(ArenaChunk) + size;
	ArenaChunk *c = spx_big_alloc(bytes, &mapped);
	/* Under arena_expect, a huge-page mapping's units are decided one by
	 * one (before the header's write faults the first). */
	char *units = mapped && bytes >= UNIT && (a->huge_by_expect || a->donated_any) ? (char *)c : NULL;
	if (units) {
		unit_advise(units, bytes, false);
		/* Beside donated memory a chunk only fills gaps: small pages. */
		if (a->donated_any)
			units = NULL;
		else if (unit_wanted(a, (char *)c->data + need, units))
			unit_advise(units, UNIT, true);
	}
	c->size = size;
	c->mapped = mapped;
	c->donated = false;
	c->next = a->head;
	a->head = c;
	a->at = c;
	a->dend = NULL;
	a->cur = (char *)c->data;
	a->lim = a->cur + size;
	a->zeroed = mapped;
	a->gave_tail = false;
	a->total += size;
	a->unit_next = units && bytes > UNIT ? units + UNIT : NULL;
}

void
arena_take_tail(Arena *to, Arena *from)
{
	ASSERT(!to->head && to->cur == to->lim, "arena_take_tail into a used arena");
	if (!from || from->cur == from->lim)
		return;
	to->cur = from->cur;
	to->lim = from->lim;
	to->zeroed = from->zeroed;
	to->dend = from->dend;
	from->dend = NULL;
	/* donated memory not yet used goes along (the taker is freed first) */
	to->don = from->don;
	to->ndon = from->ndon;
	to->donated_any = from->donated_any;
	from->don = NULL;
	from->ndon = 0;
	/* The untouched rest of a mapped chunk goes back to the system (whole
	 * pages above the last byte written; a huge page is split): the taker
	 * faults in only the pages it fills, so a tree that ends early in its
	 * last huge page does not keep the rest of it resident. */
	if (from->zeroed && from->at && from->at->mapped && !from->at->donated) {
		char *base = (char *)from->at->data;
		size_t page = (size_t)sysconf(_SC_PAGESIZE);
		uintptr_t lo = ((uintptr_t)from->cur + page - 1) & ~(uintptr_t)(page - 1);
		if (lo < (uintptr_t)from->lim)
			spx_big_release(base, (size_t)(lo - (uintptr_t)base), (size_t)(from->lim - base), true);
	}
	from->cur = from->lim;
	from->gave_tail = true;
	from->unit_next = NULL;
	/* A regular chunk's rest left for donated memory: its untouched pages go back. */
	if (from->resume.at && from->resume.zeroed && from->resume.at->mapped) {
		char *base = (char *)from->resume.at->data;
		size_t page = (size_t)sysconf(_SC_PAGESIZE);
		uintptr_t lo = ((uintptr_t)from->resume.cur + page - 1) & ~(uintptr_t)(page - 1);
		if (lo < (uintptr_t)from->resume.lim)
			spx_big_release(base, (size_t)(lo - (uintptr_t)base), (size_t)(from->resume.lim - base), true);
	}
	memset(&from->resume, 0, sizeof from->resume);
}

void *
arena_alloc_slow(Arena *a, size_t n)
{
#ifdef SPX_ASAN
	void *b = spx_xcalloc(1, n);
	arena_own(a, b);
	return b;
#endif
	n = (n + 7) & ~(size_t)7;
	if (n == 0)
		n = 8;
	if ((size_t)(a->lim - a->cur) < n && a->dend && (size_t)(a->dend - a->cur) >= n)
		zero_more(a, n);
	if ((size_t)(a->lim - a->cur) < n && !arena_switch(a, n))
		arena_grow(a, n);
	void *p = a->cur;
	a->cur += n;
	if (!a->zeroed)
		memset(p, 0, n);
	return p;
}

void
arena_own(Arena *a, void *p)
{
	if (!p)
		return;
	if (a->nowned == a->capowned) {
		a->capowned = a->capowned ? a->capowned * 2 : 8;
		a->owned = spx_xrealloc(a->owned, sizeof(void *) * (size_t)a->capowned);
	}
	a->owned[a->nowned++] = p;
}

char *
arena_strndup(Arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);
	if (n)   /* s may be NULL when n == 0 */
		memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
arena_printf(Arena *a, const char *fmt, ...)
{
	/* Short texts (nearly all) are formatted once, into a stack buffer. */
	char small[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	ASSERT(n >= 0, "vsnprintf failed");
	char *p = arena_alloc(a, (size_t)n + 1);
	if ((size_t)n < sizeof small) {
		memcpy(p, small, (size_t)n + 1);
		return p;
	}
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

/* ==== the name region ======================================================== */

/* 8 MiB of address space, reserved, not committed: it counts against a
 * process's address-space limit (`ulimit -v`), so it stays small; a 48,000-
 * line file's names fill ten blocks, and past the last block names are
 * arena copies again. */
#define NAMES_BLOCK ((size_t)8 << 10)
#define NAMES_BLOCKS 1024

struct ArenaNameBlock {
	ArenaNameBlock *next;   /* the owning arena's older block */
	uint64_t pad;           /* (copies start 16-byte aligned, their header at 8) */
};

char *arena_names_base;
size_t arena_names_size;
static uint32_t names_next;                  /* blocks never handed out start here */
static uint16_t names_spare[NAMES_BLOCKS];   /* blocks given back, a stack */
static uint32_t names_nspare;
static bool names_tried;

static ArenaNameBlock *
names_block(void)
{
	if (!names_tried) {
		names_tried = true;
		void *p = mmap(NULL, NAMES_BLOCK * NAMES_BLOCKS, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (p != MAP_FAILED) {
#ifdef MADV_NOHUGEPAGE
			madvise(p, NAMES_BLOCK * NAMES_BLOCKS, MADV_NOHUGEPAGE);   /* blocks of two pages, mostly a few in use */
#endif
			arena_names_base = p;
			arena_names_size = NAMES_BLOCK * NAMES_BLOCKS;
		}
	}
	uint32_t i;
	if (names_nspare)
		i = names_spare[--names_nspare];
	else if (arena_names_size && names_next < NAMES_BLOCKS)
		i = names_next++;
	else
		return NULL;
	return (ArenaNameBlock *)(void *)(arena_names_base + NAMES_BLOCK * i);
}

static void
names_free(Arena *a)
{
	for (ArenaNameBlock *b = a->names, *next; b; b = next) {
		next = b->next;
		names_spare[names_nspare++] = (uint16_t)(((char *)b - arena_names_base) / NAMES_BLOCK);
	}
	a->names = NULL;
	a->names_cur = a->names_lim = NULL;
}

const char *
arena_name_copy(Arena *a, const char *b, uint32_t len, uint32_t hash)
{
	size_t need = ((size_t)len + 1 + 8 + 7) & ~(size_t)7;
	if (need > (size_t)(a->names_lim - a->names_cur)) {
		ArenaNameBlock *blk = need <= NAMES_BLOCK - sizeof *blk ? names_block() : NULL;
		if (!blk)
			return arena_strndup(a, b, len);
		blk->next = a->names;
		a->names = blk;
		a->names_cur = (char *)(blk + 1);
		a->names_lim = (char *)blk + NAMES_BLOCK;
	}
	char *p = a->names_cur;
	memcpy(p, &hash, 4);
	memcpy(p + 4, &len, 4);
	memcpy(p + 8, b, len);
	p[8 + len] = '\0';
	a->names_cur += need;
	return p + 8;
}
