/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Page skipping through the page index (parquet-format PageIndex.md; parquet.thrift
 * ColumnIndex, OffsetIndex), and row groups ruled out by Bloom filters (BloomFilter.md).
 *
 * A column chunk may carry two small structures, written after the row groups:
 *
 *   OffsetIndex   per data page: its file offset, its size with the header, and the index of
 *                 its first row in the row group (first_row_index). Pages of a chunk with an
 *                 OffsetIndex begin at record boundaries (repetition level 0), so a row is never
 *                 split between pages, in flat and repeated columns alike.
 *   ColumnIndex   per data page: null_pages (the page holds only nulls, and its bounds are
 *                 meaningless), min_values and max_values in the column's sort order (as the
 *                 chunk's min_value/max_value; there is no deprecated form), optionally
 *                 null_counts, and boundary_order.
 *
 * A filter's leaves are judged page by page with the row-group rules (dl_pq_filter_page_may_
 * match), each leaf giving the rows of the pages that may match; AND intersects those row
 * sets, OR unites them, and a leaf without a usable index keeps every row. Every row that
 * satisfies the filter is in the result (a superset: skipping never drops a match), and rows
 * outside it are never read. boundary_order would allow a binary search, but the pages are
 * few (a row group has hundreds at most) and a wrong boundary_order in a file would then drop
 * matching rows, so every page is judged.
 *
 * Each projected column then reads only the pages that meet those rows: its OffsetIndex maps
 * rows to pages (pages of different columns are not aligned), dl_pq_page_plan marks the pages
 * to read, and the column reader fetches each run of consecutive needed pages in one read and
 * decodes and drops the records of a page that precede a range (pq_column.c).
 *
 * An index is an optimisation: one that does not decode, or does not agree with its chunk (page
 * counts differ, pages out of order, outside the chunk, not contiguous, first rows not rising
 * from 0 below the row count, the first page not at the chunk's data_page_offset, negative
 * null counts), is ignored and the column read page by page. What can only be seen while reading (a
 * page that is not where the index puts it, or holds another number of rows) is CORRUPT.
 *
 * Bloom filters answer `=` and IN: a row group whose filter has none of the constants (in the
 * column's PLAIN form, dl_pq_filter_plain_key) cannot match. They are loaded like the
 * indexes, and ignored in the same way when they are not a split block filter with xxHash,
 * uncompressed, lying inside the file.
 */
#include <string.h>

#include "parquet/pq_reader_int.h"

struct dl_pq_leaf_index {
    bool is_oi_tried;
    bool is_ci_tried;
    bool is_bf_tried;
    bool has_oi; /* decoded and consistent with the chunk */
    bool has_ci;
    dl_pq_offset_index oi;
    dl_pq_column_index ci;
    const uint8_t *bloom; /* the Bloom filter's bitset, or NULL */
    size_t bloom_len;
};

typedef struct ranges {
    dl_pq_row_range *r;
    size_t n;
} ranges;

static dl_status
oom(dl_error *err) {
    DL_FAIL(err, DL_ERR_NOMEM, "out of memory for a page index");
}

dl_status
dl_pq_rg_index_init(dl_pq_rg_index *idx, dl_pq_file *file, const dl_allocator *alloc,
                    dl_arena *arena, int32_t rg, dl_error *err) {
    memset(idx, 0, sizeof(*idx));
    idx->file = file;
    idx->alloc = alloc;
    idx->arena = arena;
    idx->rg = rg;
    idx->num_rows = file->footer->meta.row_groups[rg].num_rows;
    size_t n = DL_MAX(file->footer->schema.n_leaves, (size_t)1);
    idx->leaves = dl_arena_alloc_zero(arena, n * sizeof(*idx->leaves));
    return idx->leaves != NULL ? DL_OK : oom(err);
}

int64_t
dl_pq_page_plan_end(const dl_pq_page_plan *plan, size_t i) {
    return i + 1 < plan->n_pages ? plan->locs[i + 1].first_row_index : plan->num_rows;
}

/* ---- Loading ---------------------------------------------------------------------------- */

/* The bytes [offset, offset + len) of the file, copied into the arena. */
static dl_status
fetch_bytes(dl_pq_rg_index *idx, int64_t offset, size_t len, uint8_t **out, dl_error *err) {
    dl_vec_buffer *buf = NULL;
    size_t pos = 0;
    DL_TRY(dl_pq_file_fetch(idx->file, idx->alloc, offset, len, NULL, &buf, &pos, err));
    uint8_t *copy = dl_arena_alloc(idx->arena, DL_MAX(len, (size_t)1));
    if (copy != NULL) {
        memcpy(copy, buf->data + pos, len);
    }
    dl_vec_buffer_unref(buf);
    if (copy == NULL) {
        return oom(err);
    }
    if (idx->file->mem == NULL) {
        idx->bytes_read += (int64_t)len;
    }
    *out = copy;
    return DL_OK;
}

/* True when the OffsetIndex describes the chunk's data pages as the reader relies on. */
static bool
oi_usable(const dl_pq_offset_index *oi, const dl_pq_column_chunk *cc, int64_t num_rows) {
    int64_t start = 0;
    int64_t len = 0;
    dl_pq_column_chunk_range(cc, &start, &len);
    size_t n = oi->n_page_locations;
    const dl_pq_page_location *loc = oi->page_locations;
    if (n == 0 || loc[0].first_row_index != 0 || loc[0].offset != cc->meta_data.data_page_offset ||
        loc[0].offset < start) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        int64_t end = i + 1 < n ? loc[i + 1].offset : start + len;
        bool is_ok = loc[i].compressed_page_size > 0 && loc[i].offset <= end &&
                     loc[i].compressed_page_size <= end - loc[i].offset &&
                     (i + 1 == n || loc[i].offset + loc[i].compressed_page_size == end) &&
                     loc[i].first_row_index < num_rows &&
                     (i + 1 == n || loc[i + 1].first_row_index > loc[i].first_row_index);
        if (!is_ok) {
            return false;
        }
    }
    return true;
}

/*
 * True when the ColumnIndex has an entry per page and no negative null count: parquet-mr
 * 1.13 writes, for pages without statistics, null_pages all true and null_counts -1 (see
 * parquet-testing's datapage_v1-*-checksum.parquet), an index that would drop every row.
 */
static bool
ci_usable(const dl_pq_column_index *ci, size_t n_pages) {
    if (ci->n_null_pages != n_pages || ci->n_min_values != n_pages || ci->n_max_values != n_pages ||
        (ci->has_null_counts && ci->n_null_counts != n_pages)) {
        return false;
    }
    for (size_t i = 0; ci->has_null_counts && i < n_pages; i++) {
        if (ci->null_counts[i] < 0) {
            return false;
        }
    }
    return true;
}

/* Decoding failures make the index unusable; only running out of memory is an error. */
static dl_status
keep_nomem(dl_status s, dl_error *err) {
    if (s == DL_ERR_NOMEM) {
        return oom(err);
    }
    return DL_OK;
}

static dl_status
load_oi(dl_pq_rg_index *idx, int32_t leaf, struct dl_pq_leaf_index *e, dl_error *err) {
    e->is_oi_tried = true;
    const dl_pq_column_chunk *cc = &idx->file->footer->meta.row_groups[idx->rg].columns[leaf];
    if (!cc->has_offset_index_offset || !cc->has_offset_index_length ||
        cc->offset_index_length <= 0) {
        return DL_OK;
    }
    size_t len = (size_t)cc->offset_index_length;
    uint8_t *bytes = NULL;
    DL_TRY(fetch_bytes(idx, cc->offset_index_offset, len, &bytes, err));
    dl_error scratch;
    dl_status s = dl_pq_offset_index_decode(bytes, len, cc->offset_index_offset, idx->arena, &e->oi,
                                            &scratch);
    if (s != DL_OK) {
        return keep_nomem(s, err);
    }
    e->has_oi = oi_usable(&e->oi, cc, idx->num_rows);
    return DL_OK;
}

static dl_status
load_ci(dl_pq_rg_index *idx, int32_t leaf, struct dl_pq_leaf_index *e, dl_error *err) {
    e->is_ci_tried = true;
    const dl_pq_column_chunk *cc = &idx->file->footer->meta.row_groups[idx->rg].columns[leaf];
    if (!cc->has_column_index_offset || !cc->has_column_index_length ||
        cc->column_index_length <= 0) {
        return DL_OK;
    }
    size_t len = (size_t)cc->column_index_length;
    uint8_t *bytes = NULL;
    DL_TRY(fetch_bytes(idx, cc->column_index_offset, len, &bytes, err));
    dl_error scratch;
    dl_status s = dl_pq_column_index_decode(bytes, len, cc->column_index_offset, idx->arena, &e->ci,
                                            &scratch);
    if (s != DL_OK) {
        return keep_nomem(s, err);
    }
    e->has_ci = ci_usable(&e->ci, e->oi.n_page_locations);
    return DL_OK;
}

/* The index entry of leaf, with its OffsetIndex (and ColumnIndex when want_ci) loaded. */
static dl_status
load_leaf(dl_pq_rg_index *idx, int32_t leaf, bool want_ci, struct dl_pq_leaf_index **out,
          dl_error *err) {
    struct dl_pq_leaf_index *e = &idx->leaves[leaf];
    dl_status s = DL_OK;
    if (!e->is_oi_tried) {
        s = load_oi(idx, leaf, e, err);
    }
    if (s == DL_OK && want_ci && e->has_oi && !e->is_ci_tried) {
        s = load_ci(idx, leaf, e, err);
    }
    if (s != DL_OK) {
        dl_error_prefix(err, "the page index of column '%s'",
                        idx->file->footer->schema.leaves[leaf]->path);
        return s;
    }
    *out = e;
    return DL_OK;
}

/* ---- Row sets ----------------------------------------------------------------------------- */

static dl_status
ranges_alloc(dl_pq_rg_index *idx, size_t cap, ranges *out, dl_error *err) {
    out->n = 0;
    out->r = dl_arena_alloc_array(idx->arena, DL_MAX(cap, (size_t)1), sizeof(dl_pq_row_range));
    return out->r != NULL ? DL_OK : oom(err);
}

static dl_status
ranges_full(dl_pq_rg_index *idx, ranges *out, dl_error *err) {
    DL_TRY(ranges_alloc(idx, 1, out, err));
    if (idx->num_rows > 0) {
        out->r[out->n++] = (dl_pq_row_range){.start = 0, .end = idx->num_rows};
    }
    return DL_OK;
}

/* Appends [start, end) (not before the last range), merging it with an adjacent one. */
static void
ranges_push(ranges *rs, int64_t start, int64_t end) {
    if (start >= end) {
        return;
    }
    if (rs->n > 0 && rs->r[rs->n - 1].end >= start) {
        rs->r[rs->n - 1].end = DL_MAX(rs->r[rs->n - 1].end, end);
        return;
    }
    rs->r[rs->n++] = (dl_pq_row_range){.start = start, .end = end};
}

static dl_status
ranges_intersect(dl_pq_rg_index *idx, const ranges *a, const ranges *b, ranges *out,
                 dl_error *err) {
    DL_TRY(ranges_alloc(idx, a->n + b->n, out, err));
    size_t i = 0;
    size_t j = 0;
    while (i < a->n && j < b->n) {
        ranges_push(out, DL_MAX(a->r[i].start, b->r[j].start), DL_MIN(a->r[i].end, b->r[j].end));
        if (a->r[i].end < b->r[j].end) {
            i++;
        } else {
            j++;
        }
    }
    return DL_OK;
}

static dl_status
ranges_unite(dl_pq_rg_index *idx, const ranges *a, const ranges *b, ranges *out, dl_error *err) {
    DL_TRY(ranges_alloc(idx, a->n + b->n, out, err));
    size_t i = 0;
    size_t j = 0;
    while (i < a->n || j < b->n) {
        bool take_a = j == b->n || (i < a->n && a->r[i].start <= b->r[j].start);
        const dl_pq_row_range *r = take_a ? &a->r[i++] : &b->r[j++];
        ranges_push(out, r->start, r->end);
    }
    return DL_OK;
}

/* The rows of the pages of leaf predicate f that may match. */
static dl_status
leaf_ranges(dl_pq_rg_index *idx, const dl_pq_filter *f, ranges *out, dl_error *err) {
    int32_t leaf = dl_pq_filter_leaf_index(idx->file, f->column);
    if (leaf < 0) {
        return ranges_full(idx, out, err);
    }
    struct dl_pq_leaf_index *e = NULL;
    DL_TRY(load_leaf(idx, leaf, true, &e, err));
    if (!e->has_oi || !e->has_ci) {
        return ranges_full(idx, out, err);
    }
    dl_pq_page_plan pages = {
        .locs = e->oi.page_locations, .n_pages = e->oi.n_page_locations, .num_rows = idx->num_rows};
    DL_TRY(ranges_alloc(idx, pages.n_pages, out, err));
    for (size_t i = 0; i < pages.n_pages; i++) {
        if (dl_pq_filter_page_may_match(idx->file, f, &e->ci, i)) {
            ranges_push(out, pages.locs[i].first_row_index, dl_pq_page_plan_end(&pages, i));
        }
    }
    return DL_OK;
}

static dl_status
filter_ranges(dl_pq_rg_index *idx, const dl_pq_filter *f, ranges *out, dl_error *err) {
    if (f->op != DL_PQ_FILTER_AND && f->op != DL_PQ_FILTER_OR) {
        return leaf_ranges(idx, f, out, err);
    }
    bool is_and = f->op == DL_PQ_FILTER_AND;
    if (is_and) {
        DL_TRY(ranges_full(idx, out, err));
    } else {
        DL_TRY(ranges_alloc(idx, 0, out, err));
    }
    for (size_t i = 0; i < f->n_children && (!is_and || out->n > 0); i++) {
        ranges child;
        DL_TRY(filter_ranges(idx, &f->children[i], &child, err));
        ranges acc = *out;
        if (is_and) {
            DL_TRY(ranges_intersect(idx, &acc, &child, out, err));
        } else {
            DL_TRY(ranges_unite(idx, &acc, &child, out, err));
        }
    }
    return DL_OK;
}

dl_status
dl_pq_rg_index_ranges(dl_pq_rg_index *idx, const dl_pq_filter *filter, dl_pq_row_range **out,
                      size_t *out_n, dl_error *err) {
    ranges rs;
    DL_TRY(filter_ranges(idx, filter, &rs, err));
    *out = rs.r;
    *out_n = rs.n;
    return DL_OK;
}

dl_status
dl_pq_rg_index_plan(dl_pq_rg_index *idx, int32_t leaf_index, const dl_pq_row_range *rr, size_t n,
                    const dl_pq_page_plan **out, dl_error *err) {
    *out = NULL;
    struct dl_pq_leaf_index *e = NULL;
    DL_TRY(load_leaf(idx, leaf_index, false, &e, err));
    if (!e->has_oi) {
        return DL_OK;
    }
    dl_pq_page_plan *plan = dl_arena_alloc_zero(idx->arena, sizeof(*plan));
    size_t n_pages = e->oi.n_page_locations;
    uint8_t *needed = dl_arena_alloc_zero(idx->arena, n_pages);
    if (plan == NULL || needed == NULL) {
        return oom(err);
    }
    plan->locs = e->oi.page_locations;
    plan->n_pages = n_pages;
    plan->num_rows = idx->num_rows;
    size_t j = 0;
    for (size_t i = 0; i < n_pages; i++) {
        int64_t start = plan->locs[i].first_row_index;
        int64_t end = dl_pq_page_plan_end(plan, i);
        while (j < n && rr[j].end <= start) {
            j++;
        }
        needed[i] = (uint8_t)(j < n && rr[j].start < end);
        plan->n_needed += needed[i];
    }
    plan->needed = needed;
    *out = plan;
    return DL_OK;
}

/* ---- Bloom filters ----------------------------------------------------------------------------
 */

#define BLOOM_HEADER_GUESS 64 /* a BloomFilterHeader takes about 15 bytes */

/* Loads the chunk's Bloom filter when it is one the reader understands (see the top). */
static dl_status
load_bloom(dl_pq_rg_index *idx, int32_t leaf, struct dl_pq_leaf_index *e, dl_error *err) {
    e->is_bf_tried = true;
    const dl_pq_column_metadata *md =
        &idx->file->footer->meta.row_groups[idx->rg].columns[leaf].meta_data;
    int64_t size = idx->file->footer->file_size;
    int64_t at = md->bloom_filter_offset;
    if (!md->has_bloom_filter_offset || at < DL_PQ_MAGIC_LEN || at >= size) {
        return DL_OK;
    }
    size_t avail = (size_t)(size - at);
    size_t guess = md->has_bloom_filter_length && md->bloom_filter_length > 0
                       ? (size_t)md->bloom_filter_length
                       : BLOOM_HEADER_GUESS;
    guess = DL_MIN(guess, avail);
    uint8_t *bytes = NULL;
    DL_TRY(fetch_bytes(idx, at, guess, &bytes, err));
    dl_pq_bloom_filter_header h;
    size_t hlen = 0;
    dl_error scratch;
    dl_status s =
        dl_pq_bloom_filter_header_decode(bytes, guess, at, idx->arena, &h, &hlen, &scratch);
    if (s != DL_OK) {
        return keep_nomem(s, err);
    }
    size_t n = (size_t)(h.num_bytes > 0 ? h.num_bytes : 0);
    bool is_ok = h.algorithm == 1 && h.hash == 1 && h.compression == 1 && n > 0 &&
                 n % DL_PQ_BLOOM_BLOCK_BYTES == 0 && n <= DL_PQ_BLOOM_MAX_BYTES && hlen <= avail &&
                 n <= avail - hlen;
    if (!is_ok) {
        return DL_OK;
    }
    if (hlen + n > guess) {
        DL_TRY(fetch_bytes(idx, at + (int64_t)hlen, n, &bytes, err));
        e->bloom = bytes;
    } else {
        e->bloom = bytes + hlen;
    }
    e->bloom_len = n;
    return DL_OK;
}

/* May a value of leaf predicate f (= or IN) be in the column chunk, by its Bloom filter? */
static dl_status
bloom_leaf(dl_pq_rg_index *idx, const dl_pq_filter *f, bool *out, dl_error *err) {
    *out = true;
    int32_t leaf = dl_pq_filter_leaf_index(idx->file, f->column);
    bool is_eq = f->op == DL_PQ_FILTER_EQ && f->n_values >= 1 && f->values != NULL;
    if (leaf < 0 || (!is_eq && f->op != DL_PQ_FILTER_IN)) {
        return DL_OK;
    }
    struct dl_pq_leaf_index *e = &idx->leaves[leaf];
    if (!e->is_bf_tried) {
        dl_status s = load_bloom(idx, leaf, e, err);
        if (s != DL_OK) {
            dl_error_prefix(err, "the Bloom filter of column '%s'",
                            idx->file->footer->schema.leaves[leaf]->path);
            return s;
        }
    }
    if (e->bloom == NULL) {
        return DL_OK;
    }
    size_t n = is_eq ? 1 : f->n_values;
    for (size_t i = 0; i < n; i++) {
        dl_pq_plain_key key;
        if (!dl_pq_filter_plain_key(f->column, &f->values[i], &key)) {
            return DL_OK;
        }
        for (size_t k = 0; k < key.n; k++) {
            uint64_t h = dl_pq_xxhash64(key.bytes[k].ptr, key.bytes[k].len, 0);
            if (dl_pq_bloom_check(e->bloom, e->bloom_len, h)) {
                return DL_OK;
            }
        }
    }
    *out = false;
    return DL_OK;
}

dl_status
dl_pq_rg_index_bloom_may_match(dl_pq_rg_index *idx, const dl_pq_filter *filter, bool *out,
                               dl_error *err) {
    if (filter->op != DL_PQ_FILTER_AND && filter->op != DL_PQ_FILTER_OR) {
        return bloom_leaf(idx, filter, out, err);
    }
    bool is_and = filter->op == DL_PQ_FILTER_AND;
    *out = is_and;
    for (size_t i = 0; i < filter->n_children && *out == is_and; i++) {
        bool m = true;
        DL_TRY(dl_pq_rg_index_bloom_may_match(idx, &filter->children[i], &m, err));
        *out = m;
    }
    return DL_OK;
}
