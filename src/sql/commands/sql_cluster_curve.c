/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Ordering rows along a space-filling curve (sql_cluster.h), as Delta's MultiDimClustering.
 *
 *   range ids   per column, the sorted sample of up to 20 * numRanges values (every k-th row,
 *               nulls first) gives up to numRanges - 1 distinct bounds at equal ranks; a
 *               row's id is the number of bounds below its value (Spark's RangePartitioner:
 *               the first bound not less than the value), a null's is 0.
 *   curve       b = the bits of the largest id; Z-order interleaves the b bits of each
 *               column from the most significant down, column 1 first (what Delta's
 *               interleave_bits gives on 32-bit ids whose upper bits are zero); Hilbert maps
 *               the ids to their Hilbert index (Skilling's transposition, then the same
 *               interleave). The value is one 64-bit word: with n columns and n * b > 64 the
 *               ids keep their top 64 / n bits (more than 6 columns of 1000 ranges).
 *   order       rows sorted by curve value, ties in the order they were read (stable), and
 *               written in that order.
 */
#include <stdlib.h>
#include <string.h>

#include "sql/commands/sql_cluster.h"
#include "sql/exec/sql_op_sort_int.h"

/* Rows held for one rewrite and what orders them. */
typedef struct curve_rows {
    const dl_allocator *alloc;
    dl_sql_colbuf cb; /* every column of the scan */
    int64_t n;
    uint32_t *ids; /* n * n_cols range ids, row-major */
} curve_rows;

/* ---- a stable merge sort of row numbers with a context ------------------------------------ */

typedef int (*row_cmp_fn)(const void *ctx, uint32_t a, uint32_t b);

static void
merge_sort(uint32_t *rows, uint32_t *tmp, int64_t n, row_cmp_fn cmp, const void *ctx) {
    if (n < 2) {
        return;
    }
    int64_t half = n / 2;
    merge_sort(rows, tmp, half, cmp, ctx);
    merge_sort(rows + half, tmp, n - half, cmp, ctx);
    int64_t i = 0;
    int64_t j = half;
    int64_t k = 0;
    while (i < half && j < n) {
        tmp[k++] = cmp(ctx, rows[j], rows[i]) < 0 ? rows[j++] : rows[i++];
    }
    while (i < half) {
        tmp[k++] = rows[i++];
    }
    while (j < n) {
        tmp[k++] = rows[j++];
    }
    memcpy(rows, tmp, (size_t)n * sizeof(uint32_t));
}

/* Spark's ordering with nulls first. */
static int
cmp_value(const void *ctx, uint32_t a, uint32_t b) {
    const dl_vector *v = ctx;
    bool na = dl_vec_is_null(v, a);
    bool nb = dl_vec_is_null(v, b);
    if (na || nb) {
        return (int)nb - (int)na;
    }
    return dl_sql_value_compare(v, a, v, b);
}

/* ---- range ids ---------------------------------------------------------------------------- */

/* The number of bounds[0..n_bounds) below row r of v (a null: 0). */
static uint32_t
range_id(const dl_vector *v, int64_t r, const uint32_t *bounds, int32_t n_bounds) {
    if (dl_vec_is_null(v, r)) {
        return 0;
    }
    int32_t lo = 0;
    int32_t hi = n_bounds;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (cmp_value(v, bounds[mid], (uint32_t)r) < 0) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return (uint32_t)lo;
}

/* Distinct bounds at equal ranks of the sorted sample, into bounds; their count. */
static int32_t
pick_bounds(const dl_vector *v, const uint32_t *sample, int64_t m, int32_t num_ranges,
            uint32_t *bounds) {
    int32_t n = 0;
    for (int32_t i = 1; i < num_ranges && m > 0; i++) {
        uint32_t cand = sample[(int64_t)i * m / num_ranges];
        if (n == 0 || cmp_value(v, bounds[n - 1], cand) < 0) {
            bounds[n++] = cand;
        }
    }
    return n;
}

/* Range ids of column c (v) into cr->ids; *out_max the largest. */
static dl_status
column_ids(curve_rows *cr, const dl_vector *v, int32_t c, int32_t n_cols, int32_t num_ranges,
           uint32_t *out_max, dl_error *err) {
    int64_t cap = (int64_t)num_ranges * 20;
    int64_t m = cr->n < cap ? cr->n : cap;
    size_t bytes = (size_t)(2 * m + num_ranges + 1) * sizeof(uint32_t);
    uint32_t *sample = dl_mem_alloc(cr->alloc, bytes);
    DL_CHECK(sample != NULL, err, DL_ERR_NOMEM, "out of memory sampling %lld values", (long long)m);
    for (int64_t i = 0; i < m; i++) {
        sample[i] = (uint32_t)(i * cr->n / m);
    }
    merge_sort(sample, sample + m, m, cmp_value, v);
    uint32_t *bounds = sample + 2 * m;
    int32_t n_bounds = pick_bounds(v, sample, m, num_ranges, bounds);
    uint32_t max = 0;
    for (int64_t r = 0; r < cr->n; r++) {
        uint32_t id = range_id(v, r, bounds, n_bounds);
        cr->ids[r * n_cols + c] = id;
        max = id > max ? id : max;
    }
    dl_mem_free(cr->alloc, sample, bytes);
    *out_max = max;
    return DL_OK;
}

/* ---- curves ------------------------------------------------------------------------------- */

/* Interleaves the low b bits of x[0..n), most significant first, x[0] first. */
static uint64_t
interleave(const uint32_t *x, int32_t n, int32_t b) {
    uint64_t z = 0;
    for (int32_t bit = b - 1; bit >= 0; bit--) {
        for (int32_t c = 0; c < n; c++) {
            z = (z << 1) | ((x[c] >> bit) & 1U);
        }
    }
    return z;
}

/* Skilling's AxesToTranspose ("Programming the Hilbert curve", 2004): x[0..n) of b bits
 * each, in place, to the transposed Hilbert index. */
static void
axes_to_transpose(uint32_t *x, int32_t n, int32_t b) {
    uint32_t m = 1U << (b - 1);
    for (uint32_t q = m; q > 1; q >>= 1) {
        uint32_t p = q - 1;
        for (int32_t i = 0; i < n; i++) {
            if ((x[i] & q) != 0) {
                x[0] ^= p;
            } else {
                uint32_t t = (x[0] ^ x[i]) & p;
                x[0] ^= t;
                x[i] ^= t;
            }
        }
    }
    for (int32_t i = 1; i < n; i++) {
        x[i] ^= x[i - 1];
    }
    uint32_t t = 0;
    for (uint32_t q = m; q > 1; q >>= 1) {
        if ((x[n - 1] & q) != 0) {
            t ^= q - 1;
        }
    }
    for (int32_t i = 0; i < n; i++) {
        x[i] ^= t;
    }
}

/* The curve value of each row, into keys (n words). */
static void
curve_values(const curve_rows *cr, const dl_sql_cluster_spec *spec, uint32_t max_id,
             uint64_t *keys) {
    int32_t n = spec->n_cols;
    int32_t b = 1;
    while (b < 32 && (max_id >> b) != 0) {
        b++;
    }
    int32_t keep = b * n > 64 ? 64 / n : b;
    uint32_t x[64];
    for (int64_t r = 0; r < cr->n; r++) {
        for (int32_t c = 0; c < n; c++) {
            x[c] = cr->ids[r * n + c] >> (b - keep);
        }
        if (spec->curve == DL_SQL_CURVE_HILBERT && n > 1) {
            axes_to_transpose(x, n, keep);
        }
        keys[r] = interleave(x, n, keep);
    }
}

static int
cmp_key(const void *ctx, uint32_t a, uint32_t b) {
    const uint64_t *keys = ctx;
    return keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : 0;
}

/* ---- reading and writing ------------------------------------------------------------------ */

static dl_status
read_units(curve_rows *cr, dl_delta_scan *scan, const size_t *units, int32_t n_units,
           dl_batch *batch, dl_error *err) {
    for (int32_t i = 0; i < n_units; i++) {
        dl_delta_scan_reader *rd = NULL;
        DL_TRY(dl_delta_scan_reader_new(scan, units[i], &rd, err));
        dl_status s = DL_OK;
        for (;;) {
            s = dl_delta_scan_reader_next(rd, batch, err);
            if (s != DL_OK || batch->count == 0) {
                break;
            }
            s = dl_sql_colbuf_append(&cr->cb, batch, NULL, batch->count, NULL, NULL, 0, err);
            if (s != DL_OK) {
                break;
            }
        }
        dl_delta_scan_reader_free(rd);
        DL_TRY(s);
    }
    cr->n = cr->cb.count;
    return DL_OK;
}

/* Writes the held rows in the order rows[0..n). */
static dl_status
write_ordered(curve_rows *cr, const uint32_t *rows, dl_batch *batch, dl_ops_writer *w,
              dl_error *err) {
    for (int64_t off = 0; off < cr->n; off += DL_BATCH_CAPACITY) {
        int64_t k = cr->n - off < DL_BATCH_CAPACITY ? cr->n - off : DL_BATCH_CAPACITY;
        DL_TRY(dl_vec_batch_reset(batch, err));
        for (int32_t c = 0; c < batch->n_cols; c++) {
            DL_TRY(dl_sql_gather(batch->cols[c], &cr->cb.cols[c], NULL, rows + off, k, err));
        }
        batch->count = k;
        batch->sel = NULL;
        DL_TRY(dl_ops_writer_write(w, batch, err));
    }
    return DL_OK;
}

/* Range ids, curve values, the order; then the rows written in it. */
static dl_status
order_and_write(curve_rows *cr, const dl_sql_cluster_spec *spec, dl_batch *batch, dl_ops_writer *w,
                dl_error *err) {
    size_t id_bytes = (size_t)cr->n * (size_t)spec->n_cols * sizeof(uint32_t);
    size_t key_bytes = (size_t)cr->n * (sizeof(uint64_t) + 2 * sizeof(uint32_t));
    cr->ids = dl_mem_alloc(cr->alloc, id_bytes + 1);
    uint64_t *keys = dl_mem_alloc(cr->alloc, key_bytes + 1);
    dl_status s = DL_OK;
    if (cr->ids == NULL || keys == NULL) {
        s = DL_ERR_NOMEM;
        dl_error_set(err, s, "out of memory ordering %lld rows", (long long)cr->n);
    }
    uint32_t max_id = 0;
    for (int32_t c = 0; c < spec->n_cols && s == DL_OK; c++) {
        uint32_t col_max = 0;
        s = column_ids(cr, cr->cb.cols[spec->cols[c]], c, spec->n_cols, spec->num_ranges, &col_max,
                       err);
        max_id = col_max > max_id ? col_max : max_id;
    }
    if (s == DL_OK) {
        uint32_t *rows = (uint32_t *)(keys + cr->n);
        curve_values(cr, spec, max_id, keys);
        for (int64_t r = 0; r < cr->n; r++) {
            rows[r] = (uint32_t)r;
        }
        merge_sort(rows, rows + cr->n, cr->n, cmp_key, keys);
        s = write_ordered(cr, rows, batch, w, err);
    }
    dl_mem_free(cr->alloc, keys, key_bytes + 1);
    dl_mem_free(cr->alloc, cr->ids, id_bytes + 1);
    return s;
}

dl_status
dl_sql_cluster_write(dl_delta_scan *scan, const size_t *units, int32_t n_units,
                     const dl_sql_cluster_spec *spec, dl_ops_writer *w, const dl_allocator *alloc,
                     dl_error *err) {
    DL_ASSERT(spec->n_cols > 0 && spec->n_cols <= 64 && spec->num_ranges > 0);
    const dl_type *schema = dl_delta_scan_schema(scan);
    curve_rows cr = {.alloc = alloc};
    dl_batch *batch = NULL;
    DL_TRY(dl_vec_batch_new(alloc, schema, DL_BATCH_CAPACITY, &batch, err));
    size_t types_bytes = (size_t)schema->n_fields * sizeof(const dl_type *) + 1;
    const dl_type **types = dl_mem_alloc(alloc, types_bytes);
    dl_status s = DL_OK;
    if (types == NULL) {
        s = DL_ERR_NOMEM;
        dl_error_set(err, s, "out of memory");
    } else {
        for (int32_t c = 0; c < schema->n_fields; c++) {
            types[c] = schema->fields[c].type;
        }
        s = dl_sql_colbuf_init(&cr.cb, alloc, types, schema->n_fields, err);
    }
    if (s == DL_OK) {
        s = read_units(&cr, scan, units, n_units, batch, err);
    }
    if (s == DL_OK && cr.n > 0) {
        s = order_and_write(&cr, spec, batch, w, err);
    }
    dl_sql_colbuf_destroy(&cr.cb);
    if (types != NULL) {
        dl_mem_free(alloc, types, types_bytes);
    }
    dl_vec_batch_free(batch);
    return s;
}
