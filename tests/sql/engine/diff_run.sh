#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# ctest wrapper of the differential test against DuckDB (diff_duckdb.mjs):
#   diff_run.sh DELTALITE SEED QUERIES ROWS ROW_GROUP
# A short run with a fixed seed, so a failure reproduces with the same arguments; the long
# runs (10,000 queries and more) are done by hand: node diff_duckdb.mjs --queries 10000 ...
# Exits 77 (skipped) when node or DuckDB's npm package is not available.
here=$(cd "$(dirname "$0")" && pwd)
if ! modules=$("$here/../../parquet_duckdb/ensure_duckdb.sh"); then
  echo "$modules"
  exit 77
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/dl_diff_XXXXXX")
"${DL_NODE:-node}" "$here/diff_duckdb.mjs" --deltalite "$1" --seed "$2" --queries "$3" \
  --rows "$4" --row-group "$5" --modules "$modules" --dir "$dir"
rc=$?
rm -rf "$dir"
exit $rc
