/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The store wrappers: argument checks shared by every implementation, then dispatch through
 * the vtable. Keeping the checks here means an implementation cannot forget to refuse a path
 * that escapes its root, and every implementation reports reads past the end alike.
 */
#include "store/store.h"

#include <string.h>

static bool
component_is_bad(const char *start, size_t len) {
    return len == 0 || (len == 1 && start[0] == '.') ||
           (len == 2 && start[0] == '.' && start[1] == '.');
}

dl_status
dl_store_path_check(const char *path, bool is_prefix, const char *what, dl_error *err) {
    DL_CHECK(path != NULL, err, DL_ERR_INVALID_ARG, "store %s is NULL", what);
    size_t len = strlen(path);
    if (len == 0) {
        DL_CHECK(is_prefix, err, DL_ERR_INVALID_ARG, "store %s is empty", what);
        return DL_OK;
    }
    DL_CHECK(path[0] != '/', err, DL_ERR_INVALID_ARG,
             "store %s '%s' is absolute: paths are relative to the store's root", what, path);
    if (path[len - 1] == '/') {
        DL_CHECK(is_prefix, err, DL_ERR_INVALID_ARG,
                 "store %s '%s' ends with '/': a file name is expected", what, path);
        len--;
    }
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && path[i] != '/') {
            continue;
        }
        if (component_is_bad(path + start, i - start)) {
            dl_error_set(err, DL_ERR_INVALID_ARG,
                         "store %s '%s' has a%s component at byte %zu: paths must stay inside "
                         "the store's root and be canonical",
                         what, path, i == start ? "n empty" : " '.' or '..'", start);
            if (err != NULL) {
                err->offset = (int64_t)start;
            }
            return DL_ERR_INVALID_ARG;
        }
        start = i + 1;
    }
    return DL_OK;
}

void
dl_store_free(dl_store *store) {
    if (store != NULL) {
        store->vt->release(store);
    }
}

dl_status
dl_store_stat(dl_store *store, const char *path, dl_store_info *out, dl_error *err) {
    DL_TRY(dl_store_path_check(path, true, "path", err));
    return store->vt->stat(store, path, out, err);
}

dl_status
dl_store_list(dl_store *store, const char *prefix, const char *start_after, unsigned flags,
              dl_arena *arena, dl_store_listing *out, dl_error *err) {
    out->entries = NULL;
    out->count = 0;
    DL_TRY(dl_store_path_check(prefix, true, "prefix", err));
    DL_CHECK((flags & ~DL_STORE_LIST_RECURSIVE) == 0, err, DL_ERR_INVALID_ARG,
             "unknown listing flags 0x%x", flags);
    return store->vt->list(store, prefix, start_after, flags, arena, out, err);
}

dl_status
dl_store_file_open(dl_store *store, const char *path, dl_store_file **out, dl_error *err) {
    *out = NULL;
    DL_TRY(dl_store_path_check(path, false, "path", err));
    return store->vt->file_open(store, path, out, err);
}

dl_status
dl_store_file_read_at(dl_store_file *file, int64_t offset, void *dst, size_t len, dl_error *err) {
    DL_CHECK(offset >= 0, err, DL_ERR_INVALID_ARG, "'%s': read at negative offset %lld", file->path,
             (long long)offset);
    int64_t end = 0;
    if ((uint64_t)len > (uint64_t)INT64_MAX || DL_ADD_OVERFLOW(offset, (int64_t)len, &end) ||
        end > file->size) {
        const char *root = file->store->location;
        size_t root_len = strlen(root);
        dl_error_set(err, DL_ERR_CORRUPT,
                     "'%s%s%s': cannot read %zu bytes at offset %lld: the file has %lld bytes",
                     root, root_len > 0 && root[root_len - 1] == '/' ? "" : "/", file->path, len,
                     (long long)offset, (long long)file->size);
        DL_ERROR_WHERE(err);
        if (err != NULL) {
            err->offset = offset;
        }
        return DL_ERR_CORRUPT;
    }
    if (len == 0) {
        return DL_OK;
    }
    return file->store->vt->file_read_at(file, offset, dst, len, err);
}

dl_status
dl_store_file_read_at_buf(dl_store_file *file, int64_t offset, size_t len, dl_buf *buf,
                          dl_error *err) {
    size_t old_len = buf->len;
    uint8_t *dst = dl_buf_extend(buf, len, err);
    if (dst == NULL) {
        return DL_ERR_NOMEM;
    }
    dl_status s = dl_store_file_read_at(file, offset, dst, len, err);
    if (s != DL_OK) {
        buf->len = old_len;
    }
    return s;
}

void
dl_store_file_close(dl_store_file *file) {
    if (file != NULL) {
        file->store->vt->file_close(file);
    }
}

dl_status
dl_store_read_at(dl_store *store, const char *path, int64_t offset, void *dst, size_t len,
                 dl_error *err) {
    dl_store_file *file = NULL;
    DL_TRY(dl_store_file_open(store, path, &file, err));
    dl_status s = dl_store_file_read_at(file, offset, dst, len, err);
    dl_store_file_close(file);
    return s;
}

dl_status
dl_store_read_at_buf(dl_store *store, const char *path, int64_t offset, size_t len, dl_buf *buf,
                     dl_error *err) {
    dl_store_file *file = NULL;
    DL_TRY(dl_store_file_open(store, path, &file, err));
    dl_status s = dl_store_file_read_at_buf(file, offset, len, buf, err);
    dl_store_file_close(file);
    return s;
}

dl_status
dl_store_read_all(dl_store *store, const char *path, dl_buf *buf, dl_error *err) {
    dl_store_file *file = NULL;
    DL_TRY(dl_store_file_open(store, path, &file, err));
    dl_status s = DL_OK;
    if ((uint64_t)file->size > (uint64_t)SIZE_MAX / 2) {
        s = dl_error_set(err, DL_ERR_LIMIT, "'%s': %lld bytes do not fit in memory", path,
                         (long long)file->size);
    } else {
        s = dl_store_file_read_at_buf(file, 0, (size_t)file->size, buf, err);
    }
    dl_store_file_close(file);
    return s;
}

/* A store opened read-only refuses every change before it touches anything. */
static dl_status
check_writable(const dl_store *store, const char *what, const char *path, dl_error *err) {
    if (!store->is_readonly) {
        return DL_OK;
    }
    const char *sep = path[0] != '\0' && strcmp(store->location, "/") != 0 ? "/" : "";
    dl_status s =
        dl_error_set(err, DL_ERR_READONLY, "cannot %s '%s%s%s': the warehouse is open read-only",
                     what, store->location, sep, path);
    dl_error_hint(err, "open it without -readonly (DELTALITE_OPEN_READONLY) to change it");
    return s;
}

dl_status
dl_store_writer_open(dl_store *store, const char *path, dl_store_put_mode mode,
                     dl_store_writer **out, dl_error *err) {
    *out = NULL;
    DL_TRY(dl_store_path_check(path, false, "path", err));
    DL_TRY(check_writable(store, "write", path, err));
    DL_CHECK(mode == DL_STORE_PUT_OVERWRITE || mode == DL_STORE_PUT_IF_ABSENT, err,
             DL_ERR_INVALID_ARG, "'%s': unknown put mode %d", path, (int)mode);
    return store->vt->writer_open(store, path, mode, out, err);
}

dl_status
dl_store_writer_append(dl_store_writer *writer, const void *data, size_t len, dl_error *err) {
    DL_CHECK(!writer->is_failed, err, DL_ERR_INVALID_ARG,
             "'%s': append after a failed append: the writer must be aborted", writer->path);
    if (len == 0) {
        return DL_OK;
    }
    dl_status s = writer->store->vt->writer_append(writer, data, len, err);
    if (s != DL_OK) {
        writer->is_failed = true;
        return s;
    }
    writer->n_bytes += (int64_t)len;
    return DL_OK;
}

dl_status
dl_store_writer_commit(dl_store_writer *writer, dl_error *err) {
    if (writer->is_failed) {
        dl_status s = dl_error_set(err, DL_ERR_INVALID_ARG,
                                   "'%s': commit after a failed append: the writer was aborted",
                                   writer->path);
        writer->store->vt->writer_abort(writer);
        return s;
    }
    return writer->store->vt->writer_commit(writer, err);
}

void
dl_store_writer_abort(dl_store_writer *writer) {
    if (writer != NULL) {
        writer->store->vt->writer_abort(writer);
    }
}

static dl_status
put(dl_store *store, const char *path, dl_store_put_mode mode, const void *data, size_t len,
    dl_error *err) {
    dl_store_writer *writer = NULL;
    DL_TRY(dl_store_writer_open(store, path, mode, &writer, err));
    dl_status s = dl_store_writer_append(writer, data, len, err);
    if (s != DL_OK) {
        dl_store_writer_abort(writer);
        return s;
    }
    return dl_store_writer_commit(writer, err);
}

dl_status
dl_store_write(dl_store *store, const char *path, const void *data, size_t len, dl_error *err) {
    return put(store, path, DL_STORE_PUT_OVERWRITE, data, len, err);
}

dl_status
dl_store_put_if_absent(dl_store *store, const char *path, const void *data, size_t len,
                       dl_error *err) {
    return put(store, path, DL_STORE_PUT_IF_ABSENT, data, len, err);
}

dl_status
dl_store_remove(dl_store *store, const char *path, dl_error *err) {
    DL_TRY(dl_store_path_check(path, false, "path", err));
    DL_TRY(check_writable(store, "delete", path, err));
    return store->vt->remove(store, path, err);
}

dl_status
dl_store_mkdirs(dl_store *store, const char *path, dl_error *err) {
    DL_TRY(dl_store_path_check(path, true, "path", err));
    DL_TRY(check_writable(store, "create the folder", path, err));
    return store->vt->mkdirs(store, path, err);
}
