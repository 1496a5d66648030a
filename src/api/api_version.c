/* SPDX-License-Identifier: Apache-2.0 */
/* Version and status-name entry points of the public API. */
#include "deltalite.h"

#include "base/base.h"

_Static_assert((int)DELTALITE_ERROR_LIMIT == (int)DL_ERR_LIMIT, "public codes mirror dl_status");
_Static_assert((int)DELTALITE_ERROR_READONLY == (int)DL_ERR_READONLY,
               "public codes mirror dl_status");
_Static_assert((int)DELTALITE_ERROR_DATA == (int)DL_ERR_DATA, "public codes mirror dl_status");
_Static_assert((int)DELTALITE_ERROR_CONFLICT == (int)DL_ERR_CONFLICT,
               "public codes mirror dl_status");

const char *
deltalite_version(void) {
    return DL_VERSION_STRING;
}

const char *
deltalite_status_name(deltalite_status status) {
    return dl_status_name((dl_status)status);
}
