"""Spark's data types, as far as schemas of createDataFrame and DataFrame.schema need them
(pyspark.sql.types' names and methods): each type knows its SQL name (simpleString), and
types come from Arrow types (the engine's results) and from DDL strings ('a INT, b STRING')."""

import datetime as _dt
import decimal as _decimal

__all__ = [
    "DataType", "NullType", "StringType", "BinaryType", "BooleanType", "DateType", "TimestampType",
    "TimestampNTZType", "DecimalType", "DoubleType", "FloatType", "ByteType", "ShortType",
    "IntegerType", "LongType", "ArrayType", "MapType", "StructField", "StructType", "Row",
]


class DataType:
    _sql = None

    def simpleString(self):
        return self._sql

    def typeName(self):
        return type(self).__name__[:-4].lower()

    def sql(self):
        return self.simpleString().upper()

    def __eq__(self, other):
        return type(self) is type(other) and self.__dict__ == other.__dict__

    def __hash__(self):
        return hash(self.simpleString())

    def __repr__(self):
        return f"{type(self).__name__}()"


def _atomic(name, sql):
    return type(name, (DataType,), {"_sql": sql})


NullType = _atomic("NullType", "void")
StringType = _atomic("StringType", "string")
BinaryType = _atomic("BinaryType", "binary")
BooleanType = _atomic("BooleanType", "boolean")
DateType = _atomic("DateType", "date")
TimestampType = _atomic("TimestampType", "timestamp")
TimestampNTZType = _atomic("TimestampNTZType", "timestamp_ntz")
DoubleType = _atomic("DoubleType", "double")
FloatType = _atomic("FloatType", "float")
ByteType = _atomic("ByteType", "tinyint")
ShortType = _atomic("ShortType", "smallint")
IntegerType = _atomic("IntegerType", "int")
LongType = _atomic("LongType", "bigint")
StringType.typeName = lambda self: "string"
IntegerType.typeName = lambda self: "integer"


class DecimalType(DataType):
    def __init__(self, precision=10, scale=0):
        self.precision, self.scale = precision, scale

    def simpleString(self):
        return f"decimal({self.precision},{self.scale})"

    def typeName(self):
        return "decimal"

    def __repr__(self):
        return f"DecimalType({self.precision},{self.scale})"


class ArrayType(DataType):
    def __init__(self, elementType, containsNull=True):
        self.elementType, self.containsNull = elementType, containsNull

    def simpleString(self):
        return f"array<{self.elementType.simpleString()}>"

    def typeName(self):
        return "array"

    def __repr__(self):
        return f"ArrayType({self.elementType!r}, {self.containsNull})"


class MapType(DataType):
    def __init__(self, keyType, valueType, valueContainsNull=True):
        self.keyType, self.valueType, self.valueContainsNull = keyType, valueType, valueContainsNull

    def simpleString(self):
        return f"map<{self.keyType.simpleString()},{self.valueType.simpleString()}>"

    def typeName(self):
        return "map"

    def __repr__(self):
        return f"MapType({self.keyType!r}, {self.valueType!r}, {self.valueContainsNull})"


class StructField:
    def __init__(self, name, dataType, nullable=True, metadata=None):
        if not isinstance(dataType, DataType):
            raise TypeError(f"StructField {name!r}: the type must be a DataType, not {dataType!r}")
        self.name, self.dataType, self.nullable, self.metadata = name, dataType, nullable, metadata or {}

    def simpleString(self):
        return f"{self.name}:{self.dataType.simpleString()}"

    def __eq__(self, other):
        return isinstance(other, StructField) and (self.name, self.dataType, self.nullable) == (
            other.name, other.dataType, other.nullable)

    def __repr__(self):
        return f"StructField({self.name!r}, {self.dataType!r}, {self.nullable})"


class StructType(DataType):
    def __init__(self, fields=None):
        self.fields = list(fields or [])

    def add(self, field, data_type=None, nullable=True, metadata=None):
        if isinstance(field, StructField):
            self.fields.append(field)
        else:
            if isinstance(data_type, str):
                data_type = parse_type(data_type)
            self.fields.append(StructField(field, data_type, nullable, metadata))
        return self

    @property
    def names(self):
        return [f.name for f in self.fields]

    def fieldNames(self):
        return self.names

    def __iter__(self):
        return iter(self.fields)

    def __len__(self):
        return len(self.fields)

    def __getitem__(self, key):
        if isinstance(key, str):
            for f in self.fields:
                if f.name == key:
                    return f
            raise KeyError(f"no field {key!r} in {self.simpleString()}")
        return self.fields[key]

    def simpleString(self):
        return "struct<" + ",".join(f.simpleString() for f in self.fields) + ">"

    def typeName(self):
        return "struct"

    def treeString(self):
        lines = ["root"]
        _tree(self, lines, 1)
        return "\n".join(lines) + "\n"

    def __repr__(self):
        return "StructType([" + ", ".join(repr(f) for f in self.fields) + "])"


def _tree(struct, lines, depth):
    for f in struct.fields:
        t = f.dataType
        lines.append(f"{' |   ' * (depth - 1)} |-- {f.name}: {t.typeName()} (nullable = {str(f.nullable).lower()})")
        _tree_nested(t, lines, depth + 1)


def _tree_nested(t, lines, depth):
    pad = " |   " * (depth - 1)
    if isinstance(t, StructType):
        _tree(t, lines, depth)
    elif isinstance(t, ArrayType):
        lines.append(f"{pad} |-- element: {t.elementType.typeName()} (containsNull = {str(t.containsNull).lower()})")
        _tree_nested(t.elementType, lines, depth + 1)
    elif isinstance(t, MapType):
        lines.append(f"{pad} |-- key: {t.keyType.typeName()}")
        _tree_nested(t.keyType, lines, depth + 1)
        lines.append(f"{pad} |-- value: {t.valueType.typeName()} (valueContainsNull = {str(t.valueContainsNull).lower()})")
        _tree_nested(t.valueType, lines, depth + 1)


# ---- from Arrow, from DDL, from Python values ------------------------------------------------


def from_arrow(t):
    """The Spark type of an Arrow type (the engine's result columns)."""
    import pyarrow as pa

    simple = [
        (pa.types.is_boolean, BooleanType), (pa.types.is_int8, ByteType), (pa.types.is_int16, ShortType),
        (pa.types.is_int32, IntegerType), (pa.types.is_int64, LongType), (pa.types.is_float32, FloatType),
        (pa.types.is_float64, DoubleType), (pa.types.is_date32, DateType), (pa.types.is_null, NullType),
    ]
    for test, cls in simple:
        if test(t):
            return cls()
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return StringType()
    if pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_binary_view(t):
        return BinaryType()
    if pa.types.is_decimal(t):
        return DecimalType(t.precision, t.scale)
    if pa.types.is_timestamp(t):
        return TimestampType() if t.tz is not None else TimestampNTZType()
    if pa.types.is_map(t):
        return MapType(from_arrow(t.key_type), from_arrow(t.item_type))
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return ArrayType(from_arrow(t.value_type))
    if pa.types.is_struct(t):
        return StructType([StructField(t.field(i).name, from_arrow(t.field(i).type), t.field(i).nullable)
                           for i in range(t.num_fields)])
    raise TypeError(f"the engine returned an Arrow type with no Spark type: {t}")


def to_arrow(t):
    """The Arrow type that holds a Spark type's values (what createDataFrame registers)."""
    import pyarrow as pa

    simple = {
        BooleanType: pa.bool_(), ByteType: pa.int8(), ShortType: pa.int16(), IntegerType: pa.int32(),
        LongType: pa.int64(), FloatType: pa.float32(), DoubleType: pa.float64(), DateType: pa.date32(),
        StringType: pa.string(), BinaryType: pa.binary(), TimestampType: pa.timestamp("us", tz="UTC"),
        TimestampNTZType: pa.timestamp("us"), NullType: pa.null(),
    }
    if type(t) in simple:
        return simple[type(t)]
    if isinstance(t, DecimalType):
        return pa.decimal128(t.precision, t.scale)
    if isinstance(t, ArrayType):
        return pa.list_(to_arrow(t.elementType))
    if isinstance(t, MapType):
        return pa.map_(to_arrow(t.keyType), to_arrow(t.valueType))
    if isinstance(t, StructType):
        return pa.struct([pa.field(f.name, to_arrow(f.dataType), f.nullable) for f in t.fields])
    raise TypeError(f"no Arrow type for {t!r}")


def schema_from_arrow(schema):
    return StructType([StructField(f.name, from_arrow(f.type), f.nullable) for f in schema])


_NAMES = {
    "string": StringType, "varchar": StringType, "char": StringType, "binary": BinaryType,
    "boolean": BooleanType, "bool": BooleanType, "date": DateType, "timestamp": TimestampType,
    "timestamp_ltz": TimestampType, "timestamp_ntz": TimestampNTZType, "double": DoubleType,
    "float": FloatType, "real": FloatType, "tinyint": ByteType, "byte": ByteType,
    "smallint": ShortType, "short": ShortType, "int": IntegerType, "integer": IntegerType,
    "bigint": LongType, "long": LongType, "void": NullType,
}


def parse_type(text):
    """A DataType from Spark's type syntax ('int', 'decimal(10,2)', 'array<string>',
    'map<string,int>', 'struct<a:int,b:string>')."""
    t, rest = _parse(text.strip())
    if rest.strip():
        raise ValueError(f"cannot read the type {text!r}: unexpected {rest.strip()!r}")
    return t


def _parse(s):
    s = s.lstrip()
    i = 0
    while i < len(s) and (s[i].isalnum() or s[i] == "_"):
        i += 1
    word, rest = s[:i].lower(), s[i:].lstrip()
    if word in ("decimal", "dec", "numeric"):
        if rest.startswith("("):
            close = rest.index(")")
            p, _, sc = rest[1:close].partition(",")
            return DecimalType(int(p), int(sc or 0)), rest[close + 1:]
        return DecimalType(10, 0), rest
    if word in ("varchar", "char") and rest.startswith("("):
        return StringType(), rest[rest.index(")") + 1:]
    if word == "array" and rest.startswith("<"):
        inner, rest = _parse(rest[1:])
        return ArrayType(inner), _expect(rest, ">")
    if word == "map" and rest.startswith("<"):
        key, rest = _parse(rest[1:])
        value, rest = _parse(_expect(rest, ","))
        return MapType(key, value), _expect(rest, ">")
    if word == "struct" and rest.startswith("<"):
        fields, rest = [], rest[1:]
        while not rest.lstrip().startswith(">"):
            name, rest = _field_name(rest)
            rest = rest.lstrip()
            if rest.startswith(":"):
                rest = rest[1:]
            t, rest = _parse(rest)
            fields.append(StructField(name, t))
            rest = rest.lstrip()
            if rest.startswith(","):
                rest = rest[1:]
        return StructType(fields), rest.lstrip()[1:]
    if word in _NAMES:
        return _NAMES[word](), rest
    raise ValueError(f"unknown type {s.split()[0] if s.split() else s!r} (Spark's type names: int, bigint, double, string, date, timestamp, decimal(p,s), array<...>, map<...>, struct<...>)")


def _expect(s, ch):
    s = s.lstrip()
    if not s.startswith(ch):
        raise ValueError(f"expected {ch!r} in a type, found {s[:10]!r}")
    return s[1:]


def _field_name(s):
    s = s.lstrip()
    if s.startswith("`"):
        close = s.index("`", 1)
        return s[1:close], s[close + 1:]
    i = 0
    while i < len(s) and (s[i].isalnum() or s[i] == "_"):
        i += 1
    if i == 0:
        raise ValueError(f"expected a field name, found {s[:10]!r}")
    return s[:i], s[i:]


def parse_ddl_schema(text):
    """A StructType from a DDL schema string: 'a INT, b STRING NOT NULL' or 'a: int, b: string'."""
    fields, depth, cur = [], 0, []
    for ch in text + ",":
        if ch in "<(":
            depth += 1
        elif ch in ">)":
            depth -= 1
        if ch == "," and depth == 0:
            part = "".join(cur).strip()
            cur = []
            if not part:
                continue
            name, rest = _field_name(part)
            rest = rest.lstrip().lstrip(":")
            nullable = True
            if rest.upper().rstrip().endswith("NOT NULL"):
                rest, nullable = rest.rstrip()[:-8], False
            fields.append(StructField(name, parse_type(rest), nullable))
        else:
            cur.append(ch)
    return StructType(fields)


def infer_type(value, where):
    """The Spark type createDataFrame infers for a Python value (as PySpark: int -> bigint,
    float -> double); None is NullType."""
    from .row import Row

    if value is None:
        return NullType()
    if isinstance(value, bool):
        return BooleanType()
    if isinstance(value, int):
        return LongType()
    if isinstance(value, float):
        return DoubleType()
    if isinstance(value, str):
        return StringType()
    if isinstance(value, _decimal.Decimal):
        return DecimalType(38, 18)
    if isinstance(value, _dt.datetime):
        return TimestampType()
    if isinstance(value, _dt.date):
        return DateType()
    if isinstance(value, (bytes, bytearray)):
        return BinaryType()
    if isinstance(value, Row):
        return StructType([StructField(n, infer_type(v, f"{where}.{n}")) for n, v in zip(value.__fields__, value)])
    if isinstance(value, (list, tuple)):
        return ArrayType(merge_types([infer_type(v, f"{where}[]") for v in value], f"{where}[]"))
    if isinstance(value, dict):
        return MapType(merge_types([infer_type(k, f"{where} key") for k in value], f"{where} key"),
                       merge_types([infer_type(v, f"{where} value") for v in value.values()], f"{where} value"))
    raise TypeError(f"createDataFrame: cannot infer a type for {where} from a Python {type(value).__name__}: {value!r}")


def merge_types(types, where):
    """One type for a column from the types of its values (NULLs take the others' type)."""
    found = NullType()
    for t in types:
        if isinstance(t, NullType):
            continue
        if isinstance(found, NullType):
            found = t
        elif t != found:
            raise TypeError(f"createDataFrame: {where} holds values of two types, {found.simpleString()} and "
                            f"{t.simpleString()}; give a schema, or make the values one type")
    return found


from .row import Row  # noqa: E402  (pyspark.sql.types exports Row too)
