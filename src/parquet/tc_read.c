/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The hardened Thrift compact-protocol reader (format and invariants in tc_proto.h).
 *
 * Primitive reads advance r->pos only when they succeed, so an error reports the byte where
 * the bad value starts. The path in messages comes from r->frames: the root struct's name,
 * then one frame per field being decoded, with the list index when inside a list.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "parquet/tc_proto.h"

void
dl_tc_reader_init(dl_tc_reader *r, const uint8_t *data, size_t len, int64_t base_offset,
                  dl_arena *arena, const char *root) {
    r->data = data;
    r->len = len;
    r->pos = 0;
    r->base_offset = base_offset;
    r->arena = arena;
    size_t budget = 0;
    if (DL_MUL_OVERFLOW(len, (size_t)DL_TC_BUDGET_FACTOR, &budget) ||
        DL_ADD_OVERFLOW(budget, DL_TC_BUDGET_FLOOR, &budget)) {
        budget = SIZE_MAX;
    }
    r->alloc_budget = budget;
    r->depth = 0;
    r->frames[0] = (dl_tc_frame){.name = root, .id = 0, .index = -1};
    r->n_frames = 1;
    r->is_truncated = false;
}

/* Appends formatted text at *used in buf of cap bytes, never overflowing. */
static void append_text(char *buf, size_t cap, size_t *used, const char *fmt, ...) DL_PRINTF(4, 5);

static void
append_text(char *buf, size_t cap, size_t *used, const char *fmt, ...) {
    if (*used + 1 >= cap) {
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *used, cap - *used, fmt, ap);
    va_end(ap);
    if (n < 0) {
        return;
    }
    *used += (size_t)n < cap - *used ? (size_t)n : cap - *used - 1;
}

void
dl_tc_path_format(const dl_tc_reader *r, char *buf, size_t cap) {
    size_t used = 0;
    if (cap == 0) {
        return;
    }
    buf[0] = '\0';
    for (int i = 0; i < r->n_frames; i++) {
        const dl_tc_frame *f = &r->frames[i];
        const char *dot = i > 0 ? "." : "";
        if (f->name != NULL) {
            append_text(buf, cap, &used, "%s%s", dot, f->name);
        } else {
            append_text(buf, cap, &used, "%s<field %d>", dot, (int)f->id);
        }
        if (f->index >= 0) {
            append_text(buf, cap, &used, "[%lld]", (long long)f->index);
        }
    }
}

dl_status
dl_tc_fail(dl_tc_reader *r, dl_error *err, dl_status code, const char *fmt, ...) {
    if (err == NULL) {
        return code;
    }
    char path[512];
    char what[512];
    dl_tc_path_format(r, path, sizeof(path));
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    if (n < 0) {
        what[0] = '\0';
    }
    int64_t at = r->base_offset + (int64_t)r->pos;
    DL_ERROR_WHERE(err);
    (void)dl_error_set(err, code, "%s at byte %lld: %s", path, (long long)at, what);
    err->offset = at;
    return code;
}

static size_t
bytes_left(const dl_tc_reader *r) {
    return r->len - r->pos;
}

/* Fails as truncated unless n more bytes are available. */
static dl_status
need(dl_tc_reader *r, size_t n, const char *what, dl_error *err) {
    if (DL_LIKELY(bytes_left(r) >= n)) {
        return DL_OK;
    }
    r->is_truncated = true;
    return dl_tc_fail(r, err, DL_ERR_CORRUPT, "%s needs %zu bytes but only %zu are left", what, n,
                      bytes_left(r));
}

static dl_status
enter(dl_tc_reader *r, dl_error *err) {
    if (r->depth >= DL_TC_MAX_DEPTH) {
        return dl_tc_fail(r, err, DL_ERR_LIMIT, "nesting deeper than %d levels", DL_TC_MAX_DEPTH);
    }
    r->depth++;
    return DL_OK;
}

static void
leave(dl_tc_reader *r) {
    r->depth--;
}

dl_status
dl_tc_read_varint(dl_tc_reader *r, uint64_t *out, dl_error *err) {
    uint64_t v = 0;
    size_t p = r->pos;
    for (unsigned i = 0; i < DL_TC_VARINT_MAX; i++) {
        if (p >= r->len) {
            r->is_truncated = true;
            return dl_tc_fail(r, err, DL_ERR_CORRUPT, "input ends inside a varint");
        }
        uint8_t b = r->data[p++];
        if (i == DL_TC_VARINT_MAX - 1) {
            if (b & 0x80) {
                return dl_tc_fail(r, err, DL_ERR_CORRUPT, "varint longer than 10 bytes");
            }
            if (b > 1) {
                return dl_tc_fail(r, err, DL_ERR_CORRUPT, "varint overflows 64 bits");
            }
        }
        v |= (uint64_t)(b & 0x7f) << (7 * i);
        if ((b & 0x80) == 0) {
            r->pos = p;
            *out = v;
            return DL_OK;
        }
    }
    return dl_tc_fail(r, err, DL_ERR_CORRUPT, "varint longer than 10 bytes");
}

dl_status
dl_tc_read_byte(dl_tc_reader *r, uint8_t *out, dl_error *err) {
    DL_TRY(need(r, 1, "a byte", err));
    *out = r->data[r->pos++];
    return DL_OK;
}

static int64_t
zigzag_decode(uint64_t u) {
    return (int64_t)((u >> 1) ^ (~(u & 1) + 1));
}

dl_status
dl_tc_read_i16(dl_tc_reader *r, int16_t *out, dl_error *err) {
    size_t start = r->pos;
    uint64_t u = 0;
    DL_TRY(dl_tc_read_varint(r, &u, err));
    if (u > UINT16_MAX) {
        r->pos = start;
        return dl_tc_fail(r, err, DL_ERR_CORRUPT, "i16 value out of range (zigzag %llu)",
                          (unsigned long long)u);
    }
    *out = (int16_t)zigzag_decode(u);
    return DL_OK;
}

dl_status
dl_tc_read_i32(dl_tc_reader *r, int32_t *out, dl_error *err) {
    size_t start = r->pos;
    uint64_t u = 0;
    DL_TRY(dl_tc_read_varint(r, &u, err));
    if (u > UINT32_MAX) {
        r->pos = start;
        return dl_tc_fail(r, err, DL_ERR_CORRUPT, "i32 value out of range (zigzag %llu)",
                          (unsigned long long)u);
    }
    *out = (int32_t)zigzag_decode(u);
    return DL_OK;
}

dl_status
dl_tc_read_i64(dl_tc_reader *r, int64_t *out, dl_error *err) {
    uint64_t u = 0;
    DL_TRY(dl_tc_read_varint(r, &u, err));
    *out = zigzag_decode(u);
    return DL_OK;
}

dl_status
dl_tc_read_double(dl_tc_reader *r, double *out, dl_error *err) {
    DL_TRY(need(r, 8, "a double", err));
    uint64_t bits = 0;
    for (unsigned i = 0; i < 8; i++) {
        bits |= (uint64_t)r->data[r->pos + i] << (8 * i);
    }
    memcpy(out, &bits, sizeof(*out));
    r->pos += 8;
    return DL_OK;
}

dl_status
dl_tc_read_binary(dl_tc_reader *r, dl_str *out, dl_error *err) {
    size_t start = r->pos;
    uint64_t n = 0;
    DL_TRY(dl_tc_read_varint(r, &n, err));
    if (n > bytes_left(r)) {
        size_t left = bytes_left(r);
        r->pos = start;
        r->is_truncated = true;
        return dl_tc_fail(r, err, DL_ERR_CORRUPT, "binary length %llu exceeds the %zu bytes left",
                          (unsigned long long)n, left);
    }
    out->ptr = (const char *)(r->data + r->pos);
    out->len = (size_t)n;
    r->pos += (size_t)n;
    return DL_OK;
}

static bool
is_value_type(uint8_t t) {
    return t >= DL_TC_TRUE && t <= DL_TC_UUID;
}

static const char *
wire_name(uint8_t t) {
    static const char *const names[] = {"stop", "bool(true)", "bool(false)", "i8",     "i16",
                                        "i32",  "i64",        "double",      "binary", "list",
                                        "set",  "map",        "struct",      "uuid"};
    return t < DL_ARRAY_LEN(names) ? names[t] : "invalid";
}

dl_status
dl_tc_read_field_header(dl_tc_reader *r, int16_t *last_id, uint8_t *out_type, int16_t *out_id,
                        dl_error *err) {
    DL_TRY(need(r, 1, "a field header", err));
    uint8_t b = r->data[r->pos];
    uint8_t type = b & 0x0f;
    uint8_t delta = b >> 4;
    if (type == DL_TC_STOP) {
        if (delta != 0) {
            return dl_tc_fail(r, err, DL_ERR_CORRUPT, "invalid field header 0x%02x", b);
        }
        r->pos++;
        *out_type = DL_TC_STOP;
        *out_id = 0;
        return DL_OK;
    }
    if (!is_value_type(type)) {
        return dl_tc_fail(r, err, DL_ERR_CORRUPT, "invalid field type %u in header 0x%02x", type,
                          b);
    }
    r->pos++;
    int32_t id = 0;
    if (delta != 0) {
        id = (int32_t)*last_id + delta;
        if (id > INT16_MAX) {
            r->pos--;
            return dl_tc_fail(r, err, DL_ERR_CORRUPT, "field id %d out of range", (int)id);
        }
    } else {
        int16_t long_id = 0;
        DL_TRY(dl_tc_read_i16(r, &long_id, err));
        id = long_id;
    }
    *last_id = (int16_t)id;
    *out_type = type;
    *out_id = (int16_t)id;
    return DL_OK;
}

/* The fewest bytes one container element of type t takes. */
static size_t
min_elem_size(uint8_t t) {
    switch (t) {
    case DL_TC_DOUBLE:
        return 8;
    case DL_TC_UUID:
        return 16;
    default:
        return 1;
    }
}

static dl_status
check_count(dl_tc_reader *r, size_t start, uint64_t count, size_t min_size, const char *what,
            dl_error *err) {
    if (count > INT32_MAX) {
        r->pos = start;
        return dl_tc_fail(r, err, DL_ERR_CORRUPT, "%s size %llu exceeds the Thrift limit", what,
                          (unsigned long long)count);
    }
    if (count > bytes_left(r) / min_size) {
        size_t left = bytes_left(r);
        r->pos = start;
        r->is_truncated = true;
        return dl_tc_fail(r, err, DL_ERR_CORRUPT,
                          "%s of %llu elements cannot fit in the %zu bytes left", what,
                          (unsigned long long)count, left);
    }
    return DL_OK;
}

dl_status
dl_tc_read_list_header(dl_tc_reader *r, uint8_t *out_elem_type, uint32_t *out_count,
                       dl_error *err) {
    size_t start = r->pos;
    uint8_t b = 0;
    DL_TRY(dl_tc_read_byte(r, &b, err));
    uint8_t elem = b & 0x0f;
    uint64_t count = b >> 4;
    if (count == 15) {
        DL_TRY(dl_tc_read_varint(r, &count, err));
    }
    if (count > 0 && !is_value_type(elem)) {
        r->pos = start;
        return dl_tc_fail(r, err, DL_ERR_CORRUPT, "invalid list element type %u", elem);
    }
    DL_TRY(check_count(r, start, count, min_elem_size(elem), "list", err));
    *out_elem_type = elem;
    *out_count = (uint32_t)count;
    return DL_OK;
}

dl_status
dl_tc_read_map_header(dl_tc_reader *r, uint8_t *out_key_type, uint8_t *out_value_type,
                      uint32_t *out_count, dl_error *err) {
    size_t start = r->pos;
    uint64_t count = 0;
    DL_TRY(dl_tc_read_varint(r, &count, err));
    *out_key_type = 0;
    *out_value_type = 0;
    if (count == 0) {
        *out_count = 0;
        return DL_OK;
    }
    uint8_t kv = 0;
    DL_TRY(dl_tc_read_byte(r, &kv, err));
    uint8_t kt = kv >> 4;
    uint8_t vt = kv & 0x0f;
    if (!is_value_type(kt) || !is_value_type(vt)) {
        r->pos = start;
        return dl_tc_fail(r, err, DL_ERR_CORRUPT, "invalid map types 0x%02x", kv);
    }
    DL_TRY(check_count(r, start, count, min_elem_size(kt) + min_elem_size(vt), "map", err));
    *out_key_type = kt;
    *out_value_type = vt;
    *out_count = (uint32_t)count;
    return DL_OK;
}

static dl_status
skip_container(dl_tc_reader *r, uint8_t type, dl_error *err) {
    uint8_t kt = 0;
    uint8_t vt = 0;
    uint32_t count = 0;
    if (type == DL_TC_MAP) {
        DL_TRY(dl_tc_read_map_header(r, &kt, &vt, &count, err));
    } else {
        DL_TRY(dl_tc_read_list_header(r, &vt, &count, err));
    }
    DL_TRY(enter(r, err));
    for (uint32_t i = 0; i < count; i++) {
        if (type == DL_TC_MAP) {
            DL_TRY(dl_tc_skip(r, kt, false, err));
        }
        DL_TRY(dl_tc_skip(r, vt, false, err));
    }
    leave(r);
    return DL_OK;
}

static dl_status
skip_struct(dl_tc_reader *r, dl_error *err) {
    DL_TRY(enter(r, err));
    int16_t last = 0;
    for (;;) {
        uint8_t type = 0;
        int16_t id = 0;
        DL_TRY(dl_tc_read_field_header(r, &last, &type, &id, err));
        if (type == DL_TC_STOP) {
            break;
        }
        DL_TRY(dl_tc_skip(r, type, true, err));
    }
    leave(r);
    return DL_OK;
}

dl_status
dl_tc_skip(dl_tc_reader *r, uint8_t type, bool is_field, dl_error *err) {
    uint64_t u = 0;
    dl_str s;
    switch (type) {
    case DL_TC_TRUE:
    case DL_TC_FALSE:
        if (is_field) {
            return DL_OK;
        }
        DL_TRY(need(r, 1, "a bool", err));
        r->pos++;
        return DL_OK;
    case DL_TC_I8:
        DL_TRY(need(r, 1, "an i8", err));
        r->pos++;
        return DL_OK;
    case DL_TC_I16:
    case DL_TC_I32:
    case DL_TC_I64:
        return dl_tc_read_varint(r, &u, err);
    case DL_TC_DOUBLE:
        DL_TRY(need(r, 8, "a double", err));
        r->pos += 8;
        return DL_OK;
    case DL_TC_UUID:
        DL_TRY(need(r, 16, "a uuid", err));
        r->pos += 16;
        return DL_OK;
    case DL_TC_BINARY:
        return dl_tc_read_binary(r, &s, err);
    case DL_TC_LIST:
    case DL_TC_SET:
    case DL_TC_MAP:
        return skip_container(r, type, err);
    case DL_TC_STRUCT:
        return skip_struct(r, err);
    default:
        return dl_tc_fail(r, err, DL_ERR_CORRUPT, "invalid wire type %u", type);
    }
}

dl_status
dl_tc_alloc(dl_tc_reader *r, size_t n, size_t size, void **out, dl_error *err) {
    size_t bytes = 0;
    if (DL_MUL_OVERFLOW(n, size, &bytes) || bytes > r->alloc_budget) {
        return dl_tc_fail(r, err, DL_ERR_LIMIT,
                          "decoding needs more memory than allowed for a %zu-byte input "
                          "(%zu elements of %zu bytes)",
                          r->len, n, size);
    }
    r->alloc_budget -= bytes;
    void *p = dl_arena_alloc_zero(r->arena, bytes);
    if (p == NULL) {
        return dl_tc_fail(r, err, DL_ERR_NOMEM, "out of memory allocating %zu bytes", bytes);
    }
    *out = p;
    return DL_OK;
}

/* ---- Table-driven structs --------------------------------------------------------------- */

/* The name of the wire type a field kind is read from. */
static const char *
kind_wire_name(uint8_t kind) {
    static const uint8_t wire[] = {
        [DL_TC_K_BOOL] = DL_TC_TRUE,     [DL_TC_K_I8] = DL_TC_I8,
        [DL_TC_K_I16] = DL_TC_I16,       [DL_TC_K_I32] = DL_TC_I32,
        [DL_TC_K_I64] = DL_TC_I64,       [DL_TC_K_DOUBLE] = DL_TC_DOUBLE,
        [DL_TC_K_BINARY] = DL_TC_BINARY, [DL_TC_K_STRUCT] = DL_TC_STRUCT,
        [DL_TC_K_LIST] = DL_TC_LIST,     [DL_TC_K_PRESENCE] = DL_TC_STRUCT,
    };
    if (kind == DL_TC_K_BOOL) {
        return "bool";
    }
    return kind < DL_ARRAY_LEN(wire) ? wire_name(wire[kind]) : "invalid";
}

static bool
wire_matches(uint8_t kind, uint8_t type, bool is_field) {
    switch (kind) {
    case DL_TC_K_BOOL:
        return type == DL_TC_TRUE || type == DL_TC_FALSE;
    case DL_TC_K_I8:
        return type == DL_TC_I8;
    case DL_TC_K_I16:
        return type == DL_TC_I16;
    case DL_TC_K_I32:
        return type == DL_TC_I32;
    case DL_TC_K_I64:
        return type == DL_TC_I64;
    case DL_TC_K_DOUBLE:
        return type == DL_TC_DOUBLE;
    case DL_TC_K_BINARY:
        return type == DL_TC_BINARY;
    case DL_TC_K_STRUCT:
    case DL_TC_K_PRESENCE:
        return type == DL_TC_STRUCT;
    case DL_TC_K_LIST:
        return is_field && (type == DL_TC_LIST || type == DL_TC_SET);
    default:
        return false;
    }
}

size_t
dl_tc_kind_size(uint8_t kind, const dl_tc_struct *sub) {
    switch (kind) {
    case DL_TC_K_BOOL:
        return sizeof(bool);
    case DL_TC_K_I8:
        return 1;
    case DL_TC_K_I16:
        return 2;
    case DL_TC_K_I32:
        return 4;
    case DL_TC_K_I64:
    case DL_TC_K_DOUBLE:
        return 8;
    case DL_TC_K_BINARY:
        return sizeof(dl_str);
    default:
        return sub != NULL ? sub->size : 0;
    }
}

/* A bool container element: one byte, 1 true, 0 or 2 false (writers differ). */
static dl_status
read_bool_elem(dl_tc_reader *r, bool *out, dl_error *err) {
    uint8_t b = 0;
    DL_TRY(dl_tc_read_byte(r, &b, err));
    if (b > 2) {
        r->pos--;
        return dl_tc_fail(r, err, DL_ERR_CORRUPT, "invalid bool element %u", b);
    }
    *out = b == 1;
    return DL_OK;
}

/* Reads one scalar or struct value of kind into dst. bool_type is the field header's type
 * for bool fields, 0 for bool elements (which take a byte). */
static dl_status
read_value(dl_tc_reader *r, uint8_t kind, const dl_tc_struct *sub, uint8_t bool_type, uint8_t *dst,
           dl_error *err) {
    switch (kind) {
    case DL_TC_K_BOOL: {
        bool v = bool_type == DL_TC_TRUE;
        dl_status s = bool_type == 0 ? read_bool_elem(r, &v, err) : DL_OK;
        memcpy(dst, &v, sizeof(v));
        return s;
    }
    case DL_TC_K_I8:
        return dl_tc_read_byte(r, dst, err);
    case DL_TC_K_I16: {
        int16_t v = 0;
        DL_TRY(dl_tc_read_i16(r, &v, err));
        memcpy(dst, &v, sizeof(v));
        return DL_OK;
    }
    case DL_TC_K_I32: {
        int32_t v = 0;
        DL_TRY(dl_tc_read_i32(r, &v, err));
        memcpy(dst, &v, sizeof(v));
        return DL_OK;
    }
    case DL_TC_K_I64: {
        int64_t v = 0;
        DL_TRY(dl_tc_read_i64(r, &v, err));
        memcpy(dst, &v, sizeof(v));
        return DL_OK;
    }
    case DL_TC_K_DOUBLE: {
        double v = 0;
        DL_TRY(dl_tc_read_double(r, &v, err));
        memcpy(dst, &v, sizeof(v));
        return DL_OK;
    }
    case DL_TC_K_BINARY: {
        dl_str v = {0};
        DL_TRY(dl_tc_read_binary(r, &v, err));
        memcpy(dst, &v, sizeof(v));
        return DL_OK;
    }
    case DL_TC_K_STRUCT:
        return dl_tc_read_struct(r, sub, dst, err);
    default:
        return dl_tc_fail(r, err, DL_ERR_INTERNAL, "unknown field kind %u", kind);
    }
}

static dl_status
read_list(dl_tc_reader *r, const dl_tc_field *f, uint8_t *obj, dl_error *err) {
    uint8_t elem = 0;
    uint32_t count = 0;
    DL_TRY(dl_tc_read_list_header(r, &elem, &count, err));
    if (count > 0 && !wire_matches(f->elem_kind, elem, false)) {
        return dl_tc_fail(r, err, DL_ERR_CORRUPT, "list elements are %s, expected %s",
                          wire_name(elem), kind_wire_name(f->elem_kind));
    }
    size_t size = dl_tc_kind_size(f->elem_kind, f->sub);
    uint8_t *items = NULL;
    if (count > 0) {
        void *p = NULL;
        DL_TRY(dl_tc_alloc(r, count, size, &p, err));
        items = p;
    }
    DL_TRY(enter(r, err));
    dl_tc_frame *frame = &r->frames[r->n_frames - 1];
    for (uint32_t i = 0; items != NULL && i < count; i++) {
        frame->index = (int64_t)i;
        DL_TRY(read_value(r, f->elem_kind, f->sub, 0, items + (size_t)i * size, err));
    }
    frame->index = -1;
    leave(r);
    size_t n = count;
    memcpy(obj + f->offset, &items, sizeof(items));
    memcpy(obj + f->count_offset, &n, sizeof(n));
    return DL_OK;
}

/* The field with this id, searching from *hint (fields usually arrive in order). */
static const dl_tc_field *
find_field(const dl_tc_struct *desc, int16_t id, size_t *hint) {
    for (size_t k = 0; k < desc->n_fields; k++) {
        size_t i = *hint + k;
        if (i >= desc->n_fields) {
            i -= desc->n_fields;
        }
        if (desc->fields[i].id == id) {
            *hint = i + 1 < desc->n_fields ? i + 1 : 0;
            return &desc->fields[i];
        }
    }
    return NULL;
}

static dl_status
read_field(dl_tc_reader *r, const dl_tc_struct *desc, const dl_tc_field *f, uint8_t type,
           uint8_t *obj, uint64_t *seen, dl_error *err) {
    if (!wire_matches(f->kind, type, true)) {
        /* An optional field of another type is what Thrift's generated readers skip: some
         * writers used ids that parquet.thrift later gave to other fields. */
        if (!f->is_required) {
            return dl_tc_skip(r, type, true, err);
        }
        return dl_tc_fail(r, err, DL_ERR_CORRUPT, "field has wire type %s, expected %s",
                          wire_name(type), kind_wire_name(f->kind));
    }
    uint64_t bit = (uint64_t)1 << (size_t)(f - desc->fields);
    if (*seen & bit) {
        return dl_tc_fail(r, err, DL_ERR_CORRUPT, "field appears twice");
    }
    *seen |= bit;
    if (desc->union_offset != DL_TC_NO_OFFSET) {
        int32_t tag = 0;
        memcpy(&tag, obj + desc->union_offset, sizeof(tag));
        if (tag != 0) {
            return dl_tc_fail(r, err, DL_ERR_CORRUPT,
                              "union %s has more than one member set (%d and %d)", desc->name,
                              (int)tag, (int)f->id);
        }
        tag = f->id;
        memcpy(obj + desc->union_offset, &tag, sizeof(tag));
    }
    if (f->kind == DL_TC_K_PRESENCE) {
        DL_TRY(dl_tc_skip(r, type, true, err));
    } else if (f->kind == DL_TC_K_LIST) {
        DL_TRY(read_list(r, f, obj, err));
    } else {
        DL_TRY(read_value(r, f->kind, f->sub, type, obj + f->offset, err));
    }
    if (f->has_offset != DL_TC_NO_OFFSET) {
        obj[f->has_offset] = 1;
    }
    return DL_OK;
}

static dl_status
push_frame(dl_tc_reader *r, const char *name, int16_t id, dl_error *err) {
    if (r->n_frames >= (int)DL_ARRAY_LEN(r->frames)) {
        return dl_tc_fail(r, err, DL_ERR_LIMIT, "nesting deeper than %d levels", DL_TC_MAX_DEPTH);
    }
    r->frames[r->n_frames++] = (dl_tc_frame){.name = name, .id = id, .index = -1};
    return DL_OK;
}

static dl_status
check_required(dl_tc_reader *r, const dl_tc_struct *desc, uint64_t seen, dl_error *err) {
    for (size_t i = 0; i < desc->n_fields; i++) {
        const dl_tc_field *f = &desc->fields[i];
        if (f->is_required && (seen & ((uint64_t)1 << i)) == 0) {
            return dl_tc_fail(r, err, DL_ERR_CORRUPT, "required field '%s' (id %d) is missing",
                              f->name, (int)f->id);
        }
    }
    return DL_OK;
}

dl_status
dl_tc_read_struct(dl_tc_reader *r, const dl_tc_struct *desc, void *obj, dl_error *err) {
    DL_TRY(enter(r, err));
    uint8_t *base = obj;
    int16_t last = 0;
    uint64_t seen = 0;
    size_t hint = 0;
    for (;;) {
        uint8_t type = 0;
        int16_t id = 0;
        DL_TRY(dl_tc_read_field_header(r, &last, &type, &id, err));
        if (type == DL_TC_STOP) {
            break;
        }
        const dl_tc_field *f = find_field(desc, id, &hint);
        DL_TRY(push_frame(r, f != NULL ? f->name : NULL, id, err));
        if (f == NULL) {
            DL_TRY(dl_tc_skip(r, type, true, err));
        } else {
            DL_TRY(read_field(r, desc, f, type, base, &seen, err));
        }
        r->n_frames--;
    }
    DL_TRY(check_required(r, desc, seen, err));
    if (desc->finish != NULL) {
        DL_TRY(desc->finish(obj, r, err));
    }
    leave(r);
    return DL_OK;
}

dl_status
dl_tc_decode(const dl_tc_struct *desc, const uint8_t *data, size_t len, int64_t base_offset,
             dl_arena *arena, void *out, size_t *out_len, bool *out_truncated, dl_error *err) {
    dl_tc_reader r;
    dl_tc_reader_init(&r, data, len, base_offset, arena, desc->name);
    memset(out, 0, desc->size);
    dl_status s = dl_tc_read_struct(&r, desc, out, err);
    if (out_truncated != NULL) {
        *out_truncated = s != DL_OK && r.is_truncated;
    }
    if (s == DL_OK && out_len != NULL) {
        *out_len = r.pos;
    }
    return s;
}
