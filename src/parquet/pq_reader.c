/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The reader: a plan (the chosen fields, pruned), one leaf column reader per chosen leaf, and
 * a walk over the chosen row groups that fills batches.
 *
 * Per batch of n rows (at most batch_rows, never past the row group's end): every leaf
 * reads the level entries and values of n records (pq_column.c), the batch's vectors are
 * reset and bound to the leaves, and each top-level column is assembled from the levels
 * (pq_assemble.c). At the end of a row group every leaf must have used up its column chunk.
 *
 * With a filter, each row group its statistics leave in is judged on the Bloom filters, then
 * the page index (pq_reader_index.c): the rows to read become a list of ranges, every leaf gets a
 * plan of the pages that hold them, and each range is read as batches of consecutive rows, every
 * leaf first moved to the range's first row (dl_pq_col_seek). A row group whose ranges are empty is
 * skipped like one its statistics rule out.
 */
#include <stdatomic.h>
#include <string.h>

#include "parquet/pq_reader_int.h"

struct dl_pq_reader {
    dl_pq_file *file;
    const dl_allocator *alloc;
    dl_arena arena; /* plan, types, row group list */
    dl_pq_read_options opts;
    dl_pq_scratch *own_scratch; /* when opts.scratch is NULL */
    const dl_type *schema;
    dl_pq_plan **top;
    size_t n_top;
    dl_pq_col *cols;
    size_t n_cols;
    dl_vector **targets;
    int32_t *rgs;
    size_t n_rgs;
    size_t next_rg;
    int32_t cur_rg;          /* row group being read, -1 when none */
    int64_t rg_left;         /* its rows not yet returned (in ranges, when there are) */
    int64_t rg_pos;          /* its row the next batch starts at (at least) */
    int64_t *rg_start;       /* file row of each row group's first row */
    dl_arena rg_arena;       /* the page index and page plans of the row group */
    dl_pq_row_range *ranges; /* the rows to read of the row group; NULL = all */
    size_t n_ranges;
    size_t range_i;                /* the range being read */
    const dl_pq_page_plan **plans; /* per column: its page plan, NULL = every page */
    int32_t batch_rg;              /* row group of the last batch */
    int64_t batch_first;           /* file row of the last batch's first row */
    dl_status failed;
    dl_error failed_err;
    dl_pq_reader_stats stats;
};

/* ---- The plan ---------------------------------------------------------------------------- */

typedef struct plan_ctx {
    dl_pq_reader *r;
    const dl_pq_field *const *chosen;
    size_t n_chosen;
} plan_ctx;

static bool
is_ancestor_or_self(const dl_pq_field *anc, const dl_pq_field *f) {
    for (; f != NULL; f = f->parent) {
        if (f == anc) {
            return true;
        }
    }
    return false;
}

/* 2: f is chosen or under a chosen field; 1: a chosen field is below f; 0: neither. */
static int
pick(const plan_ctx *p, const dl_pq_field *f) {
    int best = 0;
    for (size_t i = 0; i < p->n_chosen && best < 2; i++) {
        if (is_ancestor_or_self(p->chosen[i], f)) {
            best = 2;
        } else if (is_ancestor_or_self(f, p->chosen[i])) {
            best = 1;
        }
    }
    return best;
}

static dl_status
plan_oom(dl_error *err) {
    DL_FAIL(err, DL_ERR_NOMEM, "out of memory planning a Parquet read");
}

static dl_status build_plan(plan_ctx *p, const dl_pq_field *f, bool whole, dl_pq_plan **out,
                            dl_error *err);

static dl_status
plan_children(plan_ctx *p, const dl_pq_field *f, bool whole, dl_pq_plan *plan, dl_error *err) {
    dl_arena *a = &p->r->arena;
    plan->children = dl_arena_alloc_array(a, DL_MAX(f->n_children, 1), sizeof(dl_pq_plan *));
    if (plan->children == NULL) {
        return plan_oom(err);
    }
    for (size_t i = 0; i < f->n_children; i++) {
        const dl_pq_field *c = f->children[i];
        int k = whole ? 2 : pick(p, c);
        bool keep = k > 0 || f->kind == DL_PQ_FIELD_LIST || f->kind == DL_PQ_FIELD_MAP;
        if (keep) {
            /* A list's element and a map's key and value are never pruned away: an unchosen
             * one is read whole. */
            DL_TRY(build_plan(p, c, k != 1, &plan->children[plan->n_children++], err));
        }
    }
    return DL_OK;
}

static dl_status
plan_type(plan_ctx *p, dl_pq_plan *plan, dl_error *err) {
    dl_arena *a = &p->r->arena;
    const dl_pq_field *f = plan->field;
    switch (f->kind) {
    case DL_PQ_FIELD_LIST:
        return dl_vec_type_array(a, plan->children[0]->type, plan->children[0]->field->is_nullable,
                                 &plan->type, err);
    case DL_PQ_FIELD_MAP:
        return dl_vec_type_map(a, plan->children[0]->type, plan->children[1]->type,
                               plan->children[1]->field->is_nullable, &plan->type, err);
    default: {
        dl_type_field *tf = dl_arena_alloc_array(a, DL_MAX(plan->n_children, 1), sizeof(*tf));
        if (tf == NULL) {
            return plan_oom(err);
        }
        for (size_t i = 0; i < plan->n_children; i++) {
            tf[i].name = plan->children[i]->field->name;
            tf[i].type = plan->children[i]->type;
            tf[i].is_nullable = plan->children[i]->field->is_nullable;
        }
        return dl_vec_type_struct(a, tf, (int32_t)plan->n_children, &plan->type, err);
    }
    }
}

static dl_status
build_plan(plan_ctx *p, const dl_pq_field *f, bool whole, dl_pq_plan **out, dl_error *err) {
    dl_pq_reader *r = p->r;
    if (f->type == NULL && (whole || f->kind == DL_PQ_FIELD_LEAF)) {
        DL_FAIL(err, DL_ERR_UNSUPPORTED, "column '%s': %s",
                f->node->path[0] != '\0' ? f->node->path : f->name, f->unsupported);
    }
    dl_pq_plan *plan = dl_arena_alloc_zero(&r->arena, sizeof(*plan));
    if (plan == NULL) {
        return plan_oom(err);
    }
    *out = plan;
    plan->field = f;
    if (f->kind == DL_PQ_FIELD_LEAF) {
        plan->col = (int32_t)r->n_cols++;
        plan->level_col = plan->col;
        plan->type = f->type;
        return DL_OK;
    }
    DL_TRY(plan_children(p, f, whole, plan, err));
    plan->level_col = plan->children[0]->level_col;
    if (whole) {
        plan->type = f->type;
        return DL_OK;
    }
    return plan_type(p, plan, err);
}

/* The top-level column (child of the root) that f lies in. */
static const dl_pq_field *
top_of(const dl_pq_field *f) {
    while (f->parent != NULL && f->parent->parent != NULL) {
        f = f->parent;
    }
    return f;
}

/* Collects the plan's leaves in column-reader order. */
static void
collect_leaves(const dl_pq_plan *plan, const dl_pq_field **leaves) {
    if (plan->field->kind == DL_PQ_FIELD_LEAF) {
        leaves[plan->col] = plan->field;
        return;
    }
    for (size_t i = 0; i < plan->n_children; i++) {
        collect_leaves(plan->children[i], leaves);
    }
}

static dl_status
check_chosen(const dl_pq_reader *r, const dl_pq_field *const *chosen, size_t n, dl_error *err) {
    for (size_t i = 0; i < n; i++) {
        DL_CHECK(chosen[i] != NULL && is_ancestor_or_self(r->file->root, chosen[i]), err,
                 DL_ERR_INVALID_ARG, "column %zu of the read options is not a field of this file",
                 i);
    }
    return DL_OK;
}

static dl_status
build_top(dl_pq_reader *r, const dl_pq_field *const *chosen, size_t n_chosen, dl_error *err) {
    const dl_pq_field *root = r->file->root;
    plan_ctx p = {.r = r, .chosen = chosen, .n_chosen = n_chosen};
    bool all = chosen == NULL;
    for (size_t i = 0; !all && i < n_chosen; i++) {
        all = chosen[i] == root;
    }
    size_t cap = all ? root->n_children : n_chosen;
    const dl_pq_field **tops = dl_arena_alloc_array(&r->arena, DL_MAX(cap, 1), sizeof(void *));
    r->top = dl_arena_alloc_array(&r->arena, DL_MAX(cap, 1), sizeof(dl_pq_plan *));
    if (tops == NULL || r->top == NULL) {
        return plan_oom(err);
    }
    size_t n_tops = 0;
    for (size_t i = 0; i < (all ? root->n_children : n_chosen); i++) {
        const dl_pq_field *t = all ? root->children[i] : top_of(chosen[i]);
        bool seen = false;
        for (size_t j = 0; j < n_tops && !seen; j++) {
            seen = tops[j] == t;
        }
        if (!seen) {
            tops[n_tops++] = t;
        }
    }
    for (size_t i = 0; i < n_tops; i++) {
        DL_TRY(build_plan(&p, tops[i], all || pick(&p, tops[i]) == 2, &r->top[i], err));
    }
    r->n_top = n_tops;
    dl_type_field *tf = dl_arena_alloc_array(&r->arena, DL_MAX(n_tops, 1), sizeof(*tf));
    if (tf == NULL) {
        return plan_oom(err);
    }
    for (size_t i = 0; i < n_tops; i++) {
        tf[i].name = tops[i]->name;
        tf[i].type = r->top[i]->type;
        tf[i].is_nullable = tops[i]->is_nullable;
    }
    return dl_vec_type_struct(&r->arena, tf, (int32_t)n_tops, &r->schema, err);
}

/* A flat STRING/BINARY leaf read straight into a batch column may stay dictionary-encoded. */
static bool
may_dict(const dl_pq_reader *r, const dl_pq_field *leaf, bool is_top) {
    if (r->opts.is_dict_flattened || !is_top || leaf->node->max_rep_level > 0) {
        return false;
    }
    return leaf->conv == DL_PQ_CONV_BA_STR || leaf->conv == DL_PQ_CONV_BA_BIN ||
           leaf->conv == DL_PQ_CONV_FLBA_BIN;
}

static dl_status
init_cols(dl_pq_reader *r, dl_error *err) {
    const dl_pq_field **leaves =
        dl_arena_alloc_array(&r->arena, DL_MAX(r->n_cols, 1), sizeof(void *));
    r->cols = dl_arena_alloc_zero(&r->arena, DL_MAX(r->n_cols, 1) * sizeof(dl_pq_col));
    r->targets = dl_arena_alloc_zero(&r->arena, DL_MAX(r->n_cols, 1) * sizeof(dl_vector *));
    r->plans = dl_arena_alloc_zero(&r->arena, DL_MAX(r->n_cols, 1) * sizeof(dl_pq_page_plan *));
    if (leaves == NULL || r->cols == NULL || r->targets == NULL || r->plans == NULL) {
        return plan_oom(err);
    }
    for (size_t i = 0; i < r->n_top; i++) {
        collect_leaves(r->top[i], leaves);
    }
    for (size_t i = 0; i < r->n_cols; i++) {
        bool is_top = false;
        for (size_t t = 0; t < r->n_top && !is_top; t++) {
            is_top = r->top[t]->field == leaves[i];
        }
        DL_TRY(dl_pq_col_init(&r->cols[i], leaves[i], r->alloc, may_dict(r, leaves[i], is_top),
                              r->opts.is_utf8_unchecked, r->opts.max_batch_values, err));
        r->cols[i].may_view = is_top && leaves[i]->node->max_rep_level == 0;
        r->cols[i].pages.scratch = r->opts.scratch;
    }
    return DL_OK;
}

static dl_status
init_row_groups(dl_pq_reader *r, const dl_pq_read_options *opts, dl_error *err) {
    const dl_pq_file_metadata *md = &r->file->footer->meta;
    size_t n = opts != NULL && opts->row_groups != NULL ? opts->n_row_groups : md->n_row_groups;
    r->rgs = dl_arena_alloc_array(&r->arena, DL_MAX(n, 1), sizeof(int32_t));
    r->rg_start = dl_arena_alloc_array(&r->arena, DL_MAX(md->n_row_groups, 1), sizeof(int64_t));
    if (r->rgs == NULL || r->rg_start == NULL) {
        return plan_oom(err);
    }
    int64_t row = 0;
    for (size_t g = 0; g < md->n_row_groups; g++) {
        r->rg_start[g] = row;
        row += md->row_groups[g].num_rows;
    }
    for (size_t i = 0; i < n; i++) {
        int32_t g = opts != NULL && opts->row_groups != NULL ? opts->row_groups[i] : (int32_t)i;
        DL_CHECK(g >= 0 && (size_t)g < md->n_row_groups, err, DL_ERR_INVALID_ARG,
                 "row group %d does not exist (the file has %zu)", (int)g, md->n_row_groups);
        r->rgs[i] = g;
    }
    r->n_rgs = n;
    return DL_OK;
}

static dl_status
setup(dl_pq_reader *r, const dl_pq_read_options *opts, dl_error *err) {
    DL_CHECK(r->opts.batch_rows >= 0 && r->opts.batch_rows <= DL_BATCH_CAPACITY, err,
             DL_ERR_INVALID_ARG, "batch_rows %d is outside 1..%d", (int)r->opts.batch_rows,
             DL_BATCH_CAPACITY);
    if (r->opts.batch_rows == 0) {
        r->opts.batch_rows = DL_BATCH_CAPACITY;
    }
    if (r->opts.max_page_size == 0) {
        r->opts.max_page_size = DL_PQ_DEFAULT_MAX_PAGE_SIZE;
    }
    if (r->opts.max_batch_values <= 0) {
        r->opts.max_batch_values = DL_PQ_DEFAULT_MAX_BATCH_VALUES;
    }
    if (r->opts.scratch == NULL) {
        DL_TRY(dl_pq_scratch_new(r->alloc, &r->own_scratch, err));
        r->opts.scratch = r->own_scratch;
    }
    const dl_pq_field *const *chosen = opts != NULL ? opts->columns : NULL;
    size_t n_chosen = opts != NULL && opts->columns != NULL ? opts->n_columns : 0;
    DL_TRY(check_chosen(r, chosen, n_chosen, err));
    DL_TRY(build_top(r, chosen, n_chosen, err));
    DL_TRY(init_cols(r, err));
    return init_row_groups(r, opts, err);
}

dl_status
dl_pq_reader_new(dl_pq_file *file, const dl_pq_read_options *opts, dl_pq_reader **out,
                 dl_error *err) {
    const dl_allocator *alloc = opts != NULL && opts->alloc != NULL ? opts->alloc : file->alloc;
    dl_pq_reader *r = dl_mem_alloc_zero(alloc, sizeof(*r));
    DL_CHECK(r != NULL, err, DL_ERR_NOMEM, "'%s': out of memory for a reader", file->name);
    r->file = file;
    r->alloc = alloc;
    if (opts != NULL) {
        r->opts = *opts;
    }
    r->cur_rg = -1;
    r->batch_rg = -1;
    r->batch_first = -1;
    dl_arena_init(&r->arena, alloc, 4096);
    dl_arena_init(&r->rg_arena, alloc, 4096);
    dl_status s = setup(r, opts, err);
    if (s != DL_OK) {
        dl_error_prefix(err, "'%s'", file->name);
        dl_pq_reader_free(r);
        return s;
    }
    *out = r;
    return DL_OK;
}

void
dl_pq_reader_free(dl_pq_reader *reader) {
    if (reader == NULL) {
        return;
    }
    for (size_t i = 0; reader->cols != NULL && i < reader->n_cols; i++) {
        dl_pq_col_destroy(&reader->cols[i]);
    }
    dl_pq_scratch_free(reader->own_scratch);
    dl_arena_destroy(&reader->arena);
    dl_arena_destroy(&reader->rg_arena);
    dl_mem_free(reader->alloc, reader, sizeof(*reader));
}

const dl_type *
dl_pq_reader_schema(const dl_pq_reader *reader) {
    return reader->schema;
}

/* ---- Reading ----------------------------------------------------------------------------- */

static dl_status
close_row_group(dl_pq_reader *r, bool check_end, dl_error *err) {
    dl_status first = DL_OK;
    for (size_t i = 0; i < r->n_cols; i++) {
        dl_pq_col *c = &r->cols[i];
        r->stats.pages += c->pages_read;
        r->stats.dict_pages += c->dict_pages_read;
        r->stats.bytes_read += c->pages.bytes_read;
        c->pages.bytes_read = 0;
        c->pages_read = 0;
        c->dict_pages_read = 0;
        dl_status s = dl_pq_col_close_chunk(c, check_end && first == DL_OK, err);
        if (s != DL_OK && first == DL_OK) {
            dl_error_prefix(err, "row group %d, column '%s'", (int)r->cur_rg, c->node->path);
            first = s;
        }
    }
    r->cur_rg = -1;
    return first;
}

typedef struct open_task {
    dl_pq_reader *r;
    dl_pq_col *col;
    int32_t g;
} open_task;

static dl_status
open_col(dl_pq_reader *r, dl_pq_col *c, int32_t g, dl_error *err) {
    const dl_pq_page_plan *plan = r->plans[c - r->cols];
    int64_t first_row = r->ranges != NULL ? r->ranges[0].start : 0;
    DL_TRY_CTX(dl_pq_col_open_chunk(c, r->file, g, !r->opts.is_crc_skipped, r->opts.max_page_size,
                                    r->opts.pool != NULL, plan, first_row, err),
               err, "row group %d, column '%s'", (int)g, c->node->path);
    return DL_OK;
}

static dl_status
open_col_task(void *arg, dl_error *err) {
    open_task *t = arg;
    return open_col(t->r, t->col, t->g, err);
}

/* Opens every column chunk of row group g: on the pool when there is one (fetching and
 * decompressing the first pages of all columns at once), else in turn. */
static dl_status
open_row_group(dl_pq_reader *r, int32_t g, dl_error *err) {
    r->cur_rg = g;
    int64_t num_rows = r->file->footer->meta.row_groups[g].num_rows;
    int64_t in_ranges = 0;
    for (size_t i = 0; i < r->n_ranges; i++) {
        in_ranges += r->ranges[i].end - r->ranges[i].start;
    }
    r->rg_left = r->ranges != NULL ? in_ranges : num_rows;
    r->rg_pos = 0;
    if (r->ranges != NULL) {
        r->stats.rows_skipped += num_rows - in_ranges;
    }
    r->stats.row_groups_read++;
    if (r->opts.pool == NULL || r->n_cols < 2) {
        for (size_t i = 0; i < r->n_cols; i++) {
            DL_TRY(open_col(r, &r->cols[i], g, err));
        }
        return DL_OK;
    }
    open_task *tasks = dl_mem_alloc_array(r->alloc, r->n_cols, sizeof(open_task));
    DL_CHECK(tasks != NULL, err, DL_ERR_NOMEM, "out of memory opening row group %d", (int)g);
    dl_pool_group group;
    dl_pool_group_init(&group, r->opts.pool);
    dl_status s = DL_OK;
    for (size_t i = 0; i < r->n_cols && s == DL_OK; i++) {
        tasks[i] = (open_task){.r = r, .col = &r->cols[i], .g = g};
        s = dl_pool_submit(&group, open_col_task, &tasks[i], err);
    }
    dl_error werr;
    dl_status w = dl_pool_group_wait(&group, &werr);
    if (s == DL_OK && w != DL_OK) {
        s = w;
        if (err != NULL) {
            *err = werr;
        }
    }
    dl_mem_free(r->alloc, tasks, r->n_cols * sizeof(open_task));
    return s;
}

/* Judges row group g on the Bloom filters and the page index of the filter's leaves:
 * r->ranges (NULL when every row may match) and each column's page plan; *out_any false when
 * no row may match. */
static dl_status
plan_row_group(dl_pq_reader *r, int32_t g, bool *out_any, dl_error *err) {
    dl_arena_reset(&r->rg_arena);
    r->ranges = NULL;
    r->n_ranges = 0;
    r->range_i = 0;
    for (size_t i = 0; i < r->n_cols; i++) {
        r->plans[i] = NULL;
    }
    *out_any = true;
    if (r->opts.filter == NULL ||
        (r->opts.is_page_index_ignored && r->opts.is_bloom_filter_ignored)) {
        return DL_OK;
    }
    dl_pq_rg_index idx;
    DL_TRY(dl_pq_rg_index_init(&idx, r->file, r->alloc, &r->rg_arena, g, err));
    dl_status s = DL_OK;
    if (!r->opts.is_bloom_filter_ignored) {
        s = dl_pq_rg_index_bloom_may_match(&idx, r->opts.filter, out_any, err);
        r->stats.row_groups_bloom_skipped += s == DL_OK && !*out_any;
    }
    dl_pq_row_range *ranges = NULL;
    size_t n = 1;
    if (s == DL_OK && *out_any && !r->opts.is_page_index_ignored) {
        s = dl_pq_rg_index_ranges(&idx, r->opts.filter, &ranges, &n, err);
    }
    int64_t num_rows = r->file->footer->meta.row_groups[g].num_rows;
    bool is_all = ranges == NULL || (n == 1 && ranges[0].start == 0 && ranges[0].end == num_rows);
    if (s == DL_OK && n > 0 && !is_all) {
        r->ranges = ranges;
        r->n_ranges = n;
        for (size_t i = 0; i < r->n_cols && s == DL_OK; i++) {
            s = dl_pq_rg_index_plan(&idx, r->cols[i].node->leaf_index, ranges, n, &r->plans[i],
                                    err);
            if (s == DL_OK && r->plans[i] != NULL) {
                r->stats.pages_skipped += (int64_t)(r->plans[i]->n_pages - r->plans[i]->n_needed);
            }
        }
    }
    r->stats.bytes_read += idx.bytes_read;
    if (s != DL_OK) {
        dl_error_prefix(err, "row group %d", (int)g);
        return s;
    }
    *out_any = *out_any && n > 0;
    return DL_OK;
}

/* Moves to the next row group with rows to read; false at the end. */
static dl_status
advance(dl_pq_reader *r, bool *out_more, dl_error *err) {
    const dl_pq_file_metadata *md = &r->file->footer->meta;
    while (r->next_rg < r->n_rgs) {
        int32_t g = r->rgs[r->next_rg++];
        if (md->row_groups[g].num_rows == 0) {
            continue;
        }
        if (r->opts.filter != NULL && !dl_pq_filter_may_match(r->file, r->opts.filter, (size_t)g)) {
            r->stats.row_groups_skipped++;
            continue;
        }
        bool any = true;
        DL_TRY(plan_row_group(r, g, &any, err));
        if (!any) {
            r->stats.row_groups_skipped++;
            continue;
        }
        DL_TRY(open_row_group(r, g, err));
        *out_more = true;
        return DL_OK;
    }
    *out_more = false;
    return DL_OK;
}

/* With ranges: moves every column to the start of the batch, the next row of the current
 * range; *out_n receives the rows left in the range. */
static dl_status
seek_range(dl_pq_reader *r, int64_t *out_n, dl_error *err) {
    const dl_pq_row_range *rr = &r->ranges[r->range_i];
    r->rg_pos = DL_MAX(r->rg_pos, rr->start);
    for (size_t i = 0; i < r->n_cols; i++) {
        dl_pq_col *c = &r->cols[i];
        DL_TRY_CTX(dl_pq_col_seek(c, r->rg_pos, err), err, "row group %d, column '%s'",
                   (int)r->cur_rg, c->node->path);
    }
    *out_n = rr->end - r->rg_pos;
    return DL_OK;
}

static dl_status
read_batch(dl_pq_reader *r, dl_batch *batch, dl_error *err) {
    DL_TRY(dl_vec_batch_reset(batch, err));
    if (r->rg_left == 0) {
        if (r->cur_rg >= 0) {
            DL_TRY(close_row_group(r, r->ranges == NULL, err));
        }
        bool more = false;
        DL_TRY(advance(r, &more, err));
        if (!more) {
            dl_vec_batch_set_count(batch, 0);
            return DL_OK;
        }
    }
    int64_t n = DL_MIN(r->rg_left, (int64_t)r->opts.batch_rows);
    if (r->ranges != NULL) {
        int64_t in_range = 0;
        DL_TRY(seek_range(r, &in_range, err));
        n = DL_MIN(n, in_range);
    }
    for (size_t i = 0; i < r->n_top; i++) {
        dl_pq_plan_bind(r->top[i], batch->cols[i], r->targets);
    }
    for (size_t i = 0; i < r->n_cols; i++) {
        dl_pq_col *c = &r->cols[i];
        DL_TRY_CTX(dl_pq_col_read(c, n, r->targets[i], err), err, "row group %d, column '%s'",
                   (int)r->cur_rg, c->node->path);
    }
    for (size_t i = 0; i < r->n_top; i++) {
        DL_TRY_CTX(dl_pq_assemble(r->top[i], r->cols, batch->cols[i], n, err), err, "row group %d",
                   (int)r->cur_rg);
    }
    dl_vec_batch_set_count(batch, n);
    r->batch_rg = r->cur_rg;
    r->batch_first = r->rg_start[r->cur_rg] + r->rg_pos;
    r->rg_pos += n;
    r->rg_left -= n;
    r->stats.rows += n;
    if (r->ranges != NULL && r->rg_pos == r->ranges[r->range_i].end) {
        r->range_i++;
    }
    return DL_OK;
}

dl_status
dl_pq_reader_next(dl_pq_reader *reader, dl_batch *batch, dl_error *err) {
    if (reader->failed != DL_OK) {
        if (err != NULL) {
            *err = reader->failed_err;
        }
        return reader->failed;
    }
    DL_CHECK(batch->schema == reader->schema || dl_vec_type_equal(batch->schema, reader->schema),
             err, DL_ERR_INVALID_ARG, "'%s': the batch was not made for this reader's schema",
             reader->file->name);
    dl_status s = read_batch(reader, batch, err);
    if (s != DL_OK) {
        dl_error_prefix(err, "'%s'", reader->file->name);
        if (reader->cur_rg >= 0) {
            dl_error scratch;
            (void)close_row_group(reader, false, &scratch);
        }
        reader->failed = s;
        if (err != NULL) {
            reader->failed_err = *err;
        } else {
            (void)dl_error_set(&reader->failed_err, s, "'%s': an earlier read failed",
                               reader->file->name);
        }
        dl_vec_batch_set_count(batch, 0);
    }
    return s;
}

void
dl_pq_reader_get_stats(const dl_pq_reader *reader, dl_pq_reader_stats *out) {
    *out = reader->stats;
    for (size_t i = 0; i < reader->n_cols; i++) {
        out->pages += reader->cols[i].pages_read;
        out->dict_pages += reader->cols[i].dict_pages_read;
        out->bytes_read += reader->cols[i].pages.bytes_read;
    }
}

int32_t
dl_pq_reader_row_group(const dl_pq_reader *reader) {
    return reader->batch_rg;
}

int64_t
dl_pq_reader_batch_first_row(const dl_pq_reader *reader) {
    return reader->batch_first;
}

/* ---- Parallel scans ------------------------------------------------------------------------ */

typedef struct scan_shared {
    dl_pq_file *file;
    const dl_pq_read_options *opts;
    const int32_t *rgs;
    size_t n_rgs;
    _Atomic(size_t) next;
    dl_pq_scan_fn fn;
    void *ctx;
    dl_pool *pool;
} scan_shared;

typedef struct scan_task {
    scan_shared *shared;
    int slot;
} scan_task;

/* Reads row group g with the task's reader (made on first use, then pointed at g). */
static dl_status
scan_one(scan_shared *sh, int slot, int32_t g, dl_pq_reader **reader, dl_batch **batch,
         dl_error *err) {
    dl_pq_reader *r = *reader;
    if (r == NULL) {
        dl_pq_read_options o = sh->opts != NULL ? *sh->opts : (dl_pq_read_options){0};
        o.row_groups = &g;
        o.n_row_groups = 1;
        if (o.pool == NULL) {
            o.pool = sh->pool; /* columns in parallel too, when row groups are few */
        }
        DL_TRY(dl_pq_reader_new(sh->file, &o, reader, err));
        r = *reader;
        DL_TRY(dl_vec_batch_new(r->alloc, r->schema, 0, batch, err));
    } else {
        /* Reuse the reader (and its page buffers) for the next row group. */
        DL_ASSERT(r->cur_rg < 0 && r->n_rgs == 1);
        r->rgs[0] = g;
        r->next_rg = 0;
    }
    for (;;) {
        DL_TRY(dl_pq_reader_next(r, *batch, err));
        if ((*batch)->count == 0) {
            return DL_OK;
        }
        DL_TRY(sh->fn(sh->ctx, slot, *batch, err));
    }
}

static dl_status
scan_task_run(void *arg, dl_error *err) {
    scan_task *t = arg;
    scan_shared *sh = t->shared;
    dl_pq_reader *reader = NULL;
    dl_batch *batch = NULL;
    dl_status s = DL_OK;
    for (;;) {
        size_t i = atomic_fetch_add(&sh->next, 1);
        if (i >= sh->n_rgs) {
            break;
        }
        s = scan_one(sh, t->slot, sh->rgs[i], &reader, &batch, err);
        if (s != DL_OK) {
            break;
        }
    }
    dl_vec_batch_free(batch);
    dl_pq_reader_free(reader);
    return s;
}

dl_status
dl_pq_file_scan(dl_pq_file *file, const dl_pq_read_options *opts, dl_pool *pool, int n_slots,
                dl_pq_scan_fn fn, void *ctx, dl_error *err) {
    const dl_pq_file_metadata *md = &file->footer->meta;
    size_t n = opts != NULL && opts->row_groups != NULL ? opts->n_row_groups : md->n_row_groups;
    int32_t *all = NULL;
    const int32_t *rgs = opts != NULL ? opts->row_groups : NULL;
    if (rgs == NULL) {
        all = dl_mem_alloc_array(file->alloc, DL_MAX(n, 1), sizeof(int32_t));
        DL_CHECK(all != NULL, err, DL_ERR_NOMEM, "out of memory scanning '%s'", file->name);
        for (size_t i = 0; i < n; i++) {
            all[i] = (int32_t)i;
        }
        rgs = all;
    }
    scan_shared sh = {
        .file = file, .opts = opts, .rgs = rgs, .n_rgs = n, .fn = fn, .ctx = ctx, .pool = pool};
    atomic_init(&sh.next, 0);
    if (n_slots <= 0) {
        n_slots = pool != NULL ? dl_pool_n_workers(pool) + 1 : 1;
    }
    n_slots = pool == NULL ? 1 : n_slots;
    scan_task tasks[64];
    n_slots = DL_MIN(n_slots, (int)DL_ARRAY_LEN(tasks));
    dl_status s = DL_OK;
    if (pool == NULL) {
        tasks[0] = (scan_task){.shared = &sh, .slot = 0};
        s = scan_task_run(&tasks[0], err);
    } else {
        dl_pool_group group;
        dl_pool_group_init(&group, pool);
        for (int i = 0; i < n_slots && s == DL_OK; i++) {
            tasks[i] = (scan_task){.shared = &sh, .slot = i};
            s = dl_pool_submit(&group, scan_task_run, &tasks[i], err);
        }
        dl_error werr;
        dl_status w = dl_pool_group_wait(&group, &werr);
        if (s == DL_OK && w != DL_OK) {
            s = w;
            if (err != NULL) {
                *err = werr;
            }
        }
    }
    dl_mem_free(file->alloc, all, all != NULL ? DL_MAX(n, 1) * sizeof(int32_t) : 0);
    return s;
}
