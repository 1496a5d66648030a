"""spark.read and df.write for Delta tables: reads become SELECTs with VERSION AS OF /
TIMESTAMP AS OF, writes become CREATE TABLE AS SELECT, INSERT INTO ... BY NAME and INSERT
OVERWRITE ... BY NAME, so that columns are matched by name as Delta's DataFrame writer
matches them. Options deltalite does not act on are refused, never ignored."""

import datetime as _dt

from . import _sql
from .errors import AnalysisException


def _option_value(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _format(fmt, what):
    if not isinstance(fmt, str) or fmt.lower() != "delta":
        raise NotImplementedError(f"{what}.format({fmt!r}): deltalite.spark reads and writes Delta tables only "
                                  f"(format('delta'))")
    return "delta"


class _Options:
    """option()/options() of a reader or writer: keys matched without case (as Spark's
    options), stored under their known spelling; unknown keys refused by refuse(key)."""

    _OPTIONS = ()

    def option(self, key, value):
        for known in self._OPTIONS:
            if key.lower() == known.lower():
                self._options[known] = self._value(value)
                return self
        self._refuse(key)

    def options(self, **options):
        for k, v in options.items():
            self.option(k, v)
        return self

    def _value(self, value):
        return value


def path_ref(path):
    """The SQL reference of a table by path."""
    path = str(path)
    if not path:
        raise ValueError("a table path cannot be empty")
    return f"delta.{_sql.quote_ident(path)}"


class DataFrameReader(_Options):
    _OPTIONS = ("versionAsOf", "timestampAsOf")

    def __init__(self, session):
        self._session = session
        self._options = {}
        self._format = None

    def format(self, source):
        self._format = _format(source, "DataFrameReader")
        return self

    def _refuse(self, key):
        raise NotImplementedError(f"DataFrameReader.option({key!r}): deltalite.spark's Delta reader takes "
                                  f"'versionAsOf' and 'timestampAsOf' only; other options would be ignored")

    def schema(self, schema):
        raise AnalysisException("DataFrameReader.schema: a Delta table has its own schema; it cannot be given at "
                                "read time (Spark refuses it too)")

    def _travel(self):
        version, ts = self._options.get("versionAsOf"), self._options.get("timestampAsOf")
        if version is not None and ts is not None:
            raise AnalysisException("Cannot specify both version and timestamp when time travelling the table "
                                    "(options versionAsOf and timestampAsOf)")
        if version is not None:
            try:
                v = int(version)
            except (TypeError, ValueError):
                raise ValueError(f"versionAsOf must be a whole number, not {version!r}") from None
            return f" VERSION AS OF {v}"
        if ts is not None:
            if isinstance(ts, _dt.datetime):
                return f" TIMESTAMP AS OF {_sql.timestamp_literal(ts)}"
            return f" TIMESTAMP AS OF {_sql.string_literal(str(ts))}"
        return ""

    def _check_format(self, what):
        if self._format is None:
            raise NotImplementedError(f"DataFrameReader.{what} without format('delta'): Spark's default format is "
                                      f"Parquet files, which deltalite.spark does not read; add .format('delta')")

    def load(self, path=None, format=None, **options):
        if format is not None:
            self.format(format)
        self.options(**options)
        self._check_format("load")
        if path is None:
            raise ValueError("DataFrameReader.load needs the table's path")
        return self._session._table(f"{path_ref(path)}{self._travel()}")

    def table(self, tableName):
        travel = self._travel()
        view = self._session._view_sql(tableName)
        if view is not None:
            if travel:
                raise AnalysisException(f"{tableName} is a temporary view; time travel needs a Delta table")
            return self._session._query(view)
        return self._session._table(f"{_sql.quote_name(tableName)}{travel}")

    def _file_format(name):
        def f(self, *args, **kwargs):
            raise NotImplementedError(f"DataFrameReader.{name}: deltalite.spark reads Delta tables only "
                                      f"(spark.read.format('delta').load(path) or .table(name))")

        f.__name__ = name
        return f

    def text(self, paths, wholetext=False, lineSep=None, **options):
        """Text files as one row per line (column value), as Spark's text source; paths may
        be files, folders (their files) and glob patterns. input_file_name() gives each
        row's file."""
        if options or self._options:
            raise NotImplementedError("DataFrameReader.text with options is not in deltalite.spark's subset")
        from ._text import read_text

        return read_text(self._session, [paths] if isinstance(paths, str) else list(paths), wholetext, lineSep)

    parquet = _file_format("parquet")
    csv = _file_format("csv")
    json = _file_format("json")
    orc = _file_format("orc")
    jdbc = _file_format("jdbc")


class DataFrameWriter(_Options):
    _OPTIONS = ("mergeSchema", "overwriteSchema", "partitionOverwriteMode")
    _MODES = {"append": "append", "overwrite": "overwrite", "error": "error", "errorifexists": "error",
              "default": "error", "ignore": "ignore"}

    def __init__(self, df):
        self._df = df
        self._mode = "error"
        self._format = None
        self._options = {}
        self._partition_by = []

    def format(self, source):
        self._format = _format(source, "DataFrameWriter")
        return self

    def mode(self, saveMode):
        if saveMode is None:
            return self
        mode = self._MODES.get(str(saveMode).lower())
        if mode is None:
            raise ValueError(f"unknown save mode {saveMode!r}; Spark's are append, overwrite, error, "
                             f"errorifexists, ignore")
        self._mode = mode
        return self

    def _value(self, value):
        return _option_value(value)

    def _refuse(self, key):
        if key.lower() == "replacewhere":
            raise NotImplementedError("DataFrameWriter.option('replaceWhere'): the engine does not do INSERT ... "
                                      "REPLACE WHERE yet; DELETE the rows, then append")
        raise NotImplementedError(f"DataFrameWriter.option({key!r}): deltalite.spark's Delta writer takes "
                                  f"{', '.join(self._OPTIONS)}; other options would be ignored")

    def partitionBy(self, *cols):
        if len(cols) == 1 and isinstance(cols[0], (list, tuple)):
            cols = tuple(cols[0])
        self._partition_by = list(cols)
        return self

    def bucketBy(self, *args, **kwargs):
        raise NotImplementedError("DataFrameWriter.bucketBy: Delta tables have no buckets (Spark refuses it too)")

    def sortBy(self, *args, **kwargs):
        raise NotImplementedError("DataFrameWriter.sortBy: Delta tables have no buckets to sort (Spark refuses it too)")

    def clusterBy(self, *args, **kwargs):
        raise NotImplementedError("DataFrameWriter.clusterBy: liquid clustering is not in deltalite")

    def _check(self, what):
        if self._format is None:
            raise NotImplementedError(f"DataFrameWriter.{what} without format('delta'): Spark's default format is "
                                      f"Parquet files; add .format('delta')")
        if self._options.get("mergeSchema") == "true" and self._options.get("overwriteSchema") == "true":
            raise AnalysisException("options mergeSchema and overwriteSchema cannot both be true")
        for k in ("mergeSchema", "overwriteSchema"):
            if self._options.get(k, "false") not in ("true", "false"):
                raise ValueError(f"option {k} must be true or false, not {self._options[k]!r}")

    def save(self, path=None, format=None, mode=None, partitionBy=None, **options):
        if format is not None:
            self.format(format)
        self.mode(mode)
        if partitionBy is not None:
            self.partitionBy(partitionBy)
        self.options(**options)
        self._check("save")
        if path is None:
            raise ValueError("DataFrameWriter.save needs the table's path")
        self._write(path_ref(path), by_path=True)

    def saveAsTable(self, name, format=None, mode=None, partitionBy=None, **options):
        if format is not None:
            self.format(format)
        self.mode(mode)
        if partitionBy is not None:
            self.partitionBy(partitionBy)
        self.options(**options)
        self._check("saveAsTable")
        if self._df._session._view_sql(name) is not None:
            raise AnalysisException(f"{name} is a temporary view; saveAsTable writes tables")
        self._write(_sql.quote_name(name), by_path=False)

    def parquet(self, path, mode=None, partitionBy=None, compression=None):
        """A folder of Parquet files (not a Delta table): _parquet.py."""
        self.mode(mode)
        if partitionBy is not None:
            self.partitionBy(partitionBy)
        if self._partition_by:
            raise NotImplementedError("DataFrameWriter.parquet with partitionBy: deltalite.spark writes one folder of "
                                      "Parquet files; write a Delta table with partitionBy instead")
        if self._format is not None or self._options:
            raise NotImplementedError("DataFrameWriter.parquet after format() or option(): those are the Delta "
                                      "writer's; parquet(path) takes mode and compression")
        from ._parquet import write_parquet

        write_parquet(self._df, path, self._mode, compression)

    def insertInto(self, tableName, overwrite=None):
        self._check("insertInto")
        target = _sql.quote_name(tableName)
        verb = "INSERT OVERWRITE" if (overwrite or self._mode == "overwrite") else "INSERT INTO"
        self._df._session._run(f"{verb} {target}{self._with()} SELECT * FROM {self._df._from()}")

    def _with(self, *keys):
        opts = [(k, v) for k, v in self._options.items() if k in (keys or ("mergeSchema", "partitionOverwriteMode"))]
        if not opts:
            return ""
        return " WITH (" + ", ".join(f"{_sql.string_literal(k)} = {_sql.string_literal(v)}" for k, v in opts) + ")"

    def _create(self, verb, target):
        parts = ""
        if self._partition_by:
            parts = " PARTITIONED BY (" + ", ".join(_sql.quote_ident(c) for c in self._partition_by) + ")"
        self._df._session._run(f"{verb} {target}{parts} AS SELECT * FROM {self._df._from()}")

    def _write(self, target, by_path):
        session = self._df._session
        detail = session._detail(target)
        if detail is None:  # a new table
            if self._mode == "overwrite" and not by_path:
                return self._create("CREATE OR REPLACE TABLE", target)
            return self._create("CREATE TABLE", target)
        if self._mode == "ignore":
            return None
        if self._mode == "error":
            raise AnalysisException(f"[DELTA_TABLE_ALREADY_EXISTS] {target} already exists; write with "
                                    f"mode('append') or mode('overwrite')")
        if self._mode == "overwrite" and (not by_path or self._options.get("overwriteSchema") == "true"):
            # saveAsTable's overwrite replaces the table (Spark's CREATE OR REPLACE TABLE AS SELECT)
            return self._create("CREATE OR REPLACE TABLE", target)
        self._check_partitions(target, detail)
        verb = "INSERT OVERWRITE" if self._mode == "overwrite" else "INSERT INTO"
        session._run(f"{verb} {target}{self._with()} BY NAME SELECT * FROM {self._df._from()}")
        return None

    def _check_partitions(self, target, detail):
        have = list(detail.get("partitionColumns") or [])
        if self._partition_by and [c.lower() for c in self._partition_by] != [c.lower() for c in have]:
            raise AnalysisException(
                f"[DELTA_PARTITION_COLUMNS_MISMATCH] partitionBy({', '.join(self._partition_by)}) does not match the "
                f"partition columns of {target} ({', '.join(have) or 'none'}); leave partitionBy out, or "
                f"overwrite with option('overwriteSchema', 'true') to change them")


class DataFrameWriterV2:
    """df.writeTo(name): create, replace, createOrReplace, append, overwritePartitions, as
    PySpark's DataFrameWriterV2 over a Delta table by name (or delta.`path`)."""

    def __init__(self, df, table):
        self._df, self._table = df, table
        self._provider = None
        self._partitions, self._properties, self._options = [], {}, {}

    def using(self, provider):
        if str(provider).lower() != "delta":
            raise NotImplementedError(f"DataFrameWriterV2.using({provider!r}): deltalite.spark writes Delta tables only")
        self._provider = "delta"
        return self

    def option(self, key, value):
        if key.lower() != "mergeschema":
            raise NotImplementedError(f"DataFrameWriterV2.option({key!r}): deltalite.spark takes 'mergeSchema' only; "
                                      f"other options would be ignored")
        self._options["mergeSchema"] = _option_value(value)
        return self

    def options(self, **options):
        for k, v in options.items():
            self.option(k, v)
        return self

    def tableProperty(self, property, value):
        self._properties[property] = str(value)
        return self

    def partitionedBy(self, col, *cols):
        from .column import Column

        for c in (col,) + cols:
            if isinstance(c, Column):
                raise NotImplementedError("DataFrameWriterV2.partitionedBy with transforms (years(), bucket(), ...) is "
                                          "not in deltalite.spark's subset; partition by column names")
            self._partitions.append(c)
        return self

    def _create(self, verb):
        target = _sql.quote_name(self._table)
        parts = ""
        if self._partitions:
            parts = " PARTITIONED BY (" + ", ".join(_sql.quote_ident(c) for c in self._partitions) + ")"
        props = ""
        if self._properties:
            props = " TBLPROPERTIES (" + ", ".join(f"{_sql.string_literal(k)} = {_sql.string_literal(v)}"
                                                   for k, v in self._properties.items()) + ")"
        self._df._session._run(f"{verb} {target} USING DELTA{parts}{props} AS SELECT * FROM {self._df._from()}")

    def create(self):
        self._create("CREATE TABLE")

    def replace(self):
        self._create("REPLACE TABLE")

    def createOrReplace(self):
        self._create("CREATE OR REPLACE TABLE")

    def _insert(self, verb, extra=()):
        opts = [(k, v) for k, v in self._options.items()] + list(extra)
        with_ = ""
        if opts:
            with_ = " WITH (" + ", ".join(f"{_sql.string_literal(k)} = {_sql.string_literal(v)}" for k, v in opts) + ")"
        target = _sql.quote_name(self._table)
        self._df._session._run(f"{verb} {target}{with_} BY NAME SELECT * FROM {self._df._from()}")

    def append(self):
        self._insert("INSERT INTO")

    def overwritePartitions(self):
        self._insert("INSERT OVERWRITE", [("partitionOverwriteMode", "dynamic")])

    def overwrite(self, condition):
        raise NotImplementedError("DataFrameWriterV2.overwrite(condition): the engine does not do INSERT ... REPLACE "
                                  "WHERE yet; DELETE the rows, then append()")
