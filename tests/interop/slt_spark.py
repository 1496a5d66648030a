"""The engine's sqllogictest files run in Spark and in deltalite (issue 14, part 5).

Each file's records are replayed in order on both engines: deltalite through its library on a
fresh warehouse, Spark in a fresh database with Delta as the default source. Every `query`
record is compared by result types and rows (as multisets, in engines.py's canonical form; the
column names are not compared), every `statement error` must fail in both. Records Spark cannot
run because they use what only deltalite has (delta_log(), deltalite settings, COPY, shell
commands) are counted as such, not compared; once a statement deltalite ran fails in Spark, the
rest of the file is skipped (its tables differ).

    ~/.cache/deltalite/interop/venv/bin/python tests/interop/slt_spark.py [FILE.test ...]
"""

import pathlib
import re
import sys
import tempfile
import time

import engines

ROOT = pathlib.Path(__file__).resolve().parents[2]
ERROR_CLASS = re.compile(r"\[([A-Z][A-Z0-9_]+(?:\.[A-Z0-9_]+)*)\]")
# What only deltalite has: such records are not run in Spark.
# (A query over DESCRIBE / SHOW output is deltalite's: Spark cannot select from them.)
DELTALITE_ONLY = re.compile(
    r"delta_log\(|\bCOPY\b|^\s*\.|deltalite\.|read_parquet\(|\bPRAGMA\b|\(\s*(DESCRIBE|SHOW)\b", re.I | re.M
)


def records(path):
    """(kind, sql, line) of a sqllogictest file: kind is 'ok', 'error' or 'query'."""
    lines = pathlib.Path(path).read_text().splitlines()
    i = 0
    while i < len(lines):
        head = lines[i].strip()
        start = i + 1
        if head.startswith("statement") or head.startswith("query"):
            kind = "query" if head.startswith("query") else ("error" if "error" in head else "ok")
            i += 1
            sql = []
            while i < len(lines) and lines[i].strip() and lines[i].strip() != "----":
                sql.append(lines[i])
                i += 1
            if kind == "error" and i < len(lines) and lines[i].strip() == "----":
                i += 1
                while i < len(lines) and lines[i].strip():
                    i += 1
            if kind == "query":
                while i < len(lines) and lines[i].strip():
                    i += 1
            yield kind, "\n".join(sql), start
        i += 1


def spark_class(exc):
    got = getattr(exc, "getCondition", lambda: None)()
    if got:
        return got
    m = ERROR_CLASS.search(str(exc))
    return m.group(1) if m else type(exc).__name__


def canon(table, types=None):
    """(column types, sorted canonical rows) of a pyarrow Table; types: Spark's, when given."""
    types = types or [engines.arrow_type_name(f.type) for f in table.schema]
    return tuple(types), engines.arrow_result(table)[1]


def run_file(spark, path, n, out=print):
    """Counts of one file: compared, agree, differ, skipped (deltalite only / after a Spark
    failure)."""
    counts = {"queries": 0, "statements": 0, "agree": 0, "differ": 0, "deltalite_only": 0, "skipped": 0}
    warehouse = pathlib.Path(tempfile.mkdtemp(prefix="dl_slt_"))
    db = engines.Deltalite(warehouse)
    database = f"slt_{n}"
    spark.sql(f"DROP DATABASE IF EXISTS {database} CASCADE")
    spark.sql(f"CREATE DATABASE {database}")
    spark.sql(f"USE {database}")
    broken = False
    try:
        for kind, sql, line in records(path):
            where = f"{pathlib.Path(path).relative_to(ROOT)}:{line}"
            if broken:
                counts["skipped"] += 1
                continue
            if DELTALITE_ONLY.search(sql):
                counts["deltalite_only"] += 1
                try:
                    db.exec(sql) if kind != "query" else db.query(sql)
                except engines.DeltaliteError:
                    pass
                if kind == "ok":
                    broken = True  # Spark's tables would now differ
                continue
            if kind == "query":
                counts["queries"] += 1
                dl_err = sp_err = None
                try:
                    mine = canon(db.query(sql))
                except engines.DeltaliteError as exc:
                    dl_err = str(exc).splitlines()[0]
                try:
                    df = spark.sql(sql)
                    theirs = canon(df.toArrow(), [f.dataType.simpleString() for f in df.schema.fields])
                except Exception as exc:  # noqa: BLE001 - compared
                    sp_err = f"{spark_class(exc)}: {str(exc).splitlines()[0][:200]}"
                if dl_err or sp_err:
                    if dl_err and sp_err:
                        counts["agree"] += 1
                    else:
                        counts["differ"] += 1
                        out(f"DIFFERENCE {where}: {sql[:300]}\n  deltalite: {dl_err or 'ok'}\n  Spark: {sp_err or 'ok'}")
                elif mine == theirs:
                    counts["agree"] += 1
                else:
                    counts["differ"] += 1
                    detail = (f"types deltalite {mine[0]} vs Spark {theirs[0]}" if mine[0] != theirs[0] else
                              f"rows: deltalite only {sorted(set(mine[1]) - set(theirs[1]))[:3]}; "
                              f"Spark only {sorted(set(theirs[1]) - set(mine[1]))[:3]}")
                    out(f"DIFFERENCE {where}: {sql[:300]}\n  {detail[:600]}")
                continue
            counts["statements"] += 1
            dl_ok = sp_ok = True
            try:
                db.exec(sql)
            except engines.DeltaliteError:
                dl_ok = False
            try:
                spark.sql(sql).collect()
            except Exception as exc:  # noqa: BLE001 - compared
                sp_ok = False
                sp_msg = f"{spark_class(exc)}: {str(exc).splitlines()[0][:200]}"
            if dl_ok == sp_ok:
                counts["agree"] += 1
            else:
                counts["differ"] += 1
                out(f"DIFFERENCE {where}: {sql[:300]}\n  deltalite {'ok' if dl_ok else 'fails'}, "
                    f"Spark {'ok' if sp_ok else 'fails: ' + sp_msg}")
                if dl_ok and not sp_ok:
                    broken = True
    finally:
        db.close()
        spark.sql("USE default")
    return counts


def main():
    import os

    os.environ["TZ"] = "UTC"
    time.tzset()
    sys.path.insert(0, str(pathlib.Path(__file__).parent))
    import conftest

    files = sys.argv[1:] or sorted(str(p) for p in (ROOT / "tests" / "sql").rglob("*.test"))
    spark = conftest.spark_session()
    spark.conf.set("spark.sql.sources.default", "delta")
    totals = {}
    t0 = time.time()
    for n, path in enumerate(files):
        counts = run_file(spark, pathlib.Path(path).resolve(), n)
        for k, v in counts.items():
            totals[k] = totals.get(k, 0) + v
        print(f"{path}: {counts} ({time.time() - t0:.0f} s)", flush=True)
    print(f"done: {len(files)} files, {totals}")
    return 1 if totals.get("differ") else 0


if __name__ == "__main__":
    sys.exit(main())
