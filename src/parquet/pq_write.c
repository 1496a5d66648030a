/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Parquet file writer (pq_writer.h): input windows, row groups, page indexes and the
 * footer.
 *
 * Flow. dl_pq_writer_write cuts a batch's live rows into segments of at most DL_BATCH_CAPACITY
 * rows that never cross a row group boundary (row_group_rows) and queues them in the window. The
 * window is encoded column by column: one task per top-level column walks its leaves, and for each
 * leaf every segment in slices of at most SLICE_ROWS rows (shred, then end the page if it is full;
 * a slice also stops where the page reaches page_rows, so pages hold exactly page_rows rows).
 * Without a pool the window is encoded at once and borrows the batch; with one it holds references
 * to the batch's vectors until DL_PQ_WRITE_WINDOW_ROWS rows are queued, so each task has enough
 * work. Tasks touch only their own column's leaves, so no locking is needed and the output does not
 * depend on the number of threads.
 *
 * A row group closes when its rows reach row_group_rows or, after a window, when its buffered
 * uncompressed bytes reach row_group_bytes: every chunk ends its last page and makes its
 * dictionary page (in parallel), then the chunks are appended to the store in column order,
 * each as [dictionary page] data pages, and their ColumnMetaData recorded. The page indexes
 * are encoded at that point (OffsetIndex locations are file offsets, now known) into two
 * buffers written after the last row group, ColumnIndexes first (parquet-mr's layout); the
 * offsets recorded in the ColumnChunks are relative to those buffers until then.
 *
 * Bloom filters (pq_write_bloom.c) are taken from the chunks at the same point, into a third
 * buffer written before the page indexes.
 *
 * File layout: "PAR1", row groups, Bloom filters, ColumnIndexes, OffsetIndexes, FileMetaData,
 * its u32 LE length, "PAR1".
 */
#include <string.h>

#include "parquet/pq_write_int.h"

#ifndef DL_BUILD_HASH
#    define DL_BUILD_HASH "none"
#endif

#define CREATED_BY "deltalite version " DL_VERSION_STRING " (build " DL_BUILD_HASH ")"

/* Rows shredded at a time: pages are checked for size between slices. */
#define SLICE_ROWS 512

/* A run of input rows waiting to be encoded. */
typedef struct dl_pq_wseg {
    dl_vector **cols;     /* one per top-level column: references, or borrowed */
    const uint32_t *rows; /* selected physical rows, or NULL for start .. start + count */
    int64_t start;
    int64_t count;
    void *block; /* owned memory holding cols and rows (NULL when borrowed) */
    size_t block_size;
} dl_pq_wseg;

typedef struct col_task {
    struct dl_pq_writer *w;
    dl_pq_wcol *col;
} col_task;

struct dl_pq_writer {
    dl_pq_writer_ctx ctx;
    dl_arena arena; /* schema, option copies, footer metadata */
    const dl_type *schema;
    const char *path;     /* for messages (arena) */
    dl_store_writer *out; /* NULL once committed or aborted */
    bool is_failed;
    int64_t offset; /* bytes appended to out */
    dl_pq_wschema ws;
    dl_pq_wcol *cols; /* one per top-level column */
    col_task *tasks;
    int32_t n_cols;
    dl_buf segs; /* dl_pq_wseg, the window */
    int64_t window_rows;
    int64_t rg_rows;     /* rows in the open row group */
    int64_t num_rows;    /* rows in closed row groups */
    dl_buf row_groups;   /* dl_pq_row_group */
    dl_buf bf_buf;       /* Bloom filters */
    dl_buf ci_buf;       /* ColumnIndexes */
    dl_buf oi_buf;       /* OffsetIndexes */
    dl_pq_key_value *kv; /* the footer's key-value pairs (arena) */
};

const char *
dl_pq_writer_created_by(void) {
    return CREATED_BY;
}

void
dl_pq_write_options_init(dl_pq_write_options *opts) {
    memset(opts, 0, sizeof(*opts));
    opts->codec = DL_PQ_CODEC_SNAPPY;
    opts->codec_level = DL_PQ_CODEC_LEVEL_DEFAULT;
    opts->row_group_bytes = (int64_t)128 << 20;
    opts->page_bytes = (size_t)1 << 20;
    opts->page_rows = 20000;
    opts->dict_page_bytes = (size_t)1 << 20;
    opts->is_dictionary_enabled = true;
    opts->page_version = 1;
    opts->is_page_index_enabled = true;
    opts->stats_max_bytes = 64;
}

/* ---- Lifecycle ----------------------------------------------------------------------------- */

static void
release_window(dl_pq_writer *w) {
    dl_pq_wseg *segs = (dl_pq_wseg *)(void *)w->segs.data;
    size_t n = w->segs.len / sizeof(dl_pq_wseg);
    for (size_t i = 0; i < n; i++) {
        if (segs[i].block == NULL) {
            continue;
        }
        for (int32_t c = 0; c < w->n_cols; c++) {
            dl_vec_unref(segs[i].cols[c]);
        }
        dl_mem_free(w->ctx.alloc, segs[i].block, segs[i].block_size);
    }
    dl_buf_reset(&w->segs);
    w->window_rows = 0;
}

static void
col_destroy(dl_pq_wcol *col) {
    dl_pq_codec_ctx_destroy(&col->codec);
    dl_buf *bufs[] = {&col->body, &col->packed, &col->header, &col->idx,
                      &col->conv, &col->dec,    &col->scratch};
    for (size_t i = 0; i < DL_ARRAY_LEN(bufs); i++) {
        dl_buf_destroy(bufs[i]);
    }
}

static void
writer_free(dl_pq_writer *w) {
    release_window(w);
    for (size_t i = 0; i < w->ws.n_leaves; i++) {
        dl_pq_wleaf_destroy(&w->ws.leaves[i]);
    }
    for (int32_t c = 0; c < w->n_cols; c++) {
        col_destroy(&w->cols[c]);
    }
    dl_buf_destroy(&w->segs);
    dl_buf_destroy(&w->row_groups);
    dl_buf_destroy(&w->bf_buf);
    dl_buf_destroy(&w->ci_buf);
    dl_buf_destroy(&w->oi_buf);
    dl_arena_destroy(&w->arena);
    dl_mem_free(w->ctx.alloc, w, sizeof(*w));
}

/* Aborts the file after a failure; the writer then only accepts abort. */
static dl_status
fail(dl_pq_writer *w, dl_status status, dl_error *err) {
    if (w->out != NULL) {
        dl_store_writer_abort(w->out);
        w->out = NULL;
    }
    if (!w->is_failed) {
        dl_error_prefix(err, "writing Parquet file '%s'", w->path);
    }
    w->is_failed = true;
    release_window(w);
    return status;
}

static dl_status
write_bytes(dl_pq_writer *w, const void *data, size_t len, dl_error *err) {
    if (len == 0) {
        return DL_OK;
    }
    DL_TRY(dl_store_writer_append(w->out, data, len, err));
    w->offset += (int64_t)len;
    return DL_OK;
}

static dl_status
check_options(const dl_pq_write_options *o, const dl_type *schema, dl_error *err) {
    DL_CHECK(o->codec != DL_PQ_CODEC_LZO && dl_pq_codec_is_supported(o->codec), err,
             DL_ERR_INVALID_ARG, "Parquet writer: compression codec %d (%s) is not supported",
             (int)o->codec, dl_pq_codec_name(o->codec));
    DL_CHECK(o->row_group_bytes > 0 && o->row_group_rows >= 0 && o->page_bytes > 0 &&
                 o->page_rows > 0 && o->stats_max_bytes > 0,
             err, DL_ERR_INVALID_ARG,
             "Parquet writer: row group, page and statistics limits must be positive");
    DL_CHECK(o->page_version == 1 || o->page_version == 2, err, DL_ERR_INVALID_ARG,
             "Parquet writer: page_version must be 1 or 2, not %d", o->page_version);
    DL_CHECK(o->n_key_value == 0 || o->key_value != NULL, err, DL_ERR_INVALID_ARG,
             "Parquet writer: %zu key-value pairs given without an array", o->n_key_value);
    size_t n_fields = dl_pq_write_field_count(schema);
    DL_CHECK(o->field_ids == NULL || o->n_field_ids == n_fields, err, DL_ERR_INVALID_ARG,
             "Parquet writer: %zu field ids given for a schema of %zu fields", o->n_field_ids,
             n_fields);
    return DL_OK;
}

/* Copies the key-value pairs into the arena. */
static dl_status
copy_key_values(dl_pq_writer *w, dl_error *err) {
    dl_pq_write_options *o = &w->ctx.opts;
    if (o->n_key_value == 0) {
        o->key_value = NULL;
        return DL_OK;
    }
    dl_pq_key_value *kv = dl_arena_alloc_array(&w->arena, o->n_key_value, sizeof(*kv));
    DL_CHECK(kv != NULL, err, DL_ERR_NOMEM, "Parquet writer: out of memory");
    for (size_t i = 0; i < o->n_key_value; i++) {
        kv[i] = o->key_value[i];
        kv[i].key.ptr =
            dl_arena_strndup(&w->arena, kv[i].key.ptr ? kv[i].key.ptr : "", kv[i].key.len);
        if (kv[i].has_value) {
            kv[i].value.ptr = dl_arena_strndup(&w->arena, kv[i].value.ptr ? kv[i].value.ptr : "",
                                               kv[i].value.len);
        }
    }
    DL_CHECK(!w->arena.is_failed, err, DL_ERR_NOMEM, "Parquet writer: out of memory");
    o->key_value = kv;
    w->kv = kv;
    return DL_OK;
}

/* The per-column state: each top-level column's consecutive leaves. */
static dl_status
setup_columns(dl_pq_writer *w, dl_error *err) {
    w->n_cols = w->schema->n_fields;
    w->cols = dl_arena_alloc_zero(&w->arena, (size_t)w->n_cols * sizeof(dl_pq_wcol));
    w->tasks = dl_arena_alloc_zero(&w->arena, (size_t)w->n_cols * sizeof(col_task));
    DL_CHECK(w->cols != NULL && w->tasks != NULL, err, DL_ERR_NOMEM,
             "Parquet writer: out of memory");
    const dl_allocator *a = w->ctx.alloc;
    for (int32_t c = 0; c < w->n_cols; c++) {
        dl_pq_wcol *col = &w->cols[c];
        col->ctx = &w->ctx;
        col->index = c;
        dl_pq_codec_ctx_init(&col->codec, a);
        dl_buf *bufs[] = {&col->body, &col->packed, &col->header, &col->idx,
                          &col->conv, &col->dec,    &col->scratch};
        for (size_t i = 0; i < DL_ARRAY_LEN(bufs); i++) {
            dl_buf_init(bufs[i], a);
        }
        w->tasks[c] = (col_task){.w = w, .col = col};
    }
    for (size_t i = 0; i < w->ws.n_leaves; i++) {
        dl_pq_wleaf *leaf = &w->ws.leaves[i];
        dl_pq_wleaf_init(leaf, &w->ctx);
        dl_pq_wcol *col = &w->cols[leaf->top];
        if (col->n_leaves == 0) {
            col->leaves = leaf;
        }
        col->n_leaves++;
    }
    /* Refuse a bad codec level now rather than at the first page. */
    dl_buf probe;
    dl_buf_init(&probe, a);
    dl_status s =
        dl_pq_codec_compress(&w->cols[0].codec, w->ctx.opts.codec, w->ctx.opts.codec_level,
                             (const uint8_t *)"PAR1", 4, &probe, err);
    dl_buf_destroy(&probe);
    if (s != DL_OK) {
        dl_error_prefix(err, "Parquet writer");
    }
    return s;
}

/* Gives the leaves named in bloom_filter_columns their filters. */
static dl_status
setup_blooms(dl_pq_writer *w, dl_error *err) {
    dl_pq_write_options *o = &w->ctx.opts;
    DL_CHECK(o->bloom_filter_columns != NULL || o->n_bloom_filter_columns == 0, err,
             DL_ERR_INVALID_ARG, "Parquet writer: %zu Bloom filter columns given without an array",
             o->n_bloom_filter_columns);
    if (o->bloom_filter_fpp == 0.0) {
        o->bloom_filter_fpp = 0.01;
    }
    DL_CHECK(o->bloom_filter_fpp > 0.0 && o->bloom_filter_fpp < 1.0, err, DL_ERR_INVALID_ARG,
             "Parquet writer: a Bloom filter false-positive probability of %g is not in (0, 1)",
             o->bloom_filter_fpp);
    size_t max_bytes = o->bloom_filter_max_bytes > 0 ? o->bloom_filter_max_bytes : (size_t)1 << 20;
    for (size_t i = 0; i < o->n_bloom_filter_columns; i++) {
        const char *name = o->bloom_filter_columns[i];
        dl_pq_wleaf *leaf = NULL;
        for (size_t k = 0; name != NULL && k < w->ws.n_leaves && leaf == NULL; k++) {
            leaf = strcmp(w->ws.leaves[k].path, name) == 0 ? &w->ws.leaves[k] : NULL;
        }
        DL_CHECK(leaf != NULL, err, DL_ERR_INVALID_ARG,
                 "Parquet writer: no leaf column '%s' for a Bloom filter (name leaves by their "
                 "dotted Parquet path, e.g. 'tags.list.element')",
                 name != NULL ? name : "(null)");
        DL_TRY(dl_pq_wleaf_bloom_enable(leaf, w->ctx.alloc, max_bytes, err));
    }
    o->bloom_filter_columns = NULL; /* not kept: the leaves know */
    o->n_bloom_filter_columns = 0;
    return DL_OK;
}

static dl_status
writer_setup(dl_pq_writer *w, dl_store *store, const char *path, dl_store_put_mode mode,
             dl_error *err) {
    w->path = dl_arena_strndup(&w->arena, path, strlen(path));
    DL_CHECK(w->path != NULL, err, DL_ERR_NOMEM, "Parquet writer: out of memory");
    const dl_pq_write_options *o = &w->ctx.opts;
    DL_TRY(check_options(o, w->schema, err));
    DL_TRY(copy_key_values(w, err));
    DL_TRY(
        dl_pq_wschema_build(w->schema, o->field_ids, o->stats_max_bytes, &w->arena, &w->ws, err));
    w->ctx.opts.field_ids = NULL;
    w->ctx.opts.n_field_ids = 0;
    DL_TRY(setup_columns(w, err));
    DL_TRY(setup_blooms(w, err));
    DL_TRY(dl_store_writer_open(store, path, mode, &w->out, err));
    return write_bytes(w, "PAR1", 4, err);
}

dl_status
dl_pq_writer_open(dl_store *store, const char *path, dl_store_put_mode mode, const dl_type *schema,
                  const dl_pq_write_options *opts, const dl_allocator *alloc, dl_pq_writer **out,
                  dl_error *err) {
    *out = NULL;
    DL_CHECK(store != NULL && path != NULL && schema != NULL, err, DL_ERR_INVALID_ARG,
             "Parquet writer: store, path and schema are required");
    DL_CHECK(schema->id == DL_VEC_TYPE_STRUCT, err, DL_ERR_INVALID_ARG,
             "Parquet writer: the schema must be a struct type");
    dl_pq_writer *w = dl_mem_alloc_zero(alloc, sizeof(*w));
    DL_CHECK(w != NULL, err, DL_ERR_NOMEM, "Parquet writer: out of memory");
    w->ctx.alloc = alloc;
    if (opts != NULL) {
        w->ctx.opts = *opts;
    } else {
        dl_pq_write_options_init(&w->ctx.opts);
    }
    w->schema = schema;
    dl_arena_init(&w->arena, alloc, 0);
    dl_buf_init(&w->segs, alloc);
    dl_buf_init(&w->row_groups, alloc);
    dl_buf_init(&w->bf_buf, alloc);
    dl_buf_init(&w->ci_buf, alloc);
    dl_buf_init(&w->oi_buf, alloc);
    dl_status s = writer_setup(w, store, path, mode, err);
    if (s != DL_OK) {
        if (w->out != NULL) {
            dl_store_writer_abort(w->out);
        }
        writer_free(w);
        return s;
    }
    *out = w;
    return DL_OK;
}

void
dl_pq_writer_abort(dl_pq_writer *writer) {
    if (writer == NULL) {
        return;
    }
    if (writer->out != NULL) {
        dl_store_writer_abort(writer->out);
    }
    writer_free(writer);
}

/* ---- Encoding windows ---------------------------------------------------------------------- */

/* Encodes one segment's rows of one leaf, slice by slice. Slices end where a page reaches
 * page_rows, so pages hold exactly that many rows. */
static dl_status
encode_segment(dl_pq_wcol *col, dl_pq_wleaf *leaf, const dl_pq_wseg *seg, int64_t page_rows,
               dl_error *err) {
    const dl_vector *vec = seg->cols[col->index];
    int64_t off = 0;
    while (off < seg->count) {
        int64_t n = DL_MIN(seg->count - off, (int64_t)SLICE_ROWS);
        n = DL_MIN(n, DL_MAX(page_rows - leaf->page_rows, (int64_t)1));
        const uint32_t *rows = seg->rows != NULL ? seg->rows + off : NULL;
        DL_TRY(dl_pq_shred(col, leaf, vec, rows, seg->start + off, n, err));
        DL_TRY(dl_pq_wleaf_maybe_end_page(col, leaf, err));
        off += n;
    }
    return DL_OK;
}

static dl_status
encode_task(void *arg, dl_error *err) {
    const col_task *t = arg;
    const dl_pq_writer *w = t->w;
    dl_pq_wcol *col = t->col;
    const dl_pq_wseg *segs = (const dl_pq_wseg *)(const void *)w->segs.data;
    size_t n_segs = w->segs.len / sizeof(dl_pq_wseg);
    for (size_t l = 0; l < col->n_leaves; l++) {
        for (size_t s = 0; s < n_segs; s++) {
            DL_TRY(encode_segment(col, &col->leaves[l], &segs[s], w->ctx.opts.page_rows, err));
        }
    }
    return DL_OK;
}

static dl_status
end_chunk_task(void *arg, dl_error *err) {
    const col_task *t = arg;
    dl_pq_wcol *col = t->col;
    for (size_t l = 0; l < col->n_leaves; l++) {
        DL_TRY(dl_pq_wleaf_end_chunk(col, &col->leaves[l], err));
    }
    return DL_OK;
}

/* Runs fn for every column, on the pool when there is one. */
static dl_status
run_columns(dl_pq_writer *w, dl_pool_fn fn, dl_error *err) {
    dl_pool *pool = w->ctx.opts.pool;
    if (pool == NULL || w->n_cols == 1) {
        for (int32_t c = 0; c < w->n_cols; c++) {
            DL_TRY(fn(&w->tasks[c], err));
        }
        return DL_OK;
    }
    dl_pool_group group;
    dl_pool_group_init(&group, pool);
    dl_status s = DL_OK;
    for (int32_t c = 0; c < w->n_cols && s == DL_OK; c++) {
        s = dl_pool_submit(&group, fn, &w->tasks[c], err);
    }
    dl_error wait_err;
    dl_status ws = dl_pool_group_wait(&group, s == DL_OK ? err : &wait_err);
    return s != DL_OK ? s : ws;
}

static dl_status
encode_window(dl_pq_writer *w, dl_error *err) {
    if (w->segs.len == 0) {
        return DL_OK;
    }
    dl_status s = run_columns(w, encode_task, err);
    release_window(w);
    return s;
}

/* Queues live rows [from, from + count) of batch. */
static dl_status
add_segment(dl_pq_writer *w, const dl_batch *batch, int64_t from, int64_t count, dl_error *err) {
    dl_pq_wseg seg = {.start = from, .count = count};
    if (w->ctx.opts.pool == NULL) {
        seg.cols = batch->cols;
        seg.rows = batch->sel != NULL ? batch->sel + from : NULL;
        return dl_buf_append(&w->segs, &seg, sizeof(seg), err);
    }
    size_t cols_size = (size_t)w->n_cols * sizeof(dl_vector *);
    size_t rows_size = batch->sel != NULL ? (size_t)count * sizeof(uint32_t) : 0;
    seg.block_size = cols_size + rows_size;
    seg.block = dl_mem_alloc(w->ctx.alloc, seg.block_size);
    DL_CHECK(seg.block != NULL, err, DL_ERR_NOMEM, "Parquet writer: out of memory");
    seg.cols = seg.block;
    if (batch->sel != NULL) {
        uint32_t *rows = (uint32_t *)(void *)((uint8_t *)seg.block + cols_size);
        memcpy(rows, batch->sel + from, rows_size);
        seg.rows = rows;
    }
    dl_status s = dl_buf_append(&w->segs, &seg, sizeof(seg), err);
    if (s != DL_OK) {
        dl_mem_free(w->ctx.alloc, seg.block, seg.block_size);
        return s;
    }
    for (int32_t c = 0; c < w->n_cols; c++) {
        seg.cols[c] = dl_vec_ref(batch->cols[c]);
    }
    return DL_OK;
}

static int64_t
buffered_bytes(const dl_pq_writer *w) {
    int64_t total = 0;
    for (size_t i = 0; i < w->ws.n_leaves; i++) {
        total += dl_pq_wleaf_buffered_bytes(&w->ws.leaves[i]);
    }
    return total;
}

/* ---- Row groups ---------------------------------------------------------------------------- */

/* Writes leaf's chunk and records its ColumnChunk. */
static dl_status
write_chunk(dl_pq_writer *w, dl_pq_wleaf *leaf, dl_pq_column_chunk *cc, dl_error *err) {
    int64_t dict_offset = w->offset;
    DL_TRY(write_bytes(w, leaf->dict_page.data, leaf->dict_page.len, err));
    int64_t data_offset = w->offset;
    DL_TRY(write_bytes(w, leaf->chunk.data, leaf->chunk.len, err));
    memset(cc, 0, sizeof(*cc));
    cc->file_offset = dict_offset;
    cc->has_meta_data = true;
    size_t bf_at = w->bf_buf.len;
    DL_TRY(dl_pq_wleaf_bloom_take(leaf, w->ctx.opts.bloom_filter_fpp, &w->bf_buf, err));
    size_t ci_at = w->ci_buf.len;
    size_t oi_at = w->oi_buf.len;
    bool has_ci = false;
    DL_TRY(dl_pq_wleaf_close_chunk(&w->ctx, leaf, dict_offset, data_offset, &w->arena,
                                   &cc->meta_data, &w->ci_buf, &has_ci, &w->oi_buf, err));
    if (w->bf_buf.len > bf_at) {
        cc->meta_data.bloom_filter_offset = (int64_t)bf_at; /* made absolute at close */
        cc->meta_data.bloom_filter_length = (int32_t)(w->bf_buf.len - bf_at);
        cc->meta_data.has_bloom_filter_offset = true;
        cc->meta_data.has_bloom_filter_length = true;
    }
    if (has_ci) {
        cc->column_index_offset = (int64_t)ci_at; /* made absolute at close */
        cc->column_index_length = (int32_t)(w->ci_buf.len - ci_at);
        cc->has_column_index_offset = true;
        cc->has_column_index_length = true;
    }
    if (w->oi_buf.len > oi_at) {
        cc->offset_index_offset = (int64_t)oi_at;
        cc->offset_index_length = (int32_t)(w->oi_buf.len - oi_at);
        cc->has_offset_index_offset = true;
        cc->has_offset_index_length = true;
    }
    return DL_OK;
}

static dl_status
end_row_group(dl_pq_writer *w, dl_error *err) {
    DL_TRY(encode_window(w, err));
    DL_TRY(run_columns(w, end_chunk_task, err));
    size_t n = w->ws.n_leaves;
    dl_pq_column_chunk *chunks = dl_arena_alloc_array(&w->arena, n, sizeof(*chunks));
    DL_CHECK(chunks != NULL, err, DL_ERR_NOMEM, "Parquet writer: out of memory");
    dl_pq_row_group rg;
    memset(&rg, 0, sizeof(rg));
    rg.file_offset = w->offset;
    rg.has_file_offset = true;
    for (size_t i = 0; i < n; i++) {
        DL_TRY(write_chunk(w, &w->ws.leaves[i], &chunks[i], err));
        rg.total_byte_size += chunks[i].meta_data.total_uncompressed_size;
        rg.total_compressed_size += chunks[i].meta_data.total_compressed_size;
    }
    rg.has_total_compressed_size = true;
    rg.columns = chunks;
    rg.n_columns = n;
    rg.num_rows = w->rg_rows;
    size_t ordinal = w->row_groups.len / sizeof(dl_pq_row_group);
    if (ordinal <= INT16_MAX) {
        rg.ordinal = (int16_t)ordinal;
        rg.has_ordinal = true;
    }
    DL_TRY(dl_buf_append(&w->row_groups, &rg, sizeof(rg), err));
    w->num_rows += w->rg_rows;
    w->rg_rows = 0;
    return DL_OK;
}

/* After rows were queued: encodes the window when it is due, and ends the row group when it
 * is full. */
static dl_status
after_segment(dl_pq_writer *w, dl_error *err) {
    const dl_pq_write_options *o = &w->ctx.opts;
    bool is_rg_full = o->row_group_rows > 0 && w->rg_rows >= o->row_group_rows;
    if (o->pool != NULL && !is_rg_full && w->window_rows < DL_PQ_WRITE_WINDOW_ROWS) {
        return DL_OK;
    }
    DL_TRY(encode_window(w, err));
    if (is_rg_full || buffered_bytes(w) >= o->row_group_bytes) {
        return end_row_group(w, err);
    }
    return DL_OK;
}

static dl_status
write_rows(dl_pq_writer *w, const dl_batch *batch, dl_error *err) {
    DL_CHECK(dl_vec_type_equal(batch->schema, w->schema), err, DL_ERR_SCHEMA,
             "Parquet writer: the batch's columns do not match the file's schema");
    DL_TRY(dl_vec_batch_check(batch, err));
    const dl_pq_write_options *o = &w->ctx.opts;
    int64_t done = 0;
    while (done < batch->count) {
        int64_t take = DL_MIN(batch->count - done, (int64_t)DL_BATCH_CAPACITY);
        if (o->row_group_rows > 0) {
            take = DL_MIN(take, o->row_group_rows - w->rg_rows);
        }
        DL_TRY(add_segment(w, batch, done, take, err));
        done += take;
        w->rg_rows += take;
        w->window_rows += take;
        DL_TRY(after_segment(w, err));
    }
    return DL_OK;
}

dl_status
dl_pq_writer_write(dl_pq_writer *writer, const dl_batch *batch, dl_error *err) {
    DL_CHECK(!writer->is_failed, err, DL_ERR_INVALID_ARG,
             "Parquet writer: '%s' failed before; only abort is allowed", writer->path);
    dl_status s = write_rows(writer, batch, err);
    return s == DL_OK ? DL_OK : fail(writer, s, err);
}

dl_status
dl_pq_writer_flush(dl_pq_writer *writer, dl_error *err) {
    DL_CHECK(!writer->is_failed, err, DL_ERR_INVALID_ARG,
             "Parquet writer: '%s' failed before; only abort is allowed", writer->path);
    dl_status s = end_row_group(writer, err);
    return s == DL_OK ? DL_OK : fail(writer, s, err);
}

int64_t
dl_pq_writer_size(const dl_pq_writer *writer) {
    int64_t total = writer->offset;
    for (size_t i = 0; i < writer->ws.n_leaves; i++) {
        const dl_pq_wleaf *leaf = &writer->ws.leaves[i];
        total += dl_pq_wleaf_written_bytes(leaf) + (int64_t)leaf->values.len +
                 (int64_t)leaf->pend_values.len + (int64_t)leaf->indices.len / 4;
    }
    return total;
}

int64_t
dl_pq_writer_num_rows(const dl_pq_writer *writer) {
    return writer->num_rows + writer->rg_rows;
}

/* ---- Closing ------------------------------------------------------------------------------- */

/* Writes the Bloom filters and page indexes and makes the ColumnChunks' offsets to them
 * absolute. */
static dl_status
write_page_indexes(dl_pq_writer *w, dl_error *err) {
    int64_t bf_base = w->offset;
    DL_TRY(write_bytes(w, w->bf_buf.data, w->bf_buf.len, err));
    int64_t ci_base = w->offset;
    DL_TRY(write_bytes(w, w->ci_buf.data, w->ci_buf.len, err));
    int64_t oi_base = w->offset;
    DL_TRY(write_bytes(w, w->oi_buf.data, w->oi_buf.len, err));
    dl_pq_row_group *rgs = (dl_pq_row_group *)(void *)w->row_groups.data;
    size_t n_rgs = w->row_groups.len / sizeof(dl_pq_row_group);
    for (size_t r = 0; r < n_rgs; r++) {
        for (size_t c = 0; c < rgs[r].n_columns; c++) {
            dl_pq_column_chunk *cc = &rgs[r].columns[c];
            if (cc->meta_data.has_bloom_filter_offset) {
                cc->meta_data.bloom_filter_offset += bf_base;
            }
            if (cc->has_column_index_offset) {
                cc->column_index_offset += ci_base;
            }
            if (cc->has_offset_index_offset) {
                cc->offset_index_offset += oi_base;
            }
        }
    }
    return DL_OK;
}

static dl_status
write_footer(dl_pq_writer *w, dl_error *err) {
    size_t n_leaves = w->ws.n_leaves;
    dl_pq_column_order *orders = dl_arena_alloc_array(&w->arena, n_leaves, sizeof(*orders));
    DL_CHECK(orders != NULL, err, DL_ERR_NOMEM, "Parquet writer: out of memory");
    for (size_t i = 0; i < n_leaves; i++) {
        orders[i].kind = DL_PQ_ORDER_TYPE_DEFINED;
    }
    dl_pq_file_metadata md;
    memset(&md, 0, sizeof(md));
    md.version = w->ctx.opts.page_version == 2 ? 2 : 1;
    md.schema = w->ws.elements;
    md.n_schema = w->ws.n_elements;
    md.num_rows = w->num_rows;
    md.row_groups = (dl_pq_row_group *)(void *)w->row_groups.data;
    md.n_row_groups = w->row_groups.len / sizeof(dl_pq_row_group);
    md.key_value_metadata = w->kv;
    md.n_key_value_metadata = w->ctx.opts.n_key_value;
    md.has_key_value_metadata = md.n_key_value_metadata > 0;
    md.created_by = DL_STR(CREATED_BY);
    md.has_created_by = true;
    md.column_orders = orders;
    md.n_column_orders = n_leaves;
    md.has_column_orders = true;
    dl_buf footer;
    dl_buf_init(&footer, w->ctx.alloc);
    dl_status s = dl_pq_file_metadata_encode(&md, &footer, err);
    if (s == DL_OK && footer.len > UINT32_MAX) {
        s = dl_error_set(err, DL_ERR_LIMIT, "Parquet writer: the footer of %zu bytes is too large",
                         footer.len);
    }
    if (s == DL_OK) {
        uint32_t len = (uint32_t)footer.len;
        uint8_t trailer[8] = {(uint8_t)len,
                              (uint8_t)(len >> 8),
                              (uint8_t)(len >> 16),
                              (uint8_t)(len >> 24),
                              'P',
                              'A',
                              'R',
                              '1'};
        s = dl_buf_append(&footer, trailer, sizeof(trailer), err);
    }
    if (s == DL_OK) {
        s = write_bytes(w, footer.data, footer.len, err);
    }
    dl_buf_destroy(&footer);
    return s;
}

static dl_status
finish(dl_pq_writer *w, dl_error *err) {
    DL_TRY(encode_window(w, err));
    if (w->rg_rows > 0) {
        DL_TRY(end_row_group(w, err));
    }
    DL_TRY(write_page_indexes(w, err));
    return write_footer(w, err);
}

/* The file statistics of a leaf as a dl_pq_leaf_stats in arena. */
static dl_status
export_leaf(const dl_pq_wleaf *leaf, dl_arena *arena, dl_pq_leaf_stats *out, dl_error *err) {
    memset(out, 0, sizeof(*out));
    const dl_pq_wstats *st = &leaf->file_stats;
    out->path = dl_arena_strndup(arena, leaf->path, strlen(leaf->path));
    out->field_path = dl_arena_alloc_array(arena, leaf->n_field_path, sizeof(const char *));
    DL_CHECK(out->path != NULL && (out->field_path != NULL || leaf->n_field_path == 0), err,
             DL_ERR_NOMEM, "Parquet writer: out of memory for the result");
    for (size_t i = 0; i < leaf->n_field_path; i++) {
        const char *f = leaf->field_path[i];
        out->field_path[i] = dl_arena_strndup(arena, f, strlen(f));
    }
    out->n_field_path = leaf->n_field_path;
    out->type = leaf->type;
    out->is_repeated = leaf->is_repeated;
    out->null_count = st->null_count;
    out->nan_count = st->nan_count;
    dl_buf tmp;
    dl_buf_init(&tmp, leaf->chunk.alloc);
    dl_pq_wbounds b;
    dl_status s = dl_pq_wstats_encode(st, &leaf->form, &tmp, &b, err);
    if (s == DL_OK) {
        out->has_min = b.has_min;
        out->has_max = b.has_max;
        out->is_min_exact = b.is_min_exact;
        out->is_max_exact = b.is_max_exact;
    }
    dl_pq_stat_value *v[2] = {&out->min, &out->max};
    const dl_pq_wnum *num[2] = {&st->min, &st->max};
    for (int k = 0; k < 2 && s == DL_OK; k++) {
        switch (leaf->vk) {
        case DL_PQ_VK_BOOL:
            v[k]->b = num[k]->i32 != 0;
            break;
        case DL_PQ_VK_I32:
            v[k]->i64 = num[k]->i32;
            v[k]->i128 = num[k]->i32;
            break;
        case DL_PQ_VK_I64:
            v[k]->i64 = num[k]->i64;
            v[k]->i128 = num[k]->i64;
            break;
        case DL_PQ_VK_F32:
            v[k]->f64 = (double)num[k]->f32;
            break;
        case DL_PQ_VK_F64:
            v[k]->f64 = num[k]->f64;
            break;
        case DL_PQ_VK_DEC:
            v[k]->i128 = num[k]->i128;
            break;
        case DL_PQ_VK_BYTES: {
            size_t off = k == 0 ? b.min_off : b.max_off;
            size_t len = k == 0 ? b.min_len : b.max_len;
            char *p = dl_arena_alloc(arena, len + 1);
            if (p == NULL) {
                s = dl_error_set(err, DL_ERR_NOMEM, "Parquet writer: out of memory for the result");
                break;
            }
            if (len > 0) {
                memcpy(p, tmp.data + off, len);
            }
            p[len] = '\0';
            v[k]->bytes = dl_str_make(p, len);
            break;
        }
        default:
            break;
        }
    }
    dl_buf_destroy(&tmp);
    DL_TRY(s);
    DL_CHECK(!arena->is_failed, err, DL_ERR_NOMEM, "Parquet writer: out of memory for the result");
    return DL_OK;
}

static dl_status
export_result(const dl_pq_writer *w, dl_arena *arena, dl_pq_write_result *out, dl_error *err) {
    memset(out, 0, sizeof(*out));
    out->file_size = w->offset;
    out->num_rows = w->num_rows;
    out->n_row_groups = (int64_t)(w->row_groups.len / sizeof(dl_pq_row_group));
    out->leaves = dl_arena_alloc_array(arena, w->ws.n_leaves, sizeof(dl_pq_leaf_stats));
    DL_CHECK(out->leaves != NULL, err, DL_ERR_NOMEM,
             "Parquet writer: out of memory for the result");
    out->n_leaves = w->ws.n_leaves;
    for (size_t i = 0; i < w->ws.n_leaves; i++) {
        DL_TRY(export_leaf(&w->ws.leaves[i], arena, &out->leaves[i], err));
    }
    return DL_OK;
}

dl_status
dl_pq_writer_close(dl_pq_writer *writer, dl_arena *arena, dl_pq_write_result *out, dl_error *err) {
    if (writer->is_failed) {
        dl_status s =
            dl_error_set(err, DL_ERR_INVALID_ARG,
                         "Parquet writer: '%s' failed before and was aborted", writer->path);
        writer_free(writer);
        return s;
    }
    dl_status s = finish(writer, err);
    if (s == DL_OK && out != NULL) {
        s = arena != NULL
                ? export_result(writer, arena, out, err)
                : dl_error_set(err, DL_ERR_INVALID_ARG, "Parquet writer: a result needs an arena");
    }
    if (s != DL_OK) {
        (void)fail(writer, s, err);
        writer_free(writer);
        return s;
    }
    s = dl_store_writer_commit(writer->out, err);
    writer->out = NULL;
    writer_free(writer);
    return s;
}
