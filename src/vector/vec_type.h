/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Logical types of vectors: every Delta type (PROTOCOL.md, "Schema Serialization Format") and
 * Spark's NullType. A dl_type is immutable once built. Primitive types are process-wide
 * constants (dl_vec_type_prim); parameterized and nested ones (decimal, struct, array, map) are
 * built in an arena and live as long as it. A vector points at its type, so the type's arena
 * must outlive every vector of that type; an Arrow export copies what it needs and does not.
 *
 * Physical storage, per type (the data buffer of a flat vector):
 *   BOOLEAN                  Arrow bit-packed bitmap, LSB first
 *   BYTE SHORT INT LONG      int8 / int16 / int32 / int64, little endian
 *   FLOAT DOUBLE             IEEE 754 binary32 / binary64
 *   DECIMAL(p,s), p <= 38    always 16 bytes: the unscaled value as a 128-bit little-endian two's
 *                            complement integer (Arrow decimal128), whatever the precision, so the
 *                            Arrow export ("d:p,s") is zero-copy and kernels have one decimal
 *                            representation. Parquet's INT32/INT64 decimals widen on decode.
 *   STRING BINARY            16-byte Arrow binary views ("vu" / "vz", see vector.h)
 *   DATE                     int32 days since 1970-01-01 (Arrow date32, "tdD")
 *   TIMESTAMP                int64 microseconds since the epoch, UTC (Arrow "tsu:UTC")
 *   TIMESTAMP_NTZ            int64 microseconds since the epoch, no zone (Arrow "tsu:")
 *   STRUCT                   no data buffer; one child vector per field
 *   ARRAY                    int32 offsets (length + 1) and one element child (Arrow "+l")
 *   MAP                      int32 offsets and one child struct<key, value> (Arrow "+m")
 *   NULL (Spark "void")      no data buffer; every row is null (Arrow "n")
 */
#ifndef DL_VECTOR_VEC_TYPE_H
#define DL_VECTOR_VEC_TYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/error.h"
#include "base/str.h"

/* Logical type ids, in the order of vec_types.def. */
typedef enum dl_type_id {
#define DL_VEC_TYPE_X(tid, spark, phys, width, arrow) DL_VEC_TYPE_##tid,
#include "vector/vec_types.def"
#undef DL_VEC_TYPE_X
    DL_VEC_TYPE_COUNT
} dl_type_id;

/* Storage classes: what kernels dispatch on. */
typedef enum dl_vec_phys {
    DL_VEC_PHYS_NONE,   /* no values (NULL type) */
    DL_VEC_PHYS_BIT,    /* bit-packed booleans */
    DL_VEC_PHYS_I8,     /* int8 */
    DL_VEC_PHYS_I16,    /* int16 */
    DL_VEC_PHYS_I32,    /* int32: INT, DATE */
    DL_VEC_PHYS_I64,    /* int64: LONG, TIMESTAMP, TIMESTAMP_NTZ */
    DL_VEC_PHYS_F32,    /* float */
    DL_VEC_PHYS_F64,    /* double */
    DL_VEC_PHYS_I128,   /* 128-bit decimal */
    DL_VEC_PHYS_VIEW,   /* 16-byte binary views */
    DL_VEC_PHYS_STRUCT, /* children only */
    DL_VEC_PHYS_LIST,   /* int32 offsets and a child: ARRAY, MAP */
} dl_vec_phys;

#define DL_VEC_DECIMAL_MAX_PRECISION 38

typedef struct dl_type dl_type;

/* One field of a struct type. */
typedef struct dl_type_field {
    const char *name;    /* NUL-terminated, owned by the type's arena */
    const dl_type *type; /* the field's type */
    bool is_nullable;    /* the field may hold nulls */
} dl_type_field;

struct dl_type {
    dl_type_id id;
    uint8_t precision;           /* DECIMAL: 1..38 */
    uint8_t scale;               /* DECIMAL: 0..precision */
    bool contains_null;          /* ARRAY: elements may be null; MAP: values may be null */
    int32_t n_fields;            /* STRUCT: number of fields (may be 0) */
    const dl_type_field *fields; /* STRUCT: the fields, in order */
    const dl_type *element;      /* ARRAY: element type; MAP: the entries type struct<key,value> */
    const dl_type *key;          /* MAP: key type (keys are never null) */
    const dl_type *value;        /* MAP: value type */
};

/* The constant type for an id without parameters, or NULL for DECIMAL, STRUCT, ARRAY, MAP
 * and out-of-range ids. The result lives for the whole process. */
const dl_type *dl_vec_type_prim(dl_type_id id);

/* decimal(precision, scale) in arena. INVALID_ARG unless 1 <= precision and
 * 0 <= scale <= precision; UNSUPPORTED when precision exceeds 38. */
DL_NODISCARD dl_status dl_vec_type_decimal(dl_arena *arena, int precision, int scale,
                                           const dl_type **out, dl_error *err);

/* array<element> in arena. element must outlive the result (same or longer-lived arena). */
DL_NODISCARD dl_status dl_vec_type_array(dl_arena *arena, const dl_type *element,
                                         bool contains_null, const dl_type **out, dl_error *err);

/* map<key, value> in arena; also builds the entries type struct<key not null, value>. */
DL_NODISCARD dl_status dl_vec_type_map(dl_arena *arena, const dl_type *key, const dl_type *value,
                                       bool value_contains_null, const dl_type **out,
                                       dl_error *err);

/* struct<fields...> in arena. The field array and the names are copied; field types are
 * referenced. INVALID_ARG when a name or type is NULL. */
DL_NODISCARD dl_status dl_vec_type_struct(dl_arena *arena, const dl_type_field *fields,
                                          int32_t n_fields, const dl_type **out, dl_error *err);

/* Deep equality: ids, decimal parameters, nullability flags, field names (exact) and order. */
bool dl_vec_type_equal(const dl_type *a, const dl_type *b);

/* Appends Spark's catalog spelling of type to out: "int", "decimal(10,2)", "array<int>",
 * "map<string,int>", "struct<a:int,b:string>", "timestamp_ntz", "void". */
DL_NODISCARD dl_status dl_vec_type_to_string(const dl_type *type, dl_buf *out, dl_error *err);

/* Spark's name of an id without parameters ("decimal" for DECIMAL); "?" when out of range. */
const char *dl_vec_type_name(dl_type_id id);

/* The storage class of type. */
dl_vec_phys dl_vec_type_phys(const dl_type *type);

/* Bytes per element in a flat vector's data buffer: 0 for BOOLEAN (bits), STRUCT and NULL;
 * 4 for ARRAY and MAP (one offset per row, plus one). */
size_t dl_vec_type_width(const dl_type *type);

/* True for STRUCT, ARRAY and MAP. */
bool dl_vec_type_is_nested(const dl_type *type);

/* Index of the struct field named name (exact match), or -1. */
int32_t dl_vec_type_field_index(const dl_type *type, dl_str name);

#endif /* DL_VECTOR_VEC_TYPE_H */
