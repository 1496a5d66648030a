/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Column name resolution (sql_bind_int.h, "Names"): dotted names against a scope and its
 * enclosing scopes, struct field access for the parts left over, and "did you mean"
 * suggestions for names that do not resolve.
 */
#include <stdio.h>
#include <string.h>

#include "sql/bind/sql_bind_int.h"

static bool
name_eq(const char *a, dl_str c) {
    return a != NULL && dl_str_eq_nocase(dl_str_from_cstr(a), c);
}

/* Columns of scope matching parts[0..n_qual) as qualifiers and parts[n_qual] as the name. */
static int32_t
match_cols(const dl_sql_scope *scope, const dl_sql_ident *parts, uint32_t n_qual,
           int32_t *out_first) {
    int32_t n = 0;
    for (int32_t i = 0; i < scope->n; i++) {
        const dl_sql_bcol *c = &scope->cols[i];
        if (!name_eq(c->name, parts[n_qual].name)) {
            continue;
        }
        bool ok = false;
        if (n_qual == 0) {
            ok = !c->is_hidden;
        } else if (n_qual == 1) {
            ok = name_eq(c->qual, parts[0].name);
        } else {
            ok = name_eq(c->schema, parts[0].name) && name_eq(c->qual, parts[1].name);
        }
        if (ok) {
            if (n == 0) {
                *out_first = i;
            } else if (scope->cols[*out_first].index == c->index) {
                continue; /* the same input column reached twice (USING) */
            }
            n++;
        }
    }
    return n;
}

/* FIELD accesses for parts[0..n) on base. */
static dl_status
field_chain(dl_sql_binder *b, dl_sql_bexpr *base, const dl_sql_ident *parts, uint32_t n,
            dl_sql_bexpr **out, dl_error *err) {
    for (uint32_t i = 0; i < n; i++) {
        const dl_type *t = base->type;
        if (t->id != DL_VEC_TYPE_STRUCT) {
            DL_SQL_BIND_FAIL(b, parts[i].loc, DL_ERR_SQL_BIND, err,
                             "[INVALID_EXTRACT_BASE_FIELD_TYPE] cannot read field '%s' of "
                             "a value of type %s",
                             parts[i].name.ptr, dl_vec_type_name(t->id));
        }
        int32_t f = -1;
        for (int32_t k = 0; k < t->n_fields && f < 0; k++) {
            if (name_eq(t->fields[k].name, parts[i].name)) {
                f = k;
            }
        }
        if (f < 0) {
            DL_SQL_BIND_FAIL(b, parts[i].loc, DL_ERR_SQL_BIND, err,
                             "[FIELD_NOT_FOUND] no field '%s' in the struct", parts[i].name.ptr);
        }
        dl_sql_bexpr *e =
            dl_sql_bexpr_new(b, DL_SQL_BEXPR_FIELD, t->fields[f].type, parts[i].loc, 1);
        DL_CHECK(e != NULL, err, DL_ERR_NOMEM, "out of memory binding a field");
        e->args[0] = base;
        e->field_index = f;
        base = e;
    }
    *out = base;
    return DL_OK;
}

static dl_status
ambiguous(dl_sql_binder *b, const dl_sql_scope *scope, const dl_sql_name *name, uint32_t n_qual,
          dl_error *err) {
    char list[512];
    size_t len = 0;
    list[0] = '\0';
    for (int32_t i = 0; i < scope->n && len + 80 < sizeof(list); i++) {
        const dl_sql_bcol *c = &scope->cols[i];
        if (name_eq(c->name, name->parts[n_qual].name) && !c->is_hidden) {
            len +=
                (size_t)snprintf(list + len, sizeof(list) - len, "%s'%s%s%s'", len > 0 ? ", " : "",
                                 c->qual ? c->qual : "", c->qual ? "." : "", c->name);
        }
    }
    DL_SQL_BIND_FAIL(b, name->parts[0].loc, DL_ERR_SQL_BIND, err,
                     "[AMBIGUOUS_REFERENCE] reference '%s' is ambiguous, could be: %s",
                     name->parts[n_qual].name.ptr, list);
}

/* Tries the splits of name (most qualifiers first) in one scope: *out_found false when none
 * matches. */
static dl_status
resolve_in(dl_sql_binder *b, const dl_sql_scope *scope, const dl_sql_name *name,
           dl_sql_bexpr_kind kind, int32_t depth, dl_sql_bexpr **out, bool *out_found,
           dl_error *err) {
    *out_found = false;
    uint32_t max_qual = DL_MIN(name->n_parts - 1, 2u);
    for (uint32_t q = max_qual + 1; q-- > 0;) {
        int32_t first = -1;
        int32_t n = match_cols(scope, name->parts, q, &first);
        if (n == 0) {
            continue;
        }
        if (n > 1) {
            return ambiguous(b, scope, name, q, err);
        }
        const dl_sql_bcol *c = &scope->cols[first];
        dl_sql_bexpr *e = dl_sql_bexpr_new(b, kind, c->type, name->parts[0].loc, 0);
        DL_CHECK(e != NULL, err, DL_ERR_NOMEM, "out of memory binding a column");
        e->index = c->index;
        e->depth = depth;
        e->name = c->name;
        *out_found = true;
        return field_chain(b, e, name->parts + q + 1, name->n_parts - q - 1, out, err);
    }
    return DL_OK;
}

/* Edit distance (case-blind), capped for speed. */
static size_t
distance(const char *a, const char *c) {
    size_t la = strlen(a);
    size_t lc = strlen(c);
    if (la > 63 || lc > 63) {
        return 64;
    }
    size_t row[64];
    for (size_t j = 0; j <= lc; j++) {
        row[j] = j;
    }
    for (size_t i = 1; i <= la; i++) {
        size_t prev = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lc; j++) {
            size_t cur = row[j];
            char x = (char)(a[i - 1] | 0x20);
            char y = (char)(c[j - 1] | 0x20);
            size_t sub = prev + (x == y ? 0 : 1);
            row[j] = DL_MIN(DL_MIN(row[j] + 1, row[j - 1] + 1), sub);
            prev = cur;
        }
    }
    return row[lc];
}

/* The visible column name closest to want, or NULL when none is close. */
const char *
dl_sql_scope_suggest(const dl_sql_scope *scope, const char *want) {
    const char *best = NULL;
    size_t best_d = SIZE_MAX;
    size_t limit = DL_MAX(strlen(want) / 2, 2);
    for (int32_t i = 0; i < scope->n; i++) {
        const dl_sql_bcol *c = &scope->cols[i];
        size_t d = distance(want, c->name);
        if (!c->is_hidden && d < best_d && d <= limit) {
            best = c->name;
            best_d = d;
        }
    }
    return best;
}

dl_status
dl_sql_binder_column(dl_sql_bctx *cx, const dl_sql_name *name, dl_sql_bexpr **out, dl_error *err) {
    bool found = false;
    const dl_sql_scope *scope = cx->scope;
    DL_TRY(resolve_in(cx->b, scope, name, DL_SQL_BEXPR_COLUMN, 0, out, &found, err));
    if (found) {
        return DL_OK;
    }
    int32_t depth = 1;
    for (const dl_sql_scope *o = scope->outer; o != NULL; o = o->outer, depth++) {
        DL_TRY(resolve_in(cx->b, o, name, DL_SQL_BEXPR_OUTER, depth, out, &found, err));
        if (found) {
            for (const dl_sql_scope *s = scope; s != NULL; s = s->outer) {
                if (s->is_correlated != NULL) {
                    *s->is_correlated = true;
                }
                if (s == o) {
                    break;
                }
            }
            return DL_OK;
        }
    }
    const dl_sql_ident *last = &name->parts[name->n_parts - 1];
    const char *hint = dl_sql_scope_suggest(scope, name->parts[0].name.ptr);
    if (name->n_parts > 1 && hint == NULL) {
        hint = dl_sql_scope_suggest(scope, last->name.ptr);
    }
    char full[256];
    size_t len = 0;
    full[0] = '\0';
    for (uint32_t i = 0; i < name->n_parts && len + 2 < sizeof(full); i++) {
        len += (size_t)snprintf(full + len, sizeof(full) - len, "%s%s", i > 0 ? "." : "",
                                name->parts[i].name.ptr);
    }
    if (hint != NULL) {
        DL_SQL_BIND_FAIL(cx->b, name->parts[0].loc, DL_ERR_SQL_BIND, err,
                         "[UNRESOLVED_COLUMN.WITH_SUGGESTION] column '%s' not found; did you "
                         "mean '%s'?",
                         full, hint);
    }
    /* Spark's subclass: WITH_SUGGESTION when there are columns to suggest. */
    DL_SQL_BIND_FAIL(cx->b, name->parts[0].loc, DL_ERR_SQL_BIND, err,
                     "[UNRESOLVED_COLUMN.%s] column '%s' not found in %s",
                     scope->n == 0 ? "WITHOUT_SUGGESTION" : "WITH_SUGGESTION", full,
                     scope->n == 0 ? "a query without FROM" : "the FROM clause");
}

dl_status
dl_sql_binder_field_path(dl_sql_binder *b, dl_sql_bexpr *base, const dl_sql_name *rest,
                         dl_sql_bexpr **out, dl_error *err) {
    return field_chain(b, base, rest->parts, rest->n_parts, out, err);
}
