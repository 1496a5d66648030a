/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The local file-system store.
 *
 * Layout: the store is a root folder; a relative path "a/b.json" is the file "<root>/a/b.json".
 * The store keeps no state but its root, so one store serves many threads.
 *
 * Writes never modify a visible file in place. A writer creates a temporary file in the
 * target's own folder (so the final step is a same-file-system rename or link):
 *
 *     <folder>/.<name>.<16 hex digits>.tmp      O_CREAT | O_EXCL | O_CLOEXEC, mode 0666 & ~umask
 *
 * The leading '.' hides it from Delta (log listings match version names; VACUUM skips hidden
 * names). The hex digits mix the process id, a per-process counter and the clock; O_EXCL turns
 * the rare collision into a retry. On commit the file is fsync'ed and closed, then:
 *
 * - overwrite: rename(2) over the target: POSIX makes the replacement atomic.
 * - put-if-absent: renameat2(RENAME_NOREPLACE) (Linux >= 3.15 on most file systems), else
 *   link(2) followed by unlink of the temporary name. Both fail with EEXIST rather than replace,
 *   and both are single atomic steps in the kernel, so of two processes racing for one name
 *   exactly one wins. There is never a check-then-rename window.
 *
 * Then the folder is fsync'ed so the new name survives a crash. Every failure path closes and
 * unlinks the temporary file; only a crash between create and commit can leave one behind.
 *
 * Listing opens the folder (O_DIRECTORY | O_CLOEXEC), reads it with readdir, filters names by
 * the prefix and start_after before calling fstatat, and sorts the survivors with memcmp order.
 * Entries that vanish between readdir and fstatat (a concurrent delete or rename) are skipped.
 */
/* renameat2 and RENAME_NOREPLACE (glibc >= 2.28) are GNU extensions; without them
 * put-if-absent falls back to link(2). */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#    define _GNU_SOURCE /* NOLINT(bugprone-reserved-identifier,readability-identifier-naming) */
#endif

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "store/store.h"

#define LOCAL_PATH_CAP      4096 /* longest full path, with its NUL (Linux's PATH_MAX) */
#define LOCAL_TMP_NAME_KEEP 200  /* bytes of the target's name kept in a temporary name */
#define LOCAL_TMP_TRIES     16   /* temporary names tried before giving up */
#define LOCAL_LIST_DEPTH    128  /* deepest folder nesting a recursive listing follows */
#define LOCAL_IO_CHUNK      ((size_t)1 << 30) /* largest single read or write request */

typedef struct local_store {
    dl_store base;
    dl_store_local_put_method put_method;
    bool is_volatile; /* skip fsync (dl_store_local_options) */
    size_t size;      /* bytes allocated for this struct and its strings */
    size_t root_len;  /* root without trailing '/': "" for the file-system root */
    char *root;       /* absolute root folder */
} local_store;

typedef struct local_file {
    dl_store_file base;
    int fd;
    size_t size; /* bytes allocated */
    char *full;  /* absolute path, for messages */
} local_file;

typedef struct local_writer {
    dl_store_writer base;
    int fd;         /* the temporary file, or -1 once closed */
    bool has_tmp;   /* the temporary file still exists under tmp_full */
    size_t size;    /* bytes allocated */
    char *full;     /* absolute path of the target */
    char *tmp_full; /* absolute path of the temporary file */
} local_writer;

static atomic_uint_fast64_t tmp_counter;

/* ------------------------------------------------------------------------------------------ */
/* Errors                                                                                      */

static void
hint_for_errno(dl_error *err, int errnum, const char *path) {
    switch (errnum) {
    case ENOSPC:
        dl_error_hint(err, "free disk space on the file system holding '%s', then retry", path);
        break;
    case EDQUOT:
        dl_error_hint(err, "the disk quota is exhausted: free space or raise the quota");
        break;
    case EACCES:
    case EPERM:
        dl_error_hint(err, "check the permissions of '%s' and of the folders above it", path);
        break;
    case EROFS:
        dl_error_hint(err, "the file system is read-only: remount it read-write or use another "
                           "location");
        break;
    case EMFILE:
    case ENFILE:
        dl_error_hint(err, "too many open files: raise the limit (ulimit -n)");
        break;
    case EIO:
        dl_error_hint(err, "the device reported an I/O error: check the disk or network file "
                           "system");
        break;
    case ENAMETOOLONG:
        dl_error_hint(err, "use a shorter path");
        break;
    case ENOTDIR:
        dl_error_hint(err, "a file stands where a folder is expected in '%s'", path);
        break;
    default:
        break;
    }
}

/* DL_ERR_IO with errno, "<what> '<path>': <strerror>" and a hint. */
static dl_status
io_error(dl_error *err, int errnum, const char *what, const char *path) {
    DL_ERROR_WHERE(err);
    dl_error_set_errno(err, DL_ERR_IO, errnum, "%s '%s'", what, path);
    hint_for_errno(err, errnum, path);
    return DL_ERR_IO;
}

/* NOT_FOUND for a missing path, else io_error. */
static dl_status
open_error(dl_error *err, int errnum, const char *what, const char *path) {
    if (errnum == ENOENT || errnum == ENOTDIR) {
        DL_ERROR_WHERE(err);
        dl_error_set(err, DL_ERR_NOT_FOUND, "%s '%s': not found", what, path);
        if (err != NULL) {
            err->sys_errno = errnum;
        }
        return DL_ERR_NOT_FOUND;
    }
    return io_error(err, errnum, what, path);
}

static bool
errno_means_unsupported(int errnum) {
    if (errnum == EINVAL || errnum == ENOSYS || errnum == ENOTSUP) {
        return true;
    }
#if EOPNOTSUPP != ENOTSUP
    if (errnum == EOPNOTSUPP) {
        return true;
    }
#endif
    return false;
}

/* ------------------------------------------------------------------------------------------ */
/* System-call helpers                                                                         */

static int
open_retry(const char *path, int flags, mode_t mode) {
    int fd;
    do {
        fd = open(path, flags, mode);
    } while (fd < 0 && errno == EINTR);
    return fd;
}

static int
fsync_retry(int fd) {
    int rc;
    do {
        rc = fsync(fd);
    } while (rc != 0 && errno == EINTR);
    return rc;
}

static int64_t
mtime_ms(const struct stat *st) {
    return (int64_t)st->st_mtim.tv_sec * 1000 + (int64_t)st->st_mtim.tv_nsec / 1000000;
}

/* "<root>/<rel>" into out (LOCAL_PATH_CAP bytes). */
static dl_status
full_path(const local_store *ls, const char *rel, char *out, dl_error *err) {
    size_t rel_len = strlen(rel);
    DL_CHECK(ls->root_len + 2 + rel_len <= LOCAL_PATH_CAP, err, DL_ERR_INVALID_ARG,
             "path '%s/%s' is longer than %d bytes", ls->root, rel, LOCAL_PATH_CAP - 1);
    memcpy(out, ls->root, ls->root_len);
    size_t n = ls->root_len;
    if (rel_len > 0 || n == 0) {
        out[n++] = '/';
    }
    memcpy(out + n, rel, rel_len);
    out[n + rel_len] = '\0';
    return DL_OK;
}

/* The folder part of an absolute path ("/" for "/x"), into out (LOCAL_PATH_CAP bytes). */
static void
parent_of(const char *full, char *out) {
    const char *slash = strrchr(full, '/');
    size_t len = slash == NULL || slash == full ? 1 : (size_t)(slash - full);
    memcpy(out, slash == NULL ? "/" : full, len);
    out[len] = '\0';
}

/* Makes a folder's entries durable. File systems that cannot sync folders (EINVAL) are
 * accepted as they are. */
static dl_status
sync_folder(const char *folder, dl_error *err) {
    int fd = open_retry(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
    if (fd < 0) {
        return io_error(err, errno, "cannot open folder for sync", folder);
    }
    int rc = fsync_retry(fd);
    int errnum = errno;
    (void)close(fd);
    if (rc != 0 && errnum != EINVAL) {
        return io_error(err, errnum, "cannot sync folder", folder);
    }
    return DL_OK;
}

static dl_status
sync_parent(const char *full, dl_error *err) {
    char folder[LOCAL_PATH_CAP];
    parent_of(full, folder);
    return sync_folder(folder, err);
}

/* Creates the folder full (a mutable buffer) and its missing parents, syncing each parent
 * that gained an entry unless is_volatile. */
static dl_status
mkdir_p(char *full, bool is_volatile, dl_error *err) {
    for (int attempt = 0; attempt < 2; attempt++) {
        if (mkdir(full, 0777) == 0) {
            return is_volatile ? DL_OK : sync_parent(full, err);
        }
        int errnum = errno;
        if (errnum == EEXIST) {
            struct stat st;
            if (stat(full, &st) == 0 && S_ISDIR(st.st_mode)) {
                return DL_OK;
            }
            return io_error(err, ENOTDIR, "cannot create folder", full);
        }
        char *slash = strrchr(full, '/');
        if (errnum != ENOENT || attempt > 0 || slash == NULL || slash == full) {
            return io_error(err, errnum, "cannot create folder", full);
        }
        *slash = '\0';
        dl_status s = mkdir_p(full, is_volatile, err);
        *slash = '/';
        DL_TRY(s);
    }
    return DL_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* Store                                                                                       */

static void
local_free(dl_store *store) {
    local_store *ls = (local_store *)store;
    dl_mem_free(store->alloc, ls, ls->size);
}

static dl_status
local_stat(dl_store *store, const char *path, dl_store_info *out, dl_error *err) {
    char full[LOCAL_PATH_CAP];
    DL_TRY(full_path((local_store *)store, path, full, err));
    struct stat st;
    if (stat(full, &st) != 0) {
        return open_error(err, errno, "cannot stat", full);
    }
    out->is_dir = S_ISDIR(st.st_mode);
    out->size = out->is_dir ? 0 : (int64_t)st.st_size;
    out->mtime_ms = mtime_ms(&st);
    return DL_OK;
}

static dl_status
local_remove(dl_store *store, const char *path, dl_error *err) {
    char full[LOCAL_PATH_CAP];
    DL_TRY(full_path((local_store *)store, path, full, err));
    if (unlink(full) == 0) {
        return DL_OK;
    }
    int errnum = errno;
    struct stat st;
    if ((errnum == EISDIR || errnum == EPERM) && lstat(full, &st) == 0 && S_ISDIR(st.st_mode)) {
        if (rmdir(full) == 0) {
            return DL_OK;
        }
        errnum = errno;
    }
    return open_error(err, errnum, "cannot delete", full);
}

static dl_status
local_mkdirs(dl_store *store, const char *path, dl_error *err) {
    char full[LOCAL_PATH_CAP];
    DL_TRY(full_path((local_store *)store, path, full, err));
    size_t len = strlen(full);
    while (len > 1 && full[len - 1] == '/') {
        full[--len] = '\0';
    }
    return mkdir_p(full, ((local_store *)store)->is_volatile, err);
}

/* ------------------------------------------------------------------------------------------ */
/* Reading                                                                                     */

static dl_status
local_file_open(dl_store *store, const char *path, dl_store_file **out, dl_error *err) {
    char full[LOCAL_PATH_CAP];
    DL_TRY(full_path((local_store *)store, path, full, err));
    int fd = open_retry(full, O_RDONLY | O_CLOEXEC, 0);
    if (fd < 0) {
        return open_error(err, errno, "cannot open", full);
    }
    struct stat st;
    int errnum = fstat(fd, &st) != 0 ? errno : S_ISDIR(st.st_mode) ? EISDIR : 0;
    if (errnum != 0) {
        (void)close(fd);
        return io_error(err, errnum, "cannot read", full);
    }
    size_t path_len = strlen(path);
    size_t full_len = strlen(full);
    size_t size = sizeof(local_file) + path_len + 1 + full_len + 1;
    local_file *lf = dl_mem_alloc(store->alloc, size);
    if (lf == NULL) {
        (void)close(fd);
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory opening '%s'", full);
    }
    char *strings = (char *)(lf + 1);
    memcpy(strings, path, path_len + 1);
    lf->full = strings + path_len + 1;
    memcpy(lf->full, full, full_len + 1);
    lf->base = (dl_store_file){
        .store = store, .path = strings, .size = (int64_t)st.st_size, .mtime_ms = mtime_ms(&st)};
    lf->fd = fd;
    lf->size = size;
    *out = &lf->base;
    return DL_OK;
}

static dl_status
local_file_read_at(dl_store_file *file, int64_t offset, void *dst, size_t len, dl_error *err) {
    local_file *lf = (local_file *)file;
    uint8_t *bytes = dst;
    size_t done = 0;
    while (done < len) {
        size_t want = DL_MIN(len - done, LOCAL_IO_CHUNK);
        int64_t at = offset + (int64_t)done;
        ssize_t n = pread(lf->fd, bytes + done, want, (off_t)at);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            dl_status s = io_error(err, errno, "cannot read", lf->full);
            dl_error_prefix(err, "reading %zu bytes at offset %lld", len, (long long)offset);
            return s;
        }
        if (n == 0) {
            DL_ERROR_WHERE(err);
            dl_error_set(err, DL_ERR_CORRUPT,
                         "'%s': the file ends at byte %lld while reading %zu bytes at offset "
                         "%lld: it had %lld bytes when opened and was truncated since",
                         lf->full, (long long)at, len, (long long)offset, (long long)file->size);
            if (err != NULL) {
                err->offset = at;
            }
            return DL_ERR_CORRUPT;
        }
        done += (size_t)n;
    }
    return DL_OK;
}

static void
local_file_close(dl_store_file *file) {
    local_file *lf = (local_file *)file;
    (void)close(lf->fd);
    dl_mem_free(file->store->alloc, lf, lf->size);
}

/* ------------------------------------------------------------------------------------------ */
/* Writing                                                                                     */

static uint64_t
tmp_token(void) {
    struct timespec ts;
    (void)clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t n = atomic_fetch_add(&tmp_counter, 1);
    uint64_t clock = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    return dl_hash_u64(((uint64_t)getpid() << 40) ^ n) ^ dl_hash_u64(clock);
}

/* Creates w's temporary file next to w->full, creating missing folders once. */
static dl_status
create_tmp(local_writer *w, dl_error *err) {
    const char *slash = strrchr(w->full, '/');
    int dir_len = (int)(slash - w->full);
    int keep = (int)DL_MIN(strlen(slash + 1), (size_t)LOCAL_TMP_NAME_KEEP);
    bool made_folders = false;
    for (int attempt = 0; attempt < LOCAL_TMP_TRIES; attempt++) {
        int n = snprintf(w->tmp_full, LOCAL_PATH_CAP, "%.*s/.%.*s.%016llx.tmp", dir_len, w->full,
                         keep, slash + 1, (unsigned long long)tmp_token());
        DL_CHECK(n > 0 && n < LOCAL_PATH_CAP, err, DL_ERR_INVALID_ARG,
                 "path '%s' is too long for a temporary name", w->full);
        w->fd = open_retry(w->tmp_full, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (w->fd >= 0) {
            w->has_tmp = true;
            return DL_OK;
        }
        int errnum = errno;
        if (errnum == ENOENT && !made_folders) {
            char folder[LOCAL_PATH_CAP];
            parent_of(w->full, folder);
            bool is_volatile = ((const local_store *)w->base.store)->is_volatile;
            DL_TRY_CTX(mkdir_p(folder, is_volatile, err), err, "cannot write '%s'", w->full);
            made_folders = true;
            continue;
        }
        if (errnum != EEXIST) {
            return io_error(err, errnum, "cannot create a temporary file for", w->full);
        }
    }
    DL_FAIL(err, DL_ERR_IO, "cannot create a temporary file for '%s': %d names taken", w->full,
            LOCAL_TMP_TRIES);
}

static void
discard(local_writer *w) {
    if (w->fd >= 0) {
        (void)close(w->fd);
    }
    if (w->has_tmp) {
        (void)unlink(w->tmp_full);
    }
    dl_mem_free(w->base.store->alloc, w, w->size);
}

static dl_status
local_writer_open(dl_store *store, const char *path, dl_store_put_mode mode, dl_store_writer **out,
                  dl_error *err) {
    char full[LOCAL_PATH_CAP];
    DL_TRY(full_path((local_store *)store, path, full, err));
    size_t path_len = strlen(path);
    size_t full_len = strlen(full);
    size_t size = sizeof(local_writer) + path_len + 1 + full_len + 1 + LOCAL_PATH_CAP;
    local_writer *w = dl_mem_alloc(store->alloc, size);
    if (w == NULL) {
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory opening a writer for '%s'", full);
    }
    char *strings = (char *)(w + 1);
    memcpy(strings, path, path_len + 1);
    w->full = strings + path_len + 1;
    memcpy(w->full, full, full_len + 1);
    w->tmp_full = w->full + full_len + 1;
    w->tmp_full[0] = '\0';
    w->base = (dl_store_writer){.store = store, .path = strings, .mode = mode};
    w->fd = -1;
    w->has_tmp = false;
    w->size = size;
    dl_status s = create_tmp(w, err);
    if (s != DL_OK) {
        discard(w);
        return s;
    }
    *out = &w->base;
    return DL_OK;
}

static dl_status
local_writer_append(dl_store_writer *writer, const void *data, size_t len, dl_error *err) {
    local_writer *w = (local_writer *)writer;
    const uint8_t *bytes = data;
    size_t done = 0;
    while (done < len) {
        ssize_t n = write(w->fd, bytes + done, DL_MIN(len - done, LOCAL_IO_CHUNK));
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            int errnum = n < 0 ? errno : EIO;
            dl_status s = io_error(err, errnum, "cannot write the temporary file", w->tmp_full);
            dl_error_prefix(err, "writing '%s'", w->full);
            hint_for_errno(err, errnum, w->full);
            return s;
        }
        done += (size_t)n;
    }
    return DL_OK;
}

/* Moves the synced temporary file to w->full without replacing anything. */
static dl_status
publish_if_absent(const local_store *ls, local_writer *w, dl_error *err) {
#ifdef RENAME_NOREPLACE
    if (ls->put_method == DL_STORE_LOCAL_PUT_AUTO) {
        if (renameat2(AT_FDCWD, w->tmp_full, AT_FDCWD, w->full, RENAME_NOREPLACE) == 0) {
            w->has_tmp = false;
            return DL_OK;
        }
        int errnum = errno;
        if (errnum == EEXIST) {
            DL_FAIL(err, DL_ERR_EXISTS, "'%s' already exists", w->full);
        }
        if (!errno_means_unsupported(errnum)) {
            return io_error(err, errnum, "cannot create", w->full);
        }
    }
#else
    DL_UNUSED(ls);
#endif
    if (link(w->tmp_full, w->full) != 0) {
        int errnum = errno;
        if (errnum == EEXIST) {
            DL_FAIL(err, DL_ERR_EXISTS, "'%s' already exists", w->full);
        }
        if (errnum == EPERM || errno_means_unsupported(errnum)) {
            dl_status s = io_error(err, errnum, "cannot create", w->full);
            dl_error_hint(err, "put-if-absent needs hard links or RENAME_NOREPLACE, which this "
                               "file system refuses: use a local disk file system");
            return s;
        }
        return io_error(err, errnum, "cannot create", w->full);
    }
    /* The target exists now; a failed unlink only leaves a hidden orphan behind. */
    (void)unlink(w->tmp_full);
    w->has_tmp = false;
    return DL_OK;
}

static dl_status
sync_and_close(local_writer *w, bool is_volatile, dl_error *err) {
    if (!is_volatile && fsync_retry(w->fd) != 0) {
        return io_error(err, errno, "cannot sync the temporary file of", w->full);
    }
    int rc = close(w->fd);
    int errnum = errno;
    w->fd = -1;
    if (rc != 0 && errnum != EINTR) {
        return io_error(err, errnum, "cannot close the temporary file of", w->full);
    }
    return DL_OK;
}

static dl_status
local_writer_commit(dl_store_writer *writer, dl_error *err) {
    local_writer *w = (local_writer *)writer;
    const local_store *ls = (const local_store *)writer->store;
    dl_status s = sync_and_close(w, ls->is_volatile, err);
    if (s == DL_OK && writer->mode == DL_STORE_PUT_IF_ABSENT) {
        s = publish_if_absent(ls, w, err);
    } else if (s == DL_OK) {
        if (rename(w->tmp_full, w->full) == 0) {
            w->has_tmp = false;
        } else {
            s = io_error(err, errno, "cannot replace", w->full);
        }
    }
    if (s == DL_OK && !ls->is_volatile) {
        s = sync_parent(w->full, err);
        if (s != DL_OK) {
            dl_error_prefix(err, "'%s' was written but may not survive a crash", w->full);
        }
    }
    discard(w);
    return s;
}

static void
local_writer_abort(dl_store_writer *writer) {
    discard((local_writer *)writer);
}

/* ------------------------------------------------------------------------------------------ */
/* Listing                                                                                     */

typedef struct list_ctx {
    const local_store *ls;
    dl_arena *arena;
    dl_buf entries;           /* dl_store_entry values, unsorted */
    dl_str start_after;       /* ptr NULL for none */
    bool is_recursive;        /* DL_STORE_LIST_RECURSIVE */
    char rel[LOCAL_PATH_CAP]; /* relative path of the entry being looked at */
    dl_error *err;
} list_ctx;

static dl_status list_folder(list_ctx *ctx, int fd, size_t rel_len, dl_str name_prefix, int depth);

static bool
is_after_start(const list_ctx *ctx, dl_str path) {
    return ctx->start_after.ptr == NULL || dl_str_cmp(path, ctx->start_after) > 0;
}

/* Whether any path below folder (that is, starting with "<folder>/") sorts after
 * start_after: false exactly when "<folder>/" is smaller and not a prefix of start_after. */
static bool
subtree_may_follow(const list_ctx *ctx, dl_str folder) {
    dl_str after = ctx->start_after;
    if (after.ptr == NULL) {
        return true;
    }
    int c = memcmp(folder.ptr, after.ptr, DL_MIN(folder.len, after.len));
    if (c != 0) {
        return c > 0;
    }
    if (after.len <= folder.len) {
        return true;
    }
    return (unsigned char)after.ptr[folder.len] <= '/';
}

static dl_status
list_io_error(list_ctx *ctx, int errnum, const char *what, size_t rel_len) {
    char full[LOCAL_PATH_CAP];
    ctx->rel[rel_len] = '\0';
    if (full_path(ctx->ls, ctx->rel, full, NULL) != DL_OK) {
        dl_str_copy_to(dl_str_from_cstr(ctx->rel), full, sizeof(full));
    }
    return io_error(ctx->err, errnum, what, full);
}

static dl_status
add_entry(list_ctx *ctx, dl_str path, const struct stat *st, bool is_dir) {
    char *copy = dl_arena_strndup(ctx->arena, path.ptr, path.len);
    if (copy == NULL) {
        DL_FAIL(ctx->err, DL_ERR_NOMEM, "out of memory listing '%s'", ctx->ls->base.location);
    }
    dl_store_entry e = {.path = dl_str_make(copy, path.len),
                        .size = is_dir ? 0 : (int64_t)st->st_size,
                        .mtime_ms = mtime_ms(st),
                        .is_dir = is_dir};
    return dl_buf_append(&ctx->entries, &e, sizeof(e), ctx->err);
}

/* Looks at one name of the folder open as dir_fd, whose relative path is rel[0, rel_len). */
static dl_status
list_name(list_ctx *ctx, int dir_fd, size_t rel_len, const char *name, dl_str name_prefix,
          int depth) {
    size_t name_len = strlen(name);
    if ((name[0] == '.' && (name_len == 1 || (name_len == 2 && name[1] == '.'))) ||
        name_len < name_prefix.len || memcmp(name, name_prefix.ptr, name_prefix.len) != 0) {
        return DL_OK;
    }
    if (rel_len + name_len + 2 > LOCAL_PATH_CAP) {
        return list_io_error(ctx, ENAMETOOLONG, "cannot list", rel_len);
    }
    memcpy(ctx->rel + rel_len, name, name_len + 1);
    dl_str path = dl_str_make(ctx->rel, rel_len + name_len);
    bool is_wanted = is_after_start(ctx, path);
    bool may_descend = ctx->is_recursive && subtree_may_follow(ctx, path);
    if (!is_wanted && !may_descend) {
        return DL_OK;
    }
    struct stat st;
    if (fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
        /* ENOENT: deleted or renamed since readdir. */
        return errno == ENOENT ? DL_OK : list_io_error(ctx, errno, "cannot stat", path.len);
    }
    bool is_link = S_ISLNK(st.st_mode);
    if (is_link && fstatat(dir_fd, name, &st, 0) != 0) {
        /* A dangling or looping link names nothing. */
        bool is_dangling = errno == ENOENT || errno == ELOOP;
        return is_dangling ? DL_OK : list_io_error(ctx, errno, "cannot stat", path.len);
    }
    bool is_dir = S_ISDIR(st.st_mode);
    if (is_wanted) {
        DL_TRY(add_entry(ctx, path, &st, is_dir));
    }
    if (!is_dir || is_link || !may_descend) {
        return DL_OK;
    }
    DL_CHECK(depth + 1 < LOCAL_LIST_DEPTH, ctx->err, DL_ERR_LIMIT,
             "cannot list '%s': folders nest deeper than %d levels", ctx->rel, LOCAL_LIST_DEPTH);
    int fd = openat(dir_fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        return errno == ENOENT ? DL_OK
                               : list_io_error(ctx, errno, "cannot list", rel_len + name_len);
    }
    ctx->rel[rel_len + name_len] = '/';
    return list_folder(ctx, fd, rel_len + name_len + 1, dl_str_make("", 0), depth + 1);
}

/* Lists the folder open as fd (taken over and closed), relative path rel[0, rel_len). */
static dl_status
list_folder(list_ctx *ctx, int fd, size_t rel_len, dl_str name_prefix, int depth) {
    DIR *dir = fdopendir(fd);
    if (dir == NULL) {
        int errnum = errno;
        (void)close(fd);
        return list_io_error(ctx, errnum, "cannot list", rel_len);
    }
    dl_status s = DL_OK;
    for (;;) {
        errno = 0;
        struct dirent *de = readdir(dir);
        if (de == NULL) {
            if (errno != 0) {
                s = list_io_error(ctx, errno, "cannot list", rel_len);
            }
            break;
        }
        s = list_name(ctx, dirfd(dir), rel_len, de->d_name, name_prefix, depth);
        if (s != DL_OK) {
            break;
        }
    }
    (void)closedir(dir);
    return s;
}

static int
compare_entries(const void *a, const void *b) {
    return dl_str_cmp(((const dl_store_entry *)a)->path, ((const dl_store_entry *)b)->path);
}

static dl_status
finish_listing(list_ctx *ctx, dl_store_listing *out) {
    size_t count = ctx->entries.len / sizeof(dl_store_entry);
    if (count == 0) {
        return DL_OK;
    }
    qsort(ctx->entries.data, count, sizeof(dl_store_entry), compare_entries);
    out->entries = dl_arena_memdup(ctx->arena, ctx->entries.data, ctx->entries.len);
    if (out->entries == NULL) {
        DL_FAIL(ctx->err, DL_ERR_NOMEM, "out of memory listing %zu entries of '%s'", count,
                ctx->ls->base.location);
    }
    out->count = count;
    return DL_OK;
}

static dl_status
local_list(dl_store *store, const char *prefix, const char *start_after, unsigned flags,
           dl_arena *arena, dl_store_listing *out, dl_error *err) {
    list_ctx ctx = {.ls = (const local_store *)store,
                    .arena = arena,
                    .start_after = dl_str_make(start_after, start_after ? strlen(start_after) : 0),
                    .is_recursive = (flags & DL_STORE_LIST_RECURSIVE) != 0,
                    .err = err};
    const char *slash = strrchr(prefix, '/');
    size_t rel_len = slash == NULL ? 0 : (size_t)(slash - prefix) + 1;
    if (ctx.ls->root_len + 1 + rel_len >= LOCAL_PATH_CAP) {
        DL_ERROR_WHERE(err);
        dl_error_set(err, DL_ERR_INVALID_ARG,
                     "cannot list '%.64s...' in '%s': the path is %zu bytes, longer than the "
                     "%d bytes the file system allows",
                     prefix, ctx.ls->root, ctx.ls->root_len + 1 + rel_len, LOCAL_PATH_CAP - 1);
        dl_error_hint(err, "use a shorter name");
        return DL_ERR_INVALID_ARG;
    }
    memcpy(ctx.rel, prefix, rel_len);
    ctx.rel[rel_len] = '\0';
    char full[LOCAL_PATH_CAP];
    DL_TRY(full_path(ctx.ls, ctx.rel, full, err));
    int fd = open_retry(full, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
    if (fd < 0) {
        return open_error(err, errno, "cannot list folder", full);
    }
    dl_arena_mark mark = dl_arena_get_mark(arena);
    dl_buf_init(&ctx.entries, arena->alloc);
    dl_str name_prefix = dl_str_from_cstr(prefix + rel_len);
    dl_status s = list_folder(&ctx, fd, rel_len, name_prefix, 0);
    if (s == DL_OK) {
        s = finish_listing(&ctx, out);
    }
    dl_buf_destroy(&ctx.entries);
    if (s != DL_OK) {
        out->entries = NULL;
        out->count = 0;
        dl_arena_rewind(arena, mark);
    }
    return s;
}

/* ------------------------------------------------------------------------------------------ */
/* Construction                                                                                */

static const dl_store_vtable local_vtable = {
    .kind = "local",
    .release = local_free,
    .stat = local_stat,
    .list = local_list,
    .file_open = local_file_open,
    .file_read_at = local_file_read_at,
    .file_close = local_file_close,
    .writer_open = local_writer_open,
    .writer_append = local_writer_append,
    .writer_commit = local_writer_commit,
    .writer_abort = local_writer_abort,
    .remove = local_remove,
    .mkdirs = local_mkdirs,
};

/* The absolute form of root without trailing '/', into out (LOCAL_PATH_CAP bytes). */
static dl_status
absolute_root(const char *root, char *out, dl_error *err) {
    size_t len = 0;
    if (root[0] != '/') {
        if (getcwd(out, LOCAL_PATH_CAP) == NULL) {
            return io_error(err, errno, "cannot resolve the relative store root", root);
        }
        len = strlen(out);
        if (len > 0 && out[len - 1] != '/') {
            out[len++] = '/';
        }
    }
    size_t root_len = strlen(root);
    DL_CHECK(len + root_len + 2 <= LOCAL_PATH_CAP, err, DL_ERR_INVALID_ARG,
             "store root '%s' is longer than %d bytes", root, LOCAL_PATH_CAP - 2);
    memcpy(out + len, root, root_len);
    len += root_len;
    while (len > 0 && out[len - 1] == '/') {
        len--;
    }
    out[len] = '\0';
    return DL_OK;
}

dl_status
dl_store_local_new(const char *root, const dl_store_local_options *opts, dl_store **out,
                   dl_error *err) {
    *out = NULL;
    DL_CHECK(root != NULL && root[0] != '\0', err, DL_ERR_INVALID_ARG,
             "the store's root folder is empty");
    dl_store_local_options defaults = {0};
    if (opts == NULL) {
        opts = &defaults;
    }
    DL_CHECK(opts->put_method == DL_STORE_LOCAL_PUT_AUTO ||
                 opts->put_method == DL_STORE_LOCAL_PUT_LINK,
             err, DL_ERR_INVALID_ARG, "unknown put method %d", (int)opts->put_method);
    char abs_root[LOCAL_PATH_CAP];
    DL_TRY(absolute_root(root, abs_root, err));
    size_t root_len = strlen(abs_root);
    const char *location = root_len == 0 ? "/" : abs_root;
    size_t location_len = strlen(location);
    const dl_allocator *alloc = opts->alloc != NULL ? opts->alloc : dl_allocator_default();
    size_t size = sizeof(local_store) + root_len + 1 + location_len + 1;
    local_store *ls = dl_mem_alloc(alloc, size);
    if (ls == NULL) {
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory opening the store '%s'", location);
    }
    ls->root = (char *)(ls + 1);
    memcpy(ls->root, abs_root, root_len + 1);
    char *loc = ls->root + root_len + 1;
    memcpy(loc, location, location_len + 1);
    ls->base = (dl_store){
        .vt = &local_vtable, .alloc = alloc, .location = loc, .is_readonly = opts->is_readonly};
    ls->put_method = opts->put_method;
    ls->is_volatile = opts->is_volatile;
    ls->size = size;
    ls->root_len = root_len;
    *out = &ls->base;
    return DL_OK;
}
