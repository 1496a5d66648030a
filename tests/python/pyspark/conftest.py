"""Fixtures of the PySpark-layer tests: a SparkSession of deltalite.spark over a fresh
warehouse in the test's temporary folder, which is also the working directory (so the stories'
relative paths, 'Tables/gold_sales_orders', land there). The deltalite package comes as for
tests/python (../conftest.py: scripts/test installs it into build/python/site)."""

import pathlib

import pytest

import deltalite

CHECKOUT = str(pathlib.Path(__file__).resolve().parents[3] / "python" / "deltalite")
try:
    import deltalite.spark  # noqa: F401
except ImportError:  # an installed package older than deltalite.spark: this checkout's
    deltalite.__path__.insert(0, CHECKOUT)


@pytest.fixture
def spark(tmp_path, monkeypatch):
    from deltalite.spark import SparkSession

    monkeypatch.chdir(tmp_path)
    session = (SparkSession.builder.appName("deltalite-pyspark-tests")
               .config("spark.sql.warehouse.dir", str(tmp_path / "spark-warehouse"))
               .getOrCreate())
    yield session
    session.stop()
