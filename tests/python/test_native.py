"""The native API: connect, sql, rows as Python values, parameters, errors, the PEP 249
cursor, when a relation runs again."""

import datetime as dt
import decimal

import pytest

import deltalite


def test_connect_is_a_context_manager_and_close_refuses_more_sql(warehouse):
    with deltalite.connect(warehouse) as con:
        assert con.sql("SELECT 1 AS one").fetchall() == [(1,)]
        assert con.warehouse == str(warehouse)
    with pytest.raises(deltalite.InterfaceError, match="closed"):
        con.sql("SELECT 1")


def test_connect_without_create_on_a_missing_folder_is_not_found(tmp_path):
    with pytest.raises(deltalite.NotFoundError):
        deltalite.connect(tmp_path / "nope", create=False)


def test_values_of_every_scalar_type_come_back_as_python_objects(con):
    rel = con.sql("SELECT true AS b, CAST(1 AS TINYINT) AS i1, 2 AS i4, CAST(3 AS BIGINT) AS i8, "
                  "CAST(1.5 AS FLOAT) AS f4, CAST(2.5 AS DOUBLE) AS f8, CAST(12.30 AS DECIMAL(10,2)) AS d, "
                  "'héllo' AS s, X'00FF' AS bin, DATE'2024-02-29' AS dt, "
                  "TIMESTAMP'2024-02-29 12:34:56.789012' AS ts, "
                  "TIMESTAMP_NTZ'2024-02-29 12:34:56' AS ntz, CAST(NULL AS INT) AS n")
    assert rel.columns == ["b", "i1", "i4", "i8", "f4", "f8", "d", "s", "bin", "dt", "ts", "ntz", "n"]
    assert rel.types == ["boolean", "tinyint", "int", "bigint", "float", "double", "decimal(10,2)",
                         "string", "binary", "date", "timestamp", "timestamp_ntz", "int"]
    assert rel.fetchone() == (
        True, 1, 2, 3, 1.5, 2.5, decimal.Decimal("12.30"), "héllo", b"\x00\xff", dt.date(2024, 2, 29),
        dt.datetime(2024, 2, 29, 12, 34, 56, 789012, tzinfo=dt.timezone.utc),
        dt.datetime(2024, 2, 29, 12, 34, 56), None)
    assert rel.fetchone() is None


def test_nested_values_come_back_as_lists_and_dicts(con):
    row = con.sql("SELECT array(1, 2, NULL) AS a, named_struct('x', 1, 'y', 'q') AS s, "
                  "map('k', 1) AS m").fetchone()
    assert row == ([1, 2, None], {"x": 1, "y": "q"}, {"k": 1})


def test_dates_and_timestamps_before_1970_convert(con):
    row = con.sql("SELECT DATE'1900-01-01', TIMESTAMP'1969-12-31 23:59:59.5'").fetchone()
    assert row == (dt.date(1900, 1, 1), dt.datetime(1969, 12, 31, 23, 59, 59, 500000, tzinfo=dt.timezone.utc))


def test_fetchmany_and_fetchall_continue_where_the_last_stopped(con):
    rel = con.sql("SELECT id FROM range(0, 5)")
    assert rel.fetchmany(2) == [(0,), (1,)]
    assert rel.fetchone() == (2,)
    assert rel.fetchall() == [(3,), (4,)]
    assert rel.fetchall() == []


def test_positional_and_named_parameters_become_literals(con):
    rel = con.sql("SELECT ? AS a, ? AS b, ? AS c, ? AS d, ? AS e, ?", params=[
        1, "it's \\ ok", None, decimal.Decimal("1.25"), dt.date(2024, 1, 2), [1, 2]])
    assert rel.fetchall() == [(1, "it's \\ ok", None, decimal.Decimal("1.25"), dt.date(2024, 1, 2), [1, 2])]
    assert con.sql("SELECT :x + :y AS s, '?' AS q -- ?\n", params={"x": 1, "y": 2}).fetchall() == [(3, "?")]


def test_one_statement_binds_typed_values_through_prepared_statements(con):
    rel = con.sql("SELECT typeof(?), typeof(?), typeof(?), typeof(?), typeof(?), typeof(?), "
                  "typeof(?), typeof(?), typeof(?)", params=[
                      1, 2**40, 2**70, 1.5, decimal.Decimal("1.250"), b"x", dt.date(2024, 1, 2),
                      dt.datetime(2024, 1, 2, 3, 4, 5), dt.datetime(2024, 1, 2, tzinfo=dt.timezone.utc)])
    assert rel.fetchall() == [("int", "bigint", "decimal(22,0)", "double", "decimal(4,3)", "binary",
                               "date", "timestamp_ntz", "timestamp")]
    sneaky = "x' OR '1'='1"
    assert con.sql("SELECT ? AS s", params=[sneaky]).fetchall() == [(sneaky,)]
    rel = con.sql("SELECT :n * 2 AS d, :n AS n", params={"n": 21})
    assert rel.fetchall() == [(42, 21)]
    assert rel.arrow().to_pylist() == [{"d": 42, "n": 21}]  # run again with the same value
    stamp = dt.datetime(1969, 12, 31, 23, 59, 59, 500000, tzinfo=dt.timezone.utc)
    assert con.sql("SELECT ?", params=[stamp]).fetchall() == [(stamp,)]


def test_runtime_failures_are_data_errors(con):
    with pytest.raises(deltalite.DataError) as info:
        con.sql("SELECT 1 / 0").fetchall()
    assert info.value.status == "DATA" and "[DIVIDE_BY_ZERO]" in info.value.message
    with pytest.raises(deltalite.DataError) as info:
        con.sql("SELECT 1;\nSELECT 10 / ? AS x", params=[0]).fetchall()
    assert info.value.line == 2 and info.value.caret.startswith("SELECT 10 / 0 AS x")
    with pytest.raises(deltalite.DataError) as info:
        con.sql("SELECT 10 / ? AS x", params=[0]).fetchall()
    assert info.value.caret.startswith("SELECT 10 / ? AS x")
    with pytest.raises(deltalite.SqlBindError, match="MIXED"):
        con.sql("SELECT ?, :a", params=[1])


def test_wrong_parameter_counts_are_refused_before_running(con):
    with pytest.raises(deltalite.InvalidArgumentError, match="more '\\?' markers"):
        con.sql("SELECT ?, ?", params=[1])
    with pytest.raises(deltalite.InvalidArgumentError, match="2 parameters were given"):
        con.sql("SELECT ?", params=[1, 2])
    with pytest.raises(deltalite.InvalidArgumentError, match="no key 'b'"):
        con.sql("SELECT :a, :b", params={"a": 1})
    with pytest.raises(deltalite.InvalidArgumentError, match="no SQL literal"):
        con.sql("SELECT ?", params=[object()])


def test_errors_are_classes_of_the_c_status_with_the_position(con):
    with pytest.raises(deltalite.SqlBindError) as info:
        con.sql("SELECT nope FROM range(1)")
    e = info.value
    assert isinstance(e, deltalite.ProgrammingError) and isinstance(e, deltalite.Error)
    assert e.status == "SQL_BIND" and e.offset == 7 and (e.line, e.column) == (1, 8)
    assert "nope" in e.message and e.caret.splitlines()[-1].strip() == "^"
    with pytest.raises(deltalite.SqlSyntaxError) as info:
        con.sql("SELECT FROM WHERE")
    assert info.value.status == "SQL_SYNTAX"
    with pytest.raises(deltalite.NotFoundError, match="not found"):
        con.sql("SELECT * FROM missing_table")


def test_errors_while_rows_are_computed_raise_the_engines_class_on_every_path(con):
    q = "SELECT 1 / (id - 3) FROM range(0, 5)"
    for read in (lambda r: r.fetchall(), lambda r: r.arrow(), lambda r: list(r.to_batches()),
                 lambda r: r.pl(), lambda r: r.df()):
        with pytest.raises(deltalite.Error) as info:
            read(con.sql(q))
        assert "DIVIDE_BY_ZERO" in info.value.message
        assert "try_divide" in info.value.hint


def test_a_read_only_query_runs_again_and_a_write_never_does(con):
    con.sql("CREATE TABLE t (id INT) USING delta")
    ins = con.sql("INSERT INTO t VALUES (1)")
    ins.fetchall()
    with pytest.raises(deltalite.InterfaceError, match="not run again"):
        ins.arrow()
    rel = con.sql("SELECT * FROM t")
    assert rel.fetchall() == [(1,)]
    assert rel.arrow().to_pylist() == [{"id": 1}]
    assert con.sql("SELECT count(*) FROM t").fetchall() == [(1,)]
    script = con.sql("INSERT INTO t VALUES (2); SELECT count(*) FROM t")
    assert script.fetchall() == [(2,)]
    with pytest.raises(deltalite.InterfaceError):
        script.fetchall() or script.arrow()


def test_show_prints_a_table_with_types(con, capsys):
    con.sql("SELECT 1 AS a, 'x' AS b, NULL AS c").show()
    out = capsys.readouterr().out.splitlines()
    assert out[1].split("|")[1:4] == [" a   ", " b      ", " c    "]
    assert out[2].split("|")[1:4] == [" int ", " string ", " void "]
    assert out[4].split("|")[1:4] == [" 1   ", " x      ", " NULL "]


def test_pep249_cursor(con):
    assert deltalite.apilevel == "2.0" and deltalite.paramstyle == "qmark"
    cur = con.cursor()
    assert cur.description is None
    cur.execute("SELECT id, id * 2 AS twice FROM range(0, 4) WHERE id >= ?", [1])
    assert [d[0] for d in cur.description] == ["id", "twice"]
    assert [d[1] for d in cur.description] == ["bigint", "bigint"]
    assert cur.fetchone() == (1, 2)
    assert cur.fetchmany(1) == [(2, 4)]
    assert cur.fetchall() == [(3, 6)]
    cur.execute("CREATE TABLE c (x INT) USING delta")
    assert cur.description is None
    cur.executemany("INSERT INTO c VALUES (?)", [[1], [2], [3]])
    assert cur.rowcount == 3  # the sum of the statements' num_affected_rows
    assert cur.execute("DELETE FROM c WHERE x > ?", [1]).rowcount == 2
    assert cur.fetchall() == [(2,)]  # the count row itself stays readable
    cur.executemany("INSERT INTO c VALUES (?)", [[2], [3]])
    assert list(con.cursor().execute("SELECT x FROM c ORDER BY x")) == [(1,), (2,), (3,)]
    with pytest.raises(deltalite.InterfaceError):
        con.rollback()


def test_results_outlive_the_connection_that_made_them(warehouse):
    con = deltalite.connect(warehouse)
    rel = con.sql("SELECT id FROM range(0, 3000)")
    reader = rel.record_batch_reader()
    con.close()
    assert sum(b.num_rows for b in reader) == 3000
