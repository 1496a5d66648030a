"""Python data entering the engine: any Arrow stream (pyarrow Table/RecordBatch/Reader, pandas,
polars, or any object with __arrow_c_stream__) as a SQL source, and write_deltalake.

Today the data goes through a temporary Parquet file that the engine reads with read_parquet
(one copy, made by pyarrow, which must be installed); timestamps are written in microseconds,
and a nanosecond value that does not fit is refused rather than cut."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile

from ._errors import AlreadyExistsError, InvalidArgumentError, SchemaError
from ._sql import quote_name, quote_string


def to_arrow_table(data):
    """data as a pyarrow.Table, without copying where the source allows."""
    import pyarrow as pa
    if isinstance(data, pa.Table):
        return data
    if isinstance(data, pa.RecordBatch):
        return pa.Table.from_batches([data])
    if isinstance(data, pa.RecordBatchReader):
        return data.read_all()
    module = type(data).__module__.split(".")[0]
    if module == "pandas":
        return pa.Table.from_pandas(data, preserve_index=False)
    if module == "polars" and hasattr(data, "to_arrow"):
        return data.to_arrow()
    if hasattr(data, "__arrow_c_stream__"):
        return pa.RecordBatchReader.from_stream(data).read_all()
    if hasattr(data, "__arrow_c_array__"):
        return pa.table(data)
    raise InvalidArgumentError(
        f"cannot read a {type(data).__name__} as Arrow data; pass a pyarrow Table, RecordBatch or "
        "RecordBatchReader, a pandas or polars DataFrame, or an object with __arrow_c_stream__",
        "INVALID_ARG")


@contextlib.contextmanager
def parquet_source(data):
    """Yields SQL reading data (`read_parquet('...')`); removes the file afterwards."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    table = to_arrow_table(data)
    folder = tempfile.mkdtemp(prefix="deltalite-src-")
    path = os.path.join(folder, "data.parquet")
    try:
        try:
            pq.write_table(table, path, coerce_timestamps="us", allow_truncated_timestamps=False)
        except pa.ArrowInvalid as exc:
            raise SchemaError(f"the data cannot be stored as Delta types: {exc}", "SCHEMA",
                              hint="round nanosecond timestamps to microseconds first") from exc
        yield f"read_parquet({quote_string(path)})", table.schema
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def write_deltalake(table_or_uri, data, *, mode: str = "error", partition_by=None,
                    schema_mode: str | None = None, connection=None, name: str | None = None,
                    description: str | None = None, configuration: dict | None = None) -> None:
    """Writes Arrow data to the Delta table at table_or_uri (a path, or a table name of
    connection's warehouse), as delta-rs's write_deltalake: mode 'error' (the default: fail if
    the table exists), 'append', 'overwrite' or 'ignore'; partition_by the partition columns of
    a new table (on an existing one they must match); schema_mode 'merge' adds new columns,
    'overwrite' (with mode='overwrite') replaces the schema. Columns match by name."""
    from ._connection import Connection
    from ._table import DeltaTable, _is_path
    if mode not in ("error", "append", "overwrite", "ignore"):
        raise InvalidArgumentError(f"mode must be 'error', 'append', 'overwrite' or 'ignore', not {mode!r}",
                                   "INVALID_ARG")
    if schema_mode not in (None, "merge", "overwrite"):
        raise InvalidArgumentError(f"schema_mode must be None, 'merge' or 'overwrite', not {schema_mode!r}",
                                   "INVALID_ARG")
    if schema_mode == "overwrite" and mode != "overwrite":
        raise InvalidArgumentError("schema_mode='overwrite' needs mode='overwrite'", "INVALID_ARG")
    if isinstance(table_or_uri, DeltaTable):
        table_or_uri = table_or_uri.table_uri
    text = os.fspath(table_or_uri)
    partition_by = [partition_by] if isinstance(partition_by, str) else list(partition_by or [])
    owns = connection is None
    if _is_path(text):
        path = os.path.abspath(text)
        ref = "delta." + quote_name(path)
        exists = os.path.isdir(os.path.join(path, "_delta_log"))
        if owns:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            connection = Connection(os.path.dirname(path), create=True)
    else:
        if owns:
            connection = Connection("spark-warehouse")
        ref = ".".join(quote_name(p) for p in text.split("."))
        exists = _name_exists(connection, ref)
    try:
        if exists and mode == "ignore":
            return
        if exists and mode == "error":
            raise AlreadyExistsError(f"the Delta table {text} already exists", "EXISTS",
                                     hint="pass mode='append' or mode='overwrite'")
        with parquet_source(data) as (source, schema):
            cols = ", ".join(quote_name(n) for n in schema.names)
            if not exists or schema_mode == "overwrite":
                _create(connection, ref, source, cols, partition_by, description, configuration,
                        replace=exists)
                return
            _check_partitions(connection, ref, text, partition_by)
            verb = "INSERT INTO" if mode == "append" else "INSERT OVERWRITE"
            merge = schema_mode == "merge"
            conf = "spark.databricks.delta.schema.autoMerge.enabled"
            if merge:
                connection.sql(f"SET {conf} = true")
            try:
                connection.sql(f"{verb} {ref} BY NAME SELECT {cols} FROM {source}")
            finally:
                if merge:
                    connection.sql(f"RESET {conf}")
    finally:
        if owns:
            connection.close()


def _name_exists(con, ref) -> bool:
    from ._errors import NotFoundError
    try:
        con.sql(f"DESCRIBE DETAIL {ref}").fetchall()
        return True
    except NotFoundError:
        return False


def _create(con, ref, source, cols, partition_by, description, configuration, replace):
    parts = f" PARTITIONED BY ({', '.join(quote_name(c) for c in partition_by)})" if partition_by else ""
    comment = f" COMMENT {quote_string(description)}" if description else ""
    props = ""
    if configuration:
        props = " TBLPROPERTIES (" + ", ".join(
            f"{quote_string(k)} = {quote_string(str(v))}" for k, v in configuration.items()) + ")"
    verb = "CREATE OR REPLACE TABLE" if replace else "CREATE TABLE"
    con.sql(f"{verb} {ref} USING delta{parts}{comment}{props} AS SELECT {cols} FROM {source}")


def _check_partitions(con, ref, text, partition_by):
    if not partition_by:
        return
    rel = con.sql(f"DESCRIBE DETAIL {ref}")
    have = list(dict(zip(rel.columns, rel.fetchone()))["partitionColumns"])
    if have != partition_by:
        raise SchemaError(f"the Delta table {text} is partitioned by {have or 'nothing'}, not "
                          f"{partition_by}", "SCHEMA",
                          hint="leave out partition_by, or pass the table's own partition columns")
