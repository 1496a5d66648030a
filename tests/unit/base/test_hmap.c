/* SPDX-License-Identifier: Apache-2.0 */
#include <stdio.h>

#include "base/arena.h"
#include "base/hmap.h"
#include "harness.h"

TEST(test_hmap_put_get_replace) {
    dl_hmap m;
    dl_error err;
    dl_hmap_init(&m, NULL);
    uint64_t v = 0;
    CHECK(!dl_hmap_get(&m, DL_STR("a"), &v));
    CHECK_OK(dl_hmap_put(&m, DL_STR("a"), 1, &err), &err);
    CHECK_OK(dl_hmap_put(&m, DL_STR("b"), 2, &err), &err);
    CHECK_OK(dl_hmap_put(&m, DL_STR("a"), 3, &err), &err);
    CHECK_INT_EQ(m.count, 2);
    CHECK(dl_hmap_get(&m, DL_STR("a"), &v));
    CHECK_INT_EQ(v, 3);
    CHECK(dl_hmap_get(&m, DL_STR(""), NULL) == false);
    CHECK_OK(dl_hmap_put(&m, DL_STR(""), 9, &err), &err);
    CHECK(dl_hmap_get(&m, DL_STR(""), &v));
    CHECK_INT_EQ(v, 9);
    dl_hmap_destroy(&m);
}

TEST(test_hmap_many_keys_grow_remove_and_iterate) {
    dl_hmap m;
    dl_arena arena;
    dl_error err;
    dl_hmap_init(&m, NULL);
    dl_arena_init(&arena, NULL, 0);
    const int n = 100000;
    for (int i = 0; i < n; i++) {
        char *k = dl_arena_printf(&arena, "part-%05d.parquet", i);
        CHECK_OK(dl_hmap_put(&m, dl_str_from_cstr(k), (uint64_t)i, &err), &err);
    }
    CHECK_INT_EQ(m.count, n);
    for (int i = 0; i < n; i += 2) {
        char k[64];
        int len = snprintf(k, sizeof(k), "part-%05d.parquet", i);
        uint64_t v;
        CHECK(dl_hmap_remove(&m, dl_str_make(k, (size_t)len), &v));
        CHECK_INT_EQ(v, i);
    }
    CHECK_INT_EQ(m.count, n / 2);
    size_t iter = 0;
    dl_str key;
    uint64_t v;
    int64_t seen = 0;
    int64_t sum = 0;
    while (dl_hmap_next(&m, &iter, &key, &v)) {
        CHECK(v % 2 == 1);
        seen++;
        sum += (int64_t)v;
    }
    CHECK_INT_EQ(seen, n / 2);
    CHECK_INT_EQ(sum, (int64_t)(n / 2) * (n / 2));
    dl_hmap_destroy(&m);
    dl_arena_destroy(&arena);
}

TEST(test_hmap_churn_with_tombstones_does_not_grow_without_bound) {
    dl_hmap m;
    dl_error err;
    dl_hmap_init(&m, NULL);
    char keys[64][16];
    for (int i = 0; i < 64; i++) {
        int len = snprintf(keys[i], sizeof(keys[i]), "k%d", i);
        DL_UNUSED(len);
    }
    for (int round = 0; round < 1000; round++) {
        for (int i = 0; i < 64; i++) {
            CHECK_OK(dl_hmap_put(&m, dl_str_from_cstr(keys[i]), (uint64_t)round, &err), &err);
        }
        for (int i = 0; i < 64; i++) {
            CHECK(dl_hmap_remove(&m, dl_str_from_cstr(keys[i]), NULL));
        }
    }
    CHECK_INT_EQ(m.count, 0);
    CHECK(m.cap <= 256);
    dl_hmap_destroy(&m);
}

TEST(test_hmap_upsert_reports_new_entries) {
    dl_hmap m;
    dl_error err;
    dl_hmap_init(&m, NULL);
    uint64_t *slot;
    bool is_new;
    CHECK_OK(dl_hmap_upsert(&m, DL_STR("x"), &slot, &is_new, &err), &err);
    CHECK(is_new);
    CHECK_INT_EQ(*slot, 0);
    *slot = 5;
    CHECK_OK(dl_hmap_upsert(&m, DL_STR("x"), &slot, &is_new, &err), &err);
    CHECK(!is_new);
    CHECK_INT_EQ(*slot, 5);
    dl_hmap_destroy(&m);
}

TEST(test_hmap_out_of_memory_is_reported) {
    dl_fault_allocator fa;
    dl_error err;
    dl_hmap m;
    dl_fault_allocator_init(&fa, 1, true);
    dl_hmap_init(&m, &fa.base);
    CHECK_STATUS(dl_hmap_put(&m, DL_STR("a"), 1, &err), DL_ERR_NOMEM, &err);
    CHECK_INT_EQ(m.count, 0);
    dl_hmap_destroy(&m);
    CHECK_INT_EQ(fa.live_blocks, 0);
}

int
main(void) {
    RUN(test_hmap_put_get_replace);
    RUN(test_hmap_many_keys_grow_remove_and_iterate);
    RUN(test_hmap_churn_with_tombstones_does_not_grow_without_bound);
    RUN(test_hmap_upsert_reports_new_entries);
    RUN(test_hmap_out_of_memory_is_reported);
    return harness_finish();
}
