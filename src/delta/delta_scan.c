/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Scan planning (delta_scan.h): the output columns, the bound predicate, and the files that
 * survive skipping. A file outside the caller's file set is dropped unread; each other live
 * file is judged first on its partition values alone (cheap: one
 * typed tuple per distinct partition), then, when the predicate has leaves on data columns,
 * on its statistics, read back from the log in snapshot order so that each log file (or
 * checkpoint row group) is read once. A file whose statistics cannot be read or parsed is
 * kept.
 */
#include <stdio.h>
#include <string.h>

#include "delta/delta_scan_int.h"

/* ---- columns ------------------------------------------------------------------------- */

static dl_status
column_not_found(const dl_delta_schema *schema, const char *name, dl_error *err) {
    char list[512];
    size_t len = 0;
    list[0] = '\0';
    for (int32_t i = 0; i < schema->n_fields && len + 4 < sizeof(list); i++) {
        int n =
            snprintf(list + len, sizeof(list) - len, "%s%s", i ? ", " : "", schema->fields[i].name);
        len += n > 0 ? (size_t)n : 0;
    }
    DL_FAIL(err, DL_ERR_NOT_FOUND, "column '%s' does not exist; the columns are: %s", name, list);
}

/* The top-level field named name (i-th in the list asked for). */
static dl_status
find_column(const dl_delta_schema *schema, const char *name, size_t i, const dl_delta_field **out,
            dl_error *err) {
    DL_CHECK(name, err, DL_ERR_INVALID_ARG, "column %zu is NULL", i);
    *out = dl_delta_schema_find(schema, dl_str_from_cstr(name));
    return *out ? DL_OK : column_not_found(schema, name, err);
}

static dl_status
resolve_columns(dl_delta_scan *scan, const dl_delta_scan_options *opts, dl_error *err) {
    const dl_delta_schema *schema = dl_delta_snapshot_schema(scan->snap);
    size_t n = opts->columns ? opts->n_columns : (size_t)schema->n_fields;
    scan->n_cols = n;
    scan->cols = dl_arena_alloc_array(&scan->arena, n ? n : 1, sizeof(dl_delta_scan_col));
    dl_type_field *tf = dl_arena_alloc_array(&scan->arena, n ? n : 1, sizeof(dl_type_field));
    DL_CHECK(scan->cols && tf, err, DL_ERR_NOMEM, "out of memory planning a scan");
    for (size_t i = 0; i < n; i++) {
        const dl_delta_field *f = opts->columns ? NULL : &schema->fields[i];
        if (opts->columns) {
            DL_TRY(find_column(schema, opts->columns[i], i, &f, err));
        }
        scan->cols[i].field = f;
        scan->cols[i].partition_index = -1;
        for (int32_t p = 0; p < dl_delta_snapshot_partition_count(scan->snap); p++) {
            if (dl_delta_snapshot_partition_field(scan->snap, p) == f) {
                scan->cols[i].partition_index = p;
            }
        }
        tf[i] = (dl_type_field){.name = f->name, .type = f->type, .is_nullable = f->is_nullable};
    }
    return dl_vec_type_struct(&scan->arena, tf, (int32_t)n, &scan->schema, err);
}

/* ---- skipping ------------------------------------------------------------------------ */

static dl_status
keep_unit(dl_delta_scan *scan, size_t i, dl_error *err) {
    if (scan->n_units == scan->cap_units) {
        size_t cap = scan->cap_units ? scan->cap_units * 2 : 64;
        void *p =
            dl_mem_realloc(scan->alloc, scan->units, scan->cap_units * sizeof(dl_delta_scan_unit),
                           cap * sizeof(dl_delta_scan_unit));
        DL_CHECK(p, err, DL_ERR_NOMEM, "out of memory planning a scan");
        scan->units = p;
        scan->cap_units = cap;
    }
    scan->units[scan->n_units++] = (dl_delta_scan_unit){.file = i, .row_group = -1};
    return DL_OK;
}

static dl_status
plan_files(dl_delta_scan *scan, const uint8_t *file_set, dl_error *err) {
    dl_delta_snapshot *snap = scan->snap;
    size_t n = dl_delta_snapshot_file_count(snap);
    scan->files_total = (int64_t)n;
    bool needs_stats = scan->pred && dl_delta_bpred_has_data_leaf(scan->pred);
    dl_delta_stats_reader rd;
    dl_delta_stats_reader_init(&rd, scan->alloc);
    dl_status st = DL_OK;
    for (size_t i = 0; i < n && st == DL_OK; i++) {
        if (file_set != NULL && file_set[i] == 0) {
            continue;
        }
        const dl_delta_file *f = dl_delta_snapshot_file(snap, i);
        if (scan->pred && !dl_delta_bpred_may_match(scan->pred, f, NULL)) {
            scan->files_skipped_partition++;
            continue;
        }
        if (needs_stats) {
            dl_delta_stats stats;
            bool has = false;
            dl_error ignored;
            dl_status s = dl_delta_file_stats(snap, f, &rd, &stats, &has, &ignored);
            if (s == DL_ERR_NOMEM || s == DL_ERR_IO) {
                st = dl_error_set(err, s, "%s", ignored.msg);
                break;
            }
            if (s == DL_OK && has && !dl_delta_bpred_may_match(scan->pred, f, &stats)) {
                scan->files_skipped_stats++;
                continue;
            }
        }
        st = keep_unit(scan, i, err);
    }
    dl_delta_stats_reader_destroy(&rd);
    return st;
}

/* ---- the scan ------------------------------------------------------------------------ */

dl_status
dl_delta_scan_new(dl_delta_snapshot *snap, const dl_delta_scan_options *opts, dl_delta_scan **out,
                  dl_error *err) {
    DL_CHECK(snap && out, err, DL_ERR_INVALID_ARG, "dl_delta_scan_new: NULL argument");
    static const dl_delta_scan_options defaults;
    opts = opts ? opts : &defaults;
    *out = NULL;
    DL_CHECK(dl_delta_snapshot_metadata(snap)->schema_string, err, DL_ERR_UNSUPPORTED,
             "%s v%lld: the table's metaData has no schema, so it has no columns to scan",
             snap->display, (long long)snap->version);
    DL_CHECK(opts->batch_rows >= 0 && opts->batch_rows <= DL_BATCH_CAPACITY, err,
             DL_ERR_INVALID_ARG, "batch_rows %d is outside 0..%d", (int)opts->batch_rows,
             DL_BATCH_CAPACITY);
    const dl_allocator *alloc = opts->alloc ? opts->alloc : snap->alloc;
    dl_delta_scan *scan = dl_mem_alloc_zero(alloc, sizeof(*scan));
    DL_CHECK(scan, err, DL_ERR_NOMEM, "out of memory planning a scan");
    scan->alloc = alloc;
    scan->snap = dl_delta_snapshot_ref(snap);
    scan->opts = *opts;
    scan->opts.columns = NULL;
    scan->opts.predicate = NULL;
    scan->opts.file_set = NULL;
    scan->opts.alloc = alloc;
    dl_arena_init(&scan->arena, alloc, 0);
    dl_status st = resolve_columns(scan, opts, err);
    if (st == DL_OK && opts->predicate) {
        st = dl_delta_pred_bind(snap, opts->predicate, &scan->arena, &scan->pred, err);
    }
    if (st == DL_OK) {
        st = plan_files(scan, opts->file_set, err);
    }
    if (st == DL_OK && opts->row_group_units_max_files > 0 && scan->n_units > 0 &&
        scan->n_units <= opts->row_group_units_max_files) {
        st = dl_delta_scan_split_units(scan, err);
    }
    if (st != DL_OK) {
        dl_error_prefix(err, "%s v%lld: scan", snap->display, (long long)snap->version);
        dl_delta_scan_free(scan);
        return st;
    }
    *out = scan;
    return DL_OK;
}

void
dl_delta_scan_free(dl_delta_scan *scan) {
    if (!scan) {
        return;
    }
    dl_delta_scan_reader_free(scan->cur);
    dl_delta_scan_free_planned(scan);
    dl_mem_free(scan->alloc, scan->units, scan->cap_units * sizeof(dl_delta_scan_unit));
    dl_arena_destroy(&scan->arena);
    dl_delta_snapshot_unref(scan->snap);
    dl_mem_free(scan->alloc, scan, sizeof(*scan));
}

const dl_type *
dl_delta_scan_schema(const dl_delta_scan *scan) {
    return scan->schema;
}

size_t
dl_delta_scan_unit_count(const dl_delta_scan *scan) {
    return scan->n_units;
}

const dl_delta_file *
dl_delta_scan_unit_file(const dl_delta_scan *scan, size_t unit) {
    return dl_delta_snapshot_file(scan->snap, scan->units[unit].file);
}

size_t
dl_delta_scan_unit_file_index(const dl_delta_scan *scan, size_t unit) {
    return scan->units[unit].file;
}

int32_t
dl_delta_scan_unit_row_group(const dl_delta_scan *scan, size_t unit) {
    return scan->units[unit].row_group;
}

dl_status
dl_delta_scan_next(dl_delta_scan *scan, dl_batch *batch, bool *out_has, dl_error *err) {
    *out_has = false;
    for (;;) {
        if (!scan->cur) {
            if (scan->next_unit >= scan->n_units) {
                dl_vec_batch_set_count(batch, 0);
                return DL_OK;
            }
            DL_TRY(dl_delta_scan_reader_new(scan, scan->next_unit++, &scan->cur, err));
        }
        DL_TRY(dl_delta_scan_reader_next(scan->cur, batch, err));
        if (batch->count > 0) {
            *out_has = true;
            return DL_OK;
        }
        dl_delta_scan_reader_free(scan->cur);
        scan->cur = NULL;
    }
}

void
dl_delta_scan_get_stats(const dl_delta_scan *scan, dl_delta_scan_stats *out) {
    out->files_total = scan->files_total;
    out->files_skipped_partition = scan->files_skipped_partition;
    out->files_skipped_stats = scan->files_skipped_stats;
    out->files_read = __atomic_load_n(&scan->files_read, __ATOMIC_RELAXED);
    out->row_groups_read = __atomic_load_n(&scan->row_groups_read, __ATOMIC_RELAXED);
    out->row_groups_skipped = __atomic_load_n(&scan->row_groups_skipped, __ATOMIC_RELAXED);
    out->rows_read = __atomic_load_n(&scan->rows_read, __ATOMIC_RELAXED);
    out->rows_deleted = __atomic_load_n(&scan->rows_deleted, __ATOMIC_RELAXED);
    out->dvs_loaded = __atomic_load_n(&scan->dvs_loaded, __ATOMIC_RELAXED);
    out->bytes_read = __atomic_load_n(&scan->bytes_read, __ATOMIC_RELAXED);
    out->pages_read = __atomic_load_n(&scan->pages_read, __ATOMIC_RELAXED);
    out->pages_skipped = __atomic_load_n(&scan->pages_skipped, __ATOMIC_RELAXED);
}
