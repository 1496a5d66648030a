/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The data-file writer (ops.h): rows routed to one open Parquet file per partition, files
 * rolled at the target size, each closed file described by its add action.
 *
 * Layout of a table written here (PROTOCOL.md "Data Files"; Spark's FileFormatWriter names):
 *
 *   <root>/part-00000-<job>.c000.snappy.parquet            unpartitioned
 *   <root>/p=1/q=a%2Fb/part-00001-<job>.c000.snappy.parquet partitioned by p, q
 *   <root>/Ab/part-00002-<job>.c000.snappy.parquet          column mapping (random folder)
 *
 * The file number counts files across the whole write, so names never repeat within a job.
 * Every open file is a Parquet writer whose output stays invisible until closed; closed files
 * are remembered so that an abort can remove them.
 */
#include <string.h>
#include <time.h>

#include "base/arena.h"
#include "base/hmap.h"
#include "delta/delta_colmap.h"
#include "ops/ops_int.h"

/* One partition seen by the writer. */
typedef struct slot {
    const char *dir;     /* "p=1/q=x/" (escaped), "" when unpartitioned */
    dl_delta_kv *values; /* one per partition column */
    dl_pq_writer *pq;    /* the open file, or NULL */
    const char *path;    /* the open file's path relative to the root */
} slot;

struct dl_ops_writer {
    dl_ops_write_spec spec;
    const dl_allocator *alloc;
    dl_arena arena;           /* slots, paths, stats, file list */
    const dl_type *data_type; /* STRUCT of the non-partition columns (the Parquet schema) */
    int32_t *data_cols;       /* input column of each data column */
    int32_t n_data;
    int32_t *part_cols;      /* input column of each partition column */
    const char **part_names; /* each partition column's key (physical name) */
    const dl_type **retype;  /* per data column: its physical type when a batch's differs */
    int32_t *field_ids;      /* Parquet field ids of the data columns, or NULL */
    size_t n_field_ids;
    slot **slots;
    int32_t n_slots, cap_slots;
    dl_hmap index; /* dir -> slot index */
    dl_ops_file *files;
    size_t n_files, cap_files;
    int32_t next_file_no;
    int64_t rows, bytes;
    dl_pq_write_options pq_opts;
    dl_vector **view_cols; /* scratch: the data columns of a batch */
    dl_buf key;            /* scratch: the partition dir of a row */
    dl_buf val;            /* scratch: one partition value */
    dl_buf full;           /* scratch: a path from the store root */
};

static int64_t
now_ms(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_REALTIME, &ts) != 0) {
        return 0;
    }
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Field ids a column of type t takes besides its own (dl_pq_write_field_count's walk). */
static size_t
inner_field_count(const dl_type *t) {
    size_t n = 0;
    switch (t->id) {
    case DL_VEC_TYPE_STRUCT:
        for (int32_t i = 0; i < t->n_fields; i++) {
            n += 1 + inner_field_count(t->fields[i].type);
        }
        return n;
    case DL_VEC_TYPE_ARRAY:
        return 1 + inner_field_count(t->element);
    case DL_VEC_TYPE_MAP:
        return 2 + inner_field_count(t->key) + inner_field_count(t->value);
    default:
        return 0;
    }
}

/* Physical names, types and field ids of the columns (column mapping; the logical ones
 * otherwise): fills part_names, retype and field_ids, and the data fields' names and types. */
static dl_status
map_columns(dl_ops_writer *w, dl_type_field *fields, dl_error *err) {
    const dl_type *schema = w->spec.schema;
    dl_delta_colmap_physical ph;
    DL_TRY(dl_delta_colmap_physical_of(w->spec.mapping_schema, w->spec.mapping_mode, schema,
                                       &w->arena, &ph, err));
    for (int32_t p = 0; p < w->spec.n_partition_columns; p++) {
        w->part_names[p] = ph.type->fields[w->part_cols[p]].name;
    }
    if (ph.field_ids != NULL) {
        w->field_ids = dl_arena_alloc_array(&w->arena, ph.n_field_ids + 1, sizeof(int32_t));
        DL_CHECK(w->field_ids != NULL, err, DL_ERR_NOMEM, "out of memory starting a table write");
    }
    size_t at = 0;
    for (int32_t c = 0, d = 0; c < schema->n_fields; c++) {
        size_t n_ids = 1 + inner_field_count(schema->fields[c].type);
        if (d < w->n_data && w->data_cols[d] == c) {
            fields[d] = ph.type->fields[c];
            if (!dl_vec_type_equal(ph.type->fields[c].type, schema->fields[c].type)) {
                w->retype[d] = ph.type->fields[c].type;
            }
            if (w->field_ids != NULL && ph.field_ids != NULL) {
                memcpy(&w->field_ids[w->n_field_ids], &ph.field_ids[at], n_ids * sizeof(int32_t));
                w->n_field_ids += n_ids;
            }
            d++;
        }
        at += n_ids;
    }
    w->pq_opts.field_ids = w->field_ids;
    w->pq_opts.n_field_ids = w->n_field_ids;
    return DL_OK;
}

static dl_status
build_columns(dl_ops_writer *w, dl_error *err) {
    const dl_type *schema = w->spec.schema;
    int32_t n_part = w->spec.n_partition_columns;
    w->part_cols = dl_arena_alloc_zero(&w->arena, (size_t)(n_part + 1) * sizeof(int32_t));
    w->data_cols = dl_arena_alloc_zero(&w->arena, (size_t)(schema->n_fields + 1) * sizeof(int32_t));
    dl_type_field *fields =
        dl_arena_alloc_zero(&w->arena, (size_t)(schema->n_fields + 1) * sizeof(*fields));
    w->view_cols =
        dl_arena_alloc_zero(&w->arena, (size_t)(schema->n_fields + 1) * sizeof(dl_vector *));
    w->part_names = dl_arena_alloc_zero(&w->arena, (size_t)(n_part + 1) * sizeof(char *));
    w->retype = dl_arena_alloc_zero(&w->arena, (size_t)(schema->n_fields + 1) * sizeof(dl_type *));
    DL_CHECK(w->part_cols != NULL && w->data_cols != NULL && fields != NULL &&
                 w->view_cols != NULL && w->part_names != NULL && w->retype != NULL,
             err, DL_ERR_NOMEM, "out of memory starting a table write");
    for (int32_t p = 0; p < n_part; p++) {
        const char *name = w->spec.partition_columns[p];
        int32_t c = dl_vec_type_field_index(schema, dl_str_from_cstr(name));
        DL_CHECK(c >= 0, err, DL_ERR_INVALID_ARG,
                 "partition column '%s' is not a column of the table", name);
        w->part_cols[p] = c;
    }
    for (int32_t c = 0; c < schema->n_fields; c++) {
        bool is_part = false;
        for (int32_t p = 0; p < n_part; p++) {
            is_part = is_part || w->part_cols[p] == c;
        }
        if (!is_part) {
            fields[w->n_data] = schema->fields[c];
            w->data_cols[w->n_data++] = c;
        }
    }
    DL_CHECK(w->n_data > 0, err, DL_ERR_SCHEMA,
             "every column of the table is a partition column: a Delta table needs at least one "
             "data column");
    DL_TRY(map_columns(w, fields, err));
    return dl_vec_type_struct(&w->arena, fields, w->n_data, &w->data_type, err);
}

dl_status
dl_ops_writer_new(const dl_ops_write_spec *spec, dl_ops_writer **out, dl_error *err) {
    DL_CHECK(spec != NULL && out != NULL && spec->store != NULL && spec->schema != NULL &&
                 spec->schema->id == DL_VEC_TYPE_STRUCT && spec->table_root != NULL &&
                 spec->job_id != NULL,
             err, DL_ERR_INVALID_ARG, "dl_ops_writer_new: NULL or malformed argument");
    *out = NULL;
    dl_ops_writer *w = dl_mem_alloc_zero(spec->alloc, sizeof(*w));
    DL_CHECK(w != NULL, err, DL_ERR_NOMEM, "out of memory starting a table write");
    w->spec = *spec;
    w->alloc = spec->alloc;
    if (w->spec.target_file_bytes <= 0) {
        w->spec.target_file_bytes = DL_OPS_TARGET_FILE_BYTES;
    }
    if (w->spec.modification_time == 0) {
        w->spec.modification_time = now_ms();
    }
    dl_arena_init(&w->arena, w->alloc, 8192);
    dl_hmap_init(&w->index, w->alloc);
    dl_buf_init(&w->key, w->alloc);
    dl_buf_init(&w->full, w->alloc);
    dl_buf_init(&w->val, w->alloc);
    dl_pq_write_options_init(&w->pq_opts);
    w->pq_opts.codec = DL_PQ_CODEC_SNAPPY;
    w->pq_opts.stats_max_bytes = 1024;
    if (spec->row_group_bytes > 0) {
        w->pq_opts.row_group_bytes = spec->row_group_bytes;
    }
    if (spec->page_bytes > 0) {
        w->pq_opts.page_bytes = (size_t)spec->page_bytes;
    }
    if (spec->page_rows > 0) {
        w->pq_opts.page_rows = spec->page_rows;
    }
    dl_status s = build_columns(w, err);
    if (s != DL_OK) {
        dl_ops_writer_free(w);
        return s;
    }
    *out = w;
    return DL_OK;
}

/* ---- partitions ----------------------------------------------------------------------------- */

/* Appends the escaped value of row `row` of col (field f) to w->key. */
/* Spark's error for a NULL in a NOT NULL column (nothing of the write is committed). */
static dl_status
not_null_violated(const dl_ops_writer *w, const dl_type_field *f, dl_error *err) {
    return dl_error_set(err, DL_ERR_CONSTRAINT,
                        "[DELTA_NOT_NULL_CONSTRAINT_VIOLATED] NOT NULL constraint violated for "
                        "column: %s (writing to %s; the table is unchanged)",
                        f->name, w->spec.table_root);
}

static dl_status
key_value(dl_ops_writer *w, const dl_type_field *f, const dl_vector *col, int64_t row,
          dl_error *err) {
    bool is_null = false;
    dl_buf_reset(&w->val);
    DL_TRY(dl_ops_partition_value(col, row, &w->val, &is_null, err));
    if (!is_null) {
        return dl_ops_path_escape(dl_buf_view(&w->val), &w->key, err);
    }
    if (!f->is_nullable) {
        return not_null_violated(w, f, err);
    }
    return dl_buf_append_cstr(&w->key, DL_OPS_NULL_PARTITION, err);
}

/* The dir key of live row `row` of batch into w->key; checks NOT NULL partition columns. */
static dl_status
row_key(dl_ops_writer *w, const dl_batch *batch, int64_t row, dl_error *err) {
    dl_buf_reset(&w->key);
    for (int32_t p = 0; p < w->spec.n_partition_columns; p++) {
        const dl_type_field *f = &w->spec.schema->fields[w->part_cols[p]];
        DL_TRY(dl_ops_path_escape(dl_str_from_cstr(w->part_names[p]), &w->key, err));
        DL_TRY(dl_buf_append_byte(&w->key, '=', err));
        DL_TRY(key_value(w, f, batch->cols[w->part_cols[p]], row, err));
        DL_TRY(dl_buf_append_byte(&w->key, '/', err));
    }
    return DL_OK;
}

/* The partition values of the row that made a new slot. */
static dl_status
slot_values(dl_ops_writer *w, const dl_batch *batch, int64_t row, slot *sl, dl_error *err) {
    int32_t n = w->spec.n_partition_columns;
    sl->values = dl_arena_alloc_zero(&w->arena, (size_t)(n + 1) * sizeof(dl_delta_kv));
    DL_CHECK(sl->values != NULL, err, DL_ERR_NOMEM, "out of memory routing a row");
    dl_buf text;
    dl_buf_init(&text, w->alloc);
    dl_status s = DL_OK;
    for (int32_t p = 0; p < n && s == DL_OK; p++) {
        dl_buf_reset(&text);
        bool is_null = false;
        s = dl_ops_partition_value(batch->cols[w->part_cols[p]], row, &text, &is_null, err);
        sl->values[p].key = w->part_names[p];
        if (s == DL_OK && !is_null) {
            sl->values[p].value = dl_arena_strndup(&w->arena, (const char *)text.data, text.len);
            s = sl->values[p].value != NULL ? DL_OK
                                            : dl_error_set(err, DL_ERR_NOMEM, "out of memory");
        }
    }
    dl_buf_destroy(&text);
    return s;
}

/* The slot of w->key (made from row `row` of batch when new). */
static dl_status
find_slot(dl_ops_writer *w, const dl_batch *batch, int64_t row, int32_t *out, dl_error *err) {
    uint64_t idx = 0;
    if (dl_hmap_get(&w->index, dl_buf_view(&w->key), &idx)) {
        *out = (int32_t)idx;
        return DL_OK;
    }
    if (w->n_slots == w->cap_slots) {
        int32_t cap = w->cap_slots == 0 ? 8 : w->cap_slots * 2;
        slot **grown = dl_arena_alloc_zero(&w->arena, (size_t)cap * sizeof(slot *));
        DL_CHECK(grown != NULL, err, DL_ERR_NOMEM, "out of memory routing a row");
        if (w->n_slots > 0) {
            memcpy(grown, w->slots, (size_t)w->n_slots * sizeof(slot *));
        }
        w->slots = grown;
        w->cap_slots = cap;
    }
    slot *sl = dl_arena_alloc_zero(&w->arena, sizeof(*sl));
    char *dir = dl_arena_strndup(&w->arena, (const char *)w->key.data, w->key.len);
    DL_CHECK(sl != NULL && dir != NULL, err, DL_ERR_NOMEM, "out of memory routing a row");
    sl->dir = dir;
    DL_TRY(slot_values(w, batch, row, sl, err));
    DL_TRY(dl_hmap_put(&w->index, dl_str_make(dir, w->key.len), (uint64_t)w->n_slots, err));
    w->slots[w->n_slots] = sl;
    *out = w->n_slots++;
    return DL_OK;
}

/* ---- files ------------------------------------------------------------------------------------
 */

static const char *
full_path(dl_ops_writer *w, const char *rel, dl_error *err) {
    dl_buf_reset(&w->full);
    const char *root = w->spec.table_root;
    dl_status s = root[0] != '\0' ? dl_buf_appendf(&w->full, err, "%s/%s", root, rel)
                                  : dl_buf_append_cstr(&w->full, rel, err);
    return s == DL_OK ? dl_buf_cstr(&w->full) : NULL;
}

/* Best effort: a file that cannot be removed is an orphan for VACUUM. */
static void
remove_quietly(dl_ops_writer *w, const char *rel) {
    dl_error ignored;
    const char *full = full_path(w, rel, &ignored);
    if (full != NULL) {
        dl_status s = dl_store_remove(w->spec.store, full, &ignored);
        (void)s;
    }
}

static dl_status
open_file(dl_ops_writer *w, slot *sl, dl_error *err) {
    bool is_cdc = w->spec.is_change_data;
    const char *dir = sl->dir;
    char prefix[4];
    if (w->spec.mapping_mode != DL_DELTA_CM_NONE) {
        DL_TRY(dl_delta_colmap_file_prefix(prefix, err));
        prefix[2] = '/';
        prefix[3] = '\0';
        dir = prefix;
    }
    sl->path = dl_arena_printf(&w->arena, "%s%s%s-%05d-%s.c000.snappy.parquet",
                               is_cdc ? "_change_data/" : "", dir, is_cdc ? "cdc" : "part",
                               w->next_file_no++, w->spec.job_id);
    DL_CHECK(sl->path != NULL, err, DL_ERR_NOMEM, "out of memory naming a data file");
    const char *full = full_path(w, sl->path, err);
    DL_CHECK(full != NULL, err, DL_ERR_NOMEM, "out of memory naming a data file");
    DL_TRY_CTX(dl_pq_writer_open(w->spec.store, full, DL_STORE_PUT_IF_ABSENT, w->data_type,
                                 &w->pq_opts, w->alloc, &sl->pq, err),
               err, "data file '%s'", sl->path);
    return DL_OK;
}

static dl_status
remember_file(dl_ops_writer *w, const slot *sl, const dl_pq_write_result *res, dl_error *err) {
    if (w->n_files == w->cap_files) {
        size_t cap = w->cap_files == 0 ? 8 : w->cap_files * 2;
        dl_ops_file *grown = dl_arena_alloc_zero(&w->arena, cap * sizeof(*grown));
        DL_CHECK(grown != NULL, err, DL_ERR_NOMEM, "out of memory listing data files");
        if (w->n_files > 0) {
            memcpy(grown, w->files, w->n_files * sizeof(*grown));
        }
        w->files = grown;
        w->cap_files = cap;
    }
    dl_buf stats;
    dl_buf_init(&stats, w->alloc);
    dl_status s = dl_ops_stats_json(res, &stats, err);
    const char *text =
        s == DL_OK ? dl_arena_strndup(&w->arena, (const char *)stats.data, stats.len) : NULL;
    dl_buf_destroy(&stats);
    DL_TRY(s);
    DL_CHECK(text != NULL, err, DL_ERR_NOMEM, "out of memory keeping statistics");
    w->files[w->n_files++] = (dl_ops_file){.path = sl->path,
                                           .partition_values = sl->values,
                                           .n_partition_values = w->spec.n_partition_columns,
                                           .size = res->file_size,
                                           .num_records = res->num_rows,
                                           .stats = text};
    w->rows += res->num_rows;
    w->bytes += res->file_size;
    return DL_OK;
}

static dl_status
close_file(dl_ops_writer *w, slot *sl, dl_error *err) {
    dl_pq_writer *pq = sl->pq;
    sl->pq = NULL;
    dl_pq_write_result res;
    DL_TRY_CTX(dl_pq_writer_close(pq, &w->arena, &res, err), err, "data file '%s'", sl->path);
    dl_status s = remember_file(w, sl, &res, err);
    if (s != DL_OK) {
        remove_quietly(w, sl->path);
    }
    return s;
}

/* ---- writing ----------------------------------------------------------------------------------
 */

static dl_status
check_batch(const dl_ops_writer *w, const dl_batch *batch, dl_error *err) {
    const dl_type *schema = w->spec.schema;
    DL_CHECK(batch->n_cols == schema->n_fields, err, DL_ERR_SCHEMA,
             "the rows have %d columns, the table %d", batch->n_cols, schema->n_fields);
    for (int32_t c = 0; c < batch->n_cols; c++) {
        const dl_type_field *f = &schema->fields[c];
        if (!dl_vec_type_equal(batch->cols[c]->type, f->type)) {
            dl_buf want;
            dl_buf got;
            dl_buf_init(&want, w->alloc);
            dl_buf_init(&got, w->alloc);
            dl_status s1 = dl_vec_type_to_string(f->type, &want, err);
            dl_status s2 = dl_vec_type_to_string(batch->cols[c]->type, &got, err);
            if (s1 == DL_OK && s2 == DL_OK) {
                (void)dl_error_set(err, DL_ERR_SCHEMA, "column '%s' is %s in the table, not %s",
                                   f->name, dl_buf_cstr(&want), dl_buf_cstr(&got));
            }
            dl_buf_destroy(&want);
            dl_buf_destroy(&got);
            return DL_ERR_SCHEMA;
        }
        if (f->is_nullable ||
            (batch->cols[c]->layout == DL_VEC_FLAT && !batch->cols[c]->validity)) {
            continue;
        }
        for (int64_t k = 0; k < batch->count; k++) {
            if (dl_vec_is_null(batch->cols[c], dl_vec_batch_row(batch, k))) {
                return not_null_violated(w, f, err);
            }
        }
    }
    return DL_OK;
}

/* Writes rows sel[0..n) of batch (data columns only) to slot sl's open file, closing it at
 * the target size or row count. */
static dl_status
write_file_rows(dl_ops_writer *w, slot *sl, const dl_batch *batch, const uint32_t *sel, int64_t n,
                dl_error *err) {
    if (sl->pq == NULL) {
        DL_TRY(open_file(w, sl, err));
    }
    dl_vector **cols = w->view_cols;
    dl_status s = DL_OK;
    int32_t n_viewed = w->n_data;
    for (int32_t i = 0; i < w->n_data; i++) {
        cols[i] = batch->cols[w->data_cols[i]];
        dl_vector *v = NULL;
        if (w->retype[i] == NULL) {
            continue;
        }
        /* a view of the column under its physical type (nested fields renamed) */
        s = dl_vec_slice(cols[i], 0, cols[i]->length, &v, err);
        if (s != DL_OK) {
            n_viewed = i;
            break;
        }
        v->type = w->retype[i];
        cols[i] = v;
    }
    if (s == DL_OK) {
        dl_batch view = {.schema = w->data_type,
                         .n_cols = w->n_data,
                         .cols = cols,
                         .count = n,
                         .sel = sel,
                         .alloc = batch->alloc};
        s = dl_pq_writer_write(sl->pq, &view, err);
    }
    for (int32_t i = 0; i < n_viewed; i++) {
        if (w->retype[i] != NULL) {
            dl_vec_unref(cols[i]);
        }
    }
    if (s != DL_OK) {
        dl_pq_writer_abort(sl->pq);
        sl->pq = NULL;
        return s;
    }
    if (dl_pq_writer_size(sl->pq) >= w->spec.target_file_bytes ||
        (w->spec.max_file_rows > 0 && dl_pq_writer_num_rows(sl->pq) >= w->spec.max_file_rows)) {
        return close_file(w, sl, err);
    }
    return DL_OK;
}

/* Writes rows sel[0..n) of batch to slot sl, in pieces that fit the files' row limit. */
static dl_status
write_rows(dl_ops_writer *w, slot *sl, const dl_batch *batch, const uint32_t *sel, int64_t n,
           dl_error *err) {
    uint32_t all[DL_BATCH_CAPACITY];
    if (sel == NULL && w->spec.max_file_rows > 0) {
        for (int64_t k = 0; k < n; k++) {
            all[k] = (uint32_t)dl_vec_batch_row(batch, k);
        }
        sel = all;
    }
    while (n > 0) {
        int64_t take = n;
        if (w->spec.max_file_rows > 0) {
            int64_t in_file = sl->pq != NULL ? dl_pq_writer_num_rows(sl->pq) : 0;
            take = w->spec.max_file_rows - in_file < n ? w->spec.max_file_rows - in_file : n;
        }
        DL_TRY(write_file_rows(w, sl, batch, sel, take, err));
        sel = sel != NULL ? sel + take : NULL;
        n -= take;
    }
    return DL_OK;
}

static dl_status
write_partitioned(dl_ops_writer *w, const dl_batch *batch, dl_error *err) {
    int32_t slot_of[DL_BATCH_CAPACITY];
    uint32_t sel[DL_BATCH_CAPACITY];
    int32_t touched[DL_BATCH_CAPACITY];
    int32_t n_touched = 0;
    for (int64_t k = 0; k < batch->count; k++) {
        int64_t row = dl_vec_batch_row(batch, k);
        DL_TRY(row_key(w, batch, row, err));
        DL_TRY(find_slot(w, batch, row, &slot_of[k], err));
        bool seen = false;
        for (int32_t t = n_touched - 1; t >= 0 && !seen; t--) {
            seen = touched[t] == slot_of[k];
        }
        if (!seen) {
            touched[n_touched++] = slot_of[k];
        }
    }
    for (int32_t t = 0; t < n_touched; t++) {
        int64_t n = 0;
        for (int64_t k = 0; k < batch->count; k++) {
            if (slot_of[k] == touched[t]) {
                sel[n++] = (uint32_t)dl_vec_batch_row(batch, k);
            }
        }
        DL_TRY(write_rows(w, w->slots[touched[t]], batch, sel, n, err));
    }
    return DL_OK;
}

dl_status
dl_ops_writer_write(dl_ops_writer *w, const dl_batch *batch, dl_error *err) {
    if (batch->count == 0) {
        return DL_OK;
    }
    DL_TRY(check_batch(w, batch, err));
    if (w->spec.check_rows != NULL) {
        DL_TRY(w->spec.check_rows(w->spec.check_ctx, batch, err));
    }
    DL_CHECK(batch->count <= DL_BATCH_CAPACITY, err, DL_ERR_INVALID_ARG,
             "a batch holds more than %d rows", DL_BATCH_CAPACITY);
    if (w->spec.n_partition_columns > 0) {
        return write_partitioned(w, batch, err);
    }
    if (w->n_slots == 0) {
        dl_buf_reset(&w->key);
        int32_t idx = 0;
        DL_TRY(find_slot(w, batch, 0, &idx, err));
    }
    return write_rows(w, w->slots[0], batch, batch->sel, batch->count, err);
}

dl_status
dl_ops_writer_finish(dl_ops_writer *w, dl_error *err) {
    for (int32_t i = 0; i < w->n_slots; i++) {
        if (w->slots[i]->pq != NULL) {
            DL_TRY(close_file(w, w->slots[i], err));
        }
    }
    return DL_OK;
}

size_t
dl_ops_writer_file_count(const dl_ops_writer *w) {
    return w->n_files;
}

const dl_ops_file *
dl_ops_writer_file(const dl_ops_writer *w, size_t i) {
    return i < w->n_files ? &w->files[i] : NULL;
}

int64_t
dl_ops_writer_rows(const dl_ops_writer *w) {
    return w->rows;
}

int64_t
dl_ops_writer_bytes(const dl_ops_writer *w) {
    return w->bytes;
}

dl_status
dl_ops_writer_stage(const dl_ops_writer *w, dl_delta_tx *tx, bool with_metrics, dl_error *err) {
    for (size_t i = 0; i < w->n_files; i++) {
        const dl_ops_file *f = &w->files[i];
        dl_delta_add_file add = {.path = f->path,
                                 .partition_values = f->partition_values,
                                 .n_partition_values = f->n_partition_values,
                                 .size = f->size,
                                 .modification_time = w->spec.modification_time,
                                 .data_change = w->spec.data_change,
                                 .stats = f->stats};
        DL_TRY(dl_delta_tx_add(tx, &add, err));
    }
    if (with_metrics) {
        DL_TRY(dl_delta_tx_metric(tx, "numFiles", (int64_t)w->n_files, err));
        DL_TRY(dl_delta_tx_metric(tx, "numOutputRows", w->rows, err));
        DL_TRY(dl_delta_tx_metric(tx, "numOutputBytes", w->bytes, err));
    }
    return DL_OK;
}

dl_status
dl_ops_writer_stage_cdc(const dl_ops_writer *w, dl_delta_tx *tx, dl_error *err) {
    for (size_t i = 0; i < w->n_files; i++) {
        const dl_ops_file *f = &w->files[i];
        DL_TRY(dl_delta_tx_add_cdc(tx, f->path, f->partition_values, f->n_partition_values, f->size,
                                   NULL, 0, err));
    }
    return DL_OK;
}

void
dl_ops_writer_abort(dl_ops_writer *w) {
    if (w == NULL) {
        return;
    }
    for (int32_t i = 0; i < w->n_slots; i++) {
        dl_pq_writer_abort(w->slots[i]->pq);
        w->slots[i]->pq = NULL;
    }
    for (size_t i = 0; i < w->n_files; i++) {
        remove_quietly(w, w->files[i].path);
    }
    w->n_files = 0;
    w->rows = 0;
    w->bytes = 0;
}

void
dl_ops_writer_free(dl_ops_writer *w) {
    if (w == NULL) {
        return;
    }
    for (int32_t i = 0; i < w->n_slots; i++) {
        dl_pq_writer_abort(w->slots[i]->pq);
    }
    dl_buf_destroy(&w->full);
    dl_buf_destroy(&w->key);
    dl_buf_destroy(&w->val);
    dl_hmap_destroy(&w->index);
    dl_arena_destroy(&w->arena);
    dl_mem_free(w->alloc, w, sizeof(*w));
}
