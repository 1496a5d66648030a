/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Private to the write side of the delta part (delta_txn*.c, delta_checkpoint_write.c,
 * delta_cleanup.c): the transaction's staged state, the commit's JSON serialisation, the
 * conflict checker's view of a winning commit, and small utilities (clock, randomness, UUIDs,
 * property parsing).
 *
 * Staged state lives in the transaction's arena; growable lists (dl_delta_tx_vec) grow by
 * copying into fresh arena memory, so their entries may move while staging but never after.
 */
#ifndef DL_DELTA_DELTA_TXN_INT_H
#define DL_DELTA_DELTA_TXN_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/hmap.h"
#include "delta/delta_int.h"
#include "delta/delta_txn.h"

/* A growable list of fixed-size entries in an arena. */
typedef struct dl_delta_tx_vec {
    void *items;
    size_t n;
    size_t cap;
} dl_delta_tx_vec;

/* A new zeroed entry of elem_size bytes at the end of vec, or NULL (NOMEM, err set). */
void *dl_delta_tx_vec_push(dl_arena *arena, dl_delta_tx_vec *vec, size_t elem_size, dl_error *err);

/* A staged add, remove or cdc. Strings are NUL-terminated, in the transaction's arena. */
typedef struct dl_delta_tx_file {
    const char *path;    /* as in storage (decoded); encoded when written */
    const char *pv_json; /* partitionValues object as JSON text, NULL when absent */
    dl_delta_kv *pv;     /* the same, as pairs (value NULL = null) */
    int32_t n_pv;
    int64_t size;  /* -1 when absent */
    bool has_time; /* modificationTime / deletionTimestamp given */
    int64_t time;  /* add: modificationTime; remove: deletionTimestamp */
    bool data_change;
    bool is_extended;      /* remove: extendedFileMetadata */
    const char *stats;     /* stats JSON text, or NULL */
    const char *tags_json; /* tags object as JSON text, or NULL */
    bool has_dv;
    dl_delta_dv_desc dv; /* path_or_inline_dv in the arena */
    bool has_base_row_id;
    int64_t base_row_id;
    bool has_drcv;
    int64_t drcv; /* defaultRowCommitVersion */
    const char *clustering_provider;
    /* row tracking (delta_rowtrack.c): ids and version assigned by each commit attempt */
    bool is_rt_fresh_id;
    bool is_rt_fresh_version;
    int64_t rt_rows; /* numRecords */
} dl_delta_tx_file;

typedef struct dl_delta_tx_app {
    const char *app_id;
    int64_t version;
} dl_delta_tx_app;

typedef struct dl_delta_tx_domain {
    const char *domain;
    const char *configuration;
    bool is_removed;
} dl_delta_tx_domain;

typedef struct dl_delta_tx_partition_read {
    dl_delta_kv *values;
    int32_t n_values;
} dl_delta_tx_partition_read;

typedef struct dl_delta_tx_predicate {
    dl_delta_read_predicate_fn fn;
    void *ctx;
} dl_delta_tx_predicate;

struct dl_delta_tx {
    dl_delta_table *table;          /* borrowed */
    dl_delta_snapshot *snap;        /* referenced; NULL when creating the table */
    const dl_allocator *alloc;      /* the table's */
    dl_arena arena;                 /* everything staged */
    dl_delta_stats_reader stats_rd; /* reads back the stats of removed files */
    dl_delta_tx_options opts;
    int64_t read_version;
    char txn_id[37];

    const char *op_name;
    bool op_changes_data;
    dl_delta_tx_vec params;  /* dl_delta_kv: key, raw JSON value */
    dl_delta_tx_vec metrics; /* dl_delta_kv: key, decimal text */
    const char *user_metadata;
    bool has_isolation;
    dl_delta_isolation isolation;

    bool has_metadata;
    dl_delta_metadata metadata;
    bool has_protocol;
    dl_delta_protocol protocol;
    dl_delta_tx_vec apps;    /* dl_delta_tx_app */
    dl_delta_tx_vec domains; /* dl_delta_tx_domain */
    dl_delta_tx_vec adds;    /* dl_delta_tx_file */
    dl_delta_tx_vec removes; /* dl_delta_tx_file */
    dl_delta_tx_vec cdcs;    /* dl_delta_tx_file */
    dl_hmap add_paths;       /* path -> index in adds */
    dl_hmap remove_paths;    /* path -> index in removes */

    dl_hmap read_files;         /* paths read (values unused) */
    dl_delta_tx_vec read_parts; /* dl_delta_tx_partition_read */
    dl_delta_tx_vec read_preds; /* dl_delta_tx_predicate */
    dl_delta_tx_vec read_apps;  /* const char * */
    bool is_whole_table_read;

    bool is_commit_called;
    dl_delta_conflict conflict;
};

/* ---- What a commit attempt needs, worked out once before the first attempt -------------- */

typedef struct dl_delta_tx_plan {
    const dl_delta_metadata *metadata; /* the metaData the table has after the commit */
    dl_delta_schema schema;            /* its schema */
    const dl_delta_protocol *protocol; /* the protocol after the commit */
    bool is_protocol_written;          /* a protocol line goes into the commit */
    bool is_metadata_written;          /* a metaData line goes into the commit */
    bool is_ict;                       /* in-commit timestamps are on after the commit */
    bool is_ict_enabling;              /* ... and this commit turns them on for an old table */
    dl_delta_isolation isolation;
    bool is_blind_append;
    bool is_row_tracking;     /* the commit assigns row ids (delta_rowtrack.c) */
    int64_t rt_hwm;           /* the snapshot's rowIdHighWaterMark, -1 when none */
    int64_t rt_floor;         /* the highest row id of adds that keep theirs, or -1 */
    int64_t first_attempt_ms; /* commitInfo.timestamp */
    dl_buf body;              /* the lines after commitInfo/protocol/metaData, built once */
} dl_delta_tx_plan;

/* ---- JSON (delta_txn_json.c) ----------------------------------------------------------- */

/*
 * Appends path URI-encoded as Spark's Path.toUri writes it: characters that are not allowed
 * in an RFC 2396 path (space, '%', '"', '#', '<', '>', '?', '[', '\\', ']', '^', '`', '{',
 * '|', '}', control characters) become %XX, and so does ':' in a relative path (which must
 * not read as a scheme); other bytes, non-ASCII UTF-8 included, stay. An absolute URI
 * ("s3://b/x y" becomes "s3://b/x%20y") keeps its ':'. dl_delta_path_decode undoes it.
 */
DL_NODISCARD dl_status dl_delta_path_encode(const char *path, dl_buf *out, dl_error *err);

/* Serialises pairs as a JSON object of strings (NULL value = null) into arena. */
DL_NODISCARD dl_status dl_delta_kv_to_json(const dl_delta_kv *kv, int32_t n, dl_arena *arena,
                                           const char **out, dl_error *err);

/* One action line each, '\n'-terminated, appended to out (w's buffer). */
DL_NODISCARD dl_status dl_delta_json_add_line(dl_buf *out, const dl_delta_tx_file *f,
                                              dl_error *err);
DL_NODISCARD dl_status dl_delta_json_remove_line(dl_buf *out, const dl_delta_tx_file *f,
                                                 int64_t default_deletion_ts, dl_error *err);
DL_NODISCARD dl_status dl_delta_json_cdc_line(dl_buf *out, const dl_delta_tx_file *f,
                                              dl_error *err);
DL_NODISCARD dl_status dl_delta_json_metadata_line(dl_buf *out, const dl_delta_metadata *md,
                                                   dl_error *err);
DL_NODISCARD dl_status dl_delta_json_protocol_line(dl_buf *out, const dl_delta_protocol *p,
                                                   dl_error *err);
DL_NODISCARD dl_status dl_delta_json_txn_line(dl_buf *out, const dl_delta_tx_app *app,
                                              int64_t last_updated, dl_error *err);
DL_NODISCARD dl_status dl_delta_json_domain_line(dl_buf *out, const dl_delta_tx_domain *d,
                                                 dl_error *err);

/* The commitInfo line of one attempt. ict < 0: none. */
DL_NODISCARD dl_status dl_delta_json_commit_info_line(dl_buf *out, const dl_delta_tx *tx,
                                                      const dl_delta_tx_plan *plan, int64_t ict,
                                                      dl_error *err);

/* ---- Protocol (delta_txn_protocol.c) ---------------------------------------------------- */

/* Whether md turns on in-commit timestamps (delta.enableInCommitTimestamps). */
bool dl_delta_md_is_ict(const dl_delta_metadata *md);

/* Copies a protocol into arena. */
DL_NODISCARD dl_status dl_delta_protocol_copy(const dl_delta_protocol *src, dl_arena *arena,
                                              dl_delta_protocol *out, dl_error *err);

/* Copies a metadata into arena (replacing the configuration when conf is not NULL). */
DL_NODISCARD dl_status dl_delta_metadata_copy(const dl_delta_metadata *src, const dl_delta_kv *conf,
                                              int32_t n_conf, dl_arena *arena,
                                              dl_delta_metadata *out, dl_error *err);

/* The configuration without Spark's pseudo-properties (delta.feature.*,
 * delta.minReaderVersion, delta.minWriterVersion), in arena (*out_n entries). */
DL_NODISCARD dl_status dl_delta_conf_strip_pseudo(const dl_delta_kv *conf, int32_t n,
                                                  dl_arena *arena, const dl_delta_kv **out,
                                                  int32_t *out_n, dl_error *err);

/* Same features, versions and lists (as sets). */
bool dl_delta_protocol_equal(const dl_delta_protocol *a, const dl_delta_protocol *b);

/* The column mapping mode md asks for (delta.columnMapping.mode). */
dl_delta_cm_mode dl_delta_md_cm_mode(const dl_delta_metadata *md);

/* ---- Row tracking (delta_rowtrack.c) --------------------------------------------------- */

#define DL_DELTA_RT_DOMAIN             "delta.rowTracking"
#define DL_DELTA_RT_SUSPENDED_KEY      "delta.rowTrackingSuspended"
#define DL_DELTA_RT_ENABLE_KEY         "delta.enableRowTracking"
#define DL_DELTA_RT_ID_COLUMN_KEY      "delta.rowTracking.materializedRowIdColumnName"
#define DL_DELTA_RT_VERSION_COLUMN_KEY "delta.rowTracking.materializedRowCommitVersionColumnName"

/* md itself, or (in arena) md with the materialized column names Spark assigns
 * (_row-id-col-<uuid>, _row-commit-version-col-<uuid>) when it enables row tracking without
 * them. */
DL_NODISCARD dl_status dl_delta_rt_metadata(const dl_delta_metadata *md, dl_arena *arena,
                                            const dl_delta_metadata **out, dl_error *err);

/* A commit whose metaData turns delta.enableRowTracking on for an existing table: every live
 * file must already have baseRowId and defaultRowCommitVersion, or be removed or re-added by
 * this commit (the backfill). DL_ERR_INVALID_ARG naming the first file that has none. */
DL_NODISCARD dl_status dl_delta_rt_check_enabling(const dl_delta_tx *tx,
                                                  const dl_delta_metadata *md, dl_error *err);

/* Whether a commit with this protocol and metadata assigns row ids (rowTracking supported and
 * not suspended). */
bool dl_delta_rt_is_assigning(const dl_delta_protocol *p, const dl_delta_metadata *md);

/* The rowIdHighWaterMark of a delta.rowTracking configuration (-1 when config is empty);
 * DL_ERR_CORRUPT when it has none. */
DL_NODISCARD dl_status dl_delta_rt_hwm_parse(dl_str config, int64_t *out, dl_error *err);

/* Before the first attempt: marks the adds whose ids and version the commit assigns, reads
 * their numRecords, and returns the snapshot's mark and the highest id adds that keep theirs
 * hold. DL_ERR_INVALID_ARG for an add without numRecords or a staged delta.rowTracking
 * domain. */
DL_NODISCARD dl_status dl_delta_rt_plan(dl_delta_tx *tx, int64_t *out_hwm, int64_t *out_floor,
                                        dl_error *err);

/* One attempt at version, the table's mark being hwm: numbers the fresh adds and appends the
 * delta.rowTracking domainMetadata line to out when the mark moves. */
DL_NODISCARD dl_status dl_delta_rt_assign(dl_delta_tx *tx, int64_t version, int64_t hwm,
                                          int64_t floor, dl_buf *out, dl_error *err);

/* DL_ERR_UNSUPPORTED when md has row tracking enabled and the commit's operation (UPDATE,
 * MERGE, DELETE, OPTIMIZE, REORG, a WRITE that replaces rows by a predicate) writes rows into
 * new files: their stable ids would need the materialized columns, which deltalite does not
 * write yet. Call after dl_delta_rt_plan. */
DL_NODISCARD dl_status dl_delta_rt_check_copies(const dl_delta_tx *tx, const dl_delta_metadata *md,
                                                dl_error *err);

/* The backfill of a commit that enables row tracking on an existing table: each live file
 * without baseRowId that the commit does not touch is re-added (dataChange false), so the
 * commit assigns its ids and version. */
DL_NODISCARD dl_status dl_delta_rt_backfill(dl_delta_tx *tx, const dl_delta_metadata *md,
                                            dl_error *err);

/* ---- Staging helpers (delta_txn.c) ---------------------------------------------------- */

/* The stats JSON text of a snapshot's file, copied into arena: from memory, or read back from
 * the log file that holds it through rd (one reader serves a loop over many files: it keeps
 * the last log file read). *out NULL when the file has none. */
DL_NODISCARD dl_status dl_delta_file_stats_text(const dl_delta_snapshot *snap,
                                                const dl_delta_file *file,
                                                dl_delta_stats_reader *rd, dl_arena *arena,
                                                const char **out, dl_error *err);

/* ---- Conflicts (delta_txn_conflict.c) -------------------------------------------------- */

/* What a winning commit did, as far as the checks need. */
typedef struct dl_delta_tx_winner {
    int64_t version;
    int64_t mtime_ms; /* the commit file's modification time */
    bool has_protocol;
    bool has_metadata;
    bool has_commit_info;
    bool is_blind_append;
    const char *operation; /* "" when absent */
    const char *txn_id;    /* "" when absent */
    bool has_ict;
    int64_t ict;
    int64_t row_id_hwm;      /* its delta.rowTracking rowIdHighWaterMark, -1 when none */
    dl_delta_tx_vec app_ids; /* const char * */
    dl_delta_tx_vec domains; /* const char * */
    dl_delta_tx_vec adds;    /* dl_delta_tx_file: path (decoded), pv */
    dl_delta_tx_vec removes; /* dl_delta_tx_file: path (decoded) */
} dl_delta_tx_winner;

/* Reads the commit file of version into *out (in arena). DL_ERR_NOT_FOUND when it does not
 * exist (yet). */
DL_NODISCARD dl_status dl_delta_tx_winner_read(dl_delta_tx *tx, int64_t version, dl_arena *arena,
                                               dl_delta_tx_winner *out, dl_error *err);

/* Spark's checks of this transaction against one winning commit: DL_OK when it may retry
 * after it, else DL_ERR_CONFLICT with tx->conflict set and the message naming the exception,
 * the winning version and its operation. */
DL_NODISCARD dl_status dl_delta_tx_winner_check(dl_delta_tx *tx, const dl_delta_tx_plan *plan,
                                                const dl_delta_tx_winner *w, dl_error *err);

/* ---- Utilities (delta_txn_util.c) ------------------------------------------------------- */

/* Milliseconds since the epoch (CLOCK_REALTIME). */
int64_t dl_delta_now_ms(void);

/* Fills buf with random bytes (getrandom, falling back to /dev/urandom). DL_ERR_IO when the
 * system has none to give. */
DL_NODISCARD dl_status dl_delta_random_bytes(void *buf, size_t len, dl_error *err);

/* A random (version 4) UUID in canonical form, NUL-terminated. */
DL_NODISCARD dl_status dl_delta_uuid_string(char out[37], dl_error *err);

/* Sleeps ms milliseconds (restarting after signals). */
void dl_delta_sleep_ms(int64_t ms);

/* A table property parsed: an integer (def when absent or malformed), a duration in ms (def
 * when absent or malformed). */
int64_t dl_delta_md_int(const dl_delta_metadata *md, const char *key, int64_t def);
int64_t dl_delta_md_duration_ms(const dl_delta_metadata *md, const char *key, int64_t def_ms);

/* ms in a day; log cleanup truncates its cutoff to a day boundary (UTC). */
#define DL_DELTA_DAY_MS ((int64_t)86400000)

#endif /* DL_DELTA_DELTA_TXN_INT_H */
