"""TRUNCATE TABLE and views, deltalite and Spark on the same folders: Spark reads a table that
deltalite truncated (no rows at the TRUNCATE version, the old rows by time travel) and finds
Delta's own TRUNCATE history entry (no parameters, numRemovedFiles and executionTimeMs);
deltalite reads a table Spark truncated. Seconds: one table each way."""

import json

from engines import deltalite_sql, spark_read


def last_commit_info(path):
    log = sorted((path / "_delta_log").glob("*.json"))[-1]
    for line in log.read_text().splitlines():
        action = json.loads(line)
        if "commitInfo" in action:
            return action["commitInfo"]
    raise AssertionError(f"{log} has no commitInfo")


def test_spark_reads_a_table_deltalite_truncated(spark, tmp_path):
    deltalite_sql(tmp_path, "CREATE TABLE tr (id BIGINT, p STRING) USING DELTA PARTITIONED BY (p); "
                  "INSERT INTO tr VALUES (1, 'a'), (2, 'b'), (3, 'b'); TRUNCATE TABLE tr")
    path = tmp_path / "tr"
    info = last_commit_info(path)
    assert info["operation"] == "TRUNCATE"
    assert info["operationParameters"] == {}
    assert sorted(info["operationMetrics"]) == ["executionTimeMs", "numRemovedFiles"]
    assert info["operationMetrics"]["numRemovedFiles"] == "2"
    assert spark_read(spark, path)[1] == []
    assert len(spark_read(spark, path, version=1)[1]) == 3
    row = spark.sql(f"DESCRIBE HISTORY delta.`{path}` LIMIT 1").collect()[0]
    assert (row.version, row.operation, row.operationParameters) == (2, "TRUNCATE", {})
    assert row.operationMetrics["numRemovedFiles"] == "2"
    spark.sql(f"INSERT INTO delta.`{path}` VALUES (4, 'c')")
    out = deltalite_sql(tmp_path, "SELECT id, p FROM tr", json_out=True)
    assert json.loads(out) == [{"id": 4, "p": "c"}]


def test_deltalite_reads_a_table_spark_truncated_and_a_view_over_it(spark, tmp_path):
    path = tmp_path / "sp"
    spark.sql(f"CREATE TABLE delta.`{path}` (id BIGINT) USING DELTA")
    spark.sql(f"INSERT INTO delta.`{path}` VALUES (1), (2)")
    spark.sql(f"TRUNCATE TABLE delta.`{path}`")
    theirs = last_commit_info(path)
    deltalite_sql(tmp_path, f"CREATE VIEW old AS SELECT id FROM delta.`{path}` VERSION AS OF 1; "
                  "TRUNCATE TABLE sp")
    ours = last_commit_info(path)
    assert (ours["operation"], ours["operationParameters"]) == (theirs["operation"], theirs["operationParameters"])
    assert sorted(ours["operationMetrics"]) == sorted(theirs["operationMetrics"])
    out = deltalite_sql(tmp_path, "SELECT count(*) AS n FROM old", json_out=True)
    assert json.loads(out) == [{"n": 2}]
