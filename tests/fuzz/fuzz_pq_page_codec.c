/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target: page decompression for every codec id.
 *
 * Input: 4 parameter bytes, then the compressed page.
 *   [0] codec id (mod 9: the eight Thrift ids and one unknown)
 *   [1..3] the uncompressed size the page header claims (LE u24, below 1 MiB)
 *
 * Properties checked (a violation traps):
 *   - no crash, undefined behaviour, leak, or write outside the output buffer (it is
 *     exactly the claimed size);
 *   - a refusal is CORRUPT naming the codec, or UNSUPPORTED for LZO and unknown ids;
 *   - an accepted page (of up to 64 KiB, to keep runs fast) compresses again with the same
 *     codec and decompresses to the same bytes.
 */
#include <string.h>

#include "base/base.h"
#include "parquet/codec/pq_codec.h"

/* libFuzzer's fixed entry point name. */
// NOLINTNEXTLINE(readability-identifier-naming)
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum {
    HEADER = 4
};

static void
require(bool cond) {
    if (!cond) {
        __builtin_trap();
    }
}

static void
check_round_trip(dl_pq_codec_ctx *ctx, int32_t codec, const uint8_t *plain, size_t n) {
    dl_buf comp;
    dl_buf_init(&comp, NULL);
    dl_error err;
    require(dl_pq_codec_compress(ctx, codec, DL_PQ_CODEC_LEVEL_DEFAULT, plain, n, &comp, &err) ==
            DL_OK);
    uint8_t *back = dl_mem_alloc(NULL, n);
    require(back != NULL);
    require(dl_pq_codec_decompress(ctx, codec, comp.data, comp.len, back, n, &err) == DL_OK);
    require(n == 0 || memcmp(plain, back, n) == 0);
    dl_mem_free(NULL, back, n);
    dl_buf_destroy(&comp);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < HEADER) {
        return 0;
    }
    int32_t codec = data[0] % 9;
    size_t claimed = ((size_t)data[1] | (size_t)data[2] << 8 | (size_t)data[3] << 16) % (1u << 20);
    const uint8_t *page = data + HEADER;
    size_t len = size - HEADER;
    uint8_t *out = dl_mem_alloc(NULL, claimed);
    require(out != NULL);
    /* One context for the whole run, as a column reader keeps one: reuse after a failed
     * page is part of what is tested. */
    static dl_pq_codec_ctx ctx;
    static bool is_ctx_ready;
    if (!is_ctx_ready) {
        dl_pq_codec_ctx_init(&ctx, NULL);
        is_ctx_ready = true;
    }
    dl_error err;
    dl_status st = dl_pq_codec_decompress(&ctx, codec, page, len, out, claimed, &err);
    if (st == DL_OK) {
        if (claimed <= 65536) {
            check_round_trip(&ctx, codec, out, claimed);
        }
    } else if (dl_pq_codec_is_supported(codec)) {
        require(st == DL_ERR_CORRUPT);
        require(strstr(err.msg, dl_pq_codec_name(codec)) != NULL);
    } else {
        require(st == DL_ERR_UNSUPPORTED);
    }
    dl_mem_free(NULL, out, claimed);
    return 0;
}
