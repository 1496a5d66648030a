"""Spark and delta-rs write, deltalite reads: every version of their tables reads in deltalite
with the schema and rows the writer itself reads; where deltalite must refuse a write, the
refusal names the table feature."""

import datetime as dt
import decimal

import deltalake
import pyarrow as pa
import pytest

import engines
from engines import deltalite_read, deltalite_sql, deltars_read, spark_read
from test_deltalite_writes import HISTORY


def spark_history(path):
    """deltalite's scripted history in Spark SQL on a table by path. The autoMerge INSERT with
    a new column in its column list is left out (Spark does not evolve the schema there), and
    so are the one-row appends around OPTIMIZE and VACUUM (time: each Spark commit costs
    seconds on 2 cores)."""
    table = f"delta.`{path}`"
    skipped = ("autoMerge", "3100", "3101", "after vacuum")
    steps = [s.replace("events", table) for s in HISTORY if not any(k in s for k in skipped)]
    steps = [s.replace("VACUUM " + table, f"VACUUM {table} RETAIN 168 HOURS") for s in steps]
    return steps


FEATURES = {
    # Deletion vectors, change data feed, column mapping with RENAME/DROP COLUMN, in-commit
    # timestamps, row tracking, type widening, v2 checkpoints every 3 commits.
    "features": [
        "CREATE TABLE {t} (id BIGINT, k INT, small TINYINT, v STRING, nested STRUCT<a: INT, b: STRING>) USING DELTA "
        "TBLPROPERTIES ('delta.enableDeletionVectors' = 'true', 'delta.enableChangeDataFeed' = 'true', "
        "'delta.columnMapping.mode' = 'name', 'delta.enableInCommitTimestamps' = 'true', "
        "'delta.enableRowTracking' = 'true', 'delta.enableTypeWidening' = 'true', "
        "'delta.checkpointPolicy' = 'v2', 'delta.checkpointInterval' = '3')",
        "INSERT INTO {t} SELECT id, CAST(id % 7 AS INT), CAST(id % 100 AS TINYINT), CAST(id AS STRING), "
        "named_struct('a', CAST(id AS INT), 'b', 'x') FROM range(0, 200)",
        "DELETE FROM {t} WHERE id % 10 = 3",
        "UPDATE {t} SET v = 'updated' WHERE id % 10 = 4",
        "ALTER TABLE {t} RENAME COLUMN v TO renamed",
        "ALTER TABLE {t} ADD COLUMNS (after_rename STRING)",
        "INSERT INTO {t} (id, k, small, renamed, after_rename) VALUES (1000, 1, 1, 'r', 'a')",
        "ALTER TABLE {t} DROP COLUMN after_rename",
        "ALTER TABLE {t} ALTER COLUMN small TYPE INT",
        "INSERT INTO {t} (id, k, small, renamed) VALUES (1001, 2, 100000, 'wide')",
        "ALTER TABLE {t} RENAME COLUMN nested.b TO bb",
        "MERGE INTO {t} t USING (SELECT 5L AS id UNION ALL SELECT 2000L) s ON t.id = s.id "
        "WHEN MATCHED THEN DELETE WHEN NOT MATCHED THEN INSERT (id, k) VALUES (s.id, 0)",
    ],
    # Liquid clustering, an identity column, a generated column, a CHECK constraint.
    "clustered": [
        "CREATE TABLE {t} (id BIGINT GENERATED ALWAYS AS IDENTITY, k INT, "
        "g INT GENERATED ALWAYS AS (k * 2), ts TIMESTAMP) USING DELTA CLUSTER BY (k)",
        "ALTER TABLE {t} ADD CONSTRAINT k_positive CHECK (k > 0)",
        "INSERT INTO {t} (k, ts) VALUES (1, TIMESTAMP'2024-01-01 00:00:00'), (2, NULL), (3, TIMESTAMP'2024-01-02 03:04:05.678901')",
        "INSERT INTO {t} (k, ts) SELECT CAST(id % 5 + 1 AS INT), NULL FROM range(0, 50)",
        "OPTIMIZE {t}",
        "DELETE FROM {t} WHERE k = 2",
    ],
}


def run_spark(spark, steps, path):
    for step in steps:
        spark.sql(step.format(t=f"delta.`{path}`") if "{t}" in step else step)


def versions(spark, path):
    return [r["version"] for r in spark.sql(f"DESCRIBE HISTORY delta.`{path}`").select("version").collect()]


def compare_versions(spark, dl, path):
    bad = []
    for version in sorted(versions(spark, path)):
        want = spark_read(spark, path, version=version)
        try:
            got = deltalite_read(dl, path, version=version)
        except engines.DeltaliteError as exc:
            bad.append(f"v{version}: deltalite failed: {exc}")
            continue
        if got != want:
            missing = sorted(set(want[1]) - set(got[1]))[:3]
            extra = sorted(set(got[1]) - set(want[1]))[:3]
            bad.append(f"v{version}: schema {got[0]} vs Spark's {want[0]}; deltalite only {extra}; Spark only {missing}")
    return bad


@pytest.fixture(scope="module")
def spark_tables(spark, tmp_path_factory):
    """The warehouse holding Spark's tables: `events` (deltalite's history in Spark SQL) and
    one per entry of FEATURES."""
    warehouse = tmp_path_factory.mktemp("spark_writes")
    run_spark(spark, spark_history(warehouse / "events"), warehouse / "events")
    for name, steps in FEATURES.items():
        run_spark(spark, steps, warehouse / name)
    return warehouse


@pytest.mark.parametrize("name", ["events"] + sorted(FEATURES))
def test_deltalite_reads_spark_tables(spark, spark_tables, name):
    db = engines.Deltalite(spark_tables)
    try:
        assert compare_versions(spark, db, spark_tables / name) == []
    finally:
        db.close()


# What deltalite does with a write to each Spark table: either the write commits and Spark
# reads it back as deltalite does, or it is refused with the feature named.
REFUSALS = {
    "clustered": ["generated columns", "identity columns"],
}


@pytest.mark.parametrize("name", sorted(FEATURES))
def test_deltalite_write_to_spark_features(spark, spark_tables, name):
    warehouse = spark_tables
    path = warehouse / name
    before = versions(spark, path)
    try:
        deltalite_sql(warehouse, f"INSERT INTO {name} (k) VALUES (7)")
    except engines.DeltaliteError as exc:
        message = str(exc)
        assert all(words in message for words in REFUSALS[name]), message
        assert "dl_" not in message, message
        assert versions(spark, path) == before
        return
    latest = max(versions(spark, path))
    assert latest == max(before) + 1
    db = engines.Deltalite(warehouse)
    try:
        assert deltalite_read(db, path, version=latest) == spark_read(spark, path, version=latest)
    finally:
        db.close()


def test_deltalite_reads_deltars_history(dl, warehouse):
    path = str(warehouse / "rs")
    batch = pa.table(
        {
            "id": pa.array([1, 2, 3, 4], pa.int64()),
            "p": pa.array(["a b", "x/y", None, "ü"], pa.string()),
            "d": pa.array([decimal.Decimal("1.10"), None, decimal.Decimal("-3.33"), decimal.Decimal("0.01")], pa.decimal128(10, 2)),
            "ts": pa.array(
                [dt.datetime(2024, 1, 1, 1, 2, 3, 456789, tzinfo=dt.timezone.utc), None, dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc), dt.datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=dt.timezone.utc)],
                pa.timestamp("us", tz="UTC"),
            ),
            "tn": pa.array([dt.datetime(2024, 1, 1), None, None, dt.datetime(1, 1, 1)], pa.timestamp("us")),
            "s": pa.array([{"x": 1, "y": "a"}, None, {"x": None, "y": None}, {"x": 4, "y": ""}], pa.struct([("x", pa.int32()), ("y", pa.string())])),
            "l": pa.array([[1.5], [], None, [None, 2.0]], pa.list_(pa.float64())),
        }
    )
    deltalake.write_deltalake(path, batch, partition_by=["p"])
    deltalake.write_deltalake(path, batch.slice(0, 2), mode="append")
    table = deltalake.DeltaTable(path)
    table.delete("id = 2")
    source = pa.table({"id": pa.array([1, 9], pa.int64()), "d": pa.array([decimal.Decimal("7.77"), None], pa.decimal128(10, 2))})
    (
        table.merge(source, predicate="t.id = s.id", source_alias="s", target_alias="t")
        .when_matched_update(updates={"d": "s.d"})
        .when_not_matched_insert(updates={"id": "s.id", "d": "s.d"})
        .execute()
    )
    table.optimize.compact()
    table.create_checkpoint()
    deltalake.write_deltalake(path, batch.slice(3, 1), mode="overwrite")
    bad = []
    for version in range(deltalake.DeltaTable(path).version() + 1):
        want = deltars_read(path, version=version)
        got = deltalite_read(dl, path, version=version)
        if got != want:
            bad.append(f"v{version}: deltalite {got} vs delta-rs {want}")
    assert bad == []
