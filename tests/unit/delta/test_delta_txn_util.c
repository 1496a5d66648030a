/* SPDX-License-Identifier: Apache-2.0 */
#include "test_delta_txn_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/json.h"

dl_delta_schema
tw_schema(dl_arena *arena, const char *json) {
    dl_delta_schema schema;
    dl_error err;
    if (dl_delta_schema_parse(dl_str_from_cstr(json), arena, &schema, &err) != DL_OK) {
        printf("tw_schema: %s\n", err.msg);
        abort(); /* a broken literal in a test */
    }
    return schema;
}

bool
tw_volatile(tl_table *t) {
    dl_delta_table_free(t->table);
    dl_store_free(t->store);
    t->table = NULL;
    t->store = NULL;
    dl_store_local_options opts = {.is_volatile = true};
    return dl_store_local_new(t->dir, &opts, &t->store, NULL) == DL_OK &&
           dl_delta_table_open(t->store, "", NULL, &t->table, NULL) == DL_OK;
}

dl_status
tw_create(tl_table *t, const char *schema_json, const char *const *parts, int32_t n_parts,
          const dl_delta_kv *conf, int32_t n_conf, dl_delta_commit_result *out_res, dl_error *err) {
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_delta_schema schema = tw_schema(&arena, schema_json);
    dl_delta_create_spec spec = {.schema = &schema,
                                 .partition_columns = parts,
                                 .n_partition_columns = n_parts,
                                 .configuration = conf,
                                 .n_configuration = n_conf};
    dl_delta_tx *tx = NULL;
    dl_status s = dl_delta_tx_begin(t->table, NULL, NULL, &tx, err);
    if (s == DL_OK) {
        s = dl_delta_tx_create_table(tx, &spec, err);
    }
    if (s == DL_OK) {
        s = dl_delta_tx_commit(tx, out_res, err);
    }
    dl_delta_tx_free(tx);
    dl_arena_destroy(&arena);
    return s;
}

dl_delta_snapshot *
tw_latest(tl_table *t, dl_error *err) {
    dl_delta_snapshot *snap = NULL;
    if (dl_delta_snapshot_latest(t->table, NULL, &snap, err) != DL_OK) {
        return NULL;
    }
    return snap;
}

dl_status
tw_append(tl_table *t, const char *path, const dl_delta_kv *pv, int32_t n_pv, int64_t rows,
          const dl_delta_tx_options *opts, dl_delta_commit_result *out_res, dl_error *err) {
    dl_delta_snapshot *snap = tw_latest(t, err);
    if (snap == NULL) {
        return err->code;
    }
    char stats[128];
    (void)snprintf(stats, sizeof(stats),
                   "{\"numRecords\":%lld,\"minValues\":{\"id\":0},\"maxValues\":{\"id\":%lld},"
                   "\"nullCount\":{\"id\":0}}",
                   (long long)rows, (long long)(rows > 0 ? rows - 1 : 0));
    dl_delta_add_file add = {.path = path,
                             .partition_values = pv,
                             .n_partition_values = n_pv,
                             .size = 100 + rows,
                             .modification_time = 1700000000000,
                             .data_change = true,
                             .stats = stats};
    dl_delta_tx *tx = NULL;
    dl_status s = dl_delta_tx_begin(t->table, snap, opts, &tx, err);
    if (s == DL_OK) {
        s = dl_delta_tx_add(tx, &add, err);
    }
    if (s == DL_OK) {
        s = dl_delta_tx_metric(tx, "numFiles", 1, err);
    }
    if (s == DL_OK) {
        s = dl_delta_tx_param_string(tx, "mode", "Append", err);
    }
    if (s == DL_OK) {
        s = dl_delta_tx_commit(tx, out_res, err);
    }
    dl_delta_tx_free(tx);
    dl_delta_snapshot_unref(snap);
    return s;
}

bool
tw_read_log_file(tl_table *t, const char *name, char *buf, size_t cap) {
    char p[512];
    (void)snprintf(p, sizeof(p), "%s/_delta_log/%s", t->dir, name);
    FILE *f = fopen(p, "rb");
    if (f == NULL) {
        return false;
    }
    size_t n = fread(buf, 1, cap - 1, f);
    buf[n] = '\0';
    return fclose(f) == 0;
}

int
tw_count_actions(tl_table *t, int64_t version, const char *action) {
    char name[64];
    (void)snprintf(name, sizeof(name), "%020lld.json", (long long)version);
    static char text[1 << 20];
    if (!tw_read_log_file(t, name, text, sizeof(text))) {
        return -1;
    }
    char needle[64];
    (void)snprintf(needle, sizeof(needle), "{\"%s\":", action);
    int n = 0;
    for (const char *line = text; *line;) {
        if (strncmp(line, needle, strlen(needle)) == 0) {
            n++;
        }
        const char *nl = strchr(line, '\n');
        line = nl != NULL ? nl + 1 : line + strlen(line);
    }
    return n;
}

const dl_delta_file *
tw_file_named(const dl_delta_snapshot *snap, const char *path) {
    for (size_t i = 0; i < dl_delta_snapshot_file_count(snap); i++) {
        if (dl_str_eq_cstr(dl_delta_snapshot_file(snap, i)->path, path)) {
            return dl_delta_snapshot_file(snap, i);
        }
    }
    return NULL;
}
