/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target: bytes -> a whole Parquet file, read through the reader (pq_reader.h): footer,
 * field tree, every readable column (all at once, else each top-level column alone), in small
 * batches with CRCs checked and then with dictionary vectors flattened, the row-group
 * filters over every leaf's statistics, and reads filtered through the page index (ColumnIndex
 * and OffsetIndex) on the first leaves.
 *
 * Properties checked (a violation traps):
 *   - no crash, undefined behaviour or leak (the sanitizers watch), and bounded memory: pages
 *     are limited to 8 MiB decompressed and batches to 1 Mi leaf values, so a small input
 *     cannot claim gigabytes (libFuzzer's -rss_limit_mb / -malloc_limit_mb catch the rest);
 *   - a refused input has a status of CORRUPT, UNSUPPORTED or LIMIT and a message;
 *   - every batch passes dl_vec_batch_check and has at most batch_rows rows, and the rows of
 *     a complete read add up to the footer's count;
 *   - a filtered read returns batches of rising file rows (dl_pq_reader_batch_first_row), no
 *     more rows than the file has, and counts no more skipped rows than it passed over.
 */
#include <stdio.h>
#include <string.h>

#include "base/base.h"
#include "parquet/pq_reader.h"

#define MAX_BATCHES 256

static void
require(bool cond) {
    if (!cond) {
        __builtin_trap();
    }
}

static void
check_refusal(dl_status s, const dl_error *err) {
    if (s != DL_ERR_CORRUPT && s != DL_ERR_UNSUPPORTED && s != DL_ERR_LIMIT) {
        (void)fprintf(stderr, "unexpected %s: %s\n", dl_status_name(s), err->msg);
        __builtin_trap();
    }
    require(err->msg[0] != '\0');
}

/* Reads with opts; returns the rows read, or -1 after a (checked) refusal. *out_complete
 * (optional) says whether the read reached the end. */
static int64_t
read_columns(dl_pq_file *file, const dl_pq_read_options *opts, bool *out_complete) {
    dl_error err;
    dl_pq_reader *r = NULL;
    dl_status s = dl_pq_reader_new(file, opts, &r, &err);
    if (s != DL_OK) {
        check_refusal(s, &err);
        return -1;
    }
    dl_batch *batch = NULL;
    require(dl_vec_batch_new(NULL, dl_pq_reader_schema(r), 0, &batch, &err) == DL_OK);
    int64_t rows = 0;
    for (int i = 0; i < MAX_BATCHES; i++) {
        s = dl_pq_reader_next(r, batch, &err);
        if (s != DL_OK) {
            check_refusal(s, &err);
            rows = -1;
            break;
        }
        if (batch->count == 0) {
            if (out_complete != NULL) {
                *out_complete = true;
            }
            break;
        }
        require(batch->count <= opts->batch_rows);
        require(dl_vec_batch_check(batch, &err) == DL_OK);
        rows += batch->count;
    }
    dl_vec_batch_free(batch);
    dl_pq_reader_free(r);
    return rows;
}

static void
probe_filters(const dl_pq_file *file) {
    const dl_pq_footer *f = dl_pq_file_footer(file);
    const dl_pq_field *root = dl_pq_file_root(file);
    dl_pq_scalar values[4] = {{.kind = DL_PQ_SCALAR_INT, .i = 3},
                              {.kind = DL_PQ_SCALAR_DOUBLE, .f = -1.5},
                              {.kind = DL_PQ_SCALAR_BYTES, .s = DL_STR("m")},
                              {.kind = DL_PQ_SCALAR_DECIMAL, .d = 12345, .scale = 2}};
    for (size_t i = 0; i < root->n_children; i++) {
        const dl_pq_field *c = root->children[i];
        for (size_t op = 0; op <= DL_PQ_FILTER_IS_NOT_NULL; op++) {
            dl_pq_filter flt = {.op = (dl_pq_filter_op)op,
                                .column = c,
                                .values = values,
                                .n_values = op == DL_PQ_FILTER_IN ? 4 : 1};
            for (size_t g = 0; g < f->meta.n_row_groups && g < 8; g++) {
                (void)dl_pq_filter_may_match(file, &flt, g);
            }
        }
    }
}

/* Reads every column with filter; checks the batches' file rows rise and stay in the file. */
static void
read_filtered(dl_pq_file *file, const dl_pq_filter *filter) {
    dl_error err;
    dl_pq_read_options opts = {.filter = filter,
                               .batch_rows = 50,
                               .max_page_size = (size_t)8 << 20,
                               .max_batch_values = (int64_t)1 << 20};
    dl_pq_reader *r = NULL;
    dl_status s = dl_pq_reader_new(file, &opts, &r, &err);
    if (s != DL_OK) {
        check_refusal(s, &err);
        return;
    }
    dl_batch *batch = NULL;
    require(dl_vec_batch_new(NULL, dl_pq_reader_schema(r), 0, &batch, &err) == DL_OK);
    int64_t next = 0;
    int64_t rows = 0;
    for (int i = 0; i < MAX_BATCHES; i++) {
        s = dl_pq_reader_next(r, batch, &err);
        if (s != DL_OK) {
            check_refusal(s, &err);
            break;
        }
        if (batch->count == 0) {
            break;
        }
        int64_t first = dl_pq_reader_batch_first_row(r);
        require(first >= next && first + batch->count <= dl_pq_file_num_rows(file));
        require(dl_vec_batch_check(batch, &err) == DL_OK);
        next = first + batch->count;
        rows += batch->count;
    }
    dl_pq_reader_stats st;
    dl_pq_reader_get_stats(r, &st);
    require(st.rows == rows && st.rows_skipped >= 0 && st.pages_skipped >= 0);
    require(st.rows + st.rows_skipped <= dl_pq_file_num_rows(file));
    dl_vec_batch_free(batch);
    dl_pq_reader_free(r);
}

/* Range, IN and OR filters over the first leaves of the file. */
static void
probe_page_index(dl_pq_file *file) {
    const dl_pq_field *root = dl_pq_file_root(file);
    dl_pq_scalar lo[3] = {{.kind = DL_PQ_SCALAR_INT, .i = 2},
                          {.kind = DL_PQ_SCALAR_DOUBLE, .f = 2.5},
                          {.kind = DL_PQ_SCALAR_BYTES, .s = DL_STR("b")}};
    dl_pq_scalar hi[3] = {{.kind = DL_PQ_SCALAR_INT, .i = 40},
                          {.kind = DL_PQ_SCALAR_DOUBLE, .f = 40.5},
                          {.kind = DL_PQ_SCALAR_BYTES, .s = DL_STR("m")}};
    for (size_t i = 0; i < root->n_children && i < 3; i++) {
        const dl_pq_field *c = root->children[i];
        if (c->kind != DL_PQ_FIELD_LEAF) {
            continue;
        }
        dl_pq_filter range[2] = {{.op = DL_PQ_FILTER_GE, .column = c, .values = lo, .n_values = 1},
                                 {.op = DL_PQ_FILTER_LE, .column = c, .values = hi, .n_values = 1}};
        dl_pq_filter both = {.op = DL_PQ_FILTER_AND, .children = range, .n_children = 2};
        read_filtered(file, &both);
        dl_pq_filter in = {.op = DL_PQ_FILTER_IN, .column = c, .values = hi, .n_values = 3};
        dl_pq_filter either[2] = {in, {.op = DL_PQ_FILTER_IS_NULL, .column = c}};
        dl_pq_filter any = {.op = DL_PQ_FILTER_OR, .children = either, .n_children = 2};
        read_filtered(file, &any);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    dl_error err;
    dl_pq_file *file = NULL;
    dl_status s = dl_pq_file_open_memory(data, size, "fuzz.parquet", NULL, &file, &err);
    if (s != DL_OK) {
        check_refusal(s, &err);
        return 0;
    }
    probe_filters(file);
    dl_pq_read_options opts = {
        .batch_rows = 64, .max_page_size = (size_t)8 << 20, .max_batch_values = (int64_t)1 << 20};
    bool complete = false;
    int64_t rows = read_columns(file, &opts, &complete);
    if (rows >= 0 && complete) {
        require(rows == dl_pq_file_num_rows(file));
    }
    if (rows < 0) {
        /* Each top-level column on its own: a bad or unsupported one must not hide the rest. */
        const dl_pq_field *root = dl_pq_file_root(file);
        for (size_t i = 0; i < root->n_children && i < 16; i++) {
            const dl_pq_field *col = root->children[i];
            dl_pq_read_options one = opts;
            one.columns = &col;
            one.n_columns = 1;
            (void)read_columns(file, &one, NULL);
        }
    } else {
        opts.is_dict_flattened = true;
        opts.is_crc_skipped = true;
        opts.batch_rows = 2048;
        (void)read_columns(file, &opts, NULL);
        probe_page_index(file);
    }
    dl_pq_file_free(file);
    return 0;
}
