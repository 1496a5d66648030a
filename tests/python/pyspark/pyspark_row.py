"""Row of the engine a case runs on (pyspark.sql.Row on Spark, deltalite.spark.Row here)."""


def row_class(spark):
    if type(spark).__module__.startswith("deltalite"):
        from deltalite.spark import Row
    else:
        from pyspark.sql import Row
    return Row


def window_class(spark):
    if type(spark).__module__.startswith("deltalite"):
        from deltalite.spark.window import Window
    else:
        from pyspark.sql.window import Window
    return Window
