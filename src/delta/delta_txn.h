/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The delta part's interface, write side: transactions that commit new versions of a table,
 * table creation, checkpoints and expired log cleanup (PROTOCOL.md of delta-io/delta; the
 * quoted names below are its headings).
 *
 * A transaction (dl_delta_tx) starts from a snapshot (or from nothing, to create a table),
 * stages actions and records what it read, then commits version N+1 with put-if-absent
 * ("Creation of New Log Entries"): the commit file `_delta_log/<N+1>.json` is written whole,
 * at once, or not at all. The file holds, one JSON object per line,
 *
 *   commitInfo          always, first (required first with in-commit timestamps)
 *   protocol, metaData  when staged (or when a metadata change needs a protocol upgrade)
 *   txn, domainMetadata when staged
 *   add, remove, cdc    the file actions
 *
 * with fields in the order Spark writes them, and commitInfo as Spark writes it: timestamp,
 * userName, operation, operationParameters (values as raw JSON, so strings stay strings),
 * operationMetrics (string values), readVersion, isolationLevel, isBlindAppend, engineInfo
 * ("deltalite/<version>"), txnId, and inCommitTimestamp first when the table has in-commit
 * timestamps enabled.
 *
 * When another writer won version N+1, the transaction reads the winning commits and applies
 * Spark's conflict checks (ConflictChecker.scala) in Spark's order: protocol change, metadata
 * change, domain metadata touched by both, txn appIds, files added that this transaction
 * should have read (by isolation level), files deleted that it read, files deleted that it
 * deletes. If none fails it retries at the next version, after a short randomised back-off,
 * up to a bounded number of attempts; otherwise the commit fails with DL_ERR_CONFLICT whose
 * message names Spark's exception, the winning version and its operation. A blind append
 * (only adds, nothing read) passes every file check, so concurrent appends all succeed; a
 * protocol or metadata change by a winner still fails it, as in Spark (its files were written
 * for the old schema).
 *
 * After a successful commit at version v, when v is a positive multiple of
 * delta.checkpointInterval (default 10), a classic checkpoint `<v>.checkpoint.parquet` and
 * `_last_checkpoint` are written, then expired log files are cleaned up when
 * delta.enableExpiredLogCleanup (default true) allows. Neither can fail the commit: their
 * failure is reported in dl_delta_commit_result.post_commit_error.
 *
 * Writer protocol. A transaction refuses (DL_ERR_UNSUPPORTED, naming the features) to write
 * a table whose protocol needs writer features it cannot honour. It honours itself:
 * appendOnly (removes that change data are refused while delta.appendOnly is true),
 * timestampNtz, deletionVectors, domainMetadata, inCommitTimestamp, v2Checkpoint (it writes
 * classic V1 checkpoints, which the protocol always allows), vacuumProtocolCheck, and
 * invariants when no column has one. Features whose rules are about the data written
 * (invariants, checkConstraints, generatedColumns, changeDataFeed, columnMapping, ...) must be
 * declared handled by the caller in dl_delta_tx_options.handled_features. With a legacy
 * protocol (writer version < 7) a feature counts only when it is active (its property set or
 * its column metadata present); with table features every listed writer feature counts.
 *
 * Lifetimes. A transaction borrows its table, which must outlive it, and holds a reference to
 * its snapshot. Everything staged is copied. Threads: one thread at a time per transaction;
 * different transactions (in one process or many) may commit to one table at once.
 */
#ifndef DL_DELTA_DELTA_TXN_H
#define DL_DELTA_DELTA_TXN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/compiler.h"
#include "base/error.h"
#include "delta/delta.h"

/* ------------------------------------------------------------------------------------------ */
/* Operations and isolation                                                                    */

/* The operations commitInfo can name (delta_txn_ops.def). */
typedef enum dl_delta_op {
#define DL_DELTA_OP_X(id, name, changes_data) DL_DELTA_OP_##id,
#include "delta/delta_txn_ops.def"
#undef DL_DELTA_OP_X
    DL_DELTA_OP_COUNT
} dl_delta_op;

/* Spark's name of an operation ("CREATE TABLE"); NULL for an out-of-range id. */
const char *dl_delta_op_name(dl_delta_op op);

/* Isolation levels (Spark's IsolationLevel). */
typedef enum dl_delta_isolation {
    /* Every file added concurrently that this transaction should have read conflicts. */
    DL_DELTA_ISOLATION_SERIALIZABLE = 0,
    /* As Serializable, except that files from concurrent blind appends do not conflict
     * (unless this transaction changes the metadata). */
    DL_DELTA_ISOLATION_WRITE_SERIALIZABLE = 1,
    /* Concurrent appends never conflict. Chosen automatically for commits that change no
     * data (OPTIMIZE, empty commits), as Spark does. */
    DL_DELTA_ISOLATION_SNAPSHOT = 2,
} dl_delta_isolation;

/* "Serializable", "WriteSerializable", "SnapshotIsolation". */
const char *dl_delta_isolation_name(dl_delta_isolation level);

/* The conflict that failed a commit (Spark's exception classes). */
typedef enum dl_delta_conflict {
    DL_DELTA_CONFLICT_NONE = 0,
    DL_DELTA_CONFLICT_PROTOCOL_CHANGED,       /* ProtocolChangedException */
    DL_DELTA_CONFLICT_METADATA_CHANGED,       /* MetadataChangedException */
    DL_DELTA_CONFLICT_CONCURRENT_TRANSACTION, /* ConcurrentTransactionException */
    DL_DELTA_CONFLICT_CONCURRENT_APPEND,      /* ConcurrentAppendException */
    DL_DELTA_CONFLICT_DELETE_READ,            /* ConcurrentDeleteReadException */
    DL_DELTA_CONFLICT_DELETE_DELETE,          /* ConcurrentDeleteDeleteException */
    DL_DELTA_CONFLICT_TOO_MANY_ATTEMPTS,      /* no conflict, but every attempt lost */
} dl_delta_conflict;

/* Spark's exception name of a conflict ("ConcurrentAppendException"). */
const char *dl_delta_conflict_name(dl_delta_conflict conflict);

/* ------------------------------------------------------------------------------------------ */
/* Transactions                                                                                */

typedef struct dl_delta_tx dl_delta_tx;

#define DL_DELTA_TX_DEFAULT_MAX_ATTEMPTS 100
#define DL_DELTA_TX_DEFAULT_BACKOFF_MS   2
#define DL_DELTA_TX_DEFAULT_MAX_BACKOFF  200

/* Options; a zeroed struct (or NULL) gives the defaults. */
typedef struct dl_delta_tx_options {
    int32_t max_attempts;        /* commit attempts before giving up; 0 = 100 */
    int32_t backoff_ms;          /* scale of the random wait once a writer lost 3 attempts in
                                    a row (it retries at once before); 0 = 2 ms */
    int32_t max_backoff_ms;      /* no wait is longer (waits are random in [0, 8 x backoff_ms]
                                    at most); 0 = 200 */
    uint64_t handled_features;   /* bit (1 << dl_delta_feature) per writer feature whose data
                                    rules the caller enforces (see the file comment) */
    bool is_post_commit_skipped; /* no checkpoint or log cleanup after the commit */
    const char *user_name;       /* commitInfo.userName; NULL = $USER or $LOGNAME, else none */
    /* The clock in ms since the epoch, for tests; 0 = the real clock. It stamps commitInfo,
     * in-commit timestamps, remove.deletionTimestamp and txn.lastUpdated. */
    int64_t now_ms;
} dl_delta_tx_options;

/*
 * Starts a transaction on table reading snap (which it references until freed), or, with snap
 * NULL, one that creates the table at version 0 (stage its protocol and metaData, e.g. with
 * dl_delta_tx_create_table). The table must outlive the transaction. opts may be NULL.
 * Errors: NOMEM; UNSUPPORTED when the snapshot's protocol needs writer features the
 * transaction cannot honour (see the file comment).
 */
DL_NODISCARD dl_status dl_delta_tx_begin(dl_delta_table *table, dl_delta_snapshot *snap,
                                         const dl_delta_tx_options *opts, dl_delta_tx **out,
                                         dl_error *err);

/* Frees the transaction (committed or not) and drops its snapshot reference. Files it
 * staged are not touched. NULL-tolerant. */
void dl_delta_tx_free(dl_delta_tx *tx);

/* The version the transaction read (-1 when it creates the table). */
int64_t dl_delta_tx_read_version(const dl_delta_tx *tx);

/* The transaction's id (commitInfo.txnId): a random UUID, NUL-terminated. */
const char *dl_delta_tx_id(const dl_delta_tx *tx);

/* ---- What it does (commitInfo) ----------------------------------------------------------- */

/* Sets commitInfo.operation (default: "WRITE"). */
void dl_delta_tx_set_operation(dl_delta_tx *tx, dl_delta_op op);

/* Sets an operation name outside delta_txn_ops.def (copied) and whether it changes data. */
DL_NODISCARD dl_status dl_delta_tx_set_operation_name(dl_delta_tx *tx, const char *name,
                                                      bool changes_data, dl_error *err);

/*
 * Adds operationParameters[key]. Spark writes each value as raw JSON: param_string writes a
 * JSON string (NULL writes null), as Spark does for "mode":"Append" and for values that are
 * themselves JSON text ("partitionBy":"[\"p\"]"); param_json writes json as given, which must
 * be one JSON value ("1", "false", "null"; else DL_ERR_INVALID_ARG). Keys keep their order; a
 * repeated key is DL_ERR_INVALID_ARG.
 */
DL_NODISCARD dl_status dl_delta_tx_param_string(dl_delta_tx *tx, const char *key, const char *value,
                                                dl_error *err);
DL_NODISCARD dl_status dl_delta_tx_param_json(dl_delta_tx *tx, const char *key, const char *json,
                                              dl_error *err);

/* Sets operationMetrics[key] to the decimal string of value (Spark writes "numFiles":"2");
 * setting a key again replaces its value. */
DL_NODISCARD dl_status dl_delta_tx_metric(dl_delta_tx *tx, const char *key, int64_t value,
                                          dl_error *err);

/* operationMetrics[key] as dl_delta_tx_metric set it; 0 when it was not set (a statement's result
 * row reads its counts from here). */
int64_t dl_delta_tx_metric_value(const dl_delta_tx *tx, const char *key);

/* Sets commitInfo.userMetadata (copied; NULL removes it). */
DL_NODISCARD dl_status dl_delta_tx_set_user_metadata(dl_delta_tx *tx, const char *text,
                                                     dl_error *err);

/* Sets the isolation level (default: the table's delta.isolationLevel, else Serializable).
 * A commit that changes no data is still committed under SnapshotIsolation, as in Spark. */
void dl_delta_tx_set_isolation(dl_delta_tx *tx, dl_delta_isolation level);

/* ---- Staging actions -------------------------------------------------------------------- */

/* An `add` to stage. Strings are copied. */
typedef struct dl_delta_add_file {
    /* The data file's path relative to the table root as it is in storage ("p=1/part-0.parquet"),
     * or an absolute URI ("s3://b/x.parquet"), not URL-encoded: the commit encodes it (RFC
     * 2396, as Spark's Path.toUri does), so "a b.parquet" is written "a%20b.parquet". */
    const char *path;
    const dl_delta_kv *partition_values; /* one per partition column (physical names); value
                                            NULL = a null partition value */
    int32_t n_partition_values;
    int64_t size;              /* bytes (>= 0) */
    int64_t modification_time; /* ms since the epoch */
    bool data_change;
    const char *stats; /* stats JSON text ("{\"numRecords\":5,...}"), or NULL */
    const dl_delta_kv *tags;
    int32_t n_tags;
    const dl_delta_dv_desc *dv; /* deletion vector, or NULL */
    bool has_base_row_id;
    int64_t base_row_id;
    bool has_default_row_commit_version;
    int64_t default_row_commit_version;
    const char *clustering_provider; /* or NULL */
} dl_delta_add_file;

/* A `remove` to stage. Strings are copied. */
typedef struct dl_delta_remove_file {
    const char *path; /* as for dl_delta_add_file.path */
    bool has_deletion_timestamp;
    int64_t deletion_timestamp; /* ms; when absent the commit's timestamp is used (Spark
                                   always writes one) */
    bool data_change;
    /* extendedFileMetadata: partition_values and size are written too */
    bool extended_file_metadata;
    const dl_delta_kv *partition_values;
    int32_t n_partition_values;
    int64_t size; /* with extended_file_metadata */
    const char *stats;
    const dl_delta_kv *tags;
    int32_t n_tags;
    const dl_delta_dv_desc *dv; /* the deletion vector of the logical file removed, or NULL */
    bool has_base_row_id;
    int64_t base_row_id;
    bool has_default_row_commit_version;
    int64_t default_row_commit_version;
} dl_delta_remove_file;

/*
 * Stages an add. Checked now: a path is given (not empty, no NUL, not under _delta_log/),
 * size >= 0, stats and the deletion vector well-formed; one add per path in a commit
 * ("Delta Log Entries"). Checked at commit: partition values name exactly the partition
 * columns, and a path already live with another deletion vector is also removed. Errors are
 * DL_ERR_INVALID_ARG naming the path and the rule.
 */
DL_NODISCARD dl_status dl_delta_tx_add(dl_delta_tx *tx, const dl_delta_add_file *add,
                                       dl_error *err);

/* Stages a remove (one per path in a commit). DL_ERR_INVALID_ARG as for add. */
DL_NODISCARD dl_status dl_delta_tx_remove(dl_delta_tx *tx, const dl_delta_remove_file *rm,
                                          dl_error *err);

/*
 * Removes a live file of the transaction's snapshot as Spark's AddFile.remove does:
 * deletionTimestamp = the commit's timestamp, extendedFileMetadata, and the file's partition
 * values, size, stats, tags, deletion vector and row tracking fields copied. Also records the
 * file as read (a concurrent delete of it is then ConcurrentDeleteReadException).
 */
DL_NODISCARD dl_status dl_delta_tx_remove_snapshot_file(dl_delta_tx *tx, const dl_delta_file *file,
                                                        bool data_change, dl_error *err);

/*
 * Adds a live file of the transaction's snapshot back with another deletion vector (dv; NULL
 * for none) and stats text (NULL for none), as Spark's AddFile.removeRows does with the
 * remove of the old logical file (dl_delta_tx_remove_snapshot_file): path, partition values,
 * size, modificationTime, tags and row tracking fields copied, dataChange true.
 */
DL_NODISCARD dl_status dl_delta_tx_add_snapshot_file(dl_delta_tx *tx, const dl_delta_file *file,
                                                     const dl_delta_dv_desc *dv, const char *stats,
                                                     dl_error *err);

/* As dl_delta_tx_add_snapshot_file for a live file of any snapshot (another table's: CLONE)
 * staged under path (copied; relative to this table's root, or an absolute path or URI). */
DL_NODISCARD dl_status dl_delta_tx_add_file_as(dl_delta_tx *tx, const dl_delta_file *file,
                                               const char *path, const dl_delta_dv_desc *dv,
                                               const char *stats, dl_error *err);

/* Stages a cdc action (a change data file under _change_data/; dataChange is always false). */
DL_NODISCARD dl_status dl_delta_tx_add_cdc(dl_delta_tx *tx, const char *path,
                                           const dl_delta_kv *partition_values,
                                           int32_t n_partition_values, int64_t size,
                                           const dl_delta_kv *tags, int32_t n_tags, dl_error *err);

/*
 * Stages a new metaData (copied). A metaData that enables features the protocol lacks
 * (deletion vectors, in-commit timestamps, column mapping, ...) makes the commit upgrade the
 * protocol too, as Spark does. Enabling in-commit timestamps on an existing table adds
 * delta.inCommitTimestampEnablementVersion/Timestamp. A second metaData is
 * DL_ERR_INVALID_ARG; so is one without id, schemaString or format provider.
 */
DL_NODISCARD dl_status dl_delta_tx_set_metadata(dl_delta_tx *tx, const dl_delta_metadata *md,
                                                dl_error *err);

/* Stages a protocol (copied). DL_ERR_INVALID_ARG for a second one or a malformed one
 * (reader 3 without writer 7, feature lists that do not match the versions). */
DL_NODISCARD dl_status dl_delta_tx_set_protocol(dl_delta_tx *tx, const dl_delta_protocol *protocol,
                                                dl_error *err);

/* Stages txn {appId, version, lastUpdated = commit time} and records app_id as read (a
 * concurrent txn of the same appId is then ConcurrentTransactionException). */
DL_NODISCARD dl_status dl_delta_tx_set_app_version(dl_delta_tx *tx, const char *app_id,
                                                   int64_t version, dl_error *err);

/* Stages domainMetadata (needs the domainMetadata writer feature, else DL_ERR_UNSUPPORTED at
 * commit). One per domain in a commit. */
DL_NODISCARD dl_status dl_delta_tx_set_domain(dl_delta_tx *tx, const char *domain,
                                              const char *configuration, bool is_removed,
                                              dl_error *err);

/*
 * Prepares an existing table for the commit that sets delta.enableRowTracking = true, as Spark
 * does before it: an UPGRADE PROTOCOL commit adding the rowTracking and domainMetadata writer
 * features when the protocol lacks them, then a ROW TRACKING BACKFILL commit (batchId 0) that
 * re-adds every live file without baseRowId (dataChange false), the commit assigning the ids
 * (PROTOCOL.md "Writer Requirements for Row Tracking"). *out_snap: the latest snapshot after
 * them (a reference the caller releases), or NULL when nothing needed committing.
 */
DL_NODISCARD dl_status dl_delta_rt_prepare_enable(dl_delta_table *table, dl_delta_snapshot *snap,
                                                  dl_delta_snapshot **out_snap, dl_error *err);

/* ---- What it read (for conflict detection) ---------------------------------------------- */

/* The snapshot's version for app_id (and records the appId as read); *out_found false when
 * there is none. */
DL_NODISCARD dl_status dl_delta_tx_app_version(dl_delta_tx *tx, const char *app_id,
                                               int64_t *out_version, bool *out_found,
                                               dl_error *err);

/* Records that the file at path (as in storage, not URL-encoded) was read. */
DL_NODISCARD dl_status dl_delta_tx_read_file(dl_delta_tx *tx, const char *path, dl_error *err);

/* Records that every file of one partition was read: files added concurrently whose
 * partition values equal these (for the columns given) conflict. */
DL_NODISCARD dl_status dl_delta_tx_read_partition(dl_delta_tx *tx, const dl_delta_kv *values,
                                                  int32_t n_values, dl_error *err);

/* A read predicate, opaque to the transaction: true when a file with these partition values
 * (physical names; value NULL = null) may hold rows the transaction read. */
typedef bool (*dl_delta_read_predicate_fn)(void *ctx, const dl_delta_kv *partition_values,
                                           int32_t n_partition_values);

/* Records a read predicate; ctx must outlive the commit. */
DL_NODISCARD dl_status dl_delta_tx_read_predicate(dl_delta_tx *tx, dl_delta_read_predicate_fn fn,
                                                  void *ctx, dl_error *err);

/* Records that the whole table was read: every concurrent add (by isolation level) and
 * every concurrent remove conflicts. */
void dl_delta_tx_read_whole_table(dl_delta_tx *tx);

/* ---- Creating a table ------------------------------------------------------------------- */

typedef enum dl_delta_create_mode {
    DL_DELTA_CREATE = 0,            /* CREATE TABLE: the table must not exist */
    DL_DELTA_CREATE_OR_REPLACE = 1, /* CREATE OR REPLACE TABLE */
    DL_DELTA_REPLACE = 2,           /* REPLACE TABLE: the table must exist */
} dl_delta_create_mode;

typedef struct dl_delta_create_spec {
    const dl_delta_schema *schema; /* the table schema */
    const char *const *partition_columns;
    int32_t n_partition_columns;
    const dl_delta_kv *configuration; /* table properties ("delta.*"); see below */
    int32_t n_configuration;
    const char *name;        /* metaData.name, or NULL */
    const char *description; /* metaData.description, or NULL */
    dl_delta_create_mode mode;
    bool is_as_select;      /* "... AS SELECT": the caller stages adds too */
    bool is_managed;        /* operationParameters.isManaged */
    const char *cluster_by; /* operationParameters.clusterBy (a JSON list); NULL = "[]" */
} dl_delta_create_spec;

/*
 * Stages what creating (or replacing) a table commits: a protocol chosen from the features
 * the table uses, a metaData with a random id, the schema, partition columns, configuration
 * and createdTime, and the operation ("CREATE TABLE", "CREATE TABLE AS SELECT", "CREATE OR
 * REPLACE TABLE", "REPLACE TABLE [AS SELECT]") with Spark's operationParameters (isManaged,
 * description, partitionBy, clusterBy, properties). Replacing removes every live file of the
 * snapshot.
 *
 * The protocol: (1, 2) for a plain table; legacy versions where they suffice (column mapping
 * (2, 5), identity columns writer 6, ...); (3, 7) or (1, 7) with explicit readerFeatures /
 * writerFeatures when a feature exists only as a table feature (timestamp_ntz columns,
 * delta.enableDeletionVectors, delta.enableInCommitTimestamps, delta.checkpointPolicy=v2,
 * delta.enableRowTracking, delta.enableTypeWidening, ...), listing the features the legacy
 * versions implied. delta.minReaderVersion, delta.minWriterVersion and
 * delta.feature.<name> = "supported"|"enabled" ask for versions and features, and are not
 * kept in the configuration (Spark's pseudo-properties).
 *
 * Errors: DL_ERR_INVALID_ARG for a partition column not in the schema or repeated, a mode
 * that does not match whether the transaction has a snapshot, a bad pseudo-property;
 * DL_ERR_UNSUPPORTED for an unknown feature name.
 */
DL_NODISCARD dl_status dl_delta_tx_create_table(dl_delta_tx *tx, const dl_delta_create_spec *spec,
                                                dl_error *err);

/*
 * The protocol a table with this metadata needs, at least base (NULL: none): base's features,
 * plus those the metadata's properties and schema use, at the lowest versions that express
 * them (see dl_delta_tx_create_table). The lists are allocated in arena. pseudo-properties
 * are read from md but not removed.
 */
DL_NODISCARD dl_status dl_delta_protocol_for_metadata(const dl_delta_metadata *md,
                                                      const dl_delta_schema *schema,
                                                      const dl_delta_protocol *base,
                                                      dl_arena *arena, dl_delta_protocol *out,
                                                      dl_error *err);

/*
 * Checks that a writer honouring handled_features (bits as in dl_delta_tx_options, plus what
 * the transaction honours itself) may write a table with this protocol, metadata and schema
 * (md and schema may be NULL for "no metadata yet"). DL_ERR_UNSUPPORTED naming the writer
 * version or every feature missing.
 */
DL_NODISCARD dl_status dl_delta_protocol_check_write(const dl_delta_protocol *protocol,
                                                     const dl_delta_metadata *md,
                                                     const dl_delta_schema *schema,
                                                     uint64_t handled_features, dl_error *err);

/* ---- Committing -------------------------------------------------------------------------- */

typedef struct dl_delta_commit_result {
    int64_t version;   /* the version committed */
    int32_t attempts;  /* 1 + the number of lost attempts */
    int64_t timestamp; /* commitInfo.timestamp (ms) */
    bool has_in_commit_timestamp;
    int64_t in_commit_timestamp;
    dl_delta_isolation isolation; /* the level the commit was checked under */
    bool is_blind_append;         /* commitInfo.isBlindAppend */
    bool has_checkpoint;          /* a checkpoint of this version was written */
    int64_t n_log_files_deleted;  /* by expired log cleanup */
    /* What went wrong after the commit (checkpoint, cleanup): code DL_OK when nothing did. The
     * commit itself stands either way. */
    dl_error post_commit_error;
} dl_delta_commit_result;

/*
 * Commits the staged actions as the next version; see the file comment for the protocol.
 * out may be NULL. A transaction commits at most once (a second call is DL_ERR_INVALID_ARG).
 * Errors: DL_ERR_CONFLICT (dl_delta_tx_conflict says which; err->version is the winning
 * version; a table created concurrently is ProtocolChangedException);
 * DL_ERR_INVALID_ARG for staged actions that break the protocol's rules (naming the file or
 * action); DL_ERR_UNSUPPORTED for a protocol it cannot write; DL_ERR_IO and DL_ERR_NOMEM. On
 * any failure the table is unchanged: no commit file, no temporary file. When the store
 * reports an I/O error on the commit write itself, the file is read back: if it holds this
 * transaction's txnId the commit happened (a lost acknowledgement) and DL_OK is returned.
 */
DL_NODISCARD dl_status dl_delta_tx_commit(dl_delta_tx *tx, dl_delta_commit_result *out,
                                          dl_error *err);

/* The conflict that failed the last commit, DL_DELTA_CONFLICT_NONE otherwise. */
dl_delta_conflict dl_delta_tx_conflict(const dl_delta_tx *tx);

/* ------------------------------------------------------------------------------------------ */
/* Checkpoints and log cleanup                                                                 */

/* What a checkpoint write produced (also what _last_checkpoint says). */
typedef struct dl_delta_checkpoint_info {
    int64_t version;          /* the version checkpointed */
    int64_t size;             /* rows (actions) */
    int64_t size_in_bytes;    /* bytes of the Parquet file */
    int64_t num_of_add_files; /* add rows */
    int64_t n_tombstones;     /* remove rows (unexpired tombstones) */
    int64_t n_expired;        /* tombstones dropped as expired */
} dl_delta_checkpoint_info;

/*
 * Writes the classic checkpoint of snap's version, `<v>.checkpoint.parquet` ("Checkpoints",
 * V1 spec), then `_last_checkpoint`. snap must hold its stats in memory or be able to read
 * them back (any snapshot of table does). Its rows: protocol, metaData, txns, domain metadata,
 * live adds and the tombstones younger than delta.deletedFileRetentionDuration (default 1
 * week) at now_ms (0 = the real clock), in Spark's column layout: txn, add, remove, metaData,
 * protocol, domainMetadata, with add.stats as JSON when delta.checkpoint.writeStatsAsJson is
 * not false, and add.partitionValues_parsed / add.stats_parsed when
 * delta.checkpoint.writeStatsAsStruct is true. The file appears atomically (a store write
 * replaces any checkpoint of that version with identical content); _last_checkpoint is
 * written only if it does not point at a newer version. out may be NULL.
 */
DL_NODISCARD dl_status dl_delta_checkpoint_write(dl_delta_table *table,
                                                 const dl_delta_snapshot *snap, int64_t now_ms,
                                                 dl_delta_checkpoint_info *out, dl_error *err);

/* Loads the snapshot at version (-1: latest) and writes its checkpoint. */
DL_NODISCARD dl_status dl_delta_checkpoint_version(dl_delta_table *table, int64_t version,
                                                   int64_t now_ms, dl_delta_checkpoint_info *out,
                                                   dl_error *err);

typedef struct dl_delta_cleanup_result {
    int64_t cutoff_ms;         /* commits not newer than this are expired (UTC midnight) */
    int64_t cutoff_checkpoint; /* the checkpoint kept as the oldest state, -1 when none */
    int64_t n_deleted;         /* log files deleted */
    int64_t earliest_version;  /* the oldest version still reconstructible, -1 if unknown */
} dl_delta_cleanup_result;

/*
 * Expired log cleanup ("Metadata Cleanup"): with cutoff = now_ms (0: the real clock) minus
 * md's delta.logRetentionDuration (default 30 days) truncated to midnight UTC, the newest
 * commit whose timestamp (file modification times, made monotonic as time travel makes them)
 * is not after the cutoff, and the newest complete checkpoint at or below it, deletes the
 * commits, checkpoints, checksums and compaction files before that checkpoint. The checkpoint,
 * its commit and everything newer are kept, so every version whose timestamp is within the
 * retention stays reconstructible. Without such a checkpoint nothing is deleted. md NULL: the
 * latest snapshot's metadata. out may be NULL.
 */
DL_NODISCARD dl_status dl_delta_log_cleanup(dl_delta_table *table, const dl_delta_metadata *md,
                                            int64_t now_ms, dl_delta_cleanup_result *out,
                                            dl_error *err);

#endif /* DL_DELTA_DELTA_TXN_H */
