/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The function library's private header: what the sql_fn_*.c and sql_cast*.c files share and
 * nobody else needs (the public contract is sql_func.h).
 *
 *   - The registry macros: sql_functions.def lists every function once; this header turns the
 *     list into prototypes, and sql_fn_registry.c into the table.
 *   - Reading arguments: every kernel reads its arguments through dl_vec_unified views, so one
 *     loop serves flat, constant and dictionary vectors; the flat case (identity selection, no
 *     nulls) is the fast path kernels test for once per batch.
 *   - Writing results: kernels write fixed-width values straight into out->data after
 *     dl_sql_out_reserve and mark nulls with dl_sql_out_nulls / dl_sql_out_set_null; strings go
 *     through dl_vec_append_str.
 *   - Shared value code: decimals in 128 bits (and products in 256), Java's text forms of
 *     doubles, time zones, hashes, generic comparison of values of any type.
 *
 * Runtime errors (overflow in ANSI mode, a bad cast, raise_error) are DL_ERR_DATA with
 * Spark's error class in brackets at the start of the message ("[CAST_INVALID_INPUT] ...") and
 * Spark's advice in the hint. Bind errors are DL_ERR_SQL_BIND and name the function.
 */
#ifndef DL_SQL_SQL_FN_INT_H
#define DL_SQL_SQL_FN_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/timefmt.h"
#include "sql/func/sql_func.h"

/* ---- the registry --------------------------------------------------------------------------- */

/* Flags of a scalar line in sql_functions.def. */
#define DL_SQL_FN_NULLPROP 1u /* any NULL argument gives NULL */
#define DL_SQL_FN_VOLATILE 2u /* a new value per row or call: rand(), uuid() */
/* Spark's DivModLike: the divisor is evaluated first, and a NULL divisor (or a zero one, where
 * division by zero gives NULL) makes the row NULL without evaluating the dividend */
#define DL_SQL_FN_DIVISOR_FIRST 4u
#define DL_SQL_FN_TRY           8u /* try_divide, try_mod: a zero divisor gives NULL in ANSI too */

/* Prototypes of everything sql_functions.def names. A line may repeat a bind or kernel (aliases);
 * repeated prototypes are harmless. */
#define DL_SQL_SCALAR(name, min_args, max_args, flags, bind, kernel)                              \
    dl_status bind(dl_sql_fn_bind *b, dl_error *err);                                             \
    dl_status kernel(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out, \
                     dl_error *err);
#define DL_SQL_SCALAR_STATE(name, min_args, max_args, flags, bind, kernel, free_fn) \
    DL_SQL_SCALAR(name, min_args, max_args, flags, bind, kernel)                    \
    void free_fn(dl_sql_fn_call *call);
#define DL_SQL_AGG_PROTOS(prefix)                                                                \
    void prefix##_init(const dl_sql_fn_call *call, void *state);                                 \
    dl_status prefix##_update(dl_sql_fn_call *call, dl_vector *const *args, int64_t count,       \
                              void *const *states, dl_error *err);                               \
    dl_status prefix##_combine(dl_sql_fn_call *call, const void *src, void *dst, dl_error *err); \
    dl_status prefix##_finalize(dl_sql_fn_call *call, void *const *states, int64_t count,        \
                                dl_vector *out, dl_error *err);
#define DL_SQL_AGG(name, min_args, max_args, bind, state_size, prefix) \
    dl_status bind(dl_sql_fn_bind *b, dl_error *err);                  \
    DL_SQL_AGG_PROTOS(prefix)
#define DL_SQL_AGG_OWNING(name, min_args, max_args, bind, state_size, prefix) \
    DL_SQL_AGG(name, min_args, max_args, bind, state_size, prefix)            \
    void prefix##_destroy(const dl_sql_fn_call *call, void *state);
#define DL_SQL_WINDOW(name, min_args, max_args, bind) \
    dl_status bind(dl_sql_fn_bind *b, dl_error *err);
#include "sql/func/sql_functions.def"
#undef DL_SQL_SCALAR
#undef DL_SQL_SCALAR_STATE
#undef DL_SQL_AGG
#undef DL_SQL_AGG_OWNING
#undef DL_SQL_WINDOW

/* The kernel of functions whose bind stores their typed kernel first in the bind data: it calls
 * that kernel (one indirect call per batch). */
dl_status dl_sql_fn_dispatch(dl_sql_fn_call *call, dl_vector *const *args, int64_t count,
                             dl_vector *out, dl_error *err);

/* Aggregate states are at most this many bytes (the executor aligns them to 16). */
#define DL_SQL_AGG_STATE_MAX 64

/* ---- types ---------------------------------------------------------------------------------- */

static inline const dl_type *
dl_sql_t(dl_type_id id) {
    return dl_vec_type_prim(id);
}

static inline bool
dl_sql_is_integral(const dl_type *t) {
    return t->id == DL_VEC_TYPE_BYTE || t->id == DL_VEC_TYPE_SHORT || t->id == DL_VEC_TYPE_INT ||
           t->id == DL_VEC_TYPE_LONG;
}

static inline bool
dl_sql_is_floating(const dl_type *t) {
    return t->id == DL_VEC_TYPE_FLOAT || t->id == DL_VEC_TYPE_DOUBLE;
}

static inline bool
dl_sql_is_numeric(const dl_type *t) {
    return dl_sql_is_integral(t) || dl_sql_is_floating(t) || t->id == DL_VEC_TYPE_DECIMAL;
}

static inline bool
dl_sql_is_stringish(const dl_type *t) {
    return t->id == DL_VEC_TYPE_STRING;
}

static inline bool
dl_sql_is_datetime(const dl_type *t) {
    return t->id == DL_VEC_TYPE_DATE || t->id == DL_VEC_TYPE_TIMESTAMP ||
           t->id == DL_VEC_TYPE_TIMESTAMP_NTZ;
}

static inline bool
dl_sql_is_interval(const dl_type *t) {
    return t->id == DL_VEC_TYPE_INTERVAL_YM || t->id == DL_VEC_TYPE_INTERVAL_DT;
}

/* Spark's DecimalType.forType: the decimal an integral or floating type widens to
 * (byte (3,0), short (5,0), int (10,0), long (20,0), float (14,7), double (30,15)); precision
 * and scale through the out-parameters. False for other types. */
bool dl_sql_decimal_for(const dl_type *t, int *out_precision, int *out_scale);

/* Spark's simpleString of a type into buf (truncated at cap), for messages. Returns buf. */
const char *dl_sql_type_name(const dl_type *t, char *buf, size_t cap);

/* decimal(p, s) in arena, with p clamped to 38 and s to p (DecimalType.bounded). */
DL_NODISCARD dl_status dl_sql_decimal_type(dl_arena *arena, int precision, int scale,
                                           const dl_type **out, dl_error *err);

/* Spark's DecimalType.adjustPrecisionScale (allowPrecisionLoss): a result type for decimal
 * arithmetic whose precision exceeds 38 keeps its integer digits and gives up scale, down to
 * min(scale, 6). */
DL_NODISCARD dl_status dl_sql_decimal_adjusted(dl_arena *arena, int precision, int scale,
                                               const dl_type **out, dl_error *err);

/* ---- bind helpers --------------------------------------------------------------------------- */

/* Fails the bind: DL_ERR_SQL_BIND, "<name>: <message>". */
dl_status dl_sql_bind_fail(const dl_sql_fn_bind *b, dl_error *err, const char *fmt, ...)
    DL_PRINTF(3, 4);

/* Fails the bind with "<name>: argument <i+1> must be <what>, got <type>". */
dl_status dl_sql_bind_arg_fail(const dl_sql_fn_bind *b, int32_t i, const char *what, dl_error *err);

/* Asks the binder to cast argument i to t (nothing when it already has that type). */
void dl_sql_bind_cast(dl_sql_fn_bind *b, int32_t i, const dl_type *t);

/* The argument's type after any cast this bind asked for. */
static inline const dl_type *
dl_sql_bind_arg(const dl_sql_fn_bind *b, int32_t i) {
    return b->cast_to[i] != NULL ? b->cast_to[i] : b->arg_types[i];
}

/* Requires argument i to be (or implicitly cast to) target; asks for the cast. NULL type is
 * accepted. Fails naming what. */
DL_NODISCARD dl_status dl_sql_bind_expect(dl_sql_fn_bind *b, int32_t i, const dl_type *target,
                                          const char *what, dl_error *err);

/* Like dl_sql_bind_expect for several arguments [from, to). */
DL_NODISCARD dl_status dl_sql_bind_expect_range(dl_sql_fn_bind *b, int32_t from, int32_t to,
                                                const dl_type *target, const char *what,
                                                dl_error *err);

/* The constant value of argument i, when the binder decoded one and it is not NULL. */
bool dl_sql_bind_const_i64(const dl_sql_fn_bind *b, int32_t i, int64_t *out);
bool dl_sql_bind_const_str(const dl_sql_fn_bind *b, int32_t i, dl_str *out);

/* Allocates bind data of size bytes (zeroed) in the statement arena. */
void *dl_sql_bind_alloc(dl_sql_fn_bind *b, size_t size, dl_error *err);

/* The binder's argument list for a name alias table: index of name in names[0..n) (case-blind),
 * or -1. */
int dl_sql_name_index(const char *name, const char *const *names, int n);

/* ---- reading arguments ---------------------------------------------------------------------- */

static inline bool
dl_sql_u_null(const dl_vec_unified *u, int64_t i) {
    return u->validity != NULL && !dl_vec_bit_get(u->validity, i);
}

static inline dl_str
dl_sql_u_str(const dl_vec_unified *u, int64_t i) {
    return dl_vec_get_str(u->flat, u->sel[i]);
}

/* A tinyint widened without a signed-char conversion (cert-str34-c). */
static inline int64_t
dl_sql_i8(int8_t v) {
    return (int64_t)((uint8_t)v ^ 0x80u) - 0x80;
}

#define DL_SQL_U(u, type, i) (((const type *)(u)->data)[(u)->sel[i]])

/* True when every argument is a CONST vector (the kernel may compute one row). */
bool dl_sql_all_const(dl_vector *const *args, int32_t n);

/* The first n argument views of a kernel (n <= 8). */
void dl_sql_unify_args(dl_vector *const *args, int32_t n, int64_t count, dl_vec_unified *u);

/* Computes one row and turns out into a CONST vector of count rows when every argument is
 * constant; sets *done. Kernels call it first:
 *     bool done; DL_TRY(dl_sql_fold_const(kernel, call, args, count, out, &done, err));
 *     if (done) return DL_OK; */
DL_NODISCARD dl_status dl_sql_fold_const(dl_sql_scalar_fn kernel, dl_sql_fn_call *call,
                                         dl_vector *const *args, int64_t count, dl_vector *out,
                                         bool *done, dl_error *err);

/* ---- writing results ------------------------------------------------------------------------ */

/* Makes room for n more rows after out->length (FLAT out). */
DL_NODISCARD dl_status dl_sql_out_reserve(dl_vector *out, int64_t n, dl_error *err);

/* Marks row (an index into out's stored rows) null. */
DL_NODISCARD dl_status dl_sql_out_set_null(dl_vector *out, int64_t row, dl_error *err);

/* Marks out rows [base, base + count) null where any of the n views has a null row. */
DL_NODISCARD dl_status dl_sql_out_nulls(dl_vector *out, int64_t base, const dl_vec_unified *u,
                                        int32_t n, int64_t count, dl_error *err);

/* True when any of the n views has a null among its count rows. */
bool dl_sql_any_null(const dl_vec_unified *u, int32_t n);

/* Appends a null row / a value (for loops that append). */
DL_NODISCARD dl_status dl_sql_append_null(dl_vector *out, dl_error *err);

/* Copies element idx of the flat vector src (same type as dst) to the end of dst. */
DL_NODISCARD dl_status dl_sql_append_elem(dl_vector *dst, const dl_vector *src, int64_t idx,
                                          dl_error *err);

/* ---- operators across families ------------------------------------------------------------ */

/* Binds + and - (and try_add, try_subtract) when an argument is a date, timestamp or interval
 * (sql_fn_datetime.c); *out_handled false when neither is. op is '+' or '-'. */
DL_NODISCARD dl_status dl_sql_bind_datetime_arith(dl_sql_fn_bind *b, char op, bool is_try,
                                                  bool *out_handled, dl_error *err);

/* ---- UTF-8 (sql_fn_string.c) ---------------------------------------------------------------- */

/* Code points in s (bytes that do not continue a sequence). */
int64_t dl_sql_utf8_len(dl_str s);

/* Byte offset of code point k (0-based) in s, s.len when k is at or beyond the end. */
size_t dl_sql_utf8_offset(dl_str s, int64_t k);

/* Decodes the code point at s[*pos] and advances *pos; an invalid byte decodes as itself. */
uint32_t dl_sql_utf8_next(dl_str s, size_t *pos);

/* The Unicode simple lower-case mapping of cp (itself when there is none). */
uint32_t dl_sql_lower_cp(uint32_t cp);

/* Appends code point cp as UTF-8. */
DL_NODISCARD dl_status dl_sql_utf8_put(dl_buf *buf, uint32_t cp, dl_error *err);

/* Appends s in base64 (RFC 4648, padded, one line), as base64() and to_json write binary. */
DL_NODISCARD dl_status dl_sql_base64_append(dl_str s, dl_buf *buf, dl_error *err);

/* The string argument kernels loop over: appends each row's result to out, or NULL. */
typedef dl_status (*dl_sql_str_row_fn)(const dl_sql_fn_call *call, const dl_vec_unified *u,
                                       int64_t row, dl_buf *buf, bool *out_null, dl_error *err);

/* Runs fn for every row of args (NULL when any argument is NULL and the function propagates
 * NULLs) and appends the text it leaves in buf to out (STRING or BINARY). */
DL_NODISCARD dl_status dl_sql_str_rows(dl_sql_fn_call *call, dl_vector *const *args, int64_t count,
                                       dl_vector *out, dl_sql_str_row_fn fn, dl_error *err);

/* reverse and concat over arrays (sql_fn_nested.c), bound from the string functions' binds. */
DL_NODISCARD dl_status dl_sql_bind_reverse_array(dl_sql_fn_bind *b, dl_error *err);
DL_NODISCARD dl_status dl_sql_bind_concat_arrays(dl_sql_fn_bind *b, dl_error *err);

/* ---- runtime errors ------------------------------------------------------------------------- */

/* DL_ERR_DATA (a value is invalid for the operation) with message and hint. */
dl_status dl_sql_fail_run(dl_error *err, const char *hint, const char *fmt, ...) DL_PRINTF(3, 4);

/* "[ARITHMETIC_OVERFLOW] <what> overflow." with Spark's try_<op> hint. */
dl_status dl_sql_fail_overflow(dl_error *err, const char *what, const char *try_fn);

/* "[DIVIDE_BY_ZERO] Division by zero." with Spark's hint. */
dl_status dl_sql_fail_div_zero(dl_error *err);

/* ---- decimals (sql_cast_decimal.c) ---------------------------------------------------------- */

#define DL_SQL_DEC_MAX 38

/* 10^n for n in 0..38. */
dl_i128 dl_sql_pow10(int n);

/* True when |v| < 10^precision. */
static inline bool
dl_sql_dec_fits(dl_i128 v, int precision) {
    dl_i128 limit = dl_sql_pow10(precision);
    return v < limit && v > -limit;
}

/* v * 10^shift for shift >= 0 (false on 128-bit overflow); v / 10^-shift rounded HALF_UP for
 * shift < 0. */
bool dl_sql_dec_rescale(dl_i128 v, int shift, dl_i128 *out);

/* Rounds v (at scale) to new_scale <= scale with the given mode. */
typedef enum dl_sql_round_mode {
    DL_SQL_ROUND_HALF_UP,
    DL_SQL_ROUND_HALF_EVEN,
    DL_SQL_ROUND_DOWN, /* toward zero */
    DL_SQL_ROUND_FLOOR,
    DL_SQL_ROUND_CEILING,
} dl_sql_round_mode;

dl_i128 dl_sql_dec_round(dl_i128 v, int drop_digits, dl_sql_round_mode mode);

/* Writes the unscaled v at scale as text: plain ("-12.30") or, when is_java_string, as Java's
 * BigDecimal.toString (scientific when the exponent is below -6: "1E-10", "0E-18"). Returns
 * the length; out needs 48 bytes. */
size_t dl_sql_dec_format(dl_i128 v, int scale, bool is_java_string, char *out);

/* Parses decimal text ("12.5", "-1e3", " 7 ") into an unscaled value at scale, rounding
 * HALF_UP; false when malformed or the rounded value needs more than precision digits
 * (*out_overflow tells which). */
bool dl_sql_dec_parse(dl_str text, int precision, int scale, dl_i128 *out, bool *out_overflow);
/* The digits before the point of decimal text's exact value (Java's precision - scale: 3 for
 * "100", 51 for "1e50", at most 0 for a value below 1); 0 when the text is no number. */
int64_t dl_sql_dec_text_integral_digits(dl_str text);

/* Decimal <-> double. to_double is correctly rounded; from_double goes through the double's
 * shortest text (Spark's BigDecimal(Double.toString(d))) and rounds HALF_UP; false on NaN,
 * infinity or overflow of precision. */
double dl_sql_dec_to_double(dl_i128 v, int scale);
bool dl_sql_dec_from_double(double d, int precision, int scale, dl_i128 *out);

/* 256-bit products and quotients for decimal * and /: (a * b) rounded HALF_UP by drop digits,
 * and (a * 10^shift) / b rounded HALF_UP. False when the result does not fit 128 bits. */
bool dl_sql_dec_mul_round(dl_i128 a, dl_i128 b, int drop, dl_i128 *out);
bool dl_sql_dec_div_round(dl_i128 a, int shift, dl_i128 b, dl_i128 *out);

/* ---- doubles as Java prints them (sql_cast_str.c) ------------------------------------------- */

/* Double.toString / Float.toString: "1.0", "0.1", "1.0E10", "1.0E-5", "NaN", "-Infinity".
 * out needs 32 bytes. Returns the length. */
size_t dl_sql_format_double(double d, char *out);
size_t dl_sql_format_float(float f, char *out);

/* The shortest significant digits of the finite d (|d| as digits[0].digits[1..] * 10^*out_exp),
 * as Double.toString (or Float.toString when is_float) chooses them; digits needs 24 bytes.
 * Returns the digit count; 0.0 is "0" with exponent 0. */
int dl_sql_double_digits(double d, bool is_float, char *digits, int *out_exp);

/* Java's Double.parseDouble plus Spark's special words (inf, infinity, nan, any case), after
 * trimming bytes <= ' '. False when malformed. */
bool dl_sql_text_to_double(dl_str text, double *out);

/* Spark's UTF8String.toLong: trimmed, [+-]digits, and (unless is_exact) an ignored fraction
 * ".digits"; false when malformed or outside [min, max]. */
bool dl_sql_text_to_int(dl_str text, int64_t min, int64_t max, bool is_exact, int64_t *out);

/* ---- time zones (sql_fn_tz.c) --------------------------------------------------------------- */

typedef struct dl_sql_tz dl_sql_tz;

/* The zone named name: "UTC", "Z", "+08:00", "GMT-5", "America/New_York" (from the system's
 * zoneinfo), Java's short ids ("PST"). Zones are loaded once per process and never freed; the
 * pointer stays valid for the process. NULL or empty name is UTC. DL_ERR_DATA for an
 * unknown zone. */
DL_NODISCARD dl_status dl_sql_tz_get(const char *name, const dl_sql_tz **out, dl_error *err);

/* The session zone of env (UTC when unset). */
DL_NODISCARD dl_status dl_sql_tz_env(const dl_sql_fn_env *env, const dl_sql_tz **out,
                                     dl_error *err);

/* Offset east of UTC, in seconds, at the UTC instant utc_us. */
int32_t dl_sql_tz_offset_utc(const dl_sql_tz *tz, int64_t utc_us);

/* Offset for a wall-clock time (microseconds as if UTC), as java.time resolves it: in a gap
 * the offset before the gap (the time moves forward), in an overlap the earlier offset. */
int32_t dl_sql_tz_offset_local(const dl_sql_tz *tz, int64_t local_us);

/* The zone's abbreviation at utc_us ("EST", "CEST"; "UTC"; "+08:00" for fixed offsets). */
const char *dl_sql_tz_abbrev(const dl_sql_tz *tz, int64_t utc_us);

/* The zone's id as given ("America/New_York"). */
const char *dl_sql_tz_id(const dl_sql_tz *tz);

static inline int64_t
dl_sql_tz_to_local(const dl_sql_tz *tz, int64_t utc_us) {
    return utc_us + (int64_t)dl_sql_tz_offset_utc(tz, utc_us) * DL_MICROS_PER_SECOND;
}

static inline int64_t
dl_sql_tz_to_utc(const dl_sql_tz *tz, int64_t local_us) {
    return local_us - (int64_t)dl_sql_tz_offset_local(tz, local_us) * DL_MICROS_PER_SECOND;
}

/* Parses a timestamp string (CAST(s AS TIMESTAMP)) in zone tz: an explicit zone in the text
 * wins. */
DL_NODISCARD dl_status dl_sql_ts_parse_in(dl_str text, const dl_sql_tz *tz, int64_t *out,
                                          dl_error *err);

/* ---- values of any type (sql_fn_compare.c) -------------------------------------------------- */

/* Order of element ia of flat vector a and element ib of flat vector b, both of type t and not
 * null, as Spark orders them (NaN above every double and equal to itself, -0.0 == 0.0,
 * strings and binary byte-wise, arrays and structs element-wise with null first). */
int dl_sql_value_cmp(const dl_type *t, const dl_vector *a, int64_t ia, const dl_vector *b,
                     int64_t ib);

/* True when the value type can be ordered (no maps inside). */
bool dl_sql_type_orderable(const dl_type *t);

/* A 64-bit hash of element i of flat vector v (not null), consistent with dl_sql_value_cmp
 * equality (so -0.0 and 0.0, and all NaNs, hash alike). */
uint64_t dl_sql_value_hash(const dl_type *t, const dl_vector *v, int64_t i);

/* ---- hashes (sql_fn_hash.c) ----------------------------------------------------------------- */

/* Spark's Murmur3_x86_32 over bytes the way Spark hashes strings and binary
 * (hashUnsafeBytes: the tail bytes mixed one at a time), and over an int and a long. */
uint32_t dl_sql_murmur3_bytes(const void *data, size_t len, uint32_t seed);
uint32_t dl_sql_murmur3_int(uint32_t value, uint32_t seed);
uint32_t dl_sql_murmur3_long(uint64_t value, uint32_t seed);

/* XXH64 over bytes, and the 4- and 8-byte forms Spark uses for ints and longs. */
uint64_t dl_sql_xxh64_bytes(const void *data, size_t len, uint64_t seed);
uint64_t dl_sql_xxh64_int(uint32_t value, uint64_t seed);
uint64_t dl_sql_xxh64_long(uint64_t value, uint64_t seed);

/* ---- casts (sql_cast*.c) -------------------------------------------------------------------- */

/* Appends count rows of src cast to out's type at the end of out (dl_sql_cast writes into an
 * empty out; nested casts append children chunk by chunk). */
DL_NODISCARD dl_status dl_sql_cast_append(const dl_sql_fn_env *env, dl_sql_cast_mode mode,
                                          const dl_vector *src, int64_t count, dl_vector *out,
                                          dl_error *err);

/* The text of element idx of flat vector v (type t, not null) as CAST(... AS STRING) writes it,
 * appended to buf. tz is the session zone (timestamps). */
DL_NODISCARD dl_status dl_sql_value_to_text(const dl_sql_fn_env *env, const dl_sql_tz *tz,
                                            const dl_type *t, const dl_vector *v, int64_t idx,
                                            dl_buf *buf, dl_error *err);

/* Casts in families (sql_cast_num.c, sql_cast_str.c): the loops for one (from, to) pair, over
 * the unified view of src; rows are appended at out->length. */
DL_NODISCARD dl_status dl_sql_cast_numeric(const dl_sql_fn_env *env, dl_sql_cast_mode mode,
                                           const dl_vector *src, int64_t count, dl_vector *out,
                                           dl_error *err);
DL_NODISCARD dl_status dl_sql_cast_to_string(const dl_sql_fn_env *env, dl_sql_cast_mode mode,
                                             const dl_vector *src, int64_t count, dl_vector *out,
                                             dl_error *err);
DL_NODISCARD dl_status dl_sql_cast_from_string(const dl_sql_fn_env *env, dl_sql_cast_mode mode,
                                               const dl_vector *src, int64_t count, dl_vector *out,
                                               dl_error *err);
DL_NODISCARD dl_status dl_sql_cast_datetime(const dl_sql_fn_env *env, dl_sql_cast_mode mode,
                                            const dl_vector *src, int64_t count, dl_vector *out,
                                            dl_error *err);

/* The failure of one value's cast: NULL (legacy, try) or the error naming the value and the
 * types (ANSI, store). text is the value as text, error_class Spark's ("CAST_INVALID_INPUT",
 * "CAST_OVERFLOW", "NUMERIC_VALUE_OUT_OF_RANGE"). Returns DL_OK after marking row null when the
 * mode allows it. */
DL_NODISCARD dl_status dl_sql_cast_bad_value(const dl_sql_fn_env *env, dl_sql_cast_mode mode,
                                             const char *error_class, dl_str text,
                                             const dl_type *from, const dl_type *to, dl_vector *out,
                                             int64_t row, dl_error *err);

#endif /* DL_SQL_SQL_FN_INT_H */
