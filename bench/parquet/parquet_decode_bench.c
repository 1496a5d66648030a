/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Parquet decode benchmark (bench/README.md, `parquet_decode`): decodes every column of
 * sales.parquet into vectors and computes what bench/queries/parquet_decode.sql computes:
 *
 *   count(*), sum(id), min/max(category), min/max(region), sum(amount), sum(qty),
 *   min/max(ts), sum(customer_id)
 *
 * Row groups are decoded in parallel on a thread pool (one task per row group, as many at
 * once as there are cores), each task folding its batches into per-slot partial aggregates
 * that are merged at the end. String columns arrive as dictionary vectors: each batch marks
 * the dictionary entries its rows use, and min/max are taken over the used entries.
 * The time covers opening the file (footer, metadata) to the merged answer, as the peer's does.
 *
 * Usage: dl_bench_parquet_decode SALES.parquet [threads]
 * Last line: RESULT seconds=<s> rows=1 count=<n> sum_id=<..> min_category=<..> ...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/pool.h"
#include "base/timefmt.h"
#include "parquet/pq_reader.h"
#include "store/store.h"

#define MAX_SLOTS 64
#define STR_CAP   64

typedef struct str_minmax {
    char min[STR_CAP];
    char max[STR_CAP];
    size_t min_len;
    size_t max_len;
    bool has;
} str_minmax;

typedef struct partial {
    int64_t count;
    int64_t sum_id;
    int64_t sum_qty;
    int64_t sum_customer;
    double sum_amount;
    int64_t min_ts;
    int64_t max_ts;
    bool has_ts;
    str_minmax category;
    str_minmax region;
    uint8_t used[4096]; /* dictionary entries used by a batch */
    char pad[64];       /* keep slots on separate cache lines */
} partial;

typedef struct bench {
    int col_id, col_category, col_region, col_amount, col_qty, col_ts, col_customer;
    partial slots[MAX_SLOTS];
} bench;

static double
now_seconds(void) {
    struct timespec ts;
    (void)clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void
minmax_put(str_minmax *m, dl_str s) {
    size_t n = DL_MIN(s.len, (size_t)STR_CAP);
    dl_str min = dl_str_make(m->min, m->min_len);
    dl_str max = dl_str_make(m->max, m->max_len);
    if (!m->has || dl_str_cmp(s, min) < 0) {
        memcpy(m->min, s.ptr, n);
        m->min_len = n;
    }
    if (!m->has || dl_str_cmp(s, max) > 0) {
        memcpy(m->max, s.ptr, n);
        m->max_len = n;
    }
    m->has = true;
}

/* Folds a string column: dictionary vectors through the entries their rows use. */
static void
fold_strings(partial *p, const dl_vector *v, int64_t n, str_minmax *m) {
    if (v->layout == DL_VEC_DICT && v->dict->length <= (int64_t)sizeof(p->used)) {
        const int32_t *idx = v->data;
        memset(p->used, 0, (size_t)v->dict->length);
        for (int64_t i = 0; i < n; i++) {
            p->used[idx[i]] = 1;
        }
        for (int64_t k = 0; k < v->dict->length; k++) {
            if (p->used[k] && !dl_vec_is_null(v->dict, k)) {
                minmax_put(m, dl_vec_get_str(v->dict, k));
            }
        }
        return;
    }
    for (int64_t i = 0; i < n; i++) {
        if (!dl_vec_is_null(v, i)) {
            const dl_vector *flat;
            int64_t e = dl_vec_resolve(v, i, &flat);
            minmax_put(m, dl_vec_get_str(flat, e));
        }
    }
}

static int64_t
sum_i64(const dl_vector *v, int64_t n) {
    const int64_t *d = v->data;
    int64_t s = 0;
    for (int64_t i = 0; i < n; i++) {
        s += v->validity == NULL || dl_vec_bit_get(v->validity, i) ? d[i] : 0;
    }
    return s;
}

static dl_status
fold(void *ctx, int slot, const dl_batch *batch, dl_error *err) {
    bench *b = ctx;
    partial *p = &b->slots[slot];
    int64_t n = batch->count;
    DL_CHECK(batch->cols[b->col_qty]->layout == DL_VEC_FLAT, err, DL_ERR_INTERNAL, "layout");
    p->count += n;
    p->sum_id += sum_i64(batch->cols[b->col_id], n);
    p->sum_customer += sum_i64(batch->cols[b->col_customer], n);
    const dl_vector *amount = batch->cols[b->col_amount];
    const double *a = amount->data;
    double sa = 0;
    for (int64_t i = 0; i < n; i++) {
        sa += amount->validity == NULL || dl_vec_bit_get(amount->validity, i) ? a[i] : 0;
    }
    p->sum_amount += sa;
    const dl_vector *qty = batch->cols[b->col_qty];
    const int32_t *q = qty->data;
    int64_t sq = 0;
    for (int64_t i = 0; i < n; i++) {
        sq += qty->validity == NULL || dl_vec_bit_get(qty->validity, i) ? q[i] : 0;
    }
    p->sum_qty += sq;
    const dl_vector *ts = batch->cols[b->col_ts];
    const int64_t *t = ts->data;
    for (int64_t i = 0; i < n; i++) {
        if (ts->validity != NULL && !dl_vec_bit_get(ts->validity, i)) {
            continue;
        }
        p->min_ts = !p->has_ts || t[i] < p->min_ts ? t[i] : p->min_ts;
        p->max_ts = !p->has_ts || t[i] > p->max_ts ? t[i] : p->max_ts;
        p->has_ts = true;
    }
    fold_strings(p, batch->cols[b->col_category], n, &p->category);
    fold_strings(p, batch->cols[b->col_region], n, &p->region);
    return DL_OK;
}

static int
column(const dl_type *schema, const char *name) {
    int32_t i = dl_vec_type_field_index(schema, dl_str_from_cstr(name));
    if (i < 0) {
        (void)fprintf(stderr, "dl_bench_parquet_decode: no column '%s'\n", name);
        exit(2);
    }
    return (int)i;
}

static void
merge_str(str_minmax *into, const str_minmax *from) {
    if (from->has) {
        minmax_put(into, dl_str_make(from->min, from->min_len));
        minmax_put(into, dl_str_make(from->max, from->max_len));
    }
}

static void
merge(bench *b, int n_slots, partial *out) {
    memset(out, 0, sizeof(*out));
    for (int s = 0; s < n_slots; s++) {
        const partial *p = &b->slots[s];
        out->count += p->count;
        out->sum_id += p->sum_id;
        out->sum_qty += p->sum_qty;
        out->sum_customer += p->sum_customer;
        out->sum_amount += p->sum_amount;
        if (p->has_ts) {
            out->min_ts = !out->has_ts || p->min_ts < out->min_ts ? p->min_ts : out->min_ts;
            out->max_ts = !out->has_ts || p->max_ts > out->max_ts ? p->max_ts : out->max_ts;
            out->has_ts = true;
        }
        merge_str(&out->category, &p->category);
        merge_str(&out->region, &p->region);
    }
}

/* Opens the file and runs the scan; the schema's column positions are set on the way. */
static dl_status
run(const char *path, int n_threads, bench *b, dl_error *err) {
    char dir[4096];
    const char *slash = strrchr(path, '/');
    (void)snprintf(dir, sizeof(dir), "%.*s", slash != NULL ? (int)(slash - path) : 1,
                   slash != NULL ? path : ".");
    const char *name = slash != NULL ? slash + 1 : path;
    dl_store *store = NULL;
    dl_pq_file *file = NULL;
    dl_pool *pool = NULL;
    dl_status s = dl_store_local_new(dir, NULL, &store, err);
    if (s == DL_OK) {
        s = dl_pq_file_open(store, name, NULL, &file, err);
    }
    if (s == DL_OK && n_threads > 1) {
        s = dl_pool_new(n_threads - 1, NULL, &pool, err);
    }
    if (s == DL_OK) {
        dl_pq_reader *probe = NULL;
        s = dl_pq_reader_new(file, NULL, &probe, err);
        if (s == DL_OK) {
            const dl_type *schema = dl_pq_reader_schema(probe);
            b->col_id = column(schema, "id");
            b->col_category = column(schema, "category");
            b->col_region = column(schema, "region");
            b->col_amount = column(schema, "amount");
            b->col_qty = column(schema, "qty");
            b->col_ts = column(schema, "ts");
            b->col_customer = column(schema, "customer_id");
        }
        dl_pq_reader_free(probe);
    }
    if (s == DL_OK) {
        s = dl_pq_file_scan(file, NULL, pool, n_threads, fold, b, err);
    }
    dl_pool_free(pool);
    dl_pq_file_free(file);
    dl_store_free(store);
    return s;
}

int
main(int argc, char **argv) {
    if (argc < 2) {
        (void)fprintf(stderr, "usage: dl_bench_parquet_decode SALES.parquet [threads]\n");
        return 2;
    }
    int n_threads = argc > 2 ? atoi(argv[2]) : dl_pool_default_n_workers();
    n_threads = DL_MAX(1, DL_MIN(n_threads, MAX_SLOTS));
    static bench b;
    dl_error err;
    double t0 = now_seconds();
    dl_status s = run(argv[1], n_threads, &b, &err);
    partial total;
    merge(&b, n_threads, &total);
    double seconds = now_seconds() - t0;
    if (s != DL_OK) {
        (void)fprintf(stderr, "dl_bench_parquet_decode: %s\n", err.msg);
        return 1;
    }
    char min_ts[DL_TS_STR_CAP];
    char max_ts[DL_TS_STR_CAP];
    (void)dl_ts_format(total.min_ts, DL_TS_STYLE_ISO_MICROS, min_ts);
    (void)dl_ts_format(total.max_ts, DL_TS_STYLE_ISO_MICROS, max_ts);
    printf("RESULT seconds=%.6f rows=1 count=%lld sum_id=%lld min_category=%.*s "
           "max_category=%.*s min_region=%.*s max_region=%.*s sum_amount=%.2f sum_qty=%lld "
           "min_ts=%s max_ts=%s sum_customer_id=%lld threads=%d\n",
           seconds, (long long)total.count, (long long)total.sum_id, (int)total.category.min_len,
           total.category.min, (int)total.category.max_len, total.category.max,
           (int)total.region.min_len, total.region.min, (int)total.region.max_len, total.region.max,
           total.sum_amount, (long long)total.sum_qty, min_ts, max_ts,
           (long long)total.sum_customer, n_threads);
    return 0;
}
