/* SPDX-License-Identifier: Apache-2.0 */
/* The shell's output formats over hand-built rows: box, CSV, JSON, Markdown, exactly. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "shell/shell_int.h"

static char *out_text;
static size_t out_len;

static FILE *
capture(void) {
    free(out_text);
    out_text = NULL;
    out_len = 0;
    return open_memstream(&out_text, &out_len);
}

static const char *
finish(FILE *f) {
    (void)fclose(f);
    return out_text;
}

static const dl_shell_col people_cols[3] = {
    {.name = "id", .type = "int", .is_numeric = true},
    {.name = "name", .type = "string"},
    {.name = "amount", .type = "decimal(10,2)", .is_numeric = true},
};

static const char *
render_box(dl_shell_grid *g, int32_t max_width) {
    FILE *f = capture();
    static dl_error err;
    dl_shell_box_opts opts = {.max_width = max_width};
    if (dl_shell_render_box(f, g, &opts, &err) != DL_OK) {
        (void)fclose(f);
        return err.msg;
    }
    return finish(f);
}

static void
add(dl_shell_grid *g, const char *a, const char *b, const char *c) {
    const char *cells[3] = {a, b, c};
    dl_error err;
    if (dl_shell_grid_add(g, cells, &err) != DL_OK) {
        printf("  grid_add: %s\n", err.msg);
    }
}

TEST(test_box_draws_names_types_and_aligns_numbers_right) {
    dl_shell_grid g;
    dl_shell_grid_init(&g, NULL, people_cols, 3, -1);
    add(&g, "1", "alice", "25.50");
    add(&g, "22", NULL, NULL);
    CHECK_STR_EQ(render_box(&g, 0), "┌─────┬────────┬───────────────┐\n"
                                    "│ id  │  name  │    amount     │\n"
                                    "│ int │ string │ decimal(10,2) │\n"
                                    "├─────┼────────┼───────────────┤\n"
                                    "│   1 │ alice  │         25.50 │\n"
                                    "│  22 │ NULL   │          NULL │\n"
                                    "└─────┴────────┴───────────────┘\n");
    dl_shell_grid_destroy(&g);
}

TEST(test_box_with_no_rows_says_zero_rows) {
    dl_shell_grid g;
    dl_shell_grid_init(&g, NULL, people_cols, 1, -1);
    CHECK_STR_EQ(render_box(&g, 0), "┌────────┐\n"
                                    "│   id   │\n"
                                    "│  int   │\n"
                                    "├────────┤\n"
                                    "│ 0 rows │\n"
                                    "└────────┘\n");
    dl_shell_grid_destroy(&g);
}

TEST(test_box_keeps_first_and_last_rows_and_counts_the_rest) {
    dl_shell_grid g;
    dl_shell_grid_init(&g, NULL, people_cols, 1, 4);
    char text[16];
    for (int i = 1; i <= 1000; i++) {
        (void)snprintf(text, sizeof(text), "%d", i);
        add(&g, text, NULL, NULL);
    }
    CHECK_INT_EQ(g.n_rows, 1000);
    CHECK_INT_EQ(dl_shell_grid_shown(&g), 4);
    CHECK_STR_EQ(render_box(&g, 0), "┌─────────────────────┐\n"
                                    "│         id          │\n"
                                    "│         int         │\n"
                                    "├─────────────────────┤\n"
                                    "│                   1 │\n"
                                    "│                   2 │\n"
                                    "│                   · │\n"
                                    "│                   · │\n"
                                    "│                   · │\n"
                                    "│                 999 │\n"
                                    "│                1000 │\n"
                                    "├─────────────────────┤\n"
                                    "│ 1000 rows (4 shown) │\n"
                                    "└─────────────────────┘\n");
    dl_shell_grid_destroy(&g);
}

TEST(test_box_leaves_out_middle_columns_to_fit_the_width) {
    static dl_shell_col cols[6];
    static char names[6][16];
    const char *cells[6];
    for (int i = 0; i < 6; i++) {
        (void)snprintf(names[i], sizeof(names[i]), "col%d", i);
        cols[i] = (dl_shell_col){.name = names[i], .type = "int", .is_numeric = true};
        cells[i] = "12345";
    }
    dl_shell_grid g;
    dl_shell_grid_init(&g, NULL, cols, 6, -1);
    dl_error err;
    CHECK_OK(dl_shell_grid_add(&g, cells, &err), &err);
    CHECK_STR_EQ(render_box(&g, 40), "┌───────┬───────┬───┬───────┬───────┐\n"
                                     "│ col0  │ col1  │ … │ col4  │ col5  │\n"
                                     "│  int  │  int  │   │  int  │  int  │\n"
                                     "├───────┼───────┼───┼───────┼───────┤\n"
                                     "│ 12345 │ 12345 │ … │ 12345 │ 12345 │\n"
                                     "├───────┴───────┴───┴───────┴───────┤\n"
                                     "│ 1 row  6 columns (4 shown)        │\n"
                                     "└───────────────────────────────────┘\n");
    dl_shell_grid_destroy(&g);
}

TEST(test_box_cuts_long_values_with_an_ellipsis_to_fit) {
    static const dl_shell_col cols[2] = {{.name = "k", .type = "int", .is_numeric = true},
                                         {.name = "v", .type = "string"}};
    dl_shell_grid g;
    dl_shell_grid_init(&g, NULL, cols, 2, -1);
    const char *cells[2] = {"1", "abcdefghijklmnopqrstuvwxyz0123456789"};
    dl_error err;
    CHECK_OK(dl_shell_grid_add(&g, cells, &err), &err);
    CHECK_STR_EQ(render_box(&g, 30), "┌─────┬──────────────────────┐\n"
                                     "│  k  │          v           │\n"
                                     "│ int │        string        │\n"
                                     "├─────┼──────────────────────┤\n"
                                     "│   1 │ abcdefghijklmnopqrs… │\n"
                                     "└─────┴──────────────────────┘\n");
    dl_shell_grid_destroy(&g);
}

TEST(test_box_escapes_control_characters_and_counts_utf8_as_one_column) {
    static const dl_shell_col cols[1] = {{.name = "s", .type = "string"}};
    dl_shell_grid g;
    dl_shell_grid_init(&g, NULL, cols, 1, -1);
    const char *a[1] = {"a\nb\tc"};
    const char *b[1] = {"héllo"};
    dl_error err;
    CHECK_OK(dl_shell_grid_add(&g, a, &err), &err);
    CHECK_OK(dl_shell_grid_add(&g, b, &err), &err);
    CHECK_STR_EQ(render_box(&g, 0), "┌─────────┐\n"
                                    "│    s    │\n"
                                    "│ string  │\n"
                                    "├─────────┤\n"
                                    "│ a\\nb\\tc │\n"
                                    "│ héllo   │\n"
                                    "└─────────┘\n");
    CHECK_INT_EQ(dl_shell_text_width("héllo", strlen("héllo")), 5);
    dl_shell_grid_destroy(&g);
}

static const char *
stream_with(dl_shell_mode mode, const dl_shell_col *cols, int32_t n_cols, const char *const *cells,
            int n_rows, const dl_shell_stream_opts *opts) {
    FILE *f = capture();
    dl_shell_stream s;
    dl_shell_stream_begin(&s, f, mode, cols, n_cols, opts);
    for (int r = 0; r < n_rows; r++) {
        dl_shell_stream_row(&s, cells + (size_t)r * (size_t)n_cols, NULL);
    }
    dl_shell_stream_end(&s);
    return finish(f);
}

static const char *
stream(dl_shell_mode mode, const dl_shell_col *cols, int32_t n_cols, const char *const *cells,
       int n_rows) {
    return stream_with(mode, cols, n_cols, cells, n_rows, NULL);
}

TEST(test_csv_quotes_only_when_needed_and_tells_null_from_empty) {
    const char *cells[] = {"1", "plain", "25.50", "2", "a,b \"q\"", NULL, "3", "", "line\nbreak"};
    CHECK_STR_EQ(stream(DL_SHELL_MODE_CSV, people_cols, 3, cells, 3), "id,name,amount\n"
                                                                      "1,plain,25.50\n"
                                                                      "2,\"a,b \"\"q\"\"\",\n"
                                                                      "3,\"\",\"line\nbreak\"\n");
}

TEST(test_json_writes_numbers_and_booleans_bare_and_escapes_strings) {
    static const dl_shell_col cols[4] = {{.name = "n", .type = "double", .is_numeric = true},
                                         {.name = "b", .type = "boolean", .is_boolean = true},
                                         {.name = "s", .type = "string"},
                                         {.name = "d", .type = "date"}};
    const char *cells[] = {"1.5", "true", "say \"hi\"\n", "2026-10-02", "NaN", NULL, NULL, NULL};
    CHECK_STR_EQ(stream(DL_SHELL_MODE_JSON, cols, 4, cells, 2),
                 "[\n"
                 "{\"n\":1.5,\"b\":true,\"s\":\"say \\\"hi\\\"\\n\",\"d\":\"2026-10-02\"},\n"
                 "{\"n\":\"NaN\",\"b\":null,\"s\":null,\"d\":null}\n"
                 "]\n");
    CHECK_STR_EQ(stream(DL_SHELL_MODE_JSON, cols, 4, cells, 0), "[]\n");
}

TEST(test_markdown_aligns_numbers_right_and_escapes_pipes) {
    const char *cells[] = {"1", "a|b", "25.50", "2", NULL, "0.00"};
    CHECK_STR_EQ(stream(DL_SHELL_MODE_MARKDOWN, people_cols, 3, cells, 2),
                 "| id | name | amount |\n"
                 "|---:|---|---:|\n"
                 "| 1 | a\\|b | 25.50 |\n"
                 "| 2 | NULL | 0.00 |\n");
}

TEST(test_list_tabs_and_line_modes_show_null_as_null_or_the_nullvalue) {
    const char *cells[] = {"1", "alice", "25.50", "22", NULL, NULL};
    CHECK_STR_EQ(stream(DL_SHELL_MODE_LIST, people_cols, 3, cells, 2),
                 "id|name|amount\n1|alice|25.50\n22|NULL|NULL\n");
    CHECK_STR_EQ(stream(DL_SHELL_MODE_TABS, people_cols, 3, cells, 2),
                 "id\tname\tamount\n1\talice\t25.50\n22\tNULL\tNULL\n");
    CHECK_STR_EQ(stream(DL_SHELL_MODE_LINE, people_cols, 3, cells, 2),
                 "    id = 1\n  name = alice\namount = 25.50\n\n"
                 "    id = 22\n  name = NULL\namount = NULL\n");
    dl_shell_stream_opts opts = {.no_header = true, .null_text = "-"};
    CHECK_STR_EQ(stream_with(DL_SHELL_MODE_LIST, people_cols, 3, cells, 2, &opts),
                 "1|alice|25.50\n22|-|-\n");
    /* CSV writes nothing for NULL, unless .nullvalue says otherwise. */
    CHECK_STR_EQ(stream_with(DL_SHELL_MODE_CSV, people_cols, 3, cells, 2, &opts),
                 "1,alice,25.50\n22,-,-\n");
}

TEST(test_html_escapes_and_jsonlines_has_no_array) {
    const char *cells[] = {"1", "<a & 'b'>", NULL};
    CHECK_STR_EQ(stream(DL_SHELL_MODE_HTML, people_cols, 3, cells, 1),
                 "<table>\n<tr><th>id</th><th>name</th><th>amount</th></tr>\n"
                 "<tr><td>1</td><td>&lt;a &amp; &#39;b&#39;&gt;</td><td>NULL</td></tr>\n"
                 "</table>\n");
    CHECK_STR_EQ(stream(DL_SHELL_MODE_JSONLINES, people_cols, 3, cells, 1),
                 "{\"id\":1,\"name\":\"<a & 'b'>\",\"amount\":null}\n");
    CHECK_STR_EQ(stream(DL_SHELL_MODE_JSONLINES, people_cols, 3, cells, 0), "");
}

TEST(test_insert_writes_a_literal_of_each_type) {
    static const dl_shell_col cols[6] = {
        {.name = "s", .type = "string", .kind = DELTALITE_TYPE_STRING},
        {.name = "b", .type = "binary", .kind = DELTALITE_TYPE_BINARY},
        {.name = "d", .type = "date", .kind = DELTALITE_TYPE_DATE},
        {.name = "t", .type = "timestamp", .kind = DELTALITE_TYPE_TIMESTAMP},
        {.name = "x", .type = "double", .is_numeric = true, .kind = DELTALITE_TYPE_DOUBLE},
        {.name = "n", .type = "int", .is_numeric = true, .kind = DELTALITE_TYPE_INT}};
    const char *cells[] = {"it's a \\",           "\x01\xff",  "2026-10-02",
                           "2026-10-02 08:00:00", "-Infinity", NULL};
    dl_shell_stream_opts opts = {.table_name = "s.t"};
    CHECK_STR_EQ(stream_with(DL_SHELL_MODE_INSERT, cols, 6, cells, 1, &opts),
                 "INSERT INTO s.t VALUES ('it\\'s a \\\\', X'01FF', DATE '2026-10-02', "
                 "TIMESTAMP '2026-10-02 08:00:00', CAST('-Infinity' AS double), NULL);\n");
    CHECK(!dl_shell_insert_can_write(DELTALITE_TYPE_STRUCT));
    CHECK(dl_shell_insert_can_write(DELTALITE_TYPE_INTERVAL_DT));
}

TEST(test_table_mode_is_ascii_with_names_only_and_widths_cut) {
    dl_shell_grid g;
    dl_shell_grid_init(&g, NULL, people_cols, 3, -1);
    add(&g, "1", "alice", "25.50");
    add(&g, "22", NULL, NULL);
    FILE *f = capture();
    static dl_error err;
    int32_t widths[2] = {0, 3};
    dl_shell_box_opts opts = {.is_ascii = true, .null_text = "", .widths = widths, .n_widths = 2};
    CHECK(dl_shell_render_box(f, &g, &opts, &err) == DL_OK);
    CHECK_STR_EQ(finish(f), "+----+-----+--------+\n"
                            "| id | na… | amount |\n"
                            "+----+-----+--------+\n"
                            "|  1 | al… |  25.50 |\n"
                            "| 22 |     |        |\n"
                            "+----+-----+--------+\n");
    f = capture();
    opts = (dl_shell_box_opts){.no_header = true};
    CHECK(dl_shell_render_box(f, &g, &opts, &err) == DL_OK);
    CHECK_STR_EQ(finish(f), "┌────┬───────┬───────┐\n"
                            "│  1 │ alice │ 25.50 │\n"
                            "│ 22 │ NULL  │  NULL │\n"
                            "└────┴───────┴───────┘\n");
    dl_shell_grid_destroy(&g);
}

TEST(test_statements_without_columns_print_nothing) {
    CHECK_STR_EQ(stream(DL_SHELL_MODE_CSV, people_cols, 0, NULL, 0), "");
    dl_shell_grid g;
    dl_shell_grid_init(&g, NULL, people_cols, 0, -1);
    CHECK_STR_EQ(render_box(&g, 0), "");
    dl_shell_grid_destroy(&g);
}

TEST(test_modes_parse_by_name) {
    dl_shell_mode m = DL_SHELL_MODE_BOX;
    CHECK(dl_shell_mode_parse("markdown", &m) && m == DL_SHELL_MODE_MARKDOWN);
    CHECK(dl_shell_mode_parse("csv", &m) && m == DL_SHELL_MODE_CSV);
    CHECK(dl_shell_mode_parse("HTML", &m) && m == DL_SHELL_MODE_HTML);
    CHECK(dl_shell_mode_parse("JsonLines", &m) && m == DL_SHELL_MODE_JSONLINES);
    CHECK(!dl_shell_mode_parse("bogus", &m));
    CHECK_STR_EQ(dl_shell_mode_name(DL_SHELL_MODE_JSON), "json");
    CHECK_STR_EQ(dl_shell_mode_name(DL_SHELL_MODE_TABS), "tabs");
}

TEST(test_grid_allocation_failure_is_nomem_and_leaks_nothing) {
    for (int64_t fail_at = 1; fail_at < 50; fail_at++) {
        dl_fault_allocator fa;
        dl_fault_allocator_init(&fa, fail_at, true);
        dl_shell_grid g;
        dl_shell_grid_init(&g, &fa.base, people_cols, 3, 10);
        dl_status st = DL_OK;
        dl_error err;
        const char *cells[3] = {"1", "x", NULL};
        for (int i = 0; i < 100 && st == DL_OK; i++) {
            st = dl_shell_grid_add(&g, cells, &err);
        }
        CHECK(st == DL_OK || st == DL_ERR_NOMEM);
        dl_shell_grid_destroy(&g);
        CHECK_INT_EQ(fa.live_bytes, 0);
        if (fa.n_failures == 0) {
            break;
        }
    }
}

int
main(void) {
    RUN(test_box_draws_names_types_and_aligns_numbers_right);
    RUN(test_box_with_no_rows_says_zero_rows);
    RUN(test_box_keeps_first_and_last_rows_and_counts_the_rest);
    RUN(test_box_leaves_out_middle_columns_to_fit_the_width);
    RUN(test_box_cuts_long_values_with_an_ellipsis_to_fit);
    RUN(test_box_escapes_control_characters_and_counts_utf8_as_one_column);
    RUN(test_csv_quotes_only_when_needed_and_tells_null_from_empty);
    RUN(test_json_writes_numbers_and_booleans_bare_and_escapes_strings);
    RUN(test_markdown_aligns_numbers_right_and_escapes_pipes);
    RUN(test_list_tabs_and_line_modes_show_null_as_null_or_the_nullvalue);
    RUN(test_html_escapes_and_jsonlines_has_no_array);
    RUN(test_insert_writes_a_literal_of_each_type);
    RUN(test_table_mode_is_ascii_with_names_only_and_widths_cut);
    RUN(test_statements_without_columns_print_nothing);
    RUN(test_modes_parse_by_name);
    RUN(test_grid_allocation_failure_is_nomem_and_leaks_nothing);
    free(out_text);
    return harness_finish();
}
