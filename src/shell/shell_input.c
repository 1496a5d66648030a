/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reading SQL: lines are collected until they end a complete statement (a ';' outside
 * strings and comments, deltalite_is_complete), then run. Dot-commands are read at the start
 * of a statement. A script's last statement may omit its ';'.
 *
 * Interactively, libedit (through its readline-compatible interface) edits lines and keeps
 * the history, one entry per statement, in ~/.deltalite_history (the last 1000), or the file
 * named by $DELTALITE_HISTORY (empty: no history file). At the prompt:
 *   - Ctrl-C clears the line, and a statement being continued (the "...>" prompt): the shell
 *     goes on at a fresh prompt, as bash and DuckDB do;
 *   - text without a statement (a lone ';', a line of comments) is dropped, not continued;
 *   - a dot-command works at the continuation prompt too (the statement stays pending);
 *   - Ctrl-D leaves; with a statement pending it says that statement was not run.
 * The terminal
 * is read as UTF-8 (LC_CTYPE from the environment, else C.UTF-8): in the C locale libedit
 * drops every byte above 0x7F as an unprintable key.
 *
 * The history file is libedit's: a line "_HiStOrY_V2_", then one line per entry with every
 * byte that is not printable ASCII written as a backslash and three octal digits ("\040" for
 * a space, "\012" for a line break) and a backslash as two. Each entry is appended as it is
 * entered, in one write(2) to a file opened O_APPEND, so a closed terminal (SIGHUP), a crash
 * or another shell writing at the same time loses nothing; nothing is written at exit. When
 * the file holds more than twice the limit, the shell starting keeps the last 1000 entries by
 * writing them to a temporary file renamed over it (never a truncation in place).
 */
#include <editline/readline.h>
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shell/shell_int.h"
#include "sql/parse/sql_parse.h"

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

/* What the text read so far holds: a statement (more than blanks, comments and ';'; an
 * unclosed string or comment counts as one), and whether it ends inside a string, quoted name
 * or comment (where a line starting with '.' is text, not a dot-command). */
typedef struct pending {
    bool has_statement;
    bool is_open;
} pending;

static pending
pending_of(const dl_buf *stmt) {
    dl_sql_splitter sp;
    dl_sql_splitter_init(&sp, (const char *)stmt->data, stmt->len);
    dl_sql_piece piece;
    pending p = {false, false};
    while (dl_sql_splitter_next(&sp, &piece)) {
        p.has_statement = true;
        p.is_open = piece.is_open;
    }
    return p;
}

/* A dot-command line: at the start of a statement, any line starting with '.'; while one
 * continues, a line starting with a command's name, outside strings and comments. */
static bool
is_dot_command_here(const dl_buf *stmt, const char *line) {
    if (is_blank((const char *)stmt->data, stmt->len)) {
        return is_dot_line(line);
    }
    return dl_shell_is_dot_command(line) && !pending_of(stmt).is_open;
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
        if (is_dot_command_here(&stmt, text)) {
            if (is_blank((const char *)stmt.data, stmt.len)) {
                dl_buf_reset(&stmt);
            }
            bool is_done = dl_shell_dot_command(sh, text);
            ok = is_done && ok;
            if (!is_done && sh->bail) {
                break;
            }
            continue;
        }
        if (is_blank((const char *)stmt.data, stmt.len)) {
            dl_buf_reset(&stmt);
            first_line = line_no;
        }
        if (dl_buf_append(&stmt, line.data, line.len, NULL) != DL_OK ||
            dl_buf_append_byte(&stmt, '\n', NULL) != DL_OK) {
            (void)fprintf(sh->err, "Error: out of memory reading %s\n", source ? source : "-c");
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

/* $DELTALITE_HISTORY, else "$HOME/.deltalite_history", into out; empty without either (or
 * with DELTALITE_HISTORY set empty). */
static void
history_path(dl_shell *sh, dl_buf *out) {
    const char *home = getenv("HOME");
    const char *named = getenv("DELTALITE_HISTORY");
    dl_status st = DL_OK;
    if (named != NULL) {
        st = dl_buf_append_cstr(out, named, NULL);
    } else if (home != NULL && home[0] != '\0') {
        st = dl_buf_appendf(out, NULL, "%s/.deltalite_history", home);
    }
    if (st != DL_OK) {
        (void)fprintf(sh->err, "Note: out of memory: the history is not saved\n");
        dl_buf_reset(out);
    }
    (void)dl_buf_cstr(out);
}

static const char history_cookie[] = "_HiStOrY_V2_\n";

/* Appends entry as one history line, encoded as libedit reads it back (strunvis). */
static dl_status
encode_entry(const char *entry, size_t len, dl_buf *out, dl_error *err) {
    for (size_t i = 0; i < len; i++) {
        uint8_t c = (uint8_t)entry[i];
        if (c == '\\') {
            DL_TRY(dl_buf_append(out, "\\\\", 2, err));
        } else if (c > 0x20 && c < 0x7f) {
            DL_TRY(dl_buf_append_byte(out, c, err));
        } else {
            DL_TRY(dl_buf_appendf(out, err, "\\%03o", (unsigned)c));
        }
    }
    return dl_buf_append_byte(out, '\n', err);
}

/* Writes all of data to fd; false on an error. */
static bool
write_all(int fd, const uint8_t *data, size_t len) {
    while (len > 0) {
        ssize_t n = write(fd, data, len);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return false;
        }
        data += n;
        len -= (size_t)n;
    }
    return true;
}

/* Appends one entry to the history file (creating it with its cookie line). A history that
 * cannot be written is said once, and the shell goes on. */
static void
history_append(dl_shell *sh, const char *path, const char *entry, size_t len) {
    static bool is_reported;
    dl_buf line;
    dl_buf_init(&line, NULL);
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    struct stat st;
    bool ok = fd >= 0 && fstat(fd, &st) == 0;
    if (ok && st.st_size == 0) {
        ok = dl_buf_append_cstr(&line, history_cookie, NULL) == DL_OK;
    }
    ok = ok && encode_entry(entry, len, &line, NULL) == DL_OK && write_all(fd, line.data, line.len);
    int errnum = errno;
    if (fd >= 0 && close(fd) != 0) {
        ok = false;
    }
    if (!ok && !is_reported) {
        (void)fprintf(sh->err, "Note: cannot save the history in %s: %s\n", path, strerror(errnum));
        is_reported = true;
    }
    dl_buf_destroy(&line);
}

/* Keeps the last HISTORY_MAX entries of the file when it holds more than twice as many:
 * written to a temporary file, then renamed over it. */
static void
history_trim(const char *path) {
    dl_buf text;
    dl_buf_init(&text, NULL);
    FILE *f = fopen(path, "rb");
    uint8_t chunk[65536];
    size_t n = f != NULL ? fread(chunk, 1, sizeof(chunk), f) : 0;
    while (n > 0 && dl_buf_append(&text, chunk, n, NULL) == DL_OK) {
        n = fread(chunk, 1, sizeof(chunk), f);
    }
    int64_t lines = 0;
    for (size_t i = 0; i < text.len; i++) {
        lines += text.data[i] == '\n' ? 1 : 0;
    }
    size_t from = text.len;
    for (int64_t kept = 0; from > 0 && kept <= HISTORY_MAX; from--) {
        kept += text.data[from - 1] == '\n' ? 1 : 0;
    }
    if (f != NULL && lines > 2 * HISTORY_MAX + 1) {
        dl_buf tmp;
        dl_buf_init(&tmp, NULL);
        if (dl_buf_appendf(&tmp, NULL, "%s.%ld.tmp", path, (long)getpid()) == DL_OK) {
            const char *tmp_path = dl_buf_cstr(&tmp);
            int fd = open(tmp_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
            size_t cut = from + 1; /* just after the newline that ends the entry before */
            bool ok = fd >= 0 &&
                      write_all(fd, (const uint8_t *)history_cookie, strlen(history_cookie)) &&
                      write_all(fd, text.data + cut, text.len - cut) && fsync(fd) == 0;
            ok = fd >= 0 && close(fd) == 0 && ok;
            if (!ok || rename(tmp_path, path) != 0) {
                (void)unlink(tmp_path);
            }
        }
        dl_buf_destroy(&tmp);
    }
    if (f != NULL) {
        (void)fclose(f);
    }
    dl_buf_destroy(&text);
}

/* Adds a statement to the history, without its trailing newline, in memory and in the file. */
static void
remember(dl_shell *sh, const char *path, const char *text, size_t len) {
    while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == ' ')) {
        len--;
    }
    if (len == 0) {
        return;
    }
    dl_buf entry;
    dl_buf_init(&entry, NULL);
    if (dl_buf_append(&entry, text, len, NULL) == DL_OK) {
        (void)add_history(dl_buf_cstr(&entry));
        if (path[0] != '\0') {
            history_append(sh, path, (const char *)entry.data, entry.len);
        }
    }
    dl_buf_destroy(&entry);
}

/* Reads the terminal as UTF-8: the environment's LC_CTYPE when it has multibyte characters,
 * else C.UTF-8. Only LC_CTYPE: numbers are formatted by deltalite, never by the locale. */
static void
use_utf8_terminal(void) {
    if (setlocale(LC_CTYPE, "") != NULL && MB_CUR_MAX > 1) {
        return;
    }
    if (setlocale(LC_CTYPE, "C.UTF-8") == NULL) {
        (void)setlocale(LC_CTYPE, "C.utf8");
    }
}

static volatile sig_atomic_t got_prompt_sigint;

static void
on_prompt_sigint(int sig) {
    (void)sig;
    got_prompt_sigint = 1;
}

/* readline with Ctrl-C caught: *out_is_interrupted says it came (the line is then NULL). The
 * handler has no SA_RESTART, so the terminal read fails with EINTR and readline returns. A
 * Ctrl-C that lands in the microseconds while libedit handles a key, outside its read, cannot
 * stop that read: it is dropped (the line goes on as typed; the next Ctrl-C clears it). */
static char *
read_prompt(const char *prompt, bool *out_is_interrupted) {
    struct sigaction on = {.sa_handler = on_prompt_sigint};
    struct sigaction before;
    (void)sigemptyset(&on.sa_mask);
    got_prompt_sigint = 0;
    bool is_caught = sigaction(SIGINT, &on, &before) == 0;
    char *line = readline(prompt);
    if (is_caught) {
        (void)sigaction(SIGINT, &before, NULL);
    }
    *out_is_interrupted = got_prompt_sigint != 0 && line == NULL;
    return line;
}

/* Ctrl-D: leaves, saying so when a statement was pending. */
static void
say_goodbye(dl_shell *sh, const dl_buf *stmt) {
    (void)fputc('\n', sh->out);
    if (!is_blank((const char *)stmt->data, stmt->len)) {
        (void)fprintf(sh->err, "Note: the unfinished statement (no ';' yet) was not run\n");
    }
}

void
dl_shell_interactive(dl_shell *sh) {
    dl_buf hist_path;
    dl_buf_init(&hist_path, NULL);
    history_path(sh, &hist_path);
    const char *hist = dl_buf_cstr(&hist_path);
    use_utf8_terminal();
    rl_catch_signals = 0; /* our handler sees Ctrl-C at the prompt (read_prompt) */
    using_history();
    stifle_history(HISTORY_MAX);
    if (hist[0] != '\0') {
        history_trim(hist);
        (void)read_history(hist);
    }
    dl_shell_complete_init(sh);
    dl_buf stmt;
    dl_buf_init(&stmt, NULL);
    while (!sh->should_quit) {
        bool is_empty = is_blank((const char *)stmt.data, stmt.len);
        bool is_interrupted = false;
        dl_shell_complete_pending((const char *)stmt.data, stmt.len);
        char *line = read_prompt(is_empty ? sh->prompt : sh->prompt_cont, &is_interrupted);
        if (is_interrupted) {
            (void)fputs("^C\n", sh->out); /* the line (and any pending statement) is dropped */
            dl_buf_reset(&stmt);
            continue;
        }
        if (line == NULL) {
            say_goodbye(sh, &stmt);
            break;
        }
        if (is_dot_command_here(&stmt, line)) {
            remember(sh, hist, line, strlen(line));
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
        if (!pending_of(&stmt).has_statement) {
            dl_buf_reset(&stmt); /* only ';', comments or blanks: nothing to continue */
        } else if (deltalite_is_complete(dl_buf_cstr(&stmt))) {
            remember(sh, hist, (const char *)stmt.data, stmt.len);
            (void)dl_shell_run_sql(sh, (const char *)stmt.data, stmt.len, NULL, 1);
            dl_buf_reset(&stmt);
        }
    }
    dl_shell_complete_destroy();
    dl_buf_destroy(&stmt);
    dl_buf_destroy(&hist_path);
}
