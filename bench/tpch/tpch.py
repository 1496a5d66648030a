# SPDX-License-Identifier: Apache-2.0
"""TPC-H against DuckDB (bench/tpch/README.md). Run through bench/tpch/run, which makes the venv.

Generates the data once per scale (DuckDB's tpch extension from its PyPI package, each table to
Parquet, then to a Delta table by deltalite's own CREATE TABLE AS SELECT), then runs each query
on both sides alternately (deltalite: dl_bench_sql over the Delta tables; DuckDB:
duckdb_peer.py over the Parquet files), each run a fresh process under dl_bench_measure (wall
time and peak RSS), compares the answers as multisets and prints the table. Every figure also
goes to bench/data/results/tpch-<date>.json.
"""
import argparse
import datetime
import decimal
import glob
import json
import math
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(REPO, "bench", "data")
TABLES = ("customer", "lineitem", "nation", "orders", "part", "partsupp", "region", "supplier")
GEN_VERSION = 1  # bump when the way the data is made changes: the cache is then remade


def log(msg):
    print(f"tpch: {msg}", file=sys.stderr, flush=True)


def tpch_extension():
    """The path of the tpch extension shipped in the duckdb-extension-tpch package."""
    import duckdb
    import duckdb_extension_tpch
    pattern = os.path.join(os.path.dirname(duckdb_extension_tpch.__file__), "extensions",
                           "v" + duckdb.__version__, "tpch.duckdb_extension")
    found = glob.glob(pattern)
    if not found:
        sys.exit(f"tpch: the tpch extension for DuckDB {duckdb.__version__} is not in the "
                 f"duckdb-extension-tpch package ({pattern}); reinstall the venv: remove "
                 f"~/.cache/deltalite/bench/venv and run bench/tpch/run again")
    return found[0]


def make_parquet(sf, out_dir):
    import duckdb
    os.makedirs(out_dir, exist_ok=True)
    con = duckdb.connect(":memory:")
    con.execute(f"LOAD '{tpch_extension()}'")
    t0 = time.monotonic()
    con.execute(f"CALL dbgen(sf={sf})")
    rows = {}
    for t in TABLES:
        path = os.path.join(out_dir, t + ".parquet")
        con.execute(f"COPY {t} TO '{path}' (FORMAT parquet, COMPRESSION snappy)")
        rows[t] = con.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
    log(f"sf {sf}: dbgen and Parquet in {time.monotonic() - t0:.1f} s: {rows}")
    return {"duckdb": duckdb.__version__, "rows": rows}


def make_delta(shell, parquet_dir, warehouse, rows):
    if os.path.exists(warehouse):
        shutil.rmtree(warehouse)
    os.makedirs(warehouse)
    for t in TABLES:
        t0 = time.monotonic()
        src = os.path.join(parquet_dir, t + ".parquet")
        sql = (f"CREATE TABLE {t} AS SELECT * FROM read_parquet('{src}');"
               f" SELECT count(*) FROM {t};")
        r = subprocess.run([shell, warehouse, "-bail", "-csv", "-c", sql], capture_output=True,
                           text=True)
        count = r.stdout.strip().splitlines()[-1] if r.returncode == 0 and r.stdout.strip() else ""
        if r.returncode != 0 or count != str(rows[t]):
            sys.exit(f"tpch: writing the Delta table {t} with deltalite failed (exit "
                     f"{r.returncode}, count {count!r}, expected {rows[t]}):\n{r.stderr}")
        log(f"Delta table {t}: {rows[t]} rows in {time.monotonic() - t0:.1f} s")


def ensure_data(sf, shell):
    """bench/data/tpch_sf<S>/{parquet,delta}, made once; remade when the manifest does not match."""
    import duckdb
    base = os.path.join(DATA, f"tpch_sf{sf:g}")
    manifest_path = os.path.join(base, "manifest.json")
    want = {"gen_version": GEN_VERSION, "duckdb": duckdb.__version__, "sf": sf}
    try:
        with open(manifest_path, encoding="utf-8") as f:
            manifest = json.load(f)
        if all(manifest.get(k) == v for k, v in want.items()) and manifest.get("delta"):
            return base
    except (OSError, ValueError):
        pass
    log(f"generating TPC-H at scale factor {sf} into {base}")
    if os.path.exists(manifest_path):
        os.remove(manifest_path)
    info = make_parquet(sf, os.path.join(base, "parquet"))
    make_delta(shell, os.path.join(base, "parquet"), os.path.join(base, "delta"), info["rows"])
    with open(manifest_path, "w", encoding="utf-8") as f:
        json.dump({**want, "rows": info["rows"], "delta": True}, f, indent=1)
    return base


# ---- answers ---------------------------------------------------------------------------------

def read_rows(path):
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n").split("\t") for line in f]


def as_number(s):
    try:
        x = float(s)
    except ValueError:
        return None
    return x if math.isfinite(x) else None


def frac_digits(s):
    """Digits after the point of a number's text; None for exponent notation (a double)."""
    if "e" in s.lower():
        return None
    return len(s) - s.index(".") - 1 if "." in s else 0


def same_value(a, b):
    """Equal as text, or as numbers: two plain decimal texts exactly when they have as many
    digits after the point, else to the precision of the shorter one (an average as
    DECIMAL(.., 6) on one side and as DOUBLE on the other agree when the double rounds to the
    decimal); a number in exponent notation (a double) to 1e-14 relative."""
    if a == b:
        return True
    x, y = as_number(a), as_number(b)
    if x is None or y is None:
        return False
    da, db = frac_digits(a), frac_digits(b)
    if da is None or db is None:
        return abs(x - y) <= 1e-14 * max(abs(x), abs(y))
    diff = abs(decimal.Decimal(a) - decimal.Decimal(b))
    return diff == 0 or (da != db and min(da, db) > 0 and diff <= decimal.Decimal(5).scaleb(-min(da, db) - 1))


def sort_key(row):
    return [("0", round(n, 3)) if (n := as_number(v)) is not None else ("1", v) for v in row]


def compare(dl_rows, peer_rows):
    """None when the answers agree as multisets, else the first difference in words."""
    if len(dl_rows) != len(peer_rows):
        return f"{len(dl_rows)} rows, DuckDB {len(peer_rows)}"

    def first_diff(xs, ys):
        for i, (r1, r2) in enumerate(zip(xs, ys)):
            if len(r1) != len(r2) or not all(same_value(a, b) for a, b in zip(r1, r2)):
                return f"row {i + 1}: deltalite {r1} DuckDB {r2}"
        return None

    if first_diff(dl_rows, peer_rows) is None:
        return None
    return first_diff(sorted(dl_rows, key=sort_key), sorted(peer_rows, key=sort_key))


# ---- running -----------------------------------------------------------------------------------

def run_once(argv, timeout, tmp):
    """One run under dl_bench_measure: {seconds, rss_kb} or {error}."""
    report = os.path.join(tmp, "measure.txt")
    if os.path.exists(report):
        os.remove(report)
    t0 = time.monotonic()
    p = subprocess.Popen(argv[:1] + ["-o", report, "--"] + argv[1:], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        return {"error": "timeout", "seconds": time.monotonic() - t0}
    measured = {}
    if os.path.exists(report):
        with open(report, encoding="utf-8") as f:
            measured = dict(kv.split("=", 1) for kv in f.read().split() if "=" in kv)
    result = [ln for ln in out.splitlines() if ln.startswith("RESULT ")]
    if p.returncode != 0 or not result:
        msg = err.strip().splitlines()
        return {"error": "failed (exit %s): %s" % (p.returncode, " / ".join(msg[-3:]) or "no output")}
    keys = dict(kv.split("=", 1) for kv in result[-1].split()[1:])
    return {"seconds": float(keys["seconds"]), "rows": int(keys["rows"]),
            "rss_kb": int(measured.get("max_rss_kb", 0))}


def bench_query(q, o, sides, tmp):
    """Warm-up and measured rounds of one query, both sides alternately; a side that fails or
    times out is not run again for this query."""
    res = {name: {"runs": [], "rss_kb": [], "error": None} for name in sides}
    for rnd in range(o.warmup + o.runs):
        order = list(sides) if rnd % 2 == 0 else list(reversed(sides))
        for name in order:
            side = res[name]
            if side["error"]:
                continue
            r = run_once(sides[name](q), o.timeout, tmp)
            if "error" in r:
                side["error"] = r["error"]
                continue
            if rnd >= o.warmup:
                side["runs"].append(r["seconds"])
                side["rss_kb"].append(r["rss_kb"])
    return res


def fmt_s(x):
    return "-" if x is None else (f"{x:.3f}" if x >= 0.1 else f"{x:.4f}")


def main():
    ap = argparse.ArgumentParser(prog="bench/tpch/run")
    ap.add_argument("--scale", type=float, default=0.1)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=300.0)
    ap.add_argument("--only", default="", help="queries, e.g. 1,5,q18")
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--build", default=os.path.join(REPO, "build", "release"))
    o = ap.parse_args()
    build = os.path.abspath(o.build)
    shell = os.path.join(build, "deltalite")
    dl_sql = os.path.join(build, "bench", "dl_bench_sql")
    measure = os.path.join(build, "bench", "dl_bench_measure")
    for p in (shell, dl_sql, measure):
        if not os.path.exists(p):
            sys.exit(f"tpch: {p} is missing: build the targets deltalite and dl_bench in {build}")
    cache = open(os.path.join(build, "CMakeCache.txt"), encoding="utf-8").read()
    build_type = next((ln.split("=", 1)[1] for ln in cache.splitlines()
                       if ln.startswith("CMAKE_BUILD_TYPE:")), "?")
    queries = sorted(glob.glob(os.path.join(HERE, "queries", "q[0-9][0-9].sql")))
    if o.only:
        wanted = {f"q{int(x.strip().lstrip('qQ')):02d}" for x in o.only.split(",")}
        queries = [q for q in queries if os.path.basename(q)[:3] in wanted]
    base = ensure_data(o.scale, shell)
    tmp = os.path.join(DATA, "tmp", f"tpch_{os.getpid()}")
    os.makedirs(tmp, exist_ok=True)
    threads = ["--threads", str(o.threads)] if o.threads > 0 else []
    py = sys.executable
    sides = {
        "deltalite": lambda q: [measure, dl_sql, os.path.join(base, "delta"), q, *threads,
                                "--out", os.path.join(tmp, "deltalite.tsv")],
        "duckdb": lambda q: [measure, py, os.path.join(HERE, "duckdb_peer.py"),
                             os.path.join(base, "parquet"), q, *threads,
                             "--out", os.path.join(tmp, "duckdb.tsv")],
    }
    load0 = os.getloadavg()
    started = datetime.datetime.now(datetime.timezone.utc)
    import duckdb
    log(f"scale {o.scale:g}, {len(queries)} queries, {o.warmup} warm-up + {o.runs} runs per side, "
        f"timeout {o.timeout:g} s, deltalite {build_type} in {build}, DuckDB {duckdb.__version__}, "
        f"load {load0[0]:.1f}")
    rows_out = []
    for q in queries:
        name = os.path.basename(q)[:3]
        res = bench_query(q, o, sides, tmp)
        row = {"query": name}
        for side in sides:
            r = res[side]
            row[side] = {"median_s": statistics.median(r["runs"]) if r["runs"] else None,
                         "runs_s": r["runs"],
                         "rss_mb": max(r["rss_kb"]) / 1024 if r["rss_kb"] else None,
                         "error": r["error"]}
        dl, pe = row["deltalite"], row["duckdb"]
        if dl["error"] or pe["error"]:
            row["answer"] = "-"
        else:
            diff = compare(read_rows(os.path.join(tmp, "deltalite.tsv")),
                           read_rows(os.path.join(tmp, "duckdb.tsv")))
            row["answer"] = "same" if diff is None else "DIFFERENT"
            row["difference"] = diff
            if diff:
                log(f"{name}: ANSWERS DIFFER: {diff}")
        row["ratio"] = (dl["median_s"] / pe["median_s"]
                        if dl["median_s"] is not None and pe["median_s"] else None)
        rows_out.append(row)
        log(f"{name}: deltalite {fmt_s(dl['median_s'])} s {dl['error'] or ''} DuckDB "
            f"{fmt_s(pe['median_s'])} s {pe['error'] or ''} answer {row['answer']}")
    print_table(rows_out, o, build_type, load0, started)
    save(rows_out, o, build_type, load0, started)
    shutil.rmtree(tmp, ignore_errors=True)
    return 1 if any(r["answer"] == "DIFFERENT" for r in rows_out) else 0


def print_table(rows, o, build_type, load0, started):
    head = ["query", "deltalite s", "DuckDB s", "ratio", "deltalite MB", "DuckDB MB", "answer"]
    lines = []
    for r in rows:
        dl, pe = r["deltalite"], r["duckdb"]
        def cell(side):
            if side["error"] == "timeout":
                return f"timeout {o.timeout:g}"
            return "failed" if side["error"] else fmt_s(side["median_s"])
        lines.append([r["query"], cell(dl), cell(pe),
                      "-" if r["ratio"] is None else f"{r['ratio']:.2f}",
                      "-" if dl["rss_mb"] is None else f"{dl['rss_mb']:.0f}",
                      "-" if pe["rss_mb"] is None else f"{pe['rss_mb']:.0f}", r["answer"]])
    widths = [max(len(h), *(len(l[i]) for l in lines)) for i, h in enumerate(head)]
    print("| " + " | ".join(h.ljust(w) for h, w in zip(head, widths)) + " |")
    print("|" + "|".join(":" + "-" * (w + 1) if i == 0 else "-" * (w + 1) + ":"
                         for i, w in enumerate(widths)) + "|")
    for l in lines:
        print("| " + " | ".join(c.ljust(w) if i == 0 else c.rjust(w)
                                for i, (c, w) in enumerate(zip(l, widths))) + " |")
    ratios = [r["ratio"] for r in rows if r["ratio"]]
    geo = math.exp(sum(math.log(x) for x in ratios) / len(ratios)) if ratios else None
    load1 = os.getloadavg()
    print(f"\nscale factor {o.scale:g}; median of {o.runs} runs after {o.warmup} warm-up; "
          f"deltalite {build_type}; {len(ratios)} of {len(rows)} queries finished on both sides; "
          f"geometric mean of their ratios: {'-' if geo is None else f'{geo:.2f}'}")
    print(f"load average {load0[0]:.1f} at the start, {load1[0]:.1f} at the end; "
          f"{started:%Y-%m-%d %H:%M} UTC, {(datetime.datetime.now(datetime.timezone.utc) - started).total_seconds():.0f} s")
    bad = [r["query"] for r in rows if r["answer"] == "DIFFERENT"]
    for r in rows:
        for side in ("deltalite", "duckdb"):
            if r[side]["error"]:
                print(f"{r['query']} {side}: {r[side]['error']}")
    if bad:
        print(f"ANSWERS DIFFER: {', '.join(bad)}")
        for r in rows:
            if r["answer"] == "DIFFERENT":
                print(f"  {r['query']}: {r['difference']}")


def save(rows, o, build_type, load0, started):
    out_dir = os.path.join(DATA, "results")
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, f"tpch-{started:%Y%m%dT%H%M%S}.json")
    import duckdb
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"scale": o.scale, "runs": o.runs, "warmup": o.warmup, "timeout": o.timeout,
                   "build_type": build_type, "duckdb": duckdb.__version__,
                   "machine": {"cpus": os.cpu_count(), "platform": platform.platform(),
                               "load_start": load0, "load_end": os.getloadavg()},
                   "started": started.isoformat(), "queries": rows}, f, indent=1)
    log(f"figures saved in {path}")


if __name__ == "__main__":
    sys.exit(main())
