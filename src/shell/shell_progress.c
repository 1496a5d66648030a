/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The progress bar: while a statement runs longer than sh->progress_ms (1 s) before showing
 * anything, a line on standard error, when it is a terminal,
 *
 *      45% ▕██████████████████                      ▏ 12 of 27 parts
 *
 * redrawn every 100 ms from deltalite_progress (the parts are the files and row groups the
 * statement's scans read), and erased before the first row or message is written. A thread
 * of the shell draws it; the statement runs on the main thread as always, and stopping joins
 * the thread, so nothing is drawn once results are being written.
 */
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "shell/shell_int.h"

#define BAR_CELLS 40
#define TICK_MS   100

typedef struct progress {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool is_running;  /* the thread exists */
    bool should_stop; /* under mu */
    bool is_shown;    /* a bar is on the screen (thread-owned until joined) */
    deltalite_db *db;
    FILE *tty;
    int64_t delay_ms;
} progress;

static progress bar; /* one statement runs at a time in the shell */

static int64_t
now_ms(void) {
    struct timespec ts;
    (void)clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void
draw(progress *p) {
    int64_t done = 0;
    int64_t total = 0;
    deltalite_progress(p->db, &done, &total);
    if (total <= 0) {
        return; /* nothing measurable (yet): no bar rather than a wrong one */
    }
    done = DL_MIN(done, total);
    int percent = (int)(done * 100 / total);
    int cells = (int)(done * BAR_CELLS / total);
    (void)fprintf(p->tty, "\r%4d%% ▕", percent);
    for (int i = 0; i < BAR_CELLS; i++) {
        (void)fputs(i < cells ? "█" : " ", p->tty);
    }
    (void)fprintf(p->tty, "▏ %lld of %lld parts", (long long)done, (long long)total);
    (void)fflush(p->tty);
    p->is_shown = true;
}

static void *
run_bar(void *arg) {
    progress *p = arg;
    int64_t start = now_ms();
    (void)pthread_mutex_lock(&p->mu);
    while (!p->should_stop) {
        struct timespec until;
        (void)clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += TICK_MS * 1000000L;
        until.tv_sec += until.tv_nsec / 1000000000L;
        until.tv_nsec %= 1000000000L;
        (void)pthread_cond_timedwait(&p->cv, &p->mu, &until);
        if (!p->should_stop && now_ms() - start >= p->delay_ms) {
            draw(p);
        }
    }
    (void)pthread_mutex_unlock(&p->mu);
    return NULL;
}

void
dl_shell_progress_start(dl_shell *sh) {
    if (!sh->progress || bar.is_running || isatty(STDERR_FILENO) == 0) {
        return;
    }
    bar = (progress){.db = sh->db, .tty = sh->err, .delay_ms = sh->progress_ms};
    if (pthread_mutex_init(&bar.mu, NULL) != 0) {
        return;
    }
    if (pthread_cond_init(&bar.cv, NULL) != 0) {
        (void)pthread_mutex_destroy(&bar.mu);
        return;
    }
    /* The thread blocks every signal (it inherits the mask): Ctrl-C goes to the statement's
     * thread, whose handler cancels it. */
    sigset_t all;
    sigset_t before;
    (void)sigfillset(&all);
    bool is_masked = pthread_sigmask(SIG_SETMASK, &all, &before) == 0;
    bar.is_running = pthread_create(&bar.thread, NULL, run_bar, &bar) == 0;
    if (is_masked) {
        (void)pthread_sigmask(SIG_SETMASK, &before, NULL);
    }
    if (!bar.is_running) {
        (void)pthread_cond_destroy(&bar.cv);
        (void)pthread_mutex_destroy(&bar.mu);
    }
}

void
dl_shell_progress_stop(dl_shell *sh) {
    (void)sh;
    if (!bar.is_running) {
        return;
    }
    (void)pthread_mutex_lock(&bar.mu);
    bar.should_stop = true;
    (void)pthread_cond_signal(&bar.cv);
    (void)pthread_mutex_unlock(&bar.mu);
    (void)pthread_join(bar.thread, NULL);
    (void)pthread_cond_destroy(&bar.cv);
    (void)pthread_mutex_destroy(&bar.mu);
    bar.is_running = false;
    if (bar.is_shown) {
        /* blanks over the bar, then back: also on terminals without erase-line */
        (void)fprintf(bar.tty, "\r%*s\r", BAR_CELLS + 40, "");
        (void)fflush(bar.tty);
    }
}
