/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The store part's interface: where a table's bytes live.
 *
 * A dl_store is a folder (the table's or the warehouse's root) seen through a handful of
 * operations that every storage system can give: ranged reads, stat, sorted listing of a
 * prefix, atomic whole-file writes, atomic put-if-absent, delete. It is an object with a
 * vtable (dl_store_vtable), so object stores can join the local file system later; callers
 * use only the dl_store_* functions below, which check arguments and dispatch.
 *
 * Paths. Every path is relative to the store's root, '/'-separated and canonical: not
 * absolute, no empty, "." or ".." components (a trailing '/' is allowed only where a
 * prefix or a folder is meant). Anything else is refused with DL_ERR_INVALID_ARG before the
 * store is touched, so no path can escape the root. Symbolic links inside the root are
 * followed: the store trusts the root's contents.
 *
 * What Delta needs from it (PROTOCOL.md, "Commit atomicity"):
 * - Put-if-absent is the commit: of several writers creating `_delta_log/<v>.json`, exactly
 *   one succeeds and the others get DL_ERR_EXISTS, even across processes; a reader never sees
 *   a partial file. Writes are atomic too (a reader sees the old or the new file, never a mix),
 *   and durable once they return DL_OK.
 * - Listing is consistent and sorted byte-wise, so `_delta_log/` can be listed from a
 *   checkpoint onward with start_after.
 * - Nothing partial is left behind: a write that fails removes its temporary file.
 *
 * Errors. A missing file is DL_ERR_NOT_FOUND (distinguishable from every other failure); a put
 * that lost is DL_ERR_EXISTS; a read past the end of a file is DL_ERR_CORRUPT naming the file,
 * offset and size; a refusal by the operating system is DL_ERR_IO with errno in
 * dl_error.sys_errno, the path in the message, and a hint ("free disk space ...").
 *
 * Threads. A store, and the functions below, may be used from several threads at once. A
 * dl_store_file may be read from several threads at once (reads are positional); a
 * dl_store_writer belongs to one thread at a time.
 */
#ifndef DL_STORE_STORE_H
#define DL_STORE_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/alloc.h"
#include "base/arena.h"
#include "base/buf.h"
#include "base/compiler.h"
#include "base/error.h"
#include "base/str.h"

typedef struct dl_store dl_store;
typedef struct dl_store_file dl_store_file;
typedef struct dl_store_writer dl_store_writer;
typedef struct dl_store_vtable dl_store_vtable;

/* What stat reports about a path. */
typedef struct dl_store_info {
    int64_t size;     /* bytes; 0 for a folder */
    int64_t mtime_ms; /* last modification, milliseconds since 1970-01-01T00:00:00Z */
    bool is_dir;      /* a folder (local store only; object stores have none) */
} dl_store_info;

/* One entry of a listing. */
typedef struct dl_store_entry {
    dl_str path;      /* relative to the root, NUL-terminated, e.g.
                         "_delta_log/00000000000000000010.json" */
    int64_t size;     /* bytes; 0 for a folder */
    int64_t mtime_ms; /* last modification, milliseconds since the epoch */
    bool is_dir;      /* a folder */
} dl_store_entry;

/* A listing: entries sorted byte-wise by path, all in the caller's arena. */
typedef struct dl_store_listing {
    dl_store_entry *entries; /* count entries, NULL when count is 0 */
    size_t count;
} dl_store_listing;

/* Flags for dl_store_list. */
#define DL_STORE_LIST_RECURSIVE 1u /* descend into folders (files and folders at every depth) */

/* How a writer's file comes into being on commit. */
typedef enum dl_store_put_mode {
    DL_STORE_PUT_OVERWRITE = 0, /* replace any existing file atomically */
    DL_STORE_PUT_IF_ABSENT = 1, /* create only if absent, else DL_ERR_EXISTS (atomic) */
} dl_store_put_mode;

/* The common head of every store. Implementations embed it first. */
struct dl_store {
    const dl_store_vtable *vt; /* the implementation */
    const dl_allocator *alloc; /* where the store, its files and writers come from */
    const char *location;      /* the root as shown in messages: a folder or a URL */
    bool is_readonly;          /* every change (writer_open, remove, mkdirs) is DL_ERR_READONLY */
};

/* An open file for ranged reads. Implementations embed it first. */
struct dl_store_file {
    dl_store *store;  /* the store that opened it */
    const char *path; /* relative path as opened, owned by the file */
    int64_t size;     /* size when opened; reads are checked against it */
    int64_t mtime_ms; /* modification time when opened */
};

/* A file being written. Implementations embed it first. */
struct dl_store_writer {
    dl_store *store;        /* the store that opened it */
    const char *path;       /* relative path of the file to create, owned by the writer */
    dl_store_put_mode mode; /* what commit does */
    int64_t n_bytes;        /* bytes appended so far */
    bool is_failed;         /* an append failed: only abort is allowed */
};

/*
 * The operations an implementation provides. The dl_store_* wrappers have already checked
 * the arguments (paths canonical, offsets in range, NULL pointers) when these are called, and
 * keep the writer's n_bytes and is_failed up to date. Each entry's contract is that of the
 * wrapper of the same name below.
 */
struct dl_store_vtable {
    const char *kind;                 /* "local", "fault", ... */
    void (*release)(dl_store *store); /* frees the store */
    DL_NODISCARD dl_status (*stat)(dl_store *store, const char *path, dl_store_info *out,
                                   dl_error *err);
    DL_NODISCARD dl_status (*list)(dl_store *store, const char *prefix, const char *start_after,
                                   unsigned flags, dl_arena *arena, dl_store_listing *out,
                                   dl_error *err);
    DL_NODISCARD dl_status (*file_open)(dl_store *store, const char *path, dl_store_file **out,
                                        dl_error *err);
    /* Reads exactly len bytes; the wrapper has checked offset + len <= file->size. */
    DL_NODISCARD dl_status (*file_read_at)(dl_store_file *file, int64_t offset, void *dst,
                                           size_t len, dl_error *err);
    void (*file_close)(dl_store_file *file);
    DL_NODISCARD dl_status (*writer_open)(dl_store *store, const char *path, dl_store_put_mode mode,
                                          dl_store_writer **out, dl_error *err);
    DL_NODISCARD dl_status (*writer_append)(dl_store_writer *writer, const void *data, size_t len,
                                            dl_error *err);
    /* Publishes the file and frees the writer, on success and on failure alike. */
    DL_NODISCARD dl_status (*writer_commit)(dl_store_writer *writer, dl_error *err);
    /* Discards everything written and frees the writer. Never fails. */
    void (*writer_abort)(dl_store_writer *writer);
    DL_NODISCARD dl_status (*remove)(dl_store *store, const char *path, dl_error *err);
    DL_NODISCARD dl_status (*mkdirs)(dl_store *store, const char *path, dl_error *err);
};

/* ------------------------------------------------------------------------------------------ */
/* The local file system                                                                       */

/* How the local store makes put-if-absent atomic. */
typedef enum dl_store_local_put_method {
    /* renameat2(RENAME_NOREPLACE) where the kernel and file system have it, else link(2). */
    DL_STORE_LOCAL_PUT_AUTO = 0,
    /* Always link(2) the temporary file into place, then unlink it (tests the fallback). */
    DL_STORE_LOCAL_PUT_LINK = 1,
} dl_store_local_put_method;

typedef struct dl_store_local_options {
    const dl_allocator *alloc;            /* NULL = libc */
    dl_store_local_put_method put_method; /* default AUTO */
    /* Skip every fsync: writes stay atomic and put-if-absent stays exclusive, but a crash may
     * lose them. For tests and scratch data only, never for a table someone keeps. */
    bool is_volatile;
    /* Refuse every change with DL_ERR_READONLY (the warehouse was opened read-only). */
    bool is_readonly;
} dl_store_local_options;

/*
 * Opens the folder root as a store. root need not exist yet (writes and mkdirs create it); a
 * relative root is resolved against the current directory now, so a later chdir does not move
 * the store. opts may be NULL for the defaults. Free the store with dl_store_free.
 *
 * How it works: a write goes to a temporary file ".<name>.<16 hex digits>.tmp" in the target's
 * folder (created with O_EXCL), which is fsync'ed and then renamed over the target
 * (overwrite) or moved into place with renameat2(RENAME_NOREPLACE) or link(2), both of which
 * fail with EEXIST instead of replacing (put-if-absent: never a check-then-rename). The
 * folder is then fsync'ed so the new name is durable. Missing parent folders of a written
 * file are created. Temporary files are removed on every failure path; only a crash can
 * leave one, and since its name starts with '.', Delta's listings and VACUUM ignore it.
 *
 * Listing a folder that does not exist is DL_ERR_NOT_FOUND (an empty folder is an empty
 * listing); object stores, having no folders, will give an empty listing instead, so a
 * caller that means "no log" must accept both.
 */
DL_NODISCARD dl_status dl_store_local_new(const char *root, const dl_store_local_options *opts,
                                          dl_store **out, dl_error *err);

/* ------------------------------------------------------------------------------------------ */
/* Operations                                                                                  */

/* Frees the store (not the stores it wraps). Files and writers must be closed first.
 * NULL-tolerant. */
void dl_store_free(dl_store *store);

/* The size and modification time of path, a file or a folder. DL_ERR_NOT_FOUND if absent. */
DL_NODISCARD dl_status dl_store_stat(dl_store *store, const char *path, dl_store_info *out,
                                     dl_error *err);

/*
 * Lists the entries whose path starts with prefix and sorts greater than start_after, sorted
 * byte-wise by path. The part of prefix up to its last '/' names a folder (the root when
 * there is none); the rest must begin the entry's name: list("_delta_log/", ...) lists the
 * log, list("_delta_log/0000000000000000001", NULL, ...) lists versions 10..19. start_after
 * (NULL for none) is a full path, compared byte-wise, as Delta's listFrom and S3's
 * StartAfter. Folders are listed too (is_dir); with DL_STORE_LIST_RECURSIVE the listing
 * descends into them (symbolic links to folders are listed, never followed).
 *
 * The array and the path strings are allocated in arena and live as long as it does; on
 * failure nothing is left in the arena. Cost: one stat per entry that passes the filters, so
 * listing from a recent start_after in a log of 100,000 files is cheap.
 * DL_ERR_NOT_FOUND when the folder does not exist (see dl_store_local_new).
 */
DL_NODISCARD dl_status dl_store_list(dl_store *store, const char *prefix, const char *start_after,
                                     unsigned flags, dl_arena *arena, dl_store_listing *out,
                                     dl_error *err);

/* Opens path for ranged reads; (*out)->size and mtime_ms are filled. DL_ERR_NOT_FOUND if
 * absent. Close it with dl_store_file_close. */
DL_NODISCARD dl_status dl_store_file_open(dl_store *store, const char *path, dl_store_file **out,
                                          dl_error *err);

/*
 * Reads exactly len bytes at offset into dst. Reading past the end of the file (as sized at
 * open) is DL_ERR_CORRUPT: "'<file>': cannot read 100 bytes at offset 950: the file has 1000
 * bytes", with dl_error.offset = offset. A negative offset is DL_ERR_INVALID_ARG.
 */
DL_NODISCARD dl_status dl_store_file_read_at(dl_store_file *file, int64_t offset, void *dst,
                                             size_t len, dl_error *err);

/* As dl_store_file_read_at, appending the bytes to buf (unchanged on failure). */
DL_NODISCARD dl_status dl_store_file_read_at_buf(dl_store_file *file, int64_t offset, size_t len,
                                                 dl_buf *buf, dl_error *err);

/* Closes the file. NULL-tolerant. */
void dl_store_file_close(dl_store_file *file);

/* Opens, reads len bytes at offset into dst, closes: for a single read. */
DL_NODISCARD dl_status dl_store_read_at(dl_store *store, const char *path, int64_t offset,
                                        void *dst, size_t len, dl_error *err);

/* As dl_store_read_at, appending the bytes to buf (unchanged on failure). */
DL_NODISCARD dl_status dl_store_read_at_buf(dl_store *store, const char *path, int64_t offset,
                                            size_t len, dl_buf *buf, dl_error *err);

/* Appends the whole file to buf (unchanged on failure). */
DL_NODISCARD dl_status dl_store_read_all(dl_store *store, const char *path, dl_buf *buf,
                                         dl_error *err);

/*
 * Starts writing path. Nothing is visible at path until dl_store_writer_commit; then the
 * whole file appears at once. Every writer must end with exactly one commit or abort.
 */
DL_NODISCARD dl_status dl_store_writer_open(dl_store *store, const char *path,
                                            dl_store_put_mode mode, dl_store_writer **out,
                                            dl_error *err);

/* Appends len bytes. After a failure the writer only accepts abort (commit refuses). */
DL_NODISCARD dl_status dl_store_writer_append(dl_store_writer *writer, const void *data, size_t len,
                                              dl_error *err);

/*
 * Makes the file durable and visible at its path, and frees the writer whatever the outcome.
 * DL_ERR_EXISTS (in DL_STORE_PUT_IF_ABSENT mode) when the path already exists: the existing
 * file is untouched and what this writer wrote is discarded.
 */
DL_NODISCARD dl_status dl_store_writer_commit(dl_store_writer *writer, dl_error *err);

/* Discards what was written and frees the writer. NULL-tolerant. */
void dl_store_writer_abort(dl_store_writer *writer);

/* Writes len bytes as the file path, replacing any existing file atomically. */
DL_NODISCARD dl_status dl_store_write(dl_store *store, const char *path, const void *data,
                                      size_t len, dl_error *err);

/*
 * Creates path with len bytes only if it does not exist: atomic between processes. Returns
 * DL_ERR_EXISTS, leaving the existing file untouched, when it does. This is a Delta commit.
 */
DL_NODISCARD dl_status dl_store_put_if_absent(dl_store *store, const char *path, const void *data,
                                              size_t len, dl_error *err);

/* Deletes the file (or empty folder) path. DL_ERR_NOT_FOUND when it does not exist. */
DL_NODISCARD dl_status dl_store_remove(dl_store *store, const char *path, dl_error *err);

/* Creates the folder path and any missing parents ("" is the root itself). An existing
 * folder is fine; an existing file in the way is DL_ERR_IO (ENOTDIR). */
DL_NODISCARD dl_status dl_store_mkdirs(dl_store *store, const char *path, dl_error *err);

/*
 * Checks that path is canonical and relative (see "Paths" above). is_prefix allows the empty
 * path and a trailing '/'. what names the argument in the message ("path", "prefix").
 * Exposed for implementations and for callers that build paths from outside input.
 */
DL_NODISCARD dl_status dl_store_path_check(const char *path, bool is_prefix, const char *what,
                                           dl_error *err);

#endif /* DL_STORE_STORE_H */
