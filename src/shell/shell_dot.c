/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Dot-commands: lines starting with '.' that the shell itself answers (sqlite3's and DuckDB's
 * convention). They are recognised only at the start of a statement.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "shell/shell_int.h"

static const char help_text[] =
    ".help                 show this help\n"
    ".quit, .exit          leave the shell\n"
    ".mode [MODE]          show or set the output format: box, csv, json, markdown\n"
    ".tables [SCHEMA]      list the tables of the current (or the given) schema\n"
    ".schemas              list the schemas\n"
    ".warehouse            show the warehouse folder\n"
    ".open WAREHOUSE       close this warehouse and open another\n"
    ".read FILE            run the SQL in FILE\n"
    ".maxrows N            box mode: show at most N rows (-1: all)\n"
    ".maxwidth N           box mode: fit tables in N columns (0: no limit)\n"
    ".timer on|off         show how long each statement took\n"
    "\n"
    "End SQL statements with ';'. Tables are folders of the warehouse; other schemas are\n"
    "<schema>.db folders; read any Delta table by path with delta.`/path/to/table`.\n";

#define MAX_ARGS 4

/* Splits line into at most MAX_ARGS words (in place, in buf). Returns the count. */
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

static bool fail(dl_shell *sh, const char *fmt, ...) DL_PRINTF(2, 3);

static bool
fail(dl_shell *sh, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    (void)fprintf(sh->err, "Error: ");
    (void)vfprintf(sh->err, fmt, ap);
    (void)fprintf(sh->err, "\n");
    va_end(ap);
    sh->n_failed++;
    return false;
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

static bool
cmd_mode(dl_shell *sh, char **w, int n) {
    if (n < 2) {
        (void)fprintf(sh->out, "%s\n", dl_shell_mode_name(sh->mode));
        return true;
    }
    if (!dl_shell_mode_parse(w[1], &sh->mode)) {
        return fail(sh, ".mode: unknown mode '%s' (box, csv, json, markdown)", w[1]);
    }
    return true;
}

static bool
cmd_limit(dl_shell *sh, char **w, int n) {
    long long v = 0;
    bool is_rows = strcmp(w[0], ".maxrows") == 0;
    if (n < 2) {
        (void)fprintf(sh->out, "%lld\n",
                      is_rows ? (long long)sh->max_rows : (long long)sh->max_width);
        return true;
    }
    if (!parse_int(w[1], is_rows ? -1 : 0, is_rows ? INT64_MAX : 100000, &v)) {
        return fail(sh, "%s: expected a number", w[0]);
    }
    if (is_rows) {
        sh->max_rows = v;
    } else {
        sh->max_width = (int32_t)v;
    }
    return true;
}

static bool
cmd_open(dl_shell *sh, char **w, int n) {
    if (n < 2) {
        return fail(sh, ".open: expected a warehouse folder");
    }
    deltalite_options opts = {.flags = DELTALITE_OPEN_CREATE};
    deltalite_db *db = NULL;
    if (deltalite_open(w[1], &opts, &db) != DELTALITE_OK) {
        (void)fprintf(sh->err, "Error: %s\n", deltalite_error_message(db));
        (void)deltalite_close(db);
        sh->n_failed++;
        return false;
    }
    if (deltalite_close(sh->db) != DELTALITE_OK) {
        (void)deltalite_close(db);
        return fail(sh, "%s", deltalite_error_message(sh->db));
    }
    sh->db = db;
    return true;
}

static bool
cmd_read(dl_shell *sh, char **w, int n) {
    if (n < 2) {
        return fail(sh, ".read: expected a file name");
    }
    FILE *f = fopen(w[1], "rb");
    if (f == NULL) {
        return fail(sh, ".read: cannot open '%s'", w[1]);
    }
    bool was_interactive = sh->is_interactive;
    sh->is_interactive = false;
    bool ok = dl_shell_run_file(sh, f, w[1]);
    sh->is_interactive = was_interactive;
    (void)fclose(f);
    return ok;
}

static bool
cmd_tables(dl_shell *sh, char **w, int n) {
    char sql[512];
    if (n >= 2) {
        int len = snprintf(sql, sizeof(sql), "SHOW TABLES IN `%s`", w[1]);
        if (len < 0 || (size_t)len >= sizeof(sql) || strchr(w[1], '`') != NULL) {
            return fail(sh, ".tables: bad schema name '%s'", w[1]);
        }
    } else {
        (void)snprintf(sql, sizeof(sql), "SHOW TABLES");
    }
    return list_column(sh, sql, "tableName");
}

bool
dl_shell_dot_command(dl_shell *sh, const char *line) {
    char buf[1024];
    int line_len = snprintf(buf, sizeof(buf), "%s", line);
    if (line_len < 0 || (size_t)line_len >= sizeof(buf)) {
        return fail(sh, "the dot-command line is %d bytes; at most %zu are read", line_len,
                    sizeof(buf) - 1);
    }
    char *w[MAX_ARGS];
    int n = split_words(buf, w);
    if (n == 0) {
        return true;
    }
    const char *cmd = w[0];
    if (strcmp(cmd, ".help") == 0) {
        (void)fputs(help_text, sh->out);
        return true;
    }
    if (strcmp(cmd, ".quit") == 0 || strcmp(cmd, ".exit") == 0) {
        sh->should_quit = true;
        return true;
    }
    if (strcmp(cmd, ".mode") == 0) {
        return cmd_mode(sh, w, n);
    }
    if (strcmp(cmd, ".maxrows") == 0 || strcmp(cmd, ".maxwidth") == 0) {
        return cmd_limit(sh, w, n);
    }
    if (strcmp(cmd, ".timer") == 0 && n >= 2) {
        sh->timer = strcmp(w[1], "on") == 0;
        return true;
    }
    if (strcmp(cmd, ".tables") == 0) {
        return cmd_tables(sh, w, n);
    }
    if (strcmp(cmd, ".schemas") == 0) {
        return list_column(sh, "SHOW SCHEMAS", "namespace");
    }
    if (strcmp(cmd, ".warehouse") == 0) {
        (void)fprintf(sh->out, "%s\n", deltalite_warehouse(sh->db));
        return true;
    }
    if (strcmp(cmd, ".open") == 0) {
        return cmd_open(sh, w, n);
    }
    if (strcmp(cmd, ".read") == 0) {
        return cmd_read(sh, w, n);
    }
    return fail(sh, "unknown command '%s': .help lists the commands", cmd);
}
