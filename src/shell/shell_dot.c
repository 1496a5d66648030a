/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Dot-commands: lines starting with '.' that the shell itself answers (sqlite3's and DuckDB's
 * convention). They are recognised at the start of a line, also while a statement continues
 * (the statement stays pending). Arguments are separated by blanks; "..." or '...' quotes one
 * holding blanks. The commands are the table below, which .help prints.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shell/shell_int.h"

#define MAX_ARGS (DL_SHELL_MAX_WIDTHS + 2)

typedef bool (*dot_fn)(dl_shell *sh, char **w, int n, const char *rest);

typedef struct dot_cmd {
    const char *name;  /* ".mode" */
    const char *alias; /* another name, or NULL */
    dot_fn fn;
    const char *usage; /* "[MODE] [TABLE]" */
    const char *help;
} dot_cmd;

bool
dl_shell_fail(dl_shell *sh, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    (void)fprintf(sh->err, "Error: ");
    (void)vfprintf(sh->err, fmt, ap);
    (void)fprintf(sh->err, "\n");
    va_end(ap);
    sh->n_failed++;
    return false;
}

/* Splits line into at most MAX_ARGS words (in place, in buf), "..." and '...' quoting.
 * Returns the count, or -1 for an unclosed quote. */
static int
split_words(char *buf, char **words) {
    int n = 0;
    char *p = buf;
    while (*p != '\0' && n < MAX_ARGS) {
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') {
            p++;
        }
        if (*p == '\0') {
            break;
        }
        if (*p == '"' || *p == '\'') {
            char quote = *p++;
            words[n++] = p;
            while (*p != '\0' && *p != quote) {
                p++;
            }
            if (*p == '\0') {
                return -1;
            }
            *p++ = '\0';
            continue;
        }
        words[n++] = p;
        while (*p != '\0' && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n') {
            p++;
        }
        if (*p != '\0') {
            *p++ = '\0';
        }
    }
    return n;
}

static bool
parse_int(const char *s, long long lo, long long hi, long long *out) {
    char *end = NULL;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi) {
        return false;
    }
    *out = v;
    return true;
}

/* "on"/"off" (also true/false, yes/no, 1/0) into *flag; no word shows it. */
static bool
on_off(dl_shell *sh, char **w, int n, bool *flag) {
    if (n < 2) {
        (void)fprintf(sh->out, "%s\n", *flag ? "on" : "off");
        return true;
    }
    static const char *const ons[] = {"on", "true", "yes", "1"};
    static const char *const offs[] = {"off", "false", "no", "0"};
    for (size_t i = 0; i < DL_ARRAY_LEN(ons); i++) {
        if (strcasecmp(w[1], ons[i]) == 0 || strcasecmp(w[1], offs[i]) == 0) {
            *flag = strcasecmp(w[1], ons[i]) == 0;
            return true;
        }
    }
    return dl_shell_fail(sh, "%s: expected on or off, got '%s'", w[0], w[1]);
}

/* Prints one column (named col, else the first) of a listing statement, one value a line. */
static bool
list_column(dl_shell *sh, const char *sql, const char *col) {
    deltalite_result *r = NULL;
    if (deltalite_query(sh->db, sql, &r) != DELTALITE_OK) {
        dl_shell_print_error(sh, NULL, 0);
        sh->n_failed++;
        return false;
    }
    int32_t pick = 0;
    for (int32_t i = 0; i < deltalite_result_column_count(r); i++) {
        if (strcmp(deltalite_result_column_name(r, i), col) == 0) {
            pick = i;
        }
    }
    bool has_row = false;
    deltalite_status ds = DELTALITE_OK;
    while ((ds = deltalite_result_next_row(r, &has_row)) == DELTALITE_OK && has_row) {
        const char *text = NULL;
        if (deltalite_result_get_text(r, pick, &text, NULL) == DELTALITE_OK && text != NULL) {
            (void)fprintf(sh->out, "%s\n", text);
        }
    }
    deltalite_result_free(r);
    if (ds != DELTALITE_OK) {
        dl_shell_print_error(sh, NULL, 0);
        sh->n_failed++;
        return false;
    }
    return true;
}

/* ---- the commands ------------------------------------------------------------------------ */

static bool cmd_help(dl_shell *sh, char **w, int n, const char *rest);

static bool
cmd_quit(dl_shell *sh, char **w, int n, const char *rest) {
    (void)w, (void)n, (void)rest;
    sh->should_quit = true;
    return true;
}

static bool
cmd_mode(dl_shell *sh, char **w, int n, const char *rest) {
    (void)rest;
    if (n < 2) {
        (void)fprintf(sh->out, "%s\n", dl_shell_mode_name(sh->mode));
        return true;
    }
    dl_shell_mode mode;
    if (!dl_shell_mode_parse(w[1], &mode)) {
        return dl_shell_fail(sh, ".mode: unknown mode '%s' (%s)", w[1], dl_shell_mode_list());
    }
    if (n >= 3 && mode != DL_SHELL_MODE_INSERT) {
        return dl_shell_fail(sh, ".mode %s takes no table name (only .mode insert TABLE does)",
                             dl_shell_mode_name(mode));
    }
    if (n >= 3 && strlen(w[2]) >= sizeof(sh->insert_table)) {
        return dl_shell_fail(sh, ".mode insert: the table name is longer than %zu bytes",
                             sizeof(sh->insert_table) - 1);
    }
    sh->mode = mode;
    if (mode == DL_SHELL_MODE_INSERT) {
        (void)snprintf(sh->insert_table, sizeof(sh->insert_table), "%s", n >= 3 ? w[2] : "tbl");
    }
    return true;
}

static bool
cmd_limit(dl_shell *sh, char **w, int n, const char *rest) {
    (void)rest;
    long long v = 0;
    bool is_rows = strcmp(w[0], ".maxrows") == 0;
    if (n < 2) {
        (void)fprintf(sh->out, "%lld\n",
                      is_rows ? (long long)sh->max_rows : (long long)sh->max_width);
        return true;
    }
    if (!parse_int(w[1], is_rows ? -1 : 0, is_rows ? INT64_MAX : 100000, &v)) {
        return dl_shell_fail(sh, "%s: expected a number", w[0]);
    }
    if (is_rows) {
        sh->max_rows = v;
    } else {
        sh->max_width = (int32_t)v;
        sh->is_width_auto = false;
    }
    return true;
}

static bool
cmd_width(dl_shell *sh, char **w, int n, const char *rest) {
    (void)rest;
    if (n < 2) {
        for (int32_t i = 0; i < sh->n_widths; i++) {
            (void)fprintf(sh->out, "%s%d", i > 0 ? " " : "", (int)sh->widths[i]);
        }
        (void)fputs(sh->n_widths > 0 ? "\n" : "(natural widths)\n", sh->out);
        return true;
    }
    int32_t widths[DL_SHELL_MAX_WIDTHS];
    if (n - 1 > DL_SHELL_MAX_WIDTHS) {
        return dl_shell_fail(sh, ".width: at most %d widths", DL_SHELL_MAX_WIDTHS);
    }
    for (int i = 1; i < n; i++) {
        long long v = 0;
        if (!parse_int(w[i], 0, 10000, &v)) {
            return dl_shell_fail(sh, ".width: '%s' is not a width from 0 (natural) to 10000", w[i]);
        }
        widths[i - 1] = (int32_t)v;
    }
    memcpy(sh->widths, widths, sizeof(int32_t) * (size_t)(n - 1));
    sh->n_widths = n - 1;
    return true;
}

static bool
cmd_flag(dl_shell *sh, char **w, int n, const char *rest) {
    (void)rest;
    bool *flag = strcmp(w[0], ".timer") == 0     ? &sh->timer
                 : strcmp(w[0], ".echo") == 0    ? &sh->echo
                 : strcmp(w[0], ".bail") == 0    ? &sh->bail
                 : strcmp(w[0], ".changes") == 0 ? &sh->changes
                                                 : &sh->headers;
    return on_off(sh, w, n, flag);
}

/* .progress [on|off] [DELAY_MS]: the bar, and how long a statement runs before it appears. */
static bool
cmd_progress(dl_shell *sh, char **w, int n, const char *rest) {
    (void)rest;
    long long delay = 0;
    if (n >= 3 && !parse_int(w[2], 0, 3600000, &delay)) {
        return dl_shell_fail(sh, ".progress: '%s' is not a delay in milliseconds (0 to 3600000)",
                             w[2]);
    }
    if (n < 2) {
        (void)fprintf(sh->out, "%s (after %lld ms)\n", sh->progress ? "on" : "off",
                      (long long)sh->progress_ms);
        return true;
    }
    if (!on_off(sh, w, 2, &sh->progress)) {
        return false;
    }
    if (n >= 3) {
        sh->progress_ms = delay;
    }
    return true;
}

static bool
cmd_nullvalue(dl_shell *sh, char **w, int n, const char *rest) {
    (void)rest;
    if (n < 2) {
        (void)fprintf(sh->out, "%s\n", sh->has_null_text ? sh->null_text : "(each mode's own)");
        return true;
    }
    if (strlen(w[1]) >= sizeof(sh->null_text)) {
        return dl_shell_fail(sh, ".nullvalue: at most %zu bytes", sizeof(sh->null_text) - 1);
    }
    (void)snprintf(sh->null_text, sizeof(sh->null_text), "%s", w[1]);
    sh->has_null_text = true;
    return true;
}

static bool
cmd_prompt(dl_shell *sh, char **w, int n, const char *rest) {
    (void)rest;
    if (n < 2) {
        (void)fprintf(sh->out, "\"%s\" \"%s\"\n", sh->prompt, sh->prompt_cont);
        return true;
    }
    if (strlen(w[1]) >= sizeof(sh->prompt) || (n >= 3 && strlen(w[2]) >= sizeof(sh->prompt))) {
        return dl_shell_fail(sh, ".prompt: at most %zu bytes", sizeof(sh->prompt) - 1);
    }
    (void)snprintf(sh->prompt, sizeof(sh->prompt), "%s", w[1]);
    if (n >= 3) {
        (void)snprintf(sh->prompt_cont, sizeof(sh->prompt_cont), "%s", w[2]);
    }
    return true;
}

static bool
cmd_cd(dl_shell *sh, char **w, int n, const char *rest) {
    (void)rest;
    if (n < 2) {
        return dl_shell_fail(sh, ".cd: expected a folder");
    }
    if (chdir(w[1]) != 0) {
        return dl_shell_fail(sh, ".cd: cannot change to '%s': %s", w[1], strerror(errno));
    }
    return true;
}

static bool
cmd_shell(dl_shell *sh, char **w, int n, const char *rest) {
    if (n < 2) {
        return dl_shell_fail(sh, "%s: expected a command", w[0]);
    }
    (void)fflush(sh->out);
    int status = system(rest);
    if (status != 0) {
        return dl_shell_fail(sh, "%s: the command exited with status %d", w[0],
                             status > 255 ? status >> 8 : status);
    }
    return true;
}

static bool
is_folder(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool
cmd_open(dl_shell *sh, char **w, int n, const char *rest) {
    (void)rest;
    if (n < 2) {
        return dl_shell_fail(sh, ".open: expected a warehouse folder");
    }
    if (!is_folder(w[1])) {
        return dl_shell_fail(sh,
                             ".open: '%s' is not a warehouse folder (it does not exist, or "
                             "is not a folder); create it first (mkdir) to start a new one",
                             w[1]);
    }
    deltalite_options opts = {.flags = sh->open_flags & ~(uint32_t)DELTALITE_OPEN_CREATE};
    deltalite_db *db = NULL;
    if (deltalite_open(w[1], &opts, &db) != DELTALITE_OK) {
        (void)fprintf(sh->err, "Error: %s\n", deltalite_error_message(db));
        (void)deltalite_close(db);
        sh->n_failed++;
        return false;
    }
    if (deltalite_close(sh->db) != DELTALITE_OK) {
        (void)deltalite_close(db);
        return dl_shell_fail(sh, "%s", deltalite_error_message(sh->db));
    }
    sh->db = db;
    return true;
}

static bool
cmd_read(dl_shell *sh, char **w, int n, const char *rest) {
    (void)rest;
    if (n < 2) {
        return dl_shell_fail(sh, ".read: expected a file name");
    }
    FILE *f = fopen(w[1], "rb");
    if (f == NULL) {
        return dl_shell_fail(sh, ".read: cannot open '%s': %s", w[1], strerror(errno));
    }
    bool was_interactive = sh->is_interactive;
    sh->is_interactive = false;
    bool ok = dl_shell_run_file(sh, f, w[1]);
    sh->is_interactive = was_interactive;
    (void)fclose(f);
    return ok;
}

/* Appends s as the body of a SQL string literal ('' and \\ escaped). */
static dl_status
append_sql_string(dl_buf *b, const char *s) {
    dl_status st = DL_OK;
    for (; *s != '\0' && st == DL_OK; s++) {
        st = (*s == '\'' || *s == '\\') ? dl_buf_append_byte(b, '\\', NULL) : DL_OK;
        st = st == DL_OK ? dl_buf_append_byte(b, (uint8_t)*s, NULL) : st;
    }
    return st;
}

/* .import FILE TABLE [OPTION=VALUE ...]: the CSV file's rows into TABLE through read_csv
 * (header and inferSchema on unless given): CREATE TABLE ... AS when TABLE does not exist,
 * else INSERT INTO (columns by position, cast as INSERT casts). */
static bool
cmd_import(dl_shell *sh, char **w, int n, const char *rest) {
    (void)rest;
    if (n < 3) {
        return dl_shell_fail(sh, ".import: expected FILE TABLE [OPTION=VALUE ...]");
    }
    dl_buf src;
    dl_buf_init(&src, NULL);
    bool has_header = false;
    bool has_infer = false;
    dl_status st = dl_buf_append_cstr(&src, "read_csv('", NULL);
    st = st == DL_OK ? append_sql_string(&src, w[1]) : st;
    st = st == DL_OK ? dl_buf_append_cstr(&src, "'", NULL) : st;
    for (int i = 3; i < n && st == DL_OK; i++) {
        char *eq = strchr(w[i], '=');
        if (eq == NULL || eq == w[i]) {
            dl_buf_destroy(&src);
            return dl_shell_fail(sh, ".import: options are OPTION=VALUE (e.g. sep=;), not '%s'",
                                 w[i]);
        }
        *eq = '\0';
        has_header = has_header || strcasecmp(w[i], "header") == 0;
        has_infer = has_infer || strcasecmp(w[i], "inferSchema") == 0;
        st = dl_buf_appendf(&src, NULL, ", `%s` => '", w[i]);
        st = st == DL_OK ? append_sql_string(&src, eq + 1) : st;
        st = st == DL_OK ? dl_buf_append_cstr(&src, "'", NULL) : st;
    }
    st = st == DL_OK && !has_header ? dl_buf_append_cstr(&src, ", header => true", NULL) : st;
    st = st == DL_OK && !has_infer ? dl_buf_append_cstr(&src, ", inferSchema => true", NULL) : st;
    char probe[600];
    int len = snprintf(probe, sizeof(probe), "SELECT 1 FROM %s LIMIT 0", w[2]);
    if (st != DL_OK || len < 0 || (size_t)len >= sizeof(probe)) {
        dl_buf_destroy(&src);
        return dl_shell_fail(sh, ".import: the table name or options are too long");
    }
    deltalite_result *r = NULL;
    bool exists = deltalite_query(sh->db, probe, &r) == DELTALITE_OK;
    deltalite_result_free(r);
    dl_buf sql;
    dl_buf_init(&sql, NULL);
    st = dl_buf_appendf(&sql, NULL,
                        exists ? "INSERT INTO %s SELECT * FROM %s)"
                               : "CREATE TABLE %s AS SELECT * FROM %s)",
                        w[2], dl_buf_cstr(&src));
    bool ok = st == DL_OK && dl_shell_run_sql(sh, (const char *)sql.data, sql.len, NULL, 0);
    dl_buf_destroy(&sql);
    dl_buf_destroy(&src);
    return ok;
}

static bool
cmd_tables(dl_shell *sh, char **w, int n, const char *rest) {
    (void)rest;
    char sql[512];
    if (n >= 2) {
        int len = snprintf(sql, sizeof(sql), "SHOW TABLES IN `%s`", w[1]);
        if (len < 0 || (size_t)len >= sizeof(sql) || strchr(w[1], '`') != NULL) {
            return dl_shell_fail(sh, ".tables: bad schema name '%s'", w[1]);
        }
    } else {
        (void)snprintf(sql, sizeof(sql), "SHOW TABLES");
    }
    return list_column(sh, sql, "tableName");
}

/* Prints SHOW CREATE TABLE of one table (name as SQL), ended by ';'. */
static bool
print_create(dl_shell *sh, const char *name) {
    char sql[600];
    (void)snprintf(sql, sizeof(sql), "SHOW CREATE TABLE %s", name);
    deltalite_result *r = NULL;
    bool has_row = false;
    const char *text = NULL;
    bool ok = deltalite_query(sh->db, sql, &r) == DELTALITE_OK &&
              deltalite_result_next_row(r, &has_row) == DELTALITE_OK && has_row &&
              deltalite_result_get_text(r, 0, &text, NULL) == DELTALITE_OK && text != NULL;
    if (ok) {
        size_t len = strlen(text);
        while (len > 0 && text[len - 1] == '\n') {
            len--;
        }
        (void)fprintf(sh->out, "%.*s;\n", (int)len, text);
    } else {
        dl_shell_print_error(sh, NULL, 0);
        sh->n_failed++;
    }
    deltalite_result_free(r);
    return ok;
}

/* .schema [TABLE]: the CREATE statement of the table, or of every table of the current
 * schema (from SHOW CREATE TABLE: the schema, partitioning and properties). */
static bool
cmd_schema(dl_shell *sh, char **w, int n, const char *rest) {
    (void)rest;
    if (n >= 2) {
        if (strlen(w[1]) > 500) {
            return dl_shell_fail(sh, ".schema: the table name is longer than 500 bytes");
        }
        return print_create(sh, w[1]);
    }
    deltalite_result *r = NULL;
    if (deltalite_query(sh->db, "SHOW TABLES", &r) != DELTALITE_OK) {
        dl_shell_print_error(sh, NULL, 0);
        sh->n_failed++;
        return false;
    }
    dl_buf names;
    dl_buf_init(&names, NULL);
    bool has_row = false;
    bool ok = true;
    while (ok && deltalite_result_next_row(r, &has_row) == DELTALITE_OK && has_row) {
        const char *t = NULL;
        ok = deltalite_result_get_text(r, 1, &t, NULL) == DELTALITE_OK && t != NULL &&
             strchr(t, '`') == NULL && dl_buf_appendf(&names, NULL, "`%s`", t) == DL_OK &&
             dl_buf_append_byte(&names, '\0', NULL) == DL_OK;
    }
    deltalite_result_free(r);
    for (size_t at = 0; ok && at < names.len; at += strlen((const char *)names.data + at) + 1) {
        ok = print_create(sh, (const char *)names.data + at);
    }
    dl_buf_destroy(&names);
    return ok;
}

static bool
cmd_schemas(dl_shell *sh, char **w, int n, const char *rest) {
    (void)w, (void)n, (void)rest;
    return list_column(sh, "SHOW SCHEMAS", "namespace");
}

static bool
cmd_warehouse(dl_shell *sh, char **w, int n, const char *rest) {
    (void)w, (void)n, (void)rest;
    (void)fprintf(sh->out, "%s\n", deltalite_warehouse(sh->db));
    return true;
}

static bool
cmd_show(dl_shell *sh, char **w, int n, const char *rest) {
    (void)w, (void)n, (void)rest;
    FILE *o = sh->out;
    (void)fprintf(o, "%12s: %s\n", "warehouse", deltalite_warehouse(sh->db));
    (void)fprintf(o, "%12s: %s\n", "readonly", sh->is_readonly ? "on" : "off");
    (void)fprintf(o, "%12s: %s", "mode", dl_shell_mode_name(sh->mode));
    (void)fprintf(o, sh->mode == DL_SHELL_MODE_INSERT ? " %s\n" : "\n", sh->insert_table);
    (void)fprintf(o, "%12s: %s\n", "headers", sh->headers ? "on" : "off");
    (void)fprintf(o, "%12s: %s\n", "nullvalue", sh->has_null_text ? sh->null_text : "NULL");
    (void)fprintf(o, "%12s: %lld\n", "maxrows", (long long)sh->max_rows);
    (void)fprintf(o, "%12s: %d\n", "maxwidth", (int)sh->max_width);
    (void)fprintf(o, "%12s:", "width");
    for (int32_t i = 0; i < sh->n_widths; i++) {
        (void)fprintf(o, " %d", (int)sh->widths[i]);
    }
    (void)fprintf(o, "\n%12s: %s\n", "output", sh->out_path[0] ? sh->out_path : "stdout");
    (void)fprintf(o, "%12s: %s\n", "timer", sh->timer ? "on" : "off");
    (void)fprintf(o, "%12s: %s\n", "echo", sh->echo ? "on" : "off");
    (void)fprintf(o, "%12s: %s\n", "progress", sh->progress ? "on" : "off");
    (void)fprintf(o, "%12s: %s\n", "bail", sh->bail ? "on" : "off");
    (void)fprintf(o, "%12s: %s\n", "changes", sh->changes ? "on" : "off");
    (void)fprintf(o, "%12s: \"%s\" \"%s\"\n", "prompt", sh->prompt, sh->prompt_cont);
    return true;
}

static const dot_cmd commands[] = {
    {".help", NULL, cmd_help, "", "show this help"},
    {".quit", ".exit", cmd_quit, "", "leave the shell"},
    {".mode", NULL, cmd_mode, "[MODE] [TABLE]",
     "show or set the output format: box, table, csv, json, jsonlines, markdown, line, list, "
     "tabs, html, insert (INSERT INTO TABLE statements)"},
    {".headers", ".header", cmd_flag, "[on|off]", "column names in the output (on)"},
    {".nullvalue", NULL, cmd_nullvalue, "[TEXT]", "show NULL as TEXT (not in JSON or insert)"},
    {".width", NULL, cmd_width, "[N...]", "box and table: column widths (0: natural)"},
    {".maxrows", NULL, cmd_limit, "[N]", "box and table: show at most N rows (-1: all)"},
    {".maxwidth", NULL, cmd_limit, "[N]", "box and table: fit in N columns (0: no limit)"},
    {".output", NULL, dl_shell_cmd_output, "[FILE]", "write results to FILE (none: the screen)"},
    {".once", NULL, dl_shell_cmd_output, "FILE", "write the next statement's results to FILE"},
    {".timer", NULL, cmd_flag, "[on|off]", "show each statement's real, user and system time"},
    {".echo", NULL, cmd_flag, "[on|off]", "print each statement before running it"},
    {".progress", NULL, cmd_progress, "[on|off] [MS]",
     "a progress bar on statements running longer than MS (1000) milliseconds"},
    {".bail", NULL, cmd_flag, "[on|off]", "stop a script at the first failing statement"},
    {".changes", NULL, cmd_flag, "[on|off]",
     "show the row counts of INSERT, UPDATE, DELETE and MERGE (on)"},
    {".tables", NULL, cmd_tables, "[SCHEMA]", "list the tables of the current (or given) schema"},
    {".schema", NULL, cmd_schema, "[TABLE]", "the CREATE TABLE statement of TABLE (or of all)"},
    {".schemas", NULL, cmd_schemas, "", "list the schemas"},
    {".warehouse", NULL, cmd_warehouse, "", "show the warehouse folder"},
    {".open", NULL, cmd_open, "WAREHOUSE", "close this warehouse and open another (a folder)"},
    {".read", NULL, cmd_read, "FILE", "run the SQL in FILE"},
    {".import", NULL, cmd_import, "FILE TABLE [OPT=VAL...]",
     "load a CSV file into TABLE (created when missing) through read_csv"},
    {".cd", NULL, cmd_cd, "DIR", "change the working folder"},
    {".shell", ".system", cmd_shell, "CMD...", "run CMD in the system shell"},
    {".prompt", NULL, cmd_prompt, "MAIN [CONTINUE]", "set the prompts"},
    {".show", NULL, cmd_show, "", "show the current settings"},
};

static bool
cmd_help(dl_shell *sh, char **w, int n, const char *rest) {
    (void)w, (void)n, (void)rest;
    for (size_t i = 0; i < DL_ARRAY_LEN(commands); i++) {
        const dot_cmd *c = &commands[i];
        char head[64];
        (void)snprintf(head, sizeof(head), "%s%s%s %s", c->name, c->alias ? ", " : "",
                       c->alias ? c->alias : "", c->usage);
        (void)fprintf(sh->out, "%-27s %s\n", head, c->help);
    }
    (void)fputs("\nEnd SQL statements with ';'. Tables are folders of the warehouse; other "
                "schemas are\n<schema>.db folders; read any Delta table by path with "
                "delta.`/path/to/table`.\n",
                sh->out);
    return true;
}

static const dot_cmd *
find_command(const char *name, size_t len) {
    for (size_t i = 0; i < DL_ARRAY_LEN(commands); i++) {
        const dot_cmd *c = &commands[i];
        if ((strlen(c->name) == len && strncmp(c->name, name, len) == 0) ||
            (c->alias != NULL && strlen(c->alias) == len && strncmp(c->alias, name, len) == 0)) {
            return c;
        }
    }
    return NULL;
}

bool
dl_shell_is_dot_command(const char *line) {
    while (*line == ' ' || *line == '\t') {
        line++;
    }
    size_t len = strcspn(line, " \t\r\n");
    return line[0] == '.' && find_command(line, len) != NULL;
}

const char *
dl_shell_dot_name(size_t i) {
    if (i >= 2 * DL_ARRAY_LEN(commands)) {
        return NULL;
    }
    const dot_cmd *c = &commands[i / 2];
    return i % 2 == 0 ? c->name : (c->alias ? c->alias : "");
}

bool
dl_shell_dot_command(dl_shell *sh, const char *line) {
    if (sh->echo) {
        (void)fprintf(sh->out, "%s\n", line);
    }
    char buf[1024];
    int line_len = snprintf(buf, sizeof(buf), "%s", line);
    if (line_len < 0 || (size_t)line_len >= sizeof(buf)) {
        return dl_shell_fail(sh, "the dot-command line is %d bytes; at most %zu are read", line_len,
                             sizeof(buf) - 1);
    }
    const char *rest = line + strspn(line, " \t");
    rest += strcspn(rest, " \t");
    rest += strspn(rest, " \t");
    char *w[MAX_ARGS];
    int n = split_words(buf, w);
    if (n < 0) {
        return dl_shell_fail(sh, "the dot-command line has an unclosed quote");
    }
    if (n == 0) {
        return true;
    }
    const dot_cmd *c = find_command(w[0], strlen(w[0]));
    if (c == NULL) {
        return dl_shell_fail(sh, "unknown command '%s': .help lists the commands", w[0]);
    }
    return c->fn(sh, w, n, rest);
}
