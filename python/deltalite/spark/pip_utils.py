"""delta-spark's configure_spark_with_delta_pip (from delta import configure_spark_with_delta_pip
-> from deltalite.spark import configure_spark_with_delta_pip). In PySpark it adds Delta's
Maven jars to spark.jars.packages so that the JVM downloads them; deltalite.spark is Delta
itself, in this process, so there are no jars: the builder comes back unchanged."""


def configure_spark_with_delta_pip(spark_session_builder, extra_packages=None):
    """The builder, ready for Delta (it already is). extra_packages (Maven coordinates of more
    JVM packages) cannot be loaded without a JVM, so they are refused rather than ignored."""
    from .session import Builder

    if not isinstance(spark_session_builder, Builder):
        raise TypeError(f"configure_spark_with_delta_pip takes SparkSession.builder, not "
                        f"{type(spark_session_builder).__name__}")
    if extra_packages:
        raise NotImplementedError(
            f"configure_spark_with_delta_pip(extra_packages={list(extra_packages)!r}): these are JVM packages "
            f"(Maven coordinates) and deltalite.spark has no JVM to load them into; leave extra_packages out")
    return spark_session_builder
