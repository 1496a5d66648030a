"""Fixtures of the PySpark-layer tests: a SparkSession of deltalite.spark over a fresh
warehouse in the test's temporary folder, which is also the working directory (so the stories'
relative paths, 'Tables/gold_sales_orders', land there). The deltalite package comes as for
tests/python (../conftest.py: scripts/test installs it into build/python/site); deltalite.spark is this
checkout's."""

import pathlib
import sys

import pytest

import deltalite

# deltalite.spark is pure Python: the tests run this checkout's copy (the one beside them, even
# when the installed package is older), with the installed extension.
CHECKOUT = str(pathlib.Path(__file__).resolve().parents[3] / "python" / "deltalite")
if "deltalite.spark" not in sys.modules and CHECKOUT not in deltalite.__path__:
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
