/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The deltalite program: `deltalite [OPTIONS] [WAREHOUSE] [FILE...]`. docs/shell.md is the
 * manual; the usage text below is its summary.
 *
 * What runs, in order: every -c SQL and -f FILE as given, then every FILE argument; with
 * none of those, standard input: the interactive shell when it is a terminal, otherwise a
 * script read without a prompt. Exit status: 0 when everything ran, 1 when a statement
 * failed, 2 for bad usage or a warehouse that cannot be opened.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
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
    "It is created when missing. Without it: ./spark-warehouse when that folder exists (where\n"
    "Spark puts tables by default), else the current folder. Any Delta table can also be read\n"
    "by path: SELECT * FROM delta.`/path/to/table`.\n"
    "\n"
    "SQL comes from -c and -f in the order given, then from the FILE arguments; with none of\n"
    "them, from standard input (an interactive shell when it is a terminal).\n"
    "\n"
    "Options:\n"
    "  -c SQL           run SQL (one or more statements) and continue with the next input\n"
    "  -f FILE          run the SQL in FILE ('-' is standard input)\n"
    "  -box             print results as box-drawn tables (the default)\n"
    "  -csv             print results as CSV with a header line\n"
    "  -json            print results as a JSON array of objects\n"
    "  -markdown        print results as Markdown tables\n"
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
    dl_shell_mode mode;
    bool bail;
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

/* Parses the command line; returns -1 to go on, or the exit status. */
static int
parse_args(int argc, char **argv, args *a) {
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        dl_shell_mode mode;
        if (strcmp(arg, "-v") == 0 || strcmp(arg, "--version") == 0) {
            (void)printf("deltalite %s\n", deltalite_version());
            return 0;
        }
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            (void)printf(usage, deltalite_version());
            return 0;
        }
        bool has_value = strcmp(arg, "-c") == 0 || strcmp(arg, "-f") == 0;
        if (has_value && i + 1 >= argc) {
            return usage_error("option %s needs a value", arg);
        }
        int rc = 0;
        if (strcmp(arg, "-c") == 0) {
            rc = add_input(a, argv[++i], NULL);
        } else if (strcmp(arg, "-f") == 0) {
            rc = add_input(a, NULL, argv[++i]);
        } else if (strcmp(arg, "-bail") == 0 || strcmp(arg, "--bail") == 0) {
            a->bail = true;
        } else if (arg[0] == '-' && arg[1] != '\0' &&
                   dl_shell_mode_parse(arg + (arg[1] == '-' ? 2 : 1), &mode)) {
            a->mode = mode;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            return usage_error("unknown option '%s'", arg);
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

static int32_t
terminal_width(void) {
    struct winsize ws;
    if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) {
        return (int32_t)ws.ws_col;
    }
    return 0;
}

static bool
run_input(dl_shell *sh, const input *in) {
    if (in->text != NULL) {
        return dl_shell_run_sql(sh, in->text, strlen(in->text), NULL, 1);
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

static int
run(dl_shell *sh, const args *a) {
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
    if (a->n_inputs == 0) {
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
    deltalite_options opts = {.flags = DELTALITE_OPEN_CREATE};
    dl_shell sh = {.mode = a.mode, .bail = a.bail, .out = stdout, .err = stderr};
    sh.warehouse = a.warehouse;
    bool is_tty_out = isatty(STDOUT_FILENO) != 0;
    sh.max_rows = is_tty_out ? 40 : -1;
    sh.max_width = terminal_width();
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
    if (deltalite_close(sh.db) != DELTALITE_OK) {
        (void)fprintf(stderr, "deltalite: %s\n", deltalite_error_message(sh.db));
    }
    return rc;
}
