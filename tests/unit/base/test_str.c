/* SPDX-License-Identifier: Apache-2.0 */
#include "base/str.h"
#include "harness.h"

TEST(test_str_compare_and_search) {
    CHECK(dl_str_eq(DL_STR("abc"), dl_str_from_cstr("abc")));
    CHECK(!dl_str_eq(DL_STR("abc"), DL_STR("abd")));
    CHECK(dl_str_cmp(DL_STR("ab"), DL_STR("abc")) < 0);
    CHECK(dl_str_cmp(DL_STR("b"), DL_STR("abc")) > 0);
    CHECK(dl_str_cmp(DL_STR(""), DL_STR("")) == 0);
    CHECK(dl_str_eq_nocase(DL_STR("SeLeCt"), DL_STR("select")));
    CHECK(dl_str_starts_with(DL_STR("_delta_log/0.json"), DL_STR("_delta_log/")));
    CHECK(dl_str_ends_with(DL_STR("x.checkpoint.parquet"), DL_STR(".parquet")));
    CHECK_INT_EQ(dl_str_find_byte(DL_STR("a=b"), '='), 1);
    CHECK_INT_EQ(dl_str_find_byte(DL_STR("ab"), '='), -1);
    CHECK(dl_str_eq_cstr(dl_str_slice(DL_STR("hello"), 1, 100), "ello"));
    CHECK(dl_str_eq_cstr(dl_str_trim(DL_STR("  x y \n")), "x y"));
    char buf[4];
    CHECK_STR_EQ(dl_str_copy_to(DL_STR("abcdef"), buf, sizeof(buf)), "abc");
}

TEST(test_hash_depends_on_every_byte_and_length) {
    char a[40];
    memset(a, 'x', sizeof(a));
    uint64_t h0 = dl_hash_bytes(a, sizeof(a), 0);
    for (size_t i = 0; i < sizeof(a); i++) {
        a[i] = 'y';
        CHECK(dl_hash_bytes(a, sizeof(a), 0) != h0);
        a[i] = 'x';
    }
    for (size_t n = 0; n < sizeof(a); n++) {
        CHECK(dl_hash_bytes(a, n, 0) != dl_hash_bytes(a, n + 1, 0));
    }
    CHECK(dl_hash_bytes(a, 10, 1) != dl_hash_bytes(a, 10, 2));
}

TEST(test_utf8_validation) {
    CHECK(dl_utf8_valid("plain ascii text, long enough", 29));
    CHECK(dl_utf8_valid("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 9));
    CHECK(!dl_utf8_valid("\xc0\xaf", 2));         /* overlong */
    CHECK(!dl_utf8_valid("\xed\xa0\x80", 3));     /* surrogate */
    CHECK(!dl_utf8_valid("\xf4\x90\x80\x80", 4)); /* above U+10FFFF */
    CHECK(!dl_utf8_valid("\xe2\x82", 2));         /* truncated */
    CHECK(!dl_utf8_valid("\x80", 1));
}

int
main(void) {
    RUN(test_str_compare_and_search);
    RUN(test_hash_depends_on_every_byte_and_length);
    RUN(test_utf8_validation);
    return harness_finish();
}
