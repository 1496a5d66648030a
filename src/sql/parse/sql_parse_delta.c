/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Delta's table commands and the utility statements:
 *
 *   RESTORE [TABLE] name [TO] VERSION AS OF n | TIMESTAMP AS OF expr   (or the FOR SYSTEM_*
 *       and @ spellings)
 *   VACUUM target { RETAIN n HOURS | DRY RUN | LITE | FULL }
 *   OPTIMIZE target [FULL] [WHERE cond] [ZORDER BY (cols) | ZORDER BY cols]
 *   DESCRIBE|DESC HISTORY target [LIMIT n]
 *   DESCRIBE|DESC DETAIL target
 *   DESCRIBE|DESC [TABLE] [EXTENDED | FORMATTED] name [time travel] [column]
 *   SHOW TABLES|VIEWS [FROM|IN schema] [[LIKE] 'pattern'] | SHOW SCHEMAS|DATABASES [[LIKE] 'p']
 *       | SHOW COLUMNS FROM|IN t [FROM|IN schema] | SHOW TBLPROPERTIES t [(key)]
 *       | SHOW CREATE TABLE t | SHOW PARTITIONS t [PARTITION (k = v, ...)]
 *       | SHOW FUNCTIONS [[LIKE] 'p']
 *   SET | SET key | SET key = value | SET TIME ZONE value
 *   RESET [key]
 *   COPY (query) | name TO 'path' [WITH] [(option [=] [value], ...)]      (DuckDB's form)
 *   COPY INTO name FROM 'path' FILEFORMAT = fmt [FILES = ('f', ...) | PATTERN = 'glob']
 *       [FORMAT_OPTIONS ('k' = 'v', ...)] [COPY_OPTIONS ('k' = 'v', ...)]  (Databricks')
 *   CONVERT TO DELTA name [NO STATISTICS] [PARTITIONED BY (col type, ...)]
 *   GENERATE mode FOR TABLE name
 * where target is a table name (delta.`/path` included) or a path string.
 *
 * SET and RESET take their key and value as raw text, as Spark does: the tokens up to the
 * first '=' make the key and the rest the value, joined as written (a gap of white space or
 * comments becomes one space); a value that is one string literal is decoded.
 */
#include <string.h>

#include "sql/parse/sql_parse_int.h"

static dl_status
parse_target(dl_sql_parser *p, const char *what, dl_sql_target *out) {
    out->loc = dl_sql_tok(p)->off;
    if (dl_sql_is(p, DL_SQL_TOK_STRING) || dl_sql_is(p, DL_SQL_TOK_RSTRING)) {
        out->is_path = true;
        return dl_sql_parse_string(p, what, &out->path);
    }
    return dl_sql_parse_name(p, what, &out->name);
}

static dl_status
duplicate(dl_sql_parser *p, const dl_sql_token *at, const char *clause) {
    return dl_sql_fail_tok(p, at, DL_ERR_SQL_SYNTAX, "%s is given twice", clause);
}

/* ---- RESTORE, VACUUM, OPTIMIZE ------------------------------------------------------------ */

dl_status
dl_sql_parse_restore(dl_sql_parser *p, dl_sql_stmt *s) {
    dl_sql_advance(p);
    s->kind = DL_SQL_STMT_RESTORE;
    (void)dl_sql_accept_kw(p, DL_SQL_KW_TABLE);
    DL_TRY(dl_sql_parse_name(p, "a table name", &s->u.restore.table));
    (void)dl_sql_accept_kw(p, DL_SQL_KW_TO);
    DL_TRY(dl_sql_parse_time_travel(p, &s->u.restore.tt));
    if (s->u.restore.tt.kind == DL_SQL_TT_NONE) {
        return dl_sql_fail_expected(p, "VERSION AS OF or TIMESTAMP AS OF");
    }
    return DL_OK;
}

static dl_status
parse_vacuum_option(dl_sql_parser *p, dl_sql_stmt *s, bool *done) {
    const dl_sql_token *at = dl_sql_tok(p);
    *done = false;
    if (dl_sql_accept_kw(p, DL_SQL_KW_RETAIN)) {
        if (s->u.vacuum.retain_hours != NULL) {
            return duplicate(p, at, "RETAIN");
        }
        DL_TRY(dl_sql_parse_value_expr(p, &s->u.vacuum.retain_hours));
        return dl_sql_expect_kw(p, DL_SQL_KW_HOURS);
    }
    if (dl_sql_accept_kw(p, DL_SQL_KW_DRY)) {
        if (s->u.vacuum.is_dry_run) {
            return duplicate(p, at, "DRY RUN");
        }
        s->u.vacuum.is_dry_run = true;
        return dl_sql_expect_kw(p, DL_SQL_KW_RUN);
    }
    if (dl_sql_is_kw(p, DL_SQL_KW_LITE) || dl_sql_is_kw(p, DL_SQL_KW_FULL)) {
        if (s->u.vacuum.mode != DL_SQL_VACUUM_DEFAULT) {
            return duplicate(p, at, "LITE or FULL");
        }
        s->u.vacuum.mode =
            dl_sql_is_kw(p, DL_SQL_KW_LITE) ? DL_SQL_VACUUM_LITE : DL_SQL_VACUUM_FULL;
        dl_sql_advance(p);
        return DL_OK;
    }
    *done = true;
    return DL_OK;
}

dl_status
dl_sql_parse_vacuum(dl_sql_parser *p, dl_sql_stmt *s) {
    dl_sql_advance(p);
    s->kind = DL_SQL_STMT_VACUUM;
    DL_TRY(parse_target(p, "a table name or path", &s->u.vacuum.target));
    bool done = false;
    while (!done) {
        DL_TRY(parse_vacuum_option(p, s, &done));
    }
    return DL_OK;
}

dl_status
dl_sql_parse_optimize(dl_sql_parser *p, dl_sql_stmt *s) {
    dl_sql_advance(p);
    s->kind = DL_SQL_STMT_OPTIMIZE;
    DL_TRY(parse_target(p, "a table name or path", &s->u.optimize.target));
    s->u.optimize.is_full = dl_sql_accept_kw(p, DL_SQL_KW_FULL);
    if (dl_sql_accept_kw(p, DL_SQL_KW_WHERE)) {
        DL_TRY(dl_sql_parse_expr(p, &s->u.optimize.where));
    }
    if (dl_sql_accept_kw(p, DL_SQL_KW_ZORDER)) {
        DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_BY));
        return dl_sql_parse_name_list(p, "a column name", dl_sql_is(p, DL_SQL_TOK_LPAREN),
                                      &s->u.optimize.zorder_by);
    }
    return DL_OK;
}

/* REORG TABLE target [WHERE partition_condition] APPLY (PURGE): an OPTIMIZE statement that
 * rewrites the files with deletion vectors (is_purge). */
dl_status
dl_sql_parse_reorg(dl_sql_parser *p, dl_sql_stmt *s) {
    dl_sql_advance(p);
    s->kind = DL_SQL_STMT_OPTIMIZE;
    s->u.optimize.is_purge = true;
    DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_TABLE));
    DL_TRY(parse_target(p, "a table name or path", &s->u.optimize.target));
    if (dl_sql_accept_kw(p, DL_SQL_KW_WHERE)) {
        DL_TRY(dl_sql_parse_expr(p, &s->u.optimize.where));
    }
    if (!dl_sql_tok_is_word(p, dl_sql_tok(p), "APPLY")) {
        return dl_sql_fail(p, "REORG TABLE needs APPLY (PURGE), which rewrites the files that "
                              "have deletion vectors");
    }
    dl_sql_advance(p);
    const dl_sql_token *open = dl_sql_tok(p);
    DL_TRY(dl_sql_expect(p, DL_SQL_TOK_LPAREN));
    if (!dl_sql_is_kw(p, DL_SQL_KW_PURGE)) {
        return dl_sql_fail_tok(p, dl_sql_tok(p), DL_ERR_UNSUPPORTED,
                               "REORG TABLE ... APPLY supports PURGE only (UPGRADE UNIFORM needs "
                               "Iceberg compatibility, which deltalite does not write)");
    }
    dl_sql_advance(p);
    return dl_sql_expect_close(p, DL_SQL_TOK_RPAREN, open, "APPLY clause");
}

/* ---- DESCRIBE ----------------------------------------------------------------------------- */

/* True when the token after HISTORY / DETAIL starts a target (else it names a table). */
static bool
target_follows(const dl_sql_parser *p) {
    const dl_sql_token *t = dl_sql_peek(p, 1);
    return t->kind == DL_SQL_TOK_STRING || t->kind == DL_SQL_TOK_RSTRING ||
           dl_sql_is_ident(p, t, false, false);
}

static dl_status
parse_describe_table(dl_sql_parser *p, dl_sql_stmt *s) {
    s->kind = DL_SQL_STMT_DESCRIBE_TABLE;
    (void)dl_sql_accept_kw(p, DL_SQL_KW_TABLE);
    if ((dl_sql_is_kw(p, DL_SQL_KW_EXTENDED) || dl_sql_is_kw(p, DL_SQL_KW_FORMATTED)) &&
        target_follows(p)) {
        dl_sql_advance(p);
        s->u.describe_table.is_extended = true;
    }
    DL_TRY(dl_sql_parse_name(p, "a table name", &s->u.describe_table.table));
    DL_TRY(dl_sql_parse_time_travel(p, &s->u.describe_table.tt));
    if (dl_sql_is_ident(p, dl_sql_tok(p), false, false)) {
        s->u.describe_table.has_column = true;
        DL_TRY(dl_sql_parse_name(p, "a column name", &s->u.describe_table.column));
    }
    return DL_OK;
}

dl_status
dl_sql_parse_describe(dl_sql_parser *p, dl_sql_stmt *s) {
    dl_sql_advance(p);
    if (dl_sql_is_kw(p, DL_SQL_KW_HISTORY) && target_follows(p)) {
        dl_sql_advance(p);
        s->kind = DL_SQL_STMT_DESCRIBE_HISTORY;
        DL_TRY(parse_target(p, "a table name or path", &s->u.describe_history.target));
        if (dl_sql_accept_kw(p, DL_SQL_KW_LIMIT)) {
            DL_TRY(dl_sql_parse_value_expr(p, &s->u.describe_history.limit));
        }
        return DL_OK;
    }
    if (dl_sql_is_kw(p, DL_SQL_KW_DETAIL) && target_follows(p)) {
        dl_sql_advance(p);
        s->kind = DL_SQL_STMT_DESCRIBE_DETAIL;
        return parse_target(p, "a table name or path", &s->u.describe_detail.target);
    }
    bool other = dl_sql_is_kw(p, DL_SQL_KW_SCHEMA) || dl_sql_is_kw(p, DL_SQL_KW_DATABASE) ||
                 dl_sql_tok_is_word(p, dl_sql_tok(p), "FUNCTION") ||
                 dl_sql_tok_is_word(p, dl_sql_tok(p), "QUERY") ||
                 dl_sql_tok_is_word(p, dl_sql_tok(p), "CATALOG");
    if (other && target_follows(p)) {
        return dl_sql_fail_tok(p, dl_sql_tok(p), DL_ERR_UNSUPPORTED,
                               "DESCRIBE %.*s is not supported (DESCRIBE takes HISTORY, DETAIL "
                               "or a table)",
                               (int)dl_sql_tok(p)->len, p->text + dl_sql_tok(p)->off);
    }
    return parse_describe_table(p, s);
}

/* ---- SHOW --------------------------------------------------------------------------------- */

static dl_status
parse_show_pattern(dl_sql_parser *p, dl_sql_stmt *s) {
    bool like = dl_sql_accept_kw(p, DL_SQL_KW_LIKE);
    if (like || dl_sql_is(p, DL_SQL_TOK_STRING) || dl_sql_is(p, DL_SQL_TOK_RSTRING)) {
        s->u.show.has_pattern = true;
        return dl_sql_parse_string(p, "a pattern", &s->u.show.pattern);
    }
    return DL_OK;
}

static dl_status
parse_show_in(dl_sql_parser *p, bool *has, dl_sql_name *name) {
    if (dl_sql_accept_kw(p, DL_SQL_KW_FROM) || dl_sql_accept_kw(p, DL_SQL_KW_IN)) {
        *has = true;
        return dl_sql_parse_name(p, "a name", name);
    }
    return DL_OK;
}

static dl_status
parse_show_table_kind(dl_sql_parser *p, dl_sql_stmt *s) {
    dl_sql_show_kind kind = s->u.show.kind;
    if (kind == DL_SQL_SHOW_COLUMNS) {
        if (!dl_sql_accept_kw(p, DL_SQL_KW_FROM) && !dl_sql_accept_kw(p, DL_SQL_KW_IN)) {
            return dl_sql_fail_expected(p, "FROM or IN after SHOW COLUMNS");
        }
        s->u.show.has_name = true;
        DL_TRY(dl_sql_parse_name(p, "a table name", &s->u.show.name));
        return parse_show_in(p, &s->u.show.has_schema, &s->u.show.schema);
    }
    s->u.show.has_name = true;
    DL_TRY(dl_sql_parse_name(p, "a table name", &s->u.show.name));
    if (kind == DL_SQL_SHOW_TBLPROPERTIES && dl_sql_is(p, DL_SQL_TOK_LPAREN)) {
        const dl_sql_token *open = dl_sql_tok(p);
        dl_sql_advance(p);
        s->u.show.has_key = true;
        DL_TRY(dl_sql_parse_prop_key(p, &s->u.show.key));
        return dl_sql_expect_close(p, DL_SQL_TOK_RPAREN, open, "property key");
    }
    if (kind == DL_SQL_SHOW_PARTITIONS) {
        return dl_sql_parse_partition_spec(p, &s->u.show.partition);
    }
    return DL_OK;
}

dl_status
dl_sql_parse_show(dl_sql_parser *p, dl_sql_stmt *s) {
    dl_sql_advance(p);
    s->kind = DL_SQL_STMT_SHOW;
    dl_sql_show_kind kind = (dl_sql_show_kind)0;
    if (dl_sql_accept_kw(p, DL_SQL_KW_TABLES)) {
        kind = DL_SQL_SHOW_TABLES;
    } else if (dl_sql_accept_kw(p, DL_SQL_KW_VIEWS)) {
        kind = DL_SQL_SHOW_VIEWS;
    } else if (dl_sql_accept_kw(p, DL_SQL_KW_SCHEMAS) || dl_sql_accept_kw(p, DL_SQL_KW_DATABASES) ||
               dl_sql_accept_kw(p, DL_SQL_KW_NAMESPACES)) {
        kind = DL_SQL_SHOW_SCHEMAS;
    } else if (dl_sql_accept_kw(p, DL_SQL_KW_FUNCTIONS)) {
        kind = DL_SQL_SHOW_FUNCTIONS;
    } else if (dl_sql_accept_kw(p, DL_SQL_KW_COLUMNS)) {
        kind = DL_SQL_SHOW_COLUMNS;
    } else if (dl_sql_accept_kw(p, DL_SQL_KW_TBLPROPERTIES)) {
        kind = DL_SQL_SHOW_TBLPROPERTIES;
    } else if (dl_sql_accept_kw(p, DL_SQL_KW_PARTITIONS)) {
        kind = DL_SQL_SHOW_PARTITIONS;
    } else if (dl_sql_accept_kw(p, DL_SQL_KW_CREATE)) {
        DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_TABLE));
        kind = DL_SQL_SHOW_CREATE_TABLE;
    } else {
        return dl_sql_fail_expected(p, "TABLES, VIEWS, SCHEMAS, DATABASES, COLUMNS, "
                                       "TBLPROPERTIES, CREATE TABLE, PARTITIONS or FUNCTIONS");
    }
    s->u.show.kind = kind;
    if (kind == DL_SQL_SHOW_TABLES || kind == DL_SQL_SHOW_VIEWS) {
        DL_TRY(parse_show_in(p, &s->u.show.has_name, &s->u.show.name));
        return parse_show_pattern(p, s);
    }
    if (kind == DL_SQL_SHOW_SCHEMAS || kind == DL_SQL_SHOW_FUNCTIONS) {
        return parse_show_pattern(p, s);
    }
    return parse_show_table_kind(p, s);
}

/* ---- SET, RESET --------------------------------------------------------------------------- */

/* The text of tokens [from, to) joined: a gap between two tokens becomes one space. */
static dl_status
join_tokens(dl_sql_parser *p, uint32_t from, uint32_t to, dl_str *out) {
    size_t len = 0;
    for (uint32_t i = from; i < to; i++) {
        len += p->toks[i].len + 1;
    }
    char *buf = dl_sql_alloc(p, len + 1);
    if (buf == NULL) {
        return DL_ERR_NOMEM;
    }
    size_t n = 0;
    for (uint32_t i = from; i < to; i++) {
        const dl_sql_token *t = &p->toks[i];
        if (i > from && t->off > p->toks[i - 1].off + p->toks[i - 1].len) {
            buf[n++] = ' ';
        }
        memcpy(buf + n, p->text + t->off, t->len);
        n += t->len;
    }
    buf[n] = '\0';
    *out = dl_str_make(buf, n);
    return DL_OK;
}

/* The raw value of SET: tokens [from, end), or the one string literal there decoded. */
static dl_status
parse_raw_value(dl_sql_parser *p, uint32_t from, uint32_t end, dl_sql_stmt *s) {
    s->u.set.has_value = true;
    bool is_one_string = from + 1 == end && (p->toks[from].kind == DL_SQL_TOK_STRING ||
                                             p->toks[from].kind == DL_SQL_TOK_RSTRING);
    if (is_one_string) {
        p->pos = from;
        DL_TRY(dl_sql_parse_string(p, "a value", &s->u.set.value));
    } else {
        DL_TRY(join_tokens(p, from, end, &s->u.set.value));
    }
    p->pos = end;
    return DL_OK;
}

/* The raw key (and value) of SET / RESET: all the tokens to the statement's end. */
static dl_status
parse_raw_setting(dl_sql_parser *p, bool allow_value, dl_sql_stmt *s) {
    uint32_t start = p->pos;
    uint32_t end = p->n_toks - 1;
    uint32_t eq = end;
    for (uint32_t i = start; i < end; i++) {
        if (p->toks[i].kind == DL_SQL_TOK_ERROR) {
            p->pos = i;
            return dl_sql_fail(p, "malformed token");
        }
        if (p->toks[i].kind == DL_SQL_TOK_EQ && eq == end && allow_value) {
            eq = i;
        }
    }
    if (eq == start) {
        return dl_sql_fail(p, "expected a setting name before '='");
    }
    dl_str *key = allow_value ? &s->u.set.key : &s->u.reset.key;
    DL_TRY(join_tokens(p, start, eq, key));
    if (eq < end) {
        return parse_raw_value(p, eq + 1, end, s);
    }
    p->pos = end;
    return DL_OK;
}

dl_status
dl_sql_parse_set(dl_sql_parser *p, dl_sql_stmt *s) {
    dl_sql_advance(p);
    s->kind = DL_SQL_STMT_SET;
    if (dl_sql_at_end(p)) {
        return DL_OK;
    }
    s->u.set.has_key = true;
    if (dl_sql_tok_is_word(p, dl_sql_tok(p), "TIME") &&
        dl_sql_tok_is_word(p, dl_sql_peek(p, 1), "ZONE")) {
        /* SET TIME ZONE v is SET spark.sql.session.timeZone = v */
        dl_sql_advance(p);
        dl_sql_advance(p);
        if (dl_sql_at_end(p)) {
            return dl_sql_fail_expected(p, "a time zone after SET TIME ZONE");
        }
        for (uint32_t i = p->pos; i + 1 < p->n_toks; i++) {
            if (p->toks[i].kind == DL_SQL_TOK_ERROR) {
                p->pos = i;
                return dl_sql_fail(p, "malformed token");
            }
        }
        s->u.set.key = DL_STR("spark.sql.session.timeZone");
        return parse_raw_value(p, p->pos, p->n_toks - 1, s);
    }
    return parse_raw_setting(p, true, s);
}

dl_status
dl_sql_parse_reset(dl_sql_parser *p, dl_sql_stmt *s) {
    dl_sql_advance(p);
    s->kind = DL_SQL_STMT_RESET;
    if (dl_sql_at_end(p)) {
        return DL_OK;
    }
    s->u.reset.has_key = true;
    return parse_raw_setting(p, false, s);
}

/* ---- COPY, CONVERT, GENERATE -------------------------------------------------------------- */

static dl_status
parse_copy_options(dl_sql_parser *p, dl_sql_stmt *s) {
    const dl_sql_token *open = dl_sql_tok(p);
    DL_TRY(dl_sql_expect(p, DL_SQL_TOK_LPAREN));
    dl_sql_vec opts = {0};
    do {
        dl_sql_copy_option *o;
        DL_SQL_PUSH(p, opts, o);
        DL_TRY(dl_sql_parse_ident_any(p, "an option name", &o->name));
        (void)dl_sql_accept(p, DL_SQL_TOK_EQ);
        if (!dl_sql_is(p, DL_SQL_TOK_COMMA) && !dl_sql_is(p, DL_SQL_TOK_RPAREN)) {
            DL_TRY(dl_sql_parse_expr(p, &o->value));
        }
    } while (dl_sql_accept(p, DL_SQL_TOK_COMMA));
    s->u.copy.options = opts.data;
    s->u.copy.n_options = opts.n;
    return dl_sql_expect_close(p, DL_SQL_TOK_RPAREN, open, "option list");
}

static dl_status
parse_copy_files(dl_sql_parser *p, dl_sql_stmt *s) {
    const dl_sql_token *open = dl_sql_tok(p);
    DL_TRY(dl_sql_expect(p, DL_SQL_TOK_LPAREN));
    dl_sql_vec files = {0};
    do {
        dl_str *f;
        DL_SQL_PUSH(p, files, f);
        DL_TRY(dl_sql_parse_string(p, "a file name", f));
    } while (dl_sql_accept(p, DL_SQL_TOK_COMMA));
    s->u.copy_into.files = files.data;
    s->u.copy_into.n_files = files.n;
    s->u.copy_into.has_files = true;
    return dl_sql_expect_close(p, DL_SQL_TOK_RPAREN, open, "file list");
}

/* One clause of COPY INTO after the source path; *out_ok false when none starts here. */
static dl_status
parse_copy_into_clause(dl_sql_parser *p, dl_sql_stmt *s, bool *out_ok) {
    const dl_sql_token *t = dl_sql_tok(p);
    *out_ok = true;
    if (dl_sql_tok_is_word(p, t, "FILEFORMAT")) {
        dl_sql_advance(p);
        DL_TRY(dl_sql_expect(p, DL_SQL_TOK_EQ));
        return dl_sql_parse_ident_any(p, "a file format (CSV, JSON, PARQUET)",
                                      &s->u.copy_into.format);
    }
    if (dl_sql_tok_is_word(p, t, "FILES") || dl_sql_tok_is_word(p, t, "PATTERN")) {
        if (s->u.copy_into.has_files || s->u.copy_into.has_pattern) {
            return dl_sql_fail_tok(p, t, DL_ERR_SQL_SYNTAX,
                                   "COPY INTO takes one FILES or PATTERN clause, not both");
        }
        dl_sql_advance(p);
        DL_TRY(dl_sql_expect(p, DL_SQL_TOK_EQ));
        if (dl_sql_tok_is_word(p, t, "FILES")) {
            return parse_copy_files(p, s);
        }
        s->u.copy_into.has_pattern = true;
        return dl_sql_parse_string(p, "a glob pattern", &s->u.copy_into.pattern);
    }
    if (dl_sql_tok_is_word(p, t, "FORMAT_OPTIONS")) {
        dl_sql_advance(p);
        return dl_sql_parse_props(p, true, &s->u.copy_into.format_options);
    }
    if (dl_sql_tok_is_word(p, t, "COPY_OPTIONS")) {
        dl_sql_advance(p);
        return dl_sql_parse_props(p, true, &s->u.copy_into.copy_options);
    }
    if (dl_sql_tok_is_word(p, t, "VALIDATE")) {
        return dl_sql_fail_tok(p, t, DL_ERR_UNSUPPORTED,
                               "COPY INTO ... VALIDATE is not supported yet (read the files "
                               "with read_json / read_csv / read_parquet to check them)");
    }
    *out_ok = false;
    return DL_OK;
}

static dl_status
parse_copy_into(dl_sql_parser *p, dl_sql_stmt *s) {
    dl_sql_advance(p); /* INTO */
    s->kind = DL_SQL_STMT_COPY_INTO;
    DL_TRY(dl_sql_parse_name(p, "a table name", &s->u.copy_into.table));
    DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_FROM));
    if (dl_sql_is(p, DL_SQL_TOK_LPAREN)) {
        return dl_sql_fail_tok(p, dl_sql_tok(p), DL_ERR_UNSUPPORTED,
                               "COPY INTO ... FROM (SELECT ...) is not supported yet (COPY INTO "
                               "t FROM 'path' loads the files' columns by name)");
    }
    DL_TRY(dl_sql_parse_string(p, "the source path", &s->u.copy_into.path));
    bool ok = true;
    while (ok && !dl_sql_at_end(p)) {
        DL_TRY(parse_copy_into_clause(p, s, &ok));
    }
    if (s->u.copy_into.format.name.len == 0) {
        return dl_sql_fail_tok(p, dl_sql_tok(p), DL_ERR_SQL_SYNTAX,
                               "COPY INTO needs FILEFORMAT = CSV | JSON | PARQUET");
    }
    return DL_OK;
}

dl_status
dl_sql_parse_copy(dl_sql_parser *p, dl_sql_stmt *s) {
    dl_sql_advance(p);
    s->kind = DL_SQL_STMT_COPY;
    if (dl_sql_is_kw(p, DL_SQL_KW_INTO)) {
        return parse_copy_into(p, s);
    }
    if (dl_sql_is(p, DL_SQL_TOK_LPAREN)) {
        const dl_sql_token *open = dl_sql_tok(p);
        dl_sql_advance(p);
        DL_TRY(dl_sql_parse_query(p, &s->u.copy.query));
        DL_TRY(dl_sql_expect_close(p, DL_SQL_TOK_RPAREN, open, "query"));
    } else {
        DL_TRY(dl_sql_parse_name(p, "a table name or '(' query ')'", &s->u.copy.table));
    }
    DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_TO));
    DL_TRY(dl_sql_parse_string(p, "a file path", &s->u.copy.path));
    bool with = dl_sql_accept_kw(p, DL_SQL_KW_WITH);
    if (with || dl_sql_is(p, DL_SQL_TOK_LPAREN)) {
        return parse_copy_options(p, s);
    }
    return DL_OK;
}

dl_status
dl_sql_parse_convert(dl_sql_parser *p, dl_sql_stmt *s) {
    dl_sql_advance(p);
    s->kind = DL_SQL_STMT_CONVERT;
    DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_TO));
    DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_DELTA));
    DL_TRY(dl_sql_parse_name(p, "a table (parquet.`path`)", &s->u.convert.table));
    if (dl_sql_accept_kw(p, DL_SQL_KW_NO)) {
        DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_STATISTICS));
        s->u.convert.no_statistics = true;
    }
    if (dl_sql_accept_kw(p, DL_SQL_KW_PARTITIONED)) {
        DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_BY));
        const dl_sql_token *open = dl_sql_tok(p);
        DL_TRY(dl_sql_expect(p, DL_SQL_TOK_LPAREN));
        dl_sql_vec cols = {0};
        do {
            dl_sql_column_def *c;
            DL_SQL_PUSH(p, cols, c);
            c->loc = dl_sql_tok(p)->off;
            DL_TRY(dl_sql_parse_name(p, "a partition column", &c->name));
            DL_TRY(dl_sql_parse_type(p, &c->type));
        } while (dl_sql_accept(p, DL_SQL_TOK_COMMA));
        s->u.convert.partition_columns.items = cols.data;
        s->u.convert.partition_columns.n = cols.n;
        return dl_sql_expect_close(p, DL_SQL_TOK_RPAREN, open, "partition columns");
    }
    return DL_OK;
}

dl_status
dl_sql_parse_generate(dl_sql_parser *p, dl_sql_stmt *s) {
    dl_sql_advance(p);
    s->kind = DL_SQL_STMT_GENERATE;
    DL_TRY(dl_sql_parse_ident(p, "a mode (symlink_format_manifest)", &s->u.generate.mode));
    DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_FOR));
    DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_TABLE));
    return dl_sql_parse_name(p, "a table name", &s->u.generate.table);
}

/* ---- CACHE, UNCACHE, REFRESH, CLEAR CACHE, ANALYZE ------------------------------------------ */

static dl_status
expect_word(dl_sql_parser *p, const char *w) {
    if (!dl_sql_tok_is_word(p, dl_sql_tok(p), w)) {
        return dl_sql_fail_expected(p, w);
    }
    dl_sql_advance(p);
    return DL_OK;
}

static dl_status
parse_cache_table(dl_sql_parser *p, dl_sql_stmt *s) {
    s->u.cache.kind = DL_SQL_CACHE_TABLE;
    if (dl_sql_tok_is_word(p, dl_sql_tok(p), "LAZY")) {
        dl_sql_advance(p);
        s->u.cache.is_lazy = true;
    }
    DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_TABLE));
    s->u.cache.has_name = true;
    DL_TRY(dl_sql_parse_name(p, "a table name", &s->u.cache.name));
    if (dl_sql_accept_kw(p, DL_SQL_KW_OPTIONS)) {
        dl_sql_prop_list options;
        DL_TRY(dl_sql_parse_props(p, true, &options));
    }
    if (!dl_sql_at_end(p)) {
        return dl_sql_fail_tok(p, dl_sql_tok(p), DL_ERR_UNSUPPORTED,
                               "CACHE TABLE ... AS query is not supported: write CREATE TEMP VIEW "
                               "name AS query (deltalite keeps no cache)");
    }
    return DL_OK;
}

/* ANALYZE TABLE t [PARTITION (...)] COMPUTE STATISTICS [NOSCAN | FOR COLUMNS a, ... | FOR ALL
 * COLUMNS] (ANALYZE consumed). */
static dl_status
parse_analyze(dl_sql_parser *p, dl_sql_stmt *s) {
    s->u.cache.kind = DL_SQL_CACHE_ANALYZE;
    DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_TABLE));
    s->u.cache.has_name = true;
    DL_TRY(dl_sql_parse_name(p, "a table name", &s->u.cache.name));
    dl_sql_partition_spec part;
    DL_TRY(dl_sql_parse_partition_spec(p, &part));
    DL_TRY(expect_word(p, "COMPUTE"));
    DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_STATISTICS));
    if (dl_sql_tok_is_word(p, dl_sql_tok(p), "NOSCAN")) {
        dl_sql_advance(p);
    } else if (dl_sql_accept_kw(p, DL_SQL_KW_FOR)) {
        if (dl_sql_accept_kw(p, DL_SQL_KW_ALL)) {
            return dl_sql_expect_kw(p, DL_SQL_KW_COLUMNS);
        }
        DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_COLUMNS));
        do {
            dl_sql_name column;
            DL_TRY(dl_sql_parse_name(p, "a column name", &column));
        } while (dl_sql_accept(p, DL_SQL_TOK_COMMA));
    }
    return DL_OK;
}

dl_status
dl_sql_parse_cache(dl_sql_parser *p, dl_sql_stmt *s) {
    s->kind = DL_SQL_STMT_CACHE;
    const dl_sql_token *first = dl_sql_tok(p);
    dl_sql_advance(p);
    if (first->kw == DL_SQL_KW_CACHE) {
        return parse_cache_table(p, s);
    }
    if (first->kw == DL_SQL_KW_ANALYZE) {
        return parse_analyze(p, s);
    }
    if (first->kw != DL_SQL_KW_UNCACHE && first->kw != DL_SQL_KW_REFRESH) {
        s->u.cache.kind = DL_SQL_CACHE_CLEAR; /* CLEAR */
        return dl_sql_expect_kw(p, DL_SQL_KW_CACHE);
    }
    bool is_refresh = first->kw == DL_SQL_KW_REFRESH;
    s->u.cache.kind = is_refresh ? DL_SQL_CACHE_REFRESH : DL_SQL_CACHE_UNCACHE;
    if (is_refresh) {
        (void)dl_sql_accept_kw(p, DL_SQL_KW_TABLE);
    } else {
        DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_TABLE));
        if (dl_sql_accept_kw(p, DL_SQL_KW_IF)) {
            DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_EXISTS));
            s->u.cache.if_exists = true;
        }
    }
    s->u.cache.has_name = true;
    return dl_sql_parse_name(p, "a table name", &s->u.cache.name);
}
