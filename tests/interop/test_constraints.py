"""CHECK constraints both ways (issue 17): Spark enforces the constraints deltalite adds (its
INSERT that violates one fails, one that holds commits) and reads deltalite's rows, delta-rs
reads them; deltalite enforces the constraints Spark adds (same error class, nothing
committed) and Spark reads what deltalite then wrote. Kept small: one Spark session, few
Spark actions."""

import deltalake
import pytest

from engines import DeltaliteError, deltalite_sql


def spark_rows(spark, path):
    return sorted(tuple(r) for r in spark.read.format("delta").load(str(path)).collect())


def test_spark_enforces_deltalite_constraints(spark, tmp_path):
    path = tmp_path / "ours"
    deltalite_sql(
        tmp_path,
        f"CREATE TABLE delta.`{path}` (a INT, b STRING) USING delta; "
        f"INSERT INTO delta.`{path}` VALUES (1, 'x'), (2, 'y'); "
        f"ALTER TABLE delta.`{path}` ADD CONSTRAINT Pos CHECK (a > 0 AND b <> 'bad')",
    )
    props = {r.key: r.value for r in spark.sql(f"SHOW TBLPROPERTIES delta.`{path}`").collect()}
    assert props["delta.constraints.pos"] == "a > 0 AND b <> 'bad'"
    assert props["delta.minWriterVersion"] == "3"
    with pytest.raises(Exception, match="DELTA_VIOLATE_CONSTRAINT_WITH_VALUES"):
        spark.sql(f"INSERT INTO delta.`{path}` VALUES (-1, 'z')")
    spark.sql(f"INSERT INTO delta.`{path}` VALUES (3, 'z')")
    assert spark_rows(spark, path) == [(1, "x"), (2, "y"), (3, "z")]
    table = deltalake.DeltaTable(str(path))
    assert sorted(zip(*table.to_pyarrow_table().to_pydict().values())) == [(1, "x"), (2, "y"), (3, "z")]
    # deltalite drops it: Spark then accepts the row.
    deltalite_sql(tmp_path, f"ALTER TABLE delta.`{path}` DROP CONSTRAINT pos")
    spark.sql(f"INSERT INTO delta.`{path}` VALUES (-1, 'z')")
    assert len(spark_rows(spark, path)) == 4


def test_deltalite_enforces_spark_constraints(spark, tmp_path):
    path = tmp_path / "theirs"
    spark.sql(f"CREATE TABLE delta.`{path}` (a INT, b STRING) USING delta PARTITIONED BY (b)")
    spark.sql(f"INSERT INTO delta.`{path}` VALUES (1, 'x')")
    spark.sql(f"ALTER TABLE delta.`{path}` ADD CONSTRAINT small CHECK (a < 10)")
    for bad in (
        f"INSERT INTO delta.`{path}` VALUES (5, 'y'), (50, 'y')",
        f"UPDATE delta.`{path}` SET a = 11",
        f"MERGE INTO delta.`{path}` t USING (SELECT 1 AS k) s ON t.a = s.k WHEN MATCHED THEN UPDATE SET a = 12",
    ):
        with pytest.raises(DeltaliteError, match=r"DELTA_VIOLATE_CONSTRAINT_WITH_VALUES.*small"):
            deltalite_sql(tmp_path, bad)
    deltalite_sql(tmp_path, f"INSERT INTO delta.`{path}` VALUES (5, 'y'); UPDATE delta.`{path}` SET a = a + 1")
    with pytest.raises(DeltaliteError, match="DELTA_NEW_CHECK_CONSTRAINT_VIOLATION"):
        deltalite_sql(tmp_path, f"ALTER TABLE delta.`{path}` ADD CONSTRAINT big CHECK (a > 5)")
    assert spark_rows(spark, path) == [(2, "x"), (6, "y")]
    history = spark.sql(f"DESCRIBE HISTORY delta.`{path}`").collect()
    assert [h.operation for h in sorted(history, key=lambda h: h.version)][-2:] == ["WRITE", "UPDATE"]
