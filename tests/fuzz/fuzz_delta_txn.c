/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target for the write side's action lines (src/delta/delta_txn_json.c): what a
 * commit writes must read back, through the read side's parser, as exactly what was staged.
 *
 * The input is split at NUL bytes into: path, partition key, partition value, stats, tag key,
 * tag value (missing parts are empty). Fields that staging would refuse (invalid UTF-8, an
 * empty path, stats that are not a JSON object) end the run. Property checked:
 *   1. The add line and the remove line (extended, with the same fields) are written without
 *      error, each as one '\n'-terminated line.
 *   2. The read side parses each line as exactly one action of the right kind, with no error.
 *   3. Its path, URL-decoded, is the staged path (a file: URI decodes to its local path, so
 *      those are compared after the same canonicalisation); its partitionValues and tags
 *      objects hold exactly the staged pair; its stats string is the staged text byte for
 *      byte; size, modificationTime/deletionTimestamp and dataChange are the staged ones.
 * Runs under ASan + UBSan, so any out-of-bounds access or leak is a failure too. A violation
 * aborts, so libFuzzer records the input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "delta/delta_txn_int.h"
#include "json/json.h"

#define FUZZ_ASSERT(cond)                                                                     \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            (void)fprintf(stderr, "fuzz_delta_txn: property violated: %s (line %d)\n", #cond, \
                          __LINE__);                                                          \
            abort();                                                                          \
        }                                                                                     \
    } while (0)

/* libFuzzer's fixed entry point name. */
// NOLINTNEXTLINE(readability-identifier-naming)
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define N_PARTS 6

typedef struct fuzz_ctx {
    const dl_delta_tx_file *want;
    dl_delta_action_kind kind;
    const char *want_pv_key;
    const char *want_tag_key;
    int n_actions;
    dl_buf path;
    dl_json_doc doc;
} fuzz_ctx;

/* raw is {} (or absent) when key is NULL, else exactly {key: value} (value NULL: null). */
static bool
object_is_one_pair(fuzz_ctx *c, dl_str raw, const char *key, const char *value) {
    if (key == NULL) {
        return raw.len == 0 || dl_str_eq_cstr(raw, "{}");
    }
    if (dl_json_doc_parse(&c->doc, raw.ptr, raw.len, NULL) != DL_OK) {
        return false;
    }
    dl_json_val root = dl_json_doc_root(&c->doc);
    dl_json_iter it = dl_json_val_iter(root);
    dl_str k;
    dl_json_val v;
    if (dl_json_val_count(root) != 1 || !dl_json_iter_next(&it, &k, &v) ||
        !dl_str_eq_cstr(k, key)) {
        return false;
    }
    return value == NULL
               ? dl_json_val_is_null(v)
               : dl_json_val_type(v) == DL_JSON_STRING && dl_str_eq_cstr(dl_json_val_str(v), value);
}

static dl_status
visit(void *ctx, const dl_delta_action *a, int64_t line_no, dl_error *err) {
    (void)line_no;
    (void)err;
    fuzz_ctx *c = ctx;
    c->n_actions++;
    FUZZ_ASSERT(a->kind == c->kind);
    const dl_delta_file_action *f = &a->file;
    bool is_absolute = false;
    dl_buf_reset(&c->path);
    FUZZ_ASSERT(dl_delta_path_decode(f->path, &c->path, &is_absolute, NULL) == DL_OK);
    if (strncmp(c->want->path, "file:", 5) != 0) {
        FUZZ_ASSERT(dl_str_eq_cstr(dl_buf_view(&c->path), c->want->path));
    }
    FUZZ_ASSERT(f->size == c->want->size);
    FUZZ_ASSERT(f->data_change == c->want->data_change);
    if (a->kind == DL_DELTA_ACTION_ADD) {
        FUZZ_ASSERT(f->modification_time == c->want->time);
    } else {
        FUZZ_ASSERT(f->has_deletion_timestamp && f->deletion_timestamp == c->want->time);
        FUZZ_ASSERT(f->extended_file_metadata);
    }
    if (c->want->stats != NULL) {
        FUZZ_ASSERT(dl_str_eq_cstr(dl_json_val_str(f->stats), c->want->stats));
    } else {
        FUZZ_ASSERT(dl_json_val_is_missing(f->stats));
    }
    FUZZ_ASSERT(object_is_one_pair(c, f->partition_values, c->want_pv_key,
                                   c->want->n_pv > 0 ? c->want->pv[0].value : NULL));
    FUZZ_ASSERT(object_is_one_pair(c, f->tags, c->want_tag_key, ""));
    return DL_OK;
}

/* Splits the input at NUL bytes into up to N_PARTS NUL-terminated copies. */
static int
split(const uint8_t *data, size_t size, char *buf, const char **parts) {
    memcpy(buf, data, size);
    buf[size] = '\0';
    int n = 0;
    parts[n++] = buf;
    for (size_t i = 0; i < size && n < N_PARTS; i++) {
        if (buf[i] == '\0') {
            parts[n++] = buf + i + 1;
        }
    }
    for (int i = n; i < N_PARTS; i++) {
        parts[i] = "";
    }
    return n;
}

static bool
is_stats_object(const char *s, dl_json_doc *doc) {
    return dl_json_doc_parse(doc, s, strlen(s), NULL) == DL_OK &&
           dl_json_val_type(dl_json_doc_root(doc)) == DL_JSON_OBJECT;
}

static void
check_line(fuzz_ctx *c, dl_buf *line, dl_delta_action_kind kind) {
    FUZZ_ASSERT(line->len > 0 && line->data[line->len - 1] == '\n');
    FUZZ_ASSERT(memchr(line->data, '\n', line->len - 1) == NULL);
    c->kind = kind;
    c->n_actions = 0;
    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_error err;
    dl_status s = dl_delta_actions_parse_text((const char *)line->data, line->len, &doc, &arena,
                                              visit, c, &err);
    if (s != DL_OK) {
        (void)fprintf(stderr, "fuzz_delta_txn: %s\n", err.msg);
    }
    FUZZ_ASSERT(s == DL_OK);
    FUZZ_ASSERT(c->n_actions == 1);
    dl_arena_destroy(&arena);
    dl_json_doc_destroy(&doc);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 4096) {
        return 0;
    }
    char buf[4097];
    const char *parts[N_PARTS];
    (void)split(data, size, buf, parts);
    for (int i = 0; i < N_PARTS; i++) {
        if (!dl_utf8_valid(parts[i], strlen(parts[i]))) {
            return 0;
        }
    }
    fuzz_ctx c = {0};
    dl_buf_init(&c.path, NULL);
    dl_json_doc_init(&c.doc, NULL);
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_delta_kv pv = {.key = parts[1], .value = parts[2][0] != '\0' ? parts[2] : NULL};
    dl_delta_kv tag = {.key = parts[4], .value = ""};
    bool has_pv = parts[1][0] != '\0';
    bool has_tag = parts[4][0] != '\0';
    dl_delta_tx_file f = {.path = parts[0],
                          .pv = has_pv ? &pv : NULL,
                          .n_pv = has_pv ? 1 : 0,
                          .size = (int64_t)size,
                          .has_time = true,
                          .time = 1700000000000 + (int64_t)size,
                          .data_change = (size & 1) != 0,
                          .is_extended = true,
                          .stats = is_stats_object(parts[3], &c.doc) ? parts[3] : NULL};
    dl_buf line;
    dl_buf_init(&line, NULL);
    if (parts[0][0] != '\0' &&
        dl_delta_kv_to_json(&pv, has_pv ? 1 : 0, &arena, &f.pv_json, NULL) == DL_OK &&
        (!has_tag || dl_delta_kv_to_json(&tag, 1, &arena, &f.tags_json, NULL) == DL_OK)) {
        c.want = &f;
        c.want_pv_key = has_pv ? pv.key : NULL;
        c.want_tag_key = has_tag ? tag.key : NULL;
        FUZZ_ASSERT(dl_delta_json_add_line(&line, &f, NULL) == DL_OK);
        check_line(&c, &line, DL_DELTA_ACTION_ADD);
        dl_buf_reset(&line);
        FUZZ_ASSERT(dl_delta_json_remove_line(&line, &f, 0, NULL) == DL_OK);
        check_line(&c, &line, DL_DELTA_ACTION_REMOVE);
    }
    dl_buf_destroy(&line);
    dl_arena_destroy(&arena);
    dl_json_doc_destroy(&c.doc);
    dl_buf_destroy(&c.path);
    return 0;
}
