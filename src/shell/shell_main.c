/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The deltalite program: `deltalite [OPTIONS] [WAREHOUSE] [FILE...]`. docs/shell.md is the
 * manual; the usage text below is its summary.
 *
 * What runs, in order: the start-up file (-init FILE, else ~/.deltaliterc when it exists),
 * every -cmd, then every -c SQL and -f FILE as given, then every FILE argument; with none of
 * those, standard input: the interactive shell when it is a terminal, otherwise a script read
 * without a prompt. -c text may hold dot-commands (on lines of their own), as a script does.
 * Exit status: 0 when everything ran, 1 when a statement failed, 2 for bad usage or a
 * warehouse that cannot be opened.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shell/shell_int.h"

static const char usage[] =
    "deltalite %s - Spark SQL over Delta Lake tables, no JVM needed\n"
    "\n"
    "Usage: deltalite [OPTIONS] [WAREHOUSE] [FILE...]\n"
    "\n"
    "WAREHOUSE is a folder of Delta tables in Spark's layout: tables of the schema `default`\n"
    "are its sub-folders (each holding _delta_log/), other schemas are <schema>.db folders.\n"
    "It is created when missing (not with -readonly). Without it: ./spark-warehouse when that folder exists (where\n"
    "Spark puts tables by default), else the current folder. Any Delta table can also be read\n"
    "by path: SELECT * FROM delta.`/path/to/table`.\n"
    "\n"
    "SQL comes from -c and -f in the order given, then from the FILE arguments; with none of\n"
    "them, from standard input (an interactive shell when it is a terminal).\n"
    "\n"
    "Options:\n"
    "  -c SQL           run SQL (statements, and dot-commands on lines of their own)\n"
    "  -f FILE          run the SQL in FILE ('-' is standard input)\n"
    "  -cmd SQL         run SQL (or a dot-command) first, then go on as without it\n"
    "  -init FILE       run FILE at start-up instead of ~/.deltaliterc\n"
    "  -readonly        open the warehouse read-only: every write is refused\n"
    "  -box             print results as box-drawn tables (the default)\n"
    "  -table           print results as ASCII tables\n"
    "  -csv             print results as CSV with a header line\n"
    "  -json            print results as a JSON array of objects\n"
    "  -jsonlines       print results as one JSON object per line\n"
    "  -markdown        print results as Markdown tables\n"
    "  -line, -list, -tabs, -html, -insert   the other output modes (.help in the shell)\n"
    "  -header, -noheader   show or leave out column names\n"
    "  -nullvalue TEXT  show NULL as TEXT\n"
    "  -echo            print each statement before running it\n"
    "  -bail            stop at the first failing statement\n"
    "  -h, --help       show this help and exit\n"
    "  -v, --version    print the version and exit\n"
    "\n"
    "In the shell, end statements with ';' and type .help for the dot-commands.\n"
    "Exit status: 0 when all statements ran, 1 when one failed, 2 for bad usage.\n";

#define MAX_INPUTS 64

typedef struct input {
    const char *text; /* -c SQL, or NULL */
    const char *file; /* -f FILE / FILE argument, or NULL */
} input;

typedef struct args {
    const char *warehouse;
    input inputs[MAX_INPUTS];
    int n_inputs;
    const char *cmds[MAX_INPUTS]; /* -cmd SQL */
    int n_cmds;
    const char *init_file; /* -init FILE */
    const char *null_text; /* -nullvalue TEXT */
    dl_shell_mode mode;
    bool bail;
    bool echo;
    bool is_readonly;
    bool no_header;
} args;

static int usage_error(const char *fmt, ...) DL_PRINTF(1, 2);

static int
usage_error(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    (void)fputs("deltalite: ", stderr);
    (void)vfprintf(stderr, fmt, ap);
    (void)fputs("\nTry 'deltalite --help'.\n", stderr);
    va_end(ap);
    return 2;
}

static bool
is_folder(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool
is_file(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int
add_input(args *a, const char *text, const char *file) {
    if (a->n_inputs == MAX_INPUTS) {
        return usage_error("too many inputs (at most %d)", MAX_INPUTS);
    }
    a->inputs[a->n_inputs++] = (input){.text = text, .file = file};
    return 0;
}

/* Strips the one or two dashes of an option: "-csv" and "--csv" are "csv". */
static const char *
option_name(const char *arg) {
    return arg + (arg[1] == '-' ? 2 : 1);
}

/* An option that takes a value (value is argv[i + 1]). Returns 0, or the exit status. */
static int
valued_option(args *a, const char *name, const char *value) {
    if (strcmp(name, "c") == 0) {
        return add_input(a, value, NULL);
    }
    if (strcmp(name, "f") == 0) {
        return add_input(a, NULL, value);
    }
    if (strcmp(name, "cmd") == 0) {
        if (a->n_cmds == MAX_INPUTS) {
            return usage_error("too many -cmd (at most %d)", MAX_INPUTS);
        }
        a->cmds[a->n_cmds++] = value;
    } else if (strcmp(name, "init") == 0) {
        a->init_file = value;
    } else {
        a->null_text = value;
    }
    return 0;
}

/* A flag. Returns false when arg is none. */
static bool
flag_option(args *a, const char *name) {
    dl_shell_mode mode;
    if (strcmp(name, "bail") == 0) {
        a->bail = true;
    } else if (strcmp(name, "echo") == 0) {
        a->echo = true;
    } else if (strcmp(name, "readonly") == 0) {
        a->is_readonly = true;
    } else if (strcmp(name, "header") == 0 || strcmp(name, "headers") == 0 ||
               strcmp(name, "noheader") == 0) {
        a->no_header = strcmp(name, "noheader") == 0;
    } else if (dl_shell_mode_parse(name, &mode)) {
        a->mode = mode;
    } else {
        return false;
    }
    return true;
}

static bool
has_value(const char *name) {
    static const char *const valued[] = {"c", "f", "cmd", "init", "nullvalue"};
    for (size_t i = 0; i < DL_ARRAY_LEN(valued); i++) {
        if (strcmp(name, valued[i]) == 0) {
            return true;
        }
    }
    return false;
}

/* Parses the command line; returns -1 to go on, or the exit status. */
static int
parse_args(int argc, char **argv, args *a) {
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        bool is_option = arg[0] == '-' && arg[1] != '\0';
        const char *name = is_option ? option_name(arg) : "";
        if (strcmp(arg, "-v") == 0 || strcmp(arg, "--version") == 0) {
            (void)printf("deltalite %s\n", deltalite_version());
            return 0;
        }
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            (void)printf(usage, deltalite_version());
            return 0;
        }
        int rc = 0;
        if (is_option && has_value(name)) {
            if (i + 1 >= argc) {
                return usage_error("option %s needs a value", arg);
            }
            rc = valued_option(a, name, argv[++i]);
        } else if (is_option && !flag_option(a, name)) {
            return usage_error("unknown option '%s'", arg);
        } else if (is_option) {
            continue;
        } else if (a->warehouse == NULL) {
            if (is_file(arg)) {
                return usage_error("'%s' is a file; the first argument is the warehouse "
                                   "folder (run a script with: deltalite WAREHOUSE FILE, or -f)",
                                   arg);
            }
            a->warehouse = arg;
        } else {
            rc = add_input(a, NULL, arg);
        }
        if (rc != 0) {
            return rc;
        }
    }
    return -1;
}

/* Runs text (-c, -cmd) as a script without a file name: statements and dot-commands. */
static bool
run_text(dl_shell *sh, const char *text) {
    dl_buf copy; /* fmemopen takes a writable buffer, also to read */
    dl_buf_init(&copy, NULL);
    FILE *f = NULL;
    if (dl_buf_append_cstr(&copy, text, NULL) == DL_OK) {
        f = fmemopen(copy.data, copy.len, "rb");
    }
    if (f == NULL) {
        dl_buf_destroy(&copy);
        (void)fprintf(sh->err, "Error: out of memory reading -c\n");
        sh->n_failed++;
        return false;
    }
    bool ok = dl_shell_run_file(sh, f, NULL);
    (void)fclose(f);
    dl_buf_destroy(&copy);
    return ok;
}

static bool
run_input(dl_shell *sh, const input *in) {
    if (in->text != NULL) {
        return in->text[0] == '\0' || run_text(sh, in->text);
    }
    if (in->file == NULL || strcmp(in->file, "-") == 0) {
        return dl_shell_run_file(sh, stdin, "<stdin>");
    }
    FILE *f = fopen(in->file, "rb");
    if (f == NULL) {
        (void)fprintf(sh->err, "Error: cannot open '%s'\n", in->file);
        sh->n_failed++;
        return false;
    }
    bool ok = dl_shell_run_file(sh, f, in->file);
    (void)fclose(f);
    return ok;
}

static void
banner(dl_shell *sh) {
    (void)fprintf(sh->out,
                  "deltalite %s - Spark SQL over Delta tables\n"
                  "Warehouse: %s\n"
                  "Enter \".help\" for usage hints; end statements with ';'.\n",
                  deltalite_version(), deltalite_warehouse(sh->db));
}

/* The start-up file: -init FILE (which must exist), else ~/.deltaliterc when it exists. */
static bool
run_init_file(dl_shell *sh, const args *a) {
    char path[4096];
    const char *home = getenv("HOME");
    if (a->init_file != NULL) {
        (void)snprintf(path, sizeof(path), "%s", a->init_file);
    } else if (home != NULL && home[0] != '\0' &&
               (size_t)snprintf(path, sizeof(path), "%s/.deltaliterc", home) < sizeof(path) &&
               is_file(path)) {
        /* found */
    } else {
        return true;
    }
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        (void)fprintf(sh->err, "Error: cannot open the start-up file '%s': %s\n", path,
                      strerror(errno));
        sh->n_failed++;
        return false;
    }
    bool ok = dl_shell_run_file(sh, f, path);
    (void)fclose(f);
    return ok;
}

static int
run(dl_shell *sh, const args *a) {
    bool ok = run_init_file(sh, a);
    for (int i = 0; i < a->n_cmds && !sh->should_quit && (ok || !sh->bail); i++) {
        ok = run_text(sh, a->cmds[i]) && ok;
    }
    if (!ok && sh->bail) {
        return 1;
    }
    for (int i = 0; i < a->n_inputs; i++) {
        if (sh->should_quit) {
            if (sh->is_late_interrupt) {
                dl_shell_note_skipped(sh);
            }
            break;
        }
        if (!run_input(sh, &a->inputs[i]) && sh->bail) {
            break;
        }
    }
    if (a->n_inputs == 0 && !sh->should_quit) {
        sh->is_interactive = isatty(STDIN_FILENO) != 0;
        if (sh->is_interactive) {
            banner(sh);
            dl_shell_interactive(sh);
        } else {
            (void)dl_shell_run_file(sh, stdin, "<stdin>");
        }
    }
    return sh->n_failed > 0 && !sh->is_interactive ? 1 : 0;
}

int
main(int argc, char **argv) {
    args a = {.mode = DL_SHELL_MODE_BOX};
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0) {
        return rc;
    }
    if (a.warehouse == NULL) {
        a.warehouse = is_folder("spark-warehouse") ? "spark-warehouse" : ".";
    }
    uint32_t flags = a.is_readonly ? DELTALITE_OPEN_READONLY : DELTALITE_OPEN_CREATE;
    deltalite_options opts = {.flags = flags};
    dl_shell sh = {.mode = a.mode,
                   .bail = a.bail,
                   .echo = a.echo,
                   .headers = !a.no_header,
                   .changes = true,
                   .progress = true,
                   .progress_ms = 1000,
                   .is_readonly = a.is_readonly,
                   .open_flags = flags,
                   .out = stdout,
                   .stdout_file = stdout,
                   .err = stderr,
                   .prompt = "deltalite> ",
                   .prompt_cont = "        ...> "};
    if (a.null_text != NULL) {
        sh.has_null_text = true;
        (void)snprintf(sh.null_text, sizeof(sh.null_text), "%s", a.null_text);
    }
    sh.warehouse = a.warehouse;
    bool is_tty_out = isatty(STDOUT_FILENO) != 0;
    sh.max_rows = is_tty_out ? 40 : -1;
    sh.is_width_auto = is_tty_out;
    sh.max_width = dl_shell_terminal_width();
    if (deltalite_open(a.warehouse, &opts, &sh.db) != DELTALITE_OK) {
        (void)fprintf(stderr, "deltalite: cannot open the warehouse '%s': %s\n", a.warehouse,
                      deltalite_error_message(sh.db));
        const char *hint = deltalite_error_hint(sh.db);
        if (hint[0] != '\0') {
            (void)fprintf(stderr, "Hint: %s\n", hint);
        }
        (void)deltalite_close(sh.db);
        return 2;
    }
    rc = run(&sh, &a);
    dl_shell_output_close(&sh);
    if (deltalite_close(sh.db) != DELTALITE_OK) {
        (void)fprintf(stderr, "deltalite: %s\n", deltalite_error_message(sh.db));
    }
    return rc;
}
