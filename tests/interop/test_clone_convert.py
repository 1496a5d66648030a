"""CLONE, CONVERT TO DELTA and INSERT ... REPLACE WHERE, deltalite and Spark on the same
folders: Spark and delta-rs read deltalite's shallow clone (adds by absolute URI), Spark,
delta-rs and DuckDB its deep clone and converted folder; deltalite reads Spark's shallow clone of its table; each statement's
history entry has the operation, operationParameters keys and operationMetrics keys Spark
writes for the same statement. A handful of Spark statements."""

import json
import shutil

from engines import canon_scalar, deltalite_sql, deltars_read, deltars_sql_read, duckdb_connect, duckdb_read, spark_read


def commit_info(path, version):
    log = path / "_delta_log" / f"{version:020d}.json"
    for line in log.read_text().splitlines():
        action = json.loads(line)
        if "commitInfo" in action:
            return action["commitInfo"]
    raise AssertionError(f"{log} has no commitInfo")


def shape(info):
    return info["operation"], sorted(info["operationParameters"]), sorted(info.get("operationMetrics", {}))


def rows(result):
    return result[1]


def expect(tuples):
    """The sorted canonical rows (engines.arrow_result's form) of Python tuples."""
    return sorted("(" + ", ".join(canon_scalar(v) for v in t) + ")" for t in tuples)


def test_clones_read_both_ways_with_spark_history(spark, tmp_path):
    deltalite_sql(tmp_path, "CREATE TABLE src (id BIGINT, p STRING) USING DELTA PARTITIONED BY (p); "
                  "INSERT INTO src VALUES (1, 'a'), (2, 'b'); INSERT INTO src VALUES (3, 'a'); "
                  "CREATE TABLE sh SHALLOW CLONE src VERSION AS OF 1; CREATE TABLE dp DEEP CLONE src")
    src, sh, dp = tmp_path / "src", tmp_path / "sh", tmp_path / "dp"
    adds = [json.loads(line)["add"]["path"] for line in (sh / "_delta_log" / f"{0:020d}.json").read_text().splitlines()
            if "add" in json.loads(line)]
    assert adds and all(a.startswith("file:/") for a in adds)
    assert rows(spark_read(spark, sh)) == expect([(1, "a"), (2, "b")])
    assert rows(spark_read(spark, dp)) == expect([(1, "a"), (2, "b"), (3, "a")])
    # delta-rs resolves absolute paths in its DataFusion engine only (to_pyarrow_table and
    # DuckDB's delta extension join them to the table's folder: docs/sql.md)
    assert rows(deltars_sql_read(sh)) == expect([(1, "a"), (2, "b")])
    assert rows(deltars_read(dp)) == expect([(1, "a"), (2, "b"), (3, "a")])
    assert rows(duckdb_read(duckdb_connect(), dp)) == expect([(1, "a"), (2, "b"), (3, "a")])

    theirs = tmp_path / "spark_sh"
    spark.sql(f"CREATE TABLE delta.`{theirs}` SHALLOW CLONE delta.`{src}` VERSION AS OF 1")
    assert shape(commit_info(sh, 0)) == shape(commit_info(theirs, 0))
    out = deltalite_sql(tmp_path, f"SELECT id, p FROM delta.`{theirs}` ORDER BY id", json_out=True)
    assert json.loads(out) == [{"id": 1, "p": "a"}, {"id": 2, "p": "b"}]
    assert shape(commit_info(dp, 0)) == shape(commit_info(theirs, 0))  # DEEP is Databricks' only


def test_converted_folder_reads_in_spark_and_deltars(spark, tmp_path):
    ours, theirs = tmp_path / "pq_ours", tmp_path / "pq_theirs"
    spark.range(6).selectExpr("id", "cast(id % 2 as string) as part").write.partitionBy("part").parquet(str(ours))
    shutil.copytree(ours, theirs)
    deltalite_sql(tmp_path, f"CONVERT TO DELTA parquet.`{ours}` PARTITIONED BY (part STRING)")
    spark.sql(f"CONVERT TO DELTA parquet.`{theirs}` PARTITIONED BY (part STRING)")
    assert shape(commit_info(ours, 0)) == shape(commit_info(theirs, 0))
    expected = expect([(i, str(i % 2)) for i in range(6)])
    assert rows(spark_read(spark, ours)) == expected
    assert rows(deltars_read(ours)) == expected
    assert rows(duckdb_read(duckdb_connect(), ours)) == expected


def test_replace_where_history_matches_spark(spark, tmp_path):
    sql = ("CREATE TABLE {t} (id BIGINT, v BIGINT) USING DELTA; INSERT INTO {t} VALUES (1, 10), (2, 20); "
           "INSERT INTO {t} REPLACE WHERE id >= 2 SELECT 5, 50")
    deltalite_sql(tmp_path, sql.format(t="rw"))
    theirs = tmp_path / "spark_rw"
    for stmt in sql.format(t=f"delta.`{theirs}`").split("; "):
        spark.sql(stmt)
    assert shape(commit_info(tmp_path / "rw", 2)) == shape(commit_info(theirs, 2))
    assert rows(spark_read(spark, tmp_path / "rw")) == expect([(1, 10), (5, 50)])
