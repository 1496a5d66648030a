"""pyspark.sql.window for deltalite: Window and WindowSpec, compiled to OVER (PARTITION BY ...
ORDER BY ... ROWS|RANGE BETWEEN ...), which the engine runs as Spark does."""

from .column import Column, _col_or_name, name_sql

__all__ = ["Window", "WindowSpec"]

_LONG_MIN, _LONG_MAX = -(1 << 63), (1 << 63) - 1
_PRECEDING_THRESHOLD = max(-9223372036854775808, -(1 << 62))  # PySpark's thresholds for "unbounded"
_FOLLOWING_THRESHOLD = min(9223372036854775807, (1 << 62))


def _names(cols):
    if len(cols) == 1 and isinstance(cols[0], (list, tuple)):
        return tuple(cols[0])
    return cols


def _bound(value, is_start):
    if value <= _PRECEDING_THRESHOLD:
        return "UNBOUNDED PRECEDING"
    if value >= _FOLLOWING_THRESHOLD:
        return "UNBOUNDED FOLLOWING"
    if value == 0:
        return "CURRENT ROW"
    return f"{-value} PRECEDING" if value < 0 else f"{value} FOLLOWING"


class WindowSpec:
    def __init__(self, partition=(), order=(), frame=None):
        self._partition, self._order, self._frame = tuple(partition), tuple(order), frame

    def partitionBy(self, *cols):
        return WindowSpec(tuple(_col_or_name(c) for c in _names(cols)), self._order, self._frame)

    def orderBy(self, *cols):
        items = []
        for c in _names(cols):
            items.append(c._order_sql() if isinstance(c, Column) else name_sql(c))
        return WindowSpec(self._partition, tuple(items), self._frame)

    def rowsBetween(self, start, end):
        return WindowSpec(self._partition, self._order, f"ROWS BETWEEN {_bound(start, True)} AND {_bound(end, False)}")

    def rangeBetween(self, start, end):
        return WindowSpec(self._partition, self._order, f"RANGE BETWEEN {_bound(start, True)} AND {_bound(end, False)}")

    def _sql(self):
        parts = []
        if self._partition:
            parts.append("PARTITION BY " + ", ".join(self._partition))
        if self._order:
            parts.append("ORDER BY " + ", ".join(self._order))
        if self._frame:
            parts.append(self._frame)
        return "(" + " ".join(parts) + ")"


class Window:
    unboundedPreceding = _LONG_MIN
    unboundedFollowing = _LONG_MAX
    currentRow = 0

    @staticmethod
    def partitionBy(*cols):
        return WindowSpec().partitionBy(*cols)

    @staticmethod
    def orderBy(*cols):
        return WindowSpec().orderBy(*cols)

    @staticmethod
    def rowsBetween(start, end):
        return WindowSpec().rowsBetween(start, end)

    @staticmethod
    def rangeBetween(start, end):
        return WindowSpec().rangeBetween(start, end)
