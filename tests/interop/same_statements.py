"""The same statements on Spark and deltalite (issue 14, part 3).

A Pair holds two Delta tables built from the same start, one written by Spark SQL and one by the
deltalite shell. Pair.run(sql) runs one statement on both and compares, after it:

- success or failure; for a failure, the error class (`[DELTA_...]`, Spark's condition);
- the result rows of the statement (DML's num_affected_rows etc.);
- the commits it made: how many, and for each its commitInfo `operation`,
  `operationParameters` and `operationMetrics` (keys always; values except times and byte
  sizes, which depend on the Parquet writer: see VARIABLE_METRICS);
- the table's contents at its last version and at a random earlier version (each engine reads
  its own table);
- DESCRIBE DETAIL (run by Spark on both tables; not ids, paths, times, sizes).

A random DML generator (Generator, a small Python cousin of tests/sql/dml_diff/dml_diff.mjs:
random tables, DELETE / UPDATE / MERGE with every clause / INSERT / INSERT OVERWRITE /
OPTIMIZE / properties / ADD COLUMNS / RESTORE, and statements that must fail) feeds the
Pair; tests/interop/test_same_statements.py runs a scripted history and a short random run,
and the long mode is

    ~/.cache/deltalite/interop/venv/bin/python tests/interop/same_statements.py \
        --seed 1 --tables 100 --statements 20 [--dir DIR]

which prints every disagreement and a summary (exit status 1 when any).
"""

import argparse
import datetime as dt
import decimal
import json
import pathlib
import random
import re
import sys
import time
import urllib.parse

import engines
from engines import DeltaliteError

# Metrics whose values depend on the Parquet writer or the clock, not on the statement: their
# keys are compared, their values not.
VARIABLE_METRICS = {
    "executionTimeMs", "scanTimeMs", "rewriteTimeMs", "numOutputBytes", "numAddedBytes",
    "numRemovedBytes", "tableSizeBytes", "removedFilesSize", "restoredFilesSize",
    "materializeSourceTimeMs", "totalSize", "totalFiles", "planningTimeMs", "sizeOfDataRead",
    "numTargetBytesAdded", "numTargetBytesRemoved", "minFileSize", "maxFileSize", "p25FileSize",
    "p50FileSize", "p75FileSize", "tableSizeAfterRestore",
}
# Metrics counting files: Spark writes one file per task, deltalite one per partition value
# (and per maxRecordsPerFile); compared only as zero / not zero.
FILE_METRICS = {
    "numFiles", "numAddedFiles", "numRemovedFiles", "numTargetFilesAdded", "numTargetFilesRemoved",
    "numRemovedFiles", "numFilesAdded", "numFilesRemoved", "numRestoredFiles",
    "numOfFilesAfterRestore", "numTargetFilesRemoved", "numDeletedFiles", "numFilesToDelete",
}
# Metrics that count rows copied from rewritten files: they depend on which rows share a file,
# so they are compared when both tables held the same rows in the same files before the
# statement (Spark packs small files into one task, deltalite rewrites file by file).
LAYOUT_METRICS = {"numCopiedRows", "numTargetRowsCopied", "numOutputRows"}
DETAIL_KEYS = (
    "format", "description", "partitionColumns", "clusteringColumns", "properties",
    "minReaderVersion", "minWriterVersion", "tableFeatures",
)
# Differences after which the two tables no longer hold the same thing.
FATAL = ("contents", "schema", "new versions", "only ", "reading")
ERROR_CLASS = re.compile(r"\[([A-Z][A-Z0-9_]+(?:\.[A-Z0-9_]+)*)\]")



INSERT_COUNTS = ["num_affected_rows", "num_inserted_rows"]
RESTORE_SIZES = ("table_size_after_restore", "removed_files_size", "restored_files_size")


def restore_shape(cols, rows):
    """The rows as compared: RESTORE's sizes in bytes are each engine's own files, and its file
    counts depend on the file layout, so they are compared as zero or not; other rows as they are."""
    if not cols or cols[0] != "table_size_after_restore":
        return sorted(rows)
    return sorted([None if c in RESTORE_SIZES else int(v) > 0 for c, v in zip(cols, r)] for r in rows)


class Disagreement(AssertionError):
    pass


def spark_error_class(exc):
    for name in ("getCondition", "getErrorClass"):
        method = getattr(exc, name, None)
        if method is not None:
            try:
                got = method()
            except Exception:  # noqa: BLE001 - older exceptions have no condition
                got = None
            if got:
                return got
    m = ERROR_CLASS.search(str(exc))
    if m:
        return m.group(1)
    m = re.search(r"(\w+(?:Exception|Error))", str(exc))
    return m.group(1) if m else type(exc).__name__


def deltalite_error_class(message):
    m = ERROR_CLASS.search(message)
    return m.group(1) if m else "(no error class) " + message.splitlines()[0][:200]


def log_versions(path):
    log = pathlib.Path(path) / "_delta_log"
    if not log.is_dir():
        return []
    return sorted(int(f.name[:20]) for f in log.glob("*.json") if re.fullmatch(r"\d{20}\.json", f.name))


def commit_info(path, version):
    with open(pathlib.Path(path) / "_delta_log" / f"{version:020d}.json") as log:
        for line in log:
            action = json.loads(line)
            if "commitInfo" in action:
                return action["commitInfo"]
    return {}


def canon_predicates(value):
    """Predicate texts replaced by EXPR: Spark prints its optimised, resolved expression with
    expression ids (`(k#1284L = k#1279L)`, `NOT (d0#12 = 1.5)` for `d0 <> 1.5`), deltalite the
    statement's text; where a predicate is and is not is compared, its spelling is not."""
    if isinstance(value, list):
        return [canon_predicates(v) for v in value]
    if isinstance(value, dict):
        return {k: ("EXPR" if k == "predicate" and v is not None else canon_predicates(v)) for k, v in value.items()}
    return value


def canon_parameters(params):
    """operationParameters with JSON-valued strings parsed (Spark writes `"[]"`, `"{}"`,
    `"[\\"p\\"]"` and booleans as strings or JSON; the comparison is of the values)."""
    out = {}
    for key, value in (params or {}).items():
        if isinstance(value, str):
            try:
                value = json.loads(value)
            except ValueError:
                pass
        if key in ("predicate", "condition", "matchedPredicates", "notMatchedPredicates", "notMatchedBySourcePredicates"):
            value = ["EXPR" for _ in value] if key in ("predicate", "condition") and isinstance(value, list) else (
                "EXPR" if key in ("predicate", "condition") and value is not None else canon_predicates(value))
        out[key] = value
    return out


def canon_metrics(metrics, same_layout=True):
    out = {}
    for key, value in (metrics or {}).items():
        if key in VARIABLE_METRICS or ((key in LAYOUT_METRICS or key in FILE_METRICS) and not same_layout):
            # With different files (Spark packs small files into one task's output) whether a
            # DELETE rewrites or drops a file depends on which rows share it
            out[key] = "*"
        elif key in FILE_METRICS:
            out[key] = "0" if str(value) == "0" else ">0"
        else:
            out[key] = str(value)
    return out


def canon_commit(info, same_layout=True):
    metrics = canon_metrics(info.get("operationMetrics"), same_layout)
    if info.get("operation") in ("WRITE", "CREATE OR REPLACE TABLE AS SELECT") and metrics.get("numOutputRows") == "0":
        # An overwrite of no rows: Spark's task writes one empty file, deltalite none
        # (docs/sql.md, "Differences from Spark").
        metrics["numFiles"] = "*"
    raw = info.get("operationMetrics") or {}
    if info.get("operation") == "MERGE" and "numTargetRowsCopied" in raw and "numOutputRows" in raw:
        # Spark rewrites every file a NOT MATCHED BY SOURCE clause could touch, and matched
        # files whose clause conditions hold for no row, copying their rows; deltalite rewrites
        # only files with a changed row (docs/sql.md, "Differences from Spark"). What is
        # compared is what was written besides the copies; the table's contents are compared
        # at every version all the same.
        written = int(raw["numOutputRows"]) - int(raw["numTargetRowsCopied"])
        metrics["numOutputRows"] = f"{written} besides copies"
        for key in ("numTargetFilesAdded", "numTargetFilesRemoved", "numTargetRowsCopied"):
            metrics[key] = "*"
    return {
        "operation": info.get("operation"),
        "operationParameters": canon_parameters(info.get("operationParameters")),
        "operationMetrics": metrics,
    }


def diff_dicts(what, mine, theirs):
    out = []
    for key in sorted(set(mine) | set(theirs), key=str):
        if key not in mine:
            out.append(f"{what}: deltalite lacks {key!r} (Spark: {theirs[key]!r})")
        elif key not in theirs:
            out.append(f"{what}: deltalite has {key!r} = {mine[key]!r}, Spark has no such key")
        elif mine[key] != theirs[key]:
            out.append(f"{what}[{key!r}]: deltalite {mine[key]!r} vs Spark {theirs[key]!r}")
    return out


def canon_cell(value):
    if isinstance(value, (dict, list)):
        return json.dumps(value, sort_keys=True)
    if isinstance(value, float) and value == int(value):
        return str(int(value))
    return str(value)


class Pair:
    """Two tables from the same start: Spark's at root/spark/NAME, deltalite's at
    root/dl/NAME. Statements name the table `{t}` (delta.`path` for each engine)."""

    def __init__(self, spark, db_factory, root, name="t", rng=None, spark_reads=True):
        self.spark = spark
        self.root = pathlib.Path(root)
        self.dl_wh = self.root / "dl"
        self.sp_wh = self.root / "spark"
        self.dl_wh.mkdir(parents=True, exist_ok=True)
        self.sp_wh.mkdir(parents=True, exist_ok=True)
        self.dl_path = self.dl_wh / name
        self.sp_path = self.sp_wh / name
        self.db_factory = db_factory
        self.rng = rng or random.Random(0)
        # spark_reads: each engine reads its own table after every statement and DESCRIBE DETAIL
        # runs after each; False (the long mode): deltalite reads both tables after every
        # statement (its reading of Spark's tables is proven by test_peer_writes.py), Spark
        # reads both and describes them after statements that change metadata and in final().
        self.spark_reads = spark_reads
        self.settings = []  # SET statements replayed before every deltalite run
        self.log = []  # (statement, outcome) for repro
        self.stats = {"statements": 0, "failed_both": 0, "commits": 0, "checks": 0, "insert_counts": 0,
                      "skipped_layout": 0}

    def sql_for(self, template, engine):
        path = self.dl_path if engine == "dl" else self.sp_path
        return template.replace("{t}", f"delta.`{path}`")

    # -- running --------------------------------------------------------------------------

    def run_spark(self, sql):
        try:
            df = self.spark.sql(sql)
            rows = df.collect()
            return None, [[canon_cell(v) for v in r] for r in rows], list(df.columns)
        except Exception as exc:  # noqa: BLE001 - every failure is compared by class
            return spark_error_class(exc), str(exc), None

    def run_deltalite(self, sql):
        pre = "".join(f"{s}; " for s in self.settings)
        try:
            out = engines.deltalite_sql(self.dl_wh, pre + sql, json_out=True)
        except DeltaliteError as exc:
            return deltalite_error_class(str(exc)), str(exc), None
        arrays = [json.loads(chunk + "]") for chunk in re.split(r"^\]$", out, flags=re.M) if chunk.strip().startswith("[")]
        rows = arrays[-1] if arrays else []
        cols = list(rows[0].keys()) if rows else []
        return None, [[canon_cell(v) for v in r.values()] for r in rows], cols

    def setting(self, sql):
        """A SET for both engines (deltalite's shell is a new session per statement)."""
        self.spark.sql(sql)
        self.settings.append(sql)

    def run(self, template, expect_error=None, compare_result=True):
        """Runs one statement on both; returns the list of differences (empty when they agree)."""
        self.stats["statements"] += 1
        dl_before, sp_before = log_versions(self.dl_path), log_versions(self.sp_path)
        self.same_layout = True
        if template.split(" ", 1)[0] in ("DELETE", "UPDATE", "MERGE", "OPTIMIZE") and sp_before:
            try:
                self.same_layout = self.layout(self.dl_path) == self.layout(self.sp_path)
            except Exception:  # noqa: BLE001 - then the layout-dependent metrics are not compared
                self.same_layout = False
        if template.startswith("OPTIMIZE") and not self.same_layout:
            # What OPTIMIZE compacts depends on the files, not the rows: with different files
            # the engines rightly differ (one commits, the other has nothing to do).
            self.stats["skipped_layout"] += 1
            return []
        sp_err, sp_rows, sp_cols = self.run_spark(self.sql_for(template, "spark"))
        dl_err, dl_rows, dl_cols = self.run_deltalite(self.sql_for(template, "dl"))
        problems = []
        if template.startswith("OPTIMIZE"):
            compare_result = False  # its path and times differ
        if expect_error and not sp_err:
            problems.append(f"generator: Spark should have failed with {expect_error} but did not")
        if sp_err or dl_err:
            if not (sp_err and dl_err):
                problems.append(
                    f"only {'Spark' if sp_err else 'deltalite'} failed: "
                    f"{(sp_rows if sp_err else dl_rows)[:600]}"
                )
            elif sp_err != dl_err:
                problems.append(f"error class: deltalite {dl_err} vs Spark {sp_err}\n      deltalite: {dl_rows[:300]}\n      Spark: {sp_rows[:300]}")
            else:
                self.stats["failed_both"] += 1
        elif compare_result and template.startswith("INSERT") and not sp_cols and dl_cols == INSERT_COUNTS:
            # Deliberate (docs/sql.md): deltalite's INSERT returns Databricks' counts, where
            # open-source Spark returns no row.
            self.stats["insert_counts"] += 1
        elif compare_result and (dl_cols, restore_shape(dl_cols, dl_rows)) != (sp_cols, restore_shape(sp_cols, sp_rows)):
            problems.append(f"result rows: deltalite {dl_cols} {sorted(dl_rows)[:5]} vs Spark {sp_cols} {sorted(sp_rows)[:5]}")
        problems += self.compare_commits(dl_before, sp_before)
        if not problems:
            problems += self.compare_contents()
        changes_metadata = template.split(" ", 1)[0] in ("CREATE", "ALTER", "RESTORE")
        if not problems and (self.spark_reads or changes_metadata) and log_versions(self.sp_path):
            problems += self.compare_detail()
        self.stats["checks"] += 1
        self.log.append((template, "ok" if not (sp_err or dl_err) else f"failed {sp_err}/{dl_err}"))
        return problems

    # -- checking -------------------------------------------------------------------------

    def compare_commits(self, dl_before, sp_before):
        dl_new = [v for v in log_versions(self.dl_path) if v not in dl_before]
        sp_new = [v for v in log_versions(self.sp_path) if v not in sp_before]
        if dl_new != sp_new:
            ops = lambda path, vs: [commit_info(path, v).get("operation") for v in vs]  # noqa: E731
            return [f"new versions: deltalite {dl_new} {ops(self.dl_path, dl_new)} vs Spark {sp_new} {ops(self.sp_path, sp_new)}"]
        problems = []
        for v in dl_new:
            self.stats["commits"] += 1
            mine = canon_commit(commit_info(self.dl_path, v), self.same_layout)
            theirs = canon_commit(commit_info(self.sp_path, v), self.same_layout)
            if mine["operation"] != theirs["operation"]:
                problems.append(f"v{v} operation: deltalite {mine['operation']} vs Spark {theirs['operation']}")
                continue
            op = mine["operation"]
            problems += diff_dicts(f"v{v} {op} operationParameters", mine["operationParameters"], theirs["operationParameters"])
            problems += diff_dicts(f"v{v} {op} operationMetrics", mine["operationMetrics"], theirs["operationMetrics"])
        return problems

    @staticmethod
    def layout(path):
        """Which rows share a file: the sorted list of each live file's partition values and
        sorted rows (files listed by delta-rs, read by pyarrow)."""
        import deltalake
        import pyarrow.parquet as pq

        import pyarrow as pa

        actions = pa.table(deltalake.DeltaTable(str(path)).get_add_actions(flatten=True)).to_pylist()
        out = []
        for add in actions:
            rows = engines.arrow_result(pq.read_table(pathlib.Path(path) / urllib.parse.unquote(add["path"])))[1]
            parts = {k: v for k, v in add.items() if k.startswith("partition.")}
            out.append((json.dumps(parts, sort_keys=True, default=str), tuple(rows)))
        return sorted(out)

    def read_both(self, version=None, spark_only=False):
        """(deltalite's table, Spark's table) at version: both read by Spark (spark_only), each
        by its own engine (spark_reads) or both by deltalite."""
        if spark_only:
            return (engines.spark_read(self.spark, self.dl_path, version=version),
                    engines.spark_read(self.spark, self.sp_path, version=version))
        db = self.db_factory(self.dl_wh)
        try:
            mine = engines.deltalite_read(db, self.dl_path, version=version)
            theirs = (engines.spark_read(self.spark, self.sp_path, version=version) if self.spark_reads
                      else engines.deltalite_read(db, self.sp_path, version=version))
        finally:
            db.close()
        return mine, theirs

    def final(self):
        """The end of a table's run in the long mode: Spark reads both tables at the last and a
        random earlier version, and describes both."""
        return self.compare_contents(spark_only=True) + self.compare_detail()

    def compare_contents(self, spark_only=False):
        versions = log_versions(self.sp_path)
        if not versions:
            return []
        problems = []
        checks = [None]
        if len(versions) > 1:
            checks.append(self.rng.choice(versions[:-1]))
        for version in checks:
            try:
                mine, theirs = self.read_both(version, spark_only)
            except Exception as exc:  # noqa: BLE001 - a failed read is a difference to show
                problems.append(f"reading version {version}: {type(exc).__name__}: {str(exc)[:400]}")
                continue
            at = "last version" if version is None else f"version {version}"
            if mine[0] != theirs[0]:
                problems.append(f"schema at {at}: deltalite {mine[0]} vs Spark {theirs[0]}")
            elif mine[1] != theirs[1]:
                only_dl = sorted(set(mine[1]) - set(theirs[1]))[:3]
                only_sp = sorted(set(theirs[1]) - set(mine[1]))[:3]
                problems.append(
                    f"contents at {at}: deltalite {len(mine[1])} rows, Spark {len(theirs[1])}; "
                    f"deltalite only {only_dl}; Spark only {only_sp}"
                )
        return problems

    def detail(self, path):
        row = self.spark.sql(f"DESCRIBE DETAIL delta.`{path}`").collect()[0].asDict(recursive=True)
        out = {k: row.get(k) for k in DETAIL_KEYS}
        for k in ("partitionColumns", "clusteringColumns", "tableFeatures"):
            if isinstance(out[k], list):
                out[k] = sorted(out[k]) if k == "tableFeatures" else out[k]
        return out

    def compare_detail(self):
        try:
            return diff_dicts("DESCRIBE DETAIL", self.detail(self.dl_path), self.detail(self.sp_path))
        except Exception as exc:  # noqa: BLE001
            return [f"DESCRIBE DETAIL: {type(exc).__name__}: {str(exc)[:300]}"]


# ---- the random generator -------------------------------------------------------------------

TS0 = dt.datetime(2000, 1, 1)


class Column:
    def __init__(self, name, kind, part=False, key=False, precision=None, scale=None):
        self.name, self.kind, self.part, self.key = name, kind, part, key
        self.precision, self.scale = precision, scale

    @property
    def sql_type(self):
        if self.kind == "decimal":
            return f"DECIMAL({self.precision},{self.scale})"
        return {"int": "INT", "bigint": "BIGINT", "double": "DOUBLE", "string": "STRING", "date": "DATE",
                "timestamp": "TIMESTAMP", "boolean": "BOOLEAN"}[self.kind]

    def value(self, rng, i):
        """A random value (None sometimes) for row i."""
        if not self.key and rng.random() < 0.08:
            return None
        k = self.kind
        if k == "int":
            return rng.choice([rng.randint(0, 4), rng.randint(-1000, 1000)]) if not self.part else rng.randint(0, 3)
        if k == "bigint":
            return rng.randint(-10**12, 10**12)
        if k == "double":
            return rng.randint(-64000, 64000) / 64
        if k == "decimal":
            units = rng.randint(-10 ** min(self.precision - 2, 12), 10 ** min(self.precision - 2, 12))
            return decimal.Decimal(units).scaleb(-self.scale)
        if k == "string":
            if self.part:
                return rng.choice(["a", "b c", "d/e", "ü"])
            return rng.choice(["v", "w", "ü", "long" * 10]) + str(rng.randint(0, 50))
        if k == "date":
            return dt.date(2000, 1, 1) + dt.timedelta(days=rng.randint(0, 20000 if not self.part else 3))
        if k == "timestamp":
            return TS0 + dt.timedelta(microseconds=rng.randint(0, 630_000_000_000_000))
        return rng.random() < 0.5

    def lit(self, v):
        if v is None:
            return f"CAST(NULL AS {self.sql_type})"
        k = self.kind
        if k in ("int", "bigint"):
            return str(v) + ("L" if k == "bigint" else "")
        if k == "double":
            return f"{v!r}D"
        if k == "decimal":
            return f"CAST({v} AS {self.sql_type})"
        if k == "string":
            return "'" + v.replace("'", "''") + "'"
        if k == "date":
            return f"DATE'{v.isoformat()}'"
        if k == "timestamp":
            return f"TIMESTAMP'{v.isoformat(sep=' ')}'"
        return "true" if v else "false"


class Generator:
    """Random tables and statements, one seeded stream per table."""

    KINDS = ["int", "bigint", "double", "decimal", "string", "date", "timestamp", "boolean"]

    def __init__(self, seed, index):
        self.rng = random.Random(seed * 1_000_003 + index)
        r = self.rng
        self.cols = [Column("k", "bigint", key=True)]
        used = {"k"}
        for j in range(r.randint(2, 5)):
            kind = r.choice(self.KINDS)
            name = f"{kind[0]}{j}"
            extra = {}
            if kind == "decimal":
                extra = dict(zip(("precision", "scale"), r.choice([(9, 2), (18, 4), (12, 0), (38, 6)])))
            self.cols.append(Column(name, kind, **extra))
            used.add(name)
        if r.random() < 0.4:
            kind = r.choice(["int", "string", "date", "boolean"])
            self.cols.append(Column("p_" + kind, kind, part=True))
        self.next_key = 0
        self.rows = []  # a sample of rows, for literals
        self.properties = set()
        self.ckpt = r.choice([None, 2, 3, 5])

    # -- helpers --

    def data_cols(self):
        return [c for c in self.cols if not c.key]

    def new_row(self):
        row = {c.name: c.value(self.rng, self.next_key) for c in self.cols}
        row["k"] = self.next_key
        self.next_key += 1
        return row

    def values_sql(self, rows, cols=None):
        cols = cols or self.cols
        return ", ".join("(" + ", ".join(c.lit(r.get(c.name)) for c in cols) + ")" for r in rows)

    def create_sql(self):
        parts = [c.name for c in self.cols if c.part]
        sql = "CREATE TABLE {t} (" + ", ".join(f"{c.name} {c.sql_type}" for c in self.cols) + ") USING DELTA"
        if parts:
            sql += f" PARTITIONED BY ({', '.join(parts)})"
        if self.ckpt:
            sql += f" TBLPROPERTIES ('delta.checkpointInterval' = '{self.ckpt}')"
        return sql

    def insert_rows(self, n):
        rows = [self.new_row() for _ in range(n)]
        self.remember(rows)
        return "INSERT INTO {t} VALUES " + self.values_sql(rows)

    def remember(self, rows):
        self.rows.extend(rows)
        if len(self.rows) > 200:
            self.rows = self.rng.sample(self.rows, 200)

    def sample(self):
        return self.rng.choice(self.rows) if self.rows else self.new_row()

    # -- predicates and values --

    def atom(self, q=""):
        r = self.rng
        c = r.choice(self.cols)
        col = q + c.name
        v = self.sample().get(c.name)
        if v is None or r.random() < 0.08:
            return f"{col} IS {r.choice(['', 'NOT '])}NULL"
        if c.kind == "boolean":
            return r.choice([col, f"NOT {col}", f"{col} = {c.lit(v)}"])
        shape = r.randint(0, 5)
        if shape <= 1:
            return f"{col} = {c.lit(v)}"
        if shape == 2:
            return f"{col} {r.choice(['<', '<=', '>', '>=', '<>'])} {c.lit(v)}"
        if shape == 3:
            w = self.sample().get(c.name)
            if w is None:
                return f"{col} >= {c.lit(v)}"
            lo, hi = (v, w) if (str(v) <= str(w) if c.kind in ("string", "date", "timestamp") else v <= w) else (w, v)
            return f"{col} BETWEEN {c.lit(lo)} AND {c.lit(hi)}"
        if shape == 4:
            vals = [v] + [x for x in (self.sample().get(c.name) for _ in range(2)) if x is not None]
            return f"{col} {r.choice(['', 'NOT '])}IN ({', '.join(c.lit(x) for x in vals)})"
        if c.key:
            return f"{col} % {r.choice([2, 3, 5])} = {r.randint(0, 1)}"
        return f"{col} <> {c.lit(v)}"

    def pred(self, q="", depth=2):
        r = self.rng
        if depth and r.random() < 0.25:
            op = r.choice(["AND", "OR", "NOT"])
            if op == "NOT":
                return f"NOT ({self.pred(q, depth - 1)})"
            return f"({self.pred(q, depth - 1)} {op} {self.pred(q, depth - 1)})"
        return self.atom(q)

    def value_expr(self, c, q=""):
        r = self.rng
        col = q + c.name
        if r.random() < 0.1:
            return f"CAST(NULL AS {c.sql_type})"
        k = c.kind
        if k == "int":
            return r.choice([f"{col} + 1", f"-{col}", "42", f"coalesce({col}, 0) - 7"]) if not c.part else r.choice(["0", "3"])
        if k == "bigint":
            return r.choice([f"{col} + 1", f"{col} - 3", f"{q}k", "-5L"])
        if k == "double":
            return r.choice([f"{col} * 2", f"{col} + 0.5D", "1.25D", f"CAST({q}k AS DOUBLE) / 4"])
        if k == "decimal":
            return r.choice([f"{col} + 1", f"-{col}", f"CAST(3 AS {c.sql_type})"])
        if k == "string":
            return r.choice([f"{col} || 'x'", f"'u' || CAST({q}k AS STRING)", "'const'"]) if not c.part else r.choice(["'a'", "'zz'"])
        if k == "date":
            return r.choice([f"date_add({col}, 1)", "DATE'2030-06-01'"])
        if k == "timestamp":
            return r.choice([f"{col} + INTERVAL 1 HOUR", "TIMESTAMP'2031-01-01 00:00:00'"])
        return r.choice([f"NOT {col}", "true", f"{q}k % 2 = 0"])

    def assignments(self, q=""):
        cols = self.data_cols()
        chosen = self.rng.sample(cols, self.rng.randint(1, min(3, len(cols))))
        return ", ".join(f"{c.name} = {self.value_expr(c, q)}" for c in chosen)

    # -- statements: (sql, expected error class or None) --

    def statement(self, versions):
        r = self.rng.random()
        if r < 0.18:
            return f"DELETE FROM {{t}} WHERE {self.pred()}", None
        if r < 0.36:
            return f"UPDATE {{t}} SET {self.assignments()} WHERE {self.pred()}", None
        if r < 0.56:
            return self.merge()
        if r < 0.70:
            return self.insert_rows(self.rng.randint(1, 8)), None
        if r < 0.75:
            return f"INSERT INTO {{t}} SELECT k + {10**9 + self.rng.randint(0, 10**6)}, " + ", ".join(
                c.name for c in self.data_cols()) + f" FROM {{t}} WHERE {self.pred()}", None
        if r < 0.80:
            return f"INSERT OVERWRITE {{t}} SELECT * FROM {{t}} WHERE {self.pred()}", None
        if r < 0.84:
            return "OPTIMIZE {t}", None
        if r < 0.88:
            return self.properties_statement()
        if r < 0.91 and versions > 2:
            return f"RESTORE TABLE {{t}} TO VERSION AS OF {self.rng.randint(0, versions - 2)}", None
        if r < 0.93 and len(self.cols) < 9:
            kind = self.rng.choice(["int", "string", "double"])
            c = Column(f"x{len(self.cols)}", kind)
            self.cols.append(c)
            return f"ALTER TABLE {{t}} ADD COLUMNS ({c.name} {c.sql_type})", None
        return self.failing()

    def merge(self, dup=False):
        r = self.rng
        src_cols = [c for c in self.cols]
        rows = []
        for _ in range(r.randint(1, 6)):
            row = dict(self.sample())
            for c in self.data_cols():
                if r.random() < 0.5:
                    row[c.name] = c.value(r, 0)
            rows.append(row)
        new = [self.new_row() for _ in range(r.randint(0, 4))]
        rows += new
        if dup and rows:
            rows.append(dict(rows[0]))
        self.remember(new)
        src = f"(SELECT * FROM VALUES {self.values_sql(rows, src_cols)} AS src({', '.join(c.name for c in src_cols)}))"
        matched = [
            "WHEN MATCHED THEN UPDATE SET *",
            f"WHEN MATCHED AND {self.pred('s.', 1)} THEN UPDATE SET {self.assignments('s.')}",
            f"WHEN MATCHED AND {self.pred('t.', 1)} THEN DELETE",
            "WHEN MATCHED THEN DELETE",
        ]
        not_matched = [
            "WHEN NOT MATCHED THEN INSERT *",
            f"WHEN NOT MATCHED AND {self.pred('s.', 1)} THEN INSERT *",
            "WHEN NOT MATCHED THEN INSERT (k) VALUES (s.k)",
        ]
        by_source = [
            f"WHEN NOT MATCHED BY SOURCE AND {self.pred('t.', 1)} THEN DELETE",
            f"WHEN NOT MATCHED BY SOURCE AND {self.pred('t.', 1)} THEN UPDATE SET {self.assignments('t.')}",
        ]
        if dup:
            clauses = [f"WHEN MATCHED THEN UPDATE SET {self.assignments('s.')}"]
        else:
            clauses = []
            for group in (matched, not_matched, by_source):
                picked = r.sample(group, r.randint(0, 2))
                # An unconditional clause must come last in its group.
                picked.sort(key=lambda c: " AND " not in c.split(" THEN ")[0])
                clauses += [c for i, c in enumerate(picked) if " AND " in c.split(" THEN ")[0] or i == len(picked) - 1]
            if not clauses:
                clauses = [matched[0]]
        # A duplicated source row fails only when its key matches a target row: not asserted.
        return f"MERGE INTO {{t}} t USING {src} s ON t.k = s.k " + " ".join(clauses), None

    def properties_statement(self):
        r = self.rng
        if self.properties and r.random() < 0.5:
            key = r.choice(sorted(self.properties))
            self.properties.discard(key)
            return f"ALTER TABLE {{t}} UNSET TBLPROPERTIES {r.choice(['', 'IF EXISTS '])}('{key}')", None
        key = f"interop.p{r.randint(0, 5)}"
        self.properties.add(key)
        return f"ALTER TABLE {{t}} SET TBLPROPERTIES ('{key}' = 'v{r.randint(0, 99)}')", None

    def failing(self):
        """A statement Spark refuses (and one it accepts where one might expect a refusal)."""
        r = self.rng.randint(0, 6)
        if r == 0 and self.rows:
            return self.merge(dup=True)
        if r == 1:
            return "ALTER TABLE {t} UNSET TBLPROPERTIES ('interop.never.set')", None
        if r == 2:
            return "RESTORE TABLE {t} TO VERSION AS OF 99999", "DELTA_CANNOT_RESTORE_TABLE_VERSION"
        if r == 3:
            return "UPDATE {t} SET nosuch = 1", "UNRESOLVED_COLUMN"
        if r == 4:
            return "INSERT INTO {t} VALUES (1L)", "INSERT_COLUMN_ARITY_MISMATCH"
        if r == 5:
            return "ALTER TABLE {t} SET TBLPROPERTIES ('delta.checkpointInterval' = '-1')", "DELTA_VIOLATE_TABLE_PROPERTY_VALIDATION"
        return "INSERT INTO {t} (k) VALUES (CAST('x' AS BIGINT))", "CAST_INVALID_INPUT"


def problem_class(problem):
    """A problem without its versions, values and statement: the run's summary counts these."""
    text = re.sub(r"^v\d+ ", "", problem.splitlines()[0])
    text = re.sub(r"(deltalite|Spark) (\[[^\]]*\]|'[^']*'|\d+)", r"\1 _", text)
    return text[:160]


def run_table(spark, db_factory, root, seed, index, statements, out=print, spark_reads=True):
    """Builds table index of the run on both engines and runs statements random statements;
    returns the list of (statement, problems) and the Pair's counts."""
    gen = Generator(seed, index)
    pair = Pair(spark, db_factory, pathlib.Path(root) / f"t{index}", rng=gen.rng, spark_reads=spark_reads)
    found = []

    def step(sql, expect=None):
        """False when the tables no longer hold the same thing (the table's run stops)."""
        problems = pair.run(sql, expect_error=expect)
        if problems:
            found.append((sql, problems))
            out(f"DISAGREEMENT seed {seed} table {index} statement {len(pair.log)}:\n  {sql[:600]}\n" +
                "\n".join(f"  - {p}" for p in problems))
        return not any(p.startswith(FATAL) for p in problems)

    ok = step(gen.create_sql())
    for _ in range(gen.rng.randint(1, 3)):
        ok = ok and step(gen.insert_rows(gen.rng.randint(5, 40)))
    for _ in range(statements):
        if not ok:
            break
        sql, expect = gen.statement(len(log_versions(pair.sp_path)))
        ok = step(sql, expect)
    if ok and not spark_reads:
        problems = pair.final()
        if problems:
            found.append(("(Spark reads and describes both tables at the end)", problems))
            out(f"DISAGREEMENT seed {seed} table {index} at the end:\n" + "\n".join(f"  - {p}" for p in problems))
    return found, pair.stats


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--first-table", type=int, default=0)
    parser.add_argument("--statements", type=int, default=20)
    parser.add_argument("--dir", default=None)
    parser.add_argument("--time-limit", type=float, default=0, help="start no table after this many seconds")
    parser.add_argument("--spark-reads", type=int, default=0, help="1: Spark reads its table after every statement")
    args = parser.parse_args()
    import os
    import tempfile

    os.environ["TZ"] = "UTC"
    time.tzset()
    sys.path.insert(0, str(pathlib.Path(__file__).parent))
    import conftest

    spark = conftest.spark_session()
    root = pathlib.Path(args.dir or tempfile.mkdtemp(prefix="dl_same_"))
    t0 = time.time()
    totals = {"tables": 0, "statements": 0, "failed_both": 0, "commits": 0, "insert_counts": 0,
              "skipped_layout": 0, "disagreements": 0}
    classes = {}
    for index in range(args.first_table, args.first_table + args.tables):
        if args.time_limit and time.time() - t0 > args.time_limit:
            print(f"time limit reached before table {index}")
            break
        found, stats = run_table(spark, engines.Deltalite, root, args.seed, index, args.statements,
                                 spark_reads=bool(args.spark_reads))
        for _, problems in found:
            for p in problems:
                classes[problem_class(p)] = classes.get(problem_class(p), 0) + 1
        totals["tables"] += 1
        for key in ("statements", "failed_both", "commits", "insert_counts", "skipped_layout"):
            totals[key] += stats[key]
        totals["disagreements"] += len(found)
        print(f"table {index}: {stats['statements']} statements, {len(found)} disagreements "
              f"(run so far: {totals}, {time.time() - t0:.0f} s)", flush=True)
    print(f"done: {totals}, {time.time() - t0:.0f} s")
    for text, n in sorted(classes.items(), key=lambda kv: -kv[1]):
        print(f"{n:6d}  {text}")
    return 1 if totals["disagreements"] else 0


if __name__ == "__main__":
    sys.exit(main())
