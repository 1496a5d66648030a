/* SPDX-License-Identifier: Apache-2.0 */
/* The base part's interface: everything other parts may use from src/base/. */
#ifndef DL_BASE_BASE_H
#define DL_BASE_BASE_H

#include "base/alloc.h"
#include "base/arena.h"
#include "base/buf.h"
#include "base/compiler.h"
#include "base/error.h"
#include "base/hmap.h"
#include "base/pool.h"
#include "base/str.h"
#include "base/timefmt.h"

#endif /* DL_BASE_BASE_H */
