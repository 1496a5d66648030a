/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Deletion vectors (PROTOCOL.md, "Deletion Vectors" and "Deletion Vector Format").
 *
 * A deletion vector (DV) is the set of rows of one Parquet data file that are logically
 * deleted: 0-based physical row indexes, 64-bit. An `add` or `remove` action carries a
 * descriptor saying where the set lives:
 *
 *   storageType    'u': in a file of the table, named by a UUID:
 *                       pathOrInlineDv = <random prefix, optional> <UUID in Z85, 20 chars>
 *                       file           = <table>/<prefix>/deletion_vector_<uuid>.bin
 *                  'i': inline: pathOrInlineDv is the serialized set in Z85 (padded to whole
 *                       4-byte blocks; sizeInBytes is the length before padding)
 *                  'p': in a file at an absolute, URL-encoded path or URI (file:/...)
 *   offset         where the DV starts in its file (absent for 'i'; absent means 0)
 *   sizeInBytes    length of the serialized set (before Z85 for 'i')
 *   cardinality    number of rows it deletes
 *   maxRowIndex    (not in the log; optional) the largest row index a writer knows of
 *
 * Its unique id, which log replay pairs with the data file's path to key the live files, is
 * storageType + pathOrInlineDv, followed by '@' + offset when the offset is present.
 *
 * The serialized set is a "RoaringBitmapArray": a magic number, then 64-bit Roaring in the
 * portable layout (buckets of 32-bit Roaring bitmaps keyed by the high 32 bits). A DV file
 * is a version byte (1) followed by DVs, each framed as big-endian size, the bitmap bytes, and
 * a big-endian CRC-32 of the bitmap bytes. delta_dv_format.c describes the bytes in full.
 *
 * In memory a dl_delta_dv is the set as an array of 32-bit CRoaring bitmaps keyed by the high
 * 32 bits (exactly the on-disk shape). A scan asks it, per batch of rows [start, start + n),
 * for the deleted positions or for the selection of kept rows (uint32 indexes relative to
 * start, ascending: the raw form of dl_sel), which it gets by walking the bitmap from start,
 * never by testing every row.
 *
 * Threads: a dl_delta_dv that is no longer being changed may be queried from several threads
 * at once; changing one (add, optimize) needs exclusive access.
 *
 * Memory: our own allocations go through the dl_allocator given; CRoaring's containers come
 * from CRoaring's allocator (libc malloc; the Debian version has no allocator hook), so
 * fault-injection tests see only ours.
 */
#ifndef DL_DELTA_DELTA_DV_H
#define DL_DELTA_DELTA_DV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/alloc.h"
#include "base/arena.h"
#include "base/buf.h"
#include "base/compiler.h"
#include "base/error.h"
#include "base/str.h"
#include "store/store.h"

/* ------------------------------------------------------------------------------------------ */
/* Z85 (ZeroMQ RFC 32): 4 bytes, read as a big-endian uint32, become 5 characters base 85.     */

#define DL_DELTA_Z85_UUID_LEN 20 /* characters of a Z85-encoded 16-byte UUID */

/* Characters needed to encode n bytes padded with zeros to whole 4-byte blocks. */
static inline size_t
dl_delta_z85_encoded_len(size_t n) {
    return (n + 3) / 4 * 5;
}

/*
 * Appends the Z85 text of src[0, n) to out. When n is not a multiple of 4 the input is padded
 * with zero bytes to the next multiple (as Spark does for inline DVs); the reader drops the
 * padding by knowing the unpadded length.
 */
DL_NODISCARD dl_status dl_delta_z85_encode(const uint8_t *src, size_t n, dl_buf *out,
                                           dl_error *err);

/*
 * Decodes len characters of Z85 into dst, which must have room for len / 5 * 4 bytes.
 * DL_ERR_CORRUPT, with dl_error.offset at the culprit, when len is not a multiple of 5, a
 * character is outside the Z85 alphabet, or a 5-character block exceeds 2^32 - 1.
 */
DL_NODISCARD dl_status dl_delta_z85_decode(const char *src, size_t len, uint8_t *dst,
                                           dl_error *err);

/*
 * As dl_delta_z85_decode, also accepting a final block in the padded form of the Rust z85
 * crate (1 to 3 '#' characters, then the remaining bytes as a big-endian number: see
 * delta_z85.c), which inline DVs in the wild use. *out_len receives the number of bytes
 * written (len / 5 * 4 less the padding). dst must have room for len / 5 * 4 bytes.
 */
DL_NODISCARD dl_status dl_delta_z85_decode_padded(const char *src, size_t len, uint8_t *dst,
                                                  size_t *out_len, dl_error *err);

/* Formats a 16-byte UUID in canonical form (lowercase, 8-4-4-4-12) into out, NUL-terminated. */
void dl_delta_uuid_format(const uint8_t uuid[16], char out[37]);

/* Fills uuid with a random version 4 UUID (getrandom). DL_ERR_IO if no randomness is to be had. */
DL_NODISCARD dl_status dl_delta_uuid_random(uint8_t uuid[16], dl_error *err);

/* ------------------------------------------------------------------------------------------ */
/* Descriptors                                                                                 */

#define DL_DELTA_DV_STORAGE_UUID   'u'
#define DL_DELTA_DV_STORAGE_INLINE 'i'
#define DL_DELTA_DV_STORAGE_PATH   'p'

/* Version byte at the start of every DV file. */
#define DL_DELTA_DV_FILE_VERSION 1

/* Magic numbers of the two RoaringBitmapArray layouts (little-endian int32 first). */
#define DL_DELTA_DV_MAGIC_PORTABLE 1681511377u
#define DL_DELTA_DV_MAGIC_NATIVE   1681511376u

/* The largest row index a writer may store: Spark's RoaringBitmapArray limit (high key
 * INT32_MAX - 1). Readers accept any key with the top bit clear. */
#define DL_DELTA_DV_MAX_ROW ((int64_t)((((uint64_t)INT32_MAX - 1u) << 32) | 0xFFFFFFFFu))

/*
 * A DeletionVectorDescriptor as it appears in an action. path_or_inline_dv is a view: whoever
 * fills the struct says how long its bytes stay valid (the JSON doc, or the arena given to the
 * writer functions below).
 */
typedef struct dl_delta_dv_desc {
    char storage_type;        /* 'u', 'i' or 'p' */
    dl_str path_or_inline_dv; /* pathOrInlineDv */
    int32_t offset;           /* offset, when has_offset */
    int32_t size_in_bytes;    /* sizeInBytes */
    int64_t cardinality;      /* cardinality */
    int64_t max_row_index;    /* maxRowIndex, when has_max_row_index */
    bool has_offset;          /* offset present (JSON null counts as absent) */
    bool has_max_row_index;   /* maxRowIndex present */
} dl_delta_dv_desc;

/*
 * Checks the descriptor on its own: a known storage type (else DL_ERR_UNSUPPORTED naming it),
 * non-negative sizes, offset and cardinality, a 'u' path of at least 20 characters ending in
 * valid Z85, an 'i' payload whose Z85 length matches sizeInBytes. DL_ERR_CORRUPT otherwise.
 */
DL_NODISCARD dl_status dl_delta_dv_desc_check(const dl_delta_dv_desc *desc, dl_error *err);

/* Appends the unique id (storageType + pathOrInlineDv [+ '@' + offset]) to out. */
DL_NODISCARD dl_status dl_delta_dv_desc_append_id(const dl_delta_dv_desc *desc, dl_buf *out,
                                                  dl_error *err);

/* True when a and b have the same unique id (without building it). */
bool dl_delta_dv_desc_same_id(const dl_delta_dv_desc *a, const dl_delta_dv_desc *b);

/*
 * Where an on-disk DV lives, for a table whose root is table_root inside store ("" or NULL
 * when the store's root is the table). On DL_OK, out holds a NUL-terminated path and
 * *out_is_absolute says how to read it:
 *   false: relative to the store's root ('u', and 'p' paths inside the store's root);
 *   true:  an absolute local file-system path ('p' elsewhere; only a local store reads it).
 * 'p' accepts file: URIs (file:/a, file:///a, file://localhost/a) and bare absolute paths,
 * percent-decoded; any other scheme is DL_ERR_UNSUPPORTED naming it. 'i' is
 * DL_ERR_INVALID_ARG (an inline DV has no file). out is reset first.
 */
DL_NODISCARD dl_status dl_delta_dv_desc_locate(const dl_delta_dv_desc *desc, const dl_store *store,
                                               const char *table_root, dl_buf *out,
                                               bool *out_is_absolute, dl_error *err);

/* ------------------------------------------------------------------------------------------ */
/* The set                                                                                     */

typedef struct dl_delta_dv dl_delta_dv;

/* An empty set. Free it with dl_delta_dv_free. alloc NULL = libc. */
DL_NODISCARD dl_status dl_delta_dv_new(const dl_allocator *alloc, dl_delta_dv **out, dl_error *err);

/* Frees the set. NULL-tolerant. */
void dl_delta_dv_free(dl_delta_dv *dv);

/* Adds one row index, 0 <= row <= DL_DELTA_DV_MAX_ROW (else DL_ERR_INVALID_ARG). */
DL_NODISCARD dl_status dl_delta_dv_add(dl_delta_dv *dv, int64_t row, dl_error *err);

/* Adds n row indexes, in any order (ascending runs are fastest). All are checked first, so
 * on DL_ERR_INVALID_ARG nothing was added. */
DL_NODISCARD dl_status dl_delta_dv_add_rows(dl_delta_dv *dv, const int64_t *rows, size_t n,
                                            dl_error *err);

/* Adds rows [start, start + n). */
DL_NODISCARD dl_status dl_delta_dv_add_range(dl_delta_dv *dv, int64_t start, int64_t n,
                                             dl_error *err);

/* Adds every row of other to dv (other is unchanged; the two may share no storage). */
DL_NODISCARD dl_status dl_delta_dv_union(dl_delta_dv *dv, const dl_delta_dv *other, dl_error *err);

/* Re-encodes containers as runs where that is smaller and trims spare capacity: call it once
 * after the last add, before serializing, for the smallest output. */
void dl_delta_dv_optimize(dl_delta_dv *dv);

/* Number of rows in the set. */
int64_t dl_delta_dv_cardinality(const dl_delta_dv *dv);

/* The largest row in the set, or -1 when it is empty. */
int64_t dl_delta_dv_max_row(const dl_delta_dv *dv);

/* True when row is in the set (false for any negative row). */
bool dl_delta_dv_contains(const dl_delta_dv *dv, int64_t row);

/* Number of rows of the set in [start, start + n). Assumes: n >= 0, start + n does not
 * overflow. Rows below 0 are never in the set, so start may be negative. */
int64_t dl_delta_dv_count_range(const dl_delta_dv *dv, int64_t start, int64_t n);

/*
 * The rows of the set in [start, start + n), written to out as ascending offsets from start;
 * returns how many. Cost: proportional to the number found, plus a seek.
 * Assumes: out has room for min(n, cardinality) entries; start + n does not overflow (start
 * may be negative: rows below 0 are never in the set).
 */
int64_t dl_delta_dv_deleted_in_range(const dl_delta_dv *dv, int64_t start, uint32_t n,
                                     uint32_t *out);

/*
 * The selection vector of the rows in [start, start + n) that are NOT in the set: ascending
 * offsets from start written to out; returns how many (n minus the deleted ones).
 * Assumes: out has room for n entries; start + n does not overflow (start may be negative).
 */
int64_t dl_delta_dv_kept_in_range(const dl_delta_dv *dv, int64_t start, uint32_t n, uint32_t *out);

/* Writes every row of the set to out in ascending order. Assumes: out has room for
 * dl_delta_dv_cardinality(dv) entries. */
void dl_delta_dv_to_array(const dl_delta_dv *dv, int64_t *out);

/* True when a and b hold the same rows (however they are encoded). */
bool dl_delta_dv_equal(const dl_delta_dv *a, const dl_delta_dv *b);

/* ------------------------------------------------------------------------------------------ */
/* Serialized form                                                                             */

/*
 * Parses a serialized RoaringBitmapArray (what an inline DV holds, and what a DV file frames):
 * the portable layout (magic 1681511377) or Spark's legacy native one (1681511376). Every
 * byte is bounds-checked and every container validated (keys ascending, array values
 * ascending, runs ordered and within 16 bits, bitset populations equal to their declared
 * cardinality, bucket keys ascending with the top bit clear) before CRoaring sees it; the data
 * must be used up exactly. Errors are DL_ERR_CORRUPT "RoaringBitmapArray at byte N: ...",
 * with N in dl_error.offset.
 */
DL_NODISCARD dl_status dl_delta_dv_parse(const uint8_t *data, size_t len, const dl_allocator *alloc,
                                         dl_delta_dv **out, dl_error *err);

/* Appends the set in the portable RoaringBitmapArray layout (magic 1681511377), with only
 * non-empty buckets, to out. */
DL_NODISCARD dl_status dl_delta_dv_serialize(const dl_delta_dv *dv, dl_buf *out, dl_error *err);

/*
 * Parses the DV at offset in the bytes of a whole DV file (file[0, file_len)): checks the
 * version byte, that the big-endian size equals size_in_bytes and fits, and the CRC-32, then
 * parses the bitmap. name is the file's name for messages. Mismatches are DL_ERR_CORRUPT
 * naming the file, the offset and, for the checksum, both values.
 */
DL_NODISCARD dl_status dl_delta_dv_parse_file(const uint8_t *file, size_t file_len, int64_t offset,
                                              int32_t size_in_bytes, const char *name,
                                              const dl_allocator *alloc, dl_delta_dv **out,
                                              dl_error *err);

/* ------------------------------------------------------------------------------------------ */
/* Reading through a descriptor                                                                */

/*
 * Loads the DV a descriptor names, for a table whose root is table_root inside store ("" or
 * NULL: the store's root). Inline DVs are decoded from the descriptor; 'u' and 'p' DVs are
 * read from their file (two positional reads: the version byte and the DV's range), framed
 * and checksummed as dl_delta_dv_parse_file says. The set's cardinality must equal the
 * descriptor's, and its largest row must not exceed maxRowIndex when that is given
 * (DL_ERR_CORRUPT). A missing file is DL_ERR_NOT_FOUND. Every message names the DV file (or
 * the inline DV's id). store may be NULL for an inline DV. alloc NULL = libc. The set is the
 * caller's to free.
 */
DL_NODISCARD dl_status dl_delta_dv_load(dl_store *store, const char *table_root,
                                        const dl_delta_dv_desc *desc, const dl_allocator *alloc,
                                        dl_delta_dv **out, dl_error *err);

/* ------------------------------------------------------------------------------------------ */
/* Writing                                                                                     */

/*
 * Describes dv as an inline ('i') DV: serialized, Z85-encoded with zero padding, the text
 * allocated in arena (it lives as long as arena). No offset.
 */
DL_NODISCARD dl_status dl_delta_dv_to_inline(const dl_delta_dv *dv, dl_arena *arena,
                                             dl_delta_dv_desc *out, dl_error *err);

/*
 * A DV file being written: DVs for several data files can share one file, as Spark's do.
 * Nothing is visible until commit, which creates the file with put-if-absent.
 */
typedef struct dl_delta_dv_file_writer dl_delta_dv_file_writer;

/*
 * Starts the file <table_root>/<prefix>/deletion_vector_<uuid>.bin (prefix "" for none: it
 * must be a canonical relative path) in store. uuid NULL draws a random version 4 UUID. The
 * descriptors' pathOrInlineDv (prefix + Z85 of the UUID) is allocated in arena.
 */
DL_NODISCARD dl_status dl_delta_dv_file_writer_open(dl_store *store, const char *table_root,
                                                    const char *prefix, const uint8_t *uuid,
                                                    dl_arena *arena, dl_delta_dv_file_writer **out,
                                                    dl_error *err);

/* Appends dv (size, bitmap, CRC-32) and fills out with its 'u' descriptor. */
DL_NODISCARD dl_status dl_delta_dv_file_writer_add(dl_delta_dv_file_writer *w,
                                                   const dl_delta_dv *dv, dl_delta_dv_desc *out,
                                                   dl_error *err);

/* Publishes the file (put-if-absent) and frees the writer whatever the outcome. With no DV
 * added, no file is created. DL_ERR_EXISTS if the file exists already. */
DL_NODISCARD dl_status dl_delta_dv_file_writer_commit(dl_delta_dv_file_writer *w, dl_error *err);

/* Discards the file and frees the writer. NULL-tolerant. */
void dl_delta_dv_file_writer_abort(dl_delta_dv_file_writer *w);

/* The relative path of the file being written (valid until commit or abort). */
const char *dl_delta_dv_file_writer_path(const dl_delta_dv_file_writer *w);

#endif /* DL_DELTA_DELTA_DV_H */
