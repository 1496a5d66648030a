"""Runs dataframe_cases.py on Apache Spark (the interop venv's pyspark, local[1], no Delta)
and writes what Spark answers to golden_spark.json, which test_dataframe_vs_spark.py compares
deltalite.spark with. Run it again when a case changes:
    ~/.cache/deltalite/interop/venv/bin/python tests/python/pyspark/make_golden.py"""

import contextlib
import io
import json
import os
import pathlib
import sys

os.environ["TZ"] = "UTC"
HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE))

import dataframe_cases as cases  # noqa: E402


def canon(value):
    """A collected value as JSON: types kept apart (1 vs 1.0 vs '1')."""
    import datetime
    import decimal

    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return {"int": value}
    if isinstance(value, float):
        return {"float": repr(value)}
    if isinstance(value, decimal.Decimal):
        return {"decimal": str(value)}
    if isinstance(value, (datetime.date, datetime.datetime)):
        return {type(value).__name__: value.isoformat()}
    if isinstance(value, (bytes, bytearray)):
        return {type(value).__name__: value.hex()}
    if isinstance(value, dict):
        return {"map": [[canon(k), canon(v)] for k, v in sorted(value.items())]}
    if isinstance(value, (list, tuple)):
        return [canon(v) for v in value]
    raise TypeError(f"no canonical form for {value!r}")


def answer(df):
    return {"columns": df.columns, "dtypes": [t for _, t in df.dtypes],
            "rows": [canon(list(r)) for r in df.collect()]}


def show_text(df, kwargs):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        df.show(**kwargs)
    return out.getvalue()


def main():
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F

    spark = (SparkSession.builder.master("local[1]").appName("golden")
             .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "1")
             .config("spark.sql.session.timeZone", "UTC").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    all_cases = {**cases.CASES, **cases.EXTRA}
    golden = {"cases": {name: answer(make(spark, F)) for name, make in cases.CASES.items()},
              "shows": [[name, kwargs, show_text(all_cases[name](spark, F), kwargs)] for name, kwargs in cases.SHOWS]}
    spark.stop()
    (HERE / "golden_spark.json").write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
