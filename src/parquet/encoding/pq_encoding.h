/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Parquet page encodings (parquet-format Encodings.md): decoders that turn the bytes of a
 * (decompressed) page into plain typed C arrays, and encoders that append a page's bytes to
 * a dl_buf.
 *
 * Decoders are streaming: a decoder is initialised on one page's encoded section and the
 * column reader takes values from it in batches of any size, so a page never has to be
 * decoded in one piece. Every decoder knows how many values its section holds (from the
 * page header or the encoding's own header) and checks every run, length and offset against
 * both that count and the bytes left, so a lying page is a CORRUPT error and never a read
 * out of bounds. Errors read "<ENCODING> at byte <offset>: <what is wrong>", where offset is
 * counted from the start of the page body: each init takes `page_offset`, the position of
 * its first byte within the page, for that purpose. Such errors also set err->offset to that
 * page offset (the column reader can add the page's file offset).
 *
 * Output: fixed-width values are copied into the caller's typed arrays (INT32 → int32_t,
 * INT64 → int64_t, FLOAT → float, DOUBLE → double, INT96 and FIXED_LEN_BYTE_ARRAY → bytes);
 * booleans become one byte each (0 or 1); BYTE_ARRAY values become dl_str views into the
 * page buffer, valid as long as the page buffer, except DELTA_BYTE_ARRAY values that had
 * to be reconstructed, which live in an arena the caller provides.
 *
 * All decoders and encoders assume a little-endian host (checked at compile time).
 */
#ifndef DL_PQ_ENCODING_H
#define DL_PQ_ENCODING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/error.h"
#include "base/str.h"
#include "parquet/encoding/pq_bitpack.h"

/* ---------------------------------------------------------------------------------------- */
/* PLAIN (Encodings.md "Plain")                                                             */
/* ---------------------------------------------------------------------------------------- */

/* Size in bytes of a PLAIN INT96 value. */
#define DL_PQ_INT96_SIZE 12

typedef struct dl_pq_plain_decoder {
    const uint8_t *data; /* the PLAIN section */
    size_t len;          /* its length in bytes */
    size_t pos;          /* next byte to read (whole values) */
    size_t bit_pos;      /* next bit to read (BOOLEAN only) */
    size_t page_offset;  /* page offset of data[0], for messages */
    size_t n_read;       /* values taken so far, for messages */
} dl_pq_plain_decoder;

/* Starts decoding the PLAIN values at data[0, len). No allocation; cannot fail. */
void dl_pq_plain_decoder_init(dl_pq_plain_decoder *dec, const uint8_t *data, size_t len,
                              size_t page_offset);

/*
 * Copies n fixed-width values of width bytes each (4 INT32/FLOAT, 8 INT64/DOUBLE, 12 INT96,
 * type_length FIXED_LEN_BYTE_ARRAY) to out, which has room for n * width bytes.
 * CORRUPT when fewer than n * width bytes are left.
 */
DL_NODISCARD dl_status dl_pq_plain_decode_fixed(dl_pq_plain_decoder *dec, size_t width, size_t n,
                                                void *out, dl_error *err);

/* As dl_pq_plain_decode_fixed without copying: *out_values points into the page. */
DL_NODISCARD dl_status dl_pq_plain_view_fixed(dl_pq_plain_decoder *dec, size_t width, size_t n,
                                              const uint8_t **out_values, dl_error *err);

/* Decodes n bit-packed BOOLEAN values to out[0, n) as bytes 0 or 1. */
DL_NODISCARD dl_status dl_pq_plain_decode_bool(dl_pq_plain_decoder *dec, size_t n, uint8_t *out,
                                               dl_error *err);

/* Decodes n BYTE_ARRAY values (u32 little-endian length, then the bytes) to views into the
 * page. CORRUPT when a length or its bytes run past the section. */
DL_NODISCARD dl_status dl_pq_plain_decode_byte_array(dl_pq_plain_decoder *dec, size_t n,
                                                     dl_str *out, dl_error *err);

/* Skips n values of the given width (width 0 = BYTE_ARRAY, and BOOLEAN uses skip_bool). */
DL_NODISCARD dl_status dl_pq_plain_skip(dl_pq_plain_decoder *dec, size_t width, size_t n,
                                        dl_error *err);
DL_NODISCARD dl_status dl_pq_plain_skip_bool(dl_pq_plain_decoder *dec, size_t n, dl_error *err);

/* Appends n fixed-width values (n * width bytes at values) to out. */
DL_NODISCARD dl_status dl_pq_plain_encode_fixed(const void *values, size_t n, size_t width,
                                                dl_buf *out, dl_error *err);

/* Appends n booleans (nonzero byte = true) bit-packed, padded with zero bits to a byte. A
 * page's booleans must be encoded in one call. */
DL_NODISCARD dl_status dl_pq_plain_encode_bool(const uint8_t *values, size_t n, dl_buf *out,
                                               dl_error *err);

/* Appends n BYTE_ARRAY values. INVALID_ARG when one is longer than INT32_MAX bytes. */
DL_NODISCARD dl_status dl_pq_plain_encode_byte_array(const dl_str *values, size_t n, dl_buf *out,
                                                     dl_error *err);

/*
 * INT96 timestamps (Spark, Impala, Hive): 8 bytes little-endian signed nanoseconds within
 * the day, then 4 bytes little-endian Julian day number (2440588 = 1970-01-01).
 * to_micros floors to microseconds since 1970-01-01 00:00:00 UTC; to_nanos gives
 * nanoseconds. CORRUPT naming the value's index when it is outside the int64 range of
 * the unit (for nanoseconds, outside 1677-09-21..2262-04-11).
 */
DL_NODISCARD dl_status dl_pq_int96_to_micros(const uint8_t *values, size_t n, int64_t *out,
                                             dl_error *err);
DL_NODISCARD dl_status dl_pq_int96_to_nanos(const uint8_t *values, size_t n, int64_t *out,
                                            dl_error *err);

/* Writes micros (since 1970-01-01 UTC) as an INT96 value. False (out untouched) for
 * instants before Julian day 0 (4714-11-24 BC), which INT96 cannot hold. */
bool dl_pq_int96_from_micros(int64_t micros, uint8_t out[DL_PQ_INT96_SIZE]);

/* ---------------------------------------------------------------------------------------- */
/* RLE / bit-packing hybrid (Encodings.md "Run Length Encoding / Bit-Packing Hybrid")       */
/* Levels, RLE booleans and dictionary indices.                                             */
/* ---------------------------------------------------------------------------------------- */

typedef struct dl_pq_rle_decoder {
    const uint8_t *data; /* the runs (after any length prefix or bit-width byte) */
    size_t len;          /* their length in bytes */
    size_t pos;          /* the next run header */
    size_t page_offset;  /* page offset of data[0], for messages */
    size_t run_start;    /* offset in data of the current run's header, for messages */
    const char *name;    /* encoding name for messages: "RLE" or "RLE_DICTIONARY" */
    uint64_t remaining;  /* values the caller may still take (including those in the
                            current run and buf) */
    uint64_t rle_left;   /* values left in the current RLE run */
    uint64_t bp_left;    /* values left to unpack in the current bit-packed run */
    size_t bp_next;      /* next group of 32 of the bit-packed run */
    size_t bp_end;       /* end of the bit-packed run's bytes (clamped to len) */
    uint32_t rle_value;  /* the current RLE run's value */
    uint32_t bit_width;  /* 0..32 */
    uint32_t buf_pos;    /* next value in buf */
    uint32_t buf_len;    /* values in buf */
    uint32_t buf[32];    /* a partly consumed group of a bit-packed run */
} dl_pq_rle_decoder;

/*
 * Starts decoding n_values values of bit_width bits from the runs at data[0, len).
 * INVALID_ARG when bit_width > 32 (callers compute it from a level or use 1 for booleans).
 */
DL_NODISCARD dl_status dl_pq_rle_decoder_init(dl_pq_rle_decoder *dec, const uint8_t *data,
                                              size_t len, unsigned bit_width, uint64_t n_values,
                                              size_t page_offset, dl_error *err);

/*
 * As dl_pq_rle_decoder_init for data that starts with the u32 little-endian byte length of
 * the runs (data page v1 levels; RLE booleans in v1 and v2 pages). *out_size receives
 * 4 + that length, the bytes the section takes. CORRUPT when the prefix is missing or the
 * length runs past len.
 */
DL_NODISCARD dl_status dl_pq_rle_decoder_init_prefixed(dl_pq_rle_decoder *dec, const uint8_t *data,
                                                       size_t len, unsigned bit_width,
                                                       uint64_t n_values, size_t page_offset,
                                                       size_t *out_size, dl_error *err);

/*
 * Starts decoding n_values dictionary indices (RLE_DICTIONARY / PLAIN_DICTIONARY data pages):
 * one byte of bit width (at most 32), then the runs to the end of data. An empty section is
 * accepted when n_values is 0.
 */
DL_NODISCARD dl_status dl_pq_dict_indices_init(dl_pq_rle_decoder *dec, const uint8_t *data,
                                               size_t len, uint64_t n_values, size_t page_offset,
                                               dl_error *err);

/*
 * Take the next n values. INVALID_ARG when n exceeds the values left (a caller bug: the
 * caller set n_values). CORRUPT when a run is longer than the values left (a bit-packed run
 * may pad its last group of 8), a run needs more bytes than are left, an RLE value does not
 * fit in bit_width bits, or the data ends before n values.
 * decode_u16 requires bit_width <= 16 and decode_u8 bit_width <= 8 (INVALID_ARG otherwise).
 */
DL_NODISCARD dl_status dl_pq_rle_decode_u32(dl_pq_rle_decoder *dec, size_t n, uint32_t *out,
                                            dl_error *err);
DL_NODISCARD dl_status dl_pq_rle_decode_u16(dl_pq_rle_decoder *dec, size_t n, uint16_t *out,
                                            dl_error *err);
DL_NODISCARD dl_status dl_pq_rle_decode_u8(dl_pq_rle_decoder *dec, size_t n, uint8_t *out,
                                           dl_error *err);

/* As dl_pq_rle_decode_u32, and CORRUPT when an index is >= dict_size. */
DL_NODISCARD dl_status dl_pq_rle_decode_indices(dl_pq_rle_decoder *dec, size_t n, uint32_t *out,
                                                uint32_t dict_size, dl_error *err);

/* Skips n values, with the same checks as decoding them. */
DL_NODISCARD dl_status dl_pq_rle_skip(dl_pq_rle_decoder *dec, size_t n, dl_error *err);

/*
 * The deprecated BIT_PACKED level encoding (Encodings.md "Bit-packed (Deprecated)"): values
 * packed back to back from the most significant bit, no header; a page's n_values levels take
 * ceil(n_values * bit_width / 8) bytes. Decodes values [start, start + n) of such a section of
 * len bytes to out. CORRUPT when the section is too short; INVALID_ARG when bit_width > 16.
 */
DL_NODISCARD dl_status dl_pq_bit_packed_decode_u16(const uint8_t *data, size_t len,
                                                   unsigned bit_width, uint64_t start, size_t n,
                                                   uint16_t *out, size_t page_offset,
                                                   dl_error *err);

/* Whether the RLE encoders write the u32 byte-length prefix first. */
typedef enum dl_pq_rle_framing {
    DL_PQ_RLE_BARE = 0,          /* data page v2 levels, dictionary indices */
    DL_PQ_RLE_LENGTH_PREFIX = 1, /* data page v1 levels, RLE booleans */
} dl_pq_rle_framing;

/*
 * Appends n values as RLE/bit-packed runs of bit_width (0..32) bits: runs of 8 or more equal
 * values become RLE runs, the rest bit-packed groups of 8 (the last group padded with zero
 * values). INVALID_ARG when a value does not fit in bit_width bits.
 */
DL_NODISCARD dl_status dl_pq_rle_encode_u32(const uint32_t *values, size_t n, unsigned bit_width,
                                            dl_pq_rle_framing framing, dl_buf *out, dl_error *err);
DL_NODISCARD dl_status dl_pq_rle_encode_u16(const uint16_t *values, size_t n, unsigned bit_width,
                                            dl_pq_rle_framing framing, dl_buf *out, dl_error *err);
DL_NODISCARD dl_status dl_pq_rle_encode_u8(const uint8_t *values, size_t n, unsigned bit_width,
                                           dl_pq_rle_framing framing, dl_buf *out, dl_error *err);

/* Appends a dictionary-index section: the bit width byte for dict_size entries, then the
 * indices as bare runs. INVALID_ARG when an index is >= dict_size. */
DL_NODISCARD dl_status dl_pq_dict_indices_encode(const uint32_t *indices, size_t n,
                                                 uint32_t dict_size, dl_buf *out, dl_error *err);

/* ---------------------------------------------------------------------------------------- */
/* Dictionary gathers: out[i] = dict[indices[i]]. Assume every index was checked against   */
/* the dictionary size (dl_pq_rle_decode_indices does).                                    */
/* ---------------------------------------------------------------------------------------- */

void dl_pq_dict_gather_u32(const uint32_t *dict, const uint32_t *indices, size_t n, uint32_t *out);
void dl_pq_dict_gather_u64(const uint64_t *dict, const uint32_t *indices, size_t n, uint64_t *out);
void dl_pq_dict_gather_str(const dl_str *dict, const uint32_t *indices, size_t n, dl_str *out);
/* Any width (INT96, FIXED_LEN_BYTE_ARRAY): dict and out hold width-byte values. */
void dl_pq_dict_gather_bytes(const uint8_t *dict, size_t width, const uint32_t *indices, size_t n,
                             uint8_t *out);

/* ---------------------------------------------------------------------------------------- */
/* DELTA_BINARY_PACKED (Encodings.md "Delta Encoding") for INT32 and INT64                  */
/* ---------------------------------------------------------------------------------------- */

typedef struct dl_pq_delta_decoder {
    const uint8_t *data;   /* the encoded section */
    size_t len;            /* its length in bytes */
    size_t pos;            /* next unread byte: after the current miniblock's full extent */
    size_t page_offset;    /* page offset of data[0], for messages */
    uint64_t total;        /* values the header declares */
    uint64_t remaining;    /* values not yet taken */
    uint64_t deltas_left;  /* deltas in miniblocks not yet entered */
    uint64_t first;        /* the header's first value (two's complement) */
    uint64_t last;         /* the last value produced (two's complement, wrapping) */
    uint64_t min_delta;    /* the current block's minimum delta */
    uint64_t mb_left;      /* deltas left to unpack in the current miniblock */
    size_t widths;         /* offset in data of the current block's bit widths */
    size_t mb_next;        /* next group of 32 in the current miniblock */
    size_t mb_end;         /* end of the current miniblock's bytes (clamped to len) */
    uint32_t block_size;   /* values per block, a multiple of 128 */
    uint32_t n_miniblocks; /* miniblocks per block */
    uint32_t mb_size;      /* values per miniblock, a multiple of 32 */
    uint32_t mb_index;     /* the next miniblock of the block (n_miniblocks = next block) */
    uint32_t bit_width;    /* the current miniblock's bit width, 0..64 */
    uint32_t buf_pos;      /* next value in buf */
    uint32_t buf_len;      /* values in buf */
    bool is_int32;         /* INT32 column: values wrap at 32 bits */
    uint64_t buf[32];      /* decoded values of a partly consumed group */
} dl_pq_delta_decoder;

/*
 * Parses the header at data[0, len) (block size, miniblocks per block, value count, first
 * value). CORRUPT when the header is truncated or breaks the spec's rules (block size a
 * positive multiple of 128, miniblocks of a multiple of 32 values), or for INT32 when the
 * first value does not fit. An empty section reads as zero values. After init, dec->total
 * holds the declared value count.
 */
DL_NODISCARD dl_status dl_pq_delta_decoder_init(dl_pq_delta_decoder *dec, const uint8_t *data,
                                                size_t len, bool is_int32, size_t page_offset,
                                                dl_error *err);

/*
 * Take the next n values (decode_i32 for INT32 decoders, decode_i64 for INT64). CORRUPT when
 * more than the declared count is asked for, a miniblock's bit width exceeds 64, or a
 * miniblock needs more bytes than are left. Bit widths up to 64 are accepted for INT32 (some
 * writers computed INT32 deltas in 64 bits); the sums wrap at 32 bits either way.
 */
DL_NODISCARD dl_status dl_pq_delta_decode_i32(dl_pq_delta_decoder *dec, size_t n, int32_t *out,
                                              dl_error *err);
DL_NODISCARD dl_status dl_pq_delta_decode_i64(dl_pq_delta_decoder *dec, size_t n, int64_t *out,
                                              dl_error *err);

/* Skips n values (they are decoded: each value depends on the one before). */
DL_NODISCARD dl_status dl_pq_delta_skip(dl_pq_delta_decoder *dec, size_t n, dl_error *err);

/* Values per block and miniblocks per block that the encoder writes (parquet-mr's). */
#define DL_PQ_DELTA_BLOCK_SIZE   128
#define DL_PQ_DELTA_N_MINIBLOCKS 4

/*
 * Streaming DELTA_BINARY_PACKED encoder for a known number of values: init with the count,
 * put the values in any number of calls, finish. The header is written by the first put
 * (or by finish for zero values), then each full block as it fills.
 */
typedef struct dl_pq_delta_encoder {
    dl_buf *out;                           /* where the bytes go */
    uint64_t total;                        /* values promised at init */
    uint64_t count;                        /* values put so far */
    uint64_t last;                         /* the previous value (two's complement) */
    uint32_t n_block;                      /* deltas in block */
    bool is_int32;                         /* deltas wrap at 32 bits */
    int64_t block[DL_PQ_DELTA_BLOCK_SIZE]; /* the current block's deltas */
} dl_pq_delta_encoder;

void dl_pq_delta_encoder_init(dl_pq_delta_encoder *enc, bool is_int32, uint64_t total, dl_buf *out);

/* Put values (put_i32 for INT32 encoders, put_i64 for INT64). INVALID_ARG past total. */
DL_NODISCARD dl_status dl_pq_delta_encoder_put_i32(dl_pq_delta_encoder *enc, const int32_t *values,
                                                   size_t n, dl_error *err);
DL_NODISCARD dl_status dl_pq_delta_encoder_put_i64(dl_pq_delta_encoder *enc, const int64_t *values,
                                                   size_t n, dl_error *err);

/* Flushes the last block. INVALID_ARG when fewer than total values were put. */
DL_NODISCARD dl_status dl_pq_delta_encoder_finish(dl_pq_delta_encoder *enc, dl_error *err);

/* One-shot encodes of a whole page's values. */
DL_NODISCARD dl_status dl_pq_delta_encode_i32(const int32_t *values, size_t n, dl_buf *out,
                                              dl_error *err);
DL_NODISCARD dl_status dl_pq_delta_encode_i64(const int64_t *values, size_t n, dl_buf *out,
                                              dl_error *err);

/* ---------------------------------------------------------------------------------------- */
/* DELTA_LENGTH_BYTE_ARRAY (Encodings.md "Delta-length byte array")                         */
/* ---------------------------------------------------------------------------------------- */

typedef struct dl_pq_dlba_decoder {
    const uint8_t *data;     /* the encoded section */
    size_t page_offset;      /* page offset of data[0], for messages */
    const uint32_t *lengths; /* every value's length (in the init arena) */
    size_t n_values;         /* values in the section */
    size_t next;             /* the next value */
    size_t data_pos;         /* offset in data of the next value's bytes */
} dl_pq_dlba_decoder;

/*
 * Decodes the lengths (a DELTA_BINARY_PACKED INT32 stream) at data[0, len) into an array
 * allocated from arena (4 bytes per value, kept until the arena is reset) and checks them:
 * CORRUPT when the header declares more than max_values values (the caller's count for the
 * page), a length is negative, or the lengths add up to more than the bytes that follow.
 */
DL_NODISCARD dl_status dl_pq_dlba_decoder_init(dl_pq_dlba_decoder *dec, const uint8_t *data,
                                               size_t len, uint64_t max_values, size_t page_offset,
                                               dl_arena *arena, dl_error *err);

/* Takes the next n values as views into the page. CORRUPT past the declared count. */
DL_NODISCARD dl_status dl_pq_dlba_decode(dl_pq_dlba_decoder *dec, size_t n, dl_str *out,
                                         dl_error *err);
DL_NODISCARD dl_status dl_pq_dlba_skip(dl_pq_dlba_decoder *dec, size_t n, dl_error *err);

/* Appends n values: their lengths, DELTA_BINARY_PACKED, then their bytes. INVALID_ARG when a
 * value is longer than INT32_MAX bytes. */
DL_NODISCARD dl_status dl_pq_dlba_encode(const dl_str *values, size_t n, dl_buf *out,
                                         dl_error *err);

/* ---------------------------------------------------------------------------------------- */
/* DELTA_BYTE_ARRAY (Encodings.md "Delta Strings") for BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY  */
/* ---------------------------------------------------------------------------------------- */

/* Default cap on the bytes one page may reconstruct (see output_limit). */
#define DL_PQ_DBA_OUTPUT_LIMIT ((size_t)1 << 30)

typedef struct dl_pq_dba_decoder {
    size_t page_offset;             /* page offset of the section, for messages */
    const uint32_t *prefix_lengths; /* every value's prefix length (in the init arena) */
    size_t n_values;                /* values in the section */
    size_t next;                    /* the next value */
    dl_pq_dlba_decoder suffixes;    /* the suffixes */
    dl_str prev;                    /* the previous value */
    bool is_prev_transient;         /* prev lives in the last call's output arena */
    int32_t fixed_len;              /* required value length, or -1 */
    dl_arena *arena;                /* the init arena: lengths, the saved previous value */
    size_t output_bytes;            /* bytes reconstructed so far */
    size_t output_limit;            /* LIMIT error beyond this many (a decompression bomb:
                                       each value may repeat the whole previous value) */
} dl_pq_dba_decoder;

/*
 * Decodes the prefix lengths and the suffix lengths at data[0, len) into arena. CORRUPT when
 * either count exceeds max_values, the two counts differ, or the suffix section is bad (see
 * dl_pq_dlba_decoder_init). fixed_len >= 0 requires every value to have that length
 * (FIXED_LEN_BYTE_ARRAY); -1 accepts any.
 */
DL_NODISCARD dl_status dl_pq_dba_decoder_init(dl_pq_dba_decoder *dec, const uint8_t *data,
                                              size_t len, uint64_t max_values, int32_t fixed_len,
                                              size_t page_offset, dl_arena *arena, dl_error *err);

/*
 * Takes the next n values. A value with an empty prefix is a view of its suffix in the page,
 * one with an empty suffix a view into the previous value; the others are built in
 * out_arena (NULL = the init arena) and live until it is reset. CORRUPT when a prefix is
 * longer than the previous value or a value has the wrong fixed length; LIMIT past
 * output_limit bytes built; NOMEM.
 */
DL_NODISCARD dl_status dl_pq_dba_decode(dl_pq_dba_decoder *dec, size_t n, dl_str *out,
                                        dl_arena *out_arena, dl_error *err);

/* Skips n values (they are reconstructed: each value depends on the one before). */
DL_NODISCARD dl_status dl_pq_dba_skip(dl_pq_dba_decoder *dec, size_t n, dl_arena *out_arena,
                                      dl_error *err);

/* Appends n values: prefix lengths shared with the previous value, then the suffixes as
 * DELTA_LENGTH_BYTE_ARRAY. INVALID_ARG when a value is longer than INT32_MAX bytes. */
DL_NODISCARD dl_status dl_pq_dba_encode(const dl_str *values, size_t n, dl_buf *out, dl_error *err);

/* ---------------------------------------------------------------------------------------- */
/* BYTE_STREAM_SPLIT (Encodings.md "Byte Stream Split") for FLOAT, DOUBLE, INT32, INT64 and */
/* FIXED_LEN_BYTE_ARRAY                                                                     */
/* ---------------------------------------------------------------------------------------- */

typedef struct dl_pq_bss_decoder {
    const uint8_t *data; /* the K streams of n_values bytes each */
    size_t page_offset;  /* page offset of data[0], for messages */
    size_t width;        /* K: bytes per value */
    size_t n_values;     /* N: values in the section */
    size_t next;         /* the next value */
} dl_pq_bss_decoder;

/* Starts decoding values of width bytes at data[0, len). CORRUPT when len is not a multiple
 * of width; INVALID_ARG when width is 0. */
DL_NODISCARD dl_status dl_pq_bss_decoder_init(dl_pq_bss_decoder *dec, const uint8_t *data,
                                              size_t len, size_t width, size_t page_offset,
                                              dl_error *err);

/* Takes the next n values into out (n * width bytes). CORRUPT past the section's count. */
DL_NODISCARD dl_status dl_pq_bss_decode(dl_pq_bss_decoder *dec, size_t n, void *out, dl_error *err);
DL_NODISCARD dl_status dl_pq_bss_skip(dl_pq_bss_decoder *dec, size_t n, dl_error *err);

/* Appends n values of width bytes (a page's values must be encoded in one call). */
DL_NODISCARD dl_status dl_pq_bss_encode(const void *values, size_t n, size_t width, dl_buf *out,
                                        dl_error *err);

#endif /* DL_PQ_ENCODING_H */
