"""Connections, relations and PEP 249 cursors over the C library (deltalite._native)."""

from __future__ import annotations

import os

from . import _native
from ._errors import BY_STATUS, Error, InterfaceError, InvalidArgumentError, UnsupportedError
from ._sql import bind, native_args, statement_count

_native._set_error_classes(BY_STATUS)

# Statements whose rerun changes nothing: a relation over one of them may be read again.
_READ_ONLY = {"SELECT", "DESCRIBE HISTORY", "DESCRIBE DETAIL", "DESCRIBE TABLE", "SHOW", "EXPLAIN"}


def connect(warehouse: str | os.PathLike = "spark-warehouse", *, create: bool = True,
            threads: int = 0, time_zone: str | None = None, fsync: bool = True) -> "Connection":
    """Opens the warehouse folder (Spark's layout: schema `default` is the folder, schema s is
    s.db, each table a folder with _delta_log). create makes the folder when missing; threads
    as deltalite_options (0 = one per core, -1 = none); time_zone is the session time zone
    (default UTC); fsync=False never syncs (scratch data only)."""
    return Connection(warehouse, create=create, threads=threads, time_zone=time_zone, fsync=fsync)


class Connection:
    """A SQL session on a warehouse: its SET values and current schema (USE). One thread at a
    time. A context manager: `with deltalite.connect(p) as con:` closes it at the end."""

    def __init__(self, warehouse, *, create=True, threads=0, time_zone=None, fsync=True):
        self._db = _native.Database(os.fspath(warehouse), threads, time_zone, create, not fsync)

    # -- lifecycle
    def close(self) -> None:
        """Closes the connection; results already taken (Arrow tables, streams) stay valid."""
        if self._db is not None:
            self._db.close()
            self._db = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @property
    def warehouse(self) -> str:
        """The warehouse folder, absolute."""
        return self._native().warehouse()

    def _native(self):
        if self._db is None:
            raise InterfaceError("the connection is closed; open another with deltalite.connect()",
                                 "INVALID_ARG")
        return self._db

    # -- SQL
    def sql(self, query: str, params=None) -> "Relation":
        """Runs a SQL script (statements separated by ';') and returns the last statement's
        result as a Relation. The statements run now (so errors raise here); a query's rows are
        computed as they are read. params binds `?` markers (a list) or `:name` markers (a
        dict)."""
        args = native_args(query, params)
        if args is not None:
            values, names = args

            def run():
                return self._native().query_params(query, values, names)

            return Relation(self, query, run(), run)
        text = bind(query, params)
        return Relation(self, text, self._native().query(text))

    def execute(self, query: str, params=None) -> "Cursor":
        """As a PEP 249 cursor's execute, on a new cursor."""
        return self.cursor().execute(query, params)

    def cursor(self) -> "Cursor":
        """A new PEP 249 cursor on this connection."""
        return Cursor(self)

    def interrupt(self) -> None:
        """Cancels what runs on this connection (callable from another thread)."""
        if self._db is not None:
            self._db.interrupt()

    def commit(self) -> None:
        """PEP 249: every statement commits on its own (Delta commits), so nothing to do."""

    def rollback(self) -> None:
        """PEP 249: there are no multi-statement transactions to roll back."""
        raise InterfaceError("deltalite commits each statement on its own; there is no transaction "
                             "to roll back (restore an earlier version with RESTORE TABLE)",
                             "UNSUPPORTED")

    def register(self, name: str, data) -> "Connection":
        """Makes Arrow data readable by SQL as the temporary relation name, for this
        connection's statements (SELECT ... FROM name, MERGE INTO t USING name, INSERT INTO t
        SELECT * FROM name). data is anything with __arrow_c_stream__ (pyarrow Table,
        RecordBatchReader, polars DataFrame, a Relation) or a pandas DataFrame. Its buffers are
        shared, not copied, where the engine's layouts are Arrow's (docs/python.md). As Spark's
        temporary views, the name hides a table of the same name (reach it as default.name)
        and registering it again replaces the relation; statements that change, describe or
        vacuum a table refuse it."""
        self._native().register_arrow(name, _arrow_capsule(data))
        return self

    def unregister(self, name: str) -> bool:
        """Removes the temporary relation name; False when there was none."""
        return self._native().unregister(name)

    def table(self, name: str) -> "Relation":
        """The rows of a table by name, as a Relation (SELECT * FROM name)."""
        from ._sql import quote_name
        return self.sql("SELECT * FROM " + ".".join(quote_name(p) for p in _split_name(name)))


def _arrow_capsule(data):
    """An 'arrow_array_stream' PyCapsule for data (pandas frames through pyarrow, no index)."""
    if type(data).__module__.split(".")[0] == "pandas":
        import pyarrow as pa
        data = pa.Table.from_pandas(data, preserve_index=False)
    if hasattr(data, "__arrow_c_stream__"):
        return data.__arrow_c_stream__()
    if hasattr(data, "__arrow_c_array__"):
        import pyarrow as pa
        return pa.table(data).__arrow_c_stream__()
    raise InvalidArgumentError(
        f"cannot read a {type(data).__name__} as Arrow data; pass a pyarrow Table, RecordBatch or "
        "RecordBatchReader, a pandas or polars DataFrame, or an object with __arrow_c_stream__",
        "INVALID_ARG")


def _split_name(name: str) -> list[str]:
    return [p.strip("`") for p in name.split(".")] if "`" not in name.strip("`") else [name.strip("`")]


class Relation:
    """The result of one statement. Rows come out once through the fetch* methods (as a cursor)
    or whole through arrow(), df(), pl(), to_batches(), record_batch_reader() or the Arrow
    PyCapsule protocol (__arrow_c_stream__), which share the engine's buffers without copying.
    A read-only query (SELECT, DESCRIBE, SHOW) is run again when read a second time; any other
    statement is never rerun."""

    def __init__(self, con: Connection, sql: str, result, run=None):
        self._con = con
        self._sql = sql
        self._run = run           # runs the statement again (with its parameters), or None
        self._fresh = result      # not read yet
        self._cursor = None       # being read by fetch*
        self.columns: list[str] = list(result.columns)
        self.types: list[str] = list(result.types)
        self.statement: str = result.statement
        self._rerunnable = self.statement in _READ_ONLY and statement_count(sql) == 1

    def __repr__(self):
        cols = ", ".join(f"{c} {t}" for c, t in zip(self.columns, self.types))
        return f"<deltalite.Relation {self.statement} ({cols})>"

    @property
    def description(self):
        """PEP 249's description: (name, type_code, None, None, None, None, None) per column."""
        return [(c, t, None, None, None, None, None) for c, t in zip(self.columns, self.types)]

    def _take(self):
        """A native result whose rows have not been read."""
        if self._fresh is not None:
            r, self._fresh = self._fresh, None
            return r
        if not self._rerunnable:
            raise InterfaceError(
                f"the result of this {self.statement} was already read; it is not run again because "
                "it is not a read-only query (keep the rows you read, or run a SELECT)", "INVALID_ARG",
                sql=self._sql)
        if self._run is not None:
            return self._run()
        return self._con._native().query(self._sql)

    # -- rows as Python values
    def _rows(self):
        if self._cursor is None:
            self._cursor = self._take()
        return self._cursor

    def fetchone(self):
        """The next row as a tuple, or None at the end."""
        rows = self._rows().fetchmany(1)
        return rows[0] if rows else None

    def fetchmany(self, size: int = 1) -> list[tuple]:
        """Up to size next rows as tuples."""
        if size < 0:
            raise InvalidArgumentError(f"fetchmany's size must be >= 0, not {size}", "INVALID_ARG")
        return self._rows().fetchmany(size)

    def fetchall(self) -> list[tuple]:
        """The remaining rows as tuples: ints, floats, Decimal, str, bytes, date, datetime (UTC
        for TIMESTAMP, naive for TIMESTAMP_NTZ), dicts and lists for structs, maps and arrays
        (as their JSON: map keys become strings), text for intervals."""
        return self._rows().fetchmany(-1)

    # -- Arrow
    def __arrow_c_stream__(self, requested_schema=None):
        """The Arrow PyCapsule protocol: the rows as an 'arrow_array_stream' capsule."""
        if requested_schema is not None:
            raise UnsupportedError(
                "deltalite streams its results in their own schema; cast after reading "
                "(requested_schema is not supported)", "UNSUPPORTED")
        return self._take().arrow_stream()

    def record_batch_reader(self, batch_size: int | None = None):
        """A pyarrow.RecordBatchReader that computes batches as they are read. Engine errors met
        while reading raise deltalite's exception classes."""
        import pyarrow as pa
        if batch_size is not None:
            raise UnsupportedError("the engine sets the batch size (2,048 rows); "
                                       "pass no batch_size", "UNSUPPORTED")
        reader = pa.RecordBatchReader._import_from_c_capsule(self.__arrow_c_stream__())
        return _CheckedReader(self._con, reader)

    def to_batches(self):
        """An iterator of pyarrow.RecordBatch, computed as they are read."""
        return iter(self.record_batch_reader())

    def arrow(self):
        """All rows as a pyarrow.Table (its buffers are the engine's: no copy)."""
        return self.record_batch_reader().read_all()

    fetch_arrow_table = arrow

    def df(self):
        """All rows as a pandas.DataFrame (through Arrow)."""
        return self.arrow().to_pandas()

    to_pandas = df
    fetchdf = df

    def pl(self):
        """All rows as a polars.DataFrame (polars reads the Arrow stream itself)."""
        import polars as pl
        try:
            return pl.DataFrame(self)
        except Error:
            raise
        except Exception as exc:
            _raise_stream_error(self._con, exc)

    def show(self, max_rows: int = 20) -> None:
        """Prints up to max_rows rows as a table (from the first row: a read-only query runs
        again when its rows were read already)."""
        print(self._format(max_rows))

    def _format(self, max_rows: int) -> str:
        result = self._take()
        rows = result.fetchmany(max_rows + 1)
        result.close()
        more = len(rows) > max_rows
        rows = rows[:max_rows]
        cells = [[_cell_text(v) for v in row] for row in rows]
        heads = [f"{c}" for c in self.columns]
        widths = [max([len(h), len(t)] + [len(r[i]) for r in cells])
                  for i, (h, t) in enumerate(zip(heads, self.types))]
        line = "+" + "+".join("-" * (w + 2) for w in widths) + "+"
        out = [line, "| " + " | ".join(h.ljust(w) for h, w in zip(heads, widths)) + " |",
               "| " + " | ".join(t.ljust(w) for t, w in zip(self.types, widths)) + " |", line]
        out += ["| " + " | ".join(v.ljust(w) for v, w in zip(r, widths)) + " |" for r in cells]
        out.append(line)
        if more:
            out.append(f"(only the first {max_rows} rows shown)")
        return "\n".join(out)

    def close(self) -> None:
        """Frees the result without reading the rest."""
        for r in (self._fresh, self._cursor):
            if r is not None:
                r.close()
        self._fresh = self._cursor = None


def _cell_text(v) -> str:
    if v is None:
        return "NULL"
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _raise_stream_error(con: Connection, exc: Exception):
    """Re-raises a consumer's failure as deltalite's error when the engine recorded one."""
    db = con._db
    if db is not None:
        db.raise_stream_error()
    raise exc


class _CheckedReader:
    """A pyarrow.RecordBatchReader whose engine errors raise deltalite's classes."""

    def __init__(self, con, reader):
        self._con = con
        self._reader = reader

    @property
    def schema(self):
        return self._reader.schema

    def __iter__(self):
        while True:
            try:
                batch = self._reader.read_next_batch()
            except StopIteration:
                return
            except Exception as exc:  # pyarrow's ArrowException subclasses
                _raise_stream_error(self._con, exc)
            yield batch

    def read_next_batch(self):
        try:
            return self._reader.read_next_batch()
        except StopIteration:
            raise
        except Exception as exc:
            _raise_stream_error(self._con, exc)

    def read_all(self):
        try:
            return self._reader.read_all()
        except Exception as exc:
            _raise_stream_error(self._con, exc)

    def read_pandas(self, **kwargs):
        return self.read_all().to_pandas(**kwargs)

    def __arrow_c_stream__(self, requested_schema=None):
        return self._reader.__arrow_c_stream__(requested_schema)

    def close(self):
        self._reader.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Cursor:
    """A PEP 249 cursor: execute, fetchone/fetchmany/fetchall, description, rowcount, arraysize,
    and the Relation's Arrow methods for the last statement."""

    arraysize = 1

    def __init__(self, con: Connection):
        self.connection = con
        self._rel: Relation | None = None
        self.rowcount = -1

    def execute(self, operation: str, parameters=None) -> "Cursor":
        """Runs a statement (or script); its rows are read with the fetch methods."""
        if self._rel is not None:
            self._rel.close()
        self._rel = self.connection.sql(operation, parameters)
        self.rowcount = -1
        # DML returns Spark's count columns, num_affected_rows first: PEP 249's rowcount.
        if self._rel.statement in ("INSERT", "UPDATE", "DELETE", "MERGE") and \
                self._rel.columns[:1] == ["num_affected_rows"]:
            first = self._rel.fetchone()
            self.rowcount = int(first[0]) if first and first[0] is not None else -1
            self._pending = [first] if first else []
        else:
            self._pending = []
        return self

    def executemany(self, operation: str, seq_of_parameters) -> "Cursor":
        """Runs the statement once per parameter set."""
        total = 0
        for params in seq_of_parameters:
            self.execute(operation, params)
            total += max(self.rowcount, 0)
        self.rowcount = total
        return self

    def _relation(self) -> Relation:
        if self._rel is None:
            raise InterfaceError("the cursor has not executed a statement yet; call execute() first",
                                 "INVALID_ARG")
        return self._rel

    @property
    def description(self):
        """None before execute and for statements without columns; else a 7-tuple per column
        (name, Spark type name, None, None, None, None, None)."""
        if self._rel is None or not self._rel.columns:
            return None
        return self._rel.description

    def fetchone(self):
        if self._pending:
            return self._pending.pop(0)
        return self._relation().fetchone()

    def fetchmany(self, size: int | None = None):
        size = self.arraysize if size is None else size
        head, self._pending = self._pending[:size], self._pending[size:]
        return head + self._relation().fetchmany(size - len(head))

    def fetchall(self):
        head, self._pending = self._pending, []
        return head + self._relation().fetchall()

    def fetch_arrow_table(self):
        return self._relation().arrow()

    def fetchdf(self):
        return self._relation().df()

    def close(self):
        if self._rel is not None:
            self._rel.close()
        self._rel = None

    def setinputsizes(self, sizes):
        """PEP 249: accepted, as the engine needs no sizes."""

    def setoutputsize(self, size, column=None):
        """PEP 249: accepted, as the engine needs no sizes."""

    def __iter__(self):
        while (row := self.fetchone()) is not None:
            yield row

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
