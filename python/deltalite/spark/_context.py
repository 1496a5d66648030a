"""spark.sparkContext: the few SparkContext calls that mean something without a JVM. Anything
else raises NotImplementedError naming the call."""

# Spark's log levels (SparkContext.VALID_LOG_LEVELS).
LOG_LEVELS = ("ALL", "DEBUG", "ERROR", "FATAL", "INFO", "OFF", "TRACE", "WARN")
# deltalite.spark writes no log lines (a failure is raised as an exception, never logged):
# at these levels Spark prints nothing either, so they hold as they are.
_QUIET_LEVELS = ("WARN", "ERROR", "FATAL", "OFF")


class SparkContext:
    def __init__(self, session):
        self._session = session

    def setLogLevel(self, logLevel):
        """Accepts the levels at which Spark shows no routine log (WARN, the default, and
        above): deltalite.spark writes none. INFO and below are refused, as their log does
        not exist here; unknown names are refused as Spark refuses them."""
        from .errors import IllegalArgumentException

        level = str(logLevel).upper()
        if level not in LOG_LEVELS:
            raise IllegalArgumentException(f"Supplied level {logLevel} did not match one of: {','.join(LOG_LEVELS)}")
        if level not in _QUIET_LEVELS:
            raise NotImplementedError(f"SparkContext.setLogLevel({logLevel!r}): deltalite.spark writes no {level} "
                                      f"log (there is no JVM whose log it would be); levels WARN to OFF hold as is")
        self._session._kept["spark.log.level"] = level

    @property
    def appName(self):
        return self._session.conf.get("spark.app.name", "deltalite.spark")

    @property
    def master(self):
        return self._session.conf.get("spark.master", "local[*]")

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        raise NotImplementedError(f"SparkContext.{name}: there is no SparkContext without a JVM; deltalite.spark "
                                  f"has setLogLevel, appName and master only")
