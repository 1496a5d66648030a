/* SPDX-License-Identifier: Apache-2.0 */
#include <errno.h>

#include "base/error.h"
#include "harness.h"

static dl_status
inner(dl_error *err) {
    DL_FAIL(err, DL_ERR_CORRUPT, "page 7 at offset %d: RLE run of %d exceeds the %d values left",
            123456, 4096, 200);
}

static dl_status
middle(dl_error *err) {
    DL_TRY_CTX(inner(err), err, "column '%s'", "amount");
    return DL_OK;
}

static dl_status
outer(dl_error *err) {
    DL_TRY_CTX(middle(err), err, "table 'sales' v%d: part-00003.parquet", 12);
    return DL_OK;
}

TEST(test_context_is_prepended_outer_to_inner) {
    dl_error err;
    dl_error_clear(&err);
    CHECK_STATUS(outer(&err), DL_ERR_CORRUPT, &err);
    CHECK_STR_EQ(err.msg, "table 'sales' v12: part-00003.parquet: column 'amount': page 7 at "
                          "offset 123456: RLE run of 4096 exceeds the 200 values left");
    CHECK_INT_EQ(err.code, DL_ERR_CORRUPT);
#ifndef NDEBUG
    CHECK(strstr(err.where, "test_error.c:") != NULL);
#endif
}

static dl_status
check_positive(int x, dl_error *err) {
    DL_CHECK(x > 0, err, DL_ERR_INVALID_ARG, "expected a positive count, got %d", x);
    return DL_OK;
}

TEST(test_check_macro_and_null_error) {
    dl_error err;
    CHECK_STATUS(check_positive(-1, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "got -1");
    CHECK_OK(check_positive(1, &err), &err);
    CHECK_INT_EQ(check_positive(0, NULL), DL_ERR_INVALID_ARG);
    dl_error_prefix(NULL, "x");
    dl_error_hint(NULL, "y");
}

TEST(test_errno_message_and_hint) {
    dl_error err;
    dl_error_set_errno(&err, DL_ERR_IO, ENOENT, "cannot open '%s'", "/t/_delta_log");
    dl_error_hint(&err, "check that the path is a Delta table");
    CHECK_INT_EQ(err.sys_errno, ENOENT);
    CHECK_ERR_CONTAINS(&err, "cannot open '/t/_delta_log': No such file");
    CHECK_STR_EQ(err.hint, "check that the path is a Delta table");
}

TEST(test_long_prefixes_truncate_at_the_end) {
    dl_error err;
    dl_error_set(&err, DL_ERR_CORRUPT, "inner");
    char long_ctx[2000];
    memset(long_ctx, 'c', sizeof(long_ctx) - 1);
    long_ctx[sizeof(long_ctx) - 1] = '\0';
    dl_error_prefix(&err, "%s", long_ctx);
    CHECK_INT_EQ(strlen(err.msg), DL_ERROR_MSG_CAP - 1);
    CHECK(err.msg[0] == 'c');
}

TEST(test_status_names_are_stable) {
    CHECK_STR_EQ(dl_status_name(DL_OK), "OK");
    CHECK_STR_EQ(dl_status_name(DL_ERR_CORRUPT), "CORRUPT");
    CHECK_STR_EQ(dl_status_name(DL_ERR_EXISTS), "EXISTS");
    CHECK_STR_EQ(dl_status_name((dl_status)999), "UNKNOWN");
    CHECK_INT_EQ(DL_ERR_CONFLICT, 8);
}

int
main(void) {
    RUN(test_context_is_prepended_outer_to_inner);
    RUN(test_check_macro_and_null_error);
    RUN(test_errno_message_and_hint);
    RUN(test_long_prefixes_truncate_at_the_end);
    RUN(test_status_names_are_stable);
    return harness_finish();
}
