/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SQL functions md5, sha1/sha and sha2 over base/digest.h: the digest of the value as
 * lower-case hex, as Spark does. sha2 with a bit length other than 0, 224, 256,
 * 384 or 512 gives NULL.
 */
#include <string.h>

#include "base/digest.h"
#include "sql/func/sql_fn_int.h"

/* ---- the functions ----------------------------------------------------------------------------
 */

enum {
    D_MD5,
    D_SHA1,
    D_SHA2
};

dl_status
dl_sql_bind_digest(dl_sql_fn_bind *b, dl_error *err) {
    DL_TRY(dl_sql_bind_expect(b, 0, dl_sql_t(DL_VEC_TYPE_BINARY), "binary or a string", err));
    if (b->n_args > 1) {
        DL_TRY(dl_sql_bind_expect(b, 1, dl_sql_t(DL_VEC_TYPE_INT), "an integer bit length", err));
    }
    b->ret_type = dl_sql_t(DL_VEC_TYPE_STRING);
    return DL_OK;
}

static size_t
digest(int kind, int bits, const uint8_t *msg, size_t len, uint8_t *out) {
    switch (kind) {
    case D_MD5:
        return dl_digest_md5(msg, len, out);
    case D_SHA1:
        return dl_digest_sha1(msg, len, out);
    default:
        switch (bits) {
        case 224:
            return dl_digest_sha256(msg, len, true, out);
        case 0:
        case 256:
            return dl_digest_sha256(msg, len, false, out);
        case 384:
            return dl_digest_sha512(msg, len, true, out);
        case 512:
            return dl_digest_sha512(msg, len, false, out);
        default:
            return 0;
        }
    }
}

dl_status
dl_sql_fn_digest(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                 dl_error *err) {
    const char *name = call->def->name;
    int kind = strcmp(name, "md5") == 0 ? D_MD5 : strcmp(name, "sha2") == 0 ? D_SHA2 : D_SHA1;
    dl_vec_unified u[2];
    dl_sql_unify_args(args, call->n_args, count, u);
    for (int64_t i = 0; i < count; i++) {
        bool is_null = dl_sql_u_null(&u[0], i) || (kind == D_SHA2 && dl_sql_u_null(&u[1], i));
        uint8_t d[DL_DIGEST_MAX];
        size_t n = 0;
        if (!is_null) {
            dl_str s = dl_sql_u_str(&u[0], i);
            int bits = kind == D_SHA2 ? DL_SQL_U(&u[1], int32_t, i) : 0;
            n = digest(kind, bits, (const uint8_t *)s.ptr, s.len, d);
        }
        if (n == 0) {
            DL_TRY(dl_vec_append_null(out, err));
            continue;
        }
        char text[2 * DL_DIGEST_MAX];
        dl_digest_hex(d, n, text);
        DL_TRY(dl_vec_append_str(out, text, 2 * n, err));
    }
    return DL_OK;
}
