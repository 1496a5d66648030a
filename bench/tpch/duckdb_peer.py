# SPDX-License-Identifier: Apache-2.0
"""The TPC-H bench's peer: one query in DuckDB over the Parquet files (bench/tpch/README.md).

usage: python duckdb_peer.py PARQUET_DIR QUERY.sql --out FILE [--threads N]

Makes a view per TPC-H table over PARQUET_DIR/<table>.parquet in an in-memory DuckDB (default
thread count: all cores, as a user gets), runs QUERY.sql (or QUERY.duckdb.sql beside it, DuckDB's
spelling, when that file exists), fetches every row and writes the rows to FILE in the format of
dl_bench_sql --out: one line a row, values separated by tabs, NULL as \\N, with tab, newline and
backslash escaped. Timed: execute and fetch (not the instance, the views, or writing FILE).
Prints `RESULT seconds=<s> rows=<n>` as its last line.
"""
import argparse
import datetime
import decimal
import os
import sys
import time

import duckdb

TABLES = ("customer", "lineitem", "nation", "orders", "part", "partsupp", "region", "supplier")


def text(value):
    """A value as the text dl_bench_sql writes for the same SQL value."""
    if value is None:
        return "\\N"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, decimal.Decimal):
        return format(value, "f")
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat(sep=" ") if isinstance(value, datetime.datetime) else value.isoformat()
    s = str(value)
    return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("parquet_dir")
    ap.add_argument("query")
    ap.add_argument("--out", required=True)
    ap.add_argument("--threads", type=int, default=0)
    a = ap.parse_args()
    query = a.query
    spelled = query[: -len(".sql")] + ".duckdb.sql"
    if os.path.exists(spelled):
        query = spelled
    with open(query, encoding="utf-8") as f:
        sql = f.read()
    con = duckdb.connect(":memory:")
    if a.threads > 0:
        con.execute(f"SET threads = {a.threads}")
    for t in TABLES:
        path = os.path.join(a.parquet_dir, t + ".parquet").replace("'", "''")
        con.execute(f"CREATE VIEW {t} AS SELECT * FROM read_parquet('{path}')")
    t0 = time.monotonic()
    rows = con.execute(sql).fetchall()
    seconds = time.monotonic() - t0
    with open(a.out, "w", encoding="utf-8") as f:
        for row in rows:
            f.write("\t".join(text(v) for v in row) + "\n")
    print(f"RESULT seconds={seconds:.6f} rows={len(rows)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
