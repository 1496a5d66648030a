/* SPDX-License-Identifier: Apache-2.0 */
#include <stdint.h>

#include "base/arena.h"
#include "harness.h"

TEST(test_arena_allocations_are_aligned_and_distinct) {
    dl_arena arena;
    dl_arena_init(&arena, NULL, 64);
    char *prev = NULL;
    for (int i = 1; i < 500; i++) {
        char *p = dl_arena_alloc(&arena, (size_t)i);
        CHECK(p != NULL);
        CHECK(((uintptr_t)p & 15) == 0);
        memset(p, 0xAB, (size_t)i);
        CHECK(p != prev);
        prev = p;
    }
    dl_arena_destroy(&arena);
}

TEST(test_arena_large_allocation_gets_own_block) {
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    char *p = dl_arena_alloc(&arena, 10u << 20);
    CHECK(p != NULL);
    p[(10u << 20) - 1] = 1;
    CHECK(arena.bytes_allocated >= (10u << 20));
    dl_arena_destroy(&arena);
    CHECK_INT_EQ(arena.bytes_allocated, 0);
}

TEST(test_arena_reset_keeps_one_block_and_reuses_it) {
    dl_arena arena;
    dl_arena_init(&arena, NULL, 128);
    for (int i = 0; i < 100; i++) {
        CHECK(dl_arena_alloc(&arena, 100) != NULL);
    }
    dl_arena_reset(&arena);
    size_t kept = arena.bytes_allocated;
    CHECK(kept > 0 && kept < 1024);
    CHECK(dl_arena_alloc(&arena, 16) != NULL);
    CHECK_INT_EQ(arena.bytes_allocated, kept);
    dl_arena_destroy(&arena);
}

TEST(test_arena_rewind_releases_later_allocations) {
    dl_arena arena;
    dl_arena_init(&arena, NULL, 64);
    char *a = dl_arena_strndup(&arena, "keep", 4);
    dl_arena_mark mark = dl_arena_get_mark(&arena);
    for (int i = 0; i < 50; i++) {
        CHECK(dl_arena_alloc(&arena, 200) != NULL);
    }
    dl_arena_rewind(&arena, mark);
    CHECK_STR_EQ(a, "keep");
    char *b = dl_arena_alloc(&arena, 8);
    CHECK(b != NULL);
    dl_arena_destroy(&arena);
}

static int cleanup_order[4];
static int n_cleanups;

static void
record_cleanup(void *ctx) {
    cleanup_order[n_cleanups++] = (int)(intptr_t)ctx;
}

TEST(test_arena_cleanups_run_newest_first_on_reset) {
    dl_arena arena;
    dl_error err;
    dl_arena_init(&arena, NULL, 0);
    n_cleanups = 0;
    CHECK_OK(dl_arena_on_reset(&arena, record_cleanup, (void *)1, &err), &err);
    CHECK_OK(dl_arena_on_reset(&arena, record_cleanup, (void *)2, &err), &err);
    dl_arena_reset(&arena);
    CHECK_INT_EQ(n_cleanups, 2);
    CHECK_INT_EQ(cleanup_order[0], 2);
    CHECK_INT_EQ(cleanup_order[1], 1);
    CHECK_OK(dl_arena_on_reset(&arena, record_cleanup, (void *)3, &err), &err);
    dl_arena_destroy(&arena);
    CHECK_INT_EQ(n_cleanups, 3);
}

TEST(test_arena_out_of_memory_is_sticky_and_leaks_nothing) {
    dl_fault_allocator fa;
    dl_fault_allocator_init(&fa, 2, false);
    dl_arena arena;
    dl_arena_init(&arena, &fa.base, 64);
    CHECK(dl_arena_alloc(&arena, 32) != NULL);
    CHECK(dl_arena_alloc(&arena, 1000) == NULL);
    CHECK(arena.is_failed);
    CHECK(dl_arena_alloc(&arena, 1000) != NULL);
    CHECK(arena.is_failed);
    dl_arena_reset(&arena);
    CHECK(!arena.is_failed);
    dl_arena_destroy(&arena);
    CHECK_INT_EQ(fa.live_blocks, 0);
}

TEST(test_arena_printf_and_overflowing_array) {
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    char *s = dl_arena_printf(&arena, "v%d-%s", 12, "x");
    CHECK_STR_EQ(s, "v12-x");
    CHECK(dl_arena_alloc_array(&arena, SIZE_MAX / 4, 8) == NULL);
    CHECK(arena.is_failed);
    dl_arena_destroy(&arena);
}

int
main(void) {
    RUN(test_arena_allocations_are_aligned_and_distinct);
    RUN(test_arena_large_allocation_gets_own_block);
    RUN(test_arena_reset_keeps_one_block_and_reuses_it);
    RUN(test_arena_rewind_releases_later_allocations);
    RUN(test_arena_cleanups_run_newest_first_on_reset);
    RUN(test_arena_out_of_memory_is_sticky_and_leaks_nothing);
    RUN(test_arena_printf_and_overflowing_array);
    return harness_finish();
}
