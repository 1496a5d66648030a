/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Time travel: from a timestamp to a version (Spark's DeltaHistoryManager.getActiveCommitAtTime
 * and PROTOCOL.md, "In-Commit Timestamps"), and the `@v<n>` / `@yyyyMMddHHmmssSSS` suffixes.
 *
 * A commit's timestamp is its in-commit timestamp (commitInfo.inCommitTimestamp, the first
 * action of every commit once the feature is enabled) for versions at or after
 * delta.inCommitTimestampEnablementVersion (0 when the table was created with it), else the
 * modification time of its JSON file. File times are made monotonic in version order: a time
 * not after the previous (adjusted) one becomes that one plus 1 ms (raw 0,5,10,7,8,14 gives
 * 0,5,10,11,12,14). The version for timestamp T is the latest commit whose timestamp is at or
 * before T, searched only among versions >= the enablement version when T >= the enablement
 * timestamp, and only below it otherwise. Before the earliest version that can be rebuilt is
 * an error, and so is after the latest commit (Spark's DELTA_TIMESTAMP_EARLIER_THAN_COMMIT_
 * RETENTION and DELTA_TIMESTAMP_GREATER_THAN_COMMIT, worded as Spark words them).
 *
 * In-commit timestamps increase with the version, so their range is binary-searched, reading
 * only the first line of O(log n) commits; file times come from the one listing.
 */
#include <string.h>

#include "delta/delta_int.h"

#define ICT_HEAD_BYTES 65536

dl_status
dl_delta_commit_read_ict(dl_delta_table *table, const dl_delta_log_file *commit, dl_json_doc *doc,
                         dl_buf *scratch, int64_t *out_ict, bool *out_found, dl_error *err) {
    *out_found = false;
    DL_TRY(dl_delta_commit_check_size(commit, err));
    dl_buf_reset(scratch);
    size_t want = commit->size > ICT_HEAD_BYTES ? ICT_HEAD_BYTES : (size_t)commit->size;
    DL_TRY_CTX(dl_store_read_at_buf(table->store, commit->path, 0, want, scratch, err), err,
               "_delta_log/%s", commit->name);
    const char *text = (const char *)scratch->data;
    const char *nl = want ? memchr(text, '\n', want) : NULL;
    if (!nl && (int64_t)want < commit->size) {
        dl_buf_reset(scratch);
        DL_TRY_CTX(dl_store_read_all(table->store, commit->path, scratch, err), err,
                   "_delta_log/%s", commit->name);
        text = (const char *)scratch->data;
        nl = memchr(text, '\n', scratch->len);
    }
    size_t len = nl ? (size_t)(nl - text) : scratch->len;
    DL_TRY_CTX(dl_json_doc_parse(doc, text, len, err), err, "_delta_log/%s: line 1", commit->name);
    dl_json_val ci = dl_json_obj_get(dl_json_doc_root(doc), "commitInfo");
    dl_json_val ict = dl_json_obj_get(ci, "inCommitTimestamp");
    if (!dl_json_val_is_missing(ict) && !dl_json_val_is_null(ict)) {
        DL_TRY_CTX(dl_json_val_get_int64(ict, out_ict, err), err,
                   "_delta_log/%s: commitInfo.inCommitTimestamp", commit->name);
        *out_found = true;
    }
    return DL_OK;
}

/* ---- errors -------------------------------------------------------------------------- */

static void
format_ms(int64_t ms, char out[DL_TS_STR_CAP]) {
    (void)dl_ts_format(ms * DL_MICROS_PER_MILLI, DL_TS_STYLE_SPARK, out);
}

static dl_status
before_earliest(int64_t ts_ms, int64_t earliest_ms, dl_error *err) {
    char ts[DL_TS_STR_CAP];
    char first[DL_TS_STR_CAP];
    format_ms(ts_ms, ts);
    format_ms(earliest_ms, first);
    DL_FAIL(err, DL_ERR_NOT_FOUND,
            "The provided timestamp (%s) is before the earliest version available to this table "
            "(%s). Please use a timestamp after %s.",
            ts, first, first);
}

static dl_status
after_latest(int64_t ts_ms, int64_t latest_ms, dl_error *err) {
    char ts[DL_TS_STR_CAP];
    char last[DL_TS_STR_CAP];
    format_ms(ts_ms, ts);
    format_ms(latest_ms, last);
    DL_FAIL(err, DL_ERR_NOT_FOUND,
            "Timestamp %s is after the table's latest version (%s). Use a timestamp at or before "
            "%s.",
            ts, last, last);
}

/* ---- the search ---------------------------------------------------------------------- */

typedef struct tt_search {
    dl_delta_table *table;
    const dl_delta_log_list *list;
    size_t lo; /* commits[lo, hi) are the candidates */
    size_t hi;
    dl_json_doc doc;
    dl_buf scratch;
} tt_search;

/* The in-commit timestamp of commits[i]; a commit without one is corrupt in an ICT range. */
static dl_status
ict_of(tt_search *s, size_t i, int64_t *out, dl_error *err) {
    bool found;
    const dl_delta_log_file *c = &s->list->commits[i];
    DL_TRY(dl_delta_commit_read_ict(s->table, c, &s->doc, &s->scratch, out, &found, err));
    DL_CHECK(found, err, DL_ERR_CORRUPT,
             "_delta_log/%s: in-commit timestamps are enabled from this version on, but its "
             "first action is not a commitInfo with inCommitTimestamp",
             c->name);
    return DL_OK;
}

static dl_status
search_ict(tt_search *s, int64_t ts_ms, int64_t *out, dl_error *err) {
    int64_t first_ts;
    int64_t last_ts;
    DL_TRY(ict_of(s, s->lo, &first_ts, err));
    DL_TRY(ict_of(s, s->hi - 1, &last_ts, err));
    if (ts_ms < first_ts) {
        return before_earliest(ts_ms, first_ts, err);
    }
    if (ts_ms > last_ts) {
        return after_latest(ts_ms, last_ts, err);
    }
    size_t lo = s->lo; /* invariant: ict(lo) <= ts */
    size_t hi = s->hi; /* invariant: ict(hi) > ts or hi is the end */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        int64_t t;
        DL_TRY(ict_of(s, mid, &t, err));
        if (t <= ts_ms) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    *out = s->list->commits[lo].version;
    return DL_OK;
}

/* Over file times made monotonic: the latest commit at or before ts. */
static dl_status
search_mtime(tt_search *s, int64_t ts_ms, bool is_last_range, int64_t *out, dl_error *err) {
    const dl_delta_log_file *c = s->list->commits;
    int64_t adjusted = c[s->lo].mtime_ms;
    if (ts_ms < adjusted) {
        return before_earliest(ts_ms, adjusted, err);
    }
    int64_t found = c[s->lo].version;
    for (size_t i = s->lo + 1; i < s->hi; i++) {
        int64_t t = c[i].mtime_ms;
        adjusted = t > adjusted ? t : adjusted + 1;
        if (adjusted > ts_ms) {
            *out = found;
            return DL_OK;
        }
        found = c[i].version;
    }
    if (is_last_range && ts_ms > adjusted) {
        return after_latest(ts_ms, adjusted, err);
    }
    *out = found;
    return DL_OK;
}

/* Index of the first commit with version >= v (n_commits when none). */
static size_t
lower_bound(const dl_delta_log_list *list, int64_t v) {
    size_t lo = 0;
    size_t hi = list->n_commits;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (list->commits[mid].version < v) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

void
dl_delta_ict_settings(const dl_delta_snapshot *snap, int64_t *out_from, int64_t *out_from_ts) {
    *out_from = INT64_MAX;
    *out_from_ts = INT64_MIN;
    if (!dl_delta_protocol_has_feature(&snap->protocol, DL_DELTA_FEATURE_IN_COMMIT_TIMESTAMP) ||
        !dl_delta_metadata_config_bool(&snap->metadata, "delta.enableInCommitTimestamps", false)) {
        return;
    }
    const char *v =
        dl_delta_metadata_config(&snap->metadata, "delta.inCommitTimestampEnablementVersion");
    const char *t =
        dl_delta_metadata_config(&snap->metadata, "delta.inCommitTimestampEnablementTimestamp");
    int64_t from = 0;
    int64_t from_ts = INT64_MIN;
    if (v && !dl_delta_parse_version(dl_str_trim(dl_str_from_cstr(v)), &from)) {
        from = 0;
    }
    if (t && !dl_delta_parse_version(dl_str_trim(dl_str_from_cstr(t)), &from_ts)) {
        from_ts = INT64_MIN;
    }
    *out_from = from;
    *out_from_ts = v ? from_ts : INT64_MIN;
}

static dl_status
search(tt_search *s, const dl_delta_snapshot *latest, int64_t earliest, int64_t ts_ms, int64_t *out,
       dl_error *err) {
    int64_t ict_from;
    int64_t ict_from_ts;
    dl_delta_ict_settings(latest, &ict_from, &ict_from_ts);
    size_t first = lower_bound(s->list, earliest);
    size_t split = ict_from == INT64_MAX ? s->list->n_commits
                                         : lower_bound(s->list, DL_MAX(ict_from, earliest));
    DL_CHECK(first < s->list->n_commits, err, DL_ERR_NOT_FOUND,
             "the log has no commit file at or after version %lld", (long long)earliest);
    bool use_ict = split < s->list->n_commits;
    if (use_ict && split > first) {
        /* Before the enablement timestamp, the versions before enablement are searched. */
        int64_t threshold = ict_from_ts;
        if (threshold == INT64_MIN) {
            DL_TRY(ict_of(s, split, &threshold, err));
        }
        use_ict = ts_ms >= threshold;
    }
    if (use_ict) {
        s->lo = split;
        s->hi = s->list->n_commits;
        return search_ict(s, ts_ms, out, err);
    }
    s->lo = first;
    s->hi = split;
    return search_mtime(s, ts_ms, split == s->list->n_commits, out, err);
}

dl_status
dl_delta_version_at_timestamp(dl_delta_table *table, int64_t ts_ms, int64_t *out_version,
                              dl_error *err) {
    dl_arena arena;
    dl_arena_init(&arena, table->alloc, 0);
    dl_delta_log_list list;
    dl_delta_snapshot *latest = NULL;
    tt_search s = {.table = table, .list = &list};
    dl_json_doc_init(&s.doc, table->alloc);
    dl_buf_init(&s.scratch, table->alloc);
    dl_status st = dl_delta_log_list_read(table, -1, &arena, &list, err);
    if (st == DL_OK && list.n_commits == 0) {
        st = dl_error_set(err, DL_ERR_NOT_FOUND, "%s has no commits to time travel over",
                          table->display);
    }
    if (st == DL_OK) {
        dl_delta_snapshot_options opts = {.is_metadata_only = true};
        st = dl_delta_snapshot_load(table, &list, -1, &opts, &latest, err);
    }
    if (st == DL_OK) {
        int64_t earliest =
            dl_delta_log_earliest_version(&list, dl_delta_can_read_parquet_checkpoints());
        st = search(&s, latest, earliest < 0 ? 0 : earliest, ts_ms, out_version, err);
    }
    dl_delta_snapshot_unref(latest);
    dl_buf_destroy(&s.scratch);
    dl_json_doc_destroy(&s.doc);
    dl_arena_destroy(&arena);
    return st;
}

dl_status
dl_delta_snapshot_at_timestamp(dl_delta_table *table, int64_t ts_ms,
                               const dl_delta_snapshot_options *opts, dl_delta_snapshot **out,
                               dl_error *err) {
    int64_t version;
    DL_TRY(dl_delta_version_at_timestamp(table, ts_ms, &version, err));
    return dl_delta_snapshot_at_version(table, version, opts, out, err);
}

/* ---- @ suffixes ---------------------------------------------------------------------- */

static bool
all_digits(dl_str s) {
    for (size_t i = 0; i < s.len; i++) {
        if (s.ptr[i] < '0' || s.ptr[i] > '9') {
            return false;
        }
    }
    return s.len > 0;
}

dl_status
dl_delta_tt_parse_suffix(dl_str ref, int32_t offset_seconds, dl_str *out_path, dl_delta_tt *out,
                         dl_error *err) {
    memset(out, 0, sizeof(*out));
    *out_path = ref;
    size_t at = ref.len;
    while (at > 0 && ref.ptr[at - 1] != '@') {
        at--;
    }
    if (at <= 1) {
        return DL_OK;
    }
    dl_str suffix = dl_str_slice(ref, at, ref.len - at);
    dl_str path = dl_str_make(ref.ptr, at - 1);
    if (suffix.len > 1 && suffix.ptr[0] == 'v' && all_digits(dl_str_slice(suffix, 1, suffix.len))) {
        DL_CHECK(dl_delta_parse_version(dl_str_slice(suffix, 1, suffix.len), &out->version), err,
                 DL_ERR_INVALID_ARG, "time travel version \"%.*s\" is out of range",
                 DL_STR_FMT(suffix));
        out->kind = DL_DELTA_TT_VERSION;
        *out_path = path;
        return DL_OK;
    }
    if (suffix.len == 17 && all_digits(suffix)) {
        int64_t micros;
        DL_TRY_CTX(dl_ts_parse_compact(suffix, offset_seconds, &micros, err), err,
                   "time travel timestamp \"@%.*s\"", DL_STR_FMT(suffix));
        out->kind = DL_DELTA_TT_TIMESTAMP;
        out->ts_ms = dl_ts_to_millis(micros);
        *out_path = path;
    }
    return DL_OK;
}
