#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# ctest wrapper of check.mjs: run.sh PQ_WRITE_ALLTYPES OUT_DIR
# Exits 77 (skipped) when node is missing or @duckdb/node-api cannot be installed; installs
# the pinned package (package.json; package-lock.json when present) into this folder on first
# use.
here=$(cd "$(dirname "$0")" && pwd)
node=${DL_NODE:-node}
if ! command -v "$node" >/dev/null 2>&1; then
  echo "skipped: node not found"
  exit 77
fi
if [ ! -d "$here/node_modules/@duckdb/node-api" ]; then
  if ! command -v npm >/dev/null 2>&1 ||
     ! (cd "$here" && if [ -f package-lock.json ]; then cmd=ci; else cmd=install; fi &&
        timeout 300 npm "$cmd" --no-audit --no-fund >/dev/null 2>&1); then
    echo "skipped: npm unreachable (could not install @duckdb/node-api into $here/node_modules)"
    exit 77
  fi
fi
DL_SKIP_EXIT=77 exec "$node" "$here/check.mjs" "$@"
