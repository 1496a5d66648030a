/* SPDX-License-Identifier: Apache-2.0 */
/*
 * String functions, part two: lpad, rpad, repeat, space, instr, locate, position, startswith,
 * endswith, contains, ascii, chr, split_part, substring_index, overlay, hex, unhex, base64,
 * unbase64. Positions and lengths are in code points (see sql_fn_string.c).
 *
 *   lpad/rpad(s, len [, pad=' '])   exactly len characters: s cut, or padded by repeating pad
 *                                   (an empty pad leaves a short s as it is)
 *   instr(s, sub)                   1-based position of sub in s, 0 when absent
 *   locate(sub, s [, pos])          the same from pos on (1-based; 0 when pos < 1); position is
 *                                   the same function
 *   chr(n)                          the character U+(n mod 256); empty for negative n
 *   split_part(s, delim, n)         n-th part (1-based, negative from the end), '' when out of
 *                                   range; n = 0 is an error
 *   substring_index(s, delim, n)    before the n-th delim (n > 0) or after the n-th from the
 *                                   end (n < 0)
 *   hex(x)                          integers as Long.toHexString (two's complement), strings and
 *                                   binary byte by byte, upper case
 *   base64(b)                       RFC 4648 with padding, one line
 */
#include <string.h>
#include <strings.h>

#include "sql/func/sql_fn_int.h"

static const dl_type *
t_string(void) {
    return dl_sql_t(DL_VEC_TYPE_STRING);
}

static int64_t
int_at(const dl_vec_unified *u, int64_t i) {
    return DL_SQL_U(u, int32_t, i);
}

/* Byte offset of the first occurrence of needle in hay at or after byte from, or -1. */
static int64_t
find_bytes(dl_str hay, dl_str needle, size_t from) {
    if (needle.len == 0) {
        return (int64_t)from;
    }
    for (size_t k = from; k + needle.len <= hay.len; k++) {
        if (hay.ptr[k] == needle.ptr[0] && memcmp(hay.ptr + k, needle.ptr, needle.len) == 0) {
            return (int64_t)k;
        }
    }
    return -1;
}

/* Byte offset of the last occurrence of needle in hay ending at or before byte end, or -1. */
static int64_t
rfind_bytes(dl_str hay, dl_str needle, size_t end) {
    if (needle.len > end) {
        return -1;
    }
    for (size_t k = end - needle.len + 1; k-- > 0;) {
        if (memcmp(hay.ptr + k, needle.ptr, needle.len) == 0) {
            return (int64_t)k;
        }
    }
    return -1;
}

/* ---- lpad, rpad ------------------------------------------------------------------------------ */

static dl_status
append_pad(dl_str pad, int64_t n_chars, dl_buf *buf, dl_error *err) {
    int64_t pad_chars = dl_sql_utf8_len(pad);
    while (n_chars >= pad_chars && pad_chars > 0) {
        DL_TRY(dl_buf_append(buf, pad.ptr, pad.len, err));
        n_chars -= pad_chars;
    }
    if (n_chars > 0) {
        DL_TRY(dl_buf_append(buf, pad.ptr, dl_sql_utf8_offset(pad, n_chars), err));
    }
    return DL_OK;
}

static dl_status
row_pad(const dl_sql_fn_call *call, const dl_vec_unified *u, int64_t i, dl_buf *buf, bool *out_null,
        dl_error *err) {
    *out_null = false;
    bool is_left = strcmp(call->def->name, "lpad") == 0;
    dl_str s = dl_sql_u_str(&u[0], i);
    int64_t len = int_at(&u[1], i);
    dl_str pad = call->n_args > 2 ? dl_sql_u_str(&u[2], i) : DL_STR(" ");
    if (len <= 0) {
        return DL_OK;
    }
    int64_t n = dl_sql_utf8_len(s);
    if (n >= len || pad.len == 0) {
        return dl_buf_append(buf, s.ptr, dl_sql_utf8_offset(s, DL_MIN(n, len)), err);
    }
    DL_CHECK(len <= (1 << 30), err, DL_ERR_LIMIT, "%s: a result of %lld characters is too long",
             call->def->name, (long long)len);
    if (!is_left) {
        DL_TRY(dl_buf_append(buf, s.ptr, s.len, err));
    }
    DL_TRY(append_pad(pad, len - n, buf, err));
    return is_left ? dl_buf_append(buf, s.ptr, s.len, err) : DL_OK;
}

dl_status
dl_sql_bind_pad(dl_sql_fn_bind *b, dl_error *err) {
    DL_TRY(dl_sql_bind_expect(b, 0, t_string(), "a string", err));
    DL_TRY(dl_sql_bind_expect(b, 1, dl_sql_t(DL_VEC_TYPE_INT), "an integer", err));
    if (b->n_args > 2) {
        DL_TRY(dl_sql_bind_expect(b, 2, t_string(), "a string", err));
    }
    b->ret_type = t_string();
    return DL_OK;
}

dl_status
dl_sql_fn_pad(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
              dl_error *err) {
    return dl_sql_str_rows(call, args, count, out, row_pad, err);
}

/* ---- repeat, space --------------------------------------------------------------------------- */

static dl_status
row_repeat(const dl_sql_fn_call *call, const dl_vec_unified *u, int64_t i, dl_buf *buf,
           bool *out_null, dl_error *err) {
    *out_null = false;
    bool is_space = call->n_args == 1;
    dl_str s = is_space ? DL_STR(" ") : dl_sql_u_str(&u[0], i);
    int64_t n = int_at(&u[is_space ? 0 : 1], i);
    DL_CHECK(n <= 0 || s.len == 0 || (uint64_t)n * s.len <= (1u << 30), err, DL_ERR_LIMIT,
             "%s: a result of %lld copies is too long", call->def->name, (long long)n);
    for (int64_t k = 0; k < n; k++) {
        DL_TRY(dl_buf_append(buf, s.ptr, s.len, err));
    }
    return DL_OK;
}

dl_status
dl_sql_bind_repeat(dl_sql_fn_bind *b, dl_error *err) {
    int32_t ni = b->n_args - 1;
    if (b->n_args == 2) {
        DL_TRY(dl_sql_bind_expect(b, 0, t_string(), "a string", err));
    }
    DL_TRY(dl_sql_bind_expect(b, ni, dl_sql_t(DL_VEC_TYPE_INT), "an integer", err));
    b->ret_type = t_string();
    return DL_OK;
}

dl_status
dl_sql_fn_repeat(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                 dl_error *err) {
    return dl_sql_str_rows(call, args, count, out, row_repeat, err);
}

/* ---- instr, locate, position ----------------------------------------------------------------- */

dl_status
dl_sql_bind_locate(dl_sql_fn_bind *b, dl_error *err) {
    DL_TRY(dl_sql_bind_expect(b, 0, t_string(), "a string", err));
    DL_TRY(dl_sql_bind_expect(b, 1, t_string(), "a string", err));
    if (b->n_args > 2) {
        DL_TRY(dl_sql_bind_expect(b, 2, dl_sql_t(DL_VEC_TYPE_INT), "an integer", err));
    }
    b->ret_type = dl_sql_t(DL_VEC_TYPE_INT);
    return DL_OK;
}

dl_status
dl_sql_fn_locate(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                 dl_error *err) {
    bool is_instr = strcmp(call->def->name, "instr") == 0;
    int32_t n = call->n_args;
    dl_vec_unified u[3];
    dl_sql_unify_args(args, n, count, u);
    DL_TRY(dl_sql_out_reserve(out, count, err));
    DL_TRY(dl_sql_out_nulls(out, 0, u, n, count, err));
    int32_t *r = out->data;
    const dl_vec_unified *hay_u = &u[is_instr ? 0 : 1];
    const dl_vec_unified *sub_u = &u[is_instr ? 1 : 0];
    for (int64_t i = 0; i < count; i++) {
        r[i] = 0;
        if (dl_sql_u_null(hay_u, i) || dl_sql_u_null(sub_u, i) ||
            (n > 2 && dl_sql_u_null(&u[2], i))) {
            continue;
        }
        dl_str hay = dl_sql_u_str(hay_u, i);
        dl_str sub = dl_sql_u_str(sub_u, i);
        int64_t pos = n > 2 ? int_at(&u[2], i) : 1;
        if (pos < 1) {
            continue;
        }
        size_t from = dl_sql_utf8_offset(hay, pos - 1);
        if (from == hay.len && pos - 1 > dl_sql_utf8_len(hay)) {
            continue;
        }
        int64_t at = find_bytes(hay, sub, from);
        r[i] = at < 0 ? 0 : (int32_t)(dl_sql_utf8_len(dl_str_slice(hay, 0, (size_t)at)) + 1);
    }
    dl_vec_set_length(out, count);
    return DL_OK;
}

/* ---- startswith, endswith, contains ---------------------------------------------------------- */

dl_status
dl_sql_bind_str_pred(dl_sql_fn_bind *b, dl_error *err) {
    bool binary =
        b->arg_types[0]->id == DL_VEC_TYPE_BINARY && b->arg_types[1]->id == DL_VEC_TYPE_BINARY;
    if (!binary) {
        DL_TRY(dl_sql_bind_expect_range(b, 0, 2, t_string(), "a string", err));
    }
    b->ret_type = dl_sql_t(DL_VEC_TYPE_BOOLEAN);
    return DL_OK;
}

dl_status
dl_sql_fn_str_pred(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                   dl_error *err) {
    int op = call->def->name[0] == 's' ? 0 : call->def->name[0] == 'e' ? 1 : 2;
    dl_vec_unified u[2];
    dl_sql_unify_args(args, 2, count, u);
    DL_TRY(dl_sql_out_reserve(out, count, err));
    DL_TRY(dl_sql_out_nulls(out, 0, u, 2, count, err));
    for (int64_t i = 0; i < count; i++) {
        dl_str s = dl_sql_u_str(&u[0], i);
        dl_str p = dl_sql_u_str(&u[1], i);
        bool r = op == 0   ? dl_str_starts_with(s, p)
                 : op == 1 ? dl_str_ends_with(s, p)
                           : find_bytes(s, p, 0) >= 0;
        dl_vec_bit_put(out->data, i, r);
    }
    dl_vec_set_length(out, count);
    return DL_OK;
}

/* ---- ascii, chr ------------------------------------------------------------------------------ */

dl_status
dl_sql_bind_ascii(dl_sql_fn_bind *b, dl_error *err) {
    DL_TRY(dl_sql_bind_expect(b, 0, t_string(), "a string", err));
    b->ret_type = dl_sql_t(DL_VEC_TYPE_INT);
    return DL_OK;
}

dl_status
dl_sql_fn_ascii(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                dl_error *err) {
    DL_UNUSED(call);
    dl_vec_unified u;
    dl_vec_unify(args[0], count, &u);
    DL_TRY(dl_sql_out_reserve(out, count, err));
    DL_TRY(dl_sql_out_nulls(out, 0, &u, 1, count, err));
    int32_t *r = out->data;
    for (int64_t i = 0; i < count; i++) {
        dl_str s = dl_sql_u_str(&u, i);
        size_t pos = 0;
        r[i] = s.len == 0 ? 0 : (int32_t)dl_sql_utf8_next(s, &pos);
    }
    dl_vec_set_length(out, count);
    return DL_OK;
}

static dl_status
row_chr(const dl_sql_fn_call *call, const dl_vec_unified *u, int64_t i, dl_buf *buf, bool *out_null,
        dl_error *err) {
    *out_null = false;
    DL_UNUSED(call);
    int64_t v = DL_SQL_U(&u[0], int64_t, i);
    if (v < 0) {
        return DL_OK;
    }
    return dl_sql_utf8_put(buf, (uint32_t)(v & 0xFF), err);
}

dl_status
dl_sql_bind_chr(dl_sql_fn_bind *b, dl_error *err) {
    DL_TRY(dl_sql_bind_expect(b, 0, dl_sql_t(DL_VEC_TYPE_LONG), "an integer", err));
    b->ret_type = t_string();
    return DL_OK;
}

dl_status
dl_sql_fn_chr(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
              dl_error *err) {
    return dl_sql_str_rows(call, args, count, out, row_chr, err);
}

/* ---- split_part, substring_index ------------------------------------------------------------- */

dl_status
dl_sql_bind_split_part(dl_sql_fn_bind *b, dl_error *err) {
    DL_TRY(dl_sql_bind_expect_range(b, 0, 2, t_string(), "a string", err));
    DL_TRY(dl_sql_bind_expect(b, 2, dl_sql_t(DL_VEC_TYPE_INT), "an integer", err));
    b->ret_type = t_string();
    return DL_OK;
}

static dl_status
row_split_part(const dl_sql_fn_call *call, const dl_vec_unified *u, int64_t i, dl_buf *buf,
               bool *out_null, dl_error *err) {
    *out_null = false;
    DL_UNUSED(call);
    dl_str s = dl_sql_u_str(&u[0], i);
    dl_str d = dl_sql_u_str(&u[1], i);
    int64_t n = int_at(&u[2], i);
    if (n == 0) {
        return dl_sql_fail_run(err, "use a part number of 1 or more, or -1 or less",
                               "[INVALID_INDEX_OF_ZERO] split_part: the part number must not be 0");
    }
    if (d.len == 0) {
        return n == 1 || n == -1 ? dl_buf_append(buf, s.ptr, s.len, err) : DL_OK;
    }
    /* Part boundaries, found from the front or from the back. */
    size_t start = 0;
    size_t end = s.len;
    if (n > 0) {
        for (int64_t k = 1; k < n; k++) {
            int64_t at = find_bytes(s, d, start);
            if (at < 0) {
                return DL_OK;
            }
            start = (size_t)at + d.len;
        }
        int64_t at = find_bytes(s, d, start);
        end = at < 0 ? s.len : (size_t)at;
    } else {
        for (int64_t k = -1; k > n; k--) {
            int64_t at = rfind_bytes(s, d, end);
            if (at < 0) {
                return DL_OK;
            }
            end = (size_t)at;
        }
        int64_t at = rfind_bytes(s, d, end);
        start = at < 0 ? 0 : (size_t)at + d.len;
    }
    return dl_buf_append(buf, s.ptr + start, end - start, err);
}

dl_status
dl_sql_fn_split_part(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                     dl_error *err) {
    return dl_sql_str_rows(call, args, count, out, row_split_part, err);
}

/* Byte offset of the last occurrence of needle starting at or before byte start, or -1. */
static int64_t
rfind_start(dl_str hay, dl_str needle, int64_t start) {
    if (needle.len > hay.len || start < 0) {
        return -1;
    }
    int64_t k = DL_MIN(start, (int64_t)(hay.len - needle.len));
    for (; k >= 0; k--) {
        if (memcmp(hay.ptr + k, needle.ptr, needle.len) == 0) {
            return k;
        }
    }
    return -1;
}

/* UTF8String.subStringIndex: occurrences are found one position after the previous one, so a
 * delimiter may overlap itself as in Spark. */
static dl_status
row_substring_index(const dl_sql_fn_call *call, const dl_vec_unified *u, int64_t i, dl_buf *buf,
                    bool *out_null, dl_error *err) {
    *out_null = false;
    DL_UNUSED(call);
    dl_str s = dl_sql_u_str(&u[0], i);
    dl_str d = dl_sql_u_str(&u[1], i);
    int64_t n = int_at(&u[2], i);
    if (n == 0 || d.len == 0) {
        return DL_OK;
    }
    int64_t idx;
    if (n > 0) {
        idx = -1;
        for (int64_t k = 0; k < n; k++) {
            idx = find_bytes(s, d, (size_t)(idx + 1));
            if (idx < 0) {
                return dl_buf_append(buf, s.ptr, s.len, err);
            }
        }
        return dl_buf_append(buf, s.ptr, (size_t)idx, err);
    }
    idx = (int64_t)s.len;
    for (int64_t k = 0; k < -n; k++) {
        idx = rfind_start(s, d, idx - 1);
        if (idx < 0) {
            return dl_buf_append(buf, s.ptr, s.len, err);
        }
    }
    size_t from = (size_t)idx + d.len;
    return dl_buf_append(buf, s.ptr + from, s.len - from, err);
}

dl_status
dl_sql_fn_substring_index(dl_sql_fn_call *call, dl_vector *const *args, int64_t count,
                          dl_vector *out, dl_error *err) {
    return dl_sql_str_rows(call, args, count, out, row_substring_index, err);
}

/* ---- overlay --------------------------------------------------------------------------------- */

dl_status
dl_sql_bind_overlay(dl_sql_fn_bind *b, dl_error *err) {
    DL_TRY(dl_sql_bind_expect_range(b, 0, 2, t_string(), "a string", err));
    DL_TRY(dl_sql_bind_expect_range(b, 2, b->n_args, dl_sql_t(DL_VEC_TYPE_INT), "an integer", err));
    b->ret_type = t_string();
    return DL_OK;
}

/* overlay(s PLACING r FROM pos [FOR len]): s's first pos-1 characters, r, then s from
 * pos + len (len defaults to r's length). */
static dl_status
row_overlay(const dl_sql_fn_call *call, const dl_vec_unified *u, int64_t i, dl_buf *buf,
            bool *out_null, dl_error *err) {
    *out_null = false;
    dl_str s = dl_sql_u_str(&u[0], i);
    dl_str r = dl_sql_u_str(&u[1], i);
    int64_t pos = int_at(&u[2], i);
    int64_t len = call->n_args > 3 ? int_at(&u[3], i) : -1;
    if (len < 0) {
        len = dl_sql_utf8_len(r);
    }
    int64_t n = dl_sql_utf8_len(s);
    int64_t head = DL_MAX(DL_MIN(pos - 1, n), 0);
    int64_t tail = DL_MAX(DL_MIN(pos - 1 + len, n), 0);
    DL_TRY(dl_buf_append(buf, s.ptr, dl_sql_utf8_offset(s, head), err));
    DL_TRY(dl_buf_append(buf, r.ptr, r.len, err));
    size_t t = dl_sql_utf8_offset(s, tail);
    return dl_buf_append(buf, s.ptr + t, s.len - t, err);
}

dl_status
dl_sql_fn_overlay(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                  dl_error *err) {
    return dl_sql_str_rows(call, args, count, out, row_overlay, err);
}

/* ---- hex, unhex ------------------------------------------------------------------------------ */

static const char hex_digits[] = "0123456789ABCDEF";

static dl_status
row_hex(const dl_sql_fn_call *call, const dl_vec_unified *u, int64_t i, dl_buf *buf, bool *out_null,
        dl_error *err) {
    *out_null = false;
    if (call->arg_types[0]->id == DL_VEC_TYPE_LONG) {
        uint64_t v = (uint64_t)DL_SQL_U(&u[0], int64_t, i);
        char text[17];
        int n = 0;
        do {
            text[16 - ++n] = hex_digits[v & 15];
            v >>= 4;
        } while (v != 0);
        return dl_buf_append(buf, text + 16 - n, (size_t)n, err);
    }
    dl_str s = dl_sql_u_str(&u[0], i);
    uint8_t *dst = dl_buf_extend(buf, s.len * 2, err);
    if (dst == NULL && s.len > 0) {
        return DL_ERR_NOMEM;
    }
    for (size_t k = 0; k < s.len; k++) {
        dst[2 * k] = (uint8_t)hex_digits[(unsigned char)s.ptr[k] >> 4];
        dst[2 * k + 1] = (uint8_t)hex_digits[(unsigned char)s.ptr[k] & 15];
    }
    return DL_OK;
}

dl_status
dl_sql_bind_hex(dl_sql_fn_bind *b, dl_error *err) {
    const dl_type *t = b->arg_types[0];
    if (dl_sql_is_integral(t)) {
        dl_sql_bind_cast(b, 0, dl_sql_t(DL_VEC_TYPE_LONG));
    } else if (t->id != DL_VEC_TYPE_BINARY) {
        DL_TRY(dl_sql_bind_expect(b, 0, t_string(), "an integer, a string or binary", err));
    }
    b->ret_type = t_string();
    return DL_OK;
}

dl_status
dl_sql_fn_hex(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
              dl_error *err) {
    return dl_sql_str_rows(call, args, count, out, row_hex, err);
}

static int
hex_value(char c) {
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

static dl_status
row_unhex(const dl_sql_fn_call *call, const dl_vec_unified *u, int64_t i, dl_buf *buf,
          bool *out_null, dl_error *err) {
    DL_UNUSED(call);
    dl_str s = dl_sql_u_str(&u[0], i);
    size_t k = 0;
    if (s.len % 2 == 1) {
        int v = hex_value(s.ptr[0]);
        if (v < 0) {
            *out_null = true;
            return DL_OK;
        }
        DL_TRY(dl_buf_append_byte(buf, (uint8_t)v, err));
        k = 1;
    }
    for (; k < s.len; k += 2) {
        int hi = hex_value(s.ptr[k]);
        int lo = hex_value(s.ptr[k + 1]);
        if (hi < 0 || lo < 0) {
            *out_null = true;
            return DL_OK;
        }
        DL_TRY(dl_buf_append_byte(buf, (uint8_t)(hi << 4 | lo), err));
    }
    return DL_OK;
}

dl_status
dl_sql_bind_unhex(dl_sql_fn_bind *b, dl_error *err) {
    DL_TRY(dl_sql_bind_expect(b, 0, t_string(), "a string", err));
    b->ret_type = dl_sql_t(DL_VEC_TYPE_BINARY);
    return DL_OK;
}

dl_status
dl_sql_fn_unhex(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                dl_error *err) {
    return dl_sql_str_rows(call, args, count, out, row_unhex, err);
}

/* ---- base64, unbase64 ------------------------------------------------------------------------ */

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

dl_status
dl_sql_base64_append(dl_str s, dl_buf *buf, dl_error *err) {
    const unsigned char *p = (const unsigned char *)s.ptr;
    for (size_t k = 0; k < s.len; k += 3) {
        uint32_t v = (uint32_t)p[k] << 16;
        size_t n = DL_MIN(s.len - k, 3);
        if (n > 1) {
            v |= (uint32_t)p[k + 1] << 8;
        }
        if (n > 2) {
            v |= p[k + 2];
        }
        char q[4] = {b64[v >> 18 & 63], b64[v >> 12 & 63], (char)(n > 1 ? b64[v >> 6 & 63] : '='),
                     (char)(n > 2 ? b64[v & 63] : '=')};
        DL_TRY(dl_buf_append(buf, q, 4, err));
    }
    return DL_OK;
}

static dl_status
row_base64(const dl_sql_fn_call *call, const dl_vec_unified *u, int64_t i, dl_buf *buf,
           bool *out_null, dl_error *err) {
    *out_null = false;
    DL_UNUSED(call);
    return dl_sql_base64_append(dl_sql_u_str(&u[0], i), buf, err);
}

dl_status
dl_sql_bind_base64(dl_sql_fn_bind *b, dl_error *err) {
    DL_TRY(dl_sql_bind_expect(b, 0, dl_sql_t(DL_VEC_TYPE_BINARY), "binary", err));
    b->ret_type = t_string();
    return DL_OK;
}

dl_status
dl_sql_fn_base64(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                 dl_error *err) {
    return dl_sql_str_rows(call, args, count, out, row_base64, err);
}

static int
b64_value(char c) {
    const char *p = c != '\0' ? strchr(b64, c) : NULL;
    return p != NULL ? (int)(p - b64) : -1;
}

/* Decodes, skipping white space; NULL on any other character or a bad length. */
static dl_status
row_unbase64(const dl_sql_fn_call *call, const dl_vec_unified *u, int64_t i, dl_buf *buf,
             bool *out_null, dl_error *err) {
    DL_UNUSED(call);
    dl_str s = dl_sql_u_str(&u[0], i);
    uint32_t acc = 0;
    int bits = 0;
    size_t pads = 0;
    for (size_t k = 0; k < s.len; k++) {
        char c = s.ptr[k];
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
            continue;
        }
        if (c == '=') {
            pads++;
            continue;
        }
        int v = b64_value(c);
        if (v < 0 || pads > 0) {
            *out_null = true;
            return DL_OK;
        }
        acc = acc << 6 | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            DL_TRY(dl_buf_append_byte(buf, (uint8_t)(acc >> bits), err));
        }
    }
    if (pads > 2 || bits >= 6) {
        *out_null = true;
    }
    return DL_OK;
}

dl_status
dl_sql_bind_unbase64(dl_sql_fn_bind *b, dl_error *err) {
    DL_TRY(dl_sql_bind_expect(b, 0, t_string(), "a string", err));
    b->ret_type = dl_sql_t(DL_VEC_TYPE_BINARY);
    return DL_OK;
}

dl_status
dl_sql_fn_unbase64(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                   dl_error *err) {
    return dl_sql_str_rows(call, args, count, out, row_unbase64, err);
}
