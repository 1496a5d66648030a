"""The table-level API, in the style of delta-rs's DeltaTable: a table pinned to one version,
read and changed through deltalite SQL (DESCRIBE HISTORY/DETAIL, RESTORE, VACUUM, OPTIMIZE,
DELETE, UPDATE, MERGE), so it behaves exactly as the same statements in the shell."""

from __future__ import annotations

import datetime as _dt
import os

from ._connection import Connection
from ._errors import InvalidArgumentError, NotFoundError
from ._ingest import arrow_source
from ._sql import literal, quote_name, quote_string


def _is_path(path_or_name: str) -> bool:
    return os.sep in path_or_name or "/" in path_or_name or os.path.isdir(path_or_name)


def _timestamp_literal(ts) -> str:
    """A datetime (naive = UTC), date or ISO string as a SQL timestamp string."""
    if isinstance(ts, str):
        return quote_string(ts)
    if isinstance(ts, _dt.datetime):
        if ts.tzinfo is not None:
            ts = ts.astimezone(_dt.timezone.utc).replace(tzinfo=None)
        return quote_string(ts.isoformat(sep=" "))
    if isinstance(ts, _dt.date):
        return quote_string(ts.isoformat())
    raise InvalidArgumentError(f"a timestamp must be a datetime, date or string, not {type(ts).__name__}",
                               "INVALID_ARG")


def _metrics(raw) -> dict:
    """Spark's operationMetrics (strings) as ints where they are numbers."""
    out = {}
    for k, v in (raw or {}).items():
        try:
            out[k] = int(v)
        except (TypeError, ValueError):
            out[k] = v
    return out


class DeltaTable:
    """A Delta table at one version: DeltaTable("/path/to/table") or DeltaTable("name",
    connection=con) for a table of con's warehouse. version= or timestamp= loads an earlier
    version; otherwise the latest. Operations that change the table (delete, update, merge,
    restore, optimize, vacuum) move it to the version they commit."""

    def __init__(self, path_or_name: str | os.PathLike, version: int | None = None,
                 timestamp=None, *, connection: Connection | None = None):
        text = os.fspath(path_or_name)
        if _is_path(text):
            path = os.path.abspath(text)
            if not os.path.isdir(os.path.join(path, "_delta_log")):
                raise NotFoundError(f"no Delta table at {path} (it has no _delta_log folder)",
                                    "NOT_FOUND", hint="check the path, or create the table with "
                                    "write_deltalake or CREATE TABLE")
            self._ref = "delta." + quote_name(path)
            self.table_uri = path
        else:
            self._ref = ".".join(quote_name(p) for p in text.split("."))
            self.table_uri = None
        if connection is None:
            warehouse = os.path.dirname(self.table_uri) if self.table_uri else "spark-warehouse"
            connection = Connection(warehouse, create=False)
            self._owns = True
        else:
            self._owns = False
        self._con = connection
        if self.table_uri is None:
            self.table_uri = self.detail()["location"]
        self._version = None
        self.load_as_version(timestamp if version is None and timestamp is not None else version)

    def __repr__(self):
        return f"DeltaTable({self.table_uri!r}, version={self._version})"

    def close(self):
        """Closes the connection the table opened for itself (not one passed in)."""
        if self._owns:
            self._con.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- versions
    def _sql(self, query: str, params=None):
        return self._con.sql(query, params)

    def _latest_version(self) -> int:
        row = self._sql(f"DESCRIBE HISTORY {self._ref} LIMIT 1").fetchone()
        return int(row[0])

    def version(self) -> int:
        """The version this object reads."""
        return self._version

    def update_incremental(self):
        """Moves to the table's latest version (delta-rs's name)."""
        self._version = self._latest_version()

    def load_as_version(self, version) -> None:
        """Loads version (an int), or the version current at a timestamp (datetime, date or
        ISO string; naive datetimes are UTC), or the latest (None)."""
        if version is None:
            self._version = self._latest_version()
        elif isinstance(version, bool):
            raise InvalidArgumentError("a version is an int, a datetime or a string", "INVALID_ARG")
        elif isinstance(version, int):
            latest = self._latest_version()
            if version < 0 or version > latest:
                raise NotFoundError(f"table {self.table_uri} has no version {version} (its versions "
                                    f"end at {latest})", "NOT_FOUND")
            self._version = version
        else:
            self._version = self._version_at(_timestamp_literal(version))

    def _version_at(self, ts_literal: str) -> int:
        # As Delta's TIMESTAMP AS OF: the newest commit at or before the timestamp.
        rows = self._sql(f"DESCRIBE HISTORY {self._ref}").fetchall()
        when = self._sql(f"SELECT CAST({ts_literal} AS TIMESTAMP)").fetchone()[0]
        older = [int(r[0]) for r in rows if r[1] <= when]
        if not older:
            first = min(r[1] for r in rows)
            raise NotFoundError(f"table {self.table_uri}: the timestamp {when} is before its first "
                                f"version ({first})", "NOT_FOUND",
                                hint="use a timestamp after the table's first commit")
        return max(older)

    # -- metadata
    def history(self, limit: int | None = None) -> list[dict]:
        """The commits, newest first, as dicts of Spark's DESCRIBE HISTORY columns (None values
        left out; timestamp in milliseconds since the epoch as delta-rs gives it)."""
        q = f"DESCRIBE HISTORY {self._ref}" + (f" LIMIT {int(limit)}" if limit is not None else "")
        rel = self._sql(q)
        out = []
        for row in rel.fetchall():
            d = {k: v for k, v in zip(rel.columns, row) if v is not None}
            d["timestamp"] = int(d["timestamp"].timestamp() * 1000)
            out.append(d)
        return out

    def detail(self) -> dict:
        """DESCRIBE DETAIL as a dict."""
        rel = self._sql(f"DESCRIBE DETAIL {self._ref}")
        return dict(zip(rel.columns, rel.fetchone()))

    def metadata(self) -> dict:
        """The table's id, name, description, partition columns, configuration and creation
        time (from DESCRIBE DETAIL)."""
        d = self.detail()
        return {"id": d["id"], "name": d["name"], "description": d["description"],
                "partition_columns": d["partitionColumns"], "configuration": d["properties"],
                "created_time": d["createdAt"]}

    def protocol(self) -> dict:
        """The reader and writer versions and table features."""
        d = self.detail()
        return {"min_reader_version": d["minReaderVersion"], "min_writer_version": d["minWriterVersion"],
                "features": d["tableFeatures"]}

    def schema(self) -> "Schema":
        """The schema of the loaded version."""
        rel = self._sql(f"SELECT * FROM {self._ref} VERSION AS OF {self._version} LIMIT 0")
        return Schema(list(zip(rel.columns, rel.types)), rel)

    def files(self) -> list[str]:
        """The data files of the loaded version, relative to the table folder as they are
        named on disk (the log's URIs decoded; as delta-rs's ``file_uris()`` without the
        table's prefix), sorted. Read from the snapshot (SQL ``delta_files``), so it works
        after checkpoints and log cleanup."""
        rows = self._sql(f"SELECT path FROM delta_files({quote_string(self.table_uri)}, "
                         f"{self._version})").fetchall()
        return [r[0] for r in rows]

    # -- reading
    def to_relation(self, columns: list[str] | None = None, predicate: str | None = None):
        """The rows of the loaded version as a Relation (columns and a SQL predicate optional)."""
        cols = ", ".join(quote_name(c) for c in columns) if columns else "*"
        where = f" WHERE {predicate}" if predicate else ""
        return self._sql(f"SELECT {cols} FROM {self._ref} VERSION AS OF {self._version}{where}")

    def to_pyarrow(self, columns: list[str] | None = None, predicate: str | None = None):
        """The rows of the loaded version as a pyarrow.Table."""
        return self.to_relation(columns, predicate).arrow()

    to_pyarrow_table = to_pyarrow

    def load_cdf(self, starting_version: int = 0, ending_version: int | None = None,
                 starting_timestamp=None, ending_timestamp=None, columns: list[str] | None = None,
                 predicate: str | None = None):
        """The change data feed between two versions or timestamps (a timestamp wins over a
        version), as delta-rs's load_cdf: the table's columns and _change_type,
        _commit_version, _commit_timestamp, as a pyarrow.RecordBatchReader (SQL's
        table_changes; docs/sql.md, "The change data feed")."""
        start = (_timestamp_literal(starting_timestamp) if starting_timestamp is not None
                 else str(int(starting_version)))
        end = (_timestamp_literal(ending_timestamp) if ending_timestamp is not None
               else None if ending_version is None else str(int(ending_version)))
        target = quote_string(self._ref)
        args = f"{target}, {start}" + (f", {end}" if end is not None else "")
        cols = ", ".join(quote_name(c) for c in columns) if columns else "*"
        where = f" WHERE {predicate}" if predicate else ""
        return self._sql(f"SELECT {cols} FROM table_changes({args}){where}").record_batch_reader()

    def to_pandas(self, columns: list[str] | None = None, predicate: str | None = None):
        """The rows of the loaded version as a pandas.DataFrame."""
        return self.to_relation(columns, predicate).df()

    def __arrow_c_stream__(self, requested_schema=None):
        return self.to_relation().__arrow_c_stream__(requested_schema)

    # -- changes
    def _after_change(self) -> dict:
        """Moves to the new version and returns the commit's operationMetrics."""
        self.update_incremental()
        entry = self.history(1)[0]
        return _metrics(entry.get("operationMetrics"))

    def restore(self, target) -> dict:
        """Restores the table to a version (int) or a timestamp; returns RESTORE's metrics."""
        if isinstance(target, int) and not isinstance(target, bool):
            self._sql(f"RESTORE TABLE {self._ref} TO VERSION AS OF {target}")
        else:
            self._sql(f"RESTORE TABLE {self._ref} TO TIMESTAMP AS OF {_timestamp_literal(target)}")
        return self._after_change()

    def vacuum(self, retention_hours: int | None = None, dry_run: bool = True,
               enforce_retention_duration: bool = True) -> list[str]:
        """The files VACUUM removes (dry_run=True, the default as delta-rs: only lists them).
        retention_hours below the table's retention fails unless enforce_retention_duration is
        False."""
        retain = f" RETAIN {retention_hours} HOURS" if retention_hours is not None else ""
        conf = "spark.databricks.delta.retentionDurationCheck.enabled"
        if not enforce_retention_duration:
            self._sql(f"SET {conf} = false")
        try:
            rows = self._sql(f"VACUUM {self._ref}{retain} DRY RUN").fetchall()
            # VACUUM lists absolute paths, as Spark; delta-rs gives them relative to the table.
            root = self.table_uri.rstrip("/") + "/"
            files = [r[0][len(root):] if r[0].startswith(root) else r[0] for r in rows]
            if not dry_run and files:
                self._sql(f"VACUUM {self._ref}{retain}").fetchall()
                self.update_incremental()
        finally:
            if not enforce_retention_duration:
                self._sql(f"RESET {conf}")
        return files

    @property
    def optimize(self) -> "TableOptimizer":
        """optimize.compact() and optimize.z_order(columns)."""
        return TableOptimizer(self)

    def delete(self, predicate: str | None = None) -> dict:
        """Deletes the rows matching a SQL predicate (all rows without one); returns the
        commit's metrics."""
        self._sql(f"DELETE FROM {self._ref}" + (f" WHERE {predicate}" if predicate else ""))
        return self._after_change()

    def update(self, updates: dict[str, str] | None = None, predicate: str | None = None, *,
               new_values: dict | None = None) -> dict:
        """UPDATE: updates maps column -> SQL expression, new_values maps column -> Python
        value; predicate is a SQL condition. Returns the commit's metrics."""
        sets = [f"{quote_name(c)} = {e}" for c, e in (updates or {}).items()]
        sets += [f"{quote_name(c)} = {literal(v)}" for c, v in (new_values or {}).items()]
        if not sets:
            raise InvalidArgumentError("update() needs updates or new_values", "INVALID_ARG")
        self._sql(f"UPDATE {self._ref} SET {', '.join(sets)}" + (f" WHERE {predicate}" if predicate else ""))
        return self._after_change()

    def merge(self, source, predicate: str, source_alias: str = "source",
              target_alias: str = "target") -> "TableMerger":
        """A MERGE builder: source is a table name, a Relation's SQL, or Arrow data (pyarrow,
        pandas, polars: anything with __arrow_c_stream__)."""
        return TableMerger(self, source, predicate, source_alias, target_alias)


class Schema:
    """A table's columns: fields as (name, Spark type) pairs; to_arrow() gives pyarrow's."""

    def __init__(self, fields, relation):
        self.fields = fields
        self._relation = relation

    def __repr__(self):
        return "Schema(" + ", ".join(f"{n} {t}" for n, t in self.fields) + ")"

    def __eq__(self, other):
        return isinstance(other, Schema) and self.fields == other.fields

    def to_arrow(self):
        return self._relation.arrow().schema

    to_pyarrow = to_arrow


class TableOptimizer:
    def __init__(self, table: DeltaTable):
        self._table = table

    def compact(self, partition_filters: str | None = None) -> dict:
        """OPTIMIZE: bin-packs small files; returns OPTIMIZE's metrics."""
        t = self._table
        where = f" WHERE {partition_filters}" if partition_filters else ""
        row = t._sql(f"OPTIMIZE {t._ref}{where}").fetchone()
        t.update_incremental()
        return row[1] if row else {}

    def z_order(self, columns: list[str], partition_filters: str | None = None) -> dict:
        """OPTIMIZE ... ZORDER BY columns; returns OPTIMIZE's metrics."""
        t = self._table
        where = f" WHERE {partition_filters}" if partition_filters else ""
        cols = ", ".join(quote_name(c) for c in columns)
        row = t._sql(f"OPTIMIZE {t._ref}{where} ZORDER BY ({cols})").fetchone()
        t.update_incremental()
        return row[1] if row else {}


class TableMerger:
    """Builds MERGE INTO target USING source ON predicate WHEN ... clauses; execute() runs it.
    Clause conditions and values are SQL text over the two aliases."""

    def __init__(self, table, source, predicate, source_alias, target_alias):
        self._table = table
        self._source = source
        self._predicate = predicate
        self._source_alias = source_alias
        self._target_alias = target_alias
        self._clauses: list[str] = []

    @staticmethod
    def _cond(predicate):
        return f" AND {predicate}" if predicate else ""

    @staticmethod
    def _sets(updates):
        return ", ".join(f"{quote_name(c)} = {e}" for c, e in updates.items())

    def when_matched_update(self, updates: dict[str, str], predicate: str | None = None):
        self._clauses.append(f"WHEN MATCHED{self._cond(predicate)} THEN UPDATE SET {self._sets(updates)}")
        return self

    def when_matched_update_all(self, predicate: str | None = None):
        self._clauses.append(f"WHEN MATCHED{self._cond(predicate)} THEN UPDATE SET *")
        return self

    def when_matched_delete(self, predicate: str | None = None):
        self._clauses.append(f"WHEN MATCHED{self._cond(predicate)} THEN DELETE")
        return self

    def when_not_matched_insert(self, updates: dict[str, str], predicate: str | None = None):
        cols = ", ".join(quote_name(c) for c in updates)
        vals = ", ".join(updates.values())
        self._clauses.append(f"WHEN NOT MATCHED{self._cond(predicate)} THEN INSERT ({cols}) VALUES ({vals})")
        return self

    def when_not_matched_insert_all(self, predicate: str | None = None):
        self._clauses.append(f"WHEN NOT MATCHED{self._cond(predicate)} THEN INSERT *")
        return self

    def when_not_matched_by_source_update(self, updates: dict[str, str], predicate: str | None = None):
        self._clauses.append(
            f"WHEN NOT MATCHED BY SOURCE{self._cond(predicate)} THEN UPDATE SET {self._sets(updates)}")
        return self

    def when_not_matched_by_source_delete(self, predicate: str | None = None):
        self._clauses.append(f"WHEN NOT MATCHED BY SOURCE{self._cond(predicate)} THEN DELETE")
        return self

    def execute(self) -> dict:
        """Runs the MERGE; returns the commit's metrics."""
        if not self._clauses:
            raise InvalidArgumentError("a merge needs at least one when_* clause before execute()",
                                       "INVALID_ARG")
        t = self._table
        source, data = _source_sql(self._source)
        if source is not None:
            self._run(source)
        else:
            with arrow_source(t._con, data) as (name, _columns):
                self._run(name)
        return t._after_change()

    def _run(self, source: str) -> None:
        t = self._table
        t._sql(f"MERGE INTO {t._ref} AS {quote_name(self._target_alias)} USING {source} AS "
               f"{quote_name(self._source_alias)} ON {self._predicate} " + " ".join(self._clauses))


def _source_sql(source):
    """SQL for a merge source given as SQL, a Relation or a DeltaTable, or (None, source) for
    Arrow data."""
    if isinstance(source, str):
        return source if source.lstrip().startswith("(") else ".".join(
            quote_name(p) for p in source.split(".")), None
    from ._connection import Relation
    if isinstance(source, Relation):
        return f"({source._sql})", None
    if isinstance(source, DeltaTable):
        return f"{source._ref} VERSION AS OF {source._version}", None
    return None, source
