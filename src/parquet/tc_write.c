/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Thrift compact-protocol writer and the table-driven struct encoder and comparison
 * (format in tc_proto.h). The writer emits the canonical form: short field headers whenever
 * the id delta is 1..15, the shortest varints, short list headers below 15 elements, bool
 * elements as 1 (true) and 2 (false) as the Java and C++ Thrift libraries write them.
 */
#include <string.h>

#include "parquet/tc_proto.h"

void
dl_tc_writer_init(dl_tc_writer *w, dl_buf *out) {
    w->out = out;
    w->depth = 0;
    w->last_id[0] = 0;
}

dl_status
dl_tc_write_byte(dl_tc_writer *w, uint8_t v, dl_error *err) {
    return dl_buf_append_byte(w->out, v, err);
}

dl_status
dl_tc_write_varint(dl_tc_writer *w, uint64_t v, dl_error *err) {
    uint8_t tmp[DL_TC_VARINT_MAX];
    size_t n = 0;
    while (v >= 0x80) {
        tmp[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    tmp[n++] = (uint8_t)v;
    return dl_buf_append(w->out, tmp, n, err);
}

static uint64_t
zigzag_encode(int64_t v) {
    return ((uint64_t)v << 1) ^ (v < 0 ? UINT64_MAX : 0);
}

dl_status
dl_tc_write_i16(dl_tc_writer *w, int16_t v, dl_error *err) {
    return dl_tc_write_varint(w, zigzag_encode(v), err);
}

dl_status
dl_tc_write_i32(dl_tc_writer *w, int32_t v, dl_error *err) {
    return dl_tc_write_varint(w, zigzag_encode(v), err);
}

dl_status
dl_tc_write_i64(dl_tc_writer *w, int64_t v, dl_error *err) {
    return dl_tc_write_varint(w, zigzag_encode(v), err);
}

dl_status
dl_tc_write_double(dl_tc_writer *w, double v, dl_error *err) {
    uint64_t bits = 0;
    memcpy(&bits, &v, sizeof(bits));
    uint8_t tmp[8];
    for (unsigned i = 0; i < 8; i++) {
        tmp[i] = (uint8_t)(bits >> (8 * i));
    }
    return dl_buf_append(w->out, tmp, sizeof(tmp), err);
}

dl_status
dl_tc_write_binary(dl_tc_writer *w, dl_str v, dl_error *err) {
    if (v.len > INT32_MAX) {
        return dl_error_set(err, DL_ERR_INVALID_ARG,
                            "Thrift binary of %zu bytes exceeds the int32 length limit", v.len);
    }
    DL_TRY(dl_tc_write_varint(w, v.len, err));
    return v.len > 0 ? dl_buf_append(w->out, v.ptr, v.len, err) : DL_OK;
}

dl_status
dl_tc_write_struct_begin(dl_tc_writer *w, dl_error *err) {
    if (w->depth >= DL_TC_MAX_DEPTH) {
        return dl_error_set(err, DL_ERR_INVALID_ARG, "Thrift structs nested deeper than %d",
                            DL_TC_MAX_DEPTH);
    }
    w->last_id[++w->depth] = 0;
    return DL_OK;
}

dl_status
dl_tc_write_struct_end(dl_tc_writer *w, dl_error *err) {
    if (w->depth <= 0) {
        return dl_error_set(err, DL_ERR_INTERNAL, "Thrift struct end without a begin");
    }
    w->depth--;
    return dl_tc_write_byte(w, DL_TC_STOP, err);
}

dl_status
dl_tc_write_field_header(dl_tc_writer *w, uint8_t type, int16_t id, dl_error *err) {
    int16_t *last = &w->last_id[w->depth];
    int32_t delta = (int32_t)id - *last;
    *last = id;
    if (delta > 0 && delta <= 15) {
        return dl_tc_write_byte(w, (uint8_t)((delta << 4) | type), err);
    }
    DL_TRY(dl_tc_write_byte(w, type, err));
    return dl_tc_write_i16(w, id, err);
}

dl_status
dl_tc_write_bool_field(dl_tc_writer *w, int16_t id, bool v, dl_error *err) {
    return dl_tc_write_field_header(w, v ? DL_TC_TRUE : DL_TC_FALSE, id, err);
}

dl_status
dl_tc_write_bool_elem(dl_tc_writer *w, bool v, dl_error *err) {
    return dl_tc_write_byte(w, v ? DL_TC_TRUE : DL_TC_FALSE, err);
}

dl_status
dl_tc_write_list_header(dl_tc_writer *w, uint8_t elem_type, size_t count, dl_error *err) {
    if (count > INT32_MAX) {
        return dl_error_set(err, DL_ERR_INVALID_ARG,
                            "Thrift list of %zu elements exceeds the int32 size limit", count);
    }
    if (count < 15) {
        return dl_tc_write_byte(w, (uint8_t)((count << 4) | elem_type), err);
    }
    DL_TRY(dl_tc_write_byte(w, (uint8_t)(0xf0 | elem_type), err));
    return dl_tc_write_varint(w, count, err);
}

dl_status
dl_tc_write_map_header(dl_tc_writer *w, uint8_t key_type, uint8_t value_type, size_t count,
                       dl_error *err) {
    if (count > INT32_MAX) {
        return dl_error_set(err, DL_ERR_INVALID_ARG,
                            "Thrift map of %zu entries exceeds the int32 size limit", count);
    }
    DL_TRY(dl_tc_write_varint(w, count, err));
    if (count == 0) {
        return DL_OK;
    }
    return dl_tc_write_byte(w, (uint8_t)((key_type << 4) | value_type), err);
}

/* ---- Table-driven structs --------------------------------------------------------------- */

static uint8_t
kind_wire(uint8_t kind) {
    switch (kind) {
    case DL_TC_K_BOOL:
        return DL_TC_TRUE;
    case DL_TC_K_I8:
        return DL_TC_I8;
    case DL_TC_K_I16:
        return DL_TC_I16;
    case DL_TC_K_I32:
        return DL_TC_I32;
    case DL_TC_K_I64:
        return DL_TC_I64;
    case DL_TC_K_DOUBLE:
        return DL_TC_DOUBLE;
    case DL_TC_K_BINARY:
        return DL_TC_BINARY;
    case DL_TC_K_LIST:
        return DL_TC_LIST;
    default:
        return DL_TC_STRUCT;
    }
}

/* Writes one value (no field header) of a non-list kind. */
static dl_status
write_value(dl_tc_writer *w, uint8_t kind, const dl_tc_struct *sub, const uint8_t *src,
            dl_error *err) {
    switch (kind) {
    case DL_TC_K_BOOL:
        return dl_tc_write_bool_elem(w, src[0] != 0, err);
    case DL_TC_K_I8:
        return dl_tc_write_byte(w, src[0], err);
    case DL_TC_K_I16: {
        int16_t v = 0;
        memcpy(&v, src, sizeof(v));
        return dl_tc_write_i16(w, v, err);
    }
    case DL_TC_K_I32: {
        int32_t v = 0;
        memcpy(&v, src, sizeof(v));
        return dl_tc_write_i32(w, v, err);
    }
    case DL_TC_K_I64: {
        int64_t v = 0;
        memcpy(&v, src, sizeof(v));
        return dl_tc_write_i64(w, v, err);
    }
    case DL_TC_K_DOUBLE: {
        double v = 0;
        memcpy(&v, src, sizeof(v));
        return dl_tc_write_double(w, v, err);
    }
    case DL_TC_K_BINARY: {
        dl_str v;
        memcpy(&v, src, sizeof(v));
        return dl_tc_write_binary(w, v, err);
    }
    case DL_TC_K_STRUCT:
        return dl_tc_write_struct(w, sub, src, err);
    default:
        return dl_error_set(err, DL_ERR_INTERNAL, "unknown Thrift field kind %u", kind);
    }
}

static dl_status
write_list(dl_tc_writer *w, const dl_tc_field *f, const uint8_t *obj, dl_error *err) {
    const uint8_t *items = NULL;
    size_t count = 0;
    memcpy(&items, obj + f->offset, sizeof(items));
    memcpy(&count, obj + f->count_offset, sizeof(count));
    DL_TRY(dl_tc_write_list_header(w, kind_wire(f->elem_kind), count, err));
    size_t size = dl_tc_kind_size(f->elem_kind, f->sub);
    for (size_t i = 0; items != NULL && i < count; i++) {
        DL_TRY(write_value(w, f->elem_kind, f->sub, items + i * size, err));
    }
    return DL_OK;
}

static bool
field_is_present(const dl_tc_struct *desc, const dl_tc_field *f, const uint8_t *obj) {
    if (desc->union_offset != DL_TC_NO_OFFSET) {
        int32_t tag = 0;
        memcpy(&tag, obj + desc->union_offset, sizeof(tag));
        return tag == f->id;
    }
    return f->has_offset == DL_TC_NO_OFFSET || obj[f->has_offset] != 0;
}

dl_status
dl_tc_write_struct(dl_tc_writer *w, const dl_tc_struct *desc, const void *obj, dl_error *err) {
    const uint8_t *base = obj;
    DL_TRY(dl_tc_write_struct_begin(w, err));
    for (size_t i = 0; i < desc->n_fields; i++) {
        const dl_tc_field *f = &desc->fields[i];
        if (!field_is_present(desc, f, base)) {
            continue;
        }
        if (f->kind == DL_TC_K_BOOL) {
            DL_TRY(dl_tc_write_bool_field(w, f->id, base[f->offset] != 0, err));
            continue;
        }
        DL_TRY(dl_tc_write_field_header(w, kind_wire(f->kind), f->id, err));
        if (f->kind == DL_TC_K_LIST) {
            DL_TRY(write_list(w, f, base, err));
        } else if (f->kind == DL_TC_K_PRESENCE) {
            /* Only the presence was kept: an empty struct stands for it. */
            DL_TRY(dl_tc_write_struct_begin(w, err));
            DL_TRY(dl_tc_write_struct_end(w, err));
        } else {
            DL_TRY(write_value(w, f->kind, f->sub, base + f->offset, err));
        }
    }
    return dl_tc_write_struct_end(w, err);
}

/* ---- Comparison ------------------------------------------------------------------------ */

static bool
value_equal(uint8_t kind, const dl_tc_struct *sub, const uint8_t *a, const uint8_t *b) {
    switch (kind) {
    case DL_TC_K_BINARY: {
        dl_str sa;
        dl_str sb;
        memcpy(&sa, a, sizeof(sa));
        memcpy(&sb, b, sizeof(sb));
        return dl_str_eq(sa, sb);
    }
    case DL_TC_K_STRUCT:
        return dl_tc_struct_equal(sub, a, b);
    case DL_TC_K_PRESENCE:
        return true;
    default:
        return memcmp(a, b, dl_tc_kind_size(kind, sub)) == 0;
    }
}

static bool
list_equal(const dl_tc_field *f, const uint8_t *a, const uint8_t *b) {
    const uint8_t *ia = NULL;
    const uint8_t *ib = NULL;
    size_t na = 0;
    size_t nb = 0;
    memcpy(&ia, a + f->offset, sizeof(ia));
    memcpy(&ib, b + f->offset, sizeof(ib));
    memcpy(&na, a + f->count_offset, sizeof(na));
    memcpy(&nb, b + f->count_offset, sizeof(nb));
    if (na != nb) {
        return false;
    }
    size_t size = dl_tc_kind_size(f->elem_kind, f->sub);
    for (size_t i = 0; i < na; i++) {
        if (!value_equal(f->elem_kind, f->sub, ia + i * size, ib + i * size)) {
            return false;
        }
    }
    return true;
}

bool
dl_tc_struct_equal(const dl_tc_struct *desc, const void *a, const void *b) {
    const uint8_t *pa = a;
    const uint8_t *pb = b;
    if (desc->union_offset != DL_TC_NO_OFFSET &&
        memcmp(pa + desc->union_offset, pb + desc->union_offset, sizeof(int32_t)) != 0) {
        return false;
    }
    for (size_t i = 0; i < desc->n_fields; i++) {
        const dl_tc_field *f = &desc->fields[i];
        bool in_a = field_is_present(desc, f, pa);
        if (in_a != field_is_present(desc, f, pb)) {
            return false;
        }
        if (!in_a || f->offset == DL_TC_NO_OFFSET) {
            continue;
        }
        bool eq = f->kind == DL_TC_K_LIST
                      ? list_equal(f, pa, pb)
                      : value_equal(f->kind, f->sub, pa + f->offset, pb + f->offset);
        if (!eq) {
            return false;
        }
    }
    return true;
}
