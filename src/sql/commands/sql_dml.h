/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The data-changing statements (sql_dml*.c): CREATE [OR REPLACE] TABLE [AS SELECT], INSERT
 * INTO / OVERWRITE, DELETE, UPDATE and MERGE, bound and planned here and written through ops
 * (src/ops/ops.h) and committed through a Delta transaction (src/delta/delta_txn.h).
 *
 * Every statement is one commit or none. DELETE, UPDATE (sql_dml_rewrite.c) and MERGE
 * (sql_dml_merge.c) rewrite only the files that hold a changed row (sql_dml_files.c): the
 * candidates the Delta scan's file skipping keeps, then the ones where the condition (or a
 * MERGE's action code, or a subquery condition run as a plan whose rows carry their file)
 * shows a change. DELETE removes whole partitions without reading them when the condition is
 * on partition columns only; an insert-only MERGE only adds. Removes carry Spark's
 * deletionTimestamp and extended metadata. A failure before the commit aborts the writer, which
 * removes the files written so far: the table is as it was. Statements that match nothing (DELETE,
 * UPDATE) commit nothing, as in Spark.
 *
 * commitInfo follows Spark: operations WRITE, CREATE TABLE [AS SELECT], CREATE OR REPLACE
 * TABLE [AS SELECT], DELETE, UPDATE, MERGE, with their operationParameters and
 * operationMetrics (numFiles / numOutputRows / numOutputBytes for writes; numDeletedRows,
 * numUpdatedRows, numCopiedRows, numAddedFiles, numRemovedFiles and the byte counts for
 * DELETE and UPDATE; numSourceRows and numTargetRows* for MERGE).
 */
#ifndef DL_SQL_SQL_DML_H
#define DL_SQL_SQL_DML_H

#include "base/buf.h"
#include "base/hmap.h"
#include "delta/delta_dv_dml.h"
#include "json/json.h"
#include "ops/ops.h"
#include "sql/bind/sql_bind_int.h"

/* Runs a data-changing statement (kinds CREATE_TABLE, INSERT, DELETE, UPDATE, MERGE,
 * RESTORE, ALTER_TABLE, VACUUM, OPTIMIZE). Only VACUUM and OPTIMIZE return rows (*out); the
 * others leave *out NULL. */
DL_NODISCARD dl_status dl_sql_exec_dml(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_sql_plan **out,
                                       dl_error *err);

/* ---- shared by the sql_dml*.c files ---------------------------------------------------------- */

/* The table a statement writes. Everything lives as long as the statement. */
typedef struct dl_sql_dml_target {
    dl_delta_table *table;    /* closed with the statement */
    dl_delta_snapshot *snap;  /* the latest snapshot (held by the statement); NULL: new table */
    const char *display;      /* its name for messages */
    dl_store *store;          /* where its files live */
    const char *root;         /* its folder in store */
    const dl_type *schema;    /* STRUCT of its columns */
    const char *const *parts; /* partition columns */
    int32_t n_parts;
    /* The configuration the statement commits when it replaces the metaData (CREATE, REPLACE):
     * its CHECK constraints rule the rows written. NULL: the snapshot's. */
    const dl_delta_kv *write_conf;
    int32_t n_write_conf;
    bool has_write_conf;
} dl_sql_dml_target;

/* Opens an existing table named by name, with its latest snapshot. */
DL_NODISCARD dl_status dl_sql_dml_open(dl_sql_binder *b, const dl_sql_name *name, uint32_t loc,
                                       dl_sql_dml_target *out, dl_error *err);

/* As dl_sql_dml_open for a statement's target: a name or a path string. */
DL_NODISCARD dl_status dl_sql_dml_open_target(dl_sql_binder *b, const dl_sql_target *target,
                                              uint32_t loc, dl_sql_dml_target *out, dl_error *err);

/* Whether column col of t's schema is a partition column; *out_name (may be NULL) its name
 * as metaData spells it. */
bool dl_sql_dml_is_partition_column(const dl_sql_dml_target *t, int32_t col, const char **out_name);

/* Keeps the table open until the statement ends. */
DL_NODISCARD dl_status dl_sql_dml_hold_table(dl_sql_binder *b, dl_delta_table *table,
                                             dl_error *err);

/* A one-row constant of BIGINT value v / of type NULL. NULL when out of memory. */
dl_sql_bexpr *dl_sql_dml_int(dl_sql_binder *b, int64_t v);
dl_sql_bexpr *dl_sql_dml_null(dl_sql_binder *b, const dl_type *type);

/*
 * A PROJECT over plan giving the target's columns: column i is plan column map[i] cast to
 * the table's type (map[i] < 0: NULL). Casts that are not allowed fail naming the column.
 */
DL_NODISCARD dl_status dl_sql_dml_conform(dl_sql_binder *b, const dl_sql_dml_target *t,
                                          dl_sql_plan *plan, const int32_t *map, uint32_t loc,
                                          dl_sql_plan **out, dl_error *err);

/* ---- the change data feed (sql_dml_cdf.c) ---------------------------------------------------- */

typedef enum dl_sql_cdf_kind {
    DL_SQL_CDF_INSERT = 0,
    DL_SQL_CDF_DELETE = 1,
    DL_SQL_CDF_PREIMAGE = 2,
    DL_SQL_CDF_POSTIMAGE = 3,
    DL_SQL_CDF_KINDS = 4,
    DL_SQL_CDF_NONE = -1
} dl_sql_cdf_kind;

/* A statement's change data files being written. Freed with the statement; their files are
 * removed then unless dl_sql_dml_cdf_kept was called. */
typedef struct dl_sql_dml_cdf {
    dl_ops_writer *writer;
    const dl_type *schema;          /* the table's columns, then _change_type */
    int32_t n;                      /* the table's columns */
    dl_vector **cols;               /* scratch: n + 1 */
    int64_t rows[DL_SQL_CDF_KINDS]; /* rows written per kind */
    bool is_kept;
} dl_sql_dml_cdf;

/* Whether t has the change data feed on (delta.enableChangeDataFeed). */
bool dl_sql_dml_is_cdf(const dl_sql_dml_target *t);

/* A change data writer for a statement on t committing through tx; *out NULL when t has no
 * change data feed. */
DL_NODISCARD dl_status dl_sql_dml_cdf_new(dl_sql_binder *b, const dl_sql_dml_target *t,
                                          dl_delta_tx *tx, dl_sql_dml_cdf **out, dl_error *err);

/* Writes the rows of cols[0..t's columns) (count live rows, sel as a batch's: NULL =
 * [0, count)) as changes of kind. A NULL c writes nothing. */
DL_NODISCARD dl_status dl_sql_dml_cdf_write(dl_sql_dml_cdf *c, dl_vector *const *cols,
                                            int64_t count, const uint32_t *sel,
                                            dl_sql_cdf_kind kind, const dl_allocator *alloc,
                                            dl_error *err);

/* Closes the change data files and stages their cdc actions in tx; *out_files how many (0 for
 * a NULL c). */
DL_NODISCARD dl_status dl_sql_dml_cdf_stage(dl_sql_dml_cdf *c, dl_delta_tx *tx, int64_t *out_files,
                                            dl_error *err);

/* The statement committed: its change data files stay. NULL-tolerant. */
void dl_sql_dml_cdf_kept(dl_sql_dml_cdf *c);

/* What a plan run wrote. */
typedef struct dl_sql_dml_sink {
    dl_ops_writer *writer;
    const dl_type *schema; /* the table's columns: the plan's first n_cols columns */
    int32_t code_col;      /* a BIGINT action code column, or -1: every row is written */
    uint32_t keep_mask;    /* codes whose rows are written (bit per code) */
    int32_t source_col;    /* MERGE: a column non-NULL when the row has a source row, or -1 */
    int32_t id_col;        /* MERGE: the target row's id (a STRING column), or -1 */
    bool is_match_unique;  /* MERGE: a target row (id_col) may meet one source row only */
    uint32_t once_mask;    /* MERGE: codes whose target row is taken once however many source
                              rows meet it (the one unconditional MATCHED DELETE); uses seen */
    dl_hmap seen;          /* MERGE: ids of matched target rows (keys in arena); init'd by
                              the caller when is_match_unique is set */
    dl_buf sources;        /* MERGE: a bit per source row met by a target row (by its BIGINT
                              marker); init'd by the caller when source_col is set */
    dl_arena *arena;       /* where seen's keys live */
    const char *target;    /* the target's name for messages */
    /* Deletion vectors: the target row (INT file_col, BIGINT row_col: the scan's hidden file
     * and row index) of every row whose code is in mark_mask is marked in marks (NULL: none). */
    dl_delta_dv_marks *marks;
    int32_t file_col;
    int32_t row_col;
    uint32_t mark_mask;
    /* The change data feed (NULL: none): rows of code c are written as changes of kind
     * cdf_new[c] - 1 (their first n columns) and cdf_old[c] - 1 (the n columns from
     * cdf_old_col: the target row's old values); 0 for none (dl_sql_dml_cdf_route). */
    dl_sql_dml_cdf *cdf;
    int32_t cdf_old_col;
    uint8_t cdf_new[16];
    uint8_t cdf_old[16];
    uint32_t cdf_sel[DL_BATCH_CAPACITY];
    int64_t counts[16]; /* rows per code (codes 0..15) */
    int64_t n_source;   /* source rows (numSourceRows) */
    uint32_t sel[DL_BATCH_CAPACITY];
} dl_sql_dml_sink;

/* Routes rows of code to c: their new values as new_kind, the old ones (from column old_col)
 * as old_kind (DL_SQL_CDF_NONE: not written). */
void dl_sql_dml_cdf_route(dl_sql_dml_sink *sink, dl_sql_dml_cdf *c, int32_t old_col, int64_t code,
                          int new_kind, int old_kind);

/* Writes a sink batch's changes (dl_sql_dml_run calls it when sink->cdf is set). */
DL_NODISCARD dl_status dl_sql_dml_cdf_take(dl_sql_dml_sink *sink, const dl_batch *batch,
                                           dl_error *err);

/* The Delta scan's skipping predicate for the conjuncts conds[0..n) over t's columns: NULL
 * when there are none or no part of them translates (sql_engine_int.h, dl_sql_scan_predicate). */
DL_NODISCARD dl_status dl_sql_dml_skip_predicate(dl_sql_binder *b, const dl_sql_dml_target *t,
                                                 dl_sql_bexpr **conds, int32_t n,
                                                 const dl_delta_pred **out, dl_error *err);

/* The write spec of t's data files: files named after job_id, dataChange true. */
void dl_sql_dml_write_spec(dl_sql_binder *b, const dl_sql_dml_target *t, const char *job_id,
                           dl_ops_write_spec *out);

/* Starts a writer for t into tx (files named after tx's id) that enforces t's CHECK
 * constraints: those of t->write_conf when set (a statement that commits a new metaData),
 * else those of t's snapshot. */
DL_NODISCARD dl_status dl_sql_dml_writer(dl_sql_binder *b, const dl_sql_dml_target *t,
                                         dl_delta_tx *tx, dl_ops_writer **out, dl_error *err);

/* Runs plan into sink->writer and closes its files. On failure the writer is aborted. */
DL_NODISCARD dl_status dl_sql_dml_run(dl_sql_binder *b, dl_sql_plan *plan, dl_sql_dml_sink *sink,
                                      dl_error *err);

/* Stages a remove of every live file of t's snapshot; *out_files / *out_bytes what they were. */
DL_NODISCARD dl_status dl_sql_dml_remove_all(const dl_sql_dml_target *t, dl_delta_tx *tx,
                                             int64_t *out_files, int64_t *out_bytes, dl_error *err);

/* ---- CHECK constraints (sql_dml_check.c) ---------------------------------------------------- */

/* The CHECK constraints of a table configuration, bound over the table's columns. */
typedef struct dl_sql_dml_checks dl_sql_dml_checks;

/* Whether key is a CHECK constraint's property (delta.constraints.<name>). */
bool dl_sql_dml_is_check_key(const char *key);

/* The constraints among conf[0..n_conf) bound over the columns of schema (a STRUCT), living as
 * long as the statement; *out NULL when there are none. A stored expression that no longer
 * binds fails naming the constraint. */
DL_NODISCARD dl_status dl_sql_dml_checks_new(dl_sql_binder *b, const dl_type *schema,
                                             const dl_delta_kv *conf, int32_t n_conf,
                                             dl_sql_dml_checks **out, dl_error *err);

/* A writer's row check (dl_ops_write_spec.check_rows; ctx a dl_sql_dml_checks): CONSTRAINT
 * DELTA_VIOLATE_CONSTRAINT_WITH_VALUES for the first live row of batch (the table's columns)
 * that makes a constraint FALSE or NULL. */
DL_NODISCARD dl_status dl_sql_dml_checks_run(void *ctx, const dl_batch *batch, dl_error *err);

/* Constraint name's expression ast (stored as text) bound over the columns of schema: a
 * BOOLEAN, else DELTA_NON_BOOLEAN_CHECK_CONSTRAINT. */
DL_NODISCARD dl_status dl_sql_dml_check_bind(dl_sql_binder *b, const dl_type *schema,
                                             const char *name, const char *text,
                                             const dl_sql_expr *ast, dl_sql_bexpr **out,
                                             dl_error *err);

/* ALTER TABLE t ADD CONSTRAINT c CHECK (expr) / DROP CONSTRAINT [IF EXISTS] c. */
DL_NODISCARD dl_status dl_sql_dml_alter_constraint(dl_sql_binder *b, const dl_sql_stmt *stmt,
                                                   dl_error *err);

/* ---- deletion vectors (sql_dml_dv.c) ----------------------------------------------------------
 */

/* Whether DELETE, UPDATE and MERGE on t mark rows in deletion vectors instead of rewriting
 * files: delta.enableDeletionVectors is true and the protocol has the deletionVectors feature. */
bool dl_sql_dml_uses_dvs(const dl_sql_dml_target *t);

/* Marks for t's snapshot, freed with the statement. */
DL_NODISCARD dl_status dl_sql_dml_marks_new(dl_sql_binder *b, const dl_sql_dml_target *t,
                                            dl_delta_dv_marks **out, dl_error *err);

/* Marks the target row of batch row `row`: its file (INT column file_col) and file row number
 * (BIGINT column row_col); a row without a file (NULL: no target row) is passed over. */
DL_NODISCARD dl_status dl_sql_dml_mark_row(dl_delta_dv_marks *marks, const dl_batch *batch,
                                           int32_t file_col, int32_t row_col, int64_t row,
                                           dl_error *err);

/* Stages the marks in tx (dl_delta_dv_marks_stage), errors naming the table. */
DL_NODISCARD dl_status dl_sql_dml_marks_stage(const dl_sql_dml_target *t, dl_delta_tx *tx,
                                              dl_delta_dv_marks *marks,
                                              dl_delta_dv_marks_result *out, dl_error *err);

/* ---- schemas (sql_dml_schema.c) ---- */

/* The Delta field of a column definition: type, nullability, comment (kept in its metadata as
 * Spark keeps it). Generated, identity and DEFAULT columns are UNSUPPORTED at d's position. */
DL_NODISCARD dl_status dl_sql_dml_column_field(dl_sql_binder *b, const dl_sql_column_def *d,
                                               dl_delta_field *out, dl_error *err);

/* f with its comment set to comment: metadata.comment replaced or added, every other metadata
 * member kept. */
DL_NODISCARD dl_status dl_sql_dml_field_comment(dl_sql_binder *b, const dl_delta_field *f,
                                                dl_str comment, dl_delta_field *out, dl_error *err);

/* Writes the new value of a metadata member; old is the member's value before (missing when
 * absent). */
typedef dl_status (*dl_sql_dml_meta_put_fn)(void *ctx, dl_json_writer *jw, dl_json_val old,
                                            dl_error *err);

/* out->metadata: f's metadata object with every member but key kept, then key with the value
 * put writes (in the statement arena). */
DL_NODISCARD dl_status dl_sql_dml_field_metadata_put(dl_sql_binder *b, const dl_delta_field *f,
                                                     const char *key, dl_sql_dml_meta_put_fn put,
                                                     void *ctx, dl_delta_field *out, dl_error *err);

/* f as the JSON a schemaString holds for it ({"name":..,"type":..,"nullable":..,
 * "metadata":{..}}), in the statement arena. */
DL_NODISCARD dl_status dl_sql_dml_field_json(dl_sql_binder *b, const dl_delta_field *f, dl_str *out,
                                             dl_error *err);

/* The index of the field named name (case-insensitive) among fields[0..n), or -1. */
int32_t dl_sql_dml_field_index(const dl_delta_field *fields, int32_t n, dl_str name);

/* The schema of fields[0..n) (the fields are referenced, not copied). */
DL_NODISCARD dl_status dl_sql_dml_schema_of(dl_sql_binder *b, const dl_delta_field *fields,
                                            int32_t n, dl_delta_schema *out, dl_error *err);

/* A column to add: at the end, first, or after the column named after (case-insensitive). */
typedef struct dl_sql_dml_new_col {
    dl_delta_field field;
    bool is_first;
    const char *after; /* or NULL */
} dl_sql_dml_new_col;

/* old with the columns add[0..n_add) added in order, every existing field (and its metadata)
 * kept. NOT_FOUND when an `after` column does not exist. */
DL_NODISCARD dl_status dl_sql_dml_schema_grow(dl_sql_binder *b, const dl_delta_schema *old,
                                              const dl_sql_dml_new_col *add, int32_t n_add,
                                              dl_delta_schema *out, dl_error *err);

/* f's partition key in key (reset first): per partition column, "N" for null or
 * "V<length>:<text>" with the protocol's serialisation of the typed value, so that two files
 * have equal keys exactly when their partition values are equal (val is scratch). */
DL_NODISCARD dl_status dl_sql_dml_partition_key(const dl_delta_snapshot *snap,
                                                const dl_delta_file *f, dl_buf *key, dl_buf *val,
                                                dl_error *err);

/* A table property being set (CREATE ... TBLPROPERTIES, ALTER ... SET TBLPROPERTIES), checked
 * as Delta checks it (dl_delta_property_check, with the session's
 * spark.databricks.delta.allowArbitraryProperties.enabled); kv->key becomes Delta's spelling
 * of a known key. The error points at the property. */
DL_NODISCARD dl_status dl_sql_dml_check_property(dl_sql_binder *b, const dl_sql_prop *prop,
                                                 dl_delta_kv *kv, dl_error *err);

/* ---- schema evolution (MERGE, as Delta's SchemaMergingUtils.mergeSchemas) ---------------- */

/* old's field with src's fields merged in: for a struct, the fields src has that old lacks
 * appended (nullable), recursively; every other type is kept as the target's (values are
 * cast to it). Every existing field's metadata kept. *out_changed set when it grew. */
DL_NODISCARD dl_status dl_sql_dml_field_merge(dl_sql_binder *b, const dl_delta_field *old,
                                              const dl_type *src, dl_delta_field *out,
                                              bool *out_changed, dl_error *err);

/* old with the columns of src (a STRUCT row type) merged in by name (ASCII case-blind): new
 * columns appended, nullable; struct columns grown by dl_sql_dml_field_merge. */
DL_NODISCARD dl_status dl_sql_dml_schema_merge(dl_sql_binder *b, const dl_delta_schema *old,
                                               const dl_type *src, dl_delta_schema *out,
                                               bool *out_changed, dl_error *err);

/* How a struct value fills a struct column's fields it lacks (Delta's
 * TargetOnlyStructFieldBehavior): an error (no schema evolution), NULL, or the target row's
 * value (UPDATE SET * with evolution). */
typedef enum dl_sql_dml_assign_mode {
    DL_SQL_DML_ASSIGN_EXACT,
    DL_SQL_DML_ASSIGN_NULLIFY,
    DL_SQL_DML_ASSIGN_PRESERVE,
} dl_sql_dml_assign_mode;

/* Where an assigned value is written: column of table, for the write's cast (NULL column: a
 * value deltalite made itself, cast as the binder casts). */
typedef struct dl_sql_dml_dest {
    const char *column;
    const char *table;
} dl_sql_dml_dest;

/* v as a value of column type t: structs field by field by name (ASCII case-blind; a NULL
 * struct stays NULL; fields t lacks fail unless mode allows them, see above; old is the
 * target's value or NULL), everything else cast as a write to dest casts it
 * (dl_sql_binder_store_cast: spark.sql.storeAssignmentPolicy). */
DL_NODISCARD dl_status dl_sql_dml_assign_value(dl_sql_binder *b, dl_sql_bexpr *v, const dl_type *t,
                                               dl_sql_bexpr *old, dl_sql_dml_assign_mode mode,
                                               dl_sql_dml_dest dest, uint32_t loc,
                                               dl_sql_bexpr **out, dl_error *err);

/* ---- type widening (sql_dml_widen.c) ---------------------------------------------------- */

/* Whether Delta widens a column of type from to type to (PROTOCOL.md "Type Widening"). */
bool dl_sql_widen_is_supported(const dl_type *from, const dl_type *to);

/* f changed to type to by ALTER COLUMN ... TYPE on t: the type and delta.typeChanges in its
 * metadata; DELTA_UNSUPPORTED_ALTER_TABLE_CHANGE_COL_OP (DL_ERR_UNSUPPORTED at loc) when the
 * table does not enable type widening or the change is not a supported widening. */
DL_NODISCARD dl_status dl_sql_widen_field(dl_sql_binder *b, const dl_sql_dml_target *t,
                                          const dl_delta_field *f, const dl_type *to, uint32_t loc,
                                          dl_delta_field *out, dl_error *err);

/* schema as metaData.schemaString, in the statement arena. */
DL_NODISCARD dl_status dl_sql_dml_schema_string(dl_sql_binder *b, const dl_delta_schema *schema,
                                                const char **out, dl_error *err);

/* ---- the files a statement reads and rewrites (sql_dml_files.c) ---------------------------- */

/* A DELETE, UPDATE or MERGE's files, indexed like the snapshot's live files. */
typedef struct dl_sql_dml_files {
    /* The candidates, one unit per file, read with the conjuncts as the Parquet filter: row
     * groups and pages that cannot match are skipped, so it finds matching rows only and must
     * never be the source of rows copied into a rewritten file (dl_sql_dml_files_copy_scan). */
    dl_delta_scan *scan;
    size_t n_files;      /* live files of the target's snapshot */
    uint8_t *candidates; /* per live file: 1 for a candidate (a scan's file_set) */
    uint8_t *touched;    /* per live file: 1 when it holds a row the statement changes */
    int64_t n_touched;   /* files marked in touched */
    void *read_pred;     /* the partitions the candidates' conjuncts allow (sql_dml_files.c) */
} dl_sql_dml_files;

/* Whether e is a plain reference to one of t's partition columns; whether constant e compares
 * exactly with column col's partition values (the same type, one the scan compares exactly). */
bool dl_sql_dml_is_partition_ref(const dl_sql_dml_target *t, const dl_sql_bexpr *e);
bool dl_sql_dml_is_exact_const(const dl_sql_bexpr *e, const dl_sql_bexpr *col);

/* The top-level conjuncts of cond (NULL: none) that read only t's columns (indexes below its
 * column count) and have no subquery: what may skip t's files. In the statement arena. */
DL_NODISCARD dl_status dl_sql_dml_target_conjuncts(dl_sql_binder *b, const dl_sql_dml_target *t,
                                                   dl_sql_bexpr *cond, dl_sql_bexpr ***out,
                                                   int32_t *out_n, dl_error *err);

/* Plans the candidates: the live files of t's snapshot the Delta scan keeps for conjs (over
 * t's columns; none: every file), read through files->scan with every column when
 * with_columns, else with none; and the read predicate of conjs. conjs are not kept; the scan
 * is freed with the statement. */
DL_NODISCARD dl_status dl_sql_dml_files_plan(dl_sql_binder *b, const dl_sql_dml_target *t,
                                             dl_sql_bexpr **conjs, int32_t n_conjs,
                                             bool with_columns, dl_sql_dml_files *files,
                                             dl_error *err);

/* A scan of every column and every live row of the touched files, with no predicate: what a
 * rewrite copies from (a rewritten file is copied whole; skipping may choose the files, never
 * the rows that survive). Freed with the statement. */
DL_NODISCARD dl_status dl_sql_dml_files_copy_scan(dl_sql_binder *b, const dl_sql_dml_target *t,
                                                  const dl_sql_dml_files *files,
                                                  dl_delta_scan **out, dl_error *err);

/* Marks live file `file` touched. */
void dl_sql_dml_files_touch(dl_sql_dml_files *files, size_t file);

/* Runs plan and marks touched the file (INT column file_col, a scan's file index) of every
 * row whose BIGINT code (code_col) is in touch_mask (bit per code) or, when present_col >= 0,
 * whose present_col is not NULL. */
DL_NODISCARD dl_status dl_sql_dml_files_find(dl_sql_binder *b, dl_sql_plan *plan, int32_t file_col,
                                             int32_t code_col, uint32_t touch_mask,
                                             int32_t present_col, dl_sql_dml_files *files,
                                             dl_error *err);

/* Files a statement removed: how many, their bytes, and how many had a deletion vector
 * (Spark's numDeletionVectorsRemoved counts those too). */
typedef struct dl_sql_dml_removed {
    int64_t n_files;
    int64_t n_bytes;
    int64_t n_dvs;
} dl_sql_dml_removed;

/* Stages a remove of every touched file; *out what they were. */
DL_NODISCARD dl_status dl_sql_dml_files_remove(const dl_sql_dml_target *t, dl_delta_tx *tx,
                                               const dl_sql_dml_files *files,
                                               dl_sql_dml_removed *out, dl_error *err);

/* Records in tx what the statement read: every candidate file, and the partitions its
 * conjuncts `p = constant` / `p IN (constants)` allow (sql_dml_files.c). */
DL_NODISCARD dl_status dl_sql_dml_files_record_reads(dl_delta_tx *tx, const dl_sql_dml_files *files,
                                                     dl_error *err);

/* What dl_sql_dml_replace_rows took away: rows where the condition held, rows of the same
 * files written back, and the files removed. */
typedef struct dl_sql_dml_replaced {
    int64_t n_deleted;
    int64_t n_copied;
    dl_sql_dml_removed removed;
} dl_sql_dml_replaced;

/* Stages in tx the removal of t's rows where where (over t's columns, no subquery) is TRUE,
 * by copy-on-write: each live file holding such a row is removed and its other rows written
 * through w (sql_dml_replace.c). The candidates are recorded as read. */
DL_NODISCARD dl_status dl_sql_dml_replace_rows(dl_sql_binder *b, const dl_sql_dml_target *t,
                                               const dl_sql_expr *where, dl_delta_tx *tx,
                                               dl_ops_writer *w, dl_sql_dml_replaced *out,
                                               dl_error *err);

/* A PROJECT over plan (whose first columns are t's) of t's columns and a BIGINT action code:
 * 1 where cond (over plan) is TRUE, else 0 (sql_dml_replace.c). */
DL_NODISCARD dl_status dl_sql_dml_project_code(dl_sql_binder *b, const dl_sql_dml_target *t,
                                               dl_sql_plan *plan, dl_sql_bexpr *cond, uint32_t loc,
                                               dl_sql_plan **out, dl_error *err);

/* Commits tx; on failure aborts writer (may be NULL) so its files go. Frees both. */
DL_NODISCARD dl_status dl_sql_dml_commit(dl_delta_tx *tx, dl_ops_writer *writer, dl_error *err);

/* Frees tx and aborts and frees writer (a failed statement). */
/* dl_sql_dml_commit for the statements that return counts (INSERT, DELETE, UPDATE, MERGE,
 * RESTORE): their result row is read from tx's operationMetrics as it commits. */
DL_NODISCARD dl_status dl_sql_dml_commit_counted(dl_sql_binder *b, dl_delta_tx *tx,
                                                 dl_ops_writer *writer, dl_error *err);

void dl_sql_dml_discard(dl_delta_tx *tx, dl_ops_writer *writer);

/* The SQL text of an expression (canonical printer), in the statement arena; "" on failure. */
const char *dl_sql_dml_expr_text(dl_sql_binder *b, const dl_sql_expr *e);

/* operationParameters[key] = a JSON array of the strings items[0..n) as a JSON string, as
 * Spark writes "predicate" ("[\"(id > 1)\"]") and "zOrderBy" ("[]"). */
/* items[0..n) as a JSON list of strings (["a","b"]), in the statement arena. */
DL_NODISCARD dl_status dl_sql_dml_json_list(dl_sql_binder *b, const char *const *items, int32_t n,
                                            const char **out, dl_error *err);

DL_NODISCARD dl_status dl_sql_dml_param_array(dl_sql_binder *b, dl_delta_tx *tx, const char *key,
                                              const char *const *items, int32_t n, dl_error *err);

/* One operationMetrics entry. */
typedef struct dl_sql_dml_metric {
    const char *key;
    int64_t value;
} dl_sql_dml_metric;

/* Sets operationMetrics from metrics[0..n), in that order. */
DL_NODISCARD dl_status dl_sql_dml_set_metrics(dl_delta_tx *tx, const dl_sql_dml_metric *metrics,
                                              size_t n, dl_error *err);

/* A monotonic clock in ms, for the *TimeMs metrics. */
int64_t dl_sql_dml_clock_ms(void);

/* The wall clock in ms since the epoch (0 when it cannot be read). */
int64_t dl_sql_dml_now_ms(void);

/* The table a CREATE TABLE statement makes (sql_dml_create.c): its folder (in the warehouse
 * by name, or delta.`/path`), opened with its latest snapshot when it exists (t.snap NULL
 * otherwise; t.schema unset); mode says whether it is created or replaced; is_skipped when
 * IF NOT EXISTS meets an existing table or view. Existence errors as CREATE TABLE's. */
typedef struct dl_sql_dml_new_table {
    dl_sql_dml_target t;
    bool is_path;
    bool is_skipped;
    dl_delta_create_mode mode;
} dl_sql_dml_new_table;

DL_NODISCARD dl_status dl_sql_dml_create_target(dl_sql_binder *b, const dl_sql_stmt *stmt,
                                                dl_sql_dml_new_table *out, dl_error *err);

/* CREATE [OR REPLACE] TABLE [IF NOT EXISTS] t SHALLOW|DEEP CLONE src (sql_clone.c): one
 * result row in *out. */
DL_NODISCARD dl_status dl_sql_dml_clone(dl_sql_binder *b, const dl_sql_stmt *stmt,
                                        dl_sql_plan **out, dl_error *err);

/* CONVERT TO DELTA parquet.`path` [NO STATISTICS] [PARTITIONED BY (...)] (sql_convert.c). */
DL_NODISCARD dl_status dl_sql_dml_convert(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_error *err);

/* The statements (sql_dml_create.c, sql_dml_insert.c, sql_dml_rewrite.c, sql_dml_merge.c,
 * sql_dml_restore.c, sql_dml_alter.c, sql_dml_vacuum.c, sql_dml_optimize.c). */
DL_NODISCARD dl_status dl_sql_dml_create(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_error *err);
DL_NODISCARD dl_status dl_sql_dml_insert(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_error *err);

/* What a statement built on INSERT (COPY INTO) adds to its commit: stage sets the operation
 * and its parameters and stages extra actions (instead of INSERT's WRITE parameters); the
 * commit is made even when no row is written. */
typedef struct dl_sql_insert_hook {
    dl_status (*stage)(void *ctx, dl_delta_tx *tx, dl_error *err);
    void *ctx;
} dl_sql_insert_hook;

/* INSERT (stmt is an INSERT statement) with hook (NULL: a plain INSERT). */
DL_NODISCARD dl_status dl_sql_dml_insert_with(dl_sql_binder *b, const dl_sql_stmt *stmt,
                                              const dl_sql_insert_hook *hook, dl_error *err);

/* COPY INTO (sql_copy_into.c). */
DL_NODISCARD dl_status dl_sql_dml_copy_into(dl_sql_binder *b, const dl_sql_stmt *stmt,
                                            dl_error *err);
DL_NODISCARD dl_status dl_sql_dml_delete(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_error *err);
DL_NODISCARD dl_status dl_sql_dml_update(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_error *err);
DL_NODISCARD dl_status dl_sql_dml_merge(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_error *err);
DL_NODISCARD dl_status dl_sql_dml_restore(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_error *err);
DL_NODISCARD dl_status dl_sql_dml_alter(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_error *err);

/* ALTER TABLE t RENAME COLUMN / DROP COLUMN[S] on a table with column mapping
 * (sql_dml_colmap.c). */
DL_NODISCARD dl_status dl_sql_dml_alter_colmap(dl_sql_binder *b, const dl_sql_stmt *stmt,
                                               dl_error *err);
/* VACUUM returns rows (the table's path; DRY RUN: the files it would delete) in *out. */
DL_NODISCARD dl_status dl_sql_dml_vacuum(dl_sql_binder *b, const dl_sql_stmt *stmt,
                                         dl_sql_plan **out, dl_error *err);
/* OPTIMIZE returns one row (the table's path and the metrics struct) in *out. */
DL_NODISCARD dl_status dl_sql_dml_optimize(dl_sql_binder *b, const dl_sql_stmt *stmt,
                                           dl_sql_plan **out, dl_error *err);

/* SET, RESET, USE, CREATE SCHEMA, SHOW: run now; *out a plan of the rows to show, or NULL. */
DL_NODISCARD dl_status dl_sql_exec_admin(dl_sql_binder *b, const dl_sql_stmt *stmt,
                                         dl_sql_plan **out, dl_error *err);

/* CREATE [OR REPLACE] [GLOBAL] [TEMP] VIEW (sql_view_ddl.c). */
DL_NODISCARD dl_status dl_sql_exec_create_view(dl_sql_binder *b, const dl_sql_stmt *stmt,
                                               dl_error *err);

/* DROP TABLE / VIEW / SCHEMA (sql_view_ddl.c); *out a notice row or NULL. */
DL_NODISCARD dl_status dl_sql_exec_drop(dl_sql_binder *b, const dl_sql_stmt *stmt,
                                        dl_sql_plan **out, dl_error *err);

/* SHOW VIEWS [IN schema] [LIKE pattern] (sql_view_ddl.c). */
DL_NODISCARD dl_status dl_sql_show_views(dl_sql_binder *b, const dl_sql_stmt *stmt,
                                         dl_sql_plan **out, dl_error *err);

/* TRUNCATE TABLE t (sql_truncate.c). */
DL_NODISCARD dl_status dl_sql_dml_truncate(dl_sql_binder *b, const dl_sql_stmt *stmt,
                                           dl_error *err);

/* CACHE [LAZY] TABLE, UNCACHE TABLE, REFRESH TABLE, CLEAR CACHE, ANALYZE TABLE: the table is
 * checked to exist, nothing else is done, and a one-row notice says so (sql_admin.c). */
DL_NODISCARD dl_status dl_sql_exec_cache(dl_sql_binder *b, const dl_sql_stmt *stmt,
                                         dl_sql_plan **out, dl_error *err);

/* A one-row result, column `result`, holding text (a statement's notice). */
DL_NODISCARD dl_status dl_sql_notice(dl_sql_binder *b, const char *text, dl_sql_plan **out,
                                     dl_error *err);

/* Spark's SHOW ... LIKE pattern ('*' any run, '|' alternatives, case-blind). */
bool dl_sql_show_pattern_match(const char *pattern, const char *name);

/* COPY (query) TO 'file': runs now; *out NULL or a one-row plan with the row count. */
DL_NODISCARD dl_status dl_sql_exec_copy(dl_sql_binder *b, const dl_sql_stmt *stmt,
                                        dl_sql_plan **out, dl_error *err);

#endif /* DL_SQL_SQL_DML_H */
