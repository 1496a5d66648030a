"""SQL text from Python: quoted names, literals of Python values, and a relation (VALUES) that
carries rows already in Python memory into the engine.

Everything the PySpark layer sends to the engine is built here or in column.py, so that one
place decides how a name is quoted and how a value is written."""

import datetime as _dt
import decimal as _decimal
import math as _math
import re as _re

_PLAIN_NAME = _re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_INT32 = (-(2**31), 2**31 - 1)
_INT64 = (-(2**63), 2**63 - 1)


def quote_ident(name):
    """One identifier between backticks (a backtick inside doubled), as Spark quotes them."""
    if not isinstance(name, str):
        raise TypeError(f"a column or table name must be a string, not {type(name).__name__}: {name!r}")
    return "`" + name.replace("`", "``") + "`"


def split_name(name):
    """The parts of a dotted name as Spark's parser reads it: `a.b` -> ['a', 'b'],
    "`x.y`.z" -> ['x.y', 'z']; backticks quote a part, doubled backticks are one backtick."""
    parts, cur, i, quoted_part = [], [], 0, False
    while i < len(name):
        ch = name[i]
        if ch == "`":
            j = i + 1
            while True:
                k = name.find("`", j)
                if k < 0:
                    raise ValueError(f"the name {name!r} has a backtick that is not closed")
                if k + 1 < len(name) and name[k + 1] == "`":
                    cur.append(name[j:k] + "`")
                    j = k + 2
                    continue
                cur.append(name[j:k])
                i = k + 1
                quoted_part = True
                break
            continue
        if ch == ".":
            parts.append("".join(cur))
            cur, quoted_part = [], False
        else:
            cur.append(ch)
        i += 1
    parts.append("".join(cur))
    if any(p == "" for p in parts) and not quoted_part:
        raise ValueError(f"the name {name!r} has an empty part (two dots, or a dot at an end)")
    return parts


def quote_name(name):
    """A possibly dotted name (table `schema.t`, column `s.field`) quoted part by part."""
    return ".".join(quote_ident(p) for p in split_name(name))


def string_literal(text):
    """A Spark string literal: backslashes and quotes escaped as Spark's parser unescapes them."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def literal(value):
    """The SQL literal of a Python value, typed as PySpark's lit() types it: int -> INT when it
    fits, else BIGINT; float -> DOUBLE; str -> STRING; bool; None -> NULL; Decimal; date,
    datetime (a naive datetime is in the session time zone), bytes, list -> array, dict ->
    map."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if _INT32[0] <= value <= _INT32[1]:
            return str(value)
        if _INT64[0] <= value <= _INT64[1]:
            return f"{value}L"
        raise OverflowError(f"the integer {value} does not fit a BIGINT (64 bits); pass it as a Decimal")
    if isinstance(value, float):
        if _math.isnan(value) or _math.isinf(value):
            return f"CAST('{'NaN' if _math.isnan(value) else ('Infinity' if value > 0 else '-Infinity')}' AS DOUBLE)"
        return repr(value) + "D"
    if isinstance(value, _decimal.Decimal):
        return decimal_literal(value)
    if isinstance(value, str):
        return string_literal(value)
    if isinstance(value, _dt.datetime):
        return timestamp_literal(value)
    if isinstance(value, _dt.date):
        return f"DATE'{value.isoformat()}'"
    if isinstance(value, (bytes, bytearray, memoryview)):
        return f"X'{bytes(value).hex().upper()}'"
    if isinstance(value, (list, tuple)) and not hasattr(value, "__fields__"):
        return "array(" + ", ".join(literal(v) for v in value) + ")"
    if isinstance(value, dict):
        return "map(" + ", ".join(f"{literal(k)}, {literal(v)}" for k, v in value.items()) + ")"
    if hasattr(value, "__fields__"):
        return "named_struct(" + ", ".join(f"{string_literal(n)}, {literal(v)}" for n, v in zip(value.__fields__, value)) + ")"
    raise TypeError(f"no SQL literal for a Python {type(value).__name__}: {value!r}")


def decimal_literal(value):
    if not value.is_finite():
        raise ValueError(f"the Decimal {value} is not a number a DECIMAL column can hold")
    sign, digits, exponent = value.as_tuple()
    scale = max(0, -exponent)
    precision = max(len(digits) + max(0, exponent), scale, 1)
    if precision > 38:
        raise OverflowError(f"the Decimal {value} needs {precision} digits; Spark's DECIMAL holds at most 38")
    return f"CAST('{value}' AS DECIMAL({precision},{scale}))"


def timestamp_literal(value):
    if value.tzinfo is not None:
        value = value.astimezone(_dt.timezone.utc)
        return f"TIMESTAMP'{value.replace(tzinfo=None).isoformat(sep=' ')}+00:00'"
    return f"TIMESTAMP'{value.isoformat(sep=' ')}'"


def typed_literal(value, sql_type):
    """A value as a literal of the given Spark type (CAST around it, so that NULLs, empty
    arrays and maps and integers all take the column's type)."""
    if isinstance(value, dict) and sql_type.lower().startswith("struct"):
        inner = ", ".join(f"{string_literal(k)}, {literal(v)}" for k, v in value.items())
        return f"CAST(named_struct({inner}) AS {sql_type})"
    return f"CAST({literal(value)} AS {sql_type})"


def values_relation(names, sql_types, rows):
    """A relation of Python rows (tuples in the order of names) as SQL: VALUES with every value
    cast to its column's type, or a typed empty SELECT when there are no rows."""
    cols = ", ".join(quote_ident(n) for n in names)
    if not names:  # a statement's empty result: no SQL can hold it, only the DataFrame's own rows
        return None
    if not rows:
        typed = ", ".join(f"CAST(NULL AS {t}) AS {quote_ident(n)}" for n, t in zip(names, sql_types))
        return f"SELECT {typed} WHERE false"
    body = ", ".join("(" + ", ".join(typed_literal(v, t) for v, t in zip(row, sql_types)) + ")" for row in rows)
    return f"SELECT * FROM VALUES {body} AS _dl_values({cols})"
