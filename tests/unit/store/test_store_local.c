/* SPDX-License-Identifier: Apache-2.0 */
/* The local file-system store: every operation, its errors, and its leftovers (none). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/buf.h"
#include "harness.h"
#include "store/store.h"
#include "store_testutil.h"

static char g_root[TESTUTIL_ROOT_CAP];
static dl_store *g_store;

static void
setup(void) {
    dl_error err;
    if (!testutil_make_tmp_dir(g_root) ||
        dl_store_local_new(g_root, NULL, &g_store, &err) != DL_OK) {
        printf("cannot set up a scratch store under /tmp\n");
        exit(2);
    }
}

static void
teardown(void) {
    dl_store_free(g_store);
    g_store = NULL;
    testutil_remove_tree(g_root);
}

#define RUN_IN_STORE(name) \
    do {                   \
        setup();           \
        RUN(name);         \
        teardown();        \
    } while (0)

static int64_t
now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Sets root/rel's modification time to the given milliseconds since the epoch. */
static bool
set_mtime_ms(const char *rel, int64_t ms) {
    char full[TESTUTIL_PATH_CAP];
    int n = snprintf(full, sizeof(full), "%s/%s", g_root, rel);
    if (n < 0 || (size_t)n >= sizeof(full)) {
        return false;
    }
    struct timespec times[2] = {{.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000 + 456},
                                {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000 + 456}};
    return utimensat(AT_FDCWD, full, times, 0) == 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Writing and reading                                                                         */

TEST(test_write_then_read_all_round_trips) {
    dl_error err;
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    CHECK_OK(dl_store_write(g_store, "a.json", "hello\n", 6, &err), &err);
    CHECK_OK(dl_store_read_all(g_store, "a.json", &buf, &err), &err);
    CHECK_INT_EQ(buf.len, 6);
    CHECK(memcmp(buf.data, "hello\n", 6) == 0);
    CHECK_OK(dl_store_write(g_store, "empty", "", 0, &err), &err);
    CHECK_OK(dl_store_read_all(g_store, "empty", &buf, &err), &err);
    CHECK_INT_EQ(buf.len, 6); /* appended nothing */
    dl_buf_destroy(&buf);
    CHECK_INT_EQ(testutil_count_tmp_files(g_root), 0);
}

/* A store opened read-only refuses every change with READONLY, naming the path, and still
 * reads. */
TEST(test_readonly_store_refuses_changes_and_reads) {
    dl_error err;
    CHECK_OK(dl_store_write(g_store, "a.json", "hello\n", 6, &err), &err);
    dl_store *ro = NULL;
    dl_store_local_options opts = {.is_readonly = true};
    CHECK_OK(dl_store_local_new(g_root, &opts, &ro, &err), &err);
    dl_store_writer *w = NULL;
    CHECK_INT_EQ(dl_store_writer_open(ro, "b.json", DL_STORE_PUT_IF_ABSENT, &w, &err),
                 DL_ERR_READONLY);
    CHECK(w == NULL);
    CHECK(strstr(err.msg, "cannot write '") != NULL && strstr(err.msg, "/b.json'") != NULL);
    CHECK(strstr(err.msg, "read-only") != NULL);
    CHECK_INT_EQ(dl_store_write(ro, "a.json", "x", 1, &err), DL_ERR_READONLY);
    CHECK_INT_EQ(dl_store_put_if_absent(ro, "c.json", "x", 1, &err), DL_ERR_READONLY);
    CHECK_INT_EQ(dl_store_remove(ro, "a.json", &err), DL_ERR_READONLY);
    CHECK_INT_EQ(dl_store_mkdirs(ro, "sub/dir", &err), DL_ERR_READONLY);
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    dl_status st = dl_store_read_all(ro, "a.json", &buf, &err);
    dl_store_free(ro);
    CHECK_OK(st, &err);
    CHECK_INT_EQ(buf.len, 6);
    dl_buf_destroy(&buf);
    dl_store_info info;
    CHECK_INT_EQ(dl_store_stat(g_store, "b.json", &info, &err), DL_ERR_NOT_FOUND);
    CHECK_INT_EQ(dl_store_stat(g_store, "sub", &info, &err), DL_ERR_NOT_FOUND);
    CHECK_INT_EQ(testutil_count_tmp_files(g_root), 0);
}

TEST(test_write_replaces_existing_file) {
    dl_error err;
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    CHECK_OK(dl_store_write(g_store, "_last_checkpoint", "old contents, longer", 20, &err), &err);
    CHECK_OK(dl_store_write(g_store, "_last_checkpoint", "new", 3, &err), &err);
    CHECK_OK(dl_store_read_all(g_store, "_last_checkpoint", &buf, &err), &err);
    CHECK_INT_EQ(buf.len, 3);
    CHECK(memcmp(buf.data, "new", 3) == 0);
    dl_buf_destroy(&buf);
    CHECK_INT_EQ(testutil_count_tmp_files(g_root), 0);
}

TEST(test_failed_commit_removes_its_temporary_file) {
    dl_error err;
    dl_store_info info;
    CHECK_OK(dl_store_write(g_store, "d/x", "x", 1, &err), &err);
    /* rename(2) refuses to replace a folder with a file: the commit fails after the
     * temporary file was written and synced. */
    CHECK_STATUS(dl_store_write(g_store, "d", "y", 1, &err), DL_ERR_IO, &err);
    CHECK_INT_EQ(err.sys_errno, EISDIR);
    CHECK_ERR_CONTAINS(&err, "cannot replace");
    CHECK_OK(dl_store_stat(g_store, "d", &info, &err), &err);
    CHECK(info.is_dir);
    CHECK_INT_EQ(testutil_count_tmp_files(g_root), 0);
}

TEST(test_write_creates_missing_parent_folders) {
    dl_error err;
    dl_store_info info;
    CHECK_OK(dl_store_write(g_store, "year=2024/month=1/part-0.parquet", "PAR1", 4, &err), &err);
    CHECK_OK(dl_store_stat(g_store, "year=2024/month=1", &info, &err), &err);
    CHECK(info.is_dir);
    CHECK_OK(dl_store_stat(g_store, "year=2024/month=1/part-0.parquet", &info, &err), &err);
    CHECK_INT_EQ(info.size, 4);
}

TEST(test_stat_reports_size_mtime_and_folders) {
    dl_error err;
    dl_store_info info;
    int64_t before = now_ms();
    CHECK_OK(dl_store_write(g_store, "f.bin", "0123456789", 10, &err), &err);
    CHECK_OK(dl_store_stat(g_store, "f.bin", &info, &err), &err);
    CHECK_INT_EQ(info.size, 10);
    CHECK(!info.is_dir);
    CHECK(info.mtime_ms >= before - 2000 && info.mtime_ms <= now_ms() + 2000);
    CHECK(set_mtime_ms("f.bin", 1700000000123));
    CHECK_OK(dl_store_stat(g_store, "f.bin", &info, &err), &err);
    CHECK_INT_EQ(info.mtime_ms, 1700000000123);
    CHECK_OK(dl_store_stat(g_store, "", &info, &err), &err);
    CHECK(info.is_dir);
    CHECK_INT_EQ(info.size, 0);
}

TEST(test_missing_file_is_not_found_everywhere) {
    dl_error err;
    dl_store_info info;
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    char byte;
    CHECK_STATUS(dl_store_stat(g_store, "nope.json", &info, &err), DL_ERR_NOT_FOUND, &err);
    CHECK_ERR_CONTAINS(&err, "nope.json");
    CHECK_STATUS(dl_store_read_all(g_store, "nope.json", &buf, &err), DL_ERR_NOT_FOUND, &err);
    CHECK_ERR_CONTAINS(&err, g_root);
    CHECK_ERR_CONTAINS(&err, "not found");
    CHECK_STATUS(dl_store_read_at(g_store, "dir/nope", 0, &byte, 1, &err), DL_ERR_NOT_FOUND, &err);
    CHECK_STATUS(dl_store_remove(g_store, "nope.json", &err), DL_ERR_NOT_FOUND, &err);
    CHECK_ERR_CONTAINS(&err, "cannot delete");
    /* A file where a folder is expected is also "not found". */
    CHECK_OK(dl_store_write(g_store, "file", "x", 1, &err), &err);
    CHECK_STATUS(dl_store_stat(g_store, "file/child", &info, &err), DL_ERR_NOT_FOUND, &err);
    CHECK_INT_EQ(buf.len, 0);
}

TEST(test_read_at_middle_and_exactly_at_end) {
    dl_error err;
    char out[8] = {0};
    CHECK_OK(dl_store_write(g_store, "f", "0123456789", 10, &err), &err);
    CHECK_OK(dl_store_read_at(g_store, "f", 3, out, 4, &err), &err);
    CHECK(memcmp(out, "3456", 4) == 0);
    CHECK_OK(dl_store_read_at(g_store, "f", 6, out, 4, &err), &err);
    CHECK(memcmp(out, "6789", 4) == 0);
    CHECK_OK(dl_store_read_at(g_store, "f", 10, out, 0, &err), &err);
}

TEST(test_read_past_end_is_corrupt_naming_file_offset_and_size) {
    dl_error err;
    char out[16];
    CHECK_OK(dl_store_write(g_store, "sub/short.parquet", "0123456789", 10, &err), &err);
    CHECK_STATUS(dl_store_read_at(g_store, "sub/short.parquet", 8, out, 4, &err), DL_ERR_CORRUPT,
                 &err);
    CHECK_ERR_CONTAINS(&err, "sub/short.parquet");
    CHECK_ERR_CONTAINS(&err, g_root);
    CHECK_ERR_CONTAINS(&err, "cannot read 4 bytes at offset 8: the file has 10 bytes");
    CHECK_INT_EQ(err.offset, 8);
    CHECK_STATUS(dl_store_read_at(g_store, "sub/short.parquet", 11, out, 0, &err), DL_ERR_CORRUPT,
                 &err);
    CHECK_STATUS(dl_store_read_at(g_store, "sub/short.parquet", INT64_MAX, out, 2, &err),
                 DL_ERR_CORRUPT, &err);
    CHECK_STATUS(dl_store_read_at(g_store, "sub/short.parquet", -1, out, 1, &err),
                 DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "negative offset -1");
}

TEST(test_read_at_buf_appends_and_keeps_buffer_on_failure) {
    dl_error err;
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    CHECK_OK(dl_buf_append(&buf, "<", 1, &err), &err);
    CHECK_OK(dl_store_write(g_store, "f", "abcdef", 6, &err), &err);
    CHECK_OK(dl_store_read_at_buf(g_store, "f", 2, 3, &buf, &err), &err);
    CHECK_INT_EQ(buf.len, 4);
    CHECK(memcmp(buf.data, "<cde", 4) == 0);
    CHECK_STATUS(dl_store_read_at_buf(g_store, "f", 4, 3, &buf, &err), DL_ERR_CORRUPT, &err);
    CHECK_INT_EQ(buf.len, 4);
    dl_buf_destroy(&buf);
}

TEST(test_file_handle_serves_many_reads_and_reports_size) {
    dl_error err;
    char data[1000];
    for (size_t i = 0; i < sizeof(data); i++) {
        data[i] = (char)(i * 7);
    }
    CHECK_OK(dl_store_write(g_store, "f", data, sizeof(data), &err), &err);
    dl_store_file *file = NULL;
    CHECK_OK(dl_store_file_open(g_store, "f", &file, &err), &err);
    CHECK_INT_EQ(file->size, 1000);
    CHECK(file->mtime_ms > 0);
    CHECK_STR_EQ(file->path, "f");
    for (int64_t off = 0; off + 10 <= 1000; off += 37) {
        char out[10];
        CHECK_OK(dl_store_file_read_at(file, off, out, 10, &err), &err);
        CHECK(memcmp(out, data + off, 10) == 0);
    }
    dl_store_file_close(file);
    dl_store_file_close(NULL);
}

TEST(test_sparse_file_beyond_4gib_reads_at_64_bit_offsets) {
    dl_error err;
    char full[TESTUTIL_PATH_CAP];
    (void)snprintf(full, sizeof(full), "%s/big", g_root);
    int fd = open(full, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    CHECK(fd >= 0);
    const int64_t size = ((int64_t)5 << 30) + 3;
    bool is_ok = ftruncate(fd, (off_t)size) == 0 && pwrite(fd, "xyz", 3, (off_t)(size - 3)) == 3;
    CHECK(close(fd) == 0 && is_ok);
    char out[5];
    CHECK_OK(dl_store_read_at(g_store, "big", size - 5, out, 5, &err), &err);
    CHECK(memcmp(out, "\0\0xyz", 5) == 0);
    CHECK_STATUS(dl_store_read_at(g_store, "big", size - 2, out, 5, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "at offset 5368709121: the file has 5368709123 bytes");
    dl_store_info info;
    CHECK_OK(dl_store_stat(g_store, "big", &info, &err), &err);
    CHECK_INT_EQ(info.size, size);
}

TEST(test_writer_streams_chunks_and_publishes_only_on_commit) {
    dl_error err;
    dl_store_writer *w = NULL;
    dl_store_info info;
    CHECK_OK(dl_store_writer_open(g_store, "data/part-1.parquet", DL_STORE_PUT_OVERWRITE, &w, &err),
             &err);
    char chunk[4096];
    for (int i = 0; i < 64; i++) {
        memset(chunk, 'a' + i % 26, sizeof(chunk));
        CHECK_OK(dl_store_writer_append(w, chunk, sizeof(chunk), &err), &err);
    }
    CHECK_INT_EQ(w->n_bytes, 64 * 4096);
    CHECK_STATUS(dl_store_stat(g_store, "data/part-1.parquet", &info, &err), DL_ERR_NOT_FOUND,
                 &err);
    CHECK_INT_EQ(testutil_count_tmp_files(g_root), 1);
    CHECK_OK(dl_store_writer_commit(w, &err), &err);
    CHECK_OK(dl_store_stat(g_store, "data/part-1.parquet", &info, &err), &err);
    CHECK_INT_EQ(info.size, 64 * 4096);
    char out[2];
    CHECK_OK(dl_store_read_at(g_store, "data/part-1.parquet", 4095, out, 2, &err), &err);
    CHECK(out[0] == 'a' && out[1] == 'b');
    CHECK_INT_EQ(testutil_count_tmp_files(g_root), 0);
}

TEST(test_writer_abort_leaves_nothing) {
    dl_error err;
    dl_store_writer *w = NULL;
    dl_store_info info;
    CHECK_OK(dl_store_writer_open(g_store, "x.json", DL_STORE_PUT_IF_ABSENT, &w, &err), &err);
    CHECK_OK(dl_store_writer_append(w, "abc", 3, &err), &err);
    dl_store_writer_abort(w);
    dl_store_writer_abort(NULL);
    CHECK_STATUS(dl_store_stat(g_store, "x.json", &info, &err), DL_ERR_NOT_FOUND, &err);
    CHECK_INT_EQ(testutil_count_tmp_files(g_root), 0);
}

static void
check_put_if_absent(dl_store *store) {
    dl_error err;
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    const char *v0 = "{\"commitInfo\":{\"by\":\"first\"}}\n";
    const char *v0b = "{\"commitInfo\":{\"by\":\"second\"}}\n";
    CHECK_OK(
        dl_store_put_if_absent(store, "_delta_log/00000000000000000000.json", v0, strlen(v0), &err),
        &err);
    CHECK_STATUS(dl_store_put_if_absent(store, "_delta_log/00000000000000000000.json", v0b,
                                        strlen(v0b), &err),
                 DL_ERR_EXISTS, &err);
    CHECK_ERR_CONTAINS(&err, "00000000000000000000.json' already exists");
    CHECK_OK(dl_store_read_all(store, "_delta_log/00000000000000000000.json", &buf, &err), &err);
    CHECK_INT_EQ(buf.len, strlen(v0));
    CHECK(memcmp(buf.data, v0, buf.len) == 0);
    dl_buf_destroy(&buf);
    /* A folder of that name also exists: put-if-absent never replaces it. */
    CHECK_OK(dl_store_mkdirs(store, "_delta_log/_commits", &err), &err);
    CHECK_STATUS(dl_store_put_if_absent(store, "_delta_log/_commits", "x", 1, &err), DL_ERR_EXISTS,
                 &err);
    CHECK_INT_EQ(testutil_count_tmp_files(g_root), 0);
}

TEST(test_put_if_absent_returns_exists_and_keeps_old_contents) {
    check_put_if_absent(g_store);
}

TEST(test_put_if_absent_with_link_fallback_behaves_the_same) {
    dl_error err;
    dl_store *store = NULL;
    dl_store_local_options opts = {.put_method = DL_STORE_LOCAL_PUT_LINK};
    CHECK_OK(dl_store_local_new(g_root, &opts, &store, &err), &err);
    check_put_if_absent(store);
    dl_store_free(store);
}

/* ------------------------------------------------------------------------------------------ */
/* Listing                                                                                     */

static void
check_listing(const dl_store_listing *listing, const char *const *paths, size_t n) {
    CHECK_INT_EQ(listing->count, n);
    for (size_t i = 0; i < n; i++) {
        CHECK_STR_EQ(listing->entries[i].path.ptr, paths[i]);
        CHECK_INT_EQ(listing->entries[i].path.len, strlen(paths[i]));
    }
}

TEST(test_list_delta_log_from_start_after_with_sizes_and_mtimes) {
    dl_error err;
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    CHECK(testutil_mkdir(g_root, "_delta_log", 0755));
    CHECK(testutil_mkdir(g_root, "_delta_log/_commits", 0755));
    char name[64];
    for (int v = 14; v >= 0; v--) {
        (void)snprintf(name, sizeof(name), "_delta_log/%020d.json", v);
        char content[32];
        (void)snprintf(content, sizeof(content), "%*d", v + 1, v);
        CHECK(testutil_write_raw(g_root, name, content));
        CHECK(set_mtime_ms(name, 1700000000000 + v * 1000));
    }
    CHECK(testutil_write_raw(g_root, "_delta_log/00000000000000000010.checkpoint.parquet", "P"));
    CHECK(testutil_write_raw(g_root, "_delta_log/_last_checkpoint", "{}"));
    CHECK(testutil_write_raw(g_root, "part-0.parquet", "not in the log"));
    dl_store_listing listing;
    CHECK_OK(dl_store_list(g_store, "_delta_log/", "_delta_log/00000000000000000010.json", 0,
                           &arena, &listing, &err),
             &err);
    static const char *const want[] = {
        "_delta_log/00000000000000000011.json",
        "_delta_log/00000000000000000012.json",
        "_delta_log/00000000000000000013.json",
        "_delta_log/00000000000000000014.json",
        "_delta_log/_commits",
        "_delta_log/_last_checkpoint",
    };
    check_listing(&listing, want, DL_ARRAY_LEN(want));
    if (harness_current_failed) {
        return;
    }
    for (int i = 0; i < 4; i++) {
        CHECK_INT_EQ(listing.entries[i].size, 12 + i);
        CHECK_INT_EQ(listing.entries[i].mtime_ms, 1700000000000 + (11 + i) * 1000);
        CHECK(!listing.entries[i].is_dir);
    }
    CHECK(listing.entries[4].is_dir);
    CHECK_INT_EQ(listing.entries[5].size, 2);
    /* The whole log, checkpoint before its commit file ('c' < 'j'). */
    CHECK_OK(dl_store_list(g_store, "_delta_log/", NULL, 0, &arena, &listing, &err), &err);
    CHECK_INT_EQ(listing.count, 18);
    CHECK_STR_EQ(listing.entries[10].path.ptr,
                 "_delta_log/00000000000000000010.checkpoint.parquet");
    CHECK_STR_EQ(listing.entries[11].path.ptr, "_delta_log/00000000000000000010.json");
    dl_arena_destroy(&arena);
}

TEST(test_list_name_prefix_selects_versions) {
    dl_error err;
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    CHECK(testutil_mkdir(g_root, "_delta_log", 0755));
    char name[64];
    for (int v = 0; v < 25; v++) {
        (void)snprintf(name, sizeof(name), "_delta_log/%020d.json", v);
        CHECK(testutil_write_raw(g_root, name, "{}"));
    }
    dl_store_listing listing;
    CHECK_OK(
        dl_store_list(g_store, "_delta_log/0000000000000000001", NULL, 0, &arena, &listing, &err),
        &err);
    CHECK_INT_EQ(listing.count, 10);
    CHECK_STR_EQ(listing.entries[0].path.ptr, "_delta_log/00000000000000000010.json");
    CHECK_STR_EQ(listing.entries[9].path.ptr, "_delta_log/00000000000000000019.json");
    /* A prefix without '/' filters the root's names. */
    CHECK_OK(dl_store_list(g_store, "_d", NULL, 0, &arena, &listing, &err), &err);
    CHECK_INT_EQ(listing.count, 1);
    CHECK_STR_EQ(listing.entries[0].path.ptr, "_delta_log");
    CHECK(listing.entries[0].is_dir);
    dl_arena_destroy(&arena);
}

TEST(test_list_sorts_byte_wise) {
    dl_error err;
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    static const char *const names[] = {"b",   "a", "Z", "\xc3\xa9", "a.b",
                                        "a-b", "~", "_", "A",        "aa"};
    for (size_t i = 0; i < DL_ARRAY_LEN(names); i++) {
        CHECK(testutil_write_raw(g_root, names[i], "x"));
    }
    dl_store_listing listing;
    CHECK_OK(dl_store_list(g_store, "", NULL, 0, &arena, &listing, &err), &err);
    static const char *const want[] = {"A",   "Z",  "_", "a", "a-b",
                                       "a.b", "aa", "b", "~", "\xc3\xa9"};
    check_listing(&listing, want, DL_ARRAY_LEN(want));
    dl_arena_destroy(&arena);
}

TEST(test_list_missing_folder_is_not_found_and_empty_folder_is_empty) {
    dl_error err;
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_store_listing listing;
    CHECK_STATUS(dl_store_list(g_store, "_delta_log/", NULL, 0, &arena, &listing, &err),
                 DL_ERR_NOT_FOUND, &err);
    CHECK_ERR_CONTAINS(&err, "_delta_log");
    CHECK_INT_EQ(listing.count, 0);
    CHECK(listing.entries == NULL);
    CHECK(testutil_mkdir(g_root, "_delta_log", 0755));
    CHECK_OK(dl_store_list(g_store, "_delta_log/", NULL, 0, &arena, &listing, &err), &err);
    CHECK_INT_EQ(listing.count, 0);
    /* The prefix names a file, not a folder. */
    CHECK(testutil_write_raw(g_root, "plain", "x"));
    CHECK_STATUS(dl_store_list(g_store, "plain/", NULL, 0, &arena, &listing, &err),
                 DL_ERR_NOT_FOUND, &err);
    dl_arena_destroy(&arena);
}

/* A prefix longer than any path (a 5,000-byte table name) is refused before it is copied
 * into the listing's path buffer (it overflowed the stack). */
TEST(test_list_with_a_prefix_longer_than_a_path_is_refused) {
    dl_error err;
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    static char prefix[6000];
    memset(prefix, 'a', 5000);
    memcpy(prefix + 5000, "/_delta_log/", 13);
    dl_store_listing listing;
    CHECK_STATUS(dl_store_list(g_store, prefix, NULL, 0, &arena, &listing, &err),
                 DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "longer than the 4095 bytes the file system allows");
    CHECK_INT_EQ(listing.count, 0);
    prefix[4090] = '/';
    prefix[4091] = '\0';
    CHECK_STATUS(dl_store_list(g_store, prefix, NULL, 0, &arena, &listing, &err),
                 DL_ERR_INVALID_ARG, &err);
    dl_arena_destroy(&arena);
}

/* Builds a small partitioned table with a symlink and a hidden temp-like file. */
static bool
make_tree(void) {
    return testutil_mkdir(g_root, "p=1", 0755) && testutil_mkdir(g_root, "p=1/q=a", 0755) &&
           testutil_mkdir(g_root, "p=1/q=b", 0755) && testutil_mkdir(g_root, "p=10", 0755) &&
           testutil_mkdir(g_root, "p=2", 0755) && testutil_mkdir(g_root, "p=1-x", 0755) &&
           testutil_write_raw(g_root, "p=1/q=a/f1.parquet", "1") &&
           testutil_write_raw(g_root, "p=1/q=a/f2.parquet", "22") &&
           testutil_write_raw(g_root, "p=1/q=b/f3.parquet", "333") &&
           testutil_write_raw(g_root, "p=1/top.parquet", "4444") &&
           testutil_write_raw(g_root, "p=10/f4.parquet", "55555") &&
           testutil_write_raw(g_root, "p=1-x/f5.parquet", "6") &&
           testutil_write_raw(g_root, "p=2/.hidden.tmp", "7") &&
           testutil_write_raw(g_root, "p.parquet", "8") && testutil_write_raw(g_root, "p0", "9");
}

TEST(test_list_recursive_with_start_after_agrees_with_filtering) {
    dl_error err;
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    CHECK(make_tree());
    char link_path[TESTUTIL_PATH_CAP];
    (void)snprintf(link_path, sizeof(link_path), "%s/p=9", g_root);
    CHECK(symlink("p=1", link_path) == 0);
    dl_store_listing all;
    CHECK_OK(dl_store_list(g_store, "p", NULL, DL_STORE_LIST_RECURSIVE, &arena, &all, &err), &err);
    static const char *const want[] = {
        "p.parquet",
        "p0",
        "p=1",
        "p=1-x",
        "p=1-x/f5.parquet",
        "p=1/q=a",
        "p=1/q=a/f1.parquet",
        "p=1/q=a/f2.parquet",
        "p=1/q=b",
        "p=1/q=b/f3.parquet",
        "p=1/top.parquet",
        "p=10",
        "p=10/f4.parquet",
        "p=2",
        "p=2/.hidden.tmp",
        "p=9",
    };
    check_listing(&all, want, DL_ARRAY_LEN(want));
    if (harness_current_failed) {
        return;
    }
    CHECK(all.entries[15].is_dir); /* the link to a folder is listed, not followed */
    CHECK_INT_EQ(all.entries[8].size, 0);
    CHECK_INT_EQ(all.entries[9].size, 3);
    /* Every start_after, at and between listed paths, gives exactly the later paths. */
    static const char *const extra[] = {"",       "p",    "p=",       "p=1/", "p=1/q", "p=1/q=a/f1",
                                        "p=1/zz", "p=1.", "p=1/q=b/", "p=2/", "p=9/x", "q"};
    size_t n_probes = all.count + DL_ARRAY_LEN(extra);
    for (size_t i = 0; i < n_probes; i++) {
        const char *after = i < all.count ? all.entries[i].path.ptr : extra[i - all.count];
        dl_store_listing part;
        CHECK_OK(dl_store_list(g_store, "p", after, DL_STORE_LIST_RECURSIVE, &arena, &part, &err),
                 &err);
        size_t k = 0;
        for (size_t j = 0; j < all.count; j++) {
            if (strcmp(all.entries[j].path.ptr, after) > 0) {
                CHECK(k < part.count);
                CHECK_STR_EQ(part.entries[k].path.ptr, all.entries[j].path.ptr);
                k++;
            }
        }
        CHECK_INT_EQ(part.count, k);
    }
    /* Non-recursive listing of a partition folder. */
    dl_store_listing top;
    CHECK_OK(dl_store_list(g_store, "p=1/", NULL, 0, &arena, &top, &err), &err);
    static const char *const want_top[] = {"p=1/q=a", "p=1/q=b", "p=1/top.parquet"};
    check_listing(&top, want_top, DL_ARRAY_LEN(want_top));
    dl_arena_destroy(&arena);
}

TEST(test_list_scales_to_many_entries) {
    dl_error err;
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    const char *env = getenv("DL_STORE_LIST_N");
    int n = env != NULL ? atoi(env) : 20000;
    CHECK(testutil_mkdir(g_root, "_delta_log", 0755));
    char name[TESTUTIL_PATH_CAP];
    for (int v = n - 1; v >= 0; v--) {
        (void)snprintf(name, sizeof(name), "%s/_delta_log/%020d.json", g_root, v);
        int fd = open(name, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
        CHECK(fd >= 0);
        CHECK(close(fd) == 0);
    }
    struct timespec t0, t1, t2;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    dl_store_listing listing;
    CHECK_OK(dl_store_list(g_store, "_delta_log/", NULL, 0, &arena, &listing, &err), &err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    CHECK_INT_EQ(listing.count, n);
    for (size_t i = 1; i < listing.count; i++) {
        CHECK(dl_str_cmp(listing.entries[i - 1].path, listing.entries[i].path) < 0);
    }
    (void)snprintf(name, sizeof(name), "_delta_log/%020d.json", n - 11);
    CHECK_OK(dl_store_list(g_store, "_delta_log/", name, 0, &arena, &listing, &err), &err);
    clock_gettime(CLOCK_MONOTONIC, &t2);
    CHECK_INT_EQ(listing.count, 10);
    printf("  listed %d entries in %.1f ms; the last 10 after start_after in %.1f ms\n", n,
           (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6,
           (double)(t2.tv_sec - t1.tv_sec) * 1e3 + (double)(t2.tv_nsec - t1.tv_nsec) / 1e6);
    dl_arena_destroy(&arena);
}

/* ------------------------------------------------------------------------------------------ */
/* Paths, permissions, remove, mkdirs                                                          */

TEST(test_paths_escaping_the_root_are_refused) {
    dl_error err;
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_store_listing listing;
    static const char *const bad[] = {"../x", "a/../../x", "a/..",  "..", "/etc/passwd",
                                      "a//b", "./a",       "a/./b", "."};
    for (size_t i = 0; i < DL_ARRAY_LEN(bad); i++) {
        CHECK_STATUS(dl_store_write(g_store, bad[i], "x", 1, &err), DL_ERR_INVALID_ARG, &err);
        CHECK_ERR_CONTAINS(&err, bad[i]);
        CHECK_STATUS(dl_store_read_all(g_store, bad[i], &buf, &err), DL_ERR_INVALID_ARG, &err);
        CHECK_STATUS(dl_store_remove(g_store, bad[i], &err), DL_ERR_INVALID_ARG, &err);
        CHECK_STATUS(dl_store_list(g_store, bad[i], NULL, 0, &arena, &listing, &err),
                     DL_ERR_INVALID_ARG, &err);
        CHECK_STATUS(dl_store_mkdirs(g_store, bad[i], &err), DL_ERR_INVALID_ARG, &err);
    }
    CHECK_STATUS(dl_store_write(g_store, "/etc/passwd", "x", 1, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "is absolute");
    CHECK_STATUS(dl_store_write(g_store, "a/../../x", "x", 1, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "'.' or '..' component at byte 2");
    CHECK_STATUS(dl_store_write(g_store, "", "x", 1, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "empty");
    CHECK_STATUS(dl_store_write(g_store, "dir/", "x", 1, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "ends with '/'");
    CHECK_STATUS(dl_store_write(g_store, NULL, "x", 1, &err), DL_ERR_INVALID_ARG, &err);
    /* Names that merely contain dots are fine. */
    CHECK_OK(dl_store_write(g_store, "..a/b..", "x", 1, &err), &err);
    CHECK_OK(dl_store_write(g_store, ".hidden", "x", 1, &err), &err);
    CHECK_INT_EQ(testutil_count_tmp_files(g_root), 0);
    dl_buf_destroy(&buf);
    dl_arena_destroy(&arena);
}

/* Runs with the permissions of an unprivileged user (see the caller). */
static void
check_permission_denied(void) {
    dl_error err;
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_store_listing listing;
    CHECK_STATUS(dl_store_write(g_store, "ro/x.json", "x", 1, &err), DL_ERR_IO, &err);
    CHECK_INT_EQ(err.sys_errno, EACCES);
    CHECK_ERR_CONTAINS(&err, "ro/x.json");
    CHECK_ERR_CONTAINS(&err, "Permission denied");
    CHECK(strstr(err.hint, "permissions") != NULL);
    CHECK_STATUS(dl_store_put_if_absent(g_store, "ro/00.json", "x", 1, &err), DL_ERR_IO, &err);
    CHECK_INT_EQ(err.sys_errno, EACCES);
    CHECK_STATUS(dl_store_remove(g_store, "ro/keep", &err), DL_ERR_IO, &err);
    CHECK_INT_EQ(err.sys_errno, EACCES);
    CHECK_STATUS(dl_store_mkdirs(g_store, "ro/sub/deeper", &err), DL_ERR_IO, &err);
    CHECK_INT_EQ(err.sys_errno, EACCES);
    CHECK_STATUS(dl_store_list(g_store, "locked/", NULL, 0, &arena, &listing, &err), DL_ERR_IO,
                 &err);
    CHECK_INT_EQ(err.sys_errno, EACCES);
    CHECK_ERR_CONTAINS(&err, "locked");
    CHECK_INT_EQ(testutil_count_tmp_files(g_root), 0);
    dl_arena_destroy(&arena);
}

TEST(test_permission_denied_is_io_with_errno_path_and_hint) {
    CHECK(chmod(g_root, 0755) == 0);
    CHECK(testutil_mkdir(g_root, "ro", 0755));
    CHECK(testutil_write_raw(g_root, "ro/keep", "k"));
    CHECK(chmod(g_root, 0755) == 0);
    char ro[TESTUTIL_PATH_CAP];
    (void)snprintf(ro, sizeof(ro), "%s/ro", g_root);
    CHECK(chmod(ro, 0555) == 0);
    CHECK(testutil_mkdir(g_root, "locked", 0));
    if (geteuid() != 0) {
        check_permission_denied();
        return;
    }
    /* Root ignores permissions: run the checks in a child that has given root up. */
    (void)fflush(stdout);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        if (setgid(65534) != 0 || setuid(65534) != 0) {
            _exit(3);
        }
        check_permission_denied();
        (void)fflush(stdout);
        _exit(harness_current_failed ? 1 : 0);
    }
    int status = 0;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status));
    CHECK_INT_EQ(WEXITSTATUS(status), 0);
}

TEST(test_remove_files_and_empty_folders) {
    dl_error err;
    dl_store_info info;
    CHECK_OK(dl_store_write(g_store, "d/f.json", "x", 1, &err), &err);
    CHECK_STATUS(dl_store_remove(g_store, "d", &err), DL_ERR_IO, &err);
    CHECK_INT_EQ(err.sys_errno, ENOTEMPTY);
    CHECK_OK(dl_store_remove(g_store, "d/f.json", &err), &err);
    CHECK_STATUS(dl_store_stat(g_store, "d/f.json", &info, &err), DL_ERR_NOT_FOUND, &err);
    CHECK_STATUS(dl_store_remove(g_store, "d/f.json", &err), DL_ERR_NOT_FOUND, &err);
    CHECK_OK(dl_store_remove(g_store, "d", &err), &err);
    CHECK_STATUS(dl_store_stat(g_store, "d", &info, &err), DL_ERR_NOT_FOUND, &err);
}

TEST(test_mkdirs_creates_nested_accepts_existing_and_refuses_files) {
    dl_error err;
    dl_store_info info;
    CHECK_OK(dl_store_mkdirs(g_store, "a/b/c/", &err), &err);
    CHECK_OK(dl_store_stat(g_store, "a/b/c", &info, &err), &err);
    CHECK(info.is_dir);
    CHECK_OK(dl_store_mkdirs(g_store, "a/b", &err), &err);
    CHECK_OK(dl_store_mkdirs(g_store, "", &err), &err);
    CHECK_OK(dl_store_write(g_store, "a/file", "x", 1, &err), &err);
    CHECK_STATUS(dl_store_mkdirs(g_store, "a/file", &err), DL_ERR_IO, &err);
    CHECK_INT_EQ(err.sys_errno, ENOTDIR);
    CHECK_STATUS(dl_store_mkdirs(g_store, "a/file/sub", &err), DL_ERR_IO, &err);
    CHECK_INT_EQ(err.sys_errno, ENOTDIR);
    CHECK_ERR_CONTAINS(&err, "a/file/sub");
}

TEST(test_root_is_created_on_demand_and_relative_roots_resolve_at_open) {
    dl_error err;
    dl_store *store = NULL;
    char deep[TESTUTIL_PATH_CAP];
    (void)snprintf(deep, sizeof(deep), "%s/new/table///", g_root);
    CHECK_OK(dl_store_local_new(deep, NULL, &store, &err), &err);
    CHECK_OK(dl_store_put_if_absent(store, "_delta_log/00000000000000000000.json", "{}", 2, &err),
             &err);
    CHECK(strstr(store->location, "/new/table") != NULL);
    CHECK(store->location[strlen(store->location) - 1] != '/');
    dl_store_free(store);
    char cwd[TESTUTIL_PATH_CAP];
    CHECK(getcwd(cwd, sizeof(cwd)) != NULL);
    CHECK(chdir(g_root) == 0);
    dl_status s = dl_store_local_new("new", NULL, &store, &err);
    CHECK(chdir(cwd) == 0);
    CHECK_OK(s, &err);
    dl_store_info info;
    CHECK_OK(dl_store_stat(store, "table/_delta_log/00000000000000000000.json", &info, &err), &err);
    CHECK_INT_EQ(info.size, 2);
    dl_store_free(store);
    CHECK_STATUS(dl_store_local_new("", NULL, &store, &err), DL_ERR_INVALID_ARG, &err);
    CHECK(store == NULL);
    dl_store_local_options bad = {.put_method = (dl_store_local_put_method)7};
    CHECK_STATUS(dl_store_local_new("/tmp", &bad, &store, &err), DL_ERR_INVALID_ARG, &err);
}

TEST(test_out_of_memory_is_clean_everywhere) {
    dl_error err;
    CHECK(testutil_write_raw(g_root, "f", "0123456789"));
    for (int i = 0; i < 40; i++) {
        char name[32];
        (void)snprintf(name, sizeof(name), "n%02d", i);
        CHECK(testutil_write_raw(g_root, name, "x"));
    }
    bool is_done = false;
    for (int64_t fail_at = 1; !is_done && fail_at < 100; fail_at++) {
        dl_fault_allocator fa;
        dl_fault_allocator_init(&fa, fail_at, true);
        dl_store_local_options opts = {.alloc = &fa.base};
        dl_store *store = NULL;
        dl_status s = dl_store_local_new(g_root, &opts, &store, &err);
        dl_arena arena;
        dl_arena_init(&arena, &fa.base, 64);
        dl_buf buf;
        dl_buf_init(&buf, &fa.base);
        dl_store_listing listing = {0};
        if (s == DL_OK) {
            s = dl_store_read_all(store, "f", &buf, &err);
        }
        if (s == DL_OK) {
            s = dl_store_put_if_absent(store, "g", "x", 1, &err);
        }
        if (s == DL_OK) {
            s = dl_store_list(store, "", NULL, 0, &arena, &listing, &err);
        }
        CHECK(s == DL_OK || s == DL_ERR_NOMEM);
        if (s == DL_ERR_NOMEM) {
            CHECK(listing.count == 0 && listing.entries == NULL);
        } else {
            CHECK_INT_EQ(listing.count, 42);
            is_done = true;
        }
        dl_buf_destroy(&buf);
        dl_arena_destroy(&arena);
        dl_store_free(store);
        CHECK_INT_EQ(fa.live_blocks, 0);
        CHECK_INT_EQ(testutil_count_tmp_files(g_root), 0);
        dl_status ignored = dl_store_remove(g_store, "g", &err);
        DL_UNUSED(ignored);
    }
    CHECK(is_done);
}

/* Several threads share one store and race for the same names. */
#define THREADS       4
#define THREAD_ROUNDS 100
static atomic_int thread_wins[THREAD_ROUNDS];
static atomic_int thread_errors;

static void *
thread_main(void *arg) {
    int id = (int)(intptr_t)arg;
    for (int round = 0; round < THREAD_ROUNDS; round++) {
        char name[32];
        char content[32];
        (void)snprintf(name, sizeof(name), "t/%05d.json", round);
        int len = snprintf(content, sizeof(content), "thread %d\n", id);
        dl_error err;
        dl_status s = dl_store_put_if_absent(g_store, name, content, (size_t)len, &err);
        if (s == DL_OK) {
            atomic_fetch_add(&thread_wins[round], 1);
        } else if (s != DL_ERR_EXISTS) {
            atomic_fetch_add(&thread_errors, 1);
        }
    }
    return NULL;
}

TEST(test_threads_share_one_store_and_one_put_wins) {
    pthread_t threads[THREADS];
    for (int i = 0; i < THREADS; i++) {
        CHECK(pthread_create(&threads[i], NULL, thread_main, (void *)(intptr_t)i) == 0);
    }
    for (int i = 0; i < THREADS; i++) {
        CHECK(pthread_join(threads[i], NULL) == 0);
    }
    CHECK_INT_EQ(atomic_load(&thread_errors), 0);
    for (int round = 0; round < THREAD_ROUNDS; round++) {
        CHECK_INT_EQ(atomic_load(&thread_wins[round]), 1);
    }
    CHECK_INT_EQ(testutil_count_tmp_files(g_root), 0);
}

int
main(void) {
    RUN_IN_STORE(test_write_then_read_all_round_trips);
    RUN_IN_STORE(test_write_replaces_existing_file);
    RUN_IN_STORE(test_readonly_store_refuses_changes_and_reads);
    RUN_IN_STORE(test_failed_commit_removes_its_temporary_file);
    RUN_IN_STORE(test_write_creates_missing_parent_folders);
    RUN_IN_STORE(test_stat_reports_size_mtime_and_folders);
    RUN_IN_STORE(test_missing_file_is_not_found_everywhere);
    RUN_IN_STORE(test_read_at_middle_and_exactly_at_end);
    RUN_IN_STORE(test_read_past_end_is_corrupt_naming_file_offset_and_size);
    RUN_IN_STORE(test_read_at_buf_appends_and_keeps_buffer_on_failure);
    RUN_IN_STORE(test_file_handle_serves_many_reads_and_reports_size);
    RUN_IN_STORE(test_sparse_file_beyond_4gib_reads_at_64_bit_offsets);
    RUN_IN_STORE(test_writer_streams_chunks_and_publishes_only_on_commit);
    RUN_IN_STORE(test_writer_abort_leaves_nothing);
    RUN_IN_STORE(test_put_if_absent_returns_exists_and_keeps_old_contents);
    RUN_IN_STORE(test_put_if_absent_with_link_fallback_behaves_the_same);
    RUN_IN_STORE(test_list_delta_log_from_start_after_with_sizes_and_mtimes);
    RUN_IN_STORE(test_list_name_prefix_selects_versions);
    RUN_IN_STORE(test_list_sorts_byte_wise);
    RUN_IN_STORE(test_list_missing_folder_is_not_found_and_empty_folder_is_empty);
    RUN_IN_STORE(test_list_with_a_prefix_longer_than_a_path_is_refused);
    RUN_IN_STORE(test_list_recursive_with_start_after_agrees_with_filtering);
    RUN_IN_STORE(test_list_scales_to_many_entries);
    RUN_IN_STORE(test_paths_escaping_the_root_are_refused);
    RUN_IN_STORE(test_permission_denied_is_io_with_errno_path_and_hint);
    RUN_IN_STORE(test_remove_files_and_empty_folders);
    RUN_IN_STORE(test_mkdirs_creates_nested_accepts_existing_and_refuses_files);
    RUN_IN_STORE(test_root_is_created_on_demand_and_relative_roots_resolve_at_open);
    RUN_IN_STORE(test_out_of_memory_is_clean_everywhere);
    RUN_IN_STORE(test_threads_share_one_store_and_one_put_wins);
    return harness_finish();
}
