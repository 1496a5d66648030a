"""spark.createDataFrame: Python rows, tuples with column names or a schema, dicts, pandas
and Arrow tables become a VALUES relation whose every value is cast to its column's type
(PySpark's inference: int -> bigint, float -> double)."""

from . import _sql
from .dataframe import DataFrame
from .row import Row
from .types import (DataType, NullType, StructField, StructType, infer_type, merge_types, parse_ddl_schema,
                    parse_type, schema_from_arrow, to_arrow)


# Up to this many values, rows travel inside the statement (VALUES); more are registered with
# the connection as Arrow data (until the session stops).
INLINE_VALUES = 20_000


def _from_arrow_table(session, table, schema):
    names = table.column_names
    types = schema_from_arrow(table.schema) if schema is None else _given_schema(schema, names)
    if isinstance(types, list):
        if len(types) != len(names):
            raise ValueError(f"[LENGTH_SHOULD_BE_THE_SAME] createDataFrame: {len(types)} names for {len(names)} columns")
        table = table.rename_columns(types)
        types = schema_from_arrow(table.schema)
    if table.num_rows * max(1, table.num_columns) > INLINE_VALUES:
        if types.names != table.column_names:
            raise ValueError(f"createDataFrame: the schema names {types.names} are not the data's {table.column_names}")
        return _arrow_relation(session, types, table.cast(to_arrow(types)) if schema is not None else table)
    rows = [tuple(r.values()) for r in table.to_pylist()]
    return _relation(session, types, rows)


def _arrow_relation(session, struct, table):
    """A DataFrame reading an Arrow table of Spark types registered with the connection."""
    return DataFrame(session, f"SELECT * FROM {session._data_relation(table)}")


def _python_value(v):
    if isinstance(v, Row):
        return {n: _python_value(x) for n, x in zip(v.__fields__, v)} if v.__fields__ else tuple(v)
    if isinstance(v, dict):
        return [(k, _python_value(x)) for k, x in v.items()]
    if isinstance(v, list):
        return [_python_value(x) for x in v]
    return v


def _given_schema(schema, first_names):
    if isinstance(schema, StructType):
        return schema
    if isinstance(schema, str):
        if ":" not in schema and " " not in schema.strip() and "," not in schema:
            return StructType([StructField("value", parse_type(schema))])
        return parse_ddl_schema(schema)
    if isinstance(schema, DataType):
        return StructType([StructField("value", schema)])
    if isinstance(schema, (list, tuple)) and all(isinstance(n, str) for n in schema):
        return list(schema)
    raise TypeError(f"createDataFrame: schema must be a StructType, a DDL string or a list of names, not {schema!r}")


def _row_values(row, names, i):
    if isinstance(row, dict):
        return tuple(row.get(n) for n in names)
    if isinstance(row, Row) and row.__fields__ is not None and names is not None:
        d = row.asDict()
        if set(d) == set(names):
            return tuple(d[n] for n in names)
        return tuple(row)
    if isinstance(row, (tuple, list)):
        return tuple(row)
    return (row,)


def _relation(session, struct, rows):
    for i, r in enumerate(rows):
        if len(r) != len(struct.fields):
            raise ValueError(f"[LENGTH_SHOULD_BE_THE_SAME] createDataFrame: row {i} has {len(r)} values for "
                             f"{len(struct.fields)} columns ({', '.join(struct.names)}): {r!r}")
    for j, f in enumerate(struct.fields):
        if not f.nullable:
            for i, r in enumerate(rows):
                if r[j] is None:
                    raise ValueError(f"[FIELD_NOT_NULLABLE] createDataFrame: row {i}, field {f.name!r}: this field is "
                                     f"not nullable, but got None")
        if isinstance(f.dataType, NullType):
            raise ValueError(f"[CANNOT_DETERMINE_TYPE] createDataFrame: column {f.name!r} holds only None; give a "
                             f"schema with its type")
    if len(rows) * max(1, len(struct.fields)) > INLINE_VALUES:
        import pyarrow as pa

        try:
            arrays = [pa.array([_python_value(r[j]) for r in rows], type=to_arrow(f.dataType))
                      for j, f in enumerate(struct.fields)]
        except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError, TypeError) as e:
            raise ValueError(f"createDataFrame: a value does not fit its column's type: {e}") from e
        return _arrow_relation(session, struct, pa.Table.from_arrays(arrays, names=struct.names))
    types = [f.dataType.simpleString() for f in struct.fields]
    return DataFrame(session, _sql.values_relation(struct.names, types, rows))


def create_dataframe(session, data, schema=None):
    try:
        import pandas as pd
    except ImportError:
        pd = None
    import pyarrow as pa

    if pd is not None and isinstance(data, pd.DataFrame):
        return _from_arrow_table(session, pa.Table.from_pandas(data, preserve_index=False), schema)
    if isinstance(data, pa.Table):
        return _from_arrow_table(session, data, schema)
    if isinstance(data, DataFrame):
        raise TypeError("createDataFrame takes rows, a pandas or an Arrow table, not a DataFrame")
    rows = list(data)
    given = None if schema is None else _given_schema(schema, None)
    if isinstance(given, StructType):
        names = given.names
        values = [_row_values(r, names, i) for i, r in enumerate(rows)]
        return _relation(session, given, values)
    names = given
    if names is None:
        first = rows[0] if rows else None
        if isinstance(first, dict):
            names = list(first)
        elif isinstance(first, Row) and first.__fields__ is not None:
            names = list(first.__fields__)
        elif first is None:
            raise ValueError("[CANNOT_INFER_EMPTY_SCHEMA] createDataFrame of no rows needs a schema")
        else:
            names = [f"_{i + 1}" for i in range(len(first) if isinstance(first, (tuple, list)) else 1)]
    values = [_row_values(r, names, i) for i, r in enumerate(rows)]
    width = max([len(v) for v in values] + [len(names)])
    names = list(names) + [f"_{i + 1}" for i in range(len(names), width)]
    fields = []
    for j, n in enumerate(names):
        col_types = [infer_type(v[j] if j < len(v) else None, f"column {n!r}") for v in values]
        fields.append(StructField(n, merge_types(col_types, f"column {n!r}")))
    return _relation(session, StructType(fields), values)
