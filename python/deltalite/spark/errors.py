"""The exceptions PySpark scripts catch (pyspark.errors): the engine's errors arrive as
AnalysisException (ParseException for syntax errors), the original error chained as
__cause__, its message unchanged."""


class PySparkException(Exception):
    """The base of the errors deltalite.spark raises for the engine."""


class AnalysisException(PySparkException):
    """A statement the engine refused or failed (a missing table, a bad column, a conflict)."""


class ParseException(AnalysisException):
    """SQL the engine's parser could not read."""


class IllegalArgumentException(PySparkException, ValueError):
    """An argument PySpark would refuse."""


def from_engine(error):
    """The PySpark exception for an error of the native API."""
    text = str(error)
    kind = type(error).__name__.lower()
    cls = ParseException if ("syntax" in kind or text.startswith("syntax error")) else AnalysisException
    return cls(text)
