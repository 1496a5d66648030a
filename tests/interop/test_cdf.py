"""The change data feed both ways (issue 17): deltalite's DELETE, UPDATE and MERGE on tables with
delta.enableChangeDataFeed (copy-on-write partitioned, deletion vectors unpartitioned) are read
by Spark's table_changes and delta-rs's load_cdf with deltalite's rows; Spark's own CDF history
(the same statements) is read by deltalite's table_changes as Spark reads it."""

import collections

import deltalake
import pyarrow as pa
import pytest

import engines
from engines import deltalite_sql

STEPS = [
    "INSERT INTO {t} VALUES (1, 1, 'a'), (2, 1, 'b'), (3, 2, 'c'), (4, 2, 'd'), (5, 3, 'e'), (6, 3, 'f')",
    "DELETE FROM {t} WHERE id = 1",
    "DELETE FROM {t} WHERE p = 3",
    "UPDATE {t} SET v = 'x' WHERE id = 3",
    "MERGE INTO {t} AS t USING (SELECT 2 AS id, 1 AS p, 'm' AS v UNION ALL SELECT 9, 2, 'n' "
    "UNION ALL SELECT 4, 2, 'del') AS s ON t.id = s.id WHEN MATCHED AND s.v = 'del' THEN DELETE "
    "WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT *",
    "MERGE INTO {t} AS t USING (SELECT 20 AS id, 1 AS p, 'i' AS v) AS s ON t.id = s.id "
    "WHEN NOT MATCHED THEN INSERT *",
    "DELETE FROM {t} WHERE id IN (SELECT 9)",
    "UPDATE {t} SET v = 'y' WHERE id IN (SELECT 20)",
]

TABLES = {
    "cow": "CREATE TABLE {t} (id INT, p INT, v STRING) USING DELTA PARTITIONED BY (p) "
    "TBLPROPERTIES (delta.enableChangeDataFeed = true)",
    "dv": "CREATE TABLE {t} (id INT, p INT, v STRING) USING DELTA "
    "TBLPROPERTIES (delta.enableChangeDataFeed = true, delta.enableDeletionVectors = true)",
}

COLUMNS = ("id", "p", "v", "_change_type", "_commit_version")


def rows(dicts):
    return collections.Counter(tuple(d[c] for c in COLUMNS) for d in dicts)


def deltalite_changes(warehouse, path):
    db = engines.Deltalite(warehouse)
    try:
        table = db.query(f"SELECT * FROM table_changes('delta.`{path}`', 0)")
    finally:
        db.close()
    return rows(table.to_pylist())


def spark_changes(spark, path):
    return rows(r.asDict() for r in spark.sql(f"SELECT * FROM table_changes('delta.`{path}`', 0)").collect())


@pytest.fixture(scope="module", params=sorted(TABLES))
def ours(request, tmp_path_factory):
    """deltalite's CDF history: (kind, warehouse, path, its table_changes)."""
    warehouse = tmp_path_factory.mktemp(f"dl_cdf_{request.param}")
    path = warehouse / "c"
    for step in [TABLES[request.param]] + STEPS:
        deltalite_sql(warehouse, step.format(t="c"))
    return request.param, warehouse, path, deltalite_changes(warehouse, path)


def test_deltalite_writes_change_files(ours):
    kind, _, path, changes = ours
    assert len(list(path.glob("_change_data/**/cdc-*.parquet"))) >= 3
    kinds = collections.Counter(r[3] for r in changes)
    assert kinds["update_preimage"] == kinds["update_postimage"] == 3, kinds
    assert kinds["delete"] == 5 and kinds["insert"] == 8, kinds


def test_spark_reads_our_change_data_feed(spark, ours):
    _, _, path, changes = ours
    assert spark_changes(spark, path) == changes


def test_deltars_reads_our_change_data_feed(ours):
    _, _, path, changes = ours
    got = rows(pa.table(deltalake.DeltaTable(str(path)).load_cdf(starting_version=0).read_all()).to_pylist())
    assert got == changes


@pytest.mark.parametrize("kind", sorted(TABLES))
def test_deltalite_reads_sparks_change_data_feed(spark, tmp_path, kind):
    path = tmp_path / "s"
    table = f"delta.`{path}`"
    for step in [TABLES[kind]] + STEPS:
        # Delta refuses subqueries in DELETE and UPDATE conditions: the same rows, plainly.
        spark.sql(step.format(t=table).replace("IN (SELECT 9)", "= 9").replace("IN (SELECT 20)", "= 20"))
    assert deltalite_changes(tmp_path, path) == spark_changes(spark, path)
