"""Results as Arrow: pyarrow, polars, pandas and DuckDB read them through the C stream, the
buffers shared with the engine (no copy)."""

import duckdb
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import deltalite

Q = ("SELECT id, CAST(id AS DOUBLE) / 2 AS half, CAST(id AS STRING) AS s, id % 3 = 0 AS b "
     "FROM range(0, 10000)")


def expected():
    return [{"id": i, "half": i / 2, "s": str(i), "b": i % 3 == 0} for i in range(10000)]


def test_arrow_gives_a_table_in_the_engines_types(con):
    table = con.sql(Q).arrow()
    assert table.schema.names == ["id", "half", "s", "b"]
    assert table.schema.types == [pa.int64(), pa.float64(), pa.string_view(), pa.bool_()]
    assert table.to_pylist() == expected()


def test_arrow_shares_the_engines_buffers(con):
    con.sql("CREATE TABLE big USING delta AS SELECT id, id * 2 AS x FROM range(0, 500000)")
    before = pa.total_allocated_bytes()
    table = con.sql("SELECT id, x FROM big").arrow()
    assert table.num_rows == 500000 and table.nbytes >= 8_000_000
    # pyarrow allocated nothing for the 8 MB of values: they are the engine's buffers.
    assert pa.total_allocated_bytes() - before < 100_000


def test_batches_stream_as_they_are_computed(con):
    reader = con.sql(Q).record_batch_reader()
    assert reader.schema.names == ["id", "half", "s", "b"]
    first = reader.read_next_batch()
    assert 0 < first.num_rows <= 2048
    rest = sum(b.num_rows for b in reader)
    assert first.num_rows + rest == 10000
    assert sum(b.num_rows for b in con.sql(Q).to_batches()) == 10000


def test_pycapsule_protocol_feeds_pyarrow_polars_and_duckdb(con):
    assert pa.table(con.sql(Q)).to_pylist() == expected()
    assert pa.RecordBatchReader.from_stream(con.sql(Q)).read_all().num_rows == 10000
    assert pl.DataFrame(con.sql(Q)).to_dicts() == expected()
    rel = con.sql(Q)
    got = duckdb.sql("SELECT count(*), sum(id), count(*) FILTER (WHERE b) FROM rel").fetchall()
    assert got == [(10000, sum(range(10000)), 3334)]


def test_pl_and_df(con):
    assert con.sql(Q).pl().to_dicts() == expected()
    frame = con.sql(Q).df()
    assert isinstance(frame, pd.DataFrame)
    assert frame.to_dict("records") == expected()


def test_arrow_after_fetchone_keeps_the_remaining_rows_on_the_cursor_not_the_stream(con):
    rel = con.sql("SELECT id FROM range(0, 5)")
    assert rel.fetchone() == (0,)
    assert rel.arrow().num_rows == 5  # a read-only query runs again for the stream
    assert rel.fetchall() == [(1,), (2,), (3,), (4,)]


def test_nested_and_temporal_types_through_arrow(con):
    table = con.sql("SELECT array(1, 2) AS a, named_struct('x', 1) AS s, map('k', 'v') AS m, "
                    "DATE'2024-01-02' AS d, TIMESTAMP'2024-01-02 03:04:05' AS ts, "
                    "CAST(1.25 AS DECIMAL(5,2)) AS dec").arrow()
    assert table.schema.field("ts").type == pa.timestamp("us", tz="UTC")
    assert table.schema.field("dec").type == pa.decimal128(5, 2)
    row = table.to_pylist()[0]
    assert row["a"] == [1, 2] and row["s"] == {"x": 1} and row["m"] == [("k", "v")]


def test_requested_schema_is_refused_not_ignored(con):
    with pytest.raises(deltalite.UnsupportedError):
        con.sql("SELECT 1").__arrow_c_stream__(requested_schema=object())
