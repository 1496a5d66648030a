/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Data pages, dictionary pages and the metadata of a column chunk being written.
 *
 * A data page (parquet.thrift PageHeader, DataPageHeader, DataPageHeaderV2) is
 *
 *   v1:  header | compress( [u32 len, rep levels RLE] [u32 len, def levels RLE] values )
 *   v2:  header | rep levels RLE | def levels RLE | compress( values )
 *
 * with a level section only when the leaf's maximum level is above 0, num_values counting
 * every level entry (nulls included), and for v2 num_nulls and num_rows (a page starts at a
 * row boundary, which the caller guarantees). The dictionary page holds the dictionary's
 * entries PLAIN and comes first in the chunk, so it is made when the chunk ends; data pages
 * are appended to the chunk buffer as they fill.
 *
 * Encoding of a chunk's values. A chunk starts with the dictionary on trial: values go both into
 * the dictionary (indices) and into PLAIN bytes, and finished pages wait (pend_*) until the
 * dictionary is judged, at the end of each page, over all the pages so far:
 *
 *   - dictionary + indices smaller than PLAIN: dictionary. The waiting pages are written
 *     RLE_DICTIONARY and later values go only to the dictionary;
 *   - the dictionary past dict_page_bytes (or the waiting pages past PEND_CAP): PLAIN. The
 *     waiting pages are written PLAIN and the dictionary dropped;
 *   - neither: the page waits too. At the end of the chunk the first rule decides.
 *
 * This generalizes parquet-mr's rule (which judges the first page alone and so drops the
 * dictionary of, say, 100,000 customer ids in a million rows, since the first 20,000 rows are
 * nearly all distinct) and approaches DuckDB's, which judges a whole row group. The waiting
 * pages are bounded: while the dictionary does not pay and stays under its limit, the PLAIN bytes
 * are at most a few times that limit. A dictionary kept that later passes dict_page_bytes ends
 * the page in progress (still dictionary-encoded) and later pages are PLAIN. With
 * is_delta_enabled the first PLAIN page also tries DELTA_BINARY_PACKED (INT32, INT64) or
 * DELTA_BYTE_ARRAY (BYTE_ARRAY) and keeps it for the rest of the chunk when smaller.
 *
 * Each page adds its bounds, null flag and null count to the chunk's ColumnIndex and its
 * location to the OffsetIndex (PageIndex.md); the boundary order is ASCENDING when the mins and
 * the maxes of the non-null pages never decrease, DESCENDING when they never increase.
 */
#include <string.h>
#include <zlib.h>

#include "parquet/encoding/pq_encoding.h"
#include "parquet/pq_write_int.h"

/* Waiting pages beyond this many PLAIN bytes end the trial (a safety bound). */
#define PEND_CAP ((size_t)64 << 20)

static dl_pq_wmode
initial_mode(const dl_pq_writer_ctx *ctx, const dl_pq_wleaf *leaf) {
    bool can_dict = leaf->vk != DL_PQ_VK_BOOL && leaf->vk != DL_PQ_VK_NONE;
    if (ctx->opts.is_dictionary_enabled && ctx->opts.dict_page_bytes > 0 && can_dict) {
        return DL_PQ_WMODE_TRIAL;
    }
    return DL_PQ_WMODE_PLAIN;
}

void
dl_pq_wleaf_init(dl_pq_wleaf *leaf, const dl_pq_writer_ctx *ctx) {
    const dl_allocator *a = ctx->alloc;
    dl_buf *bufs[] = {
        &leaf->defs,          &leaf->reps,           &leaf->values,       &leaf->indices,
        &leaf->chunk,         &leaf->dict_page,      &leaf->ci_bounds,    &leaf->ci_bound_at,
        &leaf->ci_null_pages, &leaf->ci_null_counts, &leaf->oi_locs,      &leaf->pend_defs,
        &leaf->pend_reps,     &leaf->pend_values,    &leaf->pend_indices, &leaf->pend_pages};
    for (size_t i = 0; i < DL_ARRAY_LEN(bufs); i++) {
        dl_buf_init(bufs[i], a);
    }
    dl_pq_wstats_init(&leaf->page_stats, a);
    dl_pq_wstats_init(&leaf->chunk_stats, a);
    dl_pq_wstats_init(&leaf->file_stats, a);
    dl_pq_wdict_init(&leaf->dict, a, leaf->vk == DL_PQ_VK_BYTES ? 0 : leaf->width);
    leaf->mode = initial_mode(ctx, leaf);
    leaf->is_ci_valid = true;
    leaf->is_asc = true;
    leaf->is_desc = true;
}

void
dl_pq_wleaf_destroy(dl_pq_wleaf *leaf) {
    dl_buf *bufs[] = {
        &leaf->defs,          &leaf->reps,           &leaf->values,       &leaf->indices,
        &leaf->chunk,         &leaf->dict_page,      &leaf->ci_bounds,    &leaf->ci_bound_at,
        &leaf->ci_null_pages, &leaf->ci_null_counts, &leaf->oi_locs,      &leaf->pend_defs,
        &leaf->pend_reps,     &leaf->pend_values,    &leaf->pend_indices, &leaf->pend_pages};
    for (size_t i = 0; i < DL_ARRAY_LEN(bufs); i++) {
        dl_buf_destroy(bufs[i]);
    }
    dl_pq_wstats_destroy(&leaf->page_stats);
    dl_pq_wstats_destroy(&leaf->chunk_stats);
    dl_pq_wstats_destroy(&leaf->file_stats);
    dl_pq_wdict_destroy(&leaf->dict);
    dl_mem_free(leaf->dict.alloc, leaf->bloom, leaf->bloom_cap);
    leaf->bloom = NULL;
}

/* ---- Values into the open page ------------------------------------------------------------ */

static dl_status
put_bytes(dl_pq_wleaf *leaf, const dl_str *s, size_t n, uint32_t *indices, dl_error *err) {
    size_t bytes = 0;
    for (size_t i = 0; i < n; i++) {
        DL_CHECK(s[i].len <= INT32_MAX, err, DL_ERR_INVALID_ARG,
                 "Parquet writer: column '%s': a value of %zu bytes exceeds the 2 GiB limit",
                 leaf->path, s[i].len);
        bytes += s[i].len;
    }
    leaf->page_plain_bytes += bytes + 4 * n;
    if (indices != NULL) {
        DL_TRY(dl_pq_wdict_put_bytes(&leaf->dict, s, n, indices, err));
    }
    if (leaf->mode == DL_PQ_WMODE_DICT) {
        return DL_OK;
    }
    DL_TRY(dl_buf_reserve(&leaf->values, bytes + 4 * n, err));
    for (size_t i = 0; i < n; i++) {
        uint32_t len = (uint32_t)s[i].len;
        dl_buf_append_unchecked(&leaf->values, &len, 4);
        if (len > 0) {
            dl_buf_append_unchecked(&leaf->values, s[i].ptr, len);
        }
    }
    return DL_OK;
}

static dl_status
put_fixed(dl_pq_wleaf *leaf, const void *vals, size_t n, uint32_t *indices, dl_error *err) {
    leaf->page_plain_bytes += n * leaf->width;
    if (indices != NULL) {
        switch (leaf->width) {
        case 4:
            DL_TRY(dl_pq_wdict_put_u32(&leaf->dict, vals, n, indices, err));
            break;
        case 8:
            DL_TRY(dl_pq_wdict_put_u64(&leaf->dict, vals, n, indices, err));
            break;
        default:
            DL_TRY(dl_pq_wdict_put_fixed(&leaf->dict, vals, n, indices, err));
            break;
        }
    }
    if (leaf->mode == DL_PQ_WMODE_DICT) {
        return DL_OK;
    }
    return dl_buf_append(&leaf->values, vals, n * leaf->width, err);
}

dl_status
dl_pq_wleaf_put(dl_pq_wcol *col, dl_pq_wleaf *leaf, const void *vals, const dl_i128 *dec, size_t n,
                dl_error *err) {
    DL_UNUSED(col);
    DL_TRY(dl_pq_wstats_update(&leaf->page_stats, leaf->vk, vals, dec, n, err));
    if (leaf->bloom != NULL) {
        dl_pq_wleaf_bloom_add(leaf, vals, n);
    }
    leaf->page_values += (int64_t)n;
    uint32_t *indices = NULL;
    if (leaf->mode == DL_PQ_WMODE_DICT || leaf->mode == DL_PQ_WMODE_TRIAL) {
        indices = (uint32_t *)(void *)dl_buf_extend(&leaf->indices, n * sizeof(uint32_t), err);
        if (indices == NULL) {
            return DL_ERR_NOMEM;
        }
    }
    if (leaf->vk == DL_PQ_VK_BYTES) {
        return put_bytes(leaf, vals, n, indices, err);
    }
    if (leaf->vk == DL_PQ_VK_BOOL) {
        leaf->page_plain_bytes += n;
        return dl_buf_append(&leaf->values, vals, n, err);
    }
    return put_fixed(leaf, vals, n, indices, err);
}

static unsigned
dict_bits(const dl_pq_wleaf *leaf) {
    uint32_t n = leaf->dict.n_entries;
    return n > 1 ? dl_pq_bit_width(n - 1) : 0;
}

/* Encoded bytes of the open page, estimated. */
static size_t
page_estimate(const dl_pq_wleaf *leaf) {
    size_t level_bits = dl_pq_bit_width(leaf->max_def) + dl_pq_bit_width(leaf->max_rep);
    size_t bytes = (size_t)leaf->page_levels * level_bits / 8;
    if (leaf->mode == DL_PQ_WMODE_DICT) {
        return bytes + (size_t)leaf->page_values * dict_bits(leaf) / 8 + 1;
    }
    if (leaf->vk == DL_PQ_VK_BOOL) {
        return bytes + (size_t)leaf->page_values / 8;
    }
    return bytes + leaf->values.len;
}

/* ---- Encoding a page ------------------------------------------------------------------------ */

/* A finished page's contents, wherever they are kept (the open page or the waiting pages). */
typedef struct dl_pq_wpage {
    const uint16_t *defs;  /* levels entries, or NULL when max_def is 0 */
    const uint16_t *reps;  /* levels entries, or NULL when max_rep is 0 */
    const uint8_t *values; /* PLAIN values (BOOLEAN: one byte each), unless DICT-only */
    size_t values_len;
    const uint32_t *indices; /* dictionary indices (DICT and TRIAL) */
    int64_t levels, n_values, rows, nulls, first_row;
} dl_pq_wpage;

static int32_t
n_data_pages(const dl_pq_wleaf *leaf) {
    return leaf->n_pages_dict + leaf->n_pages_plain + leaf->n_pages_delta + leaf->n_pages_rle;
}

static dl_pq_encoding
delta_encoding(const dl_pq_wleaf *leaf) {
    return leaf->vk == DL_PQ_VK_BYTES ? DL_PQ_ENCODING_DELTA_BYTE_ARRAY
                                      : DL_PQ_ENCODING_DELTA_BINARY_PACKED;
}

/* A page's PLAIN byte arrays as views (in col->conv). */
static dl_status
plain_views(dl_pq_wcol *col, const dl_pq_wpage *pg, const dl_str **out, dl_error *err) {
    size_t n = (size_t)pg->n_values;
    dl_buf_reset(&col->conv);
    dl_str *v = (dl_str *)(void *)dl_buf_extend(&col->conv, n * sizeof(dl_str), err);
    if (v == NULL) {
        return DL_ERR_NOMEM;
    }
    const uint8_t *p = pg->values;
    for (size_t i = 0; i < n; i++) {
        uint32_t len;
        memcpy(&len, p, 4);
        v[i] = dl_str_make((const char *)p + 4, len);
        p += 4 + len;
    }
    *out = v;
    return DL_OK;
}

/* Appends a page's values in encoding enc to out. */
static dl_status
encode_values(dl_pq_wcol *col, const dl_pq_wleaf *leaf, const dl_pq_wpage *pg, dl_pq_encoding enc,
              dl_buf *out, dl_error *err) {
    size_t n = (size_t)pg->n_values;
    const uint8_t *v = pg->values;
    switch (enc) {
    case DL_PQ_ENCODING_RLE_DICTIONARY:
        return dl_pq_dict_indices_encode(pg->indices, n, leaf->dict.n_entries, out, err);
    case DL_PQ_ENCODING_RLE:
        return dl_pq_rle_encode_u8(v, n, 1, DL_PQ_RLE_LENGTH_PREFIX, out, err);
    case DL_PQ_ENCODING_DELTA_BINARY_PACKED:
        if (leaf->vk == DL_PQ_VK_I32) {
            return dl_pq_delta_encode_i32((const int32_t *)(const void *)v, n, out, err);
        }
        return dl_pq_delta_encode_i64((const int64_t *)(const void *)v, n, out, err);
    case DL_PQ_ENCODING_DELTA_BYTE_ARRAY: {
        const dl_str *views = NULL;
        DL_TRY(plain_views(col, pg, &views, err));
        return dl_pq_dba_encode(views, n, out, err);
    }
    default:
        if (leaf->vk == DL_PQ_VK_BOOL) {
            return dl_pq_plain_encode_bool(v, n, out, err);
        }
        return n == 0 ? DL_OK : dl_buf_append(out, v, pg->values_len, err);
    }
}

static bool
can_delta(const dl_pq_wleaf *leaf) {
    return leaf->vk == DL_PQ_VK_I32 || leaf->vk == DL_PQ_VK_I64 || leaf->vk == DL_PQ_VK_BYTES;
}

/* The encoding of a page written in the chunk's (decided) mode. */
static dl_status
choose_encoding(dl_pq_wcol *col, dl_pq_wleaf *leaf, const dl_pq_wpage *pg, dl_pq_encoding *out,
                dl_error *err) {
    const dl_pq_write_options *o = &col->ctx->opts;
    if (leaf->mode == DL_PQ_WMODE_DICT) {
        *out = DL_PQ_ENCODING_RLE_DICTIONARY;
        return DL_OK;
    }
    if (leaf->vk == DL_PQ_VK_BOOL) {
        *out = o->page_version == 2 ? DL_PQ_ENCODING_RLE : DL_PQ_ENCODING_PLAIN;
        return DL_OK;
    }
    if (!leaf->is_mode_final && o->is_delta_enabled && can_delta(leaf) && pg->n_values > 0) {
        dl_buf_reset(&col->scratch);
        DL_TRY(encode_values(col, leaf, pg, delta_encoding(leaf), &col->scratch, err));
        leaf->mode = col->scratch.len < pg->values_len ? DL_PQ_WMODE_DELTA : DL_PQ_WMODE_PLAIN;
        leaf->is_mode_final = true;
    }
    *out = leaf->mode == DL_PQ_WMODE_DELTA ? delta_encoding(leaf) : DL_PQ_ENCODING_PLAIN;
    return DL_OK;
}

static dl_status
check_i32(size_t v, const dl_pq_wleaf *leaf, const char *what, dl_error *err) {
    DL_CHECK(v <= INT32_MAX, err, DL_ERR_LIMIT,
             "Parquet writer: column '%s': a page's %s (%zu) exceeds Parquet's int32 limit",
             leaf->path, what, v);
    return DL_OK;
}

/* The page's levels (and, v1, its values) into col->body; v2 values into col->scratch. */
static dl_status
build_body(dl_pq_wcol *col, const dl_pq_wleaf *leaf, const dl_pq_wpage *pg, dl_pq_encoding enc,
           bool is_v2, size_t *out_rep_len, size_t *out_def_len, dl_error *err) {
    dl_buf *body = &col->body;
    dl_buf_reset(body);
    dl_pq_rle_framing framing = is_v2 ? DL_PQ_RLE_BARE : DL_PQ_RLE_LENGTH_PREFIX;
    size_t n = (size_t)pg->levels;
    if (leaf->max_rep > 0) {
        DL_TRY(
            dl_pq_rle_encode_u16(pg->reps, n, dl_pq_bit_width(leaf->max_rep), framing, body, err));
    }
    *out_rep_len = body->len;
    if (leaf->max_def > 0) {
        DL_TRY(
            dl_pq_rle_encode_u16(pg->defs, n, dl_pq_bit_width(leaf->max_def), framing, body, err));
    }
    *out_def_len = body->len - *out_rep_len;
    dl_buf *vals = body;
    if (is_v2) {
        vals = &col->scratch;
        dl_buf_reset(vals);
    }
    return encode_values(col, leaf, pg, enc, vals, err);
}

static void
fill_header(const dl_pq_wpage *pg, dl_pq_encoding enc, bool is_v2, size_t rep_len, size_t def_len,
            bool is_compressed, dl_pq_page_header *ph) {
    memset(ph, 0, sizeof(*ph));
    if (!is_v2) {
        ph->type = DL_PQ_PAGE_DATA;
        ph->has_data_page_header = true;
        ph->data_page_header.num_values = (int32_t)pg->levels;
        ph->data_page_header.encoding = enc;
        ph->data_page_header.definition_level_encoding = DL_PQ_ENCODING_RLE;
        ph->data_page_header.repetition_level_encoding = DL_PQ_ENCODING_RLE;
        return;
    }
    ph->type = DL_PQ_PAGE_DATA_V2;
    ph->has_data_page_header_v2 = true;
    dl_pq_data_page_header_v2 *h = &ph->data_page_header_v2;
    h->num_values = (int32_t)pg->levels;
    h->num_nulls = (int32_t)pg->nulls;
    h->num_rows = (int32_t)pg->rows;
    h->encoding = enc;
    h->definition_levels_byte_length = (int32_t)def_len;
    h->repetition_levels_byte_length = (int32_t)rep_len;
    h->is_compressed = is_compressed;
    h->has_is_compressed = true;
}

/* Compresses src into col->packed unless the codec is UNCOMPRESSED; *out points at the result. */
static dl_status
compress_body(dl_pq_wcol *col, const uint8_t *src, size_t len, const uint8_t **out, size_t *out_len,
              dl_error *err) {
    const dl_pq_write_options *o = &col->ctx->opts;
    if (o->codec == DL_PQ_CODEC_UNCOMPRESSED) {
        *out = src;
        *out_len = len;
        return DL_OK;
    }
    dl_buf_reset(&col->packed);
    DL_TRY(
        dl_pq_codec_compress(&col->codec, o->codec, o->codec_level, src, len, &col->packed, err));
    *out = col->packed.data;
    *out_len = col->packed.len;
    return DL_OK;
}

/* Appends header + levels + payload to dst; *out_len receives the bytes appended. */
static dl_status
emit_bytes(dl_pq_wcol *col, dl_pq_page_header *ph, const uint8_t *levels, size_t levels_len,
           const uint8_t *payload, size_t payload_len, dl_buf *dst, size_t *out_len,
           dl_error *err) {
    if (col->ctx->opts.is_crc_enabled) {
        uLong crc = crc32(0L, Z_NULL, 0);
        if (levels_len > 0) {
            crc = crc32(crc, levels, (uInt)levels_len);
        }
        if (payload_len > 0) {
            crc = crc32(crc, payload, (uInt)payload_len);
        }
        ph->crc = (int32_t)(uint32_t)crc;
        ph->has_crc = true;
    }
    dl_buf_reset(&col->header);
    DL_TRY(dl_pq_page_header_encode(ph, &col->header, err));
    DL_TRY(dl_buf_reserve(dst, col->header.len + levels_len + payload_len, err));
    dl_buf_append_unchecked(dst, col->header.data, col->header.len);
    if (levels_len > 0) {
        dl_buf_append_unchecked(dst, levels, levels_len);
    }
    if (payload_len > 0) {
        dl_buf_append_unchecked(dst, payload, payload_len);
    }
    *out_len = col->header.len + levels_len + payload_len;
    return DL_OK;
}

static void
count_page(dl_pq_wleaf *leaf, dl_pq_encoding enc) {
    switch (enc) {
    case DL_PQ_ENCODING_RLE_DICTIONARY:
        leaf->n_pages_dict++;
        break;
    case DL_PQ_ENCODING_RLE:
        leaf->n_pages_rle++;
        break;
    case DL_PQ_ENCODING_PLAIN:
        leaf->n_pages_plain++;
        break;
    default:
        leaf->n_pages_delta++;
        break;
    }
}

/* Encodes, compresses and appends one page to the chunk, with its OffsetIndex location. */
static dl_status
emit_page(dl_pq_wcol *col, dl_pq_wleaf *leaf, const dl_pq_wpage *pg, dl_error *err) {
    const dl_pq_write_options *o = &col->ctx->opts;
    bool is_v2 = o->page_version == 2;
    DL_TRY(check_i32((size_t)pg->levels, leaf, "value count", err));
    dl_pq_encoding enc;
    DL_TRY(choose_encoding(col, leaf, pg, &enc, err));
    size_t rep_len = 0;
    size_t def_len = 0;
    DL_TRY(build_body(col, leaf, pg, enc, is_v2, &rep_len, &def_len, err));
    size_t levels_len = is_v2 ? rep_len + def_len : 0;
    const dl_buf *src = is_v2 ? &col->scratch : &col->body;
    const uint8_t *payload = NULL;
    size_t payload_len = 0;
    DL_TRY(compress_body(col, src->data, src->len, &payload, &payload_len, err));
    size_t uncompressed = levels_len + src->len;
    DL_TRY(check_i32(uncompressed, leaf, "uncompressed size", err));
    DL_TRY(check_i32(levels_len + payload_len, leaf, "compressed size", err));
    dl_pq_page_header ph;
    fill_header(pg, enc, is_v2, rep_len, def_len, o->codec != DL_PQ_CODEC_UNCOMPRESSED, &ph);
    ph.uncompressed_page_size = (int32_t)uncompressed;
    ph.compressed_page_size = (int32_t)(levels_len + payload_len);
    size_t offset = leaf->chunk.len;
    size_t page_len = 0;
    DL_TRY(emit_bytes(col, &ph, col->body.data, levels_len, payload, payload_len, &leaf->chunk,
                      &page_len, err));
    dl_pq_page_location loc = {.offset = (int64_t)offset,
                               .compressed_page_size = (int32_t)page_len,
                               .first_row_index = pg->first_row};
    DL_TRY(dl_buf_append(&leaf->oi_locs, &loc, sizeof(loc), err));
    count_page(leaf, enc);
    leaf->chunk_uncompressed += (int64_t)(col->header.len + uncompressed);
    return DL_OK;
}

/* ---- Ending a page ------------------------------------------------------------------------- */

/* Adds the open page to the chunk's ColumnIndex lists. */
static dl_status
add_index_entry(dl_pq_wleaf *leaf, dl_error *err) {
    uint8_t is_null_page = leaf->page_values == 0;
    size_t at[4] = {0, 0, 0, 0};
    size_t page = leaf->ci_null_pages.len;
    if (!is_null_page) {
        dl_pq_wbounds b;
        DL_TRY(dl_pq_wstats_encode(&leaf->page_stats, &leaf->form, &leaf->ci_bounds, &b, err));
        at[0] = b.min_off;
        at[1] = b.min_len;
        at[2] = b.max_off;
        at[3] = b.max_len;
        if (!b.has_min || !b.has_max || leaf->page_stats.nan_count > 0) {
            leaf->is_ci_valid = false; /* NaN: see fill_statistics */
        } else if (leaf->ci_last > 0) {
            const size_t *prev =
                (const size_t *)(void *)leaf->ci_bound_at.data + 4 * (leaf->ci_last - 1);
            const char *base = (const char *)leaf->ci_bounds.data;
            int c_min = dl_pq_wstats_compare(&leaf->form, dl_str_make(base + prev[0], prev[1]),
                                             dl_str_make(base + at[0], at[1]));
            int c_max = dl_pq_wstats_compare(&leaf->form, dl_str_make(base + prev[2], prev[3]),
                                             dl_str_make(base + at[2], at[3]));
            leaf->is_asc = leaf->is_asc && c_min <= 0 && c_max <= 0;
            leaf->is_desc = leaf->is_desc && c_min >= 0 && c_max >= 0;
        }
        if (b.has_min && b.has_max) {
            leaf->ci_last = page + 1;
        }
    }
    int64_t nulls = leaf->page_stats.null_count;
    DL_TRY(dl_buf_append(&leaf->ci_null_pages, &is_null_page, 1, err));
    DL_TRY(dl_buf_append(&leaf->ci_bound_at, at, sizeof(at), err));
    return dl_buf_append(&leaf->ci_null_counts, &nulls, sizeof(nulls), err);
}

static void
reset_page(dl_pq_wleaf *leaf) {
    dl_buf_reset(&leaf->defs);
    dl_buf_reset(&leaf->reps);
    dl_buf_reset(&leaf->values);
    dl_buf_reset(&leaf->indices);
    leaf->page_levels = 0;
    leaf->page_values = 0;
    leaf->page_rows = 0;
    leaf->page_plain_bytes = 0;
    dl_pq_wstats_reset(&leaf->page_stats);
}

/* The open page as a view. */
static dl_pq_wpage
open_page(const dl_pq_wleaf *leaf, int64_t first_row) {
    dl_pq_wpage pg = {
        .defs = (const uint16_t *)(const void *)leaf->defs.data,
        .reps = (const uint16_t *)(const void *)leaf->reps.data,
        .values = leaf->values.data,
        .values_len = leaf->values.len,
        .indices = (const uint32_t *)(const void *)leaf->indices.data,
        .levels = leaf->page_levels,
        .n_values = leaf->page_values,
        .rows = leaf->page_rows,
        .nulls = leaf->page_stats.null_count,
        .first_row = first_row,
    };
    return pg;
}

/* Moves the open page to the waiting pages. Levels of both kinds have one entry per level, so
 * one index (defs_at) places a page in pend_defs and pend_reps alike. */
static dl_status
park_page(dl_pq_wleaf *leaf, int64_t first_row, dl_error *err) {
    dl_pq_wpend p = {.defs_at = leaf->pend_defs.len / 2,
                     .values_at = leaf->pend_values.len,
                     .values_len = leaf->values.len,
                     .indices_at = leaf->pend_indices.len / 4,
                     .levels = leaf->page_levels,
                     .n_values = leaf->page_values,
                     .rows = leaf->page_rows,
                     .nulls = leaf->page_stats.null_count,
                     .first_row = first_row};
    const dl_buf *src[] = {&leaf->defs, &leaf->reps, &leaf->values, &leaf->indices};
    dl_buf *dst[] = {&leaf->pend_defs, &leaf->pend_reps, &leaf->pend_values, &leaf->pend_indices};
    for (size_t i = 0; i < DL_ARRAY_LEN(src); i++) {
        if (src[i]->len > 0) {
            DL_TRY(dl_buf_append(dst[i], src[i]->data, src[i]->len, err));
        }
    }
    return dl_buf_append(&leaf->pend_pages, &p, sizeof(p), err);
}

/* Ends the trial: writes the waiting pages in the mode decided. */
static dl_status
settle(dl_pq_wcol *col, dl_pq_wleaf *leaf, dl_pq_wmode mode, dl_error *err) {
    leaf->mode = mode;
    const dl_pq_wpend *pend = (const dl_pq_wpend *)(const void *)leaf->pend_pages.data;
    size_t n = leaf->pend_pages.len / sizeof(dl_pq_wpend);
    const uint16_t *defs = (const uint16_t *)(const void *)leaf->pend_defs.data;
    const uint16_t *reps = (const uint16_t *)(const void *)leaf->pend_reps.data;
    const uint32_t *indices = (const uint32_t *)(const void *)leaf->pend_indices.data;
    for (size_t i = 0; i < n; i++) {
        const dl_pq_wpend *p = &pend[i];
        dl_pq_wpage pg = {
            .defs = leaf->max_def > 0 ? defs + p->defs_at : NULL,
            .reps = leaf->max_rep > 0 ? reps + p->defs_at : NULL,
            .values = leaf->pend_values.data != NULL ? leaf->pend_values.data + p->values_at : NULL,
            .values_len = p->values_len,
            .indices = indices != NULL ? indices + p->indices_at : NULL,
            .levels = p->levels,
            .n_values = p->n_values,
            .rows = p->rows,
            .nulls = p->nulls,
            .first_row = p->first_row};
        DL_TRY(emit_page(col, leaf, &pg, err));
    }
    dl_buf *bufs[] = {&leaf->pend_defs, &leaf->pend_reps, &leaf->pend_values, &leaf->pend_indices,
                      &leaf->pend_pages};
    for (size_t i = 0; i < DL_ARRAY_LEN(bufs); i++) {
        dl_buf_reset(bufs[i]);
    }
    if (mode != DL_PQ_WMODE_DICT) {
        dl_pq_wdict_reset(&leaf->dict);
    }
    return DL_OK;
}

/* Whether dictionary + indices of the waiting pages are smaller than their PLAIN bytes. */
static bool
dict_pays(const dl_pq_wleaf *leaf) {
    size_t n = leaf->pend_indices.len / sizeof(uint32_t);
    size_t encoded = leaf->dict.values.len + n * dict_bits(leaf) / 8;
    return encoded < leaf->pend_values.len;
}

/* Judges the dictionary after a page was parked (see the file comment). */
static dl_status
judge(dl_pq_wcol *col, dl_pq_wleaf *leaf, bool is_chunk_end, dl_error *err) {
    if (leaf->dict.values.len > col->ctx->opts.dict_page_bytes) {
        return settle(col, leaf, DL_PQ_WMODE_PLAIN, err);
    }
    if (dict_pays(leaf)) {
        return settle(col, leaf, DL_PQ_WMODE_DICT, err);
    }
    if (is_chunk_end || leaf->pend_values.len > PEND_CAP) {
        return settle(col, leaf, DL_PQ_WMODE_PLAIN, err);
    }
    return DL_OK;
}

static dl_status
end_page(dl_pq_wcol *col, dl_pq_wleaf *leaf, dl_error *err) {
    int64_t first_row = leaf->chunk_rows;
    DL_TRY(add_index_entry(leaf, err));
    DL_TRY(dl_pq_wstats_merge(&leaf->chunk_stats, &leaf->page_stats, leaf->vk, err));
    leaf->chunk_levels += leaf->page_levels;
    leaf->chunk_rows += leaf->page_rows;
    if (leaf->mode == DL_PQ_WMODE_TRIAL) {
        DL_TRY(park_page(leaf, first_row, err));
        reset_page(leaf);
        return judge(col, leaf, false, err);
    }
    dl_pq_wpage pg = open_page(leaf, first_row);
    DL_TRY(emit_page(col, leaf, &pg, err));
    reset_page(leaf);
    if (leaf->mode == DL_PQ_WMODE_DICT && leaf->dict.values.len > col->ctx->opts.dict_page_bytes) {
        leaf->mode = DL_PQ_WMODE_PLAIN;
    }
    return DL_OK;
}

dl_status
dl_pq_wleaf_maybe_end_page(dl_pq_wcol *col, dl_pq_wleaf *leaf, dl_error *err) {
    const dl_pq_write_options *o = &col->ctx->opts;
    if (leaf->page_levels == 0) {
        return DL_OK;
    }
    bool is_full = leaf->page_rows >= o->page_rows || page_estimate(leaf) >= o->page_bytes;
    bool is_dict_full = (leaf->mode == DL_PQ_WMODE_DICT || leaf->mode == DL_PQ_WMODE_TRIAL) &&
                        leaf->dict.values.len > o->dict_page_bytes;
    if (is_full || is_dict_full) {
        return end_page(col, leaf, err);
    }
    return DL_OK;
}

dl_status
dl_pq_wleaf_end_chunk(dl_pq_wcol *col, dl_pq_wleaf *leaf, dl_error *err) {
    bool has_pages = n_data_pages(leaf) > 0 || leaf->pend_pages.len > 0;
    if (leaf->page_levels > 0 || !has_pages) {
        DL_TRY(end_page(col, leaf, err));
    }
    if (leaf->mode == DL_PQ_WMODE_TRIAL) {
        DL_TRY(judge(col, leaf, true, err));
    }
    dl_buf_reset(&leaf->dict_page);
    if (leaf->n_pages_dict == 0) {
        return DL_OK;
    }
    const dl_buf *vals = &leaf->dict.values;
    const uint8_t *payload = NULL;
    size_t payload_len = 0;
    DL_TRY(compress_body(col, vals->data, vals->len, &payload, &payload_len, err));
    DL_TRY(check_i32(vals->len, leaf, "dictionary size", err));
    DL_TRY(check_i32(payload_len, leaf, "compressed dictionary size", err));
    dl_pq_page_header ph;
    memset(&ph, 0, sizeof(ph));
    ph.type = DL_PQ_PAGE_DICTIONARY;
    ph.uncompressed_page_size = (int32_t)vals->len;
    ph.compressed_page_size = (int32_t)payload_len;
    ph.has_dictionary_page_header = true;
    ph.dictionary_page_header.num_values = (int32_t)leaf->dict.n_entries;
    ph.dictionary_page_header.encoding = DL_PQ_ENCODING_PLAIN;
    size_t page_len = 0;
    DL_TRY(emit_bytes(col, &ph, NULL, 0, payload, payload_len, &leaf->dict_page, &page_len, err));
    leaf->chunk_uncompressed += (int64_t)(col->header.len + vals->len);
    return DL_OK;
}

/* ---- The chunk's metadata ------------------------------------------------------------------ */

static dl_str
arena_str(dl_arena *arena, const uint8_t *p, size_t len) {
    if (len == 0) {
        return dl_str_make("", 0);
    }
    const char *copy = dl_arena_memdup(arena, p, len);
    return dl_str_make(copy, copy != NULL ? len : 0);
}

/*
 * The chunk's Statistics. A FLOAT/DOUBLE chunk holding NaN gets no min/max: the spec leaves
 * NaN out of the bounds (and nan_count says it is there), but readers that predate nan_count
 * -- parquet-mr, so Spark -- prune with them: `x > 5` skipped a chunk of {1, 3, NaN} whose
 * max said 3, dropping the NaN row (parquet-mr itself writes NaN as the max). Without bounds,
 * no reader prunes the chunk. Its pages get no ColumnIndex for the same reason
 * (add_index_entry).
 */
static dl_status
fill_statistics(dl_pq_wleaf *leaf, dl_arena *arena, dl_pq_statistics *st, dl_error *err) {
    memset(st, 0, sizeof(*st));
    st->null_count = leaf->chunk_stats.null_count;
    st->has_null_count = true;
    if (leaf->chunk_stats.nan_count > 0) {
        return DL_OK;
    }
    dl_buf tmp;
    dl_buf_init(&tmp, leaf->chunk.alloc);
    dl_pq_wbounds b;
    dl_status s = dl_pq_wstats_encode(&leaf->chunk_stats, &leaf->form, &tmp, &b, err);
    if (s == DL_OK && b.has_min) {
        st->min_value = arena_str(arena, tmp.data + b.min_off, b.min_len);
        st->has_min_value = true;
        st->is_min_value_exact = b.is_min_exact;
        st->has_is_min_value_exact = true;
    }
    if (s == DL_OK && b.has_max) {
        st->max_value = arena_str(arena, tmp.data + b.max_off, b.max_len);
        st->has_max_value = true;
        st->is_max_value_exact = b.is_max_exact;
        st->has_is_max_value_exact = true;
    }
    dl_buf_destroy(&tmp);
    DL_TRY(s);
    DL_CHECK(!arena->is_failed, err, DL_ERR_NOMEM, "Parquet writer: out of memory for statistics");
    bool is_signed = leaf->phys == DL_PQ_TYPE_BOOLEAN || leaf->phys == DL_PQ_TYPE_INT32 ||
                     leaf->phys == DL_PQ_TYPE_INT64 || leaf->phys == DL_PQ_TYPE_FLOAT ||
                     leaf->phys == DL_PQ_TYPE_DOUBLE;
    if (is_signed && st->has_min_value && st->has_max_value) {
        st->min = st->min_value;
        st->max = st->max_value;
        st->has_min = true;
        st->has_max = true;
    }
    return DL_OK;
}

static dl_status
fill_encodings(const dl_pq_wleaf *leaf, dl_arena *arena, dl_pq_column_metadata *md, dl_error *err) {
    dl_pq_encoding *enc = dl_arena_alloc_array(arena, 5, sizeof(dl_pq_encoding));
    dl_pq_page_encoding_stats *es = dl_arena_alloc_array(arena, 5, sizeof(*es));
    DL_CHECK(enc != NULL && es != NULL, err, DL_ERR_NOMEM,
             "Parquet writer: out of memory for column metadata");
    size_t n = 0;
    size_t n_es = 0;
    bool has_dict = leaf->n_pages_dict > 0;
    if (has_dict) {
        es[n_es++] = (dl_pq_page_encoding_stats){DL_PQ_PAGE_DICTIONARY, DL_PQ_ENCODING_PLAIN, 1};
        es[n_es++] = (dl_pq_page_encoding_stats){DL_PQ_PAGE_DATA, DL_PQ_ENCODING_RLE_DICTIONARY,
                                                 leaf->n_pages_dict};
        enc[n++] = DL_PQ_ENCODING_RLE_DICTIONARY;
    }
    if (has_dict || leaf->n_pages_plain > 0) {
        enc[n++] = DL_PQ_ENCODING_PLAIN;
    }
    if (leaf->n_pages_plain > 0) {
        es[n_es++] =
            (dl_pq_page_encoding_stats){DL_PQ_PAGE_DATA, DL_PQ_ENCODING_PLAIN, leaf->n_pages_plain};
    }
    if (leaf->n_pages_delta > 0) {
        enc[n++] = delta_encoding(leaf);
        es[n_es++] =
            (dl_pq_page_encoding_stats){DL_PQ_PAGE_DATA, delta_encoding(leaf), leaf->n_pages_delta};
    }
    if (leaf->n_pages_rle > 0) {
        es[n_es++] =
            (dl_pq_page_encoding_stats){DL_PQ_PAGE_DATA, DL_PQ_ENCODING_RLE, leaf->n_pages_rle};
    }
    enc[n++] = DL_PQ_ENCODING_RLE; /* the levels (and v2 booleans) */
    md->encodings = enc;
    md->n_encodings = n;
    md->encoding_stats = es;
    md->n_encoding_stats = n_es;
    md->has_encoding_stats = true;
    return DL_OK;
}

static dl_status
encode_column_index(const dl_pq_wleaf *leaf, dl_buf *out, dl_error *err) {
    size_t n = leaf->ci_null_pages.len;
    const dl_allocator *a = leaf->chunk.alloc;
    bool *nulls = dl_mem_alloc_array(a, n, sizeof(bool));
    dl_str *mins = dl_mem_alloc_array(a, n, sizeof(dl_str));
    dl_str *maxs = dl_mem_alloc_array(a, n, sizeof(dl_str));
    dl_status s = DL_ERR_NOMEM;
    if (nulls == NULL || mins == NULL || maxs == NULL) {
        (void)dl_error_set(err, DL_ERR_NOMEM, "Parquet writer: out of memory for a ColumnIndex");
        goto done;
    }
    const size_t *at = (const size_t *)(const void *)leaf->ci_bound_at.data;
    const char *base = (const char *)leaf->ci_bounds.data;
    for (size_t i = 0; i < n; i++) {
        nulls[i] = leaf->ci_null_pages.data[i] != 0;
        mins[i] = nulls[i] ? dl_str_make("", 0) : dl_str_make(base + at[4 * i], at[4 * i + 1]);
        maxs[i] = nulls[i] ? dl_str_make("", 0) : dl_str_make(base + at[4 * i + 2], at[4 * i + 3]);
    }
    dl_pq_column_index ci;
    memset(&ci, 0, sizeof(ci));
    ci.null_pages = nulls;
    ci.n_null_pages = n;
    ci.min_values = mins;
    ci.n_min_values = n;
    ci.max_values = maxs;
    ci.n_max_values = n;
    ci.boundary_order = leaf->is_asc    ? DL_PQ_BOUNDARY_ASCENDING
                        : leaf->is_desc ? DL_PQ_BOUNDARY_DESCENDING
                                        : DL_PQ_BOUNDARY_UNORDERED;
    ci.null_counts = (int64_t *)(void *)leaf->ci_null_counts.data;
    ci.n_null_counts = n;
    ci.has_null_counts = true;
    s = dl_pq_column_index_encode(&ci, out, err);
done:
    dl_mem_free(a, nulls, n * sizeof(bool));
    dl_mem_free(a, mins, n * sizeof(dl_str));
    dl_mem_free(a, maxs, n * sizeof(dl_str));
    return s;
}

static dl_status
encode_offset_index(const dl_pq_wleaf *leaf, int64_t data_offset, dl_buf *out, dl_error *err) {
    size_t n = leaf->oi_locs.len / sizeof(dl_pq_page_location);
    dl_pq_page_location *locs = (dl_pq_page_location *)(void *)leaf->oi_locs.data;
    for (size_t i = 0; i < n; i++) {
        locs[i].offset += data_offset;
    }
    dl_pq_offset_index oi;
    memset(&oi, 0, sizeof(oi));
    oi.page_locations = locs;
    oi.n_page_locations = n;
    dl_status s = dl_pq_offset_index_encode(&oi, out, err);
    for (size_t i = 0; i < n; i++) {
        locs[i].offset -= data_offset;
    }
    return s;
}

static void
reset_chunk(const dl_pq_writer_ctx *ctx, dl_pq_wleaf *leaf) {
    reset_page(leaf);
    dl_buf *bufs[] = {&leaf->chunk,       &leaf->dict_page,     &leaf->ci_bounds,
                      &leaf->ci_bound_at, &leaf->ci_null_pages, &leaf->ci_null_counts,
                      &leaf->oi_locs,     &leaf->pend_defs,     &leaf->pend_reps,
                      &leaf->pend_values, &leaf->pend_indices,  &leaf->pend_pages};
    for (size_t i = 0; i < DL_ARRAY_LEN(bufs); i++) {
        dl_buf_reset(bufs[i]);
    }
    dl_pq_wdict_reset(&leaf->dict);
    dl_pq_wstats_reset(&leaf->chunk_stats);
    leaf->mode = initial_mode(ctx, leaf);
    leaf->is_mode_final = false;
    leaf->chunk_uncompressed = 0;
    leaf->chunk_levels = 0;
    leaf->chunk_rows = 0;
    leaf->n_pages_dict = 0;
    leaf->n_pages_plain = 0;
    leaf->n_pages_delta = 0;
    leaf->n_pages_rle = 0;
    leaf->is_ci_valid = true;
    leaf->is_asc = true;
    leaf->is_desc = true;
    leaf->ci_last = 0;
}

dl_status
dl_pq_wleaf_close_chunk(const dl_pq_writer_ctx *ctx, dl_pq_wleaf *leaf, int64_t dict_offset,
                        int64_t data_offset, dl_arena *arena, dl_pq_column_metadata *md, dl_buf *ci,
                        bool *out_has_ci, dl_buf *oi, dl_error *err) {
    memset(md, 0, sizeof(*md));
    md->type = leaf->phys;
    md->path_in_schema = leaf->path_parts;
    md->n_path_in_schema = leaf->n_path_parts;
    md->codec = ctx->opts.codec;
    md->num_values = leaf->chunk_levels;
    md->total_uncompressed_size = leaf->chunk_uncompressed;
    md->total_compressed_size = (int64_t)(leaf->dict_page.len + leaf->chunk.len);
    md->data_page_offset = data_offset;
    if (leaf->dict_page.len > 0) {
        md->dictionary_page_offset = dict_offset;
        md->has_dictionary_page_offset = true;
    }
    DL_TRY(fill_encodings(leaf, arena, md, err));
    DL_TRY(fill_statistics(leaf, arena, &md->statistics, err));
    md->has_statistics = true;
    *out_has_ci = false;
    if (ctx->opts.is_page_index_enabled) {
        if (leaf->is_ci_valid) {
            DL_TRY(encode_column_index(leaf, ci, err));
            *out_has_ci = true;
        }
        DL_TRY(encode_offset_index(leaf, data_offset, oi, err));
    }
    DL_TRY(dl_pq_wstats_merge(&leaf->file_stats, &leaf->chunk_stats, leaf->vk, err));
    reset_chunk(ctx, leaf);
    return DL_OK;
}

int64_t
dl_pq_wleaf_buffered_bytes(const dl_pq_wleaf *leaf) {
    return leaf->chunk_uncompressed + (int64_t)page_estimate(leaf) +
           (int64_t)leaf->dict.values.len + (int64_t)leaf->pend_values.len;
}

int64_t
dl_pq_wleaf_written_bytes(const dl_pq_wleaf *leaf) {
    return (int64_t)(leaf->chunk.len + leaf->dict_page.len);
}
