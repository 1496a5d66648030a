/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dl_bench_snapshot_load TABLE_DIR [RUNS]
 *
 * The deltalite side of bench/README.md's snapshot_load: opens the Delta table in TABLE_DIR,
 * lists its log, reads every commit and replays it into the latest snapshot (live files keyed
 * by path and deletion vector, stats kept as text), RUNS times (default 1) in one process.
 * Prints one line per run and, last, the median:
 *
 *   RESULT seconds=<s> live_files=<n> live_bytes=<n> commits=<n> actions=<n> actions_per_s=<n>
 *
 * live_files and live_bytes are the answer the peer's query must match.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "delta/delta.h"

static double
now_seconds(void) {
    struct timespec ts;
    (void)clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int
cmp_double(const void *a, const void *b) {
    double x = *(const double *)a;
    double y = *(const double *)b;
    return (x > y) - (x < y);
}

int
main(int argc, char **argv) {
    if (argc < 2) {
        (void)fprintf(stderr, "usage: %s TABLE_DIR [RUNS]\n", argv[0]);
        return 2;
    }
    int runs = argc > 2 ? (int)strtol(argv[2], NULL, 10) : 1;
    runs = runs < 1 ? 1 : (runs > 99 ? 99 : runs);
    double times[99];
    dl_error err;
    dl_error_clear(&err);
    dl_store *store = NULL;
    if (dl_store_local_new(argv[1], NULL, &store, &err) != DL_OK) {
        (void)fprintf(stderr, "dl_bench_snapshot_load: %s\n", err.msg);
        return 1;
    }
    size_t files = 0;
    int64_t bytes = 0;
    size_t commits = 0;
    int64_t actions = 0;
    for (int i = 0; i < runs; i++) {
        double t0 = now_seconds();
        dl_delta_table *table = NULL;
        dl_delta_snapshot *snap = NULL;
        if (dl_delta_table_open(store, "", NULL, &table, &err) != DL_OK ||
            dl_delta_snapshot_latest(table, NULL, &snap, &err) != DL_OK) {
            (void)fprintf(stderr, "dl_bench_snapshot_load: %s\n", err.msg);
            dl_delta_table_free(table);
            dl_store_free(store);
            return 1;
        }
        files = dl_delta_snapshot_file_count(snap);
        bytes = dl_delta_snapshot_total_bytes(snap);
        commits = dl_delta_snapshot_commits_read(snap);
        actions = dl_delta_snapshot_actions_read(snap);
        dl_delta_snapshot_unref(snap);
        dl_delta_table_free(table);
        times[i] = now_seconds() - t0;
        (void)printf("run %d: %.4f s\n", i + 1, times[i]);
    }
    qsort(times, (size_t)runs, sizeof(double), cmp_double);
    double median = times[runs / 2];
    (void)printf("RESULT seconds=%.6f live_files=%zu live_bytes=%lld commits=%zu actions=%lld "
                 "actions_per_s=%.0f\n",
                 median, files, (long long)bytes, commits, (long long)actions,
                 median > 0 ? (double)actions / median : 0.0);
    dl_store_free(store);
    return 0;
}
