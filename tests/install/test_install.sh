#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `cmake --install` into a scratch prefix, then, as a user would: the files are where they
# belong, the example programs of docs/api.md compile with pkg-config against the installed
# copy and prints what the doc says, and the man page names every option of --help and every
# dot-command of .help (so it cannot drift from the program).
# Usage: test_install.sh BUILD_DIR SOURCE_DIR C_COMPILER [EXTRA_CFLAGS]
set -eu
build=$1
src=$2
cc=$3
extra=${4:-}
prefix=$(mktemp -d "${TMPDIR:-/tmp}/dl_install_XXXXXX")
trap 'rm -rf "$prefix"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cmake --install "$build" --prefix "$prefix" > "$prefix/install.log" || fail "cmake --install: $(cat "$prefix/install.log")"
pc=$(find "$prefix" -name deltalite.pc)
[ -n "$pc" ] || fail "no deltalite.pc installed"
libdir=$(dirname "$(dirname "$pc")")
for f in bin/deltalite include/deltalite.h share/man/man1/deltalite.1; do
  [ -e "$prefix/$f" ] || fail "$f is not installed"
done
[ -e "$libdir/libdeltalite.so" ] || fail "libdeltalite.so is not installed in $libdir"
echo "ok   installed: bin/deltalite, $(basename "$libdir")/libdeltalite.so, include/deltalite.h, the man page, deltalite.pc"

# The example of docs/api.md, extracted from the block after its marker.
awk '/<!-- example: hello.c/ {found=1; next} found && /^```c/ {inside=1; next} inside && /^```/ {exit} inside {print}' \
  "$src/docs/api.md" > "$prefix/hello.c"
[ -s "$prefix/hello.c" ] || fail "no hello.c example in docs/api.md"
flags=$(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags --libs deltalite)
# shellcheck disable=SC2086
"$cc" -std=c11 -Wall -Werror $extra "$prefix/hello.c" $flags -o "$prefix/hello" || fail "the example does not compile with: $flags"
got=$(cd "$prefix" && LD_LIBRARY_PATH="$libdir" ./hello)
[ "$got" = "hello 5" ] || fail "the example printed '$got', the doc says 'hello 5'"
echo "ok   docs/api.md's example compiles with pkg-config and prints hello 5"

# The prepared-statement example, the same way.
awk '/<!-- example: prepare.c/ {found=1; next} found && /^```c/ {inside=1; next} inside && /^```/ {exit} inside {print}' \
  "$src/docs/api.md" > "$prefix/prepare.c"
[ -s "$prefix/prepare.c" ] || fail "no prepare.c example in docs/api.md"
# shellcheck disable=SC2086
"$cc" -std=c11 -Wall -Werror $extra "$prefix/prepare.c" $flags -o "$prefix/prepare" || fail "the prepare.c example does not compile with: $flags"
got=$(cd "$prefix" && LD_LIBRARY_PATH="$libdir" ./prepare | tr '\n' ' ')
[ "$got" = "2 bob 3 cy " ] || fail "the prepare.c example printed '$got', the doc says '2 bob' and '3 cy'"
echo "ok   docs/api.md's prepared-statement example compiles and prints 2 bob, 3 cy"

man_page="$src/docs/deltalite.1"
for opt in $("$prefix/bin/deltalite" --help | grep -oE '^  -[a-z-]+|, -[a-z-]+|^  --[a-z-]+' | tr -d ', '); do
  escaped=$(printf '%s' "$opt" | sed 's/-/\\\\-/g')
  grep -q -- "$escaped" "$man_page" || fail "the man page does not mention the option $opt"
done
for cmd in $(printf '.help\n' | "$prefix/bin/deltalite" "$prefix" | grep -oE '^\.[a-z]+(, \.[a-z]+)?' | tr -d ','); do
  grep -q -- "$cmd" "$man_page" || fail "the man page does not mention $cmd"
  grep -q -- "\`$cmd" "$src/docs/shell.md" || fail "docs/shell.md does not mention $cmd"
done
echo "ok   the man page names every option and dot-command, docs/shell.md every dot-command"
echo "4 passed, 0 failed"
