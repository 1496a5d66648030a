#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Runs every ```sql block of a doc page in order on one fresh warehouse (deltalite -table,
# standard output and errors together) and compares each with the ```text block right after
# it, when there is one (a block without one must run without an error): the examples of the
# page are what the program does.
# Usage: test_guide.sh PAGE.md PATH_TO_DELTALITE
set -eu
page=$1
case $2 in /*) shell=$2 ;; *) shell=$(pwd)/$2 ;; esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dl_guide_XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# Split the page into tmp/N.sql and tmp/N.out (the text block after block N, if any).
awk -v dir="$tmp" '
  /^```sql$/ { n++; file = dir "/" n ".sql"; inside = 1; last = n; next }
  /^```text$/ {
    if (last == n && n > 0 && !taken[n]) { file = dir "/" n ".out"; inside = 1; taken[n] = 1 }
    else { print NR > (dir "/orphans") }
    next
  }
  /^```/ { if (inside) { close(file) } inside = 0; if (!/^```$/) { last = -1 } ; next }
  inside { print > file; next }
  /[^ ]/ { last = -1 }
' "$page"
if [ -f "$tmp/orphans" ]; then
  echo "FAIL: $page: the text block at line $(head -1 "$tmp/orphans") follows no sql block (so nothing checks it)"
  exit 1
fi
mkdir "$tmp/wh"
n=0
while [ -f "$tmp/$((n + 1)).sql" ]; do
  n=$((n + 1))
  base=$tmp/$n
  sql=$base.sql
  status=0
  (cd "$tmp" && "$shell" wh -table -c "$(cat "$sql")" > "$base.got" 2>&1) || status=$?
  if [ ! -f "$base.out" ] && [ "$status" -ne 0 ]; then
    echo "FAIL: block $n of $page ($(head -1 "$sql")) failed (a block without output shown must run):"
    cat "$base.got"
    exit 1
  fi
  if [ -f "$base.out" ]; then
    if ! diff -u "$base.out" "$base.got" > "$base.diff"; then
      echo "FAIL: block $n of $page ($(head -1 "$sql")): the output differs (- the page, + the program):"
      cat "$base.diff"
      exit 1
    fi
  fi
done
[ "$n" -gt 0 ] || { echo "FAIL: no sql blocks in $page"; exit 1; }
echo "ok   $n sql blocks of $(basename "$page") ran as the page shows"
echo "1 passed, 0 failed"
