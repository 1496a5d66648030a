/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The script splitter and the helpers for the shell: statement completeness, offsets to line
 * and column, and the caret display.
 */
#include "harness.h"
#include "sql/parse/sql_parse.h"

/* Splits text and writes the pieces as "[text]" (with '+' for a terminated piece and '~' for
 * an open one) into out. */
static const char *
split_to_string(const char *text) {
    static char out[1024];
    size_t n = 0;
    dl_sql_splitter sp;
    dl_sql_piece piece;
    dl_sql_splitter_init(&sp, text, strlen(text));
    out[0] = '\0';
    while (dl_sql_splitter_next(&sp, &piece) && n + piece.len + 8 < sizeof(out)) {
        int w =
            snprintf(out + n, sizeof(out) - n, "[%.*s]%s%s", (int)piece.len, text + piece.offset,
                     piece.is_terminated ? "+" : "", piece.is_open ? "~" : "");
        n += (size_t)w;
    }
    return out;
}

TEST(test_splitter_respects_strings_names_and_comments) {
    CHECK_STR_EQ(split_to_string("SELECT 1; SELECT 2"), "[SELECT 1]+[SELECT 2]");
    CHECK_STR_EQ(split_to_string(" ;; SELECT ';' ;\n"), "[SELECT ';']+");
    CHECK_STR_EQ(split_to_string("SELECT `a;b`, \"c;\" -- ;\n/* ; */ FROM t;"),
                 "[SELECT `a;b`, \"c;\" -- ;\n/* ; */ FROM t]+");
    CHECK_STR_EQ(split_to_string("SELECT 'it''s;' ; x"), "[SELECT 'it''s;']+[x]");
    CHECK_STR_EQ(split_to_string("SELECT 'a\\';' ; x"), "[SELECT 'a\\';']+[x]");
    CHECK_STR_EQ(split_to_string("SELECT 'open; still"), "[SELECT 'open; still]~");
    CHECK_STR_EQ(split_to_string("SELECT 1 /* open; "), "[SELECT 1 /* open; ]~");
    CHECK_STR_EQ(split_to_string("SELECT # ; \xff x"), "[SELECT #]+[\xff x]");
    CHECK_STR_EQ(split_to_string(""), "");
    CHECK_STR_EQ(split_to_string("  -- only a comment\n"), "");
}

TEST(test_text_is_complete_after_its_last_semicolon) {
    CHECK(dl_sql_text_is_complete("SELECT 1;", 9));
    CHECK(dl_sql_text_is_complete("SELECT 1; -- done\n", 18));
    CHECK(!dl_sql_text_is_complete("SELECT 1", 8));
    CHECK(!dl_sql_text_is_complete("SELECT ';", 9));
    CHECK(!dl_sql_text_is_complete("SELECT 1; SELECT", 16));
    CHECK(!dl_sql_text_is_complete("SELECT 1; /* open", 17));
    CHECK(!dl_sql_text_is_complete("", 0));
    CHECK(!dl_sql_text_is_complete(" ; ", 3));
}

TEST(test_offsets_map_to_lines_and_code_point_columns) {
    const char *text = "ab\n\xc3\xa9x\n\nz";
    uint32_t line;
    uint32_t col;
    dl_sql_offset_to_line_col(text, strlen(text), 0, &line, &col);
    CHECK(line == 1 && col == 1);
    dl_sql_offset_to_line_col(text, strlen(text), 2, &line, &col);
    CHECK(line == 1 && col == 3);
    dl_sql_offset_to_line_col(text, strlen(text), 5, &line, &col);
    CHECK(line == 2 && col == 2);
    dl_sql_offset_to_line_col(text, strlen(text), 8, &line, &col);
    CHECK(line == 4 && col == 1);
    dl_sql_offset_to_line_col(text, strlen(text), 999, &line, &col);
    CHECK(line == 4 && col == 2);
}

static const char *
caret(const char *text, int64_t off) {
    static char out[512];
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    if (dl_sql_render_caret(text, strlen(text), off, &buf, NULL) != DL_OK) {
        dl_buf_destroy(&buf);
        return "ERROR";
    }
    (void)snprintf(out, sizeof(out), "%s", dl_buf_cstr(&buf));
    dl_buf_destroy(&buf);
    return out;
}

TEST(test_caret_lines_up_under_the_offset) {
    CHECK_STR_EQ(caret("SELECT x FROM", 9), "SELECT x FROM\n         ^\n");
    CHECK_STR_EQ(caret("a\r\nb c\r\n", 5), "b c\n  ^\n");
    CHECK_STR_EQ(caret("x = '\xc3\xa9' +", 9), "x = '\xc3\xa9' +\n        ^\n");
    CHECK_STR_EQ(caret("\tab", 2), "\tab\n\t ^\n");
    CHECK_STR_EQ(caret("abc", 3), "abc\n   ^\n");
    CHECK_STR_EQ(caret("ab\x01", 0), "ab?\n^\n");
    CHECK_STR_EQ(caret("abc", -1), "");
    char long_line[301];
    memset(long_line, 'a', 300);
    long_line[300] = '\0';
    long_line[150] = 'X';
    const char *out = caret(long_line, 150);
    CHECK(strncmp(out, "...", 3) == 0);
    const char *x = strchr(out, 'X');
    const char *nl = strchr(out, '\n');
    const char *hat = strchr(out, '^');
    CHECK(x != NULL && nl != NULL && hat != NULL);
    CHECK_INT_EQ(hat - (nl + 1), x - out);
    CHECK(strstr(out, "...\n") != NULL);
}

int
main(void) {
    RUN(test_splitter_respects_strings_names_and_comments);
    RUN(test_text_is_complete_after_its_last_semicolon);
    RUN(test_offsets_map_to_lines_and_code_point_columns);
    RUN(test_caret_lines_up_under_the_offset);
    return harness_finish();
}
