/* SPDX-License-Identifier: Apache-2.0 */
/*
 * INSERT INTO / INSERT OVERWRITE [TABLE] t [(columns) | BY NAME] query (sql_dml.h).
 *
 * Columns are matched as Spark's INSERT matches them: by position without a column list;
 * by name with one (columns left out are NULL) or with BY NAME. Values are cast to the
 * table's types with the session's store-assignment rules; a column the table lacks fails
 * naming it, unless spark.databricks.delta.schema.autoMerge.enabled is true, when it is added
 * to the table's schema (nullable, at the end) in the same commit.
 *
 * INSERT OVERWRITE replaces the whole table (static mode, the default), or, in dynamic
 * partition overwrite mode -- the statement's option WITH ('partitionOverwriteMode' =
 * 'dynamic'), else the session's spark.sql.sources.partitionOverwriteMode -- only the
 * partitions the inserted rows fall in, as Delta's WriteIntoDelta: the live files whose
 * partition values (compared as typed values, NULL equal to NULL) are those of a written file
 * are removed, and the transaction reads those partitions (files added to them concurrently
 * conflict); static mode reads the whole table. A table without partition columns is replaced
 * whole in either mode, as in Delta; an empty insert in dynamic mode removes nothing.
 *
 * commitInfo: WRITE with mode Append / Overwrite, partitionBy, isDynamicPartitionOverwrite
 * (true when dynamic mode is in force, as Delta records it) and canMergeSchema (true under
 * autoMerge); metrics numFiles, numOutputRows, numOutputBytes, and for an overwrite
 * numRemovedFiles and numRemovedBytes.
 */
#include <inttypes.h>
#include <string.h>

#include "sql/commands/sql_dml.h"

/* A column of the table matching name (ASCII case-blind), or -1. */
static int32_t
table_column(const dl_type *schema, dl_str name) {
    for (int32_t i = 0; i < schema->n_fields; i++) {
        if (dl_str_eq_nocase(dl_str_from_cstr(schema->fields[i].name), name)) {
            return i;
        }
    }
    return -1;
}

static bool
is_auto_merge(const dl_sql_binder *b) {
    const char *v =
        dl_sql_session_get(b->session, "spark.databricks.delta.schema.autoMerge.enabled");
    return v != NULL && dl_str_eq_nocase(dl_str_from_cstr(v), DL_STR("true"));
}

/* The table's schema grown by the query's columns named in names that it lacks (every
 * existing column's metadata kept). */
static dl_status
evolve_schema(dl_sql_binder *b, dl_sql_dml_target *t, const dl_sql_plan *q,
              const dl_sql_ident *names, int32_t n, dl_delta_schema *out, bool *out_changed,
              dl_error *err) {
    dl_type_field *fields = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(*fields));
    DL_CHECK(fields != NULL, err, DL_ERR_NOMEM, "out of memory evolving a schema");
    int32_t n_new = 0;
    for (int32_t i = 0; i < n; i++) {
        if (table_column(t->schema, names[i].name) >= 0) {
            continue;
        }
        fields[n_new++] = (dl_type_field){
            .name = dl_arena_strndup(b->arena, names[i].name.ptr, names[i].name.len),
            .type = q->schema->fields[i].type,
            .is_nullable = true};
        DL_CHECK(fields[n_new - 1].name != NULL, err, DL_ERR_NOMEM, "out of memory");
    }
    *out_changed = n_new > 0;
    if (!*out_changed) {
        return DL_OK;
    }
    const dl_type *added = NULL;
    dl_delta_schema added_ds;
    DL_TRY(dl_vec_type_struct(b->arena, fields, n_new, &added, err));
    DL_TRY(dl_delta_schema_from_type(added, b->arena, &added_ds, err));
    dl_sql_dml_new_col *cols = dl_arena_alloc_zero(b->arena, (size_t)n_new * sizeof(*cols));
    DL_CHECK(cols != NULL, err, DL_ERR_NOMEM, "out of memory evolving a schema");
    for (int32_t i = 0; i < n_new; i++) {
        cols[i].field = added_ds.fields[i];
    }
    DL_TRY(dl_sql_dml_schema_grow(b, dl_delta_snapshot_schema(t->snap), cols, n_new, out, err));
    t->schema = out->type;
    return DL_OK;
}

/* The new metaData for an evolved schema (everything else as it was). */
static dl_status
stage_schema(dl_sql_binder *b, const dl_sql_dml_target *t, const dl_delta_schema *ds,
             dl_delta_tx *tx, dl_error *err) {
    dl_delta_metadata md = *dl_delta_snapshot_metadata(t->snap);
    DL_TRY(dl_sql_dml_schema_string(b, ds, &md.schema_string, err));
    return dl_delta_tx_set_metadata(tx, &md, err);
}

/*
 * The PARTITION clause resolved against the table. A column given a value is static: the
 * query does not give it, every row gets the value (a constant appended after the query's
 * columns), and an overwrite replaces only the rows with that value, as Spark's
 * OverwriteByExpression and Delta's replaceWhere do. A column listed without a value, or not
 * listed, is dynamic: the query gives it.
 */
typedef struct part_spec {
    int32_t *fixed; /* per table column (n_fixed): the plan column of its value, or -1 */
    int32_t n_fixed;
    int32_t n_static;
    int32_t n_dynamic;  /* partition columns without a value */
    dl_sql_expr *where; /* static: AND of `p = v` (`p IS NULL`), or NULL */
} part_spec;

static int32_t
fixed_column(const part_spec *ps, int32_t col) {
    return col < ps->n_fixed ? ps->fixed[col] : -1;
}

/* A new expression node of kind at loc, in the statement arena. */
static dl_sql_expr *
new_expr(dl_sql_binder *b, dl_sql_expr_kind kind, uint32_t loc, uint32_t height) {
    dl_sql_expr *e = dl_arena_alloc_zero(b->arena, sizeof(*e));
    if (e != NULL) {
        e->kind = kind;
        e->loc = loc;
        e->height = height;
    }
    return e;
}

/* ps->where AND column <=> value: Spark's static delete expression (EqualNullSafe). */
static dl_status
add_static_cond(dl_sql_binder *b, part_spec *ps, const dl_sql_partition_value *v, dl_error *err) {
    dl_sql_expr *col = new_expr(b, DL_SQL_EXPR_COLUMN, v->column.loc, 1);
    dl_sql_ident *id = dl_arena_alloc_zero(b->arena, sizeof(*id));
    DL_CHECK(col != NULL && id != NULL, err, DL_ERR_NOMEM, "out of memory");
    *id = v->column;
    col->u.column.parts = id;
    col->u.column.n_parts = 1;
    uint32_t h = v->value->height + 1;
    dl_sql_expr *eq = new_expr(b, DL_SQL_EXPR_BINARY, v->column.loc, h);
    DL_CHECK(eq != NULL, err, DL_ERR_NOMEM, "out of memory");
    eq->u.binary.op = DL_SQL_OP_NSEQ;
    eq->u.binary.left = col;
    eq->u.binary.right = v->value;
    if (ps->where == NULL) {
        ps->where = eq;
        return DL_OK;
    }
    uint32_t top = (ps->where->height > h ? ps->where->height : h) + 1;
    dl_sql_expr *and = new_expr(b, DL_SQL_EXPR_BINARY, ps->where->loc, top);
    DL_CHECK(and != NULL, err, DL_ERR_NOMEM, "out of memory");
    and->u.binary.op = DL_SQL_OP_AND;
    and->u.binary.left = ps->where;
    and->u.binary.right = eq;
    ps->where = and;
    return DL_OK;
}

/* Checks the PARTITION clause against t: partition columns only, each once. */
static dl_status
resolve_partition(dl_sql_binder *b, const dl_sql_stmt *stmt, const dl_sql_dml_target *t,
                  int32_t n_q, part_spec *ps, dl_error *err) {
    const dl_sql_partition_spec *spec = &stmt->u.insert.partition;
    int32_t n = t->schema->n_fields;
    ps->fixed = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(int32_t));
    DL_CHECK(ps->fixed != NULL, err, DL_ERR_NOMEM, "out of memory");
    ps->n_fixed = n;
    uint8_t *seen = dl_arena_alloc_zero(b->arena, (size_t)n + 1);
    DL_CHECK(seen != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (int32_t i = 0; i < n; i++) {
        ps->fixed[i] = -1;
    }
    for (uint32_t i = 0; i < spec->n; i++) {
        const dl_sql_partition_value *v = &spec->items[i];
        int32_t c = table_column(t->schema, v->column.name);
        if (c < 0 || !dl_sql_dml_is_partition_column(t, c, NULL)) {
            DL_SQL_BIND_FAIL(b, v->column.loc, DL_ERR_SQL_BIND, err,
                             "[NON_PARTITION_COLUMN] PARTITION clause cannot contain the "
                             "non-partition column: `%.*s` (%s is partitioned by %d columns)",
                             DL_STR_FMT(v->column.name), t->display,
                             dl_delta_snapshot_partition_count(t->snap));
        }
        if (seen[c]) {
            DL_SQL_BIND_FAIL(b, v->column.loc, DL_ERR_SQL_BIND, err,
                             "partition column `%.*s` is listed twice in the PARTITION clause",
                             DL_STR_FMT(v->column.name));
        }
        seen[c] = 1;
        if (v->value != NULL) {
            ps->fixed[c] = n_q + ps->n_static++;
            DL_TRY(add_static_cond(b, ps, v, err));
        }
    }
    ps->n_dynamic = dl_delta_snapshot_partition_count(t->snap) - ps->n_static;
    return DL_OK;
}

/* *q with the static partition values appended as constant columns. */
static dl_status
append_static_values(dl_sql_binder *b, const dl_sql_stmt *stmt, const dl_sql_dml_target *t,
                     const part_spec *ps, dl_sql_plan **q, dl_error *err) {
    int32_t n_q = (*q)->n_cols;
    int32_t n = n_q + ps->n_static;
    dl_sql_bexpr **exprs = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(dl_sql_bexpr *));
    const char **names = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(*names));
    DL_CHECK(exprs != NULL && names != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (int32_t i = 0; i < n_q; i++) {
        exprs[i] = dl_sql_bexpr_column(b->arena, i, (*q)->schema->fields[i].type);
        DL_CHECK(exprs[i] != NULL, err, DL_ERR_NOMEM, "out of memory");
        names[i] = (*q)->schema->fields[i].name;
    }
    const dl_sql_partition_spec *spec = &stmt->u.insert.partition;
    dl_sql_scope none = {0};
    dl_sql_bctx cx = {.b = b, .scope = &none, .clause = "PARTITION"};
    for (uint32_t i = 0; i < spec->n; i++) {
        const dl_sql_partition_value *v = &spec->items[i];
        int32_t c = table_column(t->schema, v->column.name);
        if (v->value == NULL) {
            continue;
        }
        DL_TRY(dl_sql_binder_expr(&cx, v->value, &exprs[ps->fixed[c]], err));
        names[ps->fixed[c]] = t->schema->fields[c].name;
    }
    return dl_sql_plan_project(b, *q, exprs, names, n, q, err);
}

/* map[i]: the query column for table column i. */
static dl_status
map_columns(dl_sql_binder *b, const dl_sql_stmt *stmt, bool is_merge_schema, dl_sql_dml_target *t,
            const dl_sql_plan *q, const part_spec *ps, int32_t **out_map, dl_delta_schema *evolved,
            dl_error *err) {
    const dl_sql_ident_list *cols = &stmt->u.insert.columns;
    bool by_name = stmt->u.insert.by_name;
    int32_t n_q = q->n_cols - ps->n_static;
    dl_sql_ident *names = NULL;
    int32_t n_names = 0;
    bool is_evolved = false;
    if (stmt->u.insert.has_columns || by_name) {
        n_names = by_name ? n_q : (int32_t)cols->n;
        names = dl_arena_alloc_zero(b->arena, (size_t)(n_names + 1) * sizeof(dl_sql_ident));
        DL_CHECK(names != NULL, err, DL_ERR_NOMEM, "out of memory");
        for (int32_t i = 0; i < n_names; i++) {
            names[i] = by_name ? (dl_sql_ident){.name = dl_str_from_cstr(q->schema->fields[i].name),
                                                .loc = stmt->loc}
                               : cols->items[i];
        }
        if (n_names != n_q) {
            DL_SQL_BIND_FAIL(b, stmt->loc, DL_ERR_SCHEMA, err,
                             "cannot write to %s: %d columns are listed but the query gives %d",
                             t->display, n_names, n_q);
        }
        if (is_merge_schema) {
            DL_TRY(evolve_schema(b, t, q, names, n_names, evolved, &is_evolved, err));
        }
    }
    int32_t n = t->schema->n_fields;
    int32_t *map = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(int32_t));
    DL_CHECK(map != NULL, err, DL_ERR_NOMEM, "out of memory");
    if (names == NULL) {
        if (n_q != n - ps->n_static) {
            DL_SQL_BIND_FAIL(b, stmt->loc, DL_ERR_SCHEMA, err,
                             n_q < n ? "[DELTA_INSERT_COLUMN_ARITY_MISMATCH] Cannot write to %s, "
                                       "not enough data columns: the table has %d columns but the "
                                       "query gives %d"
                                     : "[DELTA_METADATA_MISMATCH] A schema mismatch detected when "
                                       "writing to %s: the table has %d columns but the query "
                                       "gives %d (to add the new columns: SET "
                                       "spark.databricks.delta.schema.autoMerge.enabled = true)",
                             t->display, n - ps->n_static, n_q);
        }
        for (int32_t i = 0, next = 0; i < n; i++) {
            map[i] = fixed_column(ps, i) >= 0 ? fixed_column(ps, i) : next++;
        }
        *out_map = map;
        return DL_OK;
    }
    for (int32_t i = 0; i < n; i++) {
        map[i] = fixed_column(ps, i);
    }
    for (int32_t i = 0; i < n_names; i++) {
        int32_t c = table_column(t->schema, names[i].name);
        if (c < 0) {
            DL_SQL_BIND_FAIL(
                b, names[i].loc, DL_ERR_SCHEMA, err,
                "cannot write to %s: it has no column '%.*s' (columns: schema "
                "evolution needs spark.databricks.delta.schema.autoMerge.enabled or the "
                "mergeSchema option)",
                t->display, DL_STR_FMT(names[i].name));
        }
        if (fixed_column(ps, c) >= 0) {
            DL_SQL_BIND_FAIL(b, names[i].loc, DL_ERR_SCHEMA, err,
                             "[STATIC_PARTITION_COLUMN_IN_INSERT_COLUMN_LIST] Static partition "
                             "column `%.*s` is also specified in the column list",
                             DL_STR_FMT(names[i].name));
        }
        if (map[c] >= 0) {
            DL_SQL_BIND_FAIL(b, names[i].loc, DL_ERR_SCHEMA, err, "column '%.*s' is listed twice",
                             DL_STR_FMT(names[i].name));
        }
        map[c] = i;
    }
    *out_map = map;
    return DL_OK;
}

/* The statement's write options (Delta's DeltaOptions, keys in any case) over the session's
 * settings: partitionOverwriteMode (spark.sql.sources.partitionOverwriteMode) and mergeSchema
 * (spark.databricks.delta.schema.autoMerge.enabled). Other options are refused, not ignored. */
typedef struct write_opts {
    bool is_dynamic;      /* dynamic partition overwrite mode */
    bool is_merge_schema; /* new columns are added to the table */
} write_opts;

static dl_status
read_options(dl_sql_binder *b, const dl_sql_stmt *stmt, write_opts *out, dl_error *err) {
    const dl_sql_prop_list *opts = &stmt->u.insert.options;
    dl_str mode = dl_str_from_cstr(
        dl_sql_session_get(b->session, "spark.sql.sources.partitionOverwriteMode"));
    out->is_merge_schema = is_auto_merge(b);
    for (uint32_t i = 0; i < opts->n; i++) {
        const dl_sql_prop *o = &opts->items[i];
        bool is_mode = dl_str_eq_nocase(o->key, DL_STR("partitionOverwriteMode"));
        if (!is_mode && !dl_str_eq_nocase(o->key, DL_STR("mergeSchema"))) {
            DL_SQL_BIND_FAIL(b, o->loc, DL_ERR_UNSUPPORTED, err,
                             "INSERT write option '%.*s' is not supported (INSERT takes "
                             "'partitionOverwriteMode' and 'mergeSchema')",
                             DL_STR_FMT(o->key));
        }
        dl_str v = dl_str_trim(o->value);
        bool is_valid =
            is_mode
                ? dl_str_eq_nocase(v, DL_STR("static")) || dl_str_eq_nocase(v, DL_STR("dynamic"))
                : dl_str_eq_nocase(v, DL_STR("true")) || dl_str_eq_nocase(v, DL_STR("false"));
        if (!is_valid) {
            DL_SQL_BIND_FAIL(b, o->loc, DL_ERR_DATA, err,
                             "[DELTA_ILLEGAL_OPTION] Invalid value '%.*s' for option '%.*s', "
                             "must be %s",
                             DL_STR_FMT(o->value), DL_STR_FMT(o->key),
                             is_mode ? "'STATIC' or 'DYNAMIC'" : "'true' or 'false'");
        }
        if (is_mode) {
            mode = v;
        } else {
            out->is_merge_schema = dl_str_eq_nocase(v, DL_STR("true"));
        }
    }
    out->is_dynamic = dl_str_eq_nocase(mode, DL_STR("dynamic"));
    return DL_OK;
}

/* How an insert writes: what it replaces and how it says so in commitInfo. */
typedef struct insert_how {
    bool is_overwrite;        /* mode Overwrite: INSERT OVERWRITE or REPLACE WHERE */
    bool is_by_partition;     /* dynamic overwrite of a partitioned table */
    const dl_sql_expr *where; /* the rows replaced (REPLACE WHERE, a static PARTITION
                                 overwrite), or NULL: an overwrite replaces every row */
    bool is_checked;          /* every row written must satisfy where (REPLACE WHERE) */
    const write_opts *opts;
    int64_t n_removed; /* files the statement removed */
} insert_how;

static dl_status
stage_write_info(dl_sql_binder *b, dl_delta_tx *tx, const insert_how *how, dl_error *err) {
    dl_delta_tx_set_operation(tx, DL_DELTA_OP_WRITE);
    DL_TRY(dl_delta_tx_param_string(tx, "mode", how->is_overwrite ? "Overwrite" : "Append", err));
    DL_TRY(dl_delta_tx_param_string(tx, "partitionBy", "[]", err));
    if (how->where != NULL) {
        /* Delta's Write records its replaceWhere as one string (not an array), the condition's
         * SQL as Spark prints an expression: parenthesised */
        const char *text = dl_arena_printf(b->arena, "(%s)", dl_sql_dml_expr_text(b, how->where));
        DL_CHECK(text != NULL, err, DL_ERR_NOMEM, "out of memory");
        DL_TRY(dl_delta_tx_param_string(tx, "predicate", text, err));
    }
    if (how->opts->is_dynamic) {
        DL_TRY(dl_delta_tx_param_json(tx, "isDynamicPartitionOverwrite", "true", err));
    }
    if (how->opts->is_merge_schema) {
        DL_TRY(dl_delta_tx_param_json(tx, "canMergeSchema", "true", err));
    }
    return DL_OK;
}

/* The written files' partitions (keys as dl_sql_dml_partition_key makes them) in parts, each
 * read by the transaction. */
static dl_status
written_partitions(dl_sql_binder *b, const dl_ops_writer *w, dl_delta_tx *tx, dl_hmap *parts,
                   dl_buf *scratch, dl_error *err) {
    for (size_t i = 0; i < dl_ops_writer_file_count(w); i++) {
        const dl_ops_file *f = dl_ops_writer_file(w, i);
        dl_buf_reset(scratch);
        for (int32_t p = 0; p < f->n_partition_values; p++) {
            const char *v = f->partition_values[p].value;
            DL_TRY(v == NULL ? dl_buf_append_byte(scratch, 'N', err)
                             : dl_buf_appendf(scratch, err, "V%zu:%s", strlen(v), v));
        }
        if (dl_hmap_get(parts, dl_str_make((const char *)scratch->data, scratch->len), NULL)) {
            continue;
        }
        char *key = dl_arena_strndup(b->arena, (const char *)scratch->data, scratch->len);
        DL_CHECK(key != NULL, err, DL_ERR_NOMEM, "out of memory");
        DL_TRY(dl_hmap_put(parts, dl_str_make(key, scratch->len), 1, err));
        DL_TRY(dl_delta_tx_read_partition(tx, f->partition_values, f->n_partition_values, err));
    }
    return DL_OK;
}

/* Dynamic partition overwrite: removes the live files in the partitions w wrote. */
static dl_status
remove_written_partitions(dl_sql_binder *b, const dl_sql_dml_target *t, const dl_ops_writer *w,
                          dl_delta_tx *tx, int64_t *out_files, int64_t *out_bytes, dl_error *err) {
    dl_hmap parts;
    dl_hmap_init(&parts, b->exec->alloc);
    dl_buf scratch;
    dl_buf_init(&scratch, b->exec->alloc);
    dl_buf val;
    dl_buf_init(&val, b->exec->alloc);
    dl_status s = written_partitions(b, w, tx, &parts, &scratch, err);
    size_t n = dl_delta_snapshot_file_count(t->snap);
    for (size_t i = 0; i < n && s == DL_OK && parts.count > 0; i++) {
        const dl_delta_file *f = dl_delta_snapshot_file(t->snap, i);
        s = dl_sql_dml_partition_key(t->snap, f, &scratch, &val, err);
        if (s == DL_OK &&
            dl_hmap_get(&parts, dl_str_make((const char *)scratch.data, scratch.len), NULL)) {
            s = dl_delta_tx_remove_snapshot_file(tx, f, true, err);
            *out_files += 1;
            *out_bytes += f->size > 0 ? f->size : 0;
        }
    }
    dl_buf_destroy(&val);
    dl_buf_destroy(&scratch);
    dl_hmap_destroy(&parts);
    return s;
}

/* The rows of plan written through sink; with how->is_checked each must satisfy how->where
 * (over the table's columns), else DELTA_REPLACE_WHERE_MISMATCH, as Delta's replaceWhere
 * constraint check (spark.databricks.delta.replaceWhere.constraintCheck.enabled). */
static dl_status
write_new_rows(dl_sql_binder *b, dl_sql_dml_target *t, dl_sql_plan *plan, const insert_how *how,
               dl_ops_writer *w, dl_error *err) {
    dl_sql_dml_sink sink = {.writer = w, .schema = t->schema, .code_col = -1, .source_col = -1};
    if (!how->is_checked) {
        return dl_sql_dml_run(b, plan, &sink, err);
    }
    int32_t n = t->schema->n_fields;
    dl_sql_scope scope;
    DL_TRY(dl_sql_scope_of(b, plan, NULL, &scope, err));
    dl_sql_bctx cx = {.b = b, .scope = &scope, .clause = "REPLACE WHERE"};
    dl_sql_bexpr *cond = NULL;
    DL_TRY(dl_sql_binder_cond(&cx, how->where, &cond, err));
    DL_TRY(dl_sql_dml_project_code(b, t, plan, cond, how->where->loc, &plan, err));
    sink.code_col = n;
    sink.keep_mask = 1u << 1;
    DL_TRY(dl_sql_dml_run(b, plan, &sink, err));
    if (sink.counts[0] > 0) {
        dl_ops_writer_abort(w);
        DL_SQL_BIND_FAIL(b, how->where->loc, DL_ERR_CONSTRAINT, err,
                         "[DELTA_REPLACE_WHERE_MISMATCH] Written data does not conform to partial "
                         "table overwrite condition or constraint '%s' of %s: %" PRId64
                         " of the %" PRId64 " rows written do not satisfy it",
                         dl_sql_dml_expr_text(b, how->where), t->display, sink.counts[0],
                         sink.counts[0] + sink.counts[1]);
    }
    return DL_OK;
}

/* The rows written; an overwrite's removes (the whole table, the rows matching how->where,
 * or in dynamic mode of a partitioned table the partitions written) with its metrics. */
static dl_status
write_rows(dl_sql_binder *b, dl_sql_dml_target *t, dl_sql_plan *plan, insert_how *how,
           dl_delta_tx *tx, dl_ops_writer *w, dl_error *err) {
    int64_t n_files = 0;
    int64_t n_bytes = 0;
    dl_sql_dml_replaced r = {0};
    if (how->where != NULL) {
        DL_TRY(dl_sql_dml_replace_rows(b, t, how->where, tx, w, &r, err));
        n_files = r.removed.n_files;
        n_bytes = r.removed.n_bytes;
    } else if (how->is_overwrite && !how->is_by_partition) {
        dl_delta_tx_read_whole_table(tx);
        DL_TRY(dl_sql_dml_remove_all(t, tx, &n_files, &n_bytes, err));
    }
    DL_TRY(write_new_rows(b, t, plan, how, w, err));
    DL_TRY(dl_ops_writer_stage(w, tx, true, err));
    if (how->is_overwrite && how->is_by_partition) {
        DL_TRY(remove_written_partitions(b, t, w, tx, &n_files, &n_bytes, err));
    }
    how->n_removed = n_files;
    if (how->is_overwrite) {
        DL_TRY(dl_delta_tx_metric(tx, "numRemovedFiles", n_files, err));
        DL_TRY(dl_delta_tx_metric(tx, "numRemovedBytes", n_bytes, err));
    }
    if (how->where != NULL) {
        DL_TRY(dl_delta_tx_metric(tx, "numCopiedRows", r.n_copied, err));
        DL_TRY(dl_delta_tx_metric(tx, "numDeletedRows", r.n_deleted, err));
        DL_TRY(dl_delta_tx_metric(tx, "numAddedChangeFiles", 0, err));
        /* numOutputRows counts the rows inserted, not the ones copied back */
        DL_TRY(dl_delta_tx_metric(tx, "numOutputRows", dl_ops_writer_rows(w) - r.n_copied, err));
    }
    return DL_OK;
}

static dl_status
run_insert(dl_sql_binder *b, insert_how *how, dl_sql_dml_target *t, dl_sql_plan *plan,
           const dl_delta_schema *evolved, const dl_sql_insert_hook *hook, dl_delta_tx *tx,
           dl_ops_writer **out_w, dl_error *err) {
    DL_TRY(hook != NULL ? hook->stage(hook->ctx, tx, err) : stage_write_info(b, tx, how, err));
    if (evolved->type != NULL) {
        DL_TRY(stage_schema(b, t, evolved, tx, err));
    }
    dl_ops_writer *w = NULL;
    DL_TRY(dl_sql_dml_writer(b, t, tx, &w, err));
    dl_status s = write_rows(b, t, plan, how, tx, w, err);
    if (s != DL_OK) {
        dl_ops_writer_abort(w);
        dl_ops_writer_free(w);
        return s;
    }
    *out_w = w;
    return DL_OK;
}

/* REPLACE WHERE as Spark's grammar takes it: INSERT INTO t [WITH (...)] REPLACE WHERE cond
 * query, no OVERWRITE, PARTITION or column list. */
static dl_status
check_replace_where(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_error *err) {
    const dl_sql_expr *where = stmt->u.insert.replace_where;
    if (where == NULL) {
        return DL_OK;
    }
    if (stmt->u.insert.is_overwrite || stmt->u.insert.partition.n > 0 ||
        stmt->u.insert.has_columns || stmt->u.insert.by_name) {
        DL_SQL_BIND_FAIL(b, where->loc, DL_ERR_SQL_SYNTAX, err,
                         "[PARSE_SYNTAX_ERROR] REPLACE WHERE goes with INSERT INTO t REPLACE WHERE "
                         "cond query only (no OVERWRITE, PARTITION clause, column list or BY "
                         "NAME)");
    }
    return DL_OK;
}

/* What the statement replaces, from its clauses and options. */
static dl_status
plan_how(dl_sql_binder *b, const dl_sql_stmt *stmt, const dl_sql_dml_target *t, const part_spec *ps,
         const write_opts *opts, insert_how *how, dl_error *err) {
    DL_TRY(check_replace_where(b, stmt, err));
    how->opts = opts;
    how->is_overwrite = stmt->u.insert.is_overwrite || stmt->u.insert.replace_where != NULL;
    how->is_by_partition = stmt->u.insert.is_overwrite && opts->is_dynamic &&
                           dl_delta_snapshot_partition_count(t->snap) > 0;
    how->is_checked = stmt->u.insert.replace_where != NULL;
    how->where = stmt->u.insert.replace_where;
    if (stmt->u.insert.is_overwrite && !opts->is_dynamic && ps->n_static > 0) {
        how->where = ps->where;
    }
    if (how->where != NULL && dl_sql_dml_is_cdf(t)) {
        DL_SQL_BIND_FAIL(b, how->where->loc, DL_ERR_UNSUPPORTED, err,
                         "INSERT replacing the rows where %s on %s, which has the change data "
                         "feed on, is not supported yet (the replaced rows would need change "
                         "data files)",
                         dl_sql_dml_expr_text(b, how->where), t->display);
    }
    return DL_OK;
}

dl_status
dl_sql_dml_insert(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_error *err) {
    return dl_sql_dml_insert_with(b, stmt, NULL, err);
}

dl_status
dl_sql_dml_insert_with(dl_sql_binder *b, const dl_sql_stmt *stmt, const dl_sql_insert_hook *hook,
                       dl_error *err) {
    write_opts opts = {0};
    DL_TRY(read_options(b, stmt, &opts, err));
    dl_sql_dml_target t;
    DL_TRY(dl_sql_dml_open(b, &stmt->u.insert.table, stmt->loc, &t, err));
    dl_sql_plan *q = NULL;
    DL_TRY(dl_sql_binder_query(b, stmt->u.insert.query, NULL, &q, err));
    part_spec ps = {0};
    DL_TRY(resolve_partition(b, stmt, &t, q->n_cols, &ps, err));
    insert_how how = {0};
    DL_TRY(plan_how(b, stmt, &t, &ps, &opts, &how, err));
    if (ps.n_static > 0) {
        DL_TRY(append_static_values(b, stmt, &t, &ps, &q, err));
    }
    int32_t *map = NULL;
    dl_delta_schema evolved = {0}; /* type NULL: the schema stays */
    DL_TRY(map_columns(b, stmt, opts.is_merge_schema, &t, q, &ps, &map, &evolved, err));
    dl_sql_plan *plan = NULL;
    DL_TRY(dl_sql_dml_conform(b, &t, q, map, stmt->loc, &plan, err));
    dl_delta_tx *tx = NULL;
    DL_TRY(dl_delta_tx_begin(t.table, t.snap, NULL, &tx, err));
    dl_ops_writer *w = NULL;
    dl_status s = run_insert(b, &how, &t, plan, &evolved, hook, tx, &w, err);
    if (s != DL_OK) {
        dl_delta_tx_free(tx);
        return s;
    }
    /* No rows written and no file removed (an append, a dynamic overwrite that wrote no
     * partition, an overwrite of an empty table, a replace that matched nothing): Delta has no
     * action and commits nothing (commitIfNeeded); COPY INTO commits what it loaded. */
    if (how.n_removed == 0 && evolved.type == NULL && dl_ops_writer_file_count(w) == 0 &&
        hook == NULL) {
        dl_sql_dml_discard(tx, w);
        return DL_OK;
    }
    return dl_sql_dml_commit_counted(b, tx, w, err);
}
