"""Arrow data as a temporary relation (Connection.register, the C API's
deltalite_register_arrow_stream): read by SQL without copying, shadowing tables as Spark's
temporary views do, refused as a write target, and the way write_deltalake and merge take
Python data."""

import datetime as dt

import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import deltalite


def test_a_pyarrow_table_is_read_back_through_the_same_buffers(con):
    ids = pa.array(range(100_000), pa.int64())
    con.register("src", pa.table({"id": ids, "x": pa.array([1.5] * 100_000)}))
    out = con.sql("SELECT id, x FROM src").arrow()
    assert out.num_rows == 100_000 and out.column("id").to_pylist()[:3] == [0, 1, 2]
    # The engine wrapped pyarrow's buffer and exported it again: the same memory comes back.
    first = out.column("id").chunks[0].buffers()[1]
    assert first.address == ids.buffers()[1].address
    assert con.sql("SELECT count(*), sum(id) FROM src WHERE x > 1").fetchall() == [(100_000, sum(range(100_000)))]


def test_pandas_polars_and_relations_register(con):
    con.register("p", pd.DataFrame({"k": [1, 2], "s": ["a", "b"]}, index=[10, 20]))
    assert con.sql("SELECT * FROM p ORDER BY k").fetchall() == [(1, "a"), (2, "b")]  # no index column
    con.register("q", pl.DataFrame({"k": [2, 3], "t": ["x", None]}))
    assert con.sql("SELECT p.s, q.t FROM p JOIN q USING (k)").fetchall() == [("b", "x")]
    con.register("r", con.sql("SELECT id AS k FROM range(0, 3)"))
    assert con.sql("SELECT sum(k) FROM r").fetchall() == [(3,)]


def test_types_come_in_as_spark_types(con):
    table = pa.table({
        "i8": pa.array([1], pa.int8()), "u32": pa.array([4_000_000_000], pa.uint32()),
        "d": pa.array([dt.date(2024, 1, 2)]), "ts": pa.array([dt.datetime(2024, 1, 2, 3)], pa.timestamp("ns", "UTC")),
        "ntz": pa.array([dt.datetime(2024, 1, 2, 3)], pa.timestamp("ms")),
        "dec": pa.array([1], pa.decimal128(10, 2)).cast(pa.decimal128(10, 2)),
        "s": pa.array(["x"], pa.large_string()), "b": pa.array([b"\x00"], pa.binary()),
        "l": pa.array([[1, 2]], pa.list_(pa.int32())), "m": pa.array([[("k", 1)]], pa.map_(pa.string(), pa.int64())),
        "st": pa.array([{"a": 1}]), "cat": pa.array(["u"]).dictionary_encode(),
    })
    con.register("t", table)
    rel = con.sql("SELECT * FROM t")
    assert rel.types == ["tinyint", "bigint", "date", "timestamp", "timestamp_ntz", "decimal(10,2)",
                         "string", "binary", "array<int>", "map<string,bigint>", "struct<a:bigint>", "string"]
    row = rel.fetchone()
    assert row[1] == 4_000_000_000 and row[3] == dt.datetime(2024, 1, 2, 3, tzinfo=dt.timezone.utc)
    assert row[4] == dt.datetime(2024, 1, 2, 3) and row[8] == [1, 2] and row[11] == "u"


def test_values_the_engine_cannot_hold_are_refused_naming_the_column(con):
    with pytest.raises(deltalite.UnsupportedError, match="column 'h'.*half float"):
        con.register("bad", pa.table({"h": pa.array([1], pa.float16())}))
    with pytest.raises(deltalite.SchemaError, match="column 'ts'.*nanoseconds"):
        con.register("bad", pa.table({"ts": pa.array([1_500], pa.timestamp("ns"))}))
    with pytest.raises(deltalite.SchemaError, match="does not fit a bigint"):
        con.register("bad", pa.table({"u": pa.array([2**64 - 1], pa.uint64())}))
    with pytest.raises(deltalite.NotFoundError):
        con.sql("SELECT * FROM bad")
    with pytest.raises(deltalite.InvalidArgumentError, match="plain name"):
        con.register("a.b", pa.table({"x": [1]}))


def test_a_temporary_relation_shadows_a_table_and_is_never_written(con):
    con.sql("CREATE TABLE t (id INT) USING delta")
    con.sql("INSERT INTO t VALUES (1)")
    con.register("t", pa.table({"id": [7, 8]}))
    assert con.sql("SELECT id FROM t ORDER BY id").fetchall() == [(7,), (8,)]
    assert con.sql("SELECT id FROM default.t").fetchall() == [(1,)]
    for stmt in ("INSERT INTO t VALUES (2)", "DELETE FROM t", "UPDATE t SET id = 0",
                 "DESCRIBE HISTORY t", "VACUUM t"):
        with pytest.raises(deltalite.Error, match="temporary relation"):
            con.sql(stmt)
    assert ("", "t", "true") in con.sql("SHOW TABLES").fetchall()  # as Spark lists temporary views
    assert ("default", "t", "false") in con.sql("SHOW TABLES").fetchall()
    con.register("t", pa.table({"id": [9]}))  # registering again replaces
    assert con.sql("SELECT * FROM t").fetchall() == [(9,)]
    assert con.unregister("t") is True and con.unregister("t") is False
    assert con.sql("SELECT id FROM t").fetchall() == [(1,)]


def test_merge_into_a_table_using_registered_data(con):
    con.sql("CREATE TABLE target (id INT, v STRING) USING delta")
    con.sql("INSERT INTO target VALUES (1, 'old'), (2, 'keep')")
    con.register("changes", pa.table({"id": pa.array([1, 3], pa.int32()), "v": ["new", "added"]}))
    con.sql("MERGE INTO target t USING changes s ON t.id = s.id "
            "WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *")
    assert con.sql("SELECT * FROM target ORDER BY id").fetchall() == [(1, "new"), (2, "keep"), (3, "added")]


def test_a_result_reading_a_relation_survives_its_unregistering(con):
    con.register("big", pa.table({"id": pa.array(range(10_000), pa.int64())}))
    reader = con.sql("SELECT id FROM big").record_batch_reader()
    con.unregister("big")
    assert sum(b.num_rows for b in reader) == 10_000
