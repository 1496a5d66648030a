/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reading CSV and JSON files in FROM: read_csv('path' | 'dir' | 'glob' | array(...), option =>
 * value, ...), read_json(...) likewise, and Spark's csv.`path` and json.`path` (the same with no
 * options). The files are loaded and, without a
 * schema option, their columns inferred while binding (the plan needs the row type); the rows
 * are converted when the ROWS node opens, on the statement's pool (formats/formats.h).
 *
 * Options are Spark's DataFrameReader CSV options, names case-insensitive, values literals
 * (strings, booleans or numbers; Spark's options are strings, so 'true' and true are the
 * same). An option Spark has and this reader does not is refused by name, never ignored.
 */
#include <string.h>
#include <strings.h>

#include "formats/formats.h"
#include "sql/bind/sql_bind_int.h"
#include "sql/func/sql_fn_int.h"

typedef struct csv_bind {
    dl_fmt_csv *reader;
    const dl_type *schema;
    const dl_sql_tz *tz;
} csv_bind;

/* ---- the options ---------------------------------------------------------------------------- */

typedef struct csv_opts {
    dl_fmt_csv_options o;
    bool is_infer;
    const char *schema_text; /* schema => '...' or NULL */
} csv_opts;

/* An option's value as text ("true" for TRUE). */
static dl_status
option_text(dl_sql_binder *b, const char *fn, const dl_sql_expr *arg, dl_str *out, dl_error *err) {
    const dl_sql_expr *v = arg->u.named_arg.value;
    if (v->kind == DL_SQL_EXPR_LITERAL && v->u.lit.kind == DL_SQL_LIT_BOOL) {
        *out = v->u.lit.b ? DL_STR("true") : DL_STR("false");
        return DL_OK;
    }
    if (v->kind == DL_SQL_EXPR_LITERAL &&
        (v->u.lit.kind == DL_SQL_LIT_STRING || v->u.lit.kind == DL_SQL_LIT_INT ||
         v->u.lit.kind == DL_SQL_LIT_DECIMAL)) {
        *out = v->u.lit.text;
        return DL_OK;
    }
    DL_SQL_BIND_FAIL(b, v->loc, DL_ERR_SQL_BIND, err,
                     "%s: option '%.*s' takes a string, boolean or number literal", fn,
                     DL_STR_FMT(arg->u.named_arg.name.name));
}

static dl_status
option_bool(dl_sql_binder *b, const char *fn, const dl_sql_expr *arg, dl_str v, bool *out,
            dl_error *err) {
    if (dl_str_eq_nocase(v, DL_STR("true"))) {
        *out = true;
    } else if (dl_str_eq_nocase(v, DL_STR("false"))) {
        *out = false;
    } else {
        DL_SQL_BIND_FAIL(b, arg->u.named_arg.value->loc, DL_ERR_SQL_BIND, err,
                         "%s: option '%.*s' must be true or false, not '%.*s'", fn,
                         DL_STR_FMT(arg->u.named_arg.name.name), DL_STR_FMT(v));
    }
    return DL_OK;
}

/* One character ("" = none where allowed; "\t" written out is a tab, as Spark's toChar). */
static dl_status
option_char(dl_sql_binder *b, const dl_sql_expr *arg, dl_str v, bool allow_none, char *out,
            dl_error *err) {
    if (v.len == 1) {
        *out = v.ptr[0];
        return DL_OK;
    }
    if (v.len == 2 && v.ptr[0] == '\\' && (v.ptr[1] == 't' || v.ptr[1] == '\\')) {
        *out = v.ptr[1] == 't' ? '\t' : '\\';
        return DL_OK;
    }
    if (v.len == 0 && allow_none) {
        *out = 0;
        return DL_OK;
    }
    DL_SQL_BIND_FAIL(b, arg->u.named_arg.value->loc, DL_ERR_SQL_BIND, err,
                     "read_csv: option '%.*s' must be one character%s, not '%.*s'",
                     DL_STR_FMT(arg->u.named_arg.name.name), allow_none ? " or empty" : "",
                     DL_STR_FMT(v));
}

static dl_status
option_mode(dl_sql_binder *b, const char *fn, const dl_sql_expr *arg, dl_str v, dl_fmt_mode *out,
            dl_error *err) {
    if (dl_str_eq_nocase(v, DL_STR("PERMISSIVE"))) {
        *out = DL_FMT_PERMISSIVE;
    } else if (dl_str_eq_nocase(v, DL_STR("DROPMALFORMED"))) {
        *out = DL_FMT_DROPMALFORMED;
    } else if (dl_str_eq_nocase(v, DL_STR("FAILFAST"))) {
        *out = DL_FMT_FAILFAST;
    } else {
        DL_SQL_BIND_FAIL(b, arg->u.named_arg.value->loc, DL_ERR_SQL_BIND, err,
                         "%s: mode must be PERMISSIVE, DROPMALFORMED or FAILFAST, not '%.*s'", fn,
                         DL_STR_FMT(v));
    }
    return DL_OK;
}

/* A value Spark allows and this reader reads only in its default form. */
static dl_status
option_only(dl_sql_binder *b, const char *fn, const dl_sql_expr *arg, dl_str v,
            const char *const *allowed, dl_error *err) {
    for (int i = 0; allowed[i] != NULL; i++) {
        if (dl_str_eq_nocase(v, dl_str_from_cstr(allowed[i]))) {
            return DL_OK;
        }
    }
    DL_SQL_BIND_FAIL(b, arg->u.named_arg.value->loc, DL_ERR_UNSUPPORTED, err,
                     "%s: option '%.*s' = '%.*s' is not supported (only '%s')", fn,
                     DL_STR_FMT(arg->u.named_arg.name.name), DL_STR_FMT(v), allowed[0]);
}

static bool
is_opt(dl_str name, const char *want) {
    return dl_str_eq_nocase(name, dl_str_from_cstr(want));
}

static const char *const k_utf8[] = {"UTF-8", "UTF8", NULL};
static const char *const k_date_default[] = {"yyyy-MM-dd", NULL};
static const char *const k_ts_default[] = {"yyyy-MM-dd'T'HH:mm:ss[.SSS][XXX]", NULL};
static const char *const k_ntz_default[] = {"yyyy-MM-dd'T'HH:mm:ss[.SSS]", NULL};
static const char *const k_true[] = {"true", NULL};
static const char *const k_one[] = {"1.0", "1", NULL};
static const char *const k_newline[] = {"\n", "\r\n", NULL};

static dl_status
apply_char_option(dl_sql_binder *b, const dl_sql_expr *arg, dl_str n, dl_str v, csv_opts *co,
                  bool *done, dl_error *err) {
    dl_fmt_csv_options *o = &co->o;
    *done = true;
    if (is_opt(n, "sep") || is_opt(n, "delimiter")) {
        return option_char(b, arg, v, false, &o->sep, err);
    }
    if (is_opt(n, "quote")) {
        return option_char(b, arg, v, true, &o->quote, err);
    }
    if (is_opt(n, "escape")) {
        return option_char(b, arg, v, true, &o->escape, err);
    }
    if (is_opt(n, "comment")) {
        return option_char(b, arg, v, true, &o->comment, err);
    }
    dl_str *text = is_opt(n, "nullValue")     ? &o->null_value
                   : is_opt(n, "emptyValue")  ? &o->empty_value
                   : is_opt(n, "nanValue")    ? &o->nan_value
                   : is_opt(n, "positiveInf") ? &o->pos_inf
                   : is_opt(n, "negativeInf") ? &o->neg_inf
                                              : NULL;
    if (text != NULL) {
        *text = v;
        return DL_OK;
    }
    *done = false;
    return DL_OK;
}

static dl_status
apply_option(dl_sql_binder *b, const dl_sql_expr *arg, csv_opts *co, dl_error *err) {
    dl_str n = arg->u.named_arg.name.name;
    dl_str v;
    DL_TRY(option_text(b, "read_csv", arg, &v, err));
    dl_fmt_csv_options *o = &co->o;
    bool done = false;
    DL_TRY(apply_char_option(b, arg, n, v, co, &done, err));
    if (done) {
        return DL_OK;
    }
    if (is_opt(n, "header")) {
        return option_bool(b, "read_csv", arg, v, &o->has_header, err);
    }
    if (is_opt(n, "inferSchema")) {
        return option_bool(b, "read_csv", arg, v, &co->is_infer, err);
    }
    if (is_opt(n, "multiLine")) {
        return option_bool(b, "read_csv", arg, v, &o->is_multi_line, err);
    }
    if (is_opt(n, "ignoreLeadingWhiteSpace")) {
        return option_bool(b, "read_csv", arg, v, &o->ignore_leading_ws, err);
    }
    if (is_opt(n, "ignoreTrailingWhiteSpace")) {
        return option_bool(b, "read_csv", arg, v, &o->ignore_trailing_ws, err);
    }
    if (is_opt(n, "mode")) {
        return option_mode(b, "read_csv", arg, v, &o->mode, err);
    }
    if (is_opt(n, "schema")) {
        co->schema_text = dl_arena_printf(b->arena, "STRUCT<%.*s>", DL_STR_FMT(v));
        DL_CHECK(co->schema_text != NULL, err, DL_ERR_NOMEM, "out of memory");
        return DL_OK;
    }
    if (is_opt(n, "columnNameOfCorruptRecord")) {
        o->corrupt_column = dl_arena_strndup(b->arena, v.ptr, v.len);
        DL_CHECK(o->corrupt_column != NULL, err, DL_ERR_NOMEM, "out of memory");
        return DL_OK;
    }
    const char *const *only = is_opt(n, "encoding") || is_opt(n, "charset") ? k_utf8
                              : is_opt(n, "dateFormat")                     ? k_date_default
                              : is_opt(n, "timestampFormat")                ? k_ts_default
                              : is_opt(n, "timestampNTZFormat")             ? k_ntz_default
                              : is_opt(n, "enforceSchema")                  ? k_true
                              : is_opt(n, "samplingRatio")                  ? k_one
                              : is_opt(n, "lineSep")                        ? k_newline
                                                                            : NULL;
    if (only != NULL) {
        return option_only(b, "read_csv", arg, v, only, err);
    }
    DL_SQL_BIND_FAIL(b, arg->loc, DL_ERR_SQL_BIND, err,
                     "read_csv: unknown option '%.*s' (there are header, sep, delimiter, quote, "
                     "escape, comment, nullValue, emptyValue, nanValue, positiveInf, "
                     "negativeInf, inferSchema, schema, mode, multiLine, "
                     "ignoreLeadingWhiteSpace, ignoreTrailingWhiteSpace, "
                     "columnNameOfCorruptRecord, encoding, dateFormat, timestampFormat, "
                     "timestampNTZFormat, enforceSchema, samplingRatio, lineSep)",
                     DL_STR_FMT(n));
}

/* ---- dates and timestamps in the session's zone --------------------------------------------- */

static dl_status
parse_date(void *ctx, dl_str text, int64_t *out, dl_error *err) {
    (void)ctx;
    int32_t days = 0;
    DL_TRY(dl_date_parse(text, &days, err));
    *out = days;
    return DL_OK;
}

/* ctx: the session's zone (a const dl_sql_tz **). */
static dl_status
parse_ts(void *ctx, dl_str text, int64_t *out, dl_error *err) {
    const dl_sql_tz *const *tz = ctx;
    return dl_sql_ts_parse_in(text, *tz, out, err);
}

static dl_status
parse_ts_ntz(void *ctx, dl_str text, int64_t *out, dl_error *err) {
    (void)ctx;
    return dl_ts_ntz_parse(text, false, out, err);
}

/* ---- binding -------------------------------------------------------------------------------- */

static void
release_reader(void *ctx) {
    dl_fmt_csv_free(ctx);
}

static dl_status
push_rows(void *ctx, dl_batch *batch, dl_error *err) {
    dl_status s = dl_sql_rows_push_shared(ctx, batch, err);
    dl_vec_batch_free(batch);
    return s;
}

static dl_status
produce_csv(void *ctx, dl_sql_rows *out, dl_error *err) {
    csv_bind *cb = ctx;
    return dl_fmt_csv_read(cb->reader, cb->schema, push_rows, out, err);
}

/* Loads every file; *out_bytes is their size. */
static dl_status
load_files(dl_sql_binder *b, dl_store *store, const dl_sql_path_list *l, dl_vec_buffer **bufs,
           const char **names, size_t *out_bytes, dl_error *err) {
    *out_bytes = 0;
    for (int32_t i = 0; i < l->n; i++) {
        names[i] = dl_arena_printf(b->arena, "/%s", l->items[i]);
        DL_CHECK(names[i] != NULL, err, DL_ERR_NOMEM, "out of memory");
        dl_status s = dl_fmt_load(store, l->items[i], b->exec->alloc, &bufs[i], err);
        if (s != DL_OK) {
            for (int32_t k = 0; k < i; k++) {
                dl_vec_buffer_unref(bufs[k]);
            }
            return s;
        }
        *out_bytes += bufs[i]->size;
    }
    return DL_OK;
}

/* The files of path_arg, loaded (each buffer one reference, for the caller to drop). */
typedef struct loaded_files {
    dl_vec_buffer **bufs;
    const char **names;
    int32_t n;
    size_t bytes;
} loaded_files;

static dl_status
load_paths(dl_sql_binder *b, const dl_sql_expr *path_arg, const char *fn, loaded_files *out,
           dl_error *err) {
    dl_store *store = NULL;
    DL_TRY(dl_sql_root_store(b, &store, err));
    dl_sql_path_list l = {0};
    DL_TRY(dl_sql_bind_paths(b, store, path_arg, fn, &l, err));
    out->bufs = dl_arena_alloc_zero(b->arena, (size_t)l.n * sizeof(void *) + 1);
    out->names = dl_arena_alloc_zero(b->arena, (size_t)l.n * sizeof(char *) + 1);
    DL_CHECK(out->bufs != NULL && out->names != NULL, err, DL_ERR_NOMEM, "out of memory");
    out->n = l.n;
    return load_files(b, store, &l, out->bufs, out->names, &out->bytes, err);
}

static void
unref_files(loaded_files *f) {
    for (int32_t i = 0; i < f->n; i++) {
        dl_vec_buffer_unref(f->bufs[i]);
    }
}

static dl_status
open_reader(dl_sql_binder *b, const dl_sql_expr *path_arg, csv_opts *co, csv_bind *cb,
            size_t *out_bytes, dl_error *err) {
    loaded_files f = {0};
    DL_TRY(load_paths(b, path_arg, "read_csv", &f, err));
    *out_bytes = f.bytes;
    dl_status s = dl_fmt_csv_new(b->exec->alloc, &co->o, f.names, f.bufs, f.n, &cb->reader, err);
    unref_files(&f);
    DL_TRY(s);
    s = dl_arena_on_reset(b->arena, release_reader, cb->reader, err);
    if (s != DL_OK) {
        dl_fmt_csv_free(cb->reader);
    }
    return s;
}

static dl_status
bind_schema(dl_sql_binder *b, const char *fn, const char *text, uint32_t loc, const dl_type **out,
            dl_error *err) {
    dl_sql_type *ast = NULL;
    dl_status s = dl_sql_parse_type_text(b->arena, text, strlen(text), &ast, err);
    if (s == DL_OK) {
        s = dl_sql_binder_type(b, ast, out, err);
    }
    if (s != DL_OK) {
        dl_error_prefix(err, "%s: schema '%s'", fn, text);
        dl_sql_binder_locate(b, loc, err);
    }
    return s;
}

/* Checks the call's shape (a path, then name => value options) and applies each option. */
typedef dl_status (*apply_fn)(dl_sql_binder *b, const dl_sql_expr *arg, void *opts, dl_error *err);

static dl_status
apply_args(dl_sql_binder *b, const dl_sql_tref *tref, const char *fn, const char *example,
           apply_fn apply, void *opts, dl_error *err) {
    const dl_sql_expr_list *args = &tref->u.func.args;
    if (args->n < 1 || args->items[0]->kind == DL_SQL_EXPR_NAMED_ARG) {
        DL_SQL_BIND_FAIL(b, tref->loc, DL_ERR_SQL_BIND, err,
                         "[WRONG_NUM_ARGS] %s takes a path and then options (%s)", fn, example);
    }
    for (uint32_t i = 1; i < args->n; i++) {
        if (args->items[i]->kind != DL_SQL_EXPR_NAMED_ARG) {
            DL_SQL_BIND_FAIL(b, args->items[i]->loc, DL_ERR_SQL_BIND, err,
                             "%s: options are written name => value", fn);
        }
        DL_TRY(apply(b, args->items[i], opts, err));
    }
    return DL_OK;
}

/* The ROWS node that runs produce(ctx) when it opens; s is the binding's status so far. */
static dl_status
rows_plan(dl_sql_binder *b, const dl_sql_tref *tref, dl_status s, const dl_type *t,
          dl_status (*produce)(void *ctx, dl_sql_rows *out, dl_error *err), void *ctx,
          double est_rows, dl_sql_plan **out, dl_error *err) {
    if (s != DL_OK) {
        dl_sql_binder_locate(b, tref->loc, err);
        return s;
    }
    dl_sql_plan *p = NULL;
    DL_TRY(dl_sql_plan_new(b->arena, DL_SQL_PLAN_ROWS, t->fields, t->n_fields, &p, err));
    p->u.rows.produce = produce;
    p->u.rows.ctx = ctx;
    p->est_rows = est_rows;
    p->loc = tref->loc;
    *out = p;
    return DL_OK;
}

static dl_status
apply_csv_option(dl_sql_binder *b, const dl_sql_expr *arg, void *opts, dl_error *err) {
    return apply_option(b, arg, opts, err);
}

dl_status
dl_sql_binder_read_csv(dl_sql_binder *b, const dl_sql_tref *tref, dl_sql_plan **out,
                       dl_error *err) {
    csv_bind *cb = dl_arena_alloc_zero(b->arena, sizeof(*cb));
    csv_opts co = {0};
    DL_CHECK(cb != NULL, err, DL_ERR_NOMEM, "out of memory");
    dl_fmt_csv_options_init(&co.o);
    DL_TRY(apply_args(b, tref, "read_csv", "read_csv('f.csv', header => true)", apply_csv_option,
                      &co, err));
    DL_TRY(dl_sql_tz_env(&b->exec->env, &cb->tz, err));
    co.o.parse_date = parse_date;
    co.o.parse_ts = parse_ts;
    co.o.parse_ts_ntz = parse_ts_ntz;
    co.o.time_ctx = &cb->tz;
    co.o.pool = b->exec->pool;
    co.o.n_threads = DL_MAX(b->exec->n_threads, 1);
    size_t bytes = 0;
    DL_TRY(open_reader(b, tref->u.func.args.items[0], &co, cb, &bytes, err));
    dl_status s = co.schema_text != NULL
                      ? bind_schema(b, "read_csv", co.schema_text, tref->loc, &cb->schema, err)
                      : dl_fmt_csv_infer(cb->reader, co.is_infer, b->arena, &cb->schema, err);
    if (s == DL_OK) {
        s = dl_fmt_csv_check_schema(&co.o, cb->schema, err);
    }
    return rows_plan(b, tref, s, cb->schema, produce_csv, cb, (double)bytes / 32.0, out, err);
}

/* ---- read_json ------------------------------------------------------------------------------ */

typedef struct json_bind {
    dl_fmt_json *reader;
    const dl_type *schema;
    const dl_sql_tz *tz;
} json_bind;

typedef struct json_opts {
    dl_fmt_json_options o;
    const char *schema_text;
} json_opts;

static const char *const k_false[] = {"false", NULL};
static const char *const k_en_us[] = {"en-US", NULL};

static bool *
json_bool_option(json_opts *jo, dl_str n) {
    dl_fmt_json_options *o = &jo->o;
    return is_opt(n, "multiLine")                            ? &o->is_multi_line
           : is_opt(n, "primitivesAsString")                 ? &o->is_primitives_as_string
           : is_opt(n, "prefersDecimal")                     ? &o->is_prefers_decimal
           : is_opt(n, "dropFieldIfAllNull")                 ? &o->is_drop_all_null
           : is_opt(n, "allowComments")                      ? &o->allow_comments
           : is_opt(n, "allowSingleQuotes")                  ? &o->allow_single_quotes
           : is_opt(n, "allowUnquotedFieldNames")            ? &o->allow_unquoted_names
           : is_opt(n, "allowNonNumericNumbers")             ? &o->allow_non_numeric
           : is_opt(n, "allowNumericLeadingZeros")           ? &o->allow_leading_zeros
           : is_opt(n, "allowBackslashEscapingAnyCharacter") ? &o->allow_backslash_any
           : is_opt(n, "allowUnquotedControlChars")          ? &o->allow_control_chars
                                                             : NULL;
}

static dl_status
apply_json_option(dl_sql_binder *b, const dl_sql_expr *arg, json_opts *jo, dl_error *err) {
    dl_str n = arg->u.named_arg.name.name;
    dl_str v;
    DL_TRY(option_text(b, "read_json", arg, &v, err));
    bool *flag = json_bool_option(jo, n);
    if (flag != NULL) {
        return option_bool(b, "read_json", arg, v, flag, err);
    }
    if (is_opt(n, "mode")) {
        return option_mode(b, "read_json", arg, v, &jo->o.mode, err);
    }
    if (is_opt(n, "schema")) {
        jo->schema_text = dl_arena_printf(b->arena, "STRUCT<%.*s>", DL_STR_FMT(v));
        DL_CHECK(jo->schema_text != NULL, err, DL_ERR_NOMEM, "out of memory");
        return DL_OK;
    }
    if (is_opt(n, "columnNameOfCorruptRecord")) {
        jo->o.corrupt_column = dl_arena_strndup(b->arena, v.ptr, v.len);
        DL_CHECK(jo->o.corrupt_column != NULL, err, DL_ERR_NOMEM, "out of memory");
        return DL_OK;
    }
    if (is_opt(n, "dateFormat") || is_opt(n, "timestampFormat") ||
        is_opt(n, "timestampNTZFormat")) {
        DL_SQL_BIND_FAIL(b, arg->loc, DL_ERR_UNSUPPORTED, err,
                         "read_json: option '%.*s' is not supported yet: dates and timestamps "
                         "are read as Spark reads them when the option is not set (as CAST "
                         "does, in the session time zone)",
                         DL_STR_FMT(n));
    }
    const char *const *only = is_opt(n, "encoding") || is_opt(n, "charset") ? k_utf8
                              : is_opt(n, "samplingRatio")                  ? k_one
                              : is_opt(n, "lineSep")                        ? k_newline
                              : is_opt(n, "inferTimestamp")                 ? k_false
                              : is_opt(n, "locale")                         ? k_en_us
                                                                            : NULL;
    if (only != NULL) {
        return option_only(b, "read_json", arg, v, only, err);
    }
    DL_SQL_BIND_FAIL(b, arg->loc, DL_ERR_SQL_BIND, err,
                     "read_json: unknown or unsupported option '%.*s' (there are schema, mode, "
                     "columnNameOfCorruptRecord, multiLine, primitivesAsString, prefersDecimal, "
                     "dropFieldIfAllNull, allowComments, allowSingleQuotes, "
                     "allowUnquotedFieldNames, allowNonNumericNumbers, allowNumericLeadingZeros, "
                     "allowBackslashEscapingAnyCharacter, allowUnquotedControlChars, encoding, "
                     "samplingRatio, lineSep, inferTimestamp, locale)",
                     DL_STR_FMT(n));
}

static void
release_json_reader(void *ctx) {
    dl_fmt_json_free(ctx);
}

static dl_status
produce_json(void *ctx, dl_sql_rows *out, dl_error *err) {
    json_bind *jb = ctx;
    return dl_fmt_json_read(jb->reader, jb->schema, push_rows, out, err);
}

static dl_status
open_json_reader(dl_sql_binder *b, const dl_sql_expr *path_arg, json_opts *jo, json_bind *jb,
                 size_t *out_bytes, dl_error *err) {
    loaded_files f = {0};
    DL_TRY(load_paths(b, path_arg, "read_json", &f, err));
    *out_bytes = f.bytes;
    dl_status s = dl_fmt_json_new(b->exec->alloc, &jo->o, f.names, f.bufs, f.n, &jb->reader, err);
    unref_files(&f);
    DL_TRY(s);
    s = dl_arena_on_reset(b->arena, release_json_reader, jb->reader, err);
    if (s != DL_OK) {
        dl_fmt_json_free(jb->reader);
    }
    return s;
}

static dl_status
apply_json_args(dl_sql_binder *b, const dl_sql_expr *arg, void *opts, dl_error *err) {
    return apply_json_option(b, arg, opts, err);
}

dl_status
dl_sql_binder_read_json(dl_sql_binder *b, const dl_sql_tref *tref, dl_sql_plan **out,
                        dl_error *err) {
    json_bind *jb = dl_arena_alloc_zero(b->arena, sizeof(*jb));
    json_opts jo = {0};
    DL_CHECK(jb != NULL, err, DL_ERR_NOMEM, "out of memory");
    dl_fmt_json_options_init(&jo.o);
    DL_TRY(apply_args(b, tref, "read_json", "read_json('f.json', multiLine => true)",
                      apply_json_args, &jo, err));
    DL_TRY(dl_sql_tz_env(&b->exec->env, &jb->tz, err));
    jo.o.parse_date = parse_date;
    jo.o.parse_ts = parse_ts;
    jo.o.parse_ts_ntz = parse_ts_ntz;
    jo.o.time_ctx = &jb->tz;
    jo.o.pool = b->exec->pool;
    jo.o.n_threads = DL_MAX(b->exec->n_threads, 1);
    size_t bytes = 0;
    DL_TRY(open_json_reader(b, tref->u.func.args.items[0], &jo, jb, &bytes, err));
    dl_status s = jo.schema_text != NULL
                      ? bind_schema(b, "read_json", jo.schema_text, tref->loc, &jb->schema, err)
                      : dl_fmt_json_infer(jb->reader, b->arena, &jb->schema, err);
    if (s == DL_OK) {
        s = dl_fmt_json_check_schema(&jo.o, jb->schema, err);
    }
    return rows_plan(b, tref, s, jb->schema, produce_json, jb, (double)bytes / 64.0, out, err);
}
