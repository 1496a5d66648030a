/* SPDX-License-Identifier: Apache-2.0 */
/* Compiler attributes and portability helpers shared by every part. */
#ifndef DL_BASE_COMPILER_H
#define DL_BASE_COMPILER_H

#include <stddef.h>
#include <stdint.h>

/* A status that is dropped fails to compile under -Werror. */
#define DL_NODISCARD                    __attribute__((warn_unused_result))
#define DL_PRINTF(fmt_index, first_arg) __attribute__((format(printf, fmt_index, first_arg)))
#define DL_LIKELY(x)                    __builtin_expect(!!(x), 1)
#define DL_UNLIKELY(x)                  __builtin_expect(!!(x), 0)
#define DL_UNUSED(x)                    ((void)(x))
#define DL_ARRAY_LEN(a)                 (sizeof(a) / sizeof((a)[0]))
#define DL_MIN(a, b)                    ((a) < (b) ? (a) : (b))
#define DL_MAX(a, b)                    ((a) > (b) ? (a) : (b))

/* DL_ASSERT is for our own invariants only, never for outside input. It is active in debug
 * builds (NDEBUG unset) and compiles to nothing in release builds. */
#ifdef NDEBUG
#    define DL_ASSERT(cond) ((void)0)
#else
void dl_assert_fail(const char *cond, const char *file, int line);
#    define DL_ASSERT(cond) ((cond) ? (void)0 : dl_assert_fail(#    cond, __FILE__, __LINE__))
#endif

/* AddressSanitizer hooks for arena poisoning. */
#if defined(__SANITIZE_ADDRESS__)
#    define DL_ASAN 1
#elif defined(__has_feature)
#    if __has_feature(address_sanitizer)
#        define DL_ASAN 1
#    endif
#endif
#ifndef DL_ASAN
#    define DL_ASAN 0
#endif
#if DL_ASAN
void __asan_poison_memory_region(void const volatile *addr, size_t size);
void __asan_unpoison_memory_region(void const volatile *addr, size_t size);
#    define DL_POISON(p, n)   __asan_poison_memory_region((p), (n))
#    define DL_UNPOISON(p, n) __asan_unpoison_memory_region((p), (n))
#else
#    define DL_POISON(p, n)   ((void)(p), (void)(n))
#    define DL_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

/* 128-bit integers (decimal(38) values, wide multiplies). __extension__ keeps -Wpedantic quiet. */
__extension__ typedef __int128 dl_i128;
__extension__ typedef unsigned __int128 dl_u128;

/* Overflow-checked arithmetic: true when the result overflowed. */
#define DL_ADD_OVERFLOW(a, b, out) __builtin_add_overflow((a), (b), (out))
#define DL_SUB_OVERFLOW(a, b, out) __builtin_sub_overflow((a), (b), (out))
#define DL_MUL_OVERFLOW(a, b, out) __builtin_mul_overflow((a), (b), (out))

#endif /* DL_BASE_COMPILER_H */
