/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The lexer: the keyword table, every operator, numbers and the words that look like them,
 * strings, quoted names, comments, positions (line and code-point column) and error tokens.
 */
#include "harness.h"
#include "sql/parse/sql_lex.h"

#define MAX_TOKS 64

/* Lexes text into toks (through EOF); returns the count. */
static int
lex_all(const char *text, dl_sql_token *toks, bool lenient) {
    dl_sql_lexer lx;
    dl_sql_lexer_init(&lx, text, (uint32_t)strlen(text), 0, 1, 1);
    lx.is_lenient = lenient;
    int n = 0;
    do {
        dl_sql_lexer_next(&lx, &toks[n]);
    } while (toks[n++].kind != DL_SQL_TOK_EOF && n < MAX_TOKS);
    return n;
}

static bool
tok_text_is(const char *text, const dl_sql_token *t, const char *want) {
    return t->len == strlen(want) && memcmp(text + t->off, want, t->len) == 0;
}

TEST(test_keyword_table_is_sorted_and_found_in_any_case) {
    for (int kw = 2; kw < DL_SQL_KW_COUNT; kw++) {
        CHECK(strcmp(dl_sql_keyword_name((dl_sql_kw)(kw - 1)), dl_sql_keyword_name((dl_sql_kw)kw)) <
              0);
        dl_str name = dl_str_from_cstr(dl_sql_keyword_name((dl_sql_kw)kw));
        CHECK_INT_EQ(dl_sql_keyword_lookup(name), kw);
    }
    CHECK_INT_EQ(dl_sql_keyword_lookup(DL_STR("select")), DL_SQL_KW_SELECT);
    CHECK_INT_EQ(dl_sql_keyword_lookup(DL_STR("TimeStamp_Ntz")), DL_SQL_KW_TIMESTAMP_NTZ);
    CHECK_INT_EQ(dl_sql_keyword_lookup(DL_STR("selects")), DL_SQL_NO_KW);
    CHECK_INT_EQ(dl_sql_keyword_lookup(DL_STR("")), DL_SQL_NO_KW);
    CHECK_INT_EQ(dl_sql_keyword_lookup(DL_STR("averyveryveryverylongidentifier")), DL_SQL_NO_KW);
    CHECK_INT_EQ(dl_sql_keyword_class(DL_SQL_KW_SELECT), DL_SQL_KWC_R);
    CHECK_INT_EQ(dl_sql_keyword_class(DL_SQL_KW_LIMIT), DL_SQL_KWC_A);
    CHECK_INT_EQ(dl_sql_keyword_class(DL_SQL_KW_VERSION), DL_SQL_KWC_N);
    CHECK_INT_EQ(dl_sql_keyword_class(DL_SQL_KW_TIMESTAMP), DL_SQL_KWC_N);
    CHECK_INT_EQ(dl_sql_keyword_class(DL_SQL_KW_DATE), DL_SQL_KWC_N);
}

TEST(test_every_operator_is_one_token) {
    static const struct {
        const char *text;
        dl_sql_tok_kind kind;
    } ops[] = {
        {"=", DL_SQL_TOK_EQ},       {"==", DL_SQL_TOK_EQEQ},    {"<>", DL_SQL_TOK_NE},
        {"!=", DL_SQL_TOK_BANGEQ},  {"<=>", DL_SQL_TOK_NSEQ},   {"<", DL_SQL_TOK_LT},
        {"<=", DL_SQL_TOK_LE},      {">", DL_SQL_TOK_GT},       {">=", DL_SQL_TOK_GE},
        {"+", DL_SQL_TOK_PLUS},     {"-", DL_SQL_TOK_MINUS},    {"*", DL_SQL_TOK_STAR},
        {"/", DL_SQL_TOK_SLASH},    {"%", DL_SQL_TOK_PERCENT},  {"||", DL_SQL_TOK_CONCAT},
        {"&", DL_SQL_TOK_AMP},      {"|", DL_SQL_TOK_PIPE},     {"^", DL_SQL_TOK_CARET},
        {"~", DL_SQL_TOK_TILDE},    {"!", DL_SQL_TOK_BANG},     {"<<", DL_SQL_TOK_SHL},
        {">>", DL_SQL_TOK_SHR},     {">>>", DL_SQL_TOK_SHRU},   {"::", DL_SQL_TOK_DCOLON},
        {":", DL_SQL_TOK_COLON},    {"->", DL_SQL_TOK_ARROW},   {"=>", DL_SQL_TOK_FATARROW},
        {"?", DL_SQL_TOK_QUESTION}, {"@", DL_SQL_TOK_AT},       {"(", DL_SQL_TOK_LPAREN},
        {")", DL_SQL_TOK_RPAREN},   {"[", DL_SQL_TOK_LBRACKET}, {"]", DL_SQL_TOK_RBRACKET},
        {",", DL_SQL_TOK_COMMA},    {".", DL_SQL_TOK_DOT},      {";", DL_SQL_TOK_SEMI},
    };

    dl_sql_token toks[MAX_TOKS];
    for (size_t i = 0; i < DL_ARRAY_LEN(ops); i++) {
        int n = lex_all(ops[i].text, toks, false);
        CHECK_INT_EQ(n, 2);
        CHECK_INT_EQ(toks[0].kind, ops[i].kind);
        CHECK_INT_EQ(toks[0].len, strlen(ops[i].text));
    }
}

TEST(test_numbers_and_words_take_the_longest_match) {
    static const struct {
        const char *text;
        dl_sql_tok_kind kind;
        uint8_t flags;
    } cases[] = {
        {"10", DL_SQL_TOK_NUMBER, 0},
        {"10L", DL_SQL_TOK_NUMBER, DL_SQL_NUMF_L},
        {"10s", DL_SQL_TOK_NUMBER, DL_SQL_NUMF_S},
        {"10Y", DL_SQL_TOK_NUMBER, DL_SQL_NUMF_Y},
        {"1.5", DL_SQL_TOK_NUMBER, DL_SQL_NUMF_DOT},
        {".5", DL_SQL_TOK_NUMBER, DL_SQL_NUMF_DOT},
        {"5.", DL_SQL_TOK_NUMBER, DL_SQL_NUMF_DOT},
        {"1e10", DL_SQL_TOK_NUMBER, DL_SQL_NUMF_EXP},
        {"1.5E-3", DL_SQL_TOK_NUMBER, DL_SQL_NUMF_DOT | DL_SQL_NUMF_EXP},
        {"1.5bd", DL_SQL_TOK_NUMBER, DL_SQL_NUMF_DOT | DL_SQL_NUMF_BD},
        {"1e3D", DL_SQL_TOK_NUMBER, DL_SQL_NUMF_EXP | DL_SQL_NUMF_D},
        {"2F", DL_SQL_TOK_NUMBER, DL_SQL_NUMF_F},
        {"1a", DL_SQL_TOK_WORD, 0},
        {"2024_sales", DL_SQL_TOK_WORD, 0},
        {"1e", DL_SQL_TOK_WORD, 0},
        {"10Lx", DL_SQL_TOK_WORD, 0},
        {"1e10L", DL_SQL_TOK_WORD, 0},
    };

    dl_sql_token toks[MAX_TOKS];
    for (size_t i = 0; i < DL_ARRAY_LEN(cases); i++) {
        int n = lex_all(cases[i].text, toks, false);
        if (n != 2 || toks[0].kind != cases[i].kind || toks[0].flags != cases[i].flags) {
            printf("  %s: %d tokens, kind %d flags %d\n", cases[i].text, n, toks[0].kind,
                   toks[0].flags);
        }
        CHECK_INT_EQ(n, 2);
        CHECK_INT_EQ(toks[0].kind, cases[i].kind);
        CHECK_INT_EQ(toks[0].flags, cases[i].flags);
    }
    const char *text = "1.5x 1.5L t.a";
    CHECK_INT_EQ(lex_all(text, toks, false), 8);
    CHECK(tok_text_is(text, &toks[0], "1.5") && tok_text_is(text, &toks[1], "x"));
    CHECK(tok_text_is(text, &toks[2], "1.5") && tok_text_is(text, &toks[3], "L"));
    CHECK_INT_EQ(toks[5].kind, DL_SQL_TOK_DOT);
}

TEST(test_strings_names_and_comments) {
    dl_sql_token toks[MAX_TOKS];
    const char *text = "'it''s' \"a\\\"b\" r'x\\' `a``b` /* c /* nested */ */ x -- end\n y";
    int n = lex_all(text, toks, false);
    CHECK_INT_EQ(n, 7);
    CHECK_INT_EQ(toks[0].kind, DL_SQL_TOK_STRING);
    CHECK(tok_text_is(text, &toks[0], "'it''s'"));
    CHECK_INT_EQ(toks[1].kind, DL_SQL_TOK_STRING);
    CHECK(tok_text_is(text, &toks[1], "\"a\\\"b\""));
    CHECK_INT_EQ(toks[2].kind, DL_SQL_TOK_RSTRING);
    CHECK(tok_text_is(text, &toks[2], "r'x\\'"));
    CHECK_INT_EQ(toks[3].kind, DL_SQL_TOK_QIDENT);
    CHECK(tok_text_is(text, &toks[3], "`a``b`"));
    CHECK_INT_EQ(toks[4].kind, DL_SQL_TOK_WORD);
    CHECK(tok_text_is(text, &toks[4], "x"));
    CHECK(tok_text_is(text, &toks[5], "y"));
    CHECK_INT_EQ(toks[5].line, 2);
    CHECK_INT_EQ(toks[5].col, 2);
    text = "X'1F' DATE'2026-01-01'";
    CHECK_INT_EQ(lex_all(text, toks, false), 5);
    CHECK_INT_EQ(toks[0].kind, DL_SQL_TOK_WORD);
    CHECK_INT_EQ(toks[1].kind, DL_SQL_TOK_STRING);
    CHECK_INT_EQ(toks[2].kw, DL_SQL_KW_DATE);
}

TEST(test_positions_count_lines_and_code_points) {
    dl_sql_token toks[MAX_TOKS];
    const char *text = "SELECT 'h\xc3\xa9' ,\n\t\xe2\x82\xac_x";
    int n = lex_all(text, toks, true);
    CHECK_INT_EQ(n, 6);
    CHECK_INT_EQ(toks[2].off, 13);
    CHECK_INT_EQ(toks[2].line, 1);
    CHECK_INT_EQ(toks[2].col, 13);
    CHECK_INT_EQ(toks[3].kind, DL_SQL_TOK_ERROR);
    CHECK_INT_EQ(toks[3].line, 2);
    CHECK_INT_EQ(toks[3].col, 2);
    CHECK_INT_EQ(toks[3].len, 3);
    CHECK_INT_EQ(toks[4].kind, DL_SQL_TOK_WORD);
    CHECK_INT_EQ(toks[4].col, 3);
}

TEST(test_malformed_tokens_become_error_tokens) {
    dl_sql_token toks[MAX_TOKS];
    CHECK_INT_EQ(lex_all("a 'open", toks, false), 3);
    CHECK_INT_EQ(toks[1].kind, DL_SQL_TOK_ERROR);
    CHECK_INT_EQ(toks[1].kw, DL_SQL_LEX_UNTERMINATED_STRING);
    CHECK_INT_EQ(toks[1].off, 2);
    CHECK_INT_EQ(lex_all("`open", toks, false), 2);
    CHECK_INT_EQ(toks[0].kw, DL_SQL_LEX_UNTERMINATED_QIDENT);
    CHECK_INT_EQ(lex_all("x /* /* */", toks, false), 3);
    CHECK_INT_EQ(toks[1].kw, DL_SQL_LEX_UNTERMINATED_COMMENT);
    CHECK_INT_EQ(toks[1].off, 2);
    CHECK_INT_EQ(lex_all("a # b", toks, false), 4);
    CHECK_INT_EQ(toks[1].kind, DL_SQL_TOK_ERROR);
    CHECK_INT_EQ(toks[1].kw, DL_SQL_LEX_BAD_CHAR);
    CHECK_INT_EQ(toks[2].kind, DL_SQL_TOK_WORD);
    CHECK_INT_EQ(lex_all("'a\xff' b", toks, false), 3);
    CHECK_INT_EQ(toks[0].kw, DL_SQL_LEX_BAD_UTF8);
    CHECK_INT_EQ(toks[0].off, 2);
    /* Lenient mode takes any byte inside strings and comments. */
    CHECK_INT_EQ(lex_all("'a\xff' /* \xfe */ b", toks, true), 3);
    CHECK_INT_EQ(toks[0].kind, DL_SQL_TOK_STRING);
    CHECK_STR_EQ(dl_sql_lex_error_text(DL_SQL_LEX_UNTERMINATED_COMMENT), "unterminated comment");
}

int
main(void) {
    RUN(test_keyword_table_is_sorted_and_found_in_any_case);
    RUN(test_every_operator_is_one_token);
    RUN(test_numbers_and_words_take_the_longest_match);
    RUN(test_strings_names_and_comments);
    RUN(test_positions_count_lines_and_code_points);
    RUN(test_malformed_tokens_become_error_tokens);
    return harness_finish();
}
