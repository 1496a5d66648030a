/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Page-skipping benchmark: how much a selective filter saves through the page index.
 *
 * Writes (once, with deltalite's writer: snappy, row groups of 1,000,000 rows, pages of the
 * writer's default 20,000 rows, ColumnIndex and OffsetIndex) a file of `rows` rows sorted by
 * id, with the columns of bench/README.md's sales table: id BIGINT 1..n, category and region
 * strings of 20 and 5 values, amount DOUBLE, qty INT, ts TIMESTAMP rising with id. Then times,
 * each the median of `runs` runs on one thread, from opening the file to the last batch, every
 * value summed so nothing is skipped by accident:
 *
 *   full     every column, every row, no filter
 *   rg       every column where id BETWEEN lo AND hi, row groups skipped by statistics only
 *            (is_page_index_ignored)
 *   pages    the same filter, with page skipping
 *
 * The range is 10,000 rows (0.1 %) in the middle of a row group, so statistics alone keep one
 * row group of 1,000,000 rows; the page index keeps one or two pages of 20,000.
 *
 * Usage: dl_bench_parquet_skip DIR [rows] [runs]
 * Last line: RESULT seconds=<pages> full_seconds=<..> rg_seconds=<..> rows=<rows read with
 * pages> pages_skipped=<..> bytes_full=<..> bytes_pages=<..>
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "parquet/pq_reader.h"
#include "parquet/pq_writer.h"
#include "store/store.h"

#define MAX_RUNS 15

static const char *const categories[20] = {"Books",   "Music", "Movies", "Games",   "Toys",
                                           "Garden",  "Tools", "Beauty", "Health",  "Sports",
                                           "Outdoor", "Shoes", "Jewels", "Grocery", "Baby",
                                           "Office",  "Pets",  "Auto",   "Crafts",  "Electronics"};
static const char *const regions[5] = {"north", "south", "east", "west", "central"};

static double
now_seconds(void) {
    struct timespec ts;
    (void)clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t rng = 42;

static uint64_t
rnd(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static dl_status
make_schema(dl_arena *arena, const dl_type **out, dl_error *err) {
    dl_type_field f[6] = {
        {"id", dl_vec_type_prim(DL_VEC_TYPE_LONG), false},
        {"category", dl_vec_type_prim(DL_VEC_TYPE_STRING), true},
        {"region", dl_vec_type_prim(DL_VEC_TYPE_STRING), true},
        {"amount", dl_vec_type_prim(DL_VEC_TYPE_DOUBLE), true},
        {"qty", dl_vec_type_prim(DL_VEC_TYPE_INT), true},
        {"ts", dl_vec_type_prim(DL_VEC_TYPE_TIMESTAMP), true},
    };
    return dl_vec_type_struct(arena, f, 6, out, err);
}

static dl_status
fill_batch(dl_batch *b, int64_t first, int64_t n, int64_t total, dl_error *err) {
    DL_TRY(dl_vec_batch_reset(b, err));
    const int64_t ts0 = 1672531200000000LL;             /* 2023-01-01 */
    const int64_t span = 2LL * 365 * 86400 * 1000000LL; /* two years */
    for (int64_t i = first; i < first + n; i++) {
        const char *c = categories[rnd() % 20];
        const char *r = regions[rnd() % 5];
        DL_TRY(dl_vec_append_i64(b->cols[0], i + 1, err));
        DL_TRY(dl_vec_append_str(b->cols[1], c, strlen(c), err));
        DL_TRY(dl_vec_append_str(b->cols[2], r, strlen(r), err));
        DL_TRY(dl_vec_append_f64(b->cols[3], (double)(rnd() % 1000000) / 100.0, err));
        DL_TRY(dl_vec_append_i32(b->cols[4], (int32_t)(1 + rnd() % 20), err));
        int64_t ts = ts0 + (int64_t)((double)span * ((double)i / (double)total)) +
                     (int64_t)(rnd() % 60000000);
        DL_TRY(dl_vec_append_i64(b->cols[5], ts, err));
    }
    dl_vec_batch_set_count(b, n);
    return DL_OK;
}

static dl_status
write_file(dl_store *store, const char *path, const dl_type *schema, int64_t rows, dl_error *err) {
    dl_pq_write_options o;
    dl_pq_write_options_init(&o);
    o.row_group_rows = 1000000;
    dl_pq_writer *w = NULL;
    DL_TRY(dl_pq_writer_open(store, path, DL_STORE_PUT_OVERWRITE, schema, &o, NULL, &w, err));
    dl_batch *b = NULL;
    dl_status s = dl_vec_batch_new(NULL, schema, 0, &b, err);
    for (int64_t at = 0; s == DL_OK && at < rows; at += DL_BATCH_CAPACITY) {
        int64_t n = DL_MIN((int64_t)DL_BATCH_CAPACITY, rows - at);
        s = fill_batch(b, at, n, rows, err);
        if (s == DL_OK) {
            s = dl_pq_writer_write(w, b, err);
        }
    }
    dl_vec_batch_free(b);
    if (s != DL_OK) {
        dl_pq_writer_abort(w);
        return s;
    }
    return dl_pq_writer_close(w, NULL, NULL, err);
}

/* Folds every value of a batch into *sum. */
static void
consume(const dl_batch *b, double *sum) {
    for (int32_t c = 0; c < b->n_cols; c++) {
        const dl_vector *v = b->cols[c];
        for (int64_t i = 0; i < b->count; i++) {
            const dl_vector *flat = NULL;
            int64_t at = dl_vec_resolve(v, i, &flat);
            if (dl_vec_is_null(v, i)) {
                continue;
            }
            switch (flat->type->id) {
            case DL_VEC_TYPE_LONG:
            case DL_VEC_TYPE_TIMESTAMP:
                *sum += (double)((const int64_t *)flat->data)[at];
                break;
            case DL_VEC_TYPE_INT:
                *sum += ((const int32_t *)flat->data)[at];
                break;
            case DL_VEC_TYPE_DOUBLE:
                *sum += ((const double *)flat->data)[at];
                break;
            default:
                *sum += (double)dl_vec_get_str(flat, at).len;
                break;
            }
        }
    }
}

typedef struct run_result {
    double seconds;
    dl_pq_reader_stats stats;
    double sum;
} run_result;

static dl_status
run_once(dl_store *store, const char *path, int mode, int64_t lo, int64_t hi, run_result *out,
         dl_error *err) {
    double t0 = now_seconds();
    dl_pq_file *file = NULL;
    DL_TRY(dl_pq_file_open(store, path, NULL, &file, err));
    const char *id_name[1] = {"id"};
    const dl_pq_field *id = dl_pq_field_find(dl_pq_file_root(file), id_name, 1, false);
    dl_pq_scalar bounds[2] = {{.kind = DL_PQ_SCALAR_INT, .i = lo},
                              {.kind = DL_PQ_SCALAR_INT, .i = hi}};
    dl_pq_filter kids[2] = {
        {.op = DL_PQ_FILTER_GE, .column = id, .values = &bounds[0], .n_values = 1},
        {.op = DL_PQ_FILTER_LE, .column = id, .values = &bounds[1], .n_values = 1}};
    dl_pq_filter range = {.op = DL_PQ_FILTER_AND, .children = kids, .n_children = 2};
    dl_pq_read_options o = {.filter = mode == 0 ? NULL : &range,
                            .is_page_index_ignored = mode == 1};
    dl_pq_reader *r = NULL;
    dl_batch *b = NULL;
    dl_status s = dl_pq_reader_new(file, &o, &r, err);
    if (s == DL_OK) {
        s = dl_vec_batch_new(NULL, dl_pq_reader_schema(r), 0, &b, err);
    }
    out->sum = 0;
    while (s == DL_OK) {
        s = dl_pq_reader_next(r, b, err);
        if (s != DL_OK || b->count == 0) {
            break;
        }
        consume(b, &out->sum);
    }
    if (r != NULL) {
        dl_pq_reader_get_stats(r, &out->stats);
    }
    dl_vec_batch_free(b);
    dl_pq_reader_free(r);
    dl_pq_file_free(file);
    out->seconds = now_seconds() - t0;
    return s;
}

static int
cmp_double(const void *a, const void *b) {
    double x = *(const double *)a;
    double y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median time of runs runs of mode; *last receives the last run. */
static dl_status
measure(dl_store *store, const char *path, int mode, int64_t lo, int64_t hi, int runs,
        double *out_median, run_result *last, dl_error *err) {
    double t[MAX_RUNS];
    for (int i = 0; i < runs; i++) {
        DL_TRY(run_once(store, path, mode, lo, hi, last, err));
        t[i] = last->seconds;
    }
    qsort(t, (size_t)runs, sizeof(double), cmp_double);
    *out_median = t[runs / 2];
    return DL_OK;
}

int
main(int argc, char **argv) {
    if (argc < 2) {
        (void)fprintf(stderr, "usage: %s DIR [rows] [runs]\n", argv[0]);
        return 2;
    }
    int64_t rows = argc > 2 ? strtoll(argv[2], NULL, 10) : 10000000;
    int runs = argc > 3 ? atoi(argv[3]) : 5;
    runs = DL_MAX(1, DL_MIN(runs, MAX_RUNS));
    dl_error err;
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_store *store = NULL;
    const dl_type *schema = NULL;
    dl_store_local_options lo = {0};
    char path[64];
    (void)snprintf(path, sizeof(path), "skip_%lld.parquet", (long long)rows);
    dl_status s = dl_store_local_new(argv[1], &lo, &store, &err);
    if (s == DL_OK) {
        s = make_schema(&arena, &schema, &err);
    }
    dl_store_info info;
    if (s == DL_OK && dl_store_stat(store, path, &info, &err) != DL_OK) {
        double t0 = now_seconds();
        s = write_file(store, path, schema, rows, &err);
        (void)fprintf(stderr, "wrote %s/%s in %.2f s\n", argv[1], path, now_seconds() - t0);
    }
    /* 10,000 rows in the middle of the file's middle row group. */
    int64_t lo_id = rows / 2 + DL_MIN(rows / 4, (int64_t)500000) - 5000;
    int64_t hi_id = lo_id + 9999;
    double full = 0;
    double rg = 0;
    double pages = 0;
    run_result r_full;
    run_result r_rg;
    run_result r_pages;
    if (s == DL_OK) {
        s = measure(store, path, 0, lo_id, hi_id, runs, &full, &r_full, &err);
    }
    if (s == DL_OK) {
        s = measure(store, path, 1, lo_id, hi_id, runs, &rg, &r_rg, &err);
    }
    if (s == DL_OK) {
        s = measure(store, path, 2, lo_id, hi_id, runs, &pages, &r_pages, &err);
    }
    dl_store_free(store);
    dl_arena_destroy(&arena);
    if (s != DL_OK) {
        (void)fprintf(stderr, "error: %s\n", err.msg);
        return 1;
    }
    printf("full:  %.4f s, %lld rows, %lld bytes read\n", full, (long long)r_full.stats.rows,
           (long long)r_full.stats.bytes_read);
    printf("rg:    %.4f s, %lld rows, %lld bytes read, %lld row groups skipped\n", rg,
           (long long)r_rg.stats.rows, (long long)r_rg.stats.bytes_read,
           (long long)r_rg.stats.row_groups_skipped);
    printf("pages: %.4f s, %lld rows, %lld bytes read, %lld pages skipped\n", pages,
           (long long)r_pages.stats.rows, (long long)r_pages.stats.bytes_read,
           (long long)r_pages.stats.pages_skipped);
    printf("RESULT seconds=%.6f full_seconds=%.6f rg_seconds=%.6f rows=%lld pages_skipped=%lld "
           "bytes_full=%lld bytes_pages=%lld\n",
           pages, full, rg, (long long)r_pages.stats.rows, (long long)r_pages.stats.pages_skipped,
           (long long)r_full.stats.bytes_read, (long long)r_pages.stats.bytes_read);
    return 0;
}
