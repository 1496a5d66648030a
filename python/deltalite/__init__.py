"""deltalite: Delta Lake in C, from Python.

    import deltalite
    with deltalite.connect("spark-warehouse") as con:
        table = con.sql("SELECT * FROM sales WHERE amount > ?", params=[10]).arrow()

docs/python.md in the repository describes the whole API."""

from . import _native
from ._connection import Connection, Cursor, Relation, connect
from ._errors import *  # noqa: F401,F403
from ._ingest import write_deltalake
from ._table import DeltaTable, Schema
from ._errors import __all__ as _error_names

__version__ = _native.version()

# PEP 249 module globals.
apilevel = "2.0"
threadsafety = 1  # threads may share the module, not connections
paramstyle = "qmark"

__all__ = ["connect", "Connection", "Cursor", "Relation", "DeltaTable", "Schema", "write_deltalake",
           "__version__", *_error_names]
