/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Bloom filters: xxHash64 against its reference values, the split block filter (insert, check,
 * sizing, folding, the distinct-value estimate), the filters parquet-mr wrote in
 * parquet-testing (a bare filter and a file's), and filters our writer writes read back by the
 * reader to skip row groups for `=` and IN, with damaged filters ignored.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"
#include "parquet/pq_reader_int.h"
#include "parquet/pq_writer.h"
#include "test_pq_read_util.h"
#include "test_pq_write_util.h"

#define DATA_DIR DL_CORPUS_DIR "/parquet-testing/data"

static dl_error err;

static uint64_t rng = 0x2545F4914F6CDD1DULL;

static uint64_t
rnd(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static bool
have_corpus(void) {
    struct stat st;
    if (stat(DATA_DIR, &st) != 0) {
        printf("  corpus not found at %s: this check is skipped\n", DATA_DIR);
        return false;
    }
    return true;
}

/* ---- xxHash64 and the filter ------------------------------------------------------------------
 */

TEST(test_xxhash64_matches_the_reference_values) {
    CHECK(dl_pq_xxhash64("", 0, 0) == 0xEF46DB3751D8E999ULL);
    CHECK(dl_pq_xxhash64("a", 1, 0) == 0xD24EC4F1A98C6E5BULL);
    CHECK(dl_pq_xxhash64("abc", 3, 0) == 0x44BC2CF5AD770999ULL);
    const char *s = "Nobody inspects the spammish repetition"; /* 39 bytes: stripes too */
    CHECK(dl_pq_xxhash64(s, strlen(s), 0) == 0xFBCEA83C8A378BF1ULL);
}

TEST(test_filter_holds_every_value_inserted_and_few_others) {
    static uint8_t bits[8192];
    memset(bits, 0, sizeof(bits));
    uint64_t saved = rng;
    for (int i = 0; i < 5000; i++) {
        dl_pq_bloom_insert(bits, sizeof(bits), rnd());
    }
    rng = saved;
    for (int i = 0; i < 5000; i++) {
        CHECK(dl_pq_bloom_check(bits, sizeof(bits), rnd()));
    }
    int false_pos = 0;
    for (int i = 0; i < 10000; i++) {
        false_pos += dl_pq_bloom_check(bits, sizeof(bits), rnd());
    }
    /* 65,536 bits for 5,000 values: about 1.4 % false positives. */
    CHECK(false_pos > 20 && false_pos < 400);
}

TEST(test_folding_gives_the_filter_the_smaller_size_would_have_built) {
    static uint8_t big[65536];
    static uint8_t small[1024];
    memset(big, 0, sizeof(big));
    memset(small, 0, sizeof(small));
    for (int i = 0; i < 300; i++) {
        uint64_t h = rnd();
        dl_pq_bloom_insert(big, sizeof(big), h);
        dl_pq_bloom_insert(small, sizeof(small), h);
    }
    CHECK_INT_EQ(dl_pq_bloom_fold(big, sizeof(big), 1024), 1024);
    CHECK(memcmp(big, small, sizeof(small)) == 0);
    CHECK_INT_EQ(dl_pq_bloom_fold(big, 1024, 5000), 1024); /* already small enough */
    CHECK_INT_EQ(dl_pq_bloom_fold(big, 1024, 0), 32);      /* never below one block */
}

TEST(test_sizing_and_the_distinct_value_estimate) {
    /* m = -8 n / ln(1 - p^(1/8)): 1,000 values at 1 % need 9,681 bits, so 2 KiB. */
    CHECK_INT_EQ(dl_pq_bloom_bytes_for(1000, 0.01, (size_t)1 << 20), 2048);
    CHECK_INT_EQ(dl_pq_bloom_bytes_for(0, 0.01, (size_t)1 << 20), 32);
    CHECK_INT_EQ(dl_pq_bloom_bytes_for(100000000, 0.01, (size_t)1 << 20), (size_t)1 << 20);
    CHECK_INT_EQ(dl_pq_bloom_bytes_for(10, 2.0, 4096), 4096);
    static uint8_t bits[(size_t)1 << 20];
    memset(bits, 0, sizeof(bits));
    CHECK_INT_EQ(dl_pq_bloom_estimate_ndv(bits, sizeof(bits)), 0);
    for (int i = 0; i < 20000; i++) {
        uint64_t h = rnd();
        dl_pq_bloom_insert(bits, sizeof(bits), h);
        dl_pq_bloom_insert(bits, sizeof(bits), h); /* duplicates do not count */
    }
    uint64_t est = dl_pq_bloom_estimate_ndv(bits, sizeof(bits));
    CHECK(est > 19000 && est < 21000);
}

/* parquet-testing's bloom_filter.xxhash.bin: parquet-mr inserted "hello", "parquet", "bloom"
 * and "filter" (data/README.md). */
TEST(test_parquet_mr_filter_holds_its_four_words) {
    if (!have_corpus()) {
        return;
    }
    dl_buf b;
    dl_buf_init(&b, NULL);
    CHECK(pqt_read_file(DATA_DIR "/bloom_filter.xxhash.bin", &b) == 0);
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_pq_bloom_filter_header h;
    size_t hlen = 0;
    CHECK_OK(dl_pq_bloom_filter_header_decode(b.data, b.len, 0, &arena, &h, &hlen, &err), &err);
    CHECK(h.algorithm == 1 && h.hash == 1 && h.compression == 1);
    CHECK_INT_EQ(hlen + (size_t)h.num_bytes, b.len);
    const uint8_t *bits = b.data + hlen;
    static const char *const in[] = {"hello", "parquet", "bloom", "filter"};
    for (size_t i = 0; i < DL_ARRAY_LEN(in); i++) {
        uint64_t x = dl_pq_xxhash64(in[i], strlen(in[i]), 0);
        CHECK(dl_pq_bloom_check(bits, (size_t)h.num_bytes, x));
    }
    static const char *const out[] = {"Hello", "deltalite", "world", "spark", "delta", "lake"};
    int hits = 0;
    for (size_t i = 0; i < DL_ARRAY_LEN(out); i++) {
        hits +=
            dl_pq_bloom_check(bits, (size_t)h.num_bytes, dl_pq_xxhash64(out[i], strlen(out[i]), 0));
    }
    CHECK_INT_EQ(hits, 0);
    dl_arena_destroy(&arena);
    dl_buf_destroy(&b);
}

/* ---- Reading ----------------------------------------------------------------------------------
 */

typedef struct read_result {
    int64_t rows;
    dl_pq_reader_stats stats;
} read_result;

static dl_status
read_with(dl_pq_file *file, const dl_pq_filter *f, bool is_bloom_ignored, read_result *out,
          dl_error *e) {
    dl_pq_read_options o = {.filter = f, .is_bloom_filter_ignored = is_bloom_ignored};
    dl_pq_reader *r = NULL;
    dl_batch *b = NULL;
    dl_status s = dl_pq_reader_new(file, &o, &r, e);
    if (s == DL_OK) {
        s = dl_vec_batch_new(NULL, dl_pq_reader_schema(r), 0, &b, e);
    }
    out->rows = 0;
    while (s == DL_OK) {
        s = dl_pq_reader_next(r, b, e);
        if (s != DL_OK || b->count == 0) {
            break;
        }
        out->rows += b->count;
    }
    if (r != NULL) {
        dl_pq_reader_get_stats(r, &out->stats);
    }
    dl_vec_batch_free(b);
    dl_pq_reader_free(r);
    return s;
}

static dl_pq_scalar
str_const(const char *s) {
    return (dl_pq_scalar){.kind = DL_PQ_SCALAR_BYTES, .s = dl_str_from_cstr(s)};
}

/* data_index_bloom_encoding_stats.parquet: one row group of 14 strings from "Hello" to
 * "today", with a Bloom filter (parquet-mr). */
TEST(test_parquet_mr_file_filter_rules_out_absent_strings) {
    if (!have_corpus()) {
        return;
    }
    dl_buf b;
    dl_buf_init(&b, NULL);
    CHECK(pqt_read_file(DATA_DIR "/data_index_bloom_encoding_stats.parquet", &b) == 0);
    dl_pq_file *file = NULL;
    CHECK_OK(dl_pq_file_open_memory(b.data, b.len, "bloom.parquet", NULL, &file, &err), &err);
    const dl_pq_field *col = dl_pq_file_root(file)->children[0];
    dl_pq_scalar v[3] = {str_const("Hello"), str_const("b"), str_const("today")};
    dl_pq_filter f = {.op = DL_PQ_FILTER_EQ, .column = col, .values = &v[0], .n_values = 1};
    read_result res;
    CHECK_OK(read_with(file, &f, false, &res, &err), &err);
    CHECK(res.rows == 14 && res.stats.row_groups_bloom_skipped == 0);
    f.values = &v[1]; /* within the statistics' bounds, but never written */
    CHECK(dl_pq_filter_may_match(file, &f, 0));
    CHECK_OK(read_with(file, &f, false, &res, &err), &err);
    CHECK(res.rows == 0 && res.stats.row_groups_bloom_skipped == 1);
    CHECK_OK(read_with(file, &f, true, &res, &err), &err);
    CHECK(res.rows == 14 && res.stats.row_groups_bloom_skipped == 0);
    dl_pq_filter in = {.op = DL_PQ_FILTER_IN, .column = col, .values = &v[1], .n_values = 2};
    CHECK_OK(read_with(file, &in, false, &res, &err), &err);
    CHECK_INT_EQ(res.rows, 14);
    dl_pq_file_free(file);
    dl_buf_destroy(&b);
}

/* ---- Writing ----------------------------------------------------------------------------------
 */

/* 4 row groups of 1,000 rows of random values (so statistics rule nothing out): id long,
 * s string, d double, dec decimal(30,2), dt date, and a boolean flag. */
#define N_RG    4
#define RG_ROWS 1000

static int64_t ids[N_RG * RG_ROWS];

static dl_status
make_batch(dl_arena *arena, const dl_type **out_schema, dl_batch **out, dl_error *e) {
    const dl_type *dec = NULL;
    DL_TRY(dl_vec_type_decimal(arena, 30, 2, &dec, e));
    dl_type_field f[6] = {
        {"id", dl_vec_type_prim(DL_VEC_TYPE_LONG), false},
        {"s", dl_vec_type_prim(DL_VEC_TYPE_STRING), true},
        {"d", dl_vec_type_prim(DL_VEC_TYPE_DOUBLE), true},
        {"dec", dec, true},
        {"dt", dl_vec_type_prim(DL_VEC_TYPE_DATE), true},
        {"flag", dl_vec_type_prim(DL_VEC_TYPE_BOOLEAN), true},
    };
    DL_TRY(dl_vec_type_struct(arena, f, 6, out_schema, e));
    DL_TRY(dl_vec_batch_new(NULL, *out_schema, N_RG * RG_ROWS, out, e));
    dl_batch *b = *out;
    for (int64_t i = 0; i < N_RG * RG_ROWS; i++) {
        ids[i] = (int64_t)(rnd() >> 2);
        char s[32];
        int n = snprintf(s, sizeof(s), "k%lld", (long long)ids[i]);
        DL_TRY(dl_vec_append_i64(b->cols[0], ids[i], e));
        DL_TRY(dl_vec_append_str(b->cols[1], s, (size_t)n, e));
        DL_TRY(dl_vec_append_f64(b->cols[2], i == 5 ? -0.0 : (double)ids[i] / 8, e));
        DL_TRY(dl_vec_append_i128(b->cols[3], (dl_i128)ids[i] * 1000, e));
        DL_TRY(dl_vec_append_i32(b->cols[4], (int32_t)(ids[i] % 100000), e));
        DL_TRY(dl_vec_append_bool(b->cols[5], i % 2 == 0, e));
    }
    dl_vec_batch_set_count(b, N_RG * RG_ROWS);
    return DL_OK;
}

typedef struct written {
    tw_store st;
    dl_buf bytes;
    dl_pq_file *file;
    const dl_pq_field *cols[5];
} written;

static bool
write_file(written *w, const char *const *bloom, size_t n_bloom) {
    memset(w, 0, sizeof(*w));
    dl_buf_init(&w->bytes, NULL);
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    const dl_type *schema = NULL;
    dl_batch *b = NULL;
    dl_pq_write_options o;
    dl_pq_write_options_init(&o);
    o.row_group_rows = RG_ROWS;
    o.bloom_filter_columns = bloom;
    o.n_bloom_filter_columns = n_bloom;
    char path[128];
    bool is_ok = tw_store_new(&w->st) && make_batch(&arena, &schema, &b, &err) == DL_OK &&
                 tw_write(w->st.store, "b.parquet", schema, &b, 1, &o, NULL, NULL, &err) == DL_OK;
    (void)snprintf(path, sizeof(path), "%s/b.parquet", w->st.root);
    is_ok = is_ok && pqt_read_file(path, &w->bytes) == 0 &&
            dl_pq_file_open_memory(w->bytes.data, w->bytes.len, "b.parquet", NULL, &w->file,
                                   &err) == DL_OK;
    for (size_t i = 0; is_ok && i < 5; i++) {
        w->cols[i] = dl_pq_file_root(w->file)->children[i];
    }
    if (!is_ok) {
        printf("  %s\n", err.msg);
    }
    dl_vec_batch_free(b);
    dl_arena_destroy(&arena);
    return is_ok;
}

static void
written_free(written *w) {
    dl_pq_file_free(w->file);
    dl_buf_destroy(&w->bytes);
    tw_store_free(&w->st);
}

static const char *const all_bloom[5] = {"id", "s", "d", "dec", "dt"};

/* The constant of row i for column c, as a caller would give it. */
static dl_pq_scalar
row_const(size_t c, int64_t i, char *buf, size_t cap) {
    switch (c) {
    case 0:
        return (dl_pq_scalar){.kind = DL_PQ_SCALAR_INT, .i = ids[i]};
    case 1: {
        int n = snprintf(buf, cap, "k%lld", (long long)ids[i]);
        return (dl_pq_scalar){.kind = DL_PQ_SCALAR_BYTES, .s = dl_str_make(buf, (size_t)n)};
    }
    case 2:
        return (dl_pq_scalar){.kind = DL_PQ_SCALAR_DOUBLE, .f = i == 5 ? 0.0 : (double)ids[i] / 8};
    case 3: /* ids[i] * 10 at scale 1 is ids[i] * 1000 at the column's scale 2... / 100 */
        return (dl_pq_scalar){.kind = DL_PQ_SCALAR_DECIMAL, .d = (dl_i128)ids[i] * 100, .scale = 1};
    default:
        return (dl_pq_scalar){.kind = DL_PQ_SCALAR_INT, .i = ids[i] % 100000};
    }
}

/* Every value written passes its chunk's filter (no false negatives), in every column. */
TEST(test_written_filters_hold_every_value) {
    written w;
    CHECK(write_file(&w, all_bloom, 5));
    const dl_pq_file_metadata *md = &dl_pq_file_footer(w.file)->meta;
    CHECK_INT_EQ(md->n_row_groups, N_RG);
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    int missing = 0;
    for (int32_t g = 0; g < N_RG; g++) {
        for (size_t c = 0; c < 5; c++) {
            const dl_pq_column_metadata *cm = &md->row_groups[g].columns[c].meta_data;
            CHECK(cm->has_bloom_filter_offset && cm->has_bloom_filter_length);
            CHECK(!md->row_groups[g].columns[5].meta_data.has_bloom_filter_offset);
        }
        dl_pq_rg_index idx;
        CHECK_OK(dl_pq_rg_index_init(&idx, w.file, NULL, &arena, g, &err), &err);
        for (int64_t i = g * RG_ROWS; i < (g + 1) * RG_ROWS; i++) {
            for (size_t c = 0; c < 5; c++) {
                char buf[32];
                dl_pq_scalar v = row_const(c, i, buf, sizeof(buf));
                dl_pq_filter f = {
                    .op = DL_PQ_FILTER_EQ, .column = w.cols[c], .values = &v, .n_values = 1};
                bool may = false;
                CHECK_OK(dl_pq_rg_index_bloom_may_match(&idx, &f, &may, &err), &err);
                missing += !may;
            }
        }
        dl_arena_reset(&arena);
    }
    CHECK_INT_EQ(missing, 0);
    dl_arena_destroy(&arena);
    written_free(&w);
}

/* Filters are sized for 1,000 distinct values at 1 %: 2 KiB, not the 1 MiB they start at. */
TEST(test_written_filters_are_folded_to_their_values) {
    written w;
    CHECK(write_file(&w, all_bloom, 5));
    const dl_pq_column_metadata *cm =
        &dl_pq_file_footer(w.file)->meta.row_groups[0].columns[0].meta_data;
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_pq_bloom_filter_header h;
    size_t hlen = 0;
    CHECK_OK(dl_pq_bloom_filter_header_decode(w.bytes.data + cm->bloom_filter_offset,
                                              (size_t)cm->bloom_filter_length, 0, &arena, &h, &hlen,
                                              &err),
             &err);
    CHECK(h.algorithm == 1 && h.hash == 1 && h.compression == 1);
    CHECK_INT_EQ(h.num_bytes, 2048);
    CHECK_INT_EQ((size_t)cm->bloom_filter_length, hlen + 2048);
    dl_arena_destroy(&arena);
    written_free(&w);
}

TEST(test_reader_skips_row_groups_whose_filters_lack_the_values) {
    written w;
    CHECK(write_file(&w, all_bloom, 5));
    for (size_t c = 0; c < 5; c++) {
        char buf[32];
        dl_pq_scalar v = row_const(c, 2 * RG_ROWS + 17, buf, sizeof(buf)); /* in row group 2 */
        dl_pq_filter f = {.op = DL_PQ_FILTER_EQ, .column = w.cols[c], .values = &v, .n_values = 1};
        read_result res;
        CHECK_OK(read_with(w.file, &f, false, &res, &err), &err);
        if (c == 2 || c == 4) {
            continue; /* d's -0.0 row and dt's repeats are checked below */
        }
        CHECK_INT_EQ(res.stats.row_groups_read, 1);
        CHECK_INT_EQ(res.stats.row_groups_bloom_skipped, 3);
        CHECK_INT_EQ(res.rows, RG_ROWS);
    }
    /* IN of values of row groups 0 and 3, and one written nowhere. */
    dl_pq_scalar in[3] = {{.kind = DL_PQ_SCALAR_INT, .i = ids[3]},
                          {.kind = DL_PQ_SCALAR_INT, .i = ids[3 * RG_ROWS + 999]},
                          {.kind = DL_PQ_SCALAR_INT, .i = -12345}};
    dl_pq_filter f = {.op = DL_PQ_FILTER_IN, .column = w.cols[0], .values = in, .n_values = 3};
    read_result res;
    CHECK_OK(read_with(w.file, &f, false, &res, &err), &err);
    CHECK_INT_EQ(res.stats.row_groups_read, 2);
    /* A zero is looked up as +0.0 and -0.0: row 5 holds -0.0. */
    dl_pq_scalar zero = {.kind = DL_PQ_SCALAR_DOUBLE, .f = 0.0};
    dl_pq_filter fz = {.op = DL_PQ_FILTER_EQ, .column = w.cols[2], .values = &zero, .n_values = 1};
    CHECK_OK(read_with(w.file, &fz, false, &res, &err), &err);
    CHECK(res.stats.row_groups_read >= 1 && res.rows >= RG_ROWS);
    /* OR with a leaf Bloom filters cannot judge keeps every row group. */
    dl_pq_scalar one = {.kind = DL_PQ_SCALAR_INT, .i = 1};
    dl_pq_filter kids[2] = {
        {.op = DL_PQ_FILTER_EQ, .column = w.cols[0], .values = &in[2], .n_values = 1},
        {.op = DL_PQ_FILTER_GE, .column = w.cols[0], .values = &one, .n_values = 1}};
    dl_pq_filter any = {.op = DL_PQ_FILTER_OR, .children = kids, .n_children = 2};
    CHECK_OK(read_with(w.file, &any, false, &res, &err), &err);
    CHECK_INT_EQ(res.stats.row_groups_bloom_skipped, 0);
    written_free(&w);
}

TEST(test_damaged_filter_is_ignored) {
    written w;
    CHECK(write_file(&w, all_bloom, 1));
    const dl_pq_file_metadata *md = &dl_pq_file_footer(w.file)->meta;
    for (int g = 0; g < N_RG; g++) {
        const dl_pq_column_metadata *cm = &md->row_groups[g].columns[0].meta_data;
        memset(w.bytes.data + cm->bloom_filter_offset, 0xFF, 4); /* the header */
    }
    dl_pq_scalar v = {.kind = DL_PQ_SCALAR_INT, .i = ids[17]};
    dl_pq_filter f = {.op = DL_PQ_FILTER_EQ, .column = w.cols[0], .values = &v, .n_values = 1};
    read_result res;
    CHECK_OK(read_with(w.file, &f, false, &res, &err), &err);
    CHECK_INT_EQ(res.stats.row_groups_bloom_skipped, 0);
    CHECK_INT_EQ(res.rows, N_RG * RG_ROWS);
    written_free(&w);
}

TEST(test_bad_bloom_filter_options_are_refused) {
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    const dl_type *schema = NULL;
    dl_batch *b = NULL;
    CHECK_OK(make_batch(&arena, &schema, &b, &err), &err);
    tw_store st;
    CHECK(tw_store_new(&st));
    dl_pq_write_options o;
    dl_pq_write_options_init(&o);
    const char *bad[1] = {"nope"};
    o.bloom_filter_columns = bad;
    o.n_bloom_filter_columns = 1;
    dl_pq_writer *w = NULL;
    CHECK_STATUS(dl_pq_writer_open(st.store, "x.parquet", DL_STORE_PUT_OVERWRITE, schema, &o, NULL,
                                   &w, &err),
                 DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "no leaf column 'nope' for a Bloom filter");
    bad[0] = "flag";
    CHECK_STATUS(dl_pq_writer_open(st.store, "x.parquet", DL_STORE_PUT_OVERWRITE, schema, &o, NULL,
                                   &w, &err),
                 DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "column 'flag' is BOOLEAN");
    bad[0] = "id";
    o.bloom_filter_fpp = 1.5;
    CHECK_STATUS(dl_pq_writer_open(st.store, "x.parquet", DL_STORE_PUT_OVERWRITE, schema, &o, NULL,
                                   &w, &err),
                 DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "false-positive probability of 1.5");
    CHECK(tw_store_is_empty(&st));
    tw_store_free(&st);
    dl_vec_batch_free(b);
    dl_arena_destroy(&arena);
}

int
main(void) {
    RUN(test_xxhash64_matches_the_reference_values);
    RUN(test_filter_holds_every_value_inserted_and_few_others);
    RUN(test_folding_gives_the_filter_the_smaller_size_would_have_built);
    RUN(test_sizing_and_the_distinct_value_estimate);
    RUN(test_parquet_mr_filter_holds_its_four_words);
    RUN(test_parquet_mr_file_filter_rules_out_absent_strings);
    RUN(test_written_filters_hold_every_value);
    RUN(test_written_filters_are_folded_to_their_values);
    RUN(test_reader_skips_row_groups_whose_filters_lack_the_values);
    RUN(test_damaged_filter_is_ignored);
    RUN(test_bad_bloom_filter_options_are_refused);
    return harness_finish();
}
