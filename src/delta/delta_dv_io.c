/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reading a deletion vector through its descriptor, and writing DVs: inline descriptors and
 * DV files (PROTOCOL.md, "Deletion Vector File Storage Format"; the framing is described in
 * delta_dv_format.c).
 *
 * Reading a file DV costs two positional reads, whatever the file holds: the version byte at
 * 0 and the DV's frame (size, bitmap, checksum) at its offset; several DVs in one file (as
 * Spark writes them, one file per DELETE) are read independently.
 *
 * Writing follows Spark's DV store: the file is created only when the first DV is added
 * (version byte 1, then each DV framed at the offset its descriptor records, the first at
 * offset 1), and published with put-if-absent since its UUID name must be new. Offsets and
 * sizes are Java ints in the descriptor, so a file stops growing at 2 GiB (DL_ERR_LIMIT).
 */
#include <inttypes.h>
#include <string.h>

#include "delta/delta_dv_int.h"

static dl_status
load_inline(const dl_delta_dv_desc *desc, const dl_allocator *alloc, dl_delta_dv **out,
            dl_error *err) {
    dl_str text = desc->path_or_inline_dv;
    size_t n = text.len / 5 * 4;
    uint8_t *bytes = dl_mem_alloc(alloc, n);
    if (bytes == NULL) {
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory decoding an inline deletion vector of %zu bytes",
                n);
    }
    size_t n_decoded = 0;
    dl_status status = dl_delta_z85_decode_padded(text.ptr, text.len, bytes, &n_decoded, err);
    if (status == DL_OK && n_decoded < (size_t)desc->size_in_bytes) {
        status = dl_error_set(err, DL_ERR_CORRUPT,
                              "its Z85 text decodes to %zu bytes, fewer than sizeInBytes %d",
                              n_decoded, (int)desc->size_in_bytes);
    }
    if (status == DL_OK) {
        status = dl_delta_dv_parse(bytes, (size_t)desc->size_in_bytes, alloc, out, err);
    }
    dl_mem_free(alloc, bytes, n);
    if (status != DL_OK) {
        dl_error_prefix(err, "inline deletion vector 'i%.*s'", (int)(text.len > 60 ? 60 : text.len),
                        text.ptr);
    }
    return status;
}

/* Reads and parses the DV at desc's offset in the open file f, named name in messages. */
static dl_status
read_framed(dl_store_file *f, const char *name, const dl_delta_dv_desc *desc,
            const dl_allocator *alloc, dl_delta_dv **out, dl_error *err) {
    uint8_t version = 0;
    DL_CHECK(f->size >= 1, err, DL_ERR_CORRUPT, "deletion vector file '%s' is empty", name);
    DL_TRY_CTX(dl_store_file_read_at(f, 0, &version, 1, err), err, "deletion vector file '%s'",
               name);
    DL_CHECK(version == DL_DELTA_DV_FILE_VERSION, err, DL_ERR_UNSUPPORTED,
             "deletion vector file '%s' has format version %u; only version 1 is supported", name,
             (unsigned)version);
    int64_t offset = desc->has_offset ? desc->offset : 0;
    int64_t size = desc->size_in_bytes;
    DL_CHECK(offset >= 1, err, DL_ERR_CORRUPT,
             "deletion vector file '%s': a DV cannot start at offset %lld, on the version byte",
             name, (long long)offset);
    DL_CHECK(offset <= f->size && f->size - offset >= size + 8, err, DL_ERR_CORRUPT,
             "deletion vector file '%s': the DV at offset %lld (%lld bytes plus 8 of framing) runs "
             "past the end of the file (%lld bytes)",
             name, (long long)offset, (long long)size, (long long)f->size);
    dl_buf frame;
    dl_buf_init(&frame, alloc);
    dl_status status = dl_store_file_read_at_buf(f, offset, (size_t)size + 8, &frame, err);
    if (status == DL_OK) {
        status = dl_delta_dv_check_frame(frame.data, desc->size_in_bytes, name, offset, err);
    }
    if (status == DL_OK) {
        status = dl_delta_dv_parse(frame.data + 4, (size_t)size, alloc, out, err);
        if (status != DL_OK) {
            dl_error_prefix(err, "deletion vector file '%s', DV at offset %lld", name,
                            (long long)offset);
            if (err != NULL && status == DL_ERR_CORRUPT) {
                err->offset += offset + 4;
            }
        }
    }
    dl_buf_destroy(&frame);
    return status;
}

static dl_status
load_file(dl_store *store, const char *table_root, const dl_delta_dv_desc *desc,
          const dl_allocator *alloc, dl_delta_dv **out, dl_error *err) {
    dl_buf path;
    dl_buf_init(&path, alloc);
    dl_store *fs_root = NULL;
    dl_store_file *f = NULL;
    bool is_absolute = false;
    dl_status status = dl_delta_dv_desc_locate(desc, store, table_root, &path, &is_absolute, err);
    const char *name = dl_buf_cstr(&path);
    const char *rel = name;
    dl_store *from = store;
    if (status == DL_OK && is_absolute) {
        /* A 'p' DV outside the store's root: the local file system can still reach it. */
        if (strcmp(store->vt->kind, "local") != 0) {
            status = dl_error_set(err, DL_ERR_UNSUPPORTED,
                                  "deletion vector file '%s' is outside the table's store '%s', "
                                  "which is not on the local file system",
                                  name, store->location);
        } else {
            dl_store_local_options opts = {.alloc = alloc};
            status = dl_store_local_new("/", &opts, &fs_root, err);
            from = fs_root;
            rel = name + 1;
        }
    }
    if (status == DL_OK) {
        status = dl_store_file_open(from, rel, &f, err);
        if (status != DL_OK) {
            dl_error_prefix(err, "deletion vector file '%s'", name);
        }
    }
    if (status == DL_OK) {
        status = read_framed(f, name, desc, alloc, out, err);
    }
    dl_store_file_close(f);
    dl_store_free(fs_root);
    dl_buf_destroy(&path);
    return status;
}

/* The loaded set against its descriptor: cardinality and maxRowIndex. */
static dl_status
check_loaded(const dl_delta_dv *dv, const dl_delta_dv_desc *desc, dl_error *err) {
    if (dv->cardinality != desc->cardinality) {
        dl_buf id;
        dl_buf_init(&id, dv->alloc);
        const char *shown = dl_delta_dv_desc_append_id(desc, &id, NULL) == DL_OK
                                ? dl_buf_cstr(&id)
                                : "(out of memory)";
        (void)dl_error_set(err, DL_ERR_CORRUPT,
                           "deletion vector '%.200s' holds %lld rows but its descriptor says "
                           "cardinality %lld",
                           shown, (long long)dv->cardinality, (long long)desc->cardinality);
        dl_buf_destroy(&id);
        return DL_ERR_CORRUPT;
    }
    int64_t max_row = dl_delta_dv_max_row(dv);
    DL_CHECK(!desc->has_max_row_index || max_row <= desc->max_row_index, err, DL_ERR_CORRUPT,
             "deletion vector deletes row %lld, beyond its descriptor's maxRowIndex %lld",
             (long long)max_row, (long long)desc->max_row_index);
    return DL_OK;
}

dl_status
dl_delta_dv_load(dl_store *store, const char *table_root, const dl_delta_dv_desc *desc,
                 const dl_allocator *alloc, dl_delta_dv **out, dl_error *err) {
    *out = NULL;
    if (alloc == NULL) {
        alloc = dl_allocator_default();
    }
    DL_TRY(dl_delta_dv_desc_check(desc, err));
    dl_delta_dv *dv = NULL;
    if (desc->storage_type == DL_DELTA_DV_STORAGE_INLINE) {
        DL_TRY(load_inline(desc, alloc, &dv, err));
    } else {
        DL_TRY(load_file(store, table_root, desc, alloc, &dv, err));
    }
    dl_status status = check_loaded(dv, desc, err);
    if (status != DL_OK) {
        dl_delta_dv_free(dv);
        return status;
    }
    *out = dv;
    return DL_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* Writing                                                                                     */

dl_status
dl_delta_dv_to_inline(const dl_delta_dv *dv, dl_arena *arena, dl_delta_dv_desc *out,
                      dl_error *err) {
    dl_buf bytes;
    dl_buf text;
    dl_buf_init(&bytes, arena->alloc);
    dl_buf_init(&text, arena->alloc);
    dl_status status = dl_delta_dv_serialize(dv, &bytes, err);
    if (status == DL_OK && bytes.len > INT32_MAX) {
        status = dl_error_set(err, DL_ERR_LIMIT,
                              "a deletion vector of %zu bytes is too large to inline", bytes.len);
    }
    if (status == DL_OK) {
        status = dl_delta_z85_encode(bytes.data, bytes.len, &text, err);
    }
    char *copy = NULL;
    if (status == DL_OK) {
        copy = dl_arena_memdup(arena, text.data, text.len);
        if (copy == NULL) {
            status = dl_error_set(err, DL_ERR_NOMEM, "out of memory inlining a deletion vector");
        }
    }
    if (status == DL_OK) {
        *out = (dl_delta_dv_desc){
            .storage_type = DL_DELTA_DV_STORAGE_INLINE,
            .path_or_inline_dv = dl_str_make(copy, text.len),
            .size_in_bytes = (int32_t)bytes.len,
            .cardinality = dv->cardinality,
        };
    }
    dl_buf_destroy(&text);
    dl_buf_destroy(&bytes);
    return status;
}

struct dl_delta_dv_file_writer {
    dl_store *store;
    const dl_allocator *alloc;
    dl_store_writer *sw; /* opened by the first add */
    char *path;          /* relative to the store's root; owned */
    size_t path_size;    /* bytes allocated for path */
    dl_str dv_path;      /* pathOrInlineDv: prefix + Z85 UUID, in the caller's arena */
    int64_t n_bytes;     /* bytes written so far */
    dl_buf scratch;      /* one framed DV */
};

/* Builds the file's relative path into w->path and the descriptor path into arena. */
static dl_status
name_file(dl_delta_dv_file_writer *w, const char *table_root, const char *prefix,
          const uint8_t uuid[16], dl_arena *arena, dl_error *err) {
    dl_buf b;
    dl_buf_init(&b, w->alloc);
    char text[37];
    dl_delta_uuid_format(uuid, text);
    dl_str root = dl_str_from_cstr(table_root);
    while (root.len > 0 && root.ptr[root.len - 1] == '/') {
        root.len--;
    }
    dl_status status =
        dl_buf_appendf(&b, err, "%.*s%s%s%sdeletion_vector_%s.bin", DL_STR_FMT(root),
                       root.len > 0 ? "/" : "", prefix, prefix[0] != '\0' ? "/" : "", text);
    if (status == DL_OK) {
        status = dl_store_path_check(dl_buf_cstr(&b), false, "deletion vector file path", err);
    }
    if (status == DL_OK) {
        w->path = dl_mem_alloc(w->alloc, b.len + 1);
        if (w->path == NULL) {
            status = dl_error_set(err, DL_ERR_NOMEM, "out of memory naming a deletion vector file");
        } else {
            memcpy(w->path, b.data, b.len + 1);
            w->path_size = b.len + 1;
        }
    }
    if (status == DL_OK) {
        dl_buf_reset(&b);
        status = dl_buf_append_cstr(&b, prefix, err);
    }
    if (status == DL_OK) {
        status = dl_delta_z85_encode(uuid, 16, &b, err);
    }
    if (status == DL_OK) {
        char *copy = dl_arena_memdup(arena, b.data, b.len);
        w->dv_path = dl_str_make(copy, b.len);
        if (copy == NULL) {
            status = dl_error_set(err, DL_ERR_NOMEM, "out of memory naming a deletion vector file");
        }
    }
    dl_buf_destroy(&b);
    return status;
}

dl_status
dl_delta_dv_file_writer_open(dl_store *store, const char *table_root, const char *prefix,
                             const uint8_t *uuid, dl_arena *arena, dl_delta_dv_file_writer **out,
                             dl_error *err) {
    *out = NULL;
    uint8_t drawn[16];
    if (uuid == NULL) {
        DL_TRY(dl_delta_uuid_random(drawn, err));
        uuid = drawn;
    }
    const dl_allocator *alloc = store->alloc != NULL ? store->alloc : dl_allocator_default();
    dl_delta_dv_file_writer *w = dl_mem_alloc_zero(alloc, sizeof(*w));
    if (w == NULL) {
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory starting a deletion vector file");
    }
    w->store = store;
    w->alloc = alloc;
    dl_buf_init(&w->scratch, alloc);
    dl_status status = name_file(w, table_root, prefix != NULL ? prefix : "", uuid, arena, err);
    if (status != DL_OK) {
        dl_delta_dv_file_writer_abort(w);
        return status;
    }
    *out = w;
    return DL_OK;
}

/* Frames dv into w->scratch: big-endian size, bitmap, big-endian CRC-32. */
static dl_status
frame_dv(dl_delta_dv_file_writer *w, const dl_delta_dv *dv, size_t *out_size, dl_error *err) {
    dl_buf_reset(&w->scratch);
    uint8_t *head = dl_buf_extend(&w->scratch, 4, err);
    if (head == NULL) {
        return DL_ERR_NOMEM;
    }
    DL_TRY(dl_delta_dv_serialize(dv, &w->scratch, err));
    size_t size = w->scratch.len - 4;
    DL_CHECK(size <= INT32_MAX, err, DL_ERR_LIMIT,
             "a deletion vector of %zu bytes exceeds the 2 GiB a descriptor can describe", size);
    uint8_t *tail = dl_buf_extend(&w->scratch, 4, err);
    if (tail == NULL) {
        return DL_ERR_NOMEM;
    }
    dl_delta_store_be32(w->scratch.data, (uint32_t)size);
    dl_delta_store_be32(w->scratch.data + 4 + size, dl_delta_dv_crc32(w->scratch.data + 4, size));
    *out_size = size;
    return DL_OK;
}

dl_status
dl_delta_dv_file_writer_add(dl_delta_dv_file_writer *w, const dl_delta_dv *dv,
                            dl_delta_dv_desc *out, dl_error *err) {
    size_t size;
    DL_TRY(frame_dv(w, dv, &size, err));
    if (w->sw == NULL) {
        DL_TRY(dl_store_writer_open(w->store, w->path, DL_STORE_PUT_IF_ABSENT, &w->sw, err));
        uint8_t version = DL_DELTA_DV_FILE_VERSION;
        DL_TRY(dl_store_writer_append(w->sw, &version, 1, err));
        w->n_bytes = 1;
    }
    DL_CHECK(w->n_bytes <= INT32_MAX, err, DL_ERR_LIMIT,
             "deletion vector file '%s' has reached %lld bytes; a descriptor's offset cannot go "
             "past 2 GiB",
             w->path, (long long)w->n_bytes);
    int64_t offset = w->n_bytes;
    DL_TRY(dl_store_writer_append(w->sw, w->scratch.data, w->scratch.len, err));
    w->n_bytes += (int64_t)w->scratch.len;
    *out = (dl_delta_dv_desc){
        .storage_type = DL_DELTA_DV_STORAGE_UUID,
        .path_or_inline_dv = w->dv_path,
        .offset = (int32_t)offset,
        .has_offset = true,
        .size_in_bytes = (int32_t)size,
        .cardinality = dv->cardinality,
    };
    return DL_OK;
}

static void
writer_release(dl_delta_dv_file_writer *w) {
    dl_buf_destroy(&w->scratch);
    dl_mem_free(w->alloc, w->path, w->path_size);
    dl_mem_free(w->alloc, w, sizeof(*w));
}

dl_status
dl_delta_dv_file_writer_commit(dl_delta_dv_file_writer *w, dl_error *err) {
    dl_status status = DL_OK;
    if (w->sw != NULL) {
        status = dl_store_writer_commit(w->sw, err);
        if (status != DL_OK) {
            dl_error_prefix(err, "deletion vector file '%s'", w->path);
        }
        w->sw = NULL;
    }
    writer_release(w);
    return status;
}

void
dl_delta_dv_file_writer_abort(dl_delta_dv_file_writer *w) {
    if (w == NULL) {
        return;
    }
    dl_store_writer_abort(w->sw);
    writer_release(w);
}

const char *
dl_delta_dv_file_writer_path(const dl_delta_dv_file_writer *w) {
    return w->path;
}
