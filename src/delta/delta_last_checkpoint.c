/* SPDX-License-Identifier: Apache-2.0 */
/*
 * _last_checkpoint and its checksum (PROTOCOL.md, "Last Checkpoint File", "Last Checkpoint
 * File Schema", "JSON checksum", "How to URL encode keys and string values").
 *
 * _last_checkpoint is a JSON object naming the newest checkpoint: version (required), size,
 * parts, sizeInBytes, numOfAddFiles, checkpointSchema, and checksum, the MD5 (32 lowercase hex
 * digits) of the object's canonical form without the top-level checksum key. The canonical
 * form flattens the JSON to one pair per scalar leaf, `path=value`:
 *
 *   - a path is the names from the root to the leaf joined by '+': object keys as quoted,
 *     URL-encoded strings ("k1"), array positions as decimal numbers (0, 1, ...);
 *   - a value is its literal for true, false, null and numbers (the number's own text), and a
 *     quoted URL-encoded string for strings ("hello%20world");
 *   - the pairs are sorted by the bytes of their paths and joined by ',';
 *   - URL encoding keeps a-z, A-Z, 0-9, '-', '.', '_', '~' and writes every other byte of the
 *     UTF-8 text as %XX in uppercase hex;
 *   - empty objects and arrays have no leaves and contribute nothing;
 *   - duplicate keys make the JSON invalid.
 *
 * The file is only a hint of where to start listing the log. A reader that finds it missing,
 * unparsable, without a version, with duplicate keys, or with a checksum that does not match
 * ignores it and lists the whole log, as Spark does; a file without a checksum is trusted
 * (older writers do not write one). Writers write the checksum (delta_checkpoint_write.c).
 */
#include <stdio.h>
#include <string.h>

#include "base/digest.h"
#include "delta/delta_int.h"

void
dl_delta_md5_hex(const void *data, size_t len, char out[33]) {
    uint8_t digest[16];
    dl_digest_hex(digest, dl_digest_md5(data, len, digest), out);
    out[32] = '\0';
}

/* ---- canonical form ----------------------------------------------------------------- */

/* One leaf: its path and value, as offsets into canon.text. */
typedef struct canon_pair {
    size_t path_at;
    size_t path_len;
    size_t value_at;
    size_t value_len;
} canon_pair;

typedef struct canon {
    dl_buf path;  /* the path of the value being visited */
    dl_buf text;  /* every pair's path then value, back to back */
    dl_buf pairs; /* canon_pair entries */
} canon;

static bool
is_unreserved(uint8_t c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '.' || c == '_' || c == '~';
}

/* Appends s quoted and URL-encoded. */
static dl_status
append_quoted(dl_buf *out, dl_str s, dl_error *err) {
    static const char hex[] = "0123456789ABCDEF";
    DL_TRY(dl_buf_append_byte(out, '"', err));
    for (size_t i = 0; i < s.len; i++) {
        uint8_t c = (uint8_t)s.ptr[i];
        if (is_unreserved(c)) {
            DL_TRY(dl_buf_append_byte(out, c, err));
        } else {
            char esc[3] = {'%', hex[c >> 4], hex[c & 15]};
            DL_TRY(dl_buf_append(out, esc, sizeof(esc), err));
        }
    }
    return dl_buf_append_byte(out, '"', err);
}

static dl_status
add_leaf(canon *c, dl_json_val v, dl_error *err) {
    canon_pair p = {.path_at = c->text.len, .path_len = c->path.len};
    DL_TRY(dl_buf_append(&c->text, c->path.data, c->path.len, err));
    p.value_at = c->text.len;
    if (dl_json_val_type(v) == DL_JSON_STRING) {
        DL_TRY(append_quoted(&c->text, dl_json_val_str(v), err));
    } else {
        dl_str raw = dl_json_val_raw(v);
        DL_TRY(dl_buf_append(&c->text, raw.ptr, raw.len, err));
    }
    p.value_len = c->text.len - p.value_at;
    return dl_buf_append(&c->pairs, &p, sizeof(p), err);
}

/* Whether one of the first n members of object v has key. */
static bool
has_key_before(dl_json_val v, uint32_t n, dl_str key) {
    dl_json_iter it = dl_json_val_iter(v);
    dl_str other;
    dl_json_val member;
    for (uint32_t k = 0; k < n && dl_json_iter_next(&it, &other, &member); k++) {
        if (dl_str_eq(key, other)) {
            return true;
        }
    }
    return false;
}

/* Fails when object v has a key twice. */
static dl_status
check_unique_keys(dl_json_val v, dl_error *err) {
    dl_json_iter it = dl_json_val_iter(v);
    dl_str key;
    dl_json_val member;
    for (uint32_t i = 0; dl_json_iter_next(&it, &key, &member); i++) {
        DL_CHECK(!has_key_before(v, i, key), err, DL_ERR_CORRUPT, "key \"%.*s\" appears twice",
                 DL_STR_FMT(key));
    }
    return DL_OK;
}

static dl_status walk(canon *c, dl_json_val v, bool is_root, dl_error *err);

/* Visits one member or element, with its path segment appended to the path. */
static dl_status
walk_child(canon *c, dl_json_val v, dl_str key, int64_t index, dl_error *err) {
    size_t mark = c->path.len;
    if (mark > 0) {
        DL_TRY(dl_buf_append_byte(&c->path, '+', err));
    }
    if (index < 0) {
        DL_TRY(append_quoted(&c->path, key, err));
    } else {
        DL_TRY(dl_buf_appendf(&c->path, err, "%lld", (long long)index));
    }
    DL_TRY(walk(c, v, false, err));
    c->path.len = mark;
    return DL_OK;
}

static dl_status
walk(canon *c, dl_json_val v, bool is_root, dl_error *err) {
    dl_json_type t = dl_json_val_type(v);
    if (t != DL_JSON_OBJECT && t != DL_JSON_ARRAY) {
        return add_leaf(c, v, err);
    }
    if (t == DL_JSON_OBJECT) {
        DL_TRY(check_unique_keys(v, err));
    }
    dl_json_iter it = dl_json_val_iter(v);
    dl_str key;
    dl_json_val member;
    int64_t index = 0;
    while (dl_json_iter_next(&it, &key, &member)) {
        if (t == DL_JSON_OBJECT && is_root && dl_str_eq_cstr(key, "checksum")) {
            continue;
        }
        DL_TRY(walk_child(c, member, key, t == DL_JSON_ARRAY ? index : -1, err));
        index++;
    }
    return DL_OK;
}

/* Byte order of paths (a shorter path first when it is a prefix of the other). */
static int
cmp_pair(const canon_pair *a, const canon_pair *b, const char *text) {
    size_t n = a->path_len < b->path_len ? a->path_len : b->path_len;
    int c = memcmp(text + a->path_at, text + b->path_at, n);
    if (c != 0) {
        return c;
    }
    return (a->path_len > b->path_len) - (a->path_len < b->path_len);
}

/* Insertion sort: _last_checkpoint has tens to a few hundred leaves, and qsort has no
 * context argument for the text the pairs point into. */
static void
sort_pairs(canon_pair *p, size_t n, const char *text) {
    for (size_t i = 1; i < n; i++) {
        canon_pair x = p[i];
        size_t j = i;
        while (j > 0 && cmp_pair(&p[j - 1], &x, text) > 0) {
            p[j] = p[j - 1];
            j--;
        }
        p[j] = x;
    }
}

static dl_status
canonical(canon *c, dl_json_val root, dl_buf *out, dl_error *err) {
    DL_TRY(walk(c, root, true, err));
    size_t n = c->pairs.len / sizeof(canon_pair);
    canon_pair *pairs = (canon_pair *)(void *)c->pairs.data;
    const char *text = (const char *)c->text.data;
    if (n > 1) {
        sort_pairs(pairs, n, text);
    }
    for (size_t i = 0; i < n; i++) {
        if (i > 0) {
            DL_TRY(dl_buf_append_byte(out, ',', err));
        }
        DL_TRY(dl_buf_append(out, text + pairs[i].path_at, pairs[i].path_len, err));
        DL_TRY(dl_buf_append_byte(out, '=', err));
        DL_TRY(dl_buf_append(out, text + pairs[i].value_at, pairs[i].value_len, err));
    }
    return DL_OK;
}

dl_status
dl_delta_json_canonical(dl_json_val root, const dl_allocator *alloc, dl_buf *out, dl_error *err) {
    canon c;
    dl_buf_init(&c.path, alloc);
    dl_buf_init(&c.text, alloc);
    dl_buf_init(&c.pairs, alloc);
    dl_status st = canonical(&c, root, out, err);
    dl_buf_destroy(&c.pairs);
    dl_buf_destroy(&c.text);
    dl_buf_destroy(&c.path);
    return st;
}

dl_status
dl_delta_json_checksum(const char *json, size_t len, const dl_allocator *alloc, char out[33],
                       dl_error *err) {
    dl_json_doc doc;
    dl_json_doc_init(&doc, alloc);
    dl_buf text;
    dl_buf_init(&text, alloc);
    dl_status st = dl_json_doc_parse(&doc, json, len, err);
    if (st == DL_OK) {
        st = dl_delta_json_canonical(dl_json_doc_root(&doc), alloc, &text, err);
    }
    if (st == DL_OK) {
        dl_delta_md5_hex(text.data, text.len, out);
    }
    dl_buf_destroy(&text);
    dl_json_doc_destroy(&doc);
    return st;
}

/* ---- writing ------------------------------------------------------------------------ */

dl_status
dl_delta_last_checkpoint_add_checksum(dl_buf *json, dl_error *err) {
    size_t end = json->len;
    while (end > 0 && json->data[end - 1] != '}') {
        end--;
    }
    DL_CHECK(end > 1, err, DL_ERR_INVALID_ARG, "_last_checkpoint: not a JSON object");
    char sum[33];
    DL_TRY(dl_delta_json_checksum((const char *)json->data, json->len, json->alloc, sum, err));
    json->len = end - 1;
    return dl_buf_appendf(json, err, ",\"checksum\":\"%s\"}", sum);
}

/* ---- reading ------------------------------------------------------------------------ */

/* Whether root's checksum, when it has one, matches its canonical form. */
static dl_status
checksum_ok(dl_json_val root, const dl_allocator *alloc, bool *out_ok, dl_error *err) {
    *out_ok = true;
    dl_json_val sum = dl_json_obj_get(root, "checksum");
    if (dl_json_val_is_missing(sum)) {
        return DL_OK;
    }
    dl_buf text;
    dl_buf_init(&text, alloc);
    dl_error bad;
    dl_error_clear(&bad);
    dl_status st = dl_delta_json_canonical(root, alloc, &text, &bad);
    if (st == DL_OK) {
        char want[33];
        dl_delta_md5_hex(text.data, text.len, want);
        dl_str got = dl_json_val_str(sum);
        *out_ok = dl_json_val_type(sum) == DL_JSON_STRING && got.len == 32 &&
                  dl_str_eq_nocase(got, dl_str_make(want, 32));
    } else {
        *out_ok = false; /* duplicate keys */
    }
    dl_buf_destroy(&text);
    if (st == DL_ERR_NOMEM) {
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory checking _last_checkpoint");
    }
    return DL_OK;
}

dl_status
dl_delta_last_checkpoint_version(dl_delta_table *table, int64_t *out, dl_error *err) {
    *out = -1;
    dl_buf path;
    dl_buf_init(&path, table->alloc);
    dl_buf buf;
    dl_buf_init(&buf, table->alloc);
    dl_json_doc doc;
    dl_json_doc_init(&doc, table->alloc);
    dl_error ignored;
    dl_error_clear(&ignored);
    dl_status st = dl_buf_appendf(&path, &ignored, "%s_last_checkpoint", table->log_dir);
    if (st == DL_OK) {
        st = dl_store_read_all(table->store, dl_buf_cstr(&path), &buf, &ignored);
    }
    if (st == DL_OK) {
        st = dl_json_doc_parse(&doc, (const char *)buf.data, buf.len, &ignored);
    }
    int64_t v;
    bool is_ok = false;
    dl_json_val root = dl_json_doc_root(&doc);
    if (st == DL_OK) {
        st = checksum_ok(root, table->alloc, &is_ok, &ignored);
    }
    if (st == DL_OK && is_ok &&
        dl_json_val_get_int64(dl_json_obj_get(root, "version"), &v, &ignored) == DL_OK && v >= 0) {
        *out = v;
    }
    dl_json_doc_destroy(&doc);
    dl_buf_destroy(&buf);
    dl_buf_destroy(&path);
    if (st == DL_ERR_NOMEM) {
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory reading %s_last_checkpoint", table->log_dir);
    }
    return DL_OK;
}
