/* SPDX-License-Identifier: Apache-2.0 */
#include <stdint.h>
#include <string.h>

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

TEST(test_huge_allocator_aligns_large_blocks_and_returns_everything_to_its_parent) {
    dl_fault_allocator fa;
    dl_fault_allocator_init(&fa, 0, false);
    dl_huge_allocator h;
    dl_huge_allocator_init(&h, &fa.base);
    const size_t big = DL_HUGE_BLOCK_MIN + 12345;
    uint8_t *p = dl_mem_alloc(&h.base, big);
    CHECK(p != NULL && (uintptr_t)p % ((uintptr_t)2 << 20) == 0);
    memset(p, 0xab, big);
    /* Shrinking below the threshold moves the block to the parent's layout, contents kept. */
    uint8_t *q = dl_mem_realloc(&h.base, p, big, 100);
    CHECK(q != NULL && q[0] == 0xab && q[99] == 0xab);
    /* Growing across it again keeps the first 100 bytes. */
    uint8_t *r = dl_mem_realloc(&h.base, q, 100, 2 * DL_HUGE_BLOCK_MIN);
    CHECK(r != NULL && (uintptr_t)r % ((uintptr_t)2 << 20) == 0 && r[0] == 0xab && r[99] == 0xab);
    dl_mem_free(&h.base, r, 2 * DL_HUGE_BLOCK_MIN);
    void *small = dl_mem_alloc(&h.base, 64);
    CHECK(small != NULL);
    dl_mem_free(&h.base, small, 64);
    CHECK_INT_EQ(fa.live_blocks, 0);
    CHECK_INT_EQ(fa.live_bytes, 0);
}

TEST(test_huge_allocator_failure_leaves_the_old_block) {
    dl_fault_allocator fa;
    dl_fault_allocator_init(&fa, 2, false);
    dl_huge_allocator h;
    dl_huge_allocator_init(&h, &fa.base);
    uint8_t *p = dl_mem_alloc(&h.base, 16);
    CHECK(p != NULL);
    p[0] = 7;
    CHECK(dl_mem_realloc(&h.base, p, 16, DL_HUGE_BLOCK_MIN) == NULL); /* the 2nd request fails */
    CHECK(p[0] == 7);
    dl_mem_free(&h.base, p, 16);
    CHECK_INT_EQ(fa.live_blocks, 0);
    dl_mem_advise_huge(NULL, 0); /* a hint on nothing is harmless */
}

TEST(test_huge_default_allocator_lays_out_large_blocks_over_libc) {
    const dl_allocator *h = dl_allocator_huge_default();
    CHECK(h != NULL && h == dl_allocator_huge_default());
    uint8_t *p = dl_mem_alloc(h, DL_HUGE_BLOCK_MIN);
    CHECK(p != NULL && (uintptr_t)p % ((uintptr_t)2 << 20) == 0);
    p[DL_HUGE_BLOCK_MIN - 1] = 3;
    uint8_t *q = dl_mem_realloc(h, p, DL_HUGE_BLOCK_MIN, 2 * DL_HUGE_BLOCK_MIN);
    CHECK(q != NULL && q[DL_HUGE_BLOCK_MIN - 1] == 3);
    dl_mem_free(h, q, 2 * DL_HUGE_BLOCK_MIN);
    void *small = dl_mem_alloc(h, 10);
    CHECK(small != NULL);
    dl_mem_free(h, small, 10);
}

int
main(void) {
    RUN(test_default_allocator_allocates_and_frees);
    RUN(test_alloc_zero_is_zeroed_and_size_zero_is_not_null);
    RUN(test_alloc_array_overflow_fails);
    RUN(test_fault_allocator_fails_nth_request_and_counts_live_bytes);
    RUN(test_sticky_fault_allocator_keeps_failing);
    RUN(test_huge_allocator_aligns_large_blocks_and_returns_everything_to_its_parent);
    RUN(test_huge_allocator_failure_leaves_the_old_block);
    RUN(test_huge_default_allocator_lays_out_large_blocks_over_libc);
    return harness_finish();
}
