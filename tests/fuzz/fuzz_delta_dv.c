/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target for the deletion vector readers (src/delta/delta_dv*.c).
 *
 * The first input byte picks what the rest is (mod 4):
 *   0  a serialized RoaringBitmapArray (dl_delta_dv_parse)
 *   1  the same, framed by the target into a valid DV file (version byte, big-endian size,
 *      correct CRC-32) and read with dl_delta_dv_parse_file, so mutations reach the bitmap
 *   2  a whole DV file as is, its DV at offset 1 with the size the file states
 *   3  Z85 text of an inline DV, decoded (padded form allowed) and parsed
 *
 * Property checked, on any input:
 *   1. No crash, out-of-bounds access, undefined behaviour or leak (ASan + UBSan + LSan).
 *   2. A refusal is CORRUPT or UNSUPPORTED, with a message (never NOMEM or INTERNAL: the
 *      validator must refuse everything CRoaring's deserializer would, and agree with it on
 *      what it accepts); a parse refusal's dl_error.offset lies within the input.
 *   3. An accepted set is self-consistent (cardinality = rows listed, ascending, each one
 *      contained; range queries agree with contains) and survives serialize -> parse as the
 *      same set, re-serializing to the same bytes.
 * A violation aborts, so libFuzzer records the input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "delta/delta_dv.h"

#define FUZZ_ASSERT(cond)                                                                    \
    do {                                                                                     \
        if (!(cond)) {                                                                       \
            (void)fprintf(stderr, "fuzz_delta_dv: property violated: %s (line %d)\n", #cond, \
                          __LINE__);                                                         \
            abort();                                                                         \
        }                                                                                    \
    } while (0)

#define MAX_ROWS_CHECKED 4096 /* rows listed and probed per accepted set */

/* libFuzzer's fixed entry point name. */
// NOLINTNEXTLINE(readability-identifier-naming)
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_refusal(dl_status s, const dl_error *err, size_t size, bool is_parse) {
    FUZZ_ASSERT(s == DL_ERR_CORRUPT || s == DL_ERR_UNSUPPORTED);
    FUZZ_ASSERT(err->code == s && err->msg[0] != '\0');
    if (is_parse) {
        FUZZ_ASSERT(err->offset >= 0 && (size_t)err->offset <= size);
    }
}

/* Range queries over [start, start + n) agree with contains(). */
static void
check_range(const dl_delta_dv *dv, int64_t start, uint32_t n) {
    static uint32_t del[1024];
    static uint32_t kept[1024];
    FUZZ_ASSERT(n <= 1024);
    int64_t n_del = dl_delta_dv_deleted_in_range(dv, start, n, del);
    int64_t n_kept = dl_delta_dv_kept_in_range(dv, start, n, kept);
    FUZZ_ASSERT(n_del + n_kept == (int64_t)n);
    FUZZ_ASSERT(dl_delta_dv_count_range(dv, start, n) == n_del);
    int64_t d = 0;
    int64_t k = 0;
    for (uint32_t r = 0; r < n; r++) {
        if (dl_delta_dv_contains(dv, start + r)) {
            FUZZ_ASSERT(d < n_del && del[d++] == r);
        } else {
            FUZZ_ASSERT(k < n_kept && kept[k++] == r);
        }
    }
}

static void
check_accepted(const dl_delta_dv *dv) {
    int64_t card = dl_delta_dv_cardinality(dv);
    FUZZ_ASSERT(card >= 0);
    if (card > 0 && card <= MAX_ROWS_CHECKED) {
        int64_t *rows = malloc((size_t)card * sizeof(int64_t));
        FUZZ_ASSERT(rows != NULL);
        dl_delta_dv_to_array(dv, rows);
        for (int64_t i = 0; i < card; i++) {
            FUZZ_ASSERT(rows[i] >= 0 && (i == 0 || rows[i] > rows[i - 1]));
            FUZZ_ASSERT(dl_delta_dv_contains(dv, rows[i]));
        }
        FUZZ_ASSERT(rows[card - 1] == dl_delta_dv_max_row(dv));
        check_range(dv, rows[0] - 5, 300);
        check_range(dv, rows[card / 2] - 500, 1000);
        check_range(dv, rows[card - 1] - 100, 200);
        free(rows);
    }
    dl_buf once;
    dl_buf twice;
    dl_buf_init(&once, NULL);
    dl_buf_init(&twice, NULL);
    dl_delta_dv *back = NULL;
    FUZZ_ASSERT(dl_delta_dv_serialize(dv, &once, NULL) == DL_OK);
    FUZZ_ASSERT(dl_delta_dv_parse(once.data, once.len, NULL, &back, NULL) == DL_OK);
    FUZZ_ASSERT(dl_delta_dv_equal(dv, back));
    FUZZ_ASSERT(dl_delta_dv_serialize(back, &twice, NULL) == DL_OK);
    FUZZ_ASSERT(once.len == twice.len && memcmp(once.data, twice.data, once.len) == 0);
    dl_delta_dv_free(back);
    dl_buf_destroy(&twice);
    dl_buf_destroy(&once);
}

static void
put_be32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* Mode 1: frames body as a valid DV file and reads it back. */
static dl_status
parse_framed(const uint8_t *body, size_t len, dl_delta_dv **out, dl_error *err) {
    uint8_t *file = malloc(len + 9);
    FUZZ_ASSERT(file != NULL);
    file[0] = 1;
    put_be32(file + 1, (uint32_t)len);
    if (len > 0) {
        memcpy(file + 5, body, len);
    }
    put_be32(file + 5 + len, (uint32_t)crc32(0L, body, (uInt)len));
    dl_status s =
        dl_delta_dv_parse_file(file, len + 9, 1, (int32_t)len, "fuzz.bin", NULL, out, err);
    free(file);
    return s;
}

/* Mode 2: the file as given, its DV at offset 1 of the size it states. */
static dl_status
parse_file_as_is(const uint8_t *file, size_t len, dl_delta_dv **out, dl_error *err) {
    int32_t stated = 0;
    if (len >= 5) {
        stated = (int32_t)((uint32_t)file[1] << 24 | (uint32_t)file[2] << 16 |
                           (uint32_t)file[3] << 8 | file[4]);
    }
    if (stated < 0) {
        stated = 0;
    }
    return dl_delta_dv_parse_file(file, len, 1, stated, "fuzz.bin", NULL, out, err);
}

/* Mode 3: inline Z85 text. */
static dl_status
parse_inline(const uint8_t *text, size_t len, dl_delta_dv **out, dl_error *err) {
    uint8_t *bytes = malloc(len / 5 * 4 + 1);
    FUZZ_ASSERT(bytes != NULL);
    size_t n = 0;
    dl_status s = dl_delta_z85_decode_padded((const char *)text, len, bytes, &n, err);
    if (s == DL_OK) {
        FUZZ_ASSERT(n <= len / 5 * 4 && n + 3 >= len / 5 * 4);
        s = dl_delta_dv_parse(bytes, n, NULL, out, err);
    }
    free(bytes);
    return s;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0 || size > ((size_t)1 << 20)) {
        return 0;
    }
    const uint8_t *body = data + 1;
    size_t len = size - 1;
    dl_error err;
    dl_error_clear(&err);
    dl_delta_dv *dv = NULL;
    dl_status s;
    switch (data[0] % 4) {
    case 0:
        s = dl_delta_dv_parse(body, len, NULL, &dv, &err);
        break;
    case 1:
        s = parse_framed(body, len, &dv, &err);
        break;
    case 2:
        s = parse_file_as_is(body, len, &dv, &err);
        break;
    default:
        s = parse_inline(body, len, &dv, &err);
        break;
    }
    if (s != DL_OK) {
        FUZZ_ASSERT(dv == NULL);
        check_refusal(s, &err, len + 9, data[0] % 4 == 0);
        return 0;
    }
    check_accepted(dv);
    dl_delta_dv_free(dv);
    return 0;
}
