/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The aggregation hash table (sql_agg_ht.c), used by the AGGREGATE operator (sql_op_agg.c):
 * groups keyed by one or more key columns, each group with one fixed-size state block holding
 * the states of every aggregate.
 *
 * Layout. Open addressing with linear probing over a power-of-two slot array; each slot keeps
 * the key's full hash and the group id, so growth never re-hashes keys and most mismatches
 * are settled without comparing values. Group ids are dense (0, 1, 2 ...): the keys of group g
 * are row g of a row collection (sql_exec.h, dl_sql_rows), its state block is at
 * states + g * stride. Slots stay at most half full.
 *
 * Finding groups for a batch: dl_sql_agg_ht_find hashes the key vectors, probes every row and
 * creates the groups that are new. A row whose key matches a group created earlier in the same
 * batch compares against that row of the batch; the new keys are appended to the collection
 * in one copy per column at the end. Keys compare with SQL grouping semantics (NULL equals
 * NULL, NaN equals NaN, -0.0 equals 0.0; dl_sql_value_equal).
 *
 * Dictionary-coded keys (a Parquet column's dictionary pages come out as DICT vectors) take a
 * shortcut: when every key vector of a batch is DICT and the product of their dictionary sizes
 * is at most DL_SQL_AGG_CODES, the dictionary indices of a row, combined, are a code; the
 * first row of each code probes the table and the others reuse its group. Equal codes mean
 * equal keys, so the answer is the same; only the probing is saved.
 */
#ifndef DL_SQL_SQL_AGG_HT_H
#define DL_SQL_SQL_AGG_HT_H

#include "sql/exec/sql_exec_int.h"

/* Most combined dictionary codes a batch may use for the shortcut above. */
#define DL_SQL_AGG_CODES 4096

typedef struct dl_sql_agg_ht {
    const dl_allocator *alloc;
    int32_t n_keys;
    uint64_t *slot_hash; /* 0 = empty; real hashes have bit 0 set */
    uint32_t *slot_gid;
    size_t cap; /* slots, a power of two */
    dl_sql_rows keys;
    uint64_t *group_hash; /* per group, for growth */
    uint8_t *states;      /* n_groups * stride bytes, 16-byte aligned blocks */
    size_t stride;
    int64_t n_groups;
    int64_t cap_groups;
    void (*init_state)(void *ctx, uint8_t *block); /* a new group's block */
    void *init_ctx;
    struct key_view *views; /* scratch: the batch's key columns, unified */
    uint32_t *code_gid;     /* scratch: DL_SQL_AGG_CODES groups by dictionary code */
} dl_sql_agg_ht;

/* An empty table for key columns of key_schema (a STRUCT, may have 0 fields: then every row is
 * group 0) and state blocks of stride bytes (a multiple of 16), initialised by init_state. */
void dl_sql_agg_ht_init(dl_sql_agg_ht *ht, const dl_allocator *alloc, const dl_type *key_schema,
                        size_t stride, void (*init_state)(void *ctx, uint8_t *block),
                        void *init_ctx);
void dl_sql_agg_ht_destroy(dl_sql_agg_ht *ht);

/*
 * The group of each of count rows of the key vectors keys[0..n_keys) into out_gids, creating
 * groups as needed. Assumes: count <= DL_BATCH_CAPACITY.
 */
DL_NODISCARD dl_status dl_sql_agg_ht_find(dl_sql_agg_ht *ht, dl_vector *const *keys, int64_t count,
                                          uint32_t *out_gids, dl_error *err);

/* The group of each of count rows of the key vectors, or UINT32_MAX for keys the table does
 * not hold; creates nothing. */
DL_NODISCARD dl_status dl_sql_agg_ht_probe(dl_sql_agg_ht *ht, dl_vector *const *keys, int64_t count,
                                           uint32_t *out_gids, dl_error *err);

/* The state block of group g. */
static inline uint8_t *
dl_sql_agg_ht_state(const dl_sql_agg_ht *ht, int64_t g) {
    return ht->states + (size_t)g * ht->stride;
}

#endif /* DL_SQL_SQL_AGG_HT_H */
