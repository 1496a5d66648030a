/* SPDX-License-Identifier: Apache-2.0 */
/* Data-skipping cases of the Delta corpus runner (delta_corpus_skip.c). */
#ifndef DL_TESTS_DELTA_CORPUS_SKIP_H
#define DL_TESTS_DELTA_CORPUS_SKIP_H

#include <stddef.h>

#include "delta/delta.h"

/* Runs the skipping cases known for table name ("folder/table") on snap (its latest
 * version): the number of cases passed, 0 when there are none, -1 on the first failure (why,
 * cap bytes, says which). */
int dcs_check_skipping(const char *name, dl_delta_snapshot *snap, char *why, size_t cap);

#endif /* DL_TESTS_DELTA_CORPUS_SKIP_H */
