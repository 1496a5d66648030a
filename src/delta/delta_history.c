/* SPDX-License-Identifier: Apache-2.0 */
/*
 * History and the raw log: what DESCRIBE HISTORY shows and a pull iterator over every action
 * of every commit file (PROTOCOL.md, "Commit Provenance Information", "In-Commit Timestamps").
 *
 * A commit's provenance is its commitInfo action: operation, operationParameters,
 * operationMetrics, userId, userName, readVersion, isolationLevel, isBlindAppend, engineInfo,
 * txnId, clusterId, notebook, job, userMetadata, timestamp (the writer's clock) and, with
 * in-commit timestamps, inCommitTimestamp. Spark writes it as the first line of a commit (and
 * so must a writer that enables in-commit timestamps); some older writers put it last, so a
 * commit whose first line is something else is read whole and searched for it.
 *
 * Timestamps are Spark's (DeltaHistoryManager.getHistory): for the commits listed, in version
 * order, the commit file's modification time, raised to the previous commit's plus 1 ms when
 * it is not after it; for versions at or after the in-commit timestamp enablement version
 * (when the latest metadata enables them), the commit's inCommitTimestamp instead.
 */
#include <stdio.h>
#include <string.h>

#include "delta/delta_int.h"

#define HEAD_BYTES 65536

struct dl_delta_history {
    const dl_allocator *alloc;
    dl_arena arena;
    dl_delta_commit *commits; /* newest first */
    size_t n_commits;
};

/* ---- commitInfo fields --------------------------------------------------------------- */

static dl_str
keep(dl_arena *arena, dl_str s) {
    if (s.len == 0) {
        return dl_str_make(NULL, 0);
    }
    char *p = dl_arena_strndup(arena, s.ptr, s.len);
    return p ? dl_str_make(p, s.len) : dl_str_make(NULL, 0);
}

/* A string field (or, for objects, its JSON text) copied into arena; false on NOMEM. */
static bool
field_text(dl_arena *arena, dl_json_val ci, const char *key, bool is_object, dl_str *out) {
    dl_json_val v = dl_json_obj_get(ci, key);
    *out = dl_str_make(NULL, 0);
    dl_json_type t = dl_json_val_type(v);
    dl_str text;
    if (is_object && t == DL_JSON_OBJECT) {
        text = dl_json_val_raw(v);
    } else if (t == DL_JSON_STRING) {
        text = dl_json_val_str(v);
    } else {
        return true;
    }
    *out = keep(arena, text);
    return out->len == text.len;
}

static void
field_int(dl_json_val ci, const char *key, bool *out_has, int64_t *out) {
    *out_has = dl_json_val_get_int64(dl_json_obj_get(ci, key), out, NULL) == DL_OK;
}

static dl_status
fill_commit(dl_arena *arena, dl_json_val ci, dl_delta_commit *c, dl_error *err) {
    c->commit_info = keep(arena, dl_json_val_raw(ci));
    bool ok = c->commit_info.len == dl_json_val_raw(ci).len &&
              field_text(arena, ci, "operation", false, &c->operation) &&
              field_text(arena, ci, "operationParameters", true, &c->operation_parameters) &&
              field_text(arena, ci, "operationMetrics", true, &c->operation_metrics) &&
              field_text(arena, ci, "userId", false, &c->user_id) &&
              field_text(arena, ci, "userName", false, &c->user_name) &&
              field_text(arena, ci, "isolationLevel", false, &c->isolation_level) &&
              field_text(arena, ci, "engineInfo", false, &c->engine_info) &&
              field_text(arena, ci, "txnId", false, &c->txn_id) &&
              field_text(arena, ci, "clusterId", false, &c->cluster_id) &&
              field_text(arena, ci, "notebook", true, &c->notebook) &&
              field_text(arena, ci, "job", true, &c->job) &&
              field_text(arena, ci, "userMetadata", false, &c->user_metadata);
    DL_CHECK(ok, err, DL_ERR_NOMEM, "out of memory reading the history");
    field_int(ci, "readVersion", &c->has_read_version, &c->read_version);
    field_int(ci, "timestamp", &c->has_info_timestamp, &c->info_timestamp);
    c->has_is_blind_append = dl_json_val_get_bool(dl_json_obj_get(ci, "isBlindAppend"),
                                                  &c->is_blind_append, NULL) == DL_OK;
    return DL_OK;
}

/* ---- reading one commit's commitInfo ------------------------------------------------- */

typedef struct hist_ctx {
    dl_delta_table *table;
    dl_delta_history *h;
    dl_buf bytes;
    dl_json_doc doc;
} hist_ctx;

/* Looks for the commitInfo line in text: *out_found false when there is none. Lines that do
 * not start with {"commitInfo" are not parsed. */
static dl_status
find_commit_info(hist_ctx *x, const char *text, size_t len, dl_delta_commit *c, bool *out_found,
                 dl_error *err) {
    *out_found = false;
    dl_json_lines lines;
    dl_json_lines_init(&lines, text, len);
    dl_str line;
    while (dl_json_lines_next(&lines, &line)) {
        dl_str t = dl_str_trim(line);
        if (!dl_str_starts_with(t, DL_STR("{\"commitInfo\""))) {
            continue;
        }
        DL_TRY_CTX(dl_json_doc_parse(&x->doc, line.ptr, line.len, err), err, "line %lld",
                   (long long)lines.line_no);
        dl_json_val ci = dl_json_obj_get(dl_json_doc_root(&x->doc), "commitInfo");
        if (dl_json_val_type(ci) != DL_JSON_OBJECT) {
            continue;
        }
        DL_TRY(fill_commit(&x->h->arena, ci, c, err));
        dl_json_val ict = dl_json_obj_get(ci, "inCommitTimestamp");
        if (!dl_json_val_is_missing(ict) && !dl_json_val_is_null(ict)) {
            DL_TRY_CTX(dl_json_val_get_int64(ict, &c->timestamp_ms, err), err,
                       "line %lld: commitInfo.inCommitTimestamp", (long long)lines.line_no);
            c->is_ict = true;
        }
        *out_found = true;
        return DL_OK;
    }
    return DL_OK;
}

static dl_status
read_commit(hist_ctx *x, const dl_delta_log_file *lf, dl_delta_commit *c, dl_error *err) {
    DL_TRY(dl_delta_commit_check_size(lf, err));
    dl_buf_reset(&x->bytes);
    size_t want = lf->size > HEAD_BYTES ? HEAD_BYTES : (size_t)lf->size;
    DL_TRY(dl_store_read_at_buf(x->table->store, lf->path, 0, want, &x->bytes, err));
    const char *text = (const char *)x->bytes.data;
    const char *nl = want ? memchr(text, '\n', want) : NULL;
    size_t first_len = nl ? (size_t)(nl - text) : x->bytes.len;
    bool found;
    bool is_whole = (int64_t)want >= lf->size;
    if (nl || is_whole) {
        /* The first line, when it is there whole. */
        DL_TRY(find_commit_info(x, text, first_len, c, &found, err));
        if (found || (is_whole && !nl)) {
            return DL_OK;
        }
    }
    if (!is_whole) {
        dl_buf_reset(&x->bytes);
        DL_TRY(dl_store_read_all(x->table->store, lf->path, &x->bytes, err));
    }
    return find_commit_info(x, (const char *)x->bytes.data, x->bytes.len, c, &found, err);
}

/* ---- timestamps ---------------------------------------------------------------------- */

/* Spark's timestamps for commits[0, n) (newest first): file times made monotonic in version
 * order, in-commit timestamps from the enablement version on. */
static dl_status
resolve_timestamps(hist_ctx *x, dl_delta_commit *commits, size_t n, dl_error *err) {
    bool has_ict = false;
    for (size_t i = 0; i < n; i++) {
        has_ict = has_ict || commits[i].is_ict;
    }
    int64_t ict_from = INT64_MAX;
    if (has_ict) {
        dl_delta_snapshot *snap = NULL;
        dl_delta_snapshot_options o = {.is_metadata_only = true};
        DL_TRY(dl_delta_snapshot_latest(x->table, &o, &snap, err));
        int64_t from_ts;
        dl_delta_ict_settings(snap, &ict_from, &from_ts);
        dl_delta_snapshot_unref(snap);
    }
    int64_t prev = INT64_MIN;
    for (size_t i = n; i > 0; i--) {
        dl_delta_commit *c = &commits[i - 1];
        if (c->is_ict && c->version >= ict_from) {
            continue;
        }
        c->is_ict = false;
        int64_t t = c->file_mtime_ms;
        if (prev != INT64_MIN && t <= prev) {
            t = prev + 1;
        }
        c->timestamp_ms = t;
        prev = t;
    }
    return DL_OK;
}

/* ---- the history --------------------------------------------------------------------- */

/* Reads the last `limit` (0: all) commits of list, newest first. */
static dl_status
read_commits(hist_ctx *x, const dl_delta_log_list *list, int64_t limit, dl_error *err) {
    DL_CHECK(list->n_commits > 0, err, DL_ERR_NOT_FOUND,
             "%s is not a Delta table: its _delta_log holds no commit", x->table->display);
    size_t n = list->n_commits;
    if (limit > 0 && (uint64_t)limit < n) {
        n = (size_t)limit;
    }
    dl_delta_history *h = x->h;
    h->commits = dl_arena_alloc_array(&h->arena, n, sizeof(dl_delta_commit));
    DL_CHECK(h->commits, err, DL_ERR_NOMEM, "out of memory reading history");
    for (size_t i = 0; i < n; i++) {
        const dl_delta_log_file *lf = &list->commits[list->n_commits - 1 - i];
        dl_delta_commit *c = &h->commits[i];
        memset(c, 0, sizeof(*c));
        c->version = lf->version;
        c->file_mtime_ms = lf->mtime_ms;
        h->n_commits = i + 1;
        DL_TRY_CTX(read_commit(x, lf, c, err), err, "_delta_log/%s", lf->name);
    }
    return resolve_timestamps(x, h->commits, h->n_commits, err);
}

static dl_status
read_history(hist_ctx *x, int64_t limit, dl_error *err) {
    dl_delta_log_list list;
    dl_arena list_arena;
    dl_arena_init(&list_arena, x->h->alloc, 0);
    dl_status st = dl_delta_log_list_read(x->table, -1, &list_arena, &list, err);
    if (st == DL_OK) {
        st = read_commits(x, &list, limit, err);
    }
    dl_arena_destroy(&list_arena);
    return st;
}

dl_status
dl_delta_history_read(dl_delta_table *table, int64_t limit, dl_delta_history **out, dl_error *err) {
    DL_CHECK(table && out, err, DL_ERR_INVALID_ARG, "dl_delta_history_read: NULL argument");
    *out = NULL;
    dl_delta_history *h = dl_mem_alloc_zero(table->alloc, sizeof(*h));
    DL_CHECK(h, err, DL_ERR_NOMEM, "out of memory reading history");
    h->alloc = table->alloc;
    dl_arena_init(&h->arena, table->alloc, 0);
    hist_ctx x = {.table = table, .h = h};
    dl_buf_init(&x.bytes, table->alloc);
    dl_json_doc_init(&x.doc, table->alloc);
    dl_status st = read_history(&x, limit, err);
    dl_json_doc_destroy(&x.doc);
    dl_buf_destroy(&x.bytes);
    if (st != DL_OK) {
        if (st != DL_ERR_NOT_FOUND) {
            dl_error_prefix(err, "%s: history", table->display);
        }
        dl_delta_history_free(h);
        return st;
    }
    *out = h;
    return DL_OK;
}

size_t
dl_delta_history_count(const dl_delta_history *history) {
    return history->n_commits;
}

const dl_delta_commit *
dl_delta_history_at(const dl_delta_history *history, size_t i) {
    return &history->commits[i];
}

void
dl_delta_history_free(dl_delta_history *history) {
    if (!history) {
        return;
    }
    dl_arena_destroy(&history->arena);
    dl_mem_free(history->alloc, history, sizeof(*history));
}

/* ---- the raw log --------------------------------------------------------------------- */

struct dl_delta_log_iter {
    dl_delta_table *table;
    const dl_allocator *alloc;
    dl_arena list_arena; /* the listing */
    dl_arena scratch;    /* protocol/metaData copies of the current line */
    dl_delta_log_list list;
    size_t next_commit;            /* index in list.commits of the next file to open */
    size_t end_commit;             /* one past the last file */
    const dl_delta_log_file *file; /* the file being read, or NULL */
    dl_buf bytes;
    dl_json_lines lines;
    dl_json_doc doc;
    dl_json_iter members; /* of the current line */
    bool has_line;
    dl_delta_action action;
};

dl_status
dl_delta_log_iter_new(dl_delta_table *table, int64_t from_version, int64_t to_version,
                      dl_delta_log_iter **out, dl_error *err) {
    DL_CHECK(table && out, err, DL_ERR_INVALID_ARG, "dl_delta_log_iter_new: NULL argument");
    *out = NULL;
    dl_delta_log_iter *it = dl_mem_alloc_zero(table->alloc, sizeof(*it));
    DL_CHECK(it, err, DL_ERR_NOMEM, "out of memory reading the log");
    it->table = table;
    it->alloc = table->alloc;
    dl_arena_init(&it->list_arena, table->alloc, 0);
    dl_arena_init(&it->scratch, table->alloc, 0);
    dl_buf_init(&it->bytes, table->alloc);
    dl_json_doc_init(&it->doc, table->alloc);
    dl_status st = dl_delta_log_list_read(table, -1, &it->list_arena, &it->list, err);
    if (st != DL_OK) {
        dl_delta_log_iter_free(it);
        return st;
    }
    size_t lo = 0;
    while (lo < it->list.n_commits && it->list.commits[lo].version < from_version) {
        lo++;
    }
    size_t hi = lo;
    while (hi < it->list.n_commits &&
           (to_version < 0 || it->list.commits[hi].version <= to_version)) {
        hi++;
    }
    it->next_commit = lo;
    it->end_commit = hi;
    *out = it;
    return DL_OK;
}

/* Moves to the next line that has an action member; false at the end of the file. */
static dl_status
next_line(dl_delta_log_iter *it, bool *out_has, dl_error *err) {
    dl_str line;
    *out_has = false;
    while (dl_json_lines_next(&it->lines, &line)) {
        if (dl_str_trim(line).len == 0) {
            continue;
        }
        DL_TRY(dl_json_doc_parse(&it->doc, line.ptr, line.len, err));
        dl_json_val root = dl_json_doc_root(&it->doc);
        DL_CHECK(dl_json_val_type(root) == DL_JSON_OBJECT, err, DL_ERR_CORRUPT,
                 "an action line must be a JSON object, found a %s",
                 dl_json_type_name(dl_json_val_type(root)));
        it->members = dl_json_val_iter(root);
        *out_has = true;
        return DL_OK;
    }
    return DL_OK;
}

/* The next action of the current line, if any. */
static dl_status
next_member(dl_delta_log_iter *it, bool *out_has, dl_error *err) {
    dl_str key;
    dl_json_val body;
    *out_has = false;
    while (dl_json_iter_next(&it->members, &key, &body)) {
        dl_arena_reset(&it->scratch);
        DL_TRY(dl_delta_action_parse(key, body, &it->scratch, &it->action, err));
        if (it->action.kind != DL_DELTA_ACTION_UNKNOWN) {
            *out_has = true;
            return DL_OK;
        }
    }
    return DL_OK;
}

/* Reads the next commit file; false when there is none left. */
static dl_status
open_next_file(dl_delta_log_iter *it, bool *out_has, dl_error *err) {
    *out_has = it->next_commit < it->end_commit;
    if (!*out_has) {
        it->file = NULL;
        return DL_OK;
    }
    it->file = &it->list.commits[it->next_commit++];
    DL_TRY(dl_delta_commit_check_size(it->file, err));
    dl_json_lines_init(&it->lines, "", 0);
    dl_buf_reset(&it->bytes);
    DL_TRY(dl_store_read_all(it->table->store, it->file->path, &it->bytes, err));
    dl_json_lines_init(&it->lines, (const char *)it->bytes.data, it->bytes.len);
    it->has_line = false;
    return DL_OK;
}

static dl_status
iter_step(dl_delta_log_iter *it, dl_delta_log_entry *out, bool *out_has, dl_error *err) {
    for (;;) {
        if (!it->file) {
            DL_TRY(open_next_file(it, out_has, err));
            if (!*out_has) {
                return DL_OK;
            }
        }
        if (it->has_line) {
            bool has;
            DL_TRY(next_member(it, &has, err));
            if (has) {
                out->version = it->file->version;
                out->line = it->lines.line_no;
                out->file_mtime_ms = it->file->mtime_ms;
                out->action = &it->action;
                *out_has = true;
                return DL_OK;
            }
        }
        DL_TRY(next_line(it, &it->has_line, err));
        if (!it->has_line) {
            it->file = NULL;
        }
    }
}

dl_status
dl_delta_log_iter_next(dl_delta_log_iter *it, dl_delta_log_entry *out, bool *out_has,
                       dl_error *err) {
    memset(out, 0, sizeof(*out));
    dl_status st = iter_step(it, out, out_has, err);
    if (st != DL_OK && it->file && it->lines.line_no > 0) {
        dl_error_prefix(err, "%s: _delta_log/%s: line %lld", it->table->display, it->file->name,
                        (long long)it->lines.line_no);
    } else if (st != DL_OK && it->file) {
        dl_error_prefix(err, "%s: _delta_log/%s", it->table->display, it->file->name);
    }
    return st;
}

void
dl_delta_log_iter_free(dl_delta_log_iter *it) {
    if (!it) {
        return;
    }
    dl_json_doc_destroy(&it->doc);
    dl_buf_destroy(&it->bytes);
    dl_arena_destroy(&it->scratch);
    dl_arena_destroy(&it->list_arena);
    dl_mem_free(it->alloc, it, sizeof(*it));
}

dl_status
dl_delta_log_each(dl_delta_table *table, int64_t from_version, int64_t to_version,
                  dl_delta_log_visit_fn visit, void *ctx, dl_error *err) {
    dl_delta_log_iter *it = NULL;
    DL_TRY(dl_delta_log_iter_new(table, from_version, to_version, &it, err));
    dl_status s = DL_OK;
    for (;;) {
        dl_delta_log_entry e = {0};
        bool has = false;
        s = dl_delta_log_iter_next(it, &e, &has, err);
        if (s != DL_OK || !has) {
            break;
        }
        s = visit(ctx, &e, err);
        if (s != DL_OK) {
            break;
        }
    }
    dl_delta_log_iter_free(it);
    return s;
}
