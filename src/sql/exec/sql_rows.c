/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Row collections (dl_sql_rows in sql_exec.h): chunks of DL_BATCH_CAPACITY rows of FLAT
 * vectors. Appending copies fixed-width values and string views; out-of-line string bytes
 * stay in the heaps of the appended vectors, which the chunks reference.
 */
#include <string.h>

#include "sql/exec/sql_exec_int.h"

void
dl_sql_rows_init(dl_sql_rows *rows, const dl_allocator *alloc, const dl_type *schema) {
    memset(rows, 0, sizeof(*rows));
    rows->alloc = alloc;
    rows->schema = schema;
}

void
dl_sql_rows_destroy(dl_sql_rows *rows) {
    for (int64_t i = 0; i < rows->n_chunks; i++) {
        dl_vec_batch_free(rows->chunks[i]);
    }
    dl_mem_free(rows->alloc, rows->chunks, (size_t)rows->cap_chunks * sizeof(dl_batch *));
    rows->chunks = NULL;
    rows->n_chunks = 0;
    rows->cap_chunks = 0;
    rows->count = 0;
}

static dl_status
add_chunk(dl_sql_rows *rows, dl_error *err) {
    if (rows->n_chunks == rows->cap_chunks) {
        int64_t cap = rows->cap_chunks == 0 ? 8 : rows->cap_chunks * 2;
        dl_batch **grown =
            dl_mem_realloc(rows->alloc, rows->chunks, (size_t)rows->cap_chunks * sizeof(dl_batch *),
                           (size_t)cap * sizeof(dl_batch *));
        DL_CHECK(grown != NULL, err, DL_ERR_NOMEM, "out of memory collecting rows");
        rows->chunks = grown;
        rows->cap_chunks = cap;
    }
    dl_batch *chunk = NULL;
    DL_TRY(dl_vec_batch_new(rows->alloc, rows->schema, DL_BATCH_CAPACITY, &chunk, err));
    rows->chunks[rows->n_chunks++] = chunk;
    return DL_OK;
}

dl_status
dl_sql_rows_tail(dl_sql_rows *rows, dl_batch **out, dl_error *err) {
    if (rows->n_chunks == 0 || rows->chunks[rows->n_chunks - 1]->count == DL_BATCH_CAPACITY) {
        DL_TRY(add_chunk(rows, err));
    }
    *out = rows->chunks[rows->n_chunks - 1];
    return DL_OK;
}

void
dl_sql_rows_commit_row(dl_sql_rows *rows) {
    rows->chunks[rows->n_chunks - 1]->count++;
    rows->count++;
}

dl_status
dl_sql_rows_append(dl_sql_rows *rows, const dl_batch *batch, dl_error *err) {
    int64_t done = 0;
    while (done < batch->count) {
        dl_batch *tail = NULL;
        DL_TRY(dl_sql_rows_tail(rows, &tail, err));
        int64_t room = DL_BATCH_CAPACITY - tail->count;
        int64_t n = DL_MIN(room, batch->count - done);
        const uint32_t *sel = batch->sel != NULL ? batch->sel + done : dl_sql_identity_sel(done);
        for (int32_t c = 0; c < tail->n_cols; c++) {
            DL_TRY(dl_vec_copy_sel(tail->cols[c], batch->cols[c], sel, n, err));
        }
        tail->count += n;
        rows->count += n;
        done += n;
    }
    return DL_OK;
}

/* Appends chunk (full) to dst by moving it, when dst's last chunk is full too. */
static dl_status
move_chunk(dl_sql_rows *dst, dl_batch *chunk, dl_error *err) {
    if (dst->n_chunks == dst->cap_chunks) {
        DL_TRY(add_chunk(dst, err)); /* grows the array; the fresh chunk is dropped again */
        dl_vec_batch_free(dst->chunks[--dst->n_chunks]);
    }
    dst->chunks[dst->n_chunks++] = chunk;
    dst->count += chunk->count;
    return DL_OK;
}

dl_status
dl_sql_rows_push_shared(dl_sql_rows *rows, const dl_batch *batch, dl_error *err) {
    DL_CHECK(batch->sel == NULL && batch->count <= DL_BATCH_CAPACITY, err, DL_ERR_INTERNAL,
             "a shared chunk must be a whole batch of at most %d rows", DL_BATCH_CAPACITY);
    dl_batch *chunk = NULL;
    DL_TRY(dl_vec_batch_new(rows->alloc, rows->schema, 0, &chunk, err));
    for (int32_t c = 0; c < chunk->n_cols; c++) {
        dl_vec_batch_set_col(chunk, c, dl_vec_ref(batch->cols[c]));
    }
    dl_vec_batch_set_count(chunk, batch->count);
    dl_status s = move_chunk(rows, chunk, err);
    if (s != DL_OK) {
        dl_vec_batch_free(chunk);
    }
    return s;
}

dl_status
dl_sql_rows_move_append(dl_sql_rows *dst, dl_sql_rows *src, dl_error *err) {
    dl_status s = DL_OK;
    for (int64_t i = 0; i < src->n_chunks && s == DL_OK; i++) {
        dl_batch *chunk = src->chunks[i];
        bool dst_full =
            dst->n_chunks == 0 || dst->chunks[dst->n_chunks - 1]->count == DL_BATCH_CAPACITY;
        if (chunk->count == DL_BATCH_CAPACITY && dst_full) {
            s = move_chunk(dst, chunk, err);
            if (s == DL_OK) {
                src->chunks[i] = NULL;
            }
        } else {
            s = dl_sql_rows_append(dst, chunk, err);
        }
    }
    for (int64_t i = 0; i < src->n_chunks; i++) {
        dl_vec_batch_free(src->chunks[i]);
    }
    src->n_chunks = 0;
    src->count = 0;
    return s;
}
