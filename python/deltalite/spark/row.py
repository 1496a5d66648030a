"""Row: the tuple with field names that collect() returns (pyspark.sql.Row)."""


class Row(tuple):
    """Row(a=1, b='x') or a row of a result. row[0], row['a'] and row.a all read a field;
    Row('a', 'b') makes a row class whose call fills the fields."""

    def __new__(cls, *args, **kwargs):
        if args and kwargs:
            raise ValueError("Row takes field values by position or by name, not both")
        if kwargs:
            row = tuple.__new__(cls, list(kwargs.values()))
            row.__fields__ = list(kwargs)
            return row
        row = tuple.__new__(cls, args)
        row.__fields__ = None
        return row

    @classmethod
    def _make(cls, names, values):
        row = tuple.__new__(cls, values)
        row.__fields__ = list(names)
        return row

    def __call__(self, *values):
        if self.__fields__ is not None:
            raise TypeError("a Row with values is not a row class; Row('a', 'b') makes one")
        if len(values) != len(self):
            raise ValueError(f"this row class has {len(self)} fields ({', '.join(self)}), given {len(values)} values")
        return Row._make(list(self), values)

    def asDict(self, recursive=False):
        if self.__fields__ is None:
            raise TypeError("a Row without field names cannot become a dict")

        def conv(v):
            if not recursive:
                return v
            if isinstance(v, Row):
                return v.asDict(True)
            if isinstance(v, list):
                return [conv(x) for x in v]
            if isinstance(v, dict):
                return {k: conv(x) for k, x in v.items()}
            return v

        return {n: conv(v) for n, v in zip(self.__fields__, self)}

    def __getitem__(self, item):
        if isinstance(item, str):
            try:
                return tuple.__getitem__(self, self.__fields__.index(item))
            except (ValueError, AttributeError):
                raise KeyError(item) from None
        return tuple.__getitem__(self, item)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        fields = self.__dict__.get("__fields__")
        if fields and name in fields:
            return tuple.__getitem__(self, fields.index(name))
        raise AttributeError(name)

    def __contains__(self, item):
        if self.__fields__ is not None:
            return item in self.__fields__
        return tuple.__contains__(self, item)

    def __reduce__(self):
        if self.__fields__ is None:
            return (Row, tuple(self))
        return (_restore, (self.__fields__, tuple(self)))

    def __repr__(self):
        if self.__fields__ is None:
            return "<Row(" + ", ".join(repr(v) for v in self) + ")>"
        return "Row(" + ", ".join(f"{n}={v!r}" for n, v in zip(self.__fields__, self)) + ")"


def _restore(names, values):
    return Row._make(names, values)
