/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The protocol checker of the write-side tests (test_delta_txn_util.h says what it checks).
 * It reads the log with nothing but the store, the JSON reader and the Parquet reader, so
 * that it judges the writer independently of the read side's replay, whose result it then
 * compares against.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hmap.h"
#include "json/json.h"
#include "parquet/pq_reader.h"
#include "test_delta_txn_util.h"

typedef struct checker {
    tl_table *t;
    char *why;
    size_t cap;
    dl_arena arena;
    dl_json_doc doc;
    dl_json_doc inner;
    dl_hmap live; /* decoded path -> (uintptr) arena copy of its dv id ("" without DV) */
    const char **parts;
    int32_t n_parts;
    bool is_ict;
    int64_t last_ict;
    int64_t version;
    int line;
    /* per commit */
    dl_hmap adds;    /* "path\1dvid" */
    dl_hmap removes; /* "path\1dvid" */
    dl_hmap add_paths;
    dl_hmap remove_paths;
    dl_hmap apps;
    dl_hmap domains;
    int n_metadata;
    int n_protocol;
} checker;

static bool failf(checker *c, const char *fmt, ...) DL_PRINTF(2, 3);

static bool
failf(checker *c, const char *fmt, ...) {
    int n = snprintf(c->why, c->cap, "v%lld line %d: ", (long long)c->version, c->line);
    va_list ap;
    va_start(ap, fmt);
    (void)vsnprintf(c->why + (n > 0 ? (size_t)n : 0), c->cap - (n > 0 ? (size_t)n : 0), fmt, ap);
    va_end(ap);
    return false;
}

static void
hput(dl_hmap *map, dl_str key, uint64_t value) {
    if (dl_hmap_put(map, key, value, NULL) != DL_OK) {
        abort(); /* out of memory in a test */
    }
}

static const char *
dup(checker *c, dl_str s) {
    return dl_arena_strndup(&c->arena, s.ptr != NULL ? s.ptr : "", s.len);
}

static bool
is_type(dl_json_val v, dl_json_type t) {
    return dl_json_val_type(v) == t;
}

static bool
is_int(dl_json_val v) {
    int64_t x;
    return dl_json_val_get_int64(v, &x, NULL) == DL_OK;
}

static int64_t
int_of(dl_json_val v) {
    int64_t x = 0;
    if (dl_json_val_get_int64(v, &x, NULL) != DL_OK) {
        x = 0;
    }
    return x;
}

static bool
require(checker *c, dl_json_val obj, const char *action, const char *field, dl_json_type type) {
    dl_json_val v = dl_json_obj_get(obj, field);
    if (!is_type(v, type)) {
        return failf(c, "%s: required field '%s' must be a %s, found a %s", action, field,
                     dl_json_type_name(type), dl_json_type_name(dl_json_val_type(v)));
    }
    return true;
}

static bool
optional(checker *c, dl_json_val obj, const char *action, const char *field, dl_json_type type) {
    dl_json_val v = dl_json_obj_get(obj, field);
    return dl_json_val_is_missing(v) || require(c, obj, action, field, type);
}

static bool
all_string_values(dl_json_val obj, bool allow_null) {
    dl_json_iter it = dl_json_val_iter(obj);
    dl_json_val v;
    while (dl_json_iter_next(&it, NULL, &v)) {
        if (!is_type(v, DL_JSON_STRING) && !(allow_null && dl_json_val_is_null(v))) {
            return false;
        }
    }
    return true;
}

/* "path\1dvid" in the arena, and the dv id alone. */
static bool
file_key(checker *c, dl_json_val action, const char **out_key, const char **out_path,
         const char **out_dv) {
    dl_buf decoded;
    dl_buf_init(&decoded, NULL);
    bool is_abs = false;
    dl_status s = dl_delta_path_decode(dl_json_val_str(dl_json_obj_get(action, "path")), &decoded,
                                       &is_abs, NULL);
    dl_json_val dv = dl_json_obj_get(action, "deletionVector");
    char dvid[512] = "";
    if (is_type(dv, DL_JSON_OBJECT)) {
        dl_str st = dl_json_val_str(dl_json_obj_get(dv, "storageType"));
        dl_str p = dl_json_val_str(dl_json_obj_get(dv, "pathOrInlineDv"));
        dl_json_val off = dl_json_obj_get(dv, "offset");
        int n = snprintf(dvid, sizeof(dvid), "%.*s%.*s", DL_STR_FMT(st), DL_STR_FMT(p));
        if (is_int(off) && n > 0 && (size_t)n < sizeof(dvid)) {
            (void)snprintf(dvid + n, sizeof(dvid) - (size_t)n, "@%lld", (long long)int_of(off));
        }
    }
    *out_path = s == DL_OK ? dup(c, dl_buf_view(&decoded)) : NULL;
    dl_buf_destroy(&decoded);
    if (*out_path == NULL) {
        return failf(c, "file action: path does not decode");
    }
    *out_dv = dl_arena_strndup(&c->arena, dvid, strlen(dvid));
    *out_key = dl_arena_printf(&c->arena, "%s\1%s", *out_path, dvid);
    return true;
}

/* ---- actions --------------------------------------------------------------------------- */

static bool
check_commit_info(checker *c, dl_json_val ci) {
    const char *a = "commitInfo";
    if (!require(c, ci, a, "timestamp", DL_JSON_NUMBER) ||
        !require(c, ci, a, "operation", DL_JSON_STRING) ||
        !require(c, ci, a, "operationParameters", DL_JSON_OBJECT) ||
        !require(c, ci, a, "operationMetrics", DL_JSON_OBJECT) ||
        !require(c, ci, a, "isolationLevel", DL_JSON_STRING) ||
        !require(c, ci, a, "isBlindAppend", DL_JSON_BOOL) ||
        !require(c, ci, a, "engineInfo", DL_JSON_STRING) ||
        !require(c, ci, a, "txnId", DL_JSON_STRING) ||
        !optional(c, ci, a, "readVersion", DL_JSON_NUMBER)) {
        return false;
    }
    dl_str iso = dl_json_val_str(dl_json_obj_get(ci, "isolationLevel"));
    if (!dl_str_eq_cstr(iso, "Serializable") && !dl_str_eq_cstr(iso, "WriteSerializable") &&
        !dl_str_eq_cstr(iso, "SnapshotIsolation")) {
        return failf(c, "commitInfo: isolationLevel '%.*s'", DL_STR_FMT(iso));
    }
    if (!dl_str_starts_with(dl_json_val_str(dl_json_obj_get(ci, "engineInfo")),
                            DL_STR("deltalite/")) ||
        dl_json_val_str(dl_json_obj_get(ci, "txnId")).len != 36) {
        return failf(c, "commitInfo: engineInfo or txnId malformed");
    }
    dl_json_iter it = dl_json_val_iter(dl_json_obj_get(ci, "operationMetrics"));
    dl_json_val m;
    while (dl_json_iter_next(&it, NULL, &m)) {
        dl_str s = dl_json_val_str(m);
        if (!is_type(m, DL_JSON_STRING) || s.len == 0 || strspn(s.ptr, "-0123456789") < s.len) {
            return failf(c, "commitInfo: operationMetrics values must be integer strings");
        }
    }
    dl_json_val rv = dl_json_obj_get(ci, "readVersion");
    if (!dl_json_val_is_missing(rv) && (int_of(rv) >= c->version || int_of(rv) < 0)) {
        return failf(c, "commitInfo: readVersion %lld is not below the version",
                     (long long)int_of(rv));
    }
    dl_json_val ict = dl_json_obj_get(ci, "inCommitTimestamp");
    if (c->is_ict) {
        if (!is_int(ict) || int_of(ict) <= c->last_ict) {
            return failf(c, "commitInfo: inCommitTimestamp missing or not increasing");
        }
        c->last_ict = int_of(ict);
    }
    return true;
}

static bool
check_protocol(checker *c, dl_json_val p) {
    const char *a = "protocol";
    if (!require(c, p, a, "minReaderVersion", DL_JSON_NUMBER) ||
        !require(c, p, a, "minWriterVersion", DL_JSON_NUMBER)) {
        return false;
    }
    int64_t rv = int_of(dl_json_obj_get(p, "minReaderVersion"));
    int64_t wv = int_of(dl_json_obj_get(p, "minWriterVersion"));
    bool has_r = !dl_json_val_is_missing(dl_json_obj_get(p, "readerFeatures"));
    bool has_w = !dl_json_val_is_missing(dl_json_obj_get(p, "writerFeatures"));
    if ((rv == 3) != has_r || (wv == 7) != has_w || (rv == 3 && wv != 7) || rv < 1 || wv < 1) {
        return failf(c, "protocol: versions (%lld, %lld) do not match the feature lists",
                     (long long)rv, (long long)wv);
    }
    if ((has_r && !all_string_values(dl_json_obj_get(p, "readerFeatures"), false)) ||
        (has_w && !all_string_values(dl_json_obj_get(p, "writerFeatures"), false))) {
        return failf(c, "protocol: feature lists must hold strings");
    }
    c->n_protocol++;
    return true;
}

static bool
check_metadata(checker *c, dl_json_val md) {
    const char *a = "metaData";
    if (!require(c, md, a, "id", DL_JSON_STRING) || !require(c, md, a, "format", DL_JSON_OBJECT) ||
        !require(c, md, a, "schemaString", DL_JSON_STRING) ||
        !require(c, md, a, "partitionColumns", DL_JSON_ARRAY) ||
        !require(c, md, a, "configuration", DL_JSON_OBJECT) ||
        !optional(c, md, a, "createdTime", DL_JSON_NUMBER) ||
        !require(c, dl_json_obj_get(md, "format"), "metaData.format", "provider", DL_JSON_STRING)) {
        return false;
    }
    if (!all_string_values(dl_json_obj_get(md, "configuration"), false)) {
        return failf(c, "metaData: configuration values must be strings");
    }
    dl_delta_schema schema;
    dl_error err;
    if (dl_delta_schema_parse(dl_json_val_str(dl_json_obj_get(md, "schemaString")), &c->arena,
                              &schema, &err) != DL_OK) {
        return failf(c, "metaData: schemaString: %s", err.msg);
    }
    dl_json_val cols = dl_json_obj_get(md, "partitionColumns");
    c->n_parts = (int32_t)dl_json_val_count(cols);
    c->parts = dl_arena_alloc_array(&c->arena, (size_t)c->n_parts + 1, sizeof(*c->parts));
    for (int32_t i = 0; i < c->n_parts; i++) {
        dl_str name = dl_json_val_str(dl_json_arr_at(cols, (uint32_t)i));
        const dl_delta_field *f = dl_delta_schema_find(&schema, name);
        if (f == NULL) {
            return failf(c, "metaData: partition column '%.*s' not in the schema",
                         DL_STR_FMT(name));
        }
        c->parts[i] = f->physical_name != NULL ? f->physical_name : f->name;
    }
    dl_str ict = dl_json_val_str(
        dl_json_obj_get(dl_json_obj_get(md, "configuration"), "delta.enableInCommitTimestamps"));
    c->is_ict = dl_str_eq_cstr(ict, "true");
    c->n_metadata++;
    return true;
}

static bool
check_partition_values(checker *c, dl_json_val pv, const char *path) {
    if (!is_type(pv, DL_JSON_OBJECT) || !all_string_values(pv, true)) {
        return failf(c, "'%s': partitionValues must be an object of strings", path);
    }
    if ((int32_t)dl_json_val_count(pv) != c->n_parts) {
        return failf(c, "'%s': partitionValues has %u keys for %d partition columns", path,
                     dl_json_val_count(pv), (int)c->n_parts);
    }
    for (int32_t i = 0; i < c->n_parts; i++) {
        if (dl_json_val_is_missing(dl_json_obj_get(pv, c->parts[i]))) {
            return failf(c, "'%s': partitionValues lacks '%s'", path, c->parts[i]);
        }
    }
    return true;
}

static bool
check_stats(checker *c, dl_json_val stats, const char *path) {
    if (dl_json_val_is_missing(stats)) {
        return true;
    }
    dl_str text = dl_json_val_str(stats);
    if (!is_type(stats, DL_JSON_STRING) ||
        dl_json_doc_parse(&c->inner, text.ptr, text.len, NULL) != DL_OK ||
        !is_type(dl_json_doc_root(&c->inner), DL_JSON_OBJECT) ||
        !is_int(dl_json_obj_get(dl_json_doc_root(&c->inner), "numRecords"))) {
        return failf(c, "'%s': stats must be a JSON object text with numRecords", path);
    }
    return true;
}

static bool
check_file(checker *c, dl_json_val f, bool is_add) {
    const char *a = is_add ? "add" : "remove";
    if (!require(c, f, a, "path", DL_JSON_STRING) ||
        !require(c, f, a, "dataChange", DL_JSON_BOOL)) {
        return false;
    }
    const char *key = NULL;
    const char *path = NULL;
    const char *dv = NULL;
    if (!file_key(c, f, &key, &path, &dv)) {
        return false;
    }
    if (is_add) {
        if (!require(c, f, a, "size", DL_JSON_NUMBER) ||
            !require(c, f, a, "modificationTime", DL_JSON_NUMBER) ||
            !check_partition_values(c, dl_json_obj_get(f, "partitionValues"), path) ||
            !check_stats(c, dl_json_obj_get(f, "stats"), path)) {
            return false;
        }
    } else {
        if (!require(c, f, a, "deletionTimestamp", DL_JSON_NUMBER)) {
            return false;
        }
        dl_json_val ext = dl_json_obj_get(f, "extendedFileMetadata");
        bool is_ext = false;
        if (!dl_json_val_is_missing(ext) &&
            (dl_json_val_get_bool(ext, &is_ext, NULL) != DL_OK ||
             (is_ext &&
              (!require(c, f, a, "size", DL_JSON_NUMBER) ||
               !check_partition_values(c, dl_json_obj_get(f, "partitionValues"), path))))) {
            return is_ext ? false : failf(c, "remove: extendedFileMetadata must be a boolean");
        }
    }
    dl_hmap *paths = is_add ? &c->add_paths : &c->remove_paths;
    if (dl_hmap_get(paths, dl_str_from_cstr(path), NULL)) {
        return failf(c, "%s: path '%s' appears twice in one commit", a, path);
    }
    hput(paths, dl_str_from_cstr(path), (uint64_t)(uintptr_t)dv);
    hput(is_add ? &c->adds : &c->removes, dl_str_from_cstr(key), (uint64_t)(uintptr_t)dv);
    return true;
}

static bool
check_unique(checker *c, dl_hmap *map, dl_json_val obj, const char *field, const char *what) {
    if (!require(c, obj, what, field, DL_JSON_STRING)) {
        return false;
    }
    const char *k = dup(c, dl_json_val_str(dl_json_obj_get(obj, field)));
    if (dl_hmap_get(map, dl_str_from_cstr(k), NULL)) {
        return failf(c, "%s: '%s' appears twice in one commit", what, k);
    }
    hput(map, dl_str_from_cstr(k), 0);
    return true;
}

static bool
check_action(checker *c, dl_str name, dl_json_val body) {
    if (dl_str_eq_cstr(name, "commitInfo")) {
        return c->line == 1 ? check_commit_info(c, body)
                            : failf(c, "commitInfo must be the first action");
    }
    if (c->line == 1) {
        return failf(c, "the first action must be commitInfo");
    }
    if (dl_str_eq_cstr(name, "protocol")) {
        return check_protocol(c, body);
    }
    if (dl_str_eq_cstr(name, "metaData")) {
        return check_metadata(c, body);
    }
    if (dl_str_eq_cstr(name, "add") || dl_str_eq_cstr(name, "remove")) {
        return check_file(c, body, dl_str_eq_cstr(name, "add"));
    }
    if (dl_str_eq_cstr(name, "txn")) {
        return check_unique(c, &c->apps, body, "appId", "txn") &&
               require(c, body, "txn", "version", DL_JSON_NUMBER);
    }
    if (dl_str_eq_cstr(name, "domainMetadata")) {
        return check_unique(c, &c->domains, body, "domain", "domainMetadata") &&
               require(c, body, "domainMetadata", "configuration", DL_JSON_STRING) &&
               require(c, body, "domainMetadata", "removed", DL_JSON_BOOL);
    }
    if (dl_str_eq_cstr(name, "cdc")) {
        return require(c, body, "cdc", "path", DL_JSON_STRING) &&
               require(c, body, "cdc", "size", DL_JSON_NUMBER) &&
               require(c, body, "cdc", "dataChange", DL_JSON_BOOL);
    }
    return failf(c, "unexpected action '%.*s'", DL_STR_FMT(name));
}

/* ---- replay ---------------------------------------------------------------------------- */

static void
reset_commit(checker *c) {
    dl_hmap_reset(&c->adds);
    dl_hmap_reset(&c->removes);
    dl_hmap_reset(&c->add_paths);
    dl_hmap_reset(&c->remove_paths);
    dl_hmap_reset(&c->apps);
    dl_hmap_reset(&c->domains);
    c->n_metadata = 0;
    c->n_protocol = 0;
}

static bool
apply_commit(checker *c) {
    size_t it = 0;
    dl_str key;
    uint64_t dv;
    while (dl_hmap_next(&c->removes, &it, &key, &dv)) {
        if (dl_hmap_get(&c->adds, key, NULL)) {
            return failf(c, "an add and a remove of the same logical file in one commit");
        }
        dl_str path = dl_str_slice(key, 0, (size_t)dl_str_find_byte(key, '\1'));
        uint64_t live_dv = 0;
        if (dl_hmap_get(&c->live, path, &live_dv) &&
            strcmp((const char *)(uintptr_t)live_dv, (const char *)(uintptr_t)dv) == 0) {
            (void)dl_hmap_remove(&c->live, path, NULL);
        }
    }
    it = 0;
    while (dl_hmap_next(&c->adds, &it, &key, &dv)) {
        dl_str path = dl_str_slice(key, 0, (size_t)dl_str_find_byte(key, '\1'));
        uint64_t live_dv = 0;
        if (dl_hmap_get(&c->live, path, &live_dv) &&
            strcmp((const char *)(uintptr_t)live_dv, (const char *)(uintptr_t)dv) != 0) {
            return failf(c, "add of '%.*s' live with another deletion vector, not removed",
                         DL_STR_FMT(path));
        }
        const char *p = dup(c, path);
        hput(&c->live, dl_str_from_cstr(p), dv);
    }
    return true;
}

static bool
check_commit(checker *c, const char *path) {
    dl_buf bytes;
    dl_buf_init(&bytes, NULL);
    if (dl_store_read_all(c->t->store, path, &bytes, NULL) != DL_OK) {
        dl_buf_destroy(&bytes);
        return failf(c, "cannot read %s", path);
    }
    reset_commit(c);
    dl_json_lines lines;
    dl_json_lines_init(&lines, (const char *)bytes.data, bytes.len);
    dl_str line;
    bool is_ok = bytes.len > 0 && bytes.data[bytes.len - 1] == '\n';
    c->line = 0;
    while (is_ok && dl_json_lines_next(&lines, &line)) {
        c->line++;
        dl_json_iter it;
        dl_str name;
        dl_json_val body;
        is_ok = dl_json_doc_parse(&c->doc, line.ptr, line.len, NULL) == DL_OK &&
                dl_json_val_count(dl_json_doc_root(&c->doc)) == 1;
        if (!is_ok) {
            failf(c, "not one JSON object with one action");
            break;
        }
        it = dl_json_val_iter(dl_json_doc_root(&c->doc));
        (void)dl_json_iter_next(&it, &name, &body);
        is_ok = check_action(c, name, body);
    }
    dl_buf_destroy(&bytes);
    if (!is_ok) {
        return c->why[0] != '\0' ? false : failf(c, "the file does not end with a newline");
    }
    if (c->n_metadata > 1 || c->n_protocol > 1) {
        return failf(c, "more than one metaData or protocol");
    }
    return apply_commit(c);
}

/* ---- checkpoints ----------------------------------------------------------------------- */

static bool
names_are(const dl_pq_field *f, const char *const *names, size_t n, size_t *out_n) {
    if (f->n_children < n) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        if (strcmp(f->children[i]->name, names[i]) != 0) {
            return false;
        }
    }
    if (out_n != NULL) {
        *out_n = f->n_children;
    }
    return out_n != NULL || f->n_children == n;
}

static bool
check_checkpoint_schema(checker *c, const dl_pq_field *root) {
    static const char *const top[] = {"txn",      "add",      "remove",
                                      "metaData", "protocol", "domainMetadata"};
    static const char *const add[] = {
        "path", "partitionValues", "size",      "modificationTime",        "dataChange",
        "tags", "deletionVector",  "baseRowId", "defaultRowCommitVersion", "clusteringProvider"};
    static const char *const rm[] = {
        "path", "deletionTimestamp", "dataChange", "extendedFileMetadata",   "partitionValues",
        "size", "deletionVector",    "baseRowId",  "defaultRowCommitVersion"};
    static const char *const md[] = {"id",
                                     "name",
                                     "description",
                                     "format",
                                     "schemaString",
                                     "partitionColumns",
                                     "configuration",
                                     "createdTime"};
    static const char *const pr[] = {"minReaderVersion", "minWriterVersion", "readerFeatures",
                                     "writerFeatures"};
    static const char *const txn[] = {"appId", "version", "lastUpdated"};
    static const char *const dm[] = {"domain", "configuration", "removed"};
    static const char *const cm[] = {"version", "tags"};
    size_t n_add = 0;
    size_t n_top = 0;
    if (!names_are(root, top, 6, &n_top) || n_top > 7 ||
        (n_top == 7 && (strcmp(root->children[6]->name, "checkpointMetadata") != 0 ||
                        !names_are(root->children[6], cm, 2, NULL))) ||
        !names_are(root->children[1], add, 10, &n_add) ||
        !names_are(root->children[2], rm, 9, NULL) || !names_are(root->children[3], md, 8, NULL) ||
        !names_are(root->children[4], pr, 4, NULL) || !names_are(root->children[0], txn, 3, NULL) ||
        !names_are(root->children[5], dm, 3, NULL)) {
        return failf(c, "checkpoint: columns are not Spark's layout");
    }
    for (size_t i = 10; i < n_add; i++) {
        const char *n = root->children[1]->children[i]->name;
        if (strcmp(n, "stats") != 0 && strcmp(n, "partitionValues_parsed") != 0 &&
            strcmp(n, "stats_parsed") != 0) {
            return failf(c, "checkpoint: unexpected add field '%s'", n);
        }
    }
    return true;
}

typedef struct ckpt_counts {
    int64_t rows, adds, removes, metadata, protocols, cp_metadata;
    int64_t cp_metadata_version; /* checkpointMetadata.version */
    bool is_v2_table;            /* the protocol row lists v2Checkpoint */
} ckpt_counts;

/* True when row r of a list-of-strings vector holds name. */
static bool
list_has(const dl_vector *list, int64_t r, const char *name) {
    if (dl_vec_is_null(list, r)) {
        return false;
    }
    int64_t start = 0;
    int64_t end = 0;
    dl_vec_list_bounds(list, r, &start, &end);
    for (int64_t i = start; i < end; i++) {
        if (dl_str_eq_cstr(dl_vec_get_str(list->children[0], i), name)) {
            return true;
        }
    }
    return false;
}

static bool
check_checkpoint_rows(checker *c, const dl_batch *b, ckpt_counts *n, bool is_seeding) {
    for (int64_t r = 0; r < b->count; r++) {
        int non_null = 0;
        int which = -1;
        for (int k = 0; k < b->n_cols; k++) {
            if (!dl_vec_is_null(b->cols[k], r)) {
                non_null++;
                which = k;
            }
        }
        if (non_null != 1) {
            return failf(c, "checkpoint row %lld has %d actions", (long long)(n->rows + r),
                         non_null);
        }
        n->adds += which == 1;
        n->removes += which == 2;
        n->metadata += which == 3;
        n->protocols += which == 4;
        if (which == 4) {
            n->is_v2_table = list_has(b->cols[4]->children[2], r, "v2Checkpoint");
        }
        if (which == 6) {
            n->cp_metadata++;
            n->cp_metadata_version = ((const int64_t *)b->cols[6]->children[0]->data)[r];
        }
        if (which == 1 && is_seeding) {
            const dl_vector *path = b->cols[1]->children[0];
            dl_buf decoded;
            dl_buf_init(&decoded, NULL);
            bool is_abs;
            if (dl_delta_path_decode(dl_vec_get_str(path, r), &decoded, &is_abs, NULL) != DL_OK) {
                dl_buf_destroy(&decoded);
                return failf(c, "checkpoint add path does not decode");
            }
            const char *p = dup(c, dl_buf_view(&decoded));
            dl_buf_destroy(&decoded);
            const dl_vector *dv = b->cols[1]->children[6];
            char *id = "";
            if (!dl_vec_is_null(dv, r)) {
                dl_str st = dl_vec_get_str(dv->children[0], r);
                dl_str pi = dl_vec_get_str(dv->children[1], r);
                id = dl_arena_printf(&c->arena, "%.*s%.*s", DL_STR_FMT(st), DL_STR_FMT(pi));
                if (!dl_vec_is_null(dv->children[2], r)) {
                    id = dl_arena_printf(&c->arena, "%s@%d", id,
                                         ((const int32_t *)dv->children[2]->data)[r]);
                }
            }
            hput(&c->live, dl_str_from_cstr(p), (uint64_t)(uintptr_t)id);
        }
    }
    n->rows += b->count;
    return true;
}

/* Checks a checkpoint; seeds the live set from it when is_seeding. */
static bool
check_checkpoint(checker *c, const char *path, bool is_seeding, ckpt_counts *n) {
    memset(n, 0, sizeof(*n));
    dl_pq_file *file = NULL;
    dl_error err;
    if (dl_pq_file_open(c->t->store, path, NULL, &file, &err) != DL_OK) {
        return failf(c, "checkpoint %s: %s", path, err.msg);
    }
    bool is_ok = check_checkpoint_schema(c, dl_pq_file_root(file));
    dl_pq_read_options opts = {.is_dict_flattened = true};
    dl_pq_reader *rd = NULL;
    dl_batch *b = NULL;
    if (is_ok && (dl_pq_reader_new(file, &opts, &rd, &err) != DL_OK ||
                  dl_vec_batch_new(NULL, dl_pq_reader_schema(rd), 0, &b, &err) != DL_OK)) {
        is_ok = failf(c, "checkpoint %s: %s", path, err.msg);
    }
    while (is_ok) {
        if (dl_pq_reader_next(rd, b, &err) != DL_OK) {
            is_ok = failf(c, "checkpoint %s: %s", path, err.msg);
            break;
        }
        if (b->count == 0) {
            break;
        }
        is_ok = check_checkpoint_rows(c, b, n, is_seeding);
    }
    dl_vec_batch_free(b);
    dl_pq_reader_free(rd);
    dl_pq_file_free(file);
    if (is_ok && (n->metadata != 1 || n->protocols != 1)) {
        return failf(c, "checkpoint %s: %lld metaData and %lld protocol rows", path,
                     (long long)n->metadata, (long long)n->protocols);
    }
    /* V2 spec exactly when the table has v2Checkpoint: one checkpointMetadata of its version. */
    long long v = -1;
    (void)sscanf(path, "_delta_log/%20lld", &v);
    if (is_ok && n->is_v2_table && (n->cp_metadata != 1 || n->cp_metadata_version != v)) {
        return failf(c,
                     "checkpoint %s of a v2Checkpoint table needs one checkpointMetadata of "
                     "version %lld (has %lld)",
                     path, v, (long long)n->cp_metadata);
    }
    if (is_ok && !n->is_v2_table && n->cp_metadata != 0) {
        return failf(c, "checkpoint %s: checkpointMetadata without the v2Checkpoint feature", path);
    }
    return is_ok;
}

/* ---- the whole log --------------------------------------------------------------------- */

typedef struct log_files {
    int64_t commits[4096];
    size_t n_commits;
    int64_t checkpoints[512];
    int64_t checkpoint_sizes[512];
    size_t n_checkpoints;
} log_files;

static bool
list_log(checker *c, log_files *lf) {
    dl_store_listing listing;
    dl_error err;
    if (dl_store_list(c->t->store, "_delta_log/", NULL, 0, &c->arena, &listing, &err) != DL_OK) {
        return failf(c, "cannot list the log: %s", err.msg);
    }
    memset(lf, 0, sizeof(*lf));
    for (size_t i = 0; i < listing.count; i++) {
        const char *name = listing.entries[i].path.ptr + strlen("_delta_log/");
        long long v = 0;
        char rest[64] = "";
        if (name[0] == '.') {
            return failf(c, "temporary file left in the log: %s", name);
        }
        if (sscanf(name, "%20lld%63s", &v, rest) != 2) {
            continue;
        }
        if (strcmp(rest, ".json") == 0 && lf->n_commits < DL_ARRAY_LEN(lf->commits)) {
            lf->commits[lf->n_commits++] = v;
        } else if (strcmp(rest, ".checkpoint.parquet") == 0 &&
                   lf->n_checkpoints < DL_ARRAY_LEN(lf->checkpoints)) {
            lf->checkpoint_sizes[lf->n_checkpoints] = listing.entries[i].size;
            lf->checkpoints[lf->n_checkpoints++] = v;
        }
    }
    for (size_t i = 1; i < lf->n_commits; i++) {
        if (lf->commits[i] != lf->commits[i - 1] + 1) {
            return failf(c, "commits not contiguous: %lld then %lld", (long long)lf->commits[i - 1],
                         (long long)lf->commits[i]);
        }
    }
    return lf->n_commits > 0 ? true : failf(c, "no commits");
}

static int64_t
checkpoint_index(const log_files *lf, int64_t v) {
    for (size_t i = 0; i < lf->n_checkpoints; i++) {
        if (lf->checkpoints[i] == v) {
            return (int64_t)i;
        }
    }
    return -1;
}

static bool
check_last_checkpoint(checker *c, const log_files *lf) {
    char text[8192];
    if (!tw_read_log_file(c->t, "_last_checkpoint", text, sizeof(text))) {
        return true; /* only a hint: a writer may fail to write it after its checkpoint */
    }
    if (dl_json_doc_parse(&c->doc, text, strlen(text), NULL) != DL_OK) {
        return failf(c, "_last_checkpoint is not JSON");
    }
    dl_json_val root = dl_json_doc_root(&c->doc);
    int64_t v = int_of(dl_json_obj_get(root, "version"));
    int64_t idx = checkpoint_index(lf, v);
    if (!is_int(dl_json_obj_get(root, "size")) || idx < 0) {
        return failf(c, "_last_checkpoint: version %lld has no checkpoint", (long long)v);
    }
    int64_t size = int_of(dl_json_obj_get(root, "size"));
    int64_t bytes = int_of(dl_json_obj_get(root, "sizeInBytes"));
    int64_t n_add = int_of(dl_json_obj_get(root, "numOfAddFiles"));
    char path[512];
    (void)snprintf(path, sizeof(path), "_delta_log/%020lld.checkpoint.parquet", (long long)v);
    ckpt_counts n;
    if (!check_checkpoint(c, path, false, &n)) {
        return false;
    }
    if (size != n.rows || n_add != n.adds || bytes != lf->checkpoint_sizes[idx]) {
        return failf(c,
                     "_last_checkpoint: size %lld/%lld, numOfAddFiles %lld/%lld, sizeInBytes "
                     "%lld/%lld disagree with the checkpoint",
                     (long long)size, (long long)n.rows, (long long)n_add, (long long)n.adds,
                     (long long)bytes, (long long)lf->checkpoint_sizes[idx]);
    }
    return true;
}

static bool
check_against_snapshot(checker *c) {
    dl_error err;
    dl_delta_snapshot *snap = NULL;
    dl_status s = dl_delta_snapshot_latest(c->t->table, NULL, &snap, &err);
    if (s == DL_ERR_UNSUPPORTED) {
        return true; /* a Parquet checkpoint the read side cannot read yet */
    }
    if (s != DL_OK) {
        return failf(c, "the read side cannot load the table: %s", err.msg);
    }
    size_t n = dl_delta_snapshot_file_count(snap);
    bool is_ok = n == c->live.count;
    for (size_t i = 0; is_ok && i < n; i++) {
        is_ok = dl_hmap_get(&c->live, dl_delta_snapshot_file(snap, i)->path, NULL);
    }
    dl_delta_snapshot_unref(snap);
    return is_ok ? true
                 : failf(c, "replay has %zu live files, the read side's snapshot %zu",
                         (size_t)c->live.count, n);
}

static bool
check_log(checker *c) {
    log_files files;
    log_files *lf = &files;
    if (!list_log(c, lf)) {
        return false;
    }
    bool is_ok = true;
    int64_t first = lf->commits[0];
    if (first > 0) {
        ckpt_counts n;
        char path[512];
        (void)snprintf(path, sizeof(path), "_delta_log/%020lld.checkpoint.parquet",
                       (long long)first);
        is_ok = checkpoint_index(lf, first) >= 0 ? check_checkpoint(c, path, true, &n)
                                                 : failf(c,
                                                         "log starts at %lld without a "
                                                         "checkpoint there",
                                                         (long long)first);
    }
    for (size_t i = first > 0 ? 1 : 0; is_ok && i < lf->n_commits; i++) {
        c->version = lf->commits[i];
        char path[512];
        (void)snprintf(path, sizeof(path), "_delta_log/%020lld.json", (long long)c->version);
        is_ok = check_commit(c, path);
        if (is_ok && c->version == 0 && (c->n_metadata != 1 || c->n_protocol != 1)) {
            is_ok = failf(c, "version 0 needs a protocol and a metaData");
        }
        ckpt_counts n;
        if (is_ok && checkpoint_index(lf, c->version) >= 0) {
            (void)snprintf(path, sizeof(path), "_delta_log/%020lld.checkpoint.parquet",
                           (long long)c->version);
            is_ok = check_checkpoint(c, path, false, &n);
            if (is_ok && n.adds != (int64_t)c->live.count) {
                is_ok = failf(c, "checkpoint has %lld adds, replay %zu live files",
                              (long long)n.adds, (size_t)c->live.count);
            }
        }
    }
    return is_ok && check_last_checkpoint(c, lf) && check_against_snapshot(c);
}

bool
tw_check_log(tl_table *t, char *why, size_t cap) {
    checker c;
    memset(&c, 0, sizeof(c));
    c.t = t;
    c.why = why;
    c.cap = cap;
    why[0] = '\0';
    dl_arena_init(&c.arena, NULL, 0);
    dl_json_doc_init(&c.doc, NULL);
    dl_json_doc_init(&c.inner, NULL);
    dl_hmap *maps[] = {&c.live,         &c.adds, &c.removes, &c.add_paths,
                       &c.remove_paths, &c.apps, &c.domains};
    for (size_t i = 0; i < DL_ARRAY_LEN(maps); i++) {
        dl_hmap_init(maps[i], NULL);
    }
    bool is_ok = check_log(&c);
    for (size_t i = 0; i < DL_ARRAY_LEN(maps); i++) {
        dl_hmap_destroy(maps[i]);
    }
    dl_json_doc_destroy(&c.inner);
    dl_json_doc_destroy(&c.doc);
    dl_arena_destroy(&c.arena);
    return is_ok;
}
