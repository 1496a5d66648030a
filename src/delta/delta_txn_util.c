/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Small utilities of the write side: the clock, randomness (transaction ids are version 4
 * UUIDs, RFC 4122 section 4.4; back-off jitter), sleeping, growable arena lists, and table
 * properties read as numbers and durations (Spark's DeltaConfigs: an invalid value falls back
 * to the default rather than failing a commit).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "base/timefmt.h"
#include "delta/delta_txn_int.h"

void *
dl_delta_tx_vec_push(dl_arena *arena, dl_delta_tx_vec *vec, size_t elem_size, dl_error *err) {
    if (vec->n == vec->cap) {
        size_t cap = vec->cap == 0 ? 8 : vec->cap * 2;
        void *items = dl_arena_alloc_array(arena, cap, elem_size);
        if (items == NULL) {
            (void)dl_error_set(err, DL_ERR_NOMEM, "out of memory staging a transaction");
            return NULL;
        }
        if (vec->n > 0) {
            memcpy(items, vec->items, vec->n * elem_size);
        }
        vec->items = items;
        vec->cap = cap;
    }
    void *slot = (char *)vec->items + vec->n * elem_size;
    memset(slot, 0, elem_size);
    vec->n++;
    return slot;
}

int64_t
dl_delta_now_ms(void) {
    struct timespec ts;
    (void)clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + (int64_t)(ts.tv_nsec / 1000000);
}

static dl_status
read_urandom(uint8_t *dst, size_t len, dl_error *err) {
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return dl_error_set_errno(err, DL_ERR_IO, errno, "cannot open /dev/urandom");
    }
    size_t got = 0;
    while (got < len) {
        ssize_t n = read(fd, dst + got, len - got);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            int e = n < 0 ? errno : EIO;
            (void)close(fd);
            return dl_error_set_errno(err, DL_ERR_IO, e, "cannot read /dev/urandom");
        }
        got += (size_t)n;
    }
    (void)close(fd);
    return DL_OK;
}

dl_status
dl_delta_random_bytes(void *buf, size_t len, dl_error *err) {
    uint8_t *dst = buf;
    size_t got = 0;
    while (got < len) {
        ssize_t n = getrandom(dst + got, len - got, 0);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            /* ENOSYS (an old kernel) and friends: the device file still works. */
            return read_urandom(dst + got, len - got, err);
        }
        got += (size_t)n;
    }
    return DL_OK;
}

dl_status
dl_delta_uuid_string(char out[37], dl_error *err) {
    uint8_t u[16];
    DL_TRY(dl_delta_random_bytes(u, sizeof(u), err));
    u[6] = (uint8_t)((u[6] & 0x0F) | 0x40); /* version 4 */
    u[8] = (uint8_t)((u[8] & 0x3F) | 0x80); /* variant 10 */
    dl_delta_uuid_format(u, out);
    return DL_OK;
}

void
dl_delta_sleep_ms(int64_t ms) {
    if (ms <= 0) {
        return;
    }
    struct timespec req = {.tv_sec = (time_t)(ms / 1000), .tv_nsec = (long)(ms % 1000) * 1000000L};
    struct timespec rem;
    while (nanosleep(&req, &rem) != 0 && errno == EINTR) {
        req = rem;
    }
}

int64_t
dl_delta_md_int(const dl_delta_metadata *md, const char *key, int64_t def) {
    const char *v = md != NULL ? dl_delta_metadata_config(md, key) : NULL;
    if (v == NULL) {
        return def;
    }
    dl_str s = dl_str_trim(dl_str_from_cstr(v));
    bool is_neg = s.len > 0 && s.ptr[0] == '-';
    int64_t n = 0;
    if (!dl_delta_parse_version(is_neg ? dl_str_slice(s, 1, s.len - 1) : s, &n)) {
        return def;
    }
    return is_neg ? -n : n;
}

int64_t
dl_delta_md_duration_ms(const dl_delta_metadata *md, const char *key, int64_t def_ms) {
    const char *v = md != NULL ? dl_delta_metadata_config(md, key) : NULL;
    if (v == NULL) {
        return def_ms;
    }
    int64_t micros = 0;
    if (dl_duration_parse(dl_str_from_cstr(v), &micros, NULL) != DL_OK || micros < 0) {
        return def_ms;
    }
    return micros / 1000;
}
