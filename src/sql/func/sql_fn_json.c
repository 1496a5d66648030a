/* SPDX-License-Identifier: Apache-2.0 */
/*
 * JSON functions, as Spark has them:
 *
 *   get_json_object(json, path)  the value at path of the JSON text, or NULL (invalid JSON,
 *                                invalid path, nothing there). A string value is returned
 *                                unquoted and unescaped, anything else as compact JSON text.
 *                                Paths: `$` then steps `.name`, `['name']`, `[n]` and `[*]`
 *                                (every element of an array; several matches come back as a
 *                                JSON array, a single one as itself, as Spark's JsonPath).
 *   to_json(v [, options])       a struct, map or array as JSON text (Spark's JacksonGenerator):
 *                                struct fields in order, NULL fields left out unless the option
 *                                ignoreNullFields is 'false' (spark.sql.jsonGenerator
 *                                .ignoreNullFields); map keys as their string cast, NULL map
 *                                values and array elements as null; numbers as Spark casts
 *                                them to string (doubles as Java's Double.toString, NaN and
 *                                Infinity quoted), dates yyyy-MM-dd, timestamps
 *                                yyyy-MM-dd'T'HH:mm:ss.SSSXXX in the session zone,
 *                                timestamp_ntz yyyy-MM-dd'T'HH:mm:ss.SSS, binary in base64.
 *
 * The common use: reading a value out of a Delta log's JSON (a file's stats, a commit's
 * operationParameters) and writing a map or struct column as one JSON string.
 */
#include <stdio.h>
#include <string.h>

#include "json/json.h"
#include "sql/func/sql_fn_int.h"

/* ---- get_json_object ------------------------------------------------------------------------ */

#define PATH_MAX_MATCHES 4096

typedef struct path_walk {
    dl_json_val found[PATH_MAX_MATCHES];
    int32_t n_found;
    bool is_bad; /* malformed path */
} path_walk;

/* One step of the path at p[*pos]: a member name (is_index false) or an array index, or every
 * element (is_all). False at the end of the path; is_bad on a malformed step. */
typedef struct path_step {
    dl_str name;
    int64_t index;
    bool is_index;
    bool is_all;
} path_step;

static bool
next_step(dl_str p, size_t *pos, path_step *st, bool *is_bad) {
    size_t i = *pos;
    memset(st, 0, sizeof(*st));
    if (i >= p.len) {
        return false;
    }
    if (p.ptr[i] == '.') {
        size_t start = ++i;
        while (i < p.len && p.ptr[i] != '.' && p.ptr[i] != '[') {
            i++;
        }
        st->name = (dl_str){.ptr = p.ptr + start, .len = i - start};
        st->is_all = st->name.len == 1 && st->name.ptr[0] == '*';
        *is_bad = st->name.len == 0;
        *pos = i;
        return !*is_bad;
    }
    if (p.ptr[i] != '[') {
        *is_bad = true;
        return false;
    }
    i++;
    if (i < p.len && (p.ptr[i] == '\'' || p.ptr[i] == '"')) {
        char q = p.ptr[i++];
        size_t start = i;
        while (i < p.len && p.ptr[i] != q) {
            i++;
        }
        if (i + 1 >= p.len || p.ptr[i + 1] != ']') {
            *is_bad = true;
            return false;
        }
        st->name = (dl_str){.ptr = p.ptr + start, .len = i - start};
        *pos = i + 2;
        return true;
    }
    if (i < p.len && p.ptr[i] == '*') {
        st->is_all = true;
        st->is_index = true;
        i++;
    } else {
        size_t start = i;
        int64_t v = 0;
        while (i < p.len && p.ptr[i] >= '0' && p.ptr[i] <= '9' && i - start < 18) {
            v = v * 10 + (p.ptr[i++] - '0');
        }
        st->index = v;
        st->is_index = true;
        if (i == start) {
            *is_bad = true;
            return false;
        }
    }
    if (i >= p.len || p.ptr[i] != ']') {
        *is_bad = true;
        return false;
    }
    *pos = i + 1;
    return true;
}

/* Follows the steps of p from pos over v, collecting what they reach in w. */
static void
walk(dl_str p, size_t pos, dl_json_val v, path_walk *w) {
    path_step st;
    size_t next = pos;
    if (!next_step(p, &next, &st, &w->is_bad)) {
        if (!w->is_bad && w->n_found < PATH_MAX_MATCHES) {
            w->found[w->n_found++] = v;
        }
        return;
    }
    dl_json_type t = dl_json_val_type(v);
    if (st.is_all) {
        if (t != DL_JSON_ARRAY && !(t == DL_JSON_OBJECT && !st.is_index)) {
            return;
        }
        dl_json_iter it = dl_json_val_iter(v);
        dl_json_val e;
        while (!w->is_bad && dl_json_iter_next(&it, NULL, &e)) {
            walk(p, next, e, w);
        }
        return;
    }
    if (st.is_index) {
        if (t == DL_JSON_ARRAY && st.index < (int64_t)dl_json_val_count(v)) {
            walk(p, next, dl_json_arr_at(v, (uint32_t)st.index), w);
        }
        return;
    }
    if (t == DL_JSON_OBJECT) {
        dl_json_val m = dl_json_obj_get_str(v, st.name);
        if (!dl_json_val_is_missing(m)) {
            walk(p, next, m, w);
        }
    }
}

/* A call's state, made once and reused for every row: the parsed document and the walk. */
typedef struct json_state {
    dl_json_doc doc;
    path_walk walk;
} json_state;

static json_state *
state_of(dl_sql_fn_call *call, dl_error *err) {
    if (call->state == NULL) {
        const dl_allocator *alloc = call->env != NULL ? call->env->alloc : NULL;
        json_state *st = dl_mem_alloc_zero(alloc, sizeof(*st));
        if (st == NULL) {
            (void)dl_error_set(err, DL_ERR_NOMEM, "%s: out of memory", call->def->name);
            return NULL;
        }
        dl_json_doc_init(&st->doc, alloc);
        call->state = st;
    }
    return call->state;
}

void
dl_sql_free_json(dl_sql_fn_call *call) {
    json_state *st = call->state;
    if (st == NULL) {
        return;
    }
    const dl_allocator *alloc = call->env != NULL ? call->env->alloc : NULL;
    dl_json_doc_destroy(&st->doc);
    dl_mem_free(alloc, st, sizeof(*st));
    call->state = NULL;
}

/* The compact JSON text of v, or its unescaped text when it is a string. */
static dl_status
put_json_value(dl_json_val v, dl_buf *buf, dl_error *err) {
    if (dl_json_val_type(v) == DL_JSON_STRING) {
        dl_str s = dl_json_val_str(v);
        return dl_buf_append(buf, s.ptr, s.len, err);
    }
    dl_json_writer jw;
    dl_json_writer_init(&jw, buf, 0);
    dl_status s = dl_json_writer_value(&jw, v, err);
    dl_json_writer_destroy(&jw);
    return s;
}

static dl_status
row_get_json_object(const dl_sql_fn_call *call, const dl_vec_unified *u, int64_t i, dl_buf *buf,
                    bool *out_null, dl_error *err) {
    json_state *st = call->state; /* made by dl_sql_fn_get_json_object */
    dl_str json = dl_sql_u_str(&u[0], i);
    dl_str path = dl_sql_u_str(&u[1], i);
    *out_null = true;
    if (path.len == 0 || path.ptr[0] != '$') {
        return DL_OK;
    }
    if (dl_json_doc_parse(&st->doc, json.ptr, json.len, NULL) != DL_OK) {
        return DL_OK; /* not JSON: NULL, as Spark */
    }
    path_walk *w = &st->walk;
    w->n_found = 0;
    w->is_bad = false;
    walk(path, 1, dl_json_doc_root(&st->doc), w);
    dl_status s = DL_OK;
    if (!w->is_bad && w->n_found == 1 && !dl_json_val_is_null(w->found[0])) {
        *out_null = false;
        s = put_json_value(w->found[0], buf, err);
    } else if (!w->is_bad && w->n_found > 1) {
        *out_null = false;
        dl_json_writer jw;
        dl_json_writer_init(&jw, buf, 0);
        s = dl_json_writer_begin_array(&jw, err);
        for (int32_t k = 0; k < w->n_found && s == DL_OK; k++) {
            s = dl_json_writer_value(&jw, w->found[k], err);
        }
        s = s == DL_OK ? dl_json_writer_end_array(&jw, err) : s;
        dl_json_writer_destroy(&jw);
    }
    return s;
}

dl_status
dl_sql_bind_get_json_object(dl_sql_fn_bind *b, dl_error *err) {
    DL_TRY(dl_sql_bind_expect_range(b, 0, 2, dl_sql_t(DL_VEC_TYPE_STRING), "a string", err));
    b->ret_type = dl_sql_t(DL_VEC_TYPE_STRING);
    return DL_OK;
}

dl_status
dl_sql_fn_get_json_object(dl_sql_fn_call *call, dl_vector *const *args, int64_t count,
                          dl_vector *out, dl_error *err) {
    if (state_of(call, err) == NULL) {
        return DL_ERR_NOMEM;
    }
    return dl_sql_str_rows(call, args, count, out, row_get_json_object, err);
}

/* ---- to_json -------------------------------------------------------------------------------- */

typedef struct to_json_bind {
    bool keep_nulls; /* ignoreNullFields = false */
} to_json_bind;

typedef struct gen {
    const dl_sql_fn_env *env;
    const dl_sql_tz *tz;
    bool keep_nulls;
    dl_buf scratch;
} gen;

static dl_status put_value(gen *g, const dl_type *t, const dl_vector *v, int64_t idx,
                           dl_json_writer *jw, dl_error *err);

/* yyyy-MM-dd'T'HH:mm:ss.SSS at local (wall-clock) micros, then the offset as XXX when has_zone. */
static dl_status
put_timestamp(int64_t local_us, bool has_zone, int32_t offset_s, dl_json_writer *jw,
              dl_error *err) {
    dl_civil_time c;
    dl_ts_to_civil(local_us, &c);
    char text[64];
    int n = snprintf(text, sizeof(text), "%04lld-%02d-%02dT%02d:%02d:%02d.%03d", (long long)c.year,
                     c.month, c.day, c.hour, c.minute, c.second, (int)(c.micros / 1000));
    if (has_zone && offset_s == 0) {
        n += snprintf(text + n, sizeof(text) - (size_t)n, "Z");
    } else if (has_zone) {
        int32_t a = offset_s < 0 ? -offset_s : offset_s;
        n += snprintf(text + n, sizeof(text) - (size_t)n, "%c%02d:%02d", offset_s < 0 ? '-' : '+',
                      (int)(a / 3600), (int)(a / 60 % 60));
        if (a % 60 != 0) {
            n += snprintf(text + n, sizeof(text) - (size_t)n, ":%02d", (int)(a % 60));
        }
    }
    return dl_json_writer_string(jw, (dl_str){.ptr = text, .len = (size_t)n}, err);
}

/* A leaf value: its CAST(... AS STRING) text, bare for numbers and booleans. */
static dl_status
put_leaf(gen *g, const dl_type *t, const dl_vector *v, int64_t idx, dl_json_writer *jw,
         dl_error *err) {
    switch (t->id) {
    case DL_VEC_TYPE_BOOLEAN:
        return dl_json_writer_bool(jw, dl_vec_get_bool(v, idx), err);
    case DL_VEC_TYPE_BINARY:
        dl_buf_reset(&g->scratch);
        DL_TRY(dl_sql_base64_append(dl_vec_get_str(v, idx), &g->scratch, err));
        return dl_json_writer_string(jw, dl_buf_view(&g->scratch), err);
    case DL_VEC_TYPE_TIMESTAMP: {
        int64_t us = ((const int64_t *)v->data)[idx];
        int32_t off = dl_sql_tz_offset_utc(g->tz, us);
        return put_timestamp(us + (int64_t)off * DL_MICROS_PER_SECOND, true, off, jw, err);
    }
    case DL_VEC_TYPE_TIMESTAMP_NTZ:
        return put_timestamp(((const int64_t *)v->data)[idx], false, 0, jw, err);
    default:
        break;
    }
    dl_buf_reset(&g->scratch);
    DL_TRY(dl_sql_value_to_text(g->env, g->tz, t, v, idx, &g->scratch, err));
    dl_str text = dl_buf_view(&g->scratch);
    bool is_number = dl_sql_is_numeric(t);
    if (is_number && text.len > 0 &&
        (text.ptr[text.len - 1] == 'N' || text.ptr[text.len - 1] == 'y')) {
        is_number = false; /* NaN, Infinity, -Infinity are quoted */
    }
    return is_number ? dl_json_writer_raw(jw, text, err) : dl_json_writer_string(jw, text, err);
}

static dl_status
put_struct(gen *g, const dl_type *t, const dl_vector *v, int64_t idx, dl_json_writer *jw,
           dl_error *err) {
    DL_TRY(dl_json_writer_begin_object(jw, err));
    for (int32_t f = 0; f < t->n_fields; f++) {
        const dl_vector *child = v->children[f];
        bool is_null = dl_vec_is_null(child, idx);
        if (is_null && !g->keep_nulls) {
            continue;
        }
        DL_TRY(dl_json_writer_key_cstr(jw, t->fields[f].name, err));
        DL_TRY(is_null ? dl_json_writer_null(jw, err)
                       : put_value(g, t->fields[f].type, child, idx, jw, err));
    }
    return dl_json_writer_end_object(jw, err);
}

static dl_status
put_list(gen *g, const dl_type *t, const dl_vector *v, int64_t idx, dl_json_writer *jw,
         dl_error *err) {
    int64_t start = 0;
    int64_t end = 0;
    dl_vec_list_bounds(v, idx, &start, &end);
    bool is_map = t->id == DL_VEC_TYPE_MAP;
    DL_TRY(is_map ? dl_json_writer_begin_object(jw, err) : dl_json_writer_begin_array(jw, err));
    const dl_vector *elems = v->children[0];
    for (int64_t k = start; k < end; k++) {
        const dl_vector *val = is_map ? elems->children[1] : elems;
        const dl_type *vt = is_map ? t->value : t->element;
        if (is_map) {
            dl_buf_reset(&g->scratch);
            DL_TRY(dl_sql_value_to_text(g->env, g->tz, t->key, elems->children[0], k, &g->scratch,
                                        err));
            DL_TRY(dl_json_writer_key(jw, dl_buf_view(&g->scratch), err));
        }
        DL_TRY(dl_vec_is_null(val, k) ? dl_json_writer_null(jw, err)
                                      : put_value(g, vt, val, k, jw, err));
    }
    return is_map ? dl_json_writer_end_object(jw, err) : dl_json_writer_end_array(jw, err);
}

static dl_status
put_value(gen *g, const dl_type *t, const dl_vector *v, int64_t idx, dl_json_writer *jw,
          dl_error *err) {
    if (t->id == DL_VEC_TYPE_STRUCT) {
        return put_struct(g, t, v, idx, jw, err);
    }
    if (t->id == DL_VEC_TYPE_ARRAY || t->id == DL_VEC_TYPE_MAP) {
        return put_list(g, t, v, idx, jw, err);
    }
    return put_leaf(g, t, v, idx, jw, err);
}

dl_status
dl_sql_value_to_json(const dl_sql_fn_env *env, const dl_type *t, const dl_vector *v, int64_t idx,
                     bool keep_nulls, dl_buf *out, dl_error *err) {
    gen g = {.env = env, .keep_nulls = keep_nulls};
    DL_TRY(dl_sql_tz_env(env, &g.tz, err));
    dl_buf_init(&g.scratch, env != NULL ? env->alloc : NULL);
    dl_json_writer jw;
    dl_json_writer_init(&jw, out, 0);
    dl_status s = put_value(&g, t, v, idx, &jw, err);
    dl_json_writer_destroy(&jw);
    dl_buf_destroy(&g.scratch);
    return s;
}

dl_status
dl_sql_bind_to_json(dl_sql_fn_bind *b, dl_error *err) {
    dl_type_id id = b->arg_types[0]->id;
    if (id != DL_VEC_TYPE_STRUCT && id != DL_VEC_TYPE_MAP && id != DL_VEC_TYPE_ARRAY) {
        return dl_sql_bind_arg_fail(b, 0, "a struct, map or array", err);
    }
    to_json_bind *bd = dl_sql_bind_alloc(b, sizeof(*bd), err);
    DL_CHECK(bd != NULL, err, DL_ERR_NOMEM, "to_json: out of memory");
    bd->keep_nulls = false;
    if (b->n_args == 2) {
        const dl_sql_fn_const *c = &b->consts[1];
        if (b->arg_types[1]->id != DL_VEC_TYPE_MAP || !c->is_const) {
            return dl_sql_bind_fail(b, err,
                                    "to_json: options must be a constant map, as "
                                    "map('ignoreNullFields', 'false')");
        }
        const dl_vector *m = c->vec;
        if (!c->is_null && m->children[0]->children[0]->type->id == DL_VEC_TYPE_STRING &&
            m->children[0]->children[1]->type->id == DL_VEC_TYPE_STRING) {
            int64_t start = 0;
            int64_t end = 0;
            dl_vec_list_bounds(m, 0, &start, &end);
            for (int64_t k = start; k < end; k++) {
                dl_str key = dl_vec_get_str(m->children[0]->children[0], k);
                dl_str val = dl_vec_get_str(m->children[0]->children[1], k);
                if (dl_str_eq_nocase(key, DL_STR("ignoreNullFields"))) {
                    bd->keep_nulls = dl_str_eq_nocase(val, DL_STR("false"));
                }
            }
        }
    }
    b->bind_data = bd;
    b->ret_type = dl_sql_t(DL_VEC_TYPE_STRING);
    return DL_OK;
}

dl_status
dl_sql_fn_to_json(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                  dl_error *err) {
    const to_json_bind *bd = call->bind_data;
    const dl_allocator *alloc = call->env != NULL ? call->env->alloc : NULL;
    gen g = {.env = call->env, .keep_nulls = bd->keep_nulls};
    DL_TRY(dl_sql_tz_env(call->env, &g.tz, err));
    dl_vec_unified u;
    dl_vec_unify(args[0], count, &u);
    dl_buf text;
    dl_buf_init(&text, alloc);
    dl_buf_init(&g.scratch, alloc);
    dl_json_writer jw;
    dl_json_writer_init(&jw, &text, 0);
    dl_status s = DL_OK;
    for (int64_t i = 0; i < count && s == DL_OK; i++) {
        if (dl_sql_u_null(&u, i)) {
            s = dl_vec_append_null(out, err);
            continue;
        }
        dl_buf_reset(&text);
        dl_json_writer_reset(&jw);
        s = put_value(&g, call->arg_types[0], u.flat, u.sel[i], &jw, err);
        s = s == DL_OK ? dl_vec_append_str(out, text.data, text.len, err) : s;
    }
    dl_json_writer_destroy(&jw);
    dl_buf_destroy(&g.scratch);
    dl_buf_destroy(&text);
    return s;
}
