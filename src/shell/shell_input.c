/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reading SQL: lines are collected until they end a complete statement (a ';' outside
 * strings and comments, deltalite_is_complete), then run. Dot-commands are read at the start
 * of a statement. A script's last statement may omit its ';'.
 *
 * Interactively, libedit (through its readline-compatible interface) edits lines and keeps
 * the history, one entry per statement, in ~/.deltalite_history (the last 1000).
 */
#include <editline/readline.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shell/shell_int.h"

#define HISTORY_MAX 1000

/* libedit allocates the lines it returns with libc's malloc; they go back with libc's free,
 * not through our allocator (whose seam covers the memory deltalite allocates itself). */
static void (*const libc_release)(void *) = free;

/* True when s holds only blanks. */
static bool
is_blank(const char *s, size_t len) {
    for (size_t i = 0; i < len; i++) {
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n') {
            return false;
        }
    }
    return true;
}

static bool
is_dot_line(const char *line) {
    while (*line == ' ' || *line == '\t') {
        line++;
    }
    return line[0] == '.';
}

/* Reads one line (without its newline) into buf; false at the end of the file. */
static bool
read_line(FILE *f, dl_buf *buf) {
    dl_buf_reset(buf);
    int c = 0;
    bool any = false;
    while ((c = fgetc(f)) != EOF) {
        any = true;
        if (c == '\n') {
            break;
        }
        if (dl_buf_append_byte(buf, (uint8_t)c, NULL) != DL_OK) {
            return false;
        }
    }
    (void)dl_buf_cstr(buf);
    return any;
}

/* Whether stmt (what was read of the next statement) or the rest of f holds more than blanks. */
static bool
has_more_input(FILE *f, dl_buf *line, const dl_buf *stmt) {
    if (!is_blank((const char *)stmt->data, stmt->len)) {
        return true;
    }
    while (read_line(f, line)) {
        if (!is_blank((const char *)line->data, line->len)) {
            return true;
        }
    }
    return false;
}

bool
dl_shell_run_file(dl_shell *sh, FILE *f, const char *source) {
    dl_buf line;
    dl_buf_init(&line, NULL);
    dl_buf stmt;
    dl_buf_init(&stmt, NULL);
    int64_t line_no = 0;
    int64_t first_line = 1;
    bool ok = true;
    while (!sh->should_quit && read_line(f, &line)) {
        line_no++;
        const char *text = dl_buf_cstr(&line);
        if (is_blank((const char *)stmt.data, stmt.len) && is_dot_line(text)) {
            dl_buf_reset(&stmt);
            ok = dl_shell_dot_command(sh, text) && ok;
            continue;
        }
        if (is_blank((const char *)stmt.data, stmt.len)) {
            dl_buf_reset(&stmt);
            first_line = line_no;
        }
        if (dl_buf_append(&stmt, line.data, line.len, NULL) != DL_OK ||
            dl_buf_append_byte(&stmt, '\n', NULL) != DL_OK) {
            (void)fprintf(sh->err, "Error: out of memory reading %s\n", source);
            ok = false;
            break;
        }
        if (deltalite_is_complete(dl_buf_cstr(&stmt))) {
            ok = dl_shell_run_sql(sh, (const char *)stmt.data, stmt.len, source, first_line) && ok;
            dl_buf_reset(&stmt);
            if (!ok && sh->bail) {
                break;
            }
        }
    }
    if (stmt.len > 0 && !sh->should_quit && (ok || !sh->bail)) {
        ok = dl_shell_run_sql(sh, (const char *)stmt.data, stmt.len, source, first_line) && ok;
    }
    if (sh->is_late_interrupt && has_more_input(f, &line, &stmt)) {
        dl_shell_note_skipped(sh);
        ok = false;
    }
    dl_buf_destroy(&stmt);
    dl_buf_destroy(&line);
    return ok;
}

/* ---- the terminal ----------------------------------------------------------------------- */

static void
history_path(char *out, size_t cap) {
    const char *home = getenv("HOME");
    out[0] = '\0';
    if (home != NULL && home[0] != '\0') {
        int n = snprintf(out, cap, "%s/.deltalite_history", home);
        if (n < 0 || (size_t)n >= cap) {
            out[0] = '\0';
        }
    }
}

/* Adds a statement to the history, without its trailing newline. */
static void
remember(dl_buf *stmt) {
    size_t len = stmt->len;
    while (len > 0 && (stmt->data[len - 1] == '\n' || stmt->data[len - 1] == ' ')) {
        len--;
    }
    if (len == 0) {
        return;
    }
    char saved = (char)stmt->data[len];
    stmt->data[len] = '\0';
    (void)add_history((const char *)stmt->data);
    stmt->data[len] = (uint8_t)saved;
}

void
dl_shell_interactive(dl_shell *sh) {
    char hist[1024];
    history_path(hist, sizeof(hist));
    using_history();
    stifle_history(HISTORY_MAX);
    if (hist[0] != '\0') {
        (void)read_history(hist);
    }
    dl_buf stmt;
    dl_buf_init(&stmt, NULL);
    while (!sh->should_quit) {
        bool is_empty = is_blank((const char *)stmt.data, stmt.len);
        char *line = readline(is_empty ? "deltalite> " : "        ...> ");
        if (line == NULL) {
            (void)fputc('\n', sh->out);
            break;
        }
        if (is_empty && is_dot_line(line)) {
            (void)add_history(line);
            (void)dl_shell_dot_command(sh, line);
            libc_release(line);
            continue;
        }
        bool appended = dl_buf_append_cstr(&stmt, line, NULL) == DL_OK &&
                        dl_buf_append_byte(&stmt, '\n', NULL) == DL_OK;
        libc_release(line);
        if (!appended) {
            (void)fprintf(sh->err, "Error: out of memory\n");
            dl_buf_reset(&stmt);
            continue;
        }
        if (deltalite_is_complete(dl_buf_cstr(&stmt))) {
            remember(&stmt);
            (void)dl_shell_run_sql(sh, (const char *)stmt.data, stmt.len, NULL, 1);
            dl_buf_reset(&stmt);
        }
    }
    if (hist[0] != '\0') {
        (void)write_history(hist);
    }
    dl_buf_destroy(&stmt);
}
