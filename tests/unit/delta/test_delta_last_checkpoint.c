/* SPDX-License-Identifier: Apache-2.0 */
/*
 * _last_checkpoint's checksum (MD5 of the canonical JSON), and what loading a snapshot reads:
 * through a store wrapper that records every file opened and every listing, a test checks that
 * the latest version costs the hinted checkpoint plus the commits after it, that time travel
 * to an old version costs the checkpoint below it plus the commits up to it, and that a hint
 * whose checksum does not match is ignored in favour of a full listing.
 */
#include <stdio.h>
#include <string.h>

#include "delta/delta_int.h"
#include "delta/delta_txn.h"
#include "harness.h"
#include "test_delta_log_util.h"

/* ---- a store that records what is read ---------------------------------------------- */

#define MAX_OPENED 64

typedef struct count_store {
    dl_store base;
    dl_store *inner;
    int n_lists;      /* listings of _delta_log/ */
    int n_full_lists; /* ... of them without start_after */
    int n_opened;
    char opened[MAX_OPENED][96]; /* file names opened (after the last '/') */
} count_store;

static void
count_release(dl_store *store) {
    (void)store; /* caller storage */
}

static dl_status
count_stat(dl_store *store, const char *path, dl_store_info *out, dl_error *err) {
    return dl_store_stat(((count_store *)store)->inner, path, out, err);
}

static dl_status
count_list(dl_store *store, const char *prefix, const char *start_after, unsigned flags,
           dl_arena *arena, dl_store_listing *out, dl_error *err) {
    count_store *cs = (count_store *)store;
    cs->n_lists++;
    cs->n_full_lists += start_after == NULL;
    return dl_store_list(cs->inner, prefix, start_after, flags, arena, out, err);
}

static dl_status
count_open(dl_store *store, const char *path, dl_store_file **out, dl_error *err) {
    count_store *cs = (count_store *)store;
    const char *slash = strrchr(path, '/');
    if (cs->n_opened < MAX_OPENED) {
        (void)snprintf(cs->opened[cs->n_opened], sizeof(cs->opened[0]), "%s",
                       slash ? slash + 1 : path);
    }
    cs->n_opened++;
    return dl_store_file_open(cs->inner, path, out, err);
}

static const dl_store_vtable count_vtable = {
    .kind = "count",
    .release = count_release,
    .stat = count_stat,
    .list = count_list,
    .file_open = count_open,
};

static void
count_init(count_store *cs, dl_store *inner) {
    memset(cs, 0, sizeof(*cs));
    cs->base = (dl_store){.vt = &count_vtable, .alloc = inner->alloc, .location = inner->location};
    cs->inner = inner;
}

static bool
was_opened(const count_store *cs, const char *name) {
    for (int i = 0; i < cs->n_opened && i < MAX_OPENED; i++) {
        if (strcmp(cs->opened[i], name) == 0) {
            return true;
        }
    }
    return false;
}

/* ---- checksum ------------------------------------------------------------------------ */

TEST(test_md5_matches_rfc1321_vectors) {
    static const char *const cases[][2] = {
        {"", "d41d8cd98f00b204e9800998ecf8427e"},
        {"a", "0cc175b9c0f1b6a831c399e269772661"},
        {"abc", "900150983cd24fb0d6963f7d28e17f72"},
        {"message digest", "f96b697d7cb7938d525a2f31aaf161d0"},
        {"abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"},
        {"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
         "d174ab98d277d9f5a5611c2c9f419d9f"},
        {"12345678901234567890123456789012345678901234567890123456789012345678901234567890",
         "57edf4a22be3c955ac49da2e2107b67a"}};
    for (size_t i = 0; i < DL_ARRAY_LEN(cases); i++) {
        char out[33];
        dl_delta_md5_hex(cases[i][0], strlen(cases[i][0]), out);
        CHECK_STR_EQ(out, cases[i][1]);
    }
}

/* PROTOCOL.md's own example of the canonical form and its checksum. */
TEST(test_canonical_form_matches_protocol_example) {
    static const char json[] =
        "{\"k0\":\"'v 0'\", \"checksum\": \"adsaskfljadfkjadfkj\", \"k1\":{\"k2\": 2, \"k3\": "
        "[\"v3\", [1, 2], {\"k4\": \"v4\", \"k5\": [\"v5\", \"v6\", \"v7\"]}]}}";
    dl_error err;
    dl_error_clear(&err);
    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    dl_buf out;
    dl_buf_init(&out, NULL);
    CHECK_OK(dl_json_doc_parse(&doc, json, sizeof(json) - 1, &err), &err);
    dl_status st = dl_delta_json_canonical(dl_json_doc_root(&doc), NULL, &out, &err);
    bool is_same =
        st == DL_OK &&
        strcmp(dl_buf_cstr(&out),
               "\"k0\"=\"%27v%200%27\",\"k1\"+\"k2\"=2,\"k1\"+\"k3\"+0=\"v3\",\"k1\"+\"k3\"+1+0=1,"
               "\"k1\"+\"k3\"+1+1=2,\"k1\"+\"k3\"+2+\"k4\"=\"v4\",\"k1\"+\"k3\"+2+\"k5\"+0=\"v5\","
               "\"k1\"+\"k3\"+2+\"k5\"+1=\"v6\",\"k1\"+\"k3\"+2+\"k5\"+2=\"v7\"") == 0;
    if (!is_same) {
        HARNESS_FAIL_AT("canonical form: %s (%s)", dl_buf_cstr(&out), err.msg);
    }
    dl_buf_destroy(&out);
    dl_json_doc_destroy(&doc);
    char sum[33];
    CHECK_OK(dl_delta_json_checksum(json, sizeof(json) - 1, NULL, sum, &err), &err);
    CHECK_STR_EQ(sum, "6a92d155a59bf2eecbd4b4ec7fd1f875");
}

TEST(test_canonical_form_sorts_keys_and_encodes_bytes) {
    static const char json[] = "{\"b\":{\"y\":null,\"x\":\"https://delta.io\"},\"a\":10,"
                               "\"e\":{},\"c\":[],\"d\":true,\"k ~\":\"\\u00e9\"}";
    dl_error err;
    dl_error_clear(&err);
    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    dl_buf out;
    dl_buf_init(&out, NULL);
    CHECK_OK(dl_json_doc_parse(&doc, json, sizeof(json) - 1, &err), &err);
    dl_status st = dl_delta_json_canonical(dl_json_doc_root(&doc), NULL, &out, &err);
    bool is_same = st == DL_OK && strcmp(dl_buf_cstr(&out),
                                         "\"a\"=10,\"b\"+\"x\"=\"https%3A%2F%2Fdelta.io\","
                                         "\"b\"+\"y\"=null,\"d\"=true,\"k%20~\"=\"%C3%A9\"") == 0;
    if (!is_same) {
        HARNESS_FAIL_AT("canonical form: %s (%s)", dl_buf_cstr(&out), err.msg);
    }
    dl_buf_destroy(&out);
    dl_json_doc_destroy(&doc);
}

TEST(test_duplicate_key_is_corrupt) {
    static const char json[] = "{\"version\":1,\"size\":{\"a\":1,\"a\":2}}";
    dl_error err;
    dl_error_clear(&err);
    char sum[33];
    CHECK_STATUS(dl_delta_json_checksum(json, sizeof(json) - 1, NULL, sum, &err), DL_ERR_CORRUPT,
                 &err);
    CHECK_ERR_CONTAINS(&err, "key \"a\" appears twice");
}

/* ---- tables ------------------------------------------------------------------------- */

/* Commits 0..last, one add each, and checkpoints at the versions listed (ending with -1). */
static bool
make_table(tl_table *t, int64_t last, const int64_t *checkpoints, dl_error *err) {
    if (!tl_table_new(t)) {
        return false;
    }
    char text[512];
    for (int64_t v = 0; v <= last; v++) {
        (void)snprintf(text, sizeof(text),
                       "%s{\"add\":{\"path\":\"f%lld.parquet\",\"partitionValues\":{},\"size\":10,"
                       "\"modificationTime\":1,\"dataChange\":true}}\n",
                       v == 0 ? TL_PROTOCOL_1_2 "\n" TL_METADATA_ID_LONG "\n" : "", (long long)v);
        if (!tl_commit(t, v, text)) {
            return false;
        }
    }
    if (!tl_open(t)) {
        return false;
    }
    for (const int64_t *cp = checkpoints; *cp >= 0; cp++) {
        if (dl_delta_checkpoint_version(t->table, *cp, 0, NULL, err) != DL_OK) {
            return false;
        }
    }
    return true;
}

/* The text of _delta_log/_last_checkpoint into out (NUL-terminated). */
static bool
read_hint(tl_table *t, dl_buf *out, dl_error *err) {
    return dl_store_read_all(t->store, "_delta_log/_last_checkpoint", out, err) == DL_OK &&
           dl_buf_append_byte(out, '\0', err) == DL_OK;
}

TEST(test_written_last_checkpoint_carries_its_checksum) {
    static const int64_t cps[] = {3, -1};
    tl_table t;
    dl_error err;
    dl_error_clear(&err);
    dl_buf hint;
    dl_buf_init(&hint, NULL);
    bool ok = make_table(&t, 4, cps, &err) && read_hint(&t, &hint, &err);
    if (!ok) {
        HARNESS_FAIL_AT("setup: %s", err.msg);
    } else {
        dl_json_doc doc;
        dl_json_doc_init(&doc, NULL);
        char sum[33] = "";
        dl_str written = dl_str_make(NULL, 0);
        if (dl_json_doc_parse(&doc, (const char *)hint.data, hint.len - 1, &err) == DL_OK) {
            written = dl_json_val_str(dl_json_obj_get(dl_json_doc_root(&doc), "checksum"));
        }
        ok = dl_delta_json_checksum((const char *)hint.data, hint.len - 1, NULL, sum, &err) ==
                 DL_OK &&
             written.len == 32 && memcmp(written.ptr, sum, 32) == 0;
        if (!ok) {
            HARNESS_FAIL_AT("checksum of %s is not %s", (const char *)hint.data, sum);
        }
        dl_json_doc_destroy(&doc);
        int64_t v = -2;
        if (dl_delta_last_checkpoint_version(t.table, &v, &err) != DL_OK || v != 3) {
            HARNESS_FAIL_AT("hint read back as %lld", (long long)v);
        }
    }
    dl_buf_destroy(&hint);
    tl_table_free(&t);
}

/* Opens the latest snapshot (version < 0) or version through a counting store. */
static bool
load_counted(tl_table *t, int64_t version, count_store *cs, int64_t *out_cp, dl_error *err) {
    count_init(cs, t->store);
    dl_delta_table *table = NULL;
    dl_delta_snapshot *snap = NULL;
    bool ok =
        dl_delta_table_open(&cs->base, "", NULL, &table, err) == DL_OK &&
        (version < 0 ? dl_delta_snapshot_latest(table, NULL, &snap, err)
                     : dl_delta_snapshot_at_version(table, version, NULL, &snap, err)) == DL_OK;
    *out_cp = ok ? dl_delta_snapshot_checkpoint_version(snap) : -2;
    dl_delta_snapshot_unref(snap);
    dl_delta_table_free(table);
    return ok;
}

TEST(test_latest_reads_hinted_checkpoint_and_later_commits_only) {
    static const int64_t cps[] = {10, 20, -1};
    tl_table t;
    dl_error err;
    dl_error_clear(&err);
    count_store cs;
    int64_t cp = -1;
    bool ok = make_table(&t, 25, cps, &err) && load_counted(&t, -1, &cs, &cp, &err);
    if (!ok) {
        HARNESS_FAIL_AT("setup: %s", err.msg);
        tl_table_free(&t);
        return;
    }
    tl_table_free(&t);
    CHECK_INT_EQ(cp, 20);
    CHECK_INT_EQ(cs.n_lists, 1);
    CHECK_INT_EQ(cs.n_full_lists, 0); /* listed from the hint */
    /* _last_checkpoint, the checkpoint, commits 21..25 */
    CHECK_INT_EQ(cs.n_opened, 7);
    CHECK(was_opened(&cs, "_last_checkpoint"));
    CHECK(was_opened(&cs, "00000000000000000020.checkpoint.parquet"));
    CHECK(was_opened(&cs, "00000000000000000021.json"));
    CHECK(was_opened(&cs, "00000000000000000025.json"));
}

TEST(test_time_travel_reads_one_checkpoint_and_the_commits_after_it) {
    static const int64_t cps[] = {10, 20, -1};
    tl_table t;
    dl_error err;
    dl_error_clear(&err);
    count_store cs;
    int64_t cp = -1;
    bool ok = make_table(&t, 25, cps, &err) && load_counted(&t, 15, &cs, &cp, &err);
    if (!ok) {
        HARNESS_FAIL_AT("setup: %s", err.msg);
        tl_table_free(&t);
        return;
    }
    tl_table_free(&t);
    CHECK_INT_EQ(cp, 10);
    CHECK_INT_EQ(cs.n_lists, 1);
    /* _last_checkpoint (it points past version 15), checkpoint 10, commits 11..15 */
    CHECK_INT_EQ(cs.n_opened, 7);
    CHECK(was_opened(&cs, "00000000000000000010.checkpoint.parquet"));
    CHECK(!was_opened(&cs, "00000000000000000020.checkpoint.parquet"));
    CHECK(was_opened(&cs, "00000000000000000011.json"));
    CHECK(was_opened(&cs, "00000000000000000015.json"));
    CHECK(!was_opened(&cs, "00000000000000000010.json"));
    CHECK(!was_opened(&cs, "00000000000000000016.json"));
}

/* Replaces _last_checkpoint's checksum value by sum (same length). */
static bool
corrupt_checksum(tl_table *t, const char *sum, dl_error *err) {
    dl_buf hint;
    dl_buf_init(&hint, NULL);
    bool ok = read_hint(t, &hint, err);
    char *at = ok ? strstr((char *)hint.data, "\"checksum\":\"") : NULL;
    if (at) {
        for (size_t i = 0; sum[i] != '\0'; i++) {
            at[12 + i] = sum[i];
        }
        ok = tl_write(t, "_last_checkpoint", (const char *)hint.data);
    }
    dl_buf_destroy(&hint);
    return ok && at != NULL;
}

TEST(test_hint_with_wrong_checksum_is_ignored_for_a_full_listing) {
    static const int64_t cps[] = {10, -1};
    tl_table t;
    dl_error err;
    dl_error_clear(&err);
    count_store cs;
    int64_t cp = -1;
    bool ok = make_table(&t, 12, cps, &err) &&
              corrupt_checksum(&t, "00000000000000000000000000000000", &err) &&
              load_counted(&t, -1, &cs, &cp, &err);
    int64_t hint = -2;
    if (ok) {
        ok = dl_delta_last_checkpoint_version(t.table, &hint, &err) == DL_OK;
    }
    tl_table_free(&t);
    if (!ok) {
        HARNESS_FAIL_AT("setup: %s", err.msg);
        return;
    }
    CHECK_INT_EQ(hint, -1);
    CHECK_INT_EQ(cp, 10); /* the listing still finds the checkpoint */
    CHECK_INT_EQ(cs.n_full_lists, 1);
}

TEST(test_hint_checksum_compares_without_case) {
    static const int64_t cps[] = {2, -1};
    tl_table t;
    dl_error err;
    dl_error_clear(&err);
    dl_buf hint;
    dl_buf_init(&hint, NULL);
    bool ok = make_table(&t, 3, cps, &err) && read_hint(&t, &hint, &err);
    char *at = ok ? strstr((char *)hint.data, "\"checksum\":\"") : NULL;
    int64_t v = -2;
    if (at) {
        for (char *p = at + 12; *p != '"'; p++) {
            *p = (char)(*p >= 'a' && *p <= 'f' ? *p - 'a' + 'A' : *p);
        }
        ok = tl_write(&t, "_last_checkpoint", (const char *)hint.data) &&
             dl_delta_last_checkpoint_version(t.table, &v, &err) == DL_OK;
    }
    dl_buf_destroy(&hint);
    tl_table_free(&t);
    CHECK(ok && at != NULL);
    CHECK_INT_EQ(v, 2);
}

TEST(test_hint_without_checksum_or_with_duplicates) {
    tl_table t;
    dl_error err;
    dl_error_clear(&err);
    CHECK(tl_table_new(&t));
    int64_t plain = -2;
    int64_t dup = -2;
    int64_t bad_type = -2;
    bool ok =
        tl_commit(&t, 0, TL_PROTOCOL_1_2 "\n" TL_METADATA_ID_LONG "\n") && tl_open(&t) &&
        tl_write(&t, "_last_checkpoint", "{\"version\":7,\"size\":3}") &&
        dl_delta_last_checkpoint_version(t.table, &plain, &err) == DL_OK &&
        tl_write(&t, "_last_checkpoint", "{\"version\":7,\"version\":8,\"checksum\":\"x\"}") &&
        dl_delta_last_checkpoint_version(t.table, &dup, &err) == DL_OK &&
        tl_write(&t, "_last_checkpoint", "{\"version\":7,\"checksum\":12}") &&
        dl_delta_last_checkpoint_version(t.table, &bad_type, &err) == DL_OK;
    tl_table_free(&t);
    CHECK(ok);
    CHECK_INT_EQ(plain, 7); /* no checksum: trusted, as older writers write none */
    CHECK_INT_EQ(dup, -1);
    CHECK_INT_EQ(bad_type, -1);
}

int
main(void) {
    RUN(test_md5_matches_rfc1321_vectors);
    RUN(test_canonical_form_matches_protocol_example);
    RUN(test_canonical_form_sorts_keys_and_encodes_bytes);
    RUN(test_duplicate_key_is_corrupt);
    RUN(test_written_last_checkpoint_carries_its_checksum);
    RUN(test_latest_reads_hinted_checkpoint_and_later_commits_only);
    RUN(test_time_travel_reads_one_checkpoint_and_the_commits_after_it);
    RUN(test_hint_with_wrong_checksum_is_ignored_for_a_full_listing);
    RUN(test_hint_checksum_compares_without_case);
    RUN(test_hint_without_checksum_or_with_duplicates);
    return harness_finish();
}
