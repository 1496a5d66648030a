/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Thrift compact protocol (apache/thrift doc/specs/thrift-compact-protocol.md): a hardened
 * reader, a writer, and a table-driven struct codec that the Parquet metadata model uses.
 *
 * The encoding, as Parquet uses it (no messages, no UUIDs in Parquet structs):
 *
 *   varint      ULEB128: 7 bits per byte, low group first, high bit = more; at most 10 bytes
 *               for 64 bits (the 10th may only hold bit 63)
 *   i16/i32/i64 zigzag ((n << 1) ^ (n >> 63)) then varint; i8 is one raw byte
 *   double      8 bytes, IEEE 754, little endian
 *   binary      varint length, then the bytes (strings are UTF-8 binaries)
 *   struct      fields, then a stop byte 0x00. A field header is one byte ddddtttt: the field
 *               id as a delta 1..15 from the previous field's id (0 at the start of a struct)
 *               and the type; with dddd = 0 the id follows as a zigzag i16. A bool field has
 *               no value: its type is 1 (true) or 2 (false).
 *   list/set    one byte sssstttt: size 0..14 and element type; size nibble 15 = the size
 *               follows as a varint. Bool elements are one byte each (1 = true; 0 or 2 false).
 *   map         varint size; when non-zero, a byte kkkkvvvv of key and value types, then the
 *               pairs.
 *   types       1 true, 2 false (fields) / bool (elements), 3 i8, 4 i16, 5 i32, 6 i64,
 *               7 double, 8 binary, 9 list, 10 set, 11 map, 12 struct, 13 uuid (16 bytes)
 *
 * Invariants the reader enforces (nothing here trusts a length it has not checked):
 *   - a length or count is compared with the bytes left before anything is allocated or
 *     skipped: every list, set or map element takes at least one byte, so a count above the
 *     bytes left is CORRUPT, and allocations stay within a fixed multiple of the input
 *     (the reader's alloc budget; beyond it DL_ERR_LIMIT);
 *   - nesting (structs and containers, known or skipped) is bounded by DL_TC_MAX_DEPTH;
 *   - every error names the path being decoded and the byte offset:
 *     "FileMetaData.row_groups[3].columns[1].meta_data.codec at byte 512: ...".
 */
#ifndef DL_PQ_TC_PROTO_H
#define DL_PQ_TC_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/error.h"
#include "base/str.h"

/* Wire types. */
enum {
    DL_TC_STOP = 0,
    DL_TC_TRUE = 1,
    DL_TC_FALSE = 2,
    DL_TC_I8 = 3,
    DL_TC_I16 = 4,
    DL_TC_I32 = 5,
    DL_TC_I64 = 6,
    DL_TC_DOUBLE = 7,
    DL_TC_BINARY = 8,
    DL_TC_LIST = 9,
    DL_TC_SET = 10,
    DL_TC_MAP = 11,
    DL_TC_STRUCT = 12,
    DL_TC_UUID = 13,
};

/* Maximum nesting of structs and containers, known or skipped. Parquet's deepest known path
 * (FileMetaData.row_groups[].columns[].meta_data.statistics) is 6. */
#define DL_TC_MAX_DEPTH 64

/* The longest varint: 10 bytes for 64 bits. */
#define DL_TC_VARINT_MAX 10

/* ---- Table-driven structs --------------------------------------------------------------- */

/* What a field holds in the C struct. */
typedef enum dl_tc_kind {
    DL_TC_K_BOOL = 1, /* bool */
    DL_TC_K_I8,       /* int8_t */
    DL_TC_K_I16,      /* int16_t */
    DL_TC_K_I32,      /* int32_t or a 4-byte enum */
    DL_TC_K_I64,      /* int64_t */
    DL_TC_K_DOUBLE,   /* double */
    DL_TC_K_BINARY,   /* dl_str */
    DL_TC_K_STRUCT,   /* a struct stored inline (sub) */
    DL_TC_K_LIST,     /* T *items + size_t count; elements of elem_kind */
    DL_TC_K_PRESENCE, /* a struct whose content is skipped; only its presence is kept */
} dl_tc_kind;

#define DL_TC_NO_OFFSET UINT32_MAX

typedef struct dl_tc_struct dl_tc_struct;
typedef struct dl_tc_reader dl_tc_reader;

typedef struct dl_tc_field {
    int16_t id;              /* Thrift field id */
    uint8_t kind;            /* dl_tc_kind */
    uint8_t elem_kind;       /* lists: dl_tc_kind of the elements */
    bool is_required;        /* decoding fails when absent */
    const char *name;        /* the Thrift name, for messages */
    uint32_t offset;         /* of the value (lists: of the items pointer); NO_OFFSET: none */
    uint32_t count_offset;   /* lists: of the size_t count */
    uint32_t has_offset;     /* of the bool presence flag; NO_OFFSET: always written */
    const dl_tc_struct *sub; /* structs, presence and lists of structs */
} dl_tc_field;

/* A struct or union's layout. Fields are in ascending id order. */
struct dl_tc_struct {
    const char *name;          /* the Thrift name, for messages */
    size_t size;               /* sizeof the C struct */
    const dl_tc_field *fields; /* at most 64 */
    size_t n_fields;
    uint32_t union_offset; /* unions: of the int32 tag (the set member's id); else NO_OFFSET */
    /* Optional check after a struct is decoded (enum ranges, defaults, cross-field rules);
     * it reports through dl_tc_fail so that the message carries the path. */
    dl_status (*finish)(void *obj, dl_tc_reader *r, dl_error *err);
};

/* ---- Reader ---------------------------------------------------------------------------- */

typedef struct dl_tc_frame {
    const char *name; /* field name; NULL for an unknown field (then id is printed) */
    int16_t id;       /* field id */
    int64_t index;    /* list element being decoded, or -1 */
} dl_tc_frame;

struct dl_tc_reader {
    const uint8_t *data; /* input, len bytes */
    size_t len;
    size_t pos;          /* next byte to read */
    int64_t base_offset; /* file offset of data[0], for messages */
    dl_arena *arena;     /* where lists go */
    size_t alloc_budget; /* bytes the reader may still allocate */
    int depth;           /* current nesting */
    int n_frames;
    dl_tc_frame frames[DL_TC_MAX_DEPTH + 2];
    bool is_truncated; /* the last error was the input ending early */
};

/* The default allocation budget: DL_TC_BUDGET_FACTOR bytes per input byte plus a floor. */
#define DL_TC_BUDGET_FACTOR 64
#define DL_TC_BUDGET_FLOOR  ((size_t)1 << 20)

/* Prepares to read data[0, len); root names the outermost struct in messages. */
void dl_tc_reader_init(dl_tc_reader *r, const uint8_t *data, size_t len, int64_t base_offset,
                       dl_arena *arena, const char *root);

/* Sets err to "<path> at byte <n>: <message>" with code, and err->offset to the byte. */
DL_NODISCARD dl_status dl_tc_fail(dl_tc_reader *r, dl_error *err, dl_status code, const char *fmt,
                                  ...) DL_PRINTF(4, 5);

/* Writes the current path ("FileMetaData.row_groups[3].columns[1]") into buf. */
void dl_tc_path_format(const dl_tc_reader *r, char *buf, size_t cap);

DL_NODISCARD dl_status dl_tc_read_varint(dl_tc_reader *r, uint64_t *out, dl_error *err);
DL_NODISCARD dl_status dl_tc_read_byte(dl_tc_reader *r, uint8_t *out, dl_error *err);
DL_NODISCARD dl_status dl_tc_read_i16(dl_tc_reader *r, int16_t *out, dl_error *err);
DL_NODISCARD dl_status dl_tc_read_i32(dl_tc_reader *r, int32_t *out, dl_error *err);
DL_NODISCARD dl_status dl_tc_read_i64(dl_tc_reader *r, int64_t *out, dl_error *err);
DL_NODISCARD dl_status dl_tc_read_double(dl_tc_reader *r, double *out, dl_error *err);
/* A view into the input; valid while the input is. */
DL_NODISCARD dl_status dl_tc_read_binary(dl_tc_reader *r, dl_str *out, dl_error *err);

/* Reads a field header. *last_id is the previous field's id in this struct (0 at the start)
 * and is updated. *out_type is DL_TC_STOP at the end of the struct. */
DL_NODISCARD dl_status dl_tc_read_field_header(dl_tc_reader *r, int16_t *last_id, uint8_t *out_type,
                                               int16_t *out_id, dl_error *err);

/* Reads a list or set header; the count is checked against the bytes left. */
DL_NODISCARD dl_status dl_tc_read_list_header(dl_tc_reader *r, uint8_t *out_elem_type,
                                              uint32_t *out_count, dl_error *err);

/* Reads a map header; the count is checked against the bytes left. Types are 0 when empty. */
DL_NODISCARD dl_status dl_tc_read_map_header(dl_tc_reader *r, uint8_t *out_key_type,
                                             uint8_t *out_value_type, uint32_t *out_count,
                                             dl_error *err);

/* Skips one value of the given wire type (as a field value when is_field, where bools have
 * no bytes; else as a container element). */
DL_NODISCARD dl_status dl_tc_skip(dl_tc_reader *r, uint8_t type, bool is_field, dl_error *err);

/* The bytes one value of kind takes in the C struct (structs: sub->size). */
size_t dl_tc_kind_size(uint8_t kind, const dl_tc_struct *sub);

/* Reads a struct described by desc into obj. Assumes: obj is zeroed. */
DL_NODISCARD dl_status dl_tc_read_struct(dl_tc_reader *r, const dl_tc_struct *desc, void *obj,
                                         dl_error *err);

/*
 * Decodes one struct of type desc from data[0, len) into out (zeroed first): the entry point
 * the Parquet decoders use. *out_len (optional) receives the bytes used; *out_truncated
 * (optional) is set when decoding failed because the input ended early.
 */
DL_NODISCARD dl_status dl_tc_decode(const dl_tc_struct *desc, const uint8_t *data, size_t len,
                                    int64_t base_offset, dl_arena *arena, void *out,
                                    size_t *out_len, bool *out_truncated, dl_error *err);

/* Allocates n zeroed elements of size bytes within the budget. */
DL_NODISCARD dl_status dl_tc_alloc(dl_tc_reader *r, size_t n, size_t size, void **out,
                                   dl_error *err);

/* ---- Writer ---------------------------------------------------------------------------- */

typedef struct dl_tc_writer {
    dl_buf *out;
    int depth;
    int16_t last_id[DL_TC_MAX_DEPTH + 1]; /* previous field id per open struct */
} dl_tc_writer;

/* Prepares to append to out (which keeps its content). */
void dl_tc_writer_init(dl_tc_writer *w, dl_buf *out);

DL_NODISCARD dl_status dl_tc_write_varint(dl_tc_writer *w, uint64_t v, dl_error *err);
DL_NODISCARD dl_status dl_tc_write_byte(dl_tc_writer *w, uint8_t v, dl_error *err);
DL_NODISCARD dl_status dl_tc_write_i16(dl_tc_writer *w, int16_t v, dl_error *err);
DL_NODISCARD dl_status dl_tc_write_i32(dl_tc_writer *w, int32_t v, dl_error *err);
DL_NODISCARD dl_status dl_tc_write_i64(dl_tc_writer *w, int64_t v, dl_error *err);
DL_NODISCARD dl_status dl_tc_write_double(dl_tc_writer *w, double v, dl_error *err);
DL_NODISCARD dl_status dl_tc_write_binary(dl_tc_writer *w, dl_str v, dl_error *err);

/* Opens a struct (as the root, a field value after write_field_header, or an element). */
DL_NODISCARD dl_status dl_tc_write_struct_begin(dl_tc_writer *w, dl_error *err);
/* Writes the stop byte and closes the struct. */
DL_NODISCARD dl_status dl_tc_write_struct_end(dl_tc_writer *w, dl_error *err);
/* Writes a field header in short or long form. For bools use dl_tc_write_bool_field. */
DL_NODISCARD dl_status dl_tc_write_field_header(dl_tc_writer *w, uint8_t type, int16_t id,
                                                dl_error *err);
DL_NODISCARD dl_status dl_tc_write_bool_field(dl_tc_writer *w, int16_t id, bool v, dl_error *err);
/* A bool as a container element. */
DL_NODISCARD dl_status dl_tc_write_bool_elem(dl_tc_writer *w, bool v, dl_error *err);
DL_NODISCARD dl_status dl_tc_write_list_header(dl_tc_writer *w, uint8_t elem_type, size_t count,
                                               dl_error *err);
DL_NODISCARD dl_status dl_tc_write_map_header(dl_tc_writer *w, uint8_t key_type, uint8_t value_type,
                                              size_t count, dl_error *err);

/* Writes obj as the struct described by desc (begin, fields, end). */
DL_NODISCARD dl_status dl_tc_write_struct(dl_tc_writer *w, const dl_tc_struct *desc,
                                          const void *obj, dl_error *err);

/* Deep equality of two structs described by desc (see dl_pq_file_metadata_equal). */
bool dl_tc_struct_equal(const dl_tc_struct *desc, const void *a, const void *b);

#endif /* DL_PQ_TC_PROTO_H */
