/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Statements about the session and the catalog (sql_bind_int.h): SET and RESET, USE, CREATE
 * SCHEMA, and SHOW TABLES / SCHEMAS / FUNCTIONS; plus the ROWS plans that show fixed rows.
 *
 * Result columns as Spark names them: SET gives (key, value); SHOW TABLES (namespace,
 * tableName, isTemporary); SHOW SCHEMAS (namespace); SHOW FUNCTIONS (function). A LIKE
 * pattern follows Spark: '*' matches any characters, '|' separates alternatives, and the
 * match ignores case.
 */
#include <stdlib.h>
#include <string.h>

#include "sql/commands/sql_dml.h"
#include "sql/func/sql_func.h"

/* ---- SET / RESET ----------------------------------------------------------------------------- */

static int
compare_rows(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* SET -v: every key deltalite knows, sorted, with the value in force (set, or the default),
 * what it means and the release it came with -- Spark's (key, value, meaning, Since version). */
static dl_status
list_known_settings(dl_sql_binder *b, dl_sql_plan **out, dl_error *err) {
    static const char *const names[] = {"key", "value", "meaning", "Since version"};
    size_t n = 0;
    dl_sql_setting_doc doc;
    while (dl_sql_session_known(n, &doc)) {
        n++;
    }
    const char **values = dl_arena_alloc_zero(b->arena, (4 * n + 4) * sizeof(char *));
    DL_CHECK(values != NULL, err, DL_ERR_NOMEM, "out of memory listing settings");
    for (size_t i = 0; dl_sql_session_known(i, &doc); i++) {
        const char *v = dl_sql_session_get(b->session, doc.key);
        values[4 * i] = doc.key;
        values[4 * i + 1] = v != NULL ? v : "<undefined>";
        values[4 * i + 2] = doc.meaning;
        values[4 * i + 3] = doc.since;
    }
    qsort((void *)values, n, 4 * sizeof(char *), compare_rows);
    return dl_sql_plan_strings(b, names, 4, values, (int64_t)n, out, err);
}

/* SET alone: the keys set in this session, sorted by key (Spark's SET lists its explicitly set
 * configuration sorted). */
static dl_status
list_set_settings(dl_sql_binder *b, dl_sql_plan **out, dl_error *err) {
    static const char *const names[] = {"key", "value"};
    const dl_sql_session *session = b->session;
    int32_t n = session->n_settings;
    const char **values = dl_arena_alloc_zero(b->arena, (size_t)(2 * n + 2) * sizeof(char *));
    DL_CHECK(values != NULL, err, DL_ERR_NOMEM, "out of memory listing settings");
    for (int64_t i = 0; i < n; i++) {
        values[2 * i] = session->settings[i].key;
        values[2 * i + 1] = session->settings[i].value;
    }
    qsort((void *)values, (size_t)n, 2 * sizeof(char *), compare_rows);
    return dl_sql_plan_strings(b, names, 2, values, n, out, err);
}

static dl_status
exec_set(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_sql_plan **out, dl_error *err) {
    static const char *const names[] = {"key", "value"};
    if (!stmt->u.set.has_key) {
        return list_set_settings(b, out, err);
    }
    const char *key = stmt->u.set.key.ptr;
    if (!stmt->u.set.has_value && strcmp(key, "-v") == 0) {
        return list_known_settings(b, out, err);
    }
    if (!stmt->u.set.has_value) {
        const char *v = dl_sql_session_get(b->session, key);
        const char *values[2] = {key, v != NULL ? v : "<undefined>"};
        return dl_sql_plan_strings(b, names, 2, values, 1, out, err);
    }
    dl_status s = dl_sql_session_set(b->session, key, stmt->u.set.value.ptr, err);
    if (s != DL_OK) {
        dl_sql_binder_locate(b, stmt->loc, err);
    }
    return s;
}

/* ---- USE, CREATE SCHEMA, SHOW ------------------------------------------------------------------
 */

static unsigned char
lower_ascii(char c) {
    unsigned char u = (unsigned char)c;
    return u >= 'A' && u <= 'Z' ? (unsigned char)(u + ('a' - 'A')) : u;
}

/* A glob with '*' (any run) and '?' (one character), ignoring ASCII case. */
static bool
glob_nocase(const char *p, const char *s) {
    const char *star = NULL;
    const char *resume = NULL;
    while (*s != '\0') {
        if (*p == '*') {
            star = p++;
            resume = s;
        } else if (*p != '\0' && (*p == '?' || lower_ascii(*p) == lower_ascii(*s))) {
            p++;
            s++;
        } else if (star != NULL) {
            p = star + 1;
            s = ++resume;
        } else {
            return false;
        }
    }
    while (*p == '*') {
        p++;
    }
    return *p == '\0';
}

/* Spark's SHOW ... LIKE pattern: alternatives separated by '|', '*' any run, case-blind. */
bool
dl_sql_show_pattern_match(const char *pattern, const char *name) {
    char alt[256];
    const char *p = pattern;
    for (;;) {
        const char *bar = strchr(p, '|');
        size_t len = bar != NULL ? (size_t)(bar - p) : strlen(p);
        if (len < sizeof(alt)) {
            size_t k = 0;
            for (size_t i = 0; i < len; i++) {
                if (p[i] != ' ') {
                    alt[k++] = p[i];
                }
            }
            alt[k] = '\0';
            if (glob_nocase(alt, name)) {
                return true;
            }
        }
        if (bar == NULL) {
            return false;
        }
        p = bar + 1;
    }
}

typedef struct name_list {
    dl_sql_binder *b;
    const char **items;
    int64_t n;
    int64_t cap;
    const char *prefix;  /* SHOW TABLES: the namespace column */
    bool is_temp;        /* SHOW TABLES: the rows are temporary relations */
    int32_t per_row;     /* strings per row */
    const char *pattern; /* LIKE pattern, or NULL */
} name_list;

static dl_status
collect_name(void *vctx, const char *name, dl_error *err) {
    name_list *l = vctx;
    if (l->n + l->per_row > l->cap) {
        int64_t cap = l->cap == 0 ? 64 : 2 * l->cap;
        const char **grown = dl_arena_alloc_zero(l->b->arena, (size_t)cap * sizeof(char *));
        DL_CHECK(grown != NULL, err, DL_ERR_NOMEM, "out of memory listing names");
        if (l->n > 0) {
            memcpy(grown, l->items, (size_t)l->n * sizeof(char *));
        }
        l->items = grown;
        l->cap = cap;
    }
    if (l->pattern != NULL && !dl_sql_show_pattern_match(l->pattern, name)) {
        return DL_OK;
    }
    const char *copy = dl_arena_strndup(l->b->arena, name, strlen(name));
    DL_CHECK(copy != NULL, err, DL_ERR_NOMEM, "out of memory listing names");
    if (l->per_row == 3) {
        l->items[l->n++] = l->prefix;
        l->items[l->n++] = copy;
        l->items[l->n++] = l->is_temp ? "true" : "false";
    } else {
        l->items[l->n++] = copy;
    }
    return DL_OK;
}

static const char *
show_pattern(const dl_sql_stmt *stmt) {
    return stmt->u.show.has_pattern ? stmt->u.show.pattern.ptr : NULL;
}

/* The registry's names; a visit cannot fail, so an allocation failure is remembered. */
typedef struct fn_names {
    name_list list;
    bool failed;
    dl_error err;
} fn_names;

static void
visit_fn(void *vctx, const dl_sql_fn_def *def) {
    fn_names *f = vctx;
    if (!f->failed && collect_name(&f->list, def->name, &f->err) != DL_OK) {
        f->failed = true;
    }
}

/* SHOW [USER | SYSTEM | ALL] FUNCTIONS [LIKE pattern]: the registry plus the engine's own. */
static dl_status
show_functions(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_sql_plan **out, dl_error *err) {
    static const char *const names[] = {"function"};
    static const char *const engine_fns[] = {"coalesce", "grouping", "grouping_id", "if",
                                             "iff",      "ifnull",   "nullif",      "nvl",
                                             "nvl2",     "typeof"};
    fn_names f = {.list = {.b = b, .per_row = 1, .pattern = show_pattern(stmt)}};
    dl_sql_fn_foreach(visit_fn, &f);
    if (f.failed) {
        *err = f.err;
        return DL_ERR_NOMEM;
    }
    for (size_t i = 0; i < sizeof(engine_fns) / sizeof(engine_fns[0]); i++) {
        DL_TRY(collect_name(&f.list, engine_fns[i], err));
    }
    name_list *l = &f.list;
    if (l->n > 1) {
        qsort((void *)l->items, (size_t)l->n, sizeof(char *), compare_rows);
    }
    int64_t kept = 0;
    for (int64_t i = 0; i < l->n; i++) {
        if (kept == 0 || strcmp(l->items[kept - 1], l->items[i]) != 0) {
            l->items[kept++] = l->items[i];
        }
    }
    return dl_sql_plan_strings(b, names, 1, l->items, kept, out, err);
}

/* SHOW TABLES [IN schema] [LIKE pattern]: the schema's tables and views by name (IN
 * global_temp: the GLOBAL TEMP views), then the session's temporary views and relations. */
static dl_status
show_tables(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_sql_plan **out, dl_error *err) {
    static const char *const names[] = {"namespace", "tableName", "isTemporary"};
    dl_sql_catalog *cat = &b->session->catalog;
    name_list own = {.b = b, .per_row = 1, .pattern = show_pattern(stmt)};
    const char *schema = stmt->u.show.has_name
                             ? stmt->u.show.name.parts[stmt->u.show.name.n_parts - 1].name.ptr
                             : NULL;
    bool is_global =
        schema != NULL && dl_str_eq_nocase(dl_str_from_cstr(schema), DL_STR("global_temp"));
    const char *current = cat->current_schema != NULL ? cat->current_schema(cat->ctx) : NULL;
    const char *prefix = schema != NULL ? schema : (current != NULL ? current : "default");
    if (is_global) {
        DL_TRY(dl_sql_temp_list(b->session->global_temps, true, collect_name, &own, err));
    } else {
        DL_CHECK(cat->list_tables != NULL, err, DL_ERR_UNSUPPORTED, "no catalog to list");
        DL_TRY(cat->list_tables(cat->ctx, schema, collect_name, &own, err));
        if (cat->list_views != NULL) {
            DL_TRY(cat->list_views(cat->ctx, schema, collect_name, &own, err));
        }
        if (own.n > 1) {
            qsort((void *)own.items, (size_t)own.n, sizeof(char *), compare_rows);
        }
    }
    name_list l = {.b = b, .per_row = 3, .prefix = prefix, .is_temp = is_global};
    for (int64_t i = 0; i < own.n; i++) {
        DL_TRY(collect_name(&l, own.items[i], err));
    }
    l.prefix = ""; /* Spark: temporary views have no namespace */
    l.is_temp = true;
    l.pattern = show_pattern(stmt);
    DL_TRY(dl_sql_session_list_temp_rels(b->session, collect_name, &l, err));
    return dl_sql_plan_strings(b, names, 3, l.items, l.n / 3, out, err);
}

static dl_status
show_schemas(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_sql_plan **out, dl_error *err) {
    static const char *const names[] = {"namespace"};
    dl_sql_catalog *cat = &b->session->catalog;
    name_list l = {.b = b, .per_row = 1, .pattern = show_pattern(stmt)};
    DL_CHECK(cat->list_schemas != NULL, err, DL_ERR_UNSUPPORTED, "no catalog to list");
    DL_TRY(cat->list_schemas(cat->ctx, collect_name, &l, err));
    return dl_sql_plan_strings(b, names, 1, l.items, l.n, out, err);
}

static dl_status
exec_show(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_sql_plan **out, dl_error *err) {
    switch (stmt->u.show.kind) {
    case DL_SQL_SHOW_TABLES:
        return show_tables(b, stmt, out, err);
    case DL_SQL_SHOW_SCHEMAS:
        return show_schemas(b, stmt, out, err);
    case DL_SQL_SHOW_VIEWS:
        return dl_sql_show_views(b, stmt, out, err);
    case DL_SQL_SHOW_FUNCTIONS:
        return show_functions(b, stmt, out, err);
    case DL_SQL_SHOW_TBLPROPERTIES:
    case DL_SQL_SHOW_COLUMNS:
    case DL_SQL_SHOW_CREATE_TABLE:
    case DL_SQL_SHOW_PARTITIONS:
        return dl_sql_binder_show_table(b, stmt, out, err);
    default:
        break;
    }
    DL_SQL_BIND_FAIL(b, stmt->loc, DL_ERR_UNSUPPORTED, err,
                     "this SHOW statement is not supported yet");
}

/* USE schema and CREATE SCHEMA [IF NOT EXISTS] through the catalog. */
static dl_status
exec_schema(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_error *err) {
    dl_sql_catalog *cat = &b->session->catalog;
    bool is_use = stmt->kind == DL_SQL_STMT_USE;
    const dl_sql_name *n = is_use ? &stmt->u.use.name : &stmt->u.create_schema.name;
    const char *name = n->parts[n->n_parts - 1].name.ptr;
    dl_status s;
    if (is_use) {
        DL_CHECK(cat->use_schema != NULL, err, DL_ERR_UNSUPPORTED, "no catalog for USE");
        s = cat->use_schema(cat->ctx, name, err);
    } else {
        DL_CHECK(cat->create_schema != NULL, err, DL_ERR_UNSUPPORTED,
                 "no catalog for CREATE SCHEMA");
        s = cat->create_schema(cat->ctx, name, stmt->u.create_schema.if_not_exists, err);
    }
    if (s != DL_OK) {
        dl_sql_binder_locate(b, n->parts[0].loc, err);
    }
    return s;
}

dl_status
dl_sql_exec_admin(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_sql_plan **out, dl_error *err) {
    *out = NULL;
    switch (stmt->kind) {
    case DL_SQL_STMT_SET:
        return exec_set(b, stmt, out, err);
    case DL_SQL_STMT_RESET:
        dl_sql_session_reset(b->session, stmt->u.reset.has_key ? stmt->u.reset.key.ptr : NULL);
        return DL_OK;
    case DL_SQL_STMT_USE:
    case DL_SQL_STMT_CREATE_SCHEMA:
        return exec_schema(b, stmt, err);
    default:
        return exec_show(b, stmt, out, err);
    }
}

/* ---- CACHE, UNCACHE, REFRESH, CLEAR CACHE, ANALYZE --------------------------------------------
 */

/* Whether name resolves to a table or view (bound as FROM name would be, then dropped). */
static dl_status
check_relation(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_error *err) {
    dl_sql_tref tref = {.kind = DL_SQL_TREF_TABLE, .loc = stmt->u.cache.name.parts[0].loc};
    tref.u.table.name = stmt->u.cache.name;
    dl_sql_rel rel = {0};
    dl_status s = dl_sql_binder_table(b, &tref, &rel, err);
    if (s == DL_ERR_NOT_FOUND && stmt->u.cache.if_exists) {
        dl_error_clear(err);
        return DL_OK;
    }
    return s;
}

dl_status
dl_sql_exec_cache(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_sql_plan **out, dl_error *err) {
    *out = NULL;
    if (stmt->u.cache.has_name) {
        DL_TRY(check_relation(b, stmt, err));
    }
    const char *text = NULL;
    switch (stmt->u.cache.kind) {
    case DL_SQL_CACHE_TABLE:
        text = "CACHE TABLE did nothing: deltalite keeps no cache, and every statement reads the "
               "table from its files";
        break;
    case DL_SQL_CACHE_UNCACHE:
        text = "UNCACHE TABLE did nothing: deltalite keeps no cache";
        break;
    case DL_SQL_CACHE_REFRESH:
        text = "REFRESH TABLE did nothing: every statement reads the table's latest version";
        break;
    case DL_SQL_CACHE_CLEAR:
        text = "CLEAR CACHE did nothing: deltalite keeps no cache";
        break;
    default:
        text = "ANALYZE TABLE computed nothing: deltalite plans with the per-file statistics of "
               "the Delta log (Spark 4.2 with Delta refuses ANALYZE TABLE on a Delta table)";
        break;
    }
    return dl_sql_notice(b, text, out, err);
}
