/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Navigating a parsed document: types, lookups, iteration, typed getters, equality, and the
 * NDJSON line splitter. Everything here reads the tape described in json_int.h and allocates
 * nothing.
 */
#include <inttypes.h>
#include <stdio.h>

#include "json/json_int.h"

static inline const dl_json_node *
node_of(dl_json_val v) {
    return &v.doc->nodes[v.idx];
}

static inline dl_json_val
val_at(const dl_json_doc *doc, uint32_t idx) {
    dl_json_val v = {.doc = doc, .idx = idx};
    return v;
}

static const dl_json_val missing_val = {.doc = NULL, .idx = 0};

dl_json_type
dl_json_val_type(dl_json_val v) {
    return v.doc == NULL ? DL_JSON_MISSING : (dl_json_type)node_of(v)->type;
}

const char *
dl_json_type_name(dl_json_type type) {
    switch (type) {
    case DL_JSON_NULL:
        return "null";
    case DL_JSON_BOOL:
        return "boolean";
    case DL_JSON_NUMBER:
        return "number";
    case DL_JSON_STRING:
        return "string";
    case DL_JSON_ARRAY:
        return "array";
    case DL_JSON_OBJECT:
        return "object";
    case DL_JSON_MISSING:
    default:
        return "missing value";
    }
}

bool
dl_json_val_is_null(dl_json_val v) {
    return dl_json_val_type(v) == DL_JSON_NULL;
}

dl_json_num_kind
dl_json_val_num_kind(dl_json_val v) {
    if (dl_json_val_type(v) != DL_JSON_NUMBER) {
        return DL_JSON_NUM_NONE;
    }
    return (dl_json_num_kind)node_of(v)->kind;
}

uint32_t
dl_json_val_count(dl_json_val v) {
    dl_json_type t = dl_json_val_type(v);
    return t == DL_JSON_ARRAY || t == DL_JSON_OBJECT ? node_of(v)->len : 0;
}

int64_t
dl_json_val_offset(dl_json_val v) {
    return v.doc == NULL ? -1 : (int64_t)node_of(v)->off;
}

dl_str
dl_json_val_raw(dl_json_val v) {
    if (v.doc == NULL) {
        return dl_str_make(NULL, 0);
    }
    const dl_json_node *n = node_of(v);
    return dl_str_make(v.doc->text + n->off, n->raw_len);
}

dl_json_val
dl_json_obj_get_str(dl_json_val obj, dl_str key) {
    if (dl_json_val_type(obj) != DL_JSON_OBJECT) {
        return missing_val;
    }
    const dl_json_doc *doc = obj.doc;
    const dl_json_node *nodes = doc->nodes;
    uint32_t count = nodes[obj.idx].len;
    uint32_t idx = obj.idx + 1;
    dl_json_val found = missing_val;
    for (uint32_t i = 0; i < count; i++) {
        const dl_json_node *k = &nodes[idx];
        if (k->len == key.len) {
            dl_str ks = dl_json_node_str(doc, k);
            if (key.len == 0 || memcmp(ks.ptr, key.ptr, key.len) == 0) {
                found = val_at(doc, idx + 1); /* keep looking: the last duplicate wins */
            }
        }
        idx = dl_json_node_skip(nodes, idx + 1);
    }
    return found;
}

dl_json_val
dl_json_obj_get(dl_json_val obj, const char *key) {
    return dl_json_obj_get_str(obj, dl_str_from_cstr(key));
}

dl_json_val
dl_json_arr_at(dl_json_val arr, uint32_t i) {
    if (dl_json_val_type(arr) != DL_JSON_ARRAY || i >= node_of(arr)->len) {
        return missing_val;
    }
    const dl_json_node *nodes = arr.doc->nodes;
    uint32_t idx = arr.idx + 1;
    for (uint32_t k = 0; k < i; k++) {
        idx = dl_json_node_skip(nodes, idx);
    }
    return val_at(arr.doc, idx);
}

dl_json_iter
dl_json_val_iter(dl_json_val v) {
    dl_json_iter it = {.doc = v.doc, .idx = 0, .remaining = 0, .is_object = false};
    dl_json_type t = dl_json_val_type(v);
    if (t == DL_JSON_ARRAY || t == DL_JSON_OBJECT) {
        it.idx = v.idx + 1;
        it.remaining = node_of(v)->len;
        it.is_object = t == DL_JSON_OBJECT;
    }
    return it;
}

bool
dl_json_iter_next(dl_json_iter *it, dl_str *out_key, dl_json_val *out_val) {
    if (it->remaining == 0) {
        return false;
    }
    const dl_json_node *nodes = it->doc->nodes;
    uint32_t idx = it->idx;
    dl_str key = dl_str_make(NULL, 0);
    if (it->is_object) {
        key = dl_json_node_str(it->doc, &nodes[idx]);
        idx++;
    }
    if (out_key != NULL) {
        *out_key = key;
    }
    *out_val = val_at(it->doc, idx);
    it->idx = dl_json_node_skip(nodes, idx);
    it->remaining--;
    return true;
}

dl_str
dl_json_val_str(dl_json_val v) {
    if (dl_json_val_type(v) != DL_JSON_STRING) {
        return dl_str_make(NULL, 0);
    }
    return dl_json_node_str(v.doc, node_of(v));
}

/* ---- typed getters ------------------------------------------------------------------------ */

/* Describes v for messages: its type with an article, or for a number its text (cut at 40
 * bytes). */
static void
describe_val(dl_json_val v, char *buf, size_t cap) {
    int n;
    dl_json_type t = dl_json_val_type(v);
    if (t == DL_JSON_NUMBER) {
        dl_str raw = dl_json_val_raw(v);
        n = snprintf(buf, cap, "the number %.*s%s", (int)DL_MIN(raw.len, 40u), raw.ptr,
                     raw.len > 40 ? "..." : "");
    } else {
        const char *article = t == DL_JSON_NULL ? "" : t >= DL_JSON_ARRAY ? "an " : "a ";
        n = snprintf(buf, cap, "%s%s", article, dl_json_type_name(t));
    }
    if (n < 0) {
        buf[0] = '\0';
    }
}

/* Fails for a value that is missing or is not what the getter wanted. */
static dl_status
mismatch(dl_json_val v, const char *wanted, dl_error *err) {
    if (v.doc == NULL) {
        DL_FAIL(err, DL_ERR_NOT_FOUND, "JSON value is missing (expected %s)", wanted);
    }
    char what[80];
    describe_val(v, what, sizeof(what));
    uint32_t off = node_of(v)->off;
    DL_ERROR_WHERE(err);
    (void)dl_error_set(err, DL_ERR_CORRUPT, "JSON at byte %" PRIu32 ": expected %s, found %s", off,
                       wanted, what);
    if (err != NULL) {
        err->offset = off;
    }
    return DL_ERR_CORRUPT;
}

dl_status
dl_json_val_get_str(dl_json_val v, dl_str *out, dl_error *err) {
    if (dl_json_val_type(v) != DL_JSON_STRING) {
        return mismatch(v, "a string", err);
    }
    *out = dl_json_node_str(v.doc, node_of(v));
    return DL_OK;
}

dl_status
dl_json_val_get_int64(dl_json_val v, int64_t *out, dl_error *err) {
    if (dl_json_val_num_kind(v) != DL_JSON_NUM_INT64) {
        return mismatch(v, "an integer in the int64 range", err);
    }
    *out = node_of(v)->v.i;
    return DL_OK;
}

dl_status
dl_json_val_get_uint64(dl_json_val v, uint64_t *out, dl_error *err) {
    dl_json_num_kind kind = dl_json_val_num_kind(v);
    if (kind == DL_JSON_NUM_UINT64) {
        *out = node_of(v)->v.u;
        return DL_OK;
    }
    if (kind == DL_JSON_NUM_INT64 && node_of(v)->v.i >= 0) {
        *out = (uint64_t)node_of(v)->v.i;
        return DL_OK;
    }
    return mismatch(v, "a non-negative integer in the uint64 range", err);
}

dl_status
dl_json_val_get_double(dl_json_val v, double *out, dl_error *err) {
    const dl_json_node *n;
    switch (dl_json_val_num_kind(v)) {
    case DL_JSON_NUM_INT64:
        *out = (double)node_of(v)->v.i;
        return DL_OK;
    case DL_JSON_NUM_UINT64:
        *out = (double)node_of(v)->v.u;
        return DL_OK;
    case DL_JSON_NUM_DOUBLE:
    case DL_JSON_NUM_BIGINT:
        n = node_of(v);
        *out = n->v.d;
        return DL_OK;
    case DL_JSON_NUM_NONE:
    default:
        return mismatch(v, "a number", err);
    }
}

dl_status
dl_json_val_get_bool(dl_json_val v, bool *out, dl_error *err) {
    if (dl_json_val_type(v) != DL_JSON_BOOL) {
        return mismatch(v, "a boolean", err);
    }
    *out = node_of(v)->is_true != 0;
    return DL_OK;
}

/* ---- equality ----------------------------------------------------------------------------- */

/* The 64 bits of a number node's value (doubles bit for bit, so -0.0 != 0.0). */
static uint64_t
number_bits(const dl_json_node *n) {
    uint64_t bits;
    if (n->kind == DL_JSON_NUM_DOUBLE) {
        memcpy(&bits, &n->v.d, sizeof(bits));
    } else {
        bits = n->v.u;
    }
    return bits;
}

static bool
nodes_equal(const dl_json_doc *da, const dl_json_node *a, const dl_json_doc *db,
            const dl_json_node *b) {
    if (a->type != b->type) {
        return false;
    }
    switch ((dl_json_type)a->type) {
    case DL_JSON_BOOL:
        return a->is_true == b->is_true;
    case DL_JSON_NUMBER:
        if (a->kind != b->kind) {
            return false;
        }
        if (a->kind == DL_JSON_NUM_BIGINT) {
            return dl_str_eq(dl_str_make(da->text + a->off, a->raw_len),
                             dl_str_make(db->text + b->off, b->raw_len));
        }
        return number_bits(a) == number_bits(b);
    case DL_JSON_STRING:
        return dl_str_eq(dl_json_node_str(da, a), dl_json_node_str(db, b));
    case DL_JSON_ARRAY:
    case DL_JSON_OBJECT:
        return a->len == b->len &&
               a->v.next - (uint32_t)(a - da->nodes) == b->v.next - (uint32_t)(b - db->nodes);
    case DL_JSON_NULL:
    case DL_JSON_MISSING:
    default:
        return true;
    }
}

bool
dl_json_val_equal(dl_json_val a, dl_json_val b) {
    if (a.doc == NULL || b.doc == NULL) {
        return a.doc == NULL && b.doc == NULL;
    }
    /* Pre-order with child counts and subtree sizes determines the tree: compare the two
     * node sequences (see json_int.h). */
    uint32_t a_end = dl_json_node_skip(a.doc->nodes, a.idx);
    uint32_t b_end = dl_json_node_skip(b.doc->nodes, b.idx);
    if (a_end - a.idx != b_end - b.idx) {
        return false;
    }
    for (uint32_t i = 0; i < a_end - a.idx; i++) {
        if (!nodes_equal(a.doc, &a.doc->nodes[a.idx + i], b.doc, &b.doc->nodes[b.idx + i])) {
            return false;
        }
    }
    return true;
}

/* ---- NDJSON lines ------------------------------------------------------------------------- */

void
dl_json_lines_init(dl_json_lines *it, const char *data, size_t len) {
    it->base = data != NULL ? data : "";
    it->pos = it->base;
    it->end = it->base + len;
    it->line_no = 0;
    it->offset = 0;
}

bool
dl_json_lines_next(dl_json_lines *it, dl_str *out_line) {
    if (it->pos >= it->end) {
        return false;
    }
    const char *start = it->pos;
    const char *nl = memchr(start, '\n', (size_t)(it->end - start));
    const char *stop = nl != NULL ? nl : it->end;
    it->pos = nl != NULL ? nl + 1 : it->end;
    if (stop > start && stop[-1] == '\r') {
        stop--;
    }
    it->line_no++;
    it->offset = (size_t)(start - it->base);
    *out_line = dl_str_make(start, (size_t)(stop - start));
    return true;
}
