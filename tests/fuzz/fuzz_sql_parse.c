/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target for the SQL lexer, parser and printer (src/sql/).
 *
 * Property checked, on any input bytes:
 *   1. Parsing the input as a script never crashes, overflows the stack, reads out of bounds,
 *      triggers undefined behaviour or leaks (ASan + UBSan + LSan). A refusal is SQL_SYNTAX,
 *      LIMIT or UNSUPPORTED with "... at line L, column C: ..." in the message and
 *      0 <= err.offset <= size, and the caret display of that offset works.
 *   2. Every accepted statement printed canonically parses again as exactly one statement
 *      whose canonical text is the same (round trip: print is a fixed point of parse.print).
 *   3. The input parsed as a lone expression obeys 1 and 2 as well.
 *   4. The statement splitter covers the input with ordered, in-bounds pieces, and
 *      dl_sql_text_is_complete answers without failing.
 * A violation aborts, so libFuzzer records the input.
 */
#include <stdio.h>
#include <stdlib.h>

#include "sql/parse/sql_parse.h"

#define FUZZ_ASSERT(cond)                                                                     \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            (void)fprintf(stderr, "fuzz_sql_parse: property violated: %s (line %d)\n", #cond, \
                          __LINE__);                                                          \
            abort();                                                                          \
        }                                                                                     \
    } while (0)

/* libFuzzer's fixed entry point name. */
// NOLINTNEXTLINE(readability-identifier-naming)
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_refusal(dl_status s, const dl_error *err, const char *text, size_t size) {
    FUZZ_ASSERT(s == DL_ERR_SQL_SYNTAX || s == DL_ERR_LIMIT || s == DL_ERR_UNSUPPORTED);
    FUZZ_ASSERT(err->code == s);
    FUZZ_ASSERT(err->offset >= 0 && (size_t)err->offset <= size);
    FUZZ_ASSERT(strstr(err->msg, " at line ") != NULL);
    FUZZ_ASSERT(strstr(err->msg, ", column ") != NULL);
    dl_buf caret;
    dl_buf_init(&caret, NULL);
    FUZZ_ASSERT(dl_sql_render_caret(text, size, err->offset, &caret, NULL) == DL_OK);
    FUZZ_ASSERT(caret.len >= 2);
    dl_buf_destroy(&caret);
}

static void
report_mismatch(const char *what, const dl_buf *a, const char *b) {
    (void)fprintf(stderr, "fuzz_sql_parse: %s\n  first:  %.*s\n  second: %s\n", what, (int)a->len,
                  (const char *)a->data, b);
}

/* print(stmt) parses as one statement that prints the same. */
static void
check_stmt_round_trip(const dl_sql_stmt *stmt) {
    dl_arena arena;
    dl_buf text1;
    dl_buf text2;
    dl_error err;
    dl_sql_stmt *again;
    dl_arena_init(&arena, NULL, 0);
    dl_buf_init(&text1, NULL);
    dl_buf_init(&text2, NULL);
    FUZZ_ASSERT(dl_sql_stmt_print(stmt, &text1, &err) == DL_OK);
    dl_status s = dl_sql_parse_stmt(&arena, (const char *)text1.data, text1.len, &again, &err);
    if (s != DL_OK) {
        report_mismatch("canonical text does not parse", &text1, err.msg);
    }
    FUZZ_ASSERT(s == DL_OK);
    FUZZ_ASSERT(dl_sql_stmt_print(again, &text2, &err) == DL_OK);
    if (!dl_str_eq(dl_buf_view(&text1), dl_buf_view(&text2))) {
        report_mismatch("canonical text is not stable", &text1, dl_buf_cstr(&text2));
        FUZZ_ASSERT(false);
    }
    dl_buf_destroy(&text2);
    dl_buf_destroy(&text1);
    dl_arena_destroy(&arena);
}

static void
check_expr(const char *text, size_t size) {
    dl_arena arena;
    dl_error err;
    dl_sql_expr *e;
    dl_arena_init(&arena, NULL, 0);
    dl_status s = dl_sql_parse_expr_text(&arena, text, size, &e, &err);
    if (s != DL_OK) {
        check_refusal(s, &err, text, size);
    } else {
        dl_buf text1;
        dl_buf text2;
        dl_sql_expr *again;
        dl_buf_init(&text1, NULL);
        dl_buf_init(&text2, NULL);
        FUZZ_ASSERT(dl_sql_expr_print(e, &text1, &err) == DL_OK);
        s = dl_sql_parse_expr_text(&arena, (const char *)text1.data, text1.len, &again, &err);
        if (s != DL_OK) {
            report_mismatch("canonical expression does not parse", &text1, err.msg);
        }
        FUZZ_ASSERT(s == DL_OK);
        FUZZ_ASSERT(dl_sql_expr_print(again, &text2, &err) == DL_OK);
        if (!dl_str_eq(dl_buf_view(&text1), dl_buf_view(&text2))) {
            report_mismatch("canonical expression is not stable", &text1, dl_buf_cstr(&text2));
            FUZZ_ASSERT(false);
        }
        dl_buf_destroy(&text2);
        dl_buf_destroy(&text1);
    }
    dl_arena_destroy(&arena);
}

static void
check_splitter(const char *text, size_t size) {
    dl_sql_splitter sp;
    dl_sql_piece piece;
    size_t last_end = 0;
    dl_sql_splitter_init(&sp, text, size);
    while (dl_sql_splitter_next(&sp, &piece)) {
        FUZZ_ASSERT(piece.offset >= last_end);
        FUZZ_ASSERT(piece.len > 0 && piece.offset + piece.len <= size);
        last_end = piece.offset + piece.len;
    }
    (void)dl_sql_text_is_complete(text, size);
}

int
// NOLINTNEXTLINE(readability-identifier-naming)
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *text = (const char *)data;
    dl_arena arena;
    dl_error err;
    dl_sql_script script;
    dl_arena_init(&arena, NULL, 0);
    dl_status s = dl_sql_parse(&arena, text, size, &script, &err);
    if (s != DL_OK) {
        check_refusal(s, &err, text, size);
    } else {
        for (uint32_t i = 0; i < script.n_stmts; i++) {
            FUZZ_ASSERT(script.stmts[i]->loc <= script.stmts[i]->end);
            FUZZ_ASSERT(script.stmts[i]->end <= size);
            check_stmt_round_trip(script.stmts[i]);
        }
    }
    dl_arena_destroy(&arena);
    check_expr(text, size);
    check_splitter(text, size);
    return 0;
}
