/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Time zones for spark.sql.session.timeZone and the zone arguments of functions, resolved the
 * way java.time resolves them (Spark uses ZoneId.of(id, ZoneId.SHORT_IDS)):
 *
 *   - "UTC", "Z", "GMT", "UT": offset 0; "+08:00", "-0530", "+8", "UTC+8", "GMT-05:00": fixed
 *     offsets up to +-18:00;
 *   - region ids ("America/New_York") from the system's TZif files (RFC 8536) under $TZDIR or
 *     /usr/share/zoneinfo: the version 2+ block of 64-bit transition times, local time types
 *     and abbreviations, and the POSIX TZ footer ("EST5EDT,M3.2.0,M11.1.0") for instants after
 *     the last transition;
 *   - Java's SHORT_IDS ("PST" is America/Los_Angeles, "EST" is -05:00, ...).
 *
 * Wall-clock to instant follows ZonedDateTime.ofLocal: a time in a gap (spring forward) uses
 * the offset before the gap, so it lands after the gap; a time in an overlap (fall back) uses
 * the earlier offset.
 *
 * Zones are loaded once per process into a table guarded by a mutex and never freed, so a
 * zone pointer stays valid for the process (tens of zones at most in practice; the table
 * holds 256).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sql/func/sql_fn_int.h"

#define MAX_ZONES     256
#define MAX_TZIF_SIZE (1u << 20)

/* A rule of the POSIX TZ footer: Mm.w.d, Jn (1..365, no Feb 29) or n (0..365). */
typedef struct tz_rule_date {
    char kind; /* 'M', 'J' or 'D' */
    int month;
    int week;
    int day;
    int32_t time; /* seconds after local midnight */
} tz_rule_date;

typedef struct tz_posix {
    bool is_set;
    bool has_dst;
    int32_t std_offset; /* seconds east of UTC */
    int32_t dst_offset;
    char std_name[16];
    char dst_name[16];
    tz_rule_date start;
    tz_rule_date end;
} tz_posix;

typedef struct tz_type {
    int32_t utoff;
    uint8_t abbr; /* index into abbrs */
} tz_type;

struct dl_sql_tz {
    char id[64];
    bool is_fixed;
    int32_t fixed_offset;
    char fixed_name[16];
    int64_t *trans; /* transition instants, seconds */
    uint8_t *trans_type;
    int32_t n_trans;
    tz_type *types;
    int32_t n_types;
    char *abbrs;
    int32_t n_abbrs;
    tz_posix rule;
};

static dl_sql_tz *zones[MAX_ZONES];
static int n_zones;
static pthread_mutex_t zones_lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- offsets as text ------------------------------------------------------------------------- */

static bool
parse_2digits(const char *s, size_t n, size_t *i, int *out) {
    if (*i >= n || s[*i] < '0' || s[*i] > '9') {
        return false;
    }
    int v = s[(*i)++] - '0';
    if (*i < n && s[*i] >= '0' && s[*i] <= '9') {
        v = v * 10 + (s[(*i)++] - '0');
    }
    *out = v;
    return true;
}

/* "+h", "+hh", "+hh:mm", "+hhmm", "+hh:mm:ss"; seconds east of UTC. */
static bool
parse_offset(const char *s, size_t n, int32_t *out) {
    if (n < 2 || (s[0] != '+' && s[0] != '-')) {
        return false;
    }
    size_t i = 1;
    int h = 0;
    int m = 0;
    int sec = 0;
    size_t before = i;
    if (!parse_2digits(s, n, &i, &h)) {
        return false;
    }
    bool is_compact = i - before == 2 && i < n && s[i] != ':';
    if (i < n) {
        if (s[i] == ':') {
            i++;
        } else if (!is_compact) {
            return false;
        }
        if (!parse_2digits(s, n, &i, &m)) {
            return false;
        }
        if (i < n) {
            if (s[i] == ':') {
                i++;
            }
            if (!parse_2digits(s, n, &i, &sec)) {
                return false;
            }
        }
    }
    int32_t total = h * 3600 + m * 60 + sec;
    if (i != n || m > 59 || sec > 59 || total > DL_TS_MAX_OFFSET_SECONDS) {
        return false;
    }
    *out = s[0] == '-' ? -total : total;
    return true;
}

static void
offset_name(int32_t offset, char *out, size_t cap) {
    if (offset == 0) {
        (void)snprintf(out, cap, "Z");
        return;
    }
    int32_t a = offset < 0 ? -offset : offset;
    if (a % 60 != 0) {
        (void)snprintf(out, cap, "%c%02d:%02d:%02d", offset < 0 ? '-' : '+', a / 3600, a / 60 % 60,
                       a % 60);
    } else {
        (void)snprintf(out, cap, "%c%02d:%02d", offset < 0 ? '-' : '+', a / 3600, a / 60 % 60);
    }
}

/* A fixed zone for UTC-like names and offsets; false when name is neither. */
static bool
fixed_offset_of(const char *name, int32_t *out) {
    static const char *const utc_names[] = {"UTC",     "Z",       "GMT",  "UT",        "UCT",
                                            "Etc/UTC", "Etc/GMT", "Zulu", "Universal", "Greenwich"};
    size_t n = strlen(name);
    for (size_t i = 0; i < DL_ARRAY_LEN(utc_names); i++) {
        size_t k = strlen(utc_names[i]);
        if (n == k && strcmp(name, utc_names[i]) == 0) {
            *out = 0;
            return true;
        }
        if (i < 4 && n > k && strncmp(name, utc_names[i], k) == 0 && i != 1) {
            return parse_offset(name + k, n - k, out);
        }
    }
    return parse_offset(name, n, out);
}

/* ---- TZif ------------------------------------------------------------------------------------ */

static uint32_t
be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int64_t
be64(const uint8_t *p) {
    return (int64_t)((uint64_t)be32(p) << 32 | be32(p + 4));
}

typedef struct tzif_counts {
    uint32_t isut;
    uint32_t isstd;
    uint32_t leap;
    uint32_t time;
    uint32_t type;
    uint32_t chars;
} tzif_counts;

static bool
read_counts(const uint8_t *p, size_t n, tzif_counts *c) {
    if (n < 44 || memcmp(p, "TZif", 4) != 0) {
        return false;
    }
    c->isut = be32(p + 20);
    c->isstd = be32(p + 24);
    c->leap = be32(p + 28);
    c->time = be32(p + 32);
    c->type = be32(p + 36);
    c->chars = be32(p + 40);
    return c->type >= 1 && c->type <= 256 && c->time < 100000 && c->chars < 100000 &&
           c->leap < 100000;
}

static size_t
block_size(const tzif_counts *c, size_t time_size) {
    return (size_t)c->time * time_size + c->time + (size_t)c->type * 6 + c->chars +
           (size_t)c->leap * (time_size + 4) + c->isstd + c->isut;
}

/* ---- POSIX TZ footer ------------------------------------------------------------------------- */

static bool
parse_tz_name(const char **p, char *out, size_t cap) {
    size_t n = 0;
    if (**p == '<') {
        (*p)++;
        while (**p != '\0' && **p != '>') {
            if (n + 1 < cap) {
                out[n++] = **p;
            }
            (*p)++;
        }
        if (**p != '>') {
            return false;
        }
        (*p)++;
    } else {
        while ((**p >= 'A' && **p <= 'Z') || (**p >= 'a' && **p <= 'z')) {
            if (n + 1 < cap) {
                out[n++] = **p;
            }
            (*p)++;
        }
    }
    out[n] = '\0';
    return n >= 3;
}

/* [+-]hh[:mm[:ss]] as seconds (POSIX sign: positive is west). */
static bool
parse_tz_time(const char **p, int32_t *out) {
    int sign = 1;
    if (**p == '+' || **p == '-') {
        sign = **p == '-' ? -1 : 1;
        (*p)++;
    }
    int32_t parts[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++) {
        if (**p < '0' || **p > '9') {
            return k > 0;
        }
        int32_t v = 0;
        while (**p >= '0' && **p <= '9') {
            v = v * 10 + (**p - '0');
            (*p)++;
        }
        parts[k] = v;
        *out = sign * (parts[0] * 3600 + parts[1] * 60 + parts[2]);
        if (**p != ':') {
            return true;
        }
        (*p)++;
    }
    return true;
}

static bool
parse_rule_date(const char **p, tz_rule_date *d) {
    d->time = 7200;
    if (**p == 'M') {
        (*p)++;
        d->kind = 'M';
        char *end;
        d->month = (int)strtol(*p, &end, 10);
        if (*end != '.') {
            return false;
        }
        d->week = (int)strtol(end + 1, &end, 10);
        if (*end != '.') {
            return false;
        }
        d->day = (int)strtol(end + 1, &end, 10);
        *p = end;
        if (d->month < 1 || d->month > 12 || d->week < 1 || d->week > 5 || d->day < 0 ||
            d->day > 6) {
            return false;
        }
    } else {
        d->kind = **p == 'J' ? 'J' : 'D';
        if (**p == 'J') {
            (*p)++;
        }
        char *end;
        d->day = (int)strtol(*p, &end, 10);
        if (end == *p) {
            return false;
        }
        *p = end;
    }
    if (**p == '/') {
        (*p)++;
        return parse_tz_time(p, &d->time);
    }
    return true;
}

static bool
parse_posix(const char *s, tz_posix *r) {
    memset(r, 0, sizeof(*r));
    const char *p = s;
    int32_t west;
    if (!parse_tz_name(&p, r->std_name, sizeof(r->std_name)) || !parse_tz_time(&p, &west)) {
        return false;
    }
    r->std_offset = -west;
    r->is_set = true;
    if (*p == '\0') {
        return true;
    }
    if (!parse_tz_name(&p, r->dst_name, sizeof(r->dst_name))) {
        return false;
    }
    r->has_dst = true;
    r->dst_offset = r->std_offset + 3600;
    if (*p != ',' && *p != '\0') {
        if (!parse_tz_time(&p, &west)) {
            return false;
        }
        r->dst_offset = -west;
    }
    if (*p != ',') {
        r->has_dst = false; /* no rule: treat as standard time */
        return true;
    }
    p++;
    if (!parse_rule_date(&p, &r->start) || *p != ',') {
        return false;
    }
    p++;
    return parse_rule_date(&p, &r->end) && *p == '\0';
}

/* Seconds since the epoch (UTC) of the rule date in year, its time read at offset. */
static int64_t
rule_instant(const tz_rule_date *d, int64_t year, int32_t offset) {
    int64_t day;
    if (d->kind == 'M') {
        int64_t first = dl_date_from_civil(year, d->month, 1);
        int wday = (int)dl_floor_mod(first + 4, 7); /* 1970-01-01 was a Thursday */
        int mday = 1 + (d->day - wday + 7) % 7 + 7 * (d->week - 1);
        int dim = dl_days_in_month(year, d->month);
        while (mday > dim) {
            mday -= 7;
        }
        day = first + mday - 1;
    } else if (d->kind == 'J') {
        day = dl_date_from_civil(year, 1, 1) + d->day - 1;
        if (dl_is_leap_year(year) && d->day >= 60) {
            day++;
        }
    } else {
        day = dl_date_from_civil(year, 1, 1) + d->day;
    }
    return day * 86400 + d->time - offset;
}

static bool
posix_is_dst(const tz_posix *r, int64_t t) {
    if (!r->has_dst) {
        return false;
    }
    int64_t year;
    int month;
    int mday;
    dl_date_to_civil(dl_floor_div(t + r->std_offset, 86400), &year, &month, &mday);
    int64_t start = rule_instant(&r->start, year, r->std_offset);
    int64_t end = rule_instant(&r->end, year, r->dst_offset);
    if (start < end) {
        return t >= start && t < end;
    }
    return t < end || t >= start;
}

/* ---- loading --------------------------------------------------------------------------------- */

static dl_status
read_file(const char *path, uint8_t **out, size_t *out_len, dl_error *err) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        (void)dl_error_set_errno(err, DL_ERR_NOT_FOUND, errno, "cannot open %s", path);
        return DL_ERR_NOT_FOUND;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
        (size_t)st.st_size > MAX_TZIF_SIZE) {
        (void)close(fd);
        DL_FAIL(err, DL_ERR_NOT_FOUND, "%s is not a time zone file", path);
    }
    size_t n = (size_t)st.st_size;
    uint8_t *buf = dl_mem_alloc(NULL, n);
    if (buf == NULL) {
        (void)close(fd);
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory reading %s", path);
    }
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, buf + got, n - got);
        if (r <= 0) {
            break;
        }
        got += (size_t)r;
    }
    (void)close(fd);
    *out = buf;
    *out_len = got;
    return DL_OK;
}

static bool
fill_tables(dl_sql_tz *tz, const uint8_t *p, const tzif_counts *c) {
    tz->n_trans = (int32_t)c->time;
    tz->n_types = (int32_t)c->type;
    tz->n_abbrs = (int32_t)c->chars;
    tz->trans = dl_mem_alloc_array(NULL, c->time + 1, sizeof(int64_t));
    tz->trans_type = dl_mem_alloc(NULL, c->time + 1);
    tz->types = dl_mem_alloc_array(NULL, c->type, sizeof(tz_type));
    tz->abbrs = dl_mem_alloc_zero(NULL, c->chars + 1);
    if (tz->trans == NULL || tz->trans_type == NULL || tz->types == NULL || tz->abbrs == NULL) {
        return false;
    }
    for (uint32_t i = 0; i < c->time; i++) {
        tz->trans[i] = be64(p + (size_t)8 * i);
    }
    p += 8 * (size_t)c->time;
    for (uint32_t i = 0; i < c->time; i++) {
        tz->trans_type[i] = p[i] < c->type ? p[i] : 0;
    }
    p += c->time;
    for (uint32_t i = 0; i < c->type; i++) {
        tz->types[i].utoff = (int32_t)be32(p + (size_t)6 * i);
        tz->types[i].abbr = p[(size_t)6 * i + 5] < c->chars ? p[(size_t)6 * i + 5] : 0;
    }
    p += 6 * (size_t)c->type;
    memcpy(tz->abbrs, p, c->chars);
    return true;
}

static bool
parse_tzif(dl_sql_tz *tz, const uint8_t *data, size_t n) {
    tzif_counts c;
    if (!read_counts(data, n, &c) || data[4] < '2') {
        return false;
    }
    size_t v1 = 44 + block_size(&c, 4);
    if (v1 + 44 > n || !read_counts(data + v1, n - v1, &c)) {
        return false;
    }
    const uint8_t *block = data + v1 + 44;
    size_t size = block_size(&c, 8);
    if (v1 + 44 + size > n || !fill_tables(tz, block, &c)) {
        return false;
    }
    const uint8_t *footer = block + size;
    size_t left = n - (v1 + 44 + size);
    if (left >= 2 && footer[0] == '\n') {
        char text[128];
        size_t k = 0;
        for (size_t i = 1; i < left && footer[i] != '\n' && k + 1 < sizeof(text); i++) {
            text[k++] = (char)footer[i];
        }
        text[k] = '\0';
        if (k > 0 && !parse_posix(text, &tz->rule)) {
            tz->rule.is_set = false;
        }
    }
    return true;
}

static bool
is_region_name(const char *name) {
    if (name[0] == '\0' || name[0] == '/' || strstr(name, "..") != NULL || strlen(name) > 60) {
        return false;
    }
    for (const char *p = name; *p != '\0'; p++) {
        bool ok = (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
                  (*p >= '0' && *p <= '9') || *p == '/' || *p == '_' || *p == '-' || *p == '+';
        if (!ok) {
            return false;
        }
    }
    return true;
}

static void
free_zone(dl_sql_tz *tz) {
    if (tz == NULL) {
        return;
    }
    dl_mem_free(NULL, tz->trans, ((size_t)tz->n_trans + 1) * sizeof(int64_t));
    dl_mem_free(NULL, tz->trans_type, (size_t)tz->n_trans + 1);
    dl_mem_free(NULL, tz->types, (size_t)tz->n_types * sizeof(tz_type));
    dl_mem_free(NULL, tz->abbrs, (size_t)tz->n_abbrs + 1);
    dl_mem_free(NULL, tz, sizeof(*tz));
}

static dl_status
load_region(const char *name, dl_sql_tz *tz, dl_error *err) {
    const char *dir = getenv("TZDIR");
    char path[512];
    int path_len = snprintf(path, sizeof(path), "%s/%s",
                            dir != NULL && dir[0] != '\0' ? dir : "/usr/share/zoneinfo", name);
    if (path_len < 0 || (size_t)path_len >= sizeof(path)) {
        return dl_error_set(err, DL_ERR_DATA, "unknown time zone '%.64s...'", name);
    }
    uint8_t *data = NULL;
    size_t n = 0;
    dl_status s = read_file(path, &data, &n, err);
    if (s != DL_OK) {
        return dl_error_set(err, DL_ERR_DATA, "unknown time zone '%s'", name);
    }
    bool ok = parse_tzif(tz, data, n);
    dl_mem_free(NULL, data, n);
    if (!ok) {
        DL_FAIL(err, DL_ERR_CORRUPT, "time zone '%s': %s is not a valid TZif file", name, path);
    }
    return DL_OK;
}

static const char *
short_id(const char *name) {
    static const char *const ids[][2] = {
        {"ACT", "Australia/Darwin"},
        {"AET", "Australia/Sydney"},
        {"AGT", "America/Argentina/Buenos_Aires"},
        {"ART", "Africa/Cairo"},
        {"AST", "America/Anchorage"},
        {"BET", "America/Sao_Paulo"},
        {"BST", "Asia/Dhaka"},
        {"CAT", "Africa/Harare"},
        {"CNT", "America/St_Johns"},
        {"CST", "America/Chicago"},
        {"CTT", "Asia/Shanghai"},
        {"EAT", "Africa/Addis_Ababa"},
        {"ECT", "Europe/Paris"},
        {"EST", "-05:00"},
        {"HST", "-10:00"},
        {"IET", "America/Indiana/Indianapolis"},
        {"IST", "Asia/Kolkata"},
        {"JST", "Asia/Tokyo"},
        {"MIT", "Pacific/Apia"},
        {"MST", "-07:00"},
        {"NET", "Asia/Yerevan"},
        {"NST", "Pacific/Auckland"},
        {"PLT", "Asia/Karachi"},
        {"PNT", "America/Phoenix"},
        {"PRT", "America/Puerto_Rico"},
        {"PST", "America/Los_Angeles"},
        {"SST", "Pacific/Guadalcanal"},
        {"VST", "Asia/Ho_Chi_Minh"},
    };
    for (size_t i = 0; i < DL_ARRAY_LEN(ids); i++) {
        if (strcmp(name, ids[i][0]) == 0) {
            return ids[i][1];
        }
    }
    return name;
}

static dl_status
load_zone(const char *name, dl_sql_tz **out, dl_error *err) {
    dl_sql_tz *tz = dl_mem_alloc_zero(NULL, sizeof(*tz));
    DL_CHECK(tz != NULL, err, DL_ERR_NOMEM, "out of memory loading time zone '%s'", name);
    (void)snprintf(tz->id, sizeof(tz->id), "%s", name);
    const char *target = short_id(name);
    int32_t offset;
    if (fixed_offset_of(target, &offset)) {
        tz->is_fixed = true;
        tz->fixed_offset = offset;
        offset_name(offset, tz->fixed_name, sizeof(tz->fixed_name));
        *out = tz;
        return DL_OK;
    }
    dl_status s = is_region_name(target)
                      ? load_region(target, tz, err)
                      : dl_error_set(err, DL_ERR_DATA, "unknown time zone '%s'", name);
    if (s != DL_OK) {
        free_zone(tz);
        dl_error_hint(err, "use a region id such as 'America/New_York', or an offset such as "
                           "'+02:00' or 'UTC'");
        return s;
    }
    *out = tz;
    return DL_OK;
}

dl_status
dl_sql_tz_get(const char *name, const dl_sql_tz **out, dl_error *err) {
    if (name == NULL || name[0] == '\0') {
        name = "UTC";
    }
    DL_CHECK(strlen(name) < 64, err, DL_ERR_DATA, "unknown time zone '%.64s...'", name);
    (void)pthread_mutex_lock(&zones_lock);
    for (int i = 0; i < n_zones; i++) {
        if (strcmp(zones[i]->id, name) == 0) {
            *out = zones[i];
            (void)pthread_mutex_unlock(&zones_lock);
            return DL_OK;
        }
    }
    dl_status s = DL_OK;
    if (n_zones == MAX_ZONES) {
        s = dl_error_set(err, DL_ERR_LIMIT, "too many distinct time zones (%d) in one process",
                         MAX_ZONES);
    } else {
        dl_sql_tz *tz;
        s = load_zone(name, &tz, err);
        if (s == DL_OK) {
            zones[n_zones++] = tz;
            *out = tz;
        }
    }
    (void)pthread_mutex_unlock(&zones_lock);
    return s;
}

dl_status
dl_sql_tz_env(const dl_sql_fn_env *env, const dl_sql_tz **out, dl_error *err) {
    return dl_sql_tz_get(env != NULL ? env->time_zone : NULL, out, err);
}

/* ---- offsets --------------------------------------------------------------------------------- */

/* The local time type in effect at t (seconds), or -1 when the footer rule applies. */
static int32_t
type_at(const dl_sql_tz *tz, int64_t t) {
    if (tz->n_trans == 0 || t < tz->trans[0]) {
        return tz->n_trans == 0 && tz->rule.is_set ? -1 : 0;
    }
    if (t >= tz->trans[tz->n_trans - 1] && tz->rule.is_set) {
        return -1;
    }
    int32_t lo = 0;
    int32_t hi = tz->n_trans - 1;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo + 1) / 2;
        if (tz->trans[mid] <= t) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    return tz->trans_type[lo];
}

static int32_t
offset_at_seconds(const dl_sql_tz *tz, int64_t t) {
    if (tz->is_fixed) {
        return tz->fixed_offset;
    }
    int32_t type = type_at(tz, t);
    if (type < 0) {
        return posix_is_dst(&tz->rule, t) ? tz->rule.dst_offset : tz->rule.std_offset;
    }
    return tz->types[type].utoff;
}

int32_t
dl_sql_tz_offset_utc(const dl_sql_tz *tz, int64_t utc_us) {
    return offset_at_seconds(tz, dl_floor_div(utc_us, DL_MICROS_PER_SECOND));
}

int32_t
dl_sql_tz_offset_local(const dl_sql_tz *tz, int64_t local_us) {
    if (tz->is_fixed) {
        return tz->fixed_offset;
    }
    int64_t local = dl_floor_div(local_us, DL_MICROS_PER_SECOND);
    int32_t before = offset_at_seconds(tz, local - 86400);
    int32_t after = offset_at_seconds(tz, local + 86400);
    if (before == after) {
        return before;
    }
    bool before_fits = offset_at_seconds(tz, local - before) == before;
    bool after_fits = offset_at_seconds(tz, local - after) == after;
    return !before_fits && after_fits ? after : before;
}

const char *
dl_sql_tz_abbrev(const dl_sql_tz *tz, int64_t utc_us) {
    if (tz->is_fixed) {
        return tz->fixed_offset == 0 ? "UTC" : tz->fixed_name;
    }
    int64_t t = dl_floor_div(utc_us, DL_MICROS_PER_SECOND);
    int32_t type = type_at(tz, t);
    if (type < 0) {
        return posix_is_dst(&tz->rule, t) ? tz->rule.dst_name : tz->rule.std_name;
    }
    return tz->abbrs + tz->types[type].abbr;
}

const char *
dl_sql_tz_id(const dl_sql_tz *tz) {
    return tz->id;
}

dl_status
dl_sql_ts_parse_in(dl_str text, const dl_sql_tz *tz, int64_t *out, dl_error *err) {
    if (tz->is_fixed) {
        return dl_ts_parse(text, tz->fixed_offset, out, err);
    }
    int64_t local;
    if (dl_ts_ntz_parse(text, false, &local, err) == DL_OK) {
        *out = dl_sql_tz_to_utc(tz, local);
        return DL_OK;
    }
    return dl_ts_parse(text, 0, out, err);
}
