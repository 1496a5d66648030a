/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Helpers for the transaction-log tests: hand-written logs in temporary folders. A test makes
 * a table folder with tl_table_new, writes commit files (one string per file, lines joined by
 * '\n'), opens it with tl_open and removes it with tl_table_free.
 */
#ifndef DL_TESTS_DELTA_LOG_UTIL_H
#define DL_TESTS_DELTA_LOG_UTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "delta/delta.h"

/* A temporary table folder with an empty _delta_log/. */
typedef struct tl_table {
    char dir[256];
    dl_store *store;
    dl_delta_table *table;
} tl_table;

/* Creates the folder; false on failure. */
bool tl_table_new(tl_table *t);

/* Writes _delta_log/<name> with text. */
bool tl_write(tl_table *t, const char *name, const char *text);

/* Writes the commit file of version with text. */
bool tl_commit(tl_table *t, int64_t version, const char *text);

/* Sets the modification time of _delta_log/<name> in ms. */
bool tl_set_mtime(tl_table *t, const char *name, int64_t ms);

/* Removes _delta_log/<name>. */
bool tl_remove(tl_table *t, const char *name);

/* Opens (or reopens) the store and table on the folder. */
bool tl_open(tl_table *t);

/* Closes the table and deletes the folder. */
void tl_table_free(tl_table *t);

/* A protocol line and a metaData line with the given schema fields JSON (the inside of
 * "fields":[...], with quotes escaped for the schemaString) and partition columns JSON array. */
#define TL_PROTOCOL_1_2 "{\"protocol\":{\"minReaderVersion\":1,\"minWriterVersion\":2}}"
#define TL_SCHEMA_ID_LONG                                                                 \
    "{\\\"type\\\":\\\"struct\\\",\\\"fields\\\":[{\\\"name\\\":\\\"id\\\",\\\"type\\\":" \
    "\\\"long\\\",\\\"nullable\\\":true,\\\"metadata\\\":{}}]}"
#define TL_METADATA(schema, parts, conf)                                                 \
    "{\"metaData\":{\"id\":\"t1\",\"format\":{\"provider\":\"parquet\",\"options\":{}}," \
    "\"schemaString\":\"" schema "\",\"partitionColumns\":" parts ",\"configuration\":" conf "}}"
#define TL_METADATA_ID_LONG TL_METADATA(TL_SCHEMA_ID_LONG, "[]", "{}")
#define TL_ADD(path)                                                      \
    "{\"add\":{\"path\":\"" path "\",\"partitionValues\":{},\"size\":10," \
    "\"modificationTime\":1,\"dataChange\":true,\"stats\":\"{\\\"numRecords\\\":5}\"}}"
#define TL_REMOVE(path) \
    "{\"remove\":{\"path\":\"" path "\",\"deletionTimestamp\":2,\"dataChange\":true}}"

#endif /* DL_TESTS_DELTA_LOG_UTIL_H */
