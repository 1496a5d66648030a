/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Deletion vector descriptors (PROTOCOL.md, "Deletion Vector Descriptor Schema" and its
 * "Derived Fields"): checking one, its unique id, and where its file is.
 *
 *   uniqueId      = storageType + pathOrInlineDv, then "@" + offset when offset is present
 *   'u' file      = <table>/<random prefix>/deletion_vector_<uuid>.bin, where pathOrInlineDv
 *                   is the prefix (any length, possibly empty) followed by the UUID's 16 bytes
 *                   in Z85 (always the last 20 characters)
 *   'p' file      = pathOrInlineDv, an absolute path in the URL-encoded form of add.path
 *                   (Spark writes a URI such as file:/tmp/t/deletion_vector_<uuid>.bin)
 *
 * Paths handed to the store are checked canonical (no "..", no empty components), so a
 * descriptor cannot make the reader leave the places it names.
 */
#include <inttypes.h>
#include <string.h>

#include "delta/delta_dv_int.h"

#define FILE_PREFIX "deletion_vector_"
#define FILE_SUFFIX ".bin"
#define ID_SHOWN    120 /* characters of pathOrInlineDv quoted in messages */

/* "u<pathOrInlineDv>" for messages: the storage type and the first ID_SHOWN characters. */
#define DESC_FMT "'%c%.*s%s'"
#define DESC_ARGS(d)                                                                          \
    ((d)->storage_type >= 0x20 && (d)->storage_type < 0x7F ? (d)->storage_type : '?'),        \
        (int)((d)->path_or_inline_dv.len > ID_SHOWN ? ID_SHOWN : (d)->path_or_inline_dv.len), \
        (d)->path_or_inline_dv.ptr ? (d)->path_or_inline_dv.ptr : "",                         \
        ((d)->path_or_inline_dv.len > ID_SHOWN ? "..." : "")

dl_status
dl_delta_dv_desc_check(const dl_delta_dv_desc *desc, dl_error *err) {
    char type = desc->storage_type;
    if (type != DL_DELTA_DV_STORAGE_UUID && type != DL_DELTA_DV_STORAGE_INLINE &&
        type != DL_DELTA_DV_STORAGE_PATH) {
        DL_FAIL(err, DL_ERR_UNSUPPORTED,
                "deletion vector " DESC_FMT ": storage type '%c' (0x%02x) is not supported "
                "(known: 'u', 'i', 'p')",
                DESC_ARGS(desc), type >= 0x20 && type < 0x7F ? type : '?', (unsigned)(uint8_t)type);
    }
    DL_CHECK(desc->size_in_bytes >= 0 && desc->cardinality >= 0 &&
                 (!desc->has_offset || desc->offset >= 0),
             err, DL_ERR_CORRUPT,
             "deletion vector " DESC_FMT ": negative sizeInBytes (%d), cardinality (%lld) or "
             "offset (%d)",
             DESC_ARGS(desc), (int)desc->size_in_bytes, (long long)desc->cardinality,
             desc->has_offset ? (int)desc->offset : 0);
    size_t len = desc->path_or_inline_dv.len;
    if (type == DL_DELTA_DV_STORAGE_UUID) {
        DL_CHECK(len >= DL_DELTA_Z85_UUID_LEN, err, DL_ERR_CORRUPT,
                 "deletion vector " DESC_FMT ": a 'u' path needs at least 20 characters (the "
                 "UUID in Z85), not %zu",
                 DESC_ARGS(desc), len);
        uint8_t uuid[16];
        DL_TRY_CTX(dl_delta_z85_decode(desc->path_or_inline_dv.ptr + len - DL_DELTA_Z85_UUID_LEN,
                                       DL_DELTA_Z85_UUID_LEN, uuid, err),
                   err, "deletion vector " DESC_FMT ": its UUID", DESC_ARGS(desc));
    } else if (type == DL_DELTA_DV_STORAGE_INLINE) {
        size_t decoded = len / 5 * 4;
        DL_CHECK(len % 5 == 0 && decoded >= (size_t)desc->size_in_bytes &&
                     decoded - (size_t)desc->size_in_bytes < 4,
                 err, DL_ERR_CORRUPT,
                 "inline deletion vector " DESC_FMT ": %zu characters of Z85 cannot hold "
                 "sizeInBytes %d (they decode to %zu bytes%s)",
                 DESC_ARGS(desc), len, (int)desc->size_in_bytes, decoded,
                 len % 5 != 0 ? ", with a partial block" : "");
    } else {
        DL_CHECK(len > 0, err, DL_ERR_CORRUPT, "deletion vector 'p': the path is empty");
    }
    return DL_OK;
}

dl_status
dl_delta_dv_desc_append_id(const dl_delta_dv_desc *desc, dl_buf *out, dl_error *err) {
    DL_TRY(dl_buf_append_byte(out, (uint8_t)desc->storage_type, err));
    DL_TRY(dl_buf_append(out, desc->path_or_inline_dv.ptr, desc->path_or_inline_dv.len, err));
    if (desc->has_offset) {
        DL_TRY(dl_buf_appendf(out, err, "@%d", (int)desc->offset));
    }
    return DL_OK;
}

bool
dl_delta_dv_desc_same_id(const dl_delta_dv_desc *a, const dl_delta_dv_desc *b) {
    return a->storage_type == b->storage_type && a->has_offset == b->has_offset &&
           (!a->has_offset || a->offset == b->offset) &&
           dl_str_eq(a->path_or_inline_dv, b->path_or_inline_dv);
}

/* Appends table_root (without trailing '/') and a '/' when it is not empty. */
static dl_status
append_root(dl_buf *out, const char *table_root, dl_error *err) {
    dl_str root = dl_str_from_cstr(table_root);
    while (root.len > 0 && root.ptr[root.len - 1] == '/') {
        root.len--;
    }
    if (root.len > 0) {
        DL_TRY(dl_buf_append(out, root.ptr, root.len, err));
        DL_TRY(dl_buf_append_byte(out, '/', err));
    }
    return DL_OK;
}

static dl_status
locate_uuid(const dl_delta_dv_desc *desc, const char *table_root, dl_buf *out, dl_error *err) {
    dl_str path = desc->path_or_inline_dv;
    DL_CHECK(path.len >= DL_DELTA_Z85_UUID_LEN, err, DL_ERR_CORRUPT,
             "deletion vector " DESC_FMT ": a 'u' path needs at least 20 characters, not %zu",
             DESC_ARGS(desc), path.len);
    size_t prefix_len = path.len - DL_DELTA_Z85_UUID_LEN;
    uint8_t uuid[16];
    DL_TRY_CTX(dl_delta_z85_decode(path.ptr + prefix_len, DL_DELTA_Z85_UUID_LEN, uuid, err), err,
               "deletion vector " DESC_FMT ": its UUID", DESC_ARGS(desc));
    char text[37];
    dl_delta_uuid_format(uuid, text);
    DL_TRY(append_root(out, table_root, err));
    if (prefix_len > 0) {
        DL_TRY(dl_buf_append(out, path.ptr, prefix_len, err));
        DL_TRY(dl_buf_append_byte(out, '/', err));
    }
    DL_TRY(dl_buf_appendf(out, err, FILE_PREFIX "%s" FILE_SUFFIX, text));
    const char *rel = dl_buf_cstr(out);
    if (memchr(rel, '\0', out->len) != NULL ||
        dl_store_path_check(rel, false, "deletion vector path", NULL) != DL_OK) {
        DL_FAIL(err, DL_ERR_CORRUPT,
                "deletion vector " DESC_FMT ": the random prefix '%.*s' does not make a "
                "canonical relative path",
                DESC_ARGS(desc), (int)prefix_len, path.ptr);
    }
    return DL_OK;
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

/* The byte of the escape "%XY" at s[i], or -1 when it is malformed or encodes NUL. */
static int
escaped_byte(dl_str s, size_t i) {
    if (i + 2 >= s.len) {
        return -1;
    }
    int hi = hex_value(s.ptr[i + 1]);
    int lo = hex_value(s.ptr[i + 2]);
    return hi < 0 || lo < 0 || (hi | lo) == 0 ? -1 : hi << 4 | lo;
}

/* Appends s percent-decoded; a malformed escape or an encoded NUL is CORRUPT. */
static dl_status
append_decoded(const dl_delta_dv_desc *desc, dl_str s, dl_buf *out, dl_error *err) {
    for (size_t i = 0; i < s.len; i++) {
        size_t at = i;
        int c = (uint8_t)s.ptr[i];
        if (c == '%') {
            c = escaped_byte(s, i);
            i += 2;
        }
        if (c <= 0) {
            DL_FAIL(err, DL_ERR_CORRUPT, "deletion vector " DESC_FMT ": %s at character %zu",
                    DESC_ARGS(desc), c < 0 ? "bad percent escape" : "NUL byte", at);
        }
        DL_TRY(dl_buf_append_byte(out, (uint8_t)c, err));
    }
    return DL_OK;
}

/* The path part of a 'p' DV's URI: from its first '/' on, or an error naming the problem. */
static dl_status
uri_path(const dl_delta_dv_desc *desc, dl_str *out, dl_error *err) {
    dl_str s = desc->path_or_inline_dv;
    size_t colon = 0;
    bool is_alpha = s.len > 0 && ((s.ptr[0] | 0x20) >= 'a' && (s.ptr[0] | 0x20) <= 'z');
    while (is_alpha && colon < s.len && s.ptr[colon] != ':' && s.ptr[colon] != '/') {
        colon++;
    }
    if (!is_alpha || colon == s.len || s.ptr[colon] != ':') {
        DL_CHECK(s.len > 0 && s.ptr[0] == '/', err, DL_ERR_CORRUPT,
                 "deletion vector " DESC_FMT ": a 'p' path must be absolute", DESC_ARGS(desc));
        *out = s;
        return DL_OK;
    }
    dl_str scheme = dl_str_make(s.ptr, colon);
    DL_CHECK(dl_str_eq_nocase(scheme, DL_STR("file")), err, DL_ERR_UNSUPPORTED,
             "deletion vector " DESC_FMT ": the scheme '%.*s' is not supported (only file: paths "
             "on the local file system)",
             DESC_ARGS(desc), DL_STR_FMT(scheme));
    dl_str rest = dl_str_slice(s, colon + 1, s.len);
    if (dl_str_starts_with(rest, DL_STR("//"))) {
        dl_str after = dl_str_slice(rest, 2, rest.len);
        int64_t slash = dl_str_find_byte(after, '/');
        dl_str host = dl_str_make(after.ptr, slash < 0 ? after.len : (size_t)slash);
        DL_CHECK(host.len == 0 || dl_str_eq_nocase(host, DL_STR("localhost")), err,
                 DL_ERR_UNSUPPORTED,
                 "deletion vector " DESC_FMT ": file URIs on host '%.*s' are not supported",
                 DESC_ARGS(desc), DL_STR_FMT(host));
        rest = slash < 0 ? dl_str_make(NULL, 0) : dl_str_slice(after, (size_t)slash, after.len);
    }
    DL_CHECK(rest.len > 0 && rest.ptr[0] == '/', err, DL_ERR_CORRUPT,
             "deletion vector " DESC_FMT ": the file URI has no absolute path", DESC_ARGS(desc));
    *out = rest;
    return DL_OK;
}

static dl_status
locate_path(const dl_delta_dv_desc *desc, const dl_store *store, dl_buf *out, bool *out_is_absolute,
            dl_error *err) {
    dl_str path;
    DL_TRY(uri_path(desc, &path, err));
    DL_TRY(append_decoded(desc, path, out, err));
    const char *abs = dl_buf_cstr(out);
    /* Inside the store's root: read through the store, relative to its root. */
    dl_str loc = dl_str_from_cstr(store->location);
    while (loc.len > 0 && loc.ptr[loc.len - 1] == '/') {
        loc.len--;
    }
    size_t skip = 1; /* the leading '/' of an absolute path */
    bool is_inside = loc.len > 0 && out->len > loc.len + 1 && memcmp(abs, loc.ptr, loc.len) == 0 &&
                     abs[loc.len] == '/';
    if (is_inside) {
        skip = loc.len + 1;
    }
    DL_CHECK(dl_store_path_check(abs + skip, false, "deletion vector path", NULL) == DL_OK, err,
             DL_ERR_CORRUPT, "deletion vector " DESC_FMT ": '%s' is not a canonical absolute path",
             DESC_ARGS(desc), abs);
    if (is_inside) {
        memmove(out->data, out->data + skip, out->len - skip);
        out->len -= skip;
    }
    *out_is_absolute = !is_inside;
    return DL_OK;
}

dl_status
dl_delta_dv_desc_locate(const dl_delta_dv_desc *desc, const dl_store *store, const char *table_root,
                        dl_buf *out, bool *out_is_absolute, dl_error *err) {
    dl_buf_reset(out);
    *out_is_absolute = false;
    switch (desc->storage_type) {
    case DL_DELTA_DV_STORAGE_UUID:
        return locate_uuid(desc, table_root, out, err);
    case DL_DELTA_DV_STORAGE_PATH:
        return locate_path(desc, store, out, out_is_absolute, err);
    case DL_DELTA_DV_STORAGE_INLINE:
        DL_FAIL(err, DL_ERR_INVALID_ARG, "an inline deletion vector has no file");
    default:
        return dl_delta_dv_desc_check(desc, err);
    }
}
