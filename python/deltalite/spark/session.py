"""SparkSession over a deltalite connection: the builder, spark.sql, spark.read,
spark.createDataFrame, spark.table, spark.conf. One warehouse folder per session (Spark's
spark.sql.warehouse.dir, ./spark-warehouse by default), holding tables as Spark lays them out."""

import itertools
import os
import re
import threading

from . import _sql, _views
from .dataframe import DataFrame, _rows
from .errors import AnalysisException, from_engine
from .readwriter import DataFrameReader
from .types import schema_from_arrow

# Settings the engine acts on (src/sql/sql_session.c's known_settings): set there, read back.
ENGINE_SETTINGS = {
    "spark.sql.ansi.enabled", "spark.sql.storeAssignmentPolicy", "spark.sql.session.timeZone",
    "spark.databricks.delta.retentionDurationCheck.enabled", "spark.sql.shuffle.partitions",
    "spark.databricks.delta.schema.autoMerge.enabled", "spark.sql.caseSensitive",
    "spark.databricks.delta.optimize.minFileSize", "spark.databricks.delta.optimize.maxFileSize",
    "spark.databricks.delta.optimize.maxDeletedRowsRatio", "spark.sql.sources.partitionOverwriteMode",
    "spark.databricks.delta.allowArbitraryProperties.enabled", "spark.databricks.delta.vacuum.logging.enabled",
    "spark.databricks.delta.vacuum.lite.enabled", "spark.databricks.io.skipping.mdc.rangeId.max",
    "spark.databricks.delta.optimize.zorder.checkStatsCollection.enabled",
    "spark.sql.files.maxRecordsPerFile", "parquet.block.size", "parquet.page.size", "parquet.page.row.count.limit",
}
WAREHOUSE_KEY = "spark.sql.warehouse.dir"
# The names of the Arrow data the session registers (createDataFrame's and commands' larger rows).
DATA_PREFIX = "_dl_data_"
# Settings that tune a JVM or a cluster and cannot change what a script computes: kept, unused.
_HARMLESS = re.compile(
    r"^(spark\.app\.name|spark\.master|spark\.submit\.\S+|spark\.ui\.\S+|spark\.driver\.\S+|spark\.executor\.\S+"
    r"|spark\.jars(\.\S+)?|spark\.files|spark\.pyspark\.\S+|spark\.default\.parallelism|spark\.serializer(\.\S+)?"
    r"|spark\.kryo\S*|spark\.memory\.\S+|spark\.cores\.max|spark\.local\.dir|spark\.network\.timeout"
    r"|spark\.eventLog\.\S+|spark\.log\.level|spark\.dynamicAllocation\.\S+|spark\.sql\.adaptive\.\S+"
    r"|spark\.sql\.codegen\.\S+|spark\.sql\.execution\.arrow\.\S+|spark\.sql\.autoBroadcastJoinThreshold"
    r"|spark\.sql\.broadcastTimeout|spark\.sql\.files\.maxPartitionBytes|spark\.sql\.files\.openCostInBytes"
    r"|spark\.databricks\.delta\.snapshotPartitions|spark\.sql\.catalogImplementation"
    r"|spark\.sql\.execution\.pythonUDF\.\S+|spark\.python\.\S+|spark\.scheduler\.\S+|spark\.task\.\S+)$"
)
# Settings Delta requires in PySpark; any other value would mean another engine.
_REQUIRED = {
    "spark.sql.extensions": "io.delta.sql.DeltaSparkSessionExtension",
    "spark.sql.catalog.spark_catalog": "org.apache.spark.sql.delta.catalog.DeltaCatalog",
}
_QUERY_START = re.compile(r"^\s*(?:(?:--[^\n]*\n|/\*.*?\*/)\s*)*\(*\s*(SELECT|WITH|VALUES|TABLE|FROM)\b", re.I | re.S)


def _setting_text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def check_setting(key, value):
    """Where a setting goes: 'engine', 'warehouse', 'kept'; refuses what would be ignored."""
    if key in ENGINE_SETTINGS:
        return "engine"
    if key == WAREHOUSE_KEY:
        return "warehouse"
    if key in _REQUIRED:
        if _REQUIRED[key] not in str(value).split(","):
            raise NotImplementedError(f"setting {key} = {value!r}: deltalite.spark is Delta's engine; the value "
                                      f"must be (or list) {_REQUIRED[key]}")
        return "kept"
    if _HARMLESS.match(key):
        return "kept"
    raise NotImplementedError(
        f"setting {key} = {value!r} is not one deltalite.spark acts on; it would be ignored, so it is refused. "
        f"Settings the engine acts on: {', '.join(sorted(ENGINE_SETTINGS))} (docs/pyspark.md)")


def _format_arg(value):
    from .column import Column

    if isinstance(value, DataFrame):
        return value._from()
    if isinstance(value, Column):
        return value._sql
    return value


class RuntimeConfig:
    """spark.conf: the engine's settings go to the engine (checked there, with Spark's errors)."""

    def __init__(self, session):
        self._session = session

    def set(self, key, value):
        where = check_setting(key, value)
        if where == "warehouse":
            if os.path.abspath(str(value)) != self._session._warehouse:
                raise AnalysisException(f"[CANNOT_MODIFY_CONFIG] {WAREHOUSE_KEY} is fixed when the session starts "
                                        f"({self._session._warehouse}); stop the session and build a new one")
            return
        if where == "engine":
            self._session._run(f"SET {key} = {_setting_text(value)}")
        self._session._kept[key] = _setting_text(value)

    def get(self, key, default=None):
        if key == WAREHOUSE_KEY:
            return self._session._warehouse
        if key in ENGINE_SETTINGS:
            table = self._session._run(f"SET {key}")
            if table.num_rows and table.num_columns >= 2:
                return table.column(1)[0].as_py()
        if key in self._session._kept:
            return self._session._kept[key]
        if default is not None:
            return default
        raise KeyError(f"[SQL_CONF_NOT_FOUND] the setting {key} is not set")

    def unset(self, key):
        if key in ENGINE_SETTINGS:
            self._session._run(f"RESET {key}")
        self._session._kept.pop(key, None)

    def isModifiable(self, key):
        return key in ENGINE_SETTINGS


class Builder:
    def __init__(self):
        self._settings = {}

    def appName(self, name):
        return self.config("spark.app.name", name)

    def master(self, master):
        return self.config("spark.master", master)

    def enableHiveSupport(self):
        return self  # the warehouse is laid out as Hive's managed tables are (schema.db/table)

    def remote(self, url):
        raise NotImplementedError("SparkSession.builder.remote: deltalite.spark runs in this process; there is no "
                                  "Spark Connect server")

    def config(self, key=None, value=None, conf=None, map=None):
        pairs = []
        if conf is not None:
            pairs += list(conf.getAll())
        if map is not None:
            pairs += list(map.items())
        if key is not None:
            pairs.append((key, value))
        for k, v in pairs:
            check_setting(k, v)
            self._settings[k] = v
        return self

    def getOrCreate(self):
        with SparkSession._lock:
            session = SparkSession._active
            if session is None:
                session = SparkSession(self._settings)
                SparkSession._active = session
                return session
            for k, v in self._settings.items():
                session.conf.set(k, v)
            return session

    def create(self):
        return SparkSession(self._settings)


class _BuilderDescriptor:
    def __get__(self, obj, owner):
        return Builder()


class SparkSession:
    """A session over one warehouse folder."""

    builder = _BuilderDescriptor()
    _active = None
    _lock = threading.RLock()

    def __init__(self, settings=None):
        import deltalite

        settings = dict(settings or {})
        self._warehouse = os.path.abspath(str(settings.pop(WAREHOUSE_KEY, "spark-warehouse")))
        os.makedirs(self._warehouse, exist_ok=True)
        self._con = deltalite.connect(self._warehouse)
        self._aliases = itertools.count(1)
        self._views = {}  # temporary views the engine refused (substituted in the text)
        self._engine_views = {}  # temporary views the engine holds (CREATE TEMP VIEW)
        self._kept = {}
        self.conf = RuntimeConfig(self)
        for k, v in settings.items():
            self.conf.set(k, v)

    # ---- running SQL -------------------------------------------------------------------------

    def _run(self, sql, schema_only=False):
        """The rows of one statement as a pyarrow Table (schema_only: the query's pyarrow
        Schema, its rows not read); the engine's errors as PySpark's."""
        if self._con is None:
            raise AnalysisException("this SparkSession was stopped; build a new one with SparkSession.builder.getOrCreate()")
        try:
            relation = self._con.sql(sql)
            if not schema_only:
                return relation.arrow()
            reader = relation.record_batch_reader()
            try:
                return reader.schema
            finally:
                reader.close()
        except Exception as e:
            if type(e).__module__.startswith("deltalite."):
                raise from_engine(e) from e
            raise

    def _zone(self):
        """The session time zone (for values show() formats itself)."""
        import datetime as dt
        import zoneinfo

        name = self.conf.get("spark.sql.session.timeZone")
        if name[:1] in "+-":
            hours, _, minutes = name[1:].partition(":")
            offset = dt.timedelta(hours=int(hours), minutes=int(minutes or 0))
            return dt.timezone(-offset if name[0] == "-" else offset)
        return zoneinfo.ZoneInfo(name)

    def _next_alias(self):
        return f"_dl{next(self._aliases)}"

    def _query(self, sql):
        """A DataFrame of a query, its columns resolved now (Spark analyses eagerly, so a bad
        table, version or column fails here)."""
        df = DataFrame(self, sql)
        df._arrow_schema_cache = self._run(sql, schema_only=True)
        return df

    def _table(self, relation, alias=None):
        """A DataFrame reading a table (relation: `delta.`p` VERSION AS OF 3`, `s.t`): its
        FROM clause is the table itself, so that filters and aggregates reach the scan (and
        count(*) the table's statistics) without a subquery between; columns resolved now."""
        name = alias or self._next_alias()
        from_clause = f"{relation} AS {_sql.quote_ident(name)}"
        df = DataFrame(self, f"SELECT * FROM {from_clause}", alias, name=name, core=(from_clause, []))
        df._relation = relation
        df._arrow_schema_cache = self._run(df._sql_text, schema_only=True)
        return df

    def _local(self, table):
        """A DataFrame of rows already here (a command's result): its rows as VALUES, or a
        registered Arrow table when there are many."""
        from ._create import INLINE_VALUES

        names = table.column_names
        if table.num_rows * max(1, len(names)) > INLINE_VALUES:
            sql = f"SELECT * FROM {self._data_relation(table)}"
        else:
            types = [f.dataType.simpleString() for f in schema_from_arrow(table.schema)]
            rows = [tuple(r) for r in _rows(table, is_local_time=False)]
            sql = _sql.values_relation(names, types, rows)
        return DataFrame(self, sql, local=table)

    def _detail(self, target):
        """DESCRIBE DETAIL of a table as a dict, or None when there is no table there."""
        from deltalite import NotFoundError

        try:
            table = self._run(f"DESCRIBE DETAIL {target}")
        except AnalysisException as e:
            if isinstance(e.__cause__, NotFoundError):
                return None
            raise
        return table.to_pylist()[0] if table.num_rows else None

    def sql(self, sqlQuery, args=None, **kwargs):
        """Runs a statement. args: values for its ? markers (a list) or :name markers (a dict);
        kwargs: PySpark's {name} formatting (a DataFrame becomes its query, a Column its
        expression, anything else its text)."""
        text = sqlQuery
        if kwargs:
            text = text.format(**{k: _format_arg(v) for k, v in kwargs.items()})
        if args:
            if not isinstance(args, (list, tuple, dict)):
                raise TypeError(f"spark.sql's args is a list (for ?) or a dict (for :name), not {type(args).__name__}")
            text = _views.bind_parameters(text, args, _sql.literal)
        text = _views.substitute(text.strip().rstrip(";"), self._views)
        if _QUERY_START.match(text):
            return self._query(text)
        return self._local(self._run(text))

    # ---- views -------------------------------------------------------------------------------

    def _register_view(self, name, df, replace):
        """A DataFrame as a temporary view: the engine's (CREATE OR REPLACE TEMP VIEW name AS its
        SQL, which the engine, the C API's statements and SHOW VIEWS see); a query the engine
        cannot make a view of (duplicate column names, which Spark's views of DataFrames allow)
        stays a name this layer replaces by its query in later statements' text."""
        key = name.lower()
        if "." in name:
            raise AnalysisException(f"a temporary view's name cannot be qualified: {name}")
        if not replace and (key in self._views or key in self._engine_views):
            raise AnalysisException(f"[TEMP_TABLE_OR_VIEW_ALREADY_EXISTS] Cannot create the temporary view `{name}` "
                                    f"because it already exists; use createOrReplaceTempView")
        self._views.pop(key, None)
        self._engine_views.pop(key, None)
        try:
            self._run(f"CREATE OR REPLACE TEMP VIEW {_sql.quote_ident(name)} AS {df._sql_text}")
            self._engine_views[key] = df._sql_text
        except AnalysisException:
            self._views[key] = df._sql_text

    def _drop_view(self, name):
        key = name.lower()
        if key in self._engine_views:
            self._run(f"DROP VIEW IF EXISTS {_sql.quote_ident(name)}")
        return (self._engine_views.pop(key, None) or self._views.pop(key, None)) is not None

    def _view_names(self):
        return sorted(set(self._views) | set(self._engine_views))

    def _view_sql(self, name):
        if "." in name:
            return None
        key = name.lower()
        return self._views.get(key) or self._engine_views.get(key)

    # ---- the rest of the session -------------------------------------------------------------

    @property
    def read(self):
        return DataFrameReader(self)

    def table(self, tableName):
        return self.read.table(tableName)

    def createDataFrame(self, data, schema=None, samplingRatio=None, verifySchema=True):
        from ._create import create_dataframe

        return create_dataframe(self, data, schema)

    def range(self, start, end=None, step=1, numPartitions=None):
        if end is None:
            start, end = 0, start
        return self._query(f"SELECT id FROM range({int(start)}, {int(end)}, {int(step)})")

    @property
    def catalog(self):
        from ._catalog import Catalog

        return Catalog(self)

    @property
    def version(self):
        return "4.0.0"

    def newSession(self):
        raise NotImplementedError("SparkSession.newSession is not in deltalite.spark's subset")

    @property
    def sparkContext(self):
        """setLogLevel, appName and master; other SparkContext calls are refused by name."""
        from ._context import SparkContext

        return SparkContext(self)

    def _data_relation(self, table):
        """A name SQL reads an Arrow table by: registered with the connection (the native
        API's temporary relations; buffers shared, not copied) until the session stops."""
        name = f"{DATA_PREFIX}{next(self._aliases)}"
        try:
            self._con.register(name, table)
        except Exception as e:
            if type(e).__module__.startswith("deltalite."):
                raise from_engine(e) from e
            raise
        return _sql.quote_ident(name)

    def stop(self):
        with SparkSession._lock:
            if self._con is not None:
                close = getattr(self._con, "close", None)
                if close is not None:
                    close()
                self._con = None
            if SparkSession._active is self:
                SparkSession._active = None

    @classmethod
    def getActiveSession(cls):
        return cls._active

    @classmethod
    def active(cls):
        if cls._active is None:
            raise AnalysisException("no active SparkSession; build one with SparkSession.builder.getOrCreate()")
        return cls._active

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()

