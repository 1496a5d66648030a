/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Date and time arithmetic: the + and - operators on dates, timestamps and ANSI intervals
 * (and intervals times or over a number), date_add, date_sub, dateadd, timestampadd,
 * add_months, datediff, timestampdiff, months_between, the current_* functions, epoch
 * conversions and from_utc_timestamp / to_utc_timestamp.
 *
 * Semantics (Spark 3.4+ with ANSI intervals, spark.sql.legacy.interval.enabled = false):
 *   date +- integer               date (days)
 *   date - date                   interval day to second (whole days)
 *   timestamp - timestamp         interval day to second (microseconds)
 *   date|timestamp +- interval    a day-time interval adds exact microseconds (a date stays a
 *                                 date when the interval is a constant number of whole days,
 *                                 else becomes a timestamp at midnight in the session zone);
 *                                 a year-month interval adds calendar months in the session
 *                                 zone, clamping the day to the month's end (Jan 31 + 1 month
 *                                 is Feb 28/29)
 *   interval +- interval          interval (overflow is an error, as Spark's Math.addExact)
 *   interval * number, / number   interval, rounded HALF_UP; division by zero is an error
 *
 * Calendar arithmetic on timestamps happens on the session zone's wall clock and converts back
 * with java.time's gap/overlap rules (sql_fn_tz.c); timestamp_ntz has no zone.
 */
#include <math.h>
#include <string.h>
#include <strings.h>

#include "sql/func/sql_fn_int.h"

typedef enum dt_kind {
    DT_DATE_ADD_DAYS,   /* date + int */
    DT_DATE_SUB_DAYS,   /* date - int */
    DT_DATE_DIFF_IVL,   /* date - date -> interval */
    DT_TS_DIFF_IVL,     /* ts - ts -> interval */
    DT_TS_ADD_MICROS,   /* ts + interval_dt (sign in bind) */
    DT_DATE_ADD_MICROS, /* date + whole-day interval_dt -> date */
    DT_ADD_MONTHS,      /* date|ts + interval_ym / add_months */
    DT_IVL_ADD,         /* interval + interval */
    DT_IVL_MUL,         /* interval * number */
    DT_IVL_DIV,         /* interval / number */
} dt_kind;

typedef struct dt_bind {
    dl_sql_scalar_fn fn;
    dt_kind kind;
    int sign; /* +1 or -1 for the second operand */
    bool is_try;
    bool swap;          /* the datetime operand is argument 1 (int + date) */
    bool is_ntz;        /* timestamps without zone */
    dl_type_id value_t; /* DATE, TIMESTAMP, TIMESTAMP_NTZ or an interval type */
    int num_scale;      /* DT_IVL_MUL/DIV: decimal scale of the number, -1 for floats */
} dt_bind;

/* ---- the batch frame ------------------------------------------------------------------------- */

typedef struct dt_frame {
    dl_vec_unified u[3];
    const dl_sql_tz *tz;
    bool ansi;
    dl_vector *out;
} dt_frame;

static dl_status
dt_begin(dl_sql_fn_call *call, dl_vector *const *args, int32_t n, int64_t count, dl_vector *out,
         dt_frame *f, dl_error *err) {
    f->ansi = call->env != NULL && call->env->ansi;
    f->out = out;
    DL_TRY(dl_sql_tz_env(call->env, &f->tz, err));
    dl_sql_unify_args(args, n, count, f->u);
    DL_TRY(dl_sql_out_reserve(out, count, err));
    return dl_sql_out_nulls(out, 0, f->u, n, count, err);
}

static bool
dt_row_null(const dt_frame *f, int64_t i) {
    return f->out->validity != NULL && !dl_vec_bit_get(f->out->validity, i);
}

/* A row that failed: NULL under try (and in legacy mode when null_in_legacy), else the
 * error. */
static dl_status
dt_fail(const dt_frame *f, int64_t i, bool is_try, bool null_in_legacy, const char *what,
        dl_error *err) {
    if (is_try || (null_in_legacy && !f->ansi)) {
        return dl_sql_out_set_null(f->out, i, err);
    }
    return dl_sql_fail_run(err, "check the operands, or use the try_ form to return NULL instead",
                           "[DATETIME_OVERFLOW] %s overflow", what);
}

static int64_t
load_i64(const dl_vec_unified *u, dl_type_id id, int64_t i) {
    switch (id) {
    case DL_VEC_TYPE_BYTE:
        return dl_sql_i8(DL_SQL_U(u, int8_t, i));
    case DL_VEC_TYPE_SHORT:
        return DL_SQL_U(u, int16_t, i);
    case DL_VEC_TYPE_INT:
    case DL_VEC_TYPE_DATE:
    case DL_VEC_TYPE_INTERVAL_YM:
        return DL_SQL_U(u, int32_t, i);
    default:
        return DL_SQL_U(u, int64_t, i);
    }
}

/* ---- calendar helpers ------------------------------------------------------------------------ */

/* days + months, the day clamped to the end of the target month (LocalDate.plusMonths). */
static bool
date_add_months(int64_t days, int64_t months, int64_t *out) {
    int64_t y;
    int m;
    int d;
    dl_date_to_civil(days, &y, &m, &d);
    int64_t total = y * 12 + (m - 1) + months;
    int64_t ny = dl_floor_div(total, 12);
    int nm = (int)dl_floor_mod(total, 12) + 1;
    if (ny > 5000000 || ny < -5000000) {
        return false;
    }
    int dim = dl_days_in_month(ny, nm);
    *out = dl_date_from_civil(ny, nm, DL_MIN(d, dim));
    return *out >= INT32_MIN && *out <= INT32_MAX;
}

/* A timestamp plus months on the wall clock of tz (NULL: no zone). */
static bool
ts_add_months(const dl_sql_tz *tz, int64_t us, int64_t months, int64_t *out) {
    int64_t local = tz != NULL ? dl_sql_tz_to_local(tz, us) : us;
    int64_t days = dl_floor_div(local, DL_MICROS_PER_DAY);
    int64_t tod = dl_floor_mod(local, DL_MICROS_PER_DAY);
    int64_t nd;
    if (!date_add_months(days, months, &nd) || DL_MUL_OVERFLOW(nd, DL_MICROS_PER_DAY, &local) ||
        DL_ADD_OVERFLOW(local, tod, &local)) {
        return false;
    }
    *out = tz != NULL ? dl_sql_tz_to_utc(tz, local) : local;
    return true;
}

/* A timestamp plus days on the wall clock of tz (NULL: no zone). */
static bool
ts_add_days(const dl_sql_tz *tz, int64_t us, int64_t days, int64_t *out) {
    int64_t local = tz != NULL ? dl_sql_tz_to_local(tz, us) : us;
    int64_t delta;
    if (DL_MUL_OVERFLOW(days, DL_MICROS_PER_DAY, &delta) || DL_ADD_OVERFLOW(local, delta, &local)) {
        return false;
    }
    *out = tz != NULL ? dl_sql_tz_to_utc(tz, local) : local;
    return true;
}

/* ---- the operator kernel --------------------------------------------------------------------- */

/* The number operand of interval * / number, as a double (-1 scale) or exactly. */
static double
number_at(const dl_vec_unified *u, const dl_type *t, int64_t i) {
    switch (t->id) {
    case DL_VEC_TYPE_FLOAT:
        return (double)DL_SQL_U(u, float, i);
    case DL_VEC_TYPE_DOUBLE:
        return DL_SQL_U(u, double, i);
    case DL_VEC_TYPE_DECIMAL:
        return dl_sql_dec_to_double(DL_SQL_U(u, dl_i128, i), t->scale);
    default:
        return (double)load_i64(u, t->id, i);
    }
}

static bool
interval_scale(const dt_bind *bd, int64_t v, double num, int64_t *out, bool *out_div_zero) {
    *out_div_zero = false;
    if (bd->kind == DT_IVL_DIV && num == 0) {
        *out_div_zero = true;
        return false;
    }
    double r = bd->kind == DT_IVL_MUL ? (double)v * num : (double)v / num;
    if (!isfinite(r)) {
        return false;
    }
    r = r < 0 ? -floor(-r + 0.5) : floor(r + 0.5); /* HALF_UP */
    double limit = bd->value_t == DL_VEC_TYPE_INTERVAL_YM ? 2147483647.0 : 9.2233720368547748e18;
    if (r > limit || r < -limit - 1) {
        return false;
    }
    *out = (int64_t)r;
    return true;
}

/* One row: *out_ok false on overflow, *out_div_zero on interval / 0. */
static int64_t
dt_row(const dt_bind *bd, const dt_frame *f, const dl_type *const *types, int64_t i, bool *out_ok,
       bool *out_div_zero) {
    int a_i = bd->swap ? 1 : 0;
    int64_t a = load_i64(&f->u[a_i], types[a_i]->id, i);
    int64_t c = bd->kind == DT_IVL_MUL || bd->kind == DT_IVL_DIV
                    ? 0
                    : load_i64(&f->u[1 - a_i], types[1 - a_i]->id, i) * bd->sign;
    const dl_sql_tz *tz = bd->is_ntz ? NULL : f->tz;
    int64_t r = 0;
    *out_ok = true;
    *out_div_zero = false;
    switch (bd->kind) {
    case DT_DATE_ADD_DAYS:
    case DT_DATE_SUB_DAYS:
    case DT_IVL_ADD:
        *out_ok = !DL_ADD_OVERFLOW(a, c, &r);
        break;
    case DT_DATE_DIFF_IVL:
        r = (a + c) * DL_MICROS_PER_DAY;
        break;
    case DT_TS_DIFF_IVL:
    case DT_TS_ADD_MICROS:
        *out_ok = !DL_ADD_OVERFLOW(a, c, &r);
        break;
    case DT_DATE_ADD_MICROS:
        r = a + c / DL_MICROS_PER_DAY;
        break;
    case DT_ADD_MONTHS:
        *out_ok = bd->value_t == DL_VEC_TYPE_DATE ? date_add_months(a, c, &r)
                                                  : ts_add_months(tz, a, c, &r);
        break;
    default:
        *out_ok =
            interval_scale(bd, a, number_at(&f->u[1 - a_i], types[1 - a_i], i), &r, out_div_zero);
        break;
    }
    if (*out_ok && (bd->value_t == DL_VEC_TYPE_DATE || bd->value_t == DL_VEC_TYPE_INTERVAL_YM) &&
        bd->kind != DT_DATE_DIFF_IVL && (r > INT32_MAX || r < INT32_MIN)) {
        *out_ok = false;
    }
    return r;
}

static dl_status
k_dt_arith(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
           dl_error *err) {
    const dt_bind *bd = call->bind_data;
    dt_frame f;
    DL_TRY(dt_begin(call, args, 2, count, out, &f, err));
    const dl_type *types[2] = {args[0]->type, args[1]->type};
    bool is_i32 = dl_vec_type_phys(out->type) == DL_VEC_PHYS_I32;
    for (int64_t i = 0; i < count; i++) {
        if (dt_row_null(&f, i)) {
            continue;
        }
        bool ok;
        bool div_zero;
        int64_t r = dt_row(bd, &f, types, i, &ok, &div_zero);
        if (div_zero) {
            if (!bd->is_try) {
                return dl_sql_fail_div_zero(err);
            }
            DL_TRY(dl_sql_out_set_null(out, i, err));
        } else if (!ok) {
            DL_TRY(dt_fail(&f, i, bd->is_try, false, dl_vec_type_name(out->type->id), err));
        }
        if (is_i32) {
            ((int32_t *)out->data)[i] = ok ? (int32_t)r : 0;
        } else {
            ((int64_t *)out->data)[i] = ok ? r : 0;
        }
    }
    dl_vec_set_length(out, count);
    return DL_OK;
}

/* ---- binding the operators ------------------------------------------------------------------- */

static bool
is_ts(const dl_type *t) {
    return t->id == DL_VEC_TYPE_TIMESTAMP || t->id == DL_VEC_TYPE_TIMESTAMP_NTZ;
}

static bool
involves_datetime(const dl_type *t) {
    return dl_sql_is_datetime(t) || dl_sql_is_interval(t);
}

/* True when argument i is a constant day-time interval of whole days. */
static bool
const_whole_days(const dl_sql_fn_bind *b, int32_t i) {
    const dl_sql_fn_const *c = &b->consts[i];
    if (!c->is_const || c->is_null || c->vec == NULL) {
        return false;
    }
    const dl_vector *flat;
    int64_t idx = dl_vec_resolve(c->vec, 0, &flat);
    return ((const int64_t *)flat->data)[idx] % DL_MICROS_PER_DAY == 0;
}

static dl_status
bind_plus_minus(dl_sql_fn_bind *b, dt_bind *bd, char op, dl_error *err) {
    const dl_type *a = dl_sql_bind_arg(b, 0);
    const dl_type *c = dl_sql_bind_arg(b, 1);
    bd->sign = op == '-' ? -1 : 1;
    /* The datetime operand first. */
    if (op == '+' && !dl_sql_is_datetime(a) && dl_sql_is_datetime(c)) {
        bd->swap = true;
        const dl_type *t = a;
        a = c;
        c = t;
    }
    int32_t ai = bd->swap ? 1 : 0;
    int32_t ci = 1 - ai;
    if (c->id == DL_VEC_TYPE_STRING && dl_sql_is_datetime(a)) {
        c = op == '-' ? a : dl_sql_t(DL_VEC_TYPE_INT);
        dl_sql_bind_cast(b, ci, c);
    }
    if (c->id == DL_VEC_TYPE_NULL) {
        c = dl_sql_is_interval(a) ? a : dl_sql_t(DL_VEC_TYPE_INTERVAL_DT);
        dl_sql_bind_cast(b, ci, c);
    }
    bd->value_t = a->id;
    bd->is_ntz = a->id == DL_VEC_TYPE_TIMESTAMP_NTZ || c->id == DL_VEC_TYPE_TIMESTAMP_NTZ;
    if (a->id == DL_VEC_TYPE_DATE && dl_sql_is_integral(c)) {
        bd->kind = op == '-' ? DT_DATE_SUB_DAYS : DT_DATE_ADD_DAYS;
        b->ret_type = a;
        return DL_OK;
    }
    if (dl_sql_is_datetime(a) && dl_sql_is_datetime(c) && op == '-') {
        if (a->id == DL_VEC_TYPE_DATE && c->id == DL_VEC_TYPE_DATE) {
            bd->kind = DT_DATE_DIFF_IVL;
        } else {
            const dl_type *t =
                bd->is_ntz && a->id != DL_VEC_TYPE_TIMESTAMP && c->id != DL_VEC_TYPE_TIMESTAMP
                    ? dl_sql_t(DL_VEC_TYPE_TIMESTAMP_NTZ)
                    : dl_sql_t(DL_VEC_TYPE_TIMESTAMP);
            dl_sql_bind_cast(b, 0, t);
            dl_sql_bind_cast(b, 1, t);
            bd->kind = DT_TS_DIFF_IVL;
        }
        b->ret_type = dl_sql_t(DL_VEC_TYPE_INTERVAL_DT);
        return DL_OK;
    }
    if (dl_sql_is_datetime(a) && c->id == DL_VEC_TYPE_INTERVAL_YM) {
        bd->kind = DT_ADD_MONTHS;
        b->ret_type = a;
        return DL_OK;
    }
    if (dl_sql_is_datetime(a) && c->id == DL_VEC_TYPE_INTERVAL_DT) {
        if (a->id == DL_VEC_TYPE_DATE && const_whole_days(b, ci)) {
            bd->kind = DT_DATE_ADD_MICROS;
            b->ret_type = a;
            return DL_OK;
        }
        if (a->id == DL_VEC_TYPE_DATE) {
            dl_sql_bind_cast(b, ai, dl_sql_t(DL_VEC_TYPE_TIMESTAMP));
            bd->value_t = DL_VEC_TYPE_TIMESTAMP;
        }
        bd->kind = DT_TS_ADD_MICROS;
        b->ret_type = dl_sql_bind_arg(b, ai);
        return DL_OK;
    }
    if (dl_sql_is_interval(a) && a->id == c->id && !bd->swap) {
        bd->kind = DT_IVL_ADD;
        b->ret_type = a;
        return DL_OK;
    }
    char an[64];
    char cn[64];
    return dl_sql_bind_fail(b, err, "cannot apply %c to %s and %s", op,
                            dl_sql_type_name(dl_sql_bind_arg(b, 0), an, sizeof(an)),
                            dl_sql_type_name(dl_sql_bind_arg(b, 1), cn, sizeof(cn)));
}

static dl_status
bind_scale(dl_sql_fn_bind *b, dt_bind *bd, char op, dl_error *err) {
    const dl_type *a = dl_sql_bind_arg(b, 0);
    const dl_type *c = dl_sql_bind_arg(b, 1);
    if (op == '*' && !dl_sql_is_interval(a) && dl_sql_is_interval(c)) {
        bd->swap = true;
        const dl_type *t = a;
        a = c;
        c = t;
    }
    int32_t ci = bd->swap ? 0 : 1;
    if (!dl_sql_is_interval(a)) {
        return dl_sql_bind_fail(b, err, "cannot apply %c to these types", op);
    }
    if (c->id == DL_VEC_TYPE_STRING || c->id == DL_VEC_TYPE_NULL) {
        dl_sql_bind_cast(b, ci, dl_sql_t(DL_VEC_TYPE_DOUBLE));
    } else if (!dl_sql_is_numeric(c)) {
        return dl_sql_bind_arg_fail(b, ci, "numeric", err);
    }
    bd->kind = op == '*' ? DT_IVL_MUL : DT_IVL_DIV;
    bd->value_t = a->id;
    b->ret_type = a;
    return DL_OK;
}

dl_status
dl_sql_bind_datetime_arith(dl_sql_fn_bind *b, char op, bool is_try, bool *out_handled,
                           dl_error *err) {
    const dl_type *a = b->arg_types[0];
    const dl_type *c = b->arg_types[1];
    *out_handled = involves_datetime(a) || involves_datetime(c);
    if (!*out_handled) {
        return DL_OK;
    }
    dt_bind *bd = dl_sql_bind_alloc(b, sizeof(*bd), err);
    if (bd == NULL) {
        return DL_ERR_NOMEM;
    }
    bd->fn = k_dt_arith;
    bd->is_try = is_try;
    b->bind_data = bd;
    if (a->id == DL_VEC_TYPE_NULL) {
        dl_sql_bind_cast(b, 0, dl_sql_is_interval(c) || op == '-' ? c : dl_sql_t(DL_VEC_TYPE_INT));
    }
    if (op == '+' || op == '-') {
        return bind_plus_minus(b, bd, op, err);
    }
    return bind_scale(b, bd, op, err);
}

/* ---- date_add, date_sub, dateadd, timestampadd, add_months ----------------------------------- */

typedef enum ts_unit {
    U_MICROSECOND,
    U_MILLISECOND,
    U_SECOND,
    U_MINUTE,
    U_HOUR,
    U_DAY,
    U_DAYOFYEAR,
    U_WEEK,
    U_MONTH,
    U_QUARTER,
    U_YEAR,
    U_NONE,
} ts_unit;

static const char *const unit_names[] = {
    "MICROSECOND", "MILLISECOND", "SECOND", "MINUTE",  "HOUR", "DAY",
    "DAYOFYEAR",   "WEEK",        "MONTH",  "QUARTER", "YEAR",
};
static const int64_t unit_micros[] = {1,
                                      DL_MICROS_PER_MILLI,
                                      DL_MICROS_PER_SECOND,
                                      DL_MICROS_PER_MINUTE,
                                      DL_MICROS_PER_HOUR,
                                      DL_MICROS_PER_DAY,
                                      DL_MICROS_PER_DAY,
                                      DL_MICROS_PER_WEEK,
                                      0,
                                      0,
                                      0};

static ts_unit
parse_unit(dl_str s) {
    for (int i = 0; i < (int)DL_ARRAY_LEN(unit_names); i++) {
        dl_str name = dl_str_from_cstr(unit_names[i]);
        if (dl_str_eq_nocase(s, name) ||
            (s.len == name.len + 1 && strncasecmp(s.ptr, name.ptr, name.len) == 0 &&
             (s.ptr[name.len] == 's' || s.ptr[name.len] == 'S'))) {
            return (ts_unit)i;
        }
    }
    return U_NONE;
}

typedef struct add_bind {
    dl_sql_scalar_fn fn;
    ts_unit unit; /* timestampadd; U_NONE: date_add (days) or add_months (U_MONTH with is_date) */
    bool is_date; /* a date result */
    bool is_ntz;
    int sign;
    int value_arg; /* index of the date/timestamp argument */
    int n_arg;     /* index of the count */
} add_bind;

static dl_status
k_date_add(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
           dl_error *err) {
    const add_bind *bd = call->bind_data;
    dt_frame f;
    int32_t n = call->n_args;
    DL_TRY(dt_begin(call, args + (n == 3 ? 1 : 0), 2, count, out, &f, err));
    int vi = bd->value_arg - (n == 3 ? 1 : 0);
    int ni = bd->n_arg - (n == 3 ? 1 : 0);
    dl_type_id vt = args[bd->value_arg]->type->id;
    dl_type_id nt = args[bd->n_arg]->type->id;
    const dl_sql_tz *tz = bd->is_ntz ? NULL : f.tz;
    for (int64_t i = 0; i < count; i++) {
        if (dt_row_null(&f, i)) {
            continue;
        }
        int64_t v = load_i64(&f.u[vi], vt, i);
        int64_t k = load_i64(&f.u[ni], nt, i) * bd->sign;
        int64_t r = 0;
        bool ok;
        if (bd->is_date) {
            ok = bd->unit == U_MONTH
                     ? date_add_months(v, k, &r)
                     : !DL_ADD_OVERFLOW(v, k, &r) && r >= INT32_MIN && r <= INT32_MAX;
        } else if (bd->unit == U_MONTH || bd->unit == U_QUARTER || bd->unit == U_YEAR) {
            int64_t months = k * (bd->unit == U_MONTH ? 1 : bd->unit == U_QUARTER ? 3 : 12);
            ok = ts_add_months(tz, v, months, &r);
        } else if (bd->unit == U_DAY || bd->unit == U_DAYOFYEAR || bd->unit == U_WEEK) {
            ok = ts_add_days(tz, v, bd->unit == U_WEEK ? k * 7 : k, &r);
        } else {
            int64_t delta;
            ok = !DL_MUL_OVERFLOW(k, unit_micros[bd->unit], &delta) &&
                 !DL_ADD_OVERFLOW(v, delta, &r);
        }
        if (!ok) {
            DL_TRY(dt_fail(&f, i, false, false, bd->is_date ? "date" : "timestamp", err));
            r = 0;
        }
        if (bd->is_date) {
            ((int32_t *)out->data)[i] = (int32_t)r;
        } else {
            ((int64_t *)out->data)[i] = r;
        }
    }
    dl_vec_set_length(out, count);
    return DL_OK;
}

/* A date argument: strings and timestamps are cast to date. */
static dl_status
expect_date(dl_sql_fn_bind *b, int32_t i, dl_error *err) {
    const dl_type *t = b->arg_types[i];
    if (t->id == DL_VEC_TYPE_DATE) {
        return DL_OK;
    }
    if (t->id == DL_VEC_TYPE_STRING || is_ts(t) || t->id == DL_VEC_TYPE_NULL) {
        dl_sql_bind_cast(b, i, dl_sql_t(DL_VEC_TYPE_DATE));
        return DL_OK;
    }
    return dl_sql_bind_arg_fail(b, i, "a date", err);
}

/* A timestamp argument: strings and dates are cast to timestamp; timestamp_ntz stays. */
static dl_status
expect_ts(dl_sql_fn_bind *b, int32_t i, dl_error *err) {
    const dl_type *t = b->arg_types[i];
    if (is_ts(t)) {
        return DL_OK;
    }
    if (t->id == DL_VEC_TYPE_STRING || t->id == DL_VEC_TYPE_DATE || t->id == DL_VEC_TYPE_NULL) {
        dl_sql_bind_cast(b, i, dl_sql_t(DL_VEC_TYPE_TIMESTAMP));
        return DL_OK;
    }
    return dl_sql_bind_arg_fail(b, i, "a timestamp", err);
}

static dl_status
bind_unit(dl_sql_fn_bind *b, ts_unit *out, dl_error *err) {
    dl_str s;
    DL_CHECK(dl_sql_bind_const_str(b, 0, &s), err, DL_ERR_SQL_BIND,
             "%s: the unit must be a constant such as 'DAY' or 'HOUR'", b->name);
    *out = parse_unit(s);
    DL_CHECK(*out != U_NONE, err, DL_ERR_SQL_BIND,
             "%s: unknown unit '%.*s' (expected YEAR, QUARTER, MONTH, WEEK, DAY, DAYOFYEAR, HOUR, "
             "MINUTE, SECOND, MILLISECOND or MICROSECOND)",
             b->name, DL_STR_FMT(s));
    return DL_OK;
}

dl_status
dl_sql_bind_date_add(dl_sql_fn_bind *b, dl_error *err) {
    add_bind *bd = dl_sql_bind_alloc(b, sizeof(*bd), err);
    if (bd == NULL) {
        return DL_ERR_NOMEM;
    }
    bd->fn = k_date_add;
    bd->sign = strcasecmp(b->name, "date_sub") == 0 ? -1 : 1;
    b->bind_data = bd;
    if (b->n_args == 3) {
        DL_TRY(bind_unit(b, &bd->unit, err));
        bd->n_arg = 1;
        bd->value_arg = 2;
        DL_TRY(dl_sql_bind_expect(b, 1, dl_sql_t(DL_VEC_TYPE_LONG), "an integer", err));
        DL_TRY(expect_ts(b, 2, err));
        bd->is_ntz = dl_sql_bind_arg(b, 2)->id == DL_VEC_TYPE_TIMESTAMP_NTZ;
        b->ret_type = dl_sql_bind_arg(b, 2);
        return DL_OK;
    }
    bd->n_arg = 1;
    bd->is_date = true;
    bd->unit = strcasecmp(b->name, "add_months") == 0 ? U_MONTH : U_DAY;
    DL_TRY(expect_date(b, 0, err));
    const dl_type *n = b->arg_types[1];
    if (!(n->id == DL_VEC_TYPE_BYTE || n->id == DL_VEC_TYPE_SHORT || n->id == DL_VEC_TYPE_INT)) {
        DL_TRY(dl_sql_bind_expect(b, 1, dl_sql_t(DL_VEC_TYPE_INT), "an integer", err));
    }
    b->ret_type = dl_sql_t(DL_VEC_TYPE_DATE);
    return DL_OK;
}

/* ---- datediff, timestampdiff, months_between ------------------------------------------------- */

typedef struct diff_bind {
    dl_sql_scalar_fn fn;
    ts_unit unit;
    bool is_ntz;
    bool round_off; /* months_between */
} diff_bind;

static dl_status
k_datediff(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
           dl_error *err) {
    dt_frame f;
    DL_TRY(dt_begin(call, args, 2, count, out, &f, err));
    int32_t *r = out->data;
    for (int64_t i = 0; i < count; i++) {
        r[i] = (int32_t)((int64_t)DL_SQL_U(&f.u[0], int32_t, i) - DL_SQL_U(&f.u[1], int32_t, i));
    }
    dl_vec_set_length(out, count);
    return DL_OK;
}

/* Whole months from a to b (wall-clock microseconds), truncated toward zero as
 * LocalDateTime.until(b, MONTHS). */
static int64_t
months_until(int64_t a, int64_t b) {
    int64_t ya;
    int64_t yb;
    int ma;
    int mb;
    int da;
    int db;
    dl_date_to_civil(dl_floor_div(a, DL_MICROS_PER_DAY), &ya, &ma, &da);
    dl_date_to_civil(dl_floor_div(b, DL_MICROS_PER_DAY), &yb, &mb, &db);
    int64_t months = (yb * 12 + mb) - (ya * 12 + ma);
    int64_t rest_a = (int64_t)da * DL_MICROS_PER_DAY + dl_floor_mod(a, DL_MICROS_PER_DAY);
    int64_t rest_b = (int64_t)db * DL_MICROS_PER_DAY + dl_floor_mod(b, DL_MICROS_PER_DAY);
    if (months > 0 && rest_b < rest_a) {
        months--;
    } else if (months < 0 && rest_b > rest_a) {
        months++;
    }
    return months;
}

static int64_t
units_between(ts_unit unit, int64_t a, int64_t b) {
    switch (unit) {
    case U_MONTH:
        return months_until(a, b);
    case U_QUARTER:
        return months_until(a, b) / 3;
    case U_YEAR:
        return months_until(a, b) / 12;
    default: {
        int64_t d = b - a;
        return d / unit_micros[unit];
    }
    }
}

static dl_status
k_timestampdiff(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                dl_error *err) {
    const diff_bind *bd = call->bind_data;
    dt_frame f;
    DL_TRY(dt_begin(call, args + 1, 2, count, out, &f, err));
    int64_t *r = out->data;
    for (int64_t i = 0; i < count; i++) {
        if (dt_row_null(&f, i)) {
            r[i] = 0;
            continue;
        }
        int64_t a = DL_SQL_U(&f.u[0], int64_t, i);
        int64_t b = DL_SQL_U(&f.u[1], int64_t, i);
        if (!bd->is_ntz) {
            a = dl_sql_tz_to_local(f.tz, a);
            b = dl_sql_tz_to_local(f.tz, b);
        }
        r[i] = units_between(bd->unit, a, b);
    }
    dl_vec_set_length(out, count);
    return DL_OK;
}

static double
months_between(int64_t a, int64_t b, bool round_off) {
    int64_t ya;
    int64_t yb;
    int ma;
    int mb;
    int da;
    int db;
    int64_t days_a = dl_floor_div(a, DL_MICROS_PER_DAY);
    int64_t days_b = dl_floor_div(b, DL_MICROS_PER_DAY);
    dl_date_to_civil(days_a, &ya, &ma, &da);
    dl_date_to_civil(days_b, &yb, &mb, &db);
    double month_diff = (double)((ya * 12 + ma) - (yb * 12 + mb));
    bool last_a = da == dl_days_in_month(ya, ma);
    bool last_b = db == dl_days_in_month(yb, mb);
    if (da == db || (last_a && last_b)) {
        return month_diff;
    }
    double seconds =
        (double)(da - db) * 86400.0 +
        (double)(dl_floor_mod(a, DL_MICROS_PER_DAY) - dl_floor_mod(b, DL_MICROS_PER_DAY)) / 1e6;
    double diff = month_diff + seconds / (31.0 * 86400.0);
    return round_off ? floor(diff * 1e8 + 0.5) / 1e8 : diff;
}

static dl_status
k_months_between(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                 dl_error *err) {
    dt_frame f;
    int32_t n = call->n_args;
    DL_TRY(dt_begin(call, args, n, count, out, &f, err));
    double *r = out->data;
    for (int64_t i = 0; i < count; i++) {
        if (dt_row_null(&f, i)) {
            r[i] = 0;
            continue;
        }
        int64_t a = dl_sql_tz_to_local(f.tz, DL_SQL_U(&f.u[0], int64_t, i));
        int64_t b = dl_sql_tz_to_local(f.tz, DL_SQL_U(&f.u[1], int64_t, i));
        bool round_off = n < 3 || dl_vec_get_bool(f.u[2].flat, f.u[2].sel[i]);
        r[i] = months_between(a, b, round_off);
    }
    dl_vec_set_length(out, count);
    return DL_OK;
}

dl_status
dl_sql_bind_date_diff(dl_sql_fn_bind *b, dl_error *err) {
    diff_bind *bd = dl_sql_bind_alloc(b, sizeof(*bd), err);
    if (bd == NULL) {
        return DL_ERR_NOMEM;
    }
    b->bind_data = bd;
    if (strcasecmp(b->name, "months_between") == 0) {
        bd->fn = k_months_between;
        DL_TRY(dl_sql_bind_expect(b, 0, dl_sql_t(DL_VEC_TYPE_TIMESTAMP), "a timestamp", err));
        DL_TRY(dl_sql_bind_expect(b, 1, dl_sql_t(DL_VEC_TYPE_TIMESTAMP), "a timestamp", err));
        if (b->n_args == 3) {
            DL_TRY(dl_sql_bind_expect(b, 2, dl_sql_t(DL_VEC_TYPE_BOOLEAN), "a boolean", err));
        }
        b->ret_type = dl_sql_t(DL_VEC_TYPE_DOUBLE);
        return DL_OK;
    }
    if (b->n_args == 3) {
        bd->fn = k_timestampdiff;
        DL_TRY(bind_unit(b, &bd->unit, err));
        DL_TRY(expect_ts(b, 1, err));
        DL_TRY(expect_ts(b, 2, err));
        bd->is_ntz = dl_sql_bind_arg(b, 1)->id == DL_VEC_TYPE_TIMESTAMP_NTZ &&
                     dl_sql_bind_arg(b, 2)->id == DL_VEC_TYPE_TIMESTAMP_NTZ;
        if (!bd->is_ntz) {
            dl_sql_bind_cast(b, 1, dl_sql_t(DL_VEC_TYPE_TIMESTAMP));
            dl_sql_bind_cast(b, 2, dl_sql_t(DL_VEC_TYPE_TIMESTAMP));
        }
        b->ret_type = dl_sql_t(DL_VEC_TYPE_LONG);
        return DL_OK;
    }
    bd->fn = k_datediff;
    DL_TRY(expect_date(b, 0, err));
    DL_TRY(expect_date(b, 1, err));
    b->ret_type = dl_sql_t(DL_VEC_TYPE_INT);
    return DL_OK;
}

/* ---- current_date, current_timestamp, ... ---------------------------------------------------- */

dl_status
dl_sql_bind_now(dl_sql_fn_bind *b, dl_error *err) {
    DL_UNUSED(err);
    static const char *const names[] = {"current_date", "curdate",        "current_timestamp",
                                        "now",          "localtimestamp", "current_timezone"};
    static const dl_type_id types[] = {DL_VEC_TYPE_DATE,          DL_VEC_TYPE_DATE,
                                       DL_VEC_TYPE_TIMESTAMP,     DL_VEC_TYPE_TIMESTAMP,
                                       DL_VEC_TYPE_TIMESTAMP_NTZ, DL_VEC_TYPE_STRING};
    int k = dl_sql_name_index(b->name, names, (int)DL_ARRAY_LEN(names));
    b->ret_type = dl_sql_t(types[k < 0 ? 2 : k]);
    return DL_OK;
}

dl_status
dl_sql_fn_now(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
              dl_error *err) {
    DL_UNUSED(args);
    const dl_sql_tz *tz;
    DL_TRY(dl_sql_tz_env(call->env, &tz, err));
    int64_t now = call->env != NULL ? call->env->now_us : 0;
    int64_t local = dl_sql_tz_to_local(tz, now);
    switch (out->type->id) {
    case DL_VEC_TYPE_DATE:
        DL_TRY(dl_vec_append_i32(out, dl_ts_to_date(local), err));
        break;
    case DL_VEC_TYPE_TIMESTAMP:
        DL_TRY(dl_vec_append_i64(out, now, err));
        break;
    case DL_VEC_TYPE_TIMESTAMP_NTZ:
        DL_TRY(dl_vec_append_i64(out, local, err));
        break;
    default: {
        const char *id = dl_sql_tz_id(tz);
        DL_TRY(dl_vec_append_str(out, id, strlen(id), err));
        break;
    }
    }
    if (count != 1) {
        dl_vec_make_const(out, count);
    }
    return DL_OK;
}

/* ---- epoch conversions ----------------------------------------------------------------------- */

typedef enum epoch_kind {
    EP_UNIX_SECONDS,
    EP_UNIX_MILLIS,
    EP_UNIX_MICROS,
    EP_UNIX_DATE,
    EP_TS_SECONDS,
    EP_TS_MILLIS,
    EP_TS_MICROS,
    EP_DATE_FROM_UNIX,
} epoch_kind;

typedef struct epoch_bind {
    dl_sql_scalar_fn fn;
    epoch_kind kind;
} epoch_bind;

/* Seconds (any numeric type) as microseconds. */
static bool
seconds_to_micros(const dl_vec_unified *u, const dl_type *t, int64_t i, int64_t *out) {
    if (t->id == DL_VEC_TYPE_DECIMAL) {
        dl_i128 v;
        if (!dl_sql_dec_rescale(DL_SQL_U(u, dl_i128, i), 6 - t->scale, &v) || v > INT64_MAX ||
            v < INT64_MIN) {
            return false;
        }
        *out = (int64_t)v;
        return true;
    }
    if (dl_sql_is_floating(t)) {
        double d = number_at(u, t, i) * 1e6;
        if (!isfinite(d) || d >= 9.2233720368547758e18 || d < -9.2233720368547758e18) {
            return false;
        }
        *out = (int64_t)d;
        return true;
    }
    return !DL_MUL_OVERFLOW(load_i64(u, t->id, i), DL_MICROS_PER_SECOND, out);
}

static bool
epoch_row(epoch_kind kind, const dl_vec_unified *u, const dl_type *t, int64_t i, int64_t *out) {
    int64_t v = kind == EP_TS_SECONDS ? 0 : load_i64(u, t->id, i);
    switch (kind) {
    case EP_UNIX_SECONDS:
        *out = dl_floor_div(v, DL_MICROS_PER_SECOND);
        return true;
    case EP_UNIX_MILLIS:
        *out = dl_floor_div(v, DL_MICROS_PER_MILLI);
        return true;
    case EP_TS_SECONDS:
        return seconds_to_micros(u, t, i, out);
    case EP_TS_MILLIS:
        return !DL_MUL_OVERFLOW(v, DL_MICROS_PER_MILLI, out);
    default:
        *out = v;
        return true;
    }
}

static dl_status
k_epoch(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
        dl_error *err) {
    const epoch_bind *bd = call->bind_data;
    dt_frame f;
    DL_TRY(dt_begin(call, args, 1, count, out, &f, err));
    bool is_i32 = dl_vec_type_phys(out->type) == DL_VEC_PHYS_I32;
    for (int64_t i = 0; i < count; i++) {
        int64_t r = 0;
        if (!dt_row_null(&f, i) && !epoch_row(bd->kind, &f.u[0], args[0]->type, i, &r)) {
            DL_TRY(dt_fail(&f, i, false, false, "timestamp", err));
        }
        if (is_i32) {
            ((int32_t *)out->data)[i] = (int32_t)r;
        } else {
            ((int64_t *)out->data)[i] = r;
        }
    }
    dl_vec_set_length(out, count);
    return DL_OK;
}

dl_status
dl_sql_bind_epoch(dl_sql_fn_bind *b, dl_error *err) {
    static const char *const names[] = {
        "unix_seconds",      "unix_millis",      "unix_micros",      "unix_date",
        "timestamp_seconds", "timestamp_millis", "timestamp_micros", "date_from_unix_date"};
    int k = dl_sql_name_index(b->name, names, (int)DL_ARRAY_LEN(names));
    epoch_bind *bd = dl_sql_bind_alloc(b, sizeof(*bd), err);
    if (bd == NULL || k < 0) {
        return bd == NULL ? DL_ERR_NOMEM : dl_sql_bind_fail(b, err, "unknown epoch function");
    }
    bd->kind = (epoch_kind)k;
    bd->fn = k_epoch;
    b->bind_data = bd;
    switch (bd->kind) {
    case EP_UNIX_SECONDS:
    case EP_UNIX_MILLIS:
    case EP_UNIX_MICROS:
        DL_TRY(dl_sql_bind_expect(b, 0, dl_sql_t(DL_VEC_TYPE_TIMESTAMP), "a timestamp", err));
        b->ret_type = dl_sql_t(DL_VEC_TYPE_LONG);
        return DL_OK;
    case EP_UNIX_DATE:
        DL_TRY(dl_sql_bind_expect(b, 0, dl_sql_t(DL_VEC_TYPE_DATE), "a date", err));
        b->ret_type = dl_sql_t(DL_VEC_TYPE_INT);
        return DL_OK;
    case EP_TS_SECONDS:
        if (!dl_sql_is_numeric(b->arg_types[0])) {
            DL_TRY(dl_sql_bind_expect(b, 0, dl_sql_t(DL_VEC_TYPE_LONG), "numeric", err));
        }
        b->ret_type = dl_sql_t(DL_VEC_TYPE_TIMESTAMP);
        return DL_OK;
    case EP_DATE_FROM_UNIX:
        DL_TRY(dl_sql_bind_expect(b, 0, dl_sql_t(DL_VEC_TYPE_INT), "an integer", err));
        b->ret_type = dl_sql_t(DL_VEC_TYPE_DATE);
        return DL_OK;
    default:
        DL_TRY(dl_sql_bind_expect(b, 0, dl_sql_t(DL_VEC_TYPE_LONG), "an integer", err));
        b->ret_type = dl_sql_t(DL_VEC_TYPE_TIMESTAMP);
        return DL_OK;
    }
}

/* ---- from_utc_timestamp, to_utc_timestamp ---------------------------------------------------- */

dl_status
dl_sql_bind_utc_shift(dl_sql_fn_bind *b, dl_error *err) {
    DL_TRY(dl_sql_bind_expect(b, 0, dl_sql_t(DL_VEC_TYPE_TIMESTAMP), "a timestamp", err));
    DL_TRY(dl_sql_bind_expect(b, 1, dl_sql_t(DL_VEC_TYPE_STRING), "a time zone string", err));
    dl_str zone;
    if (dl_sql_bind_const_str(b, 1, &zone)) {
        char name[80];
        const dl_sql_tz *tz;
        dl_str_copy_to(zone, name, sizeof(name));
        DL_TRY_CTX(dl_sql_tz_get(name, &tz, err), err, "%s", b->name);
    }
    b->ret_type = dl_sql_t(DL_VEC_TYPE_TIMESTAMP);
    return DL_OK;
}

dl_status
dl_sql_fn_utc_shift(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                    dl_error *err) {
    bool is_from = strcasecmp(call->def->name, "from_utc_timestamp") == 0;
    dt_frame f;
    DL_TRY(dt_begin(call, args, 2, count, out, &f, err));
    int64_t *r = out->data;
    const dl_sql_tz *tz = NULL;
    dl_str last = {NULL, 0};
    for (int64_t i = 0; i < count; i++) {
        r[i] = 0;
        if (dt_row_null(&f, i)) {
            continue;
        }
        dl_str zone = dl_sql_u_str(&f.u[1], i);
        if (tz == NULL || !dl_str_eq(zone, last)) {
            char name[80];
            dl_str_copy_to(zone, name, sizeof(name));
            DL_TRY_CTX(dl_sql_tz_get(name, &tz, err), err, "%s", call->def->name);
            last = zone;
        }
        int64_t v = DL_SQL_U(&f.u[0], int64_t, i);
        r[i] = is_from ? dl_sql_tz_to_local(tz, v) : dl_sql_tz_to_utc(tz, v);
    }
    dl_vec_set_length(out, count);
    return DL_OK;
}
