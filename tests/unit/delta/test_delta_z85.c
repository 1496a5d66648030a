/* SPDX-License-Identifier: Apache-2.0 */
/* Z85 (ZeroMQ RFC 32) and UUID helpers of the deletion vector code. */
#include <stdint.h>
#include <stdlib.h>

#include "delta/delta_dv.h"
#include "harness.h"

TEST(test_z85_encodes_and_decodes_the_rfc_32_example) {
    static const uint8_t bytes[8] = {0x86, 0x4F, 0xD2, 0x6F, 0xB5, 0x59, 0xF7, 0x5B};
    dl_error err;
    dl_buf out;
    dl_buf_init(&out, NULL);
    CHECK_OK(dl_delta_z85_encode(bytes, 8, &out, &err), &err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "HelloWorld");
    uint8_t back[8];
    CHECK_OK(dl_delta_z85_decode("HelloWorld", 10, back, &err), &err);
    CHECK(memcmp(back, bytes, 8) == 0);
    dl_buf_destroy(&out);
}

TEST(test_z85_decodes_the_protocol_example_uuid) {
    /* PROTOCOL.md: "ab^-aqEH.-t@S}K{vb[*k^" is the prefix "ab" and the UUID below. */
    const char *encoded = "ab^-aqEH.-t@S}K{vb[*k^";
    uint8_t uuid[16];
    dl_error err;
    CHECK_OK(dl_delta_z85_decode(encoded + 2, DL_DELTA_Z85_UUID_LEN, uuid, &err), &err);
    char text[37];
    dl_delta_uuid_format(uuid, text);
    CHECK_STR_EQ(text, "d2c639aa-8816-431a-aaf6-d3fe2512ff61");
    dl_buf out;
    dl_buf_init(&out, NULL);
    CHECK_OK(dl_delta_z85_encode(uuid, 16, &out, &err), &err);
    CHECK_STR_EQ(dl_buf_cstr(&out), encoded + 2);
    dl_buf_destroy(&out);
}

TEST(test_z85_pads_a_partial_block_with_zeros) {
    static const uint8_t bytes[5] = {1, 2, 3, 4, 5};
    dl_error err;
    dl_buf out;
    dl_buf_init(&out, NULL);
    CHECK_OK(dl_delta_z85_encode(bytes, 5, &out, &err), &err);
    CHECK_INT_EQ(out.len, 10);
    CHECK_INT_EQ(dl_delta_z85_encoded_len(5), 10);
    uint8_t back[8];
    CHECK_OK(dl_delta_z85_decode((const char *)out.data, out.len, back, &err), &err);
    CHECK(memcmp(back, bytes, 5) == 0);
    CHECK(back[5] == 0 && back[6] == 0 && back[7] == 0);
    dl_buf_destroy(&out);
}

TEST(test_z85_round_trips_random_bytes) {
    srand(7);
    uint8_t bytes[400];
    uint8_t back[400];
    dl_error err;
    dl_buf out;
    dl_buf_init(&out, NULL);
    for (int round = 0; round < 50; round++) {
        size_t n = (size_t)(rand() % 100) * 4;
        for (size_t i = 0; i < n; i++) {
            bytes[i] = (uint8_t)rand();
        }
        dl_buf_reset(&out);
        CHECK_OK(dl_delta_z85_encode(bytes, n, &out, &err), &err);
        CHECK_INT_EQ(out.len, n / 4 * 5);
        CHECK_OK(dl_delta_z85_decode((const char *)out.data, out.len, back, &err), &err);
        CHECK(n == 0 || memcmp(back, bytes, n) == 0);
    }
    dl_buf_destroy(&out);
}

TEST(test_z85_length_not_a_multiple_of_5_is_corrupt) {
    uint8_t back[8];
    dl_error err;
    CHECK_STATUS(dl_delta_z85_decode("HelloWorl", 9, back, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "9 characters is not a whole number of 5-character blocks");
}

TEST(test_z85_character_outside_the_alphabet_is_corrupt_with_its_offset) {
    uint8_t back[8];
    dl_error err;
    CHECK_STATUS(dl_delta_z85_decode("Hello,orld", 10, back, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "character 5: byte 0x2c is not in the Z85 alphabet");
    CHECK_INT_EQ(err.offset, 5);
    CHECK_STATUS(dl_delta_z85_decode("Hell\xc3\xa9", 5, back, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "byte 0xc3");
    CHECK_STATUS(dl_delta_z85_decode("Hel\"o", 5, back, &err), DL_ERR_CORRUPT, &err);
}

TEST(test_z85_block_above_32_bits_is_corrupt) {
    uint8_t back[8];
    dl_error err;
    /* 84 * 85^4 + ... > 2^32 - 1; "%nSc0" is exactly 2^32 - 1 and is fine. */
    CHECK_OK(dl_delta_z85_decode("%nSc0", 5, back, &err), &err);
    CHECK(back[0] == 0xFF && back[1] == 0xFF && back[2] == 0xFF && back[3] == 0xFF);
    CHECK_STATUS(dl_delta_z85_decode("00000%nSc1", 10, back, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "character 5: block '%nSc1' exceeds 32 bits");
    CHECK_STATUS(dl_delta_z85_decode("#####", 5, back, &err), DL_ERR_CORRUPT, &err);
}

TEST(test_uuid_random_is_version_4_and_varies) {
    uint8_t a[16];
    uint8_t b[16];
    dl_error err;
    CHECK_OK(dl_delta_uuid_random(a, &err), &err);
    CHECK_OK(dl_delta_uuid_random(b, &err), &err);
    CHECK(memcmp(a, b, 16) != 0);
    CHECK_INT_EQ(a[6] >> 4, 4);
    CHECK_INT_EQ(a[8] >> 6, 2);
    char text[37];
    dl_delta_uuid_format(a, text);
    CHECK_INT_EQ(strlen(text), 36);
    CHECK(text[8] == '-' && text[13] == '-' && text[14] == '4' && text[18] == '-' &&
          text[23] == '-');
}

int
main(void) {
    RUN(test_z85_encodes_and_decodes_the_rfc_32_example);
    RUN(test_z85_decodes_the_protocol_example_uuid);
    RUN(test_z85_pads_a_partial_block_with_zeros);
    RUN(test_z85_round_trips_random_bytes);
    RUN(test_z85_length_not_a_multiple_of_5_is_corrupt);
    RUN(test_z85_character_outside_the_alphabet_is_corrupt_with_its_offset);
    RUN(test_z85_block_above_32_bits_is_corrupt);
    RUN(test_uuid_random_is_version_4_and_varies);
    return harness_finish();
}
