"""DataFrame: a Spark SQL query that the engine runs at each action (show, count, collect,
toPandas, write); transformations wrap the query in a larger one, as Spark's plans do. A
DataFrame over rows already in Python (createDataFrame, a command's result) is a VALUES
relation, so that it joins, filters and merges like any other."""

from . import _sql
from ._pretty import needs_pretty, pretty
from ._show import show_string
from .column import INPUT_FILE_COLUMN, Column, _col_or_name, condition_sql, name_sql
from .errors import AnalysisException
from .row import Row
from .types import from_arrow, schema_from_arrow

_JOIN_TYPES = {
    "inner": "INNER JOIN", "cross": "CROSS JOIN",
    "outer": "FULL OUTER JOIN", "full": "FULL OUTER JOIN", "fullouter": "FULL OUTER JOIN",
    "full_outer": "FULL OUTER JOIN", "left": "LEFT OUTER JOIN", "leftouter": "LEFT OUTER JOIN",
    "left_outer": "LEFT OUTER JOIN", "right": "RIGHT OUTER JOIN", "rightouter": "RIGHT OUTER JOIN",
    "right_outer": "RIGHT OUTER JOIN", "semi": "LEFT SEMI JOIN", "leftsemi": "LEFT SEMI JOIN",
    "left_semi": "LEFT SEMI JOIN", "anti": "LEFT ANTI JOIN", "leftanti": "LEFT ANTI JOIN",
    "left_anti": "LEFT ANTI JOIN",
}

# PySpark DataFrame calls outside the subset: each fails naming itself (others are columns).
_UNSUPPORTED = {
    "cache": "a cached DataFrame would stop seeing later commits; write the rows to a table instead",
    "persist": "a persisted DataFrame would stop seeing later commits; write the rows to a table instead",
    "unpersist": "nothing is cached", "checkpoint": "nothing is cached", "localCheckpoint": "nothing is cached",
    "rdd": "there are no RDDs without a JVM", "foreach": "there are no RDDs without a JVM",
    "foreachPartition": "there are no RDDs without a JVM", "mapInPandas": "Python functions do not run inside the engine",
    "mapInArrow": "Python functions do not run inside the engine", "repartition": "the engine partitions its work itself",
    "coalesce": "the engine partitions its work itself", "repartitionByRange": "the engine partitions its work itself",
    "sortWithinPartitions": "there are no partitions to sort within; use orderBy",
    "writeStream": "streaming is not in deltalite", "isStreaming": "streaming is not in deltalite",
    "withWatermark": "streaming is not in deltalite", "createGlobalTempView": "global views need a metastore",
    "createOrReplaceGlobalTempView": "global views need a metastore", "hint": "the engine plans joins itself",
    "sample": "not in the engine yet", "randomSplit": "not in the engine yet", "stat": "not in the subset",
    "replace": "not in the subset; use when/otherwise",
    "crosstab": "not in the subset", "cube": "not in the subset; use spark.sql with GROUP BY CUBE",
    "rollup": "not in the subset; use spark.sql with GROUP BY ROLLUP", "pandas_api": "not in the subset",
    "observe": "not in the subset", "summary": "not in the subset; describe() gives count, mean, stddev, min, max",
    "melt": "not in the subset", "unpivot": "not in the subset", "transform": "not in the subset",
"mergeInto": "not in the subset; use DeltaTable.merge",
    "inputFiles": "not in the subset; DeltaTable.detail() and the table API list files",
    "approxQuantile": "not in the subset", "corr": "not in the subset", "cov": "not in the subset",
    "freqItems": "not in the subset", "toJSON": "not in the subset", "toLocalIterator": "not in the subset",
    "sameSemantics": "not in the subset", "semanticHash": "not in the subset", "dropDuplicatesWithinWatermark": "streaming is not in deltalite",
}


def _names_arg(cols):
    if len(cols) == 1 and isinstance(cols[0], (list, tuple)):
        return tuple(cols[0])
    return cols


def _select_item(c):
    if isinstance(c, Column):
        return c._select_sql()
    if isinstance(c, str):
        return name_sql(c)
    raise TypeError(f"select takes column names or Columns, not {type(c).__name__}: {c!r}")


class DataFrame:
    def __init__(self, session, sql, alias=None, local=None, name=None, core=None, is_join=False):
        self._session = session
        self._sql_text = sql
        self._alias = alias
        self._local = local  # a pyarrow Table when the rows came from Python or a command
        # The name the query has inside the next one: df.x and df['x'] are qualified by it, so
        # that df1.join(df2, df1.id == df2.id) says which id.
        self._name = name or alias or session._next_alias()
        # (FROM clause, [conditions]) of a filter or a join: the next select, filter, groupBy
        # or join reads that FROM clause itself, so the names of the relations inside it
        # (df aliases, p.name after a join) stay in scope, as in Spark.
        self._core = core
        self._is_join = is_join
        self._relation = None  # the table a read DataFrame is (session._table)
        # The columns '*' stands for when its FROM clause has more (spark.read.text's hidden
        # file-name column, for input_file_name()); None: all of them.
        self._star = None
        self._arrow_schema_cache = local.schema if local is not None else None

    # ---- the query ---------------------------------------------------------------------------

    def _from(self):
        """This DataFrame as one relation of a FROM clause."""
        if self._sql_text is None:
            raise NotImplementedError("this DataFrame has no columns (the statement returned nothing), so it "
                                      "cannot be queried further")
        return f"({self._sql_text}) AS {_sql.quote_ident(self._name)}"

    def _source(self):
        """What follows FROM in a query over this DataFrame: its filter's or join's own FROM
        and WHERE, or the DataFrame as one relation."""
        if self._core is None:
            return self._from()
        from_clause, conditions = self._core
        return from_clause + (f" WHERE {' AND '.join(conditions)}" if conditions else "")

    def _derive(self, sql, keep_alias=False):
        if keep_alias:
            return DataFrame(self._session, sql, self._alias, name=self._name)
        return DataFrame(self._session, sql)

    def _star_sql(self):
        return self._star or "*"

    def _with_core(self, from_clause, conditions, is_join=False):
        sql = f"SELECT {self._star_sql()} FROM {from_clause}" + (f" WHERE {' AND '.join(conditions)}" if conditions else "")
        if is_join:
            return DataFrame(self._session, sql, core=(from_clause, conditions), is_join=True)
        return DataFrame(self._session, sql, self._alias, name=self._name, core=(from_clause, conditions))

    def _arrow_schema(self):
        if self._arrow_schema_cache is None:
            self._arrow_schema_cache = self._session._run(self._sql_text, schema_only=True)
        return self._arrow_schema_cache

    def _arrow(self):
        if self._local is not None:
            return self._local
        return self._session._run(self._sql_text)

    @property
    def schema(self):
        return schema_from_arrow(self._arrow_schema())

    @property
    def columns(self):
        return list(self._arrow_schema().names)

    @property
    def dtypes(self):
        return [(f.name, f.dataType.simpleString()) for f in self.schema]

    def printSchema(self, level=None):
        print(self.schema.treeString(), end="")

    def __getitem__(self, item):
        if isinstance(item, str):
            return self._column(item)
        if isinstance(item, Column):
            return self.filter(item)
        if isinstance(item, (list, tuple)):
            return self.select(*item)
        if isinstance(item, int):
            return self._column(self.columns[item])
        raise TypeError(f"DataFrame[...] takes a column name, a Column or a list, not {item!r}")

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        if name in _UNSUPPORTED:
            raise NotImplementedError(f"DataFrame.{name} is not in deltalite.spark's subset: {_UNSUPPORTED[name]}")
        if name in self.columns:
            return self._column(name)
        raise AttributeError(f"'DataFrame' object has no attribute '{name}' (and no column of that name: "
                             f"{', '.join(self.columns)})")

    def _column(self, name):
        if self._is_join:  # the relations inside a join have their own names
            return Column(name_sql(name))
        return Column(_sql.quote_ident(self._name) + "." + name_sql(name))

    def alias(self, alias):
        if self._relation is not None and not self._core[1]:  # a table read: the table under a new name
            df = DataFrame(self._session, None, alias)
            from_clause = f"{self._relation} AS {_sql.quote_ident(alias)}"
            df._sql_text, df._core, df._relation = f"SELECT * FROM {from_clause}", (from_clause, []), self._relation
            df._arrow_schema_cache = self._arrow_schema_cache
            return df
        return DataFrame(self._session, self._sql_text, alias, self._local)

    # ---- transformations ---------------------------------------------------------------------

    def select(self, *cols):
        cols = _names_arg(cols)
        if not cols:
            raise ValueError("select needs at least one column")
        items = [self._star_sql() if isinstance(c, str) and c == "*" else _select_item(c) for c in cols]
        return self._derive(f"SELECT {self._check_file_name(', '.join(items))} FROM {self._source()}")

    def _check_file_name(self, items):
        """items (a select list), refused when they read input_file_name() where it has no file."""
        if INPUT_FILE_COLUMN in items and self._star is None:
            raise NotImplementedError("input_file_name() is in deltalite.spark's subset only on a DataFrame of "
                                      "spark.read.text, before any other transformation (the engine's scans of "
                                      "tables give no file names)")
        return items

    def selectExpr(self, *exprs):
        exprs = _names_arg(exprs)
        return self._derive(f"SELECT {', '.join(exprs)} FROM {self._source()}")

    def filter(self, condition):
        if self._core is not None:
            from_clause, conditions = self._core
            df = self._with_core(from_clause, conditions + [condition_sql(condition)], self._is_join)
            df._alias, df._name, df._star = self._alias, self._name, self._star
            return df
        return self._with_core(self._from(), [condition_sql(condition)])

    where = filter

    def _replace_columns(self, mapping):
        """SELECT with the columns of mapping (name -> select item) replaced in place (matched
        without case, as Spark) and the rest appended."""
        items, done = [], set()
        lowered = {k.lower(): k for k in mapping}
        for name in self.columns:
            key = lowered.get(name.lower())
            if key is not None and key not in done:
                items.append(mapping[key])
                done.add(key)
            elif key is None:
                items.append(_sql.quote_ident(name))
        items += [mapping[k] for k in mapping if k not in done]
        return self._derive(f"SELECT {self._check_file_name(', '.join(items))} FROM {self._source()}")

    def withColumn(self, colName, col):
        if not isinstance(col, Column):
            raise TypeError(f"withColumn's col must be a Column (use lit() for a value), not {type(col).__name__}")
        return self._replace_columns({colName: f"{col._sql} AS {_sql.quote_ident(colName)}"})

    def withColumns(self, *colsMap):
        if len(colsMap) != 1 or not isinstance(colsMap[0], dict):
            raise TypeError("withColumns takes one dict of column name -> Column")
        return self._replace_columns({k: f"{v._sql} AS {_sql.quote_ident(k)}" for k, v in colsMap[0].items()})

    def withColumnRenamed(self, existing, new):
        items = [f"{_sql.quote_ident(n)} AS {_sql.quote_ident(new)}" if n.lower() == existing.lower()
                 else _sql.quote_ident(n) for n in self.columns]
        return self._derive(f"SELECT {', '.join(items)} FROM {self._source()}")

    def withColumnsRenamed(self, colsMap):
        df = self
        for old, new in colsMap.items():
            df = df.withColumnRenamed(old, new)
        return df

    def drop(self, *cols):
        """Drops columns by name (a name the DataFrame does not have is ignored, as Spark)."""
        names = set()
        for c in cols:
            if isinstance(c, Column):
                raise NotImplementedError("DataFrame.drop(Column) is not in deltalite.spark's subset; drop by name")
            names.add(c.lower())
        keep = [n for n in self.columns if n.lower() not in names]
        if not keep:
            raise NotImplementedError("dropping every column leaves a DataFrame with no columns, which the engine cannot hold")
        return self._derive(f"SELECT {', '.join(_sql.quote_ident(n) for n in keep)} FROM {self._source()}")

    def fillna(self, value, subset=None):
        """NULLs replaced by value: a number fills the numeric columns, a string the string
        columns, a bool the boolean ones (as Spark); a dict gives a value per column."""
        import pyarrow as pa

        if isinstance(value, dict):
            if subset is not None:
                raise TypeError("fillna: subset goes with one value, not with a dict")
            mapping = value
        else:
            if isinstance(value, bool):
                fits = pa.types.is_boolean
            elif isinstance(value, (int, float)):
                fits = lambda t: pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_decimal(t)  # noqa: E731
            elif isinstance(value, str):
                fits = lambda t: pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t)  # noqa: E731
            else:
                raise TypeError(f"fillna takes a bool, number, string or dict, not {type(value).__name__}")
            wanted = None if subset is None else {c.lower() for c in ([subset] if isinstance(subset, str) else subset)}
            mapping = {f.name: value for f in self._arrow_schema()
                       if fits(f.type) and (wanted is None or f.name.lower() in wanted)}
        types = {f.name.lower(): f.type for f in self._arrow_schema()}
        items = {}
        for name, v in mapping.items():
            if name.lower() not in types:
                raise AnalysisException(f"[UNRESOLVED_COLUMN] fillna: no column {name!r} ({', '.join(self.columns)})")
            sql_type = from_arrow(types[name.lower()]).simpleString()
            items[name] = (f"coalesce({_sql.quote_ident(name)}, CAST({_sql.literal(v)} AS {sql_type})) "
                           f"AS {_sql.quote_ident(name)}")
        return self._replace_columns(items) if items else self

    def dropna(self, how="any", thresh=None, subset=None):
        """Rows with NULLs dropped: any NULL (how='any'), all NULL ('all'), or fewer than thresh
        values that are not NULL, in the subset columns (all by default)."""
        if how not in ("any", "all"):
            raise ValueError(f"dropna: how must be 'any' or 'all', not {how!r}")
        names = self.columns if subset is None else ([subset] if isinstance(subset, str) else list(subset))
        present = [f"(CASE WHEN {_sql.quote_ident(n)} IS NULL THEN 0 ELSE 1 END)" for n in names]
        if thresh is None:
            thresh = len(names) if how == "any" else 1
        return self.filter(Column(f"({' + '.join(present) or '0'}) >= {int(thresh)}"))

    def describe(self, *cols):
        """count, mean, stddev, min and max of numeric and string columns, as text (Spark's
        describe: mean and stddev NULL for strings)."""
        import pyarrow as pa

        cols = _names_arg(cols)
        schema = self._arrow_schema()
        chosen = [schema.field(c) for c in cols if c in schema.names] if cols else list(schema)
        fields = [f for f in chosen
                  if (pa.types.is_integer(f.type) or pa.types.is_floating(f.type) or pa.types.is_decimal(f.type)
                      or pa.types.is_string(f.type) or pa.types.is_large_string(f.type) or pa.types.is_string_view(f.type))]
        if cols and len(fields) != len(cols):
            missing = set(cols) - {f.name for f in fields}
            raise AnalysisException(f"[UNRESOLVED_COLUMN] describe: no numeric or string column {', '.join(sorted(missing))}")

        def stat(label, fn, f):
            q = _sql.quote_ident(f.name)
            is_text = not (pa.types.is_integer(f.type) or pa.types.is_floating(f.type) or pa.types.is_decimal(f.type))
            if fn in ("avg", "stddev") and is_text:
                return f"CAST(NULL AS STRING) AS {q}"
            value = f"{fn}(CAST({q} AS DOUBLE))" if fn in ("avg", "stddev") else f"{fn}({q})"
            return f"CAST({value} AS STRING) AS {q}"

        stats = (("count", "count"), ("mean", "avg"), ("stddev", "stddev"), ("min", "min"), ("max", "max"))
        parts = [f"SELECT {i} AS `_dl_order`, '{label}' AS `summary`, " + ", ".join(stat(label, fn, f) for f in fields)
                 + f" FROM {self._source()}" for i, (label, fn) in enumerate(stats)]
        names = ", ".join(["`summary`"] + [_sql.quote_ident(f.name) for f in fields])
        return self._derive(f"SELECT {names} FROM ({' UNION ALL '.join(parts)}) AS `_dl_stats` ORDER BY `_dl_order`")

    @property
    def na(self):
        return DataFrameNaFunctions(self)

    def groupBy(self, *cols):
        return GroupedData(self, _names_arg(cols))

    groupby = groupBy

    def agg(self, *exprs):
        return GroupedData(self, ()).agg(*exprs)

    def orderBy(self, *cols, **kwargs):
        cols = _names_arg(cols)
        ascending = kwargs.pop("ascending", True)
        if kwargs:
            raise TypeError(f"orderBy got unexpected arguments {sorted(kwargs)}")
        if isinstance(ascending, (bool, int)):
            ascending = [bool(ascending)] * len(cols)
        if len(ascending) != len(cols):
            raise ValueError(f"orderBy: {len(cols)} columns but {len(ascending)} ascending flags")
        items = []
        for c, asc in zip(cols, ascending):
            c = c if isinstance(c, Column) else Column(name_sql(c))
            if not asc and c._sort is None:
                c = c.desc()
            items.append(c._order_sql())
        return self._derive(f"SELECT {self._star_sql()} FROM {self._source()} ORDER BY {', '.join(items)}", keep_alias=True)

    sort = orderBy

    def limit(self, num):
        return self._derive(f"SELECT {self._star_sql()} FROM {self._source()} LIMIT {int(num)}", keep_alias=True)

    def distinct(self):
        return self._derive(f"SELECT DISTINCT {self._star_sql()} FROM {self._source()}")

    def dropDuplicates(self, subset=None):
        """distinct(), or one row (any) for each value of the subset columns, as Spark."""
        if not subset:
            return self.distinct()
        if isinstance(subset, str):
            raise TypeError("dropDuplicates takes a list of column names, not one string")
        keys = ", ".join(name_sql(c) for c in subset)
        cols = ", ".join(_sql.quote_ident(n) for n in self.columns)
        numbered = f"SELECT *, row_number() OVER (PARTITION BY {keys}) AS `_dl_row` FROM {self._source()}"
        return self._derive(f"SELECT {cols} FROM ({numbered}) AS `_dl_numbered` WHERE `_dl_row` = 1")

    drop_duplicates = dropDuplicates

    def _set_op(self, op, other):
        if not isinstance(other, DataFrame):
            raise TypeError(f"{op} takes a DataFrame, not {type(other).__name__}")
        return self._derive(f"SELECT * FROM {self._from()} {op} SELECT * FROM {other._from()}")

    def exceptAll(self, other):
        return self._set_op("EXCEPT ALL", other)

    def subtract(self, other):
        return self._set_op("EXCEPT DISTINCT", other)

    def intersect(self, other):
        return self._set_op("INTERSECT DISTINCT", other)

    def intersectAll(self, other):
        return self._set_op("INTERSECT ALL", other)

    def union(self, other):
        return self._set_op("UNION ALL", other)

    unionAll = union

    def unionByName(self, other, allowMissingColumns=False):
        theirs = {n.lower(): n for n in other.columns}
        items = []
        for n in self.columns:
            if n.lower() in theirs:
                items.append(_sql.quote_ident(theirs.pop(n.lower())))
            elif allowMissingColumns:
                items.append(f"NULL AS {_sql.quote_ident(n)}")
            else:
                raise ValueError(f"unionByName: column {n!r} is missing from the other DataFrame "
                                 f"({', '.join(other.columns)}); pass allowMissingColumns=True for NULLs")
        if theirs and not allowMissingColumns:
            raise ValueError(f"unionByName: the other DataFrame has columns this one lacks: {', '.join(theirs.values())}")
        mine = self
        if theirs:
            mine = self._derive(f"SELECT *, {', '.join('NULL AS ' + _sql.quote_ident(n) for n in theirs.values())} "
                                f"FROM {self._from()}")
            items += [_sql.quote_ident(n) for n in theirs.values()]
        right = other._derive(f"SELECT {', '.join(items)} FROM {other._from()}")
        return mine.union(right)

    def join(self, other, on=None, how=None):
        kind = _JOIN_TYPES.get((how or "inner").lower().replace(" ", ""))
        if kind is None:
            raise ValueError(f"unknown join type {how!r}; Spark's are {', '.join(sorted(_JOIN_TYPES))}")
        # A join's left side that is a join or a table read continues its FROM clause (the
        # names inside stay in scope); a table read joins as itself; anything else as one
        # relation.
        is_open = self._core is not None and not self._core[1] and (self._is_join or self._relation is not None)
        left = self._core[0] if is_open else self._from()
        right = other._core[0] if other._relation is not None and not other._core[1] else other._from()
        if on is None:
            clause = f"{left} {'CROSS JOIN' if kind == 'INNER JOIN' else kind} {right}"
        elif isinstance(on, str) or (isinstance(on, (list, tuple)) and all(isinstance(x, str) for x in on)):
            names = [on] if isinstance(on, str) else list(on)
            clause = f"{left} {kind} {right} USING ({', '.join(_sql.quote_ident(n) for n in names)})"
        else:
            conds = on if isinstance(on, (list, tuple)) else [on]
            clause = f"{left} {kind} {right} ON {' AND '.join(condition_sql(c) for c in conds)}"
        return self._with_core(clause, [], is_join=True)

    def crossJoin(self, other):
        return self.join(other, None, "cross")

    def toDF(self, *names):
        if len(names) != len(self.columns):
            raise ValueError(f"toDF: {len(names)} names for {len(self.columns)} columns")
        items = [f"{_sql.quote_ident(o)} AS {_sql.quote_ident(n)}" for o, n in zip(self.columns, names)]
        return self._derive(f"SELECT {', '.join(items)} FROM {self._source()}")

    # ---- actions -----------------------------------------------------------------------------

    def collect(self):
        return _rows(self._arrow())

    def take(self, num):
        return self.limit(num).collect()

    def head(self, n=None):
        rows = self.take(1 if n is None else n)
        if n is None:
            return rows[0] if rows else None
        return rows

    def first(self):
        return self.head()

    def tail(self, num):
        return self.collect()[-num:] if num > 0 else []

    def isEmpty(self):
        return len(self.take(1)) == 0

    def count(self):
        if self._local is not None:
            return self._local.num_rows
        return self._session._run(f"SELECT count(*) AS c FROM {self._source()}").column(0)[0].as_py()

    def show(self, n=20, truncate=True, vertical=False):
        print(self._show_string(n, truncate, vertical))

    def _show_string(self, n=20, truncate=True, vertical=False):
        """show()'s text: the engine writes each value as CAST(x AS STRING) does, except values
        Spark's show spells otherwise (binary, NULL inside nested values: _pretty.py)."""
        schema = self._arrow_schema()
        names = schema.names
        if not names:  # a statement that returns nothing
            return show_string([], [], n, truncate, vertical)
        if len({x.lower() for x in names}) != len(names):  # a join's duplicate names: by position
            items = [None] * len(names)
        else:
            items = [None if needs_pretty(f.type) else
                     f"CAST({_sql.quote_ident(f.name)} AS STRING) AS {_sql.quote_ident(f.name)}" for f in schema]
        select = self._star_sql() if None in items and len(set(items)) == 1 else ", ".join(
            it or _sql.quote_ident(nm) for it, nm in zip(items, names))
        table = self._session._run(f"SELECT {select} FROM {self._source()} LIMIT {int(n) + 1}")
        zone = self._session._zone()
        types = [f.type for f in table.schema]
        cells = [[v if items[j] is not None else pretty(v, types[j], zone) for j, v in enumerate(row)]
                 for row in zip(*(c.to_pylist() for c in table.columns))]
        return show_string(names, cells, n, truncate, vertical)

    def toPandas(self):
        try:
            import pandas  # noqa: F401
        except ImportError as e:
            raise ImportError("toPandas needs pandas: pip install pandas") from e
        return self._arrow().to_pandas()

    def toArrow(self):
        return self._arrow()

    def explain(self, extended=None, mode=None):
        table = self._session._run(f"EXPLAIN {self._sql_text}")
        print("\n".join(str(v) for v in table.column(0).to_pylist()))

    def createOrReplaceTempView(self, name):
        self._session._register_view(name, self, replace=True)

    def createTempView(self, name):
        self._session._register_view(name, self, replace=False)

    registerTempTable = createOrReplaceTempView

    def writeTo(self, table):
        from .readwriter import DataFrameWriterV2

        return DataFrameWriterV2(self, table)

    @property
    def write(self):
        from .readwriter import DataFrameWriter

        return DataFrameWriter(self)

    @property
    def sparkSession(self):
        return self._session

    def __repr__(self):
        try:
            return "DataFrame[" + ", ".join(f"{n}: {t}" for n, t in self.dtypes) + "]"
        except Exception:  # the repr of a DataFrame whose query fails names no columns
            return "DataFrame[?]"


class DataFrameNaFunctions:
    """df.na: fill and drop (fillna, dropna)."""

    def __init__(self, df):
        self._df = df

    def fill(self, value, subset=None):
        return self._df.fillna(value, subset)

    def drop(self, how="any", thresh=None, subset=None):
        return self._df.dropna(how, thresh, subset)

    def replace(self, *args, **kwargs):
        raise NotImplementedError("DataFrame.na.replace is not in deltalite.spark's subset; use when/otherwise")


class GroupedData:
    """df.groupBy(...): agg(), count(), and the one-function shortcuts sum/avg/min/max/mean."""

    def __init__(self, df, keys):
        self._df, self._keys = df, keys

    def agg(self, *exprs):
        if len(exprs) == 1 and isinstance(exprs[0], dict):
            exprs = tuple(Column(f"{fn}({name_sql(c)})" if c != "*" else f"{fn}(*)") for c, fn in exprs[0].items())
        if not exprs:
            raise ValueError("agg needs at least one aggregate expression")
        for e in exprs:
            if not isinstance(e, Column):
                raise TypeError(f"agg takes Columns (functions.sum(...)) or one dict, not {e!r}")
        keys = [_col_or_name(k) for k in self._keys]
        items = ", ".join([_select_item(k) for k in self._keys] + [e._select_sql() for e in exprs])
        group = f" GROUP BY {', '.join(keys)}" if keys else ""
        return self._df._derive(f"SELECT {items} FROM {self._df._source()}{group}")

    def count(self):
        return self.agg(Column("count(*)", alias="count"))

    def _each(self, fn, cols):
        if not cols:
            raise NotImplementedError(f"GroupedData.{fn}() without columns is not in deltalite.spark's subset; name the columns")
        return self.agg(*(Column(f"{fn}({name_sql(c)})") for c in cols))

    def sum(self, *cols):
        return self._each("sum", cols)

    def avg(self, *cols):
        return self._each("avg", cols)

    mean = avg

    def min(self, *cols):
        return self._each("min", cols)

    def max(self, *cols):
        return self._each("max", cols)

    def pivot(self, *args):
        raise NotImplementedError("GroupedData.pivot is not in deltalite.spark's subset; use spark.sql with PIVOT")

    def applyInPandas(self, *args):
        raise NotImplementedError("GroupedData.applyInPandas is not in deltalite.spark's subset: Python functions do not run inside the engine")


# ---- Arrow values to PySpark's Python values ---------------------------------------------------


def _converter(t, is_local_time=True):
    """A function from Arrow's Python value to PySpark's (maps as dicts, structs as Rows, and
    timestamps naive in the local time zone when is_local_time), or None when they agree."""
    import pyarrow as pa

    if pa.types.is_struct(t):
        names = [t.field(i).name for i in range(t.num_fields)]
        subs = [_converter(t.field(i).type, is_local_time) or (lambda v: v) for i in range(t.num_fields)]
        return lambda v: None if v is None else Row._make(names, [s(v[n]) for s, n in zip(subs, names)])
    if pa.types.is_map(t):
        ks = _converter(t.key_type, is_local_time) or (lambda v: v)
        vs = _converter(t.item_type, is_local_time) or (lambda v: v)
        return lambda v: None if v is None else {ks(k): vs(x) for k, x in v}
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        sub = _converter(t.value_type, is_local_time)
        if sub is None:
            return None
        return lambda v: None if v is None else [sub(x) for x in v]
    if pa.types.is_timestamp(t) and t.tz is not None and is_local_time:
        # PySpark gives naive datetimes in the local time zone
        return lambda v: None if v is None else v.astimezone().replace(tzinfo=None)
    return None


def _rows(table, is_local_time=True):
    """The rows of a pyarrow Table as PySpark's Rows (is_local_time=False keeps timestamps
    aware, in UTC: how they go back into SQL literals)."""
    names = table.column_names
    convs = [_converter(f.type, is_local_time) for f in table.schema]
    out = []
    for values in zip(*(c.to_pylist() for c in table.columns)) if names else []:
        out.append(Row._make(names, [v if c is None else c(v) for v, c in zip(values, convs)]))
    return out
