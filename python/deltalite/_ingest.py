"""Python data entering the engine: any Arrow stream (pyarrow Table/RecordBatch/Reader, pandas,
polars, or any object with __arrow_c_stream__) registered as a temporary relation of the
connection (Connection.register: the C API's deltalite_register_arrow_stream, which shares the
buffers the engine can use as they are), and write_deltalake over it."""

from __future__ import annotations

import contextlib
import itertools
import os

from ._errors import AlreadyExistsError, InvalidArgumentError, SchemaError
from ._sql import quote_name, quote_string

_names = itertools.count(1)


@contextlib.contextmanager
def arrow_source(con, data):
    """Yields (the quoted name of data registered on con, its column names); unregisters it
    afterwards."""
    name = f"__deltalite_source_{os.getpid()}_{next(_names)}"
    con.register(name, data)
    try:
        columns = con.sql(f"SELECT * FROM {quote_name(name)} LIMIT 0").columns
        yield quote_name(name), columns
    finally:
        con.unregister(name)


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
        with arrow_source(connection, data) as (source, names):
            cols = ", ".join(quote_name(n) for n in names)
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
