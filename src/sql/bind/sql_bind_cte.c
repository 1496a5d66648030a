/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CTE references (sql_bind_int.h, dl_sql_cte_ref). Each reference binds the CTE's query
 * anew, so the optimizer can push each reference's filters into it; but a CTE referenced twice
 * is then computed twice (TPC-H q15's revenue0: once in FROM, once in the scalar subquery of
 * its maximum, each an aggregation of lineitem). When the second reference is bound and the
 * CTE's result is an aggregate's (small next to its input, and no filter of a reference could
 * have been pushed below the aggregate anyway), the CTE runs once into rows; the second
 * reference and the first one (its plan node rewritten in place) read those rows, and so does
 * any later reference. The CTE's query reads no column of an enclosing query (CTEs bind
 * without an outer scope), so its rows are the same for every reference. Running it while
 * binding is what the binder already does for uncorrelated scalar subqueries.
 */
#include <string.h>

#include "sql/bind/sql_bind_int.h"

static void
release_rows(void *ctx) {
    dl_sql_rows_destroy(ctx);
}

/* Every chunk of the CTE's rows, shared (the rows stay for the other references). */
static dl_status
produce_shared(void *ctx, dl_sql_rows *out, dl_error *err) {
    const dl_sql_rows *rows = ctx;
    for (int64_t i = 0; i < rows->n_chunks; i++) {
        DL_TRY(dl_sql_rows_push_shared(out, rows->chunks[i], err));
    }
    return DL_OK;
}

static dl_status
take_rows(void *ctx, const dl_batch *batch, dl_error *err) {
    return dl_sql_rows_append(ctx, batch, err);
}

/* Whether p's result is an aggregate's: an AGGREGATE under projections, filters, sorts and
 * limits. */
static bool
is_aggregate_result(const dl_sql_plan *p) {
    while (p->kind == DL_SQL_PLAN_PROJECT || p->kind == DL_SQL_PLAN_FILTER ||
           p->kind == DL_SQL_PLAN_SORT || p->kind == DL_SQL_PLAN_LIMIT) {
        p = p->left;
    }
    return p->kind == DL_SQL_PLAN_AGGREGATE;
}

/* Whether a and c have the same column types. */
static bool
same_columns(const dl_sql_plan *a, const dl_sql_plan *c) {
    if (a->n_cols != c->n_cols) {
        return false;
    }
    for (int32_t i = 0; i < a->n_cols; i++) {
        if (!dl_vec_type_equal(a->schema->fields[i].type, c->schema->fields[i].type)) {
            return false;
        }
    }
    return true;
}

/* Runs plan (the second reference's) into rows read by a ROWS node, ref->rows; the first
 * reference's node becomes such a read as well (unless a rewrite since changed its columns:
 * it then computes on its own). */
static dl_status
materialize(dl_sql_binder *b, dl_sql_cte_ref *ref, dl_sql_plan *plan, dl_error *err) {
    dl_sql_plan *node = NULL;
    DL_TRY(dl_sql_plan_new(b->arena, DL_SQL_PLAN_ROWS, plan->schema->fields, plan->n_cols, &node,
                           err));
    node->loc = plan->loc;
    dl_sql_rows *rows = dl_arena_alloc_zero(b->arena, sizeof(*rows));
    DL_CHECK(rows != NULL, err, DL_ERR_NOMEM, "out of memory computing a WITH query");
    dl_sql_rows_init(rows, b->exec->alloc, node->schema);
    dl_status s = dl_arena_on_reset(b->arena, release_rows, rows, err);
    if (s != DL_OK) {
        dl_sql_rows_destroy(rows);
        return s;
    }
    DL_TRY(dl_sql_plan_run(b->exec, plan, -1, take_rows, rows, err)); /* optimizes plan */
    node->u.rows.produce = produce_shared;
    node->u.rows.ctx = rows;
    node->est_rows = (double)rows->count;
    ref->rows = node;
    dl_sql_plan *first = ref->first;
    if (same_columns(first, node)) {
        dl_sql_plan read = *node;
        read.schema = first->schema;
        read.loc = first->loc;
        *first = read;
    }
    return DL_OK;
}

dl_status
dl_sql_binder_cte_plan(dl_sql_binder *b, dl_sql_cte_ref *ref, dl_sql_plan **out, dl_error *err) {
    if (ref->rows == NULL) {
        dl_sql_cte_ref *saved = b->ctes;
        b->ctes = ref->next; /* a CTE sees the ones defined before it, not itself */
        dl_status s = dl_sql_binder_query(b, ref->cte->query, NULL, out, err);
        b->ctes = saved;
        DL_TRY(s);
        if (ref->first == NULL) {
            ref->first = *out;
            return DL_OK;
        }
        if (!is_aggregate_result(*out) || !same_columns(ref->first, *out)) {
            return DL_OK;
        }
        DL_TRY(materialize(b, ref, *out, err));
    }
    *out = dl_arena_memdup(b->arena, ref->rows, sizeof(*ref->rows));
    DL_CHECK(*out != NULL, err, DL_ERR_NOMEM, "out of memory binding a WITH query");
    return DL_OK;
}
