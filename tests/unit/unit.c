/*
 * unit.c — C unit tests for functions easier to test alone: SHA-256
 * (FIPS 180-2 / NIST CAVS vectors), UTF-8 decoding, JSON escaping, edit
 * distance lives in the CLI and is covered by tests/cli-test.sh.
 * Prints one FAIL line per failure and `unit: N passed, N failed`.
 */
#include <stdio.h>
#include <string.h>

#include "../../src/support/buf.h"
#include "../../src/support/json.h"
#include "../../src/support/sha256.h"
#include "../../src/support/utf8.h"

static int pass, fail;

static void
check(int ok, const char *what)
{
	if (ok) {
		pass++;
	} else {
		fail++;
		printf("FAIL unit: %s\n", what);
	}
}

static void
sha_vector(const char *msg, size_t reps, const char *want)
{
	Sha256 s;
	sha256_init(&s);
	for (size_t i = 0; i < reps; i++)
		sha256_update(&s, msg, strlen(msg));
	unsigned char d[32];
	char hex[65];
	sha256_final(&s, d);
	sha256_hex(d, hex);
	char what[128];
	snprintf(what, sizeof what, "sha256 of \"%.20s\" x%zu", msg, reps);
	check(strcmp(hex, want) == 0, what);
}

int
main(void)
{
	sha_vector("", 1, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	sha_vector("abc", 1, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	sha_vector("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1,
	    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	sha_vector("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu", 1,
	    "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
	sha_vector("a", 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	/* Split updates give the same digest as one update. */
	{
		Sha256 a, b;
		unsigned char da[32], db[32];
		const char *m = "The quick brown fox jumps over the lazy dog, again and again and again!";
		sha256_init(&a);
		sha256_update(&a, m, strlen(m));
		sha256_final(&a, da);
		sha256_init(&b);
		for (size_t i = 0; i < strlen(m); i++)
			sha256_update(&b, m + i, 1);
		sha256_final(&b, db);
		check(memcmp(da, db, 32) == 0, "sha256 byte-at-a-time equals one update");
	}

	uint32_t cp;
	check(utf8_decode((const unsigned char *)"\xC3\xA9", 2, &cp) == 2 && cp == 0xE9, "utf8 decodes e-acute");
	check(utf8_decode((const unsigned char *)"\xC0\xAF", 2, &cp) == 0, "utf8 rejects overlong");
	check(utf8_decode((const unsigned char *)"\xED\xA0\x80", 3, &cp) == 0, "utf8 rejects surrogate");
	check(utf8_decode((const unsigned char *)"\xF4\x90\x80\x80", 4, &cp) == 0, "utf8 rejects > U+10FFFF");
	check(utf8_validate((const unsigned char *)"ab\xFF", 3) == 2, "utf8_validate finds the bad byte");
	check(utf8_is_space(0x3000) && !utf8_is_space(0xFEFF), "White_Space: U+3000 yes, U+FEFF no");

	Buf b = {0};
	json_str(&b, "a\"b\\c\n\x01", 7);
	check(strcmp(b.data, "\"a\\\"b\\\\c\\n\\u0001\"") == 0, "json escaping");
	buf_free(&b);

	printf("unit: %d passed, %d failed\n", pass, fail);
	return fail ? 1 : 0;
}
