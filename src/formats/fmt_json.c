/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The JSON reader (formats.h has what it reads and how, after Spark's JSON data source).
 *
 * Work is split as the CSV reader splits it: whole files with multi_line, else pieces of a file
 * that end at line breaks, each read by its own task. A record is parsed by src/json's strict
 * parser into its tape (reused record after record: no allocation per value); one it refuses
 * is rewritten by fmt_json_lenient.c when an allow_* option is set, and parsed again.
 *
 * Inference merges every record into a tree of inferred types in place (a field found again
 * allocates nothing); the tasks' trees are merged and turned into a dl_type at the end.
 * Converting walks the tape against the schema and appends to the batch's vectors; strings
 * without escapes are views into the file's bytes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "formats/fmt_int.h"
#include "json/json.h"

struct dl_fmt_json {
    const dl_allocator *alloc;
    dl_fmt_json_options o;
    dl_fmt_input in; /* the files and their chunks */
};

void
dl_fmt_json_options_init(dl_fmt_json_options *o) {
    *o = (dl_fmt_json_options){.allow_single_quotes = true,
                               .allow_non_numeric = true,
                               .corrupt_column = "_corrupt_record",
                               .n_threads = 1};
}

/* ---- the reader ----------------------------------------------------------------------------- */

dl_status
dl_fmt_json_new(const dl_allocator *alloc, const dl_fmt_json_options *opts,
                const char *const *names, dl_vec_buffer *const *data, int32_t n_files,
                dl_fmt_json **out, dl_error *err) {
    dl_fmt_json *r = dl_mem_alloc_zero(alloc, sizeof(*r));
    DL_CHECK(r != NULL, err, DL_ERR_NOMEM, "out of memory reading JSON");
    r->alloc = alloc;
    r->o = *opts;
    dl_status s = dl_fmt_input_init(&r->in, alloc, names, data, n_files, err);
    if (s == DL_OK) {
        s = dl_fmt_input_split(&r->in, r->o.n_threads, r->o.min_chunk, r->o.is_multi_line, NULL,
                               NULL, err);
    }
    if (s != DL_OK) {
        dl_fmt_json_free(r);
        return s;
    }
    *out = r;
    return DL_OK;
}

void
dl_fmt_json_free(dl_fmt_json *r) {
    if (r == NULL) {
        return;
    }
    dl_fmt_input_destroy(&r->in);
    dl_mem_free(r->alloc, r, sizeof(*r));
}

/* ---- records -------------------------------------------------------------------------------- */

/* A task's parser: the records of one chunk, one at a time. */
typedef struct parser {
    const dl_fmt_json *r;
    const dl_fmt_chunk *chunk;
    const char *base; /* the file's bytes */
    size_t pos;
    dl_json_doc doc;
    dl_buf rewritten; /* the record in strict JSON, when it needed the allow_* options */
    dl_buf specials;  /* dl_fmt_json_special of the rewritten record */
    bool is_rewritten;
    /* the current record */
    size_t start, end;
    bool is_parsed;
    dl_error why; /* why it did not parse */
} parser;

static void
parser_init(parser *p, const dl_fmt_json *r, const dl_fmt_chunk *c) {
    *p = (parser){.r = r, .chunk = c, .base = (const char *)r->in.files[c->file].buf->data};
    p->pos = c->start;
    dl_json_doc_init(&p->doc, r->alloc);
    p->doc.max_depth = 1000;
    dl_buf_init(&p->rewritten, r->alloc);
    dl_buf_init(&p->specials, r->alloc);
}

static void
parser_destroy(parser *p) {
    dl_json_doc_destroy(&p->doc);
    dl_buf_destroy(&p->rewritten);
    dl_buf_destroy(&p->specials);
}

static bool
is_blank(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n') {
            return false;
        }
    }
    return true;
}

/* The next record of the chunk, parsed (p->is_parsed false when malformed: p->why says why).
 * *has false at the end. Only NOMEM fails. */
static dl_status
next_record(parser *p, bool *has, dl_error *err) {
    const dl_fmt_chunk *c = p->chunk;
    for (;;) {
        if (p->pos >= c->end) {
            *has = false;
            return DL_OK;
        }
        p->start = p->pos;
        if (p->r->o.is_multi_line) {
            p->end = c->end;
        } else {
            const char *nl = memchr(p->base + p->pos, '\n', c->end - p->pos);
            p->end = nl != NULL ? (size_t)(nl - p->base) : c->end;
        }
        p->pos = p->end + 1;
        size_t n = p->end - p->start;
        if (!p->r->o.is_multi_line && n > 0 && p->base[p->end - 1] == '\r') {
            p->end--;
            n--;
        }
        if (!is_blank(p->base + p->start, n)) {
            break;
        }
    }
    *has = true;
    DL_CHECK(p->end - p->start <= p->doc.max_size, err, DL_ERR_LIMIT,
             "'%s': line %lld: a JSON record of %zu bytes is larger than the reader's limit of "
             "%zu bytes",
             p->r->in.files[p->chunk->file].name, (long long)dl_fmt_line_of(p->base, p->start),
             p->end - p->start, p->doc.max_size);
    p->is_rewritten = false;
    dl_error_clear(&p->why);
    dl_status s = dl_json_doc_parse_first(&p->doc, p->base + p->start, p->end - p->start, &p->why);
    if (s == DL_ERR_NOMEM) {
        *err = p->why;
        return s;
    }
    if (s != DL_OK && dl_fmt_json_is_lenient(&p->r->o)) {
        DL_TRY(dl_fmt_json_rewrite(&p->r->o, p->base + p->start, p->end - p->start, &p->rewritten,
                                   &p->specials, err));
        p->is_rewritten = true;
        dl_error again;
        dl_error_clear(&again);
        dl_status s2 = dl_json_doc_parse_first(&p->doc, (const char *)p->rewritten.data,
                                               p->rewritten.len, &again);
        if (s2 == DL_ERR_NOMEM) {
            *err = again;
            return s2;
        }
        s = s2;
    }
    p->is_parsed = s == DL_OK;
    return DL_OK;
}

/* True (and *out its value) when v is a NaN or infinity written as a word. */
static bool
special_of(const parser *p, dl_json_val v, double *out) {
    if (!p->is_rewritten || p->specials.len == 0) {
        return false;
    }
    const dl_fmt_json_special *sp = (const dl_fmt_json_special *)p->specials.data;
    size_t lo = 0;
    size_t hi = p->specials.len / sizeof(*sp);
    uint32_t off = (uint32_t)dl_json_val_offset(v);
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (sp[mid].off < off) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (lo < p->specials.len / sizeof(*sp) && sp[lo].off == off) {
        *out = sp[lo].value;
        return true;
    }
    return false;
}

static int64_t
record_line(const parser *p) {
    return dl_fmt_line_of(p->base, p->start);
}

/* FAILFAST's error for the current record. */
static dl_status
malformed(const parser *p, const char *column, const char *why, dl_error *err) {
    dl_str text = dl_str_make(p->base + p->start, p->end - p->start);
    int shown = (int)DL_MIN(text.len, (size_t)60);
    char where[200] = "";
    if (column != NULL) {
        (void)snprintf(where, sizeof(where), ", field '%s'", column);
    }
    (void)dl_error_set(err, DL_ERR_INVALID_ARG,
                       "[MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION] '%s': line %lld%s: %s: "
                       "'%.*s'%s (mode FAILFAST)",
                       p->r->in.files[p->chunk->file].name, (long long)record_line(p), where, why,
                       shown, text.ptr, text.len > 60 ? "..." : "");
    dl_error_hint(err, "fix the record, or read with mode => 'PERMISSIVE' (bad values NULL, the "
                       "record in a _corrupt_record column) or 'DROPMALFORMED' (the record "
                       "skipped)");
    err->offset = (int64_t)p->start;
    return DL_ERR_INVALID_ARG;
}

static const char *
root_problem(dl_json_val root) {
    switch (dl_json_val_type(root)) {
    case DL_JSON_NULL:
        return "the record is null, not an object";
    case DL_JSON_ARRAY:
        return "the record is an array of something other than objects";
    default:
        return "the record is not an object or an array of objects";
    }
}

/* The rows of a parsed record: an object, or an array whose elements are all objects. */
static bool
is_row_record(dl_json_val root) {
    dl_json_type t = dl_json_val_type(root);
    if (t == DL_JSON_OBJECT) {
        return true;
    }
    if (t != DL_JSON_ARRAY) {
        return false;
    }
    dl_json_iter it = dl_json_val_iter(root);
    dl_json_val v;
    while (dl_json_iter_next(&it, NULL, &v)) {
        if (dl_json_val_type(v) != DL_JSON_OBJECT) {
            return false;
        }
    }
    return true;
}

/* Runs fn over one task per chunk (each given its parser). */
static dl_status
run_tasks(const dl_fmt_json *r, dl_pool_fn fn, void *tasks, size_t size, dl_error *err) {
    return dl_fmt_run_tasks(r->o.pool, fn, tasks, size, r->in.n_chunks, err);
}

/* ---- inferring ------------------------------------------------------------------------------ */

typedef enum jkind {
    J_NULL = 0,
    J_BOOL,
    J_LONG,
    J_DOUBLE,
    J_DECIMAL,
    J_STRING,
    J_STRUCT,
    J_ARRAY,
} jkind;

typedef struct jtype jtype;

typedef struct jfield {
    dl_str name; /* in the arena */
    jtype *type;
    uint64_t seen; /* the object visit that last had the field (duplicate keys) */
} jfield;

struct jtype {
    jkind k;
    int precision, scale;
    jtype *elem;
    jfield *fields;
    int32_t n_fields, cap_fields;
    int32_t hint; /* where the last member was found */
};

typedef struct infer_task {
    const dl_fmt_json *r;
    const dl_fmt_chunk *chunk;
    dl_arena arena;
    jtype root;
    bool has_corrupt;
    bool is_negative_scale; /* prefersDecimal met 1e10: Spark refuses */
    uint64_t visit;         /* objects visited */
    const char *dup_key;    /* a key twice in one object (Spark: COLUMN_ALREADY_EXISTS) */
} infer_task;

static jtype *
new_jtype(infer_task *t, jkind k) {
    jtype *j = dl_arena_alloc_zero(&t->arena, sizeof(*j));
    if (j != NULL) {
        j->k = k;
    }
    return j;
}

/* Precision and scale of the BigDecimal of a number's text; false when it has none. */
static bool
decimal_shape(dl_str text, int *out_precision, int *out_scale) {
    size_t i = 0;
    if (i < text.len && (text.ptr[i] == '-' || text.ptr[i] == '+')) {
        i++;
    }
    int digits = 0;
    int frac = 0;
    bool is_frac = false;
    bool is_leading = true;
    bool any = false;
    for (; i < text.len; i++) {
        char c = text.ptr[i];
        if (c >= '0' && c <= '9') {
            any = true;
            if (c != '0' || !is_leading) {
                is_leading = false;
                digits++;
            }
            frac += is_frac;
        } else if (c == '.' && !is_frac) {
            is_frac = true;
        } else {
            break;
        }
    }
    if (!any) {
        return false;
    }
    long exp = 0;
    if (i < text.len && (text.ptr[i] == 'e' || text.ptr[i] == 'E')) {
        char *end = NULL;
        char buf[32];
        size_t n = DL_MIN(text.len - i - 1, sizeof(buf) - 1);
        memcpy(buf, text.ptr + i + 1, n);
        buf[n] = 0;
        exp = strtol(buf, &end, 10);
        if (end == buf || *end != 0 || exp > 10000 || exp < -10000) {
            return false;
        }
        i = text.len;
    }
    if (i != text.len) {
        return false;
    }
    *out_precision = digits == 0 ? 1 : digits;
    *out_scale = frac - (int)exp;
    return true;
}

/* The decimal type of a BigDecimal's shape, as inference gives it (DOUBLE past 38 digits). */
static void
decimal_kind(infer_task *t, int precision, int scale, jtype *out) {
    int p = DL_MAX(precision, scale);
    if (scale < 0 && p <= 38) {
        t->is_negative_scale = true;
    }
    if (p > 38) {
        out->k = J_DOUBLE;
        return;
    }
    out->k = J_DECIMAL;
    out->precision = p;
    out->scale = DL_MAX(scale, 0);
}

/* The inferred kind of a scalar value. */
static jtype
scalar_kind(infer_task *t, const parser *p, dl_json_val v) {
    const dl_fmt_json_options *o = &t->r->o;
    jtype j = {.k = J_STRING};
    double d = 0;
    switch (dl_json_val_type(v)) {
    case DL_JSON_BOOL:
        j.k = o->is_primitives_as_string ? J_STRING : J_BOOL;
        break;
    case DL_JSON_NUMBER: {
        if (o->is_primitives_as_string) {
            break;
        }
        dl_json_num_kind nk = dl_json_val_num_kind(v);
        int prec = 0;
        int scale = 0;
        if (nk == DL_JSON_NUM_INT64) {
            j.k = J_LONG;
        } else if (!special_of(p, v, &d) && (nk != DL_JSON_NUM_DOUBLE || o->is_prefers_decimal) &&
                   decimal_shape(dl_json_val_raw(v), &prec, &scale)) {
            decimal_kind(t, prec, scale, &j);
        } else {
            j.k = J_DOUBLE; /* NaN / Infinity (special_of), or a double */
        }
        break;
    }
    case DL_JSON_STRING: {
        int prec = 0;
        int scale = 0;
        dl_str s = dl_json_val_str(v);
        if (o->is_prefers_decimal && !o->is_primitives_as_string && s.len < 64 &&
            memchr(s.ptr, ',', s.len) == NULL && decimal_shape(s, &prec, &scale) && scale >= 0 &&
            scale <= prec && prec <= 38) {
            j.k = J_DECIMAL;
            j.precision = prec;
            j.scale = scale;
        }
        break;
    }
    default:
        j.k = J_NULL;
        break;
    }
    return j;
}

/* Spark's compatibleType of two scalar kinds (neither a struct nor an array). */
static void
widen_scalar(jtype *a, const jtype *b) {
    if (b->k == J_NULL || a->k == J_STRING) {
        return;
    }
    if (a->k == J_NULL || (a->k == b->k && a->k != J_DECIMAL)) {
        a->k = b->k;
        a->precision = b->precision;
        a->scale = b->scale;
        return;
    }
    bool a_num = a->k == J_LONG || a->k == J_DOUBLE || a->k == J_DECIMAL;
    bool b_num = b->k == J_LONG || b->k == J_DOUBLE || b->k == J_DECIMAL;
    if (!a_num || !b_num) {
        a->k = J_STRING;
        return;
    }
    if (a->k == J_DOUBLE || b->k == J_DOUBLE) {
        a->k = J_DOUBLE;
        return;
    }
    /* decimals, or a decimal and a LONG (DECIMAL(20,0)) */
    int p1 = a->k == J_LONG ? 20 : a->precision;
    int s1 = a->k == J_LONG ? 0 : a->scale;
    int p2 = b->k == J_LONG ? 20 : b->precision;
    int s2 = b->k == J_LONG ? 0 : b->scale;
    int scale = DL_MAX(s1, s2);
    int range = DL_MAX(p1 - s1, p2 - s2);
    if (range + scale > 38) {
        a->k = J_DOUBLE;
        return;
    }
    a->k = J_DECIMAL;
    a->precision = range + scale;
    a->scale = scale;
}

static void
make_string(jtype *j) {
    *j = (jtype){.k = J_STRING};
}

/* The field of struct j named name (added when new); NULL on NOMEM. A field met twice in the
 * same visit (visit != 0) is a duplicate key. */
static jtype *
struct_field(infer_task *t, jtype *j, dl_str name, uint64_t visit) {
    for (int32_t n = 0; n < j->n_fields; n++) {
        int32_t i = (j->hint + n) % j->n_fields;
        if (dl_str_eq(j->fields[i].name, name)) {
            j->hint = i + 1;
            if (visit != 0 && j->fields[i].seen == visit && t->dup_key == NULL) {
                t->dup_key = j->fields[i].name.ptr;
            }
            j->fields[i].seen = visit;
            return j->fields[i].type;
        }
    }
    if (j->n_fields == j->cap_fields) {
        int32_t cap = j->cap_fields == 0 ? 8 : 2 * j->cap_fields;
        jfield *grown = dl_arena_alloc_array(&t->arena, (size_t)cap, sizeof(jfield));
        if (grown == NULL) {
            return NULL;
        }
        if (j->n_fields > 0) {
            memcpy(grown, j->fields, (size_t)j->n_fields * sizeof(jfield));
        }
        j->fields = grown;
        j->cap_fields = cap;
    }
    char *copy = dl_arena_strndup(&t->arena, name.ptr, name.len);
    jtype *ft = new_jtype(t, J_NULL);
    if (copy == NULL || ft == NULL) {
        return NULL;
    }
    j->fields[j->n_fields++] =
        (jfield){.name = dl_str_make(copy, name.len), .type = ft, .seen = visit};
    j->hint = j->n_fields;
    return ft;
}

static dl_status infer_value(infer_task *t, const parser *p, jtype *j, dl_json_val v,
                             dl_error *err);

static dl_status
infer_object(infer_task *t, const parser *p, jtype *j, dl_json_val v, dl_error *err) {
    if (j->k == J_NULL) {
        j->k = J_STRUCT;
    }
    if (j->k != J_STRUCT) {
        make_string(j);
        return DL_OK;
    }
    dl_json_iter it = dl_json_val_iter(v);
    dl_str key;
    dl_json_val m;
    uint64_t visit = ++t->visit;
    while (dl_json_iter_next(&it, &key, &m)) {
        jtype *f = struct_field(t, j, key, visit);
        DL_CHECK(f != NULL, err, DL_ERR_NOMEM, "out of memory inferring a JSON schema");
        DL_TRY(infer_value(t, p, f, m, err));
    }
    return DL_OK;
}

static dl_status
infer_array(infer_task *t, const parser *p, jtype *j, dl_json_val v, dl_error *err) {
    if (j->k == J_NULL) {
        j->k = J_ARRAY;
        j->elem = new_jtype(t, J_NULL);
        DL_CHECK(j->elem != NULL, err, DL_ERR_NOMEM, "out of memory inferring a JSON schema");
    }
    if (j->k != J_ARRAY) {
        make_string(j);
        return DL_OK;
    }
    dl_json_iter it = dl_json_val_iter(v);
    dl_json_val e;
    while (dl_json_iter_next(&it, NULL, &e)) {
        DL_TRY(infer_value(t, p, j->elem, e, err));
    }
    return DL_OK;
}

static dl_status
infer_value(infer_task *t, const parser *p, jtype *j, dl_json_val v, dl_error *err) {
    if (j->k == J_STRING) {
        return DL_OK;
    }
    switch (dl_json_val_type(v)) {
    case DL_JSON_OBJECT:
        return infer_object(t, p, j, v, err);
    case DL_JSON_ARRAY:
        return infer_array(t, p, j, v, err);
    case DL_JSON_NULL:
        return DL_OK;
    default:
        break;
    }
    jtype k = scalar_kind(t, p, v);
    if (j->k == J_STRUCT || j->k == J_ARRAY) {
        if (k.k != J_NULL) {
            make_string(j);
        }
        return DL_OK;
    }
    widen_scalar(j, &k);
    return DL_OK;
}

static dl_status
infer_chunk(void *arg, dl_error *err) {
    infer_task *t = arg;
    parser p;
    parser_init(&p, t->r, t->chunk);
    dl_status s = DL_OK;
    for (;;) {
        bool has = false;
        s = next_record(&p, &has, err);
        if (s != DL_OK || !has) {
            break;
        }
        dl_json_val root = dl_json_doc_root(&p.doc);
        if (p.is_parsed && dl_json_val_type(root) == DL_JSON_NULL) {
            continue;
        }
        if (!p.is_parsed || !is_row_record(root)) {
            if (t->r->o.mode == DL_FMT_FAILFAST) {
                s = malformed(&p, NULL, p.is_parsed ? root_problem(root) : p.why.msg, err);
                break;
            }
            t->has_corrupt |= t->r->o.mode == DL_FMT_PERMISSIVE;
            continue;
        }
        t->root.k = J_STRUCT;
        if (dl_json_val_type(root) == DL_JSON_OBJECT) {
            s = infer_object(t, &p, &t->root, root, err);
        } else {
            dl_json_iter it = dl_json_val_iter(root);
            dl_json_val e;
            while (s == DL_OK && dl_json_iter_next(&it, NULL, &e)) {
                s = infer_object(t, &p, &t->root, e, err);
            }
        }
        if (s != DL_OK) {
            break;
        }
    }
    parser_destroy(&p);
    return s;
}

static dl_status merge(infer_task *t, jtype *a, const jtype *b, dl_error *err);

/* Merges struct b's fields into struct a's. */
static dl_status
merge_fields(infer_task *t, jtype *a, const jtype *b, dl_error *err) {
    for (int32_t i = 0; i < b->n_fields; i++) {
        jtype *f = struct_field(t, a, b->fields[i].name, 0);
        DL_CHECK(f != NULL, err, DL_ERR_NOMEM, "out of memory inferring a JSON schema");
        DL_TRY(merge(t, f, b->fields[i].type, err));
    }
    return DL_OK;
}

/* Merges b into a (b's nodes may be shared: the task arenas live until the end). */
static dl_status
merge(infer_task *t, jtype *a, const jtype *b, dl_error *err) {
    if (b->k == J_NULL || a->k == J_STRING) {
        return DL_OK;
    }
    if (a->k == J_NULL) {
        *a = *b;
        return DL_OK;
    }
    if (a->k == J_STRUCT && b->k == J_STRUCT) {
        return merge_fields(t, a, b, err);
    }
    if (a->k == J_ARRAY && b->k == J_ARRAY) {
        return merge(t, a->elem, b->elem, err);
    }
    if (a->k == J_STRUCT || a->k == J_ARRAY || b->k == J_STRUCT || b->k == J_ARRAY) {
        make_string(a);
        return DL_OK;
    }
    widen_scalar(a, b);
    return DL_OK;
}

static int
field_order(const void *x, const void *y) {
    const dl_type_field *a = x;
    const dl_type_field *b = y;
    return strcmp(a->name, b->name);
}

static dl_status
prim(dl_type_id id, const dl_type **out) {
    *out = dl_vec_type_prim(id);
    return DL_OK;
}

/* Two fields whose names differ only in case: Spark's COLUMN_ALREADY_EXISTS. */
static dl_status
check_names_unique(const dl_type_field *fields, int32_t n, dl_error *err) {
    for (int32_t i = 0; i < n; i++) {
        for (int32_t k = i + 1; k < n; k++) {
            if (strcasecmp(fields[i].name, fields[k].name) == 0) {
                return dl_error_set(err, DL_ERR_INVALID_ARG,
                                    "[COLUMN_ALREADY_EXISTS] the column `%s` already exists (the "
                                    "records have both `%s` and `%s`: names are compared "
                                    "ignoring case)",
                                    fields[k].name, fields[i].name, fields[k].name);
            }
        }
    }
    return DL_OK;
}

/* The dl_type of j, or NULL (*out) when Spark drops it (an empty struct, an all-null field
 * with dropFieldIfAllNull). */
static dl_status
to_type(const dl_fmt_json_options *o, const jtype *j, dl_arena *arena, const dl_type **out,
        dl_error *err) {
    *out = NULL;
    switch (j->k) {
    case J_NULL:
        return o->is_drop_all_null ? DL_OK : prim(DL_VEC_TYPE_STRING, out);
    case J_BOOL:
        return prim(DL_VEC_TYPE_BOOLEAN, out);
    case J_LONG:
        return prim(DL_VEC_TYPE_LONG, out);
    case J_DOUBLE:
        return prim(DL_VEC_TYPE_DOUBLE, out);
    case J_DECIMAL:
        return dl_vec_type_decimal(arena, j->precision, j->scale, out, err);
    case J_STRING:
        return prim(DL_VEC_TYPE_STRING, out);
    case J_ARRAY: {
        const dl_type *e = NULL;
        DL_TRY(to_type(o, j->elem, arena, &e, err));
        return e == NULL ? DL_OK : dl_vec_type_array(arena, e, true, out, err);
    }
    case J_STRUCT:
        break;
    }
    dl_type_field *fields =
        dl_arena_alloc_zero(arena, (size_t)(j->n_fields + 1) * sizeof(dl_type_field));
    DL_CHECK(fields != NULL, err, DL_ERR_NOMEM, "out of memory inferring a JSON schema");
    int32_t n = 0;
    for (int32_t i = 0; i < j->n_fields; i++) {
        const dl_type *ft = NULL;
        DL_TRY(to_type(o, j->fields[i].type, arena, &ft, err));
        if (ft == NULL || j->fields[i].name.len == 0) {
            continue;
        }
        fields[n].name = dl_arena_strndup(arena, j->fields[i].name.ptr, j->fields[i].name.len);
        DL_CHECK(fields[n].name != NULL, err, DL_ERR_NOMEM, "out of memory");
        fields[n].type = ft;
        fields[n].is_nullable = true;
        n++;
    }
    if (n == 0) {
        return DL_OK;
    }
    qsort(fields, (size_t)n, sizeof(dl_type_field), field_order);
    DL_TRY(check_names_unique(fields, n, err));
    return dl_vec_type_struct(arena, fields, n, out, err);
}

static dl_status
finish_schema(dl_fmt_json *r, infer_task *tasks, dl_arena *arena, const dl_type **out,
              dl_error *err) {
    infer_task *t0 = &tasks[0];
    bool has_corrupt = false;
    for (int32_t i = 0; i < r->in.n_chunks; i++) {
        if (i > 0) {
            DL_TRY(merge(t0, &t0->root, &tasks[i].root, err));
        }
        has_corrupt |= tasks[i].has_corrupt;
        DL_CHECK(tasks[i].dup_key == NULL, err, DL_ERR_INVALID_ARG,
                 "[COLUMN_ALREADY_EXISTS] the column `%s` already exists: a record of '%s' has "
                 "the key twice",
                 tasks[i].dup_key, r->in.files[tasks[i].chunk->file].name);
        DL_CHECK(!tasks[i].is_negative_scale, err, DL_ERR_INVALID_ARG,
                 "[NEGATIVE_SCALE_DISALLOWED] prefersDecimal inferred a decimal with a negative "
                 "scale from a number with an exponent (like 1e10) in '%s'",
                 r->in.files[tasks[i].chunk->file].name);
    }
    if (has_corrupt) {
        t0->root.k = J_STRUCT;
        jtype *f = struct_field(t0, &t0->root, dl_str_from_cstr(r->o.corrupt_column), 0);
        DL_CHECK(f != NULL, err, DL_ERR_NOMEM, "out of memory inferring a JSON schema");
        make_string(f);
    }
    t0->root.k = J_STRUCT;
    DL_TRY(to_type(&r->o, &t0->root, arena, out, err));
    return *out != NULL ? DL_OK : dl_vec_type_struct(arena, NULL, 0, out, err);
}

dl_status
dl_fmt_json_infer(dl_fmt_json *r, dl_arena *arena, const dl_type **out, dl_error *err) {
    infer_task *tasks =
        dl_mem_alloc_array(r->alloc, (size_t)r->in.n_chunks + 1, sizeof(infer_task));
    DL_CHECK(tasks != NULL, err, DL_ERR_NOMEM, "out of memory inferring a JSON schema");
    for (int32_t i = 0; i < r->in.n_chunks; i++) {
        tasks[i] = (infer_task){.r = r, .chunk = &r->in.chunks[i]};
        dl_arena_init(&tasks[i].arena, r->alloc, 0);
    }
    dl_status s =
        r->in.n_chunks == 0 ? DL_OK : run_tasks(r, infer_chunk, tasks, sizeof(infer_task), err);
    if (s == DL_OK && r->in.n_chunks > 0) {
        s = finish_schema(r, tasks, arena, out, err);
    } else if (s == DL_OK) {
        s = dl_vec_type_struct(arena, NULL, 0, out, err);
    }
    for (int32_t i = 0; i < r->in.n_chunks; i++) {
        dl_arena_destroy(&tasks[i].arena);
    }
    dl_mem_free(r->alloc, tasks, ((size_t)r->in.n_chunks + 1) * sizeof(infer_task));
    return s;
}

/* ---- converting ----------------------------------------------------------------------------- */

typedef struct read_task {
    const dl_fmt_json *r;
    const dl_fmt_chunk *chunk;
    const dl_type *schema;
    int32_t corrupt;     /* the corrupt-record column, or -1 */
    dl_vec_buffer *heap; /* the chunk's bytes as a string heap, or NULL (copy instead) */
    dl_fmt_batches batches;
    parser p;
    dl_batch *batch;
    int64_t n_rows;
    uint8_t bad[DL_BATCH_CAPACITY];
    dl_buf slots;          /* dl_json_val per field of the structs being converted */
    const char *bad_field; /* the record's first field that did not convert */
    const dl_type *bad_type;
} read_task;

/* Appends row values to vec, or only checks that they convert when vec is NULL (an array's
 * elements are checked first: one that does not convert makes the whole array NULL). */
static dl_status convert_value(read_task *rt, dl_vector *vec, const dl_type *type, dl_json_val v,
                               bool *ok, dl_error *err);

static dl_status
emit_null(dl_vector *vec, dl_error *err) {
    return vec == NULL ? DL_OK : dl_vec_append_null(vec, err);
}

static int32_t
heap_index(read_task *rt, dl_vector *vec, dl_error *err, dl_status *s) {
    for (int32_t i = 0; i < vec->n_heaps; i++) {
        if (vec->heaps[i] == rt->heap) {
            return i;
        }
    }
    int32_t idx = -1;
    *s = dl_vec_add_heap(vec, rt->heap, &idx, err);
    return idx;
}

/* A string value: a view into the chunk's bytes when it lies there, else a copy. */
static dl_status
emit_str(read_task *rt, dl_vector *vec, dl_str v, dl_error *err) {
    if (vec == NULL) {
        return DL_OK;
    }
    const char *h = rt->heap != NULL ? (const char *)rt->heap->data : NULL;
    if (h != NULL && v.len > DL_VEC_VIEW_INLINE && v.ptr >= h &&
        v.ptr + v.len <= h + rt->heap->size) {
        dl_status s = DL_OK;
        int32_t idx = heap_index(rt, vec, err, &s);
        DL_TRY(s);
        return dl_vec_append_str_ref(vec, idx, (int64_t)(v.ptr - h), (int64_t)v.len, err);
    }
    return dl_vec_append_str(vec, v.ptr, v.len, err);
}

static bool
is_integer(dl_json_val v, int64_t min, int64_t max, int64_t *out) {
    if (dl_json_val_type(v) != DL_JSON_NUMBER || dl_json_val_num_kind(v) != DL_JSON_NUM_INT64) {
        return false;
    }
    int64_t i = 0;
    dl_error ignored;
    if (dl_json_val_get_int64(v, &i, &ignored) != DL_OK || i < min || i > max) {
        return false;
    }
    *out = i;
    return true;
}

/* A floating value: any number, or a string naming NaN or an infinity (Spark's JacksonParser). */
static bool
floating(const read_task *rt, dl_json_val v, double *out) {
    dl_error ignored;
    if (dl_json_val_type(v) == DL_JSON_NUMBER) {
        return special_of(&rt->p, v, out) || dl_json_val_get_double(v, out, &ignored) == DL_OK;
    }
    if (dl_json_val_type(v) != DL_JSON_STRING) {
        return false;
    }
    dl_str s = dl_json_val_str(v);
    static const char *const nan[] = {"NaN", "+NaN", "-NaN", NULL};
    static const char *const pos[] = {"Infinity", "+Infinity", "+INF", "INF", NULL};
    static const char *const neg[] = {"-Infinity", "-INF", NULL};
    for (int i = 0; nan[i] != NULL; i++) {
        if (dl_str_eq(s, dl_str_from_cstr(nan[i]))) {
            *out = (double)NAN;
            return true;
        }
    }
    for (int i = 0; pos[i] != NULL; i++) {
        if (dl_str_eq(s, dl_str_from_cstr(pos[i]))) {
            *out = (double)INFINITY;
            return true;
        }
    }
    for (int i = 0; neg[i] != NULL; i++) {
        if (dl_str_eq(s, dl_str_from_cstr(neg[i]))) {
            *out = -(double)INFINITY;
            return true;
        }
    }
    return false;
}

/* A decimal from a number's text or a string (Spark's US decimal parser drops ','). */
static bool
decimal_value(const read_task *rt, dl_json_val v, const dl_type *type, dl_i128 *out) {
    double d = 0;
    if (dl_json_val_type(v) == DL_JSON_NUMBER && !special_of(&rt->p, v, &d)) {
        dl_str raw = dl_json_val_raw(v);
        return dl_fmt_parse_decimal(raw.ptr, raw.len, type->precision, type->scale, out);
    }
    if (dl_json_val_type(v) != DL_JSON_STRING) {
        return false;
    }
    dl_str s = dl_json_val_str(v);
    char buf[128];
    size_t n = 0;
    for (size_t i = 0; i < s.len; i++) {
        if (s.ptr[i] != ',') {
            if (n == sizeof(buf)) {
                return false;
            }
            buf[n++] = s.ptr[i];
        }
    }
    return dl_fmt_parse_decimal(buf, n, type->precision, type->scale, out);
}

static bool
time_value(const read_task *rt, dl_json_val v, dl_type_id id, int64_t *out) {
    const dl_fmt_json_options *o = &rt->r->o;
    int64_t secs = 0;
    if (id == DL_VEC_TYPE_TIMESTAMP &&
        is_integer(v, INT64_MIN / 1000000, INT64_MAX / 1000000, &secs)) {
        *out = secs * 1000000;
        return true;
    }
    if (dl_json_val_type(v) != DL_JSON_STRING) {
        return false;
    }
    dl_fmt_time_fn fn = id == DL_VEC_TYPE_DATE        ? o->parse_date
                        : id == DL_VEC_TYPE_TIMESTAMP ? o->parse_ts
                                                      : o->parse_ts_ntz;
    dl_error ignored;
    return fn != NULL && fn(o->time_ctx, dl_json_val_str(v), out, &ignored) == DL_OK &&
           (id != DL_VEC_TYPE_DATE || (*out >= INT32_MIN && *out <= INT32_MAX));
}

/* A scalar value; *ok false (and NULL emitted) when it does not convert. */
static dl_status
convert_scalar(read_task *rt, dl_vector *vec, const dl_type *type, dl_json_val v, bool *ok,
               dl_error *err) {
    int64_t i = 0;
    double d = 0;
    dl_i128 dec = 0;
    dl_json_type jt = dl_json_val_type(v);
    switch (type->id) {
    case DL_VEC_TYPE_STRING:
        return emit_str(rt, vec, jt == DL_JSON_STRING ? dl_json_val_str(v) : dl_json_val_raw(v),
                        err);
    case DL_VEC_TYPE_BOOLEAN:
        *ok = jt == DL_JSON_BOOL;
        if (*ok && vec != NULL) {
            bool b = false;
            DL_TRY(dl_json_val_get_bool(v, &b, err));
            return dl_vec_append_bool(vec, b, err);
        }
        break;
    case DL_VEC_TYPE_BYTE:
        *ok = is_integer(v, INT8_MIN, UINT8_MAX, &i); /* Jackson's getByteValue */
        return *ok && vec != NULL ? dl_vec_append_i8(vec, (int8_t)(uint8_t)i, err)
                                  : emit_null(vec, err);
    case DL_VEC_TYPE_SHORT:
        *ok = is_integer(v, INT16_MIN, INT16_MAX, &i);
        return *ok && vec != NULL ? dl_vec_append_i16(vec, (int16_t)i, err) : emit_null(vec, err);
    case DL_VEC_TYPE_INT:
        *ok = is_integer(v, INT32_MIN, INT32_MAX, &i);
        return *ok && vec != NULL ? dl_vec_append_i32(vec, (int32_t)i, err) : emit_null(vec, err);
    case DL_VEC_TYPE_LONG:
        *ok = is_integer(v, INT64_MIN, INT64_MAX, &i);
        return *ok && vec != NULL ? dl_vec_append_i64(vec, i, err) : emit_null(vec, err);
    case DL_VEC_TYPE_FLOAT:
        *ok = floating(rt, v, &d);
        return *ok && vec != NULL ? dl_vec_append_f32(vec, (float)d, err) : emit_null(vec, err);
    case DL_VEC_TYPE_DOUBLE:
        *ok = floating(rt, v, &d);
        return *ok && vec != NULL ? dl_vec_append_f64(vec, d, err) : emit_null(vec, err);
    case DL_VEC_TYPE_DECIMAL:
        *ok = decimal_value(rt, v, type, &dec);
        return *ok && vec != NULL ? dl_vec_append_i128(vec, dec, err) : emit_null(vec, err);
    case DL_VEC_TYPE_DATE:
        *ok = time_value(rt, v, type->id, &i);
        return *ok && vec != NULL ? dl_vec_append_i32(vec, (int32_t)i, err) : emit_null(vec, err);
    case DL_VEC_TYPE_TIMESTAMP:
    case DL_VEC_TYPE_TIMESTAMP_NTZ:
        *ok = time_value(rt, v, type->id, &i);
        return *ok && vec != NULL ? dl_vec_append_i64(vec, i, err) : emit_null(vec, err);
    default:
        DL_FAIL(err, DL_ERR_INVALID_ARG, "JSON cannot fill a column of type %s",
                dl_vec_type_name(type->id));
    }
    return emit_null(vec, err);
}

/* The schema field named key, looked for from *hint on. */
static int32_t
find_field(const dl_type *type, dl_str key, int32_t *hint) {
    for (int32_t n = 0; n < type->n_fields; n++) {
        int32_t i = (*hint + n) % type->n_fields;
        const char *name = type->fields[i].name;
        if (strncmp(name, key.ptr, key.len) == 0 && name[key.len] == 0 &&
            memchr(key.ptr, 0, key.len) == NULL) {
            *hint = i + 1;
            return i;
        }
    }
    return -1;
}

/* Maps obj's members to the fields of type, in slots[base, base + n_fields) (the last member
 * of a repeated key wins, as Spark's row.update). */
static dl_status
map_members(read_task *rt, const dl_type *type, dl_json_val obj, size_t *out_base, dl_error *err) {
    size_t base = rt->slots.len;
    size_t bytes = (size_t)type->n_fields * sizeof(dl_json_val);
    if (bytes > 0) {
        uint8_t *dst = dl_buf_extend(&rt->slots, bytes, err);
        DL_CHECK(dst != NULL, err, DL_ERR_NOMEM, "out of memory reading JSON");
        memset(dst, 0, bytes);
    }
    dl_json_iter it = dl_json_val_iter(obj);
    dl_str key;
    dl_json_val m;
    int32_t hint = 0;
    while (dl_json_iter_next(&it, &key, &m)) {
        int32_t f = find_field(type, key, &hint);
        if (f >= 0) {
            memcpy(rt->slots.data + base + (size_t)f * sizeof(dl_json_val), &m, sizeof(m));
        }
    }
    *out_base = base;
    return DL_OK;
}

static dl_json_val
slot_at(const read_task *rt, size_t base, int32_t i) {
    dl_json_val v;
    memcpy(&v, rt->slots.data + base + (size_t)i * sizeof(v), sizeof(v));
    return v;
}

/* A field that did not convert: the record is malformed (the first such field named). */
static void
note_bad(read_task *rt, const dl_type_field *f, bool *ok) {
    if (rt->bad_field == NULL) {
        rt->bad_field = f->name;
        rt->bad_type = f->type;
    }
    *ok = false;
}

static dl_status
convert_struct(read_task *rt, dl_vector *vec, const dl_type *type, dl_json_val v, bool *ok,
               dl_error *err) {
    size_t base = 0;
    DL_TRY(map_members(rt, type, v, &base, err));
    for (int32_t i = 0; i < type->n_fields; i++) {
        bool field_ok = true;
        DL_TRY(convert_value(rt, vec != NULL ? vec->children[i] : NULL, type->fields[i].type,
                             slot_at(rt, base, i), &field_ok, err));
        if (!field_ok) {
            note_bad(rt, &type->fields[i], ok);
        }
    }
    rt->slots.len = base;
    return vec == NULL ? DL_OK : dl_vec_append_struct(vec, err);
}

static dl_status
convert_array(read_task *rt, dl_vector *vec, const dl_type *type, dl_json_val v, bool *ok,
              dl_error *err) {
    dl_json_iter it = dl_json_val_iter(v);
    dl_json_val e;
    while (*ok && dl_json_iter_next(&it, NULL, &e)) {
        DL_TRY(convert_value(rt, NULL, type->element, e, ok, err));
    }
    if (!*ok || vec == NULL) {
        return emit_null(vec, err);
    }
    it = dl_json_val_iter(v);
    while (dl_json_iter_next(&it, NULL, &e)) {
        DL_TRY(convert_value(rt, vec->children[0], type->element, e, ok, err));
    }
    return dl_vec_append_list(vec, err);
}

static dl_status
convert_value(read_task *rt, dl_vector *vec, const dl_type *type, dl_json_val v, bool *ok,
              dl_error *err) {
    *ok = true;
    dl_json_type jt = dl_json_val_type(v);
    if (jt == DL_JSON_MISSING || jt == DL_JSON_NULL) {
        return emit_null(vec, err);
    }
    if (type->id == DL_VEC_TYPE_STRUCT) {
        if (jt == DL_JSON_OBJECT) {
            return convert_struct(rt, vec, type, v, ok, err);
        }
        *ok = false;
        return emit_null(vec, err);
    }
    if (type->id == DL_VEC_TYPE_ARRAY) {
        if (jt == DL_JSON_ARRAY) {
            return convert_array(rt, vec, type, v, ok, err);
        }
        *ok = false;
        return emit_null(vec, err);
    }
    return convert_scalar(rt, vec, type, v, ok, err);
}

/* ---- rows ----------------------------------------------------------------------------------- */

/* Ends the batch being filled (kept unless empty). */
static dl_status
flush(read_task *rt, dl_error *err) {
    dl_batch *batch = rt->batch;
    if (batch == NULL) {
        return DL_OK;
    }
    rt->batch = NULL;
    dl_vec_batch_set_count(batch, rt->n_rows);
    dl_status s = DL_OK;
    if (rt->r->o.mode == DL_FMT_DROPMALFORMED) {
        s = dl_fmt_drop_rows(batch, rt->bad, rt->n_rows, err);
    }
    rt->n_rows = 0;
    if (s != DL_OK || batch->count == 0) {
        dl_vec_batch_free(batch);
        return s;
    }
    return dl_fmt_batches_keep(&rt->batches, rt->r->alloc, batch, err);
}

static dl_status
begin_row(read_task *rt, dl_error *err) {
    if (rt->batch == NULL) {
        DL_TRY(dl_vec_batch_new(rt->r->alloc, rt->schema, DL_BATCH_CAPACITY, &rt->batch, err));
    }
    rt->bad_field = NULL;
    rt->bad_type = NULL;
    return DL_OK;
}

/* Ends a row: the corrupt-record column, FAILFAST's error, the batch when full. */
static dl_status
end_row(read_task *rt, bool is_bad, const char *why, dl_error *err) {
    if (is_bad && rt->r->o.mode == DL_FMT_FAILFAST) {
        char text[160];
        if (why == NULL) {
            (void)snprintf(text, sizeof(text), "cannot read the value as %s",
                           rt->bad_type != NULL ? dl_vec_type_name(rt->bad_type->id) : "?");
        }
        return malformed(&rt->p, rt->bad_field, why != NULL ? why : text, err);
    }
    if (rt->corrupt >= 0) {
        dl_vector *vec = rt->batch->cols[rt->corrupt];
        dl_str line = dl_str_make(rt->p.base + rt->p.start, rt->p.end - rt->p.start);
        DL_TRY(is_bad ? emit_str(rt, vec, line, err) : dl_vec_append_null(vec, err));
    }
    rt->bad[rt->n_rows++] = is_bad;
    return rt->n_rows == DL_BATCH_CAPACITY ? flush(rt, err) : DL_OK;
}

static dl_status
bad_record(read_task *rt, const char *why, dl_error *err) {
    DL_TRY(begin_row(rt, err));
    for (int32_t c = 0; c < rt->schema->n_fields; c++) {
        if (c != rt->corrupt) {
            DL_TRY(dl_vec_append_null(rt->batch->cols[c], err));
        }
    }
    return end_row(rt, true, why, err);
}

static dl_status
convert_row(read_task *rt, dl_json_val obj, dl_error *err) {
    DL_TRY(begin_row(rt, err));
    const dl_type *schema = rt->schema;
    size_t base = 0;
    DL_TRY(map_members(rt, schema, obj, &base, err));
    bool is_ok = true;
    for (int32_t c = 0; c < schema->n_fields; c++) {
        if (c == rt->corrupt) {
            continue;
        }
        bool ok = true;
        DL_TRY(convert_value(rt, rt->batch->cols[c], schema->fields[c].type, slot_at(rt, base, c),
                             &ok, err));
        if (!ok) {
            note_bad(rt, &schema->fields[c], &is_ok);
        }
    }
    rt->slots.len = base;
    return end_row(rt, !is_ok, NULL, err);
}

static dl_status
convert_record(read_task *rt, dl_error *err) {
    dl_json_val root = dl_json_doc_root(&rt->p.doc);
    if (!rt->p.is_parsed) {
        return bad_record(rt, rt->p.why.msg, err);
    }
    if (!is_row_record(root)) {
        return bad_record(rt, root_problem(root), err);
    }
    if (dl_json_val_type(root) == DL_JSON_OBJECT) {
        return convert_row(rt, root, err);
    }
    dl_json_iter it = dl_json_val_iter(root);
    dl_json_val e;
    while (dl_json_iter_next(&it, NULL, &e)) {
        DL_TRY(convert_row(rt, e, err));
    }
    return DL_OK;
}

static dl_status
read_chunk(void *arg, dl_error *err) {
    read_task *rt = arg;
    const dl_fmt_json *r = rt->r;
    const dl_fmt_chunk *c = rt->chunk;
    DL_TRY(dl_fmt_chunk_heap(r->alloc, &r->in, c, &rt->heap, err));
    parser_init(&rt->p, r, c);
    dl_buf_init(&rt->slots, r->alloc);
    dl_status s = DL_OK;
    for (;;) {
        bool has = false;
        s = next_record(&rt->p, &has, err);
        if (s != DL_OK || !has) {
            break;
        }
        s = convert_record(rt, err);
        if (s != DL_OK) {
            break;
        }
    }
    if (s == DL_OK) {
        s = flush(rt, err);
    }
    dl_vec_batch_free(rt->batch);
    rt->batch = NULL;
    dl_buf_destroy(&rt->slots);
    parser_destroy(&rt->p);
    return s;
}

static dl_status
check_type(const dl_type *t, const char *name, dl_error *err) {
    switch (t->id) {
    case DL_VEC_TYPE_STRUCT:
        for (int32_t i = 0; i < t->n_fields; i++) {
            DL_TRY(check_type(t->fields[i].type, t->fields[i].name, err));
        }
        return DL_OK;
    case DL_VEC_TYPE_ARRAY:
        return check_type(t->element, name, err);
    case DL_VEC_TYPE_BOOLEAN:
    case DL_VEC_TYPE_BYTE:
    case DL_VEC_TYPE_SHORT:
    case DL_VEC_TYPE_INT:
    case DL_VEC_TYPE_LONG:
    case DL_VEC_TYPE_FLOAT:
    case DL_VEC_TYPE_DOUBLE:
    case DL_VEC_TYPE_DECIMAL:
    case DL_VEC_TYPE_STRING:
    case DL_VEC_TYPE_DATE:
    case DL_VEC_TYPE_TIMESTAMP:
    case DL_VEC_TYPE_TIMESTAMP_NTZ:
        return DL_OK;
    default:
        DL_FAIL(err, DL_ERR_UNSUPPORTED,
                "[UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE] the JSON reader does not support the "
                "column '%s' of the type %s (BINARY and MAP columns are not read from JSON yet)",
                name, dl_vec_type_name(t->id));
    }
}

dl_status
dl_fmt_json_check_schema(const dl_fmt_json_options *o, const dl_type *schema, dl_error *err) {
    for (int32_t i = 0; i < schema->n_fields; i++) {
        const dl_type_field *f = &schema->fields[i];
        bool is_corrupt = o->corrupt_column != NULL && strcmp(f->name, o->corrupt_column) == 0;
        DL_CHECK(!is_corrupt || f->type->id == DL_VEC_TYPE_STRING, err, DL_ERR_INVALID_ARG,
                 "[INVALID_CORRUPT_RECORD_TYPE] the column '%s' for corrupt records must be a "
                 "nullable STRING, not %s",
                 f->name, dl_vec_type_name(f->type->id));
        if (!is_corrupt) {
            DL_TRY(check_type(f->type, f->name, err));
        }
    }
    return DL_OK;
}

dl_status
dl_fmt_json_read(dl_fmt_json *r, const dl_type *schema, dl_fmt_push_fn push, void *push_ctx,
                 dl_error *err) {
    DL_TRY(dl_fmt_json_check_schema(&r->o, schema, err));
    int32_t corrupt = -1;
    for (int32_t i = 0; i < schema->n_fields; i++) {
        if (r->o.corrupt_column != NULL &&
            strcmp(schema->fields[i].name, r->o.corrupt_column) == 0) {
            corrupt = i;
        }
    }
    if (r->in.n_chunks == 0) {
        return DL_OK;
    }
    read_task *tasks = dl_mem_alloc_array(r->alloc, (size_t)r->in.n_chunks, sizeof(read_task));
    DL_CHECK(tasks != NULL, err, DL_ERR_NOMEM, "out of memory reading JSON");
    for (int32_t i = 0; i < r->in.n_chunks; i++) {
        memset(&tasks[i], 0, sizeof(read_task));
        tasks[i].r = r;
        tasks[i].chunk = &r->in.chunks[i];
        tasks[i].schema = schema;
        tasks[i].corrupt = corrupt;
    }
    dl_status s = run_tasks(r, read_chunk, tasks, sizeof(read_task), err);
    for (int32_t i = 0; i < r->in.n_chunks; i++) {
        s = dl_fmt_batches_push(&tasks[i].batches, r->alloc, s, push, push_ctx, err);
        dl_vec_buffer_unref(tasks[i].heap);
    }
    dl_mem_free(r->alloc, tasks, (size_t)r->in.n_chunks * sizeof(read_task));
    return s;
}
