/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Sessions (sql_engine.h): the catalog, store, pool and settings a session holds, and the
 * statements that change settings: SET and RESET.
 *
 * Settings follow Spark's SET: keys are case-sensitive strings, values are kept as text. Keys
 * deltalite acts on are checked when set, as Spark's SQLConf checks them, with Spark's error
 * classes (INVALID_CONF_VALUE.TYPE_MISMATCH for a value that is not of the key's type,
 * .REQUIREMENT for one out of range, .OUT_OF_RANGE_OF_OPTIONS for an unknown option,
 * .TIME_ZONE for a zone that does not resolve); every other key is stored as given, as Spark
 * does for keys it does not know, so scripts written for Spark run unchanged. The keys, their
 * defaults and checks are the table known_settings below (docs/shell.md lists them).
 */
#include <stdlib.h>
#include <string.h>

#include "sql/bind/sql_session_int.h"
#include "sql/func/sql_fn_int.h"

typedef enum setting_kind {
    SETTING_TEXT = 0,
    SETTING_BOOL,
    SETTING_POSITIVE_INT,
    SETTING_BYTES,     /* a whole number of bytes, 0 or more (Spark's longConf) */
    SETTING_FRACTION,  /* a number from 0 to 1 (Spark's doubleConf with that check) */
    SETTING_TIME_ZONE, /* a region id or an offset, as Spark's session time zone */
    SETTING_OPTION,    /* one of its setting_rule options, in any case (Spark's checkValues) */
} setting_kind;

/* The keys deltalite acts on: default, kind, and for SET -v what it means and the Spark or
 * Delta release it came with (empty where Spark lists none: Delta's own
 * keys and the Hadoop keys of the Parquet writer). */
static const struct known_setting {
    const char *key;
    const char *default_value;
    setting_kind kind;
    const char *meaning;
    const char *since;
} known_settings[] = {
    {"spark.sql.ansi.enabled", "true", SETTING_BOOL,
     "When true, SQL follows the ANSI standard: an invalid cast, an overflow or a division by "
     "zero is an error instead of NULL (Spark 4's default).",
     "3.0.0"},
    {"spark.sql.storeAssignmentPolicy", "ANSI", SETTING_OPTION,
     "How a value is cast when it is written into a column of another type: ANSI (the casts the "
     "standard allows, with overflow checks), LEGACY (any cast) or STRICT (no lossy cast).",
     "3.0.0"},
    {"spark.sql.session.timeZone", "UTC", SETTING_TIME_ZONE,
     "The session's time zone: a region id (America/Los_Angeles) or an offset (+01:00), for "
     "TIMESTAMP values shown, parsed and truncated.",
     "2.2.0"},
    {"spark.databricks.delta.retentionDurationCheck.enabled", "true", SETTING_BOOL,
     "When true, VACUUM refuses a RETAIN period shorter than the table's "
     "delta.deletedFileRetentionDuration.",
     ""},
    {"spark.sql.shuffle.partitions", "200", SETTING_POSITIVE_INT,
     "Spark's number of shuffle partitions; deltalite checks and keeps it (its joins and "
     "aggregations size themselves).",
     "1.1.0"},
    {"spark.databricks.delta.schema.autoMerge.enabled", "false", SETTING_BOOL,
     "When true, INSERT and MERGE add the source's new columns to the table's schema.", ""},
    {"spark.sql.caseSensitive", "false", SETTING_BOOL,
     "Whether column names are compared with their case; deltalite supports false only.", "1.4.0"},
    {"spark.databricks.delta.optimize.minFileSize", "1073741824", SETTING_BYTES,
     "OPTIMIZE compacts files smaller than this many bytes.", ""},
    {"spark.databricks.delta.optimize.maxFileSize", "1073741824", SETTING_BYTES,
     "The size in bytes OPTIMIZE aims its files at.", ""},
    {"spark.databricks.delta.optimize.maxDeletedRowsRatio", "0.05", SETTING_FRACTION,
     "OPTIMIZE rewrites a file whose deletion vector marks more than this fraction of its rows.",
     ""},
    {"spark.databricks.delta.optimize.zorder.checkStatsCollection.enabled", "true", SETTING_BOOL,
     "When true, OPTIMIZE ZORDER BY refuses a column without statistics.", ""},
    {"spark.databricks.io.skipping.mdc.rangeId.max", "1000", SETTING_POSITIVE_INT,
     "The number of value ranges per column OPTIMIZE ZORDER BY and liquid clustering order by.",
     ""},
    {"spark.sql.sources.partitionOverwriteMode", "STATIC", SETTING_OPTION,
     "INSERT OVERWRITE of a partitioned table: STATIC replaces every partition the PARTITION "
     "clause matches, DYNAMIC only the partitions the query writes.",
     "2.3.0"},
    {"spark.databricks.delta.allowArbitraryProperties.enabled", "false", SETTING_BOOL,
     "When true, TBLPROPERTIES accepts delta.* keys Delta does not know.", ""},
    {"spark.databricks.delta.vacuum.logging.enabled", "true", SETTING_BOOL,
     "When true, a VACUUM that deletes files records VACUUM START and VACUUM END commits.", ""},
    {"spark.databricks.delta.vacuum.lite.enabled", "false", SETTING_BOOL,
     "When true, VACUUM without LITE or FULL runs as VACUUM LITE (the files the log removed "
     "since the last VACUUM, without listing the table's folder).",
     ""},
    /* The layout of the files writes make (Spark passes these Hadoop settings to parquet-mr). */
    {"spark.sql.files.maxRecordsPerFile", "0", SETTING_BYTES,
     "The most rows a write puts in one file; 0 means no limit.", "2.2.0"},
    {"parquet.block.size", "134217728", SETTING_POSITIVE_INT,
     "The size in bytes of the row groups of the Parquet files writes make (parquet-mr's "
     "setting).",
     ""},
    {"parquet.page.size", "1048576", SETTING_POSITIVE_INT,
     "The size in bytes of the data pages of the Parquet files writes make.", ""},
    {"parquet.page.row.count.limit", "20000", SETTING_POSITIVE_INT,
     "The most rows in one data page of the Parquet files writes make.", ""},
};

/* What some known settings take beyond their kind: a SETTING_OPTION's values (as Spark lists
 * them), and a normalised value deltalite does not implement (refused, not stored and
 * ignored). */
static const struct setting_rule {
    const char *key;
    const char *options;
    const char *refused;
} setting_rules[] = {
    {"spark.sql.sources.partitionOverwriteMode", "STATIC, DYNAMIC", NULL},
    {"spark.sql.storeAssignmentPolicy", "ANSI, LEGACY, STRICT", NULL},
    {"spark.sql.caseSensitive", NULL, "true"},
};

static const struct setting_rule *
find_rule(const char *key) {
    for (size_t i = 0; i < DL_ARRAY_LEN(setting_rules); i++) {
        if (strcmp(setting_rules[i].key, key) == 0) {
            return &setting_rules[i];
        }
    }
    return NULL;
}

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
    atomic_init(&s->progress_done, 0);
    atomic_init(&s->progress_total, 0);
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
    dl_sql_session_free_temp_rels(session);
    while (session->n_settings > 0) {
        remove_setting(session, session->n_settings - 1);
    }
    dl_mem_free(session->alloc, session->settings,
                (size_t)session->cap_settings * sizeof(dl_sql_setting));
    dl_mem_free(session->alloc, session, sizeof(*session));
}

bool
dl_sql_session_known(size_t i, dl_sql_setting_doc *out) {
    if (i >= DL_ARRAY_LEN(known_settings)) {
        return false;
    }
    const struct known_setting *k = &known_settings[i];
    *out = (dl_sql_setting_doc){
        .key = k->key, .default_value = k->default_value, .meaning = k->meaning, .since = k->since};
    return true;
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

static const char *const store_policies[] = {"ANSI", "LEGACY", "STRICT"};

dl_sql_store_policy
dl_sql_session_store_policy(const dl_sql_session *session) {
    const char *v =
        session != NULL ? dl_sql_session_get(session, "spark.sql.storeAssignmentPolicy") : NULL;
    for (size_t i = 0; v != NULL && i < DL_ARRAY_LEN(store_policies); i++) {
        if (strcmp(v, store_policies[i]) == 0) {
            return (dl_sql_store_policy)i;
        }
    }
    return DL_SQL_STORE_ANSI;
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

/* Spark's INVALID_CONF_VALUE.<sub>: "The value 'v' in the config "key" is invalid. why". */
#define CONF_FAIL(err, sub, why, ...)                                                            \
    DL_FAIL(err, DL_ERR_DATA,                                                                    \
            "[INVALID_CONF_VALUE." sub "] The value '%s' in the config \"%s\" is invalid. " why, \
            __VA_ARGS__)

static const char *
type_name(setting_kind kind) {
    switch (kind) {
    case SETTING_BOOL:
        return "boolean";
    case SETTING_POSITIVE_INT:
        return "int";
    case SETTING_BYTES:
        return "long";
    default:
        return "double";
    }
}

/* A whole number as Java's toInt/toLong read it (optional sign, digits), within 18 digits. */
static bool
parse_whole(const char *text, int64_t *out) {
    const char *p = text + (text[0] == '+' || text[0] == '-');
    size_t n = strlen(p);
    if (n == 0 || n > 18 || strspn(p, "0123456789") != n) {
        return false;
    }
    *out = strtoll(text, NULL, 10);
    return true;
}

/* A number's range: Spark's checkValue on the key. */
static dl_status
check_range(const struct known_setting *k, const char *v, dl_error *err) {
    int64_t whole = 0;
    double x = 0.0;
    char *end = NULL;
    bool is_number = k->kind == SETTING_FRACTION ? (x = strtod(v, &end), end != v && *end == '\0')
                                                 : parse_whole(v, &whole);
    if (!is_number || (k->kind == SETTING_POSITIVE_INT && whole > INT32_MAX) ||
        (k->kind == SETTING_POSITIVE_INT && whole < INT32_MIN)) {
        CONF_FAIL(err, "TYPE_MISMATCH", "It should be a/an '%s' value.", v, k->key,
                  type_name(k->kind));
    }
    if (k->kind == SETTING_POSITIVE_INT && whole <= 0) {
        CONF_FAIL(err, "REQUIREMENT", "The value of %s must be positive.", v, k->key, k->key);
    }
    if (k->kind == SETTING_BYTES && whole < 0) {
        CONF_FAIL(err, "REQUIREMENT", "%s must be 0 or more.", v, k->key, k->key);
    }
    if (k->kind == SETTING_FRACTION && !(x >= 0.0 && x <= 1.0)) {
        CONF_FAIL(err, "REQUIREMENT", "%s must be in range [0.0, 1.0].", v, k->key, k->key);
    }
    return DL_OK;
}

/* One of k's options, in any case (kept as written, as Spark keeps it). */
static dl_status
check_option(const struct known_setting *k, dl_str v, char *norm, size_t cap, dl_error *err) {
    const struct setting_rule *rule = find_rule(k->key);
    DL_CHECK(rule != NULL && rule->options != NULL, err, DL_ERR_INTERNAL,
             "setting %s has no options listed", k->key);
    dl_str rest = dl_str_from_cstr(rule->options);
    while (rest.len > 0) {
        size_t n = 0;
        while (n < rest.len && rest.ptr[n] != ',') {
            n++;
        }
        dl_str option = dl_str_trim(dl_str_make(rest.ptr, n));
        if (dl_str_eq_nocase(option, v)) {
            dl_str_copy_to(option, norm, cap); /* Spark's spelling, as its SQLConf keeps it */
            return DL_OK;
        }
        rest = n < rest.len ? dl_str_make(rest.ptr + n + 1, rest.len - n - 1) : dl_str_make("", 0);
    }
    CONF_FAIL(err, "OUT_OF_RANGE_OF_OPTIONS", "It should be one of '%s'.", norm, k->key,
              rule->options);
}

/* The value normalised for its key, or Spark's error saying what the key expects. */
static dl_status
check_value(const char *key, const char *value, char *norm, size_t cap, dl_error *err) {
    const struct known_setting *k = find_known(key);
    dl_str v = dl_str_trim(dl_str_from_cstr(value));
    dl_str_copy_to(v, norm, cap);
    if (k == NULL || k->kind == SETTING_TEXT) {
        return DL_OK;
    }
    switch (k->kind) {
    case SETTING_BOOL:
        if (dl_str_eq_nocase(v, DL_STR("true")) || dl_str_eq_nocase(v, DL_STR("false"))) {
            dl_str_copy_to(dl_str_eq_nocase(v, DL_STR("true")) ? DL_STR("true") : DL_STR("false"),
                           norm, cap);
            return DL_OK;
        }
        CONF_FAIL(err, "TYPE_MISMATCH", "It should be a/an 'boolean' value.", norm, key);
    case SETTING_TIME_ZONE: {
        const dl_sql_tz *tz = NULL;
        dl_error tz_err = {0};
        if (v.len > 0 && dl_sql_tz_get(norm, &tz, &tz_err) == DL_OK) {
            return DL_OK;
        }
        dl_status s = dl_error_set(err, DL_ERR_DATA,
                                   "[INVALID_CONF_VALUE.TIME_ZONE] The value '%s' in the config "
                                   "\"%s\" is invalid. Cannot resolve the given timezone.",
                                   norm, key);
        dl_error_hint(err, "use a region id such as 'America/New_York', or an offset such as "
                           "'+02:00' or 'UTC'");
        return s;
    }
    case SETTING_OPTION:
        return check_option(k, v, norm, cap, err);
    default:
        return check_range(k, norm, err);
    }
}

dl_status
dl_sql_session_set(dl_sql_session *session, const char *key, const char *value, dl_error *err) {
    char norm[1024];
    DL_TRY(check_value(key, value, norm, sizeof(norm), err));
    const struct setting_rule *rule = find_rule(key);
    DL_CHECK(rule == NULL || rule->refused == NULL || strcmp(norm, rule->refused) != 0, err,
             DL_ERR_UNSUPPORTED, "%s = %s is not supported: deltalite does not implement it", key,
             norm);
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
