/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The file footer (parquet-format README, "File Format"):
 *
 *     offset 0            "PAR1"
 *     4 .. M              column chunks (pages), page indexes, bloom filters
 *     M .. F-8            FileMetaData, Thrift compact protocol, L = F-8-M bytes
 *     F-8 .. F-4          L as a little-endian u32
 *     F-4 .. F            "PAR1"   ("PARE" when the footer is encrypted)
 *
 * So a reader fetches the file's tail, reads L from the trailer, and decodes the L bytes
 * before it. Every offset the metadata gives is then checked against this layout: column
 * chunk pages lie in [4, M), page indexes and bloom filters too (writers put them between the
 * pages and the footer). A footer that passes dl_pq_footer_parse can be used by the readers
 * without re-checking those ranges.
 *
 * Modular encryption (parquet-format Encryption.md) shows up three ways: the "PARE" magic
 * (encrypted footer), an encryption_algorithm in a plaintext footer, and column chunks with
 * crypto_metadata or encrypted_column_metadata. All three are DL_ERR_UNSUPPORTED.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "parquet/parquet_int.h"

static const uint8_t magic_plain[DL_PQ_MAGIC_LEN] = {'P', 'A', 'R', '1'};
static const uint8_t magic_encrypted[DL_PQ_MAGIC_LEN] = {'P', 'A', 'R', 'E'};

#define ENCRYPTION_HINT                                                                  \
    "decrypt the file with a reader that has its keys (Spark, parquet-mr or Arrow with " \
    "Parquet modular encryption configured) and rewrite it unencrypted"

static dl_status
fail_encrypted(dl_error *err, const char *how) {
    DL_ERROR_WHERE(err);
    (void)dl_error_set(err, DL_ERR_UNSUPPORTED, "Parquet modular encryption is not supported (%s)",
                       how);
    dl_error_hint(err, ENCRYPTION_HINT);
    return DL_ERR_UNSUPPORTED;
}

static dl_status
check_magic(const uint8_t *m, const char *which, dl_error *err) {
    if (memcmp(m, magic_plain, DL_PQ_MAGIC_LEN) == 0) {
        return DL_OK;
    }
    if (memcmp(m, magic_encrypted, DL_PQ_MAGIC_LEN) == 0) {
        return fail_encrypted(err, "'PARE' magic: encrypted footer");
    }
    DL_FAIL(err, DL_ERR_CORRUPT,
            "not a Parquet file: the %s magic is %02x %02x %02x %02x, expected 'PAR1'", which, m[0],
            m[1], m[2], m[3]);
}

dl_status
dl_pq_file_check_head(const uint8_t *head, size_t head_len, dl_error *err) {
    if (head_len < DL_PQ_MAGIC_LEN) {
        DL_FAIL(err, DL_ERR_CORRUPT, "not a Parquet file: %zu bytes are too few for the magic",
                head_len);
    }
    return check_magic(head, "leading", err);
}

static uint32_t
read_le32(const uint8_t *p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

dl_status
dl_pq_footer_size(const uint8_t *tail, size_t tail_len, int64_t file_size, size_t *out_needed,
                  dl_error *err) {
    const int64_t min_size = DL_PQ_MAGIC_LEN + DL_PQ_TRAILER_LEN;
    if (file_size < min_size) {
        DL_FAIL(err, DL_ERR_CORRUPT,
                "not a Parquet file: %lld bytes are fewer than the %lld of the magic, footer "
                "length and closing magic",
                (long long)file_size, (long long)min_size);
    }
    if (tail_len < DL_PQ_TRAILER_LEN || (uint64_t)tail_len > (uint64_t)file_size) {
        DL_FAIL(err, DL_ERR_INVALID_ARG,
                "footer tail of %zu bytes: need at least %d and at most the file size %lld",
                tail_len, DL_PQ_TRAILER_LEN, (long long)file_size);
    }
    const uint8_t *trailer = tail + tail_len - DL_PQ_TRAILER_LEN;
    DL_TRY(check_magic(trailer + 4, "closing", err));
    uint32_t len = read_le32(trailer);
    if ((int64_t)len > file_size - min_size) {
        DL_FAIL(err, DL_ERR_CORRUPT,
                "footer length %u does not fit in a file of %lld bytes (at most %lld)", len,
                (long long)file_size, (long long)(file_size - min_size));
    }
    if (len == 0) {
        DL_FAIL(err, DL_ERR_CORRUPT, "footer length is 0: the file has no FileMetaData");
    }
    *out_needed = (size_t)len + DL_PQ_TRAILER_LEN;
    return DL_OK;
}

void
dl_pq_column_chunk_range(const dl_pq_column_chunk *chunk, int64_t *out_offset, int64_t *out_len) {
    const dl_pq_column_metadata *m = &chunk->meta_data;
    /* Offsets below 4 point into the magic: writers use 0 for "none" (a dictionary_page_offset
     * of 0, or a data_page_offset of 0 in a chunk with only a dictionary page). */
    int64_t start = m->data_page_offset >= DL_PQ_MAGIC_LEN ? m->data_page_offset : INT64_MAX;
    if (m->has_dictionary_page_offset && m->dictionary_page_offset >= DL_PQ_MAGIC_LEN &&
        m->dictionary_page_offset < start) {
        start = m->dictionary_page_offset;
    }
    *out_offset = start == INT64_MAX ? m->data_page_offset : start;
    *out_len = m->total_compressed_size;
}

/* Context for validation messages. */
typedef struct chunk_ctx {
    const dl_pq_footer *f;
    size_t rg;
    size_t col;
    const dl_pq_schema_node *leaf;
} chunk_ctx;

static dl_status chunk_fail(const chunk_ctx *c, dl_status code, dl_error *err, const char *fmt, ...)
    DL_PRINTF(4, 5);

static dl_status
chunk_fail(const chunk_ctx *c, dl_status code, dl_error *err, const char *fmt, ...) {
    if (err == NULL) {
        return code;
    }
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    if (n < 0) {
        what[0] = '\0';
    }
    DL_ERROR_WHERE(err);
    return dl_error_set(err, code, "row group %zu, column %zu '%s': %s", c->rg, c->col,
                        c->leaf->path, what);
}

/* [offset, offset + len) must lie in [lo, hi). */
static bool
range_within(int64_t offset, int64_t len, int64_t lo, int64_t hi) {
    return offset >= lo && len >= 0 && offset <= hi && len <= hi - offset;
}

static dl_status
check_chunk_path(const chunk_ctx *c, const dl_pq_column_metadata *m, dl_error *err) {
    const dl_pq_schema_node *leaf = c->leaf;
    bool same = m->n_path_in_schema == leaf->n_path_parts;
    const dl_pq_schema_node *node = leaf;
    for (size_t k = m->n_path_in_schema; same && k > 0; k--, node = node->parent) {
        same = dl_str_eq(m->path_in_schema[k - 1], node->element->name);
    }
    if (!same) {
        char got[256];
        size_t used = 0;
        got[0] = '\0';
        for (size_t k = 0; k < m->n_path_in_schema && used + 1 < sizeof(got); k++) {
            int w = snprintf(got + used, sizeof(got) - used, "%s%.*s", k > 0 ? "." : "",
                             DL_STR_FMT(m->path_in_schema[k]));
            if (w < 0) {
                break;
            }
            used += (size_t)w < sizeof(got) - used ? (size_t)w : sizeof(got) - used - 1;
        }
        return chunk_fail(c, DL_ERR_CORRUPT, err,
                          "the column chunk's path_in_schema '%s' does not match the schema", got);
    }
    if (m->type != leaf->type) {
        return chunk_fail(c, DL_ERR_CORRUPT, err,
                          "the column chunk's type %s differs from the schema's %s",
                          dl_pq_type_name((int32_t)m->type), dl_pq_type_name((int32_t)leaf->type));
    }
    return DL_OK;
}

static dl_status
check_chunk_ranges(const chunk_ctx *c, const dl_pq_column_chunk *cc, dl_error *err) {
    const dl_pq_column_metadata *m = &cc->meta_data;
    int64_t data_end = c->f->metadata_offset;
    int64_t start = 0;
    int64_t len = 0;
    dl_pq_column_chunk_range(cc, &start, &len);
    if (!range_within(start, len, DL_PQ_MAGIC_LEN, data_end)) {
        return chunk_fail(c, DL_ERR_CORRUPT, err,
                          "pages at [%lld, +%lld) fall outside the data region [4, %lld)",
                          (long long)start, (long long)len, (long long)data_end);
    }
    bool has_data_pages = m->data_page_offset >= DL_PQ_MAGIC_LEN || m->num_values > 0;
    if (has_data_pages && len > 0 &&
        (m->data_page_offset < start || m->data_page_offset - start >= len)) {
        return chunk_fail(c, DL_ERR_CORRUPT, err,
                          "data_page_offset %lld is outside the chunk [%lld, +%lld)",
                          (long long)m->data_page_offset, (long long)start, (long long)len);
    }
    if (cc->has_column_index_offset &&
        !range_within(cc->column_index_offset,
                      cc->has_column_index_length ? cc->column_index_length : 0, DL_PQ_MAGIC_LEN,
                      data_end)) {
        return chunk_fail(c, DL_ERR_CORRUPT, err,
                          "column index at [%lld, +%d) falls outside the data region [4, %lld)",
                          (long long)cc->column_index_offset, (int)cc->column_index_length,
                          (long long)data_end);
    }
    if (cc->has_offset_index_offset &&
        !range_within(cc->offset_index_offset,
                      cc->has_offset_index_length ? cc->offset_index_length : 0, DL_PQ_MAGIC_LEN,
                      data_end)) {
        return chunk_fail(c, DL_ERR_CORRUPT, err,
                          "offset index at [%lld, +%d) falls outside the data region [4, %lld)",
                          (long long)cc->offset_index_offset, (int)cc->offset_index_length,
                          (long long)data_end);
    }
    if (m->has_bloom_filter_offset &&
        !range_within(m->bloom_filter_offset,
                      m->has_bloom_filter_length ? m->bloom_filter_length : 0, DL_PQ_MAGIC_LEN,
                      data_end)) {
        return chunk_fail(c, DL_ERR_CORRUPT, err,
                          "bloom filter at [%lld, +%d) falls outside the data region [4, %lld)",
                          (long long)m->bloom_filter_offset, (int)m->bloom_filter_length,
                          (long long)data_end);
    }
    return DL_OK;
}

static dl_status
check_chunk(const chunk_ctx *c, const dl_pq_row_group *rg, const dl_pq_column_chunk *cc,
            dl_error *err) {
    if (cc->has_crypto_metadata || cc->has_encrypted_column_metadata) {
        (void)chunk_fail(c, DL_ERR_UNSUPPORTED, err,
                         "Parquet modular encryption is not supported (encrypted column)");
        dl_error_hint(err, ENCRYPTION_HINT);
        return DL_ERR_UNSUPPORTED;
    }
    if (cc->has_file_path) {
        return chunk_fail(c, DL_ERR_UNSUPPORTED, err,
                          "column chunks stored in another file ('%.*s') are not supported",
                          DL_STR_FMT(cc->file_path));
    }
    if (!cc->has_meta_data) {
        return chunk_fail(c, DL_ERR_CORRUPT, err, "the column chunk has no meta_data");
    }
    const dl_pq_column_metadata *m = &cc->meta_data;
    DL_TRY(check_chunk_path(c, m, err));
    DL_TRY(check_chunk_ranges(c, cc, err));
    if (c->leaf->max_rep_level == 0 && m->num_values != rg->num_rows) {
        return chunk_fail(c, DL_ERR_CORRUPT, err,
                          "%lld values in a non-repeated column of a row group of %lld rows",
                          (long long)m->num_values, (long long)rg->num_rows);
    }
    if (c->leaf->max_rep_level > 0 && m->num_values < rg->num_rows) {
        return chunk_fail(c, DL_ERR_CORRUPT, err,
                          "%lld values in a repeated column of a row group of %lld rows",
                          (long long)m->num_values, (long long)rg->num_rows);
    }
    return DL_OK;
}

static dl_status
check_row_groups(const dl_pq_footer *f, dl_error *err) {
    const dl_pq_file_metadata *md = &f->meta;
    for (size_t g = 0; g < md->n_row_groups; g++) {
        const dl_pq_row_group *rg = &md->row_groups[g];
        if (rg->n_columns != f->schema.n_leaves) {
            DL_FAIL(err, DL_ERR_CORRUPT,
                    "row group %zu has %zu column chunks but the schema has %zu leaf columns", g,
                    rg->n_columns, f->schema.n_leaves);
        }
        for (size_t i = 0; i < rg->n_columns; i++) {
            chunk_ctx c = {.f = f, .rg = g, .col = i, .leaf = f->schema.leaves[i]};
            DL_TRY(check_chunk(&c, rg, &rg->columns[i], err));
        }
    }
    return DL_OK;
}

dl_status
dl_pq_footer_parse(const uint8_t *tail, size_t tail_len, int64_t file_size, dl_arena *arena,
                   dl_pq_footer **out, dl_error *err) {
    size_t needed = 0;
    DL_TRY(dl_pq_footer_size(tail, tail_len, file_size, &needed, err));
    if (tail_len < needed) {
        DL_FAIL(err, DL_ERR_INVALID_ARG,
                "footer tail of %zu bytes is shorter than the %zu the footer needs", tail_len,
                needed);
    }
    if ((int64_t)tail_len == file_size) {
        DL_TRY(dl_pq_file_check_head(tail, tail_len, err));
    }
    size_t meta_len = needed - DL_PQ_TRAILER_LEN;
    const uint8_t *meta = tail + tail_len - needed;
    dl_pq_footer *f = dl_arena_alloc_zero(arena, sizeof(*f));
    uint8_t *copy = dl_arena_memdup(arena, meta, meta_len);
    if (f == NULL || copy == NULL) {
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory reading a %zu-byte Parquet footer", meta_len);
    }
    f->file_size = file_size;
    f->metadata_offset = file_size - (int64_t)needed;
    f->metadata_len = (uint32_t)meta_len;
    DL_TRY(
        dl_pq_file_metadata_decode(copy, meta_len, f->metadata_offset, arena, &f->meta, NULL, err));
    if (f->meta.has_encryption_algorithm) {
        return fail_encrypted(err, "plaintext footer with encrypted columns");
    }
    DL_TRY(dl_pq_schema_build(&f->meta, arena, &f->schema, err));
    f->writer = dl_pq_writer_version_parse(f->meta.created_by);
    DL_TRY(check_row_groups(f, err));
    *out = f;
    return DL_OK;
}
