/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Private to the log-reading files of the delta part (delta_action.c, delta_schema.c,
 * delta_segment.c, delta_checkpoint.c, delta_replay.c, delta_snapshot.c, delta_value.c,
 * delta_timetravel.c, delta_history.c, delta_scan*.c, delta_last_checkpoint.c): the table and
 * snapshot structures, the log listing and the log segment, _last_checkpoint, the Parquet
 * checkpoint reader, and the snapshot's bulk memory.
 *
 * A log listing is what `_delta_log/` holds, by kind, each kind sorted by version. A log
 * segment is the part of it that builds one version: the newest complete checkpoint at or
 * below the version (if any) and the commits after it, contiguous up to the version.
 */
#ifndef DL_DELTA_DELTA_INT_H
#define DL_DELTA_DELTA_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/hmap.h"
#include "base/timefmt.h"
#include "delta/delta.h"
#include "parquet/pq_reader.h"

/* Digits of a zero-padded version in a log file name. */
#define DL_DELTA_VERSION_DIGITS 20

/* Bytes of the longest log path we build: root + "/_delta_log/" + name. */
struct dl_delta_table {
    dl_store *store;           /* borrowed */
    const dl_allocator *alloc; /* where the table and its snapshots come from */
    char *root;                /* "" or "a/b" (no trailing '/') */
    char *log_dir;             /* "_delta_log/" or "a/b/_delta_log/" */
    char *display;             /* the table as shown in messages: location + root */
};

/* ---- the log listing ---------------------------------------------------------------- */

typedef enum dl_delta_log_kind {
    DL_DELTA_LOG_COMMIT = 0,      /* <v>.json */
    DL_DELTA_LOG_CHECKPOINT,      /* <v>.checkpoint.parquet (classic; V1 or V2 spec) */
    DL_DELTA_LOG_CHECKPOINT_PART, /* <v>.checkpoint.<o>.<p>.parquet */
    DL_DELTA_LOG_CHECKPOINT_V2,   /* <v>.checkpoint.<uuid>.json|parquet */
    DL_DELTA_LOG_COMPACTED,       /* <x>.<y>.compacted.json */
    DL_DELTA_LOG_CRC,             /* <v>.crc */
} dl_delta_log_kind;

typedef struct dl_delta_log_file {
    dl_delta_log_kind kind;
    bool is_json;        /* V2 checkpoints: JSON rather than Parquet */
    int64_t version;     /* the version (compaction: the first one) */
    int64_t end_version; /* compaction: the last version; else = version */
    int32_t part;        /* multi-part: 1-based part number */
    int32_t n_parts;     /* multi-part: number of parts; else 1 */
    const char *path;    /* relative to the store's root, NUL-terminated */
    const char *name;    /* the file name inside _delta_log/ */
    int64_t size;
    int64_t mtime_ms;
} dl_delta_log_file;

typedef struct dl_delta_log_list {
    dl_delta_log_file *commits; /* ascending by version, unique */
    size_t n_commits;
    dl_delta_log_file *checkpoints; /* ascending by version, then name */
    size_t n_checkpoints;
    dl_delta_log_file *compactions;
    size_t n_compactions;
    dl_delta_log_file *crcs;
    size_t n_crcs;
    bool is_from_start; /* listed from the first file, not from a hint */
} dl_delta_log_list;

/* Parses a log file name (the part after "_delta_log/"); false when it is not one of the
 * kinds above (temporary files, "_last_checkpoint", AppleDouble "._" files, ...). path, size
 * and mtime are left for the caller. */
bool dl_delta_log_name_parse(dl_str name, dl_delta_log_file *out);

/*
 * Lists the table's log into arena. from_version >= 0 lists only names sorting at or after
 * that version's (a hint from _last_checkpoint); -1 lists everything. DL_ERR_NOT_FOUND when
 * there is no _delta_log folder.
 */
DL_NODISCARD dl_status dl_delta_log_list_read(dl_delta_table *table, int64_t from_version,
                                              dl_arena *arena, dl_delta_log_list *out,
                                              dl_error *err);

/* The version _last_checkpoint points at, or -1 when it is absent, unreadable, or its checksum
 * does not match (delta_last_checkpoint.c; it is only a hint: any failure but NOMEM is
 * ignored). */
DL_NODISCARD dl_status dl_delta_last_checkpoint_version(dl_delta_table *table, int64_t *out,
                                                        dl_error *err);

/* The canonical form of root (PROTOCOL.md "JSON checksum"; delta_last_checkpoint.c) appended
 * to out, leaving out the root object's "checksum" key. DL_ERR_CORRUPT for an object with a
 * key twice; scratch memory from alloc. */
DL_NODISCARD dl_status dl_delta_json_canonical(dl_json_val root, const dl_allocator *alloc,
                                               dl_buf *out, dl_error *err);

/* The checksum of the JSON text json[0, len): MD5 of its canonical form, as 32 lowercase hex
 * digits and a NUL. Errors: the JSON parser's, and dl_delta_json_canonical's. */
DL_NODISCARD dl_status dl_delta_json_checksum(const char *json, size_t len,
                                              const dl_allocator *alloc, char out[33],
                                              dl_error *err);

/* Adds "checksum" as the last member of the JSON object in json (which has none yet). */
DL_NODISCARD dl_status dl_delta_last_checkpoint_add_checksum(dl_buf *json, dl_error *err);

/* MD5 (RFC 1321) of data[0, len) as 32 lowercase hex digits and a NUL (delta_last_checkpoint.c). */
void dl_delta_md5_hex(const void *data, size_t len, char out[33]);

/* The newest version in the listing (commits and checkpoints), or -1 when it has none. */
int64_t dl_delta_log_latest_version(const dl_delta_log_list *list);

/* The earliest version that can be rebuilt from a complete listing: the smallest v that is 0
 * with its commit, or has a complete readable checkpoint, and from which the commits run
 * without a gap to the latest version. -1 when there is none. */
int64_t dl_delta_log_earliest_version(const dl_delta_log_list *list, bool can_read_parquet);

typedef struct dl_delta_segment {
    int64_t version;                     /* the version it builds */
    const dl_delta_log_file *checkpoint; /* first file of the checkpoint used, or NULL */
    size_t n_checkpoint_files;           /* 1, or the parts of a multi-part checkpoint */
    const dl_delta_log_file *commits;    /* the commits after the checkpoint, ascending */
    size_t n_commits;
    const dl_delta_log_file *version_file; /* the commit file of `version`, or NULL */
} dl_delta_segment;

/*
 * Chooses the files that build version (-1: the latest) from list. A checkpoint is used only
 * when its kind can be read (Parquet ones need can_read_parquet); when it cannot and the
 * commits from 0 are all there, the segment starts at 0 instead; use_checkpoints false
 * always starts at 0 (the fallback when a checkpoint turns out unreadable). Errors:
 * DL_ERR_NOT_FOUND for a version outside the listing; DL_ERR_CORRUPT for a gap ("versions are not
 * contiguous"); DL_ERR_UNSUPPORTED when only an unreadable checkpoint could build the version.
 */
DL_NODISCARD dl_status dl_delta_segment_build(const dl_delta_log_list *list, int64_t version,
                                              bool can_read_parquet, bool use_checkpoints,
                                              dl_delta_segment *out, dl_error *err);

/* Whether Parquet checkpoints can be read in this build (the Parquet column reader). */
bool dl_delta_can_read_parquet_checkpoints(void);

/* ---- bulk memory ------------------------------------------------------------------- */

/* Block size of a snapshot's bulk arena, and the number of files (live and tombstones) from
 * which a snapshot keeps further file entries and paths there. */
#define DL_DELTA_BULK_BLOCK     ((size_t)16 << 20)
#define DL_DELTA_BULK_MIN_FILES ((size_t)16384)

/* ---- snapshots ---------------------------------------------------------------------- */

#define DL_DELTA_FILE_BLOCK_SHIFT 12
#define DL_DELTA_FILE_BLOCK       ((size_t)1 << DL_DELTA_FILE_BLOCK_SHIFT)

/* Files in arena blocks of DL_DELTA_FILE_BLOCK entries, so a million never move. */
typedef struct dl_delta_file_vec {
    dl_delta_file **blocks; /* n_blocks block pointers (array from alloc) */
    size_t n_blocks;
    size_t cap_blocks;
    size_t count;
} dl_delta_file_vec;

/* A new zeroed entry at the end of vec (block in arena), or NULL (NOMEM). */
dl_delta_file *dl_delta_file_vec_push(dl_delta_file_vec *vec, dl_arena *arena,
                                      const dl_allocator *alloc);

static inline dl_delta_file *
dl_delta_file_vec_at(const dl_delta_file_vec *vec, size_t i) {
    return &vec->blocks[i >> DL_DELTA_FILE_BLOCK_SHIFT][i & (DL_DELTA_FILE_BLOCK - 1)];
}

struct dl_delta_snapshot {
    dl_arena arena;               /* everything below */
    const dl_allocator *alloc;    /* the struct, the block arrays */
    dl_huge_allocator bulk_alloc; /* bulk's allocator (huge pages) */
    dl_arena bulk;    /* file entries and paths of a large snapshot: dl_delta_snapshot_file_arena */
    int refcount;     /* atomic */
    dl_store *store;  /* borrowed from the table */
    const char *root; /* table root, in arena */
    const char *display; /* table as shown in messages, in arena */
    int64_t version;
    int64_t timestamp_ms;
    int64_t checkpoint_version; /* -1 when none was used */
    size_t n_commits_read;
    int64_t n_actions_read; /* actions replayed (all kinds, checkpoint rows included) */
    bool has_protocol;
    bool has_metadata;
    dl_delta_protocol protocol;
    dl_delta_metadata metadata;
    dl_delta_schema schema;
    dl_delta_cm_mode cm_mode;
    const dl_delta_field **partition_fields; /* n_partition entries */
    int32_t n_partition;
    dl_delta_file_vec files;
    dl_delta_file_vec tombstones;
    int64_t total_bytes;
    dl_delta_snapshot_txn *txns;
    size_t n_txns;
    dl_delta_snapshot_domain *domains;
    size_t n_domains;
    dl_str commit_info;
    bool has_ict; /* the snapshot version's commitInfo has inCommitTimestamp */
    int64_t ict;
    /* The log files replayed, for stats read back later (paths in the arena). */
    const char **sources;
    size_t n_sources;
    size_t cap_sources;
    /* Replay's list of distinct partitionValues texts, parsed once at the end. */
    dl_delta_partition **partitions;
    size_t n_partitions;
    size_t cap_partitions;
    /* Snapshots absorbed (dl_delta_snapshot_absorb): one reference each, for their arenas. */
    dl_delta_snapshot **parts;
    size_t n_parts;
};

/* Where the next file entry and path of s go: the bulk arena once s holds
 * DL_DELTA_BULK_MIN_FILES files, so small snapshots stay small. */
static inline dl_arena *
dl_delta_snapshot_file_arena(dl_delta_snapshot *s) {
    return s->files.count + s->tombstones.count >= DL_DELTA_BULK_MIN_FILES ? &s->bulk : &s->arena;
}

/* Creates an empty snapshot for table (refcount 1). */
DL_NODISCARD dl_status dl_delta_snapshot_new(dl_delta_table *table, dl_delta_snapshot **out,
                                             dl_error *err);

/*
 * Replays the segment into snap (newest to oldest): protocol, metadata, files, tombstones,
 * txns, domains, commitInfo. The store reads are one per commit file.
 */
DL_NODISCARD dl_status dl_delta_replay(dl_delta_table *table, const dl_delta_segment *seg,
                                       const dl_delta_snapshot_options *opts,
                                       dl_delta_snapshot *snap, dl_error *err);

/* After replay: checks the protocol, parses the schema, resolves partition columns and parses
 * every distinct partition tuple. */
DL_NODISCARD dl_status dl_delta_snapshot_finish(dl_delta_snapshot *snap, dl_error *err);

/* Moves part's live files, tombstones and interned partitions into snap (a checkpoint worker's
 * share of the replay, delta_replay.c) and keeps part alive as long as snap: its arena holds
 * them. part must not be used afterwards but for its unref. */
DL_NODISCARD dl_status dl_delta_snapshot_absorb(dl_delta_snapshot *snap, dl_delta_snapshot *part,
                                                dl_error *err);

/* Loads the snapshot at version (-1: latest) with the listing already read. */
DL_NODISCARD dl_status dl_delta_snapshot_load(dl_delta_table *table, const dl_delta_log_list *list,
                                              int64_t version,
                                              const dl_delta_snapshot_options *opts,
                                              dl_delta_snapshot **out, dl_error *err);

/* Formats a version as a log file name "<v:020d>.json" into out (room for 32 bytes). */
void dl_delta_commit_name(int64_t version, char out[32]);

/* DL_ERR_CORRUPT, naming the file, when commit file lf is empty (0 bytes): every commit holds at
 * least one action, so an empty one lost its contents (a crash, a full disk, a bad copy). */
DL_NODISCARD dl_status dl_delta_commit_check_size(const dl_delta_log_file *lf, dl_error *err);

/* Parses a non-negative decimal integer of 1..19 digits; false on anything else. */
bool dl_delta_parse_version(dl_str digits, int64_t *out);

/* ASCII case-insensitive comparison with a NUL-terminated literal. */
bool dl_delta_str_eq_nocase_cstr(dl_str s, const char *lit);

/* The boolean table property key (Spark accepts "true"/"false" in any case); def when
 * absent or not a boolean. */
bool dl_delta_metadata_config_bool(const dl_delta_metadata *md, const char *key, bool def);

/* Reads the in-commit timestamp from the first line of a commit file; *out_found false when
 * the first action is not a commitInfo with inCommitTimestamp. */
DL_NODISCARD dl_status dl_delta_commit_read_ict(dl_delta_table *table,
                                                const dl_delta_log_file *commit, dl_json_doc *doc,
                                                dl_buf *scratch, int64_t *out_ict, bool *out_found,
                                                dl_error *err);

/* In-commit timestamp settings of a snapshot's metadata (delta_timetravel.c): *out_from is the
 * enablement version (INT64_MAX when ICT is off), *out_from_ts its timestamp (INT64_MIN when
 * unknown). */
void dl_delta_ict_settings(const dl_delta_snapshot *snap, int64_t *out_from, int64_t *out_from_ts);

/* ---- Parquet checkpoints and sidecars (delta_checkpoint.c) ---------------------------- */

typedef struct dl_delta_cp_read_options {
    const dl_allocator *alloc; /* reader state and vectors; NULL = libc */
    bool is_metadata_only;     /* read only the protocol and metaData columns */
    bool with_stats;           /* read add.stats into dl_delta_file_action.stats_text */
    bool is_without_removes;   /* do not read the remove column */
    /* Decode on this thread only. By default a large file (64 Ki rows or more) is decoded on
     * a helper thread, one batch ahead of the rows being visited. */
    bool is_single_threaded;
    bool is_always_piped;      /* use the helper thread whatever the file's size (tests) */
    bool is_files_only;        /* read only the add and remove columns */
    bool is_without_files;     /* read everything but the add and remove columns */
    const int32_t *row_groups; /* the row groups to read (in this order); NULL = all */
    size_t n_row_groups;
} dl_delta_cp_read_options;

/*
 * Visits every action of a Parquet checkpoint or sidecar file: one row per action, in row
 * order, passing the row number (0-based, in the file) as visit's line_no. Reads only the
 * columns a snapshot needs: add and remove without stats (unless opts->with_stats), whole
 * metaData, protocol, txn, domainMetadata, checkpointMetadata and sidecar. partitionValues
 * come as JSON object text, from partitionValues_parsed when the file has it; tags too.
 * Actions are valid only during the call to visit. Errors: DL_ERR_CORRUPT for a file without
 * action columns, columns of the wrong type or rows missing required fields ("row 12: add
 * action: missing required field 'size'"), and whatever the Parquet reader reports.
 */
DL_NODISCARD dl_status dl_delta_checkpoint_read(dl_pq_file *file,
                                                const dl_delta_cp_read_options *opts,
                                                dl_delta_action_visit_fn visit, void *ctx,
                                                dl_error *err);

/*
 * The stats of the add at file row `row` of the Parquet checkpoint or sidecar at path in
 * store, read through rd's cursor (kept open across calls; rows asked for in ascending order
 * are read in one pass). stats_parsed wins over the stats string when both are there, rendered
 * as the JSON the string would hold. *out_found is false when the row has neither. *out is
 * valid until the next call with rd.
 */
DL_NODISCARD dl_status dl_delta_checkpoint_stats(dl_delta_stats_reader *rd, dl_store *store,
                                                 const char *path, int64_t row, dl_str *out,
                                                 bool *out_found, dl_error *err);

typedef struct dl_delta_cp_cursor dl_delta_cp_cursor;

/* Frees a stats cursor. NULL-tolerant. */
void dl_delta_cp_cursor_free(dl_delta_cp_cursor *cursor);

/* How dl_delta_value_append_text writes dates and timestamps. */
typedef enum dl_delta_text_style {
    DL_DELTA_TEXT_PARTITION = 0, /* partition values: timestamp_ntz in Spark's style */
    DL_DELTA_TEXT_STATS = 1,     /* statistics: ISO-8601, timestamp_ntz without a zone */
} dl_delta_text_style;

/*
 * Appends the text of element i of flat vector v (a primitive type) as the log writes it:
 * numbers in decimal, decimals exactly at their scale, dates yyyy-MM-dd, timestamps
 * ISO-8601 with microseconds in UTC, booleans true/false, strings and binary as their bytes.
 * *out_ok is false (nothing appended) for NaN, infinities and nested types.
 */
DL_NODISCARD dl_status dl_delta_value_append_text(const dl_vector *v, int64_t i,
                                                  dl_delta_text_style style, dl_buf *out,
                                                  bool *out_ok, dl_error *err);

#endif /* DL_DELTA_DELTA_INT_H */
