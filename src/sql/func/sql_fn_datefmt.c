/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Spark's datetime patterns (DateTimeFormatter letters, as Spark 3 accepts them) for
 * date_format, from_unixtime, to_date, to_timestamp, to_timestamp_ntz, try_to_timestamp,
 * unix_timestamp and to_unix_timestamp.
 *
 *   G era (AD)            y year (yy: two digits, 2000-2099 when parsing; yyyy: four or more)
 *   M L month (M, MM, MMM Jan, MMMM January)      d day of month     D day of year
 *   Q q quarter (Q, QQ, QQQ Q1, QQQQ 1st quarter)  E day of week (EEE Mon, EEEE Monday)
 *   a AM/PM   h 1-12   K 0-11   k 1-24   H 0-23   m minute   s second
 *   S fraction (as many digits as letters; parsing takes 1 to that many)
 *   V zone id (VV)   z zone name (abbreviation)   O GMT+8 / GMT+08:00
 *   X x Z offsets (X, XX, XXX; X prints Z for zero, x prints +00)
 *   'text' literal, '' a quote, [ ] an optional section; other non-letters are literal
 * Other letters (including the week-based y/w/W/u/e/c that Spark 3 refuses) are an error.
 *
 * Formatting reads the instant on the session zone's wall clock. Parsing is case-insensitive
 * (Spark's parseCaseInsensitive) and strict: the whole text must match. Missing fields are the
 * epoch's (1970-01-01 00:00:00); a zone or offset in the text wins over the session zone.
 * Text that does not parse is NULL in legacy mode and for try_to_timestamp, and an error in
 * ANSI mode. Without a pattern, to_date and to_timestamp are CAST(s AS DATE | TIMESTAMP).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "sql/func/sql_fn_int.h"

typedef struct pat_item {
    char letter; /* 0: literal */
    uint8_t count;
    bool opt_start; /* '[' before this item */
    bool opt_end;   /* ']' after this item */
    uint16_t off;   /* literal: bytes [off, off + len) of text */
    uint16_t len;
} pat_item;

#define MAX_ITEMS 64

typedef struct pattern {
    pat_item items[MAX_ITEMS];
    int n;
    char text[256];
    size_t text_len;
} pattern;

static const char *const month_names[] = {"January",   "February", "March",    "April",
                                          "May",       "June",     "July",     "August",
                                          "September", "October",  "November", "December"};
static const char *const day_names[] = {"Monday", "Tuesday",  "Wednesday", "Thursday",
                                        "Friday", "Saturday", "Sunday"};

/* ---- compiling patterns ---------------------------------------------------------------------- */

static dl_status
bad_pattern(dl_str p, const char *why, dl_error *err) {
    return dl_error_set(err, DL_ERR_SQL_BIND,
                        "[INVALID_DATETIME_PATTERN] the datetime pattern '%.*s' is invalid: %s",
                        DL_STR_FMT(p), why);
}

static dl_status
add_literal(pattern *pt, dl_str p, const char *s, size_t n, bool *opt_pending, dl_error *err) {
    if (pt->n >= MAX_ITEMS || pt->text_len + n > sizeof(pt->text)) {
        return bad_pattern(p, "it is too long", err);
    }
    pat_item *it = &pt->items[pt->n++];
    memset(it, 0, sizeof(*it));
    it->off = (uint16_t)pt->text_len;
    it->len = (uint16_t)n;
    it->opt_start = *opt_pending;
    *opt_pending = false;
    memcpy(pt->text + pt->text_len, s, n);
    pt->text_len += n;
    return DL_OK;
}

/* A quoted literal at p[*i] == '\'' ('' is a quote). */
static dl_status
compile_quote(dl_str p, pattern *pt, size_t *i, bool *opt_pending, dl_error *err) {
    size_t j = *i + 1;
    if (j < p.len && p.ptr[j] == '\'') {
        *i += 2;
        return add_literal(pt, p, "'", 1, opt_pending, err);
    }
    while (j < p.len && p.ptr[j] != '\'') {
        j++;
    }
    if (j >= p.len) {
        return bad_pattern(p, "a quote is not closed", err);
    }
    DL_TRY(add_literal(pt, p, p.ptr + *i + 1, j - *i - 1, opt_pending, err));
    *i = j + 1;
    return DL_OK;
}

/* A run of one pattern letter at p[*i]. */
static dl_status
compile_letter(dl_str p, pattern *pt, size_t *i, bool *opt_pending, dl_error *err) {
    static const char allowed[] = "GyMLdDQqEahKkHmsSVzOXxZ";
    char c = p.ptr[*i];
    if (strchr(allowed, c) == NULL) {
        char why[64];
        (void)snprintf(why, sizeof(why), "the pattern letter '%c' is not supported", c);
        return bad_pattern(p, why, err);
    }
    size_t j = *i;
    while (j < p.len && p.ptr[j] == c) {
        j++;
    }
    DL_CHECK(pt->n < MAX_ITEMS, err, DL_ERR_SQL_BIND,
             "[INVALID_DATETIME_PATTERN] the datetime pattern '%.*s' is too long", DL_STR_FMT(p));
    pat_item *it = &pt->items[pt->n++];
    memset(it, 0, sizeof(*it));
    it->letter = c;
    it->count = (uint8_t)DL_MIN(j - *i, 20);
    it->opt_start = *opt_pending;
    *opt_pending = false;
    *i = j;
    return DL_OK;
}

static dl_status
compile_pattern(dl_str p, pattern *pt, dl_error *err) {
    pt->n = 0;
    pt->text_len = 0;
    bool opt_pending = false;
    for (size_t i = 0; i < p.len;) {
        char c = p.ptr[i];
        if (c == '\'') {
            DL_TRY(compile_quote(p, pt, &i, &opt_pending, err));
        } else if (c == '[') {
            opt_pending = true;
            i++;
        } else if (c == ']') {
            if (pt->n > 0) {
                pt->items[pt->n - 1].opt_end = true;
            }
            i++;
        } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
            DL_TRY(compile_letter(p, pt, &i, &opt_pending, err));
        } else {
            DL_TRY(add_literal(pt, p, p.ptr + i, 1, &opt_pending, err));
            i++;
        }
    }
    return DL_OK;
}

/* ---- formatting ------------------------------------------------------------------------------ */

static dl_status
put_num(dl_buf *out, int64_t v, int width, dl_error *err) {
    char text[32];
    int n = snprintf(text, sizeof(text), "%0*lld", width, (long long)v);
    return dl_buf_append(out, text, (size_t)DL_MAX(n, 0), err);
}

static dl_status
put_offset(dl_buf *out, int32_t off, char letter, int count, dl_error *err) {
    int32_t a = off < 0 ? -off : off;
    int h = a / 3600;
    int m = a / 60 % 60;
    char sign = off < 0 ? '-' : '+';
    char text[32];
    if (letter == 'O' || (letter == 'Z' && count == 4)) {
        if (off == 0) {
            return dl_buf_append_cstr(out, "GMT", err);
        }
        int n = count == 4 ? snprintf(text, sizeof(text), "GMT%c%02d:%02d", sign, h, m)
                : m != 0   ? snprintf(text, sizeof(text), "GMT%c%d:%02d", sign, h, m)
                           : snprintf(text, sizeof(text), "GMT%c%d", sign, h);
        return dl_buf_append(out, text, (size_t)DL_MAX(n, 0), err);
    }
    if (off == 0 && (letter == 'X' || (letter == 'Z' && count == 5))) {
        return dl_buf_append_byte(out, 'Z', err);
    }
    bool colon = (letter == 'Z' && count == 5) || ((letter == 'X' || letter == 'x') && count >= 3);
    int n;
    if ((letter == 'X' || letter == 'x') && count == 1) {
        n = m != 0 ? snprintf(text, sizeof(text), "%c%02d%02d", sign, h, m)
                   : snprintf(text, sizeof(text), "%c%02d", sign, h);
    } else {
        n = snprintf(text, sizeof(text), colon ? "%c%02d:%02d" : "%c%02d%02d", sign, h, m);
    }
    return dl_buf_append(out, text, (size_t)DL_MAX(n, 0), err);
}

/* count digits of the microseconds, zeros beyond the sixth. */
static dl_status
put_fraction(dl_buf *out, int64_t micros, int count, dl_error *err) {
    char digits[32];
    (void)snprintf(digits, sizeof(digits), "%06lld000000000000", (long long)micros);
    return dl_buf_append(out, digits, (size_t)DL_MIN(count, 18), err);
}

typedef struct fmt_value {
    int64_t year;
    int month;
    int day;
    int64_t days;
    int64_t tod;
    int32_t offset;
    const dl_sql_tz *tz;
    int64_t utc;
} fmt_value;

static dl_status
put_text(dl_buf *out, const char *name, int count, dl_error *err) {
    size_t n = count >= 4 ? strlen(name) : count == 5 ? 1 : 3;
    return dl_buf_append(out, name, n, err);
}

/* 10^n for 0 <= n <= 18. */
static int64_t
pow10_i64(int n) {
    int64_t p = 1;
    for (int i = 0; i < n; i++) {
        p *= 10;
    }
    return p;
}

static dl_status
format_item(const pat_item *it, const fmt_value *v, dl_buf *out, dl_error *err) {
    int c = it->count;
    int64_t hour = v->tod / DL_MICROS_PER_HOUR;
    switch (it->letter) {
    case 'G':
        return dl_buf_append_cstr(out, c == 4 ? "Anno Domini" : "AD", err);
    case 'y':
        if (c == 2) {
            return put_num(out, dl_floor_mod(v->year, 100), 2, err);
        }
        /* Four letters or more pad to c digits and sign a year that needs more (Java's
         * SignStyle.EXCEEDS_PAD: 'yyyy' prints 10000 as +10000). */
        if (c >= 4 && c < 19 && v->year > 0 && v->year >= pow10_i64(c)) {
            DL_TRY(dl_buf_append(out, "+", 1, err));
        }
        return put_num(out, v->year, c, err);
    case 'M':
    case 'L':
        return c >= 3 ? put_text(out, month_names[v->month - 1], c, err)
                      : put_num(out, v->month, c, err);
    case 'd':
        return put_num(out, v->day, c, err);
    case 'D':
        return put_num(out, v->days - dl_date_from_civil(v->year, 1, 1) + 1, c, err);
    case 'Q':
    case 'q': {
        int q = (v->month - 1) / 3 + 1;
        static const char *const qn[] = {"1st quarter", "2nd quarter", "3rd quarter",
                                         "4th quarter"};
        if (c == 3) {
            return dl_buf_appendf(out, err, "Q%d", q);
        }
        return c >= 4 ? dl_buf_append_cstr(out, qn[q - 1], err) : put_num(out, q, c, err);
    }
    case 'E':
        return put_text(out, day_names[dl_floor_mod(v->days + 3, 7)], c, err);
    case 'a':
        return dl_buf_append_cstr(out, hour < 12 ? "AM" : "PM", err);
    case 'h':
        return put_num(out, hour % 12 == 0 ? 12 : hour % 12, c, err);
    case 'K':
        return put_num(out, hour % 12, c, err);
    case 'k':
        return put_num(out, hour == 0 ? 24 : hour, c, err);
    case 'H':
        return put_num(out, hour, c, err);
    case 'm':
        return put_num(out, v->tod / DL_MICROS_PER_MINUTE % 60, c, err);
    case 's':
        return put_num(out, v->tod / DL_MICROS_PER_SECOND % 60, c, err);
    case 'S':
        return put_fraction(out, v->tod % DL_MICROS_PER_SECOND, c, err);
    case 'V':
        return dl_buf_append_cstr(out, v->tz != NULL ? dl_sql_tz_id(v->tz) : "UTC", err);
    case 'z':
        return dl_buf_append_cstr(out, v->tz != NULL ? dl_sql_tz_abbrev(v->tz, v->utc) : "UTC",
                                  err);
    default:
        return put_offset(out, v->offset, it->letter, c, err);
    }
}

static dl_status
format_value(const pattern *pt, const fmt_value *v, dl_buf *out, dl_error *err) {
    for (int k = 0; k < pt->n; k++) {
        const pat_item *it = &pt->items[k];
        if (it->letter == 0) {
            DL_TRY(dl_buf_append(out, pt->text + it->off, it->len, err));
        } else {
            DL_TRY(format_item(it, v, out, err));
        }
    }
    return DL_OK;
}

/* ---- parsing --------------------------------------------------------------------------------- */

typedef struct parsed {
    int64_t year;
    int month;
    int day;
    int doy;
    int hour;
    int hour12; /* h or K, -1 when absent */
    int pm;     /* -1 absent, 0 AM, 1 PM */
    int minute;
    int second;
    int32_t micros;
    bool has_offset;
    int32_t offset;
    const dl_sql_tz *zone;
} parsed;

static bool
read_digits(dl_str s, size_t *pos, int min, int max, int64_t *out) {
    int64_t v = 0;
    int n = 0;
    while (*pos < s.len && n < max && s.ptr[*pos] >= '0' && s.ptr[*pos] <= '9') {
        v = v * 10 + (s.ptr[(*pos)++] - '0');
        n++;
    }
    *out = v;
    return n >= min;
}

static int
read_name(dl_str s, size_t *pos, const char *const *names, int n, bool allow_short) {
    for (int k = 0; k < n; k++) {
        size_t len = strlen(names[k]);
        if (s.len - *pos >= len && strncasecmp(s.ptr + *pos, names[k], len) == 0) {
            *pos += len;
            return k;
        }
    }
    for (int k = 0; allow_short && k < n; k++) {
        if (s.len - *pos >= 3 && strncasecmp(s.ptr + *pos, names[k], 3) == 0) {
            *pos += 3;
            return k;
        }
    }
    return -1;
}

static bool
parse_offset_text(dl_str s, size_t *pos, parsed *out) {
    if (*pos < s.len && (s.ptr[*pos] == 'Z' || s.ptr[*pos] == 'z')) {
        (*pos)++;
        out->has_offset = true;
        out->offset = 0;
        return true;
    }
    if (s.len - *pos >= 3 && strncasecmp(s.ptr + *pos, "GMT", 3) == 0) {
        *pos += 3;
        if (*pos >= s.len || (s.ptr[*pos] != '+' && s.ptr[*pos] != '-')) {
            out->has_offset = true;
            out->offset = 0;
            return true;
        }
    }
    if (*pos >= s.len || (s.ptr[*pos] != '+' && s.ptr[*pos] != '-')) {
        return false;
    }
    int sign = s.ptr[(*pos)++] == '-' ? -1 : 1;
    int64_t h;
    int64_t m = 0;
    if (!read_digits(s, pos, 1, 2, &h)) {
        return false;
    }
    if (*pos < s.len && s.ptr[*pos] == ':') {
        (*pos)++;
    }
    (void)read_digits(s, pos, 0, 2, &m);
    out->has_offset = true;
    out->offset = sign * (int32_t)(h * 3600 + m * 60);
    return h <= 18 && m < 60;
}

static bool
parse_zone_id(dl_str s, size_t *pos, parsed *out) {
    size_t start = *pos;
    while (*pos < s.len) {
        char c = s.ptr[*pos];
        bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                  c == '/' || c == '_' || c == '+' || c == '-' || c == ':';
        if (!ok) {
            break;
        }
        (*pos)++;
    }
    char name[80];
    dl_str_copy_to(dl_str_make(s.ptr + start, *pos - start), name, sizeof(name));
    dl_error scratch;
    return *pos > start && dl_sql_tz_get(name, &out->zone, &scratch) == DL_OK;
}

/* True when the item after k is a numeric field (so k takes exactly its letter count). */
static bool
next_is_number(const pattern *pt, int k) {
    if (k + 1 >= pt->n) {
        return false;
    }
    const pat_item *n = &pt->items[k + 1];
    return n->letter != 0 && strchr("yMLdDHhKkmsSQq", n->letter) != NULL &&
           !((n->letter == 'M' || n->letter == 'L' || n->letter == 'Q' || n->letter == 'q') &&
             n->count >= 3);
}

static bool
parse_number_item(const pattern *pt, int k, dl_str s, size_t *pos, parsed *out) {
    const pat_item *it = &pt->items[k];
    int c = it->count;
    bool fixed = next_is_number(pt, k);
    int min = fixed ? c : 1;
    int max = fixed ? c : (it->letter == 'y' && c != 2 ? 10 : DL_MAX(c, 2));
    if (it->letter == 'y' && c == 2) {
        min = max = 2;
    }
    if (it->letter == 'S') {
        min = 1;
        max = c;
    }
    int64_t v;
    size_t start = *pos;
    if (!read_digits(s, pos, min, max, &v)) {
        return false;
    }
    switch (it->letter) {
    case 'y':
        out->year = c == 2 ? 2000 + v : v;
        return true;
    case 'M':
    case 'L':
        out->month = (int)v;
        return v >= 1 && v <= 12;
    case 'd':
        out->day = (int)v;
        return v >= 1 && v <= 31;
    case 'D':
        out->doy = (int)v;
        return v >= 1 && v <= 366;
    case 'H':
    case 'k':
        out->hour = (int)(it->letter == 'k' && v == 24 ? 0 : v);
        return v <= (it->letter == 'k' ? 24 : 23);
    case 'h':
    case 'K':
        out->hour12 = (int)(v % 12);
        return it->letter == 'h' ? v >= 1 && v <= 12 : v <= 11;
    case 'm':
        out->minute = (int)v;
        return v <= 59;
    case 's':
        out->second = (int)v;
        return v <= 59;
    case 'S': {
        int digits = (int)(*pos - start);
        for (int d = digits; d < 6; d++) {
            v *= 10;
        }
        for (int d = 6; d < digits; d++) {
            v /= 10;
        }
        out->micros = (int32_t)v;
        return true;
    }
    default: /* quarter: accepted, not used */
        return v >= 1 && v <= 4;
    }
}

static bool
parse_item(const pattern *pt, int k, dl_str s, size_t *pos, parsed *out) {
    const pat_item *it = &pt->items[k];
    if (it->letter == 0) {
        if (s.len - *pos < it->len || strncasecmp(s.ptr + *pos, pt->text + it->off, it->len) != 0) {
            return false;
        }
        *pos += it->len;
        return true;
    }
    switch (it->letter) {
    case 'M':
    case 'L':
        if (it->count >= 3) {
            int m = read_name(s, pos, month_names, 12, true);
            out->month = m + 1;
            return m >= 0;
        }
        return parse_number_item(pt, k, s, pos, out);
    case 'E':
        return read_name(s, pos, day_names, 7, true) >= 0;
    case 'a': {
        static const char *const ampm[] = {"AM", "PM"};
        out->pm = read_name(s, pos, ampm, 2, false);
        return out->pm >= 0;
    }
    case 'G': {
        static const char *const eras[] = {"AD", "Anno Domini"};
        return read_name(s, pos, eras, 2, false) >= 0;
    }
    case 'V':
    case 'z':
        return parse_zone_id(s, pos, out);
    case 'O':
    case 'X':
    case 'x':
    case 'Z':
        return parse_offset_text(s, pos, out);
    default:
        return parse_number_item(pt, k, s, pos, out);
    }
}

/* Parses s into wall-clock microseconds (*out_local) and, when the text named one, the zone or
 * offset. */
static bool
parse_value(const pattern *pt, dl_str s, parsed *p, int64_t *out_local) {
    memset(p, 0, sizeof(*p));
    p->year = 1970;
    p->month = 1;
    p->day = 1;
    p->hour12 = -1;
    p->pm = -1;
    size_t pos = 0;
    int opt_from = -1;
    size_t opt_pos = 0;
    for (int k = 0; k < pt->n; k++) {
        if (pt->items[k].opt_start) {
            opt_from = k;
            opt_pos = pos;
        }
        bool ok = parse_item(pt, k, s, &pos, p);
        if (!ok && opt_from >= 0) {
            /* Skip the rest of the optional section. */
            pos = opt_pos;
            while (k < pt->n && !pt->items[k].opt_end) {
                k++;
            }
            opt_from = -1;
            continue;
        }
        if (!ok) {
            return false;
        }
        if (pt->items[k].opt_end) {
            opt_from = -1;
        }
    }
    if (pos != s.len) {
        return false;
    }
    if (p->hour12 >= 0) {
        p->hour = p->hour12 + (p->pm == 1 ? 12 : 0);
    }
    int64_t days;
    if (p->doy > 0) {
        days = dl_date_from_civil(p->year, 1, 1) + p->doy - 1;
    } else {
        if (p->day > dl_days_in_month(p->year, p->month)) {
            return false;
        }
        days = dl_date_from_civil(p->year, p->month, p->day);
    }
    *out_local = days * DL_MICROS_PER_DAY + p->hour * DL_MICROS_PER_HOUR +
                 p->minute * DL_MICROS_PER_MINUTE + p->second * DL_MICROS_PER_SECOND + p->micros;
    return true;
}

/* ---- binding --------------------------------------------------------------------------------- */

typedef enum fmt_op {
    FO_DATE_FORMAT,
    FO_FROM_UNIXTIME,
    FO_TO_DATE,
    FO_TO_TIMESTAMP,
    FO_TO_TIMESTAMP_NTZ,
    FO_TRY_TO_TIMESTAMP,
    FO_UNIX_TIMESTAMP,
} fmt_op;

typedef struct fmt_bind {
    dl_sql_scalar_fn fn;
    fmt_op op;
    bool has_const;
    pattern pat;
} fmt_bind;

static const char default_pattern[] = "yyyy-MM-dd HH:mm:ss";

static dl_status
bind_pattern(dl_sql_fn_bind *b, fmt_bind *bd, int32_t i, dl_error *err) {
    dl_str p;
    if (i >= b->n_args) {
        bd->has_const = true;
        return compile_pattern(DL_STR(default_pattern), &bd->pat, err);
    }
    DL_TRY(dl_sql_bind_expect(b, i, dl_sql_t(DL_VEC_TYPE_STRING), "a pattern string", err));
    if (dl_sql_bind_const_str(b, i, &p)) {
        bd->has_const = true;
        DL_TRY_CTX(compile_pattern(p, &bd->pat, err), err, "%s", b->name);
    }
    return DL_OK;
}

dl_status
dl_sql_bind_date_format(dl_sql_fn_bind *b, dl_error *err) {
    fmt_bind *bd = dl_sql_bind_alloc(b, sizeof(*bd), err);
    if (bd == NULL) {
        return DL_ERR_NOMEM;
    }
    bd->op = strcmp(b->name, "from_unixtime") == 0 ? FO_FROM_UNIXTIME : FO_DATE_FORMAT;
    b->bind_data = bd;
    if (bd->op == FO_FROM_UNIXTIME) {
        DL_TRY(dl_sql_bind_expect(b, 0, dl_sql_t(DL_VEC_TYPE_LONG), "seconds", err));
    } else if (b->arg_types[0]->id != DL_VEC_TYPE_TIMESTAMP_NTZ) {
        DL_TRY(dl_sql_bind_expect(b, 0, dl_sql_t(DL_VEC_TYPE_TIMESTAMP), "a timestamp", err));
    }
    DL_TRY(bind_pattern(b, bd, 1, err));
    b->ret_type = dl_sql_t(DL_VEC_TYPE_STRING);
    return DL_OK;
}

/* ---- formatting kernel ----------------------------------------------------------------------- */

static void
fill_value(const dl_sql_tz *tz, int64_t utc, bool is_ntz, fmt_value *v) {
    v->tz = is_ntz ? NULL : tz;
    v->utc = utc;
    v->offset = is_ntz ? 0 : dl_sql_tz_offset_utc(tz, utc);
    int64_t local = utc + (int64_t)v->offset * DL_MICROS_PER_SECOND;
    v->days = dl_floor_div(local, DL_MICROS_PER_DAY);
    v->tod = dl_floor_mod(local, DL_MICROS_PER_DAY);
    dl_date_to_civil(v->days, &v->year, &v->month, &v->day);
}

dl_status
dl_sql_fn_date_format(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                      dl_error *err) {
    const fmt_bind *bd = call->bind_data;
    const dl_sql_tz *tz;
    DL_TRY(dl_sql_tz_env(call->env, &tz, err));
    int32_t n = call->n_args;
    dl_vec_unified u[2];
    dl_sql_unify_args(args, n, count, u);
    bool is_ntz = args[0]->type->id == DL_VEC_TYPE_TIMESTAMP_NTZ;
    pattern row_pat;
    const pattern *pt = &bd->pat;
    dl_buf buf;
    dl_buf_init(&buf, call->env != NULL ? call->env->alloc : NULL);
    dl_status s = DL_OK;
    for (int64_t i = 0; i < count && s == DL_OK; i++) {
        if (dl_sql_u_null(&u[0], i) || (n > 1 && dl_sql_u_null(&u[1], i))) {
            s = dl_vec_append_null(out, err);
            continue;
        }
        if (!bd->has_const) {
            s = compile_pattern(dl_sql_u_str(&u[1], i), &row_pat, err);
            pt = &row_pat;
        }
        int64_t v = DL_SQL_U(&u[0], int64_t, i);
        if (bd->op == FO_FROM_UNIXTIME && s == DL_OK) {
            v = DL_MUL_OVERFLOW(v, DL_MICROS_PER_SECOND, &v) ? 0 : v;
        }
        fmt_value fv;
        fill_value(tz, v, is_ntz, &fv);
        dl_buf_reset(&buf);
        if (s == DL_OK) {
            s = format_value(pt, &fv, &buf, err);
        }
        if (s == DL_OK) {
            s = dl_vec_append_str(out, buf.data, buf.len, err);
        }
    }
    dl_buf_destroy(&buf);
    return s;
}

/* ---- parsing kernel -------------------------------------------------------------------------- */

static bool
is_timestamp_like(const dl_type *t) {
    return t->id == DL_VEC_TYPE_TIMESTAMP || t->id == DL_VEC_TYPE_TIMESTAMP_NTZ ||
           t->id == DL_VEC_TYPE_DATE;
}

/* One row of to_date / to_timestamp / unix_timestamp: false when the text does not parse. */
static bool
to_ts_row(const fmt_bind *bd, const pattern *pt, const dl_sql_tz *tz, dl_str text, int64_t *out) {
    parsed p;
    int64_t local;
    if (!parse_value(pt, text, &p, &local)) {
        return false;
    }
    bool is_ntz = bd->op == FO_TO_TIMESTAMP_NTZ;
    int64_t utc = local;
    if (!is_ntz) {
        if (p.has_offset) {
            utc = local - (int64_t)p.offset * DL_MICROS_PER_SECOND;
        } else {
            utc = dl_sql_tz_to_utc(p.zone != NULL ? p.zone : tz, local);
        }
    }
    switch (bd->op) {
    case FO_TO_DATE:
        *out = dl_ts_to_date(p.has_offset || p.zone != NULL ? dl_sql_tz_to_local(tz, utc) : local);
        return true;
    case FO_UNIX_TIMESTAMP:
        *out = dl_floor_div(utc, DL_MICROS_PER_SECOND);
        return true;
    default:
        *out = is_ntz ? local : utc;
        return true;
    }
}

static dl_status
parse_failed(const fmt_bind *bd, bool ansi, dl_str text, dl_vector *out, int64_t i, dl_error *err) {
    if (!ansi || bd->op == FO_TRY_TO_TIMESTAMP) {
        return dl_sql_out_set_null(out, i, err);
    }
    return dl_sql_fail_run(err,
                           "use try_to_timestamp to tolerate malformed input and return NULL "
                           "instead, or set spark.sql.ansi.enabled to false",
                           "[CANNOT_PARSE_TIMESTAMP] Text '%.*s' could not be parsed with the "
                           "pattern",
                           DL_STR_FMT(text));
}

/* The value of a row whose argument is already a date or timestamp (bind has cast it to the
 * result's kind: a date for to_date, a timestamp otherwise). */
static int64_t
convert_ts_like(const fmt_bind *bd, const dl_type *t, const dl_vec_unified *u, int64_t i) {
    if (t->id == DL_VEC_TYPE_DATE) {
        return DL_SQL_U(u, int32_t, i); /* to_date of a date (bind casts other cases) */
    }
    int64_t v = DL_SQL_U(u, int64_t, i);
    return bd->op == FO_UNIX_TIMESTAMP ? dl_floor_div(v, DL_MICROS_PER_SECOND) : v;
}

typedef struct to_ts_ctx {
    const fmt_bind *bd;
    const dl_sql_tz *tz;
    bool ansi;
    const dl_type *in;
    const dl_vec_unified *u;
    pattern row_pat;
} to_ts_ctx;

/* Row i's value (*out), or NULL / an error when its text does not parse. */
static dl_status
to_ts_one(to_ts_ctx *c, int64_t i, dl_vector *out, int64_t *r, dl_error *err) {
    if (is_timestamp_like(c->in)) {
        *r = convert_ts_like(c->bd, c->in, &c->u[0], i);
        return DL_OK;
    }
    const pattern *pt = &c->bd->pat;
    if (!c->bd->has_const) {
        DL_TRY(compile_pattern(dl_sql_u_str(&c->u[1], i), &c->row_pat, err));
        pt = &c->row_pat;
    }
    dl_str text = dl_sql_u_str(&c->u[0], i);
    if (!to_ts_row(c->bd, pt, c->tz, text, r)) {
        return parse_failed(c->bd, c->ansi, text, out, i, err);
    }
    return DL_OK;
}

static dl_status
k_to_ts(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
        dl_error *err) {
    int32_t n = call->n_args;
    dl_vec_unified u[2];
    to_ts_ctx c = {.bd = call->bind_data,
                   .ansi = call->env != NULL && call->env->ansi,
                   .in = args[0]->type,
                   .u = u};
    DL_TRY(dl_sql_tz_env(call->env, &c.tz, err));
    dl_sql_unify_args(args, n, count, u);
    DL_TRY(dl_sql_out_reserve(out, count, err));
    DL_TRY(dl_sql_out_nulls(out, 0, u, n, count, err));
    bool is_date = out->type->id == DL_VEC_TYPE_DATE;
    for (int64_t i = 0; i < count; i++) {
        int64_t r = 0;
        if (out->validity == NULL || dl_vec_bit_get(out->validity, i)) {
            DL_TRY(to_ts_one(&c, i, out, &r, err));
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

/* unix_timestamp() with no argument: the statement's now. */
static dl_status
k_unix_now(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
           dl_error *err) {
    DL_UNUSED(args);
    int64_t now = call->env != NULL ? call->env->now_us : 0;
    DL_TRY(dl_vec_append_i64(out, dl_floor_div(now, DL_MICROS_PER_SECOND), err));
    if (count != 1) {
        dl_vec_make_const(out, count);
    }
    return DL_OK;
}

dl_status
dl_sql_bind_to_ts(dl_sql_fn_bind *b, dl_error *err) {
    static const char *const names[] = {"to_date",          "to_timestamp",   "to_timestamp_ntz",
                                        "try_to_timestamp", "unix_timestamp", "to_unix_timestamp"};
    static const fmt_op ops[] = {FO_TO_DATE,          FO_TO_TIMESTAMP,   FO_TO_TIMESTAMP_NTZ,
                                 FO_TRY_TO_TIMESTAMP, FO_UNIX_TIMESTAMP, FO_UNIX_TIMESTAMP};
    static const dl_type_id rets[] = {DL_VEC_TYPE_DATE,          DL_VEC_TYPE_TIMESTAMP,
                                      DL_VEC_TYPE_TIMESTAMP_NTZ, DL_VEC_TYPE_TIMESTAMP,
                                      DL_VEC_TYPE_LONG,          DL_VEC_TYPE_LONG};
    int k = dl_sql_name_index(b->name, names, (int)DL_ARRAY_LEN(names));
    fmt_bind *bd = dl_sql_bind_alloc(b, sizeof(*bd), err);
    if (bd == NULL || k < 0) {
        return bd == NULL ? DL_ERR_NOMEM : dl_sql_bind_fail(b, err, "not a parsing function");
    }
    bd->op = ops[k];
    bd->fn = k_to_ts;
    b->bind_data = bd;
    b->ret_type = dl_sql_t(rets[k]);
    if (b->n_args == 0) {
        bd->fn = k_unix_now;
        return DL_OK;
    }
    const dl_type *t = b->arg_types[0];
    if (is_timestamp_like(t) && bd->op != FO_TO_TIMESTAMP_NTZ) {
        if (bd->op == FO_TO_DATE && t->id != DL_VEC_TYPE_DATE) {
            dl_sql_bind_cast(b, 0, dl_sql_t(DL_VEC_TYPE_DATE));
        } else if (bd->op != FO_TO_DATE && t->id == DL_VEC_TYPE_DATE) {
            dl_sql_bind_cast(b, 0, dl_sql_t(DL_VEC_TYPE_TIMESTAMP));
        }
        return DL_OK;
    }
    if (b->n_args == 1 && bd->op != FO_UNIX_TIMESTAMP) {
        /* No pattern: a cast, done by the binder (try_to_timestamp's gives NULL, not an
         * error, for text that is not a timestamp). */
        dl_sql_bind_cast(b, 0, b->ret_type);
        b->is_try_cast = bd->op == FO_TRY_TO_TIMESTAMP;
        bd->fn = k_to_ts;
        return DL_OK;
    }
    DL_TRY(dl_sql_bind_expect(b, 0, dl_sql_t(DL_VEC_TYPE_STRING), "a string", err));
    return bind_pattern(b, bd, 1, err);
}
