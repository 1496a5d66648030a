/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The session's state as the binder and the statements see it (sql_session.c): the catalog,
 * the store, the allocators, the settings and the function registry.
 */
#ifndef DL_SQL_BIND_SQL_SESSION_INT_H
#define DL_SQL_BIND_SQL_SESSION_INT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/str.h"
#include "sql/bind/sql_session.h"
#include "sql/func/sql_func.h"
#include "sql/plan/sql_plan.h"

/* ---- sessions (sql_session.c) ------------------------------------------------------------- */

typedef const dl_sql_fn_def *(*dl_sql_fn_lookup_fn)(dl_str name);

typedef struct dl_sql_setting {
    char *key;
    char *value;
} dl_sql_setting;

struct dl_sql_session {
    dl_sql_catalog catalog;
    dl_store *store;
    const dl_allocator *alloc;
    const dl_allocator *exec_alloc; /* statements' vectors and tables (see sql_session.c) */
    dl_pool *pool;
    dl_sql_setting *settings; /* SET keys (owned strings), in the order first set */
    int32_t n_settings;
    int32_t cap_settings;
    dl_sql_fn_lookup_fn fn_lookup; /* dl_sql_fn_lookup unless a test replaced it */
    atomic_bool interrupt;         /* dl_sql_session_interrupt; cleared as a statement starts */
    /* The running statement's progress: parts (files, row groups) its scans finished and will
     * read (dl_sql_session_progress); zeroed as a statement starts. */
    _Atomic(int64_t) progress_done;
    _Atomic(int64_t) progress_total;
    dl_sql_temp_rel *temp_rels;    /* registered relations and temporary views (sql_temp_rel.c) */
    dl_sql_temp_rel *global_temps; /* GLOBAL TEMP views (schema global_temp) */
};

/* A view's definition (sql_view.c): what CREATE VIEW captured, all in one arena. */
typedef struct dl_sql_view {
    const char *name;   /* persistent views: folded as the catalog folds names */
    const char *schema; /* persistent: its schema; global temporary: global_temp; else NULL */
    const char *text;   /* the query's SQL text (Spark's viewText) */
    const char *current_schema; /* the schema current at creation: the query's unqualified names */
    dl_delta_schema columns;    /* the view's columns: its names, the types captured at creation */
    const char **query_names;   /* per column: the query's output column it was made from */
    const char **comments;      /* per column: its comment, or NULL */
    const char *comment;        /* COMMENT, or NULL */
    const char **prop_keys;     /* TBLPROPERTIES */
    const char **prop_values;
    int32_t n_props;
    int64_t created_ms;
    bool is_temp; /* TEMP or GLOBAL TEMP: lives for the session */
} dl_sql_view;

/* The JSON a persistent view is stored as (sql_view.c documents it), appended to out. */
DL_NODISCARD dl_status dl_sql_view_encode(const dl_sql_view *view, dl_buf *out, dl_error *err);

/* A definition from its JSON, into arena; CORRUPT / UNSUPPORTED naming what (the view). */
DL_NODISCARD dl_status dl_sql_view_decode(dl_arena *arena, const char *what, dl_str text,
                                          dl_sql_view *out, dl_error *err);

/* A temporary relation holding the view (copied into the relation's arena, is_temp set): one
 * reference, to register with dl_sql_session_register[_global]. */
DL_NODISCARD dl_status dl_sql_temp_rel_new_view(const dl_allocator *alloc, const dl_sql_view *view,
                                                dl_sql_temp_rel **out, dl_error *err);

/* rel's view, or NULL when rel holds rows. */
const dl_sql_view *dl_sql_temp_rel_view(const dl_sql_temp_rel *rel);

/* The GLOBAL TEMP view named name (no case), or NULL; registering one replaces a view of the
 * same name; unregistering is true when there was one. */
dl_sql_temp_rel *dl_sql_session_global_temp(const dl_sql_session *session, dl_str name);
DL_NODISCARD dl_status dl_sql_session_register_global(dl_sql_session *session, dl_sql_temp_rel *rel,
                                                      dl_error *err);
bool dl_sql_session_unregister_global(dl_sql_session *session, const char *name);

/* Visits the names of the list head (views_only: only temporary views), sorted. */
DL_NODISCARD dl_status dl_sql_temp_list(const dl_sql_temp_rel *head, bool views_only,
                                        dl_status (*visit)(void *vctx, const char *name,
                                                           dl_error *err),
                                        void *vctx, dl_error *err);

/* The temporary relation named name (no case), or NULL. */
dl_sql_temp_rel *dl_sql_session_temp_rel(const dl_sql_session *session, dl_str name);

/* Calls visit with each temporary relation's name, sorted. */
DL_NODISCARD dl_status dl_sql_session_list_temp_rels(
    const dl_sql_session *session, dl_status (*visit)(void *vctx, const char *name, dl_error *err),
    void *vctx, dl_error *err);

/* Frees every temporary relation (dl_sql_session_free). */
void dl_sql_session_free_temp_rels(dl_sql_session *session);

/* Replaces the function registry the binder uses (tests with private kernels). NULL restores
 * dl_sql_fn_lookup. */
void dl_sql_session_set_fn_lookup(dl_sql_session *session, dl_sql_fn_lookup_fn lookup);

/* The function named name through the session's registry. */
const dl_sql_fn_def *dl_sql_session_lookup(const dl_sql_session *session, dl_str name);

/* SET key = value (checked for the keys deltalite knows) and RESET [key] (key NULL: all). */
DL_NODISCARD dl_status dl_sql_session_set(dl_sql_session *session, const char *key,
                                          const char *value, dl_error *err);
void dl_sql_session_reset(dl_sql_session *session, const char *key);

/* The settings for SET without a key: the known keys with their values, then the others set. */
/* spark.sql.ansi.enabled is true. */
bool dl_sql_session_is_ansi(const dl_sql_session *session);

/* spark.sql.storeAssignmentPolicy (ANSI when session is NULL or the key is not set). */
dl_sql_store_policy dl_sql_session_store_policy(const dl_sql_session *session);

#endif /* DL_SQL_BIND_SQL_SESSION_INT_H */
