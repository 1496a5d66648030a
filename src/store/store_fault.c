/* SPDX-License-Identifier: Apache-2.0 */
/* The fault-injecting store (see store_fault.h). */
#include "store/store_fault.h"

#include <errno.h>
#include <stdatomic.h>
#include <string.h>

typedef struct fault_store {
    dl_store base;
    dl_store *inner;
    int64_t fail_at;
    bool is_sticky;
    dl_store_fault_kind kind;
    atomic_int_least64_t n_ops;
    atomic_int_least64_t n_failures;
} fault_store;

typedef struct fault_writer {
    dl_store_writer base;
    dl_store_writer *inner;
    size_t size; /* bytes allocated, with the path after the struct */
} fault_writer;

/* Counts one operation; returns its 1-based index when it must fail, else 0. */
static int64_t
next_op_fails(fault_store *fs) {
    int64_t index = atomic_fetch_add(&fs->n_ops, 1) + 1;
    bool is_failing =
        fs->fail_at > 0 && (index == fs->fail_at || (fs->is_sticky && index > fs->fail_at));
    if (!is_failing) {
        return 0;
    }
    atomic_fetch_add(&fs->n_failures, 1);
    return index;
}

static dl_status
inject(const fault_store *fs, int64_t index, const char *op, const char *path, dl_error *err) {
    int errnum = fs->kind == DL_STORE_FAULT_ENOSPC ? ENOSPC : EIO;
    DL_ERROR_WHERE(err);
    dl_error_set_errno(err, DL_ERR_IO, errnum,
                       "%s '%s' (simulated failure of store operation %lld)", op, path,
                       (long long)index);
    if (errnum == ENOSPC) {
        dl_error_hint(err, "free disk space on the file system holding '%s', then retry", path);
    }
    return DL_ERR_IO;
}

static void
fault_free(dl_store *store) {
    dl_mem_free(store->alloc, store, sizeof(fault_store));
}

static dl_status
fault_stat(dl_store *store, const char *path, dl_store_info *out, dl_error *err) {
    return dl_store_stat(((fault_store *)store)->inner, path, out, err);
}

static dl_status
fault_list(dl_store *store, const char *prefix, const char *start_after, unsigned flags,
           dl_arena *arena, dl_store_listing *out, dl_error *err) {
    return dl_store_list(((fault_store *)store)->inner, prefix, start_after, flags, arena, out,
                         err);
}

static dl_status
fault_file_open(dl_store *store, const char *path, dl_store_file **out, dl_error *err) {
    return dl_store_file_open(((fault_store *)store)->inner, path, out, err);
}

static dl_status
fault_writer_open(dl_store *store, const char *path, dl_store_put_mode mode, dl_store_writer **out,
                  dl_error *err) {
    fault_store *fs = (fault_store *)store;
    int64_t failing = next_op_fails(fs);
    if (failing != 0 && fs->kind != DL_STORE_FAULT_LOST_ACK) {
        return inject(fs, failing, "cannot open a writer for", path, err);
    }
    dl_store_writer *inner = NULL;
    DL_TRY(dl_store_writer_open(fs->inner, path, mode, &inner, err));
    if (failing != 0) {
        dl_store_writer_abort(inner);
        return inject(fs, failing, "cannot open a writer for", path, err);
    }
    size_t path_len = strlen(path);
    size_t size = sizeof(fault_writer) + path_len + 1;
    fault_writer *w = dl_mem_alloc(store->alloc, size);
    if (w == NULL) {
        dl_store_writer_abort(inner);
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory opening a writer for '%s'", path);
    }
    char *path_copy = (char *)(w + 1);
    memcpy(path_copy, path, path_len + 1);
    w->base = (dl_store_writer){.store = store, .path = path_copy, .mode = mode};
    w->inner = inner;
    w->size = size;
    *out = &w->base;
    return DL_OK;
}

static dl_status
fault_writer_append(dl_store_writer *writer, const void *data, size_t len, dl_error *err) {
    fault_writer *w = (fault_writer *)writer;
    fault_store *fs = (fault_store *)writer->store;
    int64_t failing = next_op_fails(fs);
    size_t forwarded = len;
    if (failing != 0 && fs->kind == DL_STORE_FAULT_EIO) {
        forwarded = 0;
    } else if (failing != 0 && fs->kind == DL_STORE_FAULT_ENOSPC) {
        forwarded = len / 2;
    }
    if (forwarded > 0) {
        DL_TRY(dl_store_writer_append(w->inner, data, forwarded, err));
    }
    if (failing != 0) {
        return inject(fs, failing, "cannot write", writer->path, err);
    }
    return DL_OK;
}

static void
fault_writer_abort(dl_store_writer *writer) {
    fault_writer *w = (fault_writer *)writer;
    dl_store_writer_abort(w->inner);
    dl_mem_free(writer->store->alloc, w, w->size);
}

static dl_status
fault_writer_commit(dl_store_writer *writer, dl_error *err) {
    fault_writer *w = (fault_writer *)writer;
    fault_store *fs = (fault_store *)writer->store;
    int64_t failing = next_op_fails(fs);
    if (failing != 0 && fs->kind != DL_STORE_FAULT_LOST_ACK) {
        dl_status s = inject(fs, failing, "cannot commit", writer->path, err);
        fault_writer_abort(writer);
        return s;
    }
    dl_status s = dl_store_writer_commit(w->inner, err);
    if (s == DL_OK && failing != 0) {
        s = inject(fs, failing, "cannot commit", writer->path, err);
    }
    dl_mem_free(writer->store->alloc, w, w->size);
    return s;
}

static dl_status
fault_remove(dl_store *store, const char *path, dl_error *err) {
    fault_store *fs = (fault_store *)store;
    int64_t failing = next_op_fails(fs);
    if (failing != 0 && fs->kind != DL_STORE_FAULT_LOST_ACK) {
        return inject(fs, failing, "cannot delete", path, err);
    }
    DL_TRY(dl_store_remove(fs->inner, path, err));
    return failing != 0 ? inject(fs, failing, "cannot delete", path, err) : DL_OK;
}

static dl_status
fault_mkdirs(dl_store *store, const char *path, dl_error *err) {
    fault_store *fs = (fault_store *)store;
    int64_t failing = next_op_fails(fs);
    if (failing != 0 && fs->kind != DL_STORE_FAULT_LOST_ACK) {
        return inject(fs, failing, "cannot create folder", path, err);
    }
    DL_TRY(dl_store_mkdirs(fs->inner, path, err));
    return failing != 0 ? inject(fs, failing, "cannot create folder", path, err) : DL_OK;
}

/* Files opened through the wrapper are the inner store's (their store field says so), so the
 * file entries of this vtable are never reached. */
static const dl_store_vtable fault_vtable = {
    .kind = "fault",
    .release = fault_free,
    .stat = fault_stat,
    .list = fault_list,
    .file_open = fault_file_open,
    .file_read_at = NULL,
    .file_close = NULL,
    .writer_open = fault_writer_open,
    .writer_append = fault_writer_append,
    .writer_commit = fault_writer_commit,
    .writer_abort = fault_writer_abort,
    .remove = fault_remove,
    .mkdirs = fault_mkdirs,
};

void
dl_store_fault_arm(dl_store *store, const dl_store_fault_options *opts) {
    fault_store *fs = (fault_store *)store;
    dl_store_fault_options never = {0};
    if (opts == NULL) {
        opts = &never;
    }
    fs->fail_at = opts->fail_at;
    fs->is_sticky = opts->is_sticky;
    fs->kind = opts->kind;
    atomic_store(&fs->n_ops, 0);
    atomic_store(&fs->n_failures, 0);
}

dl_status
dl_store_fault_new(dl_store *inner, const dl_store_fault_options *opts, dl_store **out,
                   dl_error *err) {
    *out = NULL;
    DL_CHECK(inner != NULL, err, DL_ERR_INVALID_ARG, "the store to wrap is NULL");
    fault_store *fs = dl_mem_alloc(inner->alloc, sizeof(fault_store));
    if (fs == NULL) {
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory wrapping the store '%s'", inner->location);
    }
    fs->base = (dl_store){.vt = &fault_vtable,
                          .alloc = inner->alloc,
                          .location = inner->location,
                          .is_readonly = inner->is_readonly};
    fs->inner = inner;
    atomic_init(&fs->n_ops, 0);
    atomic_init(&fs->n_failures, 0);
    dl_store_fault_arm(&fs->base, opts);
    *out = &fs->base;
    return DL_OK;
}

int64_t
dl_store_fault_n_ops(const dl_store *store) {
    return atomic_load(&((const fault_store *)store)->n_ops);
}

int64_t
dl_store_fault_n_failures(const dl_store *store) {
    return atomic_load(&((const fault_store *)store)->n_failures);
}
