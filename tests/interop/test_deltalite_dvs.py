"""Deletion vectors both ways: deltalite's DELETE, UPDATE and MERGE on a table with
delta.enableDeletionVectors mark rows in deletion vectors (no file rewritten), and Spark,
delta-rs (through its SQL engine, the one that applies DVs) and DuckDB read every version of
that history with deltalite's rows; Spark then
deletes and updates on top (its DVs united with ours) and deltalite reads every version as
Spark does, then deletes again on top of Spark's DVs, which Spark reads back."""

import json

import pytest

import engines
from engines import deltalite_read, deltalite_sql, deltars_sql_read, duckdb_read, spark_read
from test_deltalite_writes import mismatches, write_history

# One step per shell run. Files of at most 40 rows, so that statements touch several files and
# some delete every row of a file (which is then removed, not given a DV).
DV_HISTORY = [
    "CREATE TABLE dvt (id BIGINT, p STRING, v STRING, d DECIMAL(10,2)) USING DELTA PARTITIONED BY (p) "
    "TBLPROPERTIES ('delta.enableDeletionVectors' = 'true', 'delta.checkpointInterval' = '4')",
    "SET spark.sql.files.maxRecordsPerFile = 40; "
    "INSERT INTO dvt SELECT id, CASE WHEN id % 3 = 0 THEN 'a' WHEN id % 3 = 1 THEN 'b b' ELSE NULL END, "
    "CAST(id AS STRING), id / 4 FROM range(0, 300)",
    "DELETE FROM dvt WHERE id = 7",
    "DELETE FROM dvt WHERE id IN (10, 13, 250, 251)",
    "UPDATE dvt SET v = 'updated', d = d + 1 WHERE id % 25 = 4",
    "MERGE INTO dvt t USING (SELECT * FROM VALUES (1, 'upd'), (3, 'del'), (5000, 'ins') AS src(id, op)) s "
    "ON t.id = s.id WHEN MATCHED AND s.op = 'del' THEN DELETE "
    "WHEN MATCHED THEN UPDATE SET t.v = 'merged' WHEN NOT MATCHED THEN INSERT (id, p, v) VALUES (s.id, 'a', 'new')",
    "DELETE FROM dvt WHERE id IN (SELECT id FROM dvt WHERE v = 'updated' AND id < 100)",
    "DELETE FROM dvt WHERE id < 60 AND p = 'a'",
    "OPTIMIZE dvt",
    "DELETE FROM dvt WHERE id % 7 = 0",
    "REORG TABLE dvt APPLY (PURGE)",
    "UPDATE dvt SET v = 'last' WHERE id = 100",
]


@pytest.fixture(scope="module")
def dv_history(tmp_path_factory):
    """deltalite's DV history: (warehouse, table path, last version, rows per version)."""
    warehouse = tmp_path_factory.mktemp("dl_dvs")
    path, last, expected = write_history(warehouse, DV_HISTORY, "dvt")
    return warehouse, path, last, expected


def commits(path):
    """Every commit's actions, by version."""
    out = {}
    for f in sorted((path / "_delta_log").glob("*.json")):
        out[int(f.stem)] = [json.loads(line) for line in f.read_text().splitlines() if line]
    return out


def test_deltalite_writes_dvs_not_files(dv_history):
    """The DML commits mark rows: adds with a deletionVector of the paths they remove, no row
    copied; the DV files exist and hold several DVs; OPTIMIZE and REORG purge them."""
    _, path, _, _ = dv_history
    log = commits(path)
    dv_adds = 0
    for version, actions in log.items():
        info = next(a["commitInfo"] for a in actions if "commitInfo" in a)
        adds = [a["add"] for a in actions if "add" in a]
        removes = {a["remove"]["path"] for a in actions if "remove" in a}
        if info["operation"] in ("DELETE", "UPDATE", "MERGE"):
            metrics = info["operationMetrics"]
            assert metrics.get("numCopiedRows", metrics.get("numTargetRowsCopied")) == "0", (version, metrics)
            for add in adds:
                if add.get("deletionVector"):
                    dv_adds += 1
                    assert add["path"] in removes
                    assert json.loads(add["stats"])["tightBounds"] is False
                    assert (path / f"deletion_vector_{uuid_of(add['deletionVector'])}.bin").exists()
        if info["operation"] in ("OPTIMIZE", "REORG"):
            assert all(not a.get("deletionVector") for a in adds), version
    assert dv_adds >= 5


def uuid_of(dv):
    """The UUID of a 'u' descriptor's file (Z85 of 16 bytes, no prefix in deltalite's)."""
    alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#"
    assert dv["storageType"] == "u"
    text = dv["pathOrInlineDv"][-20:]
    raw = b""
    for i in range(0, 20, 5):
        n = 0
        for ch in text[i : i + 5]:
            n = n * 85 + alphabet.index(ch)
        raw += n.to_bytes(4, "big")
    h = raw.hex()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def test_spark_reads_every_dv_version(spark, dv_history):
    _, path, _, expected = dv_history
    assert mismatches(expected, lambda v: spark_read(spark, path, version=v)) == []


def test_deltars_reads_every_dv_version(dv_history):
    """delta-rs 1.6 reads deletion vectors through its SQL engine only (QueryBuilder)."""
    _, path, _, expected = dv_history
    assert mismatches(expected, lambda v: deltars_sql_read(path, version=v)) == []


def test_duckdb_reads_every_dv_version(duck, dv_history):
    _, path, _, expected = dv_history
    assert mismatches(expected, lambda v: duckdb_read(duck, path, version=v)) == []


def test_spark_and_deltalite_delete_on_each_others_dvs(spark, tmp_path):
    """Spark deletes and updates with DVs on deltalite's DVs; deltalite reads Spark's versions,
    deletes on top of Spark's DVs, and Spark reads that back."""
    warehouse = tmp_path / "w"
    warehouse.mkdir()
    for step in DV_HISTORY[:4]:
        deltalite_sql(warehouse, step)
    path = warehouse / "dvt"
    table = f"delta.`{path}`"
    first = max(commits(path)) + 1
    spark.sql(f"DELETE FROM {table} WHERE id IN (8, 11, 14)")
    spark.sql(f"UPDATE {table} SET v = 'spark' WHERE id % 30 = 2")
    log = commits(path)
    assert any(a.get("add", {}).get("deletionVector") for v in range(first, first + 2) for a in log[v])
    deltalite_sql(warehouse, "DELETE FROM dvt WHERE id IN (16, 17, 19)")
    deltalite_sql(warehouse, "UPDATE dvt SET v = 'deltalite' WHERE id % 30 = 5")
    last = max(commits(path))
    db = engines.Deltalite(warehouse)
    try:
        for version in range(first, last + 1):
            assert deltalite_read(db, path, version=version) == spark_read(spark, path, version=version), version
    finally:
        db.close()
    assert spark.sql(f"SELECT count(*) AS n FROM {table} WHERE id IN (7, 8, 10, 11, 13, 14, 16, 17, 19)").collect()[0]["n"] == 0
