/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dl_bench_measure: runs one command and reports its wall time and peak resident set size.
 *
 *   usage: dl_bench_measure [-o FILE] -- COMMAND [ARG...]
 *
 * The command inherits stdin, stdout and stderr, so its own output (a RESULT line) passes
 * through untouched. When it ends, one line goes to FILE (or to stderr without -o):
 *
 *   wall_seconds=<s> max_rss_kb=<kB> exit=<code>        (the command exited)
 *   wall_seconds=<s> max_rss_kb=<kB> signal=<number>    (the command was killed)
 *
 * and dl_bench_measure exits with the command's exit code (128 + signal number when it was
 * killed, 127 when it could not be started).
 *
 * Peak RSS comes from getrusage(RUSAGE_CHILDREN) after waitpid(): on Linux its ru_maxrss is the
 * largest peak resident set, in kilobytes, of the waited-for descendants, and this program has
 * exactly one child, so the figure is that command's (or its largest descendant's) high-water
 * mark as the kernel counted it. Wall time is CLOCK_MONOTONIC around spawn and wait.
 * SIGTERM, SIGINT and SIGHUP sent to dl_bench_measure are passed on to the command (so a
 * runner's timeout stops the measured program, not only its meter), and the report is still
 * written when the command ends. Only POSIX calls are used: posix_spawnp, waitpid, getrusage,
 * clock_gettime, sigaction, kill.
 */
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

/* The running command, for the signal handler; 0 while there is none. */
static volatile sig_atomic_t child_pid;

static void
forward_signal(int sig) {
    if (child_pid > 0) {
        (void)kill((pid_t)child_pid, sig);
    }
}

/* Passes the signals that ask a program to stop on to the command. */
static void
install_forwarding(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = forward_signal;
    (void)sigemptyset(&sa.sa_mask);
    const int signals[] = {SIGTERM, SIGINT, SIGHUP};
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        (void)sigaction(signals[i], &sa, NULL);
    }
}

static const char usage_text[] = "usage: dl_bench_measure [-o FILE] -- COMMAND [ARG...]\n";

static double
now_seconds(void) {
    struct timespec ts;
    (void)clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Writes the report line; returns 0 on success, -1 when the report file cannot be written. */
static int
write_report(const char *path, double wall, long max_rss_kb, int status) {
    FILE *out = stderr;
    if (path != NULL) {
        out = fopen(path, "w");
        if (out == NULL) {
            (void)fprintf(stderr, "dl_bench_measure: cannot open report file '%s': %s\n", path,
                          strerror(errno));
            return -1;
        }
    }
    int n;
    if (WIFSIGNALED(status)) {
        n = fprintf(out, "wall_seconds=%.6f max_rss_kb=%ld signal=%d\n", wall, max_rss_kb,
                    WTERMSIG(status));
    } else {
        n = fprintf(out, "wall_seconds=%.6f max_rss_kb=%ld exit=%d\n", wall, max_rss_kb,
                    WEXITSTATUS(status));
    }
    int closed = path != NULL ? fclose(out) : fflush(out);
    if (n < 0 || closed != 0) {
        (void)fprintf(stderr, "dl_bench_measure: cannot write the report to '%s'\n",
                      path != NULL ? path : "stderr");
        return -1;
    }
    return 0;
}

/* Waits for `pid`, retrying on EINTR; returns 0 and the status, or -1. */
static int
wait_child(pid_t pid, int *out_status) {
    for (;;) {
        if (waitpid(pid, out_status, 0) == pid) {
            return 0;
        }
        if (errno != EINTR) {
            (void)fprintf(stderr, "dl_bench_measure: waitpid: %s\n", strerror(errno));
            return -1;
        }
    }
}

int
main(int argc, char **argv) {
    const char *report_path = NULL;
    int first = 1;
    if (first + 1 < argc && strcmp(argv[first], "-o") == 0) {
        report_path = argv[first + 1];
        first += 2;
    }
    if (first < argc && strcmp(argv[first], "--") == 0) {
        first++;
    }
    if (first >= argc) {
        (void)fputs(usage_text, stderr);
        return 2;
    }

    install_forwarding();
    double start = now_seconds();
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[first], NULL, NULL, argv + first, environ);
    if (rc != 0) {
        (void)fprintf(stderr, "dl_bench_measure: cannot start '%s': %s\n", argv[first],
                      strerror(rc));
        return 127;
    }
    child_pid = (sig_atomic_t)pid;
    int status = 0;
    if (wait_child(pid, &status) != 0) {
        return 127;
    }
    double wall = now_seconds() - start;

    struct rusage usage;
    memset(&usage, 0, sizeof usage);
    if (getrusage(RUSAGE_CHILDREN, &usage) != 0) {
        (void)fprintf(stderr, "dl_bench_measure: getrusage: %s\n", strerror(errno));
        return 127;
    }
    if (write_report(report_path, wall, usage.ru_maxrss, status) != 0) {
        return 127;
    }
    if (WIFSIGNALED(status)) {
        return 128 + WTERMSIG(status);
    }
    return WEXITSTATUS(status);
}
