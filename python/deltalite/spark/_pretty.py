"""The text show() prints for values the engine's CAST(x AS STRING) writes differently from
Spark's show (ToPrettyString): binary as [01 FF], and NULL inside arrays, maps and structs
spelled NULL. Leaves are written as Spark casts them to text (doubles as Java prints them)."""

import datetime as _dt
import decimal as _decimal
import math
import struct


def java_double(x):
    """Double.toString: plain between 1e-3 and 1e7, else d.dddE±n; shortest digits."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "-0.0" if math.copysign(1, x) < 0 else "0.0"
    return _java_digits(repr(x), 1e-3 <= abs(x) < 1e7)


def java_float(x):
    """Float.toString of a float32 value (the shortest digits that read back as it)."""
    if math.isnan(x) or math.isinf(x) or x == 0:
        return java_double(x)
    bits = struct.pack("f", x)
    for precision in range(1, 10):
        text = f"{x:.{precision}g}"
        if struct.pack("f", float(text)) == bits:
            break
    return _java_digits(repr(float(text)), 1e-3 <= abs(x) < 1e7)


def _java_digits(shortest, is_plain):
    sign, digits, exponent = _decimal.Decimal(shortest).as_tuple()
    digits = "".join(map(str, digits)).rstrip("0") or "0"
    point = len("".join(map(str, _decimal.Decimal(shortest).as_tuple()[1]))) + exponent  # digits before the point
    minus = "-" if sign else ""
    if is_plain:
        if point <= 0:
            return f"{minus}0.{'0' * -point}{digits}"
        whole, frac = digits[:point].ljust(point, "0"), digits[point:]
        return f"{minus}{whole}.{frac or '0'}"
    return f"{minus}{digits[0]}.{digits[1:] or '0'}E{point - 1}"


def _timestamp(v, zone):
    if v.tzinfo is not None:
        v = v.astimezone(zone)
    text = v.strftime("%Y-%m-%d %H:%M:%S")
    if v.microsecond:
        text += f".{v.microsecond:06d}".rstrip("0")
    return text


def pretty(value, t, zone, nested=False):
    """show()'s text of a value of Arrow type t (timestamps in the session's zone)."""
    import pyarrow as pa

    if value is None:
        return "NULL" if nested else None
    if pa.types.is_struct(t):
        return "{" + ", ".join(pretty(value[t.field(i).name], t.field(i).type, zone, True)
                               for i in range(t.num_fields)) + "}"
    if pa.types.is_map(t):
        return "{" + ", ".join(f"{pretty(k, t.key_type, zone, True)} -> {pretty(v, t.item_type, zone, True)}"
                               for k, v in value) + "}"
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return "[" + ", ".join(pretty(v, t.value_type, zone, True) for v in value) + "]"
    if _is_binary(t):
        return "[" + " ".join(f"{b:02X}" for b in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if pa.types.is_float64(t):
        return java_double(value)
    if pa.types.is_float32(t):
        return java_float(value)
    if isinstance(value, _dt.datetime):
        return _timestamp(value, zone)
    if isinstance(value, _decimal.Decimal):
        return format(value, "f")
    if isinstance(value, _dt.date):
        return value.isoformat()
    return str(value)


def needs_pretty(t):
    """Whether show() formats a column of Arrow type t here rather than by the engine's CAST."""
    import pyarrow as pa

    return (pa.types.is_struct(t) or pa.types.is_map(t) or pa.types.is_list(t) or pa.types.is_large_list(t)
            or _is_binary(t))


def _is_binary(t):
    import pyarrow as pa

    return pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_binary_view(t)
