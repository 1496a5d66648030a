"""deltalite writes, the others read: a scripted history through the deltalite shell, then
Spark, delta-rs and DuckDB read every version with the same schema and rows as deltalite;
Spark's DESCRIBE HISTORY / DETAIL work, and Spark writes on top that deltalite reads back."""

import pytest

import engines
from engines import deltalite_read, deltalite_sql, deltars_read, duckdb_read, spark_read

COLUMNS = (
    "id BIGINT, p STRING, d DECIMAL(20,4), big DECIMAL(38,18), ts TIMESTAMP, tn TIMESTAMP_NTZ, dt DATE, "
    "s STRUCT<x: INT, y: ARRAY<STRING>>, m MAP<STRING, DOUBLE>, b BINARY, f FLOAT, bo BOOLEAN, "
    "i8 TINYINT, i16 SMALLINT, i32 INT"
)

ROWS_1 = """
(1, 'a b', 1.5, 12345678901234567890.123456789012345678, TIMESTAMP'2024-01-01 10:00:00.123456',
 TIMESTAMP_NTZ'2024-01-01 10:00:00.123456', DATE'2024-02-29', named_struct('x', 1, 'y', array('u', NULL)),
 map('k', 1.25D), X'CAFE', 1.5F, true, -128, -32768, -2147483648),
(2, 'x/y', -0.0001, -1.000000000000000001, TIMESTAMP'9999-12-31 23:59:59.999999',
 TIMESTAMP_NTZ'9999-12-31 23:59:59.999999', DATE'9999-12-31', named_struct('x', NULL, 'y', array()),
 map(), X'', CAST('NaN' AS FLOAT), false, 127, 32767, 2147483647),
(3, '50%', 99999999999999.9999, 0, TIMESTAMP'0001-01-01 00:00:00', TIMESTAMP_NTZ'0001-01-01 00:00:00',
 DATE'0001-01-01', NULL, map('a', NULL, 'b', CAST('-Infinity' AS DOUBLE)), NULL, -0.0F, NULL, 0, 0, 0),
(4, 'k=v', NULL, NULL, NULL, NULL, NULL, named_struct('x', 4, 'y', NULL), NULL, X'00FF', NULL, true, NULL, NULL, NULL),
(5, 'ü日本', 0.5, 0.5, TIMESTAMP'1970-01-01 00:00:00.000001', TIMESTAMP_NTZ'1969-12-31 23:59:59.999999',
 DATE'1969-12-31', named_struct('x', -5, 'y', array('ü', '')), map('ü', 0.0D), X'01', 3.4028234E38F, false, 5, 5, 5),
(6, '', 6, 6, TIMESTAMP'2024-06-30 23:59:59.5', TIMESTAMP_NTZ'2024-06-30 23:59:59.5', DATE'2024-06-30',
 NULL, NULL, NULL, 6, NULL, 6, 6, 6),
(7, NULL, 7, 7, TIMESTAMP'2000-01-01 00:00:00', NULL, DATE'2000-01-01', NULL, NULL, NULL, 7, true, 7, 7, 7)
"""

# The history: one step per shell run (one commit each, except where noted).
HISTORY = [
    f"CREATE TABLE events ({COLUMNS}) USING DELTA PARTITIONED BY (p) "
    "TBLPROPERTIES ('delta.checkpointInterval' = '4', 'team' = 'interop')",
    f"INSERT INTO events VALUES {ROWS_1}",
    "INSERT INTO events SELECT id + 100, CASE WHEN id % 3 = 0 THEN 'a b' WHEN id % 3 = 1 THEN 'x/y' ELSE NULL END, "
    "id / 8, id * 3, timestamp_micros(1577836800000000 + id * 1000001), NULL, "
    "DATE'2020-01-01' + CAST(id AS INT), named_struct('x', CAST(id AS INT), 'y', array(CAST(id AS STRING))), "
    "map(CAST(id AS STRING), id / 3.0D), NULL, id / 7.0F, id % 2 = 0, CAST(id % 100 AS TINYINT), "
    "CAST(id AS SMALLINT), CAST(id AS INT) FROM range(0, 120)",
    "UPDATE events SET d = d * 2, s = named_struct('x', 0, 'y', array('updated')) WHERE id % 2 = 0",
    "DELETE FROM events WHERE p = 'x/y' AND id > 190",
    "MERGE INTO events t USING (SELECT * FROM VALUES (1, 'upd'), (3, 'del'), (1000, 'ins'), (1001, 'ins') "
    "AS src(id, op)) s ON t.id = s.id "
    "WHEN MATCHED AND s.op = 'del' THEN DELETE "
    "WHEN MATCHED THEN UPDATE SET t.d = 111.1111, t.bo = NULL "
    "WHEN NOT MATCHED AND s.id = 1001 THEN INSERT (id, p, d) VALUES (s.id, 'merged', 1) "
    "WHEN NOT MATCHED THEN INSERT (id, p) VALUES (s.id, 'a b') "
    "WHEN NOT MATCHED BY SOURCE AND t.id BETWEEN 150 AND 160 THEN DELETE "
    "WHEN NOT MATCHED BY SOURCE AND t.id BETWEEN 161 AND 170 THEN UPDATE SET t.f = -1",
    "ALTER TABLE events ADD COLUMNS (extra STRING COMMENT 'added', n STRUCT<q: INT, r: DECIMAL(5,2)>)",
    "INSERT INTO events (id, p, extra, n) VALUES (2000, 'k=v', 'e', named_struct('q', 1, 'r', 1.25)), "
    "(2001, NULL, NULL, named_struct('q', NULL, 'r', NULL))",
    "SET spark.databricks.delta.schema.autoMerge.enabled = true; "
    "INSERT INTO events (id, p, evolved) VALUES (3000, 'a b', DATE'2030-01-01')",
    "INSERT OVERWRITE events SELECT * FROM events WHERE id < 150 OR id >= 1000",
    "RESTORE TABLE events TO VERSION AS OF 6",
    "INSERT INTO events (id, p) VALUES (3100, 'a b')",
    "INSERT INTO events (id, p) VALUES (3101, 'a b')",
    "OPTIMIZE events",
    "VACUUM events",
    "INSERT INTO events (id, p) VALUES (4000, 'after vacuum')",
]


def write_history(warehouse, steps, table):
    """Runs steps in the deltalite shell over warehouse, one run each; returns the table's path,
    its last version and deltalite's rows at every version."""
    for step in steps:
        deltalite_sql(warehouse, step)
    path = warehouse / table
    db = engines.Deltalite(warehouse)
    last = db.query(f"SELECT max(version) AS v FROM (DESCRIBE HISTORY delta.`{path}`)").column(0)[0].as_py()
    expected = {v: deltalite_read(db, path, version=v) for v in range(last + 1)}
    db.close()
    return path, last, expected


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    """The table after the scripted history: (warehouse, table path, last version)."""
    warehouse = tmp_path_factory.mktemp("dl_writes")
    path, last, expected = write_history(warehouse, HISTORY, "events")
    deltalite_sql(warehouse, "CREATE TABLE ctas USING DELTA PARTITIONED BY (p) AS SELECT id, p, d, ts FROM events")
    return warehouse, path, last, expected


def mismatches(expected, read):
    """The versions whose read differs from deltalite's, with what differs."""
    out = []
    for version, want in expected.items():
        try:
            got = read(version)
        except Exception as exc:  # noqa: BLE001 - any failure of a peer is a mismatch to show
            out.append(f"v{version}: {type(exc).__name__}: {str(exc)[:300]}")
            continue
        if got[0] != want[0]:
            out.append(f"v{version}: schema {got[0]} != deltalite's {want[0]}")
        elif got[1] != want[1]:
            extra = sorted(set(got[1]) - set(want[1]))[:3]
            missing = sorted(set(want[1]) - set(got[1]))[:3]
            out.append(f"v{version}: {len(got[1])} rows vs {len(want[1])}; peer only {extra}; deltalite only {missing}")
    return out


def test_spark_reads_every_version(spark, history):
    _, path, _, expected = history
    assert mismatches(expected, lambda v: spark_read(spark, path, version=v)) == []


def test_spark_reads_by_timestamp(spark, history, dl):
    _, path, _, expected = history
    stamps = {
        row["version"]: row["timestamp"].isoformat(sep=" ", timespec="microseconds")
        for row in spark.sql(f"DESCRIBE HISTORY delta.`{path}`").collect()
    }
    bad = mismatches(expected, lambda v: spark_read(spark, path, timestamp=stamps[v]))
    bad += [f"deltalite {m}" for m in mismatches(expected, lambda v: deltalite_read(dl, path, timestamp=stamps[v]))]
    assert bad == []


def test_deltars_reads_every_version(history):
    _, path, _, expected = history
    assert mismatches(expected, lambda v: deltars_read(path, version=v)) == []


def test_duckdb_reads_every_version(duck, history):
    _, path, _, expected = history
    assert mismatches(expected, lambda v: duckdb_read(duck, path, version=v)) == []


def test_all_read_ctas(spark, duck, history, dl):
    warehouse, _, _, _ = history
    path = warehouse / "ctas"
    want = deltalite_read(dl, path)
    assert spark_read(spark, path) == want
    assert deltars_read(path) == want
    assert duckdb_read(duck, path) == want


def test_spark_history_and_detail(spark, history, dl):
    _, path, last, _ = history
    ours = dl.query(f"SELECT version, operation FROM (DESCRIBE HISTORY delta.`{path}`) ORDER BY version").to_pylist()
    theirs = spark.sql(f"DESCRIBE HISTORY delta.`{path}`").orderBy("version").select("version", "operation").collect()
    assert [(r["version"], r["operation"]) for r in theirs] == [(r["version"], r["operation"]) for r in ours]
    assert theirs[-1]["version"] == last
    detail = spark.sql(f"DESCRIBE DETAIL delta.`{path}`").collect()[0]
    mine = dl.query(f"DESCRIBE DETAIL delta.`{path}`").to_pylist()[0]
    for key in ("format", "id", "partitionColumns", "numFiles", "sizeInBytes", "minReaderVersion", "minWriterVersion"):
        assert detail[key] == mine[key], key
    assert detail["properties"]["team"] == "interop"


def test_spark_writes_on_top(spark, tmp_path):
    """Spark appends, updates, merges and optimizes a deltalite table; deltalite reads each new
    version as Spark does."""
    warehouse = tmp_path / "w"
    warehouse.mkdir()
    for step in HISTORY[:3]:
        deltalite_sql(warehouse, step)
    path = warehouse / "events"
    table = f"delta.`{path}`"
    spark.sql(f"INSERT INTO {table} (id, p, d) VALUES (5000, 'spark', 1.0), (5001, 'a b', NULL)")
    spark.sql(f"UPDATE {table} SET d = d + 1 WHERE id % 5 = 0")
    spark.sql(
        f"MERGE INTO {table} t USING (SELECT 5000L AS id UNION ALL SELECT 6000L) s ON t.id = s.id "
        "WHEN MATCHED THEN UPDATE SET t.f = 2.5 WHEN NOT MATCHED THEN INSERT (id, p) VALUES (s.id, 'x/y')"
    )
    spark.sql(f"OPTIMIZE {table}")
    db = engines.Deltalite(warehouse)
    try:
        for version in range(3, 7):
            assert deltalite_read(db, path, version=version) == spark_read(spark, path, version=version), version
        assert deltalite_sql(warehouse, "SELECT count(*) FROM events WHERE id >= 5000", json_out=True).split() == [
            "[",
            '{"count(1)":3}',
            "]",
        ]
    finally:
        db.close()


def test_nan_rows_survive_the_readers_data_skipping(spark, duck, warehouse):
    # A FLOAT/DOUBLE file holding NaN has no max in its stats (Spark orders NaN above every
    # number and writes "NaN" as the max): a max of the other values made Spark skip the file
    # for `x > 5` and `x = NaN`, dropping the NaN rows.
    deltalite_sql(warehouse, "CREATE TABLE nan (x DOUBLE, f FLOAT, y DOUBLE) USING DELTA; "
                  "INSERT INTO nan VALUES (1.0, 1.0, 1.0), (3.0, 3.0, 2.0), "
                  "(CAST('NaN' AS DOUBLE), CAST('NaN' AS FLOAT), 5.0)")
    t = f"delta.`{warehouse / 'nan'}`"
    got = spark.sql(f"SELECT (SELECT count(*) FROM {t} WHERE x > 5), (SELECT count(*) FROM {t} WHERE f > 5), "
                    f"(SELECT count(*) FROM {t} WHERE x = double('NaN')), (SELECT count(*) FROM {t} WHERE y > 4)").collect()[0]
    assert tuple(got) == (1, 1, 1, 1)
    assert duck.sql(f"SELECT count(*) FROM delta_scan('{warehouse / 'nan'}') WHERE x > 5").fetchone()[0] == 1
    import deltalake

    # (pyarrow's filters compare NaN as IEEE does, `NaN > 5` false: only the rows are checked)
    assert deltalake.DeltaTable(str(warehouse / "nan")).to_pyarrow_table().num_rows == 3
