"""deltalite.spark: PySpark's Delta API over deltalite, compiled to deltalite's Spark SQL and
run in this process (no JVM). A PySpark Delta script runs with its imports changed:

    from pyspark.sql import SparkSession      ->  from deltalite.spark import SparkSession
    from pyspark.sql.functions import col     ->  from deltalite.spark.functions import col
    from pyspark.sql.types import StructType  ->  from deltalite.spark.types import StructType
    from delta.tables import DeltaTable       ->  from deltalite.spark.tables import DeltaTable
    from delta import configure_spark_with_delta_pip  ->  from deltalite.spark import ...

The subset and its differences from Spark: docs/pyspark.md. Calls outside it raise
NotImplementedError naming the call."""

from .column import Column
from .dataframe import DataFrame, GroupedData
from .errors import AnalysisException, IllegalArgumentException, ParseException, PySparkException, SparkRuntimeException
from .pip_utils import configure_spark_with_delta_pip
from .readwriter import DataFrameReader, DataFrameWriter
from .row import Row
from .session import RuntimeConfig, SparkSession
from .window import Window, WindowSpec

__all__ = [
    "SparkSession", "DataFrame", "Column", "Row", "GroupedData", "DataFrameReader", "DataFrameWriter",
    "RuntimeConfig", "AnalysisException", "ParseException", "IllegalArgumentException", "PySparkException",
    "SparkRuntimeException", "Window", "WindowSpec", "display", "configure_spark_with_delta_pip",
]


def display(df):
    """Databricks' and Fabric's notebook display(): here, the DataFrame's show() without cutting
    values."""
    if not isinstance(df, DataFrame):
        raise TypeError(f"display takes a DataFrame, not {type(df).__name__}")
    df.show(1000, truncate=False)
