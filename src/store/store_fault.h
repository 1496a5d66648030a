/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A fault-injecting store for tests (STYLE.md: "the store gets the same harness for writes").
 *
 * It wraps any store and forwards every call, counting the operations that change the store:
 * writer open, each writer append, writer commit, remove and mkdirs (reads, listings and
 * aborts are never counted and never fail). The fail_at-th counted operation (1-based) fails
 * with a simulated DL_ERR_IO, and with is_sticky every later one too, so a test can run an
 * operation with fail_at = 1, 2, 3, ... until it succeeds and check after each failure that
 * nothing changed and no temporary file was left (SQLite's do_faultsim_test).
 *
 * The counters are atomic, so the wrapper may be used from several threads; dl_store_fault_arm
 * must not run concurrently with operations.
 */
#ifndef DL_STORE_STORE_FAULT_H
#define DL_STORE_STORE_FAULT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/compiler.h"
#include "base/error.h"
#include "store/store.h"

typedef enum dl_store_fault_kind {
    /* The operation fails before it changes anything: DL_ERR_IO with errno EIO. A failing
     * commit discards the writer's temporary file, as a real failed commit does. */
    DL_STORE_FAULT_EIO = 0,
    /* As EIO with errno ENOSPC, except that a failing append first writes half of its bytes:
     * a disk filling up in the middle of a write. */
    DL_STORE_FAULT_ENOSPC = 1,
    /* The operation takes effect, then reports DL_ERR_IO (EIO): the acknowledgement was lost.
     * A committed file is visible although the commit "failed". */
    DL_STORE_FAULT_LOST_ACK = 2,
} dl_store_fault_kind;

typedef struct dl_store_fault_options {
    int64_t fail_at;          /* 1-based index of the first failing operation; 0 = never */
    bool is_sticky;           /* every operation after fail_at fails too */
    dl_store_fault_kind kind; /* how it fails */
} dl_store_fault_options;

/*
 * Wraps inner, which must outlive the wrapper and is not freed with it. opts NULL = never
 * fail (count only). Files opened through the wrapper are inner's files. Free the wrapper with
 * dl_store_free.
 */
DL_NODISCARD dl_status dl_store_fault_new(dl_store *inner, const dl_store_fault_options *opts,
                                          dl_store **out, dl_error *err);

/* Resets both counters and sets new options (NULL = never fail). */
void dl_store_fault_arm(dl_store *store, const dl_store_fault_options *opts);

/* Counted operations so far. */
int64_t dl_store_fault_n_ops(const dl_store *store);

/* Operations failed so far. */
int64_t dl_store_fault_n_failures(const dl_store *store);

#endif /* DL_STORE_STORE_FAULT_H */
