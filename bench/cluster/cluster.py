"""Data skipping bought by clustering: a point query on two columns of a table of random rows,
before OPTIMIZE (files in insertion order, each spanning every value), after OPTIMIZE ZORDER BY
(x, y), and on a liquid-clustered copy (CLUSTER BY (x, y), then OPTIMIZE). For each: the
fraction of files whose min/max statistics may hold the point (what a scan reads; replayed from
the log), deltalite's query time (the shell process: start, open, query, exit; median), and the
same query timed in delta-rs (QueryBuilder, in process) and DuckDB's delta extension.

usage: python cluster.py --shell build/release/deltalite [--rows 10000000] [--files 100]
       [--runs 3] [--dir /tmp/dl_bench_cluster] [--no-peers]
"""

import argparse
import json
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import time


def shell(args, sql, json_out=False):
    cmd = [args.shell, "-bail"] + (["-json"] if json_out else []) + [str(args.dir), "-c", sql]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=7200, env=dict(os.environ, TZ="UTC"))
    if done.returncode != 0:
        sys.exit(f"deltalite failed: {done.stderr}{done.stdout}")
    return done.stdout


def live_files(path):
    live = {}
    for log in sorted((path / "_delta_log").glob("*.json")):
        for line in log.read_text().splitlines():
            action = json.loads(line)
            if "add" in action:
                live[action["add"]["path"]] = json.loads(action["add"]["stats"])
            elif "remove" in action:
                live.pop(action["remove"]["path"], None)
    return live


def may_hold(stats, point):
    lo, hi = stats["minValues"], stats["maxValues"]
    return all(k in lo and lo[k] <= v <= hi[k] for k, v in point.items())


def timed(fn, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shell", required=True)
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--files", type=int, default=100)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--dir", type=pathlib.Path, default=pathlib.Path("/tmp/dl_bench_cluster"))
    ap.add_argument("--no-peers", action="store_true")
    args = ap.parse_args()
    shutil.rmtree(args.dir, ignore_errors=True)
    args.dir.mkdir(parents=True)
    per_file = args.rows // args.files
    gen = (f"SELECT id, CAST(pmod(hash(id, 1), 1000000) AS INT) AS x, CAST(pmod(hash(id, 2), 1000000) AS INT) AS y, "
           f"CAST(pmod(hash(id, 3), 100000) AS DOUBLE) / 100 AS v FROM range(0, {args.rows}) AS r(id)")
    start = time.perf_counter()
    shell(args, f"SET spark.sql.files.maxRecordsPerFile = {per_file}; CREATE TABLE base USING DELTA AS {gen}")
    print(f"generated {args.rows:,} rows in {args.files} files: {time.perf_counter() - start:.1f} s", flush=True)
    size = sum(f.stat().st_size for f in (args.dir / "base").glob("*.parquet"))
    target = max(size // args.files, 1 << 16)
    point = json.loads(shell(args, "SELECT x, y FROM base WHERE id = 4242", json_out=True))[0]
    setup = {
        "zorder": f"CREATE TABLE zorder DEEP CLONE base; SET spark.databricks.delta.optimize.maxFileSize = {target}; "
                  "OPTIMIZE zorder ZORDER BY (x, y)",
        "liquid": f"SET spark.sql.files.maxRecordsPerFile = {per_file}; "
                  "CREATE TABLE liquid (id BIGINT, x INT, y INT, v DOUBLE) USING DELTA CLUSTER BY (x, y); "
                  f"INSERT INTO liquid SELECT * FROM base; SET spark.databricks.delta.optimize.maxFileSize = {target}; "
                  "OPTIMIZE liquid",
    }
    for name, sql in setup.items():
        start = time.perf_counter()
        shell(args, sql)
        print(f"{name}: OPTIMIZE and setup {time.perf_counter() - start:.1f} s", flush=True)
    query = f"SELECT count(*) AS n, sum(v) AS s FROM {{t}} WHERE x = {point['x']} AND y = {point['y']}"
    peers = None
    if not args.no_peers:
        sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tests" / "interop"))
        import deltalake
        import engines
        peers = {"delta-rs": deltalake, "duckdb": engines.duckdb_connect()}
    print(f"point x={point['x']} y={point['y']}; load {os.getloadavg()[0]:.1f}")
    print("| table | files | files that may hold the point | deltalite | delta-rs | DuckDB |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name in ("base", "zorder", "liquid"):
        path = args.dir / name
        live = live_files(path)
        hit = sum(may_hold(s, point) for s in live.values())
        secs, out = timed(lambda: shell(args, query.format(t=name), json_out=True), args.runs)
        row = [name, str(len(live)), f"{hit} ({100.0 * hit / len(live):.1f} %)", f"{secs * 1000:.0f} ms"]
        if peers is not None:
            sql = query.format(t="t")
            qb = lambda: peers["delta-rs"].QueryBuilder().register("t", peers["delta-rs"].DeltaTable(str(path))).execute(sql).read_all()
            rs, _ = timed(qb, args.runs)
            con = peers["duckdb"]
            dk, _ = timed(lambda: con.sql(query.format(t=f"delta_scan('{path}')")).fetchall(), args.runs)
            row += [f"{rs * 1000:.0f} ms", f"{dk * 1000:.0f} ms"]
        else:
            row += ["-", "-"]
        print("| " + " | ".join(row) + " |  " + out.strip().replace("\n", ""), flush=True)


if __name__ == "__main__":
    main()
