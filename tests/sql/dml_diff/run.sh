#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# ctest wrapper of the DML differential tester (dml_diff.mjs):
#   run.sh DELTALITE SEED TABLES STATEMENTS MIN_ROWS MAX_ROWS TIME_LIMIT [DV_PERMILLE [CM_PERMILLE]]
# A short run with a fixed seed, so a failure reproduces with the same arguments (the failure
# log prints the replay command and a repro.sql); TIME_LIMIT (seconds) starts no table after
# it, so a loaded machine runs fewer tables instead of timing out. DV_PERMILLE: the tables
# (per thousand) with deletion vectors (dml_diff.mjs --dv-permille; its default when absent);
# CM_PERMILLE: those with column mapping (--cm-permille). The long runs are done by
# hand: node tests/sql/dml_diff/dml_diff.mjs --tables 1000 ...
# Exits 77 (skipped) when node or DuckDB's npm package is not available.
here=$(cd "$(dirname "$0")" && pwd)
if ! modules=$("$here/../../parquet_duckdb/ensure_duckdb.sh"); then
  echo "$modules"
  exit 77
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/dl_dml_diff_XXXXXX")
"${DL_NODE:-node}" "$here/dml_diff.mjs" --deltalite "$1" --seed "$2" --tables "$3" \
  --statements "$4" --min-rows "$5" --max-rows "$6" --time-limit "$7" --modules "$modules" \
  --dir "$dir" --quiet 1 ${8:+--dv-permille "$8"} ${9:+--cm-permille "$9"}
rc=$?
if [ $rc -eq 0 ]; then
  rm -rf "$dir"
else
  echo "kept $dir (failures.txt, the failing tables' folders with repro.sql)"
fi
exit $rc
