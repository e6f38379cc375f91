/*
 * sha256.c — SHA-256 per FIPS 180-4.  Checked against the published test
 * vectors in tests/unit/unit.c.
 */
#include "sha256.h"

#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(SPX_NO_SHA_NI)
#define SHA_NI 1
#include <cpuid.h>
#include <immintrin.h>
#endif

static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))
#define BSIG0(x) (ROR(x, 2) ^ ROR(x, 13) ^ ROR(x, 22))
#define BSIG1(x) (ROR(x, 6) ^ ROR(x, 11) ^ ROR(x, 25))
#define SSIG0(x) (ROR(x, 7) ^ ROR(x, 18) ^ ((x) >> 3))
#define SSIG1(x) (ROR(x, 17) ^ ROR(x, 19) ^ ((x) >> 10))
#define CH(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))

/* One round with the eight working variables renamed instead of shifted;
 * the message schedule lives in a 16-word ring, extended as it is read.
 * Maj(a, b, c) is b ^ ((a ^ b) & (b ^ c)), and this round's b ^ c is the
 * previous round's a ^ b (kept in bc): three operations, not four. */
#define ROUND(a, b, c, d, e, f, g, h, i, wi) \
	do { \
		uint32_t t1_ = (h) + BSIG1(e) + CH(e, f, g) + K[i] + (wi); \
		uint32_t ab_ = (a) ^ (b); \
		(d) += t1_; \
		(h) = t1_ + BSIG0(a) + ((b) ^ (ab_ & bc)); \
		bc = ab_; \
	} while (0)
#define W(i) (w[(i) & 15] += SSIG1(w[((i) - 2) & 15]) + w[((i) - 7) & 15] + SSIG0(w[((i) - 15) & 15]))
#define EIGHT(i, WF) \
	ROUND(a, b, c, d, e, f, g, h, (i) + 0, WF((i) + 0)); \
	ROUND(h, a, b, c, d, e, f, g, (i) + 1, WF((i) + 1)); \
	ROUND(g, h, a, b, c, d, e, f, (i) + 2, WF((i) + 2)); \
	ROUND(f, g, h, a, b, c, d, e, (i) + 3, WF((i) + 3)); \
	ROUND(e, f, g, h, a, b, c, d, (i) + 4, WF((i) + 4)); \
	ROUND(d, e, f, g, h, a, b, c, (i) + 5, WF((i) + 5)); \
	ROUND(c, d, e, f, g, h, a, b, (i) + 6, WF((i) + 6)); \
	ROUND(b, c, d, e, f, g, h, a, (i) + 7, WF((i) + 7))
#define W0(i) w[(i)]

static inline uint32_t
load_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Hashes n consecutive 64-byte blocks (inlined into blocks and, on x86-64,
 * blocks_bmi2). */
static inline __attribute__((always_inline)) void
blocks_body(uint32_t hs[8], const unsigned char *p, size_t n)
{
	uint32_t a, b, c, d, e, f, g, h, bc, w[16];
	for (; n; n--, p += 64) {
		for (int i = 0; i < 16; i++)
			w[i] = load_be32(p + 4 * i);
		a = hs[0]; b = hs[1]; c = hs[2]; d = hs[3];
		e = hs[4]; f = hs[5]; g = hs[6]; h = hs[7];
		bc = b ^ c;
		EIGHT(0, W0);
		EIGHT(8, W0);
		EIGHT(16, W);
		EIGHT(24, W);
		EIGHT(32, W);
		EIGHT(40, W);
		EIGHT(48, W);
		EIGHT(56, W);
		hs[0] += a; hs[1] += b; hs[2] += c; hs[3] += d;
		hs[4] += e; hs[5] += f; hs[6] += g; hs[7] += h;
	}
}

static void
blocks(uint32_t hs[8], const unsigned char *p, size_t n)
{
	blocks_body(hs, p, n);
}

#ifdef SHA_NI
/* The x86 SHA extensions (SHA-NI), used when the processor has them: the
 * same compression function, four rounds per pair of instructions. */
__attribute__((target("sha,sse4.1,ssse3"))) static void
blocks_ni(uint32_t hs[8], const unsigned char *p, size_t n)
{
	const __m128i mask = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
	__m128i tmp = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&hs[0]), 0xB1); /* CDAB */
	__m128i st1 = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&hs[4]), 0x1B); /* EFGH */
	__m128i st0 = _mm_alignr_epi8(tmp, st1, 8);                                      /* ABEF */
	st1 = _mm_blend_epi16(st1, tmp, 0xF0);                                           /* CDGH */
	for (; n; n--, p += 64) {
		__m128i abef = st0, cdgh = st1, m[4];
		for (int i = 0; i < 16; i++) {
			if (i < 4) {
				m[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * i)), mask);
			} else {
				__m128i x = _mm_sha256msg1_epu32(m[i & 3], m[(i + 1) & 3]);
				x = _mm_add_epi32(x, _mm_alignr_epi8(m[(i + 3) & 3], m[(i + 2) & 3], 4));
				m[i & 3] = _mm_sha256msg2_epu32(x, m[(i + 3) & 3]);
			}
			__m128i wk = _mm_add_epi32(m[i & 3], _mm_loadu_si128((const __m128i *)&K[4 * i]));
			st1 = _mm_sha256rnds2_epu32(st1, st0, wk);
			st0 = _mm_sha256rnds2_epu32(st0, st1, _mm_shuffle_epi32(wk, 0x0E));
		}
		st0 = _mm_add_epi32(st0, abef);
		st1 = _mm_add_epi32(st1, cdgh);
	}
	tmp = _mm_shuffle_epi32(st0, 0x1B);       /* FEBA */
	st1 = _mm_shuffle_epi32(st1, 0xB1);       /* DCHG */
	st0 = _mm_blend_epi16(tmp, st1, 0xF0);    /* DCBA */
	st1 = _mm_alignr_epi8(st1, tmp, 8);       /* HGFE */
	_mm_storeu_si128((__m128i *)&hs[0], st0);
	_mm_storeu_si128((__m128i *)&hs[4], st1);
}

/* The portable rounds with BMI2's rorx (a rotate into another register:
 * no copy before each of the six rotates a round), for processors with
 * BMI2 but not the SHA extensions (Intel's before Ice Lake): about a fifth
 * fewer instructions. */
__attribute__((target("bmi2"))) static void
blocks_bmi2(uint32_t hs[8], const unsigned char *p, size_t n)
{
	blocks_body(hs, p, n);
}

static int sha_ni_state; /* 0 unknown, 1 SHA-NI, 2 BMI2 only, -1 neither (or turned off) */

static int
sha_level(void)
{
	if (sha_ni_state == 0) {
		unsigned a, b, c, d, c1 = 0, b7 = 0;
		if (__get_cpuid(1, &a, &b, &c, &d))
			c1 = c;
		if (__get_cpuid_count(7, 0, &a, &b, &c, &d))
			b7 = b;
		bool sha = (b7 & (1u << 29)) && (c1 & (1u << 9)) && (c1 & (1u << 19));   /* SHA; SSSE3, SSE4.1 */
		sha_ni_state = sha ? 1 : (b7 & (1u << 8)) ? 2 : -1;                       /* BMI2 */
	}
	return sha_ni_state;
}
#endif

void
sha256_portable_only(bool on)
{
#ifdef SHA_NI
	sha_ni_state = on ? -1 : 0;
#else
	(void)on;
#endif
}

void
sha256_bmi2_only(void)
{
#ifdef SHA_NI
	unsigned a, b, c, d;
	sha_ni_state = __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 8)) ? 2 : -1;
#endif
}

static void
compress(uint32_t hs[8], const unsigned char *p, size_t n)
{
#ifdef SHA_NI
	int level = sha_level();
	if (level == 1) {
		blocks_ni(hs, p, n);
		return;
	}
	if (level == 2) {
		blocks_bmi2(hs, p, n);
		return;
	}
#endif
	blocks(hs, p, n);
}

void
sha256_init(Sha256 *s)
{
	static const uint32_t iv[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};
	memcpy(s->h, iv, sizeof iv);
	s->len = 0;
	s->nbuf = 0;
}

void
sha256_update(Sha256 *s, const void *data, size_t n)
{
	const unsigned char *p = data;
	s->len += n;
	if (s->nbuf) {
		size_t take = 64 - s->nbuf < n ? 64 - s->nbuf : n;
		memcpy(s->buf + s->nbuf, p, take);
		s->nbuf += take;
		p += take;
		n -= take;
		if (s->nbuf < 64)
			return;
		compress(s->h, s->buf, 1);
		s->nbuf = 0;
	}
	if (n >= 64) {
		compress(s->h, p, n / 64);
		p += n / 64 * 64;
		n %= 64;
	}
	memcpy(s->buf, p, n);
	s->nbuf = n;
}

void
sha256_final(Sha256 *s, unsigned char out[32])
{
	uint64_t bits = s->len * 8;
	unsigned char pad[72] = { 0x80 };
	size_t npad = (s->nbuf < 56 ? 56 : 120) - s->nbuf; /* 0x80, zeros, to 56 mod 64 */
	for (int i = 0; i < 8; i++)
		pad[npad + (size_t)i] = (unsigned char)(bits >> (56 - 8 * i));
	sha256_update(s, pad, npad + 8);
	for (int i = 0; i < 8; i++) {
		out[4 * i] = (unsigned char)(s->h[i] >> 24);
		out[4 * i + 1] = (unsigned char)(s->h[i] >> 16);
		out[4 * i + 2] = (unsigned char)(s->h[i] >> 8);
		out[4 * i + 3] = (unsigned char)s->h[i];
	}
}

void
sha256_hex(const unsigned char digest[32], char hex[65])
{
	static const char digits[] = "0123456789abcdef";
	for (int i = 0; i < 32; i++) {
		hex[2 * i] = digits[digest[i] >> 4];
		hex[2 * i + 1] = digits[digest[i] & 15];
	}
	hex[64] = '\0';
}

void
sha256_field(Sha256 *s, const void *data, size_t n)
{
	unsigned char le[8];
	for (int i = 0; i < 8; i++)
		le[i] = (unsigned char)((uint64_t)n >> (8 * i));
	sha256_update(s, le, 8);
	sha256_update(s, data, n);
}
