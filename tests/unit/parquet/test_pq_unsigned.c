/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unsigned integers (INTEGER(bitWidth, isSigned=false), converted UINT_8..UINT_64): their
 * statistics are ordered unsigned (parquet.thrift ColumnOrder TYPE_ORDER), so a UINT_32
 * maximum of 4294967295 is stored as the INT32 bits -1. The reader must judge row groups and
 * pages with that order in its vector domain (u8 -> smallint, u16 -> int, u32 -> bigint,
 * u64 -> decimal(20,0)), and a file read and written again must carry statistics that are
 * right for the signed types the values were widened to (deltalite writes no unsigned types).
 *
 * The file, built page by page (test_pq_read_util.h), all columns REQUIRED:
 *   rg 0: u8 {0, 200, 255}   u16 {1, 65535, 40000}  u32 {5, 3000000000, 4294967295}
 *         u64 {1, 2^63 + 5, 2^64 - 1}; unsigned bounds
 *   rg 1: u8 {7, 8, 9}       u16 {7, 8, 9}          u32 {10, 20, 15}   u64 {10, 20, 15}
 *   rg 2: as rg 1, but u8's bounds are 100 and -56, a maximum outside UINT_8's range (a
 *         writer that sign-extended 200), which the reader must not trust
 */
#include <string.h>

#include "harness.h"
#include "parquet/encoding/pq_encoding.h"
#include "parquet/pq_reader_int.h"
#include "parquet/pq_writer.h"
#include "test_pq_read_util.h"
#include "test_pq_write_util.h"

static dl_error err;
static dl_buf file_bytes;
static dl_pq_file *file;
static const dl_pq_field *col[4]; /* u8, u16, u32, u64 */

static const dl_u128 U64_MAX = (dl_u128)UINT64_MAX;

static void
add_column(pqt_file *f, size_t c, const void *vals, size_t width, int64_t min, int64_t max) {
    dl_buf v;
    dl_buf_init(&v, NULL);
    if (dl_pq_plain_encode_fixed(vals, 3, width, &v, &err) != DL_OK) {
        printf("%s\n", err.msg);
    }
    pqt_add_page(f, c,
                 &(pqt_page){.type = DL_PQ_PAGE_DATA,
                             .num_values = 3,
                             .values = v.data,
                             .values_len = v.len,
                             .encoding = DL_PQ_ENCODING_PLAIN});
    dl_buf_destroy(&v);
    pqt_column *pc = &f->cols[c];
    memset(&pc->stats, 0, sizeof(pc->stats));
    pc->has_stats = true;
    pc->stats.has_null_count = true;
    char *lo = dl_arena_alloc(&f->arena, 8);
    char *hi = dl_arena_alloc(&f->arena, 8);
    int32_t lo32 = (int32_t)min;
    int32_t hi32 = (int32_t)max;
    memcpy(lo, width == 4 ? (const void *)&lo32 : (const void *)&min, width);
    memcpy(hi, width == 4 ? (const void *)&hi32 : (const void *)&max, width);
    pc->stats.min_value = dl_str_make(lo, width);
    pc->stats.max_value = dl_str_make(hi, width);
    pc->stats.has_min_value = true;
    pc->stats.has_max_value = true;
}

static void
small_group(pqt_file *f, int32_t u8_min, int32_t u8_max) {
    int32_t s32[3] = {7, 8, 9};
    int32_t u32[3] = {10, 20, 15};
    int64_t u64[3] = {10, 20, 15};
    add_column(f, 0, s32, 4, u8_min, u8_max);
    add_column(f, 1, s32, 4, 7, 9);
    add_column(f, 2, u32, 4, 10, 20);
    add_column(f, 3, u64, 8, 10, 20);
    pqt_end_row_group(f, 3);
}

static bool
build_file(void) {
    pqt_file f;
    pqt_file_init(&f, 4);
    (void)pqt_add_leaf(&f, "u8", DL_PQ_REQUIRED, DL_PQ_TYPE_INT32, DL_PQ_CT_UINT_8, 0);
    (void)pqt_add_leaf(&f, "u16", DL_PQ_REQUIRED, DL_PQ_TYPE_INT32, DL_PQ_CT_UINT_16, 0);
    (void)pqt_add_leaf(&f, "u32", DL_PQ_REQUIRED, DL_PQ_TYPE_INT32, DL_PQ_CT_UINT_32, 0);
    (void)pqt_add_leaf(&f, "u64", DL_PQ_REQUIRED, DL_PQ_TYPE_INT64, DL_PQ_CT_UINT_64, 0);
    int32_t u8[3] = {0, 200, 255};
    int32_t u16[3] = {1, 65535, 40000};
    uint32_t u32[3] = {5, 3000000000u, 4294967295u};
    uint64_t u64[3] = {1, ((uint64_t)1 << 63) + 5, UINT64_MAX};
    add_column(&f, 0, u8, 4, 0, 255);
    add_column(&f, 1, u16, 4, 1, 65535);
    add_column(&f, 2, u32, 4, 5, (int64_t)(int32_t)4294967295u);
    add_column(&f, 3, u64, 8, 1, -1);
    pqt_end_row_group(&f, 3);
    small_group(&f, 7, 9);
    small_group(&f, 100, -56);
    dl_buf_init(&file_bytes, NULL);
    pqt_finish(&f, &file_bytes);
    pqt_file_destroy(&f);
    if (dl_pq_file_open_memory(file_bytes.data, file_bytes.len, "u.parquet", NULL, &file, &err) !=
        DL_OK) {
        printf("open: %s\n", err.msg);
        return false;
    }
    for (size_t i = 0; i < 4; i++) {
        col[i] = dl_pq_file_root(file)->children[i];
    }
    return true;
}

static const char *
mask(const dl_pq_filter *filter) {
    static char m[4];
    for (size_t g = 0; g < 3; g++) {
        m[g] = dl_pq_filter_may_match(file, filter, g) ? 'Y' : 'N';
    }
    m[3] = '\0';
    return m;
}

static dl_pq_filter
cmp(dl_pq_filter_op op, const dl_pq_field *c, const dl_pq_scalar *v) {
    return (dl_pq_filter){.op = op, .column = c, .values = v, .n_values = 1};
}

static dl_pq_scalar
int_const(int64_t i) {
    return (dl_pq_scalar){.kind = DL_PQ_SCALAR_INT, .i = i};
}

/* ---- Tests ------------------------------------------------------------------------------------
 */

TEST(test_unsigned_columns_read_as_widened_signed_types) {
    dl_buf out;
    dl_buf_init(&out, NULL);
    CHECK_OK(pqt_read_json(file_bytes.data, file_bytes.len, NULL, NULL, &out, &err), &err);
    const char *want =
        "{\"u8\":255,\"u16\":40000,\"u32\":\"4294967295\",\"u64\":\"18446744073709551615\"}";
    CHECK(strstr((const char *)out.data, want) != NULL);
    CHECK(dl_pq_field_find_id(dl_pq_file_root(file), 0) == NULL);
    CHECK_INT_EQ(col[0]->type->id, DL_VEC_TYPE_SHORT);
    CHECK_INT_EQ(col[1]->type->id, DL_VEC_TYPE_INT);
    CHECK_INT_EQ(col[2]->type->id, DL_VEC_TYPE_LONG);
    CHECK_INT_EQ(col[3]->type->id, DL_VEC_TYPE_DECIMAL);
    dl_buf_destroy(&out);
}

TEST(test_row_groups_are_judged_by_unsigned_order) {
    dl_pq_scalar big = int_const((int64_t)1 << 31);
    dl_pq_filter f = cmp(DL_PQ_FILTER_GT, col[2], &big);
    CHECK_STR_EQ(mask(&f), "YNN"); /* signed, the max (-1) would rule rg 0 out */
    dl_pq_scalar max32 = int_const(4294967295LL);
    f = cmp(DL_PQ_FILTER_EQ, col[2], &max32);
    CHECK_STR_EQ(mask(&f), "YNN");
    dl_pq_scalar three = int_const(3);
    f = cmp(DL_PQ_FILTER_LT, col[2], &three);
    CHECK_STR_EQ(mask(&f), "NNN");
    dl_pq_scalar c60000 = int_const(60000);
    f = cmp(DL_PQ_FILTER_GE, col[1], &c60000);
    CHECK_STR_EQ(mask(&f), "YNN");
    /* u64 as decimal(20,0): 2^64 - 1 is in rg 0, 2^64 is beyond every bound. */
    dl_pq_scalar top = {.kind = DL_PQ_SCALAR_DECIMAL, .d = (dl_i128)U64_MAX, .scale = 0};
    f = cmp(DL_PQ_FILTER_EQ, col[3], &top);
    CHECK_STR_EQ(mask(&f), "YNN");
    dl_pq_scalar beyond = {.kind = DL_PQ_SCALAR_DECIMAL, .d = (dl_i128)U64_MAX + 1, .scale = 0};
    f = cmp(DL_PQ_FILTER_GE, col[3], &beyond);
    CHECK_STR_EQ(mask(&f), "NNN");
    dl_pq_scalar neg = int_const(-1);
    f = cmp(DL_PQ_FILTER_LE, col[3], &neg);
    CHECK_STR_EQ(mask(&f), "NNN");
}

TEST(test_narrow_unsigned_bound_outside_its_range_is_not_trusted) {
    dl_pq_scalar c150 = int_const(150);
    dl_pq_filter f = cmp(DL_PQ_FILTER_EQ, col[0], &c150);
    /* rg 0 holds 0..255; rg 1 7..9; rg 2's max -56 is no UINT_8 value: only its min counts. */
    CHECK_STR_EQ(mask(&f), "YNY");
    dl_pq_scalar c50 = int_const(50);
    f = cmp(DL_PQ_FILTER_LT, col[0], &c50);
    CHECK_STR_EQ(mask(&f), "YYN");
}

/* Page verdicts on a ColumnIndex of the u32 column: a null page, an unsigned page, a page
 * without nulls. */
TEST(test_pages_are_judged_by_unsigned_order_and_null_pages) {
    char b[4][4];
    int32_t v[4] = {5, -1, 10, 20};
    for (int i = 0; i < 4; i++) {
        memcpy(b[i], &v[i], 4);
    }
    bool nulls[3] = {true, false, false};
    dl_str mins[3] = {DL_STR(""), dl_str_make(b[0], 4), dl_str_make(b[2], 4)};
    dl_str maxs[3] = {DL_STR(""), dl_str_make(b[1], 4), dl_str_make(b[3], 4)};
    int64_t null_counts[3] = {4, 1, 0};
    dl_pq_column_index ci = {.null_pages = nulls,
                             .n_null_pages = 3,
                             .min_values = mins,
                             .n_min_values = 3,
                             .max_values = maxs,
                             .n_max_values = 3,
                             .null_counts = null_counts,
                             .n_null_counts = 3,
                             .has_null_counts = true};
    dl_pq_scalar big = int_const(3000000000LL);
    dl_pq_filter f = cmp(DL_PQ_FILTER_EQ, col[2], &big);
    char m[4] = {0};
    for (size_t p = 0; p < 3; p++) {
        m[p] = dl_pq_filter_page_may_match(file, &f, &ci, p) ? 'Y' : 'N';
    }
    CHECK_STR_EQ(m, "NYN");
    f = (dl_pq_filter){.op = DL_PQ_FILTER_IS_NULL, .column = col[2]};
    for (size_t p = 0; p < 3; p++) {
        m[p] = dl_pq_filter_page_may_match(file, &f, &ci, p) ? 'Y' : 'N';
    }
    CHECK_STR_EQ(m, "YYN");
    f.op = DL_PQ_FILTER_IS_NOT_NULL;
    for (size_t p = 0; p < 3; p++) {
        m[p] = dl_pq_filter_page_may_match(file, &f, &ci, p) ? 'Y' : 'N';
    }
    CHECK_STR_EQ(m, "NYY");
}

/* Read and written again, the values are in signed types and the statistics signed. */
TEST(test_unsigned_columns_rewritten_carry_correct_signed_statistics) {
    dl_pq_reader *r = NULL;
    CHECK_OK(dl_pq_reader_new(file, NULL, &r, &err), &err);
    const dl_type *schema = dl_pq_reader_schema(r);
    dl_batch *batches[3] = {NULL, NULL, NULL};
    size_t n = 0;
    for (; n < 3; n++) {
        CHECK_OK(dl_vec_batch_new(NULL, schema, 0, &batches[n], &err), &err);
        CHECK_OK(dl_pq_reader_next(r, batches[n], &err), &err);
        CHECK_INT_EQ(batches[n]->count, 3);
    }
    tw_store st;
    CHECK(tw_store_new(&st));
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_pq_write_result res;
    dl_status s = tw_write(st.store, "w.parquet", schema, batches, 3, NULL, &arena, &res, &err);
    tw_file f;
    memset(&f, 0, sizeof(f));
    if (s == DL_OK) {
        s = tw_file_read(st.store, "w.parquet", &f, &err); /* checks every chunk's statistics */
    }
    for (size_t i = 0; i < 3; i++) {
        dl_vec_batch_free(batches[i]);
    }
    dl_pq_reader_free(r);
    CHECK_OK(s, &err);
    const dl_pq_schema_node *const *leaves =
        (const dl_pq_schema_node *const *)f.footer->schema.leaves;
    CHECK(leaves[0]->logical.kind == DL_PQ_LT_INTEGER && leaves[0]->logical.integer.is_signed);
    CHECK_INT_EQ(leaves[2]->type, DL_PQ_TYPE_INT64);
    CHECK_INT_EQ(leaves[3]->logical.kind, DL_PQ_LT_DECIMAL);
    /* File-wide statistics the writer reports (for Delta's add action). */
    CHECK(res.leaves[0].min.i64 == 0 && res.leaves[0].max.i64 == 255);
    CHECK(res.leaves[1].min.i64 == 1 && res.leaves[1].max.i64 == 65535);
    CHECK(res.leaves[2].min.i64 == 5 && res.leaves[2].max.i64 == 4294967295LL);
    CHECK(res.leaves[3].min.i128 == 1 && res.leaves[3].max.i128 == (dl_i128)U64_MAX);
    /* Row group 0's u32 chunk: signed INT64 bounds. */
    const dl_pq_statistics *s32 = &f.footer->meta.row_groups[0].columns[2].meta_data.statistics;
    int64_t lo = 0;
    int64_t hi = 0;
    CHECK(s32->min_value.len == 8 && s32->max_value.len == 8);
    memcpy(&lo, s32->min_value.ptr, 8);
    memcpy(&hi, s32->max_value.ptr, 8);
    CHECK(lo == 5 && hi == 4294967295LL);
    tw_file_free(&f);
    tw_store_free(&st);
    dl_arena_destroy(&arena);
}

int
main(void) {
    if (!build_file()) {
        return 1;
    }
    RUN(test_unsigned_columns_read_as_widened_signed_types);
    RUN(test_row_groups_are_judged_by_unsigned_order);
    RUN(test_narrow_unsigned_bound_outside_its_range_is_not_trusted);
    RUN(test_pages_are_judged_by_unsigned_order_and_null_pages);
    RUN(test_unsigned_columns_rewritten_carry_correct_signed_statistics);
    dl_pq_file_free(file);
    dl_buf_destroy(&file_bytes);
    return harness_finish();
}
