/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tab completion at the interactive prompt (libedit's readline interface). What is offered
 * depends on where the cursor is:
 *   - inside '...' or after delta.` : file and folder names (paths of tables and files);
 *   - the first word of a line starting with '.': the dot-commands; after .read, .open, .cd,
 *     .output and .once: file names;
 *   - after SET or RESET: the settings deltalite knows (SET -v);
 *   - after FROM, JOIN, INTO, UPDATE, TABLE, DESCRIBE, USING and the like: the tables of the
 *     current schema and the other schemas ("sales.", then the tables in it);
 *   - elsewhere: the columns of the tables the statement names, and SQL keywords (in the case
 *     the word was started in).
 * Names come from the warehouse through the public API as the Tab is pressed, so they are
 * current; a failing lookup offers nothing (and says nothing: the user is typing).
 */
#include <ctype.h>
#include <editline/readline.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "shell/shell_int.h"

static dl_shell *complete_sh;
static const char *pending_text; /* the lines of the statement before the current one */
static size_t pending_len;

/* The candidates of one completion: NUL-separated strings in words. */
static dl_buf words;
static size_t word_pos; /* the generator's position in words */

static const char *const keywords[] = {
    "SELECT",      "FROM",     "WHERE",     "GROUP BY",  "ORDER BY", "HAVING",
    "LIMIT",       "OFFSET",   "JOIN",      "LEFT",      "RIGHT",    "FULL",
    "OUTER",       "INNER",    "CROSS",     "SEMI",      "ANTI",     "ON",
    "USING",       "AS",       "AND",       "OR",        "NOT",      "NULL",
    "IS",          "IN",       "EXISTS",    "BETWEEN",   "LIKE",     "ILIKE",
    "RLIKE",       "CASE",     "WHEN",      "THEN",      "ELSE",     "END",
    "DISTINCT",    "UNION",    "INTERSECT", "EXCEPT",    "ALL",      "WITH",
    "VALUES",      "INSERT",   "INTO",      "OVERWRITE", "UPDATE",   "SET",
    "DELETE",      "MERGE",    "MATCHED",   "CREATE",    "TABLE",    "SCHEMA",
    "DATABASE",    "IF",       "REPLACE",   "ALTER",     "ADD",      "COLUMNS",
    "COLUMN",      "RENAME",   "TO",        "DROP",      "DESCRIBE", "HISTORY",
    "DETAIL",      "EXTENDED", "SHOW",      "TABLES",    "SCHEMAS",  "TBLPROPERTIES",
    "PARTITIONED", "USE",      "RESET",     "RESTORE",   "VERSION",  "TIMESTAMP",
    "OF",          "VACUUM",   "RETAIN",    "HOURS",     "DRY",      "RUN",
    "OPTIMIZE",    "ZORDER",   "EXPLAIN",   "COPY",      "CAST",     "TRUE",
    "FALSE",       "DELTA",    "ASC",       "DESC",      "NULLS",    "FIRST",
    "LAST",        "OVER",     "PARTITION", "WINDOW",    "ROWS",     "RANGE",
    "LATERAL",     "VIEW",     "EXPLODE",
};

/* Words after which a table name comes. */
static const char *const table_words[] = {"FROM",     "JOIN",   "INTO",     "UPDATE",
                                          "TABLE",    "USING",  "DESCRIBE", "DESC",
                                          "OPTIMIZE", "VACUUM", "HISTORY",  "DETAIL"};

static bool
is_word_in(const char *word, size_t len, const char *const *list, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (strlen(list[i]) == len && strncasecmp(list[i], word, len) == 0) {
            return true;
        }
    }
    return false;
}

/* Adds one candidate (prefix, the len bytes at s, suffix) when it starts with text. */
static void
offer(const char *prefix, const char *s, size_t len, const char *suffix, const char *text) {
    size_t n_prefix = strlen(prefix);
    size_t n_text = strlen(text);
    size_t n_common = DL_MIN(n_text, n_prefix);
    if (strncasecmp(prefix, text, n_common) != 0 ||
        (n_text > n_prefix &&
         (len < n_text - n_prefix || strncasecmp(s, text + n_prefix, n_text - n_prefix) != 0))) {
        return;
    }
    (void)(dl_buf_append_cstr(&words, prefix, NULL) == DL_OK &&
           dl_buf_append(&words, s, len, NULL) == DL_OK &&
           dl_buf_append_cstr(&words, suffix, NULL) == DL_OK &&
           dl_buf_append_byte(&words, '\0', NULL) == DL_OK);
}

/* Offers the values of column col of a statement's rows (prefix before each, suffix after). */
static void
offer_rows(const char *sql, const char *col, const char *prefix, const char *suffix,
           const char *text) {
    deltalite_result *r = NULL;
    if (deltalite_query(complete_sh->db, sql, &r) != DELTALITE_OK) {
        deltalite_result_free(r);
        return;
    }
    int32_t pick = 0;
    for (int32_t i = 0; i < deltalite_result_column_count(r); i++) {
        pick = strcmp(deltalite_result_column_name(r, i), col) == 0 ? i : pick;
    }
    bool has_row = false;
    while (deltalite_result_next_row(r, &has_row) == DELTALITE_OK && has_row) {
        const char *v = NULL;
        size_t len = 0;
        if (deltalite_result_get_text(r, pick, &v, &len) == DELTALITE_OK && v != NULL) {
            offer(prefix, v, len, suffix, text);
        }
    }
    deltalite_result_free(r);
}

/* Tables: of the current schema, "schema." for the others, and "schema.t" once text names a
 * schema. */
static void
offer_tables(const char *text) {
    const char *dot = strchr(text, '.');
    if (dot == NULL) {
        offer_rows("SHOW TABLES", "tableName", "", "", text);
        /* a schema is completed with its '.', so that the next Tab lists its tables */
        offer_rows("SHOW SCHEMAS", "namespace", "", ".", text);
        return;
    }
    size_t n = (size_t)(dot - text);
    char schema[256];
    char sql[320];
    if (n == 0 || n >= sizeof(schema) || memchr(text, '`', n) != NULL) {
        return;
    }
    memcpy(schema, text, n);
    schema[n] = '\0';
    (void)snprintf(sql, sizeof(sql), "SHOW TABLES IN `%s`", schema);
    char prefix[260];
    (void)snprintf(prefix, sizeof(prefix), "%s.", schema);
    offer_rows(sql, "tableName", prefix, "", text);
}

/* The word that ends at end (exclusive) in s, skipping blanks before it; its start in *out. */
static size_t
word_before(const char *s, size_t end, size_t *out) {
    while (end > 0 && isspace((unsigned char)s[end - 1])) {
        end--;
    }
    size_t start = end;
    while (start > 0 && (isalnum((unsigned char)s[start - 1]) || s[start - 1] == '_' ||
                         s[start - 1] == '.' || s[start - 1] == '`')) {
        start--;
    }
    *out = start;
    return end - start;
}

/* Offers the columns of each table named after a table word in text (at most 4 tables). */
static void
offer_columns(const char *stmt, size_t len, const char *text) {
    int n_tables = 0;
    for (size_t i = 0; i < len && n_tables < 4; i++) {
        bool is_start = i == 0 || !isalnum((unsigned char)stmt[i - 1]);
        size_t n = 0;
        while (i + n < len && isalpha((unsigned char)stmt[i + n])) {
            n++;
        }
        if (!is_start || n == 0 ||
            !is_word_in(stmt + i, n, table_words, DL_ARRAY_LEN(table_words))) {
            i += n;
            continue;
        }
        size_t from = i + n;
        while (from < len && isspace((unsigned char)stmt[from])) {
            from++;
        }
        size_t to = from;
        while (to < len && (isalnum((unsigned char)stmt[to]) || strchr("_.`/:-", stmt[to]))) {
            to++;
        }
        if (to > from && to - from < 512) {
            char sql[600];
            (void)snprintf(sql, sizeof(sql), "SELECT * FROM %.*s LIMIT 0", (int)(to - from),
                           stmt + from);
            deltalite_result *r = NULL;
            if (deltalite_query(complete_sh->db, sql, &r) == DELTALITE_OK) {
                for (int32_t c = 0; c < deltalite_result_column_count(r); c++) {
                    const char *name = deltalite_result_column_name(r, c);
                    offer("", name, strlen(name), "", text);
                }
                n_tables++;
            }
            deltalite_result_free(r);
        }
        i = to;
    }
}

/* The keyword in lower case into word (cap bytes, NUL-terminated). */
static void
lower_keyword(const char *keyword, char *word, size_t cap) {
    static const char lower[] = "abcdefghijklmnopqrstuvwxyz";
    size_t k = 0;
    for (; keyword[k] != '\0' && k + 1 < cap; k++) {
        word[k] = keyword[k];
        if (keyword[k] >= 'A' && keyword[k] <= 'Z') {
            word[k] = lower[keyword[k] - 'A'];
        }
    }
    word[k] = '\0';
}

static void
offer_keywords(const char *text) {
    bool is_lower = text[0] != '\0' && islower((unsigned char)text[0]);
    for (size_t i = 0; i < DL_ARRAY_LEN(keywords); i++) {
        char word[32];
        lower_keyword(keywords[i], word, sizeof(word));
        const char *shown = is_lower ? word : keywords[i];
        offer("", shown, strlen(shown), "", text);
    }
}

/* Where the cursor is: inside a '...' string, or a `...` name after delta. (a path). */
static bool
is_in_path(const char *line, size_t start) {
    char quote = 0;
    size_t opened = 0;
    for (size_t i = 0; i < start; i++) {
        if (quote == 0 && (line[i] == '\'' || line[i] == '"' || line[i] == '`')) {
            quote = line[i];
            opened = i;
        } else if (line[i] == quote) {
            quote = 0;
        }
    }
    return quote == '\'' || quote == '"' ||
           (quote == '`' && opened >= 6 && strncasecmp(line + opened - 6, "delta.", 6) == 0);
}

static char *
next_word(const char *text, int state) {
    (void)text;
    if (state == 0) {
        word_pos = 0;
    }
    if (word_pos >= words.len) {
        return NULL;
    }
    const char *w = (const char *)words.data + word_pos;
    size_t len = strlen(w);
    word_pos += len + 1;
    return dl_mem_libc_strndup(w, len);
}

/* Fills words for the word text that starts at start of the line. */
static void
collect(const char *line, size_t start, const char *text) {
    size_t prev_start = 0;
    size_t n_prev = word_before(line, start, &prev_start);
    const char *prev = line + prev_start;
    if (line[0] == '.' && n_prev == 0) {
        for (size_t i = 0; dl_shell_dot_name(i) != NULL; i++) {
            const char *name = dl_shell_dot_name(i);
            if (name[0] != '\0') {
                offer("", name, strlen(name), "", text);
            }
        }
        return;
    }
    static const char *const set_words[] = {"SET", "RESET"};
    if (is_word_in(prev, n_prev, set_words, 2)) {
        offer_rows("SET -v", "key", "", "", text);
        return;
    }
    if (is_word_in(prev, n_prev, table_words, DL_ARRAY_LEN(table_words))) {
        offer_tables(text);
        return;
    }
    if (pending_text != NULL) {
        offer_columns(pending_text, pending_len, text);
    }
    offer_columns(line, strlen(line), text);
    offer_keywords(text);
}

/* libedit's matches are the C library's: released with its free, not our allocator. */
static void (*const libc_release)(void *) = free;

/* File names, folders with a '/' after them (so that the next Tab goes inside). */
static char *
next_path(const char *text, int state) {
    char *name = rl_filename_completion_function(text, state);
    struct stat st;
    if (name == NULL || stat(name, &st) != 0 || !S_ISDIR(st.st_mode)) {
        return name;
    }
    size_t len = strlen(name);
    char *with_slash = dl_mem_libc_strndup(name, len + 1);
    if (with_slash != NULL) {
        with_slash[len] = '/';
    }
    libc_release(name);
    return with_slash;
}

static char **
complete(const char *text, int start, int end) {
    (void)end;
    const char *line = rl_line_buffer;
    static const char *const file_commands[] = {".read", ".open", ".cd", ".output", ".once"};
    size_t n_first = strcspn(line, " \t");
    bool is_file_arg = line[0] == '.' && (size_t)start > n_first &&
                       is_word_in(line, n_first, file_commands, DL_ARRAY_LEN(file_commands));
    if (is_file_arg || is_in_path(line, (size_t)start)) {
        rl_completion_append_character = '\0'; /* the user closes the quote */
        return rl_completion_matches(text, next_path);
    }
    dl_buf_reset(&words);
    collect(line, (size_t)start, text);
    rl_attempted_completion_over = 1; /* no file names where they make no sense */
    bool is_one =
        words.len > 0 && memchr(words.data, '\0', words.len) == words.data + words.len - 1;
    /* a lone "schema." is followed by its tables, not by a blank */
    rl_completion_append_character = is_one && words.data[words.len - 2] == '.' ? '\0' : ' ';
    return words.len > 0 ? rl_completion_matches(text, next_word) : NULL;
}

void
dl_shell_complete_init(dl_shell *sh) {
    complete_sh = sh;
    dl_buf_init(&words, NULL);
    rl_attempted_completion_function = complete;
    rl_basic_word_break_characters = " \t\n\"'`@$><=;|&{(,)";
}

void
dl_shell_complete_pending(const char *text, size_t len) {
    pending_text = text;
    pending_len = len;
}

void
dl_shell_complete_destroy(void) {
    dl_buf_destroy(&words);
    complete_sh = NULL;
}
