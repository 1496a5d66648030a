/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dl_bench_parquet_write SALES.parquet OUT.parquet [--threads N] [--runs R]
 *
 * deltalite's side of the parquet_write benchmark (bench/README.md): encode the `sales` table,
 * held in memory as vectors, as one snappy Parquet file with row groups of 1,000,000 rows (as
 * many as DuckDB puts in the row groups of SALES.parquet: 1,001,472 when it has several),
 * and print `RESULT seconds=<s> rows_written=<n> bytes=<file size> threads=<n>`. Only the write
 * is timed: open, every batch, close (footer and commit included). The row count is not printed
 * as `rows=`: the peer's COPY reports one result row, and the runner would flag the answers as
 * different.
 *
 * The rows are not read from SALES.parquet (the reader is a separate part): they are generated
 * in memory from the suite's deterministic hash exactly as bench/gen/gen_tables.mjs generates
 * them (bench/lib/common.mjs: lowbias32, per-column keys from the seed). SALES.parquet supplies
 * the row count, its folder's name the seed (tables_sf<S>_seed<N>), and customers.parquet beside
 * it the customer count. After the timed write the program proves the data is the same: every
 * row group's min, max and null count of every column of OUT.parquet must equal those of
 * SALES.parquet (DuckDB's), else it fails.
 *
 * --threads N: encode with a pool of N - 1 workers plus the calling thread (default: the
 * number of processors, as DuckDB uses). --runs R: write R times, report the median.
 */
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/arena.h"
#include "base/pool.h"
#include "parquet/parquet.h"
#include "parquet/pq_writer.h"
#include "store/store.h"
#include "vector/vector.h"

#define ROW_GROUP_ROWS 1000000
#define TS_START_US    1672531200000000LL            /* 2023-01-01 00:00:00 UTC */
#define TS_SPAN_US     (731LL * 86400LL * 1000000LL) /* through 2024-12-31 */
#define MAX_RUNS       15

enum {
    COL_CUSTOMER = 1,
    COL_CATEGORY = 2,
    COL_REGION = 3,
    COL_AMOUNT = 4,
    COL_QTY = 5,
    COL_TS = 6
};

static const char *const categories[20] = {
    "electronics", "books",   "clothing",   "home",  "garden", "toys",    "sports",
    "beauty",      "grocery", "automotive", "music", "movies", "health",  "jewelry",
    "office",      "pets",    "shoes",      "tools", "baby",   "outdoors"};
static const char *const regions[5] = {"north", "south", "east", "west", "central"};

/* ---- The generator (bench/lib/common.mjs) --------------------------------------------------- */

static uint32_t
lb32(uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

typedef struct keys {
    uint32_t k1, k2;
} keys;

static keys
column_keys(uint32_t seed, uint32_t column) {
    keys k;
    k.k1 = lb32(seed * 0x9e3779b1U + (column + 1) * 0x85ebca77U);
    k.k2 = lb32(k.k1 ^ 0x5bd1e995U);
    return k;
}

static uint32_t
row_hash(uint32_t row, keys k) {
    return lb32(lb32(row ^ k.k1) ^ k.k2);
}

typedef struct gen {
    uint32_t seed;
    int64_t n_rows;
    int64_t n_customers;
    keys customer, category, region, amount, qty, ts;
    int64_t ts_step;
} gen;

static dl_status
append_rows(const gen *g, dl_batch *b, int64_t start, int64_t n, dl_error *err) {
    dl_vector **c = b->cols;
    for (int64_t i = 0; i < n; i++) {
        uint32_t r = (uint32_t)(start + i);
        const char *cat = categories[row_hash(r, g->category) % 20];
        const char *reg = regions[row_hash(r, g->region) % 5];
        DL_TRY(dl_vec_append_i64(c[0], (int64_t)r + 1, err));
        DL_TRY(dl_vec_append_str(c[1], cat, strlen(cat), err));
        DL_TRY(dl_vec_append_str(c[2], reg, strlen(reg), err));
        DL_TRY(dl_vec_append_f64(c[3], (double)(row_hash(r, g->amount) % 1000000) / 100.0, err));
        DL_TRY(dl_vec_append_i32(c[4], (int32_t)(1 + row_hash(r, g->qty) % 20), err));
        int64_t ts =
            TS_START_US + (int64_t)r * g->ts_step + (int64_t)(row_hash(r, g->ts) % 60000000);
        DL_TRY(dl_vec_append_i64(c[5], ts, err));
        DL_TRY(
            dl_vec_append_i64(c[6], 1 + (int64_t)(row_hash(r, g->customer) % g->n_customers), err));
    }
    dl_vec_batch_set_count(b, n);
    return DL_OK;
}

static dl_status
sales_schema(dl_arena *a, const dl_type **out, dl_error *err) {
    dl_type_field f[7] = {
        {"id", dl_vec_type_prim(DL_VEC_TYPE_LONG), true},
        {"category", dl_vec_type_prim(DL_VEC_TYPE_STRING), true},
        {"region", dl_vec_type_prim(DL_VEC_TYPE_STRING), true},
        {"amount", dl_vec_type_prim(DL_VEC_TYPE_DOUBLE), true},
        {"qty", dl_vec_type_prim(DL_VEC_TYPE_INT), true},
        {"ts", dl_vec_type_prim(DL_VEC_TYPE_TIMESTAMP_NTZ), true},
        {"customer_id", dl_vec_type_prim(DL_VEC_TYPE_LONG), true},
    };
    return dl_vec_type_struct(a, f, 7, out, err);
}

/* ---- Footers -----------------------------------------------------------------------------------
 */

static dl_status
read_footer(dl_store *store, const char *path, dl_arena *arena, dl_pq_footer **out, dl_error *err) {
    dl_store_info info;
    DL_TRY(dl_store_stat(store, path, &info, err));
    size_t tail = (size_t)DL_MIN(info.size, (int64_t)1 << 20);
    uint8_t *buf = dl_arena_alloc(arena, tail);
    DL_CHECK(buf != NULL, err, DL_ERR_NOMEM, "out of memory");
    DL_TRY(dl_store_read_at(store, path, info.size - (int64_t)tail, buf, tail, err));
    size_t need = 0;
    DL_TRY(dl_pq_footer_size(buf, tail, info.size, &need, err));
    DL_CHECK(need <= tail, err, DL_ERR_LIMIT, "%s: footer larger than 1 MiB", path);
    return dl_pq_footer_parse(buf, tail, info.size, arena, out, err);
}

static uint32_t
seed_of(const char *path) {
    const char *s = strstr(path, "_seed");
    return s != NULL ? (uint32_t)strtoul(s + 5, NULL, 10) : 42u;
}

/* Bounds of a column chunk as written: min_value/max_value, else the deprecated pair. */
static void
bounds_of(const dl_pq_statistics *st, dl_str *lo, dl_str *hi) {
    *lo = st->has_min_value ? st->min_value : st->min;
    *hi = st->has_max_value ? st->max_value : st->max;
}

/* Equal bounds; DOUBLE ones by value, since we write a zero min as -0.0 (parquet.thrift's rule)
 * where DuckDB writes +0.0. */
static bool
same_bound(dl_pq_type type, dl_str a, dl_str b) {
    if (type == DL_PQ_TYPE_DOUBLE && a.len == 8 && b.len == 8) {
        double x;
        double y;
        memcpy(&x, a.ptr, 8);
        memcpy(&y, b.ptr, 8);
        return x == y;
    }
    return dl_str_eq(a, b);
}

/* Every row group's statistics of ours must equal DuckDB's. */
static bool
same_statistics(const dl_pq_footer *a, const dl_pq_footer *b) {
    const dl_pq_file_metadata *x = &a->meta;
    const dl_pq_file_metadata *y = &b->meta;
    if (x->num_rows != y->num_rows || x->n_row_groups != y->n_row_groups) {
        (void)fprintf(stderr,
                      "check: %" PRId64 " rows in %zu row groups, want %" PRId64 " in %zu\n",
                      x->num_rows, x->n_row_groups, y->num_rows, y->n_row_groups);
        return false;
    }
    for (size_t r = 0; r < x->n_row_groups; r++) {
        for (size_t c = 0; c < x->row_groups[r].n_columns && c < 7; c++) {
            const dl_pq_statistics *s = &x->row_groups[r].columns[c].meta_data.statistics;
            const dl_pq_statistics *t = &y->row_groups[r].columns[c].meta_data.statistics;
            dl_str s_lo, s_hi, t_lo, t_hi;
            bounds_of(s, &s_lo, &s_hi);
            bounds_of(t, &t_lo, &t_hi);
            dl_pq_type type = x->row_groups[r].columns[c].meta_data.type;
            if (!same_bound(type, s_lo, t_lo) || !same_bound(type, s_hi, t_hi) ||
                s->null_count != t->null_count) {
                (void)fprintf(stderr, "check: row group %zu column %zu: statistics differ\n", r, c);
                return false;
            }
        }
    }
    return true;
}

/* ---- The benchmark ------------------------------------------------------------------------------
 */

typedef struct bench {
    dl_arena arena;
    const dl_type *schema;
    dl_batch **batches;
    size_t n_batches;
    gen g;
    dl_store *in_store;
    dl_store *out_store;
    const char *out_name;
    dl_pool *pool;
    int64_t row_group_rows; /* as in SALES.parquet (DuckDB's 1,000,000 target) */
} bench;

static dl_status
generate(bench *b, dl_error *err) {
    b->n_batches = (size_t)((b->g.n_rows + DL_BATCH_CAPACITY - 1) / DL_BATCH_CAPACITY);
    b->batches = dl_arena_alloc_zero(&b->arena, (b->n_batches + 1) * sizeof(dl_batch *));
    DL_CHECK(b->batches != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < b->n_batches; i++) {
        int64_t start = (int64_t)i * DL_BATCH_CAPACITY;
        int64_t n = DL_MIN((int64_t)DL_BATCH_CAPACITY, b->g.n_rows - start);
        DL_TRY(dl_vec_batch_new(NULL, b->schema, n, &b->batches[i], err));
        DL_TRY(append_rows(&b->g, b->batches[i], start, n, err));
    }
    return DL_OK;
}

static double
now_s(void) {
    struct timespec t;
    (void)clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static dl_status
write_once(bench *b, double *out_s, int64_t *out_size, dl_error *err) {
    dl_pq_write_options o;
    dl_pq_write_options_init(&o);
    o.codec = DL_PQ_CODEC_SNAPPY;
    o.row_group_rows = b->row_group_rows;
    o.pool = b->pool;
    dl_pq_writer *w = NULL;
    double t0 = now_s();
    DL_TRY(dl_pq_writer_open(b->out_store, b->out_name, DL_STORE_PUT_OVERWRITE, b->schema, &o, NULL,
                             &w, err));
    for (size_t i = 0; i < b->n_batches; i++) {
        dl_status s = dl_pq_writer_write(w, b->batches[i], err);
        if (s != DL_OK) {
            dl_pq_writer_abort(w);
            return s;
        }
    }
    dl_pq_write_result res;
    DL_TRY(dl_pq_writer_close(w, &b->arena, &res, err));
    *out_s = now_s() - t0;
    *out_size = res.file_size;
    return DL_OK;
}

static int
cmp_double(const void *a, const void *b) {
    double x = *(const double *)a;
    double y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static dl_status
setup(bench *b, const char *sales, const char *out, int threads, dl_error *err) {
    static char in_dir[4096];
    static char in_base[4096];
    static char out_dir[4096];
    static char out_base[4096];
    (void)snprintf(in_dir, sizeof(in_dir), "%s", sales);
    (void)snprintf(in_base, sizeof(in_base), "%s", sales);
    (void)snprintf(out_dir, sizeof(out_dir), "%s", out);
    (void)snprintf(out_base, sizeof(out_base), "%s", out);
    dl_store_local_options vol = {.is_volatile = true};
    DL_TRY(dl_store_local_new(dirname(in_dir), NULL, &b->in_store, err));
    DL_TRY(dl_store_local_new(dirname(out_dir), &vol, &b->out_store, err));
    b->out_name = basename(out_base);
    dl_pq_footer *sales_f = NULL;
    dl_pq_footer *cust_f = NULL;
    DL_TRY(read_footer(b->in_store, basename(in_base), &b->arena, &sales_f, err));
    DL_TRY(read_footer(b->in_store, "customers.parquet", &b->arena, &cust_f, err));
    gen *g = &b->g;
    g->seed = seed_of(sales);
    g->n_rows = sales_f->meta.num_rows;
    g->n_customers = cust_f->meta.num_rows;
    /* DuckDB's ROW_GROUP_SIZE 1000000 gives row groups of whole 2,048-row vectors (1,001,472
     * rows); using its sizes makes the row groups, and so their statistics, comparable. */
    b->row_group_rows =
        sales_f->meta.n_row_groups > 1 ? sales_f->meta.row_groups[0].num_rows : ROW_GROUP_ROWS;
    g->ts_step = TS_SPAN_US / g->n_rows;
    g->customer = column_keys(g->seed, COL_CUSTOMER);
    g->category = column_keys(g->seed, COL_CATEGORY);
    g->region = column_keys(g->seed, COL_REGION);
    g->amount = column_keys(g->seed, COL_AMOUNT);
    g->qty = column_keys(g->seed, COL_QTY);
    g->ts = column_keys(g->seed, COL_TS);
    DL_TRY(sales_schema(&b->arena, &b->schema, err));
    if (threads > 1) {
        DL_TRY(dl_pool_new(threads - 1, NULL, &b->pool, err));
    }
    return generate(b, err);
}

static int
run(bench *b, const char *sales, const char *out, int threads, int runs) {
    dl_error err;
    if (setup(b, sales, out, threads, &err) != DL_OK) {
        (void)fprintf(stderr, "dl_bench_parquet_write: %s\n", err.msg);
        return 1;
    }
    double times[MAX_RUNS];
    int64_t size = 0;
    for (int i = 0; i < runs; i++) {
        if (write_once(b, &times[i], &size, &err) != DL_OK) {
            (void)fprintf(stderr, "dl_bench_parquet_write: %s\n", err.msg);
            return 1;
        }
    }
    qsort(times, (size_t)runs, sizeof(double), cmp_double);
    dl_pq_footer *mine = NULL;
    dl_pq_footer *theirs = NULL;
    char base[4096];
    (void)snprintf(base, sizeof(base), "%s", sales);
    if (read_footer(b->out_store, b->out_name, &b->arena, &mine, &err) != DL_OK ||
        read_footer(b->in_store, basename(base), &b->arena, &theirs, &err) != DL_OK) {
        (void)fprintf(stderr, "dl_bench_parquet_write: %s\n", err.msg);
        return 1;
    }
    if (!same_statistics(mine, theirs)) {
        (void)fprintf(stderr, "dl_bench_parquet_write: the generated rows differ from %s\n", sales);
        return 1;
    }
    (void)printf("RESULT seconds=%.4f rows_written=%" PRId64 " bytes=%" PRId64 " threads=%d\n",
                 times[runs / 2], b->g.n_rows, size, threads);
    return 0;
}

int
main(int argc, char **argv) {
    if (argc < 3) {
        (void)fprintf(stderr,
                      "usage: dl_bench_parquet_write SALES.parquet OUT.parquet [--threads N] "
                      "[--runs R]\n");
        return 2;
    }
    int threads = dl_pool_default_n_workers();
    int runs = 1;
    for (int i = 3; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--threads") == 0) {
            threads = atoi(argv[i + 1]);
        } else if (strcmp(argv[i], "--runs") == 0) {
            runs = atoi(argv[i + 1]);
        }
    }
    threads = DL_MAX(1, DL_MIN(threads, 64));
    runs = DL_MAX(1, DL_MIN(runs, MAX_RUNS));
    bench b;
    memset(&b, 0, sizeof(b));
    dl_arena_init(&b.arena, NULL, 0);
    int rc = run(&b, argv[1], argv[2], threads, runs);
    for (size_t i = 0; i < b.n_batches; i++) {
        dl_vec_batch_free(b.batches[i]);
    }
    dl_pool_free(b.pool);
    dl_store_free(b.in_store);
    dl_store_free(b.out_store);
    dl_arena_destroy(&b.arena);
    return rc;
}
