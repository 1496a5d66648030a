"""pyspark.sql.functions for deltalite: each function builds a Column of Spark SQL that the
engine runs (so the engine's semantics, ANSI mode included, are Spark's). Arguments that
PySpark takes as column names may be strings or Columns; literals go through lit()."""


from . import _sql
from .column import INPUT_FILE_COLUMN, Column, _col_or_name, _expr, name_sql

__all__ = [
    "col", "column", "lit", "expr", "when", "coalesce", "isnull", "isnan", "nanvl", "greatest", "least",
    "sum", "count", "countDistinct", "count_distinct", "sum_distinct", "sumDistinct", "avg", "mean", "min",
    "max", "first", "last", "any_value", "collect_list", "collect_set", "stddev", "variance",
    "approx_count_distinct", "abs", "round", "bround", "floor", "ceil", "sqrt", "exp", "log", "pow", "power",
    "upper", "lower", "trim", "ltrim", "rtrim", "length", "concat", "concat_ws", "substring", "lpad", "rpad",
    "regexp_extract", "regexp_replace", "split", "initcap", "format_string", "translate", "instr",
    "current_date", "current_timestamp", "now", "to_date", "to_timestamp", "date_format", "year", "month",
    "dayofmonth", "dayofweek", "hour", "minute", "second", "datediff", "date_add", "date_sub",
    "add_months", "months_between", "unix_timestamp", "from_unixtime", "date_trunc", "trunc",
    "get_json_object", "to_json", "array", "struct", "create_map", "size", "explode", "element_at",
    "array_contains", "md5", "sha1", "sha2", "hash", "asc", "desc", "broadcast", "input_file_name",
    "from_json", "monotonically_increasing_id", "row_number", "rank", "dense_rank", "percent_rank", "cume_dist",
    "ntile", "lag", "lead", "raise_error", "assert_true",
    "udf", "pandas_udf",
]


def col(name):
    """A column by name: 'a', 'df.a', 's.field', '*'."""
    return Column(name_sql(name))


column = col


def lit(value):
    """A literal (a Column is returned unchanged), typed as PySpark types it."""
    if isinstance(value, Column):
        return value
    return Column(_sql.literal(value))


def expr(text):
    """A Spark SQL expression, parsed by the engine."""
    if not isinstance(text, str):
        raise TypeError(f"expr takes SQL text, not {type(text).__name__}")
    return Column(f"({text})")


def when(condition, value):
    """CASE WHEN condition THEN value; chain .when(...) and .otherwise(...)."""
    return Column(f"CASE WHEN {_expr(condition)} THEN {_expr(value)} END", is_open_case=True)


def _call(name, *args):
    return Column(f"{name}({', '.join(_col_or_name(a) for a in args)})")


def _one(name):
    def f(c):
        return _call(name, c)

    f.__name__ = name
    f.__doc__ = f"Spark SQL's {name}() of a column."
    return f


def _many(name):
    def f(*cols):
        if len(cols) == 1 and isinstance(cols[0], (list, tuple)):
            cols = tuple(cols[0])
        return _call(name, *cols)

    f.__name__ = name
    f.__doc__ = f"Spark SQL's {name}() of columns."
    return f


# Aggregates.
sum = _one("sum")
avg = _one("avg")
mean = _one("avg")
min = _one("min")
max = _one("max")
any_value = _one("any_value")
collect_list = _one("collect_list")
collect_set = _one("collect_set")
stddev = _one("stddev")
variance = _one("variance")
approx_count_distinct = _one("approx_count_distinct")


def count(c):
    """count(*) for '*' (Spark names it count(1)), else the non-NULL values of a column."""
    if isinstance(c, str) and c == "*":
        return Column("count(*)")
    return _call("count", c)


def countDistinct(c, *cols):
    return Column(f"count(DISTINCT {', '.join(_col_or_name(x) for x in (c,) + cols)})")


count_distinct = countDistinct


def sum_distinct(c):
    return Column(f"sum(DISTINCT {_col_or_name(c)})")


sumDistinct = sum_distinct


def first(c, ignorenulls=False):
    return Column(f"first({_col_or_name(c)}, {'true' if ignorenulls else 'false'})")


def last(c, ignorenulls=False):
    return Column(f"last({_col_or_name(c)}, {'true' if ignorenulls else 'false'})")


# Values and NULLs.
coalesce = _many("coalesce")
greatest = _many("greatest")
least = _many("least")
isnull = _one("isnull")
isnan = _one("isnan")


def nanvl(c1, c2):
    return _call("nanvl", c1, c2)


# Errors. As in PySpark, a message given as a string is the message itself, not a column name.
def _message(msg):
    return lit(msg) if isinstance(msg, str) else msg


def raise_error(errMsg):
    """Fails the statement with errMsg ([USER_RAISED_EXCEPTION]; SparkRuntimeException) when a
    row evaluates it."""
    return _call("raise_error", _message(errMsg))


def assert_true(col, errMsg=None):
    """NULL when col is true; otherwise fails the statement as raise_error does."""
    if errMsg is None:
        return _call("assert_true", col)
    return _call("assert_true", col, _message(errMsg))


# Numbers.
abs = _one("abs")
floor = _one("floor")
ceil = _one("ceil")
sqrt = _one("sqrt")
exp = _one("exp")


def round(c, scale=0):
    return Column(f"round({_col_or_name(c)}, {int(scale)})")


def bround(c, scale=0):
    return Column(f"bround({_col_or_name(c)}, {int(scale)})")


def log(arg1, arg2=None):
    if arg2 is None:
        return _call("ln", arg1)
    return Column(f"log({_expr(arg1)}, {_col_or_name(arg2)})")


def pow(c1, c2):
    a = _col_or_name(c1) if isinstance(c1, (str, Column)) else _expr(c1)
    b = _col_or_name(c2) if isinstance(c2, (str, Column)) else _expr(c2)
    return Column(f"power({a}, {b})")


power = pow

# Text.
upper = _one("upper")
lower = _one("lower")
trim = _one("trim")
ltrim = _one("ltrim")
rtrim = _one("rtrim")
length = _one("length")
initcap = _one("initcap")
concat = _many("concat")
md5 = _one("md5")
sha1 = _one("sha1")
hash = _many("hash")


def concat_ws(sep, *cols):
    return Column(f"concat_ws({_sql.string_literal(sep)}, {', '.join(_col_or_name(c) for c in cols)})")


def substring(c, pos, length):
    return Column(f"substring({_col_or_name(c)}, {int(pos)}, {int(length)})")


def lpad(c, length, pad):
    return Column(f"lpad({_col_or_name(c)}, {int(length)}, {_sql.string_literal(pad)})")


def rpad(c, length, pad):
    return Column(f"rpad({_col_or_name(c)}, {int(length)}, {_sql.string_literal(pad)})")


def regexp_extract(c, pattern, idx):
    return Column(f"regexp_extract({_col_or_name(c)}, {_sql.string_literal(pattern)}, {int(idx)})")


def regexp_replace(c, pattern, replacement):
    p = _expr(pattern) if isinstance(pattern, Column) else _sql.string_literal(pattern)
    r = _expr(replacement) if isinstance(replacement, Column) else _sql.string_literal(replacement)
    return Column(f"regexp_replace({_col_or_name(c)}, {p}, {r})")


def split(c, pattern, limit=-1):
    return Column(f"split({_col_or_name(c)}, {_sql.string_literal(pattern)}, {int(limit)})")


def format_string(fmt, *cols):
    return Column(f"format_string({_sql.string_literal(fmt)}, {', '.join(_col_or_name(c) for c in cols)})")


def translate(c, matching, replace):
    return Column(f"translate({_col_or_name(c)}, {_sql.string_literal(matching)}, {_sql.string_literal(replace)})")


def instr(c, substr):
    return Column(f"instr({_col_or_name(c)}, {_sql.string_literal(substr)})")


# Dates and times.
def current_date():
    return Column("current_date()")


def current_timestamp():
    return Column("current_timestamp()")


now = current_timestamp


def _with_format(name, c, fmt):
    if fmt is None:
        return _call(name, c)
    return Column(f"{name}({_col_or_name(c)}, {_sql.string_literal(fmt)})")


def to_date(c, format=None):
    return _with_format("to_date", c, format)


def to_timestamp(c, format=None):
    return _with_format("to_timestamp", c, format)


def unix_timestamp(timestamp=None, format="yyyy-MM-dd HH:mm:ss"):
    if timestamp is None:
        return Column("unix_timestamp()")
    return _with_format("unix_timestamp", timestamp, format)


def from_unixtime(timestamp, format="yyyy-MM-dd HH:mm:ss"):
    return _with_format("from_unixtime", timestamp, format)


def date_format(c, format):
    return _with_format("date_format", c, format)


year = _one("year")
month = _one("month")
dayofmonth = _one("dayofmonth")
dayofweek = _one("dayofweek")
hour = _one("hour")
minute = _one("minute")
second = _one("second")


def datediff(end, start):
    return _call("datediff", end, start)


def months_between(date1, date2):
    return _call("months_between", date1, date2)


def _with_int(name):
    def f(c, days):
        n = _expr(days) if isinstance(days, Column) else str(int(days))
        return Column(f"{name}({_col_or_name(c)}, {n})")

    f.__name__ = name
    return f


date_add = _with_int("date_add")
date_sub = _with_int("date_sub")
add_months = _with_int("add_months")


def date_trunc(format, timestamp):
    return Column(f"date_trunc({_sql.string_literal(format)}, {_col_or_name(timestamp)})")


def trunc(date, format):
    return Column(f"trunc({_col_or_name(date)}, {_sql.string_literal(format)})")


# JSON, nested values.
def get_json_object(c, path):
    return Column(f"get_json_object({_col_or_name(c)}, {_sql.string_literal(path)})")


to_json = _one("to_json")
array = _many("array")
size = _one("size")
explode = _one("explode")


def struct(*cols):
    if len(cols) == 1 and isinstance(cols[0], (list, tuple)):
        cols = tuple(cols[0])
    return Column("struct(" + ", ".join(c._select_sql() if isinstance(c, Column) else name_sql(c) for c in cols) + ")")


def create_map(*cols):
    if len(cols) == 1 and isinstance(cols[0], (list, tuple)):
        cols = tuple(cols[0])
    return _call("map", *cols)


def element_at(c, extraction):
    return Column(f"element_at({_col_or_name(c)}, {_expr(extraction)})")


def array_contains(c, value):
    return Column(f"array_contains({_col_or_name(c)}, {_expr(value)})")


def sha2(c, numBits):
    return Column(f"sha2({_col_or_name(c)}, {int(numBits)})")


# Sort order and hints.
def asc(c):
    return (c if isinstance(c, Column) else col(c)).asc()


def desc(c):
    return (c if isinstance(c, Column) else col(c)).desc()


def broadcast(df):
    """A join hint: the engine chooses its join itself, so the DataFrame is returned as is."""
    return df


# Window functions (with Column.over and deltalite.spark.window.Window).
def row_number():
    return Column("row_number()")


def rank():
    return Column("rank()")


def dense_rank():
    return Column("dense_rank()")


def percent_rank():
    return Column("percent_rank()")


def cume_dist():
    return Column("cume_dist()")


def ntile(n):
    return Column(f"ntile({int(n)})")


def _offset(name):
    def f(c, offset=1, default=None):
        return Column(f"{name}({_col_or_name(c)}, {int(offset)}, {_expr(default)})")

    f.__name__ = name
    return f


lag = _offset("lag")
lead = _offset("lead")


# Outside the subset: named so that a script fails on the call, saying why.
def _unsupported(name, why):
    def f(*args, **kwargs):
        raise NotImplementedError(f"functions.{name} is not in deltalite.spark's subset: {why}")

    f.__name__ = name
    return f


def input_file_name():
    """The file a spark.read.text row came from (file:// URI); other DataFrames refuse it."""
    return Column(INPUT_FILE_COLUMN)


def from_json(c, schema, options=None):
    """A struct read from JSON text by a StructType (or DDL) schema, as Spark's PERMISSIVE
    from_json: NULL text gives NULL, a field that is missing or of another type gives NULL.
    Compiled to one get_json_object per field (the engine has no from_json)."""
    from .types import StructType, parse_ddl_schema

    if options:
        raise NotImplementedError("functions.from_json(options=...) is not in deltalite.spark's subset")
    if isinstance(schema, str):
        schema = parse_ddl_schema(schema)
    if not isinstance(schema, StructType):
        raise NotImplementedError(f"functions.from_json with a {type(schema).__name__} schema is not in "
                                  f"deltalite.spark's subset; give a StructType")
    return Column(_json_struct(_col_or_name(c), "$", schema))


def _json_struct(text, path, struct):
    from .types import ArrayType, MapType, StringType, StructType

    fields = []
    for f in struct.fields:
        if "'" in f.name or "]" in f.name or "\\" in f.name:
            raise NotImplementedError(f"from_json: the field name {f.name!r} cannot be written as a JSON path")
        sub = f"{path}['{f.name}']"
        if isinstance(f.dataType, StructType):
            value = _json_struct(text, sub, f.dataType)
        elif isinstance(f.dataType, (ArrayType, MapType)):
            raise NotImplementedError(f"from_json: field {f.name!r} is an array or a map, which deltalite.spark's "
                                      f"from_json does not read (structs and atomic fields only)")
        elif isinstance(f.dataType, StringType):
            value = f"get_json_object({text}, {_sql.string_literal(sub)})"
        else:
            value = f"try_cast(get_json_object({text}, {_sql.string_literal(sub)}) AS {f.dataType.simpleString()})"
        fields.append(f"{_sql.string_literal(f.name)}, {value}")
    return (f"CASE WHEN get_json_object({text}, {_sql.string_literal(path)}) IS NULL THEN NULL "
            f"ELSE named_struct({', '.join(fields)}) END")
monotonically_increasing_id = _unsupported("monotonically_increasing_id", "no row ids in the engine")
udf = _unsupported("udf", "Python functions do not run inside the engine")
pandas_udf = _unsupported("pandas_udf", "Python functions do not run inside the engine")


def __getattr__(name):
    if name.startswith("_"):
        raise AttributeError(name)
    raise NotImplementedError(f"functions.{name} is not in deltalite.spark's subset (docs/pyspark.md lists it); "
                              f"expr('{name}(...)') calls any function the engine knows")
