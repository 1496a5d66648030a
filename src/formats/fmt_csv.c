/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The CSV reader (formats.h has the grammar and the modes).
 *
 * Work is split into chunks: a whole file with multi_line, else pieces of a file that start
 * after a line break, so that each is read by its own task (records never cross a line break
 * then, as Spark splits such files). A chunk is read twice when the types are inferred:
 * once to infer (every value, as Spark's samplingRatio 1.0), once to convert. Converting
 * tokenizes up to DL_BATCH_CAPACITY records, then fills each column's vector from its fields;
 * a string field without escapes becomes a view into the file's bytes (no copy).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "formats/fmt_int.h"

struct dl_fmt_csv {
    const dl_allocator *alloc;
    dl_fmt_csv_options o;
    dl_arena arena;
    dl_fmt_input in; /* the files and their chunks */
};

/* ---- tokenizing ----------------------------------------------------------------------------- */

#define F_QUOTED  1u /* the field was quoted */
#define F_ESCAPED 2u /* its bytes hold escapes to undo */

typedef struct field {
    size_t off; /* bytes of the file's buffer */
    uint32_t len;
    uint32_t flags;
} field;

typedef struct record {
    size_t start, end; /* the line, without its line break */
    int64_t first;     /* its fields: fields[first .. first + n) */
    int32_t n;
    bool is_bad_quote; /* a quote opened and not closed, or text after a closing quote */
} record;

typedef struct tokenizer {
    const dl_fmt_csv_options *o;
    const char *base; /* the file's bytes */
    size_t pos, end;
    bool skip_header; /* the next record is the file's header */
    field *fields;    /* the current batch's fields */
    int64_t n_fields;
    int64_t cap_fields;
    const dl_allocator *alloc;
} tokenizer;

static dl_status
push_field(tokenizer *t, size_t off, size_t len, uint32_t flags, dl_error *err) {
    if (t->n_fields == t->cap_fields) {
        int64_t cap = t->cap_fields == 0 ? 4096 : 2 * t->cap_fields;
        field *grown = dl_mem_realloc(t->alloc, t->fields, (size_t)t->cap_fields * sizeof(field),
                                      (size_t)cap * sizeof(field));
        DL_CHECK(grown != NULL, err, DL_ERR_NOMEM, "out of memory reading CSV");
        t->fields = grown;
        t->cap_fields = cap;
    }
    DL_CHECK(len <= INT32_MAX, err, DL_ERR_LIMIT, "a CSV field longer than 2 GiB");
    t->fields[t->n_fields++] = (field){.off = off, .len = (uint32_t)len, .flags = flags};
    return DL_OK;
}

static bool
is_ws(char c) {
    return c == ' ' || c == '\t';
}

/* A quoted field from just after its opening quote; *p ends after the closing quote. */
static void
scan_quoted(tokenizer *t, size_t *p, size_t *len, uint32_t *flags, bool *is_bad) {
    const char *s = t->base;
    char q = t->o->quote;
    char e = t->o->escape;
    size_t i = *p;
    size_t start = i;
    while (i < t->end) {
        char c = s[i];
        if (c == e && e != q && i + 1 < t->end && (s[i + 1] == q || s[i + 1] == e)) {
            *flags |= F_ESCAPED;
            i += 2;
        } else if (c == q) {
            if (i + 1 < t->end && s[i + 1] == q) {
                *flags |= F_ESCAPED;
                i += 2;
                continue;
            }
            *len = i - start;
            *p = i + 1;
            return;
        } else if (c == '\n' && !t->o->is_multi_line) {
            break;
        } else {
            i++;
        }
    }
    *is_bad = true; /* unclosed: the rest of the line (or file) is the field */
    size_t stop = i;
    if (stop > start && s[stop - 1] == '\r' && stop < t->end) {
        stop--;
    }
    *len = stop - start;
    *p = i;
}

/* One field at *p; *p ends at the separator or the line end after it. */
static dl_status
scan_field(tokenizer *t, size_t *p, bool *is_bad, dl_error *err) {
    const char *s = t->base;
    const dl_fmt_csv_options *o = t->o;
    size_t i = *p;
    if (o->ignore_leading_ws) {
        while (i < t->end && is_ws(s[i]) && s[i] != o->sep) {
            i++;
        }
    }
    if (o->quote != 0 && i < t->end && s[i] == o->quote) {
        size_t len = 0;
        uint32_t flags = F_QUOTED;
        size_t body = i + 1;
        i = body;
        scan_quoted(t, &i, &len, &flags, is_bad);
        while (i < t->end && o->ignore_trailing_ws && is_ws(s[i]) && s[i] != o->sep) {
            i++;
        }
        if (i < t->end && s[i] == '\r' && i + 1 < t->end && s[i + 1] == '\n') {
            i++;
        }
        if (i < t->end && s[i] != o->sep && s[i] != '\n') {
            *is_bad = true; /* text after the closing quote: skip to the separator */
            while (i < t->end && s[i] != o->sep && s[i] != '\n') {
                i++;
            }
        }
        *p = i;
        return push_field(t, body, len, flags, err);
    }
    size_t start = i;
    char sep = o->sep;
    while (i < t->end && s[i] != sep && s[i] != '\n') {
        i++;
    }
    size_t stop = i;
    if (stop > start && s[stop - 1] == '\r' && (stop == t->end || s[stop] == '\n')) {
        stop--;
    }
    if (o->ignore_trailing_ws) {
        while (stop > start && is_ws(s[stop - 1])) {
            stop--;
        }
    }
    *p = i;
    return push_field(t, start, stop - start, 0, err);
}

/* Whether the line at pos is skipped: blank (only bytes <= ' ', as Spark's line.trim.isEmpty
 * filter; with multi_line only an empty line, as univocity's skipEmptyLines) or a comment;
 * *next is after it. */
static bool
is_skipped_line(const tokenizer *t, size_t pos, size_t *next) {
    const char *s = t->base;
    size_t i = pos;
    if (t->o->is_multi_line) {
        i += i < t->end && s[i] == '\r' && i + 1 < t->end && s[i + 1] == '\n' ? 1 : 0;
    } else {
        while (i < t->end && (unsigned char)s[i] <= ' ' && s[i] != '\n' && s[i] != t->o->sep) {
            i++;
        }
    }
    if (i == t->end || s[i] == '\n') {
        *next = i < t->end ? i + 1 : i;
        return true;
    }
    if (t->o->comment != 0 && s[pos] == t->o->comment) {
        const char *nl = memchr(s + pos, '\n', t->end - pos);
        *next = nl == NULL ? t->end : (size_t)(nl - s) + 1;
        return true;
    }
    return false;
}

/* The fields of the record at *p; *p ends at its line break (or the chunk's end). */
static dl_status
scan_fields(tokenizer *t, record *r, size_t *p, dl_error *err) {
    for (;;) {
        DL_TRY(scan_field(t, p, &r->is_bad_quote, err));
        if (*p >= t->end || t->base[*p] != t->o->sep) {
            return DL_OK;
        }
        (*p)++;
        if (*p == t->end || t->base[*p] == '\n') {
            return push_field(t, *p, 0, 0, err); /* a separator ends the line */
        }
    }
}

/* The next record into r (its fields appended); *has is false at the end of the chunk. */
static dl_status
next_record(tokenizer *t, record *r, bool *has, dl_error *err) {
    for (;;) {
        size_t next = 0;
        while (t->pos < t->end && is_skipped_line(t, t->pos, &next)) {
            t->pos = next;
        }
        *has = t->pos < t->end;
        if (!*has) {
            return DL_OK;
        }
        *r = (record){.start = t->pos, .first = t->n_fields};
        size_t p = t->pos;
        DL_TRY(scan_fields(t, r, &p, err));
        r->end = p > r->start && t->base[p - 1] == '\r' ? p - 1 : p;
        r->n = (int32_t)(t->n_fields - r->first);
        t->pos = p < t->end ? p + 1 : p;
        if (!t->skip_header) {
            return DL_OK;
        }
        t->skip_header = false;
        t->n_fields = r->first; /* drop the header line */
    }
}

/* ---- values --------------------------------------------------------------------------------- */

/* A field's bytes with escapes undone (into scratch when needed). */
static dl_status
field_text(const tokenizer *t, const field *f, dl_buf *scratch, dl_str *out, dl_error *err) {
    const char *s = t->base + f->off;
    if (!(f->flags & F_ESCAPED)) {
        *out = dl_str_make(s, f->len);
        return DL_OK;
    }
    dl_buf_reset(scratch);
    char q = t->o->quote;
    char e = t->o->escape;
    for (uint32_t i = 0; i < f->len; i++) {
        bool is_pair =
            i + 1 < f->len && ((s[i] == e && e != q && (s[i + 1] == q || s[i + 1] == e)) ||
                               (s[i] == q && s[i + 1] == q));
        DL_TRY(dl_buf_append_byte(scratch, (uint8_t)s[is_pair ? i + 1 : i], err));
        i += is_pair ? 1u : 0u;
    }
    *out = dl_str_make((const char *)scratch->data, scratch->len);
    return DL_OK;
}

/* The value of a field (NULL when it equals null_value), as Spark's nullSafeDatum sees it. */
static dl_status
field_value(const tokenizer *t, const field *f, dl_buf *scratch, dl_str *out, bool *is_null,
            dl_error *err) {
    if (f->len == 0) {
        *out = (f->flags & F_QUOTED) ? t->o->empty_value : t->o->null_value;
    } else {
        DL_TRY(field_text(t, f, scratch, out, err));
    }
    *is_null = dl_str_eq(*out, t->o->null_value);
    return DL_OK;
}

/* ---- inference ------------------------------------------------------------------------------ */

typedef enum kind {
    K_NULL = 0,
    K_INT,
    K_LONG,
    K_DECIMAL,
    K_DOUBLE,
    K_DATE,
    K_TIMESTAMP,
    K_BOOLEAN,
    K_STRING,
} kind;

typedef struct col_kind {
    kind k;
    int precision; /* K_DECIMAL: digits (scale 0) */
} col_kind;

static bool
is_numeric(kind k) {
    return k == K_INT || k == K_LONG || k == K_DECIMAL || k == K_DOUBLE;
}

/* Spark's CSVInferSchema.compatibleType, with findWiderTypeForDecimal for decimal(p, 0). */
static col_kind
widen(col_kind a, col_kind b) {
    if (a.k == K_NULL) {
        return b;
    }
    if (b.k == K_NULL || (a.k == b.k && a.k != K_DECIMAL)) {
        return a;
    }
    if (is_numeric(a.k) && is_numeric(b.k)) {
        if (a.k == K_DOUBLE || b.k == K_DOUBLE) {
            return (col_kind){K_DOUBLE, 0};
        }
        if (a.k == K_DECIMAL || b.k == K_DECIMAL) {
            int pa = a.k == K_DECIMAL ? a.precision : (a.k == K_LONG ? 20 : 10);
            int pb = b.k == K_DECIMAL ? b.precision : (b.k == K_LONG ? 20 : 10);
            int p = DL_MAX(pa, pb);
            return p > DL_VEC_DECIMAL_MAX_PRECISION ? (col_kind){K_DOUBLE, 0}
                                                    : (col_kind){K_DECIMAL, p};
        }
        return (col_kind){K_LONG, 0};
    }
    if ((a.k == K_DATE && b.k == K_TIMESTAMP) || (a.k == K_TIMESTAMP && b.k == K_DATE)) {
        return (col_kind){K_TIMESTAMP, 0};
    }
    return (col_kind){K_STRING, 0};
}

static bool
has_time_part(dl_str v) {
    return memchr(v.ptr, ' ', v.len) != NULL || memchr(v.ptr, 'T', v.len) != NULL;
}

/* The narrowest kind that takes v (Spark's tryParseInteger ... tryParseBoolean chain). */
static col_kind
infer_value(const dl_fmt_csv_options *o, dl_str v) {
    int64_t i = 0;
    double d = 0;
    bool b = false;
    dl_error scratch;
    if (dl_fmt_parse_int(v.ptr, v.len, INT32_MIN, INT32_MAX, &i)) {
        return (col_kind){K_INT, 0};
    }
    if (dl_fmt_parse_int(v.ptr, v.len, INT64_MIN, INT64_MAX, &i)) {
        return (col_kind){K_LONG, 0};
    }
    int digits = dl_fmt_integer_digits(v.ptr, v.len);
    if (digits > 0 && digits <= DL_VEC_DECIMAL_MAX_PRECISION) {
        return (col_kind){K_DECIMAL, digits};
    }
    if (dl_fmt_parse_double(v.ptr, v.len, &d) || dl_str_eq(v, o->nan_value) ||
        dl_str_eq(v, o->pos_inf) || dl_str_eq(v, o->neg_inf)) {
        return (col_kind){K_DOUBLE, 0};
    }
    if ((o->is_date_pattern || !has_time_part(v)) &&
        o->parse_date(o->time_ctx, v, &i, &scratch) == DL_OK) {
        return (col_kind){K_DATE, 0};
    }
    if (o->parse_ts(o->time_ctx, v, &i, &scratch) == DL_OK) {
        return (col_kind){K_TIMESTAMP, 0};
    }
    if (dl_fmt_parse_bool(v.ptr, v.len, &b)) {
        return (col_kind){K_BOOLEAN, 0};
    }
    return (col_kind){K_STRING, 0};
}

/* ---- the reader ----------------------------------------------------------------------------- */

void
dl_fmt_csv_options_init(dl_fmt_csv_options *o) {
    *o = (dl_fmt_csv_options){.sep = ',',
                              .quote = '"',
                              .escape = '\\',
                              .null_value = DL_STR(""),
                              .empty_value = DL_STR(""),
                              .nan_value = DL_STR("NaN"),
                              .pos_inf = DL_STR("Inf"),
                              .neg_inf = DL_STR("-Inf"),
                              .corrupt_column = "_corrupt_record",
                              .n_threads = 1};
}

static size_t header_end(const dl_fmt_csv *r, int32_t f);

/* With a header the first chunk of a file holds it (it may follow many skipped lines), since
 * only the chunk at offset 0 skips it. */
static size_t
chunk_min_end(const void *ctx, int32_t f) {
    const dl_fmt_csv *r = ctx;
    return r->o.has_header ? header_end(r, f) : 0;
}

dl_status
dl_fmt_csv_new(const dl_allocator *alloc, const dl_fmt_csv_options *opts, const char *const *names,
               dl_vec_buffer *const *data, int32_t n_files, dl_fmt_csv **out, dl_error *err) {
    dl_fmt_csv *r = dl_mem_alloc_zero(alloc, sizeof(*r));
    DL_CHECK(r != NULL, err, DL_ERR_NOMEM, "out of memory reading CSV");
    r->alloc = alloc;
    r->o = *opts;
    dl_arena_init(&r->arena, alloc, 0);
    dl_status s = dl_fmt_input_init(&r->in, alloc, names, data, n_files, err);
    if (s == DL_OK) {
        s = dl_fmt_input_split(&r->in, r->o.n_threads, r->o.min_chunk, r->o.is_multi_line,
                               chunk_min_end, r, err);
    }
    if (s != DL_OK) {
        dl_fmt_csv_free(r);
        return s;
    }
    *out = r;
    return DL_OK;
}

void
dl_fmt_csv_free(dl_fmt_csv *r) {
    if (r == NULL) {
        return;
    }
    dl_fmt_input_destroy(&r->in);
    dl_arena_destroy(&r->arena);
    dl_mem_free(r->alloc, r, sizeof(*r));
}

static void
tokenizer_init(tokenizer *t, const dl_fmt_csv *r, const dl_fmt_chunk *c) {
    *t = (tokenizer){.o = &r->o,
                     .base = (const char *)r->in.files[c->file].buf->data,
                     .pos = c->start,
                     .end = c->end,
                     .skip_header = r->o.has_header && c->start == 0,
                     .alloc = r->alloc};
}

static void
tokenizer_destroy(tokenizer *t) {
    dl_mem_free(t->alloc, t->fields, (size_t)t->cap_fields * sizeof(field));
}

/* Where the header line of file f ends (after its line break), or 0 when it has none. */
static size_t
header_end(const dl_fmt_csv *r, int32_t f) {
    dl_fmt_chunk whole = {.file = f, .start = 0, .end = r->in.files[f].buf->size};
    tokenizer t;
    tokenizer_init(&t, r, &whole);
    t.skip_header = false;
    record rec;
    bool has = false;
    dl_error ignored;
    size_t end = next_record(&t, &rec, &has, &ignored) == DL_OK && has ? t.pos : 0;
    tokenizer_destroy(&t);
    return end;
}

/* Line (1-based) of byte off in file f. */
static int64_t
line_of(const dl_fmt_csv *r, int32_t f, size_t off) {
    return dl_fmt_line_of((const char *)r->in.files[f].buf->data, off);
}

/* ---- inferring the schema ------------------------------------------------------------------- */

typedef struct infer_task {
    const dl_fmt_csv *r;
    const dl_fmt_chunk *chunk;
    int32_t n_cols;
    col_kind *kinds;
} infer_task;

static dl_status
infer_chunk(void *arg, dl_error *err) {
    infer_task *it = arg;
    tokenizer t;
    tokenizer_init(&t, it->r, it->chunk);
    dl_buf scratch;
    dl_buf_init(&scratch, it->r->alloc);
    dl_status s = DL_OK;
    for (;;) {
        record rec;
        bool has = false;
        t.n_fields = 0;
        s = next_record(&t, &rec, &has, err);
        if (s != DL_OK || !has) {
            break;
        }
        for (int32_t c = 0; c < DL_MIN(rec.n, it->n_cols) && s == DL_OK; c++) {
            dl_str v;
            bool is_null = false;
            s = field_value(&t, &t.fields[rec.first + c], &scratch, &v, &is_null, err);
            if (s == DL_OK && !is_null && v.len > 0 && it->kinds[c].k != K_STRING) {
                it->kinds[c] = widen(it->kinds[c], infer_value(&it->r->o, v));
            }
        }
        if (s != DL_OK) {
            break;
        }
    }
    dl_buf_destroy(&scratch);
    tokenizer_destroy(&t);
    return s;
}

/* Spark's CSVUtils.makeSafeHeader, second half: a name that appears more than once (any
 * case) gets its index appended, every time it appears. */
static dl_status
dedup_names(const char **names, int32_t n, dl_arena *arena, dl_error *err) {
    const char **orig = dl_arena_alloc_array(arena, (size_t)n + 1, sizeof(char *));
    DL_CHECK(orig != NULL, err, DL_ERR_NOMEM, "out of memory");
    memcpy(orig, names, (size_t)n * sizeof(char *));
    for (int32_t c = 0; c < n; c++) {
        bool is_dup = false;
        for (int32_t k = 0; k < n && !is_dup; k++) {
            is_dup = k != c && strcasecmp(orig[k], orig[c]) == 0;
        }
        names[c] = is_dup ? dl_arena_printf(arena, "%s%d", orig[c], (int)c) : orig[c];
        DL_CHECK(names[c] != NULL, err, DL_ERR_NOMEM, "out of memory");
    }
    return DL_OK;
}

/* The columns' names: the header's values (empty ones _c<i>), or _c0, _c1, ... */
static dl_status
header_names(dl_fmt_csv *r, tokenizer *t, const record *rec, dl_arena *arena, const char **names,
             dl_error *err) {
    dl_buf scratch;
    dl_buf_init(&scratch, r->alloc);
    dl_status s = DL_OK;
    for (int32_t c = 0; c < rec->n && s == DL_OK; c++) {
        dl_str v = DL_STR("");
        bool is_null = false;
        if (r->o.has_header) {
            s = field_value(t, &t->fields[rec->first + c], &scratch, &v, &is_null, err);
        }
        if (s == DL_OK) {
            names[c] = v.len == 0 || is_null ? dl_arena_printf(arena, "_c%d", (int)c)
                                             : dl_arena_strndup(arena, v.ptr, v.len);
            s = names[c] == NULL ? dl_error_set(err, DL_ERR_NOMEM, "out of memory") : DL_OK;
        }
    }
    dl_buf_destroy(&scratch);
    DL_TRY(s);
    return r->o.has_header ? dedup_names(names, rec->n, arena, err) : DL_OK;
}

/* The first record of the first file that has one (the header, or the first data line). */
static dl_status
first_record(dl_fmt_csv *r, tokenizer *t, record *rec, bool *has, dl_error *err) {
    *has = false;
    for (int32_t i = 0; i < r->in.n_chunks && !*has; i++) {
        tokenizer_destroy(t);
        tokenizer_init(t, r, &r->in.chunks[i]);
        t->skip_header = false;
        DL_TRY(next_record(t, rec, has, err));
    }
    return DL_OK;
}

static dl_status
kind_type(col_kind k, dl_arena *arena, const dl_type **out, dl_error *err) {
    static const dl_type_id ids[] = {
        [K_NULL] = DL_VEC_TYPE_STRING,     [K_INT] = DL_VEC_TYPE_INT,
        [K_LONG] = DL_VEC_TYPE_LONG,       [K_DOUBLE] = DL_VEC_TYPE_DOUBLE,
        [K_DATE] = DL_VEC_TYPE_DATE,       [K_TIMESTAMP] = DL_VEC_TYPE_TIMESTAMP,
        [K_BOOLEAN] = DL_VEC_TYPE_BOOLEAN, [K_STRING] = DL_VEC_TYPE_STRING,
    };
    if (k.k == K_DECIMAL) {
        return dl_vec_type_decimal(arena, k.precision, 0, out, err);
    }
    *out = dl_vec_type_prim(ids[k.k]);
    return DL_OK;
}

static dl_status
infer_types(dl_fmt_csv *r, int32_t n_cols, col_kind *kinds, dl_error *err) {
    infer_task *tasks = dl_arena_alloc_array(&r->arena, (size_t)r->in.n_chunks, sizeof(infer_task));
    DL_CHECK(tasks != NULL, err, DL_ERR_NOMEM, "out of memory inferring a CSV schema");
    for (int32_t i = 0; i < r->in.n_chunks; i++) {
        tasks[i] = (infer_task){.r = r, .chunk = &r->in.chunks[i], .n_cols = n_cols};
        tasks[i].kinds = dl_arena_alloc_zero(&r->arena, (size_t)n_cols * sizeof(col_kind));
        DL_CHECK(tasks[i].kinds != NULL, err, DL_ERR_NOMEM, "out of memory inferring a schema");
    }
    DL_TRY(
        dl_fmt_run_tasks(r->o.pool, infer_chunk, tasks, sizeof(infer_task), r->in.n_chunks, err));
    for (int32_t i = 0; i < r->in.n_chunks; i++) {
        for (int32_t c = 0; c < n_cols; c++) {
            kinds[c] = widen(kinds[c], tasks[i].kinds[c]);
        }
    }
    return DL_OK;
}

/* The first record's width and the column names. */
static dl_status
column_names(dl_fmt_csv *r, dl_arena *arena, const char ***out, int32_t *out_n, dl_error *err) {
    tokenizer t;
    tokenizer_init(&t, r, &r->in.chunks[0]);
    record rec;
    bool has = false;
    dl_status s = first_record(r, &t, &rec, &has, err);
    if (s == DL_OK && !has) {
        s = dl_error_set(err, DL_ERR_INVALID_ARG,
                         "'%s': no line to take the columns from (the file%s empty)",
                         r->in.files[0].name, r->in.n_files > 1 ? "s are" : " is");
        dl_error_hint(err, "give the columns with schema => 'a INT, b STRING'");
    }
    const char **names = NULL;
    if (s == DL_OK) {
        names = dl_arena_alloc_zero(arena, (size_t)(rec.n + 1) * sizeof(char *));
        s = names == NULL ? dl_error_set(err, DL_ERR_NOMEM, "out of memory") : DL_OK;
    }
    if (s == DL_OK) {
        s = header_names(r, &t, &rec, arena, names, err);
        *out = names;
        *out_n = rec.n;
    }
    tokenizer_destroy(&t);
    return s;
}

dl_status
dl_fmt_csv_infer(dl_fmt_csv *r, bool is_typed, dl_arena *arena, const dl_type **out,
                 dl_error *err) {
    const char **names = NULL;
    int32_t n_cols = 0;
    DL_TRY(column_names(r, arena, &names, &n_cols, err));
    col_kind *kinds = dl_arena_alloc_zero(&r->arena, (size_t)(n_cols + 1) * sizeof(col_kind));
    dl_type_field *fields =
        dl_arena_alloc_zero(arena, (size_t)(n_cols + 1) * sizeof(dl_type_field));
    DL_CHECK(kinds != NULL && fields != NULL && names != NULL, err, DL_ERR_NOMEM, "out of memory");
    if (is_typed) {
        DL_TRY(infer_types(r, n_cols, kinds, err));
    }
    for (int32_t c = 0; c < n_cols; c++) {
        fields[c].name = names[c];
        fields[c].is_nullable = true;
        DL_TRY(
            kind_type(is_typed ? kinds[c] : (col_kind){K_STRING, 0}, arena, &fields[c].type, err));
    }
    return dl_vec_type_struct(arena, fields, n_cols, out, err);
}

/* ---- converting ----------------------------------------------------------------------------- */

typedef struct read_task {
    const dl_fmt_csv *r;
    const dl_fmt_chunk *chunk;
    const dl_type *schema;
    int32_t corrupt;     /* schema field taking malformed lines, or -1 */
    int32_t n_data;      /* the file's columns */
    const int32_t *to;   /* file column -> schema field */
    dl_vec_buffer *heap; /* the chunk's bytes as a string heap, or NULL (copy instead) */
    dl_fmt_batches batches;
    /* per batch */
    tokenizer t;
    record recs[DL_BATCH_CAPACITY];
    uint8_t bad[DL_BATCH_CAPACITY];
    int32_t bad_col[DL_BATCH_CAPACITY]; /* the first column that did not convert, or -1 */
    bool is_utf8;                       /* the chunk is valid UTF-8: string fields need no check */
    dl_buf scratch;
} read_task;

/* Why a row is malformed: the message FAILFAST reports. */
static dl_status
malformed(const read_task *rt, const record *rec, int32_t col, dl_str v, const char *why,
          dl_error *err) {
    const dl_fmt_csv *r = rt->r;
    int64_t line = line_of(r, rt->chunk->file, rec->start);
    char where[256] = "";
    if (col >= 0) {
        (void)snprintf(where, sizeof(where), ", column %d (%s)", (int)col + 1,
                       rt->schema->fields[rt->to[col]].name);
    }
    int shown = (int)DL_MIN(v.len, (size_t)60);
    (void)dl_error_set(err, DL_ERR_INVALID_ARG,
                       "[MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION] '%s': line %lld%s: %s: "
                       "'%.*s'%s (mode FAILFAST)",
                       r->in.files[rt->chunk->file].name, (long long)line, where, why, shown, v.ptr,
                       v.len > 60 ? "..." : "");
    dl_error_hint(err, "fix the line, or read with mode => 'PERMISSIVE' (bad values NULL, the "
                       "line in a _corrupt_record column) or 'DROPMALFORMED' (the line skipped)");
    err->offset = (int64_t)rec->start;
    return DL_ERR_INVALID_ARG;
}

static const char *
type_text(const dl_type *t) {
    return dl_vec_type_name(t->id);
}

/* Appends v to vec as vec's type; *ok false (and NULL appended) when v does not convert. */
static dl_status
append_value(read_task *rt, dl_vector *vec, int32_t heap, const field *f, dl_str v, bool *ok,
             dl_error *err) {
    const dl_fmt_csv_options *o = &rt->r->o;
    int64_t i = 0;
    double d = 0;
    bool b = false;
    dl_i128 dec = 0;
    dl_error scratch;
    *ok = true;
    switch (vec->type->id) {
    case DL_VEC_TYPE_STRING:
    case DL_VEC_TYPE_BINARY:
        if (vec->type->id == DL_VEC_TYPE_STRING && !rt->is_utf8 && !dl_utf8_valid(v.ptr, v.len)) {
            *ok = false;
            break;
        }
        if (heap >= 0 && !(f->flags & F_ESCAPED) && v.ptr >= (const char *)rt->heap->data &&
            v.ptr + v.len <= (const char *)rt->heap->data + rt->heap->size) {
            return dl_vec_append_str_ref(vec, heap, (int64_t)(v.ptr - (const char *)rt->heap->data),
                                         (int64_t)v.len, err);
        }
        return dl_vec_append_str(vec, v.ptr, v.len, err);
    case DL_VEC_TYPE_BOOLEAN:
        *ok = dl_fmt_parse_bool(v.ptr, v.len, &b);
        return *ok ? dl_vec_append_bool(vec, b, err) : dl_vec_append_null(vec, err);
    case DL_VEC_TYPE_BYTE:
        *ok = dl_fmt_parse_int(v.ptr, v.len, INT8_MIN, INT8_MAX, &i);
        return *ok ? dl_vec_append_i8(vec, (int8_t)i, err) : dl_vec_append_null(vec, err);
    case DL_VEC_TYPE_SHORT:
        *ok = dl_fmt_parse_int(v.ptr, v.len, INT16_MIN, INT16_MAX, &i);
        return *ok ? dl_vec_append_i16(vec, (int16_t)i, err) : dl_vec_append_null(vec, err);
    case DL_VEC_TYPE_INT:
        *ok = dl_fmt_parse_int(v.ptr, v.len, INT32_MIN, INT32_MAX, &i);
        return *ok ? dl_vec_append_i32(vec, (int32_t)i, err) : dl_vec_append_null(vec, err);
    case DL_VEC_TYPE_LONG:
        *ok = dl_fmt_parse_int(v.ptr, v.len, INT64_MIN, INT64_MAX, &i);
        return *ok ? dl_vec_append_i64(vec, i, err) : dl_vec_append_null(vec, err);
    case DL_VEC_TYPE_FLOAT:
    case DL_VEC_TYPE_DOUBLE:
        if (dl_str_eq(v, o->nan_value)) {
            d = (double)NAN;
        } else if (dl_str_eq(v, o->pos_inf)) {
            d = (double)INFINITY;
        } else if (dl_str_eq(v, o->neg_inf)) {
            d = -(double)INFINITY;
        } else {
            *ok = dl_fmt_parse_double(v.ptr, v.len, &d);
        }
        if (!*ok) {
            return dl_vec_append_null(vec, err);
        }
        return vec->type->id == DL_VEC_TYPE_FLOAT ? dl_vec_append_f32(vec, (float)d, err)
                                                  : dl_vec_append_f64(vec, d, err);
    case DL_VEC_TYPE_DECIMAL:
        *ok = dl_fmt_parse_decimal(v.ptr, v.len, vec->type->precision, vec->type->scale, &dec);
        return *ok ? dl_vec_append_i128(vec, dec, err) : dl_vec_append_null(vec, err);
    case DL_VEC_TYPE_DATE:
        *ok = o->parse_date(o->time_ctx, v, &i, &scratch) == DL_OK && i >= INT32_MIN &&
              i <= INT32_MAX;
        return *ok ? dl_vec_append_i32(vec, (int32_t)i, err) : dl_vec_append_null(vec, err);
    case DL_VEC_TYPE_TIMESTAMP:
    case DL_VEC_TYPE_TIMESTAMP_NTZ: {
        dl_fmt_time_fn fn = vec->type->id == DL_VEC_TYPE_TIMESTAMP ? o->parse_ts : o->parse_ts_ntz;
        *ok = fn(o->time_ctx, v, &i, &scratch) == DL_OK;
        return *ok ? dl_vec_append_i64(vec, i, err) : dl_vec_append_null(vec, err);
    }
    default:
        DL_FAIL(err, DL_ERR_INVALID_ARG, "CSV cannot hold a column of type %s",
                type_text(vec->type));
    }
    return dl_vec_append_null(vec, err);
}

/* Fills the column of file column c for the batch's n records. */
static dl_status
fill_column(read_task *rt, dl_batch *batch, int32_t c, int64_t n, dl_error *err) {
    dl_vector *vec = batch->cols[rt->to[c]];
    int32_t heap = -1;
    if (rt->heap != NULL && dl_vec_type_phys(vec->type) == DL_VEC_PHYS_VIEW) {
        DL_TRY(dl_vec_add_heap(vec, rt->heap, &heap, err));
    }
    for (int64_t k = 0; k < n; k++) {
        const record *rec = &rt->recs[k];
        if (c >= rec->n) {
            DL_TRY(dl_vec_append_null(vec, err));
            continue;
        }
        const field *f = &rt->t.fields[rec->first + c];
        dl_str v;
        bool is_null = false;
        DL_TRY(field_value(&rt->t, f, &rt->scratch, &v, &is_null, err));
        if (is_null) {
            DL_TRY(dl_vec_append_null(vec, err));
            continue;
        }
        bool ok = true;
        DL_TRY(append_value(rt, vec, heap, f, v, &ok, err));
        if (!ok && !rt->bad[k]) {
            rt->bad[k] = 1;
            rt->bad_col[k] = c;
        }
    }
    return DL_OK;
}

/* Marks records with the wrong number of fields or a bad quote. */
static void
check_shapes(read_task *rt, int64_t n) {
    for (int64_t k = 0; k < n; k++) {
        const record *rec = &rt->recs[k];
        rt->bad[k] = rec->n != rt->n_data || rec->is_bad_quote;
        rt->bad_col[k] = -1;
    }
}

/* FAILFAST: the batch's first malformed record, as an error. */
static dl_status
fail_first(read_task *rt, int64_t n, dl_error *err) {
    for (int64_t k = 0; k < n; k++) {
        const record *rec = &rt->recs[k];
        if (!rt->bad[k]) {
            continue;
        }
        char why[128];
        int32_t c = rt->bad_col[k];
        if (c >= 0) {
            dl_str v;
            bool is_null = false;
            DL_TRY(field_value(&rt->t, &rt->t.fields[rec->first + c], &rt->scratch, &v, &is_null,
                               err));
            (void)snprintf(why, sizeof(why), "cannot read as %s",
                           type_text(rt->schema->fields[rt->to[c]].type));
            return malformed(rt, rec, c, v, why, err);
        }
        dl_str line = dl_str_make(rt->t.base + rec->start, rec->end - rec->start);
        if (rec->is_bad_quote) {
            (void)snprintf(why, sizeof(why), "a quote is not closed%s",
                           rt->r->o.is_multi_line ? "" : " on its line (multiLine is off)");
        } else {
            (void)snprintf(why, sizeof(why), "%d fields where the schema has %d columns",
                           (int)rec->n, (int)rt->n_data);
        }
        return malformed(rt, rec, -1, line, why, err);
    }
    return DL_OK;
}

static dl_status
fill_corrupt(read_task *rt, dl_batch *batch, int64_t n, dl_error *err) {
    dl_vector *vec = batch->cols[rt->corrupt];
    int32_t heap = -1;
    if (rt->heap != NULL) {
        DL_TRY(dl_vec_add_heap(vec, rt->heap, &heap, err));
    }
    for (int64_t k = 0; k < n; k++) {
        const record *rec = &rt->recs[k];
        if (!rt->bad[k]) {
            DL_TRY(dl_vec_append_null(vec, err));
        } else if (heap >= 0) {
            DL_TRY(dl_vec_append_str_ref(vec, heap, (int64_t)(rec->start - rt->chunk->start),
                                         (int64_t)(rec->end - rec->start), err));
        } else {
            DL_TRY(dl_vec_append_str(vec, rt->t.base + rec->start, rec->end - rec->start, err));
        }
    }
    return DL_OK;
}

static dl_status
convert_batch(read_task *rt, int64_t n, dl_error *err) {
    check_shapes(rt, n);
    dl_batch *batch = NULL;
    DL_TRY(dl_vec_batch_new(rt->r->alloc, rt->schema, n, &batch, err));
    dl_status s = DL_OK;
    for (int32_t c = 0; c < rt->n_data && s == DL_OK; c++) {
        s = fill_column(rt, batch, c, n, err);
    }
    if (s == DL_OK && rt->corrupt >= 0) {
        s = fill_corrupt(rt, batch, n, err);
    }
    dl_vec_batch_set_count(batch, n);
    if (s == DL_OK && rt->r->o.mode == DL_FMT_FAILFAST) {
        s = fail_first(rt, n, err);
    }
    if (s == DL_OK && rt->r->o.mode == DL_FMT_DROPMALFORMED) {
        s = dl_fmt_drop_rows(batch, rt->bad, n, err);
    }
    if (s != DL_OK) {
        dl_vec_batch_free(batch);
        return s;
    }
    if (batch->count == 0) {
        dl_vec_batch_free(batch);
        return DL_OK;
    }
    return dl_fmt_batches_keep(&rt->batches, rt->r->alloc, batch, err);
}

static dl_status
read_chunk(void *arg, dl_error *err) {
    read_task *rt = arg;
    const dl_fmt_csv *r = rt->r;
    const dl_fmt_chunk *c = rt->chunk;
    dl_vec_buffer *file = r->in.files[c->file].buf;
    DL_TRY(dl_fmt_chunk_heap(r->alloc, &r->in, c, &rt->heap, err));
    rt->is_utf8 = c->end == c->start || dl_utf8_valid(file->data + c->start, c->end - c->start);
    tokenizer_init(&rt->t, r, c);
    dl_buf_init(&rt->scratch, r->alloc);
    dl_status s = DL_OK;
    bool has = true;
    while (s == DL_OK && has) {
        int64_t n = 0;
        rt->t.n_fields = 0;
        while (n < DL_BATCH_CAPACITY && s == DL_OK) {
            s = next_record(&rt->t, &rt->recs[n], &has, err);
            if (!has) {
                break;
            }
            n++;
        }
        if (s == DL_OK && n > 0) {
            s = convert_batch(rt, n, err);
        }
    }
    dl_buf_destroy(&rt->scratch);
    tokenizer_destroy(&rt->t);
    return s;
}

static bool
is_csv_type(dl_type_id id) {
    switch (id) {
    case DL_VEC_TYPE_BOOLEAN:
    case DL_VEC_TYPE_BYTE:
    case DL_VEC_TYPE_SHORT:
    case DL_VEC_TYPE_INT:
    case DL_VEC_TYPE_LONG:
    case DL_VEC_TYPE_FLOAT:
    case DL_VEC_TYPE_DOUBLE:
    case DL_VEC_TYPE_DECIMAL:
    case DL_VEC_TYPE_STRING:
    case DL_VEC_TYPE_BINARY:
    case DL_VEC_TYPE_DATE:
    case DL_VEC_TYPE_TIMESTAMP:
    case DL_VEC_TYPE_TIMESTAMP_NTZ:
        return true;
    default:
        return false;
    }
}

dl_status
dl_fmt_csv_check_schema(const dl_fmt_csv_options *o, const dl_type *schema, dl_error *err) {
    for (int32_t i = 0; i < schema->n_fields; i++) {
        const dl_type_field *f = &schema->fields[i];
        bool is_corrupt = o->corrupt_column != NULL && strcmp(f->name, o->corrupt_column) == 0;
        DL_CHECK(!is_corrupt || f->type->id == DL_VEC_TYPE_STRING, err, DL_ERR_INVALID_ARG,
                 "[INVALID_CORRUPT_RECORD_TYPE] the column '%s' for corrupt records must be a "
                 "nullable STRING, not %s",
                 f->name, type_text(f->type));
        DL_CHECK(is_corrupt || is_csv_type(f->type->id), err, DL_ERR_INVALID_ARG,
                 "[UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE] the CSV datasource does not support "
                 "the column '%s' of the type %s",
                 f->name, type_text(f->type));
    }
    return DL_OK;
}

/* Maps the schema's fields to the file's columns (all but the corrupt-record one). */
static void
map_schema(const dl_fmt_csv *r, const dl_type *schema, int32_t *to, int32_t *n_data,
           int32_t *corrupt) {
    *corrupt = -1;
    *n_data = 0;
    for (int32_t i = 0; i < schema->n_fields; i++) {
        const char *name = schema->fields[i].name;
        if (r->o.corrupt_column != NULL && strcmp(name, r->o.corrupt_column) == 0) {
            *corrupt = i;
        } else {
            to[(*n_data)++] = i;
        }
    }
}

dl_status
dl_fmt_csv_read(dl_fmt_csv *r, const dl_type *schema, dl_fmt_push_fn push, void *push_ctx,
                dl_error *err) {
    int32_t *to = dl_arena_alloc_zero(&r->arena, (size_t)(schema->n_fields + 1) * sizeof(int32_t));
    DL_CHECK(to != NULL, err, DL_ERR_NOMEM, "out of memory reading CSV");
    int32_t n_data = 0;
    int32_t corrupt = -1;
    DL_TRY(dl_fmt_csv_check_schema(&r->o, schema, err));
    map_schema(r, schema, to, &n_data, &corrupt);
    read_task *tasks = dl_mem_alloc_array(r->alloc, (size_t)r->in.n_chunks, sizeof(read_task));
    DL_CHECK(tasks != NULL, err, DL_ERR_NOMEM, "out of memory reading CSV");
    for (int32_t i = 0; i < r->in.n_chunks; i++) {
        memset(&tasks[i], 0, sizeof(read_task));
        tasks[i].r = r;
        tasks[i].chunk = &r->in.chunks[i];
        tasks[i].schema = schema;
        tasks[i].corrupt = corrupt;
        tasks[i].n_data = n_data;
        tasks[i].to = to;
    }
    dl_status s =
        dl_fmt_run_tasks(r->o.pool, read_chunk, tasks, sizeof(read_task), r->in.n_chunks, err);
    for (int32_t i = 0; i < r->in.n_chunks; i++) {
        s = dl_fmt_batches_push(&tasks[i].batches, r->alloc, s, push, push_ctx, err);
        dl_vec_buffer_unref(tasks[i].heap);
    }
    dl_mem_free(r->alloc, tasks, (size_t)r->in.n_chunks * sizeof(read_task));
    return s;
}
