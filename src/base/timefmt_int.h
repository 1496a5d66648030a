/* SPDX-License-Identifier: Apache-2.0 */
/* Helpers shared by the time text parsers (timefmt.c, interval.c); not for other parts. */
#ifndef DL_BASE_TIMEFMT_INT_H
#define DL_BASE_TIMEFMT_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"
#include "base/str.h"

/* White space as Spark trims it: ASCII blanks and control bytes. */
static inline bool
dl_timefmt_is_space(unsigned char c) {
    return c <= 0x20 || c == 0x7f;
}

/* Sets err to "invalid <kind> '<text>': <reason> (at offset N)" with the given code, records
 * offset in err->offset and returns code. Long texts are shown cut at 64 bytes. */
dl_status dl_timefmt_fail(dl_error *err, dl_status code, const char *kind, dl_str text,
                          size_t offset, const char *fmt, ...) DL_PRINTF(6, 7);

/* Writes a printable rendering of byte c ("'x'" or "byte 0xNN") into buf of 16 bytes. */
const char *dl_timefmt_byte_name(unsigned char c, char *buf);

#endif /* DL_BASE_TIMEFMT_INT_H */
