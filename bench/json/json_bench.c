/* SPDX-License-Identifier: Apache-2.0 */
/*
 * JSON benchmark: replays a Delta commit file the way a log reader does. The file is read into
 * memory once (not timed); each timed pass splits it into lines and parses every line into one
 * reused dl_json_doc, then touches each `add` action's path, size and stats (and, with
 * --parse-stats, parses the stats string too and reads numRecords, as data skipping would).
 * Passes repeat; the median pass time is reported, with the best alongside.
 *
 * Usage: dl_bench_json <commit.json> [repeats=5] [--parse-stats]
 * Last line: RESULT seconds=<median> mb_per_s=<..> actions_per_s=<..> actions=<lines parsed>
 * adds=<add actions> sum_size=<sum of add.size> [records=<sum of numRecords>]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "json/json.h"

typedef struct totals {
    int64_t n_lines;
    int64_t n_adds;
    int64_t sum_size;
    int64_t sum_records;
    uint64_t sum_lens;
} totals;

static double
now_seconds(void) {
    struct timespec ts;
    (void)clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static dl_status
read_file(const char *path, dl_buf *out, dl_error *err) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return dl_error_set(err, DL_ERR_IO, "cannot open %s", path);
    }
    uint8_t chunk[1 << 16];
    size_t n;
    dl_status s = DL_OK;
    while (s == DL_OK && (n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
        s = dl_buf_append(out, chunk, n, err);
    }
    (void)fclose(f);
    return s;
}

/* One `add` action: path, size and stats, as a log replay reads them. */
static dl_status
touch_add(dl_json_val add, dl_json_doc *stats_doc, bool is_parse_stats, totals *t, dl_error *err) {
    dl_str path;
    dl_str stats;
    int64_t size;
    DL_TRY_CTX(dl_json_val_get_str(dl_json_obj_get(add, "path"), &path, err), err, "add.path");
    DL_TRY_CTX(dl_json_val_get_int64(dl_json_obj_get(add, "size"), &size, err), err, "add.size");
    DL_TRY_CTX(dl_json_val_get_str(dl_json_obj_get(add, "stats"), &stats, err), err, "add.stats");
    t->n_adds++;
    t->sum_size += size;
    t->sum_lens += path.len + stats.len + (uint8_t)path.ptr[path.len - 1];
    if (is_parse_stats) {
        int64_t n_records;
        DL_TRY_CTX(dl_json_doc_parse(stats_doc, stats.ptr, stats.len, err), err, "add.stats");
        dl_json_val root = dl_json_doc_root(stats_doc);
        DL_TRY_CTX(dl_json_val_get_int64(dl_json_obj_get(root, "numRecords"), &n_records, err), err,
                   "add.stats.numRecords");
        t->sum_records += n_records;
    }
    return DL_OK;
}

static dl_status
replay(dl_str text, dl_json_doc *doc, dl_json_doc *stats_doc, bool is_parse_stats, totals *t,
       dl_error *err) {
    dl_json_lines lines;
    dl_str line;
    dl_json_lines_init(&lines, text.ptr, text.len);
    while (dl_json_lines_next(&lines, &line)) {
        if (line.len == 0) {
            continue;
        }
        DL_TRY_CTX(dl_json_doc_parse(doc, line.ptr, line.len, err), err, "line %lld",
                   (long long)lines.line_no);
        t->n_lines++;
        dl_json_val add = dl_json_obj_get(dl_json_doc_root(doc), "add");
        if (!dl_json_val_is_missing(add)) {
            DL_TRY_CTX(touch_add(add, stats_doc, is_parse_stats, t, err), err, "line %lld",
                       (long long)lines.line_no);
        }
    }
    return DL_OK;
}

static int
compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a;
    double y = *(const double *)b;
    return (x > y) - (x < y);
}

int
main(int argc, char **argv) {
    const char *path = NULL;
    int repeats = 5;
    bool is_parse_stats = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--parse-stats") == 0) {
            is_parse_stats = true;
        } else if (path == NULL) {
            path = argv[i];
        } else {
            char *end = NULL;
            long n = strtol(argv[i], &end, 10);
            repeats = end != argv[i] && *end == '\0' && n >= 1 && n <= 1000 ? (int)n : -1;
        }
    }
    if (path == NULL || repeats < 1 || repeats > 1000) {
        (void)fprintf(stderr, "usage: dl_bench_json <commit.json> [repeats] [--parse-stats]\n");
        return 2;
    }
    dl_error err;
    dl_error_clear(&err);
    dl_buf file;
    dl_buf_init(&file, NULL);
    dl_json_doc doc;
    dl_json_doc stats_doc;
    dl_json_doc_init(&doc, NULL);
    dl_json_doc_init(&stats_doc, NULL);
    double times[1000];
    totals t = {0};
    int rc = 0;
    if (read_file(path, &file, &err) != DL_OK) {
        rc = 1;
        goto done;
    }
    for (int r = 0; r < repeats; r++) {
        memset(&t, 0, sizeof(t));
        double t0 = now_seconds();
        if (replay(dl_buf_view(&file), &doc, &stats_doc, is_parse_stats, &t, &err) != DL_OK) {
            rc = 1;
            goto done;
        }
        times[r] = now_seconds() - t0;
    }
    qsort(times, (size_t)repeats, sizeof(times[0]), compare_doubles);
    double median = times[repeats / 2];
    double mb = (double)file.len / 1e6;
    printf("file %s: %zu bytes, %lld lines, %lld adds, sum(size)=%lld, sum(numRecords)=%lld, "
           "check=%llu\n",
           path, file.len, (long long)t.n_lines, (long long)t.n_adds, (long long)t.sum_size,
           (long long)t.sum_records, (unsigned long long)t.sum_lens);
    printf("mode %s, %d passes: best %.4f s, median %.4f s\n",
           is_parse_stats ? "parse+stats" : "parse", repeats, times[0], median);
    /* The rates first (as the brief asks), then the answers both sides must agree on. */
    printf("RESULT seconds=%.4f mb_per_s=%.1f actions_per_s=%.0f actions=%lld adds=%lld "
           "sum_size=%lld",
           median, mb / median, (double)t.n_lines / median, (long long)t.n_lines,
           (long long)t.n_adds, (long long)t.sum_size);
    if (is_parse_stats) {
        printf(" records=%lld", (long long)t.sum_records);
    }
    printf("\n");
done:
    if (rc != 0) {
        (void)fprintf(stderr, "dl_bench_json: %s: %s\n", dl_status_name(err.code), err.msg);
    }
    dl_json_doc_destroy(&stats_doc);
    dl_json_doc_destroy(&doc);
    dl_buf_destroy(&file);
    return rc;
}
