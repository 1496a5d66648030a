/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Values as text for the API's text getter, and through it for the shell and the
 * sqllogictest runner: the engine's own CAST(x AS STRING) (dl_sql_cast in sql_func.h), so a
 * value reads the same whether a query casts it or a program prints it — decimals with their
 * scale, doubles as Java writes them, timestamps in the session time zone (named zones too),
 * arrays [1, null], maps {a -> 1}, structs {1, x}, binary as its bytes.
 *
 * A column is cast once per batch, when its text is first asked for: the batch's live rows
 * (its selection applied) become a flat STRING vector indexed by live row. Display uses the
 * ANSI spelling of decimals (plain digits, as Spark's shell shows them) whatever the session
 * mode, because legacy mode's BigDecimal.toString turns small values into 1E-7.
 */
#include "api/api_int.h"
#include "sql/func/sql_func.h"

dl_status
dl_api_text_column(const char *time_zone, const dl_batch *batch, int32_t col,
                   const dl_allocator *alloc, dl_vector **out, dl_error *err) {
    *out = NULL;
    const dl_vector *src = batch->cols[col];
    dl_vector *live = NULL;
    if (batch->sel != NULL) {
        DL_TRY(dl_vec_new(alloc, src->type, batch->count, &live, err));
        dl_status st = dl_vec_copy_sel(live, src, batch->sel, batch->count, err);
        if (st != DL_OK) {
            dl_vec_unref(live);
            return st;
        }
        src = live;
    }
    dl_sql_fn_env env = {
        .ansi = true, .time_zone = time_zone != NULL ? time_zone : "UTC", .alloc = alloc};
    dl_vector *text = NULL;
    dl_status st =
        dl_vec_new(alloc, dl_vec_type_prim(DL_VEC_TYPE_STRING), batch->count, &text, err);
    if (st == DL_OK) {
        st = dl_sql_cast(&env, DL_SQL_CAST_ANSI, src, batch->count, text, err);
    }
    dl_vec_unref(live);
    if (st != DL_OK) {
        dl_vec_unref(text);
        dl_error_prefix(err, "column %d as text", (int)col);
        return st;
    }
    *out = text;
    return DL_OK;
}
