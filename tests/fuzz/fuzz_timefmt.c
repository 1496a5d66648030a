/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target for the date, timestamp and duration parsers (src/base/timefmt.h).
 * Property: no crash, undefined behaviour or leak on any input; and every accepted value
 * formats to text that parses back to the same value (dates, timestamps in Spark style,
 * durations). The first input byte picks the parser; the rest is the text.
 */
#include <stdlib.h>

#include "base/base.h"
#include "base/timefmt.h"

static void
check_date(dl_str text) {
    int32_t days;
    if (dl_date_parse(text, &days, NULL) != DL_OK) {
        return;
    }
    char out[DL_DATE_STR_CAP];
    size_t n = dl_date_format(days, out);
    int32_t again;
    if (dl_date_parse(dl_str_make(out, n), &again, NULL) != DL_OK || again != days) {
        __builtin_trap();
    }
}

static void
check_ts(dl_str text) {
    int64_t micros;
    if (dl_ts_parse(text, 0, &micros, NULL) != DL_OK) {
        return;
    }
    char out[DL_TS_STR_CAP];
    size_t n = dl_ts_format(micros, DL_TS_STYLE_SPARK, out);
    int64_t again;
    if (dl_ts_parse(dl_str_make(out, n), 0, &again, NULL) != DL_OK || again != micros) {
        __builtin_trap();
    }
}

static void
check_duration(dl_str text) {
    int64_t micros;
    if (dl_duration_parse(text, &micros, NULL) != DL_OK) {
        return;
    }
    char out[DL_DURATION_STR_CAP];
    size_t n = dl_duration_format(micros, out);
    int64_t again;
    if (dl_duration_parse(dl_str_make(out, n), &again, NULL) != DL_OK || again != micros) {
        __builtin_trap();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) {
        return 0;
    }
    dl_str text = dl_str_make((const char *)data + 1, size - 1);
    int64_t micros;
    dl_error err;
    dl_status status = DL_OK;
    switch (data[0] % 6) {
    case 0:
        check_date(text);
        break;
    case 1:
        check_ts(text);
        break;
    case 2:
        check_duration(text);
        break;
    case 3:
        status = dl_ts_ntz_parse(text, data[0] & 8, &micros, &err);
        break;
    case 4:
        status = dl_ts_parse_compact(text, 0, &micros, &err);
        break;
    default:
        status = dl_ts_parse_epoch_millis(text, &micros, &err);
        break;
    }
    DL_UNUSED(status);
    return 0;
}
