/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Type widening by ALTER TABLE t ALTER COLUMN c TYPE wider (PROTOCOL.md "Type Widening";
 * Delta's TypeWidening.isTypeChangeSupported). On a table with delta.enableTypeWidening = true
 * a top-level column may change to a wider type without rewriting any file:
 *
 *   byte -> short -> int -> long          byte, short, int -> double       float -> double
 *   decimal(p, s) -> decimal(p + k1, s + k2), k1 >= k2 >= 0               date -> timestamp_ntz
 *   byte, short, int -> decimal(10 + k1, k2), long -> decimal(20 + k1, k2), k1 >= k2 >= 0
 *
 * The field's metadata records the change as Delta does, appended to what it already holds:
 * "delta.typeChanges": [{"toType": "integer", "fromType": "byte"}, ...]. Old files keep their
 * narrow physical types; the reader converts them value by value (delta_scan_read.c), their
 * statistics and partition values included. Refusals as Spark 4.2 + Delta 4.4 give them: a
 * numeric change that is no up-cast (INT -> SMALLINT, DECIMAL(8,3) -> DECIMAL(9,1)) is Spark's
 * NOT_SUPPORTED_CHANGE_COLUMN; any other change outside the list, and every change without the
 * property, is DELTA_UNSUPPORTED_ALTER_TABLE_CHANGE_COL_OP. A partition column's date ->
 * timestamp_ntz is refused because its partition values would keep the date text.
 */
#include <string.h>

#include "sql/commands/sql_dml.h"

/* 1 to 4 for byte, short, int, long; 0 for any other type. */
static int
int_rank(dl_type_id id) {
    static const dl_type_id ints[] = {DL_VEC_TYPE_BYTE, DL_VEC_TYPE_SHORT, DL_VEC_TYPE_INT,
                                      DL_VEC_TYPE_LONG};
    for (int i = 0; i < 4; i++) {
        if (ints[i] == id) {
            return i + 1;
        }
    }
    return 0;
}

bool
dl_sql_widen_is_supported(const dl_type *from, const dl_type *to) {
    int rf = int_rank(from->id);
    int rt = int_rank(to->id);
    if (rf > 0 && rt > 0) {
        return rt > rf;
    }
    if (rf > 0 && rf < 4 && to->id == DL_VEC_TYPE_DOUBLE) {
        return true;
    }
    if (rf > 0 && to->id == DL_VEC_TYPE_DECIMAL) {
        int digits = rf == 4 ? 20 : 10;
        return to->precision - to->scale >= digits;
    }
    if (from->id == DL_VEC_TYPE_DECIMAL && to->id == DL_VEC_TYPE_DECIMAL) {
        int k1 = to->precision - from->precision;
        int k2 = to->scale - from->scale;
        return k2 >= 0 && k1 >= k2;
    }
    return (from->id == DL_VEC_TYPE_FLOAT && to->id == DL_VEC_TYPE_DOUBLE) ||
           (from->id == DL_VEC_TYPE_DATE && to->id == DL_VEC_TYPE_TIMESTAMP_NTZ);
}

static bool
is_numeric(const dl_type *t) {
    return int_rank(t->id) > 0 || t->id == DL_VEC_TYPE_FLOAT || t->id == DL_VEC_TYPE_DOUBLE ||
           t->id == DL_VEC_TYPE_DECIMAL;
}

/* Spark's up-casts between numbers (Cast.canUpCast): what the analyzer lets ALTER COLUMN ask
 * for before Delta decides. */
static bool
is_numeric_upcast(const dl_type *from, const dl_type *to) {
    if (dl_sql_widen_is_supported(from, to)) {
        return true;
    }
    bool is_from_exact = int_rank(from->id) > 0 || from->id == DL_VEC_TYPE_DECIMAL;
    return (is_from_exact && (to->id == DL_VEC_TYPE_FLOAT || to->id == DL_VEC_TYPE_DOUBLE)) ||
           (from->id == DL_VEC_TYPE_FLOAT && to->id == DL_VEC_TYPE_DOUBLE);
}

/* Spark's text of a type ("INT", "DECIMAL(8,3)"), in the statement arena. */
static const char *
sql_text(dl_sql_binder *b, const dl_type *t) {
    dl_buf text;
    dl_buf_init(&text, b->exec->alloc);
    const char *out = "?";
    if (dl_vec_type_to_string(t, &text, NULL) == DL_OK) {
        char *copy = dl_arena_strndup(b->arena, (const char *)text.data, text.len);
        for (size_t i = 0; copy != NULL && i < text.len; i++) {
            copy[i] = (char)(copy[i] >= 'a' && copy[i] <= 'z' ? copy[i] - 'a' + 'A' : copy[i]);
        }
        out = copy != NULL ? copy : out;
    }
    dl_buf_destroy(&text);
    return out;
}

/* Delta's name of a primitive type ("integer", "decimal(10,2)"), in the statement arena. */
static dl_status
delta_name(dl_sql_binder *b, const dl_type *t, dl_str *out, dl_error *err) {
    dl_buf text;
    dl_buf_init(&text, b->exec->alloc);
    dl_status s = dl_delta_type_to_string(t, &text, err);
    char *copy = s == DL_OK ? dl_arena_strndup(b->arena, (const char *)text.data, text.len) : NULL;
    if (s == DL_OK && copy == NULL) {
        s = dl_error_set(err, DL_ERR_NOMEM, "out of memory");
    }
    *out = dl_str_make(copy, copy != NULL ? text.len : 0);
    dl_buf_destroy(&text);
    return s;
}

typedef struct type_change {
    dl_str from;
    dl_str to;
} type_change;

/* delta.typeChanges: the changes there were, then {"toType": to, "fromType": from}. */
static dl_status
put_changes(void *ctx, dl_json_writer *jw, dl_json_val old, dl_error *err) {
    const type_change *c = ctx;
    DL_TRY(dl_json_writer_begin_array(jw, err));
    uint32_t n = dl_json_val_type(old) == DL_JSON_ARRAY ? dl_json_val_count(old) : 0;
    for (uint32_t i = 0; i < n; i++) {
        DL_TRY(dl_json_writer_value(jw, dl_json_arr_at(old, i), err));
    }
    DL_TRY(dl_json_writer_begin_object(jw, err));
    DL_TRY(dl_json_writer_key_cstr(jw, "toType", err));
    DL_TRY(dl_json_writer_string(jw, c->to, err));
    DL_TRY(dl_json_writer_key_cstr(jw, "fromType", err));
    DL_TRY(dl_json_writer_string(jw, c->from, err));
    DL_TRY(dl_json_writer_end_object(jw, err));
    return dl_json_writer_end_array(jw, err);
}

static dl_status
record_change(dl_sql_binder *b, const dl_delta_field *f, const dl_type *to, dl_delta_field *out,
              dl_error *err) {
    type_change c;
    DL_TRY(delta_name(b, f->type, &c.from, err));
    DL_TRY(delta_name(b, to, &c.to, err));
    DL_TRY(dl_sql_dml_field_metadata_put(b, f, "delta.typeChanges", put_changes, &c, out, err));
    out->type = to;
    return DL_OK;
}

static bool
is_partition_column(const dl_sql_dml_target *t, const char *name) {
    for (int32_t i = 0; i < t->n_parts; i++) {
        if (dl_str_eq_nocase(dl_str_from_cstr(t->parts[i]), dl_str_from_cstr(name))) {
            return true;
        }
    }
    return false;
}

dl_status
dl_sql_widen_field(dl_sql_binder *b, const dl_sql_dml_target *t, const dl_delta_field *f,
                   const dl_type *to, uint32_t loc, dl_delta_field *out, dl_error *err) {
    *out = *f;
    const char *on =
        dl_delta_metadata_config(dl_delta_snapshot_metadata(t->snap), "delta.enableTypeWidening");
    bool is_enabled = on != NULL && dl_str_eq_nocase(dl_str_from_cstr(on), DL_STR("true"));
    bool is_prim = f->n_children == 0 && to->id != DL_VEC_TYPE_STRUCT &&
                   to->id != DL_VEC_TYPE_ARRAY && to->id != DL_VEC_TYPE_MAP;
    if (is_prim && is_numeric(f->type) && is_numeric(to) && !is_numeric_upcast(f->type, to)) {
        DL_SQL_BIND_FAIL(b, loc, DL_ERR_UNSUPPORTED, err,
                         "[NOT_SUPPORTED_CHANGE_COLUMN] ALTER TABLE ALTER/CHANGE COLUMN is not "
                         "supported for changing %s's column `%s` with type \"%s\" to `%s` with "
                         "type \"%s\"",
                         t->display, f->name, sql_text(b, f->type), f->name, sql_text(b, to));
    }
    if (!is_enabled || !is_prim || !dl_sql_widen_is_supported(f->type, to)) {
        DL_SQL_BIND_FAIL(b, loc, DL_ERR_UNSUPPORTED, err,
                         "[DELTA_UNSUPPORTED_ALTER_TABLE_CHANGE_COL_OP] ALTER TABLE CHANGE COLUMN "
                         "is not supported for changing column %s from %s to %s (table %s%s)",
                         f->name, sql_text(b, f->type), sql_text(b, to), t->display,
                         is_enabled ? ": not a type widening Delta supports"
                                    : ": type widening needs TBLPROPERTIES "
                                      "('delta.enableTypeWidening' = 'true')");
    }
    if (f->type->id == DL_VEC_TYPE_DATE && is_partition_column(t, f->name)) {
        DL_SQL_BIND_FAIL(b, loc, DL_ERR_UNSUPPORTED, err,
                         "changing the partition column `%s` of %s from DATE to TIMESTAMP_NTZ "
                         "is not supported yet",
                         f->name, t->display);
    }
    return record_change(b, f, to, out, err);
}
