"""Column mapping both ways (issue 17): a table deltalite writes with delta.columnMapping.mode
'name' (partitioned, a nested struct) through inserts, renames (top-level and nested), drops, ADD
COLUMNS, UPDATE, DELETE, MERGE and OPTIMIZE, and one in 'id' mode, are read by Spark and delta-rs
at the versions each kind of commit made (CHECKED) with deltalite's rows, and their files carry physical names with Parquet field
ids; a mapped table Spark wrote (rename + drop) is read by deltalite, written on top, and read
back by Spark with deltalite's rows."""

import json

import pyarrow.parquet as pq
import pytest

import engines
from engines import deltalite_read, deltalite_sql, deltars_sql_read, spark_read

NAME_STEPS = [
    "CREATE TABLE {t} (id INT, v STRING, s STRUCT<x: INT, y: STRING>, p INT) USING DELTA "
    "PARTITIONED BY (p) TBLPROPERTIES ('delta.columnMapping.mode' = 'name')",
    "INSERT INTO {t} VALUES (1, 'a', named_struct('x', 1, 'y', 'p'), 1), (2, 'b', named_struct('x', 2, 'y', 'q'), 1), "
    "(3, 'c', named_struct('x', 3, 'y', 'r'), 2)",
    "ALTER TABLE {t} RENAME COLUMN v TO `v 2`",
    "ALTER TABLE {t} RENAME COLUMN s.x TO xx",
    "ALTER TABLE {t} DROP COLUMN s.y",
    "ALTER TABLE {t} ADD COLUMNS (w BIGINT)",
    "INSERT INTO {t} VALUES (4, 'd', named_struct('xx', 4), 2, 40)",
    "UPDATE {t} SET w = 10 WHERE id = 1",
    "DELETE FROM {t} WHERE id = 2",
    "MERGE INTO {t} AS t USING (SELECT 3 AS id, 'm' AS v UNION ALL SELECT 5, 'n') AS s ON t.id = s.id "
    "WHEN MATCHED THEN UPDATE SET `v 2` = s.v WHEN NOT MATCHED THEN INSERT (id, `v 2`, p) VALUES (s.id, s.v, 3)",
    "ALTER TABLE {t} DROP COLUMNS (w)",
    "OPTIMIZE {t}",
]

ID_STEPS = [
    "CREATE TABLE {t} USING DELTA TBLPROPERTIES ('delta.columnMapping.mode' = 'id') AS SELECT 1 AS id, 'a' AS v",
    "INSERT INTO {t} VALUES (2, 'b')",
    "ALTER TABLE {t} RENAME COLUMN v TO vv",
    "UPDATE {t} SET vv = 'B' WHERE id = 2",
]

SPARK_STEPS = [
    "CREATE TABLE {t} (k INT, v STRING, n STRUCT<a: INT, b: INT>) USING DELTA "
    "TBLPROPERTIES ('delta.columnMapping.mode' = 'name')",
    "INSERT INTO {t} VALUES (1, 'x', named_struct('a', 1, 'b', 2)), (2, 'y', named_struct('a', 3, 'b', 4))",
    "ALTER TABLE {t} RENAME COLUMN v TO v2",
    "ALTER TABLE {t} DROP COLUMN n.b",
]

DELTALITE_ON_SPARK = [
    "INSERT INTO {t} VALUES (3, 'z', named_struct('a', 5))",
    "UPDATE {t} SET v2 = 'Y' WHERE k = 2",
    "ALTER TABLE {t} RENAME COLUMN k TO key",
    "ALTER TABLE {t} ADD COLUMNS (extra STRING)",
    "INSERT INTO {t} VALUES (4, 'w', named_struct('a', 7), 'e')",
]


def versions(path):
    return sorted(int(p.stem) for p in (path / "_delta_log").glob("*.json"))


# The versions compared (each is a Spark and a delta-rs read; the suite's time is short): after
# the insert, the nested rename and drop, the insert over the new schema, MERGE, OPTIMIZE.
CHECKED = {"named": [1, 4, 6, 9, 11], "ids": [0, 3]}


@pytest.fixture(scope="module")
def ours(tmp_path_factory):
    warehouse = tmp_path_factory.mktemp("dl_colmap")
    for name, steps in (("named", NAME_STEPS), ("ids", ID_STEPS)):
        deltalite_sql(warehouse, ";\n".join(step.format(t=name) for step in steps))
    return warehouse


def test_files_carry_physical_names_and_field_ids(ours):
    path = ours / "named"
    schema = json.loads(next(json.loads(line)["metaData"]["schemaString"]
                             for line in (path / "_delta_log" / "00000000000000000000.json").read_text().splitlines()
                             if "metaData" in line))
    physical = {f["metadata"]["delta.columnMapping.physicalName"]: f["metadata"]["delta.columnMapping.id"]
                for f in schema["fields"]}
    first = [line for line in (path / "_delta_log" / "00000000000000000001.json").read_text().splitlines() if '"add"' in line]
    add = json.loads(first[0])["add"]
    assert set(add["partitionValues"]) <= set(physical)
    assert set(json.loads(add["stats"])["minValues"]) <= set(physical)
    arrow = pq.read_schema(path / add["path"])
    for field in arrow:
        assert field.name in physical, field.name
        assert int(field.metadata[b"PARQUET:field_id"]) == physical[field.name]


def test_spark_and_deltars_read_every_version(spark, ours):
    db = engines.Deltalite(ours)
    bad = []
    try:
        for name in ("named", "ids"):
            path = ours / name
            assert versions(path)[-1] == CHECKED[name][-1]
            for version in CHECKED[name]:
                got = deltalite_read(db, path, version=version)
                if spark_read(spark, path, version=version) != got:
                    bad.append(f"{name} v{version}: Spark differs")
                if deltars_sql_read(path, version=version)[1] != got[1]:
                    bad.append(f"{name} v{version}: delta-rs differs")
    finally:
        db.close()
    assert bad == []


def test_deltalite_writes_on_a_spark_mapped_table(spark, tmp_path):
    path = tmp_path / "sp"
    for step in SPARK_STEPS:
        spark.sql(step.format(t=f"delta.`{path}`"))
    before = spark_read(spark, path)
    db = engines.Deltalite(tmp_path)
    try:
        assert deltalite_read(db, path) == before
    finally:
        db.close()
    deltalite_sql(tmp_path, ";\n".join(step.format(t="sp") for step in DELTALITE_ON_SPARK))
    db = engines.Deltalite(tmp_path)
    try:
        ours = deltalite_read(db, path)
    finally:
        db.close()
    assert spark_read(spark, path) == ours
    assert len(ours[1]) == 4
    history = spark.sql(f"DESCRIBE HISTORY delta.`{path}`").select("operation").collect()
    assert [r[0] for r in history][:3] == ["WRITE", "ADD COLUMNS", "RENAME COLUMN"]
