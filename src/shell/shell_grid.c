/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The rows box mode shows. A box needs every shown row before it can size its columns, but a
 * query may return millions of rows; the grid keeps the first head_cap rows and a ring of the
 * last tail_cap, so memory stays bounded by what is shown. Each kept row is one block: n_cols
 * cell pointers followed by the cells' bytes (NUL-terminated), freed when the ring drops it.
 */
#include <string.h>

#include "shell/shell_int.h"

void
dl_shell_grid_init(dl_shell_grid *g, const dl_allocator *alloc, const dl_shell_col *cols,
                   int32_t n_cols, int64_t max_rows) {
    memset(g, 0, sizeof(*g));
    g->alloc = alloc ? alloc : dl_allocator_default();
    g->cols = cols;
    g->n_cols = n_cols;
    if (max_rows < 0) {
        g->head_cap = -1;
        g->tail_cap = 0;
    } else {
        g->head_cap = max_rows - max_rows / 2;
        g->tail_cap = max_rows / 2;
    }
}

static size_t
row_size(const char *row) {
    return *(const size_t *)(const void *)row;
}

static void
free_row(const dl_allocator *alloc, char *row) {
    if (row != NULL) {
        dl_mem_free(alloc, row, row_size(row));
    }
}

void
dl_shell_grid_destroy(dl_shell_grid *g) {
    for (int64_t i = 0; i < g->n_head; i++) {
        free_row(g->alloc, g->head[i]);
    }
    for (int64_t i = 0; i < g->n_tail; i++) {
        free_row(g->alloc, g->tail[i]);
    }
    dl_mem_free(g->alloc, g->head, (size_t)g->cap_head * sizeof(char *));
    dl_mem_free(g->alloc, g->tail, (size_t)g->tail_cap * sizeof(char *));
    memset(g, 0, sizeof(*g));
}

/*
 * A row block: [size_t size][n_cols cell pointers][bytes]. The cell pointers point into the
 * bytes (NULL for SQL NULL). Returned as char * to the block start.
 */
static char *
copy_row(const dl_shell_grid *g, dl_shell_row cells) {
    size_t head = sizeof(size_t) + (size_t)g->n_cols * sizeof(char *);
    size_t size = head;
    for (int32_t i = 0; i < g->n_cols; i++) {
        size += cells[i] ? strlen(cells[i]) + 1 : 0;
    }
    char *block = dl_mem_alloc(g->alloc, size);
    if (block == NULL) {
        return NULL;
    }
    memcpy(block, &size, sizeof(size));
    char **ptrs = (char **)(void *)(block + sizeof(size_t));
    char *bytes = block + head;
    for (int32_t i = 0; i < g->n_cols; i++) {
        if (cells[i] == NULL) {
            ptrs[i] = NULL;
            continue;
        }
        size_t n = strlen(cells[i]) + 1;
        memcpy(bytes, cells[i], n);
        ptrs[i] = bytes;
        bytes += n;
    }
    return block;
}

static dl_status
push_head(dl_shell_grid *g, char *block, dl_error *err) {
    if (g->n_head == g->cap_head) {
        int64_t cap = g->cap_head ? g->cap_head * 2 : 64;
        char **grown = dl_mem_realloc(g->alloc, g->head, (size_t)g->cap_head * sizeof(char *),
                                      (size_t)cap * sizeof(char *));
        if (grown == NULL) {
            free_row(g->alloc, block);
            DL_FAIL(err, DL_ERR_NOMEM, "out of memory collecting rows to show");
        }
        g->head = grown;
        g->cap_head = cap;
    }
    g->head[g->n_head++] = block;
    return DL_OK;
}

static dl_status
push_tail(dl_shell_grid *g, char *block, dl_error *err) {
    if (g->tail == NULL) {
        g->tail = dl_mem_alloc_zero(g->alloc, (size_t)g->tail_cap * sizeof(char *));
        if (g->tail == NULL) {
            free_row(g->alloc, block);
            DL_FAIL(err, DL_ERR_NOMEM, "out of memory collecting rows to show");
        }
    }
    if (g->n_tail < g->tail_cap) {
        g->tail[(g->tail_start + g->n_tail) % g->tail_cap] = block;
        g->n_tail++;
        return DL_OK;
    }
    free_row(g->alloc, g->tail[g->tail_start]);
    g->tail[g->tail_start] = block;
    g->tail_start = (g->tail_start + 1) % g->tail_cap;
    return DL_OK;
}

dl_status
dl_shell_grid_add(dl_shell_grid *g, dl_shell_row cells, dl_error *err) {
    g->n_rows++;
    bool to_head = g->head_cap < 0 || g->n_head < g->head_cap;
    if (!to_head && g->tail_cap == 0) {
        return DL_OK; /* counted, not shown */
    }
    char *block = copy_row(g, cells);
    DL_CHECK(block != NULL, err, DL_ERR_NOMEM, "out of memory collecting rows to show");
    return to_head ? push_head(g, block, err) : push_tail(g, block, err);
}

int64_t
dl_shell_grid_shown(const dl_shell_grid *g) {
    return g->n_head + g->n_tail;
}

dl_shell_row
dl_shell_grid_row(const dl_shell_grid *g, int64_t i) {
    const char *block =
        i < g->n_head ? g->head[i] : g->tail[(g->tail_start + i - g->n_head) % g->tail_cap];
    return (dl_shell_row)(const void *)(block + sizeof(size_t));
}
