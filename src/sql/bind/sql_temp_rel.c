/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Temporary relations (sql_engine.h): rows held in memory under a name for the session's
 * statements, as Spark's temporary views. The rows are batches of at most DL_BATCH_CAPACITY
 * rows whose vectors are shared, never written: each scan is a ROWS source that hands out the
 * same batches by reference, so a relation may be read by any number of statements, and twice
 * by one (MERGE). The session keeps a list (few relations; lookups are linear and ignore case
 * as Spark's names do); a statement that binds a relation holds a reference until the
 * statement's arena goes, so unregistering or replacing it does not pull rows from under a
 * running query.
 */
#include <string.h>

#include "sql/bind/sql_bind_int.h"

struct dl_sql_temp_rel {
    const dl_allocator *alloc;
    _Atomic(int64_t) refs;
    dl_arena arena; /* the name, the schema's types, the chunk array */
    const char *name;
    const dl_type *schema; /* STRUCT, one field per column */
    dl_batch **chunks;
    int64_t n_chunks;
    int64_t cap_chunks;
    int64_t n_rows;
    dl_sql_view *view;     /* a temporary view: its definition (in arena), and no rows */
    dl_sql_temp_rel *next; /* the session's list */
};

dl_status
dl_sql_temp_rel_new(const dl_allocator *alloc, const char *name, dl_sql_temp_rel **out,
                    dl_error *err) {
    dl_sql_temp_rel *rel = dl_mem_alloc_zero(alloc, sizeof(*rel));
    DL_CHECK(rel != NULL, err, DL_ERR_NOMEM, "out of memory making a temporary relation");
    rel->alloc = alloc;
    atomic_init(&rel->refs, 1);
    dl_arena_init(&rel->arena, alloc, 0);
    rel->name = dl_arena_strndup(&rel->arena, name, strlen(name));
    if (rel->name == NULL) {
        dl_sql_temp_rel_free(rel);
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory making a temporary relation");
    }
    *out = rel;
    return DL_OK;
}

static dl_sql_temp_rel *
temp_rel_ref(dl_sql_temp_rel *rel) {
    atomic_fetch_add_explicit(&rel->refs, 1, memory_order_relaxed);
    return rel;
}

void
dl_sql_temp_rel_free(dl_sql_temp_rel *rel) {
    if (rel == NULL || atomic_fetch_sub_explicit(&rel->refs, 1, memory_order_acq_rel) != 1) {
        return;
    }
    for (int64_t i = 0; i < rel->n_chunks; i++) {
        dl_vec_batch_free(rel->chunks[i]);
    }
    dl_mem_free(rel->alloc, rel->chunks, (size_t)rel->cap_chunks * sizeof(dl_batch *));
    dl_arena_destroy(&rel->arena);
    dl_mem_free(rel->alloc, rel, sizeof(*rel));
}

dl_arena *
dl_sql_temp_rel_arena(dl_sql_temp_rel *rel) {
    return &rel->arena;
}

void
dl_sql_temp_rel_set_schema(dl_sql_temp_rel *rel, const dl_type *schema) {
    rel->schema = schema;
}

/* One chunk of rows [first, first + n) of cols (slices: shared when first is a multiple of 8). */
static dl_status
add_chunk(dl_sql_temp_rel *rel, dl_vector *const *cols, int64_t first, int64_t n, dl_error *err) {
    if (rel->n_chunks == rel->cap_chunks) {
        int64_t cap = rel->cap_chunks == 0 ? 16 : 2 * rel->cap_chunks;
        dl_batch **grown =
            dl_mem_realloc(rel->alloc, rel->chunks, (size_t)rel->cap_chunks * sizeof(dl_batch *),
                           (size_t)cap * sizeof(dl_batch *));
        DL_CHECK(grown != NULL, err, DL_ERR_NOMEM, "out of memory keeping rows");
        rel->chunks = grown;
        rel->cap_chunks = cap;
    }
    dl_batch *chunk = NULL;
    DL_TRY(dl_vec_batch_new(rel->alloc, rel->schema, 0, &chunk, err));
    for (int32_t c = 0; c < chunk->n_cols; c++) {
        dl_vector *slice = NULL;
        dl_status s = first == 0 && n == cols[c]->length
                          ? (slice = dl_vec_ref(cols[c]), DL_OK)
                          : dl_vec_slice(cols[c], first, n, &slice, err);
        if (s != DL_OK) {
            dl_vec_batch_free(chunk);
            return s;
        }
        dl_vec_batch_set_col(chunk, c, slice);
    }
    dl_vec_batch_set_count(chunk, n);
    rel->chunks[rel->n_chunks++] = chunk;
    rel->n_rows += n;
    return DL_OK;
}

dl_status
dl_sql_temp_rel_append(dl_sql_temp_rel *rel, dl_vector *const *cols, int64_t n, dl_error *err) {
    for (int32_t c = 0; c < rel->schema->n_fields; c++) {
        DL_CHECK(
            cols[c]->length >= n && dl_vec_type_equal(cols[c]->type, rel->schema->fields[c].type),
            err, DL_ERR_INTERNAL, "column %d of a temporary relation's rows does not fit", (int)c);
    }
    for (int64_t first = 0; first < n; first += DL_BATCH_CAPACITY) {
        DL_TRY(add_chunk(rel, cols, first, DL_MIN((int64_t)DL_BATCH_CAPACITY, n - first), err));
    }
    return DL_OK;
}

/* ---- the session's list ---------------------------------------------------------------------- */

static dl_sql_temp_rel *
list_find(dl_sql_temp_rel *head, dl_str name) {
    for (dl_sql_temp_rel *r = head; r != NULL; r = r->next) {
        if (dl_str_eq_nocase(dl_str_from_cstr(r->name), name)) {
            return r;
        }
    }
    return NULL;
}

dl_sql_temp_rel *
dl_sql_session_temp_rel(const dl_sql_session *session, dl_str name) {
    return list_find(session->temp_rels, name);
}

dl_sql_temp_rel *
dl_sql_session_global_temp(const dl_sql_session *session, dl_str name) {
    return list_find(session->global_temps, name);
}

static bool list_remove(dl_sql_temp_rel **head, const char *name);

static dl_status
list_add(dl_sql_temp_rel **head, dl_sql_temp_rel *rel, dl_error *err) {
    if (rel->schema == NULL) {
        dl_sql_temp_rel_free(rel);
        DL_FAIL(err, DL_ERR_INVALID_ARG, "a temporary relation without a schema");
    }
    (void)list_remove(head, rel->name);
    rel->next = *head;
    *head = rel;
    return DL_OK;
}

dl_status
dl_sql_session_register(dl_sql_session *session, dl_sql_temp_rel *rel, dl_error *err) {
    return list_add(&session->temp_rels, rel, err);
}

dl_status
dl_sql_session_register_global(dl_sql_session *session, dl_sql_temp_rel *rel, dl_error *err) {
    return list_add(&session->global_temps, rel, err);
}

bool
dl_sql_session_unregister(dl_sql_session *session, const char *name) {
    return list_remove(&session->temp_rels, name);
}

bool
dl_sql_session_unregister_global(dl_sql_session *session, const char *name) {
    return list_remove(&session->global_temps, name);
}

static bool
list_remove(dl_sql_temp_rel **head, const char *name) {
    dl_str key = dl_str_from_cstr(name);
    for (dl_sql_temp_rel **p = head; *p != NULL; p = &(*p)->next) {
        if (dl_str_eq_nocase(dl_str_from_cstr((*p)->name), key)) {
            dl_sql_temp_rel *gone = *p;
            *p = gone->next;
            gone->next = NULL;
            dl_sql_temp_rel_free(gone);
            return true;
        }
    }
    return false;
}

void
dl_sql_session_free_temp_rels(dl_sql_session *session) {
    while (session->temp_rels != NULL) {
        dl_sql_temp_rel *r = session->temp_rels;
        session->temp_rels = r->next;
        dl_sql_temp_rel_free(r);
    }
    while (session->global_temps != NULL) {
        dl_sql_temp_rel *r = session->global_temps;
        session->global_temps = r->next;
        dl_sql_temp_rel_free(r);
    }
}

const dl_sql_view *
dl_sql_temp_rel_view(const dl_sql_temp_rel *rel) {
    return rel->view;
}

dl_status
dl_sql_temp_rel_new_view(const dl_allocator *alloc, const dl_sql_view *view, dl_sql_temp_rel **out,
                         dl_error *err) {
    dl_sql_temp_rel *rel = NULL;
    DL_TRY(dl_sql_temp_rel_new(alloc, view->name, &rel, err));
    dl_buf text;
    dl_buf_init(&text, alloc);
    dl_status s = dl_sql_view_encode(view, &text, err);
    rel->view = s == DL_OK ? dl_arena_alloc_zero(&rel->arena, sizeof(*rel->view)) : NULL;
    if (s == DL_OK && rel->view == NULL) {
        s = dl_error_set(err, DL_ERR_NOMEM, "out of memory making a temporary view");
    }
    if (s == DL_OK) {
        s = dl_sql_view_decode(&rel->arena, view->name, dl_buf_view(&text), rel->view, err);
    }
    dl_buf_destroy(&text);
    if (s != DL_OK) {
        dl_sql_temp_rel_free(rel);
        return s;
    }
    rel->view->is_temp = true;
    rel->schema = rel->view->columns.type;
    *out = rel;
    return DL_OK;
}

/* ---- binding a reference ----------------------------------------------------------------------
 */

static void
release_ref(void *ctx) {
    dl_sql_temp_rel_free(ctx);
}

static dl_status
produce_chunks(void *ctx, dl_sql_rows *out, dl_error *err) {
    const dl_sql_temp_rel *rel = ctx;
    for (int64_t i = 0; i < rel->n_chunks; i++) {
        DL_TRY(dl_sql_rows_push_shared(out, rel->chunks[i], err));
    }
    return DL_OK;
}

dl_status
dl_sql_binder_temp_rel(dl_sql_binder *b, dl_sql_temp_rel *rel, const dl_sql_tref *tref,
                       dl_sql_rel *out, dl_error *err) {
    if (tref->u.table.tt.kind != DL_SQL_TT_NONE) {
        DL_SQL_BIND_FAIL(b, tref->loc, DL_ERR_SQL_BIND, err,
                         "'%s' is a temporary relation (registered Arrow data), which has no "
                         "versions to travel to; qualify the name (default.%s) to read a table",
                         rel->name, rel->name);
    }
    DL_TRY(dl_arena_on_reset(b->arena, release_ref, rel, err));
    (void)temp_rel_ref(rel); /* dropped by release_ref with the statement */
    const dl_type *t = rel->schema;
    dl_sql_plan *p = NULL;
    DL_TRY(dl_sql_plan_new(b->arena, DL_SQL_PLAN_ROWS, t->fields, t->n_fields, &p, err));
    p->u.rows.produce = produce_chunks;
    p->u.rows.ctx = rel;
    p->est_rows = (double)rel->n_rows;
    p->loc = tref->loc;
    out->plan = p;
    const char *qual = tref->has_alias ? tref->alias.name.ptr : rel->name;
    DL_TRY(dl_sql_plan_rename(b, out->plan, &tref->column_aliases, tref->loc, &out->plan, err));
    return dl_sql_scope_of(b, out->plan, qual, &out->scope, err);
}

dl_status
dl_sql_session_list_temp_rels(const dl_sql_session *session,
                              dl_status (*visit)(void *vctx, const char *name, dl_error *err),
                              void *vctx, dl_error *err) {
    return dl_sql_temp_list(session->temp_rels, false, visit, vctx, err);
}

dl_status
dl_sql_temp_list(const dl_sql_temp_rel *head, bool views_only,
                 dl_status (*visit)(void *vctx, const char *name, dl_error *err), void *vctx,
                 dl_error *err) {
    /* few relations: repeated minimum search keeps the listing sorted without allocating */
    const char *last = NULL;
    for (;;) {
        const char *next = NULL;
        for (const dl_sql_temp_rel *r = head; r != NULL; r = r->next) {
            if (views_only && r->view == NULL) {
                continue;
            }
            if (r->name == NULL) {
                continue; /* never: dl_sql_temp_rel_new refuses to make one */
            }
            bool after = last == NULL || strcmp(r->name, last) > 0;
            if (after && (next == NULL || strcmp(r->name, next) < 0)) {
                next = r->name;
            }
        }
        if (next == NULL) {
            return DL_OK;
        }
        DL_TRY(visit(vctx, next, err));
        last = next;
    }
}
