/*
 * sha256.h — SHA-256 (FIPS 180-4), streaming, for revisions and digests.
 */
#ifndef SPX_SHA256_H
#define SPX_SHA256_H

#include "common.h"

typedef struct Sha256 {
	uint32_t h[8];
	uint64_t len;          /* bytes hashed so far */
	unsigned char buf[64]; /* pending partial block */
	size_t nbuf;
} Sha256;

void sha256_init(Sha256 *s);
void sha256_update(Sha256 *s, const void *data, size_t n);
void sha256_final(Sha256 *s, unsigned char out[32]);

/* Tests: true makes every later hash use the portable C compression even
 * where the processor's SHA extensions would be used. */
void sha256_portable_only(bool on);
/* Tests: every later hash uses the portable rounds built for BMI2 (plain
 * portable C where the processor lacks BMI2), until sha256_portable_only. */
void sha256_bmi2_only(void);

/* Writes 64 lowercase hex digits and a NUL into hex. */
void sha256_hex(const unsigned char digest[32], char hex[65]);

/* Length-prefixed field: u64 little-endian length, then the bytes (TOOLCHAIN.md §3). */
void sha256_field(Sha256 *s, const void *data, size_t n);

#endif
