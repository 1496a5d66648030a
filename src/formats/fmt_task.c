/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the CSV and JSON readers share (fmt_int.h): their files and chunks, running a reader's
 * tasks on the pool, line numbers for messages, dropping malformed rows, and the batches a task
 * keeps until they are pushed in file order.
 */
#include <string.h>

#include "formats/fmt_int.h"

dl_status
dl_fmt_run_tasks(dl_pool *pool, dl_pool_fn fn, void *args, size_t arg_size, int32_t n,
                 dl_error *err) {
    if (pool == NULL || n == 1) {
        for (int32_t i = 0; i < n; i++) {
            DL_TRY(fn((char *)args + (size_t)i * arg_size, err));
        }
        return DL_OK;
    }
    dl_pool_group g;
    dl_pool_group_init(&g, pool);
    dl_status s = DL_OK;
    for (int32_t i = 0; i < n && s == DL_OK; i++) {
        s = dl_pool_submit(&g, fn, (char *)args + (size_t)i * arg_size, err);
    }
    dl_error wait_err;
    dl_error_clear(&wait_err);
    dl_status ws = dl_pool_group_wait(&g, &wait_err);
    if (s == DL_OK && ws != DL_OK) {
        *err = wait_err;
        s = ws;
    }
    return s;
}

int64_t
dl_fmt_line_of(const char *text, size_t off) {
    int64_t line = 1;
    for (const char *p = text, *end = text + off; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (nl == NULL) {
            break;
        }
        line++;
        p = nl + 1;
    }
    return line;
}

dl_status
dl_fmt_batches_keep(dl_fmt_batches *l, const dl_allocator *alloc, dl_batch *batch, dl_error *err) {
    if (l->n == l->cap) {
        int64_t cap = l->cap == 0 ? 8 : 2 * l->cap;
        dl_batch **grown = dl_mem_realloc(alloc, l->items, (size_t)l->cap * sizeof(dl_batch *),
                                          (size_t)cap * sizeof(dl_batch *));
        if (grown == NULL) {
            dl_vec_batch_free(batch);
            DL_FAIL(err, DL_ERR_NOMEM, "out of memory keeping a batch of rows read");
        }
        l->items = grown;
        l->cap = cap;
    }
    l->items[l->n++] = batch;
    return DL_OK;
}

dl_status
dl_fmt_batches_push(dl_fmt_batches *l, const dl_allocator *alloc, dl_status s, dl_fmt_push_fn push,
                    void *push_ctx, dl_error *err) {
    for (int64_t k = 0; k < l->n; k++) {
        if (s == DL_OK) {
            s = push(push_ctx, l->items[k], err);
        } else {
            dl_vec_batch_free(l->items[k]);
        }
    }
    dl_mem_free(alloc, l->items, (size_t)l->cap * sizeof(dl_batch *));
    *l = (dl_fmt_batches){0};
    return s;
}

dl_status
dl_fmt_input_init(dl_fmt_input *in, const dl_allocator *alloc, const char *const *names,
                  dl_vec_buffer *const *data, int32_t n, dl_error *err) {
    *in = (dl_fmt_input){0};
    dl_arena_init(&in->arena, alloc, 0);
    in->files = dl_arena_alloc_zero(&in->arena, (size_t)(n + 1) * sizeof(dl_fmt_file));
    DL_CHECK(in->files != NULL, err, DL_ERR_NOMEM, "out of memory opening files to read");
    for (int32_t i = 0; i < n; i++) {
        in->files[i] = (dl_fmt_file){.name = names[i], .buf = dl_vec_buffer_ref(data[i])};
        in->n_files++;
    }
    return DL_OK;
}

void
dl_fmt_input_destroy(dl_fmt_input *in) {
    for (int32_t i = 0; i < in->n_files; i++) {
        dl_vec_buffer_unref(in->files[i].buf);
    }
    dl_arena_destroy(&in->arena);
    *in = (dl_fmt_input){0};
}

static dl_status
add_chunk(dl_fmt_input *in, int32_t file, size_t start, size_t end, dl_error *err) {
    if (in->n_chunks == in->cap_chunks) {
        int32_t cap = in->cap_chunks == 0 ? 16 : 2 * in->cap_chunks;
        dl_fmt_chunk *grown = dl_arena_alloc_array(&in->arena, (size_t)cap, sizeof(dl_fmt_chunk));
        DL_CHECK(grown != NULL, err, DL_ERR_NOMEM, "out of memory splitting files to read");
        if (in->n_chunks > 0) {
            memcpy(grown, in->chunks, (size_t)in->n_chunks * sizeof(dl_fmt_chunk));
        }
        in->chunks = grown;
        in->cap_chunks = cap;
    }
    in->chunks[in->n_chunks++] = (dl_fmt_chunk){.file = file, .start = start, .end = end};
    return DL_OK;
}

dl_status
dl_fmt_input_split(dl_fmt_input *in, int n_threads, size_t min_chunk, bool is_whole,
                   size_t (*min_end)(const void *ctx, int32_t file), const void *ctx,
                   dl_error *err) {
    size_t total = 0;
    for (int32_t f = 0; f < in->n_files; f++) {
        total += in->files[f].buf->size;
    }
    size_t target = total / (size_t)(4 * DL_MAX(n_threads, 1)) + 1;
    target = DL_MAX(target, min_chunk != 0 ? min_chunk : (size_t)1 << 20);
    for (int32_t f = 0; f < in->n_files; f++) {
        const char *s = (const char *)in->files[f].buf->data;
        size_t size = in->files[f].buf->size;
        size_t start = 0;
        size_t least = min_end != NULL && !is_whole ? min_end(ctx, f) : 0;
        while (!is_whole && size - start > target) {
            size_t from = DL_MAX(start + target, least > 0 ? least - 1 : 0);
            const char *nl = from < size ? memchr(s + from, '\n', size - from) : NULL;
            if (nl == NULL) {
                break;
            }
            size_t end = (size_t)(nl - s) + 1;
            DL_TRY(add_chunk(in, f, start, end, err));
            start = end;
        }
        DL_TRY(add_chunk(in, f, start, size, err));
    }
    return DL_OK;
}

static void
release_parent(void *ctx, void *data) {
    (void)data;
    dl_vec_buffer_unref(ctx);
}

dl_status
dl_fmt_chunk_heap(const dl_allocator *alloc, const dl_fmt_input *in, const dl_fmt_chunk *c,
                  dl_vec_buffer **out, dl_error *err) {
    *out = NULL;
    dl_vec_buffer *file = in->files[c->file].buf;
    if (c->end - c->start > INT32_MAX || c->end == c->start) {
        return DL_OK;
    }
    dl_vec_buffer *parent = dl_vec_buffer_ref(file);
    dl_status s = dl_vec_buffer_wrap(alloc, file->data + c->start, c->end - c->start,
                                     release_parent, parent, out, err);
    if (s != DL_OK) {
        dl_vec_buffer_unref(parent);
    }
    return s;
}

dl_status
dl_fmt_drop_rows(dl_batch *batch, const uint8_t *bad, int64_t n, dl_error *err) {
    uint32_t rows[DL_BATCH_CAPACITY];
    int64_t m = 0;
    for (int64_t k = 0; k < n; k++) {
        if (!bad[k]) {
            rows[m++] = (uint32_t)k;
        }
    }
    if (m == n) {
        return DL_OK;
    }
    DL_TRY(dl_vec_batch_set_sel(batch, rows, m, err));
    return dl_vec_batch_apply_sel(batch, err);
}
