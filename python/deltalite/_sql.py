"""SQL text helpers: the lexical scan that finds statement ends and parameter markers (outside
strings, quoted names and comments, as Spark's lexer), and Python values as Spark SQL literals.

Parameters of one statement are bound by the C library's prepared statements: each value goes
to its marker (`?` in order, or `:name` from a mapping) as a typed value, never as SQL text
(native_args). A script of several statements, or a list or dict value (an array or a map,
which the C API does not bind), is bound by writing each value as a literal in place of its
marker, the way the engine would read it: strings are quoted with Spark's backslash escapes,
so no value can change the statement's shape (bind)."""

from __future__ import annotations

import datetime as _dt
import decimal as _decimal
import math as _math
from collections.abc import Mapping, Sequence

from ._errors import InvalidArgumentError


def _scan(sql: str):
    """Yields (kind, start, end) for each ';', '?' and ':name' outside strings and comments."""
    i, n = 0, len(sql)
    while i < n:
        ch = sql[i]
        if ch in "'\"":
            i += 1
            while i < n and sql[i] != ch:
                i += 2 if sql[i] == "\\" else 1
            i += 1
        elif ch == "`":
            i += 1
            while i < n:
                if sql[i] == "`":
                    if i + 1 < n and sql[i + 1] == "`":
                        i += 2
                        continue
                    break
                i += 1
            i += 1
        elif sql.startswith("--", i):
            j = sql.find("\n", i)
            i = n if j < 0 else j + 1
        elif sql.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if sql.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif sql.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
        elif ch in "rR" and i + 1 < n and sql[i + 1] in "'\"" and (i == 0 or not _is_word(sql[i - 1])):
            quote, i = sql[i + 1], i + 2
            while i < n and sql[i] != quote:
                i += 1
            i += 1
        elif ch == ";":
            yield ";", i, i + 1
            i += 1
        elif ch == "?":
            yield "?", i, i + 1
            i += 1
        elif ch == ":" and i + 1 < n and _is_word_start(sql[i + 1]) and (i == 0 or sql[i - 1] != ":"):
            j = i + 1
            while j < n and _is_word(sql[j]):
                j += 1
            yield ":", i, j
            i = j
        elif _is_word(ch):
            while i < n and _is_word(sql[i]):
                i += 1
        else:
            i += 1


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _is_word_start(ch: str) -> bool:
    return ch.isalpha() or ch == "_"


def statement_count(sql: str) -> int:
    """The number of non-empty statements of a script."""
    count, start = 0, 0
    for kind, a, b in _scan(sql):
        if kind == ";":
            count += _has_text(sql[start:a])
            start = b
    return count + _has_text(sql[start:])


def _has_text(piece: str) -> bool:
    # Empty when nothing but blanks and comments remain (strings count as text anyway).
    out, i, n = [], 0, len(piece)
    while i < n:
        if piece.startswith("--", i):
            j = piece.find("\n", i)
            i = n if j < 0 else j + 1
        elif piece.startswith("/*", i):
            j = piece.find("*/", i + 2)
            i = n if j < 0 else j + 2
        else:
            out.append(piece[i])
            i += 1
    return bool("".join(out).strip())


def bind(sql: str, params) -> str:
    """sql with every parameter marker replaced by the literal of its value."""
    if params is None:
        return sql
    out, last = [], 0
    for a, b, value in _markers(sql, params):
        out.append(sql[last:a])
        out.append(literal(value))
        last = b
    out.append(sql[last:])
    return "".join(out)


_EPOCH = _dt.datetime(1970, 1, 1)
_EPOCH_UTC = _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)
_MICRO = _dt.timedelta(microseconds=1)


def _tagged(value):
    """value as the (tag, payload) pair the native module binds, or None when the C API has no
    binding for it (lists and dicts)."""
    if value is None:
        return ("n", None)
    if isinstance(value, bool):
        return ("b", value)
    if isinstance(value, int):
        if -2**31 <= value < 2**31:
            return ("i", value)
        return ("l", value) if -2**63 <= value < 2**63 else ("d", str(value))
    if isinstance(value, float):
        return ("f", value)
    if isinstance(value, _decimal.Decimal):
        if not value.is_finite():
            raise InvalidArgumentError(f"the decimal parameter {value} has no SQL value", "INVALID_ARG")
        return ("d", f"{value:f}")
    if isinstance(value, str):
        return ("s", value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return ("x", bytes(value))
    if isinstance(value, _dt.datetime):
        if value.tzinfo is None:
            return ("T", (value - _EPOCH) // _MICRO)
        return ("t", (value - _EPOCH_UTC) // _MICRO)
    if isinstance(value, _dt.date):
        return ("D", (value - _EPOCH.date()).days)
    if isinstance(value, (Mapping, list, tuple)):
        return None
    literal(value)  # raises the error for a type without a SQL value
    return None


def native_args(sql: str, params):
    """(values, names) for the native module's query_params: tagged values in marker order
    (names None) or one per distinct name (names their list); None when the statement must be
    bound as text (several statements, or a value the C API cannot bind). Raises the same
    errors as bind for markers and parameters that do not match."""
    if params is None or statement_count(sql) != 1:
        return None
    values, names, seen = [], [], set()
    named = isinstance(params, Mapping)
    for a, b, value in _markers(sql, params):
        if named:
            if sql[a + 1:b] in seen:
                continue
            seen.add(sql[a + 1:b])
            names.append(sql[a + 1:b])
        tagged = _tagged(value)
        if tagged is None:
            return None
        values.append(tagged)
    return values, (names if named else None)


def _markers(sql: str, params):
    """(start, end, value) for each marker of sql, checking the markers against params."""
    named = isinstance(params, Mapping)
    if not named and (isinstance(params, (str, bytes)) or not isinstance(params, Sequence)):
        raise InvalidArgumentError(
            f"params must be a list (for ? markers) or a dict (for :name markers), not {type(params).__name__}",
            "INVALID_ARG")
    found, used, index = [], set(), 0
    for kind, a, b in _scan(sql):
        if kind == ";" or (kind == ":" and not named):
            continue
        if kind == "?":
            if named:
                raise InvalidArgumentError(
                    f"the SQL has a '?' marker at offset {a} but params is a dict; use :name markers or pass a list",
                    "INVALID_ARG", offset=a, sql=sql)
            if index >= len(params):
                raise InvalidArgumentError(
                    f"the SQL has more '?' markers than the {len(params)} parameters given (marker {index + 1} at offset {a})",
                    "INVALID_ARG", offset=a, sql=sql)
            value = params[index]
            index += 1
        else:
            name = sql[a + 1:b]
            if name not in params:
                raise InvalidArgumentError(
                    f"the SQL names the parameter :{name} (offset {a}) but params has no key {name!r}",
                    "INVALID_ARG", offset=a, sql=sql)
            value = params[name]
            used.add(name)
        found.append((a, b, value))
    if not named and index != len(params):
        raise InvalidArgumentError(
            f"{len(params)} parameters were given but the SQL has {index} '?' markers",
            "INVALID_ARG", sql=sql)
    if named and set(params) - used:
        unused = ", ".join(sorted(str(k) for k in set(params) - used))
        raise InvalidArgumentError(f"params has keys the SQL does not use: {unused}",
                                   "INVALID_ARG", sql=sql)
    return found


def quote_string(text: str) -> str:
    """text as a Spark SQL string literal."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def quote_name(name: str) -> str:
    """name as a Spark SQL quoted identifier."""
    return "`" + name.replace("`", "``") + "`"


def literal(value) -> str:
    """A Python value as a Spark SQL literal of the matching type."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value) if -2**63 <= value < 2**63 else f"{value}BD"
    if isinstance(value, float):
        if _math.isnan(value) or _math.isinf(value):
            return f"CAST('{value!r}' AS DOUBLE)".replace("inf", "Infinity").replace("nan", "NaN")
        return f"{value!r}D"
    if isinstance(value, _decimal.Decimal):
        if not value.is_finite():
            raise InvalidArgumentError(f"the decimal parameter {value} has no SQL value", "INVALID_ARG")
        return f"{value}BD" if "E" not in str(value) else f"{value:f}BD"
    if isinstance(value, str):
        return quote_string(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return "X'" + bytes(value).hex().upper() + "'"
    if isinstance(value, _dt.datetime):
        if value.tzinfo is None:
            return f"TIMESTAMP_NTZ'{value.isoformat(sep=' ')}'"
        utc = value.astimezone(_dt.timezone.utc).replace(tzinfo=None)
        return f"TIMESTAMP'{utc.isoformat(sep=' ')}Z'"
    if isinstance(value, _dt.date):
        return f"DATE'{value.isoformat()}'"
    if isinstance(value, Mapping):
        items = ", ".join(f"{literal(k)}, {literal(v)}" for k, v in value.items())
        return f"map({items})"
    if isinstance(value, (list, tuple)):
        return "array(" + ", ".join(literal(v) for v in value) + ")"
    raise InvalidArgumentError(
        f"a parameter of type {type(value).__name__} has no SQL literal; pass None, bool, int, float, "
        "Decimal, str, bytes, date, datetime, list or dict", "INVALID_ARG")
