"""The engines of the interop tests and one canonical form of their results.

Each engine reads a Delta table at a version into (schema, rows): the schema as Spark's simple
string (`struct<a:int,d:decimal(10,2)>`), the rows as a sorted list of canonical strings, so
two reads are equal exactly when they hold the same multiset of rows with the same types
(decimals with their scale, timestamps to the microsecond, floats bit for bit, binary bytes).

deltalite is written through its shell (the `deltalite` program) and read through its C
library's Arrow stream (libdeltalite.so), so that values arrive typed and exact.
"""

import ctypes
import datetime as dt
import decimal
import os
import pathlib
import subprocess

import deltalake
import duckdb
import duckdb_extension_delta
import pyarrow as pa

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD = pathlib.Path(os.environ.get("DL_INTEROP_BUILD", ROOT / "build" / "release"))
SHELL = BUILD / "deltalite"
LIBRARY = BUILD / "src" / "api" / "libdeltalite.so"


class DeltaliteError(Exception):
    """A statement deltalite refused or failed: the shell's message."""


# ---- canonical values -------------------------------------------------------------------


def canon_arrow(value, typ):
    """A value of an Arrow column of type typ as a canonical string."""
    if value is None:
        return "NULL"
    if pa.types.is_struct(typ):
        inner = ", ".join(
            f"{typ.field(i).name}: {canon_arrow(value[typ.field(i).name], typ.field(i).type)}"
            for i in range(typ.num_fields)
        )
        return "{" + inner + "}"
    if pa.types.is_map(typ):
        items = sorted(
            f"{canon_arrow(k, typ.key_type)} -> {canon_arrow(v, typ.item_type)}" for k, v in value
        )
        return "map(" + ", ".join(items) + ")"
    if pa.types.is_list(typ) or pa.types.is_large_list(typ) or pa.types.is_list_view(typ):
        return "[" + ", ".join(canon_arrow(v, typ.value_type) for v in value) + "]"
    return canon_scalar(value)


def canon_spark(value):
    """A value collected from Spark (Row, dict, list or a scalar) as a canonical string."""
    from pyspark.sql import Row

    if value is None:
        return "NULL"
    if isinstance(value, Row):
        names = value.__fields__
        return "{" + ", ".join(f"{n}: {canon_spark(v)}" for n, v in zip(names, value)) + "}"
    if isinstance(value, dict):
        items = sorted(f"{canon_spark(k)} -> {canon_spark(v)}" for k, v in value.items())
        return "map(" + ", ".join(items) + ")"
    if isinstance(value, list):
        return "[" + ", ".join(canon_spark(v) for v in value) + "]"
    return canon_scalar(value)


def canon_scalar(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return "float:" + repr(value)
    if isinstance(value, decimal.Decimal):
        return "dec:" + str(value)
    if isinstance(value, str):
        return "str:" + repr(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return "bin:" + bytes(value).hex()
    if isinstance(value, dt.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(dt.timezone.utc).replace(tzinfo=None)
        return "ts:" + value.isoformat(timespec="microseconds")
    if isinstance(value, dt.date):
        return "date:" + value.isoformat()
    raise TypeError(f"no canonical form for {type(value).__name__}: {value!r}")


# ---- canonical schemas ------------------------------------------------------------------


def arrow_type_name(typ):
    """Spark's simple string of the type an Arrow type carries."""
    simple = {
        pa.bool_(): "boolean",
        pa.int8(): "tinyint",
        pa.int16(): "smallint",
        pa.int32(): "int",
        pa.int64(): "bigint",
        pa.float32(): "float",
        pa.float64(): "double",
        pa.date32(): "date",
        pa.string(): "string",
        pa.large_string(): "string",
        pa.string_view(): "string",
        pa.binary(): "binary",
        pa.large_binary(): "binary",
        pa.binary_view(): "binary",
    }
    if typ in simple:
        return simple[typ]
    if pa.types.is_decimal(typ):
        return f"decimal({typ.precision},{typ.scale})"
    if pa.types.is_timestamp(typ):
        return "timestamp" if typ.tz is not None else "timestamp_ntz"
    if pa.types.is_struct(typ):
        fields = [f"{typ.field(i).name}:{arrow_type_name(typ.field(i).type)}" for i in range(typ.num_fields)]
        return "struct<" + ",".join(fields) + ">"
    if pa.types.is_map(typ):
        return f"map<{arrow_type_name(typ.key_type)},{arrow_type_name(typ.item_type)}>"
    if pa.types.is_list(typ) or pa.types.is_large_list(typ) or pa.types.is_list_view(typ):
        return f"array<{arrow_type_name(typ.value_type)}>"
    raise TypeError(f"no Spark type for Arrow type {typ}")


def arrow_result(table):
    """(schema, sorted canonical rows) of a pyarrow Table."""
    schema = "struct<" + ",".join(f"{f.name}:{arrow_type_name(f.type)}" for f in table.schema) + ">"
    types = [f.type for f in table.schema]
    rows = sorted(
        "(" + ", ".join(canon_arrow(v, t) for v, t in zip(row.values(), types)) + ")"
        for row in table.to_pylist()
    )
    return schema, rows


def spark_result(df):
    """(schema, sorted canonical rows) of a Spark DataFrame."""
    _, rows = arrow_result(df.toArrow())
    return df.schema.simpleString(), rows


# ---- deltalite ----------------------------------------------------------------------------


def deltalite_sql(warehouse, sql, json_out=False):
    """Runs SQL in the deltalite shell over warehouse (stopping at the first failure); returns
    its standard output, or raises DeltaliteError with the shell's message."""
    args = [str(SHELL), "-bail"] + (["-json"] if json_out else []) + [str(warehouse), "-c", sql]
    done = subprocess.run(args, capture_output=True, text=True, timeout=300, env=_utc_env())
    if done.returncode != 0:
        raise DeltaliteError((done.stderr + done.stdout).strip())
    return done.stdout


def _utc_env():
    env = dict(os.environ)
    env["TZ"] = "UTC"
    return env


class _ArrowArrayStream(ctypes.Structure):
    _fields_ = [
        ("get_schema", ctypes.c_void_p),
        ("get_next", ctypes.c_void_p),
        ("get_last_error", ctypes.c_void_p),
        ("release", ctypes.c_void_p),
        ("private_data", ctypes.c_void_p),
    ]


class Deltalite:
    """deltalite's C library (one handle over a warehouse), read as Arrow."""

    def __init__(self, warehouse):
        lib = ctypes.CDLL(str(LIBRARY))
        lib.deltalite_open.argtypes = [ctypes.c_char_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)]
        lib.deltalite_query_arrow.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(_ArrowArrayStream)]
        lib.deltalite_error_message.argtypes = [ctypes.c_void_p]
        lib.deltalite_error_message.restype = ctypes.c_char_p
        lib.deltalite_close.argtypes = [ctypes.c_void_p]
        lib.deltalite_exec.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
        self.lib = lib
        self.db = ctypes.c_void_p()
        status = lib.deltalite_open(str(warehouse).encode(), None, ctypes.byref(self.db))
        if status != 0:
            raise DeltaliteError(self._message())

    def _message(self):
        return self.lib.deltalite_error_message(self.db).decode(errors="replace")

    def query(self, sql):
        """The rows of sql as a pyarrow Table (the stream's struct batches flattened)."""
        stream = _ArrowArrayStream()
        if self.lib.deltalite_query_arrow(self.db, sql.encode(), ctypes.byref(stream)) != 0:
            raise DeltaliteError(self._message())
        reader = pa.RecordBatchReader._import_from_c(ctypes.addressof(stream))
        return reader.read_all()

    def exec(self, sql):
        """Runs statements (their results are dropped); raises DeltaliteError on failure."""
        if self.lib.deltalite_exec(self.db, sql.encode()) != 0:
            raise DeltaliteError(self._message())

    def close(self):
        self.lib.deltalite_close(self.db)


def deltalite_read(db, path, version=None, timestamp=None):
    travel = ""
    if version is not None:
        travel = f" VERSION AS OF {version}"
    elif timestamp is not None:
        travel = f" TIMESTAMP AS OF '{timestamp}'"
    return arrow_result(db.query(f"SELECT * FROM delta.`{path}`{travel}"))


# ---- the peers ----------------------------------------------------------------------------


def spark_read(spark, path, version=None, timestamp=None):
    reader = spark.read.format("delta")
    if version is not None:
        reader = reader.option("versionAsOf", version)
    if timestamp is not None:
        reader = reader.option("timestampAsOf", timestamp)
    return spark_result(reader.load(str(path)))


def deltars_read(path, version=None):
    table = deltalake.DeltaTable(str(path), version=version)
    return arrow_result(table.to_pyarrow_table())


def deltars_sql_read(path, version=None):
    """delta-rs through its DataFusion engine (QueryBuilder), which applies deletion vectors:
    DeltaTable.to_pyarrow_table refuses tables with the deletionVectors reader feature."""
    table = deltalake.DeltaTable(str(path), version=version)
    reader = deltalake.QueryBuilder().register("t", table).execute("SELECT * FROM t")
    return arrow_result(pa.table(reader.read_all()))


def duckdb_connect():
    """A DuckDB connection with the delta extension loaded from its pip package (never
    downloaded: extension auto-install is off)."""
    con = duckdb.connect(config={"autoinstall_known_extensions": False, "autoload_known_extensions": False})
    folder = pathlib.Path(duckdb_extension_delta.__file__).parent / "extensions" / f"v{duckdb.__version__}"
    con.load_extension(str(folder / "delta.duckdb_extension"))
    return con


def duckdb_read(con, path, version=None):
    args = f"'{path}'" + (f", version => {version}" if version is not None else "")
    return arrow_result(con.sql(f"SELECT * FROM delta_scan({args})").to_arrow_table())
