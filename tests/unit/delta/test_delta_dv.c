/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Deletion vectors: descriptors (ids, checks, paths), the set and its range queries, the
 * RoaringBitmapArray parser against hand-built good and bad bytes, DV files (framing, CRC,
 * several DVs per file), inline DVs, and the writer, with fault injection.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <zlib.h>

#include "delta/delta_dv.h"
#include "harness.h"
#include "store/store_testutil.h"

/* ------------------------------------------------------------------------------------------ */
/* Helpers                                                                                     */

/* Bytes built by hand. */
typedef struct bytes {
    uint8_t d[40000];
    size_t n;
} bytes;

static void
put8(bytes *b, uint8_t v) {
    b->d[b->n++] = v;
}

static void
put16(bytes *b, uint32_t v) {
    put8(b, (uint8_t)v);
    put8(b, (uint8_t)(v >> 8));
}

static void
put32(bytes *b, uint32_t v) {
    put16(b, v & 0xFFFF);
    put16(b, v >> 16);
}

static void
put64(bytes *b, uint64_t v) {
    put32(b, (uint32_t)v);
    put32(b, (uint32_t)(v >> 32));
}

static void
put_be32(bytes *b, uint32_t v) {
    put8(b, (uint8_t)(v >> 24));
    put8(b, (uint8_t)(v >> 16));
    put8(b, (uint8_t)(v >> 8));
    put8(b, (uint8_t)v);
}

/* A 32-bit Roaring bitmap with one array container (cookie 12346) of the values given. */
static void
put_array_bitmap(bytes *b, uint16_t key, const uint16_t *values, uint32_t n) {
    put32(b, 12346);
    put32(b, 1);
    put16(b, key);
    put16(b, n - 1);
    put32(b, 16); /* offset of the container */
    for (uint32_t i = 0; i < n; i++) {
        put16(b, values[i]);
    }
}

/* Portable RoaringBitmapArray header with n buckets. */
static void
put_portable_head(bytes *b, uint64_t n) {
    put32(b, DL_DELTA_DV_MAGIC_PORTABLE);
    put64(b, n);
}

static dl_status
parse(const bytes *b, dl_delta_dv **out, dl_error *err) {
    return dl_delta_dv_parse(b->d, b->n, NULL, out, err);
}

/* True when dv holds exactly rows[0, n). */
static bool
holds_exactly(const dl_delta_dv *dv, const int64_t *rows, size_t n) {
    if (dl_delta_dv_cardinality(dv) != (int64_t)n) {
        return false;
    }
    int64_t *all = calloc(n + 1, sizeof(int64_t));
    dl_delta_dv_to_array(dv, all);
    bool is_same = n == 0 || memcmp(all, rows, n * sizeof(int64_t)) == 0;
    free(all);
    return is_same;
}

static dl_delta_dv_desc
desc_of(char type, const char *path, int32_t offset, bool has_offset, int32_t size,
        int64_t cardinality) {
    return (dl_delta_dv_desc){.storage_type = type,
                              .path_or_inline_dv = dl_str_from_cstr(path),
                              .offset = offset,
                              .has_offset = has_offset,
                              .size_in_bytes = size,
                              .cardinality = cardinality};
}

/* ------------------------------------------------------------------------------------------ */
/* Descriptors                                                                                 */

TEST(test_dv_unique_id_appends_offset_only_when_present) {
    dl_error err;
    dl_buf id;
    dl_buf_init(&id, NULL);
    dl_delta_dv_desc u = desc_of('u', "ab^-aqEH.-t@S}K{vb[*k^", 4, true, 40, 6);
    CHECK_OK(dl_delta_dv_desc_append_id(&u, &id, &err), &err);
    CHECK_STR_EQ(dl_buf_cstr(&id), "uab^-aqEH.-t@S}K{vb[*k^@4");
    dl_buf_reset(&id);
    dl_delta_dv_desc i = desc_of('i', "wi5b=", 0, false, 4, 1);
    CHECK_OK(dl_delta_dv_desc_append_id(&i, &id, &err), &err);
    CHECK_STR_EQ(dl_buf_cstr(&id), "iwi5b=");
    dl_delta_dv_desc u0 = u;
    u0.offset = 0;
    dl_delta_dv_desc u_none = u;
    u_none.has_offset = false;
    CHECK(dl_delta_dv_desc_same_id(&u, &u));
    CHECK(!dl_delta_dv_desc_same_id(&u, &u0));
    CHECK(!dl_delta_dv_desc_same_id(&u, &u_none));
    CHECK(!dl_delta_dv_desc_same_id(&u, &i));
    dl_delta_dv_desc other_card = u;
    other_card.cardinality = 7; /* not part of the id */
    CHECK(dl_delta_dv_desc_same_id(&u, &other_card));
    dl_buf_destroy(&id);
}

TEST(test_dv_desc_check_refuses_unknown_storage_type_as_unsupported) {
    dl_error err;
    dl_delta_dv_desc r = desc_of('r', "some/relative/file.bin", 1, true, 40, 6);
    CHECK_STATUS(dl_delta_dv_desc_check(&r, &err), DL_ERR_UNSUPPORTED, &err);
    CHECK_ERR_CONTAINS(&err, "storage type 'r' (0x72) is not supported (known: 'u', 'i', 'p')");
}

TEST(test_dv_desc_check_refuses_bad_fields_as_corrupt) {
    dl_error err;
    dl_delta_dv_desc d = desc_of('u', "ab^-aqEH.-t@S}K{vb[*k^", 1, true, 40, -1);
    CHECK_STATUS(dl_delta_dv_desc_check(&d, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "negative sizeInBytes (40), cardinality (-1)");
    d = desc_of('u', "tooShort", 1, true, 40, 6);
    CHECK_STATUS(dl_delta_dv_desc_check(&d, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "needs at least 20 characters (the UUID in Z85), not 8");
    d = desc_of('u', "ab^-aqEH.-t@S}K{vb[*k\"", 1, true, 40, 6);
    CHECK_STATUS(dl_delta_dv_desc_check(&d, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "its UUID: Z85 text at character 19: byte 0x22");
    d = desc_of('i', "wi5b=000010000", 0, false, 8, 1);
    CHECK_STATUS(dl_delta_dv_desc_check(&d, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "14 characters of Z85 cannot hold sizeInBytes 8");
    d = desc_of('i', "wi5b=00001", 0, false, 4, 1);
    CHECK_STATUS(dl_delta_dv_desc_check(&d, &err), DL_ERR_CORRUPT, &err);
    d = desc_of('p', "", 1, true, 4, 1);
    CHECK_STATUS(dl_delta_dv_desc_check(&d, &err), DL_ERR_CORRUPT, &err);
}

TEST(test_dv_locate_uuid_with_prefix_as_in_the_protocol_example) {
    dl_error err;
    dl_store *store;
    CHECK_OK(dl_store_local_new("/tmp", NULL, &store, &err), &err);
    dl_buf path;
    dl_buf_init(&path, NULL);
    bool is_absolute = true;
    dl_delta_dv_desc d = desc_of('u', "ab^-aqEH.-t@S}K{vb[*k^", 4, true, 40, 6);
    CHECK_OK(dl_delta_dv_desc_locate(&d, store, "", &path, &is_absolute, &err), &err);
    CHECK(!is_absolute);
    CHECK_STR_EQ(dl_buf_cstr(&path), "ab/deletion_vector_d2c639aa-8816-431a-aaf6-d3fe2512ff61.bin");
    CHECK_OK(dl_delta_dv_desc_locate(&d, store, "w/t/", &path, &is_absolute, &err), &err);
    CHECK_STR_EQ(dl_buf_cstr(&path),
                 "w/t/ab/deletion_vector_d2c639aa-8816-431a-aaf6-d3fe2512ff61.bin");
    d.path_or_inline_dv = DL_STR("^-aqEH.-t@S}K{vb[*k^");
    CHECK_OK(dl_delta_dv_desc_locate(&d, store, NULL, &path, &is_absolute, &err), &err);
    CHECK_STR_EQ(dl_buf_cstr(&path), "deletion_vector_d2c639aa-8816-431a-aaf6-d3fe2512ff61.bin");
    /* delta-kernel-rs's vectors for Z85 UUIDs. */
    d.path_or_inline_dv = DL_STR("dvrsTVZ&*Sl-RXRWjryu/!");
    CHECK_OK(dl_delta_dv_desc_locate(&d, store, NULL, &path, &is_absolute, &err), &err);
    CHECK_STR_EQ(dl_buf_cstr(&path), "dv/deletion_vector_550e8400-e29b-41d4-a716-446655440000.bin");
    d.path_or_inline_dv = DL_STR("5<w-%>:JjlQ/G/]6C<1m");
    CHECK_OK(dl_delta_dv_desc_locate(&d, store, NULL, &path, &is_absolute, &err), &err);
    CHECK_STR_EQ(dl_buf_cstr(&path), "deletion_vector_123e4567-e89b-12d3-a456-426614174000.bin");
    dl_buf_destroy(&path);
    dl_store_free(store);
}

TEST(test_dv_locate_refuses_a_prefix_that_escapes_the_table) {
    dl_error err;
    dl_store *store;
    CHECK_OK(dl_store_local_new("/tmp", NULL, &store, &err), &err);
    dl_buf path;
    dl_buf_init(&path, NULL);
    bool is_absolute;
    dl_delta_dv_desc d = desc_of('u', "../^-aqEH.-t@S}K{vb[*k^", 1, true, 40, 6);
    CHECK_STATUS(dl_delta_dv_desc_locate(&d, store, "t", &path, &is_absolute, &err), DL_ERR_CORRUPT,
                 &err);
    CHECK_ERR_CONTAINS(&err, "the random prefix '../' does not make a canonical relative path");
    dl_delta_dv_desc i = desc_of('i', "wi5b=", 0, false, 4, 1);
    CHECK_STATUS(dl_delta_dv_desc_locate(&i, store, "t", &path, &is_absolute, &err),
                 DL_ERR_INVALID_ARG, &err);
    dl_buf_destroy(&path);
    dl_store_free(store);
}

TEST(test_dv_locate_absolute_paths_inside_and_outside_the_store) {
    dl_error err;
    dl_store *store;
    CHECK_OK(dl_store_local_new("/data/wh", NULL, &store, &err), &err);
    dl_buf path;
    dl_buf_init(&path, NULL);
    bool is_absolute;
    dl_delta_dv_desc d = desc_of('p', "file:/data/wh/t/deletion_vector_x.bin", 1, true, 40, 6);
    CHECK_OK(dl_delta_dv_desc_locate(&d, store, "t", &path, &is_absolute, &err), &err);
    CHECK(!is_absolute);
    CHECK_STR_EQ(dl_buf_cstr(&path), "t/deletion_vector_x.bin");
    d.path_or_inline_dv = DL_STR("file:///other/a%20b/dv%25.bin");
    CHECK_OK(dl_delta_dv_desc_locate(&d, store, "t", &path, &is_absolute, &err), &err);
    CHECK(is_absolute);
    CHECK_STR_EQ(dl_buf_cstr(&path), "/other/a b/dv%.bin");
    d.path_or_inline_dv = DL_STR("file://localhost/data/wh2/x.bin");
    CHECK_OK(dl_delta_dv_desc_locate(&d, store, "t", &path, &is_absolute, &err), &err);
    CHECK(is_absolute);
    CHECK_STR_EQ(dl_buf_cstr(&path), "/data/wh2/x.bin");
    d.path_or_inline_dv = DL_STR("/data/wh/x.bin");
    CHECK_OK(dl_delta_dv_desc_locate(&d, store, "t", &path, &is_absolute, &err), &err);
    CHECK(!is_absolute);
    CHECK_STR_EQ(dl_buf_cstr(&path), "x.bin");
    dl_buf_destroy(&path);
    dl_store_free(store);
}

TEST(test_dv_locate_refuses_other_schemes_hosts_and_bad_paths) {
    dl_error err;
    dl_store *store;
    CHECK_OK(dl_store_local_new("/data/wh", NULL, &store, &err), &err);
    dl_buf path;
    dl_buf_init(&path, NULL);
    bool is_absolute;
    dl_delta_dv_desc d =
        desc_of('p', "s3://mytable/deletion_vector_d2c639aa-8816-431a-aaf6-d3fe2512ff61.bin", 4,
                true, 40, 6);
    CHECK_STATUS(dl_delta_dv_desc_locate(&d, store, "", &path, &is_absolute, &err),
                 DL_ERR_UNSUPPORTED, &err);
    CHECK_ERR_CONTAINS(&err, "the scheme 's3' is not supported");
    d.path_or_inline_dv = DL_STR("abfss://c@acct.dfs.core.windows.net/t/dv.bin");
    CHECK_STATUS(dl_delta_dv_desc_locate(&d, store, "", &path, &is_absolute, &err),
                 DL_ERR_UNSUPPORTED, &err);
    CHECK_ERR_CONTAINS(&err, "the scheme 'abfss'");
    d.path_or_inline_dv = DL_STR("file://server/share/dv.bin");
    CHECK_STATUS(dl_delta_dv_desc_locate(&d, store, "", &path, &is_absolute, &err),
                 DL_ERR_UNSUPPORTED, &err);
    CHECK_ERR_CONTAINS(&err, "file URIs on host 'server' are not supported");
    d.path_or_inline_dv = DL_STR("relative/dv.bin");
    CHECK_STATUS(dl_delta_dv_desc_locate(&d, store, "", &path, &is_absolute, &err), DL_ERR_CORRUPT,
                 &err);
    CHECK_ERR_CONTAINS(&err, "a 'p' path must be absolute");
    d.path_or_inline_dv = DL_STR("file:/a/%zz.bin");
    CHECK_STATUS(dl_delta_dv_desc_locate(&d, store, "", &path, &is_absolute, &err), DL_ERR_CORRUPT,
                 &err);
    CHECK_ERR_CONTAINS(&err, "bad percent escape at character 3");
    d.path_or_inline_dv = DL_STR("file:/a/../etc/passwd");
    CHECK_STATUS(dl_delta_dv_desc_locate(&d, store, "", &path, &is_absolute, &err), DL_ERR_CORRUPT,
                 &err);
    CHECK_ERR_CONTAINS(&err, "is not a canonical absolute path");
    dl_buf_destroy(&path);
    dl_store_free(store);
}

/* ------------------------------------------------------------------------------------------ */
/* The set                                                                                     */

TEST(test_dv_add_contains_and_cardinality) {
    dl_error err;
    dl_delta_dv *dv;
    CHECK_OK(dl_delta_dv_new(NULL, &dv, &err), &err);
    CHECK_INT_EQ(dl_delta_dv_max_row(dv), -1);
    CHECK_OK(dl_delta_dv_add(dv, 7, &err), &err);
    CHECK_OK(dl_delta_dv_add(dv, 7, &err), &err);
    CHECK_OK(dl_delta_dv_add(dv, (int64_t)5 << 32, &err), &err);
    CHECK_OK(dl_delta_dv_add(dv, 3, &err), &err);
    CHECK_INT_EQ(dl_delta_dv_cardinality(dv), 3);
    CHECK(dl_delta_dv_contains(dv, 7));
    CHECK(dl_delta_dv_contains(dv, (int64_t)5 << 32));
    CHECK(!dl_delta_dv_contains(dv, 8));
    CHECK(!dl_delta_dv_contains(dv, -1));
    CHECK(!dl_delta_dv_contains(dv, ((int64_t)4 << 32) + 7));
    CHECK_INT_EQ(dl_delta_dv_max_row(dv), (int64_t)5 << 32);
    int64_t expect[] = {3, 7, (int64_t)5 << 32};
    CHECK(holds_exactly(dv, expect, 3));
    CHECK_STATUS(dl_delta_dv_add(dv, -1, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "row index -1 is outside the range");
    CHECK_STATUS(dl_delta_dv_add(dv, DL_DELTA_DV_MAX_ROW + 1, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_OK(dl_delta_dv_add(dv, DL_DELTA_DV_MAX_ROW, &err), &err);
    CHECK_INT_EQ(dl_delta_dv_max_row(dv), DL_DELTA_DV_MAX_ROW);
    dl_delta_dv_free(dv);
}

TEST(test_dv_union_adds_rows_and_buckets_of_the_other_set) {
    dl_error err;
    dl_delta_dv *a;
    dl_delta_dv *b;
    CHECK_OK(dl_delta_dv_new(NULL, &a, &err), &err);
    CHECK_OK(dl_delta_dv_new(NULL, &b, &err), &err);
    int64_t in_a[] = {1, 5, (int64_t)3 << 32};
    int64_t in_b[] = {0, 5, ((int64_t)2 << 32) + 9, (int64_t)3 << 32};
    CHECK_OK(dl_delta_dv_add_rows(a, in_a, 3, &err), &err);
    CHECK_OK(dl_delta_dv_add_rows(b, in_b, 4, &err), &err);
    CHECK_OK(dl_delta_dv_union(a, b, &err), &err);
    int64_t expect[] = {0, 1, 5, ((int64_t)2 << 32) + 9, (int64_t)3 << 32};
    CHECK(holds_exactly(a, expect, 5));
    CHECK_INT_EQ(dl_delta_dv_cardinality(b), 4);
    dl_delta_dv_free(b);
    dl_delta_dv_free(a);
}

TEST(test_dv_add_rows_checks_all_before_adding_any) {
    dl_error err;
    dl_delta_dv *dv;
    CHECK_OK(dl_delta_dv_new(NULL, &dv, &err), &err);
    int64_t bad[] = {1, 2, -5};
    CHECK_STATUS(dl_delta_dv_add_rows(dv, bad, 3, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "row 2 of 3");
    CHECK_INT_EQ(dl_delta_dv_cardinality(dv), 0);
    int64_t rows[] = {9, 1, (int64_t)1 << 32, 9, 2, ((int64_t)1 << 32) + 1};
    CHECK_OK(dl_delta_dv_add_rows(dv, rows, 6, &err), &err);
    int64_t expect[] = {1, 2, 9, (int64_t)1 << 32, ((int64_t)1 << 32) + 1};
    CHECK(holds_exactly(dv, expect, 5));
    dl_delta_dv_free(dv);
}

TEST(test_dv_add_range_across_a_bucket_boundary) {
    dl_error err;
    dl_delta_dv *dv;
    CHECK_OK(dl_delta_dv_new(NULL, &dv, &err), &err);
    int64_t start = ((int64_t)1 << 32) - 3;
    CHECK_OK(dl_delta_dv_add_range(dv, start, 6, &err), &err);
    int64_t expect[] = {start, start + 1, start + 2, start + 3, start + 4, start + 5};
    CHECK(holds_exactly(dv, expect, 6));
    CHECK_OK(dl_delta_dv_add_range(dv, 100, 0, &err), &err);
    CHECK_STATUS(dl_delta_dv_add_range(dv, DL_DELTA_DV_MAX_ROW, 2, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_INT_EQ(dl_delta_dv_count_range(dv, start - 10, 12), 2);
    CHECK_INT_EQ(dl_delta_dv_count_range(dv, -100, (int64_t)1 << 40), 6);
    dl_delta_dv_free(dv);
}

/* Checks the three range queries against contains() for [start, start + n). */
static bool
range_queries_agree(const dl_delta_dv *dv, int64_t start, uint32_t n, uint32_t *del,
                    uint32_t *kept) {
    int64_t n_del = dl_delta_dv_deleted_in_range(dv, start, n, del);
    int64_t n_kept = dl_delta_dv_kept_in_range(dv, start, n, kept);
    if (n_del + n_kept != (int64_t)n || dl_delta_dv_count_range(dv, start, n) != n_del) {
        printf("  counts: deleted %" PRId64 " kept %" PRId64 " of %u at %" PRId64 "\n", n_del,
               n_kept, n, start);
        return false;
    }
    int64_t d = 0;
    int64_t k = 0;
    for (uint32_t r = 0; r < n; r++) {
        if (dl_delta_dv_contains(dv, start + r)) {
            if (d >= n_del || del[d++] != r) {
                return false;
            }
        } else if (k >= n_kept || kept[k++] != r) {
            return false;
        }
    }
    return true;
}

/* One random set straddling the 3 << 32 bucket boundary: sparse values (array containers),
 * a dense block (bitsets) and a range (runs once optimized); queries checked by contains(). */
static bool
random_set_agrees(int round, uint32_t *del, uint32_t *kept) {
    dl_delta_dv *dv;
    if (dl_delta_dv_new(NULL, &dv, NULL) != DL_OK) {
        return false;
    }
    int64_t base = ((int64_t)3 << 32) - 40000;
    bool is_ok = true;
    for (int i = 0; i < 2000 && is_ok; i++) {
        is_ok = dl_delta_dv_add(dv, base + rand() % 200000, NULL) == DL_OK;
    }
    for (int i = 0; i < 12000 && is_ok; i++) {
        is_ok = dl_delta_dv_add(dv, base + 70000 + rand() % 20000, NULL) == DL_OK;
    }
    is_ok = is_ok && dl_delta_dv_add_range(dv, base + 38000 + rand() % 3000, 5000, NULL) == DL_OK;
    if (round % 2 == 1) {
        dl_delta_dv_optimize(dv);
    }
    for (int q = 0; q < 40 && is_ok; q++) {
        int64_t start = base - 1000 + rand() % 210000;
        uint32_t n = (uint32_t)(rand() % 3 == 0 ? rand() % 70000 : rand() % 2049);
        is_ok = range_queries_agree(dv, start, n, del, kept);
    }
    is_ok = is_ok && range_queries_agree(dv, 0, 0, del, kept) &&
            range_queries_agree(dv, base + 38000, 65536, del, kept) &&
            range_queries_agree(dv, -100, 300, del, kept);
    dl_delta_dv_free(dv);
    return is_ok;
}

TEST(test_dv_range_queries_match_contains_on_random_sets) {
    srand(42);
    uint32_t *del = malloc(70000 * sizeof(uint32_t));
    uint32_t *kept = malloc(70000 * sizeof(uint32_t));
    int n_bad = 0;
    for (int round = 0; round < 12; round++) {
        n_bad += del != NULL && kept != NULL && random_set_agrees(round, del, kept) ? 0 : 1;
    }
    free(del);
    free(kept);
    CHECK_INT_EQ(n_bad, 0);
}

TEST(test_dv_kept_in_range_handles_dense_windows_and_all_deleted) {
    dl_error err;
    dl_delta_dv *dv;
    CHECK_OK(dl_delta_dv_new(NULL, &dv, &err), &err);
    for (int64_t r = 0; r < 10000; r += 3) {
        CHECK_OK(dl_delta_dv_add(dv, r, &err), &err);
    }
    CHECK_OK(dl_delta_dv_add_range(dv, 20000, 5000, &err), &err);
    static uint32_t del[30000];
    static uint32_t kept[30000];
    CHECK(range_queries_agree(dv, 5, 9000, del, kept));     /* dense, windows of 4096 */
    CHECK(range_queries_agree(dv, 0, 30000, del, kept));    /* dense, sparse and full */
    CHECK(range_queries_agree(dv, 20000, 5000, del, kept)); /* everything deleted */
    CHECK_INT_EQ(dl_delta_dv_kept_in_range(dv, 20000, 5000, kept), 0);
    CHECK(range_queries_agree(dv, 19990, 20, del, kept)); /* 10 kept then 10 deleted */
    dl_delta_dv_free(dv);
}

TEST(test_dv_kept_in_range_of_an_empty_set_is_every_row) {
    dl_error err;
    dl_delta_dv *dv;
    CHECK_OK(dl_delta_dv_new(NULL, &dv, &err), &err);
    uint32_t kept[16];
    CHECK_INT_EQ(dl_delta_dv_kept_in_range(dv, 100, 16, kept), 16);
    CHECK_INT_EQ(kept[0], 0);
    CHECK_INT_EQ(kept[15], 15);
    CHECK_INT_EQ(dl_delta_dv_deleted_in_range(dv, 100, 16, kept), 0);
    dl_delta_dv_free(dv);
}

/* ------------------------------------------------------------------------------------------ */
/* Serialized form                                                                             */

TEST(test_dv_parse_reads_the_kernel_rs_inline_example) {
    /* PROTOCOL.md's inline example is known to be wrong (its magic is big-endian,
     * delta-io/delta#3063); this is the corrected one that delta-kernel-rs tests. */
    dl_delta_dv_desc d =
        desc_of('i', "^Bg9^0rr910000000000iXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L", 0, false, 44, 6);
    dl_error err;
    dl_delta_dv *dv;
    CHECK_OK(dl_delta_dv_load(NULL, NULL, &d, NULL, &dv, &err), &err);
    int64_t expect[] = {3, 4, 7, 11, 18, 29};
    CHECK(holds_exactly(dv, expect, 6));
    dl_delta_dv_free(dv);
    dl_delta_dv_desc wrong =
        desc_of('i', "wi5b=000010000siXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L", 0, false, 40, 6);
    CHECK_STATUS(dl_delta_dv_load(NULL, NULL, &wrong, NULL, &dv, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "unknown magic number 3503503716");
}

TEST(test_dv_inline_with_z85_crate_padding_is_read) {
    /* From kernel-rs/cdf-table-with-dv v5 (Databricks-written): the last block "##093" holds
     * the two bytes 03 00 in the Rust z85 crate's padded form; the DV deletes row 3. */
    dl_delta_dv_desc d =
        desc_of('i', "^Bg9^0rr910000000000iXQKl0rr91000005c8Xg##093", 0, false, 34, 1);
    dl_error err;
    dl_delta_dv *dv;
    CHECK_OK(dl_delta_dv_load(NULL, NULL, &d, NULL, &dv, &err), &err);
    int64_t expect[] = {3};
    CHECK(holds_exactly(dv, expect, 1));
    dl_delta_dv_free(dv);
}

TEST(test_dv_parse_reads_the_legacy_native_layout) {
    bytes b = {.n = 0};
    put32(&b, DL_DELTA_DV_MAGIC_NATIVE);
    put32(&b, 3);
    static const uint16_t v0[] = {3, 4, 7};
    put32(&b, 8 + 4 + 4 + 6);
    put_array_bitmap(&b, 0, v0, 3);
    put32(&b, 8); /* bitmap 1: empty */
    put32(&b, 12346);
    put32(&b, 0);
    static const uint16_t v2[] = {1};
    put32(&b, 8 + 4 + 4 + 2);
    put_array_bitmap(&b, 2, v2, 1);
    dl_error err;
    dl_delta_dv *dv;
    CHECK_OK(parse(&b, &dv, &err), &err);
    int64_t expect[] = {3, 4, 7, ((int64_t)2 << 32) | (2 << 16) | 1};
    CHECK(holds_exactly(dv, expect, 4));
    dl_delta_dv_free(dv);
}

TEST(test_dv_serialize_then_parse_round_trips) {
    dl_error err;
    dl_delta_dv *dv;
    CHECK_OK(dl_delta_dv_new(NULL, &dv, &err), &err);
    srand(3);
    for (int i = 0; i < 5000; i++) {
        CHECK_OK(dl_delta_dv_add(dv, rand() % 300000, &err), &err);
    }
    CHECK_OK(dl_delta_dv_add_range(dv, ((int64_t)7 << 32) + 10, 100000, &err), &err);
    CHECK_OK(dl_delta_dv_add(dv, DL_DELTA_DV_MAX_ROW, &err), &err);
    for (int pass = 0; pass < 2; pass++) {
        dl_buf buf;
        dl_buf_init(&buf, NULL);
        CHECK_OK(dl_delta_dv_serialize(dv, &buf, &err), &err);
        dl_delta_dv *back;
        CHECK_OK(dl_delta_dv_parse(buf.data, buf.len, NULL, &back, &err), &err);
        CHECK(dl_delta_dv_equal(dv, back));
        CHECK_INT_EQ(dl_delta_dv_cardinality(back), dl_delta_dv_cardinality(dv));
        dl_buf again;
        dl_buf_init(&again, NULL);
        CHECK_OK(dl_delta_dv_serialize(back, &again, &err), &err);
        CHECK(again.len == buf.len && memcmp(again.data, buf.data, buf.len) == 0);
        dl_buf_destroy(&again);
        dl_delta_dv_free(back);
        dl_buf_destroy(&buf);
        dl_delta_dv_optimize(dv); /* second pass: run containers */
    }
    dl_delta_dv *empty;
    CHECK_OK(dl_delta_dv_new(NULL, &empty, &err), &err);
    CHECK(!dl_delta_dv_equal(dv, empty));
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    CHECK_OK(dl_delta_dv_serialize(empty, &buf, &err), &err);
    CHECK_INT_EQ(buf.len, 12);
    dl_delta_dv *back;
    CHECK_OK(dl_delta_dv_parse(buf.data, buf.len, NULL, &back, &err), &err);
    CHECK_INT_EQ(dl_delta_dv_cardinality(back), 0);
    dl_delta_dv_free(back);
    dl_buf_destroy(&buf);
    dl_delta_dv_free(empty);
    dl_delta_dv_free(dv);
}

TEST(test_dv_parse_accepts_hand_built_run_and_bitset_containers) {
    bytes b = {.n = 0};
    put_portable_head(&b, 1);
    put32(&b, 0);
    /* cookie 12347 with 2 containers: run bitset 0b01 (container 0 is a run), no offsets. */
    put32(&b, 12347u | (1u << 16));
    put8(&b, 0x01);
    put16(&b, 0);
    put16(&b, 10 - 1); /* header cardinality of the run container */
    put16(&b, 1);
    put16(&b, 5000 - 1);
    put16(&b, 2); /* two runs: [0, 4] and [10, 14] */
    put16(&b, 0);
    put16(&b, 4);
    put16(&b, 10);
    put16(&b, 4);
    for (int w = 0; w < 1024; w++) { /* bitset: 5000 values 0..4999 */
        uint64_t word = w < 78 ? UINT64_MAX : (w == 78 ? ((uint64_t)1 << 8) - 1 : 0);
        put64(&b, word);
    }
    dl_error err;
    dl_delta_dv *dv;
    CHECK_OK(parse(&b, &dv, &err), &err);
    CHECK_INT_EQ(dl_delta_dv_cardinality(dv), 5010);
    CHECK(dl_delta_dv_contains(dv, 14));
    CHECK(!dl_delta_dv_contains(dv, 15));
    CHECK(dl_delta_dv_contains(dv, 65536 + 4999));
    CHECK(!dl_delta_dv_contains(dv, 65536 + 5000));
    dl_delta_dv_free(dv);
}

/* Parses b and checks that it fails as CORRUPT with needle in the message. */
#define CHECK_PARSE_CORRUPT(b, needle)                                \
    do {                                                              \
        dl_error err_;                                                \
        dl_delta_dv *dv_ = NULL;                                      \
        CHECK_STATUS(parse((b), &dv_, &err_), DL_ERR_CORRUPT, &err_); \
        CHECK(dv_ == NULL);                                           \
        CHECK_ERR_CONTAINS(&err_, needle);                            \
        CHECK(err_.offset >= 0 && (size_t)err_.offset <= (b)->n);     \
    } while (0)

TEST(test_dv_parse_refuses_bad_headers) {
    bytes b = {.n = 0};
    put16(&b, 1);
    CHECK_PARSE_CORRUPT(&b, "RoaringBitmapArray at byte 0: 2 bytes cannot hold the 4-byte magic");
    b.n = 0;
    put32(&b, 12345);
    CHECK_PARSE_CORRUPT(&b, "unknown magic number 12345 (expected 1681511377 or 1681511376)");
    b.n = 0;
    put32(&b, DL_DELTA_DV_MAGIC_PORTABLE);
    put32(&b, 0);
    CHECK_PARSE_CORRUPT(&b, "the 8-byte bucket count needs 4 more bytes");
    b.n = 0;
    put_portable_head(&b, 1000000);
    put32(&b, 0);
    CHECK_PARSE_CORRUPT(&b, "1000000 buckets cannot fit in the 4 bytes that follow");
    b.n = 0;
    put_portable_head(&b, (uint64_t)1 << 63);
    CHECK_PARSE_CORRUPT(&b, "9223372036854775808 buckets cannot fit");
    b.n = 0;
    put32(&b, DL_DELTA_DV_MAGIC_NATIVE);
    put32(&b, 0x80000000u);
    CHECK_PARSE_CORRUPT(&b, "2147483648 bitmaps cannot fit");
}

TEST(test_dv_parse_refuses_bad_bucket_keys) {
    static const uint16_t v[] = {1};
    bytes b = {.n = 0};
    put_portable_head(&b, 1);
    put32(&b, 0x80000000u);
    put_array_bitmap(&b, 0, v, 1);
    CHECK_PARSE_CORRUPT(
        &b, "RoaringBitmapArray at byte 12: bucket 0: key 2147483648 has its top bit set");
    b.n = 0;
    put_portable_head(&b, 2);
    put32(&b, 5);
    put_array_bitmap(&b, 0, v, 1);
    put32(&b, 5);
    put_array_bitmap(&b, 0, v, 1);
    CHECK_PARSE_CORRUPT(&b, "bucket 1: key 5 is not above the previous key");
}

TEST(test_dv_parse_refuses_bad_containers) {
    bytes b = {.n = 0};
    put_portable_head(&b, 1);
    put32(&b, 0);
    put32(&b, 99);
    put32(&b, 0);
    CHECK_PARSE_CORRUPT(&b, "bucket 0: cookie 99 is neither 12346 nor 12347");

    static const uint16_t unsorted[] = {5, 3};
    b.n = 0;
    put_portable_head(&b, 1);
    put32(&b, 0);
    put_array_bitmap(&b, 0, unsorted, 2);
    CHECK_PARSE_CORRUPT(&b, "bucket 0: array container 0: value 3 after 5 is not ascending");

    b.n = 0;
    put_portable_head(&b, 1);
    put32(&b, 0);
    put32(&b, 12346);
    put32(&b, 2);
    put16(&b, 3);
    put16(&b, 0);
    put16(&b, 3);
    put16(&b, 0);
    put32(&b, 0);
    put32(&b, 0);
    put16(&b, 1);
    put16(&b, 1);
    CHECK_PARSE_CORRUPT(&b, "bucket 0: container key 3 after 3 is not ascending");

    b.n = 0;
    put_portable_head(&b, 1);
    put32(&b, 0);
    put32(&b, 12346);
    put32(&b, 70000);
    CHECK_PARSE_CORRUPT(&b, "bucket 0: 70000 containers (at most 65536)");

    b.n = 0;
    put_portable_head(&b, 1);
    put32(&b, 0);
    put32(&b, 12346);
    put32(&b, 1);
    put16(&b, 0);
    put16(&b, 4999); /* 5000 values declared: a bitset, of which only 64 bits are set */
    put32(&b, 16);
    put64(&b, UINT64_MAX);
    for (int w = 1; w < 1024; w++) {
        put64(&b, 0);
    }
    CHECK_PARSE_CORRUPT(&b, "bucket 0: bitset container 0 holds 64 values but declares 5000");
}

/* A portable array with one bucket holding one run container with the runs given. */
static void
put_run_bitmap(bytes *b, const uint16_t *runs, uint32_t n_runs) {
    put_portable_head(b, 1);
    put32(b, 0);
    put32(b, 12347);
    put8(b, 0x01);
    put16(b, 0);
    put16(b, 0);
    put16(b, n_runs);
    for (uint32_t i = 0; i < 2 * n_runs; i++) {
        put16(b, runs[i]);
    }
}

TEST(test_dv_parse_refuses_bad_run_containers) {
    bytes b = {.n = 0};
    static const uint16_t overlap[] = {10, 5, 12, 1};
    put_run_bitmap(&b, overlap, 2);
    CHECK_PARSE_CORRUPT(&b, "run container 0: run 1 [12, 13] overlaps or precedes the one before");
    b.n = 0;
    static const uint16_t past[] = {65530, 10};
    put_run_bitmap(&b, past, 1);
    CHECK_PARSE_CORRUPT(&b, "run 0 [65530, 65540] passes 65535");
    b.n = 0;
    put_run_bitmap(&b, past, 0);
    CHECK_PARSE_CORRUPT(&b, "run container 0 has no runs");
    b.n = 0;
    static const uint16_t adjacent[] = {0, 4, 5, 4}; /* [0,4] and [5,9]: fine, if not optimal */
    put_run_bitmap(&b, adjacent, 2);
    dl_error err;
    dl_delta_dv *dv;
    CHECK_OK(parse(&b, &dv, &err), &err);
    CHECK_INT_EQ(dl_delta_dv_cardinality(dv), 10);
    dl_delta_dv_free(dv);
}

TEST(test_dv_parse_refuses_truncation_at_every_length) {
    static const uint16_t v[] = {1, 2, 300};
    bytes b = {.n = 0};
    put_portable_head(&b, 2);
    put32(&b, 0);
    put_array_bitmap(&b, 0, v, 3);
    put32(&b, 1);
    put_array_bitmap(&b, 4, v, 3);
    dl_error err;
    dl_delta_dv *dv;
    CHECK_OK(parse(&b, &dv, &err), &err);
    dl_delta_dv_free(dv);
    size_t full = b.n;
    for (size_t n = 0; n < full; n++) {
        b.n = n;
        CHECK_STATUS(parse(&b, &dv, &err), DL_ERR_CORRUPT, &err);
    }
    b.n = full;
    put8(&b, 0);
    CHECK_PARSE_CORRUPT(&b, "1 bytes left over after the last bucket");
}

/* ------------------------------------------------------------------------------------------ */
/* Files                                                                                       */

/* A DV file with the given bitmap bytes at offset 1. */
static void
put_dv_file(bytes *file, const bytes *bitmap) {
    file->n = 0;
    put8(file, 1);
    put_be32(file, (uint32_t)bitmap->n);
    memcpy(file->d + file->n, bitmap->d, bitmap->n);
    file->n += bitmap->n;
    put_be32(file, (uint32_t)crc32(0L, bitmap->d, (uInt)bitmap->n));
}

TEST(test_dv_parse_file_checks_version_size_and_checksum) {
    static const uint16_t v[] = {0, 9};
    bytes bitmap = {.n = 0};
    put_portable_head(&bitmap, 1);
    put32(&bitmap, 0);
    put_array_bitmap(&bitmap, 0, v, 2);
    CHECK_INT_EQ(bitmap.n, 36); /* as table-with-dv-small's DV */
    bytes file;
    put_dv_file(&file, &bitmap);
    dl_error err;
    dl_delta_dv *dv;
    CHECK_OK(dl_delta_dv_parse_file(file.d, file.n, 1, 36, "f.bin", NULL, &dv, &err), &err);
    int64_t expect[] = {0, 9};
    CHECK(holds_exactly(dv, expect, 2));
    dl_delta_dv_free(dv);

    CHECK_STATUS(dl_delta_dv_parse_file(file.d, file.n, 1, 35, "f.bin", NULL, &dv, &err),
                 DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "'f.bin': the DV at offset 1 has size 36 in the file but "
                             "sizeInBytes 35 in its descriptor");
    CHECK_STATUS(dl_delta_dv_parse_file(file.d, file.n, 2, 36, "f.bin", NULL, &dv, &err),
                 DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "runs past the end of the file (45 bytes)");
    file.d[20] ^= 1;
    CHECK_STATUS(dl_delta_dv_parse_file(file.d, file.n, 1, 36, "f.bin", NULL, &dv, &err),
                 DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "deletion vector file 'f.bin': the DV at offset 1 (36 bytes) fails "
                             "its checksum: the file says CRC-32 0x");
    CHECK_ERR_CONTAINS(&err, ", the bytes give 0x");
    CHECK_INT_EQ(err.offset, 41);
    file.d[20] ^= 1;
    file.d[0] = 2;
    CHECK_STATUS(dl_delta_dv_parse_file(file.d, file.n, 1, 36, "f.bin", NULL, &dv, &err),
                 DL_ERR_UNSUPPORTED, &err);
    CHECK_ERR_CONTAINS(&err, "has format version 2; only version 1 is supported");
    file.d[0] = 1;
    /* A bad bitmap behind a good checksum: the message names the file and the byte. */
    bitmap.d[bitmap.n - 2] = 0; /* the values 0, 9 become 0, 0 */
    put_dv_file(&file, &bitmap);
    CHECK_STATUS(dl_delta_dv_parse_file(file.d, file.n, 1, 36, "f.bin", NULL, &dv, &err),
                 DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "deletion vector file 'f.bin', DV at offset 1: RoaringBitmapArray at "
                             "byte 34: bucket 0: array container 0: value 0 after 0");
    CHECK_INT_EQ(err.offset, 1 + 4 + 34);
}

/* A scratch table folder with a store on it. */
typedef struct scratch {
    char root[TESTUTIL_ROOT_CAP];
    dl_store *store;
    dl_arena arena;
} scratch;

static bool
scratch_open(scratch *s) {
    dl_arena_init(&s->arena, NULL, 0);
    return testutil_make_tmp_dir(s->root) &&
           dl_store_local_new(s->root, NULL, &s->store, NULL) == DL_OK;
}

static void
scratch_close(scratch *s) {
    dl_store_free(s->store);
    testutil_remove_tree(s->root);
    dl_arena_destroy(&s->arena);
}

static const uint8_t test_uuid[16] = {0xd2, 0xc6, 0x39, 0xaa, 0x88, 0x16, 0x43, 0x1a,
                                      0xaa, 0xf6, 0xd3, 0xfe, 0x25, 0x12, 0xff, 0x61};

TEST(test_dv_file_writer_writes_several_dvs_that_load_back) {
    scratch s;
    CHECK(scratch_open(&s));
    dl_error err;
    dl_delta_dv *a;
    dl_delta_dv *b;
    CHECK_OK(dl_delta_dv_new(NULL, &a, &err), &err);
    CHECK_OK(dl_delta_dv_new(NULL, &b, &err), &err);
    CHECK_OK(dl_delta_dv_add_range(a, 0, 3000, &err), &err);
    dl_delta_dv_optimize(a);
    CHECK_OK(dl_delta_dv_add(b, ((int64_t)2 << 32) + 5, &err), &err);
    dl_delta_dv_file_writer *w;
    CHECK_OK(dl_delta_dv_file_writer_open(s.store, "tbl", "ab", test_uuid, &s.arena, &w, &err),
             &err);
    CHECK_STR_EQ(dl_delta_dv_file_writer_path(w),
                 "tbl/ab/deletion_vector_d2c639aa-8816-431a-aaf6-d3fe2512ff61.bin");
    dl_delta_dv_desc da;
    dl_delta_dv_desc db;
    CHECK_OK(dl_delta_dv_file_writer_add(w, a, &da, &err), &err);
    CHECK_OK(dl_delta_dv_file_writer_add(w, b, &db, &err), &err);
    CHECK_OK(dl_delta_dv_file_writer_commit(w, &err), &err);
    CHECK(da.storage_type == 'u' && da.has_offset && da.offset == 1);
    CHECK(dl_str_eq_cstr(da.path_or_inline_dv, "ab^-aqEH.-t@S}K{vb[*k^"));
    CHECK_INT_EQ(da.cardinality, 3000);
    CHECK_INT_EQ(db.offset, 1 + 4 + da.size_in_bytes + 4);
    CHECK_INT_EQ(db.cardinality, 1);
    dl_delta_dv *back;
    CHECK_OK(dl_delta_dv_load(s.store, "tbl", &db, NULL, &back, &err), &err);
    CHECK(dl_delta_dv_equal(back, b));
    dl_delta_dv_free(back);
    CHECK_OK(dl_delta_dv_load(s.store, "tbl/", &da, NULL, &back, &err), &err);
    CHECK(dl_delta_dv_equal(back, a));
    dl_delta_dv_free(back);
    /* The same UUID again: put-if-absent refuses to replace the file. */
    CHECK_OK(dl_delta_dv_file_writer_open(s.store, "tbl", "ab", test_uuid, &s.arena, &w, &err),
             &err);
    CHECK_OK(dl_delta_dv_file_writer_add(w, a, &da, &err), &err);
    CHECK_STATUS(dl_delta_dv_file_writer_commit(w, &err), DL_ERR_EXISTS, &err);
    CHECK_ERR_CONTAINS(&err, "deletion vector file 'tbl/ab/deletion_vector_d2c639aa");
    dl_delta_dv_free(a);
    dl_delta_dv_free(b);
    scratch_close(&s);
}

TEST(test_dv_file_writer_with_no_dv_creates_no_file) {
    scratch s;
    CHECK(scratch_open(&s));
    dl_error err;
    dl_delta_dv_file_writer *w;
    CHECK_OK(dl_delta_dv_file_writer_open(s.store, "", "", NULL, &s.arena, &w, &err), &err);
    char path[200];
    (void)snprintf(path, sizeof(path), "%s", dl_delta_dv_file_writer_path(w));
    CHECK(strncmp(path, "deletion_vector_", 16) == 0);
    CHECK_OK(dl_delta_dv_file_writer_commit(w, &err), &err);
    dl_store_info info;
    CHECK_STATUS(dl_store_stat(s.store, path, &info, &err), DL_ERR_NOT_FOUND, &err);
    CHECK_OK(dl_delta_dv_file_writer_open(s.store, "", "", NULL, &s.arena, &w, &err), &err);
    dl_delta_dv_file_writer_abort(w);
    CHECK_STATUS(dl_delta_dv_file_writer_open(s.store, "t", "../x", NULL, &s.arena, &w, &err),
                 DL_ERR_INVALID_ARG, &err);
    scratch_close(&s);
}

TEST(test_dv_load_reports_missing_file_and_cardinality_mismatch) {
    scratch s;
    CHECK(scratch_open(&s));
    dl_error err;
    dl_delta_dv *dv;
    dl_delta_dv_desc d = desc_of('u', "ab^-aqEH.-t@S}K{vb[*k^", 1, true, 36, 2);
    CHECK_STATUS(dl_delta_dv_load(s.store, "", &d, NULL, &dv, &err), DL_ERR_NOT_FOUND, &err);
    CHECK_ERR_CONTAINS(&err, "deletion vector file "
                             "'ab/deletion_vector_d2c639aa-8816-431a-aaf6-d3fe2512ff61.bin'");
    CHECK_OK(dl_delta_dv_new(NULL, &dv, &err), &err);
    CHECK_OK(dl_delta_dv_add(dv, 4, &err), &err);
    dl_delta_dv_file_writer *w;
    CHECK_OK(dl_delta_dv_file_writer_open(s.store, "", "ab", test_uuid, &s.arena, &w, &err), &err);
    CHECK_OK(dl_delta_dv_file_writer_add(w, dv, &d, &err), &err);
    CHECK_OK(dl_delta_dv_file_writer_commit(w, &err), &err);
    dl_delta_dv_free(dv);
    d.cardinality = 2;
    CHECK_STATUS(dl_delta_dv_load(s.store, "", &d, NULL, &dv, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "deletion vector 'uab^-aqEH.-t@S}K{vb[*k^@1' holds 1 rows but its "
                             "descriptor says cardinality 2");
    d.cardinality = 1;
    d.has_max_row_index = true;
    d.max_row_index = 3;
    CHECK_STATUS(dl_delta_dv_load(s.store, "", &d, NULL, &dv, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "deletes row 4, beyond its descriptor's maxRowIndex 3");
    d.max_row_index = 4;
    CHECK_OK(dl_delta_dv_load(s.store, "", &d, NULL, &dv, &err), &err);
    dl_delta_dv_free(dv);
    d.has_offset = false;
    CHECK_STATUS(dl_delta_dv_load(s.store, "", &d, NULL, &dv, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "a DV cannot start at offset 0, on the version byte");
    d.has_offset = true;
    d.offset = 1000;
    CHECK_STATUS(dl_delta_dv_load(s.store, "", &d, NULL, &dv, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "runs past the end of the file");
    scratch_close(&s);
}

TEST(test_dv_load_absolute_path_outside_the_store) {
    scratch table;
    scratch other;
    CHECK(scratch_open(&table));
    CHECK(scratch_open(&other));
    dl_error err;
    dl_delta_dv *dv;
    CHECK_OK(dl_delta_dv_new(NULL, &dv, &err), &err);
    CHECK_OK(dl_delta_dv_add_range(dv, 10, 5, &err), &err);
    dl_delta_dv_file_writer *w;
    dl_delta_dv_desc d;
    CHECK_OK(dl_delta_dv_file_writer_open(other.store, "", "", test_uuid, &other.arena, &w, &err),
             &err);
    CHECK_OK(dl_delta_dv_file_writer_add(w, dv, &d, &err), &err);
    CHECK_OK(dl_delta_dv_file_writer_commit(w, &err), &err);
    char uri[300];
    (void)snprintf(uri, sizeof(uri),
                   "file://%s/deletion_vector_d2c639aa-8816-431a-aaf6-d3fe2512ff61.bin",
                   other.root);
    dl_delta_dv_desc p = d;
    p.storage_type = 'p';
    p.path_or_inline_dv = dl_str_from_cstr(uri);
    dl_delta_dv *back;
    CHECK_OK(dl_delta_dv_load(table.store, "", &p, NULL, &back, &err), &err);
    CHECK(dl_delta_dv_equal(back, dv));
    dl_delta_dv_free(back);
    /* The same file through the store that holds it: read relative to its root. */
    CHECK_OK(dl_delta_dv_load(other.store, "", &p, NULL, &back, &err), &err);
    CHECK(dl_delta_dv_equal(back, dv));
    dl_delta_dv_free(back);
    dl_delta_dv_free(dv);
    scratch_close(&other);
    scratch_close(&table);
}

/* A set of n rows (one far out in another bucket) survives to_inline -> load. */
static bool
inline_round_trips(int n, dl_arena *arena) {
    dl_delta_dv *dv;
    dl_delta_dv *back = NULL;
    dl_delta_dv_desc d;
    if (dl_delta_dv_new(NULL, &dv, NULL) != DL_OK) {
        return false;
    }
    bool is_ok = true;
    for (int i = 0; i < n && is_ok; i++) {
        is_ok =
            dl_delta_dv_add(dv, (int64_t)i * 3 + (i == 5 ? (int64_t)1 << 33 : 0), NULL) == DL_OK;
    }
    is_ok = is_ok && dl_delta_dv_to_inline(dv, arena, &d, NULL) == DL_OK && d.storage_type == 'i' &&
            !d.has_offset &&
            d.path_or_inline_dv.len == dl_delta_z85_encoded_len((size_t)d.size_in_bytes) &&
            dl_delta_dv_desc_check(&d, NULL) == DL_OK &&
            dl_delta_dv_load(NULL, NULL, &d, NULL, &back, NULL) == DL_OK &&
            dl_delta_dv_equal(back, dv);
    dl_delta_dv_free(back);
    dl_delta_dv_free(dv);
    return is_ok;
}

TEST(test_dv_inline_round_trip) {
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    int n_bad = 0;
    for (int n = 0; n < 9; n++) {
        n_bad += inline_round_trips(n, &arena) ? 0 : 1;
    }
    dl_arena_destroy(&arena);
    CHECK_INT_EQ(n_bad, 0);
}

/* ------------------------------------------------------------------------------------------ */
/* Fault injection                                                                             */

/* Loads desc with the fail_at-th allocation failing, for every fail_at until one succeeds:
 * each failure must be a clean NOMEM that leaks nothing, and the success must equal want. */
static bool
load_survives_faults(dl_store *store, const dl_delta_dv_desc *desc, const dl_delta_dv *want) {
    for (int64_t fail_at = 1; fail_at < 100; fail_at++) {
        dl_fault_allocator fa;
        dl_fault_allocator_init(&fa, fail_at, true);
        dl_delta_dv *back = NULL;
        dl_status st = dl_delta_dv_load(store, "", desc, &fa.base, &back, NULL);
        bool is_equal = st == DL_OK && dl_delta_dv_equal(back, want);
        dl_delta_dv_free(back);
        if (fa.live_blocks != 0 || (st != DL_OK && (st != DL_ERR_NOMEM || back != NULL))) {
            printf("  fail_at %" PRId64 ": %s, %" PRId64 " blocks live\n", fail_at,
                   dl_status_name(st), fa.live_blocks);
            return false;
        }
        if (st == DL_OK) {
            return is_equal;
        }
    }
    return false;
}

TEST(test_dv_load_fails_cleanly_at_every_allocation) {
    scratch s;
    CHECK(scratch_open(&s));
    dl_error err;
    dl_delta_dv *dv;
    CHECK_OK(dl_delta_dv_new(NULL, &dv, &err), &err);
    CHECK_OK(dl_delta_dv_add_range(dv, 0, 100, &err), &err);
    for (int64_t key = 3; key < 7; key++) {
        CHECK_OK(dl_delta_dv_add(dv, (key << 32) + 1, &err), &err);
    }
    dl_delta_dv_file_writer *w;
    dl_delta_dv_desc file_desc;
    CHECK_OK(dl_delta_dv_file_writer_open(s.store, "", "", test_uuid, &s.arena, &w, &err), &err);
    CHECK_OK(dl_delta_dv_file_writer_add(w, dv, &file_desc, &err), &err);
    CHECK_OK(dl_delta_dv_file_writer_commit(w, &err), &err);
    dl_delta_dv_desc inline_desc;
    CHECK_OK(dl_delta_dv_to_inline(dv, &s.arena, &inline_desc, &err), &err);
    bool is_file_ok = load_survives_faults(s.store, &file_desc, dv);
    bool is_inline_ok = load_survives_faults(s.store, &inline_desc, dv);
    dl_delta_dv_free(dv);
    scratch_close(&s);
    CHECK(is_file_ok);
    CHECK(is_inline_ok);
}

int
main(void) {
    RUN(test_dv_unique_id_appends_offset_only_when_present);
    RUN(test_dv_desc_check_refuses_unknown_storage_type_as_unsupported);
    RUN(test_dv_desc_check_refuses_bad_fields_as_corrupt);
    RUN(test_dv_locate_uuid_with_prefix_as_in_the_protocol_example);
    RUN(test_dv_locate_refuses_a_prefix_that_escapes_the_table);
    RUN(test_dv_locate_absolute_paths_inside_and_outside_the_store);
    RUN(test_dv_locate_refuses_other_schemes_hosts_and_bad_paths);
    RUN(test_dv_add_contains_and_cardinality);
    RUN(test_dv_union_adds_rows_and_buckets_of_the_other_set);
    RUN(test_dv_add_rows_checks_all_before_adding_any);
    RUN(test_dv_add_range_across_a_bucket_boundary);
    RUN(test_dv_range_queries_match_contains_on_random_sets);
    RUN(test_dv_kept_in_range_handles_dense_windows_and_all_deleted);
    RUN(test_dv_kept_in_range_of_an_empty_set_is_every_row);
    RUN(test_dv_parse_reads_the_kernel_rs_inline_example);
    RUN(test_dv_inline_with_z85_crate_padding_is_read);
    RUN(test_dv_parse_reads_the_legacy_native_layout);
    RUN(test_dv_serialize_then_parse_round_trips);
    RUN(test_dv_parse_accepts_hand_built_run_and_bitset_containers);
    RUN(test_dv_parse_refuses_bad_headers);
    RUN(test_dv_parse_refuses_bad_bucket_keys);
    RUN(test_dv_parse_refuses_bad_containers);
    RUN(test_dv_parse_refuses_bad_run_containers);
    RUN(test_dv_parse_refuses_truncation_at_every_length);
    RUN(test_dv_parse_file_checks_version_size_and_checksum);
    RUN(test_dv_file_writer_writes_several_dvs_that_load_back);
    RUN(test_dv_file_writer_with_no_dv_creates_no_file);
    RUN(test_dv_load_reports_missing_file_and_cardinality_mismatch);
    RUN(test_dv_load_absolute_path_outside_the_store);
    RUN(test_dv_inline_round_trip);
    RUN(test_dv_load_fails_cleanly_at_every_allocation);
    return harness_finish();
}
