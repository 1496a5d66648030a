/* SPDX-License-Identifier: Apache-2.0 */
#include "base/alloc.h"
#include "harness.h"

TEST(test_default_allocator_allocates_and_frees) {
    char *p = dl_mem_alloc(NULL, 100);
    CHECK(p != NULL);
    memset(p, 7, 100);
    p = dl_mem_realloc(NULL, p, 100, 1000);
    CHECK(p != NULL);
    CHECK_INT_EQ(p[99], 7);
    dl_mem_free(NULL, p, 1000);
    dl_mem_free(NULL, NULL, 0);
}

TEST(test_alloc_zero_is_zeroed_and_size_zero_is_not_null) {
    unsigned char *p = dl_mem_alloc_zero(NULL, 64);
    CHECK(p != NULL);
    for (int i = 0; i < 64; i++) {
        CHECK_INT_EQ(p[i], 0);
    }
    dl_mem_free(NULL, p, 64);
    void *q = dl_mem_alloc(NULL, 0);
    CHECK(q != NULL);
    dl_mem_free(NULL, q, 0);
}

TEST(test_alloc_array_overflow_fails) {
    CHECK(dl_mem_alloc_array(NULL, SIZE_MAX / 2, 4) == NULL);
}

TEST(test_fault_allocator_fails_nth_request_and_counts_live_bytes) {
    dl_fault_allocator fa;
    dl_fault_allocator_init(&fa, 3, false);
    void *a = dl_mem_alloc(&fa.base, 10);
    void *b = dl_mem_alloc(&fa.base, 20);
    void *c = dl_mem_alloc(&fa.base, 30);
    void *d = dl_mem_alloc(&fa.base, 40);
    CHECK(a != NULL && b != NULL && c == NULL && d != NULL);
    CHECK_INT_EQ(fa.n_failures, 1);
    CHECK_INT_EQ(fa.live_blocks, 3);
    CHECK_INT_EQ(fa.live_bytes, 70);
    dl_mem_free(&fa.base, a, 10);
    dl_mem_free(&fa.base, b, 20);
    dl_mem_free(&fa.base, d, 40);
    CHECK_INT_EQ(fa.live_blocks, 0);
    CHECK_INT_EQ(fa.live_bytes, 0);
}

TEST(test_sticky_fault_allocator_keeps_failing) {
    dl_fault_allocator fa;
    dl_fault_allocator_init(&fa, 1, true);
    CHECK(dl_mem_alloc(&fa.base, 1) == NULL);
    CHECK(dl_mem_alloc(&fa.base, 1) == NULL);
    CHECK_INT_EQ(fa.n_failures, 2);
}

int
main(void) {
    RUN(test_default_allocator_allocates_and_frees);
    RUN(test_alloc_zero_is_zeroed_and_size_zero_is_not_null);
    RUN(test_alloc_array_overflow_fails);
    RUN(test_fault_allocator_fails_nth_request_and_counts_live_bytes);
    RUN(test_sticky_fault_allocator_keeps_failing);
    return harness_finish();
}
