"""Fixtures of the PySpark-layer tests: a SparkSession of deltalite.spark over a fresh
warehouse in the test's temporary folder, which is also the working directory (so the stories'
relative paths, 'Tables/gold_sales_orders', land there). The deltalite package is the
installed one, or python/ of this checkout with the extension a CMake build made
(-DDL_PYTHON=ON: build/release/python/ or build/debug/python/)."""

import importlib.util
import os
import pathlib
import sys
import time

import pytest

os.environ["TZ"] = "UTC"
time.tzset()

ROOT = pathlib.Path(__file__).resolve().parents[3]


def _use_checkout():
    """This checkout's python/ first (its extension from a CMake build when there is one), so
    that the tests run the code beside them, not an older installed copy."""
    for build in ("release", "debug"):
        found = sorted((ROOT / "build" / build / "python").glob("_native*.so"))
        if found:
            sys.path.insert(0, str(ROOT / "python"))
            spec = importlib.util.spec_from_file_location("deltalite._native", found[0])
            module = importlib.util.module_from_spec(spec)
            sys.modules["deltalite._native"] = module
            spec.loader.exec_module(module)
            return
    try:
        import deltalite
    except ImportError:
        raise RuntimeError("the deltalite package is not installed and no build has its extension: run "
                           "pip install ./python, or cmake --preset release -DDL_PYTHON=ON && "
                           "cmake --build --preset release --target _native") from None
    checkout = str(ROOT / "python" / "deltalite")
    if checkout not in deltalite.__path__:
        deltalite.__path__.insert(0, checkout)  # deltalite.spark from this checkout


_use_checkout()


@pytest.fixture
def spark(tmp_path, monkeypatch):
    from deltalite.spark import SparkSession

    monkeypatch.chdir(tmp_path)
    session = (SparkSession.builder.appName("deltalite-pyspark-tests")
               .config("spark.sql.warehouse.dir", str(tmp_path / "spark-warehouse"))
               .getOrCreate())
    yield session
    session.stop()


def history_timestamp(spark, table, version):
    """The commit timestamp of a version, as text DESCRIBE HISTORY shows it (what the stories
    tell the reader to copy into timestampAsOf)."""
    rows = spark.sql(f"SELECT CAST(timestamp AS STRING) AS ts FROM (DESCRIBE HISTORY {table}) "
                     f"WHERE version = {version}").collect()
    return rows[0]["ts"]
