"""A one-row DELETE and UPDATE on a large Delta table: deltalite with deletion vectors
(delta.enableDeletionVectors = true: rows are marked, no data file rewritten), deltalite
copy-on-write (the same table without the property: the file holding the row is rewritten),
and delta-rs (python deltalake, which rewrites the file). Each run is one statement on its
own copy of the table history; the figures are the median wall time of the statement (the
deltalite shell process from start to exit, which opens the table; delta-rs: DeltaTable()
then delete/update, in process) and the bytes it wrote (new files under the table folder,
the log included).

usage: python dml_dv.py --shell build/release/deltalite [--rows 20000000] [--file-rows 5000000]
       [--runs 3] [--dir /tmp/dl_bench_dml_dv] [--no-deltars]
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time


def files_of(root):
    out = {}
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            out[path] = os.path.getsize(path)
    return out


def written(before, after):
    return sum(size for path, size in after.items() if before.get(path) != size)


def shell(args, warehouse, sql):
    env = dict(os.environ, TZ="UTC")
    done = subprocess.run([args.shell, "-bail", str(warehouse), "-c", sql], capture_output=True,
                          text=True, env=env, timeout=3600)
    if done.returncode != 0:
        sys.exit(f"deltalite failed: {sql}\n{done.stderr}")
    return done.stdout


def build_base(args):
    base = os.path.join(args.dir, "base")
    stamp = os.path.join(base, f".rows_{args.rows}_{args.file_rows}")
    if os.path.exists(stamp):
        return base
    shutil.rmtree(base, ignore_errors=True)
    os.makedirs(base)
    t0 = time.time()
    shell(args, base, "CREATE TABLE t (id BIGINT, k INT, s STRING, d DOUBLE) USING DELTA")
    shell(args, base, f"SET spark.sql.files.maxRecordsPerFile = {args.file_rows}; "
                      f"INSERT INTO t SELECT id, CAST(id % 1000 AS INT), concat('row-', CAST(id AS STRING)), "
                      f"id / 8.0D FROM range(0, {args.rows})")
    open(stamp, "w").close()
    print(f"built {args.rows:,} rows in {time.time() - t0:.0f} s: "
          f"{sum(files_of(os.path.join(base, 't')).values()) / 1e6:.0f} MB", flush=True)
    return base


def copy_table(args, base, name, with_dv):
    warehouse = os.path.join(args.dir, name)
    shutil.rmtree(warehouse, ignore_errors=True)
    shutil.copytree(base, warehouse)
    if with_dv:
        shell(args, warehouse, "ALTER TABLE t SET TBLPROPERTIES ('delta.enableDeletionVectors' = 'true')")
    return warehouse


STATEMENTS = {
    "DELETE": "DELETE FROM t WHERE id = {id}",
    "UPDATE": "UPDATE t SET s = 'updated', d = -1.0D WHERE id = {id}",
}


def run_deltalite(args, base, kind, with_dv):
    times, sizes = [], []
    for r in range(args.runs):
        warehouse = copy_table(args, base, f"dl_{'dv' if with_dv else 'cow'}", with_dv)
        table = os.path.join(warehouse, "t")
        before = files_of(table)
        row = (r * 7919 + 12345) % args.rows
        t0 = time.perf_counter()
        shell(args, warehouse, STATEMENTS[kind].format(id=row))
        times.append(time.perf_counter() - t0)
        sizes.append(written(before, files_of(table)))
    return statistics.median(times), statistics.median(sizes)


def run_deltars(args, base, kind):
    import deltalake

    times, sizes = [], []
    for r in range(args.runs):
        warehouse = copy_table(args, base, "deltars", False)
        table = os.path.join(warehouse, "t")
        before = files_of(table)
        row = (r * 7919 + 12345) % args.rows
        t0 = time.perf_counter()
        dt = deltalake.DeltaTable(table)
        if kind == "DELETE":
            dt.delete(f"id = {row}")
        else:
            dt.update(predicate=f"id = {row}", updates={"s": "'updated'", "d": "-1.0"})
        times.append(time.perf_counter() - t0)
        sizes.append(written(before, files_of(table)))
    return statistics.median(times), statistics.median(sizes)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shell", required=True)
    ap.add_argument("--rows", type=int, default=20_000_000)
    ap.add_argument("--file-rows", type=int, default=5_000_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--dir", default="/tmp/dl_bench_dml_dv")
    ap.add_argument("--no-deltars", action="store_true")
    args = ap.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    base = build_base(args)
    print(f"{args.rows:,} rows in files of {args.file_rows:,} rows; median of {args.runs} runs, one statement each")
    print(f"{'statement':10} {'engine':28} {'time':>10} {'bytes written':>16} {'time ratio':>11} {'bytes ratio':>12}")
    for kind in STATEMENTS:
        dv = run_deltalite(args, base, kind, True)
        rows = [("deltalite, deletion vectors", dv), ("deltalite, copy-on-write", run_deltalite(args, base, kind, False))]
        if not args.no_deltars:
            rows.append(("delta-rs 1.6 (copy-on-write)", run_deltars(args, base, kind)))
        for name, (secs, size) in rows:
            print(f"{kind:10} {name:28} {secs * 1000:8.0f} ms {size:16,} {secs / dv[0]:10.1f}x {size / max(dv[1], 1):11.0f}x",
                  flush=True)
    for name in ("dl_dv", "dl_cow", "deltars"):
        shutil.rmtree(os.path.join(args.dir, name), ignore_errors=True)


if __name__ == "__main__":
    main()
