/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dl_bench_delta_snapshot TABLE_DIR [--version V] [--runs R]
 *
 * deltalite's side of the Delta snapshot benchmarks (bench/README.md, "Delta snapshots"):
 * opens the table in TABLE_DIR and loads its snapshot, the latest or (--version) an older one
 * by time travel: the log segment (a _last_checkpoint hint or a listing, the newest checkpoint
 * at or below the version, the commits after it), the checkpoint's actions (Parquet) and the
 * commits' (JSON), replayed into the live files keyed by path and deletion vector. Stats stay
 * where they are in the log (read back lazily by scans), as a query would load them.
 *
 * Each of R runs (default 1) opens the table afresh in this process; the median is reported:
 *
 *   RESULT seconds=<s> live_files=<n> live_bytes=<n> version=<v> checkpoint=<version read,
 *          -1 for none> commits=<commit files read> actions=<actions read> actions_per_s=<n>
 *
 * live_files and live_bytes are the answer the peer must match; checkpoint and commits show
 * what the segment cost (time travel must read one checkpoint and the commits after it only).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "delta/delta.h"
#include "store/store.h"

#define MAX_RUNS 99

typedef struct figures {
    double seconds;
    size_t files;
    int64_t bytes;
    int64_t version;
    int64_t checkpoint;
    size_t commits;
    int64_t actions;
} figures;

static double
now_s(void) {
    struct timespec t;
    (void)clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int
cmp_double(const void *a, const void *b) {
    double x = *(const double *)a;
    double y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One open of the table and load of its snapshot at version (-1: latest). */
static dl_status
load_once(dl_store *store, int64_t version, figures *out, dl_error *err) {
    double t0 = now_s();
    dl_delta_table *table = NULL;
    dl_delta_snapshot *snap = NULL;
    dl_status s = dl_delta_table_open(store, "", NULL, &table, err);
    if (s == DL_OK) {
        s = version < 0 ? dl_delta_snapshot_latest(table, NULL, &snap, err)
                        : dl_delta_snapshot_at_version(table, version, NULL, &snap, err);
    }
    if (s == DL_OK) {
        out->files = dl_delta_snapshot_file_count(snap);
        out->bytes = dl_delta_snapshot_total_bytes(snap);
        out->version = dl_delta_snapshot_version(snap);
        out->checkpoint = dl_delta_snapshot_checkpoint_version(snap);
        out->commits = dl_delta_snapshot_commits_read(snap);
        out->actions = dl_delta_snapshot_actions_read(snap);
    }
    dl_delta_snapshot_unref(snap);
    dl_delta_table_free(table);
    out->seconds = now_s() - t0;
    return s;
}

static bool
parse_int(const char *text, int64_t min, int64_t max, int64_t *out) {
    char *end = NULL;
    long long v = strtoll(text, &end, 10);
    if (end == text || *end != '\0' || v < min || v > max) {
        return false;
    }
    *out = (int64_t)v;
    return true;
}

int
main(int argc, char **argv) {
    int64_t version = -1;
    int64_t runs = 1;
    bool ok = argc >= 2;
    for (int i = 2; ok && i < argc; i += 2) {
        ok = i + 1 < argc &&
             ((strcmp(argv[i], "--version") == 0 &&
               parse_int(argv[i + 1], 0, INT64_MAX, &version)) ||
              (strcmp(argv[i], "--runs") == 0 && parse_int(argv[i + 1], 1, MAX_RUNS, &runs)));
    }
    if (!ok) {
        (void)fprintf(stderr, "usage: dl_bench_delta_snapshot TABLE_DIR [--version V] "
                              "[--runs 1..99]\n");
        return 2;
    }
    dl_error err;
    dl_error_clear(&err);
    dl_store *store = NULL;
    if (dl_store_local_new(argv[1], NULL, &store, &err) != DL_OK) {
        (void)fprintf(stderr, "dl_bench_delta_snapshot: %s\n", err.msg);
        return 1;
    }
    double times[MAX_RUNS];
    figures f;
    memset(&f, 0, sizeof(f));
    for (int64_t i = 0; i < runs; i++) {
        if (load_once(store, version, &f, &err) != DL_OK) {
            (void)fprintf(stderr, "dl_bench_delta_snapshot: %s: %s\n", argv[1], err.msg);
            dl_store_free(store);
            return 1;
        }
        times[i] = f.seconds;
        (void)printf("run %" PRId64 ": %.4f s\n", i + 1, f.seconds);
    }
    dl_store_free(store);
    qsort(times, (size_t)runs, sizeof(double), cmp_double);
    double median = times[runs / 2];
    (void)printf("RESULT seconds=%.6f live_files=%zu live_bytes=%" PRId64 " version=%" PRId64
                 " checkpoint=%" PRId64 " commits=%zu actions=%" PRId64 " actions_per_s=%.0f\n",
                 median, f.files, f.bytes, f.version, f.checkpoint, f.commits, f.actions,
                 median > 0 ? (double)f.actions / median : 0.0);
    return 0;
}
