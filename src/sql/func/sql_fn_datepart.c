/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fields of dates, timestamps and intervals, and truncation: year, quarter, month,
 * day/dayofmonth, dayofweek (1 = Sunday), weekday (0 = Monday), dayofyear, weekofyear (ISO
 * 8601), hour, minute, second, date_part/datepart/extract, last_day, next_day, trunc,
 * date_trunc, make_date, make_timestamp.
 *
 * Timestamps are read on the session zone's wall clock; timestamp_ntz as they are; a date as
 * its midnight. date_part(field, x) takes Spark's field names and abbreviations (YEAR, Y, YR,
 * QUARTER, QTR, MONTH, MON, WEEK, W, DAY, D, DAYOFWEEK, DOW, DAYOFWEEK_ISO, DOW_ISO, DOY,
 * HOUR, H, MINUTE, MIN, M, SECOND, S, SEC, YEAROFWEEK, and plurals), returns int except for
 * SECOND of a timestamp, which is decimal(8,6) with the fraction; on intervals it reads
 * YEAR/MONTH of year-month intervals and DAY/HOUR/MINUTE/SECOND of day-time intervals.
 *
 * Invalid inputs (make_date(2024, 2, 30), an unknown unit for trunc) are NULL in legacy mode
 * and an error in ANSI mode for make_date/make_timestamp, NULL always for trunc/date_trunc
 * (as Spark).
 */
#include <string.h>
#include <strings.h>

#include "sql/func/sql_fn_int.h"

typedef enum field {
    F_YEAR,
    F_QUARTER,
    F_MONTH,
    F_WEEK,
    F_DAY,
    F_DAYOFWEEK,
    F_DAYOFWEEK_ISO,
    F_WEEKDAY,
    F_DOY,
    F_HOUR,
    F_MINUTE,
    F_SECOND,
    F_SECOND_FRAC,
    F_YEAROFWEEK,
} field;

typedef struct field_bind {
    field f;
    bool is_ntz;
    bool is_interval;
} field_bind;

/* ---- calendar -------------------------------------------------------------------------------- */

typedef struct civil {
    int64_t year;
    int month;
    int day;
    int64_t days; /* since the epoch */
    int64_t tod;  /* microseconds into the day */
} civil;

static void
civil_of(int64_t local_us, civil *c) {
    c->days = dl_floor_div(local_us, DL_MICROS_PER_DAY);
    c->tod = dl_floor_mod(local_us, DL_MICROS_PER_DAY);
    dl_date_to_civil(c->days, &c->year, &c->month, &c->day);
}

/* ISO 8601 week number and week-based year of a day. */
static int
iso_week(int64_t days, int64_t *out_year) {
    int wday = (int)dl_floor_mod(days + 3, 7); /* 0 = Monday (1970-01-01 was a Thursday) */
    int64_t thursday = days - wday + 3;
    int64_t y;
    int m;
    int d;
    dl_date_to_civil(thursday, &y, &m, &d);
    int64_t jan1 = dl_date_from_civil(y, 1, 1);
    *out_year = y;
    return (int)((thursday - jan1) / 7 + 1);
}

static int64_t
field_value(field f, const civil *c) {
    int64_t wy;
    switch (f) {
    case F_YEAR:
        return c->year;
    case F_QUARTER:
        return (c->month - 1) / 3 + 1;
    case F_MONTH:
        return c->month;
    case F_WEEK:
        return iso_week(c->days, &wy);
    case F_YEAROFWEEK:
        (void)iso_week(c->days, &wy);
        return wy;
    case F_DAY:
        return c->day;
    case F_DAYOFWEEK:
        return dl_floor_mod(c->days + 4, 7) + 1; /* 1 = Sunday */
    case F_DAYOFWEEK_ISO:
        return dl_floor_mod(c->days + 3, 7) + 1; /* 1 = Monday */
    case F_WEEKDAY:
        return dl_floor_mod(c->days + 3, 7); /* 0 = Monday */
    case F_DOY:
        return c->days - dl_date_from_civil(c->year, 1, 1) + 1;
    case F_HOUR:
        return c->tod / DL_MICROS_PER_HOUR;
    case F_MINUTE:
        return c->tod / DL_MICROS_PER_MINUTE % 60;
    default:
        return c->tod / DL_MICROS_PER_SECOND % 60;
    }
}

/* ---- binding --------------------------------------------------------------------------------- */

static const struct {
    const char *name;
    field f;
} field_names[] = {
    {"YEAR", F_YEAR},
    {"Y", F_YEAR},
    {"YEARS", F_YEAR},
    {"YR", F_YEAR},
    {"YRS", F_YEAR},
    {"YEAROFWEEK", F_YEAROFWEEK},
    {"QUARTER", F_QUARTER},
    {"QTR", F_QUARTER},
    {"MONTH", F_MONTH},
    {"MON", F_MONTH},
    {"MONS", F_MONTH},
    {"MONTHS", F_MONTH},
    {"WEEK", F_WEEK},
    {"W", F_WEEK},
    {"WEEKS", F_WEEK},
    {"DAY", F_DAY},
    {"D", F_DAY},
    {"DAYS", F_DAY},
    {"DAYOFWEEK", F_DAYOFWEEK},
    {"DOW", F_DAYOFWEEK},
    {"DAYOFWEEK_ISO", F_DAYOFWEEK_ISO},
    {"DOW_ISO", F_DAYOFWEEK_ISO},
    {"DOY", F_DOY},
    {"HOUR", F_HOUR},
    {"H", F_HOUR},
    {"HOURS", F_HOUR},
    {"HR", F_HOUR},
    {"HRS", F_HOUR},
    {"MINUTE", F_MINUTE},
    {"M", F_MINUTE},
    {"MIN", F_MINUTE},
    {"MINS", F_MINUTE},
    {"MINUTES", F_MINUTE},
    {"SECOND", F_SECOND_FRAC},
    {"S", F_SECOND_FRAC},
    {"SEC", F_SECOND_FRAC},
    {"SECONDS", F_SECOND_FRAC},
    {"SECS", F_SECOND_FRAC},
};

static const char *const fn_names[] = {"year",       "quarter",   "month",   "day",
                                       "dayofmonth", "dayofweek", "weekday", "dayofyear",
                                       "weekofyear", "hour",      "minute",  "second"};
static const field fn_fields[] = {F_YEAR,    F_QUARTER, F_MONTH, F_DAY,  F_DAY,    F_DAYOFWEEK,
                                  F_WEEKDAY, F_DOY,     F_WEEK,  F_HOUR, F_MINUTE, F_SECOND};

static dl_status
bind_field_name(dl_sql_fn_bind *b, field *out, dl_error *err) {
    dl_str s;
    DL_CHECK(dl_sql_bind_const_str(b, 0, &s), err, DL_ERR_SQL_BIND,
             "%s: the field must be a constant such as 'YEAR'", b->name);
    for (size_t i = 0; i < DL_ARRAY_LEN(field_names); i++) {
        if (dl_str_eq_nocase(s, dl_str_from_cstr(field_names[i].name))) {
            *out = field_names[i].f;
            return DL_OK;
        }
    }
    return dl_sql_bind_fail(b, err,
                            "unknown field '%.*s' (expected YEAR, QUARTER, MONTH, WEEK, "
                            "DAY, DAYOFWEEK, DOY, HOUR, MINUTE, SECOND, ...)",
                            DL_STR_FMT(s));
}

static dl_status
bind_interval_field(dl_sql_fn_bind *b, field_bind *bd, const dl_type *t, dl_error *err) {
    bool ym = t->id == DL_VEC_TYPE_INTERVAL_YM;
    bool ok = ym ? bd->f == F_YEAR || bd->f == F_MONTH
                 : bd->f == F_DAY || bd->f == F_HOUR || bd->f == F_MINUTE || bd->f == F_SECOND_FRAC;
    if (!ok) {
        return dl_sql_bind_fail(b, err, "this field cannot be extracted from an %s",
                                dl_vec_type_name(t->id));
    }
    bd->is_interval = true;
    if (bd->f == F_SECOND_FRAC) {
        return dl_sql_decimal_type(b->arena, 8, 6, &b->ret_type, err);
    }
    b->ret_type = dl_sql_t(DL_VEC_TYPE_INT);
    return DL_OK;
}

dl_status
dl_sql_bind_date_field(dl_sql_fn_bind *b, dl_error *err) {
    field_bind *bd = dl_sql_bind_alloc(b, sizeof(*bd), err);
    if (bd == NULL) {
        return DL_ERR_NOMEM;
    }
    b->bind_data = bd;
    int32_t src = b->n_args - 1;
    if (b->n_args == 2) {
        DL_TRY(bind_field_name(b, &bd->f, err));
    } else {
        int k = dl_sql_name_index(b->name, fn_names, (int)DL_ARRAY_LEN(fn_names));
        bd->f = fn_fields[k < 0 ? 0 : k];
    }
    const dl_type *t = b->arg_types[src];
    if (dl_sql_is_interval(t)) {
        return bind_interval_field(b, bd, t, err);
    }
    if (t->id != DL_VEC_TYPE_TIMESTAMP_NTZ && t->id != DL_VEC_TYPE_TIMESTAMP) {
        bool time_field =
            bd->f == F_HOUR || bd->f == F_MINUTE || bd->f == F_SECOND || bd->f == F_SECOND_FRAC;
        const dl_type *want = dl_sql_t(time_field ? DL_VEC_TYPE_TIMESTAMP : DL_VEC_TYPE_DATE);
        DL_TRY(dl_sql_bind_expect(b, src, want, "a date or a timestamp", err));
    }
    bd->is_ntz = dl_sql_bind_arg(b, src)->id == DL_VEC_TYPE_TIMESTAMP_NTZ;
    if (bd->f == F_SECOND_FRAC) {
        if (dl_sql_bind_arg(b, src)->id == DL_VEC_TYPE_DATE) {
            bd->f = F_SECOND;
        } else {
            return dl_sql_decimal_type(b->arena, 8, 6, &b->ret_type, err);
        }
    }
    b->ret_type = dl_sql_t(DL_VEC_TYPE_INT);
    return DL_OK;
}

/* ---- the kernel ------------------------------------------------------------------------------ */

static int64_t
interval_field(field f, int64_t v, dl_i128 *out_dec) {
    switch (f) {
    case F_YEAR:
        return v / 12;
    case F_MONTH:
        return v % 12;
    case F_DAY:
        return v / DL_MICROS_PER_DAY;
    case F_HOUR:
        return v % DL_MICROS_PER_DAY / DL_MICROS_PER_HOUR;
    case F_MINUTE:
        return v % DL_MICROS_PER_HOUR / DL_MICROS_PER_MINUTE;
    default:
        *out_dec = v % DL_MICROS_PER_MINUTE;
        return 0;
    }
}

dl_status
dl_sql_fn_date_field(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                     dl_error *err) {
    const field_bind *bd = call->bind_data;
    const dl_vector *src = args[call->n_args - 1];
    dl_type_id st = src->type->id;
    const dl_sql_tz *tz;
    DL_TRY(dl_sql_tz_env(call->env, &tz, err));
    dl_vec_unified u;
    dl_vec_unify(src, count, &u);
    DL_TRY(dl_sql_out_reserve(out, count, err));
    DL_TRY(dl_sql_out_nulls(out, 0, &u, 1, count, err));
    dl_type_id ot = out->type->id;
    for (int64_t i = 0; i < count; i++) {
        int64_t v = 0;
        dl_i128 dec = 0;
        if (bd->is_interval) {
            int64_t raw =
                st == DL_VEC_TYPE_INTERVAL_YM ? DL_SQL_U(&u, int32_t, i) : DL_SQL_U(&u, int64_t, i);
            v = interval_field(bd->f, raw, &dec);
        } else {
            int64_t local;
            if (st == DL_VEC_TYPE_DATE) {
                local = (int64_t)DL_SQL_U(&u, int32_t, i) * DL_MICROS_PER_DAY;
            } else {
                local = DL_SQL_U(&u, int64_t, i);
                local = bd->is_ntz ? local : dl_sql_tz_to_local(tz, local);
            }
            civil c;
            civil_of(local, &c);
            v = field_value(bd->f, &c);
            dec = c.tod % DL_MICROS_PER_MINUTE;
        }
        if (ot == DL_VEC_TYPE_DECIMAL) {
            ((dl_i128 *)out->data)[i] = dec;
        } else if (ot == DL_VEC_TYPE_LONG) {
            ((int64_t *)out->data)[i] = v;
        } else {
            ((int32_t *)out->data)[i] = (int32_t)v;
        }
    }
    dl_vec_set_length(out, count);
    return DL_OK;
}

/* ---- last_day, next_day, trunc, date_trunc --------------------------------------------------- */

typedef enum trunc_unit {
    T_YEAR,
    T_QUARTER,
    T_MONTH,
    T_WEEK,
    T_DAY,
    T_HOUR,
    T_MINUTE,
    T_SECOND,
    T_MILLISECOND,
    T_MICROSECOND,
    T_INVALID,
} trunc_unit;

typedef enum trunc_op {
    TR_LAST_DAY,
    TR_NEXT_DAY,
    TR_TRUNC,
    TR_DATE_TRUNC,
} trunc_op;

typedef struct trunc_bind {
    dl_sql_scalar_fn fn;
    trunc_op op;
} trunc_bind;

static trunc_unit
parse_trunc_unit(dl_str s, bool dates_only) {
    static const struct {
        const char *name;
        trunc_unit u;
    } units[] = {
        {"YEAR", T_YEAR},
        {"YYYY", T_YEAR},
        {"YY", T_YEAR},
        {"QUARTER", T_QUARTER},
        {"MONTH", T_MONTH},
        {"MM", T_MONTH},
        {"MON", T_MONTH},
        {"WEEK", T_WEEK},
        {"DAY", T_DAY},
        {"DD", T_DAY},
        {"HOUR", T_HOUR},
        {"MINUTE", T_MINUTE},
        {"SECOND", T_SECOND},
        {"MILLISECOND", T_MILLISECOND},
        {"MICROSECOND", T_MICROSECOND},
    };

    for (size_t i = 0; i < DL_ARRAY_LEN(units); i++) {
        if (dl_str_eq_nocase(s, dl_str_from_cstr(units[i].name))) {
            return dates_only && units[i].u > T_WEEK ? T_INVALID : units[i].u;
        }
    }
    return T_INVALID;
}

/* Day-of-week names for next_day: two or three letters, or the full name. */
static int
parse_weekday(dl_str s) {
    static const char *const names[] = {"MONDAY", "TUESDAY",  "WEDNESDAY", "THURSDAY",
                                        "FRIDAY", "SATURDAY", "SUNDAY"};
    for (int d = 0; d < 7; d++) {
        size_t n = strlen(names[d]);
        if ((s.len == 2 || s.len == 3 || s.len == n) && s.len <= n &&
            strncasecmp(s.ptr, names[d], s.len) == 0) {
            return d;
        }
    }
    return -1;
}

static int64_t
trunc_days(trunc_unit unit, int64_t days) {
    int64_t y;
    int m;
    int d;
    dl_date_to_civil(days, &y, &m, &d);
    switch (unit) {
    case T_YEAR:
        return dl_date_from_civil(y, 1, 1);
    case T_QUARTER:
        return dl_date_from_civil(y, (m - 1) / 3 * 3 + 1, 1);
    case T_MONTH:
        return dl_date_from_civil(y, m, 1);
    case T_WEEK:
        return days - dl_floor_mod(days + 3, 7);
    default:
        return days;
    }
}

static int64_t
trunc_micros(trunc_unit unit, int64_t local) {
    static const int64_t sizes[] = {DL_MICROS_PER_DAY,    DL_MICROS_PER_HOUR,  DL_MICROS_PER_MINUTE,
                                    DL_MICROS_PER_SECOND, DL_MICROS_PER_MILLI, 1};
    if (unit <= T_WEEK) {
        return trunc_days(unit, dl_floor_div(local, DL_MICROS_PER_DAY)) * DL_MICROS_PER_DAY;
    }
    int64_t size = sizes[unit - T_DAY];
    return dl_floor_div(local, size) * size;
}

static bool
trunc_row(const trunc_bind *bd, const dl_sql_tz *tz, const dl_vec_unified *u, int64_t i,
          int64_t *out) {
    int vi = bd->op == TR_DATE_TRUNC ? 1 : 0;
    if (bd->op == TR_LAST_DAY) {
        int64_t y;
        int m;
        int d;
        int64_t days = DL_SQL_U(&u[0], int32_t, i);
        dl_date_to_civil(days, &y, &m, &d);
        *out = dl_date_from_civil(y, m, dl_days_in_month(y, m));
        return true;
    }
    dl_str arg = dl_sql_u_str(&u[1 - vi], i);
    if (bd->op == TR_NEXT_DAY) {
        int want = parse_weekday(arg);
        int64_t days = DL_SQL_U(&u[0], int32_t, i);
        int have = (int)dl_floor_mod(days + 3, 7);
        *out = days + ((want - have + 6) % 7) + 1;
        return want >= 0;
    }
    trunc_unit unit = parse_trunc_unit(arg, bd->op == TR_TRUNC);
    if (unit == T_INVALID) {
        return false;
    }
    if (bd->op == TR_TRUNC) {
        *out = trunc_days(unit, DL_SQL_U(&u[0], int32_t, i));
        return true;
    }
    int64_t v = DL_SQL_U(&u[1], int64_t, i);
    int64_t t = trunc_micros(unit, dl_sql_tz_to_local(tz, v));
    *out = dl_sql_tz_to_utc(tz, t);
    return true;
}

static dl_status
k_trunc(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
        dl_error *err) {
    const trunc_bind *bd = call->bind_data;
    const dl_sql_tz *tz;
    DL_TRY(dl_sql_tz_env(call->env, &tz, err));
    dl_vec_unified u[2];
    dl_sql_unify_args(args, call->n_args, count, u);
    DL_TRY(dl_sql_out_reserve(out, count, err));
    DL_TRY(dl_sql_out_nulls(out, 0, u, call->n_args, count, err));
    bool is_date = out->type->id == DL_VEC_TYPE_DATE;
    for (int64_t i = 0; i < count; i++) {
        int64_t r = 0;
        bool is_null = out->validity != NULL && !dl_vec_bit_get(out->validity, i);
        if (!is_null && !trunc_row(bd, tz, u, i, &r)) {
            if (bd->op == TR_NEXT_DAY && call->env != NULL && call->env->ansi) {
                dl_str day = dl_sql_u_str(&u[1], i);
                return dl_sql_fail_run(err,
                                       "write a day of the week (MO, TUE, WEDNESDAY, ...), or "
                                       "set spark.sql.ansi.enabled to false to return NULL "
                                       "instead",
                                       "[ILLEGAL_DAY_OF_WEEK] Illegal input for day of week: %.*s",
                                       (int)DL_MIN(day.len, 100), day.ptr);
            }
            DL_TRY(dl_sql_out_set_null(out, i, err));
        }
        if (is_date) {
            ((int32_t *)out->data)[i] = (int32_t)r;
        } else {
            ((int64_t *)out->data)[i] = r;
        }
    }
    dl_vec_set_length(out, count);
    return DL_OK;
}

dl_status
dl_sql_bind_date_trunc(dl_sql_fn_bind *b, dl_error *err) {
    static const char *const names[] = {"last_day", "next_day", "trunc", "date_trunc"};
    int k = dl_sql_name_index(b->name, names, (int)DL_ARRAY_LEN(names));
    trunc_bind *bd = dl_sql_bind_alloc(b, sizeof(*bd), err);
    if (bd == NULL || k < 0) {
        return bd == NULL ? DL_ERR_NOMEM : dl_sql_bind_fail(b, err, "not a truncation");
    }
    bd->op = (trunc_op)k;
    bd->fn = k_trunc;
    b->bind_data = bd;
    const dl_type *string = dl_sql_t(DL_VEC_TYPE_STRING);
    if (bd->op == TR_DATE_TRUNC) {
        DL_TRY(dl_sql_bind_expect(b, 0, string, "a unit string", err));
        /* Spark's TruncTimestamp takes a TIMESTAMP: a TIMESTAMP_NTZ is cast to one (its wall
         * clock in the session zone), and the result is a TIMESTAMP */
        if (b->arg_types[1]->id == DL_VEC_TYPE_TIMESTAMP_NTZ) {
            dl_sql_bind_cast(b, 1, dl_sql_t(DL_VEC_TYPE_TIMESTAMP));
        } else {
            DL_TRY(dl_sql_bind_expect(b, 1, dl_sql_t(DL_VEC_TYPE_TIMESTAMP), "a timestamp", err));
        }
        b->ret_type = dl_sql_t(DL_VEC_TYPE_TIMESTAMP);
        return DL_OK;
    }
    DL_TRY(dl_sql_bind_expect(b, 0, dl_sql_t(DL_VEC_TYPE_DATE), "a date", err));
    if (b->n_args > 1) {
        DL_TRY(dl_sql_bind_expect(b, 1, string, "a string", err));
    }
    b->ret_type = dl_sql_t(DL_VEC_TYPE_DATE);
    return DL_OK;
}

/* ---- make_date, make_timestamp --------------------------------------------------------------- */

typedef struct make_bind {
    dl_sql_scalar_fn fn;
    bool is_ts;
} make_bind;

static int64_t
int_arg(const dl_vec_unified *u, int64_t i) {
    return DL_SQL_U(u, int32_t, i);
}

static bool
make_row(const make_bind *bd, const dl_vec_unified *u, int32_t n, const dl_sql_tz *tz, int64_t i,
         int64_t *out) {
    int64_t y = int_arg(&u[0], i);
    int64_t m = int_arg(&u[1], i);
    int64_t d = int_arg(&u[2], i);
    if (m < 1 || m > 12 || d < 1 || d > dl_days_in_month(y, (int)m) || y < -290000 || y > 290000) {
        return false;
    }
    int64_t days = dl_date_from_civil(y, (int)m, (int)d);
    if (!bd->is_ts) {
        *out = days;
        return true;
    }
    int64_t h = int_arg(&u[3], i);
    int64_t mi = int_arg(&u[4], i);
    dl_i128 sec = DL_SQL_U(&u[5], dl_i128, i); /* decimal(8,6) */
    const dl_i128 minute = 60000000;
    if (h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > minute ||
        (sec >= minute && sec % 1000000 != 0)) {
        return false;
    }
    int64_t local = days * DL_MICROS_PER_DAY + h * DL_MICROS_PER_HOUR + mi * DL_MICROS_PER_MINUTE +
                    (int64_t)sec;
    const dl_sql_tz *zone = tz;
    if (n > 6) {
        char name[80];
        dl_str_copy_to(dl_sql_u_str(&u[6], i), name, sizeof(name));
        dl_error scratch;
        if (dl_sql_tz_get(name, &zone, &scratch) != DL_OK) {
            return false;
        }
    }
    *out = dl_sql_tz_to_utc(zone, local);
    return true;
}

static dl_status
k_make(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out, dl_error *err) {
    const make_bind *bd = call->bind_data;
    const dl_sql_tz *tz;
    DL_TRY(dl_sql_tz_env(call->env, &tz, err));
    int32_t n = call->n_args;
    dl_vec_unified u[7];
    dl_sql_unify_args(args, n, count, u);
    DL_TRY(dl_sql_out_reserve(out, count, err));
    DL_TRY(dl_sql_out_nulls(out, 0, u, n, count, err));
    bool ansi = call->env != NULL && call->env->ansi;
    for (int64_t i = 0; i < count; i++) {
        int64_t r = 0;
        bool is_null = out->validity != NULL && !dl_vec_bit_get(out->validity, i);
        if (!is_null && !make_row(bd, u, n, tz, i, &r)) {
            if (ansi) {
                return dl_sql_fail_run(
                    err,
                    "use valid field values, or set spark.sql.ansi.enabled to "
                    "false to return NULL instead",
                    "[DATETIME_FIELD_OUT_OF_BOUNDS.WITH_SUGGESTION] %s: a field is "
                    "out of range",
                    call->def->name);
            }
            DL_TRY(dl_sql_out_set_null(out, i, err));
        }
        if (bd->is_ts) {
            ((int64_t *)out->data)[i] = r;
        } else {
            ((int32_t *)out->data)[i] = (int32_t)r;
        }
    }
    dl_vec_set_length(out, count);
    return DL_OK;
}

dl_status
dl_sql_bind_make_date(dl_sql_fn_bind *b, dl_error *err) {
    make_bind *bd = dl_sql_bind_alloc(b, sizeof(*bd), err);
    if (bd == NULL) {
        return DL_ERR_NOMEM;
    }
    bd->fn = k_make;
    bd->is_ts = strcmp(b->name, "make_timestamp") == 0;
    b->bind_data = bd;
    int32_t ints = bd->is_ts ? 5 : 3;
    DL_TRY(dl_sql_bind_expect_range(b, 0, ints, dl_sql_t(DL_VEC_TYPE_INT), "an integer", err));
    if (bd->is_ts) {
        const dl_type *sec;
        DL_TRY(dl_sql_decimal_type(b->arena, 8, 6, &sec, err));
        DL_TRY(dl_sql_bind_expect(b, 5, sec, "seconds", err));
        if (b->n_args > 6) {
            DL_TRY(dl_sql_bind_expect(b, 6, dl_sql_t(DL_VEC_TYPE_STRING), "a time zone", err));
        }
    }
    b->ret_type = dl_sql_t(bd->is_ts ? DL_VEC_TYPE_TIMESTAMP : DL_VEC_TYPE_DATE);
    return DL_OK;
}
