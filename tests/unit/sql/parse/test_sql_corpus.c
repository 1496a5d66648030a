/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The corpus test: every SQL statement of the acceptance scenarios (sqllogictest records in
 * the *.test files of ../shared/scenarios: `statement ok|error` or `query ...`, then SQL lines up
 * to `----` or a blank line) and of the seeds (seed_statements.sql) must parse, and its canonical
 * text must parse again to the same text. None of the scenarios' `statement error` records is a
 * syntax error on purpose, so they must parse too.
 *
 * Usage: test_sql_corpus SCENARIO_DIR SEED_FILE. A missing scenario folder is skipped with a
 * message; the seed file is part of the repository and must exist.
 */
#include <dirent.h>
#include <stdlib.h>

#include "harness.h"
#include "sql/parse/sql_parse.h"

static const char *scenario_dir;
static const char *seed_file;
static int n_parsed;

static dl_status
read_file(const char *path, dl_buf *out) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return DL_ERR_NOT_FOUND;
    }
    char chunk[4096];
    size_t n;
    dl_status s = DL_OK;
    while (s == DL_OK && (n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
        s = dl_buf_append(out, chunk, n, NULL);
    }
    (void)fclose(f);
    return s;
}

/* Parses sql (one statement), prints it, re-parses the print and compares. */
static bool
check_statement(const char *where, const char *sql, size_t len) {
    dl_arena arena;
    dl_error err;
    dl_sql_stmt *stmt;
    dl_buf text1;
    dl_buf text2;
    bool ok = false;
    dl_arena_init(&arena, NULL, 0);
    dl_buf_init(&text1, NULL);
    dl_buf_init(&text2, NULL);
    if (dl_sql_parse_stmt(&arena, sql, len, &stmt, &err) != DL_OK) {
        dl_buf caret;
        dl_buf_init(&caret, NULL);
        if (dl_sql_render_caret(sql, len, err.offset, &caret, NULL) != DL_OK) {
            dl_buf_reset(&caret);
        }
        printf("  %s: %s\n%s", where, err.msg, dl_buf_cstr(&caret));
        dl_buf_destroy(&caret);
        goto done;
    }
    if (dl_sql_stmt_print(stmt, &text1, &err) != DL_OK ||
        dl_sql_parse_stmt(&arena, (const char *)text1.data, text1.len, &stmt, &err) != DL_OK ||
        dl_sql_stmt_print(stmt, &text2, &err) != DL_OK) {
        printf("  %s: canonical text does not parse: %s\n  %s\n", where, err.msg,
               dl_buf_cstr(&text1));
        goto done;
    }
    if (!dl_str_eq(dl_buf_view(&text1), dl_buf_view(&text2))) {
        printf("  %s: canonical text is not stable:\n  %s\n  %s\n", where, dl_buf_cstr(&text1),
               dl_buf_cstr(&text2));
        goto done;
    }
    ok = true;
done:
    dl_buf_destroy(&text2);
    dl_buf_destroy(&text1);
    dl_arena_destroy(&arena);
    return ok;
}

static bool
is_record_start(const char *line, size_t len) {
    return (len >= 12 && memcmp(line, "statement ok", 12) == 0) ||
           (len >= 15 && memcmp(line, "statement error", 15) == 0) ||
           (len >= 6 && memcmp(line, "query ", 6) == 0);
}

static bool
is_blank(const char *line, size_t len) {
    for (size_t i = 0; i < len; i++) {
        if (line[i] != ' ' && line[i] != '\t' && line[i] != '\r') {
            return false;
        }
    }
    return true;
}

/* Extracts and checks every record of one .test file; returns the failures. */
static int
check_test_file(const char *path, int *n_statements) {
    dl_buf file;
    dl_buf_init(&file, NULL);
    if (read_file(path, &file) != DL_OK) {
        printf("  cannot read %s\n", path);
        dl_buf_destroy(&file);
        return 1;
    }
    const char *text = dl_buf_cstr(&file);
    size_t pos = 0;
    int line_no = 0;
    int failures = 0;
    size_t sql_start = 0;
    int sql_line = 0;
    bool in_sql = false;
    while (pos <= file.len) {
        const char *nl = memchr(text + pos, '\n', file.len - pos);
        size_t end = nl != NULL ? (size_t)(nl - text) : file.len;
        size_t len = end - pos;
        line_no++;
        bool ends = in_sql && (is_blank(text + pos, len) ||
                               (len == 4 && !memcmp(text + pos, "----", 4)) || nl == NULL);
        if (in_sql && ends) {
            size_t sql_end = nl == NULL && !is_blank(text + pos, len) ? end : pos;
            char where[1400];
            (void)snprintf(where, sizeof(where), "%s:%d", path, sql_line);
            (*n_statements)++;
            failures += check_statement(where, text + sql_start, sql_end - sql_start) ? 0 : 1;
            in_sql = false;
        } else if (!in_sql && is_record_start(text + pos, len)) {
            in_sql = true;
            sql_start = end + 1;
            sql_line = line_no + 1;
        }
        if (nl == NULL) {
            break;
        }
        pos = end + 1;
    }
    dl_buf_destroy(&file);
    return failures;
}

static int
compare_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

TEST(test_every_scenario_statement_parses) {
    DIR *dir = opendir(scenario_dir);
    if (dir == NULL) {
        printf("  SKIP: no scenario folder at %s\n", scenario_dir);
        return;
    }
    char names[64][256];
    char *sorted[64];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL && n < 64) {
        size_t len = strlen(e->d_name);
        if (len > 5 && len < sizeof(names[0]) && strcmp(e->d_name + len - 5, ".test") == 0) {
            memcpy(names[n], e->d_name, len + 1);
            sorted[n] = names[n];
            n++;
        }
    }
    (void)closedir(dir);
    qsort(sorted, (size_t)n, sizeof(sorted[0]), compare_names);
    int statements = 0;
    int failures = 0;
    for (int i = 0; i < n; i++) {
        char path[1024];
        (void)snprintf(path, sizeof(path), "%s/%s", scenario_dir, sorted[i]);
        failures += check_test_file(path, &statements);
    }
    printf("  scenarios: %d files, %d statements, %d parse and round-trip, %d fail\n", n,
           statements, statements - failures, failures);
    n_parsed += statements - failures;
    CHECK(n > 0);
    CHECK_INT_EQ(failures, 0);
}

TEST(test_every_seed_statement_parses) {
    dl_buf file;
    dl_buf_init(&file, NULL);
    CHECK_OK(read_file(seed_file, &file), (dl_error *)NULL);
    dl_sql_splitter sp;
    dl_sql_piece piece;
    int statements = 0;
    int failures = 0;
    dl_sql_splitter_init(&sp, (const char *)file.data, file.len);
    while (dl_sql_splitter_next(&sp, &piece)) {
        uint32_t line;
        uint32_t col;
        dl_sql_offset_to_line_col((const char *)file.data, file.len, piece.offset, &line, &col);
        char where[1400];
        (void)snprintf(where, sizeof(where), "%s:%u", seed_file, line);
        statements++;
        failures +=
            check_statement(where, (const char *)file.data + piece.offset, piece.len) ? 0 : 1;
    }
    dl_buf_destroy(&file);
    printf("  seeds: %d statements, %d parse and round-trip, %d fail\n", statements,
           statements - failures, failures);
    n_parsed += statements - failures;
    CHECK(statements > 40);
    CHECK_INT_EQ(failures, 0);
}

int
main(int argc, char **argv) {
    if (argc != 3) {
        (void)fprintf(stderr, "usage: %s SCENARIO_DIR SEED_FILE\n", argv[0]);
        return 2;
    }
    scenario_dir = argv[1];
    seed_file = argv[2];
    RUN(test_every_scenario_statement_parses);
    RUN(test_every_seed_statement_parses);
    printf("corpus: %d statements parse\n", n_parsed);
    return harness_finish();
}
