#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# ctest wrapper of check.mjs: run.sh PQ_WRITE_ALLTYPES OUT_DIR
# Exits 77 (skipped) when node is missing or @duckdb/node-api cannot be installed
# (ensure_duckdb.sh installs the pinned package into this folder on first use).
here=$(cd "$(dirname "$0")" && pwd)
if ! out=$("$here/ensure_duckdb.sh"); then
  echo "$out"
  exit 77
fi
DL_SKIP_EXIT=77 exec "${DL_NODE:-node}" "$here/check.mjs" "$@"
