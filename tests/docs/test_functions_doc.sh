#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# docs/functions.md cannot drift from the engine: it is exactly what scripts/gen-sql-reference
# writes from the function table, and it names exactly the functions SHOW FUNCTIONS lists.
# Usage: test_functions_doc.sh SOURCE_DIR PATH_TO_DELTALITE
set -eu
src=$1
shell=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dl_docs_XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$src/scripts/gen-sql-reference" "$tmp/functions.md"
diff -u "$src/docs/functions.md" "$tmp/functions.md" > "$tmp/diff" ||
  fail "docs/functions.md is stale: run scripts/gen-sql-reference ($(head -20 "$tmp/diff"))"
echo "ok   docs/functions.md is what scripts/gen-sql-reference writes"

mkdir "$tmp/wh"
"$shell" "$tmp/wh" -list -noheader -c "SHOW FUNCTIONS" | sort > "$tmp/shown"
grep '^| `' "$src/docs/functions.md" | sed 's/^| `//; s/` |.*//; s/\\|/|/g' | sort > "$tmp/documented"
diff -u "$tmp/shown" "$tmp/documented" > "$tmp/diff" ||
  fail "SHOW FUNCTIONS and docs/functions.md differ (- only shown, + only documented): $(cat "$tmp/diff")"
echo "ok   docs/functions.md names the $(wc -l < "$tmp/shown") functions SHOW FUNCTIONS lists"
echo "2 passed, 0 failed"
