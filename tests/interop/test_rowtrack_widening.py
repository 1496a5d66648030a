"""Row tracking and type widening with Spark in the loop (issue 17).

Row tracking: deltalite's CREATE ... 'delta.enableRowTracking' = 'true', its appends, a DELETE
through deletion vectors and the backfill of ALTER ... SET TBLPROPERTIES on a table with files;
Spark reads `_metadata.row_id` / `_metadata.row_commit_version` of those tables and gets the ids
deltalite's adds assigned (baseRowId + position, defaultRowCommitVersion). Spark then updates a
row of deltalite's table (keeping its id in the materialized column) and deltalite appends on
top: the new rows get ids past Spark's high water mark, and deltalite refuses UPDATE (it cannot
keep ids yet). delta-rs reads deltalite's row-tracked table.

Type widening: a table Spark widened (TINYINT -> INT, FLOAT -> DOUBLE, with old files of the
narrow types) reads in deltalite as in Spark; deltalite widens two more columns (a partition
column among them) and appends, and Spark reads that as deltalite does.

One Spark session, few Spark actions (each costs seconds on 2 cores)."""

import json

import pytest

import engines
from engines import DeltaliteError, deltalite_sql, deltars_sql_read, spark_read


def commits(path):
    out = {}
    for f in sorted((path / "_delta_log").glob("*.json")):
        out[int(f.stem)] = [json.loads(line) for line in f.read_text().splitlines() if line]
    return out


def spark_ids(spark, path):
    """{id: (row_id, row_commit_version)} as Spark reads them."""
    rows = spark.sql(
        f"SELECT id, _metadata.row_id AS r, _metadata.row_commit_version AS c FROM delta.`{path}`"
    ).collect()
    return {row["id"]: (row["r"], row["c"]) for row in rows}


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    warehouse = tmp_path_factory.mktemp("dl_rowtrack")
    deltalite_sql(
        warehouse,
        "SET spark.sql.files.maxRecordsPerFile = 2; "
        "CREATE TABLE t (id BIGINT, v STRING) USING DELTA TBLPROPERTIES ('delta.enableRowTracking' = 'true'); "
        "INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c'); "
        "INSERT INTO t VALUES (4, 'd'), (5, 'e'); "
        "ALTER TABLE t SET TBLPROPERTIES ('delta.enableDeletionVectors' = 'true'); "
        "DELETE FROM t WHERE id = 1; "
        "INSERT INTO t VALUES (6, 'f'); "
        "CREATE TABLE u (id BIGINT) USING DELTA; "
        "INSERT INTO u VALUES (10), (11), (12); "
        "INSERT INTO u VALUES (13); "
        "ALTER TABLE u SET TBLPROPERTIES ('delta.enableRowTracking' = 'true'); "
        "INSERT INTO u VALUES (14)",
    )
    return warehouse


def expected_ids(path):
    """{id: (row_id, commit_version)} from deltalite's adds: baseRowId + the row's position in
    its file, defaultRowCommitVersion (read with pyarrow, deletion vectors aside)."""
    import pyarrow.parquet as pq

    live = {}
    for _, actions in sorted(commits(path).items()):
        for a in actions:
            if "add" in a:
                live[a["add"]["path"]] = a["add"]
            elif "remove" in a:
                live.pop(a["remove"]["path"], None)
    out = {}
    for rel, add in live.items():
        ids = pq.read_table(path / rel, columns=["id"]).column(0).to_pylist()
        for pos, i in enumerate(ids):
            out[i] = (add["baseRowId"] + pos, add["defaultRowCommitVersion"])
    return out


def test_spark_reads_deltalites_row_ids(spark, tables):
    t, u = tables / "t", tables / "u"
    log = commits(t)
    assert any(a.get("domainMetadata", {}).get("domain") == "delta.rowTracking" for a in log[1])
    want_t = expected_ids(t)
    want_t.pop(1)  # deleted through the deletion vector
    assert spark_ids(spark, t) == want_t
    assert want_t == {2: (1, 1), 3: (2, 1), 4: (3, 2), 5: (4, 2), 6: (5, 5)}
    got_u = spark_ids(spark, u)
    assert sorted(r for r, _ in got_u.values()) == [0, 1, 2, 3, 4]
    # versions 3 and 4 are the protocol upgrade and the backfill, 5 sets the property
    assert {c for i, (_, c) in got_u.items() if i < 14} == {4} and got_u[14] == (4, 6)
    _, rows = deltars_sql_read(t)
    assert len(rows) == 5


def test_deltalite_appends_after_sparks_update(spark, tables):
    t = tables / "t"
    before = spark_ids(spark, t)
    spark.sql(f"UPDATE delta.`{t}` SET v = 'spark' WHERE id = 3")
    after_update = spark_ids(spark, t)
    assert after_update[3][0] == before[3][0]  # Spark kept the id through its materialized column
    with pytest.raises(DeltaliteError, match="tracks row ids"):
        deltalite_sql(tables, "UPDATE t SET v = 'x' WHERE id = 2")
    deltalite_sql(tables, "INSERT INTO t VALUES (7, 'g'), (8, 'h')")
    final = spark_ids(spark, t)
    ids = [r for r, _ in final.values()]
    assert len(ids) == len(set(ids))
    spark_hwm = max(r for r, _ in after_update.values())
    assert final[7][0] > spark_hwm and final[8][0] > spark_hwm
    last = max(commits(t))
    assert final[7][1] == last and final[8][1] == last
    rows = engines.Deltalite(tables)
    got = rows.query("SELECT id, v FROM t ORDER BY id").to_pylist()
    rows.close()
    assert [(r["id"], r["v"]) for r in got] == [
        (2, "b"), (3, "spark"), (4, "d"), (5, "e"), (6, "f"), (7, "g"), (8, "h")]


def test_widened_tables_both_ways(spark, tmp_path):
    """deltalite reads the table Spark widened (old files of narrow types) as Spark does, then
    appends and widens another column on top; Spark reads the result as deltalite does."""
    path = tmp_path / "widened"
    spark.sql(
        f"CREATE TABLE delta.`{path}` (id INT, small TINYINT, f FLOAT, p INT) USING DELTA PARTITIONED BY (p) "
        "TBLPROPERTIES ('delta.enableTypeWidening' = 'true')")
    spark.sql(f"INSERT INTO delta.`{path}` VALUES (1, 1, 1.5, 1), (2, -2, 2.25, 2)")
    spark.sql(f"ALTER TABLE delta.`{path}` ALTER COLUMN small TYPE INT")
    spark.sql(f"ALTER TABLE delta.`{path}` ALTER COLUMN f TYPE DOUBLE")
    spark.sql(f"INSERT INTO delta.`{path}` VALUES (3, 100000, 0.1, 1)")
    want = spark_read(spark, path)
    db = engines.Deltalite(tmp_path)
    got = engines.deltalite_read(db, path)
    filtered = db.query(f"SELECT id FROM delta.`{path}` WHERE small > 0 AND f < 2 ORDER BY id").to_pylist()
    db.close()
    assert got == want
    assert [r["id"] for r in filtered] == [1, 3]
    deltalite_sql(
        tmp_path,
        f"ALTER TABLE delta.`{path}` ALTER COLUMN id TYPE BIGINT; "
        f"ALTER TABLE delta.`{path}` ALTER COLUMN p TYPE BIGINT; "
        f"INSERT INTO delta.`{path}` VALUES (5000000000, 7, 7.5, 4000000000)")
    log = commits(path)
    last_md = [a["metaData"] for v in sorted(log) for a in log[v] if "metaData" in a][-1]
    fields = {f["name"]: f for f in json.loads(last_md["schemaString"])["fields"]}
    assert fields["id"]["metadata"]["delta.typeChanges"] == [{"toType": "long", "fromType": "integer"}]
    assert fields["small"]["metadata"]["delta.typeChanges"] == [{"toType": "integer", "fromType": "byte"}]
    db = engines.Deltalite(tmp_path)
    mine = engines.deltalite_read(db, path)
    db.close()
    assert spark_read(spark, path) == mine
    assert len(mine[1]) == 4
    with pytest.raises(DeltaliteError, match="NOT_SUPPORTED_CHANGE_COLUMN"):
        deltalite_sql(tmp_path, f"ALTER TABLE delta.`{path}` ALTER COLUMN small TYPE SMALLINT")
