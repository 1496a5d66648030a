/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Data-skipping cases of the Delta corpus: the predicates that EXPECTED.json's "skipping",
 * "files_after_skipping", "filters" and "partition_pruning" entries describe in words
 * (paraphrased from Spark's and the kernels' suites), written here as scan predicates with the
 * number of files that must survive planning, or of rows a scan must return.
 *
 * One deliberate difference: for float and double columns `>` and `>=` never skip a file
 * (NaN sorts above every number in Spark, and not every writer keeps it in maxValues), where
 * Spark's own tables would let them; those misses are left out below.
 */
#include "delta_corpus_skip.h"

#include <stdio.h>
#include <string.h>

#include "delta/delta_scan.h"

typedef struct skip_case {
    const char *what;
    dl_delta_pred pred;
    int64_t want_files; /* files surviving planning, or -1 */
    int64_t want_rows;  /* rows a scan returns, or -1 */
} skip_case;

/* Plans (and, for want_rows, runs) the scan of one case; false with why on a mismatch. */
static bool
run_case(dl_delta_snapshot *snap, const skip_case *c, char *why, size_t cap) {
    const char *none[1] = {NULL};
    dl_delta_scan_options o = {.predicate = &c->pred, .columns = none, .n_columns = 0};
    dl_delta_scan *scan = NULL;
    dl_error err;
    if (dl_delta_scan_new(snap, &o, &scan, &err) != DL_OK) {
        (void)snprintf(why, cap, "%s: %s", c->what, err.msg);
        return false;
    }
    int64_t files = (int64_t)dl_delta_scan_unit_count(scan);
    int64_t rows = 0;
    dl_batch *batch = NULL;
    dl_status st = DL_OK;
    if (c->want_rows >= 0) {
        st = dl_vec_batch_new(NULL, dl_delta_scan_schema(scan), 0, &batch, &err);
        bool has = st == DL_OK;
        while (st == DL_OK && has) {
            st = dl_delta_scan_next(scan, batch, &has, &err);
            rows += has ? batch->count : 0;
        }
    }
    dl_vec_batch_free(batch);
    dl_delta_scan_free(scan);
    if (st != DL_OK) {
        (void)snprintf(why, cap, "%s: scan: %s", c->what, err.msg);
        return false;
    }
    if ((c->want_files >= 0 && files != c->want_files) ||
        (c->want_rows >= 0 && rows != c->want_rows)) {
        (void)snprintf(why, cap, "%s: %lld files and %lld rows, expected %lld files and %lld rows",
                       c->what, (long long)files, (long long)rows, (long long)c->want_files,
                       (long long)c->want_rows);
        return false;
    }
    return true;
}

/* ---- the cases ----------------------------------------------------------------------- */

#define MAX_CASES 96

typedef struct case_list {
    skip_case c[MAX_CASES];
    dl_delta_scalar v[MAX_CASES];
    const char *col[MAX_CASES][1];
    dl_delta_pred kids[MAX_CASES][2];
    size_t n;
} case_list;

/* Adds "column op value" expecting files files to survive. */
static void
add_cmp(case_list *l, const char *what, const char *column, dl_delta_pred_op op, dl_delta_scalar v,
        int64_t files, int64_t rows) {
    if (l->n == MAX_CASES) {
        return;
    }
    size_t i = l->n++;
    l->v[i] = v;
    l->col[i][0] = column;
    l->c[i] = (skip_case){
        .what = what,
        .pred = {.op = op, .column = l->col[i], .n_column = 1, .values = &l->v[i], .n_values = 1},
        .want_files = files,
        .want_rows = rows};
}

static dl_delta_scalar
int_v(int64_t i) {
    return (dl_delta_scalar){.kind = DL_DELTA_SCALAR_INT, .i = i};
}

static dl_delta_scalar
dbl_v(double f) {
    return (dl_delta_scalar){.kind = DL_DELTA_SCALAR_DOUBLE, .f = f};
}

static dl_delta_scalar
date_v(int64_t days) {
    return (dl_delta_scalar){.kind = DL_DELTA_SCALAR_DATE, .i = days};
}

static dl_delta_scalar
str_v(const char *s) {
    return (dl_delta_scalar){.kind = DL_DELTA_SCALAR_STRING, .s = dl_str_from_cstr(s)};
}

/* data-skipping-basic-stats-all-types (and its checkpoint and column-mapping variants): one
 * file whose every column holds 0 ("0", 2000-01-01). */
static void
all_types_cases(case_list *l) {
    static const char *const ints[] = {"as_int", "as_long", "as_byte", "as_short",
                                       "as_big_decimal"};
    for (size_t k = 0; k < DL_ARRAY_LEN(ints); k++) {
        add_cmp(l, "int: col = 0 keeps", ints[k], DL_DELTA_PRED_EQ, int_v(0), 1, -1);
        add_cmp(l, "int: col > -1 keeps", ints[k], DL_DELTA_PRED_GT, int_v(-1), 1, -1);
        add_cmp(l, "int: col >= 0 keeps", ints[k], DL_DELTA_PRED_GE, int_v(0), 1, -1);
        add_cmp(l, "int: col < 1 keeps", ints[k], DL_DELTA_PRED_LT, int_v(1), 1, -1);
        add_cmp(l, "int: col <= 0 keeps", ints[k], DL_DELTA_PRED_LE, int_v(0), 1, -1);
        add_cmp(l, "int: col = -1 skips", ints[k], DL_DELTA_PRED_EQ, int_v(-1), 0, -1);
        add_cmp(l, "int: col > 0 skips", ints[k], DL_DELTA_PRED_GT, int_v(0), 0, -1);
        add_cmp(l, "int: col >= 1 skips", ints[k], DL_DELTA_PRED_GE, int_v(1), 0, -1);
        add_cmp(l, "int: col < 0 skips", ints[k], DL_DELTA_PRED_LT, int_v(0), 0, -1);
        add_cmp(l, "int: col <= -1 skips", ints[k], DL_DELTA_PRED_LE, int_v(-1), 0, -1);
    }
    static const char *const dbls[] = {"as_float", "as_double"};
    for (size_t k = 0; k < DL_ARRAY_LEN(dbls); k++) {
        add_cmp(l, "float: col = 0 keeps", dbls[k], DL_DELTA_PRED_EQ, dbl_v(0), 1, -1);
        add_cmp(l, "float: col > -1 keeps", dbls[k], DL_DELTA_PRED_GT, dbl_v(-1), 1, -1);
        add_cmp(l, "float: col < 1 keeps", dbls[k], DL_DELTA_PRED_LT, dbl_v(1), 1, -1);
        add_cmp(l, "float: col = -1 skips", dbls[k], DL_DELTA_PRED_EQ, dbl_v(-1), 0, -1);
        add_cmp(l, "float: col < 0 skips", dbls[k], DL_DELTA_PRED_LT, dbl_v(0), 0, -1);
        add_cmp(l, "float: col <= -1 skips", dbls[k], DL_DELTA_PRED_LE, dbl_v(-1), 0, -1);
    }
    add_cmp(l, "date = 2000-01-01 keeps", "as_date", DL_DELTA_PRED_EQ, date_v(10957), 1, -1);
    add_cmp(l, "date > 1999-12-31 keeps", "as_date", DL_DELTA_PRED_GT, date_v(10956), 1, -1);
    add_cmp(l, "date = 1999-01-01 skips", "as_date", DL_DELTA_PRED_EQ, date_v(10592), 0, -1);
    add_cmp(l, "date > 2000-01-01 skips", "as_date", DL_DELTA_PRED_GT, date_v(10957), 0, -1);
    add_cmp(l, "date < 2000-01-01 skips", "as_date", DL_DELTA_PRED_LT, date_v(10957), 0, -1);
    add_cmp(l, "string = \"0\" keeps", "as_string", DL_DELTA_PRED_EQ, str_v("0"), 1, -1);
    add_cmp(l, "string > \"!\" keeps", "as_string", DL_DELTA_PRED_GT, str_v("!"), 1, -1);
    add_cmp(l, "string < \"1\" keeps", "as_string", DL_DELTA_PRED_LT, str_v("1"), 1, -1);
    add_cmp(l, "string = \"!\" skips", "as_string", DL_DELTA_PRED_EQ, str_v("!"), 0, -1);
    add_cmp(l, "short = 0.0 keeps", "as_short", DL_DELTA_PRED_EQ, dbl_v(0), 1, -1);
    add_cmp(l, "short = 1.0 skips", "as_short", DL_DELTA_PRED_EQ, dbl_v(1), 0, -1);
    add_cmp(l, "float = (short)0 keeps", "as_float", DL_DELTA_PRED_EQ, int_v(0), 1, -1);
    add_cmp(l, "float = (short)1 skips", "as_float", DL_DELTA_PRED_EQ, int_v(1), 0, -1);
}

/* Adds the AND of the last two cases (which stay, checking nothing themselves), expecting
 * files files. */
static void
and_last_two(case_list *l, const char *what, int64_t files) {
    if (l->n < 2 || l->n == MAX_CASES) {
        return;
    }
    size_t i = l->n++;
    l->kids[i][0] = l->c[i - 2].pred;
    l->kids[i][1] = l->c[i - 1].pred;
    l->c[i] =
        (skip_case){.what = what,
                    .pred = {.op = DL_DELTA_PRED_AND, .children = l->kids[i], .n_children = 2},
                    .want_files = files,
                    .want_rows = -1};
}

static bool
is_table(const char *name, const char *folder_table) {
    return strcmp(name, folder_table) == 0;
}

static void
cases_of(const char *name, case_list *l) {
    l->n = 0;
    if (is_table(name, "spark-golden/data-skipping-basic-stats-all-types") ||
        is_table(name, "spark-golden/data-skipping-basic-stats-all-types-checkpoint") ||
        is_table(name, "spark-golden/data-skipping-basic-stats-all-types-columnmapping-id") ||
        is_table(name, "spark-golden/data-skipping-basic-stats-all-types-columnmapping-name")) {
        all_types_cases(l);
    } else if (is_table(name,
                        "spark-golden/data-skipping-change-stats-collected-across-versions")) {
        add_cmp(l, "col1 = 1", "col1", DL_DELTA_PRED_EQ, int_v(1), 1, -1);
        add_cmp(l, "col2 = 1", "col2", DL_DELTA_PRED_EQ, int_v(1), 2, -1);
        add_cmp(l, "col1 = 1 (operand)", "col1", DL_DELTA_PRED_EQ, int_v(1), -1, -1);
        add_cmp(l, "col2 = 1 (operand)", "col2", DL_DELTA_PRED_EQ, int_v(1), -1, -1);
        and_last_two(l, "col1 = 1 AND col2 = 1", 1);
    } else if (is_table(name, "spark-golden/data-skipping-partition-and-data-column")) {
        add_cmp(l, "part > 0 (operand)", "part", DL_DELTA_PRED_GT, int_v(0), -1, -1);
        add_cmp(l, "id > 0 (operand)", "id", DL_DELTA_PRED_GT, int_v(0), -1, -1);
        and_last_two(l, "part > 0 AND id > 0", 1);
    } else if (is_table(name, "spark-golden/basic-decimal-table") ||
               is_table(name, "spark-golden/basic-decimal-table-legacy")) {
        dl_delta_scalar d = {.kind = DL_DELTA_SCALAR_DECIMAL, .d = 234222223454, .scale = 5};
        add_cmp(l, "part = 2342222.23454", "part", DL_DELTA_PRED_EQ, d, -1, 1);
        add_cmp(l, "part <> 0", "part", DL_DELTA_PRED_NE, int_v(0), -1, 4);
    } else if (is_table(name, "spark-golden/data-reader-timestamp_ntz")) {
        dl_delta_scalar ts = {.kind = DL_DELTA_SCALAR_TIMESTAMP, .i = 1637202600123456};
        dl_delta_scalar ts2 = {.kind = DL_DELTA_SCALAR_TIMESTAMP, .i = 1373043660123456};
        dl_delta_scalar null = {.kind = DL_DELTA_SCALAR_NULL};
        add_cmp(l, "tsNtzPartition = 1637202600123456", "tsNtzPartition", DL_DELTA_PRED_EQ, ts, -1,
                3);
        add_cmp(l, "tsNtzPartition = NULL", "tsNtzPartition", DL_DELTA_PRED_EQ, null, 0, 0);
        add_cmp(l, "tsNtzPartition >= 1373043660123456", "tsNtzPartition", DL_DELTA_PRED_GE, ts2,
                -1, 6);
        add_cmp(l, "tsNtzPartition IS NULL", "tsNtzPartition", DL_DELTA_PRED_IS_NULL, null, -1, 3);
    }
}

int
dcs_check_skipping(const char *name, dl_delta_snapshot *snap, char *why, size_t cap) {
    static case_list l; /* large: not on the stack; the runner is single-threaded */
    cases_of(name, &l);
    for (size_t i = 0; i < l.n; i++) {
        if (l.c[i].pred.op == DL_DELTA_PRED_IS_NULL) {
            l.c[i].pred.n_values = 0;
        }
        if (!run_case(snap, &l.c[i], why, cap)) {
            return -1;
        }
    }
    return (int)l.n;
}
