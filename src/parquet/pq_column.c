/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The leaf column reader: one column chunk's pages turned into level entries and values.
 *
 * A column chunk holds, per level entry (Dremel), a repetition level (0 starts a record), a
 * definition level (max_def means a value is present) and, for present entries only, the value
 * (parquet-format README "Nested Encoding", "Data Pages"). A data page holds num_values
 * entries: v1 pages keep levels and values in the compressed body, v2 pages keep the levels
 * in front, uncompressed (pq_page.c).
 *
 * A batch asks for n records. Flat columns (max_rep 0) have one entry per record, so the
 * reader takes exactly n entries, page after page. Repeated columns need their repetition
 * levels to find record ends: levels are decoded ahead from the current page into a small
 * look-ahead buffer (never more than a page's worth, never more than LOOKAHEAD entries), the
 * batch consumes entries up to the rep-0 entry that would start record n + 1, and the values
 * of the consumed present entries are decoded from the same page before the reader moves on,
 * so levels and values never get out of step across pages.
 *
 * Values are appended densely (present entries only) to the leaf's vector; pq_assemble.c later
 * spreads them to their slots. A dictionary page is decoded once per chunk into a vector of the
 * output type; dictionary-encoded pages then either gather from it (into FLAT vectors) or, for
 * flat string columns, keep the indices (a DICT vector over it). A chunk that falls back from
 * dictionary to plain pages mid-batch turns the batch FLAT.
 *
 * Skipping: dl_pq_col_seek moves to a later record. With a page plan (the chunk's OffsetIndex,
 * pq_reader_index.c) it jumps straight to the page holding the record, fetching the run of
 * needed pages that starts there; either way the records before it in the page are decoded
 * and dropped (levels and values, so decoders stay in step). In plan mode the pages read must
 * be the ones the OffsetIndex lists, where it lists them, with the rows it gives them.
 *
 * Hardening: every count a header declares is checked against what is left (page entries
 * against the chunk's num_values, dictionary sizes against the page bytes) before anything is
 * allocated from it; levels above their maximum, a record that does not start at repetition
 * level 0, and a repetition level whose definition level is too low to repeat are CORRUPT.
 */
#include <stdint.h>
#include <string.h>

#include "parquet/pq_reader_int.h"

#define LOOKAHEAD 1024 /* level entries decoded ahead for repeated columns */

/*
 * Slack added to the value count an RLE/bit-packed section is opened with. Writers pad their
 * last bit-packed run past the page's values (DuckDB writes runs of 256 with fewer values
 * left; Arrow and parquet-mr read them), and the decoder refuses runs longer than the count it
 * was given. The reader never takes more values than the page holds, so the slack only lets
 * such a run be opened; a section with too few values is still CORRUPT when they are taken.
 */
#define RLE_SLACK   1024
#define VALUE_CHUNK 1024 /* values decoded per call into scratch */
#define SKIP_STEP   4096 /* records skipped per round (bounds the level buffers) */

/* ---- Lifecycle -------------------------------------------------------------------------- */

dl_status
dl_pq_col_init(dl_pq_col *col, const dl_pq_field *leaf, const dl_allocator *alloc, bool may_dict,
               bool utf8_unchecked, int64_t max_values, dl_error *err) {
    memset(col, 0, sizeof(*col));
    col->leaf = leaf;
    col->node = leaf->node;
    col->alloc = alloc;
    col->conv = (dl_pq_conv)leaf->conv;
    col->type = leaf->type;
    col->max_def = leaf->node->max_def_level;
    col->max_rep = leaf->node->max_rep_level;
    col->may_dict = may_dict;
    col->utf8_unchecked = utf8_unchecked;
    col->max_values = max_values;
    dl_arena_init(&col->page_arena, alloc, 4096);
    dl_arena_init(&col->scratch_arena, alloc, 4096);
    dl_pq_codec_ctx_init(&col->codec, alloc);
    if (col->max_rep > 0) {
        col->la_def = dl_mem_alloc_array(alloc, LOOKAHEAD, sizeof(uint16_t));
        col->la_rep = dl_mem_alloc_array(alloc, LOOKAHEAD, sizeof(uint16_t));
        DL_CHECK(col->la_def != NULL && col->la_rep != NULL, err, DL_ERR_NOMEM,
                 "out of memory for the levels of column '%s'", col->node->path);
    }
    return DL_OK;
}

static void
drop_page(dl_pq_col *col) {
    if (col->has_page) {
        dl_pq_page_release(&col->pages, &col->page);
        col->has_page = false;
    }
    col->page_left = 0;
    dl_arena_reset(&col->page_arena);
}

static void
drop_chunk(dl_pq_col *col) {
    drop_page(col);
    if (col->is_open) {
        dl_pq_pages_close(&col->pages);
        col->is_open = false;
    }
    dl_vec_unref(col->dict);
    col->dict = NULL;
    col->la_pos = 0;
    col->la_len = 0;
    col->values_left = 0;
}

void
dl_pq_col_destroy(dl_pq_col *col) {
    drop_chunk(col);
    dl_pq_pages_free_spares(&col->pages);
    dl_pq_codec_ctx_destroy(&col->codec);
    dl_arena_destroy(&col->page_arena);
    dl_arena_destroy(&col->scratch_arena);
    dl_mem_free(col->alloc, col->la_def, col->la_def ? LOOKAHEAD * sizeof(uint16_t) : 0);
    dl_mem_free(col->alloc, col->la_rep, col->la_rep ? LOOKAHEAD * sizeof(uint16_t) : 0);
    size_t level_bytes = (size_t)col->cap_levels * sizeof(uint16_t);
    dl_mem_free(col->alloc, col->def, col->def ? level_bytes : 0);
    dl_mem_free(col->alloc, col->rep, col->rep ? level_bytes : 0);
    dl_mem_free(col->alloc, col->scratch, col->scratch_bytes);
    memset(col, 0, sizeof(*col));
}

static dl_status next_data_page(dl_pq_col *col, dl_error *err);
static dl_status page_fail_ctx(const dl_pq_col *col, dl_status s, dl_error *err);
static dl_status dict_page(dl_pq_col *col, dl_error *err);

/* Plan mode: reads the pages before the first data page the OffsetIndex lists (the
 * dictionary page, if any). */
static dl_status
read_dict_region(dl_pq_col *col, dl_error *err) {
    int64_t start = 0;
    int64_t len = 0;
    dl_pq_column_chunk_range(col->chunk, &start, &len);
    int64_t first = col->plan->locs[0].offset;
    if (first <= start) {
        return DL_OK;
    }
    DL_TRY(dl_pq_pages_window(&col->pages, start, (size_t)(first - start), err));
    while (dl_pq_pages_has_next(&col->pages)) {
        DL_TRY(dl_pq_pages_next(&col->pages, &col->page, err));
        col->has_page = true;
        dl_pq_page_type type = col->page.hdr.type;
        DL_CHECK(type != DL_PQ_PAGE_DATA && type != DL_PQ_PAGE_DATA_V2, err, DL_ERR_CORRUPT,
                 "a data page before the first page the offset index lists (at offset %lld)",
                 (long long)first);
        if (type == DL_PQ_PAGE_DICTIONARY) {
            DL_TRY(dict_page(col, err));
        } else {
            drop_page(col);
        }
    }
    return DL_OK;
}

dl_status
dl_pq_col_open_chunk(dl_pq_col *col, dl_pq_file *file, int32_t rg, bool check_crc,
                     size_t max_page_size, bool prefetch, const dl_pq_page_plan *plan,
                     int64_t first_row, dl_error *err) {
    drop_chunk(col);
    col->rg = rg;
    col->chunk = &file->footer->meta.row_groups[rg].columns[col->node->leaf_index];
    col->row = 0;
    col->plan = plan;
    col->plan_page = -1;
    col->plan_next = 0;
    col->page_recs = 0;
    DL_TRY(dl_pq_pages_open(&col->pages, file, col->alloc, &col->codec, col->chunk, check_crc,
                            max_page_size, plan != NULL, err));
    col->is_open = true;
    col->has_data_page = false;
    col->values_left = col->chunk->meta_data.num_values;
    if (plan != NULL) {
        DL_TRY(page_fail_ctx(col, read_dict_region(col, err), err));
        return prefetch ? dl_pq_col_seek(col, first_row, err) : DL_OK;
    }
    if (prefetch && col->values_left > 0) {
        DL_TRY(page_fail_ctx(col, next_data_page(col, err), err));
        return first_row > 0 ? dl_pq_col_seek(col, first_row, err) : DL_OK;
    }
    return DL_OK;
}

/* CORRUPT when a data page with values follows the ones the chunk's num_values covered. */
static dl_status
check_no_more_pages(dl_pq_col *col, dl_error *err) {
    while (col->is_open && dl_pq_pages_has_next(&col->pages)) {
        dl_pq_page page;
        DL_TRY(dl_pq_pages_next(&col->pages, &page, err));
        int32_t n = page.hdr.type == DL_PQ_PAGE_DATA      ? page.hdr.data_page_header.num_values
                    : page.hdr.type == DL_PQ_PAGE_DATA_V2 ? page.hdr.data_page_header_v2.num_values
                                                          : 0;
        dl_pq_page_release(&col->pages, &page);
        DL_CHECK(n == 0, err, DL_ERR_CORRUPT,
                 "page %d at offset %lld holds %d more values than the column chunk's %lld",
                 (int)page.index, (long long)page.offset, (int)n,
                 (long long)col->chunk->meta_data.num_values);
    }
    return DL_OK;
}

dl_status
dl_pq_col_close_chunk(dl_pq_col *col, bool check_end, dl_error *err) {
    int64_t left = col->values_left + col->page_left + (int64_t)(col->la_len - col->la_pos);
    dl_status s = DL_OK;
    if (check_end && left != 0) {
        s = dl_error_set(err, DL_ERR_CORRUPT,
                         "%lld level entries are left over after the row group's last row (the "
                         "column has more values than the row group has rows)",
                         (long long)left);
    } else if (check_end) {
        s = check_no_more_pages(col, err);
    }
    drop_chunk(col);
    return s;
}

/* ---- Levels ------------------------------------------------------------------------------- */

static dl_status
level_init_v1(dl_pq_level_dec *dec, dl_pq_encoding enc, const uint8_t *data, size_t len,
              int16_t max_level, int64_t n, size_t page_offset, size_t *used, dl_error *err) {
    memset(dec, 0, sizeof(*dec));
    dec->bit_width = dl_pq_bit_width((uint64_t)max_level);
    dec->page_offset = page_offset;
    if (enc == DL_PQ_ENCODING_RLE) {
        dec->kind = 1;
        return dl_pq_rle_decoder_init_prefixed(&dec->rle, data, len, dec->bit_width,
                                               (uint64_t)n + RLE_SLACK, page_offset, used, err);
    }
    if (enc == DL_PQ_ENCODING_BIT_PACKED) {
        uint64_t bytes = ((uint64_t)n * dec->bit_width + 7) / 8;
        DL_CHECK(bytes <= len, err, DL_ERR_CORRUPT,
                 "BIT_PACKED levels at byte %zu: %lld levels need %llu bytes, the page has %zu",
                 page_offset, (long long)n, (unsigned long long)bytes, len);
        dec->kind = 2;
        dec->bp_data = data;
        dec->bp_len = (size_t)bytes;
        *used = (size_t)bytes;
        return DL_OK;
    }
    DL_FAIL(err, DL_ERR_UNSUPPORTED, "levels in the %s encoding (%d) are not supported",
            dl_pq_encoding_name(enc), (int)enc);
}

static dl_status
level_init_v2(dl_pq_level_dec *dec, const uint8_t *data, size_t len, int16_t max_level, int64_t n,
              size_t page_offset, dl_error *err) {
    memset(dec, 0, sizeof(*dec));
    dec->bit_width = dl_pq_bit_width((uint64_t)max_level);
    dec->page_offset = page_offset;
    dec->kind = 1;
    return dl_pq_rle_decoder_init(&dec->rle, data, len, dec->bit_width, (uint64_t)n + RLE_SLACK,
                                  page_offset, err);
}

/* Decodes n levels and checks each against max_level. */
static dl_status
level_decode(dl_pq_level_dec *dec, size_t n, uint16_t *out, int16_t max_level, const char *what,
             dl_error *err) {
    switch (dec->kind) {
    case 0:
        for (size_t i = 0; i < n; i++) {
            out[i] = dec->constant;
        }
        return DL_OK;
    case 1:
        DL_TRY(dl_pq_rle_decode_u16(&dec->rle, n, out, err));
        break;
    default:
        DL_TRY(dl_pq_bit_packed_decode_u16(dec->bp_data, dec->bp_len, dec->bit_width, dec->bp_pos,
                                           n, out, dec->page_offset, err));
        dec->bp_pos += n;
        break;
    }
    uint16_t max = (uint16_t)max_level;
    uint16_t worst = 0;
    for (size_t i = 0; i < n; i++) {
        worst = out[i] > worst ? out[i] : worst;
    }
    DL_CHECK(worst <= max, err, DL_ERR_CORRUPT, "a %s level of %u exceeds the column's maximum %u",
             what, (unsigned)worst, (unsigned)max);
    return DL_OK;
}

/* ---- Dictionary pages ---------------------------------------------------------------------- */

/* The fewest bytes one PLAIN value of the column can take (bits for BOOLEAN: 0). */
static size_t
plain_min_bytes(const dl_pq_schema_node *node) {
    switch (node->type) {
    case DL_PQ_TYPE_BOOLEAN:
        return 0;
    case DL_PQ_TYPE_INT32:
    case DL_PQ_TYPE_FLOAT:
    case DL_PQ_TYPE_BYTE_ARRAY:
        return 4;
    case DL_PQ_TYPE_INT96:
        return DL_PQ_INT96_SIZE;
    case DL_PQ_TYPE_FIXED_LEN_BYTE_ARRAY:
        return (size_t)node->type_length;
    default:
        return 8;
    }
}

static dl_status
ensure_scratch(dl_pq_col *col, size_t bytes, dl_error *err) {
    if (col->scratch_bytes >= bytes) {
        return DL_OK;
    }
    void *p = dl_mem_realloc(col->alloc, col->scratch, col->scratch_bytes, bytes);
    DL_CHECK(p != NULL, err, DL_ERR_NOMEM, "out of memory for %zu bytes of scratch", bytes);
    col->scratch = p;
    col->scratch_bytes = bytes;
    return DL_OK;
}

/* Values per decode call and the scratch they need. */
static size_t
value_chunk(const dl_pq_col *col) {
    size_t width = (size_t)col->node->type_length;
    if (width > 1024) {
        return DL_MAX((size_t)1, ((size_t)1 << 20) / width);
    }
    return VALUE_CHUNK;
}

static size_t
value_scratch_bytes(const dl_pq_col *col) {
    return value_chunk(col) * (sizeof(dl_str) + DL_MAX((size_t)16, (size_t)col->node->type_length));
}

/*
 * Decodes c physical values of a PLAIN or other non-dictionary section into phys, which
 * points into col->scratch or the page.
 */
static dl_status
decode_phys(dl_pq_col *col, size_t c, dl_pq_phys *phys, dl_error *err) {
    dl_pq_value_dec *v = &col->val;
    const dl_pq_schema_node *node = col->node;
    size_t width = node->type == DL_PQ_TYPE_FIXED_LEN_BYTE_ARRAY ? (size_t)node->type_length
                                                                 : plain_min_bytes(node);
    DL_TRY(ensure_scratch(col, value_scratch_bytes(col), err));
    memset(phys, 0, sizeof(*phys));
    phys->type = node->type;
    phys->n = c;
    phys->heap = col->page.heap;
    dl_str *strs = col->scratch;
    uint8_t *bytes = (uint8_t *)col->scratch + value_chunk(col) * sizeof(dl_str);
    bool is_strs =
        node->type == DL_PQ_TYPE_BYTE_ARRAY || node->type == DL_PQ_TYPE_FIXED_LEN_BYTE_ARRAY;
    phys->fixed = is_strs ? NULL : col->scratch;
    phys->strs = is_strs ? strs : NULL;
    switch (v->encoding) {
    case DL_PQ_ENCODING_PLAIN:
        if (node->type == DL_PQ_TYPE_BOOLEAN) {
            return dl_pq_plain_decode_bool(&v->plain, c, col->scratch, err);
        }
        if (node->type == DL_PQ_TYPE_BYTE_ARRAY) {
            return dl_pq_plain_decode_byte_array(&v->plain, c, strs, err);
        }
        if (node->type == DL_PQ_TYPE_FIXED_LEN_BYTE_ARRAY) {
            const uint8_t *at;
            DL_TRY(dl_pq_plain_view_fixed(&v->plain, width, c, &at, err));
            for (size_t i = 0; i < c; i++) {
                strs[i] = dl_str_make((const char *)at + i * width, width);
            }
            return DL_OK;
        }
        return dl_pq_plain_decode_fixed(&v->plain, width, c, col->scratch, err);
    case DL_PQ_ENCODING_RLE:
        return dl_pq_rle_decode_u8(&v->rle, c, col->scratch, err);
    case DL_PQ_ENCODING_DELTA_BINARY_PACKED:
        return node->type == DL_PQ_TYPE_INT32
                   ? dl_pq_delta_decode_i32(&v->delta, c, col->scratch, err)
                   : dl_pq_delta_decode_i64(&v->delta, c, col->scratch, err);
    case DL_PQ_ENCODING_DELTA_LENGTH_BYTE_ARRAY:
        return dl_pq_dlba_decode(&v->dlba, c, strs, err);
    case DL_PQ_ENCODING_DELTA_BYTE_ARRAY:
        dl_arena_reset(&col->scratch_arena);
        return dl_pq_dba_decode(&v->dba, c, strs, &col->scratch_arena, err);
    default: /* BYTE_STREAM_SPLIT */
        if (!is_strs) {
            return dl_pq_bss_decode(&v->bss, c, col->scratch, err);
        }
        DL_TRY(dl_pq_bss_decode(&v->bss, c, bytes, err));
        for (size_t i = 0; i < c; i++) {
            strs[i] = dl_str_make((const char *)bytes + i * width, width);
        }
        phys->heap = NULL;
        return DL_OK;
    }
}

/* Appends n decoded values to out through scratch, VALUE_CHUNK at a time. */
static dl_status
append_decoded(dl_pq_col *col, size_t n, dl_vector *out, dl_error *err) {
    DL_TRY(dl_pq_vec_room(out, (int64_t)n, err));
    size_t step = value_chunk(col);
    for (size_t done = 0; done < n;) {
        size_t c = DL_MIN(step, n - done);
        dl_pq_phys phys;
        DL_TRY(decode_phys(col, c, &phys, err));
        DL_TRY(dl_pq_conv_append(col->conv, col->type, &phys, col->utf8_unchecked, out, err));
        done += c;
    }
    return DL_OK;
}

static dl_status
load_dict(dl_pq_col *col, const dl_pq_page *page, dl_error *err) {
    const dl_pq_dictionary_page_header *h = &col->page.hdr.dictionary_page_header;
    DL_CHECK(h->encoding == DL_PQ_ENCODING_PLAIN || h->encoding == DL_PQ_ENCODING_PLAIN_DICTIONARY,
             err, DL_ERR_UNSUPPORTED, "a dictionary page in the %s encoding (%d)",
             dl_pq_encoding_name(h->encoding), (int)h->encoding);
    DL_CHECK(h->num_values >= 0, err, DL_ERR_CORRUPT, "the dictionary page declares %d values",
             (int)h->num_values);
    size_t n = (size_t)h->num_values;
    size_t min = plain_min_bytes(col->node);
    bool fits = min == 0 ? n / 8 <= page->body_len : n <= page->body_len / DL_MAX(min, 1);
    DL_CHECK(fits, err, DL_ERR_CORRUPT,
             "the dictionary page declares %zu values but holds only %zu bytes", n, page->body_len);
    if (col->conv == DL_PQ_CONV_VOID) {
        return DL_OK;
    }
    DL_TRY(dl_vec_new(col->alloc, col->type, (int64_t)n, &col->dict, err));
    dl_pq_plain_decoder_init(&col->val.plain, page->body, page->body_len, 0);
    col->val.encoding = DL_PQ_ENCODING_PLAIN;
    col->val.is_dict = false;
    DL_TRY(append_decoded(col, n, col->dict, err));
    col->dict_pages_read++;
    return DL_OK;
}

/* ---- Data pages ----------------------------------------------------------------------------- */

static dl_status
init_values(dl_pq_col *col, dl_pq_encoding enc, const uint8_t *data, size_t len, size_t at,
            int64_t n, dl_error *err) {
    dl_pq_value_dec *v = &col->val;
    const dl_pq_schema_node *node = col->node;
    dl_pq_type t = node->type;
    v->encoding = enc;
    v->is_dict = false;
    v->is_empty =
        len == 0 && (enc == DL_PQ_ENCODING_RLE || enc == DL_PQ_ENCODING_PLAIN_DICTIONARY ||
                     enc == DL_PQ_ENCODING_RLE_DICTIONARY);
    if (col->conv == DL_PQ_CONV_VOID) {
        return DL_OK;
    }
    switch (enc) {
    case DL_PQ_ENCODING_PLAIN:
        dl_pq_plain_decoder_init(&v->plain, data, len, at);
        return DL_OK;
    case DL_PQ_ENCODING_PLAIN_DICTIONARY:
    case DL_PQ_ENCODING_RLE_DICTIONARY:
        DL_CHECK(col->dict != NULL, err, DL_ERR_CORRUPT,
                 "a %s page, but the column chunk has no dictionary page",
                 dl_pq_encoding_name(enc));
        v->is_dict = true;
        return dl_pq_dict_indices_init(&v->rle, data, len, len == 0 ? 0 : (uint64_t)n + RLE_SLACK,
                                       at, err);
    case DL_PQ_ENCODING_RLE:
        if (t != DL_PQ_TYPE_BOOLEAN) {
            break;
        }
        if (len == 0) { /* no values (all null): nothing to read */
            return dl_pq_rle_decoder_init(&v->rle, data, 0, 1, 0, at, err);
        }
        size_t used = 0;
        return dl_pq_rle_decoder_init_prefixed(&v->rle, data, len, 1, (uint64_t)n + RLE_SLACK, at,
                                               &used, err);
    case DL_PQ_ENCODING_DELTA_BINARY_PACKED:
        if (t != DL_PQ_TYPE_INT32 && t != DL_PQ_TYPE_INT64) {
            break;
        }
        return dl_pq_delta_decoder_init(&v->delta, data, len, t == DL_PQ_TYPE_INT32, at, err);
    case DL_PQ_ENCODING_DELTA_LENGTH_BYTE_ARRAY:
        if (t != DL_PQ_TYPE_BYTE_ARRAY) {
            break;
        }
        return dl_pq_dlba_decoder_init(&v->dlba, data, len, (uint64_t)n, at, &col->page_arena, err);
    case DL_PQ_ENCODING_DELTA_BYTE_ARRAY:
        if (t != DL_PQ_TYPE_BYTE_ARRAY && t != DL_PQ_TYPE_FIXED_LEN_BYTE_ARRAY) {
            break;
        }
        return dl_pq_dba_decoder_init(&v->dba, data, len, (uint64_t)n,
                                      t == DL_PQ_TYPE_FIXED_LEN_BYTE_ARRAY ? node->type_length : -1,
                                      at, &col->page_arena, err);
    case DL_PQ_ENCODING_BYTE_STREAM_SPLIT:
        if (t == DL_PQ_TYPE_BOOLEAN || t == DL_PQ_TYPE_BYTE_ARRAY || t == DL_PQ_TYPE_INT96) {
            break;
        }
        return dl_pq_bss_decoder_init(&v->bss, data, len,
                                      t == DL_PQ_TYPE_FIXED_LEN_BYTE_ARRAY
                                          ? (size_t)node->type_length
                                          : plain_min_bytes(node),
                                      at, err);
    default:
        DL_FAIL(err, DL_ERR_UNSUPPORTED, "the %s encoding (%d) is not supported",
                dl_pq_encoding_name(enc), (int)enc);
    }
    DL_FAIL(err, DL_ERR_CORRUPT, "the %s encoding is not valid for a %s column",
            dl_pq_encoding_name(enc), dl_pq_type_name(t));
}

static dl_status
setup_v1(dl_pq_col *col, int64_t n, dl_error *err) {
    const dl_pq_data_page_header *h = &col->page.hdr.data_page_header;
    const uint8_t *body = col->page.body;
    size_t len = col->page.body_len;
    size_t pos = 0;
    size_t used = 0;
    if (col->max_rep > 0) {
        DL_TRY(level_init_v1(&col->rep_dec, h->repetition_level_encoding, body, len, col->max_rep,
                             n, 0, &used, err));
        pos += used;
    }
    if (col->max_def > 0) {
        DL_TRY(level_init_v1(&col->def_dec, h->definition_level_encoding, body + pos, len - pos,
                             col->max_def, n, pos, &used, err));
        pos += used;
    }
    return init_values(col, h->encoding, body + pos, len - pos, pos, n, err);
}

static dl_status
setup_v2(dl_pq_col *col, int64_t n, dl_error *err) {
    const dl_pq_data_page_header_v2 *h = &col->page.hdr.data_page_header_v2;
    size_t rep_len = (size_t)h->repetition_levels_byte_length;
    size_t def_len = (size_t)h->definition_levels_byte_length;
    const uint8_t *levels = col->page.levels;
    if (col->max_rep > 0) {
        DL_TRY(level_init_v2(&col->rep_dec, levels, rep_len, col->max_rep, n, 0, err));
    }
    if (col->max_def > 0 && def_len == 0 && h->num_nulls == 0) {
        memset(&col->def_dec, 0, sizeof(col->def_dec));
        col->def_dec.constant = (uint16_t)col->max_def; /* no nulls: some writers omit them */
    } else if (col->max_def > 0) {
        DL_TRY(
            level_init_v2(&col->def_dec, levels + rep_len, def_len, col->max_def, n, rep_len, err));
    }
    int64_t n_values = n;
    if (h->num_nulls >= 0 && h->num_nulls <= n) {
        n_values = n - h->num_nulls;
    }
    return init_values(col, h->encoding, col->page.body, col->page.body_len, rep_len + def_len,
                       n_values, err);
}

/* Page context for messages raised while the page is current. */
static dl_status
page_fail_ctx(const dl_pq_col *col, dl_status s, dl_error *err) {
    if (s != DL_OK && col->has_page) {
        dl_error_prefix(err, "page %d at offset %lld", (int)col->page.index,
                        (long long)col->page.offset);
    }
    return s;
}

static int32_t
page_entries(const dl_pq_page *page) {
    return page->hdr.type == DL_PQ_PAGE_DATA_V2 ? page->hdr.data_page_header_v2.num_values
                                                : page->hdr.data_page_header.num_values;
}

/* Decodes the current page, a dictionary page, into col->dict and drops it. */
static dl_status
dict_page(dl_pq_col *col, dl_error *err) {
    DL_CHECK(col->dict == NULL && !col->has_data_page, err, DL_ERR_CORRUPT,
             "a dictionary page after %s",
             col->dict != NULL ? "another dictionary page" : "data pages");
    DL_TRY(load_dict(col, &col->page, err));
    drop_page(col);
    return DL_OK;
}

/* Plan mode, repeated columns: the page just finished held the records the OffsetIndex
 * gives it (flat pages are checked by their entry count as they start). */
static dl_status
check_page_records(const dl_pq_col *col, dl_error *err) {
    if (col->plan == NULL || col->max_rep == 0 || col->plan_page < 0) {
        return DL_OK;
    }
    const dl_pq_page_location *loc = &col->plan->locs[col->plan_page];
    int64_t want = dl_pq_page_plan_end(col->plan, (size_t)col->plan_page) - loc->first_row_index;
    DL_CHECK(col->page_recs == want, err, DL_ERR_CORRUPT,
             "page %d at offset %lld holds %lld rows, but the offset index gives it %lld",
             (int)col->page.index, (long long)loc->offset, (long long)col->page_recs,
             (long long)want);
    return DL_OK;
}

/* Plan mode: the data page just read must be the next one the OffsetIndex lists, and a flat
 * column's page must hold the rows it gives. */
static dl_status
check_planned_page(dl_pq_col *col, int64_t n, dl_error *err) {
    const dl_pq_page_plan *plan = col->plan;
    int32_t i = col->plan_next;
    DL_CHECK(i >= 0 && (size_t)i < plan->n_pages && plan->locs[i].offset == col->page.offset, err,
             DL_ERR_CORRUPT, "a data page at offset %lld, where the offset index has %s",
             (long long)col->page.offset,
             i >= 0 && (size_t)i < plan->n_pages ? "another page" : "no more pages");
    /* Flat columns have one entry per row; repeated ones are counted as they are read
     * (check_page_records), not trusted to a v2 header's num_rows. */
    int64_t rows = dl_pq_page_plan_end(plan, (size_t)i) - plan->locs[i].first_row_index;
    int64_t have = col->max_rep == 0 ? n : rows;
    DL_CHECK(have == rows && n > 0, err, DL_ERR_CORRUPT,
             "the data page at offset %lld holds %lld rows, but the offset index gives it %lld",
             (long long)col->page.offset, (long long)(n > 0 ? have : 0), (long long)rows);
    col->plan_page = i;
    col->plan_next = i + 1;
    col->page_recs = 0;
    return DL_OK;
}

static dl_status
planned_dict_page(dl_error *err) {
    DL_FAIL(err, DL_ERR_CORRUPT, "a dictionary page among the data pages the offset index lists");
}

/* Whether the chunk (plan mode: the run of pages being read) has pages left. */
static bool
has_more_pages(const dl_pq_col *col) {
    if (col->plan != NULL) {
        return col->is_open && dl_pq_pages_has_next(&col->pages);
    }
    return col->values_left > 0;
}

/* Makes the next data page current, decoding a dictionary page on the way. */
static dl_status
next_data_page(dl_pq_col *col, dl_error *err) {
    DL_TRY(check_page_records(col, err));
    drop_page(col);
    for (;;) {
        int64_t total = col->chunk->meta_data.num_values;
        DL_CHECK(col->plan == NULL || dl_pq_pages_has_next(&col->pages), err, DL_ERR_CORRUPT,
                 "the pages the offset index lists end before the rows to read");
        DL_CHECK(col->is_open && dl_pq_pages_has_next(&col->pages), err, DL_ERR_CORRUPT,
                 "the column chunk's pages end after %lld of the %lld values its metadata "
                 "declares",
                 (long long)(total - col->values_left), (long long)total);
        DL_TRY(dl_pq_pages_next(&col->pages, &col->page, err));
        col->has_page = true;
        dl_pq_page_type type = col->page.hdr.type;
        if (type == DL_PQ_PAGE_DICTIONARY) {
            DL_TRY(col->plan == NULL ? dict_page(col, err) : planned_dict_page(err));
            continue;
        }
        if (type != DL_PQ_PAGE_DATA && type != DL_PQ_PAGE_DATA_V2) {
            drop_page(col);
            continue;
        }
        int64_t n = page_entries(&col->page);
        DL_CHECK(n >= 0 && n <= col->values_left, err, DL_ERR_CORRUPT,
                 "the page holds %lld values, but the column chunk has only %lld left",
                 (long long)n, (long long)col->values_left);
        if (n == 0 && col->plan == NULL) {
            drop_page(col);
            continue;
        }
        if (col->plan != NULL) {
            DL_TRY(check_planned_page(col, n, err));
        }
        DL_TRY(type == DL_PQ_PAGE_DATA ? setup_v1(col, n, err) : setup_v2(col, n, err));
        col->page_left = n;
        col->has_data_page = true;
        col->values_left -= n;
        col->pages_read++;
        return DL_OK;
    }
}

/* ---- Values of a batch ---------------------------------------------------------------------- */

/* Gathers n dictionary entries into the FLAT vector out. */
static dl_status
gather(dl_pq_col *col, const uint32_t *idx, size_t n, dl_vector *out, dl_error *err) {
    const dl_vector *dict = col->dict;
    int64_t at = out->length;
    if (dict->type->id == DL_VEC_TYPE_BOOLEAN) {
        for (size_t i = 0; i < n; i++) {
            dl_vec_bit_put(out->data, at + (int64_t)i, dl_vec_get_bool(dict, idx[i]));
        }
    } else if (dl_vec_type_phys(dict->type) == DL_VEC_PHYS_VIEW) {
        int32_t map[64];
        DL_CHECK(dict->n_heaps <= 64, err, DL_ERR_INTERNAL, "a dictionary with %d heaps",
                 (int)dict->n_heaps);
        for (int32_t h = 0; h < dict->n_heaps; h++) {
            DL_TRY(dl_pq_vec_heap(out, dict->heaps[h], &map[h], err));
        }
        dl_vec_view *dst = (dl_vec_view *)out->data + at;
        const dl_vec_view *src = dict->data;
        for (size_t i = 0; i < n; i++) {
            dst[i] = src[idx[i]];
            if (dst[i].inlined.length > DL_VEC_VIEW_INLINE) {
                dst[i].ref.buffer_index = map[dst[i].ref.buffer_index];
            }
        }
    } else {
        size_t w = dl_vec_type_width(dict->type);
        uint8_t *dst = (uint8_t *)out->data + (size_t)at * w;
        if (w == 4) {
            dl_pq_dict_gather_u32(dict->data, idx, n, (uint32_t *)dst);
        } else if (w == 8) {
            dl_pq_dict_gather_u64(dict->data, idx, n, (uint64_t *)dst);
        } else {
            dl_pq_dict_gather_bytes(dict->data, w, idx, n, dst);
        }
    }
    out->length = at + (int64_t)n;
    return DL_OK;
}

static dl_status
gather_values(dl_pq_col *col, size_t n, dl_vector *out, dl_error *err) {
    DL_TRY(dl_pq_vec_room(out, (int64_t)n, err));
    DL_TRY(ensure_scratch(col, value_scratch_bytes(col), err));
    uint32_t *idx = col->scratch;
    uint32_t dict_size = (uint32_t)col->dict->length;
    for (size_t done = 0; done < n;) {
        size_t c = DL_MIN((size_t)VALUE_CHUNK, n - done);
        DL_TRY(dl_pq_rle_decode_indices(&col->val.rle, c, idx, dict_size, err));
        DL_TRY(gather(col, idx, c, out, err));
        done += c;
    }
    return DL_OK;
}

static bool
is_identity(dl_pq_conv conv) {
    return conv == DL_PQ_CONV_I32 || conv == DL_PQ_CONV_I64 || conv == DL_PQ_CONV_F32 ||
           conv == DL_PQ_CONV_F64;
}

/* Decodes the values of k present entries of the current page and drops them (skipping). */
static dl_status
skip_values(dl_pq_col *col, size_t k, dl_error *err) {
    dl_pq_value_dec *v = &col->val;
    DL_TRY(ensure_scratch(col, value_scratch_bytes(col), err));
    size_t step = v->is_dict ? (size_t)VALUE_CHUNK : value_chunk(col);
    for (size_t done = 0; done < k;) {
        size_t c = DL_MIN(step, k - done);
        if (v->is_dict) {
            DL_TRY(dl_pq_rle_decode_indices(&v->rle, c, col->scratch, (uint32_t)col->dict->length,
                                            err));
        } else {
            dl_pq_phys phys;
            DL_TRY(decode_phys(col, c, &phys, err));
        }
        done += c;
    }
    return DL_OK;
}

/* Decodes the values of k present entries of the current page into col->out. */
static dl_status
decode_values(dl_pq_col *col, size_t k, dl_error *err) {
    dl_vector *out = col->out;
    if (k == 0 || col->conv == DL_PQ_CONV_VOID) {
        return DL_OK;
    }
    dl_pq_value_dec *v = &col->val;
    DL_CHECK(!v->is_empty, err, DL_ERR_CORRUPT,
             "%zu values are defined but the page's %s values section is empty", k,
             dl_pq_encoding_name(v->encoding));
    if (col->is_discarding) {
        return skip_values(col, k, err);
    }
    if (v->is_dict && out->layout == DL_VEC_DICT) {
        DL_TRY(dl_pq_vec_room(out, (int64_t)k, err));
        DL_TRY(dl_pq_rle_decode_indices(&v->rle, k, (uint32_t *)out->data + out->length,
                                        (uint32_t)col->dict->length, err));
        out->length += (int64_t)k;
        return DL_OK;
    }
    if (out->layout == DL_VEC_DICT) {
        DL_TRY(dl_vec_flatten(out, err)); /* the chunk fell back to plain pages */
    }
    if (v->is_dict) {
        return gather_values(col, k, out, err);
    }
    if (!is_identity(col->conv) || v->encoding == DL_PQ_ENCODING_DELTA_BYTE_ARRAY) {
        return append_decoded(col, k, out, err);
    }
    DL_TRY(dl_pq_vec_room(out, (int64_t)k, err));
    size_t w = dl_vec_type_width(col->type);
    void *dst = (uint8_t *)out->data + (size_t)out->length * w;
    switch (v->encoding) {
    case DL_PQ_ENCODING_PLAIN:
        DL_TRY(dl_pq_plain_decode_fixed(&v->plain, w, k, dst, err));
        break;
    case DL_PQ_ENCODING_DELTA_BINARY_PACKED:
        DL_TRY(w == 4 ? dl_pq_delta_decode_i32(&v->delta, k, dst, err)
                      : dl_pq_delta_decode_i64(&v->delta, k, dst, err));
        break;
    case DL_PQ_ENCODING_BYTE_STREAM_SPLIT:
        DL_TRY(dl_pq_bss_decode(&v->bss, k, dst, err));
        break;
    default:
        return append_decoded(col, k, out, err);
    }
    out->length += (int64_t)k;
    return DL_OK;
}

/* ---- Reading records ------------------------------------------------------------------------ */

static dl_status
ensure_levels(dl_pq_col *col, int64_t need, dl_error *err) {
    if (need <= col->cap_levels) {
        return DL_OK;
    }
    DL_CHECK(need <= col->max_values, err, DL_ERR_LIMIT,
             "the batch holds more than %lld values of the column (the limit per batch)",
             (long long)col->max_values);
    int64_t cap = DL_MIN(DL_MAX(need, DL_MAX(col->cap_levels * 2, 2048)), col->max_values);
    size_t old_bytes = (size_t)col->cap_levels * sizeof(uint16_t);
    size_t new_bytes = (size_t)cap * sizeof(uint16_t);
    if (col->max_def > 0) {
        uint16_t *d = dl_mem_realloc(col->alloc, col->def, col->def ? old_bytes : 0, new_bytes);
        DL_CHECK(d != NULL, err, DL_ERR_NOMEM, "out of memory for %lld levels", (long long)cap);
        col->def = d;
    }
    if (col->max_rep > 0) {
        uint16_t *r = dl_mem_realloc(col->alloc, col->rep, col->rep ? old_bytes : 0, new_bytes);
        DL_CHECK(r != NULL, err, DL_ERR_NOMEM, "out of memory for %lld levels", (long long)cap);
        col->rep = r;
    }
    col->cap_levels = cap;
    return DL_OK;
}

static int64_t
count_present(const uint16_t *def, size_t n, uint16_t max_def) {
    int64_t count = 0;
    for (size_t i = 0; i < n; i++) {
        count += def[i] == max_def;
    }
    return count;
}

/*
 * Zero copy: when a whole batch of fixed-width values without nulls sits PLAIN in one page
 * and needs no conversion, the batch vector points into the page buffer (holding a reference)
 * instead of copying it. The vector is then read-only (capacity 0), as vector.h allows. Only
 * aligned values qualify, so kernels may read them as typed arrays.
 */
static dl_status
view_values(dl_pq_col *col, size_t k, bool *out_done, dl_error *err) {
    *out_done = false;
    dl_vector *out = col->out;
    dl_pq_value_dec *v = &col->val;
    size_t w = dl_vec_type_width(col->type);
    if (!col->may_view || out->length != 0 || out->layout != DL_VEC_FLAT || v->is_dict ||
        v->encoding != DL_PQ_ENCODING_PLAIN || col->page.heap == NULL || w == 0 ||
        v->plain.len - v->plain.pos < k * w) {
        return DL_OK;
    }
    if ((uintptr_t)(v->plain.data + v->plain.pos) % w != 0) {
        return DL_OK;
    }
    const uint8_t *at = NULL;
    DL_TRY(dl_pq_plain_view_fixed(&v->plain, w, k, &at, err));
    dl_vec_buffer_unref(out->data_buf);
    out->data_buf = dl_vec_buffer_ref(col->page.heap);
    memcpy(&out->data, &at, sizeof(out->data)); /* read-only: capacity 0 below */
    out->capacity = 0;
    out->length = (int64_t)k;
    *out_done = true;
    return DL_OK;
}

static dl_status
read_flat(dl_pq_col *col, int64_t n, dl_error *err) {
    DL_TRY(ensure_levels(col, n, err));
    int64_t need = n;
    while (need > 0) {
        if (col->page_left == 0) {
            DL_TRY(next_data_page(col, err));
        }
        int64_t k = DL_MIN(need, col->page_left);
        int64_t present = k;
        if (col->max_def > 0) {
            uint16_t *d = col->def + col->n_levels;
            DL_TRY(level_decode(&col->def_dec, (size_t)k, d, col->max_def, "definition", err));
            present = count_present(d, (size_t)k, (uint16_t)col->max_def);
        }
        bool viewed = false;
        /* The batch that ends a page copies its values: the page's buffer is then free again
         * when the page is released, and the next page decompresses into it (memory already
         * mapped) instead of a fresh one while the batch still holds the old. */
        if (k == n && k < col->page_left && present == k && is_identity(col->conv) &&
            !col->is_discarding) {
            DL_TRY(view_values(col, (size_t)k, &viewed, err));
        }
        if (!viewed) {
            DL_TRY(decode_values(col, (size_t)present, err));
        }
        col->n_levels += k;
        col->page_left -= k;
        need -= k;
    }
    col->n_records = n;
    return DL_OK;
}

/* Decodes up to LOOKAHEAD entries of the current page into the look-ahead buffers. */
static dl_status
refill_lookahead(dl_pq_col *col, dl_error *err) {
    size_t k = (size_t)DL_MIN(col->page_left, (int64_t)LOOKAHEAD);
    DL_TRY(level_decode(&col->rep_dec, k, col->la_rep, col->max_rep, "repetition", err));
    DL_TRY(level_decode(&col->def_dec, k, col->la_def, col->max_def, "definition", err));
    col->page_left -= (int64_t)k;
    col->la_pos = 0;
    col->la_len = k;
    return DL_OK;
}

/* The definition level of the repeated node at each repetition level of the leaf's path. */
static void
repeated_def_levels(const dl_pq_schema_node *leaf, int16_t out[]) {
    for (const dl_pq_schema_node *n = leaf; n != NULL; n = n->parent) {
        if (n->repetition == DL_PQ_REPEATED && n->parent != NULL) {
            out[n->max_rep_level] = n->max_def_level;
        }
    }
}

/* Explains why entry j of the look-ahead cannot follow the entries before it. */
static dl_status
bad_repeat(const dl_pq_col *col, size_t j, const int16_t *rep_def, dl_error *err) {
    uint16_t r = col->la_rep[j];
    if (col->n_records == 0) {
        DL_FAIL(err, DL_ERR_CORRUPT,
                "a record starts at repetition level %u; records start at level 0", (unsigned)r);
    }
    DL_FAIL(err, DL_ERR_CORRUPT,
            "an entry repeats at level %u but its definition level %u is below the repeated "
            "field's %d",
            (unsigned)r, (unsigned)col->la_def[j], (int)rep_def[r]);
}

/* Consumes look-ahead entries up to the start of record n + 1 (or the buffer's end). */
static dl_status
scan_lookahead(dl_pq_col *col, int64_t n, const int16_t *rep_def, bool *out_stop,
               int64_t *out_present, dl_error *err) {
    size_t j = col->la_pos;
    int64_t present = 0;
    bool stop = false;
    bool bad = false;
    uint16_t max_def = (uint16_t)col->max_def;
    for (; j < col->la_len; j++) {
        uint16_t r = col->la_rep[j];
        uint16_t d = col->la_def[j];
        if (r == 0 && col->n_records == n) {
            stop = true;
            break;
        }
        if (r != 0 && (col->n_records == 0 || d < rep_def[r])) {
            bad = true;
            break;
        }
        col->n_records += r == 0;
        col->page_recs += r == 0;
        present += d == max_def;
    }
    if (bad) {
        return bad_repeat(col, j, rep_def, err);
    }
    size_t m = j - col->la_pos;
    DL_TRY(ensure_levels(col, col->n_levels + (int64_t)m, err));
    memcpy(col->def + col->n_levels, col->la_def + col->la_pos, m * sizeof(uint16_t));
    memcpy(col->rep + col->n_levels, col->la_rep + col->la_pos, m * sizeof(uint16_t));
    col->n_levels += (int64_t)m;
    col->la_pos = j;
    *out_stop = stop;
    *out_present = present;
    return DL_OK;
}

/* Refills the look-ahead when it is used up, from the next page when need be; *out_end is
 * set when the chunk has no entries left. */
static dl_status
ensure_lookahead(dl_pq_col *col, bool *out_end, dl_error *err) {
    *out_end = false;
    if (col->la_pos < col->la_len) {
        return DL_OK;
    }
    if (col->page_left == 0 && !has_more_pages(col)) {
        *out_end = true;
        return check_page_records(col, err);
    }
    if (col->page_left == 0) {
        DL_TRY(next_data_page(col, err));
    }
    return refill_lookahead(col, err);
}

static dl_status
read_repeated(dl_pq_col *col, int64_t n, dl_error *err) {
    int16_t rep_def[DL_PQ_MAX_SCHEMA_DEPTH + 1];
    memset(rep_def, 0, sizeof(rep_def));
    repeated_def_levels(col->node, rep_def);
    bool stop = false;
    while (!stop) {
        bool end = false;
        DL_TRY(ensure_lookahead(col, &end, err));
        if (end) {
            break;
        }
        int64_t present = 0;
        DL_TRY(scan_lookahead(col, n, rep_def, &stop, &present, err));
        DL_TRY(decode_values(col, (size_t)present, err));
    }
    DL_CHECK(col->n_records == n, err, DL_ERR_CORRUPT,
             "the column chunk ends after %lld of the row group's rows (%lld more were expected)",
             (long long)col->n_records, (long long)(n - col->n_records));
    return DL_OK;
}

/* Starts the batch as a DICT vector when the current page is dictionary-encoded. */
static dl_status
choose_layout(dl_pq_col *col, dl_vector *out, dl_error *err) {
    if (!col->may_dict) {
        return DL_OK;
    }
    if (col->page_left == 0 && has_more_pages(col)) {
        DL_TRY(next_data_page(col, err));
    }
    if (col->has_page && col->val.is_dict && col->dict != NULL && col->dict->length > 0) {
        DL_TRY(dl_vec_set_dict(out, col->dict, err));
    }
    return DL_OK;
}

dl_status
dl_pq_col_read(dl_pq_col *col, int64_t n_records, dl_vector *out, dl_error *err) {
    col->out = out;
    col->n_levels = 0;
    col->n_records = 0;
    dl_status s = n_records > 0 ? choose_layout(col, out, err) : DL_OK;
    if (s == DL_OK) {
        s = col->max_rep > 0 ? read_repeated(col, n_records, err) : read_flat(col, n_records, err);
    }
    if (s == DL_OK) {
        col->row += n_records;
    }
    return page_fail_ctx(col, s, err);
}

/* ---- Skipping ------------------------------------------------------------------------------- */

/* Reads and drops the next n records. */
static dl_status
skip_records(dl_pq_col *col, int64_t n, dl_error *err) {
    col->is_discarding = true;
    col->out = NULL;
    dl_status s = DL_OK;
    while (n > 0 && s == DL_OK) {
        int64_t step = DL_MIN(n, (int64_t)SKIP_STEP);
        col->n_levels = 0;
        col->n_records = 0;
        s = col->max_rep > 0 ? read_repeated(col, step, err) : read_flat(col, step, err);
        if (s == DL_OK) {
            col->row += step;
            n -= step;
        }
    }
    col->is_discarding = false;
    col->n_levels = 0;
    col->n_records = 0;
    return s;
}

/* The plan's page holding row: the last whose first row is at most row (page 0 starts at 0). */
static size_t
plan_find(const dl_pq_page_plan *plan, int64_t row) {
    size_t lo = 0;
    size_t hi = plan->n_pages;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (plan->locs[mid].first_row_index <= row) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return lo;
}

/* Makes page p of the plan the current page, fetching the run of needed pages it starts when
 * it is not in the bytes at hand. */
static dl_status
jump_to_page(dl_pq_col *col, size_t p, dl_error *err) {
    const dl_pq_page_plan *plan = col->plan;
    DL_CHECK(plan->needed[p], err, DL_ERR_INTERNAL, "row %lld lies in page %zu, which is not read",
             (long long)col->row, p);
    drop_page(col);
    col->la_pos = 0;
    col->la_len = 0;
    const dl_pq_page_location *loc = &plan->locs[p];
    if (!dl_pq_pages_seek(&col->pages, loc->offset)) {
        size_t q = p;
        while (q + 1 < plan->n_pages && plan->needed[q + 1]) {
            q++;
        }
        int64_t end = plan->locs[q].offset + plan->locs[q].compressed_page_size;
        DL_TRY(dl_pq_pages_window(&col->pages, loc->offset, (size_t)(end - loc->offset), err));
    }
    col->plan_page = -1;
    col->plan_next = (int32_t)p;
    col->row = loc->first_row_index;
    return next_data_page(col, err);
}

dl_status
dl_pq_col_seek(dl_pq_col *col, int64_t row, dl_error *err) {
    DL_CHECK(row >= col->row, err, DL_ERR_INTERNAL,
             "column '%s' cannot seek back from row %lld to row %lld", col->node->path,
             (long long)col->row, (long long)row);
    dl_status s = DL_OK;
    if (col->plan != NULL) {
        size_t p = plan_find(col->plan, row);
        if (!col->has_page || col->plan_page != (int32_t)p) {
            s = jump_to_page(col, p, err);
        }
    }
    if (s == DL_OK && row > col->row) {
        s = skip_records(col, row - col->row, err);
    }
    return page_fail_ctx(col, s, err);
}
