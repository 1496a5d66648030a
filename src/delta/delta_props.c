/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Table properties as Delta checks them when a table is created or altered (DeltaConfigs.
 * validateConfigurations): a key under `delta.` must be one Delta knows (delta_props.def;
 * matched in any case and written in Delta's spelling) and its value must read as the
 * property's type and pass its check, else the statement fails with Delta's text
 * ("requirement failed: <key> <help>", DELTA_INVALID_INTERVAL, DELTA_UNKNOWN_CONFIGURATION,
 * DELTA_CANNOT_MODIFY_TABLE_PROPERTY). Keys outside `delta.` are stored as given.
 *
 * Values are read as Delta's fromString reads them: booleans by Scala's toBoolean ("true" or
 * "false" in any case, nothing around them), integers by Java's parseInt/parseLong (an
 * optional sign and digits), intervals by Spark's string-to-interval cast with `interval `
 * put in front when missing (dl_duration_parse; months, years and negative totals refused).
 */
#include <stdlib.h>
#include <string.h>

#include "base/timefmt.h"
#include "delta/delta_int.h"

typedef enum prop_kind {
    PROP_BOOL,
    PROP_INT,
    PROP_INTERVAL,
    PROP_TEXT,
    PROP_COLUMN_MAPPING,
    PROP_ISOLATION,
    PROP_CHECKPOINT_POLICY,
    PROP_FORMATS,
    PROP_INTERNAL, /* written by Delta itself; a user may not set it */
} prop_kind;

typedef struct prop_def {
    const char *key;
    const char *help;
    int64_t min;
    prop_kind kind;
    bool is_honoured;
} prop_def;

static const prop_def props[] = {
#define DL_DELTA_PROP_X(key, kind, min, is_honoured, help) \
    {key, help, min, PROP_##kind, is_honoured},
#include "delta/delta_props.def"
#undef DL_DELTA_PROP_X
};

static bool
eq_nocase(const char *a, const char *b) {
    return dl_str_eq_nocase(dl_str_from_cstr(a), dl_str_from_cstr(b));
}

static const prop_def *
find_prop(const char *key) {
    for (size_t i = 0; i < DL_ARRAY_LEN(props); i++) {
        if (eq_nocase(props[i].key, key)) {
            return &props[i];
        }
    }
    return NULL;
}

static bool
has_prefix_nocase(const char *s, const char *prefix) {
    size_t n = strlen(prefix);
    return strlen(s) >= n && dl_str_eq_nocase(dl_str_make(s, n), dl_str_make(prefix, n));
}

/* Java's parseLong: an optional sign, then 1 to 18 digits (longer values are refused). */
static bool
parse_long(const char *v, int64_t *out) {
    const char *p = v + (v[0] == '+' || v[0] == '-');
    size_t n = strlen(p);
    if (n == 0 || n > 18 || strspn(p, "0123456789") != n) {
        return false;
    }
    *out = strtoll(v, NULL, 10);
    return true;
}

static bool
is_one_of_nocase(const char *v, const char *const *options, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (eq_nocase(v, options[i])) {
            return true;
        }
    }
    return false;
}

/* universalFormat.enabledFormats: distinct formats of {iceberg, hudi}, comma-separated. */
static bool
is_format_list(const char *v) {
    bool seen[2] = {false, false};
    static const char *const formats[] = {"iceberg", "hudi"};
    while (*v != '\0') {
        size_t n = strcspn(v, ",");
        bool is_known = false;
        for (size_t i = 0; i < 2; i++) {
            if (n == strlen(formats[i]) && strncmp(v, formats[i], n) == 0 && !seen[i]) {
                seen[i] = is_known = true;
            }
        }
        if (!is_known) {
            return false;
        }
        v += n + (v[n] == ',');
    }
    return true;
}

/* Whether v reads as the property's type and passes its check (an interval's own parse
 * error is reported by check_interval). */
static bool
is_valid(const prop_def *p, const char *v) {
    static const char *const modes[] = {"none", "id", "name"};
    int64_t x = 0;
    switch (p->kind) {
    case PROP_BOOL:
        return eq_nocase(v, "true") || eq_nocase(v, "false");
    case PROP_INT:
        return parse_long(v, &x) && x >= p->min && x <= INT32_MAX;
    case PROP_COLUMN_MAPPING:
        return is_one_of_nocase(v, modes, DL_ARRAY_LEN(modes));
    case PROP_ISOLATION:
        return eq_nocase(v, "Serializable");
    case PROP_CHECKPOINT_POLICY:
        return strcmp(v, "classic") == 0 || strcmp(v, "v2") == 0;
    case PROP_FORMATS:
        return is_format_list(v);
    default:
        return true;
    }
}

/* An interval property: DELTA_INVALID_INTERVAL when the text is no interval, Delta's
 * requirement when it has months or years or is negative. */
static dl_status
check_interval(const prop_def *p, const char *v, dl_error *err) {
    int64_t micros = 0;
    dl_error parse_err = {0};
    DL_CHECK(strspn(v, " \t\r\n") != strlen(v), err, DL_ERR_INVALID_ARG,
             "[DELTA_INVALID_CALENDAR_INTERVAL_EMPTY] Interval cannot be null or blank (table "
             "property %s).",
             p->key);
    if (dl_duration_parse(dl_str_from_cstr(v), &micros, &parse_err) == DL_OK &&
        strstr(v, "nanosecond") == NULL && strstr(v, "NANOSECOND") == NULL) {
        return DL_OK;
    }
    bool is_calendar =
        strstr(parse_err.msg, "length varies") != NULL || strstr(parse_err.msg, "negative") != NULL;
    if (is_calendar) {
        DL_FAIL(err, DL_ERR_INVALID_ARG, "requirement failed: %s %s", p->key, p->help);
    }
    dl_status s = dl_error_set(err, DL_ERR_INVALID_ARG,
                               "[DELTA_INVALID_INTERVAL] %s is not a valid INTERVAL (table "
                               "property %s).",
                               v, p->key);
    dl_error_hint(err, "write an interval such as 'interval 30 days', '2 weeks' or "
                       "'interval 36 hours'");
    return s;
}

/* Turned on: a value other than the property's off value (false, empty). */
static bool
is_turned_on(const prop_def *p, const char *v) {
    return p->kind == PROP_BOOL ? !eq_nocase(v, "false") : v[0] != '\0';
}

const char *
dl_delta_property_name(const char *key) {
    const prop_def *p = find_prop(key);
    return p != NULL ? p->key : key;
}

dl_status
dl_delta_property_check(const char *key, const char *value, bool allow_arbitrary,
                        const char **out_key, dl_error *err) {
    *out_key = key;
    if (!has_prefix_nocase(key, "delta.") || has_prefix_nocase(key, "delta.constraints.") ||
        has_prefix_nocase(key, "delta.feature.") || eq_nocase(key, "delta.minReaderVersion") ||
        eq_nocase(key, "delta.minWriterVersion")) {
        return DL_OK;
    }
    const prop_def *p = find_prop(key);
    if (p == NULL) {
        DL_CHECK(allow_arbitrary, err, DL_ERR_INVALID_ARG,
                 "[DELTA_UNKNOWN_CONFIGURATION] Unknown configuration was specified: %s", key);
        return DL_OK;
    }
    *out_key = p->key;
    DL_CHECK(p->kind != PROP_INTERNAL, err, DL_ERR_INVALID_ARG,
             "[DELTA_CANNOT_MODIFY_TABLE_PROPERTY] The Delta table configuration %s cannot be "
             "specified by the user",
             p->key);
    if (p->kind == PROP_INTERVAL) {
        DL_TRY(check_interval(p, value, err));
    } else if (!is_valid(p, value)) {
        DL_FAIL(err, DL_ERR_INVALID_ARG, "requirement failed: %s %s (found '%s')", p->key, p->help,
                value);
    }
    DL_CHECK(p->is_honoured || !is_turned_on(p, value), err, DL_ERR_UNSUPPORTED,
             "table property %s = '%s' is not supported: deltalite does not implement what it "
             "turns on, and would ignore it",
             p->key, value);
    return DL_OK;
}
