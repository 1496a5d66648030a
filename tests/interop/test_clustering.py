"""Clustering between deltalite, Spark and delta-rs: Spark and delta-rs read the tables deltalite
z-ordered and liquid-clustered (same rows; Spark's DESCRIBE DETAIL sees the clustering columns
and DESCRIBE HISTORY the OPTIMIZE parameters), and deltalite reads a clustered table Spark
wrote and OPTIMIZEd, then inserts into it and clusters only its own new file, which Spark
reads and OPTIMIZEs again. One small table each way, few Spark actions."""

import json

from engines import deltalite_sql, deltars_read, spark_read

ROWS = "SELECT id, CAST((id * 7919) % 1000 AS INT) AS x, CAST((id * 104729) % 997 AS INT) AS y FROM range(0, {n}) AS r(id)"


def ours(warehouse, sql):
    return json.loads(deltalite_sql(warehouse, sql, json_out=True) or "[]")


def adds(path, version):
    log = path / "_delta_log" / f"{version:020d}.json"
    return [json.loads(line)["add"] for line in log.read_text().splitlines() if '"add"' in line]


def test_spark_and_deltars_read_our_zordered_and_clustered_tables(spark, tmp_path):
    setup = (
        "SET spark.databricks.delta.optimize.maxFileSize = 8192; "
        f"CREATE TABLE z USING DELTA AS {ROWS.format(n=6000)}; "
        f"INSERT INTO z {ROWS.format(n=6000).replace('range(0', 'range(6000').replace('6000)', '12000)')}; "
        "CREATE TABLE c (id BIGINT, x INT, y INT) USING DELTA CLUSTER BY (x, y); "
        f"INSERT INTO c {ROWS.format(n=5000)}; INSERT INTO c {ROWS.format(n=3000)}; OPTIMIZE c"
    )
    deltalite_sql(tmp_path, setup)
    res = ours(tmp_path, "SET spark.databricks.delta.optimize.maxFileSize = 8192; OPTIMIZE z ZORDER BY (x, y)")
    stats = res[-1]["metrics"]["zOrderStats"]
    assert stats["strategyName"] == "all" and stats["inputOtherFiles"]["num"] == 2
    assert stats["mergedFiles"]["num"] == 2 and stats["numOutputCubes"] == 1 and stats["mergedNumCubes"] is None
    assert res[-1]["metrics"]["numFilesAdded"] > 4
    for name, n in (("z", 12000), ("c", 8000)):
        path = tmp_path / name
        theirs = spark_read(spark, path)[1]
        assert theirs == deltars_read(path)[1] and len(theirs) == n
        mine = ours(tmp_path, f"SELECT id, x, y FROM {name}")
        assert sorted(f"({r['id']}, {r['x']}, {r['y']})" for r in mine) == theirs
    z = tmp_path / "z"
    hist = spark.sql(f"DESCRIBE HISTORY delta.`{z}` LIMIT 1").collect()[0]
    assert hist.operation == "OPTIMIZE" and hist.operationParameters["zOrderBy"] == '["x","y"]'
    c = tmp_path / "c"
    detail = spark.sql(f"DESCRIBE DETAIL delta.`{c}`").collect()[0]
    assert detail.clusteringColumns == ["x", "y"]
    assert "clustering" in detail.tableFeatures
    tags = adds(c, 3)[0]["tags"]
    assert sorted(tags) == ["ZCUBE_ID", "ZCUBE_ZORDER_BY"] and tags["ZCUBE_ZORDER_BY"] == '["x","y"]'
    text = ours(tmp_path, "SHOW CREATE TABLE c")[0]["createtab_stmt"]
    assert "USING delta\nCLUSTER BY (x, y)\n" in text


def test_deltalite_clusters_on_top_of_a_table_spark_clustered(spark, tmp_path):
    path = tmp_path / "sc"
    spark.sql(f"CREATE TABLE delta.`{path}` (a INT, b STRING, c BIGINT) USING DELTA CLUSTER BY (a, b)")
    spark.sql(f"INSERT INTO delta.`{path}` SELECT CAST(id % 50 AS INT), CAST(id % 7 AS STRING), id FROM range(0, 500)")
    spark.sql(f"INSERT INTO delta.`{path}` SELECT CAST(id % 50 AS INT), CAST(id % 7 AS STRING), id FROM range(500, 900)")
    spark.sql(f"OPTIMIZE delta.`{path}`")
    detail = ours(tmp_path, "SELECT clusteringColumns FROM (DESCRIBE DETAIL sc)")
    assert detail == [{"clusteringColumns": ["a", "b"]}]
    got = ours(tmp_path, "SELECT count(*) AS n, sum(c) AS s FROM sc")
    assert got == [{"n": 900, "s": 404550}]
    version = ours(tmp_path, "SELECT max(version) AS v FROM (DESCRIBE HISTORY sc)")[0]["v"]
    spark_files = len(adds(path, version))
    deltalite_sql(tmp_path, "INSERT INTO sc VALUES (7, 'x', 900), (8, 'y', 901); OPTIMIZE sc")
    info = ours(tmp_path, "SELECT operation, operationParameters AS p, operationMetrics AS m FROM (DESCRIBE HISTORY sc) LIMIT 1")[0]
    assert info["operation"] == "OPTIMIZE" and info["p"]["clusterBy"] == '["a","b"]' and info["p"]["isFull"] == "false"
    # Spark's clustered files are left alone: only deltalite's new file is clustered.
    assert info["m"]["numRemovedFiles"] == "1", (info, spark_files)
    new = adds(path, version + 2)
    assert new[0]["clusteringProvider"] == "liquid" and new[0]["tags"]["ZCUBE_ZORDER_BY"] == '["a","b"]'
    rows = spark.sql(f"SELECT count(*), sum(c) FROM delta.`{path}`").collect()[0]
    assert tuple(rows) == (902, 404550 + 1801)
    spark.sql(f"OPTIMIZE delta.`{path}` FULL")
    got = ours(tmp_path, "SELECT count(*) AS n, sum(c) AS s FROM sc")
    assert got == [{"n": 902, "s": 404550 + 1801}]
