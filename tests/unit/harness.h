/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A small unit-test harness. A test file defines `static void test_x(void)` functions with
 * TEST, and a main that runs them with RUN and ends with `return harness_finish();`, which
 * prints "N passed, N failed" and returns nonzero on any failure. A failing CHECK records the
 * failure, prints file:line and the expression, and returns from the test.
 */
#ifndef DL_TESTS_HARNESS_H
#define DL_TESTS_HARNESS_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/error.h"

static int harness_passed;
static int harness_failed;
static int harness_current_failed;

#define TEST(name) static void name(void)

#define RUN(name)                       \
    do {                                \
        harness_current_failed = 0;     \
        name();                         \
        if (harness_current_failed) {   \
            harness_failed++;           \
            printf("FAIL %s\n", #name); \
        } else {                        \
            harness_passed++;           \
            printf("ok   %s\n", #name); \
        }                               \
        (void)fflush(stdout);           \
    } while (0)

#define HARNESS_FAIL_AT(...)                     \
    do {                                         \
        printf("  %s:%d: ", __FILE__, __LINE__); \
        printf(__VA_ARGS__);                     \
        printf("\n");                            \
        harness_current_failed = 1;              \
    } while (0)

#define CHECK(cond)                                     \
    do {                                                \
        if (!(cond)) {                                  \
            HARNESS_FAIL_AT("CHECK(%s) failed", #cond); \
            return;                                     \
        }                                               \
    } while (0)

#define CHECK_INT_EQ(a, b)                                                             \
    do {                                                                               \
        long long harness_a_ = (long long)(a);                                         \
        long long harness_b_ = (long long)(b);                                         \
        if (harness_a_ != harness_b_) {                                                \
            HARNESS_FAIL_AT("%s == %s: %lld != %lld", #a, #b, harness_a_, harness_b_); \
            return;                                                                    \
        }                                                                              \
    } while (0)

#define CHECK_STR_EQ(a, b)                                                                 \
    do {                                                                                   \
        const char *harness_a_ = (a);                                                      \
        const char *harness_b_ = (b);                                                      \
        if (strcmp(harness_a_, harness_b_) != 0) {                                         \
            HARNESS_FAIL_AT("%s == %s: \"%s\" != \"%s\"", #a, #b, harness_a_, harness_b_); \
            return;                                                                        \
        }                                                                                  \
    } while (0)

/* Checks that expr returns the status code; on mismatch prints err's message. */
#define CHECK_STATUS(expr, code, err)                                                              \
    do {                                                                                           \
        dl_status harness_s_ = (expr);                                                             \
        if (harness_s_ != (code)) {                                                                \
            HARNESS_FAIL_AT("%s returned %s, expected %s (%s)", #expr, dl_status_name(harness_s_), \
                            dl_status_name(code), (err)->msg);                                     \
            return;                                                                                \
        }                                                                                          \
    } while (0)

#define CHECK_OK(expr, err) CHECK_STATUS(expr, DL_OK, err)

#define CHECK_ERR_CONTAINS(err, needle)                                                 \
    do {                                                                                \
        if (strstr((err)->msg, (needle)) == NULL) {                                     \
            HARNESS_FAIL_AT("error message \"%s\" lacks \"%s\"", (err)->msg, (needle)); \
            return;                                                                     \
        }                                                                               \
    } while (0)

static inline int
harness_finish(void) {
    printf("%d passed, %d failed\n", harness_passed, harness_failed);
    return harness_failed == 0 ? 0 : 1;
}

#endif /* DL_TESTS_HARNESS_H */
