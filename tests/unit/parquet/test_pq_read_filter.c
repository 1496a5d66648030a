/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Row-group skipping: dl_pq_filter_may_match over column chunk statistics (comparisons, IN,
 * IS [NOT] NULL, AND/OR; integers, strings, timestamps in millis, mixed constant kinds), and a
 * reader that skips the row groups a filter rules out.
 *
 * The file: three row groups of columns x (optional int64), s (optional string) and
 * t (optional timestamp millis):
 *   rg 0: x in [1, 10], no nulls;   s in ["apple", "banana"];  t in [1000 ms, 2000 ms]
 *   rg 1: x in [20, 30], 2 nulls;   s in ["cherry", "date"];   t in [5000 ms, 6000 ms]
 *   rg 2: x all null (3 rows);       s all null;               t all null
 */
#include <string.h>

#include "harness.h"
#include "parquet/encoding/pq_encoding.h"
#include "test_pq_read_util.h"

static dl_error err;
static dl_buf file_bytes;
static dl_pq_file *file;
static const dl_pq_field *col_x;
static const dl_pq_field *col_s;
static const dl_pq_field *col_t;

static dl_str
le64(int64_t v, char *buf) {
    memcpy(buf, &v, 8);
    return dl_str_make(buf, 8);
}

static void
set_stats(pqt_column *c, dl_str min, dl_str max, int64_t nulls, bool has_bounds) {
    memset(&c->stats, 0, sizeof(c->stats));
    c->has_stats = true;
    c->stats.null_count = nulls;
    c->stats.has_null_count = true;
    if (has_bounds) {
        c->stats.min_value = min;
        c->stats.max_value = max;
        c->stats.has_min_value = true;
        c->stats.has_max_value = true;
    }
}

/* Adds a page of n values, the first n_null of them null, from vals (int64) or strs. */
static void
add_rows(pqt_file *f, size_t c, int n, int n_null, const int64_t *vals, const char *const *strs) {
    dl_buf v;
    dl_buf_init(&v, NULL);
    uint16_t def[16];
    for (int i = 0; i < n; i++) {
        def[i] = (uint16_t)(i >= n_null);
    }
    if (strs != NULL) {
        dl_str s[16];
        for (int i = 0; i < n - n_null; i++) {
            s[i] = dl_str_from_cstr(strs[i]);
        }
        if (dl_pq_plain_encode_byte_array(s, (size_t)(n - n_null), &v, &err) != DL_OK) {
            printf("%s\n", err.msg);
        }
    } else if (n > n_null &&
               dl_pq_plain_encode_fixed(vals, (size_t)(n - n_null), 8, &v, &err) != DL_OK) {
        printf("%s\n", err.msg);
    }
    pqt_add_page(f, c,
                 &(pqt_page){.type = DL_PQ_PAGE_DATA,
                             .num_values = n,
                             .def = def,
                             .max_def = 1,
                             .values = v.data,
                             .values_len = v.len,
                             .encoding = DL_PQ_ENCODING_PLAIN});
    dl_buf_destroy(&v);
}

static void
build_file(void) {
    pqt_file f;
    pqt_file_init(&f, 3);
    size_t x = pqt_add_leaf(&f, "x", DL_PQ_OPTIONAL, DL_PQ_TYPE_INT64, -1, 0);
    size_t s = pqt_add_leaf(&f, "s", DL_PQ_OPTIONAL, DL_PQ_TYPE_BYTE_ARRAY, DL_PQ_CT_UTF8, 0);
    size_t t =
        pqt_add_leaf(&f, "t", DL_PQ_OPTIONAL, DL_PQ_TYPE_INT64, DL_PQ_CT_TIMESTAMP_MILLIS, 0);
    char a[8];
    char b[8];
    int64_t x0[] = {1, 10, 5};
    const char *s0[] = {"apple", "banana", "apple"};
    int64_t t0[] = {1000, 2000, 1500};
    add_rows(&f, x, 3, 0, x0, NULL);
    set_stats(&f.cols[x], le64(1, a), le64(10, b), 0, true);
    add_rows(&f, s, 3, 0, NULL, s0);
    set_stats(&f.cols[s], DL_STR("apple"), DL_STR("banana"), 0, true);
    add_rows(&f, t, 3, 0, t0, NULL);
    char ta[8];
    char tb[8];
    set_stats(&f.cols[t], le64(1000, ta), le64(2000, tb), 0, true);
    pqt_end_row_group(&f, 3);

    int64_t x1[] = {20, 30};
    const char *s1[] = {"cherry", "date"};
    int64_t t1[] = {5000, 6000};
    char c[8];
    char d[8];
    char tc[8];
    char td[8];
    add_rows(&f, x, 4, 2, x1, NULL);
    set_stats(&f.cols[x], le64(20, c), le64(30, d), 2, true);
    add_rows(&f, s, 4, 2, NULL, s1);
    set_stats(&f.cols[s], DL_STR("cherry"), DL_STR("date"), 2, true);
    add_rows(&f, t, 4, 2, t1, NULL);
    set_stats(&f.cols[t], le64(5000, tc), le64(6000, td), 2, true);
    pqt_end_row_group(&f, 4);

    add_rows(&f, x, 3, 3, NULL, NULL);
    set_stats(&f.cols[x], DL_STR(""), DL_STR(""), 3, false);
    add_rows(&f, s, 3, 3, NULL, NULL);
    set_stats(&f.cols[s], DL_STR(""), DL_STR(""), 3, false);
    add_rows(&f, t, 3, 3, NULL, NULL);
    set_stats(&f.cols[t], DL_STR(""), DL_STR(""), 3, false);
    pqt_end_row_group(&f, 3);

    dl_buf_init(&file_bytes, NULL);
    pqt_finish(&f, &file_bytes);
    pqt_file_destroy(&f);
    if (dl_pq_file_open_memory(file_bytes.data, file_bytes.len, "f.parquet", NULL, &file, &err) !=
        DL_OK) {
        printf("open: %s\n", err.msg);
        return;
    }
    const dl_pq_field *root = dl_pq_file_root(file);
    col_x = root->children[0];
    col_s = root->children[1];
    col_t = root->children[2];
}

/* The row groups filter may match, as a 3-character mask like "YN?". */
static const char *
mask(const dl_pq_filter *filter) {
    static char m[4];
    for (size_t g = 0; g < 3; g++) {
        m[g] = dl_pq_filter_may_match(file, filter, g) ? 'Y' : 'N';
    }
    m[3] = '\0';
    return m;
}

static dl_pq_scalar
int_const(int64_t i) {
    return (dl_pq_scalar){.kind = DL_PQ_SCALAR_INT, .i = i};
}

static dl_pq_filter
cmp(dl_pq_filter_op op, const dl_pq_field *col, const dl_pq_scalar *v) {
    return (dl_pq_filter){.op = op, .column = col, .values = v, .n_values = 1};
}

TEST(test_comparisons_on_integers) {
    dl_pq_scalar c5 = int_const(5);
    dl_pq_scalar c15 = int_const(15);
    dl_pq_scalar c20 = int_const(20);
    dl_pq_scalar c10 = int_const(10);
    dl_pq_filter f;
    f = cmp(DL_PQ_FILTER_EQ, col_x, &c5);
    CHECK_STR_EQ(mask(&f), "YNN");
    f = cmp(DL_PQ_FILTER_EQ, col_x, &c15);
    CHECK_STR_EQ(mask(&f), "NNN");
    f = cmp(DL_PQ_FILTER_LT, col_x, &c20);
    CHECK_STR_EQ(mask(&f), "YNN");
    f = cmp(DL_PQ_FILTER_LE, col_x, &c20);
    CHECK_STR_EQ(mask(&f), "YYN");
    f = cmp(DL_PQ_FILTER_GT, col_x, &c10);
    CHECK_STR_EQ(mask(&f), "NYN");
    f = cmp(DL_PQ_FILTER_GE, col_x, &c10);
    CHECK_STR_EQ(mask(&f), "YYN");
    dl_pq_scalar in[] = {int_const(15), int_const(25)};
    f = (dl_pq_filter){.op = DL_PQ_FILTER_IN, .column = col_x, .values = in, .n_values = 2};
    CHECK_STR_EQ(mask(&f), "NYN");
    f = (dl_pq_filter){.op = DL_PQ_FILTER_IN, .column = col_x, .values = in, .n_values = 0};
    CHECK_STR_EQ(mask(&f), "NNN");
    /* A double constant against an integer column. */
    dl_pq_scalar half = {.kind = DL_PQ_SCALAR_DOUBLE, .f = 10.5};
    f = cmp(DL_PQ_FILTER_GT, col_x, &half);
    CHECK_STR_EQ(mask(&f), "NYN");
    /* A decimal constant (10.5 as 105 at scale 1). */
    dl_pq_scalar dec = {.kind = DL_PQ_SCALAR_DECIMAL, .d = 105, .scale = 1};
    f = cmp(DL_PQ_FILTER_LT, col_x, &dec);
    CHECK_STR_EQ(mask(&f), "YNN");
    /* A string constant cannot be compared with integers: may match. */
    dl_pq_scalar str = {.kind = DL_PQ_SCALAR_BYTES, .s = DL_STR("5")};
    f = cmp(DL_PQ_FILTER_EQ, col_x, &str);
    CHECK_STR_EQ(mask(&f), "YYN");
}

TEST(test_null_tests_and_boolean_trees) {
    dl_pq_filter f = {.op = DL_PQ_FILTER_IS_NULL, .column = col_x};
    CHECK_STR_EQ(mask(&f), "NYY");
    f.op = DL_PQ_FILTER_IS_NOT_NULL;
    CHECK_STR_EQ(mask(&f), "YYN");
    dl_pq_scalar c5 = int_const(5);
    dl_pq_scalar c25 = int_const(25);
    dl_pq_filter kids[2] = {cmp(DL_PQ_FILTER_EQ, col_x, &c5), cmp(DL_PQ_FILTER_EQ, col_x, &c25)};
    f = (dl_pq_filter){.op = DL_PQ_FILTER_OR, .children = kids, .n_children = 2};
    CHECK_STR_EQ(mask(&f), "YYN");
    f.op = DL_PQ_FILTER_AND;
    CHECK_STR_EQ(mask(&f), "NNN");
    dl_pq_filter none = {.op = DL_PQ_FILTER_AND};
    CHECK_STR_EQ(mask(&none), "YYY");
}

TEST(test_strings_and_timestamps) {
    dl_pq_scalar cherry = {.kind = DL_PQ_SCALAR_BYTES, .s = DL_STR("cherry")};
    dl_pq_scalar b = {.kind = DL_PQ_SCALAR_BYTES, .s = DL_STR("b")};
    dl_pq_filter f = cmp(DL_PQ_FILTER_EQ, col_s, &cherry);
    CHECK_STR_EQ(mask(&f), "NYN");
    f = cmp(DL_PQ_FILTER_LT, col_s, &b);
    CHECK_STR_EQ(mask(&f), "YNN");
    /* Timestamps are compared in microseconds: 1.5 s is in row group 0 only. */
    dl_pq_scalar ts = int_const(1500000);
    f = cmp(DL_PQ_FILTER_EQ, col_t, &ts);
    CHECK_STR_EQ(mask(&f), "YNN");
    dl_pq_scalar ts2 = int_const(2000001);
    f = cmp(DL_PQ_FILTER_GE, col_t, &ts2);
    CHECK_STR_EQ(mask(&f), "NYN");
}

/* A reader with a filter skips the row groups it rules out and counts them. */
TEST(test_reader_skips_row_groups) {
    dl_pq_scalar c25 = int_const(25);
    dl_pq_filter f = cmp(DL_PQ_FILTER_GE, col_x, &c25);
    dl_pq_read_options o = {.filter = &f};
    dl_pq_reader *r;
    CHECK_OK(dl_pq_reader_new(file, &o, &r, &err), &err);
    dl_batch *b;
    CHECK_OK(dl_vec_batch_new(NULL, dl_pq_reader_schema(r), 0, &b, &err), &err);
    int64_t rows = 0;
    for (;;) {
        CHECK_OK(dl_pq_reader_next(r, b, &err), &err);
        if (b->count == 0) {
            break;
        }
        CHECK_INT_EQ(dl_pq_reader_row_group(r), 1);
        CHECK_INT_EQ(dl_pq_reader_batch_first_row(r), 3);
        rows += b->count;
    }
    CHECK_INT_EQ(rows, 4);
    dl_pq_reader_stats st;
    dl_pq_reader_get_stats(r, &st);
    CHECK_INT_EQ(st.row_groups_skipped, 2);
    CHECK_INT_EQ(st.row_groups_read, 1);
    dl_vec_batch_free(b);
    dl_pq_reader_free(r);
}

/* A parallel scan over all row groups sees every row once. */
typedef struct scan_count {
    int64_t rows[4];
} scan_count;

static dl_status
count_rows(void *ctx, int slot, const dl_batch *batch, dl_error *e) {
    (void)e;
    ((scan_count *)ctx)->rows[slot] += batch->count;
    return DL_OK;
}

TEST(test_parallel_scan) {
    dl_pool *pool;
    CHECK_OK(dl_pool_new(2, NULL, &pool, &err), &err);
    scan_count sc;
    memset(&sc, 0, sizeof(sc));
    CHECK_OK(dl_pq_file_scan(file, NULL, pool, 3, count_rows, &sc, &err), &err);
    CHECK_INT_EQ(sc.rows[0] + sc.rows[1] + sc.rows[2] + sc.rows[3], 10);
    memset(&sc, 0, sizeof(sc));
    CHECK_OK(dl_pq_file_scan(file, NULL, NULL, 0, count_rows, &sc, &err), &err);
    CHECK_INT_EQ(sc.rows[0], 10);
    dl_pool_free(pool);
}

int
main(void) {
    build_file();
    if (file == NULL) {
        return 1;
    }
    RUN(test_comparisons_on_integers);
    RUN(test_null_tests_and_boolean_trees);
    RUN(test_strings_and_timestamps);
    RUN(test_reader_skips_row_groups);
    RUN(test_parallel_scan);
    dl_pq_file_free(file);
    dl_buf_destroy(&file_bytes);
    return harness_finish();
}
