#!/usr/bin/env python3
"""Reading a whole Delta table into Arrow from Python (issue 18): deltalite's
con.sql("SELECT * FROM t").arrow() against delta-rs's DeltaTable(p).to_pyarrow_table() and
DuckDB's delta_scan(...).arrow(), in the same run on the same table, and against the C API alone
(deltalite_query_arrow's stream read batch by batch through ctypes, no Python objects), which
is the cost the Python layer adds to.

    bench/python/run [--rows N] [--runs N]

The table (10 M rows by default, the columns of bench/README.md's sales table) is written once
by deltalite into bench/data/python/ and reused. Each round runs the four sides one after the
other, in an order rotated every round; the table shows medians and ratios to deltalite."""

import argparse
import ctypes
import os
import pathlib
import statistics
import sys
import time

import deltalake
import duckdb
import duckdb_extension_delta
import pyarrow as pa

import deltalite

ROOT = pathlib.Path(__file__).resolve().parents[2]


def make_table(path: pathlib.Path, rows: int) -> None:
    if (path / "_delta_log").is_dir():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    print(f"writing {rows:,} rows to {path} ...", file=sys.stderr)
    with deltalite.connect(path.parent) as con:
        con.sql(f"""CREATE TABLE delta.`{path}` USING delta AS SELECT id + 1 AS id,
            concat('category_', CAST(id % 20 AS STRING)) AS category,
            element_at(array('north', 'south', 'east', 'west', 'central'), CAST(id % 5 AS INT) + 1) AS region,
            CAST((id * 7919) % 1000000 AS DOUBLE) / 100 AS amount, CAST(id % 20 + 1 AS INT) AS qty,
            timestamp_micros(1672531200000000 + id * 6307200) AS ts, (id * 31) % 1000000 + 1 AS customer_id
            FROM range(0, {rows})""")


def side_deltalite(path):
    with deltalite.connect(path.parent, create=False) as con:
        t = con.sql(f"SELECT * FROM delta.`{path}`").arrow()
        return t.num_rows


def side_delta_rs(path):
    return deltalake.DeltaTable(str(path)).to_pyarrow_table().num_rows


def side_duckdb(path):
    con = duckdb.connect(config={"autoinstall_known_extensions": False, "autoload_known_extensions": False})
    folder = pathlib.Path(duckdb_extension_delta.__file__).parent / "extensions" / f"v{duckdb.__version__}"
    con.load_extension(str(folder / "delta.duckdb_extension"))
    n = con.sql(f"SELECT * FROM delta_scan('{path}')").arrow()
    n = n.num_rows if hasattr(n, "num_rows") else n.read_all().num_rows
    con.close()
    return n


class _Stream(ctypes.Structure):
    pass


class _Array(ctypes.Structure):
    _fields_ = [("length", ctypes.c_int64), ("null_count", ctypes.c_int64), ("offset", ctypes.c_int64),
                ("n_buffers", ctypes.c_int64), ("n_children", ctypes.c_int64), ("buffers", ctypes.c_void_p),
                ("children", ctypes.c_void_p), ("dictionary", ctypes.c_void_p),
                ("release", ctypes.CFUNCTYPE(None, ctypes.c_void_p)), ("private_data", ctypes.c_void_p)]


_Stream._fields_ = [("get_schema", ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)),
                    ("get_next", ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(_Array))),
                    ("get_last_error", ctypes.CFUNCTYPE(ctypes.c_char_p, ctypes.c_void_p)),
                    ("release", ctypes.CFUNCTYPE(None, ctypes.c_void_p)), ("private_data", ctypes.c_void_p)]


def side_c_api(path, keep=False, lib=[]):
    """The C library's stream, batch by batch: each array released after counting its rows, or
    (keep) all kept until the end, as a materialised table keeps them (the engine then cannot
    reuse a batch's buffers for the next one)."""
    if not lib:
        so = ROOT / "build" / "release" / "src" / "api" / "libdeltalite.so"
        if not so.is_file():
            raise SystemExit(f"{so} is missing: cmake --preset release && cmake --build --preset release --target src/api/libdeltalite.so")
        lib.append(ctypes.CDLL(str(so)))
    c = lib[0]
    db = ctypes.c_void_p()
    if c.deltalite_open(str(path.parent).encode(), None, ctypes.byref(db)) != 0:
        raise RuntimeError("deltalite_open failed")
    stream = _Stream()
    sql = f"SELECT * FROM delta.`{path}`".encode()
    if c.deltalite_query_arrow(db, sql, ctypes.byref(stream)) != 0:
        raise RuntimeError("deltalite_query_arrow failed")
    rows = 0
    kept = []
    while True:
        arr = _Array()
        if stream.get_next(ctypes.addressof(stream), ctypes.byref(arr)) != 0:
            raise RuntimeError(stream.get_last_error(ctypes.addressof(stream)))
        if not arr.release:
            break
        rows += arr.length
        if keep:
            kept.append(arr)
        else:
            arr.release(ctypes.addressof(arr))
    for arr in kept:
        arr.release(ctypes.addressof(arr))
    stream.release(ctypes.addressof(stream))
    c.deltalite_close(db)
    return rows


SIDES = [("deltalite .arrow()", side_deltalite), ("C API stream, arrays kept", lambda p: side_c_api(p, True)),
         ("C API stream, each released", side_c_api),
         ("delta-rs to_pyarrow_table", side_delta_rs), ("DuckDB delta_scan .arrow()", side_duckdb)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--dir", default=str(ROOT / "bench" / "data" / "python"))
    args = ap.parse_args()
    path = pathlib.Path(args.dir) / f"sales_{args.rows}"
    make_table(path, args.rows)
    times = {name: [] for name, _ in SIDES}
    for name, fn in SIDES:  # warm-up: file cache, lazy loading
        assert fn(path) == args.rows, name
    for r in range(args.runs):
        order = SIDES[r % len(SIDES):] + SIDES[:r % len(SIDES)]
        for name, fn in order:
            t0 = time.perf_counter()
            n = fn(path)
            times[name].append(time.perf_counter() - t0)
            assert n == args.rows, (name, n)
    base = statistics.median(times[SIDES[0][0]])
    print(f"{args.rows:,} rows x 7 columns, {args.runs} runs, load {os.getloadavg()[0]:.1f}, "
          f"pyarrow {pa.__version__}, deltalake {deltalake.__version__}, duckdb {duckdb.__version__}")
    print(f"| {'side':28} | median s | min s | deltalite / side |")
    print(f"| {'-' * 28} | -------- | ----- | ---------------- |")
    for name, _ in SIDES:
        med = statistics.median(times[name])
        print(f"| {name:28} | {med:8.3f} | {min(times[name]):5.3f} | {base / med:16.2f} |")


if __name__ == "__main__":
    main()
