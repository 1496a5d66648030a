"""The table API against delta-rs (deltalake) on the same tables: the same rows at every
version, the same history, the same files; and write_deltalake from pyarrow, pandas, polars."""

import datetime as dt
import time

import deltalake
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import deltalite


def rows(table):
    return sorted(table.to_pylist(), key=lambda r: tuple(str(v) for v in r.values()))


def same_as_delta_rs(path, version=None):
    ours = deltalite.DeltaTable(path, version=version)
    theirs = deltalake.DeltaTable(str(path), version=version)
    assert ours.version() == theirs.version()
    assert rows(ours.to_pyarrow()) == rows(theirs.to_pyarrow_table())
    assert sorted(ours.files()) == sorted(u[len(str(path)) + 1:] for u in theirs.file_uris())
    ours.close()


@pytest.fixture
def table(tmp_path):
    path = tmp_path / "t"
    deltalite.write_deltalake(path, pa.table({"id": [1, 2, 3], "p": ["a", "b", "a"]}), partition_by=["p"])
    deltalite.write_deltalake(path, pd.DataFrame({"id": [4], "p": ["b"]}), mode="append")
    deltalite.write_deltalake(path, pl.DataFrame({"id": [5], "p": ["c"]}), mode="append")
    return path


def test_writes_from_pyarrow_pandas_polars_read_the_same_in_delta_rs(table):
    for v in range(3):
        same_as_delta_rs(table, v)
    assert deltalite.DeltaTable(table).to_pyarrow().num_rows == 5


def test_every_change_reads_the_same_in_delta_rs_with_the_same_history(table):
    t = deltalite.DeltaTable(table)
    assert t.delete("id = 1")["numDeletedRows"] == 1
    assert t.update({"id": "id * 10"}, "p = 'b'")["numUpdatedRows"] == 2
    assert t.update(new_values={"p": "z"}, predicate="id = 5")["numUpdatedRows"] == 1
    m = (t.merge(pa.table({"id": [3, 99], "p": ["a", "y"]}), "target.id = source.id")
         .when_matched_update({"id": "source.id + 100"}).when_not_matched_insert_all().execute())
    assert (m["numTargetRowsUpdated"], m["numTargetRowsInserted"]) == (1, 1)
    t.optimize.compact()
    t.restore(4)
    assert t.version() == deltalake.DeltaTable(str(table)).version()
    for v in range(t.version() + 1):
        same_as_delta_rs(table, v)
    ours = [(h["version"], h["operation"]) for h in t.history()]
    theirs = [(h["version"], h["operation"]) for h in deltalake.DeltaTable(str(table)).history()]
    assert ours == theirs
    assert ours[0] == (t.version(), "RESTORE") and ours[-1] == (0, "CREATE TABLE AS SELECT")
    assert [h["version"] for h in t.history(2)] == [t.version(), t.version() - 1]


def test_versions_and_timestamps_load_the_same_rows(table):
    t = deltalite.DeltaTable(table, version=0)
    assert t.version() == 0 and t.to_pyarrow().num_rows == 3
    t.load_as_version(1)
    assert t.to_pyarrow().num_rows == 4
    t.load_as_version(dt.datetime.now(dt.timezone.utc))
    assert t.version() == 2
    ts_of_1 = [h for h in t.history() if h["version"] == 1][0]["timestamp"]
    at = dt.datetime.fromtimestamp(ts_of_1 / 1000, dt.timezone.utc)
    assert deltalite.DeltaTable(table, timestamp=at).version() == 1
    with pytest.raises(deltalite.NotFoundError, match="before its first version"):
        deltalite.DeltaTable(table, timestamp=dt.datetime(2000, 1, 1))
    with pytest.raises(deltalite.NotFoundError, match="no version 9"):
        deltalite.DeltaTable(table, version=9)


def test_restore_to_a_timestamp(table):
    t = deltalite.DeltaTable(table)
    ts_of_0 = t.history()[-1]["timestamp"]
    t.restore(dt.datetime.fromtimestamp(ts_of_0 / 1000, dt.timezone.utc))
    assert rows(t.to_pyarrow()) == rows(deltalake.DeltaTable(str(table), version=0).to_pyarrow_table())


def test_schema_detail_and_metadata(table):
    t = deltalite.DeltaTable(table)
    assert t.schema().fields == [("id", "bigint"), ("p", "string")]
    assert t.schema().to_arrow().names == ["id", "p"]
    d = t.detail()
    assert d["partitionColumns"] == ["p"] and d["numFiles"] == len(t.files()) == 4
    assert t.metadata()["id"] == deltalake.DeltaTable(str(table)).metadata().id
    assert t.protocol()["min_reader_version"] == deltalake.DeltaTable(str(table)).protocol().min_reader_version


def test_vacuum_lists_then_removes_the_files_delta_rs_would(table):
    t = deltalite.DeltaTable(table)
    t.delete("p = 'a'")
    with pytest.raises(deltalite.DataError, match="retention"):
        t.vacuum(0)
    listed = t.vacuum(0, enforce_retention_duration=False)
    theirs = deltalake.DeltaTable(str(table)).vacuum(0, dry_run=True, enforce_retention_duration=False)
    assert sorted(listed) == sorted(f[len(str(table)) + 1:] if f.startswith("/") else f for f in theirs)
    assert len(listed) == 1
    assert t.vacuum(0, dry_run=False, enforce_retention_duration=False) == listed
    assert t.vacuum(0, enforce_retention_duration=False) == []
    same_as_delta_rs(table)


def test_write_modes(tmp_path, table):
    with pytest.raises(deltalite.AlreadyExistsError):
        deltalite.write_deltalake(table, pa.table({"id": [9], "p": ["q"]}))
    deltalite.write_deltalake(table, pa.table({"id": [9], "p": ["q"]}), mode="ignore")
    assert deltalite.DeltaTable(table).version() == 2
    deltalite.write_deltalake(table, pa.table({"p": ["q"], "id": [9]}), mode="overwrite")
    assert deltalite.DeltaTable(table).to_pyarrow().to_pylist() == [{"id": 9, "p": "q"}]
    same_as_delta_rs(table)
    with pytest.raises(deltalite.SchemaError, match="partitioned by"):
        deltalite.write_deltalake(table, pa.table({"id": [1], "p": ["a"]}), mode="append", partition_by=["id"])


def test_schema_merge_and_overwrite(table):
    deltalite.write_deltalake(table, pa.table({"id": [6], "p": ["a"], "x": [1.5]}), mode="append",
                              schema_mode="merge")
    same_as_delta_rs(table)
    assert deltalite.DeltaTable(table).schema().fields[-1] == ("x", "double")
    deltalite.write_deltalake(table, pa.table({"k": ["only"]}), mode="overwrite", schema_mode="overwrite")
    assert deltalite.DeltaTable(table).to_pyarrow().to_pylist() == [{"k": "only"}]
    same_as_delta_rs(table)


def test_delta_rs_writes_read_the_same_in_deltalite(tmp_path):
    path = tmp_path / "rs"
    deltalake.write_deltalake(str(path), pa.table({"id": [1, 2], "s": ["x", "y"]}))
    deltalake.write_deltalake(str(path), pa.table({"id": [3], "s": ["z"]}), mode="append")
    deltalake.DeltaTable(str(path)).delete("id = 1")
    for v in range(3):
        same_as_delta_rs(path, v)
    assert [h["operation"] for h in deltalite.DeltaTable(path).history()] == ["DELETE", "WRITE", "WRITE"]


def test_nanosecond_timestamps_that_do_not_fit_are_refused_not_cut(tmp_path):
    ok = pd.DataFrame({"ts": pd.to_datetime(["2024-01-02 03:04:05.123456"])})
    deltalite.write_deltalake(tmp_path / "ok", ok)
    assert deltalite.DeltaTable(tmp_path / "ok").to_pyarrow().column("ts")[0].as_py() == \
        dt.datetime(2024, 1, 2, 3, 4, 5, 123456)
    bad = pd.DataFrame({"ts": pd.to_datetime(["2024-01-02 03:04:05.123456789"])})
    with pytest.raises(deltalite.SchemaError, match="nanoseconds"):
        deltalite.write_deltalake(tmp_path / "bad", bad)


def test_table_by_name_in_a_connections_warehouse(con):
    con.sql("CREATE TABLE named (id INT) USING delta")
    con.sql("INSERT INTO named VALUES (1), (2)")
    t = deltalite.DeltaTable("named", connection=con)
    assert t.version() == 1 and t.to_pyarrow().num_rows == 2
    t.delete("id = 1")
    assert con.sql("SELECT * FROM named").fetchall() == [(2,)]


def test_merge_with_a_sql_source_and_by_source_clauses(table):
    t = deltalite.DeltaTable(table)
    t.merge("(SELECT 1 AS id, 'a' AS p)", "target.id = source.id") \
        .when_not_matched_by_source_delete("target.p = 'b'").when_matched_delete().execute()
    assert sorted(r["id"] for r in t.to_pyarrow().to_pylist()) == [3, 5]
    same_as_delta_rs(table)


def test_load_cdf_as_delta_rs(tmp_path):
    """DeltaTable.load_cdf: the change data feed as delta-rs's load_cdf gives it, on a table
    deltalite wrote (an UPDATE's change data file, a partition DELETE's removes)."""
    path = tmp_path / "c"
    con = deltalite.connect(str(tmp_path))
    con.sql(f"CREATE TABLE delta.`{path}` (id INT, p STRING) USING DELTA PARTITIONED BY (p) "
            "TBLPROPERTIES (delta.enableChangeDataFeed = true)")
    con.sql(f"INSERT INTO delta.`{path}` VALUES (1, 'a'), (2, 'b'), (3, 'b')")
    con.sql(f"UPDATE delta.`{path}` SET id = 10 WHERE id = 1")
    con.sql(f"DELETE FROM delta.`{path}` WHERE p = 'b'")
    con.close()
    cols = ["id", "p", "_change_type", "_commit_version"]
    ours = deltalite.DeltaTable(path)
    got = pa.Table.from_batches(list(ours.load_cdf(starting_version=1))).select(cols)
    want = pa.table(deltalake.DeltaTable(str(path)).load_cdf(starting_version=1).read_all()).select(cols)
    assert rows(got) == rows(want)
    assert len(got) == 7
    ending = pa.Table.from_batches(list(ours.load_cdf(starting_version=2, ending_version=2)))
    assert sorted(ending.column("_change_type").to_pylist()) == ["update_postimage", "update_preimage"]
    ours.close()


def test_files_after_log_cleanup_and_with_escaped_partition_values(tmp_path):
    # files() reads the snapshot, not the commits: after a checkpoint and the removal of the
    # commits before it (as log cleanup does), it still lists the files delta-rs lists; paths
    # with a space or % in a partition value are the files' names on disk.
    path = tmp_path / "t"
    with deltalite.connect(tmp_path) as con:
        con.sql("CREATE TABLE t (id INT, p STRING) USING DELTA PARTITIONED BY (p) "
                "TBLPROPERTIES ('delta.checkpointInterval' = '2')")
        con.sql("INSERT INTO t VALUES (1, 'a b'), (2, 'x%y')")
        con.sql("INSERT INTO t VALUES (3, 'a b')")
        con.sql("DELETE FROM t WHERE id = 2")
    assert (path / "_delta_log" / "00000000000000000002.checkpoint.parquet").is_file()
    for v in (0, 1):
        (path / "_delta_log" / f"{v:020d}.json").unlink()
    same_as_delta_rs(path)
    ours = deltalite.DeltaTable(path)
    assert all((path / f).is_file() for f in ours.files())
    assert sorted(f.split("/")[0] for f in ours.files()) == ["p=a b", "p=a b"]
    ours.close()
