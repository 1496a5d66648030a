/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Page skipping through the page index (ColumnIndex + OffsetIndex): files of 10,000 rows in
 * pages of 100 rows and row groups of 3,000, written by our writer (v1 and v2 pages, with and
 * without dictionaries, compressed and not), read with filters (ranges, IN, OR, IS NULL,
 * nested leaves, AND of several columns).
 *
 * Each filtered read is checked against the unfiltered read: every batch's rows must be the
 * file rows dl_pq_reader_batch_first_row says (same values, rising), every row that satisfies
 * the filter must be among them (skipping may keep extra rows, never drop a match), and the
 * reader's statistics must show the pages and rows it skipped. Damaged page indexes are
 * either ignored (when the damage shows before reading) or CORRUPT (when it shows in the
 * pages).
 *
 * Rows: id long = file row; s string "s%06d" of id; cat string of 7 values; v double, null
 * when id % 7 == 0, else id / 2; tags array<int>, null when id % 11 == 0, else the id % 5
 * values id, id + 1, ...; st struct<a int = id % 13, b string, null when id % 3 == 0>.
 */
#include <stdio.h>
#include <string.h>

#include "base/pool.h"
#include "harness.h"
#include "parquet/pq_reader.h"
#include "parquet/pq_writer.h"
#include "test_pq_read_util.h"
#include "test_pq_write_util.h"

#define N_ROWS 10000

static dl_error err;
static dl_arena arena;
static const dl_type *schema;

/* ---- Writing ------------------------------------------------------------------------------- */

static dl_status
make_schema(dl_error *e) {
    const dl_type *str = dl_vec_type_prim(DL_VEC_TYPE_STRING);
    const dl_type *i32 = dl_vec_type_prim(DL_VEC_TYPE_INT);
    const dl_type *tags = NULL;
    const dl_type *st = NULL;
    DL_TRY(dl_vec_type_array(&arena, i32, true, &tags, e));
    dl_type_field sf[2] = {{"a", i32, true}, {"b", str, true}};
    DL_TRY(dl_vec_type_struct(&arena, sf, 2, &st, e));
    dl_type_field f[] = {
        {"id", dl_vec_type_prim(DL_VEC_TYPE_LONG), false}, {"s", str, true},     {"cat", str, true},
        {"v", dl_vec_type_prim(DL_VEC_TYPE_DOUBLE), true}, {"tags", tags, true}, {"st", st, true},
    };
    return dl_vec_type_struct(&arena, f, (int32_t)DL_ARRAY_LEN(f), &schema, e);
}

static dl_status
append_row(dl_batch *b, int64_t id, dl_error *e) {
    char buf[32];
    int n = snprintf(buf, sizeof(buf), "s%06lld", (long long)id);
    DL_TRY(dl_vec_append_i64(b->cols[0], id, e));
    DL_TRY(dl_vec_append_str(b->cols[1], buf, (size_t)n, e));
    n = snprintf(buf, sizeof(buf), "c%d", (int)((id * 3) % 7));
    DL_TRY(dl_vec_append_str(b->cols[2], buf, (size_t)n, e));
    DL_TRY(id % 7 == 0 ? dl_vec_append_null(b->cols[3], e)
                       : dl_vec_append_f64(b->cols[3], (double)id / 2, e));
    dl_vector *tags = b->cols[4];
    if (id % 11 == 0) {
        DL_TRY(dl_vec_append_null(tags, e));
    } else {
        for (int64_t k = 0; k < id % 5; k++) {
            DL_TRY(dl_vec_append_i32(tags->children[0], (int32_t)(id + k), e));
        }
        DL_TRY(dl_vec_append_list(tags, e));
    }
    dl_vector *st = b->cols[5];
    DL_TRY(dl_vec_append_i32(st->children[0], (int32_t)(id % 13), e));
    n = snprintf(buf, sizeof(buf), "b%lld", (long long)(id / 10));
    DL_TRY(id % 3 == 0 ? dl_vec_append_null(st->children[1], e)
                       : dl_vec_append_str(st->children[1], buf, (size_t)n, e));
    return dl_vec_append_struct(st, e);
}

/* Writes the rows to path in st with opts changed by the variant, then reads the bytes. */
static bool
write_file(tw_store *st, int variant, dl_buf *out) {
    dl_pq_write_options o;
    dl_pq_write_options_init(&o);
    o.page_rows = 100;
    o.row_group_rows = 3000;
    o.page_version = variant & 1 ? 2 : 1;
    o.is_dictionary_enabled = (variant & 2) == 0;
    o.codec = variant & 4 ? DL_PQ_CODEC_UNCOMPRESSED : DL_PQ_CODEC_SNAPPY;
    dl_batch *b = NULL;
    if (dl_vec_batch_new(NULL, schema, 0, &b, &err) != DL_OK) {
        return false;
    }
    dl_batch *batches[N_ROWS / 2000];
    size_t n = 0;
    bool is_ok = true;
    for (int64_t id = 0; id < N_ROWS && is_ok; id++) {
        is_ok = append_row(b, id, &err) == DL_OK;
        if (is_ok && (id + 1) % 2000 == 0) {
            dl_vec_batch_set_count(b, 2000);
            batches[n++] = b;
            b = NULL;
            is_ok = id + 1 == N_ROWS || dl_vec_batch_new(NULL, schema, 0, &b, &err) == DL_OK;
        }
    }
    is_ok = is_ok &&
            tw_write(st->store, "t.parquet", schema, batches, n, &o, &arena, NULL, &err) == DL_OK;
    for (size_t i = 0; i < n; i++) {
        dl_vec_batch_free(batches[i]);
    }
    dl_vec_batch_free(b);
    char path[128];
    (void)snprintf(path, sizeof(path), "%s/t.parquet", st->root);
    dl_buf_reset(out);
    is_ok = is_ok && pqt_read_file(path, out) == 0;
    if (!is_ok) {
        printf("  writing variant %d: %s\n", variant, err.msg);
    }
    return is_ok;
}

/* ---- Checking a filtered read -----------------------------------------------------------------
 */

typedef bool (*row_pred)(int64_t id);

static bool
call_pred(void *ctx, int64_t row) {
    row_pred pred;
    memcpy(&pred, ctx, sizeof(pred));
    return pred(row); /* id == file row */
}

/* Reads file with base + filter f and checks it against all (pqt_check_filtered). */
static bool
check_read(dl_pq_file *file, const pqt_rows *all, const dl_pq_read_options *base,
           const dl_pq_filter *f, row_pred pred, dl_pq_reader_stats *stats) {
    dl_pq_read_options o = *base;
    o.filter = f;
    return pqt_check_filtered(file, all, &o, call_pred, &pred, stats);
}

/* ---- Filters --------------------------------------------------------------------------------- */

typedef struct fx {
    dl_pq_file *file;
    const dl_pq_field *id, *s, *cat, *v, *tag, *st_b;
    pqt_rows all;
} fx;

static const dl_pq_field *
field(const dl_pq_file *file, const char *a, const char *b) {
    const char *names[2] = {a, b};
    return dl_pq_field_find(dl_pq_file_root(file), names, b != NULL ? 2 : 1, false);
}

static bool
fx_open(fx *x, const dl_buf *bytes, const dl_pq_read_options *base) {
    memset(x, 0, sizeof(*x));
    if (dl_pq_file_open_memory(bytes->data, bytes->len, "t.parquet", NULL, &x->file, &err) !=
        DL_OK) {
        printf("  %s\n", err.msg);
        return false;
    }
    x->id = field(x->file, "id", NULL);
    x->s = field(x->file, "s", NULL);
    x->cat = field(x->file, "cat", NULL);
    x->v = field(x->file, "v", NULL);
    x->tag = field(x->file, "tags", "element");
    x->st_b = field(x->file, "st", "b");
    return x->id != NULL && x->tag != NULL && x->st_b != NULL &&
           pqt_rows_read(x->file, base, &x->all, &err) == DL_OK && x->all.n == N_ROWS;
}

static void
fx_close(fx *x) {
    pqt_rows_free(&x->all);
    dl_pq_file_free(x->file);
}

static dl_pq_scalar
int_scalar(int64_t v) {
    return (dl_pq_scalar){.kind = DL_PQ_SCALAR_INT, .i = v};
}

static dl_pq_scalar
str_scalar(const char *s) {
    return (dl_pq_scalar){.kind = DL_PQ_SCALAR_BYTES, .s = dl_str_from_cstr(s)};
}

static dl_pq_filter
cmp(const dl_pq_field *c, dl_pq_filter_op op, const dl_pq_scalar *v, size_t n) {
    return (dl_pq_filter){.op = op, .column = c, .values = v, .n_values = n};
}

static bool
in_range(int64_t id) {
    return id >= 4321 && id < 4567;
}

static bool
in_list(int64_t id) {
    return id == 17 || id == 5555 || id == 9999;
}

static bool
ends(int64_t id) {
    return id < 150 || id >= 9900;
}

static bool
null_v_in_range(int64_t id) {
    return id % 7 == 0 && id >= 5000 && id < 5300;
}

static bool
has_tag_8000(int64_t id) {
    return id % 11 != 0 && id <= 8000 && 8000 < id + id % 5;
}

static bool
cat_and_b(int64_t id) {
    return (id * 3) % 7 == 3 && id % 3 != 0 && id / 10 == 123;
}

static bool
never(int64_t id) {
    (void)id;
    return false;
}

/* Runs the filters of this file over one written file and read options. */
static bool
run_filters(fx *x, const dl_pq_read_options *base) {
    dl_pq_reader_stats st;
    dl_pq_scalar r1[2] = {int_scalar(4321), int_scalar(4567)};
    dl_pq_filter k1[2] = {cmp(x->id, DL_PQ_FILTER_GE, &r1[0], 1),
                          cmp(x->id, DL_PQ_FILTER_LT, &r1[1], 1)};
    dl_pq_filter f1 = {.op = DL_PQ_FILTER_AND, .children = k1, .n_children = 2};
    if (!check_read(x->file, &x->all, base, &f1, in_range, &st)) {
        return false;
    }
    /* 246 rows in 3 pages of one of 4 row groups: 27 of its 30 pages of each of the 7 leaf
     * columns skipped. */
    bool is_ok = st.row_groups_skipped == 3 && st.rows_skipped == 2700 && st.rows == 300 &&
                 st.pages_skipped == 7 * 27;

    dl_pq_scalar r2[4] = {int_scalar(17), int_scalar(5555), int_scalar(9999), int_scalar(-1)};
    dl_pq_filter f2 = cmp(x->id, DL_PQ_FILTER_IN, r2, 4);
    is_ok = is_ok && check_read(x->file, &x->all, base, &f2, in_list, &st) && st.rows == 300 &&
            st.row_groups_skipped == 1;

    dl_pq_scalar r3[2] = {int_scalar(150), str_scalar("s009900")};
    dl_pq_filter k3[2] = {cmp(x->id, DL_PQ_FILTER_LT, &r3[0], 1),
                          cmp(x->s, DL_PQ_FILTER_GE, &r3[1], 1)};
    dl_pq_filter f3 = {.op = DL_PQ_FILTER_OR, .children = k3, .n_children = 2};
    is_ok = is_ok && check_read(x->file, &x->all, base, &f3, ends, &st) && st.rows == 300;

    dl_pq_scalar r4[2] = {int_scalar(5000), int_scalar(5300)};
    dl_pq_filter k4[3] = {cmp(x->v, DL_PQ_FILTER_IS_NULL, NULL, 0),
                          cmp(x->id, DL_PQ_FILTER_GE, &r4[0], 1),
                          cmp(x->id, DL_PQ_FILTER_LT, &r4[1], 1)};
    dl_pq_filter f4 = {.op = DL_PQ_FILTER_AND, .children = k4, .n_children = 3};
    is_ok =
        is_ok && check_read(x->file, &x->all, base, &f4, null_v_in_range, &st) && st.rows == 300;

    dl_pq_scalar r5 = int_scalar(8000);
    dl_pq_filter f5 = cmp(x->tag, DL_PQ_FILTER_EQ, &r5, 1);
    is_ok = is_ok && check_read(x->file, &x->all, base, &f5, has_tag_8000, &st) && st.rows <= 200 &&
            st.pages_skipped > 0;

    dl_pq_scalar r6[2] = {str_scalar("c3"), str_scalar("b123")};
    dl_pq_filter k6[2] = {cmp(x->cat, DL_PQ_FILTER_EQ, &r6[0], 1),
                          cmp(x->st_b, DL_PQ_FILTER_EQ, &r6[1], 1)};
    dl_pq_filter f6 = {.op = DL_PQ_FILTER_AND, .children = k6, .n_children = 2};
    /* "b123" lies within the bounds of st.b's pages of rows [0, 100) ("b0".."b9") and
     * [100, 200) ("b10".."b19") as well as [1200, 1300). */
    is_ok = is_ok && check_read(x->file, &x->all, base, &f6, cat_and_b, &st) && st.rows == 300;

    dl_pq_scalar r7 = int_scalar(20000);
    dl_pq_filter f7 = cmp(x->id, DL_PQ_FILTER_GE, &r7, 1);
    is_ok = is_ok && check_read(x->file, &x->all, base, &f7, never, &st) && st.rows == 0 &&
            st.row_groups_skipped == 4 && st.row_groups_read == 0;
    if (!is_ok) {
        printf("  rows %lld, row groups skipped %lld, pages skipped %lld, rows skipped %lld\n",
               (long long)st.rows, (long long)st.row_groups_skipped, (long long)st.pages_skipped,
               (long long)st.rows_skipped);
    }
    return is_ok;
}

static bool
run_variant(int variant, int32_t batch_rows, dl_pool *pool) {
    tw_store st;
    dl_buf bytes;
    dl_buf_init(&bytes, NULL);
    bool is_ok = tw_store_new(&st) && write_file(&st, variant, &bytes);
    dl_pq_read_options base = {.batch_rows = batch_rows, .pool = pool};
    fx x;
    is_ok = is_ok && fx_open(&x, &bytes, &base);
    is_ok = is_ok && run_filters(&x, &base);
    if (!is_ok) {
        printf("  variant %d, batches of %d%s\n", variant, (int)batch_rows,
               pool != NULL ? ", pool" : "");
    }
    fx_close(&x);
    dl_buf_destroy(&bytes);
    tw_store_free(&st);
    return is_ok;
}

/* ---- Tests ------------------------------------------------------------------------------------
 */

TEST(test_filtered_reads_return_every_matching_row_and_skip_pages) {
    CHECK(run_variant(0, 0, NULL));
}

TEST(test_page_skipping_with_small_batches_that_end_inside_pages) {
    CHECK(run_variant(0, 37, NULL));
}

TEST(test_page_skipping_over_v2_pages_without_dictionaries) {
    CHECK(run_variant(3, 0, NULL));
    CHECK(run_variant(1, 64, NULL));
}

TEST(test_page_skipping_over_uncompressed_pages) {
    CHECK(run_variant(4, 0, NULL));
    CHECK(run_variant(6, 100, NULL));
}

TEST(test_page_skipping_with_a_pool_opening_columns_in_parallel) {
    dl_pool *pool = NULL;
    CHECK_OK(dl_pool_new(2, NULL, &pool, &err), &err);
    bool is_ok = run_variant(0, 0, pool) && run_variant(7, 50, pool);
    dl_pool_free(pool);
    CHECK(is_ok);
}

/* The projected columns need not include the filter's: rows still line up. */
TEST(test_page_skipping_reads_columns_other_than_the_filtered_one) {
    tw_store st;
    dl_buf bytes;
    dl_buf_init(&bytes, NULL);
    CHECK(tw_store_new(&st) && write_file(&st, 0, &bytes));
    fx x;
    dl_pq_read_options all = {0};
    CHECK(fx_open(&x, &bytes, &all));
    const dl_pq_field *cols[2] = {field(x.file, "tags", NULL), field(x.file, "st", "b")};
    dl_pq_read_options base = {.columns = cols, .n_columns = 2, .batch_rows = 99};
    pqt_rows proj;
    CHECK_OK(pqt_rows_read(x.file, &base, &proj, &err), &err);
    dl_pq_scalar r1[2] = {int_scalar(4321), int_scalar(4567)};
    dl_pq_filter k1[2] = {cmp(x.id, DL_PQ_FILTER_GE, &r1[0], 1),
                          cmp(x.id, DL_PQ_FILTER_LT, &r1[1], 1)};
    dl_pq_filter f1 = {.op = DL_PQ_FILTER_AND, .children = k1, .n_children = 2};
    dl_pq_reader_stats stats;
    bool is_ok = check_read(x.file, &proj, &base, &f1, in_range, &stats);
    pqt_rows_free(&proj);
    fx_close(&x);
    dl_buf_destroy(&bytes);
    tw_store_free(&st);
    CHECK(is_ok);
    CHECK(stats.rows == 300 && stats.pages_skipped == 2 * 27);
}

/* The bytes a reader needs to read pages [first, end) of every column of row group rg when
 * the filter is on column 0 only: column 0's ColumnIndex, every OffsetIndex, every dictionary
 * region and the pages. */
static int64_t
expected_bytes(const dl_buf *bytes, int rg, size_t first, size_t end) {
    dl_pq_file *file = NULL;
    if (dl_pq_file_open_memory(bytes->data, bytes->len, "t", NULL, &file, &err) != DL_OK) {
        printf("  %s\n", err.msg);
        return -1;
    }
    const dl_pq_row_group *g = &dl_pq_file_footer(file)->meta.row_groups[rg];
    int64_t total = g->columns[0].column_index_length;
    for (size_t c = 0; c < g->n_columns; c++) {
        const dl_pq_column_chunk *cc = &g->columns[c];
        dl_pq_offset_index oi;
        if (dl_pq_offset_index_decode(bytes->data + cc->offset_index_offset,
                                      (size_t)cc->offset_index_length, 0, &arena, &oi,
                                      &err) != DL_OK) {
            printf("  %s\n", err.msg);
            total = -1;
            break;
        }
        total += cc->offset_index_length;
        if (cc->meta_data.has_dictionary_page_offset) {
            total += cc->meta_data.data_page_offset - cc->meta_data.dictionary_page_offset;
        }
        for (size_t p = first; p < end; p++) {
            total += oi.page_locations[p].compressed_page_size;
        }
    }
    dl_pq_file_free(file);
    return total;
}

/* Through a store (ranged reads of the runs of needed pages), not a memory file. */
TEST(test_page_skipping_reads_only_the_needed_bytes_from_a_store) {
    tw_store st;
    dl_buf bytes;
    dl_buf_init(&bytes, NULL);
    CHECK(tw_store_new(&st) && write_file(&st, 0, &bytes));
    dl_pq_file *file = NULL;
    CHECK_OK(dl_pq_file_open(st.store, "t.parquet", NULL, &file, &err), &err);
    const dl_pq_field *id = field(file, "id", NULL);
    dl_pq_read_options base = {0};
    pqt_rows all;
    CHECK_OK(pqt_rows_read(file, &base, &all, &err), &err);
    dl_pq_scalar r1[2] = {int_scalar(4321), int_scalar(4567)};
    dl_pq_filter k1[2] = {cmp(id, DL_PQ_FILTER_GE, &r1[0], 1), cmp(id, DL_PQ_FILTER_LT, &r1[1], 1)};
    dl_pq_filter f1 = {.op = DL_PQ_FILTER_AND, .children = k1, .n_children = 2};
    dl_pq_reader_stats with;
    dl_pq_reader_stats without;
    bool is_ok = check_read(file, &all, &base, &f1, in_range, &with);
    base.is_page_index_ignored = true;
    is_ok = is_ok && check_read(file, &all, &base, &f1, in_range, &without);
    int64_t want = expected_bytes(&bytes, 1, 13, 16);
    pqt_rows_free(&all);
    dl_pq_file_free(file);
    dl_buf_destroy(&bytes);
    tw_store_free(&st);
    CHECK(is_ok);
    CHECK_INT_EQ(without.rows, 3000);
    CHECK_INT_EQ(without.pages_skipped, 0);
    CHECK_INT_EQ(with.rows, 300);
    CHECK_INT_EQ(with.bytes_read, want);
    CHECK(with.bytes_read * 3 < without.bytes_read);
}

/* ---- Damaged page indexes ----------------------------------------------------------------------
 */

/* Re-encodes the OffsetIndex of column leaf in row group rg after edit, over the old bytes
 * (the edit must keep the encoded length). */
static bool
patch_oi(dl_buf *bytes, int rg, int leaf, void (*edit)(dl_pq_offset_index *)) {
    dl_pq_file *file = NULL;
    if (dl_pq_file_open_memory(bytes->data, bytes->len, "t", NULL, &file, &err) != DL_OK) {
        return false;
    }
    const dl_pq_column_chunk *cc = &dl_pq_file_footer(file)->meta.row_groups[rg].columns[leaf];
    dl_pq_offset_index oi;
    dl_buf enc;
    dl_buf_init(&enc, NULL);
    size_t at = (size_t)cc->offset_index_offset;
    size_t len = (size_t)cc->offset_index_length;
    bool is_ok = dl_pq_offset_index_decode(bytes->data + at, len, 0, &arena, &oi, &err) == DL_OK;
    if (is_ok) {
        edit(&oi);
        is_ok = dl_pq_offset_index_encode(&oi, &enc, &err) == DL_OK && enc.len == len;
    }
    if (is_ok) {
        memcpy(bytes->data + at, enc.data, len);
    }
    dl_buf_destroy(&enc);
    dl_pq_file_free(file);
    return is_ok;
}

static void
shift_page_3(dl_pq_offset_index *oi) {
    oi->page_locations[3].first_row_index += 1; /* 300 -> 301: same varint length */
}

static void
move_first_page(dl_pq_offset_index *oi) {
    oi->page_locations[0].offset += 1;
}

static dl_status
read_filtered(const dl_buf *bytes, const dl_pq_filter *(*make)(dl_pq_file *), int64_t *rows,
              dl_pq_reader_stats *stats, dl_error *e) {
    dl_pq_file *file = NULL;
    DL_TRY(dl_pq_file_open_memory(bytes->data, bytes->len, "t.parquet", NULL, &file, e));
    dl_pq_read_options o = {.filter = make(file)};
    dl_pq_reader *r = NULL;
    dl_batch *b = NULL;
    dl_status s = dl_pq_reader_new(file, &o, &r, e);
    if (s == DL_OK) {
        s = dl_vec_batch_new(NULL, dl_pq_reader_schema(r), 0, &b, e);
    }
    *rows = 0;
    while (s == DL_OK) {
        s = dl_pq_reader_next(r, b, e);
        if (s != DL_OK || b->count == 0) {
            break;
        }
        *rows += b->count;
    }
    if (r != NULL) {
        dl_pq_reader_get_stats(r, stats);
    }
    dl_vec_batch_free(b);
    dl_pq_reader_free(r);
    dl_pq_file_free(file);
    return s;
}

static dl_pq_scalar g_vals[2];
static dl_pq_filter g_kids[2];
static dl_pq_filter g_filter;

/* id in [250, 260): in row group 0, page 2 of every column. */
static const dl_pq_filter *
filter_250(dl_pq_file *file) {
    const dl_pq_field *id = field(file, "id", NULL);
    g_vals[0] = int_scalar(250);
    g_vals[1] = int_scalar(260);
    g_kids[0] = cmp(id, DL_PQ_FILTER_GE, &g_vals[0], 1);
    g_kids[1] = cmp(id, DL_PQ_FILTER_LT, &g_vals[1], 1);
    g_filter = (dl_pq_filter){.op = DL_PQ_FILTER_AND, .children = g_kids, .n_children = 2};
    return &g_filter;
}

TEST(test_offset_index_that_misplaces_rows_of_a_flat_column_is_corrupt) {
    tw_store st;
    dl_buf bytes;
    dl_buf_init(&bytes, NULL);
    CHECK(tw_store_new(&st) && write_file(&st, 0, &bytes));
    CHECK(patch_oi(&bytes, 0, 1, shift_page_3)); /* column s */
    int64_t rows = 0;
    dl_pq_reader_stats stats;
    CHECK_STATUS(read_filtered(&bytes, filter_250, &rows, &stats, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "column 's'");
    CHECK_ERR_CONTAINS(&err, "holds 100 rows, but the offset index gives it 101");
    dl_buf_destroy(&bytes);
    tw_store_free(&st);
}

TEST(test_offset_index_that_misplaces_rows_of_a_list_column_is_corrupt) {
    tw_store st;
    dl_buf bytes;
    dl_buf_init(&bytes, NULL);
    CHECK(tw_store_new(&st) && write_file(&st, 0, &bytes));
    CHECK(patch_oi(&bytes, 0, 4, shift_page_3)); /* column tags.list.element */
    int64_t rows = 0;
    dl_pq_reader_stats stats;
    CHECK_STATUS(read_filtered(&bytes, filter_250, &rows, &stats, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "column 'tags.list.element'");
    CHECK_ERR_CONTAINS(&err, "but the offset index gives it");
    dl_buf_destroy(&bytes);
    tw_store_free(&st);
}

TEST(test_offset_index_inconsistent_with_its_chunk_is_ignored) {
    tw_store st;
    dl_buf bytes;
    dl_buf_init(&bytes, NULL);
    CHECK(tw_store_new(&st) && write_file(&st, 0, &bytes));
    CHECK(patch_oi(&bytes, 0, 1, move_first_page)); /* column s: read in full */
    int64_t rows = 0;
    dl_pq_reader_stats stats;
    CHECK_OK(read_filtered(&bytes, filter_250, &rows, &stats, &err), &err);
    CHECK_INT_EQ(rows, 100);
    /* id, cat, v, tags.list.element, st.a, st.b skip 29 of 30 pages; s skips none. */
    CHECK_INT_EQ(stats.pages_skipped, 6 * 29);
    dl_buf_destroy(&bytes);
    tw_store_free(&st);
}

TEST(test_undecodable_column_index_is_ignored) {
    tw_store st;
    dl_buf bytes;
    dl_buf_init(&bytes, NULL);
    CHECK(tw_store_new(&st) && write_file(&st, 0, &bytes));
    dl_pq_file *file = NULL;
    CHECK_OK(dl_pq_file_open_memory(bytes.data, bytes.len, "t", NULL, &file, &err), &err);
    const dl_pq_column_chunk *cc = &dl_pq_file_footer(file)->meta.row_groups[0].columns[0];
    memset(bytes.data + cc->column_index_offset, 0xFF, (size_t)cc->column_index_length);
    dl_pq_file_free(file);
    int64_t rows = 0;
    dl_pq_reader_stats stats;
    CHECK_OK(read_filtered(&bytes, filter_250, &rows, &stats, &err), &err);
    CHECK_INT_EQ(rows, 3000); /* row group 0 whole; the others ruled out by statistics */
    CHECK_INT_EQ(stats.pages_skipped, 0);
    CHECK_INT_EQ(stats.row_groups_skipped, 3);
    dl_buf_destroy(&bytes);
    tw_store_free(&st);
}

/* ---- Buffer reuse ---------------------------------------------------------------------------- */

static bool
every_row(void *ctx, int64_t row) {
    (void)ctx;
    (void)row;
    return true;
}

/* The rows of batch b rendered as JSON lines. */
static bool
render_batch(const dl_batch *b, dl_buf *out) {
    for (int64_t k = 0; k < b->count; k++) {
        if (pqt_render_row(b, k, out, &err) != DL_OK || dl_buf_append_byte(out, '\n', &err)) {
            return false;
        }
    }
    return true;
}

/* Reads the first batch of file into *out (kept: made for the test's own schema, which
 * outlives the reader) and the rest, with scratch. */
static dl_status
read_keeping_first(dl_pq_file *file, dl_pq_scratch *scratch, dl_batch **out, int64_t *rows) {
    dl_pq_read_options o = {.scratch = scratch, .batch_rows = 500};
    dl_pq_reader *r = NULL;
    dl_batch *b = NULL;
    DL_TRY(dl_pq_reader_new(file, &o, &r, &err));
    dl_status s = dl_vec_batch_new(NULL, schema, 0, out, &err);
    if (s == DL_OK) {
        s = dl_pq_reader_next(r, *out, &err);
        *rows = (*out)->count;
    }
    if (s == DL_OK) {
        s = dl_vec_batch_new(NULL, dl_pq_reader_schema(r), 0, &b, &err);
    }
    while (s == DL_OK) {
        s = dl_pq_reader_next(r, b, &err);
        if (s != DL_OK || b->count == 0) {
            break;
        }
        *rows += b->count;
    }
    dl_vec_batch_free(b);
    dl_pq_reader_free(r);
    return s;
}

/* Readers that share a scratch, one after the other (a thread's work units), reuse its
 * buffers, read the same rows as a reader of its own, and never reuse a buffer that a batch
 * still holds: the first reader's batch keeps its values while the second reads. */
TEST(test_readers_sharing_a_scratch_reuse_buffers_and_leave_held_batches_intact) {
    tw_store st;
    CHECK(tw_store_new(&st));
    dl_buf bytes, before, after;
    dl_buf_init(&bytes, NULL);
    dl_buf_init(&before, NULL);
    dl_buf_init(&after, NULL);
    dl_pq_file *file = NULL;
    dl_pq_scratch *scratch = NULL;
    dl_batch *kept = NULL;
    pqt_rows all = {0};
    int64_t rows = 0;
    dl_pq_read_options plain = {0};
    bool is_ok = write_file(&st, 0, &bytes) &&
                 dl_pq_file_open(st.store, "t.parquet", NULL, &file, &err) == DL_OK &&
                 pqt_rows_read(file, &plain, &all, &err) == DL_OK &&
                 dl_pq_scratch_new(NULL, &scratch, &err) == DL_OK &&
                 read_keeping_first(file, scratch, &kept, &rows) == DL_OK &&
                 render_batch(kept, &before);
    CHECK(is_ok);
    CHECK_INT_EQ(rows, N_ROWS);
    /* Buffers nobody else holds went back to the scratch. */
    CHECK(dl_pq_scratch_bytes(scratch) > 0);
    dl_pq_read_options o = {.scratch = scratch};
    CHECK(pqt_check_filtered(file, &all, &o, every_row, NULL, NULL));
    CHECK(render_batch(kept, &after));
    CHECK(before.len == after.len && memcmp(before.data, after.data, before.len) == 0);
    dl_vec_batch_free(kept);
    dl_pq_scratch_free(scratch);
    pqt_rows_free(&all);
    dl_pq_file_free(file);
    dl_buf_destroy(&bytes);
    dl_buf_destroy(&before);
    dl_buf_destroy(&after);
    tw_store_free(&st);
}

/* A batch read from a scratch's buffer outlives the scratch. */
TEST(test_batches_outlive_the_scratch_their_buffers_came_from) {
    tw_store st;
    CHECK(tw_store_new(&st));
    dl_buf bytes, before, after;
    dl_buf_init(&bytes, NULL);
    dl_buf_init(&before, NULL);
    dl_buf_init(&after, NULL);
    dl_pq_file *file = NULL;
    dl_pq_scratch *scratch = NULL;
    dl_batch *kept = NULL;
    int64_t rows = 0;
    CHECK(write_file(&st, 1, &bytes) &&
          dl_pq_file_open(st.store, "t.parquet", NULL, &file, &err) == DL_OK &&
          dl_pq_scratch_new(NULL, &scratch, &err) == DL_OK &&
          read_keeping_first(file, scratch, &kept, &rows) == DL_OK && render_batch(kept, &before));
    dl_pq_scratch_free(scratch);
    dl_pq_file_free(file);
    CHECK(render_batch(kept, &after));
    CHECK(before.len > 0 && before.len == after.len &&
          memcmp(before.data, after.data, before.len) == 0);
    dl_vec_batch_free(kept);
    dl_buf_destroy(&bytes);
    dl_buf_destroy(&before);
    dl_buf_destroy(&after);
    tw_store_free(&st);
}

int
main(void) {
    dl_arena_init(&arena, NULL, 0);
    if (make_schema(&err) != DL_OK) {
        printf("schema: %s\n", err.msg);
        return 1;
    }
    RUN(test_filtered_reads_return_every_matching_row_and_skip_pages);
    RUN(test_page_skipping_with_small_batches_that_end_inside_pages);
    RUN(test_page_skipping_over_v2_pages_without_dictionaries);
    RUN(test_page_skipping_over_uncompressed_pages);
    RUN(test_page_skipping_with_a_pool_opening_columns_in_parallel);
    RUN(test_page_skipping_reads_columns_other_than_the_filtered_one);
    RUN(test_page_skipping_reads_only_the_needed_bytes_from_a_store);
    RUN(test_offset_index_that_misplaces_rows_of_a_flat_column_is_corrupt);
    RUN(test_offset_index_that_misplaces_rows_of_a_list_column_is_corrupt);
    RUN(test_offset_index_inconsistent_with_its_chunk_is_ignored);
    RUN(test_undecodable_column_index_is_ignored);
    RUN(test_readers_sharing_a_scratch_reuse_buffers_and_leave_held_batches_intact);
    RUN(test_batches_outlive_the_scratch_their_buffers_came_from);
    dl_arena_destroy(&arena);
    return harness_finish();
}
