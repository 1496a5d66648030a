"""Fixtures of the interop tests: one local[2] Spark session with Delta for the whole run,
deltalite's library, DuckDB with its delta extension. Nothing here skips: a missing engine,
jar or build is an error that names what to run."""

import os
import pathlib
import time

import pytest

os.environ["TZ"] = "UTC"
os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
time.tzset()

import engines  # noqa: E402

HOME = pathlib.Path(
    os.environ.get("DL_INTEROP_HOME", pathlib.Path(os.environ.get("XDG_CACHE_HOME", pathlib.Path.home() / ".cache")) / "deltalite" / "interop")
)
JARS_LIST = pathlib.Path(__file__).parent / "jars.txt"


def delta_jars():
    jars = []
    for line in JARS_LIST.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        _group, name, version = line.strip().split(":")
        jar = HOME / "jars" / f"{name}-{version}.jar"
        if not jar.is_file():
            raise RuntimeError(f"the Delta jar {jar} is missing: run scripts/install-interop")
        jars.append(str(jar))
    return jars


def pytest_sessionstart(session):
    for what in (engines.SHELL, engines.LIBRARY):
        if not what.is_file():
            raise pytest.UsageError(f"{what} is missing: build the release preset first (cmake --build --preset release)")


def spark_session():
    """The local[2] Spark session with Delta of a run (also used by same_statements.py's long mode)."""
    from pyspark.sql import SparkSession

    builder = (
        SparkSession.builder.master("local[2]")
        .appName("deltalite-interop")
        .config("spark.jars", ",".join(delta_jars()))
        .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
        .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        # Tuned for a loaded 2-core machine and tiny tables (measured: 12 version reads
        # 104 s -> 31 s on the first round): one shuffle partition, the C1 JIT only, no
        # whole-stage code generation, no adaptive re-planning.
        .config("spark.sql.shuffle.partitions", "1")
        .config("spark.default.parallelism", "1")
        .config("spark.databricks.delta.snapshotPartitions", "1")
        .config("spark.sql.codegen.wholeStage", "false")
        .config("spark.sql.adaptive.enabled", "false")
        # Delta's VACUUM lists the table's folders in a job of this many tasks (default
        # 10,000): 96 s for a one-file table on 2 cores, 4 s with 2.
        .config("spark.sql.sources.parallelPartitionDiscovery.parallelism", "2")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.driver.memory", "1g")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.extraJavaOptions", "-Duser.timezone=UTC -XX:+UseSerialGC -XX:TieredStopAtLevel=1")
        # One warehouse per pytest-xdist worker (scripts/test runs two, each with its session).
        .config("spark.sql.warehouse.dir", str(pathlib.Path(os.environ.get("TMPDIR", "/tmp"))
                                               / f"deltalite-interop-warehouse-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"))
    )
    session = builder.getOrCreate()
    session.sparkContext.setLogLevel("ERROR")
    return session



@pytest.fixture(scope="session")
def spark():
    session = spark_session()
    yield session
    session.stop()


@pytest.fixture(scope="session")
def duck():
    con = engines.duckdb_connect()
    yield con
    con.close()


@pytest.fixture
def warehouse(tmp_path):
    path = tmp_path / "warehouse"
    path.mkdir()
    return path


@pytest.fixture
def dl(warehouse):
    db = engines.Deltalite(warehouse)
    yield db
    db.close()
