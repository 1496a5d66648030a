/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Sessions (sql_engine.h): the catalog, store, pool and settings a session holds, and the
 * statements that change settings: SET and RESET.
 *
 * Settings follow Spark's SET: keys are case-sensitive strings, values are kept as text. Keys
 * deltalite acts on are checked when set (a boolean must be true or false); every other key
 * is stored as given, as Spark does for keys it does not know, so scripts written for Spark
 * run unchanged. Defaults of the known keys:
 *
 *   spark.sql.ansi.enabled                                false
 *   spark.sql.session.timeZone                            the session's time zone ("UTC")
 *   spark.databricks.delta.retentionDurationCheck.enabled true
 *   spark.sql.shuffle.partitions                          200
 *   spark.databricks.delta.optimize.minFileSize           1073741824 (bytes; OPTIMIZE)
 *   spark.databricks.delta.optimize.maxFileSize           1073741824 (bytes; OPTIMIZE)
 *   spark.databricks.delta.optimize.maxDeletedRowsRatio   0.05 (OPTIMIZE)
 */
#include <stdlib.h>
#include <string.h>

#include "sql/sql_engine_int.h"

typedef enum setting_kind {
    SETTING_TEXT = 0,
    SETTING_BOOL,
    SETTING_POSITIVE_INT,
    SETTING_BYTES,    /* a whole number of bytes, 0 or more (Spark's longConf) */
    SETTING_FRACTION, /* a number from 0 to 1 (Spark's doubleConf with that check) */
} setting_kind;

static const struct known_setting {
    const char *key;
    const char *default_value;
    setting_kind kind;
} known_settings[] = {
    {"spark.sql.ansi.enabled", "false", SETTING_BOOL},
    {"spark.sql.session.timeZone", "UTC", SETTING_TEXT},
    {"spark.databricks.delta.retentionDurationCheck.enabled", "true", SETTING_BOOL},
    {"spark.sql.shuffle.partitions", "200", SETTING_POSITIVE_INT},
    {"spark.databricks.delta.schema.autoMerge.enabled", "false", SETTING_BOOL},
    {"spark.sql.caseSensitive", "false", SETTING_BOOL},
    {"spark.databricks.delta.optimize.minFileSize", "1073741824", SETTING_BYTES},
    {"spark.databricks.delta.optimize.maxFileSize", "1073741824", SETTING_BYTES},
    {"spark.databricks.delta.optimize.maxDeletedRowsRatio", "0.05", SETTING_FRACTION},
    /* The layout of the files writes make (Spark passes these Hadoop settings to parquet-mr). */
    {"spark.sql.files.maxRecordsPerFile", "0", SETTING_BYTES},
    {"parquet.block.size", "134217728", SETTING_POSITIVE_INT},
    {"parquet.page.size", "1048576", SETTING_POSITIVE_INT},
    {"parquet.page.row.count.limit", "20000", SETTING_POSITIVE_INT},
};

static const struct known_setting *
find_known(const char *key) {
    for (size_t i = 0; i < DL_ARRAY_LEN(known_settings); i++) {
        if (strcmp(known_settings[i].key, key) == 0) {
            return &known_settings[i];
        }
    }
    return NULL;
}

static char *
copy_str(const dl_allocator *alloc, const char *s, size_t len) {
    char *c = dl_mem_alloc(alloc, len + 1);
    if (c != NULL) {
        memcpy(c, s, len);
        c[len] = '\0';
    }
    return c;
}

static void
free_str(const dl_allocator *alloc, char *s) {
    if (s != NULL) {
        dl_mem_free(alloc, s, strlen(s) + 1);
    }
}

static int32_t
find_setting(const dl_sql_session *session, const char *key) {
    for (int32_t i = 0; i < session->n_settings; i++) {
        if (strcmp(session->settings[i].key, key) == 0) {
            return i;
        }
    }
    return -1;
}

/* Stores key = value (copies), replacing an earlier value. */
static dl_status
put_setting(dl_sql_session *session, const char *key, const char *value, dl_error *err) {
    char *v = copy_str(session->alloc, value, strlen(value));
    DL_CHECK(v != NULL, err, DL_ERR_NOMEM, "out of memory storing setting '%s'", key);
    int32_t i = find_setting(session, key);
    if (i >= 0) {
        free_str(session->alloc, session->settings[i].value);
        session->settings[i].value = v;
        return DL_OK;
    }
    if (session->n_settings == session->cap_settings) {
        int32_t cap = session->cap_settings == 0 ? 8 : 2 * session->cap_settings;
        dl_sql_setting *grown = dl_mem_realloc(
            session->alloc, session->settings,
            (size_t)session->cap_settings * sizeof(dl_sql_setting), (size_t)cap * sizeof(*grown));
        if (grown == NULL) {
            free_str(session->alloc, v);
            DL_FAIL(err, DL_ERR_NOMEM, "out of memory storing setting '%s'", key);
        }
        session->settings = grown;
        session->cap_settings = cap;
    }
    char *k = copy_str(session->alloc, key, strlen(key));
    if (k == NULL) {
        free_str(session->alloc, v);
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory storing setting '%s'", key);
    }
    session->settings[session->n_settings++] = (dl_sql_setting){.key = k, .value = v};
    return DL_OK;
}

static void
remove_setting(dl_sql_session *session, int32_t i) {
    free_str(session->alloc, session->settings[i].key);
    free_str(session->alloc, session->settings[i].value);
    memmove(&session->settings[i], &session->settings[i + 1],
            (size_t)(session->n_settings - i - 1) * sizeof(dl_sql_setting));
    session->n_settings--;
}

/*
 * What statements allocate their vectors, hash tables and sort runs with: with the libc
 * allocator, its huge-page layout (dl_allocator_huge_default), so that the large buffers of a
 * join's build side, a sort or an aggregation are first touched one 2 MiB page at a time --
 * on virtual machines the 4 KiB page faults of a 1 M-row build side cost more than building
 * it (q4 of bench/: 1.5-1.8 s -> 0.8-0.9 s). A caller's own allocator is used as it is: it
 * may count or fail requests, and its blocks must come back to it unchanged.
 */
static const dl_allocator *
exec_allocator(const dl_allocator *alloc) {
    if (alloc == NULL || alloc == dl_allocator_default()) {
        return dl_allocator_huge_default();
    }
    return alloc;
}

dl_status
dl_sql_session_new(const dl_sql_session_config *config, dl_sql_session **out, dl_error *err) {
    DL_CHECK(config != NULL && out != NULL, err, DL_ERR_INVALID_ARG,
             "dl_sql_session_new: NULL argument");
    dl_sql_session *s = dl_mem_alloc_zero(config->alloc, sizeof(*s));
    DL_CHECK(s != NULL, err, DL_ERR_NOMEM, "out of memory creating a session");
    s->catalog = config->catalog;
    s->store = config->store;
    s->alloc = config->alloc;
    s->exec_alloc = exec_allocator(config->alloc);
    s->pool = config->pool;
    s->fn_lookup = dl_sql_fn_lookup;
    atomic_init(&s->interrupt, false);
    if (config->time_zone != NULL) {
        dl_status st = put_setting(s, "spark.sql.session.timeZone", config->time_zone, err);
        if (st != DL_OK) {
            dl_sql_session_free(s);
            return st;
        }
    }
    *out = s;
    return DL_OK;
}

void
dl_sql_session_interrupt(dl_sql_session *session) {
    if (session != NULL) {
        atomic_store(&session->interrupt, true);
    }
}

void
dl_sql_session_free(dl_sql_session *session) {
    if (session == NULL) {
        return;
    }
    while (session->n_settings > 0) {
        remove_setting(session, session->n_settings - 1);
    }
    dl_mem_free(session->alloc, session->settings,
                (size_t)session->cap_settings * sizeof(dl_sql_setting));
    dl_mem_free(session->alloc, session, sizeof(*session));
}

const char *
dl_sql_session_get(const dl_sql_session *session, const char *key) {
    int32_t i = find_setting(session, key);
    if (i >= 0) {
        return session->settings[i].value;
    }
    const struct known_setting *k = find_known(key);
    return k != NULL ? k->default_value : NULL;
}

bool
dl_sql_session_is_ansi(const dl_sql_session *session) {
    const char *v = dl_sql_session_get(session, "spark.sql.ansi.enabled");
    return v != NULL && strcmp(v, "true") == 0;
}

void
dl_sql_session_set_fn_lookup(dl_sql_session *session, dl_sql_fn_lookup_fn lookup) {
    session->fn_lookup = lookup != NULL ? lookup : dl_sql_fn_lookup;
}

const dl_sql_fn_def *
dl_sql_session_lookup(const dl_sql_session *session, dl_str name) {
    return session->fn_lookup(name);
}

/* ---- SET and RESET ----------------------------------------------------------------------------
 */

static dl_status
check_fraction(const char *key, const char *text, dl_error *err) {
    char *end = NULL;
    double x = strtod(text, &end);
    DL_CHECK(end != text && *end == '\0' && x >= 0.0 && x <= 1.0, err, DL_ERR_INVALID_ARG,
             "[INVALID_CONF_VALUE] the value '%s' of the config '%s' is invalid: it must be a "
             "number from 0 to 1",
             text, key);
    return DL_OK;
}

double
dl_sql_session_get_double(const dl_sql_session *session, const char *key) {
    const char *v = dl_sql_session_get(session, key);
    return v != NULL ? strtod(v, NULL) : 0.0;
}

int64_t
dl_sql_session_get_i64(const dl_sql_session *session, const char *key) {
    const char *v = dl_sql_session_get(session, key);
    return v != NULL ? strtoll(v, NULL, 10) : 0;
}

/* The value normalised for its key, or an error saying what the key expects. */
static dl_status
check_value(const char *key, const char *value, char *norm, size_t cap, dl_error *err) {
    const struct known_setting *k = find_known(key);
    dl_str v = dl_str_trim(dl_str_from_cstr(value));
    dl_str_copy_to(v, norm, cap);
    if (k == NULL || k->kind == SETTING_TEXT) {
        DL_CHECK(k == NULL || v.len > 0, err, DL_ERR_INVALID_ARG,
                 "[INVALID_CONF_VALUE] the value '' of the config '%s' is invalid", key);
        return DL_OK;
    }
    if (k->kind == SETTING_BOOL) {
        if (dl_str_eq_nocase(v, DL_STR("true")) || dl_str_eq_nocase(v, DL_STR("false"))) {
            dl_str_copy_to(dl_str_eq_nocase(v, DL_STR("true")) ? DL_STR("true") : DL_STR("false"),
                           norm, cap);
            return DL_OK;
        }
        DL_FAIL(err, DL_ERR_INVALID_ARG,
                "[INVALID_CONF_VALUE] the value '%s' of the config '%s' is invalid: it must be "
                "true or false",
                norm, key);
    }
    if (k->kind == SETTING_FRACTION) {
        return check_fraction(key, norm, err);
    }
    bool ok = v.len > 0 && v.len < (k->kind == SETTING_BYTES ? 19 : 10);
    for (size_t i = 0; i < v.len && ok; i++) {
        ok = v.ptr[i] >= '0' && v.ptr[i] <= '9';
    }
    ok = ok && (k->kind == SETTING_BYTES || !(v.len == 1 && v.ptr[0] == '0'));
    DL_CHECK(ok, err, DL_ERR_INVALID_ARG,
             "[INVALID_CONF_VALUE] the value '%s' of the config '%s' is invalid: it must be a "
             "%s",
             norm, key,
             k->kind == SETTING_BYTES ? "whole number of bytes (0 or more)" : "positive integer");
    return DL_OK;
}

dl_status
dl_sql_session_set(dl_sql_session *session, const char *key, const char *value, dl_error *err) {
    char norm[1024];
    DL_TRY(check_value(key, value, norm, sizeof(norm), err));
    return put_setting(session, key, norm, err);
}

void
dl_sql_session_reset(dl_sql_session *session, const char *key) {
    if (key == NULL) {
        while (session->n_settings > 0) {
            remove_setting(session, session->n_settings - 1);
        }
        return;
    }
    int32_t i = find_setting(session, key);
    if (i >= 0) {
        remove_setting(session, i);
    }
}
