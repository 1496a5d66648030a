"""delta.tables for deltalite: DeltaTable and its merge and optimize builders, each call one
Delta statement (DELETE, UPDATE, MERGE, RESTORE, VACUUM, OPTIMIZE, DESCRIBE HISTORY/DETAIL)
run by the engine. Conditions and SET values are SQL text or Columns, as in delta-spark."""

from . import _sql
from .column import Column, condition_sql
from .dataframe import DataFrame
from .errors import AnalysisException
from .readwriter import path_ref

__all__ = ["DeltaTable", "DeltaMergeBuilder", "DeltaOptimizeBuilder", "DeltaTableBuilder"]


def _value(value):
    if isinstance(value, Column):
        return value._sql
    if isinstance(value, str):
        return f"({value})"
    raise TypeError(f"a value is SQL text (an expression) or a Column, not {type(value).__name__}: {value!r}; "
                    f"use lit({value!r}) for a literal")


def _assignments(mapping, what):
    if not isinstance(mapping, dict) or not mapping:
        raise ValueError(f"{what} needs a non-empty dict of column -> value")
    return ", ".join(f"{_sql.quote_name(k)} = {_value(v)}" for k, v in mapping.items())


def _when(condition):
    return "" if condition is None else f" AND {condition_sql(condition)}"


class DeltaTable:
    def __init__(self, spark, target, alias=None):
        self._spark, self._target, self._alias = spark, target, alias

    @classmethod
    def forPath(cls, sparkSession, path, hadoopConf=None):
        if hadoopConf:
            raise NotImplementedError("DeltaTable.forPath(hadoopConf=...): Hadoop settings are not in deltalite.spark")
        target = path_ref(path)
        if sparkSession._detail(target) is None:
            raise AnalysisException(f"[DELTA_MISSING_DELTA_TABLE] `{path}` is not a Delta table.")
        return cls(sparkSession, target)

    @classmethod
    def forName(cls, sparkSession, tableOrViewName):
        if sparkSession._view_sql(tableOrViewName) is not None:
            raise AnalysisException(f"[DELTA_TABLE_ONLY_OPERATION] {tableOrViewName} is a temporary view, not a Delta table")
        target = _sql.quote_name(tableOrViewName)
        if sparkSession._detail(target) is None:
            raise AnalysisException(f"[DELTA_MISSING_DELTA_TABLE] {tableOrViewName} is not a Delta table.")
        return cls(sparkSession, target)

    @classmethod
    def create(cls, sparkSession=None):
        return DeltaTableBuilder(sparkSession, "CREATE TABLE")

    @classmethod
    def createIfNotExists(cls, sparkSession=None):
        return DeltaTableBuilder(sparkSession, "CREATE TABLE IF NOT EXISTS")

    @classmethod
    def replace(cls, sparkSession=None):
        return DeltaTableBuilder(sparkSession, "REPLACE TABLE")

    @classmethod
    def createOrReplace(cls, sparkSession=None):
        return DeltaTableBuilder(sparkSession, "CREATE OR REPLACE TABLE")

    @classmethod
    def isDeltaTable(cls, sparkSession, identifier):
        return sparkSession._detail(path_ref(identifier)) is not None

    def _ref(self):
        return self._target + (f" AS {_sql.quote_ident(self._alias)}" if self._alias else "")

    def alias(self, aliasName):
        return DeltaTable(self._spark, self._target, aliasName)

    def toDF(self):
        return self._spark._table(self._target, self._alias)

    def history(self, limit=None):
        tail = "" if limit is None else f" LIMIT {int(limit)}"
        return self._spark._local(self._spark._run(f"DESCRIBE HISTORY {self._target}{tail}"))

    def detail(self):
        return self._spark._local(self._spark._run(f"DESCRIBE DETAIL {self._target}"))

    def vacuum(self, retentionHours=None):
        retain = "" if retentionHours is None else f" RETAIN {float(retentionHours)!r} HOURS"
        return self._spark._local(self._spark._run(f"VACUUM {self._target}{retain}"))

    def restoreToVersion(self, version):
        return self._spark._local(self._spark._run(f"RESTORE TABLE {self._target} TO VERSION AS OF {int(version)}"))

    def restoreToTimestamp(self, timestamp):
        return self._spark._local(
            self._spark._run(f"RESTORE TABLE {self._target} TO TIMESTAMP AS OF {_sql.string_literal(str(timestamp))}"))

    def delete(self, condition=None):
        where = "" if condition is None else f" WHERE {condition_sql(condition)}"
        self._spark._run(f"DELETE FROM {self._ref()}{where}")

    def update(self, condition=None, set=None):
        if set is None and isinstance(condition, dict):
            condition, set = None, condition
        where = "" if condition is None else f" WHERE {condition_sql(condition)}"
        self._spark._run(f"UPDATE {self._ref()} SET {_assignments(set, 'update(set=...)')}{where}")

    def merge(self, source, condition):
        if not isinstance(source, DataFrame):
            raise TypeError(f"merge's source must be a DataFrame, not {type(source).__name__}")
        return DeltaMergeBuilder(self, source, condition)

    def optimize(self):
        return DeltaOptimizeBuilder(self)

    def generate(self, mode):
        self._spark._run(f"GENERATE {mode} FOR TABLE {self._target}")

    def upgradeTableProtocol(self, readerVersion, writerVersion):
        self._spark._run(f"ALTER TABLE {self._target} SET TBLPROPERTIES ('delta.minReaderVersion' = "
                         f"'{int(readerVersion)}', 'delta.minWriterVersion' = '{int(writerVersion)}')")

    def addFeatureSupport(self, featureName):
        key = _sql.string_literal(f"delta.feature.{featureName}")
        self._spark._run(f"ALTER TABLE {self._target} SET TBLPROPERTIES ({key} = 'supported')")

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        if name in ("clone", "cloneAtVersion", "cloneAtTimestamp", "dropFeatureSupport", "convertToDelta"):
            raise NotImplementedError(f"DeltaTable.{name} is not in deltalite.spark's subset; spark.sql runs the "
                                      f"SQL statements the engine has (docs/pyspark.md)")
        raise AttributeError(f"'DeltaTable' object has no attribute '{name}' (delta-spark's DeltaTable has none "
                             f"either; toDF() gives the table's DataFrame)")


class DeltaMergeBuilder:
    def __init__(self, table, source, condition, clauses=(), evolve=False):
        self._table, self._source, self._condition = table, source, condition
        self._clauses, self._evolve = tuple(clauses), evolve

    def _add(self, clause):
        return DeltaMergeBuilder(self._table, self._source, self._condition, self._clauses + (clause,), self._evolve)

    def whenMatchedUpdate(self, condition=None, set=None):
        return self._add(f"WHEN MATCHED{_when(condition)} THEN UPDATE SET {_assignments(set, 'whenMatchedUpdate(set=...)')}")

    def whenMatchedUpdateAll(self, condition=None):
        return self._add(f"WHEN MATCHED{_when(condition)} THEN UPDATE SET *")

    def whenMatchedDelete(self, condition=None):
        return self._add(f"WHEN MATCHED{_when(condition)} THEN DELETE")

    def whenNotMatchedInsert(self, condition=None, values=None):
        if not isinstance(values, dict) or not values:
            raise ValueError("whenNotMatchedInsert needs values: a non-empty dict of column -> value")
        cols = ", ".join(_sql.quote_name(k) for k in values)
        vals = ", ".join(_value(v) for v in values.values())
        return self._add(f"WHEN NOT MATCHED{_when(condition)} THEN INSERT ({cols}) VALUES ({vals})")

    def whenNotMatchedInsertAll(self, condition=None):
        return self._add(f"WHEN NOT MATCHED{_when(condition)} THEN INSERT *")

    def whenNotMatchedBySourceUpdate(self, condition=None, set=None):
        return self._add(f"WHEN NOT MATCHED BY SOURCE{_when(condition)} THEN UPDATE SET "
                         f"{_assignments(set, 'whenNotMatchedBySourceUpdate(set=...)')}")

    def whenNotMatchedBySourceDelete(self, condition=None):
        return self._add(f"WHEN NOT MATCHED BY SOURCE{_when(condition)} THEN DELETE")

    def withSchemaEvolution(self):
        return DeltaMergeBuilder(self._table, self._source, self._condition, self._clauses, True)

    def _statement(self):
        if not self._clauses:
            raise AnalysisException("[DELTA_MERGE_MISSING_WHEN] There must be at least one WHEN clause in a MERGE "
                                    "statement (add whenMatchedUpdateAll(), whenNotMatchedInsertAll(), ...)")
        evolve = " WITH SCHEMA EVOLUTION" if self._evolve else ""
        return (f"MERGE{evolve} INTO {self._table._ref()} USING {self._source._from()} ON {condition_sql(self._condition)} "
                + " ".join(self._clauses))

    def execute(self):
        spark = self._table._spark
        return spark._local(spark._run(self._statement()))


class DeltaOptimizeBuilder:
    def __init__(self, table, where=None):
        self._table, self._where = table, where

    def where(self, partitionFilter):
        return DeltaOptimizeBuilder(self._table, partitionFilter)

    def _tail(self):
        return "" if self._where is None else f" WHERE {self._where}"

    def executeCompaction(self):
        spark = self._table._spark
        return spark._local(spark._run(f"OPTIMIZE {self._table._target}{self._tail()}"))

    def executeZOrderBy(self, *cols):
        if len(cols) == 1 and isinstance(cols[0], (list, tuple)):
            cols = tuple(cols[0])
        spark = self._table._spark
        names = ", ".join(_sql.quote_ident(c) for c in cols)
        return spark._local(spark._run(f"OPTIMIZE {self._table._target}{self._tail()} ZORDER BY ({names})"))


class DeltaTableBuilder:
    """DeltaTable.create/createIfNotExists/replace/createOrReplace(spark): a CREATE TABLE
    statement built by name or location, columns, partitioning, comment and properties."""

    def __init__(self, spark, verb):
        from .session import SparkSession

        self._spark = spark or SparkSession.active()
        self._verb = verb
        self._name = self._location = self._comment = None
        self._columns, self._partitions, self._properties = [], [], {}

    def tableName(self, identifier):
        self._name = identifier
        return self

    def location(self, location):
        self._location = str(location)
        return self

    def comment(self, comment):
        self._comment = comment
        return self

    def addColumn(self, colName, dataType, nullable=True, generatedAlwaysAs=None, generatedByDefaultAs=None,
                  comment=None):
        from .types import DataType, StructField

        if isinstance(dataType, StructField):
            raise TypeError("addColumn takes a name and a type; addColumns takes StructFields")
        text = dataType.simpleString() if isinstance(dataType, DataType) else str(dataType)
        col = f"{_sql.quote_ident(colName)} {text}" + ("" if nullable else " NOT NULL")
        if generatedAlwaysAs is not None:  # the engine says whether it has generated columns
            col += f" GENERATED ALWAYS AS ({generatedAlwaysAs})"
        if generatedByDefaultAs is not None:
            col += " GENERATED BY DEFAULT AS IDENTITY"
        if comment is not None:
            col += f" COMMENT {_sql.string_literal(comment)}"
        self._columns.append(col)
        return self

    def addColumns(self, cols):
        from .types import StructType

        for f in (cols.fields if isinstance(cols, StructType) else cols):
            self.addColumn(f.name, f.dataType, f.nullable)
        return self

    def partitionedBy(self, *cols):
        if len(cols) == 1 and isinstance(cols[0], (list, tuple)):
            cols = tuple(cols[0])
        self._partitions = list(cols)
        return self

    def clusterBy(self, *cols):
        raise NotImplementedError("DeltaTableBuilder.clusterBy: liquid clustering is not in deltalite")

    def property(self, key, value):
        self._properties[key] = value
        return self

    def _target(self):
        if self._name and self._location:
            raise NotImplementedError("DeltaTableBuilder with both tableName and location: deltalite has no "
                                      "metastore to map a name to a folder; give one of them")
        if self._name:
            return _sql.quote_name(self._name)
        if self._location:
            return path_ref(self._location)
        raise AnalysisException("DeltaTableBuilder needs tableName(...) or location(...)")

    def execute(self):
        target = self._target()
        sql = f"{self._verb} {target}"
        if self._columns:
            sql += " (" + ", ".join(self._columns) + ")"
        sql += " USING DELTA"
        if self._partitions:
            sql += " PARTITIONED BY (" + ", ".join(_sql.quote_ident(c) for c in self._partitions) + ")"
        if self._comment is not None:
            sql += f" COMMENT {_sql.string_literal(self._comment)}"
        if self._properties:
            sql += " TBLPROPERTIES (" + ", ".join(f"{_sql.string_literal(k)} = {_sql.string_literal(str(v))}"
                                                  for k, v in self._properties.items()) + ")"
        self._spark._run(sql)
        return DeltaTable(self._spark, target)
