/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Page skipping on files other writers made: every file of parquet-testing/data with a page
 * index (parquet-mr, parquet-cpp/Arrow, parquet-rs...) is read with filters on each flat
 * top-level column whose constants come from the column's own values (=, a range, IN, the
 * complement of a range, IS [NOT] NULL), and each filtered read is checked against the
 * unfiltered one (pqt_check_filtered: the rows returned are the file's rows at the positions
 * the reader gives, and every row the filter matches is among them). The filter is evaluated
 * here, on the values read, with SQL's null semantics and IEEE comparisons.
 *
 * Exits 77 (skipped) when the corpus is absent.
 */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"
#include "parquet/pq_reader.h"
#include "test_pq_read_util.h"

#define DATA_DIR DL_CORPUS_DIR "/parquet-testing/data"

static dl_error err;

/* One column's values by file row. */
typedef struct col_values {
    dl_pq_scalar *v;
    uint8_t *is_null;
    int64_t n;
    dl_arena arena; /* string bytes */
} col_values;

/* The value of row i of vec as a scalar of the kind the filter compares; false when the
 * type is not one a filter compares. */
static bool
scalar_at(const dl_vector *vec, int64_t i, dl_pq_scalar *out, dl_arena *arena) {
    const dl_vector *flat = NULL;
    int64_t at = dl_vec_resolve(vec, i, &flat);
    const dl_type *t = flat->type;
    memset(out, 0, sizeof(*out));
    out->kind = DL_PQ_SCALAR_INT;
    switch (t->id) {
    case DL_VEC_TYPE_BOOLEAN:
        out->kind = DL_PQ_SCALAR_BOOL;
        out->b = dl_vec_get_bool(flat, at);
        return true;
    case DL_VEC_TYPE_BYTE:
        out->i = ((const int8_t *)flat->data)[at];
        return true;
    case DL_VEC_TYPE_SHORT:
        out->i = ((const int16_t *)flat->data)[at];
        return true;
    case DL_VEC_TYPE_INT:
    case DL_VEC_TYPE_DATE:
        out->i = ((const int32_t *)flat->data)[at];
        return true;
    case DL_VEC_TYPE_LONG:
    case DL_VEC_TYPE_TIMESTAMP:
    case DL_VEC_TYPE_TIMESTAMP_NTZ:
        out->i = ((const int64_t *)flat->data)[at];
        return true;
    case DL_VEC_TYPE_FLOAT:
        out->kind = DL_PQ_SCALAR_DOUBLE;
        out->f = (double)((const float *)flat->data)[at];
        return true;
    case DL_VEC_TYPE_DOUBLE:
        out->kind = DL_PQ_SCALAR_DOUBLE;
        out->f = ((const double *)flat->data)[at];
        return true;
    case DL_VEC_TYPE_DECIMAL:
        out->kind = DL_PQ_SCALAR_DECIMAL;
        memcpy(&out->d, (const uint8_t *)flat->data + at * 16, 16);
        out->scale = t->scale;
        return true;
    case DL_VEC_TYPE_STRING:
    case DL_VEC_TYPE_BINARY: {
        dl_str s = dl_vec_get_str(flat, at);
        out->kind = DL_PQ_SCALAR_BYTES;
        void *copy = dl_arena_memdup(arena, s.len > 0 ? s.ptr : "", s.len);
        out->s = dl_str_make(copy, copy != NULL ? s.len : 0);
        return copy != NULL;
    }
    default:
        return false;
    }
}

static dl_status
read_values(dl_pq_file *file, const dl_pq_field *col, col_values *out, bool *out_ok, dl_error *e) {
    *out_ok = true;
    out->n = dl_pq_file_num_rows(file);
    out->v = dl_arena_alloc_array(&out->arena, (size_t)out->n + 1, sizeof(dl_pq_scalar));
    out->is_null = dl_arena_alloc_zero(&out->arena, (size_t)out->n + 1);
    DL_CHECK(out->v != NULL && out->is_null != NULL, e, DL_ERR_NOMEM, "out of memory");
    dl_pq_read_options o = {.columns = &col, .n_columns = 1};
    dl_pq_reader *r = NULL;
    dl_batch *b = NULL;
    dl_status s = dl_pq_reader_new(file, &o, &r, e);
    if (s == DL_OK) {
        s = dl_vec_batch_new(NULL, dl_pq_reader_schema(r), 0, &b, e);
    }
    int64_t row = 0;
    while (s == DL_OK && *out_ok) {
        s = dl_pq_reader_next(r, b, e);
        if (s != DL_OK || b->count == 0) {
            break;
        }
        for (int64_t i = 0; i < b->count && *out_ok && row < out->n; i++, row++) {
            out->is_null[row] = dl_vec_is_null(b->cols[0], i);
            *out_ok = out->is_null[row] || scalar_at(b->cols[0], i, &out->v[row], &out->arena);
        }
    }
    dl_vec_batch_free(b);
    dl_pq_reader_free(r);
    return s;
}

/* ---- The filter, evaluated on values ----------------------------------------------------- */

static int
cmp_scalar(const dl_pq_scalar *a, const dl_pq_scalar *b, bool *out_ok) {
    *out_ok = true;
    switch (a->kind) {
    case DL_PQ_SCALAR_BOOL:
        return (int)a->b - (int)b->b;
    case DL_PQ_SCALAR_INT:
        return a->i < b->i ? -1 : a->i > b->i;
    case DL_PQ_SCALAR_DOUBLE:
        *out_ok = a->f == a->f && b->f == b->f; /* NaN compares with nothing */
        return a->f < b->f ? -1 : a->f > b->f;
    case DL_PQ_SCALAR_DECIMAL:
        return a->d < b->d ? -1 : a->d > b->d;
    default: {
        size_t n = DL_MIN(a->s.len, b->s.len);
        int c = n > 0 ? memcmp(a->s.ptr, b->s.ptr, n) : 0;
        if (c != 0) {
            return c < 0 ? -1 : 1;
        }
        return a->s.len < b->s.len ? -1 : a->s.len > b->s.len;
    }
    }
}

typedef struct eval_ctx {
    const col_values *vals;
    const dl_pq_filter *f;
} eval_ctx;

static bool
eval(const dl_pq_filter *f, const col_values *vals, int64_t row) {
    switch (f->op) {
    case DL_PQ_FILTER_AND:
    case DL_PQ_FILTER_OR:
        for (size_t i = 0; i < f->n_children; i++) {
            bool m = eval(&f->children[i], vals, row);
            if (m != (f->op == DL_PQ_FILTER_AND)) {
                return m;
            }
        }
        return f->op == DL_PQ_FILTER_AND;
    case DL_PQ_FILTER_IS_NULL:
        return vals->is_null[row];
    case DL_PQ_FILTER_IS_NOT_NULL:
        return !vals->is_null[row];
    default:
        break;
    }
    if (vals->is_null[row]) {
        return false;
    }
    for (size_t i = 0; i < f->n_values; i++) {
        bool is_ok = false;
        int c = cmp_scalar(&vals->v[row], &f->values[i], &is_ok);
        bool m = is_ok && (f->op == DL_PQ_FILTER_EQ   ? c == 0
                           : f->op == DL_PQ_FILTER_IN ? c == 0
                           : f->op == DL_PQ_FILTER_LT ? c < 0
                           : f->op == DL_PQ_FILTER_LE ? c <= 0
                           : f->op == DL_PQ_FILTER_GT ? c > 0
                                                      : c >= 0);
        if (m) {
            return true;
        }
    }
    return false;
}

static bool
pred(void *ctx, int64_t row) {
    const eval_ctx *e = ctx;
    return eval(e->f, e->vals, row);
}

/* ---- Per file ------------------------------------------------------------------------------ */

typedef struct file_result {
    int n_filters;
    int n_failed;
    dl_pq_reader_stats total;
} file_result;

static void
add_stats(dl_pq_reader_stats *acc, const dl_pq_reader_stats *s) {
    acc->rows += s->rows;
    acc->row_groups_skipped += s->row_groups_skipped;
    acc->pages_skipped += s->pages_skipped;
    acc->rows_skipped += s->rows_skipped;
}

/* The first non-null value at or after row `from` (wrapping), or NULL. */
static const dl_pq_scalar *
pick(const col_values *vals, int64_t from) {
    for (int64_t k = 0; k < vals->n; k++) {
        int64_t i = (from + k) % vals->n;
        if (!vals->is_null[i]) {
            return &vals->v[i];
        }
    }
    return NULL;
}

static void
run_filter(dl_pq_file *file, const pqt_rows *all, const col_values *vals, const dl_pq_filter *f,
           const char *what, file_result *res) {
    dl_pq_read_options o = {.filter = f, .batch_rows = 100};
    eval_ctx ctx = {.vals = vals, .f = f};
    dl_pq_reader_stats st;
    memset(&st, 0, sizeof(st));
    res->n_filters++;
    if (!pqt_check_filtered(file, all, &o, pred, &ctx, &st)) {
        printf("  %s: column '%s', filter %s failed\n", dl_pq_file_name(file),
               f->column != NULL ? f->column->name : f->children[0].column->name, what);
        res->n_failed++;
    }
    add_stats(&res->total, &st);
}

static void
run_column(dl_pq_file *file, const pqt_rows *all, const dl_pq_field *col, file_result *res) {
    col_values vals;
    memset(&vals, 0, sizeof(vals));
    dl_arena_init(&vals.arena, NULL, 0);
    bool is_ok = false;
    const dl_pq_scalar *a = NULL;
    const dl_pq_scalar *b = NULL;
    if (read_values(file, col, &vals, &is_ok, &err) == DL_OK && is_ok && vals.n > 0) {
        a = pick(&vals, vals.n / 4);
        b = pick(&vals, vals.n * 2 / 3);
    }
    if (a != NULL && b != NULL) {
        bool ok = false;
        bool is_le = cmp_scalar(a, b, &ok) <= 0 || !ok;
        dl_pq_scalar ab[2] = {is_le ? *a : *b, is_le ? *b : *a};
        dl_pq_filter eq = {.op = DL_PQ_FILTER_EQ, .column = col, .values = a, .n_values = 1};
        dl_pq_filter in = {.op = DL_PQ_FILTER_IN, .column = col, .values = ab, .n_values = 2};
        dl_pq_filter rng[2] = {
            {.op = DL_PQ_FILTER_GE, .column = col, .values = &ab[0], .n_values = 1},
            {.op = DL_PQ_FILTER_LE, .column = col, .values = &ab[1], .n_values = 1}};
        dl_pq_filter out[2] = {
            {.op = DL_PQ_FILTER_LT, .column = col, .values = &ab[0], .n_values = 1},
            {.op = DL_PQ_FILTER_GT, .column = col, .values = &ab[1], .n_values = 1}};
        dl_pq_filter in_rng = {.op = DL_PQ_FILTER_AND, .children = rng, .n_children = 2};
        dl_pq_filter out_rng = {.op = DL_PQ_FILTER_OR, .children = out, .n_children = 2};
        dl_pq_filter is_null = {.op = DL_PQ_FILTER_IS_NULL, .column = col};
        dl_pq_filter not_null = {.op = DL_PQ_FILTER_IS_NOT_NULL, .column = col};
        run_filter(file, all, &vals, &eq, "=", res);
        run_filter(file, all, &vals, &in, "IN", res);
        run_filter(file, all, &vals, &in_rng, "BETWEEN", res);
        run_filter(file, all, &vals, &out_rng, "NOT BETWEEN", res);
        run_filter(file, all, &vals, &is_null, "IS NULL", res);
        run_filter(file, all, &vals, &not_null, "IS NOT NULL", res);
    }
    dl_arena_destroy(&vals.arena);
}

static bool
has_page_index(const dl_pq_file *file) {
    const dl_pq_file_metadata *md = &dl_pq_file_footer(file)->meta;
    for (size_t g = 0; g < md->n_row_groups; g++) {
        for (size_t c = 0; c < md->row_groups[g].n_columns; c++) {
            if (md->row_groups[g].columns[c].has_column_index_offset) {
                return true;
            }
        }
    }
    return false;
}

/* Runs the filters over path; false when the file has no page index or cannot be read. */
static bool
run_file(const char *path, file_result *res) {
    memset(res, 0, sizeof(*res));
    dl_buf bytes;
    dl_buf_init(&bytes, NULL);
    dl_pq_file *file = NULL;
    bool is_run = pqt_read_file(path, &bytes) == 0 &&
                  dl_pq_file_open_memory(bytes.data, bytes.len, path, NULL, &file, &err) == DL_OK &&
                  has_page_index(file) && dl_pq_file_num_rows(file) <= 1000000;
    pqt_rows all;
    memset(&all, 0, sizeof(all));
    dl_pq_read_options base = {0};
    is_run = is_run && pqt_rows_read(file, &base, &all, &err) == DL_OK;
    const dl_pq_field *root = is_run ? dl_pq_file_root(file) : NULL;
    for (size_t i = 0; root != NULL && i < root->n_children; i++) {
        const dl_pq_field *c = root->children[i];
        if (c->kind == DL_PQ_FIELD_LEAF && c->type != NULL) {
            run_column(file, &all, c, res);
        }
    }
    if (is_run) {
        printf("  %s: %d filters, %d failed; row groups skipped %lld, pages skipped %lld, rows "
               "skipped %lld, rows read %lld\n",
               strrchr(path, '/') + 1, res->n_filters, res->n_failed,
               (long long)res->total.row_groups_skipped, (long long)res->total.pages_skipped,
               (long long)res->total.rows_skipped, (long long)res->total.rows);
    }
    pqt_rows_free(&all);
    dl_pq_file_free(file);
    dl_buf_destroy(&bytes);
    return is_run;
}

/* ---- Tests -------------------------------------------------------------------------------------
 */

TEST(test_every_file_with_a_page_index_reads_every_matching_row) {
    DIR *d = opendir(DATA_DIR);
    CHECK(d != NULL);
    int n_files = 0;
    int n_failed = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 8 || strcmp(e->d_name + len - 8, ".parquet") != 0) {
            continue;
        }
        char path[1024];
        (void)snprintf(path, sizeof(path), "%s/%s", DATA_DIR, e->d_name);
        file_result res;
        if (run_file(path, &res)) {
            n_files++;
            n_failed += res.n_failed;
        }
    }
    (void)closedir(d);
    printf("  %d files with a page index\n", n_files);
    CHECK(n_files >= 3);
    CHECK_INT_EQ(n_failed, 0);
}

/* alltypes_tiny_pages*.parquet (parquet-mr, 7,300 rows in pages of a few rows): filters on
 * any column skip pages. */
TEST(test_tiny_pages_files_skip_pages) {
    static const char *const names[] = {"alltypes_tiny_pages.parquet",
                                        "alltypes_tiny_pages_plain.parquet"};
    for (size_t i = 0; i < DL_ARRAY_LEN(names); i++) {
        char path[1024];
        (void)snprintf(path, sizeof(path), "%s/%s", DATA_DIR, names[i]);
        file_result res;
        CHECK(run_file(path, &res));
        CHECK_INT_EQ(res.n_failed, 0);
        CHECK(res.total.pages_skipped > 1000);
        CHECK(res.total.rows_skipped > 10000);
    }
}

int
main(void) {
    struct stat st;
    if (stat(DATA_DIR, &st) != 0) {
        printf("corpus not found at %s: skipped\n", DATA_DIR);
        return 77;
    }
    RUN(test_every_file_with_a_page_index_reads_every_matching_row);
    RUN(test_tiny_pages_files_skip_pages);
    return harness_finish();
}
