/* SPDX-License-Identifier: Apache-2.0 */
/* The Parquet writer tests' file checker and scratch store (see test_pq_write_util.h). */
#include "test_pq_write_util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>

#include "parquet/codec/pq_codec.h"
#include "parquet/encoding/pq_encoding.h"
#include "store/store_testutil.h"

#define BAD(...) dl_error_set(err, DL_ERR_INTERNAL, __VA_ARGS__)

typedef struct tw_acc {
    dl_buf defs, reps, fixed, strs;
    tw_col col;
} tw_acc;

/* What one data page held, for the page index checks. */
typedef struct tw_page {
    int64_t offset;
    int32_t size; /* header included */
    int64_t first_row;
    int64_t nulls;
    size_t first_value; /* index in the column's values */
    size_t n_values;
} tw_page;

/* ---- Values ------------------------------------------------------------------------------ */

static size_t
phys_width(const dl_pq_schema_node *leaf) {
    switch (leaf->type) {
    case DL_PQ_TYPE_BOOLEAN:
        return 1;
    case DL_PQ_TYPE_INT32:
    case DL_PQ_TYPE_FLOAT:
        return 4;
    case DL_PQ_TYPE_INT64:
    case DL_PQ_TYPE_DOUBLE:
        return 8;
    case DL_PQ_TYPE_INT96:
        return 12;
    case DL_PQ_TYPE_FIXED_LEN_BYTE_ARRAY:
        return (size_t)leaf->type_length;
    default:
        return 0;
    }
}

/* Value i of a column as the bytes statistics use. */
static dl_str
value_at(const tw_acc *a, size_t i) {
    if (a->col.width == 0) {
        return ((const dl_str *)(const void *)a->strs.data)[i];
    }
    return dl_str_make((const char *)a->fixed.data + i * a->col.width, a->col.width);
}

static bool
is_nan_value(const dl_pq_schema_node *leaf, dl_str v) {
    if (leaf->type == DL_PQ_TYPE_FLOAT) {
        float x;
        memcpy(&x, v.ptr, 4);
        return isnan(x);
    }
    if (leaf->type == DL_PQ_TYPE_DOUBLE) {
        double x;
        memcpy(&x, v.ptr, 8);
        return isnan(x);
    }
    return false;
}

/* TYPE_ORDER comparison of two encoded values of leaf. */
static int
compare(const dl_pq_schema_node *leaf, dl_str a, dl_str b) {
    switch (leaf->type) {
    case DL_PQ_TYPE_BOOLEAN:
        return (int)(uint8_t)a.ptr[0] - (int)(uint8_t)b.ptr[0];
    case DL_PQ_TYPE_INT32: {
        int32_t x, y;
        memcpy(&x, a.ptr, 4);
        memcpy(&y, b.ptr, 4);
        return x < y ? -1 : x > y;
    }
    case DL_PQ_TYPE_INT64: {
        int64_t x, y;
        memcpy(&x, a.ptr, 8);
        memcpy(&y, b.ptr, 8);
        return x < y ? -1 : x > y;
    }
    case DL_PQ_TYPE_FLOAT: {
        float x, y;
        memcpy(&x, a.ptr, 4);
        memcpy(&y, b.ptr, 4);
        return x < y ? -1 : x > y;
    }
    case DL_PQ_TYPE_DOUBLE: {
        double x, y;
        memcpy(&x, a.ptr, 8);
        memcpy(&y, b.ptr, 8);
        return x < y ? -1 : x > y;
    }
    case DL_PQ_TYPE_FIXED_LEN_BYTE_ARRAY:
        if (leaf->logical.kind == DL_PQ_LT_DECIMAL && a.len == b.len && a.len > 0) {
            int sa = (int8_t)a.ptr[0];
            int sb = (int8_t)b.ptr[0];
            if (sa != sb) {
                return sa < sb ? -1 : 1;
            }
        }
        return dl_str_cmp(a, b);
    default:
        return dl_str_cmp(a, b);
    }
}

/* ---- Decoding ---------------------------------------------------------------------------- */

static dl_status
decode_levels_v1(const uint8_t **p, size_t *left, int16_t max, size_t n, dl_buf *out,
                 size_t page_off, dl_error *err) {
    if (max == 0) {
        return DL_OK;
    }
    dl_pq_rle_decoder dec;
    size_t used = 0;
    DL_TRY(dl_pq_rle_decoder_init_prefixed(&dec, *p, *left, dl_pq_bit_width((uint64_t)max), n,
                                           page_off, &used, err));
    uint16_t *o = (uint16_t *)(void *)dl_buf_extend(out, n * 2, err);
    if (o == NULL) {
        return DL_ERR_NOMEM;
    }
    DL_TRY(dl_pq_rle_decode_u16(&dec, n, o, err));
    *p += used;
    *left -= used;
    return DL_OK;
}

static dl_status
decode_levels_bare(const uint8_t *p, size_t len, int16_t max, size_t n, dl_buf *out,
                   dl_error *err) {
    if (max == 0) {
        return len == 0 ? DL_OK : BAD("v2 page: %zu level bytes for a level of 0", len);
    }
    dl_pq_rle_decoder dec;
    DL_TRY(dl_pq_rle_decoder_init(&dec, p, len, dl_pq_bit_width((uint64_t)max), n, 0, err));
    uint16_t *o = (uint16_t *)(void *)dl_buf_extend(out, n * 2, err);
    if (o == NULL) {
        return DL_ERR_NOMEM;
    }
    return dl_pq_rle_decode_u16(&dec, n, o, err);
}

typedef struct tw_dict {
    uint8_t *fixed;
    dl_str *strs;
    size_t n;
} tw_dict;

static dl_status
decode_plain(tw_file *f, tw_acc *a, const uint8_t *p, size_t len, size_t n, dl_error *err) {
    dl_pq_plain_decoder dec;
    dl_pq_plain_decoder_init(&dec, p, len, 0);
    const dl_pq_schema_node *leaf = a->col.leaf;
    DL_UNUSED(f);
    if (leaf->type == DL_PQ_TYPE_BOOLEAN) {
        uint8_t *o = dl_buf_extend(&a->fixed, n, err);
        return o == NULL ? DL_ERR_NOMEM : dl_pq_plain_decode_bool(&dec, n, o, err);
    }
    if (a->col.width == 0) {
        dl_str *o = (dl_str *)(void *)dl_buf_extend(&a->strs, n * sizeof(dl_str), err);
        return o == NULL ? DL_ERR_NOMEM : dl_pq_plain_decode_byte_array(&dec, n, o, err);
    }
    uint8_t *o = dl_buf_extend(&a->fixed, n * a->col.width, err);
    return o == NULL ? DL_ERR_NOMEM : dl_pq_plain_decode_fixed(&dec, a->col.width, n, o, err);
}

static dl_status
decode_dict_page(tw_acc *a, const uint8_t *p, size_t len, size_t n, dl_arena *arena, tw_dict *dict,
                 dl_error *err) {
    dl_pq_plain_decoder dec;
    dl_pq_plain_decoder_init(&dec, p, len, 0);
    dict->n = n;
    if (a->col.width == 0) {
        dict->strs = dl_arena_alloc_array(arena, n + 1, sizeof(dl_str));
        return dict->strs == NULL ? DL_ERR_NOMEM
                                  : dl_pq_plain_decode_byte_array(&dec, n, dict->strs, err);
    }
    dict->fixed = dl_arena_alloc_array(arena, n + 1, a->col.width);
    return dict->fixed == NULL ? DL_ERR_NOMEM
                               : dl_pq_plain_decode_fixed(&dec, a->col.width, n, dict->fixed, err);
}

static dl_status
decode_dict_indices(tw_acc *a, const tw_dict *dict, const uint8_t *p, size_t len, size_t n,
                    dl_error *err) {
    DL_CHECK(dict->n > 0 || n == 0, err, DL_ERR_INTERNAL, "dictionary page missing");
    dl_pq_rle_decoder dec;
    DL_TRY(dl_pq_dict_indices_init(&dec, p, len, n, 0, err));
    uint32_t *idx = dl_mem_alloc_array(NULL, n + 1, 4);
    DL_CHECK(idx != NULL, err, DL_ERR_NOMEM, "out of memory");
    dl_status s = dl_pq_rle_decode_indices(&dec, n, idx, (uint32_t)dict->n, err);
    for (size_t i = 0; s == DL_OK && i < n; i++) {
        if (a->col.width == 0) {
            s = dl_buf_append(&a->strs, &dict->strs[idx[i]], sizeof(dl_str), err);
        } else {
            s = dl_buf_append(&a->fixed, dict->fixed + idx[i] * a->col.width, a->col.width, err);
        }
    }
    dl_mem_free(NULL, idx, (n + 1) * 4);
    return s;
}

static dl_status
decode_values(tw_file *f, tw_acc *a, const tw_dict *dict, int32_t enc, const uint8_t *p, size_t len,
              size_t n, dl_error *err) {
    const dl_pq_schema_node *leaf = a->col.leaf;
    size_t w = a->col.width;
    switch (enc) {
    case DL_PQ_ENCODING_PLAIN:
        return decode_plain(f, a, p, len, n, err);
    case DL_PQ_ENCODING_RLE_DICTIONARY:
    case DL_PQ_ENCODING_PLAIN_DICTIONARY:
        return decode_dict_indices(a, dict, p, len, n, err);
    case DL_PQ_ENCODING_RLE: {
        DL_CHECK(leaf->type == DL_PQ_TYPE_BOOLEAN, err, DL_ERR_INTERNAL, "RLE values not bool");
        dl_pq_rle_decoder dec;
        size_t used = 0;
        DL_TRY(dl_pq_rle_decoder_init_prefixed(&dec, p, len, 1, n, 0, &used, err));
        uint8_t *o = dl_buf_extend(&a->fixed, n, err);
        return o == NULL ? DL_ERR_NOMEM : dl_pq_rle_decode_u8(&dec, n, o, err);
    }
    case DL_PQ_ENCODING_DELTA_BINARY_PACKED: {
        dl_pq_delta_decoder dec;
        bool is32 = leaf->type == DL_PQ_TYPE_INT32;
        DL_TRY(dl_pq_delta_decoder_init(&dec, p, len, is32, 0, err));
        DL_CHECK(dec.total == n, err, DL_ERR_INTERNAL, "delta: %llu values, want %zu",
                 (unsigned long long)dec.total, n);
        uint8_t *o = dl_buf_extend(&a->fixed, n * w, err);
        if (o == NULL) {
            return DL_ERR_NOMEM;
        }
        return is32 ? dl_pq_delta_decode_i32(&dec, n, (int32_t *)(void *)o, err)
                    : dl_pq_delta_decode_i64(&dec, n, (int64_t *)(void *)o, err);
    }
    case DL_PQ_ENCODING_DELTA_BYTE_ARRAY: {
        dl_pq_dba_decoder dec;
        DL_TRY(
            dl_pq_dba_decoder_init(&dec, p, len, n, w == 0 ? -1 : (int32_t)w, 0, &f->arena, err));
        dl_str *o = (dl_str *)(void *)dl_buf_extend(&a->strs, n * sizeof(dl_str), err);
        return o == NULL ? DL_ERR_NOMEM : dl_pq_dba_decode(&dec, n, o, &f->arena, err);
    }
    default:
        return BAD("encoding %d (%s) not expected", enc, dl_pq_encoding_name(enc));
    }
}

/* The decompressed bytes of a page body (in the arena, or the file itself). */
static dl_status
page_bytes(tw_file *f, dl_pq_codec_ctx *codec, int32_t codec_id, const uint8_t *src, size_t src_len,
           size_t dst_len, const uint8_t **out, dl_error *err) {
    if (codec_id == DL_PQ_CODEC_UNCOMPRESSED) {
        DL_CHECK(src_len == dst_len, err, DL_ERR_INTERNAL, "uncompressed sizes differ");
        *out = src;
        return DL_OK;
    }
    uint8_t *dst = dl_arena_alloc(&f->arena, dst_len + 1);
    DL_CHECK(dst != NULL, err, DL_ERR_NOMEM, "out of memory");
    DL_TRY(dl_pq_codec_decompress(codec, codec_id, src, src_len, dst, dst_len, err));
    *out = dst;
    return DL_OK;
}

typedef struct tw_chunk {
    tw_file *f;
    tw_acc *a;
    const dl_pq_column_metadata *md;
    dl_pq_codec_ctx *codec;
    tw_dict dict;
    dl_buf pages; /* tw_page */
    int64_t rows;
    int64_t nulls;
} tw_chunk;

static int64_t
count_rows(const tw_acc *a, size_t from, size_t n) {
    if (a->col.leaf->max_rep_level == 0) {
        return (int64_t)n;
    }
    const uint16_t *r = (const uint16_t *)(const void *)a->reps.data;
    int64_t rows = 0;
    for (size_t i = from; i < from + n; i++) {
        rows += r[i] == 0;
    }
    return rows;
}

static size_t
count_values(const tw_acc *a, size_t from, size_t n) {
    if (a->col.leaf->max_def_level == 0) {
        return n;
    }
    const uint16_t *d = (const uint16_t *)(const void *)a->defs.data;
    size_t values = 0;
    for (size_t i = from; i < from + n; i++) {
        values += d[i] == a->col.leaf->max_def_level;
    }
    return values;
}

static dl_status
read_data_page(tw_chunk *c, const dl_pq_page_header *ph, const uint8_t *body, size_t page_off,
               dl_error *err) {
    tw_acc *a = c->a;
    bool is_v2 = ph->type == DL_PQ_PAGE_DATA_V2;
    size_t n =
        (size_t)(is_v2 ? ph->data_page_header_v2.num_values : ph->data_page_header.num_values);
    int32_t enc = is_v2 ? ph->data_page_header_v2.encoding : ph->data_page_header.encoding;
    size_t level_start = a->col.n_levels;
    size_t value_start = a->col.n_values;
    const dl_pq_schema_node *leaf = a->col.leaf;
    const uint8_t *p = NULL;
    size_t left = 0;
    if (!is_v2) {
        DL_TRY(page_bytes(c->f, c->codec, c->md->codec, body, (size_t)ph->compressed_page_size,
                          (size_t)ph->uncompressed_page_size, &p, err));
        left = (size_t)ph->uncompressed_page_size;
        DL_TRY(decode_levels_v1(&p, &left, leaf->max_rep_level, n, &a->reps, page_off, err));
        DL_TRY(decode_levels_v1(&p, &left, leaf->max_def_level, n, &a->defs, page_off, err));
    } else {
        const dl_pq_data_page_header_v2 *h = &ph->data_page_header_v2;
        size_t rl = (size_t)h->repetition_levels_byte_length;
        size_t dlen = (size_t)h->definition_levels_byte_length;
        DL_TRY(decode_levels_bare(body, rl, leaf->max_rep_level, n, &a->reps, err));
        DL_TRY(decode_levels_bare(body + rl, dlen, leaf->max_def_level, n, &a->defs, err));
        size_t csize = (size_t)ph->compressed_page_size - rl - dlen;
        size_t usize = (size_t)ph->uncompressed_page_size - rl - dlen;
        int32_t codec = h->is_compressed ? c->md->codec : DL_PQ_CODEC_UNCOMPRESSED;
        DL_TRY(page_bytes(c->f, c->codec, codec, body + rl + dlen, csize, usize, &p, err));
        left = usize;
    }
    a->col.n_levels += n;
    size_t n_vals = count_values(a, level_start, n);
    DL_TRY(decode_values(c->f, a, &c->dict, enc, p, left, n_vals, err));
    a->col.n_values += n_vals;
    a->col.encodings |= 1u << enc;
    a->col.n_data_pages++;
    int64_t rows = count_rows(a, level_start, n);
    int64_t nulls = (int64_t)(n - n_vals);
    if (is_v2) {
        a->col.n_v2_pages++;
        DL_CHECK(ph->data_page_header_v2.num_rows == rows, err, DL_ERR_INTERNAL,
                 "v2 page: num_rows %d, counted %lld", ph->data_page_header_v2.num_rows,
                 (long long)rows);
        DL_CHECK(ph->data_page_header_v2.num_nulls == nulls, err, DL_ERR_INTERNAL,
                 "v2 page: num_nulls %d, counted %lld", ph->data_page_header_v2.num_nulls,
                 (long long)nulls);
    }
    if (leaf->max_rep_level > 0 && n > 0) {
        DL_CHECK(((const uint16_t *)(const void *)a->reps.data)[level_start] == 0, err,
                 DL_ERR_INTERNAL, "a page does not start at a row boundary");
    }
    tw_page pg = {
        .first_row = c->rows, .nulls = nulls, .first_value = value_start, .n_values = n_vals};
    c->rows += rows;
    c->nulls += nulls;
    return dl_buf_append(&c->pages, &pg, sizeof(pg), err);
}

/* ---- Checks -------------------------------------------------------------------------------- */

/* True min and max of values [from, from + n); false when there is none, or when one is NaN
 * (a chunk holding NaN gets no bounds: pq_write_page.c, fill_statistics). */
static bool
true_bounds(const tw_acc *a, size_t from, size_t n, dl_str *lo, dl_str *hi) {
    bool has = false;
    for (size_t i = from; i < from + n; i++) {
        if (is_nan_value(a->col.leaf, value_at(a, i))) {
            return false;
        }
    }
    for (size_t i = from; i < from + n; i++) {
        dl_str v = value_at(a, i);
        if (!has || compare(a->col.leaf, v, *lo) < 0) {
            *lo = v;
        }
        if (!has || compare(a->col.leaf, v, *hi) > 0) {
            *hi = v;
        }
        has = true;
    }
    return has;
}

static bool
is_zero_float(const dl_pq_schema_node *leaf, dl_str v, bool *is_negative) {
    if (leaf->type == DL_PQ_TYPE_FLOAT) {
        float x;
        memcpy(&x, v.ptr, 4);
        *is_negative = signbit(x) != 0;
        return x == 0.0f;
    }
    if (leaf->type == DL_PQ_TYPE_DOUBLE) {
        double x;
        memcpy(&x, v.ptr, 8);
        *is_negative = signbit(x) != 0;
        return x == 0.0;
    }
    return false;
}

/* Checks a bound: exact ones equal the truth, inexact ones lie on the right side of it. */
static dl_status
check_bound(const dl_pq_schema_node *leaf, dl_str bound, bool is_exact, dl_str truth, bool is_min,
            const char *what, dl_error *err) {
    int c = compare(leaf, bound, truth);
    if (is_exact) {
        DL_CHECK(c == 0 && (leaf->type == DL_PQ_TYPE_FLOAT || leaf->type == DL_PQ_TYPE_DOUBLE ||
                            dl_str_eq(bound, truth)),
                 err, DL_ERR_INTERNAL, "%s: exact %s differs from the true value", leaf->path,
                 what);
    } else {
        DL_CHECK(is_min ? c <= 0 : c >= 0, err, DL_ERR_INTERNAL, "%s: %s is not a bound",
                 leaf->path, what);
    }
    bool is_neg = false;
    if (is_zero_float(leaf, bound, &is_neg)) {
        DL_CHECK(is_neg == is_min, err, DL_ERR_INTERNAL, "%s: zero %s has the wrong sign",
                 leaf->path, what);
    }
    return DL_OK;
}

static dl_status
check_statistics(const tw_chunk *c, size_t first_value, dl_error *err) {
    const tw_acc *a = c->a;
    const dl_pq_schema_node *leaf = a->col.leaf;
    const dl_pq_column_metadata *md = c->md;
    DL_CHECK(md->has_statistics, err, DL_ERR_INTERNAL, "%s: no statistics", leaf->path);
    const dl_pq_statistics *st = &md->statistics;
    DL_CHECK(st->has_null_count && st->null_count == c->nulls, err, DL_ERR_INTERNAL,
             "%s: null_count %lld, counted %lld", leaf->path, (long long)st->null_count,
             (long long)c->nulls);
    dl_str lo = {0};
    dl_str hi = {0};
    bool has = true_bounds(a, first_value, a->col.n_values - first_value, &lo, &hi);
    if (!has) {
        DL_CHECK(!st->has_min_value && !st->has_max_value, err, DL_ERR_INTERNAL,
                 "%s: bounds without values", leaf->path);
        return DL_OK;
    }
    DL_CHECK(st->has_min_value, err, DL_ERR_INTERNAL, "%s: no min_value", leaf->path);
    DL_TRY(check_bound(leaf, st->min_value, st->is_min_value_exact, lo, true, "min_value", err));
    if (st->has_max_value) {
        DL_TRY(
            check_bound(leaf, st->max_value, st->is_max_value_exact, hi, false, "max_value", err));
    } else {
        DL_CHECK(leaf->type == DL_PQ_TYPE_BYTE_ARRAY, err, DL_ERR_INTERNAL, "%s: no max_value",
                 leaf->path);
    }
    if (st->has_min) {
        DL_CHECK(dl_str_eq(st->min, st->min_value) && dl_str_eq(st->max, st->max_value), err,
                 DL_ERR_INTERNAL, "%s: deprecated min/max differ", leaf->path);
    }
    return DL_OK;
}

static dl_status
check_offset_index(const tw_chunk *c, const dl_pq_column_chunk *cc, const tw_page *pages, size_t n,
                   dl_error *err) {
    const char *path = c->a->col.leaf->path;
    DL_CHECK(cc->has_offset_index_offset, err, DL_ERR_INTERNAL, "%s: no OffsetIndex", path);
    dl_pq_offset_index oi;
    const uint8_t *data = c->f->bytes.data;
    DL_TRY(dl_pq_offset_index_decode(data + cc->offset_index_offset,
                                     (size_t)cc->offset_index_length, cc->offset_index_offset,
                                     &c->f->arena, &oi, err));
    DL_CHECK(oi.n_page_locations == n, err, DL_ERR_INTERNAL,
             "%s: OffsetIndex has %zu pages, not %zu", path, oi.n_page_locations, n);
    for (size_t i = 0; i < n; i++) {
        const dl_pq_page_location *l = &oi.page_locations[i];
        DL_CHECK(l->offset == pages[i].offset && l->compressed_page_size == pages[i].size &&
                     l->first_row_index == pages[i].first_row,
                 err, DL_ERR_INTERNAL, "%s: OffsetIndex page %zu is wrong", path, i);
    }
    return DL_OK;
}

static dl_status
check_column_index(const tw_chunk *c, const dl_pq_column_chunk *cc, const tw_page *pages, size_t n,
                   dl_error *err) {
    const dl_pq_schema_node *leaf = c->a->col.leaf;
    if (!cc->has_column_index_offset) {
        return DL_OK; /* allowed: a chunk with a page of only NaN */
    }
    dl_pq_column_index ci;
    DL_TRY(dl_pq_column_index_decode(c->f->bytes.data + cc->column_index_offset,
                                     (size_t)cc->column_index_length, cc->column_index_offset,
                                     &c->f->arena, &ci, err));
    DL_CHECK(ci.n_null_pages == n && ci.has_null_counts, err, DL_ERR_INTERNAL,
             "%s: ColumnIndex has %zu pages, not %zu", leaf->path, ci.n_null_pages, n);
    dl_str prev_lo = {0};
    dl_str prev_hi = {0};
    bool has_prev = false;
    for (size_t i = 0; i < n; i++) {
        DL_CHECK(ci.null_counts[i] == pages[i].nulls, err, DL_ERR_INTERNAL,
                 "%s: ColumnIndex null count of page %zu", leaf->path, i);
        DL_CHECK(ci.null_pages[i] == (pages[i].n_values == 0), err, DL_ERR_INTERNAL,
                 "%s: ColumnIndex null flag of page %zu", leaf->path, i);
        if (ci.null_pages[i]) {
            continue;
        }
        dl_str lo = {0};
        dl_str hi = {0};
        DL_CHECK(true_bounds(c->a, pages[i].first_value, pages[i].n_values, &lo, &hi), err,
                 DL_ERR_INTERNAL, "%s: ColumnIndex for a page of only NaN", leaf->path);
        DL_CHECK(compare(leaf, ci.min_values[i], lo) <= 0 &&
                     compare(leaf, ci.max_values[i], hi) >= 0,
                 err, DL_ERR_INTERNAL, "%s: ColumnIndex bounds of page %zu", leaf->path, i);
        if (has_prev && ci.boundary_order == DL_PQ_BOUNDARY_ASCENDING) {
            DL_CHECK(compare(leaf, prev_lo, ci.min_values[i]) <= 0 &&
                         compare(leaf, prev_hi, ci.max_values[i]) <= 0,
                     err, DL_ERR_INTERNAL, "%s: not ascending at page %zu", leaf->path, i);
        }
        if (has_prev && ci.boundary_order == DL_PQ_BOUNDARY_DESCENDING) {
            DL_CHECK(compare(leaf, prev_lo, ci.min_values[i]) >= 0 &&
                         compare(leaf, prev_hi, ci.max_values[i]) >= 0,
                     err, DL_ERR_INTERNAL, "%s: not descending at page %zu", leaf->path, i);
        }
        prev_lo = ci.min_values[i];
        prev_hi = ci.max_values[i];
        has_prev = true;
    }
    return DL_OK;
}

static dl_status
read_chunk(tw_file *f, tw_chunk *c, const dl_pq_column_chunk *cc, int64_t rg_rows, dl_error *err) {
    tw_acc *a = c->a;
    int64_t off = 0;
    int64_t len = 0;
    dl_pq_column_chunk_range(cc, &off, &len);
    int64_t pos = off;
    int64_t end = off + len;
    size_t first_value = a->col.n_values;
    size_t first_level = a->col.n_levels;
    while (pos < end) {
        dl_pq_page_header ph;
        size_t hlen = 0;
        DL_TRY(dl_pq_page_header_decode(f->bytes.data + pos, (size_t)(end - pos), pos, &f->arena,
                                        &ph, &hlen, NULL, err));
        const uint8_t *body = f->bytes.data + pos + (int64_t)hlen;
        int64_t page_end = pos + (int64_t)hlen + ph.compressed_page_size;
        DL_CHECK(page_end <= end, err, DL_ERR_INTERNAL, "page runs past its chunk");
        if (ph.has_crc) {
            uLong crc = crc32(0L, Z_NULL, 0);
            crc = crc32(crc, body, (uInt)ph.compressed_page_size);
            DL_CHECK((int32_t)(uint32_t)crc == ph.crc, err, DL_ERR_INTERNAL, "page CRC differs");
        }
        if (ph.type == DL_PQ_PAGE_DICTIONARY) {
            DL_CHECK(a->col.n_data_pages == 0 || pos == off, err, DL_ERR_INTERNAL,
                     "dictionary page after data pages");
            const uint8_t *p = NULL;
            DL_TRY(page_bytes(f, c->codec, c->md->codec, body, (size_t)ph.compressed_page_size,
                              (size_t)ph.uncompressed_page_size, &p, err));
            DL_TRY(decode_dict_page(a, p, (size_t)ph.uncompressed_page_size,
                                    (size_t)ph.dictionary_page_header.num_values, &f->arena,
                                    &c->dict, err));
            a->col.n_dict_pages++;
        } else {
            DL_TRY(read_data_page(c, &ph, body, 0, err));
            tw_page *pg = (tw_page *)(void *)(c->pages.data + c->pages.len - sizeof(tw_page));
            pg->offset = pos;
            pg->size = (int32_t)(page_end - pos);
        }
        pos = page_end;
    }
    DL_CHECK(c->rows == rg_rows, err, DL_ERR_INTERNAL, "%s: %lld rows in a row group of %lld",
             a->col.leaf->path, (long long)c->rows, (long long)rg_rows);
    DL_CHECK(c->md->num_values == (int64_t)(a->col.n_levels - first_level), err, DL_ERR_INTERNAL,
             "%s: num_values %lld, decoded %zu", a->col.leaf->path, (long long)c->md->num_values,
             a->col.n_levels - first_level);
    DL_TRY(check_statistics(c, first_value, err));
    const tw_page *pages = (const tw_page *)(const void *)c->pages.data;
    size_t n_pages = c->pages.len / sizeof(tw_page);
    DL_TRY(check_offset_index(c, cc, pages, n_pages, err));
    return check_column_index(c, cc, pages, n_pages, err);
}

static void
finish_cols(tw_file *f) {
    for (size_t i = 0; i < f->n_cols; i++) {
        tw_acc *a = &f->acc[i];
        a->col.defs = (uint16_t *)(void *)a->defs.data;
        a->col.reps = (uint16_t *)(void *)a->reps.data;
        a->col.fixed = a->fixed.data;
        a->col.strs = (dl_str *)(void *)a->strs.data;
        f->cols[i] = a->col;
    }
}

dl_status
tw_file_read(dl_store *store, const char *path, tw_file *f, dl_error *err) {
    memset(f, 0, sizeof(*f));
    dl_arena_init(&f->arena, NULL, 0);
    dl_buf_init(&f->bytes, NULL);
    DL_TRY(dl_store_read_all(store, path, &f->bytes, err));
    DL_TRY(dl_pq_footer_parse(f->bytes.data, f->bytes.len, (int64_t)f->bytes.len, &f->arena,
                              &f->footer, err));
    const dl_pq_file_metadata *md = &f->footer->meta;
    size_t n = f->footer->schema.n_leaves;
    f->n_cols = n;
    f->acc = dl_arena_alloc_zero(&f->arena, (n + 1) * sizeof(tw_acc));
    f->cols = dl_arena_alloc_zero(&f->arena, (n + 1) * sizeof(tw_col));
    DL_CHECK(f->acc != NULL && f->cols != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        tw_acc *a = &f->acc[i];
        dl_buf_init(&a->defs, NULL);
        dl_buf_init(&a->reps, NULL);
        dl_buf_init(&a->fixed, NULL);
        dl_buf_init(&a->strs, NULL);
        a->col.leaf = f->footer->schema.leaves[i];
        a->col.width = a->col.leaf->type == DL_PQ_TYPE_BYTE_ARRAY ? 0 : phys_width(a->col.leaf);
    }
    dl_pq_codec_ctx codec;
    dl_pq_codec_ctx_init(&codec, NULL);
    dl_status s = DL_OK;
    for (size_t r = 0; r < md->n_row_groups && s == DL_OK; r++) {
        for (size_t i = 0; i < n && s == DL_OK; i++) {
            tw_chunk c = {.f = f,
                          .a = &f->acc[i],
                          .md = &md->row_groups[r].columns[i].meta_data,
                          .codec = &codec};
            dl_buf_init(&c.pages, NULL);
            s = read_chunk(f, &c, &md->row_groups[r].columns[i], md->row_groups[r].num_rows, err);
            if (s != DL_OK) {
                dl_error_prefix(err, "row group %zu, column %zu", r, i);
            }
            dl_buf_destroy(&c.pages);
        }
    }
    dl_pq_codec_ctx_destroy(&codec);
    finish_cols(f);
    return s;
}

void
tw_file_free(tw_file *f) {
    for (size_t i = 0; f->acc != NULL && i < f->n_cols; i++) {
        dl_buf_destroy(&f->acc[i].defs);
        dl_buf_destroy(&f->acc[i].reps);
        dl_buf_destroy(&f->acc[i].fixed);
        dl_buf_destroy(&f->acc[i].strs);
    }
    dl_buf_destroy(&f->bytes);
    dl_arena_destroy(&f->arena);
    memset(f, 0, sizeof(*f));
}

const tw_col *
tw_file_col(const tw_file *f, const char *path) {
    for (size_t i = 0; i < f->n_cols; i++) {
        if (strcmp(f->cols[i].leaf->path, path) == 0) {
            return &f->cols[i];
        }
    }
    return NULL;
}

int32_t
tw_i32(const tw_col *c, size_t i) {
    int32_t v;
    memcpy(&v, c->fixed + i * 4, 4);
    return v;
}

int64_t
tw_i64(const tw_col *c, size_t i) {
    int64_t v;
    memcpy(&v, c->fixed + i * 8, 8);
    return v;
}

double
tw_f64(const tw_col *c, size_t i) {
    if (c->width == 4) {
        float v;
        memcpy(&v, c->fixed + i * 4, 4);
        return (double)v;
    }
    double v;
    memcpy(&v, c->fixed + i * 8, 8);
    return v;
}

dl_i128
tw_dec(const tw_col *c, size_t i) {
    if (c->leaf->type == DL_PQ_TYPE_INT32) {
        return tw_i32(c, i);
    }
    if (c->leaf->type == DL_PQ_TYPE_INT64) {
        return tw_i64(c, i);
    }
    const uint8_t *p = c->fixed + i * c->width;
    dl_i128 v = (int8_t)p[0];
    for (size_t k = 1; k < c->width; k++) {
        v = v * 256 + p[k];
    }
    return v;
}

bool
tw_store_new(tw_store *s) {
    memset(s, 0, sizeof(*s));
    int n = snprintf(s->root, sizeof(s->root), "/tmp/dl-pqw-XXXXXX");
    dl_error err;
    dl_store_local_options opts = {.is_volatile = true};
    return n > 0 && mkdtemp(s->root) != NULL &&
           dl_store_local_new(s->root, &opts, &s->store, &err) == DL_OK;
}

void
tw_store_free(tw_store *s) {
    dl_store_free(s->store);
    s->store = NULL;
    testutil_remove_tree(s->root);
}

bool
tw_store_is_empty(const tw_store *s) {
    DIR *dir = opendir(s->root);
    if (dir == NULL) {
        return true;
    }
    bool is_empty = true;
    struct dirent *de;
    while ((de = readdir(dir)) != NULL) {
        if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0) {
            is_empty = false;
        }
    }
    (void)closedir(dir);
    return is_empty;
}

dl_status
tw_write(dl_store *store, const char *path, const dl_type *schema, dl_batch *const *batches,
         size_t n, const dl_pq_write_options *opts, dl_arena *arena, dl_pq_write_result *res,
         dl_error *err) {
    dl_pq_writer *w = NULL;
    DL_TRY(dl_pq_writer_open(store, path, DL_STORE_PUT_OVERWRITE, schema, opts, NULL, &w, err));
    for (size_t i = 0; i < n; i++) {
        dl_status s = dl_pq_writer_write(w, batches[i], err);
        if (s != DL_OK) {
            dl_pq_writer_abort(w);
            return s;
        }
    }
    return dl_pq_writer_close(w, arena, res, err);
}
