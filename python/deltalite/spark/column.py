"""Column: an expression compiled to Spark SQL text (pyspark.sql.Column). Operators build
larger expressions; nothing runs until a DataFrame action sends its query to the engine."""

from . import _sql
from .types import DataType, parse_type


def _expr(value):
    """SQL of an operand: a Column's expression, or a Python value as a literal."""
    if isinstance(value, Column):
        return value._sql
    return _sql.literal(value)


def _col_or_name(value):
    """SQL of a function argument: a Column, or a string naming a column (as PySpark's
    functions take them)."""
    if isinstance(value, Column):
        return value._sql
    if isinstance(value, str):
        return name_sql(value)
    raise TypeError(f"expected a Column or a column name, got {type(value).__name__}: {value!r}")


# spark.read.text's hidden column of file names, which input_file_name() reads.
INPUT_FILE_COLUMN = "`_dl_input_file`"


def condition_sql(cond):
    """SQL of a condition: SQL text (in parentheses) or a Column."""
    if isinstance(cond, Column):
        return cond._sql
    if isinstance(cond, str):
        return f"({cond})"
    raise TypeError(f"a condition is SQL text or a Column, not {type(cond).__name__}: {cond!r}")


def name_sql(name):
    """A column reference from PySpark's col() spelling: 'a', 'df.a', 's.field', '*', 't.*'."""
    if name == "*":
        return "*"
    if name.endswith(".*"):
        return _sql.quote_name(name[:-2]) + ".*"
    return _sql.quote_name(name)


def _binary(op, swap=False):
    def method(self, other):
        left, right = (_expr(other), self._sql) if swap else (self._sql, _expr(other))
        return Column(f"({left} {op} {right})")

    return method


class Column:
    """An expression; `alias` names it in a select."""

    def __init__(self, sql, alias=None, sort=None, is_open_case=False):
        self._sql = sql
        self._alias = alias
        self._sort = sort
        self._is_open_case = is_open_case  # a CASE from functions.when, before otherwise()

    def _select_sql(self):
        if self._alias is not None:
            return f"{self._sql} AS {_sql.quote_ident(self._alias)}"
        return self._sql

    def _order_sql(self):
        return self._sql + (f" {self._sort}" if self._sort else "")

    # Comparison and arithmetic, as PySpark's operators.
    __eq__ = _binary("=")
    __ne__ = _binary("<>")
    __lt__ = _binary("<")
    __le__ = _binary("<=")
    __gt__ = _binary(">")
    __ge__ = _binary(">=")
    __add__ = _binary("+")
    __sub__ = _binary("-")
    __mul__ = _binary("*")
    __truediv__ = _binary("/")
    __mod__ = _binary("%")
    __and__ = _binary("AND")
    __or__ = _binary("OR")
    __radd__ = _binary("+", swap=True)
    __rsub__ = _binary("-", swap=True)
    __rmul__ = _binary("*", swap=True)
    __rtruediv__ = _binary("/", swap=True)
    __rmod__ = _binary("%", swap=True)
    __rand__ = _binary("AND", swap=True)
    __ror__ = _binary("OR", swap=True)
    eqNullSafe = _binary("<=>")
    bitwiseAND = _binary("&")
    bitwiseOR = _binary("|")
    bitwiseXOR = _binary("^")

    def __pow__(self, other):
        return Column(f"power({self._sql}, {_expr(other)})")

    def __rpow__(self, other):
        return Column(f"power({_expr(other)}, {self._sql})")

    def __neg__(self):
        return Column(f"(- {self._sql})")

    def __invert__(self):
        return Column(f"(NOT {self._sql})")

    def __hash__(self):
        return id(self)

    def __bool__(self):
        raise ValueError("Cannot convert column into bool: please use '&' for 'and', '|' for 'or', "
                         "'~' for 'not' when building DataFrame boolean expressions.")

    def __iter__(self):
        raise TypeError("Column is not iterable")

    def __repr__(self):
        return f"Column<'{self._select_sql()}'>"

    # Names, types, NULLs.
    def alias(self, *names, **kwargs):
        if kwargs.get("metadata") is not None:
            raise NotImplementedError("Column.alias(metadata=...): column metadata is not in deltalite.spark's subset")
        if len(names) != 1:
            raise NotImplementedError("Column.alias with several names (for generators) is not in deltalite.spark's subset")
        return Column(self._sql, alias=names[0])

    name = alias

    def cast(self, data_type):
        if isinstance(data_type, str):
            data_type = parse_type(data_type)
        if not isinstance(data_type, DataType):
            raise TypeError(f"Column.cast takes a type name or a DataType, not {data_type!r}")
        return Column(f"CAST({self._sql} AS {data_type.simpleString()})")

    astype = cast

    def try_cast(self, data_type):
        if isinstance(data_type, str):
            data_type = parse_type(data_type)
        return Column(f"try_cast({self._sql} AS {data_type.simpleString()})")

    def isNull(self):
        return Column(f"({self._sql} IS NULL)")

    def isNotNull(self):
        return Column(f"({self._sql} IS NOT NULL)")

    def isNaN(self):
        return Column(f"isnan({self._sql})")

    def isin(self, *values):
        if len(values) == 1 and isinstance(values[0], (list, tuple, set)):
            values = tuple(values[0])
        if not values:
            return Column("false")
        return Column(f"({self._sql} IN ({', '.join(_expr(v) for v in values)}))")

    def between(self, low, high):
        return Column(f"({self._sql} BETWEEN {_expr(low)} AND {_expr(high)})")

    # Text.
    def like(self, pattern):
        return Column(f"({self._sql} LIKE {_expr(pattern)})")

    def ilike(self, pattern):
        return Column(f"({self._sql} ILIKE {_expr(pattern)})")

    def rlike(self, pattern):
        return Column(f"({self._sql} RLIKE {_expr(pattern)})")

    def contains(self, other):
        return Column(f"contains({self._sql}, {_expr(other)})")

    def startswith(self, other):
        return Column(f"startswith({self._sql}, {_expr(other)})")

    def endswith(self, other):
        return Column(f"endswith({self._sql}, {_expr(other)})")

    def substr(self, start, length):
        return Column(f"substring({self._sql}, {_expr(start)}, {_expr(length)})")

    # Nested values.
    def getItem(self, key):
        return Column(f"{self._sql}[{_expr(key)}]")

    def getField(self, name):
        return Column(f"{self._sql}.{_sql.quote_ident(name)}")

    def __getitem__(self, key):
        if isinstance(key, slice):
            raise NotImplementedError("Column[start:stop] (substr by slice) is not in deltalite.spark's subset; use substr")
        return self.getItem(key)  # col['k']: a map's value (a struct's field is col.k or getField)

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        if name in _UNSUPPORTED:
            raise NotImplementedError(f"Column.{name} is not in deltalite.spark's subset (docs/pyspark.md lists what is)")
        return self.getField(name)

    def over(self, window):
        """The window function or aggregate over a WindowSpec (deltalite.spark.window)."""
        from .window import WindowSpec

        if not isinstance(window, WindowSpec):
            raise TypeError(f"over takes a WindowSpec (Window.partitionBy(...).orderBy(...)), not {window!r}")
        return Column(f"{self._sql} OVER {window._sql()}")

    # Sort order.
    def asc(self):
        return Column(self._sql, sort="ASC")

    def desc(self):
        return Column(self._sql, sort="DESC")

    def asc_nulls_first(self):
        return Column(self._sql, sort="ASC NULLS FIRST")

    def asc_nulls_last(self):
        return Column(self._sql, sort="ASC NULLS LAST")

    def desc_nulls_first(self):
        return Column(self._sql, sort="DESC NULLS FIRST")

    def desc_nulls_last(self):
        return Column(self._sql, sort="DESC NULLS LAST")

    # CASE WHEN built by functions.when.
    def when(self, condition, value):
        if not self._is_open_case:
            raise TypeError("when() can only follow functions.when() or another when(), before otherwise()")
        return Column(self._sql[:-4] + f" WHEN {_expr(condition)} THEN {_expr(value)} END", is_open_case=True)

    def otherwise(self, value):
        if not self._is_open_case:
            raise TypeError("otherwise() can only follow functions.when() or when(), once")
        return Column(self._sql[:-4] + f" ELSE {_expr(value)} END")


_UNSUPPORTED = {"dropFields", "withField", "outer", "transform"}
