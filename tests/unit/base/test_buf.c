/* SPDX-License-Identifier: Apache-2.0 */
#include "base/buf.h"
#include "harness.h"

TEST(test_buf_appends_and_grows) {
    dl_buf b;
    dl_error err;
    dl_buf_init(&b, NULL);
    for (int i = 0; i < 10000; i++) {
        CHECK_OK(dl_buf_append_byte(&b, (uint8_t)(i & 0xff), &err), &err);
    }
    CHECK_INT_EQ(b.len, 10000);
    CHECK_INT_EQ(b.data[9999], 9999 & 0xff);
    CHECK_OK(dl_buf_append(&b, "abc", 3, &err), &err);
    CHECK_INT_EQ(b.len, 10003);
    dl_buf_destroy(&b);
    CHECK(b.data == NULL);
}

TEST(test_buf_appendf_and_cstr) {
    dl_buf b;
    dl_error err;
    dl_buf_init(&b, NULL);
    CHECK_STR_EQ(dl_buf_cstr(&b), "");
    CHECK_OK(dl_buf_appendf(&b, &err, "%s=%d", "version", 42), &err);
    CHECK_OK(dl_buf_append_cstr(&b, ";", &err), &err);
    CHECK_STR_EQ(dl_buf_cstr(&b), "version=42;");
    dl_buf_reset(&b);
    CHECK_INT_EQ(b.len, 0);
    CHECK(b.cap > 0);
    dl_buf_destroy(&b);
}

TEST(test_buf_move_leaves_source_empty) {
    dl_buf a;
    dl_buf b;
    dl_error err;
    dl_buf_init(&a, NULL);
    dl_buf_init(&b, NULL);
    CHECK_OK(dl_buf_append_cstr(&a, "hello", &err), &err);
    CHECK_OK(dl_buf_append_cstr(&b, "old", &err), &err);
    dl_buf_move(&b, &a);
    CHECK(a.data == NULL && a.len == 0);
    CHECK_STR_EQ(dl_buf_cstr(&b), "hello");
    dl_buf_destroy(&a);
    dl_buf_destroy(&b);
}

TEST(test_buf_out_of_memory_reports_nomem_and_keeps_contents) {
    dl_fault_allocator fa;
    dl_error err;
    dl_buf b;
    dl_fault_allocator_init(&fa, 2, false);
    dl_buf_init(&b, &fa.base);
    CHECK_OK(dl_buf_append_cstr(&b, "keep", &err), &err);
    uint8_t big[200] = {0};
    CHECK_STATUS(dl_buf_append(&b, big, sizeof(big), &err), DL_ERR_NOMEM, &err);
    CHECK_ERR_CONTAINS(&err, "out of memory");
    CHECK_STR_EQ(dl_buf_cstr(&b), "keep");
    dl_buf_destroy(&b);
    CHECK_INT_EQ(fa.live_blocks, 0);
}

TEST(test_buf_extend_returns_room) {
    dl_buf b;
    dl_error err;
    dl_buf_init(&b, NULL);
    CHECK(dl_buf_extend(&b, 0, &err) != NULL); /* never NULL, even empty */
    uint8_t *p = dl_buf_extend(&b, 5, &err);
    CHECK(p != NULL);
    memcpy(p, "abcde", 5);
    CHECK_INT_EQ(dl_buf_view(&b).len, 5);
    CHECK(dl_str_eq_cstr(dl_buf_view(&b), "abcde"));
    dl_buf_destroy(&b);
}

int
main(void) {
    RUN(test_buf_appends_and_grows);
    RUN(test_buf_appendf_and_cstr);
    RUN(test_buf_move_leaves_source_empty);
    RUN(test_buf_out_of_memory_reports_nomem_and_keeps_contents);
    RUN(test_buf_extend_returns_room);
    return harness_finish();
}
