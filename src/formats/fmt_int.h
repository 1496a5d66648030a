/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Private to the formats part: parsing one text value into a typed value, as Spark's CSV
 * reader converts a token (Java's parsers: Integer.parseInt, Double.parseDouble,
 * java.math.BigDecimal, Scala's toBoolean).
 */
#ifndef DL_FORMATS_FMT_INT_H
#define DL_FORMATS_FMT_INT_H

#include "formats/formats.h"

/* "true" / "false", any case. */
bool dl_fmt_parse_bool(const char *s, size_t n, bool *out);

/* [+-]digits within [min, max] (Integer.parseInt: no spaces, no decimal point). */
bool dl_fmt_parse_int(const char *s, size_t n, int64_t min, int64_t max, int64_t *out);

/* Java's Double.parseDouble: optional surrounding white space, [+-], digits with '.', an
 * exponent, an optional d/D/f/F suffix, NaN, Infinity. */
bool dl_fmt_parse_double(const char *s, size_t n, double *out);

/* java.math.BigDecimal (digits, '.', an exponent) rounded half-up to scale; false when the
 * value needs more than precision digits. */
bool dl_fmt_parse_decimal(const char *s, size_t n, int precision, int scale, dl_i128 *out);

/* Digits of an integer in BigDecimal form ([+-]digits, no point, no exponent), or 0. */
int dl_fmt_integer_digits(const char *s, size_t n);

#endif /* DL_FORMATS_FMT_INT_H */
