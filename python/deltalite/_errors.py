"""Exception classes: one per status class of the C library (include/deltalite.h), placed in
PEP 249's hierarchy, each carrying where in the SQL text the error is."""

from __future__ import annotations


class Warning(Exception):  # noqa: A001 - PEP 249 names it so
    """PEP 249's Warning (deltalite raises none today)."""


class Error(Exception):
    """Every error deltalite raises. Attributes: status (the C status name, "SQL_BIND"), message,
    hint (what to do, "" when none), offset (byte offset in the SQL text, -1 when the error is
    not about a position), line and column (1-based, 0 when none), caret (the SQL line with a
    '^' under the position) and sql (the text, when known)."""

    def __init__(self, message: str, status: str = "", hint: str = "", offset: int = -1,
                 line: int = 0, column: int = 0, caret: str = "", sql: str | None = None):
        super().__init__(message)
        self.message = message
        self.status = status
        self.hint = hint
        self.offset = offset
        self.line = line
        self.column = column
        self.caret = caret
        self.sql = sql

    def __str__(self) -> str:
        text = self.message
        if self.hint:
            text += f"\nhint: {self.hint}"
        if self.caret:
            text += "\n" + self.caret.rstrip("\n")
        return text


class InterfaceError(Error):
    """The Python API was misused (a closed connection, a result already read)."""


class DatabaseError(Error):
    """PEP 249: errors of the engine."""


class DataError(DatabaseError):
    """PEP 249: a value or file is wrong. Raised itself for the C status DATA: a value the
    operation refuses while the statement runs (division by zero, a cast that fails, an
    overflow, an argument a function refuses)."""


class OperationalError(DatabaseError):
    """PEP 249: the environment failed (I/O, memory, a concurrent writer, a cancel)."""


class IntegrityError(DatabaseError):
    """PEP 249: a constraint was violated."""


class InternalError(DatabaseError):
    """A bug in deltalite (INTERNAL)."""


class ProgrammingError(DatabaseError):
    """PEP 249: the SQL or the call is wrong."""


class NotSupportedError(DatabaseError):
    """PEP 249: a feature deltalite lacks."""


class InvalidArgumentError(ProgrammingError):
    """INVALID_ARG: the API was called wrongly."""


class OutOfMemoryError(OperationalError):
    """NOMEM."""


class IOError(OperationalError):  # noqa: A001 - the C class's name
    """IO: the operating system refused a read or write."""


class NotFoundError(ProgrammingError):
    """NOT_FOUND: a table, file, column or version does not exist."""


class CorruptError(DataError):
    """CORRUPT: a file violates its format."""


class UnsupportedError(NotSupportedError):
    """UNSUPPORTED: valid input using a feature deltalite lacks."""


class SchemaError(ProgrammingError):
    """SCHEMA: types or schemas do not match."""


class ConflictError(OperationalError):
    """CONFLICT: a concurrent writer won."""


class SqlSyntaxError(ProgrammingError):
    """SQL_SYNTAX: the SQL does not parse."""


class SqlBindError(ProgrammingError):
    """SQL_BIND: names or types in the SQL do not resolve."""


class ConstraintError(IntegrityError):
    """CONSTRAINT: a table constraint was violated."""


class InterruptedError(OperationalError):  # noqa: A001 - the C class's name
    """INTERRUPTED: cancelled (Connection.interrupt)."""


class AlreadyExistsError(ProgrammingError):
    """EXISTS: the object to create already exists."""


class LimitError(DataError):
    """LIMIT: input exceeds a size or depth limit."""


BY_STATUS = {
    "INVALID_ARG": InvalidArgumentError,
    "NOMEM": OutOfMemoryError,
    "IO": IOError,
    "NOT_FOUND": NotFoundError,
    "CORRUPT": CorruptError,
    "UNSUPPORTED": UnsupportedError,
    "SCHEMA": SchemaError,
    "CONFLICT": ConflictError,
    "SQL_SYNTAX": SqlSyntaxError,
    "SQL_BIND": SqlBindError,
    "CONSTRAINT": ConstraintError,
    "INTERRUPTED": InterruptedError,
    "INTERNAL": InternalError,
    "EXISTS": AlreadyExistsError,
    "LIMIT": LimitError,
    "DATA": DataError,
}

__all__ = ["Warning", "Error", "InterfaceError", "DatabaseError", "DataError",
           "OperationalError", "IntegrityError", "InternalError", "ProgrammingError",
           "NotSupportedError", *sorted({c.__name__ for c in BY_STATUS.values()})]
