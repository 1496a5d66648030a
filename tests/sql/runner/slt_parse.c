/* SPDX-License-Identifier: Apache-2.0 */
/* Parsing sqllogictest files into records (slt.h describes the format). */
#include <string.h>

#include "slt.h"

typedef struct lines {
    const char **text; /* NUL-terminated copies, in the arena */
    int64_t count;
} lines;

typedef struct parser {
    const char *path;
    lines in;
    int64_t pos; /* next line */
    dl_arena *arena;
    dl_buf records; /* slt_record array being built */
    bool skip_next; /* a skipif/onlyif applies to the next record */
    bool skip_mode; /* between `mode skip` and `mode unskip` */
} parser;

static dl_status
split_lines(const char *text, size_t len, dl_arena *arena, lines *out, dl_error *err) {
    int64_t n = 1;
    for (size_t i = 0; i < len; i++) {
        n += text[i] == '\n' ? 1 : 0;
    }
    out->text = dl_arena_alloc_array(arena, (size_t)n, sizeof(char *));
    DL_CHECK(out->text != NULL, err, DL_ERR_NOMEM, "out of memory reading a test file");
    out->count = 0;
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && text[i] != '\n') {
            continue;
        }
        size_t end = i;
        if (end > start && text[end - 1] == '\r') {
            end--;
        }
        if (i == len && start == len) {
            break; /* no line after a final newline */
        }
        char *line = dl_arena_strndup(arena, text + start, end - start);
        DL_CHECK(line != NULL, err, DL_ERR_NOMEM, "out of memory reading a test file");
        out->text[out->count++] = line;
        start = i + 1;
    }
    return DL_OK;
}

static bool
is_blank(const char *s) {
    for (; *s != '\0'; s++) {
        if (*s != ' ' && *s != '\t') {
            return false;
        }
    }
    return true;
}

/* Splits a directive line into words (in an arena copy). Returns the count (at most 8). */
static int
words_of(dl_arena *arena, const char *line, char **words) {
    char *copy = dl_arena_strndup(arena, line, strlen(line));
    int n = 0;
    char *p = copy;
    while (p != NULL && *p != '\0' && n < 8) {
        while (*p == ' ' || *p == '\t') {
            p++;
        }
        if (*p == '\0') {
            break;
        }
        words[n++] = p;
        while (*p != '\0' && *p != ' ' && *p != '\t') {
            p++;
        }
        if (*p != '\0') {
            *p++ = '\0';
        }
    }
    return n;
}

/* Joins lines [from, to) with '\n' into the arena. */
static const char *
join(parser *p, int64_t from, int64_t to) {
    size_t len = 0;
    for (int64_t i = from; i < to; i++) {
        len += strlen(p->in.text[i]) + 1;
    }
    char *s = dl_arena_alloc(p->arena, len + 1);
    if (s == NULL) {
        return NULL;
    }
    size_t k = 0;
    for (int64_t i = from; i < to; i++) {
        size_t n = strlen(p->in.text[i]);
        memcpy(s + k, p->in.text[i], n);
        k += n;
        if (i + 1 < to) {
            s[k++] = '\n';
        }
    }
    s[k] = '\0';
    return s;
}

/* Reads the SQL lines of a record (up to ---- or a blank line) and what follows ----. */
static dl_status
read_body(parser *p, slt_record *r, dl_error *err) {
    int64_t from = p->pos;
    while (p->pos < p->in.count && !is_blank(p->in.text[p->pos]) &&
           strcmp(p->in.text[p->pos], "----") != 0) {
        p->pos++;
    }
    if (p->pos == from) {
        DL_FAIL(err, DL_ERR_SQL_SYNTAX, "%s:%lld: the record has no SQL", p->path,
                (long long)r->line);
    }
    r->sql = join(p, from, p->pos);
    DL_CHECK(r->sql != NULL, err, DL_ERR_NOMEM, "out of memory reading a test file");
    if (p->pos < p->in.count && strcmp(p->in.text[p->pos], "----") == 0) {
        p->pos++;
        r->has_expected = true;
        int64_t first = p->pos;
        while (p->pos < p->in.count && !is_blank(p->in.text[p->pos])) {
            p->pos++;
        }
        r->expected = p->in.text + first;
        r->n_expected = p->pos - first;
    }
    return DL_OK;
}

static dl_status
push(parser *p, const slt_record *r, dl_error *err) {
    return dl_buf_append(&p->records, r, sizeof(*r), err);
}

static dl_status
parse_query(parser *p, slt_record *r, char **w, int n, dl_error *err) {
    if (n < 2) {
        DL_FAIL(err, DL_ERR_SQL_SYNTAX, "%s:%lld: query needs its column types, e.g. 'query IT'",
                p->path, (long long)r->line);
    }
    r->kind = SLT_QUERY;
    r->types = w[1];
    if (n >= 3) {
        if (strcmp(w[2], "rowsort") == 0) {
            r->sort = SLT_ROWSORT;
        } else if (strcmp(w[2], "valuesort") == 0) {
            r->sort = SLT_VALUESORT;
        } else if (strcmp(w[2], "nosort") != 0) {
            r->sort = SLT_NOSORT; /* a label */
        }
    }
    return read_body(p, r, err);
}

static dl_status
parse_statement(parser *p, slt_record *r, char **w, int n, dl_error *err) {
    if (n >= 2 && strcmp(w[1], "ok") == 0) {
        r->kind = SLT_STATEMENT_OK;
    } else if (n >= 2 && strcmp(w[1], "error") == 0) {
        r->kind = SLT_STATEMENT_ERROR;
    } else {
        DL_FAIL(err, DL_ERR_SQL_SYNTAX, "%s:%lld: expected 'statement ok' or 'statement error'",
                p->path, (long long)r->line);
    }
    DL_TRY(read_body(p, r, err));
    if (r->kind == SLT_STATEMENT_ERROR && r->has_expected) {
        const char **lines_at = r->expected;
        int64_t first = lines_at - p->in.text;
        const char *text = join(p, first, first + r->n_expected);
        DL_CHECK(text != NULL, err, DL_ERR_NOMEM, "out of memory reading a test file");
        r->expected = dl_arena_alloc(p->arena, sizeof(char *));
        DL_CHECK(r->expected != NULL, err, DL_ERR_NOMEM, "out of memory reading a test file");
        r->expected[0] = text;
        r->n_expected = 1;
    }
    return DL_OK;
}

/* Handles control lines; *out_done says the line was one. */
static dl_status
parse_control(parser *p, char **w, int n, int64_t line, bool *out_done, dl_error *err) {
    *out_done = true;
    const char *cmd = w[0];
    if ((strcmp(cmd, "skipif") == 0 || strcmp(cmd, "onlyif") == 0) && n >= 2) {
        bool is_us = strcmp(w[1], "deltalite") == 0;
        p->skip_next = strcmp(cmd, "skipif") == 0 ? is_us : !is_us;
        return DL_OK;
    }
    if (strcmp(cmd, "mode") == 0 && n >= 2) {
        p->skip_mode = strcmp(w[1], "skip") == 0     ? true
                       : strcmp(w[1], "unskip") == 0 ? false
                                                     : p->skip_mode;
        return DL_OK;
    }
    if (strcmp(cmd, "hash-threshold") == 0 || strcmp(cmd, "load") == 0) {
        return DL_OK;
    }
    if (strcmp(cmd, "require") == 0 || strcmp(cmd, "halt") == 0) {
        slt_record r = {.line = line, .kind = cmd[0] == 'r' ? SLT_REQUIRE : SLT_HALT};
        r.sql = n >= 2 ? w[1] : "";
        r.is_skipped = p->skip_mode;
        return push(p, &r, err);
    }
    *out_done = false;
    return DL_OK;
}

static dl_status
parse_record(parser *p, dl_error *err) {
    int64_t line = p->pos + 1;
    char *w[8];
    int n = words_of(p->arena, p->in.text[p->pos], w);
    DL_CHECK(n > 0, err, DL_ERR_NOMEM, "out of memory reading a test file");
    p->pos++;
    bool done = false;
    DL_TRY(parse_control(p, w, n, line, &done, err));
    if (done) {
        return DL_OK;
    }
    slt_record r = {.line = line};
    if (strcmp(w[0], "write") == 0 && n >= 2) {
        r.kind = SLT_WRITE;
        r.sql = w[1];
        r.types = n >= 3 ? w[2] : NULL;
        int64_t first = p->pos;
        while (p->pos < p->in.count && !is_blank(p->in.text[p->pos])) {
            p->pos++;
        }
        r.expected = p->in.text + first;
        r.n_expected = p->pos - first;
    } else if (strcmp(w[0], "statement") == 0) {
        DL_TRY(parse_statement(p, &r, w, n, err));
    } else if (strcmp(w[0], "query") == 0) {
        DL_TRY(parse_query(p, &r, w, n, err));
    } else {
        DL_FAIL(err, DL_ERR_SQL_SYNTAX,
                "%s:%lld: unknown record '%s' (expected statement, query, write, require, "
                "skipif, onlyif, mode, halt)",
                p->path, (long long)line, w[0]);
    }
    r.is_skipped = p->skip_next || p->skip_mode;
    p->skip_next = false;
    return push(p, &r, err);
}

dl_status
slt_parse(const char *path, const char *text, size_t len, dl_arena *arena, slt_file *out,
          dl_error *err) {
    parser p = {.path = path, .arena = arena};
    dl_buf_init(&p.records, arena->alloc);
    memset(out, 0, sizeof(*out));
    out->path = path;
    dl_status st = split_lines(text, len, arena, &p.in, err);
    while (st == DL_OK && p.pos < p.in.count) {
        const char *line = p.in.text[p.pos];
        if (is_blank(line) || line[0] == '#') {
            p.pos++;
            continue;
        }
        st = parse_record(&p, err);
    }
    if (st == DL_OK) {
        out->n_records = (int64_t)(p.records.len / sizeof(slt_record));
        if (p.records.len > 0) {
            out->records = dl_arena_memdup(arena, p.records.data, p.records.len);
            st = out->records != NULL
                     ? DL_OK
                     : dl_error_set(err, DL_ERR_NOMEM, "out of memory reading a test file");
        }
    }
    dl_buf_destroy(&p.records);
    return st;
}
