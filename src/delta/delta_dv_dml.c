/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Rows deleted through deletion vectors by DML statements (delta_dv_dml.h): the marks per live
 * file, and staging them as Spark's DMLWithDeletionVectorsHelper.processUnmodifiedData does
 * (files fully deleted removed; the others re-added with the united DV and wide bounds).
 */
#include "delta/delta_dv_dml.h"

#include <string.h>

#include "delta/delta_dv.h"
#include "json/json.h"
#include "parquet/pq_reader.h"

struct dl_delta_dv_marks {
    dl_delta_snapshot *snap; /* referenced */
    const dl_allocator *alloc;
    size_t n_files;    /* the snapshot's live files */
    dl_delta_dv **dvs; /* per live file: the rows marked, NULL when none */
    int64_t n_rows;    /* rows marked, over every file */
    size_t n_marked;   /* files with a set */
};

dl_status
dl_delta_dv_marks_new(dl_delta_snapshot *snap, const dl_allocator *alloc, dl_delta_dv_marks **out,
                      dl_error *err) {
    *out = NULL;
    alloc = alloc != NULL ? alloc : dl_allocator_default();
    dl_delta_dv_marks *m = dl_mem_alloc_zero(alloc, sizeof(*m));
    DL_CHECK(m != NULL, err, DL_ERR_NOMEM, "out of memory collecting deleted rows");
    m->alloc = alloc;
    m->n_files = dl_delta_snapshot_file_count(snap);
    m->dvs = dl_mem_alloc_zero(alloc, (m->n_files + 1) * sizeof(dl_delta_dv *));
    if (m->dvs == NULL) {
        dl_mem_free(alloc, m, sizeof(*m));
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory collecting deleted rows of %zu files",
                m->n_files);
    }
    m->snap = dl_delta_snapshot_ref(snap);
    *out = m;
    return DL_OK;
}

void
dl_delta_dv_marks_free(dl_delta_dv_marks *marks) {
    if (marks == NULL) {
        return;
    }
    for (size_t i = 0; i < marks->n_files; i++) {
        dl_delta_dv_free(marks->dvs[i]);
    }
    dl_mem_free(marks->alloc, marks->dvs, (marks->n_files + 1) * sizeof(dl_delta_dv *));
    dl_delta_snapshot_unref(marks->snap);
    dl_mem_free(marks->alloc, marks, sizeof(*marks));
}

dl_status
dl_delta_dv_marks_add(dl_delta_dv_marks *marks, size_t file, const int64_t *rows, size_t n,
                      dl_error *err) {
    DL_CHECK(file < marks->n_files, err, DL_ERR_INVALID_ARG,
             "deleting rows of file %zu of a snapshot with %zu live files", file, marks->n_files);
    if (n == 0) {
        return DL_OK;
    }
    dl_delta_dv *dv = marks->dvs[file];
    if (dv == NULL) {
        DL_TRY(dl_delta_dv_new(marks->alloc, &marks->dvs[file], err));
        dv = marks->dvs[file];
        marks->n_marked++;
    }
    int64_t before = dl_delta_dv_cardinality(dv);
    dl_status s = dl_delta_dv_add_rows(dv, rows, n, err);
    marks->n_rows += dl_delta_dv_cardinality(dv) - before;
    if (s != DL_OK) {
        dl_error_prefix(err, "%s", dl_delta_snapshot_file(marks->snap, file)->path.ptr);
    }
    return s;
}

int64_t
dl_delta_dv_marks_rows(const dl_delta_dv_marks *marks) {
    return marks->n_rows;
}

size_t
dl_delta_dv_marks_files(const dl_delta_dv_marks *marks) {
    return marks->n_marked;
}

/* ---- staging ------------------------------------------------------------------------- */

typedef struct stager {
    dl_delta_dv_marks *m;
    dl_delta_tx *tx;
    dl_store *store;
    const char *root;
    dl_arena arena;             /* stats texts, DV paths */
    dl_delta_stats_reader rd;   /* reads stats back from the log */
    dl_json_doc doc;            /* one file's stats */
    dl_delta_dv_file_writer *w; /* opened by the first DV written */
    dl_delta_dv_marks_result *out;
} stager;

/* The rows in the data file (physical, before any DV), from the Parquet footer. */
static dl_status
footer_rows(stager *st, const dl_delta_file *f, int64_t *out, dl_error *err) {
    DL_CHECK((f->flags & DL_DELTA_FILE_ABSOLUTE) == 0, err, DL_ERR_UNSUPPORTED,
             "%s: the file's stats lack numRecords and its path is outside the table, so its "
             "rows cannot be counted for a deletion vector",
             f->path.ptr);
    const char *path = dl_arena_printf(&st->arena, "%s%s%s", st->root,
                                       st->root[0] != '\0' ? "/" : "", f->path.ptr);
    DL_CHECK(path != NULL, err, DL_ERR_NOMEM, "out of memory");
    dl_pq_file *pq = NULL;
    DL_TRY(dl_pq_file_open(st->store, path, st->m->alloc, &pq, err));
    *out = dl_pq_file_num_rows(pq);
    dl_pq_file_free(pq);
    return DL_OK;
}

/*
 * The file's physical row count and its stats for the add with a DV: the stats as they are
 * with "tightBounds":false (and numRecords first when they lacked it), or
 * {"numRecords":n,"tightBounds":false} when the file has none. *out_stats NULL when the
 * file is fully deleted (no add is written).
 */
static dl_status
file_stats(stager *st, const dl_delta_file *f, int64_t *out_rows, dl_str *out_text, bool *out_has,
           dl_error *err) {
    *out_rows = -1;
    DL_TRY(dl_delta_file_stats_json(st->m->snap, f, &st->rd, out_text, out_has, err));
    if (*out_has) {
        DL_TRY_CTX(dl_json_doc_parse(&st->doc, out_text->ptr, out_text->len, err), err, "%s: stats",
                   f->path.ptr);
        dl_json_val root = dl_json_doc_root(&st->doc);
        DL_CHECK(dl_json_val_type(root) == DL_JSON_OBJECT, err, DL_ERR_CORRUPT,
                 "%s: stats are not a JSON object", f->path.ptr);
        dl_json_val n = dl_json_obj_get(root, "numRecords");
        if (!dl_json_val_is_missing(n) && !dl_json_val_is_null(n)) {
            DL_TRY_CTX(dl_json_val_get_int64(n, out_rows, err), err, "%s: stats numRecords",
                       f->path.ptr);
        }
    }
    if (*out_rows < 0) {
        DL_TRY(footer_rows(st, f, out_rows, err));
    }
    return DL_OK;
}

/* Writes the stats of the add with a DV (see file_stats) into the arena. */
static dl_status
wide_stats(stager *st, int64_t rows, bool has_stats, bool has_num_records, const char **out,
           dl_error *err) {
    dl_buf b;
    dl_buf_init(&b, st->m->alloc);
    dl_json_writer w;
    dl_json_writer_init(&w, &b, 0);
    dl_status s = dl_json_writer_begin_object(&w, err);
    if (s == DL_OK && !has_num_records) {
        s = dl_json_writer_key_cstr(&w, "numRecords", err);
        s = s == DL_OK ? dl_json_writer_int64(&w, rows, err) : s;
    }
    dl_json_iter it = {0};
    if (has_stats) {
        it = dl_json_val_iter(dl_json_doc_root(&st->doc));
    }
    dl_str key;
    dl_json_val v;
    while (has_stats && s == DL_OK && dl_json_iter_next(&it, &key, &v)) {
        if (dl_str_eq(key, DL_STR("tightBounds"))) {
            continue;
        }
        s = dl_json_writer_key(&w, key, err);
        s = s == DL_OK ? dl_json_writer_value(&w, v, err) : s;
    }
    if (s == DL_OK) {
        s = dl_json_writer_key_cstr(&w, "tightBounds", err);
    }
    s = s == DL_OK ? dl_json_writer_bool(&w, false, err) : s;
    s = s == DL_OK ? dl_json_writer_end_object(&w, err) : s;
    s = s == DL_OK ? dl_json_writer_finish(&w, err) : s;
    if (s == DL_OK) {
        *out = dl_arena_strndup(&st->arena, (const char *)b.data, b.len);
        s = *out != NULL ? DL_OK : dl_error_set(err, DL_ERR_NOMEM, "out of memory");
    }
    dl_json_writer_destroy(&w);
    dl_buf_destroy(&b);
    return s;
}

/* Adds the file's own DV to the marked rows. */
static dl_status
unite_old(stager *st, const dl_delta_file *f, dl_delta_dv *dv, dl_error *err) {
    if (f->dv == NULL) {
        return DL_OK;
    }
    dl_delta_dv *old = NULL;
    DL_TRY_CTX(dl_delta_dv_load(st->store, st->root, f->dv, st->m->alloc, &old, err), err, "%s",
               f->path.ptr);
    dl_status s = dl_delta_dv_union(dv, old, err);
    dl_delta_dv_free(old);
    return s;
}

/* The file keeps some rows: its new DV written, the old logical file replaced. */
static dl_status
stage_dv(stager *st, const dl_delta_file *f, dl_delta_dv *dv, int64_t rows, bool has_stats,
         dl_error *err) {
    bool has_num_records =
        has_stats &&
        !dl_json_val_is_missing(dl_json_obj_get(dl_json_doc_root(&st->doc), "numRecords"));
    const char *stats = NULL;
    DL_TRY(wide_stats(st, rows, has_stats, has_num_records, &stats, err));
    if (st->w == NULL) {
        DL_TRY(
            dl_delta_dv_file_writer_open(st->store, st->root, "", NULL, &st->arena, &st->w, err));
    }
    dl_delta_dv_optimize(dv);
    dl_delta_dv_desc desc;
    DL_TRY_CTX(dl_delta_dv_file_writer_add(st->w, dv, &desc, err), err, "%s", f->path.ptr);
    st->out->dv_file_bytes = (int64_t)desc.offset + desc.size_in_bytes + 8;
    DL_TRY(dl_delta_tx_remove_snapshot_file(st->tx, f, true, err));
    DL_TRY(dl_delta_tx_add_snapshot_file(st->tx, f, &desc, stats, err));
    st->out->n_dvs_added += f->dv == NULL ? 1 : 0;
    st->out->n_dvs_updated += f->dv != NULL ? 1 : 0;
    return DL_OK;
}

static dl_status
stage_file(stager *st, size_t i, dl_error *err) {
    const dl_delta_file *f = dl_delta_snapshot_file(st->m->snap, i);
    dl_delta_dv *dv = st->m->dvs[i];
    DL_TRY(unite_old(st, f, dv, err));
    int64_t rows = -1;
    dl_str text = {0};
    bool has_stats = false;
    DL_TRY(file_stats(st, f, &rows, &text, &has_stats, err));
    DL_CHECK(dl_delta_dv_max_row(dv) < rows, err, DL_ERR_CORRUPT,
             "%s: deleting row %lld of a file of %lld rows", f->path.ptr,
             (long long)dl_delta_dv_max_row(dv), (long long)rows);
    if (dl_delta_dv_cardinality(dv) < rows) {
        return stage_dv(st, f, dv, rows, has_stats, err);
    }
    DL_TRY(dl_delta_tx_remove_snapshot_file(st->tx, f, true, err));
    st->out->n_files_removed++;
    st->out->removed_bytes += f->size > 0 ? f->size : 0;
    st->out->n_dvs_removed += f->dv != NULL ? 1 : 0;
    return DL_OK;
}

dl_status
dl_delta_dv_marks_stage(dl_delta_dv_marks *marks, dl_delta_tx *tx, dl_delta_dv_marks_result *out,
                        dl_error *err) {
    memset(out, 0, sizeof(*out));
    stager st = {.m = marks,
                 .tx = tx,
                 .store = dl_delta_snapshot_store(marks->snap),
                 .root = dl_delta_snapshot_root(marks->snap),
                 .out = out};
    if (st.root == NULL) {
        st.root = "";
    }
    dl_arena_init(&st.arena, marks->alloc, 0);
    dl_delta_stats_reader_init(&st.rd, marks->alloc);
    dl_json_doc_init(&st.doc, marks->alloc);
    dl_status s = DL_OK;
    for (size_t i = 0; i < marks->n_files && s == DL_OK; i++) {
        if (marks->dvs[i] != NULL && dl_delta_dv_cardinality(marks->dvs[i]) > 0) {
            s = stage_file(&st, i, err);
        }
    }
    if (s == DL_OK && st.w != NULL) {
        s = dl_delta_dv_file_writer_commit(st.w, err);
    } else {
        dl_delta_dv_file_writer_abort(st.w);
    }
    dl_json_doc_destroy(&st.doc);
    dl_delta_stats_reader_destroy(&st.rd);
    dl_arena_destroy(&st.arena);
    return s;
}
