#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Makes DuckDB's npm package usable by the tests that compare with it, and prints the
# node_modules folder that holds it. Installs the pinned @duckdb/node-api (package.json here;
# package-lock.json when present) into this folder on first use. Exits 77 (ctest: skipped),
# saying why, when node is missing or npm cannot install the package.
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
echo "$here/node_modules"
