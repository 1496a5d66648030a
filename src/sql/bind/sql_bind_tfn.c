/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Table functions in FROM (sql_bind_int.h):
 *
 *   range(end) | range(start, end [, step [, partitions]])   one BIGINT column `id`
 *   read_parquet('path' | 'dir/glob*.parquet' | ['a', 'b'])  the files' columns
 *   read_csv('path' | 'dir' | 'glob' | [...], option => value, ...)   (sql_bind_load.c)
 *   read_json(...) likewise                                           (sql_bind_load.c)
 *   delta_log('table' | 'path')                              the raw log (sql_describe.c)
 *   delta_files('table' | 'path' [, version | timestamp])    a snapshot's files
 *   table_changes('table', start [, end])                    the change data feed
 *                                                            (sql_table_changes.c)
 *
 * Paths are absolute or relative to the working directory; a '*', '?' or '[' in the last
 * component makes it a pattern over that folder's files (fnmatch rules); a folder means its
 * files but those starting with '_' or '.' (Spark's rule). For read_parquet every file must
 * have the first file's columns.
 */
#include <fnmatch.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "parquet/pq_reader.h"
#include "sql/bind/sql_bind_int.h"

/* ---- range ----------------------------------------------------------------------------------- */

static dl_status
const_i64(dl_sql_binder *b, const dl_sql_expr *ast, int64_t *out, dl_error *err) {
    dl_sql_scope empty = {0};
    dl_sql_bctx cx = {.b = b, .scope = &empty, .clause = "range()"};
    dl_sql_bexpr *e = NULL;
    DL_TRY(dl_sql_binder_expr(&cx, ast, &e, err));
    if (!dl_sql_bexpr_is_constant(e)) {
        DL_SQL_BIND_FAIL(b, ast->loc, DL_ERR_SQL_BIND, err, "range() needs constant arguments");
    }
    bool is_null = false;
    DL_TRY(dl_sql_binder_const_i64(b, e, dl_vec_type_prim(DL_VEC_TYPE_LONG), out, &is_null, err));
    if (is_null) {
        DL_SQL_BIND_FAIL(b, ast->loc, DL_ERR_SQL_BIND, err, "range() arguments must not be NULL");
    }
    return DL_OK;
}

static dl_status
bind_range(dl_sql_binder *b, const dl_sql_tref *tref, dl_sql_plan **out, dl_error *err) {
    const dl_sql_expr_list *args = &tref->u.func.args;
    if (args->n < 1 || args->n > 4) {
        DL_SQL_BIND_FAIL(b, tref->loc, DL_ERR_SQL_BIND, err,
                         "[WRONG_NUM_ARGS] range takes 1 to 4 arguments, %u given",
                         (unsigned)args->n);
    }
    int64_t v[3] = {0, 0, 1};
    if (args->n == 1) {
        DL_TRY(const_i64(b, args->items[0], &v[1], err));
    } else {
        for (uint32_t i = 0; i < DL_MIN(args->n, 3u); i++) {
            DL_TRY(const_i64(b, args->items[i], &v[i], err));
        }
    }
    if (v[2] == 0) {
        DL_SQL_BIND_FAIL(b, tref->loc, DL_ERR_SQL_BIND, err,
                         "[FAILED_FUNCTION_CALL] range: the step must not be 0");
    }
    dl_type_field col = {.name = "id", .type = dl_vec_type_prim(DL_VEC_TYPE_LONG)};
    dl_sql_plan *p = NULL;
    DL_TRY(dl_sql_plan_new(b->arena, DL_SQL_PLAN_RANGE, &col, 1, &p, err));
    p->u.range = (dl_sql_range){.start = v[0], .end = v[1], .step = v[2]};
    p->loc = tref->loc;
    double span = (double)v[1] - (double)v[0];
    p->est_rows = span / (double)v[2] > 0 ? span / (double)v[2] : 0;
    *out = p;
    return DL_OK;
}

/* ---- read_parquet -----------------------------------------------------------------------------
 */

static dl_status
push_path(dl_sql_binder *b, dl_sql_path_list *l, const char *path, dl_error *err) {
    if (l->n == l->cap) {
        int32_t cap = l->cap == 0 ? 16 : 2 * l->cap;
        const char **grown = dl_arena_alloc_zero(b->arena, (size_t)cap * sizeof(char *));
        DL_CHECK(grown != NULL, err, DL_ERR_NOMEM, "out of memory listing files");
        if (l->n > 0) {
            memcpy(grown, l->items, (size_t)l->n * sizeof(char *));
        }
        l->items = grown;
        l->cap = cap;
    }
    l->items[l->n++] = path;
    return DL_OK;
}

/* Drops "." components, empty ones and each ".." with the component before it (lexically, as
 * a shell's cd does; ".." above the root stays at the root), in place. */
static void
canonical_path(char *p) {
    size_t w = 0;
    for (char *seg = p; *seg != '\0';) {
        char *end = strchr(seg, '/');
        size_t n = end != NULL ? (size_t)(end - seg) : strlen(seg);
        if (n == 2 && seg[0] == '.' && seg[1] == '.') {
            while (w > 0 && p[w - 1] != '/') {
                w--;
            }
            w = w > 0 ? w - 1 : 0;
        } else if (n > 0 && !(n == 1 && seg[0] == '.')) {
            if (w > 0) {
                p[w++] = '/';
            }
            memmove(p + w, seg, n);
            w += n;
        }
        seg += n + (end != NULL ? 1 : 0);
    }
    p[w] = '\0';
}

/* path made absolute, canonical and relative to "/" (the statement's root store). */
dl_status
dl_sql_store_path(dl_sql_binder *b, dl_str path, const char **out, dl_error *err) {
    char *full = NULL;
    if (path.len > 0 && path.ptr[0] == '/') {
        full = dl_arena_strndup(b->arena, path.ptr + 1, path.len - 1);
    } else {
        char cwd[PATH_MAX];
        DL_CHECK(getcwd(cwd, sizeof(cwd)) != NULL, err, DL_ERR_IO,
                 "cannot read the working directory");
        full = dl_arena_printf(b->arena, "%s/%.*s", cwd + 1, DL_STR_FMT(path));
    }
    DL_CHECK(full != NULL, err, DL_ERR_NOMEM, "out of memory resolving a path");
    canonical_path(full);
    *out = full;
    return DL_OK;
}

static void
release_store(void *ctx) {
    dl_store_free(ctx);
}

dl_status
dl_sql_root_store(dl_sql_binder *b, dl_store **out, dl_error *err) {
    /* A warehouse opened read-only makes this store read-only too: COPY TO writes through it. */
    dl_store_local_options opts = {.is_readonly =
                                       b->exec->store != NULL && b->exec->store->is_readonly};
    DL_TRY(dl_store_local_new("/", &opts, out, err));
    dl_status s = dl_arena_on_reset(b->arena, release_store, *out, err);
    if (s != DL_OK) {
        dl_store_free(*out);
    }
    return s;
}

/* The files of folder dir (store-relative, ending in '/') whose names match pattern (NULL:
 * every file not starting with '_' or '.', as Spark skips _SUCCESS and hidden files). */
static dl_status
list_folder(dl_sql_binder *b, dl_store *store, const char *dir, const char *pattern, uint32_t loc,
            dl_sql_path_list *l, dl_error *err) {
    dl_store_listing listing = {0};
    dl_status s = dl_store_list(store, dir, NULL, 0, b->arena, &listing, err);
    if (s != DL_OK) {
        dl_sql_binder_locate(b, loc, err);
        return s;
    }
    for (size_t i = 0; i < listing.count; i++) {
        const char *p = listing.entries[i].path.ptr;
        const char *name = strrchr(p, '/');
        name = name != NULL ? name + 1 : p;
        bool is_match =
            pattern != NULL ? fnmatch(pattern, name, 0) == 0 : name[0] != '_' && name[0] != '.';
        if (!listing.entries[i].is_dir && is_match) {
            DL_TRY(push_path(b, l, p, err));
        }
    }
    return DL_OK;
}

/* One path, folder or pattern, expanded into l. */
static dl_status
expand_path(dl_sql_binder *b, dl_store *store, dl_str text, uint32_t loc, const char *fn,
            dl_sql_path_list *l, dl_error *err) {
    const char *full = NULL;
    DL_TRY(dl_sql_store_path(b, text, &full, err));
    const char *slash = strrchr(full, '/');
    const char *base = slash != NULL ? slash + 1 : full;
    int32_t before = l->n;
    if (strpbrk(base, "*?[") == NULL) {
        dl_store_info info = {0};
        dl_error ignored;
        if (dl_store_stat(store, full, &info, &ignored) != DL_OK || !info.is_dir) {
            return push_path(b, l, full, err);
        }
        const char *dir = dl_arena_printf(b->arena, "%s/", full);
        DL_CHECK(dir != NULL, err, DL_ERR_NOMEM, "out of memory listing files");
        DL_TRY(list_folder(b, store, dir, NULL, loc, l, err));
    } else {
        const char *dir =
            slash != NULL ? dl_arena_strndup(b->arena, full, (size_t)(slash - full + 1)) : "";
        DL_CHECK(dir != NULL, err, DL_ERR_NOMEM, "out of memory listing files");
        DL_TRY(list_folder(b, store, dir, base, loc, l, err));
    }
    if (l->n == before) {
        DL_SQL_BIND_FAIL(b, loc, DL_ERR_NOT_FOUND, err, "%s: no file matches '%.*s'", fn,
                         DL_STR_FMT(text));
    }
    return DL_OK;
}

dl_status
dl_sql_bind_paths(dl_sql_binder *b, dl_store *store, const dl_sql_expr *arg, const char *fn,
                  dl_sql_path_list *l, dl_error *err) {
    bool is_list = arg->kind == DL_SQL_EXPR_FUNC && arg->u.func.name.n_parts == 1 &&
                   dl_str_eq_nocase(arg->u.func.name.parts[0].name, DL_STR("array"));
    uint32_t n = is_list ? arg->u.func.args.n : 1;
    for (uint32_t i = 0; i < n; i++) {
        const dl_sql_expr *e = is_list ? arg->u.func.args.items[i] : arg;
        if (e->kind != DL_SQL_EXPR_LITERAL || e->u.lit.kind != DL_SQL_LIT_STRING) {
            DL_SQL_BIND_FAIL(b, e->loc, DL_ERR_SQL_BIND, err,
                             "%s takes a path string or a list of them", fn);
        }
        DL_TRY(expand_path(b, store, e->u.lit.text, e->loc, fn, l, err));
    }
    return DL_OK;
}

/* Why a file's column cannot be read (the first unsupported one). */
static dl_status
unsupported_column(const dl_pq_field *root, const char *path, dl_error *err) {
    for (size_t i = 0; i < root->n_children; i++) {
        if (root->children[i]->type == NULL) {
            DL_FAIL(err, DL_ERR_UNSUPPORTED, "'/%s': column '%s': %s", path,
                    root->children[i]->name, root->children[i]->unsupported);
        }
    }
    DL_FAIL(err, DL_ERR_UNSUPPORTED, "'/%s': the file's schema is not supported", path);
}

/* The columns of the first file, copied into the statement arena (the file is closed). */
static dl_status
parquet_schema(dl_sql_binder *b, dl_store *store, const char *path, const dl_type **out,
               dl_error *err) {
    dl_pq_file *f = NULL;
    DL_TRY(dl_sql_pq_open(store, path, b->exec->alloc, &f, err));
    const dl_pq_field *root = dl_pq_file_root(f);
    dl_status s = root->type == NULL ? unsupported_column(root, path, err)
                                     : dl_sql_type_copy(b->arena, root->type, out, err);
    dl_pq_file_free(f);
    return s;
}

static dl_status
bind_read_parquet(dl_sql_binder *b, const dl_sql_tref *tref, dl_sql_plan **out, dl_error *err) {
    if (tref->u.func.args.n != 1) {
        DL_SQL_BIND_FAIL(b, tref->loc, DL_ERR_SQL_BIND, err,
                         "[WRONG_NUM_ARGS] read_parquet takes 1 argument, %u given",
                         (unsigned)tref->u.func.args.n);
    }
    dl_store *store = NULL;
    DL_TRY(dl_sql_root_store(b, &store, err));
    dl_sql_path_list l = {0};
    DL_TRY(dl_sql_bind_paths(b, store, tref->u.func.args.items[0], "read_parquet", &l, err));
    DL_CHECK(l.n > 0, err, DL_ERR_NOT_FOUND, "read_parquet: no file to read");
    const dl_type *type = NULL;
    dl_status s = parquet_schema(b, store, l.items[0], &type, err);
    if (s != DL_OK) {
        dl_sql_binder_locate(b, tref->loc, err);
        return s;
    }
    DL_CHECK(type != NULL, err, DL_ERR_INTERNAL, "read_parquet: no schema");
    dl_sql_plan *p = NULL;
    DL_TRY(dl_sql_plan_new(b->arena, DL_SQL_PLAN_SCAN, type->fields, type->n_fields, &p, err));
    dl_sql_scan *scan = &p->u.scan;
    scan->source = DL_SQL_SCAN_PARQUET;
    scan->table_name = "read_parquet";
    scan->paths = l.items;
    scan->n_paths = l.n;
    scan->store = store;
    scan->table_schema = type;
    scan->n_columns = type->n_fields;
    scan->columns = dl_arena_alloc_zero(b->arena, (size_t)(type->n_fields + 1) * sizeof(int32_t));
    DL_CHECK(scan->columns != NULL, err, DL_ERR_NOMEM, "out of memory planning a scan");
    for (int32_t i = 0; i < type->n_fields; i++) {
        scan->columns[i] = i;
    }
    scan->limit = -1;
    p->loc = tref->loc;
    *out = p;
    return DL_OK;
}

dl_status
dl_sql_binder_table_fn(dl_sql_binder *b, const dl_sql_tref *tref, dl_sql_rel *out, dl_error *err) {
    const dl_sql_name *n = &tref->u.func.name;
    dl_str name = n->parts[n->n_parts - 1].name;
    if (dl_str_eq_nocase(name, DL_STR("range"))) {
        DL_TRY(bind_range(b, tref, &out->plan, err));
    } else if (dl_str_eq_nocase(name, DL_STR("read_parquet"))) {
        DL_TRY(bind_read_parquet(b, tref, &out->plan, err));
    } else if (dl_str_eq_nocase(name, DL_STR("read_csv"))) {
        DL_TRY(dl_sql_binder_read_csv(b, tref, &out->plan, err));
    } else if (dl_str_eq_nocase(name, DL_STR("read_json"))) {
        DL_TRY(dl_sql_binder_read_json(b, tref, &out->plan, err));
    } else if (dl_str_eq_nocase(name, DL_STR("delta_log"))) {
        DL_TRY(dl_sql_binder_delta_log(b, tref, &out->plan, err));
    } else if (dl_str_eq_nocase(name, DL_STR("delta_files"))) {
        DL_TRY(dl_sql_binder_delta_files(b, tref, &out->plan, err));
    } else if (dl_str_eq_nocase(name, DL_STR("table_changes"))) {
        DL_TRY(dl_sql_binder_table_changes(b, tref, &out->plan, err));
    } else {
        DL_SQL_BIND_FAIL(b, tref->loc, DL_ERR_SQL_BIND, err,
                         "[UNRESOLVABLE_TABLE_VALUED_FUNCTION] table function '%.*s' not "
                         "found (there are range, read_parquet, read_csv, read_json, delta_log, "
                         "delta_files and table_changes)",
                         DL_STR_FMT(name));
    }
    DL_TRY(dl_sql_plan_rename(b, out->plan, &tref->column_aliases, tref->loc, &out->plan, err));
    const char *qual = tref->has_alias ? tref->alias.name.ptr : NULL;
    return dl_sql_scope_of(b, out->plan, qual, &out->scope, err);
}
