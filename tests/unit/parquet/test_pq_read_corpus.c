/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reads every Parquet file of ../shared/corpus with the reader and checks the values.
 *
 * parquet-testing: every file under data/ and bad_data/ (recursively) is read whole, every
 * column, through a local store. Where expected-duckdb/<relpath>.jsonl exists the rows are
 * rendered in DuckDB's JSON form (test_pq_read_util.c) and compared value by value, twice:
 * once with the defaults (2048-row batches, dictionary vectors) and once with 97-row batches
 * and flat vectors, so batches cross pages. Files DuckDB refuses but that are valid must read
 * (byte_stream_split_extended is checked column against column: each BYTE_STREAM_SPLIT column
 * must equal its PLAIN twin). Files that must be refused: everything in bad_data/, encrypted
 * files (UNSUPPORTED naming modular encryption), and the files whose page CRCs are corrupt
 * (we verify CRCs; DuckDB does not). Each file prints one status line; the summary counts
 * read-ok / refused-as-expected / not-yet / failed. "not yet" lists files that are valid but
 * that this reader cannot read yet, with the reason: they do not fail the test, and the
 * summary names them.
 *
 * Delta tables: every *.parquet elsewhere in the corpus (data files and checkpoints) must
 * read without error, with as many rows as its footer says; macOS "._" AppleDouble files
 * beside them are not Parquet and must be refused as CORRUPT.
 *
 * Exits 77 (skipped) when the corpus is absent.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "store/store.h"
#include "test_pq_read_util.h"

#define MAX_FILES 4096
#define PATH_CAP  1024

/* Files whose outcome is not "read and compare". */
typedef enum expect_kind {
    EXPECT_READ = 0,   /* read whole; compare when an expected file exists */
    EXPECT_REFUSE = 1, /* must fail with code and a message containing needle */
    EXPECT_NOT_YET = 2 /* valid but not readable yet: reported, not failed */
} expect_kind;

typedef struct special {
    const char *path;
    expect_kind kind;
    dl_status code;
    const char *needle;
    const char *note;
} special;

static const special specials[] = {
    {"data/datapage_v1-corrupt-checksum.parquet", EXPECT_REFUSE, DL_ERR_CORRUPT, "CRC mismatch",
     "corrupt page CRC (DuckDB does not verify CRCs)"},
    {"data/rle-dict-uncompressed-corrupt-checksum.parquet", EXPECT_REFUSE, DL_ERR_CORRUPT,
     "CRC mismatch", "corrupt page CRC (DuckDB does not verify CRCs)"},
    /* In bad_data/, but valid: its dictionary has one entry, so index bit width 0 is right
     * (EXPECTED.json: "reject, or handle without crashing; DuckDB reads it"). */
    {"bad_data/ARROW-GH-43605.parquet", EXPECT_READ, DL_OK, NULL, "valid: 1-entry dictionary"},
    /* Checked by check_large_string_map: rendering 1 GiB keys as JSON would take minutes. */
    {"data/large_string_map.brotli.parquet", EXPECT_READ, DL_OK, NULL, "1 GiB map keys"},
};

/* Rows where DuckDB is wrong and we are right: the JSON we expect instead of its line. */
static const struct {
    const char *path;
    int64_t row;
    const char *json;
} overrides[] = {
    /* Spark wrote year 290000 with a negative Julian day (its long overflowed); DuckDB reads the
     * day as unsigned and wraps. int96_from_spark.md gives 9089380393200000000 micros. */
    {"data/int96_from_spark.parquet", 5, "{\"a\":\"290000-12-30 23:00:00\"}"},
};

/* Files DuckDB cannot read whose values another file's expected rows give (the same data under
 * another codec: parquet-testing's README and Arrow's tests), or given inline (JSON lines). */
static const struct {
    const char *path;
    const char *same_as;
    const char *lines;
} aliases[] = {
    {"data/hadoop_lz4_compressed.parquet", "data/lz4_raw_compressed.parquet", NULL},
    {"data/non_hadoop_lz4_compressed.parquet", "data/lz4_raw_compressed.parquet", NULL},
    {"data/hadoop_lz4_compressed_larger.parquet", "data/lz4_raw_compressed_larger.parquet", NULL},
    /* map_no_value.md: a map of null values, a map without values (read as the list of its
     * keys, as Arrow does) and the equivalent list. */
    {"data/map_no_value.parquet", NULL,
     "{\"my_map\":[{\"key\":1,\"value\":null},{\"key\":2,\"value\":null},{\"key\":3,"
     "\"value\":null}],\"my_map_no_v\":[1,2,3],\"my_list\":[1,2,3]}\n"
     "{\"my_map\":[{\"key\":4,\"value\":null},{\"key\":5,\"value\":null},{\"key\":6,"
     "\"value\":null}],\"my_map_no_v\":[4,5,6],\"my_list\":[4,5,6]}\n"
     "{\"my_map\":[{\"key\":7,\"value\":null},{\"key\":8,\"value\":null},{\"key\":9,"
     "\"value\":null}],\"my_map_no_v\":[7,8,9],\"my_list\":[7,8,9]}\n"},
};

static const char *
find_override(const char *rel, int64_t row) {
    for (size_t i = 0; i < DL_ARRAY_LEN(overrides); i++) {
        if (strcmp(overrides[i].path, rel) == 0 && overrides[i].row == row) {
            return overrides[i].json;
        }
    }
    return NULL;
}

static const special *
find_special(const char *rel) {
    for (size_t i = 0; i < DL_ARRAY_LEN(specials); i++) {
        if (strcmp(specials[i].path, rel) == 0) {
            return &specials[i];
        }
    }
    return NULL;
}

/* ---- Counters -------------------------------------------------------------------------------- */

static dl_pool *pool;
static int n_ok;
static int n_compared;
static int n_refused;
static int n_not_yet;
static int n_failed;
static char not_yet_list[8192];
static char failed_list[8192];

static void
note(char *list, const char *rel) {
    size_t used = strlen(list);
    (void)snprintf(list + used, 8192 - used, "%s%s", used > 0 ? ", " : "", rel);
}

/* ---- Files ----------------------------------------------------------------------------------- */

static int
cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
collect(const char *dir, bool (*keep)(const char *path), char **out, size_t *n_out) {
    DIR *d = opendir(dir);
    if (d == NULL) {
        return;
    }
    char *names[2048];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < DL_ARRAY_LEN(names)) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) {
            continue;
        }
        names[n] = dl_mem_alloc(NULL, PATH_CAP);
        (void)snprintf(names[n], PATH_CAP, "%s/%s", dir, e->d_name);
        n++;
    }
    (void)closedir(d);
    qsort(names, n, sizeof(names[0]), cmp_str);
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (stat(names[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            collect(names[i], keep, out, n_out);
        } else if (keep(names[i]) && *n_out < MAX_FILES) {
            out[(*n_out)++] = names[i];
            continue;
        }
        dl_mem_free(NULL, names[i], PATH_CAP);
    }
}

static bool
is_testing_file(const char *path) {
    const char *base = strrchr(path, '/') + 1;
    return strstr(base, ".parquet") != NULL && strstr(base, ".json") == NULL;
}

static bool
is_delta_parquet(const char *path) {
    size_t len = strlen(path);
    return strstr(path, "/parquet-testing/") == NULL && len > 8 &&
           strcmp(path + len - 8, ".parquet") == 0;
}

/* ---- Reading one file ------------------------------------------------------------------------ */

typedef struct expected_rows {
    const char *rel;
    dl_buf text;
    dl_json_lines lines;
    bool has;
} expected_rows;

typedef struct read_result {
    dl_status status;
    dl_error err;
    int64_t rows;
    bool mismatch;
    char why[1024];
} read_result;

/* Compares the rendered batch rows with the next expected lines. */
static void
compare_batch(const dl_batch *batch, expected_rows *exp, dl_json_doc *got_doc, dl_json_doc *exp_doc,
              read_result *res) {
    dl_buf line;
    dl_buf_init(&line, NULL);
    for (int64_t k = 0; k < batch->count && !res->mismatch; k++) {
        dl_buf_reset(&line);
        dl_error err;
        dl_str want;
        if (pqt_render_row(batch, k, &line, &err) != DL_OK) {
            (void)snprintf(res->why, sizeof(res->why), "row %lld: render: %.900s",
                           (long long)(res->rows + k), err.msg);
            res->mismatch = true;
        } else if (!dl_json_lines_next(&exp->lines, &want)) {
            (void)snprintf(res->why, sizeof(res->why), "row %lld: more rows than expected",
                           (long long)(res->rows + k));
            res->mismatch = true;
        } else if ((want = find_override(exp->rel, res->rows + k) != NULL
                               ? dl_str_from_cstr(find_override(exp->rel, res->rows + k))
                               : want,
                    false) ||
                   dl_json_doc_parse(got_doc, (const char *)line.data, line.len, &err) != DL_OK ||
                   dl_json_doc_parse(exp_doc, want.ptr, want.len, &err) != DL_OK) {
            (void)snprintf(res->why, sizeof(res->why), "row %lld: JSON: %.900s",
                           (long long)(res->rows + k), err.msg);
            res->mismatch = true;
        } else {
            char why[700];
            if (!pqt_json_same(dl_json_doc_root(got_doc), dl_json_doc_root(exp_doc), why,
                               sizeof(why))) {
                (void)snprintf(res->why, sizeof(res->why), "row %lld: %.900s",
                               (long long)(res->rows + k), why);
                res->mismatch = true;
            }
        }
    }
    dl_buf_destroy(&line);
}

/* Reads every column of path; compares with exp when given. */
static void
read_all(dl_store *store, const char *rel, const dl_pq_read_options *opts, expected_rows *exp,
         read_result *res) {
    memset(res, 0, sizeof(*res));
    dl_pq_file *file = NULL;
    dl_pq_reader *reader = NULL;
    dl_batch *batch = NULL;
    dl_json_doc got_doc;
    dl_json_doc exp_doc;
    dl_json_doc_init(&got_doc, NULL);
    dl_json_doc_init(&exp_doc, NULL);
    res->status = dl_pq_file_open(store, rel, NULL, &file, &res->err);
    if (res->status == DL_OK) {
        res->status = dl_pq_reader_new(file, opts, &reader, &res->err);
    }
    if (res->status == DL_OK) {
        res->status = dl_vec_batch_new(NULL, dl_pq_reader_schema(reader), 0, &batch, &res->err);
    }
    while (res->status == DL_OK) {
        res->status = dl_pq_reader_next(reader, batch, &res->err);
        if (res->status != DL_OK || batch->count == 0) {
            break;
        }
        dl_status chk = dl_vec_batch_check(batch, &res->err);
        if (chk != DL_OK) {
            res->status = chk;
            break;
        }
        if (exp != NULL && exp->has && !res->mismatch) {
            compare_batch(batch, exp, &got_doc, &exp_doc, res);
        }
        res->rows += batch->count;
    }
    if (res->status == DL_OK && exp != NULL && exp->has && !res->mismatch) {
        dl_str extra;
        if (dl_json_lines_next(&exp->lines, &extra)) {
            (void)snprintf(res->why, sizeof(res->why), "only %lld rows, more were expected",
                           (long long)res->rows);
            res->mismatch = true;
        }
    }
    if (res->status == DL_OK && file != NULL && res->rows != dl_pq_file_num_rows(file)) {
        (void)snprintf(res->why, sizeof(res->why), "%lld rows read, the footer says %lld",
                       (long long)res->rows, (long long)dl_pq_file_num_rows(file));
        res->mismatch = true;
    }
    dl_json_doc_destroy(&got_doc);
    dl_json_doc_destroy(&exp_doc);
    dl_vec_batch_free(batch);
    dl_pq_reader_free(reader);
    dl_pq_file_free(file);
}

static bool
load_expected(const char *root, const char *rel, expected_rows *exp) {
    char path[PATH_CAP];
    const char *src = rel;
    dl_buf_init(&exp->text, NULL);
    exp->rel = rel;
    for (size_t i = 0; i < DL_ARRAY_LEN(aliases); i++) {
        if (strcmp(aliases[i].path, rel) == 0 && aliases[i].same_as != NULL) {
            src = aliases[i].same_as;
        } else if (strcmp(aliases[i].path, rel) == 0) {
            exp->has = dl_buf_append_cstr(&exp->text, aliases[i].lines, NULL) == DL_OK;
            dl_json_lines_init(&exp->lines, (const char *)exp->text.data, exp->text.len);
            return exp->has;
        }
    }
    (void)snprintf(path, sizeof(path), "%s/expected-duckdb/%s.jsonl", root, src);
    exp->has = pqt_read_file(path, &exp->text) == 0;
    dl_json_lines_init(&exp->lines, (const char *)exp->text.data, exp->text.len);
    return exp->has;
}

/* ---- byte_stream_split_extended: each *_byte_stream_split column equals its *_plain twin ---- */

static bool
bss_twins_equal(dl_store *store, const char *rel, char *why, size_t cap) {
    dl_error err;
    dl_pq_file *file = NULL;
    if (dl_pq_file_open(store, rel, NULL, &file, &err) != DL_OK) {
        (void)snprintf(why, cap, "%s", err.msg);
        return false;
    }
    const dl_pq_field *root = dl_pq_file_root(file);
    bool ok = true;
    int pairs = 0;
    for (size_t i = 0; i < root->n_children && ok; i++) {
        const char *name = root->children[i]->name;
        const char *suffix = strstr(name, "_byte_stream_split");
        if (suffix == NULL) {
            continue;
        }
        char twin[256];
        (void)snprintf(twin, sizeof(twin), "%.*s_plain", (int)(suffix - name), name);
        const char *names[1] = {twin};
        const dl_pq_field *cols[2] = {root->children[i], dl_pq_field_find(root, names, 1, false)};
        if (cols[1] == NULL) {
            continue;
        }
        dl_pq_read_options o = {.columns = cols, .n_columns = 2, .is_dict_flattened = true};
        dl_pq_reader *r = NULL;
        dl_batch *b = NULL;
        dl_status s = dl_pq_reader_new(file, &o, &r, &err);
        if (s == DL_OK) {
            s = dl_vec_batch_new(NULL, dl_pq_reader_schema(r), 0, &b, &err);
        }
        while (s == DL_OK && ok) {
            s = dl_pq_reader_next(r, b, &err);
            if (s != DL_OK || b->count == 0) {
                break;
            }
            dl_buf x;
            dl_buf y;
            dl_buf_init(&x, NULL);
            dl_buf_init(&y, NULL);
            for (int64_t k = 0; k < b->count && ok; k++) {
                dl_buf_reset(&x);
                dl_buf_reset(&y);
                dl_json_writer wx;
                dl_json_writer wy;
                dl_json_writer_init(&wx, &x, 0);
                dl_json_writer_init(&wy, &y, 0);
                ok = pqt_render_value(b->cols[0], k, &wx, &err) == DL_OK &&
                     pqt_render_value(b->cols[1], k, &wy, &err) == DL_OK && x.len == y.len &&
                     memcmp(x.data, y.data, x.len) == 0;
                if (!ok) {
                    (void)snprintf(why, cap, "column %s row %lld: %s vs %s", name, (long long)k,
                                   dl_buf_cstr(&x), dl_buf_cstr(&y));
                }
                dl_json_writer_destroy(&wx);
                dl_json_writer_destroy(&wy);
            }
            dl_buf_destroy(&x);
            dl_buf_destroy(&y);
        }
        if (s != DL_OK) {
            (void)snprintf(why, cap, "%s", err.msg);
            ok = false;
        }
        pairs++;
        dl_vec_batch_free(b);
        dl_pq_reader_free(r);
    }
    dl_pq_file_free(file);
    if (ok && pairs == 0) {
        (void)snprintf(why, cap, "no byte_stream_split/plain column pairs found");
        return false;
    }
    return ok;
}

static void report(const char *status, const char *rel, const char *detail);

/* ---- large_string_map: map<string, int>, 2 rows of {'a' x 2^30 -> 1} ------------------------ */

static bool
large_map_row_ok(const dl_vector *map, int64_t row, char *why, size_t cap) {
    int64_t start;
    int64_t end;
    dl_vec_list_bounds(map, row, &start, &end);
    const dl_vector *entries = map->children[0];
    if (end - start != 1 || dl_vec_is_null(entries->children[1], start)) {
        (void)snprintf(why, cap, "row %lld: %lld entries", (long long)row,
                       (long long)(end - start));
        return false;
    }
    dl_str key = dl_vec_get_str(entries->children[0], start);
    int32_t value = ((const int32_t *)entries->children[1]->data)[start];
    bool all_a = key.len == ((size_t)1 << 30);
    for (size_t i = 0; all_a && i < key.len; i++) {
        all_a = key.ptr[i] == 'a';
    }
    if (!all_a || value != 1) {
        (void)snprintf(why, cap, "row %lld: a key of %zu bytes, value %d", (long long)row, key.len,
                       (int)value);
        return false;
    }
    return true;
}

static void
check_large_string_map(dl_store *store, const char *rel) {
    read_result res;
    memset(&res, 0, sizeof(res));
    dl_pq_file *file = NULL;
    dl_pq_reader *r = NULL;
    dl_batch *b = NULL;
    res.status = dl_pq_file_open(store, rel, NULL, &file, &res.err);
    if (res.status == DL_OK) {
        res.status = dl_pq_reader_new(file, NULL, &r, &res.err);
    }
    if (res.status == DL_OK) {
        res.status = dl_vec_batch_new(NULL, dl_pq_reader_schema(r), 0, &b, &res.err);
    }
    bool ok = res.status == DL_OK;
    while (ok && (res.status = dl_pq_reader_next(r, b, &res.err)) == DL_OK && b->count > 0) {
        for (int64_t k = 0; k < b->count && ok; k++) {
            ok = large_map_row_ok(b->cols[0], k, res.why, sizeof(res.why));
        }
        res.rows += b->count;
    }
    ok = ok && res.status == DL_OK && res.rows == 2;
    char detail[1200];
    if (ok) {
        report("ok", rel, "2 rows, values as expected ({'a' x 2^30: 1} each)");
        n_ok++;
        n_compared++;
    } else {
        (void)snprintf(detail, sizeof(detail), "%.1100s",
                       res.status != DL_OK ? res.err.msg : res.why);
        report("FAIL", rel, detail);
        n_failed++;
        note(failed_list, rel);
    }
    dl_vec_batch_free(b);
    dl_pq_reader_free(r);
    dl_pq_file_free(file);
}

/* ---- parquet-testing ------------------------------------------------------------------------ */

static bool
is_refusal_code(dl_status s) {
    return s == DL_ERR_CORRUPT || s == DL_ERR_UNSUPPORTED || s == DL_ERR_LIMIT;
}

static void
report(const char *status, const char *rel, const char *detail) {
    printf("%-9s %s%s%s\n", status, rel, detail[0] != '\0' ? ": " : "", detail);
}

static void
check_refusal(const char *rel, const read_result *res, dl_status code, const char *needle) {
    char detail[1200];
    bool ok_code = code == DL_OK ? is_refusal_code(res->status) : res->status == code;
    bool ok_msg = needle == NULL || strstr(res->err.msg, needle) != NULL;
    if (res->status != DL_OK && ok_code && ok_msg) {
        (void)snprintf(detail, sizeof(detail), "%s: %s", dl_status_name(res->status), res->err.msg);
        report("refused", rel, detail);
        n_refused++;
        return;
    }
    (void)snprintf(detail, sizeof(detail), "expected a refusal (%s%s%s), got %s%s%s",
                   code == DL_OK ? "CORRUPT/UNSUPPORTED/LIMIT" : dl_status_name(code),
                   needle != NULL ? " mentioning " : "", needle != NULL ? needle : "",
                   dl_status_name(res->status), res->status != DL_OK ? ": " : "",
                   res->status != DL_OK ? res->err.msg : "");
    report("FAIL", rel, detail);
    n_failed++;
    note(failed_list, rel);
}

static void
check_read(dl_store *store, const char *root, const char *rel) {
    char detail[1400];
    expected_rows exp;
    bool has = load_expected(root, rel, &exp);
    read_result res;
    read_all(store, rel, NULL, &exp, &res);
    if (res.status == DL_OK && !res.mismatch && has) {
        /* Again in small batches with flat vectors, the row groups' column chunks opened in
         * parallel: batches cross pages. */
        dl_json_lines_init(&exp.lines, (const char *)exp.text.data, exp.text.len);
        dl_pq_read_options o = {.batch_rows = 97, .is_dict_flattened = true, .pool = pool};
        read_all(store, rel, &o, &exp, &res);
    }
    bool bss_ok = true;
    if (res.status == DL_OK && !res.mismatch && strstr(rel, "byte_stream_split_extended")) {
        bss_ok = bss_twins_equal(store, rel, res.why, sizeof(res.why));
        has = bss_ok;
    }
    if (res.status == DL_OK && !res.mismatch && bss_ok) {
        (void)snprintf(detail, sizeof(detail), "%lld rows%s", (long long)res.rows,
                       has ? ", values as expected" : ", read (no expected values)");
        report("ok", rel, detail);
        n_ok++;
        n_compared += has;
    } else {
        (void)snprintf(detail, sizeof(detail), "%s%s%s",
                       res.status != DL_OK ? dl_status_name(res.status) : "values differ", ": ",
                       res.status != DL_OK ? res.err.msg : res.why);
        report("FAIL", rel, detail);
        n_failed++;
        note(failed_list, rel);
    }
    dl_buf_destroy(&exp.text);
}

static void
check_testing_file(dl_store *store, const char *root, const char *rel) {
    const special *sp = find_special(rel);
    read_result res;
    if (sp != NULL && sp->kind == EXPECT_NOT_YET) {
        read_all(store, rel, NULL, NULL, &res);
        char detail[1200];
        (void)snprintf(detail, sizeof(detail), "%s (%s)", sp->note,
                       res.status != DL_OK ? res.err.msg : "now reads!");
        report("not-yet", rel, detail);
        n_not_yet++;
        note(not_yet_list, rel);
        return;
    }
    if (sp != NULL && strstr(rel, "large_string_map") != NULL) {
        check_large_string_map(store, rel);
        return;
    }
    if (sp != NULL && sp->kind == EXPECT_READ) {
        check_read(store, root, rel);
        return;
    }
    if (sp != NULL && sp->kind == EXPECT_REFUSE) {
        read_all(store, rel, NULL, NULL, &res);
        check_refusal(rel, &res, sp->code, sp->needle);
        return;
    }
    if (strstr(rel, ".encrypted") != NULL) {
        read_all(store, rel, NULL, NULL, &res);
        check_refusal(rel, &res, DL_ERR_UNSUPPORTED, "encryption");
        return;
    }
    if (strncmp(rel, "bad_data/", 9) == 0) {
        read_all(store, rel, NULL, NULL, &res);
        check_refusal(rel, &res, DL_OK, NULL);
        return;
    }
    check_read(store, root, rel);
}

static void
run_parquet_testing(const char *root) {
    dl_store *store = NULL;
    dl_error err;
    if (dl_store_local_new(root, NULL, &store, &err) != DL_OK) {
        printf("FAIL cannot open %s: %s\n", root, err.msg);
        n_failed++;
        return;
    }
    char **files = dl_mem_alloc_array(NULL, MAX_FILES, sizeof(char *));
    size_t n = 0;
    char dir[PATH_CAP + 16];
    (void)snprintf(dir, sizeof(dir), "%s/data", root);
    collect(dir, is_testing_file, files, &n);
    (void)snprintf(dir, sizeof(dir), "%s/bad_data", root);
    collect(dir, is_testing_file, files, &n);
    for (size_t i = 0; i < n; i++) {
        const char *rel = files[i] + strlen(root) + 1;
        check_testing_file(store, root, rel);
        (void)fflush(stdout);
        dl_mem_free(NULL, files[i], PATH_CAP);
    }
    dl_mem_free(NULL, files, MAX_FILES * sizeof(char *));
    dl_store_free(store);
    printf("parquet-testing: %zu files: %d read-ok (%d compared with expected values), %d "
           "refused with a clear error as expected, %d not yet readable%s%s%s, %d failed%s%s%s\n",
           n, n_ok, n_compared, n_refused, n_not_yet, n_not_yet ? " (" : "", not_yet_list,
           n_not_yet ? ")" : "", n_failed, n_failed ? " (" : "", failed_list, n_failed ? ")" : "");
}

/* ---- Delta tables ---------------------------------------------------------------------------- */

static void
run_delta(const char *corpus) {
    dl_store *store = NULL;
    dl_error err;
    if (dl_store_local_new(corpus, NULL, &store, &err) != DL_OK) {
        printf("FAIL cannot open %s: %s\n", corpus, err.msg);
        n_failed++;
        return;
    }
    char **files = dl_mem_alloc_array(NULL, MAX_FILES, sizeof(char *));
    size_t n = 0;
    collect(corpus, is_delta_parquet, files, &n);
    int ok = 0;
    int apple = 0;
    int bad = 0;
    int64_t rows = 0;
    for (size_t i = 0; i < n; i++) {
        const char *rel = files[i] + strlen(corpus) + 1;
        const char *base = strrchr(rel, '/') + 1;
        read_result res;
        read_all(store, rel, NULL, NULL, &res);
        bool is_apple = strncmp(base, "._", 2) == 0;
        if (is_apple && res.status == DL_ERR_CORRUPT) {
            apple++;
        } else if (!is_apple && res.status == DL_OK && !res.mismatch) {
            ok++;
            rows += res.rows;
        } else {
            bad++;
            printf("FAIL      delta %s: %s\n", rel,
                   res.status != DL_OK ? res.err.msg
                                       : (is_apple ? "AppleDouble file was read" : res.why));
        }
        dl_mem_free(NULL, files[i], PATH_CAP);
    }
    dl_mem_free(NULL, files, MAX_FILES * sizeof(char *));
    dl_store_free(store);
    n_failed += bad;
    printf("delta tables: %zu Parquet files: %d read (%lld rows), %d AppleDouble files refused "
           "as expected, %d failed\n",
           n, ok, (long long)rows, apple, bad);
}

int
main(void) {
    char root[PATH_CAP / 2];
    (void)snprintf(root, sizeof(root), "%s/parquet-testing", DL_CORPUS_DIR);
    struct stat st;
    if (stat(root, &st) != 0) {
        printf("corpus not found at %s: skipped\n", root);
        return 77;
    }
    dl_error err;
    if (dl_pool_new(2, NULL, &pool, &err) != DL_OK) {
        printf("FAIL no pool: %s\n", err.msg);
        return 1;
    }
    run_parquet_testing(root);
    int testing_failed = n_failed;
    run_delta(DL_CORPUS_DIR);
    printf("%d failed (parquet-testing %d, delta %d)\n", n_failed, testing_failed,
           n_failed - testing_failed);
    dl_pool_free(pool);
    return n_failed == 0 ? 0 : 1;
}
