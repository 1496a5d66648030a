/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The delta part's interface, read side: a Delta table's transaction log turned into
 * snapshots (PROTOCOL.md of delta-io/delta; the section names below are its headings).
 *
 * A table is a folder holding Parquet data files and `_delta_log/`, whose files are
 *
 *   <v>.json                       commit v: newline-delimited JSON, one action per line
 *   <v>.checkpoint.parquet         classic checkpoint: the reconciled state at v
 *   <v>.checkpoint.<o>.<p>.parquet part o of a p-part (V1) checkpoint
 *   <v>.checkpoint.<uuid>.json     UUID-named V2 checkpoint (also .parquet), may name
 *                                  sidecar files in _delta_log/_sidecars/
 *   <x>.<y>.compacted.json         the reconciled actions of commits x..y (optional)
 *   <v>.crc                        version checksum (optional)
 *   _last_checkpoint               a hint: the version of a recent checkpoint
 *
 * with <v> the version, zero-padded to 20 digits. The state of the table at version v (a
 * snapshot) is one protocol, one metaData, the live `add` files keyed by (path, deletion vector
 * unique id), the `remove` tombstones, the latest `txn` version per application id and the
 * non-removed domain metadata ("Action Reconciliation"). It is built from the newest complete
 * checkpoint at or below v and the commits after it, which must all be there.
 *
 * Lifetimes. A dl_delta_table borrows its store. A dl_delta_snapshot owns one arena holding
 * everything it returns (files, strings, schema, types), valid until its last unref; it does
 * not reference the table afterwards, only the store (for deletion vectors). Views returned by
 * dl_delta_action_parse point into the JSON doc and the text it parsed.
 *
 * Threads. A table may be used by several threads at once; a snapshot, once returned, is
 * immutable and may be read by several threads at once (ref/unref are atomic). Loading a
 * snapshot from a large Parquet checkpoint (64 Ki rows or more) starts one helper thread for
 * the load (two row-group runs replayed at once, or decoding one batch ahead), joined before
 * the load returns.
 *
 * Errors name the table, the version and the log file: "table 'x': _delta_log/00..03.json:
 * line 5, byte 1234: add action: missing required field 'size'". Unsupported protocols and
 * features are DL_ERR_UNSUPPORTED naming them; broken logs are DL_ERR_CORRUPT; a version or
 * table that does not exist is DL_ERR_NOT_FOUND.
 */
#ifndef DL_DELTA_DELTA_H
#define DL_DELTA_DELTA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/alloc.h"
#include "base/arena.h"
#include "base/buf.h"
#include "base/compiler.h"
#include "base/error.h"
#include "base/str.h"
#include "delta/delta_dv.h"
#include "json/json.h"
#include "store/store.h"
#include "vector/vec_type.h"

/* ------------------------------------------------------------------------------------------ */
/* Table features ("Table Features"; the list lives in delta_features.def)                     */

typedef enum dl_delta_feature {
#define DL_DELTA_FEATURE_X(id, name, kind, legacy_reader, legacy_writer, is_read_supported, words) \
    DL_DELTA_FEATURE_##id,
#include "delta/delta_features.def"
#undef DL_DELTA_FEATURE_X
    DL_DELTA_FEATURE_COUNT
} dl_delta_feature;

/* Whether a feature constrains readers and writers or only writers. */
typedef enum dl_delta_feature_kind {
    DL_DELTA_FEATURE_WRITER = 1,        /* only writers must know it */
    DL_DELTA_FEATURE_READER_WRITER = 2, /* readers must know it too */
} dl_delta_feature_kind;

/* The protocol action. Feature names are NUL-terminated strings in the snapshot's arena. */
typedef struct dl_delta_protocol {
    int32_t min_reader_version;
    int32_t min_writer_version;
    const char *const *reader_features; /* n_reader_features names; NULL when absent */
    const char *const *writer_features; /* n_writer_features names; NULL when absent */
    int32_t n_reader_features;
    int32_t n_writer_features;
    bool has_reader_features; /* the readerFeatures list is present (reader version 3) */
    bool has_writer_features; /* the writerFeatures list is present (writer version 7) */
} dl_delta_protocol;

/* The exact name of a feature ("deletionVectors"). Never NULL for a valid id. */
const char *dl_delta_feature_name(dl_delta_feature feature);
/* The feature in a user's words ("CHECK constraints"), for messages that refuse a table. */
const char *dl_delta_feature_words(dl_delta_feature feature);

/* The feature with this exact name; false when deltalite does not know it. */
bool dl_delta_feature_lookup(dl_str name, dl_delta_feature *out);

/*
 * Checks one table property being set (CREATE TABLE ... TBLPROPERTIES, ALTER TABLE ... SET
 * TBLPROPERTIES) as Delta does (delta_props.def): a `delta.` key must be one Delta knows (any
 * key when allow_arbitrary, Delta's spark.databricks.delta.allowArbitraryProperties.enabled)
 * and its value must be valid for it; a property deltalite would ignore may not be turned on.
 * *out_key is the key to store: Delta's spelling of a known key (static storage), else key.
 * Protocol properties (delta.feature.*, delta.min*Version) are left to the commit.
 */
DL_NODISCARD dl_status dl_delta_property_check(const char *key, const char *value,
                                               bool allow_arbitrary, const char **out_key,
                                               dl_error *err);

/* Delta's spelling of a table property it knows, matched in any case (static storage), or key
 * itself. */
const char *dl_delta_property_name(const char *key);

/* The feature's kind, and whether deltalite can read tables that use it. */
dl_delta_feature_kind dl_delta_feature_kind_of(dl_delta_feature feature);
bool dl_delta_feature_is_read_supported(dl_delta_feature feature);

/*
 * True when the protocol supports the feature: listed in readerFeatures/writerFeatures for
 * reader 3 / writer 7, or implied by a legacy version (writer 2 implies appendOnly and
 * invariants, reader 2 / writer 5 columnMapping, ...). "Supported" is not "active": an
 * appendOnly table is append-only only when delta.appendOnly is also true.
 */
bool dl_delta_protocol_has_feature(const dl_delta_protocol *protocol, dl_delta_feature feature);

/*
 * Checks that deltalite can read a table with this protocol: reader version 1 to 3, and for
 * reader version 3 every reader feature known and supported. DL_ERR_UNSUPPORTED naming the
 * version or every missing feature ("Unsupported Delta read feature: table requires reader
 * table feature(s) that deltalite does not support: variantType, geospatial");
 * DL_ERR_CORRUPT for a malformed protocol (reader version 3 without writer version 7, a
 * version below 1).
 */
DL_NODISCARD dl_status dl_delta_protocol_check_read(const dl_delta_protocol *protocol,
                                                    dl_error *err);

/* ------------------------------------------------------------------------------------------ */
/* Schemas ("Schema Serialization Format")                                                     */

/*
 * One node of a schema: a struct field, or the element of an array ("element") or the key or
 * value of a map ("key", "value"), which have no metadata. Column metadata keys the protocol
 * defines are extracted; the whole metadata object is kept as JSON text so that nothing is
 * lost when the schema is written back.
 */
typedef struct dl_delta_field dl_delta_field;

struct dl_delta_field {
    const char *name;             /* the logical (display) name */
    const dl_type *type;          /* the field's type (dl_type tree of the same shape) */
    bool is_nullable;             /* nullable / containsNull / valueContainsNull */
    bool has_column_id;           /* delta.columnMapping.id present */
    int64_t column_id;            /* delta.columnMapping.id */
    const char *physical_name;    /* delta.columnMapping.physicalName, or NULL */
    const char *generation_expr;  /* delta.generationExpression, or NULL */
    const char *invariant;        /* delta.invariants as written (JSON text), or NULL */
    const char *comment;          /* comment, or NULL */
    const char *default_expr;     /* CURRENT_DEFAULT, or NULL */
    bool is_identity;             /* has delta.identity.start/step */
    int64_t identity_start;       /* delta.identity.start */
    int64_t identity_step;        /* delta.identity.step */
    bool has_identity_high_water; /* delta.identity.highWaterMark present */
    int64_t identity_high_water;  /* delta.identity.highWaterMark */
    bool identity_allow_explicit; /* delta.identity.allowExplicitInsert */
    dl_str metadata;              /* the metadata object as JSON text ("{}" when none) */
    int32_t n_children;           /* struct: fields; array: 1 (element); map: 2 (key, value) */
    const dl_delta_field *children;
};

/* A table schema: the top-level struct. */
typedef struct dl_delta_schema {
    const dl_type *type;          /* the row type, a STRUCT */
    const dl_delta_field *fields; /* n_fields top-level fields */
    int32_t n_fields;
} dl_delta_schema;

/*
 * Parses a schemaString into arena. Types: string, long, integer, short, byte, float, double,
 * boolean, binary, date, timestamp, timestamp_ntz, decimal(p,s) (p <= 38; bare "decimal" is
 * decimal(10,0)), void, struct, array, map. variant, geometry, geography and any other type
 * are DL_ERR_UNSUPPORTED naming the type and the field; malformed JSON or shapes are
 * DL_ERR_CORRUPT naming the field path. Field names are checked for case-insensitive
 * uniqueness within a struct (DL_ERR_CORRUPT).
 */
DL_NODISCARD dl_status dl_delta_schema_parse(dl_str json, dl_arena *arena, dl_delta_schema *out,
                                             dl_error *err);

/* Appends the schema as Spark writes schemaString (compact; metadata copied as kept). */
DL_NODISCARD dl_status dl_delta_schema_to_json(const dl_delta_schema *schema, dl_buf *out,
                                               dl_error *err);

/* Builds a schema (no column metadata) from a STRUCT type, in arena. */
DL_NODISCARD dl_status dl_delta_schema_from_type(const dl_type *type, dl_arena *arena,
                                                 dl_delta_schema *out, dl_error *err);

/* The top-level field named name: exact match first, else the only ASCII case-insensitive
 * match (Spark's resolution); NULL when none. */
const dl_delta_field *dl_delta_schema_find(const dl_delta_schema *schema, dl_str name);

/* Delta's JSON name of a primitive type ("integer", "long", "decimal(10,2)") appended to out;
 * nested types as "struct<a:integer>" etc. (the corpus's spelling). */
DL_NODISCARD dl_status dl_delta_type_to_string(const dl_type *type, dl_buf *out, dl_error *err);

/* Column mapping mode (delta.columnMapping.mode). */
typedef enum dl_delta_cm_mode {
    DL_DELTA_CM_NONE = 0,
    DL_DELTA_CM_NAME = 1,
    DL_DELTA_CM_ID = 2,
} dl_delta_cm_mode;

/* The name under which a field's data is stored: its physical name in name and id modes
 * (falling back to the display name when the field has none), else its display name. */
const char *dl_delta_field_physical_name(const dl_delta_field *field, dl_delta_cm_mode mode);

/* ------------------------------------------------------------------------------------------ */
/* Values (partition values and statistics)                                                    */

/*
 * A scalar of a Delta primitive type. The payload by type: BOOLEAN b; BYTE SHORT INT LONG i64;
 * DATE i64 (days); TIMESTAMP TIMESTAMP_NTZ i64 (microseconds); FLOAT DOUBLE f64; DECIMAL dec
 * (the unscaled value at the type's scale); STRING BINARY str (bytes in the snapshot's or the
 * caller's arena, or in the stats doc: see the function that filled it).
 */
typedef struct dl_delta_value {
    dl_type_id type_id;
    bool is_null;

    union {
        bool b;
        int64_t i64;
        double f64;
        dl_i128 dec;
        dl_str str;
    } u;
} dl_delta_value;

/*
 * Parses a partition value string ("Partition Value Serialization") of type into out; NULL
 * text (is_null), "" and "__HIVE_DEFAULT_PARTITION__" give a null value. Strings and binary
 * are views of text. Timestamps accept "yyyy-MM-dd HH:mm:ss[.ffffff]" (read as UTC) and
 * ISO-8601 with a zone. Malformed text is DL_ERR_CORRUPT naming the text and the type; a
 * nested type is DL_ERR_UNSUPPORTED.
 */
DL_NODISCARD dl_status dl_delta_partition_value_parse(dl_str text, bool is_null,
                                                      const dl_type *type, dl_delta_value *out,
                                                      dl_error *err);

/* Parses decimal text ("-12.5", "1E+3") into an unscaled value of decimal(precision, scale);
 * DL_ERR_CORRUPT when malformed, when it has more fraction digits than scale (non-zero ones),
 * or when it does not fit the precision. */
DL_NODISCARD dl_status dl_delta_decimal_parse(dl_str text, int precision, int scale, dl_i128 *out,
                                              dl_error *err);

/* ------------------------------------------------------------------------------------------ */
/* Actions ("Actions")                                                                         */

typedef enum dl_delta_action_kind {
    DL_DELTA_ACTION_UNKNOWN = 0, /* an action this version does not know: ignored */
    DL_DELTA_ACTION_METADATA,
    DL_DELTA_ACTION_PROTOCOL,
    DL_DELTA_ACTION_ADD,
    DL_DELTA_ACTION_REMOVE,
    DL_DELTA_ACTION_TXN,
    DL_DELTA_ACTION_COMMIT_INFO,
    DL_DELTA_ACTION_DOMAIN_METADATA,
    DL_DELTA_ACTION_CDC,
    DL_DELTA_ACTION_CHECKPOINT_METADATA,
    DL_DELTA_ACTION_SIDECAR,
} dl_delta_action_kind;

/* A map<string,string> entry (configuration, format options). value is NULL for JSON null. */
typedef struct dl_delta_kv {
    const char *key;
    const char *value;
} dl_delta_kv;

/* The metaData action, owned (strings NUL-terminated, in an arena). */
typedef struct dl_delta_metadata {
    const char *id;
    const char *name;        /* NULL when absent */
    const char *description; /* NULL when absent */
    const char *format_provider;
    const dl_delta_kv *format_options;
    int32_t n_format_options;
    const char *schema_string; /* NULL when absent (an invalid table if it wins) */
    const char *const *partition_columns;
    int32_t n_partition_columns;
    bool has_created_time;
    int64_t created_time; /* ms since the epoch */
    const dl_delta_kv *configuration;
    int32_t n_configuration;
} dl_delta_metadata;

/* The value of a configuration key (exact match), or NULL. */
const char *dl_delta_metadata_config(const dl_delta_metadata *md, const char *key);

/* add, remove and cdc: views into the parsed line (see the lifetime rule above). */
typedef struct dl_delta_file_action {
    dl_str path;                 /* as written: a URI-encoded relative path or URI */
    dl_str partition_values;     /* the partitionValues object as raw JSON text, or empty */
    dl_json_val stats;           /* the stats string value, or missing */
    dl_str tags;                 /* the tags object as raw JSON text, or empty */
    bool has_dv;                 /* deletionVector present and not null */
    dl_delta_dv_desc dv;         /* when has_dv; its path view points into the doc */
    int64_t size;                /* -1 when absent (remove without extendedFileMetadata) */
    int64_t modification_time;   /* add: modificationTime */
    bool has_deletion_timestamp; /* remove: deletionTimestamp present */
    int64_t deletion_timestamp;  /* remove: deletionTimestamp */
    bool data_change;
    bool extended_file_metadata; /* remove: extendedFileMetadata */
    bool has_base_row_id;
    int64_t base_row_id;
    bool has_default_row_commit_version;
    int64_t default_row_commit_version;
    dl_str clustering_provider; /* add: clusteringProvider, or empty */
    /* Parquet checkpoints only: the add's stats text when the reader was asked for it (JSON
     * actions leave it empty and carry `stats` instead). */
    dl_str stats_text;
} dl_delta_file_action;

typedef struct dl_delta_txn {
    dl_str app_id;
    int64_t version;
    bool has_last_updated;
    int64_t last_updated;
} dl_delta_txn;

typedef struct dl_delta_domain {
    dl_str domain;
    dl_str configuration;
    bool is_removed;
} dl_delta_domain;

typedef struct dl_delta_commit_info {
    dl_json_val body; /* the whole commitInfo object */
    bool has_timestamp;
    int64_t timestamp; /* ms since the epoch */
    bool has_in_commit_timestamp;
    int64_t in_commit_timestamp; /* ms since the epoch */
    dl_str operation;            /* empty when absent */
} dl_delta_commit_info;

typedef struct dl_delta_checkpoint_metadata {
    int64_t version;
    dl_str tags; /* raw JSON object text, or empty */
} dl_delta_checkpoint_metadata;

typedef struct dl_delta_sidecar {
    dl_str path; /* URI-encoded, normally a bare file name in _delta_log/_sidecars/ */
    int64_t size_in_bytes;
    int64_t modification_time;
} dl_delta_sidecar;

/* One parsed action. Only the member of its kind is filled. */
typedef struct dl_delta_action {
    dl_delta_action_kind kind;
    dl_str name;                             /* the key of the action in the line ("add") */
    dl_json_val body;                        /* the action's object */
    dl_delta_file_action file;               /* ADD, REMOVE, CDC */
    dl_delta_protocol protocol;              /* PROTOCOL (arrays in the arena given) */
    dl_delta_metadata metadata;              /* METADATA (owned by the arena given) */
    dl_delta_txn txn;                        /* TXN */
    dl_delta_domain domain;                  /* DOMAIN_METADATA */
    dl_delta_commit_info commit_info;        /* COMMIT_INFO */
    dl_delta_checkpoint_metadata checkpoint; /* CHECKPOINT_METADATA */
    dl_delta_sidecar sidecar;                /* SIDECAR */
} dl_delta_action;

/*
 * Parses one action: name is the member key of the line's object ("add", "metaData", ...),
 * body its value. Unknown names give kind UNKNOWN and DL_OK; a null body gives UNKNOWN too (no
 * action). Required fields missing or of the wrong type are DL_ERR_CORRUPT naming the action
 * and the field. protocol and metaData copy their content into arena (the only actions that
 * allocate); everything else is views into the doc.
 */
DL_NODISCARD dl_status dl_delta_action_parse(dl_str name, dl_json_val body, dl_arena *arena,
                                             dl_delta_action *out, dl_error *err);

/*
 * Calls visit for every action of one commit (or JSON checkpoint) file, text[0, len):
 * parses each non-blank line with doc, checks it is an object, and passes each of its members
 * through dl_delta_action_parse (a line may hold several actions). visit's non-OK status stops
 * the walk and is returned. Errors are prefixed with "line N, byte B" (B in dl_error.offset,
 * relative to text). Actions are valid only during the call to visit.
 */
typedef dl_status (*dl_delta_action_visit_fn)(void *ctx, const dl_delta_action *action,
                                              int64_t line_no, dl_error *err);
DL_NODISCARD dl_status dl_delta_actions_parse_text(const char *text, size_t len, dl_json_doc *doc,
                                                   dl_arena *arena, dl_delta_action_visit_fn visit,
                                                   void *ctx, dl_error *err);

/*
 * Decodes an add/remove path (RFC 2396: %XX escapes; '+' stays '+') into out (reset first),
 * canonicalising local URIs: "file:/a", "file:///a" and "file://localhost/a" become "/a".
 * *out_is_absolute says whether the result is absolute (starts with '/' or has a scheme).
 * A bad escape or a NUL byte is DL_ERR_CORRUPT naming the path.
 */
DL_NODISCARD dl_status dl_delta_path_decode(dl_str path, dl_buf *out, bool *out_is_absolute,
                                            dl_error *err);

/* ------------------------------------------------------------------------------------------ */
/* Per-file statistics ("Per-file Statistics")                                                 */

typedef struct dl_delta_stats {
    bool has_num_records;
    int64_t num_records;    /* physical rows in the file, before deletion vectors */
    bool tight_bounds;      /* tightBounds; true when absent */
    dl_json_val min_values; /* objects mirroring the (physical) schema, or missing */
    dl_json_val max_values;
    dl_json_val null_count;
} dl_delta_stats;

/* Parses a stats JSON text with doc (views valid until doc's next parse). DL_ERR_CORRUPT
 * when it is not an object or numRecords is not an integer. */
DL_NODISCARD dl_status dl_delta_stats_parse(dl_str json, dl_json_doc *doc, dl_delta_stats *out,
                                            dl_error *err);

/* Whether columns of type t get minValues/maxValues in a file's stats, as Spark writes them:
 * numbers, decimals, dates, timestamps and strings (not booleans, binary or nested types). */
bool dl_delta_stats_type_has_bounds(const dl_type *t);

typedef enum dl_delta_stat_kind {
    DL_DELTA_STAT_MIN = 0,
    DL_DELTA_STAT_MAX = 1,
    DL_DELTA_STAT_NULL_COUNT = 2,
} dl_delta_stat_kind;

/*
 * One statistic of the leaf column at path (physical names, outermost first) as a value of
 * type (ignored for NULL_COUNT, which is a LONG). *out_found is false when the file has no
 * such statistic. Conversions: numbers as the type says (decimals exact from the JSON text),
 * dates "yyyy-MM-dd", timestamps ISO-8601 with any offset (timestamp_ntz without). Because
 * Spark truncates timestamp statistics to milliseconds, a MAX of TIMESTAMP or TIMESTAMP_NTZ
 * is returned plus 999 microseconds, so it stays an upper bound. String MIN/MAX may be
 * truncated prefixes (MAX with a tie-breaker appended): compare them as bounds, never as
 * values. Strings are views into the stats doc. DL_ERR_CORRUPT when the statistic does not
 * convert.
 */
DL_NODISCARD dl_status dl_delta_stats_get(const dl_delta_stats *stats, dl_delta_stat_kind kind,
                                          const char *const *path, size_t n_path,
                                          const dl_type *type, dl_delta_value *out, bool *out_found,
                                          dl_error *err);

/* ------------------------------------------------------------------------------------------ */
/* Tables and snapshots                                                                        */

typedef struct dl_delta_table dl_delta_table;
typedef struct dl_delta_snapshot dl_delta_snapshot;

/*
 * Opens the table whose root is the folder table_root inside store ("" or NULL: the store's
 * root). Nothing is read yet. The store must outlive the table and every snapshot of it.
 */
DL_NODISCARD dl_status dl_delta_table_open(dl_store *store, const char *table_root,
                                           const dl_allocator *alloc, dl_delta_table **out,
                                           dl_error *err);

/* Frees the table. Snapshots stay valid. NULL-tolerant. */
void dl_delta_table_free(dl_delta_table *table);

/* The table's root as given (normalised, no trailing '/'), and its log folder prefix
 * ("<root>/_delta_log/"). */
const char *dl_delta_table_root(const dl_delta_table *table);
const char *dl_delta_table_log_dir(const dl_delta_table *table);

/* Options for loading a snapshot; a zeroed struct (or NULL) gives the defaults. */
typedef struct dl_delta_snapshot_options {
    /* Only protocol, metadata and the version's commitInfo: replay stops as soon as both are
     * found, so files, tombstones, txns and domains are left empty. For time travel and
     * DESCRIBE DETAIL-like questions. */
    bool is_metadata_only;
    bool is_without_stats; /* no per-file stats at all */
    /* Copy each file's stats text into the snapshot instead of remembering where it is in the
     * log (about 400 bytes a file in memory against 12, but no log reads to get it back). */
    bool is_stats_in_memory;
} dl_delta_snapshot_options;

/* The latest snapshot. DL_ERR_NOT_FOUND when the folder is not a Delta table. */
DL_NODISCARD dl_status dl_delta_snapshot_latest(dl_delta_table *table,
                                                const dl_delta_snapshot_options *opts,
                                                dl_delta_snapshot **out, dl_error *err);

/* The snapshot at version. Out of the available range: DL_ERR_NOT_FOUND "[DELTA_VERSION_NOT_FOUND]
 * Cannot time travel Delta table to version 7. Available versions: [0, 5]." */
DL_NODISCARD dl_status dl_delta_snapshot_at_version(dl_delta_table *table, int64_t version,
                                                    const dl_delta_snapshot_options *opts,
                                                    dl_delta_snapshot **out, dl_error *err);

/* The snapshot of the latest commit at or before ts_ms (dl_delta_version_at_timestamp). */
DL_NODISCARD dl_status dl_delta_snapshot_at_timestamp(dl_delta_table *table, int64_t ts_ms,
                                                      const dl_delta_snapshot_options *opts,
                                                      dl_delta_snapshot **out, dl_error *err);

/* Takes one more reference; returns snap. */
dl_delta_snapshot *dl_delta_snapshot_ref(dl_delta_snapshot *snap);

/* Drops a reference; the last one frees the snapshot. NULL-tolerant. */
void dl_delta_snapshot_unref(dl_delta_snapshot *snap);

/* A live file or tombstone of a snapshot. */
typedef struct dl_delta_partition {
    dl_str raw;                   /* the partitionValues object as written (JSON text) */
    const dl_delta_value *values; /* one per partition column, in metaData order */
} dl_delta_partition;

#define DL_DELTA_FILE_DATA_CHANGE     1u /* dataChange */
#define DL_DELTA_FILE_ABSOLUTE        2u /* path is absolute (not under the table root) */
#define DL_DELTA_FILE_EXTENDED        4u /* remove: extendedFileMetadata */
#define DL_DELTA_FILE_HAS_DELETION_TS 8u /* remove: deletionTimestamp present */
/* The deletion vector lists the rows to read, not the rows to drop (a change feed's file:
 * delta_changes.h). */
#define DL_DELTA_FILE_DV_KEEP 16u

/*
 * A live file or tombstone. Its stats are either in memory (stats) or, by default, only
 * located: stats_source names the log file (dl_delta_snapshot_source) and stats_offset and
 * stats_len the JSON string token in it, read back on demand by dl_delta_file_stats. For a
 * Parquet checkpoint or sidecar, stats_offset is the file's row and stats_len 0: the row's
 * stats_parsed or stats column is read back (and a row may turn out to have none).
 */
typedef struct dl_delta_file {
    dl_str path;                         /* URL-decoded, canonical; NUL-terminated */
    dl_str stats;                        /* stats JSON text when kept in memory, else empty */
    int32_t stats_source;                /* log file holding the stats token, -1 when none */
    uint32_t stats_offset;               /* byte offset of the stats JSON string token */
    uint32_t stats_len;                  /* its length, quotes included */
    uint32_t flags;                      /* DL_DELTA_FILE_* */
    dl_str tags;                         /* tags JSON object text, or empty */
    const dl_delta_partition *partition; /* NULL for a remove without partitionValues */
    const dl_delta_dv_desc *dv;          /* deletion vector, or NULL */
    int64_t size;                        /* bytes, -1 when unknown (remove) */
    int64_t modification_time;           /* add: modificationTime; remove: deletionTimestamp */
    int64_t base_row_id;                 /* -1 when absent */
    int64_t default_row_commit_version;  /* -1 when absent */
    int64_t version;                     /* the version whose action this is (-1: checkpoint) */
} dl_delta_file;

/* An application transaction (owned by the snapshot). */
typedef struct dl_delta_snapshot_txn {
    const char *app_id;
    int64_t version;
    int64_t last_updated; /* -1 when absent */
} dl_delta_snapshot_txn;

/* A live metadata domain (owned by the snapshot). */
typedef struct dl_delta_snapshot_domain {
    const char *domain;
    const char *configuration;
} dl_delta_snapshot_domain;

int64_t dl_delta_snapshot_version(const dl_delta_snapshot *snap);
const dl_delta_protocol *dl_delta_snapshot_protocol(const dl_delta_snapshot *snap);
const dl_delta_metadata *dl_delta_snapshot_metadata(const dl_delta_snapshot *snap);
/* The schema; empty (no fields) when the metaData has no schemaString, which only very old
 * writers produced: such a snapshot lists its files but has no columns a scan could read. */
const dl_delta_schema *dl_delta_snapshot_schema(const dl_delta_snapshot *snap);
dl_delta_cm_mode dl_delta_snapshot_cm_mode(const dl_delta_snapshot *snap);

/* The partition columns' fields, in metaData.partitionColumns order. */
int32_t dl_delta_snapshot_partition_count(const dl_delta_snapshot *snap);
const dl_delta_field *dl_delta_snapshot_partition_field(const dl_delta_snapshot *snap, int32_t i);

/* Live files (i < count), in no particular order, and tombstones. */
size_t dl_delta_snapshot_file_count(const dl_delta_snapshot *snap);
const dl_delta_file *dl_delta_snapshot_file(const dl_delta_snapshot *snap, size_t i);
size_t dl_delta_snapshot_tombstone_count(const dl_delta_snapshot *snap);
const dl_delta_file *dl_delta_snapshot_tombstone(const dl_delta_snapshot *snap, size_t i);

/* Sum of the live files' sizes. */
int64_t dl_delta_snapshot_total_bytes(const dl_delta_snapshot *snap);

size_t dl_delta_snapshot_txn_count(const dl_delta_snapshot *snap);
const dl_delta_snapshot_txn *dl_delta_snapshot_txn_at(const dl_delta_snapshot *snap, size_t i);
/* The latest version recorded for app_id; false when there is none. */
bool dl_delta_snapshot_txn_version(const dl_delta_snapshot *snap, const char *app_id,
                                   int64_t *out_version);

size_t dl_delta_snapshot_domain_count(const dl_delta_snapshot *snap);
const dl_delta_snapshot_domain *dl_delta_snapshot_domain_at(const dl_delta_snapshot *snap,
                                                            size_t i);
/* The configuration of a live domain, or NULL. */
const char *dl_delta_snapshot_domain_config(const dl_delta_snapshot *snap, const char *domain);

/* The commitInfo object of the snapshot's version as JSON text; empty when the commit has
 * none (or the version was read from a checkpoint only). */
dl_str dl_delta_snapshot_commit_info(const dl_delta_snapshot *snap);

/* The commit timestamp of the snapshot's version in ms: its in-commit timestamp when the
 * table has them enabled at that version, else the commit file's modification time. */
int64_t dl_delta_snapshot_timestamp(const dl_delta_snapshot *snap);

/* The store and table root the snapshot reads data files and deletion vectors from. */
dl_store *dl_delta_snapshot_store(const dl_delta_snapshot *snap);
const char *dl_delta_snapshot_root(const dl_delta_snapshot *snap);

/* How the snapshot was built: the checkpoint version used (-1: none), the number of commit
 * files replayed and of actions (of every kind) read from them and the checkpoint. */
int64_t dl_delta_snapshot_checkpoint_version(const dl_delta_snapshot *snap);
size_t dl_delta_snapshot_commits_read(const dl_delta_snapshot *snap);
int64_t dl_delta_snapshot_actions_read(const dl_delta_snapshot *snap);

/* The log files a snapshot read (commits, checkpoints and sidecars), by the index in
 * dl_delta_file.stats_source: paths relative to the store's root. */
size_t dl_delta_snapshot_source_count(const dl_delta_snapshot *snap);
const char *dl_delta_snapshot_source(const dl_delta_snapshot *snap, size_t i);

/*
 * What dl_delta_file_stats needs to read stats back: a buffer holding the last log file read
 * (files of one commit are next to each other in a snapshot, so a scan over them reads each
 * log file once) and two JSON docs. One reader per thread; the snapshot itself stays
 * untouched. Caller storage: init/destroy.
 */
typedef struct dl_delta_stats_reader {
    dl_buf bytes;          /* the cached log file (log files never change once written) */
    dl_buf path;           /* its path; empty when nothing is cached */
    const dl_store *store; /* the store it came from */
    dl_json_doc token_doc; /* the stats string token, unescaped */
    dl_json_doc stats_doc; /* the stats object; dl_delta_stats views point into it */
    /* Stats in Parquet checkpoints and sidecars: an open file and a reader positioned in it
     * (created on first use). */
    struct dl_delta_cp_cursor *cp;
} dl_delta_stats_reader;

void dl_delta_stats_reader_init(dl_delta_stats_reader *rd, const dl_allocator *alloc);
void dl_delta_stats_reader_destroy(dl_delta_stats_reader *rd);

/*
 * Parses a file's stats (dl_delta_stats_parse), reading them back from the log when they are
 * not in memory; *out_has_stats is false when the file has none. The views in *out are valid
 * until the next call with the same reader. A stats text that does not parse is
 * DL_ERR_CORRUPT naming the file: for data skipping, treat it as "no stats".
 */
DL_NODISCARD dl_status dl_delta_file_stats(const dl_delta_snapshot *snap, const dl_delta_file *file,
                                           dl_delta_stats_reader *rd, dl_delta_stats *out,
                                           bool *out_has_stats, dl_error *err);

/*
 * A file's stats JSON text as an add action carries it, read back from the log (a commit's
 * string token, or a checkpoint row's stats / stats_parsed column) when it is not in memory;
 * *out_found is false when the file has none. The view is valid until the next call with the
 * same reader (or, for stats in memory, as long as the snapshot).
 */
DL_NODISCARD dl_status dl_delta_file_stats_json(const dl_delta_snapshot *snap,
                                                const dl_delta_file *file,
                                                dl_delta_stats_reader *rd, dl_str *out,
                                                bool *out_found, dl_error *err);

/* ------------------------------------------------------------------------------------------ */
/* Time travel                                                                                 */

/*
 * The version of the latest commit at or before ts_ms, by Spark's rules: commit timestamps
 * are in-commit timestamps for versions at or after the enablement version when
 * delta.enableInCommitTimestamps is on (delta.inCommitTimestampEnablementVersion/Timestamp
 * say from when), else the commit files' modification times made monotonic (a time not after
 * its predecessor's becomes the predecessor's + 1 ms). Before the earliest available commit:
 * DL_ERR_NOT_FOUND "The provided timestamp (...) is before the earliest version available to
 * this table (...)"; after the latest: DL_ERR_NOT_FOUND "Timestamp ... is after the table's
 * latest version (...)".
 */
DL_NODISCARD dl_status dl_delta_version_at_timestamp(dl_delta_table *table, int64_t ts_ms,
                                                     int64_t *out_version, dl_error *err);

/* What a time-travel reference asks for. */
typedef enum dl_delta_tt_kind {
    DL_DELTA_TT_NONE = 0,      /* no suffix: the latest version */
    DL_DELTA_TT_VERSION = 1,   /* @v<version> */
    DL_DELTA_TT_TIMESTAMP = 2, /* @yyyyMMddHHmmssSSS */
} dl_delta_tt_kind;

typedef struct dl_delta_tt {
    dl_delta_tt_kind kind;
    int64_t version; /* VERSION */
    int64_t ts_ms;   /* TIMESTAMP, ms since the epoch */
} dl_delta_tt;

/*
 * Splits Spark's time-travel suffix off a table path or name: "path@v12" gives "path" and
 * version 12; "path@20190101000000000" gives the timestamp (exactly 17 digits, read at a zone
 * offset_seconds east of UTC, the session zone). Anything else after the last '@' is part of
 * the path (paths may hold '@'): the whole ref comes back with kind NONE. A version too large
 * for int64 or an impossible date ("@20191301000000000") is DL_ERR_INVALID_ARG naming it.
 */
DL_NODISCARD dl_status dl_delta_tt_parse_suffix(dl_str ref, int32_t offset_seconds,
                                                dl_str *out_path, dl_delta_tt *out, dl_error *err);

/* ------------------------------------------------------------------------------------------ */
/* History (DESCRIBE HISTORY) and the raw log                                                  */

/*
 * One commit as DESCRIBE HISTORY shows it. Strings are views into the history's arena (valid
 * until dl_delta_history_free); absent fields are empty views (and has_* false). Objects
 * (operationParameters, operationMetrics, notebook, job) are their JSON text.
 */
typedef struct dl_delta_commit {
    int64_t version;
    int64_t timestamp_ms; /* the commit's timestamp (see dl_delta_history_read) */
    bool is_ict;          /* timestamp_ms is its in-commit timestamp */
    int64_t file_mtime_ms;
    dl_str commit_info;          /* the whole commitInfo object as written; empty when none */
    dl_str operation;            /* "WRITE", "MERGE", ... */
    dl_str operation_parameters; /* JSON object text */
    dl_str operation_metrics;    /* JSON object text */
    dl_str user_id;
    dl_str user_name;
    bool has_read_version;
    int64_t read_version;
    dl_str isolation_level;
    bool has_is_blind_append;
    bool is_blind_append;
    dl_str engine_info;
    dl_str txn_id;
    dl_str cluster_id;
    dl_str notebook; /* JSON object text */
    dl_str job;      /* JSON object text */
    dl_str user_metadata;
    bool has_info_timestamp;
    int64_t info_timestamp; /* commitInfo.timestamp (the writer's clock), ms */
} dl_delta_commit;

typedef struct dl_delta_history dl_delta_history;

/*
 * The table's commits, newest first: the last `limit` commit files of the log (0 = all of
 * them), each with its commitInfo. Cost: one listing, the start of each commit file read
 * (commitInfo is normally the first line; otherwise the file is read whole), and, only when a
 * commit carries an in-commit timestamp, the latest protocol and metaData; nothing is
 * replayed. Timestamps follow Spark's DESCRIBE HISTORY: in-commit timestamps for versions at
 * or after delta.inCommitTimestampEnablementVersion when the table has them enabled; else the
 * commit files' modification times made monotonic over the commits listed (a time not after
 * the previous commit's becomes that plus 1 ms). A commit without commitInfo has empty fields.
 * Errors: NOT_FOUND for a folder that is not a Delta table; CORRUPT for a commitInfo line that
 * does not parse (naming the file and line); IO, NOMEM.
 */
DL_NODISCARD dl_status dl_delta_history_read(dl_delta_table *table, int64_t limit,
                                             dl_delta_history **out, dl_error *err);

size_t dl_delta_history_count(const dl_delta_history *history);

/* Commit i (0 = the newest). */
const dl_delta_commit *dl_delta_history_at(const dl_delta_history *history, size_t i);

/* Frees the history and everything it returned. NULL-tolerant. */
void dl_delta_history_free(dl_delta_history *history);

/*
 * The raw log: every action of every commit file present, in version order and line order
 * (for a table function over the log). An iterator yields one action per call; the views it
 * returns (the action's strings and JSON values) stay valid until the next call. Unknown
 * actions are skipped as in replay; a line that does not parse is DL_ERR_CORRUPT naming the
 * file and line. Checkpoints are not read: a version whose commit file was cleaned up is not
 * there.
 */
typedef struct dl_delta_log_iter dl_delta_log_iter;

typedef struct dl_delta_log_entry {
    int64_t version;
    int64_t line;                  /* 1-based line in the commit file */
    int64_t file_mtime_ms;         /* the commit file's modification time */
    const dl_delta_action *action; /* kind, name, body and the fields of its kind */
} dl_delta_log_entry;

/* An iterator over commits from_version..to_version (inclusive; to_version -1 = the latest).
 * Commit files outside what exists are not an error: the range is clipped. */
DL_NODISCARD dl_status dl_delta_log_iter_new(dl_delta_table *table, int64_t from_version,
                                             int64_t to_version, dl_delta_log_iter **out,
                                             dl_error *err);

/* The next action into *out; *out_has false at the end. */
DL_NODISCARD dl_status dl_delta_log_iter_next(dl_delta_log_iter *it, dl_delta_log_entry *out,
                                              bool *out_has, dl_error *err);

void dl_delta_log_iter_free(dl_delta_log_iter *it);

/* Calls visit for every action of commits from_version..to_version (as dl_delta_log_iter_new);
 * a non-OK status from visit stops the walk and is returned. */
typedef dl_status (*dl_delta_log_visit_fn)(void *ctx, const dl_delta_log_entry *entry,
                                           dl_error *err);
DL_NODISCARD dl_status dl_delta_log_each(dl_delta_table *table, int64_t from_version,
                                         int64_t to_version, dl_delta_log_visit_fn visit, void *ctx,
                                         dl_error *err);

#endif /* DL_DELTA_DELTA_H */
