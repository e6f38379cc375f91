/*
 * rt.h — the one runtime both lanes share (issue 10 item 1).
 *
 * src/rt/ is plain C11 over libc (POSIX for fs.c): it includes nothing else
 * under src/.  Its .c files are compiled into the semaprax binary, where the
 * interpreter calls them through this header, and embedded verbatim as text
 * (tools/embed_rt.sh) into every generated C program that needs them; there
 * the generated prelude defines RT_API as `static __attribute__((unused))`
 * before the text, so this header is not included and nothing is exported.
 * num.c, float.c, utf8.c, text.c and heap.c are also compiled freestanding for wasm32 (the
 * Wasm lane's runtime module, tools/build_rt_wasm.sh): they use nothing of
 * libc beyond memcpy/memmove/memset/memcmp (src/rt/wasm32/string.h); what
 * needs more (args.c; fs.c, host.c, stream.c) stays hosted.
 */
#ifndef SPX_RT_RT_H
#define SPX_RT_RT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "domains.h"

#define RT_API

/* ---- fs.c: path confinement for file_read_text (LANGUAGE.md §5.1) ---- */

/* 1..4,096 bytes, relative, nonempty components other than `.`/`..`, no NUL, `\` or `:`. */
bool rt_fs_path_valid(const uint8_t *p, size_t n);
/* errno to a semaprax.filesystem.v1 status (2, 5, 6 or 7). */
uint32_t rt_fs_status(int e);
/* Opens the regular file at a valid path below the working directory into
 * *fd (one component at a time, O_NOFOLLOW, links resolved within the
 * working directory; a non-regular last component is refused unopened).
 * Returns 0 or a filesystem status. */
uint32_t rt_fs_open_regular(const uint8_t *p, size_t n, int *fd);
/* Whether the valid path p[0..n) lies below the write root (NULL or "":
 * anywhere below the working directory; else a valid path: p starts with
 * its components). */
bool rt_fs_below(const uint8_t *p, size_t n, const char *root);
/* Whether root (`--allow-write=DIR`) is a valid path naming a directory
 * reached from the working directory without symbolic links. */
bool rt_fs_root_valid(const char *root);
/* The reason line (no newline) of a refused `--allow-write=DIR`, one text
 * for `semaprax run`/`test`, the built executable and the Wasm host: the
 * rule, then why when that is plain (DIR does not exist: create it first;
 * DIR is a file), else the rule's wording; DIR's control bytes and bytes
 * that are not UTF-8 shown as \xNN, C1 controls as \u{NN}.  Writes at most
 * cap bytes, NUL-terminated, into out; returns the whole line's length.
 * rt_fs_root_refusal decides why (lstat) and writes rt_fs_root_line's text
 * (text.c, freestanding: the Wasm host asks the runtime module for it,
 * giving why from its own lstat, src/emit_wasm/host/host.mjs). */
size_t rt_fs_root_refusal(const char *root, char *out, size_t cap);
size_t rt_fs_root_line(const uint8_t *root, size_t n, uint32_t why, char *out, size_t cap);   /* why: 1 missing, 2 a file, else the rule */
/* file_write_new (atomic false) or file_write_atomic of d[0..dn) at the
 * valid path p[0..n), whose directory must resolve below root (NULL: the
 * working directory); 0 or a filesystem status (fs.c). */
uint32_t rt_fs_write(const uint8_t *p, size_t n, const uint8_t *d, size_t dn, bool atomic, const char *root);

/* ---- host.c: stdin, the environment snapshot, the clock ---- */

/* Reads stdin to its end into buf (cap + 1 bytes): 0 with *n, or
 * RT_CMDIN_FULL past cap bytes, RT_CMDIN_STDIN on a read error. */
uint32_t rt_stdin_read(uint8_t *buf, size_t cap, size_t *n);
/* The environment snapshot: env's entries (NAME=value) sorted by name
 * bytes into order[0..*count) (room for RT_LIMIT_ENV_ENTRIES); 0, or
 * RT_ENV_FULL (over 256 entries or 65,536 bytes), RT_ENV_INVALID (an entry
 * without `=`, an empty name, text that is not UTF-8, a repeated name). */
uint32_t rt_env_snapshot(char *const *env, const char **order, size_t *count);
/* The name (before the first `=`) and value of a snapshot entry. */
size_t rt_env_name_len(const char *entry);
/* Milliseconds since the Unix epoch (CLOCK_REALTIME). */
int64_t rt_clock_now_ms(void);
#if defined(__wasm__)
/* The Wasm runtime's snapshot over its host's entries (host.c). */
uint32_t rt_env_entry(char *const *env, uint64_t index, uint32_t which, uint32_t *out);
#endif

/* ---- stream.c: the stdin stream (stdin_stream_open/next) ---- */

/* One read(2) of stdin into buf[0..cap) (EINTR retried): 0 with *n (0 at
 * end of input), or RT_CMDIN_STDIN on a read error. */
uint32_t rt_stdin_chunk(uint8_t *buf, size_t cap, size_t *n);

/* ---- utf8.c: strict UTF-8 (RFC 3629) ---- */

/* One scalar at s[0..n): its length 1-4 and *cp, or 0 when ill-formed. */
int rt_utf8_decode(const uint8_t *s, size_t n, uint32_t *cp);
/* Offset of the first ill-formed byte of s[0..n), or n when valid. */
size_t rt_utf8_validate(const uint8_t *s, size_t n);
/* Whether v is a Unicode scalar value (char_from_i64). */
bool rt_utf8_scalar(int64_t v);
/* Encodes the scalar c into out; returns the length 1-4. */
size_t rt_utf8_encode(uint32_t c, uint8_t out[4]);
/* The scalars of valid UTF-8 s[0..n) (string_len_chars): its non-continuation bytes. */
int64_t rt_utf8_count(const uint8_t *s, size_t n);

/* ---- num.c: float total order, integer decimal text and parsing, checked conversions ---- */

/* IEEE total order keys (vec_sort): compare the keys as signed integers. */
int64_t rt_total_key64(double d);
int32_t rt_total_key32(float f);
/* Decimal text of a magnitude (with `-` when negative) into the end of
 * buf[32]; returns where the text starts. */
char *rt_decimal(char buf[32], uint64_t magnitude, bool negative);
/* string_to_i64 (LANGUAGE.md §5.1): an optional `-`, then one or more ASCII
 * digits, nothing else, within i64; true with *out, else false. */
bool rt_parse_i64(const uint8_t *p, size_t n, int64_t *out);
/* i64_from_f64: truncates toward zero into *out; 0, or the convert.v1 code
 * (RT_CONVERT_FROM_NAN, RT_CONVERT_RANGE). */
uint32_t rt_i64_from_f64(double d, int64_t *out);
/* The checked integer conversions: 0 when v fits, else RT_CONVERT_RANGE. */
uint32_t rt_usize_from_i64(int64_t v);
uint32_t rt_i64_from_usize(uint64_t v);
uint32_t rt_u8_from_i64(int64_t v);

/* ---- float.c: float text (freestanding: also in the wasm32 runtime) ---- */

/* The canonical text of a float (LANGUAGE.md §0.11): the shortest digits
 * that round-trip (to a float when f32), positional, `.0` when integral,
 * `NaN` (any sign), `inf`, `-inf`, `-0.0`; f32 appends the suffix `f32` to a finite value.
 * Writes at most 351 bytes and a NUL into out; returns the length. */
size_t rt_float_text(char out[352], double v, bool f32);

/* ---- text.c: substring search, byte order, char literals, slices, trim, format scan ---- */

/* First offset >= from (from <= hl) where n[0..nl) occurs in h[0..hl), or
 * -1.  A naive search: *work (when not NULL) grows by one per position
 * tried plus nl per first-byte match, which the interpreter charges. */
int64_t rt_find(const uint8_t *h, size_t hl, const uint8_t *n, size_t nl, size_t from, size_t *work);
/* Byte order (unsigned bytes, then length): -1, 0 or 1.  The order of
 * strings, views and byte buffers in comparisons and Map/Set keys. */
int rt_bytes_cmp(const uint8_t *a, size_t la, const uint8_t *b, size_t lb);
/* The canonical source text of the char cp (LANGUAGE.md §0.11): `'a'`,
 * `'\n'`, `'\u{e9}'`; at most 15 bytes and a NUL into out; the length. */
size_t rt_char_literal(char out[16], uint32_t cp);
/* string_slice's bounds on s[0..n): 0 when 0 <= start <= end <= n and
 * neither bound splits a UTF-8 character, else RT_TEXT_RANGE or RT_TEXT_SPLIT. */
uint32_t rt_slice_check(const uint8_t *s, size_t n, int64_t start, int64_t end);
/* string_trim: the length of p[0..n) without leading and trailing ASCII
 * whitespace (space, \t, \n, \v, \f, \r); *start receives where it begins. */
size_t rt_trim(const uint8_t *p, size_t n, size_t *start);
/* The byte-buffer v2 writes' selector (bytes_set1_or5_from_slice, wide48
 * false; bytes_set1_or6_or48_from_slice, true): high bit clear, store one
 * byte (*width 1); set, copy *width 5 (or 6, or 48 when bit 62 is set and
 * wide48) source bytes from *from. */
void rt_bytes_selector(uint64_t sel, bool wide48, uint64_t *width, uint64_t *from);
/* The byte-buffer writes (bytes_set5 and the selector forms): the whole
 * interval b[at, at + width) is checked against n before any store
 * (RT_BYTEBUF_INDEX, else 0); then bytes[0..width), or src from `from`
 * (bytes past its end sn read 0). */
uint32_t rt_bytes_write(uint8_t *b, size_t n, uint64_t at, uint64_t width, const uint8_t *bytes, const uint8_t *src, size_t sn,
			uint64_t from);
/* string_format's template t[0..n) from *at: returns where the literal text
 * t[*at..ret) ends, and what follows it in *kind: RT_FORMAT_END (nothing),
 * RT_FORMAT_HOLE (`{}`), RT_FORMAT_BRACE (`{{` or `}}`: the brace t[ret] is
 * literal text); *at moves past it. */
size_t rt_format_scan(const uint8_t *t, size_t n, size_t *at, int *kind);

/* ---- heap.c: the Wasm lane's allocator and its allocating string operations ---- */

/* The heap is the arena [base, base + size) (on wasm32: from base to the end
 * of linear memory, grown by memory.grow); every block is released before
 * (re)initialising. */
void rt_heap_init(void *base, size_t size);
/* A block of n bytes, or NULL when the heap cannot grow. */
void *rt_alloc(size_t n);
/* The same, zeroed (bytes_zeroed). */
void *rt_zalloc(size_t n);
/* Releases a block; addresses outside the heap (static data, 0) are ignored. */
void rt_free(void *p);
/* A block kept for the run and not counted by rt_heap_live (a closure's
 * captured function value: function values are Copy, never released). */
void *rt_cell_alloc(size_t n);
/* Blocks allocated and not released (the leak check at exit). */
size_t rt_heap_live(void);
/* A new block holding p[0..n), or NULL. */
void *rt_str_copy(const void *p, size_t n);
/* p itself when outside the heap (static text lives for the run), else a copy. */
void *rt_str_own(const void *p, size_t n);
/* The owned text p[0..n) followed by q[0..m): in place when p's block has
 * room, else a new block (p released); NULL when out of memory. */
void *rt_str_append(void *p, size_t n, const void *q, size_t m);
/* string_concat: consumes a and b, returns a[0..an) b[0..bn) (or NULL). */
void *rt_str_concat(void *a, size_t an, void *b, size_t bn);
/* A new block of cap bytes starting with p[0..used) (a Vec's clone), or NULL. */
void *rt_block_clone(const void *p, size_t cap, size_t used);
/* The same, releasing p (vec_reserve_exact's growth). */
void *rt_block_grow(void *p, size_t used, size_t cap);
/* vec_sort over the Wasm lane's layout (every flat value in an 8-byte slot):
 * n elements of esz bytes ordered by their first slot as a signed or
 * unsigned integer, an f64/f32 in IEEE total order (rt_total_key64/32), or
 * by the string (address, length) in their first two. */
enum { RT_SORT_SIGNED, RT_SORT_UNSIGNED, RT_SORT_STRING, RT_SORT_F64, RT_SORT_F32 };
void rt_sort_slots(void *p, size_t n, size_t esz, int kind);
/* Map/Set keys in the same layout (sorted by that order): the index of key
 * among the n keys of esz bytes at keys, or -(insertion point) - 1. */
int32_t rt_slot_find(const void *keys, size_t n, size_t esz, const void *key, int kind);
/* Opens a gap at pos among len elements (room for len + 1) / closes the one at pos. */
void rt_slots_open(void *p, size_t len, size_t esz, size_t pos);
void rt_slots_close(void *p, size_t len, size_t esz, size_t pos);

/* ---- args.c: a command's arguments (hosted libc: not in the wasm32 runtime) ---- */

/* The checks `semaprax run` and a native command-line program make of the
 * n arguments after `--`, in order: at most RT_LIMIT_ARGS, each valid
 * UTF-8, RT_LIMIT_ARG_BYTES together.  0, or the length of the refusal's
 * line (no newline) written into why. */
size_t rt_args_check(int n, char *const *args, char why[160]);

/* ---- coll.c: Vec capacity, Map/Set key search ---- */

/* vec_reserve_exact's capacity: *want = len + add; 0, or RT_VEC_ALLOC past
 * RT_LIMIT_VEC_CAPACITY (the caller grows to *want when it exceeds cap). */
uint32_t rt_vec_reserve_target(uint64_t len, uint64_t add, uint64_t *want);

/* Index of the element equal to key among the n sorted elements of size
 * bytes at keys, or -(insertion point) - 1; cmp(element, key, ctx) orders
 * an element against the key (<0, 0, >0). */
long rt_sorted_find(const void *keys, size_t n, size_t size, const void *key,
		    int (*cmp)(const void *elem, const void *key, void *ctx), void *ctx);

#endif
