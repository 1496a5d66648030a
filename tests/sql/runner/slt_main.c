/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dl_sqllogictest: runs sqllogictest files (slt.h) against deltalite through its public API.
 *
 *   dl_sqllogictest [--corpus DIR] [--allow-fail] [--threads N] FILE...
 *
 * Each file runs in a fresh, empty warehouse folder (a temporary folder, removed afterwards).
 * The corpus folder comes from --corpus or the DL_CORPUS environment variable; files that
 * `require corpus` are skipped without it. For each file the runner prints its failures and a
 * line "<file>: N passed, N failed, N skipped", then a summary line for all files.
 *
 * Exit status: 0 when every record of every file passed (skipped files and records count as
 * passing), 1 otherwise, 2 for bad usage. --allow-fail turns a failure into 77 (ctest's
 * "skipped"), for suites that are expected not to pass yet (the scenarios).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "deltalite.h"

#include "base/buf.h"
#include "slt.h"

#define EXIT_SKIP 77

/* ---- the executor over the public API --------------------------------------------------- */

static dl_status
collect_rows(deltalite_result *r, dl_arena *arena, slt_result *out) {
    dl_buf cells;
    dl_buf_init(&cells, arena->alloc);
    bool has_row = false;
    deltalite_status ds = DELTALITE_OK;
    dl_status st = DL_OK;
    while (st == DL_OK && (ds = deltalite_result_next_row(r, &has_row)) == DELTALITE_OK &&
           has_row) {
        for (int32_t c = 0; st == DL_OK && c < out->n_cols; c++) {
            const char *text = NULL;
            size_t len = 0;
            ds = deltalite_result_get_text(r, c, &text, &len);
            const char *copy = text ? dl_arena_strndup(arena, text, len) : NULL;
            st = ds != DELTALITE_OK ? DL_ERR_INTERNAL
                 : (text != NULL && copy == NULL)
                     ? DL_ERR_NOMEM
                     : dl_buf_append(&cells, &copy, sizeof(copy), NULL);
        }
        out->n_rows++;
    }
    if (st == DL_OK && ds != DELTALITE_OK) {
        st = DL_ERR_INTERNAL; /* the caller reads the error from the handle */
    }
    if (st == DL_OK) {
        out->cells = cells.len ? dl_arena_memdup(arena, cells.data, cells.len) : NULL;
        st = (cells.len == 0 || out->cells != NULL) ? DL_OK : DL_ERR_NOMEM;
    }
    dl_buf_destroy(&cells);
    return st;
}

static const char *
error_text(deltalite_db *db, dl_arena *arena) {
    const char *hint = deltalite_error_hint(db);
    return dl_arena_printf(arena, "%s%s%s", deltalite_error_message(db), hint[0] ? "\n" : "", hint);
}

static dl_status
api_run(void *ctx, const char *sql, dl_arena *arena, slt_result *out, dl_error *err) {
    deltalite_db *db = ctx;
    memset(out, 0, sizeof(*out));
    deltalite_result *r = NULL;
    if (deltalite_query(db, sql, &r) != DELTALITE_OK) {
        out->error = error_text(db, arena);
        DL_CHECK(out->error != NULL, err, DL_ERR_NOMEM, "out of memory");
        return DL_OK;
    }
    out->n_cols = deltalite_result_column_count(r);
    dl_status st = collect_rows(r, arena, out);
    deltalite_result_free(r);
    if (st == DL_ERR_NOMEM) {
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory collecting rows");
    }
    out->is_ok = st == DL_OK;
    if (!out->is_ok) {
        out->error = error_text(db, arena);
        DL_CHECK(out->error != NULL, err, DL_ERR_NOMEM, "out of memory");
    }
    return DL_OK;
}

/* ---- files and folders ------------------------------------------------------------------ */

static void
remove_tree(const char *path) {
    struct stat st;
    if (lstat(path, &st) != 0) {
        return;
    }
    if (S_ISDIR(st.st_mode)) {
        DIR *dir = opendir(path);
        struct dirent *de = NULL;
        while (dir != NULL && (de = readdir(dir)) != NULL) {
            if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0) {
                continue;
            }
            char child[4096];
            int n = snprintf(child, sizeof(child), "%s/%s", path, de->d_name);
            if (n > 0 && (size_t)n < sizeof(child)) {
                remove_tree(child);
            }
        }
        if (dir != NULL) {
            (void)closedir(dir);
        }
        (void)rmdir(path);
        return;
    }
    (void)unlink(path);
}

static bool
read_file(const char *path, dl_buf *out) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return false;
    }
    char chunk[65536];
    size_t n = 0;
    bool ok = true;
    while (ok && (n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
        ok = dl_buf_append(out, chunk, n, NULL) == DL_OK;
    }
    ok = ok && !ferror(f);
    (void)fclose(f);
    return ok;
}

/* ---- one file --------------------------------------------------------------------------- */

typedef struct options {
    const char *corpus;
    bool allow_fail;
    int32_t threads;
} options;

typedef struct totals {
    int64_t files_passed;
    int64_t files_failed;
    int64_t files_skipped;
    slt_counts records;
} totals;

static bool
run_parsed(const slt_file *file, const options *o, const char *test_dir, slt_counts *counts) {
    char wh[512];
    const char *tmp = getenv("TMPDIR");
    (void)snprintf(wh, sizeof(wh), "%s/dl_slt_XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    if (mkdtemp(wh) == NULL) {
        (void)printf("FAIL %s: cannot make a temporary warehouse\n", file->path);
        return false;
    }
    deltalite_options opts = {.threads = o->threads, .flags = DELTALITE_OPEN_NO_FSYNC};
    deltalite_db *db = NULL;
    bool ok = false;
    if (deltalite_open(wh, &opts, &db) != DELTALITE_OK) {
        (void)printf("FAIL %s: cannot open a warehouse: %s\n", file->path,
                     deltalite_error_message(db));
    } else {
        slt_exec exec = {.ctx = db, .run = api_run};
        slt_vars vars = {.corpus = o->corpus, .warehouse = wh, .test_dir = test_dir};
        dl_error err;
        ok = slt_run_file(file, &exec, &vars, stdout, counts, &err) == DL_OK;
        if (!ok) {
            (void)printf("FAIL %s: %s\n", file->path, err.msg);
        }
    }
    if (deltalite_close(db) != DELTALITE_OK) {
        (void)printf("FAIL %s: %s\n", file->path, deltalite_error_message(db));
        ok = false;
    }
    remove_tree(wh);
    return ok;
}

static void
run_one(const char *path, const options *o, totals *t) {
    dl_buf text;
    dl_buf_init(&text, NULL);
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    slt_counts counts = {0};
    bool ok = read_file(path, &text);
    if (!ok) {
        (void)printf("FAIL %s: cannot read the file\n", path);
    }
    slt_file file;
    dl_error err;
    if (ok && slt_parse(path, (const char *)text.data, text.len, &arena, &file, &err) != DL_OK) {
        (void)printf("FAIL %s\n", err.msg);
        ok = false;
    }
    char dir[4096];
    (void)snprintf(dir, sizeof(dir), "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash != NULL) {
        *slash = '\0';
    } else {
        (void)snprintf(dir, sizeof(dir), ".");
    }
    ok = ok && run_parsed(&file, o, dir, &counts);
    if (counts.is_file_skipped) {
        (void)printf("%s: skipped (requires %s)\n", path, counts.skip_reason);
        t->files_skipped++;
    } else {
        (void)printf("%s: %lld passed, %lld failed, %lld skipped\n", path, (long long)counts.passed,
                     (long long)counts.failed, (long long)counts.skipped);
        bool passed = ok && counts.failed == 0;
        t->files_passed += passed ? 1 : 0;
        t->files_failed += passed ? 0 : 1;
    }
    t->records.passed += counts.passed;
    t->records.failed += counts.failed;
    t->records.skipped += counts.skipped;
    (void)fflush(stdout);
    dl_arena_destroy(&arena);
    dl_buf_destroy(&text);
}

int
main(int argc, char **argv) {
    options o = {.corpus = getenv("DL_CORPUS"), .threads = 0};
    totals t = {0};
    int n_files = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--corpus") == 0 && i + 1 < argc) {
            o.corpus = argv[++i];
        } else if (strcmp(argv[i], "--allow-fail") == 0) {
            o.allow_fail = true;
        } else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
            o.threads = (int32_t)atoi(argv[++i]);
        } else if (argv[i][0] == '-') {
            (void)fprintf(stderr, "usage: dl_sqllogictest [--corpus DIR] [--allow-fail] "
                                  "[--threads N] FILE...\n");
            return 2;
        } else {
            n_files++;
        }
    }
    struct stat st;
    if (o.corpus != NULL && (stat(o.corpus, &st) != 0 || !S_ISDIR(st.st_mode))) {
        o.corpus = NULL;
    }
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--corpus") == 0 || strcmp(argv[i], "--threads") == 0) {
            i++;
        } else if (argv[i][0] != '-') {
            run_one(argv[i], &o, &t);
        }
    }
    (void)printf("sqllogictest: %d file%s: %lld passed, %lld failed, %lld skipped; records: %lld "
                 "passed, %lld failed, %lld skipped\n",
                 n_files, n_files == 1 ? "" : "s", (long long)t.files_passed,
                 (long long)t.files_failed, (long long)t.files_skipped, (long long)t.records.passed,
                 (long long)t.records.failed, (long long)t.records.skipped);
    if (t.files_failed == 0) {
        return 0;
    }
    return o.allow_fail ? EXIT_SKIP : 1;
}
