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


class SparkRuntimeException(PySparkException):
    """A statement that failed while it ran, on a row's value: raise_error() and assert_true()
    ([USER_RAISED_EXCEPTION]), as PySpark raises them."""


# The engine's error conditions PySpark raises as SparkRuntimeException (not AnalysisException).
_RUNTIME_CONDITIONS = ("[USER_RAISED_EXCEPTION]",)


def from_engine(error):
    """The PySpark exception for an error of the native API."""
    text = str(error)
    kind = type(error).__name__.lower()
    if any(c in text for c in _RUNTIME_CONDITIONS):
        return SparkRuntimeException(text)
    cls = ParseException if ("syntax" in kind or text.startswith("syntax error")) else AnalysisException
    return cls(text)
