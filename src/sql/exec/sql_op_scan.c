/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SCAN operator (sql_plan.h, dl_sql_scan): a Delta snapshot through the Delta scan
 * (delta/delta_scan.h: files skipped by partition values and statistics, row groups by Parquet
 * statistics, deletion vectors applied, column mapping resolved), or plain Parquet files for
 * read_parquet.
 *
 * Parallel: each row group is a morsel (for Delta tables of many files, each file). Threads
 * take the next morsel from an atomic cursor, read it with their own reader, and apply the
 * scan's filters (pushed down by the optimizer) to every batch as a selection, so no row is
 * copied. Each thread keeps one Parquet scratch (parquet/pq_reader.h) across its morsels, so
 * the page and chunk buffers of one morsel are reused by the next instead of fresh memory. The
 * filters are also translated, where they have the shape `column op constant` (and AND/OR/NOT/IN/IS
 * NULL of those), into the Delta scan's predicate for skipping. A LIMIT without filters stops the
 * scan once enough rows came out.
 *
 * The file index column (DL_SQL_SCAN_FILE_INDEX, sql_plan.h) is not read: each batch gets a
 * CONST INT of its unit's file, so DML statements learn which files hold the rows they change
 * for the price of one small vector per batch. A scan with a file_set reads only those files.
 * The row index column (DL_SQL_SCAN_ROW_INDEX) is not read either: each batch gets a flat
 * BIGINT of its rows' file row numbers, from the Delta reader's first row of the batch
 * (dl_delta_scan_reader_batch_first_row), so DML statements on tables with deletion vectors
 * learn where each row they change is.
 *
 * A data file that is gone (removed by VACUUM while an old version still lists it) fails with
 * NOT_FOUND and says so.
 */
#include <string.h>

#include "base/timefmt.h"
#include "sql/exec/sql_exec_int.h"

/* Tables of at most this many files (after skipping) are read by row groups, not files, so
 * that a table of one large file still keeps every thread busy; the footers are then read at
 * planning, which for a few files costs little. */
#define ROW_GROUP_UNITS_MAX_FILES 64

/* A read_parquet morsel: one row group of one file. */
typedef struct pq_unit {
    int32_t file;
    int32_t row_group;
} pq_unit;

typedef struct scan_state {
    const dl_sql_scan *s;
    dl_delta_scan *dscan;       /* DELTA */
    dl_pq_file **pfiles;        /* PARQUET: every file, open (shared by the threads) */
    const dl_pq_field ***pcols; /* PARQUET: per file, the fields to read */
    pq_unit *punits;            /* PARQUET: the row groups */
    size_t n_units;             /* files (DELTA) or row groups (PARQUET) */
    _Atomic(int64_t) cursor;    /* next file */
    _Atomic(int64_t) emitted;   /* rows returned (for the limit) */
    const char **names;         /* DELTA: the table columns asked for */
    int32_t n_names;
    int32_t *from;                /* DELTA: per output column, its reader column or FILE_INDEX */
    size_t pq_groups_total;       /* PARQUET: row groups of the files; the rest as the readers */
    _Atomic(int64_t) pq_stats[4]; /* finish: row groups read, bytes, pages read, pages skipped */
} scan_state;

typedef struct scan_local {
    dl_pq_scratch *scratch; /* page and chunk buffers, reused from unit to unit */
    dl_delta_scan_reader *dreader;
    dl_pq_reader *preader;
    dl_batch *in;       /* what the reader fills */
    int32_t file_index; /* DELTA: the current unit's file among the snapshot's live files */
    dl_sql_eval **filters;
    int32_t n_filters;
} scan_local;

/* ---- predicates for skipping
 * --------------------------------------------------------------------- */

typedef struct pred_builder {
    dl_arena *arena;
    const dl_sql_scan *s;
} pred_builder;

/* The column a leaf reads (a plain reference, or an integer widening cast of one), or -1. */
static int32_t
leaf_column(const dl_sql_bexpr *e) {
    if (e->kind == DL_SQL_BEXPR_CAST && e->args[0]->kind == DL_SQL_BEXPR_COLUMN) {
        dl_type_id from = e->args[0]->type->id;
        dl_type_id to = e->type->id;
        bool widening =
            (from == DL_VEC_TYPE_BYTE || from == DL_VEC_TYPE_SHORT || from == DL_VEC_TYPE_INT) &&
            (to == DL_VEC_TYPE_SHORT || to == DL_VEC_TYPE_INT || to == DL_VEC_TYPE_LONG);
        return widening ? e->args[0]->index : -1;
    }
    return e->kind == DL_SQL_BEXPR_COLUMN ? e->index : -1;
}

static bool
to_scalar(const dl_vector *v, dl_delta_scalar *out) {
    memset(out, 0, sizeof(*out));
    if (dl_vec_is_null(v, 0)) {
        out->kind = DL_DELTA_SCALAR_NULL;
        return true;
    }
    const dl_vector *flat = NULL;
    int64_t i = dl_vec_resolve(v, 0, &flat);
    const void *d = flat->data;
    switch (v->type->id) {
    case DL_VEC_TYPE_BOOLEAN:
        out->kind = DL_DELTA_SCALAR_BOOL;
        out->b = dl_vec_get_bool(flat, i);
        return true;
    case DL_VEC_TYPE_BYTE:
        out->i = (int64_t)((const int8_t *)d)[i];
        break;
    case DL_VEC_TYPE_SHORT:
        out->i = ((const int16_t *)d)[i];
        break;
    case DL_VEC_TYPE_INT:
        out->i = ((const int32_t *)d)[i];
        break;
    case DL_VEC_TYPE_LONG:
        out->i = ((const int64_t *)d)[i];
        break;
    case DL_VEC_TYPE_DATE:
        out->kind = DL_DELTA_SCALAR_DATE;
        out->i = ((const int32_t *)d)[i];
        return true;
    case DL_VEC_TYPE_TIMESTAMP:
    case DL_VEC_TYPE_TIMESTAMP_NTZ:
        out->kind = DL_DELTA_SCALAR_TIMESTAMP;
        out->i = ((const int64_t *)d)[i];
        return true;
    case DL_VEC_TYPE_DOUBLE:
        out->kind = DL_DELTA_SCALAR_DOUBLE;
        out->f = ((const double *)d)[i];
        return true;
    case DL_VEC_TYPE_DECIMAL:
        out->kind = DL_DELTA_SCALAR_DECIMAL;
        out->d = ((const dl_i128 *)d)[i];
        out->scale = v->type->scale;
        return true;
    case DL_VEC_TYPE_STRING:
        out->kind = DL_DELTA_SCALAR_STRING;
        out->s = dl_vec_get_str(flat, i);
        return true;
    default:
        return false;
    }
    out->kind = DL_DELTA_SCALAR_INT;
    return true;
}

/* The table column an output column reads, as a path; NULL for the file index (never in the
 * Delta scan's predicate) or out of memory. */
static const char *const *
column_path(pred_builder *pb, int32_t col) {
    if (DL_SQL_SCAN_IS_HIDDEN(pb->s->columns[col])) {
        return NULL;
    }
    const char **path = dl_arena_alloc(pb->arena, sizeof(char *));
    if (path != NULL) {
        path[0] = pb->s->table_schema->fields[pb->s->columns[col]].name;
    }
    return path;
}

/*
 * A predicate for skipping is a bound: every row that matches e must match what is built. A
 * part that does not translate may be left out of an AND, and a bound that is wider than the
 * condition (build_zoned) may stand for it, only where that widens the whole: outside NOT. Under
 * an odd number of NOTs (negated) it is the other way round: an OR may lose a part, an AND may
 * not, and no widened bound is used.
 */
static bool build_pred(pred_builder *pb, const dl_sql_bexpr *e, bool negated, dl_delta_pred *out);

/* The most a session time zone moves a wall-clock time (java.time's bound). */
#define ZONE_MARGIN (18 * DL_MICROS_PER_HOUR)

static int64_t
sat_add(int64_t a, int64_t b) {
    int64_t r = 0;
    return __builtin_add_overflow(a, b, &r) ? (b < 0 ? INT64_MIN : INT64_MAX) : r;
}

/*
 * `CAST(c AS TIMESTAMP) op constant` for a TIMESTAMP_NTZ or DATE column c (Spark's implicit
 * cast when a wall-clock column meets a TIMESTAMP literal): the cast reads c in the session
 * time zone, so the constant is moved into c's terms by at most ZONE_MARGIN either way, on
 * the side that keeps every row that may match (a bound for skipping, not an exact filter).
 */
static bool
build_zoned(pred_builder *pb, const dl_sql_bexpr *cast, dl_delta_pred_op op, const dl_sql_bexpr *k,
            dl_delta_pred *out) {
    const dl_sql_bexpr *col = cast->args[0];
    dl_type_id from = col->type->id;
    if (cast->type->id != DL_VEC_TYPE_TIMESTAMP || col->kind != DL_SQL_BEXPR_COLUMN ||
        (from != DL_VEC_TYPE_TIMESTAMP_NTZ && from != DL_VEC_TYPE_DATE) ||
        k->kind != DL_SQL_BEXPR_CONST || dl_vec_is_null(k->value, 0)) {
        return false;
    }
    dl_delta_scalar c;
    if (!to_scalar(k->value, &c) || c.kind != DL_DELTA_SCALAR_TIMESTAMP) {
        return false;
    }
    bool lower = op == DL_DELTA_PRED_GT || op == DL_DELTA_PRED_GE;
    bool upper = op == DL_DELTA_PRED_LT || op == DL_DELTA_PRED_LE;
    if (op == DL_DELTA_PRED_EQ) {
        dl_delta_pred *two = dl_arena_alloc_zero(pb->arena, 2 * sizeof(*two));
        if (two == NULL || !build_zoned(pb, cast, DL_DELTA_PRED_GE, k, &two[0]) ||
            !build_zoned(pb, cast, DL_DELTA_PRED_LE, k, &two[1])) {
            return false;
        }
        *out = (dl_delta_pred){.op = DL_DELTA_PRED_AND, .children = two, .n_children = 2};
        return true;
    }
    dl_delta_scalar *v = dl_arena_alloc_zero(pb->arena, sizeof(*v));
    if ((!lower && !upper) || v == NULL) {
        return false;
    }
    int64_t bound = sat_add(c.i, lower ? -ZONE_MARGIN : ZONE_MARGIN);
    *v = c;
    if (from == DL_VEC_TYPE_DATE) {
        v->kind = DL_DELTA_SCALAR_DATE;
        v->i = dl_floor_div(bound, DL_MICROS_PER_DAY) + (lower ? 0 : 1);
    } else {
        v->i = bound;
    }
    *out = (dl_delta_pred){.op = lower ? DL_DELTA_PRED_GE : DL_DELTA_PRED_LE,
                           .column = column_path(pb, col->index),
                           .n_column = 1,
                           .values = v,
                           .n_values = 1};
    return out->column != NULL;
}

static bool
build_compare(pred_builder *pb, const dl_sql_bexpr *e, bool negated, dl_delta_pred *out) {
    static const struct {
        const char *name;
        dl_delta_pred_op op;
        dl_delta_pred_op flipped;
    } ops[] = {
        {"=", DL_DELTA_PRED_EQ, DL_DELTA_PRED_EQ},  {"==", DL_DELTA_PRED_EQ, DL_DELTA_PRED_EQ},
        {"<>", DL_DELTA_PRED_NE, DL_DELTA_PRED_NE}, {"<", DL_DELTA_PRED_LT, DL_DELTA_PRED_GT},
        {"<=", DL_DELTA_PRED_LE, DL_DELTA_PRED_GE}, {">", DL_DELTA_PRED_GT, DL_DELTA_PRED_LT},
        {">=", DL_DELTA_PRED_GE, DL_DELTA_PRED_LE},
    };

    if (e->n_args != 2) {
        return false;
    }
    for (size_t i = 0; i < DL_ARRAY_LEN(ops); i++) {
        if (strcmp(e->fn->name, ops[i].name) != 0) {
            continue;
        }
        int32_t c = leaf_column(e->args[0]);
        const dl_sql_bexpr *k = e->args[1];
        dl_delta_pred_op op = ops[i].op;
        if (c < 0 && e->args[0]->kind == DL_SQL_BEXPR_CAST) {
            return !negated && build_zoned(pb, e->args[0], op, k, out);
        }
        if (c < 0) {
            c = leaf_column(e->args[1]);
            k = e->args[0];
            op = ops[i].flipped;
        }
        if (c < 0 && e->args[1]->kind == DL_SQL_BEXPR_CAST) {
            return !negated && build_zoned(pb, e->args[1], op, k, out);
        }
        dl_delta_scalar *v = dl_arena_alloc_zero(pb->arena, sizeof(*v));
        if (c < 0 || k->kind != DL_SQL_BEXPR_CONST || v == NULL || !to_scalar(k->value, v)) {
            return false;
        }
        *out = (dl_delta_pred){
            .op = op, .column = column_path(pb, c), .n_column = 1, .values = v, .n_values = 1};
        return out->column != NULL;
    }
    return false;
}

static bool
build_children(pred_builder *pb, const dl_sql_bexpr *e, dl_delta_pred_op op, bool negated,
               dl_delta_pred *out) {
    dl_delta_pred *kids = dl_arena_alloc_zero(pb->arena, (size_t)e->n_args * sizeof(*kids));
    if (kids == NULL) {
        return false;
    }
    bool kids_negated = op == DL_DELTA_PRED_NOT ? !negated : negated;
    bool may_drop = op == (negated ? DL_DELTA_PRED_OR : DL_DELTA_PRED_AND);
    size_t n = 0;
    for (int32_t i = 0; i < e->n_args; i++) {
        if (build_pred(pb, e->args[i], kids_negated, &kids[n])) {
            n++;
        } else if (!may_drop) {
            return false; /* e.g. an OR, or an AND under NOT, with an unknown part */
        }
    }
    if (n == 0) {
        return false;
    }
    *out = (dl_delta_pred){.op = op, .children = kids, .n_children = n};
    return true;
}

static bool
build_in(pred_builder *pb, const dl_sql_bexpr *e, dl_delta_pred *out) {
    int32_t c = leaf_column(e->args[0]);
    dl_delta_scalar *v = dl_arena_alloc_zero(pb->arena, (size_t)e->n_args * sizeof(*v));
    if (c < 0 || v == NULL || e->is_not) {
        return false;
    }
    for (int32_t i = 1; i < e->n_args; i++) {
        if (e->args[i]->kind != DL_SQL_BEXPR_CONST || !to_scalar(e->args[i]->value, &v[i - 1])) {
            return false;
        }
    }
    *out = (dl_delta_pred){.op = DL_DELTA_PRED_IN,
                           .column = column_path(pb, c),
                           .n_column = 1,
                           .values = v,
                           .n_values = (size_t)e->n_args - 1};
    return out->column != NULL;
}

static bool
build_pred(pred_builder *pb, const dl_sql_bexpr *e, bool negated, dl_delta_pred *out) {
    switch (e->kind) {
    case DL_SQL_BEXPR_AND:
        return build_children(pb, e, DL_DELTA_PRED_AND, negated, out);
    case DL_SQL_BEXPR_OR:
        return build_children(pb, e, DL_DELTA_PRED_OR, negated, out);
    case DL_SQL_BEXPR_NOT:
        return build_children(pb, e, DL_DELTA_PRED_NOT, negated, out);
    case DL_SQL_BEXPR_CALL:
        return build_compare(pb, e, negated, out);
    case DL_SQL_BEXPR_IN_LIST:
        return build_in(pb, e, out);
    case DL_SQL_BEXPR_IS: {
        int32_t c = leaf_column(e->args[0]);
        if (c < 0 || e->is_kind != DL_SQL_BIS_NULL) {
            return false;
        }
        *out = (dl_delta_pred){.op = e->is_not ? DL_DELTA_PRED_IS_NOT_NULL : DL_DELTA_PRED_IS_NULL,
                               .column = column_path(pb, c),
                               .n_column = 1};
        return out->column != NULL;
    }
    default:
        return false;
    }
}

/* The scan's filters as one predicate (NULL when none translates). */
const dl_delta_pred *
dl_sql_scan_predicate(dl_arena *arena, const dl_sql_scan *s) {
    pred_builder pb = {.arena = arena, .s = s};
    dl_delta_pred *kids = dl_arena_alloc_zero(arena, (size_t)(s->n_filters + 1) * sizeof(*kids));
    dl_delta_pred *root = dl_arena_alloc_zero(arena, sizeof(*root));
    if (kids == NULL || root == NULL) {
        return NULL;
    }
    size_t n = 0;
    for (int32_t i = 0; i < s->n_filters; i++) {
        n += build_pred(&pb, s->filters[i], false, &kids[n]) ? 1 : 0;
    }
    if (n == 0) {
        return NULL;
    }
    *root = (dl_delta_pred){.op = DL_DELTA_PRED_AND, .children = kids, .n_children = n};
    return root;
}

/* ---- read_parquet: the files and their row groups ----------------------------------------------
 */

/* The fields of file f the scan reads, by name (ASCII case-insensitive, as Spark). */
static dl_status
parquet_columns(dl_sql_operator *op, scan_state *st, int32_t f, dl_error *err) {
    const dl_sql_scan *s = &op->plan->u.scan;
    const dl_pq_field *root = dl_pq_file_root(st->pfiles[f]);
    const dl_pq_field **cols =
        dl_arena_alloc_zero(op->exec->arena, (size_t)(s->n_columns + 1) * sizeof(void *));
    DL_CHECK(cols != NULL, err, DL_ERR_NOMEM, "out of memory opening a file");
    for (int32_t i = 0; i < s->n_columns; i++) {
        const char *name = s->table_schema->fields[s->columns[i]].name;
        cols[i] = dl_pq_field_find(root, &name, 1, true);
        DL_CHECK(cols[i] != NULL, err, DL_ERR_SCHEMA,
                 "'/%s': no column '%s' (the first file has it)", s->paths[f], name);
    }
    st->pcols[f] = cols;
    return DL_OK;
}

/* Opens every file and lists their row groups as the morsels. */
static dl_status
open_parquet_files(dl_sql_operator *op, scan_state *st, dl_error *err) {
    const dl_sql_scan *s = &op->plan->u.scan;
    dl_arena *arena = op->exec->arena;
    st->pfiles = dl_arena_alloc_zero(arena, (size_t)(s->n_paths + 1) * sizeof(void *));
    st->pcols = dl_arena_alloc_zero(arena, (size_t)(s->n_paths + 1) * sizeof(void *));
    DL_CHECK(st->pfiles != NULL && st->pcols != NULL, err, DL_ERR_NOMEM,
             "out of memory opening files");
    size_t total = 0;
    for (int32_t f = 0; f < s->n_paths; f++) {
        DL_TRY(dl_sql_pq_open(s->store, s->paths[f], op->exec->alloc, &st->pfiles[f], err));
        DL_TRY(parquet_columns(op, st, f, err));
        total += dl_pq_file_footer(st->pfiles[f])->meta.n_row_groups;
    }
    st->pq_groups_total = total;
    st->punits = dl_arena_alloc_zero(arena, (total + 1) * sizeof(pq_unit));
    DL_CHECK(st->punits != NULL, err, DL_ERR_NOMEM, "out of memory opening files");
    const dl_delta_pred *pred = dl_sql_scan_predicate(arena, s);
    for (int32_t f = 0; f < s->n_paths; f++) {
        const dl_pq_filter *filter = dl_sql_scan_pq_filter(arena, s, pred, st->pcols[f]);
        size_t n = dl_pq_file_footer(st->pfiles[f])->meta.n_row_groups;
        for (size_t g = 0; g < n; g++) {
            if (filter == NULL || dl_pq_filter_may_match(st->pfiles[f], filter, g)) {
                st->punits[st->n_units++] = (pq_unit){.file = f, .row_group = (int32_t)g};
            }
        }
    }
    return DL_OK;
}

/* ---- the operator ---------------------------------------------------------------------------- */

/* The table columns the Delta scan reads (st->names) and where each output column comes from. */
static dl_status
delta_columns(dl_sql_operator *op, scan_state *st, dl_error *err) {
    const dl_sql_scan *s = st->s;
    st->names = dl_arena_alloc_zero(op->exec->arena, (size_t)(s->n_columns + 1) * sizeof(char *));
    st->from = dl_arena_alloc_zero(op->exec->arena, (size_t)(s->n_columns + 1) * sizeof(int32_t));
    DL_CHECK(st->names != NULL && st->from != NULL, err, DL_ERR_NOMEM,
             "out of memory opening a scan");
    for (int32_t i = 0; i < s->n_columns; i++) {
        st->from[i] = s->columns[i];
        if (!DL_SQL_SCAN_IS_HIDDEN(s->columns[i])) {
            st->from[i] = st->n_names;
            st->names[st->n_names++] = s->table_schema->fields[s->columns[i]].name;
        } else if (s->columns[i] == DL_SQL_SCAN_FILE_INDEX &&
                   dl_delta_snapshot_file_count(s->snapshot) > INT32_MAX) {
            DL_FAIL(err, DL_ERR_LIMIT, "table %s has more than %d files to index", s->table_name,
                    INT32_MAX);
        }
    }
    return DL_OK;
}

static dl_status
scan_open(dl_sql_operator *op, dl_error *err) {
    const dl_sql_scan *s = &op->plan->u.scan;
    scan_state *st = dl_mem_alloc_zero(op->exec->alloc, sizeof(*st));
    DL_CHECK(st != NULL, err, DL_ERR_NOMEM, "out of memory opening a scan");
    op->state = st;
    st->s = s;
    atomic_init(&st->cursor, 0);
    atomic_init(&st->emitted, 0);
    for (size_t i = 0; i < DL_ARRAY_LEN(st->pq_stats); i++) {
        atomic_init(&st->pq_stats[i], 0);
    }
    if (s->source == DL_SQL_SCAN_PARQUET) {
        DL_TRY(open_parquet_files(op, st, err));
        dl_sql_exec_progress(op->exec, 0, (int64_t)st->n_units);
        return DL_OK;
    }
    DL_TRY(delta_columns(op, st, err));
    dl_delta_scan_options opts = {.columns = st->names,
                                  .n_columns = (size_t)st->n_names,
                                  .predicate = dl_sql_scan_predicate(op->exec->arena, s),
                                  .alloc = op->exec->alloc,
                                  .row_group_units_max_files = ROW_GROUP_UNITS_MAX_FILES,
                                  .file_set = s->file_set};
    DL_TRY_CTX(dl_delta_scan_new(s->snapshot, &opts, &st->dscan, err), err, "table %s",
               s->table_name);
    st->n_units = dl_delta_scan_unit_count(st->dscan);
    dl_sql_exec_progress(op->exec, 0, (int64_t)st->n_units);
    return DL_OK;
}

static void
scan_free(dl_sql_operator *op) {
    scan_state *st = op->state;
    if (st == NULL) {
        return;
    }
    dl_delta_scan_free(st->dscan);
    for (int32_t f = 0; st->pfiles != NULL && f < st->s->n_paths; f++) {
        dl_pq_file_free(st->pfiles[f]);
    }
    dl_mem_free(op->exec->alloc, st, sizeof(*st));
    op->state = NULL;
}

/* Adds a read_parquet reader's counters to the scan's (EXPLAIN ANALYZE). */
static void
count_parquet_reader(scan_state *st, const dl_pq_reader *reader) {
    dl_pq_reader_stats rs;
    dl_pq_reader_get_stats(reader, &rs);
    int64_t add[4] = {rs.row_groups_read, rs.bytes_read, rs.pages, rs.pages_skipped};
    for (size_t i = 0; i < DL_ARRAY_LEN(add); i++) {
        (void)atomic_fetch_add_explicit(&st->pq_stats[i], add[i], memory_order_relaxed);
    }
}

static void
close_reader(scan_state *st, scan_local *l) {
    if (l->preader != NULL) {
        count_parquet_reader(st, l->preader);
    }
    dl_delta_scan_reader_free(l->dreader);
    dl_pq_reader_free(l->preader);
    l->dreader = NULL;
    l->preader = NULL;
}

static void
scan_local_free(dl_sql_operator *op, void *local) {
    scan_local *l = local;
    if (l == NULL) {
        return;
    }
    close_reader(op->state, l);
    dl_vec_batch_free(l->in);
    dl_pq_scratch_free(l->scratch);
    for (int32_t i = 0; i < l->n_filters; i++) {
        dl_sql_eval_free(l->filters[i]);
    }
    dl_mem_free(op->exec->alloc, l->filters, (size_t)l->n_filters * sizeof(void *));
    dl_mem_free(op->exec->alloc, l, sizeof(*l));
}

static dl_status
scan_local_new(dl_sql_operator *op, void **out, dl_error *err) {
    const dl_sql_scan *s = &op->plan->u.scan;
    scan_state *st = op->state;
    scan_local *l = dl_mem_alloc_zero(op->exec->alloc, sizeof(*l));
    DL_CHECK(l != NULL, err, DL_ERR_NOMEM, "out of memory starting a scan");
    *out = l;
    DL_TRY(dl_pq_scratch_new(op->exec->alloc, &l->scratch, err));
    if (s->n_filters > 0) {
        l->filters = dl_mem_alloc_zero(op->exec->alloc, (size_t)s->n_filters * sizeof(void *));
        DL_CHECK(l->filters != NULL, err, DL_ERR_NOMEM, "out of memory starting a scan");
        l->n_filters = s->n_filters;
        for (int32_t i = 0; i < s->n_filters; i++) {
            DL_TRY(dl_sql_eval_new(op->exec, s->filters[i], &l->filters[i], err));
        }
    }
    if (st->dscan != NULL) {
        DL_TRY(dl_sql_batch_new(op->exec, dl_delta_scan_schema(st->dscan), &l->in, err));
    }
    return DL_OK;
}

/* Opens the reader of read_parquet morsel u (a row group of an open file). */
static dl_status
open_parquet(dl_sql_operator *op, scan_local *l, size_t u, dl_error *err) {
    const dl_sql_scan *s = &op->plan->u.scan;
    scan_state *st = op->state;
    const pq_unit *unit = &st->punits[u];
    dl_pq_read_options opts = {.alloc = op->exec->alloc,
                               .columns = st->pcols[unit->file],
                               .n_columns = (size_t)s->n_columns,
                               .row_groups = &unit->row_group,
                               .n_row_groups = 1,
                               .scratch = l->scratch};
    DL_TRY(dl_pq_reader_new(st->pfiles[unit->file], &opts, &l->preader, err));
    /* A batch must be made for its reader's schema object: one per reader. */
    dl_vec_batch_free(l->in);
    l->in = NULL;
    return dl_sql_batch_new(op->exec, dl_pq_reader_schema(l->preader), &l->in, err);
}

/* Opens the next file for this thread; *out_has false when none is left. */
static dl_status
open_unit(dl_sql_operator *op, scan_local *l, bool *out_has, dl_error *err) {
    scan_state *st = op->state;
    int64_t u = atomic_fetch_add(&st->cursor, 1);
    *out_has = (size_t)u < st->n_units;
    if (!*out_has) {
        return DL_OK;
    }
    if (st->dscan != NULL) {
        l->file_index = (int32_t)dl_delta_scan_unit_file_index(st->dscan, (size_t)u);
        return dl_delta_scan_reader_open(st->dscan, (size_t)u, l->scratch, &l->dreader, err);
    }
    return open_parquet(op, l, (size_t)u, err);
}

/* The next batch of the current file into l->in, opening files as needed; *out_has false at
 * the end. */
static dl_status
read_next(dl_sql_operator *op, scan_local *l, bool *out_has, dl_error *err) {
    for (;;) {
        if (l->dreader == NULL && l->preader == NULL) {
            DL_TRY(open_unit(op, l, out_has, err));
            if (!*out_has) {
                return DL_OK;
            }
        }
        if (l->dreader != NULL) {
            DL_TRY(dl_delta_scan_reader_next(l->dreader, l->in, err));
        } else {
            DL_TRY(dl_pq_reader_next(l->preader, l->in, err));
        }
        if (l->in->count > 0) {
            *out_has = true;
            return DL_OK;
        }
        close_reader(op->state, l);
        dl_sql_exec_progress(op->exec, 1, 0); /* a file or row group read to its end */
    }
}

/* Rows of in's vectors (the selection may leave some out). */
static int64_t
physical_rows(const dl_batch *in) {
    if (in->n_cols > 0) {
        return in->cols[0]->length;
    }
    int64_t n = in->count;
    for (int64_t k = 0; in->sel != NULL && k < in->count; k++) {
        n = DL_MAX(n, dl_vec_batch_row(in, k) + 1);
    }
    return n;
}

/* A CONST INT of the current unit's file index for the rows of l->in. */
static dl_status
file_vector(dl_sql_operator *op, const scan_local *l, dl_vector **out, dl_error *err) {
    DL_TRY(dl_vec_new(op->exec->alloc, dl_vec_type_prim(DL_VEC_TYPE_INT), 1, out, err));
    dl_status s = dl_vec_append_i32(*out, l->file_index, err);
    if (s != DL_OK) {
        dl_vec_unref(*out);
        *out = NULL;
        return s;
    }
    dl_vec_make_const(*out, physical_rows(l->in));
    return DL_OK;
}

/* A flat BIGINT of the file row numbers of the rows of l->in. */
static dl_status
row_vector(dl_sql_operator *op, const scan_local *l, dl_vector **out, dl_error *err) {
    int64_t n = physical_rows(l->in);
    int64_t first = dl_delta_scan_reader_batch_first_row(l->dreader);
    DL_CHECK(first >= 0, err, DL_ERR_INTERNAL, "a scan batch without its file row numbers");
    DL_TRY(dl_vec_new(op->exec->alloc, dl_vec_type_prim(DL_VEC_TYPE_LONG), n, out, err));
    int64_t *rows = (int64_t *)(*out)->data;
    for (int64_t i = 0; i < n; i++) {
        rows[i] = first + i;
    }
    dl_vec_set_length(*out, n);
    return DL_OK;
}

/* out's columns from the reader's batch (and the file and row index). */
static dl_status
set_columns(dl_sql_operator *op, const scan_local *l, dl_batch *out, dl_error *err) {
    const scan_state *st = op->state;
    for (int32_t c = 0; c < out->n_cols; c++) {
        int32_t from = st->from != NULL ? st->from[c] : c;
        dl_vector *v = NULL;
        if (from == DL_SQL_SCAN_FILE_INDEX) {
            DL_TRY(file_vector(op, l, &v, err));
        } else if (from == DL_SQL_SCAN_ROW_INDEX) {
            DL_TRY(row_vector(op, l, &v, err));
        } else {
            v = dl_vec_ref(l->in->cols[from]);
        }
        dl_vec_batch_set_col(out, c, v);
    }
    return DL_OK;
}

static dl_status
scan_next_batch(dl_sql_operator *op, scan_local *l, dl_batch *out, dl_error *err) {
    scan_state *st = op->state;
    const dl_sql_scan *s = st->s;
    for (;;) {
        if (s->limit >= 0 && atomic_load(&st->emitted) >= s->limit) {
            dl_vec_batch_set_count(out, 0);
            return DL_OK;
        }
        bool has = false;
        DL_TRY(read_next(op, l, &has, err));
        if (!has) {
            dl_vec_batch_set_count(out, 0);
            return DL_OK;
        }
        DL_TRY(set_columns(op, l, out, err));
        if (l->in->sel != NULL) {
            DL_TRY(dl_vec_batch_set_sel(out, l->in->sel, l->in->count, err));
        } else {
            dl_vec_batch_set_count(out, l->in->count);
        }
        for (int32_t i = 0; i < l->n_filters && out->count > 0; i++) {
            DL_TRY(dl_sql_eval_select(l->filters[i], out, err));
        }
        if (out->count > 0) {
            if (s->limit >= 0) {
                atomic_fetch_add(&st->emitted, out->count);
            }
            return DL_OK;
        }
    }
}

static dl_status
scan_next(dl_sql_operator *op, void *local, dl_batch *out, dl_error *err) {
    dl_status s = scan_next_batch(op, local, out, err);
    if (s == DL_OK) {
        return DL_OK;
    }
    const dl_sql_scan *sc = &op->plan->u.scan;
    if (s == DL_ERR_NOT_FOUND && sc->source == DL_SQL_SCAN_DELTA) {
        dl_error_prefix(err,
                        "table %s version %lld: a data file of this version no longer "
                        "exists (vacuum may have removed it)",
                        sc->table_name, (long long)dl_delta_snapshot_version(sc->snapshot));
        dl_error_hint(err, "query a newer version, or restore the files");
    } else {
        dl_error_prefix(err, "table %s", sc->table_name);
    }
    return s;
}

void
dl_sql_op_scan_report(const dl_sql_operator *op, dl_sql_scan_report *out) {
    memset(out, 0, sizeof(*out));
    scan_state *st = op->state;
    if (st == NULL) {
        return;
    }
    if (st->dscan != NULL) {
        dl_delta_scan_get_stats(st->dscan, &out->delta);
        out->pages_read = out->delta.pages_read;
        out->pages_skipped = out->delta.pages_skipped;
        return;
    }
    out->delta.files_total = st->s->n_paths;
    out->delta.files_read = st->s->n_paths;
    out->delta.row_groups_read = atomic_load(&st->pq_stats[0]);
    out->delta.row_groups_skipped = (int64_t)(st->pq_groups_total - st->n_units);
    out->delta.bytes_read = atomic_load(&st->pq_stats[1]);
    out->pages_read = atomic_load(&st->pq_stats[2]);
    out->pages_skipped = atomic_load(&st->pq_stats[3]);
}

static const dl_sql_op_vtable scan_vt = {
    .name = "scan",
    .open = scan_open,
    .local_new = scan_local_new,
    .next = scan_next,
    .local_free = scan_local_free,
    .free = scan_free,
};

dl_status
dl_sql_op_scan_new(dl_sql_exec_ctx *exec, const dl_sql_plan *plan, dl_sql_operator **out,
                   dl_error *err) {
    dl_sql_operator *op = dl_sql_op_alloc(exec, &scan_vt, plan, NULL, NULL);
    DL_CHECK(op != NULL, err, DL_ERR_NOMEM, "out of memory building a scan");
    op->is_parallel = true;
    *out = op;
    return DL_OK;
}
