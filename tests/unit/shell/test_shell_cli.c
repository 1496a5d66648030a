/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The deltalite program run as a user runs it: arguments, standard input, output formats,
 * errors and exit codes, checked exactly. Usage: test_shell_cli PATH_TO_DELTALITE. Cases that
 * run SQL are skipped while the library is built without the SQL engine.
 */
#include <fcntl.h>
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
static char dir[256];       /* a temporary working folder */
static char out_buf[65536]; /* the last run's stdout */
static char err_buf[65536]; /* and stderr */
static bool has_engine;

static size_t out_len; /* bytes in out_buf (it may hold NUL bytes) */

/* Reads the file into buf (NUL-terminated); returns its length. */
static size_t
slurp(const char *path, char *buf, size_t cap) {
    buf[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return 0;
    }
    size_t n = fread(buf, 1, cap - 1, f);
    buf[n] = '\0';
    (void)fclose(f);
    return n;
}

static void
write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    if (f != NULL) {
        (void)fputs(text, f);
        (void)fclose(f);
    }
}

/* Runs the shell in dir with argv (NULL-terminated, without the program) and stdin_text;
 * returns the exit status, or -1. */
static int
run(const char *const *args, const char *stdin_text) {
    char in_path[512];
    char out_path[512];
    char err_path[512];
    (void)snprintf(in_path, sizeof(in_path), "%s/.stdin", dir);
    (void)snprintf(out_path, sizeof(out_path), "%s/.stdout", dir);
    (void)snprintf(err_path, sizeof(err_path), "%s/.stderr", dir);
    write_text(in_path, stdin_text ? stdin_text : "");
    const char *argv[32] = {shell_path};
    int n = 1;
    for (; args[n - 1] != NULL && n < 31; n++) {
        argv[n] = args[n - 1];
    }
    argv[n] = NULL;
    pid_t pid = fork();
    if (pid == 0) {
        int in = open(in_path, O_RDONLY);
        int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (in < 0 || out < 0 || err < 0 || chdir(dir) != 0 || dup2(in, 0) < 0 ||
            dup2(out, 1) < 0 || dup2(err, 2) < 0 || setenv("HOME", dir, 1) != 0) {
            _exit(126);
        }
        execv(shell_path, (char *const *)(void *)argv);
        _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) {
        return -1;
    }
    out_len = slurp(out_path, out_buf, sizeof(out_buf));
    (void)slurp(err_path, err_buf, sizeof(err_buf));
    return WEXITSTATUS(status);
}

#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

TEST(test_cli_help_explains_the_warehouse_and_its_default) {
    CHECK_INT_EQ(run(ARGS("--help"), NULL), 0);
    CHECK(strstr(out_buf, "Usage: deltalite [OPTIONS] [WAREHOUSE] [FILE...]") != NULL);
    CHECK(strstr(out_buf, "./spark-warehouse") != NULL);
    CHECK(strstr(out_buf, "-markdown") != NULL);
}

TEST(test_cli_bad_usage_exits_2_with_a_message) {
    CHECK_INT_EQ(run(ARGS("--bogus"), NULL), 2);
    CHECK_STR_EQ(err_buf, "deltalite: unknown option '--bogus'\nTry 'deltalite --help'.\n");
    CHECK_INT_EQ(run(ARGS("wh", "-c"), NULL), 2);
    CHECK(strstr(err_buf, "option -c needs a value") != NULL);
    char path[512];
    (void)snprintf(path, sizeof(path), "%s/script.sql", dir);
    write_text(path, "SELECT 1;\n");
    CHECK_INT_EQ(run(ARGS("script.sql"), NULL), 2);
    CHECK(strstr(err_buf, "'script.sql' is a file; the first argument is the warehouse") != NULL);
    (void)unlink(path);
}

TEST(test_cli_dot_commands_from_stdin) {
    CHECK_INT_EQ(
        run(ARGS("wh"), ".mode csv\n.mode\n.maxrows 5\n.maxrows\n.maxwidth 0\n.maxwidth\n"), 0);
    CHECK_STR_EQ(out_buf, "csv\n5\n0\n");
    CHECK_STR_EQ(err_buf, "");
    CHECK_INT_EQ(run(ARGS("wh"), ".mode bogus\n"), 1);
    CHECK_STR_EQ(err_buf, "Error: .mode: unknown mode 'bogus' (box, csv, json, markdown, table, "
                          "line, list, tabs, jsonlines, html, insert)\n");
    CHECK_INT_EQ(run(ARGS("wh"), ".bogus\n"), 1);
    CHECK_STR_EQ(err_buf, "Error: unknown command '.bogus': .help lists the commands\n");
    CHECK_INT_EQ(run(ARGS("wh"), ".help\n"), 0);
    CHECK(strstr(out_buf, ".mode [MODE]") != NULL);
    /* A line too long to read whole is refused, not cut (".mode" would show the mode). */
    static char long_line[1200];
    (void)snprintf(long_line, sizeof(long_line), ".mode%1100sjson\n", "");
    CHECK_INT_EQ(run(ARGS("wh"), long_line), 1);
    CHECK_STR_EQ(out_buf, "");
    CHECK_STR_EQ(err_buf, "Error: the dot-command line is 1109 bytes; at most 1023 are read\n");
}

TEST(test_cli_creates_the_warehouse_and_defaults_to_spark_warehouse) {
    char expect[600];
    CHECK_INT_EQ(run(ARGS("new/wh"), ".warehouse\n"), 0);
    (void)snprintf(expect, sizeof(expect), "%s/new/wh\n", dir);
    CHECK_STR_EQ(out_buf, expect);
    CHECK_INT_EQ(run(ARGS("-csv"), ".warehouse\n"), 0);
    (void)snprintf(expect, sizeof(expect), "%s\n", dir);
    CHECK_STR_EQ(out_buf, expect);
    char sw[512];
    (void)snprintf(sw, sizeof(sw), "%s/spark-warehouse", dir);
    CHECK(mkdir(sw, 0755) == 0);
    CHECK_INT_EQ(run(ARGS("-csv"), ".warehouse\n"), 0);
    (void)snprintf(expect, sizeof(expect), "%s/spark-warehouse\n", dir);
    CHECK_STR_EQ(out_buf, expect);
    (void)rmdir(sw);
}

TEST(test_cli_box_output_of_a_query) {
    if (!has_engine) {
        return;
    }
    CHECK_INT_EQ(run(ARGS("wh", "-c", "SELECT 1 AS a, 'x' AS b, CAST(NULL AS INT) AS c"), NULL), 0);
    CHECK_STR_EQ(out_buf, "┌─────┬────────┬──────┐\n"
                          "│  a  │   b    │  c   │\n"
                          "│ int │ string │ int  │\n"
                          "├─────┼────────┼──────┤\n"
                          "│   1 │ x      │ NULL │\n"
                          "└─────┴────────┴──────┘\n");
}

TEST(test_cli_csv_json_and_markdown_output) {
    if (!has_engine) {
        return;
    }
    const char *sql = "SELECT * FROM VALUES (1, 'x,y'), (2, NULL) AS t(a, b)";
    CHECK_INT_EQ(run(ARGS("wh", "-csv", "-c", sql), NULL), 0);
    CHECK_STR_EQ(out_buf, "a,b\n1,\"x,y\"\n2,\n");
    CHECK_INT_EQ(run(ARGS("wh", "-json", "-c", sql), NULL), 0);
    CHECK_STR_EQ(out_buf, "[\n{\"a\":1,\"b\":\"x,y\"},\n{\"a\":2,\"b\":null}\n]\n");
    CHECK_INT_EQ(run(ARGS("wh", "-markdown", "-c", sql), NULL), 0);
    CHECK_STR_EQ(out_buf, "| a | b |\n|---:|---|\n| 1 | x,y |\n| 2 | NULL |\n");
    /* Nested values are JSON in JSON mode (every struct field, NULL as null). */
    const char *nested = "SELECT named_struct('x', 1, 'y', CAST(NULL AS STRING), 'z', "
                         "array(1.5D, NULL)) AS s, map('k', 'v') AS m, CAST(NULL AS ARRAY<INT>) "
                         "AS n";
    CHECK_INT_EQ(run(ARGS("wh", "-json", "-c", nested), NULL), 0);
    CHECK_STR_EQ(out_buf, "[\n{\"s\":{\"x\":1,\"y\":null,\"z\":[1.5,null]},\"m\":{\"k\":\"v\"},"
                          "\"n\":null}\n]\n");
}

/* A string holding a NUL byte was cut there in every mode, its column name too, and binary
 * values at their first 0x00. Box and Markdown show NUL as \x00 (as every control character)
 * and binary as DuckDB shows blobs; CSV writes the bytes; JSON writes \u0000 and binary in
 * base64 (as to_json). */
TEST(test_cli_nul_bytes_and_binary_are_shown_whole) {
    if (!has_engine) {
        return;
    }
    const char *sql = "SELECT 'a\\0b', X'61006222' AS b";
    CHECK_INT_EQ(run(ARGS("wh", "-c", sql), NULL), 0);
    CHECK_STR_EQ(out_buf, "┌────────┬────────────┐\n"
                          "│  a\\0b  │     b      │\n"
                          "│ string │   binary   │\n"
                          "├────────┼────────────┤\n"
                          "│ a\\x00b │ a\\x00b\\x22 │\n"
                          "└────────┴────────────┘\n");
    CHECK_INT_EQ(run(ARGS("wh", "-markdown", "-c", sql), NULL), 0);
    CHECK_STR_EQ(out_buf, "| a\\0b | b |\n|---|---|\n| a\\x00b | a\\x00b\\x22 |\n");
    CHECK_INT_EQ(run(ARGS("wh", "-json", "-c", sql), NULL), 0);
    CHECK_STR_EQ(out_buf, "[\n{\"a\\\\0b\":\"a\\u0000b\",\"b\":\"YQBiIg==\"}\n]\n");
    CHECK_INT_EQ(run(ARGS("wh", "-csv", "-c", sql), NULL), 0);
    static const char csv[] = "a\\0b,b\na\0b,a\\x00b\\x22\n";
    CHECK_INT_EQ(out_len, sizeof(csv) - 1);
    CHECK(memcmp(out_buf, csv, sizeof(csv) - 1) == 0);
}

TEST(test_cli_errors_show_message_and_caret_and_exit_1) {
    if (!has_engine) {
        return;
    }
    CHECK_INT_EQ(run(ARGS("wh", "-c", "SELECT (1 FROM t"), NULL), 1);
    CHECK(strncmp(err_buf, "Error: syntax error at line 1, column ", 38) == 0);
    CHECK(strstr(err_buf, "\nSELECT (1 FROM t\n") != NULL);
    CHECK(strstr(err_buf, "^\n") != NULL);
    CHECK_STR_EQ(out_buf, "");
}

TEST(test_cli_script_errors_name_the_file_and_line_and_continue_unless_bail) {
    if (!has_engine) {
        return;
    }
    char path[512];
    (void)snprintf(path, sizeof(path), "%s/s.sql", dir);
    write_text(path, "SELECT 1 AS a;\n\n-- a comment\nSELECT\n  (2 FROM t;\nSELECT 3 AS c;\n");
    CHECK_INT_EQ(run(ARGS("wh", "-csv", "s.sql"), NULL), 1);
    CHECK_STR_EQ(out_buf, "a\n1\nc\n3\n");
    CHECK(strncmp(err_buf, "s.sql:5: Error: syntax error at line 2", 38) == 0);
    CHECK_INT_EQ(run(ARGS("wh", "-csv", "-bail", "s.sql"), NULL), 1);
    CHECK_STR_EQ(out_buf, "a\n1\n");
    CHECK_INT_EQ(run(ARGS("wh", "-csv"), "SELECT 1 AS a;\nSELECT 2 AS b\n"), 0);
    CHECK_STR_EQ(out_buf, "a\n1\nb\n2\n");
    CHECK_INT_EQ(run(ARGS("wh", "-csv", "-c", "SELECT 1 AS a; SELECT 2 AS b"), NULL), 0);
    CHECK_STR_EQ(out_buf, "a\n1\nb\n2\n");
    (void)unlink(path);
}

/* Reads fd to its end into buf (cap bytes, NUL-terminated). */
static void
read_all(int fd, char *buf, size_t cap) {
    size_t n = 0;
    ssize_t got = 0;
    while (n + 1 < cap && (got = read(fd, buf + n, cap - 1 - n)) > 0) {
        n += (size_t)got;
    }
    buf[n] = '\0';
}

/* Ctrl-C after a statement finished its work (here VACUUM DRY RUN, whose rows the shell is
 * still writing into a full pipe) does not turn it into an error: its rows are all printed,
 * and the statement after it is not run, which the shell says (exit status 1). It printed
 * "the statement was interrupted" for work that was done (a commit, for OPTIMIZE). */
TEST(test_cli_ctrl_c_after_the_work_is_done_reports_it_and_runs_nothing_more) {
    if (!has_engine) {
        return;
    }
    CHECK_INT_EQ(run(ARGS("wh", "-c", "CREATE TABLE v (id INT)"), NULL), 0);
    char path[512];

    enum {
        N_ORPHANS = 1500
    };

    for (int i = 0; i < N_ORPHANS; i++) {
        (void)snprintf(path, sizeof(path),
                       "%s/wh/v/orphan-%04d-with-a-long-name-to-fill-the-pipe"
                       ".parquet",
                       dir, i);
        write_text(path, "x");
        struct timespec old[2] = {{.tv_sec = 1000000000}, {.tv_sec = 1000000000}};
        CHECK(utimensat(AT_FDCWD, path, old, 0) == 0);
    }
    int out[2];
    CHECK(pipe(out) == 0);
    char err_path[512];
    (void)snprintf(err_path, sizeof(err_path), "%s/.stderr", dir);
    pid_t pid = fork();
    if (pid == 0) {
        int devnull = open("/dev/null", O_RDONLY);
        int err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (devnull < 0 || err < 0 || chdir(dir) != 0 || dup2(devnull, 0) < 0 ||
            dup2(out[1], 1) < 0 || dup2(err, 2) < 0) {
            _exit(126);
        }
        (void)close(out[0]);
        execl(shell_path, shell_path, "wh", "-csv", "-c",
              "VACUUM v DRY RUN; CREATE TABLE w (id INT)", (char *)NULL);
        _exit(127);
    }
    (void)close(out[1]);
    /* Wait until the pipe is full: the shell is blocked writing rows. */
    int queued = 0;
    for (int i = 0; i < 2000 && queued < 65536; i++) {
        struct timespec ms = {.tv_nsec = 5 * 1000 * 1000};
        (void)nanosleep(&ms, NULL);
        CHECK(ioctl(out[0], FIONREAD, &queued) == 0);
    }
    CHECK(queued >= 65536);
    CHECK(kill(pid, SIGINT) == 0);
    static char rows[262144];
    read_all(out[0], rows, sizeof(rows));
    (void)close(out[0]);
    int status = 0;
    CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status));
    CHECK_INT_EQ(WEXITSTATUS(status), 1);
    int n_lines = 0;
    for (const char *p = rows; *p != '\0'; p++) {
        n_lines += *p == '\n' ? 1 : 0;
    }
    CHECK_INT_EQ(n_lines, N_ORPHANS + 1); /* the header and every row */
    (void)slurp(err_path, err_buf, sizeof(err_buf));
    CHECK_STR_EQ(err_buf, "Interrupted: the statement before had completed (Ctrl-C came too late "
                          "to cancel it); the statements after it were not run\n");
    (void)snprintf(path, sizeof(path), "%s/wh/w", dir);
    struct stat st;
    CHECK(stat(path, &st) != 0); /* the second statement did not run */
}

/* Every output mode as its command-line flag (sqlite3's and DuckDB's spellings). */
TEST(test_cli_every_mode_has_a_flag) {
    if (!has_engine) {
        return;
    }
    const char *sql = "SELECT * FROM VALUES (1, 'x<y'), (2, NULL) AS t(a, b)";

    static const struct {
        const char *flag;
        const char *out;
    } cases[] = {
        {"-table", "+---+------+\n| a |  b   |\n+---+------+\n| 1 | x<y  |\n| 2 | NULL |\n"
                   "+---+------+\n"},
        {"-line", "a = 1\nb = x<y\n\na = 2\nb = NULL\n"},
        {"-list", "a|b\n1|x<y\n2|NULL\n"},
        {"-tabs", "a\tb\n1\tx<y\n2\tNULL\n"},
        {"-jsonlines", "{\"a\":1,\"b\":\"x<y\"}\n{\"a\":2,\"b\":null}\n"},
        {"-html", "<table>\n<tr><th>a</th><th>b</th></tr>\n<tr><td>1</td><td>x&lt;y</td></tr>\n"
                  "<tr><td>2</td><td>NULL</td></tr>\n</table>\n"},
        {"-insert", "INSERT INTO tbl VALUES (1, 'x<y');\nINSERT INTO tbl VALUES (2, NULL);\n"},
        {"--list", "a|b\n1|x<y\n2|NULL\n"},
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        CHECK_INT_EQ(run(ARGS("wh", cases[i].flag, "-c", sql), NULL), 0);
        CHECK_STR_EQ(out_buf, cases[i].out);
    }
    CHECK_INT_EQ(run(ARGS("wh", "-noheader", "-nullvalue", "-", "-csv", "-c", sql), NULL), 0);
    CHECK_STR_EQ(out_buf, "1,x<y\n2,-\n");
}

/* Insert mode writes statements that load the same rows back, for every scalar type; nested
 * values, which have no literal there, are refused rather than written as text. */
TEST(test_cli_insert_mode_round_trips_and_refuses_nested_values) {
    if (!has_engine) {
        return;
    }
    const char *cols = "(i INT, l BIGINT, s STRING, b BINARY, d DATE, ts TIMESTAMP, "
                       "tn TIMESTAMP_NTZ, f FLOAT, db DOUBLE, dc DECIMAL(10,2), bo BOOLEAN)";
    char sql[1024];
    (void)snprintf(sql, sizeof(sql),
                   "CREATE TABLE ins_src %s; CREATE TABLE ins_dst %s; INSERT INTO ins_src VALUES "
                   "(1, 9000000000, 'a\\\\b''c\\0d', X'00FF10', DATE '2020-01-02', "
                   "TIMESTAMP '2020-01-02 03:04:05.123456', TIMESTAMP_NTZ '2021-01-01 00:00:00', "
                   "CAST('Infinity' AS FLOAT), -1.5E300, 12.50, false), "
                   "(NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)",
                   cols, cols);
    CHECK_INT_EQ(run(ARGS("wh", "-c", sql), NULL), 0);
    CHECK_INT_EQ(run(ARGS("wh", "-c", ".mode insert ins_dst\nSELECT * FROM ins_src"), NULL), 0);
    static char inserts[sizeof(out_buf)];
    (void)snprintf(inserts, sizeof(inserts), "%s", out_buf);
    CHECK(strstr(inserts, "INSERT INTO ins_dst VALUES (1, 9000000000, 'a\\\\b\\'c\\0d'") != NULL);
    CHECK_INT_EQ(run(ARGS("wh"), inserts), 0);
    CHECK_INT_EQ(run(ARGS("wh", "-csv", "-c",
                          "SELECT count(*) FROM ins_dst; SELECT count(*) FROM (SELECT * FROM "
                          "ins_src EXCEPT SELECT * FROM ins_dst)"),
                     NULL),
                 0);
    CHECK_STR_EQ(out_buf, "count(1)\n2\ncount(1)\n0\n");
    CHECK_INT_EQ(run(ARGS("wh", "-insert", "-c", "SELECT 1 AS a, array(1) AS xs"), NULL), 1);
    CHECK_STR_EQ(out_buf, "");
    CHECK(strncmp(err_buf,
                  "Error: insert mode cannot write column 'xs' of type array<int>: the shell "
                  "has no SQL literal for nested values\n",
                  100) == 0);
}

/* The output settings are dot-commands, also in -c, -cmd and the start-up file. */
TEST(test_cli_output_settings) {
    if (!has_engine) {
        return;
    }
    const char *sql = "SELECT * FROM VALUES (1, 'alice'), (2, NULL) AS t(id, name)";
    char text[1024];
    (void)snprintf(text, sizeof(text), ".mode table\n.headers off\n.nullvalue ~\n.width 3 2\n%s",
                   sql);
    CHECK_INT_EQ(run(ARGS("wh", "-c", text), NULL), 0);
    CHECK_STR_EQ(out_buf, "+-----+----+\n|   1 | a… |\n|   2 | ~  |\n+-----+----+\n");
    CHECK_INT_EQ(run(ARGS("wh", "-cmd", ".mode list", "-c", sql), NULL), 0);
    CHECK_STR_EQ(out_buf, "id|name\n1|alice\n2|NULL\n");
    /* .timer with no argument shows its state; on, it reports real, user and system time. */
    CHECK_INT_EQ(run(ARGS("wh", "-csv", "-c", ".timer\n.timer on\n.timer\nSELECT 1 AS a"), NULL),
                 0);
    CHECK(strncmp(out_buf, "off\non\na\n1\nRun Time (s): real ", 30) == 0);
    CHECK(strstr(out_buf, " user ") != NULL && strstr(out_buf, " sys ") != NULL);
    CHECK_INT_EQ(run(ARGS("wh", "-csv", "-echo", "-c", "SELECT 1 AS a;\n.headers off"), NULL), 0);
    CHECK_STR_EQ(out_buf, "SELECT 1 AS a\na\n1\n.headers off\n");
    CHECK_INT_EQ(run(ARGS("wh", "-c", ".timer maybe"), NULL), 1);
    CHECK_STR_EQ(err_buf, "Error: .timer: expected on or off, got 'maybe'\n");
    /* .once writes one statement's rows to a file; .output until the next .output. */
    CHECK_INT_EQ(run(ARGS("wh", "-csv", "-c",
                          ".once once.csv\nSELECT 1 AS a;\nSELECT 2 AS b;\n.output all.csv\n"
                          "SELECT 3 AS c;\nSELECT 4 AS d;\n.output\nSELECT 5 AS e;"),
                     NULL),
                 0);
    CHECK_STR_EQ(out_buf, "b\n2\ne\n5\n");
    char path[600];
    static char file[1024];
    (void)snprintf(path, sizeof(path), "%s/once.csv", dir);
    (void)slurp(path, file, sizeof(file));
    CHECK_STR_EQ(file, "a\n1\n");
    (void)unlink(path);
    (void)snprintf(path, sizeof(path), "%s/all.csv", dir);
    (void)slurp(path, file, sizeof(file));
    CHECK_STR_EQ(file, "c\n3\nd\n4\n");
    (void)unlink(path);
    CHECK_INT_EQ(run(ARGS("wh", "-c", ".output /no/such/dir/x.csv"), NULL), 1);
    CHECK_STR_EQ(err_buf,
                 "Error: .output: cannot write '/no/such/dir/x.csv': No such file or directory\n");
}

TEST(test_cli_shell_cd_show_prompt_and_bail) {
    CHECK_INT_EQ(run(ARGS("wh", "-c", ".shell echo hi there\n.system exit 3"), NULL), 1);
    CHECK_STR_EQ(out_buf, "hi there\n");
    CHECK_STR_EQ(err_buf, "Error: .system: the command exited with status 3\n");
    CHECK_INT_EQ(run(ARGS("wh", "-c", ".cd wh\n.shell pwd"), NULL), 0);
    char expect[600];
    (void)snprintf(expect, sizeof(expect), "%s/wh\n", dir);
    CHECK_STR_EQ(out_buf, expect);
    CHECK_INT_EQ(run(ARGS("wh", "-c", ".prompt 'db> ' '.. '\n.prompt\n.show"), NULL), 0);
    CHECK(strncmp(out_buf, "\"db> \" \".. \"\n", 13) == 0);
    CHECK(strstr(out_buf, "        mode: box\n     headers: on\n") != NULL);
    CHECK(strstr(out_buf, "      prompt: \"db> \" \".. \"\n") != NULL);
    CHECK_INT_EQ(run(ARGS("wh", "-c", ".bail on\n.bogus\n.shell echo not reached"), NULL), 1);
    CHECK_STR_EQ(out_buf, "");
}

/* -readonly refuses every write with a clear error (the API enforces it) and creates no
 * warehouse; .open refuses a folder that does not exist instead of creating it. */
TEST(test_cli_readonly_and_open_refuse_to_create) {
    if (!has_engine) {
        return;
    }
    CHECK_INT_EQ(run(ARGS("wh", "-c", "CREATE TABLE ro (a INT)"), NULL), 0);
    CHECK_INT_EQ(run(ARGS("-readonly", "wh", "-csv", "-c",
                          "SELECT count(*) AS n FROM ro; INSERT INTO ro VALUES (1)"),
                     NULL),
                 1);
    CHECK_STR_EQ(out_buf, "n\n0\n");
    CHECK_STR_EQ(err_buf, "Error: line 1, column 1: INSERT writes files, and the warehouse is open "
                          "read-only\nINSERT INTO ro VALUES (1)\n^\nHint: open it without "
                          "-readonly (DELTALITE_OPEN_READONLY) to change it\n");
    CHECK_INT_EQ(run(ARGS("-readonly", "nowh", "-c", "SELECT 1"), NULL), 2);
    CHECK(strstr(err_buf, "does not exist") != NULL);
    struct stat st;
    char path[600];
    (void)snprintf(path, sizeof(path), "%s/nowh", dir);
    CHECK(stat(path, &st) != 0);
    CHECK_INT_EQ(run(ARGS("wh", "-c", ".open nowh/deeper"), NULL), 1);
    CHECK_STR_EQ(err_buf, "Error: .open: 'nowh/deeper' is not a warehouse folder (it does not "
                          "exist, or is not a folder); create it first (mkdir) to start a new "
                          "one\n");
    CHECK(stat(path, &st) != 0);
    CHECK_INT_EQ(run(ARGS("-readonly", "wh", "-c", ".open .\nCREATE TABLE x (a INT)"), NULL), 1);
    CHECK(strstr(err_buf, "read-only") != NULL); /* .open keeps -readonly */
}

/* The start-up file: ~/.deltaliterc, or -init FILE instead; then -cmd, then the input. */
TEST(test_cli_init_file_and_cmd_run_first) {
    if (!has_engine) {
        return;
    }
    char rc_path[600];
    (void)snprintf(rc_path, sizeof(rc_path), "%s/.deltaliterc", dir);
    write_text(rc_path, ".mode csv\n");
    CHECK_INT_EQ(run(ARGS("wh", "-c", "SELECT 1 AS a"), NULL), 0);
    CHECK_STR_EQ(out_buf, "a\n1\n");
    char init_path[600];
    (void)snprintf(init_path, sizeof(init_path), "%s/init.sql", dir);
    write_text(init_path, ".mode list\nSET spark.sql.session.timeZone = '+02:00';\n");
    CHECK_INT_EQ(run(ARGS("wh", "-init", "init.sql", "-cmd", ".headers off"),
                     "SELECT TIMESTAMP '2026-01-01 00:00:00Z' AS t, 2 AS b;\n"),
                 0);
    CHECK_STR_EQ(out_buf, "2026-01-01 02:00:00|2\n");
    CHECK_INT_EQ(run(ARGS("wh", "-init", "missing.sql", "-c", "SELECT 1 AS a"), NULL), 1);
    CHECK(strncmp(err_buf, "Error: cannot open the start-up file 'missing.sql'", 50) == 0);
    (void)unlink(rc_path);
    (void)unlink(init_path);
}

/* .schema prints each table's CREATE statement (SHOW CREATE TABLE): columns with NOT NULL and
 * comments, partitioning, properties; run again, it makes the same table. */
TEST(test_cli_schema_prints_create_statements_that_run) {
    if (!has_engine) {
        return;
    }
    CHECK_INT_EQ(run(ARGS("sch", "-c",
                          "CREATE TABLE s1 (id INT NOT NULL COMMENT 'the key', `odd-name` "
                          "STRING, p DATE) USING delta PARTITIONED BY (p) COMMENT 'a table' "
                          "TBLPROPERTIES ('delta.appendOnly' = 'true'); CREATE TABLE s2 (x "
                          "ARRAY<STRUCT<a: INT, b: STRING>>)"),
                     NULL),
                 0);
    CHECK_INT_EQ(run(ARGS("sch", "-c", ".schema s1"), NULL), 0);
    CHECK_STR_EQ(out_buf, "CREATE TABLE default.s1 (\n"
                          "  id int NOT NULL COMMENT 'the key',\n"
                          "  `odd-name` string,\n"
                          "  p date)\n"
                          "USING delta\n"
                          "PARTITIONED BY (p)\n"
                          "COMMENT 'a table'\n"
                          "TBLPROPERTIES (\n"
                          "  'delta.appendOnly' = 'true',\n"
                          "  'delta.minReaderVersion' = '1',\n"
                          "  'delta.minWriterVersion' = '2');\n");
    CHECK_INT_EQ(run(ARGS("sch", "-c", ".schema"), NULL), 0);
    CHECK(strstr(out_buf, "CREATE TABLE default.s1 (") != NULL);
    CHECK(strstr(out_buf, "CREATE TABLE default.s2 (\n"
                          "  x array<struct<a:int,b:string>>)\n") != NULL);
    /* The statement makes the same table under another name. */
    CHECK_INT_EQ(run(ARGS("sch", "-c", ".schema s2"), NULL), 0);
    char *name = strstr(out_buf, "default.s2");
    CHECK(name != NULL);
    memcpy(name, "default.s3", 10);
    static char sql[sizeof(out_buf)];
    (void)snprintf(sql, sizeof(sql), "%s", out_buf);
    CHECK_INT_EQ(run(ARGS("sch", "-c", sql), NULL), 0);
    CHECK_INT_EQ(run(ARGS("sch", "-csv", "-c", "DESCRIBE s3"), NULL), 0);
    CHECK_STR_EQ(out_buf, "col_name,data_type,comment\nx,\"array<struct<a:int,b:string>>\",\n");
    CHECK_INT_EQ(run(ARGS("sch", "-c", ".schema nosuch"), NULL), 1);
    CHECK(strstr(err_buf, "nosuch") != NULL);
}

/* Box mode with every row kept every row in memory until the end (~1 GB before the first
 * line of a big table); it draws a box per 1000 rows as they arrive. */
TEST(test_cli_box_mode_draws_all_rows_in_sections_of_1000) {
    if (!has_engine) {
        return;
    }
    CHECK_INT_EQ(run(ARGS("wh", "-table", "-c", "SELECT id FROM range(2500) ORDER BY id"), NULL),
                 0);
    int n_headers = 0;
    int n_rows = 0;
    for (const char *p = out_buf; (p = strchr(p, '\n')) != NULL; p++) {
        n_headers += p[1] == '|' && strncmp(p + 2, " id ", 4) == 0 ? 1 : 0;
        n_headers += p[1] == '|' && strncmp(p + 2, "  id  ", 6) == 0 ? 1 : 0;
    }
    for (const char *p = out_buf; *p != '\0'; p++) {
        n_rows += (p == out_buf || p[-1] == '\n') && strncmp(p, "| ", 2) == 0 ? 1 : 0;
    }
    CHECK_INT_EQ(n_headers, 3);
    CHECK_INT_EQ(n_rows, 2500 + 3);
    CHECK(strstr(out_buf, "| 999 |\n+-----+\n+------+\n|  id  |\n+------+\n| 1000 |\n") != NULL);
}

/* SET -v lists every setting deltalite knows, sorted, with the value in force, its meaning and
 * the Spark release it came with (it said "-v" was undefined); completion after SET offers
 * these keys. */
TEST(test_cli_set_v_lists_the_known_settings) {
    if (!has_engine) {
        return;
    }
    CHECK_INT_EQ(run(ARGS("wh", "-csv", "-c", "SET parquet.page.size = 4096; SET -v"), NULL), 0);
    static const char head[] = "key,value,meaning,Since version\nparquet.block.size,134217728,";
    CHECK(strncmp(out_buf, head, sizeof(head) - 1) == 0);
    CHECK(strstr(out_buf, "\nparquet.page.size,4096,") != NULL);
    CHECK(strstr(out_buf, "\nspark.sql.session.timeZone,UTC,") != NULL);
    CHECK(strstr(out_buf, "in the format of") == NULL); /* deltalite's own words */
    CHECK(strstr(out_buf, ",2.2.0\n") != NULL);
}

/* .changes off hides the row counts INSERT, UPDATE, DELETE and MERGE answer; queries still
 * print. */
TEST(test_cli_changes_off_hides_the_counts_of_dml) {
    if (!has_engine) {
        return;
    }
    CHECK_INT_EQ(run(ARGS("wh", "-csv", "-c",
                          "CREATE TABLE ch (a INT); INSERT INTO ch VALUES (1), (2);\n"
                          ".changes off\nINSERT INTO ch VALUES (3); DELETE FROM ch WHERE a = 1; "
                          "SELECT count(*) AS n FROM ch;\n.changes"),
                     NULL),
                 0);
    CHECK_STR_EQ(out_buf, "num_affected_rows,num_inserted_rows\n2,2\nn\n2\noff\n");
}

TEST(test_cli_import_creates_then_appends_through_read_csv) {
    if (!has_engine) {
        return;
    }
    char path[512];
    (void)snprintf(path, sizeof(path), "%s/fruit.csv", dir);
    write_text(path, "id,name\n1,apple\n2,\"pear, ripe\"\n");
    (void)snprintf(path, sizeof(path), "%s/more.tsv", dir);
    write_text(path, "3\tfig\n");
    CHECK_INT_EQ(run(ARGS("wh", "-csv", "-c",
                          ".import fruit.csv fruit\n.import more.tsv fruit sep=\\t header=false\n"
                          "SELECT id, name, typeof(id) AS t FROM fruit ORDER BY id"),
                     NULL),
                 0);
    CHECK_STR_EQ(out_buf, "num_affected_rows,num_inserted_rows\n1,1\nid,name,t\n1,apple,int\n"
                          "2,\"pear, ripe\",int\n3,fig,int\n");
    CHECK_INT_EQ(run(ARGS("wh", "-c", ".import fruit.csv"), NULL), 1);
    CHECK(strstr(err_buf, ".import: expected FILE TABLE") != NULL);
    CHECK_INT_EQ(run(ARGS("wh", "-c", ".import missing.csv t2"), NULL), 1);
    CHECK(strstr(err_buf, "missing.csv") != NULL);
    CHECK_INT_EQ(run(ARGS("wh", "-c", ".import fruit.csv t3 sep"), NULL), 1);
    CHECK(strstr(err_buf, "options are OPTION=VALUE") != NULL);
}

static void
remove_tree(const char *path) {
    char cmd[600];
    (void)snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path);
    if (system(cmd) != 0) {
        printf("  cannot remove %s\n", path);
    }
}

int
main(int argc, char **argv) {
    if (argc < 2) {
        printf("usage: test_shell_cli PATH_TO_DELTALITE\n");
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
    (void)snprintf(dir, sizeof(dir), "%s/dl_cli_XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    if (mkdtemp(dir) == NULL) {
        return 1;
    }
    (void)run(ARGS("wh", "-c", "SELECT 1"), NULL);
    has_engine = strstr(err_buf, "not built") == NULL;
    if (!has_engine) {
        printf("(cases that run SQL are skipped: %s)\n", err_buf);
    }
    RUN(test_cli_help_explains_the_warehouse_and_its_default);
    RUN(test_cli_bad_usage_exits_2_with_a_message);
    RUN(test_cli_dot_commands_from_stdin);
    RUN(test_cli_creates_the_warehouse_and_defaults_to_spark_warehouse);
    RUN(test_cli_box_output_of_a_query);
    RUN(test_cli_csv_json_and_markdown_output);
    RUN(test_cli_nul_bytes_and_binary_are_shown_whole);
    RUN(test_cli_errors_show_message_and_caret_and_exit_1);
    RUN(test_cli_script_errors_name_the_file_and_line_and_continue_unless_bail);
    RUN(test_cli_ctrl_c_after_the_work_is_done_reports_it_and_runs_nothing_more);
    RUN(test_cli_every_mode_has_a_flag);
    RUN(test_cli_insert_mode_round_trips_and_refuses_nested_values);
    RUN(test_cli_output_settings);
    RUN(test_cli_shell_cd_show_prompt_and_bail);
    RUN(test_cli_readonly_and_open_refuse_to_create);
    RUN(test_cli_init_file_and_cmd_run_first);
    RUN(test_cli_schema_prints_create_statements_that_run);
    RUN(test_cli_box_mode_draws_all_rows_in_sections_of_1000);
    RUN(test_cli_set_v_lists_the_known_settings);
    RUN(test_cli_changes_off_hides_the_counts_of_dml);
    RUN(test_cli_import_creates_then_appends_through_read_csv);
    remove_tree(dir);
    return harness_finish();
}
