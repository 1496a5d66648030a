/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Private to the hash join (sql_op_join*.c): the build side's rows and hash table, and the
 * per-thread probe state.
 *
 * ---- The build side ----
 *
 * The right child is drained in parallel into per-thread parts: long FLAT vectors (a
 * dl_sql_colbuf: its columns, then the values of key expressions that are not plain column
 * references) and row hashes (dl_sql_hash_vec over the keys). The largest part becomes the
 * build side as it is; the others are appended to it column by column, one task per column
 * on the pool. Join outputs are DICT vectors over these vectors, so build values are never
 * copied again.
 *
 * The table groups build rows by key: open addressing with linear probing over 64-bit slots
 *
 *   bits 33..63  31 bits of the key's hash (a salt: most non-matches never touch the keys)
 *   bit 32       the group has more than one row
 *   bits 0..31   first row of the group + 1 (0: empty slot)
 *
 * and next[row] chains the other rows of a group (row + 1, 0 at the end), in row order. With a
 * single
 * integer key (the common foreign-key join) each slot word is followed by the key widened to
 * 64 bits, so a probe reads one cache line and never touches the build columns. Finding a key's
 * group compares keys once; the group's rows then all match on keys. Rows with a NULL in a
 * key that is not null-safe (<=>) never match and are not inserted; they are listed in
 * null_rows.
 *
 * A single integer key whose values span few more values than the build side has rows (the
 * common dense id) gets a direct table instead: one 32-bit word per value between the
 * smallest and the largest key, the group's first row + 1 with bit 31 set when the group has
 * more rows (build sides of fewer than 2^31 rows only). A probe then reads four bytes at a
 * computed place, with no hash, no salt and no key comparison, in a table a quarter of the
 * size of the hashed one.
 *
 * Large tables are built in parallel: the slot array is cut into one range per task, and task
 * p inserts the rows whose home slot lies in its range, in row order, writing only slots of its
 * range (rows of one key share a home, hence a task). A row whose probe would leave the range
 * is set aside and inserted afterwards on one thread, which may probe into the next range:
 * linear probing only needs the slots between a key's home and its entry to be occupied, and
 * every range is complete by then. The chains come out as a serial build would make them.
 *
 * NULL-aware joins (is_null_aware: NOT IN as ANTI, IN as MARK) treat key 0 as the IN
 * comparison `x IN (SELECT y ...)` and the other keys as the subquery's correlation (plain
 * equality): when a probe row has no match, the result is NULL (MARK) or the row is dropped
 * (ANTI) if a match was only prevented by NULLs: x is NULL and some build row matches the
 * correlation, or some build row with a NULL y does. A null-aware join with a residual has
 * the IN comparison in the residual and only the correlation as keys (sql_plan.h): a pair
 * whose residual is NULL is one that could have matched. MARK joins that are not null-aware
 * (EXISTS) are simply TRUE or FALSE.
 * Without keys (CROSS and nested-loop joins) every build row is a candidate of every probe
 * row.
 *
 * ---- The probe side ----
 *
 * Each thread pulls the left child, evaluates and hashes the keys of a batch, and finds each
 * row's group (all slots of the batch are prefetched first, so the cache misses overlap).
 * Then candidate pairs (probe row, build row) are enumerated from a resumable cursor, at most
 * a batch at a time, filtered by the residual predicate, and turned into output: left
 * columns as DICT slices of the probe batch, right columns as DICT vectors over the build
 * columns. When no probe row of a batch has two candidates and there is no residual, the
 * output is the probe batch itself (its columns shared, its selection narrowed) plus DICT
 * right columns indexed by physical row: no per-pair work at all.
 *
 * A right column with few distinct values (at most DL_SQL_JOIN_CODE_MAX, no NULLs) is also
 * coded after the drain: a small FLAT dictionary of its values and a 16-bit code per build
 * row. Its output columns are then DICT vectors over the small dictionary, indexed by the
 * codes of the build rows: a probe reads two bytes of a compact array instead of a value of a
 * long column, and a later aggregation grouping by the column finds a dictionary it can use
 * directly (sql_agg_ht.c). The long column stays for the columns that are not coded.
 *
 * RIGHT and FULL joins mark matched build rows (relaxed atomic bytes, so parallel probes may
 * mark the same row); the thread whose probe input ends last, counted against the threads
 * that started, emits the unmatched build rows once.
 */
#ifndef DL_SQL_SQL_OP_JOIN_INT_H
#define DL_SQL_SQL_OP_JOIN_INT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "sql/exec/sql_op_sort_int.h"

#define DL_SQL_JT_SALT_SHIFT 33
#define DL_SQL_JT_DUP        (UINT64_C(1) << 32)
#define DL_SQL_JT_ROW_MASK   UINT64_C(0xFFFFFFFF)
#define DL_SQL_JT_DIRECT_DUP (UINT32_C(1) << 31)

/* Right columns with at most this many distinct values are coded (see above). */
#define DL_SQL_JOIN_CODE_MAX 4096
/* ... when the build side has at least this many rows. */
#define DL_SQL_JOIN_CODE_MIN_ROWS 256

/* One draining thread's rows and their hashes. */
typedef struct dl_sql_join_part {
    dl_sql_colbuf rows;
    uint64_t *hashes; /* rows.count used */
    int64_t cap_hashes;
} dl_sql_join_part;

typedef struct dl_sql_join_build {
    const dl_type *row_type; /* STRUCT: right columns, then extra key columns */
    const dl_type **types;   /* its field types */
    dl_sql_join_part *parts; /* while draining: moved from the threads */
    int32_t n_parts;
    int32_t cap_parts;
    dl_sql_colbuf rows;   /* then: the rows as long FLAT vectors */
    int32_t *key_col;     /* key -> column of rows */
    int32_t n_extra;      /* extra key columns */
    dl_vector **key_vecs; /* key columns of rows (references into rows.cols) */
    uint64_t *hashes;     /* per row, while building */
    int64_t cap_hashes;
    uint64_t *slots;  /* the table (see above); NULL without keys */
    uint64_t mask;    /* slots - 1 */
    int32_t stride;   /* words per slot: 2 when the key itself follows the slot word */
    bool is_int_key;  /* one integer key that is not null-safe, kept in the table */
    uint32_t *direct; /* dense integer keys: per key - direct_min, first row + 1 | DUP */
    int64_t direct_min;
    uint64_t direct_len; /* entries of direct */
    uint32_t *next;      /* per row: next row of its group + 1 */
    uint32_t *null_rows; /* rows with a NULL in a key that is not null-safe */
    int64_t n_null_rows;
    int64_t cap_null_rows;
    _Atomic(unsigned char) *matched; /* RIGHT/FULL: per row */
    void *matched_mem;               /* the same memory, to free */
    uint16_t **codes;                /* per right column: each row's code, or NULL (see above) */
    dl_vector **small_dict;          /* per right column: the values of the codes, or NULL */
} dl_sql_join_build;

/* The join's global state. */
typedef struct dl_sql_join_state {
    const dl_sql_join *join;
    dl_sql_exec_ctx *exec;
    int32_t n_left;           /* left columns */
    int32_t n_right;          /* right columns */
    dl_vec_phys *key_phys;    /* per key */
    const dl_type *pair_type; /* left ++ right, for residuals of SEMI/ANTI/MARK */
    dl_sql_join_build build;
    bool has_dup_groups; /* some group has two rows */
    atomic_int n_locals;
    atomic_int n_finished;
    atomic_bool is_emit_claimed;
} dl_sql_join_state;

typedef enum dl_sql_join_phase {
    DL_SQL_JP_NEED_PROBE = 0,
    DL_SQL_JP_PAIRS,
    DL_SQL_JP_TAIL,
    DL_SQL_JP_FINISH,
    DL_SQL_JP_EMIT_BUILD,
    DL_SQL_JP_DONE,
} dl_sql_join_phase;

/* One probing thread's state. */
typedef struct dl_sql_join_local {
    void *child; /* the left child's local */
    dl_batch *in;
    dl_sql_eval **key_evals;
    dl_vector **keys;      /* this batch's key vectors (count rows) */
    dl_vec_unified *ukeys; /* their unified views */
    dl_sql_eval *residual;
    dl_batch *pairs; /* SEMI/ANTI/MARK with a residual: pairs to filter */
    dl_sql_join_phase phase;
    bool is_finished_counted;
    bool has_dups;     /* some probe row of this batch has two candidates */
    int64_t k;         /* pair cursor: live probe row */
    uint32_t pos;      /* pair cursor: build row + 1 next in k's chain */
    bool is_in_chain;  /* pos was loaded for k */
    int64_t build_pos; /* EMIT_BUILD cursor */
    uint64_t hashes[DL_BATCH_CAPACITY];
    uint32_t head[DL_BATCH_CAPACITY];     /* per live row: first candidate + 1, 0 none */
    uint8_t null_key[DL_BATCH_CAPACITY];  /* per live row: a non-null-safe key is NULL */
    uint8_t matched[DL_BATCH_CAPACITY];   /* per live row: pairs that passed */
    uint8_t maybe[DL_BATCH_CAPACITY];     /* per live row: a pair's residual was NULL (the
                                             null-aware residual form, sql_plan.h) */
    uint32_t pk[DL_BATCH_CAPACITY];       /* pairs: live probe row */
    uint32_t pb[DL_BATCH_CAPACITY];       /* pairs: build row */
    uint32_t rows[DL_BATCH_CAPACITY];     /* scratch: physical rows */
    uint8_t is_null[DL_BATCH_CAPACITY];   /* scratch */
    uint32_t code_idx[DL_BATCH_CAPACITY]; /* scratch: small dictionary indices */
} dl_sql_join_local;

/* ---- build side (sql_op_join_table.c) ---- */

/* Drains the right child (open) into st->build and builds the table. */
DL_NODISCARD dl_status dl_sql_join_build_run(dl_sql_join_state *st, dl_sql_operator *right,
                                             dl_error *err);
void dl_sql_join_build_free(dl_sql_join_state *st);

/* The right column c of build rows idx[0..n) as a new DICT vector (NULL where is_null, when
 * is_null is not NULL): over the column's small dictionary when it is coded, else over the
 * column itself. Uses l->code_idx as scratch; idx may not be l->code_idx. */
DL_NODISCARD dl_status dl_sql_join_right_col(const dl_sql_join_state *st, dl_sql_join_local *l,
                                             int32_t c, const uint32_t *idx, const uint8_t *is_null,
                                             int64_t n, dl_vector **out, dl_error *err);

/* Finds each live row's group: l->head, l->null_key, l->has_dups (keys evaluated and
 * unified in l). */
void dl_sql_join_probe(const dl_sql_join_state *st, dl_sql_join_local *l, int64_t count);

/* True when probe row k (of l's unified keys) and build row b are equal on every key, a NULL
 * on either side counting as equal (NOT IN and MARK semantics: "could match"). */
bool dl_sql_join_maybe_equal(const dl_sql_join_state *st, const dl_sql_join_local *l, int64_t k,
                             int64_t b);

/* ---- emission (sql_op_join_emit.c) ---- */

/* The next batch of the join into out. */
DL_NODISCARD dl_status dl_sql_join_next(dl_sql_operator *op, dl_sql_join_local *l, dl_batch *out,
                                        dl_error *err);

#endif /* DL_SQL_SQL_OP_JOIN_INT_H */
