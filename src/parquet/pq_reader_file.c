/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Opening a Parquet file for reading: the tail, the footer, the field tree, and ranged reads
 * of column chunks afterwards.
 *
 * The footer sits at the end (parquet.h): the reader first fetches a guess of the tail (64
 * KiB, or the whole file when it is smaller), learns the footer's length from the trailer,
 * and fetches the rest only when the guess fell short. A memory file needs no reads at all:
 * its bytes are wrapped in a dl_vec_buffer that releases nothing, so uncompressed pages can
 * be referenced by vectors in place.
 */
#include <string.h>

#include "parquet/pq_reader_int.h"

#define TAIL_GUESS ((size_t)64 << 10)

static dl_status
new_file(const dl_allocator *alloc, const char *name, dl_pq_file **out, dl_error *err) {
    dl_pq_file *f = dl_mem_alloc_zero(alloc, sizeof(*f));
    DL_CHECK(f != NULL, err, DL_ERR_NOMEM, "out of memory opening '%s'", name);
    f->alloc = alloc;
    dl_arena_init(&f->arena, alloc, 16u << 10);
    f->name = dl_arena_strndup(&f->arena, name, strlen(name));
    if (f->name == NULL) {
        dl_pq_file_free(f);
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory opening '%s'", name);
    }
    *out = f;
    return DL_OK;
}

void
dl_pq_file_free(dl_pq_file *file) {
    if (file == NULL) {
        return;
    }
    dl_store_file_close(file->source);
    dl_vec_buffer_unref(file->mem);
    dl_arena_destroy(&file->arena);
    dl_mem_free(file->alloc, file, sizeof(*file));
}

/* Parses the footer from the last tail_len bytes and builds the fields. */
static dl_status
finish_open(dl_pq_file *f, const uint8_t *tail, size_t tail_len, int64_t size, dl_error *err) {
    DL_TRY(dl_pq_footer_parse(tail, tail_len, size, &f->arena, &f->footer, err));
    DL_TRY(dl_pq_fields_build(f, err));
    const dl_pq_file_metadata *md = &f->footer->meta;
    for (size_t g = 0; g < md->n_row_groups; g++) {
        DL_CHECK(md->row_groups[g].num_rows >= 0 &&
                     f->num_rows <= INT64_MAX - md->row_groups[g].num_rows,
                 err, DL_ERR_CORRUPT, "row group %zu has %lld rows", g,
                 (long long)md->row_groups[g].num_rows);
        f->num_rows += md->row_groups[g].num_rows;
    }
    return DL_OK;
}

static dl_status
open_store(dl_pq_file *f, dl_store *store, const char *path, dl_error *err) {
    DL_TRY(dl_store_file_open(store, path, &f->source, err));
    int64_t size = f->source->size;
    if (size < (int64_t)(DL_PQ_MAGIC_LEN + DL_PQ_TRAILER_LEN)) {
        DL_FAIL(err, DL_ERR_CORRUPT, "not a Parquet file: %lld bytes are too few (at least 12)",
                (long long)size);
    }
    dl_buf tail;
    dl_buf_init(&tail, f->alloc);
    size_t guess = (size_t)size < TAIL_GUESS ? (size_t)size : TAIL_GUESS;
    dl_status s = dl_store_file_read_at_buf(f->source, size - (int64_t)guess, guess, &tail, err);
    size_t needed = 0;
    if (s == DL_OK) {
        s = dl_pq_footer_size(tail.data, tail.len, size, &needed, err);
    }
    if (s == DL_OK && needed > tail.len) {
        /* Read the whole footer (and the head magic when that is the whole file). */
        size_t want = needed + DL_PQ_MAGIC_LEN <= (size_t)size ? needed : (size_t)size;
        dl_buf_reset(&tail);
        s = dl_store_file_read_at_buf(f->source, size - (int64_t)want, want, &tail, err);
    }
    if (s == DL_OK && tail.len < (size_t)size) {
        uint8_t head[DL_PQ_MAGIC_LEN];
        s = dl_store_file_read_at(f->source, 0, head, sizeof(head), err);
        if (s == DL_OK) {
            s = dl_pq_file_check_head(head, sizeof(head), err);
        }
    }
    if (s == DL_OK) {
        s = finish_open(f, tail.data, tail.len, size, err);
    }
    dl_buf_destroy(&tail);
    return s;
}

dl_status
dl_pq_file_open(dl_store *store, const char *path, const dl_allocator *alloc, dl_pq_file **out,
                dl_error *err) {
    dl_pq_file *f;
    DL_TRY(new_file(alloc, path, &f, err));
    dl_status s = open_store(f, store, path, err);
    if (s != DL_OK) {
        dl_error_prefix(err, "'%s'", path);
        dl_pq_file_free(f);
        return s;
    }
    *out = f;
    return DL_OK;
}

dl_status
dl_pq_file_open_memory(const void *data, size_t len, const char *name, const dl_allocator *alloc,
                       dl_pq_file **out, dl_error *err) {
    DL_CHECK(data != NULL || len == 0, err, DL_ERR_INVALID_ARG, "'%s': NULL data", name);
    DL_CHECK(len <= (size_t)INT64_MAX, err, DL_ERR_INVALID_ARG, "'%s': too large", name);
    dl_pq_file *f;
    DL_TRY(new_file(alloc, name, &f, err));
    void *bytes; /* the buffer is never written: its capacity is 0 (foreign memory) */
    memcpy(&bytes, &data, sizeof(bytes));
    dl_status s = dl_vec_buffer_wrap(alloc, bytes, len, NULL, NULL, &f->mem, err);
    if (s == DL_OK) {
        if (len < (size_t)(DL_PQ_MAGIC_LEN + DL_PQ_TRAILER_LEN)) {
            (void)dl_error_set(err, DL_ERR_CORRUPT,
                               "not a Parquet file: %zu bytes are too few (at least 12)", len);
            s = DL_ERR_CORRUPT;
        } else {
            s = finish_open(f, data, len, (int64_t)len, err);
        }
    }
    if (s != DL_OK) {
        dl_error_prefix(err, "'%s'", name);
        dl_pq_file_free(f);
        return s;
    }
    *out = f;
    return DL_OK;
}

dl_status
dl_pq_file_fetch(dl_pq_file *file, const dl_allocator *alloc, int64_t offset, size_t len,
                 dl_vec_buffer **reuse, dl_vec_buffer **out_buf, size_t *out_pos, dl_error *err) {
    if (file->mem != NULL) {
        DL_ASSERT(offset >= 0 && (size_t)offset <= file->mem->size &&
                  len <= file->mem->size - (size_t)offset);
        *out_buf = dl_vec_buffer_ref(file->mem);
        *out_pos = (size_t)offset;
        return DL_OK;
    }
    dl_vec_buffer *buf = NULL;
    if (reuse != NULL && *reuse != NULL && (*reuse)->capacity >= len &&
        dl_vec_buffer_is_unique(*reuse)) {
        buf = *reuse;
        *reuse = NULL;
    } else {
        /* Headroom, so that the next (similar) chunk fits the buffer when it is reused. */
        size_t cap = reuse != NULL && len < SIZE_MAX / 2 ? len + len / 4 : len;
        DL_TRY(dl_pq_buffer_new(alloc, DL_MAX(cap, 1), &buf, err));
    }
    dl_status s = dl_store_file_read_at(file->source, offset, buf->data, len, err);
    if (s != DL_OK) {
        dl_vec_buffer_unref(buf);
        return s;
    }
    buf->size = len;
    *out_buf = buf;
    *out_pos = 0;
    return DL_OK;
}

const dl_pq_footer *
dl_pq_file_footer(const dl_pq_file *file) {
    return file->footer;
}

const char *
dl_pq_file_name(const dl_pq_file *file) {
    return file->name;
}

const dl_pq_field *
dl_pq_file_root(const dl_pq_file *file) {
    return file->root;
}

int64_t
dl_pq_file_num_rows(const dl_pq_file *file) {
    return file->num_rows;
}
