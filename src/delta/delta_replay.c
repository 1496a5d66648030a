/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Log replay (PROTOCOL.md, "Action Reconciliation"): a segment's files, newest first, reduced
 * to the snapshot's state.
 *
 * Reading newest to oldest, the first action seen for a key decides: the first protocol and
 * the first metaData win, the first txn per appId, the first domainMetadata per domain (a
 * removed one hides older ones and is itself not kept), and for files the first add or remove
 * per logical file key (path, deletion vector unique id): an add that wins is a live file, a
 * remove that wins a tombstone, anything older with the same key is shadowed. Paths are
 * URL-decoded and canonicalised before they become keys, so "a%20b" and "a b", "file:/x" and
 * "/x" name one file. The commitInfo is the one in the commit of the snapshot's version.
 *
 * Cost model (a million live files is the goal): each commit file is read with one store read
 * into a buffer reused for the next (long segments read ahead on a helper thread, see "reading
 * commits ahead"), its lines parsed with one reused JSON doc; the only
 * per-file allocation is in the snapshot's arena for files that survive (their decoded path
 * doubling as the seen-set key, the stats text, a deletion vector descriptor); partitionValues
 * are interned by their raw text, so a partition's tuple is stored and parsed once. The
 * oldest layer (commit 0 or the checkpoint) only looks keys up, never inserts them: nothing
 * older can be shadowed by it.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "delta/delta_int.h"

typedef struct replay_txn {
    const char *app_id;
    int64_t version;
    int64_t last_updated;
} replay_txn;

typedef struct replay {
    dl_delta_table *table;
    dl_delta_snapshot *snap;
    const dl_delta_snapshot_options *opts;
    const dl_delta_segment *seg;
    dl_hmap *seen; /* file keys already decided: &seen_own, or for a checkpoint worker the
                      main replay's (only read there) */
    dl_hmap seen_own;
    dl_hmap parts;       /* raw partitionValues text -> dl_delta_partition * */
    dl_hmap txns;        /* appId -> 1 */
    dl_hmap domains;     /* domain -> 1 */
    dl_buf txn_list;     /* replay_txn entries */
    dl_buf dom_list;     /* dl_delta_snapshot_domain entries */
    dl_buf key;          /* scratch: decoded path [NUL dv id] */
    dl_buf bytes;        /* the file being replayed (when not read ahead) */
    const uint8_t *text; /* the text of the JSON file being replayed */
    dl_arena scratch;    /* protocol/metaData of the file being replayed */
    dl_json_doc doc;
    int64_t version; /* version of the commit being replayed; -1 for a checkpoint */
    bool is_oldest;  /* the oldest layer: look keys up, never insert */
    bool is_checkpoint;
    bool is_parquet;        /* the file being replayed is Parquet: line numbers are its rows */
    bool is_done;           /* metadata-only replay found what it needs */
    int64_t row;            /* Parquet: the row of the action being replayed */
    int32_t cur_source;     /* the snapshot source of the file being replayed */
    dl_arena sidecar_arena; /* sidecar paths named by the checkpoint */
    const char **sidecars;  /* decoded paths relative to the store's root */
    size_t n_sidecars;
    size_t cap_sidecars;
} replay;

/* ---- copying the winners into the snapshot ------------------------------------------- */

static const char *
dup_cstr(dl_arena *arena, const char *s) {
    return s ? dl_arena_strndup(arena, s, strlen(s)) : NULL;
}

static bool
dup_list(dl_arena *arena, const char *const *src, int32_t n, const char *const **out) {
    *out = NULL;
    if (!src) {
        return true;
    }
    const char **list = dl_arena_alloc_array(arena, n ? (size_t)n : 1, sizeof(char *));
    if (!list) {
        return false;
    }
    for (int32_t i = 0; i < n; i++) {
        list[i] = dup_cstr(arena, src[i]);
        if (!list[i]) {
            return false;
        }
    }
    *out = list;
    return true;
}

static bool
dup_kv(dl_arena *arena, const dl_delta_kv *src, int32_t n, const dl_delta_kv **out) {
    *out = NULL;
    if (n == 0) {
        return true;
    }
    dl_delta_kv *kv = dl_arena_alloc_array(arena, (size_t)n, sizeof(dl_delta_kv));
    if (!kv) {
        return false;
    }
    for (int32_t i = 0; i < n; i++) {
        kv[i].key = dup_cstr(arena, src[i].key);
        kv[i].value = dup_cstr(arena, src[i].value);
        if (!kv[i].key || (src[i].value && !kv[i].value)) {
            return false;
        }
    }
    *out = kv;
    return true;
}

static dl_status
take_protocol(replay *r, const dl_delta_protocol *p, dl_error *err) {
    dl_delta_snapshot *s = r->snap;
    s->protocol = *p;
    bool ok =
        dup_list(&s->arena, p->reader_features, p->n_reader_features,
                 &s->protocol.reader_features) &&
        dup_list(&s->arena, p->writer_features, p->n_writer_features, &s->protocol.writer_features);
    DL_CHECK(ok, err, DL_ERR_NOMEM, "out of memory keeping the protocol");
    s->has_protocol = true;
    return DL_OK;
}

static dl_status
take_metadata(replay *r, const dl_delta_metadata *md, dl_error *err) {
    dl_delta_snapshot *s = r->snap;
    dl_delta_metadata *d = &s->metadata;
    *d = *md;
    d->id = dup_cstr(&s->arena, md->id);
    d->name = dup_cstr(&s->arena, md->name);
    d->description = dup_cstr(&s->arena, md->description);
    d->format_provider = dup_cstr(&s->arena, md->format_provider);
    d->schema_string = dup_cstr(&s->arena, md->schema_string);
    bool ok = d->id && d->format_provider && (d->name || !md->name) &&
              (d->description || !md->description) && (d->schema_string || !md->schema_string) &&
              dup_list(&s->arena, md->partition_columns, md->n_partition_columns,
                       &d->partition_columns) &&
              dup_kv(&s->arena, md->format_options, md->n_format_options, &d->format_options) &&
              dup_kv(&s->arena, md->configuration, md->n_configuration, &d->configuration);
    DL_CHECK(ok, err, DL_ERR_NOMEM, "out of memory keeping the metadata");
    s->has_metadata = true;
    return DL_OK;
}

/* ---- file actions -------------------------------------------------------------------- */

/* Builds the logical file key into r->key: decoded path, then NUL and the DV id if any.
 * *out_path_len receives the length of the decoded path. */
static dl_status
build_key(replay *r, const dl_delta_file_action *f, size_t *out_path_len, bool *out_is_abs,
          dl_error *err) {
    DL_TRY(dl_delta_path_decode(f->path, &r->key, out_is_abs, err));
    *out_path_len = r->key.len;
    if (f->has_dv) {
        DL_TRY(dl_buf_append_byte(&r->key, '\0', err));
        DL_TRY(dl_delta_dv_desc_append_id(&f->dv, &r->key, err));
    }
    return DL_OK;
}

/* The interned partition tuple of raw (NULL for an empty raw text). */
static dl_status
intern_partition(replay *r, dl_str raw, const dl_delta_partition **out, dl_error *err) {
    *out = NULL;
    if (raw.len == 0) {
        return DL_OK;
    }
    uint64_t found;
    if (dl_hmap_get(&r->parts, raw, &found)) {
        *out = r->snap->partitions[found];
        return DL_OK;
    }
    dl_delta_snapshot *s = r->snap;
    if (s->n_partitions == s->cap_partitions) {
        size_t cap = s->cap_partitions ? s->cap_partitions * 2 : 16;
        void *p = dl_mem_realloc(s->alloc, s->partitions, s->cap_partitions * sizeof(void *),
                                 cap * sizeof(void *));
        DL_CHECK(p, err, DL_ERR_NOMEM, "out of memory interning partition values");
        s->partitions = p;
        s->cap_partitions = cap;
    }
    dl_delta_partition *part = dl_arena_alloc_zero(&s->arena, sizeof(*part));
    char *text = dl_arena_strndup(&s->arena, raw.ptr, raw.len);
    DL_CHECK(part && text, err, DL_ERR_NOMEM, "out of memory interning partition values");
    part->raw = dl_str_make(text, raw.len);
    DL_TRY(dl_hmap_put(&r->parts, part->raw, s->n_partitions, err));
    s->partitions[s->n_partitions++] = part;
    *out = part;
    return DL_OK;
}

static dl_status
keep_dv(replay *r, const dl_delta_dv_desc *dv, const dl_delta_dv_desc **out, dl_error *err) {
    dl_delta_dv_desc *copy = dl_arena_alloc(&r->snap->arena, sizeof(*copy));
    DL_CHECK(copy, err, DL_ERR_NOMEM, "out of memory keeping a deletion vector");
    *copy = *dv;
    char *p =
        dl_arena_strndup(&r->snap->arena, dv->path_or_inline_dv.ptr, dv->path_or_inline_dv.len);
    DL_CHECK(p, err, DL_ERR_NOMEM, "out of memory keeping a deletion vector");
    copy->path_or_inline_dv = dl_str_make(p, dv->path_or_inline_dv.len);
    *out = copy;
    return DL_OK;
}

static dl_status
keep_text(replay *r, dl_str text, dl_str *out, dl_error *err) {
    *out = dl_str_make(NULL, 0);
    if (text.len == 0) {
        return DL_OK;
    }
    char *p = dl_arena_strndup(&r->snap->arena, text.ptr, text.len);
    DL_CHECK(p, err, DL_ERR_NOMEM, "out of memory keeping a file action");
    *out = dl_str_make(p, text.len);
    return DL_OK;
}

/* Keeps an add's stats: a copy of the text, or (by default) where the token is in the log file
 * being replayed, which dl_delta_file_stats reads back. A Parquet file's stats are located by
 * row (stats_len 0), whether the row has any or not: that is found out when they are read. */
static dl_status
keep_stats(replay *r, const dl_delta_file_action *fa, dl_delta_file *f, dl_error *err) {
    if (r->is_parquet) {
        if (r->opts->is_stats_in_memory) {
            return keep_text(r, fa->stats_text, &f->stats, err);
        }
        DL_CHECK(r->row >= 0 && r->row <= UINT32_MAX, err, DL_ERR_LIMIT,
                 "a checkpoint of over 4 Gi rows cannot keep its stats by reference");
        f->stats_source = r->cur_source;
        f->stats_offset = (uint32_t)r->row;
        f->stats_len = 0;
        return DL_OK;
    }
    dl_json_val stats = fa->stats;
    if (dl_json_val_is_missing(stats)) {
        return DL_OK;
    }
    if (r->opts->is_stats_in_memory) {
        return keep_text(r, dl_json_val_str(stats), &f->stats, err);
    }
    /* The token lies inside the file buffer (the doc keeps views into its input). */
    dl_str raw = dl_json_val_raw(stats);
    size_t at = (size_t)(raw.ptr - (const char *)r->text);
    DL_CHECK(at <= UINT32_MAX && raw.len <= UINT32_MAX, err, DL_ERR_LIMIT,
             "a log file over 4 GiB cannot keep its stats by reference");
    f->stats_source = r->cur_source;
    f->stats_offset = (uint32_t)at;
    f->stats_len = (uint32_t)raw.len;
    return DL_OK;
}

/* Fills a new live file or tombstone from its winning action; key_text is its stored key. */
static dl_status
fill_file(replay *r, const dl_delta_action *a, const char *key_text, size_t path_len, bool is_abs,
          dl_delta_file *f, dl_error *err) {
    const dl_delta_file_action *fa = &a->file;
    bool is_add = a->kind == DL_DELTA_ACTION_ADD;
    f->path = dl_str_make(key_text, path_len);
    f->size = fa->size;
    f->modification_time =
        is_add ? fa->modification_time : (fa->has_deletion_timestamp ? fa->deletion_timestamp : -1);
    f->base_row_id = fa->has_base_row_id ? fa->base_row_id : -1;
    f->default_row_commit_version =
        fa->has_default_row_commit_version ? fa->default_row_commit_version : -1;
    f->version = r->version;
    f->flags = (fa->data_change ? DL_DELTA_FILE_DATA_CHANGE : 0u) |
               (is_abs ? DL_DELTA_FILE_ABSOLUTE : 0u) |
               (fa->extended_file_metadata ? DL_DELTA_FILE_EXTENDED : 0u) |
               (fa->has_deletion_timestamp ? DL_DELTA_FILE_HAS_DELETION_TS : 0u);
    DL_TRY(intern_partition(r, fa->partition_values, &f->partition, err));
    if (fa->has_dv) {
        DL_TRY(keep_dv(r, &fa->dv, &f->dv, err));
    }
    DL_TRY(keep_text(r, fa->tags, &f->tags, err));
    f->stats_source = -1;
    if (is_add && !r->opts->is_without_stats) {
        DL_TRY(keep_stats(r, fa, f, err));
    }
    if (is_add) {
        r->snap->total_bytes += fa->size;
    }
    return DL_OK;
}

static dl_status
replay_file_action(replay *r, const dl_delta_action *a, dl_error *err) {
    size_t path_len;
    bool is_abs;
    DL_TRY_CTX(build_key(r, &a->file, &path_len, &is_abs, err), err, "%.*s action",
               DL_STR_FMT(a->name));
    dl_str key = dl_buf_view(&r->key);
    if (dl_hmap_get(r->seen, key, NULL)) {
        return DL_OK;
    }
    dl_delta_snapshot *s = r->snap;
    dl_arena *arena = dl_delta_snapshot_file_arena(s);
    char *stored = dl_arena_memdup(arena, key.ptr, key.len + 1);
    DL_CHECK(stored, err, DL_ERR_NOMEM, "out of memory keeping a file action");
    stored[key.len] = '\0';
    if (!r->is_oldest) {
        DL_TRY(dl_hmap_put(r->seen, dl_str_make(stored, key.len), 1, err));
    }
    dl_delta_file_vec *vec = a->kind == DL_DELTA_ACTION_ADD ? &s->files : &s->tombstones;
    dl_delta_file *f = dl_delta_file_vec_push(vec, arena, s->alloc);
    DL_CHECK(f, err, DL_ERR_NOMEM, "out of memory keeping a file action");
    return fill_file(r, a, stored, path_len, is_abs, f, err);
}

/* ---- the other actions --------------------------------------------------------------- */

static dl_status
replay_txn_action(replay *r, const dl_delta_txn *t, dl_error *err) {
    if (dl_hmap_get(&r->txns, t->app_id, NULL)) {
        return DL_OK;
    }
    replay_txn e = {.version = t->version,
                    .last_updated = t->has_last_updated ? t->last_updated : -1};
    e.app_id = dl_arena_strndup(&r->snap->arena, t->app_id.ptr, t->app_id.len);
    DL_CHECK(e.app_id, err, DL_ERR_NOMEM, "out of memory keeping a txn");
    DL_TRY(dl_hmap_put(&r->txns, dl_str_make(e.app_id, t->app_id.len), 1, err));
    return dl_buf_append(&r->txn_list, &e, sizeof(e), err);
}

static dl_status
replay_domain_action(replay *r, const dl_delta_domain *d, dl_error *err) {
    if (dl_hmap_get(&r->domains, d->domain, NULL)) {
        return DL_OK;
    }
    dl_delta_snapshot_domain e;
    e.domain = dl_arena_strndup(&r->snap->arena, d->domain.ptr, d->domain.len);
    e.configuration = dl_arena_strndup(&r->snap->arena, d->configuration.ptr, d->configuration.len);
    DL_CHECK(e.domain && e.configuration, err, DL_ERR_NOMEM, "out of memory keeping a domain");
    DL_TRY(dl_hmap_put(&r->domains, dl_str_make(e.domain, d->domain.len), 1, err));
    if (d->is_removed) {
        return DL_OK;
    }
    return dl_buf_append(&r->dom_list, &e, sizeof(e), err);
}

static dl_status
replay_commit_info(replay *r, const dl_delta_commit_info *ci, dl_error *err) {
    dl_delta_snapshot *s = r->snap;
    if (r->version != r->seg->version || s->commit_info.len > 0) {
        return DL_OK;
    }
    dl_str raw = dl_json_val_raw(ci->body);
    char *p = dl_arena_strndup(&s->arena, raw.ptr, raw.len);
    DL_CHECK(p, err, DL_ERR_NOMEM, "out of memory keeping the commitInfo");
    s->commit_info = dl_str_make(p, raw.len);
    s->has_ict = ci->has_in_commit_timestamp;
    s->ict = ci->in_commit_timestamp;
    return DL_OK;
}

/* The index of the last '/' of p, or -1. */
static int64_t
last_slash(dl_str p) {
    for (size_t i = p.len; i > 0; i--) {
        if (p.ptr[i - 1] == '/') {
            return (int64_t)(i - 1);
        }
    }
    return -1;
}

/* Remembers a sidecar the checkpoint names: its path decoded and resolved in
 * _delta_log/_sidecars/ (a bare name, or any path whose last components are
 * _delta_log/_sidecars/<name>). */
static dl_status
add_sidecar(replay *r, const dl_delta_sidecar *sc, dl_error *err) {
    bool is_abs;
    DL_TRY_CTX(dl_delta_path_decode(sc->path, &r->key, &is_abs, err), err, "sidecar action");
    dl_str p = dl_buf_view(&r->key);
    int64_t slash = last_slash(p);
    dl_str name = dl_str_slice(p, (size_t)(slash + 1), p.len - (size_t)(slash + 1));
    dl_str dir = dl_str_make(p.ptr, slash >= 0 ? (size_t)slash : 0);
    DL_CHECK(name.len > 0 && (slash < 0 || dl_str_ends_with(dir, DL_STR("_delta_log/_sidecars"))),
             err, DL_ERR_CORRUPT,
             "sidecar action: path \"%.*s\" is not a file in _delta_log/_sidecars/",
             DL_STR_FMT(sc->path));
    if (r->n_sidecars == r->cap_sidecars) {
        size_t cap = r->cap_sidecars ? r->cap_sidecars * 2 : 8;
        const char **list = dl_arena_alloc_array(&r->sidecar_arena, cap, sizeof(char *));
        DL_CHECK(list, err, DL_ERR_NOMEM, "out of memory listing sidecars");
        if (r->n_sidecars) {
            memcpy(list, r->sidecars, r->n_sidecars * sizeof(char *));
        }
        r->sidecars = list;
        r->cap_sidecars = cap;
    }
    const char *path =
        dl_arena_printf(&r->sidecar_arena, "%s_sidecars/%.*s", r->table->log_dir, DL_STR_FMT(name));
    DL_CHECK(path, err, DL_ERR_NOMEM, "out of memory listing sidecars");
    r->sidecars[r->n_sidecars++] = path;
    return DL_OK;
}

static dl_status
visit(void *ctx, const dl_delta_action *a, int64_t line_no, dl_error *err) {
    replay *r = ctx;
    r->row = line_no;
    r->snap->n_actions_read++;
    bool is_meta_only = r->opts->is_metadata_only;
    switch (a->kind) {
    case DL_DELTA_ACTION_PROTOCOL:
        return r->snap->has_protocol ? DL_OK : take_protocol(r, &a->protocol, err);
    case DL_DELTA_ACTION_METADATA:
        return r->snap->has_metadata ? DL_OK : take_metadata(r, &a->metadata, err);
    case DL_DELTA_ACTION_ADD:
    case DL_DELTA_ACTION_REMOVE:
        return is_meta_only ? DL_OK : replay_file_action(r, a, err);
    case DL_DELTA_ACTION_TXN:
        return is_meta_only ? DL_OK : replay_txn_action(r, &a->txn, err);
    case DL_DELTA_ACTION_DOMAIN_METADATA:
        return is_meta_only ? DL_OK : replay_domain_action(r, &a->domain, err);
    case DL_DELTA_ACTION_COMMIT_INFO:
        return replay_commit_info(r, &a->commit_info, err);
    case DL_DELTA_ACTION_SIDECAR:
        return r->is_checkpoint && !is_meta_only ? add_sidecar(r, &a->sidecar, err) : DL_OK;
    default:
        /* cdc, checkpointMetadata: not part of a snapshot's state. */
        return DL_OK;
    }
}

/* ---- files --------------------------------------------------------------------------- */

/* Records path as the next source of the snapshot (stats references point at it). */
static dl_status
add_source(replay *r, const char *lf_path, dl_error *err) {
    dl_delta_snapshot *s = r->snap;
    if (s->n_sources == s->cap_sources) {
        size_t cap = s->cap_sources ? s->cap_sources * 2 : 16;
        void *p = dl_mem_realloc(s->alloc, s->sources, s->cap_sources * sizeof(char *),
                                 cap * sizeof(char *));
        DL_CHECK(p, err, DL_ERR_NOMEM, "out of memory listing the log files read");
        s->sources = p;
        s->cap_sources = cap;
    }
    const char *path = dl_arena_strndup(&s->arena, lf_path, strlen(lf_path));
    DL_CHECK(path, err, DL_ERR_NOMEM, "out of memory listing the log files read");
    DL_CHECK(s->n_sources < INT32_MAX, err, DL_ERR_LIMIT, "too many log files");
    r->cur_source = (int32_t)s->n_sources;
    s->sources[s->n_sources++] = path;
    return DL_OK;
}

/* Replays the text of log file lf (a commit, or a JSON V2 checkpoint) already read. */
static dl_status
replay_log_text(replay *r, const dl_delta_log_file *lf, const dl_buf *bytes, dl_error *err) {
    DL_TRY(add_source(r, lf->path, err));
    r->is_parquet = false;
    r->text = bytes->data;
    dl_status st = dl_delta_actions_parse_text((const char *)bytes->data, bytes->len, &r->doc,
                                               &r->scratch, visit, r, err);
    dl_arena_reset(&r->scratch);
    r->text = NULL;
    DL_TRY_CTX(st, err, "_delta_log/%s", lf->name);
    r->snap->n_commits_read += r->is_checkpoint ? 0 : 1;
    return DL_OK;
}

/* Reads log file lf whole into out (reset first). A file the listing named but that is gone
 * is corrupt. */
static dl_status
read_log_file(dl_store *store, const dl_delta_log_file *lf, dl_buf *out, dl_error *err) {
    dl_buf_reset(out);
    dl_status st = dl_store_read_all(store, lf->path, out, err);
    if (st == DL_ERR_NOT_FOUND) {
        dl_error_set(err, DL_ERR_CORRUPT, "%s disappeared while the table was being read",
                     lf->name);
        return DL_ERR_CORRUPT;
    }
    DL_TRY_CTX(st, err, "_delta_log/%s", lf->name);
    return DL_OK;
}

static dl_status
replay_log_file(replay *r, const dl_delta_log_file *lf, dl_error *err) {
    DL_TRY(read_log_file(r->table->store, lf, &r->bytes, err));
    return replay_log_text(r, lf, &r->bytes, err);
}

/* ---- reading commits ahead ------------------------------------------------------------ */

/*
 * A segment of many commits (10,000 after a checkpoint is the benchmark) spends as much time in
 * the store's reads as in parsing. With a second processor, a helper thread reads the commit
 * files, newest first, up to AHEAD_SLOTS files ahead of the one being replayed, each into a
 * buffer of its own; the replay itself stays on the calling thread and in order. When the
 * reader is ahead by all its slots it sleeps until half of them are free, so the threads do
 * not wake each other once per file (a wake-up costs a scheduling quantum on a busy machine). A
 * read error is reported when the replay reaches that file, so the error is the one a sequential
 * replay would give.
 */
#define AHEAD_SLOTS       32
#define AHEAD_MIN_COMMITS 64

typedef struct ahead_slot {
    dl_buf bytes;
    dl_status status;
    dl_error err;
} ahead_slot;

typedef struct ahead {
    dl_store *store;
    const dl_delta_segment *seg;
    ahead_slot slots[AHEAD_SLOTS];
    pthread_mutex_t mu;
    pthread_cond_t cv;
    size_t head;     /* next file to replay (0: the newest commit) */
    size_t tail;     /* next file to read */
    bool is_stopped; /* the replay ended early: the reader must stop */
} ahead;

/* The k-th commit of the replay order (newest first). */
static const dl_delta_log_file *
ahead_file(const ahead *a, size_t k) {
    return &a->seg->commits[a->seg->n_commits - 1 - k];
}

static dl_status
ahead_task(void *arg, dl_error *err) {
    ahead *a = arg;
    (void)err;
    for (size_t k = 0; k < a->seg->n_commits; k++) {
        (void)pthread_mutex_lock(&a->mu);
        if (k - a->head == AHEAD_SLOTS) {
            /* Full: wait until half the slots are free, so that the two threads do not wake
             * each other for every file. */
            while (k - a->head > AHEAD_SLOTS / 2 && !a->is_stopped) {
                (void)pthread_cond_wait(&a->cv, &a->mu);
            }
        }
        bool is_stopped = a->is_stopped;
        (void)pthread_mutex_unlock(&a->mu);
        if (is_stopped) {
            break;
        }
        ahead_slot *slot = &a->slots[k % AHEAD_SLOTS];
        dl_error_clear(&slot->err);
        slot->status = read_log_file(a->store, ahead_file(a, k), &slot->bytes, &slot->err);
        (void)pthread_mutex_lock(&a->mu);
        a->tail = k + 1;
        (void)pthread_cond_broadcast(&a->cv);
        (void)pthread_mutex_unlock(&a->mu);
    }
    return DL_OK;
}

/* Replays the commits as ahead_task reads them. */
static dl_status
ahead_replay(replay *r, ahead *a, dl_error *err) {
    const dl_delta_segment *seg = r->seg;
    for (size_t k = 0; k < seg->n_commits; k++) {
        (void)pthread_mutex_lock(&a->mu);
        while (a->tail <= k) {
            (void)pthread_cond_wait(&a->cv, &a->mu);
        }
        (void)pthread_mutex_unlock(&a->mu);
        ahead_slot *slot = &a->slots[k % AHEAD_SLOTS];
        const dl_delta_log_file *lf = ahead_file(a, k);
        if (slot->status != DL_OK) {
            if (err) {
                *err = slot->err;
            }
            return slot->status;
        }
        r->version = lf->version;
        r->is_oldest = k + 1 == seg->n_commits && !seg->checkpoint && lf->version == 0;
        DL_TRY(replay_log_text(r, lf, &slot->bytes, err));
        (void)pthread_mutex_lock(&a->mu);
        a->head = k + 1;
        if (a->tail - a->head == AHEAD_SLOTS / 2) {
            (void)pthread_cond_broadcast(&a->cv);
        }
        (void)pthread_mutex_unlock(&a->mu);
    }
    return DL_OK;
}

static dl_status
replay_commits_ahead(replay *r, dl_error *err) {
    ahead a;
    memset(&a, 0, sizeof(a));
    a.store = r->table->store;
    a.seg = r->seg;
    for (size_t i = 0; i < AHEAD_SLOTS; i++) {
        dl_buf_init(&a.slots[i].bytes, r->snap->alloc);
    }
    (void)pthread_mutex_init(&a.mu, NULL);
    (void)pthread_cond_init(&a.cv, NULL);
    dl_pool *pool = NULL;
    dl_pool_group g;
    dl_status st = dl_pool_new(1, r->snap->alloc, &pool, err);
    if (st == DL_OK) {
        dl_pool_group_init(&g, pool);
        st = dl_pool_submit(&g, ahead_task, &a, err);
        if (st == DL_OK) {
            st = ahead_replay(r, &a, err);
        }
        (void)pthread_mutex_lock(&a.mu);
        a.is_stopped = true;
        (void)pthread_cond_broadcast(&a.cv);
        (void)pthread_mutex_unlock(&a.mu);
        dl_error werr;
        dl_error_clear(&werr);
        dl_status wst = dl_pool_group_wait(&g, &werr); /* the task reports through its slots */
        if (st == DL_OK && wst != DL_OK) {
            if (err) {
                *err = werr;
            }
            st = wst;
        }
    }
    dl_pool_free(pool);
    (void)pthread_cond_destroy(&a.cv);
    (void)pthread_mutex_destroy(&a.mu);
    for (size_t i = 0; i < AHEAD_SLOTS; i++) {
        dl_buf_destroy(&a.slots[i].bytes);
    }
    return st;
}

/* ---- Parquet checkpoints -------------------------------------------------------------- */

/*
 * A large checkpoint with several row groups is replayed by CP_WORKERS threads at once: the
 * checkpoint is the oldest layer, so its add and remove rows only look keys up in `seen`
 * (read-only meanwhile) and never depend on each other. Each worker takes a run of row groups
 * and replays their file actions into a snapshot of its own (arena, file lists, interned
 * partitions); the main snapshot then takes over its file blocks and partitions and keeps it
 * alive for its memory. The other actions (protocol, metaData, txn, domains, sidecars) are
 * read first, on the calling thread, from their own columns.
 */
#define CP_WORKERS       2
#define CP_PARALLEL_ROWS ((int64_t)1 << 17)

typedef struct cp_worker {
    replay r;
    dl_delta_snapshot *snap;
    int32_t *row_groups;
    size_t n_row_groups;
    dl_pq_file *file;
} cp_worker;

static dl_status
run_worker(void *arg, dl_error *err) {
    cp_worker *w = arg;
    dl_delta_cp_read_options o = {.alloc = w->snap->alloc,
                                  .with_stats =
                                      w->r.opts->is_stats_in_memory && !w->r.opts->is_without_stats,
                                  .is_single_threaded = true,
                                  .is_files_only = true,
                                  .row_groups = w->row_groups,
                                  .n_row_groups = w->n_row_groups};
    return dl_delta_checkpoint_read(w->file, &o, visit, &w->r, err);
}

static void
worker_init(cp_worker *w, const replay *main, dl_pq_file *file) {
    memset(w, 0, sizeof(*w));
    w->file = file;
    w->r.table = main->table;
    w->r.opts = main->opts;
    w->r.seg = main->seg;
    w->r.seen = main->seen;
    w->r.version = -1;
    w->r.is_oldest = true;
    w->r.is_checkpoint = true;
    w->r.is_parquet = true;
    w->r.cur_source = main->cur_source;
    const dl_allocator *alloc = main->snap->alloc;
    dl_hmap_init(&w->r.parts, alloc);
    dl_buf_init(&w->r.key, alloc);
}

static void
worker_destroy(cp_worker *w) {
    dl_buf_destroy(&w->r.key);
    dl_hmap_destroy(&w->r.parts);
    dl_delta_snapshot_unref(w->snap);
    dl_mem_free(w->r.table->alloc, w->row_groups, (w->n_row_groups + 1) * sizeof(int32_t));
}

/* Splits the row groups into runs of about equal rows, one per worker. */
static dl_status
split_row_groups(dl_pq_file *file, cp_worker *w, size_t n_workers, const dl_allocator *alloc,
                 dl_error *err) {
    const dl_pq_footer *ft = dl_pq_file_footer(file);
    size_t n = ft->meta.n_row_groups;
    int64_t total = dl_pq_file_num_rows(file);
    size_t g = 0;
    int64_t done = 0;
    for (size_t k = 0; k < n_workers; k++) {
        int64_t goal = total / (int64_t)n_workers * (int64_t)(k + 1);
        size_t first = g;
        while (g < n && (done < goal || k + 1 == n_workers)) {
            done += ft->meta.row_groups[g++].num_rows;
        }
        w[k].n_row_groups = g - first;
        w[k].row_groups = dl_mem_alloc(alloc, (w[k].n_row_groups + 1) * sizeof(int32_t));
        DL_CHECK(w[k].row_groups, err, DL_ERR_NOMEM, "out of memory splitting a checkpoint");
        for (size_t i = 0; i < w[k].n_row_groups; i++) {
            w[k].row_groups[i] = (int32_t)(first + i);
        }
    }
    return DL_OK;
}

/* Runs worker 0 on this thread and the others on a pool. */
static dl_status
run_workers(replay *r, cp_worker *w, size_t n_workers, dl_error *err) {
    dl_pool *pool = NULL;
    DL_TRY(dl_pool_new((int)n_workers - 1, r->snap->alloc, &pool, err));
    dl_pool_group g;
    dl_pool_group_init(&g, pool);
    dl_status st = DL_OK;
    for (size_t k = 1; k < n_workers && st == DL_OK; k++) {
        st = dl_pool_submit(&g, run_worker, &w[k], err);
    }
    if (st == DL_OK) {
        st = run_worker(&w[0], err);
    }
    dl_error werr;
    dl_error_clear(&werr);
    dl_status wst = dl_pool_group_wait(&g, &werr);
    dl_pool_free(pool);
    if (st == DL_OK && wst != DL_OK) {
        if (err) {
            *err = werr;
        }
        st = wst;
    }
    return st;
}

/* Replays the file actions of file's row groups on CP_WORKERS threads (see above). */
static dl_status
replay_parquet_parallel(replay *r, dl_pq_file *file, dl_error *err) {
    dl_delta_cp_read_options o = {.alloc = r->snap->alloc, .is_without_files = true};
    DL_TRY(dl_delta_checkpoint_read(file, &o, visit, r, err));
    cp_worker w[CP_WORKERS];
    for (size_t k = 0; k < CP_WORKERS; k++) {
        worker_init(&w[k], r, file);
    }
    dl_status st = split_row_groups(file, w, CP_WORKERS, r->table->alloc, err);
    for (size_t k = 0; k < CP_WORKERS && st == DL_OK; k++) {
        st = dl_delta_snapshot_new(r->table, &w[k].snap, err);
        w[k].r.snap = w[k].snap;
    }
    if (st == DL_OK) {
        st = run_workers(r, w, CP_WORKERS, err);
    }
    for (size_t k = 0; k < CP_WORKERS && st == DL_OK; k++) {
        st = dl_delta_snapshot_absorb(r->snap, w[k].snap, err);
    }
    for (size_t k = 0; k < CP_WORKERS; k++) {
        worker_destroy(&w[k]);
    }
    return st;
}

static bool
is_parallel(const replay *r, dl_pq_file *file) {
    return !r->opts->is_metadata_only && dl_pq_file_num_rows(file) >= CP_PARALLEL_ROWS &&
           dl_pq_file_footer(file)->meta.n_row_groups >= CP_WORKERS &&
           dl_pool_default_n_workers() > 1;
}

/* Replays a Parquet checkpoint, checkpoint part or sidecar at path; what names it in
 * messages. A file the listing (or a checkpoint) named but that is not there is corrupt. */
static dl_status
replay_parquet_file(replay *r, const char *path, const char *what, dl_error *err) {
    DL_TRY(add_source(r, path, err));
    r->is_parquet = true;
    dl_pq_file *file = NULL;
    dl_status st = dl_pq_file_open(r->table->store, path, r->snap->alloc, &file, err);
    if (st == DL_ERR_NOT_FOUND) {
        DL_FAIL(err, DL_ERR_CORRUPT, "%s is missing", what);
    }
    if (st == DL_OK && is_parallel(r, file)) {
        st = replay_parquet_parallel(r, file, err);
    } else if (st == DL_OK) {
        dl_delta_cp_read_options o = {.alloc = r->snap->alloc,
                                      .is_metadata_only = r->opts->is_metadata_only,
                                      .with_stats = r->opts->is_stats_in_memory &&
                                                    !r->opts->is_without_stats};
        st = dl_delta_checkpoint_read(file, &o, visit, r, err);
    }
    dl_arena_reset(&r->scratch);
    dl_pq_file_free(file);
    r->is_parquet = false;
    DL_TRY_CTX(st, err, "%s", what);
    return DL_OK;
}

static dl_status
replay_checkpoint(replay *r, dl_error *err) {
    const dl_delta_segment *seg = r->seg;
    r->version = -1;
    r->is_oldest = true;
    r->is_checkpoint = true;
    r->snap->checkpoint_version = seg->checkpoint->version;
    char what[600];
    for (size_t i = 0; i < seg->n_checkpoint_files; i++) {
        const dl_delta_log_file *lf = &seg->checkpoint[i];
        if (lf->kind == DL_DELTA_LOG_CHECKPOINT_V2 && lf->is_json) {
            DL_TRY(replay_log_file(r, lf, err));
        } else {
            (void)snprintf(what, sizeof(what), "_delta_log/%s", lf->name);
            DL_TRY(replay_parquet_file(r, lf->path, what, err));
        }
    }
    for (size_t i = 0; i < r->n_sidecars; i++) {
        const char *name = r->sidecars[i] + strlen(r->table->log_dir);
        (void)snprintf(what, sizeof(what), "_delta_log/%s (a sidecar of checkpoint %s)", name,
                       seg->checkpoint->name);
        DL_TRY(replay_parquet_file(r, r->sidecars[i], what, err));
    }
    return DL_OK;
}

static dl_status
run(replay *r, dl_error *err) {
    const dl_delta_segment *seg = r->seg;
    bool is_ahead = !r->opts->is_metadata_only && seg->n_commits >= AHEAD_MIN_COMMITS &&
                    dl_pool_default_n_workers() > 1;
    if (is_ahead) {
        DL_TRY(replay_commits_ahead(r, err));
    }
    for (size_t i = is_ahead ? 0 : seg->n_commits; i > 0 && !r->is_done; i--) {
        const dl_delta_log_file *lf = &seg->commits[i - 1];
        r->version = lf->version;
        r->is_oldest = i == 1 && !seg->checkpoint && lf->version == 0;
        DL_TRY(replay_log_file(r, lf, err));
        r->is_done = r->opts->is_metadata_only && r->snap->has_protocol && r->snap->has_metadata;
    }
    if (seg->checkpoint && !r->is_done) {
        DL_TRY(replay_checkpoint(r, err));
    }
    return DL_OK;
}

/* Moves the txn and domain lists into the snapshot's arena. */
static dl_status
keep_lists(replay *r, dl_error *err) {
    dl_delta_snapshot *s = r->snap;
    size_t nt = r->txn_list.len / sizeof(replay_txn);
    size_t nd = r->dom_list.len / sizeof(dl_delta_snapshot_domain);
    if (nt > 0) {
        s->txns = dl_arena_alloc_array(&s->arena, nt, sizeof(dl_delta_snapshot_txn));
        DL_CHECK(s->txns, err, DL_ERR_NOMEM, "out of memory keeping txns");
        const replay_txn *src = (const replay_txn *)(const void *)r->txn_list.data;
        for (size_t i = 0; i < nt; i++) {
            s->txns[i].app_id = src[i].app_id;
            s->txns[i].version = src[i].version;
            s->txns[i].last_updated = src[i].last_updated;
        }
        s->n_txns = nt;
    }
    if (nd > 0) {
        s->domains = dl_arena_memdup(&s->arena, r->dom_list.data, r->dom_list.len);
        DL_CHECK(s->domains, err, DL_ERR_NOMEM, "out of memory keeping domains");
        s->n_domains = nd;
    }
    return DL_OK;
}

dl_status
dl_delta_replay(dl_delta_table *table, const dl_delta_segment *seg,
                const dl_delta_snapshot_options *opts, dl_delta_snapshot *snap, dl_error *err) {
    replay r;
    memset(&r, 0, sizeof(r));
    r.table = table;
    r.snap = snap;
    r.opts = opts;
    r.seg = seg;
    const dl_allocator *alloc = snap->alloc;
    r.seen = &r.seen_own;
    dl_hmap_init(&r.seen_own, alloc);
    dl_hmap_init(&r.parts, alloc);
    dl_hmap_init(&r.txns, alloc);
    dl_hmap_init(&r.domains, alloc);
    dl_buf_init(&r.txn_list, alloc);
    dl_buf_init(&r.dom_list, alloc);
    dl_buf_init(&r.key, alloc);
    dl_buf_init(&r.bytes, alloc);
    dl_arena_init(&r.scratch, alloc, 0);
    dl_arena_init(&r.sidecar_arena, alloc, 0);
    dl_json_doc_init(&r.doc, alloc);
    snap->version = seg->version;
    snap->checkpoint_version = -1;
    dl_status st = run(&r, err);
    if (st == DL_OK) {
        st = keep_lists(&r, err);
    }
    dl_json_doc_destroy(&r.doc);
    dl_arena_destroy(&r.sidecar_arena);
    dl_arena_destroy(&r.scratch);
    dl_buf_destroy(&r.bytes);
    dl_buf_destroy(&r.key);
    dl_buf_destroy(&r.dom_list);
    dl_buf_destroy(&r.txn_list);
    dl_hmap_destroy(&r.domains);
    dl_hmap_destroy(&r.txns);
    dl_hmap_destroy(&r.parts);
    dl_hmap_destroy(&r.seen_own);
    return st;
}
