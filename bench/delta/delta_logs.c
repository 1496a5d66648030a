/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dl_bench_delta_logs SRC_TABLE OUT_DIR
 *
 * Makes the checkpointed logs of the Delta snapshot benchmarks (bench/README.md, "Delta
 * snapshots") from a JSON-only log such as bench/gen/gen_log.mjs writes (at scale 1: versions
 * 0..9999, 100 adds a commit, 999,000 live files at the end). With L its latest version and
 * M = (L + 1) / 2, it writes three tables (logs only: no data files):
 *
 *   OUT_DIR/latest/    a classic checkpoint of version L - 9 and the 9 commits after it
 *                      (at scale 1: about 1 M live files in the checkpoint + 9 commits)
 *   OUT_DIR/commits/   a checkpoint of version 0 and the L commits after it (9,999 at scale 1)
 *   OUT_DIR/history/   checkpoints of versions M and L - 9 and the commits M + 1..L, so time
 *                      travel to M + 5 must read the checkpoint of M and 5 commits, not the
 *                      newer checkpoint nor the log from the start
 *
 * Checkpoints are written by deltalite's own checkpoint writer (dl_delta_checkpoint_write:
 * Spark's checkpoint schema, stats as JSON strings) from the source table's snapshot at that
 * version, with tombstones kept as of that version's commit time; each table gets a
 * _last_checkpoint naming its newest checkpoint. Commit files are hard links to the source's
 * (copies where linking fails), so they keep its bytes and modification times.
 *
 * OUT_DIR/<name> must not hold a log yet (the caller builds into a scratch folder and renames
 * it). Prints one line per table and, last, `RESULT seconds=<s> latest_version=<L>`.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "delta/delta.h"
#include "delta/delta_txn.h"
#include "store/store.h"

#define PATH_CAP 4096

typedef struct gen {
    const char *src_root;
    const char *out_root;
    dl_store *src_store;
    dl_delta_table *src;
    int64_t latest;
} gen;

static double
now_s(void) {
    struct timespec t;
    (void)clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static dl_status
make_dir(const char *path, dl_error *err) {
    if (mkdir(path, 0755) != 0 && errno != EEXIST) {
        return dl_error_set_errno(err, DL_ERR_IO, errno, "cannot create folder %s", path);
    }
    return DL_OK;
}

/* out = a "/" b, refused when it does not fit. */
static dl_status
join_path(char *out, const char *a, const char *b, dl_error *err) {
    int n = snprintf(out, PATH_CAP, "%s/%s", a, b);
    DL_CHECK(n > 0 && n < PATH_CAP, err, DL_ERR_LIMIT, "path %s/%s is longer than %d bytes", a, b,
             PATH_CAP - 1);
    return DL_OK;
}

/* Links (or copies) commit file `version` of the source into the table at dst. */
static dl_status
link_commit(gen *g, dl_store *dst, const char *dst_root, int64_t version, dl_error *err) {
    char name[64];
    (void)snprintf(name, sizeof(name), "_delta_log/%020" PRId64 ".json", version);
    char from[PATH_CAP];
    char to[PATH_CAP];
    DL_TRY(join_path(from, g->src_root, name, err));
    DL_TRY(join_path(to, dst_root, name, err));
    if (link(from, to) == 0) {
        return DL_OK;
    }
    dl_buf bytes;
    dl_buf_init(&bytes, NULL);
    dl_status s = dl_store_read_all(g->src_store, name, &bytes, err);
    if (s == DL_OK) {
        s = dl_store_write(dst, name, bytes.data, bytes.len, err);
    }
    dl_buf_destroy(&bytes);
    return s;
}

/* Writes the checkpoint of the source's version into the table dst. */
static dl_status
checkpoint(gen *g, dl_delta_table *dst, int64_t version, dl_error *err) {
    dl_delta_snapshot_options o = {.is_stats_in_memory = true};
    dl_delta_snapshot *snap = NULL;
    DL_TRY(dl_delta_snapshot_at_version(g->src, version, &o, &snap, err));
    dl_delta_checkpoint_info info;
    dl_status s =
        dl_delta_checkpoint_write(dst, snap, dl_delta_snapshot_timestamp(snap), &info, err);
    if (s == DL_OK) {
        (void)printf("  checkpoint of version %" PRId64 ": %" PRId64 " adds, %" PRId64
                     " tombstones, %" PRId64 " bytes\n",
                     version, info.num_of_add_files, info.n_tombstones, info.size_in_bytes);
    }
    dl_delta_snapshot_unref(snap);
    return s;
}

/* One output table: checkpoints at cps[0..n_cps) (ascending) and commits first..latest. */
static dl_status
make_table(gen *g, const char *name, const int64_t *cps, int n_cps, int64_t first, dl_error *err) {
    char root[PATH_CAP];
    char log[PATH_CAP];
    DL_TRY(join_path(root, g->out_root, name, err));
    DL_TRY(join_path(log, root, "_delta_log", err));
    DL_TRY(make_dir(root, err));
    DL_TRY(make_dir(log, err));
    (void)printf("%s: commits %" PRId64 "..%" PRId64 "\n", root, first, g->latest);
    dl_store *dst_store = NULL;
    dl_delta_table *dst = NULL;
    dl_status s = dl_store_local_new(root, NULL, &dst_store, err);
    for (int64_t v = first; s == DL_OK && v <= g->latest; v++) {
        s = link_commit(g, dst_store, root, v, err);
    }
    s = s == DL_OK ? dl_delta_table_open(dst_store, "", NULL, &dst, err) : s;
    for (int i = 0; s == DL_OK && i < n_cps; i++) {
        s = checkpoint(g, dst, cps[i], err);
    }
    if (s != DL_OK) {
        dl_error_prefix(err, "%s", root);
    }
    dl_delta_table_free(dst);
    dl_store_free(dst_store);
    return s;
}

static dl_status
generate(gen *g, dl_error *err) {
    DL_TRY(dl_store_local_new(g->src_root, NULL, &g->src_store, err));
    DL_TRY(dl_delta_table_open(g->src_store, "", NULL, &g->src, err));
    dl_delta_snapshot_options meta = {.is_metadata_only = true};
    dl_delta_snapshot *snap = NULL;
    DL_TRY(dl_delta_snapshot_latest(g->src, &meta, &snap, err));
    g->latest = dl_delta_snapshot_version(snap);
    dl_delta_snapshot_unref(snap);
    DL_CHECK(g->latest >= 20, err, DL_ERR_INVALID_ARG,
             "%s: the log has versions 0..%" PRId64 "; the benchmarks need at least 0..20",
             g->src_root, g->latest);
    DL_TRY(make_dir(g->out_root, err));
    int64_t last_cp = g->latest - 9;
    int64_t mid = (g->latest + 1) / 2;
    int64_t zero = 0;
    DL_TRY(make_table(g, "latest", &last_cp, 1, last_cp + 1, err));
    DL_TRY(make_table(g, "commits", &zero, 1, 1, err));
    int64_t both[2] = {mid, last_cp};
    return make_table(g, "history", both, 2, mid + 1, err);
}

int
main(int argc, char **argv) {
    if (argc != 3) {
        (void)fprintf(stderr, "usage: dl_bench_delta_logs SRC_TABLE OUT_DIR\n");
        return 2;
    }
    gen g;
    memset(&g, 0, sizeof(g));
    g.src_root = argv[1];
    g.out_root = argv[2];
    dl_error err;
    dl_error_clear(&err);
    double t0 = now_s();
    dl_status s = generate(&g, &err);
    if (s == DL_OK) {
        (void)printf("RESULT seconds=%.3f latest_version=%" PRId64 "\n", now_s() - t0, g.latest);
    } else {
        (void)fprintf(stderr, "dl_bench_delta_logs: %s\n", err.msg);
    }
    dl_delta_table_free(g.src);
    dl_store_free(g.src_store);
    return s == DL_OK ? 0 : 1;
}
