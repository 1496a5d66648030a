/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target for a persistent view's definition (src/sql/bind/sql_view.c): the JSON file
 * under <schema folder>/.views/ is outside input (another program, a damaged disk).
 *
 * Properties, on any bytes:
 *   1. Decoding never crashes, reads out of bounds, leaks or triggers undefined behaviour; it
 *      succeeds or fails with an error message.
 *   2. A definition that decodes encodes, and its encoding decodes to a definition that
 *      encodes to the same bytes (the format round-trips).
 * A violation aborts, so libFuzzer records the input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sql/bind/sql_session_int.h"

#define FUZZ_ASSERT(cond)                                                                    \
    do {                                                                                     \
        if (!(cond)) {                                                                       \
            (void)fprintf(stderr, "fuzz_sql_view: property violated: %s (line %d)\n", #cond, \
                          __LINE__);                                                         \
            abort();                                                                         \
        }                                                                                    \
    } while (0)

/* libFuzzer's fixed entry point name. */
// NOLINTNEXTLINE(readability-identifier-naming)
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_error err;
    dl_error_clear(&err);
    dl_sql_view v;
    dl_status s =
        dl_sql_view_decode(&arena, "fuzz", dl_str_make((const char *)data, size), &v, &err);
    FUZZ_ASSERT(s == DL_OK || err.msg[0] != '\0');
    if (s == DL_OK) {
        dl_buf first, second;
        dl_buf_init(&first, NULL);
        dl_buf_init(&second, NULL);
        FUZZ_ASSERT(dl_sql_view_encode(&v, &first, &err) == DL_OK);
        dl_sql_view again;
        FUZZ_ASSERT(dl_sql_view_decode(&arena, "fuzz", dl_buf_view(&first), &again, &err) == DL_OK);
        FUZZ_ASSERT(dl_sql_view_encode(&again, &second, &err) == DL_OK);
        FUZZ_ASSERT(first.len == second.len && memcmp(first.data, second.data, first.len) == 0);
        dl_buf_destroy(&second);
        dl_buf_destroy(&first);
    }
    dl_arena_destroy(&arena);
    return 0;
}
