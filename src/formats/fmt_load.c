/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Loading a text file whole (formats.h): read through the store, then, by the file name's
 * extension, gunzip (RFC 1952; every member of a concatenated file, as gzip -d does) or zstd
 * (RFC 8878; every frame). A file whose name says gzip but whose bytes are not is an error,
 * never read as text.
 */
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "formats/formats.h"

static bool
ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s);
    size_t m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static dl_status
gunzip(const char *path, const dl_buf *in, dl_buf *out, dl_error *err) {
    z_stream zs;
    memset(&zs, 0, sizeof(zs));
    DL_CHECK(inflateInit2(&zs, 15 + 16) == Z_OK, err, DL_ERR_NOMEM,
             "'/%s': out of memory starting gzip", path);
    zs.next_in = in->data;
    size_t left = in->len;
    dl_status s = DL_OK;
    int rc = Z_OK;
    while (s == DL_OK) {
        if (zs.avail_in == 0 && left > 0) {
            zs.avail_in = (uInt)(left > (1u << 30) ? (1u << 30) : left);
            left -= zs.avail_in;
        }
        uint8_t *dst = dl_buf_extend(out, 1u << 20, err);
        if (dst == NULL) {
            s = DL_ERR_NOMEM;
            break;
        }
        zs.next_out = dst;
        zs.avail_out = 1u << 20;
        rc = inflate(&zs, Z_NO_FLUSH);
        out->len -= zs.avail_out;
        if (rc == Z_STREAM_END) {
            if (zs.avail_in == 0 && left == 0) {
                break;
            }
            rc = inflateReset(&zs); /* the next member */
        }
        if (rc != Z_OK && rc != Z_BUF_ERROR) {
            s = dl_error_set(err, DL_ERR_CORRUPT, "'/%s': not valid gzip data at byte %zu: %s",
                             path, (size_t)(zs.next_in - in->data), zs.msg ? zs.msg : "corrupt");
        } else if (rc == Z_BUF_ERROR && zs.avail_in == 0 && left == 0) {
            s = dl_error_set(err, DL_ERR_CORRUPT, "'/%s': the gzip data is truncated", path);
        }
    }
    inflateEnd(&zs);
    return s;
}

static dl_status
unzstd(const char *path, const dl_buf *in, dl_buf *out, dl_error *err) {
    ZSTD_DStream *ds = ZSTD_createDStream();
    DL_CHECK(ds != NULL, err, DL_ERR_NOMEM, "'/%s': out of memory starting zstd", path);
    ZSTD_inBuffer ib = {in->data, in->len, 0};
    dl_status s = DL_OK;
    size_t rc = 0;
    while (s == DL_OK && (ib.pos < ib.size || rc != 0)) {
        uint8_t *dst = dl_buf_extend(out, 1u << 20, err);
        if (dst == NULL) {
            s = DL_ERR_NOMEM;
            break;
        }
        ZSTD_outBuffer ob = {dst, 1u << 20, 0};
        size_t before = ib.pos;
        rc = ZSTD_decompressStream(ds, &ob, &ib);
        out->len -= (1u << 20) - ob.pos;
        if (ZSTD_isError(rc)) {
            s = dl_error_set(err, DL_ERR_CORRUPT, "'/%s': not valid zstd data at byte %zu: %s",
                             path, ib.pos, ZSTD_getErrorName(rc));
        } else if (rc != 0 && ib.pos == ib.size && ob.pos == 0 && before == ib.pos) {
            s = dl_error_set(err, DL_ERR_CORRUPT, "'/%s': the zstd data is truncated", path);
        }
    }
    ZSTD_freeDStream(ds);
    return s;
}

static void
release_buf(void *ctx, void *data) {
    (void)data;
    dl_buf *b = ctx;
    const dl_allocator *alloc = b->alloc;
    dl_buf_destroy(b);
    dl_mem_free(alloc, b, sizeof(*b));
}

dl_status
dl_fmt_load(dl_store *store, const char *path, const dl_allocator *alloc, dl_vec_buffer **out,
            dl_error *err) {
    dl_buf raw;
    dl_buf_init(&raw, alloc);
    DL_TRY(dl_store_read_all(store, path, &raw, err));
    dl_buf *text = dl_mem_alloc(alloc, sizeof(*text));
    if (text == NULL) {
        dl_buf_destroy(&raw);
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory reading '/%s'", path);
    }
    dl_buf_init(text, alloc);
    dl_status s = DL_OK;
    if (ends_with(path, ".gz") || ends_with(path, ".gzip")) {
        s = gunzip(path, &raw, text, err);
        dl_buf_destroy(&raw);
    } else if (ends_with(path, ".zst") || ends_with(path, ".zstd")) {
        s = unzstd(path, &raw, text, err);
        dl_buf_destroy(&raw);
    } else {
        dl_buf_move(text, &raw);
    }
    if (s == DL_OK) {
        s = dl_vec_buffer_wrap(alloc, text->data, text->len, release_buf, text, out, err);
    }
    if (s != DL_OK) {
        release_buf(text, NULL);
    }
    return s;
}
