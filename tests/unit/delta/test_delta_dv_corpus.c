/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every deletion vector in the shared corpus (tables other engines wrote): each `add` and
 * `remove` action with a deletionVector in any `_delta_log/<version>.json` of any table under
 * ../shared/corpus is loaded through its descriptor, which checks the file framing, the
 * CRC-32 and that the cardinality equals the descriptor's. For `add`s the rows must also lie
 * below the file's numRecords when the stats give it. `remove`s may name DV files that were
 * vacuumed since: those may be missing, nothing else. Each DV read from a file is serialized
 * again as deltalite's writer does it (optimized, portable layout) and must come out byte for
 * byte as the other engine wrote it.
 *
 * Descriptors are read with the json part's reader. Checkpoints (Parquet) are not searched:
 * their DVs appear in the JSON commits too.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "base/hmap.h"
#include "delta/delta_dv.h"
#include "harness.h"
#include "json/json.h"

#ifndef DL_CORPUS_DIR
#    define DL_CORPUS_DIR "../shared/corpus"
#endif

typedef struct tally {
    int64_t n_actions;     /* add/remove actions with a DV */
    int64_t n_unique;      /* distinct (table, DV id) loaded */
    int64_t n_inline;      /* of which inline */
    int64_t n_rows;        /* deleted rows over the distinct DVs */
    int64_t n_missing;     /* remove DVs whose file is gone */
    int64_t n_spark_test;  /* DVs in files under Spark's test-only name (read by absolute path) */
    int64_t n_failed;      /* DVs that should have loaded and did not */
    int64_t n_logs;        /* commit files read */
    int64_t n_same_bytes;  /* file DVs our serialization reproduces byte for byte */
    int64_t n_other_bytes; /* file DVs it encodes otherwise (still the same rows) */
    dl_hmap seen;          /* "<table>\n<id>" -> 1 */
    dl_arena keys;         /* the keys of seen */
} tally;

/* True for "<...>/_delta_log/<digits>.json". */
static bool
is_commit_file(dl_str path, size_t *out_root_len) {
    const char *marker = "/_delta_log/";
    const char *p = NULL;
    for (const char *q = path.ptr; (q = strstr(q, marker)) != NULL; q++) {
        p = q;
    }
    if (p == NULL) {
        return false;
    }
    const char *name = p + strlen(marker);
    size_t digits = strspn(name, "0123456789");
    if (digits == 0 || strcmp(name + digits, ".json") != 0) {
        return false;
    }
    *out_root_len = (size_t)(p - path.ptr);
    return true;
}

static dl_status
read_desc(dl_json_val v, dl_delta_dv_desc *d, dl_error *err) {
    memset(d, 0, sizeof(*d));
    dl_str type;
    int64_t i64;
    DL_TRY_CTX(dl_json_val_get_str(dl_json_obj_get(v, "storageType"), &type, err), err,
               "storageType");
    d->storage_type = '?';
    if (type.len == 1) {
        d->storage_type = type.ptr[0];
    }
    DL_TRY_CTX(
        dl_json_val_get_str(dl_json_obj_get(v, "pathOrInlineDv"), &d->path_or_inline_dv, err), err,
        "pathOrInlineDv");
    dl_json_val off = dl_json_obj_get(v, "offset");
    if (!dl_json_val_is_missing(off) && !dl_json_val_is_null(off)) {
        DL_TRY_CTX(dl_json_val_get_int64(off, &i64, err), err, "offset");
        d->offset = (int32_t)i64;
        d->has_offset = true;
    }
    DL_TRY_CTX(dl_json_val_get_int64(dl_json_obj_get(v, "sizeInBytes"), &i64, err), err,
               "sizeInBytes");
    d->size_in_bytes = (int32_t)i64;
    DL_TRY_CTX(dl_json_val_get_int64(dl_json_obj_get(v, "cardinality"), &d->cardinality, err), err,
               "cardinality");
    dl_json_val max = dl_json_obj_get(v, "maxRowIndex");
    if (!dl_json_val_is_missing(max) && !dl_json_val_is_null(max)) {
        DL_TRY_CTX(dl_json_val_get_int64(max, &d->max_row_index, err), err, "maxRowIndex");
        d->has_max_row_index = true;
    }
    return DL_OK;
}

/* numRecords from an add's stats string, or -1. */
static int64_t
num_records(dl_json_val action) {
    dl_str stats = dl_json_val_str(dl_json_obj_get(action, "stats"));
    if (stats.len == 0) {
        return -1;
    }
    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    int64_t n = -1;
    if (dl_json_doc_parse(&doc, stats.ptr, stats.len, NULL) != DL_OK ||
        dl_json_val_get_int64(dl_json_obj_get(dl_json_doc_root(&doc), "numRecords"), &n, NULL) !=
            DL_OK) {
        n = -1;
    }
    dl_json_doc_destroy(&doc);
    return n;
}

/*
 * Spark's own tests name DV files "test%dv%prefix-deletion_vector_<uuid>.bin" (the test-only
 * setting DeltaSQLConf.TEST_DV_NAME_PREFIX), and some corpus tables come from those tests.
 * When such a file stands where d's file should, writes its file: URI (the '%'s escaped) to
 * uri and returns true.
 */
static bool
spark_test_name(dl_store *store, const char *table, const dl_delta_dv_desc *d, char *uri,
                size_t cap) {
    dl_buf path;
    dl_buf_init(&path, NULL);
    bool is_absolute;
    bool is_found = false;
    if (d->storage_type == 'u' &&
        dl_delta_dv_desc_locate(d, store, table, &path, &is_absolute, NULL) == DL_OK) {
        const char *rel = dl_buf_cstr(&path);
        const char *name = strrchr(rel, '/');
        size_t dir_len = name == NULL ? 0 : (size_t)(name - rel) + 1;
        name = name == NULL ? rel : name + 1;
        char test_rel[4096];
        dl_store_info info;
        int n = snprintf(test_rel, sizeof(test_rel), "%.*stest%%dv%%prefix-%s", (int)dir_len, rel,
                         name);
        int m = snprintf(uri, cap, "file://%s/%.*stest%%25dv%%25prefix-%s", store->location,
                         (int)dir_len, rel, name);
        is_found = n > 0 && (size_t)n < sizeof(test_rel) && m > 0 && (size_t)m < cap &&
                   dl_store_stat(store, test_rel, &info, NULL) == DL_OK;
    }
    dl_buf_destroy(&path);
    return is_found;
}

/*
 * Whether our writer reproduces the bitmap bytes of a DV another engine wrote to a file: the
 * set serialized (after dl_delta_dv_optimize, as the writer does) compared with the bytes at
 * its offset. Returns 1 for the same bytes, 0 for another encoding, -1 when not a file DV.
 */
static int
same_bytes(dl_store *store, const char *table, const dl_delta_dv_desc *d, const dl_delta_dv *dv) {
    dl_buf path;
    dl_buf file;
    dl_buf mine;
    dl_buf_init(&path, NULL);
    dl_buf_init(&file, NULL);
    dl_buf_init(&mine, NULL);
    bool is_absolute = false;
    int result = -1;
    dl_delta_dv *copy = NULL;
    if (d->storage_type != 'i' &&
        dl_delta_dv_desc_locate(d, store, table, &path, &is_absolute, NULL) == DL_OK &&
        !is_absolute && dl_store_read_all(store, dl_buf_cstr(&path), &file, NULL) == DL_OK &&
        dl_delta_dv_new(NULL, &copy, NULL) == DL_OK && dl_delta_dv_union(copy, dv, NULL) == DL_OK) {
        dl_delta_dv_optimize(copy);
        size_t at = (size_t)(d->has_offset ? d->offset : 0) + 4;
        result = dl_delta_dv_serialize(copy, &mine, NULL) == DL_OK && at <= file.len &&
                 mine.len == (size_t)d->size_in_bytes && file.len - at >= mine.len &&
                 memcmp(file.data + at, mine.data, mine.len) == 0;
    }
    dl_delta_dv_free(copy);
    dl_buf_destroy(&mine);
    dl_buf_destroy(&file);
    dl_buf_destroy(&path);
    return result;
}

/* Loads one DV found in table's log; records the outcome. */
static void
check_dv(tally *t, dl_store *store, const char *table, const char *log, dl_json_val action,
         bool is_add) {
    dl_error err;
    dl_delta_dv_desc d;
    t->n_actions++;
    if (read_desc(dl_json_obj_get(action, "deletionVector"), &d, &err) != DL_OK) {
        printf("  %s: bad descriptor: %s\n", log, err.msg);
        t->n_failed++;
        return;
    }
    dl_buf key;
    dl_buf_init(&key, NULL);
    bool is_new = false;
    uint64_t *slot;
    if (dl_buf_appendf(&key, &err, "%s\n", table) == DL_OK &&
        dl_delta_dv_desc_append_id(&d, &key, &err) == DL_OK) {
        char *kept = dl_arena_memdup(&t->keys, key.data, key.len);
        if (kept != NULL &&
            dl_hmap_upsert(&t->seen, dl_str_make(kept, key.len), &slot, &is_new, &err) != DL_OK) {
            is_new = true;
        }
    }
    dl_buf_destroy(&key);
    dl_delta_dv *dv = NULL;
    dl_status st = dl_delta_dv_load(store, table, &d, NULL, &dv, &err);
    char uri[4096];
    dl_delta_dv_desc spark_test_desc;
    if (st == DL_ERR_NOT_FOUND && spark_test_name(store, table, &d, uri, sizeof(uri))) {
        /* Written by Spark's test suites under a test-only file name: not readable by the
         * protocol's rules, so read it through an absolute path to check its content. */
        spark_test_desc = d;
        spark_test_desc.storage_type = 'p';
        spark_test_desc.path_or_inline_dv = dl_str_from_cstr(uri);
        st = dl_delta_dv_load(store, table, &spark_test_desc, NULL, &dv, &err);
        t->n_spark_test += is_new ? 1 : 0;
    }
    if (st == DL_ERR_NOT_FOUND && !is_add) {
        t->n_missing += is_new ? 1 : 0;
        return;
    }
    if (st != DL_OK) {
        printf("  %s: %s DV: %s %s\n", log, is_add ? "add" : "remove", dl_status_name(st), err.msg);
        t->n_failed++;
        return;
    }
    int64_t n = is_add ? num_records(action) : -1;
    if (n >= 0 && dl_delta_dv_max_row(dv) >= n) {
        printf("  %s: DV deletes row %" PRId64 " of a file with %" PRId64 " rows\n", log,
               dl_delta_dv_max_row(dv), n);
        t->n_failed++;
    }
    if (is_new) {
        t->n_unique++;
        t->n_inline += d.storage_type == 'i';
        t->n_rows += dl_delta_dv_cardinality(dv);
        int same = same_bytes(store, table, &d, dv);
        t->n_same_bytes += same == 1;
        t->n_other_bytes += same == 0;
        /* kernel-rs/with-short-dv was written by hand: rows 0-2 as an array container, where
         * Spark and we write a run; every DV an engine wrote must come out the same. */
        if (same == 0 && strcmp(table, "kernel-rs/with-short-dv") != 0) {
            printf("  %s: DV of %" PRId64 " rows encoded otherwise\n", log, d.cardinality);
            t->n_failed++;
        }
    }
    dl_delta_dv_free(dv);
}

/* A cheap filter before parsing: does the line contain "deletionVector"? */
static bool
mentions_dv(dl_str line) {
    static const char needle[] = "deletionVector";
    size_t n = sizeof(needle) - 1;
    for (size_t i = 0; i + n <= line.len; i++) {
        if (line.ptr[i] == 'd' && memcmp(line.ptr + i, needle, n) == 0) {
            return true;
        }
    }
    return false;
}

static void
scan_log(tally *t, dl_store *store, const char *table, const char *log) {
    dl_error err;
    dl_buf text;
    dl_buf_init(&text, NULL);
    if (dl_store_read_all(store, log, &text, &err) != DL_OK) {
        printf("  %s: %s\n", log, err.msg);
        t->n_failed++;
        dl_buf_destroy(&text);
        return;
    }
    t->n_logs++;
    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    dl_json_lines lines;
    dl_json_lines_init(&lines, (const char *)text.data, text.len);
    dl_str line;
    while (dl_json_lines_next(&lines, &line)) {
        if (line.len == 0 || !mentions_dv(line) ||
            dl_json_doc_parse(&doc, line.ptr, line.len, NULL) != DL_OK) {
            continue;
        }
        dl_json_val root = dl_json_doc_root(&doc);
        static const char *const kinds[] = {"add", "remove"};
        for (int k = 0; k < 2; k++) {
            dl_json_val action = dl_json_obj_get(root, kinds[k]);
            dl_json_val dv = dl_json_obj_get(action, "deletionVector");
            if (dl_json_val_type(dv) == DL_JSON_OBJECT) {
                check_dv(t, store, table, log, action, k == 0);
            }
        }
    }
    dl_json_doc_destroy(&doc);
    dl_buf_destroy(&text);
}

TEST(test_every_corpus_deletion_vector_loads_with_its_cardinality) {
    dl_error err;
    dl_store *store;
    CHECK_OK(dl_store_local_new(DL_CORPUS_DIR, NULL, &store, &err), &err);
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_store_listing listing;
    dl_status st = dl_store_list(store, "", NULL, DL_STORE_LIST_RECURSIVE, &arena, &listing, &err);
    if (st == DL_ERR_NOT_FOUND) {
        printf("  skipped: no corpus at %s\n", DL_CORPUS_DIR);
        dl_arena_destroy(&arena);
        dl_store_free(store);
        return;
    }
    CHECK_OK(st, &err);
    tally t;
    memset(&t, 0, sizeof(t));
    dl_hmap_init(&t.seen, NULL);
    dl_arena_init(&t.keys, NULL, 0);
    char table[4096];
    for (size_t i = 0; i < listing.count; i++) {
        size_t root_len;
        const dl_store_entry *e = &listing.entries[i];
        if (e->is_dir || !is_commit_file(e->path, &root_len) || root_len >= sizeof(table)) {
            continue;
        }
        memcpy(table, e->path.ptr, root_len);
        table[root_len] = '\0';
        scan_log(&t, store, table, e->path.ptr);
    }
    printf("  corpus DVs: %" PRId64 " commit files; %" PRId64 " add/remove actions with a DV; "
           "%" PRId64 " distinct DVs loaded and checked (%" PRId64 " inline, %" PRId64
           " from files), %" PRId64 " deleted rows; %" PRId64 " removed DVs whose file is gone; "
           "%" PRId64 " of the DVs are in files under Spark's test-only name 'test%%dv%%prefix-' "
           "(which the protocol's rules do not find; checked by absolute path); %" PRId64
           " failed; our writer reproduces %" PRId64 " file DVs byte for byte, %" PRId64
           " otherwise\n",
           t.n_logs, t.n_actions, t.n_unique, t.n_inline, t.n_unique - t.n_inline, t.n_rows,
           t.n_missing, t.n_spark_test, t.n_failed, t.n_same_bytes, t.n_other_bytes);
    dl_hmap_destroy(&t.seen);
    dl_arena_destroy(&t.keys);
    dl_arena_destroy(&arena);
    dl_store_free(store);
    CHECK_INT_EQ(t.n_failed, 0);
    CHECK(t.n_unique > 0);
    CHECK(t.n_same_bytes > 0);
}

/* Loads d for the table and checks that it holds exactly rows[0, n). */
static bool
dv_holds(dl_store *store, const char *table, const dl_delta_dv_desc *d, const int64_t *rows,
         size_t n) {
    dl_error err;
    dl_delta_dv *dv;
    if (dl_delta_dv_load(store, table, d, NULL, &dv, &err) != DL_OK) {
        printf("  %s: %s\n", table, err.msg);
        return false;
    }
    int64_t got[16] = {0};
    bool is_same = dl_delta_dv_cardinality(dv) == (int64_t)n && n <= 16;
    if (is_same) {
        dl_delta_dv_to_array(dv, got);
        is_same = memcmp(got, rows, n * sizeof(int64_t)) == 0;
    }
    dl_delta_dv_free(dv);
    return is_same;
}

TEST(test_corpus_deletion_vectors_hold_the_rows_other_readers_find) {
    dl_error err;
    dl_store *store;
    CHECK_OK(dl_store_local_new(DL_CORPUS_DIR, NULL, &store, &err), &err);
    dl_store_info info;
    if (dl_store_stat(store, "kernel-rs/cdf-table-with-dv", &info, NULL) != DL_OK) {
        printf("  skipped: no corpus at %s\n", DL_CORPUS_DIR);
        dl_store_free(store);
        return;
    }
    /* delta-kernel-rs test_deletion_vector_read: rows 0 and 9. */
    dl_delta_dv_desc file_dv = {.storage_type = 'u',
                                .path_or_inline_dv = DL_STR("vBn[lx{q8@P<9BNH/isA"),
                                .offset = 1,
                                .has_offset = true,
                                .size_in_bytes = 36,
                                .cardinality = 2};
    static const int64_t rows_0_9[] = {0, 9};
    bool is_ok_file = dv_holds(store, "kernel-rs/table-with-dv-small", &file_dv, rows_0_9, 2);
    /* delta-kernel-rs cdf_with_deletion_vector: the file holds values 0..9 in order, and the
     * change feed says v3 deletes 0, 1, 4, 5; v4 brings back 1 and 4; v5 swaps 0, 5 for 3. */
    dl_delta_dv_desc v3 = {.storage_type = 'i',
                           .path_or_inline_dv =
                               DL_STR("^Bg9^0rr910000000000iXQKl0rr91000935c8Xg000311onP9"),
                           .size_in_bytes = 40,
                           .cardinality = 4};
    dl_delta_dv_desc v4 = {.storage_type = 'i',
                           .path_or_inline_dv =
                               DL_STR("^Bg9^0rr910000000000iXQKl0rr91000315c8Xg000f5"),
                           .size_in_bytes = 36,
                           .cardinality = 2};
    dl_delta_dv_desc v5 = {.storage_type = 'i',
                           .path_or_inline_dv =
                               DL_STR("^Bg9^0rr910000000000iXQKl0rr91000005c8Xg##093"),
                           .size_in_bytes = 34,
                           .cardinality = 1};
    static const int64_t rows_v3[] = {0, 1, 4, 5};
    static const int64_t rows_v4[] = {0, 5};
    static const int64_t rows_v5[] = {3};
    bool is_ok_v3 = dv_holds(store, "", &v3, rows_v3, 4);
    bool is_ok_v4 = dv_holds(store, "", &v4, rows_v4, 2);
    bool is_ok_v5 = dv_holds(store, "", &v5, rows_v5, 1);
    dl_store_free(store);
    CHECK(is_ok_file);
    CHECK(is_ok_v3);
    CHECK(is_ok_v4);
    CHECK(is_ok_v5);
}

int
main(void) {
    RUN(test_every_corpus_deletion_vector_loads_with_its_cardinality);
    RUN(test_corpus_deletion_vectors_hold_the_rows_other_readers_find);
    return harness_finish();
}
