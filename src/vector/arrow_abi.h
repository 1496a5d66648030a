/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Arrow C Data Interface and C Stream Interface ABI structures, as the specification
 * defines them (arrow/docs/source/format/CDataInterface.rst, "Structure definitions", and
 * CStreamInterface.rst). The guards are the canonical ones, kept exactly, so that a program
 * including another project's copy of these definitions as well still compiles.
 *
 * Ownership in one paragraph: the consumer owns the base structure and calls its release
 * once; release frees everything the producer hung off it (children, dictionary, buffers) and
 * sets release to NULL. Moving is a bitwise copy after which the source's release is set to
 * NULL without calling it. Children may be moved out, but the parent must then be released.
 */
#ifndef DL_VECTOR_ARROW_ABI_H
#define DL_VECTOR_ARROW_ABI_H

#include <stdint.h>

#ifndef ARROW_C_DATA_INTERFACE
#    define ARROW_C_DATA_INTERFACE

#    define ARROW_FLAG_DICTIONARY_ORDERED 1
#    define ARROW_FLAG_NULLABLE           2
#    define ARROW_FLAG_MAP_KEYS_SORTED    4

/* A type (and field name) description. */
struct ArrowSchema {
    /* Array type description */
    const char *format;             /* mandatory: NUL-terminated format string, e.g. "i", "+s" */
    const char *name;               /* optional: field name, NUL-terminated, or NULL */
    const char *metadata;           /* optional: binary key/value metadata, or NULL */
    int64_t flags;                  /* ARROW_FLAG_* bits */
    int64_t n_children;             /* number of child types */
    struct ArrowSchema **children;  /* n_children pointers, or NULL when 0 */
    struct ArrowSchema *dictionary; /* value type of a dictionary-encoded type, else NULL */

    /* Release callback */
    void (*release)(struct ArrowSchema *);
    /* Opaque producer-specific data */
    void *private_data;
};

/* The data of one array. */
struct ArrowArray {
    /* Array data description */
    int64_t length;                /* logical number of items */
    int64_t null_count;            /* number of null items, or -1 when not computed */
    int64_t offset;                /* logical offset into the buffers */
    int64_t n_buffers;             /* number of physical buffers */
    int64_t n_children;            /* number of children */
    const void **buffers;          /* n_buffers pointers (validity first) */
    struct ArrowArray **children;  /* n_children pointers, or NULL when 0 */
    struct ArrowArray *dictionary; /* dictionary values of a dictionary-encoded array, else NULL */

    /* Release callback */
    void (*release)(struct ArrowArray *);
    /* Opaque producer-specific data */
    void *private_data;
};

#endif /* ARROW_C_DATA_INTERFACE */

#ifndef ARROW_C_STREAM_INTERFACE
#    define ARROW_C_STREAM_INTERFACE

/* A stream of arrays sharing one schema. The callbacks return 0 or an errno value. */
struct ArrowArrayStream {
    /* Fills out with the stream's schema. */
    int (*get_schema)(struct ArrowArrayStream *, struct ArrowSchema *out);
    /* Fills out with the next array, or a released array at the end of the stream. */
    int (*get_next)(struct ArrowArrayStream *, struct ArrowArray *out);
    /* The description of the last error, valid until the next call, or NULL. */
    const char *(*get_last_error)(struct ArrowArrayStream *);

    /* Release callback */
    void (*release)(struct ArrowArrayStream *);
    /* Opaque producer-specific data */
    void *private_data;
};

#endif /* ARROW_C_STREAM_INTERFACE */

#endif /* DL_VECTOR_ARROW_ABI_H */
