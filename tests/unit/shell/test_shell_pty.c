/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The interactive shell on a pseudo-terminal, as a person types into it: line editing with
 * non-ASCII text, and the history file across sessions and hang-ups. Usage: test_shell_pty
 * PATH_TO_DELTALITE. Cases that run SQL are skipped while the SQL engine is not built in.
 */
#define _XOPEN_SOURCE 700 /* NOLINT(bugprone-reserved-identifier,readability-identifier-naming) */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

static const char *shell_path;
static char dir[256];       /* a temporary folder: the warehouse and HOME */
static char home[2048];     /* HOME for the sessions (dir unless a test changes it) */
static char screen[131072]; /* what the terminal showed in the last session */
static size_t screen_len;
static const char *history_env; /* DELTALITE_HISTORY for the sessions, or NULL (unset) */

typedef struct session {
    pid_t pid;
    int master;
} session;

/* Starts the shell on a new pseudo-terminal, with HOME=dir and the environment's locale
 * replaced by lang (NULL: no LANG, LC_ALL or LC_CTYPE at all). */
static bool
session_start(session *s, const char *lang) {
    screen_len = 0;
    screen[0] = '\0';
    s->master = posix_openpt(O_RDWR | O_NOCTTY);
    if (s->master < 0 || grantpt(s->master) != 0 || unlockpt(s->master) != 0) {
        return false;
    }
    const char *slave = ptsname(s->master);
    if (slave == NULL) {
        return false;
    }
    s->pid = fork();
    if (s->pid == 0) {
        (void)close(s->master); /* the terminal must go away when the test closes it */
        int fd = -1;
        if (setsid() < 0 || (fd = open(slave, O_RDWR)) < 0 || dup2(fd, 0) < 0 || dup2(fd, 1) < 0 ||
            dup2(fd, 2) < 0 || chdir(dir) != 0 || setenv("HOME", home, 1) != 0 ||
            setenv("TERM", "dumb", 1) != 0) {
            _exit(126);
        }
        (void)unsetenv("LC_ALL");
        (void)unsetenv("LC_CTYPE");
        (void)unsetenv("LANG");
        (void)unsetenv("DELTALITE_HISTORY");
        if (history_env != NULL && setenv("DELTALITE_HISTORY", history_env, 1) != 0) {
            _exit(126);
        }
        if (lang != NULL && setenv("LANG", lang, 1) != 0) {
            _exit(126);
        }
        execl(shell_path, shell_path, "-csv", "wh", (char *)NULL);
        _exit(127);
    }
    return s->pid > 0;
}

/* Reads what the terminal shows for up to ms milliseconds, or until it shows want. */
static bool
wait_for(session *s, const char *want, int ms) {
    struct timespec start;
    (void)clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        if (want != NULL && strstr(screen, want) != NULL) {
            return true;
        }
        struct timespec now;
        (void)clock_gettime(CLOCK_MONOTONIC, &now);
        long elapsed = (long)(now.tv_sec - start.tv_sec) * 1000 +
                       (long)(now.tv_nsec - start.tv_nsec) / 1000000;
        if (elapsed >= ms) {
            return want == NULL;
        }
        struct pollfd p = {.fd = s->master, .events = POLLIN};
        if (poll(&p, 1, (int)(ms - elapsed)) <= 0) {
            continue;
        }
        ssize_t n = read(s->master, screen + screen_len, sizeof(screen) - 1 - screen_len);
        if (n <= 0) {
            return want == NULL || strstr(screen, want) != NULL;
        }
        screen_len += (size_t)n;
        screen[screen_len] = '\0';
    }
}

/* Presses a control key once the shell waits for it: a person's key never lands in the
 * microseconds while libedit handles the key before, or sets up the terminal after the
 * prompt (which drops keys typed before). */
static void
press_key(session *s, const char *key) {
    struct timespec pause = {.tv_nsec = 100 * 1000 * 1000};
    (void)nanosleep(&pause, NULL);
    if (write(s->master, key, 1) != 1) {
        return;
    }
}

/* Types text at the prompt, one byte at a time as a terminal delivers keys. */
static void
type(session *s, const char *text) {
    for (const char *p = text; *p != '\0'; p++) {
        if (write(s->master, p, 1) != 1) {
            return;
        }
    }
}

/* Waits for the shell to exit; returns its exit status, or -1 (also after a signal). */
static int
session_end(session *s) {
    (void)wait_for(s, NULL, 200);
    int status = 0;
    pid_t got = waitpid(s->pid, &status, 0);
    (void)close(s->master);
    return got == s->pid && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void
history_text(char *out, size_t cap) {
    char path[512];
    (void)snprintf(path, sizeof(path), "%s/.deltalite_history", dir);
    out[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (f != NULL) {
        size_t n = fread(out, 1, cap - 1, f);
        out[n] = '\0';
        (void)fclose(f);
    }
}

/* Typed 'José' ran as 'Jos' and '日本語' as '': the locale was never set, so libedit took
 * every byte above 0x7F for an unprintable key and dropped it. With LANG unset too (the C
 * locale) the shell edits UTF-8. */
TEST(test_pty_non_ascii_text_typed_at_the_prompt_is_kept) {
    static const char *const langs[] = {"C.UTF-8", NULL};
    for (size_t i = 0; i < sizeof(langs) / sizeof(langs[0]); i++) {
        session s;
        CHECK(session_start(&s, langs[i]));
        CHECK(wait_for(&s, "deltalite> ", 5000));
        type(&s, "SELECT 'Jos\xc3\xa9' AS a, '\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e' AS b, "
                 "length('\xc3\xa9\xc3\xa9') AS n;\r");
        bool shown = wait_for(&s, ",2\r\n", 5000);
        type(&s, ".quit\r");
        CHECK_INT_EQ(session_end(&s), 0);
        if (!shown ||
            strstr(screen, "Jos\xc3\xa9,\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e,2") == NULL) {
            printf("  LANG=%s; the terminal showed:\n%s\n", langs[i] ? langs[i] : "(unset)",
                   screen);
            CHECK(false);
        }
    }
}

static void
remove_history_file(void) {
    char path[512];
    (void)snprintf(path, sizeof(path), "%s/.deltalite_history", dir);
    (void)unlink(path);
}

/* Runs one session that types lines (each ended by Enter, waiting for the prompt after it) and
 * leaves with .quit. */
static bool
session_typing(const char *const *lines, size_t n) {
    session s;
    if (!session_start(&s, "C.UTF-8") || !wait_for(&s, "deltalite> ", 5000)) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        screen_len = 0;
        screen[0] = '\0';
        type(&s, lines[i]);
        type(&s, "\r");
        if (!wait_for(&s, "deltalite> ", 5000)) {
            return false;
        }
    }
    type(&s, ".quit\r");
    return session_end(&s) == 0;
}

/* Each statement is in ~/.deltalite_history as soon as it is entered, so closing the terminal
 * (SIGHUP) keeps every entry; it truncated the file to 0 bytes. Multi-line statements, spaces
 * and UTF-8 come back through libedit's file format. */
TEST(test_pty_hangup_keeps_the_history) {
    remove_history_file();
    static const char *const first[] = {"SELECT 'a b\\\\c' AS zero;"};
    CHECK(session_typing(first, 1));
    session s;
    CHECK(session_start(&s, "C.UTF-8"));
    CHECK(wait_for(&s, "deltalite> ", 5000));
    type(&s, "SELECT 1\r");
    CHECK(wait_for(&s, "...> ", 5000));
    type(&s, "  AS `\xc3\xa9t\xc3\xa9`;\r");
    if (!wait_for(&s, "\xc3\xa9t\xc3\xa9\r\n1\r\n", 5000)) {
        printf("  the terminal showed:\n%s\n", screen);
        CHECK(false);
    }
    CHECK(wait_for(&s, "deltalite> ", 5000));
    (void)close(s.master); /* the terminal goes away: SIGHUP */
    int status = 0;
    CHECK(waitpid(s.pid, &status, 0) == s.pid);
    char text[4096];
    history_text(text, sizeof(text));
    CHECK_STR_EQ(text, "_HiStOrY_V2_\nSELECT\\040'a\\040b\\\\\\\\c'\\040AS\\040zero;\n"
                       ".quit\nSELECT\\0401\\012\\040\\040AS\\040`\\303\\251t\\303\\251`;\n");
    /* A new session reads them back: Ctrl-P (previous) three times recalls the first one. */
    CHECK(session_start(&s, "C.UTF-8"));
    CHECK(wait_for(&s, "deltalite> ", 5000));
    type(&s, "\x10\x10\x10\r");
    CHECK(wait_for(&s, "zero\r\na b\\c\r\n", 5000));
    type(&s, ".quit\r");
    CHECK_INT_EQ(session_end(&s), 0);
}

/* Over twice the limit of 1000 entries, a starting shell keeps the last 1000 (then adds its own) (a
 * rewrite by rename, never a truncation in place). */
TEST(test_pty_history_is_trimmed_to_its_limit) {
    char path[512];
    (void)snprintf(path, sizeof(path), "%s/.deltalite_history", dir);
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    (void)fputs("_HiStOrY_V2_\n", f);
    for (int i = 0; i < 2500; i++) {
        (void)fprintf(f, "SELECT\\040%d;\n", i);
    }
    (void)fclose(f);
    static const char *const lines[] = {"SELECT 'new' AS n;"};
    CHECK(session_typing(lines, 1));
    static char text[65536];
    history_text(text, sizeof(text));
    if (strncmp(text, "_HiStOrY_V2_\nSELECT\\0401500;\n", 29) != 0) {
        printf("  the history starts:\n%.200s\n", text);
        CHECK(false);
    }
    CHECK(strstr(text, "SELECT\\0401499;") == NULL);
    static const char last[] = "SELECT\\040'new'\\040AS\\040n;\n.quit\n";
    size_t len = strlen(text);
    CHECK(len > sizeof(last) && strcmp(text + len - (sizeof(last) - 1), last) == 0);
}

/* A HOME longer than 1,023 bytes silently kept no history (the path did not fit a buffer). */
TEST(test_pty_history_is_kept_under_a_long_home) {
    size_t len = (size_t)snprintf(home, sizeof(home), "%s", dir);
    for (int i = 0; i < 5; i++) {
        home[len++] = '/';
        memset(home + len, 'h', 200);
        len += 200;
        home[len] = '\0';
        CHECK(mkdir(home, 0700) == 0);
    }
    static const char *const lines[] = {"SELECT 7 AS seven;"};
    bool ok = session_typing(lines, 1);
    char path[2100];
    (void)snprintf(path, sizeof(path), "%s/.deltalite_history", home);
    (void)snprintf(home, sizeof(home), "%s", dir);
    CHECK(ok);
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL);
    char text[256];
    size_t n = fread(text, 1, sizeof(text) - 1, f);
    text[n] = '\0';
    (void)fclose(f);
    CHECK_STR_EQ(text, "_HiStOrY_V2_\nSELECT\\0407\\040AS\\040seven;\n.quit\n");
}

/* Forgets what the terminal showed so far (the next wait_for looks at new output only). */
static void
clear_screen(void) {
    screen_len = 0;
    screen[0] = '\0';
}

/* Leaves the session with .quit. False, after printing what the terminal showed, when ok is
 * false or the shell did not exit with status 0. */
static bool
leave(session *s, bool ok) {
    type(s, ".quit\r");
    int status = session_end(s);
    if (!ok || status != 0) {
        printf("  exit status %d; the terminal showed:\n%.4000s\n", status, screen);
        return false;
    }
    return true;
}

/* Ctrl-C at the prompt ended the shell and lost the session. It clears the line (and a
 * statement being continued) and the shell waits at a fresh prompt. */
TEST(test_pty_ctrl_c_at_the_prompt_clears_the_line) {
    session s;
    CHECK(session_start(&s, "C.UTF-8"));
    CHECK(wait_for(&s, "deltalite> ", 5000));
    clear_screen();
    type(&s, "SELECT 'lost'");
    CHECK(wait_for(&s, "'lost'", 5000));
    press_key(&s, "\x03");
    CHECK(wait_for(&s, "deltalite> ", 5000));
    type(&s, "SELECT 1\r");
    CHECK(wait_for(&s, "...> ", 5000));
    press_key(&s, "\x03");
    clear_screen();
    CHECK(wait_for(&s, "deltalite> ", 5000));
    type(&s, "SELECT 2 AS two;\r");
    bool shown = wait_for(&s, "two\r\n2\r\n", 5000);
    CHECK(leave(&s, shown && strstr(screen, "lost") == NULL));
}

/* A lone ';' or a line of comments kept the shell at "...>" waiting for a statement that
 * never comes; a dot-command typed there was taken as SQL. Now the first two are dropped, and
 * a dot-command runs with the statement kept pending. */
TEST(test_pty_lone_semicolon_comments_and_dot_commands_while_continuing) {
    session s;
    CHECK(session_start(&s, "C.UTF-8"));
    CHECK(wait_for(&s, "deltalite> ", 5000));
    static const char *const empty_lines[] = {";\r", "-- only a comment\r", "/* c */ ;\r"};
    for (size_t i = 0; i < sizeof(empty_lines) / sizeof(empty_lines[0]); i++) {
        clear_screen();
        type(&s, empty_lines[i]);
        CHECK(wait_for(&s, "deltalite> ", 5000));
        CHECK(strstr(screen, "...>") == NULL);
    }
    type(&s, "SELECT 5\r");
    CHECK(wait_for(&s, "...> ", 5000));
    clear_screen();
    type(&s, ".mode json\r");
    CHECK(wait_for(&s, "...> ", 5000));
    type(&s, "  AS five;\r");
    CHECK(leave(&s, wait_for(&s, "{\"five\":5}", 5000)));
}

/* Ctrl-D with a statement pending left without a word; it says the statement was not run. */
TEST(test_pty_ctrl_d_with_a_pending_statement_says_so) {
    session s;
    CHECK(session_start(&s, "C.UTF-8"));
    CHECK(wait_for(&s, "deltalite> ", 5000));
    type(&s, "SELECT 1\r");
    CHECK(wait_for(&s, "...> ", 5000));
    press_key(&s, "\x04");
    CHECK(wait_for(&s, "Note: the unfinished statement (no ';' yet) was not run", 5000));
    CHECK_INT_EQ(session_end(&s), 0);
}

/* DELTALITE_HISTORY moves the history file (as SQLITE_HISTORY does); set empty, none is kept. */
TEST(test_pty_deltalite_history_names_the_history_file) {
    remove_history_file();
    char path[512];
    (void)snprintf(path, sizeof(path), "%s/moved_history", dir);
    history_env = path;
    static const char *const lines[] = {"SELECT 8 AS eight;"};
    bool ok = session_typing(lines, 1);
    history_env = "";
    ok = ok && session_typing(lines, 1);
    history_env = NULL;
    CHECK(ok);
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL);
    char text[256];
    size_t n = fread(text, 1, sizeof(text) - 1, f);
    text[n] = '\0';
    (void)fclose(f);
    CHECK_STR_EQ(text, "_HiStOrY_V2_\nSELECT\\0408\\040AS\\040eight;\n.quit\n");
    char usual[4096];
    history_text(usual, sizeof(usual));
    CHECK_STR_EQ(usual, "");
}

/* Tab completes keywords (in the case typed), tables after FROM (schemas with their '.',
 * then their tables), columns of the tables the statement names (also on its earlier lines),
 * paths inside delta.`...` (folders with a '/'), and dot-commands. Each completed statement
 * runs, so the completion was the right text. */
TEST(test_pty_tab_completes_keywords_tables_columns_paths_and_commands) {
    static const char *const setup[] = {
        "CREATE TABLE people (person_id INT, name STRING);",
        "INSERT INTO people VALUES (7, 'ann');",
        "CREATE SCHEMA sales;",
        "CREATE TABLE sales.orders (order_id INT);",
    };
    CHECK(session_typing(setup, sizeof(setup) / sizeof(setup[0])));
    session s;
    CHECK(session_start(&s, "C.UTF-8"));
    CHECK(wait_for(&s, "deltalite> ", 5000));

    static const struct {
        const char *typed;
        const char *shown;
    } steps[] = {
        {"sel\t* FROM peo\tWHERE pers\t= 7;\r", "person_id,name\r\n7,ann\r\n"},
        {"SELECT * FROM people\r  WHERE na\t= 'ann' AND pers\t= 7;\r", "7,ann\r\n"},
        {"SELECT count(*) AS n FROM sa\tor\t;\r", "n\r\n0\r\n"},
        {"SELECT count(*) AS m FROM delta.`w\tpe\t`;\r", "m\r\n1\r\n"},
        {".ti\t\r", "off\r\n"},
        {"SET spark.sql.ansi.en\t= false;\rSET spark.sql.ansi.enabled;\r",
         "spark.sql.ansi.enabled,false\r\n"},
    };

    for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
        clear_screen();
        type(&s, steps[i].typed);
        if (!wait_for(&s, steps[i].shown, 5000)) {
            printf("  typed %s; the terminal showed:\n%s\n", steps[i].typed, screen);
            CHECK(false);
        }
        CHECK(wait_for(&s, "deltalite> ", 5000));
    }
    type(&s, ".quit\r");
    CHECK_INT_EQ(session_end(&s), 0);
}

static void
resize(session *s, unsigned short cols) {
    struct winsize ws = {.ws_row = 24, .ws_col = cols};
    (void)ioctl(s->master, TIOCSWINSZ, &ws);
}

/* Box mode fits the terminal's width as it is when a statement runs: it kept the width read
 * at start-up after the window was resized. */
TEST(test_pty_box_follows_a_resized_terminal) {
    session s;
    CHECK(session_start(&s, "C.UTF-8"));
    CHECK(wait_for(&s, "deltalite> ", 5000));
    resize(&s, 40);
    type(&s, ".mode box\r");
    CHECK(wait_for(&s, "deltalite> ", 5000));
    static const char wide[] = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx";
    clear_screen();
    type(&s, "SELECT repeat('x', 60) AS a;\r");
    CHECK(wait_for(&s, "┘", 5000));
    bool is_narrow = strstr(screen, wide) == NULL && strstr(screen, "x…") != NULL;
    resize(&s, 100);
    clear_screen();
    type(&s, "SELECT repeat('x', 60) AS a;\r");
    CHECK(wait_for(&s, "┘", 5000));
    bool is_wide = strstr(screen, wide) != NULL;
    type(&s, ".quit\r");
    CHECK_INT_EQ(session_end(&s), 0);
    CHECK(is_narrow);
    CHECK(is_wide);
}

/* A long statement showed nothing until its result. A progress bar now appears on the
 * terminal (here after 0 ms instead of 1 s) and is erased before the result is written. */
TEST(test_pty_progress_bar_appears_and_clears) {
    static const char *const setup[] = {
        "SET spark.sql.files.maxRecordsPerFile = 2000;",
        "CREATE TABLE slow USING delta AS SELECT id FROM range(400000);",
    };
    CHECK(session_typing(setup, sizeof(setup) / sizeof(setup[0])));
    session s;
    CHECK(session_start(&s, "C.UTF-8"));
    CHECK(wait_for(&s, "deltalite> ", 5000));
    type(&s, ".progress on 0\r");
    CHECK(wait_for(&s, "deltalite> ", 5000));
    clear_screen();
    type(&s, "SELECT count(DISTINCT sha2(CAST(id AS STRING), 512)) AS n FROM slow;\r");
    bool shown = wait_for(&s, "n\r\n400000\r\n", 60000);
    type(&s, ".quit\r");
    CHECK_INT_EQ(session_end(&s), 0);
    const char *bar = strstr(screen, "% \xe2\x96\x95"); /* "45% ▕" */
    const char *erased = strstr(
        screen,
        "\r                                                                                \r");
    const char *result = strstr(screen, "n\r\n400000");
    if (!shown || bar == NULL || erased == NULL || !(bar < erased && erased < result)) {
        printf("  the terminal showed:\n%.3000s\n", screen);
        CHECK(false);
    }
    CHECK(strstr(screen, " of 200 parts") != NULL);
}

/* Box mode on a terminal drew nothing until the last row arrived (the columns were sized from
 * every row shown, the footer counted them all): the first rows now appear while the query
 * still runs, and Ctrl-C then closes the box with what it had. */
TEST(test_pty_box_shows_the_first_rows_while_the_query_runs) {
    session s;
    CHECK(session_start(&s, "C.UTF-8"));
    CHECK(wait_for(&s, "deltalite> ", 5000));
    type(&s, ".mode box\r");
    CHECK(wait_for(&s, "deltalite> ", 5000));
    clear_screen();
    type(&s, "SELECT id FROM range(4000000000);\r");
    bool has_rows = wait_for(&s, "     19 \xe2\x94\x82\r\n", 20000); /* "     19 │" */
    /* no prompt after the first rows yet (judged from the rows, not from the echo of the typed
     * line, which line editing may redraw in pieces on a loaded machine) */
    const char *row = strstr(screen, "     19 \xe2\x94\x82\r\n");
    bool is_running = row != NULL && strstr(row, "deltalite> ") == NULL;
    clear_screen();
    press_key(&s, "\x03");
    bool is_back = wait_for(&s, "deltalite> ", 20000);
    bool is_closed = strstr(screen, "\xe2\x94\x98") != NULL; /* ┘ */
    bool said = strstr(screen, "interrupted") != NULL;
    if (!(has_rows && is_running && is_back && is_closed && said)) {
        printf("  rows %d, running %d, prompt back %d, box closed %d, interrupted said %d\n",
               has_rows, is_running, is_back, is_closed, said);
    }
    CHECK(leave(&s, has_rows && is_running && is_back && is_closed && said));
}

/* With .maxrows -1 a terminal gets one box whose rows stream (not a box per 1,000 rows). */
TEST(test_pty_box_with_every_row_is_one_streamed_box) {
    session s;
    CHECK(session_start(&s, "C.UTF-8"));
    CHECK(wait_for(&s, "deltalite> ", 5000));
    type(&s, ".mode box\r");
    CHECK(wait_for(&s, "deltalite> ", 5000));
    type(&s, ".maxrows -1\r");
    CHECK(wait_for(&s, "deltalite> ", 5000));
    clear_screen();
    type(&s, "SELECT id FROM range(4500);\r");
    bool has_all = wait_for(&s, " 4499 \xe2\x94\x82\r\n", 20000);
    bool is_back = wait_for(&s, "deltalite> ", 20000);
    int n_headers = 0;
    for (const char *p = strstr(screen, "bigint"); p != NULL; p = strstr(p + 1, "bigint")) {
        n_headers++;
    }
    if (n_headers != 1) {
        printf("  %d headers\n", n_headers);
    }
    CHECK(leave(&s, has_all && is_back && n_headers == 1));
}

int
main(int argc, char **argv) {
    if (argc < 2) {
        printf("usage: test_shell_pty PATH_TO_DELTALITE\n");
        return 2;
    }
    static char resolved[4096];
    char cwd[2048];
    if (argv[1][0] == '/') {
        (void)snprintf(resolved, sizeof(resolved), "%s", argv[1]);
    } else if (getcwd(cwd, sizeof(cwd)) != NULL) {
        (void)snprintf(resolved, sizeof(resolved), "%s/%s", cwd, argv[1]);
    }
    shell_path = resolved;
    const char *tmp = getenv("TMPDIR");
    (void)snprintf(dir, sizeof(dir), "%s/dl_pty_XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    if (mkdtemp(dir) == NULL) {
        return 1;
    }
    (void)snprintf(home, sizeof(home), "%s", dir);
    RUN(test_pty_non_ascii_text_typed_at_the_prompt_is_kept);
    RUN(test_pty_hangup_keeps_the_history);
    RUN(test_pty_history_is_trimmed_to_its_limit);
    RUN(test_pty_history_is_kept_under_a_long_home);
    RUN(test_pty_ctrl_c_at_the_prompt_clears_the_line);
    RUN(test_pty_lone_semicolon_comments_and_dot_commands_while_continuing);
    RUN(test_pty_ctrl_d_with_a_pending_statement_says_so);
    RUN(test_pty_deltalite_history_names_the_history_file);
    RUN(test_pty_tab_completes_keywords_tables_columns_paths_and_commands);
    RUN(test_pty_box_follows_a_resized_terminal);
    RUN(test_pty_progress_bar_appears_and_clears);
    RUN(test_pty_box_shows_the_first_rows_while_the_query_runs);
    RUN(test_pty_box_with_every_row_is_one_streamed_box);
    char cmd[600];
    (void)snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    if (system(cmd) != 0) {
        printf("  cannot remove %s\n", dir);
    }
    return harness_finish();
}
