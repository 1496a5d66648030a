# SPDX-License-Identifier: Apache-2.0
"""Differential check of read_csv against DuckDB's read_csv on generated files (not in ctest:
it needs the duckdb module; run it by hand with the interop venv's Python):

    python tests/sql/load/diff_duckdb.py build/release/deltalite [--files 50] [--seed 1]

Each file mixes quoted fields with separators, doubled quotes and line breaks (multiLine),
empty fields, unicode, CRLF and LF line ends (two columns or more: a blank line of a
one-column file is skipped by Spark and deltalite, a NULL row for DuckDB); both engines read it as
RFC 4180 (quote and escape '"', every column a string, an empty field NULL) and the rows must
be equal, in order.
"""
import json
import os
import random
import subprocess
import sys
import tempfile

import duckdb

ALPHABET = ["a", "b", "z", " ", ",", '"', "\n", "é", "日本", "x y", "0", "-1.5", ""]


def field(rnd):
    if rnd.random() < 0.15:
        return ""
    text = "".join(rnd.choice(ALPHABET) for _ in range(rnd.randrange(1, 6)))
    if text == "":
        return '""'
    if any(c in text for c in ',"\n') or text != text.strip() or rnd.random() < 0.3:
        return '"' + text.replace('"', '""') + '"'
    return text


def make_file(path, rnd):
    cols = rnd.randrange(2, 6)  # one column: DuckDB reads a blank line as NULL, Spark skips it
    eol = rnd.choice(["\n", "\r\n"])
    lines = [",".join(f"c{i}" for i in range(cols))]
    for _ in range(rnd.randrange(1, 40)):
        lines.append(",".join(field(rnd) for _ in range(cols)))
    with open(path, "w", newline="") as f:
        f.write(eol.join(lines) + eol)
    return cols


def ours(binary, path, cols):
    sql = (f"SELECT * FROM read_csv('{path}', header => true, multiLine => true, "
           f"escape => '\"')")
    out = subprocess.run([binary, "-json", "-c", sql], capture_output=True, text=True, check=True)
    rows = json.loads(out.stdout) if out.stdout.strip() else []
    return [tuple(r[f"c{i}"] for i in range(cols)) for r in rows]


def peer(path, cols):
    types = ", ".join(f"'c{i}': 'VARCHAR'" for i in range(cols))
    return duckdb.sql(f"SELECT * FROM read_csv('{path}', header = true, quote = '\"', "
                      f"escape = '\"', columns = {{{types}}}, strict_mode = true)").fetchall()


def main():
    binary = sys.argv[1]
    n = int(sys.argv[sys.argv.index("--files") + 1]) if "--files" in sys.argv else 50
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 1
    rnd = random.Random(seed)
    bad = 0
    with tempfile.TemporaryDirectory() as d:
        for k in range(n):
            path = os.path.join(d, f"f{k}.csv")
            cols = make_file(path, rnd)
            a, b = ours(binary, path, cols), peer(path, cols)
            if a != b:
                bad += 1
                print(f"file {k}: differ\n ours: {a[:5]}\n duckdb: {b[:5]}")
                print(open(path, newline="").read()[:400])
    print(f"{n} files, {bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
