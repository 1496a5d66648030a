/* SPDX-License-Identifier: Apache-2.0 */
/*
 * INT96 timestamps, the deprecated physical type Impala, Hive and Spark used for
 * TIMESTAMP: 12 bytes, the first 8 a little-endian signed count of nanoseconds within the
 * day, the last 4 a little-endian unsigned Julian day number (day 2440588 is 1970-01-01).
 * The arithmetic is done in 128 bits, so any bit pattern converts or is reported as out of
 * range; nothing wraps.
 */
#include <string.h>

#include "parquet/encoding/pq_enc_int.h"
#include "parquet/encoding/pq_encoding.h"

#define JULIAN_UNIX_EPOCH 2440588
#define NANOS_PER_DAY     86400000000000LL

/* Nanoseconds since 1970-01-01 of one INT96 value. */
static dl_i128
int96_nanos(const uint8_t *p) {
    int64_t nanos;
    memcpy(&nanos, p, sizeof(nanos));
    uint32_t day = dl_pq_load_le32(p + 8);
    return ((dl_i128)day - JULIAN_UNIX_EPOCH) * NANOS_PER_DAY + nanos;
}

static dl_status
out_of_range(const uint8_t *p, size_t index, const char *unit, dl_error *err) {
    int64_t nanos;
    memcpy(&nanos, p, sizeof(nanos));
    DL_FAIL(err, DL_ERR_CORRUPT,
            "INT96 value %zu (Julian day %u, %lld ns into the day) is outside the range of a "
            "timestamp in %s",
            index, dl_pq_load_le32(p + 8), (long long)nanos, unit);
}

dl_status
dl_pq_int96_to_micros(const uint8_t *values, size_t n, int64_t *out, dl_error *err) {
    for (size_t i = 0; i < n; i++) {
        const uint8_t *p = values + i * DL_PQ_INT96_SIZE;
        dl_i128 ns = int96_nanos(p);
        dl_i128 us = ns / 1000 - (ns % 1000 < 0);
        if (DL_UNLIKELY(us < INT64_MIN || us > INT64_MAX)) {
            return out_of_range(p, i, "microseconds", err);
        }
        out[i] = (int64_t)us;
    }
    return DL_OK;
}

dl_status
dl_pq_int96_to_nanos(const uint8_t *values, size_t n, int64_t *out, dl_error *err) {
    for (size_t i = 0; i < n; i++) {
        const uint8_t *p = values + i * DL_PQ_INT96_SIZE;
        dl_i128 ns = int96_nanos(p);
        if (DL_UNLIKELY(ns < INT64_MIN || ns > INT64_MAX)) {
            return out_of_range(p, i, "nanoseconds", err);
        }
        out[i] = (int64_t)ns;
    }
    return DL_OK;
}

bool
dl_pq_int96_from_micros(int64_t micros, uint8_t out[DL_PQ_INT96_SIZE]) {
    const int64_t micros_per_day = NANOS_PER_DAY / 1000;
    int64_t day = micros / micros_per_day;
    int64_t rem = micros % micros_per_day;
    if (rem < 0) {
        rem += micros_per_day;
        day -= 1;
    }
    if (day < -JULIAN_UNIX_EPOCH) {
        return false;
    }
    int64_t nanos = rem * 1000;
    memcpy(out, &nanos, sizeof(nanos));
    dl_pq_store_le32(out + 8, (uint32_t)(day + JULIAN_UNIX_EPOCH));
    return true;
}
